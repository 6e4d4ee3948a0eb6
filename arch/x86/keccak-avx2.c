// SPDX-License-Identifier: MIT
/*
 * Four Keccak-f[1600] permutations at once with AVX2 (FIPS 202 section
 * 3): lane i of the four states in the four 64-bit lanes of one register.
 * For the many short, independent sponges of ML-KEM (matrix expansion,
 * noise) rather than for one long hash.  Requires: AVX2.
 *
 * AVX2 has no 64-bit rotate: a rotation is two shifts and an OR, except
 * by 8 and 56, which are byte shuffles.  The 25 lanes do not fit in 16
 * registers, so the compiler spills some; that is the known cost of this
 * layout and still about twice the scalar throughput per permutation.
 * Keccak has no data-dependent branches or table lookups.
 */
#include <immintrin.h>
#include <string.h>
#include <rind/internal/util.h>
#include "keccak-x4.h"

#define AVX2 __attribute__((target("avx2")))
#define AVX2_INLINE static inline __attribute__((always_inline, target("avx2")))

static const u64 keccak_rc[24] = {
	0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull,
	0x8000000080008000ull, 0x000000000000808bull, 0x0000000080000001ull,
	0x8000000080008081ull, 0x8000000000008009ull, 0x000000000000008aull,
	0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
	0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull,
	0x8000000000008003ull, 0x8000000000008002ull, 0x8000000000000080ull,
	0x000000000000800aull, 0x800000008000000aull, 0x8000000080008081ull,
	0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull,
};

#define ROL(x, n) _mm256_or_si256(_mm256_slli_epi64(x, n), _mm256_srli_epi64(x, 64 - (n)))

AVX2_INLINE __m256i rol8(__m256i x)
{
	const __m256i m = _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14,
					   7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14);
	return _mm256_shuffle_epi8(x, m);
}

AVX2_INLINE __m256i rol56(__m256i x)
{
	const __m256i m = _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8,
					   1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8);
	return _mm256_shuffle_epi8(x, m);
}

#define XOR _mm256_xor_si256
/* chi: b ^ (~c & d) */
#define CHI(b, c, d) XOR(b, _mm256_andnot_si256(c, d))

/* The rounds of algs/keccak.c, lane for lane (rho offsets and pi there). */
AVX2 void keccakx4_f1600(struct keccakx4_state *st)
{
	__m256i *a = st->a;
	__m256i a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4];
	__m256i a5 = a[5], a6 = a[6], a7 = a[7], a8 = a[8], a9 = a[9];
	__m256i a10 = a[10], a11 = a[11], a12 = a[12], a13 = a[13], a14 = a[14];
	__m256i a15 = a[15], a16 = a[16], a17 = a[17], a18 = a[18], a19 = a[19];
	__m256i a20 = a[20], a21 = a[21], a22 = a[22], a23 = a[23], a24 = a[24];
	__m256i b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12;
	__m256i b13, b14, b15, b16, b17, b18, b19, b20, b21, b22, b23, b24;
	__m256i c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
	int round;

	for (round = 0; round < 24; round++) {
		c0 = XOR(XOR(XOR(a0, a5), XOR(a10, a15)), a20);
		c1 = XOR(XOR(XOR(a1, a6), XOR(a11, a16)), a21);
		c2 = XOR(XOR(XOR(a2, a7), XOR(a12, a17)), a22);
		c3 = XOR(XOR(XOR(a3, a8), XOR(a13, a18)), a23);
		c4 = XOR(XOR(XOR(a4, a9), XOR(a14, a19)), a24);
		d0 = XOR(c4, ROL(c1, 1));
		d1 = XOR(c0, ROL(c2, 1));
		d2 = XOR(c1, ROL(c3, 1));
		d3 = XOR(c2, ROL(c4, 1));
		d4 = XOR(c3, ROL(c0, 1));
		b0 = XOR(a0, d0);
		b10 = ROL(XOR(a1, d1), 1);
		b20 = ROL(XOR(a2, d2), 62);
		b5 = ROL(XOR(a3, d3), 28);
		b15 = ROL(XOR(a4, d4), 27);
		b16 = ROL(XOR(a5, d0), 36);
		b1 = ROL(XOR(a6, d1), 44);
		b11 = ROL(XOR(a7, d2), 6);
		b21 = ROL(XOR(a8, d3), 55);
		b6 = ROL(XOR(a9, d4), 20);
		b7 = ROL(XOR(a10, d0), 3);
		b17 = ROL(XOR(a11, d1), 10);
		b2 = ROL(XOR(a12, d2), 43);
		b12 = ROL(XOR(a13, d3), 25);
		b22 = ROL(XOR(a14, d4), 39);
		b23 = ROL(XOR(a15, d0), 41);
		b8 = ROL(XOR(a16, d1), 45);
		b18 = ROL(XOR(a17, d2), 15);
		b3 = ROL(XOR(a18, d3), 21);
		b13 = rol8(XOR(a19, d4));
		b14 = ROL(XOR(a20, d0), 18);
		b24 = ROL(XOR(a21, d1), 2);
		b9 = ROL(XOR(a22, d2), 61);
		b19 = rol56(XOR(a23, d3));
		b4 = ROL(XOR(a24, d4), 14);
		a0 = XOR(CHI(b0, b1, b2), _mm256_set1_epi64x((long long)keccak_rc[round]));
		a1 = CHI(b1, b2, b3);
		a2 = CHI(b2, b3, b4);
		a3 = CHI(b3, b4, b0);
		a4 = CHI(b4, b0, b1);
		a5 = CHI(b5, b6, b7);
		a6 = CHI(b6, b7, b8);
		a7 = CHI(b7, b8, b9);
		a8 = CHI(b8, b9, b5);
		a9 = CHI(b9, b5, b6);
		a10 = CHI(b10, b11, b12);
		a11 = CHI(b11, b12, b13);
		a12 = CHI(b12, b13, b14);
		a13 = CHI(b13, b14, b10);
		a14 = CHI(b14, b10, b11);
		a15 = CHI(b15, b16, b17);
		a16 = CHI(b16, b17, b18);
		a17 = CHI(b17, b18, b19);
		a18 = CHI(b18, b19, b15);
		a19 = CHI(b19, b15, b16);
		a20 = CHI(b20, b21, b22);
		a21 = CHI(b21, b22, b23);
		a22 = CHI(b22, b23, b24);
		a23 = CHI(b23, b24, b20);
		a24 = CHI(b24, b20, b21);
	}

	a[0] = a0; a[1] = a1; a[2] = a2; a[3] = a3; a[4] = a4;
	a[5] = a5; a[6] = a6; a[7] = a7; a[8] = a8; a[9] = a9;
	a[10] = a10; a[11] = a11; a[12] = a12; a[13] = a13; a[14] = a14;
	a[15] = a15; a[16] = a16; a[17] = a17; a[18] = a18; a[19] = a19;
	a[20] = a20; a[21] = a21; a[22] = a22; a[23] = a23; a[24] = a24;
}

/*
 * One-block absorb: four inputs of the same @len (< rate) bytes, padded
 * with @ds and the final bit; the state starts at zero.
 */
AVX2 void keccakx4_absorb_once(struct keccakx4_state *st, unsigned int rate, u8 ds,
			       const u8 *const in[4], size_t len)
{
	u8 blk[4][200];
	unsigned int i, l;

	for (l = 0; l < 4; l++) {
		memset(blk[l], 0, rate);
		memcpy(blk[l], in[l], len);
		blk[l][len] ^= ds;
		blk[l][rate - 1] ^= 0x80;
	}
	for (i = 0; i < 25; i++) {
		u64 w[4] = { 0, 0, 0, 0 };

		if (8 * i < rate)
			for (l = 0; l < 4; l++)
				w[l] = get_unaligned_le64(blk[l] + 8 * i);
		st->a[i] = _mm256_setr_epi64x((long long)w[0], (long long)w[1],
					      (long long)w[2], (long long)w[3]);
	}
	memzero_explicit(blk, sizeof(blk));
}

/* Permute and write @rate bytes of each state to out[l], @nblocks times. */
AVX2 void keccakx4_squeeze_blocks(struct keccakx4_state *st, unsigned int rate,
				  u8 *const out[4], size_t nblocks)
{
	unsigned int i, l;
	size_t b;

	for (b = 0; b < nblocks; b++) {
		keccakx4_f1600(st);
		for (i = 0; i < rate / 8; i++) {
			u64 w[4];

			_mm256_storeu_si256((__m256i *)w, st->a[i]);
			for (l = 0; l < 4; l++)
				put_unaligned_le64(w[l], out[l] + b * rate + 8 * i);
		}
	}
}
