// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: X25519 and Ed25519, every rind implementation against
 * OpenSSL and libsodium.
 *
 * Input: [0] % 3 picks the mode, [1] % (n + 1) the implementation (index
 * n is the one-shot: rind_curve25519(), rind_ed25519_sign()/_verify()).
 *
 *   0  X25519:  [2] split of the peer key in the request (% 33), then the
 *      32-byte secret and the 32-byte peer public key.  The public key
 *      must equal OpenSSL's and libsodium's; the shared secret must equal
 *      EVP_PKEY_derive()'s and crypto_scalarmult()'s.  All three refuse an
 *      all-zero result: rind with -EINVAL (writing nothing), OpenSSL's
 *      derive by failing, libsodium by returning -1 (it also refuses the
 *      small-order inputs on its blacklist up front, all of which give a
 *      zero result anyway), so the verdicts must match exactly.
 *
 *   1  Ed25519 sign: [2..3] mutation offset (u16 LE) into sig || pub ||
 *      msg, [4] its xor mask, then the 32-byte seed and the message.  The
 *      public key and the signature must equal libsodium's and OpenSSL's
 *      (Ed25519 is deterministic); the signature must verify; then the
 *      mutated triple goes through the verify comparison below.
 *
 *   2  Ed25519 verify: the 32-byte public key, the 64-byte signature, the
 *      message; the verify comparison below.
 *
 * Verify comparison.  rind is strict and cofactorless: S < L, A a
 * canonical encoding (y < p, not x = 0 with the sign bit) of a curve point
 * (else set_pubkey fails), R compared as bytes with the canonical encoding
 * of [S]B - [k]A, small-order A and R not refused specially.
 *   - S >= L: all three must refuse.
 *   - OpenSSL (cofactorless, compares R as bytes, S < L) must agree with
 *     rind whenever A is canonical; for a non-canonical A rind refuses the
 *     key and OpenSSL's result is not compared (it reduces y mod p).
 *   - libsodium additionally refuses small-order A and R; it is compared
 *     where A is canonical and neither A nor R has small order.
 *   - rind's tfm path and rind_ed25519_verify() must agree everywhere.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <sodium.h>
#include <rind/crypto.h>

#define FUZZ_NAME "fuzz_25519"
#define MAXIMPL 16
#include "fuzz_common.h"

static void impls(const char *name, const char *type, struct fuzz_impls *l)
{
	fuzz_impls(name, type, l);
	fprintf(stderr, "fuzz_25519: %s:", name);
	for (int i = 0; i < l->n; i++)
		fprintf(stderr, " %s", l->name[i]);
	fprintf(stderr, "\n");
	if (!l->n)
		abort();
}

static struct fuzz_impls x_impls, ed_impls;
static struct crypto_kpp *x_tfm[MAXIMPL];
static struct crypto_sig *ed_sign_tfm[MAXIMPL], *ed_ver_tfm[MAXIMPL];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int i;

	(void)argc;
	(void)argv;
	if (sodium_init() < 0)
		abort();
	impls("curve25519", "kpp", &x_impls);
	impls("ed25519", "sig", &ed_impls);
	for (i = 0; i < x_impls.n; i++) {
		x_tfm[i] = crypto_alloc_kpp(x_impls.name[i], 0, 0);
		if (IS_ERR(x_tfm[i]))
			abort();
	}
	for (i = 0; i < ed_impls.n; i++) {
		ed_sign_tfm[i] = crypto_alloc_sig(ed_impls.name[i], 0, 0);
		ed_ver_tfm[i] = crypto_alloc_sig(ed_impls.name[i], 0, 0);
		if (IS_ERR(ed_sign_tfm[i]) || IS_ERR(ed_ver_tfm[i]))
			abort();
	}
	return 0;
}

static const char *hex(const uint8_t *p, size_t n)
{
	static char buf[2 * 128 + 4];
	size_t i;

	if (n > 128)
		n = 128;
	for (i = 0; i < n; i++)
		snprintf(buf + 2 * i, 3, "%02x", p[i]);
	buf[2 * n] = 0;
	return buf;
}

/* ---- X25519 ------------------------------------------------------------- */

static EVP_PKEY *ossl_raw(int type, int priv, const uint8_t *k, size_t len)
{
	EVP_PKEY *p = priv ? EVP_PKEY_new_raw_private_key(type, NULL, k, len) :
			     EVP_PKEY_new_raw_public_key(type, NULL, k, len);

	if (!p)
		FAIL("OpenSSL refused a raw %s key", priv ? "private" : "public");
	return p;
}

static void fuzz_x25519(const uint8_t *hdr, const uint8_t *secret, const uint8_t *peer)
{
	uint8_t pub_ref[32], pub_na[32], ss_ref[32], ss_na[32], out[48];
	size_t publen = 32, sslen = 32;
	EVP_PKEY *me, *them;
	EVP_PKEY_CTX *pc;
	unsigned int idx = hdr[1] % (unsigned int)(x_impls.n + 1);
	int ok_ref, ok_na, err;

	cur_alg = "x25519";
	cur_impl = idx < (unsigned int)x_impls.n ? x_impls.name[idx] : "one-shot";

	me = ossl_raw(EVP_PKEY_X25519, 1, secret, 32);
	them = ossl_raw(EVP_PKEY_X25519, 0, peer, 32);
	if (EVP_PKEY_get_raw_public_key(me, pub_ref, &publen) != 1)
		FAIL("OpenSSL public key failed");
	pc = EVP_PKEY_CTX_new(me, NULL);
	ok_ref = pc && EVP_PKEY_derive_init(pc) == 1 && EVP_PKEY_derive_set_peer(pc, them) == 1 &&
		 EVP_PKEY_derive(pc, ss_ref, &sslen) == 1 && sslen == 32;
	EVP_PKEY_CTX_free(pc);
	EVP_PKEY_free(me);
	EVP_PKEY_free(them);
	if (crypto_scalarmult_base(pub_na, secret) != 0)
		FAIL("libsodium scalarmult_base failed");
	ok_na = crypto_scalarmult(ss_na, secret, peer) == 0;
	if (memcmp(pub_ref, pub_na, 32))
		FAIL("OpenSSL and libsodium public keys differ");
	if (ok_na != ok_ref || (ok_ref && memcmp(ss_ref, ss_na, 32)))
		FAIL("OpenSSL (%d) and libsodium (%d) disagree on peer %s", ok_ref, ok_na,
		     hex(peer, 32));

	if (idx == (unsigned int)x_impls.n) {
		err = rind_curve25519_generate_public(out, secret);
		if (err || memcmp(out, pub_ref, 32))
			FAIL("rind_curve25519_generate_public: %d, %s", err, hex(out, 32));
		memset(out, 0xa5, sizeof(out));
		err = rind_curve25519(out, secret, peer);
		if (ok_ref ? (err || memcmp(out, ss_ref, 32)) : err != -EINVAL)
			FAIL("rind_curve25519 = %d (reference %s) for peer %s", err,
			     ok_ref ? "ok" : "zero", hex(peer, 32));
		if (err) {
			for (int i = 0; i < 32; i++)
				if (out[i])
					FAIL("refused result is not all zero");
		}
		return;
	}

	{
		struct crypto_kpp *tfm = x_tfm[idx];
		struct kpp_request *req = kpp_request_alloc(tfm, 0);
		struct scatterlist sgs[2], sgd;
		uint8_t *k = fuzz_dup(secret, 32), *p0, *p1, *dst = malloc(sizeof(out));
		unsigned int cut = hdr[2] % 33;

		if (!req || !dst)
			abort();
		err = crypto_kpp_set_secret(tfm, k, 32);
		free(k);
		if (err)
			FAIL("set_secret(32 bytes) = %d", err);
		kpp_request_set_callback(req, 0, NULL, NULL);

		memset(dst, 0xa5, sizeof(out));
		sg_init_one(&sgd, dst, 32);
		kpp_request_set_input(req, NULL, 0);
		kpp_request_set_output(req, &sgd, 32);
		err = crypto_kpp_generate_public_key(req);
		if (err || req->dst_len != 32 || memcmp(dst, pub_ref, 32))
			FAIL("generate_public_key = %d, %s", err, hex(dst, 32));

		/* The peer key in two exact-size pieces. */
		p0 = malloc(cut ? cut : 1);
		p1 = malloc(32 - cut ? 32 - cut : 1);
		if (!p0 || !p1)
			abort();
		memcpy(p0, peer, cut);
		memcpy(p1, peer + cut, 32 - cut);
		sg_init_table(sgs, 2);
		sg_set_buf(&sgs[0], p0, cut);
		sg_set_buf(&sgs[1], p1, 32 - cut);
		memset(dst, 0xa5, sizeof(out));
		kpp_request_set_input(req, sgs, 32);
		kpp_request_set_output(req, &sgd, 32);
		err = crypto_kpp_compute_shared_secret(req);
		if (ok_ref ? (err || req->dst_len != 32 || memcmp(dst, ss_ref, 32)) : err != -EINVAL)
			FAIL("compute_shared_secret = %d (reference %s) for peer %s", err,
			     ok_ref ? "ok" : "zero", hex(peer, 32));
		for (int i = err ? 0 : 32; i < (int)sizeof(out); i++)
			if (dst[i] != 0xa5)
				FAIL("compute_shared_secret wrote where it should not (byte %d)", i);
		free(p0);
		free(p1);
		free(dst);
		kpp_request_free(req);
	}
}

/* ---- Ed25519 ---------------------------------------------------------------- */

/* 1 if the 32 bytes are a canonical encoding: y < p, and not x = 0 with the sign bit. */
static int ed_canonical(const uint8_t a[32])
{
	static const uint8_t one[32] = { 1 };
	uint8_t y[32], pm1[32];
	int i, ge_p = (a[31] & 0x7f) == 0x7f && a[0] >= 0xed;

	for (i = 1; i < 31; i++)
		ge_p &= a[i] == 0xff;
	if (ge_p)
		return 0;
	if (!(a[31] & 0x80))
		return 1;
	/* x = 0 exactly for y = 1 and y = p - 1. */
	memcpy(y, a, 32);
	y[31] &= 0x7f;
	memset(pm1, 0xff, 32);
	pm1[0] = 0xec;
	pm1[31] = 0x7f;
	return memcmp(y, one, 32) && memcmp(y, pm1, 32);
}

/* 1 if the point decodes and [8]P is the identity (libsodium's arithmetic). */
static int ed_small_order(const uint8_t p[32])
{
	static const uint8_t identity[32] = { 1 };
	uint8_t q[32], r[32];
	int i;

	memcpy(q, p, 32);
	for (i = 0; i < 3; i++) {
		if (crypto_core_ed25519_add(r, q, q) != 0)
			return 0;
		memcpy(q, r, 32);
	}
	return !memcmp(q, identity, 32);
}

/* S < L (little endian). */
static int sc_canonical(const uint8_t s[32])
{
	static const uint8_t l[32] = {
		0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2,
		0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
	};
	int i;

	for (i = 31; i >= 0; i--) {
		if (s[i] < l[i])
			return 1;
		if (s[i] > l[i])
			return 0;
	}
	return 0;
}

static int ossl_verify(const uint8_t pub[32], const uint8_t sig[64], const uint8_t *msg, size_t len)
{
	EVP_PKEY *pk = ossl_raw(EVP_PKEY_ED25519, 0, pub, 32);
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	int ok;

	if (!c || EVP_DigestVerifyInit(c, NULL, NULL, NULL, pk) != 1)
		FAIL("OpenSSL verify setup failed");
	ok = EVP_DigestVerify(c, sig, 64, len ? msg : (const uint8_t *)"", len) == 1;
	EVP_MD_CTX_free(c);
	EVP_PKEY_free(pk);
	return ok;
}

static void check_verify(unsigned int idx, const uint8_t pub[32], const uint8_t sig[64],
			 const uint8_t *msg, size_t len)
{
	uint8_t *p = malloc(32), *s = malloc(64), *m = malloc(len ? len : 1);
	int r_tfm = -1, r_one, ok_ssl, ok_na, err, canon = ed_canonical(pub);

	if (!p || !s || !m)
		abort();
	memcpy(p, pub, 32);
	memcpy(s, sig, 64);
	memcpy(m, msg, len);
	if (idx < (unsigned int)ed_impls.n) {
		err = crypto_sig_set_pubkey(ed_ver_tfm[idx], p, 32);
		if (err && err != -EKEYREJECTED)
			FAIL("set_pubkey = %d", err);
		if (!err && !canon)
			FAIL("set_pubkey accepted the non-canonical %s", hex(pub, 32));
		if (!err) {
			r_tfm = crypto_sig_verify(ed_ver_tfm[idx], s, 64, m, (unsigned int)len);
			if (r_tfm && r_tfm != -EBADMSG)
				FAIL("verify = %d", r_tfm);
		}
	}
	r_one = rind_ed25519_verify(s, m, len, p);
	if (r_one && r_one != -EBADMSG)
		FAIL("rind_ed25519_verify = %d", r_one);
	if (idx < (unsigned int)ed_impls.n && (r_tfm == 0) != (r_one == 0))
		FAIL("tfm verify %d, rind_ed25519_verify %d", r_tfm, r_one);
	ok_ssl = ossl_verify(pub, sig, msg, len);
	ok_na = crypto_sign_verify_detached(sig, msg, len, pub) == 0;
	if (!sc_canonical(sig + 32) && (r_one == 0 || ok_ssl || ok_na))
		FAIL("S >= L accepted: rind %d, OpenSSL %d, libsodium %d", r_one, ok_ssl, ok_na);
	if (canon && (r_one == 0) != ok_ssl)
		FAIL("rind %d, OpenSSL %d: pub %s sig %s", r_one, ok_ssl, hex(pub, 32), hex(sig, 64));
	if (canon && !ed_small_order(pub) && !ed_small_order(sig) && (r_one == 0) != ok_na)
		FAIL("rind %d, libsodium %d: pub %s sig %s", r_one, ok_na, hex(pub, 32), hex(sig, 64));
	free(p);
	free(s);
	free(m);
}

static void fuzz_ed_sign(const uint8_t *hdr, const uint8_t *seed, const uint8_t *msg, size_t len)
{
	uint8_t pk_na[32], sk_na[64], sig_na[64], sig_ssl[64], sig[64 + 16], pub[48];
	unsigned int idx = hdr[1] % (unsigned int)(ed_impls.n + 1);
	unsigned int mpos = hdr[2] | (unsigned int)hdr[3] << 8;
	uint8_t *m = malloc(len ? len : 1), *buf;
	size_t siglen = 64;
	EVP_PKEY *pk;
	EVP_MD_CTX *c;
	int err;

	cur_alg = "ed25519 sign";
	cur_impl = idx < (unsigned int)ed_impls.n ? ed_impls.name[idx] : "one-shot";
	if (!m)
		abort();
	memcpy(m, msg, len);

	crypto_sign_seed_keypair(pk_na, sk_na, seed);
	crypto_sign_detached(sig_na, NULL, msg, len, sk_na);
	pk = ossl_raw(EVP_PKEY_ED25519, 1, seed, 32);
	c = EVP_MD_CTX_new();
	if (!c || EVP_DigestSignInit(c, NULL, NULL, NULL, pk) != 1 ||
	    EVP_DigestSign(c, sig_ssl, &siglen, len ? msg : (const uint8_t *)"", len) != 1 ||
	    siglen != 64)
		FAIL("OpenSSL sign failed");
	EVP_MD_CTX_free(c);
	EVP_PKEY_free(pk);
	if (memcmp(sig_na, sig_ssl, 64))
		FAIL("OpenSSL and libsodium signatures differ");

	memset(sig, 0xa5, sizeof(sig));
	memset(pub, 0xa5, sizeof(pub));
	if (idx == (unsigned int)ed_impls.n) {
		err = rind_ed25519_public_key(pub, seed);
		if (err)
			FAIL("rind_ed25519_public_key = %d", err);
		err = rind_ed25519_sign(sig, m, len, seed);
		if (err)
			FAIL("rind_ed25519_sign = %d", err);
	} else {
		struct crypto_sig *tfm = ed_sign_tfm[idx];
		uint8_t *k = fuzz_dup(seed, 32);

		err = crypto_sig_set_privkey(tfm, k, 32);
		free(k);
		if (err)
			FAIL("set_privkey(32) = %d", err);
		err = crypto_sig_export_pubkey(tfm, RIND_KEY_RAW, pub, 32);
		if (err != 32)
			FAIL("export_pubkey = %d", err);
		err = crypto_sig_sign(tfm, m, (unsigned int)len, sig, 64);
		if (err != 64)
			FAIL("sign = %d", err);
		err = crypto_sig_verify(tfm, sig, 64, m, (unsigned int)len);
		if (err)
			FAIL("verify of its own signature with the signing tfm = %d", err);
	}
	if (memcmp(pub, pk_na, 32))
		FAIL("public key %s differs from libsodium's", hex(pub, 32));
	if (memcmp(sig, sig_na, 64))
		FAIL("signature differs from libsodium's/OpenSSL's (message %zu bytes)", len);
	if (sig[64] != 0xa5 || pub[32] != 0xa5)
		FAIL("wrote past the signature or key");
	free(m);

	/* The triple, mutated (or not), through every verifier. */
	buf = malloc(96 + len);
	if (!buf)
		abort();
	memcpy(buf, sig, 64);
	memcpy(buf + 64, pub, 32);
	memcpy(buf + 96, msg, len);
	mpos %= (unsigned int)(96 + len + 1);
	if (hdr[4] && mpos < 96 + len)
		buf[mpos] ^= hdr[4];
	cur_alg = "ed25519 verify (signed)";
	check_verify(idx, buf + 64, buf, buf + 96, len);
	if (!hdr[4] || mpos == 96 + len) {
		if (rind_ed25519_verify(buf, buf + 96, len, buf + 64))
			FAIL("an honest signature did not verify");
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t hdr[5] = { 0 }, fixed[96] = { 0 };

	fuzz_take(&data, &size, hdr, 2);
	switch (hdr[0] % 3) {
	case 0:
		fuzz_take(&data, &size, hdr + 2, 1);
		fuzz_take(&data, &size, fixed, 64);
		fuzz_x25519(hdr, fixed, fixed + 32);
		break;
	case 1:
		fuzz_take(&data, &size, hdr + 2, 3);
		fuzz_take(&data, &size, fixed, 32);
		fuzz_ed_sign(hdr, fixed, data, size);
		break;
	default:
		fuzz_take(&data, &size, fixed, 96);
		cur_alg = "ed25519 verify";
		{
			unsigned int idx = hdr[1] % (unsigned int)(ed_impls.n + 1);

			cur_impl = idx < (unsigned int)ed_impls.n ? ed_impls.name[idx] : "one-shot";
			check_verify(idx, fixed, fixed + 32, data, size);
		}
		break;
	}
	return 0;
}
