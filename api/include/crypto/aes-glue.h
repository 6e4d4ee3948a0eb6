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
 * AES_GLUE_DEFINE_ALGS() (arch/arm64/aes-ce.c, arch/x86/aes-aesni.c), or
 * takes the pieces for the modes it has (arch/x86/aes-vaes-avx512.c: ECB
 * and CTR only).  The glue calls the driver's loops once per request, so
 * their code is the driver's own, compiled with its instruction set.
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
 * The request of a direct ECB, CBC or CTR skcipher mapped to one span
 * @m: 1 with @m mapped (the caller runs its loop, then rind_sg_unmap(m,
 * true)), 0 for an empty request (nothing to do), -EINVAL when
 * @whole_blocks and cryptlen is not a multiple of 16 (ECB and CBC; the
 * request is refused before anything is touched), or rind_sg_map's error.
 */
static inline int aes_glue_map(struct skcipher_request *req, struct rind_sg_map *m,
			       bool whole_blocks)
{
	int err;

	if (whole_blocks && req->cryptlen % 16)
		return -EINVAL;
	if (!req->cryptlen)
		return 0;
	err = rind_sg_map(m, req->src, req->dst, 0, req->cryptlen);
	return err ? err : 1;
}

/*
 * The pieces, for a driver with context @ctx_type and the functions each
 * piece names (the prefix @pfx on all of them):
 *
 *   int pfx##_expandkey(ctx_type *, const u8 *key, unsigned int keylen);
 *	(every piece; 0, or -EINVAL for a bad length with ctx untouched)
 *
 * AES_GLUE_DEFINE_CIPHER(pfx, ctx_type, drv, prio, module): the "aes"
 * cipher pfx##_cipher_alg, driver @drv, over
 *   void pfx##_cipher_encrypt / pfx##_cipher_decrypt(struct crypto_cipher *,
 *                                                    u8 *dst, const u8 *src);
 *   void pfx##_ecb(const ctx_type *, u8 *dst, const u8 *src, size_t nblocks, bool enc);
 *	(the multi-block entries)
 *
 * AES_GLUE_DEFINE_SKCIPHER(pfx, ctx_type): the setkey of the skciphers
 * (no exit: the tfm's free wipes the context); then each mode the driver has:
 * AES_GLUE_DEFINE_ECB(pfx, ctx_type) over pfx##_ecb above;
 * AES_GLUE_DEFINE_CBC(pfx, ctx_type) over
 *   void pfx##_cbc_enc / pfx##_cbc_dec(const ctx_type *, u8 *dst, const u8 *src,
 *                                      size_t nblocks, u8 *iv);
 * AES_GLUE_DEFINE_CTR(pfx, ctx_type) over
 *   void pfx##_ctr(const ctx_type *, u8 *dst, const u8 *src, size_t len, u8 *iv);
 * and AES_GLUE_ECB_ALG / AES_GLUE_CBC_ALG / AES_GLUE_CTR_ALG(pfx,
 * ctx_type, drv, prio, module) as initialisers of the driver's
 * skcipher_alg array.  ECB and CBC take whole blocks only (-EINVAL
 * otherwise), CBC leaves the last ciphertext block in the iv, CTR takes
 * any length and leaves the next counter in the iv: the semantics of the
 * ecb/cbc/ctr templates.  A driver with only some of the modes (x86's
 * aes-vaes-avx512.c: ECB and CTR, without the cipher) takes only those
 * pieces.
 *
 * AES_GLUE_DEFINE_ALGS(pfx, ctx_type, cipher_drv, cipher_prio, sfx,
 * sk_prio, module) is all of them: the cipher (@cipher_drv, priority
 * @cipher_prio) and pfx##_skciphers[3], "<mode>-aes-<sfx>" at priority
 * @sk_prio; aes_glue_register() registers them.
 */
#define AES_GLUE_DEFINE_CIPHER(pfx, ctx_type, drv, prio, module)		\
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
		.cra_driver_name = drv,						\
		.cra_priority = prio,						\
		.cra_blocksize = 16,						\
		.cra_ctxsize = sizeof(ctx_type),				\
		.cra_module = module,						\
	},									\
}

#define AES_GLUE_DEFINE_SKCIPHER(pfx, ctx_type)					\
static int pfx##_skcipher_setkey(struct crypto_skcipher *tfm, const u8 *key,	\
				 unsigned int keylen)				\
{										\
	return pfx##_expandkey(crypto_skcipher_ctx(tfm), key, keylen);		\
}

/*
 * The request functions pfx##_<mode>_encrypt and _decrypt: map the
 * request (whole blocks only if @whole_blocks), run @run on the span (it
 * sees ctx, m, req and enc), unmap.
 */
#define AES_GLUE_DEFINE_MODE(pfx, ctx_type, mode, whole_blocks, run)		\
static int pfx##_##mode##_crypt(struct skcipher_request *req, bool enc)	\
{										\
	const ctx_type *ctx = crypto_skcipher_ctx(crypto_skcipher_reqtfm(req));	\
	struct rind_sg_map m;							\
	int err = aes_glue_map(req, &m, whole_blocks);				\
										\
	if (err <= 0)								\
		return err;							\
	run;									\
	rind_sg_unmap(&m, true);						\
	return 0;								\
}										\
										\
static int pfx##_##mode##_encrypt(struct skcipher_request *req)		\
{										\
	return pfx##_##mode##_crypt(req, true);					\
}										\
										\
static int pfx##_##mode##_decrypt(struct skcipher_request *req)		\
{										\
	return pfx##_##mode##_crypt(req, false);				\
}

#define AES_GLUE_DEFINE_ECB(pfx, ctx_type)					\
	AES_GLUE_DEFINE_MODE(pfx, ctx_type, ecb, true,				\
			     pfx##_ecb(ctx, m.dst, m.src, m.len / 16, enc))
#define AES_GLUE_DEFINE_CBC(pfx, ctx_type)					\
	AES_GLUE_DEFINE_MODE(pfx, ctx_type, cbc, true,				\
			     enc ? pfx##_cbc_enc(ctx, m.dst, m.src, m.len / 16, req->iv) \
				 : pfx##_cbc_dec(ctx, m.dst, m.src, m.len / 16, req->iv))
/* CTR is its own inverse: both directions run the same loop. */
#define AES_GLUE_DEFINE_CTR(pfx, ctx_type)					\
	AES_GLUE_DEFINE_MODE(pfx, ctx_type, ctr, false,				\
			     ((void)enc, pfx##_ctr(ctx, m.dst, m.src, m.len, req->iv)))

#define AES_GLUE_SKCIPHER(pfx, ctx_type, _name, _drv, _bs, _ivsize, _prio, _module, _enc, _dec) { \
	.setkey = pfx##_skcipher_setkey,					\
	.encrypt = _enc,							\
	.decrypt = _dec,							\
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

#define AES_GLUE_ECB_ALG(pfx, ctx_type, drv, prio, module)			\
	AES_GLUE_SKCIPHER(pfx, ctx_type, "ecb(aes)", drv, 16, 0, prio, module,	\
			  pfx##_ecb_encrypt, pfx##_ecb_decrypt)
#define AES_GLUE_CBC_ALG(pfx, ctx_type, drv, prio, module)			\
	AES_GLUE_SKCIPHER(pfx, ctx_type, "cbc(aes)", drv, 16, 16, prio, module, \
			  pfx##_cbc_encrypt, pfx##_cbc_decrypt)
#define AES_GLUE_CTR_ALG(pfx, ctx_type, drv, prio, module)			\
	AES_GLUE_SKCIPHER(pfx, ctx_type, "ctr(aes)", drv, 1, 16, prio, module,	\
			  pfx##_ctr_encrypt, pfx##_ctr_decrypt)

#define AES_GLUE_DEFINE_ALGS(pfx, ctx_type, cipher_drv, cipher_prio, sfx, sk_prio, module) \
AES_GLUE_DEFINE_CIPHER(pfx, ctx_type, cipher_drv, cipher_prio, module);		\
AES_GLUE_DEFINE_SKCIPHER(pfx, ctx_type)						\
AES_GLUE_DEFINE_ECB(pfx, ctx_type)						\
AES_GLUE_DEFINE_CBC(pfx, ctx_type)						\
AES_GLUE_DEFINE_CTR(pfx, ctx_type)						\
										\
static struct skcipher_alg pfx##_skciphers[] = {				\
	AES_GLUE_ECB_ALG(pfx, ctx_type, "ecb-aes-" sfx, sk_prio, module),	\
	AES_GLUE_CBC_ALG(pfx, ctx_type, "cbc-aes-" sfx, sk_prio, module),	\
	AES_GLUE_CTR_ALG(pfx, ctx_type, "ctr-aes-" sfx, sk_prio, module),	\
}

/*
 * Registers a driver's cipher and skciphers, for its module_init once it
 * has checked the CPU.  The known answers for "aes", "ecb(aes)",
 * "cbc(aes)" and "ctr(aes)" are registered by algs/aes.c and the
 * ecb/cbc/ctr templates.
 */
static inline int aes_glue_register(struct cipher_alg *cipher, struct skcipher_alg *sk,
				    unsigned int n)
{
	int err = crypto_register_cipher(cipher);

	if (err)
		return err;
	return crypto_register_skciphers(sk, n);
}

#endif /* _RIND_CRYPTO_AES_GLUE_H */
