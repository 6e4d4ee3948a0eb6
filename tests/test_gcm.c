// SPDX-License-Identifier: MIT
/*
 * GHASH, GCM and RFC 4106 over every implementation: the GCM specification
 * test cases, Wycheproof (aes_gcm, aes_gmac), tag sizes, a differential
 * test against OpenSSL with random lengths, scatterlist splits, in place
 * and out of place, forgeries (which must leave zeros), the one-shots,
 * rfc4106 cross-checked against OpenSSL with the salt || IV nonce, and
 * bad parameters.
 */
#include <limits.h>
#include <openssl/evp.h>
#include "testutil.h"
#include <crypto/ghash.h>

#define MAXSG 16
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static char gcm_drv[RT_MAX_IMPLS][CRYPTO_MAX_ALG_NAME];
static int gcm_n;

static void load_gcm_impls(void)
{
	gcm_n = rt_impls("gcm(aes)", "aead", gcm_drv, RT_MAX_IMPLS);
}

static struct crypto_aead *alloc_aead(const char *drv)
{
	return RT_ALLOC_DRV(aead, drv);
}

/* ---- OpenSSL reference ---- */

static const EVP_CIPHER *ossl_cipher(size_t klen)
{
	return klen == 16 ? EVP_aes_128_gcm() : klen == 24 ? EVP_aes_192_gcm() : EVP_aes_256_gcm();
}

/* AES-GCM with OpenSSL: out = ct, tag (taglen bytes); any IV length. */
static void ossl_seal(const u8 *key, size_t klen, const u8 *iv, size_t ivlen, const u8 *ad,
		      size_t adlen, const u8 *pt, size_t len, u8 *out, u8 *tag, size_t taglen)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	u8 full[16];
	int l;

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(EVP_EncryptInit_ex(c, ossl_cipher(klen), NULL, NULL, NULL), 1);
	ck_assert_int_eq(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, (int)ivlen, NULL), 1);
	ck_assert_int_eq(EVP_EncryptInit_ex(c, NULL, NULL, key, iv), 1);
	if (adlen)
		ck_assert_int_eq(EVP_EncryptUpdate(c, NULL, &l, ad, (int)adlen), 1);
	if (len)
		ck_assert_int_eq(EVP_EncryptUpdate(c, out, &l, pt, (int)len), 1);
	ck_assert_int_eq(EVP_EncryptFinal_ex(c, out + len, &l), 1);
	ck_assert_int_eq(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, full), 1);
	memcpy(tag, full, taglen);
	EVP_CIPHER_CTX_free(c);
}

/*
 * A random case from @rng: a @kl-byte key, a 12-byte IV, @adlen bytes of
 * AD and @len of plaintext, and OpenSSL's sealing of them into @out
 * (ciphertext || @as-byte tag).
 */
static void random_sealed(struct rt_rng *rng, u8 *key, size_t kl, u8 *iv, u8 *ad, size_t adlen,
			  u8 *pt, size_t len, u8 *out, unsigned int as)
{
	rt_fill(rng, key, kl);
	rt_fill(rng, iv, 12);
	rt_fill(rng, ad, adlen);
	rt_fill(rng, pt, len);
	ossl_seal(key, kl, iv, 12, ad, adlen, pt, len, out, out + len, as);
}

/* The same, with that key and tag size set on @tfm. */
static void random_sealed_tfm(struct crypto_aead *tfm, struct rt_rng *rng, u8 *key, size_t kl,
			      u8 *iv, u8 *ad, size_t adlen, u8 *pt, size_t len, u8 *out,
			      unsigned int as)
{
	random_sealed(rng, key, kl, iv, ad, adlen, pt, len, out, as);
	ck_assert_int_eq(crypto_aead_setkey(tfm, key, (unsigned int)kl), 0);
	ck_assert_int_eq(crypto_aead_setauthsize(tfm, as), 0);
}

static void ossl_ecb(const u8 *key, size_t klen, const u8 in[16], u8 out[16])
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	const EVP_CIPHER *e = klen == 16 ? EVP_aes_128_ecb() : klen == 24 ? EVP_aes_192_ecb() :
			      EVP_aes_256_ecb();
	int l;

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(EVP_EncryptInit_ex(c, e, NULL, key, NULL), 1);
	EVP_CIPHER_CTX_set_padding(c, 0);
	ck_assert_int_eq(EVP_EncryptUpdate(c, out, &l, in, 16), 1);
	EVP_CIPHER_CTX_free(c);
}

/* ---- running one request ---- */


/* ---- the GCM specification (McGrew and Viega) test cases ---- */

struct spec_tc {
	const char *key, *iv, *pt, *ad, *ct, *tag;
};

#define K3 "feffe9928665731c6d6a8f9467308308"
#define P3 "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72" \
	   "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
#define P4 "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72" \
	   "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
#define A4 "feedfacedeadbeeffeedfacedeadbeefabaddad2"
#define IV3 "cafebabefacedbaddecaf888"
#define IV5 "cafebabefacedbad"
#define IV6 "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728" \
	    "c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b"
#define Z12 "000000000000000000000000"
#define Z16 "00000000000000000000000000000000"

static const struct spec_tc spec_tcs[18] = {
	/* 1 */ { Z16, Z12, "", "", "", "58e2fccefa7e3061367f1d57a4e7455a" },
	/* 2 */ { Z16, Z12, Z16, "", "0388dace60b6a392f328c2b971b2fe78",
		  "ab6e47d42cec13bdf53a67b21257bddf" },
	/* 3 */ { K3, IV3, P3, "",
		  "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
		  "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
		  "4d5c2af327cd64a62cf35abd2ba6fab4" },
	/* 4 */ { K3, IV3, P4, A4,
		  "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
		  "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
		  "5bc94fbc3221a5db94fae95ae7121a47" },
	/* 5 */ { K3, IV5, P4, A4,
		  "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423"
		  "73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
		  "3612d2e79e3b0785561be14aaca2fccb" },
	/* 6 */ { K3, IV6, P4, A4,
		  "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7"
		  "01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
		  "619cc5aefffe0bfa462af43c1699d050" },
	/* 7 */ { "000000000000000000000000000000000000000000000000", Z12, "", "", "",
		  "cd33b28ac773f74ba00ed1f312572435" },
	/* 8 */ { "000000000000000000000000000000000000000000000000", Z12, Z16, "",
		  "98e7247c07f0fe411c267e4384b0f600", "2ff58d80033927ab8ef4d4587514f0fb" },
	/* 9 */ { K3 "feffe9928665731c", IV3, P3, "",
		  "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c"
		  "7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710acade256",
		  "9924a7c8587336bfb118024db8674a14" },
	/* 10 */ { K3 "feffe9928665731c", IV3, P4, A4,
		  "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c"
		  "7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710",
		  "2519498e80f1478f37ba55bd6d27618c" },
	/* 11 */ { K3 "feffe9928665731c", IV5, P4, A4,
		  "0f10f599ae14a154ed24b36e25324db8c566632ef2bbb34f8347280fc4507057"
		  "fddc29df9a471f75c66541d4d4dad1c9e93a19a58e8b473fa0f062f7",
		  "65dcc57fcf623a24094fcca40d3533f8" },
	/* 12 */ { K3 "feffe9928665731c", IV6, P4, A4,
		  "d27e88681ce3243c4830165a8fdcf9ff1de9a1d8e6b447ef6ef7b79828666e45"
		  "81e79012af34ddd9e2f037589b292db3e67c036745fa22e7e9b7373b",
		  "dcf566ff291c25bbb8568fc3d376a6d9" },
	/* 13 */ { Z16 Z16, Z12, "", "", "", "530f8afbc74536b9a963b4f1c4cb738b" },
	/* 14 */ { Z16 Z16, Z12, Z16, "", "cea7403d4d606b6e074ec5d3baf39d18",
		  "d0d1c8a799996bf0265b98b5d48ab919" },
	/* 15 */ { K3 K3, IV3, P3, "",
		  "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
		  "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
		  "b094dac5d93471bdec1a502270e3cc6c" },
	/* 16 */ { K3 K3, IV3, P4, A4,
		  "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
		  "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
		  "76fc6ece0f4e1768cddf8853bb2d551b" },
	/* 17 */ { K3 K3, IV5, P4, A4,
		  "c3762df1ca787d32ae47c13bf19844cbaf1ae14d0b976afac52ff7d79bba9de0"
		  "feb582d33934a4f0954cc2363bc73f7862ac430e64abe499f47c9b1f",
		  "3a337dbf46a792c45e454913fe2ea8f2" },
	/* 18 */ { K3 K3, IV6, P4, A4,
		  "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf4"
		  "0fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e44ae7e3f",
		  "a44a8266ee1c8eb0c8b5d4cf5ae9f19a" },
};

START_TEST(test_spec_vectors)
{
	struct rt_rng rng;
	int i, t, mode;

	rt_rng_seed(&rng, 4106);
	load_gcm_impls();
	for (i = 0; i < gcm_n; i++) {
		struct crypto_aead *tfm = alloc_aead(gcm_drv[i]);
		int ran = 0, skipped = 0;

		for (t = 0; t < 18; t++) {
			const struct spec_tc *tc = &spec_tcs[t];
			u8 key[32], iv[64], pt[64], ad[20], exp[80];
			size_t kl, ivl, pl, al, cl;
			char what[32];

			ivl = rt_unhex(iv, sizeof(iv), tc->iv);
			if (ivl != 12) {
				skipped++;	/* 64- and 480-bit IVs: not offered (ivsize 12) */
				continue;
			}
			kl = rt_unhex(key, sizeof(key), tc->key);
			pl = rt_unhex(pt, sizeof(pt), tc->pt);
			al = rt_unhex(ad, sizeof(ad), tc->ad);
			cl = rt_unhex(exp, sizeof(exp), tc->ct);
			ck_assert_uint_eq(cl, pl);
			rt_unhex(exp + cl, 16, tc->tag);
			/* the reference agrees with the specification */
			{
				u8 oc[80], ot[16];

				ossl_seal(key, kl, iv, ivl, ad, al, pt, pl, oc, ot, 16);
				ck_assert(!memcmp(oc, exp, pl) && !memcmp(ot, exp + pl, 16));
			}
			snprintf(what, sizeof(what), "test case %d", t + 1);
			ck_assert_int_eq(crypto_aead_setkey(tfm, key, (unsigned int)kl), 0);
			for (mode = 0; mode < RT_M_COUNT; mode++)
				rt_aead_both_ways(tfm, iv, ad, al, pt, pl, exp, mode, &rng, what);
			ran++;
		}
		if (skipped)
			printf("GCM spec test cases 5, 6, 11, 12, 17, 18 (non-96-bit IVs) skipped: "
			       "ivsize is 12\n");
		rt_report("GCM spec test cases", gcm_drv[i], ran, skipped);
		crypto_free_aead(tfm);
	}
}
END_TEST

/* ---- Wycheproof ---- */

/* One Wycheproof case, keyed already; @mode the request layout, @what for messages. */
typedef void (*wp_case_fn)(struct crypto_aead *tfm, json_t *t, int mode, struct rt_rng *rng,
			   const char *what);

/*
 * Every case of @file through every gcm(aes) implementation, in the four
 * request layouts in turn.  The drivers take 96-bit IVs only (ivsize 12):
 * groups with other IV sizes are counted as skipped.
 */
static void wp_gcm_file(const char *file, const char *label, u64 seed, wp_case_fn one)
{
	json_t *root = rt_wp_load(file), *groups, *g, *tests, *t;
	struct rt_rng rng;
	size_t gi, ti;
	int i;

	if (!root)
		return;
	rt_rng_seed(&rng, seed);
	load_gcm_impls();
	groups = json_object_get(root, "testGroups");
	for (i = 0; i < gcm_n; i++) {
		struct crypto_aead *tfm = alloc_aead(gcm_drv[i]);
		int ran = 0, skipped = 0;

		json_array_foreach(groups, gi, g) {
			int ivsize = (int)json_integer_value(json_object_get(g, "ivSize"));
			int tagsize = (int)json_integer_value(json_object_get(g, "tagSize"));

			tests = json_object_get(g, "tests");
			if (ivsize != 96) {
				skipped += (int)json_array_size(tests);
				continue;
			}
			ck_assert_int_eq(crypto_aead_setauthsize(tfm, (unsigned int)tagsize / 8), 0);
			json_array_foreach(tests, ti, t) {
				int id = (int)json_integer_value(json_object_get(t, "tcId"));
				size_t kl;
				u8 *key = rt_wp_hex(t, "key", &kl);
				char what[48];
				int err;

				snprintf(what, sizeof(what), "wycheproof %s tcId %d", label, id);
				err = crypto_aead_setkey(tfm, key, (unsigned int)kl);
				ck_assert_msg(err == 0, "%s: %s: setkey %d", gcm_drv[i], what, err);
				free(key);
				one(tfm, t, (int)(ti % RT_M_COUNT), &rng, what);
				ran++;
			}
		}
		if (skipped)
			printf("%s: %d cases with IVs other than 96 bits skipped (ivsize is 12)\n",
			       file, skipped);
		rt_report(file, gcm_drv[i], ran, skipped);
		crypto_free_aead(tfm);
	}
	json_decref(root);
}

static void wp_gcm_case(struct crypto_aead *tfm, json_t *t, int mode, struct rt_rng *rng,
			const char *what)
{
	size_t ivl, al, ml, cl, tl;
	u8 *iv = rt_wp_hex(t, "iv", &ivl), *ad = rt_wp_hex(t, "aad", &al);
	u8 *msg = rt_wp_hex(t, "msg", &ml), *ct = rt_wp_hex(t, "ct", &cl);
	u8 *tag = rt_wp_hex(t, "tag", &tl);
	u8 *ctt = malloc(cl + tl + 1);

	ck_assert_ptr_nonnull(ctt);
	memcpy(ctt, ct, cl);
	memcpy(ctt + cl, tag, tl);
	if (rt_wp_result(t) != 0) {
		ck_assert_uint_eq(cl, ml);
		rt_aead_both_ways(tfm, iv, ad, al, msg, ml, ctt, mode, rng, what);
	} else {
		rt_aead_forgery(tfm, iv, ad, al, ctt, cl + tl, mode, rng, what);
	}
	free(iv); free(ad); free(msg); free(ct); free(tag); free(ctt);
}

/* GMAC: the message is the AD, no plaintext. */
static void wp_gmac_case(struct crypto_aead *tfm, json_t *t, int mode, struct rt_rng *rng,
			 const char *what)
{
	size_t ivl, ml, tl;
	u8 *iv = rt_wp_hex(t, "iv", &ivl), *msg = rt_wp_hex(t, "msg", &ml);
	u8 *tag = rt_wp_hex(t, "tag", &tl);

	if (rt_wp_result(t) != 0)
		rt_aead_both_ways(tfm, iv, msg, ml, msg, 0, tag, mode, rng, what);
	else
		rt_aead_forgery(tfm, iv, msg, ml, tag, tl, mode, rng, what);
	free(iv); free(msg); free(tag);
}

START_TEST(test_wycheproof_gcm)
{
	wp_gcm_file("aes_gcm_test.json", "aes_gcm", 1, wp_gcm_case);
}
END_TEST

START_TEST(test_wycheproof_gmac)
{
	wp_gcm_file("aes_gmac_test.json", "aes_gmac", 2, wp_gmac_case);
}
END_TEST

/* ---- differential against OpenSSL ---- */

/*
 * Every implementation against gcm(aes-generic), seeded: random key sizes,
 * AD and text lengths, one-buffer requests whose source and destination
 * sit at random offsets 0..15 (every alignment the arch code can see), in
 * place or not; ciphertext, tag and the decryption back compared.
 */
static void gcm_crypt_at(struct crypto_aead *tfm, bool enc, const u8 *iv, u8 *src, u8 *dst,
			 size_t adlen, size_t len)
{
	struct aead_request *req = aead_request_alloc(tfm, GFP_KERNEL);
	struct scatterlist ss, ds;
	size_t tag = crypto_aead_authsize(tfm);
	u8 ivc[12];

	ck_assert_ptr_nonnull(req);
	memcpy(ivc, iv, 12);
	sg_init_one(&ss, src, (unsigned int)(adlen + len + tag));
	sg_init_one(&ds, dst, (unsigned int)(adlen + len + tag));
	aead_request_set_crypt(req, &ss, src == dst ? &ss : &ds,
			       (unsigned int)(enc ? len : len + tag), ivc);
	aead_request_set_ad(req, (unsigned int)adlen);
	ck_assert_int_eq(enc ? crypto_aead_encrypt(req) : crypto_aead_decrypt(req), 0);
	aead_request_free(req);
}

START_TEST(test_diff_generic)
{
	const size_t cap = 4096 + 512;	/* a multiple of the alignment, room for AD, tag, offset */
	u8 *ref = aligned_alloc(64, cap), *a = aligned_alloc(64, cap), *b = aligned_alloc(64, cap);
	u8 *orig = aligned_alloc(64, cap), key[32], iv[12];
	struct crypto_aead *rt = alloc_aead("gcm(aes-generic)");
	struct rt_rng rng;
	int i, k, cases = 300;

	ck_assert(ref && a && b && orig);
	load_gcm_impls();
	for (i = 0; i < gcm_n; i++) {
		struct crypto_aead *tfm;

		if (!strcmp(gcm_drv[i], "gcm(aes-generic)"))
			continue;
		tfm = alloc_aead(gcm_drv[i]);
		rt_rng_seed(&rng, 0x6c6e);
		for (k = 0; k < cases; k++) {
			size_t kl = 16 + 8 * rt_rand_range(&rng, 3), adlen = rt_rand_range(&rng, 301);
			size_t len = rt_rand_range(&rng, k < cases / 2 ? 400 : 4097);
			size_t so = rt_rand_range(&rng, 16), doff = rt_rand_range(&rng, 16), tot;
			bool inpl = rt_rand_range(&rng, 2);
			u8 *out = inpl ? a + so : b + doff;

			rt_fill(&rng, key, kl);
			rt_fill(&rng, iv, 12);
			rt_fill(&rng, orig, adlen + len);
			tot = adlen + len + 16;
			ck_assert_int_eq(crypto_aead_setkey(rt, key, (unsigned int)kl), 0);
			ck_assert_int_eq(crypto_aead_setkey(tfm, key, (unsigned int)kl), 0);
			memcpy(ref, orig, adlen + len);
			gcm_crypt_at(rt, true, iv, ref, ref, adlen, len);
			memcpy(a + so, orig, adlen + len);
			gcm_crypt_at(tfm, true, iv, a + so, out, adlen, len);
			ck_assert_msg(!memcmp(out, ref, tot),
				      "%s: case %d (%zu AD, %zu bytes, key %zu, offsets %zu/%zu%s): "
				      "encryption differs from gcm(aes-generic)", gcm_drv[i], k, adlen,
				      len, kl, so, doff, inpl ? ", in place" : "");
			memcpy(a + so, ref, tot);
			gcm_crypt_at(tfm, false, iv, a + so, out, adlen, len);
			ck_assert_msg(!memcmp(out, orig, adlen + len),
				      "%s: case %d: decryption differs", gcm_drv[i], k);
		}
		rt_report("gcm vs gcm(aes-generic), random offsets (seed 0x6c6e)", gcm_drv[i],
			  cases, 0);
		crypto_free_aead(tfm);
	}
	crypto_free_aead(rt);
	free(ref);
	free(a);
	free(b);
	free(orig);
}
END_TEST

static size_t pick_len(struct rt_rng *rng, int k)
{
	if (k < 600)
		return (size_t)k;			/* every length 0..599 */
	switch (rt_rand_range(rng, 4)) {
	case 0:
		return rt_rand_range(rng, 20001);	/* up to 20000 */
	case 1:
		return 256 * (1 + rt_rand_range(rng, 16)) + rt_rand_range(rng, 3) - 1;
	default:
		return rt_rand_range(rng, 1500);
	}
}

START_TEST(test_openssl_diff)
{
	static const unsigned int authsizes[] = { 4, 8, 12, 13, 14, 15, 16 };
	u8 key[32], iv[12], ad[300], *pt, *exp;
	struct rt_rng rng;
	int i, k, cases;

	load_gcm_impls();
	pt = malloc(20000);
	exp = malloc(20016);
	ck_assert(pt && exp);
	for (i = 0; i < gcm_n; i++) {
		struct crypto_aead *tfm = alloc_aead(gcm_drv[i]);
		/* the slow generic path gets fewer of the long cases */
		bool generic = strstr(gcm_drv[i], "generic") != NULL;

		cases = generic ? 1200 : 2500;
		rt_rng_seed(&rng, 0x6c6d);
		for (k = 0; k < cases; k++) {
			size_t kl = 16 + 8 * rt_rand_range(&rng, 3);
			size_t len = pick_len(&rng, k), adlen = rt_rand_range(&rng, 301);
			unsigned int as = (k % 5) ? 16 : authsizes[rt_rand_range(&rng, 7)];
			int mode = (int)rt_rand_range(&rng, RT_M_COUNT);

			if (generic && len > 4000 && (k % 4))
				len %= 4000;
			random_sealed_tfm(tfm, &rng, key, kl, iv, ad, adlen, pt, len, exp, as);
			rt_aead_both_ways(tfm, iv, ad, adlen, pt, len, exp, mode, &rng, "openssl diff");
		}
		rt_report("gcm vs OpenSSL (seed 0x6c6d)", gcm_drv[i], cases, 0);
		crypto_free_aead(tfm);
	}
	free(pt);
	free(exp);
}
END_TEST

/*
 * Every message length 0..80 with every AD length 0..40, which crosses the
 * x86 drivers' one-pass short path (<= 64 bytes, at most eight GHASH
 * blocks) and its edges, against the generic driver, in every request mode
 * (in place, out of place, scatterlists), the three key sizes and all tag
 * sizes; every 7th case also a forgery in the last tag byte.
 */
START_TEST(test_short_vs_generic)
{
	static const unsigned int authsizes[] = { 4, 8, 12, 13, 14, 15, 16 };
	u8 key[32], iv[12], ad[40], pt[80], exp[96];
	struct crypto_aead *gen = alloc_aead("gcm(aes-generic)");
	struct rt_rng rng;
	int i, ran;

	load_gcm_impls();
	for (i = 0; i < gcm_n; i++) {
		struct crypto_aead *tfm = alloc_aead(gcm_drv[i]);
		size_t len, adlen;

		rt_rng_seed(&rng, 0x5407);
		ran = 0;
		for (len = 0; len <= 80; len++) {
			for (adlen = 0; adlen <= 40; adlen++) {
				size_t kl = 16 + 8 * (size_t)(ran % 3);
				unsigned int as = (ran % 4) ? 16 : authsizes[ran / 4 % 7];
				int mode = ran % RT_M_COUNT;
				struct rt_run r;

				rt_fill(&rng, key, kl);
				rt_fill(&rng, iv, 12);
				rt_fill(&rng, ad, adlen);
				rt_fill(&rng, pt, len);
				ck_assert_int_eq(crypto_aead_setkey(gen, key, (unsigned int)kl), 0);
				ck_assert_int_eq(crypto_aead_setauthsize(gen, as), 0);
				r = rt_aead_req(gen, true, iv, ad, adlen, pt, len, RT_M_OUT, &rng);
				ck_assert_int_eq(r.err, 0);
				ck_assert_uint_eq(r.outlen, len + as);
				memcpy(exp, r.out + adlen, len + as);
				free(r.out);
				ck_assert_int_eq(crypto_aead_setkey(tfm, key, (unsigned int)kl), 0);
				ck_assert_int_eq(crypto_aead_setauthsize(tfm, as), 0);
				rt_aead_both_ways(tfm, iv, ad, adlen, pt, len, exp, mode, &rng,
						  "short vs generic");
				if (ran % 7 == 0) {
					exp[len + as - 1] ^= 0x80;
					rt_aead_forgery(tfm, iv, ad, adlen, exp, len + as, mode, &rng,
							"short: tampered tag");
				}
				ran++;
			}
		}
		rt_report("gcm short messages vs gcm(aes-generic)", gcm_drv[i], ran, 0);
		crypto_free_aead(tfm);
	}
	crypto_free_aead(gen);
}
END_TEST

/*
 * The chunk edges of the wide drivers, against OpenSSL, every driver: every
 * message length 0..300, and 32 * n - 1 .. 32 * n + 1 for the register
 * pairs, the 128-byte half groups and the 256-byte (sixteen-block) groups
 * of gcm-aes-vaes-avx2 up to 1350 bytes and the TLS record sizes around
 * it; AD lengths across the 16-block GHASH chunk (0, 13, 255, 256, 257)
 * and the 32-block one of gcm-aes-vaes-avx512 (511, 512, 513) in turn,
 * the three key sizes and every request mode.  Every 5th case also a
 * flipped ciphertext bit in the last byte, refused.
 */
static size_t edge_len(int k)
{
	static const size_t extra[] = { 1349, 1350, 1351, 1535, 1536, 1537, 4095, 4096, 4097 };

	if (k <= 300)
		return (size_t)k;
	k -= 301;
	if (k < 3 * 42)		/* 32 * n + {-1, 0, 1}, n = 10 .. 51 (320 .. 1633) */
		return 32 * (size_t)(10 + k / 3) + (size_t)(k % 3) - 1;
	return extra[k - 3 * 42];
}

START_TEST(test_chunk_edges)
{
	static const size_t adlens[] = { 0, 13, 255, 256, 257, 511, 512, 513 };
	u8 key[32], iv[12], ad[513], *pt, *exp;
	struct rt_rng rng;
	int i, k, n = 301 + 3 * 42 + 9;

	load_gcm_impls();
	pt = malloc(4097);
	exp = malloc(4097 + 16);
	ck_assert(pt && exp);
	for (i = 0; i < gcm_n; i++) {
		struct crypto_aead *tfm = alloc_aead(gcm_drv[i]);

		rt_rng_seed(&rng, 0x6c6f);
		for (k = 0; k < n; k++) {
			size_t kl = 16 + 8 * (size_t)(k % 3), len = edge_len(k);
			size_t adlen = adlens[(size_t)k % ARRAY_SIZE(adlens)];
			int mode = k % RT_M_COUNT;

			random_sealed_tfm(tfm, &rng, key, kl, iv, ad, adlen, pt, len, exp, 16);
			rt_aead_both_ways(tfm, iv, ad, adlen, pt, len, exp, mode, &rng, "chunk edges");
			if (len && k % 5 == 0) {
				exp[len - 1] ^= 0x01;
				rt_aead_forgery(tfm, iv, ad, adlen, exp, len + 16, mode, &rng,
						"chunk edges: tampered ciphertext");
			}
		}
		rt_report("gcm chunk edges vs OpenSSL (seed 0x6c6f)", gcm_drv[i], n, 0);
		crypto_free_aead(tfm);
	}
	free(pt);
	free(exp);
}
END_TEST

/* ---- forgeries ---- */

START_TEST(test_tamper)
{
	u8 key[32], iv[12], ad[64], pt[700], ct[716], bad[716], badad[64];
	struct rt_rng rng;
	int i, k;

	load_gcm_impls();
	rt_rng_seed(&rng, 0xbad);
	for (i = 0; i < gcm_n; i++) {
		struct crypto_aead *tfm = alloc_aead(gcm_drv[i]);
		int ran = 0;

		for (k = 0; k < 150; k++) {
			size_t kl = 16 + 8 * rt_rand_range(&rng, 3);
			size_t len = rt_rand_range(&rng, 700), adlen = rt_rand_range(&rng, 64);
			unsigned int as = (k & 1) ? 16 : 12 + rt_rand_range(&rng, 5);
			int mode = k % RT_M_COUNT, what = (int)rt_rand_range(&rng, 3);
			size_t pos;

			random_sealed_tfm(tfm, &rng, key, kl, iv, ad, adlen, pt, len, ct, as);
			memcpy(bad, ct, len + as);
			memcpy(badad, ad, adlen);
			if (what == 1 && !len)
				what = 0;
			if (what == 2 && !adlen)
				what = 0;
			switch (what) {
			case 0:	/* tag */
				pos = len + rt_rand_range(&rng, as);
				bad[pos] ^= (u8)(1u << rt_rand_range(&rng, 8));
				break;
			case 1:	/* ciphertext */
				pos = rt_rand_range(&rng, (u32)len);
				bad[pos] ^= (u8)(1u << rt_rand_range(&rng, 8));
				break;
			default: /* associated data */
				pos = rt_rand_range(&rng, (u32)adlen);
				badad[pos] ^= (u8)(1u << rt_rand_range(&rng, 8));
				break;
			}
			rt_aead_forgery(tfm, iv, badad, adlen, bad, len + as, mode, &rng,
					what == 0 ? "tampered tag" : what == 1 ? "tampered ciphertext" :
					"tampered AD");
			/* a wrong IV too */
			{
				u8 iv2[12];

				memcpy(iv2, iv, 12);
				iv2[rt_rand_range(&rng, 12)] ^= 0x40;
				rt_aead_forgery(tfm, iv2, ad, adlen, ct, len + as, mode, &rng, "wrong IV");
			}
			ran += 2;
		}
		rt_report("gcm forgeries", gcm_drv[i], ran, 0);
		crypto_free_aead(tfm);
	}
}
END_TEST

/* ---- bad parameters ---- */

START_TEST(test_bad_params)
{
	static const unsigned int badkeys[] = { 0, 1, 15, 17, 20, 23, 25, 31, 33, 64 };
	static const unsigned int badtags[] = { 0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 17, 32 };
	static const unsigned int goodtags[] = { 4, 8, 12, 13, 14, 15, 16 };
	u8 key[64] = { 1 }, buf[64] = { 0 }, iv[12] = { 0 };
	struct scatterlist sg;
	unsigned int j;
	int i;

	load_gcm_impls();
	for (i = 0; i < gcm_n; i++) {
		struct crypto_aead *tfm = alloc_aead(gcm_drv[i]);
		struct aead_request *req;

		ck_assert_uint_eq(crypto_aead_ivsize(tfm), 12);
		ck_assert_uint_eq(crypto_aead_maxauthsize(tfm), 16);
		for (j = 0; j < NELEM(badkeys); j++)
			ck_assert_msg(crypto_aead_setkey(tfm, key, badkeys[j]) == -EINVAL,
				      "%s: key length %u accepted", gcm_drv[i], badkeys[j]);
		for (j = 0; j < NELEM(badtags); j++)
			ck_assert_msg(crypto_aead_setauthsize(tfm, badtags[j]) == -EINVAL,
				      "%s: authsize %u accepted", gcm_drv[i], badtags[j]);
		for (j = 0; j < NELEM(goodtags); j++)
			ck_assert_msg(crypto_aead_setauthsize(tfm, goodtags[j]) == 0,
				      "%s: authsize %u refused", gcm_drv[i], goodtags[j]);
		ck_assert_int_eq(crypto_aead_setkey(tfm, key, 16), 0);

		req = aead_request_alloc(tfm, GFP_KERNEL);
		ck_assert(!IS_ERR_OR_NULL(req));
		sg_init_one(&sg, buf, sizeof(buf));
		/* cryptlen < authsize on decrypt */
		aead_request_set_ad(req, 0);
		aead_request_set_crypt(req, &sg, &sg, 15, iv);
		ck_assert_int_eq(crypto_aead_decrypt(req), -EINVAL);
		/* assoclen + cryptlen overflow */
		aead_request_set_ad(req, UINT_MAX - 8);
		aead_request_set_crypt(req, &sg, &sg, 32, iv);
		ck_assert_int_eq(crypto_aead_encrypt(req), -EINVAL);
		ck_assert_int_eq(crypto_aead_decrypt(req), -EINVAL);
		/* a source shorter than the request says */
		aead_request_set_ad(req, 16);
		aead_request_set_crypt(req, &sg, &sg, 64, iv);
		ck_assert_int_ne(crypto_aead_decrypt(req), 0);
		aead_request_free(req);
		crypto_free_aead(tfm);
	}
}
END_TEST

/* ---- the one-shots ---- */

START_TEST(test_oneshots)
{
	u8 key[32], iv[12], ad[100], pt[3000], exp[3016], out[3016], back[3016];
	struct rind_aesgcm_ctx *ctx = rind_aesgcm_alloc();
	struct rt_rng rng;
	int k;

	ck_assert(!IS_ERR_OR_NULL(ctx));
	rt_rng_seed(&rng, 0x11b);
	ck_assert_int_eq(rind_aesgcm_expandkey(ctx, key, 20, 16), -EINVAL);
	ck_assert_int_eq(rind_aesgcm_expandkey(ctx, key, 16, 7), -EINVAL);
	for (k = 0; k < 300; k++) {
		size_t kl = 16 + 8 * rt_rand_range(&rng, 3), len = rt_rand_range(&rng, 3000);
		size_t adlen = rt_rand_range(&rng, 100);
		unsigned int as = (k % 3) ? 16 : 12;

		random_sealed(&rng, key, kl, iv, ad, adlen, pt, len, exp, as);
		ck_assert_int_eq(rind_aesgcm_expandkey(ctx, key, (unsigned int)kl, as), 0);
		ck_assert_int_eq(rind_aesgcm_encrypt(ctx, out, pt, len, ad, adlen, iv), 0);
		ck_assert_msg(!memcmp(out, exp, len + as), "one-shot encrypt len %zu", len);
		ck_assert_int_eq(rind_aesgcm_decrypt(ctx, back, out, len + as, ad, adlen, iv), 0);
		ck_assert(!memcmp(back, pt, len));
		/* in place */
		memcpy(back, pt, len);
		ck_assert_int_eq(rind_aesgcm_encrypt(ctx, back, back, len, ad, adlen, iv), 0);
		ck_assert(!memcmp(back, exp, len + as));
		ck_assert_int_eq(rind_aesgcm_decrypt(ctx, back, back, len + as, ad, adlen, iv), 0);
		ck_assert(!memcmp(back, pt, len));
		/* forgery: -EBADMSG and zeros */
		out[rt_rand_range(&rng, (u32)(len + as))] ^= 0x10;
		memset(back, 0x5a, sizeof(back));
		ck_assert_int_eq(rind_aesgcm_decrypt(ctx, back, out, len + as, ad, adlen, iv), -EBADMSG);
		ck_assert(rt_all_zero(back, len));
	}
	ck_assert_int_eq(rind_aesgcm_decrypt(ctx, back, out, 3, ad, 0, iv), -EINVAL);
	rind_aesgcm_free(ctx);
	rt_report("rind_aesgcm one-shots vs OpenSSL", "best gcm(aes)", 300, 0);
}
END_TEST

/* ---- rfc4106 ---- */

START_TEST(test_rfc4106)
{
	static char drv[RT_MAX_IMPLS][CRYPTO_MAX_ALG_NAME];
	u8 key[36], nonce[12], full_ad[20], pt[2100], exp[2116];
	struct rt_rng rng;
	int n, i, k, mode;

	n = rt_impls("rfc4106(gcm(aes))", "aead", drv, RT_MAX_IMPLS);
	rt_rng_seed(&rng, 4106);
	for (i = 0; i < n; i++) {
		struct crypto_aead *tfm = alloc_aead(drv[i]);
		u8 *iv = nonce + 4;
		int ran = 0;

		ck_assert_uint_eq(crypto_aead_ivsize(tfm), 8);
		/* bad keys and tag sizes */
		ck_assert_int_eq(crypto_aead_setkey(tfm, key, 3), -EINVAL);
		ck_assert_int_eq(crypto_aead_setkey(tfm, key, 16), -EINVAL);
		ck_assert_int_eq(crypto_aead_setkey(tfm, key, 37), -EINVAL);
		ck_assert_int_eq(crypto_aead_setauthsize(tfm, 4), -EINVAL);
		ck_assert_int_eq(crypto_aead_setauthsize(tfm, 13), -EINVAL);
		for (k = 0; k < 400; k++) {
			size_t kl = 16 + 8 * rt_rand_range(&rng, 3);
			size_t alen = (k & 1) ? 16 : 20, len = rt_rand_range(&rng, k < 300 ? 300 : 2100);
			unsigned int as = 8 + 4 * rt_rand_range(&rng, 3);

			rt_fill(&rng, key, kl + 4);
			rt_fill(&rng, nonce, 12);
			rt_fill(&rng, full_ad, alen - 8);
			memcpy(full_ad + alen - 8, iv, 8);	/* the IV ends the AD */
			rt_fill(&rng, pt, len);
			/* GCM with nonce salt || IV over the AD without the IV */
			memcpy(nonce, key + kl, 4);
			ossl_seal(key, kl, nonce, 12, full_ad, alen - 8, pt, len, exp, exp + len, as);
			ck_assert_int_eq(crypto_aead_setkey(tfm, key, (unsigned int)kl + 4), 0);
			ck_assert_int_eq(crypto_aead_setauthsize(tfm, as), 0);
			mode = (int)rt_rand_range(&rng, RT_M_COUNT);
			rt_aead_both_ways(tfm, iv, full_ad, alen, pt, len, exp, mode, &rng, "rfc4106");
			exp[rt_rand_range(&rng, (u32)(len + as))] ^= 4;
			rt_aead_forgery(tfm, iv, full_ad, alen, exp, len + as, mode, &rng, "rfc4106 forgery");
			ran++;
		}
		/* assoclen other than 16 or 20 */
		{
			static const unsigned int badal[] = { 0, 8, 12, 15, 17, 24 };
			unsigned int j;

			ck_assert_int_eq(crypto_aead_setauthsize(tfm, 16), 0);
			for (j = 0; j < NELEM(badal); j++) {
				struct rt_run r = rt_aead_req(tfm, true, iv, pt, badal[j], pt + 100, 32,
						       RT_M_OUT, &rng);

				ck_assert_msg(r.err == -EINVAL, "%s: assoclen %u: %d", drv[i],
					      badal[j], r.err);
				free(r.out);
			}
		}
		rt_report("rfc4106 vs OpenSSL (salt||iv nonce)", drv[i], ran, 0);
		crypto_free_aead(tfm);
	}
}
END_TEST

/* ---- GHASH ---- */

START_TEST(test_ghash)
{
	static char drv[RT_MAX_IMPLS][CRYPTO_MAX_ALG_NAME];
	u8 key[16], h[16], iv[12], j0[16], ej0[16], msg[700], pad[800], tag[16], ref[16], out[16];
	struct rt_rng rng;
	int n, i, k;

	n = rt_impls("ghash", "shash", drv, RT_MAX_IMPLS);
	rt_rng_seed(&rng, 0x9e);
	for (i = 0; i < n; i++) {
		struct crypto_shash *tfm = crypto_alloc_shash(drv[i], 0, 0);
		int ran = 0;

		ck_assert_msg(!IS_ERR(tfm), "%s: alloc", drv[i]);
		ck_assert_uint_eq(crypto_shash_digestsize(tfm), 16);
		ck_assert_int_eq(crypto_shash_setkey(tfm, key, 15), -EINVAL);
		ck_assert_int_eq(crypto_shash_setkey(tfm, key, 17), -EINVAL);
		for (k = 0; k < 300; k++) {
			size_t len = rt_rand_range(&rng, 700), plen = (len + 15) & ~(size_t)15, off;
			u8 zero[16] = { 0 };
			SHASH_DESC_ON_STACK(desc, tfm);

			/*
			 * Reference from OpenSSL: GMAC tag xor E_K(J0) is the GHASH of
			 * the padded AD followed by the length block.
			 */
			rt_fill(&rng, key, 16);
			rt_fill(&rng, iv, 12);
			rt_fill(&rng, msg, len);
			ossl_seal(key, 16, iv, 12, msg, len, zero, 0, zero, tag, 16);
			ossl_ecb(key, 16, zero, h);
			memcpy(j0, iv, 12);
			j0[12] = j0[13] = j0[14] = 0;
			j0[15] = 1;
			ossl_ecb(key, 16, j0, ej0);
			for (off = 0; off < 16; off++)
				ref[off] = tag[off] ^ ej0[off];
			memset(pad, 0, sizeof(pad));
			memcpy(pad, msg, len);
			/* [len(A)]_64 || [len(C)]_64 in bits, C empty */
			for (off = 0; off < 8; off++)
				pad[plen + off] = (u8)(((u64)len * 8) >> (56 - 8 * off));

			ck_assert_int_eq(crypto_shash_setkey(tfm, h, 16), 0);
			/* in random pieces */
			desc->tfm = tfm;
			ck_assert_int_eq(crypto_shash_init(desc), 0);
			for (off = 0; off < plen + 16;) {
				size_t c = rt_rand_range(&rng, 70);

				if (c > plen + 16 - off)
					c = plen + 16 - off;
				ck_assert_int_eq(crypto_shash_update(desc, pad + off, (unsigned int)c), 0);
				off += c;
			}
			ck_assert_int_eq(crypto_shash_final(desc, out), 0);
			ck_assert_msg(!memcmp(out, ref, 16), "%s: ghash len %zu", drv[i], len);
			/* unpadded data: the final partial block is padded with zeros */
			ck_assert_int_eq(crypto_shash_init(desc), 0);
			ck_assert_int_eq(crypto_shash_update(desc, msg, (unsigned int)len), 0);
			ck_assert_int_eq(crypto_shash_final(desc, out), 0);
			ck_assert_int_eq(crypto_shash_tfm_digest(tfm, pad, (unsigned int)plen, ref), 0);
			ck_assert_msg(!memcmp(out, ref, 16), "%s: ghash padding, len %zu", drv[i], len);
			/* the plain functions agree */
			{
				struct ghash_key gk;
				struct ghash_acc acc = { 0, 0 };

				ghash_generic_setkey(&gk, h);
				ghash_generic_pad(&gk, &acc, msg, len);
				ghash_acc_out(&acc, out);
				ck_assert(!memcmp(out, ref, 16));
			}
			ran++;
		}
		rt_report("ghash vs OpenSSL GMAC", drv[i], ran, 0);
		crypto_free_shash(tfm);
	}
}
END_TEST

static Suite *gcm_suite(void)
{
	Suite *s = suite_create("gcm");
	TCase *tc = tcase_create("gcm");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_ghash);
	tcase_add_test(tc, test_spec_vectors);
	tcase_add_test(tc, test_wycheproof_gcm);
	tcase_add_test(tc, test_wycheproof_gmac);
	tcase_add_test(tc, test_openssl_diff);
	tcase_add_test(tc, test_short_vs_generic);
	tcase_add_test(tc, test_chunk_edges);
	tcase_add_test(tc, test_tamper);
	tcase_add_test(tc, test_bad_params);
	tcase_add_test(tc, test_oneshots);
	tcase_add_test(tc, test_rfc4106);
	tcase_add_test(tc, test_diff_generic);
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(gcm_suite)
