// SPDX-License-Identifier: MIT
/*
 * AES-GCM one-shots in the style of the kernel's lib/crypto/aesgcm.c, over
 * the registry's best "gcm(aes)".  Encrypt writes the ciphertext then the
 * authsize-byte tag; decrypt takes ciphertext || tag (len includes the tag)
 * and returns 0 or -EBADMSG, leaving zeros in dst on failure.
 */
#include <limits.h>
#include <rind/internal/aead.h>
#include <rind/internal/util.h>

#define AESGCM_REQ_STACK 256

struct rind_aesgcm_ctx {
	struct crypto_aead *tfm;
	unsigned int authsize;
};

RIND_EXPORT struct rind_aesgcm_ctx *rind_aesgcm_alloc(void)
{
	struct rind_aesgcm_ctx *ctx = calloc(1, sizeof(*ctx));
	struct crypto_aead *tfm;

	if (!ctx)
		return ERR_PTR(-ENOMEM);
	tfm = crypto_alloc_aead("gcm(aes)", 0, 0);
	if (IS_ERR(tfm)) {
		free(ctx);
		return ERR_CAST(tfm);
	}
	ctx->tfm = tfm;
	ctx->authsize = 16;
	return ctx;
}

RIND_EXPORT void rind_aesgcm_free(struct rind_aesgcm_ctx *ctx)
{
	if (IS_ERR_OR_NULL(ctx))
		return;
	crypto_free_aead(ctx->tfm);
	memzero_explicit(ctx, sizeof(*ctx));
	free(ctx);
}

RIND_EXPORT int rind_aesgcm_expandkey(struct rind_aesgcm_ctx *ctx, const u8 *key,
				      unsigned int keylen, unsigned int authsize)
{
	int err;

	if (IS_ERR_OR_NULL(ctx) || !key)
		return -EINVAL;
	err = crypto_aead_setauthsize(ctx->tfm, authsize);
	if (err)
		return err;
	err = crypto_aead_setkey(ctx->tfm, key, keylen);
	if (err)
		return err;
	ctx->authsize = authsize;
	return 0;
}

static int aesgcm_crypt(struct rind_aesgcm_ctx *ctx, u8 *dst, const u8 *src, size_t len,
			const u8 *assoc, size_t assoclen, const u8 iv[12], bool enc)
{
	union {
		struct aead_request req;
		u8 buf[sizeof(struct aead_request) + AESGCM_REQ_STACK];
	} onstack __attribute__((aligned(16)));
	struct aead_request *req = &onstack.req;
	struct scatterlist sg_src[2], sg_dst[2];
	size_t outlen;
	int err;

	if (IS_ERR_OR_NULL(ctx) || !iv || (len && (!src || !dst)) || (assoclen && !assoc))
		return -EINVAL;
	if (!enc && len < ctx->authsize)
		return -EINVAL;
	outlen = enc ? len + ctx->authsize : len - ctx->authsize;
	if (len > UINT_MAX || assoclen > UINT_MAX || assoclen + len + ctx->authsize > UINT_MAX)
		return -EINVAL;

	if (crypto_aead_reqsize(ctx->tfm) > AESGCM_REQ_STACK) {
		req = aead_request_alloc(ctx->tfm, GFP_KERNEL);
		if (IS_ERR(req))
			return (int)PTR_ERR(req);
	} else {
		memset(req, 0, sizeof(*req));
		aead_request_set_tfm(req, ctx->tfm);
	}

	/* AD then data in both lists: the AEAD sees the AD is already there. */
	sg_init_table(sg_src, 2);
	sg_set_buf(&sg_src[0], assoc, (unsigned int)assoclen);
	sg_set_buf(&sg_src[1], src, (unsigned int)len);
	if (src == dst && enc == false) {
		aead_request_set_crypt(req, sg_src, sg_src, (unsigned int)len, (u8 *)iv);
	} else {
		sg_init_table(sg_dst, 2);
		sg_set_buf(&sg_dst[0], assoc, (unsigned int)assoclen);
		sg_set_buf(&sg_dst[1], dst, (unsigned int)outlen);
		if (src == dst)
			aead_request_set_crypt(req, sg_dst, sg_dst, (unsigned int)len, (u8 *)iv);
		else
			aead_request_set_crypt(req, sg_src, sg_dst, (unsigned int)len, (u8 *)iv);
	}
	aead_request_set_ad(req, (unsigned int)assoclen);
	aead_request_set_callback(req, 0, NULL, NULL);

	err = enc ? crypto_aead_encrypt(req) : crypto_aead_decrypt(req);

	if (req != &onstack.req)
		aead_request_free(req);
	else
		memzero_explicit(&onstack, sizeof(onstack));
	return err;
}

RIND_EXPORT int rind_aesgcm_encrypt(struct rind_aesgcm_ctx *ctx, u8 *dst, const u8 *src,
				    size_t len, const u8 *assoc, size_t assoclen, const u8 iv[12])
{
	return aesgcm_crypt(ctx, dst, src, len, assoc, assoclen, iv, true);
}

RIND_EXPORT int rind_aesgcm_decrypt(struct rind_aesgcm_ctx *ctx, u8 *dst, const u8 *src,
				    size_t len, const u8 *assoc, size_t assoclen, const u8 iv[12])
{
	return aesgcm_crypt(ctx, dst, src, len, assoc, assoclen, iv, false);
}
