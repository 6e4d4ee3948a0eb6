/* SPDX-License-Identifier: MIT */
/*
 * What arch/x86/mlkem-avx2.c shares with arch/x86/mlkem-avx512.c: the
 * key-generation lane schedule (kg_run: A-hat, the noise and H(ek) over
 * the four-way Keccak) with the steps a wider driver replaces -- the
 * forward NTT, SampleNTT's rejection over one SHAKE128 block and the
 * permutation with its lane count (four or eight) -- as hooks, and the
 * four-way noise sampler.  Library internal; callers check
 * AVX2 (and, for the AVX-512 hooks, AVX512F/BW/VL) first.
 */
#ifndef _RIND_X86_MLKEM_X86_H
#define _RIND_X86_MLKEM_X86_H

#include <immintrin.h>
#include <crypto/mlkem.h>

struct mlkem_x86_kg_hooks {
	/* struct mlkem_ops.ntt */
	void (*ntt)(struct mlkem_poly *f);
	/*
	 * SampleNTT's rejection over one SHAKE128 block (words 4i..4i+3 of
	 * the state in w[i], i < 6; words 21..23 are not output and are
	 * ignored): the accepted values appended to r[ctr..], in order,
	 * nothing written at or past r[MLKEM_N]; returns the new ctr
	 * (<= MLKEM_N).
	 */
	unsigned int (*rej_block)(s16 *r, unsigned int ctr, const __m256i w[6]);
	/*
	 * The schedule's lanes (4 or 8, at most MLKEM_X86_KG_LANES_MAX) and
	 * their permutation: the states in @w (word i of lane l at
	 * w[lanes i + l], the layout of struct keccakx4_state or
	 * keccakx8_state; @w 64-byte aligned) permuted, then words 4m..4m+3
	 * of lane l in lw[l][m] for m < 6.
	 */
	unsigned int lanes;
	void (*permute)(u64 *w, __m256i lw[][6]);
};

#define MLKEM_X86_KG_LANES_MAX	8

/*
 * mlkem-avx2.c's own steps, and the AVX-512 ones (mlkem-avx512.c): on the
 * four-way permutation (ML-KEM-512's A-hat of a key set from its
 * encoding) and on the eight-way one (key generation)
 */
extern const struct mlkem_x86_kg_hooks rind_mlkem_avx2_kg_hooks;
extern const struct mlkem_x86_kg_hooks rind_mlkem_avx512_kg_hooks;
extern const struct mlkem_x86_kg_hooks rind_mlkem_avx512_kg_hooks_x8;

/* struct mlkem_ops.gen_matrix and .pke_keygen (pke_keygen_h) over @hk */
void rind_mlkem_avx2_gen_matrix_hk(struct mlkem_key *key, const u8 rho[32],
				   const struct mlkem_x86_kg_hooks *hk);
void rind_mlkem_avx2_pke_keygen_hk(struct mlkem_key *key, const u8 rho[32], const u8 sigma[32],
				   const struct mlkem_x86_kg_hooks *hk);
/* struct mlkem_x86_kg_hooks.permute on the four-way permutation (keccak-x4.h) */
void rind_mlkem_avx2_kg_permute4(u64 *w, __m256i lw[][6]);
/* struct mlkem_ops.noise, four SHAKE256 streams at a time */
void rind_mlkem_avx2_noise(struct mlkem_poly *const r[], unsigned int count,
			   const u8 sigma[32], u8 n0, unsigned int eta);

#endif /* _RIND_X86_MLKEM_X86_H */
