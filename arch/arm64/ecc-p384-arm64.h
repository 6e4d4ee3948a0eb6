/* SPDX-License-Identifier: MIT */
/*
 * The field arithmetic of P-384 for arm64 (ecc-p384-arm64.c, where the
 * method, the constant-time argument and the expected cost are given):
 * Montgomery multiplication modulo p = 2^384 - 2^128 - 2^96 + 2^32 - 1
 * with R = 2^384 (the generic algs/p384.c's representation, so points and
 * tables mean the same to both), addition and subtraction, in inline
 * assembly with MUL/UMULH/ADDS/ADCS.  Inputs and outputs are fully
 * reduced (below p), six little-endian 64-bit words.  A header so that
 * tests/test_ecdh.c can check it against OpenSSL's BIGNUM on the values
 * where its carries and corrections matter.
 */
#ifndef _RIND_ARM64_ECC_P384_ARM64_H
#define _RIND_ARM64_ECC_P384_ARM64_H

#include <rind/types.h>

/* p's words: (P0, P1, P2, P3, P3, P3) */
#define P384A_P0	0x00000000ffffffffull
#define P384A_P1	0xffffffff00000000ull
#define P384A_P2	0xfffffffffffffffeull
#define P384A_P3	0xffffffffffffffffull

#define P384A_A								\
	[a0] "r"(a[0]), [a1] "r"(a[1]), [a2] "r"(a[2]), [a3] "r"(a[3]),	\
	[a4] "r"(a[4]), [a5] "r"(a[5])
/* b by address, its six words read by the assembly (LDR/LDP) */
#define P384A_BM	[b] "r"(b), "m"(*(const u64 (*)[6])b)
#define P384A_C								\
	[p0] "r"(P384A_P0), [p1] "r"(P384A_P1), [p2] "r"(P384A_P2), [p3] "r"(P384A_P3)
#define P384A_U								\
	[u0] "=&r"(u0), [u1] "=&r"(u1), [u2] "=&r"(u2), [u3] "=&r"(u3),	\
	[u4] "=&r"(u4), [u5] "=&r"(u5)
#define P384A_STORE							\
	do {								\
		r[0] = u0;						\
		r[1] = u1;						\
		r[2] = u2;						\
		r[3] = u3;						\
		r[4] = u4;						\
		r[5] = u5;						\
	} while (0)

/*
 * r = a b / 2^384 mod p; r may be a or b.  Operand scanning over b's
 * words (loaded one by one): per word the six low halves of a b_i added
 * in one ADDS/ADCS chain and the six high halves in a second, then the
 * reduction step: q = W0 (-p^-1 mod 2^64 = 2^32 + 1, so one shifted ADD)
 * and W += q p in two chains again, p's top three words equal so q p's
 * words 3..5 are one MUL/UMULH pair; W0 is then zero and dropped (the
 * eight work registers rotate).  The value stays below 2p (6 words and a
 * bit) between rows, below 2^449 inside one; one conditional subtraction
 * (CSEL) at the end.
 */
static inline void p384a_mul(u64 *r, const u64 *a, const u64 *b)
{
	u64 u0, u1, u2, u3, u4, u5, t0, t1, t2, t3, t4, t5, t6, t7, q;

	__asm__(
		"mov	%[t0], xzr\n\t"
		"mov	%[t1], xzr\n\t"
		"mov	%[t2], xzr\n\t"
		"mov	%[t3], xzr\n\t"
		"mov	%[t4], xzr\n\t"
		"mov	%[t5], xzr\n\t"
		"mov	%[t6], xzr\n\t"
		/* row 0: + a b0, then q = W0 (2^32 + 1) and + q p, W0 dropped */
		"ldr	%[q], [%[b], #0]\n\t"
		"mul	%[u0], %[a0], %[q]\n\t"
		"mul	%[u1], %[a1], %[q]\n\t"
		"mul	%[u2], %[a2], %[q]\n\t"
		"mul	%[u3], %[a3], %[q]\n\t"
		"mul	%[u4], %[a4], %[q]\n\t"
		"mul	%[u5], %[a5], %[q]\n\t"
		"adds	%[t0], %[t0], %[u0]\n\t"
		"adcs	%[t1], %[t1], %[u1]\n\t"
		"adcs	%[t2], %[t2], %[u2]\n\t"
		"adcs	%[t3], %[t3], %[u3]\n\t"
		"adcs	%[t4], %[t4], %[u4]\n\t"
		"adcs	%[t5], %[t5], %[u5]\n\t"
		"adcs	%[t6], %[t6], xzr\n\t"
		"adc	%[t7], xzr, xzr\n\t"
		"umulh	%[u0], %[a0], %[q]\n\t"
		"umulh	%[u1], %[a1], %[q]\n\t"
		"umulh	%[u2], %[a2], %[q]\n\t"
		"umulh	%[u3], %[a3], %[q]\n\t"
		"umulh	%[u4], %[a4], %[q]\n\t"
		"umulh	%[u5], %[a5], %[q]\n\t"
		"adds	%[t1], %[t1], %[u0]\n\t"
		"adcs	%[t2], %[t2], %[u1]\n\t"
		"adcs	%[t3], %[t3], %[u2]\n\t"
		"adcs	%[t4], %[t4], %[u3]\n\t"
		"adcs	%[t5], %[t5], %[u4]\n\t"
		"adcs	%[t6], %[t6], %[u5]\n\t"
		"adc	%[t7], %[t7], xzr\n\t"
		"add	%[q], %[t0], %[t0], lsl #32\n\t"
		"mul	%[u0], %[q], %[p0]\n\t"
		"mul	%[u1], %[q], %[p1]\n\t"
		"mul	%[u2], %[q], %[p2]\n\t"
		"mul	%[u3], %[q], %[p3]\n\t"
		"adds	%[t0], %[t0], %[u0]\n\t"
		"adcs	%[t1], %[t1], %[u1]\n\t"
		"adcs	%[t2], %[t2], %[u2]\n\t"
		"adcs	%[t3], %[t3], %[u3]\n\t"
		"adcs	%[t4], %[t4], %[u3]\n\t"
		"adcs	%[t5], %[t5], %[u3]\n\t"
		"adcs	%[t6], %[t6], xzr\n\t"
		"adc	%[t7], %[t7], xzr\n\t"
		"umulh	%[u0], %[q], %[p0]\n\t"
		"umulh	%[u1], %[q], %[p1]\n\t"
		"umulh	%[u2], %[q], %[p2]\n\t"
		"umulh	%[u3], %[q], %[p3]\n\t"
		"adds	%[t1], %[t1], %[u0]\n\t"
		"adcs	%[t2], %[t2], %[u1]\n\t"
		"adcs	%[t3], %[t3], %[u2]\n\t"
		"adcs	%[t4], %[t4], %[u3]\n\t"
		"adcs	%[t5], %[t5], %[u3]\n\t"
		"adcs	%[t6], %[t6], %[u3]\n\t"
		"adc	%[t7], %[t7], xzr\n\t"
		/* row 1: + a b1, then q = W0 (2^32 + 1) and + q p, W0 dropped */
		"ldr	%[q], [%[b], #8]\n\t"
		"mul	%[u0], %[a0], %[q]\n\t"
		"mul	%[u1], %[a1], %[q]\n\t"
		"mul	%[u2], %[a2], %[q]\n\t"
		"mul	%[u3], %[a3], %[q]\n\t"
		"mul	%[u4], %[a4], %[q]\n\t"
		"mul	%[u5], %[a5], %[q]\n\t"
		"adds	%[t1], %[t1], %[u0]\n\t"
		"adcs	%[t2], %[t2], %[u1]\n\t"
		"adcs	%[t3], %[t3], %[u2]\n\t"
		"adcs	%[t4], %[t4], %[u3]\n\t"
		"adcs	%[t5], %[t5], %[u4]\n\t"
		"adcs	%[t6], %[t6], %[u5]\n\t"
		"adcs	%[t7], %[t7], xzr\n\t"
		"adc	%[t0], xzr, xzr\n\t"
		"umulh	%[u0], %[a0], %[q]\n\t"
		"umulh	%[u1], %[a1], %[q]\n\t"
		"umulh	%[u2], %[a2], %[q]\n\t"
		"umulh	%[u3], %[a3], %[q]\n\t"
		"umulh	%[u4], %[a4], %[q]\n\t"
		"umulh	%[u5], %[a5], %[q]\n\t"
		"adds	%[t2], %[t2], %[u0]\n\t"
		"adcs	%[t3], %[t3], %[u1]\n\t"
		"adcs	%[t4], %[t4], %[u2]\n\t"
		"adcs	%[t5], %[t5], %[u3]\n\t"
		"adcs	%[t6], %[t6], %[u4]\n\t"
		"adcs	%[t7], %[t7], %[u5]\n\t"
		"adc	%[t0], %[t0], xzr\n\t"
		"add	%[q], %[t1], %[t1], lsl #32\n\t"
		"mul	%[u0], %[q], %[p0]\n\t"
		"mul	%[u1], %[q], %[p1]\n\t"
		"mul	%[u2], %[q], %[p2]\n\t"
		"mul	%[u3], %[q], %[p3]\n\t"
		"adds	%[t1], %[t1], %[u0]\n\t"
		"adcs	%[t2], %[t2], %[u1]\n\t"
		"adcs	%[t3], %[t3], %[u2]\n\t"
		"adcs	%[t4], %[t4], %[u3]\n\t"
		"adcs	%[t5], %[t5], %[u3]\n\t"
		"adcs	%[t6], %[t6], %[u3]\n\t"
		"adcs	%[t7], %[t7], xzr\n\t"
		"adc	%[t0], %[t0], xzr\n\t"
		"umulh	%[u0], %[q], %[p0]\n\t"
		"umulh	%[u1], %[q], %[p1]\n\t"
		"umulh	%[u2], %[q], %[p2]\n\t"
		"umulh	%[u3], %[q], %[p3]\n\t"
		"adds	%[t2], %[t2], %[u0]\n\t"
		"adcs	%[t3], %[t3], %[u1]\n\t"
		"adcs	%[t4], %[t4], %[u2]\n\t"
		"adcs	%[t5], %[t5], %[u3]\n\t"
		"adcs	%[t6], %[t6], %[u3]\n\t"
		"adcs	%[t7], %[t7], %[u3]\n\t"
		"adc	%[t0], %[t0], xzr\n\t"
		/* row 2: + a b2, then q = W0 (2^32 + 1) and + q p, W0 dropped */
		"ldr	%[q], [%[b], #16]\n\t"
		"mul	%[u0], %[a0], %[q]\n\t"
		"mul	%[u1], %[a1], %[q]\n\t"
		"mul	%[u2], %[a2], %[q]\n\t"
		"mul	%[u3], %[a3], %[q]\n\t"
		"mul	%[u4], %[a4], %[q]\n\t"
		"mul	%[u5], %[a5], %[q]\n\t"
		"adds	%[t2], %[t2], %[u0]\n\t"
		"adcs	%[t3], %[t3], %[u1]\n\t"
		"adcs	%[t4], %[t4], %[u2]\n\t"
		"adcs	%[t5], %[t5], %[u3]\n\t"
		"adcs	%[t6], %[t6], %[u4]\n\t"
		"adcs	%[t7], %[t7], %[u5]\n\t"
		"adcs	%[t0], %[t0], xzr\n\t"
		"adc	%[t1], xzr, xzr\n\t"
		"umulh	%[u0], %[a0], %[q]\n\t"
		"umulh	%[u1], %[a1], %[q]\n\t"
		"umulh	%[u2], %[a2], %[q]\n\t"
		"umulh	%[u3], %[a3], %[q]\n\t"
		"umulh	%[u4], %[a4], %[q]\n\t"
		"umulh	%[u5], %[a5], %[q]\n\t"
		"adds	%[t3], %[t3], %[u0]\n\t"
		"adcs	%[t4], %[t4], %[u1]\n\t"
		"adcs	%[t5], %[t5], %[u2]\n\t"
		"adcs	%[t6], %[t6], %[u3]\n\t"
		"adcs	%[t7], %[t7], %[u4]\n\t"
		"adcs	%[t0], %[t0], %[u5]\n\t"
		"adc	%[t1], %[t1], xzr\n\t"
		"add	%[q], %[t2], %[t2], lsl #32\n\t"
		"mul	%[u0], %[q], %[p0]\n\t"
		"mul	%[u1], %[q], %[p1]\n\t"
		"mul	%[u2], %[q], %[p2]\n\t"
		"mul	%[u3], %[q], %[p3]\n\t"
		"adds	%[t2], %[t2], %[u0]\n\t"
		"adcs	%[t3], %[t3], %[u1]\n\t"
		"adcs	%[t4], %[t4], %[u2]\n\t"
		"adcs	%[t5], %[t5], %[u3]\n\t"
		"adcs	%[t6], %[t6], %[u3]\n\t"
		"adcs	%[t7], %[t7], %[u3]\n\t"
		"adcs	%[t0], %[t0], xzr\n\t"
		"adc	%[t1], %[t1], xzr\n\t"
		"umulh	%[u0], %[q], %[p0]\n\t"
		"umulh	%[u1], %[q], %[p1]\n\t"
		"umulh	%[u2], %[q], %[p2]\n\t"
		"umulh	%[u3], %[q], %[p3]\n\t"
		"adds	%[t3], %[t3], %[u0]\n\t"
		"adcs	%[t4], %[t4], %[u1]\n\t"
		"adcs	%[t5], %[t5], %[u2]\n\t"
		"adcs	%[t6], %[t6], %[u3]\n\t"
		"adcs	%[t7], %[t7], %[u3]\n\t"
		"adcs	%[t0], %[t0], %[u3]\n\t"
		"adc	%[t1], %[t1], xzr\n\t"
		/* row 3: + a b3, then q = W0 (2^32 + 1) and + q p, W0 dropped */
		"ldr	%[q], [%[b], #24]\n\t"
		"mul	%[u0], %[a0], %[q]\n\t"
		"mul	%[u1], %[a1], %[q]\n\t"
		"mul	%[u2], %[a2], %[q]\n\t"
		"mul	%[u3], %[a3], %[q]\n\t"
		"mul	%[u4], %[a4], %[q]\n\t"
		"mul	%[u5], %[a5], %[q]\n\t"
		"adds	%[t3], %[t3], %[u0]\n\t"
		"adcs	%[t4], %[t4], %[u1]\n\t"
		"adcs	%[t5], %[t5], %[u2]\n\t"
		"adcs	%[t6], %[t6], %[u3]\n\t"
		"adcs	%[t7], %[t7], %[u4]\n\t"
		"adcs	%[t0], %[t0], %[u5]\n\t"
		"adcs	%[t1], %[t1], xzr\n\t"
		"adc	%[t2], xzr, xzr\n\t"
		"umulh	%[u0], %[a0], %[q]\n\t"
		"umulh	%[u1], %[a1], %[q]\n\t"
		"umulh	%[u2], %[a2], %[q]\n\t"
		"umulh	%[u3], %[a3], %[q]\n\t"
		"umulh	%[u4], %[a4], %[q]\n\t"
		"umulh	%[u5], %[a5], %[q]\n\t"
		"adds	%[t4], %[t4], %[u0]\n\t"
		"adcs	%[t5], %[t5], %[u1]\n\t"
		"adcs	%[t6], %[t6], %[u2]\n\t"
		"adcs	%[t7], %[t7], %[u3]\n\t"
		"adcs	%[t0], %[t0], %[u4]\n\t"
		"adcs	%[t1], %[t1], %[u5]\n\t"
		"adc	%[t2], %[t2], xzr\n\t"
		"add	%[q], %[t3], %[t3], lsl #32\n\t"
		"mul	%[u0], %[q], %[p0]\n\t"
		"mul	%[u1], %[q], %[p1]\n\t"
		"mul	%[u2], %[q], %[p2]\n\t"
		"mul	%[u3], %[q], %[p3]\n\t"
		"adds	%[t3], %[t3], %[u0]\n\t"
		"adcs	%[t4], %[t4], %[u1]\n\t"
		"adcs	%[t5], %[t5], %[u2]\n\t"
		"adcs	%[t6], %[t6], %[u3]\n\t"
		"adcs	%[t7], %[t7], %[u3]\n\t"
		"adcs	%[t0], %[t0], %[u3]\n\t"
		"adcs	%[t1], %[t1], xzr\n\t"
		"adc	%[t2], %[t2], xzr\n\t"
		"umulh	%[u0], %[q], %[p0]\n\t"
		"umulh	%[u1], %[q], %[p1]\n\t"
		"umulh	%[u2], %[q], %[p2]\n\t"
		"umulh	%[u3], %[q], %[p3]\n\t"
		"adds	%[t4], %[t4], %[u0]\n\t"
		"adcs	%[t5], %[t5], %[u1]\n\t"
		"adcs	%[t6], %[t6], %[u2]\n\t"
		"adcs	%[t7], %[t7], %[u3]\n\t"
		"adcs	%[t0], %[t0], %[u3]\n\t"
		"adcs	%[t1], %[t1], %[u3]\n\t"
		"adc	%[t2], %[t2], xzr\n\t"
		/* row 4: + a b4, then q = W0 (2^32 + 1) and + q p, W0 dropped */
		"ldr	%[q], [%[b], #32]\n\t"
		"mul	%[u0], %[a0], %[q]\n\t"
		"mul	%[u1], %[a1], %[q]\n\t"
		"mul	%[u2], %[a2], %[q]\n\t"
		"mul	%[u3], %[a3], %[q]\n\t"
		"mul	%[u4], %[a4], %[q]\n\t"
		"mul	%[u5], %[a5], %[q]\n\t"
		"adds	%[t4], %[t4], %[u0]\n\t"
		"adcs	%[t5], %[t5], %[u1]\n\t"
		"adcs	%[t6], %[t6], %[u2]\n\t"
		"adcs	%[t7], %[t7], %[u3]\n\t"
		"adcs	%[t0], %[t0], %[u4]\n\t"
		"adcs	%[t1], %[t1], %[u5]\n\t"
		"adcs	%[t2], %[t2], xzr\n\t"
		"adc	%[t3], xzr, xzr\n\t"
		"umulh	%[u0], %[a0], %[q]\n\t"
		"umulh	%[u1], %[a1], %[q]\n\t"
		"umulh	%[u2], %[a2], %[q]\n\t"
		"umulh	%[u3], %[a3], %[q]\n\t"
		"umulh	%[u4], %[a4], %[q]\n\t"
		"umulh	%[u5], %[a5], %[q]\n\t"
		"adds	%[t5], %[t5], %[u0]\n\t"
		"adcs	%[t6], %[t6], %[u1]\n\t"
		"adcs	%[t7], %[t7], %[u2]\n\t"
		"adcs	%[t0], %[t0], %[u3]\n\t"
		"adcs	%[t1], %[t1], %[u4]\n\t"
		"adcs	%[t2], %[t2], %[u5]\n\t"
		"adc	%[t3], %[t3], xzr\n\t"
		"add	%[q], %[t4], %[t4], lsl #32\n\t"
		"mul	%[u0], %[q], %[p0]\n\t"
		"mul	%[u1], %[q], %[p1]\n\t"
		"mul	%[u2], %[q], %[p2]\n\t"
		"mul	%[u3], %[q], %[p3]\n\t"
		"adds	%[t4], %[t4], %[u0]\n\t"
		"adcs	%[t5], %[t5], %[u1]\n\t"
		"adcs	%[t6], %[t6], %[u2]\n\t"
		"adcs	%[t7], %[t7], %[u3]\n\t"
		"adcs	%[t0], %[t0], %[u3]\n\t"
		"adcs	%[t1], %[t1], %[u3]\n\t"
		"adcs	%[t2], %[t2], xzr\n\t"
		"adc	%[t3], %[t3], xzr\n\t"
		"umulh	%[u0], %[q], %[p0]\n\t"
		"umulh	%[u1], %[q], %[p1]\n\t"
		"umulh	%[u2], %[q], %[p2]\n\t"
		"umulh	%[u3], %[q], %[p3]\n\t"
		"adds	%[t5], %[t5], %[u0]\n\t"
		"adcs	%[t6], %[t6], %[u1]\n\t"
		"adcs	%[t7], %[t7], %[u2]\n\t"
		"adcs	%[t0], %[t0], %[u3]\n\t"
		"adcs	%[t1], %[t1], %[u3]\n\t"
		"adcs	%[t2], %[t2], %[u3]\n\t"
		"adc	%[t3], %[t3], xzr\n\t"
		/* row 5: + a b5, then q = W0 (2^32 + 1) and + q p, W0 dropped */
		"ldr	%[q], [%[b], #40]\n\t"
		"mul	%[u0], %[a0], %[q]\n\t"
		"mul	%[u1], %[a1], %[q]\n\t"
		"mul	%[u2], %[a2], %[q]\n\t"
		"mul	%[u3], %[a3], %[q]\n\t"
		"mul	%[u4], %[a4], %[q]\n\t"
		"mul	%[u5], %[a5], %[q]\n\t"
		"adds	%[t5], %[t5], %[u0]\n\t"
		"adcs	%[t6], %[t6], %[u1]\n\t"
		"adcs	%[t7], %[t7], %[u2]\n\t"
		"adcs	%[t0], %[t0], %[u3]\n\t"
		"adcs	%[t1], %[t1], %[u4]\n\t"
		"adcs	%[t2], %[t2], %[u5]\n\t"
		"adcs	%[t3], %[t3], xzr\n\t"
		"adc	%[t4], xzr, xzr\n\t"
		"umulh	%[u0], %[a0], %[q]\n\t"
		"umulh	%[u1], %[a1], %[q]\n\t"
		"umulh	%[u2], %[a2], %[q]\n\t"
		"umulh	%[u3], %[a3], %[q]\n\t"
		"umulh	%[u4], %[a4], %[q]\n\t"
		"umulh	%[u5], %[a5], %[q]\n\t"
		"adds	%[t6], %[t6], %[u0]\n\t"
		"adcs	%[t7], %[t7], %[u1]\n\t"
		"adcs	%[t0], %[t0], %[u2]\n\t"
		"adcs	%[t1], %[t1], %[u3]\n\t"
		"adcs	%[t2], %[t2], %[u4]\n\t"
		"adcs	%[t3], %[t3], %[u5]\n\t"
		"adc	%[t4], %[t4], xzr\n\t"
		"add	%[q], %[t5], %[t5], lsl #32\n\t"
		"mul	%[u0], %[q], %[p0]\n\t"
		"mul	%[u1], %[q], %[p1]\n\t"
		"mul	%[u2], %[q], %[p2]\n\t"
		"mul	%[u3], %[q], %[p3]\n\t"
		"adds	%[t5], %[t5], %[u0]\n\t"
		"adcs	%[t6], %[t6], %[u1]\n\t"
		"adcs	%[t7], %[t7], %[u2]\n\t"
		"adcs	%[t0], %[t0], %[u3]\n\t"
		"adcs	%[t1], %[t1], %[u3]\n\t"
		"adcs	%[t2], %[t2], %[u3]\n\t"
		"adcs	%[t3], %[t3], xzr\n\t"
		"adc	%[t4], %[t4], xzr\n\t"
		"umulh	%[u0], %[q], %[p0]\n\t"
		"umulh	%[u1], %[q], %[p1]\n\t"
		"umulh	%[u2], %[q], %[p2]\n\t"
		"umulh	%[u3], %[q], %[p3]\n\t"
		"adds	%[t6], %[t6], %[u0]\n\t"
		"adcs	%[t7], %[t7], %[u1]\n\t"
		"adcs	%[t0], %[t0], %[u2]\n\t"
		"adcs	%[t1], %[t1], %[u3]\n\t"
		"adcs	%[t2], %[t2], %[u3]\n\t"
		"adcs	%[t3], %[t3], %[u3]\n\t"
		"adc	%[t4], %[t4], xzr\n\t"
		/* below 2p: minus p unless that borrows */
		"subs	%[u0], %[t6], %[p0]\n\t"
		"sbcs	%[u1], %[t7], %[p1]\n\t"
		"sbcs	%[u2], %[t0], %[p2]\n\t"
		"sbcs	%[u3], %[t1], %[p3]\n\t"
		"sbcs	%[u4], %[t2], %[p3]\n\t"
		"sbcs	%[u5], %[t3], %[p3]\n\t"
		"sbcs	xzr, %[t4], xzr\n\t"
		"csel	%[u0], %[t6], %[u0], cc\n\t"
		"csel	%[u1], %[t7], %[u1], cc\n\t"
		"csel	%[u2], %[t0], %[u2], cc\n\t"
		"csel	%[u3], %[t1], %[u3], cc\n\t"
		"csel	%[u4], %[t2], %[u4], cc\n\t"
		"csel	%[u5], %[t3], %[u5], cc\n\t"
		: P384A_U, [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6), [t7] "=&r"(t7), [q] "=&r"(q)
		: P384A_A, P384A_BM, P384A_C
		: "cc");
	P384A_STORE;
}

/* r = a + b mod p (a, b < p) */
static inline void p384a_add(u64 *r, const u64 *a, const u64 *b)
{
	u64 u0, u1, u2, u3, u4, u5, t0, t1, t2, t3, t4, t5, t6;

	__asm__(
		"ldp	%[u0], %[u1], [%[b]]\n\t"
		"ldp	%[u2], %[u3], [%[b], #16]\n\t"
		"ldp	%[u4], %[u5], [%[b], #32]\n\t"
		"adds	%[t0], %[a0], %[u0]\n\t"
		"adcs	%[t1], %[a1], %[u1]\n\t"
		"adcs	%[t2], %[a2], %[u2]\n\t"
		"adcs	%[t3], %[a3], %[u3]\n\t"
		"adcs	%[t4], %[a4], %[u4]\n\t"
		"adcs	%[t5], %[a5], %[u5]\n\t"
		"adc	%[t6], xzr, xzr\n\t"
		/* below 2p: minus p unless that borrows */
		"subs	%[u0], %[t0], %[p0]\n\t"
		"sbcs	%[u1], %[t1], %[p1]\n\t"
		"sbcs	%[u2], %[t2], %[p2]\n\t"
		"sbcs	%[u3], %[t3], %[p3]\n\t"
		"sbcs	%[u4], %[t4], %[p3]\n\t"
		"sbcs	%[u5], %[t5], %[p3]\n\t"
		"sbcs	xzr, %[t6], xzr\n\t"
		"csel	%[u0], %[t0], %[u0], cc\n\t"
		"csel	%[u1], %[t1], %[u1], cc\n\t"
		"csel	%[u2], %[t2], %[u2], cc\n\t"
		"csel	%[u3], %[t3], %[u3], cc\n\t"
		"csel	%[u4], %[t4], %[u4], cc\n\t"
		"csel	%[u5], %[t5], %[u5], cc\n\t"
		: P384A_U, [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6)
		: P384A_A, P384A_BM, P384A_C
		: "cc");
	P384A_STORE;
}

/* r = a - b mod p (a, b < p): p added back, masked (CSETM), on a borrow */
static inline void p384a_sub(u64 *r, const u64 *a, const u64 *b)
{
	u64 u0, u1, u2, u3, u4, u5, t0, t1, t2, t3;

	__asm__(
		"ldp	%[u0], %[u1], [%[b]]\n\t"
		"ldp	%[u2], %[u3], [%[b], #16]\n\t"
		"ldp	%[u4], %[u5], [%[b], #32]\n\t"
		"subs	%[u0], %[a0], %[u0]\n\t"
		"sbcs	%[u1], %[a1], %[u1]\n\t"
		"sbcs	%[u2], %[a2], %[u2]\n\t"
		"sbcs	%[u3], %[a3], %[u3]\n\t"
		"sbcs	%[u4], %[a4], %[u4]\n\t"
		"sbcs	%[u5], %[a5], %[u5]\n\t"
		/* on a borrow, + p (masked) */
		"csetm	%[t0], cc\n\t"
		"and	%[t1], %[t0], %[p0]\n\t"
		"and	%[t2], %[t0], %[p1]\n\t"
		"and	%[t3], %[t0], %[p2]\n\t"
		"adds	%[u0], %[u0], %[t1]\n\t"
		"adcs	%[u1], %[u1], %[t2]\n\t"
		"adcs	%[u2], %[u2], %[t3]\n\t"
		"adcs	%[u3], %[u3], %[t0]\n\t"
		"adcs	%[u4], %[u4], %[t0]\n\t"
		"adc	%[u5], %[u5], %[t0]\n\t"
		: P384A_U, [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3)
		: P384A_A, P384A_BM, P384A_C
		: "cc");
	P384A_STORE;
}

#endif /* _RIND_ARM64_ECC_P384_ARM64_H */
