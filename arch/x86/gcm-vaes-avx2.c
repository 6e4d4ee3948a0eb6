// SPDX-License-Identifier: MIT
/*
 * gcm-aes-vaes-avx2: AES-GCM with VAES and VPCLMULQDQ on 256-bit
 * registers (two blocks per register), for CPUs without AVX-512.
 * CPU features: AES-NI, PCLMULQDQ, AVX, AVX2, VAES, VPCLMULQDQ.
 *
 * Sixteen blocks (eight registers) per loop iteration, the GHASH of
 * sixteen ciphertext blocks stitched into the AES rounds, the Karatsuba
 * products by H^16 .. H^1 summed before one reduction per 128-bit lane and
 * the two lanes then added.  The last 1..255 bytes are read and written in
 * place, the partial block in pieces (no bounce buffer).  On Zen 3 the
 * carry-less multiplications bound the hashing: VPCLMULQDQ issues one
 * every two cycles (ymm or xmm), 1.5 of them a block plus 2 a reduction;
 * VAESENC does four block-rounds a cycle.  Measured, the two mostly add
 * (0.42 cycles a byte for AES-128 at 16 KiB against 0.21 for GHASH alone
 * and 0.16 for the rounds): the hashing's shuffles and XORs take the pipes
 * the rounds use.
 *
 * GHASH representation as in gcm-aesni.c: blocks byte-reversed (bit
 * reflected), powers of H stored times x^-1, reduction by two carry-less
 * multiplications with 0xc2 << 56.
 */
#include <immintrin.h>
#include <rind/internal/aead.h>
#include <rind/internal/util.h>
#include "gcm-glue.h"

#define TGT __attribute__((target("aes,pclmul,ssse3,avx,avx2,vaes,vpclmulqdq")))
#define INL static inline __attribute__((always_inline)) TGT

#define GCM_VAES2_NH	16	/* powers of H */

struct gcm_vaes2_ctx {
	__m256i rky[15];	/* round keys, each in both lanes */
	/*
	 * hpow[i] = H^(16-i) * x^-1 (reflected) for i < 16, so that sixteen
	 * consecutive blocks line up with hpow[0..15]; hkey[i] its two halves
	 * added (Karatsuba), in both halves; zero entries follow for the tail's
	 * shifted loads.
	 */
	__m128i hpow[GCM_VAES2_NH + 2];
	__m128i hkey[GCM_VAES2_NH + 2];
	unsigned int rounds;
};

INL __m256i bswap256(__m256i x)
{
	return _mm256_shuffle_epi8(x, _mm256_broadcastsi128_si256(
		_mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)));
}

INL __m256i xor3(__m256i a, __m256i b, __m256i c)
{
	return _mm256_xor_si256(a, _mm256_xor_si256(b, c));
}

/* ---- AES ---- */

INL __m128i aes_block(const struct gcm_vaes2_ctx *ctx, __m128i x)
{
	unsigned int r;

	x = _mm_xor_si128(x, _mm256_castsi256_si128(ctx->rky[0]));
	for (r = 1; r < ctx->rounds; r++)
		x = _mm_aesenc_si128(x, _mm256_castsi256_si128(ctx->rky[r]));
	return _mm_aesenclast_si128(x, _mm256_castsi256_si128(ctx->rky[ctx->rounds]));
}

/* ---- GHASH ---- */

/*
 * Karatsuba on each 128-bit lane: a * h as lo = a0 h0, hi = a1 h1 and
 * mi = (a0 + a1)(h0 + h1), the middle term recovered once per reduction
 * (mi + lo + hi).  Three multiplications a lane instead of four: on Zen 3
 * VPCLMULQDQ issues every other cycle and bounds the hashing (3.4 cycles a
 * block measured, 3.25 the bound with the reduction), the shuffle and XOR
 * it costs going to other pipes.  @hk holds h0 + h1 in both halves.
 */
INL void clmul_acc(__m256i a, __m256i h, __m256i hk, __m256i *lo, __m256i *mi, __m256i *hi)
{
	*lo = _mm256_xor_si256(*lo, _mm256_clmulepi64_epi128(a, h, 0x00));
	*hi = _mm256_xor_si256(*hi, _mm256_clmulepi64_epi128(a, h, 0x11));
	*mi = _mm256_xor_si256(*mi, _mm256_clmulepi64_epi128(
		_mm256_xor_si256(a, _mm256_shuffle_epi32(a, 0x4e)), hk, 0x00));
}

/* Reduce each lane, then add the two lanes; @mi is still the Karatsuba sum. */
INL __m128i ghash_reduce(__m256i lo, __m256i mi, __m256i hi)
{
	const __m256i c = _mm256_set1_epi64x((long long)0xc200000000000000ULL);

	mi = xor3(mi, lo, hi);
	mi = xor3(mi, _mm256_shuffle_epi32(lo, 0x4e), _mm256_clmulepi64_epi128(lo, c, 0x00));
	hi = xor3(hi, _mm256_shuffle_epi32(mi, 0x4e), _mm256_clmulepi64_epi128(mi, c, 0x00));
	return _mm_xor_si128(_mm256_castsi256_si128(hi), _mm256_extracti128_si256(hi, 1));
}

INL __m256i hpow2(const struct gcm_vaes2_ctx *ctx, unsigned int i)
{
	return _mm256_loadu_si256((const __m256i *)&ctx->hpow[i]);
}

INL __m256i hkey2(const struct gcm_vaes2_ctx *ctx, unsigned int i)
{
	return _mm256_loadu_si256((const __m256i *)&ctx->hkey[i]);
}

INL __m256i zext(__m128i x)
{
	return _mm256_inserti128_si256(_mm256_setzero_si256(), x, 0);
}

/* The product of the byte-reversed pair @x by the powers from hpow[@i]. */
#define GH(x, i) clmul_acc((x), hpow2(ctx, (i)), hkey2(ctx, (i)), &lo, &mi, &hi)

/*
 * Hash the zero-padded tail x[0..nv-1] (n16 blocks in all, 1..16) so that
 * its last block meets H^1.
 */
INL __m128i ghash_tail(const struct gcm_vaes2_ctx *ctx, __m128i acc, const __m256i *x,
		       unsigned int n16)
{
	__m256i lo = _mm256_setzero_si256(), mi = lo, hi = lo;
	unsigned int nv = (n16 + 1) / 2, v, base = GCM_VAES2_NH - n16;

	GH(_mm256_xor_si256(x[0], zext(acc)), base);
	for (v = 1; v < nv; v++)
		GH(x[v], base + 2 * v);
	return ghash_reduce(lo, mi, hi);
}

INL __m256i load2(const u8 *p)
{
	return bswap256(_mm256_loadu_si256((const __m256i *)p));
}

/* Hash 256 bytes at @p (16 blocks: H^16 .. H^1). */
INL __m128i ghash16(const struct gcm_vaes2_ctx *ctx, __m128i acc, const u8 *p)
{
	__m256i lo = _mm256_setzero_si256(), mi = lo, hi = lo;
	unsigned int v;

	GH(_mm256_xor_si256(load2(p), zext(acc)), 0);
	for (v = 1; v < 8; v++)
		GH(load2(p + 32 * v), 2 * v);
	return ghash_reduce(lo, mi, hi);
}

/*
 * Block @i of the @len bytes at @p, zero-padded, read without a bounce
 * buffer (small stores read back as a whole block cannot be forwarded).
 */
INL __m128i tail_blk(const u8 *p, size_t len, unsigned int i)
{
	size_t off = 16 * (size_t)i;

	if (off + 16 <= len)
		return _mm_loadu_si128((const __m128i *)(p + off));
	if (off < len)
		return gcm_load_partial(p + off, (unsigned int)(len - off));
	return _mm_setzero_si128();
}

/* Blocks 2v and 2v + 1 of the @len bytes at @p, zero-padded, in memory order. */
INL __m256i tail_pair(const u8 *p, size_t len, unsigned int v)
{
	if (32 * (size_t)v + 32 <= len)
		return _mm256_loadu_si256((const __m256i *)(p + 32 * v));
	return _mm256_set_m128i(tail_blk(p, len, 2 * v + 1), tail_blk(p, len, 2 * v));
}

/* Store the bytes of pair @v that fall below @len. */
INL void tail_store(u8 *p, size_t len, unsigned int v, __m256i x)
{
	size_t off = 32 * (size_t)v;

	if (off + 32 <= len) {
		_mm256_storeu_si256((__m256i *)(p + off), x);
		return;
	}
	if (off + 16 <= len) {
		_mm_storeu_si128((__m128i *)(p + off), _mm256_castsi256_si128(x));
		off += 16;
		x = _mm256_permute2x128_si256(x, x, 0x11);
	}
	if (off < len)
		gcm_store_partial(p + off, _mm256_castsi256_si128(x), (unsigned int)(len - off));
}

/* 32 bytes of 0xff then 32 of zeros: a load at 32 - n keeps the first n bytes. */
static const u8 keep32[64] __attribute__((aligned(64))) = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

/* Hash @len bytes, the last partial block padded with zeros. */
TGT static __m128i ghash_pad(const struct gcm_vaes2_ctx *ctx, __m128i acc, const u8 *p,
			     size_t len)
{
	__m256i x[8];
	unsigned int v;

	for (; len >= 256; p += 256, len -= 256)
		acc = ghash16(ctx, acc, p);
	if (len) {
		unsigned int n16 = (unsigned int)((len + 15) / 16), nv = (n16 + 1) / 2;

		for (v = 0; v < nv; v++)
			x[v] = bswap256(tail_pair(p, len, v));
		acc = ghash_tail(ctx, acc, x, n16);
	}
	return acc;
}

/* ---- GCM ---- */

/*
 * The keystream of @ns registers (2 * ns blocks) from the counter pair
 * @*ctr, which advances; with @gp, the 16 blocks at @gp hashed into @*acc
 * (one register's products a round, the reduction in the ninth).  @rounds
 * is a constant in each copy, so the rounds unroll and the state stays in
 * registers; eight registers in flight cover the four-cycle latency of
 * VAESENC at two a cycle.  @gp is tested between the rounds, and gcc then
 * puts the hashing in one piece after the ninth round: of the orders
 * measured on Zen 3 (products spread one a round with the sums kept in
 * order, in one piece after round 1, 5, 9 or the last) the fastest, by
 * 2-25% (AES-256 most).
 */
INL void gcm_vaes2_group(const struct gcm_vaes2_ctx *ctx, const unsigned int rounds,
			 const unsigned int ns, __m256i *ctr, const u8 *gp, __m128i *acc,
			 __m256i *b)
{
	const __m256i two = _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 2);
	__m256i lo = _mm256_setzero_si256(), mi = lo, hi = lo, k = ctx->rky[0];
	unsigned int r, j;

#pragma GCC unroll 8
	for (j = 0; j < ns; j++) {
		b[j] = _mm256_xor_si256(bswap256(*ctr), k);
		*ctr = _mm256_add_epi32(*ctr, two);
	}
#pragma GCC unroll 14
	for (r = 1; r < rounds; r++) {
		k = ctx->rky[r];
#pragma GCC unroll 8
		for (j = 0; j < ns; j++)
			b[j] = _mm256_aesenc_epi128(b[j], k);
		if (gp && r <= 8) {
			__m256i x = load2(gp + 32 * (r - 1));

			if (r == 1)
				x = _mm256_xor_si256(x, zext(*acc));
			GH(x, 2 * (r - 1));
		}
		if (gp && r == 9)
			*acc = ghash_reduce(lo, mi, hi);
	}
	k = ctx->rky[rounds];
#pragma GCC unroll 8
	for (j = 0; j < ns; j++)
		b[j] = _mm256_aesenclast_epi128(b[j], k);
}

/*
 * Encrypt or decrypt @len bytes from @src to @dst (which may be equal),
 * hashing the ciphertext into @acc, with @rounds a constant.  Sixteen
 * blocks a loop; decryption hashes the blocks it decrypts, encryption the
 * ones of the loop before (and the last sixteen in the tail's rounds).
 * The tail (1..255 bytes) is read and written in place, the partial block
 * in pieces (no bounce buffer).
 */
INL __m128i gcm_vaes2_crypt_r(const struct gcm_vaes2_ctx *ctx, const unsigned int rounds,
			      u8 *dst, const u8 *src, size_t len, __m256i ctr, __m128i acc,
			      bool enc)
{
	const u8 *pending = NULL;	/* enc: 256 bytes of ciphertext still to hash */
	__m256i b[8], x[8];
	unsigned int v, nv;

	for (; len >= 256; src += 256, dst += 256, len -= 256) {
		gcm_vaes2_group(ctx, rounds, 8, &ctr, enc ? pending : src, &acc, b);
#pragma GCC unroll 8
		for (v = 0; v < 8; v++)
			_mm256_storeu_si256((__m256i *)(dst + 32 * v), _mm256_xor_si256(b[v],
				_mm256_loadu_si256((const __m256i *)(src + 32 * v))));
		if (enc)
			pending = dst;
	}
	if (!len) {
		if (pending)
			acc = ghash16(ctx, acc, pending);
		return acc;
	}
	nv = (unsigned int)((len + 31) / 32);
	if (nv > 4)
		gcm_vaes2_group(ctx, rounds, 8, &ctr, pending, &acc, b);
	else
		gcm_vaes2_group(ctx, rounds, 4, &ctr, pending, &acc, b);
	for (v = 0; v < nv; v++) {
		size_t left = len - 32 * (size_t)v;
		__m256i in = tail_pair(src, len, v);
		__m256i out = _mm256_xor_si256(b[v], in);

		tail_store(dst, len, v, out);
		if (enc)	/* the ciphertext with the bytes past the end zeroed */
			in = _mm256_and_si256(out, _mm256_loadu_si256((const __m256i *)
				(keep32 + 32 - (left < 32 ? left : 32))));
		x[v] = bswap256(in);
	}
	return ghash_tail(ctx, acc, x, (unsigned int)((len + 15) / 16));
}

/*
 * gcm_vaes2_crypt_r() for the key's number of rounds; @j0 is the reversed
 * J0.  (A 256-bit argument would make the compiler skip VZEROUPPER on some
 * of the exits.)
 */
TGT static __m128i gcm_vaes2_ctr_ghash(const struct gcm_vaes2_ctx *ctx, u8 *dst,
				       const u8 *src, size_t len, __m128i j0,
				       __m128i acc, bool enc)
{
	__m256i ctr = _mm256_add_epi32(_mm256_broadcastsi128_si256(j0),
				       _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 1));

	switch (ctx->rounds) {
	case 10:
		return gcm_vaes2_crypt_r(ctx, 10, dst, src, len, ctr, acc, enc);
	case 12:
		return gcm_vaes2_crypt_r(ctx, 12, dst, src, len, ctr, acc, enc);
	default:
		return gcm_vaes2_crypt_r(ctx, 14, dst, src, len, ctr, acc, enc);
	}
}

/* The whole of GCM over contiguous buffers (gcm_glue_core_fn). */
GCM_GLUE_DEFINE_CORE(gcm_vaes2, struct gcm_vaes2_ctx, (const __m128i *)ctx->rky, 2,
		     &ctx->hpow[GCM_VAES2_NH - 1], -1, ctx->hpow[GCM_VAES2_NH - 1], j0, TGT);

/*
 * Two products at once, one a 128-bit lane, as gcm_ghash_mul()
 * (gcm-glue.h) does one: setkey's powers of H.
 */
INL __m256i ghash_mul2(__m256i a, __m256i b)
{
	const __m256i c = _mm256_broadcastsi128_si256(_mm_set_epi64x(0, (long long)0xc200000000000000ULL));
	__m256i lo, mi, hi;

	lo = _mm256_clmulepi64_epi128(a, b, 0x00);
	mi = _mm256_xor_si256(_mm256_clmulepi64_epi128(a, b, 0x01),
			      _mm256_clmulepi64_epi128(a, b, 0x10));
	hi = _mm256_clmulepi64_epi128(a, b, 0x11);
	mi = xor3(mi, _mm256_shuffle_epi32(lo, 0x4e), _mm256_clmulepi64_epi128(lo, c, 0x00));
	return xor3(hi, _mm256_shuffle_epi32(mi, 0x4e), _mm256_clmulepi64_epi128(mi, c, 0x00));
}

/*
 * hpow[0..15] = H^16 .. H^1 from H^1 in hpow[15], two powers a register:
 * the register of H^(2i+2), H^(2i+1) (hpow[14 - 2i]) is that of
 * H^(2j+2), H^(2j+1) times H^(2(i-j)) in both lanes, so after H^2 the
 * other 14 powers are seven two-lane products in three rounds (by H^2,
 * H^4, H^8) rather than gcm_ghash_powers()'s 14 one-block ones.
 */
INL void ghash_powers16(__m128i hpow[GCM_VAES2_NH])
{
	__m128i h1 = hpow[GCM_VAES2_NH - 1];
	__m256i q[8], hb;
	unsigned int i, m;

	_Static_assert(GCM_VAES2_NH == 16, "eight registers of two powers");

	/* q[0] = (H^2, H^1), lane 0 first, as hpow[14..15] */
	q[0] = _mm256_inserti128_si256(_mm256_castsi128_si256(gcm_ghash_mul(h1, h1)), h1, 1);
	for (m = 1; m < 8; m *= 2) {
		/* H^(2m), lane 0 of q[m - 1], times the m registers below */
		hb = _mm256_broadcastsi128_si256(_mm256_castsi256_si128(q[m - 1]));
		for (i = 0; i < m; i++)
			q[m + i] = ghash_mul2(q[i], hb);
	}
	for (i = 0; i < 8; i++)
		_mm256_storeu_si256((__m256i *)&hpow[GCM_VAES2_NH - 2 - 2 * i], q[i]);
	memzero_explicit(q, sizeof(q));
}

TGT static int gcm_vaes2_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int keylen)
{
	struct gcm_vaes2_ctx *ctx = crypto_aead_ctx(tfm);
	__m128i rk[AES_MAX_ROUND_KEYS];
	int nr = aesni_expand_key(rk, key, keylen), i;

	if (nr < 0)
		return nr;
	for (i = 0; i <= nr; i++)
		ctx->rky[i] = _mm256_broadcastsi128_si256(rk[i]);
	ctx->rounds = (unsigned int)nr;
	ctx->hpow[GCM_VAES2_NH - 1] = gcm_ghash_hxinv(gcm_bswap128(aes_block(ctx, _mm_setzero_si128())));
	ghash_powers16(ctx->hpow);
	for (i = GCM_VAES2_NH; i < GCM_VAES2_NH + 2; i++)
		ctx->hpow[i] = _mm_setzero_si128();
	for (i = 0; i < GCM_VAES2_NH + 2; i++)
		ctx->hkey[i] = _mm_xor_si128(ctx->hpow[i], _mm_shuffle_epi32(ctx->hpow[i], 0x4e));
	memzero_explicit(rk, sizeof(rk));
	return 0;
}

GCM_GLUE_DEFINE_ALG(gcm_vaes2, struct gcm_vaes2_ctx, "gcm-aes-vaes-avx2", 600, "x86", TGT);

/* Its known-answer tests are the "gcm(aes)" ones of algs/gcm.c. */
static int gcm_vaes_avx2_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_AESNI) || !rind_cpu_has(RIND_X86_PCLMULQDQ) ||
	    !rind_cpu_has(RIND_X86_AVX) || !rind_cpu_has(RIND_X86_AVX2) ||
	    !rind_cpu_has(RIND_X86_VAES) || !rind_cpu_has(RIND_X86_VPCLMULQDQ))
		return 0;
	return crypto_register_aead(&gcm_vaes2_alg);
}
module_init(gcm_vaes_avx2_mod_init);
