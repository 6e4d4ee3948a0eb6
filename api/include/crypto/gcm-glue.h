/* SPDX-License-Identifier: MIT */
/*
 * The AEAD glue of the AES-GCM drivers, the part that does not depend on
 * the instruction set, written once: H * x^-1 for the reflected GHASH,
 * the lengths, the one-buffer fast
 * path, scatterlist mapping and bounce buffers, the AD copy, the tag and
 * its constant-time check, zeroing the plaintext on -EBADMSG,
 * setauthsize and the "gcm(aes)" aead_alg.  No exit: crypto_destroy_tfm()
 * wipes the whole allocation, the context (round keys, powers of H) in it.
 *
 * A driver supplies its context type and one function that runs the whole
 * of GCM over contiguous buffers (gcm_glue_core_fn), then says
 * GCM_GLUE_DEFINE_ALG().  gcm_glue_crypt() is always inlined with that
 * function as a constant, so the call is direct: the glue adds one call
 * per request and none per block.
 *
 * Four small steps have portable forms here that an instruction set may
 * replace by defining the macro before including this header:
 *   GCM_GLUE_COPY_SMALL(d, s, n)  the AD copy of the one-buffer path
 *                                 (memmove);
 *   GCM_GLUE_PUT_TAG(d, tag, n)   the tag after the ciphertext (memcpy);
 *   GCM_GLUE_TAG_NEQ(a, b, n)     whether two tags differ, in constant time
 *                                 (crypto_memneq); gcm_glue_tags_differ()
 *                                 declassifies the verdict;
 *   GCM_GLUE_WIPE_ENC_TAG(tag)    wiping the 16-byte stack copy of the tag
 *                                 on the one-buffer encrypt path
 *                                 (memzero_explicit); it is public once
 *                                 written out, so a driver may skip it.
 * arch/x86/gcm-glue.h defines SSE forms of all four (one 16-byte
 * load/store or compare, no wipe); arch/arm64/gcm-ce.c uses the portable
 * ones.
 *
 * Not installed; only the library's own drivers include it.
 */
#ifndef _RIND_CRYPTO_GCM_GLUE_H
#define _RIND_CRYPTO_GCM_GLUE_H

#include <limits.h>
#include <string.h>
#include <rind/internal/aead.h>
#include <rind/internal/util.h>

#ifndef GCM_GLUE_INL
#define GCM_GLUE_INL static inline __attribute__((always_inline))
#endif

#ifndef GCM_GLUE_COPY_SMALL
#define GCM_GLUE_COPY_SMALL(d, s, n)	memmove((d), (s), (n))
#endif
#ifndef GCM_GLUE_PUT_TAG
#define GCM_GLUE_PUT_TAG(d, tag, n)	memcpy((d), (tag), (n))
#endif
#ifndef GCM_GLUE_TAG_NEQ
#define GCM_GLUE_TAG_NEQ(a, b, n)	crypto_memneq((a), (b), (n))
#endif
#ifndef GCM_GLUE_WIPE_ENC_TAG
#define GCM_GLUE_WIPE_ENC_TAG(tag)	memzero_explicit((tag), 16)
#endif

/*
 * H * x^-1 in the drivers' reflected GHASH representation (a block
 * byte-reversed into a register, bit 127 = x^0), on the two 64-bit halves
 * of the reflected H = bswap(E_K(0^128)): a left shift (reflected),
 * folding x^-1 = x^127 + x^6 + x + 1.  Constant time (a mask, no branch).
 */
GCM_GLUE_INL void gcm_glue_hxinv(u64 *lo, u64 *hi)
{
	u64 m = 0 - (*hi >> 63);

	*hi = (*hi << 1) ^ (*lo >> 63) ^ (m & 0xc200000000000000ULL);
	*lo = (*lo << 1) ^ (m & 1);
}

/*
 * The whole of GCM over contiguous buffers: @len bytes from @src to @dst
 * (equal or disjoint), @adlen bytes of AD at @ad, the 16-byte tag to @tag.
 * @ctx is the driver's context.
 */
typedef void gcm_glue_core_fn(const void *ctx, const u8 iv[12], const u8 *ad, size_t adlen,
			      u8 *dst, const u8 *src, size_t len, bool enc, u8 tag[16]);

static inline int gcm_glue_setauthsize(struct crypto_aead *tfm, unsigned int authsize)
{
	(void)tfm;
	switch (authsize) {
	case 4: case 8: case 12: case 13: case 14: case 15: case 16:
		return 0;
	}
	return -EINVAL;
}

/* Copy the AD to the destination when it is a different buffer. */
static inline int gcm_glue_copy_ad(struct aead_request *req, const u8 *ad)
{
	unsigned int assoclen = req->assoclen;
	u8 *d;

	if (req->src == req->dst || !assoclen)
		return 0;
	d = rind_sg_contig(req->dst, 0, assoclen);
	if (d) {
		if (d != ad)
			memmove(d, ad, assoclen);
		return 0;
	}
	if (sg_pcopy_from_buffer(req->dst, ~0u, ad, assoclen, 0) != assoclen)
		return -EINVAL;
	return 0;
}

/* Whether the first @n bytes of two tags differ; the verdict is public. */
GCM_GLUE_INL bool gcm_glue_tags_differ(const u8 *a, const u8 *b, unsigned int n)
{
	int ne = GCM_GLUE_TAG_NEQ(a, b, n) ? 1 : 0;

	/* the verdict is public (the request fails or not); the tags are not */
	rind_declassify(&ne, sizeof(ne));
	return ne;
}

/* encrypt (@enc) or decrypt one request with the driver's @core. */
GCM_GLUE_INL int gcm_glue_crypt(struct aead_request *req, bool enc, gcm_glue_core_fn *core)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	const void *ctx = crypto_aead_ctx(tfm);
	unsigned int authsize = tfm->authsize;	/* not the exported call */
	unsigned int assoclen = req->assoclen, ptlen;
	struct rind_sg_map adm = { 0 }, m;
	const u8 *ad = NULL;
	u8 tag[16], rtag[16];
	int err;

	if (enc) {
		ptlen = req->cryptlen;
	} else {
		if (req->cryptlen < authsize)
			return -EINVAL;
		ptlen = req->cryptlen - authsize;
	}
	if ((u64)assoclen + ptlen + authsize > UINT_MAX)
		return -EINVAL;

	/* Fast path: source and destination are one buffer each. */
	if (req->src && req->dst && sg_is_last(req->src) && sg_is_last(req->dst) &&
	    req->src->length >= assoclen + ptlen + (enc ? 0 : authsize) &&
	    req->dst->length >= assoclen + ptlen + (enc ? authsize : 0)) {
		const u8 *s = sg_virt(req->src);
		u8 *d = sg_virt(req->dst);

		if (d != s && assoclen)
			GCM_GLUE_COPY_SMALL(d, s, assoclen);
		if (enc) {
			core(ctx, req->iv, d, assoclen, d + assoclen, s + assoclen, ptlen, true, tag);
			GCM_GLUE_PUT_TAG(d + assoclen + ptlen, tag, authsize);
			GCM_GLUE_WIPE_ENC_TAG(tag);
			return 0;
		}
		memcpy(rtag, s + assoclen + ptlen, authsize);
		core(ctx, req->iv, d, assoclen, d + assoclen, s + assoclen, ptlen, false, tag);
		err = 0;
		if (gcm_glue_tags_differ(tag, rtag, authsize)) {
			memzero_explicit(d + assoclen, ptlen);
			err = -EBADMSG;
		}
		memzero_explicit(tag, sizeof(tag));
		return err;
	}

	if (!enc && sg_pcopy_to_buffer(req->src, ~0u, rtag, authsize, assoclen + ptlen) != authsize)
		return -EINVAL;
	if (assoclen) {
		ad = rind_sg_contig(req->src, 0, assoclen);
		if (!ad) {
			err = rind_sg_map_ro(&adm, req->src, 0, assoclen);
			if (err)
				return err;
			ad = adm.src;
		}
		err = gcm_glue_copy_ad(req, ad);
		if (err)
			goto out_ad;
	}
	err = rind_sg_map(&m, req->src, req->dst, assoclen, ptlen);
	if (err)
		goto out_ad;

	core(ctx, req->iv, ad, assoclen, m.dst, m.src, ptlen, enc, tag);

	if (enc) {
		rind_sg_unmap(&m, true);
		if (sg_pcopy_from_buffer(req->dst, ~0u, tag, authsize, assoclen + ptlen) != authsize)
			err = -EINVAL;
	} else {
		if (gcm_glue_tags_differ(tag, rtag, authsize)) {
			memzero_explicit(m.dst, ptlen);
			err = -EBADMSG;
		}
		rind_sg_unmap(&m, true);
	}
	memzero_explicit(tag, sizeof(tag));
out_ad:
	if (adm.bounce)
		rind_sg_unmap(&adm, false);
	return err;
}

/*
 * The entry points and the "gcm(aes)" aead_alg @pfx##_alg of a driver
 * whose context is @ctx_type, whose setkey is @pfx##_setkey and whose
 * gcm_glue_core_fn is @pfx##_core, registered as @module; @tgt is the
 * driver's function attribute (its instruction set), so that the core
 * can inline.  The glue is compiled for that target too because in an x86
 * AVX driver a legacy-SSE instruction (the compiler zeroing a struct with
 * pxor/movaps) next to VEX code pays for the SSE/AVX state transition on
 * Intel (scripts/check-vex.sh checks for it).
 */
#define GCM_GLUE_DEFINE_ALG(pfx, ctx_type, drv_name, prio, module, tgt)	\
tgt static int pfx##_crypt(struct aead_request *req, bool enc)			\
{										\
	return gcm_glue_crypt(req, enc, pfx##_core);				\
}										\
										\
tgt static int pfx##_encrypt(struct aead_request *req)				\
{										\
	return pfx##_crypt(req, true);						\
}										\
										\
tgt static int pfx##_decrypt(struct aead_request *req)				\
{										\
	return pfx##_crypt(req, false);						\
}										\
										\
static struct aead_alg pfx##_alg = {						\
	.setkey		= pfx##_setkey,						\
	.setauthsize	= gcm_glue_setauthsize,					\
	.encrypt	= pfx##_encrypt,					\
	.decrypt	= pfx##_decrypt,					\
	.ivsize		= 12,							\
	.maxauthsize	= 16,							\
	.chunksize	= 16,							\
	.base = {								\
		.cra_name		= "gcm(aes)",				\
		.cra_driver_name	= drv_name,				\
		.cra_priority		= prio,					\
		.cra_blocksize		= 1,					\
		.cra_ctxsize		= sizeof(ctx_type),			\
		.cra_module		= module,				\
	},									\
}

#endif /* _RIND_CRYPTO_GCM_GLUE_H */
