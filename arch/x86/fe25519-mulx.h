/* SPDX-License-Identifier: MIT */
/*
 * Arithmetic in GF(2^255 - 19) for x86-64 with BMI2 (MULX) and ADX
 * (ADCX/ADOX): four 64-bit limbs, radix 2^64.  The interface is that of
 * api/include/crypto/fe25519.h, so the curve code (api/include/crypto/ed25519-impl.h) and the X25519
 * ladder run unchanged over it.  The caller must have checked
 * rind_cpu_has(RIND_X86_BMI2) and rind_cpu_has(RIND_X86_ADX).
 *
 * The element type, byte conversion, masked moves, the inversion and the
 * exponent chains are <crypto/fe25519-64.h>, shared with arm64; this is
 * the arithmetic.  Elements are kept below 2^256 but not reduced below p;
 * only fe_tobytes produces the canonical value.  Products are reduced with
 * 2^256 = 38 (mod p): the high four limbs are multiplied by 38 and added
 * to the low four, and what carries out past 2^256 is folded in the same
 * way.  Multiplication is schoolbook with MULX, its two carry chains
 * (low and high halves of the partial products) kept apart in CF (ADCX)
 * and OF (ADOX).  Everything is constant time: no branch, no
 * data-dependent address, and carries are folded with CMOV.
 *
 * The inline assembly avoids rbp (frame pointer in sanitizer builds).
 */
#ifndef _RIND_X86_FE25519_MULX_H
#define _RIND_X86_FE25519_MULX_H

#include <rind/types.h>
#include <rind/internal/util.h>
#include "fe25519-inv-x86.h"
/*
 * fe_invert of <crypto/fe25519-64.h> over the x86 divsteps
 * (fe25519-inv-x86.c: the same result, ~1/3 fewer instructions a step)
 * rather than algs/curve25519.c's portable ones.
 */
#define fe25519_invert_limbs fe25519_invert_limbs_x86
#include <crypto/fe25519-64.h>

/* h = f + g */
static inline void fe_add(fe *h, const fe *f, const fe *g)
{
	__asm__ volatile(
		"movq 0(%1), %%r8\n\t"
		"addq 0(%2), %%r8\n\t"
		"movq 8(%1), %%r9\n\t"
		"adcq 8(%2), %%r9\n\t"
		"movq 16(%1), %%r10\n\t"
		"adcq 16(%2), %%r10\n\t"
		"movq 24(%1), %%r11\n\t"
		"adcq 24(%2), %%r11\n\t"
		"movl $0, %%eax\n\t"
		"movl $38, %%ecx\n\t"
		"cmovcq %%rcx, %%rax\n\t"
		"addq %%rax, %%r8\n\t"
		"adcq $0, %%r9\n\t"
		"adcq $0, %%r10\n\t"
		"adcq $0, %%r11\n\t"
		"movl $0, %%eax\n\t"
		"cmovcq %%rcx, %%rax\n\t"
		"addq %%rax, %%r8\n\t"
		"movq %%r8, 0(%0)\n\t"
		"movq %%r9, 8(%0)\n\t"
		"movq %%r10, 16(%0)\n\t"
		"movq %%r11, 24(%0)\n\t"
		:
		: "r"(h), "r"(f), "r"(g)
		: "rax", "rcx", "r8", "r9", "r10", "r11", "cc", "memory");
}

/* h = f - g */
static inline void fe_sub(fe *h, const fe *f, const fe *g)
{
	__asm__ volatile(
		"movq 0(%1), %%r8\n\t"
		"subq 0(%2), %%r8\n\t"
		"movq 8(%1), %%r9\n\t"
		"sbbq 8(%2), %%r9\n\t"
		"movq 16(%1), %%r10\n\t"
		"sbbq 16(%2), %%r10\n\t"
		"movq 24(%1), %%r11\n\t"
		"sbbq 24(%2), %%r11\n\t"
		"movl $0, %%eax\n\t"
		"movl $38, %%ecx\n\t"
		"cmovcq %%rcx, %%rax\n\t"
		"subq %%rax, %%r8\n\t"
		"sbbq $0, %%r9\n\t"
		"sbbq $0, %%r10\n\t"
		"sbbq $0, %%r11\n\t"
		"movl $0, %%eax\n\t"
		"cmovcq %%rcx, %%rax\n\t"
		"subq %%rax, %%r8\n\t"
		"movq %%r8, 0(%0)\n\t"
		"movq %%r9, 8(%0)\n\t"
		"movq %%r10, 16(%0)\n\t"
		"movq %%r11, 24(%0)\n\t"
		:
		: "r"(h), "r"(f), "r"(g)
		: "rax", "rcx", "r8", "r9", "r10", "r11", "cc", "memory");
}

static inline void fe_neg(fe *h, const fe *f)
{
	fe z;

	fe_0(&z);
	fe_sub(h, &z, f);
}

/*
 * Reduce the eight limbs in r8..r15 (r8 lowest) to four, stored at [h]:
 * lo + 38 * hi, then the carry limb times 38, then a last carry.  Uses
 * rax, rbx, rdx and the named operand Z as a scratch register.
 */
#define FE_REDUCE_8(Z)						\
		"movl $38, %%edx\n\t"					\
		"xorl %k[" #Z "], %k[" #Z "]\n\t"				\
		"mulxq %%r12, %%rax, %%rbx\n\t"				\
		"adcxq %%rax, %%r8\n\t"					\
		"adoxq %%rbx, %%r9\n\t"					\
		"mulxq %%r13, %%rax, %%rbx\n\t"				\
		"adcxq %%rax, %%r9\n\t"					\
		"adoxq %%rbx, %%r10\n\t"				\
		"mulxq %%r14, %%rax, %%rbx\n\t"				\
		"adcxq %%rax, %%r10\n\t"				\
		"adoxq %%rbx, %%r11\n\t"				\
		"mulxq %%r15, %%rax, %%r12\n\t"				\
		"adcxq %%rax, %%r11\n\t"				\
		"adoxq %[" #Z "], %%r12\n\t"				\
		"adcxq %[" #Z "], %%r12\n\t"				\
		"imulq $38, %%r12, %%r12\n\t"				\
		"addq %%r12, %%r8\n\t"					\
		"adcq %[" #Z "], %%r9\n\t"					\
		"adcq %[" #Z "], %%r10\n\t"					\
		"adcq %[" #Z "], %%r11\n\t"					\
		"cmovcq %%rdx, %[" #Z "]\n\t"				\
		"addq %[" #Z "], %%r8\n\t"					\
		"movq %%r8, 0(%[h])\n\t"				\
		"movq %%r9, 8(%[h])\n\t"				\
		"movq %%r10, 16(%[h])\n\t"				\
		"movq %%r11, 24(%[h])\n\t"

/* h = f * g */
static inline void fe_mul(fe *h, const fe *f, const fe *g)
{
	/* g's register is reused as the zero register of the reduction. */
	const fe *fp = f, *gp = g;

	__asm__ volatile(
		/* row 0: f * g0 into r8..r12 */
		"movq 0(%[g]), %%rdx\n\t"
		"mulxq 0(%[f]), %%r8, %%r9\n\t"
		"mulxq 8(%[f]), %%rax, %%r10\n\t"
		"addq %%rax, %%r9\n\t"
		"mulxq 16(%[f]), %%rax, %%r11\n\t"
		"adcq %%rax, %%r10\n\t"
		"mulxq 24(%[f]), %%rax, %%r12\n\t"
		"adcq %%rax, %%r11\n\t"
		"adcq $0, %%r12\n\t"
		/* row 1: f * g1 into r9..r13 */
		"movq 8(%[g]), %%rdx\n\t"
		"xorl %%eax, %%eax\n\t"
		"mulxq 0(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r9\n\t"
		"adoxq %%rbx, %%r10\n\t"
		"mulxq 8(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r10\n\t"
		"adoxq %%rbx, %%r11\n\t"
		"mulxq 16(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r11\n\t"
		"adoxq %%rbx, %%r12\n\t"
		"mulxq 24(%[f]), %%rax, %%r13\n\t"
		"adcxq %%rax, %%r12\n\t"
		"movl $0, %%eax\n\t"
		"adoxq %%rax, %%r13\n\t"
		"adcxq %%rax, %%r13\n\t"
		/* row 2: f * g2 into r10..r14 */
		"movq 16(%[g]), %%rdx\n\t"
		"xorl %%eax, %%eax\n\t"
		"mulxq 0(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r10\n\t"
		"adoxq %%rbx, %%r11\n\t"
		"mulxq 8(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r11\n\t"
		"adoxq %%rbx, %%r12\n\t"
		"mulxq 16(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r12\n\t"
		"adoxq %%rbx, %%r13\n\t"
		"mulxq 24(%[f]), %%rax, %%r14\n\t"
		"adcxq %%rax, %%r13\n\t"
		"movl $0, %%eax\n\t"
		"adoxq %%rax, %%r14\n\t"
		"adcxq %%rax, %%r14\n\t"
		/* row 3: f * g3 into r11..r15 */
		"movq 24(%[g]), %%rdx\n\t"
		"xorl %%eax, %%eax\n\t"
		"mulxq 0(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r11\n\t"
		"adoxq %%rbx, %%r12\n\t"
		"mulxq 8(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r12\n\t"
		"adoxq %%rbx, %%r13\n\t"
		"mulxq 16(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r13\n\t"
		"adoxq %%rbx, %%r14\n\t"
		"mulxq 24(%[f]), %%rax, %%r15\n\t"
		"adcxq %%rax, %%r14\n\t"
		"movl $0, %%eax\n\t"
		"adoxq %%rax, %%r15\n\t"
		"adcxq %%rax, %%r15\n\t"
		FE_REDUCE_8(g)
		: [f] "+&r"(fp), [g] "+&r"(gp)
		: [h] "r"(h)
		: "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
		  "cc", "memory");
}

/* h = f^2 */
static inline void fe_sq(fe *h, const fe *f)
{
	u64 z;

	__asm__ volatile(
		/* cross products f_i f_j (i < j) into r9..r14 */
		"movq 0(%[f]), %%rdx\n\t"
		"mulxq 8(%[f]), %%r9, %%r10\n\t"
		"mulxq 16(%[f]), %%rax, %%r11\n\t"
		"addq %%rax, %%r10\n\t"
		"mulxq 24(%[f]), %%rax, %%r12\n\t"
		"adcq %%rax, %%r11\n\t"
		"adcq $0, %%r12\n\t"
		"movq 8(%[f]), %%rdx\n\t"
		"xorl %k[z], %k[z]\n\t"
		"mulxq 16(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r11\n\t"
		"adoxq %%rbx, %%r12\n\t"
		"mulxq 24(%[f]), %%rax, %%r13\n\t"
		"adcxq %%rax, %%r12\n\t"
		"adoxq %[z], %%r13\n\t"
		"adcxq %[z], %%r13\n\t"
		"movq 16(%[f]), %%rdx\n\t"
		"mulxq 24(%[f]), %%rax, %%r14\n\t"
		"addq %%rax, %%r13\n\t"
		"adcq %[z], %%r14\n\t"
		/* doubled, the top bit into r15 */
		"xorl %%r15d, %%r15d\n\t"
		"addq %%r9, %%r9\n\t"
		"adcq %%r10, %%r10\n\t"
		"adcq %%r11, %%r11\n\t"
		"adcq %%r12, %%r12\n\t"
		"adcq %%r13, %%r13\n\t"
		"adcq %%r14, %%r14\n\t"
		"adcq %%r15, %%r15\n\t"
		/* plus the squares f_i^2 at 2i */
		"movq 0(%[f]), %%rdx\n\t"
		"mulxq %%rdx, %%r8, %%rax\n\t"
		"addq %%rax, %%r9\n\t"
		"movq 8(%[f]), %%rdx\n\t"
		"mulxq %%rdx, %%rax, %%rbx\n\t"
		"adcq %%rax, %%r10\n\t"
		"adcq %%rbx, %%r11\n\t"
		"movq 16(%[f]), %%rdx\n\t"
		"mulxq %%rdx, %%rax, %%rbx\n\t"
		"adcq %%rax, %%r12\n\t"
		"adcq %%rbx, %%r13\n\t"
		"movq 24(%[f]), %%rdx\n\t"
		"mulxq %%rdx, %%rax, %%rbx\n\t"
		"adcq %%rax, %%r14\n\t"
		"adcq %%rbx, %%r15\n\t"
		FE_REDUCE_8(z)
		: [z] "=&r"(z)
		: [h] "r"(h), [f] "r"(f)
		: "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
		  "cc", "memory");
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

/* h = f * c for a constant c < 2^32 */
static inline void fe_mul_small(fe *h, const fe *f, u32 c)
{
	u64 cc = c;

	__asm__ volatile(
		"movq %2, %%rdx\n\t"
		"mulxq 0(%1), %%r8, %%r9\n\t"
		"mulxq 8(%1), %%rax, %%r10\n\t"
		"addq %%rax, %%r9\n\t"
		"mulxq 16(%1), %%rax, %%r11\n\t"
		"adcq %%rax, %%r10\n\t"
		"mulxq 24(%1), %%rax, %%rcx\n\t"
		"adcq %%rax, %%r11\n\t"
		"adcq $0, %%rcx\n\t"
		"imulq $38, %%rcx, %%rcx\n\t"
		"movl $0, %%eax\n\t"
		"addq %%rcx, %%r8\n\t"
		"adcq %%rax, %%r9\n\t"
		"adcq %%rax, %%r10\n\t"
		"adcq %%rax, %%r11\n\t"
		"movl $38, %%ecx\n\t"
		"cmovcq %%rcx, %%rax\n\t"
		"addq %%rax, %%r8\n\t"
		"movq %%r8, 0(%0)\n\t"
		"movq %%r9, 8(%0)\n\t"
		"movq %%r10, 16(%0)\n\t"
		"movq %%r11, 24(%0)\n\t"
		:
		: "r"(h), "r"(f), "r"(cc)
		: "rax", "rcx", "rdx", "r8", "r9", "r10", "r11", "cc", "memory");
}

#endif /* _RIND_X86_FE25519_MULX_H */
