// SPDX-License-Identifier: MIT
/*
 * Four Keccak-f[1600] permutations at once with AVX2 (FIPS 202 section
 * 3): lane i of the four states in the four 64-bit lanes of one register.
 * For the many short, independent sponges of ML-KEM (matrix expansion,
 * noise) rather than for one long hash.  Requires: AVX2.
 *
 * The permutation itself runs in keccakx4-avx2-asm.S (the same round
 * schedule with every register placed by hand, and no spills);
 * keccakx4_f1600_c below is the intrinsics version, the reference the
 * tests hold the assembly to, and the permutation of a -DRIND_KECCAKX4_C
 * build.
 *
 * AVX2 has no 64-bit rotate: a rotation is two shifts and an OR, except
 * by 8 and 56, which are byte shuffles, and by 1, whose left shift is an
 * addition.  The 25 lanes do not fit in 16 registers: the rounds keep
 * the state in memory and go through it one output row at a time (see
 * round4), which is about 10% faster than leaving the spills to the
 * compiler.
 * Keccak has no data-dependent branches or table lookups.
 */
#include <immintrin.h>
#include <stddef.h>
#include <string.h>
#include <rind/internal/util.h>
#include <crypto/keccak-rounds.h>
#include "keccak-x4.h"

#define AVX2 __attribute__((target("avx2")))
#define AVX2_INLINE static inline __attribute__((always_inline, target("avx2")))


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

/* rotation by 1: the left shift as an addition (any vector pipe; shifts have two) */
AVX2_INLINE __m256i rol1(__m256i x)
{
	return _mm256_or_si256(_mm256_add_epi64(x, x), _mm256_srli_epi64(x, 63));
}

/*
 * One round from @a into @e (FIPS 202 section 3.2, the lanes of
 * algs/keccak.c; rho offsets and pi there), row by row of the output:
 * each output row reads its five lanes (through pi), applies theta's D,
 * rho, chi (and iota on lane 0), stores them and folds them into the
 * column parities @c of the next round.  The state lives in memory: 25
 * loads and 25 stores a round, the other values in registers, rather
 * than 25 lanes the compiler spills where it likes.
 */
AVX2_INLINE void round4(const __m256i *restrict a, __m256i *restrict e, __m256i *restrict c,
			__m256i rc)
{
	const __m256i d0 = XOR(c[4], rol1(c[1])), d1 = XOR(c[0], rol1(c[2]));
	const __m256i d2 = XOR(c[1], rol1(c[3])), d3 = XOR(c[2], rol1(c[4]));
	const __m256i d4 = XOR(c[3], rol1(c[0]));
	__m256i b0, b1, b2, b3, b4, x0, x1, x2, x3, x4;

#define ROW(o, first)								\
	do {									\
		x0 = CHI(b0, b1, b2); x1 = CHI(b1, b2, b3); x2 = CHI(b2, b3, b4);	\
		x3 = CHI(b3, b4, b0); x4 = CHI(b4, b0, b1);			\
		if (first) {							\
			x0 = XOR(x0, rc);					\
			c[0] = x0; c[1] = x1; c[2] = x2; c[3] = x3; c[4] = x4;	\
		} else {							\
			c[0] = XOR(c[0], x0); c[1] = XOR(c[1], x1);		\
			c[2] = XOR(c[2], x2); c[3] = XOR(c[3], x3);		\
			c[4] = XOR(c[4], x4);					\
		}								\
		e[o] = x0; e[o + 1] = x1; e[o + 2] = x2; e[o + 3] = x3; e[o + 4] = x4;	\
	} while (0)

	b0 = XOR(a[0], d0);
	b1 = ROL(XOR(a[6], d1), 44);
	b2 = ROL(XOR(a[12], d2), 43);
	b3 = ROL(XOR(a[18], d3), 21);
	b4 = ROL(XOR(a[24], d4), 14);
	ROW(0, 1);
	b0 = ROL(XOR(a[3], d3), 28);
	b1 = ROL(XOR(a[9], d4), 20);
	b2 = ROL(XOR(a[10], d0), 3);
	b3 = ROL(XOR(a[16], d1), 45);
	b4 = ROL(XOR(a[22], d2), 61);
	ROW(5, 0);
	b0 = rol1(XOR(a[1], d1));
	b1 = ROL(XOR(a[7], d2), 6);
	b2 = ROL(XOR(a[13], d3), 25);
	b3 = rol8(XOR(a[19], d4));
	b4 = ROL(XOR(a[20], d0), 18);
	ROW(10, 0);
	b0 = ROL(XOR(a[4], d4), 27);
	b1 = ROL(XOR(a[5], d0), 36);
	b2 = ROL(XOR(a[11], d1), 10);
	b3 = ROL(XOR(a[17], d2), 15);
	b4 = rol56(XOR(a[23], d3));
	ROW(15, 0);
	b0 = ROL(XOR(a[2], d2), 62);
	b1 = ROL(XOR(a[8], d3), 55);
	b2 = ROL(XOR(a[14], d4), 39);
	b3 = ROL(XOR(a[15], d0), 41);
	b4 = ROL(XOR(a[21], d1), 2);
	ROW(20, 0);
#undef ROW
}

/*
 * The 24 rounds, two at a time between the state and its scratch copy
 * (restrict: the two never overlap, so each round's loads need not wait
 * for its stores).  The scratch is left holding the state one round back,
 * which gives away what was absorbed like the state itself (the
 * permutation is invertible): the callers wipe the whole struct.
 */
AVX2 void keccakx4_f1600_c(struct keccakx4_state *st)
{
	__m256i *restrict a = st->a, *restrict e = st->scratch, *restrict c = st->scratch + 25;
	unsigned int x, round;

	for (x = 0; x < 5; x++)
		c[x] = XOR(XOR(XOR(a[x], a[x + 5]), XOR(a[x + 10], a[x + 15])), a[x + 20]);
	for (round = 0; round < 24; round += 2) {
		round4(a, e, c, _mm256_set1_epi64x((long long)keccak_round_constants[round]));
		round4(e, a, c, _mm256_set1_epi64x((long long)keccak_round_constants[round + 1]));
	}
}

/* keccakx4-avx2-asm.S takes the lanes at st + 0 and its second copy at st + 800 */
_Static_assert(offsetof(struct keccakx4_state, a) == 0 &&
	       offsetof(struct keccakx4_state, scratch) == 25 * 32 &&
	       sizeof(((struct keccakx4_state *)0)->scratch) >= 25 * 32,
	       "keccakx4-avx2-asm.S's view of struct keccakx4_state");

#ifdef RIND_KECCAKX4_C
/* built without keccakx4-avx2-asm.S: the intrinsics above are the permutation */
AVX2 void keccakx4_f1600(struct keccakx4_state *st)
{
	keccakx4_f1600_c(st);
}
#endif

/*
 * One-block absorb: four inputs of the same @len (< rate) bytes, padded
 * with @ds and the final bit; the state starts at zero.  Each padded
 * block goes to a zeroed buffer of whole 32-byte groups, which a 4x4
 * transposition of 64-bit units (the inverse of the squeeze's, and the
 * same shuffles) turns into four lanes a group: 6 groups for SHAKE128,
 * 5 for SHAKE256, in place of a gather per word.  @rate <= 192.
 */
AVX2 void keccakx4_absorb_once(struct keccakx4_state *st, unsigned int rate, u8 ds,
			       const u8 *const in[4], size_t len)
{
	u8 blk[4][192] __attribute__((aligned(32)));
	const unsigned int groups = (rate / 8 + 3) / 4;
	unsigned int i, l;

	for (l = 0; l < 4; l++) {
		memset(blk[l], 0, 32 * groups);
		memcpy(blk[l], in[l], len);
		blk[l][len] ^= ds;
		blk[l][rate - 1] ^= 0x80;
	}
	for (i = 0; i < groups; i++) {
		const __m256i r0 = _mm256_load_si256((const __m256i *)(blk[0] + 32 * i));
		const __m256i r1 = _mm256_load_si256((const __m256i *)(blk[1] + 32 * i));
		const __m256i r2 = _mm256_load_si256((const __m256i *)(blk[2] + 32 * i));
		const __m256i r3 = _mm256_load_si256((const __m256i *)(blk[3] + 32 * i));
		const __m256i t0 = _mm256_unpacklo_epi64(r0, r1), t1 = _mm256_unpackhi_epi64(r0, r1);
		const __m256i t2 = _mm256_unpacklo_epi64(r2, r3), t3 = _mm256_unpackhi_epi64(r2, r3);

		st->a[4 * i] = _mm256_permute2x128_si256(t0, t2, 0x20);
		st->a[4 * i + 1] = _mm256_permute2x128_si256(t1, t3, 0x20);
		st->a[4 * i + 2] = _mm256_permute2x128_si256(t0, t2, 0x31);
		st->a[4 * i + 3] = _mm256_permute2x128_si256(t1, t3, 0x31);
	}
	for (i = 4 * groups; i < 25; i++)
		st->a[i] = _mm256_setzero_si256();
	memzero_explicit(blk, sizeof(blk));
}

/*
 * Permute and write @rate bytes of each state to out[l], @nblocks times:
 * four lanes at a time transposed (the four states' words i .. i+3 into
 * one register per state) and stored whole; a last odd lane word by word.
 * x86 is little-endian, so a lane's bytes in memory are its encoding.
 */
AVX2 void keccakx4_squeeze_blocks(struct keccakx4_state *st, unsigned int rate,
				  u8 *const out[4], size_t nblocks)
{
	unsigned int i, l, lanes = rate / 8;
	size_t b;

	for (b = 0; b < nblocks; b++) {
		keccakx4_f1600(st);
		for (i = 0; i + 4 <= lanes; i += 4) {
			__m256i t0 = _mm256_unpacklo_epi64(st->a[i], st->a[i + 1]);
			__m256i t1 = _mm256_unpackhi_epi64(st->a[i], st->a[i + 1]);
			__m256i t2 = _mm256_unpacklo_epi64(st->a[i + 2], st->a[i + 3]);
			__m256i t3 = _mm256_unpackhi_epi64(st->a[i + 2], st->a[i + 3]);

			_mm256_storeu_si256((__m256i *)(out[0] + b * rate + 8 * i),
					    _mm256_permute2x128_si256(t0, t2, 0x20));
			_mm256_storeu_si256((__m256i *)(out[1] + b * rate + 8 * i),
					    _mm256_permute2x128_si256(t1, t3, 0x20));
			_mm256_storeu_si256((__m256i *)(out[2] + b * rate + 8 * i),
					    _mm256_permute2x128_si256(t0, t2, 0x31));
			_mm256_storeu_si256((__m256i *)(out[3] + b * rate + 8 * i),
					    _mm256_permute2x128_si256(t1, t3, 0x31));
		}
		for (; i < lanes; i++) {
			u64 w[4];

			_mm256_storeu_si256((__m256i *)w, st->a[i]);
			for (l = 0; l < 4; l++)
				put_unaligned_le64(w[l], out[l] + b * rate + 8 * i);
		}
	}
}
