/* SPDX-License-Identifier: MIT */
/*
 * What arch/x86/mldsa-avx2.c shares with arch/x86/mldsa-avx512.c: its
 * struct mldsa_ops (the AVX-512 driver takes the hooks it does not
 * replace from it: sampling of s and y, c-tilde, the challenge products
 * and the signing loop's steps, whose struct mldsa_sign_pre layout is
 * the AVX2 driver's) and the set-up of the tables those hooks read.
 * Callers check AVX2 first.  Library internal.
 */
#ifndef _RIND_X86_MLDSA_X86_H
#define _RIND_X86_MLDSA_X86_H

#include <crypto/mldsa.h>

extern const struct mldsa_ops rind_mldsa_avx2_ops;

/* The AVX2 hooks' tables, computed once (idempotent; module init only). */
void rind_mldsa_avx2_setup(void);

#endif /* _RIND_X86_MLDSA_X86_H */
