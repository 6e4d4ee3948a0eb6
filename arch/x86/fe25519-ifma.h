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

#define IFMA_TARGET __attribute__((target("avx512f,avx512vl,avx512ifma")))
#define IFMA_INLINE static inline __attribute__((always_inline)) IFMA_TARGET

/* Five named vectors rather than an array: GCC keeps them in registers. */
typedef struct {
	__m256i l0, l1, l2, l3, l4;
} fe4;

#define FE4_MASK51 ((1ULL << 51) - 1)

/* 4p, limb by limb, for subtraction without negative lanes. */
#define FE4_4P0 ((1ULL << 53) - 76)
#define FE4_4PI ((1ULL << 53) - 4)

/* Apply a vector expression to each of the five limbs. */
#define FE4_MAP1(f, a) ((fe4){ f((a).l0), f((a).l1), f((a).l2), f((a).l3), f((a).l4) })
#define FE4_MAP2(f, a, b)							\
	((fe4){ f((a).l0, (b).l0), f((a).l1, (b).l1), f((a).l2, (b).l2),	\
		f((a).l3, (b).l3), f((a).l4, (b).l4) })

IFMA_INLINE __m256i fe4_times19(__m256i x)
{
	return _mm256_add_epi64(_mm256_add_epi64(_mm256_slli_epi64(x, 4), _mm256_slli_epi64(x, 1)), x);
}

/* One parallel carry pass: limbs below 2^51 + 19 * 2^13 for inputs below 2^64. */
IFMA_INLINE fe4 fe4_carry(fe4 a)
{
	const __m256i m = _mm256_set1_epi64x((long long)FE4_MASK51);
	__m256i c0 = _mm256_srli_epi64(a.l0, 51);
	__m256i c1 = _mm256_srli_epi64(a.l1, 51);
	__m256i c2 = _mm256_srli_epi64(a.l2, 51);
	__m256i c3 = _mm256_srli_epi64(a.l3, 51);
	__m256i c4 = _mm256_srli_epi64(a.l4, 51);
	fe4 r;

	r.l0 = _mm256_add_epi64(_mm256_and_si256(a.l0, m), fe4_times19(c4));
	r.l1 = _mm256_add_epi64(_mm256_and_si256(a.l1, m), c0);
	r.l2 = _mm256_add_epi64(_mm256_and_si256(a.l2, m), c1);
	r.l3 = _mm256_add_epi64(_mm256_and_si256(a.l3, m), c2);
	r.l4 = _mm256_add_epi64(_mm256_and_si256(a.l4, m), c3);
	return r;
}

IFMA_INLINE fe4 fe4_add(fe4 a, fe4 b)
{
	return FE4_MAP2(_mm256_add_epi64, a, b);
}

/* a + 4p - b */
IFMA_INLINE fe4 fe4_sub(fe4 a, fe4 b)
{
	const __m256i p0 = _mm256_set1_epi64x((long long)FE4_4P0);
	const __m256i pi = _mm256_set1_epi64x((long long)FE4_4PI);
	fe4 r;

	r.l0 = _mm256_sub_epi64(_mm256_add_epi64(a.l0, p0), b.l0);
	r.l1 = _mm256_sub_epi64(_mm256_add_epi64(a.l1, pi), b.l1);
	r.l2 = _mm256_sub_epi64(_mm256_add_epi64(a.l2, pi), b.l2);
	r.l3 = _mm256_sub_epi64(_mm256_add_epi64(a.l3, pi), b.l3);
	r.l4 = _mm256_sub_epi64(_mm256_add_epi64(a.l4, pi), b.l4);
	return r;
}

/*
 * The lanes selected by the 4-bit mask @neg (bit j: lane j) become
 * 4p - a, the others stay a.
 */
IFMA_INLINE fe4 fe4_neg_lanes(fe4 a, __mmask8 neg)
{
	const __m256i p0 = _mm256_set1_epi64x((long long)FE4_4P0);
	const __m256i pi = _mm256_set1_epi64x((long long)FE4_4PI);
	fe4 r;

	r.l0 = _mm256_mask_sub_epi64(a.l0, neg, p0, a.l0);
	r.l1 = _mm256_mask_sub_epi64(a.l1, neg, pi, a.l1);
	r.l2 = _mm256_mask_sub_epi64(a.l2, neg, pi, a.l2);
	r.l3 = _mm256_mask_sub_epi64(a.l3, neg, pi, a.l3);
	r.l4 = _mm256_mask_sub_epi64(a.l4, neg, pi, a.l4);
	return r;
}

/* Lane permutation (vpermq) of all five limbs: imm as _MM_SHUFFLE(d, c, b, a). */
#define fe4_permute(a, imm)							\
	((fe4){ _mm256_permute4x64_epi64((a).l0, imm), _mm256_permute4x64_epi64((a).l1, imm), \
		_mm256_permute4x64_epi64((a).l2, imm), _mm256_permute4x64_epi64((a).l3, imm), \
		_mm256_permute4x64_epi64((a).l4, imm) })

/* (a, b, c, d) -> (b, a, d, c) */
#define FE4_SWAP_PAIRS(x) _mm256_shuffle_epi32(x, 0x4e)
IFMA_INLINE fe4 fe4_swap_pairs(fe4 a)
{
	return FE4_MAP1(FE4_SWAP_PAIRS, a);
}

/* Lanes of b where bit j of mask is set, of a elsewhere. */
IFMA_INLINE fe4 fe4_blend(fe4 a, fe4 b, __mmask8 mask)
{
	fe4 r;

	r.l0 = _mm256_mask_blend_epi64(mask, a.l0, b.l0);
	r.l1 = _mm256_mask_blend_epi64(mask, a.l1, b.l1);
	r.l2 = _mm256_mask_blend_epi64(mask, a.l2, b.l2);
	r.l3 = _mm256_mask_blend_epi64(mask, a.l3, b.l3);
	r.l4 = _mm256_mask_blend_epi64(mask, a.l4, b.l4);
	return r;
}

IFMA_INLINE fe4 fe4_zero(void)
{
	const __m256i z = _mm256_setzero_si256();

	return (fe4){ z, z, z, z, z };
}

#define FE4_MAC(lo, hi, x, y)							\
	do {									\
		lo = _mm256_madd52lo_epu64(lo, x, y);				\
		hi = _mm256_madd52hi_epu64(hi, x, y);				\
	} while (0)

/*
 * a * b + c lane by lane (limbs of a and b below 2^52, of c below 2^60),
 * not carried: limbs below 2^61.  Column k of the product is
 * L_k + 2 H_(k-1), with L_k and H_k the sums of the low and high halves
 * of the products a_i b_j with i + j = k; columns 5..9 fold into 0..4
 * times 19.  The high columns are formed first, so that their folding is
 * done by the time the low columns complete.
 */
IFMA_INLINE fe4 fe4_mul_add_wide(fe4 a, fe4 b, fe4 c)
{
	const __m256i z = _mm256_setzero_si256();
	__m256i L8 = z, H8 = z, L7 = z, H7 = z, L6 = z, H6 = z, L5 = z, H5 = z;
	__m256i L4 = c.l4, H4 = z, L3 = c.l3, H3 = z, L2 = c.l2, H2 = z;
	__m256i L1 = c.l1, H1 = z, L0 = c.l0, H0 = z;
	__m256i f0, f1, f2, f3, f4;
	fe4 s;

	FE4_MAC(L8, H8, a.l4, b.l4);
	FE4_MAC(L7, H7, a.l3, b.l4);
	FE4_MAC(L7, H7, a.l4, b.l3);
	FE4_MAC(L6, H6, a.l2, b.l4);
	FE4_MAC(L6, H6, a.l3, b.l3);
	FE4_MAC(L6, H6, a.l4, b.l2);
	FE4_MAC(L5, H5, a.l1, b.l4);
	FE4_MAC(L5, H5, a.l2, b.l3);
	FE4_MAC(L5, H5, a.l3, b.l2);
	FE4_MAC(L5, H5, a.l4, b.l1);
	FE4_MAC(L4, H4, a.l0, b.l4);
	FE4_MAC(L4, H4, a.l1, b.l3);
	FE4_MAC(L4, H4, a.l2, b.l2);
	FE4_MAC(L4, H4, a.l3, b.l1);
	FE4_MAC(L4, H4, a.l4, b.l0);
	f4 = fe4_times19(_mm256_slli_epi64(H8, 1));
	f3 = fe4_times19(_mm256_add_epi64(L8, _mm256_slli_epi64(H7, 1)));
	f2 = fe4_times19(_mm256_add_epi64(L7, _mm256_slli_epi64(H6, 1)));
	f1 = fe4_times19(_mm256_add_epi64(L6, _mm256_slli_epi64(H5, 1)));
	f0 = fe4_times19(_mm256_add_epi64(L5, _mm256_slli_epi64(H4, 1)));
	FE4_MAC(L3, H3, a.l0, b.l3);
	FE4_MAC(L3, H3, a.l1, b.l2);
	FE4_MAC(L3, H3, a.l2, b.l1);
	FE4_MAC(L3, H3, a.l3, b.l0);
	FE4_MAC(L2, H2, a.l0, b.l2);
	FE4_MAC(L2, H2, a.l1, b.l1);
	FE4_MAC(L2, H2, a.l2, b.l0);
	FE4_MAC(L1, H1, a.l0, b.l1);
	FE4_MAC(L1, H1, a.l1, b.l0);
	FE4_MAC(L0, H0, a.l0, b.l0);
	s.l4 = _mm256_add_epi64(_mm256_add_epi64(L4, f4), _mm256_slli_epi64(H3, 1));
	s.l3 = _mm256_add_epi64(_mm256_add_epi64(L3, f3), _mm256_slli_epi64(H2, 1));
	s.l2 = _mm256_add_epi64(_mm256_add_epi64(L2, f2), _mm256_slli_epi64(H1, 1));
	s.l1 = _mm256_add_epi64(_mm256_add_epi64(L1, f1), _mm256_slli_epi64(H0, 1));
	s.l0 = _mm256_add_epi64(L0, f0);
	return s;
}

/* The same, carried (limbs below 2^51 + 2^15). */
IFMA_INLINE fe4 fe4_mul_add(fe4 a, fe4 b, fe4 c)
{
	return fe4_carry(fe4_mul_add_wide(a, b, c));
}

IFMA_INLINE fe4 fe4_mul_wide(fe4 a, fe4 b)
{
	return fe4_mul_add_wide(a, b, fe4_zero());
}

/* a * b lane by lane (limbs below 2^52), carried. */
IFMA_INLINE fe4 fe4_mul(fe4 a, fe4 b)
{
	return fe4_carry(fe4_mul_wide(a, b));
}

/*
 * 2^11 p limb by limb: subtracting a wide (uncarried, below 2^61) value
 * from it never goes negative.
 */
#define FE4_BIGP0 ((1ULL << 62) - (19ULL << 11))
#define FE4_BIGPI ((1ULL << 62) - (1ULL << 11))

/* The lanes selected by @neg become 2^11 p - a; a may be wide. */
IFMA_INLINE fe4 fe4_neg_lanes_wide(fe4 a, __mmask8 neg)
{
	const __m256i p0 = _mm256_set1_epi64x((long long)FE4_BIGP0);
	const __m256i pi = _mm256_set1_epi64x((long long)FE4_BIGPI);
	fe4 r;

	r.l0 = _mm256_mask_sub_epi64(a.l0, neg, p0, a.l0);
	r.l1 = _mm256_mask_sub_epi64(a.l1, neg, pi, a.l1);
	r.l2 = _mm256_mask_sub_epi64(a.l2, neg, pi, a.l2);
	r.l3 = _mm256_mask_sub_epi64(a.l3, neg, pi, a.l3);
	r.l4 = _mm256_mask_sub_epi64(a.l4, neg, pi, a.l4);
	return r;
}

/*
 * a^2 lane by lane (limbs below 2^52), not carried: the ten cross
 * products once, doubled (their high halves then count four times), the
 * high columns first as in fe4_mul_add_wide.
 */
IFMA_INLINE fe4 fe4_sq_wide(fe4 a)
{
	const __m256i z = _mm256_setzero_si256();
	__m256i SL8 = z, SH8 = z, XL7 = z, XH7 = z, SL6 = z, SH6 = z, XL6 = z, XH6 = z;
	__m256i XL5 = z, XH5 = z, SL4 = z, SH4 = z, XL4 = z, XH4 = z;
	__m256i XL3 = z, XH3 = z, SL2 = z, SH2 = z, XL2 = z, XH2 = z, XL1 = z, XH1 = z;
	__m256i SL0 = z, SH0 = z;
	__m256i f0, f1, f2, f3, f4;
	fe4 s;

#define SHL(x, n) _mm256_slli_epi64(x, n)
#define ADD(x, y) _mm256_add_epi64(x, y)
	FE4_MAC(SL8, SH8, a.l4, a.l4);
	FE4_MAC(XL7, XH7, a.l3, a.l4);
	FE4_MAC(SL6, SH6, a.l3, a.l3);
	FE4_MAC(XL6, XH6, a.l2, a.l4);
	FE4_MAC(XL5, XH5, a.l1, a.l4);
	FE4_MAC(XL5, XH5, a.l2, a.l3);
	FE4_MAC(SL4, SH4, a.l2, a.l2);
	FE4_MAC(XL4, XH4, a.l0, a.l4);
	FE4_MAC(XL4, XH4, a.l1, a.l3);
	f4 = fe4_times19(SHL(SH8, 1));
	f3 = fe4_times19(ADD(SL8, SHL(XH7, 2)));
	f2 = fe4_times19(ADD(ADD(SHL(SH6, 1), SHL(XL7, 1)), SHL(XH6, 2)));
	f1 = fe4_times19(ADD(ADD(SL6, SHL(XL6, 1)), SHL(XH5, 2)));
	f0 = fe4_times19(ADD(ADD(SHL(SH4, 1), SHL(XL5, 1)), SHL(XH4, 2)));
	FE4_MAC(XL3, XH3, a.l0, a.l3);
	FE4_MAC(XL3, XH3, a.l1, a.l2);
	FE4_MAC(SL2, SH2, a.l1, a.l1);
	FE4_MAC(XL2, XH2, a.l0, a.l2);
	FE4_MAC(XL1, XH1, a.l0, a.l1);
	FE4_MAC(SL0, SH0, a.l0, a.l0);
	s.l4 = ADD(ADD(ADD(SL4, SHL(XL4, 1)), SHL(XH3, 2)), f4);
	s.l3 = ADD(ADD(ADD(SHL(SH2, 1), SHL(XL3, 1)), SHL(XH2, 2)), f3);
	s.l2 = ADD(ADD(ADD(SL2, SHL(XL2, 1)), SHL(XH1, 2)), f2);
	s.l1 = ADD(ADD(SHL(SH0, 1), SHL(XL1, 1)), f1);
	s.l0 = ADD(SL0, f0);
#undef SHL
#undef ADD
	return s;
}

IFMA_INLINE fe4 fe4_sq(fe4 a)
{
	return fe4_carry(fe4_sq_wide(a));
}

/* The lanes selected by @neg become 2p - a, for a below 2p limb by limb (< 2^51 + 2^15). */
IFMA_INLINE fe4 fe4_neg_lanes_2p(fe4 a, __mmask8 neg)
{
	const __m256i p0 = _mm256_set1_epi64x((long long)((1ULL << 52) - 38));
	const __m256i pi = _mm256_set1_epi64x((long long)((1ULL << 52) - 2));
	fe4 r;

	r.l0 = _mm256_mask_sub_epi64(a.l0, neg, p0, a.l0);
	r.l1 = _mm256_mask_sub_epi64(a.l1, neg, pi, a.l1);
	r.l2 = _mm256_mask_sub_epi64(a.l2, neg, pi, a.l2);
	r.l3 = _mm256_mask_sub_epi64(a.l3, neg, pi, a.l3);
	r.l4 = _mm256_mask_sub_epi64(a.l4, neg, pi, a.l4);
	return r;
}

/* 2^12 p limb by limb (limbs just below 2^63). */
#define FE4_HUGEP0 ((1ULL << 63) - (19ULL << 12))
#define FE4_HUGEPI ((1ULL << 63) - (1ULL << 12))

/* 2^12 p - a for every lane, a below 2^63 - 2^17 limb by limb. */
IFMA_INLINE fe4 fe4_neg_huge(fe4 a)
{
	const __m256i p0 = _mm256_set1_epi64x((long long)FE4_HUGEP0);
	const __m256i pi = _mm256_set1_epi64x((long long)FE4_HUGEPI);
	fe4 r;

	r.l0 = _mm256_sub_epi64(p0, a.l0);
	r.l1 = _mm256_sub_epi64(pi, a.l1);
	r.l2 = _mm256_sub_epi64(pi, a.l2);
	r.l3 = _mm256_sub_epi64(pi, a.l3);
	r.l4 = _mm256_sub_epi64(pi, a.l4);
	return r;
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
