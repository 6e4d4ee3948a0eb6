/* SPDX-License-Identifier: MIT */
/*
 * The mixed point addition of Ed25519's fixed-base comb (ed25519-mulx.c)
 * in one function, with the MULX/ADCX/ADOX field macros of
 * fe25519-mulx-asm.h.  Requires: BMI2 (MULX), ADX (ADCX, ADOX).
 *
 *   void ge_madd_p3_mulx(ge_p3 *h, const ge_precomp *q, u64 scratch[40]);
 *
 * h = h + q in extended coordinates, h = (X : Y : Z : T) (four field
 * elements, each below 2^256) and q = (y + x, y - x, 2dxy) affine, as
 * ge_madd then ge_p1p1_to_p3 of ed25519-impl.h (Hisil, Wong, Carter and
 * Dawson's a = -1 formulas, 7 multiplications):
 *   a = (Y - X)(y - x)   b = (Y + X)(y + x)   c = T 2dxy   d = 2Z
 *   E = b - a   F = d - c   G = d + c   H = b + a
 *   X' = E F   Y' = G H   Z' = F G   T' = E H
 * The inputs carry no bound beyond 2^256, so their sums and differences
 * take two folds; a, b and c are products (weakly reduced), so E, F, G
 * and H take one.  The results are weakly reduced too.  h is written
 * only after its last read.  No branch or address depends on the data.
 * The intermediate values go to the caller's scratch (320 bytes), which
 * the caller wipes once when its multiplication is done, not after each
 * of its 64 additions.
 */

	.text

#include "fe25519-mulx-asm.h"

/* h: X, Y, Z, T; q: y + x, y - x, 2dxy */
#define HX	0
#define HY	32
#define HZ	64
#define HT	96
#define QYPX	0
#define QYMX	32
#define QXY2D	64

/* The scratch, at rbp: */
#define YMX	0
#define YPX	32
#define PA	64
#define PB	96
#define PC	128
#define PD	160
#define PE	192
#define PF	224
#define PG	256
#define PH	288

	.globl	ge_madd_p3_mulx
	.hidden	ge_madd_p3_mulx
	.type	ge_madd_p3_mulx, @function
	.balign	32
ge_madd_p3_mulx:
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
	movq	%rdx, %rbp			/* rbp: scratch */
	xorl	%ecx, %ecx			/* rcx: 0 throughout */

	FE_SUB2	YMX, HY, HX, %rbp, %rdi, %rdi
	FE_ADD2	YPX, HY, HX, %rbp, %rdi, %rdi
	FE_ADD2	PD, HZ, HZ, %rbp, %rdi, %rdi
	FE_MUL	PA, YMX, QYMX, %rbp, %rbp, %rsi
	FE_MUL	PB, YPX, QYPX, %rbp, %rbp, %rsi
	FE_MUL	PC, HT, QXY2D, %rbp, %rdi, %rsi
	FE_SUB	PE, PB, PA, %rbp, %rbp, %rbp
	FE_ADD	PH, PB, PA, %rbp, %rbp, %rbp
	FE_SUB	PF, PD, PC, %rbp, %rbp, %rbp
	FE_ADD	PG, PD, PC, %rbp, %rbp, %rbp
	FE_MUL	HX, PE, PF, %rdi, %rbp, %rbp
	FE_MUL	HY, PG, PH, %rdi, %rbp, %rbp
	FE_MUL	HZ, PF, PG, %rdi, %rbp, %rbp
	FE_MUL	HT, PE, PH, %rdi, %rbp, %rbp

	/* the registers that held secrets */
	xorl	%eax, %eax
	xorl	%edx, %edx
	xorl	%r8d, %r8d
	xorl	%r9d, %r9d
	xorl	%r10d, %r10d
	xorl	%r11d, %r11d

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
	.size	ge_madd_p3_mulx, .-ge_madd_p3_mulx

/*
 * The same addition with the next digit's table scan woven into it
 * (AVX2 as well):
 *
 *   void ge_madd_p3_scan_mulx(ge_p3 *h, const ge_precomp *q,
 *                             const ge_precomp row[16], u64 babs,
 *                             u64 sel[12]);
 *
 * sel = the entry babs of row (1..16), or (1, 1, 0) for babs = 0: every
 * entry is read and combined under a mask from a vector compare, as
 * ed25519-mulx.c's ed_select_avx2, which finishes it (the sign).  The
 * additions' products keep the integer units busy and leave the vector
 * units idle; two or three entries of the scan go between each two field
 * operations, so the scan runs beside the products instead of between
 * two additions.  The intermediate values live in this frame (rbp holds
 * the row), wiped with the vector registers before returning.
 */

/* ymm0..2: the selection; ymm3: the index; ymm4: babs; ymm5: 1 */
.macro SCAN_ENTRY j
	vpaddq	%ymm5, %ymm3, %ymm3
	vpcmpeqq %ymm4, %ymm3, %ymm6
	vpand	96*\j(%rbp), %ymm6, %ymm7
	vpor	%ymm7, %ymm0, %ymm0
	vpand	96*\j+32(%rbp), %ymm6, %ymm8
	vpor	%ymm8, %ymm1, %ymm1
	vpand	96*\j+64(%rbp), %ymm6, %ymm9
	vpor	%ymm9, %ymm2, %ymm2
.endm

#define S_SEL	320	/* sel */
#define S_FRAME	328	/* rsp 16-byte aligned after the six pushes */

	.globl	ge_madd_p3_scan_mulx
	.hidden	ge_madd_p3_scan_mulx
	.type	ge_madd_p3_scan_mulx, @function
	.balign	32
ge_madd_p3_scan_mulx:
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
	subq	$S_FRAME, %rsp
	.cfi_adjust_cfa_offset S_FRAME
	movq	%r8, S_SEL(%rsp)
	movq	%rdx, %rbp			/* rbp: the row */
	/* babs in every lane; the index 0, counting up by 1 */
	vmovq	%rcx, %xmm4
	vpbroadcastq %xmm4, %ymm4
	movl	$1, %eax
	vmovq	%rax, %xmm8			/* (1, 0, 0, 0) */
	vpbroadcastq %xmm8, %ymm5
	vpxor	%xmm3, %xmm3, %xmm3
	/* babs = 0: (1, 1, 0), the identity; else all zero until the hit */
	vpcmpeqq %ymm3, %ymm4, %ymm6
	vpand	%ymm8, %ymm6, %ymm0
	vmovdqa	%ymm0, %ymm1
	vpxor	%xmm2, %xmm2, %xmm2
	xorl	%ecx, %ecx			/* rcx: 0 throughout */

	SCAN_ENTRY 0
	FE_SUB2	YMX, HY, HX, %rsp, %rdi, %rdi
	SCAN_ENTRY 1
	FE_ADD2	YPX, HY, HX, %rsp, %rdi, %rdi
	FE_ADD2	PD, HZ, HZ, %rsp, %rdi, %rdi
	SCAN_ENTRY 2
	FE_MUL	PA, YMX, QYMX, %rsp, %rsp, %rsi
	SCAN_ENTRY 3
	SCAN_ENTRY 4
	FE_MUL	PB, YPX, QYPX, %rsp, %rsp, %rsi
	SCAN_ENTRY 5
	SCAN_ENTRY 6
	FE_MUL	PC, HT, QXY2D, %rsp, %rdi, %rsi
	SCAN_ENTRY 7
	FE_SUB	PE, PB, PA, %rsp, %rsp, %rsp
	FE_ADD	PH, PB, PA, %rsp, %rsp, %rsp
	SCAN_ENTRY 8
	FE_SUB	PF, PD, PC, %rsp, %rsp, %rsp
	FE_ADD	PG, PD, PC, %rsp, %rsp, %rsp
	SCAN_ENTRY 9
	FE_MUL	HX, PE, PF, %rdi, %rsp, %rsp
	SCAN_ENTRY 10
	SCAN_ENTRY 11
	FE_MUL	HY, PG, PH, %rdi, %rsp, %rsp
	SCAN_ENTRY 12
	SCAN_ENTRY 13
	FE_MUL	HZ, PF, PG, %rdi, %rsp, %rsp
	SCAN_ENTRY 14
	SCAN_ENTRY 15
	FE_MUL	HT, PE, PH, %rdi, %rsp, %rsp

	movq	S_SEL(%rsp), %rax
	vmovdqu	%ymm0, 0(%rax)
	vmovdqu	%ymm1, 32(%rax)
	vmovdqu	%ymm2, 64(%rax)
	/* wipe the frame, the vector registers, the secret-holding GPRs */
	vpxor	%xmm0, %xmm0, %xmm0
	vmovdqu	%ymm0, 0(%rsp)
	vmovdqu	%ymm0, 32(%rsp)
	vmovdqu	%ymm0, 64(%rsp)
	vmovdqu	%ymm0, 96(%rsp)
	vmovdqu	%ymm0, 128(%rsp)
	vmovdqu	%ymm0, 160(%rsp)
	vmovdqu	%ymm0, 192(%rsp)
	vmovdqu	%ymm0, 224(%rsp)
	vmovdqu	%ymm0, 256(%rsp)
	vmovdqu	%ymm0, 288(%rsp)
	vzeroall
	xorl	%eax, %eax
	xorl	%edx, %edx
	xorl	%r8d, %r8d
	xorl	%r9d, %r9d
	xorl	%r10d, %r10d
	xorl	%r11d, %r11d

	addq	$S_FRAME, %rsp
	.cfi_adjust_cfa_offset -S_FRAME
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
	.size	ge_madd_p3_scan_mulx, .-ge_madd_p3_scan_mulx

	.section .note.GNU-stack, "", @progbits
