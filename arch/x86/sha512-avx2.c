// SPDX-License-Identifier: MIT
/*
 * SHA-384 and SHA-512 with an AVX2 message schedule.
 * Requires: AVX2, BMI1, BMI2.
 *
 * Two blocks are scheduled at once, one per 128-bit lane of a ymm register
 * (two 64-bit message words of each block per register), and W[t] + K[t]
 * is stored for both blocks; the rounds then run in scalar registers
 * (RORX/ANDN from BMI1/BMI2), the first block's rounds interleaved with
 * the vector schedule so the two proceed on different execution units.
 * A lone last block is scheduled alongside a copy of itself.
 *
 * FIPS 180-4 section 6.4.2: W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) +
 * W[t-16] for 16 <= t < 80.  With X_k = (W[2k], W[2k+1]) each of these
 * terms is a whole register (or an ALIGNR of two), so one step makes two
 * words of each block.
 */
#include <immintrin.h>
#include <rind/internal/hash.h>
#include <rind/internal/util.h>
#include <crypto/sha2.h>
#include "sha512-mb-avx512.h"

#define AVX2_TARGET __attribute__((target("avx2,bmi,bmi2")))

/* x >> n | x << (64 - n) on each 64-bit lane. */
#define VROR(x, n) _mm256_or_si256(_mm256_srli_epi64(x, n), _mm256_slli_epi64(x, 64 - (n)))

AVX2_TARGET
static inline __m256i ssig0(__m256i x, __m256i ror8)
{
	/* ror 1 ^ ror 8 ^ shr 7 */
	__m256i r = _mm256_xor_si256(_mm256_srli_epi64(x, 1), _mm256_slli_epi64(x, 63));

	r = _mm256_xor_si256(r, _mm256_shuffle_epi8(x, ror8));
	return _mm256_xor_si256(r, _mm256_srli_epi64(x, 7));
}

AVX2_TARGET
static inline __m256i ssig1(__m256i x)
{
	/* ror 19 ^ ror 61 ^ shr 6 */
	__m256i r = _mm256_xor_si256(_mm256_srli_epi64(x, 19), _mm256_slli_epi64(x, 45));

	r = _mm256_xor_si256(r, _mm256_srli_epi64(x, 61));
	r = _mm256_xor_si256(r, _mm256_slli_epi64(x, 3));
	return _mm256_xor_si256(r, _mm256_srli_epi64(x, 6));
}

/*
 * Message words 2k, 2k+1 of both blocks into X[k % 8] (which holds words
 * 2k-16, 2k-15 on entry) and W+K into wk[4k..4k+3]: block one's two words,
 * then block two's.
 */
#define SCHED(k)							\
	do {								\
		__m256i s0in = _mm256_alignr_epi8(X[((k) + 1) & 7], X[(k) & 7], 8); \
		__m256i w7 = _mm256_alignr_epi8(X[((k) + 5) & 7], X[((k) + 4) & 7], 8); \
		__m256i x = _mm256_add_epi64(X[(k) & 7], ssig0(s0in, ror8)); \
		x = _mm256_add_epi64(x, w7);				\
		x = _mm256_add_epi64(x, ssig1(X[((k) + 7) & 7]));	\
		X[(k) & 7] = x;						\
		_mm256_store_si256((__m256i *)&wk[4 * (k)], _mm256_add_epi64(x, \
			_mm256_broadcastsi128_si256(_mm_load_si128(	\
				(const __m128i *)&rind_sha512_k[2 * (k)])))); \
	} while (0)

#define BSIG0(x)	(ror64(x, 28) ^ ror64(x, 34) ^ ror64(x, 39))
#define BSIG1(x)	(ror64(x, 14) ^ ror64(x, 18) ^ ror64(x, 41))

/*
 * One round.  Maj(a,b,c) = ((a ^ b) & (b ^ c)) ^ b, and this round's a ^ b
 * is the next round's b ^ c, carried in @bc.
 */
#define ROUND(a, b, c, d, e, f, g, h, w)				\
	do {								\
		u64 t1 = h + BSIG1(e) + ((e & f) ^ (~e & g)) + (w);	\
		u64 ab = a ^ b;						\
		d += t1;						\
		h = t1 + BSIG0(a) + ((ab & bc) ^ b);			\
		bc = ab;						\
	} while (0)

/* Sixteen rounds reading W+K from p[]: word 2j at p[4j], 2j+1 at p[4j+1]. */
#define ROUNDS16(p, S)							\
	do {								\
		ROUND(a, b, c, d, e, f, g, h, (p)[0]);			\
		ROUND(h, a, b, c, d, e, f, g, (p)[1]);  S(0);		\
		ROUND(g, h, a, b, c, d, e, f, (p)[4]);			\
		ROUND(f, g, h, a, b, c, d, e, (p)[5]);  S(1);		\
		ROUND(e, f, g, h, a, b, c, d, (p)[8]);			\
		ROUND(d, e, f, g, h, a, b, c, (p)[9]);  S(2);		\
		ROUND(c, d, e, f, g, h, a, b, (p)[12]);			\
		ROUND(b, c, d, e, f, g, h, a, (p)[13]); S(3);		\
		ROUND(a, b, c, d, e, f, g, h, (p)[16]);			\
		ROUND(h, a, b, c, d, e, f, g, (p)[17]); S(4);		\
		ROUND(g, h, a, b, c, d, e, f, (p)[20]);			\
		ROUND(f, g, h, a, b, c, d, e, (p)[21]); S(5);		\
		ROUND(e, f, g, h, a, b, c, d, (p)[24]);			\
		ROUND(d, e, f, g, h, a, b, c, (p)[25]); S(6);		\
		ROUND(c, d, e, f, g, h, a, b, (p)[28]);			\
		ROUND(b, c, d, e, f, g, h, a, (p)[29]); S(7);		\
	} while (0)

#define NOSCHED(j)	do { } while (0)
#define SCHED_R(j)	SCHED(8 * r + 8 + (j))

AVX2_TARGET
static void sha512_avx2_block(u64 state[8], const u8 *data, size_t blocks)
{
	/* Byte swap within each 64-bit word; rotate each 64-bit word by 8. */
	const __m256i bswap = _mm256_set_epi64x(0x08090a0b0c0d0e0fULL, 0x0001020304050607ULL,
						0x08090a0b0c0d0e0fULL, 0x0001020304050607ULL);
	const __m256i ror8 = _mm256_set_epi64x(0x080f0e0d0c0b0a09ULL, 0x0007060504030201ULL,
					       0x080f0e0d0c0b0a09ULL, 0x0007060504030201ULL);
	u64 wk[160] __attribute__((aligned(32)));

	while (blocks) {
		const u8 *second = blocks >= 2 ? data + SHA512_BLOCK_SIZE : data;
		u64 a, b, c, d, e, f, g, h, bc;
		__m256i X[8];

		for (unsigned int k = 0; k < 8; k++) {
			__m128i lo = _mm_loadu_si128((const __m128i *)(data + 16 * k));
			__m128i hi = _mm_loadu_si128((const __m128i *)(second + 16 * k));
			__m256i x = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);

			X[k] = _mm256_shuffle_epi8(x, bswap);
			_mm256_store_si256((__m256i *)&wk[4 * k], _mm256_add_epi64(X[k],
				_mm256_broadcastsi128_si256(_mm_load_si128(
					(const __m128i *)&rind_sha512_k[2 * k]))));
		}

		/* First block, scheduling words 16..79 of both blocks meanwhile. */
		a = state[0]; b = state[1]; c = state[2]; d = state[3];
		e = state[4]; f = state[5]; g = state[6]; h = state[7];
		bc = b ^ c;
		for (unsigned int r = 0; r < 4; r++)
			ROUNDS16(&wk[32 * r], SCHED_R);
		ROUNDS16(&wk[128], NOSCHED);
		state[0] += a; state[1] += b; state[2] += c; state[3] += d;
		state[4] += e; state[5] += f; state[6] += g; state[7] += h;
		if (blocks < 2)
			break;

		/* Second block. */
		a = state[0]; b = state[1]; c = state[2]; d = state[3];
		e = state[4]; f = state[5]; g = state[6]; h = state[7];
		bc = b ^ c;
		for (unsigned int r = 0; r < 5; r++)
			ROUNDS16(&wk[32 * r + 2], NOSCHED);
		state[0] += a; state[1] += b; state[2] += c; state[3] += d;
		state[4] += e; state[5] += f; state[6] += g; state[7] += h;

		data += 2 * SHA512_BLOCK_SIZE;
		blocks -= 2;
	}
	memzero_explicit(wk, sizeof(wk));
}

DEFINE_SHA512_SHASH_ALGS(sha512_avx2, sha512_avx2_block, "avx2", 300, "x86");

/* The known-answer tests for "sha384"/"sha512" are registered by algs/sha512.c. */
static int sha512_avx2_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_AVX2) || !rind_cpu_has(RIND_X86_BMI1) ||
	    !rind_cpu_has(RIND_X86_BMI2))
		return 0;
	/*
	 * Several messages at once (crypto_shash_finup_mb) in AVX-512 lanes:
	 * sha512-mb-avx512.c.  Not a driver of its own, as one message is
	 * fastest here.
	 */
	if (rind_cpu_has(RIND_X86_AVX512F) && rind_cpu_has(RIND_X86_AVX512BW)) {
		for (unsigned int i = 0; i < ARRAY_SIZE(sha512_avx2_algs); i++) {
			sha512_avx2_algs[i].finup_mb = rind_sha512_finup_mb_avx512;
			sha512_avx2_algs[i].mb_max_msgs = 8;
		}
	}
	return crypto_register_shashes(sha512_avx2_algs, ARRAY_SIZE(sha512_avx2_algs));
}
module_init(sha512_avx2_mod_init);
