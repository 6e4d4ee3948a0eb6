// SPDX-License-Identifier: MIT
/*
 * Suite "kdf": HKDF (RFC 5869), PBKDF2 (RFC 8018) and QUIC header
 * protection masks (RFC 9001 section 5.4).
 *
 * Every test runs over every implementation of the HMAC / cipher it uses
 * (rt_impls), and checks published vectors (RFC 5869 appendix A, RFC 6070,
 * RFC 7914 section 11, RFC 9001 appendix A), Wycheproof files, and seeded
 * random differential runs against OpenSSL.
 *
 * Runtime: the RFC 6070 case with 16777216 iterations (and any Wycheproof
 * PBKDF2 case above 100000 iterations) only runs with RIND_TEST_SLOW=1 in
 * the environment; the Wycheproof PBKDF2 files (4096 iterations per case)
 * run in full against the implementation the registry picks, and against
 * the other implementations on every fourth case unless RIND_TEST_SLOW=1.
 */

#include "testutil.h"
#include <pthread.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#define SLOW_ITERATIONS 100000u

struct kdf_hash {
	const char *hmac;	/* rind name */
	const char *md;		/* OpenSSL digest name */
	unsigned int len;
	int required;		/* API.md says every build resolves it */
};

static const struct kdf_hash kdf_hashes[] = {
	{ "hmac(sha1)",   "SHA1",   20, 1 },
	{ "hmac(sha224)", "SHA224", 28, 0 },
	{ "hmac(sha256)", "SHA256", 32, 1 },
	{ "hmac(sha384)", "SHA384", 48, 1 },
	{ "hmac(sha512)", "SHA512", 64, 1 },
};

static int slow_tests(void)
{
	const char *s = getenv("RIND_TEST_SLOW");

	return s && *s && strcmp(s, "0");
}

static const struct kdf_hash *kdf_hash_by_name(const char *hmac)
{
	for (size_t i = 0; i < sizeof(kdf_hashes) / sizeof(kdf_hashes[0]); i++)
		if (!strcmp(kdf_hashes[i].hmac, hmac))
			return &kdf_hashes[i];
	return NULL;
}

/* Every implementation of @name, or 0 (with a SKIP line) if optional and absent. */
static int kdf_impls(const struct kdf_hash *h, char drv[][CRYPTO_MAX_ALG_NAME])
{
	if (!h->required && !crypto_has_shash(h->hmac, 0, 0)) {
		printf("SKIP: %s not available\n", h->hmac);
		return 0;
	}
	return rt_impls(h->hmac, "shash", drv, RT_MAX_IMPLS);
}

static struct crypto_shash *alloc_drv(const char *drv)
{
	return RT_ALLOC_DRV(shash, drv);
}

/* @fn on a tfm of every implementation of every kdf_hashes entry. */
typedef void (*kdf_impl_fn)(const struct kdf_hash *h, const char *drv, struct crypto_shash *tfm);

static void kdf_for_each_impl(kdf_impl_fn fn)
{
	char drv[RT_MAX_IMPLS][CRYPTO_MAX_ALG_NAME];

	for (size_t k = 0; k < sizeof(kdf_hashes) / sizeof(kdf_hashes[0]); k++) {
		const struct kdf_hash *h = &kdf_hashes[k];
		int n = kdf_impls(h, drv);

		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);

			fn(h, drv[i], tfm);
			crypto_free_shash(tfm);
		}
	}
}

/* Driver name the registry picks for @name. */
static void best_driver(const char *name, char *out)
{
	struct crypto_shash *tfm = crypto_alloc_shash(name, 0, 0);

	ck_assert_msg(!IS_ERR_OR_NULL(tfm), "%s: alloc failed", name);
	snprintf(out, CRYPTO_MAX_ALG_NAME, "%s", crypto_shash_driver_name(tfm));
	crypto_free_shash(tfm);
}

/* HKDF extract then expand with rind; returns the expand result. */
static int rind_hkdf(struct crypto_shash *tfm, const u8 *ikm, size_t ikmlen,
		     const u8 *salt, size_t saltlen, const u8 *info, size_t infolen,
		     u8 *prk, u8 *okm, size_t okmlen)
{
	int err;

	err = rind_hkdf_extract(tfm, ikm, ikmlen, salt, saltlen, prk);
	ck_assert_msg(err == 0, "%s: extract returned %d", crypto_shash_driver_name(tfm), err);
	err = crypto_shash_setkey(tfm, prk, crypto_shash_digestsize(tfm));
	ck_assert_msg(err == 0, "%s: setkey(prk) returned %d", crypto_shash_driver_name(tfm), err);
	return rind_hkdf_expand(tfm, info, infolen, okm, okmlen);
}

/* OpenSSL's HKDF (EVP_KDF "HKDF") in the given mode. */
static void ossl_hkdf(const char *md, int mode, const u8 *ikm, size_t ikmlen,
		      const u8 *salt, size_t saltlen, const u8 *info, size_t infolen,
		      u8 *out, size_t outlen)
{
	EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
	EVP_KDF_CTX *kctx;
	OSSL_PARAM params[6], *p = params;

	ck_assert_ptr_nonnull(kdf);
	kctx = EVP_KDF_CTX_new(kdf);
	ck_assert_ptr_nonnull(kctx);
	*p++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)md, 0);
	*p++ = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
	*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)ikm, ikmlen);
	if (saltlen)
		*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, saltlen);
	if (infolen)
		*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, infolen);
	*p = OSSL_PARAM_construct_end();
	ck_assert_msg(EVP_KDF_derive(kctx, out, outlen, params) == 1, "OpenSSL HKDF-%s failed", md);
	EVP_KDF_CTX_free(kctx);
	EVP_KDF_free(kdf);
}

/* -------------------------------------------------------- Wycheproof */

/* One implementation's pass over a Wycheproof file. */
struct kdf_wp_run {
	const char *file, *drv;
	struct crypto_shash *tfm;
	bool is_best;		/* @drv is the registry's pick for the hash */
	int idx;		/* left to the case function (PBKDF2 samples) */
	int valid, invalid;	/* tallied by the case function, if it does */
};

/* Checks one test of the file; false: skipped (not run). */
typedef bool (*kdf_wp_case_fn)(struct kdf_wp_run *run, json_t *test);

/*
 * Every test of the Wycheproof @file through @one, for every implementation
 * of @hmac.  With @invalid_note, a line tallies valid and invalid cases
 * (the note says how invalid ones were checked) before the case count.
 */
static void kdf_wycheproof(const char *file, const char *hmac, kdf_wp_case_fn one,
			   const char *invalid_note)
{
	const struct kdf_hash *h = kdf_hash_by_name(hmac);
	char drv[RT_MAX_IMPLS][CRYPTO_MAX_ALG_NAME], best[CRYPTO_MAX_ALG_NAME];
	json_t *root = rt_wp_load(file);
	int n;

	if (!root)
		return;
	n = kdf_impls(h, drv);
	if (n)
		best_driver(hmac, best);
	for (int i = 0; i < n; i++) {
		struct kdf_wp_run run = {
			.file = file,
			.drv = drv[i],
			.tfm = alloc_drv(drv[i]),
			.is_best = !strcmp(drv[i], best),
		};
		int ran = 0, skipped = 0;
		size_t gi, ti;
		json_t *group, *test;

		json_array_foreach(json_object_get(root, "testGroups"), gi, group) {
			json_array_foreach(json_object_get(group, "tests"), ti, test) {
				if (one(&run, test))
					ran++;
				else
					skipped++;
			}
		}
		crypto_free_shash(run.tfm);
		if (invalid_note)
			printf("%s: %d valid, %d invalid (%s)\n", file, run.valid, run.invalid,
			       invalid_note);
		rt_report(file, drv[i], ran, skipped);
	}
	json_decref(root);
}

/* ---------------------------------------------------------------- HKDF */

struct hkdf_kat {
	const char *name;
	const char *hmac;
	const char *ikm, *salt, *info;	/* salt NULL: "not provided" */
	unsigned int len;
	const char *prk, *okm;
};

/* RFC 5869 A.2 and A.5 (SHA-256 and SHA-1): the same longer inputs. */
#define A25_IKM \
	"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f" \
	"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f" \
	"404142434445464748494a4b4c4d4e4f"
#define A25_SALT \
	"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f" \
	"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f" \
	"a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"
#define A25_INFO \
	"b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecf" \
	"d0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeef" \
	"f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"

/* RFC 5869 appendix A, test cases 1 to 7. */
static const struct hkdf_kat rfc5869[] = {
	{ "A.1", "hmac(sha256)",
	  "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
	  "000102030405060708090a0b0c", "f0f1f2f3f4f5f6f7f8f9", 42,
	  "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
	  "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
	  "34007208d5b887185865" },
	{ "A.2", "hmac(sha256)",
	  A25_IKM, A25_SALT, A25_INFO, 82,
	  "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
	  "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
	  "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
	  "cc30c58179ec3e87c14c01d5c1f3434f1d87" },
	{ "A.3", "hmac(sha256)",
	  "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "", "", 42,
	  "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
	  "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d"
	  "9d201395faa4b61a96c8" },
	{ "A.4", "hmac(sha1)",
	  "0b0b0b0b0b0b0b0b0b0b0b", "000102030405060708090a0b0c",
	  "f0f1f2f3f4f5f6f7f8f9", 42,
	  "9b6c18c432a7bf8f0e71c8eb88f4b30baa2ba243",
	  "085a01ea1b10f36933068b56efa5ad81a4f14b822f5b091568a9cdd4f155fda2"
	  "c22e422478d305f3f896" },
	{ "A.5", "hmac(sha1)",
	  A25_IKM, A25_SALT, A25_INFO, 82,
	  "8adae09a2a307059478d309b26c4115a224cfaf6",
	  "0bd770a74d1160f7c9f12cd5912a06ebff6adcae899d92191fe4305673ba2ffe"
	  "8fa3f1a4e5ad79f3f334b3b202b2173c486ea37ce3d397ed034c7f9dfeb15c5e"
	  "927336d0441f4c4300e2cff0d0900b52d3b4" },
	{ "A.6", "hmac(sha1)",
	  "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "", "", 42,
	  "da8c8a73c7fa77288ec6f5e7c297786aa0d32d01",
	  "0ac1af7002b3d761d1e55298da9d0506b9ae52057220a306e07b6b87e8df21d0"
	  "ea00033de03984d34918" },
	{ "A.7", "hmac(sha1)",
	  "0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c", NULL, "", 42,
	  "2adccada18779e7c2077ad2eb19d3f3e731385dd",
	  "2c91117204d745f3500d636a62f64f0ab3bae548aa53d423b0d1f27ebba6f5e5"
	  "673a081d70cce7acfc48" },
};

START_TEST(test_hkdf_rfc5869)
{
	char drv[RT_MAX_IMPLS][CRYPTO_MAX_ALG_NAME];
	int runs = 0;

	for (size_t k = 0; k < sizeof(rfc5869) / sizeof(rfc5869[0]); k++) {
		const struct hkdf_kat *v = &rfc5869[k];
		u8 ikm[128], salt[128], info[256], prk[64], okm[128];
		u8 eprk[64], eokm[128], out[128];
		size_t ikmlen, saltlen, infolen, prklen, okmlen;
		int n;

		ikmlen = rt_unhex(ikm, sizeof(ikm), v->ikm);
		saltlen = v->salt ? rt_unhex(salt, sizeof(salt), v->salt) : 0;
		infolen = rt_unhex(info, sizeof(info), v->info);
		prklen = rt_unhex(eprk, sizeof(eprk), v->prk);
		okmlen = rt_unhex(eokm, sizeof(eokm), v->okm);
		ck_assert_uint_eq(okmlen, v->len);

		n = rt_impls(v->hmac, "shash", drv, RT_MAX_IMPLS);
		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);

			ck_assert_uint_eq(crypto_shash_digestsize(tfm), prklen);
			memset(prk, 0xa5, sizeof(prk));
			ck_assert_int_eq(rind_hkdf_extract(tfm, ikm, ikmlen,
							   v->salt ? salt : NULL, saltlen, prk), 0);
			ck_assert_msg(!memcmp(prk, eprk, prklen), "%s %s: PRK %s", drv[i],
				      v->name, rt_hex(prk, prklen));
			/* Extract leaves the tfm keyed with the salt: re-key with the PRK. */
			ck_assert_int_eq(crypto_shash_setkey(tfm, prk, prklen), 0);
			memset(okm, 0xa5, sizeof(okm));
			ck_assert_int_eq(rind_hkdf_expand(tfm, infolen ? info : NULL, infolen,
							  okm, okmlen), 0);
			ck_assert_msg(!memcmp(okm, eokm, okmlen), "%s %s: OKM %s", drv[i],
				      v->name, rt_hex(okm, okmlen));
			ck_assert_msg(okm[okmlen] == 0xa5, "%s %s: wrote past okmlen", drv[i], v->name);

			/* Every shorter output is a prefix of the full one. */
			for (size_t l = 1; l < okmlen; l += 7) {
				memset(out, 0xa5, sizeof(out));
				ck_assert_int_eq(rind_hkdf_expand(tfm, info, infolen, out, l), 0);
				ck_assert_msg(!memcmp(out, eokm, l) && out[l] == 0xa5,
					      "%s %s: OKM prefix %zu", drv[i], v->name, l);
			}

			/*
			 * A zero-length salt, a NULL salt and HashLen zero
			 * bytes are the same salt (RFC 5869 section 2.2).
			 */
			if (!saltlen) {
				u8 zeros[64] = { 0 };

				ck_assert_int_eq(rind_hkdf_extract(tfm, ikm, ikmlen, zeros,
								   prklen, prk), 0);
				ck_assert_msg(!memcmp(prk, eprk, prklen), "%s %s: zero salt",
					      drv[i], v->name);
				ck_assert_int_eq(rind_hkdf_extract(tfm, ikm, ikmlen,
								   v->salt ? NULL : salt, 0, prk), 0);
				ck_assert_msg(!memcmp(prk, eprk, prklen), "%s %s: empty salt",
					      drv[i], v->name);
			}
			crypto_free_shash(tfm);
			runs++;
		}
	}
	rt_report("RFC 5869 appendix A (7 cases)", "every hmac(sha1/sha256)", runs, 0);
}
END_TEST

/* One Wycheproof HKDF case: its only invalid ones are "SizeTooLarge", L > 255 * HashLen. */
static bool hkdf_wp_case(struct kdf_wp_run *run, json_t *test)
{
	const char *file = run->file, *drv = run->drv;
	int tc = (int)json_integer_value(json_object_get(test, "tcId"));
	size_t size = json_integer_value(json_object_get(test, "size"));
	int result = rt_wp_result(test);
	size_t ikmlen, saltlen, infolen, okmlen;
	u8 *ikm = rt_wp_hex(test, "ikm", &ikmlen);
	u8 *salt = rt_wp_hex(test, "salt", &saltlen);
	u8 *info = rt_wp_hex(test, "info", &infolen);
	u8 *eokm = rt_wp_hex(test, "okm", &okmlen);
	u8 *okm = malloc(size + 1);
	u8 prk[64];
	int err;

	ck_assert_ptr_nonnull(okm);
	memset(okm, 0x5a, size + 1);
	err = rind_hkdf(run->tfm, ikm, ikmlen, salt, saltlen, info, infolen, prk, okm, size);
	if (result == 1) {
		ck_assert_msg(err == 0, "%s %s tc %d: returned %d", file, drv, tc, err);
		ck_assert_uint_eq(okmlen, size);
		ck_assert_msg(!memcmp(okm, eokm, size), "%s %s tc %d: OKM differs", file, drv, tc);
		run->valid++;
	} else if (result == 0) {
		ck_assert_msg(err == -EINVAL, "%s %s tc %d: returned %d, want -EINVAL",
			      file, drv, tc, err);
		for (size_t b = 0; b <= size; b++)
			ck_assert_msg(okm[b] == 0x5a, "%s %s tc %d: output written on error",
				      file, drv, tc);
		run->invalid++;
	}
	ck_assert_msg(okm[size] == 0x5a, "%s %s tc %d: overrun", file, drv, tc);
	free(ikm);
	free(salt);
	free(info);
	free(eokm);
	free(okm);
	return true;
}

START_TEST(test_hkdf_wycheproof)
{
	static const char note[] = "rejected with -EINVAL";

	kdf_wycheproof("hkdf_sha1_test.json", "hmac(sha1)", hkdf_wp_case, note);
	kdf_wycheproof("hkdf_sha256_test.json", "hmac(sha256)", hkdf_wp_case, note);
	kdf_wycheproof("hkdf_sha384_test.json", "hmac(sha384)", hkdf_wp_case, note);
	kdf_wycheproof("hkdf_sha512_test.json", "hmac(sha512)", hkdf_wp_case, note);
}
END_TEST

/* Random inputs against OpenSSL's HKDF, extract-only and extract-and-expand. */
static void hkdf_openssl_one(const struct kdf_hash *h, const char *drv,
			     struct crypto_shash *tfm)
{
	const size_t k = h - kdf_hashes;
	struct rt_rng rng;
	int ran = 0;

	rt_rng_seed(&rng, 0x4b44460000ull + k);
	for (int it = 0; it < 150; it++) {
		u8 ikm[300], salt[300], info[300];
		u8 prk[64], eprk[64];
		static u8 okm[255 * 64 + 1], eokm[255 * 64];
		size_t ikmlen = 1 + rt_rand_range(&rng, sizeof(ikm));
		size_t saltlen = rt_rand_range(&rng, 4) ? rt_rand_range(&rng, sizeof(salt)) : 0;
		size_t infolen = rt_rand_range(&rng, 4) ? rt_rand_range(&rng, sizeof(info)) : 0;
		size_t okmlen;

		switch (rt_rand_range(&rng, 4)) {
		case 0:
			okmlen = 1 + rt_rand_range(&rng, h->len);
			break;
		case 1:
			okmlen = 1 + rt_rand_range(&rng, 4 * h->len);
			break;
		case 2:
			okmlen = 255 * h->len - rt_rand_range(&rng, 2 * h->len);
			break;
		default:
			okmlen = 1 + rt_rand_range(&rng, 255 * h->len);
			break;
		}
		rt_fill(&rng, ikm, ikmlen);
		rt_fill(&rng, salt, saltlen);
		rt_fill(&rng, info, infolen);

		ossl_hkdf(h->md, EVP_KDF_HKDF_MODE_EXTRACT_ONLY, ikm, ikmlen,
			  salt, saltlen, NULL, 0, eprk, h->len);
		ossl_hkdf(h->md, EVP_KDF_HKDF_MODE_EXTRACT_AND_EXPAND, ikm, ikmlen,
			  salt, saltlen, info, infolen, eokm, okmlen);
		okm[okmlen] = 0xee;
		ck_assert_int_eq(rind_hkdf(tfm, ikm, ikmlen, saltlen ? salt : NULL,
					   saltlen, info, infolen, prk, okm, okmlen), 0);
		ck_assert_msg(!memcmp(prk, eprk, h->len),
			      "%s iter %d: PRK differs (ikm %zu salt %zu)",
			      drv, it, ikmlen, saltlen);
		ck_assert_msg(!memcmp(okm, eokm, okmlen),
			      "%s iter %d: OKM differs (info %zu L %zu)",
			      drv, it, infolen, okmlen);
		ck_assert_msg(okm[okmlen] == 0xee, "%s iter %d: overrun", drv, it);
		ran++;
	}
	rt_report("HKDF vs OpenSSL (seeded random)", drv, ran, 0);
}

START_TEST(test_hkdf_openssl)
{
	kdf_for_each_impl(hkdf_openssl_one);
}
END_TEST

/*
 * rind_hkdf_expand hashes T(i-1) | info | i from one stack buffer when it
 * fits (256 bytes) and with separate updates when it does not: info lengths
 * on both sides of that limit for every hash, one and several blocks of
 * output, against OpenSSL's expand-only HKDF; and the tfm keyed with the
 * PRK is not changed by expand (a second expand gives the same bytes).
 */
static void hkdf_expand_info_one(const struct kdf_hash *h, const char *drv,
				 struct crypto_shash *tfm)
{
	const size_t k = h - kdf_hashes;
	const unsigned int lim = 256 - 1 - h->len;	/* longest info in the buffer */
	const unsigned int infolens[] = { 0, 1, lim - 1, lim, lim + 1, lim + 2, 300 };
	const unsigned int okmlens[] = { 1, h->len - 1, h->len, h->len + 1, 3 * h->len + 5 };
	struct rt_rng rng;
	int ran = 0;

	rt_rng_seed(&rng, 0x6578706eull + k);
	for (size_t a = 0; a < sizeof(infolens) / sizeof(infolens[0]); a++) {
		for (size_t b = 0; b < sizeof(okmlens) / sizeof(okmlens[0]); b++) {
			u8 prk[64], info[300];
			u8 okm[3 * 64 + 5 + 1], okm2[3 * 64 + 5], eokm[3 * 64 + 5];
			unsigned int il = infolens[a], ol = okmlens[b];

			rt_fill(&rng, prk, h->len);
			rt_fill(&rng, info, il);
			ossl_hkdf(h->md, EVP_KDF_HKDF_MODE_EXPAND_ONLY, prk, h->len,
				  NULL, 0, info, il, eokm, ol);
			ck_assert_int_eq(crypto_shash_setkey(tfm, prk, h->len), 0);
			okm[ol] = 0xee;
			ck_assert_int_eq(rind_hkdf_expand(tfm, il ? info : NULL, il,
							  okm, ol), 0);
			ck_assert_msg(!memcmp(okm, eokm, ol),
				      "%s: info %u, L %u: OKM differs", drv, il, ol);
			ck_assert_msg(okm[ol] == 0xee, "%s: info %u, L %u: overrun",
				      drv, il, ol);
			ck_assert_int_eq(rind_hkdf_expand(tfm, info, il, okm2, ol), 0);
			ck_assert_msg(!memcmp(okm2, eokm, ol),
				      "%s: info %u, L %u: second expand differs",
				      drv, il, ol);
			ran++;
		}
	}
	rt_report("HKDF expand, info around the buffer limit", drv, ran, 0);
}

START_TEST(test_hkdf_expand_info_lengths)
{
	kdf_for_each_impl(hkdf_expand_info_one);
}
END_TEST

static void hkdf_errors_one(const struct kdf_hash *h, const char *drv,
			    struct crypto_shash *tfm)
{
	static u8 okm[255 * 64 + 16], ref[255 * 64];
	u8 prk[64], prk2[64], eprk[64];
	const u8 key[] = "input keying material";

	ck_assert_int_eq(rind_hkdf_extract(tfm, key, sizeof(key), NULL, 0, prk), 0);
	ck_assert_int_eq(crypto_shash_setkey(tfm, prk, h->len), 0);

	/* L = 255 * HashLen works and matches OpenSSL; one more is -EINVAL. */
	ck_assert_int_eq(rind_hkdf_expand(tfm, NULL, 0, ref, 255 * h->len), 0);
	memset(okm, 0x33, sizeof(okm));
	ck_assert_int_eq(rind_hkdf_expand(tfm, NULL, 0, okm, 255 * h->len + 1), -EINVAL);
	ck_assert_int_eq(rind_hkdf_expand(tfm, NULL, 0, okm, ~0u), -EINVAL);
	for (size_t b = 0; b < sizeof(okm); b++)
		ck_assert_msg(okm[b] == 0x33, "%s: output written on -EINVAL", drv);
	/* L = 0 is fine and writes nothing. */
	ck_assert_int_eq(rind_hkdf_expand(tfm, NULL, 0, okm, 0), 0);
	ck_assert_int_eq(rind_hkdf_expand(tfm, NULL, 0, NULL, 0), 0);
	ck_assert_int_eq(okm[0], 0x33);
	/* The tfm still holds the PRK: same output again. */
	ck_assert_int_eq(rind_hkdf_expand(tfm, (const u8 *)"", 0, okm, 255 * h->len), 0);
	ck_assert_msg(!memcmp(okm, ref, 255 * h->len), "%s: expand not repeatable", drv);
	ossl_hkdf(h->md, EVP_KDF_HKDF_MODE_EXTRACT_AND_EXPAND, key, sizeof(key),
		  NULL, 0, NULL, 0, okm, 255 * h->len);
	ck_assert_msg(!memcmp(okm, ref, 255 * h->len), "%s: maximal L vs OpenSSL", drv);

	/* Empty IKM (NULL or not) = HMAC(zeros, "") */
	ck_assert_int_eq(rind_hkdf_extract(tfm, NULL, 0, NULL, 0, prk), 0);
	ck_assert_int_eq(rind_hkdf_extract(tfm, key, 0, key, 0, prk2), 0);
	ck_assert_msg(!memcmp(prk, prk2, h->len), "%s: empty IKM", drv);
	{
		u8 zeros[64] = { 0 };
		unsigned int l = 0;

		ck_assert_ptr_nonnull(HMAC(EVP_get_digestbyname(h->md), zeros,
					   (int)h->len, (const u8 *)"", 0, eprk, &l));
		ck_assert_msg(!memcmp(prk, eprk, h->len), "%s: empty IKM vs OpenSSL",
			      drv);
	}

	/* Salt longer than the block size (HMAC hashes it first). */
	{
		u8 salt[200];
		u8 o1[64];

		for (size_t b = 0; b < sizeof(salt); b++)
			salt[b] = (u8)b;
		ck_assert_int_eq(rind_hkdf_extract(tfm, key, sizeof(key), salt,
						   sizeof(salt), prk), 0);
		ossl_hkdf(h->md, EVP_KDF_HKDF_MODE_EXTRACT_ONLY, key, sizeof(key),
			  salt, sizeof(salt), NULL, 0, o1, h->len);
		ck_assert_msg(!memcmp(prk, o1, h->len), "%s: long salt", drv);
	}

	/* Bad arguments. */
	ck_assert_int_eq(rind_hkdf_extract(tfm, NULL, 5, NULL, 0, prk), -EINVAL);
	ck_assert_int_eq(rind_hkdf_extract(tfm, key, 5, NULL, 5, prk), -EINVAL);
	ck_assert_int_eq(rind_hkdf_extract(tfm, key, 5, NULL, 0, NULL), -EINVAL);
	ck_assert_int_eq(rind_hkdf_expand(tfm, NULL, 3, okm, 16), -EINVAL);
	ck_assert_int_eq(rind_hkdf_expand(tfm, NULL, 0, NULL, 16), -EINVAL);
}

START_TEST(test_hkdf_errors)
{
	kdf_for_each_impl(hkdf_errors_one);
	ck_assert_int_eq(rind_hkdf_expand(NULL, NULL, 0, NULL, 0), -EINVAL);
}
END_TEST

/* -------------------------------------------------------------- PBKDF2 */

struct pbkdf2_kat {
	const char *name;
	const char *hmac;
	const char *pass;
	size_t passlen;
	const char *salt;
	size_t saltlen;
	unsigned int iterations;
	unsigned int dklen;
	const char *dk;
};

static const struct pbkdf2_kat pbkdf2_kats[] = {
	/* RFC 6070 (PBKDF2-HMAC-SHA1) */
	{ "RFC 6070 #1", "hmac(sha1)", "password", 8, "salt", 4, 1, 20,
	  "0c60c80f961f0e71f3a9b524af6012062fe037a6" },
	{ "RFC 6070 #2", "hmac(sha1)", "password", 8, "salt", 4, 2, 20,
	  "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957" },
	{ "RFC 6070 #3", "hmac(sha1)", "password", 8, "salt", 4, 4096, 20,
	  "4b007901b765489abead49d926f721d065a429c1" },
	{ "RFC 6070 #4", "hmac(sha1)", "password", 8, "salt", 4, 16777216, 20,
	  "eefe3d61cd4da4e4e9945b3d6ba2158c2634e984" },
	{ "RFC 6070 #5", "hmac(sha1)", "passwordPASSWORDpassword", 24,
	  "saltSALTsaltSALTsaltSALTsaltSALTsalt", 36, 4096, 25,
	  "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038" },
	{ "RFC 6070 #6", "hmac(sha1)", "pass\0word", 9, "sa\0lt", 5, 4096, 16,
	  "56fa6aa75548099dcc37d7f03425e0c3" },
	/* RFC 7914 section 11 (PBKDF2-HMAC-SHA256) */
	{ "RFC 7914 #1", "hmac(sha256)", "passwd", 6, "salt", 4, 1, 64,
	  "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
	  "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783" },
	{ "RFC 7914 #2", "hmac(sha256)", "Password", 8, "NaCl", 4, 80000, 64,
	  "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
	  "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d" },
};

START_TEST(test_pbkdf2_rfc)
{
	char drv[RT_MAX_IMPLS][CRYPTO_MAX_ALG_NAME];
	int ran = 0, skipped = 0;

	for (size_t k = 0; k < sizeof(pbkdf2_kats) / sizeof(pbkdf2_kats[0]); k++) {
		const struct pbkdf2_kat *v = &pbkdf2_kats[k];
		u8 edk[64], dk[65];
		size_t dklen = rt_unhex(edk, sizeof(edk), v->dk);
		int n;

		ck_assert_uint_eq(dklen, v->dklen);
		if (v->iterations > SLOW_ITERATIONS && !slow_tests()) {
			printf("SKIP: %s (%u iterations; set RIND_TEST_SLOW=1)\n", v->name,
			       v->iterations);
			skipped++;
			continue;
		}
		n = rt_impls(v->hmac, "shash", drv, RT_MAX_IMPLS);
		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);

			memset(dk, 0xc3, sizeof(dk));
			ck_assert_int_eq(rind_pbkdf2(tfm, (const u8 *)v->pass, v->passlen,
						     (const u8 *)v->salt, v->saltlen, v->iterations,
						     dk, dklen), 0);
			ck_assert_msg(!memcmp(dk, edk, dklen), "%s %s: DK %s", drv[i], v->name,
				      rt_hex(dk, dklen));
			ck_assert_msg(dk[dklen] == 0xc3, "%s %s: overrun", drv[i], v->name);
			crypto_free_shash(tfm);
			ran++;
		}
	}
	rt_report("RFC 6070 + RFC 7914 PBKDF2", "every hmac(sha1/sha256)", ran, skipped);
}
END_TEST

static bool pbkdf2_wp_case(struct kdf_wp_run *run, json_t *test)
{
	const char *file = run->file, *drv = run->drv;
	int tc = (int)json_integer_value(json_object_get(test, "tcId"));
	unsigned int c = json_integer_value(json_object_get(test, "iterationCount"));
	size_t dklen = json_integer_value(json_object_get(test, "dkLen"));
	int result = rt_wp_result(test);
	size_t passlen, saltlen, edklen;
	u8 *pass, *salt, *edk, *dk;
	int err;

	/*
	 * Keep make check short: 2^24-iteration cases only with
	 * RIND_TEST_SLOW; implementations other than the registry's pick get
	 * every fourth case.
	 */
	if (!slow_tests() && (c > SLOW_ITERATIONS || (!run->is_best && run->idx++ % 4)))
		return false;
	pass = rt_wp_hex(test, "password", &passlen);
	salt = rt_wp_hex(test, "salt", &saltlen);
	edk = rt_wp_hex(test, "dk", &edklen);
	dk = malloc(dklen + 1);
	ck_assert_ptr_nonnull(dk);
	memset(dk, 0x77, dklen + 1);
	err = rind_pbkdf2(run->tfm, pass, passlen, salt, saltlen, c, dk, dklen);
	if (result == 1) {
		ck_assert_msg(err == 0, "%s %s tc %d: returned %d", file, drv, tc, err);
		ck_assert_uint_eq(edklen, dklen);
		ck_assert_msg(!memcmp(dk, edk, dklen), "%s %s tc %d: DK differs", file, drv, tc);
	} else if (result == 0) {
		ck_assert_msg(err != 0, "%s %s tc %d: invalid case accepted", file, drv, tc);
	}
	ck_assert_msg(dk[dklen] == 0x77, "%s %s tc %d: overrun", file, drv, tc);
	free(pass);
	free(salt);
	free(edk);
	free(dk);
	return true;
}

START_TEST(test_pbkdf2_wycheproof)
{
	kdf_wycheproof("pbkdf2_hmacsha1_test.json", "hmac(sha1)", pbkdf2_wp_case, NULL);
	kdf_wycheproof("pbkdf2_hmacsha224_test.json", "hmac(sha224)", pbkdf2_wp_case, NULL);
	kdf_wycheproof("pbkdf2_hmacsha256_test.json", "hmac(sha256)", pbkdf2_wp_case, NULL);
	kdf_wycheproof("pbkdf2_hmacsha384_test.json", "hmac(sha384)", pbkdf2_wp_case, NULL);
	kdf_wycheproof("pbkdf2_hmacsha512_test.json", "hmac(sha512)", pbkdf2_wp_case, NULL);
}
END_TEST

static void pbkdf2_openssl_one(const struct kdf_hash *h, const char *drv,
			       struct crypto_shash *tfm)
{
	const size_t k = h - kdf_hashes;
	struct rt_rng rng;
	int ran = 0;

	rt_rng_seed(&rng, 0x50424b4400ull + k);
	for (int it = 0; it < 60; it++) {
		u8 pass[300], salt[200], dk[401], edk[400];
		/* Empty passwords and salts, and passwords longer than a block. */
		size_t passlen = rt_rand_range(&rng, 5) ? rt_rand_range(&rng, sizeof(pass)) : 0;
		size_t saltlen = rt_rand_range(&rng, 5) ? rt_rand_range(&rng, sizeof(salt)) : 0;
		unsigned int c = 1 + rt_rand_range(&rng, rt_rand_range(&rng, 4) ? 40 : 1000);
		size_t dklen = 1 + rt_rand_range(&rng, sizeof(edk));

		rt_fill(&rng, pass, passlen);
		rt_fill(&rng, salt, saltlen);
		ck_assert_int_eq(PKCS5_PBKDF2_HMAC((const char *)pass, (int)passlen, salt,
						   (int)saltlen, (int)c,
						   EVP_get_digestbyname(h->md),
						   (int)dklen, edk), 1);
		dk[dklen] = 0x99;
		ck_assert_int_eq(rind_pbkdf2(tfm, passlen ? pass : NULL, passlen,
					     saltlen ? salt : NULL, saltlen, c,
					     dk, dklen), 0);
		ck_assert_msg(!memcmp(dk, edk, dklen),
			      "%s iter %d: DK differs (pass %zu salt %zu c %u dkLen %zu)",
			      drv, it, passlen, saltlen, c, dklen);
		ck_assert_msg(dk[dklen] == 0x99, "%s iter %d: overrun", drv, it);
		ran++;
	}
	rt_report("PBKDF2 vs OpenSSL (seeded random)", drv, ran, 0);
}

START_TEST(test_pbkdf2_openssl)
{
	kdf_for_each_impl(pbkdf2_openssl_one);
}
END_TEST

static void pbkdf2_errors_one(const struct kdf_hash *h, const char *drv,
			      struct crypto_shash *tfm)
{
	const u8 pw[] = "pw", salt[] = "NaCl";
	u8 dk[64], ref[64];

	memset(dk, 0x11, sizeof(dk));
	/* c and dkLen must be positive (RFC 8018 section 5.2). */
	ck_assert_int_eq(rind_pbkdf2(tfm, pw, 2, salt, 4, 0, dk, 16), -EINVAL);
	ck_assert_int_eq(rind_pbkdf2(tfm, pw, 2, salt, 4, 1, dk, 0), -EINVAL);
	ck_assert_int_eq(rind_pbkdf2(tfm, NULL, 2, salt, 4, 1, dk, 16), -EINVAL);
	ck_assert_int_eq(rind_pbkdf2(tfm, pw, 2, NULL, 4, 1, dk, 16), -EINVAL);
	ck_assert_int_eq(rind_pbkdf2(tfm, pw, 2, salt, 4, 1, NULL, 16), -EINVAL);
	for (size_t b = 0; b < sizeof(dk); b++)
		ck_assert_msg(dk[b] == 0x11, "%s: output written on -EINVAL", drv);

	/* Empty password and salt, NULL or not. */
	ck_assert_int_eq(PKCS5_PBKDF2_HMAC("", 0, (const u8 *)"", 0, 3,
					   EVP_get_digestbyname(h->md), 64, ref), 1);
	ck_assert_int_eq(rind_pbkdf2(tfm, NULL, 0, NULL, 0, 3, dk, 64), 0);
	ck_assert_msg(!memcmp(dk, ref, 64), "%s: empty password/salt", drv);
	ck_assert_int_eq(rind_pbkdf2(tfm, pw, 0, salt, 0, 3, dk, 64), 0);
	ck_assert_msg(!memcmp(dk, ref, 64), "%s: empty password/salt", drv);
}

START_TEST(test_pbkdf2_errors)
{
	kdf_for_each_impl(pbkdf2_errors_one);
	ck_assert_int_eq(rind_pbkdf2(NULL, NULL, 0, NULL, 0, 1, (u8 *)"", 1), -EINVAL);
}
END_TEST

/* ------------------------------------------------------ QUIC header mask */

struct hp_kat {
	const char *name, *alg, *key, *sample, *mask;
};

static const struct hp_kat rfc9001_hp[] = {
	{ "RFC 9001 A.2 (client Initial)", "aes", "9f50449e04a0e810283a1e9933adedd2",
	  "d1b1c98dd7689fb8ec11d242b123dc9b", "437b9aec36" },
	{ "RFC 9001 A.3 (server Initial)", "aes", "c206b8d9b9f0f37644430b490eeaa314",
	  "2cd0991cd25b0aac406a5816b6394100", "2ec0d8356a" },
	{ "RFC 9001 A.5 (ChaCha20 short header)", "chacha20",
	  "25a282b9e82f06f21f488917a4fc8f1b73573685608597d0efcb076b0ab7a7a4",
	  "5e5cd55c41f69080575d7999c25a5bfb", "aefefe7d03" },
};

/* AES-ECB of the sample through a given "aes" cipher driver. */
static void hp_mask_cipher(const char *drv, const u8 *key, unsigned int keylen,
			   const u8 *sample, u8 *mask)
{
	struct crypto_cipher *tfm = crypto_alloc_cipher(drv, 0, 0);
	u8 block[16];

	ck_assert_msg(!IS_ERR_OR_NULL(tfm), "%s: alloc failed", drv);
	ck_assert_str_eq(crypto_cipher_driver_name(tfm), drv);
	ck_assert_int_eq(crypto_cipher_setkey(tfm, key, keylen), 0);
	crypto_cipher_encrypt_one(tfm, block, sample);
	memcpy(mask, block, 5);
	crypto_free_cipher(tfm);
}

/* ChaCha20 keystream of 5 bytes through a given "chacha20" skcipher driver. */
static void hp_mask_chacha(const char *drv, const u8 *key, const u8 *sample, u8 *mask)
{
	struct crypto_skcipher *tfm = crypto_alloc_skcipher(drv, 0, 0);
	struct skcipher_request *req;
	struct scatterlist sg;
	u8 iv[16], buf[5] = { 0 };

	ck_assert_msg(!IS_ERR_OR_NULL(tfm), "%s: alloc failed", drv);
	ck_assert_str_eq(crypto_skcipher_driver_name(tfm), drv);
	ck_assert_uint_eq(crypto_skcipher_ivsize(tfm), 16);
	ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, 32), 0);
	req = skcipher_request_alloc(tfm, GFP_KERNEL);
	ck_assert_ptr_nonnull(req);
	memcpy(iv, sample, 16);
	sg_init_one(&sg, buf, sizeof(buf));
	skcipher_request_set_callback(req, 0, NULL, NULL);
	skcipher_request_set_crypt(req, &sg, &sg, sizeof(buf), iv);
	ck_assert_int_eq(crypto_skcipher_encrypt(req), 0);
	memcpy(mask, buf, 5);
	skcipher_request_free(req);
	crypto_free_skcipher(tfm);
}

/* The mask through one "aes" cipher or "chacha20" skcipher driver. */
static void hp_mask_drv(const char *drv, bool aes, const u8 *key, unsigned int keylen,
			const u8 *sample, u8 *mask)
{
	if (aes)
		hp_mask_cipher(drv, key, keylen, sample, mask);
	else
		hp_mask_chacha(drv, key, sample, mask);
}

static void ossl_hp_mask(const char *alg, const u8 *key, unsigned int keylen,
			 const u8 *sample, u8 *mask)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	const EVP_CIPHER *c;
	u8 in[16] = { 0 }, out[32];
	int l = 0;

	if (!strcmp(alg, "aes")) {
		c = keylen == 16 ? EVP_aes_128_ecb() : EVP_aes_256_ecb();
		memcpy(in, sample, 16);
		ck_assert_int_eq(EVP_EncryptInit_ex(ctx, c, NULL, key, NULL), 1);
		EVP_CIPHER_CTX_set_padding(ctx, 0);
		ck_assert_int_eq(EVP_EncryptUpdate(ctx, out, &l, in, 16), 1);
	} else {
		/* OpenSSL's chacha20 IV is also LE counter || 96-bit nonce. */
		ck_assert_int_eq(EVP_EncryptInit_ex(ctx, EVP_chacha20(), NULL, key, sample), 1);
		ck_assert_int_eq(EVP_EncryptUpdate(ctx, out, &l, in, 5), 1);
	}
	memcpy(mask, out, 5);
	EVP_CIPHER_CTX_free(ctx);
}

START_TEST(test_quic_hp_rfc9001)
{
	char drv[RT_MAX_IMPLS][CRYPTO_MAX_ALG_NAME];

	for (size_t k = 0; k < sizeof(rfc9001_hp) / sizeof(rfc9001_hp[0]); k++) {
		const struct hp_kat *v = &rfc9001_hp[k];
		int aes = !strcmp(v->alg, "aes");
		u8 key[32], sample[16], emask[5], mask[6];
		size_t keylen = rt_unhex(key, sizeof(key), v->key);
		int n;

		ck_assert_uint_eq(rt_unhex(sample, sizeof(sample), v->sample), 16);
		ck_assert_uint_eq(rt_unhex(emask, sizeof(emask), v->mask), 5);

		memset(mask, 0xbb, sizeof(mask));
		ck_assert_int_eq(rind_quic_hp_mask(v->alg, key, keylen, sample, mask), 0);
		ck_assert_msg(!memcmp(mask, emask, 5), "%s: rind_quic_hp_mask gave %s", v->name,
			      rt_hex(mask, 5));
		ck_assert_msg(mask[5] == 0xbb, "%s: wrote past the 5-byte mask", v->name);

		/* The same mask through each implementation, used directly. */
		n = rt_impls(v->alg, aes ? "cipher" : "skcipher", drv, RT_MAX_IMPLS);
		for (int i = 0; i < n; i++) {
			memset(mask, 0, sizeof(mask));
			hp_mask_drv(drv[i], aes, key, keylen, sample, mask);
			ck_assert_msg(!memcmp(mask, emask, 5), "%s %s: mask %s", drv[i], v->name,
				      rt_hex(mask, 5));
		}
		rt_report(v->name, aes ? "every aes" : "every chacha20", n + 1, 0);
	}
}
END_TEST

/* AES-128/256 and ChaCha20 masks against OpenSSL, with key switches. */
START_TEST(test_quic_hp_openssl)
{
	static const struct {
		const char *alg, *type;
		unsigned int keylen;
	} cases[] = {
		{ "aes", "cipher", 16 },
		{ "aes", "cipher", 32 },
		{ "chacha20", "skcipher", 32 },
	};
	char drv[RT_MAX_IMPLS][CRYPTO_MAX_ALG_NAME];
	struct rt_rng rng;

	rt_rng_seed(&rng, 0x9001);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		int aes = !strcmp(cases[k].alg, "aes");
		unsigned int kl = cases[k].keylen;
		int n = rt_impls(cases[k].alg, cases[k].type, drv, RT_MAX_IMPLS);
		int ran = 0;

		for (int it = 0; it < 200; it++) {
			u8 key[32], sample[16], emask[5], mask[5];

			/* Sometimes keep the previous key (the cached-key path). */
			if (it == 0 || rt_rand_range(&rng, 3))
				rt_fill(&rng, key, kl);
			rt_fill(&rng, sample, 16);
			ossl_hp_mask(cases[k].alg, key, kl, sample, emask);
			ck_assert_int_eq(rind_quic_hp_mask(cases[k].alg, key, kl, sample, mask), 0);
			ck_assert_msg(!memcmp(mask, emask, 5), "rind_quic_hp_mask %s-%u iter %d",
				      cases[k].alg, kl * 8, it);
			ran++;
			if (it % 10)
				continue;
			for (int i = 0; i < n; i++) {
				memset(mask, 0, sizeof(mask));
				hp_mask_drv(drv[i], aes, key, kl, sample, mask);
				ck_assert_msg(!memcmp(mask, emask, 5), "%s key %u iter %d",
					      drv[i], kl, it);
			}
		}
		rt_report("QUIC HP mask vs OpenSSL", cases[k].alg, ran, 0);
	}

	/*
	 * Alternating keys: an AES-256 key whose first half is the AES-128 key,
	 * the same bytes as a ChaCha20 key, and back.  The per-thread key cache
	 * must notice every change.
	 */
	{
		u8 key[32], sample[16], emask[5], mask[5];

		rt_fill(&rng, key, 32);
		rt_fill(&rng, sample, 16);
		for (int r = 0; r < 3; r++) {
			ossl_hp_mask("aes", key, 16, sample, emask);
			ck_assert_int_eq(rind_quic_hp_mask("aes", key, 16, sample, mask), 0);
			ck_assert_msg(!memcmp(mask, emask, 5), "aes-128 after switch %d", r);
			ossl_hp_mask("aes", key, 32, sample, emask);
			ck_assert_int_eq(rind_quic_hp_mask("aes", key, 32, sample, mask), 0);
			ck_assert_msg(!memcmp(mask, emask, 5), "aes-256 after switch %d", r);
			ossl_hp_mask("chacha20", key, 32, sample, emask);
			ck_assert_int_eq(rind_quic_hp_mask("chacha20", key, 32, sample, mask), 0);
			ck_assert_msg(!memcmp(mask, emask, 5), "chacha20 after switch %d", r);
			key[r * 7] ^= 0x80;
		}
	}
}
END_TEST

static void *hp_thread(void *arg)
{
	struct rt_rng rng;
	long bad = 0;

	rt_rng_seed(&rng, (u64)(uintptr_t)arg);
	for (int it = 0; it < 300; it++) {
		const char *alg = (it % 3) == 2 ? "chacha20" : "aes";
		unsigned int kl = (it % 3) == 0 ? 16 : 32;
		u8 key[32], sample[16], emask[5], mask[5];

		rt_fill(&rng, key, kl);
		rt_fill(&rng, sample, 16);
		ossl_hp_mask(alg, key, kl, sample, emask);
		if (rind_quic_hp_mask(alg, key, kl, sample, mask) || memcmp(mask, emask, 5))
			bad++;
	}
	return (void *)bad;
}

/* Threads with their own keys; each thread's cache is freed at its exit. */
START_TEST(test_quic_hp_threads)
{
	pthread_t th[4];

	for (int r = 0; r < 2; r++) {
		for (uintptr_t t = 0; t < 4; t++)
			ck_assert_int_eq(pthread_create(&th[t], NULL, hp_thread,
							(void *)(0x7100 + t + 4 * r)), 0);
		for (int t = 0; t < 4; t++) {
			void *bad;

			ck_assert_int_eq(pthread_join(th[t], &bad), 0);
			ck_assert_msg(bad == NULL, "thread %d: %ld wrong masks", t, (long)bad);
		}
	}
}
END_TEST

START_TEST(test_quic_hp_errors)
{
	u8 key[33] = { 1 }, sample[16] = { 2 }, mask[5];
	static const unsigned int aes_bad[] = { 0, 1, 15, 17, 24, 31, 33 };

	memset(mask, 0x44, sizeof(mask));
	ck_assert_int_eq(rind_quic_hp_mask("aes-128", key, 16, sample, mask), -ENOENT);
	ck_assert_int_eq(rind_quic_hp_mask("AES", key, 16, sample, mask), -ENOENT);
	ck_assert_int_eq(rind_quic_hp_mask("chacha", key, 32, sample, mask), -ENOENT);
	ck_assert_int_eq(rind_quic_hp_mask("ecb(aes)", key, 16, sample, mask), -ENOENT);
	ck_assert_int_eq(rind_quic_hp_mask("", key, 16, sample, mask), -ENOENT);
	for (size_t i = 0; i < sizeof(aes_bad) / sizeof(aes_bad[0]); i++)
		ck_assert_int_eq(rind_quic_hp_mask("aes", key, aes_bad[i], sample, mask), -EINVAL);
	ck_assert_int_eq(rind_quic_hp_mask("chacha20", key, 16, sample, mask), -EINVAL);
	ck_assert_int_eq(rind_quic_hp_mask("chacha20", key, 33, sample, mask), -EINVAL);
	ck_assert_int_eq(rind_quic_hp_mask("chacha20", key, 0, sample, mask), -EINVAL);
	ck_assert_int_eq(rind_quic_hp_mask(NULL, key, 16, sample, mask), -EINVAL);
	ck_assert_int_eq(rind_quic_hp_mask("aes", NULL, 16, sample, mask), -EINVAL);
	ck_assert_int_eq(rind_quic_hp_mask("aes", key, 16, NULL, mask), -EINVAL);
	for (int b = 0; b < 5; b++)
		ck_assert_int_eq(mask[b], 0x44);
	ck_assert_int_eq(rind_quic_hp_mask("aes", key, 16, sample, NULL), -EINVAL);
	/* Still works after the failures. */
	ck_assert_int_eq(rind_quic_hp_mask("aes", key, 16, sample, mask), 0);
	ck_assert_int_eq(rind_quic_hp_mask("chacha20", key, 32, sample, mask), 0);
}
END_TEST

static Suite *kdf_suite(void)
{
	Suite *s = suite_create("kdf");
	TCase *tc = tcase_create("hkdf");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_hkdf_rfc5869);
	tcase_add_test(tc, test_hkdf_wycheproof);
	tcase_add_test(tc, test_hkdf_openssl);
	tcase_add_test(tc, test_hkdf_expand_info_lengths);
	tcase_add_test(tc, test_hkdf_errors);
	suite_add_tcase(s, tc);

	tc = tcase_create("pbkdf2");
	tcase_set_timeout(tc, slow_tests() ? 3600 : 300);
	tcase_add_test(tc, test_pbkdf2_rfc);
	tcase_add_test(tc, test_pbkdf2_wycheproof);
	tcase_add_test(tc, test_pbkdf2_openssl);
	tcase_add_test(tc, test_pbkdf2_errors);
	suite_add_tcase(s, tc);

	tc = tcase_create("quic_hp");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_quic_hp_rfc9001);
	tcase_add_test(tc, test_quic_hp_openssl);
	tcase_add_test(tc, test_quic_hp_threads);
	tcase_add_test(tc, test_quic_hp_errors);
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(kdf_suite)
