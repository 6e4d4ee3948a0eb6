/* SPDX-License-Identifier: MIT */
/*
 * Measuring probe (not built by make): loops over the GF(2^255 - 19)
 * macros of arch/x86/fe25519-mulx-asm.h that the X25519 ladder
 * (arch/x86/curve25519-mulx-ladder.S) is made of, for
 * bench/probes/fe25519-mulx-ops.c.  Each function runs its body n times
 * on a frame seeded from buf (four 64-bit limbs): "chain" bodies feed
 * every result into the next operation (latency), "x2" bodies run two
 * independent chains side by side (throughput), "rows" bodies are a
 * product's four MULX rows without its reduction (what FE_REDUCE adds).
 *
 *   void fe_ops_<name>(const u64 buf[4], long n);
 */
#include "fe25519-mulx-asm.h"

	.text

/* frame: 0, 32, 64, 96 four field elements; 192 the count */
.macro PROLOG
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	subq	$200, %rsp
	movq	0(%rdi), %r8
	movq	8(%rdi), %r9
	movq	16(%rdi), %r10
	movq	24(%rdi), %r11
	.irp o, 0, 32, 64, 96
	movq	%r8, \o(%rsp)
	movq	%r9, \o+8(%rsp)
	movq	%r10, \o+16(%rsp)
	movq	%r11, \o+24(%rsp)
	.endr
	movq	%rsi, 192(%rsp)
	xorl	%ecx, %ecx
.endm

.macro EPILOG
	addq	$200, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret
.endm

.macro OPS name
	.globl	fe_ops_\name
	.type	fe_ops_\name, @function
fe_ops_\name:
	PROLOG
1:
.endm

.macro OPS_END name
	decq	192(%rsp)
	jnz	1b
	EPILOG
	.size	fe_ops_\name, .-fe_ops_\name
.endm

/* the four product rows of FE_MUL, the eight limbs stored (no reduction) */
.macro ROWS dst, a, b
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
	movq	\b+8(%rsp), %rdx
	FE_MULROW \a, %r9, %r10, %r11, %r12, %r13
	movq	\b+16(%rsp), %rdx
	FE_MULROW \a, %r10, %r11, %r12, %r13, %r14
	movq	\b+24(%rsp), %rdx
	FE_MULROW \a, %r11, %r12, %r13, %r14, %r15
	movq	%r8, \dst(%rsp)
	movq	%r9, \dst+8(%rsp)
	movq	%r10, \dst+16(%rsp)
	movq	%r11, \dst+24(%rsp)
	movq	%r12, 128(%rsp)
	movq	%r13, 136(%rsp)
	movq	%r14, 144(%rsp)
	movq	%r15, 152(%rsp)
.endm

	OPS mul_chain
	FE_MUL	0, 0, 32
	OPS_END mul_chain

	OPS mul_x2
	FE_MUL	0, 0, 32
	FE_MUL	64, 64, 32
	OPS_END mul_x2

	OPS sqr_chain
	FE_SQR	0, 0
	OPS_END sqr_chain

	OPS sqr_x2
	FE_SQR	0, 0
	FE_SQR	64, 64
	OPS_END sqr_x2

	OPS rows_x2
	ROWS	0, 0, 32
	ROWS	64, 64, 32
	OPS_END rows_x2

	OPS add_sub
	FE_ADD	64, 0, 32
	FE_SUB	96, 64, 32
	OPS_END add_sub

	.section .note.GNU-stack, "", @progbits
