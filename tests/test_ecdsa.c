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
 *  - deterministic signatures of random messages under random keys equal
 *    to RFC 6979 recomputed with OpenSSL's HMAC and EC (SHA-256/384/512),
 *    x962's DER byte for byte OpenSSL's encoding of them;
 *  - hedged nonces (two signatures of one message differ), key
 *    generation, and bad inputs: SHA-1 refused, r or s zero or >= n,
 *    wrong sizes, malformed or off-curve keys, missing keys, small
 *    buffers, and the bare curve algorithm refusing to sign;
 *  - batches (crypto_sig_sign_batch) of 1..17 and 40 requests: verified by
 *    rind and OpenSSL, equal to the single path when deterministic, bad
 *    requests failing alone; the curves' sign_batch hook against ->sign().
 */
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <rind/sig.h>
#include <rind/internal/sig.h>
#include <crypto/ecc.h>
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
	return RT_ALLOC_DRV(sig, drv);
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

/* OpenSSL's signature with @k of @msg in the form the tfm takes: r||s (@p1363) or DER. */
static int ossl_sign_as(EVP_PKEY *k, const char *h, const u8 *msg, size_t mlen, bool p1363,
			unsigned int nb, u8 *sig)
{
	u8 der[200];
	size_t dlen = ossl_sign(k, h, msg, mlen, der);

	if (p1363)
		return (int)der_to_p1363(der, dlen, nb, sig);
	memcpy(sig, der, dlen);
	return (int)dlen;
}

/* A signature of the tfm (r||s if @p1363, else DER already) as DER for OpenSSL. */
static size_t sig_as_der(const u8 *sig, int slen, bool p1363, unsigned int nb, u8 *der)
{
	if (p1363)
		return p1363_to_der(sig, nb, der);
	memcpy(der, sig, (size_t)slen);
	return (size_t)slen;
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
					dlen = sig_as_der(sig, slen, p, c->nbytes, der);
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
					slen = ossl_sign_as(rk, hashes[h], msg, mlen, p, c->nbytes, sig);
					RT_REQ_EQ(d[i], crypto_sig_verify(tfm, sig, (unsigned int)slen, msg,
									  (unsigned int)mlen), 0);
					EVP_PKEY_free(rk);
					/* OpenSSL's key and signature; rind verifies with its public key. */
					oenc = rt_ossl_write(o, false, round ? RT_OSSL_PEM : RT_OSSL_DER, &olen);
					RT_REQ_EQ(d[i], crypto_sig_set_pubkey(vt, oenc, (unsigned int)olen), 0);
					free(oenc);
					slen = ossl_sign_as(o, hashes[h], msg, mlen, p, c->nbytes, sig);
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
					dlen = sig_as_der(sig, slen, p, c->nbytes, der);
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

/*
 * Every other driver of a curve against the generic one (p1363 over the
 * curve's own hash): private keys from a list of edge and random scalars
 * (1, 2, small ones, 2^k, n - 1 .. n - 4, (n +- 1) / 2, random, bytes
 * repeated below n: 0xff.., 0xaa.., 0x55.., ...) give the
 * same public key; signatures of each verify under the other; and
 * signatures made here with fixed nonces (k = 1, 2, 3, n - 1, n - 2, a
 * random k; r = x(kG) mod n, s = k^-1 (e + r d) mod n with OpenSSL's
 * bignums) verify under both, and fail under both once tampered with.
 * Random and edge (r, s) pairs get the same verdict from both.
 */

/* Scalars 20 .. DIFF_RANDOM_END - 1 are random, the last ones byte patterns. */
#define DIFF_RANDOM_END 30
#define DIFF_KEYS 38

/*
 * r = x(k G) mod n and s = k^-1 (e + r d) mod n with OpenSSL's EC and
 * BIGNUM code, for the signatures made here with a chosen nonce; e may
 * exceed n (the addition reduces it).
 */
static void bn_sign_with_k(const EC_GROUP *g, const BIGNUM *k, const BIGNUM *d, const BIGNUM *e,
			   BIGNUM *r, BIGNUM *s, BN_CTX *bc)
{
	const BIGNUM *n = EC_GROUP_get0_order(g);
	EC_POINT *kg = EC_POINT_new(g);
	BIGNUM *x = BN_new(), *t = BN_new();

	ck_assert(kg && x && t);
	ck_assert(EC_POINT_mul(g, kg, k, NULL, NULL, bc));
	ck_assert(EC_POINT_get_affine_coordinates(g, kg, x, NULL, bc));
	ck_assert(BN_nnmod(r, x, n, bc));
	ck_assert(BN_mod_mul(t, r, d, n, bc));
	ck_assert(BN_mod_add(t, t, e, n, bc));
	ck_assert_ptr_nonnull(BN_mod_inverse(s, k, n, bc));
	ck_assert(BN_mod_mul(s, s, t, n, bc));
	BN_free(x);
	BN_free(t);
	EC_POINT_free(kg);
}

/*
 * (r, s) = p1363 signature of the digest @dg under the private key @d
 * with the nonce @k: 0 if r or s is zero (no signature).
 */
static int diff_sign_fixed(const struct curve *c, const u8 *d, const u8 *k, const u8 *dg,
			   unsigned int dglen, u8 *rs)
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(EC_curve_nist2nid(c->ossl));
	BN_CTX *bc = BN_CTX_new();
	BIGNUM *bk = BN_bin2bn(k, (int)c->nbytes, NULL), *bd = BN_bin2bn(d, (int)c->nbytes, NULL);
	BIGNUM *e = BN_bin2bn(dg, (int)dglen, NULL), *r = BN_new(), *sv = BN_new();
	int ok;

	ck_assert(g && bc && bk && bd && e && r && sv);
	bn_sign_with_k(g, bk, bd, e, r, sv, bc);
	ok = !BN_is_zero(r) && !BN_is_zero(sv);
	ck_assert(BN_bn2binpad(r, rs, (int)c->nbytes) == (int)c->nbytes);
	ck_assert(BN_bn2binpad(sv, rs + c->nbytes, (int)c->nbytes) == (int)c->nbytes);
	BN_free(bk);
	BN_free(bd);
	BN_free(e);
	BN_free(r);
	BN_free(sv);
	BN_CTX_free(bc);
	EC_GROUP_free(g);
	return ok;
}

START_TEST(test_generic_differential)
{
	const struct curve *c = &curves[_i];
	unsigned int nb = c->nbytes, j, t;
	char name[CRYPTO_MAX_ALG_NAME], gpart[CRYPTO_MAX_ALG_NAME];
	const char *ref = NULL;
	drivers_t d;
	int n, i, ran;
	u8 order[66];

	rt_unhex(order, sizeof(order), c->order);
	snprintf(name, sizeof(name), "p1363(%s,%s)", c->alg, c->hash);
	snprintf(gpart, sizeof(gpart), "(%s-generic,", c->alg);
	n = rt_impls(name, "sig", d, RT_MAX_IMPLS);
	for (i = 0; i < n && !ref; i++)
		if (strstr(d[i], gpart))
			ref = d[i];
	ck_assert_msg(ref != NULL, "%s: no generic driver", name);
	for (i = 0; i < n; i++) {
		struct crypto_sig *sg, *sd, *vg, *vd;
		struct rt_rng rng;
		const EVP_MD *md = EVP_get_digestbyname(c->hash);

		if (strstr(d[i], gpart))
			continue;
		sg = alloc_drv(ref);
		sd = alloc_drv(d[i]);
		vg = alloc_drv(ref);
		vd = alloc_drv(d[i]);
		rt_rng_seed(&rng, 0xd1ff384 + (u64)_i);
		ran = 0;
		for (j = 0; j < DIFF_KEYS; j++) {
			u8 key[66], k[66], pg[200], pd[200], msg[64], dg[64], sig[200], sig2[200];
			unsigned int dglen;
			int lg, ld, slen;

			rt_edge_scalar(key, j, order, nb, DIFF_RANDOM_END, &rng);
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(sg, key, nb), 0);
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(sd, key, nb), 0);
			lg = crypto_sig_export_pubkey(sg, RIND_KEY_RAW, pg, sizeof(pg));
			ld = crypto_sig_export_pubkey(sd, RIND_KEY_RAW, pd, sizeof(pd));
			RT_REQ(d[i], lg > 0 && lg == ld);
			ck_assert_msg(!memcmp(pg, pd, (size_t)lg), "%s: public key of %s differs",
				      d[i], rt_hex(key, nb));
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(vg, pg, (unsigned int)lg), 0);
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(vd, pg, (unsigned int)lg), 0);
			rt_fill(&rng, msg, sizeof(msg));
			ck_assert(EVP_Digest(msg, sizeof(msg), dg, &dglen, md, NULL));

			/* hedged signatures of each, verified by the other */
			slen = crypto_sig_sign(sd, msg, sizeof(msg), sig, sizeof(sig));
			RT_REQ_EQ(d[i], slen, 2 * nb);
			RT_REQ_EQ(d[i], crypto_sig_verify(vg, sig, (unsigned int)slen, msg, sizeof(msg)), 0);
			RT_REQ_EQ(d[i], crypto_sig_verify(vd, sig, (unsigned int)slen, msg, sizeof(msg)), 0);
			slen = crypto_sig_sign(sg, msg, sizeof(msg), sig, sizeof(sig));
			RT_REQ_EQ(d[i], slen, 2 * nb);
			RT_REQ_EQ(d[i], crypto_sig_verify(vd, sig, (unsigned int)slen, msg, sizeof(msg)), 0);

			/* fixed nonces */
			for (t = 0; t < 6; t++) {
				static const unsigned int kidx[6] = { 0, 1, 2, 8, 9, 20 };
				int eg, ed;

				rt_edge_scalar(k, kidx[t], order, nb, DIFF_RANDOM_END, &rng);
				if (!diff_sign_fixed(c, key, k, dg, dglen, sig))
					continue;
				RT_REQ_EQ(d[i], crypto_sig_verify(vg, sig, 2 * nb, msg, sizeof(msg)), 0);
				RT_REQ_EQ(d[i], crypto_sig_verify(vd, sig, 2 * nb, msg, sizeof(msg)), 0);
				memcpy(sig2, sig, 2 * nb);
				sig2[2 * nb - 1 - rt_rand_range(&rng, nb)] ^= 1;	/* s */
				eg = crypto_sig_verify(vg, sig2, 2 * nb, msg, sizeof(msg));
				ed = crypto_sig_verify(vd, sig2, 2 * nb, msg, sizeof(msg));
				RT_REQ_EQ(d[i], eg, -EBADMSG);
				RT_REQ_EQ(d[i], ed, eg);
				ran++;
			}
			/* edge and random (r, s): the same verdict */
			for (t = 0; t < 4; t++) {
				int eg, ed;

				rt_edge_scalar(sig, t == 3 ? 20 : t * 8, order, nb, DIFF_RANDOM_END,
					       &rng);
				rt_edge_scalar(sig + nb, t == 3 ? 21 : 8 + t, order, nb,
					       DIFF_RANDOM_END, &rng);
				eg = crypto_sig_verify(vg, sig, 2 * nb, msg, sizeof(msg));
				ed = crypto_sig_verify(vd, sig, 2 * nb, msg, sizeof(msg));
				RT_REQ_EQ(d[i], ed, eg);
			}
			ran++;
		}
		crypto_free_sig(vd);
		crypto_free_sig(vg);
		crypto_free_sig(sd);
		crypto_free_sig(sg);
		rt_report("generic differential", d[i], ran, 0);
	}
}
END_TEST

/* ---- batches ------------------------------------------------------------- */

/*
 * crypto_sig_sign_batch over every driver of x962/p1363(curve _i, its
 * hash): batch sizes 1..17 (p1363: 1, 2, 3, 8, 17) of messages of mixed
 * lengths (0 to 300 bytes, equal runs and odd ones), hedged and
 * deterministic, then 40 requests
 * (more than one chunk of the curve's sign_batch).  Every signature
 * verifies in rind, every hedged one in OpenSSL too; deterministic ones
 * are byte for byte the single path's (crypto_sig_sign, itself checked
 * against OpenSSL and RFC 6979 elsewhere); two hedged batches of the same
 * messages differ.  Bad requests inside a batch (no output buffer, a
 * message pointer missing, a buffer too small) fail alone with -EINVAL
 * and leave the others' signatures as the single path makes them; a tfm
 * with only a public key fails every request with -ENOKEY.
 */
#define BATCH_TOP	17
#define BATCH_BIG	40

static void batch_msgs(struct rt_rng *rng, u8 (*msg)[300], unsigned int *len, unsigned int n)
{
	unsigned int j;

	for (j = 0; j < n; j++) {
		/* runs of equal lengths, odd ones, the empty message */
		len[j] = j % 5 == 4 ? 0 : j % 3 ? (unsigned int)rt_rand_range(rng, 300) : 64;
		rt_fill(rng, msg[j], len[j]);
	}
}

static void batch_set(struct sig_request *reqs, u8 (*msg)[300], const unsigned int *len,
		      u8 (*sig)[160], unsigned int n)
{
	unsigned int j;

	for (j = 0; j < n; j++)
		reqs[j] = (struct sig_request){ msg[j], len[j], sig[j], 160, 1 };
}

/*
 * Each request signed, and verified by rind (@vt) and, when @ok (the
 * public key) is given, by OpenSSL.
 */
static void batch_verify(const char *drv, const struct curve *c, bool p1363,
			 struct crypto_sig *vt, EVP_PKEY *ok, const struct sig_request *reqs,
			 unsigned int n)
{
	unsigned int j;
	u8 der[200];

	for (j = 0; j < n; j++) {
		size_t dlen = reqs[j].siglen;

		RT_REQ_EQ(drv, reqs[j].err, 0);
		RT_REQ(drv, reqs[j].siglen > 0 && reqs[j].siglen <= crypto_sig_maxsize(vt));
		RT_REQ_EQ(drv, crypto_sig_verify(vt, reqs[j].sig, reqs[j].siglen, reqs[j].msg,
						 reqs[j].msglen), 0);
		if (p1363)
			RT_REQ_EQ(drv, reqs[j].siglen, 2 * c->nbytes);
		if (!ok)
			continue;
		if (p1363) {
			dlen = p1363_to_der(reqs[j].sig, c->nbytes, der);
		} else {
			memcpy(der, reqs[j].sig, dlen);
		}
		RT_REQ(drv, ossl_verify(ok, c->hash, reqs[j].msg, reqs[j].msglen, der, dlen));
	}
}

/* Deterministic batch == the single path, request by request. */
static void batch_vs_single(const char *drv, struct crypto_sig *dt, const struct sig_request *reqs,
			    unsigned int n)
{
	unsigned int j;
	u8 one[160];

	for (j = 0; j < n; j++) {
		int len = crypto_sig_sign(dt, reqs[j].msg, reqs[j].msglen, one, sizeof(one));

		RT_REQ(drv, len > 0);
		RT_REQ_EQ(drv, reqs[j].siglen, len);
		ck_assert_msg(!memcmp(reqs[j].sig, one, (size_t)len),
			      "%s: batch signature %u differs from the single one", drv, j);
	}
}

START_TEST(test_sign_batch)
{
	const struct curve *c = &curves[_i];
	static u8 msg[BATCH_BIG][300], sig[BATCH_BIG][160], sig2[BATCH_BIG][160];
	static struct sig_request reqs[BATCH_BIG], reqs2[BATCH_BIG];
	unsigned int len[BATCH_BIG];
	struct rt_rng rng;

	rt_rng_seed(&rng, 0xba7c4000 + (u64)_i);
	for (int p = 0; p < 2; p++) {
		char name[CRYPTO_MAX_ALG_NAME];
		drivers_t d;
		int n, i;

		snprintf(name, sizeof(name), "%s(%s,%s)", p ? "p1363" : "x962", c->alg, c->hash);
		n = rt_impls(name, "sig", d, RT_MAX_IMPLS);
		for (i = 0; i < n; i++) {
			struct crypto_sig *t = alloc_drv(d[i]), *dt = alloc_drv(d[i]), *v = alloc_drv(d[i]);
			u8 enc[1024];
			unsigned int b, j, diff, ran = BATCH_BIG;
			EVP_PKEY *ok;
			int r;

			/* the instance has the batch entry (the shared inversions) */
			RT_REQ(d[i], crypto_sig_alg(t)->sign_batch != NULL);
			/*
			 * ... which signs one after another (one lane at every
			 * size), or, over the IFMA curve driver, in eight lanes
			 * from five requests on (arch/x86/ecc-p256-ifma-mb.c: MB_MIN)
			 */
			/* no key yet: nothing would run in lanes (struct sig_alg.batch_width) */
			RT_REQ_EQ(d[i], crypto_sig_batch_lanes(t, 1), 1);
			RT_REQ_EQ(d[i], crypto_sig_batch_lanes(t, 4), 1);
			RT_REQ_EQ(d[i], crypto_sig_batch_lanes(t, BATCH_BIG), 1);
			RT_REQ_EQ(d[i], crypto_sig_generate_key(t), 0);
			if (strstr(d[i], "-avx512ifma-mb")) {
				RT_REQ_EQ(d[i], crypto_sig_batch_lanes(t, 1), 1);
				RT_REQ_EQ(d[i], crypto_sig_batch_lanes(t, 4), 1);
				RT_REQ_EQ(d[i], crypto_sig_batch_lanes(t, 5), 8);
				RT_REQ_EQ(d[i], crypto_sig_batch_lanes(t, BATCH_BIG), 8);
			} else {
				RT_REQ_EQ(d[i], crypto_sig_batch_lanes(t, 1), 1);
				RT_REQ_EQ(d[i], crypto_sig_batch_lanes(t, BATCH_BIG), 1);
			}
			/* the instance has its curve driver's lanes, and a per-tfm answer */
			RT_REQ(d[i], crypto_sig_alg(t)->batch_width != NULL);
			{
				char cname[CRYPTO_MAX_ALG_NAME];
				const char *o = strchr(d[i], '('), *e = o ? strchr(o, ',') : NULL;
				struct crypto_sig *cv;

				RT_REQ(d[i], o && e && (size_t)(e - o - 1) < sizeof(cname));
				snprintf(cname, sizeof(cname), "%.*s", (int)(e - o - 1), o + 1);
				cv = alloc_drv(cname);
				RT_REQ_EQ(d[i], crypto_sig_alg(t)->batch_lanes, crypto_sig_alg(cv)->batch_lanes);
				RT_REQ_EQ(d[i], crypto_sig_alg(t)->batch_min, crypto_sig_alg(cv)->batch_min);
				crypto_free_sig(cv);
			}
			r = crypto_sig_export_privkey(t, RIND_KEY_RAW, enc, sizeof(enc));
			RT_REQ_EQ(d[i], r, c->nbytes);
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(dt, enc, (unsigned int)r), 0);
			RT_REQ_EQ(d[i], rind_sig_set_deterministic(dt, true), 0);
			r = crypto_sig_export_pubkey(t, RIND_KEY_SPKI_DER, enc, sizeof(enc));
			RT_REQ(d[i], r > 0);
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(v, enc, (unsigned int)r), 0);
			ok = rt_ossl_read(enc, (size_t)r, false, false);
			RT_REQ(d[i], ok != NULL);

			for (b = 1; b <= BATCH_TOP; b++) {
				/* p1363 differs only in the encoding: fewer sizes */
				if (p && b != 1 && b != 2 && b != 3 && b != 8 && b != BATCH_TOP)
					continue;
				batch_msgs(&rng, msg, len, b);
				/* hedged */
				batch_set(reqs, msg, len, sig, b);
				RT_REQ_EQ(d[i], crypto_sig_sign_batch(t, reqs, b), 0);
				batch_verify(d[i], c, p, v, ok, reqs, b);
				/* the same messages again: other nonces */
				if (b <= 4) {
					batch_set(reqs2, msg, len, sig2, b);
					RT_REQ_EQ(d[i], crypto_sig_sign_batch(t, reqs2, b), 0);
					for (j = 0, diff = 0; j < b; j++)
						diff += reqs[j].siglen != reqs2[j].siglen ||
							memcmp(sig[j], sig2[j], reqs[j].siglen);
					RT_REQ_EQ(d[i], diff, b);
				}
				/* deterministic: the single path's bytes */
				batch_set(reqs, msg, len, sig, b);
				RT_REQ_EQ(d[i], crypto_sig_sign_batch(dt, reqs, b), 0);
				batch_verify(d[i], c, p, v, NULL, reqs, b);
				batch_vs_single(d[i], dt, reqs, b);
				ran += b;
			}
			/* more than one chunk */
			batch_msgs(&rng, msg, len, BATCH_BIG);
			batch_set(reqs, msg, len, sig, BATCH_BIG);
			RT_REQ_EQ(d[i], crypto_sig_sign_batch(dt, reqs, BATCH_BIG), 0);
			batch_verify(d[i], c, p, v, NULL, reqs, BATCH_BIG);
			batch_vs_single(d[i], dt, reqs, BATCH_BIG);

			/* bad requests fail alone */
			batch_set(reqs, msg, len, sig, 11);
			reqs[2].sig = NULL;
			reqs[5].msg = NULL;
			reqs[5].msglen = 7;
			reqs[8].siglen = 8;
			RT_REQ_EQ(d[i], crypto_sig_sign_batch(dt, reqs, 11), -EINVAL);
			RT_REQ_EQ(d[i], reqs[2].err, -EINVAL);
			RT_REQ_EQ(d[i], reqs[5].err, -EINVAL);
			RT_REQ_EQ(d[i], reqs[8].err, -EINVAL);
			RT_REQ_EQ(d[i], reqs[8].siglen, 8);
			for (j = 0; j < 11; j++)
				if (j != 2 && j != 5 && j != 8) {
					RT_REQ_EQ(d[i], reqs[j].err, 0);
					batch_vs_single(d[i], dt, &reqs[j], 1);
				}
			/* a public key only: every request -ENOKEY */
			batch_set(reqs, msg, len, sig, 5);
			RT_REQ_EQ(d[i], crypto_sig_sign_batch(v, reqs, 5), -ENOKEY);
			for (j = 0; j < 5; j++)
				RT_REQ_EQ(d[i], reqs[j].err, -ENOKEY);
			RT_REQ_EQ(d[i], crypto_sig_sign_batch(v, reqs, 0), 0);

			EVP_PKEY_free(ok);
			crypto_free_sig(t);
			crypto_free_sig(dt);
			crypto_free_sig(v);
			rt_report("sign batch", d[i], (int)ran, 0);
		}
	}
}
END_TEST

/*
 * The curve hook itself, on every implementation of curve _i (the bare
 * "ecdsa-nist-pXXX-*" drivers): sign_batch over edge and random nonces
 * (k = 1..8, n - 1 .. n - 4, (n +- 1) / 2, powers of two, byte patterns,
 * random), in batches of 1, 2, 4, 7, 8, 9, 12, 13, 17 and
 * ECC_SIGN_BATCH_MAX, gives the r
 * and s of ->sign() for each; an e chosen to make one s zero
 * (e = -r d mod n) flags that signature alone with -EAGAIN.
 */
START_TEST(test_sign_batch_hook)
{
	const struct curve *c = &curves[_i];
	/* 4, 8, 9, 12, 17: the IFMA driver's partial and whole passes and tails */
	static const unsigned int sizes[] = { 1, 2, 4, 7, 8, 9, 12, 13, 17, ECC_SIGN_BATCH_MAX };
	static u8 k[ECC_SIGN_BATCH_MAX * 66], e[ECC_SIGN_BATCH_MAX * 66];
	static u8 r[ECC_SIGN_BATCH_MAX * 66], s[ECC_SIGN_BATCH_MAX * 66];
	unsigned int nb = c->nbytes, z, j, next = 0;
	int errs[ECC_SIGN_BATCH_MAX];
	struct rt_rng rng;
	u8 order[66], dkey[66];
	drivers_t d;
	int n, i;

	rt_unhex(order, sizeof(order), c->order);
	rt_rng_seed(&rng, 0xba7c4100 + (u64)_i);
	n = rt_impls(c->alg, "sig", d, RT_MAX_IMPLS);
	for (i = 0; i < n; i++) {
		struct crypto_sig *t = alloc_drv(d[i]);
		const struct ecc_curve *ec =
			container_of(crypto_sig_alg(t), struct ecdsa_driver, alg)->curve;
		unsigned int ran = 0;

		RT_REQ(d[i], ec->sign_batch != NULL);
		RT_REQ_EQ(d[i], ec->nbytes, nb);
		for (z = 0; z < ARRAY_SIZE(sizes); z++) {
			unsigned int m = sizes[z];
			u8 r1[66], s1[66];

			rt_edge_scalar(dkey, 20 + z, order, nb, DIFF_RANDOM_END, &rng);
			for (j = 0; j < m; j++) {
				rt_edge_scalar(k + j * nb, next++ % DIFF_KEYS, order, nb,
					       DIFF_RANDOM_END, &rng);
				rt_fill(&rng, e + j * nb, nb);
				if (nb == 66)
					e[j * nb] &= 1;
			}
			if (m >= 7) {
				/* s_3 = 0: e_3 = -r_3 d mod n */
				BN_CTX *bc = BN_CTX_new();
				BIGNUM *bn = BN_bin2bn(order, (int)nb, NULL), *br, *bd, *be = BN_new();

				RT_REQ_EQ(d[i], ec->sign(r1, s1, dkey, k + 3 * nb, e + 3 * nb), 0);
				br = BN_bin2bn(r1, (int)nb, NULL);
				bd = BN_bin2bn(dkey, (int)nb, NULL);
				ck_assert(bc && bn && br && bd && be);
				ck_assert(BN_mod_mul(be, br, bd, bn, bc));
				ck_assert(BN_mod_sub(be, bn, be, bn, bc));
				ck_assert(BN_bn2binpad(be, e + 3 * nb, (int)nb) == (int)nb);
				BN_free(bn);
				BN_free(br);
				BN_free(bd);
				BN_free(be);
				BN_CTX_free(bc);
			}
			memset(errs, 0x55, sizeof(errs));
			ec->sign_batch(r, s, dkey, k, e, m, errs);
			for (j = 0; j < m; j++) {
				int e1 = ec->sign(r1, s1, dkey, k + j * nb, e + j * nb);

				RT_REQ_EQ(d[i], errs[j], e1);
				RT_REQ_EQ(d[i], e1, m >= 7 && j == 3 ? -EAGAIN : 0);
				if (!e1) {
					rt_check_eq(d[i], "batch r", r + j * nb, r1, nb);
					rt_check_eq(d[i], "batch s", s + j * nb, s1, nb);
				}
				ran++;
			}
		}
		rt_report("sign_batch hook", d[i], (int)ran, 0);
		crypto_free_sig(t);
	}
}
END_TEST
#if defined(__x86_64__)
/*
 * The eight-lane IFMA batch signer (arch/x86/ecc-p256-ifma-mb.c), where it
 * registers: on a CPU with AVX512F, AVX512IFMA, BMI2 and ADX, or in the
 * emulation build with RIND_EMU_ASSUME=avx512 (make check-avx512-emu),
 * nothing disabled.  The P-256 instances must be built over it (priority
 * above the ADX driver's) and report eight lanes from five requests on (MB_MIN);
 * batches of 1..17 messages of mixed lengths, hedged, verify with the
 * generic driver and with OpenSSL, and deterministic ones are byte for
 * byte the generic driver's single signatures -- an implementation that
 * shares no code with the lanes nor with the ADX path they fall back to.
 */
START_TEST(test_p256_ifma_mb)
{
	static u8 msg[BATCH_TOP][300], sig[BATCH_TOP][160];
	static struct sig_request reqs[BATCH_TOP];
	static const char *const names[] = {
		"x962(ecdsa-nist-p256,sha256)", "p1363(ecdsa-nist-p256,sha256)",
	};
	const char *dis = getenv("RIND_DISABLE");
	unsigned int len[BATCH_TOP], b, j, p, ran = 0;
	struct rt_rng rng;

	if (!rind_cpu_has(RIND_X86_AVX512F) || !rind_cpu_has(RIND_X86_AVX512IFMA) ||
	    !rind_cpu_has(RIND_X86_BMI2) || !rind_cpu_has(RIND_X86_ADX) || (dis && *dis))
		return;
	rt_rng_seed(&rng, 0xba7c4200);
	for (p = 0; p < ARRAY_SIZE(names); p++) {
		char gname[CRYPTO_MAX_ALG_NAME];
		struct crypto_sig *t = crypto_alloc_sig(names[p], 0, 0), *dt, *g, *gd;
		const char *drv;
		u8 enc[1024], one[160];
		EVP_PKEY *ok;
		int r;

		ran = 0;
		ck_assert_msg(!IS_ERR_OR_NULL(t), "%s: not there", names[p]);
		drv = crypto_sig_driver_name(t);
		ck_assert_msg(strstr(drv, "(ecdsa-nist-p256-avx512ifma-mb,") != NULL,
			      "%s: over %s, not the IFMA batch driver", names[p], drv);
		/* no key yet: 1; with the key, eight lanes from five requests on (MB_MIN) */
		RT_REQ_EQ(drv, crypto_sig_batch_lanes(t, 3), 1);
		RT_REQ_EQ(drv, crypto_sig_batch_lanes(t, 8), 1);
		snprintf(gname, sizeof(gname), "%s(ecdsa-nist-p256-generic,sha256-generic)",
			 p ? "p1363" : "x962");
		dt = alloc_drv(drv);
		g = alloc_drv(gname);
		gd = alloc_drv(gname);
		RT_REQ_EQ(drv, crypto_sig_generate_key(t), 0);
		RT_REQ_EQ(drv, crypto_sig_batch_lanes(t, 4), 1);
		RT_REQ_EQ(drv, crypto_sig_batch_lanes(t, 5), 8);
		RT_REQ_EQ(drv, crypto_sig_batch_lanes(t, 8), 8);
		r = crypto_sig_export_privkey(t, RIND_KEY_RAW, enc, sizeof(enc));
		RT_REQ_EQ(drv, r, 32);
		RT_REQ_EQ(drv, crypto_sig_set_privkey(dt, enc, (unsigned int)r), 0);
		RT_REQ_EQ(drv, crypto_sig_set_privkey(gd, enc, (unsigned int)r), 0);
		RT_REQ_EQ(drv, rind_sig_set_deterministic(dt, true), 0);
		RT_REQ_EQ(drv, rind_sig_set_deterministic(gd, true), 0);
		r = crypto_sig_export_pubkey(t, RIND_KEY_SPKI_DER, enc, sizeof(enc));
		RT_REQ(drv, r > 0);
		RT_REQ_EQ(drv, crypto_sig_set_pubkey(g, enc, (unsigned int)r), 0);
		ok = rt_ossl_read(enc, (size_t)r, false, false);
		RT_REQ(drv, ok != NULL);
		for (b = 1; b <= BATCH_TOP; b++) {
			batch_msgs(&rng, msg, len, b);
			/* hedged: the generic verifier and OpenSSL */
			batch_set(reqs, msg, len, sig, b);
			RT_REQ_EQ(drv, crypto_sig_sign_batch(t, reqs, b), 0);
			batch_verify(drv, &curves[0], p, g, ok, reqs, b);
			/* deterministic: the generic driver's single signatures */
			batch_set(reqs, msg, len, sig, b);
			RT_REQ_EQ(drv, crypto_sig_sign_batch(dt, reqs, b), 0);
			for (j = 0; j < b; j++) {
				r = crypto_sig_sign(gd, reqs[j].msg, reqs[j].msglen, one, sizeof(one));
				RT_REQ(drv, r > 0);
				RT_REQ_EQ(drv, reqs[j].err, 0);
				RT_REQ_EQ(drv, reqs[j].siglen, r);
				ck_assert_msg(!memcmp(reqs[j].sig, one, (size_t)r),
					      "%s: batch of %u: signature %u is not the generic one",
					      drv, b, j);
			}
			ran += 2 * b;
		}
		EVP_PKEY_free(ok);
		crypto_free_sig(t);
		crypto_free_sig(dt);
		crypto_free_sig(g);
		crypto_free_sig(gd);
		rt_report("ifma-mb batch vs generic and OpenSSL", drv, (int)ran, 0);
	}
}
END_TEST
#endif

/* ---- the x86 P-256 curve code against the generic one ------------------- */

#if defined(__x86_64__)
#include <crypto/ecc.h>
#include "../arch/x86/ecc-p256-adx.h"

/* a = a - b (big-endian, nb bytes; a >= b) */
static void base_sub(u8 *a, const u8 *b, unsigned int nb)
{
	unsigned int i, bw = 0;

	for (i = nb; i-- > 0;) {
		unsigned int t = (unsigned int)a[i] - b[i] - bw;

		a[i] = (u8)t;
		bw = (t >> 8) & 1;
	}
}

/*
 * ecc_p256_adx's signing and verification on the curve level (the digest
 * value e chosen freely), against ecc_p256_generic: keys 1, 2, n - 1,
 * n - 2 and random ones; nonces 1, 2, 4, n - 1 and random; e = 0, 1,
 * n - 1, 2^256 - 1, random, and e = r, which with key 1 makes
 * u1 = u2 = k / 2 (u1 G and u2 Q the same point: the joint multiplication
 * meets P = Q in its additions, at its first one for k = 2) and with key
 * n - 1 makes u1 G + u2 Q the identity; e = n - r (u1 = -u2) with a
 * chosen s.  Every signature must come out equal, verify on both, and
 * fail on both once changed.
 */
START_TEST(test_p256_adx_curve_edges)
{
	static const char nhex[] = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
	const struct ecc_curve *A = &ecc_p256_adx, *G = &ecc_p256_generic;
	unsigned int kidx[] = { 0, 1, 3, 8, 20 }, didx[] = { 0, 1, 8, 9, 20, 21, 30 };
	unsigned int di, ki, ei, ran = 0, rej = 0;
	struct rt_rng rng;
	u8 n[32];

	if (!rt_cpu_has_bmi2_adx())
		return;
	rt_unhex(n, sizeof(n), nhex);
	rt_rng_seed(&rng, 0x9256adc);
	for (di = 0; di < ARRAY_SIZE(didx); di++) {
		u8 d[32], xy[64], xy2[64];

		rt_edge_scalar(d, didx[di], n, 32, DIFF_RANDOM_END, &rng);
		G->mul_base(xy, d);
		A->mul_base(xy2, d);
		ck_assert_msg(!memcmp(xy, xy2, 64), "mul_base(%s) differs", rt_hex(d, 32));
		for (ki = 0; ki < ARRAY_SIZE(kidx); ki++) {
			u8 k[32], r0[32], s0[32], e0[32] = { 0 };

			rt_edge_scalar(k, kidx[ki], n, 32, DIFF_RANDOM_END, &rng);
			ck_assert_int_eq(G->sign(r0, s0, d, k, e0), 0);	/* r of this k */
			for (ei = 0; ei < 7; ei++) {
				u8 e[32], rg[32], sg[32], ra[32], sa[32];
				int eg, ea;

				memset(e, 0, sizeof(e));
				if (ei == 1)
					e[31] = 1;
				else if (ei == 2)	/* n - 1 */
					rt_edge_scalar(e, 8, n, 32, DIFF_RANDOM_END, &rng);
				else if (ei == 3)
					memset(e, 0xff, sizeof(e));
				else if (ei == 4)
					rt_fill(&rng, e, sizeof(e));
				else if (ei == 5)
					memcpy(e, r0, sizeof(e));
				else if (ei == 6)
					memcpy(e, r0, sizeof(e)), e[31] ^= 0x10;
				eg = G->sign(rg, sg, d, k, e);
				ea = A->sign(ra, sa, d, k, e);
				ck_assert_int_eq(ea, eg);
				if (eg)
					continue;
				ck_assert_msg(!memcmp(rg, ra, 32) && !memcmp(sg, sa, 32),
					      "sign(d %s, k %s) differs", rt_hex(d, 32), rt_hex(k, 32));
				ck_assert_int_eq(G->verify(xy, e, rg, sg), 0);
				ck_assert_int_eq(A->verify(xy, e, rg, sg), 0);
				sa[31 - rt_rand_range(&rng, 32)] ^= 1;
				eg = G->verify(xy, e, rg, sa);
				ea = A->verify(xy, e, rg, sa);
				ck_assert_int_eq(eg, -EBADMSG);
				ck_assert_int_eq(ea, eg);
				e[rt_rand_range(&rng, 32)] ^= 0x80;
				eg = G->verify(xy, e, rg, sg);
				ea = A->verify(xy, e, rg, sg);
				ck_assert_int_eq(ea, eg);
				rej += eg != 0;
				ran++;
			}
			/* e = n - r: u1 = -u2 (for key 1 the identity), any s */
			{
				u8 e[32], sv[32];

				memcpy(e, n, sizeof(e));
				base_sub(e, r0, sizeof(e));
				rt_fill(&rng, sv, sizeof(sv));
				sv[0] &= 0x7f;
				ck_assert_int_eq(A->verify(xy, e, r0, sv), G->verify(xy, e, r0, sv));
				ck_assert_int_eq(A->verify(xy, e, r0, r0), G->verify(xy, e, r0, r0));
			}
		}
	}
	ck_assert_uint_gt(ran, 150);
	ck_assert_uint_eq(rej, ran);		/* a changed e never verifies */
	rt_report("p256 adx curve edges", "ecc_p256_adx", ran, 0);
}
END_TEST

/*
 * ecc_p256_adx's fixed-base k G (its own loop over the template's table:
 * one mixed addition and one masked blend a window, the last window
 * through the complete formula) against ecc_p256_generic's, on the
 * scalars where that loop's masks matter: k = d 2^(6m) for every window m
 * and d = 1, 31, 32, 33, 63 (the accumulator the identity up to window m,
 * the digits after it 0, a carry into the next window), n - d 2^(6m)
 * (every digit but a few extreme), 2^(6m) - 1, a random k with its top
 * windows cleared and n - 1 .. n - 8; on each the public key (mul_base)
 * and the signature's r and s under one key (sign, so r = x(k G) mod n)
 * must be equal.
 */
START_TEST(test_p256_adx_base_windows)
{
	static const char nhex[] = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
	static const unsigned int ds[] = { 1, 31, 32, 33, 63 };
	const struct ecc_curve *A = &ecc_p256_adx, *G = &ecc_p256_generic;
	unsigned int m, j, ran = 0;
	struct rt_rng rng;
	static const u8 zero[32];
	u8 n[32], d[32], e[32], xd[64];

	if (!rt_cpu_has_bmi2_adx())
		return;
	rt_unhex(n, sizeof(n), nhex);
	rt_rng_seed(&rng, 0x256ba5e);
	rt_fill(&rng, d, sizeof(d));
	d[0] &= 0x7f;
	rt_fill(&rng, e, sizeof(e));
	G->mul_base(xd, d);
	for (m = 0; m < 43; m++) {
		for (j = 0; j < 2 * ARRAY_SIZE(ds) + 3; j++) {
			u8 k[32], t[32], xg[64], xa[64], rg[32], sg[32], ra[32], sa[32];
			unsigned int bit = 6 * m, i;
			int eg, ea;

			memset(k, 0, sizeof(k));
			memset(t, 0, sizeof(t));
			if (j < 2 * ARRAY_SIZE(ds)) {
				/* t = ds 2^(6m) (four words, then big-endian bytes) */
				u64 v = ds[j % ARRAY_SIZE(ds)], w[5] = { 0 };

				w[bit / 64] = v << (bit % 64);
				if (bit % 64)
					w[bit / 64 + 1] = v >> (64 - bit % 64);
				if (w[4])
					continue;
				for (i = 0; i < 32; i++)
					t[31 - i] = (u8)(w[i / 8] >> (8 * (i % 8)));
				if (memcmp(t, n, 32) >= 0)
					continue;
				if (j < ARRAY_SIZE(ds)) {
					memcpy(k, t, 32);
				} else {
					memcpy(k, n, 32);
					base_sub(k, t, 32);
				}
			} else if (j == 2 * ARRAY_SIZE(ds)) {	/* 2^(6m) - 1 */
				if (!m)
					continue;
				for (i = 0; i < bit; i++)
					k[31 - i / 8] |= (u8)(1u << (i % 8));
			} else if (j == 2 * ARRAY_SIZE(ds) + 1) {	/* random below 2^(6m) */
				rt_fill(&rng, k, sizeof(k));
				for (i = bit; i < 256; i++)
					k[31 - i / 8] &= (u8)~(1u << (i % 8));
			} else {				/* n - 1 - (m % 8) */
				memcpy(k, n, 32);
				rt_be_sub_small(k, 32, 1 + m % 8);
			}
			if (!memcmp(k, zero, 32))
				continue;			/* k = 0: no scalar */
			G->mul_base(xg, k);
			A->mul_base(xa, k);
			ck_assert_msg(!memcmp(xg, xa, 64), "mul_base(%s) differs", rt_hex(k, 32));
			eg = G->sign(rg, sg, d, k, e);
			ea = A->sign(ra, sa, d, k, e);
			ck_assert_int_eq(ea, eg);
			ck_assert_int_eq(eg, 0);
			ck_assert_msg(!memcmp(rg, ra, 32) && !memcmp(sg, sa, 32),
				      "sign(k %s) differs", rt_hex(k, 32));
			ck_assert_int_eq(A->verify(xd, e, ra, sa), 0);
			ran++;
		}
	}
	ck_assert_uint_gt(ran, 400);
	rt_report("p256 adx base windows", "ecc_p256_adx", (int)ran, 0);
}
END_TEST

/*
 * A driver whose self-test fails is not registered, and the walks over
 * the registered drivers above would then pass without it: on a CPU with
 * BMI2 and ADX (and nothing disabled) the x86 curve drivers' x962()
 * instances must be there, each instantiated over its own curve driver.
 */
START_TEST(test_x86_drivers_registered)
{
	static const char *const want[][2] = {
		{ "x962(ecdsa-nist-p256-adx,sha256)", "x962(ecdsa-nist-p256-adx," },
		{ "x962(ecdsa-nist-p384-adx,sha384)", "x962(ecdsa-nist-p384-adx," },
		{ "x962(ecdsa-nist-p521-adx,sha512)", "x962(ecdsa-nist-p521-adx," },
	};
	const char *dis = getenv("RIND_DISABLE");
	unsigned int i;

	if (!rt_cpu_has_bmi2_adx() || (dis && *dis))
		return;
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		struct crypto_sig *t = crypto_alloc_sig(want[i][0], 0, 0);

		ck_assert_msg(!IS_ERR_OR_NULL(t), "%s: not registered (%ld)", want[i][0], PTR_ERR(t));
		ck_assert_msg(!strncmp(crypto_sig_driver_name(t), want[i][1], strlen(want[i][1])),
			      "%s: driver %s", want[i][0], crypto_sig_driver_name(t));
		crypto_free_sig(t);
	}
}
END_TEST
#endif

/* ---- RFC 6979 nonces recomputed with OpenSSL's HMAC ----------------------- */

/* RFC 6979 section 2.3.2's bits2int of @len bytes for a @qbits-bit order. */
static BIGNUM *r6979_bits2int(const u8 *b, size_t len, int qbits)
{
	BIGNUM *x = BN_bin2bn(b, (int)len, NULL);

	ck_assert_ptr_nonnull(x);
	if ((int)len * 8 > qbits)
		ck_assert(BN_rshift(x, x, (int)len * 8 - qbits));
	return x;
}

/*
 * The deterministic signature (r, s) of @msg under @d by RFC 6979 section
 * 3.2, written here from the RFC with OpenSSL's HMAC() for every HMAC and
 * its EC and BIGNUM code for k G and s: an independent reference for
 * ecdsa.c's HMAC-DRBG (its keyed HMAC states, the K reuse) on random keys.
 */
static void r6979_sign(const struct curve *c, const char *hash, const u8 *d, const u8 *msg,
		       size_t mlen, u8 *r_out, u8 *s_out)
{
	const EVP_MD *md = EVP_get_digestbyname(hash);
	EC_GROUP *g = EC_GROUP_new_by_curve_name(EC_curve_nist2nid(c->ossl));
	BN_CTX *bc = BN_CTX_new();
	BIGNUM *n = BN_new(), *dn = BN_bin2bn(d, (int)c->nbytes, NULL), *e, *k;
	BIGNUM *r = BN_new(), *s = BN_new(), *t = BN_new();
	u8 H[64], V[64], K[64], T[128], buf[64 + 1 + 2 * 66], h1[66];
	unsigned int hlen, klen, nb = c->nbytes, tlen, round;
	int qbits;

	ck_assert(md && g && bc && n && dn && r && s && t);
	ck_assert(EC_GROUP_get_order(g, n, bc));
	qbits = BN_num_bits(n);
	ck_assert(EVP_Digest(msg, mlen, H, &hlen, md, NULL));
	e = r6979_bits2int(H, hlen, qbits);
	/* h1 = int2octets(bits2int(H) mod n) */
	ck_assert(BN_nnmod(t, e, n, bc));
	ck_assert(BN_bn2binpad(t, h1, (int)nb) == (int)nb);
	memset(V, 0x01, hlen);
	memset(K, 0x00, hlen);
	for (round = 0; round < 2; round++) {
		memcpy(buf, V, hlen);
		buf[hlen] = (u8)round;
		memcpy(buf + hlen + 1, d, nb);
		memcpy(buf + hlen + 1 + nb, h1, nb);
		ck_assert_ptr_nonnull(HMAC(md, K, (int)hlen, buf, hlen + 1 + 2 * nb, K, &klen));
		ck_assert_ptr_nonnull(HMAC(md, K, (int)hlen, V, hlen, V, &klen));
	}
	for (;;) {
		for (tlen = 0; tlen < nb; tlen += hlen) {
			ck_assert_ptr_nonnull(HMAC(md, K, (int)hlen, V, hlen, V, &klen));
			memcpy(T + tlen, V, hlen);
		}
		k = r6979_bits2int(T, nb, qbits);
		if (!BN_is_zero(k) && BN_cmp(k, n) < 0) {
			bn_sign_with_k(g, k, dn, e, r, s, bc);
			if (!BN_is_zero(r) && !BN_is_zero(s)) {
				BN_free(k);
				break;
			}
		}
		BN_free(k);
		memcpy(buf, V, hlen);
		buf[hlen] = 0x00;
		ck_assert_ptr_nonnull(HMAC(md, K, (int)hlen, buf, hlen + 1, K, &klen));
		ck_assert_ptr_nonnull(HMAC(md, K, (int)hlen, V, hlen, V, &klen));
	}
	ck_assert(BN_bn2binpad(r, r_out, (int)nb) == (int)nb);
	ck_assert(BN_bn2binpad(s, s_out, (int)nb) == (int)nb);
	BN_free(n); BN_free(dn); BN_free(e); BN_free(r); BN_free(s); BN_free(t);
	BN_CTX_free(bc);
	EC_GROUP_free(g);
}

/*
 * Deterministic p1363 and x962 signatures of random messages under random
 * keys, with SHA-256, SHA-384 and SHA-512 on each curve (shorter and
 * longer digests than the order: both bits2int cases) over every
 * implementation: byte for byte the reference above (x962: OpenSSL's DER
 * encoding of the reference's r and s).
 */
START_TEST(test_rfc6979_openssl_hmac)
{
	static const char *const hs[] = { "sha256", "sha384", "sha512" };
	const struct curve *c = &curves[_i];
	BIGNUM *n = NULL;
	struct rt_rng rng;
	unsigned int h;

	ck_assert(BN_hex2bn(&n, c->order));
	rt_rng_seed(&rng, 0x6979a000 + (u64)_i);
	for (h = 0; h < 2 * ARRAY_SIZE(hs); h++) {
		char name[CRYPTO_MAX_ALG_NAME];
		bool der = h >= ARRAY_SIZE(hs);
		drivers_t drv;
		int cnt, i, round;

		snprintf(name, sizeof(name), "%s(%s,%s)", der ? "x962" : "p1363", c->alg,
			 hs[h % ARRAY_SIZE(hs)]);
		cnt = rt_impls(name, "sig", drv, RT_MAX_IMPLS);
		ck_assert_int_gt(cnt, 0);
		for (i = 0; i < cnt; i++) {
			struct crypto_sig *tfm = alloc_drv(drv[i]);

			RT_REQ_EQ(drv[i], rind_sig_set_deterministic(tfm, true), 0);
			for (round = 0; round < 6; round++) {
				u8 d[66], msg[300], sig[2 * 66 + 9], r[66], s[66], *enc = NULL;
				size_t mlen = rt_rand_range(&rng, sizeof(msg));
				BIGNUM *dn;
				int slen;

				do {	/* d uniform in [1, n - 1] */
					rt_fill(&rng, d, c->nbytes);
					if (c->nbytes == 66)
						d[0] &= 0x01;
					dn = BN_bin2bn(d, (int)c->nbytes, NULL);
					ck_assert_ptr_nonnull(dn);
					slen = !BN_is_zero(dn) && BN_cmp(dn, n) < 0;
					BN_free(dn);
				} while (!slen);
				rt_fill(&rng, msg, mlen);
				RT_REQ_EQ(drv[i], crypto_sig_set_privkey(tfm, d, c->nbytes), 0);
				slen = crypto_sig_sign(tfm, msg, (unsigned int)mlen, sig, sizeof(sig));
				r6979_sign(c, hs[h % ARRAY_SIZE(hs)], d, msg, mlen, r, s);
				if (der) {
					ECDSA_SIG *es = ECDSA_SIG_new();
					int elen;

					ck_assert_ptr_nonnull(es);
					ck_assert(ECDSA_SIG_set0(es, BN_bin2bn(r, (int)c->nbytes, NULL),
								 BN_bin2bn(s, (int)c->nbytes, NULL)));
					elen = i2d_ECDSA_SIG(es, &enc);
					RT_REQ(drv[i], elen > 0 && slen == elen &&
						       !memcmp(sig, enc, (size_t)elen));
					OPENSSL_free(enc);
					ECDSA_SIG_free(es);
				} else {
					RT_REQ_EQ(drv[i], slen, (int)(2 * c->nbytes));
					RT_REQ(drv[i], !memcmp(sig, r, c->nbytes) &&
						       !memcmp(sig + c->nbytes, s, c->nbytes));
				}
			}
			crypto_free_sig(tfm);
		}
	}
	BN_free(n);
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
	tcase_add_loop_test(tc, test_generic_differential, 0, (int)ARRAY_SIZE(curves));
	tcase_add_loop_test(tc, test_rfc6979_openssl_hmac, 0, (int)ARRAY_SIZE(curves));
#if defined(__x86_64__)
	tcase_add_test(tc, test_p256_adx_curve_edges);
	tcase_add_test(tc, test_p256_adx_base_windows);
	tcase_add_test(tc, test_x86_drivers_registered);
#endif
	suite_add_tcase(s, tc);
	tc = tcase_create("batch");
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_sign_batch, 0, (int)ARRAY_SIZE(curves));
	tcase_add_loop_test(tc, test_sign_batch_hook, 0, (int)ARRAY_SIZE(curves));
#if defined(__x86_64__)
	tcase_add_test(tc, test_p256_ifma_mb);
#endif
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(ecdsa_suite)
