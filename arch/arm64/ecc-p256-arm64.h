/* SPDX-License-Identifier: MIT */
/*
 * The field arithmetic of P-256 for arm64 (ecc-p256-arm64.c, where the
 * method, the constant-time argument and the expected cost are given):
 * Montgomery multiplication and squaring modulo
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1 with R = 2^256, addition and
 * subtraction, in inline assembly with MUL/UMULH/ADDS/ADCS.  Inputs and
 * outputs are fully reduced (below p), four little-endian 64-bit words.
 * A header so that tests/test_ecdh.c can check it against a bignum
 * library on the values where its carries and corrections matter.
 */
#ifndef _RIND_ARM64_ECC_P256_ARM64_H
#define _RIND_ARM64_ECC_P256_ARM64_H

#include <rind/types.h>

#define P256A_P1	0x00000000ffffffffull	/* p = (2^64 - 1, P1, 0, K) */
#define P256A_K		0xffffffff00000001ull

/*
 * One Montgomery reduction step on the six words T0..T5: q = T0,
 * (T0..T5) += q p, which clears T0 (the word is then dropped: the caller
 * renames T1..T5, T0 as the next row's T0..T5).  Scratch u0..u3.
 */
#define P256A_RED(T0, T1, T2, T3, T4, T5)				\
	"lsl	%[u0], %[" T0 "], #32\n\t"				\
	"lsr	%[u1], %[" T0 "], #32\n\t"				\
	"mul	%[u2], %[" T0 "], %[k]\n\t"				\
	"umulh	%[u3], %[" T0 "], %[k]\n\t"				\
	"adds	%[" T1 "], %[" T1 "], %[u0]\n\t"			\
	"adcs	%[" T2 "], %[" T2 "], %[u1]\n\t"			\
	"adcs	%[" T3 "], %[" T3 "], %[u2]\n\t"			\
	"adcs	%[" T4 "], %[" T4 "], %[u3]\n\t"			\
	"adc	%[" T5 "], %[" T5 "], xzr\n\t"

/*
 * (T0..T4, T5) += a * B: the low halves of a_j B at T0..T3, the high
 * halves at T1..T4; T5 (free on entry) takes the carries.  Before the row
 * the value is below 2p < 2^257 (T4 <= 1), after it below 2^321.
 */
#define P256A_ROW(B, T0, T1, T2, T3, T4, T5)				\
	"mul	%[u0], %[a0], %[" B "]\n\t"				\
	"mul	%[u1], %[a1], %[" B "]\n\t"				\
	"mul	%[u2], %[a2], %[" B "]\n\t"				\
	"mul	%[u3], %[a3], %[" B "]\n\t"				\
	"adds	%[" T0 "], %[" T0 "], %[u0]\n\t"			\
	"adcs	%[" T1 "], %[" T1 "], %[u1]\n\t"			\
	"adcs	%[" T2 "], %[" T2 "], %[u2]\n\t"			\
	"adcs	%[" T3 "], %[" T3 "], %[u3]\n\t"			\
	"adcs	%[" T4 "], %[" T4 "], xzr\n\t"				\
	"adc	%[" T5 "], xzr, xzr\n\t"				\
	"umulh	%[u0], %[a0], %[" B "]\n\t"				\
	"umulh	%[u1], %[a1], %[" B "]\n\t"				\
	"umulh	%[u2], %[a2], %[" B "]\n\t"				\
	"umulh	%[u3], %[a3], %[" B "]\n\t"				\
	"adds	%[" T1 "], %[" T1 "], %[u0]\n\t"			\
	"adcs	%[" T2 "], %[" T2 "], %[u1]\n\t"			\
	"adcs	%[" T3 "], %[" T3 "], %[u2]\n\t"			\
	"adcs	%[" T4 "], %[" T4 "], %[u3]\n\t"			\
	"adc	%[" T5 "], %[" T5 "], xzr\n\t"

/*
 * (X0..X3) + TOP 2^256 < 2p: minus p unless that borrows, into r0..r3.
 * X0 - (2^64 - 1) is computed as X0 + 1, whose carry is the subtraction's
 * "no borrow" (only X0 = 2^64 - 1 does not borrow).  Scratch u0..u3.
 */
#define P256A_FINAL(X0, X1, X2, X3, TOP)				\
	"adds	%[u0], %[" X0 "], #1\n\t"				\
	"sbcs	%[u1], %[" X1 "], %[p1]\n\t"				\
	"sbcs	%[u2], %[" X2 "], xzr\n\t"				\
	"sbcs	%[u3], %[" X3 "], %[k]\n\t"				\
	"sbcs	xzr, %[" TOP "], xzr\n\t"				\
	"csel	%[r0], %[" X0 "], %[u0], cc\n\t"			\
	"csel	%[r1], %[" X1 "], %[u1], cc\n\t"			\
	"csel	%[r2], %[" X2 "], %[u2], cc\n\t"			\
	"csel	%[r3], %[" X3 "], %[u3], cc\n\t"

#define P256A_OUT							\
	[r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3),	\
	[u0] "=&r"(u0), [u1] "=&r"(u1), [u2] "=&r"(u2), [u3] "=&r"(u3)
#define P256A_A								\
	[a0] "r"(a[0]), [a1] "r"(a[1]), [a2] "r"(a[2]), [a3] "r"(a[3])
#define P256A_C		[p1] "r"(P256A_P1), [k] "r"(P256A_K)

#define P256A_STORE							\
	do {								\
		r[0] = r0;						\
		r[1] = r1;						\
		r[2] = r2;						\
		r[3] = r3;						\
	} while (0)

/* r = a b / 2^256 mod p; r may be a or b */
static inline void p256a_mul(u64 *r, const u64 *a, const u64 *b)
{
	u64 r0, r1, r2, r3, u0, u1, u2, u3, t0, t1, t2, t3, t4, t5;

	__asm__(
		/* row 0: t0..t4 = a b0 */
		"mul	%[t0], %[a0], %[b0]\n\t"
		"mul	%[t1], %[a1], %[b0]\n\t"
		"mul	%[t2], %[a2], %[b0]\n\t"
		"mul	%[t3], %[a3], %[b0]\n\t"
		"umulh	%[u0], %[a0], %[b0]\n\t"
		"umulh	%[u1], %[a1], %[b0]\n\t"
		"umulh	%[u2], %[a2], %[b0]\n\t"
		"umulh	%[u3], %[a3], %[b0]\n\t"
		"adds	%[t1], %[t1], %[u0]\n\t"
		"adcs	%[t2], %[t2], %[u1]\n\t"
		"adcs	%[t3], %[t3], %[u2]\n\t"
		"adc	%[t4], %[u3], xzr\n\t"
		"mov	%[t5], xzr\n\t"
		P256A_RED("t0", "t1", "t2", "t3", "t4", "t5")
		P256A_ROW("b1", "t1", "t2", "t3", "t4", "t5", "t0")
		P256A_RED("t1", "t2", "t3", "t4", "t5", "t0")
		P256A_ROW("b2", "t2", "t3", "t4", "t5", "t0", "t1")
		P256A_RED("t2", "t3", "t4", "t5", "t0", "t1")
		P256A_ROW("b3", "t3", "t4", "t5", "t0", "t1", "t2")
		P256A_RED("t3", "t4", "t5", "t0", "t1", "t2")
		P256A_FINAL("t4", "t5", "t0", "t1", "t2")
		: P256A_OUT, [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4), [t5] "=&r"(t5)
		: P256A_A, [b0] "r"(b[0]), [b1] "r"(b[1]), [b2] "r"(b[2]), [b3] "r"(b[3]), P256A_C
		: "cc");
	P256A_STORE;
}

/*
 * Low-half reduction step of the squaring: q = T0; (T1, T2, T3) += the
 * words of q p above 2^64, and T0 becomes the word above T3 (below 2^64:
 * q K + T3 + carry < 2^128).
 */
#define P256A_REDL(T0, T1, T2, T3)					\
	"lsl	%[u0], %[" T0 "], #32\n\t"				\
	"lsr	%[u1], %[" T0 "], #32\n\t"				\
	"mul	%[u2], %[" T0 "], %[k]\n\t"				\
	"umulh	%[u3], %[" T0 "], %[k]\n\t"				\
	"adds	%[" T1 "], %[" T1 "], %[u0]\n\t"			\
	"adcs	%[" T2 "], %[" T2 "], %[u1]\n\t"			\
	"adcs	%[" T3 "], %[" T3 "], %[u2]\n\t"			\
	"adc	%[" T0 "], %[u3], xzr\n\t"

/*
 * r = a^2 / 2^256 mod p: the six cross products doubled plus the four
 * squares (the full 512-bit square in t0..t7), the low half reduced into
 * the words above it (below p after four steps), then the high half
 * added: below 2p, reduced by P256A_FINAL.
 */
static inline void p256a_sqr(u64 *r, const u64 *a)
{
	u64 r0, r1, r2, r3, u0, u1, u2, u3, t0, t1, t2, t3, t4, t5, t6, t7;

	__asm__(
		/* a0 * (a1, a2, a3) into t1..t4 */
		"mul	%[t1], %[a0], %[a1]\n\t"
		"mul	%[t2], %[a0], %[a2]\n\t"
		"mul	%[t3], %[a0], %[a3]\n\t"
		"umulh	%[u0], %[a0], %[a1]\n\t"
		"umulh	%[u1], %[a0], %[a2]\n\t"
		"umulh	%[t4], %[a0], %[a3]\n\t"
		"adds	%[t2], %[t2], %[u0]\n\t"
		"adcs	%[t3], %[t3], %[u1]\n\t"
		"adc	%[t4], %[t4], xzr\n\t"
		/* a1 * (a2, a3) into t3..t5 */
		"mul	%[u0], %[a1], %[a2]\n\t"
		"mul	%[u1], %[a1], %[a3]\n\t"
		"umulh	%[u2], %[a1], %[a2]\n\t"
		"umulh	%[u3], %[a1], %[a3]\n\t"
		"adds	%[t3], %[t3], %[u0]\n\t"
		"adcs	%[t4], %[t4], %[u1]\n\t"
		"adc	%[t5], xzr, xzr\n\t"
		"adds	%[t4], %[t4], %[u2]\n\t"
		"adc	%[t5], %[t5], %[u3]\n\t"
		/* a2 * a3 into t5..t6 */
		"mul	%[u0], %[a2], %[a3]\n\t"
		"umulh	%[t6], %[a2], %[a3]\n\t"
		"adds	%[t5], %[t5], %[u0]\n\t"
		"adc	%[t6], %[t6], xzr\n\t"
		/* doubled, the top bit into t7 */
		"adds	%[t1], %[t1], %[t1]\n\t"
		"adcs	%[t2], %[t2], %[t2]\n\t"
		"adcs	%[t3], %[t3], %[t3]\n\t"
		"adcs	%[t4], %[t4], %[t4]\n\t"
		"adcs	%[t5], %[t5], %[t5]\n\t"
		"adcs	%[t6], %[t6], %[t6]\n\t"
		"adc	%[t7], xzr, xzr\n\t"
		/* plus the squares a_i^2 at words 2i, 2i + 1 */
		"mul	%[t0], %[a0], %[a0]\n\t"
		"umulh	%[u0], %[a0], %[a0]\n\t"
		"mul	%[u1], %[a1], %[a1]\n\t"
		"umulh	%[u2], %[a1], %[a1]\n\t"
		"adds	%[t1], %[t1], %[u0]\n\t"
		"adcs	%[t2], %[t2], %[u1]\n\t"
		"adcs	%[t3], %[t3], %[u2]\n\t"
		"mul	%[u0], %[a2], %[a2]\n\t"
		"umulh	%[u1], %[a2], %[a2]\n\t"
		"mul	%[u2], %[a3], %[a3]\n\t"
		"umulh	%[u3], %[a3], %[a3]\n\t"
		"adcs	%[t4], %[t4], %[u0]\n\t"
		"adcs	%[t5], %[t5], %[u1]\n\t"
		"adcs	%[t6], %[t6], %[u2]\n\t"
		"adc	%[t7], %[t7], %[u3]\n\t"
		/* the low half reduced: t0..t3 become words 4..7 */
		P256A_REDL("t0", "t1", "t2", "t3")
		P256A_REDL("t1", "t2", "t3", "t0")
		P256A_REDL("t2", "t3", "t0", "t1")
		P256A_REDL("t3", "t0", "t1", "t2")
		/* plus the high half */
		"adds	%[t0], %[t0], %[t4]\n\t"
		"adcs	%[t1], %[t1], %[t5]\n\t"
		"adcs	%[t2], %[t2], %[t6]\n\t"
		"adcs	%[t3], %[t3], %[t7]\n\t"
		"adc	%[t4], xzr, xzr\n\t"
		P256A_FINAL("t0", "t1", "t2", "t3", "t4")
		: P256A_OUT, [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6), [t7] "=&r"(t7)
		: P256A_A, P256A_C
		: "cc");
	P256A_STORE;
}

/* r = a + b mod p (a, b < p) */
static inline void p256a_add(u64 *r, const u64 *a, const u64 *b)
{
	u64 r0, r1, r2, r3, u0, u1, u2, u3, t0, t1, t2, t3, t4;

	__asm__(
		"adds	%[t0], %[a0], %[b0]\n\t"
		"adcs	%[t1], %[a1], %[b1]\n\t"
		"adcs	%[t2], %[a2], %[b2]\n\t"
		"adcs	%[t3], %[a3], %[b3]\n\t"
		"adc	%[t4], xzr, xzr\n\t"
		P256A_FINAL("t0", "t1", "t2", "t3", "t4")
		: P256A_OUT, [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4)
		: P256A_A, [b0] "r"(b[0]), [b1] "r"(b[1]), [b2] "r"(b[2]), [b3] "r"(b[3]), P256A_C
		: "cc");
	P256A_STORE;
}

/* r = a - b mod p (a, b < p): p added back, masked, on a borrow */
static inline void p256a_sub(u64 *r, const u64 *a, const u64 *b)
{
	u64 r0, r1, r2, r3, u0, u1, u3;

	__asm__(
		"subs	%[r0], %[a0], %[b0]\n\t"
		"sbcs	%[r1], %[a1], %[b1]\n\t"
		"sbcs	%[r2], %[a2], %[b2]\n\t"
		"sbcs	%[r3], %[a3], %[b3]\n\t"
		"csetm	%[u0], cc\n\t"
		"and	%[u1], %[u0], %[p1]\n\t"
		"and	%[u3], %[u0], %[k]\n\t"
		"adds	%[r0], %[r0], %[u0]\n\t"
		"adcs	%[r1], %[r1], %[u1]\n\t"
		"adcs	%[r2], %[r2], xzr\n\t"
		"adc	%[r3], %[r3], %[u3]\n\t"
		: [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3),
		  [u0] "=&r"(u0), [u1] "=&r"(u1), [u3] "=&r"(u3)
		: P256A_A, [b0] "r"(b[0]), [b1] "r"(b[1]), [b2] "r"(b[2]), [b3] "r"(b[3]), P256A_C
		: "cc");
	P256A_STORE;
}

#endif /* _RIND_ARM64_ECC_P256_ARM64_H */
