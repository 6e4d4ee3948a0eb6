/* SPDX-License-Identifier: MIT */
/*
 * The multi-buffer SHA-384/512 of sha512-mb-avx512.c, which sha512-avx2.c
 * and sha512-avx512vl.c install as their drivers' finup_mb where AVX512F
 * and AVX512BW are present.
 */
#ifndef _RIND_X86_SHA512_MB_AVX512_H
#define _RIND_X86_SHA512_MB_AVX512_H

#include <rind/internal/hash.h>

/*
 * finup_mb over eight 64-bit lanes: the state in @desc is a struct
 * sha512_state (<crypto/sha2.h>).
 */
int rind_sha512_finup_mb_avx512(struct shash_desc *desc, const u8 * const data[],
				unsigned int len, u8 * const outs[], unsigned int num_msgs);

/*
 * Make rind_sha512_finup_mb_avx512 the finup_mb of the @n SHA-384/512
 * drivers @algs (eight messages at most) if the CPU has what it needs;
 * before they are registered.
 */
void rind_sha512_use_finup_mb_avx512(struct shash_alg *algs, unsigned int n);

#endif /* _RIND_X86_SHA512_MB_AVX512_H */
