// SPDX-License-Identifier: MIT
/*
 * Poly1305 for x86-64.  Requires, per driver:
 *   poly1305-x86_64      BMI2, ADX       (priority 300)
 *   poly1305-avx2        AVX2, BMI2, ADX (priority 400)
 *   poly1305-avx512ifma  AVX512F, AVX512VL, AVX512IFMA, BMI2, ADX (priority 500)
 *
 * poly1305-x86_64 is the radix-2^64 code of api/include/crypto/poly1305.h compiled for
 * MULX.  The vector drivers use it for short inputs and run long ones
 * across lanes: lane j accumulates blocks j, j + L, j + 2L, ... by Horner's
 * rule with r^L (L = 4 lanes of 26-bit limbs with VPMULUDQ for AVX2, L = 8
 * lanes of 44-bit limbs with VPMADD52LUQ/HUQ for IFMA); the last group
 * multiplies lane j by r^(L - j) instead, and the lanes are summed.  Long
 * inputs run two such accumulators side by side, stepping by r^2L, so two
 * independent multiplication chains overlap.  The
 * accumulator enters and leaves in radix 2^64, so every driver shares the
 * state layout of api/include/crypto/poly1305.h; the powers of r are computed once per
 * key and kept in the state.  Constant time: no branch or index depends on
 * the key, the accumulator or the message (only on lengths).
 */
#include <immintrin.h>
#include <rind/internal/hash.h>
#include <rind/internal/util.h>
#include <crypto/poly1305.h>

typedef poly1305_u128 u128;

#define M26 0x3ffffffull
#define M44 0xfffffffffffull
#define M42 0x3ffffffffffull

#define ARCH_AVX2	1	/* arch[]: r^4, r^2, r^3, r^1 as [limb 0..4][lane 0..3],
				   then r^8 at [20..24] */
#define ARCH_IFMA	2	/* arch[]: r^8, r^4, r^7, r^3, r^6, r^2, r^5, r^1 as [limb 0..2][lane 0..7],
				   then r^16 at [24..26] */

#define AVX2_MIN_BLOCKS	40
#define IFMA_MIN_BLOCKS	20

/* ---- scalar ---- */

__attribute__((target("bmi2,adx")))
static void poly1305_blocks_x86_64(struct poly1305_state *st, const u8 *src, size_t nblocks,
				   u32 padbit)
{
	poly1305_blocks_core(st, src, nblocks, padbit);
}

/* ---- powers of r: radix 2^44, three limbs (44, 44, 42 bits) ---- */

static void to44(u64 out[3], u64 h0, u64 h1, u64 h2)
{
	out[0] = h0 & M44;
	out[1] = ((h0 >> 44) | (h1 << 20)) & M44;
	out[2] = (h1 >> 24) | (h2 << 40);
}

/* a * b mod 2^130 - 5, limbs carried (< 2^44, < 2^44, < 2^42), value < 2^130 + 2^20. */
static void mul44(u64 out[3], const u64 a[3], const u64 b[3])
{
	u64 s1 = b[1] * 20, s2 = b[2] * 20, c;
	u128 d0, d1, d2;

	d0 = (u128)a[0] * b[0] + (u128)a[1] * s2 + (u128)a[2] * s1;
	d1 = (u128)a[0] * b[1] + (u128)a[1] * b[0] + (u128)a[2] * s2;
	d2 = (u128)a[0] * b[2] + (u128)a[1] * b[1] + (u128)a[2] * b[0];

	d1 += (u64)(d0 >> 44);
	out[0] = (u64)d0 & M44;
	d2 += (u64)(d1 >> 44);
	out[1] = (u64)d1 & M44;
	c = (u64)(d2 >> 42);
	out[2] = (u64)d2 & M42;
	c = out[0] + c * 5;
	out[0] = c & M44;
	c = out[1] + (c >> 44);
	out[1] = c & M44;
	out[2] += c >> 44;
}

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

/* r^1 .. r^n (n = 4 or 8) in radix 2^44, as a tree of depth 2 or 3. */
static void powers44(const struct poly1305_state *st, u64 pw[8][3], int n)
{
	to44(pw[0], st->r[0], st->r[1], 0);
	mul44(pw[1], pw[0], pw[0]);		/* r^2 */
	mul44(pw[2], pw[1], pw[0]);		/* r^3 */
	mul44(pw[3], pw[1], pw[1]);		/* r^4 */
	if (n <= 4)
		return;
	mul44(pw[4], pw[3], pw[0]);		/* r^5 */
	mul44(pw[5], pw[3], pw[1]);		/* r^6 */
	mul44(pw[6], pw[3], pw[2]);		/* r^7 */
	mul44(pw[7], pw[3], pw[3]);		/* r^8 */
}

/* ---- AVX2: four lanes, radix 2^26 ---- */

static void to26(u64 out[5], const u64 a[3])
{
	/* from radix 2^44 (carried) */
	out[0] = a[0] & M26;
	out[1] = ((a[0] >> 26) | (a[1] << 18)) & M26;
	out[2] = (a[1] >> 8) & M26;
	out[3] = ((a[1] >> 34) | (a[2] << 10)) & M26;
	out[4] = a[2] >> 16;
}

static void avx2_precompute(struct poly1305_state *st)
{
	/* lane order of the loaded blocks: 0, 2, 1, 3 -> final powers 4, 2, 3, 1 */
	static const int pow_of_lane[4] = { 4, 2, 3, 1 };
	u64 pw[8][3], l[5];
	int lane, k;

	powers44(st, pw, 4);
	for (lane = 0; lane < 4; lane++) {
		to26(l, pw[pow_of_lane[lane] - 1]);
		for (k = 0; k < 5; k++)
			st->arch[k * 4 + lane] = l[k];
	}
	mul44(pw[7], pw[3], pw[3]);
	to26(l, pw[7]);
	for (k = 0; k < 5; k++)
		st->arch[20 + k] = l[k];
	st->arch_ready = ARCH_AVX2;
	memzero_explicit(pw, sizeof(pw));
	memzero_explicit(l, sizeof(l));
}

#define AVX2 __attribute__((target("avx2,bmi2,adx")))
#define AVX2_INLINE static inline __attribute__((always_inline, target("avx2,bmi2,adx")))

/* Five 26-bit limbs of four blocks (64 bytes), lanes holding blocks 0, 2, 1, 3. */
AVX2_INLINE void avx2_load(const u8 *src, __m256i hibit, __m256i m[5])
{
	const __m256i mask = _mm256_set1_epi64x(M26);
	__m256i a = _mm256_loadu_si256((const __m256i *)src);
	__m256i b = _mm256_loadu_si256((const __m256i *)(src + 32));
	__m256i lo = _mm256_unpacklo_epi64(a, b);
	__m256i hi = _mm256_unpackhi_epi64(a, b);

	m[0] = _mm256_and_si256(lo, mask);
	m[1] = _mm256_and_si256(_mm256_srli_epi64(lo, 26), mask);
	m[2] = _mm256_and_si256(_mm256_or_si256(_mm256_srli_epi64(lo, 52),
						_mm256_slli_epi64(hi, 12)), mask);
	m[3] = _mm256_and_si256(_mm256_srli_epi64(hi, 14), mask);
	m[4] = _mm256_or_si256(_mm256_srli_epi64(hi, 40), hibit);
}

#define MUL(a, b) _mm256_mul_epu32(a, b)
#define ADD(a, b) _mm256_add_epi64(a, b)

/* d = h * r (mod 2^130 - 5) lane-wise, s = 5 r, then one carry pass into h. */
AVX2_INLINE void avx2_mul(__m256i h[5], const __m256i r[5], const __m256i s[5])
{
	const __m256i mask = _mm256_set1_epi64x(M26);
	__m256i d0, d1, d2, d3, d4, c;

	d0 = ADD(ADD(ADD(MUL(h[0], r[0]), MUL(h[1], s[4])), ADD(MUL(h[2], s[3]), MUL(h[3], s[2]))),
		 MUL(h[4], s[1]));
	d1 = ADD(ADD(ADD(MUL(h[0], r[1]), MUL(h[1], r[0])), ADD(MUL(h[2], s[4]), MUL(h[3], s[3]))),
		 MUL(h[4], s[2]));
	d2 = ADD(ADD(ADD(MUL(h[0], r[2]), MUL(h[1], r[1])), ADD(MUL(h[2], r[0]), MUL(h[3], s[4]))),
		 MUL(h[4], s[3]));
	d3 = ADD(ADD(ADD(MUL(h[0], r[3]), MUL(h[1], r[2])), ADD(MUL(h[2], r[1]), MUL(h[3], r[0]))),
		 MUL(h[4], s[4]));
	d4 = ADD(ADD(ADD(MUL(h[0], r[4]), MUL(h[1], r[3])), ADD(MUL(h[2], r[2]), MUL(h[3], r[1]))),
		 MUL(h[4], r[0]));

	/* two interleaved carry chains: 0 -> 1 -> 2 -> 3 and 3 -> 4 -> 0 -> 1 */
	c = _mm256_srli_epi64(d0, 26); d0 = _mm256_and_si256(d0, mask); d1 = ADD(d1, c);
	c = _mm256_srli_epi64(d3, 26); d3 = _mm256_and_si256(d3, mask); d4 = ADD(d4, c);
	c = _mm256_srli_epi64(d1, 26); d1 = _mm256_and_si256(d1, mask); d2 = ADD(d2, c);
	c = _mm256_srli_epi64(d4, 26); d4 = _mm256_and_si256(d4, mask);
	d0 = ADD(d0, ADD(c, _mm256_slli_epi64(c, 2)));
	c = _mm256_srli_epi64(d2, 26); d2 = _mm256_and_si256(d2, mask); d3 = ADD(d3, c);
	c = _mm256_srli_epi64(d0, 26); d0 = _mm256_and_si256(d0, mask); d1 = ADD(d1, c);
	c = _mm256_srli_epi64(d3, 26); d3 = _mm256_and_si256(d3, mask); d4 = ADD(d4, c);
	h[0] = d0;
	h[1] = d1;
	h[2] = d2;
	h[3] = d3;
	h[4] = d4;
}

AVX2_INLINE u64 hsum(__m256i v)
{
	__m128i x = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));

	return (u64)_mm_cvtsi128_si64(x) + (u64)_mm_extract_epi64(x, 1);
}

/* nblocks: a positive multiple of 4. */
static AVX2 void avx2_blocks4(struct poly1305_state *st, const u8 *src, size_t nblocks,
			      u32 padbit)
{
	const __m256i hibit = _mm256_set1_epi64x((long long)padbit << 24);
	__m256i h[5], m[5], r[5], s[5], f[5], fs[5];
	u64 a[3], l[5], c;
	u128 t;
	int k;

	to44(a, st->h[0], st->h[1], st->h[2]);
	/* limb 2 of an accumulator may exceed 42 bits: to26 keeps it whole */
	to26(l, a);
	for (k = 0; k < 5; k++) {
		h[k] = _mm256_setr_epi64x((long long)l[k], 0, 0, 0);
		r[k] = _mm256_set1_epi64x((long long)st->arch[k * 4]);		/* r^4 */
		s[k] = ADD(r[k], _mm256_slli_epi64(r[k], 2));
		f[k] = _mm256_loadu_si256((const __m256i *)&st->arch[k * 4]);
		fs[k] = ADD(f[k], _mm256_slli_epi64(f[k], 2));
	}

	for (; nblocks > 4; nblocks -= 4, src += 64) {
		avx2_load(src, hibit, m);
		for (k = 0; k < 5; k++)
			h[k] = ADD(h[k], m[k]);
		avx2_mul(h, r, s);
	}
	avx2_load(src, hibit, m);
	for (k = 0; k < 5; k++)
		h[k] = ADD(h[k], m[k]);
	avx2_mul(h, f, fs);

	for (k = 0; k < 5; k++)
		l[k] = hsum(h[k]);
	/* carry the lane sum (each limb below 2^29) into 26-bit limbs */
	c = l[0] >> 26; l[0] &= M26; l[1] += c;
	c = l[1] >> 26; l[1] &= M26; l[2] += c;
	c = l[2] >> 26; l[2] &= M26; l[3] += c;
	c = l[3] >> 26; l[3] &= M26; l[4] += c;
	c = l[4] >> 26; l[4] &= M26; l[0] += c * 5;
	c = l[0] >> 26; l[0] &= M26; l[1] += c;
	/* radix 2^26 -> 2^64 */
	t = (u128)l[0] + ((u128)l[1] << 26) + ((u128)l[2] << 52);
	st->h[0] = (u64)t;
	t >>= 64;
	t += ((u128)l[3] << 14) + ((u128)l[4] << 40);
	st->h[1] = (u64)t;
	st->h[2] = (u64)(t >> 64);
	_mm256_zeroupper();
}

/*
 * nblocks: a multiple of 8, at least 16.  Two independent accumulators of
 * four lanes (blocks 8k + 0..3 and 8k + 4..7) step by r^8, so that two
 * multiplication chains overlap; the last step multiplies the first by
 * r^4 times the per-lane powers, the second by the powers alone.
 */
static AVX2 void avx2_blocks8(struct poly1305_state *st, const u8 *src, size_t nblocks,
			      u32 padbit)
{
	const __m256i hibit = _mm256_set1_epi64x((long long)padbit << 24);
	__m256i ha[5], hb[5], m[5], r[5], s[5], f[5], fs[5], fa[5], fsa[5], r4[5], s4[5];
	u64 a[3], l[5], c;
	u128 t;
	int k;

	to44(a, st->h[0], st->h[1], st->h[2]);
	to26(l, a);
	for (k = 0; k < 5; k++) {
		ha[k] = _mm256_setr_epi64x((long long)l[k], 0, 0, 0);
		hb[k] = _mm256_setzero_si256();
		r[k] = _mm256_set1_epi64x((long long)st->arch[20 + k]);	/* r^8 */
		s[k] = ADD(r[k], _mm256_slli_epi64(r[k], 2));
		f[k] = _mm256_loadu_si256((const __m256i *)&st->arch[k * 4]);
		fs[k] = ADD(f[k], _mm256_slli_epi64(f[k], 2));
		r4[k] = _mm256_set1_epi64x((long long)st->arch[k * 4]);		/* r^4 */
		s4[k] = ADD(r4[k], _mm256_slli_epi64(r4[k], 2));
		fa[k] = f[k];
	}
	avx2_mul(fa, r4, s4);
	for (k = 0; k < 5; k++)
		fsa[k] = ADD(fa[k], _mm256_slli_epi64(fa[k], 2));

	for (; nblocks > 8; nblocks -= 8, src += 128) {
		avx2_load(src, hibit, m);
		for (k = 0; k < 5; k++)
			ha[k] = ADD(ha[k], m[k]);
		avx2_load(src + 64, hibit, m);
		for (k = 0; k < 5; k++)
			hb[k] = ADD(hb[k], m[k]);
		avx2_mul(ha, r, s);
		avx2_mul(hb, r, s);
	}
	avx2_load(src, hibit, m);
	for (k = 0; k < 5; k++)
		ha[k] = ADD(ha[k], m[k]);
	avx2_load(src + 64, hibit, m);
	for (k = 0; k < 5; k++)
		hb[k] = ADD(hb[k], m[k]);
	avx2_mul(ha, fa, fsa);
	avx2_mul(hb, f, fs);

	for (k = 0; k < 5; k++)
		l[k] = hsum(ADD(ha[k], hb[k]));
	/* carry the lane sums (each limb below 2^30) into 26-bit limbs */
	c = l[0] >> 26; l[0] &= M26; l[1] += c;
	c = l[1] >> 26; l[1] &= M26; l[2] += c;
	c = l[2] >> 26; l[2] &= M26; l[3] += c;
	c = l[3] >> 26; l[3] &= M26; l[4] += c;
	c = l[4] >> 26; l[4] &= M26; l[0] += c * 5;
	c = l[0] >> 26; l[0] &= M26; l[1] += c;
	t = (u128)l[0] + ((u128)l[1] << 26) + ((u128)l[2] << 52);
	st->h[0] = (u64)t;
	t >>= 64;
	t += ((u128)l[3] << 14) + ((u128)l[4] << 40);
	st->h[1] = (u64)t;
	st->h[2] = (u64)(t >> 64);
	_mm256_zeroupper();
}

static AVX2 void poly1305_blocks_avx2(struct poly1305_state *st, const u8 *src, size_t nblocks,
				      u32 padbit)
{
	size_t n;

	if (nblocks >= AVX2_MIN_BLOCKS) {
		if (st->arch_ready != ARCH_AVX2)
			avx2_precompute(st);
		n = nblocks & ~(size_t)7;
		avx2_blocks8(st, src, n, padbit);
		src += n * POLY1305_BLOCK_SIZE;
		nblocks -= n;
		if (nblocks >= 4) {
			n = nblocks & ~(size_t)3;
			avx2_blocks4(st, src, n, padbit);
			src += n * POLY1305_BLOCK_SIZE;
			nblocks -= n;
		}
	}
	poly1305_blocks_core(st, src, nblocks, padbit);
}

/* ---- AVX-512 IFMA: eight lanes, radix 2^44 ---- */

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

#define IFMA __attribute__((target("avx512f,avx512vl,avx512ifma,bmi2,adx")))
#define IFMA_INLINE static inline __attribute__((always_inline, target("avx512f,avx512vl,avx512ifma,bmi2,adx")))

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

static IFMA void poly1305_blocks_ifma(struct poly1305_state *st, const u8 *src, size_t nblocks,
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

/* ---- registration ---- */

static struct poly1305_alg poly1305_x86_algs[] = {
	RIND_POLY1305_ALG("poly1305-x86_64", 300, "x86", poly1305_blocks_x86_64),
	RIND_POLY1305_ALG("poly1305-avx2", 400, "x86", poly1305_blocks_avx2),
	RIND_POLY1305_ALG("poly1305-avx512ifma", 500, "x86", poly1305_blocks_ifma),
};

static int poly1305_x86_mod_init(void)
{
	bool scalar = rind_cpu_has(RIND_X86_BMI2) && rind_cpu_has(RIND_X86_ADX);
	bool ok[3];
	size_t i;
	int err;

	/* The known-answer tests of "poly1305" are algs/poly1305.c's. */
	ok[0] = scalar;
	ok[1] = scalar && rind_cpu_has(RIND_X86_AVX2);
	ok[2] = scalar && rind_cpu_has(RIND_X86_AVX512F) && rind_cpu_has(RIND_X86_AVX512VL) &&
		rind_cpu_has(RIND_X86_AVX512IFMA);
	for (i = 0; i < ARRAY_SIZE(poly1305_x86_algs); i++) {
		if (!ok[i])
			continue;
		err = crypto_register_shash(&poly1305_x86_algs[i].alg);
		if (err)
			return err;
	}
	return 0;
}

module_init(poly1305_x86_mod_init);
