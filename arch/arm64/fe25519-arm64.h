/* SPDX-License-Identifier: MIT */
/*
 * Arithmetic in GF(2^255 - 19) for arm64: four 64-bit limbs, radix 2^64,
 * the products with MUL/UMULH and the carry chains with ADDS/ADCS
 * (SUBS/SBCS), in inline assembly.  The interface is that of
 * api/include/crypto/fe25519.h, so the curve code
 * (api/include/crypto/ed25519-impl.h) and the X25519 ladder run unchanged
 * over it, as they do over arch/x86/fe25519-mulx.h.  Base A64 only: no
 * extension is needed.
 *
 * Why 4 x 64 with MUL/UMULH rather than the portable 5 x 51: a full
 * 64 x 64 -> 128 product costs two multiply instructions on arm64 (MUL
 * for the low half, UMULH for the high half), so a radix-2^64
 * multiplication is 16 MUL + 16 UMULH against 25 + 25 for five limbs, and
 * the reduction by 38 needs 8 more instead of 5 x 19 with shifts and
 * masks; the price is the serial carry chains, which ADDS/ADCS carry in
 * the flags at one instruction per limb.  This is the form the fast
 * arm64 field code uses.  It is written as inline assembly rather than C
 * over unsigned __int128 because gcc and clang rebuild the carries of
 * 128-bit additions with CSET/CINC (two or three instructions per limb)
 * instead of keeping them in the carry flag.
 *
 * The element type, byte conversion, masked moves, the inversion and the
 * exponent chains are <crypto/fe25519-64.h>, shared with x86-64; this is
 * the arithmetic.  Elements are kept below 2^256 but not reduced below p;
 * only fe_tobytes produces the canonical value.  Products are reduced with
 * 2^256 = 38 (mod p): the high four limbs are multiplied by 38 and added
 * to the low four, and what carries out past 2^256 is folded the same
 * way.
 *
 * Constant time: MUL, UMULH, ADDS/ADCS, SUBS/SBCS and CSEL are
 * data-independent in timing under PSTATE.DIT (Arm ARM, "DIT"), and on
 * the Neoverse and Apple cores regardless; a carry is folded by a CSEL of
 * 38 or 0, never by a branch, and no address depends on a value.
 *
 * Expected cost, an estimate (no arm64 hardware here; assumed figures:
 * 64-bit MUL latency about 4 cycles and UMULH about 5 with at most one
 * multiply issued per cycle on Neoverse N1, lower latency and two or more
 * multipliers on V1 and Apple cores): fe_mul is 41 multiply instructions
 * (16 MUL + 16 UMULH, 9 in the reduction) and ~75 in all, about 45
 * cycles on N1, multiply-bound; fe_sq 29 multiplies, about 32 cycles.
 */
#ifndef _RIND_ARM64_FE25519_ARM64_H
#define _RIND_ARM64_FE25519_ARM64_H

#include <rind/types.h>
#include <rind/internal/util.h>
#include <crypto/fe25519-64.h>

/*
 * h = f + g.  A carry out of 2^256 is worth 38; adding it can carry once
 * more, and then the value is below 2 * 38, so the last 38 lands in limb
 * 0 without a carry.
 */
static inline void fe_add(fe *h, const fe *f, const fe *g)
{
	u64 h0, h1, h2, h3, t;

	__asm__(
		"adds	%[h0], %[f0], %[g0]\n\t"
		"adcs	%[h1], %[f1], %[g1]\n\t"
		"adcs	%[h2], %[f2], %[g2]\n\t"
		"adcs	%[h3], %[f3], %[g3]\n\t"
		"csel	%[t], %[c38], xzr, cs\n\t"
		"adds	%[h0], %[h0], %[t]\n\t"
		"adcs	%[h1], %[h1], xzr\n\t"
		"adcs	%[h2], %[h2], xzr\n\t"
		"adcs	%[h3], %[h3], xzr\n\t"
		"csel	%[t], %[c38], xzr, cs\n\t"
		"add	%[h0], %[h0], %[t]\n\t"
		: [h0] "=&r"(h0), [h1] "=&r"(h1), [h2] "=&r"(h2), [h3] "=&r"(h3), [t] "=&r"(t)
		: [f0] "r"(f->v[0]), [f1] "r"(f->v[1]), [f2] "r"(f->v[2]), [f3] "r"(f->v[3]),
		  [g0] "r"(g->v[0]), [g1] "r"(g->v[1]), [g2] "r"(g->v[2]), [g3] "r"(g->v[3]),
		  [c38] "r"(38ull)
		: "cc");
	h->v[0] = h0;
	h->v[1] = h1;
	h->v[2] = h2;
	h->v[3] = h3;
}

/*
 * h = f - g.  A borrow (carry flag clear on arm64) is 2^256 too much
 * taken, which is 38 to take off; if that borrows again the value is at
 * least 2^256 - 38, so the last 38 comes off limb 0 without a borrow.
 */
static inline void fe_sub(fe *h, const fe *f, const fe *g)
{
	u64 h0, h1, h2, h3, t;

	__asm__(
		"subs	%[h0], %[f0], %[g0]\n\t"
		"sbcs	%[h1], %[f1], %[g1]\n\t"
		"sbcs	%[h2], %[f2], %[g2]\n\t"
		"sbcs	%[h3], %[f3], %[g3]\n\t"
		"csel	%[t], %[c38], xzr, cc\n\t"
		"subs	%[h0], %[h0], %[t]\n\t"
		"sbcs	%[h1], %[h1], xzr\n\t"
		"sbcs	%[h2], %[h2], xzr\n\t"
		"sbcs	%[h3], %[h3], xzr\n\t"
		"csel	%[t], %[c38], xzr, cc\n\t"
		"sub	%[h0], %[h0], %[t]\n\t"
		: [h0] "=&r"(h0), [h1] "=&r"(h1), [h2] "=&r"(h2), [h3] "=&r"(h3), [t] "=&r"(t)
		: [f0] "r"(f->v[0]), [f1] "r"(f->v[1]), [f2] "r"(f->v[2]), [f3] "r"(f->v[3]),
		  [g0] "r"(g->v[0]), [g1] "r"(g->v[1]), [g2] "r"(g->v[2]), [g3] "r"(g->v[3]),
		  [c38] "r"(38ull)
		: "cc");
	h->v[0] = h0;
	h->v[1] = h1;
	h->v[2] = h2;
	h->v[3] = h3;
}

static inline void fe_neg(fe *h, const fe *f)
{
	fe z;

	fe_0(&z);
	fe_sub(h, &z, f);
}

/*
 * The reduction of the eight limbs r0..r7 (r0 lowest) to four in r0..r3:
 * r0..r3 + 38 * r4..r7 (the low halves at limbs 0..3, the high halves at
 * 1..4, so the fifth limb is below 2^6 + 2), then that limb times 38,
 * then a last carry folded as in fe_add.  Scratch: t0..t3; r4..r7 are
 * overwritten.
 */
#define FE_REDUCE_8							\
	"mul	%[t0], %[r4], %[c38]\n\t"				\
	"mul	%[t1], %[r5], %[c38]\n\t"				\
	"mul	%[t2], %[r6], %[c38]\n\t"				\
	"mul	%[t3], %[r7], %[c38]\n\t"				\
	"umulh	%[r4], %[r4], %[c38]\n\t"				\
	"umulh	%[r5], %[r5], %[c38]\n\t"				\
	"umulh	%[r6], %[r6], %[c38]\n\t"				\
	"umulh	%[r7], %[r7], %[c38]\n\t"				\
	"adds	%[r0], %[r0], %[t0]\n\t"				\
	"adcs	%[r1], %[r1], %[t1]\n\t"				\
	"adcs	%[r2], %[r2], %[t2]\n\t"				\
	"adcs	%[r3], %[r3], %[t3]\n\t"				\
	"adc	%[r7], %[r7], xzr\n\t"					\
	"adds	%[r1], %[r1], %[r4]\n\t"				\
	"adcs	%[r2], %[r2], %[r5]\n\t"				\
	"adcs	%[r3], %[r3], %[r6]\n\t"				\
	"adc	%[r7], %[r7], xzr\n\t"					\
	"mul	%[r7], %[r7], %[c38]\n\t"				\
	"adds	%[r0], %[r0], %[r7]\n\t"				\
	"adcs	%[r1], %[r1], xzr\n\t"					\
	"adcs	%[r2], %[r2], xzr\n\t"					\
	"adcs	%[r3], %[r3], xzr\n\t"					\
	"csel	%[t0], %[c38], xzr, cs\n\t"				\
	"add	%[r0], %[r0], %[t0]\n\t"

#define FE_WIDE_OUTPUTS								\
	[r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3),	\
	[r4] "=&r"(r4), [r5] "=&r"(r5), [r6] "=&r"(r6), [r7] "=&r"(r7),	\
	[t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3)

/*
 * h = f * g, schoolbook by rows: row i is f * g_i, its low halves added at
 * limbs i..i+3 and its high halves at i+1..i+4.  Before row i the sum
 * fits in limbs 0..i+3, after it in 0..i+4, so the top limb of a row
 * takes the carry without producing one (ADC, not ADCS).
 */
static inline void fe_mul(fe *h, const fe *f, const fe *g)
{
	u64 r0, r1, r2, r3, r4, r5, r6, r7, t0, t1, t2, t3;

	__asm__(
		/* row 0 */
		"mul	%[r0], %[f0], %[g0]\n\t"
		"mul	%[r1], %[f1], %[g0]\n\t"
		"mul	%[r2], %[f2], %[g0]\n\t"
		"mul	%[r3], %[f3], %[g0]\n\t"
		"umulh	%[t0], %[f0], %[g0]\n\t"
		"umulh	%[t1], %[f1], %[g0]\n\t"
		"umulh	%[t2], %[f2], %[g0]\n\t"
		"umulh	%[t3], %[f3], %[g0]\n\t"
		"adds	%[r1], %[r1], %[t0]\n\t"
		"adcs	%[r2], %[r2], %[t1]\n\t"
		"adcs	%[r3], %[r3], %[t2]\n\t"
		"adc	%[r4], %[t3], xzr\n\t"
		/* row 1 */
		"mul	%[t0], %[f0], %[g1]\n\t"
		"mul	%[t1], %[f1], %[g1]\n\t"
		"mul	%[t2], %[f2], %[g1]\n\t"
		"mul	%[t3], %[f3], %[g1]\n\t"
		"adds	%[r1], %[r1], %[t0]\n\t"
		"adcs	%[r2], %[r2], %[t1]\n\t"
		"adcs	%[r3], %[r3], %[t2]\n\t"
		"adcs	%[r4], %[r4], %[t3]\n\t"
		"adc	%[r5], xzr, xzr\n\t"
		"umulh	%[t0], %[f0], %[g1]\n\t"
		"umulh	%[t1], %[f1], %[g1]\n\t"
		"umulh	%[t2], %[f2], %[g1]\n\t"
		"umulh	%[t3], %[f3], %[g1]\n\t"
		"adds	%[r2], %[r2], %[t0]\n\t"
		"adcs	%[r3], %[r3], %[t1]\n\t"
		"adcs	%[r4], %[r4], %[t2]\n\t"
		"adc	%[r5], %[r5], %[t3]\n\t"
		/* row 2 */
		"mul	%[t0], %[f0], %[g2]\n\t"
		"mul	%[t1], %[f1], %[g2]\n\t"
		"mul	%[t2], %[f2], %[g2]\n\t"
		"mul	%[t3], %[f3], %[g2]\n\t"
		"adds	%[r2], %[r2], %[t0]\n\t"
		"adcs	%[r3], %[r3], %[t1]\n\t"
		"adcs	%[r4], %[r4], %[t2]\n\t"
		"adcs	%[r5], %[r5], %[t3]\n\t"
		"adc	%[r6], xzr, xzr\n\t"
		"umulh	%[t0], %[f0], %[g2]\n\t"
		"umulh	%[t1], %[f1], %[g2]\n\t"
		"umulh	%[t2], %[f2], %[g2]\n\t"
		"umulh	%[t3], %[f3], %[g2]\n\t"
		"adds	%[r3], %[r3], %[t0]\n\t"
		"adcs	%[r4], %[r4], %[t1]\n\t"
		"adcs	%[r5], %[r5], %[t2]\n\t"
		"adc	%[r6], %[r6], %[t3]\n\t"
		/* row 3 */
		"mul	%[t0], %[f0], %[g3]\n\t"
		"mul	%[t1], %[f1], %[g3]\n\t"
		"mul	%[t2], %[f2], %[g3]\n\t"
		"mul	%[t3], %[f3], %[g3]\n\t"
		"adds	%[r3], %[r3], %[t0]\n\t"
		"adcs	%[r4], %[r4], %[t1]\n\t"
		"adcs	%[r5], %[r5], %[t2]\n\t"
		"adcs	%[r6], %[r6], %[t3]\n\t"
		"adc	%[r7], xzr, xzr\n\t"
		"umulh	%[t0], %[f0], %[g3]\n\t"
		"umulh	%[t1], %[f1], %[g3]\n\t"
		"umulh	%[t2], %[f2], %[g3]\n\t"
		"umulh	%[t3], %[f3], %[g3]\n\t"
		"adds	%[r4], %[r4], %[t0]\n\t"
		"adcs	%[r5], %[r5], %[t1]\n\t"
		"adcs	%[r6], %[r6], %[t2]\n\t"
		"adc	%[r7], %[r7], %[t3]\n\t"
		FE_REDUCE_8
		: FE_WIDE_OUTPUTS
		: [f0] "r"(f->v[0]), [f1] "r"(f->v[1]), [f2] "r"(f->v[2]), [f3] "r"(f->v[3]),
		  [g0] "r"(g->v[0]), [g1] "r"(g->v[1]), [g2] "r"(g->v[2]), [g3] "r"(g->v[3]),
		  [c38] "r"(38ull)
		: "cc");
	h->v[0] = r0;
	h->v[1] = r1;
	h->v[2] = r2;
	h->v[3] = r3;
}

/*
 * h = f^2: the six cross products f_i f_j (i < j) once, doubled, plus the
 * four squares f_i^2 at limb 2i: 20 multiplications instead of 32.
 */
static inline void fe_sq(fe *h, const fe *f)
{
	u64 r0, r1, r2, r3, r4, r5, r6, r7, t0, t1, t2, t3;

	__asm__(
		/* f0 * (f1, f2, f3) into r1..r4 */
		"mul	%[r1], %[f0], %[f1]\n\t"
		"mul	%[r2], %[f0], %[f2]\n\t"
		"mul	%[r3], %[f0], %[f3]\n\t"
		"umulh	%[t0], %[f0], %[f1]\n\t"
		"umulh	%[t1], %[f0], %[f2]\n\t"
		"umulh	%[r4], %[f0], %[f3]\n\t"
		"adds	%[r2], %[r2], %[t0]\n\t"
		"adcs	%[r3], %[r3], %[t1]\n\t"
		"adc	%[r4], %[r4], xzr\n\t"
		/* f1 * (f2, f3) into r3..r5 */
		"mul	%[t0], %[f1], %[f2]\n\t"
		"mul	%[t1], %[f1], %[f3]\n\t"
		"umulh	%[t2], %[f1], %[f2]\n\t"
		"umulh	%[t3], %[f1], %[f3]\n\t"
		"adds	%[r3], %[r3], %[t0]\n\t"
		"adcs	%[r4], %[r4], %[t1]\n\t"
		"adc	%[r5], xzr, xzr\n\t"
		"adds	%[r4], %[r4], %[t2]\n\t"
		"adc	%[r5], %[r5], %[t3]\n\t"
		/* f2 * f3 into r5..r6 */
		"mul	%[t0], %[f2], %[f3]\n\t"
		"umulh	%[r6], %[f2], %[f3]\n\t"
		"adds	%[r5], %[r5], %[t0]\n\t"
		"adc	%[r6], %[r6], xzr\n\t"
		/* doubled, the top bit into r7 */
		"adds	%[r1], %[r1], %[r1]\n\t"
		"adcs	%[r2], %[r2], %[r2]\n\t"
		"adcs	%[r3], %[r3], %[r3]\n\t"
		"adcs	%[r4], %[r4], %[r4]\n\t"
		"adcs	%[r5], %[r5], %[r5]\n\t"
		"adcs	%[r6], %[r6], %[r6]\n\t"
		"adc	%[r7], xzr, xzr\n\t"
		/* plus the squares f_i^2 at limbs 2i, 2i + 1 */
		"mul	%[r0], %[f0], %[f0]\n\t"
		"umulh	%[t0], %[f0], %[f0]\n\t"
		"mul	%[t1], %[f1], %[f1]\n\t"
		"umulh	%[t2], %[f1], %[f1]\n\t"
		"adds	%[r1], %[r1], %[t0]\n\t"
		"adcs	%[r2], %[r2], %[t1]\n\t"
		"adcs	%[r3], %[r3], %[t2]\n\t"
		"mul	%[t0], %[f2], %[f2]\n\t"
		"umulh	%[t1], %[f2], %[f2]\n\t"
		"mul	%[t2], %[f3], %[f3]\n\t"
		"umulh	%[t3], %[f3], %[f3]\n\t"
		"adcs	%[r4], %[r4], %[t0]\n\t"
		"adcs	%[r5], %[r5], %[t1]\n\t"
		"adcs	%[r6], %[r6], %[t2]\n\t"
		"adc	%[r7], %[r7], %[t3]\n\t"
		FE_REDUCE_8
		: FE_WIDE_OUTPUTS
		: [f0] "r"(f->v[0]), [f1] "r"(f->v[1]), [f2] "r"(f->v[2]), [f3] "r"(f->v[3]),
		  [c38] "r"(38ull)
		: "cc");
	h->v[0] = r0;
	h->v[1] = r1;
	h->v[2] = r2;
	h->v[3] = r3;
}

/*
 * h = f^(2^n), n >= 1.  Out of line, as in api/include/crypto/fe25519.h:
 * one copy of the loop rather than one per run of squarings in the
 * exponent chains of <crypto/fe25519-64.h>.
 */
static __attribute__((noinline, unused)) void fe_sqn(fe *h, const fe *f, int n)
{
	fe_sq(h, f);
	while (--n > 0)
		fe_sq(h, h);
}

/* h = f * c for a constant c < 2^32: the fifth limb is below 2^32. */
static inline void fe_mul_small(fe *h, const fe *f, u32 c)
{
	u64 h0, h1, h2, h3, t0, t1, t2, t3;

	__asm__(
		"mul	%[h0], %[f0], %[c]\n\t"
		"mul	%[h1], %[f1], %[c]\n\t"
		"mul	%[h2], %[f2], %[c]\n\t"
		"mul	%[h3], %[f3], %[c]\n\t"
		"umulh	%[t0], %[f0], %[c]\n\t"
		"umulh	%[t1], %[f1], %[c]\n\t"
		"umulh	%[t2], %[f2], %[c]\n\t"
		"umulh	%[t3], %[f3], %[c]\n\t"
		"adds	%[h1], %[h1], %[t0]\n\t"
		"adcs	%[h2], %[h2], %[t1]\n\t"
		"adcs	%[h3], %[h3], %[t2]\n\t"
		"adc	%[t3], %[t3], xzr\n\t"
		"mul	%[t3], %[t3], %[c38]\n\t"
		"adds	%[h0], %[h0], %[t3]\n\t"
		"adcs	%[h1], %[h1], xzr\n\t"
		"adcs	%[h2], %[h2], xzr\n\t"
		"adcs	%[h3], %[h3], xzr\n\t"
		"csel	%[t0], %[c38], xzr, cs\n\t"
		"add	%[h0], %[h0], %[t0]\n\t"
		: [h0] "=&r"(h0), [h1] "=&r"(h1), [h2] "=&r"(h2), [h3] "=&r"(h3),
		  [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3)
		: [f0] "r"(f->v[0]), [f1] "r"(f->v[1]), [f2] "r"(f->v[2]), [f3] "r"(f->v[3]),
		  [c] "r"((u64)c), [c38] "r"(38ull)
		: "cc");
	h->v[0] = h0;
	h->v[1] = h1;
	h->v[2] = h2;
	h->v[3] = h3;
}

#endif /* _RIND_ARM64_FE25519_ARM64_H */
