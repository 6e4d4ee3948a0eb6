// SPDX-License-Identifier: MIT
/*
 * Suite "ecdh": the "ecdh-nist-p256", "ecdh-nist-p384" and
 * "ecdh-nist-p521" kpp algorithms over every implementation.
 *
 *  - Wycheproof ecdh_secp{256,384,521}r1 files: _ecpoint (raw SEC1 peer
 *    points), plain (SPKI DER peer), _pem (PEM keys both sides) and
 *    _webcrypto (JWK both sides): every case; valid ones must give the
 *    shared secret, invalid ones must be refused, acceptable ones (for
 *    rind: compressed points, which are decompressed; unusual DER and
 *    explicit curve parameters, which are refused) must be right if
 *    accepted;
 *  - differential against OpenSSL: random exchanges both ways, rind's
 *    exported keys (SPKI/PKCS#8, DER and PEM, JWK round trip) read by
 *    OpenSSL and OpenSSL's (PKCS#8, SEC1 "EC PRIVATE KEY", SPKI) read by
 *    rind;
 *  - bad inputs: scalars out of range, wrong lengths, malformed
 *    encodings, peers off the curve, small destinations, missing keys.
 */
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <rind/kpp.h>
#include "testutil.h"

struct curve {
	const char *name;	/* kpp name */
	const char *wp;		/* Wycheproof curve */
	const char *ossl;	/* OpenSSL group */
	unsigned int nbytes;
	const char *order;	/* n, hex */
};

static const struct curve curves[] = {
	{ "ecdh-nist-p256", "secp256r1", "P-256", 32,
	  "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551" },
	{ "ecdh-nist-p384", "secp384r1", "P-384", 48,
	  "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf"
	  "581a0db248b0a77aecec196accc52973" },
	{ "ecdh-nist-p521", "secp521r1", "P-521", 66,
	  "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
	  "fa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409" },
};

static struct crypto_kpp *alloc_drv(const char *drv)
{
	struct crypto_kpp *tfm = crypto_alloc_kpp(drv, 0, 0);

	ck_assert_msg(!IS_ERR_OR_NULL(tfm), "%s: alloc failed (%ld)", drv, PTR_ERR(tfm));
	ck_assert_str_eq(crypto_kpp_driver_name(tfm), drv);
	return tfm;
}

/* A Wycheproof private scalar (hex, possibly with a sign byte) as nbytes. */
static bool wp_scalar(const char *hex, unsigned int nbytes, u8 *out)
{
	size_t len, off = 0;
	u8 *b = rt_unhex_alloc(hex, &len);
	bool ok;

	while (len - off > nbytes && b[off] == 0)
		off++;
	ok = len - off <= nbytes;
	if (ok) {
		memset(out, 0, nbytes - (len - off));
		memcpy(out + nbytes - (len - off), b + off, len - off);
	}
	free(b);
	return ok;
}

static void run_wycheproof(const struct curve *c, const char *suffix, enum rt_wp_kind kind)
{
	char file[128];
	drivers_t d;
	json_t *root;
	int n, i;

	snprintf(file, sizeof(file), "ecdh_%s%s_test.json", c->wp, suffix);
	root = rt_wp_load(file);
	if (!root)
		return;
	n = rt_impls(c->name, "kpp", d, RT_MAX_IMPLS);
	for (i = 0; i < n; i++) {
		struct crypto_kpp *tfm = alloc_drv(d[i]);
		int ran = 0, skipped = 0, accepted = 0;
		size_t gi, ti;
		json_t *g, *t;

		json_array_foreach(json_object_get(root, "testGroups"), gi, g) {
			json_array_foreach(json_object_get(g, "tests"), ti, t) {
				int expect = rt_wp_result(t), id, err;
				u8 ss[80], *priv, *pub, *want;
				size_t privlen, publen, wantlen;
				unsigned int sslen = sizeof(ss);
				u8 scalar[66];

				id = (int)json_integer_value(json_object_get(t, "tcId"));
				if (kind == RT_WP_HEX) {	/* raw scalar; SEC1 point or SPKI */
					if (!wp_scalar(json_string_value(json_object_get(t, "private")),
						       c->nbytes, scalar)) {
						skipped++;
						continue;
					}
					err = crypto_kpp_set_secret(tfm, scalar, c->nbytes);
				} else {
					priv = rt_wp_key(t, "private", kind, &privlen);
					err = crypto_kpp_set_secret(tfm, priv, (unsigned int)privlen);
					free(priv);
				}
				if (err) {
					ck_assert_msg(expect != 1, "%s: %s tc %d: set_secret %d",
						      d[i], file, id, err);
					ran++;
					continue;
				}
				pub = rt_wp_key(t, "public", kind, &publen);
				err = rt_kpp_op(tfm, true, pub, (unsigned int)publen, ss, &sslen);
				free(pub);
				want = rt_wp_hex(t, "shared", &wantlen);
				if (expect == 1)
					ck_assert_msg(!err && sslen == wantlen &&
						      !memcmp(ss, want, wantlen),
						      "%s: %s tc %d: valid case: err %d", d[i], file, id, err);
				else if (expect == 0)
					ck_assert_msg(err < 0, "%s: %s tc %d: invalid case accepted",
						      d[i], file, id);
				else if (!err)
					ck_assert_msg(sslen == wantlen && !memcmp(ss, want, wantlen),
						      "%s: %s tc %d: acceptable case, wrong secret",
						      d[i], file, id);
				if (expect == -1 && !err)
					accepted++;
				free(want);
				ran++;
			}
		}
		rt_report(file, d[i], ran, skipped);
		printf("  %s: %d acceptable cases accepted\n", file, accepted);
		crypto_free_kpp(tfm);
	}
	json_decref(root);
}

START_TEST(test_wycheproof_ecpoint)
{
	run_wycheproof(&curves[_i], "_ecpoint", RT_WP_HEX);
}
END_TEST

START_TEST(test_wycheproof_asn)
{
	run_wycheproof(&curves[_i], "", RT_WP_HEX);
}
END_TEST

START_TEST(test_wycheproof_pem)
{
	run_wycheproof(&curves[_i], "_pem", RT_WP_PEM);
}
END_TEST

START_TEST(test_wycheproof_webcrypto)
{
	run_wycheproof(&curves[_i], "_webcrypto", RT_WP_JWK);
}
END_TEST

/* ---- OpenSSL ------------------------------------------------------------- */

static int ossl_derive(EVP_PKEY *mine, EVP_PKEY *peer, u8 *out, size_t *len)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(mine, NULL);
	int ok;

	ok = c && EVP_PKEY_derive_init(c) == 1 && EVP_PKEY_derive_set_peer(c, peer) == 1 &&
	     EVP_PKEY_derive(c, out, len) == 1;
	EVP_PKEY_CTX_free(c);
	return ok;
}

/* The raw private scalar of an OpenSSL key, nbytes big-endian. */
static void ossl_scalar(EVP_PKEY *p, unsigned int nbytes, u8 *out)
{
	BIGNUM *bn = NULL;

	ck_assert_int_eq(EVP_PKEY_get_bn_param(p, OSSL_PKEY_PARAM_PRIV_KEY, &bn), 1);
	ck_assert_int_eq(BN_bn2binpad(bn, out, (int)nbytes), (int)nbytes);
	BN_clear_free(bn);
}

/* The uncompressed public point of an OpenSSL key. */
static size_t ossl_point(EVP_PKEY *p, u8 *out, size_t max)
{
	size_t len = 0;

	ck_assert_int_eq(EVP_PKEY_set_utf8_string_param(p, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT,
							"uncompressed"), 1);
	ck_assert_int_eq(EVP_PKEY_get_octet_string_param(p, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY,
							 out, max, &len), 1);
	return len;
}

START_TEST(test_openssl_exchanges)
{
	const struct curve *c = &curves[_i];
	drivers_t d;
	int n = rt_impls(c->name, "kpp", d, RT_MAX_IMPLS), i, round;

	for (i = 0; i < n; i++) {
		struct crypto_kpp *tfm = alloc_drv(d[i]);

		for (round = 0; round < 6; round++) {
			EVP_PKEY *o = EVP_PKEY_Q_keygen(NULL, NULL, "EC", c->ossl), *mine;
			u8 pub[200], opub[200], ss1[80], ss2[80], scalar[66], *spki, *der;
			unsigned int publen = sizeof(pub), sslen = sizeof(ss1);
			size_t opublen, ss2len = sizeof(ss2), spkilen, derlen;
			const unsigned char *q;

			ck_assert_ptr_nonnull(o);
			/* rind's fresh key against OpenSSL's. */
			RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, NULL, 0), 0);
			RT_REQ_EQ(d[i], rt_kpp_op(tfm, false, NULL, 0, pub, &publen), 0);
			RT_REQ_EQ(d[i], publen, 1 + 2 * c->nbytes);
			RT_REQ_EQ(d[i], pub[0], 4);
			opublen = ossl_point(o, opub, sizeof(opub));
			/* Peer as 04||X||Y, then as the bare X||Y: same secret. */
			RT_REQ_EQ(d[i], rt_kpp_op(tfm, true, opub, (unsigned int)opublen, ss1, &sslen), 0);
			RT_REQ_EQ(d[i], sslen, c->nbytes);
			sslen = sizeof(ss2);
			RT_REQ_EQ(d[i], rt_kpp_op(tfm, true, opub + 1, (unsigned int)opublen - 1, ss2,
					    &sslen), 0);
			RT_REQ(d[i], !memcmp(ss1, ss2, c->nbytes));
			/* OpenSSL's side, with rind's public key as SPKI from rind. */
			spki = malloc(512);
			spkilen = (size_t)crypto_kpp_export_pubkey(tfm, RIND_KEY_SPKI_DER, spki, 512);
			RT_REQ(d[i], (int)spkilen > 0);
			q = spki;
			mine = d2i_PUBKEY(NULL, &q, (long)spkilen);
			RT_REQ(d[i], mine != NULL);
			RT_REQ(d[i], ossl_derive(o, mine, ss2, &ss2len));
			RT_REQ_EQ(d[i], ss2len, c->nbytes);
			RT_REQ(d[i], !memcmp(ss1, ss2, c->nbytes));
			EVP_PKEY_free(mine);
			free(spki);

			/* OpenSSL's private key in rind (raw, PKCS#8, SEC1): same public key. */
			ossl_scalar(o, c->nbytes, scalar);
			RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, scalar, c->nbytes), 0);
			publen = sizeof(pub);
			RT_REQ_EQ(d[i], rt_kpp_op(tfm, false, NULL, 0, pub, &publen), 0);
			RT_REQ(d[i], publen == opublen && !memcmp(pub, opub, opublen));
			for (int form = 0; form < 4; form++) {
				der = rt_ossl_write(o, true, (enum rt_ossl_form)form, &derlen);
				RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, der, (unsigned int)derlen), 0);
				free(der);
				publen = sizeof(pub);
				RT_REQ_EQ(d[i], rt_kpp_op(tfm, false, NULL, 0, pub, &publen), 0);
				RT_REQ(d[i], publen == opublen && !memcmp(pub, opub, opublen));
			}
			EVP_PKEY_free(o);
		}
		crypto_free_kpp(tfm);
	}
}
END_TEST

START_TEST(test_openssl_key_formats)
{
	const struct curve *c = &curves[_i];
	drivers_t d;
	int n = rt_impls(c->name, "kpp", d, RT_MAX_IMPLS), i, pem;

	for (i = 0; i < n; i++) {
		struct crypto_kpp *tfm = alloc_drv(d[i]), *t2 = alloc_drv(d[i]);
		u8 pub[200], pub2[200], enc[1024], scalar[66], opub[200];
		unsigned int publen = sizeof(pub), publen2;
		int r;

		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, NULL, 0), 0);
		RT_REQ_EQ(d[i], rt_kpp_op(tfm, false, NULL, 0, pub, &publen), 0);
		for (pem = 0; pem < 2; pem++) {
			EVP_PKEY *o;
			size_t olen;
			u8 *oenc;

			r = crypto_kpp_export_privkey(tfm, pem ? RIND_KEY_PEM : RIND_KEY_PKCS8_DER,
						      enc, sizeof(enc));
			RT_REQ(d[i], r > 0);
			o = rt_ossl_read(enc, (size_t)r, true, pem);
			RT_REQ(d[i], o != NULL);
			RT_REQ(d[i], EVP_PKEY_is_a(o, "EC"));
			ossl_scalar(o, c->nbytes, scalar);
			olen = ossl_point(o, opub, sizeof(opub));
			RT_REQ(d[i], olen == publen && !memcmp(opub, pub, publen));
			/* OpenSSL's re-encoding read back by rind: same key. */
			oenc = rt_ossl_write(o, true, pem ? RT_OSSL_PEM : RT_OSSL_DER, &olen);
			RT_REQ_EQ(d[i], crypto_kpp_set_secret(t2, oenc, (unsigned int)olen), 0);
			free(oenc);
			publen2 = sizeof(pub2);
			RT_REQ_EQ(d[i], rt_kpp_op(t2, false, NULL, 0, pub2, &publen2), 0);
			RT_REQ(d[i], publen2 == publen && !memcmp(pub2, pub, publen));
			EVP_PKEY_free(o);

			r = crypto_kpp_export_pubkey(tfm, pem ? RIND_KEY_PEM : RIND_KEY_SPKI_DER,
						     enc, sizeof(enc));
			RT_REQ(d[i], r > 0);
			o = rt_ossl_read(enc, (size_t)r, false, pem);
			RT_REQ(d[i], o != NULL);
			olen = ossl_point(o, opub, sizeof(opub));
			RT_REQ(d[i], olen == publen && !memcmp(opub, pub, publen));
			oenc = rt_ossl_write(o, false, pem ? RT_OSSL_PEM : RT_OSSL_DER, &olen);
			RT_REQ(d[i], (size_t)r == olen && !memcmp(oenc, enc, olen));
			free(oenc);
			EVP_PKEY_free(o);
		}
		/* Raw and JWK round trips. */
		r = crypto_kpp_export_privkey(tfm, RIND_KEY_RAW, enc, sizeof(enc));
		RT_REQ_EQ(d[i], r, c->nbytes);
		r = crypto_kpp_export_pubkey(tfm, RIND_KEY_RAW, enc, sizeof(enc));
		RT_REQ(d[i], r == (int)publen && !memcmp(enc, pub, publen));
		r = crypto_kpp_export_privkey(tfm, RIND_KEY_JWK, enc, sizeof(enc));
		RT_REQ(d[i], r > 0 && strstr((char *)enc, "\"kty\":\"EC\"") && strstr((char *)enc, "\"d\":"));
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(t2, enc, (unsigned int)r), 0);
		publen2 = sizeof(pub2);
		RT_REQ_EQ(d[i], rt_kpp_op(t2, false, NULL, 0, pub2, &publen2), 0);
		RT_REQ(d[i], publen2 == publen && !memcmp(pub2, pub, publen));
		r = crypto_kpp_export_pubkey(tfm, RIND_KEY_JWK, enc, sizeof(enc));
		RT_REQ(d[i], r > 0 && !strstr((char *)enc, "\"d\":"));
		/* A JWK public key as the peer of the other tfm. */
		publen2 = sizeof(pub2);
		RT_REQ_EQ(d[i], rt_kpp_op(t2, true, enc, (unsigned int)r, pub2, &publen2), 0);
		/* Formats a private key lacks, and small buffers. */
		RT_REQ_EQ(d[i], crypto_kpp_export_privkey(tfm, RIND_KEY_SPKI_DER, enc, sizeof(enc)), -EINVAL);
		RT_REQ_EQ(d[i], crypto_kpp_export_pubkey(tfm, RIND_KEY_SPKI_DER, enc, 10), -ENOSPC);
		RT_REQ_EQ(d[i], crypto_kpp_export_pubkey(tfm, RIND_KEY_RAW, enc, 10), -ENOSPC);
		crypto_free_kpp(tfm);
		crypto_free_kpp(t2);
	}
}
END_TEST

START_TEST(test_bad_inputs)
{
	const struct curve *c = &curves[_i];
	drivers_t d;
	int n = rt_impls(c->name, "kpp", d, RT_MAX_IMPLS), i;

	for (i = 0; i < n; i++) {
		struct crypto_kpp *tfm = alloc_drv(d[i]);
		u8 k[66], order[66], pub[200], ss[80], bad[200];
		unsigned int publen = sizeof(pub), sslen;
		unsigned int nb = c->nbytes;

		/* No key yet. */
		sslen = sizeof(ss);
		RT_REQ(d[i], rt_kpp_op(tfm, false, NULL, 0, pub, &publen) < 0);
		/* Scalars 0, n, n + 1 and all-ones are refused; 1 and n - 1 work. */
		memset(k, 0, nb);
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, k, nb), -EINVAL);
		rt_unhex(order, sizeof(order), c->order);
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, order, nb), -EINVAL);
		memcpy(k, order, nb);
		k[nb - 1]++;
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, k, nb), -EINVAL);
		memset(k, 0xff, nb);
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, k, nb), -EINVAL);
		memcpy(k, order, nb);
		k[nb - 1]--;
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, k, nb), 0);
		memset(k, 0, nb);
		k[nb - 1] = 1;
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, k, nb), 0);
		publen = sizeof(pub);
		RT_REQ_EQ(d[i], rt_kpp_op(tfm, false, NULL, 0, pub, &publen), 0);
		/* Wrong raw lengths; a damaged DER key. */
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, k, nb - 1), -EINVAL);
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, k, nb + 1), -EINVAL);
		RT_REQ_EQ(d[i], crypto_kpp_set_secret(tfm, "\x30\x03\x02\x01\x01", 5), -EKEYREJECTED);
		/* The key survived the failed calls: 1 * G is G. */
		sslen = sizeof(ss);
		RT_REQ_EQ(d[i], rt_kpp_op(tfm, true, pub, publen, ss, &sslen), 0);
		RT_REQ(d[i], !memcmp(ss, pub + 1, nb));
		/* Peers: off the curve, identity encoding, coordinates >= p, bad lengths. */
		memcpy(bad, pub, publen);
		bad[publen - 1] ^= 1;
		sslen = sizeof(ss);
		RT_REQ_EQ(d[i], rt_kpp_op(tfm, true, bad, publen, ss, &sslen), -EINVAL);
		sslen = sizeof(ss);
		RT_REQ_EQ(d[i], rt_kpp_op(tfm, true, "\x00", 1, ss, &sslen), -EINVAL);
		memset(bad + 1, 0xff, 2 * nb);
		sslen = sizeof(ss);
		RT_REQ_EQ(d[i], rt_kpp_op(tfm, true, bad, publen, ss, &sslen), -EINVAL);
		sslen = sizeof(ss);
		RT_REQ_EQ(d[i], rt_kpp_op(tfm, true, pub, publen - 1 - 1, ss, &sslen), -EINVAL);
		bad[0] = 0x05;
		memcpy(bad + 1, pub + 1, 2 * nb);
		sslen = sizeof(ss);
		RT_REQ(d[i], rt_kpp_op(tfm, true, bad, publen, ss, &sslen) < 0);
		/* Compressed G decompresses to G. */
		bad[0] = 0x02 | (pub[publen - 1] & 1);
		memcpy(bad + 1, pub + 1, nb);
		sslen = sizeof(ss);
		RT_REQ_EQ(d[i], rt_kpp_op(tfm, true, bad, nb + 1, ss, &sslen), 0);
		RT_REQ(d[i], !memcmp(ss, pub + 1, nb));
		bad[0] ^= 1;	/* the other Y: -G, same X */
		sslen = sizeof(ss);
		RT_REQ_EQ(d[i], rt_kpp_op(tfm, true, bad, nb + 1, ss, &sslen), 0);
		/* Small destinations. */
		sslen = nb - 1;
		RT_REQ_EQ(d[i], rt_kpp_op(tfm, true, pub, publen, ss, &sslen), -EINVAL);
		publen = 2 * nb;
		RT_REQ_EQ(d[i], rt_kpp_op(tfm, false, NULL, 0, pub, &publen), -EINVAL);
		RT_REQ_EQ(d[i], crypto_kpp_maxsize(tfm), 1 + 2 * nb);
		crypto_free_kpp(tfm);
	}
}
END_TEST

/*
 * Every other driver of a curve against the generic one over the same
 * inputs: public keys of edge and random scalars (1, 2, small ones,
 * 2^k, n - 1, n - 2, (n +- 1) / 2, random, and bytes repeated: 0xff..,
 * 0xaa.., 0x55.., 0x0f.., 0xf0.., 0x81.., 0x7f.., 0x01.., below n: long
 * runs of the largest signed digits and of zeros), shared secrets with peers
 * from the same list, and the peers 02/03||X for edge X (0, 1, 2, p - 1,
 * p - 2, random), which run the decompression, the point check and the
 * field operations on edge values.  Both must agree on every output and
 * every refusal.
 */
static const char *const diff_p[] = {
	"ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
	"fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe"
	"ffffffff0000000000000000ffffffff",
	"01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
	"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
};

/* Scalars 20 .. DIFF_RANDOM_END - 1 are random, the last ones byte patterns. */
#define DIFF_RANDOM_END 44
#define DIFF_SCALARS 52

START_TEST(test_generic_differential)
{
	const struct curve *c = &curves[_i];
	unsigned int nb = c->nbytes, publen, j;
	char gname[CRYPTO_MAX_ALG_NAME];
	drivers_t d;
	int n = rt_impls(c->name, "kpp", d, RT_MAX_IMPLS), i, ran = 0;
	u8 order[66], p[66];

	rt_unhex(order, sizeof(order), c->order);
	rt_unhex(p, sizeof(p), diff_p[_i]);
	snprintf(gname, sizeof(gname), "%s-generic", c->name);
	for (i = 0; i < n; i++) {
		struct crypto_kpp *tg, *td;
		struct rt_rng rng;
		u8 k[66], peer[200], pg[200], pd[200], sg[80], sd[80];

		if (!strcmp(d[i], gname))
			continue;
		tg = alloc_drv(gname);
		td = alloc_drv(d[i]);
		rt_rng_seed(&rng, 0x384adc0 + (u64)_i);
		memset(peer, 0, sizeof(peer));
		for (j = 0; j < DIFF_SCALARS; j++) {
			unsigned int lg = sizeof(pg), ld = sizeof(pd);

			rt_edge_scalar(k, j, order, nb, DIFF_RANDOM_END, &rng);
			RT_REQ_EQ(d[i], crypto_kpp_set_secret(tg, k, nb), 0);
			RT_REQ_EQ(d[i], crypto_kpp_set_secret(td, k, nb), 0);
			RT_REQ_EQ(d[i], rt_kpp_op(tg, false, NULL, 0, pg, &lg), 0);
			RT_REQ_EQ(d[i], rt_kpp_op(td, false, NULL, 0, pd, &ld), 0);
			RT_REQ_EQ(d[i], ld, lg);
			ck_assert_msg(!memcmp(pg, pd, lg), "%s: public key of scalar %u differs: %s",
				      d[i], j, rt_hex(k, nb));
			/* with the previous scalar's public key as the peer (G first) */
			if (j) {
				publen = 1 + 2 * nb;
				lg = ld = sizeof(sg);
				RT_REQ_EQ(d[i], rt_kpp_op(tg, true, peer, publen, sg, &lg), 0);
				RT_REQ_EQ(d[i], rt_kpp_op(td, true, peer, publen, sd, &ld), 0);
				RT_REQ(d[i], lg == ld && !memcmp(sg, sd, lg));
			}
			memcpy(peer, pg, 1 + 2 * nb);
			ran++;
		}
		/* compressed peers with edge and random X: same verdict, same secret */
		for (j = 0; j < 24; j++) {
			unsigned int lg = sizeof(sg), ld = sizeof(sd);
			int eg, ed;

			peer[0] = 0x02 | (j & 1);
			memset(peer + 1, 0, nb);
			if (j < 8) {
				peer[nb] = (u8)(j >> 1);		/* 0, 1, 2, 3 */
			} else if (j < 16) {
				memcpy(peer + 1, p, nb);	/* p - 1 .. p - 4 */
				rt_be_sub_small(peer + 1, nb, (j - 8) / 2 + 1);
			} else {
				rt_fill(&rng, peer + 1, nb);
				if (nb == 66)
					peer[1] &= 1;
			}
			eg = rt_kpp_op(tg, true, peer, nb + 1, sg, &lg);
			ed = rt_kpp_op(td, true, peer, nb + 1, sd, &ld);
			RT_REQ_EQ(d[i], ed, eg);
			if (!eg)
				RT_REQ(d[i], lg == ld && !memcmp(sg, sd, lg));
			ran++;
		}
		crypto_free_kpp(td);
		crypto_free_kpp(tg);
		rt_report("generic differential", d[i], ran, 0);
	}
}
END_TEST

/* ---- the x86 P-256 curve code against the generic one ------------------- */

#if defined(__x86_64__)
#include <crypto/ecc.h>
#include "../arch/x86/ecc-p256-adx.h"

/*
 * ecc_p256_adx's k P against ecc_p256_generic's on the curve level, for
 * P = G, 2G, 16G, 17G, -G and a random point, and k = 1 .. 34,
 * n - 34 .. n - 1 and random: k = 2d or n - 2d (|d| <= 16) is where the
 * last window's addition meets P = +-Q (the complete formula's case),
 * small k and small multiples of G are where the table (its entries
 * doubled from the half) and the first windows meet each other.  Every
 * shared secret (and every verdict) must be equal.
 */
START_TEST(test_p256_adx_curve_edges)
{
	static const char nhex[] = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
	const struct ecc_curve *A = &ecc_p256_adx, *G = &ecc_p256_generic;
	static const unsigned int pts[] = { 1, 2, 16, 17, 0 /* n - 1 */, 1000 /* random */ };
	unsigned int pi, j, ran = 0;
	struct rt_rng rng;
	u8 n[32];

	if (!rt_cpu_has_bmi2_adx())
		return;
	rt_unhex(n, sizeof(n), nhex);
	rt_rng_seed(&rng, 0x256ecd1);
	for (pi = 0; pi < ARRAY_SIZE(pts); pi++) {
		u8 d[32], xy[64], xy2[64];

		memset(d, 0, sizeof(d));
		if (pts[pi] == 0) {
			memcpy(d, n, sizeof(d));
			rt_be_sub_small(d, 32, 1);
		} else if (pts[pi] == 1000) {
			rt_fill(&rng, d, sizeof(d));
			d[0] &= 0x7f;
		} else {
			d[31] = (u8)pts[pi];
		}
		G->mul_base(xy, d);
		A->mul_base(xy2, d);
		ck_assert_msg(!memcmp(xy, xy2, 64), "mul_base(%s) differs", rt_hex(d, 32));
		ck_assert_int_eq(A->point_check(xy), 0);
		for (j = 0; j < 76; j++) {
			u8 k[32], sg[32], sa[32];
			int eg, ea;

			memset(k, 0, sizeof(k));
			if (j < 34) {
				k[31] = (u8)(j + 1);
			} else if (j < 68) {
				memcpy(k, n, sizeof(k));
				rt_be_sub_small(k, 32, j - 33);
			} else {
				rt_fill(&rng, k, sizeof(k));
				k[0] &= 0x7f;
			}
			eg = G->ecdh(sg, k, xy);
			ea = A->ecdh(sa, k, xy);
			ck_assert_int_eq(eg, 0);
			ck_assert_int_eq(ea, eg);
			ck_assert_msg(!memcmp(sg, sa, 32), "ecdh(%s, point %u) differs",
				      rt_hex(k, 32), pi);
			ran++;
		}
	}
	/* a point off the curve is refused by both, the same way */
	{
		u8 xy[64], k[32], out[32];

		memset(k, 0, sizeof(k));
		k[31] = 5;
		G->mul_base(xy, k);
		xy[63] ^= 1;
		ck_assert_int_eq(A->ecdh(out, k, xy), -EINVAL);
		ck_assert_int_eq(G->ecdh(out, k, xy), -EINVAL);
	}
	rt_report("p256 adx curve edges", "ecc_p256_adx", (int)ran, 0);
}
END_TEST
#endif

#if defined(__x86_64__)
#include "../arch/x86/ecc-p521-adx.h"

#include "../arch/x86/ecc-p384-adx.h"

/*
 * ecc_p384_adx's and ecc_p521_adx's k P (an affine table: its even
 * entries doubled, one inversion, mixed additions, digit 0 masked away,
 * the last window through the complete formula) against the generic
 * curves', for P = G, 2G, 17G, -G and a random point, and k = 1 .. 18,
 * n - 18 .. n - 1, single bits and random: k = 2d or n - 2d (|d| <= 16)
 * is where the last window's addition meets P = +-Q, small k where the
 * first windows meet the table's small multiples, single bits where
 * every other digit is 0.  Every shared secret must be equal.
 */
START_TEST(test_x86_affine_ecdh_edges)
{
	const struct ecc_curve *A = _i ? &ecc_p521_adx : &ecc_p384_adx;
	const struct ecc_curve *G = _i ? &ecc_p521_generic : &ecc_p384_generic;
	const struct curve *c = &curves[1 + _i];
	static const unsigned int pts[] = { 1, 2, 17, 0 /* n - 1 */, 1000 /* random */ };
	unsigned int nb = c->nbytes, pi, j, ran = 0;
	struct rt_rng rng;
	u8 n[66];

	if (!rt_cpu_has_bmi2_adx())
		return;
	rt_unhex(n, sizeof(n), c->order);
	rt_rng_seed(&rng, 0x384521e + (u64)_i);
	for (pi = 0; pi < ARRAY_SIZE(pts); pi++) {
		u8 d[66], xy[132], xy2[132];

		memset(d, 0, sizeof(d));
		if (pts[pi] == 0) {
			memcpy(d, n, nb);
			rt_be_sub_small(d, nb, 1);
		} else if (pts[pi] == 1000) {
			rt_fill(&rng, d, nb);
			d[0] &= _i ? 0x01 : 0x7f;
		} else {
			d[nb - 1] = (u8)pts[pi];
		}
		G->mul_base(xy, d);
		A->mul_base(xy2, d);
		ck_assert_msg(!memcmp(xy, xy2, 2 * nb), "mul_base(%s) differs", rt_hex(d, nb));
		for (j = 0; j < 48; j++) {
			u8 k[66], sg[66], sa[66];
			int eg, ea;

			memset(k, 0, sizeof(k));
			if (j < 18) {
				k[nb - 1] = (u8)(j + 1);
			} else if (j < 36) {
				memcpy(k, n, nb);
				rt_be_sub_small(k, nb, j - 17);
			} else if (j < 42) {			/* 2^(5 m + 3) */
				unsigned int bit = 5 * (j - 36) * 13 + 3;

				k[nb - 1 - bit / 8] = (u8)(1u << (bit % 8));
			} else {
				rt_fill(&rng, k, nb);
				k[0] &= _i ? 0x01 : 0x7f;
			}
			eg = G->ecdh(sg, k, xy);
			ea = A->ecdh(sa, k, xy);
			ck_assert_int_eq(eg, 0);
			ck_assert_int_eq(ea, eg);
			ck_assert_msg(!memcmp(sg, sa, nb), "%s ecdh(%s, point %u) differs",
				      c->ossl, rt_hex(k, nb), pi);
			ran++;
		}
	}
	rt_report("x86 affine ecdh edges", _i ? "ecc_p521_adx" : "ecc_p384_adx", (int)ran, 0);
}
END_TEST

/*
 * A driver whose self-test fails is not registered, and the walks over
 * the registered drivers above would then pass without it: on a CPU with
 * BMI2 and ADX (and nothing disabled) the x86 curve drivers must be there.
 */
START_TEST(test_x86_drivers_registered)
{
	static const char *const want[] = {
		"ecdh-nist-p256-adx", "ecdh-nist-p384-adx", "ecdh-nist-p521-adx",
	};
	const char *dis = getenv("RIND_DISABLE");
	unsigned int i;

	if (!rt_cpu_has_bmi2_adx() || (dis && *dis))
		return;
	for (i = 0; i < ARRAY_SIZE(want); i++)
		crypto_free_kpp(alloc_drv(want[i]));
}
END_TEST

static BIGNUM *p521x_bn(const u64 w[9])
{
	u8 be[72];
	int i;

	for (i = 0; i < 72; i++)
		be[71 - i] = (u8)(w[i / 8] >> (8 * (i % 8)));
	return BN_bin2bn(be, sizeof(be), NULL);
}

/* an edge element of P-521's field (at most p) by number, or a random one */
static void p521x_edge(u64 w[9], unsigned int idx, struct rt_rng *rng)
{
	static const u64 words[] = { 0, 1, 2, 0xffffffffffffffffull, 0xfffffffffffffffeull,
				     0x8000000000000000ull, 0x7fffffffffffffffull };
	unsigned int i;

	memset(w, 0, 72);
	if (idx < 7) {				/* 0, 1, 2, p, p - 1, 2^520, 2^520 - 1 */
		static const u64 low[] = { 0, 1, 2, ~0ull, ~1ull, 0, ~0ull };
		static const u64 top[] = { 0, 0, 0, 0x1ff, 0x1ff, 0x100, 0xff };

		w[0] = low[idx];
		for (i = 1; i < 8; i++)
			w[i] = idx >= 3 && idx != 5 ? ~0ull : 0;
		w[8] = top[idx];
	} else if (idx < 7 + ARRAY_SIZE(words)) {	/* one word pattern everywhere */
		for (i = 0; i < 8; i++)
			w[i] = words[idx - 7];
		w[8] = words[idx - 7] & 0x1ff;
	} else if (idx < 22) {			/* 2^(64j) - 1 and 2^(64j), j = 1..4 */
		unsigned int j = (idx - 14) / 2 + 1;

		if (idx & 1)
			w[j] = 1;
		else
			for (i = 0; i < j; i++)
				w[i] = ~0ull;
	} else if (idx < 24) {			/* 2^512 - 1 (a_8 = 0), 511 * 2^512 (only a_8) */
		for (i = 0; i < 8; i++)
			w[i] = idx == 22 ? ~0ull : 0;
		w[8] = idx == 22 ? 0 : 0x1ff;
	} else {
		rt_fill(rng, (u8 *)w, 72);
		w[8] &= 0x1ff;
	}
}

/*
 * arch/x86/ecc-p521-adx.c's field operations against BIGNUM modulo
 * p = 2^521 - 1: the product, the square (a Mersenne fold: the carries of
 * lo + hi and of bit 521 back to bit 0), addition, subtraction, halving,
 * and the doubling's fused steps 2a, 3a, a - 2b, a - b/2 (rotations of
 * the 521 bits, a complement, a fold), those of the a = -3 doubling and
 * the mixed addition (a - 8b, 4a - b, a - b - c, a - b - 2c: rotations by
 * 1..3 bits, complements, folds) and the inversion (Bernstein-Yang
 * in ecc-divsteps-x86.h's 60-step batches), on pairs of edge values (0, 1, p
 * itself, p - 1, 2^520, all-ones and single-bit words, word boundaries,
 * the low eight words full with the top one empty and the reverse, for
 * the square's split at word 8) and random ones; every result must be
 * right and at most p.
 */
START_TEST(test_p521_field_adx)
{
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *p = BN_new(), *want = BN_new(), *t = BN_new(), *two = BN_new(), *inv2 = BN_new();
	unsigned int ia, ib, op, checked = 0;
	struct rt_rng rng;

	if (!rt_cpu_has_bmi2_adx())
		goto out;
	ck_assert_ptr_nonnull(ctx);
	BN_set_word(p, 1);
	BN_lshift(p, p, 521);
	BN_sub_word(p, 1);
	BN_set_word(two, 2);
	ck_assert_ptr_nonnull(BN_mod_inverse(inv2, two, p, ctx));
	rt_rng_seed(&rng, 0x521f1e1d);
	for (ia = 0; ia < 32; ia++) {
		for (ib = 0; ib < 32; ib++) {
			u64 a[9], b[9], r[9];
			BIGNUM *A, *B, *R;

			p521x_edge(a, ia, &rng);
			p521x_edge(b, ib, &rng);
			A = p521x_bn(a);
			B = p521x_bn(b);
			for (op = 0; op < P521X_T_NOPS; op++) {
				p521x_field_test(op, r, a, b);
				switch (op) {
				case P521X_T_MUL: BN_mod_mul(want, A, B, p, ctx); break;
				case P521X_T_SQR: BN_mod_mul(want, A, A, p, ctx); break;
				case P521X_T_ADD: BN_mod_add(want, A, B, p, ctx); break;
				case P521X_T_SUB: BN_mod_sub(want, A, B, p, ctx); break;
				case P521X_T_HALF: BN_mod_mul(want, A, inv2, p, ctx); break;
				case P521X_T_DBL: BN_mod_add(want, A, A, p, ctx); break;
				case P521X_T_MUL3:
					BN_mod_add(t, A, A, p, ctx);
					BN_mod_add(want, t, A, p, ctx);
					break;
				case P521X_T_SUB2:
					BN_mod_add(t, B, B, p, ctx);
					BN_mod_sub(want, A, t, p, ctx);
					break;
				case P521X_T_SUBHALF:
					BN_mod_mul(t, B, inv2, p, ctx);
					BN_mod_sub(want, A, t, p, ctx);
					break;
				case P521X_T_SUB8:
					BN_lshift(t, B, 3);
					BN_mod_sub(want, A, t, p, ctx);
					break;
				case P521X_T_SUB4R:
					BN_lshift(t, A, 2);
					BN_mod_sub(want, t, B, p, ctx);
					break;
				case P521X_T_SUBSUB:	/* c = a b mod p */
				case P521X_T_SUBSUB2:
					BN_mod_mul(t, A, B, p, ctx);
					if (op == P521X_T_SUBSUB2)
						BN_lshift1(t, t);
					BN_add(t, t, B);
					BN_mod_sub(want, A, t, p, ctx);
					break;
				default:	/* P521X_T_INV: 0 (and p) to 0 */
					BN_mod(t, A, p, ctx);
					if (BN_is_zero(t))
						BN_zero(want);
					else
						ck_assert_ptr_nonnull(BN_mod_inverse(want, t, p, ctx));
					break;
				}
				R = p521x_bn(r);
				ck_assert_msg(BN_cmp(R, p) <= 0, "p521 op %u (%u, %u): result above p",
					      op, ia, ib);
				if (!BN_cmp(R, p))
					BN_zero(R);	/* p: the other form of 0 */
				ck_assert_msg(!BN_cmp(R, want), "p521 op %u (%u, %u) wrong", op, ia, ib);
				BN_free(R);
				checked++;
			}
			BN_free(A);
			BN_free(B);
		}
	}
	rt_report("p521 adx field", "ecc_p521_adx", (int)checked, 0);
out:
	BN_free(p);
	BN_free(want);
	BN_free(t);
	BN_free(two);
	BN_free(inv2);
	BN_CTX_free(ctx);
}
END_TEST
#endif

#if defined(__aarch64__) || defined(__x86_64__)
#include <rind/internal/util.h>

/* The field tests' helpers (arm64 and x86, P-256 and P-384), for n 64-bit limbs (4 or 6). */
static BIGNUM *fa_bn(const u64 *w, int n)
{
	u8 b[48];

	for (int i = 0; i < n; i++)
		put_unaligned_le64(w[i], b + 8 * i);
	return BN_lebin2bn(b, 8 * n, NULL);
}

static void fa_check(const char *drv, const char *op, const u64 *got, int n, const BIGNUM *want,
		     int *checked)
{
	u8 g[48], e[48];

	for (int i = 0; i < n; i++)
		put_unaligned_le64(got[i], g + 8 * i);
	ck_assert_int_eq(BN_bn2lebinpad(want, e, 8 * n), 8 * n);
	ck_assert_msg(!memcmp(g, e, (size_t)(8 * n)), "%s %s: wrong or unreduced value", drv, op);
	(*checked)++;
}

/*
 * An element below p: edge words (0, 1, 2^32 - 1, 2^32, 2^63, 2^64 - 2,
 * all ones, the words of the NIST primes), or one of p - 1, p - 2, 1, 0,
 * 2^(64 n) mod p, or random.
 */
static void fa_edge(u64 *w, int n, const BIGNUM *p, BN_CTX *ctx, struct rt_rng *rng)
{
	static const u64 word[] = {
		0, 1, 0xffffffffull, 0x100000000ull, 1ull << 63, 0xfffffffffffffffeull,
		0xffffffffffffffffull, 0xffffffff00000001ull, 0xffffffff00000000ull,
	};
	BIGNUM *x = BN_new();
	u8 b[48];
	u32 kind = rt_rand_range(rng, 8);

	if (kind == 0) {
		u32 k = rt_rand_range(rng, 5);

		if (k < 2) {
			BN_copy(x, p);
			BN_sub_word(x, k + 1);
		} else if (k == 4) {
			BN_zero(x);
			BN_set_bit(x, 64 * n);
			BN_nnmod(x, x, p, ctx);
		} else {
			BN_set_word(x, 3 - k);
		}
	} else {
		for (int i = 0; i < n; i++) {
			u64 v = kind < 6 ? word[rt_rand_range(rng, ARRAY_SIZE(word))] : rt_rand(rng);

			put_unaligned_le64(v, b + 8 * i);
		}
		BN_lebin2bn(b, 8 * n, x);
		BN_nnmod(x, x, p, ctx);
	}
	ck_assert_int_eq(BN_bn2lebinpad(x, b, 8 * n), 8 * n);
	for (int i = 0; i < n; i++)
		w[i] = get_unaligned_le64(b + 8 * i);
	BN_free(x);
}

/*
 * The operations the field tests share, in Montgomery form (R =
 * 2^(64 n)): a b / R, a^2 / R, a + b and a - b modulo p, which every
 * driver has; halving, the inverse (a R to a^-1 R, 0 to 0) and a b / R
 * modulo the group order n, which the x86 ones have.
 */
enum fa_op { FA_MUL, FA_SQR, FA_ADD, FA_SUB, FA_HALF, FA_INV, FA_NMUL };

struct fa_field {
	const char *drv;
	int n;			/* 64-bit limbs: 4 or 6 */
	/* r = a op b; one-operand ops leave b unused */
	void (*op)(enum fa_op op, u64 *r, const u64 *a, const u64 *b);
	bool mul_self;		/* the square through the product too (mul(a, a)) */
};

/* One field test's moduli and constants, the value it expects (w) and its count of checks. */
struct fa_mod {
	BN_CTX *ctx;
	BIGNUM *p, *n;		/* the field's prime; the group order (NULL: not tested) */
	BIGNUM *rinv, *rninv;	/* R^-1 modulo p and modulo n */
	BIGNUM *rr, *inv2;	/* R^2 and 1 / 2 modulo p */
	BIGNUM *w;
	int checked;
};

static void fa_mod_init(struct fa_mod *m, const struct fa_field *f, const char *phex,
			const char *nhex)
{
	memset(m, 0, sizeof(*m));
	m->ctx = BN_CTX_new();
	m->rinv = BN_new();
	m->rninv = BN_new();
	m->rr = BN_new();
	m->w = BN_new();
	ck_assert_int_gt(BN_hex2bn(&m->p, phex), 0);
	if (nhex)
		ck_assert_int_gt(BN_hex2bn(&m->n, nhex), 0);
	BN_zero(m->w);
	BN_set_bit(m->w, 64 * f->n);
	ck_assert_ptr_nonnull(BN_mod_inverse(m->rinv, m->w, m->p, m->ctx));
	if (nhex)
		ck_assert_ptr_nonnull(BN_mod_inverse(m->rninv, m->w, m->n, m->ctx));
	BN_mod_sqr(m->rr, m->w, m->p, m->ctx);
	BN_set_word(m->w, 2);
	m->inv2 = BN_mod_inverse(NULL, m->w, m->p, m->ctx);
	ck_assert_ptr_nonnull(m->inv2);
}

static void fa_mod_free(struct fa_mod *m)
{
	BN_free(m->p);
	BN_free(m->n);
	BN_free(m->rinv);
	BN_free(m->rninv);
	BN_free(m->rr);
	BN_free(m->inv2);
	BN_free(m->w);
	BN_CTX_free(m->ctx);
}

/* x and y edge elements below @mod (p or n), and a and b their values. */
static void fa_pair(const struct fa_field *f, struct fa_mod *m, const BIGNUM *mod,
		    struct rt_rng *rng, u64 *x, u64 *y, BIGNUM **a, BIGNUM **b)
{
	fa_edge(x, f->n, mod, m->ctx, rng);
	fa_edge(y, f->n, mod, m->ctx, rng);
	*a = fa_bn(x, f->n);
	*b = fa_bn(y, f->n);
}

/* mul, mul(a, a) where the driver is checked on it, sqr, add and sub of x = a and y = b. */
static void fa_ring_checks(const struct fa_field *f, struct fa_mod *m, const u64 *x, const u64 *y,
			   const BIGNUM *a, const BIGNUM *b)
{
	BIGNUM *w = m->w;
	u64 r[6];

	f->op(FA_MUL, r, x, y);
	BN_mod_mul(w, a, b, m->p, m->ctx);
	BN_mod_mul(w, w, m->rinv, m->p, m->ctx);
	fa_check(f->drv, "mul", r, f->n, w, &m->checked);
	BN_mod_sqr(w, a, m->p, m->ctx);
	BN_mod_mul(w, w, m->rinv, m->p, m->ctx);
	if (f->mul_self) {
		f->op(FA_MUL, r, x, x);
		fa_check(f->drv, "mul(a, a)", r, f->n, w, &m->checked);
	}
	f->op(FA_SQR, r, x, NULL);
	fa_check(f->drv, "sqr", r, f->n, w, &m->checked);
	f->op(FA_ADD, r, x, y);
	BN_mod_add(w, a, b, m->p, m->ctx);
	fa_check(f->drv, "add", r, f->n, w, &m->checked);
	f->op(FA_SUB, r, x, y);
	BN_mod_sub(w, a, b, m->p, m->ctx);
	fa_check(f->drv, "sub", r, f->n, w, &m->checked);
}

/*
 * Eight random steps from x = a, each result fed to the next in place (r
 * aliasing a and b, as the point formulas call them): one check.  Drivers
 * checked on mul(a, a) take it as a sixth of the steps, the others not.
 */
static void fa_chain(const struct fa_field *f, struct fa_mod *m, struct rt_rng *rng, const u64 *x,
		     const u64 *y, const BIGNUM *a, const BIGNUM *b)
{
	BIGNUM *w = m->w;
	u64 acc[6];

	memcpy(acc, x, 8 * (size_t)f->n);
	BN_copy(w, a);
	for (int j = 0; j < 8; j++) {
		u32 step = rt_rand_range(rng, f->mul_self ? 5 : 4);

		switch (step) {
		case 0:
			f->op(FA_MUL, acc, acc, y);
			BN_mod_mul(w, w, b, m->p, m->ctx);
			BN_mod_mul(w, w, m->rinv, m->p, m->ctx);
			break;
		case 1:
		case 4:
			if (step == 1 && f->mul_self)
				f->op(FA_MUL, acc, acc, acc);
			else
				f->op(FA_SQR, acc, acc, NULL);
			BN_mod_sqr(w, w, m->p, m->ctx);
			BN_mod_mul(w, w, m->rinv, m->p, m->ctx);
			break;
		case 2:
			f->op(FA_ADD, acc, acc, acc);
			BN_mod_add(w, w, w, m->p, m->ctx);
			break;
		default:
			f->op(FA_SUB, acc, y, acc);
			BN_mod_sub(w, b, w, m->p, m->ctx);
			break;
		}
	}
	fa_check(f->drv, "chain", acc, f->n, w, &m->checked);
}
#endif

#if defined(__x86_64__)
/* half and inv of x = a. */
static void fa_half_inv_checks(const struct fa_field *f, struct fa_mod *m, const u64 *x,
			       const BIGNUM *a)
{
	BIGNUM *w = m->w;
	u64 r[6];

	f->op(FA_HALF, r, x, NULL);
	BN_mod_mul(w, a, m->inv2, m->p, m->ctx);
	fa_check(f->drv, "half", r, f->n, w, &m->checked);
	/* the inverse in Montgomery form: x = a R gives a^-1 R = R^2 / x; 0 gives 0 */
	f->op(FA_INV, r, x, NULL);
	if (BN_is_zero(a)) {
		BN_zero(w);
	} else {
		ck_assert_ptr_nonnull(BN_mod_inverse(w, a, m->p, m->ctx));
		BN_mod_mul(w, w, m->rr, m->p, m->ctx);
	}
	fa_check(f->drv, "inv", r, f->n, w, &m->checked);
}

/* Modulo n: x and y below n from the same edge words (a, b their values), and nmul of them. */
static void fa_nmul_pair(const struct fa_field *f, struct fa_mod *m, struct rt_rng *rng, u64 *x,
			 u64 *y, BIGNUM **a, BIGNUM **b)
{
	u64 r[6];

	fa_pair(f, m, m->n, rng, x, y, a, b);
	f->op(FA_NMUL, r, x, y);
	BN_mod_mul(m->w, *a, *b, m->n, m->ctx);
	BN_mod_mul(m->w, m->w, m->rninv, m->n, m->ctx);
	fa_check(f->drv, "nmul", r, f->n, m->w, &m->checked);
}

/*
 * The point formulas in BIGNUM, for the x86 drivers' own: the doubling
 * X' = M^2 - 2S, Y' = M (S - X') - 8Y^4, Z' = 2YZ with
 * M = 3 (X - Z^2)(X + Z^2), S = 4XY^2; the addition U1 = X1 Z2^2,
 * U2 = X2 Z1^2, S1 = Y1 Z2^3, S2 = Y2 Z1^3, H = U2 - U1, R = S2 - S1,
 * X3 = R^2 - H^3 - 2 U1 H^2, Y3 = R (U1 H^2 - X3) - S1 H^3, Z3 = Z1 Z2 H
 * (the mixed one, madd-2007-bl, with Z2 = 1).  The coordinates are built
 * from the edge words, not necessarily points: the formulas are
 * identities of polynomials.
 */
static void fa_ref_dbl(BIGNUM **e, BIGNUM *const *c, const BIGNUM *p, BN_CTX *ctx)
{
	BIGNUM *m = BN_new(), *s = BN_new(), *t = BN_new();

	BN_mod_sqr(t, c[2], p, ctx);				/* Z^2 */
	BN_mod_sub(m, c[0], t, p, ctx);
	BN_mod_add(t, c[0], t, p, ctx);
	BN_mod_mul(m, m, t, p, ctx);
	BN_mul_word(m, 3);
	BN_nnmod(m, m, p, ctx);					/* M */
	BN_mod_sqr(s, c[1], p, ctx);
	BN_mod_mul(s, s, c[0], p, ctx);
	BN_mul_word(s, 4);
	BN_nnmod(s, s, p, ctx);					/* S */
	BN_mod_sqr(e[0], m, p, ctx);
	BN_mod_sub(e[0], e[0], s, p, ctx);
	BN_mod_sub(e[0], e[0], s, p, ctx);			/* X' */
	BN_mod_sub(t, s, e[0], p, ctx);
	BN_mod_mul(e[1], m, t, p, ctx);
	BN_mod_sqr(t, c[1], p, ctx);
	BN_mod_sqr(t, t, p, ctx);
	BN_mul_word(t, 8);
	BN_nnmod(t, t, p, ctx);
	BN_mod_sub(e[1], e[1], t, p, ctx);			/* Y' */
	BN_mod_mul(e[2], c[1], c[2], p, ctx);
	BN_mod_add(e[2], e[2], e[2], p, ctx);			/* Z' */
	BN_free(m);
	BN_free(s);
	BN_free(t);
}

/* c: X1, Y1, Z1; d: X2, Y2, Z2 (NULL Z2: the mixed addition) */
static void fa_ref_add(BIGNUM **e, BIGNUM *const *c, BIGNUM *const *d, const BIGNUM *p,
		       BN_CTX *ctx)
{
	BIGNUM *u1 = BN_dup(c[0]), *s1 = BN_dup(c[1]), *u2 = BN_new(), *s2 = BN_new();
	BIGNUM *h = BN_new(), *r = BN_new(), *hh = BN_new(), *v = BN_new(), *t = BN_new();

	if (d[2]) {
		BN_mod_sqr(t, d[2], p, ctx);
		BN_mod_mul(u1, c[0], t, p, ctx);
		BN_mod_mul(t, t, d[2], p, ctx);
		BN_mod_mul(s1, c[1], t, p, ctx);
	}
	BN_mod_sqr(t, c[2], p, ctx);
	BN_mod_mul(u2, d[0], t, p, ctx);
	BN_mod_mul(t, t, c[2], p, ctx);
	BN_mod_mul(s2, d[1], t, p, ctx);
	BN_mod_sub(h, u2, u1, p, ctx);
	BN_mod_sub(r, s2, s1, p, ctx);
	BN_mod_sqr(hh, h, p, ctx);
	BN_mod_mul(v, u1, hh, p, ctx);				/* V = U1 H^2 */
	BN_mod_mul(hh, hh, h, p, ctx);				/* H^3 */
	BN_mod_sqr(e[0], r, p, ctx);
	BN_mod_sub(e[0], e[0], hh, p, ctx);
	BN_mod_sub(e[0], e[0], v, p, ctx);
	BN_mod_sub(e[0], e[0], v, p, ctx);			/* X3 */
	BN_mod_sub(t, v, e[0], p, ctx);
	BN_mod_mul(e[1], r, t, p, ctx);
	BN_mod_mul(t, s1, hh, p, ctx);
	BN_mod_sub(e[1], e[1], t, p, ctx);			/* Y3 */
	BN_mod_mul(e[2], c[2], h, p, ctx);
	if (d[2])
		BN_mod_mul(e[2], e[2], d[2], p, ctx);		/* Z3 */
	BN_free(u1);
	BN_free(s1);
	BN_free(u2);
	BN_free(s2);
	BN_free(h);
	BN_free(r);
	BN_free(hh);
	BN_free(v);
	BN_free(t);
}

/* r (three coordinates, Montgomery form) against e (plain): three checks */
static void fa_pt_check(const struct fa_field *f, struct fa_mod *m, const char *what, const u64 *r,
			BIGNUM **e)
{
	static const char *const coord[3] = { "X", "Y", "Z" };
	BIGNUM *t = BN_new();
	char name[32];

	BN_zero(t);
	BN_set_bit(t, 64 * f->n);
	for (int k = 0; k < 3; k++) {
		BN_mod_mul(e[k], e[k], t, m->p, m->ctx);	/* into Montgomery form */
		snprintf(name, sizeof(name), "%s %s", what, coord[k]);
		fa_check(f->drv, name, r + f->n * k, f->n, e[k], &m->checked);
	}
	BN_free(t);
}

/* @cnt coordinates from the edge words into @w, and their values (out of Montgomery form) in @c */
static void fa_coords(const struct fa_field *f, struct fa_mod *m, struct rt_rng *rng, u64 *w,
		      BIGNUM **c, int cnt)
{
	for (int k = 0; k < cnt; k++) {
		fa_edge(w + f->n * k, f->n, m->p, m->ctx, rng);
		c[k] = fa_bn(w + f->n * k, f->n);
		BN_mod_mul(c[k], c[k], m->rinv, m->p, m->ctx);
	}
}

static void fa_bns_new(BIGNUM **v, int cnt)
{
	for (int k = 0; k < cnt; k++)
		v[k] = BN_new();
}

static void fa_bns_free(BIGNUM **v, int cnt)
{
	for (int k = 0; k < cnt; k++)
		BN_free(v[k]);
}

/*
 * The driver's doubling @dbl of the point at @in (its plain values @c)
 * against fa_ref_dbl into @e, in place or not (r aliasing p, as the
 * scalar multiplications call it): three checks.
 */
static void fa_dbl_check(const struct fa_field *f, struct fa_mod *m, struct rt_rng *rng,
			 void (*dbl)(u64 *r, const u64 *p), const u64 *in, BIGNUM *const *c,
			 BIGNUM **e)
{
	u64 r[18];

	if (rt_rand_range(rng, 2)) {
		memcpy(r, in, 3 * 8 * (size_t)f->n);
		dbl(r, r);
	} else {
		dbl(r, in);
	}
	fa_ref_dbl(e, c, m->p, m->ctx);
	fa_pt_check(f, m, "dbl", r, e);
}
#endif

#if defined(__x86_64__)
static void p384x_op(enum fa_op op, u64 *r, const u64 *a, const u64 *b)
{
	static const enum p384x_test_op code[] = {
		[FA_MUL] = P384X_T_MUL, [FA_SQR] = P384X_T_SQR, [FA_ADD] = P384X_T_ADD,
		[FA_SUB] = P384X_T_SUB, [FA_HALF] = P384X_T_HALF, [FA_INV] = P384X_T_INV,
		[FA_NMUL] = P384X_T_NMUL,
	};

	p384x_field_test(code[op], r, a, b);
}

static const struct fa_field p384x_field = { "ecc-p384-adx", 6, p384x_op, true };

/*
 * ecc-p384-adx.c's point doubling (ECC_JAC_DBL) on X, Y, Z built from
 * the edge words, Montgomery form in and out.  Three checks.
 */
static void p384x_dbl_check(struct fa_mod *m, struct rt_rng *rng)
{
	BIGNUM *c[3], *e[3];
	u64 pt[18];

	fa_coords(&p384x_field, m, rng, pt, c, 3);
	fa_bns_new(e, 3);
	fa_dbl_check(&p384x_field, m, rng, p384x_jac_dbl_test, pt, c, e);
	fa_bns_free(c, 3);
	fa_bns_free(e, 3);
}

/* The mixed addition (ECC_JAC_ADD_AFFINE) against fa_ref_add on edge elements.  Three checks. */
static void p384x_madd_check(struct fa_mod *m, struct rt_rng *rng)
{
	BIGNUM *c[5], *e[3], *d[3];
	u64 in[30], o[18];

	fa_coords(&p384x_field, m, rng, in, c, 5);
	fa_bns_new(e, 3);
	p384x_jac_add_affine_test(o, in, in + 18, in + 24);
	d[0] = c[3];
	d[1] = c[4];
	d[2] = NULL;
	fa_ref_add(e, c, d, m->p, m->ctx);
	fa_pt_check(&p384x_field, m, "madd", o, e);
	fa_bns_free(c, 5);
	fa_bns_free(e, 3);
}

/*
 * arch/x86/ecc-p384-adx.c's field operations against OpenSSL's BIGNUM:
 * the Montgomery product (a b / 2^384 mod p) and squaring (the reduction
 * from p's form, shifts and subtractions per word; the squaring's low half
 * reduced alone, the high half added), addition, subtraction, halving,
 * the inverse (half-delta divsteps, 15 batches; 0 gives 0) and the
 * Montgomery product modulo the group order n (the general reduction),
 * each result required fully reduced; on elements built from
 * edge words (0, 1, 2^32 - 1, 2^32, 2^63, all ones, p's own words: the
 * reduction words q = t + (t << 32) at 0, all ones and their carries,
 * the borrows of q - (q << 32) and of the words above), on p - 1, p - 2,
 * 1, 0 and 2^384 mod p (the largest products, the final subtraction
 * decided by one word), then random chains fed back in place (r aliasing
 * a and b, as the point formulas call them).
 */
START_TEST(test_p384_field_adx)
{
	const struct fa_field *f = &p384x_field;
	BIGNUM *acc_bn, *w, *p, *rinv, *inv2, *a, *b;
	struct fa_mod m;
	struct rt_rng rng;
	u64 x[6], y[6], r[6], acc[6];
	BN_CTX *ctx;
	int i;

	if (!rt_cpu_has_bmi2_adx())
		return;
	fa_mod_init(&m, f, "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe"
			   "ffffffff0000000000000000ffffffff",
		    "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf"
		    "581a0db248b0a77aecec196accc52973");
	ctx = m.ctx;
	w = m.w;
	p = m.p;
	rinv = m.rinv;
	inv2 = m.inv2;
	acc_bn = BN_new();
	rt_rng_seed(&rng, 0x384adf);
	for (i = 0; i < 4000; i++) {
		fa_pair(f, &m, p, &rng, x, y, &a, &b);
		fa_ring_checks(f, &m, x, y, a, b);
		fa_half_inv_checks(f, &m, x, a);
		/* the doubling's fused steps: a - 2b, 3a, a - b / 2 */
		p384x_field_test(P384X_T_SUB2, r, x, y);
		BN_mod_sub(w, a, b, p, ctx);
		BN_mod_sub(w, w, b, p, ctx);
		fa_check(f->drv, "sub2", r, 6, w, &m.checked);
		p384x_field_test(P384X_T_MUL3, r, x, NULL);
		BN_mod_add(w, a, a, p, ctx);
		BN_mod_add(w, w, a, p, ctx);
		fa_check(f->drv, "mul3", r, 6, w, &m.checked);
		p384x_field_test(P384X_T_SUBHALF, r, x, y);
		BN_mod_mul(w, b, inv2, p, ctx);
		BN_mod_sub(w, a, w, p, ctx);
		fa_check(f->drv, "subhalf", r, 6, w, &m.checked);
		/* the steps that share one reduction: a^2 / R - 2b, a^2 / R - 3b */
		p384x_field_test(P384X_T_SQRSUB2, r, x, y);
		BN_mod_sqr(w, a, p, ctx);
		BN_mod_mul(w, w, rinv, p, ctx);
		BN_mod_sub(w, w, b, p, ctx);
		BN_mod_sub(w, w, b, p, ctx);
		fa_check(f->drv, "sqr_sub2", r, 6, w, &m.checked);
		p384x_field_test(P384X_T_SQRSUB3, r, x, y);
		BN_mod_sub(w, w, b, p, ctx);
		fa_check(f->drv, "sqr_sub3", r, 6, w, &m.checked);
		/* a b / R - (a^2 / R) / 2 and a b / R - a^2 / R */
		p384x_field_test(P384X_T_DBLY, r, x, y);
		BN_mod_mul(w, a, b, p, ctx);
		BN_mod_sqr(acc_bn, a, p, ctx);
		BN_mod_sub(w, w, acc_bn, p, ctx);
		BN_mod_mul(w, w, rinv, p, ctx);
		p384x_field_test(P384X_T_MULSUB, acc, x, y);
		fa_check(f->drv, "mulsub", acc, 6, w, &m.checked);
		BN_mod_mul(w, a, b, p, ctx);
		BN_mod_mul(acc_bn, acc_bn, inv2, p, ctx);
		BN_mod_sub(w, w, acc_bn, p, ctx);
		BN_mod_mul(w, w, rinv, p, ctx);
		fa_check(f->drv, "dbl_y", r, 6, w, &m.checked);
		p384x_dbl_check(&m, &rng);
		p384x_madd_check(&m, &rng);
		fa_chain(f, &m, &rng, x, y, a, b);
		BN_free(a);
		BN_free(b);
		fa_nmul_pair(f, &m, &rng, x, y, &a, &b);
		BN_free(a);
		BN_free(b);
	}
	printf("ecc-p384-adx field (mul, sqr, add, sub, half, inv, sub2, mul3, subhalf, sqr_sub2, "
	       "sqr_sub3, mulsub, dbl_y, point doubling, mixed addition, chains, mul mod n) vs "
	       "OpenSSL BN: %d checks\n", m.checked);
	ck_assert_int_eq(m.checked, 4000 * 22);
	BN_free(acc_bn);
	fa_mod_free(&m);
}
END_TEST
#endif

#if defined(__x86_64__)
static void p256x_op(enum fa_op op, u64 *r, const u64 *a, const u64 *b)
{
	static const enum p256x_test_op code[] = {
		[FA_MUL] = P256X_T_MUL, [FA_SQR] = P256X_T_SQR, [FA_ADD] = P256X_T_ADD,
		[FA_SUB] = P256X_T_SUB, [FA_HALF] = P256X_T_HALF, [FA_INV] = P256X_T_INV,
		[FA_NMUL] = P256X_T_NMUL,
	};

	p256x_field_test(code[op], r, a, b);
}

static const struct fa_field p256x_field = { "ecc-p256-adx", 4, p256x_op, true };

/*
 * arch/x86/ecc-p256-adx.c's point formulas against fa_ref_dbl and
 * fa_ref_add, on coordinates built from the edge words, Montgomery form
 * in and out: one doubling (in place or not), 1 .. 8 in a row, an
 * addition and a mixed addition: 12 checks.
 */
static void p256x_point_checks(struct fa_mod *m, struct rt_rng *rng)
{
	const struct fa_field *f = &p256x_field;
	BIGNUM *c[6], *e[3], *none[3];
	u64 in[24], r[12], s[12];
	int k, i, nd;

	fa_coords(f, m, rng, in, c, 6);
	fa_bns_new(e, 3);
	/* 2P */
	fa_dbl_check(f, m, rng, p256x_jac_dbl_test, in, c, e);
	/* 2^n P for n = 1 .. 8 (5: ECDH's windows), in place or not */
	nd = 1 + rt_rand_range(rng, 8);
	for (k = 0; k < 3; k++)
		BN_copy(e[k], c[k]);
	for (i = 0; i < nd; i++) {
		for (k = 0; k < 3; k++)
			none[k] = BN_dup(e[k]);
		fa_ref_dbl(e, none, m->p, m->ctx);
		fa_bns_free(none, 3);
	}
	if (rt_rand_range(rng, 2)) {
		memcpy(r, in, sizeof(r));
		p256x_jac_dbln_test(r, r, (unsigned int)nd);
	} else {
		p256x_jac_dbln_test(r, in, (unsigned int)nd);
	}
	fa_pt_check(f, m, "dbln", r, e);
	/* P + Q (Q = c[3..5]), the output over P or not */
	memcpy(s, in, sizeof(s));
	if (rt_rand_range(rng, 2)) {
		p256x_jac_add_test(s, s, in + 12);
		memcpy(r, s, sizeof(r));
	} else {
		p256x_jac_add_test(r, s, in + 12);
	}
	fa_ref_add(e, c, c + 3, m->p, m->ctx);
	fa_pt_check(f, m, "add", r, e);
	/* P + (x2, y2) */
	none[0] = c[3];
	none[1] = c[4];
	none[2] = NULL;
	memcpy(s, in, sizeof(s));
	if (rt_rand_range(rng, 2)) {
		p256x_jac_add_affine_test(s, s, in + 12);
		memcpy(r, s, sizeof(r));
	} else {
		p256x_jac_add_affine_test(r, in, in + 12);
	}
	fa_ref_add(e, c, none, m->p, m->ctx);
	fa_pt_check(f, m, "madd", r, e);
	fa_bns_free(e, 3);
	fa_bns_free(c, 6);
}

/*
 * arch/x86/ecc-p256-adx.c's field operations against OpenSSL's BIGNUM:
 * the Montgomery product and squaring modulo p (the reduction word q =
 * t0 by shifts and one MULX), addition, subtraction, halving, the
 * inverse (0 gives 0), the fused steps of the point formulas, the
 * Montgomery product modulo n, each result required fully reduced, on
 * elements built from edge words (fa_edge: p's words, 2^32 - 1, 2^63, all
 * ones, p - 1, p - 2, 2^256 mod p ...), random chains fed back in place,
 * and the point formulas above.
 */
START_TEST(test_p256_field_adx)
{
	const struct fa_field *f = &p256x_field;
	BIGNUM *w, *p, *n, *inv2, *a, *b;
	struct fa_mod m;
	struct rt_rng rng;
	u64 x[4], y[4], r[4];
	BN_CTX *ctx;
	int i;

	if (!rt_cpu_has_bmi2_adx())
		return;
	fa_mod_init(&m, f, "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
		    "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
	ctx = m.ctx;
	w = m.w;
	p = m.p;
	n = m.n;
	inv2 = m.inv2;
	rt_rng_seed(&rng, 0x256adf);
	for (i = 0; i < 3000; i++) {
		fa_pair(f, &m, p, &rng, x, y, &a, &b);
		fa_ring_checks(f, &m, x, y, a, b);
		fa_half_inv_checks(f, &m, x, a);
		/* the plain inverse (p256x_inv_mod itself; 0 gives 0) */
		p256x_field_test(P256X_T_PINV, r, x, NULL);
		if (!BN_is_zero(a))
			ck_assert_ptr_nonnull(BN_mod_inverse(w, a, p, ctx));
		fa_check(f->drv, "plain inv", r, 4, BN_is_zero(a) ? a : w, &m.checked);
		/* the point formulas' doubling and fused steps: 2b, a - b - 2b, 3 (a - b), a - b / 2 */
		p256x_field_test(P256X_T_ADD, r, y, y);		/* 2Y, 2S */
		BN_mod_add(w, b, b, p, ctx);
		fa_check(f->drv, "add(b, b)", r, 4, w, &m.checked);
		p256x_field_test(P256X_T_SUB3B, r, x, y);
		BN_mod_sub(w, a, b, p, ctx);
		BN_mod_sub(w, w, b, p, ctx);
		BN_mod_sub(w, w, b, p, ctx);
		fa_check(f->drv, "sub3b", r, 4, w, &m.checked);
		p256x_field_test(P256X_T_SUB3, r, x, y);
		BN_mod_sub(w, a, b, p, ctx);
		BN_mul_word(w, 3);
		BN_nnmod(w, w, p, ctx);
		fa_check(f->drv, "sub3", r, 4, w, &m.checked);
		p256x_field_test(P256X_T_SUBHALF, r, x, y);
		BN_mod_mul(w, b, inv2, p, ctx);
		BN_mod_sub(w, a, w, p, ctx);
		fa_check(f->drv, "subhalf", r, 4, w, &m.checked);
		p256x_point_checks(&m, &rng);
		fa_chain(f, &m, &rng, x, y, a, b);
		BN_free(a);
		BN_free(b);
		fa_nmul_pair(f, &m, &rng, x, y, &a, &b);
		/* k^-1 of signing: plain, 0 gives 0 (the edges: 0, 1, 2, n - 1, n - 2, ...) */
		p256x_field_test(P256X_T_NINV, r, x, NULL);
		if (!BN_is_zero(a))
			ck_assert_ptr_nonnull(BN_mod_inverse(w, a, n, ctx));
		fa_check(f->drv, "inv mod n", r, 4, BN_is_zero(a) ? a : w, &m.checked);
		BN_free(a);
		BN_free(b);
	}
	printf("ecc-p256-adx field (mul, sqr, add, sub, half, inv, plain inv, add(b, b), sub3b, "
	       "sub3, subhalf, doubling, runs of doublings, addition, mixed addition, chains, mul "
	       "mod n, inv mod n) vs OpenSSL BN: %d checks\n", m.checked);
	ck_assert_int_eq(m.checked, 3000 * 27);
	fa_mod_free(&m);
}
END_TEST
#endif

#if defined(__aarch64__)
#include "../arch/arm64/ecc-p256-arm64.h"
#include "../arch/arm64/ecc-p384-arm64.h"

static void p256a_op(enum fa_op op, u64 *r, const u64 *a, const u64 *b)
{
	if (op == FA_SQR)
		p256a_sqr(r, a);
	else if (op == FA_ADD)
		p256a_add(r, a, b);
	else if (op == FA_SUB)
		p256a_sub(r, a, b);
	else
		p256a_mul(r, a, b);	/* FA_MUL: the arm64 tests use no other */
}

static void p384a_op(enum fa_op op, u64 *r, const u64 *a, const u64 *b)
{
	if (op == FA_SQR)
		p384a_sqr(r, a);
	else if (op == FA_ADD)
		p384a_add(r, a, b);
	else if (op == FA_SUB)
		p384a_sub(r, a, b);
	else
		p384a_mul(r, a, b);
}

/* @iters rounds of fa_ring_checks and fa_chain on edge elements below the prime @phex. */
static void fa_arm64_run(const struct fa_field *f, const char *phex, u64 seed, int iters)
{
	struct fa_mod m;
	struct rt_rng rng;
	u64 x[6], y[6];
	BIGNUM *a, *b;

	fa_mod_init(&m, f, phex, NULL);
	rt_rng_seed(&rng, seed);
	for (int i = 0; i < iters; i++) {
		fa_pair(f, &m, m.p, &rng, x, y, &a, &b);
		fa_ring_checks(f, &m, x, y, a, b);
		fa_chain(f, &m, &rng, x, y, a, b);
		BN_free(a);
		BN_free(b);
	}
	printf("%s field (mul, sqr, add, sub, chains) vs OpenSSL BN: %d checks\n", f->drv, m.checked);
	ck_assert_int_eq(m.checked, iters * (f->mul_self ? 6 : 5));
	fa_mod_free(&m);
}

/*
 * arch/arm64/ecc-p256-arm64.h against OpenSSL's BIGNUM: Montgomery
 * multiplication and squaring (a b / 2^256 mod p), addition and
 * subtraction, each result required fully reduced (below p), on elements
 * built from words 0, 1, 2^32 - 1, 2^32, 2^63, 2^64 - 2, 2^64 - 1 and p's
 * own words, and on p - 1, p - 2, 1, 0 and 2^256 mod p, where the final
 * subtraction of p and the borrow correction are decided by a word or a
 * bit; then random chains.  The Wycheproof cases reach these only by
 * chance.
 */
START_TEST(test_p256_field_arm64)
{
	static const struct fa_field f = { "ecc-p256-arm64", 4, p256a_op, false };

	fa_arm64_run(&f, "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
		     0x256a64, 4000);
}
END_TEST

/*
 * arch/arm64/ecc-p384-arm64.h against OpenSSL's BIGNUM, as for P-256
 * above: Montgomery multiplication (a b / 2^384 mod p), squaring (both
 * p384a_sqr and the multiplication of a by itself), addition and
 * subtraction, each result
 * required fully reduced, on elements built from edge words (0, 1,
 * 2^32 - 1, 2^32, 2^63, all ones, p's own words) and on p - 1, p - 2, 1,
 * 0 and 2^384 mod p, then random chains fed back in place.
 */
START_TEST(test_p384_field_arm64)
{
	static const struct fa_field f = { "ecc-p384-arm64", 6, p384a_op, true };

	fa_arm64_run(&f, "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe"
			 "ffffffff0000000000000000ffffffff", 0x384a64, 3000);
}
END_TEST
#endif

static Suite *ecdh_suite(void)
{
	Suite *s = suite_create("ecdh");
	TCase *tc = tcase_create("ecdh");
	int nc = (int)ARRAY_SIZE(curves);

	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_wycheproof_ecpoint, 0, nc);
	tcase_add_loop_test(tc, test_wycheproof_asn, 0, nc);
	tcase_add_loop_test(tc, test_wycheproof_pem, 0, nc);
	tcase_add_loop_test(tc, test_wycheproof_webcrypto, 0, nc);
	tcase_add_loop_test(tc, test_openssl_exchanges, 0, nc);
	tcase_add_loop_test(tc, test_openssl_key_formats, 0, nc);
	tcase_add_loop_test(tc, test_bad_inputs, 0, nc);
	tcase_add_loop_test(tc, test_generic_differential, 0, nc);
#if defined(__x86_64__)
	tcase_add_test(tc, test_p256_adx_curve_edges);
	tcase_add_test(tc, test_p521_field_adx);
	tcase_add_test(tc, test_p384_field_adx);
	tcase_add_test(tc, test_p256_field_adx);
	tcase_add_loop_test(tc, test_x86_affine_ecdh_edges, 0, 2);
	tcase_add_test(tc, test_x86_drivers_registered);
#endif
#if defined(__aarch64__)
	tcase_add_test(tc, test_p256_field_arm64);
	tcase_add_test(tc, test_p384_field_arm64);
#endif
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(ecdh_suite)
