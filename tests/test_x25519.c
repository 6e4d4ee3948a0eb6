// SPDX-License-Identifier: MIT
/*
 * Suite "x25519": the "curve25519" kpp over every implementation.
 *
 *  - RFC 7748 section 5.2 (both vectors, and the iterated test to 1 and
 *    1,000 iterations; 1,000,000 with RIND_TEST_SLOW=1) and section 6.1
 *    (Alice and Bob);
 *  - Wycheproof x25519_test.json (raw keys), x25519_asn_test.json (PKCS#8
 *    and SPKI DER), x25519_jwk_test.json (RFC 8037 JWK) and
 *    x25519_pem_test.json: every case, with rind's policy for the
 *    "acceptable" ones pinned: an all-zero shared secret is -EINVAL,
 *    twist and non-canonical public keys are computed;
 *  - differential against curve25519-generic for every other driver:
 *    random scalars with random and edge (non-canonical, all-ones limbs,
 *    small) u-coordinates, and the public keys;
 *  - differential against OpenSSL: random exchanges both ways (public
 *    keys and shared secrets), and keys exported by rind (PKCS#8/SPKI,
 *    DER and PEM) read by OpenSSL and keys written by OpenSSL read by rind;
 *  - key generation (set_secret(NULL, 0)), JWK round trips, scatterlist
 *    splits, the one-shots, and wrong usage (lengths, malformed keys,
 *    small destinations, missing keys);
 *  - the field inversion (both entry points) against OpenSSL's
 *    BN_mod_inverse.
 */
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <rind/kpp.h>
#include "testutil.h"

static int impls(drivers_t d)
{
	return rt_impls("curve25519", "kpp", d, RT_MAX_IMPLS);
}

static struct crypto_kpp *alloc_drv(const char *drv)
{
	return RT_ALLOC_DRV(kpp, drv);
}

static int pubkey(struct crypto_kpp *tfm, u8 out[32])
{
	unsigned int len = 32;
	int err = rt_kpp_op(tfm, false, NULL, 0, out, &len);

	if (!err && len != 32)
		return -999;
	return err;
}

static int shared(struct crypto_kpp *tfm, const void *peer, unsigned int peerlen, u8 out[32])
{
	unsigned int len = 32;
	int err = rt_kpp_op(tfm, true, peer, peerlen, out, &len);

	if (!err && len != 32)
		return -999;
	return err;
}

/* out = X25519(k, u) through @tfm. */
static void x25519(const char *drv, struct crypto_kpp *tfm, u8 out[32], const u8 k[32], const u8 u[32])
{
	RT_REQ_EQ(drv, crypto_kpp_set_secret(tfm, k, 32), 0);
	RT_REQ_EQ(drv, shared(tfm, u, 32, out), 0);
}

static void unhex32(u8 out[32], const char *hex)
{
	ck_assert_uint_eq(rt_unhex(out, 32, hex), 32);
}

/* ---- RFC 7748 ------------------------------------------------------------- */

START_TEST(test_rfc7748_vectors)
{
	static const struct { const char *k, *u, *out; } v[] = {
		{ "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
		  "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
		  "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552" },
		{ "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
		  "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
		  "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957" },
	};
	drivers_t d;
	int n = impls(d), i;
	size_t j;

	for (i = 0; i < n; i++) {
		struct crypto_kpp *tfm = alloc_drv(d[i]);

		for (j = 0; j < ARRAY_SIZE(v); j++) {
			u8 k[32], u[32], want[32], out[32];

			unhex32(k, v[j].k);
			unhex32(u, v[j].u);
			unhex32(want, v[j].out);
			x25519(d[i], tfm, out, k, u);
			rt_check_eq(d[i], "RFC 7748 5.2", out, want, 32);
		}
		crypto_free_kpp(tfm);
		rt_report("RFC 7748 5.2", d[i], (int)ARRAY_SIZE(v), 0);
	}
}
END_TEST

START_TEST(test_rfc7748_dh)
{
	u8 a[32], b[32], ka[32], kb[32], k[32], out[32];
	drivers_t d;
	int n = impls(d), i;

	unhex32(a, "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
	unhex32(ka, "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
	unhex32(b, "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
	unhex32(kb, "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f");
	unhex32(k, "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
	for (i = 0; i < n; i++) {
		struct crypto_kpp *tfm = alloc_drv(d[i]);

		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, a, 32), 0);
		RT_REQ_EQ(d[i], pubkey(tfm, out), 0);
		rt_check_eq(d[i], "Alice's public key", out, ka, 32);
		RT_REQ_EQ(d[i], shared(tfm, kb, 32, out), 0);
		rt_check_eq(d[i], "Alice's shared secret", out, k, 32);
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, b, 32), 0);
		RT_REQ_EQ(d[i], pubkey(tfm, out), 0);
		rt_check_eq(d[i], "Bob's public key", out, kb, 32);
		RT_REQ_EQ(d[i], shared(tfm, ka, 32, out), 0);
		rt_check_eq(d[i], "Bob's shared secret", out, k, 32);
		crypto_free_kpp(tfm);
		rt_report("RFC 7748 6.1", d[i], 4, 0);
	}
}
END_TEST

static void iterate(const char *drv, struct crypto_kpp *tfm, unsigned long iters, const char *want_hex)
{
	u8 k[32] = { 9 }, u[32] = { 9 }, r[32], want[32];
	unsigned long i;

	for (i = 0; i < iters; i++) {
		x25519(drv, tfm, r, k, u);
		memcpy(u, k, 32);
		memcpy(k, r, 32);
	}
	unhex32(want, want_hex);
	rt_check_eq(drv, "RFC 7748 iterated", k, want, 32);
}

START_TEST(test_rfc7748_iterated)
{
	drivers_t d;
	int n = impls(d), i;
	bool slow = getenv("RIND_TEST_SLOW") && atoi(getenv("RIND_TEST_SLOW"));

	for (i = 0; i < n; i++) {
		struct crypto_kpp *tfm = alloc_drv(d[i]);

		iterate(d[i], tfm, 1, "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079");
		iterate(d[i], tfm, 1000, "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51");
		if (slow)
			iterate(d[i], tfm, 1000000,
				"7c3911e0ab2586fd864497297e575e6f3bc601c0883c30df5f4dd2d24f665424");
		crypto_free_kpp(tfm);
		if (slow)
			rt_report("RFC 7748 iterated (1, 1000, 1000000)", d[i], 3, 0);
		else
			rt_report("RFC 7748 iterated (1, 1000; 1000000 with RIND_TEST_SLOW=1)", d[i], 2, 1);
	}
}
END_TEST

/* ---- Wycheproof ----------------------------------------------------------- */

static void wycheproof_file(const char *file, enum rt_wp_kind kind)
{
	json_t *root = rt_wp_load(file), *groups, *g, *tests, *t;
	drivers_t d;
	int n, i;
	size_t gi, ti;

	if (!root)
		return;
	n = impls(d);
	groups = json_object_get(root, "testGroups");
	for (i = 0; i < n; i++) {
		struct crypto_kpp *tfm = alloc_drv(d[i]);
		int ran = 0, valid = 0, zero = 0, refused = 0;

		json_array_foreach(groups, gi, g) {
			tests = json_object_get(g, "tests");
			json_array_foreach(tests, ti, t) {
				int tc = (int)json_integer_value(json_object_get(t, "tcId"));
				int result = rt_wp_result(t);
				size_t plen, klen, slen;
				u8 *pub = rt_wp_key(t, "public", kind, &plen);
				u8 *priv = rt_wp_key(t, "private", kind, &klen);
				u8 *ss = rt_wp_hex(t, "shared", &slen);
				u8 out[32];
				int err;

				err = crypto_kpp_set_secret(tfm, priv, (unsigned int)klen);
				if (!err)
					err = shared(tfm, pub, (unsigned int)plen, out);
				if (result == 0) {
					if (!err)
						ck_abort_msg("%s: %s tcId %d: invalid case accepted",
							     d[i], file, tc);
					if (err != -EKEYREJECTED && err != -EINVAL)
						ck_abort_msg("%s: %s tcId %d: error %d", d[i], file, tc, err);
					refused++;
				} else if (rt_wp_has_flag(t, "ZeroSharedSecret")) {
					/* rind's policy for this "acceptable" case. */
					if (err != -EINVAL)
						ck_abort_msg("%s: %s tcId %d: zero shared secret gave %d",
							     d[i], file, tc, err);
					zero++;
				} else {
					if (err)
						ck_abort_msg("%s: %s tcId %d (%s): error %d", d[i], file,
							     tc, result > 0 ? "valid" : "acceptable", err);
					ck_assert_uint_eq(slen, 32);
					if (memcmp(out, ss, 32))
						ck_abort_msg("%s: %s tcId %d: shared secret %s", d[i],
							     file, tc, rt_hex(out, 32));
					valid++;
				}
				ran++;
				free(pub);
				free(priv);
				free(ss);
			}
		}
		crypto_free_kpp(tfm);
		rt_report(file, d[i], ran, 0);
		printf("  %s: %d computed, %d all-zero refused, %d invalid refused\n", d[i], valid,
		       zero, refused);
	}
	json_decref(root);
}

START_TEST(test_wycheproof_raw)
{
	wycheproof_file("x25519_test.json", RT_WP_HEX);
}
END_TEST

START_TEST(test_wycheproof_asn)
{
	wycheproof_file("x25519_asn_test.json", RT_WP_HEX);
}
END_TEST

START_TEST(test_wycheproof_jwk)
{
	wycheproof_file("x25519_jwk_test.json", RT_WP_JWK);
}
END_TEST

START_TEST(test_wycheproof_pem)
{
	wycheproof_file("x25519_pem_test.json", RT_WP_PEM);
}
END_TEST

/* ---- OpenSSL ------------------------------------------------------------- */

static EVP_PKEY *ossl_from_priv(const u8 k[32])
{
	EVP_PKEY *p = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, k, 32);

	ck_assert_ptr_nonnull(p);
	return p;
}

static void ossl_pub(EVP_PKEY *p, u8 out[32])
{
	size_t len = 32;

	ck_assert_int_eq(EVP_PKEY_get_raw_public_key(p, out, &len), 1);
	ck_assert_uint_eq(len, 32);
}

static int ossl_derive(EVP_PKEY *mine, const u8 peer[32], u8 out[32])
{
	EVP_PKEY *pp = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, peer, 32);
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(mine, NULL);
	size_t len = 32;
	int ok;

	ck_assert_ptr_nonnull(pp);
	ck_assert_ptr_nonnull(c);
	ok = EVP_PKEY_derive_init(c) == 1 && EVP_PKEY_derive_set_peer(c, pp) == 1 &&
	     EVP_PKEY_derive(c, out, &len) == 1 && len == 32;
	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(pp);
	return ok;
}

START_TEST(test_openssl_exchanges)
{
	drivers_t d;
	int n = impls(d), i, j;
	const int rounds = 200;

	for (i = 0; i < n; i++) {
		struct crypto_kpp *tfm = alloc_drv(d[i]);
		struct rt_rng rng;

		rt_rng_seed(&rng, 0x25519);
		for (j = 0; j < rounds; j++) {
			u8 a[32], b[32], pa[32], pb[32], opa[32], s1[32], s2[32];
			EVP_PKEY *oa, *ob;

			rt_fill(&rng, a, 32);
			rt_fill(&rng, b, 32);
			if (j == 0)
				memset(a, 0, 32);	/* clamping makes even this a key */
			if (j == 1)
				memset(a, 0xff, 32);
			oa = ossl_from_priv(a);
			ob = ossl_from_priv(b);
			ossl_pub(oa, opa);
			ossl_pub(ob, pb);
			/* rind's public key of a equals OpenSSL's. */
			RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, a, 32), 0);
			RT_REQ_EQ(d[i], pubkey(tfm, pa), 0);
			rt_check_eq(d[i], "public key vs OpenSSL", pa, opa, 32);
			/* rind(a, B) == OpenSSL(b, A) */
			RT_REQ_EQ(d[i], shared(tfm, pb, 32, s1), 0);
			RT_REQ(d[i], ossl_derive(ob, pa, s2));
			rt_check_eq(d[i], "shared secret vs OpenSSL", s1, s2, 32);
			/* A random 32-byte u (top bit set half the time): rind == OpenSSL. */
			rt_fill(&rng, b, 32);
			if (ossl_derive(oa, b, s2)) {
				RT_REQ_EQ(d[i], shared(tfm, b, 32, s1), 0);
				rt_check_eq(d[i], "X25519(a, random u) vs OpenSSL", s1, s2, 32);
			}
			EVP_PKEY_free(oa);
			EVP_PKEY_free(ob);
		}
		crypto_free_kpp(tfm);
		rt_report("random exchanges against OpenSSL", d[i], rounds, 0);
	}
}
END_TEST

/*
 * Every driver against curve25519-generic: random scalars with random and
 * edge u-coordinates -- non-canonical ones (p .. 2^255 - 1, with and
 * without the ignored top bit), limbs of all ones or zeros, the small
 * values -- and the public keys.  The arch ladders keep field elements
 * only partly reduced, which these reach at the extremes.  The public keys
 * also for scalars made of the radix-32 comb's edge digits, and against
 * the generic ladder (X25519(k, 9)), not only its fixed-base table.
 */
START_TEST(test_generic_differential)
{
	static const u8 p_le[32] = {
		0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
	};
	struct crypto_kpp *gen = alloc_drv("curve25519-generic");
	drivers_t d;
	int n = impls(d), i, j;
	const int rounds = 1000;

	for (i = 0; i < n; i++) {
		struct crypto_kpp *tfm;
		struct rt_rng rng;

		if (!strcmp(d[i], "curve25519-generic"))
			continue;
		tfm = alloc_drv(d[i]);
		rt_rng_seed(&rng, 0x7748);
		for (j = 0; j < rounds; j++) {
			u8 k[32], u[32], s1[32], s2[32], p1[32], p2[32];
			int e1, e2;

			rt_fill(&rng, k, 32);
			rt_fill(&rng, u, 32);
			if (j % 4 == 1 && j < 128) {
				/* u = p + j / 4 (and its top-bit twin): non-canonical */
				memcpy(u, p_le, 32);
				u[0] = (u8)(u[0] + j / 4);
				if (j & 8)
					u[31] |= 0x80;
			} else if (j % 4 == 2) {
				/* limbs of all ones or zeros */
				for (int l = 0; l < 4; l++)
					if ((j >> (2 + l)) & 1)
						memset(u + 8 * l, (j >> 6) & 1 ? 0xff : 0, 8);
			} else if (j % 4 == 3 && j < 64) {
				memset(u, 0, 32);
				u[0] = (u8)(j / 4);		/* 0 .. 15 */
			}
			if (j == 5)
				memset(k, 0xff, 32);
			if (j == 9)
				memset(k, 0, 32);
			if (j >= 10 && j < 42) {
				/*
				 * Every 5-bit digit 0, 15, 16, 17 or 31: the carries
				 * and the largest entries of a radix-32 recoding
				 * (ed25519-x86_64-adx's fixed-base comb).
				 */
				static const u8 dv[5] = { 0, 15, 16, 17, 31 };

				memset(k, 0, 32);
				for (int b = 0; b < 51; b++)
					for (int t = 0; t < 5; t++)
						if ((dv[(b * (j - 9) + j) % 5] >> t) & 1)
							k[(5 * b + t) >> 3] |= (u8)(1 << ((5 * b + t) & 7));
			}
			RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, k, 32), 0);
			RT_REQ_EQ(d[i], crypto_kpp_set_secret(gen, k, 32), 0);
			RT_REQ_EQ(d[i], pubkey(tfm, p1), 0);
			RT_REQ_EQ(d[i], pubkey(gen, p2), 0);
			rt_check_eq(d[i], "public key vs curve25519-generic", p1, p2, 32);
			if (j < 64) {
				/* and against the generic ladder: X25519(k, 9) */
				static const u8 nine[32] = { 9 };

				RT_REQ_EQ(d[i], shared(gen, nine, 32, s2), 0);
				rt_check_eq(d[i], "public key vs X25519(k, 9) by the ladder", p1, s2, 32);
			}
			memset(s1, 0, 32);
			memset(s2, 0, 32);
			e1 = shared(tfm, u, 32, s1);
			e2 = shared(gen, u, 32, s2);
			RT_REQ_EQ(d[i], e1, e2);
			rt_check_eq(d[i], "X25519(k, u) vs curve25519-generic", s1, s2, 32);
		}
		crypto_free_kpp(tfm);
		rt_report("differential against curve25519-generic", d[i], rounds, 0);
	}
	crypto_free_kpp(gen);
}
END_TEST

START_TEST(test_openssl_key_formats)
{
	drivers_t d;
	int n = impls(d), i, j, f;
	static const enum rind_key_format fmts[2] = { RIND_KEY_PKCS8_DER, RIND_KEY_PEM };
	const int rounds = 10;

	for (i = 0; i < n; i++) {
		struct crypto_kpp *tfm = alloc_drv(d[i]);
		struct rt_rng rng;
		int count = 0;

		rt_rng_seed(&rng, 7748);
		for (j = 0; j < rounds; j++) {
			u8 k[32], pub[32], okey[32], enc[512], s1[32], peer[32];
			EVP_PKEY *o, *op;
			size_t olen;
			u8 *oenc;

			rt_fill(&rng, k, 32);
			RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, k, 32), 0);
			RT_REQ_EQ(d[i], pubkey(tfm, pub), 0);
			for (f = 0; f < 2; f++) {
				bool pem = fmts[f] == RIND_KEY_PEM;
				int r;

				/* rind -> OpenSSL: private key */
				r = crypto_kpp_export_privkey(tfm, fmts[f], enc, sizeof(enc));
				o = rt_ossl_read_raw(d[i], enc, r, true, pem, EVP_PKEY_X25519, k, 32);
				/* rind -> OpenSSL: public key */
				r = crypto_kpp_export_pubkey(tfm, pem ? RIND_KEY_PEM : RIND_KEY_SPKI_DER,
							     enc, sizeof(enc));
				op = rt_ossl_read_raw(d[i], enc, r, false, pem, EVP_PKEY_X25519, pub, 32);

				/* OpenSSL -> rind: the private key, then the public key as a peer */
				oenc = rt_ossl_write(o, true, pem ? RT_OSSL_PEM : RT_OSSL_DER, &olen);
				RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, oenc, (unsigned int)olen), 0);
				free(oenc);
				RT_REQ_EQ(d[i], crypto_kpp_export_privkey(tfm, RIND_KEY_RAW, okey, 32), 32);
				rt_check_eq(d[i], "private key written by OpenSSL", okey, k, 32);
				oenc = rt_ossl_write(op, false, pem ? RT_OSSL_PEM : RT_OSSL_DER, &olen);
				rt_fill(&rng, peer, 32);
				RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, peer, 32), 0);
				RT_REQ_EQ(d[i], shared(tfm, oenc, (unsigned int)olen, s1), 0);
				free(oenc);
				{
					u8 ppub[32], s2[32];

					RT_REQ_EQ(d[i], pubkey(tfm, ppub), 0);
					RT_REQ(d[i], ossl_derive(o, ppub, s2));
					rt_check_eq(d[i], "shared secret with an OpenSSL-encoded peer", s1, s2, 32);
				}
				RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, k, 32), 0);
				EVP_PKEY_free(o);
				EVP_PKEY_free(op);
				count += 4;
			}
		}
		crypto_free_kpp(tfm);
		rt_report("key exports read by OpenSSL and back (PKCS#8/SPKI, DER and PEM)", d[i],
			  count, 0);
	}
}
END_TEST

/* ---- rind's own behaviour ------------------------------------------------ */

START_TEST(test_generate_and_formats)
{
	drivers_t d;
	int n = impls(d), i;

	for (i = 0; i < n; i++) {
		struct crypto_kpp *a = alloc_drv(d[i]), *b = alloc_drv(d[i]), *c = alloc_drv(d[i]);
		u8 pa[32], pb[32], s1[32], s2[32], raw[32], buf[512], pub2[32];
		static const enum rind_key_format fmts[] = {
			RIND_KEY_RAW, RIND_KEY_PKCS8_DER, RIND_KEY_PEM, RIND_KEY_JWK,
		};
		size_t f;
		int r;

		RT_REQ_EQ(d[i], crypto_kpp_set_secret(a, NULL, 0), 0);
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(b, NULL, 0), 0);
		RT_REQ_EQ(d[i], pubkey(a, pa), 0);
		RT_REQ_EQ(d[i], pubkey(b, pb), 0);
		RT_REQ(d[i], memcmp(pa, pb, 32) != 0);
		RT_REQ_EQ(d[i], shared(a, pb, 32, s1), 0);
		RT_REQ_EQ(d[i], shared(b, pa, 32, s2), 0);
		rt_check_eq(d[i], "generated keys agree", s1, s2, 32);
		/* A generated secret is stored clamped. */
		RT_REQ_EQ(d[i], crypto_kpp_export_privkey(a, RIND_KEY_RAW, raw, 32), 32);
		RT_REQ(d[i], (raw[0] & 7) == 0 && (raw[31] & 0xc0) == 0x40);

		/* Every private format imports back to the same key. */
		for (f = 0; f < ARRAY_SIZE(fmts); f++) {
			r = crypto_kpp_export_privkey(a, fmts[f], buf, sizeof(buf));
			RT_REQ(d[i], r > 0);
			RT_REQ_EQ(d[i], crypto_kpp_set_secret(c, buf, (unsigned int)r), 0);
			RT_REQ_EQ(d[i], pubkey(c, pub2), 0);
			rt_check_eq(d[i], "private key round trip", pub2, pa, 32);
			/* -ENOSPC one byte short, nothing written past it. */
			RT_REQ_EQ(d[i], crypto_kpp_export_privkey(a, fmts[f], buf, (unsigned int)r - 1),
				  -ENOSPC);
		}
		/* Every public format works as a peer. */
		for (f = 0; f < ARRAY_SIZE(fmts); f++) {
			enum rind_key_format pf = fmts[f] == RIND_KEY_PKCS8_DER ? RIND_KEY_SPKI_DER : fmts[f];

			r = crypto_kpp_export_pubkey(b, pf, buf, sizeof(buf));
			RT_REQ(d[i], r > 0);
			RT_REQ_EQ(d[i], shared(a, buf, (unsigned int)r, s2), 0);
			rt_check_eq(d[i], "public key round trip", s2, s1, 32);
			RT_REQ_EQ(d[i], crypto_kpp_export_pubkey(b, pf, buf, (unsigned int)r - 1), -ENOSPC);
		}
		/* A private key has no SPKI form. */
		RT_REQ_EQ(d[i], crypto_kpp_export_privkey(a, RIND_KEY_SPKI_DER, buf, sizeof(buf)), -EINVAL);
		/* A JWK whose "x" does not match "d" is refused. */
		r = crypto_kpp_export_privkey(a, RIND_KEY_JWK, buf, sizeof(buf) - 1);
		rt_jwk_break_x(d[i], buf, r);
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(c, buf, (unsigned int)r), -EKEYREJECTED);
		crypto_free_kpp(a);
		crypto_free_kpp(b);
		crypto_free_kpp(c);
	}
}
END_TEST

START_TEST(test_scatterlists)
{
	drivers_t d;
	int n = impls(d), i, j;

	for (i = 0; i < n; i++) {
		struct crypto_kpp *tfm = alloc_drv(d[i]);
		struct rt_rng rng;

		rt_rng_seed(&rng, 0x5c);
		for (j = 0; j < 20; j++) {
			u8 k[32], u[32], want[32], out[40], pin[32];
			struct scatterlist src[8], dst[8];
			struct kpp_request *req = kpp_request_alloc(tfm, GFP_KERNEL);

			rt_fill(&rng, k, 32);
			rt_fill(&rng, u, 32);
			x25519(d[i], tfm, want, k, u);
			memcpy(pin, u, 32);
			rt_sg_split(&rng, src, 8, pin, 32);
			memset(out, 0xaa, sizeof(out));
			rt_sg_split(&rng, dst, 8, out, 40);
			kpp_request_set_input(req, src, 32);
			kpp_request_set_output(req, dst, 40);
			RT_REQ_EQ(d[i], crypto_kpp_compute_shared_secret(req), 0);
			RT_REQ_EQ(d[i], req->dst_len, 32);
			rt_check_eq(d[i], "shared secret through split scatterlists", out, want, 32);
			RT_REQ(d[i], out[32] == 0xaa);
			rt_sg_split(&rng, dst, 8, out, 32);
			kpp_request_set_output(req, dst, 32);
			RT_REQ_EQ(d[i], crypto_kpp_generate_public_key(req), 0);
			kpp_request_free(req);
		}
		crypto_free_kpp(tfm);
	}
}
END_TEST

START_TEST(test_errors)
{
	static const u8 zero[32], one[32] = { 1 };
	drivers_t d;
	int n = impls(d), i;

	for (i = 0; i < n; i++) {
		struct crypto_kpp *tfm = alloc_drv(d[i]);
		u8 k[32], out[64], buf[128];
		unsigned int len;

		memset(k, 0x42, sizeof(k));
		RT_REQ_EQ(d[i], crypto_kpp_maxsize(tfm), 32);
		/* No secret yet. */
		RT_REQ_EQ(d[i], pubkey(tfm, out), -ENOKEY);
		RT_REQ_EQ(d[i], shared(tfm, one, 32, out), -ENOKEY);
		RT_REQ_EQ(d[i], crypto_kpp_export_pubkey(tfm, RIND_KEY_RAW, out, 32), -ENOKEY);
		/* Lengths that are no key and no encoding. */
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, k, 31), -EINVAL);
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, k, 33), -EINVAL);
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, NULL, 32), -EINVAL);
		/* A malformed PKCS#8 (truncated) and a mangled PEM. */
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, k, 32), 0);
		len = (unsigned int)crypto_kpp_export_privkey(tfm, RIND_KEY_PKCS8_DER, buf, sizeof(buf));
		RT_REQ_EQ(d[i], len, 48);
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, buf, len - 1), -EKEYREJECTED);
		buf[len] = 0;
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, buf, len + 1), -EKEYREJECTED);
		len = (unsigned int)crypto_kpp_export_privkey(tfm, RIND_KEY_PEM, buf, sizeof(buf));
		buf[20] ^= 1;
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, buf, len), -EKEYREJECTED);
		/* An Ed25519 key is not an X25519 key. */
		{
			static const u8 ed_p8[] = {
				0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70,
				0x04, 0x22, 0x04, 0x20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
				16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
			};
			RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, ed_p8, sizeof(ed_p8)), -EKEYREJECTED);
		}
		/* The failed calls left the key in place. */
		RT_REQ_EQ(d[i], crypto_kpp_export_privkey(tfm, RIND_KEY_RAW, out, 32), 32);
		RT_REQ(d[i], !memcmp(out, k, 32));
		/* Peers: wrong lengths, and the small-order points. */
		RT_REQ_EQ(d[i], shared(tfm, one, 31, out), -EINVAL);
		RT_REQ_EQ(d[i], shared(tfm, zero, 32, out), -EINVAL);
		memset(out, 0x55, 32);
		RT_REQ_EQ(d[i], shared(tfm, one, 32, out), -EINVAL);
		/* Nothing was written by the refused computation. */
		RT_REQ(d[i], out[0] == 0x55 && out[31] == 0x55);
		/* A destination too small. */
		len = 31;
		RT_REQ_EQ(d[i], rt_kpp_op(tfm, false, NULL, 0, out, &len), -EINVAL);
		len = 31;
		RT_REQ_EQ(d[i], rt_kpp_op(tfm, true, k, 32, out, &len), -EINVAL);
		/* Unknown format. */
		RT_REQ_EQ(d[i], crypto_kpp_export_pubkey(tfm, (enum rind_key_format)99, buf, sizeof(buf)),
			  -EINVAL);
		crypto_free_kpp(tfm);
	}
}
END_TEST

START_TEST(test_oneshots)
{
	u8 a[32], b[32], pa[32], pb[32], s1[32], s2[32];
	static const u8 nine[32] = { 9 }, zero[32];
	EVP_PKEY *o;
	int j;

	for (j = 0; j < 20; j++) {
		ck_assert_int_eq(rind_curve25519_generate_secret(a), 0);
		ck_assert_int_eq(rind_curve25519_generate_secret(b), 0);
		ck_assert_int_eq(rind_curve25519_generate_public(pa, a), 0);
		ck_assert_int_eq(rind_curve25519(pb, b, nine), 0);
		ck_assert_int_eq(rind_curve25519(s1, a, pb), 0);
		ck_assert_int_eq(rind_curve25519(s2, b, pa), 0);
		ck_assert_mem_eq(s1, s2, 32);
		o = ossl_from_priv(a);
		ossl_pub(o, s2);
		ck_assert_mem_eq(pa, s2, 32);
		EVP_PKEY_free(o);
	}
	ck_assert_int_eq(rind_curve25519(s1, a, zero), -EINVAL);
	ck_assert_int_eq(rind_curve25519(NULL, a, nine), -EINVAL);
}
END_TEST

/*
 * The inversion every field implementation's fe_invert goes through
 * (algs/curve25519.c: fe25519_invert_bytes, fe25519_invert_limbs) against
 * OpenSSL's BN_mod_inverse modulo p = 2^255 - 19: 0 (whose "inverse" is
 * 0), 1, 2, 19, p - 1, p - 2, values with all-ones and all-zero limbs and
 * random values below p.  Both entry points, the limbs one in place too.
 */
#include <openssl/bn.h>
#include <rind/internal/util.h>
#include <crypto/curve25519.h>

/* What both inversion tests take from OpenSSL: p = 2^255 - 19. */
static BIGNUM *bn_p25519(void)
{
	BIGNUM *p = BN_new();

	ck_assert_ptr_nonnull(p);
	BN_zero(p);
	BN_set_bit(p, 255);
	BN_sub_word(p, 19);
	return p;
}

/* A random input: @l (its top bit cleared) as bytes in @in, and reduced mod @p in @a. */
static void inv_from_limbs(u64 l[4], u8 in[32], BIGNUM *a, const BIGNUM *p, BN_CTX *ctx)
{
	int j;

	l[3] &= 0x7fffffffffffffffull;
	for (j = 0; j < 4; j++)
		put_unaligned_le64(l[j], in + 8 * j);
	BN_lebin2bn(in, 32, a);
	BN_nnmod(a, a, p, ctx);
}

/*
 * The case @a (below @p) as the inversions get it, 32 little-endian bytes
 * in @in and limbs in @l, and OpenSSL's inverse of it in @exp (0 for 0).
 */
static void inv_expect(const BIGNUM *a, u8 in[32], u64 l[4], u8 exp[32], BIGNUM *w,
		       const BIGNUM *p, BN_CTX *ctx)
{
	int j;

	ck_assert_int_eq(BN_bn2lebinpad(a, in, 32), 32);
	if (BN_is_zero(a))
		BN_zero(w);
	else
		ck_assert_ptr_nonnull(BN_mod_inverse(w, a, p, ctx));
	ck_assert_int_eq(BN_bn2lebinpad(w, exp, 32), 32);
	for (j = 0; j < 4; j++)
		l[j] = get_unaligned_le64(in + 8 * j);
}

/*
 * The limbs entry point @inv (@what) on @l out of place into @lo, then in
 * place: both must give @exp's limbs.  @l holds the inverse afterwards.
 */
static void inv_check_limbs(void (*inv)(u64 out[4], const u64 in[4]), const char *what,
			    u64 l[4], u64 lo[4], const u8 exp[32], int i)
{
	int j;

	inv(lo, l);
	inv(l, l);
	for (j = 0; j < 4; j++) {
		ck_assert_msg(lo[j] == get_unaligned_le64(exp + 8 * j), "%s: wrong inverse (case %d)",
			      what, i);
		ck_assert_uint_eq(l[j], lo[j]);
	}
}

START_TEST(test_fe25519_invert)
{
	static const u64 limb[] = {
		0, 1, 2, 19, 0xffffffffffffffecull, 0xffffffffffffffedull, 0x7fffffffffffffffull,
		0xffffffffffffffffull, 1ull << 63,
	};
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *p = bn_p25519(), *a = BN_new(), *w = BN_new();
	struct rt_rng rng;
	u8 in[32], got[32], exp[32];
	u64 l[4], lo[4];
	int checked = 0, i, j;

	ck_assert_ptr_nonnull(ctx);
	rt_rng_seed(&rng, 0x25519177);
	for (i = 0; i < 3000; i++) {
		if (i < 6) {
			static const u64 small[6] = { 0, 1, 2, 19, 1, 2 };

			BN_set_word(a, small[i]);
			if (i >= 4)
				BN_sub(a, p, a);	/* p - 1, p - 2 */
		} else {
			for (j = 0; j < 4; j++)
				l[j] = rt_rand_range(&rng, 3) ? rt_rand(&rng) :
					limb[rt_rand_range(&rng, ARRAY_SIZE(limb))];
			inv_from_limbs(l, in, a, p, ctx);
		}
		inv_expect(a, in, l, exp, w, p, ctx);
		fe25519_invert_bytes(got, in);
		ck_assert_msg(!memcmp(got, exp, 32), "fe25519_invert_bytes: wrong inverse (case %d)", i);
		inv_check_limbs(fe25519_invert_limbs, "fe25519_invert_limbs", l, lo, exp, i);
		checked += 3;
	}
	printf("fe25519 inversion (bytes, limbs, limbs in place) vs OpenSSL BN_mod_inverse: %d checks\n",
	       checked);
	BN_free(p);
	BN_free(a);
	BN_free(w);
	BN_CTX_free(ctx);
}
END_TEST

#if defined(__aarch64__)
/*
 * arch/arm64/fe25519-arm64.h against OpenSSL's BIGNUM mod p = 2^255 - 19,
 * on the values where its carry folds matter: limbs of 0, 1, 19, 37, 38,
 * 2^63, 2^64 - 39 .. 2^64 - 1 in every position (so elements near 2^256,
 * near p and 2p, where a sum or a difference folds 38 twice), then random
 * chains of operations on the unreduced results.  The ladder and the
 * Wycheproof cases above reach these corners only by chance.
 */
#include <openssl/bn.h>
#include "../arch/arm64/fe25519-arm64.h"

static BIGNUM *fe_bn(const fe *f)
{
	u8 b[32];

	for (int i = 0; i < 4; i++)
		put_unaligned_le64(f->v[i], b + 8 * i);
	return BN_lebin2bn(b, 32, NULL);
}

/* fe_tobytes(h) is the canonical encoding of want (already reduced). */
static void fe_check(const char *op, const fe *h, const BIGNUM *want, int *checked)
{
	u8 got[32], exp[32];

	fe_tobytes(got, h);
	ck_assert_int_eq(BN_bn2lebinpad(want, exp, 32), 32);
	ck_assert_msg(!memcmp(got, exp, 32), "fe25519-arm64 %s: wrong value", op);
	(*checked)++;
}

static void fe_edge_value(fe *f, struct rt_rng *rng)
{
	static const u64 limb[] = {
		0, 1, 19, 37, 38, 1ull << 63, 0x7fffffffffffffffull, 0xffffffffffffffedull,
		0xffffffffffffffd9ull, 0xffffffffffffffdaull, 0xfffffffffffffffeull,
		0xffffffffffffffffull,
	};

	for (int i = 0; i < 4; i++)
		f->v[i] = rt_rand_range(rng, 4) ? limb[rt_rand_range(rng, ARRAY_SIZE(limb))] : rt_rand(rng);
}

START_TEST(test_fe25519_arm64)
{
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *p = BN_new(), *a, *b, *w = BN_new(), *c = BN_new();
	struct rt_rng rng;
	int checked = 0, i, j;
	fe f, g, h, acc;

	ck_assert_ptr_nonnull(ctx);
	BN_zero(p);
	BN_set_bit(p, 255);
	BN_sub_word(p, 19);
	rt_rng_seed(&rng, 0x25519a64);
	for (i = 0; i < 4000; i++) {
		fe_edge_value(&f, &rng);
		fe_edge_value(&g, &rng);
		a = fe_bn(&f);
		b = fe_bn(&g);
		fe_mul(&h, &f, &g);
		BN_mod_mul(w, a, b, p, ctx);
		fe_check("mul", &h, w, &checked);
		fe_sq(&h, &f);
		BN_mod_sqr(w, a, p, ctx);
		fe_check("sq", &h, w, &checked);
		fe_add(&h, &f, &g);
		BN_mod_add(w, a, b, p, ctx);
		fe_check("add", &h, w, &checked);
		fe_sub(&h, &f, &g);
		BN_mod_sub(w, a, b, p, ctx);
		fe_check("sub", &h, w, &checked);
		fe_neg(&h, &f);
		BN_zero(c);
		BN_mod_sub(w, c, a, p, ctx);
		fe_check("neg", &h, w, &checked);
		fe_mul_small(&h, &f, 121666);
		BN_set_word(c, 121666);
		BN_mod_mul(w, a, c, p, ctx);
		fe_check("mul_small(121666)", &h, w, &checked);
		fe_mul_small(&h, &f, 0xffffffffu);
		BN_set_word(c, 0xffffffffu);
		BN_mod_mul(w, a, c, p, ctx);
		fe_check("mul_small(2^32 - 1)", &h, w, &checked);
		/* A chain over the unreduced results, as the ladder runs. */
		acc = f;
		BN_nnmod(w, a, p, ctx);
		for (j = 0; j < 8; j++) {
			switch (rt_rand_range(&rng, 4)) {
			case 0:
				fe_mul(&acc, &acc, &g);
				BN_mod_mul(w, w, b, p, ctx);
				break;
			case 1:
				fe_sq(&acc, &acc);
				BN_mod_sqr(w, w, p, ctx);
				break;
			case 2:
				fe_add(&acc, &acc, &g);
				BN_mod_add(w, w, b, p, ctx);
				break;
			default:
				fe_sub(&acc, &g, &acc);
				BN_mod_sub(w, b, w, p, ctx);
				break;
			}
		}
		fe_check("chain", &acc, w, &checked);
		BN_free(a);
		BN_free(b);
	}
	printf("fe25519-arm64 (mul, sq, add, sub, neg, mul_small, chains) vs OpenSSL BN: %d checks\n",
	       checked);
	BN_free(p);
	BN_free(w);
	BN_free(c);
	BN_CTX_free(ctx);
}
END_TEST
#endif

#if defined(__x86_64__)
/*
 * arch/x86/fe25519-inv-x86.c (the inversion of the x86 MULX drivers)
 * against OpenSSL's BN_mod_inverse and against the portable
 * fe25519_invert_limbs, on the inputs that drive its 20-step batches to
 * their extremes: 0, 1, 2^k, 2^k - 1, 2^k + 1, p - 2^k, p - 1 - 2^k for
 * every k (long runs of even g, matrix entries reaching 2^20 in a batch,
 * the biased G near its bounds), limbs of all ones and all zeros, then
 * random values below p; each also in place.
 */
#include "../arch/x86/fe25519-inv-x86.h"

START_TEST(test_fe25519_invert_x86)
{
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *p = bn_p25519(), *a = BN_new(), *w = BN_new(), *t = BN_new();
	struct rt_rng rng;
	u8 in[32], exp[32];
	u64 l[4], lo[4], ref[4];
	int checked = 0, i, j, k;

	ck_assert_ptr_nonnull(ctx);
	rt_rng_seed(&rng, 0x1e25519);
	for (i = 0; i < 255 * 6 + 4000; i++) {
		if (i < 255 * 6) {
			k = i / 6;
			BN_zero(t);
			BN_set_bit(t, k);
			switch (i % 6) {
			case 0: BN_copy(a, t); break;
			case 1: BN_copy(a, t); BN_sub_word(a, 1); break;
			case 2: BN_copy(a, t); BN_add_word(a, 1); break;
			case 3: BN_sub(a, p, t); break;
			case 4: BN_sub(a, p, t); BN_sub_word(a, 1); break;
			default:	/* alternating bits from k up */
				BN_zero(a);
				for (j = k; j < 255; j += 2)
					BN_set_bit(a, j);
				break;
			}
			BN_nnmod(a, a, p, ctx);
		} else {
			for (j = 0; j < 4; j++) {
				u64 r = rt_rand(&rng);

				l[j] = rt_rand_range(&rng, 4) ? r :
					(rt_rand_range(&rng, 2) ? 0 : ~(u64)0);
			}
			inv_from_limbs(l, in, a, p, ctx);
		}
		inv_expect(a, in, l, exp, w, p, ctx);
		fe25519_invert_limbs(ref, l);
		inv_check_limbs(fe25519_invert_limbs_x86, "fe25519_invert_limbs_x86", l, lo, exp, i);
		for (j = 0; j < 4; j++)
			ck_assert_uint_eq(ref[j], lo[j]);
		checked += 3;
	}
	printf("fe25519 inversion, x86 divsteps, vs BN_mod_inverse and the portable one: %d checks\n",
	       checked);
	BN_free(p);
	BN_free(a);
	BN_free(w);
	BN_free(t);
	BN_CTX_free(ctx);
}
END_TEST
#endif

static Suite *x25519_suite(void)
{
	Suite *s = suite_create("x25519");
	TCase *tc = tcase_create("x25519");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_rfc7748_vectors);
	tcase_add_test(tc, test_rfc7748_dh);
	tcase_add_test(tc, test_rfc7748_iterated);
	tcase_add_test(tc, test_wycheproof_raw);
	tcase_add_test(tc, test_wycheproof_asn);
	tcase_add_test(tc, test_wycheproof_jwk);
	tcase_add_test(tc, test_wycheproof_pem);
	tcase_add_test(tc, test_openssl_exchanges);
	tcase_add_test(tc, test_generic_differential);
	tcase_add_test(tc, test_openssl_key_formats);
	tcase_add_test(tc, test_generate_and_formats);
	tcase_add_test(tc, test_scatterlists);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_oneshots);
	tcase_add_test(tc, test_fe25519_invert);
#if defined(__x86_64__)
	tcase_add_test(tc, test_fe25519_invert_x86);
#endif
#if defined(__aarch64__)
	tcase_add_test(tc, test_fe25519_arm64);
#endif
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(x25519_suite)
