/* SPDX-License-Identifier: MIT */
/*
 * fe25519-inv-x86.c: out = in^-1 mod 2^255 - 19 (0 for 0) for canonical
 * limbs (< p), constant time; the contract of fe25519_invert_limbs
 * (<crypto/fe25519-64.h>), in fewer instructions a divstep.  Baseline
 * x86-64.
 */
#ifndef _RIND_X86_FE25519_INV_X86_H
#define _RIND_X86_FE25519_INV_X86_H

#include <rind/types.h>

void fe25519_invert_limbs_x86(u64 out[4], const u64 in[4]);

#endif /* _RIND_X86_FE25519_INV_X86_H */
