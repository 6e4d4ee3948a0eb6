/* SPDX-License-Identifier: MIT */
/*
 * The portable SHA-256 / SHA-512 compression function (FIPS 180-4 sections
 * 6.2.2 and 6.4.2), written once for both word sizes: the two differ only
 * in the word type, the rotation counts of the four sigma functions, the
 * round constants and the number of rounds.  algs/sha256.c and
 * algs/sha512.c each define SHA2_BSIG0/1 and SHA2_SSIG0/1 for their word
 * and then DEFINE_SHA2_BLOCK_GENERIC(), and undefines them after it (the
 * default build compiles both files in one unity object, Makefile); the
 * accelerated drivers have their own code.
 */
#ifndef _CRYPTO_SHA2_GENERIC_H
#define _CRYPTO_SHA2_GENERIC_H

#define SHA2_CH(x, y, z)	((z) ^ ((x) & ((y) ^ (z))))
#define SHA2_MAJ(x, y, z)	(((x) & (y)) | ((z) & ((x) | (y))))

/* Round t (j = t mod 16); the variables rotate through the macro arguments. */
#define SHA2_ROUND(word, a, b, c, d, e, f, g, h, j, Wj)				\
	do {									\
		word t1 = h + SHA2_BSIG1(e) + SHA2_CH(e, f, g) + k[j] + (Wj);	\
		d += t1;							\
		h = t1 + SHA2_BSIG0(a) + SHA2_MAJ(a, b, c);			\
	} while (0)

/* The message schedule in a 16-word ring: W[t mod 16] becomes W[t]. */
#define SHA2_SCHED(j) (W[j] += SHA2_SSIG1(W[((j) + 14) & 15]) + W[((j) + 9) & 15] + \
			       SHA2_SSIG0(W[((j) + 1) & 15]))

#define SHA2_ROUNDS16(word, WJ)							\
	do {									\
		SHA2_ROUND(word, a, b, c, d, e, f, g, h, 0, WJ(0));		\
		SHA2_ROUND(word, h, a, b, c, d, e, f, g, 1, WJ(1));		\
		SHA2_ROUND(word, g, h, a, b, c, d, e, f, 2, WJ(2));		\
		SHA2_ROUND(word, f, g, h, a, b, c, d, e, 3, WJ(3));		\
		SHA2_ROUND(word, e, f, g, h, a, b, c, d, 4, WJ(4));		\
		SHA2_ROUND(word, d, e, f, g, h, a, b, c, 5, WJ(5));		\
		SHA2_ROUND(word, c, d, e, f, g, h, a, b, 6, WJ(6));		\
		SHA2_ROUND(word, b, c, d, e, f, g, h, a, 7, WJ(7));		\
		SHA2_ROUND(word, a, b, c, d, e, f, g, h, 8, WJ(8));		\
		SHA2_ROUND(word, h, a, b, c, d, e, f, g, 9, WJ(9));		\
		SHA2_ROUND(word, g, h, a, b, c, d, e, f, 10, WJ(10));		\
		SHA2_ROUND(word, f, g, h, a, b, c, d, e, 11, WJ(11));		\
		SHA2_ROUND(word, e, f, g, h, a, b, c, d, 12, WJ(12));		\
		SHA2_ROUND(word, d, e, f, g, h, a, b, c, 13, WJ(13));		\
		SHA2_ROUND(word, c, d, e, f, g, h, a, b, 14, WJ(14));		\
		SHA2_ROUND(word, b, c, d, e, f, g, h, a, 15, WJ(15));		\
	} while (0)

#define SHA2_WLOAD(j)	W[j]

/*
 * void @fn(@word state[8], const u8 *data, size_t blocks): @nrounds rounds
 * with constants @ktab over blocks of 16 words read by @load (big-endian).
 */
#define DEFINE_SHA2_BLOCK_GENERIC(fn, word, ktab, nrounds, load)		\
void fn(word state[8], const u8 *data, size_t blocks)				\
{										\
	word W[16];								\
										\
	while (blocks--) {							\
		word a = state[0], b = state[1], c = state[2], d = state[3];	\
		word e = state[4], f = state[5], g = state[6], h = state[7];	\
		const word *k = ktab;						\
										\
		for (int i = 0; i < 16; i++)					\
			W[i] = load(data + sizeof(word) * i);			\
										\
		SHA2_ROUNDS16(word, SHA2_WLOAD);				\
		for (int t = 16; t < (nrounds); t += 16) {			\
			k += 16;						\
			SHA2_ROUNDS16(word, SHA2_SCHED);			\
		}								\
										\
		state[0] += a;							\
		state[1] += b;							\
		state[2] += c;							\
		state[3] += d;							\
		state[4] += e;							\
		state[5] += f;							\
		state[6] += g;							\
		state[7] += h;							\
		data += 16 * sizeof(word);					\
	}									\
	memzero_explicit(W, sizeof(W));						\
}

#endif /* _CRYPTO_SHA2_GENERIC_H */
