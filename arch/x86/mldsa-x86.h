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

/*
 * RejBoundedPoly's step (the AVX2 driver's ExpandS rejection) for the
 * AVX-512 driver's eight-way ExpandS: the coefficients of @len bytes
 * (a multiple of 8) of one stream appended to @a from index @n; @a has
 * 16 spare entries past MLDSA_N.  Returns the new count, at most MLDSA_N.
 */
unsigned int rind_mldsa_avx2_rej_eta(s32 *a, unsigned int n, const u8 *buf, unsigned int len,
				     unsigned int eta);
/*
 * ExpandMask's BitUnpack of one y polynomial (gamma1 = 2^@gamma1_bits,
 * 17 or 19) from the start of its SHAKE256 stream; reads up to 7 bytes
 * past the polynomial's 576 or 640, which @in must have.
 */
void rind_mldsa_avx2_unpack_y(struct mldsa_poly *y, const u8 *in, unsigned int gamma1_bits);

/*
 * The SHAKE256 blocks of one y stream: 680 bytes, enough for the
 * polynomial (640 bytes at gamma1 = 2^19, 576 at 2^17) and the 6 (7)
 * bytes BitUnpack reads past it.
 */
#define MLDSA_Y_BLOCKS	5

#endif /* _RIND_X86_MLDSA_X86_H */
