// SPDX-License-Identifier: MIT
/*
 * ChaCha20, XChaCha20, Poly1305 and the rfc7539 AEADs over every
 * implementation: RFC 8439 section 2 and appendix A vectors, the XChaCha
 * draft's vectors, Wycheproof (chacha20_poly1305, xchacha20_poly1305),
 * differential tests against OpenSSL (chacha20 with the 16-byte
 * counter || nonce IV, chacha20-poly1305, Poly1305) and libsodium
 * (XChaCha20, XChaCha20-Poly1305) with random lengths, AD and scatterlist
 * splits, in place and out of place; the block counter wrap as the kernel
 * does it; forgeries (-EBADMSG, destination zeroed); bad parameters; the
 * one-shots against the tfm path.
 *
 * The suite also registers test-only implementations ("chacha20-test",
 * "xchacha20-test", "poly1305-test", priority 1, module "test") written
 * against the front-end APIs only, so that rfc7539 instances over them run
 * the template's API path (the one used over implementations that are not
 * rind's own), which rind's own implementations never take.
 */
#include <limits.h>
#include <openssl/evp.h>
#include <sodium.h>
#include "testutil.h"
#include <rind/internal/skcipher.h>
#include <rind/internal/hash.h>
#include <crypto/chacha.h>
#include <crypto/poly1305.h>

#define MAXSG 16
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Sanitizer builds run a third of the random cases (same seeds). */
#if defined(__SANITIZE_ADDRESS__)
#define CASES(n) ((n) / 3)
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CASES(n) ((n) / 3)
#endif
#endif
#ifndef CASES
#define CASES(n) (n)
#endif

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	ck_assert_ptr_nonnull(p);
	return p;
}

/* A length for differential tests: mostly short, some long, up to @max. */
static size_t rand_len(struct rt_rng *r, size_t max)
{
	u32 k = rt_rand_range(r, 10);

	if (k < 5)
		return rt_rand_range(r, 300 < max ? 300 : (u32)max + 1);
	if (k < 9)
		return rt_rand_range(r, 2100 < max ? 2100 : (u32)max + 1);
	return rt_rand_range(r, (u32)max + 1);
}

/* ---- test-only implementations, reached through the APIs ---- */

struct tchacha_ctx {
	u32 key[8];
};

static int tchacha_setkey(struct crypto_skcipher *tfm, const u8 *key, unsigned int keylen)
{
	struct tchacha_ctx *ctx = crypto_skcipher_ctx(tfm);

	if (keylen != CHACHA_KEY_SIZE)
		return -EINVAL;
	rind_chacha_load_key(ctx->key, key);
	return 0;
}

static int tchacha_crypt(struct skcipher_request *req, bool x)
{
	struct tchacha_ctx *ctx = crypto_skcipher_ctx(crypto_skcipher_reqtfm(req));
	u8 *buf = malloc(req->cryptlen ? req->cryptlen : 1);
	u32 state[16];

	if (!buf)
		return -ENOMEM;
	if (x)
		rind_xchacha_init(state, ctx->key, req->iv);
	else
		rind_chacha_init(state, ctx->key, req->iv);
	sg_copy_to_buffer(req->src, ~0u, buf, req->cryptlen);
	rind_chacha20_crypt_generic(state, buf, buf, req->cryptlen);
	sg_copy_from_buffer(req->dst, ~0u, buf, req->cryptlen);
	free(buf);
	return 0;
}

static int tchacha20_crypt(struct skcipher_request *req)
{
	return tchacha_crypt(req, false);
}

static int txchacha20_crypt(struct skcipher_request *req)
{
	return tchacha_crypt(req, true);
}

static struct skcipher_alg test_chacha_algs[] = {
	{
		.setkey = tchacha_setkey,
		.encrypt = tchacha20_crypt,
		.decrypt = tchacha20_crypt,
		.min_keysize = 32,
		.max_keysize = 32,
		.ivsize = 16,
		.chunksize = 64,
		.base = {
			.cra_name = "chacha20",
			.cra_driver_name = "chacha20-test",
			.cra_priority = 1,
			.cra_blocksize = 1,
			.cra_ctxsize = sizeof(struct tchacha_ctx),
			.cra_module = "test",
		},
	}, {
		.setkey = tchacha_setkey,
		.encrypt = txchacha20_crypt,
		.decrypt = txchacha20_crypt,
		.min_keysize = 32,
		.max_keysize = 32,
		.ivsize = 32,
		.chunksize = 64,
		.base = {
			.cra_name = "xchacha20",
			.cra_driver_name = "xchacha20-test",
			.cra_priority = 1,
			.cra_blocksize = 1,
			.cra_ctxsize = sizeof(struct tchacha_ctx),
			.cra_module = "test",
		},
	},
};

struct tpoly_tctx {
	u8 key[32];
	bool keyed;
};

struct tpoly_desc {
	struct poly1305_ctx c;
	u8 kbuf[32];
	unsigned int klen;
};

static int tpoly_setkey(struct crypto_shash *tfm, const u8 *key, unsigned int keylen)
{
	struct tpoly_tctx *t = crypto_shash_ctx(tfm);

	if (keylen == 0) {
		t->keyed = false;
		return 0;
	}
	if (keylen != 32)
		return -EINVAL;
	memcpy(t->key, key, 32);
	t->keyed = true;
	return 0;
}

static int tpoly_init(struct shash_desc *desc)
{
	struct tpoly_tctx *t = crypto_shash_ctx(desc->tfm);
	struct tpoly_desc *d = shash_desc_ctx(desc);

	d->klen = 0;
	if (t->keyed) {
		rind_poly1305_init(&d->c, t->key);
		d->klen = 32;
	}
	return 0;
}

static int tpoly_update(struct shash_desc *desc, const u8 *data, unsigned int len)
{
	struct tpoly_desc *d = shash_desc_ctx(desc);

	while (d->klen < 32 && len) {
		d->kbuf[d->klen++] = *data++;
		len--;
		if (d->klen == 32)
			rind_poly1305_init(&d->c, d->kbuf);
	}
	if (len)
		rind_poly1305_update(&d->c, data, len, rind_poly1305_blocks_generic);
	return 0;
}

static int tpoly_final(struct shash_desc *desc, u8 *out)
{
	struct tpoly_desc *d = shash_desc_ctx(desc);

	if (d->klen < 32)
		return -ENOKEY;
	rind_poly1305_final(&d->c, out, rind_poly1305_blocks_generic);
	return 0;
}

static struct shash_alg test_poly_alg = {
	.init = tpoly_init,
	.update = tpoly_update,
	.final = tpoly_final,
	.setkey = tpoly_setkey,
	.descsize = sizeof(struct tpoly_desc),
	.digestsize = 16,
	.base = {
		.cra_name = "poly1305",
		.cra_driver_name = "poly1305-test",
		.cra_priority = 1,
		.cra_flags = CRYPTO_ALG_OPTIONAL_KEY,
		.cra_blocksize = 16,
		.cra_ctxsize = sizeof(struct tpoly_tctx),
		.cra_module = "test",
	},
};

/* Unchecked fixture: runs once in the parent, so every forked test sees them. */
static void register_test_algs(void)
{
	size_t i;
	int err;

	for (i = 0; i < NELEM(test_chacha_algs); i++) {
		err = crypto_register_skcipher(&test_chacha_algs[i]);
		if (err && err != -EEXIST)
			fprintf(stderr, "test_chacha: registering %s: %d\n",
				test_chacha_algs[i].base.cra_driver_name, err);
	}
	err = crypto_register_shash(&test_poly_alg);
	if (err && err != -EEXIST)
		fprintf(stderr, "test_chacha: registering poly1305-test: %d\n", err);
}

/* ---- implementation lists ---- */

struct impls {
	char drv[RT_MAX_IMPLS][CRYPTO_MAX_ALG_NAME];
	int n;
};

static void get_impls(struct impls *im, const char *name, const char *type)
{
	im->n = rt_impls(name, type, im->drv, RT_MAX_IMPLS);
}

/* ---- skcipher requests ---- */


static struct crypto_skcipher *alloc_sk(const char *drv)
{
	return RT_ALLOC_DRV(skcipher, drv);
}

/* Encrypt @len bytes of @in into @out in @mode; the IV must come back unchanged. */
static void run_sk(struct crypto_skcipher *tfm, const u8 *iv, const u8 *in, u8 *out, size_t len,
		   int mode, struct rt_rng *rng)
{
	unsigned int ivsize = crypto_skcipher_ivsize(tfm);
	struct scatterlist sgs[MAXSG], sgd[MAXSG];
	struct skcipher_request *req;
	u8 *sbuf = xmalloc(len + 1), *dbuf, ivc[32];
	bool inplace = mode == RT_M_INPLACE || mode == RT_M_SPLIT_INPLACE;
	int err;

	if (len)
		memcpy(sbuf, in, len);
	sbuf[len] = 0x5a;
	dbuf = inplace ? sbuf : xmalloc(len + 1);
	if (!inplace)
		memset(dbuf, 0xa5, len + 1);
	if (mode == RT_M_OUT) {
		sg_init_one(sgs, sbuf, (unsigned int)len);
		sg_init_one(sgd, dbuf, (unsigned int)len);
	} else if (mode == RT_M_INPLACE) {
		sg_init_one(sgs, sbuf, (unsigned int)len);
	} else {
		rt_sg_split(rng, sgs, MAXSG, sbuf, len);
		if (!inplace)
			rt_sg_split(rng, sgd, MAXSG, dbuf, len);
	}
	memcpy(ivc, iv, ivsize);
	req = skcipher_request_alloc(tfm, GFP_KERNEL);
	ck_assert(!IS_ERR_OR_NULL(req));
	skcipher_request_set_callback(req, 0, NULL, NULL);
	skcipher_request_set_crypt(req, sgs, inplace ? sgs : sgd, (unsigned int)len, ivc);
	err = crypto_skcipher_encrypt(req);
	skcipher_request_free(req);
	ck_assert_msg(err == 0, "%s: encrypt (%s, len %zu): %d", crypto_skcipher_driver_name(tfm),
		      rt_mode_name[mode], len, err);
	ck_assert_msg(!memcmp(ivc, iv, ivsize), "%s: IV modified", crypto_skcipher_driver_name(tfm));
	ck_assert_msg(dbuf[len] == (inplace ? 0x5a : 0xa5), "%s: wrote past the end (%s)",
		      crypto_skcipher_driver_name(tfm), rt_mode_name[mode]);
	memcpy(out, dbuf, len);
	if (!inplace)
		free(dbuf);
	free(sbuf);
}

/* ---- references ---- */

/* An OpenSSL context encrypting with @cipher under @key and @iv. */
static EVP_CIPHER_CTX *ossl_enc_ctx(const EVP_CIPHER *cipher, const u8 *key, const u8 *iv)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(EVP_EncryptInit_ex(c, cipher, NULL, key, iv), 1);
	return c;
}

static void ossl_chacha20(const u8 key[32], const u8 iv[16], const u8 *in, u8 *out, size_t len)
{
	EVP_CIPHER_CTX *c = ossl_enc_ctx(EVP_chacha20(), key, iv);
	int l;

	if (len)
		ck_assert_int_eq(EVP_EncryptUpdate(c, out, &l, in, (int)len), 1);
	EVP_CIPHER_CTX_free(c);
}

/* ChaCha20-Poly1305 seal with OpenSSL: out = ct || tag. */
static void ossl_seal(const u8 key[32], const u8 nonce[12], const u8 *ad, size_t adlen,
		      const u8 *pt, size_t len, u8 *out)
{
	EVP_CIPHER_CTX *c = ossl_enc_ctx(EVP_chacha20_poly1305(), key, nonce);
	int l;

	if (adlen)
		ck_assert_int_eq(EVP_EncryptUpdate(c, NULL, &l, ad, (int)adlen), 1);
	if (len)
		ck_assert_int_eq(EVP_EncryptUpdate(c, out, &l, pt, (int)len), 1);
	ck_assert_int_eq(EVP_EncryptFinal_ex(c, out + len, &l), 1);
	ck_assert_int_eq(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, out + len), 1);
	EVP_CIPHER_CTX_free(c);
}

static void ossl_poly1305(const u8 key[32], const u8 *msg, size_t len, u8 mac[16])
{
	EVP_MAC *m = EVP_MAC_fetch(NULL, "POLY1305", NULL);
	EVP_MAC_CTX *c;
	size_t ol;

	ck_assert_ptr_nonnull(m);
	c = EVP_MAC_CTX_new(m);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(EVP_MAC_init(c, key, 32, NULL), 1);
	ck_assert_int_eq(EVP_MAC_update(c, msg, len), 1);
	ck_assert_int_eq(EVP_MAC_final(c, mac, &ol, 16), 1);
	EVP_MAC_CTX_free(c);
	EVP_MAC_free(m);
}

/* The kernel's xchacha20 IV: nonce (24 bytes) || le64 stream position. */
static void xiv(u8 iv[32], const u8 nonce[24], u64 pos)
{
	memcpy(iv, nonce, 24);
	for (int i = 0; i < 8; i++)
		iv[24 + i] = (u8)(pos >> (8 * i));
}

/* ---- RFC 8439 ChaCha20 vectors ---- */

#define KEY_SEQ "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
#define KEY_80 "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
#define KEY_0 "0000000000000000000000000000000000000000000000000000000000000000"
#define KEY_1 "0000000000000000000000000000000000000000000000000000000000000001"
#define KEY_1C "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0"
#define Z64 "0000000000000000000000000000000000000000000000000000000000000000" \
	    "0000000000000000000000000000000000000000000000000000000000000000"
#define SUNSCREEN \
	"4c616469657320616e642047656e746c656d656e206f662074686520636c617373" \
	"206f66202739393a204966204920636f756c64206f6666657220796f75206f6e6c" \
	"79206f6e652074697020666f7220746865206675747572652c2073756e73637265" \
	"656e20776f756c642062652069742e"
#define IETF_TEXT \
	"416e79207375626d697373696f6e20746f20746865204945544620696e74656e" \
	"6465642062792074686520436f6e7472696275746f7220666f72207075626c69" \
	"636174696f6e20617320616c6c206f722070617274206f6620616e2049455446" \
	"20496e7465726e65742d4472616674206f722052464320616e6420616e792073" \
	"746174656d656e74206d6164652077697468696e2074686520636f6e74657874" \
	"206f6620616e204945544620616374697669747920697320636f6e7369646572" \
	"656420616e20224945544620436f6e747269627574696f6e222e205375636820" \
	"73746174656d656e747320696e636c756465206f72616c2073746174656d656e" \
	"747320696e20494554462073657373696f6e732c2061732077656c6c20617320" \
	"7772697474656e20616e6420656c656374726f6e696320636f6d6d756e696361" \
	"74696f6e73206d61646520617420616e792074696d65206f7220706c6163652c" \
	"207768696368206172652061646472657373656420746f"
#define JABBERWOCKY \
	"2754776173206272696c6c69672c20616e642074686520736c6974687920746f" \
	"7665730a446964206779726520616e642067696d626c6520696e207468652077" \
	"6162653a0a416c6c206d696d737920776572652074686520626f726f676f7665" \
	"732c0a416e6420746865206d6f6d65207261746873206f757467726162652e"

struct chacha_kat {
	const char *what, *key, *iv, *pt, *ct;	/* iv: le32 counter || nonce */
};

static const struct chacha_kat chacha_kats[] = {
	{ "RFC 8439 2.3.2 (block function)", KEY_SEQ, "01000000000000090000004a00000000", Z64,
	  "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
	  "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e" },
	{ "RFC 8439 2.4.2", KEY_SEQ, "01000000000000000000004a00000000", SUNSCREEN,
	  "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
	  "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
	  "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
	  "5af90bbf74a35be6b40b8eedf2785e42874d" },
	{ "RFC 8439 2.6.2 (Poly1305 key generation)", KEY_80, "00000000000000000001020304050607",
	  "0000000000000000000000000000000000000000000000000000000000000000",
	  "8ad5a08b905f81cc815040274ab29471a833b637e3fd0da508dbb8e2fdd1a646" },
	{ "RFC 8439 A.1 #1", KEY_0, "00000000000000000000000000000000", Z64,
	  "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
	  "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586" },
	{ "RFC 8439 A.1 #2", KEY_0, "01000000000000000000000000000000", Z64,
	  "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
	  "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f" },
	{ "RFC 8439 A.1 #3", KEY_1, "01000000000000000000000000000000", Z64,
	  "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a"
	  "8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0" },
	{ "RFC 8439 A.1 #4",
	  "00ff000000000000000000000000000000000000000000000000000000000000",
	  "02000000000000000000000000000000", Z64,
	  "72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca"
	  "13b25aa26cb4a648cb9b9d1be65b2c0924a66c54d545ec1b7374f4872e99f096" },
	{ "RFC 8439 A.1 #5", KEY_0, "00000000000000000000000000000002", Z64,
	  "c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c7"
	  "8a970e0e955c14f3a88e741b97c286f75f8fc299e8148362fa198a39531bed6d" },
	{ "RFC 8439 A.2 #2", KEY_1, "01000000000000000000000000000002", IETF_TEXT,
	  "a3fbf07df3fa2fde4f376ca23e82737041605d9f4f4f57bd8cff2c1d4b7955ec"
	  "2a97948bd3722915c8f3d337f7d370050e9e96d647b7c39f56e031ca5eb6250d"
	  "4042e02785ececfa4b4bb5e8ead0440e20b6e8db09d881a7c6132f420e527950"
	  "42bdfa7773d8a9051447b3291ce1411c680465552aa6c405b7764d5e87bea85a"
	  "d00f8449ed8f72d0d662ab052691ca66424bc86d2df80ea41f43abf937d3259d"
	  "c4b2d0dfb48a6c9139ddd7f76966e928e635553ba76c5c879d7b35d49eb2e62b"
	  "0871cdac638939e25e8a1e0ef9d5280fa8ca328b351c3c765989cbcf3daa8b6c"
	  "cc3aaf9f3979c92b3720fc88dc95ed84a1be059c6499b9fda236e7e818b04b0b"
	  "c39c1e876b193bfe5569753f88128cc08aaa9b63d1a16f80ef2554d7189c411f"
	  "5869ca52c5b83fa36ff216b9c1d30062bebcfd2dc5bce0911934fda79a86f6e6"
	  "98ced759c3ff9b6477338f3da4f9cd8514ea9982ccafb341b2384dd902f3d1ab"
	  "7ac61dd29c6f21ba5b862f3730e37cfdc4fd806c22f221" },
	{ "RFC 8439 A.2 #3", KEY_1C, "2a000000000000000000000000000002", JABBERWOCKY,
	  "62e6347f95ed87a45ffae7426f27a1df5fb69110044c0d73118effa95b01e5cf"
	  "166d3df2d721caf9b21e5fb14c616871fd84c54f9d65b283196c7fe4f60553eb"
	  "f39c6402c42234e32a356b3e764312a61a5532055716ead6962568f87d3f3f77"
	  "04c6a8d1bcd1bf4d50d6154b6da731b187b58dfd728afa36757a797ac188d1" },
	{ "RFC 8439 A.4 #1", KEY_0, "00000000000000000000000000000000",
	  "0000000000000000000000000000000000000000000000000000000000000000",
	  "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7" },
	{ "RFC 8439 A.4 #2", KEY_1, "00000000000000000000000000000002",
	  "0000000000000000000000000000000000000000000000000000000000000000",
	  "ecfa254f845f647473d3cb140da9e87606cb33066c447b87bc2666dde3fbb739" },
	{ "RFC 8439 A.4 #3", KEY_1C, "00000000000000000000000000000002",
	  "0000000000000000000000000000000000000000000000000000000000000000",
	  "965e3bc6f9ec7ed9560808f4d229f94b137ff275ca9b3fcbdd59deaad23310ae" },
};

/* draft-irtf-cfrg-xchacha A.3.2: XChaCha20 from block counter 1. */
#define XCHACHA_PT \
	"5468652064686f6c65202870726f6e6f756e6365642022646f6c652229206973" \
	"20616c736f206b6e6f776e2061732074686520417369617469632077696c6420" \
	"646f672c2072656420646f672c20616e642077686973746c696e6720646f672e" \
	"2049742069732061626f7574207468652073697a65206f662061204765726d61" \
	"6e20736865706865726420627574206c6f6f6b73206d6f7265206c696b652061" \
	"206c6f6e672d6c656767656420666f782e205468697320686967686c7920656c" \
	"757369766520616e6420736b696c6c6564206a756d70657220697320636c6173" \
	"736966696564207769746820776f6c7665732c20636f796f7465732c206a6163" \
	"6b616c732c20616e6420666f78657320696e20746865207461786f6e6f6d6963" \
	"2066616d696c792043616e696461652e"
#define XCHACHA_CT \
	"7d0a2e6b7f7c65a236542630294e063b7ab9b555a5d5149aa21e4ae1e4fbce87" \
	"ecc8e08a8b5e350abe622b2ffa617b202cfad72032a3037e76ffdcdc4376ee05" \
	"3a190d7e46ca1de04144850381b9cb29f051915386b8a710b8ac4d027b8b050f" \
	"7cba5854e028d564e453b8a968824173fc16488b8970cac828f11ae53cabd201" \
	"12f87107df24ee6183d2274fe4c8b1485534ef2c5fbc1ec24bfc3663efaa08bc" \
	"047d29d25043532db8391a8a3d776bf4372a6955827ccb0cdd4af403a7ce4c63" \
	"d595c75a43e045f0cce1f29c8b93bd65afc5974922f214a40b7c402cdb91ae73" \
	"c0b63615cdad0480680f16515a7ace9d39236464328a37743ffc28f4ddb324f4" \
	"d0f5bbdc270c65b1749a6efff1fbaa09536175ccd29fb9e6057b307320d31683" \
	"8a9c71f70b5b5907a66f7ea49aadc409"
#define XCHACHA_NONCE "404142434445464748494a4b4c4d4e4f5051525354555658"

START_TEST(test_chacha20_vectors)
{
	struct impls im;
	struct rt_rng rng;
	int i, ran = 0;

	get_impls(&im, "chacha20", "skcipher");
	rt_rng_seed(&rng, 0x20);
	for (i = 0; i < im.n; i++) {
		struct crypto_skcipher *tfm = alloc_sk(im.drv[i]);

		ran = 0;
		ck_assert_int_eq(crypto_skcipher_ivsize(tfm), 16);
		for (size_t v = 0; v < NELEM(chacha_kats); v++) {
			const struct chacha_kat *k = &chacha_kats[v];
			size_t kl, ivl, pl, cl;
			u8 *key = rt_unhex_alloc(k->key, &kl), *iv = rt_unhex_alloc(k->iv, &ivl);
			u8 *pt = rt_unhex_alloc(k->pt, &pl), *ct = rt_unhex_alloc(k->ct, &cl);
			u8 *out = xmalloc(pl);

			ck_assert_int_eq(pl, cl);
			ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, (unsigned int)kl), 0);
			for (int mode = 0; mode < RT_M_COUNT; mode++) {
				run_sk(tfm, iv, pt, out, pl, mode, &rng);
				ck_assert_msg(!memcmp(out, ct, cl), "%s: %s (%s): got %s", im.drv[i],
					      k->what, rt_mode_name[mode], rt_hex(out, pl));
				/* and back */
				run_sk(tfm, iv, ct, out, cl, mode, &rng);
				ck_assert_msg(!memcmp(out, pt, pl), "%s: %s (%s): decrypt", im.drv[i],
					      k->what, rt_mode_name[mode]);
			}
			ran++;
			free(key);
			free(iv);
			free(pt);
			free(ct);
			free(out);
		}
		crypto_free_skcipher(tfm);
		rt_report("RFC 8439 ChaCha20 vectors", im.drv[i], ran, 0);
	}
}
END_TEST

START_TEST(test_plain_functions)
{
	u8 key[32], block[64], exp[64], n16[16];
	u32 k[8], st[16], sub[8];
	size_t l;

	/* RFC 8439 2.3.2 through the block function */
	rt_unhex(key, 32, KEY_SEQ);
	rt_unhex(n16, 16, "01000000000000090000004a00000000");
	rt_unhex(exp, 64, chacha_kats[0].ct);
	rind_chacha_load_key(k, key);
	rind_chacha_init(st, k, n16);
	rind_chacha20_block_generic(st, block);
	ck_assert_msg(!memcmp(block, exp, 64), "block function: %s", rt_hex(block, 64));
	ck_assert_uint_eq(st[12], 2);

	/* draft-irtf-cfrg-xchacha 2.2.1: HChaCha20 */
	rt_unhex(n16, 16, "000000090000004a0000000031415927");
	rt_unhex(exp, 32, "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc");
	rind_hchacha20(sub, k, n16);
	for (int i = 0; i < 8; i++)
		put_unaligned_le32(sub[i], block + 4 * i);
	ck_assert_msg(!memcmp(block, exp, 32), "HChaCha20: %s", rt_hex(block, 32));

	/* the "best" plain functions agree with the generic ones */
	{
		struct rt_rng r;
		u8 *in = xmalloc(5000), *a = xmalloc(5000), *b = xmalloc(5000);
		chacha_crypt_fn best = rind_chacha20_best_crypt();
		poly1305_blocks_fn pbest = rind_poly1305_best_blocks();

		ck_assert_ptr_nonnull(best);
		ck_assert_ptr_nonnull(pbest);
		rt_rng_seed(&r, 0x51);
		for (int it = 0; it < 200; it++) {
			u32 s1[16], s2[16];
			u8 m1[16], m2[16];
			struct poly1305_ctx c;

			l = rt_rand_range(&r, 5001);
			rt_fill(&r, key, 32);
			rt_fill(&r, n16, 16);
			rt_fill(&r, in, l);
			rind_chacha_load_key(k, key);
			rind_chacha_init(s1, k, n16);
			memcpy(s2, s1, sizeof(s1));
			rind_chacha20_crypt_generic(s1, a, in, l);
			best(s2, b, in, l);
			ck_assert_msg(!memcmp(a, b, l) && !memcmp(s1, s2, sizeof(s1)),
				      "best chacha crypt differs from generic, len %zu", l);
			rind_poly1305(m1, in, l, key);
			rind_poly1305_init(&c, key);
			rind_poly1305_update(&c, in, l, pbest);
			rind_poly1305_final(&c, m2, pbest);
			ck_assert_msg(!memcmp(m1, m2, 16), "best poly1305 differs, len %zu", l);
		}
		free(in);
		free(a);
		free(b);
	}
}
END_TEST

START_TEST(test_xchacha20_vectors)
{
	struct impls im;
	struct rt_rng rng;
	u8 key[32], nonce[24], iv[32];
	size_t pl, cl;
	u8 *pt = rt_unhex_alloc(XCHACHA_PT, &pl), *ct = rt_unhex_alloc(XCHACHA_CT, &cl);
	u8 *out = xmalloc(pl);
	int i;

	ck_assert_int_eq(pl, 304);
	ck_assert_int_eq(cl, 304);
	rt_unhex(key, 32, KEY_80);
	rt_unhex(nonce, 24, XCHACHA_NONCE);
	xiv(iv, nonce, 1);
	get_impls(&im, "xchacha20", "skcipher");
	rt_rng_seed(&rng, 0x21);
	for (i = 0; i < im.n; i++) {
		struct crypto_skcipher *tfm = alloc_sk(im.drv[i]);

		ck_assert_int_eq(crypto_skcipher_ivsize(tfm), 32);
		ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, 32), 0);
		for (int mode = 0; mode < RT_M_COUNT; mode++) {
			run_sk(tfm, iv, pt, out, pl, mode, &rng);
			ck_assert_msg(!memcmp(out, ct, cl), "%s: XChaCha draft A.3.2 (%s): got %s",
				      im.drv[i], rt_mode_name[mode], rt_hex(out, pl));
		}
		crypto_free_skcipher(tfm);
		rt_report("XChaCha draft A.3.2", im.drv[i], 1, 0);
	}
	free(pt);
	free(ct);
	free(out);
}
END_TEST

/*
 * A stream cipher's random case for stream_differential: draws the key and
 * the IV (the rng's order is the case's), and computes the reference's
 * output for them.
 */
struct stream_ref {
	const char *name, *what, *vs;	/* alg, report line, the reference */
	u64 seed;
	int cases;
	void (*draw)(struct rt_rng *rng, u8 key[32], u8 iv[32]);
	void (*ref)(const u8 key[32], const u8 iv[32], const u8 *in, u8 *out, size_t len);
};

/* chacha20: any counter that does not wrap within the message. */
static void chacha_draw(struct rt_rng *rng, u8 key[32], u8 iv[32])
{
	u32 ctr;

	rt_fill(rng, key, 32);
	rt_fill(rng, iv, 16);
	ctr = (u32)rt_rand(rng) % (0xffffffffu - 400);
	put_unaligned_le32(ctr, iv);
}

static void chacha_ref(const u8 key[32], const u8 iv[32], const u8 *in, u8 *out, size_t len)
{
	ossl_chacha20(key, iv, in, out, len);
}

/* xchacha20: mostly near the stream's start, some near the 32-bit counter's end. */
static void xchacha_draw(struct rt_rng *rng, u8 key[32], u8 iv[32])
{
	u64 pos = rt_rand_range(rng, 4) ? rt_rand_range(rng, 1000) :
		  (u64)rt_rand_range(rng, 0xffffffffu - 400);
	u8 nonce[24];

	rt_fill(rng, key, 32);
	rt_fill(rng, nonce, 24);
	xiv(iv, nonce, pos);
}

static void xchacha_ref(const u8 key[32], const u8 iv[32], const u8 *in, u8 *out, size_t len)
{
	crypto_stream_xchacha20_xor_ic(out, in, len, iv, get_unaligned_le64(iv + 24), key);
}

/* Every implementation of @r->name against the reference, in random request modes. */
static void stream_differential(const struct stream_ref *r, u8 *in, u8 *a, u8 *b)
{
	struct impls im;
	int i, it;

	get_impls(&im, r->name, "skcipher");
	for (i = 0; i < im.n; i++) {
		struct crypto_skcipher *tfm = alloc_sk(im.drv[i]);
		unsigned int ivsize = crypto_skcipher_ivsize(tfm);
		struct rt_rng rng;

		rt_rng_seed(&rng, r->seed);
		for (it = 0; it < r->cases; it++) {
			u8 key[32], iv[32];
			size_t len = rand_len(&rng, 20000);

			r->draw(&rng, key, iv);
			rt_fill(&rng, in, len);
			ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, 32), 0);
			run_sk(tfm, iv, in, a, len, (int)rt_rand_range(&rng, RT_M_COUNT), &rng);
			r->ref(key, iv, in, b, len);
			ck_assert_msg(!memcmp(a, b, len), "%s: vs %s: case %d len %zu iv %s",
				      im.drv[i], r->vs, it, len, rt_hex(iv, ivsize));
		}
		crypto_free_skcipher(tfm);
		rt_report(r->what, im.drv[i], it, 0);
	}
}

/* Differential: chacha20 vs OpenSSL, xchacha20 vs libsodium, seeded. */
START_TEST(test_stream_differential)
{
	static const struct stream_ref refs[] = {
		{ "chacha20", "chacha20 vs OpenSSL (seed 0xc20)", "OpenSSL", 0xc20, CASES(1500),
		  chacha_draw, chacha_ref },
		{ "xchacha20", "xchacha20 vs libsodium (seed 0x4c20)", "libsodium", 0x4c20,
		  CASES(1000), xchacha_draw, xchacha_ref },
	};
	u8 *in = xmalloc(20000), *a = xmalloc(20000), *b = xmalloc(20000);

	for (size_t r = 0; r < NELEM(refs); r++)
		stream_differential(&refs[r], in, a, b);
	free(in);
	free(a);
	free(b);
}
END_TEST

/*
 * Every chacha20 / xchacha20 implementation against the generic one,
 * seeded: random lengths (every length up to 600, then up to 4096), the
 * source and destination at random offsets 0..15 from an aligned
 * allocation, in place or not, random starting counters that do not wrap.
 */
static void sk_at(struct crypto_skcipher *tfm, const u8 *iv, u8 *src, u8 *dst, size_t len)
{
	struct skcipher_request *req = skcipher_request_alloc(tfm, GFP_KERNEL);
	struct scatterlist ss, ds;
	u8 ivc[32];

	ck_assert(!IS_ERR_OR_NULL(req));
	memcpy(ivc, iv, crypto_skcipher_ivsize(tfm));
	sg_init_one(&ss, src, (unsigned int)len);
	sg_init_one(&ds, dst, (unsigned int)len);
	skcipher_request_set_callback(req, 0, NULL, NULL);
	skcipher_request_set_crypt(req, &ss, src == dst ? &ss : &ds, (unsigned int)len, ivc);
	ck_assert_int_eq(crypto_skcipher_encrypt(req), 0);
	skcipher_request_free(req);
}

static void diff_generic(const char *name, const char *gen, u64 seed)
{
	u8 *ref = aligned_alloc(64, 4096 + 64), *a = aligned_alloc(64, 4096 + 64);
	u8 *b = aligned_alloc(64, 4096 + 64), *in = aligned_alloc(64, 4096 + 64);
	struct crypto_skcipher *rt = alloc_sk(gen);
	unsigned int ivsize = crypto_skcipher_ivsize(rt);
	struct impls im;
	int i, k, cases = 800;

	ck_assert(ref && a && b && in);
	get_impls(&im, name, "skcipher");
	for (i = 0; i < im.n; i++) {
		struct crypto_skcipher *tfm;
		struct rt_rng rng;

		if (!strcmp(im.drv[i], gen))
			continue;
		tfm = alloc_sk(im.drv[i]);
		rt_rng_seed(&rng, seed);
		for (k = 0; k < cases; k++) {
			size_t len = k < 600 ? (size_t)k : rt_rand_range(&rng, 4097);
			size_t so = rt_rand_range(&rng, 16), doff = rt_rand_range(&rng, 16);
			bool inpl = rt_rand_range(&rng, 2);
			u8 key[32], iv[32], *out = inpl ? a + so : b + doff;

			rt_fill(&rng, key, 32);
			rt_fill(&rng, iv, ivsize);
			/* a counter (word 12, or the low stream word) that does not wrap */
			put_unaligned_le32((u32)(rt_rand(&rng) % (0xffffffffu - 100)),
					   iv + (ivsize == 32 ? 24 : 0));
			if (ivsize == 32)
				put_unaligned_le32(0, iv + 28);
			rt_fill(&rng, in, len);
			ck_assert_int_eq(crypto_skcipher_setkey(rt, key, 32), 0);
			ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, 32), 0);
			memcpy(ref, in, len);
			sk_at(rt, iv, ref, ref, len);
			memcpy(a + so, in, len);
			sk_at(tfm, iv, a + so, out, len);
			ck_assert_msg(!memcmp(out, ref, len),
				      "%s: case %d (%zu bytes, offsets %zu/%zu%s) differs from %s",
				      im.drv[i], k, len, so, doff, inpl ? ", in place" : "", gen);
		}
		crypto_free_skcipher(tfm);
		{
			char what[64];

			snprintf(what, sizeof(what), "%s vs %s, random offsets", name, gen);
			rt_report(what, im.drv[i], cases, 0);
		}
	}
	crypto_free_skcipher(rt);
	free(ref);
	free(a);
	free(b);
	free(in);
}

START_TEST(test_diff_generic)
{
	diff_generic("chacha20", "chacha20-generic", 0xc2a11);
	diff_generic("xchacha20", "xchacha20-generic", 0xc2a12);
}
END_TEST

/*
 * The 32-bit block counter at its end.  The kernel (and rind) increment
 * state word 12 alone: after block 0xffffffff comes block 0 of the same
 * nonce.  OpenSSL instead carries into the first nonce word, so beyond the
 * wrap its stream differs; RFC 8439 forbids using that many blocks with one
 * nonce anyway.  Each block is checked against OpenSSL keyed at that
 * block's own counter; XChaCha20 likewise against libsodium (whose 64-bit
 * counter does carry into word 13).
 */
START_TEST(test_counter_wrap)
{
	static const u32 starts[] = { 0xffffffffu, 0xfffffffeu, 0xfffffffdu };
	struct impls im;
	struct rt_rng rng;
	const size_t len = 5 * 64 + 17;
	u8 in[5 * 64 + 17], a[5 * 64 + 17], b[5 * 64 + 17], carried[5 * 64 + 17];
	int i, ran;

	rt_rng_seed(&rng, 0xffff);
	get_impls(&im, "chacha20", "skcipher");
	for (i = 0; i < im.n; i++) {
		struct crypto_skcipher *tfm = alloc_sk(im.drv[i]);

		ran = 0;
		for (size_t s = 0; s < NELEM(starts); s++) {
			for (int mode = 0; mode < RT_M_COUNT; mode++) {
				u8 key[32], iv[16], biv[16];

				rt_fill(&rng, key, 32);
				rt_fill(&rng, iv, 16);
				rt_fill(&rng, in, len);
				put_unaligned_le32(starts[s], iv);
				ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, 32), 0);
				run_sk(tfm, iv, in, a, len, mode, &rng);
				for (size_t off = 0; off < len; off += 64) {
					size_t n = len - off < 64 ? len - off : 64;

					memcpy(biv, iv, 16);
					put_unaligned_le32(starts[s] + (u32)(off / 64), biv);
					ossl_chacha20(key, biv, in + off, b + off, n);
				}
				ck_assert_msg(!memcmp(a, b, len),
					      "%s: counter from %#x (%s): not the kernel's wrap",
					      im.drv[i], starts[s], rt_mode_name[mode]);
				/* OpenSSL's own stream agrees up to the wrap only */
				ossl_chacha20(key, iv, in, carried, len);
				ck_assert(!memcmp(a, carried, 64 * (size_t)(0x100000000ull - starts[s])));
				ran++;
			}
		}
		crypto_free_skcipher(tfm);
		rt_report("chacha20 counter wrap (kernel semantics)", im.drv[i], ran, 0);
	}

	get_impls(&im, "xchacha20", "skcipher");
	for (i = 0; i < im.n; i++) {
		struct crypto_skcipher *tfm = alloc_sk(im.drv[i]);

		ran = 0;
		for (size_t s = 0; s < NELEM(starts); s++) {
			u8 key[32], nonce[24], iv[32];
			u64 pos = ((u64)0x1234 << 32) | starts[s];

			rt_fill(&rng, key, 32);
			rt_fill(&rng, nonce, 24);
			rt_fill(&rng, in, len);
			xiv(iv, nonce, pos);
			ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, 32), 0);
			run_sk(tfm, iv, in, a, len, (int)(s % RT_M_COUNT), &rng);
			for (size_t off = 0; off < len; off += 64) {
				size_t n = len - off < 64 ? len - off : 64;
				u64 p = (pos & ~0xffffffffull) | (u32)(starts[s] + (u32)(off / 64));

				crypto_stream_xchacha20_xor_ic(b + off, in + off, n, nonce, p, key);
			}
			ck_assert_msg(!memcmp(a, b, len), "%s: position %#llx: not the kernel's wrap",
				      im.drv[i], (unsigned long long)pos);
			ran++;
		}
		crypto_free_skcipher(tfm);
		rt_report("xchacha20 counter wrap (kernel semantics)", im.drv[i], ran, 0);
	}
}
END_TEST

/* ---- Poly1305 ---- */

struct poly_kat {
	const char *what, *key, *msg, *tag;
};

static const struct poly_kat poly_kats[] = {
	{ "RFC 8439 2.5.2",
	  "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
	  "43727970746f6772617068696320466f72756d2052657365617263682047726f7570",
	  "a8061dc1305136c6c22b8baf0c0127a9" },
	{ "RFC 8439 A.3 #1", KEY_0, Z64, "00000000000000000000000000000000" },
	{ "RFC 8439 A.3 #2", "0000000000000000000000000000000036e5f6b5c5e06070f0efca96227a863e",
	  IETF_TEXT, "36e5f6b5c5e06070f0efca96227a863e" },
	{ "RFC 8439 A.3 #3", "36e5f6b5c5e06070f0efca96227a863e00000000000000000000000000000000",
	  IETF_TEXT, "f3477e7cd95417af89a6b8794c310cf0" },
	{ "RFC 8439 A.3 #4", KEY_1C, JABBERWOCKY, "4541669a7eaaee61e708dc7cbcc5eb62" },
	{ "RFC 8439 A.3 #5", "0200000000000000000000000000000000000000000000000000000000000000",
	  "ffffffffffffffffffffffffffffffff", "03000000000000000000000000000000" },
	{ "RFC 8439 A.3 #6", "02000000000000000000000000000000ffffffffffffffffffffffffffffffff",
	  "02000000000000000000000000000000", "03000000000000000000000000000000" },
	{ "RFC 8439 A.3 #7", "0100000000000000000000000000000000000000000000000000000000000000",
	  "ffffffffffffffffffffffffffffffff" "f0ffffffffffffffffffffffffffffff"
	  "11000000000000000000000000000000", "05000000000000000000000000000000" },
	{ "RFC 8439 A.3 #8", "0100000000000000000000000000000000000000000000000000000000000000",
	  "ffffffffffffffffffffffffffffffff" "fbfefefefefefefefefefefefefefefe"
	  "01010101010101010101010101010101", "00000000000000000000000000000000" },
	{ "RFC 8439 A.3 #9", "0200000000000000000000000000000000000000000000000000000000000000",
	  "fdffffffffffffffffffffffffffffff", "faffffffffffffffffffffffffffffff" },
	{ "RFC 8439 A.3 #10", "0100000000000000040000000000000000000000000000000000000000000000",
	  "e33594d7505e43b900000000000000003394d7505e4379cd0100000000000000"
	  "0000000000000000000000000000000001000000000000000000000000000000",
	  "14000000000000005500000000000000" },
	{ "RFC 8439 A.3 #11", "0100000000000000040000000000000000000000000000000000000000000000",
	  "e33594d7505e43b900000000000000003394d7505e4379cd0100000000000000"
	  "00000000000000000000000000000000",
	  "13000000000000000000000000000000" },
};

/* MAC of @msg through @tfm, fed in random pieces; @keyin: key through update. */
static int poly_mac(struct crypto_shash *tfm, const u8 *key, const u8 *msg, size_t len,
		    bool keyin, struct rt_rng *rng, u8 out[16])
{
	SHASH_DESC_ON_STACK(desc, tfm);
	size_t off = 0;
	int err;

	err = crypto_shash_setkey(tfm, keyin ? NULL : key, keyin ? 0 : 32);
	if (err)
		return err;
	desc->tfm = tfm;
	err = crypto_shash_init(desc);
	if (err)
		return err;
	if (keyin) {
		size_t k = rt_rand_range(rng, 33);

		crypto_shash_update(desc, key, (unsigned int)k);
		crypto_shash_update(desc, key + k, (unsigned int)(32 - k));
	}
	while (off < len) {
		size_t n = rt_rand_range(rng, 3) ? len - off : rt_rand_range(rng, (u32)(len - off) + 1);

		err = crypto_shash_update(desc, msg + off, (unsigned int)n);
		if (err)
			return err;
		off += n;
	}
	err = crypto_shash_final(desc, out);
	shash_desc_zero(desc);
	return err;
}

START_TEST(test_poly1305)
{
	struct impls im;
	struct rt_rng rng;
	u8 *msg = xmalloc(9000);
	int i, it;

	get_impls(&im, "poly1305", "shash");
	rt_rng_seed(&rng, 0x1305);
	for (i = 0; i < im.n; i++) {
		struct crypto_shash *tfm = crypto_alloc_shash(im.drv[i], 0, 0);
		SHASH_DESC_ON_STACK(desc, tfm);
		u8 key[32], mac[16], ref[16];
		int ran = 0;

		ck_assert_msg(!IS_ERR(tfm), "%s: alloc", im.drv[i]);
		ck_assert_str_eq(crypto_shash_driver_name(tfm), im.drv[i]);
		ck_assert_int_eq(crypto_shash_digestsize(tfm), 16);
		for (size_t v = 0; v < NELEM(poly_kats); v++) {
			const struct poly_kat *k = &poly_kats[v];
			size_t kl, ml, tl;
			u8 *kk = rt_unhex_alloc(k->key, &kl), *m = rt_unhex_alloc(k->msg, &ml);
			u8 *t = rt_unhex_alloc(k->tag, &tl);

			for (int keyin = 0; keyin < 2; keyin++) {
				ck_assert_int_eq(poly_mac(tfm, kk, m, ml, keyin, &rng, mac), 0);
				ck_assert_msg(!memcmp(mac, t, 16), "%s: %s (key %s): got %s", im.drv[i],
					      k->what, keyin ? "in data" : "by setkey", rt_hex(mac, 16));
			}
			ran++;
			free(kk);
			free(m);
			free(t);
		}
		rt_report("RFC 8439 Poly1305 vectors (both keyings)", im.drv[i], ran, 0);

		for (it = 0; it < CASES(1500); it++) {
			size_t len = rand_len(&rng, 9000);
			int keyin = (int)rt_rand_range(&rng, 2);

			rt_fill(&rng, key, 32);
			if (!rt_rand_range(&rng, 8))
				memset(key, 0xff, 32);
			rt_fill(&rng, msg, len);
			if (!rt_rand_range(&rng, 8))
				memset(msg, 0xff, len);
			ck_assert_int_eq(poly_mac(tfm, key, msg, len, keyin, &rng, mac), 0);
			ossl_poly1305(key, msg, len, ref);
			ck_assert_msg(!memcmp(mac, ref, 16), "%s: vs OpenSSL: case %d len %zu",
				      im.drv[i], it, len);
		}
		rt_report("poly1305 vs OpenSSL (seed 0x1305)", im.drv[i], it, 0);

		/* no key: -ENOKEY at final; bad key lengths */
		ck_assert_int_eq(crypto_shash_setkey(tfm, NULL, 0), 0);
		desc->tfm = tfm;
		ck_assert_int_eq(crypto_shash_init(desc), 0);
		ck_assert_int_eq(crypto_shash_update(desc, key, 31), 0);
		ck_assert_int_eq(crypto_shash_final(desc, mac), -ENOKEY);
		ck_assert_int_eq(crypto_shash_setkey(tfm, key, 16), -EINVAL);
		ck_assert_int_eq(crypto_shash_setkey(tfm, key, 33), -EINVAL);
		crypto_free_shash(tfm);
	}
	free(msg);
}
END_TEST

/*
 * Each "poly1305" implementation's blocks function (reached through its
 * registered alg) against the generic Poly1305: messages of the lengths
 * where the paths change -- 0, 15, 16, 17, the arm64 NEON driver's
 * switch-over at 16 blocks (256 bytes) and its four-block steps, +-1
 * block and +-1 byte each, then long ones -- and random lengths, at
 * random offsets 0..15 from an aligned buffer, fed in one update or in
 * random pieces (so that one state sees calls above and below the
 * switch-over, its cached powers reused); and the blocks function called
 * directly with padbit 0 over random block counts, tags compared after
 * emit.  On arm64 the best "poly1305" (what the AEADs use) must be
 * poly1305-neon where it is registered.
 */
START_TEST(test_poly1305_blocks_lengths)
{
	static const size_t fixed[] = {
		0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 239, 240, 241, 255, 256, 257,
		271, 272, 273, 303, 304, 305, 319, 320, 321, 511, 512, 513, 1023, 1024, 1025, 4095,
		4096, 4097, 8191, 8192,
	};
	struct impls im;
	struct rt_rng rng;
	u8 *buf = aligned_alloc(64, 8192 + 64);
	int i, it;

	ck_assert_ptr_nonnull(buf);
	get_impls(&im, "poly1305", "shash");
	rt_rng_seed(&rng, 0x13050);
	for (i = 0; i < im.n; i++) {
		struct crypto_shash *tfm = crypto_alloc_shash(im.drv[i], 0, 0);
		poly1305_blocks_fn fn;
		int ran = 0;

		ck_assert_msg(!IS_ERR(tfm), "%s: alloc", im.drv[i]);
		fn = rind_poly1305_alg_blocks(&crypto_shash_alg(tfm)->base);
		if (!fn) {
			/* not one of rind's poly1305 shashes (the test-only one) */
			crypto_free_shash(tfm);
			continue;
		}
		for (it = 0; it < (int)NELEM(fixed) + CASES(300); it++) {
			size_t len = it < (int)NELEM(fixed) ? fixed[it] : rand_len(&rng, 8192);
			size_t off = rt_rand_range(&rng, 16), pos = 0;
			u8 key[32], ref[16], got[16];
			struct poly1305_ctx c;

			rt_fill(&rng, key, 32);
			rt_fill(&rng, buf + off, len);
			if (it % 7 == 3) {
				memset(key, 0xff, 32);
				memset(buf + off, 0xff, len);
			}
			rind_poly1305(ref, buf + off, len, key);
			rind_poly1305_init(&c, key);
			if (it & 1) {
				rind_poly1305_update(&c, buf + off, len, fn);
			} else {
				while (pos < len) {
					size_t n = rt_rand_range(&rng, 600) + 1;

					n = n > len - pos ? len - pos : n;
					rind_poly1305_update(&c, buf + off + pos, n, fn);
					pos += n;
				}
			}
			rind_poly1305_final(&c, got, fn);
			ck_assert_msg(!memcmp(ref, got, 16), "%s: len %zu offset %zu (%s)", im.drv[i],
				      len, off, (it & 1) ? "one update" : "pieces");
			ran++;
		}
		for (it = 0; it < CASES(60); it++) {
			size_t nb = rt_rand_range(&rng, 80), off = rt_rand_range(&rng, 16);
			struct poly1305_state s1, s2;
			u8 key[32], t1[16], t2[16];
			u32 pad = (u32)rt_rand_range(&rng, 2);

			rt_fill(&rng, key, 32);
			rt_fill(&rng, buf + off, nb * 16);
			rind_poly1305_init_state(&s1, key);
			rind_poly1305_init_state(&s2, key);
			rind_poly1305_blocks_generic(&s1, buf + off, nb, pad);
			fn(&s2, buf + off, nb, pad);
			/* and once more on the same state (cached powers) */
			rind_poly1305_blocks_generic(&s1, buf, nb, pad ^ 1);
			fn(&s2, buf, nb, pad ^ 1);
			rind_poly1305_emit(&s1, t1);
			rind_poly1305_emit(&s2, t2);
			ck_assert_msg(!memcmp(t1, t2, 16), "%s: blocks %zu padbit %u", im.drv[i], nb,
				      pad);
			ran++;
		}
		rt_report("poly1305 blocks vs generic (lengths, offsets, pieces)", im.drv[i], ran, 0);
		crypto_free_shash(tfm);
	}
#if defined(__aarch64__)
	if (crypto_has_shash("poly1305-neon", 0, 0)) {
		struct crypto_shash *tfm = crypto_alloc_shash("poly1305", 0, 0);
		struct crypto_aead *aead = crypto_alloc_aead("rfc7539(chacha20,poly1305)", 0, 0);

		ck_assert(!IS_ERR(tfm) && !IS_ERR(aead));
		ck_assert_str_eq(crypto_shash_driver_name(tfm), "poly1305-neon");
		ck_assert(rind_poly1305_best_blocks() ==
			  rind_poly1305_alg_blocks(&crypto_shash_alg(tfm)->base));
		ck_assert_msg(strstr(crypto_aead_driver_name(aead), "poly1305-neon"),
			      "the AEAD is %s", crypto_aead_driver_name(aead));
		crypto_free_shash(tfm);
		crypto_free_aead(aead);
	}
#endif
	free(buf);
}
END_TEST

/* ---- AEAD requests ---- */

static struct crypto_aead *alloc_aead(const char *drv)
{
	return RT_ALLOC_DRV(aead, drv);
}

/* ---- AEAD vectors ---- */

struct aead_kat {
	const char *what, *key, *nonce, *ad, *pt, *ct;	/* ct includes the tag */
};

static const struct aead_kat chachapoly_kats[] = {
	{ "RFC 8439 2.8.2", KEY_80, "070000004041424344454647", "50515253c0c1c2c3c4c5c6c7",
	  SUNSCREEN,
	  "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
	  "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
	  "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
	  "3ff4def08e4b7a9de576d26586cec64b6116"
	  "1ae10b594f09e26a7e902ecbd0600691" },
	{ "RFC 8439 A.5", KEY_1C, "000000000102030405060708", "f33388860000000000004e91",
	  "496e7465726e65742d4472616674732061726520647261667420646f63756d65"
	  "6e74732076616c696420666f722061206d6178696d756d206f6620736978206d"
	  "6f6e74687320616e64206d617920626520757064617465642c207265706c6163"
	  "65642c206f72206f62736f6c65746564206279206f7468657220646f63756d65"
	  "6e747320617420616e792074696d652e20497420697320696e617070726f7072"
	  "6961746520746f2075736520496e7465726e65742d4472616674732061732072"
	  "65666572656e6365206d6174657269616c206f7220746f206369746520746865"
	  "6d206f74686572207468616e206173202fe2809c776f726b20696e2070726f67"
	  "726573732e2fe2809d",
	  "64a0861575861af460f062c79be643bd5e805cfd345cf389f108670ac76c8cb2"
	  "4c6cfc18755d43eea09ee94e382d26b0bdb7b73c321b0100d4f03b7f355894cf"
	  "332f830e710b97ce98c8a84abd0b948114ad176e008d33bd60f982b1ff37c855"
	  "9797a06ef4f0ef61c186324e2b3506383606907b6a7c02b0f9f6157b53c867e4"
	  "b9166c767b804d46a59b5216cde7a4e99040c5a40433225ee282a1b0a06c523e"
	  "af4534d7f83fa1155b0047718cbc546a0d072b04b3564eea1b422273f548271a"
	  "0bb2316053fa76991955ebd63159434ecebb4e466dae5a1073a6727627097a10"
	  "49e617d91d361094fa68f0ff77987130305beaba2eda04df997b714d6c6f2c29"
	  "a6ad5cb4022b02709b"
	  "eead9d67890cbb22392336fea1851f38" },
};

static const struct aead_kat xchachapoly_kats[] = {
	{ "draft-irtf-cfrg-xchacha A.3.1", KEY_80,
	  "404142434445464748494a4b4c4d4e4f5051525354555657", "50515253c0c1c2c3c4c5c6c7",
	  SUNSCREEN,
	  "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb"
	  "731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452"
	  "2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9"
	  "21f9664c97637da9768812f615c68b13b52e"
	  "c0875924c1c7987947deafd8780acf49" },
};

static void aead_kats(const char *name, const struct aead_kat *kats, size_t nkats,
		      unsigned int ivsize)
{
	struct impls im;
	struct rt_rng rng;
	int i;

	get_impls(&im, name, "aead");
	rt_rng_seed(&rng, 0x7539);
	for (i = 0; i < im.n; i++) {
		struct crypto_aead *tfm = alloc_aead(im.drv[i]);
		int ran = 0;

		ck_assert_int_eq(crypto_aead_ivsize(tfm), ivsize);
		ck_assert_int_eq(crypto_aead_authsize(tfm), 16);
		ck_assert_int_eq(crypto_aead_maxauthsize(tfm), 16);
		for (size_t v = 0; v < nkats; v++) {
			const struct aead_kat *k = &kats[v];
			size_t kl, nl, al, pl, cl;
			u8 *key = rt_unhex_alloc(k->key, &kl), *nonce = rt_unhex_alloc(k->nonce, &nl);
			u8 *ad = rt_unhex_alloc(k->ad, &al), *pt = rt_unhex_alloc(k->pt, &pl);
			u8 *ct = rt_unhex_alloc(k->ct, &cl);

			ck_assert_int_eq(cl, pl + 16);
			ck_assert_int_eq(nl, ivsize);
			ck_assert_int_eq(crypto_aead_setkey(tfm, key, (unsigned int)kl), 0);
			for (int mode = 0; mode < RT_M_COUNT; mode++)
				rt_aead_both_ways(tfm, nonce, ad, al, pt, pl, ct, mode, &rng, k->what);
			ran++;
			free(key);
			free(nonce);
			free(ad);
			free(pt);
			free(ct);
		}
		crypto_free_aead(tfm);
		rt_report(name, im.drv[i], ran, 0);
	}
}

START_TEST(test_aead_vectors)
{
	aead_kats("rfc7539(chacha20,poly1305)", chachapoly_kats, NELEM(chachapoly_kats), 12);
	aead_kats("rfc7539(xchacha20,poly1305)", xchachapoly_kats, NELEM(xchachapoly_kats), 24);
}
END_TEST

static void wycheproof(const char *file, const char *name, unsigned int ivsize)
{
	json_t *root = rt_wp_load(file), *groups, *g, *tests, *t;
	struct impls im;
	struct rt_rng rng;
	size_t gi, ti;
	int i;

	if (!root)
		return;
	get_impls(&im, name, "aead");
	rt_rng_seed(&rng, 0x3c3c);
	groups = json_object_get(root, "testGroups");
	for (i = 0; i < im.n; i++) {
		struct crypto_aead *tfm = alloc_aead(im.drv[i]);
		int ran = 0, valid = 0, rejected = 0;

		json_array_foreach(groups, gi, g) {
			tests = json_object_get(g, "tests");
			json_array_foreach(tests, ti, t) {
				size_t kl, nl, al, ml, cl, tl;
				u8 *key = rt_wp_hex(t, "key", &kl), *iv = rt_wp_hex(t, "iv", &nl);
				u8 *ad = rt_wp_hex(t, "aad", &al), *msg = rt_wp_hex(t, "msg", &ml);
				u8 *ct = rt_wp_hex(t, "ct", &cl), *tag = rt_wp_hex(t, "tag", &tl);
				int res = rt_wp_result(t);
				int id = (int)json_integer_value(json_object_get(t, "tcId"));
				int mode = (int)rt_rand_range(&rng, RT_M_COUNT);
				char what[96];
				u8 *full;

				snprintf(what, sizeof(what), "%s tcId %d", file, id);
				ran++;
				if (nl != ivsize || tl != 16 || kl != 32) {
					/* the tfm takes no other nonce or tag size: rejected by construction */
					ck_assert_msg(res != 1, "%s: valid case with sizes %zu/%zu", what,
						      nl, tl);
					if (kl != 32)
						ck_assert_int_eq(crypto_aead_setkey(tfm, key, (unsigned int)kl),
								 -EINVAL);
					rejected++;
					goto next;
				}
				ck_assert_int_eq(crypto_aead_setkey(tfm, key, 32), 0);
				full = xmalloc(cl + 16);
				memcpy(full, ct, cl);
				memcpy(full + cl, tag, 16);
				if (res == 1) {
					rt_aead_both_ways(tfm, iv, ad, al, msg, ml, full, mode, &rng, what);
					valid++;
				} else {
					rt_aead_forgery(tfm, iv, ad, al, full, cl + 16, mode, &rng, what);
					rejected++;
				}
				free(full);
next:
				free(key);
				free(iv);
				free(ad);
				free(msg);
				free(ct);
				free(tag);
			}
		}
		crypto_free_aead(tfm);
		ck_assert_int_eq(ran, valid + rejected);
		printf("%s: %d cases (%s): %d valid both ways, %d invalid rejected\n", file, ran,
		       im.drv[i], valid, rejected);
	}
	json_decref(root);
}

START_TEST(test_wycheproof_chacha)
{
	wycheproof("chacha20_poly1305_test.json", "rfc7539(chacha20,poly1305)", 12);
}
END_TEST

START_TEST(test_wycheproof_xchacha)
{
	wycheproof("xchacha20_poly1305_test.json", "rfc7539(xchacha20,poly1305)", 24);
}
END_TEST

/*
 * Seal against OpenSSL (chacha) or libsodium (xchacha), then open back;
 * lengths random, or @lens[0..cases) when given; AD mostly short, a
 * quarter of the cases up to 2 KiB.
 */
static void aead_differential_lens(const char *name, bool x, int cases, u64 seed,
				   const size_t *lens)
{
	struct impls im;
	/* AD up to 2 KiB: past AVX2_MIN_BLOCKS, where the drivers MAC it across lanes */
	u8 *pt = xmalloc(20000), *exp = xmalloc(20000 + 16), ad[2048];
	int i, it;

	get_impls(&im, name, "aead");
	for (i = 0; i < im.n; i++) {
		struct crypto_aead *tfm = alloc_aead(im.drv[i]);
		struct rt_rng rng;

		rt_rng_seed(&rng, seed);
		for (it = 0; it < cases; it++) {
			u8 key[32], nonce[24];
			size_t len = lens ? lens[it] : rand_len(&rng, 20000);
			size_t adlen = rt_rand_range(&rng, 4) ? rt_rand_range(&rng, 40) :
				       rt_rand_range(&rng, sizeof(ad) + 1);
			int mode = (int)rt_rand_range(&rng, RT_M_COUNT);
			char what[64];

			rt_fill(&rng, key, 32);
			rt_fill(&rng, nonce, 24);
			rt_fill(&rng, ad, adlen);
			rt_fill(&rng, pt, len);
			if (x) {
				unsigned long long cl;

				crypto_aead_xchacha20poly1305_ietf_encrypt(exp, &cl, pt, len, ad, adlen,
									    NULL, nonce, key);
				ck_assert_uint_eq(cl, len + 16);
			} else {
				ossl_seal(key, nonce, ad, adlen, pt, len, exp);
			}
			ck_assert_int_eq(crypto_aead_setkey(tfm, key, 32), 0);
			snprintf(what, sizeof(what), "case %d (seed %#llx)", it, (unsigned long long)seed);
			rt_aead_both_ways(tfm, nonce, ad, adlen, pt, len, exp, mode, &rng, what);
		}
		crypto_free_aead(tfm);
		rt_report(x ? "xchacha20poly1305 vs libsodium" : "chacha20poly1305 vs OpenSSL",
			  im.drv[i], it, 0);
	}
	free(pt);
	free(exp);
}

static void aead_differential(const char *name, bool x, int cases, u64 seed)
{
	aead_differential_lens(name, x, cases, seed, NULL);
}

#if defined(__x86_64__)
void rind_cp8_avx2(const u32 state[16], u8 *dst, const u8 *src, struct poly1305_state *ps,
		   const u8 *m, size_t nb);

/*
 * The assembly core of the stitched driver (chacha20poly1305-avx2-asm.S)
 * for every nb it accepts (0..80 Poly1305 blocks spread over the ten double
 * rounds: every schedule it has), against the generic ChaCha20 and the
 * radix-2^64 Poly1305 blocks it computes (poly1305_blocks_core): random
 * states (counters near the 2^32 wrap included), accumulators, r and data
 * at odd offsets; out of place, in place, and m equal to src in place (the
 * open case: read before overwritten).
 */
START_TEST(test_cp8_core)
{
	struct rt_rng rng;
	u8 *src = aligned_alloc(64, 4096), *ref = aligned_alloc(64, 4096), *got = aligned_alloc(64, 4096);
	int ran = 0;

	ck_assert(src && ref && got);
	if (!rind_cpu_has(RIND_X86_AVX2) || !rind_cpu_has(RIND_X86_BMI2)) {
		fprintf(stderr, "cp8 core: no AVX2/BMI2 here, not run\n");
		goto out;
	}
	rt_rng_seed(&rng, 0xc98);
	for (int it = 0; it < 3 * 81; it++) {
		size_t nb = (size_t)it % 81, so = rt_rand_range(&rng, 64), mo = rt_rand_range(&rng, 64);
		int mode = it / 81;	/* 0 out of place, 1 in place, 2 in place with m = src */
		struct poly1305_state pr, pg;
		u32 st[16], st2[16];
		u8 *in = src + so, *m = mode == 2 ? got + so : src + 1024 + mo;
		u8 r[16];

		rt_fill(&rng, (u8 *)st, sizeof(st));
		if (it % 4 == 1)
			st[12] = 0xfffffff9u + (u32)rt_rand_range(&rng, 7);
		rt_fill(&rng, src, 4096);
		rt_fill(&rng, (u8 *)pr.h, sizeof(pr.h));
		pr.h[2] &= 3;
		rt_fill(&rng, r, sizeof(r));
		pr.r[0] = get_unaligned_le64(r) & 0x0ffffffc0fffffffull;
		pr.r[1] = get_unaligned_le64(r + 8) & 0x0ffffffc0ffffffcull;
		pr.s[0] = pr.s[1] = 0;
		pg = pr;
		memcpy(got, src, 4096);

		/* reference: Poly1305 of the input as it was, then the keystream */
		memcpy(st2, st, sizeof(st));
		if (nb)
			poly1305_blocks_core(&pr, mode == 2 ? in : m, nb, 1);
		rind_chacha20_crypt_generic(st2, ref, in, 512);

		if (mode == 0)
			rind_cp8_avx2(st, got + 2048 + so, in, &pg, m, nb);
		else
			rind_cp8_avx2(st, got + so, got + so, &pg, m, nb);
		ck_assert_msg(!memcmp(mode == 0 ? got + 2048 + so : got + so, ref, 512),
			      "cp8 core: keystream differs (nb %zu, mode %d)", nb, mode);
		if (nb)
			ck_assert_msg(!memcmp(pg.h, pr.h, sizeof(pr.h)),
				      "cp8 core: Poly1305 differs (nb %zu, mode %d)", nb, mode);
		else
			ck_assert(!memcmp(&pg, &pr, sizeof(pr)));
		ck_assert_msg(!memcmp(pg.r, pr.r, sizeof(pr.r)), "cp8 core: r changed");
		ran++;
	}
out:
	fprintf(stderr, "cp8 core: %d cases\n", ran);
	free(src);
	free(ref);
	free(got);
}
END_TEST
#endif

/*
 * Every length from 400 to 1100 and those within 17 bytes of each multiple
 * of 512 up to 5 KiB: the chunk boundaries of the stitched x86 driver
 * (chacha20poly1305-avx2.c: a 448-byte first chunk, then 512-byte ones)
 * and of the template's one-call path, in a random request mode each;
 * then those within 3 bytes of each multiple of 2048 up to 18 KiB: the
 * stitched driver's switch to its long path at 4096 bytes, and the
 * 32-block steps of the AVX-512 ChaCha20 that path runs.
 */
START_TEST(test_aead_chunk_lengths)
{
	size_t *lens = xmalloc(2000 * sizeof(*lens));
	int n = 0;

	for (size_t len = 400; len <= 1100; len++)
		lens[n++] = len;
	for (size_t k = 3; k <= 10; k++)
		for (size_t d = 0; d <= 34; d++)
			lens[n++] = 512 * k - 17 + d;
	for (size_t k = 1; k <= 9; k++)
		for (size_t d = 0; d <= 6; d++)
			lens[n++] = 2048 * k - 3 + d;
	aead_differential_lens("rfc7539(chacha20,poly1305)", false, n, 0x51c7, lens);
	aead_differential_lens("rfc7539(xchacha20,poly1305)", true, n, 0x51c8, lens);
	free(lens);
}
END_TEST

START_TEST(test_aead_differential)
{
	aead_differential("rfc7539(chacha20,poly1305)", false, CASES(1500), 0xc7539);
	aead_differential("rfc7539(xchacha20,poly1305)", true, CASES(1000), 0x7c539);
}
END_TEST

/* Flipped bits in the ciphertext, tag, AD or nonce; truncations. */
static void tamper(const char *name, unsigned int ivsize)
{
	struct impls im;
	struct rt_rng rng;
	int i;

	get_impls(&im, name, "aead");
	rt_rng_seed(&rng, 0xbad);
	for (i = 0; i < im.n; i++) {
		struct crypto_aead *tfm = alloc_aead(im.drv[i]);
		int ran = 0;

		for (int it = 0; it < 60; it++) {
			u8 key[32], nonce[24], ad[40], pt[9000], ct[9016];
			/* a third of them 4 KiB and longer: the stitched driver's long path */
			size_t len = it % 3 == 2 ? 4096 + rt_rand_range(&rng, sizeof(pt) - 4096 + 1) :
				     rt_rand_range(&rng, 301);
			size_t adlen = rt_rand_range(&rng, sizeof(ad) + 1);
			int mode = (int)rt_rand_range(&rng, RT_M_COUNT), what = it % 4;
			struct rt_run r;

			rt_fill(&rng, key, 32);
			rt_fill(&rng, nonce, 24);
			rt_fill(&rng, ad, adlen);
			rt_fill(&rng, pt, len);
			ck_assert_int_eq(crypto_aead_setkey(tfm, key, 32), 0);
			r = rt_aead_req(tfm, true, nonce, ad, adlen, pt, len, RT_M_OUT, &rng);
			ck_assert_int_eq(r.err, 0);
			memcpy(ct, r.out + adlen, len + 16);
			free(r.out);
			if (what == 0 && len) {
				ct[rt_rand_range(&rng, (u32)len)] ^= (u8)(1u << rt_rand_range(&rng, 8));
			} else if (what == 1 || (what == 0 && !len)) {
				ct[len + rt_rand_range(&rng, 16)] ^= (u8)(1u << rt_rand_range(&rng, 8));
			} else if (what == 2 && adlen) {
				ad[rt_rand_range(&rng, (u32)adlen)] ^= (u8)(1u << rt_rand_range(&rng, 8));
			} else {
				nonce[rt_rand_range(&rng, ivsize)] ^= (u8)(1u << rt_rand_range(&rng, 8));
			}
			rt_aead_forgery(tfm, nonce, ad, adlen, ct, len + 16, mode, &rng, "tampered");
			ran++;
			/* a missing last byte of tag */
			if (len) {
				rt_aead_forgery(tfm, nonce, ad, adlen, ct, len + 15, mode, &rng,
						"truncated");
				ran++;
			}
		}
		/* shorter than a tag: -EINVAL */
		{
			u8 z[24] = { 0 };
			struct rt_run r = rt_aead_req(tfm, false, z, NULL, 0, z, 15, RT_M_OUT, &rng);

			ck_assert_msg(r.err == -EINVAL, "%s: cryptlen 15 decrypt: %d", im.drv[i], r.err);
			free(r.out);
		}
		crypto_free_aead(tfm);
		rt_report("forgeries and truncations", im.drv[i], ran, 0);
	}
}

START_TEST(test_tamper)
{
	tamper("rfc7539(chacha20,poly1305)", 12);
	tamper("rfc7539(xchacha20,poly1305)", 24);
}
END_TEST

START_TEST(test_bad_params)
{
	static const char *const names[] = { "rfc7539(chacha20,poly1305)",
					     "rfc7539(xchacha20,poly1305)" };
	u8 key[33] = { 0 };

	for (size_t n = 0; n < NELEM(names); n++) {
		struct impls im;

		get_impls(&im, names[n], "aead");
		for (int i = 0; i < im.n; i++) {
			struct crypto_aead *tfm = alloc_aead(im.drv[i]);

			ck_assert_int_eq(crypto_aead_setkey(tfm, key, 16), -EINVAL);
			ck_assert_int_eq(crypto_aead_setkey(tfm, key, 31), -EINVAL);
			ck_assert_int_eq(crypto_aead_setkey(tfm, key, 33), -EINVAL);
			ck_assert_int_eq(crypto_aead_setkey(tfm, key, 32), 0);
			for (unsigned int as = 0; as <= 20; as++)
				ck_assert_msg(crypto_aead_setauthsize(tfm, as) == (as == 16 ? 0 : -EINVAL),
					      "%s: setauthsize %u", im.drv[i], as);
			ck_assert_int_eq(crypto_aead_authsize(tfm), 16);
			crypto_free_aead(tfm);
		}
	}
	/* skciphers: 32-byte keys only */
	{
		struct impls im;

		get_impls(&im, "chacha20", "skcipher");
		for (int i = 0; i < im.n; i++) {
			struct crypto_skcipher *tfm = alloc_sk(im.drv[i]);

			ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, 16), -EINVAL);
			ck_assert_int_eq(crypto_skcipher_setkey(tfm, key, 33), -EINVAL);
			ck_assert_int_eq(crypto_skcipher_min_keysize(tfm), 32);
			ck_assert_int_eq(crypto_skcipher_max_keysize(tfm), 32);
			crypto_free_skcipher(tfm);
		}
	}
	/* template arguments that do not fit */
	ck_assert(!crypto_has_aead("rfc7539(poly1305,chacha20)", 0, 0));
	ck_assert(!crypto_has_aead("rfc7539(chacha20,chacha20)", 0, 0));
	ck_assert(!crypto_has_aead("rfc7539(chacha20)", 0, 0));
}
END_TEST

/* The one-shots against the tfm path (best instance) and the references. */
START_TEST(test_oneshots)
{
	struct rt_rng rng;
	struct crypto_aead *tfm = crypto_alloc_aead("rfc7539(chacha20,poly1305)", 0, 0);
	struct crypto_aead *xtfm = crypto_alloc_aead("rfc7539(xchacha20,poly1305)", 0, 0);
	u8 *pt = xmalloc(5000), *a = xmalloc(5016), *b = xmalloc(5016), *c = xmalloc(5016);
	u8 key[32], nonce[24], ad[64];
	int it;

	ck_assert(!IS_ERR(tfm));
	ck_assert(!IS_ERR(xtfm));
	rt_rng_seed(&rng, 0x1e);
	for (it = 0; it < CASES(400); it++) {
		size_t len = rand_len(&rng, 5000), adlen = rt_rand_range(&rng, sizeof(ad) + 1);
		bool x = it & 1;
		struct crypto_aead *t = x ? xtfm : tfm;
		struct rt_run r;

		rt_fill(&rng, key, 32);
		rt_fill(&rng, nonce, 24);
		rt_fill(&rng, ad, adlen);
		rt_fill(&rng, pt, len);
		ck_assert_int_eq((x ? rind_xchacha20poly1305_encrypt : rind_chacha20poly1305_encrypt)(
					 a, pt, len, ad, adlen, nonce, key), 0);
		/* the reference */
		if (x) {
			unsigned long long cl;

			crypto_aead_xchacha20poly1305_ietf_encrypt(b, &cl, pt, len, ad, adlen, NULL,
								    nonce, key);
		} else {
			ossl_seal(key, nonce, ad, adlen, pt, len, b);
		}
		ck_assert_msg(!memcmp(a, b, len + 16), "one-shot %s: case %d len %zu",
			      x ? "xchacha" : "chacha", it, len);
		/* the tfm path */
		ck_assert_int_eq(crypto_aead_setkey(t, key, 32), 0);
		r = rt_aead_req(t, true, nonce, ad, adlen, pt, len, RT_M_OUT, &rng);
		ck_assert_int_eq(r.err, 0);
		ck_assert_msg(!memcmp(r.out + adlen, a, len + 16), "one-shot != %s",
			      crypto_aead_driver_name(t));
		free(r.out);
		/* decrypt, out of place and in place */
		ck_assert_int_eq((x ? rind_xchacha20poly1305_decrypt : rind_chacha20poly1305_decrypt)(
					 c, a, len + 16, ad, adlen, nonce, key), 0);
		ck_assert(!memcmp(c, pt, len));
		memcpy(c, a, len + 16);
		ck_assert_int_eq((x ? rind_xchacha20poly1305_decrypt : rind_chacha20poly1305_decrypt)(
					 c, c, len + 16, ad, adlen, nonce, key), 0);
		ck_assert(!memcmp(c, pt, len));
		/* in-place encrypt */
		memcpy(c, pt, len);
		ck_assert_int_eq((x ? rind_xchacha20poly1305_encrypt : rind_chacha20poly1305_encrypt)(
					 c, c, len, ad, adlen, nonce, key), 0);
		ck_assert(!memcmp(c, a, len + 16));
		/* forgery: -EBADMSG, zeros */
		a[rt_rand_range(&rng, (u32)len + 16)] ^= 0x10;
		memset(c, 0xa5, len + 16);
		ck_assert_int_eq((x ? rind_xchacha20poly1305_decrypt : rind_chacha20poly1305_decrypt)(
					 c, a, len + 16, ad, adlen, nonce, key), -EBADMSG);
		ck_assert(rt_all_zero(c, len));
	}
	rt_report("one-shots vs OpenSSL / libsodium and the tfm path", crypto_aead_driver_name(tfm),
		  it, 0);
	/* bad arguments */
	ck_assert_int_eq(rind_chacha20poly1305_decrypt(c, a, 15, NULL, 0, nonce, key), -EINVAL);
	ck_assert_int_eq(rind_xchacha20poly1305_decrypt(c, a, 15, NULL, 0, nonce, key), -EINVAL);
	ck_assert_int_eq(rind_chacha20poly1305_encrypt(c, pt, 10, NULL, 0, NULL, key), -EINVAL);
	ck_assert_int_eq(rind_chacha20poly1305_encrypt(c, pt, 10, NULL, 0, nonce, NULL), -EINVAL);
	ck_assert_int_eq(rind_chacha20poly1305_encrypt(NULL, pt, 10, NULL, 0, nonce, key), -EINVAL);
	ck_assert_int_eq(rind_chacha20poly1305_encrypt(c, pt, 10, NULL, 5, nonce, key), -EINVAL);
	/* empty message, no AD */
	ck_assert_int_eq(rind_chacha20poly1305_encrypt(a, NULL, 0, NULL, 0, nonce, key), 0);
	ck_assert_int_eq(rind_chacha20poly1305_decrypt(NULL, a, 16, NULL, 0, nonce, key), 0);
	crypto_free_aead(tfm);
	crypto_free_aead(xtfm);
	free(pt);
	free(a);
	free(b);
	free(c);
}
END_TEST

/*
 * Every aead implementation against the generic template instance on
 * single-segment requests (the drivers' one-buffer path): lengths 0..2 KiB,
 * AD 0..600, in place and out of place, buffers at odd offsets; seal, open,
 * a forged tag (-EBADMSG, plaintext zeroed, AD not copied).
 */
static void one_seg_vs_generic(const char *name, const char *gen, unsigned int ivsize, u64 seed)
{
	struct impls im;
	struct crypto_aead *g = alloc_aead(gen);
	u8 *pt = xmalloc(2700), *ref = xmalloc(2700), *sb = xmalloc(2800), *db = xmalloc(2800);
	int i, it, cases = CASES(300);

	get_impls(&im, name, "aead");
	for (i = 0; i < im.n; i++) {
		struct crypto_aead *tfm = alloc_aead(im.drv[i]);
		struct rt_rng rng;

		rt_rng_seed(&rng, seed);
		for (it = 0; it < cases; it++) {
			u8 key[32], iv[24], iv2[24];
			size_t len = it < 40 ? (size_t)it * 13 : rt_rand_range(&rng, 2049);
			size_t adlen = rt_rand_range(&rng, 4) ? rt_rand_range(&rng, 70) :
				       rt_rand_range(&rng, 601);
			size_t so = rt_rand_range(&rng, 64), dof = rt_rand_range(&rng, 64);
			bool inplace = rt_rand_range(&rng, 2);
			size_t n = adlen + len;
			struct scatterlist ss, ds;
			struct aead_request *req;
			u8 *s = sb + so, *d = inplace ? s : db + dof;

			rt_fill(&rng, key, 32);
			rt_fill(&rng, iv, ivsize);
			rt_fill(&rng, pt, n);
			memcpy(iv2, iv, ivsize);
			/* the reference: the generic instance, out of place */
			ck_assert_int_eq(crypto_aead_setkey(g, key, 32), 0);
			req = aead_request_alloc(g, GFP_KERNEL);
			memcpy(sb, pt, n);
			sg_init_one(&ss, sb, (unsigned int)n);
			sg_init_one(&ds, ref, (unsigned int)n + 16);
			aead_request_set_ad(req, (unsigned int)adlen);
			aead_request_set_crypt(req, &ss, &ds, (unsigned int)len, iv2);
			ck_assert_int_eq(crypto_aead_encrypt(req), 0);
			aead_request_free(req);

			ck_assert_int_eq(crypto_aead_setkey(tfm, key, 32), 0);
			req = aead_request_alloc(tfm, GFP_KERNEL);
			aead_request_set_ad(req, (unsigned int)adlen);
			/* seal */
			memcpy(s, pt, n);
			if (!inplace)
				memset(d, 0xa5, n + 16);
			sg_init_one(&ss, s, (unsigned int)n);
			sg_init_one(&ds, d, (unsigned int)n + 16);
			if (inplace)
				sg_init_one(&ss, s, (unsigned int)n + 16);
			aead_request_set_crypt(req, &ss, inplace ? &ss : &ds, (unsigned int)len, iv2);
			ck_assert_int_eq(crypto_aead_encrypt(req), 0);
			ck_assert_msg(!memcmp(d, ref, n + 16), "%s: seal len %zu ad %zu %s", im.drv[i],
				      len, adlen, inplace ? "in place" : "out of place");
			/* open it back */
			if (!inplace) {
				memcpy(s, ref, n + 16);
				memset(d, 0xa5, n + 16);
			}
			sg_init_one(&ss, s, (unsigned int)n + 16);
			sg_init_one(&ds, d, (unsigned int)n);
			aead_request_set_crypt(req, &ss, inplace ? &ss : &ds, (unsigned int)len + 16, iv2);
			ck_assert_int_eq(crypto_aead_decrypt(req), 0);
			ck_assert_msg(!memcmp(d, pt, n), "%s: open len %zu ad %zu", im.drv[i], len, adlen);
			/* a forgery: refused, the text zeroed, the AD not copied */
			memcpy(s, ref, n + 16);
			s[rt_rand_range(&rng, (u32)n + 16)] ^= 0x04;
			if (!inplace)
				memset(d, 0xa5, n);
			ck_assert_int_eq(crypto_aead_decrypt(req), memcmp(s, ref, n + 16) ? -EBADMSG : 0);
			if (memcmp(s, ref, n + 16)) {
				ck_assert(rt_all_zero(d + adlen, len));
				if (!inplace)
					for (size_t k = 0; k < adlen; k++)
						ck_assert_uint_eq(d[k], 0xa5);
			}
			aead_request_free(req);
		}
		crypto_free_aead(tfm);
		rt_report("one-segment requests vs the generic instance", im.drv[i], it, 0);
	}
	crypto_free_aead(g);
	free(pt);
	free(ref);
	free(sb);
	free(db);
}

START_TEST(test_one_segment)
{
	one_seg_vs_generic("rfc7539(chacha20,poly1305)", "rfc7539(chacha20-generic,poly1305-generic)",
			   12, 0x5e61);
	one_seg_vs_generic("rfc7539(xchacha20,poly1305)",
			   "rfc7539(xchacha20-generic,poly1305-generic)", 24, 0x5e62);
}
END_TEST

START_TEST(test_registry)
{
	static const char *const sk[] = { "chacha20", "xchacha20" };
	static const char *const ae[] = { "rfc7539(chacha20,poly1305)",
					  "rfc7539(xchacha20,poly1305)" };

	for (size_t i = 0; i < NELEM(sk); i++) {
		struct crypto_skcipher *t = crypto_alloc_skcipher(sk[i], 0, 0);

		ck_assert_msg(!IS_ERR(t), "%s does not resolve", sk[i]);
		printf("%s -> %s\n", sk[i], crypto_skcipher_driver_name(t));
		ck_assert_int_eq(crypto_skcipher_blocksize(t), 1);
		ck_assert_int_eq(crypto_skcipher_chunksize(t), 64);
		crypto_free_skcipher(t);
	}
	{
		struct crypto_shash *t = crypto_alloc_shash("poly1305", 0, 0);

		ck_assert(!IS_ERR(t));
		printf("poly1305 -> %s\n", crypto_shash_driver_name(t));
		crypto_free_shash(t);
	}
	for (size_t i = 0; i < NELEM(ae); i++) {
		struct crypto_aead *t = crypto_alloc_aead(ae[i], 0, 0);

		ck_assert_msg(!IS_ERR(t), "%s does not resolve", ae[i]);
		printf("%s -> %s\n", ae[i], crypto_aead_driver_name(t));
		ck_assert_str_eq(crypto_aead_alg_name(t), ae[i]);
		crypto_free_aead(t);
	}
	/* instance names follow the spawns */
	{
		struct crypto_aead *t = crypto_alloc_aead("rfc7539(chacha20-generic,poly1305-generic)",
							  0, 0);

		ck_assert(!IS_ERR(t));
		ck_assert_str_eq(crypto_aead_alg_name(t), "rfc7539(chacha20,poly1305)");
		ck_assert_str_eq(crypto_aead_driver_name(t),
				 "rfc7539(chacha20-generic,poly1305-generic)");
		crypto_free_aead(t);
	}
}
END_TEST

static Suite *chacha_suite(void)
{
	Suite *s = suite_create("chacha");
	TCase *tc = tcase_create("chacha");

	if (sodium_init() < 0)
		fprintf(stderr, "test_chacha: sodium_init failed\n");
	tcase_add_unchecked_fixture(tc, register_test_algs, NULL);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_registry);
	tcase_add_test(tc, test_plain_functions);
	tcase_add_test(tc, test_chacha20_vectors);
	tcase_add_test(tc, test_xchacha20_vectors);
	tcase_add_test(tc, test_stream_differential);
	tcase_add_test(tc, test_diff_generic);
	tcase_add_test(tc, test_counter_wrap);
	tcase_add_test(tc, test_poly1305);
	tcase_add_test(tc, test_poly1305_blocks_lengths);
	tcase_add_test(tc, test_aead_vectors);
	tcase_add_test(tc, test_wycheproof_chacha);
	tcase_add_test(tc, test_wycheproof_xchacha);
	tcase_add_test(tc, test_aead_differential);
	tcase_add_test(tc, test_aead_chunk_lengths);
#if defined(__x86_64__)
	tcase_add_test(tc, test_cp8_core);
#endif
	tcase_add_test(tc, test_tamper);
	tcase_add_test(tc, test_bad_params);
	tcase_add_test(tc, test_oneshots);
	tcase_add_test(tc, test_one_segment);
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(chacha_suite)
