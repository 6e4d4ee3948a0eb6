// SPDX-License-Identifier: MIT
/*
 * Suite "ecdsa": the x962(ecdsa-nist-pXXX,shaYYY) (DER signatures) and
 * p1363(ecdsa-nist-pXXX,shaYYY) (r||s) sig algorithms over every
 * implementation of the curve and of the hash.
 *
 *  - Wycheproof ecdsa_secp256r1_sha256, secp256r1_sha512,
 *    secp384r1_sha256/sha384/sha512, secp521r1_sha512 verify files, DER
 *    and P1363 variants: every case (valid must verify, invalid must be
 *    refused with -EBADMSG); the public key set from the raw point, SPKI
 *    DER, PEM or JWK in turn;
 *  - differential against OpenSSL: rind's signatures verify in OpenSSL
 *    and OpenSSL's in rind, for every curve with SHA-224..SHA-512; keys
 *    exported by rind (PKCS#8, SPKI, DER and PEM) read by OpenSSL and
 *    OpenSSL's read by rind;
 *  - hedged nonces (two signatures of one message differ), key
 *    generation, and bad inputs: SHA-1 refused, r or s zero or >= n,
 *    wrong sizes, malformed or off-curve keys, missing keys, small
 *    buffers, and the bare curve algorithm refusing to sign.
 */
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <rind/sig.h>
#include "testutil.h"

struct curve {
	const char *alg;	/* "ecdsa-nist-p256" */
	const char *ossl;	/* OpenSSL group */
	const char *hash;	/* default hash */
	unsigned int nbytes;
	const char *order;
};

static const struct curve curves[] = {
	{ "ecdsa-nist-p256", "P-256", "sha256", 32,
	  "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551" },
	{ "ecdsa-nist-p384", "P-384", "sha384", 48,
	  "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf"
	  "581a0db248b0a77aecec196accc52973" },
	{ "ecdsa-nist-p521", "P-521", "sha512", 66,
	  "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
	  "fa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409" },
};

static const char *const hashes[] = { "sha224", "sha256", "sha384", "sha512" };

static struct crypto_sig *alloc_drv(const char *drv)
{
	struct crypto_sig *tfm = crypto_alloc_sig(drv, 0, 0);

	ck_assert_msg(!IS_ERR_OR_NULL(tfm), "%s: alloc failed (%ld)", drv, PTR_ERR(tfm));
	ck_assert_str_eq(crypto_sig_driver_name(tfm), drv);
	return tfm;
}

/* ---- Wycheproof ---------------------------------------------------------- */

struct wp_file {
	const char *file;
	int curve;
	const char *hash;
	bool p1363;
};

static const struct wp_file wp_files[] = {
	{ "ecdsa_secp256r1_sha256_test.json", 0, "sha256", false },
	{ "ecdsa_secp256r1_sha256_p1363_test.json", 0, "sha256", true },
	{ "ecdsa_secp256r1_sha512_test.json", 0, "sha512", false },
	{ "ecdsa_secp256r1_sha512_p1363_test.json", 0, "sha512", true },
	{ "ecdsa_secp384r1_sha256_test.json", 1, "sha256", false },
	{ "ecdsa_secp384r1_sha384_test.json", 1, "sha384", false },
	{ "ecdsa_secp384r1_sha384_p1363_test.json", 1, "sha384", true },
	{ "ecdsa_secp384r1_sha512_test.json", 1, "sha512", false },
	{ "ecdsa_secp384r1_sha512_p1363_test.json", 1, "sha512", true },
	{ "ecdsa_secp521r1_sha512_test.json", 2, "sha512", false },
	{ "ecdsa_secp521r1_sha512_p1363_test.json", 2, "sha512", true },
};

/* Set the group's public key in one of its encodings (chosen by @which). */
static void wp_set_key(const char *drv, struct crypto_sig *tfm, json_t *g, unsigned int which)
{
	json_t *jwk = json_object_get(g, "publicKeyJwk");
	size_t len;
	u8 *k;
	int err;

	switch (which % 4) {
	case 1:
		k = rt_wp_hex(g, "publicKeyDer", &len);
		break;
	case 2:
		k = (u8 *)strdup(json_string_value(json_object_get(g, "publicKeyPem")));
		len = strlen((char *)k);
		break;
	case 3:
		if (jwk) {
			k = (u8 *)json_dumps(jwk, JSON_COMPACT);
			len = strlen((char *)k);
			break;
		}
		/* fall through */
	default:
		k = rt_wp_hex(json_object_get(g, "publicKey"), "uncompressed", &len);
		break;
	}
	err = crypto_sig_set_pubkey(tfm, k, (unsigned int)len);
	ck_assert_msg(err == 0, "%s: public key (form %u) refused: %d", drv, which % 4, err);
	free(k);
}

START_TEST(test_wycheproof)
{
	const struct wp_file *f = &wp_files[_i];
	char name[CRYPTO_MAX_ALG_NAME];
	drivers_t d;
	json_t *root;
	int n, i;

	root = rt_wp_load(f->file);
	if (!root)
		return;
	snprintf(name, sizeof(name), "%s(%s,%s)", f->p1363 ? "p1363" : "x962",
		 curves[f->curve].alg, f->hash);
	n = rt_impls(name, "sig", d, RT_MAX_IMPLS);
	for (i = 0; i < n; i++) {
		struct crypto_sig *tfm = alloc_drv(d[i]);
		int ran = 0, valid = 0;
		size_t gi, ti;
		json_t *g, *t;

		json_array_foreach(json_object_get(root, "testGroups"), gi, g) {
			wp_set_key(d[i], tfm, g, (unsigned int)gi);
			json_array_foreach(json_object_get(g, "tests"), ti, t) {
				int expect = rt_wp_result(t), err;
				size_t mlen, slen;
				u8 *msg = rt_wp_hex(t, "msg", &mlen), *sig = rt_wp_hex(t, "sig", &slen);

				err = crypto_sig_verify(tfm, sig, (unsigned int)slen, msg,
							(unsigned int)mlen);
				if (expect == 1)
					ck_assert_msg(err == 0, "%s: %s tc %d: valid: %d", d[i], f->file,
						      (int)json_integer_value(json_object_get(t, "tcId")),
						      err);
				else if (expect == 0)
					ck_assert_msg(err == -EBADMSG, "%s: %s tc %d: invalid: %d",
						      d[i], f->file,
						      (int)json_integer_value(json_object_get(t, "tcId")),
						      err);
				valid += expect == 1;
				ran++;
				free(msg);
				free(sig);
			}
		}
		rt_report(f->file, d[i], ran, 0);
		ck_assert_int_gt(valid, 0);
		crypto_free_sig(tfm);
	}
	json_decref(root);
}
END_TEST

/* ---- OpenSSL ------------------------------------------------------------- */

static const EVP_MD *ossl_md(const char *h)
{
	return !strcmp(h, "sha224") ? EVP_sha224() : !strcmp(h, "sha256") ? EVP_sha256() :
	       !strcmp(h, "sha384") ? EVP_sha384() : EVP_sha512();
}

/* DER <-> r||s */
static size_t der_to_p1363(const u8 *der, size_t len, unsigned int nb, u8 *out)
{
	const unsigned char *q = der;
	ECDSA_SIG *s = d2i_ECDSA_SIG(NULL, &q, (long)len);
	const BIGNUM *r, *sv;

	ck_assert_ptr_nonnull(s);
	ECDSA_SIG_get0(s, &r, &sv);
	ck_assert_int_eq(BN_bn2binpad(r, out, (int)nb), (int)nb);
	ck_assert_int_eq(BN_bn2binpad(sv, out + nb, (int)nb), (int)nb);
	ECDSA_SIG_free(s);
	return 2 * nb;
}

static size_t p1363_to_der(const u8 *rs, unsigned int nb, u8 *out)
{
	ECDSA_SIG *s = ECDSA_SIG_new();
	unsigned char *q = out;
	int len;

	ck_assert_int_eq(ECDSA_SIG_set0(s, BN_bin2bn(rs, (int)nb, NULL),
					BN_bin2bn(rs + nb, (int)nb, NULL)), 1);
	len = i2d_ECDSA_SIG(s, &q);
	ck_assert_int_gt(len, 0);
	ECDSA_SIG_free(s);
	return (size_t)len;
}

static bool ossl_verify(EVP_PKEY *k, const char *h, const u8 *msg, size_t mlen,
			const u8 *der, size_t dlen)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	bool ok = EVP_DigestVerifyInit(c, NULL, ossl_md(h), NULL, k) == 1 &&
		  EVP_DigestVerify(c, der, dlen, msg, mlen) == 1;

	EVP_MD_CTX_free(c);
	return ok;
}

static size_t ossl_sign(EVP_PKEY *k, const char *h, const u8 *msg, size_t mlen, u8 *der)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	size_t len = 200;

	ck_assert_int_eq(EVP_DigestSignInit(c, NULL, ossl_md(h), NULL, k), 1);
	ck_assert_int_eq(EVP_DigestSign(c, der, &len, msg, mlen), 1);
	EVP_MD_CTX_free(c);
	return len;
}

/* Curve _i, every hash, both encodings: signatures both ways. */
START_TEST(test_openssl_signatures)
{
	const struct curve *c = &curves[_i];
	struct rt_rng rng;
	unsigned int h, p;

	rt_rng_seed(&rng, 0xec05a000 + (u64)_i);
	for (h = 0; h < ARRAY_SIZE(hashes); h++) {
		for (p = 0; p < 2; p++) {
			char name[CRYPTO_MAX_ALG_NAME];
			drivers_t d;
			int n, i, round;

			snprintf(name, sizeof(name), "%s(%s,%s)", p ? "p1363" : "x962", c->alg,
				 hashes[h]);
			n = rt_impls(name, "sig", d, RT_MAX_IMPLS);
			for (i = 0; i < n; i++) {
				struct crypto_sig *tfm = alloc_drv(d[i]), *vt = alloc_drv(d[i]);

				for (round = 0; round < 2; round++) {
					EVP_PKEY *o = EVP_PKEY_Q_keygen(NULL, NULL, "EC", c->ossl), *rk;
					u8 msg[100], sig[200], der[200], enc[1024], *oenc;
					size_t mlen = rt_rand_range(&rng, sizeof(msg)), dlen, olen;
					int slen, r;

					rt_fill(&rng, msg, mlen);
					/* rind signs with a fresh key; OpenSSL verifies. */
					RT_REQ_EQ(d[i], crypto_sig_generate_key(tfm), 0);
					slen = crypto_sig_sign(tfm, msg, (unsigned int)mlen, sig, sizeof(sig));
					RT_REQ(d[i], slen > 0 && (unsigned int)slen <= crypto_sig_maxsize(tfm));
					dlen = p ? p1363_to_der(sig, c->nbytes, der) : (size_t)slen;
					if (!p)
						memcpy(der, sig, dlen);
					r = crypto_sig_export_pubkey(tfm, round ? RIND_KEY_PEM :
								     RIND_KEY_SPKI_DER, enc, sizeof(enc));
					RT_REQ(d[i], r > 0);
					rk = rt_ossl_read(enc, (size_t)r, false, round);
					RT_REQ(d[i], rk != NULL);
					RT_REQ(d[i], ossl_verify(rk, hashes[h], msg, mlen, der, dlen));
					der[dlen / 2] ^= 0x10;
					RT_REQ(d[i], !ossl_verify(rk, hashes[h], msg, mlen, der, dlen));
					EVP_PKEY_free(rk);
					/* rind's private key in OpenSSL: signs for rind's public key. */
					r = crypto_sig_export_privkey(tfm, round ? RIND_KEY_PEM :
								      RIND_KEY_PKCS8_DER, enc, sizeof(enc));
					RT_REQ(d[i], r > 0);
					rk = rt_ossl_read(enc, (size_t)r, true, round);
					RT_REQ(d[i], rk != NULL);
					dlen = ossl_sign(rk, hashes[h], msg, mlen, der);
					if (p) {
						slen = (int)der_to_p1363(der, dlen, c->nbytes, sig);
					} else {
						memcpy(sig, der, dlen);
						slen = (int)dlen;
					}
					RT_REQ_EQ(d[i], crypto_sig_verify(tfm, sig, (unsigned int)slen, msg,
									  (unsigned int)mlen), 0);
					EVP_PKEY_free(rk);
					/* OpenSSL's key and signature; rind verifies with its public key. */
					oenc = rt_ossl_write(o, false, round ? RT_OSSL_PEM : RT_OSSL_DER, &olen);
					RT_REQ_EQ(d[i], crypto_sig_set_pubkey(vt, oenc, (unsigned int)olen), 0);
					free(oenc);
					dlen = ossl_sign(o, hashes[h], msg, mlen, der);
					if (p) {
						slen = (int)der_to_p1363(der, dlen, c->nbytes, sig);
					} else {
						memcpy(sig, der, dlen);
						slen = (int)dlen;
					}
					RT_REQ_EQ(d[i], crypto_sig_verify(vt, sig, (unsigned int)slen, msg,
									  (unsigned int)mlen), 0);
					RT_REQ_EQ(d[i], crypto_sig_verify(vt, sig, (unsigned int)slen, msg,
									  (unsigned int)mlen + 1), -EBADMSG);
					/* OpenSSL's private key in rind: rind signs, OpenSSL verifies. */
					oenc = rt_ossl_write(o, true, round ? RT_OSSL_PEM : RT_OSSL_DER, &olen);
					RT_REQ_EQ(d[i], crypto_sig_set_privkey(vt, oenc, (unsigned int)olen), 0);
					free(oenc);
					slen = crypto_sig_sign(vt, msg, (unsigned int)mlen, sig, sizeof(sig));
					RT_REQ(d[i], slen > 0);
					dlen = p ? p1363_to_der(sig, c->nbytes, der) : (size_t)slen;
					if (!p)
						memcpy(der, sig, dlen);
					RT_REQ(d[i], ossl_verify(o, hashes[h], msg, mlen, der, dlen));
					/* rind's re-export of OpenSSL's key is OpenSSL's own SPKI. */
					r = crypto_sig_export_pubkey(vt, RIND_KEY_SPKI_DER, enc, sizeof(enc));
					oenc = rt_ossl_write(o, false, RT_OSSL_DER, &olen);
					RT_REQ(d[i], r == (int)olen && !memcmp(enc, oenc, olen));
					free(oenc);
					EVP_PKEY_free(o);
				}
				crypto_free_sig(tfm);
				crypto_free_sig(vt);
			}
		}
	}
}
END_TEST

START_TEST(test_keys_and_bad_inputs)
{
	const struct curve *c = &curves[_i];
	unsigned int nb = c->nbytes;
	char name[CRYPTO_MAX_ALG_NAME];
	drivers_t d;
	int n, i;

	/* SHA-1 is refused. */
	snprintf(name, sizeof(name), "x962(%s,sha1)", c->alg);
	{
		struct crypto_sig *t = crypto_alloc_sig(name, 0, 0);

		ck_assert_msg(IS_ERR(t) && (PTR_ERR(t) == -EINVAL || PTR_ERR(t) == -ENOENT),
			      "%s allocated", name);
	}
	/* The bare curve algorithm holds keys but signs nothing. */
	n = rt_impls(c->alg, "sig", d, RT_MAX_IMPLS);
	for (i = 0; i < n; i++) {
		struct crypto_sig *t = alloc_drv(d[i]);
		u8 sig[200];

		RT_REQ_EQ(d[i], crypto_sig_generate_key(t), 0);
		RT_REQ(d[i], crypto_sig_sign(t, "x", 1, sig, sizeof(sig)) < 0);
		RT_REQ(d[i], crypto_sig_verify(t, sig, 64, "x", 1) < 0);
		crypto_free_sig(t);
	}

	for (int p = 0; p < 2; p++) {
		snprintf(name, sizeof(name), "%s(%s,%s)", p ? "p1363" : "x962", c->alg, c->hash);
		n = rt_impls(name, "sig", d, RT_MAX_IMPLS);
		for (i = 0; i < n; i++) {
			struct crypto_sig *t = alloc_drv(d[i]), *v = alloc_drv(d[i]);
			u8 k[66], order[66], sig[200], sig2[200], pub[200], bad[200], enc[1024];
			int slen, slen2, r, publen;

			/* No key. */
			RT_REQ_EQ(d[i], crypto_sig_sign(t, "m", 1, sig, sizeof(sig)), -ENOKEY);
			/* Private scalars out of range, wrong lengths, damaged DER. */
			memset(k, 0, nb);
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(t, k, nb), -EKEYREJECTED);
			rt_unhex(order, sizeof(order), c->order);
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(t, order, nb), -EKEYREJECTED);
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(t, k, nb - 1), -EINVAL);
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(t, "\x30\x03\x02\x01\x01", 5), -EKEYREJECTED);
			RT_REQ_EQ(d[i], crypto_sig_generate_key(t), 0);
			RT_REQ_EQ(d[i], crypto_sig_keysize(t), nb == 66 ? 521 : nb * 8);
			/* Hedged: two signatures of one message differ, both verify. */
			slen = crypto_sig_sign(t, "msg", 3, sig, sizeof(sig));
			slen2 = crypto_sig_sign(t, "msg", 3, sig2, sizeof(sig2));
			RT_REQ(d[i], slen > 0 && slen2 > 0);
			RT_REQ(d[i], slen != slen2 || memcmp(sig, sig2, (size_t)slen));
			RT_REQ_EQ(d[i], crypto_sig_verify(t, sig, (unsigned int)slen, "msg", 3), 0);
			RT_REQ_EQ(d[i], crypto_sig_verify(t, sig2, (unsigned int)slen2, "msg", 3), 0);
			/* Too small a buffer. */
			RT_REQ_EQ(d[i], crypto_sig_sign(t, "msg", 3, sig2, 8), -EINVAL);
			/* The public key alone on another tfm, raw 04||X||Y and bare X||Y. */
			publen = crypto_sig_export_pubkey(t, RIND_KEY_RAW, pub, sizeof(pub));
			RT_REQ_EQ(d[i], publen, 1 + 2 * nb);
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(v, pub, (unsigned int)publen), 0);
			RT_REQ_EQ(d[i], crypto_sig_verify(v, sig, (unsigned int)slen, "msg", 3), 0);
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(v, pub + 1, (unsigned int)publen - 1), 0);
			RT_REQ_EQ(d[i], crypto_sig_verify(v, sig, (unsigned int)slen, "msg", 3), 0);
			RT_REQ_EQ(d[i], crypto_sig_verify(v, sig, (unsigned int)slen, "msG", 3), -EBADMSG);
			RT_REQ_EQ(d[i], crypto_sig_export_privkey(v, RIND_KEY_RAW, enc, sizeof(enc)), -ENOKEY);
			/* Off-curve and malformed public keys; the old key stays. */
			memcpy(bad, pub, (size_t)publen);
			bad[publen - 1] ^= 1;
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(v, bad, (unsigned int)publen), -EKEYREJECTED);
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(v, "\x00", 1), -EKEYREJECTED);
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(v, "\x30\x03\x02\x01\x01", 5), -EKEYREJECTED);
			RT_REQ_EQ(d[i], crypto_sig_verify(v, sig, (unsigned int)slen, "msg", 3), 0);
			/* JWK round trip of the private key. */
			r = crypto_sig_export_privkey(t, RIND_KEY_JWK, enc, sizeof(enc));
			RT_REQ(d[i], r > 0);
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(v, enc, (unsigned int)r), 0);
			RT_REQ_EQ(d[i], crypto_sig_verify(v, sig, (unsigned int)slen, "msg", 3), 0);
			RT_REQ_EQ(d[i], crypto_sig_export_privkey(v, RIND_KEY_SPKI_DER, enc, sizeof(enc)),
				  -EINVAL);
			/* r or s zero, or n: refused. */
			if (p) {
				memcpy(bad, sig, (size_t)slen);
				memset(bad, 0, nb);
				RT_REQ_EQ(d[i], crypto_sig_verify(t, bad, (unsigned int)slen, "msg", 3), -EBADMSG);
				memcpy(bad, sig, (size_t)slen);
				memset(bad + nb, 0, nb);
				RT_REQ_EQ(d[i], crypto_sig_verify(t, bad, (unsigned int)slen, "msg", 3), -EBADMSG);
				memcpy(bad, order, nb);
				RT_REQ_EQ(d[i], crypto_sig_verify(t, bad, (unsigned int)slen, "msg", 3), -EBADMSG);
				RT_REQ_EQ(d[i], crypto_sig_verify(t, sig, (unsigned int)slen - 1, "msg", 3), -EBADMSG);
				RT_REQ_EQ(d[i], slen, 2 * nb);
			} else {
				RT_REQ_EQ(d[i], crypto_sig_verify(t, "\x30\x06\x02\x01\x00\x02\x01\x01", 8,
								  "msg", 3), -EBADMSG);
				RT_REQ_EQ(d[i], crypto_sig_verify(t, sig, (unsigned int)slen - 1, "msg", 3), -EBADMSG);
				memcpy(bad, sig, (size_t)slen);
				bad[slen] = 0;
				RT_REQ_EQ(d[i], crypto_sig_verify(t, bad, (unsigned int)slen + 1, "msg", 3), -EBADMSG);
			}
			crypto_free_sig(t);
			crypto_free_sig(v);
		}
	}
}
END_TEST

static Suite *ecdsa_suite(void)
{
	Suite *s = suite_create("ecdsa");
	TCase *tc = tcase_create("ecdsa");

	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_wycheproof, 0, (int)ARRAY_SIZE(wp_files));
	tcase_add_loop_test(tc, test_openssl_signatures, 0, (int)ARRAY_SIZE(curves));
	tcase_add_loop_test(tc, test_keys_and_bad_inputs, 0, (int)ARRAY_SIZE(curves));
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(ecdsa_suite)
