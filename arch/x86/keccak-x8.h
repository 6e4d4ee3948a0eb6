/* SPDX-License-Identifier: MIT */
/*
 * Eight Keccak sponges side by side (arch/x86/keccak-avx512.c): the
 * eight-way form of keccak-x4.h, for the AVX-512 drivers' many short,
 * independent SHAKE streams (ML-KEM's matrix and noise, ML-DSA's
 * expansions).  Callers check AVX512F before use.  Library internal.
 */
#ifndef _RIND_X86_KECCAK_X8_H
#define _RIND_X86_KECCAK_X8_H

#include <immintrin.h>
#include <stddef.h>
#include <rind/types.h>

/*
 * a[i]: word i of states 0..7, state l in 64-bit lane l.  Secret when
 * what was absorbed is: the callers wipe it (memzero_explicit of the
 * struct) when done.
 */
struct keccakx8_state {
	__m512i a[25];
};

/* Keccak-f[1600] on each of the eight states */
void keccakx8_f1600(struct keccakx8_state *st);
/*
 * SHAKE-style absorb of eight inputs of the same @len (any length, also
 * 0 and several blocks), padded with @ds (KECCAK_DS_SHAKE 0x1f,
 * KECCAK_DS_SHA3 0x06) and the final bit at @rate (a multiple of 8, at
 * most 168).  The state starts at zero; the last block is xored in but
 * not permuted: keccakx8_squeeze_blocks permutes first.
 */
void keccakx8_absorb_once(struct keccakx8_state *st, unsigned int rate, u8 ds,
			  const u8 *const in[8], size_t len);
/* Permute and write @rate bytes of each state to out[l], @nblocks times. */
void keccakx8_squeeze_blocks(struct keccakx8_state *st, unsigned int rate,
			     u8 *const out[8], size_t nblocks);
/*
 * out[l] = words @first .. @first + 7 of state l (@first <= 17), an 8x8
 * transposition of 64-bit units: a state's block in registers without a
 * store per word.
 */
void keccakx8_extract(__m512i out[8], const struct keccakx8_state *st, unsigned int first);

#endif /* _RIND_X86_KECCAK_X8_H */
