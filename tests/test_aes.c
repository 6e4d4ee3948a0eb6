// SPDX-License-Identifier: MIT
/*
 * Suite "aes": the "aes" block cipher and the block-cipher modes over it,
 * every implementation of each name (rt_impls): template instances over
 * every "aes" driver and the direct arch skciphers.
 *
 *  - FIPS 197 appendices B and C (all key sizes), single blocks and the
 *    multi-block entry, against OpenSSL with random keys; QUIC header
 *    protection style use (RFC 9001 A.2) through crypto_cipher_encrypt_one;
 *  - NIST SP 800-38A ECB, CBC and CTR vectors (all key sizes), in one
 *    request and chained over two (the iv carries the state);
 *  - CTR counter carries: out of the low 32 and 64 bits and across 2^128,
 *    against OpenSSL, with the iv left at the next counter;
 *  - RFC 3394 section 4 (kw) and RFC 5649 section 6 (kwp) vectors;
 *  - Wycheproof aes_cbc_pkcs5 (cbc(aes) + rind_pkcs7_pad/unpad), aes_wrap
 *    (kw) and aes_kwp (kwp): valid cases pass, invalid ones are rejected;
 *  - differential runs against OpenSSL EVP (seeded): random keys and ivs,
 *    lengths 0..20000 (multiples of 16 for ECB/CBC), random scatterlist
 *    splits, in place and out of place; kw/kwp against OpenSSL's wrap;
 *  - bad key lengths (-EINVAL), bad lengths (-EINVAL), the PKCS#7 helpers.
 */
#include <openssl/evp.h>
#include "testutil.h"
#include <rind/internal/cipher.h>
#include <rind/internal/util.h>
#include <crypto/aes.h>

#define MAXSG	8
#define MAXLEN	20000
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

typedef char drvname[CRYPTO_MAX_ALG_NAME];

static const u8 sp_key128[16] = {
	0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c
};

/* ---- helpers ---- */

static struct crypto_cipher *alloc_cipher(const char *drv)
{
	return RT_ALLOC_DRV(cipher, drv);
}

static struct crypto_skcipher *alloc_sk(const char *drv)
{
	return RT_ALLOC_DRV(skcipher, drv);
}

static int sk_run(struct crypto_skcipher *tfm, bool enc, struct scatterlist *src,
		  struct scatterlist *dst, unsigned int len, u8 *iv)
{
	struct skcipher_request *req = skcipher_request_alloc(tfm, GFP_KERNEL);
	DECLARE_CRYPTO_WAIT(wait);
	int err;

	ck_assert(!IS_ERR_OR_NULL(req));
	skcipher_request_set_callback(req, 0, crypto_req_done, &wait);
	skcipher_request_set_crypt(req, src, dst, len, iv);
	err = crypto_wait_req(enc ? crypto_skcipher_encrypt(req) : crypto_skcipher_decrypt(req),
			      &wait);
	skcipher_request_free(req);
	return err;
}

/* One contiguous request, out of place (dst may equal src). */
static int sk_buf(struct crypto_skcipher *tfm, bool enc, u8 *dst, const u8 *src,
		  unsigned int len, u8 *iv)
{
	static u8 dummy[16];
	struct scatterlist s, d;

	sg_init_one(&s, len ? src : dummy, len);
	if (dst == src) {
		return sk_run(tfm, enc, &s, &s, len, iv);
	}
	sg_init_one(&d, len ? dst : dummy, len);
	return sk_run(tfm, enc, &s, &d, len, iv);
}

static const EVP_CIPHER *ossl_cipher(const char *mode, size_t klen)
{
	static EVP_CIPHER *cache[6][3];
	static const char *modes[] = { "ECB", "CBC", "CTR", "WRAP", "WRAP-PAD", NULL };
	char name[32];
	int m, k = klen == 16 ? 0 : klen == 24 ? 1 : 2;

	for (m = 0; modes[m] && strcmp(modes[m], mode); m++)
		;
	ck_assert_ptr_nonnull(modes[m]);
	if (!cache[m][k]) {
		snprintf(name, sizeof(name), "AES-%zu-%s", klen * 8, mode);
		cache[m][k] = EVP_CIPHER_fetch(NULL, name, NULL);
		ck_assert_msg(cache[m][k] != NULL, "OpenSSL has no %s", name);
	}
	return cache[m][k];
}

/* OpenSSL ECB/CBC/CTR without padding; returns the output length. */
static void ossl_crypt(const char *mode, const u8 *key, size_t klen, const u8 *iv,
		       const u8 *in, u8 *out, size_t len, int enc)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int l1 = 0, l2 = 0;

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(EVP_CipherInit_ex(c, ossl_cipher(mode, klen), NULL, key, iv, enc), 1);
	EVP_CIPHER_CTX_set_padding(c, 0);
	if (len)
		ck_assert_int_eq(EVP_CipherUpdate(c, out, &l1, in, (int)len), 1);
	ck_assert_int_eq(EVP_CipherFinal_ex(c, out + l1, &l2), 1);
	ck_assert_int_eq((size_t)(l1 + l2), len);
	EVP_CIPHER_CTX_free(c);
}

/* OpenSSL key wrap (KW or KWP); returns the output length. */
static int ossl_wrap(bool pad, const u8 *key, size_t klen, const u8 *in, size_t len, u8 *out,
		     int enc)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int l1 = 0, l2 = 0, ok;

	ck_assert_ptr_nonnull(c);
	EVP_CIPHER_CTX_set_flags(c, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
	ck_assert_int_eq(EVP_CipherInit_ex(c, ossl_cipher(pad ? "WRAP-PAD" : "WRAP", klen), NULL,
					   key, NULL, enc), 1);
	ok = EVP_CipherUpdate(c, out, &l1, in, (int)len) > 0 && l1 >= 0 &&
	     EVP_CipherFinal_ex(c, out + l1, &l2) > 0;
	EVP_CIPHER_CTX_free(c);
	return ok ? l1 + l2 : -1;
}

/* The counter block @n blocks after @iv (big-endian, mod 2^128). */
static void ctr_add(u8 out[16], const u8 iv[16], u64 n)
{
	unsigned __int128 c = 0;
	int i;

	for (i = 0; i < 16; i++)
		c = (c << 8) | iv[i];
	c += n;
	for (i = 15; i >= 0; i--, c >>= 8)
		out[i] = (u8)c;
}

static int impls(const char *name, const char *type, drvname *drv)
{
	return rt_impls(name, type, drv, RT_MAX_IMPLS);
}

/* ---- the block cipher ---- */

struct kat {
	const char *key, *pt, *ct;
};

/* FIPS 197 appendix B and C.1-C.3. */
static const struct kat fips197[] = {
	{ "2b7e151628aed2a6abf7158809cf4f3c", "3243f6a8885a308d313198a2e0370734",
	  "3925841d02dc09fbdc118597196a0b32" },
	{ "000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff",
	  "69c4e0d86a7b0430d8cdb78070b4c55a" },
	{ "000102030405060708090a0b0c0d0e0f1011121314151617",
	  "00112233445566778899aabbccddeeff", "dda97ca4864cdfe06eaf70a0ec0d7191" },
	{ "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	  "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089" },
};

START_TEST(test_fips197)
{
	drvname drv[RT_MAX_IMPLS];
	int n = impls("aes", "cipher", drv), i;
	size_t v;

	ck_assert_msg(crypto_has_alg("aes-generic", 0, 0), "aes-generic missing");
	for (i = 0; i < n; i++) {
		struct crypto_cipher *tfm = alloc_cipher(drv[i]);

		for (v = 0; v < NELEM(fips197); v++) {
			u8 key[32], pt[16], ct[16], out[16];
			size_t klen = rt_unhex(key, sizeof(key), fips197[v].key);

			rt_unhex(pt, 16, fips197[v].pt);
			rt_unhex(ct, 16, fips197[v].ct);
			ck_assert_int_eq(crypto_cipher_setkey(tfm, key, (unsigned int)klen), 0);
			crypto_cipher_encrypt_one(tfm, out, pt);
			ck_assert_msg(!memcmp(out, ct, 16), "%s: FIPS 197 vector %zu encrypt: %s",
				      drv[i], v, rt_hex(out, 16));
			crypto_cipher_decrypt_one(tfm, out, ct);
			ck_assert_msg(!memcmp(out, pt, 16), "%s: FIPS 197 vector %zu decrypt",
				      drv[i], v);
			/* in place */
			memcpy(out, pt, 16);
			crypto_cipher_encrypt_one(tfm, out, out);
			ck_assert_msg(!memcmp(out, ct, 16), "%s: vector %zu in place", drv[i], v);
			crypto_cipher_decrypt_one(tfm, out, out);
			ck_assert_msg(!memcmp(out, pt, 16), "%s: vector %zu in place", drv[i], v);
		}
		ck_assert_uint_eq(crypto_cipher_blocksize(tfm), 16);
		crypto_free_cipher(tfm);
		rt_report("FIPS 197 B, C.1-C.3", drv[i], (int)NELEM(fips197), 0);
	}
}
END_TEST

/* Single blocks and the multi-block entry against OpenSSL, random keys. */
START_TEST(test_cipher_diff)
{
	drvname drv[RT_MAX_IMPLS];
	int n = impls("aes", "cipher", drv), i, t;
	static u8 pt[16 * 41], ct[16 * 41], ref[16 * 41], buf[16 * 41];

	for (i = 0; i < n; i++) {
		struct crypto_cipher *tfm = alloc_cipher(drv[i]);
		struct rt_rng rng;

		rt_rng_seed(&rng, 0xae5001);
		for (t = 0; t < 300; t++) {
			size_t klen = 16 + 8 * (size_t)(t % 3), nb = 1 + rt_rand_range(&rng, 40);
			size_t off = rt_rand_range(&rng, 16);
			u8 key[32];

			rt_fill(&rng, key, klen);
			rt_fill(&rng, pt, sizeof(pt));
			ck_assert_int_eq(crypto_cipher_setkey(tfm, key, (unsigned int)klen), 0);
			ossl_crypt("ECB", key, klen, NULL, pt + off, ref, 16 * nb, 1);
			/* one block */
			crypto_cipher_encrypt_one(tfm, ct, pt + off);
			ck_assert_msg(!memcmp(ct, ref, 16), "%s: case %d: encrypt_one", drv[i], t);
			crypto_cipher_decrypt_one(tfm, buf, ct);
			ck_assert_msg(!memcmp(buf, pt + off, 16), "%s: case %d: decrypt_one", drv[i], t);
			/* several, unaligned, out of place and in place */
			crypto_cipher_encrypt_blocks(tfm, ct, pt + off, nb);
			ck_assert_msg(!memcmp(ct, ref, 16 * nb), "%s: case %d: %zu blocks", drv[i], t,
				      nb);
			memcpy(buf + off, pt + off, 16 * nb);
			crypto_cipher_encrypt_blocks(tfm, buf + off, buf + off, nb);
			ck_assert_msg(!memcmp(buf + off, ref, 16 * nb), "%s: case %d: in place",
				      drv[i], t);
			crypto_cipher_decrypt_blocks(tfm, buf + off, buf + off, nb);
			ck_assert_msg(!memcmp(buf + off, pt + off, 16 * nb), "%s: case %d: decrypt",
				      drv[i], t);
		}
		crypto_free_cipher(tfm);
		rt_report("aes vs OpenSSL, 1-40 blocks (seed 0xae5001)", drv[i], 300, 0);
	}
}
END_TEST

/* The plain functions of api/include/crypto/aes.h. */
START_TEST(test_lib_aes)
{
	struct rind_aes_ctx ctx;
	struct rt_rng rng;
	static u8 pt[16 * 20], ct[16 * 20], ref[16 * 20];
	int t;

	rt_rng_seed(&rng, 0xae5002);
	ck_assert_int_eq(rind_aes_expandkey(&ctx, sp_key128, 20), -EINVAL);
	for (t = 0; t < 100; t++) {
		size_t klen = 16 + 8 * (size_t)(t % 3), nb = 1 + rt_rand_range(&rng, 20);
		u8 key[32];

		rt_fill(&rng, key, klen);
		rt_fill(&rng, pt, sizeof(pt));
		ck_assert_int_eq(rind_aes_expandkey(&ctx, key, (unsigned int)klen), 0);
		rind_aes_encrypt_blocks(&ctx, ct, pt, nb);
		ossl_crypt("ECB", key, klen, NULL, pt, ref, 16 * nb, 1);
		ck_assert_msg(!memcmp(ct, ref, 16 * nb), "rind_aes_encrypt_blocks case %d", t);
		rind_aes_decrypt_blocks(&ctx, ct, ct, nb);
		ck_assert_msg(!memcmp(ct, pt, 16 * nb), "rind_aes_decrypt_blocks case %d", t);
	}
	rt_report("rind_aes_* vs OpenSSL", "aes.h", 100, 0);
}
END_TEST

/* QUIC header protection (RFC 9001 5.4.3): one block per packet. */
START_TEST(test_quic_style)
{
	drvname drv[RT_MAX_IMPLS];
	int n = impls("aes", "cipher", drv), i, t;
	u8 hp[32], sample[16], mask[16], ref[16];

	for (i = 0; i < n; i++) {
		struct crypto_cipher *tfm = alloc_cipher(drv[i]);
		struct rt_rng rng;
		int cases = 1;

		/* RFC 9001 A.2, client Initial */
		rt_unhex(hp, 16, "9f50449e04a0e810283a1e9933adedd2");
		rt_unhex(sample, 16, "d1b1c98dd7689fb8ec11d242b123dc9b");
		ck_assert_int_eq(crypto_cipher_setkey(tfm, hp, 16), 0);
		crypto_cipher_encrypt_one(tfm, mask, sample);
		ck_assert_msg(!memcmp(mask, "\x43\x7b\x9a\xec\x36", 5), "%s: RFC 9001 A.2 mask %s",
			      drv[i], rt_hex(mask, 5));
		/* connections (new keys, AES-128 and AES-256), packets per key */
		rt_rng_seed(&rng, 0xae5004);
		for (t = 0; t < 40; t++) {
			size_t klen = t % 2 ? 32 : 16;
			int p;

			rt_fill(&rng, hp, sizeof(hp));
			ck_assert_int_eq(crypto_cipher_setkey(tfm, hp, (unsigned int)klen), 0);
			for (p = 0; p < 25; p++, cases++) {
				rt_fill(&rng, sample, 16);
				crypto_cipher_encrypt_one(tfm, mask, sample);
				ossl_crypt("ECB", hp, klen, NULL, sample, ref, 16, 1);
				ck_assert_msg(!memcmp(mask, ref, 5), "%s: key %d packet %d", drv[i], t,
					      p);
			}
		}
		crypto_free_cipher(tfm);
		rt_report("QUIC hp masks via encrypt_one (RFC 9001 A.2, seed 0xae5004)", drv[i],
			  cases, 0);
	}
}
END_TEST

START_TEST(test_bad_keylen)
{
	static const unsigned int bad[] = { 0, 1, 8, 15, 17, 20, 23, 25, 31, 33, 48, 64 };
	static const char *const modes[] = { "ecb(aes)", "cbc(aes)", "ctr(aes)", "kw(aes)",
					     "kwp(aes)" };
	drvname drv[RT_MAX_IMPLS];
	u8 key[64] = { 0 };
	int n = impls("aes", "cipher", drv), i, cases = 0;
	size_t b, m;

	for (i = 0; i < n; i++) {
		struct crypto_cipher *tfm = alloc_cipher(drv[i]);

		for (b = 0; b < NELEM(bad); b++, cases++)
			ck_assert_msg(crypto_cipher_setkey(tfm, key, bad[b]) == -EINVAL,
				      "%s: keylen %u accepted", drv[i], bad[b]);
		ck_assert_int_eq(crypto_cipher_setkey(tfm, key, 24), 0);
		crypto_free_cipher(tfm);
	}
	for (m = 0; m < NELEM(modes); m++) {
		n = impls(modes[m], "skcipher", drv);
		for (i = 0; i < n; i++) {
			struct crypto_skcipher *tfm = alloc_sk(drv[i]);

			for (b = 0; b < NELEM(bad); b++, cases++)
				ck_assert_msg(crypto_skcipher_setkey(tfm, key, bad[b]) == -EINVAL,
					      "%s: keylen %u accepted", drv[i], bad[b]);
			ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, 32), 0);
			ck_assert_uint_eq(crypto_skcipher_min_keysize(tfm), 16);
			ck_assert_uint_eq(crypto_skcipher_max_keysize(tfm), 32);
			crypto_free_skcipher(tfm);
		}
	}
	rt_report("bad key lengths rejected", "all aes drivers", cases, 0);
}
END_TEST

/* ---- SP 800-38A ---- */

struct sp_vec {
	const char *mode, *key, *iv, *ct;
};

static const char sp_pt[] =
	"6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
	"30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
#define SP_K128 "2b7e151628aed2a6abf7158809cf4f3c"
#define SP_K192 "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"
#define SP_K256 "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"
#define SP_IV "000102030405060708090a0b0c0d0e0f"
#define SP_CTR "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"

/* F.1.1/3/5, F.2.1/3/5, F.5.1/3/5 (the decrypt vectors are the same data). */
static const struct sp_vec sp800_38a[] = {
	{ "ecb(aes)", SP_K128, NULL,
	  "3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf"
	  "43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4" },
	{ "ecb(aes)", SP_K192, NULL,
	  "bd334f1d6e45f25ff712a214571fa5cc974104846d0ad3ad7734ecb3ecee4eef"
	  "ef7afd2270e2e60adce0ba2face6444e9a4b41ba738d6c72fb16691603c18e0e" },
	{ "ecb(aes)", SP_K256, NULL,
	  "f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870"
	  "b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7" },
	{ "cbc(aes)", SP_K128, SP_IV,
	  "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
	  "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7" },
	{ "cbc(aes)", SP_K192, SP_IV,
	  "4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a"
	  "571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd" },
	{ "cbc(aes)", SP_K256, SP_IV,
	  "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
	  "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b" },
	{ "ctr(aes)", SP_K128, SP_CTR,
	  "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
	  "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee" },
	{ "ctr(aes)", SP_K192, SP_CTR,
	  "1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e94"
	  "1e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050" },
	{ "ctr(aes)", SP_K256, SP_CTR,
	  "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
	  "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6" },
};

/* The iv a mode leaves after processing @len bytes (its ciphertext @ct). */
static void expect_iv(const char *mode, const u8 *iv, const u8 *ct, size_t len, u8 out[16])
{
	if (!strncmp(mode, "cbc", 3))
		memcpy(out, len ? ct + len - 16 : iv, 16);
	else if (!strncmp(mode, "ctr", 3))
		ctr_add(out, iv, (len + 15) / 16);
}

START_TEST(test_sp800_38a)
{
	u8 pt[64], ct[64], key[32], iv[16], iv0[16], ivx[16], out[64];
	size_t v;

	rt_unhex(pt, 64, sp_pt);
	for (v = 0; v < NELEM(sp800_38a); v++) {
		const struct sp_vec *sv = &sp800_38a[v];
		size_t klen = rt_unhex(key, 32, sv->key);
		bool hasiv = sv->iv != NULL;
		drvname drv[RT_MAX_IMPLS];
		int n = impls(sv->mode, "skcipher", drv), i, split;

		rt_unhex(ct, 64, sv->ct);
		memset(iv0, 0, 16);
		if (hasiv)
			rt_unhex(iv0, 16, sv->iv);
		expect_iv(sv->mode, iv0, ct, 64, ivx);
		for (i = 0; i < n; i++) {
			struct crypto_skcipher *tfm = alloc_sk(drv[i]);

			ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, (unsigned int)klen), 0);
			ck_assert_uint_eq(crypto_skcipher_ivsize(tfm), hasiv ? 16 : 0);
			/* whole, then as two requests of 16 and 48 bytes */
			for (split = 0; split < 2; split++) {
				unsigned int first = split ? 16 : 64;

				memcpy(iv, iv0, 16);
				ck_assert_int_eq(sk_buf(tfm, true, out, pt, first, iv), 0);
				if (first < 64)
					ck_assert_int_eq(sk_buf(tfm, true, out + first, pt + first,
								64 - first, iv), 0);
				ck_assert_msg(!memcmp(out, ct, 64), "%s: SP 800-38A %zu encrypt",
					      drv[i], v);
				if (hasiv)
					ck_assert_msg(!memcmp(iv, ivx, 16), "%s: iv after encrypt",
						      drv[i]);
				memcpy(iv, iv0, 16);
				memcpy(out, ct, 64);
				ck_assert_int_eq(sk_buf(tfm, false, out, out, first, iv), 0);
				if (first < 64)
					ck_assert_int_eq(sk_buf(tfm, false, out + first, out + first,
								64 - first, iv), 0);
				ck_assert_msg(!memcmp(out, pt, 64), "%s: SP 800-38A %zu decrypt",
					      drv[i], v);
				if (hasiv)
					ck_assert_msg(!memcmp(iv, ivx, 16), "%s: iv after decrypt",
						      drv[i]);
			}
			crypto_free_skcipher(tfm);
			{
				char what[64];

				snprintf(what, sizeof(what), "SP 800-38A %s AES-%zu", sv->mode, klen * 8);
				rt_report(what, drv[i], 1, 0);
			}
		}
	}
}
END_TEST

/* ---- CTR counter carries ---- */

START_TEST(test_ctr_wrap)
{
	/* low bytes of the initial counter; the rest random */
	static const struct {
		const char *tail;	/* hex of the last bytes */
		const char *what;
	} starts[] = {
		{ "fffffffe", "low 32 bits" },
		{ "ffffffff", "low 32 bits" },
		{ "fffffffffffffffd", "low 64 bits" },
		{ "ffffffffffffffff", "low 64 bits" },
		{ "fffffffffffffffffffffffffffffffa", "2^128" },
		{ "ffffffffffffffffffffffffffffffff", "2^128" },
	};
	static const unsigned int lens[] = { 1, 15, 16, 17, 48, 100, 127, 128, 129, 200, 1000 };
	drvname drv[RT_MAX_IMPLS];
	int n = impls("ctr(aes)", "skcipher", drv), i, cases;
	static u8 pt[1000], ct[1000], ref[1000];
	struct rt_rng rng;

	rt_rng_seed(&rng, 0xae5005);
	rt_fill(&rng, pt, sizeof(pt));
	for (i = 0; i < n; i++) {
		struct crypto_skcipher *tfm = alloc_sk(drv[i]);
		size_t s, l;

		cases = 0;
		for (s = 0; s < NELEM(starts); s++) {
			for (l = 0; l < NELEM(lens); l++, cases++) {
				u8 key[32], iv0[16], iv[16], ivx[16], tail[16];
				size_t klen = 16 + 8 * (cases % 3), tl = rt_unhex(tail, 16, starts[s].tail);
				unsigned int len = lens[l];

				rt_fill(&rng, key, klen);
				rt_fill(&rng, iv0, 16);
				memcpy(iv0 + 16 - tl, tail, tl);
				if (tl < 16)
					iv0[15 - tl] &= 0xfe;	/* no further carry */
				ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, (unsigned int)klen), 0);
				memcpy(iv, iv0, 16);
				ck_assert_int_eq(sk_buf(tfm, true, ct, pt, len, iv), 0);
				ossl_crypt("CTR", key, klen, iv0, pt, ref, len, 1);
				ck_assert_msg(!memcmp(ct, ref, len), "%s: carry %s, iv %s, len %u",
					      drv[i], starts[s].what, rt_hex(iv0, 16), len);
				ctr_add(ivx, iv0, (len + 15) / 16);
				ck_assert_msg(!memcmp(iv, ivx, 16), "%s: carry %s: iv out %s", drv[i],
					      starts[s].what, rt_hex(iv, 16));
				/* in place, decrypting */
				memcpy(iv, iv0, 16);
				ck_assert_int_eq(sk_buf(tfm, false, ct, ct, len, iv), 0);
				ck_assert_msg(!memcmp(ct, pt, len), "%s: carry %s decrypt", drv[i],
					      starts[s].what);
			}
		}
		crypto_free_skcipher(tfm);
		rt_report("ctr counter carries vs OpenSSL (32/64/128 bits)", drv[i], cases, 0);
	}
}
END_TEST

/* ---- key wrap ---- */

struct kw_vec {
	const char *kek, *key, *wrapped;
};

/* RFC 3394 section 4.1-4.6 */
static const struct kw_vec rfc3394[] = {
	{ "000102030405060708090A0B0C0D0E0F", "00112233445566778899AABBCCDDEEFF",
	  "1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5" },
	{ "000102030405060708090A0B0C0D0E0F1011121314151617", "00112233445566778899AABBCCDDEEFF",
	  "96778B25AE6CA435F92B5B97C050AED2468AB8A17AD84E5D" },
	{ "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
	  "00112233445566778899AABBCCDDEEFF", "64E8C3F9CE0F5BA263E9777905818A2A93C8191E7D6E8AE7" },
	{ "000102030405060708090A0B0C0D0E0F1011121314151617",
	  "00112233445566778899AABBCCDDEEFF0001020304050607",
	  "031D33264E15D33268F24EC260743EDCE1C6C7DDEE725A936BA814915C6762D2" },
	{ "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
	  "00112233445566778899AABBCCDDEEFF0001020304050607",
	  "A8F9BC1612C68B3FF6E6F4FBE30E71E4769C8B80A32CB8958CD5D17D6B254DA1" },
	{ "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
	  "00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F",
	  "28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21" },
};

/* RFC 5649 section 6 */
static const struct kw_vec rfc5649[] = {
	{ "5840df6e29b02af1ab493b705bf16ea1ae8338f4dcc176a8",
	  "c37b7e6492584340bed12207808941155068f738",
	  "138bdeaa9b8fa7fc61f97742e72248ee5ae6ae5360d1ae6a5f54f373fa543b6a" },
	{ "5840df6e29b02af1ab493b705bf16ea1ae8338f4dcc176a8", "466f7250617369",
	  "afbeb0f07dfbf5419200f2ccb50bb24f" },
};

/*
 * Wrap @key (kw: len a multiple of 8, >= 16; kwp: any len >= 1) into
 * @wrapped (len + 8 or padded + 8 bytes), scattered as given.  Returns the
 * error, and the wrapped length in *wlen.
 */
static int do_wrap(struct crypto_skcipher *tfm, bool pad, const u8 *key, size_t len,
		   u8 *wrapped, size_t *wlen, struct rt_rng *rng)
{
	size_t plen = pad ? (len + 7) & ~(size_t)7 : len;
	u8 *buf = malloc(plen + 1), iv[8];
	struct scatterlist sg[MAXSG];
	int err;

	ck_assert_ptr_nonnull(buf);
	memcpy(buf, key, len);
	memset(buf + len, 0x5c, plen - len);	/* ignored: zeros are wrapped */
	memset(iv, 0x77, 8);
	if (pad)
		put_unaligned_be32((u32)len, iv + 4);
	if (rng)
		rt_sg_split(rng, sg, MAXSG, buf, plen);
	else
		sg_init_one(sg, buf, (unsigned int)plen);
	err = sk_run(tfm, true, sg, sg, (unsigned int)plen, iv);
	if (!err) {
		memcpy(wrapped, iv, 8);
		memcpy(wrapped + 8, buf, plen);
		*wlen = plen + 8;
	}
	free(buf);
	return err;
}

/*
 * Unwrap @wrapped (wlen >= 8) into @key; returns the error and the key
 * length (kwp: from the iv) in *klen.  A failed unwrap must leave zeros.
 */
static int do_unwrap(struct crypto_skcipher *tfm, bool pad, const u8 *wrapped, size_t wlen,
		     u8 *key, size_t *klen, struct rt_rng *rng, const char *drv)
{
	size_t len = wlen - 8, j;
	u8 *buf = malloc(len + 1), *out = malloc(len + 1), iv[8];
	struct scatterlist s[MAXSG], d[MAXSG];
	bool inplace = !rng || rt_rand_range(rng, 2);
	int err;

	ck_assert(buf && out);
	memcpy(iv, wrapped, 8);
	memcpy(buf, wrapped + 8, len);
	memset(out, 0x33, len);
	if (rng) {
		rt_sg_split(rng, s, MAXSG, buf, len);
		if (!inplace)
			rt_sg_split(rng, d, MAXSG, out, len);
	} else {
		sg_init_one(s, len ? buf : iv, (unsigned int)len);
	}
	err = sk_run(tfm, false, s, inplace ? s : d, (unsigned int)len, iv);
	if (inplace)
		memcpy(out, buf, len);
	if (!err) {
		*klen = pad ? get_unaligned_be32(iv + 4) : len;
		if (pad) {
			ck_assert_msg(!memcmp(iv, "\xa6\x59\x59\xa6", 4), "%s: AIV prefix", drv);
			ck_assert_msg(*klen <= len && *klen + 8 > len, "%s: MLI %zu for %zu", drv,
				      *klen, len);
			for (j = *klen; j < len; j++)
				ck_assert_msg(out[j] == 0, "%s: padding not zero", drv);
		}
		memcpy(key, out, *klen);
	} else if (err == -EBADMSG) {
		for (j = 0; j < len; j++)
			ck_assert_msg(out[j] == 0, "%s: failed unwrap left data in dst", drv);
		ck_assert_msg(!memcmp(iv, wrapped, 8), "%s: failed unwrap changed the iv", drv);
	}
	free(buf);
	free(out);
	return err;
}

static void kw_vectors(const char *name, bool pad, const struct kw_vec *vecs, size_t nv)
{
	drvname drv[RT_MAX_IMPLS];
	int n = impls(name, "skcipher", drv), i;
	size_t v;

	for (i = 0; i < n; i++) {
		struct crypto_skcipher *tfm = alloc_sk(drv[i]);

		ck_assert_uint_eq(crypto_skcipher_ivsize(tfm), 8);
		for (v = 0; v < nv; v++) {
			u8 kek[32], key[64], wrapped[80], out[80];
			size_t kl = rt_unhex(kek, 32, vecs[v].kek), len = rt_unhex(key, 64, vecs[v].key);
			size_t wl = rt_unhex(wrapped, 80, vecs[v].wrapped), ol = 0, ml = 0;

			ck_assert_int_eq(crypto_skcipher_setkey(tfm, kek, (unsigned int)kl), 0);
			ck_assert_int_eq(do_wrap(tfm, pad, key, len, out, &ol, NULL), 0);
			ck_assert_msg(ol == wl && !memcmp(out, wrapped, wl), "%s: vector %zu wrap: %s",
				      drv[i], v, rt_hex(out, ol));
			ck_assert_int_eq(do_unwrap(tfm, pad, wrapped, wl, out, &ml, NULL, drv[i]), 0);
			ck_assert_msg(ml == len && !memcmp(out, key, len), "%s: vector %zu unwrap",
				      drv[i], v);
			/* any flipped bit, of C[0] or of the rest, is caught */
			wrapped[v % wl] ^= 0x10;
			ck_assert_int_eq(do_unwrap(tfm, pad, wrapped, wl, out, &ml, NULL, drv[i]),
					 -EBADMSG);
			wrapped[wl - 1 - v] ^= 0x01;
			wrapped[v % wl] ^= 0x10;
			ck_assert_int_eq(do_unwrap(tfm, pad, wrapped, wl, out, &ml, NULL, drv[i]),
					 -EBADMSG);
		}
		crypto_free_skcipher(tfm);
		rt_report(pad ? "RFC 5649 section 6" : "RFC 3394 section 4", drv[i], (int)nv, 0);
	}
}

START_TEST(test_kw_rfc)
{
	kw_vectors("kw(aes)", false, rfc3394, NELEM(rfc3394));
	kw_vectors("kwp(aes)", true, rfc5649, NELEM(rfc5649));
}
END_TEST

START_TEST(test_kw_bad_lengths)
{
	static const unsigned int kwbad[] = { 0, 1, 7, 8, 12, 17, 23, 31 };
	static const unsigned int kwpbad[] = { 0, 1, 7, 9, 15, 17 };
	drvname drv[RT_MAX_IMPLS];
	u8 key[16] = { 0 }, buf[40] = { 0 }, iv[8];
	int n, i, cases = 0;
	size_t b;

	n = impls("kw(aes)", "skcipher", drv);
	for (i = 0; i < n; i++) {
		struct crypto_skcipher *tfm = alloc_sk(drv[i]);

		ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, 16), 0);
		for (b = 0; b < NELEM(kwbad); b++, cases += 2) {
			memset(iv, 0xa6, 8);
			ck_assert_msg(sk_buf(tfm, true, buf, buf, kwbad[b], iv) == -EINVAL,
				      "%s: wrap of %u bytes", drv[i], kwbad[b]);
			ck_assert_msg(sk_buf(tfm, false, buf, buf, kwbad[b], iv) == -EINVAL,
				      "%s: unwrap of %u bytes", drv[i], kwbad[b]);
		}
		crypto_free_skcipher(tfm);
	}
	n = impls("kwp(aes)", "skcipher", drv);
	for (i = 0; i < n; i++) {
		struct crypto_skcipher *tfm = alloc_sk(drv[i]);
		static const u32 mli_bad[][2] = { { 16, 0 }, { 16, 8 }, { 16, 17 }, { 8, 9 },
						  { 8, 0 }, { 24, 0xffffffff } };

		ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, 16), 0);
		for (b = 0; b < NELEM(kwpbad); b++, cases += 2) {
			memset(iv, 0, 8);
			put_unaligned_be32(kwpbad[b] ? kwpbad[b] : 1, iv + 4);
			ck_assert_msg(sk_buf(tfm, true, buf, buf, kwpbad[b], iv) == -EINVAL,
				      "%s: wrap of %u bytes", drv[i], kwpbad[b]);
			ck_assert_msg(sk_buf(tfm, false, buf, buf, kwpbad[b], iv) == -EINVAL,
				      "%s: unwrap of %u bytes", drv[i], kwpbad[b]);
		}
		for (b = 0; b < NELEM(mli_bad); b++, cases++) {
			memset(iv, 0, 8);
			put_unaligned_be32(mli_bad[b][1], iv + 4);
			ck_assert_msg(sk_buf(tfm, true, buf, buf, mli_bad[b][0], iv) == -EINVAL,
				      "%s: wrap of %u bytes with MLI %u", drv[i], mli_bad[b][0],
				      mli_bad[b][1]);
		}
		crypto_free_skcipher(tfm);
	}
	rt_report("kw/kwp bad lengths rejected", "all kw/kwp drivers", cases, 0);
}
END_TEST

/* Wycheproof aes_wrap (kw) or aes_kwp (kwp). */
static void wycheproof_wrap(const char *file, const char *name, bool pad)
{
	drvname drv[RT_MAX_IMPLS];
	json_t *root = rt_wp_load(file), *groups, *g, *tests, *t;
	int n, i;
	size_t gi, ti;

	if (!root)
		return;
	n = impls(name, "skcipher", drv);
	groups = json_object_get(root, "testGroups");
	for (i = 0; i < n; i++) {
		struct crypto_skcipher *tfm = alloc_sk(drv[i]);
		int valid = 0, rejected = 0, acceptable = 0;

		json_array_foreach(groups, gi, g) {
			tests = json_object_get(g, "tests");
			json_array_foreach(tests, ti, t) {
				size_t kl, ml, cl, ol = 0, rl = 0;
				u8 *kek = rt_wp_hex(t, "key", &kl), *msg = rt_wp_hex(t, "msg", &ml);
				u8 *ct = rt_wp_hex(t, "ct", &cl);
				u8 *out = malloc(ml + cl + 16);
				int res = rt_wp_result(t), tc = (int)json_integer_value(
					json_object_get(t, "tcId"));
				int werr, uerr = -EINVAL;

				ck_assert_ptr_nonnull(out);
				ck_assert_int_eq(crypto_skcipher_setkey(tfm, kek, (unsigned int)kl), 0);
				werr = do_wrap(tfm, pad, msg, ml, out, &ol, NULL);
				if (cl >= 8)
					uerr = do_unwrap(tfm, pad, ct, cl, out, &rl, NULL, drv[i]);
				if (res == 1) {
					ck_assert_msg(!werr, "%s: %s tc %d: wrap failed %d", drv[i], file,
						      tc, werr);
					ck_assert_msg(!uerr && rl == ml && !memcmp(out, msg, ml),
						      "%s: %s tc %d: unwrap", drv[i], file, tc);
					werr = do_wrap(tfm, pad, msg, ml, out, &ol, NULL);
					ck_assert_msg(ol == cl && !memcmp(out, ct, cl),
						      "%s: %s tc %d: wrap result", drv[i], file, tc);
					valid++;
				} else if (res == 0) {
					ck_assert_msg(uerr != 0, "%s: %s tc %d: invalid unwrapped",
						      drv[i], file, tc);
					/* a message that cannot be wrapped must be refused */
					if (!werr)
						ck_assert_msg(cl < 8 || ol != cl || memcmp(out, ct, cl),
							      "%s: %s tc %d", drv[i], file, tc);
					rejected++;
				} else {
					acceptable++;
				}
				free(kek);
				free(msg);
				free(ct);
				free(out);
			}
		}
		crypto_free_skcipher(tfm);
		printf("%s: %d valid passed, %d invalid rejected, %d acceptable (%s)\n", file, valid,
		       rejected, acceptable, drv[i]);
		rt_report(file, drv[i], valid + rejected, acceptable);
	}
	json_decref(root);
}

START_TEST(test_wycheproof_wrap)
{
	wycheproof_wrap("aes_wrap_test.json", "kw(aes)", false);
}
END_TEST

START_TEST(test_wycheproof_kwp)
{
	wycheproof_wrap("aes_kwp_test.json", "kwp(aes)", true);
}
END_TEST

/* kw and kwp against OpenSSL's AES-*-WRAP and AES-*-WRAP-PAD. */
START_TEST(test_kw_diff)
{
	static const char *const names[] = { "kw(aes)", "kwp(aes)" };
	int m;

	for (m = 0; m < 2; m++) {
		bool pad = m == 1;
		drvname drv[RT_MAX_IMPLS];
		int n = impls(names[m], "skcipher", drv), i, t;

		for (i = 0; i < n; i++) {
			struct crypto_skcipher *tfm = alloc_sk(drv[i]);
			struct rt_rng rng;

			rt_rng_seed(&rng, 0xae5006 + (u64)m);
			for (t = 0; t < 200; t++) {
				size_t klen = 16 + 8 * (size_t)(t % 3), len, ol = 0, rl = 0;
				u8 kek[32], key[520], out[540], ref[540];
				int refl;

				len = pad ? 1 + rt_rand_range(&rng, 512) :
					    8 * (2 + rt_rand_range(&rng, 63));
				rt_fill(&rng, kek, klen);
				rt_fill(&rng, key, len);
				ck_assert_int_eq(crypto_skcipher_setkey(tfm, kek, (unsigned int)klen), 0);
				ck_assert_int_eq(do_wrap(tfm, pad, key, len, out, &ol, &rng), 0);
				refl = ossl_wrap(pad, kek, klen, key, len, ref, 1);
				ck_assert_msg(refl > 0 && (size_t)refl == ol && !memcmp(out, ref, ol),
					      "%s: case %d (%zu bytes) differs from OpenSSL", drv[i], t,
					      len);
				ck_assert_int_eq(do_unwrap(tfm, pad, out, ol, ref, &rl, &rng, drv[i]), 0);
				ck_assert_msg(rl == len && !memcmp(ref, key, len), "%s: case %d unwrap",
					      drv[i], t);
				out[rt_rand_range(&rng, (u32)ol)] ^= (u8)(1 + rt_rand_range(&rng, 255));
				ck_assert_int_eq(do_unwrap(tfm, pad, out, ol, ref, &rl, &rng, drv[i]),
						 -EBADMSG);
			}
			crypto_free_skcipher(tfm);
			rt_report(pad ? "kwp vs OpenSSL wrap-pad (seed 0xae5007)" :
					"kw vs OpenSSL wrap (seed 0xae5006)", drv[i], 200, 0);
		}
	}
}
END_TEST

/* ---- CBC + PKCS#7: Wycheproof aes_cbc_pkcs5 ---- */

START_TEST(test_wycheproof_cbc_pkcs5)
{
	drvname drv[RT_MAX_IMPLS];
	json_t *root = rt_wp_load("aes_cbc_pkcs5_test.json"), *groups, *g, *tests, *t;
	int n, i;
	size_t gi, ti;

	if (!root)
		return;
	n = impls("cbc(aes)", "skcipher", drv);
	groups = json_object_get(root, "testGroups");
	for (i = 0; i < n; i++) {
		struct crypto_skcipher *tfm = alloc_sk(drv[i]);
		int valid = 0, rejected = 0, other = 0;

		json_array_foreach(groups, gi, g) {
			tests = json_object_get(g, "tests");
			json_array_foreach(tests, ti, t) {
				size_t kl, ivl, ml, cl;
				u8 *key = rt_wp_hex(t, "key", &kl), *iv0 = rt_wp_hex(t, "iv", &ivl);
				u8 *msg = rt_wp_hex(t, "msg", &ml), *ct = rt_wp_hex(t, "ct", &cl);
				u8 *buf = malloc(ml + cl + 32), iv[16];
				int res = rt_wp_result(t), tc = (int)json_integer_value(
					json_object_get(t, "tcId"));
				int err, plen;

				ck_assert_ptr_nonnull(buf);
				ck_assert_uint_eq(ivl, 16);
				ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, (unsigned int)kl), 0);
				/* decrypt and unpad */
				memcpy(buf, ct, cl);
				memcpy(iv, iv0, 16);
				err = sk_buf(tfm, false, buf, buf, (unsigned int)cl, iv);
				plen = err ? err : rind_pkcs7_unpad(buf, cl, 16);
				if (res == 1) {
					ck_assert_msg(plen >= 0 && (size_t)plen == ml &&
						      !memcmp(buf, msg, ml), "%s: tc %d decrypt", drv[i],
						      tc);
					/* pad and encrypt */
					memcpy(buf, msg, ml);
					plen = rind_pkcs7_pad(buf, ml, ml + 32, 16);
					ck_assert_int_eq(plen, (int)cl);
					memcpy(iv, iv0, 16);
					ck_assert_int_eq(sk_buf(tfm, true, buf, buf, (unsigned int)cl, iv), 0);
					ck_assert_msg(!memcmp(buf, ct, cl), "%s: tc %d encrypt", drv[i], tc);
					valid++;
				} else if (res == 0) {
					ck_assert_msg(plen < 0, "%s: tc %d: invalid padding accepted",
						      drv[i], tc);
					ck_assert_msg(plen == -EBADMSG || plen == -EINVAL,
						      "%s: tc %d: error %d", drv[i], tc, plen);
					rejected++;
				} else {
					other++;
				}
				free(key);
				free(iv0);
				free(msg);
				free(ct);
				free(buf);
			}
		}
		crypto_free_skcipher(tfm);
		printf("aes_cbc_pkcs5_test.json: %d valid passed, %d invalid rejected (%s)\n", valid,
		       rejected, drv[i]);
		rt_report("aes_cbc_pkcs5_test.json", drv[i], valid + rejected, other);
	}
	json_decref(root);
}
END_TEST

START_TEST(test_pkcs7)
{
	u8 buf[64];
	unsigned int bs, len, p;
	int cases = 0, r;

	for (bs = 1; bs <= 32; bs += (bs < 8 ? 7 : 8)) {
		for (len = 0; len <= 40; len++, cases++) {
			unsigned int padded = (len / bs + 1) * bs;

			memset(buf, 0xee, sizeof(buf));
			r = rind_pkcs7_pad(buf, len, sizeof(buf), bs);
			if (padded > sizeof(buf)) {
				ck_assert_int_eq(r, -ENOSPC);
				continue;
			}
			ck_assert_int_eq(r, (int)padded);
			for (p = len; p < padded; p++)
				ck_assert_uint_eq(buf[p], padded - len);
			ck_assert_int_eq(rind_pkcs7_unpad(buf, padded, bs), (int)len);
			/* exactly enough room, and one byte short */
			ck_assert_int_eq(rind_pkcs7_pad(buf, len, padded, bs), (int)padded);
			ck_assert_int_eq(rind_pkcs7_pad(buf, len, padded - 1, bs), -ENOSPC);
		}
	}
	/* every bad final byte, and every bad byte inside the padding */
	for (p = 0; p < 256; p++, cases++) {
		memset(buf, (int)p, 16);
		r = rind_pkcs7_unpad(buf, 16, 16);
		if (p >= 1 && p <= 16)
			ck_assert_int_eq(r, 16 - (int)p);
		else
			ck_assert_int_eq(r, -EBADMSG);
	}
	for (p = 2; p <= 16; p++) {
		unsigned int j;

		for (j = 16 - p; j < 15; j++, cases++) {
			memset(buf, (int)p, 16);
			buf[j] ^= 0x40;
			ck_assert_int_eq(rind_pkcs7_unpad(buf, 16, 16), -EBADMSG);
		}
	}
	memset(buf, 4, sizeof(buf));
	ck_assert_int_eq(rind_pkcs7_unpad(buf, 0, 16), -EBADMSG);
	ck_assert_int_eq(rind_pkcs7_unpad(buf, 15, 16), -EBADMSG);
	ck_assert_int_eq(rind_pkcs7_unpad(buf, 32, 16), 28);
	ck_assert_int_eq(rind_pkcs7_unpad(buf, 16, 0), -EINVAL);
	ck_assert_int_eq(rind_pkcs7_pad(buf, 3, 16, 0), -EINVAL);
	ck_assert_int_eq(rind_pkcs7_pad(buf, 3, 16, 256), -EINVAL);
	rt_report("PKCS#7 pad/unpad", "rind_pkcs7_*", cases, 0);
}
END_TEST

/* ---- bad lengths ---- */

START_TEST(test_bad_lengths)
{
	static const char *const modes[] = { "ecb(aes)", "cbc(aes)" };
	static const unsigned int bad[] = { 1, 8, 15, 17, 31, 33, 4095 };
	u8 buf[4096], before[4096], key[16] = { 1 }, iv[16] = { 2 }, iv0[16];
	int cases = 0;
	size_t m, b;

	memset(before, 0x3c, sizeof(before));
	for (m = 0; m < NELEM(modes); m++) {
		drvname drv[RT_MAX_IMPLS];
		int n = impls(modes[m], "skcipher", drv), i;

		for (i = 0; i < n; i++) {
			struct crypto_skcipher *tfm = alloc_sk(drv[i]);

			ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, 16), 0);
			for (b = 0; b < NELEM(bad); b++, cases += 2) {
				memcpy(buf, before, sizeof(buf));
				memcpy(iv0, iv, 16);
				ck_assert_msg(sk_buf(tfm, true, buf, buf, bad[b], iv0) == -EINVAL,
					      "%s: encrypt of %u bytes", drv[i], bad[b]);
				ck_assert_msg(sk_buf(tfm, false, buf, buf, bad[b], iv0) == -EINVAL,
					      "%s: decrypt of %u bytes", drv[i], bad[b]);
				ck_assert_msg(!memcmp(buf, before, sizeof(buf)) && !memcmp(iv0, iv, 16),
					      "%s: a refused request changed its buffers", drv[i]);
			}
			/* empty is fine and changes nothing */
			ck_assert_int_eq(sk_buf(tfm, true, buf, buf, 0, iv0), 0);
			ck_assert(!memcmp(iv0, iv, 16));
			crypto_free_skcipher(tfm);
		}
	}
	rt_report("ecb/cbc bad lengths rejected", "all ecb/cbc drivers", cases, 0);
}
END_TEST

/* ---- differential against OpenSSL ---- */

static size_t rand_len(struct rt_rng *rng, bool blocks)
{
	u32 r = rt_rand_range(rng, 100);
	size_t len;

	if (r < 60)
		len = rt_rand_range(rng, 600);
	else if (r < 92)
		len = rt_rand_range(rng, 4500);
	else
		len = rt_rand_range(rng, MAXLEN + 1);
	return blocks ? len & ~(size_t)15 : len;
}

static void diff_mode(const char *name, const char *omode, u64 seed, int ncases)
{
	drvname drv[RT_MAX_IMPLS];
	int n = impls(name, "skcipher", drv), i, t;
	bool blocks = strcmp(omode, "CTR") != 0, hasiv = strcmp(omode, "ECB") != 0;
	u8 *pt = malloc(MAXLEN), *ref = malloc(MAXLEN), *a = malloc(MAXLEN), *b = malloc(MAXLEN);

	ck_assert(pt && ref && a && b);
	for (i = 0; i < n; i++) {
		struct crypto_skcipher *tfm = alloc_sk(drv[i]);
		struct rt_rng rng;
		int inplace = 0, chained = 0;

		rt_rng_seed(&rng, seed);
		for (t = 0; t < ncases; t++) {
			size_t klen = 16 + 8 * rt_rand_range(&rng, 3), len = rand_len(&rng, blocks);
			u8 key[32], iv0[16], iv[16], ivx[16];
			struct scatterlist s[MAXSG], d[MAXSG];
			bool inpl = rt_rand_range(&rng, 2), chain = len >= 32 && !rt_rand_range(&rng, 4);
			size_t first = chain ? 16 * (1 + rt_rand_range(&rng, (u32)(len / 16 - 1))) : len;
			int enc;

			rt_fill(&rng, key, klen);
			rt_fill(&rng, iv0, 16);
			rt_fill(&rng, pt, len);
			ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, (unsigned int)klen), 0);
			ossl_crypt(omode, key, klen, iv0, pt, ref, len, 1);
			inplace += inpl;
			chained += chain;
			for (enc = 1; enc >= 0; enc--) {
				const u8 *in = enc ? pt : ref, *want = enc ? ref : pt;
				u8 *out = inpl ? a : b;
				size_t off;
				int k;

				memcpy(a, in, len);
				memset(b, 0xa5, len);
				memcpy(iv, iv0, 16);
				/* one or two requests, each with its own random splits */
				for (k = chain ? 0 : 1, off = 0; k < 2; k++) {
					size_t end = k ? len : first, l = end - off;

					rt_sg_split(&rng, s, MAXSG, a + off, l);
					if (!inpl)
						rt_sg_split(&rng, d, MAXSG, b + off, l);
					ck_assert_int_eq(sk_run(tfm, enc, s, inpl ? s : d, (unsigned int)l,
								hasiv ? iv : NULL), 0);
					off = end;
				}
				ck_assert_msg(!memcmp(out, want, len),
					      "%s: case %d (%s, %zu bytes, key %zu, %s%s) differs from "
					      "OpenSSL", drv[i], t, enc ? "encrypt" : "decrypt", len, klen,
					      inpl ? "in place" : "out of place", chain ? ", chained" : "");
				if (hasiv) {
					expect_iv(name, iv0, ref, len, ivx);
					ck_assert_msg(!memcmp(iv, ivx, 16), "%s: case %d: iv out %s",
						      drv[i], t, rt_hex(iv, 16));
				}
			}
		}
		crypto_free_skcipher(tfm);
		{
			char what[128];

			snprintf(what, sizeof(what), "%s vs OpenSSL (seed 0x%llx; %d in place, %d "
				 "chained)", name, (unsigned long long)seed, inplace, chained);
			rt_report(what, drv[i], ncases, 0);
		}
	}
	free(pt);
	free(ref);
	free(a);
	free(b);
}

START_TEST(test_diff_ecb)
{
	diff_mode("ecb(aes)", "ECB", 0xae5ecb, 1000);
}
END_TEST

START_TEST(test_diff_cbc)
{
	diff_mode("cbc(aes)", "CBC", 0xae5cbc, 1000);
}
END_TEST

START_TEST(test_diff_ctr)
{
	diff_mode("ctr(aes)", "CTR", 0xae5c72, 1000);
}
END_TEST

/*
 * Every implementation of each mode against the generic one (the template
 * over aes-generic), seeded: random key sizes and lengths, source and
 * destination at random offsets 0..15 from an aligned allocation (so the
 * arch code sees every alignment), in place or not, both directions, the
 * iv out compared too.
 */
static void diff_generic(const char *name, const char *ref, u64 seed, int ncases)
{
	drvname drv[RT_MAX_IMPLS];
	int n = impls(name, "skcipher", drv), i, t;
	bool blocks = strcmp(name, "ctr(aes)") != 0, hasiv = strcmp(name, "ecb(aes)") != 0;
	struct crypto_skcipher *rt = alloc_sk(ref);
	u8 *pt = aligned_alloc(64, 4096 + 64), *want = aligned_alloc(64, 4096 + 64);
	u8 *a = aligned_alloc(64, 4096 + 64), *b = aligned_alloc(64, 4096 + 64);

	ck_assert(pt && want && a && b);
	for (i = 0; i < n; i++) {
		struct crypto_skcipher *tfm;
		struct rt_rng rng;

		if (!strcmp(drv[i], ref))
			continue;
		tfm = alloc_sk(drv[i]);
		rt_rng_seed(&rng, seed);
		for (t = 0; t < ncases; t++) {
			size_t klen = 16 + 8 * rt_rand_range(&rng, 3);
			size_t len = rt_rand_range(&rng, t < ncases / 2 ? 300 : 4097);
			size_t so = rt_rand_range(&rng, 16), doff = rt_rand_range(&rng, 16);
			bool inpl = rt_rand_range(&rng, 2);
			u8 key[32], iv0[16], iv1[16], iv2[16];
			struct scatterlist ss, ds;
			int enc;

			if (blocks)
				len &= ~(size_t)15;
			rt_fill(&rng, key, klen);
			rt_fill(&rng, iv0, 16);
			rt_fill(&rng, pt + so, len);
			ck_assert_int_eq(crypto_skcipher_setkey(rt, key, (unsigned int)klen), 0);
			ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, (unsigned int)klen), 0);
			for (enc = 1; enc >= 0; enc--) {
				u8 *out = inpl ? a + so : b + doff;

				memcpy(iv1, iv0, 16);
				memcpy(want, pt + so, len);
				sg_init_one(&ss, want, (unsigned int)len);
				ck_assert_int_eq(sk_run(rt, enc, &ss, &ss, (unsigned int)len,
							hasiv ? iv1 : NULL), 0);
				memcpy(iv2, iv0, 16);
				memcpy(a + so, pt + so, len);
				sg_init_one(&ss, a + so, (unsigned int)len);
				sg_init_one(&ds, out, (unsigned int)len);
				ck_assert_int_eq(sk_run(tfm, enc, &ss, inpl ? &ss : &ds, (unsigned int)len,
							hasiv ? iv2 : NULL), 0);
				ck_assert_msg(!memcmp(out, want, len),
					      "%s: case %d (%s, %zu bytes, key %zu, offsets %zu/%zu%s) "
					      "differs from %s", drv[i], t, enc ? "encrypt" : "decrypt",
					      len, klen, so, doff, inpl ? ", in place" : "", ref);
				if (hasiv)
					ck_assert_msg(!memcmp(iv1, iv2, 16), "%s: case %d: iv out differs",
						      drv[i], t);
			}
		}
		crypto_free_skcipher(tfm);
		{
			char what[96];

			snprintf(what, sizeof(what), "%s vs %s, random offsets (seed 0x%llx)", name,
				 ref, (unsigned long long)seed);
			rt_report(what, drv[i], ncases, 0);
		}
	}
	/* Natively there may be nothing but the reference; it still ran. */
	ck_assert_int_ge(n, 1);
	crypto_free_skcipher(rt);
	free(pt);
	free(want);
	free(a);
	free(b);
}

START_TEST(test_diff_generic)
{
	diff_generic("ecb(aes)", "ecb(aes-generic)", 0xae5a11, 300);
	diff_generic("cbc(aes)", "cbc(aes-generic)", 0xae5a12, 300);
	diff_generic("ctr(aes)", "ctr(aes-generic)", 0xae5a13, 300);
}
END_TEST

static Suite *aes_suite(void)
{
	Suite *s = suite_create("aes");
	TCase *tc = tcase_create("aes");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_fips197);
	tcase_add_test(tc, test_cipher_diff);
	tcase_add_test(tc, test_lib_aes);
	tcase_add_test(tc, test_quic_style);
	tcase_add_test(tc, test_bad_keylen);
	tcase_add_test(tc, test_sp800_38a);
	tcase_add_test(tc, test_ctr_wrap);
	tcase_add_test(tc, test_kw_rfc);
	tcase_add_test(tc, test_kw_bad_lengths);
	tcase_add_test(tc, test_wycheproof_wrap);
	tcase_add_test(tc, test_wycheproof_kwp);
	tcase_add_test(tc, test_kw_diff);
	tcase_add_test(tc, test_wycheproof_cbc_pkcs5);
	tcase_add_test(tc, test_pkcs7);
	tcase_add_test(tc, test_bad_lengths);
	tcase_add_test(tc, test_diff_ecb);
	tcase_add_test(tc, test_diff_cbc);
	tcase_add_test(tc, test_diff_ctr);
	tcase_add_test(tc, test_diff_generic);
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(aes_suite)
