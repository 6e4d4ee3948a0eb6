/* SPDX-License-Identifier: MIT */
/*
 * The stitched core of chacha20poly1305-avx2.c: eight ChaCha20 blocks,
 * word-sliced (ymm register i holds state word i of eight consecutive
 * blocks), with up to 40 radix-2^64 MULX Poly1305 blocks spread between the
 * quarter rounds.  Requires: AVX2, BMI2.
 *
 *   void rind_cp8_avx2(const u32 state[16], u8 *dst, const u8 *src,
 *                      struct poly1305_state *ps, const u8 *m, size_t nb);
 *
 * XORs 512 bytes of keystream from block state[12] into src, writing dst
 * (equal or disjoint; any alignment); absorbs the nb full 16-byte blocks
 * at m (padbit 1) into ps->h (nb <= 80, spread evenly over the ten double
 * rounds, at most two between two quarter-round steps; ps and m unused
 * when nb is 0).  m is read before dst is written, so it may be src itself.
 * With nb = 0 (chacha-avx2.c's eight blocks) no BMI2 instruction runs:
 * AVX2 is then all it needs.
 *
 * Written in assembly because of what GCC made of the same loop in C
 * (chacha8_core, before 2026-12): 16 state vectors plus temporaries do not
 * fit in 16 ymm registers, and around the Poly1305 steps it spilled and
 * reloaded most of the state every quarter round (26 to 103 vector stack
 * accesses per iteration of its loops, ~1 per vector operation).  That
 * code ran 1.5x slower whenever the host loaded the core, against 1.06x
 * for OpenSSL's register-resident code measured call by call beside it:
 * the "bimodal" 16 KiB time (8.5 us in one process, 14.8 us in the next).
 * It was not the layout: in one process, moving the stack (every offset
 * mod 4096), the data (every page, every offset) or the state did not
 * change the mode, while it switched over seconds in a process that did
 * not move anything, with ASLR on or off alike (bench/probes/).  Here only
 * rows 8..11 live on the stack (two in ymm8/9 at a time, swapped twice a
 * double round: 4 stores and 4 loads), the Poly1305 accumulator and r stay
 * in general registers, each Poly1305 block is split into four parts
 * issued between the four steps of a quarter-round pair (so that a small
 * out-of-order window still overlaps the two dependency chains), and the
 * blocks are spread over all ten double rounds (32 of them: 3 or 4 a
 * double round, so the Poly1305 chain, ~12.5 cycles a block, stays under
 * the ~44 cycles of a double round's vector work).  Loaded-host slowdown
 * now 1.15-1.2x.  scripts/check-loop-spills.sh checks that the loops keep
 * to 8 vector stack accesses.
 *
 * Poly1305 block (h0 + 2^64 h1 + 2^128 h2, r1 = 0 mod 4, s1 = 5 r1 / 4):
 *   d0 = h0 r0 + h1 s1, d1 = h0 r1 + h1 r0 + h2 s1 + d0 / 2^64,
 *   d2 = h2 r0 + d1 / 2^64; h = d0 + 2^64 d1 + 2^128 (d2 & 3) + 5 (d2 >> 2)
 * (h2 < 8, every product below 2^126).  No branch or address depends on
 * key, data or accumulator, only on nb: constant time.
 */

	.section .rodata
	.balign 32
.Lrot16:
	.byte 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13
	.byte 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13
.Lrot8:
	.byte 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
	.byte 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
.Linc:
	.long 0, 1, 2, 3, 4, 5, 6, 7

	.text

/* frame (32-byte aligned, below %rbp) */
#define S8	0
#define S9	32
#define S10	64
#define S11	96
#define S12	128
#define S13	160
#define S14	192
#define S15	224
#define FSTATE	256
#define FDST	264
#define FSRC	272
#define FPS	280
#define FR1	288
#define FQ	296
#define FR	304
#define FPH	312
#define FRAME	320

/* Poly1305 registers */
#define H0	%r10
#define H1	%r11
#define H2	%r12
#define R0	%r13
#define S1	%r15
#define M	%r8
#define NB	%r9
#define D0H	%rbx
#define D1L	%r14
#define D1H	%rax
#define T0	%rdi
#define T1	%rsi

/* the four parts of one Poly1305 block; the next block starts at M */
.macro P1
	addq	0(M), H0
	adcq	8(M), H1
	adcq	$1, H2
	movq	H0, %rdx
	mulx	R0, H0, D0H
	mulx	FR1(%rsp), D1L, D1H
.endm
.macro P2
	movq	H1, %rdx
	mulx	S1, T0, T1
	addq	T0, H0
	adcq	T1, D0H
	mulx	R0, T0, T1
	addq	T0, D1L
	adcq	T1, D1H
.endm
.macro P3
	movq	H2, T0
	imulq	S1, T0
	imulq	R0, H2
	addq	T0, D1L
	adcq	$0, D1H
	addq	D0H, D1L
	adcq	$0, D1H
	addq	D1H, H2
.endm
.macro P4
	movq	H2, T0
	andq	$-4, T0
	movq	H2, T1
	shrq	$2, T1
	addq	T1, T0
	andq	$3, H2
	addq	T0, H0
	adcq	$0, D1L
	adcq	$0, H2
	movq	D1L, H1
	leaq	16(M), M
.endm

/* two blocks in one slot: P1, P2, (P3 P4 P1), (P2 P3 P4) */
.macro P341
	P3
	P4
	P1
.endm
.macro P234
	P2
	P3
	P4
.endm

/*
 * Two quarter rounds side by side, (a0, b0, c0, d0) and (a1, b1, c1, d1),
 * temporaries ymm10/11; p1..p4 (macro names or empty) go between the steps.
 */
.macro QR2 a0, b0, c0, d0, a1, b1, c1, d1, p1, p2, p3, p4
	vpaddd	\b0, \a0, \a0
	vpaddd	\b1, \a1, \a1
	vpxor	\a0, \d0, \d0
	vpxor	\a1, \d1, \d1
	vpshufb	.Lrot16(%rip), \d0, \d0
	vpshufb	.Lrot16(%rip), \d1, \d1
	\p1
	vpaddd	\d0, \c0, \c0
	vpaddd	\d1, \c1, \c1
	vpxor	\c0, \b0, \b0
	vpxor	\c1, \b1, \b1
	vpslld	$12, \b0, %ymm10
	vpslld	$12, \b1, %ymm11
	vpsrld	$20, \b0, \b0
	vpsrld	$20, \b1, \b1
	vpor	%ymm10, \b0, \b0
	vpor	%ymm11, \b1, \b1
	\p2
	vpaddd	\b0, \a0, \a0
	vpaddd	\b1, \a1, \a1
	vpxor	\a0, \d0, \d0
	vpxor	\a1, \d1, \d1
	vpshufb	.Lrot8(%rip), \d0, \d0
	vpshufb	.Lrot8(%rip), \d1, \d1
	\p3
	vpaddd	\d0, \c0, \c0
	vpaddd	\d1, \c1, \c1
	vpxor	\c0, \b0, \b0
	vpxor	\c1, \b1, \b1
	vpslld	$7, \b0, %ymm10
	vpslld	$7, \b1, %ymm11
	vpsrld	$25, \b0, \b0
	vpsrld	$25, \b1, \b1
	vpor	%ymm10, \b0, \b0
	vpor	%ymm11, \b1, \b1
	\p4
.endm

/* a quarter-round pair with @two (nonzero: two Poly1305 blocks), else @one (one), else none */
.macro QRS two, one, a0, b0, c0, d0, a1, b1, c1, d1
.if \two
	QR2	\a0, \b0, \c0, \d0, \a1, \b1, \c1, \d1, P1, P2, P341, P234
.elseif \one
	QR2	\a0, \b0, \c0, \d0, \a1, \b1, \c1, \d1, P1, P2, P3, P4
.else
	QR2	\a0, \b0, \c0, \d0, \a1, \b1, \c1, \d1
.endif
.endm

/*
 * One double round with @k (0..8) Poly1305 blocks: one in each of the
 * first k pairs, two in the first k - 4 when k > 4.  On entry and exit
 * ymm8/9 hold rows 8/9 and S10/S11 rows 10/11; rows 0-7 in ymm0-7, 12-15
 * in ymm12-15.
 */
.macro DRK k
	QRS	(\k>=5), (\k>=1), %ymm0, %ymm4, %ymm8, %ymm12, %ymm1, %ymm5, %ymm9, %ymm13
	vmovdqa	%ymm8, S8(%rsp)
	vmovdqa	%ymm9, S9(%rsp)
	vmovdqa	S10(%rsp), %ymm8
	vmovdqa	S11(%rsp), %ymm9
	QRS	(\k>=6), (\k>=2), %ymm2, %ymm6, %ymm8, %ymm14, %ymm3, %ymm7, %ymm9, %ymm15
	QRS	(\k>=7), (\k>=3), %ymm0, %ymm5, %ymm8, %ymm15, %ymm1, %ymm6, %ymm9, %ymm12
	vmovdqa	%ymm8, S10(%rsp)
	vmovdqa	%ymm9, S11(%rsp)
	vmovdqa	S8(%rsp), %ymm8
	vmovdqa	S9(%rsp), %ymm9
	QRS	(\k>=8), (\k>=4), %ymm2, %ymm7, %ymm8, %ymm13, %ymm3, %ymm4, %ymm9, %ymm14
.endm

/* @k Poly1305 blocks in each of %ecx (> 0) double rounds, then on to .Lphase */
.macro LOOPK k
	.balign	32
.Lk\k:
	DRK	\k
	decl	%ecx
	jnz	.Lk\k
	jmp	.Lphase
.endm

/* 8x8 dword transpose of ymm0-7 (through ymm8-15): out j = block j's eight words */
.macro TRANSPOSE_XOR off
	vpunpckldq	%ymm1, %ymm0, %ymm8
	vpunpckhdq	%ymm1, %ymm0, %ymm9
	vpunpckldq	%ymm3, %ymm2, %ymm10
	vpunpckhdq	%ymm3, %ymm2, %ymm11
	vpunpckldq	%ymm5, %ymm4, %ymm12
	vpunpckhdq	%ymm5, %ymm4, %ymm13
	vpunpckldq	%ymm7, %ymm6, %ymm14
	vpunpckhdq	%ymm7, %ymm6, %ymm15
	vpunpcklqdq	%ymm10, %ymm8, %ymm0
	vpunpckhqdq	%ymm10, %ymm8, %ymm1
	vpunpcklqdq	%ymm11, %ymm9, %ymm2
	vpunpckhqdq	%ymm11, %ymm9, %ymm3
	vpunpcklqdq	%ymm14, %ymm12, %ymm4
	vpunpckhqdq	%ymm14, %ymm12, %ymm5
	vpunpcklqdq	%ymm15, %ymm13, %ymm6
	vpunpckhqdq	%ymm15, %ymm13, %ymm7
	vperm2i128	$0x20, %ymm4, %ymm0, %ymm8
	vperm2i128	$0x31, %ymm4, %ymm0, %ymm12
	vperm2i128	$0x20, %ymm5, %ymm1, %ymm9
	vperm2i128	$0x31, %ymm5, %ymm1, %ymm13
	vperm2i128	$0x20, %ymm6, %ymm2, %ymm10
	vperm2i128	$0x31, %ymm6, %ymm2, %ymm14
	vperm2i128	$0x20, %ymm7, %ymm3, %ymm11
	vperm2i128	$0x31, %ymm7, %ymm3, %ymm15
	vpxor	(\off + 0 * 64)(%rdx), %ymm8, %ymm8
	vpxor	(\off + 1 * 64)(%rdx), %ymm9, %ymm9
	vpxor	(\off + 2 * 64)(%rdx), %ymm10, %ymm10
	vpxor	(\off + 3 * 64)(%rdx), %ymm11, %ymm11
	vpxor	(\off + 4 * 64)(%rdx), %ymm12, %ymm12
	vpxor	(\off + 5 * 64)(%rdx), %ymm13, %ymm13
	vpxor	(\off + 6 * 64)(%rdx), %ymm14, %ymm14
	vpxor	(\off + 7 * 64)(%rdx), %ymm15, %ymm15
	vmovdqu	%ymm8, (\off + 0 * 64)(%rsi)
	vmovdqu	%ymm9, (\off + 1 * 64)(%rsi)
	vmovdqu	%ymm10, (\off + 2 * 64)(%rsi)
	vmovdqu	%ymm11, (\off + 3 * 64)(%rsi)
	vmovdqu	%ymm12, (\off + 4 * 64)(%rsi)
	vmovdqu	%ymm13, (\off + 5 * 64)(%rsi)
	vmovdqu	%ymm14, (\off + 6 * 64)(%rsi)
	vmovdqu	%ymm15, (\off + 7 * 64)(%rsi)
.endm

	.globl	rind_cp8_avx2
	.hidden	rind_cp8_avx2
	.type	rind_cp8_avx2, @function
	.balign	32
rind_cp8_avx2:
	.cfi_startproc
	endbr64
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	.cfi_offset %rbx, -24
	.cfi_offset %r12, -32
	.cfi_offset %r13, -40
	.cfi_offset %r14, -48
	.cfi_offset %r15, -56
	subq	$FRAME, %rsp
	andq	$-32, %rsp
	movq	%rdi, FSTATE(%rsp)
	movq	%rsi, FDST(%rsp)
	movq	%rdx, FSRC(%rsp)
	movq	%rcx, FPS(%rsp)

	/* rows: state words broadcast, lane j's counter + j */
	vpbroadcastd	0(%rdi), %ymm0
	vpbroadcastd	4(%rdi), %ymm1
	vpbroadcastd	8(%rdi), %ymm2
	vpbroadcastd	12(%rdi), %ymm3
	vpbroadcastd	16(%rdi), %ymm4
	vpbroadcastd	20(%rdi), %ymm5
	vpbroadcastd	24(%rdi), %ymm6
	vpbroadcastd	28(%rdi), %ymm7
	vpbroadcastd	40(%rdi), %ymm10
	vpbroadcastd	44(%rdi), %ymm11
	vmovdqa	%ymm10, S10(%rsp)
	vmovdqa	%ymm11, S11(%rsp)
	vpbroadcastd	32(%rdi), %ymm8
	vpbroadcastd	36(%rdi), %ymm9
	vpbroadcastd	48(%rdi), %ymm12
	vpaddd	.Linc(%rip), %ymm12, %ymm12
	vpbroadcastd	52(%rdi), %ymm13
	vpbroadcastd	56(%rdi), %ymm14
	vpbroadcastd	60(%rdi), %ymm15

	/*
	 * The nb blocks spread over the ten double rounds: r = nb % 10 of them
	 * with q + 1 blocks (q = nb / 10), then 10 - r with q.  Public lengths
	 * only.
	 */
	movq	NB, %rax
	xorl	%edx, %edx
	movl	$10, %ecx
	divq	%rcx
	movq	%rax, FQ(%rsp)
	movq	%rdx, FR(%rsp)
	movq	$1, FPH(%rsp)
	testq	NB, NB
	jz	1f
	movq	FPS(%rsp), %rax
	movq	0(%rax), H0
	movq	8(%rax), H1
	movq	16(%rax), H2
	movq	24(%rax), R0
	movq	32(%rax), S1
	movq	S1, FR1(%rsp)
	movq	S1, %rax
	shrq	$2, %rax
	addq	%rax, S1
1:	movq	FQ(%rsp), %rax
	incq	%rax
	movl	FR(%rsp), %ecx
	/* %rax = k, %ecx = count; %rax and %ecx are free between blocks */
.Ldispatch:
	testl	%ecx, %ecx
	jz	.Lphase
	cmpq	$0, %rax
	je	.Lk0
	cmpq	$1, %rax
	je	.Lk1
	cmpq	$2, %rax
	je	.Lk2
	cmpq	$3, %rax
	je	.Lk3
	cmpq	$4, %rax
	je	.Lk4
	cmpq	$5, %rax
	je	.Lk5
	cmpq	$6, %rax
	je	.Lk6
	cmpq	$7, %rax
	je	.Lk7
	cmpq	$8, %rax
	je	.Lk8
	ud2
	LOOPK	0
	LOOPK	1
	LOOPK	2
	LOOPK	3
	LOOPK	4
	LOOPK	5
	LOOPK	6
	LOOPK	7
	LOOPK	8
.Lphase:
	cmpq	$0, FPH(%rsp)
	je	2f
	movq	$0, FPH(%rsp)
	movq	FQ(%rsp), %rax
	movl	$10, %ecx
	subl	FR(%rsp), %ecx
	jmp	.Ldispatch
2:	testq	NB, NB
	jz	.Lout
	movq	FPS(%rsp), %rax
	movq	H0, 0(%rax)
	movq	H1, 8(%rax)
	movq	H2, 16(%rax)
	xorl	%eax, %eax
	movq	%rax, FR1(%rsp)
.Lout:
	vmovdqa	%ymm8, S8(%rsp)
	vmovdqa	%ymm9, S9(%rsp)
	vmovdqa	%ymm12, S12(%rsp)
	vmovdqa	%ymm13, S13(%rsp)
	vmovdqa	%ymm14, S14(%rsp)
	vmovdqa	%ymm15, S15(%rsp)
	movq	FSTATE(%rsp), %rdi
	movq	FDST(%rsp), %rsi
	movq	FSRC(%rsp), %rdx
	/* feed-forward of rows 0-7, then blocks' words 0-7 */
	vpbroadcastd	0(%rdi), %ymm8
	vpbroadcastd	4(%rdi), %ymm9
	vpbroadcastd	8(%rdi), %ymm10
	vpbroadcastd	12(%rdi), %ymm11
	vpbroadcastd	16(%rdi), %ymm12
	vpbroadcastd	20(%rdi), %ymm13
	vpbroadcastd	24(%rdi), %ymm14
	vpbroadcastd	28(%rdi), %ymm15
	vpaddd	%ymm8, %ymm0, %ymm0
	vpaddd	%ymm9, %ymm1, %ymm1
	vpaddd	%ymm10, %ymm2, %ymm2
	vpaddd	%ymm11, %ymm3, %ymm3
	vpaddd	%ymm12, %ymm4, %ymm4
	vpaddd	%ymm13, %ymm5, %ymm5
	vpaddd	%ymm14, %ymm6, %ymm6
	vpaddd	%ymm15, %ymm7, %ymm7
	TRANSPOSE_XOR 0
	/* rows 8-15 (row 12: lane j's counter + j again), words 8-15 */
	vpbroadcastd	32(%rdi), %ymm8
	vpbroadcastd	36(%rdi), %ymm9
	vpbroadcastd	40(%rdi), %ymm10
	vpbroadcastd	44(%rdi), %ymm11
	vpbroadcastd	48(%rdi), %ymm12
	vpaddd	.Linc(%rip), %ymm12, %ymm12
	vpbroadcastd	52(%rdi), %ymm13
	vpbroadcastd	56(%rdi), %ymm14
	vpbroadcastd	60(%rdi), %ymm15
	vpaddd	S8(%rsp), %ymm8, %ymm0
	vpaddd	S9(%rsp), %ymm9, %ymm1
	vpaddd	S10(%rsp), %ymm10, %ymm2
	vpaddd	S11(%rsp), %ymm11, %ymm3
	vpaddd	S12(%rsp), %ymm12, %ymm4
	vpaddd	S13(%rsp), %ymm13, %ymm5
	vpaddd	S14(%rsp), %ymm14, %ymm6
	vpaddd	S15(%rsp), %ymm15, %ymm7
	TRANSPOSE_XOR 32
	/* the stack rows are keystream state: wipe them, and the registers */
	vpxor	%xmm0, %xmm0, %xmm0
	vmovdqa	%ymm0, S8(%rsp)
	vmovdqa	%ymm0, S9(%rsp)
	vmovdqa	%ymm0, S10(%rsp)
	vmovdqa	%ymm0, S11(%rsp)
	vmovdqa	%ymm0, S12(%rsp)
	vmovdqa	%ymm0, S13(%rsp)
	vmovdqa	%ymm0, S14(%rsp)
	vmovdqa	%ymm0, S15(%rsp)
	vzeroall
	leaq	-40(%rbp), %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	rind_cp8_avx2, .-rind_cp8_avx2


/*
 * void rind_cp_blocks_mulx(struct poly1305_state *ps, const u8 *m, size_t nb);
 *
 * The same Poly1305 blocks (padbit 1) on their own, for what the chunks
 * leave (AD, the tail, the lengths): the compiled poly1305_blocks_core
 * took ~20 cycles a block here, this chain ~12.5.  Requires: BMI2.
 */
	.text
	.globl	rind_cp_blocks_mulx
	.hidden	rind_cp_blocks_mulx
	.type	rind_cp_blocks_mulx, @function
	.balign	32
rind_cp_blocks_mulx:
	.cfi_startproc
	endbr64
	testq	%rdx, %rdx
	jz	2f
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	.cfi_offset %rbx, -24
	.cfi_offset %r12, -32
	.cfi_offset %r13, -40
	.cfi_offset %r14, -48
	.cfi_offset %r15, -56
	subq	$FRAME, %rsp
	movq	%rdi, %rcx
	movq	%rsi, M
	movq	%rdx, NB
	movq	0(%rcx), H0
	movq	8(%rcx), H1
	movq	16(%rcx), H2
	movq	24(%rcx), R0
	movq	32(%rcx), S1
	movq	S1, FR1(%rsp)
	movq	S1, %rax
	shrq	$2, %rax
	addq	%rax, S1
	.balign	16
1:	P1
	P2
	P3
	P4
	decq	NB
	jnz	1b
	movq	H0, 0(%rcx)
	movq	H1, 8(%rcx)
	movq	H2, 16(%rcx)
	movq	$0, FR1(%rsp)
	leaq	-40(%rbp), %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	.cfi_def_cfa %rsp, 8
2:	ret
	.cfi_endproc
	.size	rind_cp_blocks_mulx, .-rind_cp_blocks_mulx

	.section .note.GNU-stack, "", @progbits
