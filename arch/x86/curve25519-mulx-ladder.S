/* SPDX-License-Identifier: MIT */
/*
 * The X25519 Montgomery ladder (RFC 7748 section 5) in one function, with
 * MULX/ADCX/ADOX field arithmetic modulo p = 2^255 - 19 on four 64-bit
 * limbs (curve25519-mulx.c calls it, then inverts).
 * Requires: BMI2 (MULX, SHRX), ADX (ADCX, ADOX).
 *
 *   void curve25519_ladder_mulx(u64 xz[8], const u8 k[32], const u64 x1[4]);
 *
 * Runs the 255 steps for the bits 254..0 of the clamped scalar k from
 * (x2 : z2) = (1 : 0), (x3 : z3) = (x1 : 1) and writes x2 (xz[0..3]) and
 * z2 (xz[4..7]), below 2^256 but not reduced below p.  x1 < 2^255.  k
 * must be clamped as RFC 7748 does (bits 0, 1, 2 and 255 clear, 254
 * set): the last three steps are doublings only.
 *
 * Every field element lives in the stack frame; each operation (the
 * macros of fe25519-mulx-asm.h) loads its operands there and stores its
 * result, so that no register is reserved across operations but rcx,
 * which holds 0 for the carry chains.  Products are weakly reduced
 * (below 2^255 + 2^11, "W"), as is the multiply-add by a24, so each sum
 * and difference needs one fold of 38: the ladder adds only values in W
 * and subtracts only products, and the inputs 0, 1 and x1 are in W.
 *
 * The conditional swap, as a selection.  With s = k_t xor k_(t+1), the
 * step works on (x2, z2) and (x3, z3) swapped when s = 1.  But only the
 * doubling tells the two pairs apart: the differential addition uses
 * DA + CB and (DA - CB)^2, which swapping the pairs (A, B) <-> (C, D)
 * leaves unchanged (DA and CB trade places; the difference changes sign
 * and is squared).  So the step forms A = x2 + z2, B = x2 - z2,
 * C = x3 + z3 and D = x3 - z3 from the pairs as they are, and selects by
 * CMOV in registers only the pair that is doubled, (A, B) or (C, D):
 * four limbs twice instead of swapping eight limb pairs.  The pair that
 * is doubled becomes (x2, z2), the sum (x3, z3), as after a swap.  No
 * branch and no address depends on the scalar; the frame (every
 * intermediate value) is wiped before returning.
 */

	.text

/* Stack frame (after the six pushes), 32 bytes a field element: */
#define X1	0
#define X2	32
#define Z2	64
#define X3	96
#define Z3	128
#define A	160
#define B	192
#define C	224
#define D	256
#define AA	288
#define BB	320
#define E	352
#define DA	384
#define CB	416
#define T1	448
#define T2	480
#define E2	512
#define PL	544	/* FE_MUL2: the low limbs of its two products */
#define QL	576
#define SA	608	/* A or C, the one doubled */
#define SB	640	/* B or D */
#define SW	672	/* s = k ^ (k >> 1), bit 255 of k cleared: the swaps */
#define F_OUT	704	/* xz */
#define F_K	712	/* k */
#define F_T	720	/* t, the bit */
#define FRAME	728	/* 8 mod 16 after the pushes: rsp 16-byte aligned */

/* a24 = (486662 + 2) / 4 - 1 + 1: z2 = E (BB + 121666 E) */
#define A24P	121666

#include "fe25519-mulx-asm.h"

/*
 * u = [\a] + [\b] (or - with \op = sub/sbb) into r8..r11 and
 * v = [\c] + [\d] into r12..r15, each settled as FE_ADD/FE_SUB and
 * stored at \du and \dv; then v when the mask in rsi is set, else u,
 * stored at \ds (CMOV: no branch, no address from the mask).
 */
.macro PAIR_SEL ds, du, dv, a, b, c, d, op, opc
	movq	\a(%rsp), %r8
	\op\()q	\b(%rsp), %r8
	movq	\a+8(%rsp), %r9
	\opc\()q \b+8(%rsp), %r9
	movq	\a+16(%rsp), %r10
	\opc\()q \b+16(%rsp), %r10
	movq	\a+24(%rsp), %r11
	\opc\()q \b+24(%rsp), %r11
	sbbq	%rax, %rax
	andl	$38, %eax
	\op\()q	%rax, %r8
	\opc\()q %rcx, %r9
	\opc\()q %rcx, %r10
	\opc\()q %rcx, %r11
	movq	\c(%rsp), %r12
	\op\()q	\d(%rsp), %r12
	movq	\c+8(%rsp), %r13
	\opc\()q \d+8(%rsp), %r13
	movq	\c+16(%rsp), %r14
	\opc\()q \d+16(%rsp), %r14
	movq	\c+24(%rsp), %r15
	\opc\()q \d+24(%rsp), %r15
	sbbq	%rax, %rax
	andl	$38, %eax
	\op\()q	%rax, %r12
	\opc\()q %rcx, %r13
	\opc\()q %rcx, %r14
	\opc\()q %rcx, %r15
	movq	%r8, \du(%rsp)
	movq	%r9, \du+8(%rsp)
	movq	%r10, \du+16(%rsp)
	movq	%r11, \du+24(%rsp)
	movq	%r12, \dv(%rsp)
	movq	%r13, \dv+8(%rsp)
	movq	%r14, \dv+16(%rsp)
	movq	%r15, \dv+24(%rsp)
	testq	%rsi, %rsi
	cmovnzq	%r12, %r8
	cmovnzq	%r13, %r9
	cmovnzq	%r14, %r10
	cmovnzq	%r15, %r11
	movq	%r8, \ds(%rsp)
	movq	%r9, \ds+8(%rsp)
	movq	%r10, \ds+16(%rsp)
	movq	%r11, \ds+24(%rsp)
.endm


/*
 * The four low limbs of a product at \lo in the frame, the four high ones
 * in \h0..\h3: reduced to W (as FE_REDUCE) into \h0..\h3 and stored at
 * \dst.  Uses rax, rbx, rdx.
 */
.macro REDUCE_LO_MEM dst, lo, h0, h1, h2, h3
	xorl	%eax, %eax
	movl	$38, %edx
	mulxq	\h0, \h0, %rbx
	adcxq	\lo(%rsp), \h0
	mulxq	\h1, \h1, %rax
	adcxq	\lo+8(%rsp), \h1
	adoxq	%rbx, \h1
	mulxq	\h2, \h2, %rbx
	adcxq	\lo+16(%rsp), \h2
	adoxq	%rax, \h2
	mulxq	\h3, \h3, %rax
	adcxq	\lo+24(%rsp), \h3
	adoxq	%rbx, \h3
	adoxq	%rcx, %rax
	adcxq	%rcx, %rax
	btrq	$63, \h3
	adcq	%rax, %rax
	imulq	$19, %rax, %rax
	addq	%rax, \h0
	adcq	%rcx, \h1
	adcq	%rcx, \h2
	adcq	%rcx, \h3
	movq	\h0, \dst(%rsp)
	movq	\h1, \dst+8(%rsp)
	movq	\h2, \dst+16(%rsp)
	movq	\h3, \dst+24(%rsp)
.endm

/*
 * [\dp] = [\a] [\b] and [\dq] = [\c] [\d], in W: two independent products
 * with their rows interleaved, so that the core has two carry chains to
 * work on instead of one.  Each keeps a window of five limbs in registers
 * (P: r8..r12, Q: r13, r14, r15, rdi, rbp, rotating), stores the limb a
 * row completes (PL, QL) and is reduced from there.  Every row starts
 * with flags cleared (no flag dependency on the other product's row).
 * Clobbers rdi and rbp.
 */
.macro FE_MUL2 dp, a, b, dq, c, d
	xorl	%eax, %eax
	movq	\b(%rsp), %rdx
	mulxq	\a(%rsp), %r8, %r9
	mulxq	\a+8(%rsp), %rax, %r10
	adcxq	%rax, %r9
	mulxq	\a+16(%rsp), %rax, %r11
	adcxq	%rax, %r10
	mulxq	\a+24(%rsp), %rax, %r12
	adcxq	%rax, %r11
	adcxq	%rcx, %r12
	movq	%r8, PL(%rsp)
	xorl	%eax, %eax
	movq	\d(%rsp), %rdx
	mulxq	\c(%rsp), %r13, %r14
	mulxq	\c+8(%rsp), %rax, %r15
	adcxq	%rax, %r14
	mulxq	\c+16(%rsp), %rax, %rdi
	adcxq	%rax, %r15
	mulxq	\c+24(%rsp), %rax, %rbp
	adcxq	%rax, %rdi
	adcxq	%rcx, %rbp
	movq	%r13, QL(%rsp)
	xorl	%eax, %eax
	movq	\b+8(%rsp), %rdx
	FE_MULROW \a, %r9, %r10, %r11, %r12, %r8
	movq	%r9, PL+8(%rsp)
	xorl	%eax, %eax
	movq	\d+8(%rsp), %rdx
	FE_MULROW \c, %r14, %r15, %rdi, %rbp, %r13
	movq	%r14, QL+8(%rsp)
	xorl	%eax, %eax
	movq	\b+16(%rsp), %rdx
	FE_MULROW \a, %r10, %r11, %r12, %r8, %r9
	movq	%r10, PL+16(%rsp)
	xorl	%eax, %eax
	movq	\d+16(%rsp), %rdx
	FE_MULROW \c, %r15, %rdi, %rbp, %r13, %r14
	movq	%r15, QL+16(%rsp)
	xorl	%eax, %eax
	movq	\b+24(%rsp), %rdx
	FE_MULROW \a, %r11, %r12, %r8, %r9, %r10
	movq	%r11, PL+24(%rsp)
	xorl	%eax, %eax
	movq	\d+24(%rsp), %rdx
	FE_MULROW \c, %rdi, %rbp, %r13, %r14, %r15
	movq	%rdi, QL+24(%rsp)
	REDUCE_LO_MEM \dp, PL, %r12, %r8, %r9, %r10
	REDUCE_LO_MEM \dq, QL, %rbp, %r13, %r14, %r15
.endm

/* [\dst] = A24P [\a] + [\b] in W (\a below 2^256, \b in W). */
.macro CMADD dst, a, b
	movl	$A24P, %edx
	mulxq	\a(%rsp), %r8, %r9
	mulxq	\a+8(%rsp), %rax, %r10
	addq	%rax, %r9
	mulxq	\a+16(%rsp), %rax, %r11
	adcq	%rax, %r10
	mulxq	\a+24(%rsp), %rax, %r12
	adcq	%rax, %r11
	adcq	%rcx, %r12
	addq	\b(%rsp), %r8
	adcq	\b+8(%rsp), %r9
	adcq	\b+16(%rsp), %r10
	adcq	\b+24(%rsp), %r11
	adcq	%rcx, %r12
	btrq	$63, %r11
	adcq	%r12, %r12
	imulq	$19, %r12, %r12
	addq	%r12, %r8
	adcq	%rcx, %r9
	adcq	%rcx, %r10
	adcq	%rcx, %r11
	movq	%r8, \dst(%rsp)
	movq	%r9, \dst+8(%rsp)
	movq	%r10, \dst+16(%rsp)
	movq	%r11, \dst+24(%rsp)
.endm

/* (x2 : z2) = 2 (x : z) from SA = x + z and SB = x - z */
.macro LADDER_DBL
	FE_SQR	AA, SA
	FE_SQR	BB, SB
	FE_MUL	X2, AA, BB
	FE_SUB	E, AA, BB
	CMADD	E2, E, BB
	FE_MUL	Z2, E, E2
.endm

	.globl	curve25519_ladder_mulx
	.hidden	curve25519_ladder_mulx
	.type	curve25519_ladder_mulx, @function
	.balign	32
curve25519_ladder_mulx:
	.cfi_startproc
	endbr64
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbx, 0
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r12, 0
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r13, 0
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r14, 0
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r15, 0
	subq	$FRAME, %rsp
	.cfi_adjust_cfa_offset FRAME

	movq	%rdi, F_OUT(%rsp)
	movq	%rsi, %rdi			/* rdi: k */
	xorl	%ecx, %ecx			/* rcx: 0 throughout */
	/* x1, (x2 : z2) = (1 : 0), (x3 : z3) = (x1 : 1) */
	movq	0(%rdx), %r8
	movq	8(%rdx), %r9
	movq	16(%rdx), %r10
	movq	24(%rdx), %r11
	movq	%r8, X1(%rsp)
	movq	%r9, X1+8(%rsp)
	movq	%r10, X1+16(%rsp)
	movq	%r11, X1+24(%rsp)
	movq	%r8, X3(%rsp)
	movq	%r9, X3+8(%rsp)
	movq	%r10, X3+16(%rsp)
	movq	%r11, X3+24(%rsp)
	movq	$1, X2(%rsp)
	movq	%rcx, X2+8(%rsp)
	movq	%rcx, X2+16(%rsp)
	movq	%rcx, X2+24(%rsp)
	movq	%rcx, Z2(%rsp)
	movq	%rcx, Z2+8(%rsp)
	movq	%rcx, Z2+16(%rsp)
	movq	%rcx, Z2+24(%rsp)
	movq	$1, Z3(%rsp)
	movq	%rcx, Z3+8(%rsp)
	movq	%rcx, Z3+16(%rsp)
	movq	%rcx, Z3+24(%rsp)

	movq	%rdi, F_K(%rsp)
	/*
	 * Every step's swap bit at once, s_t = k_t ^ k_(t+1) (k_255 taken
	 * as 0): s = k ^ (k >> 1) into the frame, read a bit a step.
	 */
	movq	0(%rdi), %r8
	movq	8(%rdi), %r9
	movq	16(%rdi), %r10
	movq	24(%rdi), %r11
	btrq	$63, %r11
	movq	%r8, %r12
	shrdq	$1, %r9, %r12
	movq	%r9, %r13
	shrdq	$1, %r10, %r13
	movq	%r10, %r14
	shrdq	$1, %r11, %r14
	movq	%r11, %r15
	shrq	$1, %r15
	xorq	%r12, %r8
	xorq	%r13, %r9
	xorq	%r14, %r10
	xorq	%r15, %r11
	movq	%r8, SW(%rsp)
	movq	%r9, SW+8(%rsp)
	movq	%r10, SW+16(%rsp)
	movq	%r11, SW+24(%rsp)
	movl	$254, F_T(%rsp)			/* t, the bit */
.Lstep:
	/* s_t as a mask in rsi (the address from t, which is public) */
	movl	F_T(%rsp), %eax
	movl	%eax, %ebx
	shrl	$6, %ebx
	movq	SW(%rsp,%rbx,8), %rdx
	btq	%rax, %rdx
	sbbq	%rsi, %rsi

	PAIR_SEL SA, A, C, X2, Z2, X3, Z3, add, adc
	PAIR_SEL SB, B, D, X2, Z2, X3, Z3, sub, sbb
	FE_SQR	AA, SA
	FE_SQR	BB, SB
	FE_MUL2	DA, D, A, CB, C, B
	FE_MUL	X2, AA, BB
	FE_SUB	E, AA, BB
	FE_ADD	T1, DA, CB
	FE_SUB	T2, DA, CB
	CMADD	E2, E, BB
	FE_SQR	X3, T1
	FE_SQR	T2, T2
	FE_MUL2	Z2, E, E2, Z3, X1, T2

	decl	F_T(%rsp)
	cmpl	$2, F_T(%rsp)
	jg	.Lstep

	/*
	 * Bits 2, 1, 0 of a clamped scalar are 0: the last three steps only
	 * double (x2, z2), and (x3, z3) is not needed after them.  Step 2
	 * still selects which pair is doubled (by s_2 = k_3, secret); steps
	 * 1 and 0 double (x2, z2) as it is.
	 */
	movl	F_T(%rsp), %eax
	movq	SW(%rsp), %rdx
	btq	%rax, %rdx
	sbbq	%rsi, %rsi
	PAIR_SEL SA, A, C, X2, Z2, X3, Z3, add, adc
	PAIR_SEL SB, B, D, X2, Z2, X3, Z3, sub, sbb
	LADDER_DBL
	FE_ADD	SA, X2, Z2
	FE_SUB	SB, X2, Z2
	LADDER_DBL
	FE_ADD	SA, X2, Z2
	FE_SUB	SB, X2, Z2
	LADDER_DBL

	/* (x2, z2) out: bit 0 was 0, no last swap */
	movq	F_OUT(%rsp), %rdi
	movq	X2(%rsp), %r8
	movq	X2+8(%rsp), %r9
	movq	X2+16(%rsp), %r10
	movq	X2+24(%rsp), %r11
	movq	%r8, 0(%rdi)
	movq	%r9, 8(%rdi)
	movq	%r10, 16(%rdi)
	movq	%r11, 24(%rdi)
	movq	Z2(%rsp), %r8
	movq	Z2+8(%rsp), %r9
	movq	Z2+16(%rsp), %r10
	movq	Z2+24(%rsp), %r11
	movq	%r8, 32(%rdi)
	movq	%r9, 40(%rdi)
	movq	%r10, 48(%rdi)
	movq	%r11, 56(%rdi)

	/* wipe the frame and the registers that held secrets */
	pxor	%xmm0, %xmm0
	xorl	%eax, %eax
.Lwipe:
	movdqu	%xmm0, (%rsp,%rax)
	addl	$16, %eax
	cmpl	$F_OUT, %eax
	jb	.Lwipe
	xorl	%esi, %esi
	xorl	%edx, %edx
	xorl	%r8d, %r8d
	xorl	%r9d, %r9d
	xorl	%r10d, %r10d
	xorl	%r11d, %r11d

	addq	$FRAME, %rsp
	.cfi_adjust_cfa_offset -FRAME
	popq	%r15
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r15
	popq	%r14
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r14
	popq	%r13
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r13
	popq	%r12
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r12
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	curve25519_ladder_mulx, .-curve25519_ladder_mulx

	.section .note.GNU-stack, "", @progbits
