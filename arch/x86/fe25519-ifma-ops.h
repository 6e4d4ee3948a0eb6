/* SPDX-License-Identifier: MIT */
/*
 * The GF(2^255 - 19) lane arithmetic of fe25519-ifma.h, written once over
 * the vector width: included twice by that header, for "fe4" (one element
 * per lane of 256-bit vectors) and "fe8" (512-bit vectors: two groups of
 * four lanes, e.g. two points side by side; lane masks given for one group
 * of four apply to both).  The macros FEV, VT, FN, V, VSET1, VZERO, VAND
 * and KM name the type, the vector type, the function prefix, the
 * intrinsic prefix and the mask expansion.  No include guard, on purpose.
 */

/* Five named vectors rather than an array: GCC keeps them in registers. */
typedef struct {
	VT l0, l1, l2, l3, l4;
} FEV;

IFMA_INLINE VT FN(times19)(VT x)
{
	return V(add_epi64)(V(add_epi64)(V(slli_epi64)(x, 4), V(slli_epi64)(x, 1)), x);
}

/* One parallel carry pass: limbs below 2^51 + 19 * 2^13 for inputs below 2^64. */
IFMA_INLINE FEV FN(carry)(FEV a)
{
	const VT m = VSET1((long long)FE_MASK51);
	VT c0 = V(srli_epi64)(a.l0, 51);
	VT c1 = V(srli_epi64)(a.l1, 51);
	VT c2 = V(srli_epi64)(a.l2, 51);
	VT c3 = V(srli_epi64)(a.l3, 51);
	VT c4 = V(srli_epi64)(a.l4, 51);
	FEV r;

	r.l0 = V(add_epi64)(VAND(a.l0, m), FN(times19)(c4));
	r.l1 = V(add_epi64)(VAND(a.l1, m), c0);
	r.l2 = V(add_epi64)(VAND(a.l2, m), c1);
	r.l3 = V(add_epi64)(VAND(a.l3, m), c2);
	r.l4 = V(add_epi64)(VAND(a.l4, m), c3);
	return r;
}

IFMA_INLINE FEV FN(add)(FEV a, FEV b)
{
	return (FEV){ V(add_epi64)(a.l0, b.l0), V(add_epi64)(a.l1, b.l1), V(add_epi64)(a.l2, b.l2),
		      V(add_epi64)(a.l3, b.l3), V(add_epi64)(a.l4, b.l4) };
}

/* a + 4p - b */
IFMA_INLINE FEV FN(sub)(FEV a, FEV b)
{
	const VT p0 = VSET1((long long)FE_4P0);
	const VT pi = VSET1((long long)FE_4PI);
	FEV r;

	r.l0 = V(sub_epi64)(V(add_epi64)(a.l0, p0), b.l0);
	r.l1 = V(sub_epi64)(V(add_epi64)(a.l1, pi), b.l1);
	r.l2 = V(sub_epi64)(V(add_epi64)(a.l2, pi), b.l2);
	r.l3 = V(sub_epi64)(V(add_epi64)(a.l3, pi), b.l3);
	r.l4 = V(sub_epi64)(V(add_epi64)(a.l4, pi), b.l4);
	return r;
}

/*
 * The lanes selected by the 4-bit mask @neg (bit j: lane j) become
 * 4p - a, the others stay a.
 */
IFMA_INLINE FEV FN(neg_lanes)(FEV a, __mmask8 neg)
{
	const VT p0 = VSET1((long long)FE_4P0);
	const VT pi = VSET1((long long)FE_4PI);
	FEV r;

	r.l0 = V(mask_sub_epi64)(a.l0, KM(neg), p0, a.l0);
	r.l1 = V(mask_sub_epi64)(a.l1, KM(neg), pi, a.l1);
	r.l2 = V(mask_sub_epi64)(a.l2, KM(neg), pi, a.l2);
	r.l3 = V(mask_sub_epi64)(a.l3, KM(neg), pi, a.l3);
	r.l4 = V(mask_sub_epi64)(a.l4, KM(neg), pi, a.l4);
	return r;
}

/* (a, b, c, d) -> (b, a, d, c) in each group of four lanes */
IFMA_INLINE FEV FN(swap_pairs)(FEV a)
{
	return (FEV){ V(shuffle_epi32)(a.l0, 0x4e), V(shuffle_epi32)(a.l1, 0x4e),
		      V(shuffle_epi32)(a.l2, 0x4e), V(shuffle_epi32)(a.l3, 0x4e),
		      V(shuffle_epi32)(a.l4, 0x4e) };
}

/* Lanes of b where bit j of mask is set, of a elsewhere. */
IFMA_INLINE FEV FN(blend)(FEV a, FEV b, __mmask8 mask)
{
	FEV r;

	r.l0 = V(mask_blend_epi64)(KM(mask), a.l0, b.l0);
	r.l1 = V(mask_blend_epi64)(KM(mask), a.l1, b.l1);
	r.l2 = V(mask_blend_epi64)(KM(mask), a.l2, b.l2);
	r.l3 = V(mask_blend_epi64)(KM(mask), a.l3, b.l3);
	r.l4 = V(mask_blend_epi64)(KM(mask), a.l4, b.l4);
	return r;
}

IFMA_INLINE FEV FN(zero)(void)
{
	const VT z = VZERO();

	return (FEV){ z, z, z, z, z };
}

#define FE_MAC(lo, hi, x, y)							\
	do {									\
		lo = V(madd52lo_epu64)(lo, x, y);				\
		hi = V(madd52hi_epu64)(hi, x, y);				\
	} while (0)

/*
 * a * b + c lane by lane (limbs of a and b below 2^52, of c below 2^60),
 * not carried: limbs below 2^61.  Column k of the product is
 * L_k + 2 H_(k-1), with L_k and H_k the sums of the low and high halves
 * of the products a_i b_j with i + j = k; columns 5..9 fold into 0..4
 * times 19.  The high columns are formed first, so that their folding is
 * done by the time the low columns complete.
 */
IFMA_INLINE FEV FN(mul_add_wide)(FEV a, FEV b, FEV c)
{
	const VT z = VZERO();
	VT L8 = z, H8 = z, L7 = z, H7 = z, L6 = z, H6 = z, L5 = z, H5 = z;
	VT L4 = c.l4, H4 = z, L3 = c.l3, H3 = z, L2 = c.l2, H2 = z;
	VT L1 = c.l1, H1 = z, L0 = c.l0, H0 = z;
	VT f0, f1, f2, f3, f4;
	FEV s;

	FE_MAC(L8, H8, a.l4, b.l4);
	FE_MAC(L7, H7, a.l3, b.l4);
	FE_MAC(L7, H7, a.l4, b.l3);
	FE_MAC(L6, H6, a.l2, b.l4);
	FE_MAC(L6, H6, a.l3, b.l3);
	FE_MAC(L6, H6, a.l4, b.l2);
	FE_MAC(L5, H5, a.l1, b.l4);
	FE_MAC(L5, H5, a.l2, b.l3);
	FE_MAC(L5, H5, a.l3, b.l2);
	FE_MAC(L5, H5, a.l4, b.l1);
	FE_MAC(L4, H4, a.l0, b.l4);
	FE_MAC(L4, H4, a.l1, b.l3);
	FE_MAC(L4, H4, a.l2, b.l2);
	FE_MAC(L4, H4, a.l3, b.l1);
	FE_MAC(L4, H4, a.l4, b.l0);
	f4 = FN(times19)(V(slli_epi64)(H8, 1));
	f3 = FN(times19)(V(add_epi64)(L8, V(slli_epi64)(H7, 1)));
	f2 = FN(times19)(V(add_epi64)(L7, V(slli_epi64)(H6, 1)));
	f1 = FN(times19)(V(add_epi64)(L6, V(slli_epi64)(H5, 1)));
	f0 = FN(times19)(V(add_epi64)(L5, V(slli_epi64)(H4, 1)));
	FE_MAC(L3, H3, a.l0, b.l3);
	FE_MAC(L3, H3, a.l1, b.l2);
	FE_MAC(L3, H3, a.l2, b.l1);
	FE_MAC(L3, H3, a.l3, b.l0);
	FE_MAC(L2, H2, a.l0, b.l2);
	FE_MAC(L2, H2, a.l1, b.l1);
	FE_MAC(L2, H2, a.l2, b.l0);
	FE_MAC(L1, H1, a.l0, b.l1);
	FE_MAC(L1, H1, a.l1, b.l0);
	FE_MAC(L0, H0, a.l0, b.l0);
	s.l4 = V(add_epi64)(V(add_epi64)(L4, f4), V(slli_epi64)(H3, 1));
	s.l3 = V(add_epi64)(V(add_epi64)(L3, f3), V(slli_epi64)(H2, 1));
	s.l2 = V(add_epi64)(V(add_epi64)(L2, f2), V(slli_epi64)(H1, 1));
	s.l1 = V(add_epi64)(V(add_epi64)(L1, f1), V(slli_epi64)(H0, 1));
	s.l0 = V(add_epi64)(L0, f0);
	return s;
}

/* The same, carried (limbs below 2^51 + 2^15). */
IFMA_INLINE FEV FN(mul_add)(FEV a, FEV b, FEV c)
{
	return FN(carry)(FN(mul_add_wide)(a, b, c));
}

IFMA_INLINE FEV FN(mul_wide)(FEV a, FEV b)
{
	return FN(mul_add_wide)(a, b, FN(zero)());
}

/* a * b lane by lane (limbs below 2^52), carried. */
IFMA_INLINE FEV FN(mul)(FEV a, FEV b)
{
	return FN(carry)(FN(mul_wide)(a, b));
}

/*
 * 2^11 p limb by limb: subtracting a wide (uncarried, below 2^61) value
 * from it never goes negative.
 */

/* The lanes selected by @neg become 2^11 p - a; a may be wide. */
IFMA_INLINE FEV FN(neg_lanes_wide)(FEV a, __mmask8 neg)
{
	const VT p0 = VSET1((long long)FE_BIGP0);
	const VT pi = VSET1((long long)FE_BIGPI);
	FEV r;

	r.l0 = V(mask_sub_epi64)(a.l0, KM(neg), p0, a.l0);
	r.l1 = V(mask_sub_epi64)(a.l1, KM(neg), pi, a.l1);
	r.l2 = V(mask_sub_epi64)(a.l2, KM(neg), pi, a.l2);
	r.l3 = V(mask_sub_epi64)(a.l3, KM(neg), pi, a.l3);
	r.l4 = V(mask_sub_epi64)(a.l4, KM(neg), pi, a.l4);
	return r;
}

/*
 * a^2 lane by lane (limbs below 2^52), not carried: the ten cross
 * products once, doubled (their high halves then count four times), the
 * high columns first as in fe4_mul_add_wide.
 */
IFMA_INLINE FEV FN(sq_wide)(FEV a)
{
	const VT z = VZERO();
	VT SL8 = z, SH8 = z, XL7 = z, XH7 = z, SL6 = z, SH6 = z, XL6 = z, XH6 = z;
	VT XL5 = z, XH5 = z, SL4 = z, SH4 = z, XL4 = z, XH4 = z;
	VT XL3 = z, XH3 = z, SL2 = z, SH2 = z, XL2 = z, XH2 = z, XL1 = z, XH1 = z;
	VT SL0 = z, SH0 = z;
	VT f0, f1, f2, f3, f4;
	FEV s;

#define SHL(x, n) V(slli_epi64)(x, n)
#define ADD(x, y) V(add_epi64)(x, y)
	FE_MAC(SL8, SH8, a.l4, a.l4);
	FE_MAC(XL7, XH7, a.l3, a.l4);
	FE_MAC(SL6, SH6, a.l3, a.l3);
	FE_MAC(XL6, XH6, a.l2, a.l4);
	FE_MAC(XL5, XH5, a.l1, a.l4);
	FE_MAC(XL5, XH5, a.l2, a.l3);
	FE_MAC(SL4, SH4, a.l2, a.l2);
	FE_MAC(XL4, XH4, a.l0, a.l4);
	FE_MAC(XL4, XH4, a.l1, a.l3);
	f4 = FN(times19)(SHL(SH8, 1));
	f3 = FN(times19)(ADD(SL8, SHL(XH7, 2)));
	f2 = FN(times19)(ADD(ADD(SHL(SH6, 1), SHL(XL7, 1)), SHL(XH6, 2)));
	f1 = FN(times19)(ADD(ADD(SL6, SHL(XL6, 1)), SHL(XH5, 2)));
	f0 = FN(times19)(ADD(ADD(SHL(SH4, 1), SHL(XL5, 1)), SHL(XH4, 2)));
	FE_MAC(XL3, XH3, a.l0, a.l3);
	FE_MAC(XL3, XH3, a.l1, a.l2);
	FE_MAC(SL2, SH2, a.l1, a.l1);
	FE_MAC(XL2, XH2, a.l0, a.l2);
	FE_MAC(XL1, XH1, a.l0, a.l1);
	FE_MAC(SL0, SH0, a.l0, a.l0);
	s.l4 = ADD(ADD(ADD(SL4, SHL(XL4, 1)), SHL(XH3, 2)), f4);
	s.l3 = ADD(ADD(ADD(SHL(SH2, 1), SHL(XL3, 1)), SHL(XH2, 2)), f3);
	s.l2 = ADD(ADD(ADD(SL2, SHL(XL2, 1)), SHL(XH1, 2)), f2);
	s.l1 = ADD(ADD(SHL(SH0, 1), SHL(XL1, 1)), f1);
	s.l0 = ADD(SL0, f0);
#undef SHL
#undef ADD
	return s;
}

IFMA_INLINE FEV FN(sq)(FEV a)
{
	return FN(carry)(FN(sq_wide)(a));
}

/* The lanes selected by @neg become 2p - a, for a below 2p limb by limb (< 2^51 + 2^15). */
IFMA_INLINE FEV FN(neg_lanes_2p)(FEV a, __mmask8 neg)
{
	const VT p0 = VSET1((long long)((1ULL << 52) - 38));
	const VT pi = VSET1((long long)((1ULL << 52) - 2));
	FEV r;

	r.l0 = V(mask_sub_epi64)(a.l0, KM(neg), p0, a.l0);
	r.l1 = V(mask_sub_epi64)(a.l1, KM(neg), pi, a.l1);
	r.l2 = V(mask_sub_epi64)(a.l2, KM(neg), pi, a.l2);
	r.l3 = V(mask_sub_epi64)(a.l3, KM(neg), pi, a.l3);
	r.l4 = V(mask_sub_epi64)(a.l4, KM(neg), pi, a.l4);
	return r;
}

/* 2^12 p limb by limb (limbs just below 2^63). */

/* 2^12 p - a for every lane, a below 2^63 - 2^17 limb by limb. */
IFMA_INLINE FEV FN(neg_huge)(FEV a)
{
	const VT p0 = VSET1((long long)FE_HUGEP0);
	const VT pi = VSET1((long long)FE_HUGEPI);
	FEV r;

	r.l0 = V(sub_epi64)(p0, a.l0);
	r.l1 = V(sub_epi64)(pi, a.l1);
	r.l2 = V(sub_epi64)(pi, a.l2);
	r.l3 = V(sub_epi64)(pi, a.l3);
	r.l4 = V(sub_epi64)(pi, a.l4);
	return r;
}

