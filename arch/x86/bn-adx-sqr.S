/* SPDX-License-Identifier: MIT */
/*
 * Montgomery squaring with MULX/ADCX/ADOX (bn-adx.h: bnx_mont_sqr).
 * Requires: BMI2, ADX.
 *
 *   void bnx_sqr_adx(u64 *r, const u64 *a, const u64 *m, u64 m0inv, u64 n, u64 *t);
 *
 * r = a^2 / 2^(64 n) mod m for n a multiple of 8 (8 <= n <= 128), a < m;
 * t is scratch of 2 n + 1 words.  r may alias a.
 *
 * Three passes over t, the accumulator kept in memory, each product added
 * with MULX and two carry chains (ADCX the low halves with the word of t,
 * ADOX the previous product's high half), the loops counted with LOOP and
 * advanced with LEA so the flags carry from one block to the next:
 *   1. the cross products a_i a_j, i < j, row by row (row i: a_i times
 *      a[i+1..n-1], into t[2i+1..i+n], its top word fresh): n (n - 1) / 2
 *      products where a multiplication has n^2.  Rows come in groups of
 *      four, each row a short unrolled prefix (the 4x4 triangle of its
 *      group, 3 - r products) and then whole blocks of four;
 *   2. t = 2 t + the squares a_i^2 (one chain doubling, the other adding);
 *   3. Montgomery reduction, one row of n products per word of t (q = t[i]
 *      m0inv), each row's top carry passed to the next row's top word;
 * then the masked subtraction of m from t[n..2n].
 *
 * No branch or address depends on a or m (loop counts depend on n only):
 * constant time.
 */

	.text

#define F_R	0	/* r */
#define F_M0INV	8
#define F_N	16	/* n */
#define F_A	24	/* a */
#define F_T	32	/* t */
#define F_M	40	/* m */
#define F_B	48	/* b (bnx_mulr_adx), 0 for the squaring */
#define FRAME	56

/*
 * t[pt + off] += L + H_in (two chains), H_out the product's high half:
 * rdx times the word at pa + off.
 */
.macro PA off, hin, hout
	mulxq	\off(%rbx), %r10, \hout
	adcxq	\off(%rbp), %r10
	adoxq	\hin, %r10
	movq	%r10, \off(%rbp)
.endm

/* Four products, the carry word in r11 on entry and on exit. */
.macro PA4
	PA	0, %r11, %r14
	PA	8, %r14, %r11
	PA	16, %r11, %r14
	PA	24, %r14, %r11
.endm

/*
 * Row i = 4k + \r of pass 1: r12 = &a[4k], r15 = &t[8k + 1] (row 4k's
 * first word), r13 = the blocks of four right of the group, n/4 - 1 - k.
 */
.macro ROW1 r
	movq	8*\r(%r12), %rdx		/* a_i */
	leaq	8*(\r+1)(%r12), %rbx		/* &a[i + 1] */
	leaq	16*\r(%r15), %rbp		/* &t[2i + 1] */
	xorl	%r11d, %r11d			/* no carry word; CF = OF = 0 */
	.if \r == 0
	PA	0, %r11, %r14
	PA	8, %r14, %r11
	PA	16, %r11, %r14
	movq	%r14, %r11
	leaq	24(%rbx), %rbx
	leaq	24(%rbp), %rbp
	.elseif \r == 1
	PA	0, %r11, %r14
	PA	8, %r14, %r11
	leaq	16(%rbx), %rbx
	leaq	16(%rbp), %rbp
	.elseif \r == 2
	PA	0, %r11, %r14
	movq	%r14, %r11
	leaq	8(%rbx), %rbx
	leaq	8(%rbp), %rbp
	.endif
	movq	%r13, %rcx
	jrcxz	2f
1:
	PA4
	leaq	32(%rbx), %rbx
	leaq	32(%rbp), %rbp
	loop	1b
2:
	/* t[i + n] is fresh: the carry word and both carries */
	adcxq	%r9, %r11
	adoxq	%r9, %r11
	movq	%r11, (%rbp)
.endm

	.globl	bnx_sqr_adx
	.hidden	bnx_sqr_adx
	.type	bnx_sqr_adx, @function
	.balign	32
bnx_sqr_adx:
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
	movq	%rsi, F_A(%rsp)
	movq	%rdx, F_M(%rsp)
	movq	%rcx, F_M0INV(%rsp)
	movq	%r8, F_N(%rsp)
	movq	%r9, F_T(%rsp)
	movq	$0, F_B(%rsp)
.Lcommon:
	xorl	%r9d, %r9d			/* r9: 0 throughout */

	/*
	 * t[0..n-1] = 0: the words the first row adds to (and t[0], which
	 * the squaring's doubling reads); every higher word is first written
	 * as a row's fresh top word.  Four stores a group: rep stos starts
	 * too slowly for this.
	 */
	movq	%r8, %rcx
	shrq	$2, %rcx
	movq	F_T(%rsp), %rdi
.Lzero:
	movq	%r9, 0(%rdi)
	movq	%r9, 8(%rdi)
	movq	%r9, 16(%rdi)
	movq	%r9, 24(%rdi)
	leaq	32(%rdi), %rdi
	loop	.Lzero

	cmpq	$0, F_B(%rsp)			/* which entry: public */
	jne	.Lproduct

	/* ---- 1. cross products ---- */
	movq	F_A(%rsp), %r12
	movq	F_T(%rsp), %r15
	leaq	8(%r15), %r15			/* &t[1] */
	movq	F_N(%rsp), %r13
	shrq	$2, %r13
	decq	%r13				/* blocks right of group 0 */
.Lgroup:
	ROW1	0
	ROW1	1
	ROW1	2
	ROW1	3
	leaq	32(%r12), %r12
	leaq	64(%r15), %r15
	decq	%r13
	jns	.Lgroup

	/* ---- 2. t = 2 t + sum a_i^2 2^(128 i) ---- */
	movq	F_A(%rsp), %r12
	movq	F_T(%rsp), %rbp
	movq	F_N(%rsp), %rcx
	xorl	%eax, %eax			/* CF = OF = 0 */
.Ldiag:
	movq	(%r12), %rdx
	mulxq	%rdx, %r10, %r11
	movq	0(%rbp), %rax
	movq	8(%rbp), %rbx
	adcxq	%rax, %rax
	adcxq	%rbx, %rbx
	adoxq	%r10, %rax
	adoxq	%r11, %rbx
	movq	%rax, 0(%rbp)
	movq	%rbx, 8(%rbp)
	leaq	8(%r12), %r12
	leaq	16(%rbp), %rbp
	loop	.Ldiag

	jmp	.Lreduce

	/*
	 * ---- the product a b for bnx_mulr_adx, row i: b_i times a into
	 * t[i..i+n-1] and the fresh top word t[i+n] ----
	 */
.Lproduct:
	movq	F_B(%rsp), %r12			/* &b[i] */
	movq	F_T(%rsp), %r15			/* &t[i] */
	movq	F_N(%rsp), %r13			/* rows left */
.Lprow:
	movq	(%r12), %rdx
	movq	F_A(%rsp), %rbx
	movq	%r15, %rbp
	movq	F_N(%rsp), %rcx
	shrq	$2, %rcx
	xorl	%r11d, %r11d			/* CF = OF = 0 */
1:
	PA4
	leaq	32(%rbx), %rbx
	leaq	32(%rbp), %rbp
	loop	1b
	adcxq	%r9, %r11
	adoxq	%r9, %r11
	movq	%r11, (%rbp)
	leaq	8(%r12), %r12
	leaq	8(%r15), %r15
	decq	%r13
	jnz	.Lprow

.Lreduce:
	/*
	 * ---- 3. reduction: row i adds q m to t[i..i+n], q = t[i] m0inv ----
	 * Blocks of eight products (n % 8 == 0).  t[i + 1] is final after
	 * the row's second product: it is kept (rdi) and the next row's q
	 * computed from it at the row's end, with no reload of t.
	 */
	movq	F_T(%rsp), %r12			/* &t[i] */
	movq	F_N(%rsp), %r13			/* rows left */
	xorl	%r15d, %r15d			/* carry into the row's top word */
	movq	(%r12), %rdx
	imulq	F_M0INV(%rsp), %rdx		/* q of row 0 */
.Lred:
	movq	F_M(%rsp), %rbx
	movq	%r12, %rbp
	movq	F_N(%rsp), %rcx
	shrq	$3, %rcx
	decq	%rcx				/* blocks after the first */
	xorl	%r11d, %r11d			/* CF = OF = 0 */
	/* t[i] + q m[0] = 0 mod 2^64 by the choice of q: not stored, never read again */
	mulxq	0(%rbx), %r10, %r14
	adcxq	0(%rbp), %r10
	adoxq	%r11, %r10
	PA	8, %r14, %r11
	movq	%r10, %rdi			/* t[i + 1] */
	PA	16, %r11, %r14
	PA	24, %r14, %r11
	PA	32, %r11, %r14
	PA	40, %r14, %r11
	PA	48, %r11, %r14
	PA	56, %r14, %r11
	leaq	64(%rbx), %rbx
	leaq	64(%rbp), %rbp
	jmp	4f
1:
	PA4
	PA	32, %r11, %r14
	PA	40, %r14, %r11
	PA	48, %r11, %r14
	PA	56, %r14, %r11
	leaq	64(%rbx), %rbx
	leaq	64(%rbp), %rbp
4:	/* the count without flags: JRCXZ and LEA (LOOP's reach is too short) */
	jrcxz	2f
	leaq	-1(%rcx), %rcx
	jmp	1b
2:
	/* t[i + n] += the carry word, both carries and the previous row's top carry */
	adcxq	%r9, %r11
	adoxq	%r9, %r11
	xorl	%eax, %eax
	addq	%r15, %r11
	adcq	$0, %rax
	addq	(%rbp), %r11
	adcq	$0, %rax
	movq	%r11, (%rbp)
	movq	%rax, %r15
	movq	%rdi, %rdx
	imulq	F_M0INV(%rsp), %rdx		/* q of the next row */
	leaq	8(%r12), %r12
	decq	%r13
	jnz	.Lred

	/*
	 * r = t[n..2n-1] - m, t kept where that borrowed past the top carry
	 * (r15: t < 2m, so a top carry means no borrow out of it).
	 */
	movq	F_N(%rsp), %rcx
	shrq	$2, %rcx
	movq	F_R(%rsp), %rsi
	movq	F_M(%rsp), %rbx
	movq	%r12, %rdi			/* &t[n] */
	xorl	%eax, %eax			/* CF = 0 */
.Lsub:
	movq	0(%rdi), %r10
	movq	8(%rdi), %r11
	movq	16(%rdi), %r13
	movq	24(%rdi), %r14
	sbbq	0(%rbx), %r10
	sbbq	8(%rbx), %r11
	sbbq	16(%rbx), %r13
	sbbq	24(%rbx), %r14
	movq	%r10, 0(%rsi)
	movq	%r11, 8(%rsi)
	movq	%r13, 16(%rsi)
	movq	%r14, 24(%rsi)
	leaq	32(%rdi), %rdi
	leaq	32(%rbx), %rbx
	leaq	32(%rsi), %rsi
	loop	.Lsub
	sbbq	$0, %r15			/* CF: keep t */
	sbbq	%rax, %rax			/* mask */
	movq	F_R(%rsp), %rsi
	movq	%r12, %rdi
	movq	F_N(%rsp), %rcx
	shrq	$2, %rcx
.Lsel:
	movq	0(%rdi), %r10
	movq	8(%rdi), %r11
	movq	16(%rdi), %r13
	movq	24(%rdi), %r14
	xorq	0(%rsi), %r10
	xorq	8(%rsi), %r11
	xorq	16(%rsi), %r13
	xorq	24(%rsi), %r14
	andq	%rax, %r10
	andq	%rax, %r11
	andq	%rax, %r13
	andq	%rax, %r14
	xorq	%r10, 0(%rsi)
	xorq	%r11, 8(%rsi)
	xorq	%r13, 16(%rsi)
	xorq	%r14, 24(%rsi)
	leaq	32(%rdi), %rdi
	leaq	32(%rsi), %rsi
	loop	.Lsel

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
	.size	bnx_sqr_adx, .-bnx_sqr_adx


/*
 * void bnx_mulr_adx(u64 *r, const u64 *a, const u64 *b, const u64 *m,
 *                   u64 m0inv, u64 n, u64 *t);
 * r = a b / 2^(64 n) mod m (a < R, b < m, n % 8 == 0, t of 2 n + 1 words;
 * r may alias a or b): the full product row by row, then the squaring's
 * reduction and final subtraction (the same frame, entered at .Lcommon).
 */
	.globl	bnx_mulr_adx
	.hidden	bnx_mulr_adx
	.type	bnx_mulr_adx, @function
	.balign	32
bnx_mulr_adx:
	.cfi_startproc
	endbr64
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	subq	$FRAME, %rsp
	.cfi_adjust_cfa_offset FRAME
	movq	%rdi, F_R(%rsp)
	movq	%rsi, F_A(%rsp)
	movq	%rdx, F_B(%rsp)
	movq	%rcx, F_M(%rsp)
	movq	%r8, F_M0INV(%rsp)
	movq	%r9, F_N(%rsp)
	movq	56+FRAME(%rsp), %rax		/* t (7th argument) */
	movq	%rax, F_T(%rsp)
	movq	%r9, %r8			/* n, as the squaring has it */
	jmp	.Lcommon
	.cfi_endproc
	.size	bnx_mulr_adx, .-bnx_mulr_adx

	.section .note.GNU-stack, "", @progbits
