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

	.section .note.GNU-stack, "", @progbits
