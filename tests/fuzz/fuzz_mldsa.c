// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: ML-DSA (every registered mldsa44/65/87 driver) key
 * parsing and verification.
 *
 * Input layout:
 *   [0]      implementation (% the number of ML-DSA implementations)
 *   [1]      flags: bit 0 the key bytes are a public key to set (else the
 *            key pair made for this implementation at start-up), bit 1
 *            they are a private key to set, bit 2 use the context bytes,
 *            bit 3 also sign the message with the start-up key and check
 *            that flipping the bit named by [6..7] breaks the signature
 *   [2..3]   key length (u16 LE, clipped)
 *   [4..5]   signature length (u16 LE, clipped)
 *   [6..7]   a bit position (u16 LE) for bit 3
 *   [8]      context length (clipped)
 *   then the key bytes, the context, the signature, the message.
 *
 * Key parsing (raw, SPKI, PKCS#8 in its three forms, PEM, detected) must
 * return 0 or -EKEYREJECTED; a key it accepts must export and re-import
 * to the same public key in every format, and an accepted private key
 * must sign (deterministically) what it then verifies.  Verification of
 * the input signature must return 0 or -EBADMSG; the start-up key's own
 * signature must verify and stop verifying with any bit flipped.  Every
 * input is in an exact-size heap copy.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rind/crypto.h>
#include <rind/sig.h>

#define FUZZ_NAME "fuzz_mldsa"
#define MAXIMPL 16
#include "fuzz_common.h"

static struct fuzz_impls impls;
static struct crypto_sig *gen_tfm[MAXIMPL];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const names[] = { "mldsa44", "mldsa65", "mldsa87" };
	struct fuzz_impls one;
	unsigned int i;
	int j;

	(void)argc;
	(void)argv;
	impls.n = 0;
	for (i = 0; i < 3; i++) {
		fuzz_impls(names[i], "sig", &one);
		for (j = 0; j < one.n && impls.n < MAXIMPL; j++)
			memcpy(impls.name[impls.n++], one.name[j], CRYPTO_MAX_ALG_NAME);
	}
	if (!impls.n) {
		fprintf(stderr, "FAIL " FUZZ_NAME ": no ML-DSA implementation\n");
		abort();
	}
	for (j = 0; j < impls.n; j++) {
		u8 seed[32];

		memset(seed, j + 1, sizeof(seed));
		gen_tfm[j] = crypto_alloc_sig(impls.name[j], 0, 0);
		if (IS_ERR(gen_tfm[j]) || crypto_sig_set_privkey(gen_tfm[j], seed, 32) ||
		    rind_sig_set_deterministic(gen_tfm[j], true))
			abort();
	}
	return 0;
}

/* Every public export of @t re-imported on @u gives the same raw key. */
static void check_exports(struct crypto_sig *t, struct crypto_sig *u)
{
	static const enum rind_key_format fmts[] = { RIND_KEY_RAW, RIND_KEY_SPKI_DER, RIND_KEY_PEM };
	static uint8_t a[8192], b[8192], enc[8192];
	int la, lb, n;
	unsigned int f;

	la = crypto_sig_export_pubkey(t, RIND_KEY_RAW, a, sizeof(a));
	if (la <= 0)
		FAIL("raw public export: %d", la);
	for (f = 0; f < 3; f++) {
		n = crypto_sig_export_pubkey(t, fmts[f], enc, sizeof(enc));
		if (n <= 0 || crypto_sig_set_pubkey(u, enc, (unsigned int)n))
			FAIL("public key format %u does not round-trip (%d)", f, n);
		lb = crypto_sig_export_pubkey(u, RIND_KEY_RAW, b, sizeof(b));
		if (lb != la || memcmp(a, b, (size_t)la))
			FAIL("public key format %u re-imports to another key", f);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t sig[8192];
	struct crypto_sig *t, *u;
	unsigned int keylen, siglen, ctxlen, bitpos, flags, idx;
	uint8_t *key, *ctx, *s, *msg;
	size_t rest, msglen;
	int err, n;

	if (size < 9)
		return 0;
	idx = data[0] % (unsigned int)impls.n;
	flags = data[1];
	keylen = data[2] | (unsigned int)data[3] << 8;
	siglen = data[4] | (unsigned int)data[5] << 8;
	bitpos = data[6] | (unsigned int)data[7] << 8;
	ctxlen = data[8];
	data += 9;
	rest = size - 9;
	if (keylen > rest)
		keylen = (unsigned int)rest;
	rest -= keylen;
	if (!(flags & 4))
		ctxlen = 0;
	if (ctxlen > rest)
		ctxlen = (unsigned int)rest;
	rest -= ctxlen;
	if (siglen > rest)
		siglen = (unsigned int)rest;
	rest -= siglen;
	msglen = rest;
	key = fuzz_dup(data, keylen);
	ctx = fuzz_dup(data + keylen, ctxlen);
	s = fuzz_dup(data + keylen + ctxlen, siglen);
	msg = fuzz_dup(data + keylen + ctxlen + siglen, msglen);
	cur_impl = impls.name[idx];

	t = crypto_alloc_sig(impls.name[idx], 0, 0);
	u = crypto_alloc_sig(impls.name[idx], 0, 0);
	if (IS_ERR(t) || IS_ERR(u))
		abort();
	/* A fresh tfm takes the start-up key unless the input brings one. */
	n = crypto_sig_export_pubkey(gen_tfm[idx], RIND_KEY_RAW, sig, sizeof(sig));
	if (n <= 0 || crypto_sig_set_pubkey(t, sig, (unsigned int)n))
		FAIL("start-up key");
	if (flags & 1) {
		cur_alg = "set_pubkey";
		err = crypto_sig_set_pubkey(t, key, keylen);
		if (err && err != -EKEYREJECTED)
			FAIL("set_pubkey: %d", err);
		if (!err)
			check_exports(t, u);
	}
	if (flags & 2) {
		cur_alg = "set_privkey";
		err = crypto_sig_set_privkey(u, key, keylen);
		if (err && err != -EKEYREJECTED)
			FAIL("set_privkey: %d", err);
		if (!err) {
			int l;

			rind_sig_set_deterministic(u, true);
			l = crypto_sig_sign(u, msg, (unsigned int)msglen, sig, sizeof(sig));
			if (l <= 0 || crypto_sig_verify(u, sig, (unsigned int)l, msg,
							(unsigned int)msglen))
				FAIL("an accepted private key does not sign and verify (%d)", l);
			n = crypto_sig_export_privkey(u, RIND_KEY_PKCS8_DER, sig, sizeof(sig));
			if (n <= 0 || crypto_sig_set_privkey(u, sig, (unsigned int)n))
				FAIL("private key does not round-trip through PKCS#8 (%d)", n);
		}
	}
	cur_alg = "verify";
	err = rind_sig_set_context(t, ctx, ctxlen);
	if (err)
		FAIL("set_context(%u): %d", ctxlen, err);
	err = crypto_sig_verify(t, s, siglen, msg, (unsigned int)msglen);
	if (err && err != -EBADMSG)
		FAIL("verify: %d", err);
	if (flags & 8) {
		/* The start-up key's own signature, and one flipped bit of it. */
		int l;

		cur_alg = "sign";
		rind_sig_set_context(gen_tfm[idx], ctx, ctxlen);
		l = crypto_sig_sign(gen_tfm[idx], msg, (unsigned int)msglen, sig, sizeof(sig));
		if (l <= 0)
			FAIL("sign: %d", l);
		err = crypto_sig_set_pubkey(t, sig, 0);	/* must fail and keep the key */
		if (err != -EKEYREJECTED)
			FAIL("empty public key: %d", err);
		if (!(flags & 1) && crypto_sig_verify(t, sig, (unsigned int)l, msg,
						     (unsigned int)msglen))
			FAIL("own signature does not verify");
		if (crypto_sig_verify(gen_tfm[idx], sig, (unsigned int)l, msg, (unsigned int)msglen))
			FAIL("own signature does not verify (signing tfm)");
		sig[(bitpos / 8) % (unsigned int)l] ^= (uint8_t)(1u << (bitpos % 8));
		if (crypto_sig_verify(gen_tfm[idx], sig, (unsigned int)l, msg,
				      (unsigned int)msglen) != -EBADMSG)
			FAIL("a signature with bit %u flipped verifies", bitpos % (8 * (unsigned int)l));
		rind_sig_set_context(gen_tfm[idx], NULL, 0);
	}
	crypto_free_sig(t);
	crypto_free_sig(u);
	free(key);
	free(ctx);
	free(s);
	free(msg);
	return 0;
}
