/* SPDX-License-Identifier: MIT */
/*
 * GF(2^255 - 19) on four 64-bit limbs for the x86-64 assembly files
 * (curve25519-mulx-ladder.S, ed25519-mulx-madd.S): GNU as macros with
 * MULX/ADCX/ADOX (BMI2, ADX).  Each operand is an offset and a base
 * register (the stack pointer by default); the operation loads its
 * operands and stores its result, rcx must hold 0, and rax, rbx, rdx,
 * r8..r15 are scratch.
 *
 * Reduction.  2^256 = 38 (mod p).  A product (eight limbs) becomes
 * lo + 38 hi, five limbs with the top one t <= 38; then q = 2 t + bit 255
 * is folded as 19 q with bit 255 cleared, leaving a value below
 * 2^255 + 19 * 77: "weakly reduced", W for short.  Sums and differences
 * are then cheaper: for a, b < 2^256 with b in W, a - b + 2^256 >=
 * 2^255 - 2^11 when it borrows, and a + b - 2^256 < 2^255 + 2^11 when it
 * carries, so one fold of 38 settles either (FE_ADD, FE_SUB); with no
 * bound on either operand the fold is done twice (FE_ADD2, FE_SUB2).
 * Every result is below 2^256.
 */
#ifndef _RIND_X86_FE25519_MULX_ASM_H
#define _RIND_X86_FE25519_MULX_ASM_H

/*
 * r8..r15 (r8 lowest) reduced to W and stored at \dst.  CF = OF = 0 on
 * entry; uses rax, rbx, rdx.
 */
.macro FE_REDUCE dst, db=%rsp
	movl	$38, %edx
	mulxq	%r12, %rax, %rbx
	adcxq	%rax, %r8
	adoxq	%rbx, %r9
	mulxq	%r13, %rax, %rbx
	adcxq	%rax, %r9
	adoxq	%rbx, %r10
	mulxq	%r14, %rax, %rbx
	adcxq	%rax, %r10
	adoxq	%rbx, %r11
	mulxq	%r15, %rax, %r12
	adcxq	%rax, %r11
	adoxq	%rcx, %r12
	adcxq	%rcx, %r12
	/* r12 <= 38: q = 2 r12 + bit 255, folded as 19 q */
	btrq	$63, %r11
	adcq	%r12, %r12
	imulq	$19, %r12, %r12
	addq	%r12, %r8
	adcq	%rcx, %r9
	adcq	%rcx, %r10
	adcq	%rcx, %r11
	movq	%r8, \dst(\db)
	movq	%r9, \dst+8(\db)
	movq	%r10, \dst+16(\db)
	movq	%r11, \dst+24(\db)
.endm

/*
 * One row of a product: r(8+i).. += [\a] * rdx, the low halves in the CF
 * chain and the high halves in the OF chain; \top is the new top limb.
 * CF = OF = 0 on entry and on exit.
 */
.macro FE_MULROW a, l0, l1, l2, l3, top, ab=%rsp
	mulxq	\a(\ab), %rax, %rbx
	adcxq	%rax, \l0
	adoxq	%rbx, \l1
	mulxq	\a+8(\ab), %rax, %rbx
	adcxq	%rax, \l1
	adoxq	%rbx, \l2
	mulxq	\a+16(\ab), %rax, %rbx
	adcxq	%rax, \l2
	adoxq	%rbx, \l3
	mulxq	\a+24(\ab), %rax, \top
	adcxq	%rax, \l3
	adoxq	%rcx, \top
	adcxq	%rcx, \top
.endm

/* [\dst] = [\a] [\b] in W; \a and \b below 2^256. */
.macro FE_MUL dst, a, b, db=%rsp, ab=%rsp, bb=%rsp
	xorl	%eax, %eax		/* CF = OF = 0 */
	movq	\b(\bb), %rdx
	mulxq	\a(\ab), %r8, %r9
	mulxq	\a+8(\ab), %rax, %r10
	adcxq	%rax, %r9
	mulxq	\a+16(\ab), %rax, %r11
	adcxq	%rax, %r10
	mulxq	\a+24(\ab), %rax, %r12
	adcxq	%rax, %r11
	adcxq	%rcx, %r12
	movq	\b+8(\bb), %rdx
	FE_MULROW \a, %r9, %r10, %r11, %r12, %r13, \ab
	movq	\b+16(\bb), %rdx
	FE_MULROW \a, %r10, %r11, %r12, %r13, %r14, \ab
	movq	\b+24(\bb), %rdx
	FE_MULROW \a, %r11, %r12, %r13, %r14, %r15, \ab
	FE_REDUCE \dst, \db
.endm

/*
 * [\dst] = [\a]^2 in W: the six cross products, then doubled (CF chain)
 * while the four squares come in (OF chain).
 */
.macro FE_SQR dst, a, db=%rsp, ab=%rsp
	xorl	%r15d, %r15d		/* CF = OF = 0, r15 = 0 */
	movq	\a(\ab), %rdx
	mulxq	\a+8(\ab), %r9, %r10
	mulxq	\a+16(\ab), %rax, %r11
	adcxq	%rax, %r10
	mulxq	\a+24(\ab), %rax, %r12
	adcxq	%rax, %r11
	adcxq	%rcx, %r12
	movq	\a+8(\ab), %rdx
	mulxq	\a+16(\ab), %rax, %rbx
	adcxq	%rax, %r11
	adoxq	%rbx, %r12
	mulxq	\a+24(\ab), %rax, %r13
	adcxq	%rax, %r12
	adoxq	%rcx, %r13
	adcxq	%rcx, %r13
	movq	\a+16(\ab), %rdx
	mulxq	\a+24(\ab), %rax, %r14
	adcxq	%rax, %r13
	adcxq	%rcx, %r14
	movq	\a(\ab), %rdx
	mulxq	%rdx, %r8, %rax
	adcxq	%r9, %r9
	adoxq	%rax, %r9
	movq	\a+8(\ab), %rdx
	mulxq	%rdx, %rax, %rbx
	adcxq	%r10, %r10
	adoxq	%rax, %r10
	adcxq	%r11, %r11
	adoxq	%rbx, %r11
	movq	\a+16(\ab), %rdx
	mulxq	%rdx, %rax, %rbx
	adcxq	%r12, %r12
	adoxq	%rax, %r12
	adcxq	%r13, %r13
	adoxq	%rbx, %r13
	movq	\a+24(\ab), %rdx
	mulxq	%rdx, %rax, %rbx
	adcxq	%r14, %r14
	adoxq	%rax, %r14
	adcxq	%r15, %r15
	adoxq	%rbx, %r15
	FE_REDUCE \dst, \db
.endm

/* [\dst] = [\a] + [\b] (both in W), below 2^256. */
.macro FE_ADD dst, a, b, db=%rsp, ab=%rsp, bb=%rsp
	movq	\a(\ab), %r8
	addq	\b(\bb), %r8
	movq	\a+8(\ab), %r9
	adcq	\b+8(\bb), %r9
	movq	\a+16(\ab), %r10
	adcq	\b+16(\bb), %r10
	movq	\a+24(\ab), %r11
	adcq	\b+24(\bb), %r11
	sbbq	%rax, %rax
	andl	$38, %eax
	addq	%rax, %r8
	adcq	%rcx, %r9
	adcq	%rcx, %r10
	adcq	%rcx, %r11
	movq	%r8, \dst(\db)
	movq	%r9, \dst+8(\db)
	movq	%r10, \dst+16(\db)
	movq	%r11, \dst+24(\db)
.endm

/* [\dst] = [\a] - [\b] (\a below 2^256, \b in W), below 2^256. */
.macro FE_SUB dst, a, b, db=%rsp, ab=%rsp, bb=%rsp
	movq	\a(\ab), %r8
	subq	\b(\bb), %r8
	movq	\a+8(\ab), %r9
	sbbq	\b+8(\bb), %r9
	movq	\a+16(\ab), %r10
	sbbq	\b+16(\bb), %r10
	movq	\a+24(\ab), %r11
	sbbq	\b+24(\bb), %r11
	sbbq	%rax, %rax
	andl	$38, %eax
	subq	%rax, %r8
	sbbq	%rcx, %r9
	sbbq	%rcx, %r10
	sbbq	%rcx, %r11
	movq	%r8, \dst(\db)
	movq	%r9, \dst+8(\db)
	movq	%r10, \dst+16(\db)
	movq	%r11, \dst+24(\db)
.endm

/* [\dst] = [\a] + [\b] for any \a, \b below 2^256: two folds. */
.macro FE_ADD2 dst, a, b, db=%rsp, ab=%rsp, bb=%rsp
	movq	\a(\ab), %r8
	addq	\b(\bb), %r8
	movq	\a+8(\ab), %r9
	adcq	\b+8(\bb), %r9
	movq	\a+16(\ab), %r10
	adcq	\b+16(\bb), %r10
	movq	\a+24(\ab), %r11
	adcq	\b+24(\bb), %r11
	sbbq	%rax, %rax
	andl	$38, %eax
	addq	%rax, %r8
	adcq	%rcx, %r9
	adcq	%rcx, %r10
	adcq	%rcx, %r11
	sbbq	%rax, %rax
	andl	$38, %eax
	addq	%rax, %r8
	movq	%r8, \dst(\db)
	movq	%r9, \dst+8(\db)
	movq	%r10, \dst+16(\db)
	movq	%r11, \dst+24(\db)
.endm

/* [\dst] = [\a] - [\b] for any \a, \b below 2^256: two folds. */
.macro FE_SUB2 dst, a, b, db=%rsp, ab=%rsp, bb=%rsp
	movq	\a(\ab), %r8
	subq	\b(\bb), %r8
	movq	\a+8(\ab), %r9
	sbbq	\b+8(\bb), %r9
	movq	\a+16(\ab), %r10
	sbbq	\b+16(\bb), %r10
	movq	\a+24(\ab), %r11
	sbbq	\b+24(\bb), %r11
	sbbq	%rax, %rax
	andl	$38, %eax
	subq	%rax, %r8
	sbbq	%rcx, %r9
	sbbq	%rcx, %r10
	sbbq	%rcx, %r11
	sbbq	%rax, %rax
	andl	$38, %eax
	subq	%rax, %r8
	movq	%r8, \dst(\db)
	movq	%r9, \dst+8(\db)
	movq	%r10, \dst+16(\db)
	movq	%r11, \dst+24(\db)
.endm

#endif /* _RIND_X86_FE25519_MULX_ASM_H */
