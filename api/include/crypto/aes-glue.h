/* SPDX-License-Identifier: MIT */
/*
 * The glue of an AES driver with instructions of its own, the part that
 * does not depend on the instruction set, written once: the key length
 * check in front of the key schedule, and the "aes" cipher and the
 * "ecb(aes)", "cbc(aes)", "ctr(aes)" skciphers around the driver's block
 * functions (setkey, the multi-block entries, the scatterlist mapping,
 * the length rules of the ecb/cbc/ctr templates, wiping the context).
 *
 * A driver writes its key schedule and its ECB, CBC and CTR loops over
 * contiguous buffers, and its one-block cipher entry points, then says
 * AES_GLUE_DEFINE_ALGS().  arch/arm64/aes-ce.c uses it; arch/x86/
 * aes-aesni.c has the same glue written out (it can move onto this
 * header with pfx "aesni", for the same code).
 *
 * Not installed; only the library's own drivers include it.
 */
#ifndef _RIND_CRYPTO_AES_GLUE_H
#define _RIND_CRYPTO_AES_GLUE_H

#include <rind/err.h>
#include <rind/internal/cipher.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/util.h>

/*
 * The number of rounds for a key of @keylen bytes (FIPS 197 5: 10, 12 or
 * 14), or -EINVAL when it is not 16, 24 or 32: a key schedule calls this
 * before it touches its context, so a refused key changes nothing.
 */
static inline int aes_glue_rounds(unsigned int keylen)
{
	switch (keylen) {
	case 16:
		return 10;
	case 24:
		return 12;
	case 32:
		return 14;
	}
	return -EINVAL;
}

/*
 * For a driver with context @ctx_type and these functions of its own:
 *   int pfx##_expandkey(ctx_type *, const u8 *key, unsigned int keylen);
 *   void pfx##_ecb(const ctx_type *, u8 *dst, const u8 *src, size_t nblocks, bool enc);
 *   void pfx##_cbc_enc / pfx##_cbc_dec(const ctx_type *, u8 *dst, const u8 *src,
 *                                      size_t nblocks, u8 *iv);
 *   void pfx##_ctr(const ctx_type *, u8 *dst, const u8 *src, size_t len, u8 *iv);
 *   void pfx##_cipher_encrypt / pfx##_cipher_decrypt(struct crypto_cipher *,
 *                                                    u8 *dst, const u8 *src);
 * the cipher_alg pfx##_cipher_alg ("aes", driver @cipher_drv, priority
 * @cipher_prio) and the skcipher_algs pfx##_skciphers[3] ("<mode>-aes-
 * <sfx>", priority @sk_prio), of module @module.  ECB and CBC take whole
 * blocks only (-EINVAL otherwise), CBC leaves the last ciphertext block
 * in the iv, CTR takes any length and leaves the next counter in the iv.
 */
#define AES_GLUE_DEFINE_ALGS(pfx, ctx_type, cipher_drv, cipher_prio, sfx, sk_prio, module) \
static int pfx##_cipher_setkey(struct crypto_cipher *tfm, const u8 *key, unsigned int keylen) \
{										\
	return pfx##_expandkey(crypto_cipher_ctx(tfm), key, keylen);		\
}										\
										\
static void pfx##_cipher_encrypt_blocks(struct crypto_cipher *tfm, u8 *dst, const u8 *src, \
					size_t n)				\
{										\
	pfx##_ecb(crypto_cipher_ctx(tfm), dst, src, n, true);			\
}										\
										\
static void pfx##_cipher_decrypt_blocks(struct crypto_cipher *tfm, u8 *dst, const u8 *src, \
					size_t n)				\
{										\
	pfx##_ecb(crypto_cipher_ctx(tfm), dst, src, n, false);			\
}										\
										\
static void pfx##_tfm_exit(struct crypto_tfm *tfm)				\
{										\
	memzero_explicit(crypto_tfm_ctx(tfm), sizeof(ctx_type));		\
}										\
										\
static struct cipher_alg pfx##_cipher_alg = {					\
	.min_keysize = 16,							\
	.max_keysize = 32,							\
	.setkey = pfx##_cipher_setkey,						\
	.encrypt = pfx##_cipher_encrypt,					\
	.decrypt = pfx##_cipher_decrypt,					\
	.encrypt_blocks = pfx##_cipher_encrypt_blocks,				\
	.decrypt_blocks = pfx##_cipher_decrypt_blocks,				\
	.base = {								\
		.cra_name = "aes",						\
		.cra_driver_name = cipher_drv,					\
		.cra_priority = cipher_prio,					\
		.cra_blocksize = 16,						\
		.cra_ctxsize = sizeof(ctx_type),				\
		.cra_module = module,						\
		.cra_exit = pfx##_tfm_exit,					\
	},									\
};										\
										\
static int pfx##_skcipher_setkey(struct crypto_skcipher *tfm, const u8 *key,	\
				 unsigned int keylen)				\
{										\
	return pfx##_expandkey(crypto_skcipher_ctx(tfm), key, keylen);		\
}										\
										\
/* ECB and CBC: whole blocks only, mapped to one span (rind_sg_map). */	\
static int pfx##_blocks_crypt(struct skcipher_request *req, bool cbc, bool enc)	\
{										\
	ctx_type *ctx = crypto_skcipher_ctx(crypto_skcipher_reqtfm(req));	\
	struct rind_sg_map m;							\
	int err;								\
										\
	if (req->cryptlen % 16)							\
		return -EINVAL;							\
	if (!req->cryptlen)							\
		return 0;							\
	err = rind_sg_map(&m, req->src, req->dst, 0, req->cryptlen);		\
	if (err)								\
		return err;							\
	if (!cbc)								\
		pfx##_ecb(ctx, m.dst, m.src, m.len / 16, enc);			\
	else if (enc)								\
		pfx##_cbc_enc(ctx, m.dst, m.src, m.len / 16, req->iv);		\
	else									\
		pfx##_cbc_dec(ctx, m.dst, m.src, m.len / 16, req->iv);		\
	rind_sg_unmap(&m, true);						\
	return 0;								\
}										\
										\
static int pfx##_ecb_encrypt(struct skcipher_request *req)			\
{										\
	return pfx##_blocks_crypt(req, false, true);				\
}										\
										\
static int pfx##_ecb_decrypt(struct skcipher_request *req)			\
{										\
	return pfx##_blocks_crypt(req, false, false);				\
}										\
										\
static int pfx##_cbc_encrypt(struct skcipher_request *req)			\
{										\
	return pfx##_blocks_crypt(req, true, true);				\
}										\
										\
static int pfx##_cbc_decrypt(struct skcipher_request *req)			\
{										\
	return pfx##_blocks_crypt(req, true, false);				\
}										\
										\
static int pfx##_ctr_crypt(struct skcipher_request *req)			\
{										\
	ctx_type *ctx = crypto_skcipher_ctx(crypto_skcipher_reqtfm(req));	\
	struct rind_sg_map m;							\
	int err;								\
										\
	if (!req->cryptlen)							\
		return 0;							\
	err = rind_sg_map(&m, req->src, req->dst, 0, req->cryptlen);		\
	if (err)								\
		return err;							\
	pfx##_ctr(ctx, m.dst, m.src, m.len, req->iv);				\
	rind_sg_unmap(&m, true);						\
	return 0;								\
}										\
										\
static void pfx##_skcipher_exit(struct crypto_skcipher *tfm)			\
{										\
	memzero_explicit(crypto_skcipher_ctx(tfm), sizeof(ctx_type));		\
}										\
										\
static struct skcipher_alg pfx##_skciphers[] = {				\
	AES_GLUE_SKCIPHER(pfx, ctx_type, "ecb(aes)", "ecb-aes-" sfx, 16, 0, sk_prio, module, \
			  pfx##_ecb_encrypt, pfx##_ecb_decrypt),		\
	AES_GLUE_SKCIPHER(pfx, ctx_type, "cbc(aes)", "cbc-aes-" sfx, 16, 16, sk_prio, module, \
			  pfx##_cbc_encrypt, pfx##_cbc_decrypt),		\
	AES_GLUE_SKCIPHER(pfx, ctx_type, "ctr(aes)", "ctr-aes-" sfx, 1, 16, sk_prio, module, \
			  pfx##_ctr_crypt, pfx##_ctr_crypt),			\
}

#define AES_GLUE_SKCIPHER(pfx, ctx_type, _name, _drv, _bs, _ivsize, _prio, _module, _enc, _dec) { \
	.setkey = pfx##_skcipher_setkey,					\
	.encrypt = _enc,							\
	.decrypt = _dec,							\
	.exit = pfx##_skcipher_exit,						\
	.min_keysize = 16,							\
	.max_keysize = 32,							\
	.ivsize = _ivsize,							\
	.chunksize = 16,							\
	.base = {								\
		.cra_name = _name,						\
		.cra_driver_name = _drv,					\
		.cra_priority = _prio,						\
		.cra_blocksize = _bs,						\
		.cra_ctxsize = sizeof(ctx_type),				\
		.cra_module = _module,						\
	},									\
}

#endif /* _RIND_CRYPTO_AES_GLUE_H */
