// SPDX-License-Identifier: MIT
/*
 * P-256 for x86-64 with MULX/ADCX/ADOX: the "ecdh-nist-p256-adx" kpp and
 * "ecdsa-nist-p256-adx" sig drivers.
 * Requires: BMI2 (MULX) and ADX (ADCX, ADOX).
 *
 * The point and scalar arithmetic of algs/ecc-impl.h (complete formulas,
 * signed windows, the fixed-base table, constant time for secret
 * scalars) and algs/ecc-p256.h's constants, over the field operations
 * below in inline assembly: Montgomery multiplication
 * with R = 2^256 and p's special form (-p^-1 = 1 mod 2^64, so each
 * reduction word is the low word itself, and q p = q 2^96 + q K 2^192 - q
 * with K = 2^64 - 2^32 + 1: two shifts and one MULX per word), the row
 * products in two carry chains (ADCX for the low halves, ADOX for the high
 * ones); a dedicated squaring (ten products); additions and subtractions
 * with a masked correction; and the Montgomery multiplication modulo the
 * group order n (general CIOS, q = t0 (-n^-1) per word) for the signing
 * and verification scalars.  Every element is kept fully reduced; no
 * branch and no memory index depends on data.  The protocol glue (key
 * formats, checks, RFC 6979 nonces) is the generic drivers'.
 *
 * The inline assembly avoids rbp (frame pointer in sanitizer builds).
 */
#include <rind/types.h>
#include <rind/internal/alg.h>
#include <rind/internal/kpp.h>
#include <rind/internal/sig.h>

static const u64 p256x_c[2] = { 0x00000000ffffffffull, 0xffffffff00000001ull };

/*
 * One Montgomery reduction step: q = T0 (the lowest word, -p^-1 = 1 mod
 * 2^64); (T0..T4, T5) += q p, which clears T0: q p = q 2^96 + q K 2^192 - q
 * with K = 2^64 - 2^32 + 1, and -q cancels T0 exactly.
 */
#define P256X_RED(T0, T1, T2, T3, T4, T5)				\
	"movq %[" T0 "], %%rdx\n\t"					\
	"movq %[" T0 "], %%rax\n\t"					\
	"shlq $32, %%rax\n\t"						\
	"shrq $32, %%rdx\n\t"						\
	"addq %%rax, %[" T1 "]\n\t"					\
	"adcq %%rdx, %[" T2 "]\n\t"					\
	"movq %[" T0 "], %%rdx\n\t"					\
	"mulxq %[c1], %%rax, %%rdx\n\t"					\
	"adcq %%rax, %[" T3 "]\n\t"					\
	"adcq %%rdx, %[" T4 "]\n\t"					\
	"adcq $0, %[" T5 "]\n\t"

/* (T1..T5, T0) = (T1..T5) + a * b[BO / 8]; T0 is free on entry */
#define P256X_MAC(BO, T1, T2, T3, T4, T5, T0)				\
	"movq " BO "(%[b]), %%rdx\n\t"					\
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
	"adcxq %[" T0 "], %[" T5 "]\n\t"				\
	"adoxq %[" T0 "], %[" T0 "]\n\t"				\
	"adcq $0, %[" T0 "]\n\t"

/* (X0..X3) + TOP 2^256 < 2p: minus p unless that borrows, into r; F is free */
#define P256X_FINAL(X0, X1, X2, X3, TOP, F)				\
	"movq %[" X0 "], %%rax\n\t"					\
	"movq %[" X1 "], %%rcx\n\t"					\
	"movq %[" X2 "], %%rdx\n\t"					\
	"movq %[" X3 "], %[" F "]\n\t"					\
	"subq $-1, %%rax\n\t"						\
	"sbbq %[c0], %%rcx\n\t"						\
	"sbbq $0, %%rdx\n\t"						\
	"sbbq %[c1], %[" F "]\n\t"					\
	"sbbq $0, %[" TOP "]\n\t"					\
	"cmovcq %[" X0 "], %%rax\n\t"					\
	"cmovcq %[" X1 "], %%rcx\n\t"					\
	"cmovcq %[" X2 "], %%rdx\n\t"					\
	"cmovcq %[" X3 "], %[" F "]\n\t"				\
	"movq %%rax, 0(%[r])\n\t"					\
	"movq %%rcx, 8(%[r])\n\t"					\
	"movq %%rdx, 16(%[r])\n\t"					\
	"movq %[" F "], 24(%[r])\n\t"

/* r = a b / 2^256 mod p */
static inline void p256x_mul(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5;

	__asm__ volatile(
		"movq 0(%[b]), %%rdx\n\t"
		"mulxq 0(%[a]), %[t0], %[t1]\n\t"
		"mulxq 8(%[a]), %%rax, %[t2]\n\t"
		"addq %%rax, %[t1]\n\t"
		"mulxq 16(%[a]), %%rax, %[t3]\n\t"
		"adcq %%rax, %[t2]\n\t"
		"mulxq 24(%[a]), %%rax, %[t4]\n\t"
		"adcq %%rax, %[t3]\n\t"
		"adcq $0, %[t4]\n\t"
		"movl $0, %k[t5]\n\t"
		P256X_RED("t0", "t1", "t2", "t3", "t4", "t5")
		P256X_MAC("8", "t1", "t2", "t3", "t4", "t5", "t0")
		P256X_RED("t1", "t2", "t3", "t4", "t5", "t0")
		P256X_MAC("16", "t2", "t3", "t4", "t5", "t0", "t1")
		P256X_RED("t2", "t3", "t4", "t5", "t0", "t1")
		P256X_MAC("24", "t3", "t4", "t5", "t0", "t1", "t2")
		P256X_RED("t3", "t4", "t5", "t0", "t1", "t2")
		P256X_FINAL("t4", "t5", "t0", "t1", "t2", "t3")
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4), [t5] "=&r"(t5)
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), [c0] "m"(p256x_c[0]), [c1] "m"(p256x_c[1])
		: "rax", "rcx", "rdx", "cc", "memory");
}

/* low-half reduction step (no carry word beyond T0's new role as the top) */
#define P256X_REDL(T0, T1, T2, T3)					\
	"movq %[" T0 "], %%rdx\n\t"					\
	"movq %[" T0 "], %%rax\n\t"					\
	"shlq $32, %%rax\n\t"						\
	"shrq $32, %%rdx\n\t"						\
	"addq %%rax, %[" T1 "]\n\t"					\
	"adcq %%rdx, %[" T2 "]\n\t"					\
	"movq %[" T0 "], %%rdx\n\t"					\
	"mulxq %[c1], %%rax, %[" T0 "]\n\t"				\
	"adcq %%rax, %[" T3 "]\n\t"					\
	"adcq $0, %[" T0 "]\n\t"

/* r = a^2 / 2^256 mod p */
static inline void p256x_sqr(u64 *r, const u64 *a)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7;

	__asm__ volatile(
		/* cross products a_i a_j (i < j) into t1..t6 */
		"movq 0(%[a]), %%rdx\n\t"
		"mulxq 8(%[a]), %[t1], %[t2]\n\t"
		"mulxq 16(%[a]), %%rax, %[t3]\n\t"
		"addq %%rax, %[t2]\n\t"
		"mulxq 24(%[a]), %%rax, %[t4]\n\t"
		"adcq %%rax, %[t3]\n\t"
		"adcq $0, %[t4]\n\t"
		"movq 8(%[a]), %%rdx\n\t"
		"mulxq 16(%[a]), %%rax, %%rcx\n\t"
		"mulxq 24(%[a]), %[t6], %[t5]\n\t"
		"addq %%rax, %[t3]\n\t"
		"adcq %%rcx, %[t4]\n\t"
		"adcq $0, %[t5]\n\t"
		"addq %[t6], %[t4]\n\t"
		"adcq $0, %[t5]\n\t"
		"movq 16(%[a]), %%rdx\n\t"
		"mulxq 24(%[a]), %%rax, %[t6]\n\t"
		"addq %%rax, %[t5]\n\t"
		"adcq $0, %[t6]\n\t"
		/* doubled, plus the squares */
		"xorl %k[t7], %k[t7]\n\t"
		"addq %[t1], %[t1]\n\t"
		"adcq %[t2], %[t2]\n\t"
		"adcq %[t3], %[t3]\n\t"
		"adcq %[t4], %[t4]\n\t"
		"adcq %[t5], %[t5]\n\t"
		"adcq %[t6], %[t6]\n\t"
		"adcq $0, %[t7]\n\t"
		"movq 0(%[a]), %%rdx\n\t"
		"mulxq %%rdx, %[t0], %%rax\n\t"
		"addq %%rax, %[t1]\n\t"
		"movq 8(%[a]), %%rdx\n\t"
		"mulxq %%rdx, %%rax, %%rcx\n\t"
		"adcq %%rax, %[t2]\n\t"
		"adcq %%rcx, %[t3]\n\t"
		"movq 16(%[a]), %%rdx\n\t"
		"mulxq %%rdx, %%rax, %%rcx\n\t"
		"adcq %%rax, %[t4]\n\t"
		"adcq %%rcx, %[t5]\n\t"
		"movq 24(%[a]), %%rdx\n\t"
		"mulxq %%rdx, %%rax, %%rcx\n\t"
		"adcq %%rax, %[t6]\n\t"
		"adcq %%rcx, %[t7]\n\t"
		/* reduce the low half: (t0..t3) becomes X <= p in t0..t3 */
		P256X_REDL("t0", "t1", "t2", "t3")
		P256X_REDL("t1", "t2", "t3", "t0")
		P256X_REDL("t2", "t3", "t0", "t1")
		P256X_REDL("t3", "t0", "t1", "t2")
		/* + the high half */
		"addq %[t4], %[t0]\n\t"
		"adcq %[t5], %[t1]\n\t"
		"adcq %[t6], %[t2]\n\t"
		"adcq %[t7], %[t3]\n\t"
		"movl $0, %k[t4]\n\t"
		"adcq $0, %[t4]\n\t"
		P256X_FINAL("t0", "t1", "t2", "t3", "t4", "t5")
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6), [t7] "=&r"(t7)
		: [r] "r"(r), [a] "r"(a), [c0] "m"(p256x_c[0]), [c1] "m"(p256x_c[1])
		: "rax", "rcx", "rdx", "cc", "memory");
}

/* r = a + b mod p */
static inline void p256x_add(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4;

	__asm__ volatile(
		"movq 0(%[a]), %[t0]\n\t"
		"movq 8(%[a]), %[t1]\n\t"
		"movq 16(%[a]), %[t2]\n\t"
		"movq 24(%[a]), %[t3]\n\t"
		"xorl %k[t4], %k[t4]\n\t"
		"addq 0(%[b]), %[t0]\n\t"
		"adcq 8(%[b]), %[t1]\n\t"
		"adcq 16(%[b]), %[t2]\n\t"
		"adcq 24(%[b]), %[t3]\n\t"
		"adcq $0, %[t4]\n\t"
		P256X_FINAL("t0", "t1", "t2", "t3", "t4", "a")
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4), [a] "+&r"(a)
		: [r] "r"(r), [b] "r"(b), [c0] "m"(p256x_c[0]), [c1] "m"(p256x_c[1])
		: "rax", "rcx", "rdx", "cc", "memory");
}

/* r = a - b mod p */
static inline void p256x_sub(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, m;

	__asm__ volatile(
		"movq 0(%[a]), %[t0]\n\t"
		"movq 8(%[a]), %[t1]\n\t"
		"movq 16(%[a]), %[t2]\n\t"
		"movq 24(%[a]), %[t3]\n\t"
		"subq 0(%[b]), %[t0]\n\t"
		"sbbq 8(%[b]), %[t1]\n\t"
		"sbbq 16(%[b]), %[t2]\n\t"
		"sbbq 24(%[b]), %[t3]\n\t"
		"sbbq %[m], %[m]\n\t"			/* all ones on borrow: add p */
		"movl %k[m], %%eax\n\t"			/* m & 0xffffffff */
		"movq %[m], %%rcx\n\t"
		"andq %[c1], %%rcx\n\t"			/* m & K */
		"addq %[m], %[t0]\n\t"
		"adcq %%rax, %[t1]\n\t"
		"adcq $0, %[t2]\n\t"
		"adcq %%rcx, %[t3]\n\t"
		"movq %[t0], 0(%[r])\n\t"
		"movq %[t1], 8(%[r])\n\t"
		"movq %[t2], 16(%[r])\n\t"
		"movq %[t3], 24(%[r])\n\t"
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [m] "=&r"(m)
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), [c1] "m"(p256x_c[1])
		: "rax", "rcx", "cc", "memory");
}

/* r = a / 2 mod p: (a + p) / 2 when a is odd */
static inline void p256x_half(u64 *r, const u64 *a)
{
	u64 t0, t1, t2, t3, t4, m;

	__asm__ volatile(
		"movq 0(%[a]), %[t0]\n\t"
		"movq 8(%[a]), %[t1]\n\t"
		"movq 16(%[a]), %[t2]\n\t"
		"movq 24(%[a]), %[t3]\n\t"
		"movq %[t0], %[m]\n\t"
		"andq $1, %[m]\n\t"
		"negq %[m]\n\t"			/* all ones when odd: add p */
		"movl %k[m], %%eax\n\t"
		"movq %[m], %%rcx\n\t"
		"andq %[c1], %%rcx\n\t"
		"xorl %k[t4], %k[t4]\n\t"
		"addq %[m], %[t0]\n\t"
		"adcq %%rax, %[t1]\n\t"
		"adcq $0, %[t2]\n\t"
		"adcq %%rcx, %[t3]\n\t"
		"adcq $0, %[t4]\n\t"
		"shrdq $1, %[t1], %[t0]\n\t"
		"shrdq $1, %[t2], %[t1]\n\t"
		"shrdq $1, %[t3], %[t2]\n\t"
		"shrdq $1, %[t4], %[t3]\n\t"
		"movq %[t0], 0(%[r])\n\t"
		"movq %[t1], 8(%[r])\n\t"
		"movq %[t2], 16(%[r])\n\t"
		"movq %[t3], 24(%[r])\n\t"
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
		  [m] "=&r"(m)
		: [r] "r"(r), [a] "r"(a), [c1] "m"(p256x_c[1])
		: "rax", "rcx", "cc", "memory");
}

/* Montgomery multiplication modulo the group order n (R = 2^256) */
static const u64 p256x_n[5] = {
	0xf3b9cac2fc632551ull, 0xbce6faada7179e84ull, 0xffffffffffffffffull, 0xffffffff00000000ull,
	0xccd1c8aaee00bc4full,	/* -n^-1 mod 2^64 */
};

/* (T0..T4, T5) += q n with q = T0 (-n^-1) mod 2^64, which clears T0 */
#define P256X_NRED(T0, T1, T2, T3, T4, T5)				\
	"movq %[" T0 "], %%rdx\n\t"					\
	"imulq 32(%[n]), %%rdx\n\t"					\
	"xorl %%eax, %%eax\n\t"						\
	"mulxq 0(%[n]), %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T0 "]\n\t"					\
	"adoxq %%rcx, %[" T1 "]\n\t"					\
	"mulxq 8(%[n]), %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T1 "]\n\t"					\
	"adoxq %%rcx, %[" T2 "]\n\t"					\
	"mulxq 16(%[n]), %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T2 "]\n\t"					\
	"adoxq %%rcx, %[" T3 "]\n\t"					\
	"mulxq 24(%[n]), %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T3 "]\n\t"					\
	"adoxq %%rcx, %[" T4 "]\n\t"					\
	"movl $0, %%eax\n\t"						\
	"adcxq %%rax, %[" T4 "]\n\t"					\
	"adoxq %%rax, %[" T5 "]\n\t"					\
	"adcxq %%rax, %[" T5 "]\n\t"

static inline void p256x_nmul(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5;

	__asm__ volatile(
		"movq 0(%[b]), %%rdx\n\t"
		"mulxq 0(%[a]), %[t0], %[t1]\n\t"
		"mulxq 8(%[a]), %%rax, %[t2]\n\t"
		"addq %%rax, %[t1]\n\t"
		"mulxq 16(%[a]), %%rax, %[t3]\n\t"
		"adcq %%rax, %[t2]\n\t"
		"mulxq 24(%[a]), %%rax, %[t4]\n\t"
		"adcq %%rax, %[t3]\n\t"
		"adcq $0, %[t4]\n\t"
		"movl $0, %k[t5]\n\t"
		P256X_NRED("t0", "t1", "t2", "t3", "t4", "t5")
		P256X_MAC("8", "t1", "t2", "t3", "t4", "t5", "t0")
		P256X_NRED("t1", "t2", "t3", "t4", "t5", "t0")
		P256X_MAC("16", "t2", "t3", "t4", "t5", "t0", "t1")
		P256X_NRED("t2", "t3", "t4", "t5", "t0", "t1")
		P256X_MAC("24", "t3", "t4", "t5", "t0", "t1", "t2")
		P256X_NRED("t3", "t4", "t5", "t0", "t1", "t2")
		/* (t4 t5 t0 t1) + t2 2^256 < 2n: minus n unless that borrows */
		"movq %[t4], %%rax\n\t"
		"movq %[t5], %%rcx\n\t"
		"movq %[t0], %%rdx\n\t"
		"movq %[t1], %[t3]\n\t"
		"subq 0(%[n]), %%rax\n\t"
		"sbbq 8(%[n]), %%rcx\n\t"
		"sbbq 16(%[n]), %%rdx\n\t"
		"sbbq 24(%[n]), %[t3]\n\t"
		"sbbq $0, %[t2]\n\t"
		"cmovcq %[t4], %%rax\n\t"
		"cmovcq %[t5], %%rcx\n\t"
		"cmovcq %[t0], %%rdx\n\t"
		"cmovcq %[t1], %[t3]\n\t"
		"movq %%rax, 0(%[r])\n\t"
		"movq %%rcx, 8(%[r])\n\t"
		"movq %%rdx, 16(%[r])\n\t"
		"movq %[t3], 24(%[r])\n\t"
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4), [t5] "=&r"(t5)
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), [n] "r"(p256x_n)
		: "rax", "rcx", "rdx", "cc", "memory");
}

#define ECC_N			4
#define ECC_GW			6
#define ECC_FP_MUL(r, a, b)	p256x_mul(r, a, b)
#define ECC_FP_SQR(r, a)	p256x_sqr(r, a)
#define ECC_FP_ADD(r, a, b)	p256x_add(r, a, b)
#define ECC_FP_SUB(r, a, b)	p256x_sub(r, a, b)
#define ECC_FP_HALF(r, a)	p256x_half(r, a)
#define ECC_FN_MUL(r, a, b)	p256x_nmul(r, a, b)
#include "../../algs/ecc-impl.h"
#include "../../algs/ecc-p256.h"

ECC_DEFINE_CURVE(ecc_p256_adx, p256_def, "P-256", RIND_OID_SECP256R1, 32, 256);

/* ---- registration -------------------------------------------------------- */

/*
 * The protocol glue registers a driver over a curve implementation
 * (algs/ecdh.c, algs/ecdsa.c); weak so that this file links (and registers
 * nothing) with a library whose glue cannot do that yet.
 */
#pragma weak ecdh_register_curve_driver
#pragma weak ecdsa_register_curve_driver

static struct ecdh_driver p256_adx_ecdh = {
	.curve = &ecc_p256_adx,
	.alg.base = {
		.cra_name = "ecdh-nist-p256",
		.cra_driver_name = "ecdh-nist-p256-adx",
		.cra_priority = 300,
		.cra_module = "x86",
	},
};

static struct ecdsa_driver p256_adx_ecdsa = {
	.curve = &ecc_p256_adx,
	.alg.base = {
		.cra_name = "ecdsa-nist-p256",
		.cra_driver_name = "ecdsa-nist-p256-adx",
		.cra_priority = 300,
		.cra_module = "x86",
	},
};

static int ecc_p256_adx_mod_init(void)
{
	int err;

	if (!rind_cpu_has(RIND_X86_BMI2) || !rind_cpu_has(RIND_X86_ADX))
		return 0;
	if (!ecdh_register_curve_driver || !ecdsa_register_curve_driver)
		return 0;
	err = ecdh_register_curve_driver(&p256_adx_ecdh);
	if (err)
		return err;
	return ecdsa_register_curve_driver(&p256_adx_ecdsa);
}

module_init(ecc_p256_adx_mod_init);
