/* SPDX-License-Identifier: MIT */
/*
 * What the x86 AES-GCM drivers (gcm-aesni.c, gcm-vaes-avx2.c,
 * gcm-vaes-avx512.c) have in common, written once: H * x^-1 for their
 * reflected GHASH, J0 and the length block, and the AEAD glue (lengths,
 * the single-buffer fast path, scatterlist mapping and bounce buffers, the
 * AD copy, the tag and its constant-time check, zeroing the plaintext on
 * -EBADMSG, setauthsize, exit and the aead_alg).  Their AES key expansion
 * is aes-aesni.h's, shared with the AES drivers.
 *
 * A driver supplies its context type and one function that runs the whole
 * of GCM over contiguous buffers (struct gcm_glue_core_fn), then says
 * GCM_GLUE_DEFINE_ALG().  gcm_glue_crypt() is always inlined with that
 * function as a constant, so the call is direct: the glue adds one call
 * per request and none per block.
 *
 * Not installed; only the drivers above include it.
 */
#ifndef _RIND_X86_GCM_GLUE_H
#define _RIND_X86_GCM_GLUE_H

#include <immintrin.h>
#include <limits.h>
#include <rind/internal/aead.h>
#include <rind/internal/util.h>
#include "aes-aesni.h"

#define GCM_GLUE_INL static inline __attribute__((always_inline))

/* ---- pieces of the ISA-specific code ---- */

GCM_GLUE_INL __attribute__((target("ssse3"))) __m128i gcm_bswap128(__m128i x)
{
	return _mm_shuffle_epi8(x, _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8,
						 7, 6, 5, 4, 3, 2, 1, 0));
}

/*
 * The drivers' GHASH representation: a block byte-reversed into a register
 * (bit 127 = x^0), powers of H stored times x^-1.  From the reflected
 * @h = bswap(E_K(0^128)), H * x^-1: a left shift (reflected), folding
 * x^-1 = x^127 + x^6 + x + 1.  Constant time.
 */
static inline __m128i gcm_ghash_hxinv(__m128i h)
{
	u64 hi, lo, m;
	u8 hb[16];

	_mm_storeu_si128((__m128i *)hb, h);
	lo = get_unaligned_le64(hb);
	hi = get_unaligned_le64(hb + 8);
	memzero_explicit(hb, sizeof(hb));
	m = 0 - (hi >> 63);
	hi = (hi << 1) ^ (lo >> 63) ^ (m & 0xc200000000000000ULL);
	lo = (lo << 1) ^ (m & 1);
	return _mm_set_epi64x((long long)hi, (long long)lo);
}

/*
 * a * b in that representation, where @hx is b * x^-1: the product of the
 * reflected operands reduced by x^128 = x^7 + x^2 + x + 1 with two
 * carry-less multiplications by the reflected constant 0xc2 << 56.  For
 * the powers of H and the length block; the bulk GHASH is each driver's.
 */
GCM_GLUE_INL __attribute__((target("pclmul"))) __m128i gcm_ghash_mul(__m128i a, __m128i hx)
{
	const __m128i c = _mm_set_epi64x(0, (long long)0xc200000000000000ULL);
	__m128i lo, mi, hi;

	lo = _mm_clmulepi64_si128(a, hx, 0x00);
	mi = _mm_xor_si128(_mm_clmulepi64_si128(a, hx, 0x01), _mm_clmulepi64_si128(a, hx, 0x10));
	hi = _mm_clmulepi64_si128(a, hx, 0x11);
	mi = _mm_xor_si128(mi, _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e),
					     _mm_clmulepi64_si128(lo, c, 0x00)));
	return _mm_xor_si128(hi, _mm_xor_si128(_mm_shuffle_epi32(mi, 0x4e),
					       _mm_clmulepi64_si128(mi, c, 0x00)));
}

/*
 * The powers H^1 .. H^n in that representation, from H in the first
 * place: hp[i] = H^(i+1), or with @desc hp[n-1-i] = H^(i+1) (H^n first, the
 * order the wide drivers multiply in).  By doubling, H^(k+1) =
 * H^(k+1-m) * H^m for m = 1, 2, 4 ..., so the chain of dependent products
 * is log2(n) deep rather than n - 1 (setkey time).
 */
GCM_GLUE_INL __attribute__((target("pclmul"))) void gcm_ghash_powers(__m128i *hp, unsigned int n,
								   bool desc)
{
	unsigned int m, k;

#define GCM_HP(k) hp[desc ? n - 1 - (k) : (k)]
	for (m = 1; m < n; m *= 2)
		for (k = m; k < 2 * m && k < n; k++)
			GCM_HP(k) = gcm_ghash_mul(GCM_HP(k - m), GCM_HP(m - 1));
#undef GCM_HP
}

/* J0 = IV || 0^31 || 1 (SP 800-38D section 7.1, 96-bit IV), in memory order. */
static inline __m128i gcm_j0(const u8 iv[12])
{
	u8 blk[16];

	memcpy(blk, iv, 12);
	put_unaligned_be32(1, blk + 12);
	return _mm_loadu_si128((const __m128i *)blk);
}

/* The reflected last GHASH block: [len(A)]64 || [len(C)]64, in bits. */
static inline __m128i gcm_lenblock(size_t adlen, size_t len)
{
	return _mm_set_epi64x((long long)((u64)adlen * 8), (long long)((u64)len * 8));
}

/* The tag: the reflected GHASH result @s, byte-reversed, XOR E_K(J0). */
GCM_GLUE_INL __attribute__((target("ssse3"))) void gcm_put_tag(u8 tag[16], __m128i s,
								__m128i ej0)
{
	_mm_storeu_si128((__m128i *)tag, _mm_xor_si128(gcm_bswap128(s), ej0));
}

/* ---- the AEAD glue ---- */

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

/* Wipe the driver's context (round keys and powers of H). */
static inline void gcm_glue_exit(struct crypto_aead *tfm)
{
	memzero_explicit(crypto_aead_ctx(tfm), crypto_aead_alg(tfm)->base.cra_ctxsize);
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

/* encrypt (@enc) or decrypt one request with the driver's @core. */
GCM_GLUE_INL int gcm_glue_crypt(struct aead_request *req, bool enc, gcm_glue_core_fn *core)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	const void *ctx = crypto_aead_ctx(tfm);
	unsigned int authsize = crypto_aead_authsize(tfm);
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
			memmove(d, s, assoclen);
		if (enc) {
			core(ctx, req->iv, d, assoclen, d + assoclen, s + assoclen, ptlen, true, tag);
			memcpy(d + assoclen + ptlen, tag, authsize);
			return 0;
		}
		memcpy(rtag, s + assoclen + ptlen, authsize);
		core(ctx, req->iv, d, assoclen, d + assoclen, s + assoclen, ptlen, false, tag);
		err = 0;
		if (crypto_memneq(tag, rtag, authsize)) {
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
		if (crypto_memneq(tag, rtag, authsize)) {
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
 * gcm_glue_core_fn is @pfx##_core.
 */
#define GCM_GLUE_DEFINE_ALG(pfx, ctx_type, drv_name, prio)			\
static int pfx##_crypt(struct aead_request *req, bool enc)			\
{										\
	return gcm_glue_crypt(req, enc, pfx##_core);				\
}										\
										\
static int pfx##_encrypt(struct aead_request *req)				\
{										\
	return pfx##_crypt(req, true);						\
}										\
										\
static int pfx##_decrypt(struct aead_request *req)				\
{										\
	return pfx##_crypt(req, false);						\
}										\
										\
static struct aead_alg pfx##_alg = {						\
	.setkey		= pfx##_setkey,						\
	.setauthsize	= gcm_glue_setauthsize,					\
	.encrypt	= pfx##_encrypt,					\
	.decrypt	= pfx##_decrypt,					\
	.exit		= gcm_glue_exit,					\
	.ivsize		= 12,							\
	.maxauthsize	= 16,							\
	.chunksize	= 16,							\
	.base = {								\
		.cra_name		= "gcm(aes)",				\
		.cra_driver_name	= drv_name,				\
		.cra_priority		= prio,					\
		.cra_blocksize		= 1,					\
		.cra_ctxsize		= sizeof(ctx_type),			\
		.cra_module		= "x86",				\
	},									\
}

#endif /* _RIND_X86_GCM_GLUE_H */
