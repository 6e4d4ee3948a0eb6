/* SPDX-License-Identifier: MIT */
/*
 * The word-sliced eight-block ChaCha20 of chacha-avx2.c, shared with the
 * stitched ChaCha20-Poly1305 of chacha20poly1305-avx2.c: chacha8_core()
 * optionally runs Poly1305 blocks (the radix-2^64 scalar code, on the
 * integer pipes) between its vector double rounds.
 */
#ifndef _RIND_X86_CHACHA_AVX2_H
#define _RIND_X86_CHACHA_AVX2_H

#include <immintrin.h>
#include <rind/types.h>
#include <crypto/chacha.h>
#include <crypto/poly1305.h>
#include <rind/internal/util.h>

#define AVX2 __attribute__((target("avx2")))
#define AVX2_INLINE static inline __attribute__((always_inline, target("avx2")))

AVX2_INLINE __m256i rot16(__m256i x)
{
	const __m256i m = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
					   2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
	return _mm256_shuffle_epi8(x, m);
}

AVX2_INLINE __m256i rot8(__m256i x)
{
	const __m256i m = _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
					   3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
	return _mm256_shuffle_epi8(x, m);
}

AVX2_INLINE __m256i rot12(__m256i x)
{
	return _mm256_or_si256(_mm256_slli_epi32(x, 12), _mm256_srli_epi32(x, 20));
}

AVX2_INLINE __m256i rot7(__m256i x)
{
	return _mm256_or_si256(_mm256_slli_epi32(x, 7), _mm256_srli_epi32(x, 25));
}

#define QR8(a, b, c, d) do {						\
		a = _mm256_add_epi32(a, b); d = rot16(_mm256_xor_si256(d, a));	\
		c = _mm256_add_epi32(c, d); b = rot12(_mm256_xor_si256(b, c));	\
		a = _mm256_add_epi32(a, b); d = rot8(_mm256_xor_si256(d, a));	\
		c = _mm256_add_epi32(c, d); b = rot7(_mm256_xor_si256(b, c));	\
	} while (0)

AVX2_INLINE void xor_store(u8 *dst, const u8 *src, __m256i k)
{
	_mm256_storeu_si256((__m256i *)dst,
			    _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)src), k));
}

/* 4x4 transpose within lanes then lane exchange: eight blocks' half rows. */
AVX2_INLINE void transpose8(__m256i x[8])
{
	__m256i t0, t1, t2, t3, t4, t5, t6, t7, u0, u1, u2, u3, u4, u5, u6, u7;

	t0 = _mm256_unpacklo_epi32(x[0], x[1]);
	t1 = _mm256_unpackhi_epi32(x[0], x[1]);
	t2 = _mm256_unpacklo_epi32(x[2], x[3]);
	t3 = _mm256_unpackhi_epi32(x[2], x[3]);
	t4 = _mm256_unpacklo_epi32(x[4], x[5]);
	t5 = _mm256_unpackhi_epi32(x[4], x[5]);
	t6 = _mm256_unpacklo_epi32(x[6], x[7]);
	t7 = _mm256_unpackhi_epi32(x[6], x[7]);
	u0 = _mm256_unpacklo_epi64(t0, t2);
	u1 = _mm256_unpackhi_epi64(t0, t2);
	u2 = _mm256_unpacklo_epi64(t1, t3);
	u3 = _mm256_unpackhi_epi64(t1, t3);
	u4 = _mm256_unpacklo_epi64(t4, t6);
	u5 = _mm256_unpackhi_epi64(t4, t6);
	u6 = _mm256_unpacklo_epi64(t5, t7);
	u7 = _mm256_unpackhi_epi64(t5, t7);
	/* x[j] = words 0..7 (or 8..15) of block j */
	x[0] = _mm256_permute2x128_si256(u0, u4, 0x20);
	x[4] = _mm256_permute2x128_si256(u0, u4, 0x31);
	x[1] = _mm256_permute2x128_si256(u1, u5, 0x20);
	x[5] = _mm256_permute2x128_si256(u1, u5, 0x31);
	x[2] = _mm256_permute2x128_si256(u2, u6, 0x20);
	x[6] = _mm256_permute2x128_si256(u2, u6, 0x31);
	x[3] = _mm256_permute2x128_si256(u3, u7, 0x20);
	x[7] = _mm256_permute2x128_si256(u3, u7, 0x31);
}

typedef u64 __attribute__((may_alias, aligned(1))) cp_u64_ua;

/*
 * One Poly1305 block (padbit 1) on the accumulator h0 + 2^64 h1 + 2^128 h2:
 * poly1305_blocks_core's arithmetic in MULX assembly (BMI2: callers run
 * only where the CPU has it), because compiled from C between the vector
 * rounds its 128-bit temporaries went through the stack, which put
 * store-to-load latency on the chain.  With r1 = 0 mod 4 and
 * s1 = 5 r1 / 4:  d0 = h0 r0 + h1 s1, d1 = h0 r1 + h1 r0 + h2 s1 + d0 / 2^64,
 * d2 = h2 r0 + d1 / 2^64; then h = d0 + 2^64 d1 + 2^128 (d2 & 3) + 5 (d2 >> 2).
 * h2 < 8, every product below 2^126; no branch, no index.
 */
static inline __attribute__((always_inline)) void
cp_poly_block(u64 *h0p, u64 *h1p, u64 *h2p, u64 r0, u64 r1, u64 s1, const u8 *m)
{
	u64 h0 = *h0p, h1 = *h1p, h2 = *h2p, d0h, d1l, d1h, t0, t1;

	__asm__("add	%[m0], %[h0]\n\t"
		"adc	%[m1], %[h1]\n\t"
		"adc	$1, %[h2]\n\t"
		"mov	%[h0], %%rdx\n\t"
		"mulx	%[r0], %[h0], %[d0h]\n\t"
		"mulx	%[r1], %[d1l], %[d1h]\n\t"
		"mov	%[h1], %%rdx\n\t"
		"mulx	%[s1], %[t0], %[t1]\n\t"
		"add	%[t0], %[h0]\n\t"
		"adc	%[t1], %[d0h]\n\t"
		"mulx	%[r0], %[t0], %[t1]\n\t"
		"add	%[t0], %[d1l]\n\t"
		"adc	%[t1], %[d1h]\n\t"
		"mov	%[h2], %[t0]\n\t"
		"imul	%[s1], %[t0]\n\t"
		"imul	%[r0], %[h2]\n\t"
		"add	%[t0], %[d1l]\n\t"
		"adc	$0, %[d1h]\n\t"
		"add	%[d0h], %[d1l]\n\t"
		"adc	$0, %[d1h]\n\t"
		"add	%[d1h], %[h2]\n\t"
		"mov	%[h2], %[t0]\n\t"
		"and	$-4, %[t0]\n\t"
		"mov	%[h2], %[t1]\n\t"
		"shr	$2, %[t1]\n\t"
		"add	%[t1], %[t0]\n\t"
		"and	$3, %[h2]\n\t"
		"add	%[t0], %[h0]\n\t"
		"adc	$0, %[d1l]\n\t"
		"adc	$0, %[h2]\n\t"
		"mov	%[d1l], %[h1]"
		: [h0] "+&r" (h0), [h1] "+&r" (h1), [h2] "+&r" (h2), [d0h] "=&r" (d0h),
		  [d1l] "=&r" (d1l), [d1h] "=&r" (d1h), [t0] "=&r" (t0), [t1] "=&r" (t1)
		: [m0] "m" (((const cp_u64_ua *)m)[0]), [m1] "m" (((const cp_u64_ua *)m)[1]),
		  [r0] "rm" (r0), [r1] "rm" (r1), [s1] "rm" (s1)
		: "rdx", "cc");
	*h0p = h0;
	*h1p = h1;
	*h2p = h2;
}

/*
 * Eight blocks (512 bytes) from counter state[12]; when @mblocks, also
 * absorbs the @mblocks full 16-byte blocks at @m into @ps (padbit 1),
 * spread over the ten double rounds.  @m is read before @dst is written,
 * so it may be @src itself.  The counts depend on lengths only.
 */
AVX2_INLINE void chacha8_core(const u32 state[16], u8 *dst, const u8 *src,
			      struct poly1305_state *ps, const u8 *m, size_t mblocks)
{
	const size_t q = mblocks / 10, rem = mblocks % 10;
	u64 h0 = 0, h1 = 0, h2 = 0, r0 = 0, r1 = 0, s1 = 0;
	__m256i x[16];
	int i;

	if (mblocks) {
		h0 = ps->h[0];
		h1 = ps->h[1];
		h2 = ps->h[2];
		r0 = ps->r[0];
		r1 = ps->r[1];
		s1 = r1 + (r1 >> 2);
	}

	for (i = 0; i < 16; i++)
		x[i] = _mm256_set1_epi32((int)state[i]);
	x[12] = _mm256_add_epi32(x[12], _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));

	for (i = 0; i < 10; i++) {
		QR8(x[0], x[4], x[8], x[12]);
		QR8(x[1], x[5], x[9], x[13]);
		QR8(x[2], x[6], x[10], x[14]);
		QR8(x[3], x[7], x[11], x[15]);
		if (mblocks) {
			size_t n = q + ((size_t)i < rem);

			for (; n; n--, m += POLY1305_BLOCK_SIZE)
				cp_poly_block(&h0, &h1, &h2, r0, r1, s1, m);
		}
		QR8(x[0], x[5], x[10], x[15]);
		QR8(x[1], x[6], x[11], x[12]);
		QR8(x[2], x[7], x[8], x[13]);
		QR8(x[3], x[4], x[9], x[14]);
	}

	for (i = 0; i < 16; i++)
		x[i] = _mm256_add_epi32(x[i], _mm256_set1_epi32((int)state[i]));
	x[12] = _mm256_add_epi32(x[12], _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));

	if (mblocks) {
		ps->h[0] = h0;
		ps->h[1] = h1;
		ps->h[2] = h2;
	}
	transpose8(&x[0]);
	transpose8(&x[8]);
	for (i = 0; i < 8; i++) {
		xor_store(dst + 64 * i, src + 64 * i, x[i]);
		xor_store(dst + 64 * i + 32, src + 64 * i + 32, x[8 + i]);
	}
}

/* chacha-avx2.c's crypt function (any len; advances state[12]). */
void rind_chacha20_crypt_avx2(u32 state[16], u8 *dst, const u8 *src, size_t len);

#endif /* _RIND_X86_CHACHA_AVX2_H */
