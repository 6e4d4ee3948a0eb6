/* SPDX-License-Identifier: MIT */
/*
 * Four Keccak-f[1600] permutations at once (FIPS 202 section 3), the
 * permutation of keccak-x4.h: lane i of the four states in the four 64-bit
 * units of st->a[i].  Requires: AVX2.
 *
 *   void keccakx4_f1600(struct keccakx4_state *st);
 *
 * The register plan.  A round needs, besides its 25 input lanes, theta's
 * five D, the five column parities C of the next round (folded in as the
 * outputs are made, so no pass over the new state computes them), the
 * five B of the output row being made and one temporary: 16 ymm
 * registers, with nothing left over to hold lanes.  So the lanes live in
 * memory, and each is touched exactly twice a round: read once, as the
 * memory operand of the XOR that applies D (a load folded into an ALU
 * operation: Zen 3 has two 256-bit load pipes besides the four vector
 * ALU pipes, which this round keeps busy), and written once, as chi
 * leaves it.  Nothing else goes to memory: no spill, no reload, no
 * stack frame; the round constants and the two byte-shuffle masks are
 * memory operands as well.  The rounds alternate between st->a and the
 * first 25 slots of st->scratch (the C version's second copy, so the
 * struct and what its scratch holds afterwards -- the state one round
 * back, wiped with the struct by the callers -- are unchanged); two
 * rounds a loop iteration bring the state back to st->a.
 *
 * Per round: 20 operations for D (ROL1 as VPADDQ, VPSRLQ, VPOR), 25 XORs
 * of D, 22 rotations of three operations (VPSRLQ, VPSLLQ, VPOR; the one
 * by 1 with VPADDQ), 2 of one (8 and 56 as VPSHUFB), chi as VPANDN and
 * VPXOR (50), iota (1), the parities (20): 184 vector operations (48 of
 * them shifts and 2 shuffles, which have two pipes of the four), 25
 * loads folded into them, 25 stores.  That count, four vector ALU pipes
 * a cycle, is the bound: on the Zen 3 development VM 1060-1086 TSC ticks
 * a permutation (minimum over batches of 100), against 1156-1162 for the
 * intrinsics, whose two-round loop GCC compiled with 113 vector spills
 * and reloads; per call, medians 1103-1151 against 1176-1225 on a quiet
 * host and 1299-1372 against 1421-1519 on a loaded one.  Keeping the
 * last row's lane 24 in a register for the next round (no store-to-load
 * forwarding on that path) or four rounds a loop iteration measured the
 * same.
 *
 * Keccak has no data-dependent branch, index or timing: constant time.
 * The registers are cleared on return (VZEROALL), so no lane of a secret
 * state (ML-KEM's noise, ML-DSA's) stays behind in them.
 *
 * The C version (keccakx4_f1600_c in keccak-avx2.c) is the same round
 * schedule in intrinsics; a build with -DRIND_KECCAKX4_C leaves this file
 * empty and runs that instead.
 */
#ifndef RIND_KECCAKX4_C

#define D0	%ymm0
#define D1	%ymm1
#define D2	%ymm2
#define D3	%ymm3
#define D4	%ymm4
#define C0	%ymm5
#define C1	%ymm6
#define C2	%ymm7
#define C3	%ymm8
#define C4	%ymm9
#define B0	%ymm10
#define B1	%ymm11
#define B2	%ymm12
#define B3	%ymm13
#define B4	%ymm14
#define T	%ymm15

	.section .rodata
	.balign 32
/* rotations left by 8 and by 56 of each 64-bit unit, as byte shuffles */
.Lrol8:
	.byte 7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14
	.byte 7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14
.Lrol56:
	.byte 1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8
	.byte 1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8

/* RC[i] (FIPS 202 Algorithm 6), four copies each: one memory operand per round */
.macro RC4 v
	.quad \v, \v, \v, \v
.endm
.Lrc:
	RC4 0x0000000000000001
	RC4 0x0000000000008082
	RC4 0x800000000000808a
	RC4 0x8000000080008000
	RC4 0x000000000000808b
	RC4 0x0000000080000001
	RC4 0x8000000080008081
	RC4 0x8000000000008009
	RC4 0x000000000000008a
	RC4 0x0000000000000088
	RC4 0x0000000080008009
	RC4 0x000000008000000a
	RC4 0x000000008000808b
	RC4 0x800000000000008b
	RC4 0x8000000000008089
	RC4 0x8000000000008003
	RC4 0x8000000000008002
	RC4 0x8000000000000080
	RC4 0x000000000000800a
	RC4 0x800000008000000a
	RC4 0x8000000080008081
	RC4 0x8000000000008080
	RC4 0x0000000080000001
	RC4 0x8000000080008008

	.text

/* \b = rol64(\b, \n) in each unit; T is clobbered */
.macro ROL b, n
.if \n == 8
	vpshufb	.Lrol8(%rip), \b, \b
.elseif \n == 56
	vpshufb	.Lrol56(%rip), \b, \b
.elseif \n == 1
	vpsrlq	$63, \b, T
	vpaddq	\b, \b, \b
	vpor	T, \b, \b
.else
	vpsrlq	$(64 - \n), \b, T
	vpsllq	$\n, \b, \b
	vpor	T, \b, \b
.endif
.endm

/* B = rol64(lane \i of \src ^ \d, \n): theta's XOR takes the lane from memory */
.macro LANE b, src, i, d, n
	vpxor	(32 * \i)(\src), \d, \b
.if \n
	ROL	\b, \n
.endif
.endm

/* D = \cm ^ rol64(\cp, 1): theta's column effect, from C[x - 1] and C[x + 1] */
.macro THETA_D d, cm, cp
	vpsrlq	$63, \cp, T
	vpaddq	\cp, \cp, \d
	vpor	T, \d, \d
	vpxor	\cm, \d, \d
.endm

/*
 * Output lane o = \x0 ^ (~\x1 & \x2) of chi, stored at \dst[\o]: into \c
 * itself on the round's first row (the parities start there), else into T
 * and folded into \c.
 */
.macro CHI1 first, x0, x1, x2, c, dst, o
.if \first
	vpandn	\x2, \x1, \c
	vpxor	\x0, \c, \c
	vmovdqu	\c, (32 * \o)(\dst)
.else
	vpandn	\x2, \x1, T
	vpxor	\x0, T, T
	vmovdqu	T, (32 * \o)(\dst)
	vpxor	T, \c, \c
.endif
.endm

/* chi over the row in B0..B4 into \dst[\o .. \o + 4] */
.macro CHIROW first, dst, o
	CHI1	\first, B0, B1, B2, C0, \dst, (\o + 0)
	CHI1	\first, B1, B2, B3, C1, \dst, (\o + 1)
	CHI1	\first, B2, B3, B4, C2, \dst, (\o + 2)
	CHI1	\first, B3, B4, B0, C3, \dst, (\o + 3)
	CHI1	\first, B4, B0, B1, C4, \dst, (\o + 4)
.endm

/*
 * One round from \src into \dst, C0..C4 holding the column parities of
 * \src on entry and of \dst on exit; \rc the round constant's memory
 * operand.  Output row y takes the lanes that pi moves there (lane (x, y)
 * goes to (y, 2x + 3y)), with the rho offsets of FIPS 202 Algorithm 2;
 * the same order as keccakx4_f1600_c's round4.
 */
.macro ROUND src, dst, rc
	THETA_D	D0, C4, C1
	THETA_D	D1, C0, C2
	THETA_D	D2, C1, C3
	THETA_D	D3, C2, C4
	THETA_D	D4, C3, C0

	LANE	B0, \src, 0, D0, 0
	LANE	B1, \src, 6, D1, 44
	LANE	B2, \src, 12, D2, 43
	LANE	B3, \src, 18, D3, 21
	LANE	B4, \src, 24, D4, 14
	/* the first lane's chi output takes iota too, before it is stored */
	vpandn	B2, B1, C0
	vpxor	B0, C0, C0
	vpxor	\rc, C0, C0
	vmovdqu	C0, (\dst)
	CHI1	1, B1, B2, B3, C1, \dst, 1
	CHI1	1, B2, B3, B4, C2, \dst, 2
	CHI1	1, B3, B4, B0, C3, \dst, 3
	CHI1	1, B4, B0, B1, C4, \dst, 4

	LANE	B0, \src, 3, D3, 28
	LANE	B1, \src, 9, D4, 20
	LANE	B2, \src, 10, D0, 3
	LANE	B3, \src, 16, D1, 45
	LANE	B4, \src, 22, D2, 61
	CHIROW	0, \dst, 5

	LANE	B0, \src, 1, D1, 1
	LANE	B1, \src, 7, D2, 6
	LANE	B2, \src, 13, D3, 25
	LANE	B3, \src, 19, D4, 8
	LANE	B4, \src, 20, D0, 18
	CHIROW	0, \dst, 10

	LANE	B0, \src, 4, D4, 27
	LANE	B1, \src, 5, D0, 36
	LANE	B2, \src, 11, D1, 10
	LANE	B3, \src, 17, D2, 15
	LANE	B4, \src, 23, D3, 56
	CHIROW	0, \dst, 15

	LANE	B0, \src, 2, D2, 62
	LANE	B1, \src, 8, D3, 55
	LANE	B2, \src, 14, D4, 39
	LANE	B3, \src, 15, D0, 41
	LANE	B4, \src, 21, D1, 2
	CHIROW	0, \dst, 20
.endm

	.globl	keccakx4_f1600
	.hidden	keccakx4_f1600
	.type	keccakx4_f1600, @function
	.balign	64
keccakx4_f1600:
	.cfi_startproc
	endbr64
	leaq	(32 * 25)(%rdi), %rsi		/* st->scratch: the other copy */
	leaq	.Lrc(%rip), %rax
	movl	$12, %ecx
	/* the column parities of the input state */
	vmovdqu	(32 * 0)(%rdi), C0
	vmovdqu	(32 * 1)(%rdi), C1
	vmovdqu	(32 * 2)(%rdi), C2
	vmovdqu	(32 * 3)(%rdi), C3
	vmovdqu	(32 * 4)(%rdi), C4
	vpxor	(32 * 5)(%rdi), C0, C0
	vpxor	(32 * 6)(%rdi), C1, C1
	vpxor	(32 * 7)(%rdi), C2, C2
	vpxor	(32 * 8)(%rdi), C3, C3
	vpxor	(32 * 9)(%rdi), C4, C4
	vpxor	(32 * 10)(%rdi), C0, C0
	vpxor	(32 * 11)(%rdi), C1, C1
	vpxor	(32 * 12)(%rdi), C2, C2
	vpxor	(32 * 13)(%rdi), C3, C3
	vpxor	(32 * 14)(%rdi), C4, C4
	vpxor	(32 * 15)(%rdi), C0, C0
	vpxor	(32 * 16)(%rdi), C1, C1
	vpxor	(32 * 17)(%rdi), C2, C2
	vpxor	(32 * 18)(%rdi), C3, C3
	vpxor	(32 * 19)(%rdi), C4, C4
	vpxor	(32 * 20)(%rdi), C0, C0
	vpxor	(32 * 21)(%rdi), C1, C1
	vpxor	(32 * 22)(%rdi), C2, C2
	vpxor	(32 * 23)(%rdi), C3, C3
	vpxor	(32 * 24)(%rdi), C4, C4
	.balign	32
.Lround2:
	ROUND	%rdi, %rsi, (%rax)
	ROUND	%rsi, %rdi, 32(%rax)
	addq	$64, %rax
	decl	%ecx
	jnz	.Lround2
	vzeroall
	ret
	.cfi_endproc
	.size	keccakx4_f1600, .-keccakx4_f1600

#endif /* !RIND_KECCAKX4_C */

	.section .note.GNU-stack, "", @progbits
