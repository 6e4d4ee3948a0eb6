/* SPDX-License-Identifier: MIT */
/*
 * Four Keccak sponges side by side (arch/x86/keccak-avx2.c, the
 * permutation in arch/x86/keccakx4-avx2-asm.S), for the
 * ML-KEM drivers: fixed-length one-block inputs, whole-block outputs.
 * Callers check AVX2 before use.  Library internal.
 */
#ifndef _RIND_X86_KECCAK_X4_H
#define _RIND_X86_KECCAK_X4_H

#include <immintrin.h>
#include <stddef.h>
#include <rind/types.h>

/*
 * @a: lane i of states 0..3.  @scratch: the permutation's second copy of
 * the state (it alternates rounds between the two) and its column
 * parities -- state too, so it goes wherever the state goes and is wiped
 * with it by the callers (memzero_explicit of the whole struct), not
 * after every permutation.
 */
struct keccakx4_state {
	__m256i a[25];
	__m256i scratch[30];
};

/* keccakx4-avx2-asm.S (or, built with -DRIND_KECCAKX4_C, keccakx4_f1600_c) */
void keccakx4_f1600(struct keccakx4_state *st);
/* the same permutation in C intrinsics (keccak-avx2.c) */
void keccakx4_f1600_c(struct keccakx4_state *st);
void keccakx4_absorb_once(struct keccakx4_state *st, unsigned int rate, u8 ds,
			  const u8 *const in[4], size_t len);
void keccakx4_squeeze_blocks(struct keccakx4_state *st, unsigned int rate,
			     u8 *const out[4], size_t nblocks);

#endif /* _RIND_X86_KECCAK_X4_H */
