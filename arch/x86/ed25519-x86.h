/* SPDX-License-Identifier: MIT */
/*
 * What the x86-64 Ed25519 drivers give the x86-64 X25519 drivers: the
 * fixed-base X25519(scalar, 9) through their fixed-base tables, each a
 * curve25519_base_fn of <crypto/curve25519.h> (scalar clamped here).
 */
#ifndef _RIND_X86_ED25519_X86_H
#define _RIND_X86_ED25519_X86_H

#include <rind/types.h>

/* MULX/ADX field arithmetic (ed25519-mulx.c); needs BMI2 and ADX. */
void curve25519_base_mulx(u8 out[32], const u8 scalar[32]);
/*
 * AVX-512 IFMA point arithmetic (ed25519-ifma.c); needs AVX512F,
 * AVX512VL, AVX512IFMA, BMI2 and ADX.
 */
void curve25519_base_ifma(u8 out[32], const u8 scalar[32]);

/*
 * Scalars modulo the group order L for the x86-64 drivers (ed25519-sc-x86.c):
 * the results of ed25519_sc_reduce and ed25519_sc_muladd, by L's special
 * form rather than Barrett's reduction.  Baseline x86-64.
 */
void ed25519_sc_reduce_x86(u8 out[32], const u8 in[64]);
void ed25519_sc_muladd_x86(u8 out[32], const u8 a[32], const u8 b[32], const u8 c[32]);

#endif /* _RIND_X86_ED25519_X86_H */
