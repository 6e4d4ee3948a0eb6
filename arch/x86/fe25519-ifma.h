/* SPDX-License-Identifier: MIT */
/*
 * Four independent elements of GF(2^255 - 19) at once, with AVX-512 IFMA
 * on 256-bit vectors (AVX512VL): "fe4" holds five vectors, vector i being
 * limb i (radix 2^51) of the four elements, one per 64-bit lane.  Used by
 * the X25519 ladder and the Ed25519 point formulas of curve25519-ifma.c
 * and ed25519-ifma.c, which arrange their work four multiplications at a
 * time (lane j of a product is lane j of the left times lane j of the
 * right operand).  The caller must have checked AVX512F, AVX512VL and
 * AVX512IFMA.
 *
 * VPMADD52LUQ / VPMADD52HUQ multiply the low 52 bits of two lanes and add
 * the low or the high 52 bits of the 104-bit product to a 64-bit lane.
 * With radix 2^51 the high half of a_i * b_j lands at weight 2^(51(i+j+1))
 * times two, so the high accumulators are doubled before they join the
 * low ones, and columns 5..9 fold into 0..4 times 19 (2^255 = 19 mod p).
 *
 * Bounds: inputs of fe4_mul must have every limb below 2^52.  fe4_mul and
 * fe4_carry return limbs below 2^51 + 2^15 ("carried").  fe4_add of two
 * carried values gives limbs below 2^52 + 2^16 and must be carried before
 * a multiplication; fe4_sub(a, b) needs b's limbs below 4p's (2^53 - 76)
 * and gives limbs below 2^54.  Everything is constant time: lane
 * selections are made with masks and blends, never with branches or
 * secret-dependent addresses.
 */
#ifndef _RIND_X86_FE25519_IFMA_H
#define _RIND_X86_FE25519_IFMA_H

#include <immintrin.h>
#include <string.h>
#include <rind/types.h>
#include "x86-target.h"

#define IFMA_TARGET RIND_AVX512_TARGET("avx512f,avx512vl,avx512ifma", "avx2")
#define IFMA_INLINE static inline __attribute__((always_inline)) IFMA_TARGET

#define FE_MASK51 ((1ULL << 51) - 1)
/* 4p, limb by limb, for subtraction without negative lanes. */
#define FE_4P0 ((1ULL << 53) - 76)
#define FE_4PI ((1ULL << 53) - 4)
/* 2^11 p: subtracting a wide (uncarried, below 2^61) value never goes negative. */
#define FE_BIGP0 ((1ULL << 62) - (19ULL << 11))
#define FE_BIGPI ((1ULL << 62) - (1ULL << 11))
/* 2^12 p (limbs just below 2^63). */
#define FE_HUGEP0 ((1ULL << 63) - (19ULL << 12))
#define FE_HUGEPI ((1ULL << 63) - (1ULL << 12))
#define FE4_MASK51 FE_MASK51

/* fe4: 256-bit vectors, four lanes */
#define FEV fe4
#define VT __m256i
#define FN(f) fe4_##f
#define V(f) _mm256_##f
#define VSET1(x) _mm256_set1_epi64x(x)
#define VZERO() _mm256_setzero_si256()
#define VAND(a, b) _mm256_and_si256(a, b)
#define KM(m) ((__mmask8)(m))
#include "fe25519-ifma-ops.h"
#undef FEV
#undef VT
#undef FN
#undef V
#undef VSET1
#undef VZERO
#undef VAND
#undef KM

/* fe8: 512-bit vectors, two groups of four lanes, masks repeated */
#define FEV fe8
#define VT __m512i
#define FN(f) fe8_##f
#define V(f) _mm512_##f
#define VSET1(x) _mm512_set1_epi64(x)
#define VZERO() _mm512_setzero_si512()
#define VAND(a, b) _mm512_and_si512(a, b)
#define KM(m) ((__mmask8)((m) | (m) << 4))
#include "fe25519-ifma-ops.h"
#undef FEV
#undef VT
#undef FN
#undef V
#undef VSET1
#undef VZERO
#undef VAND
#undef KM

/* Lane permutation of all five limbs (within each group of four lanes): imm as _MM_SHUFFLE(d, c, b, a). */
#define fe4_permute(a, imm)							\
	((fe4){ _mm256_permute4x64_epi64((a).l0, imm), _mm256_permute4x64_epi64((a).l1, imm), \
		_mm256_permute4x64_epi64((a).l2, imm), _mm256_permute4x64_epi64((a).l3, imm), \
		_mm256_permute4x64_epi64((a).l4, imm) })
#define fe8_permute(a, imm)							\
	((fe8){ _mm512_permutex_epi64((a).l0, imm), _mm512_permutex_epi64((a).l1, imm), \
		_mm512_permutex_epi64((a).l2, imm), _mm512_permutex_epi64((a).l3, imm), \
		_mm512_permutex_epi64((a).l4, imm) })

/* Two fe4 side by side (a in lanes 0..3, b in 4..7), and back. */
IFMA_INLINE fe8 fe8_join(fe4 a, fe4 b)
{
#define FE8_J(x, y) _mm512_inserti64x4(_mm512_castsi256_si512(x), y, 1)
	return (fe8){ FE8_J(a.l0, b.l0), FE8_J(a.l1, b.l1), FE8_J(a.l2, b.l2), FE8_J(a.l3, b.l3),
		      FE8_J(a.l4, b.l4) };
#undef FE8_J
}

IFMA_INLINE fe4 fe8_low(fe8 a)
{
	return (fe4){ _mm512_castsi512_si256(a.l0), _mm512_castsi512_si256(a.l1),
		      _mm512_castsi512_si256(a.l2), _mm512_castsi512_si256(a.l3),
		      _mm512_castsi512_si256(a.l4) };
}

IFMA_INLINE fe4 fe8_high(fe8 a)
{
	return (fe4){ _mm512_extracti64x4_epi64(a.l0, 1), _mm512_extracti64x4_epi64(a.l1, 1),
		      _mm512_extracti64x4_epi64(a.l2, 1), _mm512_extracti64x4_epi64(a.l3, 1),
		      _mm512_extracti64x4_epi64(a.l4, 1) };
}

/* A constant with the same value (limbs v[0..4], radix 2^51) in every lane. */
IFMA_INLINE fe4 fe4_splat(const u64 v[5])
{
	return (fe4){ _mm256_set1_epi64x((long long)v[0]), _mm256_set1_epi64x((long long)v[1]),
		      _mm256_set1_epi64x((long long)v[2]), _mm256_set1_epi64x((long long)v[3]),
		      _mm256_set1_epi64x((long long)v[4]) };
}

/* Radix conversions: 51-bit limbs from bytes, and back to 64-bit words. */
static inline void fe51_from_bytes(u64 h[5], const u8 s[32])
{
	u64 w0, w1, w2, w3;

	memcpy(&w0, s, 8);
	memcpy(&w1, s + 8, 8);
	memcpy(&w2, s + 16, 8);
	memcpy(&w3, s + 24, 8);
	h[0] = w0 & FE4_MASK51;
	h[1] = (w0 >> 51 | w1 << 13) & FE4_MASK51;
	h[2] = (w1 >> 38 | w2 << 26) & FE4_MASK51;
	h[3] = (w2 >> 25 | w3 << 39) & FE4_MASK51;
	h[4] = (w3 >> 12) & FE4_MASK51;
}

/* 51-bit limbs (each below 2^52 + 2^20 or so) to four 64-bit words, below 2^256. */
static inline void fe51_to_u64(u64 w[4], const u64 h[5])
{
	unsigned __int128 acc;
	u64 t[5];

	/* Normalise to 51-bit limbs with the carry of the top folded by 19. */
	acc = h[0];
	t[0] = (u64)acc & FE4_MASK51;
	acc = (acc >> 51) + h[1];
	t[1] = (u64)acc & FE4_MASK51;
	acc = (acc >> 51) + h[2];
	t[2] = (u64)acc & FE4_MASK51;
	acc = (acc >> 51) + h[3];
	t[3] = (u64)acc & FE4_MASK51;
	acc = (acc >> 51) + h[4];
	t[4] = (u64)acc & FE4_MASK51;
	t[0] += 19 * (u64)(acc >> 51);
	/* t[0] may now exceed 51 bits a little: the packing below absorbs it. */
	acc = t[0];
	acc += (unsigned __int128)t[1] << 51;
	w[0] = (u64)acc;
	acc >>= 64;
	acc += (unsigned __int128)t[2] << 38;
	w[1] = (u64)acc;
	acc >>= 64;
	acc += (unsigned __int128)t[3] << 25;
	w[2] = (u64)acc;
	acc >>= 64;
	acc += (unsigned __int128)t[4] << 12;
	w[3] = (u64)acc;
}

/* Lane @j (0..3) of @a as 51-bit limbs (for final outputs, not inner loops). */
IFMA_INLINE void fe4_lane_get(u64 h[5], fe4 a, int j)
{
	u64 tmp[4] __attribute__((aligned(32)));

	_mm256_store_si256((__m256i *)tmp, a.l0);
	h[0] = tmp[j];
	_mm256_store_si256((__m256i *)tmp, a.l1);
	h[1] = tmp[j];
	_mm256_store_si256((__m256i *)tmp, a.l2);
	h[2] = tmp[j];
	_mm256_store_si256((__m256i *)tmp, a.l3);
	h[3] = tmp[j];
	_mm256_store_si256((__m256i *)tmp, a.l4);
	h[4] = tmp[j];
}

/* Four elements given as 51-bit limbs, lane j from e[j]. */
IFMA_INLINE fe4 fe4_set(const u64 e0[5], const u64 e1[5], const u64 e2[5], const u64 e3[5])
{
#define FE4_SET_LIMB(i) _mm256_set_epi64x((long long)e3[i], (long long)e2[i], (long long)e1[i], (long long)e0[i])
	return (fe4){ FE4_SET_LIMB(0), FE4_SET_LIMB(1), FE4_SET_LIMB(2), FE4_SET_LIMB(3), FE4_SET_LIMB(4) };
#undef FE4_SET_LIMB
}

#endif /* _RIND_X86_FE25519_IFMA_H */
