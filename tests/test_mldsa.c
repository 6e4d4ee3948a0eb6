// SPDX-License-Identifier: MIT
/*
 * Suite "mldsa": ML-DSA-44/65/87 (FIPS 204, pure) as sig algorithms, over
 * every registered implementation of each, and the signing options of
 * API.md on the other signature algorithms.
 *
 *  - Wycheproof, every case of mldsa_{44,65,87}_{sign_seed,sign_noseed,
 *    verify}_test.json: keys from the seed (raw and PKCS#8) or the
 *    expanded secret key must give the file's public key; deterministic
 *    signatures through crypto_sig_sign with rind_sig_set_deterministic,
 *    randomized ones (the file's rnd) and the Internal cases (mu only)
 *    through the driver's internal Sign/Verify; every expected signature
 *    must verify; verification from the raw and the SPKI public key;
 *    invalid cases must fail where they say (key length and content
 *    -EKEYREJECTED, context -EINVAL, signature -EBADMSG).  FIPS 204 has no
 *    other known answers in ../shared/vectors (no ACVP files there).
 *  - the rounding functions of FIPS 204 section 7.4 against their
 *    definitions for every r in [0, q); the NTT against schoolbook
 *    multiplication in Z_q[X]/(X^256 + 1);
 *  - round trips with contexts (empty, 1..255 bytes; 256 refused),
 *    deterministic against hedged signing, signatures over the wrong
 *    message or context, bit flips, truncation;
 *  - key formats: raw, SPKI, PKCS#8 (seed, expandedKey, both), PEM,
 *    exported and re-imported; malformed or mismatching encodings are
 *    -EKEYREJECTED and leave the tfm's key in place;
 *  - rind_sig_set_deterministic / rind_sig_set_context on Ed25519, ECDSA
 *    (RFC 6979 A.2.5 when deterministic) and RSA;
 *  - against OpenSSL when the installed OpenSSL has ML-DSA (3.5 or
 *    later); Debian's 3.0 has not, and the test says SKIP;
 *  - every arch driver against the generic one: each hook of its struct
 *    mldsa_ops on random and extreme inputs (rounding for every r), and
 *    keys, deterministic and internal signatures byte for byte on random
 *    seeds, messages and contexts, hedged ones verified across.
 */
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <rind/sig.h>
#include <rind/internal/alg.h>
#include <crypto/keccak.h>
#include <crypto/mldsa.h>
#include "testutil.h"

static const char *const names[] = { "mldsa44", "mldsa65", "mldsa87" };
static const char *const bits[] = { "44", "65", "87" };
static const struct mldsa_params *const params[] = {
	&rind_mldsa44_params, &rind_mldsa65_params, &rind_mldsa87_params,
};

static struct crypto_sig *alloc_drv(const char *drv)
{
	return RT_ALLOC_DRV(sig, drv);
}

/*
 * The implementations of @name the suite walks: all of them, except in
 * the AVX-512 emulation run (tests/emu/check.sh sets RIND_EMU_ASSUME),
 * where only the "-avx512" drivers run emulated -- the others are the
 * native build's and its run of this suite walks them already; walking
 * them again there took 15 s of CPU instead of 11 (the loaded 2-core
 * VM).  The generic driver stays the reference of the comparisons (by
 * name).
 */
static int mldsa_impls(const char *name, drivers_t d)
{
	int n = rt_impls(name, "sig", d, RT_MAX_IMPLS), i, k = 0;

	if (!getenv("RIND_EMU_ASSUME"))
		return n;
	for (i = 0; i < n; i++)
		if (strstr(d[i], "-avx512"))
			memmove(d[k++], d[i], sizeof(d[i]));
	RT_REQ(name, k > 0);
	return k;
}

/* A hex field (absent: NULL with *len 0). */
static u8 *opt_hex(json_t *t, const char *key, size_t *len)
{
	return rt_wp_opt_hex(t, key, len, false);
}

/* ---- Wycheproof --------------------------------------------------------- */

enum wp_kind { WP_SIGN_SEED, WP_SIGN_NOSEED, WP_VERIFY };
static const char *const wp_kind_name[] = { "sign_seed", "sign_noseed", "verify" };

struct wp_count {
	int ran, valid, invalid, internal, randomized, det;
};

/*
 * One signing case on @tfm (keyed; @keyerr its set_privkey result):
 * valid cases must produce the file's signature, which must verify;
 * invalid ones must fail at the key or the context.
 */
static void wp_sign_case(const char *drv, struct crypto_sig *tfm, int keyerr, json_t *t,
			 struct wp_count *n)
{
	int tc = (int)json_integer_value(json_object_get(t, "tcId"));
	int valid = rt_wp_result(t) == 1, err;
	size_t ml, cl, rl, sl, mul;
	u8 *msg = opt_hex(t, "msg", &ml), *ctx = opt_hex(t, "ctx", &cl);
	u8 *rnd = opt_hex(t, "rnd", &rl), *sig = opt_hex(t, "sig", &sl);
	u8 *mu = opt_hex(t, "mu", &mul), out[MLDSA_SIG_MAX], mymu[64];
	u8 zero[32] = { 0 };
	struct mldsa_key *key = rind_mldsa_tfm_key(tfm);

	RT_REQ(drv, key);
	err = keyerr;
	if (!err)
		err = rind_sig_set_context(tfm, ctx, (unsigned int)cl);
	if (!valid) {
		RT_REQ(drv, err < 0);
		if (keyerr)
			RT_REQ_EQ(drv, keyerr, -EKEYREJECTED);
		else
			RT_REQ_EQ(drv, err, -EINVAL);	/* the context */
		n->invalid++;
		goto out;
	}
	if (err)
		ck_abort_msg("%s: tcId %d: key or context refused (%d)", drv, tc, err);
	RT_REQ(drv, sig && sl == key->p->sig_size);
	if (msg || !mu) {
		rind_mldsa_mu(key, ctx, cl, msg, ml, mymu);
		if (mu)
			RT_REQ_MEM(drv, tc, mymu, mu, 64);
	} else {
		memcpy(mymu, mu, 64);
	}
	if (!rnd && (msg || !mu)) {
		/* The public path: deterministic signing. */
		RT_REQ_EQ(drv, rind_sig_set_deterministic(tfm, true), 0);
		RT_REQ_EQ(drv, crypto_sig_sign(tfm, msg, (unsigned int)ml, out, sizeof(out)),
			  (int)sl);
		RT_REQ_MEM(drv, tc, out, sig, sl);
		RT_REQ_EQ(drv, crypto_sig_verify(tfm, sig, (unsigned int)sl, msg, (unsigned int)ml), 0);
		n->det++;
	}
	/* The internal algorithm with the file's rnd (or zero) over mu. */
	RT_REQ_EQ(drv, rind_mldsa_sign_mu(key, mymu, rnd ? rnd : zero, out), 0);
	RT_REQ_MEM(drv, tc, out, sig, sl);
	RT_REQ_EQ(drv, rind_mldsa_verify_mu(key, sig, sl, mymu), 0);
	n->internal += !msg;
	n->randomized += rnd != NULL;
	n->valid++;
out:
	free(msg);
	free(ctx);
	free(rnd);
	free(sig);
	free(mu);
}

static void wp_verify_case(const char *drv, struct crypto_sig *tfm, int keyerr, json_t *t,
			   struct wp_count *n)
{
	int tc = (int)json_integer_value(json_object_get(t, "tcId"));
	int valid = rt_wp_result(t) == 1, err;
	size_t ml, cl, sl;
	u8 *msg = opt_hex(t, "msg", &ml), *ctx = opt_hex(t, "ctx", &cl);
	u8 *sig = opt_hex(t, "sig", &sl);

	err = keyerr;
	if (!err)
		err = rind_sig_set_context(tfm, ctx, (unsigned int)cl);
	if (!err)
		err = crypto_sig_verify(tfm, sig, (unsigned int)sl, msg, (unsigned int)ml);
	if (valid) {
		if (err)
			ck_abort_msg("%s: tcId %d: valid signature refused (%d)", drv, tc, err);
		n->valid++;
	} else {
		if (keyerr)
			RT_REQ_EQ(drv, keyerr, -EKEYREJECTED);
		else if (cl > 255)
			RT_REQ_EQ(drv, err, -EINVAL);
		else if (err != -EBADMSG)
			ck_abort_msg("%s: tcId %d: invalid case gave %d", drv, tc, err);
		n->invalid++;
	}
	free(msg);
	free(ctx);
	free(sig);
}

static void wp_file(int pi, enum wp_kind kind, const char *drv)
{
	char file[64];
	json_t *root, *g, *t;
	size_t gi, ti;
	struct wp_count n = { 0 };

	snprintf(file, sizeof(file), "mldsa_%s_%s_test.json", bits[pi], wp_kind_name[kind]);
	root = rt_wp_load(file);
	if (!root)
		return;
	json_array_foreach(json_object_get(root, "testGroups"), gi, g) {
		size_t pkl, kl, p8l, derl;
		u8 *pk = opt_hex(g, "publicKey", &pkl);
		u8 *k = opt_hex(g, kind == WP_SIGN_SEED ? "privateSeed" : "privateKey", &kl);
		u8 *p8 = opt_hex(g, "privateKeyPkcs8", &p8l);
		u8 *der = opt_hex(g, "publicKeyDer", &derl), buf[MLDSA_PK_MAX];
		struct crypto_sig *tfm = alloc_drv(drv), *tfm2 = alloc_drv(drv);
		int keyerr, keyerr2;

		if (kind == WP_VERIFY) {
			keyerr = crypto_sig_set_pubkey(tfm, pk ? pk : buf, (unsigned int)pkl);
			keyerr2 = der ? crypto_sig_set_pubkey(tfm2, der, (unsigned int)derl) : -ENOENT;
			if (der && pkl == params[pi]->pk_size)
				RT_REQ_EQ(drv, keyerr2, 0);
		} else {
			keyerr = crypto_sig_set_privkey(tfm, k ? k : buf, (unsigned int)kl);
			keyerr2 = p8 ? crypto_sig_set_privkey(tfm2, p8, (unsigned int)p8l) : -ENOENT;
			if (!keyerr) {
				/* The key's public half is the file's. */
				RT_REQ_EQ(drv, crypto_sig_export_pubkey(tfm, RIND_KEY_RAW, buf, sizeof(buf)),
					  pkl);
				RT_REQ_MEM(drv, 0, buf, pk, pkl);
			}
			if (p8)
				RT_REQ_EQ(drv, keyerr2, keyerr);
		}
		json_array_foreach(json_object_get(g, "tests"), ti, t) {
			if (kind == WP_VERIFY) {
				wp_verify_case(drv, tfm, keyerr, t, &n);
				if (!keyerr2)
					wp_verify_case(drv, tfm2, keyerr2, t, &n);
			} else {
				wp_sign_case(drv, tfm, keyerr, t, &n);
				if (!keyerr2)
					wp_sign_case(drv, tfm2, keyerr2, t, &n);
			}
			n.ran++;
		}
		crypto_free_sig(tfm);
		crypto_free_sig(tfm2);
		free(pk);
		free(k);
		free(p8);
		free(der);
	}
	rt_report(file, drv, n.ran, 0);
	printf("  %s: %d valid and %d invalid checks (second key encodings included); "
	       "%d deterministic through crypto_sig_sign, %d randomized, %d mu-only\n",
	       file, n.valid, n.invalid, n.det, n.randomized, n.internal);
	RT_REQ(drv, n.ran > 0 && n.valid > 0);
	json_decref(root);
}

START_TEST(test_wycheproof)
{
	drivers_t d;
	int i, nd = mldsa_impls(names[_i], d);

	for (i = 0; i < nd; i++) {
		wp_file(_i, WP_SIGN_SEED, d[i]);
		wp_file(_i, WP_SIGN_NOSEED, d[i]);
		wp_file(_i, WP_VERIFY, d[i]);
	}
}
END_TEST

/* ---- arithmetic against the definitions --------------------------------- */

#define Q MLDSA_Q

/* r mod+- a, in (-a/2, a/2] (FIPS 204 section 2.3). */
static s64 mod_pm(s64 r, s64 a)
{
	s64 m = ((r % a) + a) % a;

	return m > a / 2 ? m - a : m;
}

START_TEST(test_rounding)
{
	static const s32 g2s[] = { (Q - 1) / 88, (Q - 1) / 32 };
	s32 r, r1, r0;
	unsigned int gi;

	for (r = 0; r < Q; r++) {
		rind_mldsa_power2round(r, &r1, &r0);
		if (r0 != mod_pm(r, 1 << 13) || r1 != (r - r0) >> 13)
			ck_abort_msg("Power2Round(%d) = (%d, %d)", r, r1, r0);
	}
	for (gi = 0; gi < 2; gi++) {
		s32 g2 = g2s[gi], m = (Q - 1) / (2 * g2);

		for (r = 0; r < Q; r++) {
			s64 e0 = mod_pm(r, 2 * g2), e1;
			s32 h1;

			if (r - e0 == Q - 1) {
				e1 = 0;
				e0 -= 1;
			} else {
				e1 = (r - e0) / (2 * g2);
			}
			rind_mldsa_decompose(r, g2, &r1, &r0);
			if (r1 != e1 || r0 != e0)
				ck_abort_msg("Decompose(%d, %d) = (%d, %d), want (%lld, %lld)", r, g2,
					     r1, r0, (long long)e1, (long long)e0);
			/* UseHint (Algorithm 40) */
			h1 = rind_mldsa_use_hint(1, r, g2);
			if (h1 != (e0 > 0 ? (e1 + 1) % m : (e1 - 1 + m) % m) ||
			    rind_mldsa_use_hint(0, r, g2) != e1)
				ck_abort_msg("UseHint(%d, %d)", r, g2);
		}
	}
	printf("rounding: Power2Round, Decompose, UseHint for every r in [0, q) and both gamma2\n");
}
END_TEST

START_TEST(test_ntt)
{
	static struct mldsa_poly a, b, ah, bh, prod;
	static s64 ref[256];
	struct rt_rng rng;
	int round, i, j;

	rt_rng_seed(&rng, 204);
	rind_mldsa_init_tables();
	for (round = 0; round < 20; round++) {
		for (i = 0; i < 256; i++) {
			a.c[i] = (s32)rt_rand_range(&rng, Q);
			/* small like y, s or c, signed */
			b.c[i] = (s32)rt_rand_range(&rng, 1 << 20) - (1 << 19);
		}
		memset(ref, 0, sizeof(ref));
		for (i = 0; i < 256; i++)
			for (j = 0; j < 256; j++) {
				s64 p = (s64)a.c[i] * b.c[j] % Q;

				if (i + j < 256)
					ref[i + j] = (ref[i + j] + p) % Q;
				else
					ref[i + j - 256] = (ref[i + j - 256] - p) % Q;
			}
		ah = a;
		bh = b;
		rind_mldsa_generic_ops.ntt(&ah);
		rind_mldsa_generic_ops.ntt(&bh);
		rind_mldsa_poly_reduce(&ah);
		rind_mldsa_pointwise(&prod, &ah, &bh);
		rind_mldsa_generic_ops.invntt_tomont(&prod);
		for (i = 0; i < 256; i++) {
			RT_REQ("ntt", prod.c[i] > -Q && prod.c[i] < Q);
			if ((prod.c[i] - ref[i]) % Q)
				ck_abort_msg("NTT product coefficient %d: %d vs %lld", i, prod.c[i],
					     (long long)ref[i]);
		}
	}
	printf("ntt: 20 products through the NTT equal schoolbook multiplication mod X^256 + 1\n");
}
END_TEST

/* ---- round trips, contexts, deterministic vs hedged ------------------- */

START_TEST(test_round_trip)
{
	drivers_t d;
	int i, nd = mldsa_impls(names[_i], d), checks = 0;
	const struct mldsa_params *p = params[_i];
	struct rt_rng rng;

	rt_rng_seed(&rng, 0x6d6c647361ull + (u64)_i);
	for (i = 0; i < nd; i++) {
		struct crypto_sig *tfm = alloc_drv(d[i]), *ver = alloc_drv(d[i]);
		static u8 msg[1100], ctx[256], s1[MLDSA_SIG_MAX], s2[MLDSA_SIG_MAX], pk[MLDSA_PK_MAX];
		unsigned int sl = p->sig_size, round;

		RT_REQ_EQ(d[i], crypto_sig_maxsize(tfm), sl);
		RT_REQ_EQ(d[i], crypto_sig_keysize(tfm), 0);
		RT_REQ_EQ(d[i], crypto_sig_generate_key(tfm), 0);
		RT_REQ_EQ(d[i], crypto_sig_keysize(tfm), 8 * p->pk_size);
		RT_REQ_EQ(d[i], crypto_sig_export_pubkey(tfm, RIND_KEY_RAW, pk, sizeof(pk)), p->pk_size);
		RT_REQ_EQ(d[i], crypto_sig_set_pubkey(ver, pk, p->pk_size), 0);
		for (round = 0; round < 12; round++) {
			unsigned int ml = round == 0 ? 0 : rt_rand_range(&rng, sizeof(msg));
			unsigned int cl = round < 2 ? 0 : round == 2 ? 255 : rt_rand_range(&rng, 256);

			rt_fill(&rng, msg, ml);
			rt_fill(&rng, ctx, cl);
			RT_REQ_EQ(d[i], rind_sig_set_context(tfm, ctx, cl), 0);
			RT_REQ_EQ(d[i], rind_sig_set_context(ver, ctx, cl), 0);
			/* Hedged (the default): two signatures differ, both verify. */
			RT_REQ_EQ(d[i], rind_sig_set_deterministic(tfm, false), 0);
			RT_REQ_EQ(d[i], crypto_sig_sign(tfm, msg, ml, s1, sl), (int)sl);
			RT_REQ_EQ(d[i], crypto_sig_sign(tfm, msg, ml, s2, sl), (int)sl);
			RT_REQ(d[i], memcmp(s1, s2, sl));
			RT_REQ_EQ(d[i], crypto_sig_verify(ver, s1, sl, msg, ml), 0);
			RT_REQ_EQ(d[i], crypto_sig_verify(ver, s2, sl, msg, ml), 0);
			RT_REQ_EQ(d[i], crypto_sig_verify(tfm, s1, sl, msg, ml), 0);
			/* Deterministic: equal, and equal to the internal algorithm with rnd = 0. */
			RT_REQ_EQ(d[i], rind_sig_set_deterministic(tfm, true), 0);
			RT_REQ_EQ(d[i], crypto_sig_sign(tfm, msg, ml, s1, sl), (int)sl);
			RT_REQ_EQ(d[i], crypto_sig_sign(tfm, msg, ml, s2, sl), (int)sl);
			RT_REQ_MEM(d[i], round, s1, s2, sl);
			{
				u8 mu[64], zero[32] = { 0 };
				struct mldsa_key *k = rind_mldsa_tfm_key(tfm);

				rind_mldsa_mu(k, ctx, cl, msg, ml, mu);
				RT_REQ_EQ(d[i], rind_mldsa_sign_mu(k, mu, zero, s2), 0);
				RT_REQ_MEM(d[i], round, s1, s2, sl);
			}
			RT_REQ_EQ(d[i], crypto_sig_verify(ver, s1, sl, msg, ml), 0);
			/* Another context, another message, a flipped bit, a short signature. */
			ctx[0] ^= 1;
			RT_REQ_EQ(d[i], rind_sig_set_context(ver, ctx, cl ? cl : 1), 0);
			RT_REQ_EQ(d[i], crypto_sig_verify(ver, s1, sl, msg, ml), -EBADMSG);
			RT_REQ_EQ(d[i], rind_sig_set_context(ver, NULL, 0), 0);
			if (cl) {
				RT_REQ_EQ(d[i], crypto_sig_verify(ver, s1, sl, msg, ml), -EBADMSG);
				ctx[0] ^= 1;
				RT_REQ_EQ(d[i], rind_sig_set_context(ver, ctx, cl), 0);
			}
			msg[ml] ^= 1;
			RT_REQ_EQ(d[i], crypto_sig_verify(ver, s1, sl, msg, ml + 1), -EBADMSG);
			s1[rt_rand_range(&rng, sl)] ^= (u8)(1u << rt_rand_range(&rng, 8));
			RT_REQ_EQ(d[i], crypto_sig_verify(ver, s1, sl, msg, ml), -EBADMSG);
			RT_REQ_EQ(d[i], crypto_sig_verify(ver, s2, sl - 1, msg, ml), -EBADMSG);
			RT_REQ_EQ(d[i], crypto_sig_verify(ver, s2, sl + 1, msg, ml), -EBADMSG);
			RT_REQ_EQ(d[i], crypto_sig_verify(ver, s2, sl, msg, ml), 0);
			checks++;
		}
		/* Context limits, signing without room or without a private key. */
		RT_REQ_EQ(d[i], rind_sig_set_context(tfm, ctx, 256), -EINVAL);
		RT_REQ_EQ(d[i], rind_sig_set_context(tfm, NULL, 1), -EINVAL);
		RT_REQ_EQ(d[i], crypto_sig_sign(tfm, msg, 10, s1, sl - 1), -EINVAL);
		RT_REQ_EQ(d[i], crypto_sig_sign(ver, msg, 10, s1, sl), -ENOKEY);
		RT_REQ_EQ(d[i], crypto_sig_export_privkey(ver, RIND_KEY_RAW, s1, sl), -ENOKEY);
		/* A batch through the front end: each request its own result. */
		{
			struct sig_request reqs[3];
			static u8 bs[3][MLDSA_SIG_MAX];
			int r;

			for (r = 0; r < 3; r++)
				reqs[r] = (struct sig_request){ msg, (unsigned int)(100 * r), bs[r], sl, 0 };
			RT_REQ_EQ(d[i], crypto_sig_sign_batch(tfm, reqs, 3), 0);
			for (r = 0; r < 3; r++)
				RT_REQ_EQ(d[i], reqs[r].siglen, sl);
			bs[1][7] ^= 4;
			RT_REQ_EQ(d[i], crypto_sig_verify_batch(tfm, reqs, 3), -EBADMSG);
			RT_REQ_EQ(d[i], reqs[0].err, 0);
			RT_REQ_EQ(d[i], reqs[1].err, -EBADMSG);
			RT_REQ_EQ(d[i], reqs[2].err, 0);
		}
		crypto_free_sig(tfm);
		crypto_free_sig(ver);
		rt_report("round trips (contexts, hedged and deterministic, forgeries)", d[i], checks, 0);
	}
	/* No pre-hash variant is offered. */
	RT_REQ_EQ(names[_i], crypto_has_sig("hashmldsa65", 0, 0), 0);
	RT_REQ_EQ(names[_i], PTR_ERR(crypto_alloc_sig("hashmldsa44", 0, 0)), -ENOENT);
}
END_TEST

/* ---- key formats ---------------------------------------------------------- */

/* DER TLV header for @len into @p; returns its size. */
static size_t der_hdr(u8 *p, u8 tag, size_t len)
{
	p[0] = tag;
	if (len < 128) {
		p[1] = (u8)len;
		return 2;
	}
	if (len < 256) {
		p[1] = 0x81;
		p[2] = (u8)len;
		return 3;
	}
	p[1] = 0x82;
	p[2] = (u8)(len >> 8);
	p[3] = (u8)len;
	return 4;
}

/* PKCS#8 v1 for @oidlast (17, 18, 19) around the privateKey contents @pk. */
static size_t make_pkcs8(u8 *out, unsigned int oidlast, const u8 *pk, size_t pklen)
{
	static const u8 alg_prefix[] = { 0x02, 0x01, 0x00, 0x30, 0x0b, 0x06, 0x09, 0x60, 0x86,
					  0x48, 0x01, 0x65, 0x03, 0x04, 0x03 };
	u8 body[MLDSA_SK_MAX + 200];
	size_t n = 0, h;

	memcpy(body, alg_prefix, sizeof(alg_prefix));
	n = sizeof(alg_prefix);
	body[n++] = (u8)oidlast;
	n += der_hdr(body + n, 0x04, pklen);
	memcpy(body + n, pk, pklen);
	n += pklen;
	h = der_hdr(out, 0x30, n);
	memcpy(out + h, body, n);
	return h + n;
}

START_TEST(test_key_formats)
{
	drivers_t d;
	int i, nd = mldsa_impls(names[_i], d);
	const struct mldsa_params *p = params[_i];
	static const enum rind_key_format fmts[] = { RIND_KEY_RAW, RIND_KEY_SPKI_DER,
						     RIND_KEY_PKCS8_DER, RIND_KEY_PEM };

	for (i = 0; i < nd; i++) {
		struct crypto_sig *tfm = alloc_drv(d[i]), *t2 = alloc_drv(d[i]);
		static u8 enc[16384], pk[MLDSA_PK_MAX], pk2[MLDSA_PK_MAX], sk[MLDSA_SK_MAX];
		static u8 inner[MLDSA_SK_MAX + 100], der[MLDSA_SK_MAX + 300], seed[32], sig[MLDSA_SIG_MAX];
		struct mldsa_key *key;
		unsigned int f, checks = 0;
		size_t n, h;
		int len;

		RT_REQ_EQ(d[i], crypto_sig_generate_key(tfm), 0);
		RT_REQ_EQ(d[i], crypto_sig_export_pubkey(tfm, RIND_KEY_RAW, pk, sizeof(pk)), p->pk_size);
		RT_REQ_EQ(d[i], crypto_sig_export_privkey(tfm, RIND_KEY_RAW, seed, sizeof(seed)), 32);
		key = rind_mldsa_tfm_key(tfm);
		memcpy(sk, key->sk, p->sk_size);
		for (f = 0; f < ARRAY_SIZE(fmts); f++) {
			/* public: raw, SPKI, PEM */
			len = crypto_sig_export_pubkey(tfm, fmts[f], enc, sizeof(enc));
			if (fmts[f] == RIND_KEY_PKCS8_DER) {
				RT_REQ_EQ(d[i], len, -EINVAL);
			} else {
				RT_REQ(d[i], len > 0);
				RT_REQ_EQ(d[i], crypto_sig_export_pubkey(tfm, fmts[f], enc, (unsigned int)len - 1),
					  -ENOSPC);
				RT_REQ_EQ(d[i], crypto_sig_export_pubkey(tfm, fmts[f], enc, (unsigned int)len), len);
				RT_REQ_EQ(d[i], crypto_sig_set_pubkey(t2, enc, (unsigned int)len), 0);
				RT_REQ_EQ(d[i], crypto_sig_export_pubkey(t2, RIND_KEY_RAW, pk2, sizeof(pk2)),
					  p->pk_size);
				RT_REQ_MEM(d[i], f, pk, pk2, p->pk_size);
				RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, enc, (unsigned int)len), -EKEYREJECTED);
				checks++;
			}
			/* private: raw seed, PKCS#8 (seed), PEM */
			len = crypto_sig_export_privkey(tfm, fmts[f], enc, sizeof(enc));
			if (fmts[f] == RIND_KEY_SPKI_DER) {
				RT_REQ_EQ(d[i], len, -EINVAL);
				continue;
			}
			RT_REQ(d[i], len > 0);
			RT_REQ_EQ(d[i], crypto_sig_export_privkey(tfm, fmts[f], enc, (unsigned int)len - 1),
				  -ENOSPC);
			RT_REQ_EQ(d[i], crypto_sig_export_privkey(tfm, fmts[f], enc, (unsigned int)len), len);
			if (fmts[f] == RIND_KEY_PKCS8_DER) {
				/* seed-only: 30 34 02 01 00 30 0b 06 09 ... 04 22 80 20 <seed> */
				RT_REQ_EQ(d[i], len, 54);
				RT_REQ(d[i], enc[18] == 0x04 && enc[19] == 0x22 && enc[20] == 0x80 &&
					     enc[21] == 0x20);
				RT_REQ_MEM(d[i], f, enc + 22, seed, 32);
			}
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, enc, (unsigned int)len), 0);
			RT_REQ_EQ(d[i], crypto_sig_export_pubkey(t2, RIND_KEY_RAW, pk2, sizeof(pk2)), p->pk_size);
			RT_REQ_MEM(d[i], f, pk, pk2, p->pk_size);
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(t2, enc, (unsigned int)len), -EKEYREJECTED);
			checks++;
		}
		RT_REQ_EQ(d[i], crypto_sig_export_pubkey(tfm, RIND_KEY_JWK, enc, sizeof(enc)), -EINVAL);
		RT_REQ_EQ(d[i], crypto_sig_export_privkey(tfm, RIND_KEY_JWK, enc, sizeof(enc)), -EINVAL);

		/* The expanded secret key, raw and as PKCS#8 expandedKey; export gives it back. */
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, sk, p->sk_size), 0);
		RT_REQ_EQ(d[i], crypto_sig_export_privkey(t2, RIND_KEY_RAW, enc, sizeof(enc)),
			  p->sk_size);
		RT_REQ_MEM(d[i], 0, enc, sk, p->sk_size);
		RT_REQ_EQ(d[i], crypto_sig_export_pubkey(t2, RIND_KEY_RAW, pk2, sizeof(pk2)), p->pk_size);
		RT_REQ_MEM(d[i], 0, pk, pk2, p->pk_size);
		RT_REQ_EQ(d[i], rind_sig_set_deterministic(tfm, true), 0);
		RT_REQ_EQ(d[i], rind_sig_set_deterministic(t2, true), 0);
		RT_REQ_EQ(d[i], crypto_sig_sign(t2, "m", 1, sig, sizeof(sig)), (int)p->sig_size);
		RT_REQ_EQ(d[i], crypto_sig_sign(tfm, "m", 1, enc, sizeof(enc)), (int)p->sig_size);
		RT_REQ_MEM(d[i], 0, enc, sig, p->sig_size);
		len = crypto_sig_export_privkey(t2, RIND_KEY_PKCS8_DER, enc, sizeof(enc));
		n = der_hdr(inner, 0x04, p->sk_size);
		memcpy(inner + n, sk, p->sk_size);
		n += p->sk_size;
		RT_REQ_EQ(d[i], len, (int)make_pkcs8(der, 17 + (unsigned int)_i, inner, n));
		RT_REQ_MEM(d[i], 0, enc, der, (size_t)len);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, der, (unsigned int)len), 0);
		checks += 3;

		/* "both": SEQUENCE { seed, expandedKey }; a mismatch is refused. */
		h = der_hdr(inner, 0x30, 34 + der_hdr(der, 0x04, p->sk_size) + p->sk_size);
		n = h;
		n += der_hdr(inner + n, 0x04, 32);
		memcpy(inner + n, seed, 32);
		n += 32;
		n += der_hdr(inner + n, 0x04, p->sk_size);
		memcpy(inner + n, sk, p->sk_size);
		n += p->sk_size;
		len = (int)make_pkcs8(der, 17 + (unsigned int)_i, inner, n);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, der, (unsigned int)len), 0);
		inner[n - 1] ^= 1;	/* the last t0 byte */
		len = (int)make_pkcs8(der, 17 + (unsigned int)_i, inner, n);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, der, (unsigned int)len), -EKEYREJECTED);
		inner[n - 1] ^= 1;
		checks += 2;

		/* Malformed: wrong OID, a 31-byte seed, a trailing byte, a bad expanded key. */
		inner[0] = 0x80;
		inner[1] = 0x20;
		memcpy(inner + 2, seed, 32);
		len = (int)make_pkcs8(der, 17 + (unsigned int)(_i + 1) % 3, inner, 34);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, der, (unsigned int)len), -EKEYREJECTED);
		len = (int)make_pkcs8(der, 17 + (unsigned int)_i, inner, 34);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, der, (unsigned int)len), 0);
		inner[1] = 0x1f;
		len = (int)make_pkcs8(der, 17 + (unsigned int)_i, inner, 33);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, der, (unsigned int)len), -EKEYREJECTED);
		inner[1] = 0x20;
		inner[34] = 0;
		len = (int)make_pkcs8(der, 17 + (unsigned int)_i, inner, 35);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, der, (unsigned int)len), -EKEYREJECTED);
		inner[0] = 0x81;
		len = (int)make_pkcs8(der, 17 + (unsigned int)_i, inner, 34);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, der, (unsigned int)len), -EKEYREJECTED);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, seed, 31), -EKEYREJECTED);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, seed, 33), -EKEYREJECTED);
		RT_REQ_EQ(d[i], crypto_sig_set_pubkey(t2, pk, p->pk_size - 1), -EKEYREJECTED);
		RT_REQ_EQ(d[i], crypto_sig_set_pubkey(t2, pk, p->pk_size + 1), -EKEYREJECTED);
		/* s1's first coefficient packed as 7 (eta = 2) or 15 (eta = 4): out of range */
		memcpy(enc, sk, p->sk_size);
		enc[128] |= p->eta == 2 ? 0x07 : 0x0f;
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, enc, p->sk_size), -EKEYREJECTED);
		/* tr that is not H(pk); t0 that is not the one s1, s2 give */
		memcpy(enc, sk, p->sk_size);
		enc[64] ^= 1;
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, enc, p->sk_size), -EKEYREJECTED);
		memcpy(enc, sk, p->sk_size);
		enc[p->sk_size - 1] ^= 0x40;
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, enc, p->sk_size), -EKEYREJECTED);
		/* SPKI with a wrong OID or a short key */
		len = crypto_sig_export_pubkey(tfm, RIND_KEY_SPKI_DER, enc, sizeof(enc));
		RT_REQ_EQ(d[i], enc[16], 17 + _i);	/* 30 82 LL LL 30 0b 06 09 60 .. 03 <17+i> */
		enc[16] = (u8)(17 + (_i + 1) % 3);
		RT_REQ_EQ(d[i], crypto_sig_set_pubkey(t2, enc, (unsigned int)len), -EKEYREJECTED);
		enc[16] = (u8)(17 + _i);
		RT_REQ_EQ(d[i], crypto_sig_set_pubkey(t2, enc, (unsigned int)len), 0);
		RT_REQ_EQ(d[i], crypto_sig_set_pubkey(t2, enc, (unsigned int)len - 1), -EKEYREJECTED);
		checks += 15;

		/* A refused key leaves the previous one (and its signatures) in place. */
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, seed, 32), 0);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, seed, 31), -EKEYREJECTED);
		RT_REQ_EQ(d[i], crypto_sig_set_pubkey(t2, pk, 5), -EKEYREJECTED);
		RT_REQ_EQ(d[i], crypto_sig_sign(t2, "m", 1, enc, sizeof(enc)), (int)p->sig_size);
		RT_REQ_MEM(d[i], 0, enc, sig, p->sig_size);
		/* The options survive key changes. */
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, sk, p->sk_size), 0);
		RT_REQ_EQ(d[i], crypto_sig_sign(t2, "m", 1, enc, sizeof(enc)), (int)p->sig_size);
		RT_REQ_MEM(d[i], 0, enc, sig, p->sig_size);
		/* A public key only: verifies, does not sign. */
		RT_REQ_EQ(d[i], crypto_sig_set_pubkey(t2, pk, p->pk_size), 0);
		RT_REQ_EQ(d[i], crypto_sig_verify(t2, sig, p->sig_size, "m", 1), 0);
		RT_REQ_EQ(d[i], crypto_sig_sign(t2, "m", 1, enc, sizeof(enc)), -ENOKEY);
		checks += 4;
		crypto_free_sig(tfm);
		crypto_free_sig(t2);
		rt_report("key formats (raw, SPKI, PKCS#8 seed/expanded/both, PEM; malformed)", d[i],
			  (int)checks, 0);
	}
}
END_TEST

/* ---- the options on the other signature algorithms ---------------------- */

START_TEST(test_options_elsewhere)
{
	/* RFC 6979 A.2.5: P-256, SHA-256, "sample". */
	static const u8 d256[32] = {
		0xc9, 0xaf, 0xa9, 0xd8, 0x45, 0xba, 0x75, 0x16, 0x6b, 0x5c, 0x21, 0x57, 0x67, 0xb1, 0xd6, 0x93,
		0x4e, 0x50, 0xc3, 0xdb, 0x36, 0xe8, 0x9b, 0x12, 0x7b, 0x8a, 0x62, 0x2b, 0x12, 0x0f, 0x67, 0x21,
	};
	static const u8 rs[64] = {
		0xef, 0xd4, 0x8b, 0x2a, 0xac, 0xb6, 0xa8, 0xfd, 0x11, 0x40, 0xdd, 0x9c, 0xd4, 0x5e, 0x81, 0xd6,
		0x9d, 0x2c, 0x87, 0x7b, 0x56, 0xaa, 0xf9, 0x91, 0xc3, 0x4d, 0x0e, 0xa8, 0x4e, 0xaf, 0x37, 0x16,
		0xf7, 0xcb, 0x1c, 0x94, 0x2d, 0x65, 0x7c, 0x41, 0xd4, 0x36, 0xc7, 0xa1, 0xb6, 0xe2, 0x9f, 0x65,
		0xf3, 0xe9, 0x00, 0xdb, 0xb9, 0xaf, 0xf4, 0x06, 0x4d, 0xc4, 0xab, 0x2f, 0x84, 0x3a, 0xcd, 0xa8,
	};
	drivers_t d;
	u8 a[160], b[160];
	int i, nd;

	nd = rt_impls("ed25519", "sig", d, RT_MAX_IMPLS);
	for (i = 0; i < nd; i++) {
		struct crypto_sig *t = alloc_drv(d[i]);

		RT_REQ_EQ(d[i], rind_sig_set_deterministic(t, true), 0);
		RT_REQ_EQ(d[i], rind_sig_set_deterministic(t, false), 0);
		RT_REQ_EQ(d[i], rind_sig_set_context(t, (const u8 *)"x", 1), -EOPNOTSUPP);
		RT_REQ_EQ(d[i], rind_sig_set_context(t, NULL, 0), -EOPNOTSUPP);
		crypto_free_sig(t);
	}
	nd = rt_impls("p1363(ecdsa-nist-p256,sha256)", "sig", d, RT_MAX_IMPLS);
	for (i = 0; i < nd; i++) {
		struct crypto_sig *t = alloc_drv(d[i]);

		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t, d256, 32), 0);
		RT_REQ_EQ(d[i], rind_sig_set_context(t, (const u8 *)"x", 1), -EOPNOTSUPP);
		/* hedged by default: two signatures differ */
		RT_REQ_EQ(d[i], crypto_sig_sign(t, "sample", 6, a, sizeof(a)), 64);
		RT_REQ_EQ(d[i], crypto_sig_sign(t, "sample", 6, b, sizeof(b)), 64);
		RT_REQ(d[i], memcmp(a, b, 64));
		RT_REQ_EQ(d[i], rind_sig_set_deterministic(t, true), 0);
		RT_REQ_EQ(d[i], crypto_sig_sign(t, "sample", 6, a, sizeof(a)), 64);
		RT_REQ_MEM(d[i], 0, a, rs, 64);
		RT_REQ_EQ(d[i], crypto_sig_verify(t, a, 64, "sample", 6), 0);
		RT_REQ_EQ(d[i], rind_sig_set_deterministic(t, false), 0);
		RT_REQ_EQ(d[i], crypto_sig_sign(t, "sample", 6, b, sizeof(b)), 64);
		RT_REQ(d[i], memcmp(a, b, 64));
		crypto_free_sig(t);
	}
	nd = rt_impls("x962(ecdsa-nist-p256,sha256)", "sig", d, RT_MAX_IMPLS);
	for (i = 0; i < nd; i++) {
		struct crypto_sig *t = alloc_drv(d[i]);
		int la, lb;

		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t, d256, 32), 0);
		RT_REQ_EQ(d[i], rind_sig_set_deterministic(t, true), 0);
		la = crypto_sig_sign(t, "sample", 6, a, sizeof(a));
		lb = crypto_sig_sign(t, "sample", 6, b, sizeof(b));
		RT_REQ(d[i], la > 0 && la == lb && !memcmp(a, b, (size_t)la));
		crypto_free_sig(t);
	}
	{
		struct crypto_sig *t = crypto_alloc_sig("ecdsa-nist-p256", 0, 0);

		RT_REQ("ecdsa-nist-p256", !IS_ERR(t));
		RT_REQ_EQ("ecdsa-nist-p256", rind_sig_set_deterministic(t, true), -EOPNOTSUPP);
		crypto_free_sig(t);
		t = crypto_alloc_sig("pss(rsa,sha256)", 0, 0);
		RT_REQ("pss(rsa,sha256)", !IS_ERR(t));
		RT_REQ_EQ("pss(rsa,sha256)", rind_sig_set_deterministic(t, true), -EOPNOTSUPP);
		RT_REQ_EQ("pss(rsa,sha256)", rind_sig_set_context(t, NULL, 0), -EOPNOTSUPP);
		crypto_free_sig(t);
	}
	RT_REQ_EQ("null", rind_sig_set_deterministic(NULL, true), -EINVAL);
	RT_REQ_EQ("null", rind_sig_set_context(NULL, NULL, 0), -EINVAL);
	printf("signing options: Ed25519, ECDSA (RFC 6979 A.2.5 when deterministic), RSA, NULL\n");
}
END_TEST

/* ---- every driver's arithmetic and sampling against the generic code ---- */

static void rand_poly(struct rt_rng *rng, struct mldsa_poly *a, s32 lo, u32 span)
{
	unsigned int i;

	for (i = 0; i < MLDSA_N; i++)
		a->c[i] = (s32)((s64)lo + rt_rand_range(rng, span));
}

static void req_poly(const char *drv, const char *what, int round, const struct mldsa_poly *a,
		     const struct mldsa_poly *b)
{
	if (memcmp(a, b, sizeof(*a)))
		ck_abort_msg("%s: %s differs from the generic code (round %d)", drv, what, round);
}

/*
 * The signing loop's hooks (sign_prepare, w1_pack, sign_z, sign_r,
 * sign_hint) of @o against the generic ones on one random key-like
 * secret (s1, s2 at +-eta in some rounds, t0 over (-2^12, 2^12]) and
 * challenge @ch: the same z, r, hints, counts and verdicts; and the
 * verdict on r = w - c s2, Decompose(r) and the hints those of FIPS 204
 * computed directly (the hooks check w0 - c s2 instead).
 * Half of the rounds draw y and r so that the checks pass (|y| <=
 * gamma1 - 2 beta, |LowBits(r)| < gamma2 - 2 beta), so both verdicts
 * occur.  Returns the number of accepted (all three checks 0) rounds'
 * worth of checks, for the caller's count.
 */
static unsigned int sign_steps_vs_generic(const char *drv, const struct mldsa_ops *o,
					  const struct mldsa_params *p,
					  const struct mldsa_challenge *ch, struct rt_rng *rng,
					  int round)
{
	const struct mldsa_ops *g = &rind_mldsa_generic_ops;
	static struct mldsa_key kc;
	static struct mldsa_sign_pre pg, po;
	static struct mldsa_poly za, zb, wa, wb, ra, rb, ws, hs;
	static u8 oa[192], ob[192];
	const s32 g1 = (s32)1 << p->gamma1_bits, g2 = p->gamma2, beta = (s32)p->beta;
	bool easy = round & 1;
	unsigned int i, j, m, passed = 0;

	memset(&kc, 0, sizeof(kc));
	kc.p = p;
	for (j = 0; j < p->l; j++)
		rand_poly(rng, &kc.s1[j], -(s32)p->eta, 2 * p->eta + 1);
	for (i = 0; i < p->k; i++) {
		rand_poly(rng, &kc.s2[i], -(s32)p->eta, 2 * p->eta + 1);
		rand_poly(rng, &kc.t0[i], -(1 << 12) + 1, 1 << 13);
	}
	if (round % 8 == 2 || round % 8 == 5) {	/* the extremes */
		for (m = 0; m < MLDSA_N; m++) {
			s32 sg = round % 8 == 2 ? 1 : -1;

			kc.s1[0].c[m] = sg * (s32)p->eta;
			kc.s2[0].c[m] = -sg * (s32)p->eta;
			kc.t0[0].c[m] = sg > 0 ? 1 << 12 : -(1 << 12) + 1;
		}
	}
	g->sign_prepare(&pg, &kc);
	o->sign_prepare(&po, &kc);
	for (j = 0; j < p->l; j++) {
		u32 ba, bb;

		if (easy)
			rand_poly(rng, &za, -(g1 - 2 * beta), 2 * (u32)(g1 - 2 * beta) + 1);
		else
			rand_poly(rng, &za, -g1 + 1, 2 * (u32)g1);
		zb = za;
		ba = g->sign_z(&za, &pg, j, ch, p);
		bb = o->sign_z(&zb, &po, j, ch, p);
		req_poly(drv, "sign_z", round, &za, &zb);
		RT_REQ_EQ(drv, ba, bb);
		RT_REQ(drv, ba == 0 || ba == ~0u);
		if (easy)
			RT_REQ_EQ(drv, ba, 0);
	}
	for (i = 0; i < p->k; i++) {
		u32 ba, bb, ha, hb, ca = 0, cb = 0;

		/* w as sign_r receives it: w1_pack's canonical output */
		rand_poly(rng, &wa, -Q + 1, 2 * Q - 1);
		if (easy) {
			for (m = 0; m < MLDSA_N; m++) {
				s32 r1 = (s32)rt_rand_range(rng, (u32)((Q - 1) / (2 * g2)));
				s32 r0 = (s32)rt_rand_range(rng, 2 * (u32)(g2 - 2 * beta) - 1) -
					 (g2 - 2 * beta - 1);

				wa.c[m] = (2 * g2 * r1 + r0 + Q) % Q;
				wa.c[m] -= wa.c[m] >= Q / 2 ? Q : 0;	/* (-q, q), as after the inverse NTT */
			}
		}
		wb = wa;
		ws = wa;
		g->w1_pack(oa, &wa, g2);
		o->w1_pack(ob, &wb, g2);
		req_poly(drv, "w1_pack (w)", round, &wa, &wb);
		RT_REQ_MEM(drv, round, oa, ob, g2 == (Q - 1) / 88 ? 192u : 128u);
		ba = g->sign_r(&wa, &pg, i, ch, p);
		bb = o->sign_r(&wb, &po, i, ch, p);
		req_poly(drv, "sign_r (r)", round, &wa, &wb);
		RT_REQ_EQ(drv, ba, bb);
		RT_REQ(drv, ba == 0 || ba == ~0u);
		/*
		 * FIPS 204 as written: r = w - c s2, its LowBits checked and, when
		 * the check passes, the split form holding Decompose(r) and the
		 * hints MakeHint(-c t0, r + c t0).
		 */
		{
			struct mldsa_poly cs2, ct0;
			u32 sbad = 0, same = 1, hsame = 1;

			rind_mldsa_poly_mul_challenge(&cs2, pg.e[MLDSA_LMAX + i], ch);
			rind_mldsa_poly_mul_challenge(&ct0, pg.e[MLDSA_LMAX + MLDSA_KMAX + i], ch);
			for (m = 0; m < MLDSA_N; m++) {
				s32 r = mldsa_canon(mldsa_caddq(ws.c[m]) - cs2.c[m]), r1, r0, v1, v0;

				rind_mldsa_decompose(r, g2, &r1, &r0);
				sbad |= r0 >= g2 - beta || -r0 >= g2 - beta;
				same &= mldsa_split_hi(wa.c[m]) == r1 && mldsa_split_lo(wa.c[m]) == r0;
				rind_mldsa_decompose(mldsa_canon(r + ct0.c[m]), g2, &v1, &v0);
				hs.c[m] = v1 != r1;
			}
			RT_REQ_EQ(drv, sbad ? ~0u : 0u, ba);
			ha = g->sign_hint(&ra, &wa, &pg, i, ch, p, &ca);
			hb = o->sign_hint(&rb, &wb, &po, i, ch, p, &cb);
			for (m = 0; m < MLDSA_N; m++)
				hsame &= ra.c[m] == hs.c[m];
			RT_REQ(drv, ba || (same && hsame));
		}
		req_poly(drv, "sign_hint (h)", round, &ra, &rb);
		RT_REQ_EQ(drv, ha, hb);
		RT_REQ_EQ(drv, ca, cb);
		RT_REQ(drv, ha == 0 || ha == ~0u);
		passed += !ba && !ha;
	}
	return passed;
}

/*
 * Each hook of a driver's struct mldsa_ops must give the generic
 * function's exact output (keys and deterministic signatures are shared
 * between drivers): the transforms at the edges of their input ranges,
 * the products, the reductions, Decompose/HighBits/UseHint for every r in
 * [0, q), the challenge products and the three samplers on random seeds.
 */
START_TEST(test_ops_vs_generic)
{
	const struct mldsa_ops *g = &rind_mldsa_generic_ops;
	const struct mldsa_params *p = params[_i];
	drivers_t d;
	int i, nd = mldsa_impls(names[_i], d);
	struct rt_rng rng;

	rt_rng_seed(&rng, 0x6f7073ull + (u64)_i);
	for (i = 0; i < nd; i++) {
		struct crypto_sig *tfm = alloc_drv(d[i]);
		struct mldsa_key *key = rind_mldsa_tfm_key(tfm);
		const struct mldsa_ops *o;
		static struct mldsa_poly a[MLDSA_LMAX], b[MLDSA_LMAX], x, y, h1, h2, l1, l2;
		static struct mldsa_poly s1a[MLDSA_LMAX], s2a[MLDSA_KMAX], s1b[MLDSA_LMAX], s2b[MLDSA_KMAX];
		static struct mldsa_key ka, kb, kw;
		static struct mldsa_poly ys[MLDSA_LMAX], ys2[MLDSA_LMAX], yha[MLDSA_LMAX];
		static struct mldsa_poly yhb[MLDSA_LMAX], wa[MLDSA_KMAX], wb[MLDSA_KMAX];
		static u8 w1a[MLDSA_KMAX * 192], w1b[MLDSA_KMAX * 192];
		static s32 e[2 * MLDSA_N];
		struct mldsa_challenge ch;
		u8 seed[64];
		int round, r, base;
		unsigned int n, j, passed = 0;

		RT_REQ(d[i], key && key->ops);
		o = key->ops;
		if (o == g) {
			crypto_free_sig(tfm);
			continue;
		}
		RT_REQ(d[i], o->ntt && o->invntt_tomont && o->pointwise_acc && o->pointwise &&
			     o->poly_reduce && o->expand_a && o->expand_s && o->expand_mask &&
			     o->expand_mask_loop && o->mul_challenge && o->mul_challenge_eta &&
			     o->poly_decompose && o->poly_highbits && o->poly_use_hint &&
			     o->ctilde && o->sign_prepare && o->w1_pack && o->sign_z && o->sign_r &&
			     o->sign_hint && o->sign_w);
		memset(&kw, 0, sizeof(kw));
		kw.p = p;
		rt_fill(&rng, kw.rho, 32);
		g->expand_a(&kw);
		for (round = 0; round < 200; round++) {
			/* NTT: |a| < 2^20 (y, z), [0, q) (t1 2^d reduced), the extremes */
			if (round % 3 == 0)
				rand_poly(&rng, &x, -(1 << 20) + 1, (1u << 21) - 1);
			else
				rand_poly(&rng, &x, round % 3 == 1 ? 0 : -Q + 1, round % 3 == 1 ? Q : 2 * Q - 1);
			if (round == 1)
				for (j = 0; j < MLDSA_N; j++)
					x.c[j] = j & 1 ? Q - 1 : -(Q - 1);
			y = x;
			g->ntt(&x);
			o->ntt(&y);
			req_poly(d[i], "ntt", round, &x, &y);
			/* inverse NTT of sums of products (|a| < q) and of the extremes */
			rand_poly(&rng, &x, -Q + 1, 2 * Q - 1);
			if (round == 2)
				for (j = 0; j < MLDSA_N; j++)
					x.c[j] = j & 2 ? Q - 1 : -(Q - 1);
			y = x;
			g->invntt_tomont(&x);
			o->invntt_tomont(&y);
			req_poly(d[i], "invntt_tomont", round, &x, &y);
			/* pointwise: |a| < q against |b| < 10q, n = 1..7 */
			n = 1 + (unsigned int)round % MLDSA_LMAX;
			for (j = 0; j < n; j++) {
				rand_poly(&rng, &a[j], -Q + 1, 2 * Q - 1);
				rand_poly(&rng, &b[j], -10 * Q + 1, 20 * Q - 1);
			}
			g->pointwise_acc(&x, a, b, n);
			o->pointwise_acc(&y, a, b, n);
			req_poly(d[i], "pointwise_acc", round, &x, &y);
			g->pointwise(&x, &a[0], &b[0]);
			o->pointwise(&y, &a[0], &b[0]);
			req_poly(d[i], "pointwise", round, &x, &y);
			/* reduce32 over its whole range */
			rand_poly(&rng, &x, -(INT32_MAX - (1 << 22)), 2 * (u32)(INT32_MAX - (1 << 22)) + 1);
			y = x;
			g->poly_reduce(&x);
			o->poly_reduce(&y);
			req_poly(d[i], "poly_reduce", round, &x, &y);
			/* c a for a like s1/s2 (eta), t0 (2^12) and y-sized values */
			rand_poly(&rng, &x, 0, 1);
			for (j = 0; j < MLDSA_N; j++)
				seed[j % 64] = (u8)rt_rand(&rng);
			rind_mldsa_sample_in_ball(p, seed, &x);
			rind_mldsa_challenge_of(&ch, &x);
			RT_REQ_EQ(d[i], ch.n, p->tau);
			{
				/* the signer's SampleInBall straight to the challenge */
				static struct mldsa_challenge ch2;

				static u8 blk[SHAKE256_RATE];
				unsigned int v;

				/* without the first block, with it, and with it exhausted (v = 2) */
				for (v = 0; v < 3; v++) {
					memset(&ch2, 0xa5, sizeof(ch2));
					rind_shake256(blk, sizeof(blk), seed, p->ctilde_bytes);
					if (v == 2)	/* every position rejected until the second block */
						memset(blk + 8, 0xff, sizeof(blk) - 8);
					rind_mldsa_sample_challenge(p, seed, v ? blk : NULL, &ch2);
					if (v == 2) {
						/* SampleInBall over the stream with its first block changed */
						static u8 stream[3 * SHAKE256_RATE];
						s8 c8[MLDSA_N];
						unsigned int q, pos = 8, t, nz = 0;

						rind_shake256(stream, sizeof(stream), seed, p->ctilde_bytes);
						memcpy(stream, blk, sizeof(blk));
						memset(c8, 0, sizeof(c8));
						for (q = MLDSA_N - p->tau; q < MLDSA_N; q++) {
							do
								t = stream[pos++];
							while (t > q);
							c8[q] = c8[t];
							c8[t] = (s8)(1 - 2 * (int)(stream[(q - (MLDSA_N - p->tau)) / 8] >>
										  ((q - (MLDSA_N - p->tau)) % 8) & 1));
						}
						RT_REQ(d[i], pos > SHAKE256_RATE);
						for (q = 0; q < MLDSA_N; q++) {
							if (!c8[q])
								continue;
							RT_REQ(d[i], nz < ch2.n && ch2.pos[nz] == q &&
								     ch2.neg[nz] == (c8[q] < 0));
							nz++;
						}
						RT_REQ_EQ(d[i], ch2.n, nz);
						continue;
					}
					RT_REQ_EQ(d[i], ch2.n, ch.n);
					RT_REQ_MEM(d[i], round, ch2.pos, ch.pos, ch.n);
					RT_REQ_MEM(d[i], round, ch2.neg, ch.neg, ch.n);
					RT_REQ_MEM(d[i], round, ch2.sh, ch.sh, ch.n * sizeof(ch.sh[0]));
				}
			}
			base = round % 3 == 0 ? (int)p->eta : round % 3 == 1 ? 1 << 12 : 1 << 19;
			rand_poly(&rng, &a[0], -base, 2 * (u32)base + 1);
			rind_mldsa_poly_negext(e, &a[0]);
			g->mul_challenge(&x, e, &ch);
			o->mul_challenge(&y, e, &ch);
			req_poly(d[i], "mul_challenge", round, &x, &y);
			rand_poly(&rng, &a[0], -(int)p->eta, 2 * p->eta + 1);
			if (round == 3 || round == 4)	/* all at +eta, all at -eta */
				for (j = 0; j < MLDSA_N; j++)
					a[0].c[j] = round == 3 ? (s32)p->eta : -(s32)p->eta;
			rind_mldsa_poly_negext(e, &a[0]);
			g->mul_challenge_eta(&x, e, &ch);
			o->mul_challenge_eta(&y, e, &ch);
			req_poly(d[i], "mul_challenge_eta", round, &x, &y);
			/*
			 * sign_w: y over (-gamma1, gamma1] (ExpandMask's range; round 5
			 * all gamma1, round 6 all 1 - gamma1, round 7 alternating) with
			 * a real A-hat: the same w in [0, q) and w1 encoding; y kept
			 */
			{
				const s32 g1 = (s32)1 << p->gamma1_bits;
				const size_t w1len = (size_t)p->k * (p->gamma2 == (Q - 1) / 88 ? 192 : 128);

				for (j = 0; j < p->l; j++) {
					unsigned int m;

					rand_poly(&rng, &ys[j], -g1 + 1, 2 * (u32)g1);
					for (m = 0; round >= 5 && round <= 7 && m < MLDSA_N; m++)
						ys[j].c[m] = round == 5 || (round == 7 && (m & 1)) ? g1 : 1 - g1;
				}
				memcpy(ys2, ys, sizeof(ys));
				memset(w1a, 0, sizeof(w1a));
				memset(w1b, 0, sizeof(w1b));
				g->sign_w(&kw, ys, yha, wa, w1a);
				o->sign_w(&kw, ys, yhb, wb, w1b);
				RT_REQ_MEM(d[i], round, ys, ys2, sizeof(ys));
				for (j = 0; j < p->k; j++) {
					unsigned int m;

					req_poly(d[i], "sign_w (w)", round, &wa[j], &wb[j]);
					for (m = 0; m < MLDSA_N; m++)
						RT_REQ(d[i], wb[j].c[m] >= 0 && wb[j].c[m] < Q);
				}
				RT_REQ_MEM(d[i], round, w1a, w1b, w1len);
			}
			/* the signing loop's fused steps with this challenge */
			passed += sign_steps_vs_generic(d[i], o, p, &ch, &rng, round);
			/* ExpandMask at a random kappa (the counter wraps at 2^16) */
			rt_fill(&rng, seed, 64);
			r = (int)rt_rand_range(&rng, 65536);
			g->expand_mask(p, seed, (u16)r, a);
			o->expand_mask(p, seed, (u16)r, b);
			for (j = 0; j < p->l; j++)
				req_poly(d[i], "expand_mask", round, &a[j], &b[j]);
			/*
			 * as the signing loop calls it: kappa = 0, l, 2l, ... with one
			 * cache, and (from round 10 on) c-tilde of a random mu and w1
			 * between the attempts, which may fill the cache too
			 */
			if (round < 20) {
				static struct mldsa_mask_cache cache;
				static u8 mu[64], w1[MLDSA_KMAX * 192], cta[64], ctb[64];
				static u8 balla[SHAKE256_RATE], ballb[SHAKE256_RATE];
				static u8 cat[64 + MLDSA_KMAX * 192];
				size_t w1len = (size_t)p->k * (p->gamma2 == (Q - 1) / 88 ? 192 : 128);
				unsigned int it;

				memset(&cache, 0, sizeof(cache));
				for (it = 0; it < 9; it++) {
					u16 kappa = (u16)(it * p->l);

					g->expand_mask(p, seed, kappa, a);
					o->expand_mask_loop(p, seed, kappa, b, &cache);
					for (j = 0; j < p->l; j++)
						req_poly(d[i], "expand_mask_loop", (int)it, &a[j], &b[j]);
					if (round < 10)
						continue;
					rt_fill(&rng, mu, sizeof(mu));
					rt_fill(&rng, w1, w1len);
					memset(cta, 0, sizeof(cta));
					memset(ctb, 0, sizeof(ctb));
					g->ctilde(p, cta, balla, mu, w1, w1len, seed, kappa, &cache);
					o->ctilde(p, ctb, ballb, mu, w1, w1len, seed, kappa, &cache);
					RT_REQ_MEM(d[i], (int)it, cta, ctb, sizeof(cta));
					RT_REQ_MEM(d[i], (int)it, balla, ballb, sizeof(balla));
					/* and both are SHAKE256(mu || w1), ball SHAKE256(c-tilde) */
					memcpy(cat, mu, 64);
					memcpy(cat + 64, w1, w1len);
					memset(ctb, 0, sizeof(ctb));
					rind_shake256(ctb, p->ctilde_bytes, cat, 64 + w1len);
					RT_REQ_MEM(d[i], (int)it, cta, ctb, sizeof(cta));
					rind_shake256(ballb, sizeof(ballb), cta, p->ctilde_bytes);
					RT_REQ_MEM(d[i], (int)it, balla, ballb, sizeof(balla));
				}
			}
			if (round < 20) {
				g->expand_s(p, seed, s1a, s2a);
				o->expand_s(p, seed, s1b, s2b);
				for (j = 0; j < p->l; j++)
					req_poly(d[i], "expand_s (s1)", round, &s1a[j], &s1b[j]);
				for (j = 0; j < p->k; j++)
					req_poly(d[i], "expand_s (s2)", round, &s2a[j], &s2b[j]);
				memset(&ka, 0, sizeof(ka));
				ka.p = p;
				rt_fill(&rng, ka.rho, 32);
				kb = ka;
				g->expand_a(&ka);
				o->expand_a(&kb);
				RT_REQ_MEM(d[i], round, ka.a, kb.a, sizeof(ka.a));
			}
		}
		/* The rounding functions for every r in [0, q), both hint values. */
		for (r = 0; r < Q; r += MLDSA_N) {
			for (j = 0; j < MLDSA_N; j++) {
				x.c[j] = r + (s32)j < Q ? r + (s32)j : Q - 1;
				b[0].c[j] = (s32)((j ^ (unsigned int)r >> 8) & 1);
			}
			/* w1's encoding of every r in [0, q) too */
			memcpy(&l1, &x, sizeof(x));
			memcpy(&l2, &x, sizeof(x));
			g->w1_pack(w1a, &l1, p->gamma2);
			o->w1_pack(w1b, &l2, p->gamma2);
			RT_REQ_MEM(d[i], r, w1a, w1b, p->gamma2 == (Q - 1) / 88 ? 192u : 128u);
			/* sign_r with c = 0: w's split form, Decompose(w), for every w */
			{
				struct mldsa_challenge c0;

				memset(&c0, 0, sizeof(c0));
				memcpy(&l1, &x, sizeof(x));
				memcpy(&l2, &x, sizeof(x));
				(void)g->sign_r(&l1, &key->pre, 0, &c0, p);
				(void)o->sign_r(&l2, &key->pre, 0, &c0, p);
				req_poly(d[i], "sign_r (split form)", r, &l1, &l2);
				for (j = 0; j < MLDSA_N; j++) {
					s32 r1, r0;

					rind_mldsa_decompose(x.c[j], p->gamma2, &r1, &r0);
					RT_REQ(d[i], mldsa_split_hi(l2.c[j]) == r1 &&
						     mldsa_split_lo(l2.c[j]) == r0);
				}
			}
			g->poly_decompose(&h1, &l1, &x, p->gamma2);
			o->poly_decompose(&h2, &l2, &x, p->gamma2);
			req_poly(d[i], "poly_decompose (r1)", r, &h1, &h2);
			req_poly(d[i], "poly_decompose (r0)", r, &l1, &l2);
			o->poly_highbits(&h2, &x, p->gamma2);
			req_poly(d[i], "poly_highbits", r, &h1, &h2);
			y = x;
			o->poly_highbits(&y, &y, p->gamma2);	/* in place, as the signer calls it */
			req_poly(d[i], "poly_highbits in place", r, &h1, &y);
			g->poly_use_hint(&h1, &x, &b[0], p->gamma2);
			o->poly_use_hint(&h2, &x, &b[0], p->gamma2);
			req_poly(d[i], "poly_use_hint", r, &h1, &h2);
			for (j = 0; j < MLDSA_N; j++)
				b[0].c[j] ^= 1;
			g->poly_use_hint(&h1, &x, &b[0], p->gamma2);
			o->poly_use_hint(&h2, &x, &b[0], p->gamma2);
			req_poly(d[i], "poly_use_hint", r, &h1, &h2);
		}
		crypto_free_sig(tfm);
		/* the easy rounds' r0 and t0 checks must have passed somewhere */
		RT_REQ(d[i], passed > 0);
		printf("ops: %s: 200 rounds of NTT, inverse, products, reduction, challenge products, "
		       "the signing steps (%u rows passing r0 and t0 checks), w and w1 (sign_w), ExpandMask "
		       "(20 of ExpandS, ExpandA), rounding and w1 encoding for every r: equal to generic\n",
		       d[i], passed);
	}
}
END_TEST

/*
 * Every driver against the generic one on random seeds, messages and
 * contexts: the same public key and expanded secret key, byte-identical
 * deterministic signatures, and each one's hedged signatures verified by
 * the other (forgeries refused by both).
 */
START_TEST(test_vs_generic)
{
	const struct mldsa_params *p = params[_i];
	char gen[32];
	drivers_t d;
	int i, nd = mldsa_impls(names[_i], d);
	struct rt_rng rng;

	snprintf(gen, sizeof(gen), "%s-generic", names[_i]);
	rt_rng_seed(&rng, 0x76736765ull + (u64)_i);
	for (i = 0; i < nd; i++) {
		struct crypto_sig *a, *b;
		static u8 seed[32], msg[2048], ctx[255], pa[MLDSA_PK_MAX], pb[MLDSA_PK_MAX];
		static u8 sa[MLDSA_SIG_MAX], sb[MLDSA_SIG_MAX];
		unsigned int sl = p->sig_size, round, checks = 0;

		if (!strcmp(d[i], gen))
			continue;
		a = alloc_drv(gen);
		b = alloc_drv(d[i]);
		for (round = 0; round < 16; round++) {
			unsigned int ml = rt_rand_range(&rng, sizeof(msg)), cl = rt_rand_range(&rng, 4) ?
						0 : rt_rand_range(&rng, 256);
			struct mldsa_key *ka, *kb;

			rt_fill(&rng, seed, sizeof(seed));
			rt_fill(&rng, msg, ml);
			rt_fill(&rng, ctx, cl);
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(a, seed, 32), 0);
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(b, seed, 32), 0);
			RT_REQ_EQ(d[i], crypto_sig_export_pubkey(a, RIND_KEY_RAW, pa, sizeof(pa)), p->pk_size);
			RT_REQ_EQ(d[i], crypto_sig_export_pubkey(b, RIND_KEY_RAW, pb, sizeof(pb)), p->pk_size);
			RT_REQ_MEM(d[i], round, pa, pb, p->pk_size);
			ka = rind_mldsa_tfm_key(a);
			kb = rind_mldsa_tfm_key(b);
			RT_REQ_MEM(d[i], round, ka->sk, kb->sk, p->sk_size);
			RT_REQ_MEM(d[i], round, ka->a, kb->a, sizeof(ka->a));
			RT_REQ_MEM(d[i], round, ka->t1, kb->t1, sizeof(ka->t1));
			RT_REQ_EQ(d[i], rind_sig_set_context(a, ctx, cl), 0);
			RT_REQ_EQ(d[i], rind_sig_set_context(b, ctx, cl), 0);
			RT_REQ_EQ(d[i], rind_sig_set_deterministic(a, true), 0);
			RT_REQ_EQ(d[i], rind_sig_set_deterministic(b, true), 0);
			RT_REQ_EQ(d[i], crypto_sig_sign(a, msg, ml, sa, sl), (int)sl);
			RT_REQ_EQ(d[i], crypto_sig_sign(b, msg, ml, sb, sl), (int)sl);
			RT_REQ_MEM(d[i], round, sa, sb, sl);
			/* the internal algorithm with a random rnd: the same signature too */
			{
				u8 mu[64], rnd[32];

				rt_fill(&rng, rnd, sizeof(rnd));
				rind_mldsa_mu(ka, ctx, cl, msg, ml, mu);
				RT_REQ_EQ(d[i], rind_mldsa_sign_mu(ka, mu, rnd, sa), 0);
				RT_REQ_EQ(d[i], rind_mldsa_sign_mu(kb, mu, rnd, sb), 0);
				RT_REQ_MEM(d[i], round, sa, sb, sl);
			}
			RT_REQ_EQ(d[i], rind_sig_set_deterministic(b, false), 0);
			RT_REQ_EQ(d[i], crypto_sig_sign(b, msg, ml, sb, sl), (int)sl);
			RT_REQ_EQ(d[i], crypto_sig_verify(a, sb, sl, msg, ml), 0);
			RT_REQ_EQ(d[i], crypto_sig_verify(b, sb, sl, msg, ml), 0);
			RT_REQ_EQ(d[i], rind_sig_set_deterministic(a, false), 0);
			RT_REQ_EQ(d[i], crypto_sig_sign(a, msg, ml, sa, sl), (int)sl);
			RT_REQ_EQ(d[i], crypto_sig_verify(b, sa, sl, msg, ml), 0);
			/* a flipped bit anywhere: both refuse it */
			sb[rt_rand_range(&rng, sl)] ^= (u8)(1u << rt_rand_range(&rng, 8));
			RT_REQ_EQ(d[i], crypto_sig_verify(a, sb, sl, msg, ml), -EBADMSG);
			RT_REQ_EQ(d[i], crypto_sig_verify(b, sb, sl, msg, ml), -EBADMSG);
			checks++;
		}
		crypto_free_sig(a);
		crypto_free_sig(b);
		printf("against %s: %u random keys, deterministic and internal signatures "
		       "byte-identical, hedged ones cross-verified (%s)\n", gen, checks, d[i]);
	}
}
END_TEST

/*
 * Malformed input, every driver against the generic one: signatures with
 * a corrupted c-tilde, z, hint counts (past omega, decreasing), hint
 * positions (out of order) or padding, and of the wrong lengths; random
 * public keys; expanded secret keys with an s1 coefficient out of range
 * or a t0 that does not match.  Both give the same verdict each time;
 * those FIPS 204 forbids are refused by both, and a refused key leaves
 * the key set before it in place (its signature still verifies).
 */
START_TEST(test_malformed_vs_generic)
{
	const struct mldsa_params *p = params[_i];
	const unsigned int sl = p->sig_size, zoff = p->ctilde_bytes;
	const unsigned int hoff = sl - p->omega - p->k;
	char gen[32];
	drivers_t d;
	int i, nd = mldsa_impls(names[_i], d);
	struct rt_rng rng;

	snprintf(gen, sizeof(gen), "%s-generic", names[_i]);
	rt_rng_seed(&rng, 0x6d616c66ull + (u64)_i);
	for (i = 0; i < nd; i++) {
		struct crypto_sig *a, *b;
		static u8 seed[32], msg[64], sig[MLDSA_SIG_MAX + 1], bad[MLDSA_SIG_MAX + 1];
		static u8 pk[MLDSA_PK_MAX], sk[MLDSA_SK_MAX];
		unsigned int round, checks = 0, refused = 0;

		if (!strcmp(d[i], gen))
			continue;
		a = alloc_drv(gen);
		b = alloc_drv(d[i]);
		for (round = 0; round < 24; round++) {
			unsigned int kind = round % 8, len = sl, m, ra, rb;
			bool must_fail = true;

			rt_fill(&rng, seed, sizeof(seed));
			rt_fill(&rng, msg, sizeof(msg));
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(a, seed, 32), 0);
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(b, seed, 32), 0);
			RT_REQ_EQ(d[i], crypto_sig_sign(a, msg, sizeof(msg), sig, sl), (int)sl);
			memcpy(bad, sig, sl);
			switch (kind) {
			case 0:	/* c-tilde */
				bad[rt_rand_range(&rng, zoff)] ^= (u8)(1u << rt_rand_range(&rng, 8));
				break;
			case 1:	/* z: random bytes (often out of range, always another z) */
				m = zoff + rt_rand_range(&rng, hoff - zoff - 8);
				rt_fill(&rng, bad + m, 8);
				must_fail = memcmp(bad + m, sig + m, 8) != 0;
				break;
			case 2:	/* a hint count past omega */
				bad[hoff + p->omega + rt_rand_range(&rng, p->k)] = (u8)(p->omega + 1 +
						rt_rand_range(&rng, 255 - p->omega));
				break;
			case 3:	/* the first count above the last (so decreasing, or past omega) */
				bad[hoff + p->omega] = (u8)(bad[hoff + p->omega + p->k - 1] + 1);
				break;
			case 4:	/* two hint positions out of order (or the last slot changed) */
				if (bad[hoff + p->omega] >= 2) {
					u8 t = bad[hoff];

					bad[hoff] = bad[hoff + 1];
					bad[hoff + 1] = t;
				} else {
					bad[hoff + p->omega - 1] ^= 1;
				}
				break;
			case 5:	/* a padding byte past the last hint */
				m = bad[hoff + p->omega + p->k - 1];
				if (m < p->omega)
					bad[hoff + m + rt_rand_range(&rng, p->omega - m)] |= 0x80;
				else
					bad[hoff + p->omega] ^= 0xff;	/* every position used: break a count */
				break;
			case 6:	/* one byte short, one byte long */
				len = round & 1 ? sl - 1 : sl + 1;
				bad[sl] = 0;
				break;
			case 7:	/* the right signature under a random public key */
				rt_fill(&rng, pk, p->pk_size);
				RT_REQ_EQ(d[i], crypto_sig_set_pubkey(a, pk, p->pk_size), 0);
				RT_REQ_EQ(d[i], crypto_sig_set_pubkey(b, pk, p->pk_size), 0);
				break;
			}
			ra = (unsigned int)crypto_sig_verify(a, bad, len, msg, sizeof(msg));
			rb = (unsigned int)crypto_sig_verify(b, bad, len, msg, sizeof(msg));
			RT_REQ_EQ(d[i], ra, rb);
			if (must_fail)
				RT_REQ(d[i], (int)ra < 0);
			refused += (int)ra < 0;
			checks++;
			if (kind == 7)
				continue;
			/* the expanded key: s1[0]'s first coefficient out of range, t0 changed */
			memcpy(sk, rind_mldsa_tfm_key(a)->sk, p->sk_size);
			sk[128] = 0xff;	/* eta 2: 7 > 4; eta 4: 15 > 8 */
			ra = (unsigned int)crypto_sig_set_privkey(a, sk, p->sk_size);
			rb = (unsigned int)crypto_sig_set_privkey(b, sk, p->sk_size);
			RT_REQ_EQ(d[i], ra, rb);
			RT_REQ_EQ(d[i], (int)ra, -EKEYREJECTED);
			memcpy(sk, rind_mldsa_tfm_key(a)->sk, p->sk_size);
			sk[p->sk_size - 1 - rt_rand_range(&rng, 32 * 13 * p->k)] ^= 0x10;
			ra = (unsigned int)crypto_sig_set_privkey(a, sk, p->sk_size);
			rb = (unsigned int)crypto_sig_set_privkey(b, sk, p->sk_size);
			RT_REQ_EQ(d[i], ra, rb);
			RT_REQ_EQ(d[i], (int)ra, -EKEYREJECTED);
			/* both keep the key they had */
			RT_REQ_EQ(d[i], crypto_sig_verify(a, sig, sl, msg, sizeof(msg)), 0);
			RT_REQ_EQ(d[i], crypto_sig_verify(b, sig, sl, msg, sizeof(msg)), 0);
			checks += 2;
		}
		crypto_free_sig(a);
		crypto_free_sig(b);
		RT_REQ(d[i], refused >= 18);
		printf("malformed against %s: %u checks (c-tilde, z, hint counts, order and padding, "
		       "lengths, random public keys, bad expanded keys), the same verdicts, "
		       "%u refused (%s)\n", gen, checks, refused, d[i]);
	}
}
END_TEST

/*
 * The AVX2 driver is registered (and passed its self-test) exactly when
 * the CPU has AVX2 and RIND_DISABLE does not mask it, the AVX-512 one
 * exactly when it also has AVX512F and AVX512BW (or the emulation build
 * takes them as present, tests/emu), and the lookup by algorithm name
 * picks the best of them: otherwise the comparisons above would quietly
 * cover the generic code only.
 */
START_TEST(test_arch_registered)
{
#if defined(__x86_64__)
	char drv[32], drv512[32];
	bool want = rind_cpu_has(RIND_X86_AVX2);
	bool want512 = want && rind_cpu_has(RIND_X86_AVX512F) && rind_cpu_has(RIND_X86_AVX512BW);
	struct crypto_sig *tfm;

	snprintf(drv, sizeof(drv), "%s-avx2", names[_i]);
	snprintf(drv512, sizeof(drv512), "%s-avx512", names[_i]);
	tfm = crypto_alloc_sig(drv, 0, 0);
	RT_REQ(drv, want == !IS_ERR_OR_NULL(tfm));
	if (!IS_ERR_OR_NULL(tfm))
		crypto_free_sig(tfm);
	tfm = crypto_alloc_sig(drv512, 0, 0);
	RT_REQ(drv512, want512 == !IS_ERR_OR_NULL(tfm));
	if (!IS_ERR_OR_NULL(tfm))
		crypto_free_sig(tfm);
	tfm = crypto_alloc_sig(names[_i], 0, 0);
	RT_REQ(names[_i], !IS_ERR_OR_NULL(tfm));
	RT_REQ(names[_i], want512 ? !strcmp(crypto_sig_driver_name(tfm), drv512) :
			  want ? !strcmp(crypto_sig_driver_name(tfm), drv) :
				 strstr(crypto_sig_driver_name(tfm), "-generic") != NULL);
	printf("%s: %s %s, %s %s, lookup picks %s\n", names[_i], drv, want ? "registered" : "absent (no AVX2)",
	       drv512, want512 ? "registered" : "absent (no AVX-512)", crypto_sig_driver_name(tfm));
	if (getenv("RIND_EMU_ASSUME"))
		printf("emulated: %s: the suite walks only %s (mldsa_impls); the native run the others\n",
		       names[_i], drv512);
	crypto_free_sig(tfm);
#endif
}
END_TEST

/* ---- OpenSSL, when it has ML-DSA --------------------------------------- */

START_TEST(test_openssl)
{
	static const char *const ossl_names[] = { "ML-DSA-44", "ML-DSA-65", "ML-DSA-87" };
	const struct mldsa_params *p = params[_i];
	drivers_t d;
	int i, nd = mldsa_impls(names[_i], d);
	EVP_PKEY_CTX *probe = EVP_PKEY_CTX_new_from_name(NULL, ossl_names[_i], NULL);
	struct rt_rng rng;

	if (!probe) {
		printf("SKIP: %s: the installed OpenSSL (%s) has no ML-DSA (it arrived in 3.5); "
		       "no differential test\n", names[_i], OPENSSL_VERSION_TEXT);
		return;
	}
	EVP_PKEY_CTX_free(probe);
	rt_rng_seed(&rng, 87 + (u64)_i);
	for (i = 0; i < nd; i++) {
		static u8 pk[MLDSA_PK_MAX], sig[MLDSA_SIG_MAX], msg[512];
		struct crypto_sig *t = alloc_drv(d[i]);
		int round;

		for (round = 0; round < 8; round++) {
			EVP_PKEY *k;
			EVP_MD_CTX *mctx = EVP_MD_CTX_new();
			unsigned int ml = rt_rand_range(&rng, sizeof(msg));

			rt_fill(&rng, msg, ml);
			RT_REQ_EQ(d[i], crypto_sig_generate_key(t), 0);
			RT_REQ_EQ(d[i], crypto_sig_export_pubkey(t, RIND_KEY_RAW, pk, sizeof(pk)),
				  p->pk_size);
			RT_REQ_EQ(d[i], crypto_sig_sign(t, msg, ml, sig, sizeof(sig)), (int)p->sig_size);
			k = EVP_PKEY_new_raw_public_key_ex(NULL, ossl_names[_i], NULL, pk, p->pk_size);
			RT_REQ(d[i], k && mctx);
			RT_REQ(d[i], EVP_DigestVerifyInit_ex(mctx, NULL, NULL, NULL, NULL, k, NULL) == 1);
			RT_REQ(d[i], EVP_DigestVerify(mctx, sig, p->sig_size, msg, ml) == 1);
			EVP_MD_CTX_free(mctx);
			EVP_PKEY_free(k);
		}
		crypto_free_sig(t);
		rt_report("rind signatures verified by OpenSSL", d[i], 8, 0);
	}
}
END_TEST

static Suite *mldsa_suite(void)
{
	Suite *s = suite_create("mldsa");
	TCase *tc = tcase_create("mldsa");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_wycheproof, 0, 3);
	tcase_add_test(tc, test_rounding);
	tcase_add_test(tc, test_ntt);
	tcase_add_loop_test(tc, test_round_trip, 0, 3);
	tcase_add_loop_test(tc, test_key_formats, 0, 3);
	tcase_add_test(tc, test_options_elsewhere);
	tcase_add_loop_test(tc, test_openssl, 0, 3);
	tcase_add_loop_test(tc, test_ops_vs_generic, 0, 3);
	tcase_add_loop_test(tc, test_vs_generic, 0, 3);
	tcase_add_loop_test(tc, test_malformed_vs_generic, 0, 3);
	tcase_add_loop_test(tc, test_arch_registered, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(mldsa_suite)
