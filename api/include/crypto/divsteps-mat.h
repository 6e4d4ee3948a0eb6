/* SPDX-License-Identifier: MIT */
/*
 * The 2x2 matrix a batch of Bernstein-Yang divsteps records, (f', g') =
 * M (f, g) / 2^k: shared by the NIST curves' inversion (ecc-inv.h), the
 * curve25519 one (fe25519-inv.h) and the x86 batch both use
 * (arch/x86/ecc-divsteps-x86.h).
 */
#ifndef _RIND_CRYPTO_DIVSTEPS_MAT_H
#define _RIND_CRYPTO_DIVSTEPS_MAT_H

#include <rind/types.h>

struct ecc_by_mat {
	s64 u, v, q, r;
};

#endif /* _RIND_CRYPTO_DIVSTEPS_MAT_H */
