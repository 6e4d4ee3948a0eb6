/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20 word-sliced cores for AVX-512 (used by chacha-avx512.c after its
 * CPU feature check).  Requires: AVX512F.
 *
 * zmm register i holds state word i of sixteen consecutive blocks (lane j
 * = block counter + j).  rind_chacha20_32block_avx512 runs two such groups
 * (zmm0-15 and zmm16-31) through the rounds together: every quarter-round
 * step is an in-place add, xor or VPROLD, so 32 state vectors are all the
 * registers it needs, and the two groups' dependency chains overlap.
 * Written in assembly because GCC spills when 32 vectors are live.
 *
 *   void rind_chacha20_16block_avx512(const u32 state[16], u8 *dst, const u8 *src);
 *   void rind_chacha20_32block_avx512(const u32 state[16], u8 *dst, const u8 *src);
 *
 * XOR 1024 (resp. 2048) bytes of keystream from block state[12] into src,
 * writing dst (src may equal dst; any alignment).  state is not modified;
 * counters advance modulo 2^32 across the lanes, as in the generic code.
 * No data-dependent branch or address: constant time.
 */

	.section .rodata
	.balign 64
.Linc:
	.long 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
.Linc16:
	.long 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31

	.text

/* a += b; d ^= a; d <<<= 16; c += d; b ^= c; b <<<= 12; ... <<<= 8, <<<= 7 */
.macro QR a, b, c, d
	vpaddd	\b, \a, \a
	vpxord	\a, \d, \d
	vprold	$16, \d, \d
	vpaddd	\d, \c, \c
	vpxord	\c, \b, \b
	vprold	$12, \b, \b
	vpaddd	\b, \a, \a
	vpxord	\a, \d, \d
	vprold	$8, \d, \d
	vpaddd	\d, \c, \c
	vpxord	\c, \b, \b
	vprold	$7, \b, \b
.endm

/* One double round (column round, diagonal round) of group zmm0-15. */
.macro DROUND_A
	QR	%zmm0, %zmm4, %zmm8, %zmm12
	QR	%zmm1, %zmm5, %zmm9, %zmm13
	QR	%zmm2, %zmm6, %zmm10, %zmm14
	QR	%zmm3, %zmm7, %zmm11, %zmm15
	QR	%zmm0, %zmm5, %zmm10, %zmm15
	QR	%zmm1, %zmm6, %zmm11, %zmm12
	QR	%zmm2, %zmm7, %zmm8, %zmm13
	QR	%zmm3, %zmm4, %zmm9, %zmm14
.endm

/* One double round of both groups, interleaved. */
.macro DROUND_AB
	QR	%zmm0, %zmm4, %zmm8, %zmm12
	QR	%zmm16, %zmm20, %zmm24, %zmm28
	QR	%zmm1, %zmm5, %zmm9, %zmm13
	QR	%zmm17, %zmm21, %zmm25, %zmm29
	QR	%zmm2, %zmm6, %zmm10, %zmm14
	QR	%zmm18, %zmm22, %zmm26, %zmm30
	QR	%zmm3, %zmm7, %zmm11, %zmm15
	QR	%zmm19, %zmm23, %zmm27, %zmm31
	QR	%zmm0, %zmm5, %zmm10, %zmm15
	QR	%zmm16, %zmm21, %zmm26, %zmm31
	QR	%zmm1, %zmm6, %zmm11, %zmm12
	QR	%zmm17, %zmm22, %zmm27, %zmm28
	QR	%zmm2, %zmm7, %zmm8, %zmm13
	QR	%zmm18, %zmm23, %zmm24, %zmm29
	QR	%zmm3, %zmm4, %zmm9, %zmm14
	QR	%zmm19, %zmm20, %zmm25, %zmm30
.endm

/* zmm0-15 = state words broadcast (state pointer in %rdi). */
.macro LOAD_A
	vpbroadcastd	0(%rdi), %zmm0
	vpbroadcastd	4(%rdi), %zmm1
	vpbroadcastd	8(%rdi), %zmm2
	vpbroadcastd	12(%rdi), %zmm3
	vpbroadcastd	16(%rdi), %zmm4
	vpbroadcastd	20(%rdi), %zmm5
	vpbroadcastd	24(%rdi), %zmm6
	vpbroadcastd	28(%rdi), %zmm7
	vpbroadcastd	32(%rdi), %zmm8
	vpbroadcastd	36(%rdi), %zmm9
	vpbroadcastd	40(%rdi), %zmm10
	vpbroadcastd	44(%rdi), %zmm11
	vpbroadcastd	48(%rdi), %zmm12
	vpbroadcastd	52(%rdi), %zmm13
	vpbroadcastd	56(%rdi), %zmm14
	vpbroadcastd	60(%rdi), %zmm15
.endm

/* zmm0-15 += the input state (feed-forward), the counter word per lane. */
.macro FEED_A counters
	vpaddd	0(%rdi){1to16}, %zmm0, %zmm0
	vpaddd	4(%rdi){1to16}, %zmm1, %zmm1
	vpaddd	8(%rdi){1to16}, %zmm2, %zmm2
	vpaddd	12(%rdi){1to16}, %zmm3, %zmm3
	vpaddd	16(%rdi){1to16}, %zmm4, %zmm4
	vpaddd	20(%rdi){1to16}, %zmm5, %zmm5
	vpaddd	24(%rdi){1to16}, %zmm6, %zmm6
	vpaddd	28(%rdi){1to16}, %zmm7, %zmm7
	vpaddd	32(%rdi){1to16}, %zmm8, %zmm8
	vpaddd	36(%rdi){1to16}, %zmm9, %zmm9
	vpaddd	40(%rdi){1to16}, %zmm10, %zmm10
	vpaddd	44(%rdi){1to16}, %zmm11, %zmm11
	vpaddd	48(%rdi){1to16}, %zmm12, %zmm12
	vpaddd	\counters(%rip), %zmm12, %zmm12
	vpaddd	52(%rdi){1to16}, %zmm13, %zmm13
	vpaddd	56(%rdi){1to16}, %zmm14, %zmm14
	vpaddd	60(%rdi){1to16}, %zmm15, %zmm15
.endm

/* In-lane 4x4 dword transpose of a, b, c, d (temps zmm16-19). */
.macro TR4 a, b, c, d
	vpunpckldq	\b, \a, %zmm16
	vpunpckhdq	\b, \a, %zmm17
	vpunpckldq	\d, \c, %zmm18
	vpunpckhdq	\d, \c, %zmm19
	vpunpcklqdq	%zmm18, %zmm16, \a
	vpunpckhqdq	%zmm18, %zmm16, \b
	vpunpcklqdq	%zmm19, %zmm17, \c
	vpunpckhqdq	%zmm19, %zmm17, \d
.endm

/*
 * After TR4 of each word group, p/q/r/s = words 0-3/4-7/8-11/12-15 of
 * blocks m, 4+m, 8+m, 12+m (one per 128-bit lane): gather each block's
 * lanes, XOR with src, store (temps zmm20-27).
 */
.macro OUT4 p, q, r, s, m, off
	vshufi32x4	$0x44, \q, \p, %zmm20
	vshufi32x4	$0xee, \q, \p, %zmm21
	vshufi32x4	$0x44, \s, \r, %zmm22
	vshufi32x4	$0xee, \s, \r, %zmm23
	vshufi32x4	$0x88, %zmm22, %zmm20, %zmm24
	vshufi32x4	$0xdd, %zmm22, %zmm20, %zmm25
	vshufi32x4	$0x88, %zmm23, %zmm21, %zmm26
	vshufi32x4	$0xdd, %zmm23, %zmm21, %zmm27
	vpxord		(\off + 64 * \m)(%rdx), %zmm24, %zmm24
	vpxord		(\off + 64 * (4 + \m))(%rdx), %zmm25, %zmm25
	vpxord		(\off + 64 * (8 + \m))(%rdx), %zmm26, %zmm26
	vpxord		(\off + 64 * (12 + \m))(%rdx), %zmm27, %zmm27
	vmovdqu64	%zmm24, (\off + 64 * \m)(%rsi)
	vmovdqu64	%zmm25, (\off + 64 * (4 + \m))(%rsi)
	vmovdqu64	%zmm26, (\off + 64 * (8 + \m))(%rsi)
	vmovdqu64	%zmm27, (\off + 64 * (12 + \m))(%rsi)
.endm

/* Sixteen blocks in zmm0-15 (fed forward) to dst + off (uses zmm16-27). */
.macro STORE_A off
	TR4	%zmm0, %zmm1, %zmm2, %zmm3
	TR4	%zmm4, %zmm5, %zmm6, %zmm7
	TR4	%zmm8, %zmm9, %zmm10, %zmm11
	TR4	%zmm12, %zmm13, %zmm14, %zmm15
	OUT4	%zmm0, %zmm4, %zmm8, %zmm12, 0, \off
	OUT4	%zmm1, %zmm5, %zmm9, %zmm13, 1, \off
	OUT4	%zmm2, %zmm6, %zmm10, %zmm14, 2, \off
	OUT4	%zmm3, %zmm7, %zmm11, %zmm15, 3, \off
.endm

	.globl	rind_chacha20_16block_avx512
	.hidden	rind_chacha20_16block_avx512
	.type	rind_chacha20_16block_avx512, @function
	.balign	32
rind_chacha20_16block_avx512:
	.cfi_startproc
	endbr64
	LOAD_A
	vpaddd	.Linc(%rip), %zmm12, %zmm12
	movl	$10, %eax
1:
	DROUND_A
	decl	%eax
	jnz	1b
	FEED_A	.Linc
	STORE_A	0
	vzeroupper
	ret
	.cfi_endproc
	.size	rind_chacha20_16block_avx512, .-rind_chacha20_16block_avx512

	.globl	rind_chacha20_32block_avx512
	.hidden	rind_chacha20_32block_avx512
	.type	rind_chacha20_32block_avx512, @function
	.balign	32
rind_chacha20_32block_avx512:
	.cfi_startproc
	endbr64
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	andq	$-64, %rsp
	subq	$1024, %rsp

	LOAD_A
	vmovdqa64	%zmm0, %zmm16
	vmovdqa64	%zmm1, %zmm17
	vmovdqa64	%zmm2, %zmm18
	vmovdqa64	%zmm3, %zmm19
	vmovdqa64	%zmm4, %zmm20
	vmovdqa64	%zmm5, %zmm21
	vmovdqa64	%zmm6, %zmm22
	vmovdqa64	%zmm7, %zmm23
	vmovdqa64	%zmm8, %zmm24
	vmovdqa64	%zmm9, %zmm25
	vmovdqa64	%zmm10, %zmm26
	vmovdqa64	%zmm11, %zmm27
	vpaddd		.Linc16(%rip), %zmm12, %zmm28
	vpaddd		.Linc(%rip), %zmm12, %zmm12
	vmovdqa64	%zmm13, %zmm29
	vmovdqa64	%zmm14, %zmm30
	vmovdqa64	%zmm15, %zmm31

	movl	$10, %eax
1:
	DROUND_AB
	decl	%eax
	jnz	1b

	/* park the second group while the first is written out */
	vmovdqa64	%zmm16, 0(%rsp)
	vmovdqa64	%zmm17, 64(%rsp)
	vmovdqa64	%zmm18, 128(%rsp)
	vmovdqa64	%zmm19, 192(%rsp)
	vmovdqa64	%zmm20, 256(%rsp)
	vmovdqa64	%zmm21, 320(%rsp)
	vmovdqa64	%zmm22, 384(%rsp)
	vmovdqa64	%zmm23, 448(%rsp)
	vmovdqa64	%zmm24, 512(%rsp)
	vmovdqa64	%zmm25, 576(%rsp)
	vmovdqa64	%zmm26, 640(%rsp)
	vmovdqa64	%zmm27, 704(%rsp)
	vmovdqa64	%zmm28, 768(%rsp)
	vmovdqa64	%zmm29, 832(%rsp)
	vmovdqa64	%zmm30, 896(%rsp)
	vmovdqa64	%zmm31, 960(%rsp)
	FEED_A	.Linc
	STORE_A	0

	vmovdqa64	0(%rsp), %zmm0
	vmovdqa64	64(%rsp), %zmm1
	vmovdqa64	128(%rsp), %zmm2
	vmovdqa64	192(%rsp), %zmm3
	vmovdqa64	256(%rsp), %zmm4
	vmovdqa64	320(%rsp), %zmm5
	vmovdqa64	384(%rsp), %zmm6
	vmovdqa64	448(%rsp), %zmm7
	vmovdqa64	512(%rsp), %zmm8
	vmovdqa64	576(%rsp), %zmm9
	vmovdqa64	640(%rsp), %zmm10
	vmovdqa64	704(%rsp), %zmm11
	vmovdqa64	768(%rsp), %zmm12
	vmovdqa64	832(%rsp), %zmm13
	vmovdqa64	896(%rsp), %zmm14
	vmovdqa64	960(%rsp), %zmm15
	FEED_A	.Linc16
	STORE_A	1024

	/* the parked keystream state is not left on the stack */
	vpxord	%zmm16, %zmm16, %zmm16
	vmovdqa64	%zmm16, 0(%rsp)
	vmovdqa64	%zmm16, 64(%rsp)
	vmovdqa64	%zmm16, 128(%rsp)
	vmovdqa64	%zmm16, 192(%rsp)
	vmovdqa64	%zmm16, 256(%rsp)
	vmovdqa64	%zmm16, 320(%rsp)
	vmovdqa64	%zmm16, 384(%rsp)
	vmovdqa64	%zmm16, 448(%rsp)
	vmovdqa64	%zmm16, 512(%rsp)
	vmovdqa64	%zmm16, 576(%rsp)
	vmovdqa64	%zmm16, 640(%rsp)
	vmovdqa64	%zmm16, 704(%rsp)
	vmovdqa64	%zmm16, 768(%rsp)
	vmovdqa64	%zmm16, 832(%rsp)
	vmovdqa64	%zmm16, 896(%rsp)
	vmovdqa64	%zmm16, 960(%rsp)
	vzeroupper
	movq	%rbp, %rsp
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	rind_chacha20_32block_avx512, .-rind_chacha20_32block_avx512

	.section .note.GNU-stack, "", @progbits
