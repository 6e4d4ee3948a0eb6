// SPDX-License-Identifier: MIT
/*
 * SHA-384 and SHA-512 with an AVX2 message schedule and scalar rounds
 * (sha512-x86-block.h).
 * Requires: AVX2, BMI1, BMI2.
 *
 * AVX2 has no 64-bit rotation: each of the small sigmas' rotations is a
 * shift pair and an OR (ror 8 a byte shuffle), seven and nine operations.
 * Where AVX-512VL is there, sha512-avx512vl.c does them in four each.
 */
#include <immintrin.h>
#include <rind/internal/hash.h>
#include <rind/internal/util.h>
#include <crypto/sha2.h>
#include "sha512-mb-avx512.h"

#define SHA512_X86_TARGET	__attribute__((target("avx2,bmi,bmi2")))
#define SHA512_X86_BLOCK	sha512_avx2_block

SHA512_X86_TARGET
static inline __m256i ssig0(__m256i x)
{
	/* rotate each 64-bit word right by 8 */
	const __m256i ror8 = _mm256_set_epi64x(0x080f0e0d0c0b0a09ULL, 0x0007060504030201ULL,
					       0x080f0e0d0c0b0a09ULL, 0x0007060504030201ULL);
	/* ror 1 ^ ror 8 ^ shr 7 */
	__m256i r = _mm256_xor_si256(_mm256_srli_epi64(x, 1), _mm256_slli_epi64(x, 63));

	r = _mm256_xor_si256(r, _mm256_shuffle_epi8(x, ror8));
	return _mm256_xor_si256(r, _mm256_srli_epi64(x, 7));
}

SHA512_X86_TARGET
static inline __m256i ssig1(__m256i x)
{
	/* ror 19 ^ ror 61 ^ shr 6 */
	__m256i r = _mm256_xor_si256(_mm256_srli_epi64(x, 19), _mm256_slli_epi64(x, 45));

	r = _mm256_xor_si256(r, _mm256_srli_epi64(x, 61));
	r = _mm256_xor_si256(r, _mm256_slli_epi64(x, 3));
	return _mm256_xor_si256(r, _mm256_srli_epi64(x, 6));
}

#include "sha512-x86-block.h"

DEFINE_SHA512_SHASH_ALGS(sha512_avx2, sha512_avx2_block, "avx2", 300, "x86");

/* The known-answer tests for "sha384"/"sha512" are registered by algs/sha512.c. */
static int sha512_avx2_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_AVX2) || !rind_cpu_has(RIND_X86_BMI1) ||
	    !rind_cpu_has(RIND_X86_BMI2))
		return 0;
	rind_sha512_use_finup_mb_avx512(sha512_avx2_algs, ARRAY_SIZE(sha512_avx2_algs));
	return crypto_register_shashes(sha512_avx2_algs, ARRAY_SIZE(sha512_avx2_algs));
}
module_init(sha512_avx2_mod_init);
