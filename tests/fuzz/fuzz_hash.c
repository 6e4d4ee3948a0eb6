// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: SHA-1/224/256/384/512 and HMAC over each, every rind
 * implementation against OpenSSL, with the update splits taken from the
 * input.
 *
 * Input layout:
 *   [0]      algorithm: % 10 -> sha1 sha224 sha256 sha384 sha512, then
 *            hmac() of each
 *   [1]      implementation: % (n + 1); index n is the one-shot
 *            (rind_sha*() or rind_hmac())
 *   [2]      flags: bit 0 finish with finup (else update + final), bit 1
 *            export the state after the first piece and import it into a
 *            fresh descriptor, bit 2 use crypto_shash_digest in one call,
 *            bit 3 crypto_shash_tfm_digest
 *   [3]      HMAC key length (0..255; ignored for plain hashes)
 *   [4..35]  up to 16 split points (u16 LE): the count is [4] % 17, the
 *            points follow
 *   then the HMAC key, then the message.
 *
 * Each piece given to update() is its own exact-size heap copy, so
 * AddressSanitizer sees any read past it.  The digest must equal OpenSSL's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <rind/crypto.h>

#define FUZZ_NAME	"fuzz_hash"
#define MAXIMPL		16
#define MAXCUT		16
#define HDR_LEN		(4 + 1 + 2 * MAXCUT)

#include "fuzz_common.h"

#define NALG 10

static const char *const hash_names[5] = { "sha1", "sha224", "sha256", "sha384", "sha512" };
static char alg_names[NALG][32];
static struct fuzz_impls lists[NALG];
static struct crypto_shash *tfms[NALG][MAXIMPL];
static const EVP_MD *mds[5];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int a, i;

	(void)argc;
	(void)argv;
	mds[0] = EVP_sha1();
	mds[1] = EVP_sha224();
	mds[2] = EVP_sha256();
	mds[3] = EVP_sha384();
	mds[4] = EVP_sha512();
	for (a = 0; a < NALG; a++) {
		if (a < 5) {
			snprintf(alg_names[a], sizeof(alg_names[a]), "%s", hash_names[a]);
			fuzz_impls(alg_names[a], "shash", &lists[a]);
		} else {
			char inst[CRYPTO_MAX_ALG_NAME + 8];

			/* hmac over every implementation of the hash. */
			for (i = 0; i < lists[a - 5].n; i++) {
				snprintf(inst, sizeof(inst), "hmac(%s)", lists[a - 5].name[i]);
				(void)crypto_has_alg(inst, 0, 0);
			}
			snprintf(alg_names[a], sizeof(alg_names[a]), "hmac(%s)", hash_names[a - 5]);
			fuzz_impls(alg_names[a], "shash", &lists[a]);
		}
		fprintf(stderr, "fuzz_hash: %s:", alg_names[a]);
		for (i = 0; i < lists[a].n; i++) {
			fprintf(stderr, " %s", lists[a].name[i]);
			tfms[a][i] = crypto_alloc_shash(lists[a].name[i], 0, 0);
			if (IS_ERR(tfms[a][i])) {
				fprintf(stderr, "\nfuzz_hash: cannot allocate %s\n", lists[a].name[i]);
				abort();
			}
		}
		fprintf(stderr, "\n");
		if (!lists[a].n)
			abort();
	}
	return 0;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

static int update_piece(struct shash_desc *desc, const uint8_t *p, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);
	int err;

	if (!copy)
		abort();
	memcpy(copy, p, len);
	err = crypto_shash_update(desc, copy, (unsigned int)len);
	free(copy);
	return err;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t hdr[HDR_LEN], ref[64], out[HASH_MAX_DIGESTSIZE + 16];
	const uint8_t *key, *msg;
	size_t keylen, len, cut[MAXCUT + 2];
	unsigned int dlen, idx;
	int a, ncut, i, err, hmac;

	memset(hdr, 0, sizeof(hdr));
	fuzz_take(&data, &size, hdr, HDR_LEN);
	a = hdr[0] % NALG;
	hmac = a >= 5;
	cur_alg = alg_names[a];
	idx = hdr[1] % (unsigned int)(lists[a].n + 1);
	cur_impl = idx < (unsigned int)lists[a].n ? lists[a].name[idx] : "one-shot";
	keylen = hmac ? hdr[3] : 0;
	if (keylen > size)
		keylen = size;
	key = data;
	msg = data + keylen;
	len = size - keylen;

	/* The reference. */
	if (hmac) {
		static const uint8_t none[1];

		if (!HMAC(mds[a - 5], keylen ? key : none, (int)keylen, len ? msg : none, len, ref, &dlen))
			FAIL("OpenSSL HMAC failed");
	} else {
		if (EVP_Digest(len ? msg : (const uint8_t *)"", len, ref, &dlen, mds[a], NULL) != 1)
			FAIL("OpenSSL digest failed");
	}

	memset(out, 0xa5, sizeof(out));
	if (idx == (unsigned int)lists[a].n) {
		uint8_t *m = malloc(len ? len : 1), *k = malloc(keylen ? keylen : 1);

		if (!m || !k)
			abort();
		memcpy(m, msg, len);
		memcpy(k, key, keylen);
		switch (a) {
		case 0:
			rind_sha1(m, len, out);
			break;
		case 1:
			rind_sha224(m, len, out);
			break;
		case 2:
			rind_sha256(m, len, out);
			break;
		case 3:
			rind_sha384(m, len, out);
			break;
		case 4:
			rind_sha512(m, len, out);
			break;
		default:
			err = rind_hmac(hash_names[a - 5], k, keylen, m, len, out);
			if (err)
				FAIL("rind_hmac returned %d", err);
		}
		free(m);
		free(k);
	} else {
		struct crypto_shash *tfm = tfms[a][idx];
		SHASH_DESC_ON_STACK(desc, tfm);
		SHASH_DESC_ON_STACK(desc2, tfm);
		struct shash_desc *d = desc;

		if (crypto_shash_digestsize(tfm) != dlen)
			FAIL("digest size %u, OpenSSL's %u", crypto_shash_digestsize(tfm), dlen);
		if (hmac) {
			uint8_t *k = malloc(keylen ? keylen : 1);

			if (!k)
				abort();
			memcpy(k, key, keylen);
			err = crypto_shash_setkey(tfm, k, (unsigned int)keylen);
			free(k);
			if (err)
				FAIL("setkey(%zu bytes) = %d", keylen, err);
		}
		desc->tfm = tfm;
		if (hdr[2] & 8) {
			uint8_t *m = malloc(len ? len : 1);

			if (!m)
				abort();
			memcpy(m, msg, len);
			err = crypto_shash_tfm_digest(tfm, m, (unsigned int)len, out);
			free(m);
			if (err)
				FAIL("tfm_digest = %d", err);
		} else if (hdr[2] & 4) {
			uint8_t *m = malloc(len ? len : 1);

			if (!m)
				abort();
			memcpy(m, msg, len);
			err = crypto_shash_digest(desc, m, (unsigned int)len, out);
			free(m);
			if (err)
				FAIL("digest = %d", err);
		} else {
			ncut = hdr[4] % (MAXCUT + 1);
			cut[0] = 0;
			for (i = 1; i <= ncut; i++)
				cut[i] = (hdr[5 + 2 * (i - 1)] | (size_t)hdr[6 + 2 * (i - 1)] << 8) % (len + 1);
			qsort(cut + 1, (size_t)ncut, sizeof(cut[0]), cmp_size);
			cut[ncut + 1] = len;
			err = crypto_shash_init(d);
			if (err)
				FAIL("init = %d", err);
			/* Every piece but the last through update(). */
			for (i = 0; i < ncut; i++) {
				err = update_piece(d, msg + cut[i], cut[i + 1] - cut[i]);
				if (err)
					FAIL("update = %d", err);
				if (i == 0 && (hdr[2] & 2)) {
					uint8_t state[HASH_MAX_STATESIZE];

					if (crypto_shash_statesize(tfm) > sizeof(state))
						FAIL("state size %u", crypto_shash_statesize(tfm));
					err = crypto_shash_export(d, state);
					if (err)
						FAIL("export = %d", err);
					shash_desc_zero(d);
					desc2->tfm = tfm;
					err = crypto_shash_import(desc2, state);
					if (err)
						FAIL("import = %d", err);
					d = desc2;
				}
			}
			if (hdr[2] & 1) {
				uint8_t *m = malloc(len - cut[ncut] + 1);

				if (!m)
					abort();
				memcpy(m, msg + cut[ncut], len - cut[ncut]);
				err = crypto_shash_finup(d, m, (unsigned int)(len - cut[ncut]), out);
				free(m);
				if (err)
					FAIL("finup = %d", err);
			} else {
				err = update_piece(d, msg + cut[ncut], len - cut[ncut]);
				if (err)
					FAIL("update = %d", err);
				err = crypto_shash_final(d, out);
				if (err)
					FAIL("final = %d", err);
			}
			shash_desc_zero(d);
		}
	}
	if (memcmp(out, ref, dlen))
		FAIL("digest differs from OpenSSL's (key %zu, message %zu bytes, flags %#x)",
		     keylen, len, hdr[2]);
	for (i = (int)dlen; i < (int)sizeof(out); i++)
		if (out[i] != 0xa5)
			FAIL("wrote past the %u-byte digest", dlen);
	return 0;
}
