// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: every registered signature verifier (each "sig"
 * implementation, whatever its algorithm, so that new ones are covered as
 * they land) fed arbitrary signatures, messages and public keys.
 *
 * Input layout:
 *   [0]      implementation (% the number of sig implementations)
 *   [1]      flags: bit 0 the public key comes from the input (else the
 *            key pair generated for this implementation at start-up),
 *            bit 1 also sign with the generated key (signing RSA and
 *            ECDSA under the sanitizers is slow: only some inputs do),
 *            bit 2 then also verify through crypto_sig_verify_batch
 *   [2..3]   public key length (u16 LE, clipped), with bit 0
 *   [4..5]   signature length (u16 LE, clipped)
 *   then the public key, the signature, the message.
 *
 * Verification must return 0 or -EBADMSG (-EINVAL is allowed for a
 * signature of impossible length), never crash, leak or read outside the
 * exact-size heap copies it is given.  With the generated key and bit 1,
 * the implementation's own signature of the message must verify, and
 * must stop verifying when a byte of it is flipped; a batch must give
 * each request the result of the single call.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rind/crypto.h>

#define FUZZ_NAME "fuzz_sigverify"
#define MAXIMPL 64
#include "fuzz_common.h"

static struct fuzz_impls sigs;
static struct crypto_sig *gen_tfm[MAXIMPL], *in_tfm[MAXIMPL];

/*
 * A key pair for @tfm: one generated for an earlier implementation when it
 * loads (every RSA padding and hash shares one RSA key, every driver of a
 * curve one EC key: key generation is slow under the sanitizers), else a
 * fresh one, kept for the next.
 */
static int set_key(struct crypto_sig *tfm)
{
	static uint8_t *keys[MAXIMPL];
	static int lens[MAXIMPL], nkeys;
	uint8_t buf[16384];
	int i, n, err;

	for (i = 0; i < nkeys; i++)
		if (!crypto_sig_set_privkey(tfm, keys[i], (unsigned int)lens[i]))
			return 0;
	err = crypto_sig_set_keygen_bits(tfm, 2048);
	if (err && err != -EOPNOTSUPP)
		return err;
	err = crypto_sig_generate_key(tfm);
	if (err)
		return err;
	n = crypto_sig_export_privkey(tfm, RIND_KEY_PKCS8_DER, buf, sizeof(buf));
	if (n > 0 && nkeys < MAXIMPL) {
		keys[nkeys] = malloc((size_t)n);
		if (!keys[nkeys])
			abort();
		memcpy(keys[nkeys], buf, (size_t)n);
		lens[nkeys++] = n;
	}
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const uint8_t probe[] = "probe";
	int i, n = 0, err;

	(void)argc;
	(void)argv;
	(void)crypto_has_alg("sha256", 0, 0);
	fuzz_instantiate_ecdsa();
	fuzz_impls(NULL, "sig", &sigs);
	fprintf(stderr, "fuzz_sigverify:");
	for (i = 0; i < sigs.n; i++) {
		uint8_t sig[2048];

		gen_tfm[n] = crypto_alloc_sig(sigs.name[i], 0, 0);
		in_tfm[n] = crypto_alloc_sig(sigs.name[i], 0, 0);
		if (IS_ERR(gen_tfm[n]) || IS_ERR(in_tfm[n]))
			abort();
		err = set_key(gen_tfm[n]);
		if (err) {
			fprintf(stderr, "\nfuzz_sigverify: %s: no key pair: %d\n", sigs.name[i], err);
			abort();
		}
		if (crypto_sig_sign(gen_tfm[n], probe, sizeof(probe), sig, sizeof(sig)) ==
		    -EOPNOTSUPP) {
			/* A key holder that signs and verifies nothing (ecdsa-nist-pXXX). */
			crypto_free_sig(gen_tfm[n]);
			crypto_free_sig(in_tfm[n]);
			continue;
		}
		fprintf(stderr, " %s", sigs.name[i]);
		if (n != i)
			memcpy(sigs.name[n], sigs.name[i], CRYPTO_MAX_ALG_NAME);
		n++;
	}
	sigs.n = n;
	fprintf(stderr, "\n");
	if (!sigs.n)
		abort();
	return 0;
}

static int verify(struct crypto_sig *tfm, const uint8_t *sig, size_t siglen, const uint8_t *msg,
		  size_t len)
{
	uint8_t *s = fuzz_dup(sig, siglen), *m = fuzz_dup(msg, len);
	int r = crypto_sig_verify(tfm, s, (unsigned int)siglen, m, (unsigned int)len);

	free(s);
	free(m);
	if (r && r != -EBADMSG && r != -EINVAL)
		FAIL("verify of a %zu-byte signature returned %d", siglen, r);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t hdr[6] = { 0 };
	size_t keylen = 0, siglen;
	const uint8_t *key, *sig, *msg;
	struct crypto_sig *tfm;
	int i, r, err;

	fuzz_take(&data, &size, hdr, sizeof(hdr));
	i = hdr[0] % sigs.n;
	cur_impl = sigs.name[i];
	if (hdr[1] & 1) {
		keylen = hdr[2] | (size_t)hdr[3] << 8;
		if (keylen > size)
			keylen = size;
	}
	key = data;
	siglen = hdr[4] | (size_t)hdr[5] << 8;
	if (siglen > size - keylen)
		siglen = size - keylen;
	sig = data + keylen;
	msg = sig + siglen;
	size -= keylen + siglen;

	if (hdr[1] & 1) {
		uint8_t *k = fuzz_dup(key, keylen);

		tfm = in_tfm[i];
		err = crypto_sig_set_pubkey(tfm, k, (unsigned int)keylen);
		free(k);
		if (err) {
			if (err != -EKEYREJECTED && err != -EINVAL)
				FAIL("set_pubkey(%zu bytes) = %d", keylen, err);
			return 0;
		}
	} else {
		tfm = gen_tfm[i];
	}
	r = verify(tfm, sig, siglen, msg, size);

	if ((hdr[1] & 3) == 2) {
		unsigned int max = crypto_sig_maxsize(tfm);
		uint8_t *own = malloc(max ? max : 1);
		int n;

		if (!own)
			abort();
		n = crypto_sig_sign(tfm, msg, (unsigned int)size, own, max);
		if (n <= 0 || (unsigned int)n > max)
			FAIL("sign = %d (max %u)", n, max);
		if (verify(tfm, own, (size_t)n, msg, size))
			FAIL("its own signature does not verify");
		if (siglen) {
			/* Flip a byte chosen by the input. */
			size_t at = (size_t)sig[0] % (size_t)n;

			own[at] ^= (uint8_t)(sig[siglen - 1] | 1);
			if (!verify(tfm, own, (size_t)n, msg, size))
				FAIL("a signature with byte %zu flipped verifies", at);
			own[at] ^= (uint8_t)(sig[siglen - 1] | 1);
		}
		if (hdr[1] & 4) {
			struct sig_request reqs[3];
			uint8_t *s = fuzz_dup(sig, siglen), *m = fuzz_dup(msg, size);

			memset(reqs, 0, sizeof(reqs));
			reqs[0].msg = m;
			reqs[0].msglen = (unsigned int)size;
			reqs[0].sig = s;
			reqs[0].siglen = (unsigned int)siglen;
			reqs[1] = reqs[0];
			reqs[1].sig = own;
			reqs[1].siglen = (unsigned int)n;
			reqs[2] = reqs[0];
			reqs[2].siglen = siglen ? (unsigned int)siglen - 1 : 0;
			err = crypto_sig_verify_batch(tfm, reqs, 3);
			if (reqs[0].err != r || reqs[1].err != 0 ||
			    reqs[2].err != verify(tfm, sig, reqs[2].siglen, msg, size))
				FAIL("batch results %d %d %d, single %d 0 and the truncated one",
				     reqs[0].err, reqs[1].err, reqs[2].err, r);
			if (err != (r ? r : reqs[2].err))
				FAIL("batch returned %d, not the first error", err);
			free(s);
			free(m);
		}
		free(own);
	}
	return 0;
}
