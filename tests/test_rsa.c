// SPDX-License-Identifier: MIT
/*
 * Suite "rsa": "pkcs1(rsa,sha*)", "pss(rsa,sha*)" (sig) and
 * "oaep(rsa,sha*)" (akcipher) over every implementation.
 *
 *  - Wycheproof: rsa_signature_* (PKCS#1 v1.5 verify, every case),
 *    rsa_pkcs1_*_sig_gen (PKCS#1 v1.5 signing, byte for byte, SHA-2
 *    groups), rsa_pss_* (groups whose hash and MGF1 hash are the same
 *    SHA-2 and salt length the hash length; others counted as skipped),
 *    rsa_oaep_* (SHA-2 with the same MGF1 hash and an empty label);
 *    each group's key is also imported from its other encodings (an
 *    SPKI with the id-RSASSA-PSS OID, the "_params" files, is refused:
 *    rind reads rsaEncryption keys only; those groups use the PKCS#1
 *    RSAPublicKey and JWK forms);
 *  - differential against OpenSSL: rind's signatures verify in OpenSSL
 *    and OpenSSL's in rind, corrupted ones fail in both; OAEP both ways;
 *    key exports (SPKI/PKCS#8/PKCS#1, DER and PEM, JWK round trip) read
 *    by OpenSSL and OpenSSL's keys read by rind;
 *  - policy: generation only for 2048..8192 bits (1024 and odd sizes
 *    refused) and always with e = 65537; 1024-bit keys refused on import
 *    (sig and, in rsa_oaep_misc, akcipher); an existing 2048-bit key
 *    with e = 3 is accepted on import (rind never makes one);
 *  - one 2048-bit generation, checked by OpenSSL (private and pairwise
 *    checks, e = 65537) and used to sign.
 */
#include <pthread.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <rind/sig.h>
#if __has_include(<rind/akcipher.h>)
#include <rind/akcipher.h>
#define HAVE_AKCIPHER 1
#endif
#include <crypto/rsa.h>
#include <rind/internal/alg.h>
#include "testutil.h"

#define MAXK 1024

/*
 * Every implementation of @name.  rt_impls() cannot be used for these
 * names: it takes "pkcs1(rsa,sha256)" for a template instance and fails
 * on the argument "rsa", which is no algorithm of its own here (the RSA
 * schemes are registered directly).  Same contract otherwise.
 */
struct impl_walk {
	const char *name;
	drivers_t *d;
	int n;
};

static int impl_cb(const struct rind_alg_info *info, void *ctx)
{
	struct impl_walk *w = ctx;

	if (!strcmp(info->name, w->name) && w->n < RT_MAX_IMPLS)
		snprintf((*w->d)[w->n++], CRYPTO_MAX_ALG_NAME, "%s", info->driver);
	return 0;
}

static int rsa_impls(const char *name, const char *type, drivers_t d, int max)
{
	struct impl_walk w = { name, (drivers_t *)d, 0 };

	(void)type;
	(void)max;
	(void)crypto_has_alg(name, 0, 0);
	rind_alg_foreach(impl_cb, &w);
	ck_assert_msg(w.n > 0, "no implementation of %s", name);
	return w.n;
}

static const char *sha_name(const char *wp)
{
	if (!wp)
		return NULL;
	if (!strcmp(wp, "SHA-256"))
		return "sha256";
	if (!strcmp(wp, "SHA-384"))
		return "sha384";
	if (!strcmp(wp, "SHA-512"))
		return "sha512";
	return NULL;
}

static unsigned int sha_len(const char *h)
{
	return !strcmp(h, "sha256") ? 32 : !strcmp(h, "sha384") ? 48 : 64;
}

static struct crypto_sig *alloc_sig(const char *drv)
{
	struct crypto_sig *tfm = crypto_alloc_sig(drv, 0, 0);

	ck_assert_msg(!IS_ERR_OR_NULL(tfm), "%s: alloc failed (%ld)", drv, PTR_ERR(tfm));
	return tfm;
}

static const char *gstr(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A group key given as hex DER, text (PEM) or a JSON object (JWK). */
static u8 *gkey(json_t *g, const char *k, size_t *len)
{
	json_t *v = json_object_get(g, k);

	if (!v)
		return NULL;
	if (json_is_object(v)) {
		char *s = json_dumps(v, JSON_COMPACT);

		*len = strlen(s);
		return (u8 *)s;
	}
	if (!strncmp(json_string_value(v), "-----", 5)) {
		*len = strlen(json_string_value(v));
		return (u8 *)strdup(json_string_value(v));
	}
	return rt_wp_hex(g, k, len);
}

/* Every other encoding of the group's public key gives the same key. */
static void check_pub_encodings(const char *drv, json_t *g, struct crypto_sig *ref)
{
	static const char *const names[] = {
		"publicKeyDer", "publicKeyPem", "publicKeyAsn", "publicKeyJwk", "keyJwk",
		"keyDer", "keyPem", "keyAsn",
	};
	u8 want[2 * MAXK], got[2 * MAXK];
	int wl = crypto_sig_export_pubkey(ref, RIND_KEY_RAW, want, sizeof(want));
	const char *type = json_string_value(json_object_get(g, "type"));
	bool pss_oid = type && strstr(type, "WithParameters");
	size_t i;

	RT_REQ(drv, wl > 0);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct crypto_sig *t;
		size_t len;
		u8 *k = gkey(g, names[i], &len);
		int gl, err;

		if (!k)
			continue;
		t = alloc_sig(drv);
		err = crypto_sig_set_pubkey(t, k, (unsigned int)len);
		if (pss_oid && (strstr(names[i], "Der") || strstr(names[i], "Pem"))) {
			/* id-RSASSA-PSS SPKI: rind takes rsaEncryption keys only. */
			RT_REQ_EQ(drv, err, -EKEYREJECTED);
			crypto_free_sig(t);
			free(k);
			continue;
		}
		if (err)
			ck_abort_msg("%s: %s: set_pubkey %d", drv, names[i], err);
		gl = crypto_sig_export_pubkey(t, RIND_KEY_RAW, got, sizeof(got));
		RT_REQ_EQ(drv, gl, wl);
		RT_REQ(drv, !memcmp(got, want, (size_t)wl));
		crypto_free_sig(t);
		free(k);
	}
}

/* ---- Wycheproof: the file walk ------------------------------------------- */

struct wp_rsa;

/*
 * What differs between the RSA Wycheproof files: which groups apply, which
 * key the group gives, and what one case checks.  The walk itself (groups,
 * every implementation of the group's scheme, the cases, the counts) is
 * wp_rsa_file()'s.
 */
struct wp_rsa_ops {
	const char *scheme;	/* "pkcs1", "pss" or "oaep": the template */
	const char *type;	/* its front end, for rsa_impls() */
	bool pubkey;		/* the group's public key, else its PKCS#8 one */
	/* The group's SHA-2 hash ("sha256", ...), NULL where the group does not apply. */
	const char *(*hash)(json_t *g);
	/*
	 * A transform of w->drv keyed with the group's key, or NULL where the
	 * implementation refuses the group as it should (it then counts the
	 * group's cases skipped).
	 */
	void *(*open)(struct wp_rsa *w, const u8 *key, size_t klen);
	/* One case on w->tfm: true if it ran, false if skipped. */
	bool (*test)(struct wp_rsa *w, json_t *t);
	void (*close)(void *tfm);
};

struct wp_rsa {
	const char *file;
	const char *drv;	/* the implementation under test */
	json_t *g;		/* the group */
	size_t gi;
	void *tfm;		/* ops->open()'s */
	int ran, skipped;
};

static const char *wp_key_field(json_t *g, bool pubkey)
{
	if (!pubkey)
		return "privateKeyPkcs8";
	return json_object_get(g, "publicKeyAsn") ? "publicKeyAsn" : "keyAsn";
}

/* Run @file (SKIP where it is absent) and report its counts. */
static void wp_rsa_file(const char *file, const struct wp_rsa_ops *ops)
{
	json_t *root = rt_wp_load(file), *groups, *g;
	struct wp_rsa w = { .file = file };
	char name[64];
	drivers_t d;

	if (!root)
		return;
	groups = json_object_get(root, "testGroups");
	json_array_foreach(groups, w.gi, g) {
		json_t *tests = json_object_get(g, "tests"), *t;
		const char *h = ops->hash(g);
		size_t ti, klen;
		u8 *key;
		int n, i;

		if (!h) {
			w.skipped += (int)json_array_size(tests);
			continue;
		}
		snprintf(name, sizeof(name), "%s(rsa,%s)", ops->scheme, h);
		n = rsa_impls(name, ops->type, d, RT_MAX_IMPLS);
		key = rt_wp_hex(g, wp_key_field(g, ops->pubkey), &klen);
		w.g = g;
		for (i = 0; i < n; i++) {
			w.drv = d[i];
			w.tfm = ops->open(&w, key, klen);
			if (!w.tfm)
				continue;
			json_array_foreach(tests, ti, t) {
				if (ops->test(&w, t))
					w.ran++;
				else
					w.skipped++;
			}
			ops->close(w.tfm);
		}
		free(key);
	}
	/* The report names the last implementation run (d outlives the loop). */
	rt_report(file, w.drv ? w.drv : ops->scheme, w.ran, w.skipped);
	json_decref(root);
}

static long long wp_tcid(json_t *t)
{
	return json_integer_value(json_object_get(t, "tcId"));
}

static void sig_close(void *tfm)
{
	crypto_free_sig(tfm);
}

/* ---- Wycheproof: signature verification ---------------------------------- */

/* PKCS#1 v1.5: the groups whose hash is SHA-2. */
static const char *pkcs1_hash(json_t *g)
{
	return sha_name(gstr(g, "sha"));
}

/* PSS: also the MGF1 hash the same and the salt length the hash length. */
static const char *pss_hash(json_t *g)
{
	const char *h = sha_name(gstr(g, "sha")), *mh;

	if (!h)
		return NULL;
	mh = sha_name(gstr(g, "mgfSha"));
	if (!mh || strcmp(mh, h) || !gstr(g, "mgf") || strcmp(gstr(g, "mgf"), "MGF1") ||
	    json_integer_value(json_object_get(g, "sLen")) != (json_int_t)sha_len(h))
		return NULL;
	return h;
}

static void *verify_open(struct wp_rsa *w, const u8 *key, size_t klen)
{
	struct crypto_sig *tfm = alloc_sig(w->drv);
	int err = crypto_sig_set_pubkey(tfm, key, (unsigned int)klen);

	if (err)
		ck_abort_msg("%s: %s: group %zu: set_pubkey %d", w->drv, w->file, w->gi, err);
	check_pub_encodings(w->drv, w->g, tfm);
	return tfm;
}

static bool verify_test(struct wp_rsa *w, json_t *t)
{
	size_t ml, sl;
	u8 *msg = rt_wp_hex(t, "msg", &ml), *sig = rt_wp_hex(t, "sig", &sl);
	int want = rt_wp_result(t);
	int err = crypto_sig_verify(w->tfm, sig, (unsigned int)sl, msg, (unsigned int)ml);

	if (want == 1 && err)
		ck_abort_msg("%s: %s tcId %lld: valid signature refused (%d)", w->drv, w->file,
			     wp_tcid(t), err);
	if (want == 0 && err != -EBADMSG)
		ck_abort_msg("%s: %s tcId %lld: invalid signature gave %d", w->drv, w->file,
			     wp_tcid(t), err);
	if (want == -1 && err && err != -EBADMSG)
		ck_abort_msg("%s: %s tcId %lld: acceptable case gave %d", w->drv, w->file,
			     wp_tcid(t), err);
	free(msg);
	free(sig);
	return true;
}

static const struct wp_rsa_ops pkcs1_verify_ops = {
	.scheme = "pkcs1", .type = "sig", .pubkey = true, .hash = pkcs1_hash,
	.open = verify_open, .test = verify_test, .close = sig_close,
};

static const struct wp_rsa_ops pss_verify_ops = {
	.scheme = "pss", .type = "sig", .pubkey = true, .hash = pss_hash,
	.open = verify_open, .test = verify_test, .close = sig_close,
};

static const char *const pkcs1_verify_files[] = {
	"rsa_signature_2048_sha256_test.json", "rsa_signature_2048_sha384_test.json",
	"rsa_signature_2048_sha512_test.json", "rsa_signature_3072_sha256_test.json",
	"rsa_signature_3072_sha384_test.json", "rsa_signature_3072_sha512_test.json",
	"rsa_signature_4096_sha256_test.json", "rsa_signature_4096_sha384_test.json",
	"rsa_signature_4096_sha512_test.json",
};

START_TEST(test_wp_pkcs1_verify)
{
	wp_rsa_file(pkcs1_verify_files[_i], &pkcs1_verify_ops);
}
END_TEST

/* ---- Wycheproof: PKCS#1 v1.5 signing (deterministic) ----------------------- */

static const char *const pkcs1_gen_files[] = {
	"rsa_pkcs1_2048_sig_gen_test.json", "rsa_pkcs1_3072_sig_gen_test.json",
	"rsa_pkcs1_4096_sig_gen_test.json",
};

static void *sign_open(struct wp_rsa *w, const u8 *key, size_t klen)
{
	struct crypto_sig *tfm = alloc_sig(w->drv);
	int err = crypto_sig_set_privkey(tfm, key, (unsigned int)klen);

	if (err)
		ck_abort_msg("%s: %s: group %zu: set_privkey %d", w->drv, w->file, w->gi, err);
	return tfm;
}

/* The valid cases: the signature byte for byte, and it verifies. */
static bool sign_test(struct wp_rsa *w, json_t *t)
{
	size_t ml, sl;
	u8 *msg = rt_wp_hex(t, "msg", &ml), *sig = rt_wp_hex(t, "sig", &sl);
	u8 out[MAXK];
	bool ran = rt_wp_result(t) == 1;
	int len;

	if (ran) {
		len = crypto_sig_sign(w->tfm, msg, (unsigned int)ml, out, sizeof(out));
		if (len != (int)sl || memcmp(out, sig, sl))
			ck_abort_msg("%s: %s tcId %lld: signature differs (%d)", w->drv, w->file,
				     wp_tcid(t), len);
		RT_REQ_EQ(w->drv, crypto_sig_verify(w->tfm, out, (unsigned int)len, msg,
						    (unsigned int)ml), 0);
	}
	free(msg);
	free(sig);
	return ran;
}

static const struct wp_rsa_ops pkcs1_sign_ops = {
	.scheme = "pkcs1", .type = "sig", .pubkey = false, .hash = pkcs1_hash,
	.open = sign_open, .test = sign_test, .close = sig_close,
};

START_TEST(test_wp_pkcs1_sign)
{
	wp_rsa_file(pkcs1_gen_files[_i], &pkcs1_sign_ops);
}
END_TEST

/* ---- Wycheproof: PSS --------------------------------------------------------- */

static const char *const pss_files[] = {
	"rsa_pss_2048_sha1_mgf1_20_params_test.json", "rsa_pss_2048_sha1_mgf1_20_test.json",
	"rsa_pss_2048_sha256_mgf1_0_params_test.json", "rsa_pss_2048_sha256_mgf1_0_test.json",
	"rsa_pss_2048_sha256_mgf1_32_params_test.json", "rsa_pss_2048_sha256_mgf1_32_test.json",
	"rsa_pss_2048_sha256_mgf1sha1_20_test.json", "rsa_pss_2048_sha384_mgf1_48_test.json",
	"rsa_pss_2048_sha512_224_mgf1_28_test.json", "rsa_pss_2048_sha512_256_mgf1_32_test.json",
	"rsa_pss_2048_sha512_mgf1sha256_32_params_test.json", "rsa_pss_2048_shake128_test.json",
	"rsa_pss_2048_shake256_test.json", "rsa_pss_3072_sha256_mgf1_32_params_test.json",
	"rsa_pss_3072_sha256_mgf1_32_test.json", "rsa_pss_3072_shake128_test.json",
	"rsa_pss_3072_shake256_test.json", "rsa_pss_4096_sha256_mgf1_32_test.json",
	"rsa_pss_4096_sha384_mgf1_48_test.json", "rsa_pss_4096_sha512_mgf1_32_params_test.json",
	"rsa_pss_4096_sha512_mgf1_32_test.json", "rsa_pss_4096_sha512_mgf1_64_params_test.json",
	"rsa_pss_4096_sha512_mgf1_64_test.json", "rsa_pss_4096_shake256_test.json",
	"rsa_pss_misc_params_test.json", "rsa_pss_misc_test.json",
};

START_TEST(test_wp_pss_verify)
{
	wp_rsa_file(pss_files[_i], &pss_verify_ops);
}
END_TEST

/* ---- OpenSSL differential: signatures ------------------------------------ */

static EVP_PKEY *ossl_key(unsigned int bits)
{
	EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)bits);

	ck_assert_ptr_nonnull(k);
	return k;
}

static int ossl_der(EVP_PKEY *k, bool priv, u8 **der)
{
	*der = NULL;
	return priv ? i2d_PrivateKey(k, der) : i2d_PUBKEY(k, der);
}

static EVP_PKEY_CTX *ossl_ctx(EVP_PKEY *k, const char *scheme, const char *h, bool sign,
			      EVP_MD_CTX **md)
{
	EVP_PKEY_CTX *pctx = NULL;
	int r;

	*md = EVP_MD_CTX_new();
	if (sign)
		r = EVP_DigestSignInit_ex(*md, &pctx, h, NULL, NULL, k, NULL);
	else
		r = EVP_DigestVerifyInit_ex(*md, &pctx, h, NULL, NULL, k, NULL);
	ck_assert_int_eq(r, 1);
	if (!strcmp(scheme, "pss")) {
		ck_assert_int_eq(EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING), 1);
		ck_assert_int_eq(EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST), 1);
		ck_assert_int_eq(EVP_PKEY_CTX_set_rsa_mgf1_md_name(pctx, h, NULL), 1);
	} else {
		ck_assert_int_eq(EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING), 1);
	}
	return pctx;
}

static void diff_sig(const char *scheme, const char *h, EVP_PKEY *k, u64 seed)
{
	char name[64];
	drivers_t d;
	int n, i, round;
	u8 *der;
	int dlen = ossl_der(k, true, &der);
	struct rt_rng rng;

	snprintf(name, sizeof(name), "%s(rsa,%s)", scheme, h);
	n = rsa_impls(name, "sig", d, RT_MAX_IMPLS);
	for (i = 0; i < n; i++) {
		struct crypto_sig *tfm = alloc_sig(d[i]);

		rt_rng_seed(&rng, seed);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(tfm, der, (unsigned int)dlen), 0);
		for (round = 0; round < 3; round++) {
			u8 msg[200], sig[MAXK], osig[MAXK];
			size_t ml = rt_rand_range(&rng, sizeof(msg)), osl = sizeof(osig);
			EVP_MD_CTX *md;
			int len;

			rt_fill(&rng, msg, ml);
			/* rind signs, OpenSSL verifies. */
			len = crypto_sig_sign(tfm, msg, (unsigned int)ml, sig, sizeof(sig));
			RT_REQ_EQ(d[i], len, EVP_PKEY_get_size(k));
			ossl_ctx(k, scheme, h, false, &md);
			RT_REQ_EQ(d[i], EVP_DigestVerify(md, sig, (size_t)len, msg, ml), 1);
			sig[len / 2] ^= 0x10;
			RT_REQ(d[i], EVP_DigestVerify(md, sig, (size_t)len, msg, ml) != 1);
			EVP_MD_CTX_free(md);
			RT_REQ_EQ(d[i], crypto_sig_verify(tfm, sig, (unsigned int)len, msg,
						       (unsigned int)ml), -EBADMSG);
			/* OpenSSL signs, rind verifies. */
			ossl_ctx(k, scheme, h, true, &md);
			RT_REQ_EQ(d[i], EVP_DigestSign(md, osig, &osl, msg, ml), 1);
			EVP_MD_CTX_free(md);
			RT_REQ_EQ(d[i], crypto_sig_verify(tfm, osig, (unsigned int)osl, msg,
						       (unsigned int)ml), 0);
			if (ml) {
				msg[0] ^= 1;
				RT_REQ_EQ(d[i], crypto_sig_verify(tfm, osig, (unsigned int)osl, msg,
							       (unsigned int)ml), -EBADMSG);
			}
		}
		crypto_free_sig(tfm);
	}
	OPENSSL_clear_free(der, (size_t)dlen);
}

START_TEST(test_openssl_sig)
{
	EVP_PKEY *k2 = ossl_key(2048), *k3 = ossl_key(3072);
	static const char *const hs[] = { "sha256", "sha384", "sha512" };
	size_t j;

	for (j = 0; j < ARRAY_SIZE(hs); j++) {
		diff_sig("pkcs1", hs[j], j == 1 ? k3 : k2, 100 + j);
		if (crypto_has_sig("pss(rsa,sha256)", 0, 0))
			diff_sig("pss", hs[j], j == 2 ? k3 : k2, 200 + j);
	}
	EVP_PKEY_free(k2);
	EVP_PKEY_free(k3);
}
END_TEST

/*
 * The cached blinding pair (rsa.c): squared on every signature, redrawn
 * every RSA_BLIND_USES.  PKCS#1 v1.5 signatures are deterministic, so
 * every one of 2 RSA_BLIND_USES + 5 signatures by every driver must be
 * OpenSSL's byte for byte (a pair gone wrong by a squaring or a refresh
 * would unblind to garbage, which the fault check then refuses: -EIO);
 * then four threads sign on one tfm at once, so that some find the cache
 * taken and make their own pair, and every result is still the same.
 */
#define BLIND_THREADS	4
struct blind_job {
	struct crypto_sig *tfm;
	const u8 *msg, *want;
	unsigned int len;
	int bad;
};

static void *blind_thread(void *arg)
{
	struct blind_job *j = arg;
	int i;

	for (i = 0; i < 12; i++) {
		u8 sig[MAXK];
		int len = crypto_sig_sign(j->tfm, j->msg, 32, sig, sizeof(sig));

		if (len != (int)j->len || memcmp(sig, j->want, j->len))
			j->bad++;
	}
	return NULL;
}

START_TEST(test_blind_cache)
{
	EVP_PKEY *k = ossl_key(2048);
	u8 *der, msg[32], want[MAXK];
	int dlen = ossl_der(k, true, &der), n, i, t;
	size_t wl = sizeof(want);
	EVP_MD_CTX *md;
	drivers_t d;

	memset(msg, 0x5c, sizeof(msg));
	ossl_ctx(k, "pkcs1", "sha256", true, &md);
	ck_assert_int_eq(EVP_DigestSign(md, want, &wl, msg, sizeof(msg)), 1);
	EVP_MD_CTX_free(md);
	n = rsa_impls("pkcs1(rsa,sha256)", "sig", d, RT_MAX_IMPLS);
	for (i = 0; i < n; i++) {
		struct crypto_sig *tfm = alloc_sig(d[i]);
		struct blind_job jobs[BLIND_THREADS];
		pthread_t th[BLIND_THREADS];

		RT_REQ_EQ(d[i], crypto_sig_set_privkey(tfm, der, (unsigned int)dlen), 0);
		for (t = 0; t < 2 * RSA_BLIND_USES + 5; t++) {
			u8 sig[MAXK];

			RT_REQ_EQ(d[i], crypto_sig_sign(tfm, msg, sizeof(msg), sig, sizeof(sig)),
				  (int)wl);
			RT_REQ(d[i], !memcmp(sig, want, wl));
		}
		for (t = 0; t < BLIND_THREADS; t++) {
			jobs[t] = (struct blind_job){ tfm, msg, want, (unsigned int)wl, 0 };
			ck_assert_int_eq(pthread_create(&th[t], NULL, blind_thread, &jobs[t]), 0);
		}
		for (t = 0; t < BLIND_THREADS; t++) {
			ck_assert_int_eq(pthread_join(th[t], NULL), 0);
			RT_REQ_EQ(d[i], jobs[t].bad, 0);
		}
		/* A new key starts with no pair: still right. */
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(tfm, der, (unsigned int)dlen), 0);
		{
			u8 sig[MAXK];

			RT_REQ_EQ(d[i], crypto_sig_sign(tfm, msg, sizeof(msg), sig, sizeof(sig)),
				  (int)wl);
			RT_REQ(d[i], !memcmp(sig, want, wl));
		}
		crypto_free_sig(tfm);
	}
	OPENSSL_clear_free(der, (size_t)dlen);
	EVP_PKEY_free(k);
}
END_TEST

/* ---- key encodings both ways --------------------------------------------- */

static EVP_PKEY *ossl_read(const u8 *buf, int len, bool priv, bool pem)
{
	const u8 *p = buf;
	EVP_PKEY *k;

	if (pem) {
		BIO *b = BIO_new_mem_buf(buf, len);

		k = priv ? PEM_read_bio_PrivateKey(b, NULL, NULL, NULL) :
			   PEM_read_bio_PUBKEY(b, NULL, NULL, NULL);
		BIO_free(b);
		return k;
	}
	return priv ? d2i_AutoPrivateKey(NULL, &p, len) : d2i_PUBKEY(NULL, &p, len);
}

START_TEST(test_key_formats)
{
	EVP_PKEY *k = ossl_key(2048);
	drivers_t d;
	int n = rsa_impls("pkcs1(rsa,sha256)", "sig", d, RT_MAX_IMPLS), i;

	for (i = 0; i < n; i++) {
		struct crypto_sig *tfm = alloc_sig(d[i]), *t2;
		static u8 buf[8192], buf2[8192];
		u8 *der;
		int len, len2, dlen;
		BIO *b;
		char *pem;
		long pl;

		/* OpenSSL's PKCS#8 PEM, PKCS#1 DER and SPKI into rind. */
		b = BIO_new(BIO_s_mem());
		ck_assert_int_eq(PEM_write_bio_PrivateKey(b, k, NULL, NULL, 0, NULL, NULL), 1);
		pl = BIO_get_mem_data(b, &pem);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(tfm, pem, (unsigned int)pl), 0);
		BIO_free(b);
		dlen = ossl_der(k, true, &der);		/* traditional PKCS#1 */
		t2 = alloc_sig(d[i]);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, der, (unsigned int)dlen), 0);
		len = crypto_sig_export_privkey(t2, RIND_KEY_RAW, buf, sizeof(buf));
		RT_REQ_EQ(d[i], len, dlen);
		RT_REQ(d[i], !memcmp(buf, der, (size_t)dlen));
		OPENSSL_clear_free(der, (size_t)dlen);
		crypto_free_sig(t2);

		/* rind's exports into OpenSSL, compared with the original. */
		{
			static const enum rind_key_format fmts[] = {
				RIND_KEY_RAW, RIND_KEY_PKCS8_DER, RIND_KEY_PEM,
			};
			size_t f;

			for (f = 0; f < ARRAY_SIZE(fmts); f++) {
				EVP_PKEY *o;

				len = crypto_sig_export_privkey(tfm, fmts[f], buf, sizeof(buf));
				RT_REQ(d[i], len > 0);
				o = ossl_read(buf, len, true, fmts[f] == RIND_KEY_PEM);
				RT_REQ(d[i], o && EVP_PKEY_eq(o, k) == 1);
				EVP_PKEY_free(o);
				if (fmts[f] == RIND_KEY_RAW)
					continue;
				len = crypto_sig_export_pubkey(tfm, fmts[f] == RIND_KEY_PEM ?
							       RIND_KEY_PEM : RIND_KEY_SPKI_DER,
							       buf, sizeof(buf));
				RT_REQ(d[i], len > 0);
				o = ossl_read(buf, len, false, fmts[f] == RIND_KEY_PEM);
				RT_REQ(d[i], o && EVP_PKEY_eq(o, k) == 1);
				EVP_PKEY_free(o);
			}
		}
		/* SPKI from OpenSSL equals rind's. */
		dlen = ossl_der(k, false, &der);
		len = crypto_sig_export_pubkey(tfm, RIND_KEY_SPKI_DER, buf, sizeof(buf));
		RT_REQ_EQ(d[i], len, dlen);
		RT_REQ(d[i], !memcmp(buf, der, (size_t)dlen));
		OPENSSL_free(der);

		/* JWK round trips (private and public), and a too small buffer. */
		len = crypto_sig_export_privkey(tfm, RIND_KEY_JWK, buf, sizeof(buf));
		RT_REQ(d[i], len > 0);
		t2 = alloc_sig(d[i]);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, buf, (unsigned int)len), 0);
		RT_REQ_EQ(d[i], crypto_sig_set_pubkey(t2, buf, (unsigned int)len), -EKEYREJECTED);
		len2 = crypto_sig_export_privkey(t2, RIND_KEY_RAW, buf2, sizeof(buf2));
		len = crypto_sig_export_privkey(tfm, RIND_KEY_RAW, buf, sizeof(buf));
		RT_REQ(d[i], len == len2 && !memcmp(buf, buf2, (size_t)len));
		len = crypto_sig_export_pubkey(tfm, RIND_KEY_JWK, buf, sizeof(buf));
		RT_REQ(d[i], len > 0);
		RT_REQ_EQ(d[i], crypto_sig_set_pubkey(t2, buf, (unsigned int)len), 0);
		RT_REQ_EQ(d[i], crypto_sig_export_privkey(t2, RIND_KEY_RAW, buf2, sizeof(buf2)), -ENOKEY);
		RT_REQ_EQ(d[i], crypto_sig_sign(t2, "x", 1, buf2, sizeof(buf2)), -ENOKEY);
		RT_REQ_EQ(d[i], crypto_sig_export_privkey(tfm, RIND_KEY_PEM, buf, 100), -ENOSPC);
		RT_REQ_EQ(d[i], crypto_sig_export_privkey(tfm, RIND_KEY_SPKI_DER, buf, sizeof(buf)),
		       -EINVAL);
		RT_REQ_EQ(d[i], crypto_sig_sign(tfm, "x", 1, buf, 255), -EINVAL);
		/* Malformed keys. */
		RT_REQ_EQ(d[i], crypto_sig_set_pubkey(t2, "\x30\x03\x02\x01\x01", 5), -EKEYREJECTED);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(t2, "{\"kty\":\"RSA\"}", 13), -EKEYREJECTED);
		crypto_free_sig(t2);
		crypto_free_sig(tfm);
	}
	EVP_PKEY_free(k);
}
END_TEST

/* ---- OAEP ------------------------------------------------------------------- */

#ifdef HAVE_AKCIPHER
static struct crypto_akcipher *alloc_ak(const char *drv)
{
	struct crypto_akcipher *tfm = crypto_alloc_akcipher(drv, 0, 0);

	ck_assert_msg(!IS_ERR_OR_NULL(tfm), "%s: alloc failed (%ld)", drv, PTR_ERR(tfm));
	return tfm;
}

/* One request; returns the error, *outlen the resulting dst_len. */
static int ak_run(struct crypto_akcipher *tfm, bool enc, const u8 *in, unsigned int inlen,
		  u8 *out, unsigned int *outlen)
{
	struct akcipher_request *req = akcipher_request_alloc(tfm, GFP_KERNEL);
	struct scatterlist src, dst;
	int err;

	ck_assert(!IS_ERR_OR_NULL(req));
	sg_init_one(&src, inlen ? in : (const u8 *)"", inlen);
	sg_init_one(&dst, out, *outlen);
	akcipher_request_set_callback(req, 0, NULL, NULL);
	akcipher_request_set_crypt(req, &src, &dst, inlen, *outlen);
	err = enc ? crypto_akcipher_encrypt(req) : crypto_akcipher_decrypt(req);
	*outlen = req->dst_len;
	akcipher_request_free(req);
	return err;
}

static const char *const oaep_files[] = {
	"rsa_oaep_2048_sha1_mgf1sha1_test.json", "rsa_oaep_2048_sha224_mgf1sha1_test.json",
	"rsa_oaep_2048_sha224_mgf1sha224_test.json", "rsa_oaep_2048_sha256_mgf1sha1_test.json",
	"rsa_oaep_2048_sha256_mgf1sha256_test.json", "rsa_oaep_2048_sha384_mgf1sha1_test.json",
	"rsa_oaep_2048_sha384_mgf1sha384_test.json", "rsa_oaep_2048_sha512_224_mgf1sha1_test.json",
	"rsa_oaep_2048_sha512_224_mgf1sha512_224_test.json", "rsa_oaep_2048_sha512_mgf1sha1_test.json",
	"rsa_oaep_2048_sha512_mgf1sha512_test.json", "rsa_oaep_3072_sha256_mgf1sha1_test.json",
	"rsa_oaep_3072_sha256_mgf1sha256_test.json", "rsa_oaep_3072_sha512_256_mgf1sha1_test.json",
	"rsa_oaep_3072_sha512_256_mgf1sha512_256_test.json", "rsa_oaep_3072_sha512_mgf1sha1_test.json",
	"rsa_oaep_3072_sha512_mgf1sha512_test.json", "rsa_oaep_4096_sha256_mgf1sha1_test.json",
	"rsa_oaep_4096_sha256_mgf1sha256_test.json", "rsa_oaep_4096_sha512_mgf1sha1_test.json",
	"rsa_oaep_4096_sha512_mgf1sha512_test.json", "rsa_oaep_misc_test.json",
};

/* SHA-2 with the same MGF1 hash. */
static const char *oaep_hash(json_t *g)
{
	const char *h = sha_name(gstr(g, "sha")), *mh = sha_name(gstr(g, "mgfSha"));

	return h && mh && !strcmp(h, mh) ? h : NULL;
}

static void *oaep_open(struct wp_rsa *w, const u8 *key, size_t klen)
{
	struct crypto_akcipher *tfm = alloc_ak(w->drv);
	int err = crypto_akcipher_set_priv_key(tfm, key, (unsigned int)klen);

	if (json_integer_value(json_object_get(w->g, "keySize")) < 2048) {
		/* Below rind's 2048-bit minimum: refused, cases skipped. */
		RT_REQ_EQ(w->drv, err, -EKEYREJECTED);
		w->skipped += (int)json_array_size(json_object_get(w->g, "tests"));
		crypto_free_akcipher(tfm);
		return NULL;
	}
	if (err)
		ck_abort_msg("%s: %s: group %zu: set_priv_key %d", w->drv, w->file, w->gi, err);
	return tfm;
}

static bool oaep_test(struct wp_rsa *w, json_t *t)
{
	size_t ml, cl, ll;
	u8 *msg = rt_wp_hex(t, "msg", &ml), *ct = rt_wp_hex(t, "ct", &cl);
	u8 *label = rt_wp_hex(t, "label", &ll), out[MAXK];
	unsigned int ol = sizeof(out);
	int want = rt_wp_result(t), err;
	long long id = wp_tcid(t);

	/* rind's OAEP has the empty label only. */
	if (!ll) {
		err = ak_run(w->tfm, false, ct, (unsigned int)cl, out, &ol);
		if (want == 1 && (err || ol != ml || memcmp(out, msg, ml)))
			ck_abort_msg("%s: %s tcId %lld: valid ciphertext: %d", w->drv, w->file, id,
				     err);
		if (want == 0 && err != -EBADMSG)
			ck_abort_msg("%s: %s tcId %lld: invalid ciphertext gave %d", w->drv,
				     w->file, id, err);
		if (want == -1 && err && err != -EBADMSG)
			ck_abort_msg("%s: %s tcId %lld: acceptable case gave %d", w->drv, w->file,
				     id, err);
	}
	free(msg);
	free(ct);
	free(label);
	return !ll;
}

static void ak_close(void *tfm)
{
	crypto_free_akcipher(tfm);
}

static const struct wp_rsa_ops oaep_ops = {
	.scheme = "oaep", .type = "akcipher", .pubkey = false, .hash = oaep_hash,
	.open = oaep_open, .test = oaep_test, .close = ak_close,
};

START_TEST(test_wp_oaep)
{
	wp_rsa_file(oaep_files[_i], &oaep_ops);
}
END_TEST

START_TEST(test_openssl_oaep)
{
	static const char *const hs[] = { "sha256", "sha384", "sha512" };
	EVP_PKEY *k = ossl_key(2048);
	struct rt_rng rng;
	u8 *der;
	int dlen = ossl_der(k, true, &der);
	size_t j;

	for (j = 0; j < ARRAY_SIZE(hs); j++) {
		char name[64];
		drivers_t d;
		int n, i, round;

		snprintf(name, sizeof(name), "oaep(rsa,%s)", hs[j]);
		n = rsa_impls(name, "akcipher", d, RT_MAX_IMPLS);
		for (i = 0; i < n; i++) {
			struct crypto_akcipher *tfm = alloc_ak(d[i]), *pub = alloc_ak(d[i]);
			u8 spki[2048];
			int sl;

			rt_rng_seed(&rng, 300 + j);
			RT_REQ_EQ(d[i], crypto_akcipher_set_priv_key(tfm, der, (unsigned int)dlen), 0);
			RT_REQ_EQ(d[i], crypto_akcipher_maxsize(tfm), 256);
			sl = crypto_akcipher_export_pubkey(tfm, RIND_KEY_SPKI_DER, spki, sizeof(spki));
			RT_REQ(d[i], sl > 0);
			RT_REQ_EQ(d[i], crypto_akcipher_set_pub_key(pub, spki, (unsigned int)sl), 0);
			for (round = 0; round < 3; round++) {
				unsigned int hl = (unsigned int)(strcmp(hs[j], "sha256") ? strcmp(hs[j], "sha384") ? 64 : 48 : 32);
				unsigned int maxm = 256 - 2 * hl - 2, ml = round == 0 ? maxm : rt_rand_range(&rng, maxm);
				u8 m[256], c[256], out[256];
				unsigned int cl = sizeof(c), ol = sizeof(out);
				size_t osl = sizeof(c);
				EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(k, NULL);

				rt_fill(&rng, m, ml);
				/* rind encrypts (public key only), OpenSSL decrypts. */
				RT_REQ_EQ(d[i], ak_run(pub, true, m, ml, c, &cl), 0);
				RT_REQ_EQ(d[i], cl, 256);
				RT_REQ_EQ(d[i], EVP_PKEY_decrypt_init(pc), 1);
				RT_REQ_EQ(d[i], EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_OAEP_PADDING), 1);
				RT_REQ_EQ(d[i], EVP_PKEY_CTX_set_rsa_oaep_md_name(pc, hs[j], NULL), 1);
				RT_REQ_EQ(d[i], EVP_PKEY_CTX_set_rsa_mgf1_md_name(pc, hs[j], NULL), 1);
				osl = sizeof(out);
				RT_REQ_EQ(d[i], EVP_PKEY_decrypt(pc, out, &osl, c, cl), 1);
				RT_REQ(d[i], osl == ml && !memcmp(out, m, ml));
				/* OpenSSL encrypts, rind decrypts. */
				RT_REQ_EQ(d[i], EVP_PKEY_encrypt_init(pc), 1);
				RT_REQ_EQ(d[i], EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_OAEP_PADDING), 1);
				RT_REQ_EQ(d[i], EVP_PKEY_CTX_set_rsa_oaep_md_name(pc, hs[j], NULL), 1);
				RT_REQ_EQ(d[i], EVP_PKEY_CTX_set_rsa_mgf1_md_name(pc, hs[j], NULL), 1);
				osl = sizeof(c);
				RT_REQ_EQ(d[i], EVP_PKEY_encrypt(pc, c, &osl, m, ml), 1);
				EVP_PKEY_CTX_free(pc);
				RT_REQ_EQ(d[i], ak_run(tfm, false, c, (unsigned int)osl, out, &ol), 0);
				RT_REQ(d[i], ol == ml && !memcmp(out, m, ml));
				/* Corrupted: one error for all. */
				c[rt_rand_range(&rng, 256)] ^= 0x01;
				ol = sizeof(out);
				RT_REQ_EQ(d[i], ak_run(tfm, false, c, 256, out, &ol), -EBADMSG);
				ol = sizeof(out);
				RT_REQ_EQ(d[i], ak_run(tfm, false, c, 255, out, &ol), -EBADMSG);
			}
			/* Too long a message, public key cannot decrypt. */
			{
				u8 m[256] = { 0 }, c[256];
				unsigned int cl = sizeof(c);

				RT_REQ_EQ(d[i], ak_run(pub, true, m, 256 - 63, c, &cl), -EINVAL);
				cl = 100;
				RT_REQ_EQ(d[i], ak_run(pub, true, m, 10, c, &cl), -EOVERFLOW);
				cl = sizeof(c);
				RT_REQ_EQ(d[i], ak_run(pub, false, c, 256, m, &cl), -ENOKEY);
			}
			crypto_free_akcipher(pub);
			crypto_free_akcipher(tfm);
		}
	}
	OPENSSL_clear_free(der, (size_t)dlen);
	EVP_PKEY_free(k);
}
END_TEST
#endif

/* ---- policy and generation ---------------------------------------------- */

START_TEST(test_policy)
{
	drivers_t d;
	int n = rsa_impls("pkcs1(rsa,sha256)", "sig", d, RT_MAX_IMPLS), i;
	EVP_PKEY *small = ossl_key(1024), *e3;
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	BIGNUM *three = BN_new();

	BN_set_word(three, 3);
	ck_assert_int_eq(EVP_PKEY_keygen_init(c), 1);
	ck_assert_int_eq(EVP_PKEY_CTX_set_rsa_keygen_bits(c, 2048), 1);
	ck_assert_int_eq(EVP_PKEY_CTX_set1_rsa_keygen_pubexp(c, three), 1);
	e3 = NULL;
	ck_assert_int_eq(EVP_PKEY_keygen(c, &e3), 1);
	for (i = 0; i < n; i++) {
		struct crypto_sig *tfm = alloc_sig(d[i]);
		u8 *der;
		int dlen;

		/* Generation: 2048..8192 bits, even, only. */
		RT_REQ_EQ(d[i], crypto_sig_set_keygen_bits(tfm, 1024), -EINVAL);
		RT_REQ_EQ(d[i], crypto_sig_set_keygen_bits(tfm, 2047), -EINVAL);
		RT_REQ_EQ(d[i], crypto_sig_set_keygen_bits(tfm, 8193 + 1), -EINVAL);
		RT_REQ_EQ(d[i], crypto_sig_set_keygen_bits(tfm, 4096), 0);
		/* A 1024-bit key is refused on import. */
		dlen = ossl_der(small, true, &der);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(tfm, der, (unsigned int)dlen), -EKEYREJECTED);
		OPENSSL_clear_free(der, (size_t)dlen);
		dlen = ossl_der(small, false, &der);
		RT_REQ_EQ(d[i], crypto_sig_set_pubkey(tfm, der, (unsigned int)dlen), -EKEYREJECTED);
		OPENSSL_free(der);
		/* e = 3: import works (existing keys), generation never makes one. */
		dlen = ossl_der(e3, true, &der);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(tfm, der, (unsigned int)dlen), 0);
		OPENSSL_clear_free(der, (size_t)dlen);
		crypto_free_sig(tfm);
	}
	BN_free(three);
	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(small);
	EVP_PKEY_free(e3);
}
END_TEST

START_TEST(test_keygen_2048)
{
	drivers_t d;
	int n = rsa_impls("pkcs1(rsa,sha256)", "sig", d, RT_MAX_IMPLS);
	struct crypto_sig *tfm = alloc_sig(d[0]);
	static u8 buf[8192], sig[512];
	EVP_PKEY *o;
	EVP_MD_CTX *md;
	int len;

	(void)n;
	RT_REQ_EQ(d[0], crypto_sig_set_keygen_bits(tfm, 2048), 0);
	RT_REQ_EQ(d[0], crypto_sig_generate_key(tfm), 0);
	RT_REQ_EQ(d[0], crypto_sig_keysize(tfm), 2048);
	len = crypto_sig_export_privkey(tfm, RIND_KEY_PKCS8_DER, buf, sizeof(buf));
	RT_REQ(d[0], len > 0);
	o = ossl_read(buf, len, true, false);
	RT_REQ(d[0], o != NULL);
	{
		/* OpenSSL's own consistency check of the generated key. */
		EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(o, NULL);
		BIGNUM *e = NULL;

		RT_REQ_EQ(d[0], EVP_PKEY_private_check(c), 1);
		RT_REQ_EQ(d[0], EVP_PKEY_pairwise_check(c), 1);
		RT_REQ_EQ(d[0], EVP_PKEY_get_bn_param(o, "e", &e), 1);
		RT_REQ(d[0], BN_is_word(e, 65537));
		BN_free(e);
		EVP_PKEY_CTX_free(c);
	}
	len = crypto_sig_sign(tfm, "hello", 5, sig, sizeof(sig));
	RT_REQ_EQ(d[0], len, 256);
	ossl_ctx(o, "pkcs1", "sha256", false, &md);
	RT_REQ_EQ(d[0], EVP_DigestVerify(md, sig, (size_t)len, (const u8 *)"hello", 5), 1);
	EVP_MD_CTX_free(md);
	EVP_PKEY_free(o);
	crypto_free_sig(tfm);
}
END_TEST

/* ---- bn_mod_inv_vt against OpenSSL ------------------------------------- */

#include <errno.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <crypto/bignum.h>

static BIGNUM *inv_bn(const u64 *a, unsigned int n)
{
	BIGNUM *b = BN_lebin2bn((const unsigned char *)a, (int)n * 8, NULL);

	ck_assert_ptr_nonnull(b);
	return b;
}

/* @a (n limbs) = @b, which must fit. */
static void inv_from_bn(u64 *a, unsigned int n, const BIGNUM *b)
{
	ck_assert_int_eq(BN_bn2lebinpad(b, (unsigned char *)a, (int)n * 8), (int)n * 8);
}

/*
 * One case: bn_mod_inv_vt(a) mod m against BN_mod_inverse (none: -EINVAL;
 * else the same r, and a r mod m == 1), also with r aliasing a.
 */
static void inv_check(const struct bn_mont *mc, const u64 *a, BN_CTX *ctx, unsigned int *ok,
		      unsigned int *bad)
{
	unsigned int n = mc->n;
	u64 r[BN_MAX_LIMBS], r2[BN_MAX_LIMBS];
	BIGNUM *bm = inv_bn(mc->m, n), *ba = inv_bn(a, n), *br, *bi, *t = BN_new();
	int err;

	ck_assert(BN_cmp(ba, bm) < 0);
	memset(r, 0xa5, sizeof(r));
	err = bn_mod_inv_vt(r, a, mc);
	memcpy(r2, a, (size_t)n * 8);
	ck_assert_int_eq(bn_mod_inv_vt(r2, r2, mc), err);
	ERR_set_mark();
	bi = BN_is_one(bm) ? NULL : BN_mod_inverse(NULL, ba, bm, ctx);
	ERR_pop_to_mark();
	if (!bi || BN_is_zero(ba)) {
		ck_assert_msg(err == -EINVAL, "n=%u: not invertible, got %d", n, err);
		(*bad)++;
	} else {
		ck_assert_msg(err == 0, "n=%u: invertible, got %d", n, err);
		br = inv_bn(r, n);
		ck_assert_msg(!BN_cmp(br, bi), "n=%u: r differs from OpenSSL's", n);
		ck_assert(!memcmp(r, r2, (size_t)n * 8));
		ck_assert(BN_mod_mul(t, ba, br, bm, ctx));
		ck_assert(BN_is_one(t));
		BN_free(br);
		(*ok)++;
	}
	BN_free(bi);
	BN_free(t);
	BN_free(ba);
	BN_free(bm);
}

/*
 * bn_mod_inv_vt (the unblinding in every RSA private operation) on odd
 * moduli of 1 to 128 limbs: random, top limb small, 2^k - 1, p q
 * products; a = 1, 2, m - 1, 0, random, and random multiples of a
 * factor of m; the result also checked with bn_mont_mul.
 */
/*
 * bn_from_be / bn_to_be (eight bytes at a time) against the byte-at-a-time
 * definition: every length 0 to 80 bytes, limb counts from the least that
 * holds it to two more, to_be also into buffers longer than the number
 * (leading zeros) and shorter (the low bytes only).
 */
START_TEST(test_bn_be_conv)
{
	struct rt_rng rng;
	u8 be[96], out[104], ref[104];
	u64 r[16], a[16], want[16];
	size_t len, i;
	unsigned int n, checks = 0;

	rt_rng_seed(&rng, 4242);
	for (len = 0; len <= 80; len++) {
		for (n = (unsigned int)((len + 7) / 8); n <= (len + 7) / 8 + 2 && n <= 12; n++) {
			if (!n)
				continue;
			rt_fill(&rng, be, sizeof(be));
			memset(want, 0, sizeof(want));
			for (i = 0; i < len; i++)
				want[(len - 1 - i) / 8] |= (u64)be[i] << (8 * ((len - 1 - i) % 8));
			memset(r, 0xa5, sizeof(r));
			bn_from_be(r, n, be, len);
			ck_assert_msg(!memcmp(r, want, (size_t)n * 8), "from_be len=%zu n=%u", len, n);
			ck_assert(r[n] == 0xa5a5a5a5a5a5a5a5ull);	/* nothing past n limbs */
			rt_fill(&rng, a, sizeof(a));
			for (size_t ol = len > 8 ? len - 8 : 0; ol <= len + 16; ol += 3) {
				for (i = 0; i < ol; i++) {
					size_t pos = ol - 1 - i;

					ref[i] = pos / 8 < n ? (u8)(a[pos / 8] >> (8 * (pos % 8))) : 0;
				}
				memset(out, 0x5a, sizeof(out));
				bn_to_be(out, ol, a, n);
				ck_assert_msg(!memcmp(out, ref, ol), "to_be len=%zu n=%u", ol, n);
				ck_assert(ol == sizeof(out) || out[ol] == 0x5a);
				checks++;
			}
		}
	}
	ck_assert_uint_gt(checks, 1000);
}
END_TEST

/*
 * bn_mont_init's R mod m and R^2 mod m against BIGNUM, on odd moduli of
 * 1 to 128 limbs whose bit length is anything from 1 to 64 n: random
 * with the top bit set, the top limb of a few bits (the doublings start
 * low), 2^k - 1, 1 (every residue 0), and 2^(64n) - 1 (the doublings'
 * carry out of the top limb at once).
 */
START_TEST(test_bn_mont_init)
{
	static const unsigned int limbs[] = { 1, 2, 3, 4, 5, 16, 17, 24, 32, 33, 48, 64, 128 };
	static struct bn_mont mc;
	u64 m[BN_MAX_LIMBS], want[BN_MAX_LIMBS];
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *r = BN_new(), *v = BN_new();
	struct rt_rng rng;
	unsigned int li, kind, checks = 0;

	ck_assert_ptr_nonnull(ctx);
	rt_rng_seed(&rng, 2211);
	for (li = 0; li < ARRAY_SIZE(limbs); li++) {
		unsigned int n = limbs[li];

		for (kind = 0; kind < 12; kind++) {
			BIGNUM *bm;

			rt_fill(&rng, m, (size_t)n * 8);
			if (kind == 0) {
				m[n - 1] |= (u64)1 << 63;
			} else if (kind < 6) {		/* the top limb of 1-63 bits */
				m[n - 1] &= ((u64)1 << rt_rand_range(&rng, 63)) - 1;
				m[n - 1] |= (u64)1 << rt_rand_range(&rng, 63) >> 1;
				if (kind == 5 && n > 1)
					m[n - 1] = 0;	/* a whole zero limb on top */
			} else if (kind < 9) {		/* 2^k - 1 */
				memset(m, 0xff, (size_t)n * 8);
				m[n - 1] >>= rt_rand_range(&rng, 64);
			} else if (kind == 9) {
				memset(m, 0, (size_t)n * 8);
			} else if (kind == 10) {
				memset(m, 0xff, (size_t)n * 8);
			}
			m[0] |= 1;
			ck_assert_int_eq(bn_mont_init(&mc, m, n), 0);
			bm = inv_bn(m, n);
			ck_assert(BN_set_word(r, 0) && BN_set_bit(r, 64 * (int)n));
			ck_assert(BN_mod(v, r, bm, ctx));
			inv_from_bn(want, n, v);
			ck_assert_msg(!memcmp(mc.one, want, (size_t)n * 8), "R mod m, n=%u kind=%u", n, kind);
			ck_assert(BN_mod_sqr(v, v, bm, ctx));
			inv_from_bn(want, n, v);
			ck_assert_msg(!memcmp(mc.rr, want, (size_t)n * 8), "R^2 mod m, n=%u kind=%u", n, kind);
			BN_free(bm);
			checks++;
		}
	}
	ck_assert_uint_eq(checks, 12 * ARRAY_SIZE(limbs));
	/* An even modulus is refused and leaves the context alone. */
	memset(&mc, 0x5a, sizeof(mc));
	m[0] = 4;
	ck_assert_int_eq(bn_mont_init(&mc, m, 1), -EINVAL);
	ck_assert_uint_eq(mc.m0inv, 0x5a5a5a5a5a5a5a5aull);
	BN_free(r);
	BN_free(v);
	BN_CTX_free(ctx);
}
END_TEST

START_TEST(test_bn_mod_inv)
{
	static const unsigned int limbs[] = { 1, 2, 3, 4, 16, 17, 32, 48, 64, 128 };
	static struct bn_mont mc;
	u64 m[BN_MAX_LIMBS], a[BN_MAX_LIMBS], r[BN_MAX_LIMBS], t[BN_MAX_LIMBS];
	BN_CTX *ctx = BN_CTX_new();
	struct rt_rng rng;
	unsigned int li, ok = 0, bad = 0;

	ck_assert_ptr_nonnull(ctx);
	rt_rng_seed(&rng, 1302);
	for (li = 0; li < ARRAY_SIZE(limbs); li++) {
		unsigned int n = limbs[li], kind, it, iters = n <= 17 ? 24 : n <= 64 ? 6 : 3;

		for (kind = 0; kind < 4; kind++) {
			BIGNUM *p = NULL, *bm, *ba;

			rt_fill(&rng, m, (size_t)n * 8);
			if (kind == 1) {		/* top limb of a few bits */
				m[n - 1] &= ((u64)1 << rt_rand_range(&rng, 8)) - 1;
				m[n - 1] |= 1;
			} else if (kind == 2) {		/* 2^k - 1 */
				memset(m, 0xff, (size_t)n * 8);
				m[n - 1] >>= rt_rand_range(&rng, 63);
			} else if (kind == 3 && n > 1) {	/* p q */
				BIGNUM *q = BN_new();

				p = BN_new();
				bm = BN_new();
				ck_assert(BN_rand(p, 32 * (int)n, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD));
				ck_assert(BN_rand(q, 32 * (int)n - 1, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD));
				ck_assert(BN_mul(bm, p, q, ctx));
				inv_from_bn(m, n, bm);
				BN_free(q);
				BN_free(bm);
			} else {
				m[n - 1] |= (u64)1 << 63;
			}
			m[0] |= 1;
			ck_assert_int_eq(bn_mont_init(&mc, m, n), 0);
			bm = inv_bn(m, n);
			for (it = 0; it < iters; it++) {
				memset(a, 0, (size_t)n * 8);
				switch (it) {
				case 0:
					a[0] = 1;
					break;
				case 1:
					a[0] = 2;
					break;
				case 2:
					memcpy(a, m, (size_t)n * 8);
					a[0] -= 1;
					break;
				case 3:
					break;
				default:
					rt_fill(&rng, a, (size_t)n * 8);
					ba = inv_bn(a, n);
					if (p && it % 2) {	/* a multiple of p below m */
						BIGNUM *s = BN_new();

						ck_assert(BN_rand(s, 32 * (int)n - 2, BN_RAND_TOP_ANY,
								  BN_RAND_BOTTOM_ANY));
						ck_assert(BN_mul(ba, p, s, ctx));
						BN_free(s);
					}
					ck_assert(BN_mod(ba, ba, bm, ctx));
					inv_from_bn(a, n, ba);
					BN_free(ba);
					break;
				}
				if (BN_is_one(bm) && it != 3)
					continue;	/* m = 1: a < m means a = 0 */
				inv_check(&mc, a, ctx, &ok, &bad);
				/* a (a^-1 R) / R = 1, in the Montgomery domain. */
				if (!bn_mod_inv_vt(r, a, &mc)) {
					bn_to_mont(t, r, &mc);
					bn_mont_mul(t, t, a, &mc);
					ck_assert(t[0] == 1 && (n == 1 || bn_is_zero_mask(t + 1, n - 1)));
				}
			}
			BN_free(bm);
			BN_free(p);
		}
	}
	/* Both outcomes were exercised, not-invertible beyond a = 0. */
	ck_assert_uint_gt(ok, 100);
	ck_assert_uint_gt(bad, 4 * ARRAY_SIZE(limbs));
	BN_CTX_free(ctx);
}
END_TEST

/* ---- arch engines against the generic one -------------------------------- */

#if defined(__x86_64__)
#include "../arch/x86/bn-adx.h"

/* A random odd modulus of exactly @bits bits (@bits > 64). */
static unsigned int rand_mod(struct rt_rng *rng, u64 *m, unsigned int bits, int kind)
{
	unsigned int n = (bits + 63) / 64, i;

	rt_fill(rng, m, (size_t)n * 8);
	if (kind == 1)		/* all ones: carries everywhere */
		memset(m, 0xff, (size_t)n * 8);
	if (kind == 2)		/* 2^(bits-1) + small: m0inv's edge, q of zeros */
		for (i = 1; i < n; i++)
			m[i] = 0;
	if (bits % 64)
		m[n - 1] &= ((u64)1 << (bits % 64)) - 1;
	m[n - 1] |= (u64)1 << ((bits - 1) % 64);
	m[0] |= 1;
	return n;
}

/* Values below m: random, 0, 1, m - 1, R mod m, and m - 2^64k patterns. */
static void rand_below(struct rt_rng *rng, u64 *a, const struct bn_mont *mc, int kind)
{
	unsigned int n = mc->n;

	memset(a, 0, (size_t)n * 8);
	switch (kind % 6) {
	case 0:
	case 5:
		rt_fill(rng, a, (size_t)n * 8);
		bn_mod_reduce_mont(a, a, n, mc);
		break;
	case 1:
		break;
	case 2:
		a[0] = 1;
		break;
	case 3:
		memcpy(a, mc->m, (size_t)n * 8);
		a[0] -= 1;
		break;
	case 4:
		memcpy(a, mc->one, (size_t)n * 8);
		break;
	}
}

/* bnx_mont_mul and bnx_mont_sqr against bn_mont_mul, every size they take. */
START_TEST(test_adx_montmul)
{
	struct rt_rng rng;
	static struct bn_mont mc;
	static struct bnx_tmp tmp;
	u64 m[BN_MAX_LIMBS], a[BN_MAX_LIMBS], b[BN_MAX_LIMBS], r1[BN_MAX_LIMBS], r2[BN_MAX_LIMBS];
	unsigned int n, it, count = 0;

	if (!rt_cpu_has_bmi2_adx())
		return;
	rt_rng_seed(&rng, 1300);
	for (n = 4; n <= BN_MAX_LIMBS; n += 4) {
		for (it = 0; it < (n <= 64 ? 60u : 12u); it++) {
			unsigned int bits = 64 * n - (it % 4 ? rt_rand_range(&rng, 63) : 0);

			rand_mod(&rng, m, bits, (int)(it % 7 == 3 ? 1 : it % 7 == 5 ? 2 : 0));
			ck_assert_int_eq(bn_mont_init(&mc, m, n), 0);
			rand_below(&rng, a, &mc, (int)it);
			rand_below(&rng, b, &mc, (int)(it / 6));
			bn_mont_mul(r1, a, b, &mc);
			bnx_mont_mul(r2, a, b, &mc, &tmp);
			ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "mul n=%u it=%u", n, it);
			bn_mont_mul(r1, a, a, &mc);
			bnx_mont_sqr(r2, a, &mc, &tmp);
			ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "sqr n=%u it=%u", n, it);
			/* Aliased result. */
			memcpy(r2, a, (size_t)n * 8);
			bnx_mont_sqr(r2, r2, &mc, &tmp);
			ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "sqr alias n=%u", n);
			memcpy(r2, b, (size_t)n * 8);
			bn_mont_mul(r1, a, b, &mc);
			bnx_mont_mul(r2, a, r2, &mc, &tmp);
			ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "mul alias n=%u", n);
			/* Both multiplication kernels directly, whichever bnx_mont_mul picks. */
			bnx_mul_adx(r2, a, b, mc.m, mc.m0inv, n, tmp.t);
			ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "cios kernel n=%u", n);
			if (n % 8 == 0) {
				memset(r2, 0x5a, sizeof(r2));
				bnx_mulr_adx(r2, a, b, mc.m, mc.m0inv, n, tmp.p);
				ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "mulr kernel n=%u", n);
			}
			if (bnx_mul_fixed(n)) {	/* the unrolled kernels, whatever the dispatch */
				memset(r2, 0x5a, sizeof(r2));
				bnx_mul_fixed(n)(r2, a, b, mc.m, mc.m0inv, n, tmp.p);
				ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "mul%u it=%u", n, it);
				bn_mont_mul(r1, a, a, &mc);
				memcpy(r2, a, (size_t)n * 8);
				bnx_sqr_fixed(n)(r2, r2, mc.m, mc.m0inv, n, tmp.p);
				ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "sqr%u it=%u", n, it);
				bn_mont_mul(r1, a, b, &mc);
			}
			/* The engine's product for the shared code (rsa.h: mont_mul). */
			memset(r2, 0xa5, sizeof(r2));
			rsa_engine_adx.mont_mul(r2, a, b, &mc);
			ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "engine mont_mul n=%u", n);
			/* a square (a = b, the squaring kernel at n % 8 == 0), apart and all aliased */
			bn_mont_mul(r1, b, b, &mc);
			memset(r2, 0xa5, sizeof(r2));
			rsa_engine_adx.mont_mul(r2, b, b, &mc);
			ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "engine mont_mul square n=%u", n);
			memcpy(r2, b, (size_t)n * 8);
			rsa_engine_adx.mont_mul(r2, r2, r2, &mc);
			ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "engine square alias n=%u", n);
			/* Squaring chains: the kernel's output fed back in (a < m). */
			bn_mont_mul(r1, b, b, &mc);
			bn_mont_mul(r1, r1, r1, &mc);
			bnx_mont_sqr(r2, b, &mc, &tmp);
			bnx_mont_sqr(r2, r2, &mc, &tmp);
			ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "sqr chain n=%u", n);
			count++;
		}
	}
	ck_assert_uint_gt(count, 0);
}
END_TEST

/*
 * The 8x8 kernels' edge values, every size they take (n % 8 == 0, 8 to
 * 128 limbs) and the unrolled ones (n = 16, 24, 32): moduli of all-ones limbs,
 * 2^(64n-1) + 1, alternating all-ones and zero limbs, a top limb of ones;
 * operands m - 1, m - 2, all-ones limbs below m, alternating limbs, R mod
 * m, 0 and 1, each pair multiplied and each squared, against bn_mont_mul.
 * The carries between blocks and strips (all-ones windows) and the final
 * subtraction's both outcomes are what they reach.
 */
static void edge_operand(u64 *a, const struct bn_mont *mc, int kind)
{
	unsigned int n = mc->n, i;

	memset(a, 0, (size_t)n * 8);
	switch (kind) {
	case 0:		/* m - 1 */
	case 1:		/* m - 2, the borrow carried (m[0] may be 1) */
		memcpy(a, mc->m, (size_t)n * 8);
		for (i = 0; i <= (unsigned int)kind; i++) {
			unsigned int j = 0;

			while (a[j]-- == 0)
				j++;
		}
		break;
	case 2:		/* all-ones limbs, the top one below m's */
		memset(a, 0xff, (size_t)n * 8);
		a[n - 1] = mc->m[n - 1] - 1;
		break;
	case 3:		/* alternating ones and zeros, below m */
		for (i = 0; i < n; i++)
			a[i] = i & 1 ? 0 : ~(u64)0;
		a[n - 1] = mc->m[n - 1] >> 1;
		break;
	case 4:
		memcpy(a, mc->one, (size_t)n * 8);
		break;
	case 5:
		a[0] = 1;
		break;
	default:	/* 0 */
		break;
	}
}

START_TEST(test_adx_kernel_edges)
{
	static struct bn_mont mc;
	static struct bnx_tmp tmp;
	u64 m[BN_MAX_LIMBS], a[BN_MAX_LIMBS], b[BN_MAX_LIMBS], r1[BN_MAX_LIMBS], r2[BN_MAX_LIMBS];
	unsigned int n, mk, i, count = 0;
	int ka, kb;

	if (!rt_cpu_has_bmi2_adx())
		return;
	for (n = 8; n <= BN_MAX_LIMBS; n += 8) {
		for (mk = 0; mk < 4; mk++) {
			memset(m, 0, sizeof(m));
			for (i = 0; i < n; i++)
				m[i] = mk == 0 ? ~(u64)0 : mk == 2 ? (i & 1 ? 0 : ~(u64)0) :
					mk == 3 ? 0x9e3779b97f4a7c15ull * (i + 1) : 0;
			if (mk == 1)
				m[0] = 1;
			m[n - 1] |= (u64)1 << 63;
			if (mk == 3)
				m[n - 1] = ~(u64)0;
			m[0] |= 1;
			ck_assert_int_eq(bn_mont_init(&mc, m, n), 0);
			for (ka = 0; ka < 7; ka++) {
				edge_operand(a, &mc, ka);
				bn_mont_mul(r1, a, a, &mc);
				memcpy(r2, a, (size_t)n * 8);
				bnx_sqr_adx(r2, r2, mc.m, mc.m0inv, n, tmp.p);
				ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "sqr n=%u m%u a%d", n, mk, ka);
				if (bnx_sqr_fixed(n)) {
					bnx_sqr_fixed(n)(r2, a, mc.m, mc.m0inv, n, tmp.p);
					ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "sqr%u m%u a%d",
						      n, mk, ka);
				}
				for (kb = 0; kb < 7; kb++) {
					edge_operand(b, &mc, kb);
					bn_mont_mul(r1, a, b, &mc);
					memset(r2, 0x5a, sizeof(r2));
					bnx_mulr_adx(r2, a, b, mc.m, mc.m0inv, n, tmp.p);
					ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "mul n=%u m%u a%d b%d",
						      n, mk, ka, kb);
					if (bnx_mul_fixed(n)) {
						memset(r2, 0x5a, sizeof(r2));
						bnx_mul_fixed(n)(r2, a, b, mc.m, mc.m0inv, n, tmp.p);
						ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8),
							      "mul%u m%u a%d b%d", n, mk, ka, kb);
					}
					count++;
				}
			}
		}
	}
	ck_assert_uint_eq(count, 16 * 4 * 49);
}
END_TEST

/*
 * The multiplications' first operand may be any a < R, not only a < m
 * (the shared code's reductions pass raw chunks of a wider number times
 * R^2 mod m): a = R - 1, R - 2, m, m + 1, 2^(64n-1), R - m, R - 2^64 + 1
 * against b = m - 1, 0, 1, R mod m and random, every kernel that takes n
 * (CIOS for n % 4 == 0, the 8x8 loops for n % 8 == 0, the unrolled and
 * strip-looped ones at 16, 24 and 32, the engine's product), moduli
 * random with a top bit and all-ones, against bn_mont_mul.
 */
static void near_r_operand(u64 *a, const struct bn_mont *mc, int kind)
{
	unsigned int n = mc->n, i;

	switch (kind) {
	case 0:		/* R - 1 */
	case 1:		/* R - 2 */
		memset(a, 0xff, (size_t)n * 8);
		a[0] -= (u64)kind;
		break;
	case 2:		/* m */
	case 3:		/* m + 1 (m odd: no carry) */
		memcpy(a, mc->m, (size_t)n * 8);
		a[0] += (u64)(kind - 2);
		break;
	case 4:		/* 2^(64n-1) */
		memset(a, 0, (size_t)n * 8);
		a[n - 1] = (u64)1 << 63;
		break;
	case 5:		/* R - m: the two's complement of m */
		for (i = 0; i < n; i++)
			a[i] = ~mc->m[i];
		a[0] += 1;	/* m odd: ~m[0] is even, no carry */
		break;
	default:	/* R - 2^64 + 1 */
		memset(a, 0xff, (size_t)n * 8);
		a[0] = 1;
		break;
	}
}

START_TEST(test_adx_kernel_near_r)
{
	struct rt_rng rng;
	static struct bn_mont mc;
	static struct bnx_tmp tmp;
	u64 m[BN_MAX_LIMBS], a[BN_MAX_LIMBS], b[BN_MAX_LIMBS], r1[BN_MAX_LIMBS], r2[BN_MAX_LIMBS];
	unsigned int n, mk, checks = 0;
	int ka, kb;

	if (!rt_cpu_has_bmi2_adx())
		return;
	rt_rng_seed(&rng, 1302);
	for (n = 4; n <= BN_MAX_LIMBS; n += 4) {
		for (mk = 0; mk < 2; mk++) {
			rand_mod(&rng, m, 64 * n, (int)mk);
			ck_assert_int_eq(bn_mont_init(&mc, m, n), 0);
			for (ka = 0; ka < 7; ka++) {
				near_r_operand(a, &mc, ka);
				for (kb = 0; kb < 5; kb++) {
					if (kb < 4)
						edge_operand(b, &mc, kb == 0 ? 0 : kb == 1 ? 6 : kb + 2);
					else
						rand_below(&rng, b, &mc, 0);
					bn_mont_mul(r1, a, b, &mc);
					memset(r2, 0x5a, sizeof(r2));
					bnx_mul_adx(r2, a, b, mc.m, mc.m0inv, n, tmp.t);
					ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "cios n=%u m%u a%d b%d",
						      n, mk, ka, kb);
					if (n % 8 == 0) {
						memset(r2, 0x5a, sizeof(r2));
						bnx_mulr_adx(r2, a, b, mc.m, mc.m0inv, n, tmp.p);
						ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8),
							      "mulr n=%u m%u a%d b%d", n, mk, ka, kb);
					}
					if (bnx_mul_fixed(n)) {
						memset(r2, 0x5a, sizeof(r2));
						bnx_mul_fixed(n)(r2, a, b, mc.m, mc.m0inv, n, tmp.p);
						ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8),
							      "mul%u m%u a%d b%d", n, mk, ka, kb);
					}
					memset(r2, 0xa5, sizeof(r2));
					rsa_engine_adx.mont_mul(r2, a, b, &mc);
					ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "engine n=%u m%u a%d b%d",
						      n, mk, ka, kb);
					/* The result is reduced: below m. */
					ck_assert(bn_lt_mask(r2, mc.m, n));
					checks++;
				}
			}
		}
	}
	ck_assert_uint_eq(checks, 32 * 2 * 7 * 5);
}
END_TEST

/*
 * The k-squaring kernels (bnx_sqr<n>k_adx, n = 16, 24, 32) and
 * bnx_mont_sqrk at every size against k squarings by bn_mont_mul: k = 1,
 * 2, 3, 5 (exp_ct's window), 16 (exp_pub's run for e = 65537), 17;
 * random moduli with a top bit, all-ones and sparse ones; operands
 * random, 0, 1, m - 1, R mod m; r aliasing a and not (a left as it was).
 */
START_TEST(test_adx_sqr_runs)
{
	static const unsigned int ks[] = { 1, 2, 3, 5, 16, 17 };
	struct rt_rng rng;
	static struct bn_mont mc;
	static struct bnx_tmp tmp;
	u64 m[BN_MAX_LIMBS], a[BN_MAX_LIMBS], a0[BN_MAX_LIMBS], r1[BN_MAX_LIMBS], r2[BN_MAX_LIMBS];
	unsigned int n, it, ki, i, checks = 0;

	if (!rt_cpu_has_bmi2_adx())
		return;
	rt_rng_seed(&rng, 1303);
	for (n = 4; n <= 64; n += 4) {
		for (it = 0; it < 6; it++) {
			rand_mod(&rng, m, 64 * n - (it & 1 ? rt_rand_range(&rng, 63) : 0),
				 (int)(it % 3));
			ck_assert_int_eq(bn_mont_init(&mc, m, n), 0);
			rand_below(&rng, a, &mc, (int)it);
			memcpy(a0, a, (size_t)n * 8);
			for (ki = 0; ki < ARRAY_SIZE(ks); ki++) {
				memcpy(r1, a, (size_t)n * 8);
				for (i = 0; i < ks[ki]; i++)
					bn_mont_mul(r1, r1, r1, &mc);
				memset(r2, 0x5a, sizeof(r2));
				bnx_mont_sqrk(r2, a, ks[ki], &mc, &tmp);
				ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "sqrk n=%u k=%u it=%u",
					      n, ks[ki], it);
				ck_assert(!memcmp(a, a0, (size_t)n * 8));
				if (bnx_sqrk_fixed(n)) {
					memset(r2, 0x5a, sizeof(r2));
					bnx_sqrk_fixed(n)(r2, a, mc.m, mc.m0inv, ks[ki], tmp.p);
					ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8),
						      "sqr%uk k=%u it=%u", n, ks[ki], it);
					memcpy(r2, a, (size_t)n * 8);
					bnx_sqrk_fixed(n)(r2, r2, mc.m, mc.m0inv, ks[ki], tmp.p);
					ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8),
						      "sqr%uk alias k=%u it=%u", n, ks[ki], it);
					ck_assert(!memcmp(a, a0, (size_t)n * 8));
					checks++;
				}
			}
		}
	}
	ck_assert_uint_eq(checks, 3 * 6 * ARRAY_SIZE(ks));
}
END_TEST

/*
 * bnx_tmp_wipe covers every word of the scratch the kernels write (the
 * engine wipes only that, once an exponentiation): at every size they
 * take, the scratch filled with a pattern, products, squarings and a run
 * of squarings by each path (the unrolled kernels at 16, 24, 32, the 8x8
 * ones, CIOS where n % 8 == 4), then the words past the wiped range still
 * hold the pattern and the wiped range holds zeros; and the run wrote
 * something (the pattern gone from the range), so the check has teeth.
 */
START_TEST(test_adx_scratch_wipe)
{
	struct rt_rng rng;
	static struct bn_mont mc;
	static struct bnx_tmp tmp;
	u64 m[BN_MAX_LIMBS], a[BN_MAX_LIMBS], b[BN_MAX_LIMBS], r[BN_MAX_LIMBS];
	const u64 pat = 0xa5a5a5a5a5a5a5a5ull;
	unsigned int n, i, changed;

	if (!rt_cpu_has_bmi2_adx())
		return;
	rt_rng_seed(&rng, 1307);
	for (n = 4; n <= BN_MAX_LIMBS; n += 4) {
		rand_mod(&rng, m, 64 * n, (int)(n % 3));
		ck_assert_int_eq(bn_mont_init(&mc, m, n), 0);
		rand_below(&rng, a, &mc, 0);
		rand_below(&rng, b, &mc, 5);
		memset(&tmp, 0xa5, sizeof(tmp));
		bnx_mont_mul(r, a, b, &mc, &tmp);
		bnx_mont_sqr(r, r, &mc, &tmp);
		bnx_mont_sqrk(r, r, 5, &mc, &tmp);
		for (i = n + 2; i < ARRAY_SIZE(tmp.t); i++)
			ck_assert_msg(tmp.t[i] == pat, "n=%u t[%u] written past the wipe", n, i);
		for (i = 2 * n + 1; i < ARRAY_SIZE(tmp.p); i++)
			ck_assert_msg(tmp.p[i] == pat, "n=%u p[%u] written past the wipe", n, i);
		changed = 0;
		for (i = 0; i < n + 2; i++)
			changed += tmp.t[i] != pat;
		for (i = 0; i < 2 * n + 1; i++)
			changed += tmp.p[i] != pat;
		ck_assert_msg(changed >= n, "n=%u: the products wrote %u words", n, changed);
		bnx_tmp_wipe(&tmp, n);
		for (i = 0; i < n + 2; i++)
			ck_assert(tmp.t[i] == 0);
		for (i = 0; i < 2 * n + 1; i++)
			ck_assert(tmp.p[i] == 0);
	}
}
END_TEST

/*
 * The engine's exponentiations against the generic engine's: random
 * moduli of the RSA sizes (whole moduli and CRT halves, 2048 to 8192
 * bits) and odd ones the engine hands to the generic code (2056, 1028,
 * 3080 bits), inputs random and 0, 1, m - 1, R mod m; exponents random,
 * zero, all ones, one limb or several; public exponents 3, 65537, random.
 */
/*
 * exp_ct with exponents whose 5-bit windows run through every table
 * index (0 to 31, in order and reversed, from the top window down): the
 * table scans (the unrolled VPBLENDVB ones at n = 16, 24, 32, the looped
 * one at other n) against the generic engine.
 */
START_TEST(test_adx_exp_windows)
{
	static const unsigned int sizes[] = { 1024, 1536, 2048, 1280, 512, 4096 };
	const struct rsa_engine *eng = &rsa_engine_adx, *gen = &rsa_engine_generic;
	struct rt_rng rng;
	static struct bn_mont mc;
	u64 m[BN_MAX_LIMBS], a[BN_MAX_LIMBS], e[BN_MAX_LIMBS], r1[BN_MAX_LIMBS], r2[BN_MAX_LIMBS];
	size_t si;

	if (!rt_cpu_has_bmi2_adx())
		return;
	rt_rng_seed(&rng, 1307);
	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		unsigned int rev;

		for (rev = 0; rev < 2; rev++) {
			unsigned int n = rand_mod(&rng, m, sizes[si], 0), nb = 64 * n, pos, w = 0;

			ck_assert_int_eq(bn_mont_init(&mc, m, n), 0);
			rand_below(&rng, a, &mc, (int)rev);
			memset(e, 0, (size_t)n * 8);
			/* window k from the top (exp_ct's order) gets k mod 32 (or 31 - that) */
			for (pos = nb - (nb % 5 ? nb % 5 : 5); ; pos -= 5, w++) {
				u64 v = (rev ? 31 - w % 32 : w % 32) & (pos + 5 > nb ? (1u << (nb - pos)) - 1 : 31);
				unsigned int b;

				for (b = 0; b < 5 && pos + b < nb; b++)
					e[(pos + b) / 64] |= ((v >> b) & 1) << ((pos + b) % 64);
				if (pos < 5)
					break;
			}
			/* the windows read back, below the top one: every index, in turn */
			for (pos = nb - (nb % 5 ? nb % 5 : 5), w = 0; pos >= 5; w++) {
				unsigned int b;
				u64 v = 0;

				pos -= 5;
				for (b = 0; b < 5; b++)
					v |= ((e[(pos + b) / 64] >> ((pos + b) % 64)) & 1) << b;
				ck_assert_uint_eq(v, rev ? 31 - (w + 1) % 32 : (w + 1) % 32);
			}
			gen->exp_ct(r1, a, e, n, &mc);
			eng->exp_ct(r2, a, e, n, &mc);
			ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "exp_ct windows %u bits rev=%u",
				      sizes[si], rev);
		}
	}
}
END_TEST

START_TEST(test_adx_engine)
{
	static const unsigned int sizes[] = {
		1024, 1536, 2048, 3072, 4096, 8192, 1028, 2056, 3080, 1000, 256, 320,
	};
	const struct rsa_engine *eng = &rsa_engine_adx, *gen = &rsa_engine_generic;
	struct rt_rng rng;
	static struct bn_mont mc;
	u64 m[BN_MAX_LIMBS], a[BN_MAX_LIMBS], e[BN_MAX_LIMBS], r1[BN_MAX_LIMBS], r2[BN_MAX_LIMBS];
	size_t si;

	if (!rt_cpu_has_bmi2_adx())
		return;
	if (!getenv("RIND_DISABLE")) {
		/* Registered where the CPU has BMI2 and ADX, for every name. */
		static const char *const drvs[] = {
			"pkcs1-rsa-sha256-adx", "pss-rsa-sha512-adx",
		};

		for (si = 0; si < ARRAY_SIZE(drvs); si++) {
			struct crypto_sig *t = crypto_alloc_sig(drvs[si], 0, 0);

			ck_assert_msg(!IS_ERR_OR_NULL(t), "%s missing", drvs[si]);
			crypto_free_sig(t);
		}
#ifdef HAVE_AKCIPHER
		{
			struct crypto_akcipher *t = crypto_alloc_akcipher("oaep-rsa-sha384-adx", 0, 0);

			ck_assert(!IS_ERR_OR_NULL(t));
			crypto_free_akcipher(t);
		}
#endif
	}
	rt_rng_seed(&rng, 1301);
	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		unsigned int bits = sizes[si], it, iters = bits >= 4096 ? 3 : bits >= 2048 ? 6 : 12;

		for (it = 0; it < iters; it++) {
			unsigned int n = rand_mod(&rng, m, bits, (int)(it % 5 == 4 ? 1 : 0));
			unsigned int en = it % 3 == 2 ? 1 : n, i;
			u64 pe[] = { 3, 65537, rt_rand(&rng) | 1, 1, 0 };

			ck_assert_int_eq(bn_mont_init(&mc, m, n), 0);
			rand_below(&rng, a, &mc, (int)it);
			rt_fill(&rng, e, (size_t)en * 8);
			if (it == 1)
				memset(e, 0, (size_t)en * 8);
			if (it == 3)
				memset(e, 0xff, (size_t)en * 8);
			gen->exp_ct(r1, a, e, en, &mc);
			eng->exp_ct(r2, a, e, en, &mc);
			ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "exp_ct %u bits it=%u", bits, it);
			/* r aliasing a. */
			memcpy(r2, a, (size_t)n * 8);
			eng->exp_ct(r2, r2, e, en, &mc);
			ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "exp_ct alias %u bits", bits);
			for (i = 0; i < ARRAY_SIZE(pe); i++) {
				gen->exp_vt(r1, a, pe[i], &mc);
				eng->exp_vt(r2, a, pe[i], &mc);
				ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "exp_vt %u bits e=%llu",
					      bits, (unsigned long long)pe[i]);
			}
			/* exp_pub (ordinary form in and out) against to_mont, exp_vt, from_mont. */
			for (i = 0; i < ARRAY_SIZE(pe) + 2; i++) {
				u64 one[BN_MAX_LIMBS] = { 1 }, pv = i < ARRAY_SIZE(pe) ? pe[i] :
					i == ARRAY_SIZE(pe) ? 2 : rt_rand(&rng) & ~(u64)1;

				bn_mont_mul(r1, a, mc.rr, &mc);
				gen->exp_vt(r1, r1, pv, &mc);
				bn_mont_mul(r1, r1, one, &mc);
				memset(r2, 0xa5, sizeof(r2));
				eng->exp_pub(r2, a, pv, &mc);
				ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "exp_pub %u bits e=%llu",
					      bits, (unsigned long long)pv);
				memcpy(r2, a, (size_t)n * 8);
				eng->exp_pub(r2, r2, pv, &mc);
				ck_assert_msg(!memcmp(r1, r2, (size_t)n * 8), "exp_pub alias %u bits", bits);
			}
		}
	}
}
END_TEST

/* ---- the AVX-512 IFMA engine (arch/x86/rsa-ifma.c, bn-ifma.c) ----------- */

#include "../arch/x86/bn-ifma.h"

/*
 * Where the kernels can run: a CPU with AVX512F and IFMA (and the OS's
 * zmm state: __builtin_cpu_supports checks XCR0), or the emulation build
 * (tests/emu: the intrinsics are plain C there).  RIND_DISABLE masks
 * drivers, not these tests.
 */
static bool have_ifma(void)
{
#ifdef RIND_AVX512_EMU
	return true;
#else
	return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
#endif
}

/*
 * The number @h of a register image @w (nl digits of 52 bits, digit j at
 * word @word(j, h): the x2 layout's halves, the lane layout's lanes) as a
 * BIGNUM, unreduced; and the reverse (b < 2^(52 nl)).
 */
typedef unsigned int digit_word_fn(unsigned int j, unsigned int h);

static BIGNUM *digits_to_bn(const u64 *w, digit_word_fn *word, unsigned int h, unsigned int nl)
{
	BIGNUM *b = BN_new();
	unsigned int j;

	ck_assert_ptr_nonnull(b);
	BN_zero(b);
	for (j = nl; j-- > 0;) {
		ck_assert_int_eq(BN_lshift(b, b, 52), 1);
		ck_assert_int_eq(BN_add_word(b, w[word(j, h)]), 1);
	}
	return b;
}

static void bn_to_digits(u64 *w, digit_word_fn *word, unsigned int h, unsigned int nl,
			 const BIGNUM *b)
{
	BIGNUM *t = BN_dup(b);
	unsigned int j;
	BIGNUM *d = BN_new();

	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_nonnull(d);
	for (j = 0; j < nl; j++) {
		/* BN_get_word of a value above 2^64 is all ones: the low 52 bits apart */
		ck_assert_ptr_nonnull(BN_copy(d, t));
		BN_mask_bits(d, 52);	/* 0 when d is shorter already */
		w[word(j, h)] = BN_get_word(d);
		ck_assert_int_eq(BN_rshift(t, t, 52), 1);
	}
	ck_assert(BN_is_zero(t));
	BN_free(t);
	BN_free(d);
}

/* Half @h of @x (x2 layout, nl digits) as a BIGNUM, and back. */
static BIGNUM *x2_to_bn(const struct bni_num *x, unsigned int h, unsigned int nl)
{
	return digits_to_bn(x->w, bni_word, h, nl);
}

static void bn_to_x2(struct bni_num *x, unsigned int h, unsigned int nl, const BIGNUM *b)
{
	bn_to_digits(x->w, bni_word, h, nl, b);
}

/* The words of a number in use at c's size (the rest of struct bni_num is not written). */
#define X2_BYTES(c)	((size_t)(c).nr * 64)

/*
 * Every digit of both halves below 2^52 (the kernels' invariant), and
 * those past the nl in use (RSA-3072's 30 in 8 registers) zero.
 */
static bool x2_digits_ok(const struct bni_num *x, const struct bni_mont2 *c)
{
	unsigned int i, h;

	for (i = 0; i < 8 * c->nr; i++)
		if (x->w[i] >> 52)
			return false;
	for (h = 0; h < 2; h++)
		for (i = c->nl; i < 4 * c->nr; i++)
			if (x->w[bni_word(i, h)])
				return false;
	return true;
}

/*
 * An AMM operand below 2 m (the kernels' input bound): random below 2 m,
 * 0, 1, m - 1, m, m + 1, 2 m - 1, the largest 2^(52 k) - 1 below 2 m
 * (every digit all ones: the carry chains), 2^(52 k) (a lone top digit).
 */
static BIGNUM *amm_operand(struct rt_rng *rng, const BIGNUM *m, int kind, BN_CTX *ctx)
{
	BIGNUM *a = BN_new(), *m2 = BN_new();
	int k;

	ck_assert(a && m2);
	ck_assert_int_eq(BN_lshift1(m2, m), 1);
	switch (kind % 9) {
	case 0: {
		u8 buf[600];
		int len = BN_num_bytes(m2);

		rt_fill(rng, buf, (size_t)len);
		ck_assert_ptr_nonnull(BN_bin2bn(buf, len, a));
		ck_assert_int_eq(BN_mod(a, a, m2, ctx), 1);
		break;
	}
	case 1:
		BN_zero(a);
		break;
	case 2:
		ck_assert_int_eq(BN_one(a), 1);
		break;
	case 3:
	case 4:
	case 5:
		ck_assert_ptr_nonnull(BN_copy(a, m));
		if (kind % 9 == 3)
			ck_assert_int_eq(BN_sub_word(a, 1), 1);
		if (kind % 9 == 5)
			ck_assert_int_eq(BN_add_word(a, 1), 1);
		break;
	case 6:
		ck_assert_ptr_nonnull(BN_copy(a, m2));
		ck_assert_int_eq(BN_sub_word(a, 1), 1);
		break;
	case 7:
	case 8:
		k = (BN_num_bits(m2) - 1) / 52;
		ck_assert_int_eq(BN_set_bit(a, 52 * k), 1);
		if (kind % 9 == 7)
			ck_assert_int_eq(BN_sub_word(a, 1), 1);
		break;
	}
	BN_free(m2);
	return a;
}

/*
 * bni_carry_in against a digit-by-digit ripple of each half (carry into
 * digit j = G_{j-1} | (P_{j-1} & carry into j - 1)) over the 80 bits of
 * the largest size: random exclusive G and P, and P mostly set, so that
 * chains run over many digits, across registers and to the top.
 */
START_TEST(test_ifma_carry_in)
{
	struct rt_rng rng;
	unsigned int it, h, j, checks = 0;

	rt_rng_seed(&rng, 1499);
	for (it = 0; it < 20000; it++) {
		bni_u128 g = 0, p = 0, want = 0, got;

		for (j = 0; j < 8 * BNI_MAX_REGS; j++) {
			/* 0: neither, 1: generate, else propagate; P mostly in odd iterations */
			u32 v = rt_rand_range(&rng, it % 2 ? 16 : 3);

			if (v == 1)
				g |= (bni_u128)1 << j;
			else if (v >= 2)
				p |= (bni_u128)1 << j;
		}
		for (h = 0; h < 2; h++) {
			unsigned int c = 0;

			for (j = h; j < 8 * BNI_MAX_REGS; j += 2) {
				want |= (bni_u128)c << j;
				c = (unsigned int)((g >> j) & 1) | ((unsigned int)((p >> j) & 1) & c);
			}
		}
		/* above the top digit: the carry out of it, which the kernel does not read */
		got = bni_carry_in(g, p) & (((bni_u128)1 << (8 * BNI_MAX_REGS)) - 1);
		ck_assert_msg(got == want, "carry_in it=%u: %016llx%016llx, want %016llx%016llx", it,
			      (unsigned long long)(got >> 64), (unsigned long long)got,
			      (unsigned long long)(want >> 64), (unsigned long long)want);
		checks++;
	}
	printf("ifma carry_in: %u mask pairs\n", checks);
}
END_TEST

/*
 * bni_amm against OpenSSL, each size the engine takes (16, 24, 32 limbs
 * a half, moduli of 64 n bits and a few less; random, all-ones and
 * 2^(64 n - 1) + 1 moduli), both halves different: digits below 2^52,
 * r below 2 m, and r R' = a b mod m, for the operands of amm_operand();
 * aliased results; bni_amm_sqrk's runs against repeated bni_amm; and
 * bni_select for every index pair of a table.
 */
START_TEST(test_ifma_amm)
{
	static const unsigned int ns[] = { 16, 24, 32 };
	static struct bn_mont m1, m2;
	static struct bni_mont2 c;
	static struct bni_num x, y, r, r2, table[32];
	struct rt_rng rng;
	BN_CTX *ctx;
	u64 m[2][BN_MAX_LIMBS];
	unsigned int ni, it, h, i1, i2, checks = 0;

	if (!have_ifma())
		return;
	ctx = BN_CTX_new();
	ck_assert_ptr_nonnull(ctx);
	rt_rng_seed(&rng, 1500);
	for (ni = 0; ni < ARRAY_SIZE(ns); ni++) {
		unsigned int n = ns[ni];

		for (it = 0; it < 27; it++) {
			BIGNUM *bm[2], *ba[2], *bb[2], *t = BN_new(), *u = BN_new(), *rp = BN_new();
			unsigned int nl, k, j;

			for (h = 0; h < 2; h++) {
				unsigned int bits = 64 * n - (it % 3 ? rt_rand_range(&rng, 40) : 0);

				rand_mod(&rng, m[h], bits, (int)((it + h) % 5 == 3 ? 1 : (it + h) % 5 == 4 ? 2 : 0));
			}
			ck_assert_int_eq(bn_mont_init(&m1, m[0], n), 0);
			ck_assert_int_eq(bn_mont_init(&m2, m[1], n), 0);
			bni_mont2_init(&c, &m1, &m2);
			nl = c.nl;
			ck_assert_uint_eq(c.nr, (nl + 3) / 4);
			ck_assert_uint_ge(52 * nl, 64 * n + 2);	/* 4 m < R' */
			ck_assert(x2_digits_ok(&c.m, &c) && x2_digits_ok(&c.rr, &c) && x2_digits_ok(&c.one, &c));
			memset(&x, 0, sizeof(x));
			memset(&y, 0, sizeof(y));
			for (h = 0; h < 2; h++) {
				bm[h] = inv_bn(m[h], n);
				ba[h] = amm_operand(&rng, bm[h], (int)(it + 4 * h), ctx);
				bb[h] = amm_operand(&rng, bm[h], (int)(it / 9 + 3 * h + it), ctx);
				bn_to_x2(&x, h, nl, ba[h]);
				bn_to_x2(&y, h, nl, bb[h]);
			}
			bni_amm(&r, &x, &y, &c);
			ck_assert_msg(x2_digits_ok(&r, &c), "amm digits n=%u it=%u", n, it);
			for (h = 0; h < 2; h++) {
				BIGNUM *got = x2_to_bn(&r, h, nl);

				/* r < 2 m, and r 2^(52 nl) = a b (mod m) */
				ck_assert_int_eq(BN_lshift1(t, bm[h]), 1);
				ck_assert_msg(BN_cmp(got, t) < 0, "amm bound n=%u it=%u h=%u", n, it, h);
				ck_assert_int_eq(BN_lshift(u, got, 52 * (int)nl), 1);
				ck_assert_int_eq(BN_mod(u, u, bm[h], ctx), 1);
				ck_assert_int_eq(BN_mod_mul(rp, ba[h], bb[h], bm[h], ctx), 1);
				ck_assert_msg(!BN_cmp(u, rp), "amm n=%u it=%u h=%u", n, it, h);
				BN_free(got);
				checks++;
			}
			/* aliased: r = x y into x, into y, and x x into x */
			r2 = x;
			bni_amm(&r2, &r2, &y, &c);
			ck_assert_msg(!memcmp(&r2, &r, X2_BYTES(c)), "amm alias a n=%u it=%u", n, it);
			r2 = y;
			bni_amm(&r2, &x, &r2, &c);
			ck_assert_msg(!memcmp(&r2, &r, X2_BYTES(c)), "amm alias b n=%u it=%u", n, it);
			/* k squarings in one call against k products (k = 0: a copy) */
			k = it % 7;
			r = x;
			for (j = 0; j < k; j++)
				bni_amm(&r, &r, &r, &c);
			bni_amm_sqrk(&r2, &x, k, &c);
			ck_assert_msg(!memcmp(&r2, &r, X2_BYTES(c)), "sqrk k=%u n=%u", k, n);
			r2 = x;
			bni_amm_sqrk(&r2, &r2, k, &c);
			ck_assert_msg(!memcmp(&r2, &r, X2_BYTES(c)), "sqrk alias k=%u n=%u", k, n);
			/* unpack: each half below m and equal to the value mod m */
			{
				u64 o1[BN_MAX_LIMBS], o2[BN_MAX_LIMBS];

				bni_amm(&r, &x, &y, &c);
				bni_unpack_reduce(o1, o2, &r, &c);
				for (h = 0; h < 2; h++) {
					BIGNUM *got = inv_bn(h ? o2 : o1, n), *want = x2_to_bn(&r, h, nl);

					ck_assert_int_eq(BN_mod(want, want, bm[h], ctx), 1);
					ck_assert_msg(!BN_cmp(got, want), "unpack n=%u it=%u h=%u", n, it, h);
					BN_free(got);
					BN_free(want);
				}
			}
			for (h = 0; h < 2; h++) {
				BN_free(bm[h]);
				BN_free(ba[h]);
				BN_free(bb[h]);
			}
			BN_free(t);
			BN_free(u);
			BN_free(rp);
		}
		/* the table scan: each half gets its own entry, every pair of a few */
		rt_fill(&rng, table, sizeof(table));
		for (i1 = 0; i1 < 32; i1 += 3) {
			for (i2 = 0; i2 < 32; i2 += (i1 % 2 ? 1 : 5)) {
				unsigned int w;

				memset(&r, 0x5a, sizeof(r));
				bni_select(&r, table, 32, i1, i2, &c);
				for (w = 0; w < 8 * c.nr; w++)
					ck_assert_msg(r.w[w] == table[w % 2 ? i2 : i1].w[w],
						      "select %u %u n=%u", i1, i2, n);
				checks++;
			}
		}
	}
	BN_CTX_free(ctx);
	ck_assert_uint_gt(checks, 3 * 27 * 2);
}
END_TEST

/*
 * The engine's two exponentiations at once (exp_ct2) against the generic
 * engine's exp_ct on each half: the three sizes it takes (1024, 1536,
 * 2048 bits a half and a few bits less), both halves' moduli different
 * (random, all-ones limbs, 2^(64 n - 1) + 1), inputs random, 0, 1, m - 1,
 * R mod m; exponents random, all ones, zero, a single bit; r aliasing a;
 * and the pairs it hands to the fallback engine (halves of different
 * limb counts, other sizes, a one-limb exponent), whose results must be
 * the same.
 */
START_TEST(test_ifma_exp_ct2)
{
	static const unsigned int sizes[][2] = {
		{ 1024, 1024 }, { 1536, 1536 }, { 2048, 2048 }, { 1020, 1000 }, { 1530, 1500 },
		{ 2047, 1990 }, { 1024, 1088 }, { 512, 512 }, { 3072, 3072 }, { 1088, 1088 },
	};
	const struct rsa_engine *eng = &rsa_engine_ifma, *gen = &rsa_engine_generic;
	static struct bn_mont m1, m2;
	struct rt_rng rng;
	u64 m[BN_MAX_LIMBS], a1[BN_MAX_LIMBS], a2[BN_MAX_LIMBS], e1[BN_MAX_LIMBS], e2[BN_MAX_LIMBS];
	u64 r1[BN_MAX_LIMBS], r2[BN_MAX_LIMBS], s1[BN_MAX_LIMBS], s2[BN_MAX_LIMBS];
	unsigned int si, it, checks = 0;

	if (!have_ifma())
		return;
	ck_assert_ptr_nonnull(eng->exp_ct2);
	rt_rng_seed(&rng, 1501);
	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		unsigned int iters = si < 3 ? 8 : 2;

		for (it = 0; it < iters; it++) {
			unsigned int n1 = rand_mod(&rng, m, sizes[si][0], (int)(it % 4 == 2 ? 1 : it % 4 == 3 ? 2 : 0));
			unsigned int n2, en;

			ck_assert_int_eq(bn_mont_init(&m1, m, n1), 0);
			n2 = rand_mod(&rng, m, sizes[si][1], (int)(it % 4 == 1 ? 1 : 0));
			ck_assert_int_eq(bn_mont_init(&m2, m, n2), 0);
			en = it == 7 ? 1 : n1 < n2 ? n1 : n2;
			rand_below(&rng, a1, &m1, (int)it);
			rand_below(&rng, a2, &m2, (int)(it + 3));
			rt_fill(&rng, e1, (size_t)en * 8);
			rt_fill(&rng, e2, (size_t)en * 8);
			if (it == 1)
				memset(e1, 0xff, (size_t)en * 8);
			if (it == 2) {
				memset(e1, 0, (size_t)en * 8);
				memset(e2, 0xff, (size_t)en * 8);
			}
			if (it == 3) {
				memset(e1, 0xff, (size_t)en * 8);
				memset(e2, 0xff, (size_t)en * 8);
			}
			if (it == 4) {
				memset(e2, 0, (size_t)en * 8);
				e2[en - 1] = (u64)1 << 63;
			}
			gen->exp_ct(r1, a1, e1, en, &m1);
			gen->exp_ct(r2, a2, e2, en, &m2);
			memset(s1, 0xa5, sizeof(s1));
			memset(s2, 0xa5, sizeof(s2));
			eng->exp_ct2(s1, a1, e1, en, &m1, s2, a2, e2, en, &m2);
			ck_assert_msg(!memcmp(r1, s1, (size_t)n1 * 8), "exp_ct2 %u bits it=%u (p)",
				      sizes[si][0], it);
			ck_assert_msg(!memcmp(r2, s2, (size_t)n2 * 8), "exp_ct2 %u bits it=%u (q)",
				      sizes[si][1], it);
			/* r aliasing a, as rsa_crt calls it */
			memcpy(s1, a1, (size_t)n1 * 8);
			memcpy(s2, a2, (size_t)n2 * 8);
			eng->exp_ct2(s1, s1, e1, en, &m1, s2, s2, e2, en, &m2);
			ck_assert_msg(!memcmp(r1, s1, (size_t)n1 * 8) && !memcmp(r2, s2, (size_t)n2 * 8),
				      "exp_ct2 alias %u bits it=%u", sizes[si][0], it);
			/* the halves swapped: each lane group serves either */
			eng->exp_ct2(s2, a2, e2, en, &m2, s1, a1, e1, en, &m1);
			ck_assert_msg(!memcmp(r1, s1, (size_t)n1 * 8) && !memcmp(r2, s2, (size_t)n2 * 8),
				      "exp_ct2 swapped %u bits it=%u", sizes[si][0], it);
			checks++;
		}
	}
	ck_assert_uint_eq(checks, 3 * 8 + 7 * 2);
}
END_TEST

/*
 * The engine's two exponentiations by a public exponent at once (exp_vt2,
 * the fault check's) against the generic engine's exp_vt on each half:
 * the three sizes it takes and pairs it hands to the fallback (halves of
 * different limb counts, other sizes); inputs random, 0, 1, m - 1, R mod
 * m (rand_below's kinds); exponents 65537, 3, 1, 0, 2^63 + 1, all ones
 * and random; r aliasing a.
 */
START_TEST(test_ifma_exp_vt2)
{
	static const unsigned int sizes[][2] = {
		{ 1024, 1024 }, { 1536, 1536 }, { 2048, 2048 }, { 1020, 1000 },
		{ 1024, 1088 }, { 512, 512 }, { 3072, 3072 },
	};
	const struct rsa_engine *eng = &rsa_engine_ifma, *gen = &rsa_engine_generic;
	static struct bn_mont m1, m2;
	struct rt_rng rng;
	u64 m[BN_MAX_LIMBS], a1[BN_MAX_LIMBS], a2[BN_MAX_LIMBS];
	u64 r1[BN_MAX_LIMBS], r2[BN_MAX_LIMBS], s1[BN_MAX_LIMBS], s2[BN_MAX_LIMBS];
	unsigned int si, it, checks = 0;

	if (!have_ifma())
		return;
	ck_assert_ptr_nonnull(eng->exp_vt2);
	rt_rng_seed(&rng, 1601);
	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		for (it = 0; it < 7; it++) {
			unsigned int n1 = rand_mod(&rng, m, sizes[si][0], (int)(it % 4 == 2 ? 1 : 0));
			unsigned int n2;
			u64 e;

			ck_assert_int_eq(bn_mont_init(&m1, m, n1), 0);
			n2 = rand_mod(&rng, m, sizes[si][1], (int)(it % 4 == 1 ? 1 : 0));
			ck_assert_int_eq(bn_mont_init(&m2, m, n2), 0);
			rand_below(&rng, a1, &m1, (int)it);
			rand_below(&rng, a2, &m2, (int)(it + 3));
			switch (it) {
			case 0: e = 65537; break;
			case 1: e = 3; break;
			case 2: e = 1; break;
			case 3: e = 0; break;
			case 4: e = ((u64)1 << 63) + 1; break;
			case 5: e = ~(u64)0; break;
			default: rt_fill(&rng, &e, sizeof(e)); break;
			}
			gen->exp_vt(r1, a1, e, &m1);
			gen->exp_vt(r2, a2, e, &m2);
			memset(s1, 0xa5, sizeof(s1));
			memset(s2, 0xa5, sizeof(s2));
			eng->exp_vt2(s1, a1, &m1, s2, a2, &m2, e);
			ck_assert_msg(!memcmp(r1, s1, (size_t)n1 * 8), "exp_vt2 %u bits it=%u (p)",
				      sizes[si][0], it);
			ck_assert_msg(!memcmp(r2, s2, (size_t)n2 * 8), "exp_vt2 %u bits it=%u (q)",
				      sizes[si][1], it);
			memcpy(s1, a1, (size_t)n1 * 8);
			memcpy(s2, a2, (size_t)n2 * 8);
			eng->exp_vt2(s1, s1, &m1, s2, s2, &m2, e);
			ck_assert_msg(!memcmp(r1, s1, (size_t)n1 * 8) && !memcmp(r2, s2, (size_t)n2 * 8),
				      "exp_vt2 alias %u bits it=%u", sizes[si][0], it);
			checks++;
		}
	}
	ck_assert_uint_eq(checks, 7 * 7);
}
END_TEST

/*
 * exp_ct2 with exponents whose 5-bit windows run through every table
 * index, the first half's in order and the second's reversed, so that
 * each window's scan keeps a different entry in each half.
 */
START_TEST(test_ifma_exp_windows)
{
	static const unsigned int sizes[] = { 1024, 1536, 2048 };
	const struct rsa_engine *eng = &rsa_engine_ifma, *gen = &rsa_engine_generic;
	static struct bn_mont m1, m2;
	struct rt_rng rng;
	u64 m[BN_MAX_LIMBS], a1[BN_MAX_LIMBS], a2[BN_MAX_LIMBS], e[2][BN_MAX_LIMBS];
	u64 r1[BN_MAX_LIMBS], r2[BN_MAX_LIMBS], s1[BN_MAX_LIMBS], s2[BN_MAX_LIMBS];
	size_t si;

	if (!have_ifma())
		return;
	rt_rng_seed(&rng, 1502);
	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		unsigned int n = rand_mod(&rng, m, sizes[si], 0), nb = 64 * n, pos, w, rev, start;

		ck_assert_int_eq(bn_mont_init(&m1, m, n), 0);
		rand_mod(&rng, m, sizes[si], 0);
		ck_assert_int_eq(bn_mont_init(&m2, m, n), 0);
		rand_below(&rng, a1, &m1, 0);
		rand_below(&rng, a2, &m2, 5);
		start = nb - (nb % 5 ? nb % 5 : 5);
		for (rev = 0; rev < 2; rev++) {
			memset(e[rev], 0, (size_t)n * 8);
			for (pos = start, w = 0;; pos -= 5, w++) {
				u64 v = (rev ? 31 - w % 32 : w % 32) &
					(pos + 5 > nb ? (1u << (nb - pos)) - 1 : 31);
				unsigned int b;

				for (b = 0; b < 5 && pos + b < nb; b++)
					e[rev][(pos + b) / 64] |= ((v >> b) & 1) << ((pos + b) % 64);
				if (pos < 5)
					break;
			}
		}
		gen->exp_ct(r1, a1, e[0], n, &m1);
		gen->exp_ct(r2, a2, e[1], n, &m2);
		eng->exp_ct2(s1, a1, e[0], n, &m1, s2, a2, e[1], n, &m2);
		ck_assert_msg(!memcmp(r1, s1, (size_t)n * 8) && !memcmp(r2, s2, (size_t)n * 8),
			      "exp_ct2 windows %u bits", sizes[si]);
	}
}
END_TEST

/*
 * The drivers: registered where the library sees AVX512F and IFMA (in the
 * emulation build, RIND_EMU_ASSUME=avx512), for every padding and hash;
 * and for OpenSSL-made keys of each size the engine serves (2048, 3072,
 * 4096 bits) and one it does not (2056: 1028-bit halves of 17 limbs),
 * PKCS#1 v1.5 signatures of the -ifma driver equal the generic driver's
 * byte for byte and verify with OpenSSL, and OAEP decrypts OpenSSL's
 * ciphertext.
 */
START_TEST(test_ifma_drivers)
{
	static const char *const drvs[] = {
		"pkcs1-rsa-sha256-ifma", "pkcs1-rsa-sha384-ifma", "pkcs1-rsa-sha512-ifma",
		"pss-rsa-sha256-ifma", "pss-rsa-sha384-ifma", "pss-rsa-sha512-ifma",
	};
	static const unsigned int bits[] = { 2048, 3072, 4096, 2056 };
	size_t i;

	if (!rind_cpu_has(RIND_X86_AVX512F) || !rind_cpu_has(RIND_X86_AVX512IFMA))
		return;
	for (i = 0; i < ARRAY_SIZE(drvs); i++) {
		struct crypto_sig *t = crypto_alloc_sig(drvs[i], 0, 0);

		ck_assert_msg(!IS_ERR_OR_NULL(t), "%s missing", drvs[i]);
		crypto_free_sig(t);
	}
	for (i = 0; i < ARRAY_SIZE(bits); i++) {
		EVP_PKEY *k = ossl_key(bits[i]);
		struct crypto_sig *fi = alloc_sig("pkcs1-rsa-sha256-ifma");
		struct crypto_sig *fg = alloc_sig("pkcs1-rsa-sha256-generic");
		u8 *der, sig[MAXK], gsig[MAXK], msg[100];
		int dlen = ossl_der(k, true, &der), len, glen, round;
		struct rt_rng rng;

		rt_rng_seed(&rng, 1503 + i);
		ck_assert_int_eq(crypto_sig_set_privkey(fi, der, (unsigned int)dlen), 0);
		ck_assert_int_eq(crypto_sig_set_privkey(fg, der, (unsigned int)dlen), 0);
		for (round = 0; round < 2; round++) {
			size_t ml = rt_rand_range(&rng, sizeof(msg));
			EVP_MD_CTX *md;

			rt_fill(&rng, msg, ml);
			len = crypto_sig_sign(fi, msg, (unsigned int)ml, sig, sizeof(sig));
			glen = crypto_sig_sign(fg, msg, (unsigned int)ml, gsig, sizeof(gsig));
			ck_assert_int_eq(len, EVP_PKEY_get_size(k));
			ck_assert_int_eq(len, glen);
			ck_assert_msg(!memcmp(sig, gsig, (size_t)len), "ifma sig %u bits", bits[i]);
			ossl_ctx(k, "pkcs1", "sha256", false, &md);
			ck_assert_int_eq(EVP_DigestVerify(md, sig, (size_t)len, msg, ml), 1);
			EVP_MD_CTX_free(md);
			ck_assert_int_eq(crypto_sig_verify(fi, sig, (unsigned int)len, msg,
							   (unsigned int)ml), 0);
		}
		printf("ifma: pkcs1-rsa-sha256-ifma signs as the generic driver, %u bits\n", bits[i]);
#ifdef HAVE_AKCIPHER
		{
			/* every hash at 2048 bits, sha256 at the other sizes */
			static const char *const oaep[] = {
				"oaep-rsa-sha256-ifma", "oaep-rsa-sha384-ifma", "oaep-rsa-sha512-ifma",
			};
			static const EVP_MD *(*const md[])(void) = { EVP_sha256, EVP_sha384, EVP_sha512 };
			unsigned int oi;

			for (oi = 0; oi < (bits[i] == 2048 ? 3u : 1u); oi++) {
				struct crypto_akcipher *ai = alloc_ak(oaep[oi]);
				EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(k, NULL);
				u8 ct[MAXK], pt[MAXK];
				size_t ctl = sizeof(ct);
				unsigned int ptl = sizeof(pt);

				ck_assert_ptr_nonnull(pc);
				ck_assert_int_eq(EVP_PKEY_encrypt_init(pc), 1);
				ck_assert_int_eq(EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_OAEP_PADDING), 1);
				ck_assert_int_eq(EVP_PKEY_CTX_set_rsa_oaep_md(pc, md[oi]()), 1);
				ck_assert_int_eq(EVP_PKEY_CTX_set_rsa_mgf1_md(pc, md[oi]()), 1);
				ck_assert_int_eq(EVP_PKEY_encrypt(pc, ct, &ctl, msg, 40), 1);
				ck_assert_int_eq(crypto_akcipher_set_priv_key(ai, der, (unsigned int)dlen), 0);
				ck_assert_int_eq(ak_run(ai, false, ct, (unsigned int)ctl, pt, &ptl), 0);
				ck_assert_uint_eq(ptl, 40);
				ck_assert(!memcmp(pt, msg, 40));
				printf("ifma: %s decrypts OpenSSL's OAEP, %u bits\n", oaep[oi], bits[i]);
				EVP_PKEY_CTX_free(pc);
				crypto_free_akcipher(ai);
			}
		}
#endif
		OPENSSL_clear_free(der, (size_t)dlen);
		crypto_free_sig(fi);
		crypto_free_sig(fg);
		EVP_PKEY_free(k);
	}
}
END_TEST

/* ---- the IFMA batch kernel (arch/x86/bn-ifma-mb.c, rsa-ifma-mb.c) -------- */

#include "../arch/x86/bn-ifma-mb.h"

static unsigned int lane_word(unsigned int j, unsigned int l)
{
	return 8 * j + l;
}

/* Lane @l of @x (nl digits) as a BIGNUM, unreduced, and back. */
static BIGNUM *lane_to_bn(const struct bnm_num *x, unsigned int l, unsigned int nl)
{
	return digits_to_bn(x->d, lane_word, l, nl);
}

static void bn_to_lane(struct bnm_num *x, unsigned int l, unsigned int nl, const BIGNUM *b)
{
	bn_to_digits(x->d, lane_word, l, nl, b);
}

static bool lane_digits_ok(const struct bnm_num *x, unsigned int nl)
{
	unsigned int i;

	for (i = 0; i < 8 * nl; i++)
		if (x->d[i] >> 52)
			return false;
	return true;
}

#define LANE_BYTES(c)	((size_t)(c).nl * 64)

/*
 * bnm_amm (the product kernel) and bnm_amm_sqrk (the squaring kernel)
 * against OpenSSL for both sizes (1024- and 1536-bit moduli and a few
 * bits less; random, all-ones, 2^(64 n - 1) + small), each lane its own
 * operands from amm_operand() (0, 1, m - 1, m, m + 1, 2 m - 1, all-ones
 * digits, a lone top digit, random below 2 m): digits below 2^52, r below
 * 2 m, r R' = a b mod m; the squaring equal to the product a a bit for
 * bit; k squarings against k products; aliasing; the reduction at the
 * end; and bnm_select of every index.
 */
START_TEST(test_mb_amm)
{
	static const unsigned int ns[] = { 16, 24 };
	static struct bn_mont mc;
	static struct bnm_mont c;
	static struct bnm_num x, y, r, r2, table[32];
	struct rt_rng rng;
	BN_CTX *ctx;
	u64 m[BN_MAX_LIMBS];
	unsigned int ni, it, l, i, checks = 0;

	if (!have_ifma())
		return;
	ctx = BN_CTX_new();
	ck_assert_ptr_nonnull(ctx);
	rt_rng_seed(&rng, 1510);
	for (ni = 0; ni < ARRAY_SIZE(ns); ni++) {
		unsigned int n = ns[ni];

		for (it = 0; it < 9; it++) {
			BIGNUM *bm, *ba[8], *bb[8], *t = BN_new(), *u = BN_new(), *rp = BN_new();
			unsigned int bits = 64 * n - (it % 3 ? rt_rand_range(&rng, 40) : 0), k, j;

			ck_assert(t && u && rp);
			rand_mod(&rng, m, bits, (int)(it % 5 == 3 ? 1 : it % 5 == 4 ? 2 : 0));
			ck_assert_int_eq(bn_mont_init(&mc, m, n), 0);
			bnm_mont_init(&c, &mc);
			ck_assert_uint_ge(52 * c.nl, 64 * n + 2);	/* 4 m < R' */
			ck_assert(lane_digits_ok(&c.rr, c.nl) && lane_digits_ok(&c.one, c.nl));
			bm = inv_bn(m, n);
			memset(&x, 0, sizeof(x));
			memset(&y, 0, sizeof(y));
			for (l = 0; l < 8; l++) {
				ba[l] = amm_operand(&rng, bm, (int)(it + l), ctx);
				bb[l] = amm_operand(&rng, bm, (int)(3 * it + 2 * l + 1), ctx);
				bn_to_lane(&x, l, c.nl, ba[l]);
				bn_to_lane(&y, l, c.nl, bb[l]);
			}
			bnm_amm(&r, &x, &y, &c);
			ck_assert_msg(lane_digits_ok(&r, c.nl), "mb amm digits n=%u it=%u", n, it);
			ck_assert_int_eq(BN_lshift1(t, bm), 1);
			for (l = 0; l < 8; l++) {
				BIGNUM *got = lane_to_bn(&r, l, c.nl);

				ck_assert_msg(BN_cmp(got, t) < 0, "mb amm bound n=%u it=%u l=%u", n, it, l);
				ck_assert_int_eq(BN_lshift(u, got, 52 * (int)c.nl), 1);
				ck_assert_int_eq(BN_mod(u, u, bm, ctx), 1);
				ck_assert_int_eq(BN_mod_mul(rp, ba[l], bb[l], bm, ctx), 1);
				ck_assert_msg(!BN_cmp(u, rp), "mb amm n=%u it=%u l=%u", n, it, l);
				BN_free(got);
				checks++;
			}
			/* aliased: into a, into b */
			r2 = x;
			bnm_amm(&r2, &r2, &y, &c);
			ck_assert_msg(!memcmp(&r2, &r, LANE_BYTES(c)), "mb amm alias a n=%u", n);
			r2 = y;
			bnm_amm(&r2, &x, &r2, &c);
			ck_assert_msg(!memcmp(&r2, &r, LANE_BYTES(c)), "mb amm alias b n=%u", n);
			/* the squaring kernel: the same value as the product x x, and mod m */
			bnm_amm(&r, &x, &x, &c);
			bnm_amm_sqrk(&r2, &x, 1, &c);
			ck_assert_msg(!memcmp(&r2, &r, LANE_BYTES(c)), "mb sqr n=%u it=%u", n, it);
			for (l = 0; l < 8; l++) {
				BIGNUM *got = lane_to_bn(&r2, l, c.nl);

				ck_assert_msg(BN_cmp(got, t) < 0, "mb sqr bound n=%u it=%u", n, it);
				ck_assert_int_eq(BN_lshift(u, got, 52 * (int)c.nl), 1);
				ck_assert_int_eq(BN_mod(u, u, bm, ctx), 1);
				ck_assert_int_eq(BN_mod_mul(rp, ba[l], ba[l], bm, ctx), 1);
				ck_assert_msg(!BN_cmp(u, rp), "mb sqr n=%u it=%u l=%u", n, it, l);
				BN_free(got);
				checks++;
			}
			/* k squarings in one call against k products (k = 0: a copy), aliased too */
			k = it % 6;
			r = x;
			for (j = 0; j < k; j++)
				bnm_amm(&r, &r, &r, &c);
			bnm_amm_sqrk(&r2, &x, k, &c);
			ck_assert_msg(!memcmp(&r2, &r, LANE_BYTES(c)), "mb sqrk k=%u n=%u", k, n);
			r2 = x;
			bnm_amm_sqrk(&r2, &r2, k, &c);
			ck_assert_msg(!memcmp(&r2, &r, LANE_BYTES(c)), "mb sqrk alias k=%u n=%u", k, n);
			/* unpack: each lane below m and equal to its value mod m */
			{
				u64 o[8][BN_MAX_LIMBS], *op[8];

				bnm_amm(&r, &x, &y, &c);
				for (l = 0; l < 8; l++)
					op[l] = o[l];
				bnm_unpack_reduce(op, 8, &r, &c);
				for (l = 0; l < 8; l++) {
					BIGNUM *got = inv_bn(o[l], n), *want = lane_to_bn(&r, l, c.nl);

					ck_assert_int_eq(BN_mod(want, want, bm, ctx), 1);
					ck_assert_msg(!BN_cmp(got, want), "mb unpack n=%u it=%u l=%u", n, it, l);
					BN_free(got);
					BN_free(want);
				}
			}
			for (l = 0; l < 8; l++) {
				BN_free(ba[l]);
				BN_free(bb[l]);
			}
			BN_free(bm);
			BN_free(t);
			BN_free(u);
			BN_free(rp);
		}
		/* the table scan: every index, every lane the same entry */
		rt_fill(&rng, table, sizeof(table));
		for (i = 0; i < 32; i++) {
			memset(&r, 0x5a, sizeof(r));
			bnm_select(&r, table, 32, i, &c);
			ck_assert_msg(!memcmp(&r, &table[i], LANE_BYTES(c)), "mb select %u n=%u", i, n);
			checks++;
		}
	}
	BN_CTX_free(ctx);
	ck_assert_uint_eq(checks, 2 * 9 * 16 + 2 * 32);
}
END_TEST

/*
 * The lane exponentiation (rsa_engine_ifma.exp_ct_lanes, bnm_exp_ct)
 * against the generic exp_ct on each lane: the halves of RSA-2048 and
 * RSA-3072 (1024 and 1536 bits, and a few bits less), moduli random,
 * all-ones limbs and 2^(64 n - 1) + small; 1 to 8 lanes, each input its
 * own (random, 0, 1, m - 1, R mod m); exponents random, all ones, zero, a
 * lone top bit, one limb, and one whose windows run through every table
 * index; r aliasing a; and sizes the lanes do not take (2048-bit, 17
 * limbs), handed to the fallback with the same results.
 */
START_TEST(test_mb_exp)
{
	static const unsigned int sizes[] = { 1024, 1536, 1019, 1500, 2048, 1088 };
	const struct rsa_engine *eng = &rsa_engine_ifma, *gen = &rsa_engine_generic;
	static struct bn_mont mc;
	static u64 a[8][BN_MAX_LIMBS], r[8][BN_MAX_LIMBS], s[8][BN_MAX_LIMBS];
	struct rt_rng rng;
	u64 m[BN_MAX_LIMBS], e[BN_MAX_LIMBS];
	unsigned int si, it, l, checks = 0;

	if (!have_ifma())
		return;
	ck_assert_ptr_nonnull(eng->exp_ct_lanes);
	ck_assert_uint_eq(eng->lanes, 8);
	rt_rng_seed(&rng, 1511);
	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		unsigned int iters = si < 2 ? 7 : 1;

		for (it = 0; it < iters; it++) {
			unsigned int n = rand_mod(&rng, m, sizes[si], (int)(it % 3 == 1 ? 1 : it % 3 == 2 ? 2 : 0));
			unsigned int en = it == 5 ? 1 : n, cnt = si < 2 ? 8 - it : 3;
			u64 *rp[8], *sp[8];
			const u64 *ap[8];

			ck_assert_int_eq(bn_mont_init(&mc, m, n), 0);
			ck_assert_uint_eq(eng->lanes_min(n), !bnm_fits(n) ? 0u : n == 16 ? 5u : 7u);
			rt_fill(&rng, e, (size_t)en * 8);
			if (it == 1)
				memset(e, 0xff, (size_t)en * 8);
			if (it == 2)
				memset(e, 0, (size_t)en * 8);
			if (it == 3) {
				memset(e, 0, (size_t)en * 8);
				e[en - 1] = (u64)1 << 63;
			}
			if (it == 6) {
				/* 5-bit windows from the top: 0, 1, ..., 31, 0, ... */
				unsigned int nb = 64 * en, pos = nb - (nb % 5 ? nb % 5 : 5), w = 0, b;

				memset(e, 0, (size_t)en * 8);
				for (;; pos -= 5, w++) {
					for (b = 0; b < 5 && pos + b < nb; b++)
						e[(pos + b) / 64] |= (u64)((w % 32) >> b & 1) << ((pos + b) % 64);
					if (pos < 5)
						break;
				}
			}
			for (l = 0; l < cnt; l++) {
				rand_below(&rng, a[l], &mc, (int)(it + l));
				gen->exp_ct(r[l], a[l], e, en, &mc);
				memset(s[l], 0xa5, sizeof(s[l]));
				ap[l] = a[l];
				sp[l] = s[l];
				rp[l] = r[l];
			}
			eng->exp_ct_lanes(sp, ap, cnt, e, en, &mc);
			for (l = 0; l < cnt; l++)
				ck_assert_msg(!memcmp(r[l], s[l], (size_t)n * 8),
					      "exp_ct_lanes %u bits it=%u lane %u/%u", sizes[si], it, l, cnt);
			/* r aliasing a (as rsa_private_batch calls it) */
			for (l = 0; l < cnt; l++)
				memcpy(s[l], a[l], (size_t)n * 8);
			eng->exp_ct_lanes(sp, (const u64 *const *)sp, cnt, e, en, &mc);
			for (l = 0; l < cnt; l++)
				ck_assert_msg(!memcmp(r[l], s[l], (size_t)n * 8),
					      "exp_ct_lanes alias %u bits it=%u lane %u", sizes[si], it, l);
			if (bnm_fits(n)) {
				ck_assert_int_eq(bnm_exp_ct(sp, ap, cnt, e, en, &mc), 0);
				for (l = 0; l < cnt; l++)
					ck_assert(!memcmp(rp[l], sp[l], (size_t)n * 8));
			}
			checks++;
		}
	}
	ck_assert_uint_eq(checks, 2 * 7 + 4);
}
END_TEST

/*
 * The lanes' exponentiation by a public e (exp_vt_lanes, bnm_exp_vt: the
 * fault checks of a batch) against the generic exp_vt on each lane: the
 * sizes of test_mb_exp, 1 to 8 lanes of inputs of every rand_below kind,
 * e = 65537, 3, 1, 0, 2^63 + 1, all ones, random; r aliasing a.
 */
START_TEST(test_mb_exp_vt)
{
	static const unsigned int sizes[] = { 1024, 1536, 1019, 1500, 2048, 1088 };
	static const u64 es[] = { 65537, 3, 1, 0, ((u64)1 << 63) + 1, ~(u64)0, 0x9e3779b97f4a7c15 };
	const struct rsa_engine *eng = &rsa_engine_ifma, *gen = &rsa_engine_generic;
	static struct bn_mont mc;
	static u64 a[8][BN_MAX_LIMBS], r[8][BN_MAX_LIMBS], s[8][BN_MAX_LIMBS];
	struct rt_rng rng;
	u64 m[BN_MAX_LIMBS];
	unsigned int si, it, l, checks = 0;

	if (!have_ifma())
		return;
	ck_assert_ptr_nonnull(eng->exp_vt_lanes);
	rt_rng_seed(&rng, 1611);
	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		unsigned int iters = si < 2 ? 7 : 1;

		for (it = 0; it < iters; it++) {
			unsigned int n = rand_mod(&rng, m, sizes[si], (int)(it % 3 == 1 ? 1 : it % 3 == 2 ? 2 : 0));
			unsigned int cnt = si < 2 ? 8 - it : 3;
			u64 e = es[it % ARRAY_SIZE(es)], *sp[8];
			const u64 *ap[8];

			ck_assert_int_eq(bn_mont_init(&mc, m, n), 0);
			for (l = 0; l < cnt; l++) {
				rand_below(&rng, a[l], &mc, (int)(it + l));
				gen->exp_vt(r[l], a[l], e, &mc);
				memset(s[l], 0xa5, sizeof(s[l]));
				ap[l] = a[l];
				sp[l] = s[l];
			}
			eng->exp_vt_lanes(sp, ap, cnt, e, &mc);
			for (l = 0; l < cnt; l++)
				ck_assert_msg(!memcmp(r[l], s[l], (size_t)n * 8),
					      "exp_vt_lanes %u bits it=%u lane %u/%u", sizes[si], it, l, cnt);
			for (l = 0; l < cnt; l++)
				memcpy(s[l], a[l], (size_t)n * 8);
			eng->exp_vt_lanes(sp, (const u64 *const *)sp, cnt, e, &mc);
			for (l = 0; l < cnt; l++)
				ck_assert_msg(!memcmp(r[l], s[l], (size_t)n * 8),
					      "exp_vt_lanes alias %u bits it=%u lane %u", sizes[si], it, l);
			checks++;
		}
	}
	ck_assert_uint_eq(checks, 2 * 7 + 4);
}
END_TEST
#endif

/* ---- batches (crypto_sig_sign_batch; rsa.c: rsa_private_batch) ----------- */

/* Whether @drv is registered (a driver name). */
static bool have_driver(const char *drv)
{
	struct crypto_sig *t = crypto_alloc_sig(drv, 0, 0);

	if (IS_ERR_OR_NULL(t))
		return false;
	crypto_free_sig(t);
	return true;
}

#define BATCH_MAX	17

/*
 * One batch of @n requests on @tfm (key @k, @der its PKCS#8 DER), messages
 * of mixed lengths (0 to ~300 bytes): every signature k bytes, verified
 * by rind and by OpenSSL, and for PKCS#1 v1.5 (deterministic) equal to
 * crypto_sig_sign's; the return value 0.
 */
static void batch_once(struct crypto_sig *tfm, EVP_PKEY *k, const char *scheme, const char *h,
		       unsigned int n, struct rt_rng *rng)
{
	static u8 msg[BATCH_MAX][300], sig[BATCH_MAX][MAXK], one[MAXK];
	struct sig_request reqs[BATCH_MAX];
	unsigned int i, klen = (unsigned int)EVP_PKEY_get_size(k);
	bool det = !strcmp(scheme, "pkcs1");

	for (i = 0; i < n; i++) {
		unsigned int ml = (i * 97 + n * 13) % 300;

		rt_fill(rng, msg[i], ml);
		reqs[i] = (struct sig_request){ .msg = msg[i], .msglen = ml, .sig = sig[i],
						.siglen = sizeof(sig[i]), .err = 12345 };
	}
	ck_assert_int_eq(crypto_sig_sign_batch(tfm, reqs, n), 0);
	for (i = 0; i < n; i++) {
		EVP_MD_CTX *md;

		ck_assert_int_eq(reqs[i].err, 0);
		ck_assert_uint_eq(reqs[i].siglen, klen);
		ck_assert_int_eq(crypto_sig_verify(tfm, sig[i], klen, msg[i], reqs[i].msglen), 0);
		ossl_ctx(k, scheme, h, false, &md);
		ck_assert_msg(EVP_DigestVerify(md, sig[i], klen, msg[i], reqs[i].msglen) == 1,
			      "%s batch of %u: #%u does not verify in OpenSSL",
			      crypto_sig_driver_name(tfm), n, i);
		EVP_MD_CTX_free(md);
		if (det) {
			ck_assert_int_eq(crypto_sig_sign(tfm, msg[i], reqs[i].msglen, one, sizeof(one)),
					 (int)klen);
			ck_assert_msg(!memcmp(one, sig[i], klen), "%s batch of %u: #%u differs",
				      crypto_sig_driver_name(tfm), n, i);
		}
	}
}

/*
 * crypto_sig_sign_batch over the RSA drivers: the best "pkcs1(rsa,sha256)"
 * and "pss(rsa,sha256)" (the front end's loop where the driver has no
 * batch path), and where registered the -ifma drivers (the lanes):
 * batch sizes 1 to 17 with an RSA-2048 key (one pass of eight, groups
 * shorter than five one at a time, eight and nine, two passes...),
 * a few sizes with RSA-3072 (the 1536-bit lanes) and RSA-4096 (no lanes:
 * one at a time).  crypto_sig_batch_lanes, per key (struct
 * sig_alg.batch_width): 8 for the -ifma drivers with an RSA-2048 key
 * from five signatures on or an RSA-3072 key from seven, 1 below; 1 with an RSA-4096 key,
 * 1 before a key is set, 1 for the other drivers.
 */
START_TEST(test_sign_batch)
{
	static const struct {
		const char *drv, *scheme, *hash;
		bool lanes;
	} cases[] = {
		{ "pkcs1-rsa-sha256-ifma", "pkcs1", "sha256", true },
		{ "pss-rsa-sha512-ifma", "pss", "sha512", true },
		{ "pkcs1-rsa-sha384-ifma", "pkcs1", "sha384", true },
		{ "pss-rsa-sha256-ifma", "pss", "sha256", true },
		{ "pkcs1(rsa,sha256)", "pkcs1", "sha256", false },
		{ "pss(rsa,sha256)", "pss", "sha256", false },
	};
	static const unsigned int other[] = { 1, 7, 9 };
	EVP_PKEY *k2048 = ossl_key(2048), *k3072 = NULL, *k4096 = NULL;
	struct rt_rng rng;
	size_t ci;

	rt_rng_seed(&rng, 1520);
	for (ci = 0; ci < ARRAY_SIZE(cases); ci++) {
		struct crypto_sig *tfm;
		u8 *der;
		int dlen;
		unsigned int n;
		bool lanes;

		if (cases[ci].lanes && !have_driver(cases[ci].drv))
			continue;
		tfm = alloc_sig(cases[ci].drv);
		if (!cases[ci].lanes && strstr(crypto_sig_driver_name(tfm), "-ifma")) {
			crypto_free_sig(tfm);	/* the best is an -ifma one: done above */
			continue;
		}
		/* no key yet: nothing runs in lanes, whatever the driver */
		ck_assert_uint_eq(crypto_sig_batch_lanes(tfm, 8), 1);
		ck_assert_uint_eq(crypto_sig_batch_lanes(tfm, BATCH_MAX), 1);
		dlen = ossl_der(k2048, true, &der);
		ck_assert_int_eq(crypto_sig_set_privkey(tfm, der, (unsigned int)dlen), 0);
		OPENSSL_clear_free(der, (size_t)dlen);
		/* a name ("pkcs1(rsa,sha256)") may resolve to an -ifma driver */
		lanes = strstr(crypto_sig_driver_name(tfm), "-ifma") != NULL;
		ck_assert(lanes || !cases[ci].lanes);
		printf("batch: %s, RSA-2048, %s\n", crypto_sig_driver_name(tfm),
		       lanes ? "lanes" : "one at a time");
		ck_assert_uint_eq(crypto_sig_batch_lanes(tfm, 8), (lanes ? 8 : 1));
		/* the lanes from RSA_IFMA_MB_MIN = 5 requests on (arch/x86/rsa-ifma.c) */
		ck_assert_uint_eq(crypto_sig_batch_lanes(tfm, 5), (lanes ? 8 : 1));
		ck_assert_uint_eq(crypto_sig_batch_lanes(tfm, 4), 1);
		ck_assert_uint_eq(crypto_sig_batch_lanes(tfm, 7), (lanes ? 8 : 1));
		ck_assert_uint_eq(crypto_sig_batch_lanes(tfm, BATCH_MAX), (lanes ? 8 : 1));
		ck_assert_uint_eq(crypto_sig_batch_lanes(tfm, 3), 1);
		ck_assert_uint_eq(crypto_sig_batch_lanes(tfm, 1), 1);
		if (cases[ci].lanes && ci < 2) {
			for (n = 1; n <= BATCH_MAX; n++)
				batch_once(tfm, k2048, cases[ci].scheme, cases[ci].hash, n, &rng);
		} else {
			for (n = 0; n < ARRAY_SIZE(other); n++)
				batch_once(tfm, k2048, cases[ci].scheme, cases[ci].hash, other[n], &rng);
		}
		if (cases[ci].lanes && ci < 2) {
			/* RSA-3072 in lanes, RSA-4096 one at a time */
			if (!k3072)
				k3072 = ossl_key(3072);
			if (!k4096)
				k4096 = ossl_key(4096);
			dlen = ossl_der(k3072, true, &der);
			ck_assert_int_eq(crypto_sig_set_privkey(tfm, der, (unsigned int)dlen), 0);
			OPENSSL_clear_free(der, (size_t)dlen);
			/* from RSA_IFMA_MB_MIN_3072 = 7 requests on */
			ck_assert_uint_eq(crypto_sig_batch_lanes(tfm, 7), 8);
			ck_assert_uint_eq(crypto_sig_batch_lanes(tfm, 8), 8);
			ck_assert_uint_eq(crypto_sig_batch_lanes(tfm, 6), 1);
			batch_once(tfm, k3072, cases[ci].scheme, cases[ci].hash, 8, &rng);
			batch_once(tfm, k3072, cases[ci].scheme, cases[ci].hash, 3, &rng);
			dlen = ossl_der(k4096, true, &der);
			ck_assert_int_eq(crypto_sig_set_privkey(tfm, der, (unsigned int)dlen), 0);
			OPENSSL_clear_free(der, (size_t)dlen);
			/* RSA-4096's halves do not fit the lanes: one at a time */
			ck_assert_uint_eq(crypto_sig_batch_lanes(tfm, 7), 1);
			ck_assert_uint_eq(crypto_sig_batch_lanes(tfm, 8), 1);
			ck_assert_uint_eq(crypto_sig_batch_lanes(tfm, 64), 1);
			batch_once(tfm, k4096, cases[ci].scheme, cases[ci].hash, 8, &rng);
		}
		crypto_free_sig(tfm);
	}
	EVP_PKEY_free(k2048);
	EVP_PKEY_free(k3072);
	EVP_PKEY_free(k4096);
}
END_TEST

/*
 * Bad requests in a batch get their own errno and change nothing else:
 * a signature buffer one byte short and a NULL one (-EINVAL), a NULL
 * message with a length (-EINVAL), the others signed exactly as alone;
 * the bad ones' buffers and lengths untouched; the call returns the
 * first error.  A tfm holding only the public key (the library's
 * "wrong key usage": it can verify, not sign): every request -ENOKEY,
 * nothing written.  And rsa_private_batch itself with inputs at and
 * above n among good ones (-EBADMSG for those alone).
 */
START_TEST(test_sign_batch_bad)
{
	static const char *const drvs[] = { "pkcs1-rsa-sha256-ifma", "pkcs1(rsa,sha256)" };
	static u8 msg[12][40], sig[12][MAXK], want[MAXK];
	EVP_PKEY *k = ossl_key(2048);
	struct sig_request reqs[12];
	size_t di;
	unsigned int i;

	for (di = 0; di < ARRAY_SIZE(drvs); di++) {
		struct crypto_sig *tfm, *pub;
		struct rsa_tfm_ctx *ctx;
		u8 *der;
		int dlen;

		if (!di && !have_driver(drvs[di]))
			continue;
		tfm = alloc_sig(drvs[di]);
		if (di && have_driver(drvs[0]) && !strcmp(crypto_sig_driver_name(tfm), drvs[0])) {
			crypto_free_sig(tfm);	/* the best is the one just run */
			continue;
		}
		pub = alloc_sig(drvs[di]);
		dlen = ossl_der(k, true, &der);
		ck_assert_int_eq(crypto_sig_set_privkey(tfm, der, (unsigned int)dlen), 0);
		OPENSSL_clear_free(der, (size_t)dlen);
		dlen = ossl_der(k, false, &der);
		ck_assert_int_eq(crypto_sig_set_pubkey(pub, der, (unsigned int)dlen), 0);
		OPENSSL_free(der);
		printf("batch: %s, bad requests\n", crypto_sig_driver_name(tfm));
		for (i = 0; i < 12; i++) {
			memset(msg[i], (int)i, sizeof(msg[i]));
			memset(sig[i], 0xa5, sizeof(sig[i]));
			reqs[i] = (struct sig_request){ .msg = msg[i], .msglen = 5 + i, .sig = sig[i],
							.siglen = 256, .err = 0 };
		}
		reqs[2].siglen = 255;
		reqs[5].sig = NULL;
		reqs[9].msg = NULL;
		ck_assert_int_eq(crypto_sig_sign_batch(tfm, reqs, 12), -EINVAL);
		for (i = 0; i < 12; i++) {
			unsigned int j;

			if (i == 2 || i == 5 || i == 9) {
				ck_assert_int_eq(reqs[i].err, -EINVAL);
				ck_assert_uint_eq(reqs[i].siglen, i == 2 ? 255 : 256);
				for (j = 0; j < sizeof(sig[i]); j++)
					ck_assert_uint_eq(sig[i][j], 0xa5);
				continue;
			}
			ck_assert_int_eq(reqs[i].err, 0);
			ck_assert_uint_eq(reqs[i].siglen, 256);
			ck_assert_int_eq(crypto_sig_sign(tfm, msg[i], 5 + i, want, sizeof(want)), 256);
			ck_assert(!memcmp(want, sig[i], 256));
			for (j = 256; j < sizeof(sig[i]); j++)
				ck_assert_uint_eq(sig[i][j], 0xa5);
		}
		/* public key only: -ENOKEY for each, nothing written */
		for (i = 0; i < 12; i++) {
			memset(sig[i], 0x3c, sizeof(sig[i]));
			reqs[i] = (struct sig_request){ .msg = msg[i], .msglen = 5 + i, .sig = sig[i],
							.siglen = 256, .err = 0 };
		}
		/* no private key: no lanes either (struct sig_alg.batch_width) */
		ck_assert_uint_eq(crypto_sig_batch_lanes(pub, 12), 1);
		ck_assert_int_eq(crypto_sig_sign_batch(pub, reqs, 12), -ENOKEY);
		for (i = 0; i < 12; i++) {
			ck_assert_int_eq(reqs[i].err, -ENOKEY);
			ck_assert_uint_eq(reqs[i].siglen, 256);
			ck_assert_uint_eq(sig[i][0], 0x3c);
			ck_assert_uint_eq(sig[i][255], 0x3c);
		}
		/* the primitive: inputs = n and all ones (>= n) among good ones */
		ctx = crypto_sig_ctx(tfm);
		{
			static u8 in[10][256], out[10][256], one[256];
			struct rsa_priv_req pr[10];

			for (i = 0; i < 10; i++) {
				memset(in[i], 0, 256);
				in[i][1] = (u8)(i + 1);
				in[i][255] = (u8)i;
				memset(out[i], 0x77, 256);
				pr[i] = (struct rsa_priv_req){ .out = out[i], .in = in[i], .err = 0 };
			}
			bn_to_be(in[3], 256, ctx->key.mn.m, ctx->key.mn.n);
			memset(in[6], 0xff, 256);
			pr[8].err = -E2BIG;	/* entered with an error: skipped, kept */
			rsa_private_batch(&ctx->key, pr, 10);
			for (i = 0; i < 10; i++) {
				if (i == 3 || i == 6 || i == 8) {
					ck_assert_int_eq(pr[i].err, i == 8 ? -E2BIG : -EBADMSG);
					ck_assert_uint_eq(out[i][0], 0x77);
					ck_assert_uint_eq(out[i][255], 0x77);
					continue;
				}
				ck_assert_int_eq(pr[i].err, 0);
				ck_assert_int_eq(rsa_private(&ctx->key, one, in[i]), 0);
				ck_assert(!memcmp(one, out[i], 256));
			}
		}
		crypto_free_sig(tfm);
		crypto_free_sig(pub);
	}
	EVP_PKEY_free(k);
}
END_TEST

static Suite *rsa_suite(void)
{
	Suite *s = suite_create("rsa");
	TCase *tc = tcase_create("rsa");

	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_wp_pkcs1_verify, 0, (int)ARRAY_SIZE(pkcs1_verify_files));
	tcase_add_loop_test(tc, test_wp_pkcs1_sign, 0, (int)ARRAY_SIZE(pkcs1_gen_files));
	if (crypto_has_sig("pss(rsa,sha256)", 0, 0))
		tcase_add_loop_test(tc, test_wp_pss_verify, 0, (int)ARRAY_SIZE(pss_files));
#ifdef HAVE_AKCIPHER
	tcase_add_loop_test(tc, test_wp_oaep, 0, (int)ARRAY_SIZE(oaep_files));
	tcase_add_test(tc, test_openssl_oaep);
#endif
	tcase_add_test(tc, test_openssl_sig);
	tcase_add_test(tc, test_blind_cache);
	tcase_add_test(tc, test_key_formats);
	tcase_add_test(tc, test_policy);
	tcase_add_test(tc, test_keygen_2048);
	tcase_add_test(tc, test_bn_mod_inv);
	tcase_add_test(tc, test_bn_mont_init);
	tcase_add_test(tc, test_bn_be_conv);
#if defined(__x86_64__)
	tcase_add_test(tc, test_adx_montmul);
	tcase_add_test(tc, test_adx_engine);
	tcase_add_test(tc, test_adx_exp_windows);
	tcase_add_test(tc, test_adx_kernel_edges);
	tcase_add_test(tc, test_adx_kernel_near_r);
	tcase_add_test(tc, test_adx_sqr_runs);
#endif
	suite_add_tcase(s, tc);
	/*
	 * The AVX-512 IFMA engine's cases and the batches: the emulated run
	 * (tests/emu/check.sh) runs this case alone (CK_RUN_CASE=ifma).
	 */
	tc = tcase_create("ifma");
	tcase_set_timeout(tc, 600);
#if defined(__x86_64__)
	tcase_add_test(tc, test_ifma_carry_in);
	tcase_add_test(tc, test_ifma_amm);
	tcase_add_test(tc, test_ifma_exp_ct2);
	tcase_add_test(tc, test_ifma_exp_windows);
	tcase_add_test(tc, test_ifma_exp_vt2);
	tcase_add_test(tc, test_ifma_drivers);
	tcase_add_test(tc, test_adx_scratch_wipe);
	tcase_add_test(tc, test_mb_amm);
	tcase_add_test(tc, test_mb_exp);
	tcase_add_test(tc, test_mb_exp_vt);
#endif
	tcase_add_test(tc, test_sign_batch);
	tcase_add_test(tc, test_sign_batch_bad);
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(rsa_suite)
