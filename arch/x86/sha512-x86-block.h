/* SPDX-License-Identifier: MIT */
/*
 * The SHA-384/512 block function of the x86 drivers with a vector message
 * schedule and scalar rounds (sha512-avx2.c, sha512-avx512vl.c), which
 * differ only in how the schedule's small sigmas are computed.  Before
 * including this, a driver defines
 *   SHA512_X86_TARGET	the target attribute of its code;
 *   SHA512_X86_BLOCK	the name of the block function to define;
 * and, with that target, static inline functions ssig0(x) and ssig1(x)
 * on four 64-bit lanes (FIPS 180-4 sigma0, sigma1).
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
 *
 * Not installed; only those two drivers include it.
 */
#ifndef _RIND_X86_SHA512_X86_BLOCK_H
#define _RIND_X86_SHA512_X86_BLOCK_H

#include <immintrin.h>
#include <rind/internal/util.h>
#include <crypto/sha2.h>

/*
 * Message words 2k, 2k+1 of both blocks into X[k % 8] (which holds words
 * 2k-16, 2k-15 on entry) and W+K into wk[4k..4k+3]: block one's two words,
 * then block two's.
 */
#define SHA512_X86_SCHED(k)						\
	do {								\
		__m256i s0in = _mm256_alignr_epi8(X[((k) + 1) & 7], X[(k) & 7], 8); \
		__m256i w7 = _mm256_alignr_epi8(X[((k) + 5) & 7], X[((k) + 4) & 7], 8); \
		__m256i x = _mm256_add_epi64(X[(k) & 7], ssig0(s0in));	\
		x = _mm256_add_epi64(x, w7);				\
		x = _mm256_add_epi64(x, ssig1(X[((k) + 7) & 7]));	\
		X[(k) & 7] = x;						\
		_mm256_store_si256((__m256i *)&wk[4 * (k)], _mm256_add_epi64(x, \
			_mm256_broadcastsi128_si256(_mm_load_si128(	\
				(const __m128i *)&rind_sha512_k[2 * (k)])))); \
	} while (0)

#define SHA512_X86_BSIG0(x)	(ror64(x, 28) ^ ror64(x, 34) ^ ror64(x, 39))
#define SHA512_X86_BSIG1(x)	(ror64(x, 14) ^ ror64(x, 18) ^ ror64(x, 41))

/*
 * Pins @x as computed: the compiler may not re-associate the sums around
 * it.  No instruction.
 */
#define SHA512_X86_OPAQUE(x)	__asm__("" : "+r"(x))

/*
 * One round, arranged for the dependency chains rather than as the
 * standard's T1 and T2.  The next e is (d + h + W+K + Ch(e,f,g)) + S1(e):
 * everything but Ch and S1 is ready a round early, Ch is two steps from e
 * (AND, ANDN, XOR) and S1 three (RORX, XOR, XOR), so e to e is four
 * additions' worth rather than the six of h + S1 + Ch + W+K, then + d.
 * The pin keeps the compiler from folding S1 in before Ch.
 * The next a is T1 + Maj(a,b,c) + S0(a), T1 = the next e - d, with
 * Maj = (a & (b ^ c)) ^ (b & c): two steps from a (b ^ c is the last
 * round's a ^ b, carried in @bc; b & c is ready early), so a to a is four
 * too, where ((a ^ b) & (b ^ c)) ^ b, one operation fewer, took five.
 * Measured on Zen 5 (rounds alone, W+K in L1): 6.5 -> 5.4 cycles a round.
 */
#define SHA512_X86_ROUND(a, b, c, d, e, f, g, h, w)			\
	do {								\
		u64 x = d + (h + (w)) + ((e & f) ^ (~e & g));		\
		u64 en, y;						\
		SHA512_X86_OPAQUE(x);					\
		en = x + SHA512_X86_BSIG1(e);				\
		y = en - d + ((a & bc) ^ (b & c));			\
		bc = a ^ b;						\
		SHA512_X86_OPAQUE(y);					\
		d = en;							\
		h = y + SHA512_X86_BSIG0(a);				\
	} while (0)

/* Sixteen rounds reading W+K from p[]: word 2j at p[4j], 2j+1 at p[4j+1]. */
#define SHA512_X86_ROUNDS16(p, S)					\
	do {								\
		SHA512_X86_ROUND(a, b, c, d, e, f, g, h, (p)[0]);	\
		SHA512_X86_ROUND(h, a, b, c, d, e, f, g, (p)[1]);  S(0); \
		SHA512_X86_ROUND(g, h, a, b, c, d, e, f, (p)[4]);	\
		SHA512_X86_ROUND(f, g, h, a, b, c, d, e, (p)[5]);  S(1); \
		SHA512_X86_ROUND(e, f, g, h, a, b, c, d, (p)[8]);	\
		SHA512_X86_ROUND(d, e, f, g, h, a, b, c, (p)[9]);  S(2); \
		SHA512_X86_ROUND(c, d, e, f, g, h, a, b, (p)[12]);	\
		SHA512_X86_ROUND(b, c, d, e, f, g, h, a, (p)[13]); S(3); \
		SHA512_X86_ROUND(a, b, c, d, e, f, g, h, (p)[16]);	\
		SHA512_X86_ROUND(h, a, b, c, d, e, f, g, (p)[17]); S(4); \
		SHA512_X86_ROUND(g, h, a, b, c, d, e, f, (p)[20]);	\
		SHA512_X86_ROUND(f, g, h, a, b, c, d, e, (p)[21]); S(5); \
		SHA512_X86_ROUND(e, f, g, h, a, b, c, d, (p)[24]);	\
		SHA512_X86_ROUND(d, e, f, g, h, a, b, c, (p)[25]); S(6); \
		SHA512_X86_ROUND(c, d, e, f, g, h, a, b, (p)[28]);	\
		SHA512_X86_ROUND(b, c, d, e, f, g, h, a, (p)[29]); S(7); \
	} while (0)

#define SHA512_X86_NOSCHED(j)	do { } while (0)
#define SHA512_X86_SCHED_R(j)	SHA512_X86_SCHED(8 * r + 8 + (j))

/* The working variables from the state, and the state updated (FIPS 180-4 6.4.2, steps 2 and 4). */
#define SHA512_X86_LOAD_STATE()						\
	do {								\
		a = state[0]; b = state[1]; c = state[2]; d = state[3];	\
		e = state[4]; f = state[5]; g = state[6]; h = state[7];	\
		bc = b ^ c;						\
	} while (0)
#define SHA512_X86_ADD_STATE()						\
	do {								\
		state[0] += a; state[1] += b; state[2] += c; state[3] += d; \
		state[4] += e; state[5] += f; state[6] += g; state[7] += h; \
	} while (0)

SHA512_X86_TARGET
static void SHA512_X86_BLOCK(u64 state[8], const u8 *data, size_t blocks)
{
	/* Byte swap within each 64-bit word. */
	const __m256i bswap = _mm256_set_epi64x(0x08090a0b0c0d0e0fULL, 0x0001020304050607ULL,
						0x08090a0b0c0d0e0fULL, 0x0001020304050607ULL);
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
		SHA512_X86_LOAD_STATE();
		for (unsigned int r = 0; r < 4; r++)
			SHA512_X86_ROUNDS16(&wk[32 * r], SHA512_X86_SCHED_R);
		SHA512_X86_ROUNDS16(&wk[128], SHA512_X86_NOSCHED);
		SHA512_X86_ADD_STATE();
		if (blocks < 2)
			break;

		/* Second block. */
		SHA512_X86_LOAD_STATE();
		for (unsigned int r = 0; r < 5; r++)
			SHA512_X86_ROUNDS16(&wk[32 * r + 2], SHA512_X86_NOSCHED);
		SHA512_X86_ADD_STATE();

		data += 2 * SHA512_BLOCK_SIZE;
		blocks -= 2;
	}
	memzero_explicit(wk, sizeof(wk));
}

#endif /* _RIND_X86_SHA512_X86_BLOCK_H */
