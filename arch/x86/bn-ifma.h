/* SPDX-License-Identifier: MIT */
/*
 * Montgomery arithmetic with AVX-512 IFMA (arch/x86/bn-ifma.c) on two
 * moduli at once, for the RSA engine of arch/x86/rsa-ifma.c: the CRT
 * halves p and q of one key side by side in each zmm register, p's
 * digits in the even lanes and q's in the odd ones.
 *
 * The x2 layout: a number of each half has @nl 52-bit digits, 20, 32 or
 * 40 for halves of 16, 24 or 32 64-bit limbs (RSA-2048/3072/4096); it
 * takes nr = nl / 4 registers (rounded up), 8 words each.  Word 8 k + 2 j
 * holds digit 4 k + j of the first half, word 8 k + 2 j + 1 digit 4 k + j
 * of the second (k < nr, j < 4: bni_word()).  Interleaved rather than a
 * half in each 256-bit half so that a shift of both halves by one digit
 * is one VALIGNQ and a digit broadcast one VSHUFI64X2 (bn-ifma.c).  In
 * memory a number is that register image, 64-byte aligned (struct
 * bni_num).  R' = 2^(52 nl), 2^16, 2^24 or 2^32 above
 * the halves' R = 2^(64 n).  1536-bit halves take 30 digits in 8
 * registers, the last one's digits 30 and 31 zero (in every number: the
 * AMM's values are below 2 m < 2^(52 30)); the kernel runs 30 rows, not
 * the 32 of whole registers (on Zen 4, 6% less time at that size).
 *
 * Values are "almost" reduced: a, b < 2 m in, a b / R' + m < 2 m out as
 * long as 4 m < R', which every size here has (16 bits or more to spare),
 * so no subtraction is needed between products; bni_unpack_reduce() does
 * the one conditional subtraction at the end, by mask.  Digits are always
 * below 2^52 between products (VPMADD52 reads only the low 52 bits of a
 * multiplicand).  Constant time in every operand.
 */
#ifndef _RIND_BN_IFMA_H
#define _RIND_BN_IFMA_H

#include <stdbool.h>
#include <rind/types.h>
#include <crypto/bignum.h>
#include <crypto/rsa.h>

#define BNI_MAX_REGS	10
#define BNI_WORDS	(8 * BNI_MAX_REGS)

/* One number in the x2 layout (the register image). */
struct bni_num {
	u64 w[BNI_WORDS];
} __attribute__((aligned(64)));

/* The two moduli and their constants in the x2 layout. */
struct bni_mont2 {
	unsigned int n;			/* 64-bit limbs of each half: 16, 24, 32 */
	unsigned int nl;		/* 52-bit digits of each half: 20, 30, 40 */
	unsigned int nr;		/* registers a number: 5, 8, 10 */
	const struct bn_mont *mc[2];	/* the halves' own (64-bit limbs) */
	struct bni_num m;		/* the moduli */
	struct bni_num rr;		/* R'^2 / R mod m: x R -> x R' (bni_amm(x, rr)) */
	struct bni_num one;		/* R mod m: x R' -> x R (bni_amm(x, one)) */
	u64 k0[8] __attribute__((aligned(64)));	/* -m^-1 mod 2^52, even and odd lanes */
};

/*
 * 52-bit digits of a number of 64-bit limbs (both layouts, bn-ifma.c and
 * bn-ifma-mb.c): digit @j of the @n-limb @a (0 above it), and @v (a digit
 * below 2^52) ORed in as digit @j of @t (room for the limb above).  The
 * positions are public.
 */
static inline u64 bni_digit(const u64 *a, unsigned int n, unsigned int j)
{
	unsigned int bit = 52 * j, w = bit / 64, s = bit % 64;
	u64 v;

	if (w >= n)
		return 0;
	v = a[w] >> s;
	if (s > 12 && w + 1 < n)
		v |= a[w + 1] << (64 - s);
	return v & ((((u64)1) << 52) - 1);
}

static inline void bni_put_digit(u64 *t, unsigned int j, u64 v)
{
	unsigned int bit = 52 * j, w = bit / 64, s = bit % 64;

	t[w] |= v << s;
	if (s > 12)
		t[w + 1] |= v >> (64 - s);
}

/* The word of digit @digit of half @half (0: the first, p) in the x2 layout. */
static inline unsigned int bni_word(unsigned int digit, unsigned int half)
{
	return 8 * (digit / 4) + 2 * (digit % 4) + half;
}

/*
 * The carry into each digit of a number whose digits are at most
 * 2^52 + 2^8 (bni_amm's last step), from G, the digits above 2^52 - 1,
 * which carry one out, and P, those equal to it, which pass a carry on:
 * bit 8 k + l of each is lane l of register k, so the first half's
 * digits are the even bits and the second's the odd ones.  Each half is
 * one addition over all the registers' bits, as in an adder,
 * ((G << 1) + P) ^ P: the other half's bits, in between, are set in P
 * and clear in G, so a carry passes over them to the next digit of its
 * own half and none starts there.  The bits above the top digit (the
 * carries out of it) are not defined.  No branch or table on the bits.
 */
typedef unsigned __int128 bni_u128;

#define BNI_EVEN_BITS	((((bni_u128)0x5555555555555555) << 64) | 0x5555555555555555)

static inline bni_u128 bni_carry_in(bni_u128 g, bni_u128 p)
{
	const bni_u128 even = BNI_EVEN_BITS, odd = ~BNI_EVEN_BITS;
	bni_u128 g1 = g & even, p1 = (p & even) | odd, g2 = g & odd, p2 = (p & odd) | even;

	return ((((g1 << 1) + p1) ^ p1) & even) | ((((g2 << 1) + p2) ^ p2) & odd);
}

/* The 64-bit limb counts of the halves served (RSA-2048/3072/4096). */
static inline bool bni_fits(unsigned int n)
{
	return n == 16 || n == 24 || n == 32;
}

/* Two moduli of the same bni_fits() size into @c (their bn_mont constants converted). */
void bni_mont2_init(struct bni_mont2 *c, const struct bn_mont *m1, const struct bn_mont *m2);

/* @x = the n-limb a1 (first half), a2 (second half) as digits (a1, a2 < 2^(64 n)). */
void bni_pack(struct bni_num *x, const u64 *a1, const u64 *a2, const struct bni_mont2 *c);

/*
 * r1, r2 (n limbs each) = the halves of @x (each below 2 m, digits below
 * 2^52) reduced below their m: one subtraction of m, kept by mask.
 */
void bni_unpack_reduce(u64 *r1, u64 *r2, const struct bni_num *x, const struct bni_mont2 *c);

/*
 * r = a b / R' of each half (AMM): a, b < 2 m in, r < 2 m out, digits
 * below 2^52.  r may alias a or b.
 */
void bni_amm(struct bni_num *r, const struct bni_num *a, const struct bni_num *b,
	     const struct bni_mont2 *c);
/* @k >= 0 squarings in a row: r = a^(2^k) / R'^(2^k - 1) of each half; r may alias a. */
void bni_amm_sqrk(struct bni_num *r, const struct bni_num *a, unsigned int k,
		  const struct bni_mont2 *c);

/*
 * r = table[i1] in the first half and table[i2] in the second, @cnt
 * entries of c->nr registers each, every entry read and the wanted one
 * kept by mask (i1, i2 secret, below @cnt).
 */
void bni_select(struct bni_num *r, const struct bni_num *table, unsigned int cnt,
		u64 i1, u64 i2, const struct bni_mont2 *c);

/*
 * Both halves' exponentiations (rsa.h: exp_ct's contract for each): r1 =
 * a1^e1 mod m1, r2 = a2^e2 mod m2, Montgomery forms for R = 2^(64 n) in
 * and out, e1 and e2 secret of @en limbs each; the moduli of one
 * bni_fits() size.  r1 may alias a1, r2 a2.  rsa-ifma.c.
 */
void bni_exp_ct2(u64 *r1, const u64 *a1, const u64 *e1, const struct bn_mont *mc1,
		 u64 *r2, const u64 *a2, const u64 *e2, const struct bn_mont *mc2,
		 unsigned int en);

/*
 * Both halves' exponentiations by the public @e (rsa.h: exp_vt2): r1 =
 * a1^e mod m1, r2 = a2^e mod m2, Montgomery forms for R = 2^(64 n) in
 * and out, below the moduli; the moduli of one bni_fits() size.  r1 may
 * alias a1, r2 a2.  rsa-ifma.c.
 */
void bni_exp_vt2(u64 *r1, const u64 *a1, const struct bn_mont *mc1,
		 u64 *r2, const u64 *a2, const struct bn_mont *mc2, u64 e);

/* The engine (rsa-ifma.c), registered only where AVX512F and AVX512IFMA are. */
extern const struct rsa_engine rsa_engine_ifma;

#endif /* _RIND_BN_IFMA_H */
