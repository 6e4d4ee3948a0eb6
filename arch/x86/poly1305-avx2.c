// SPDX-License-Identifier: MIT
/*
 * Poly1305 for x86-64 with AVX2: the "poly1305-avx2" shash, priority 400.
 * Requires: AVX2, BMI2, ADX.
 *
 * Four lanes of 26-bit limbs multiplied with VPMULUDQ (the lane scheme of
 * poly1305-x86.h, L = 4); inputs shorter than AVX2_MIN_BLOCKS and the tail
 * go to the MULX scalar code.
 */
#include <immintrin.h>
#include <rind/internal/hash.h>
#include <rind/internal/util.h>
#include <crypto/poly1305.h>
#include "poly1305-x86.h"

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

AVX2 void rind_poly1305_blocks_avx2(struct poly1305_state *st, const u8 *src, size_t nblocks,
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

static struct poly1305_alg poly1305_avx2_alg =
	RIND_POLY1305_ALG("poly1305-avx2", 400, "x86", rind_poly1305_blocks_avx2);

static int poly1305_avx2_mod_init(void)
{
	/* The known-answer tests of "poly1305" are algs/poly1305.c's. */
	if (!rind_cpu_has(RIND_X86_AVX2) || !rind_cpu_has(RIND_X86_BMI2) ||
	    !rind_cpu_has(RIND_X86_ADX))
		return 0;
	return crypto_register_shash(&poly1305_avx2_alg.alg);
}

module_init(poly1305_avx2_mod_init);
