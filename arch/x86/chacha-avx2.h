/* SPDX-License-Identifier: MIT */
/*
 * What chacha-avx2.c and the stitched ChaCha20-Poly1305 of
 * chacha20poly1305-avx2.c share: the rotations and the XOR-store of the
 * row-layout code, and the eight-block word-sliced core (with or without
 * Poly1305 blocks between its rounds) of chacha20poly1305-avx2-asm.S.
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

AVX2_INLINE void xor_store(u8 *dst, const u8 *src, __m256i k)
{
	_mm256_storeu_si256((__m256i *)dst,
			    _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)src), k));
}

/*
 * chacha20poly1305-avx2-asm.S: eight blocks (512 bytes) from counter
 * state[12], word-sliced; with @nb, also absorbs the @nb full 16-byte
 * blocks at @m into @ps (padbit 1) between its quarter rounds (nb <= 80,
 * spread over the ten double rounds; @m is read before @dst is written, so
 * it may be @src).  state[] is not modified.  In assembly: compiled from C,
 * the 16 state vectors and the temporaries went through the stack every
 * quarter round (see the .S).
 */
void rind_cp8_avx2(const u32 state[16], u8 *dst, const u8 *src, struct poly1305_state *ps,
		   const u8 *m, size_t nb);

/* chacha-avx2.c's crypt function (any len; advances state[12]). */
void rind_chacha20_crypt_avx2(u32 state[16], u8 *dst, const u8 *src, size_t len);

#endif /* _RIND_X86_CHACHA_AVX2_H */
