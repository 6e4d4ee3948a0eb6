// SPDX-License-Identifier: MIT
/*
 * Eight Keccak-f[1600] permutations at once with AVX-512 (FIPS 202
 * section 3): word i of the eight states in the eight 64-bit lanes of
 * one 512-bit register, the 25 words in 25 of the 32 registers, so the
 * rounds run without a load or store.  For the short, independent SHAKE
 * streams of ML-KEM and ML-DSA (eight seeds at once), as keccak-avx2.c
 * is with four; not for one long hash.  Requires: AVX512F.
 *
 * What AVX-512 changes against the four-way AVX2 rounds:
 *  - VPTERNLOGQ does any three-input bitwise function in one
 *    instruction: theta's column parities are two XOR3s a column, chi's
 *    b ^ (~c & d) is one (truth table 0xd2);
 *  - VPROLQ rotates a 64-bit lane (AVX2 needs two shifts and an OR).
 * A round: 10 + 5 + 5 + 25 (theta) + 24 (rho) + 25 (chi) + 1 (iota) = 95
 * instructions on eight states.  theta's D is formed once a column and
 * xored into each lane (5 more XORs than folding C[x-1] ^ rot(C[x+1])
 * into the lanes as XOR3s): the ten parity registers the folded form
 * keeps live cost more spills than the five D (gcc 12: 21 stack moves a
 * round instead of 30; the 25 lanes, their successors and the temporaries
 * do not quite fit 32 registers either way).
 *
 * The sponge helpers move words between memory and the lanes by 8x8
 * transpositions of 64-bit units (VPUNPCK[LH]QDQ, then two rounds of
 * VSHUFI64X2): eight consecutive words of one state in one load or
 * store.  Keccak has no data-dependent branch or index; the lengths and
 * rates the helpers branch on are public.
 *
 * Emulated where there is no AVX-512 (tests/emu/README.md):
 * RIND_AVX512_TARGET's second spelling.
 */
#include <string.h>
#include <rind/internal/util.h>
#include <crypto/keccak-rounds.h>
#include "keccak-x8.h"
#include "x86-target.h"

#define X8 RIND_AVX512_TARGET("avx512f", "avx2")
#define X8_INLINE static inline __attribute__((always_inline)) X8

#define XOR3(a, b, c)	_mm512_ternarylogic_epi64(a, b, c, 0x96)
/* chi: a ^ (~b & c) -- truth table bit (4a + 2b + c) */
#define CHI(a, b, c)	_mm512_ternarylogic_epi64(a, b, c, 0xd2)
#define ROL(x, n)	_mm512_rol_epi64(x, n)

/*
 * One round in place (FIPS 202 section 3.2; the lanes, rho offsets and pi
 * of <crypto/keccak-rounds.h>).  b[5y + x] is output row y's input x:
 * the lane pi brings there, theta's D added and rotated by rho.
 */
X8_INLINE void round8(__m512i s[25], __m512i rc)
{
	__m512i c[5], d[5], b[25];
	unsigned int x;

#pragma GCC unroll 5
	for (x = 0; x < 5; x++)
		c[x] = XOR3(XOR3(s[x], s[x + 5], s[x + 10]), s[x + 15], s[x + 20]);
#pragma GCC unroll 5
	for (x = 0; x < 5; x++)
		d[x] = _mm512_xor_si512(c[(x + 4) % 5], ROL(c[(x + 1) % 5], 1));
	/* theta on lane i (column x) */
#define T(i, x)	_mm512_xor_si512(s[i], d[x])
	b[0] = T(0, 0);
	b[1] = ROL(T(6, 1), 44);
	b[2] = ROL(T(12, 2), 43);
	b[3] = ROL(T(18, 3), 21);
	b[4] = ROL(T(24, 4), 14);
	b[5] = ROL(T(3, 3), 28);
	b[6] = ROL(T(9, 4), 20);
	b[7] = ROL(T(10, 0), 3);
	b[8] = ROL(T(16, 1), 45);
	b[9] = ROL(T(22, 2), 61);
	b[10] = ROL(T(1, 1), 1);
	b[11] = ROL(T(7, 2), 6);
	b[12] = ROL(T(13, 3), 25);
	b[13] = ROL(T(19, 4), 8);
	b[14] = ROL(T(20, 0), 18);
	b[15] = ROL(T(4, 4), 27);
	b[16] = ROL(T(5, 0), 36);
	b[17] = ROL(T(11, 1), 10);
	b[18] = ROL(T(17, 2), 15);
	b[19] = ROL(T(23, 3), 56);
	b[20] = ROL(T(2, 2), 62);
	b[21] = ROL(T(8, 3), 55);
	b[22] = ROL(T(14, 4), 39);
	b[23] = ROL(T(15, 0), 41);
	b[24] = ROL(T(21, 1), 2);
#undef T
#pragma GCC unroll 5
	for (x = 0; x < 25; x += 5) {
		s[x] = CHI(b[x], b[x + 1], b[x + 2]);
		s[x + 1] = CHI(b[x + 1], b[x + 2], b[x + 3]);
		s[x + 2] = CHI(b[x + 2], b[x + 3], b[x + 4]);
		s[x + 3] = CHI(b[x + 3], b[x + 4], b[x]);
		s[x + 4] = CHI(b[x + 4], b[x], b[x + 1]);
	}
	s[0] = _mm512_xor_si512(s[0], rc);
}

X8 void keccakx8_f1600(struct keccakx8_state *st)
{
	__m512i s[25];
	unsigned int i, round;

#pragma GCC unroll 25
	for (i = 0; i < 25; i++)
		s[i] = st->a[i];
	for (round = 0; round < 24; round++)
		round8(s, _mm512_set1_epi64((long long)keccak_round_constants[round]));
#pragma GCC unroll 25
	for (i = 0; i < 25; i++)
		st->a[i] = s[i];
}

/*
 * 8x8 transposition of 64-bit units in place: r[j] lane l to r[l] lane j.
 * (Its own inverse: words to states and back.)
 */
X8_INLINE void tr8(__m512i r[8])
{
	__m512i u[8], v[8];
	unsigned int j;

	/* u[2k] 128-bit unit c: (r[2k] lane 2c, r[2k+1] lane 2c); u[2k+1]: lanes 2c+1 */
	for (j = 0; j < 8; j += 2) {
		u[j] = _mm512_unpacklo_epi64(r[j], r[j + 1]);
		u[j + 1] = _mm512_unpackhi_epi64(r[j], r[j + 1]);
	}
	/* units 0, 2 (0x88) or 1, 3 (0xdd) of each of two registers */
	v[0] = _mm512_shuffle_i64x2(u[0], u[2], 0x88);	/* lanes 0 | 4 of r0..r3 */
	v[1] = _mm512_shuffle_i64x2(u[0], u[2], 0xdd);	/* lanes 2 | 6 */
	v[2] = _mm512_shuffle_i64x2(u[4], u[6], 0x88);	/* lanes 0 | 4 of r4..r7 */
	v[3] = _mm512_shuffle_i64x2(u[4], u[6], 0xdd);
	v[4] = _mm512_shuffle_i64x2(u[1], u[3], 0x88);	/* lanes 1 | 5 of r0..r3 */
	v[5] = _mm512_shuffle_i64x2(u[1], u[3], 0xdd);	/* lanes 3 | 7 */
	v[6] = _mm512_shuffle_i64x2(u[5], u[7], 0x88);
	v[7] = _mm512_shuffle_i64x2(u[5], u[7], 0xdd);
	r[0] = _mm512_shuffle_i64x2(v[0], v[2], 0x88);
	r[4] = _mm512_shuffle_i64x2(v[0], v[2], 0xdd);
	r[2] = _mm512_shuffle_i64x2(v[1], v[3], 0x88);
	r[6] = _mm512_shuffle_i64x2(v[1], v[3], 0xdd);
	r[1] = _mm512_shuffle_i64x2(v[4], v[6], 0x88);
	r[5] = _mm512_shuffle_i64x2(v[4], v[6], 0xdd);
	r[3] = _mm512_shuffle_i64x2(v[5], v[7], 0x88);
	r[7] = _mm512_shuffle_i64x2(v[5], v[7], 0xdd);
}

X8 void keccakx8_extract(__m512i out[8], const struct keccakx8_state *st, unsigned int first)
{
	unsigned int j;

	for (j = 0; j < 8; j++)
		out[j] = st->a[first + j];
	tr8(out);
}

/*
 * Xor @lanes words at p[l] (any alignment) into state l: eight words at
 * a time through one load per state and the transposition, the rest
 * word by word.
 */
X8_INLINE void xor_words(struct keccakx8_state *st, const u8 *const p[8], unsigned int lanes)
{
	unsigned int i, l;

	for (i = 0; i + 8 <= lanes; i += 8) {
		__m512i r[8];

		for (l = 0; l < 8; l++)
			r[l] = _mm512_loadu_si512(p[l] + 8 * i);
		tr8(r);
		for (l = 0; l < 8; l++)
			st->a[i + l] = _mm512_xor_si512(st->a[i + l], r[l]);
	}
	for (; i < lanes; i++) {
		u64 w[8] __attribute__((aligned(64)));

		for (l = 0; l < 8; l++)
			w[l] = get_unaligned_le64(p[l] + 8 * i);
		st->a[i] = _mm512_xor_si512(st->a[i], _mm512_load_si512(w));
	}
}

X8 void keccakx8_absorb_once(struct keccakx8_state *st, unsigned int rate, u8 ds,
			     const u8 *const in[8], size_t len)
{
	u8 blk[8][168];
	const u8 *p[8];
	size_t off = 0;
	unsigned int i, l;

	for (i = 0; i < 25; i++)
		st->a[i] = _mm512_setzero_si512();
	for (; len - off >= rate; off += rate) {
		for (l = 0; l < 8; l++)
			p[l] = in[l] + off;
		xor_words(st, p, rate / 8);
		keccakx8_f1600(st);
	}
	/* the last 0 .. rate-1 bytes, padded (pad10*1 after the domain bits) */
	for (l = 0; l < 8; l++) {
		memset(blk[l], 0, rate);
		memcpy(blk[l], in[l] + off, len - off);
		blk[l][len - off] ^= ds;
		blk[l][rate - 1] ^= 0x80;
		p[l] = blk[l];
	}
	xor_words(st, p, rate / 8);
	memzero_explicit(blk, sizeof(blk));
}

/*
 * x86 is little-endian: a word's bytes in memory are its encoding, so
 * eight transposed words of a state are one 64-byte store.
 */
X8 void keccakx8_squeeze_blocks(struct keccakx8_state *st, unsigned int rate,
				u8 *const out[8], size_t nblocks)
{
	unsigned int i, l, lanes = rate / 8;
	size_t b;

	for (b = 0; b < nblocks; b++) {
		keccakx8_f1600(st);
		for (i = 0; i + 8 <= lanes; i += 8) {
			__m512i r[8];

			keccakx8_extract(r, st, i);
			for (l = 0; l < 8; l++)
				_mm512_storeu_si512(out[l] + b * rate + 8 * i, r[l]);
		}
		for (; i < lanes; i++) {
			u64 w[8] __attribute__((aligned(64)));

			_mm512_store_si512(w, st->a[i]);
			for (l = 0; l < 8; l++)
				put_unaligned_le64(w[l], out[l] + b * rate + 8 * i);
		}
	}
}
