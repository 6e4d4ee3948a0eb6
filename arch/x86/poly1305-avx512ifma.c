// SPDX-License-Identifier: MIT
/*
 * Poly1305 for x86-64 with AVX-512 IFMA: the "poly1305-avx512ifma" shash,
 * priority 500.
 * Requires: AVX512F, AVX512VL, AVX512IFMA, BMI2, ADX.
 *
 * Eight lanes of 44-bit limbs multiplied with VPMADD52LUQ/HUQ (the lane
 * scheme of poly1305-x86.h, L = 8); inputs shorter than IFMA_MIN_BLOCKS
 * and the tail go to the MULX scalar code.
 */
#include <immintrin.h>
#include <rind/internal/hash.h>
#include <rind/internal/util.h>
#include <crypto/poly1305.h>
#include "poly1305-x86.h"
#include "x86-target.h"

/* Radix 2^44 (limbs below 2^63) back to the radix-2^64 accumulator. */
static void from44(struct poly1305_state *st, u64 l0, u64 l1, u64 l2)
{
	u128 t = (u128)l0 + ((u128)l1 << 44);

	st->h[0] = (u64)t;
	t >>= 64;
	t += (u128)l2 << 24;
	st->h[1] = (u64)t;
	st->h[2] = (u64)(t >> 64);
}

static void ifma_precompute(struct poly1305_state *st)
{
	/* lane order of the loaded blocks: 0, 4, 1, 5, 2, 6, 3, 7 */
	static const int pow_of_lane[8] = { 8, 4, 7, 3, 6, 2, 5, 1 };
	u64 pw[8][3], r16[3];
	int lane, k;

	powers44(st, pw, 8);
	for (lane = 0; lane < 8; lane++)
		for (k = 0; k < 3; k++)
			st->arch[k * 8 + lane] = pw[pow_of_lane[lane] - 1][k];
	mul44(r16, pw[7], pw[7]);
	for (k = 0; k < 3; k++)
		st->arch[24 + k] = r16[k];
	st->arch_ready = ARCH_IFMA;
	memzero_explicit(pw, sizeof(pw));
	memzero_explicit(r16, sizeof(r16));
}

#define IFMA RIND_AVX512_TARGET("avx512f,avx512vl,avx512ifma,bmi2,adx", "avx2,bmi2,adx")
#define IFMA_INLINE static inline __attribute__((always_inline)) IFMA

/* Three 44-bit limbs of eight blocks (128 bytes), lanes holding 0, 4, 1, 5, 2, 6, 3, 7. */
IFMA_INLINE void ifma_load(const u8 *src, __m512i hibit, __m512i m[3])
{
	const __m512i mask = _mm512_set1_epi64(M44);
	__m512i a = _mm512_loadu_si512((const void *)src);
	__m512i b = _mm512_loadu_si512((const void *)(src + 64));
	__m512i lo = _mm512_unpacklo_epi64(a, b);
	__m512i hi = _mm512_unpackhi_epi64(a, b);

	m[0] = _mm512_and_si512(lo, mask);
	m[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lo, 44),
						_mm512_slli_epi64(hi, 20)), mask);
	m[2] = _mm512_or_si512(_mm512_srli_epi64(hi, 24), hibit);
}

/*
 * h = h * r lane-wise; s = 20 r (2^132 = 20 mod p).  Low and high halves
 * of each 104-bit product are summed apart: a high half weighs 2^52, that
 * is 2^8 above the next limb.
 */
IFMA_INLINE void ifma_mul(__m512i h[3], const __m512i r[3], const __m512i s[3])
{
	const __m512i m44 = _mm512_set1_epi64(M44), m42 = _mm512_set1_epi64(M42);
	const __m512i z = _mm512_setzero_si512();
	__m512i d0l, d0h, d1l, d1h, d2l, d2h, e0, e1, c;

	d0l = _mm512_madd52lo_epu64(z, h[0], r[0]);
	d0h = _mm512_madd52hi_epu64(z, h[0], r[0]);
	d1l = _mm512_madd52lo_epu64(z, h[0], r[1]);
	d1h = _mm512_madd52hi_epu64(z, h[0], r[1]);
	d2l = _mm512_madd52lo_epu64(z, h[0], r[2]);
	d2h = _mm512_madd52hi_epu64(z, h[0], r[2]);
	e0 = _mm512_madd52lo_epu64(z, h[1], s[2]);
	d0h = _mm512_madd52hi_epu64(d0h, h[1], s[2]);
	e1 = _mm512_madd52lo_epu64(z, h[1], r[0]);
	d1h = _mm512_madd52hi_epu64(d1h, h[1], r[0]);
	d2l = _mm512_madd52lo_epu64(d2l, h[1], r[1]);
	d2h = _mm512_madd52hi_epu64(d2h, h[1], r[1]);
	d0l = _mm512_madd52lo_epu64(d0l, h[2], s[1]);
	d0h = _mm512_madd52hi_epu64(d0h, h[2], s[1]);
	d1l = _mm512_madd52lo_epu64(d1l, h[2], s[2]);
	d1h = _mm512_madd52hi_epu64(d1h, h[2], s[2]);
	d2l = _mm512_madd52lo_epu64(d2l, h[2], r[0]);
	d2h = _mm512_madd52hi_epu64(d2h, h[2], r[0]);
	d0l = _mm512_add_epi64(d0l, e0);
	d1l = _mm512_add_epi64(d1l, e1);

	/* value = d0l + 2^44 (d1l + 2^8 d0h) + 2^88 (d2l + 2^8 d1h) + 2^140 d2h */
	d1l = _mm512_add_epi64(d1l, _mm512_slli_epi64(d0h, 8));
	d2l = _mm512_add_epi64(d2l, _mm512_slli_epi64(d1h, 8));
	c = _mm512_srli_epi64(d0l, 44);
	d0l = _mm512_and_si512(d0l, m44);
	d1l = _mm512_add_epi64(d1l, c);
	c = _mm512_srli_epi64(d1l, 44);
	d1l = _mm512_and_si512(d1l, m44);
	d2l = _mm512_add_epi64(d2l, c);
	c = _mm512_add_epi64(_mm512_srli_epi64(d2l, 42), _mm512_slli_epi64(d2h, 10));
	d2l = _mm512_and_si512(d2l, m42);
	d0l = _mm512_add_epi64(d0l, _mm512_add_epi64(c, _mm512_slli_epi64(c, 2)));
	c = _mm512_srli_epi64(d0l, 44);
	d0l = _mm512_and_si512(d0l, m44);
	d1l = _mm512_add_epi64(d1l, c);
	h[0] = d0l;
	h[1] = d1l;
	h[2] = d2l;
}

IFMA_INLINE __m512i times20(__m512i r)
{
	return _mm512_add_epi64(_mm512_slli_epi64(r, 4), _mm512_slli_epi64(r, 2));
}

/* nblocks: a positive multiple of 8. */
static IFMA void ifma_blocks8(struct poly1305_state *st, const u8 *src, size_t nblocks,
			      u32 padbit)
{
	const __m512i hibit = _mm512_set1_epi64((long long)padbit << 40);
	__m512i h[3], m[3], r[3], s[3], f[3], fs[3];
	u64 a[3], c;
	int k;

	to44(a, st->h[0], st->h[1], st->h[2]);
	for (k = 0; k < 3; k++) {
		h[k] = _mm512_maskz_set1_epi64(1, (long long)a[k]);
		r[k] = _mm512_set1_epi64((long long)st->arch[k * 8]);		/* r^8 */
		s[k] = times20(r[k]);
		f[k] = _mm512_loadu_si512((const void *)&st->arch[k * 8]);
		fs[k] = times20(f[k]);
	}

	for (; nblocks > 8; nblocks -= 8, src += 128) {
		ifma_load(src, hibit, m);
		for (k = 0; k < 3; k++)
			h[k] = _mm512_add_epi64(h[k], m[k]);
		ifma_mul(h, r, s);
	}
	ifma_load(src, hibit, m);
	for (k = 0; k < 3; k++)
		h[k] = _mm512_add_epi64(h[k], m[k]);
	ifma_mul(h, f, fs);

	/* sum the lanes (limbs below 2^45 each) and carry */
	for (k = 0; k < 3; k++)
		a[k] = (u64)_mm512_reduce_add_epi64(h[k]);
	c = a[0] >> 44; a[0] &= M44; a[1] += c;
	c = a[1] >> 44; a[1] &= M44; a[2] += c;
	c = a[2] >> 42; a[2] &= M42; a[0] += c * 5;
	c = a[0] >> 44; a[0] &= M44; a[1] += c;
	from44(st, a[0], a[1], a[2]);
	_mm256_zeroupper();
}

/*
 * nblocks: a multiple of 16, at least 32.  Two independent accumulators of
 * eight lanes each (blocks 16k + 0..7 and 16k + 8..15) step by r^16, so
 * two multiplication chains overlap; the last step multiplies the first
 * by r^8 times the per-lane powers, the second by the powers alone.
 */
static IFMA void ifma_blocks16(struct poly1305_state *st, const u8 *src, size_t nblocks,
			       u32 padbit)
{
	const __m512i hibit = _mm512_set1_epi64((long long)padbit << 40);
	__m512i ha[3], hb[3], ma[3], mb[3], r[3], s[3], f[3], fs[3], fa[3], fsa[3], r8[3], s8[3];
	u64 a[3], c;
	int k;

	to44(a, st->h[0], st->h[1], st->h[2]);
	for (k = 0; k < 3; k++) {
		ha[k] = _mm512_maskz_set1_epi64(1, (long long)a[k]);
		hb[k] = _mm512_setzero_si512();
		r[k] = _mm512_set1_epi64((long long)st->arch[24 + k]);	/* r^16 */
		s[k] = times20(r[k]);
		f[k] = _mm512_loadu_si512((const void *)&st->arch[k * 8]);
		fs[k] = times20(f[k]);
		r8[k] = _mm512_set1_epi64((long long)st->arch[k * 8]);	/* r^8 */
		s8[k] = times20(r8[k]);
		fa[k] = f[k];
	}
	ifma_mul(fa, r8, s8);
	for (k = 0; k < 3; k++)
		fsa[k] = times20(fa[k]);

	for (; nblocks > 16; nblocks -= 16, src += 256) {
		ifma_load(src, hibit, ma);
		ifma_load(src + 128, hibit, mb);
		for (k = 0; k < 3; k++) {
			ha[k] = _mm512_add_epi64(ha[k], ma[k]);
			hb[k] = _mm512_add_epi64(hb[k], mb[k]);
		}
		ifma_mul(ha, r, s);
		ifma_mul(hb, r, s);
	}
	ifma_load(src, hibit, ma);
	ifma_load(src + 128, hibit, mb);
	for (k = 0; k < 3; k++) {
		ha[k] = _mm512_add_epi64(ha[k], ma[k]);
		hb[k] = _mm512_add_epi64(hb[k], mb[k]);
	}
	ifma_mul(ha, fa, fsa);
	ifma_mul(hb, f, fs);

	/* sum both accumulators' lanes (limbs below 2^45 each) and carry */
	for (k = 0; k < 3; k++)
		a[k] = (u64)_mm512_reduce_add_epi64(_mm512_add_epi64(ha[k], hb[k]));
	c = a[0] >> 44; a[0] &= M44; a[1] += c;
	c = a[1] >> 44; a[1] &= M44; a[2] += c;
	c = a[2] >> 42; a[2] &= M42; a[0] += c * 5;
	c = a[0] >> 44; a[0] &= M44; a[1] += c;
	from44(st, a[0], a[1], a[2]);
	_mm256_zeroupper();
}

/*
 * nblocks: a multiple of 32, at least 128.  Four accumulators of eight
 * lanes (blocks 32k + 8j + 0..7) step by r^32: four overlapping chains
 * keep the multipliers busy.  Their last step multiplies accumulator j by
 * r^(8 (3 - j)) times the per-lane powers.
 */
static IFMA void ifma_blocks32(struct poly1305_state *st, const u8 *src, size_t nblocks,
			       u32 padbit)
{
	const __m512i hibit = _mm512_set1_epi64((long long)padbit << 40);
	__m512i h[4][3], m[3], r[3], s[3], f[4][3], fs[4][3], r8[3], s8[3];
	u64 a[3], r16[3], r32[3], c;
	int j, k;

	to44(a, st->h[0], st->h[1], st->h[2]);
	for (k = 0; k < 3; k++)
		r16[k] = st->arch[24 + k];
	mul44(r32, r16, r16);
	for (k = 0; k < 3; k++) {
		for (j = 0; j < 4; j++)
			h[j][k] = _mm512_setzero_si512();
		h[0][k] = _mm512_maskz_set1_epi64(1, (long long)a[k]);
		r[k] = _mm512_set1_epi64((long long)r32[k]);
		s[k] = times20(r[k]);
		r8[k] = _mm512_set1_epi64((long long)st->arch[k * 8]);	/* r^8 */
		s8[k] = times20(r8[k]);
		f[3][k] = _mm512_loadu_si512((const void *)&st->arch[k * 8]);
	}
	for (j = 2; j >= 0; j--) {
		for (k = 0; k < 3; k++)
			f[j][k] = f[j + 1][k];
		ifma_mul(f[j], r8, s8);
	}
	for (j = 0; j < 4; j++)
		for (k = 0; k < 3; k++)
			fs[j][k] = times20(f[j][k]);

	for (; nblocks > 32; nblocks -= 32, src += 512) {
		for (j = 0; j < 4; j++) {
			ifma_load(src + 128 * j, hibit, m);
			for (k = 0; k < 3; k++)
				h[j][k] = _mm512_add_epi64(h[j][k], m[k]);
		}
		for (j = 0; j < 4; j++)
			ifma_mul(h[j], r, s);
	}
	for (j = 0; j < 4; j++) {
		ifma_load(src + 128 * j, hibit, m);
		for (k = 0; k < 3; k++)
			h[j][k] = _mm512_add_epi64(h[j][k], m[k]);
		ifma_mul(h[j], f[j], fs[j]);
	}

	/* sum the four accumulators' lanes (limbs below 2^45 each) and carry */
	for (k = 0; k < 3; k++)
		a[k] = (u64)_mm512_reduce_add_epi64(
			_mm512_add_epi64(_mm512_add_epi64(h[0][k], h[1][k]),
					 _mm512_add_epi64(h[2][k], h[3][k])));
	c = a[0] >> 44; a[0] &= M44; a[1] += c;
	c = a[1] >> 44; a[1] &= M44; a[2] += c;
	c = a[2] >> 42; a[2] &= M42; a[0] += c * 5;
	c = a[0] >> 44; a[0] &= M44; a[1] += c;
	from44(st, a[0], a[1], a[2]);
	memzero_explicit(r32, sizeof(r32));
	_mm256_zeroupper();
}

IFMA void rind_poly1305_blocks_ifma(struct poly1305_state *st, const u8 *src, size_t nblocks,
				    u32 padbit)
{
	size_t n;

	if (nblocks >= IFMA_MIN_BLOCKS) {
		if (st->arch_ready != ARCH_IFMA)
			ifma_precompute(st);
		if (nblocks >= 128) {
			n = nblocks & ~(size_t)31;
			ifma_blocks32(st, src, n, padbit);
			src += n * POLY1305_BLOCK_SIZE;
			nblocks -= n;
		}
		if (nblocks >= 32) {
			n = nblocks & ~(size_t)15;
			ifma_blocks16(st, src, n, padbit);
			src += n * POLY1305_BLOCK_SIZE;
			nblocks -= n;
		}
		if (nblocks >= 8) {
			n = nblocks & ~(size_t)7;
			ifma_blocks8(st, src, n, padbit);
			src += n * POLY1305_BLOCK_SIZE;
			nblocks -= n;
		}
	}
	poly1305_blocks_core(st, src, nblocks, padbit);
}

static struct poly1305_alg poly1305_ifma_alg =
	RIND_POLY1305_ALG("poly1305-avx512ifma", 500, "x86", rind_poly1305_blocks_ifma);

static int poly1305_ifma_mod_init(void)
{
	/* The known-answer tests of "poly1305" are algs/poly1305.c's. */
	if (!rind_cpu_has(RIND_X86_AVX512F) || !rind_cpu_has(RIND_X86_AVX512VL) ||
	    !rind_cpu_has(RIND_X86_AVX512IFMA) || !rind_cpu_has(RIND_X86_BMI2) ||
	    !rind_cpu_has(RIND_X86_ADX))
		return 0;
	return crypto_register_shash(&poly1305_ifma_alg.alg);
}

module_init(poly1305_ifma_mod_init);
