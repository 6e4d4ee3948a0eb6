// SPDX-License-Identifier: MIT
/*
 * P-384 for x86-64 with MULX/ADCX/ADOX: the "ecdh-nist-p384-adx" kpp and
 * "ecdsa-nist-p384-adx" sig drivers.
 * Requires: BMI2 (MULX) and ADX (ADCX, ADOX).
 *
 * The point and scalar arithmetic of the curve template (<crypto/ecc-impl.h>,
 * hooks in <crypto/ecc.h>: complete formulas, signed windows, the
 * fixed-base table, constant time for secret scalars; verification
 * variable time) over the field operations below in inline assembly:
 * Montgomery multiplication with R = 2^384 as interleaved CIOS, each row
 * product a * b[i] in two carry chains (ADCX for the low halves, ADOX for
 * the high ones), so that the six MULX of a row do not wait on one
 * another's carries.  Modulo p each reduction word comes from p's form
 * (-p^-1 = 2^32 + 1 mod 2^64, p = 2^384 - c with c of three words): q c
 * by shifts and subtractions, no MULX, four single-cycle instructions
 * from one word to the next (P384X_PRED); modulo the group order n
 * (signing and verification scalars) it is the general step; both moduli
 * have their three top words all ones, which the final correction uses.
 * A dedicated squaring (fifteen cross products, the low half reduced on
 * its own the same way, then the high half added).  Additions,
 * subtractions and halving with a masked correction; masked table reads
 * with AVX2; the inversion in the half-delta divsteps form (15 batches).
 * ECDH's k P runs over an affine table (ecc-mul-affine.h: one inversion,
 * mixed additions; 2-5% faster).  The point doubling and the mixed
 * addition are the template's formulas with their products reordered so
 * that independent ones are adjacent (the product is bound by throughput
 * but its reduction's chain is long: a neighbour's multiplications fill
 * it; the doubling 772 -> 664 cycles, the mixed addition 975 -> 896,
 * rdtsc minima) and the linear steps fused (3M, a - 2b in one pass
 * each).  Where a formula subtracts from a product or a square, the
 * reduction is shared: the doubling's Y' = M (S - X') - (4Y^2)^2 / 2 and
 * the mixed addition's Y3 = R (V - X3) - Y1 H^3 as two unreduced products
 * and one reduction (p384x_dbl_y, p384x_mulsub), X' = M^2 - 2S and X3 =
 * R^2 - H^3 - 2V as the square's reduction with the subtractions before
 * its one final correction (p384x_sqr_sub2/3): the doubling 654 -> 614,
 * the mixed addition 870 -> 836, ECDH 5-7% (same process, rdtsc).
 *
 * Measured on an AMD EPYC (Zen 3), rdtsc, same process as aws-lc 5.5
 * (s2n-bignum's bignum_montmul_p384 / montsqr / montinv and its ECDH and
 * verification; bench/probes/p384-peer.c), the machine loaded: the
 * product at aws-lc's speed (87-90 TSC), the squaring 5-9% faster (75-79
 * against 82-83), the inversion 7.1k (aws-lc 5.3k), a point doubling
 * 614-622 against p384_montjdouble's 681 (1.10x), k P 338k against
 * p384_montjscalarmul's 397k (1.17x), an ECDH (k P and the checks)
 * 349k against aws-lc's 410k (1.17-1.18x, minima and medians; 1.12x
 * before the shared reductions).  The product is bound by throughput
 * (about 280 instructions, 36 of them MULX; two independent ones take
 * 1.7 times one), its six reduction steps a third of it (56 TSC without
 * them against 91); in ECDH (perf, before the shared reductions) the
 * product took 47% of the time, the squaring 31%, the point formulas'
 * linear steps 10%, the two inversions 4%, the window loop and the table
 * reads 4%, the kpp glue under 1%.
 * Every element is kept fully reduced; no branch and no memory index
 * depends on data.  The protocol glue (key formats, checks, RFC 6979
 * nonces) is the generic drivers'.
 *
 * The inline assembly avoids rbp (frame pointer in sanitizer builds):
 * three pointers, eight work registers and rax, rcx, rdx; the moduli are
 * memory operands.
 */
#include <string.h>
#include <rind/types.h>
#include <rind/internal/alg.h>
#include <rind/internal/kpp.h>
#include <rind/internal/sig.h>
#include <rind/internal/util.h>
#include "ecc-p384-adx.h"

/* A modulus: its six words and -m^-1 mod 2^64. */
struct p384x_mod {
	u64 m[6];
	u64 minv;
};

static const struct p384x_mod p384x_p = {
	{ 0x00000000ffffffffull, 0xffffffff00000000ull, 0xfffffffffffffffeull,
	  0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull },
	0x0000000100000001ull,
};

static const struct p384x_mod p384x_n = {
	{ 0xecec196accc52973ull, 0x581a0db248b0a77aull, 0xc7634d81f4372ddfull,
	  0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull },
	0x6ed46089e88fdc45ull,
};

/* word K (a byte offset) of the operand pointed to by %[B] */
#define P384X_W(B, K)	K "(%[" B "])"

/*
 * Row 0: (T0..T6) = a * b[0], T7 = 0.
 */
#define P384X_ROW0(T0, T1, T2, T3, T4, T5, T6, T7)			\
	"movq 0(%[b]), %%rdx\n\t"					\
	"mulxq 0(%[a]), %[" T0 "], %[" T1 "]\n\t"			\
	"mulxq 8(%[a]), %%rax, %[" T2 "]\n\t"				\
	"addq %%rax, %[" T1 "]\n\t"					\
	"mulxq 16(%[a]), %%rax, %[" T3 "]\n\t"				\
	"adcq %%rax, %[" T2 "]\n\t"					\
	"mulxq 24(%[a]), %%rax, %[" T4 "]\n\t"				\
	"adcq %%rax, %[" T3 "]\n\t"					\
	"mulxq 32(%[a]), %%rax, %[" T5 "]\n\t"				\
	"adcq %%rax, %[" T4 "]\n\t"					\
	"mulxq 40(%[a]), %%rax, %[" T6 "]\n\t"				\
	"adcq %%rax, %[" T5 "]\n\t"					\
	"adcq $0, %[" T6 "]\n\t"					\
	"movl $0, %k[" T7 "]\n\t"

/*
 * One reduction step: q = T0 (-m^-1) mod 2^64; (T0..T6, T7) += q m, which
 * clears T0 (T7, the top word, stays 0 or 1: the sum is below 2m 2^64).
 */
#define P384X_RED(T0, T1, T2, T3, T4, T5, T6, T7)			\
	"movq %[" T0 "], %%rdx\n\t"					\
	"imulq 48+%[m], %%rdx\n\t"					\
	"xorl %%eax, %%eax\n\t"						\
	"mulxq 0+%[m], %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T0 "]\n\t"					\
	"adoxq %%rcx, %[" T1 "]\n\t"					\
	"mulxq 8+%[m], %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T1 "]\n\t"					\
	"adoxq %%rcx, %[" T2 "]\n\t"					\
	"mulxq 16+%[m], %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T2 "]\n\t"					\
	"adoxq %%rcx, %[" T3 "]\n\t"					\
	"mulxq 24+%[m], %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T3 "]\n\t"					\
	"adoxq %%rcx, %[" T4 "]\n\t"					\
	"mulxq 32+%[m], %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T4 "]\n\t"					\
	"adoxq %%rcx, %[" T5 "]\n\t"					\
	"mulxq 40+%[m], %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T5 "]\n\t"					\
	"adoxq %%rcx, %[" T6 "]\n\t"					\
	"movl $0, %%eax\n\t"						\
	"adcxq %%rax, %[" T6 "]\n\t"					\
	"adoxq %%rax, %[" T7 "]\n\t"					\
	"adcxq %%rax, %[" T7 "]\n\t"

/*
 * The same step modulo p from p's form, without a multiplication: p =
 * 2^384 - c with c = 2^128 + 2^96 - 2^32 + 1 and -p^-1 = 2^32 + 1 mod
 * 2^64, so q = T0 + (T0 << 32) and T + q p = T - q c + q 2^384.  With
 * ql = q << 32 mod 2^64 (which is T0 << 32) and qh = q >> 32,
 * q c = (q - ql) + (ql - qh) 2^64 + (q + qh) 2^128 with the borrows
 * carried up: its low word is T0 itself (T - q c clears T0 without a
 * borrow, so it is not computed), the borrow of q - ql is the carry of
 * T0 + ql, and the words above are w1 = ql - qh - that borrow and
 * w2 + w3 2^64 = q + qh - the borrow of w1 (never negative: q = 0 makes
 * every term 0).  Shifts and subtractions only, and qh with the borrow
 * come from T0 alone: q's low half is T0's (ql has none), so qh is the
 * 32-bit sum of T0's two halves and the borrow is that sum's carry (one
 * 32-bit ADD, T0's halves split by a 32-bit move and RORX), q itself a
 * LEA off the path.  From one word's T0 to the next word's: four
 * single-cycle instructions (split, add, w1, subtract) instead of a
 * MULX's latency and its additions, and the multiplier port is left to
 * the product.  The borrow out of word 5 is taken from q before q
 * enters word 6 (q is at least that borrow: q = 0 makes q c = 0), so it
 * stops there; the sum is below 2m 2^64, T7 stays 0 or 1.
 */
#define P384X_SRED_W(T0)						\
	"movl %k[" T0 "], %%ecx\n\t"					\
	"rorxq $32, %[" T0 "], %%rdx\n\t"				\
	"movq %[" T0 "], %%rax\n\t"					\
	"shlq $32, %%rax\n\t"						\
	"leaq (%[" T0 "], %%rax), %[" T0 "]\n\t"			\
	"addl %%edx, %%ecx\n\t"						\
	"sbbq %%rcx, %%rax\n\t"						\
	"movq %[" T0 "], %%rdx\n\t"					\
	"sbbq $0, %%rdx\n\t"						\
	"addq %%rcx, %%rdx\n\t"						\
	"movl $0, %%ecx\n\t"						\
	"adcl $0, %%ecx\n\t"

#define P384X_PRED(T0, T1, T2, T3, T4, T5, T6, T7)			\
	P384X_SRED_W(T0)						\
	"subq %%rax, %[" T1 "]\n\t"					\
	"sbbq %%rdx, %[" T2 "]\n\t"					\
	"sbbq %%rcx, %[" T3 "]\n\t"					\
	"sbbq $0, %[" T4 "]\n\t"					\
	"sbbq $0, %[" T5 "]\n\t"					\
	"sbbq $0, %[" T0 "]\n\t"					\
	"addq %[" T0 "], %[" T6 "]\n\t"					\
	"adcq $0, %[" T7 "]\n\t"

/* (T1..T7, T0) = (T1..T7) + a * b[K]; T0 is free on entry */
#define P384X_MAC(K, T1, T2, T3, T4, T5, T6, T7, T0)			\
	"movq " K "(%[b]), %%rdx\n\t"					\
	"xorl %k[" T0 "], %k[" T0 "]\n\t"				\
	"mulxq 0(%[a]), %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T1 "]\n\t"					\
	"adoxq %%rcx, %[" T2 "]\n\t"					\
	"mulxq 8(%[a]), %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T2 "]\n\t"					\
	"adoxq %%rcx, %[" T3 "]\n\t"					\
	"mulxq 16(%[a]), %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T3 "]\n\t"					\
	"adoxq %%rcx, %[" T4 "]\n\t"					\
	"mulxq 24(%[a]), %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T4 "]\n\t"					\
	"adoxq %%rcx, %[" T5 "]\n\t"					\
	"mulxq 32(%[a]), %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T5 "]\n\t"					\
	"adoxq %%rcx, %[" T6 "]\n\t"					\
	"mulxq 40(%[a]), %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T6 "]\n\t"					\
	"adoxq %%rcx, %[" T7 "]\n\t"					\
	"adcxq %[" T0 "], %[" T7 "]\n\t"				\
	"adoxq %[" T0 "], %[" T0 "]\n\t"				\
	"adcq $0, %[" T0 "]\n\t"

/*
 * (X0..X5) += m & MASK (MASK 0 or all ones); m's words 3..5 are all ones
 * for both p and n.  Leaves the carry out in CF.
 */
#define P384X_ADDBACK(X0, X1, X2, X3, X4, X5, MASK)			\
	"movq 0+%[m], %%rax\n\t"					\
	"andq %[" MASK "], %%rax\n\t"					\
	"movq 8+%[m], %%rcx\n\t"					\
	"andq %[" MASK "], %%rcx\n\t"					\
	"movq 16+%[m], %%rdx\n\t"					\
	"andq %[" MASK "], %%rdx\n\t"					\
	"addq %%rax, %[" X0 "]\n\t"					\
	"adcq %%rcx, %[" X1 "]\n\t"					\
	"adcq %%rdx, %[" X2 "]\n\t"					\
	"adcq %[" MASK "], %[" X3 "]\n\t"				\
	"adcq %[" MASK "], %[" X4 "]\n\t"				\
	"adcq %[" MASK "], %[" X5 "]\n\t"

/* %[r] = X0..X5 */
#define P384X_STORE(X0, X1, X2, X3, X4, X5)				\
	"movq %[" X0 "], 0(%[r])\n\t"					\
	"movq %[" X1 "], 8(%[r])\n\t"					\
	"movq %[" X2 "], 16(%[r])\n\t"					\
	"movq %[" X3 "], 24(%[r])\n\t"					\
	"movq %[" X4 "], 32(%[r])\n\t"					\
	"movq %[" X5 "], 40(%[r])\n\t"

/*
 * (X0..X5) + TOP 2^384 < 2m: X - m, then m added back under the borrow's
 * mask (TOP becomes 0 or all ones: when TOP is 1, X - m always borrows).
 * Stored to %[r].
 */
#define P384X_FINAL(X0, X1, X2, X3, X4, X5, TOP)			\
	"subq 0+%[m], %[" X0 "]\n\t"					\
	"sbbq 8+%[m], %[" X1 "]\n\t"					\
	"sbbq 16+%[m], %[" X2 "]\n\t"					\
	"sbbq $-1, %[" X3 "]\n\t"					\
	"sbbq $-1, %[" X4 "]\n\t"					\
	"sbbq $-1, %[" X5 "]\n\t"					\
	"sbbq $0, %[" TOP "]\n\t"					\
	P384X_ADDBACK(X0, X1, X2, X3, X4, X5, TOP)			\
	P384X_STORE(X0, X1, X2, X3, X4, X5)

/* t0..t5 = %[a] */
#define P384X_LOAD							\
	"movq 0(%[a]), %[t0]\n\t"					\
	"movq 8(%[a]), %[t1]\n\t"					\
	"movq 16(%[a]), %[t2]\n\t"					\
	"movq 24(%[a]), %[t3]\n\t"					\
	"movq 32(%[a]), %[t4]\n\t"					\
	"movq 40(%[a]), %[t5]\n\t"

#define P384X_T8							\
	[t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),	\
	[t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6), [t7] "=&r"(t7)

/* r = a b / 2^384 mod m (a, b < m), m a struct p384x_mod; r may alias a or b */
#define P384X_MONT(RED)							\
	P384X_ROW0("t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7") \
	RED("t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7") \
	P384X_MAC("8", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t0") \
	RED("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t0") \
	P384X_MAC("16", "t2", "t3", "t4", "t5", "t6", "t7", "t0", "t1") \
	RED("t2", "t3", "t4", "t5", "t6", "t7", "t0", "t1") \
	P384X_MAC("24", "t3", "t4", "t5", "t6", "t7", "t0", "t1", "t2") \
	RED("t3", "t4", "t5", "t6", "t7", "t0", "t1", "t2") \
	P384X_MAC("32", "t4", "t5", "t6", "t7", "t0", "t1", "t2", "t3") \
	RED("t4", "t5", "t6", "t7", "t0", "t1", "t2", "t3") \
	P384X_MAC("40", "t5", "t6", "t7", "t0", "t1", "t2", "t3", "t4") \
	RED("t5", "t6", "t7", "t0", "t1", "t2", "t3", "t4") \
	P384X_FINAL("t6", "t7", "t0", "t1", "t2", "t3", "t4")

/* r = a b / 2^384 mod p */
static inline void p384x_mul(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7;

	__asm__ volatile(P384X_MONT(P384X_PRED)
		: P384X_T8
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), [m] "m"(p384x_p)
		: "rax", "rcx", "rdx", "cc", "memory");
}

/* r = a b / 2^384 mod n */
static inline void p384x_nmul(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7;

	__asm__ volatile(P384X_MONT(P384X_RED)
		: P384X_T8
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), [m] "m"(p384x_n)
		: "rax", "rcx", "rdx", "cc", "memory");
}

/*
 * Low-half reduction step: q = L0 (-p^-1); (L0..L5) + q p, shifted down a
 * word: L0 becomes the new top word (the sum is below 2^448).
 */
#define P384X_REDL(L0, L1, L2, L3, L4, L5)				\
	"movq %[" L0 "], %%rdx\n\t"					\
	"imulq 48+%[m], %%rdx\n\t"					\
	"xorl %%eax, %%eax\n\t"						\
	"mulxq 0+%[m], %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" L0 "]\n\t"					\
	"adoxq %%rcx, %[" L1 "]\n\t"					\
	"mulxq 8+%[m], %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" L1 "]\n\t"					\
	"adoxq %%rcx, %[" L2 "]\n\t"					\
	"mulxq 16+%[m], %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" L2 "]\n\t"					\
	"adoxq %%rcx, %[" L3 "]\n\t"					\
	"mulxq 24+%[m], %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" L3 "]\n\t"					\
	"adoxq %%rcx, %[" L4 "]\n\t"					\
	"mulxq 32+%[m], %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" L4 "]\n\t"					\
	"adoxq %%rcx, %[" L5 "]\n\t"					\
	"mulxq 40+%[m], %%rax, %[" L0 "]\n\t"				\
	"adcxq %%rax, %[" L5 "]\n\t"					\
	"movl $0, %%eax\n\t"						\
	"adcxq %%rax, %[" L0 "]\n\t"					\
	"adoxq %%rax, %[" L0 "]\n\t"

/* The same from p's form (P384X_PRED): the new top word is q - borrow. */
#define P384X_PREDL(L0, L1, L2, L3, L4, L5)				\
	P384X_SRED_W(L0)						\
	"subq %%rax, %[" L1 "]\n\t"					\
	"sbbq %%rdx, %[" L2 "]\n\t"					\
	"sbbq %%rcx, %[" L3 "]\n\t"					\
	"sbbq $0, %[" L4 "]\n\t"					\
	"sbbq $0, %[" L5 "]\n\t"					\
	"sbbq $0, %[" L0 "]\n\t"

/*
 * The square a^2 as twelve words (the product part of p384x_sqr below):
 * words 0..2 to the scratch s, 3..5 in t3..t5, 6..11 to s[6..11].
 */
#define P384X_SQR_WORDS							\
		/* row a0: words 1..6 in t1..t6 */	\
		"movq 0(%[a]), %%rdx\n\t"	\
		"mulxq 8(%[a]), %[t1], %[t2]\n\t"	\
		"mulxq 16(%[a]), %%rax, %[t3]\n\t"	\
		"addq %%rax, %[t2]\n\t"	\
		"mulxq 24(%[a]), %%rax, %[t4]\n\t"	\
		"adcq %%rax, %[t3]\n\t"	\
		"mulxq 32(%[a]), %%rax, %[t5]\n\t"	\
		"adcq %%rax, %[t4]\n\t"	\
		"mulxq 40(%[a]), %%rax, %[t6]\n\t"	\
		"adcq %%rax, %[t5]\n\t"	\
		"adcq $0, %[t6]\n\t"	\
		"movq %[t1], 8(%[s])\n\t"	\
		"movq %[t2], 16(%[s])\n\t"	\
		/* row a1: words 3..7 (t3..t7) */	\
		"movq 8(%[a]), %%rdx\n\t"	\
		"movl $0, %k[t7]\n\t"	\
		"xorl %k[t0], %k[t0]\n\t"	\
		"mulxq 16(%[a]), %%rax, %%rcx\n\t"	\
		"adcxq %%rax, %[t3]\n\t"	\
		"adoxq %%rcx, %[t4]\n\t"	\
		"mulxq 24(%[a]), %%rax, %%rcx\n\t"	\
		"adcxq %%rax, %[t4]\n\t"	\
		"adoxq %%rcx, %[t5]\n\t"	\
		"mulxq 32(%[a]), %%rax, %%rcx\n\t"	\
		"adcxq %%rax, %[t5]\n\t"	\
		"adoxq %%rcx, %[t6]\n\t"	\
		"mulxq 40(%[a]), %%rax, %%rcx\n\t"	\
		"adcxq %%rax, %[t6]\n\t"	\
		"adoxq %%rcx, %[t7]\n\t"	\
		"adcxq %[t0], %[t7]\n\t"	\
		/* row a2: words 5..8 (t5, t6, t7, t1) */	\
		"movq 16(%[a]), %%rdx\n\t"	\
		"movl $0, %k[t1]\n\t"	\
		"xorl %k[t0], %k[t0]\n\t"	\
		"mulxq 24(%[a]), %%rax, %%rcx\n\t"	\
		"adcxq %%rax, %[t5]\n\t"	\
		"adoxq %%rcx, %[t6]\n\t"	\
		"mulxq 32(%[a]), %%rax, %%rcx\n\t"	\
		"adcxq %%rax, %[t6]\n\t"	\
		"adoxq %%rcx, %[t7]\n\t"	\
		"mulxq 40(%[a]), %%rax, %%rcx\n\t"	\
		"adcxq %%rax, %[t7]\n\t"	\
		"adoxq %%rcx, %[t1]\n\t"	\
		"adcxq %[t0], %[t1]\n\t"	\
		/* row a3: words 7..9 (t7, t1, t2) */	\
		"movq 24(%[a]), %%rdx\n\t"	\
		"movl $0, %k[t2]\n\t"	\
		"xorl %k[t0], %k[t0]\n\t"	\
		"mulxq 32(%[a]), %%rax, %%rcx\n\t"	\
		"adcxq %%rax, %[t7]\n\t"	\
		"adoxq %%rcx, %[t1]\n\t"	\
		"mulxq 40(%[a]), %%rax, %%rcx\n\t"	\
		"adcxq %%rax, %[t1]\n\t"	\
		"adoxq %%rcx, %[t2]\n\t"	\
		"adcxq %[t0], %[t2]\n\t"	\
		/* row a4: words 9, 10 (t2, t0) */	\
		"movq 32(%[a]), %%rdx\n\t"	\
		"mulxq 40(%[a]), %%rax, %[t0]\n\t"	\
		"addq %%rax, %[t2]\n\t"	\
		"adcq $0, %[t0]\n\t"	\
		/*	\
		 * doubled (CF) plus the squares (OF): words 0..2 through s,	\
		 * 3..10 in t3 t4 t5 t6 t7 t1 t2 t0, 11 in rcx	\
		 */	\
		"movq 0(%[a]), %%rdx\n\t"	\
		"mulxq %%rdx, %%rax, %%rcx\n\t"	\
		"movq %%rax, 0(%[s])\n\t"	\
		"xorl %%eax, %%eax\n\t"	\
		"movq 8(%[s]), %%rax\n\t"	\
		"adcxq %%rax, %%rax\n\t"	\
		"adoxq %%rcx, %%rax\n\t"	\
		"movq %%rax, 8(%[s])\n\t"	\
		"movq 16(%[s]), %%rax\n\t"	\
		"movq 8(%[a]), %%rdx\n\t"	\
		"mulxq %%rdx, %%rcx, %%rdx\n\t"	\
		"adcxq %%rax, %%rax\n\t"	\
		"adoxq %%rcx, %%rax\n\t"	\
		"movq %%rax, 16(%[s])\n\t"	\
		"adcxq %[t3], %[t3]\n\t"	\
		"adoxq %%rdx, %[t3]\n\t"	\
		"movq 16(%[a]), %%rdx\n\t"	\
		"mulxq %%rdx, %%rax, %%rcx\n\t"	\
		"adcxq %[t4], %[t4]\n\t"	\
		"adoxq %%rax, %[t4]\n\t"	\
		"adcxq %[t5], %[t5]\n\t"	\
		"adoxq %%rcx, %[t5]\n\t"	\
		"movq 24(%[a]), %%rdx\n\t"	\
		"mulxq %%rdx, %%rax, %%rcx\n\t"	\
		"adcxq %[t6], %[t6]\n\t"	\
		"adoxq %%rax, %[t6]\n\t"	\
		"adcxq %[t7], %[t7]\n\t"	\
		"adoxq %%rcx, %[t7]\n\t"	\
		"movq 32(%[a]), %%rdx\n\t"	\
		"mulxq %%rdx, %%rax, %%rcx\n\t"	\
		"adcxq %[t1], %[t1]\n\t"	\
		"adoxq %%rax, %[t1]\n\t"	\
		"adcxq %[t2], %[t2]\n\t"	\
		"adoxq %%rcx, %[t2]\n\t"	\
		"movq 40(%[a]), %%rdx\n\t"	\
		"mulxq %%rdx, %%rax, %%rcx\n\t"	\
		"adcxq %[t0], %[t0]\n\t"	\
		"adoxq %%rax, %[t0]\n\t"	\
		"movl $0, %%eax\n\t"	\
		"adcxq %%rax, %%rcx\n\t"	\
		"adoxq %%rax, %%rcx\n\t"	\
		/* high half to s[6..11], low half into t0..t5 */	\
		"movq %[t6], 48(%[s])\n\t"	\
		"movq %[t7], 56(%[s])\n\t"	\
		"movq %[t1], 64(%[s])\n\t"	\
		"movq %[t2], 72(%[s])\n\t"	\
		"movq %[t0], 80(%[s])\n\t"	\
		"movq %%rcx, 88(%[s])\n\t"

/*
 * r = a^2 / 2^384 mod p: the fifteen cross products (rows a_i a_j, j > i,
 * words 1..10; words 1 and 2 go to the scratch s when done), doubled in
 * the CF chain while the six squares enter in the OF chain (words 0..11),
 * then the low half reduced on its own (six steps, to at most p) and the
 * high half (below p) added: below 2p, one masked subtraction.  21 MULX
 * for the product instead of 36.
 */
static inline void p384x_sqr(u64 *r, const u64 *a)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, s[12];

	__asm__ volatile(
		P384X_SQR_WORDS
		"movq 0(%[s]), %[t0]\n\t"
		"movq 8(%[s]), %[t1]\n\t"
		"movq 16(%[s]), %[t2]\n\t"
		P384X_PREDL("t0", "t1", "t2", "t3", "t4", "t5")
		P384X_PREDL("t1", "t2", "t3", "t4", "t5", "t0")
		P384X_PREDL("t2", "t3", "t4", "t5", "t0", "t1")
		P384X_PREDL("t3", "t4", "t5", "t0", "t1", "t2")
		P384X_PREDL("t4", "t5", "t0", "t1", "t2", "t3")
		P384X_PREDL("t5", "t0", "t1", "t2", "t3", "t4")
		"xorl %k[t6], %k[t6]\n\t"
		"addq 48(%[s]), %[t0]\n\t"
		"adcq 56(%[s]), %[t1]\n\t"
		"adcq 64(%[s]), %[t2]\n\t"
		"adcq 72(%[s]), %[t3]\n\t"
		"adcq 80(%[s]), %[t4]\n\t"
		"adcq 88(%[s]), %[t5]\n\t"
		"adcq $0, %[t6]\n\t"
		P384X_FINAL("t0", "t1", "t2", "t3", "t4", "t5", "t6")
		: P384X_T8
		: [r] "r"(r), [a] "r"(a), [s] "r"(s), [m] "m"(p384x_p)
		: "rax", "rcx", "rdx", "cc", "memory");
}

/* r = a + b mod p */
static inline void p384x_add(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5, t6;

	__asm__ volatile(
		P384X_LOAD
		"xorl %k[t6], %k[t6]\n\t"
		"addq 0(%[b]), %[t0]\n\t"
		"adcq 8(%[b]), %[t1]\n\t"
		"adcq 16(%[b]), %[t2]\n\t"
		"adcq 24(%[b]), %[t3]\n\t"
		"adcq 32(%[b]), %[t4]\n\t"
		"adcq 40(%[b]), %[t5]\n\t"
		"adcq $0, %[t6]\n\t"
		P384X_FINAL("t0", "t1", "t2", "t3", "t4", "t5", "t6")
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6)
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), [m] "m"(p384x_p)
		: "rax", "rcx", "rdx", "cc", "memory");
}

/* r = a - b mod p: p added back under the borrow's mask */
static inline void p384x_sub(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5, t6;

	__asm__ volatile(
		P384X_LOAD
		"subq 0(%[b]), %[t0]\n\t"
		"sbbq 8(%[b]), %[t1]\n\t"
		"sbbq 16(%[b]), %[t2]\n\t"
		"sbbq 24(%[b]), %[t3]\n\t"
		"sbbq 32(%[b]), %[t4]\n\t"
		"sbbq 40(%[b]), %[t5]\n\t"
		"sbbq %[t6], %[t6]\n\t"
		P384X_ADDBACK("t0", "t1", "t2", "t3", "t4", "t5", "t6")
		P384X_STORE("t0", "t1", "t2", "t3", "t4", "t5")
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6)
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), [m] "m"(p384x_p)
		: "rax", "rcx", "rdx", "cc", "memory");
}

/* r = a / 2 mod p: (a + p) / 2 when a is odd, under a mask */
static inline void p384x_half(u64 *r, const u64 *a)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7;

	__asm__ volatile(
		P384X_LOAD
		"movq %[t0], %[t6]\n\t"
		"andq $1, %[t6]\n\t"
		"negq %[t6]\n\t"
		"movl $0, %k[t7]\n\t"
		P384X_ADDBACK("t0", "t1", "t2", "t3", "t4", "t5", "t6")
		"adcq $0, %[t7]\n\t"
		"shrdq $1, %[t1], %[t0]\n\t"
		"shrdq $1, %[t2], %[t1]\n\t"
		"shrdq $1, %[t3], %[t2]\n\t"
		"shrdq $1, %[t4], %[t3]\n\t"
		"shrdq $1, %[t5], %[t4]\n\t"
		"shrdq $1, %[t7], %[t5]\n\t"
		P384X_STORE("t0", "t1", "t2", "t3", "t4", "t5")
		: P384X_T8
		: [r] "r"(r), [a] "r"(a), [m] "m"(p384x_p)
		: "rax", "rcx", "rdx", "cc", "memory");
}

/*
 * (X0..X5) + TOP 2^384 < 2p reduced in registers (P384X_FINAL without the
 * store): X - p, then p added back under the borrow's mask.
 */
#define P384X_CORR(X0, X1, X2, X3, X4, X5, TOP)			\
	"subq 0+%[m], %[" X0 "]\n\t"					\
	"sbbq 8+%[m], %[" X1 "]\n\t"					\
	"sbbq 16+%[m], %[" X2 "]\n\t"					\
	"sbbq $-1, %[" X3 "]\n\t"					\
	"sbbq $-1, %[" X4 "]\n\t"					\
	"sbbq $-1, %[" X5 "]\n\t"					\
	"sbbq $0, %[" TOP "]\n\t"					\
	P384X_ADDBACK(X0, X1, X2, X3, X4, X5, TOP)

/* t0..t5 = 2 t0..t5 mod p (t0..t5 < p); t6 is clobbered */
#define P384X_DBL_T							\
	"xorl %k[t6], %k[t6]\n\t"					\
	"addq %[t0], %[t0]\n\t"						\
	"adcq %[t1], %[t1]\n\t"						\
	"adcq %[t2], %[t2]\n\t"						\
	"adcq %[t3], %[t3]\n\t"						\
	"adcq %[t4], %[t4]\n\t"						\
	"adcq %[t5], %[t5]\n\t"						\
	"adcq $0, %[t6]\n\t"						\
	P384X_CORR("t0", "t1", "t2", "t3", "t4", "t5", "t6")

/*
 * t0..t5 = %[a] - t0..t5 mod p: a's words loaded one at a time through
 * rax (MOV leaves the borrow chain alone), p added back under the mask.
 */
#define P384X_RSUB_T(A)							\
	"movq 0(%[" A "]), %%rax\n\t"					\
	"subq %[t0], %%rax\n\t"						\
	"movq %%rax, %[t0]\n\t"						\
	"movq 8(%[" A "]), %%rax\n\t"					\
	"sbbq %[t1], %%rax\n\t"						\
	"movq %%rax, %[t1]\n\t"						\
	"movq 16(%[" A "]), %%rax\n\t"					\
	"sbbq %[t2], %%rax\n\t"						\
	"movq %%rax, %[t2]\n\t"						\
	"movq 24(%[" A "]), %%rax\n\t"					\
	"sbbq %[t3], %%rax\n\t"						\
	"movq %%rax, %[t3]\n\t"						\
	"movq 32(%[" A "]), %%rax\n\t"					\
	"sbbq %[t4], %%rax\n\t"						\
	"movq %%rax, %[t4]\n\t"						\
	"movq 40(%[" A "]), %%rax\n\t"					\
	"sbbq %[t5], %%rax\n\t"						\
	"movq %%rax, %[t5]\n\t"						\
	"sbbq %[t6], %[t6]\n\t"						\
	P384X_ADDBACK("t0", "t1", "t2", "t3", "t4", "t5", "t6")

/* r = a - 2b mod p, the doubling's and the addition's X' (one pass) */
static inline void p384x_sub2(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5, t6;

	__asm__ volatile(
		"movq 0(%[b]), %[t0]\n\t"
		"movq 8(%[b]), %[t1]\n\t"
		"movq 16(%[b]), %[t2]\n\t"
		"movq 24(%[b]), %[t3]\n\t"
		"movq 32(%[b]), %[t4]\n\t"
		"movq 40(%[b]), %[t5]\n\t"
		P384X_DBL_T
		P384X_RSUB_T("a")
		P384X_STORE("t0", "t1", "t2", "t3", "t4", "t5")
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6)
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), [m] "m"(p384x_p)
		: "rax", "rcx", "rdx", "cc", "memory");
}

/* r = 3a mod p: 2a reduced in registers, then a added and reduced */
static inline void p384x_mul3(u64 *r, const u64 *a)
{
	u64 t0, t1, t2, t3, t4, t5, t6;

	__asm__ volatile(
		P384X_LOAD
		P384X_DBL_T
		"xorl %k[t6], %k[t6]\n\t"
		"addq 0(%[a]), %[t0]\n\t"
		"adcq 8(%[a]), %[t1]\n\t"
		"adcq 16(%[a]), %[t2]\n\t"
		"adcq 24(%[a]), %[t3]\n\t"
		"adcq 32(%[a]), %[t4]\n\t"
		"adcq 40(%[a]), %[t5]\n\t"
		"adcq $0, %[t6]\n\t"
		P384X_FINAL("t0", "t1", "t2", "t3", "t4", "t5", "t6")
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6)
		: [r] "r"(r), [a] "r"(a), [m] "m"(p384x_p)
		: "rax", "rcx", "rdx", "cc", "memory");
}

/* r = a - b / 2 mod p: b halved in registers (masked p), then subtracted */
static inline void p384x_subhalf(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7;

	__asm__ volatile(
		"movq 0(%[b]), %[t0]\n\t"
		"movq 8(%[b]), %[t1]\n\t"
		"movq 16(%[b]), %[t2]\n\t"
		"movq 24(%[b]), %[t3]\n\t"
		"movq 32(%[b]), %[t4]\n\t"
		"movq 40(%[b]), %[t5]\n\t"
		"movq %[t0], %[t6]\n\t"
		"andq $1, %[t6]\n\t"
		"negq %[t6]\n\t"
		"movl $0, %k[t7]\n\t"
		P384X_ADDBACK("t0", "t1", "t2", "t3", "t4", "t5", "t6")
		"adcq $0, %[t7]\n\t"
		"shrdq $1, %[t1], %[t0]\n\t"
		"shrdq $1, %[t2], %[t1]\n\t"
		"shrdq $1, %[t3], %[t2]\n\t"
		"shrdq $1, %[t4], %[t3]\n\t"
		"shrdq $1, %[t5], %[t4]\n\t"
		"shrdq $1, %[t7], %[t5]\n\t"
		P384X_RSUB_T("a")
		P384X_STORE("t0", "t1", "t2", "t3", "t4", "t5")
		: P384X_T8
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), [m] "m"(p384x_p)
		: "rax", "rcx", "rdx", "cc", "memory");
}

/*
 * The product a b as twelve words, no reduction steps between its rows:
 * words 0..5 to the scratch u, 6..11 in t6 t7 t0 t1 t2 t3, t4 = 0 (word 12).
 */
#define P384X_PROD12_U							\
	P384X_ROW0("t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7")	\
	"movq %[t0], 0(%[u])\n\t"					\
	P384X_MAC("8", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t0")	\
	"movq %[t1], 8(%[u])\n\t"					\
	P384X_MAC("16", "t2", "t3", "t4", "t5", "t6", "t7", "t0", "t1")	\
	"movq %[t2], 16(%[u])\n\t"					\
	P384X_MAC("24", "t3", "t4", "t5", "t6", "t7", "t0", "t1", "t2")	\
	"movq %[t3], 24(%[u])\n\t"					\
	P384X_MAC("32", "t4", "t5", "t6", "t7", "t0", "t1", "t2", "t3")	\
	"movq %[t4], 32(%[u])\n\t"					\
	P384X_MAC("40", "t5", "t6", "t7", "t0", "t1", "t2", "t3", "t4")	\
	"movq %[t5], 40(%[u])\n\t"

/*
 * The second twelve-word value s lives in the same scratch as U, from
 * byte 104 (u[13..24]): one register operand for both, so that the
 * sanitizer builds (no frame-pointer register) still have registers for
 * the operands.  The scratch arrays are register operands, "K(%[u])",
 * rather than memory ones, "K+%[u]", which clang's assembler refuses
 * when the array is at 0(%rsp) ("8+(%rsp)").
 */
#define P384X_S(K)	K "+104(%[u])"

/*
 * t0..t5 to the result, its address taken from u[25] into the free
 * register P (no register operand for it: see P384X_S).
 */
#define P384X_STORE_U25(P)						\
	"movq 200(%[u]), %[" P "]\n\t"					\
	"movq %[t0], 0(%[" P "])\n\t"					\
	"movq %[t1], 8(%[" P "])\n\t"					\
	"movq %[t2], 16(%[" P "])\n\t"				\
	"movq %[t3], 24(%[" P "])\n\t"				\
	"movq %[t4], 32(%[" P "])\n\t"				\
	"movq %[t5], 40(%[" P "])\n\t"

/* u[K / 8] -= s[K / 8] with the borrow in CF (MOV keeps the chain) */
#define P384X_USUB(K, OP)						\
	"movq " K "(%[u]), %%rax\n\t"					\
	OP " " P384X_S(K) ", %%rax\n\t"				\
	"movq %%rax, " K "(%[u])\n\t"

/* (t6 t7 t0 t1 t2 t3, t4) -= s[6..11] */
#define P384X_HSUB							\
	"sbbq " P384X_S("48") ", %[t6]\n\t"				\
	"sbbq " P384X_S("56") ", %[t7]\n\t"				\
	"sbbq " P384X_S("64") ", %[t0]\n\t"				\
	"sbbq " P384X_S("72") ", %[t1]\n\t"				\
	"sbbq " P384X_S("80") ", %[t2]\n\t"				\
	"sbbq " P384X_S("88") ", %[t3]\n\t"				\
	"sbbq $0, %[t4]\n\t"

/*
 * t0..t5 + t6 2^384 (t6 small) reduced below p: t6 folded as t6 c
 * (2^384 = c mod p, c = 2^128 + ffffffff 2^64 + ffffffff00000001; below
 * 2p after it), then one masked subtraction.  Uses t7, rax, rcx, rdx.
 */
#define P384X_FOLD							\
	"movq %[t6], %%rdx\n\t"					\
	"movabsq $0xffffffff00000001, %%rax\n\t"			\
	"mulxq %%rax, %%rax, %%rcx\n\t"				\
	"movl $0xffffffff, %k[t7]\n\t"					\
	"mulxq %[t7], %[t7], %%rdx\n\t"				\
	"addq %[t7], %%rcx\n\t"					\
	"addq %%rax, %[t0]\n\t"					\
	"adcq %%rcx, %[t1]\n\t"					\
	"adcq %[t6], %[t2]\n\t"					\
	"movl $0, %k[t6]\n\t"						\
	"adcq $0, %[t3]\n\t"						\
	"adcq $0, %[t4]\n\t"						\
	"adcq $0, %[t5]\n\t"						\
	"adcq $0, %[t6]\n\t"						\
	P384X_CORR("t0", "t1", "t2", "t3", "t4", "t5", "t6")

/*
 * A thirteen-word U (words 0..5 in u, 6..11 in t6 t7 t0 t1 t2 t3, 12 in
 * t4) below 4p 2^384, reduced: U / 2^384 mod p into t0..t5.  Its low half
 * reduced on its own (P384X_PREDL, to at most p) and its high half added:
 * below 5p, the top word t (<= 4) folded as t c (2^384 = c mod p; below
 * 2p after it), one masked subtraction.
 */
#define P384X_REDC_U							\
	"movq %[t6], 48(%[u])\n\t"					\
	"movq %[t7], 56(%[u])\n\t"					\
	"movq %[t0], 64(%[u])\n\t"					\
	"movq %[t1], 72(%[u])\n\t"					\
	"movq %[t2], 80(%[u])\n\t"					\
	"movq %[t3], 88(%[u])\n\t"					\
	"movq %[t4], 96(%[u])\n\t"					\
	"movq 0(%[u]), %[t0]\n\t"					\
	"movq 8(%[u]), %[t1]\n\t"					\
	"movq 16(%[u]), %[t2]\n\t"					\
	"movq 24(%[u]), %[t3]\n\t"					\
	"movq 32(%[u]), %[t4]\n\t"					\
	"movq 40(%[u]), %[t5]\n\t"					\
	P384X_PREDL("t0", "t1", "t2", "t3", "t4", "t5")		\
	P384X_PREDL("t1", "t2", "t3", "t4", "t5", "t0")		\
	P384X_PREDL("t2", "t3", "t4", "t5", "t0", "t1")		\
	P384X_PREDL("t3", "t4", "t5", "t0", "t1", "t2")		\
	P384X_PREDL("t4", "t5", "t0", "t1", "t2", "t3")		\
	P384X_PREDL("t5", "t0", "t1", "t2", "t3", "t4")		\
	"xorl %k[t6], %k[t6]\n\t"					\
	"addq 48(%[u]), %[t0]\n\t"					\
	"adcq 56(%[u]), %[t1]\n\t"					\
	"adcq 64(%[u]), %[t2]\n\t"					\
	"adcq 72(%[u]), %[t3]\n\t"					\
	"adcq 80(%[u]), %[t4]\n\t"					\
	"adcq 88(%[u]), %[t5]\n\t"					\
	"adcq 96(%[u]), %[t6]\n\t"					\
	P384X_FOLD

/*
 * The doubling's Y' = M (S - X') - 8Y^4 with one reduction instead of two:
 * r = (2 m t - y^2) / 2R mod p for m, t, y < p in Montgomery form, i.e.
 * m t / R - (y^2 / R) / 2, which for m = M, t = S - X' and y = 4Y^2 is
 * M (S - X') - 8Y^4.  The square's twelve words go to s, the product's
 * to u and registers; U = 2 m t - y^2 + 2p 2^384 is positive and below
 * 4p 2^384 (y^2 < p^2 < 2p 2^384), reduced by P384X_REDC_U and halved
 * modulo p.  Against p384x_mul, p384x_sqr and p384x_subhalf: six
 * reduction steps and two final corrections fewer (the doubling 658 ->
 * 619 TSC at the minimum, same process).  r may alias an input (all are
 * read before r is written).
 */
static void p384x_dbl_y(u64 *r, const u64 *mm, const u64 *tt, const u64 *yy)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, u[26];

	u[25] = (u64)(uintptr_t)r;

	/* y^2, twelve words, to s (u[13..24]) */
	__asm__ volatile(
		P384X_SQR_WORDS
		"movq %[t3], 24(%[s])\n\t"
		"movq %[t4], 32(%[s])\n\t"
		"movq %[t5], 40(%[s])\n\t"
		: P384X_T8
		: [a] "r"(yy), [s] "r"(u + 13)
		: "rax", "rcx", "rdx", "cc", "memory");
	__asm__ volatile(
		P384X_PROD12_U
		/* doubled, thirteen words */
		"movq 0(%[u]), %%rax\n\t"
		"addq %%rax, %%rax\n\t"
		"movq %%rax, 0(%[u])\n\t"
		"movq 8(%[u]), %%rax\n\t"
		"adcq %%rax, %%rax\n\t"
		"movq %%rax, 8(%[u])\n\t"
		"movq 16(%[u]), %%rax\n\t"
		"adcq %%rax, %%rax\n\t"
		"movq %%rax, 16(%[u])\n\t"
		"movq 24(%[u]), %%rax\n\t"
		"adcq %%rax, %%rax\n\t"
		"movq %%rax, 24(%[u])\n\t"
		"movq 32(%[u]), %%rax\n\t"
		"adcq %%rax, %%rax\n\t"
		"movq %%rax, 32(%[u])\n\t"
		"movq 40(%[u]), %%rax\n\t"
		"adcq %%rax, %%rax\n\t"
		"movq %%rax, 40(%[u])\n\t"
		"adcq %[t6], %[t6]\n\t"
		"adcq %[t7], %[t7]\n\t"
		"adcq %[t0], %[t0]\n\t"
		"adcq %[t1], %[t1]\n\t"
		"adcq %[t2], %[t2]\n\t"
		"adcq %[t3], %[t3]\n\t"
		"adcq %[t4], %[t4]\n\t"
		/* - y^2 */
		P384X_USUB("0", "subq")
		P384X_USUB("8", "sbbq")
		P384X_USUB("16", "sbbq")
		P384X_USUB("24", "sbbq")
		P384X_USUB("32", "sbbq")
		P384X_USUB("40", "sbbq")
		P384X_HSUB
		/* + 2p 2^384 (2p = 1fffffffe, fffffffe00000000, -3, -1, -1, -1, 1) */
		"movabsq $0x00000001fffffffe, %%rax\n\t"
		"addq %%rax, %[t6]\n\t"
		"movabsq $0xfffffffe00000000, %%rax\n\t"
		"adcq %%rax, %[t7]\n\t"
		"adcq $-3, %[t0]\n\t"
		"adcq $-1, %[t1]\n\t"
		"adcq $-1, %[t2]\n\t"
		"adcq $-1, %[t3]\n\t"
		"adcq $1, %[t4]\n\t"
		P384X_REDC_U
		/* halved modulo p: (x + p) / 2 when x is odd, under a mask */
		"movq %[t0], %[t6]\n\t"
		"andq $1, %[t6]\n\t"
		"negq %[t6]\n\t"
		"movl $0, %k[t7]\n\t"
		P384X_ADDBACK("t0", "t1", "t2", "t3", "t4", "t5", "t6")
		"adcq $0, %[t7]\n\t"
		"shrdq $1, %[t1], %[t0]\n\t"
		"shrdq $1, %[t2], %[t1]\n\t"
		"shrdq $1, %[t3], %[t2]\n\t"
		"shrdq $1, %[t4], %[t3]\n\t"
		"shrdq $1, %[t5], %[t4]\n\t"
		"shrdq $1, %[t7], %[t5]\n\t"
		P384X_STORE_U25("t6")
		: P384X_T8
		: [a] "r"(mm), [b] "r"(tt), [u] "r"(u), [m] "m"(p384x_p)
		: "rax", "rcx", "rdx", "cc", "memory");
}

/*
 * The mixed addition's Y3 = R (V - X3) - Y1 H^3 with one reduction
 * instead of two: r = (a b - c d) / R mod p for a, b, c, d < p (Montgomery
 * form: the difference of the two products).  c d's twelve words go to s,
 * a b's to u and registers; U = a b - c d + p 2^384 is positive and below
 * 2p 2^384, reduced by P384X_REDC_U.  r may alias an input.
 */
static void p384x_mulsub(u64 *r, const u64 *aa, const u64 *bb, const u64 *cc, const u64 *dd)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, u[26];

	u[25] = (u64)(uintptr_t)r;

	/* c d, twelve words, to s (u[13..24]) */
	__asm__ volatile(
		P384X_PROD12_U
		"movq %[t6], 48(%[u])\n\t"
		"movq %[t7], 56(%[u])\n\t"
		"movq %[t0], 64(%[u])\n\t"
		"movq %[t1], 72(%[u])\n\t"
		"movq %[t2], 80(%[u])\n\t"
		"movq %[t3], 88(%[u])\n\t"
		: P384X_T8
		: [a] "r"(cc), [b] "r"(dd), [u] "r"(u + 13)
		: "rax", "rcx", "rdx", "cc", "memory");
	__asm__ volatile(
		P384X_PROD12_U
		/* - c d */
		P384X_USUB("0", "subq")
		P384X_USUB("8", "sbbq")
		P384X_USUB("16", "sbbq")
		P384X_USUB("24", "sbbq")
		P384X_USUB("32", "sbbq")
		P384X_USUB("40", "sbbq")
		P384X_HSUB
		/* + p 2^384 */
		"movl $0xffffffff, %%eax\n\t"
		"addq %%rax, %[t6]\n\t"
		"movabsq $0xffffffff00000000, %%rax\n\t"
		"adcq %%rax, %[t7]\n\t"
		"adcq $-2, %[t0]\n\t"
		"adcq $-1, %[t1]\n\t"
		"adcq $-1, %[t2]\n\t"
		"adcq $-1, %[t3]\n\t"
		"adcq $0, %[t4]\n\t"
		P384X_REDC_U
		P384X_STORE_U25("t7")
		: P384X_T8
		: [a] "r"(aa), [b] "r"(bb), [u] "r"(u), [m] "m"(p384x_p)
		: "rax", "rcx", "rdx", "cc", "memory");
}

/* t0..t5 (t6 the top) -= the six words at the address in the scratch word K */
#define P384X_SUB_AT(K)							\
	"movq " K "(%[s]), %[t7]\n\t"					\
	"subq 0(%[t7]), %[t0]\n\t"					\
	"sbbq 8(%[t7]), %[t1]\n\t"					\
	"sbbq 16(%[t7]), %[t2]\n\t"					\
	"sbbq 24(%[t7]), %[t3]\n\t"					\
	"sbbq 32(%[t7]), %[t4]\n\t"					\
	"sbbq 40(%[t7]), %[t5]\n\t"					\
	"sbbq $0, %[t6]\n\t"

/*
 * r = a^2 / R - (b) - 2c mod p for a, b, c < p: the square's low half
 * reduced on its own (to at most p) and its high half (below p) added,
 * as p384x_sqr, then 2p or 3p added and b and c twice subtracted before
 * the one final correction: at least 0 and below 5p, folded by
 * P384X_FOLD.  The addresses of r, c and b go through the scratch (s[12],
 * s[13], s[14]), so that only a takes a register operand.
 */
#define P384X_SQR_SUBS(PLUS, SUB_B)					\
	P384X_SQR_WORDS							\
	"movq 0(%[s]), %[t0]\n\t"					\
	"movq 8(%[s]), %[t1]\n\t"					\
	"movq 16(%[s]), %[t2]\n\t"					\
	P384X_PREDL("t0", "t1", "t2", "t3", "t4", "t5")		\
	P384X_PREDL("t1", "t2", "t3", "t4", "t5", "t0")		\
	P384X_PREDL("t2", "t3", "t4", "t5", "t0", "t1")		\
	P384X_PREDL("t3", "t4", "t5", "t0", "t1", "t2")		\
	P384X_PREDL("t4", "t5", "t0", "t1", "t2", "t3")		\
	P384X_PREDL("t5", "t0", "t1", "t2", "t3", "t4")		\
	"xorl %k[t6], %k[t6]\n\t"					\
	"addq 48(%[s]), %[t0]\n\t"					\
	"adcq 56(%[s]), %[t1]\n\t"					\
	"adcq 64(%[s]), %[t2]\n\t"					\
	"adcq 72(%[s]), %[t3]\n\t"					\
	"adcq 80(%[s]), %[t4]\n\t"					\
	"adcq 88(%[s]), %[t5]\n\t"					\
	"adcq $0, %[t6]\n\t"						\
	PLUS								\
	P384X_SUB_AT("104")						\
	P384X_SUB_AT("104")						\
	SUB_B								\
	P384X_FOLD							\
	"movq 96(%[s]), %[t7]\n\t"					\
	"movq %[t0], 0(%[t7])\n\t"					\
	"movq %[t1], 8(%[t7])\n\t"					\
	"movq %[t2], 16(%[t7])\n\t"					\
	"movq %[t3], 24(%[t7])\n\t"					\
	"movq %[t4], 32(%[t7])\n\t"					\
	"movq %[t5], 40(%[t7])\n\t"

/* t0..t5, t6 += 2p (1fffffffe, fffffffe00000000, -3, -1, -1, -1, 1) */
#define P384X_PLUS_2P							\
	"movabsq $0x00000001fffffffe, %%rax\n\t"			\
	"addq %%rax, %[t0]\n\t"					\
	"movabsq $0xfffffffe00000000, %%rax\n\t"			\
	"adcq %%rax, %[t1]\n\t"					\
	"adcq $-3, %[t2]\n\t"						\
	"adcq $-1, %[t3]\n\t"						\
	"adcq $-1, %[t4]\n\t"						\
	"adcq $-1, %[t5]\n\t"						\
	"adcq $1, %[t6]\n\t"

/* t0..t5, t6 += 3p (2fffffffd, fffffffd00000000, -4, -1, -1, -1, 2) */
#define P384X_PLUS_3P							\
	"movabsq $0x00000002fffffffd, %%rax\n\t"			\
	"addq %%rax, %[t0]\n\t"					\
	"movabsq $0xfffffffd00000000, %%rax\n\t"			\
	"adcq %%rax, %[t1]\n\t"					\
	"adcq $-4, %[t2]\n\t"						\
	"adcq $-1, %[t3]\n\t"						\
	"adcq $-1, %[t4]\n\t"						\
	"adcq $-1, %[t5]\n\t"						\
	"adcq $2, %[t6]\n\t"

/* The doubling's X' = M^2 - 2S: r = a^2 / R - 2c mod p (r may alias c). */
static void p384x_sqr_sub2(u64 *r, const u64 *a, const u64 *c)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, s[14];

	s[12] = (u64)(uintptr_t)r;
	s[13] = (u64)(uintptr_t)c;
	__asm__ volatile(P384X_SQR_SUBS(P384X_PLUS_2P, "")
		: P384X_T8
		: [a] "r"(a), [s] "r"(s), [m] "m"(p384x_p)
		: "rax", "rcx", "rdx", "cc", "memory");
}

/* The mixed addition's X3 = R^2 - H^3 - 2V: r = a^2 / R - b - 2c mod p. */
static void p384x_sqr_sub3(u64 *r, const u64 *a, const u64 *b, const u64 *c)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, s[15];

	s[12] = (u64)(uintptr_t)r;
	s[13] = (u64)(uintptr_t)c;
	s[14] = (u64)(uintptr_t)b;
	__asm__ volatile(P384X_SQR_SUBS(P384X_PLUS_3P, P384X_SUB_AT("112"))
		: P384X_T8
		: [a] "r"(a), [s] "r"(s), [m] "m"(p384x_p)
		: "rax", "rcx", "rdx", "cc", "memory");
}

/* t = a - b and u = a + b mod p (the doubling's X - Z^2 and X + Z^2) */
static inline void p384x_subadd(u64 *t, u64 *u, const u64 *a, const u64 *b)
{
	p384x_sub(t, a, b);
	p384x_add(u, a, b);
}

/*
 * r = 2p, Jacobian, a = -3 (4M + 4S; the template's jac_dbl, ecc-point.h,
 * with its linear steps fused: 3M in one pass, X' = M^2 - 2S in one, and
 * Y' = M (S - X') - (4Y^2)^2 / 2 as one product, one square and one
 * reduction, p384x_dbl_y).  r may alias p: Y and Z are read before Z' is
 * written, X before X'.
 */
static void p384x_jac_dbl(u64 *r, const u64 *p)
{
	const u64 *x = p, *y = p + 6, *z = p + 12;
	u64 d[6], t[6], u[6], m[6], y2[6], s[6];

	p384x_sqr(d, z);			/* Z^2 */
	p384x_add(y2, y, y);			/* 2Y */
	p384x_mul(r + 12, y2, z);		/* Z' = 2YZ */
	p384x_subadd(t, u, x, d);
	p384x_sqr(y2, y2);			/* 4Y^2 */
	p384x_mul(m, t, u);
	p384x_mul(s, x, y2);			/* S = 4XY^2 */
	p384x_mul3(m, m);			/* M */
	p384x_sqr_sub2(r, m, s);		/* X' = M^2 - 2S */
	p384x_sub(t, s, r);
	p384x_dbl_y(r + 6, m, t, y2);		/* Y' = M (S - X') - (4Y^2)^2 / 2 */
}

/*
 * o = p + (x2, y2), p Jacobian, the affine point not the identity nor
 * +-p: the template's madd-2007-bl (ecc-point.h, jac_add_formula, 8M +
 * 3S) with its steps in an order that puts independent products next to
 * each other (S2's first product beside Z1^2, Z3 beside H^2) so that
 * one's reduction overlaps the other's multiplications, X3 = R^2 - H^3 -
 * 2V as one subtraction and a fused a - 2b, and Y3 = R (V - X3) - Y1 H^3
 * as two products and one reduction (p384x_mulsub).  o distinct from p.
 */
static void p384x_jac_add_affine(u64 *o, const u64 *p, const u64 *x2, const u64 *y2)
{
	const u64 *x1 = p, *y1 = p + 6, *z1 = p + 12;
	u64 z1z1[6], u2[6], s2[6], h[6], rr[6], hh[6], v[6];

	p384x_sqr(z1z1, z1);
	p384x_mul(s2, y2, z1);
	p384x_mul(u2, x2, z1z1);		/* U2 = X2 Z1^2 */
	p384x_mul(s2, s2, z1z1);		/* S2 = Y2 Z1^3 */
	p384x_sub(h, u2, x1);			/* H = U2 - X1 */
	p384x_sqr(hh, h);
	p384x_mul(o + 12, z1, h);		/* Z3 = Z1 H */
	p384x_sub(rr, s2, y1);			/* R = S2 - Y1 */
	p384x_mul(v, x1, hh);			/* V = X1 H^2 */
	p384x_mul(hh, h, hh);			/* H^3 */
	p384x_sqr_sub3(o, rr, hh, v);		/* X3 = R^2 - H^3 - 2V */
	p384x_sub(v, v, o);
	p384x_mulsub(o + 6, rr, v, y1, hh);	/* Y3 = R (V - X3) - Y1 H^3 */
}

/*
 * The masked table read of ecc-mul.h (ecc_select) with AVX2 when the CPU
 * has it: Jacobian entries of 18 words (the variable-base table) and
 * affine ones of 12 (the fixed-base table), every entry read, the match
 * found by a vector comparison of its index; four words per register
 * instead of two.  GCC vector types rather than <immintrin.h>.
 */
typedef u64 p384x_v4 __attribute__((vector_size(32)));
typedef u64 p384x_v2 __attribute__((vector_size(16)));

static int p384x_avx2(void)
{
	static int have = -1;
	int h = __atomic_load_n(&have, __ATOMIC_RELAXED);

	if (h < 0) {
		h = rind_cpu_has(RIND_X86_AVX2);
		__atomic_store_n(&have, h, __ATOMIC_RELAXED);
	}
	return h;
}

__attribute__((target("avx2"), noinline))
static void p384x_select_avx2(u64 *r, const u64 *table, unsigned int w, unsigned int count,
			      u64 idx)
{
	const p384x_v4 one = { 1, 1, 1, 1 }, want = { idx, idx, idx, idx };
	p384x_v4 a0 = { 0 }, a1 = a0, a2 = a0, a3 = a0, cur = one, m, v;
	p384x_v2 t = { 0 }, u;
	unsigned int i;

	for (i = 0; i < count; i++) {
		const u64 *s = table + (size_t)i * w;

		m = (p384x_v4)(cur == want);		/* all ones for the match */
		memcpy(&v, s, sizeof(v));
		a0 |= m & v;
		memcpy(&v, s + 4, sizeof(v));
		a1 |= m & v;
		memcpy(&v, s + 8, sizeof(v));
		a2 |= m & v;
		if (w == 18) {
			memcpy(&v, s + 12, sizeof(v));
			a3 |= m & v;
			memcpy(&u, s + 16, sizeof(u));
			t |= (p384x_v2){ m[0], m[1] } & u;
		}
		cur += one;
	}
	memcpy(r, &a0, sizeof(a0));
	memcpy(r + 4, &a1, sizeof(a1));
	memcpy(r + 8, &a2, sizeof(a2));
	if (w == 18) {
		memcpy(r + 12, &a3, sizeof(a3));
		memcpy(r + 16, &t, sizeof(t));
	}
}

/* 1 when done; 0 (the caller does it) for other sizes or without AVX2. */
static inline int p384x_select(u64 *r, const u64 *table, unsigned int w, unsigned int count,
			       u64 idx)
{
	if ((w != 12 && w != 18) || !p384x_avx2())
		return 0;
	p384x_select_avx2(r, table, w, count, idx);
	return 1;
}

/* The curve template over the field operations above (hooks: <crypto/ecc.h>). */
#define ECC_N			6
#define ECC_FP_MUL(r, a, b)	p384x_mul(r, a, b)
#define ECC_FP_SQR(r, a)	p384x_sqr(r, a)
#define ECC_FP_ADD(r, a, b)	p384x_add(r, a, b)
#define ECC_FP_SUB(r, a, b)	p384x_sub(r, a, b)
#define ECC_FP_HALF(r, a)	p384x_half(r, a)
#define ECC_FP_SUB2(r, a, b)	p384x_sub2(r, a, b)
#define ECC_JAC_DBL(r, p)	p384x_jac_dbl((r)->x, (p)->x)
#define ECC_JAC_ADD_AFFINE(o, p, q)	p384x_jac_add_affine((o)->x, (p)->x, (q)->x, (q)->y)
#define ECC_FN_MUL(r, a, b)	p384x_nmul(r, a, b)
#define ECC_SELECT(r, t, w, c, i)	p384x_select(r, t, w, c, i)
static void p384x_fp_inv(u64 *r, const u64 *a);
#define ECC_FP_INV(r, a)	p384x_fp_inv(r, a)
#include <crypto/ecc-impl.h>

/* The domain parameters, shared with the generic algs/p384.c. */
#include <crypto/ecc-p384.h>
#include "ecc-mul-affine.h"

/*
 * Constant-time inversion modulo p: the template's Bernstein-Yang
 * inversion (ecc-inv.h: batches of 62 divsteps on the low words, the
 * matrix applied to signed 62-bit limbs by ecc_by_update_fg/de, the
 * final sign and reduction) in the "half-delta" form that
 * arch/x86/ecc-p256-adx.c uses (delta starts at 1/2, kept as
 * zeta = -(delta + 1/2)): for d-bit inputs and moduli
 * floor((45907 d + 26313) / 19929) of those steps bring g to 0 (the
 * bound of the safegcd analysis for this form, Wuille's safegcd-bounds;
 * it gives 591 at d = 256, where the computer-checked count that
 * ecc-p256-adx.c runs is 590), 885 at d = 384, against the template
 * form's 1110: 15 batches of 60 (900, 15 to spare) instead of 18; steps
 * after g = 0 change nothing.  The steps are ecc-divsteps-x86.h's, shared
 * with P-256, inside ecc-inv.h's ecc_by_inv_with (the batch carries the
 * matrix inside f and g; ~7.0k TSC, against 9.3k for the earlier batch
 * and 16k for the template's).
 */
#define P384X_BY_BATCHES 15

#include "ecc-divsteps-x86.h"

/* r = a^-1 mod m (0 for 0), a < m, plain integers; minv64 = -m^-1 mod 2^64. */
static void p384x_inv_mod(fe r, const fe a, const u64 *m, u64 minv64)
{
	ecc_by_inv_with(r, a, m, minv64, P384X_BY_BATCHES, ecc_x86_divsteps);
}

/* r = a^-1 in Montgomery form: (a R)^-1 R^3 / R = a^-1 R (0 for 0) */
static void p384x_fp_inv(u64 *r, const u64 *a)
{
	fe t, r3;

	p384x_inv_mod(t, a, p384_fp.m, p384_fp.m0inv);
	p384x_mul(r3, p384_fp.rr, p384_fp.rr);
	p384x_mul(r, t, r3);
	memzero_explicit(t, sizeof(t));
}

ECC_X86_DEFINE_CURVE_AFFINE(ecc_p384_adx, p384_def, "P-384", RIND_OID_SECP384R1, 48, 384);

/* The field operations by number, for tests/test_ecdh.c (ecc-p384-adx.h). */
void p384x_field_test(enum p384x_test_op op, u64 *r, const u64 *a, const u64 *b)
{
	switch (op) {
	case P384X_T_MUL:	p384x_mul(r, a, b); break;
	case P384X_T_SQR:	p384x_sqr(r, a); break;
	case P384X_T_ADD:	p384x_add(r, a, b); break;
	case P384X_T_SUB:	p384x_sub(r, a, b); break;
	case P384X_T_HALF:	p384x_half(r, a); break;
	case P384X_T_NMUL:	p384x_nmul(r, a, b); break;
	case P384X_T_INV:	p384x_fp_inv(r, a); break;
	case P384X_T_SUB2:	p384x_sub2(r, a, b); break;
	case P384X_T_MUL3:	p384x_mul3(r, a); break;
	case P384X_T_SUBHALF:	p384x_subhalf(r, a, b); break;
	case P384X_T_SQRSUB2:	p384x_sqr_sub2(r, a, b); break;
	case P384X_T_SQRSUB3:	p384x_sqr_sub3(r, a, b, b); break;
	case P384X_T_DBLY:	p384x_dbl_y(r, a, b, a); break;
	case P384X_T_MULSUB:	p384x_mulsub(r, a, b, a, a); break;
	default:		memset(r, 0, 48); break;
	}
}

void p384x_jac_dbl_test(u64 *r, const u64 *p)
{
	p384x_jac_dbl(r, p);
}

void p384x_jac_add_affine_test(u64 *o, const u64 *p, const u64 *x2, const u64 *y2)
{
	p384x_jac_add_affine(o, p, x2, y2);
}

/* ---- registration -------------------------------------------------------- */

/* The protocol glue registers a driver over a curve implementation (<crypto/ecc.h>). */
ECC_DEFINE_CURVE_DRIVERS(p384_adx, ecc_p384_adx, 300, "x86",
			 rind_cpu_has(RIND_X86_BMI2) && rind_cpu_has(RIND_X86_ADX),
			 "ecdh-nist-p384", "ecdh-nist-p384-adx",
			 "ecdsa-nist-p384", "ecdsa-nist-p384-adx");
