/* SPDX-License-Identifier: MIT */
/*
 * Montgomery multiplication with MULX/ADCX/ADOX, the whole product in one
 * function (bn-adx.h: bnx_mont_mul and bnx_mont_sqr's reduction call it).
 * Requires: BMI2, ADX.
 *
 *   void bnx_mul_adx(u64 *r, const u64 *a, const u64 *b, const u64 *m,
 *                    u64 m0inv, u64 n, u64 *t);
 *
 * r = a b / 2^(64 n) mod m for n a multiple of 4 (4 <= n <= 128), a < R,
 * b < m; t is scratch of n + 2 words.  r may alias a or b: it is written
 * only after the last read of both.
 *
 * CIOS: one row per word b[i], each adding a b[i] and q m (q chosen so the
 * low word vanishes) to t and shifting it down a word, four words of t per
 * block held in registers, the a b[i] products entering with two carry
 * chains (ADCX adding t, ADOX the high halves), then the q m products with
 * the same two chains.  q of a row is computed at the row's start from the
 * word the previous row's first block stored, so a row can start while
 * the previous one is still finishing its upper blocks.  The result (t <
 * 2m) gets one subtraction of m, kept or not by mask.
 *
 * No branch or address depends on a, b or m: constant time.
 */

	.text

/* Stack frame (after the six pushes), FRAME bytes: */
#define F_R	0	/* r */
#define F_M0INV	8	/* m0inv */
#define F_N8	16	/* 8 n */
#define F_BEND	24	/* b + n */
#define F_Q	32	/* q of the row */
#define F_ZERO	40	/* 0, for adcx/adox of a carry */
#define F_T	48	/* t base (t + 1: t[-1] is the slot of the shifted store) */
#define F_B	56	/* the b[i] of the row */
#define F_BN	64	/* b[i + 1] */
#define F_CNT	72	/* blocks per row */
#define FRAME	80

/*
 * One block: x = t[0..3] + a[0..3] b + ha, then + m[0..3] q + hm, stored
 * a word down; ha and hm the carry words out, CF = OF = 0 at the end.
 * rdx = b on entry; \q the row's q (a register or the frame slot).
 */
.macro BLOCK q
	xorl	%r10d, %r10d		/* fresh CF, OF: no flag dependency on the last block */
	mulxq	0(%rsi), %r10, %r14
	adcxq	0(%rdi), %r10
	adoxq	%rax, %r10
	mulxq	8(%rsi), %r11, %r15
	adcxq	8(%rdi), %r11
	adoxq	%r14, %r11
	mulxq	16(%rsi), %r12, %r14
	adcxq	16(%rdi), %r12
	adoxq	%r15, %r12
	mulxq	24(%rsi), %r13, %rax
	adcxq	24(%rdi), %r13
	adoxq	%r14, %r13
	movq	\q, %rdx
	adcxq	F_ZERO(%rsp), %rax
	adoxq	F_ZERO(%rsp), %rax
	mulxq	0(%rcx), %r14, %r15
	adcxq	%r14, %r10
	adoxq	%rbx, %r10
	mulxq	8(%rcx), %r14, %rbx
	adcxq	%r14, %r11
	adoxq	%r15, %r11
	movq	%r10, -8(%rdi)
	mulxq	16(%rcx), %r14, %r15
	adcxq	%r14, %r12
	adoxq	%rbx, %r12
	movq	%r11, 0(%rdi)
	mulxq	24(%rcx), %r14, %rbx
	adcxq	%r14, %r13
	adoxq	%r15, %r13
	movq	%r12, 8(%rdi)
	adcxq	F_ZERO(%rsp), %rbx
	adoxq	F_ZERO(%rsp), %rbx
	movq	%r13, 16(%rdi)
	leaq	32(%rsi), %rsi
	leaq	32(%rcx), %rcx
	leaq	32(%rdi), %rdi
.endm

	.globl	bnx_mul_adx
	.hidden	bnx_mul_adx
	.type	bnx_mul_adx, @function
	.balign	32
bnx_mul_adx:
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

	movq	%rdi, F_R(%rsp)
	movq	%r8, F_M0INV(%rsp)
	movq	$0, F_ZERO(%rsp)
	movq	%rdx, %rbp			/* rbp: &b[i] */
	leaq	(,%r9,8), %rax
	movq	%rax, F_N8(%rsp)
	addq	%rdx, %rax
	movq	%rax, F_BEND(%rsp)
	movq	56+FRAME(%rsp), %rdi		/* t (7th argument) */
	/* t[0..n+1] = 0 */
	xorl	%eax, %eax
	movq	%r9, %r8
	addq	$2, %r8
	movq	%rdi, %r10
.Lzero:
	movq	%rax, (%r10)
	leaq	8(%r10), %r10
	decq	%r8
	jnz	.Lzero
	leaq	8(%rdi), %rdi			/* rdi: t + 1 */
	movq	%rdi, F_T(%rsp)
	movq	%r9, %r8
	shrq	$2, %r8
	movq	%r8, F_CNT(%rsp)

	/*
	 * Registers in a row: rsi a, rcx m, rdi t (advancing), r8 block
	 * count, r10-r13 x0-x3, r14 h0, r15 h1, rax ha, rbx hm, rdx the
	 * multiplier, r9 the q of the next row.
	 */
	/* q of row 0 = a[0] b[0] m0inv (t = 0) */
	movq	(%rbp), %rdx
	mulxq	(%rsi), %rdx, %r15
	mulxq	F_M0INV(%rsp), %r9, %r15
.Lrow:
	movq	(%rbp), %rdx
	movq	%rdx, F_B(%rsp)
	movq	%r9, F_Q(%rsp)
	/* b[i + 1] for the next row's q (b[i] again in the last row, unused) */
	leaq	8(%rbp), %r14
	cmpq	F_BEND(%rsp), %r14
	cmoveq	%rbp, %r14
	movq	(%r14), %r14
	movq	%r14, F_BN(%rsp)
	xorl	%eax, %eax			/* ha = 0, CF = OF = 0 */
	xorl	%ebx, %ebx			/* hm = 0 */
	movq	F_CNT(%rsp), %r8
	BLOCK	%r9
	/*
	 * x1 (r11), now t[0] for the next row, is final: that row's q =
	 * (x1 + a[0] b[i + 1]) m0inv, computed here so the next row need
	 * not wait for it (MULX and LEA: the carry flags stay live).
	 */
	movq	F_BN(%rsp), %rdx
	mulxq	-32(%rsi), %r14, %r15
	leaq	(%r14,%r11), %rdx
	mulxq	F_M0INV(%rsp), %r9, %r15
	movq	F_B(%rsp), %rdx
	decq	%r8				/* CF = OF = 0 between blocks */
	jz	.Lrowend
.Lblock:
	BLOCK	F_Q(%rsp)
	movq	F_B(%rsp), %rdx
	decq	%r8
	jnz	.Lblock
.Lrowend:
	/* t[n-1] = ha + hm + t[n], t[n] = the carry */
	xorl	%r10d, %r10d
	addq	%rbx, %rax
	adcq	$0, %r10
	addq	0(%rdi), %rax
	adcq	$0, %r10
	movq	%rax, -8(%rdi)
	movq	%r10, 0(%rdi)
	/* back to the bases, next word of b */
	movq	F_N8(%rsp), %rax
	subq	%rax, %rsi
	subq	%rax, %rcx
	subq	%rax, %rdi
	leaq	8(%rbp), %rbp
	cmpq	F_BEND(%rsp), %rbp
	jne	.Lrow

	/*
	 * r = t - m, then t kept instead where that borrowed past t[n]:
	 * a borrow with t[n] = 0 (t[n] = 1 with no borrow cannot happen,
	 * t < 2m).  r is written by the subtraction first, then fixed.
	 */
	movq	F_R(%rsp), %rsi
	movq	F_CNT(%rsp), %r8
	xorl	%eax, %eax			/* CF = 0 */
.Lsub:
	movq	0(%rdi), %r10
	movq	8(%rdi), %r11
	movq	16(%rdi), %r12
	movq	24(%rdi), %r13
	sbbq	0(%rcx), %r10
	sbbq	8(%rcx), %r11
	sbbq	16(%rcx), %r12
	sbbq	24(%rcx), %r13
	movq	%r10, 0(%rsi)
	movq	%r11, 8(%rsi)
	movq	%r12, 16(%rsi)
	movq	%r13, 24(%rsi)
	leaq	32(%rdi), %rdi
	leaq	32(%rcx), %rcx
	leaq	32(%rsi), %rsi
	decq	%r8				/* CF kept */
	jnz	.Lsub
	movq	0(%rdi), %rax			/* t[n] */
	sbbq	$0, %rax			/* CF: keep t */
	sbbq	%rax, %rax			/* mask */
	movq	F_N8(%rsp), %rbx
	subq	%rbx, %rdi
	subq	%rbx, %rsi
	movq	F_CNT(%rsp), %r8
.Lsel:
	movq	0(%rdi), %r10
	movq	8(%rdi), %r11
	movq	16(%rdi), %r12
	movq	24(%rdi), %r13
	xorq	0(%rsi), %r10
	xorq	8(%rsi), %r11
	xorq	16(%rsi), %r12
	xorq	24(%rsi), %r13
	andq	%rax, %r10
	andq	%rax, %r11
	andq	%rax, %r12
	andq	%rax, %r13
	xorq	%r10, 0(%rsi)
	xorq	%r11, 8(%rsi)
	xorq	%r12, 16(%rsi)
	xorq	%r13, 24(%rsi)
	leaq	32(%rdi), %rdi
	leaq	32(%rsi), %rsi
	decq	%r8
	jnz	.Lsel

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
	.size	bnx_mul_adx, .-bnx_mul_adx

	.section .note.GNU-stack, "", @progbits
