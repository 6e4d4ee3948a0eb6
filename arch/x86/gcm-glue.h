/* SPDX-License-Identifier: MIT */
/*
 * What the x86 AES-GCM drivers (gcm-aesni.c, gcm-vaes-avx2.c,
 * gcm-vaes-avx512.c) have beyond the portable AEAD glue of
 * <crypto/gcm-glue.h>: the SSE pieces of their reflected GHASH (byte
 * reversal, H * x^-1, the multiplication and powers of H for setkey), J0,
 * partial loads and stores, the length block and the tag, the whole of GCM
 * for short messages, and GCM_GLUE_DEFINE_CORE(), which writes a driver's
 * gcm_glue_core_fn from its AES block, AD hashing and CTR+GHASH pieces.
 * Their AES key expansion is aes-aesni.h's, shared with the AES drivers.
 *
 * The AEAD glue (lengths, the one-buffer fast path, scatterlist mapping,
 * the tag check, setauthsize, GCM_GLUE_DEFINE_ALG()) is the api
 * header's, included below after the SSE forms of its hooks.
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
 * a * b in the drivers' reflected GHASH representation (a block
 * byte-reversed into a register, bit 127 = x^0), where @hx is b * x^-1
 * (gcm_ghash_hxinv()): the product of the
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
 * The powers H^1 .. H^n times x^-1, from H in the first
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

/*
 * J0 = IV || 0^31 || 1 (SP 800-38D section 7.1, 96-bit IV), in memory order,
 * put together in general registers: a block built on the stack with 12- and
 * 4-byte stores and read back as 16 bytes cannot be store-forwarded and
 * stalls the load.
 */
GCM_GLUE_INL __m128i gcm_j0(const u8 iv[12])
{
	return _mm_set_epi64x((long long)(get_unaligned_le32(iv + 8) | (0x01000000ULL << 32)),
			      (long long)get_unaligned_le64(iv));
}

/*
 * @n bytes (0..16) at @p as a block padded with zeros, read without going
 * past p + n and without a bounce buffer (a block assembled from small
 * stores and read back whole cannot be store-forwarded): at most two
 * overlapping loads into general registers.  Only the public length
 * decides anything.
 */
GCM_GLUE_INL __m128i gcm_load_partial(const u8 *p, unsigned int n)
{
	u64 lo = 0, hi = 0;

	if (n >= 8) {
		lo = get_unaligned_le64(p);
		if (n > 8)
			hi = get_unaligned_le64(p + n - 8) >> (8 * (16 - n));
	} else if (n >= 4) {
		lo = get_unaligned_le32(p) | ((u64)get_unaligned_le32(p + n - 4) << (8 * (n - 4)));
	} else if (n) {
		lo = p[0];
		if (n > 1)
			lo |= (u64)p[1] << 8;
		if (n > 2)
			lo |= (u64)p[2] << 16;
	}
	return _mm_set_epi64x((long long)hi, (long long)lo);
}

/* The first @n bytes (1..16) of @x to @p, nothing past p + n. */
GCM_GLUE_INL void gcm_store_partial(u8 *p, __m128i x, unsigned int n)
{
	u64 lo = (u64)_mm_cvtsi128_si64(x), hi = (u64)_mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x));

	if (n >= 16) {
		_mm_storeu_si128((__m128i *)p, x);
		return;
	}
	if (n >= 8) {
		put_unaligned_le64(lo, p);
		p += 8;
		n -= 8;
		lo = hi;
	}
	if (n >= 4) {
		put_unaligned_le32((u32)lo, p);
		p += 4;
		n -= 4;
		lo >>= 32;
	}
	if (n >= 2) {
		put_unaligned_le16((u16)lo, p);
		p += 2;
		n -= 2;
		lo >>= 16;
	}
	if (n)
		*p = (u8)lo;
}

/* The reflected last GHASH block: [len(A)]64 || [len(C)]64, in bits. */
GCM_GLUE_INL __m128i gcm_lenblock(size_t adlen, size_t len)
{
	return _mm_set_epi64x((long long)((u64)adlen * 8), (long long)((u64)len * 8));
}

/* The tag: the reflected GHASH result @s, byte-reversed, XOR E_K(J0). */
GCM_GLUE_INL __attribute__((target("ssse3"))) void gcm_put_tag(u8 tag[16], __m128i s,
								__m128i ej0)
{
	_mm_storeu_si128((__m128i *)tag, _mm_xor_si128(gcm_bswap128(s), ej0));
}

/* ---- short messages ---- */

/* 16 bytes of 0xff, then 16 of zeros: a load at 16 - n keeps the first n bytes. */
static const u8 gcm_glue_keep[32] __attribute__((aligned(32))) = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

#define GCM_SHORT_MAX	64

/*
 * Whether gcm_glue_short() takes a message: at most 64 bytes, and the AD
 * blocks, the message blocks and the length block at most eight in all, so
 * that every block meets a precomputed power of H.
 */
static inline bool gcm_glue_short_ok(size_t adlen, size_t len)
{
	return len <= GCM_SHORT_MAX && (adlen + 15) / 16 + (len + 15) / 16 + 1 <= 8;
}

/*
 * The whole of GCM for a short message (gcm_glue_short_ok()), every driver's
 * path for the sizes where the per-call setup is most of the cost.  J0 and
 * the four counter blocks after it go through the AES rounds together, so
 * E_K(J0) costs no latency of its own; the AD, the message and the length
 * block are multiplied by the powers of H that line them up with the end
 * (H^m for the first of m blocks, H^1 for the length block) and summed
 * before one reduction.  Nothing goes through a stack buffer: partial
 * blocks are read and written with gcm_load_partial()/gcm_store_partial().
 *
 * The driver's round keys are rk[stride * r] (r = 0..rounds) and H^k * x^-1
 * is hp[hstep * (k - 1)], so each driver passes its own context layout.
 * Inlined into the driver's own target: VEX-encoded in the AVX drivers.
 */
GCM_GLUE_INL __attribute__((target("aes,pclmul,ssse3"))) void
gcm_glue_short(const __m128i *rk, unsigned int stride, unsigned int rounds, const __m128i *hp,
	       int hstep, const u8 iv[12], const u8 *ad, size_t adlen, u8 *dst, const u8 *src,
	       size_t len, bool enc, u8 tag[16])
{
	const __m128i c = _mm_set_epi64x(0, (long long)0xc200000000000000ULL);
	const __m128i one = _mm_set_epi32(0, 0, 0, 1);
	unsigned int nad = (unsigned int)((adlen + 15) / 16), nc = (unsigned int)((len + 15) / 16);
	unsigned int m = nad + nc + 1, j, r;
	__m128i j0 = gcm_j0(iv), ctr = gcm_bswap128(j0), k = rk[0];
	__m128i b0, b1, b2, b3, b4, x, lo, mi, hi;

#define GCM_SHORT_H(p) hp[hstep * ((int)(p) - 1)]
#define GCM_SHORT_MUL(a, h)							\
	do {									\
		lo = _mm_xor_si128(lo, _mm_clmulepi64_si128((a), (h), 0x00));	\
		mi = _mm_xor_si128(mi, _mm_xor_si128(_mm_clmulepi64_si128((a), (h), 0x01), \
						     _mm_clmulepi64_si128((a), (h), 0x10))); \
		hi = _mm_xor_si128(hi, _mm_clmulepi64_si128((a), (h), 0x11));	\
	} while (0)

	b0 = _mm_xor_si128(j0, k);
	ctr = _mm_add_epi32(ctr, one);
	b1 = _mm_xor_si128(gcm_bswap128(ctr), k);
	ctr = _mm_add_epi32(ctr, one);
	b2 = _mm_xor_si128(gcm_bswap128(ctr), k);
	ctr = _mm_add_epi32(ctr, one);
	b3 = _mm_xor_si128(gcm_bswap128(ctr), k);
	ctr = _mm_add_epi32(ctr, one);
	b4 = _mm_xor_si128(gcm_bswap128(ctr), k);

	/* the AD and the length block do not wait for the keystream */
	lo = _mm_setzero_si128();
	mi = lo;
	hi = lo;
	for (j = 0; j < nad; j++) {
		size_t n = adlen - 16 * j;

		x = n >= 16 ? _mm_loadu_si128((const __m128i *)(ad + 16 * j)) :
			      gcm_load_partial(ad + 16 * j, (unsigned int)n);
		x = gcm_bswap128(x);
		GCM_SHORT_MUL(x, GCM_SHORT_H(m - j));
	}
	x = gcm_lenblock(adlen, len);
	GCM_SHORT_MUL(x, GCM_SHORT_H(1));

	for (r = 1; r < rounds; r++) {
		k = rk[stride * r];
		b0 = _mm_aesenc_si128(b0, k);
		b1 = _mm_aesenc_si128(b1, k);
		b2 = _mm_aesenc_si128(b2, k);
		b3 = _mm_aesenc_si128(b3, k);
		b4 = _mm_aesenc_si128(b4, k);
	}
	k = rk[stride * rounds];
	b0 = _mm_aesenclast_si128(b0, k);
	b1 = _mm_aesenclast_si128(b1, k);
	b2 = _mm_aesenclast_si128(b2, k);
	b3 = _mm_aesenclast_si128(b3, k);
	b4 = _mm_aesenclast_si128(b4, k);

	/* block j of the message with keystream @ks; its product by H^(nc + 1 - j) */
#define GCM_SHORT_BLK(jj, ks)							\
	if (nc > (jj)) {							\
		size_t n = len - 16 * (jj);					\
		__m128i in, out;						\
										\
		if (n >= 16) {							\
			in = _mm_loadu_si128((const __m128i *)(src + 16 * (jj)));	\
			out = _mm_xor_si128(in, (ks));				\
			_mm_storeu_si128((__m128i *)(dst + 16 * (jj)), out);	\
		} else {							\
			in = gcm_load_partial(src + 16 * (jj), (unsigned int)n);	\
			out = _mm_xor_si128(in, (ks));				\
			gcm_store_partial(dst + 16 * (jj), out, (unsigned int)n);	\
			out = _mm_and_si128(out, _mm_loadu_si128(		\
				(const __m128i *)(gcm_glue_keep + 16 - n)));	\
		}							\
		x = gcm_bswap128(enc ? out : in);				\
		GCM_SHORT_MUL(x, GCM_SHORT_H(nc + 1 - (jj)));			\
	}
	GCM_SHORT_BLK(0, b1)
	GCM_SHORT_BLK(1, b2)
	GCM_SHORT_BLK(2, b3)
	GCM_SHORT_BLK(3, b4)
#undef GCM_SHORT_BLK
#undef GCM_SHORT_MUL
#undef GCM_SHORT_H

	mi = _mm_xor_si128(mi, _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e),
					     _mm_clmulepi64_si128(lo, c, 0x00)));
	hi = _mm_xor_si128(hi, _mm_xor_si128(_mm_shuffle_epi32(mi, 0x4e),
					     _mm_clmulepi64_si128(mi, c, 0x00)));
	gcm_put_tag(tag, hi, b0);
}

/* ---- the SSE forms of the api glue's hooks ---- */

/*
 * memmove() of @n bytes, the AD of a request: up to 32 bytes (the usual AD
 * of TLS, IPsec and QUIC) with loads that all come before the stores and
 * no library call.
 */
GCM_GLUE_INL void gcm_glue_copy_small(u8 *d, const u8 *s, size_t n)
{
	if (n <= 16) {
		gcm_store_partial(d, gcm_load_partial(s, (unsigned int)n), (unsigned int)n);
	} else if (n <= 32) {
		__m128i a = _mm_loadu_si128((const __m128i *)s);
		__m128i b = _mm_loadu_si128((const __m128i *)(s + n - 16));

		_mm_storeu_si128((__m128i *)d, a);
		_mm_storeu_si128((__m128i *)(d + n - 16), b);
	} else {
		memmove(d, s, n);
	}
}

/*
 * Whether the first @n bytes of two tags differ, in constant time: one
 * compare of the whole block for 16 bytes, crypto_memneq() otherwise.
 * gcm_glue_tags_differ() declassifies the verdict.
 */
GCM_GLUE_INL bool gcm_glue_tag_neq(const u8 *a, const u8 *b, unsigned int n)
{
	int ne;

	if (n == 16)
		ne = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)a),
						      _mm_loadu_si128((const __m128i *)b))) != 0xffff;
	else
		ne = crypto_memneq(a, b, n);
	return ne;
}

#define GCM_GLUE_COPY_SMALL(d, s, n)	gcm_glue_copy_small((d), (s), (n))
#define GCM_GLUE_TAG_NEQ(a, b, n)	gcm_glue_tag_neq((a), (b), (n))
/* a full tag is one 16-byte store */
#define GCM_GLUE_PUT_TAG(d, t, n)							\
	((n) == 16 ? _mm_storeu_si128((__m128i *)(d), _mm_loadu_si128((const __m128i *)(t))) : \
		     (void)memcpy((d), (t), (n)))
/*
 * The encrypt path's tag has just been written to the output, so its stack
 * copy is public: no wipe.
 */
#define GCM_GLUE_WIPE_ENC_TAG(t)	((void)(t))

#include <crypto/gcm-glue.h>

/* ---- setkey ---- */

/*
 * The drivers' GHASH representation: a block byte-reversed into a register
 * (bit 127 = x^0), powers of H stored times x^-1 (gcm_glue_hxinv()), from
 * the reflected @h = bswap(E_K(0^128)).
 */
GCM_GLUE_INL __m128i gcm_ghash_hxinv(__m128i h)
{
	u64 hi, lo;
	u8 hb[16];

	_mm_storeu_si128((__m128i *)hb, h);
	lo = get_unaligned_le64(hb);
	hi = get_unaligned_le64(hb + 8);
	memzero_explicit(hb, sizeof(hb));
	gcm_glue_hxinv(&lo, &hi);
	return _mm_set_epi64x((long long)hi, (long long)lo);
}

/* ---- the driver's core ---- */

/*
 * A driver's gcm_glue_core_fn, @pfx##_core, for the context type @ctx_type:
 * a short message goes to gcm_glue_short() (round keys @rk with @stride,
 * H^1 at @hp, the next power @hstep entries on), a longer one to the
 * driver's ghash_pad(ctx, acc, p, len) for the AD and its
 * @pfx##_ctr_ghash(ctx, dst, src, len, ctr, acc, enc) for the message,
 * with the counter block @ctr (an expression of the reversed J0, j0); the
 * length block meets H^1 @h1 and E_K(J0) comes from the driver's
 * aes_block(ctx, x).  @rk, @hp, @h1 and @ctr are expressions of ctx (and
 * j0), evaluated in the function.  Compiled for the driver's @tgt.
 */
#define GCM_GLUE_DEFINE_CORE(pfx, ctx_type, rk, stride, hp, hstep, h1, ctr, tgt)	\
tgt static void pfx##_core(const void *vctx, const u8 iv[12], const u8 *ad, size_t adlen,	\
			   u8 *dst, const u8 *src, size_t len, bool enc, u8 tag[16])	\
{										\
	const ctx_type *ctx = vctx;						\
	__m128i acc, j0, ej0;							\
										\
	if (gcm_glue_short_ok(adlen, len)) {					\
		gcm_glue_short((rk), (stride), ctx->rounds, (hp), (hstep), iv, ad,	\
			       adlen, dst, src, len, enc, tag);			\
		return;								\
	}									\
	acc = _mm_setzero_si128();						\
	j0 = gcm_j0(iv);							\
	ej0 = aes_block(ctx, j0);						\
	j0 = gcm_bswap128(j0);							\
	if (adlen)								\
		acc = ghash_pad(ctx, acc, ad, adlen);				\
	if (len)								\
		acc = pfx##_ctr_ghash(ctx, dst, src, len, (ctr), acc, enc);	\
	acc = gcm_ghash_mul(_mm_xor_si128(acc, gcm_lenblock(adlen, len)), (h1));	\
	gcm_put_tag(tag, acc, ej0);						\
}

#endif /* _RIND_X86_GCM_GLUE_H */
