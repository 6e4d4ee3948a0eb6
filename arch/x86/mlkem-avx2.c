// SPDX-License-Identifier: MIT
/*
 * ML-KEM (FIPS 203) arithmetic with AVX2: "mlkem512-avx2",
 * "mlkem768-avx2", "mlkem1024-avx2" and "x25519mlkem768-avx2", priority
 * 300.  Requires: AVX2.
 *
 * Sixteen coefficients per 256-bit register.  The NTT and its inverse
 * keep the generic code's order and its exact representatives: the
 * butterflies of the layers with distance >= 16 pair whole registers; for
 * distances 8, 4 and 2 a pair of registers is regrouped (128-bit halves,
 * then 64-bit, then 32-bit units) so that partners again sit in the same
 * lanes of two registers, and regrouped back at the end.  Montgomery
 * products are VPMULLW/VPMULHW (the high half of a*b minus the high half
 * of t*q, t = a*b*q^-1 mod 2^16), which equals the generic
 * montgomery_reduce() bit for bit; Barrett reduction is the generic
 * rounding, floor((floor(a*v / 2^16) + 2^9) / 2^10), so every output
 * matches algs/mlkem.c and keys, ciphertexts and known answers are shared.
 * Matrix expansion and noise sampling run four SHAKE128/SHAKE256 streams
 * at once (keccak-avx2.c, the permutation keccakx4-avx2-asm.S); key
 * generation also hashes H(ek) in those lanes as ek is encoded (kg_run).
 * Matrix-vector products sum each row's base-case products in 32 bits
 * (VPMADDWD) and reduce once: the same canonical or centered values as
 * the generic code's per-product reductions.
 *
 * Constant time: the arithmetic has no branches or table indices that
 * depend on data; the zeta vectors are public constants.
 */
#include <immintrin.h>
#include <string.h>
#include <rind/internal/kem.h>
#include <rind/internal/util.h>
#include <crypto/keccak.h>
#include <crypto/mlkem.h>
#include "keccak-x4.h"
#include "mlkem-x86.h"

#define AVX2 __attribute__((target("avx2")))
#define AVX2_INLINE static inline __attribute__((always_inline, target("avx2")))

#define Q	MLKEM_Q
#define QINV	(-3327)		/* q^-1 mod 2^16, as a signed 16-bit value */
#define BARRETT_V 20159		/* round(2^26 / q) */
#define MONT_R2_MOD_Q 1353	/* 2^32 mod q: a product's R^-1 times this is R */

/*
 * Per register pair p (coefficients 32p .. 32p+31), the zetas of the
 * three in-register layers laid out as the regrouped registers need them,
 * with their products by q^-1 (the low half of the Montgomery product).
 */
struct zvec {
	s16 z[16];
	s16 zq[16];
};
static struct zvec ntt_z8[8], ntt_z4[8], ntt_z2[8];
static struct zvec inv_z8[8], inv_z4[8], inv_z2[8];
static s16 gamma_odd[MLKEM_N];	/* gamma_i at lane 2i+1, 0 at 2i */

static void zvec_set(struct zvec *v, unsigned int lane, s16 z)
{
	v->z[lane] = z;
	v->zq[lane] = (s16)(u16)((u32)(u16)z * (u16)QINV);
}

static void mlkem_avx2_tables(void)
{
	const s16 *z = rind_mlkem_zetas;
	unsigned int p, l;

	for (p = 0; p < 8; p++) {
		for (l = 0; l < 16; l++) {
			/* distance 8: [a x8 | b x8]; 4: [a0 a8 | b0 b8] x4; 2: pairs */
			zvec_set(&ntt_z8[p], l, z[16 + 2 * p + l / 8]);
			zvec_set(&ntt_z4[p], l, z[32 + 4 * p + l / 4]);
			zvec_set(&ntt_z2[p], l, z[64 + 8 * p + l / 2]);
			zvec_set(&inv_z8[p], l, z[31 - (2 * p + l / 8)]);
			zvec_set(&inv_z4[p], l, z[63 - (4 * p + l / 4)]);
			zvec_set(&inv_z2[p], l, z[127 - (8 * p + l / 2)]);
		}
	}
	for (l = 0; l < MLKEM_N / 2; l++) {
		gamma_odd[2 * l] = 0;
		gamma_odd[2 * l + 1] = rind_mlkem_gammas[l];
	}
}

/* a * b * R^-1, as montgomery_reduce(a * b) */
AVX2_INLINE __m256i fqmul(__m256i a, __m256i b)
{
	__m256i lo = _mm256_mullo_epi16(a, b);
	__m256i hi = _mm256_mulhi_epi16(a, b);
	__m256i t = _mm256_mullo_epi16(lo, _mm256_set1_epi16(QINV));

	t = _mm256_mulhi_epi16(t, _mm256_set1_epi16(Q));
	return _mm256_sub_epi16(hi, t);
}

/* The same with zq = z * q^-1 mod 2^16 precomputed. */
AVX2_INLINE __m256i fqmul_z(__m256i b, __m256i z, __m256i zq)
{
	__m256i hi = _mm256_mulhi_epi16(b, z);
	__m256i t = _mm256_mullo_epi16(b, zq);

	t = _mm256_mulhi_epi16(t, _mm256_set1_epi16(Q));
	return _mm256_sub_epi16(hi, t);
}

AVX2_INLINE __m256i barrett(__m256i a)
{
	__m256i t = _mm256_mulhi_epi16(a, _mm256_set1_epi16(BARRETT_V));

	t = _mm256_srai_epi16(_mm256_add_epi16(t, _mm256_set1_epi16(1 << 9)), 10);
	return _mm256_sub_epi16(a, _mm256_mullo_epi16(t, _mm256_set1_epi16(Q)));
}

/* Cooley-Tukey: a + z b, a - z b */
AVX2_INLINE void bf(__m256i *a, __m256i *b, __m256i z, __m256i zq)
{
	__m256i t = fqmul_z(*b, z, zq);

	*b = _mm256_sub_epi16(*a, t);
	*a = _mm256_add_epi16(*a, t);
}

/* Gentleman-Sande: reduce(a + b), z (b - a) */
AVX2_INLINE void ibf(__m256i *a, __m256i *b, __m256i z, __m256i zq)
{
	__m256i t = *a;

	*a = barrett(_mm256_add_epi16(t, *b));
	*b = fqmul_z(_mm256_sub_epi16(*b, t), z, zq);
}

AVX2_INLINE void bf_s(__m256i *a, __m256i *b, s16 z)
{
	bf(a, b, _mm256_set1_epi16(z), _mm256_set1_epi16((s16)(u16)((u32)(u16)z * (u16)QINV)));
}

AVX2_INLINE void ibf_s(__m256i *a, __m256i *b, s16 z)
{
	ibf(a, b, _mm256_set1_epi16(z), _mm256_set1_epi16((s16)(u16)((u32)(u16)z * (u16)QINV)));
}

AVX2_INLINE __m256i zload(const s16 *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}

/*
 * Regroupings of a register pair (a, b) = coefficients 0..15, 16..31 of
 * one 32-coefficient block, named by the butterfly distance they serve:
 *   d8: x = [a0-7 | b0-7],           y = [a8-15 | b8-15]
 *   d4: x = [a0-3 a8-11 | b0-3 b8-11], y = [a4-7 a12-15 | b4-7 b12-15]
 *   d2: x = [a0,1 a4,5 a8,9 a12,13 | b...], y = [a2,3 a6,7 a10,11 a14,15 | b...]
 */
AVX2_INLINE void d16_to_d8(__m256i *x, __m256i *y)
{
	__m256i a = *x, b = *y;

	*x = _mm256_permute2x128_si256(a, b, 0x20);
	*y = _mm256_permute2x128_si256(a, b, 0x31);
}

#define d8_to_d16 d16_to_d8	/* the same exchange of halves undoes itself */

AVX2_INLINE void d8_to_d4(__m256i *x, __m256i *y)
{
	__m256i a = *x, b = *y;

	*x = _mm256_unpacklo_epi64(a, b);
	*y = _mm256_unpackhi_epi64(a, b);
}

#define d4_to_d8 d8_to_d4	/* likewise for 64-bit units */

AVX2_INLINE void d4_to_d2(__m256i *x, __m256i *y)
{
	__m256i a = *x, b = *y;

	*x = _mm256_blend_epi32(a, _mm256_slli_epi64(b, 32), 0xaa);
	*y = _mm256_blend_epi32(_mm256_srli_epi64(a, 32), b, 0xaa);
}

#define d2_to_d4 d4_to_d2	/* and for 32-bit units */

static AVX2 void avx2_ntt(struct mlkem_poly *f)
{
	const s16 *z = rind_mlkem_zetas;
	__m256i v[16];
	unsigned int k, p;

	for (k = 0; k < 16; k++)
		v[k] = _mm256_loadu_si256((const __m256i *)&f->c[16 * k]);
	for (k = 0; k < 8; k++)
		bf_s(&v[k], &v[k + 8], z[1]);
	for (k = 0; k < 8; k++)
		bf_s(&v[(k & 4) * 2 + (k & 3)], &v[(k & 4) * 2 + (k & 3) + 4], z[2 + k / 4]);
	for (k = 0; k < 8; k++)
		bf_s(&v[(k & 6) * 2 + (k & 1)], &v[(k & 6) * 2 + (k & 1) + 2], z[4 + k / 2]);
	/*
	 * Two blocks at a time, step by step: each block's layers are one
	 * chain of dependent multiplies and shuffles, and two interleaved
	 * chains keep the multipliers busy where one left them waiting.
	 */
	for (p = 0; p < 8; p += 2) {
		__m256i x = v[2 * p], y = v[2 * p + 1], x1 = v[2 * p + 2], y1 = v[2 * p + 3];

		bf_s(&x, &y, z[8 + p]);
		bf_s(&x1, &y1, z[9 + p]);
		d16_to_d8(&x, &y);
		d16_to_d8(&x1, &y1);
		bf(&x, &y, zload(ntt_z8[p].z), zload(ntt_z8[p].zq));
		bf(&x1, &y1, zload(ntt_z8[p + 1].z), zload(ntt_z8[p + 1].zq));
		d8_to_d4(&x, &y);
		d8_to_d4(&x1, &y1);
		bf(&x, &y, zload(ntt_z4[p].z), zload(ntt_z4[p].zq));
		bf(&x1, &y1, zload(ntt_z4[p + 1].z), zload(ntt_z4[p + 1].zq));
		d4_to_d2(&x, &y);
		d4_to_d2(&x1, &y1);
		bf(&x, &y, zload(ntt_z2[p].z), zload(ntt_z2[p].zq));
		bf(&x1, &y1, zload(ntt_z2[p + 1].z), zload(ntt_z2[p + 1].zq));
		d2_to_d4(&x, &y);
		d2_to_d4(&x1, &y1);
		d4_to_d8(&x, &y);
		d4_to_d8(&x1, &y1);
		d8_to_d16(&x, &y);
		d8_to_d16(&x1, &y1);
		_mm256_storeu_si256((__m256i *)&f->c[32 * p], barrett(x));
		_mm256_storeu_si256((__m256i *)&f->c[32 * p + 16], barrett(y));
		_mm256_storeu_si256((__m256i *)&f->c[32 * p + 32], barrett(x1));
		_mm256_storeu_si256((__m256i *)&f->c[32 * p + 48], barrett(y1));
	}
}

static AVX2 void avx2_invntt(struct mlkem_poly *f)
{
	const s16 *z = rind_mlkem_zetas;
	__m256i v[16], fz = _mm256_set1_epi16(rind_mlkem_invntt_f);
	unsigned int k, p;

	for (p = 0; p < 8; p += 2) {	/* two blocks interleaved, as in avx2_ntt */
		__m256i x = _mm256_loadu_si256((const __m256i *)&f->c[32 * p]);
		__m256i y = _mm256_loadu_si256((const __m256i *)&f->c[32 * p + 16]);
		__m256i x1 = _mm256_loadu_si256((const __m256i *)&f->c[32 * p + 32]);
		__m256i y1 = _mm256_loadu_si256((const __m256i *)&f->c[32 * p + 48]);

		d16_to_d8(&x, &y);
		d16_to_d8(&x1, &y1);
		d8_to_d4(&x, &y);
		d8_to_d4(&x1, &y1);
		d4_to_d2(&x, &y);
		d4_to_d2(&x1, &y1);
		ibf(&x, &y, zload(inv_z2[p].z), zload(inv_z2[p].zq));
		ibf(&x1, &y1, zload(inv_z2[p + 1].z), zload(inv_z2[p + 1].zq));
		d2_to_d4(&x, &y);
		d2_to_d4(&x1, &y1);
		ibf(&x, &y, zload(inv_z4[p].z), zload(inv_z4[p].zq));
		ibf(&x1, &y1, zload(inv_z4[p + 1].z), zload(inv_z4[p + 1].zq));
		d4_to_d8(&x, &y);
		d4_to_d8(&x1, &y1);
		ibf(&x, &y, zload(inv_z8[p].z), zload(inv_z8[p].zq));
		ibf(&x1, &y1, zload(inv_z8[p + 1].z), zload(inv_z8[p + 1].zq));
		d8_to_d16(&x, &y);
		d8_to_d16(&x1, &y1);
		ibf_s(&x, &y, z[15 - p]);
		ibf_s(&x1, &y1, z[14 - p]);
		v[2 * p] = x;
		v[2 * p + 1] = y;
		v[2 * p + 2] = x1;
		v[2 * p + 3] = y1;
	}
	for (k = 0; k < 8; k++)
		ibf_s(&v[(k & 6) * 2 + (k & 1)], &v[(k & 6) * 2 + (k & 1) + 2], z[7 - k / 2]);
	for (k = 0; k < 8; k++)
		ibf_s(&v[(k & 4) * 2 + (k & 3)], &v[(k & 4) * 2 + (k & 3) + 4], z[3 - k / 4]);
	for (k = 0; k < 8; k++)
		ibf_s(&v[k], &v[k + 8], z[1]);
	for (k = 0; k < 16; k++)
		_mm256_storeu_si256((__m256i *)&f->c[16 * k], fqmul(v[k], fz));
}

/*
 * a * b for sixteen coefficients: for each pair, (a0 b0 + a1 b1 gamma,
 * a0 b1 + a1 b0), with the generic code's products and sums in the same
 * lanes; @g holds gamma_odd of these coefficients.
 */
AVX2_INLINE __m256i basemul16(__m256i va, __m256i vb, __m256i g)
{
	const __m256i swap = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
					      2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
	__m256i p = fqmul(va, vb);				/* a0b0, a1b1 */
	__m256i pg = fqmul(p, g);				/* -, a1b1g */
	__m256i c = fqmul(va, _mm256_shuffle_epi8(vb, swap));	/* a0b1, a1b0 */
	__m256i even = _mm256_add_epi16(p, _mm256_shuffle_epi8(pg, swap));
	__m256i odd = _mm256_add_epi16(c, _mm256_shuffle_epi8(c, swap));

	return _mm256_blend_epi16(even, odd, 0xaa);
}

/* r += a * b */
static AVX2 void avx2_basemul_acc(struct mlkem_poly *r, const struct mlkem_poly *a,
				  const struct mlkem_poly *b)
{
	unsigned int k;

	for (k = 0; k < MLKEM_N; k += 16) {
		__m256i va = _mm256_loadu_si256((const __m256i *)&a->c[k]);
		__m256i vb = _mm256_loadu_si256((const __m256i *)&b->c[k]);
		__m256i g = _mm256_loadu_si256((const __m256i *)&gamma_odd[k]);
		__m256i vr = _mm256_loadu_si256((const __m256i *)&r->c[k]);

		vr = _mm256_add_epi16(vr, basemul16(va, vb, g));
		_mm256_storeu_si256((__m256i *)&r->c[k], vr);
	}
}

/*
 * SampleNTT's rejection step (public data: rho), sixteen candidates per
 * step: 24 bytes spread to sixteen 12-bit values, compared with q, and
 * the accepted ones moved to the front of each 128-bit half by a byte
 * shuffle chosen by the acceptance mask (rej_idx).  The generic code's
 * order, so the same coefficients, and nothing written past MLKEM_N.
 */
static u8 rej_idx[256][16];

static void rej_tables(void)
{
	unsigned int m, b, n;

	for (m = 0; m < 256; m++) {
		for (b = 0, n = 0; b < 8; b++) {
			if (m & (1u << b)) {
				rej_idx[m][2 * n] = (u8)(2 * b);
				rej_idx[m][2 * n + 1] = (u8)(2 * b + 1);
				n++;
			}
		}
		for (; n < 8; n++)
			rej_idx[m][2 * n] = rej_idx[m][2 * n + 1] = 0x80;
	}
}

/*
 * Two passes: first every 24-byte group is spread, compared and each
 * half's accepted values shuffled to the front of a fixed scratch slot,
 * its count noted -- no store waits on a running count, so the groups
 * overlap freely; then the slots are moved to their places in @r, a
 * chain of one load, store and add per half.  (One pass, with each store
 * address hanging on the previous group's popcount, took about 1.7 times
 * as long on Zen 3.)
 */

/*
 * One group: @x holds bytes 0-15 of 24 in its low half and bytes 8-23 in
 * its high half; the accepted values of each half go to the front of
 * slot[0] and slot[1], their numbers to cnt[0] and cnt[1].
 */
AVX2_INLINE void rej_group(s16 (*slot)[8], u8 *cnt, __m256i x)
{
	/* lane 2m: bytes 3m, 3m+1; lane 2m+1: bytes 3m+1, 3m+2 (per 12-byte half) */
	const __m256i spread = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11,
						4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15);
	const __m256i q = _mm256_set1_epi16(Q), m12 = _mm256_set1_epi16(0x0fff);
	__m256i v, ok;
	unsigned int mm, lo, hi;

	x = _mm256_shuffle_epi8(x, spread);
	v = _mm256_blend_epi16(_mm256_and_si256(x, m12), _mm256_srli_epi16(x, 4), 0xaa);
	ok = _mm256_cmpgt_epi16(q, v);
	mm = (unsigned int)_mm256_movemask_epi8(_mm256_packs_epi16(ok, ok));
	lo = mm & 0xff;
	hi = (mm >> 16) & 0xff;
	_mm_store_si128((__m128i *)slot[0],
			_mm_shuffle_epi8(_mm256_castsi256_si128(v),
					 _mm_loadu_si128((const __m128i *)rej_idx[lo])));
	_mm_store_si128((__m128i *)slot[1],
			_mm_shuffle_epi8(_mm256_extracti128_si256(v, 1),
					 _mm_loadu_si128((const __m128i *)rej_idx[hi])));
	cnt[0] = (u8)__builtin_popcount(lo);
	cnt[1] = (u8)__builtin_popcount(hi);
}

/* The second pass: @h halves' slots to r[ctr..], never past MLKEM_N. */
AVX2_INLINE unsigned int rej_place(s16 *r, unsigned int ctr, s16 (*slot)[8], const u8 *cnt,
				   unsigned int h)
{
	unsigned int i;

	if (ctr + 8 * h <= MLKEM_N) {
		/* room for every slot whole: no bound to check (a block's first two of three) */
#pragma GCC unroll 14
		for (i = 0; i < h; i++) {
			_mm_storeu_si128((__m128i *)(r + ctr), _mm_load_si128((const __m128i *)slot[i]));
			ctr += cnt[i];
		}
		return ctr;
	}
	for (i = 0; i < h && ctr < MLKEM_N; i++) {
		if (ctr <= MLKEM_N - 8)
			_mm_storeu_si128((__m128i *)(r + ctr), _mm_load_si128((const __m128i *)slot[i]));
		else	/* the last few: nothing is written past MLKEM_N */
			memcpy(r + ctr, slot[i], sizeof(s16) * (MLKEM_N - ctr));
		ctr += cnt[i];
	}
	return ctr < MLKEM_N ? ctr : MLKEM_N;
}

/*
 * SampleNTT's rejection over one SHAKE128 block held as registers w[0..5] (words
 * 4i..4i+3 of the block in w[i]; w[5] has word 20): each group's three
 * words are picked by a blend and a permutation, four groups per three
 * registers, with no store and reload of the block.
 */
static AVX2 unsigned int rej_block(s16 *r, unsigned int ctr, const __m256i w[6])
{
	s16 slot[14][8] __attribute__((aligned(16)));
	u8 cnt[14];
	unsigned int c;

	for (c = 0; c < 2; c++) {
		__m256i a = w[3 * c], b = w[3 * c + 1], d = w[3 * c + 2];

		/* words (0 1 1 2), (3 4 4 5), (6 7 7 8), (9 10 10 11) of a, b, d */
		rej_group(&slot[8 * c], &cnt[8 * c], _mm256_permute4x64_epi64(a, 0x94));
		rej_group(&slot[8 * c + 2], &cnt[8 * c + 2],
			  _mm256_permute4x64_epi64(_mm256_blend_epi32(a, b, 0x0f), 0x43));
		rej_group(&slot[8 * c + 4], &cnt[8 * c + 4],
			  _mm256_permute4x64_epi64(_mm256_blend_epi32(b, d, 0x03), 0x3e));
		if (c == 0)	/* 21 words: the second set has three groups */
			rej_group(&slot[6], &cnt[6], _mm256_permute4x64_epi64(d, 0xe9));
	}
	return rej_place(r, ctr, slot, cnt, 14);
}

/*
 * SamplePolyCBD_2 of 128 bytes, sixteen coefficients per 8 bytes: the
 * bit-pair sums of each byte at once, then per nibble (a & 3) - (a >> 2)
 * -- the low nibble is coefficient 2k, the high one 2k + 1.
 */
static AVX2 void cbd2(struct mlkem_poly *r, const u8 *buf)
{
	const __m128i m55 = _mm_set1_epi8(0x55), m0f = _mm_set1_epi8(0x0f), m03 = _mm_set1_epi8(3);
	unsigned int i;

	for (i = 0; i < MLKEM_N / 16; i++) {
		__m128i x = _mm_loadl_epi64((const __m128i *)(buf + 8 * i));
		__m128i d = _mm_add_epi8(_mm_and_si128(x, m55), _mm_and_si128(_mm_srli_epi16(x, 1), m55));
		__m128i lo = _mm_and_si128(d, m0f), hi = _mm_and_si128(_mm_srli_epi16(d, 4), m0f);

		lo = _mm_sub_epi8(_mm_and_si128(lo, m03), _mm_and_si128(_mm_srli_epi16(lo, 2), m03));
		hi = _mm_sub_epi8(_mm_and_si128(hi, m03), _mm_and_si128(_mm_srli_epi16(hi, 2), m03));
		_mm256_storeu_si256((__m256i *)&r->c[16 * i],
				    _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(lo, hi)));
	}
}

/*
 * SamplePolyCBD_3 of 192 bytes, thirty-two coefficients per 24 bytes:
 * each 3-byte word in a 32-bit lane, the sums of its bit triples at once,
 * then per 6-bit field (low triple) - (high triple) as in the generic
 * code; the four coefficients of a word are paired into 16-bit halves and
 * interleaved into order.  Reads 8 bytes past the 192.
 */
static AVX2 void cbd3(struct mlkem_poly *r, const u8 *buf)
{
	const __m256i idx = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
					     4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1);
	const __m256i m249 = _mm256_set1_epi32(0x249249), m7 = _mm256_set1_epi32(7);
	const __m256i m16 = _mm256_set1_epi32(0xffff);
	unsigned int i;

	for (i = 0; i < MLKEM_N / 32; i++) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(buf + 24 * i));
		__m256i d, c0, c1, c2, c3, u, v, r0, r1;

		/* words 0-3 from bytes 0-11 (low half), words 4-7 from bytes 12-23 */
		x = _mm256_shuffle_epi8(_mm256_permute4x64_epi64(x, 0x94), idx);
		d = _mm256_add_epi32(_mm256_and_si256(x, m249),
				     _mm256_and_si256(_mm256_srli_epi32(x, 1), m249));
		d = _mm256_add_epi32(d, _mm256_and_si256(_mm256_srli_epi32(x, 2), m249));
		c0 = _mm256_sub_epi32(_mm256_and_si256(d, m7),
				      _mm256_and_si256(_mm256_srli_epi32(d, 3), m7));
		c1 = _mm256_sub_epi32(_mm256_and_si256(_mm256_srli_epi32(d, 6), m7),
				      _mm256_and_si256(_mm256_srli_epi32(d, 9), m7));
		c2 = _mm256_sub_epi32(_mm256_and_si256(_mm256_srli_epi32(d, 12), m7),
				      _mm256_and_si256(_mm256_srli_epi32(d, 15), m7));
		c3 = _mm256_sub_epi32(_mm256_and_si256(_mm256_srli_epi32(d, 18), m7),
				      _mm256_and_si256(_mm256_srli_epi32(d, 21), m7));
		u = _mm256_or_si256(_mm256_and_si256(c0, m16), _mm256_slli_epi32(c1, 16));
		v = _mm256_or_si256(_mm256_and_si256(c2, m16), _mm256_slli_epi32(c3, 16));
		r0 = _mm256_unpacklo_epi32(u, v);	/* words 0, 1 | 4, 5 */
		r1 = _mm256_unpackhi_epi32(u, v);	/* words 2, 3 | 6, 7 */
		_mm256_storeu_si256((__m256i *)&r->c[32 * i], _mm256_permute2x128_si256(r0, r1, 0x20));
		_mm256_storeu_si256((__m256i *)&r->c[32 * i + 16],
				    _mm256_permute2x128_si256(r0, r1, 0x31));
	}
}

/*
 * Noise four polynomials per pass: PRF_eta(sigma, n) is SHAKE256 of 33
 * bytes, 64 eta <= 192 bytes out (two blocks for eta = 3).  Lanes past
 * @count recompute the last one and are dropped.
 */
AVX2 void rind_mlkem_avx2_noise(struct mlkem_poly *const r[], unsigned int count,
			       const u8 sigma[32], u8 n0, unsigned int eta)
{
	u8 in[4][33], buf[4][2 * SHAKE256_RATE];
	const u8 *const inp[4] = { in[0], in[1], in[2], in[3] };
	u8 *const outp[4] = { buf[0], buf[1], buf[2], buf[3] };
	unsigned int i, l, nb = 64 * eta > SHAKE256_RATE ? 2 : 1;
	struct keccakx4_state st;

	for (i = 0; i < count; i += 4) {
		for (l = 0; l < 4; l++) {
			memcpy(in[l], sigma, 32);
			in[l][32] = (u8)(n0 + (i + l < count ? i + l : i));
		}
		keccakx4_absorb_once(&st, SHAKE256_RATE, KECCAK_DS_SHAKE, inp, 33);
		keccakx4_squeeze_blocks(&st, SHAKE256_RATE, outp, nb);
		for (l = 0; l < 4 && i + l < count; l++) {
			if (eta == 2)
				cbd2(r[i + l], buf[l]);
			else
				cbd3(r[i + l], buf[l]);	/* buf: 272 bytes, 80 past the 192 */
		}
	}
	memzero_explicit(&st, sizeof(st));
	memzero_explicit(in, sizeof(in));
	memzero_explicit(buf, sizeof(buf));
}

/* From any representative to [0, q): Barrett, then add q if negative. */
AVX2_INLINE __m256i canonical(__m256i a)
{
	a = barrett(a);
	return _mm256_add_epi16(a, _mm256_and_si256(_mm256_srai_epi16(a, 15), _mm256_set1_epi16(Q)));
}

/*
 * Compress_d(x) = floor((2^d x + (q-1)/2) / q) mod 2^d for x in [0, q):
 * the estimate floor(x M / 2^16), M = round(2^(16+d) / q), is off by at
 * most one; the remainder 2^d x + (q-1)/2 - t q, exact in 16 bits since
 * it lies in [-q, 2q), says which way.  (Checked for every x and d.)
 */
AVX2_INLINE __m256i compress16(__m256i x, unsigned int d, __m256i m)
{
	__m256i t = _mm256_mulhi_epu16(x, m);
	__m256i y = _mm256_add_epi16(_mm256_sll_epi16(x, _mm_cvtsi32_si128((int)d)),
				     _mm256_set1_epi16((Q - 1) / 2));
	__m256i r = _mm256_sub_epi16(y, _mm256_mullo_epi16(t, _mm256_set1_epi16(Q)));

	t = _mm256_sub_epi16(t, _mm256_cmpgt_epi16(r, _mm256_set1_epi16(Q - 1)));
	t = _mm256_add_epi16(t, _mm256_cmpgt_epi16(_mm256_setzero_si256(), r));
	return _mm256_and_si256(t, _mm256_set1_epi16((short)((1u << d) - 1)));
}

static AVX2 void avx2_compress(u8 *r, const struct mlkem_poly *a, unsigned int d)
{
	const __m256i m = _mm256_set1_epi16((short)((((u32)1 << (16 + d)) + Q / 2) / Q));
	u16 c[MLKEM_N];
	unsigned int i, bits = 0;
	u64 acc = 0;

	for (i = 0; i < MLKEM_N; i += 16) {
		__m256i x = canonical(_mm256_loadu_si256((const __m256i *)&a->c[i]));

		_mm256_storeu_si256((__m256i *)&c[i], compress16(x, d, m));
	}
	switch (d) {
	case 1:
		for (i = 0; i < MLKEM_N; i += 32) {
			__m256i lo = _mm256_loadu_si256((const __m256i *)&c[i]);
			__m256i hi = _mm256_loadu_si256((const __m256i *)&c[i + 16]);
			__m256i b = _mm256_packs_epi16(_mm256_slli_epi16(lo, 15),
						       _mm256_slli_epi16(hi, 15));

			b = _mm256_permute4x64_epi64(b, 0xd8);
			put_unaligned_le32((u32)_mm256_movemask_epi8(b), r + i / 8);
		}
		break;
	case 4:
		for (i = 0; i < MLKEM_N; i += 2)
			r[i / 2] = (u8)(c[i] | (c[i + 1] << 4));
		break;
	case 10:
		for (i = 0; i < MLKEM_N; i += 4) {
			u64 w = c[i] | ((u64)c[i + 1] << 10) | ((u64)c[i + 2] << 20) |
				((u64)c[i + 3] << 30);

			memcpy(r + 5 * (i / 4), &w, 5);
		}
		break;
	default:
		for (i = 0; i < MLKEM_N; i++) {
			acc |= (u64)c[i] << bits;
			bits += d;
			while (bits >= 8) {
				*r++ = (u8)acc;
				acc >>= 8;
				bits -= 8;
			}
		}
	}
	memzero_explicit(c, sizeof(c));
}

/*
 * Sixteen 10-bit fields from 20 bytes: each 128-bit half takes 10 bytes,
 * every field gets its two bytes by a shuffle, and a multiply by
 * 2^(6 - shift) with a right shift by 6 replaces the per-lane shift AVX2
 * lacks.  Reads 16 bytes from @a + 10 (6 past the 20).
 */
AVX2_INLINE __m256i unpack10(const u8 *a)
{
	const __m256i idx = _mm256_setr_epi8(0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9,
					     0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9);
	const __m256i mul = _mm256_setr_epi16(64, 16, 4, 1, 64, 16, 4, 1,
					      64, 16, 4, 1, 64, 16, 4, 1);
	__m256i x = _mm256_loadu2_m128i((const __m128i *)(a + 10), (const __m128i *)a);

	x = _mm256_shuffle_epi8(x, idx);
	return _mm256_srli_epi16(_mm256_mullo_epi16(x, mul), 6);
}

/*
 * Decompress_d(y) = floor((q y + 2^(d-1)) / 2^d): VPMULHRSW of y 2^(15-d)
 * by q.  The ciphertext is public; d = 10 reads up to 12 bytes past the
 * polynomial, which the ciphertext's last polynomial (d = 4 or 5) covers.
 */
static AVX2 void avx2_decompress(struct mlkem_poly *r, const u8 *a, unsigned int d)
{
	const __m128i sh = _mm_cvtsi32_si128((int)(15 - d));
	u16 y[MLKEM_N];
	unsigned int i, bits = 0;
	u64 acc = 0;

	if (d == 10) {
		for (i = 0; i < MLKEM_N; i += 16)
			_mm256_storeu_si256((__m256i *)&r->c[i],
					    _mm256_mulhrs_epi16(_mm256_sll_epi16(unpack10(a + 20 * (i / 16)), sh),
								_mm256_set1_epi16(Q)));
		return;
	}
	if (d == 4) {
		for (i = 0; i < MLKEM_N; i += 2) {
			y[i] = a[i / 2] & 0xf;
			y[i + 1] = a[i / 2] >> 4;
		}
	} else {
		for (i = 0; i < MLKEM_N; i++) {
			while (bits < d) {
				acc |= (u64)*a++ << bits;
				bits += 8;
			}
			y[i] = (u16)(acc & ((1u << d) - 1));
			acc >>= d;
			bits -= d;
		}
	}
	for (i = 0; i < MLKEM_N; i += 16) {
		__m256i v = _mm256_loadu_si256((const __m256i *)&y[i]);

		_mm256_storeu_si256((__m256i *)&r->c[i],
				    _mm256_mulhrs_epi16(_mm256_sll_epi16(v, sh), _mm256_set1_epi16(Q)));
	}
}

/*
 * Key generation's sponges in one schedule.  The k^2 SHAKE128 streams of
 * A-hat (three blocks each, rarely four) and the 2k SHAKE256 streams of s
 * and e (one block, two for eta = 3) are jobs handed to the four lanes of
 * the permutation as lanes free up, so no lane idles while a job waits:
 * ML-KEM-768's 9 + 6 streams take 9 four-way permutations instead of the
 * 11 of separate passes (three for A, the last with one lane in use, and
 * two for the noise).  The job order is fixed and a stream's length
 * depends only on rejections in A (public, from rho), so the schedule is
 * public too; the noise lanes are wiped with the state.
 */
/*
 * Word i of lane l at w[L i + l] for L = the hooks' lane count:
 * struct keccakx4_state's layout for four lanes, struct keccakx8_state's
 * for eight (mlkem-avx512.c's key-generation hooks).
 */
union kg_lanes {
	struct keccakx4_state st;
	u64 w[25 * MLKEM_X86_KG_LANES_MAX];
} __attribute__((aligned(64)));

/*
 * Start state @l on the one-block input @seed || @tail (@tlen = 1 or 2
 * bytes, little-endian in @tail), padded for SHAKE at @rate: written
 * straight into the lanes, so no copy of sigma is left to wipe.
 */
static void lane_start(union kg_lanes *s, unsigned int L, unsigned int l, const u8 seed[32],
		       u32 tail, unsigned int tlen, unsigned int rate)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		s->w[L * i + l] = get_unaligned_le64(seed + 8 * i);
	s->w[L * 4 + l] = tail | (u64)KECCAK_DS_SHAKE << (8 * tlen);
	for (i = 5; i < 25; i++)
		s->w[L * i + l] = 0;
	s->w[L * (rate / 8 - 1) + l] ^= 0x80ull << 56;
}

/*
 * Words 0..23 of the four states, state by state: out[l][m] holds words
 * 4m..4m+3 of state l (a 4x4 transposition of 64-bit units per m) -- the
 * SHAKE128 block of a state in six registers, without a store per word.
 */
AVX2_INLINE void lanes_transpose(__m256i out[4][6], const struct keccakx4_state *st)
{
	unsigned int m;

	for (m = 0; m < 6; m++) {
		__m256i t0 = _mm256_unpacklo_epi64(st->a[4 * m], st->a[4 * m + 1]);
		__m256i t1 = _mm256_unpackhi_epi64(st->a[4 * m], st->a[4 * m + 1]);
		__m256i t2 = _mm256_unpacklo_epi64(st->a[4 * m + 2], st->a[4 * m + 3]);
		__m256i t3 = _mm256_unpackhi_epi64(st->a[4 * m + 2], st->a[4 * m + 3]);

		out[0][m] = _mm256_permute2x128_si256(t0, t2, 0x20);
		out[1][m] = _mm256_permute2x128_si256(t1, t3, 0x20);
		out[2][m] = _mm256_permute2x128_si256(t0, t2, 0x31);
		out[3][m] = _mm256_permute2x128_si256(t1, t3, 0x31);
	}
}

/*
 * Job @job into lane @l: the 2k PRF streams first when @sigma is given
 * (counter = job), then the A-hat entries row by row (rho || j || i).
 */
static void kg_start(union kg_lanes *s, unsigned int L, unsigned int l, unsigned int job,
		     unsigned int k, unsigned int nz, const u8 rho[32], const u8 *sigma)
{
	if (job < nz)
		lane_start(s, L, l, sigma, job, 1, SHAKE256_RATE);
	else
		lane_start(s, L, l, rho, ((job - nz) % k) | ((job - nz) / k) << 8, 2, SHAKE128_RATE);
}

/*
 * ByteEncode_12 of sixteen coefficients in [0, q): pairs joined to 24-bit
 * values (c0 + 4096 c1, one VPMADDWD), whose three low bytes a shuffle
 * packs to the front of each 128-bit half: 12 + 12 bytes.  Writes 4
 * bytes past the 24 (the next group's, or the caller's slack).
 */
AVX2_INLINE void encode12_16(u8 *r, __m256i x)
{
	const __m256i pack = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14,
					      -1, -1, -1, -1,
					      0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14,
					      -1, -1, -1, -1);
	__m256i w = _mm256_madd_epi16(x, _mm256_set1_epi32(1 | (4096 << 16)));

	w = _mm256_shuffle_epi8(w, pack);
	_mm_storeu_si128((__m128i *)r, _mm256_castsi256_si128(w));
	_mm_storeu_si128((__m128i *)(r + 12), _mm256_extracti128_si256(w, 1));
}

/*
 * For the rows of t-hat: per polynomial b = NTT(s_m) two multiplier
 * vectors, b0[m] = (b_2i, b_2i+1 gamma_i) and b1[m] = (b_2i+1, b_2i) per
 * coefficient pair, so that one VPMADDWD of a pair (a_2i, a_2i+1) of
 * A-hat with each gives the two 32-bit sums of the base-case product,
 * a_2i b_2i + a_2i+1 b_2i+1 gamma_i and a_2i b_2i+1 + a_2i+1 b_2i, with
 * no reduction until the sum over the row.  (b_2i+1 gamma_i: the
 * Montgomery product with gamma_i R, so the exact value mod q.)
 */
static AVX2 void kg_mulcache(struct mlkem_poly b0[], struct mlkem_poly b1[],
			     const struct mlkem_poly s[], unsigned int k)
{
	const __m256i swap = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
					      2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
	unsigned int m, j;

	for (m = 0; m < k; m++) {
		for (j = 0; j < MLKEM_N; j += 16) {
			__m256i b = _mm256_loadu_si256((const __m256i *)&s[m].c[j]);
			__m256i g = _mm256_loadu_si256((const __m256i *)&gamma_odd[j]);

			_mm256_storeu_si256((__m256i *)&b0[m].c[j],
					    _mm256_blend_epi16(b, fqmul(b, g), 0xaa));
			_mm256_storeu_si256((__m256i *)&b1[m].c[j], _mm256_shuffle_epi8(b, swap));
		}
	}
}

/*
 * Coefficients j .. j+15 of the sum over m < k of a[m] * b[m] (b in the
 * kg_mulcache form b0, b1) times R^-1, in (-q, q): the 32-bit sums of
 * VPMADDWD (|sum| < 2 k q^2 < q 2^15) Montgomery-reduced once, the even
 * lanes' from c0, the odd lanes' from c1.
 */
AVX2_INLINE __m256i row_sum16(const struct mlkem_poly *const a[], const struct mlkem_poly b0[],
			      const struct mlkem_poly b1[], unsigned int k, unsigned int j)
{
	__m256i c0 = _mm256_setzero_si256(), c1 = _mm256_setzero_si256(), lo, hi;
	unsigned int m;

	for (m = 0; m < k; m++) {
		__m256i x = _mm256_loadu_si256((const __m256i *)&a[m]->c[j]);

		c0 = _mm256_add_epi32(c0, _mm256_madd_epi16(x, _mm256_loadu_si256((const __m256i *)&b0[m].c[j])));
		c1 = _mm256_add_epi32(c1, _mm256_madd_epi16(x, _mm256_loadu_si256((const __m256i *)&b1[m].c[j])));
	}
	lo = _mm256_blend_epi16(c0, _mm256_slli_epi32(c1, 16), 0xaa);
	hi = _mm256_blend_epi16(_mm256_srli_epi32(c0, 16), c1, 0xaa);
	lo = _mm256_mullo_epi16(lo, _mm256_set1_epi16(QINV));
	return _mm256_sub_epi16(hi, _mm256_mulhi_epi16(lo, _mm256_set1_epi16(Q)));
}

/*
 * struct mlkem_ops.matvec (encryption's A^T y and t^T y, decryption's
 * s^T u): b's multipliers once, then each row's sums reduced once and
 * Barrett-reduced -- the generic value, which is the centered
 * representative.
 */
static AVX2 void avx2_matvec(struct mlkem_poly *r, const struct mlkem_poly *const a[],
			     unsigned int rows, const struct mlkem_poly b[], unsigned int k)
{
	struct mlkem_poly b0[MLKEM_KMAX], b1[MLKEM_KMAX];
	unsigned int i, j;

	kg_mulcache(b0, b1, b, k);
	for (i = 0; i < rows; i++)
		for (j = 0; j < MLKEM_N; j += 16)
			_mm256_storeu_si256((__m256i *)&r[i].c[j], barrett(row_sum16(a + i * k, b0, b1, k, j)));
	memzero_explicit(b0, sizeof(b0));
	memzero_explicit(b1, sizeof(b1));
}

/*
 * Coefficients 16 g .. 16 g + 15 of row @i of t-hat for groups @from <= g
 * < @to, once those coefficients of A-hat's row i and NTT(s), NTT(e) are
 * there: t_i = R^2 (A s)_i R^-1 + e_i, reduced to [0, q) and encoded into
 * ek in the same pass.  (A s)_i is summed in 32 bits over the row (|sum|
 * < 2 k q^2 < q 2^15, the Montgomery bound) and reduced once: congruent
 * to the generic code's sum of reduced products, and the result is the
 * canonical representative either way, so the same t-hat and ek.  The
 * groups of a row are encoded in order (each writes 4 bytes into the next
 * one's place, except the last).
 */
static AVX2 void kg_row(struct mlkem_key *key, const struct mlkem_poly *e,
			const struct mlkem_poly b0[], const struct mlkem_poly b1[], unsigned int i,
			unsigned int from, unsigned int to)
{
	const unsigned int k = key->p->k;
	struct mlkem_poly *t = &key->t[i];
	u8 *out = key->ek + MLKEM_POLYBYTES * i, last[32];
	const struct mlkem_poly *a[MLKEM_KMAX];
	unsigned int j, m;

	for (m = 0; m < k; m++)
		a[m] = &key->a[i][m];
	for (j = 16 * from; j < 16 * to; j += 16) {
		__m256i x = fqmul(row_sum16(a, b0, b1, k, j), _mm256_set1_epi16(MONT_R2_MOD_Q));
		x = _mm256_add_epi16(x, _mm256_loadu_si256((const __m256i *)&e[i].c[j]));
		x = canonical(x);
		_mm256_storeu_si256((__m256i *)&t->c[j], x);
		if (j + 16 < MLKEM_N) {
			encode12_16(out + 24 * (j / 16), x);
		} else {
			/* the last group's 4 extra bytes would pass the polynomial */
			encode12_16(last, x);
			memcpy(out + 24 * (j / 16), last, 24);
		}
	}
	/* public: H(ek) absorbs it as soon as it is there */
	rind_declassify(out + 24 * from, 24 * (to - from));
}

#define KG_IDLE	0xffu		/* a lane without a job */
#define KG_HASH	0xfeu		/* a lane absorbing a block of H(ek) */

/*
 * The sponges of key generation in one lane schedule.  Without @sigma:
 * A-hat only (gen_matrix).  With it, K-PKE.KeyGen after G: the PRF
 * streams of s and e, then A-hat row by row; as soon as the noise is
 * complete and every entry of a row of A-hat has its next sixteen
 * coefficients, those of t-hat are computed and encoded into ek, and the
 * SHA3-256 sponge of H(ek) -- one sequential stream -- takes a lane for
 * each whole 136-byte block of ek that is ready (in order) while other
 * streams still run, its state parked in @h between blocks.  What
 * is left of H(ek) when the other streams are done (at least the blocks
 * over the last row and rho) is finished by the scalar permutation,
 * which alone is faster than one busy lane of four.  ML-KEM-768
 * (typical rejections): 15 streams and 7 of the 9 blocks of H(ek) in 11
 * four-way permutations and 2 scalar blocks after, instead of 9 four-way
 * and 9 scalar (whole rows only: 10 and 4).  On the eight lanes of
 * mlkem-avx512.c's hooks (hk->lanes, hk->permute): 6 eight-way
 * permutations, 3 blocks of H(ek) in them and 6 scalar after (the
 * shorter schedule leaves fewer lanes free while ek fills).  The schedule
 * depends only on the rejections in A-hat (public, from rho); the noise
 * lanes are wiped with the state.
 */
AVX2_INLINE void kg_run(struct mlkem_key *key, struct mlkem_poly *e, const u8 rho[32],
			const u8 *sigma, const struct mlkem_x86_kg_hooks *hk)
{
	const unsigned int k = key->p->k, nz = sigma ? 2 * k : 0, jobs = nz + k * k;
	const unsigned int eta = key->p->eta1, nb = 64 * eta > SHAKE256_RATE ? 2 : 1;
	const unsigned int hrate = SHA3_256_RATE, L = hk->lanes;
	union kg_lanes s;
	u8 nbuf[MLKEM_X86_KG_LANES_MAX][SHAKE256_RATE + 160];	/* 160: five registers per block */
	__m256i lw[MLKEM_X86_KG_LANES_MAX][6];
	struct mlkem_poly sb0[MLKEM_KMAX], sb1[MLKEM_KMAX];	/* kg_mulcache */
	struct keccak_state h;
	unsigned int job[MLKEM_X86_KG_LANES_MAX], ctr[MLKEM_X86_KG_LANES_MAX];
	unsigned int next = 0, busy = 0, l, i, m;
	unsigned int fill[MLKEM_KMAX][MLKEM_KMAX] = { { 0 } };	/* A-hat coefficients placed */
	unsigned int grp[MLKEM_KMAX] = { 0 };	/* groups of 16 of t-hat encoded, per row */
	unsigned int noise_left = nz, hblk = 0, ready = 0;
	bool hrun = false;

	if (sigma)
		rind_keccak_init(&h, hrate, KECCAK_DS_SHA3);
	/*
	 * jobs >= k^2 >= 4: every lane of four starts on one; of eight,
	 * all but those of ML-KEM-512's A-hat alone (no noise: 4 jobs)
	 */
	for (l = 0; l < L; l++) {
		ctr[l] = 0;
		job[l] = KG_IDLE;
		if (next < jobs) {
			job[l] = next++;
			kg_start(&s, L, l, job[l], k, nz, rho, sigma);
			busy++;
		} else {
			for (i = 0; i < 25; i++)	/* permuted all the same */
				s.w[L * i + l] = 0;
		}
	}
	while (busy) {
		unsigned int others;

		hk->permute(s.w, lw);
		for (l = 0; l < L; l++) {
			unsigned int j = job[l];

			if (j == KG_IDLE)
				continue;
			if (j == KG_HASH) {
				for (i = 0; i < 25; i++)
					h.a[i] = s.w[L * i + l];
				hblk++;
				hrun = false;
			} else if (j >= nz) {
				j -= nz;
				ctr[l] = hk->rej_block(key->a[j / k][j % k].c, ctr[l], lw[l]);
				fill[j / k][j % k] = ctr[l];
				if (ctr[l] < MLKEM_N)
					continue;
			} else {
				struct mlkem_poly *r = j < k ? &key->s[j] : &e[j - k];

				for (m = 0; m < 5; m++)	/* words 0..19: the 17 of a block */
					_mm256_storeu_si256((__m256i *)(nbuf[l] + SHAKE256_RATE * ctr[l] + 32 * m),
							    lw[l][m]);
				if (++ctr[l] < nb)
					continue;
				if (eta == 2)
					cbd2(r, nbuf[l]);
				else
					cbd3(r, nbuf[l]);
				if (!--noise_left) {
					for (i = 0; i < k; i++) {
						hk->ntt(&key->s[i]);
						hk->ntt(&e[i]);
					}
					kg_mulcache(sb0, sb1, key->s, k);
				}
			}
			ctr[l] = 0;
			job[l] = KG_IDLE;
			busy--;
		}
		if (sigma && !noise_left) {
			/* t-hat as far as A-hat goes; ek's bytes ready in order */
			for (i = 0, ready = 0; i < k; i++) {
				unsigned int avail = MLKEM_N;

				for (m = 0; m < k; m++)
					avail = fill[i][m] < avail ? fill[i][m] : avail;
				avail /= 16;
				if (avail > grp[i]) {
					kg_row(key, e, sb0, sb1, i, grp[i], avail);
					grp[i] = avail;
				}
			}
			for (i = 0; i < k; i++) {
				ready += 24 * grp[i];
				if (grp[i] < MLKEM_N / 16)
					break;
			}
		}
		/*
		 * Free lanes: H(ek)'s next block first (it is the one sequential
		 * stream) while anything else is left to run beside it, then the
		 * next jobs.
		 */
		others = busy + (jobs - next);
		for (l = 0; l < L; l++) {
			if (job[l] != KG_IDLE)
				continue;
			if (sigma && !hrun && others && hrate * (hblk + 1) <= ready) {
				const u8 *blk = key->ek + hrate * hblk;

				for (i = 0; i < 25; i++)
					s.w[L * i + l] = h.a[i] ^
							 (i < hrate / 8 ? get_unaligned_le64(blk + 8 * i) : 0);
				job[l] = KG_HASH;
				hrun = true;
				busy++;
			} else if (next < jobs) {
				job[l] = next++;
				kg_start(&s, L, l, job[l], k, nz, rho, sigma);
				busy++;
			}
		}
	}
	if (sigma) {
		/* the rest of ek (it holds rho already), then the digest */
		rind_keccak_absorb(&h, key->ek + hrate * hblk, key->p->ek_size - hrate * hblk);
		rind_keccak_squeeze(&h, key->h, 32);
		memzero_explicit(&h, sizeof(h));
	}
	memzero_explicit(&s, sizeof(s));
	memzero_explicit(nbuf, sizeof(nbuf));
	memzero_explicit(lw, sizeof(lw));
	if (sigma) {
		memzero_explicit(sb0, sizeof(sb0));
		memzero_explicit(sb1, sizeof(sb1));
	}
}

/*
 * A-hat[i][j] = SampleNTT(rho || j || i) (struct mlkem_ops.gen_matrix, for
 * a key set from its encoding): the same lane schedule, A-hat's streams
 * only -- ML-KEM-768's nine take 7 permutations, not 3 passes of 3.
 */
/*
 * kg_run is inlined with this driver's own steps (constant hooks: direct
 * calls) and, once more, with a caller's (mlkem-avx512.c's, through
 * mlkem-x86.h).
 */
AVX2 void rind_mlkem_avx2_kg_permute4(u64 *w, __m256i lw[][6])
{
	struct keccakx4_state *st = (struct keccakx4_state *)(void *)w;

	keccakx4_f1600(st);
	lanes_transpose(lw, st);
}

const struct mlkem_x86_kg_hooks rind_mlkem_avx2_kg_hooks = {
	.ntt		= avx2_ntt,
	.rej_block	= rej_block,
	.lanes		= 4,
	.permute	= rind_mlkem_avx2_kg_permute4,
};

static AVX2 __attribute__((noinline)) void kg_run_hk(struct mlkem_key *key, struct mlkem_poly *e,
						    const u8 rho[32], const u8 *sigma,
						    const struct mlkem_x86_kg_hooks *hk)
{
	kg_run(key, e, rho, sigma, hk);
}

static AVX2 void avx2_gen_matrix(struct mlkem_key *key, const u8 rho[32])
{
	kg_run(key, NULL, rho, NULL, &rind_mlkem_avx2_kg_hooks);
}

AVX2 void rind_mlkem_avx2_gen_matrix_hk(struct mlkem_key *key, const u8 rho[32],
					const struct mlkem_x86_kg_hooks *hk)
{
	kg_run_hk(key, NULL, rho, NULL, hk);
}

/*
 * K-PKE.KeyGen after G (struct mlkem_ops.pke_keygen, with pke_keygen_h):
 * the shared schedule above, which also leaves ek complete (rho
 * included) and H(ek) in key->h.
 */
static AVX2 void avx2_pke_keygen(struct mlkem_key *key, const u8 rho[32], const u8 sigma[32])
{
	struct mlkem_poly e[MLKEM_KMAX];

	memcpy(key->ek + MLKEM_POLYBYTES * key->p->k, rho, 32);
	kg_run(key, e, rho, sigma, &rind_mlkem_avx2_kg_hooks);
	memzero_explicit(e, sizeof(e));
}

AVX2 void rind_mlkem_avx2_pke_keygen_hk(struct mlkem_key *key, const u8 rho[32], const u8 sigma[32],
					const struct mlkem_x86_kg_hooks *hk)
{
	struct mlkem_poly e[MLKEM_KMAX];

	memcpy(key->ek + MLKEM_POLYBYTES * key->p->k, rho, 32);
	kg_run_hk(key, e, rho, sigma, hk);
	memzero_explicit(e, sizeof(e));
}

static const struct mlkem_ops mlkem_avx2_ops = {
	.ntt		= avx2_ntt,
	.invntt		= avx2_invntt,
	.basemul_acc	= avx2_basemul_acc,
	.gen_matrix	= avx2_gen_matrix,
	.noise		= rind_mlkem_avx2_noise,
	.compress	= avx2_compress,
	.decompress	= avx2_decompress,
	.pke_keygen	= avx2_pke_keygen,
	.pke_keygen_h	= true,
	.matvec		= avx2_matvec,
};

static struct mlkem_alg mlkem_avx2_algs[3];
static struct mlkem_alg xmlkem_avx2_alg;
static const char *const mlkem_avx2_names[3] = {
	"mlkem512-avx2", "mlkem768-avx2", "mlkem1024-avx2",
};

static int mlkem_avx2_mod_init(void)
{
	int err;

	if (!rind_cpu_has(RIND_X86_AVX2))
		return 0;
	rind_mlkem_init_tables();
	mlkem_avx2_tables();
	rej_tables();
	err = rind_mlkem_register_drivers(mlkem_avx2_algs, &mlkem_avx2_ops,
					  mlkem_avx2_names, 300, "x86");
	if (err)
		return err;
	return rind_xmlkem_register_driver(&xmlkem_avx2_alg, &mlkem_avx2_ops,
					   "x25519mlkem768-avx2", 300, "x86");
}
module_init(mlkem_avx2_mod_init);
