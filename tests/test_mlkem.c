// SPDX-License-Identifier: MIT
/*
 * Suite "mlkem": the kem type with ML-KEM-512/768/1024 (FIPS 203) and the
 * X25519MLKEM768 hybrid, over every implementation.
 *
 *  - Wycheproof, every case of every file, for each parameter set:
 *    mlkem_*_keygen_seed_test.json (ek and dk from the 64-byte seed),
 *    mlkem_*_encaps_test.json (deterministic encapsulation with m; keys
 *    of the wrong length are -EINVAL, keys failing the modulus check
 *    -EKEYREJECTED), mlkem_*_test.json (decapsulation from the seed,
 *    including implicit rejection and the Strcmp cases),
 *    mlkem_*_semi_expanded_decaps_test.json (decapsulation with the
 *    expanded dk: corrupted hash or ek -EKEYREJECTED, wrong lengths
 *    -EINVAL);
 *  - random round trips, implicit rejection of a modified ciphertext,
 *    key export and re-import (expanded and seed);
 *  - x25519mlkem768: round trip, and its layout against
 *    draft-ietf-tls-ecdhe-mlkem (ML-KEM-768 part first, X25519 part
 *    second in the key share, ciphertext and secret), checked against
 *    "mlkem768" and rind_curve25519;
 *  - wrong usage: sizes (-EINVAL), missing keys (-ENOKEY), small export
 *    buffers (-ENOSPC).
 */
#include <rind/kem.h>
#include <rind/kpp.h>
#include <rind/internal/kem.h>
#include <crypto/mlkem.h>
#include "testutil.h"

static const char *const mlkem_names[] = { "mlkem512", "mlkem768", "mlkem1024" };
static const char *const mlkem_bits[] = { "512", "768", "1024" };

static struct crypto_kem *alloc_drv(const char *drv)
{
	return RT_ALLOC_DRV(kem, drv);
}

/* A hex field, absent in some invalid cases (an empty buffer then). */
static u8 *opt_hex(json_t *t, const char *key, size_t *len)
{
	return rt_wp_opt_hex(t, key, len, true);
}

static json_t *load(int i, const char *what, char *file, size_t filesz)
{
	snprintf(file, filesz, "mlkem_%s_%s.json", mlkem_bits[i], what);
	return rt_wp_load(file);
}

/* ---- Wycheproof ------------------------------------------------------- */

/*
 * One case, on a fresh tfm (@tc its tcId for messages).  Returns 1 for a
 * case to count in the summary line (decapsulation: implicit rejection).
 */
typedef int (*wp_case_fn)(struct crypto_kem *tfm, json_t *t, int tc, const char *drv,
			  bool expanded);

static void wp_file(int pi, const char *what, const char *drv, wp_case_fn one, bool expanded)
{
	char file[64];
	json_t *root = load(pi, what, file, sizeof(file)), *g, *t;
	size_t gi, ti;
	int ran = 0, counted = 0;

	if (!root)
		return;
	json_array_foreach(json_object_get(root, "testGroups"), gi, g) {
		json_array_foreach(json_object_get(g, "tests"), ti, t) {
			int tc = (int)json_integer_value(json_object_get(t, "tcId"));
			struct crypto_kem *tfm = alloc_drv(drv);

			counted += one(tfm, t, tc, drv, expanded);
			crypto_free_kem(tfm);
			ran++;
		}
	}
	rt_report(file, drv, ran, 0);
	if (counted)
		printf("  %s: %d Strcmp (implicit rejection) cases\n", file, counted);
	json_decref(root);
}

static int wp_keygen(struct crypto_kem *tfm, json_t *t, int tc, const char *drv, bool expanded)
{
	size_t sl, el, dl;
	u8 *seed = opt_hex(t, "seed", &sl), *ek = opt_hex(t, "ek", &el);
	u8 *dk = opt_hex(t, "dk", &dl), *buf = malloc(dl + el + 64);
	int err = crypto_kem_set_privkey(tfm, seed, (unsigned int)sl);

	(void)expanded;
	if (rt_wp_result(t) == 1) {
		RT_REQ_EQ(drv, err, 0);
		RT_REQ_EQ(drv, crypto_kem_export_pubkey(tfm, RIND_KEY_RAW, buf, (unsigned int)el), el);
		RT_REQ_MEM(drv, tc, buf, ek, el);
		RT_REQ_EQ(drv, crypto_kem_export_privkey(tfm, RIND_KEY_RAW, buf, (unsigned int)dl), dl);
		RT_REQ_MEM(drv, tc, buf, dk, dl);
		RT_REQ_EQ(drv, crypto_kem_export_seed(tfm, buf, 64), 64);
		RT_REQ_MEM(drv, tc, buf, seed, 64);
	} else {
		RT_REQ(drv, err < 0);
	}
	free(seed);
	free(ek);
	free(dk);
	free(buf);
	return 0;
}

static int wp_encaps(struct crypto_kem *tfm, json_t *t, int tc, const char *drv, bool expanded)
{
	size_t el, ml, cl, kl;
	u8 *ek = opt_hex(t, "ek", &el), *m = opt_hex(t, "m", &ml);
	u8 *c = opt_hex(t, "c", &cl), *k = opt_hex(t, "K", &kl);
	unsigned int cts = crypto_kem_ciphertextsize(tfm);
	u8 *ct = malloc(cts), ss[32];
	int err = crypto_kem_set_pubkey(tfm, ek, (unsigned int)el);

	(void)expanded;
	if (rt_wp_result(t) == 1) {
		RT_REQ_EQ(drv, err, 0);
		RT_REQ_EQ(drv, crypto_kem_encapsulate_m(tfm, m, (unsigned int)ml, ct, cts,
						     ss, sizeof(ss)), 0);
		RT_REQ_EQ(drv, cl, cts);
		RT_REQ_MEM(drv, tc, ct, c, cl);
		RT_REQ_MEM(drv, tc, ss, k, 32);
	} else {
		/* Wrong length: -EINVAL; not reduced mod q: -EKEYREJECTED. */
		RT_REQ_EQ(drv, err, el != crypto_kem_pubkeysize(tfm) ? -EINVAL : -EKEYREJECTED);
		RT_REQ_EQ(drv, crypto_kem_encapsulate_m(tfm, m, (unsigned int)ml, ct, cts,
						     ss, sizeof(ss)), -ENOKEY);
	}
	free(ek);
	free(m);
	free(c);
	free(k);
	free(ct);
	return 0;
}

/* mlkem_*_test.json (key from "seed") and the semi-expanded file (from "dk"). */
static int wp_decaps(struct crypto_kem *tfm, json_t *t, int tc, const char *drv, bool expanded)
{
	size_t sl, cl, kl;
	u8 *key = opt_hex(t, expanded ? "dk" : "seed", &sl);
	u8 *c = opt_hex(t, "c", &cl), *k = opt_hex(t, "K", &kl), ss[32];
	unsigned int cts = crypto_kem_ciphertextsize(tfm);
	int err = crypto_kem_set_privkey(tfm, key, (unsigned int)sl);

	if (!err)
		err = crypto_kem_decapsulate(tfm, c, (unsigned int)cl, ss, sizeof(ss));
	if (rt_wp_result(t) == 1) {
		RT_REQ_EQ(drv, err, 0);
		RT_REQ_EQ(drv, kl, 32);
		RT_REQ_MEM(drv, tc, ss, k, 32);
	} else if (sl != crypto_kem_privkeysize(tfm) && sl != crypto_kem_seedsize(tfm)) {
		RT_REQ_EQ(drv, err, -EINVAL);
	} else if (cl != cts) {
		RT_REQ_EQ(drv, err, -EINVAL);
	} else {
		RT_REQ_EQ(drv, err, -EKEYREJECTED);
	}
	free(key);
	free(c);
	free(k);
	return rt_wp_has_flag(t, "Strcmp");
}

START_TEST(test_wycheproof)
{
	drivers_t d;
	int n = rt_impls(mlkem_names[_i], "kem", d, RT_MAX_IMPLS), i;

	for (i = 0; i < n; i++) {
		wp_file(_i, "keygen_seed_test", d[i], wp_keygen, false);
		wp_file(_i, "encaps_test", d[i], wp_encaps, false);
		wp_file(_i, "test", d[i], wp_decaps, false);
		wp_file(_i, "semi_expanded_decaps_test", d[i], wp_decaps, true);
	}
}
END_TEST

/* ---- round trips ------------------------------------------------------ */

static void round_trips(const char *drv, struct rt_rng *rng, int count)
{
	struct crypto_kem *tfm = alloc_drv(drv), *pub = alloc_drv(drv), *priv = alloc_drv(drv);
	unsigned int eks = crypto_kem_pubkeysize(tfm), dks = crypto_kem_privkeysize(tfm);
	unsigned int cts = crypto_kem_ciphertextsize(tfm), sss = crypto_kem_sharedsecretsize(tfm);
	unsigned int seeds = crypto_kem_seedsize(tfm);
	u8 *ek = malloc(eks), *dk = malloc(dks), *ct = malloc(cts);
	u8 seed[128], seed2[128], ss[64], ss2[64], ss3[64];
	int i;

	for (i = 0; i < count; i++) {
		if (i & 1) {
			rt_fill(rng, seed, seeds);
			RT_REQ_EQ(drv, crypto_kem_set_privkey(tfm, seed, seeds), 0);
			RT_REQ_EQ(drv, crypto_kem_export_seed(tfm, seed2, sizeof(seed2)), seeds);
			RT_REQ(drv, !memcmp(seed, seed2, seeds));
		} else {
			RT_REQ_EQ(drv, crypto_kem_generate_key(tfm), 0);
		}
		RT_REQ_EQ(drv, crypto_kem_export_pubkey(tfm, RIND_KEY_RAW, ek, eks), eks);
		RT_REQ_EQ(drv, crypto_kem_export_privkey(tfm, RIND_KEY_RAW, dk, dks), dks);
		RT_REQ_EQ(drv, crypto_kem_set_pubkey(pub, ek, eks), 0);
		RT_REQ_EQ(drv, crypto_kem_set_privkey(priv, dk, dks), 0);
		/* A key set from its expanded form has no seed. */
		RT_REQ_EQ(drv, crypto_kem_export_seed(priv, seed2, sizeof(seed2)), -ENOKEY);
		RT_REQ_EQ(drv, crypto_kem_encapsulate(pub, ct, cts, ss, sss), 0);
		RT_REQ_EQ(drv, crypto_kem_decapsulate(tfm, ct, cts, ss2, sss), 0);
		RT_REQ(drv, !memcmp(ss, ss2, sss));
		RT_REQ_EQ(drv, crypto_kem_decapsulate(priv, ct, cts, ss3, sss), 0);
		RT_REQ(drv, !memcmp(ss, ss3, sss));
		/* A public-key-only tfm cannot decapsulate. */
		RT_REQ_EQ(drv, crypto_kem_decapsulate(pub, ct, cts, ss3, sss), -ENOKEY);
		/* Any change of the ML-KEM ciphertext: another (pseudo-random) secret. */
		ct[rt_rand_range(rng, cts - (strstr(drv, "x25519") ? 32 : 0))] ^=
			(u8)(1u << rt_rand_range(rng, 8));
		RT_REQ_EQ(drv, crypto_kem_decapsulate(tfm, ct, cts, ss2, sss), 0);
		RT_REQ(drv, memcmp(ss, ss2, 32));
		RT_REQ_EQ(drv, crypto_kem_decapsulate(priv, ct, cts, ss3, sss), 0);
		RT_REQ(drv, !memcmp(ss2, ss3, sss));
	}
	free(ek);
	free(dk);
	free(ct);
	crypto_free_kem(tfm);
	crypto_free_kem(pub);
	crypto_free_kem(priv);
}

START_TEST(test_round_trip)
{
	static const char *const names[] = { "mlkem512", "mlkem768", "mlkem1024", "x25519mlkem768" };
	struct rt_rng rng;
	drivers_t d;
	int n = rt_impls(names[_i], "kem", d, RT_MAX_IMPLS), i;

	rt_rng_seed(&rng, 0x6d6c6b656d00 + (u64)_i);
	for (i = 0; i < n; i++) {
		round_trips(d[i], &rng, 10);
		rt_report(names[_i], d[i], 10, 0);
	}
}
END_TEST

/* ---- x25519mlkem768 layout ---------------------------------------------- */

START_TEST(test_hybrid_layout)
{
	struct crypto_kem *ml = crypto_alloc_kem("mlkem768", 0, 0);
	struct rt_rng rng;
	drivers_t d;
	int n = rt_impls("x25519mlkem768", "kem", d, RT_MAX_IMPLS), i, j;

	ck_assert(!IS_ERR(ml));
	rt_rng_seed(&rng, 0x11ec);
	for (i = 0; i < n; i++) {
		const char *drv = d[i];
		struct crypto_kem *tfm = alloc_drv(drv), *peer = alloc_drv(drv);
		u8 seed[96], m[64], pk[1216], mpk[1184], xpk[32], ct[1120], mct[1088];
		u8 ss[64], mss[32], xss[32], ss2[64], dk[2432], mdk[2400];

		RT_REQ_EQ(drv, crypto_kem_pubkeysize(tfm), 1216);
		RT_REQ_EQ(drv, crypto_kem_ciphertextsize(tfm), 1120);
		RT_REQ_EQ(drv, crypto_kem_sharedsecretsize(tfm), 64);
		RT_REQ_EQ(drv, crypto_kem_seedsize(tfm), 96);
		RT_REQ_EQ(drv, crypto_kem_privkeysize(tfm), 2432);
		RT_REQ_EQ(drv, crypto_kem_encapsizeof_m(tfm), 64);
		for (j = 0; j < 8; j++) {
			rt_fill(&rng, seed, sizeof(seed));
			rt_fill(&rng, m, sizeof(m));
			/* Client share = ML-KEM-768 ek || X25519 public key. */
			RT_REQ_EQ(drv, crypto_kem_set_privkey(tfm, seed, 96), 0);
			RT_REQ_EQ(drv, crypto_kem_export_pubkey(tfm, RIND_KEY_RAW, pk, sizeof(pk)), 1216);
			RT_REQ_EQ(drv, crypto_kem_set_privkey(ml, seed, 64), 0);
			RT_REQ_EQ(drv, crypto_kem_export_pubkey(ml, RIND_KEY_RAW, mpk, sizeof(mpk)), 1184);
			RT_REQ(drv, !memcmp(pk, mpk, 1184));
			RT_REQ_EQ(drv, rind_curve25519_generate_public(xpk, seed + 64), 0);
			RT_REQ(drv, !memcmp(pk + 1184, xpk, 32));
			/* Expanded private key = ML-KEM dk || X25519 secret. */
			RT_REQ_EQ(drv, crypto_kem_export_privkey(tfm, RIND_KEY_RAW, dk, sizeof(dk)), 2432);
			RT_REQ_EQ(drv, crypto_kem_export_privkey(ml, RIND_KEY_RAW, mdk, sizeof(mdk)), 2400);
			RT_REQ(drv, !memcmp(dk, mdk, 2400) && !memcmp(dk + 2400, seed + 64, 32));
			/* Server share = ML-KEM ct || X25519 ephemeral public key. */
			RT_REQ_EQ(drv, crypto_kem_set_pubkey(peer, pk, sizeof(pk)), 0);
			RT_REQ_EQ(drv, crypto_kem_encapsulate_m(peer, m, 64, ct, sizeof(ct), ss, sizeof(ss)), 0);
			RT_REQ_EQ(drv, crypto_kem_encapsulate_m(ml, m, 32, mct, sizeof(mct), mss, sizeof(mss)), 0);
			RT_REQ(drv, !memcmp(ct, mct, 1088));
			RT_REQ_EQ(drv, rind_curve25519_generate_public(xpk, m + 32), 0);
			RT_REQ(drv, !memcmp(ct + 1088, xpk, 32));
			/* Shared secret = ML-KEM K || X25519(eph, client). */
			RT_REQ_EQ(drv, rind_curve25519(xss, m + 32, pk + 1184), 0);
			RT_REQ(drv, !memcmp(ss, mss, 32) && !memcmp(ss + 32, xss, 32));
			RT_REQ_EQ(drv, crypto_kem_decapsulate(tfm, ct, sizeof(ct), ss2, sizeof(ss2)), 0);
			RT_REQ(drv, !memcmp(ss, ss2, 64));
		}
		/* A small-order X25519 share is refused (all-zero secret). */
		memset(ct + 1088, 0, 32);
		RT_REQ_EQ(drv, crypto_kem_decapsulate(tfm, ct, sizeof(ct), ss2, sizeof(ss2)), -EINVAL);
		memset(pk + 1184, 0, 32);
		RT_REQ_EQ(drv, crypto_kem_set_pubkey(peer, pk, sizeof(pk)), 0);
		RT_REQ_EQ(drv, crypto_kem_encapsulate(peer, ct, sizeof(ct), ss, sizeof(ss)), -EINVAL);
		rt_report("x25519mlkem768 layout", drv, 8, 0);
		crypto_free_kem(tfm);
		crypto_free_kem(peer);
	}
	crypto_free_kem(ml);
}
END_TEST

/* ---- every driver against the generic one ----------------------------- */

/*
 * The arch drivers promise the generic arithmetic's exact outputs: over
 * random seeds, messages and ciphertexts (valid, bit-flipped, random),
 * every driver's keys, ciphertexts and secrets equal mlkemN-generic's.
 */
START_TEST(test_vs_generic)
{
	static const char *const names[] = { "mlkem512", "mlkem768", "mlkem1024", "x25519mlkem768" };
	static const char *const generic[] = { "mlkem512-generic", "mlkem768-generic",
					       "mlkem1024-generic", "x25519mlkem768-generic" };
	drivers_t d;
	int n = rt_impls(names[_i], "kem", d, RT_MAX_IMPLS), i, trial;
	struct rt_rng rng;

	rt_rng_seed(&rng, 0x6d6c6b656dull + (u64)_i);
	for (i = 0; i < n; i++) {
		struct crypto_kem *g, *t;
		unsigned int eks, dks, cts, sss, seeds, ms;
		u8 *buf[8];

		if (!strcmp(d[i], generic[_i]))
			continue;
		g = alloc_drv(generic[_i]);
		t = alloc_drv(d[i]);
		eks = crypto_kem_pubkeysize(g);
		dks = crypto_kem_privkeysize(g);
		cts = crypto_kem_ciphertextsize(g);
		sss = crypto_kem_sharedsecretsize(g);
		seeds = crypto_kem_seedsize(g);
		ms = crypto_kem_encapsizeof_m(g);
		for (trial = 0; trial < 8; trial++)
			buf[trial] = calloc(1, dks + cts + 64);
		for (trial = 0; trial < 40; trial++) {
			u8 *seed = buf[0], *k1 = buf[1], *k2 = buf[2], *m = buf[3];
			u8 *ct1 = buf[4], *ct2 = buf[5], *ss1 = buf[6], *ss2 = buf[7];

			rt_fill(&rng, seed, seeds);
			rt_fill(&rng, m, ms);
			RT_REQ_EQ(d[i], crypto_kem_set_privkey(g, seed, seeds), 0);
			RT_REQ_EQ(d[i], crypto_kem_set_privkey(t, seed, seeds), 0);
			RT_REQ_EQ(d[i], crypto_kem_export_pubkey(g, RIND_KEY_RAW, k1, eks), eks);
			RT_REQ_EQ(d[i], crypto_kem_export_pubkey(t, RIND_KEY_RAW, k2, eks), eks);
			RT_REQ(d[i], !memcmp(k1, k2, eks));
			RT_REQ_EQ(d[i], crypto_kem_export_privkey(g, RIND_KEY_RAW, k1, dks), dks);
			RT_REQ_EQ(d[i], crypto_kem_export_privkey(t, RIND_KEY_RAW, k2, dks), dks);
			RT_REQ(d[i], !memcmp(k1, k2, dks));
			/* the driver takes the generic driver's expanded key */
			RT_REQ_EQ(d[i], crypto_kem_set_privkey(t, k1, dks), 0);
			RT_REQ_EQ(d[i], crypto_kem_encapsulate_m(g, m, ms, ct1, cts, ss1, sss), 0);
			RT_REQ_EQ(d[i], crypto_kem_encapsulate_m(t, m, ms, ct2, cts, ss2, sss), 0);
			RT_REQ(d[i], !memcmp(ct1, ct2, cts) && !memcmp(ss1, ss2, sss));
			RT_REQ_EQ(d[i], crypto_kem_decapsulate(t, ct1, cts, ss2, sss), 0);
			RT_REQ(d[i], !memcmp(ss1, ss2, sss));
			/* implicit rejection: a flipped bit, then random bytes */
			ct1[rt_rand_range(&rng, cts)] ^= (u8)(1u << rt_rand_range(&rng, 8));
			if (trial & 1)
				rt_fill(&rng, ct1, cts);
			RT_REQ_EQ(d[i], crypto_kem_decapsulate(g, ct1, cts, ss1, sss), 0);
			RT_REQ_EQ(d[i], crypto_kem_decapsulate(t, ct1, cts, ss2, sss), 0);
			RT_REQ(d[i], !memcmp(ss1, ss2, sss));
			/* encapsulation to a key set from its public half only */
			RT_REQ_EQ(d[i], crypto_kem_export_pubkey(g, RIND_KEY_RAW, k1, eks), eks);
			RT_REQ_EQ(d[i], crypto_kem_set_pubkey(t, k1, eks), 0);
			RT_REQ_EQ(d[i], crypto_kem_encapsulate_m(t, m, ms, ct2, cts, ss2, sss), 0);
			RT_REQ_EQ(d[i], crypto_kem_encapsulate_m(g, m, ms, ct1, cts, ss1, sss), 0);
			RT_REQ(d[i], !memcmp(ct1, ct2, cts) && !memcmp(ss1, ss2, sss));
		}
		for (trial = 0; trial < 8; trial++)
			free(buf[trial]);
		crypto_free_kem(g);
		crypto_free_kem(t);
		rt_report("vs generic", d[i], 40, 0);
	}
}
END_TEST

/* ---- key encodings ------------------------------------------------------ */

/*
 * SPKI, PKCS#8 and PEM of the IETF LAMPS profile: the exact DER headers
 * (OID 2.16.840.1.101.3.4.4.{1,2,3}, no parameters; the private key as
 * the seed [0], or expandedKey, or both), round trips on every driver,
 * the three private forms accepted, a "both" whose halves disagree and
 * the wrong parameter set refused with the key left as it was.
 */
static u8 *der_both(const u8 *seed, const u8 *dk, unsigned int dks, u8 oid_last, size_t *len)
{
	size_t inner = 2 + 64 + 4 + dks, body = 3 + 13 + 4 + 4 + inner, n = 0;
	u8 *d = malloc(body + 4);

	d[n++] = 0x30; d[n++] = 0x82; d[n++] = (u8)(body >> 8); d[n++] = (u8)body;
	memcpy(d + n, "\x02\x01\x00\x30\x0b\x06\x09\x60\x86\x48\x01\x65\x03\x04\x04", 15);
	n += 15;
	d[n++] = oid_last;
	d[n++] = 0x04; d[n++] = 0x82; d[n++] = (u8)((inner + 4) >> 8); d[n++] = (u8)(inner + 4);
	d[n++] = 0x30; d[n++] = 0x82; d[n++] = (u8)(inner >> 8); d[n++] = (u8)inner;
	d[n++] = 0x04; d[n++] = 0x40;
	memcpy(d + n, seed, 64);
	n += 64;
	d[n++] = 0x04; d[n++] = 0x82; d[n++] = (u8)(dks >> 8); d[n++] = (u8)dks;
	memcpy(d + n, dk, dks);
	n += dks;
	*len = n;
	return d;
}

START_TEST(test_key_formats)
{
	drivers_t d;
	int n = rt_impls(mlkem_names[_i], "kem", d, RT_MAX_IMPLS), i;
	const u8 oid_last = (u8)(_i + 1);
	struct rt_rng rng;

	rt_rng_seed(&rng, 0x6b6579ull + (u64)_i);
	for (i = 0; i < n; i++) {
		const char *drv = d[i];
		struct crypto_kem *a = alloc_drv(drv), *b = alloc_drv(drv);
		unsigned int eks = crypto_kem_pubkeysize(a), dks = crypto_kem_privkeysize(a);
		size_t cap = 2 * dks + 4096, blen;
		u8 *buf = malloc(cap), *ek = malloc(eks), *ek2 = malloc(eks), *dk = malloc(dks);
		u8 *dk2 = malloc(dks), *both, seed[64];
		static const char *const other[] = { "mlkem768", "mlkem1024", "mlkem512" };
		struct crypto_kem *o = crypto_alloc_kem(other[_i], 0, 0);
		int len;

		rt_fill(&rng, seed, sizeof(seed));
		RT_REQ_EQ(drv, crypto_kem_set_privkey(a, seed, 64), 0);
		RT_REQ_EQ(drv, crypto_kem_export_pubkey(a, RIND_KEY_RAW, ek, eks), eks);
		RT_REQ_EQ(drv, crypto_kem_export_privkey(a, RIND_KEY_RAW, dk, dks), dks);

		/* SPKI: SEQUENCE { AlgorithmIdentifier { OID }, BIT STRING ek } */
		len = crypto_kem_export_pubkey(a, RIND_KEY_SPKI_DER, buf, cap);
		RT_REQ_EQ(drv, len, (int)eks + 22);
		RT_REQ(drv, buf[0] == 0x30 && buf[1] == 0x82 && buf[4] == 0x30 && buf[5] == 0x0b &&
			    buf[6] == 0x06 && buf[7] == 0x09 && buf[15] == 0x04 && buf[16] == oid_last &&
			    buf[17] == 0x03 && buf[21] == 0x00 && !memcmp(buf + 22, ek, eks));
		RT_REQ_EQ(drv, crypto_kem_export_pubkey(a, RIND_KEY_SPKI_DER, dk2, (unsigned int)len - 1),
			  -ENOSPC);
		RT_REQ_EQ(drv, crypto_kem_set_pubkey(b, buf, (unsigned int)len), 0);
		RT_REQ_EQ(drv, crypto_kem_export_pubkey(b, RIND_KEY_RAW, ek2, eks), eks);
		RT_REQ(drv, !memcmp(ek, ek2, eks));
		/* ... of another parameter set is refused */
		if (!IS_ERR(o))
			RT_REQ_EQ(drv, crypto_kem_set_pubkey(o, buf, (unsigned int)len), -EKEYREJECTED);
		buf[16] ^= 0x7;	/* another OID */
		RT_REQ_EQ(drv, crypto_kem_set_pubkey(b, buf, (unsigned int)len), -EKEYREJECTED);
		len = crypto_kem_export_pubkey(a, RIND_KEY_PEM, buf, cap);
		RT_REQ(drv, len > 0 && !memcmp(buf, "-----BEGIN PUBLIC KEY-----", 26));
		RT_REQ_EQ(drv, crypto_kem_set_pubkey(b, buf, (unsigned int)len), 0);

		/* PKCS#8, seed form: 30 54 02 01 00 30 0b 06 09 <oid> 04 42 80 40 <seed> */
		len = crypto_kem_export_privkey(a, RIND_KEY_PKCS8_DER, buf, cap);
		RT_REQ_EQ(drv, len, 86);
		RT_REQ(drv, !memcmp(buf, "\x30\x54\x02\x01\x00\x30\x0b\x06\x09\x60\x86\x48\x01\x65\x03\x04\x04", 17) &&
			    buf[17] == oid_last && !memcmp(buf + 18, "\x04\x42\x80\x40", 4) &&
			    !memcmp(buf + 22, seed, 64));
		RT_REQ_EQ(drv, crypto_kem_set_privkey(b, buf, (unsigned int)len), 0);
		RT_REQ_EQ(drv, crypto_kem_export_privkey(b, RIND_KEY_RAW, dk2, dks), dks);
		RT_REQ(drv, !memcmp(dk, dk2, dks));
		RT_REQ_EQ(drv, crypto_kem_export_seed(b, buf, 64), 64);
		RT_REQ(drv, !memcmp(buf, seed, 64));
		if (!IS_ERR(o)) {
			len = crypto_kem_export_privkey(a, RIND_KEY_PKCS8_DER, buf, cap);
			RT_REQ_EQ(drv, crypto_kem_set_privkey(o, buf, (unsigned int)len), -EKEYREJECTED);
		}
		len = crypto_kem_export_privkey(a, RIND_KEY_PEM, buf, cap);
		RT_REQ(drv, len > 0 && !memcmp(buf, "-----BEGIN PRIVATE KEY-----", 27));
		RT_REQ_EQ(drv, crypto_kem_set_privkey(b, buf, (unsigned int)len), 0);
		RT_REQ_EQ(drv, crypto_kem_export_privkey(b, RIND_KEY_RAW, dk2, dks), dks);
		RT_REQ(drv, !memcmp(dk, dk2, dks));

		/* expandedKey form: a key set from the expanded dk exports it */
		RT_REQ_EQ(drv, crypto_kem_set_privkey(b, dk, dks), 0);
		len = crypto_kem_export_privkey(b, RIND_KEY_PKCS8_DER, buf, cap);
		RT_REQ(drv, len > (int)dks && buf[len - dks - 4] == 0x04 &&
			    !memcmp(buf + len - dks, dk, dks));
		RT_REQ_EQ(drv, crypto_kem_set_privkey(a, buf, (unsigned int)len), 0);
		RT_REQ_EQ(drv, crypto_kem_export_seed(a, buf, 64), -ENOKEY);
		RT_REQ_EQ(drv, crypto_kem_export_privkey(a, RIND_KEY_RAW, dk2, dks), dks);
		RT_REQ(drv, !memcmp(dk, dk2, dks));

		/* both: accepted when they agree, refused (key kept) when not */
		both = der_both(seed, dk, dks, oid_last, &blen);
		RT_REQ_EQ(drv, crypto_kem_set_privkey(a, both, (unsigned int)blen), 0);
		RT_REQ_EQ(drv, crypto_kem_export_seed(a, buf, 64), 64);
		both[blen - 1] ^= 1;
		RT_REQ_EQ(drv, crypto_kem_set_privkey(a, both, (unsigned int)blen), -EKEYREJECTED);
		RT_REQ_EQ(drv, crypto_kem_export_seed(a, buf, 64), 64);
		RT_REQ(drv, !memcmp(buf, seed, 64));
		/*
		 * A truncated encoding is no encoding: bytes of a wrong length
		 * (-EINVAL); a complete one with a wrong inner tag is malformed.
		 */
		RT_REQ_EQ(drv, crypto_kem_set_privkey(a, both, (unsigned int)blen - 1), -EINVAL);
		both[blen - 1] ^= 1;
		both[28] = 0x05;	/* the seed's OCTET STRING tag in "both" */
		RT_REQ_EQ(drv, crypto_kem_set_privkey(a, both, (unsigned int)blen), -EKEYREJECTED);
		RT_REQ_EQ(drv, crypto_kem_export_seed(a, buf, 64), 64);
		RT_REQ_EQ(drv, crypto_kem_export_privkey(a, RIND_KEY_JWK, buf, cap), -EINVAL);
		free(both);
		if (!IS_ERR(o))
			crypto_free_kem(o);
		free(buf);
		free(ek);
		free(ek2);
		free(dk);
		free(dk2);
		crypto_free_kem(a);
		crypto_free_kem(b);
		rt_report("key formats", drv, 1, 0);
	}
}
END_TEST

/* ---- wrong usage ---------------------------------------------------------- */

START_TEST(test_bad_usage)
{
	static const char *const names[] = { "mlkem512", "mlkem768", "mlkem1024", "x25519mlkem768" };
	drivers_t d;
	int n = rt_impls(names[_i], "kem", d, RT_MAX_IMPLS), i;

	for (i = 0; i < n; i++) {
		const char *drv = d[i];
		struct crypto_kem *tfm = alloc_drv(drv);
		unsigned int eks = crypto_kem_pubkeysize(tfm), dks = crypto_kem_privkeysize(tfm);
		unsigned int cts = crypto_kem_ciphertextsize(tfm), sss = crypto_kem_sharedsecretsize(tfm);
		unsigned int seeds = crypto_kem_seedsize(tfm), ms = crypto_kem_encapsizeof_m(tfm);
		u8 *buf = calloc(1, dks + 64), *ct = calloc(1, cts + 1), ss[64], m[64] = { 0 };

		/* No key yet. */
		RT_REQ_EQ(drv, crypto_kem_encapsulate(tfm, ct, cts, ss, sss), -ENOKEY);
		RT_REQ_EQ(drv, crypto_kem_decapsulate(tfm, ct, cts, ss, sss), -ENOKEY);
		RT_REQ_EQ(drv, crypto_kem_export_pubkey(tfm, RIND_KEY_RAW, buf, eks), -ENOKEY);
		RT_REQ_EQ(drv, crypto_kem_export_privkey(tfm, RIND_KEY_RAW, buf, dks), -ENOKEY);
		/* Key lengths. */
		RT_REQ_EQ(drv, crypto_kem_set_pubkey(tfm, buf, eks - 1), -EINVAL);
		RT_REQ_EQ(drv, crypto_kem_set_pubkey(tfm, buf, eks + 1), -EINVAL);
		RT_REQ_EQ(drv, crypto_kem_set_privkey(tfm, buf, seeds - 1), -EINVAL);
		RT_REQ_EQ(drv, crypto_kem_set_privkey(tfm, buf, dks + 1), -EINVAL);
		RT_REQ_EQ(drv, crypto_kem_set_privkey(tfm, buf, 0), -EINVAL);
		RT_REQ_EQ(drv, crypto_kem_set_privkey(tfm, NULL, seeds), -EINVAL);
		/* An all-zero expanded key has the wrong H(ek). */
		RT_REQ_EQ(drv, crypto_kem_set_privkey(tfm, buf, dks), -EKEYREJECTED);
		RT_REQ_EQ(drv, crypto_kem_generate_key(tfm), 0);
		/* Buffer sizes. */
		RT_REQ_EQ(drv, crypto_kem_encapsulate(tfm, ct, cts - 1, ss, sss), -EINVAL);
		RT_REQ_EQ(drv, crypto_kem_encapsulate(tfm, ct, cts, ss, sss - 1), -EINVAL);
		RT_REQ_EQ(drv, crypto_kem_encapsulate(tfm, NULL, cts, ss, sss), -EINVAL);
		RT_REQ_EQ(drv, crypto_kem_encapsulate_m(tfm, m, ms - 1, ct, cts, ss, sss), -EINVAL);
		RT_REQ_EQ(drv, crypto_kem_encapsulate(tfm, ct, cts + 1, ss, sss), 0);
		RT_REQ_EQ(drv, crypto_kem_decapsulate(tfm, ct, cts - 1, ss, sss), -EINVAL);
		RT_REQ_EQ(drv, crypto_kem_decapsulate(tfm, ct, cts + 1, ss, sss), -EINVAL);
		RT_REQ_EQ(drv, crypto_kem_decapsulate(tfm, ct, cts, ss, sss - 1), -EINVAL);
		RT_REQ_EQ(drv, crypto_kem_decapsulate(tfm, ct, cts, ss, sss), 0);
		/* Export. */
		RT_REQ_EQ(drv, crypto_kem_export_pubkey(tfm, RIND_KEY_RAW, buf, eks - 1), -ENOSPC);
		RT_REQ_EQ(drv, crypto_kem_export_privkey(tfm, RIND_KEY_RAW, buf, dks - 1), -ENOSPC);
		RT_REQ_EQ(drv, crypto_kem_export_seed(tfm, buf, seeds - 1), -ENOSPC);
		RT_REQ_EQ(drv, crypto_kem_export_pubkey(tfm, RIND_KEY_JWK, buf, dks), -EINVAL);
		/*
		 * An expanded key whose s-hat has a coefficient >= q is refused
		 * (its H(ek) is still right: s is not hashed); q - 1 is fine.
		 */
		RT_REQ_EQ(drv, crypto_kem_export_privkey(tfm, RIND_KEY_RAW, buf, dks), dks);
		buf[0] = 0x00;
		buf[1] = (u8)((buf[1] & 0xf0) | 0x0d);	/* coefficient 0 = 3328 */
		RT_REQ_EQ(drv, crypto_kem_set_privkey(tfm, buf, dks), 0);
		buf[0] = 0x01;				/* 3329 = q */
		RT_REQ_EQ(drv, crypto_kem_set_privkey(tfm, buf, dks), -EKEYREJECTED);
		buf[0] = 0xff;
		buf[1] |= 0x0f;				/* 4095 */
		RT_REQ_EQ(drv, crypto_kem_set_privkey(tfm, buf, dks), -EKEYREJECTED);
		buf[3 * 127 + 2] = 0xff;		/* the last field of s-hat[0]: 4080+ */
		buf[0] = 0x00;
		buf[1] = (u8)((buf[1] & 0xf0) | 0x0d);
		RT_REQ_EQ(drv, crypto_kem_set_privkey(tfm, buf, dks), -EKEYREJECTED);
		RT_REQ_EQ(drv, crypto_kem_generate_key(tfm), 0);
		RT_REQ_EQ(drv, crypto_kem_encapsulate(tfm, ct, cts, ss, sss), 0);
		/* A failed set leaves the key in place. */
		RT_REQ_EQ(drv, crypto_kem_export_pubkey(tfm, RIND_KEY_RAW, buf, eks), eks);
		memset(buf + 384, 0xff, 3);	/* a coefficient 4095 >= q */
		RT_REQ_EQ(drv, crypto_kem_set_pubkey(tfm, buf, eks), -EKEYREJECTED);
		RT_REQ_EQ(drv, crypto_kem_decapsulate(tfm, ct, cts, ss, sss), 0);
		free(buf);
		free(ct);
		crypto_free_kem(tfm);
	}
	RT_REQ(names[_i], IS_ERR(crypto_alloc_kem("mlkem2048", 0, 0)));
	RT_REQ_EQ(names[_i], PTR_ERR(crypto_alloc_kem("mlkem2048", 0, 0)), -ENOENT);
	RT_REQ_EQ(names[_i], crypto_has_kem(names[_i], 0, 0), 1);
}
END_TEST

/*
 * Every driver's polynomial arithmetic (its struct mlkem_ops, reached
 * through the registered kem_alg) against the generic ops bit for bit:
 * struct mlkem_ops requires the same representatives, not merely
 * congruent values, which the known answers (whose encodings reduce
 * mod q) cannot show.  NTT inputs in (-q, q), inverse-NTT inputs in
 * (-8q, 8q) (a sum of up to four base products), base products of
 * reduced operands into an accumulator in (-4q, 4q), and the extremes of
 * each range.
 */
static void rand_poly(struct mlkem_poly *f, struct rt_rng *rng, int bound, int trial)
{
	for (int i = 0; i < MLKEM_N; i++) {
		int v = (int)rt_rand_range(rng, (u32)(2 * bound - 1)) - (bound - 1);

		if (trial == 0)
			v = (i & 1) ? bound - 1 : -(bound - 1);
		f->c[i] = (s16)v;
	}
}

/*
 * A driver's matvec against the generic composition: basemul_acc over a
 * zeroed polynomial, then the centered representative (what the generic
 * Barrett reduction gives), for k = 2 .. 4 and k + 1 rows of operands
 * below q in absolute value (trial 0: all at +-(q - 1), the sum's bound).
 */
static int matvec_check(const struct mlkem_ops *ops, const struct mlkem_ops *gen,
			struct rt_rng *rng, int trial, const char *drv)
{
	struct mlkem_poly *a = malloc((MLKEM_KMAX + 1) * MLKEM_KMAX * sizeof(*a));
	struct mlkem_poly b[MLKEM_KMAX], r[MLKEM_KMAX + 1], ref;
	const struct mlkem_poly *ap[(MLKEM_KMAX + 1) * MLKEM_KMAX];
	unsigned int k, i, m, c;
	int ran = 0;

	ck_assert(a);
	for (k = 2; k <= MLKEM_KMAX; k++) {
		for (i = 0; i < (k + 1) * k; i++) {
			rand_poly(&a[i], rng, MLKEM_Q, trial);
			ap[i] = &a[i];
		}
		for (m = 0; m < k; m++)
			rand_poly(&b[m], rng, MLKEM_Q, trial);
		ops->matvec(r, ap, k + 1, b, k);
		for (i = 0; i <= k; i++) {
			memset(&ref, 0, sizeof(ref));
			for (m = 0; m < k; m++)
				gen->basemul_acc(&ref, ap[i * k + m], &b[m]);
			for (c = 0; c < MLKEM_N; c++) {
				int v = ((ref.c[c] % MLKEM_Q) + MLKEM_Q) % MLKEM_Q;

				ref.c[c] = (s16)(v > (MLKEM_Q - 1) / 2 ? v - MLKEM_Q : v);
			}
			RT_REQ(drv, !memcmp(&r[i], &ref, sizeof(ref)));
		}
		ran++;
	}
	free(a);
	return ran;
}

START_TEST(test_ops_vs_generic)
{
	const struct mlkem_ops *gen = &rind_mlkem_generic_ops;
	drivers_t d;
	int n = rt_impls("mlkem768", "kem", d, RT_MAX_IMPLS), i, trial;
	struct rt_rng rng;

	rt_rng_seed(&rng, 0x203e);
	for (i = 0; i < n; i++) {
		struct crypto_kem *tfm = crypto_alloc_kem(d[i], 0, 0);
		const struct mlkem_ops *ops;
		struct mlkem_poly a, b, r1, r2;
		int ran = 0;

		ck_assert_msg(!IS_ERR_OR_NULL(tfm), "%s: alloc", d[i]);
		ops = container_of(crypto_kem_alg(tfm), struct mlkem_alg, kem)->ops;
		if (!ops)
			ops = gen;
		for (trial = 0; trial < 300; trial++) {
			rand_poly(&r1, &rng, MLKEM_Q, trial);
			r2 = r1;
			gen->ntt(&r1);
			ops->ntt(&r2);
			RT_REQ(d[i], !memcmp(&r1, &r2, sizeof(r1)));
			rand_poly(&r1, &rng, 8 * MLKEM_Q, trial);
			r2 = r1;
			gen->invntt(&r1);
			ops->invntt(&r2);
			RT_REQ(d[i], !memcmp(&r1, &r2, sizeof(r1)));
			rand_poly(&a, &rng, MLKEM_Q, trial);
			rand_poly(&b, &rng, MLKEM_Q, trial);
			rand_poly(&r1, &rng, 4 * MLKEM_Q, trial);
			r2 = r1;
			gen->basemul_acc(&r1, &a, &b);
			ops->basemul_acc(&r2, &a, &b);
			RT_REQ(d[i], !memcmp(&r1, &r2, sizeof(r1)));
			ran += 3;
			if (ops->matvec)
				ran += matvec_check(ops, gen, &rng, trial, d[i]);
		}
		rt_report("ntt, invntt, basemul_acc (matvec) bit for bit vs the generic ops", d[i], ran, 0);
		crypto_free_kem(tfm);
	}
}
END_TEST

/*
 * Every driver's sampling (struct mlkem_ops.gen_matrix and .noise, the
 * multi-stream Keccak paths of the x86 and arm64 drivers) against the
 * generic ops bit for bit: the matrix from random rho for each parameter
 * set, and noise for every count 1 .. 2k + 1 (odd counts leave a lane
 * idle), both etas and random first counters.  On arm64 the neon drivers
 * run again over the other two-way Keccak (plain ASIMD when the CPU has
 * SHA3), so both forms are checked through the drivers.
 */
#if defined(__aarch64__)
#include "../arch/arm64/keccak-x2.h"
#endif
static int sampling_check(const struct mlkem_ops *ops, const struct mlkem_params *p,
			  const char *drv, struct rt_rng *rng)
{
	const struct mlkem_ops *gen = &rind_mlkem_generic_ops;
	struct mlkem_key *k1 = calloc(1, sizeof(*k1)), *k2 = calloc(1, sizeof(*k2));
	struct mlkem_poly *r1 = calloc(2 * MLKEM_KMAX + 1, sizeof(*r1));
	struct mlkem_poly *r2 = calloc(2 * MLKEM_KMAX + 1, sizeof(*r2));
	struct mlkem_poly *v1[2 * MLKEM_KMAX + 1], *v2[2 * MLKEM_KMAX + 1];
	u8 seed[32];
	int ran = 0;
	unsigned int t, count, eta, i;

	ck_assert(k1 && k2 && r1 && r2);
	for (i = 0; i < 2 * MLKEM_KMAX + 1; i++) {
		v1[i] = &r1[i];
		v2[i] = &r2[i];
	}
	k1->p = k2->p = p;
	for (t = 0; t < 6; t++) {
		rt_fill(rng, seed, sizeof(seed));
		gen->gen_matrix(k1, seed);
		ops->gen_matrix(k2, seed);
		RT_REQ(drv, !memcmp(k1->a, k2->a, sizeof(k1->a)));
		ran++;
		for (count = 1; count <= 2 * p->k + 1; count++) {
			for (eta = 2; eta <= 3; eta++) {
				u8 n0 = (u8)rt_rand(rng);

				rt_fill(rng, seed, sizeof(seed));
				memset(r1, 0x55, (2 * MLKEM_KMAX + 1) * sizeof(*r1));
				memset(r2, 0x55, (2 * MLKEM_KMAX + 1) * sizeof(*r2));
				gen->noise(v1, count, seed, n0, eta);
				ops->noise(v2, count, seed, n0, eta);
				/* the polynomials past @count are left alone, too */
				RT_REQ(drv, !memcmp(r1, r2, (2 * MLKEM_KMAX + 1) * sizeof(*r1)));
				ran++;
			}
		}
	}
	free(k1);
	free(k2);
	free(r1);
	free(r2);
	return ran;
}

START_TEST(test_sampling_vs_generic)
{
	static const struct mlkem_params *const params[] = {
		&rind_mlkem512_params, &rind_mlkem768_params, &rind_mlkem1024_params,
	};
	struct rt_rng rng;
	int ps, i;

	rt_rng_seed(&rng, 0x203f);
	for (ps = 0; ps < 3; ps++) {
		drivers_t d;
		int n = rt_impls(mlkem_names[ps], "kem", d, RT_MAX_IMPLS);

		for (i = 0; i < n; i++) {
			struct crypto_kem *tfm = crypto_alloc_kem(d[i], 0, 0);
			const struct mlkem_ops *ops;
			int ran;

			ck_assert_msg(!IS_ERR_OR_NULL(tfm), "%s: alloc", d[i]);
			ops = container_of(crypto_kem_alg(tfm), struct mlkem_alg, kem)->ops;
			if (!ops)
				ops = &rind_mlkem_generic_ops;
			ran = sampling_check(ops, params[ps], d[i], &rng);
			rt_report("gen_matrix, noise bit for bit vs the generic ops", d[i], ran, 0);
#if defined(__aarch64__)
			if (strstr(d[i], "-neon") && rind_mlkem_neon_keccakx2 == rind_keccakx2_f1600_ce) {
				char what[96];

				rind_mlkem_neon_keccakx2 = rind_keccakx2_f1600_neon;
				ran = sampling_check(ops, params[ps], d[i], &rng);
				rind_mlkem_neon_keccakx2 = rind_keccakx2_f1600_ce;
				snprintf(what, sizeof(what), "%.60s over keccakx2-neon", d[i]);
				rt_report("gen_matrix, noise bit for bit vs the generic ops", what, ran, 0);
			}
#endif
			crypto_free_kem(tfm);
		}
	}
}
END_TEST

/*
 * Every driver's compress/decompress (struct mlkem_ops) against the
 * generic ones byte for byte, for each d of the parameter sets (1, 4, 5,
 * 10, 11): compression of polynomials with any 16-bit representatives
 * (the ops reduce first), the extremes and the values next to the
 * rounding boundaries; decompression of random byte strings.
 */
START_TEST(test_compress_vs_generic)
{
	static const unsigned int ds[] = { 1, 4, 5, 10, 11 };
	const struct mlkem_ops *gen = &rind_mlkem_generic_ops;
	drivers_t d;
	int n = rt_impls("mlkem768", "kem", d, RT_MAX_IMPLS), i, trial;
	struct rt_rng rng;

	rt_rng_seed(&rng, 0x2040);
	for (i = 0; i < n; i++) {
		struct crypto_kem *tfm = crypto_alloc_kem(d[i], 0, 0);
		const struct mlkem_ops *ops;
		int ran = 0;

		ck_assert_msg(!IS_ERR_OR_NULL(tfm), "%s: alloc", d[i]);
		ops = container_of(crypto_kem_alg(tfm), struct mlkem_alg, kem)->ops;
		if (!ops)
			ops = gen;
		for (trial = 0; trial < 200; trial++) {
			for (size_t k = 0; k < ARRAY_SIZE(ds); k++) {
				unsigned int dd = ds[k];
				struct mlkem_poly a, r1, r2;
				u8 b1[32 * 11 + 8], b2[32 * 11 + 8];

				for (int c = 0; c < MLKEM_N; c++) {
					u32 kind = rt_rand_range(&rng, 4);

					if (trial == 0)
						a.c[c] = (s16)(c & 1 ? 32767 : -32768);
					else if (trial == 1)
						a.c[c] = (s16)(c * 13);	/* 0 .. 3315 in [0, q) */
					else if (kind == 0)	/* any 16-bit value */
						a.c[c] = (s16)rt_rand(&rng);
					else
						a.c[c] = (s16)((int)rt_rand_range(&rng, 2 * MLKEM_Q) - MLKEM_Q);
				}
				memset(b1, 0xa5, sizeof(b1));
				memset(b2, 0xa5, sizeof(b2));
				gen->compress(b1, &a, dd);
				ops->compress(b2, &a, dd);
				RT_REQ(d[i], !memcmp(b1, b2, sizeof(b1)));	/* and nothing past 32 d */
				rt_fill(&rng, b1, 32 * dd);
				gen->decompress(&r1, b1, dd);
				ops->decompress(&r2, b1, dd);
				RT_REQ(d[i], !memcmp(&r1, &r2, sizeof(r1)));
				ran += 2;
			}
		}
		rt_report("compress, decompress byte for byte vs the generic ops", d[i], ran, 0);
		crypto_free_kem(tfm);
	}
}
END_TEST

#if defined(__x86_64__)
/*
 * arch/x86/keccak-avx2.c's four-way permutation (keccakx4-avx2-asm.S)
 * and its C intrinsics version against four single ones (the portable
 * rounds of <crypto/keccak-rounds.h>) on random states, one to three
 * permutations in a row, with garbage in the scratch and guard bytes
 * after the struct that neither may touch; and the sponge calls (one-block absorb, whole-block squeeze)
 * against rind_shake128/256 for random inputs, lengths and block counts;
 * the installed single permutation (arch/x86/keccak-bmi2.c where the CPU
 * has BMI1/2 and nothing is disabled) against the portable rounds.
 * The matrix and noise tests above reach these only through the driver's
 * schedules; ML-DSA's expansion calls them too.  On the CPU's AVX2, not
 * the registry's (RIND_DISABLE does not mask the function).
 */
#include <crypto/keccak.h>
#include <crypto/keccak-rounds.h>
#include "../arch/x86/keccak-x4.h"

union kx4_test {
	struct keccakx4_state st;
	u64 w[25][4];
};

#define KX4_GUARD 256
struct kx4_guarded {
	union kx4_test x;
	u8 guard[KX4_GUARD];
};

START_TEST(test_keccakx4_vs_single)
{
	static const unsigned int rates[2] = { SHAKE128_RATE, SHAKE256_RATE };
	/* __m256i lanes: 32-byte aligned */
	struct kx4_guarded *g = aligned_alloc(32, sizeof(*g)), *gc = aligned_alloc(32, sizeof(*gc));
	union kx4_test *x = &g->x, *xc = &gc->x;
	u8 guard[KX4_GUARD];
	u64 (*a)[25] = calloc(4, sizeof(*a));
	u8 *in[4], *out[4], *ref = malloc(3 * SHAKE128_RATE);
	struct rt_rng rng;
	int ran = 0, t;
	unsigned int l, i, r, n;

	ck_assert(g && gc && a && ref);
	for (l = 0; l < 4; l++) {
		in[l] = malloc(SHAKE128_RATE);
		out[l] = malloc(3 * SHAKE128_RATE);
		ck_assert(in[l] && out[l]);
	}
	if (!__builtin_cpu_supports("avx2")) {
		rt_report("keccakx4 vs four single permutations", "keccak-avx2", 0, 1);
		goto out;
	}
	rt_rng_seed(&rng, 0x2041);
	for (t = 0; t < 200; t++) {
		rt_fill(&rng, a, 4 * sizeof(*a));
		rt_fill(&rng, g, sizeof(*g));	/* the scratch and the guard too */
		rt_fill(&rng, gc, sizeof(*gc));
		memcpy(guard, g->guard, sizeof(guard));
		for (i = 0; i < 25; i++)
			for (l = 0; l < 4; l++)
				x->w[i][l] = xc->w[i][l] = a[l][i];
		n = 1 + rt_rand_range(&rng, 3);
		for (r = 0; r < n; r++) {
			keccakx4_f1600(&x->st);
			keccakx4_f1600_c(&xc->st);
			for (l = 0; l < 4; l++)
				keccak_f1600_rounds(a[l]);
		}
		for (i = 0; i < 25; i++)
			for (l = 0; l < 4; l++) {
				RT_REQ("keccakx4-avx2-asm", x->w[i][l] == a[l][i]);
				RT_REQ("keccak-avx2 (C)", xc->w[i][l] == a[l][i]);
			}
		RT_REQ("keccakx4-avx2-asm: guard", !memcmp(g->guard, guard, sizeof(guard)));
		ran += 2;
		/* and the installed single permutation (keccak-bmi2.c on this CPU) */
		rt_fill(&rng, a, 4 * sizeof(*a));
		memcpy(a[1], a[0], sizeof(a[0]));
		for (r = 0; r < n; r++) {
			rind_keccak_f1600(a[0]);
			keccak_f1600_rounds(a[1]);
		}
		RT_REQ("rind_keccak_f1600", !memcmp(a[0], a[1], sizeof(a[0])));
		ran++;
	}
	for (t = 0; t < 200; t++) {
		unsigned int rate = rates[t & 1], len = rt_rand_range(&rng, rate);
		size_t nb = 1 + rt_rand_range(&rng, 3);

		for (l = 0; l < 4; l++)
			rt_fill(&rng, in[l], len);
		rt_fill(&rng, g, sizeof(*g));
		keccakx4_absorb_once(&x->st, rate, KECCAK_DS_SHAKE, (const u8 *const *)in, len);
		keccakx4_squeeze_blocks(&x->st, rate, out, nb);
		for (l = 0; l < 4; l++) {
			if (rate == SHAKE128_RATE)
				rind_shake128(ref, nb * rate, in[l], len);
			else
				rind_shake256(ref, nb * rate, in[l], len);
			RT_REQ("keccak-avx2", !memcmp(out[l], ref, nb * rate));
		}
		ran++;
	}
	rt_report("keccakx4 vs four single permutations and rind_shake128/256", "keccak-avx2",
		  ran, 0);
out:
	for (l = 0; l < 4; l++) {
		free(in[l]);
		free(out[l]);
	}
	free(g);
	free(gc);
	free(a);
	free(ref);
}
END_TEST
#endif

/*
 * Every mlkem768 driver's ops on edge inputs against the generic ops, bit
 * for bit (the random tests above only touch the extremes in trial 0):
 * each coefficient position alone at +-(q - 1) (the NTT, its inverse at
 * +-(8q - 1), and basemul in either operand) -- a wrong lane in a
 * regrouping or zeta table shows at once --, constant polynomials at
 * the bounds, basemul of all sign combinations of +-(q - 1) into an
 * accumulator at +-(4q - 1), compression of every 16-bit value for every
 * d, and decompression of every field value at every position (the
 * values rotated through the positions).
 * Compression writes exactly 32 d bytes; for the AVX-512 drivers and the
 * generic code, decompression is also run on input ending at an
 * inaccessible page (nothing read past its 32 d bytes).
 */
#include <sys/mman.h>
#include <unistd.h>

static int ops_edge_check(const struct mlkem_ops *ops, const char *drv, bool no_overread)
{
	static const unsigned int ds[] = { 1, 4, 5, 10, 11 };
	const struct mlkem_ops *gen = &rind_mlkem_generic_ops;
	struct mlkem_poly a, b, r1, r2;
	long pg = sysconf(_SC_PAGESIZE);
	u8 *map = NULL;
	int ran = 0, pos, sgn, v, i;

	for (pos = 0; pos < MLKEM_N; pos++) {
		for (sgn = -1; sgn <= 1; sgn += 2) {
			memset(&r1, 0, sizeof(r1));
			r1.c[pos] = (s16)(sgn * (MLKEM_Q - 1));
			r2 = r1;
			gen->ntt(&r1);
			ops->ntt(&r2);
			RT_REQ(drv, !memcmp(&r1, &r2, sizeof(r1)));
			memset(&r1, 0, sizeof(r1));
			r1.c[pos] = (s16)(sgn * (8 * MLKEM_Q - 1));
			r2 = r1;
			gen->invntt(&r1);
			ops->invntt(&r2);
			RT_REQ(drv, !memcmp(&r1, &r2, sizeof(r1)));
			/* one coefficient of a against all of b, and the reverse */
			memset(&a, 0, sizeof(a));
			a.c[pos] = (s16)(sgn * (MLKEM_Q - 1));
			for (i = 0; i < MLKEM_N; i++)
				b.c[i] = (s16)((i % 3 - 1) * (MLKEM_Q - 1));
			memset(&r1, 0, sizeof(r1));
			r2 = r1;
			gen->basemul_acc(&r1, &a, &b);
			ops->basemul_acc(&r2, &a, &b);
			RT_REQ(drv, !memcmp(&r1, &r2, sizeof(r1)));
			gen->basemul_acc(&r1, &b, &a);
			ops->basemul_acc(&r2, &b, &a);
			RT_REQ(drv, !memcmp(&r1, &r2, sizeof(r1)));
			ran += 4;
		}
	}
	/* constants at the bounds; basemul of every sign pattern per pair */
	for (v = 0; v < 4; v++) {
		static const int nv[4] = { 0, MLKEM_Q - 1, -(MLKEM_Q - 1), 1 };

		for (i = 0; i < MLKEM_N; i++)
			r1.c[i] = (s16)nv[v];
		r2 = r1;
		gen->ntt(&r1);
		ops->ntt(&r2);
		RT_REQ(drv, !memcmp(&r1, &r2, sizeof(r1)));
		for (i = 0; i < MLKEM_N; i++)
			r1.c[i] = (s16)(8 * nv[v] + (nv[v] > 0 ? 7 : nv[v] < 0 ? -7 : 0));
		r2 = r1;
		gen->invntt(&r1);
		ops->invntt(&r2);
		RT_REQ(drv, !memcmp(&r1, &r2, sizeof(r1)));
		ran += 2;
	}
	for (v = 0; v < 16; v++) {
		for (i = 0; i < MLKEM_N; i++) {
			a.c[i] = (s16)((v >> (i & 1) & 1) ? MLKEM_Q - 1 : -(MLKEM_Q - 1));
			b.c[i] = (s16)((v >> (2 + (i & 1)) & 1) ? MLKEM_Q - 1 : -(MLKEM_Q - 1));
			r1.c[i] = (s16)((i & 2) ? 4 * MLKEM_Q - 1 : -(4 * MLKEM_Q - 1));
		}
		r2 = r1;
		gen->basemul_acc(&r1, &a, &b);
		ops->basemul_acc(&r2, &a, &b);
		RT_REQ(drv, !memcmp(&r1, &r2, sizeof(r1)));
		ran++;
	}
	if (no_overread) {
		map = mmap(NULL, 2 * (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ck_assert(map != MAP_FAILED);
		ck_assert(!mprotect(map + pg, (size_t)pg, PROT_NONE));
	}
	for (size_t k = 0; k < ARRAY_SIZE(ds); k++) {
		unsigned int d = ds[k], x;
		u8 b1[32 * 11 + 8], b2[32 * 11 + 8];

		/* every 16-bit value once, 256 at a time */
		for (x = 0; x < 65536; x += MLKEM_N) {
			for (i = 0; i < MLKEM_N; i++)
				a.c[i] = (s16)(u16)(x + (unsigned int)i);
			memset(b1, 0x5a, sizeof(b1));
			memset(b2, 0x5a, sizeof(b2));
			gen->compress(b1, &a, d);
			ops->compress(b2, &a, d);
			RT_REQ(drv, !memcmp(b1, b2, sizeof(b1)));
			ran++;
		}
		/* every field value at every position (rotated through them) */
		for (x = 0; x < (1u << d); x++) {
			u8 *in = no_overread ? map + pg - 32 * d : b1;

			for (i = 0; i < MLKEM_N; i++)
				a.c[i] = (s16)((x + (unsigned int)i) & ((1u << d) - 1));
			/* ByteEncode_d of the fields, bit by bit */
			memset(in, 0, 32 * d);
			for (i = 0; i < MLKEM_N; i++)
				for (unsigned int bit = 0; bit < d; bit++)
					if (a.c[i] >> bit & 1)
						in[(i * d + bit) / 8] |= (u8)(1u << ((i * d + bit) % 8));
			gen->decompress(&r1, in, d);
			ops->decompress(&r2, in, d);
			RT_REQ(drv, !memcmp(&r1, &r2, sizeof(r1)));
			ran++;
		}
		if (no_overread) {
			/* and compression into the last 32 d bytes before the page */
			for (i = 0; i < MLKEM_N; i++)
				a.c[i] = (s16)(i * 13);
			gen->compress(b1, &a, d);
			ops->compress(map + pg - 32 * d, &a, d);
			RT_REQ(drv, !memcmp(b1, map + pg - 32 * d, 32 * d));
			ran++;
		}
	}
	if (map)
		munmap(map, 2 * (size_t)pg);
	return ran;
}

START_TEST(test_ops_edges_vs_generic)
{
	drivers_t d;
	int n = rt_impls("mlkem768", "kem", d, RT_MAX_IMPLS), i;

	for (i = 0; i < n; i++) {
		struct crypto_kem *tfm = crypto_alloc_kem(d[i], 0, 0);
		const struct mlkem_ops *ops;
		bool strict = strstr(d[i], "-avx512") || strstr(d[i], "-generic");

		ck_assert_msg(!IS_ERR_OR_NULL(tfm), "%s: alloc", d[i]);
		ops = container_of(crypto_kem_alg(tfm), struct mlkem_alg, kem)->ops;
		if (!ops)
			ops = &rind_mlkem_generic_ops;
		rt_report("ntt, invntt, basemul, (de)compress edge inputs vs the generic ops", d[i],
			  ops_edge_check(ops, d[i], strict), 0);
		crypto_free_kem(tfm);
	}
}
END_TEST

#if defined(__x86_64__)
/*
 * The x86 drivers' SampleNTT rejection step (struct mlkem_x86_kg_hooks.
 * rej_block, arch/x86/mlkem-x86.h) against FIPS 203 Algorithm 7's loop
 * written out here, on one SHAKE128 block: random blocks, blocks of
 * fields all at q - 1 (all accepted), q and 4095 (none), alternating
 * q - 1 / q, and 37 blocks holding every field value 0 .. 4095; start
 * counts 0 and random, and for the first four kinds every one from 150
 * to 256 (the last block's bound in every lane): the accepted values in
 * order, the returned count, nothing written before the start count or
 * at or past MLKEM_N.  AVX2 where the CPU has it, AVX-512 where its
 * driver is registered.
 */
#include "../arch/x86/mlkem-x86.h"

static unsigned int rej_ref(s16 *r, unsigned int ctr, const u8 *buf)
{
	for (unsigned int pos = 0; pos + 3 <= SHAKE128_RATE && ctr < MLKEM_N; pos += 3) {
		u16 d1 = (u16)(buf[pos] | ((buf[pos + 1] & 0x0f) << 8));
		u16 d2 = (u16)((buf[pos + 1] >> 4) | (buf[pos + 2] << 4));

		if (d1 < MLKEM_Q)
			r[ctr++] = (s16)d1;
		if (d2 < MLKEM_Q && ctr < MLKEM_N)
			r[ctr++] = (s16)d2;
	}
	return ctr;
}

static void rej_fields(u8 *buf, unsigned int kind, unsigned int salt)
{
	for (unsigned int m = 0; m < SHAKE128_RATE / 3 * 2; m++) {
		unsigned int f;

		switch (kind) {
		case 0: f = MLKEM_Q - 1; break;
		case 1: f = MLKEM_Q; break;
		case 2: f = 4095; break;
		case 3: f = (m & 1) ? MLKEM_Q : MLKEM_Q - 1; break;
		default: f = (112 * salt + m) % 4096; break;	/* salt < 37: every value once */
		}
		if (m & 1) {
			buf[3 * (m / 2) + 1] = (u8)((buf[3 * (m / 2) + 1] & 0x0f) | (f & 0xf) << 4);
			buf[3 * (m / 2) + 2] = (u8)(f >> 4);
		} else {
			buf[3 * (m / 2)] = (u8)f;
			buf[3 * (m / 2) + 1] = (u8)((buf[3 * (m / 2) + 1] & 0xf0) | f >> 8);
		}
	}
}

START_TEST(test_x86_rej_vs_reference)
{
	static const char *const names[2] = { "mlkem768-avx2", "mlkem768-avx512" };
	const struct mlkem_x86_kg_hooks *hooks[2] = { &rind_mlkem_avx2_kg_hooks,
						       &rind_mlkem_avx512_kg_hooks };
	union {
		u8 b[192];
		__m256i w[6];
	} blk;
	s16 r1[MLKEM_N + 48], r2[MLKEM_N + 48];
	struct rt_rng rng;
	int h;

	rt_rng_seed(&rng, 0x2042);
	for (h = 0; h < 2; h++) {
		struct crypto_kem *tfm = crypto_alloc_kem(names[h], 0, 0);
		int ran = 0;
		unsigned int t, start, c1, c2;

		if (IS_ERR_OR_NULL(tfm)) {	/* not registered on this CPU */
			rt_report("SampleNTT rejection step vs FIPS 203 Algorithm 7", names[h], 0, 1);
			continue;
		}
		crypto_free_kem(tfm);
		for (t = 0; t < 4 + 37 + 200; t++) {
			unsigned int rnd = rt_rand_range(&rng, MLKEM_N + 1);

			rt_fill(&rng, blk.b, sizeof(blk.b));
			if (t < 4 + 37)
				rej_fields(blk.b, t < 4 ? t : 4, t - 4);
			for (start = 0; start <= MLKEM_N; start++) {
				if (start && start != rnd && (t >= 4 || start < 150))
					continue;
				rt_fill(&rng, r1, sizeof(r1));
				memcpy(r2, r1, sizeof(r2));
				c1 = rej_ref(r1, start, blk.b);
				c2 = hooks[h]->rej_block(r2, start, blk.w);
				RT_REQ(names[h], c1 == c2);
				RT_REQ(names[h], !memcmp(r1, r2, sizeof(s16) * c1));
				RT_REQ(names[h], !memcmp(r1 + MLKEM_N, r2 + MLKEM_N, sizeof(r1) - sizeof(s16) * MLKEM_N));
				ran++;
			}
		}
		rt_report("SampleNTT rejection step vs FIPS 203 Algorithm 7", names[h], ran, 0);
	}
}
END_TEST
#endif

static Suite *mlkem_suite(void)
{
	Suite *s = suite_create("mlkem");
	TCase *tc = tcase_create("mlkem");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_wycheproof, 0, 3);
	tcase_add_loop_test(tc, test_round_trip, 0, 4);
	tcase_add_test(tc, test_hybrid_layout);
	tcase_add_loop_test(tc, test_vs_generic, 0, 4);
	tcase_add_test(tc, test_ops_vs_generic);
	tcase_add_test(tc, test_sampling_vs_generic);
	tcase_add_test(tc, test_compress_vs_generic);
	tcase_add_test(tc, test_ops_edges_vs_generic);
#if defined(__x86_64__)
	tcase_add_test(tc, test_keccakx4_vs_single);
	tcase_add_test(tc, test_x86_rej_vs_reference);
#endif
	tcase_add_loop_test(tc, test_key_formats, 0, 3);
	tcase_add_loop_test(tc, test_bad_usage, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(mlkem_suite)
