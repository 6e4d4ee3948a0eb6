// SPDX-License-Identifier: MIT
/*
 * ChaCha20 and XChaCha20 stream ciphers, generic C (RFC 8439 section 2.3-2.4,
 * draft-irtf-cfrg-xchacha section 2.2-2.3), the plain functions of
 * api/include/crypto/chacha.h, and the skcipher glue every chacha implementation shares.
 *
 * "chacha20"  (chacha20-generic, 100): 32-byte key, 16-byte IV = le32 block
 *             counter || 96-bit nonce, as the kernel's chacha20.
 * "xchacha20" (xchacha20-generic, 100): 32-byte key, 32-byte IV = the
 *             24-byte nonce || le64 stream position, as the kernel's
 *             xchacha20 (see api/include/crypto/chacha.h for the exact layout).
 * Any length, any scatterlist split, in place or not; the IV is not updated.
 */
#include <pthread.h>
#include <stdlib.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/chacha.h>

void rind_chacha_load_key(u32 k[8], const u8 key[CHACHA_KEY_SIZE])
{
	int i;

	for (i = 0; i < 8; i++)
		k[i] = get_unaligned_le32(key + 4 * i);
}

void rind_chacha_init(u32 state[CHACHA_STATE_WORDS], const u32 key[8],
		      const u8 iv[CHACHA_IV_SIZE])
{
	state[0] = CHACHA_CONST0;
	state[1] = CHACHA_CONST1;
	state[2] = CHACHA_CONST2;
	state[3] = CHACHA_CONST3;
	memcpy(&state[4], key, 32);
	state[12] = get_unaligned_le32(iv + 0);
	state[13] = get_unaligned_le32(iv + 4);
	state[14] = get_unaligned_le32(iv + 8);
	state[15] = get_unaligned_le32(iv + 12);
}

#define QR(a, b, c, d) do {					\
		a += b; d = rol32(d ^ a, 16);			\
		c += d; b = rol32(b ^ c, 12);			\
		a += b; d = rol32(d ^ a, 8);			\
		c += d; b = rol32(b ^ c, 7);			\
	} while (0)

/* The 20 rounds (10 column/diagonal double rounds) on x[16]. */
static void chacha20_permute(u32 x[16])
{
	int i;

	for (i = 0; i < 10; i++) {
		QR(x[0], x[4], x[8], x[12]);
		QR(x[1], x[5], x[9], x[13]);
		QR(x[2], x[6], x[10], x[14]);
		QR(x[3], x[7], x[11], x[15]);
		QR(x[0], x[5], x[10], x[15]);
		QR(x[1], x[6], x[11], x[12]);
		QR(x[2], x[7], x[8], x[13]);
		QR(x[3], x[4], x[9], x[14]);
	}
}

void rind_chacha20_block_generic(u32 state[CHACHA_STATE_WORDS], u8 out[CHACHA_BLOCK_SIZE])
{
	u32 x[16];
	int i;

	memcpy(x, state, sizeof(x));
	chacha20_permute(x);
	for (i = 0; i < 16; i++)
		put_unaligned_le32(x[i] + state[i], out + 4 * i);
	state[12]++;
	memzero_explicit(x, sizeof(x));
}

void rind_chacha20_crypt_generic(u32 state[CHACHA_STATE_WORDS], u8 *dst, const u8 *src,
				 size_t len)
{
	u8 ks[CHACHA_BLOCK_SIZE];

	while (len >= CHACHA_BLOCK_SIZE) {
		rind_chacha20_block_generic(state, ks);
		crypto_xor_cpy(dst, src, ks, CHACHA_BLOCK_SIZE);
		dst += CHACHA_BLOCK_SIZE;
		src += CHACHA_BLOCK_SIZE;
		len -= CHACHA_BLOCK_SIZE;
	}
	if (len) {
		rind_chacha20_block_generic(state, ks);
		crypto_xor_cpy(dst, src, ks, len);
	}
	memzero_explicit(ks, sizeof(ks));
}

void rind_hchacha20_block_generic(const u32 state[CHACHA_STATE_WORDS],
				  u32 out[HCHACHA_OUT_WORDS])
{
	u32 x[16];

	memcpy(x, state, sizeof(x));
	chacha20_permute(x);
	memcpy(&out[0], &x[0], 16);
	memcpy(&out[4], &x[12], 16);
	memzero_explicit(x, sizeof(x));
}

void rind_hchacha20(u32 subkey[HCHACHA_OUT_WORDS], const u32 key[8],
		    const u8 nonce[HCHACHA_NONCE_SIZE])
{
	u32 state[16];

	rind_chacha_init(state, key, nonce);
	rind_hchacha20_block_generic(state, subkey);
	memzero_explicit(state, sizeof(state));
}

void rind_xchacha_init(u32 state[CHACHA_STATE_WORDS], const u32 key[8],
		       const u8 iv[XCHACHA_IV_SIZE])
{
	u32 subkey[8];
	u8 real_iv[CHACHA_IV_SIZE];

	rind_hchacha20(subkey, key, iv);
	memcpy(real_iv, iv + 24, 8);		/* stream position: words 12, 13 */
	memcpy(real_iv + 8, iv + 16, 8);	/* nonce[16..23]: words 14, 15 */
	rind_chacha_init(state, subkey, real_iv);
	memzero_explicit(subkey, sizeof(subkey));
}

/* ---- skcipher glue shared by every implementation ---- */

int rind_chacha_skcipher_setkey(struct crypto_skcipher *tfm, const u8 *key, unsigned int keylen)
{
	struct chacha_ctx *ctx = crypto_skcipher_ctx(tfm);

	if (keylen != CHACHA_KEY_SIZE || !key)
		return -EINVAL;
	rind_chacha_load_key(ctx->key, key);
	return 0;
}

static inline struct chacha_alg *req_chacha_alg(struct skcipher_request *req)
{
	return container_of(crypto_skcipher_alg(crypto_skcipher_reqtfm(req)),
			    struct chacha_alg, alg);
}

static int chacha_stream_xor(struct skcipher_request *req, u32 state[16])
{
	struct rind_sg_map m;
	int err = skcipher_map_request(req, &m, 1);

	if (err <= 0)
		return err;
	req_chacha_alg(req)->crypt(state, m.dst, m.src, m.len);
	rind_sg_unmap(&m, true);
	return 0;
}

int rind_chacha20_skcipher_crypt(struct skcipher_request *req)
{
	struct chacha_ctx *ctx = crypto_skcipher_ctx(crypto_skcipher_reqtfm(req));
	u32 state[16];
	int err;

	if (!req->iv)
		return -EINVAL;
	rind_chacha_init(state, ctx->key, req->iv);
	err = chacha_stream_xor(req, state);
	memzero_explicit(state, sizeof(state));
	return err;
}

int rind_xchacha20_skcipher_crypt(struct skcipher_request *req)
{
	struct chacha_ctx *ctx = crypto_skcipher_ctx(crypto_skcipher_reqtfm(req));
	u32 state[16];
	int err;

	if (!req->iv)
		return -EINVAL;
	rind_xchacha_init(state, ctx->key, req->iv);
	err = chacha_stream_xor(req, state);
	memzero_explicit(state, sizeof(state));
	return err;
}

chacha_crypt_fn rind_chacha_alg_crypt(struct crypto_alg *alg, bool *xchacha)
{
	struct skcipher_alg *sk;

	if (!alg || alg->cra_type != &crypto_skcipher_type)
		return NULL;
	sk = __crypto_skcipher_alg(alg);
	if (sk->setkey != rind_chacha_skcipher_setkey)
		return NULL;
	if (xchacha)
		*xchacha = sk->encrypt == rind_xchacha20_skcipher_crypt;
	return container_of(sk, struct chacha_alg, alg)->crypt;
}

static pthread_once_t chacha_best_once = PTHREAD_ONCE_INIT;
static chacha_crypt_fn best_crypt;

static void find_best_crypt(void)
{
	struct crypto_alg *alg;
	chacha_crypt_fn fn = NULL;

	alg = crypto_alg_mod_lookup("chacha20", CRYPTO_ALG_TYPE_SKCIPHER, CRYPTO_ALG_TYPE_MASK);
	if (!IS_ERR(alg)) {
		fn = rind_chacha_alg_crypt(alg, NULL);
		crypto_mod_put(alg);	/* static algs outlive every reference */
	}
	best_crypt = fn ? fn : rind_chacha20_crypt_generic;
}

chacha_crypt_fn rind_chacha20_best_crypt(void)
{
	pthread_once(&chacha_best_once, find_best_crypt);
	return best_crypt;
}

/* ---- known-answer tests and registration ---- */

/*
 * RFC 8439 A.2 #1 (zero key and nonce, counter 0), section 2.4.2 (the
 * sunscreen text, counter 1) and A.2 #3 (counter 42, 127 bytes).
 */
static const struct cipher_testvec chacha20_tv[] = {
	{
		.key	= "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
			  "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.klen	= 32,
		.iv	= "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.ptext	= "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
			  "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
			  "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
			  "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.ctext	= "\x76\xb8\xe0\xad\xa0\xf1\x3d\x90\x40\x5d\x6a\xe5\x53\x86\xbd\x28"
			  "\xbd\xd2\x19\xb8\xa0\x8d\xed\x1a\xa8\x36\xef\xcc\x8b\x77\x0d\xc7"
			  "\xda\x41\x59\x7c\x51\x57\x48\x8d\x77\x24\xe0\x3f\xb8\xd8\x4a\x37"
			  "\x6a\x43\xb8\xf4\x15\x18\xa1\x1c\xc3\x87\xb6\x69\xb2\xee\x65\x86",
		.len	= 64,
	}, {
		.key	= "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
			  "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f",
		.klen	= 32,
		.iv	= "\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x4a\x00\x00\x00\x00",
		.ptext	= "Ladies and Gentlemen of the class of '99: If I could offer you "
			  "only one tip for the future, sunscreen would be it.",
		.ctext	= "\x6e\x2e\x35\x9a\x25\x68\xf9\x80\x41\xba\x07\x28\xdd\x0d\x69\x81"
			  "\xe9\x7e\x7a\xec\x1d\x43\x60\xc2\x0a\x27\xaf\xcc\xfd\x9f\xae\x0b"
			  "\xf9\x1b\x65\xc5\x52\x47\x33\xab\x8f\x59\x3d\xab\xcd\x62\xb3\x57"
			  "\x16\x39\xd6\x24\xe6\x51\x52\xab\x8f\x53\x0c\x35\x9f\x08\x61\xd8"
			  "\x07\xca\x0d\xbf\x50\x0d\x6a\x61\x56\xa3\x8e\x08\x8a\x22\xb6\x5e"
			  "\x52\xbc\x51\x4d\x16\xcc\xf8\x06\x81\x8c\xe9\x1a\xb7\x79\x37\x36"
			  "\x5a\xf9\x0b\xbf\x74\xa3\x5b\xe6\xb4\x0b\x8e\xed\xf2\x78\x5e\x42"
			  "\x87\x4d",
		.len	= 114,
	}, {
		.key	= "\x1c\x92\x40\xa5\xeb\x55\xd3\x8a\xf3\x33\x88\x86\x04\xf6\xb5\xf0"
			  "\x47\x39\x17\xc1\x40\x2b\x80\x09\x9d\xca\x5c\xbc\x20\x70\x75\xc0",
		.klen	= 32,
		.iv	= "\x2a\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02",
		.ptext	= "'Twas brillig, and the slithy toves\n"
			  "Did gyre and gimble in the wabe:\n"
			  "All mimsy were the borogoves,\n"
			  "And the mome raths outgrabe.",
		.ctext	= "\x62\xe6\x34\x7f\x95\xed\x87\xa4\x5f\xfa\xe7\x42\x6f\x27\xa1\xdf"
			  "\x5f\xb6\x91\x10\x04\x4c\x0d\x73\x11\x8e\xff\xa9\x5b\x01\xe5\xcf"
			  "\x16\x6d\x3d\xf2\xd7\x21\xca\xf9\xb2\x1e\x5f\xb1\x4c\x61\x68\x71"
			  "\xfd\x84\xc5\x4f\x9d\x65\xb2\x83\x19\x6c\x7f\xe4\xf6\x05\x53\xeb"
			  "\xf3\x9c\x64\x02\xc4\x22\x34\xe3\x2a\x35\x6b\x3e\x76\x43\x12\xa6"
			  "\x1a\x55\x32\x05\x57\x16\xea\xd6\x96\x25\x68\xf8\x7d\x3f\x3f\x77"
			  "\x04\xc6\xa8\xd1\xbc\xd1\xbf\x4d\x50\xd6\x15\x4b\x6d\xa7\x31\xb1"
			  "\x87\xb5\x8d\xfd\x72\x8a\xfa\x36\x75\x7a\x79\x7a\xc1\x88\xd1",
		.len	= 127,
	}, {
		.key	= "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
			  "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f",
		.klen	= 16,
		.iv	= "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.ptext	= "",
		.ctext	= "",
		.len	= 0,
		.setkey_error = -EINVAL,
	},
};

/*
 * draft-irtf-cfrg-xchacha A.3.2: XChaCha20 with the key 80..9f, nonce
 * 40..57 58 and block counter 1 (the first 128 bytes of that vector, in
 * the kernel's IV layout: nonce || le64 1).
 */
static const struct cipher_testvec xchacha20_tv[] = {
	{
		.key	= "\x80\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f"
			  "\x90\x91\x92\x93\x94\x95\x96\x97\x98\x99\x9a\x9b\x9c\x9d\x9e\x9f",
		.klen	= 32,
		.iv	= "\x40\x41\x42\x43\x44\x45\x46\x47\x48\x49\x4a\x4b\x4c\x4d\x4e\x4f"
			  "\x50\x51\x52\x53\x54\x55\x56\x58\x01\x00\x00\x00\x00\x00\x00\x00",
		.ptext	= "The dhole (pronounced \"dole\") is also known as the Asiatic wild dog,"
			  " red dog, and whistling dog. It is about the size of a Germa",
		.ctext	= "\x7d\x0a\x2e\x6b\x7f\x7c\x65\xa2\x36\x54\x26\x30\x29\x4e\x06\x3b"
			  "\x7a\xb9\xb5\x55\xa5\xd5\x14\x9a\xa2\x1e\x4a\xe1\xe4\xfb\xce\x87"
			  "\xec\xc8\xe0\x8a\x8b\x5e\x35\x0a\xbe\x62\x2b\x2f\xfa\x61\x7b\x20"
			  "\x2c\xfa\xd7\x20\x32\xa3\x03\x7e\x76\xff\xdc\xdc\x43\x76\xee\x05"
			  "\x3a\x19\x0d\x7e\x46\xca\x1d\xe0\x41\x44\x85\x03\x81\xb9\xcb\x29"
			  "\xf0\x51\x91\x53\x86\xb8\xa7\x10\xb8\xac\x4d\x02\x7b\x8b\x05\x0f"
			  "\x7c\xba\x58\x54\xe0\x28\xd5\x64\xe4\x53\xb8\xa9\x68\x82\x41\x73"
			  "\xfc\x16\x48\x8b\x89\x70\xca\xc8\x28\xf1\x1a\xe5\x3c\xab\xd2\x01",
		.len	= 128,
	},
};

/*
 * After the table: 2100 bytes (the multi-block vector paths of the arch
 * implementations) through the implementation under test, against the
 * generic code, which the table vectors check.
 */
#define CHACHA_LONG_TEST 2100

static int chacha_long_test(struct crypto_alg *alg, bool xchacha)
{
	struct crypto_skcipher *tfm;
	struct skcipher_request *req;
	struct scatterlist sg;
	u8 key[CHACHA_KEY_SIZE], iv[XCHACHA_IV_SIZE], *buf, *ref;
	u32 k[8], state[16];
	size_t i;
	int err;

	tfm = crypto_alloc_skcipher(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	buf = malloc(2 * CHACHA_LONG_TEST);
	req = skcipher_request_alloc(tfm, GFP_KERNEL);
	err = -ENOMEM;
	if (!buf || IS_ERR(req))
		goto out;
	ref = buf + CHACHA_LONG_TEST;
	for (i = 0; i < sizeof(key); i++)
		key[i] = (u8)(i * 29 + 7);
	for (i = 0; i < sizeof(iv); i++)
		iv[i] = (u8)(i * 11 + 1);
	iv[0] = 0xfd;		/* a counter close to the wrap */
	iv[1] = iv[2] = iv[3] = 0xff;
	for (i = 0; i < CHACHA_LONG_TEST; i++)
		buf[i] = ref[i] = (u8)(i * 131 + 17);
	rind_chacha_load_key(k, key);
	if (xchacha)
		rind_xchacha_init(state, k, iv);
	else
		rind_chacha_init(state, k, iv);
	rind_chacha20_crypt_generic(state, ref, ref, CHACHA_LONG_TEST);
	err = crypto_skcipher_setkey(tfm, key, sizeof(key));
	if (err)
		goto out;
	sg_init_one(&sg, buf, CHACHA_LONG_TEST);
	skcipher_request_set_callback(req, 0, NULL, NULL);
	skcipher_request_set_crypt(req, &sg, &sg, CHACHA_LONG_TEST, iv);
	err = crypto_skcipher_encrypt(req);
	if (!err && crypto_memneq(buf, ref, CHACHA_LONG_TEST))
		err = -EBADMSG;
out:
	if (!IS_ERR_OR_NULL(req))
		skcipher_request_free(req);
	free(buf);
	crypto_free_skcipher(tfm);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(state, sizeof(state));
	return err;
}

static int chacha20_test(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	int err = alg_test_skcipher(desc, alg);

	return err ? err : chacha_long_test(alg, false);
}

static int xchacha20_test(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	int err = alg_test_skcipher(desc, alg);

	return err ? err : chacha_long_test(alg, true);
}

static struct alg_test_desc chacha20_tests[] = {
	{ .alg = "chacha20", .test = chacha20_test, .suite.cipher = __VECS(chacha20_tv) },
	{ .alg = "xchacha20", .test = xchacha20_test, .suite.cipher = __VECS(xchacha20_tv) },
};

static struct chacha_alg chacha20_generic_algs[] = {
	RIND_CHACHA20_ALG("chacha20-generic", 100, "generic", rind_chacha20_crypt_generic),
	RIND_XCHACHA20_ALG("xchacha20-generic", 100, "generic", rind_chacha20_crypt_generic),
};

static int chacha20_generic_mod_init(void)
{
	size_t i;
	int err;

	crypto_register_tests(chacha20_tests, ARRAY_SIZE(chacha20_tests));
	for (i = 0; i < ARRAY_SIZE(chacha20_generic_algs); i++) {
		err = crypto_register_skcipher(&chacha20_generic_algs[i].alg);
		if (err)
			return err;
	}
	return 0;
}

module_init(chacha20_generic_mod_init);
