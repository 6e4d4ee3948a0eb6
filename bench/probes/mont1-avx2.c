// SPDX-License-Identifier: MIT
/*
 * Feasibility probe (not built by make), issue 13 item 2: one 1024-bit
 * Montgomery product spread over the four 64-bit lanes of AVX2 (one
 * product, not four), to run one RSA-2048 CRT half on the vector pipes
 * beside the other half on the MULX/ADX kernels.  Step 1: its cycles
 * alone against bnx_mul16_adx / bnx_sqr16_adx.
 *
 *   gcc -O2 -mavx2 -Iapi/include -o /tmp/mont1 bench/probes/mont1-avx2.c \
 *      arch/x86/bn-adx-8x8u.S && /tmp/mont1 > /tmp/mont1.txt && \
 *      python3 bench/probes/mont1-check.py < /tmp/mont1.txt
 *   (-DASM and /tmp/vmont.S from vmont_gen.py: the generated kernels.  gcc:
 *   the C kernels need its unrolling for their shuffles' immediates.)
 *
 * Layout: 40 digits of 29 bits (limb j in lane j % 4 of vector j / 4),
 * R = 2^1160.  The q chain is taken off the multiplier: the reduction is
 * modulo m~ = k m, k = -m^-1 mod 2^116, so m~ = -1 mod 2^116 and a group
 * of four q digits is the accumulator's four low columns themselves
 * (two parallel carry rounds, no product); T + q m~ = (T_hi + q M') 2^116
 * with M' = (m~ + 1) / 2^116 (36 digits).  Values stay below 2 m~
 * (4 m~ < R), congruent mod m, which is all the exponentiation needs.
 * Product rows: a_i broadcast times b shifted by i % 4 lanes (unaligned
 * loads from a zero-padded copy), into an accumulator window of eleven
 * vectors; each vector is split once in mid-life (low 29 bits kept, the
 * rest moved one lane up) so no column passes 2^64.  The C kernels below
 * spill the window (GCC); vmont_gen.py generates them with the window in
 * eleven ymm registers (-DASM builds against that, as the build line).
 * Checked with mont1-check.py (1000 products and squarings, chained:
 * congruent, below 2 m~, digits < 2^29 + 2^8).
 *
 * Zen 3 (EPYC, 2 vCPUs, load 3.5-5), TSC minima, 2026-12-02:
 *   step 1, alone:  vector mul 686-710, sqr 612;  bnx_mul16_adx 637-661,
 *                   bnx_sqr16_adx 514-539  (1.07-1.11x, 1.14-1.19x)
 *   step 2 (vpair.c, vpair-gen.py): a squaring of each, interleaved in one
 *   stream, k = 5 in a loop: 1039-1044 a pair against 1088 for two ADX
 *   squarings (0.955-0.960) and 1186-1191 for ADX + vector apart (0.88);
 *   other mixes (proportional, vector 100-300 instructions ahead or
 *   behind, blocks of 2, 8, 32) 0.88-0.95 of apart; with the vector q
 *   chain left out altogether (no carry rounds, wrong results) 975
 *   (0.896 of two ADX).  One after the other in one loop: 1269 (the
 *   ~3600-instruction body).  The two kernels do not overlap: ~3.5
 *   instructions a TSC cycle together against 3.3 (ADX) and 2.8 (vector)
 *   alone, while bare loops of MULX/ADCX/ADOX and VPMULUDQ/VPADDQ overlap
 *   to 0.76 of their sum (bench: 16.6 + 8.3 -> 18.9 TSC).  So a CRT
 *   exponentiation with one half on each could gain ~4% on the
 *   squarings (10% at the no-chain ceiling) before its conversions
 *   (radix 2^29, the m~ form and back) -- not the 1.2-1.3x the issue's
 *   RSA targets need, so no driver was built.
 */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <x86intrin.h>

typedef __m256i v;
typedef uint64_t u64;
typedef unsigned __int128 u128;
#define K 29
#define MASK ((1ull << K) - 1)
#define L 40
#define G 10
#define MUL _mm256_mul_epu32
#define ADD _mm256_add_epi64
#define AND _mm256_and_si256
#define SRL(x) _mm256_srli_epi64(x, K)
#define ROT(x) _mm256_permute4x64_epi64(x, 0x93)	/* [x3 x0 x1 x2] */
#define LO0(x) _mm256_blend_epi32(_mm256_setzero_si256(), x, 0x03)	/* lane 0 only */
#define HI3(x) _mm256_blend_epi32(x, _mm256_setzero_si256(), 0x03)	/* lane 0 cleared */
#define LD(p) _mm256_loadu_si256((const v *)(p))

struct vmont {
	u64 mp[4][L] __attribute__((aligned(32)));	/* mp[l][c] = M'[c - l] */
};

void vmul(u64 *r, const u64 *a, const u64 *b, const struct vmont *c);
void vsqr(u64 *r, const u64 *a, const struct vmont *c);

/* X (one group's four columns) -> q digits (< 2^29 + 2^7); *cy gets the carry out in lane 0. */
static inline __attribute__((always_inline)) v norm4(v x, v *cy)
{
	const v mask = _mm256_set1_epi64x(MASK);
	v s = ROT(SRL(x)), y;

	y = ADD(AND(x, mask), HI3(s));
	*cy = LO0(s);
	s = ROT(SRL(y));
	y = ADD(AND(y, mask), HI3(s));
	*cy = ADD(*cy, LO0(s));
	return y;
}

/* The vector split once in its life: low 29 bits kept, the rest one lane up. */
static inline __attribute__((always_inline)) void split(v *t)
{
	const v mask = _mm256_set1_epi64x(MASK);
	v s = ROT(SRL(t[0]));

	t[0] = ADD(AND(t[0], mask), HI3(s));
	t[1] = ADD(t[1], LO0(s));
}

/* group u's reduction: q from T[u], q M' into T[u+1..u+10] */
static inline __attribute__((always_inline)) void redg(v *T, int u, const struct vmont *c)
{
	v cy, y = norm4(T[u], &cy);

	T[u + 1] = ADD(T[u + 1], cy);
#pragma GCC unroll 4
	for (int l = 0; l < 4; l++) {
		v q = _mm256_permute4x64_epi64(y, l * 0x55);
#pragma GCC unroll 10
		for (int k = 0; k < 10; k++) {
			if (l == 0 && k == 9)
				continue;
			T[u + 1 + k] = ADD(T[u + 1 + k], MUL(q, LD(&c->mp[l][4 * k])));
		}
	}
}

/* T[10..19] -> 40 digits < 2^29 + 2^7 (two parallel rounds across the vectors) */
static inline __attribute__((always_inline)) void out(u64 *r, v *T)
{
	const v mask = _mm256_set1_epi64x(MASK);
	v prev = _mm256_setzero_si256();

#pragma GCC unroll 2
	for (int round = 0; round < 2; round++) {
		prev = _mm256_setzero_si256();
#pragma GCC unroll 10
		for (int j = 10; j < 20; j++) {
			v s = ROT(SRL(T[j]));

			T[j] = ADD(AND(T[j], mask), _mm256_blend_epi32(s, prev, 0x03));
			prev = s;
		}
	}
#pragma GCC unroll 10
	for (int j = 0; j < 10; j++)
		_mm256_storeu_si256((v *)(r + 4 * j), T[10 + j]);
}

void vmul(u64 *r, const u64 *a, const u64 *b, const struct vmont *c)
{
	u64 bb[4 + L + 4] __attribute__((aligned(32)));
	v T[21];

	memset(bb, 0, 32);
	memcpy(bb + 4, b, L * 8);
	memset(bb + 4 + L, 0, 32);
#pragma GCC unroll 21
	for (int j = 0; j < 21; j++)
		T[j] = _mm256_setzero_si256();
#pragma GCC unroll 10
	for (int u = 0; u < G; u++) {
#pragma GCC unroll 4
		for (int rr = 0; rr < 4; rr++) {
			v ai = _mm256_set1_epi64x((long long)a[4 * u + rr]);
#pragma GCC unroll 11
			for (int k = 0; k < 11; k++) {
				if (rr == 0 && k == 10)
					continue;
				T[u + k] = ADD(T[u + k], MUL(ai, LD(bb + 4 + 4 * k - rr)));
			}
		}
		if (u + 5 < 15)
			split(T + u + 5);
		redg(T, u, c);
	}
	out(r, T);
}

void vsqr(u64 *r, const u64 *a, const struct vmont *c)
{
	u64 dd[4 + L + 4] __attribute__((aligned(32)));
	const v m13 = _mm256_set_epi64x(-1, -1, -1, 0), m3 = _mm256_set_epi64x(-1, 0, 0, 0);
	const v me = _mm256_set_epi64x(0, -1, 0, -1);
	v T[21];

	/* dd = 2 a, zero-padded */
	memset(dd, 0, 32);
	memset(dd + 4 + L, 0, 32);
#pragma GCC unroll 10
	for (int j = 0; j < 10; j++) {
		v x = LD(a + 4 * j);
		_mm256_store_si256((v *)(dd + 4 + 4 * j), ADD(x, x));
	}
#pragma GCC unroll 21
	for (int j = 0; j < 21; j++)
		T[j] = _mm256_setzero_si256();
#pragma GCC unroll 10
	for (int u = 0; u < G; u++) {
		/* the squares a_i^2 of this group, at columns 8u, 8u+2, 8u+4, 8u+6 */
		v x = LD(a + 4 * u), sq = MUL(x, x);

		T[2 * u] = ADD(T[2 * u], AND(_mm256_permute4x64_epi64(sq, 0x50), me));
		T[2 * u + 1] = ADD(T[2 * u + 1], AND(_mm256_permute4x64_epi64(sq, 0xfa), me));
#pragma GCC unroll 4
		for (int rr = 0; rr < 4; rr++) {
			int i = 4 * u + rr, k0 = (2 * i) / 4 - u;
			v ai = _mm256_set1_epi64x((long long)a[i]);
			/* 2 a_j a_i for j > i: the first vector masked */
			T[u + k0] = ADD(T[u + k0], MUL(ai, AND(LD(dd + 4 + 4 * k0 - rr), (rr & 1) ? m3 : m13)));
#pragma GCC unroll 11
			for (int k = k0 + 1; k < 11; k++) {
				if (rr == 0 && k == 10)
					continue;
				T[u + k] = ADD(T[u + k], MUL(ai, LD(dd + 4 + 4 * k - rr)));
			}
		}
		if (u + 5 < 15)
			split(T + u + 5);
		redg(T, u, c);
	}
	out(r, T);
}

/* ---- set-up and checks ---- */

#ifdef ASM	/* the generated kernels (vmont-gen.py) */
void vmul40(u64 *r, const u64 *a, const u64 *b, const u64 *mp);
void vsqr40(u64 *r, const u64 *a, const u64 *mp);
#define vmul(r, a, b, c) vmul40(r, a, b, (c)->mp[0])
#define vsqr(r, a, c) vsqr40(r, a, (c)->mp[0])
#endif

static u64 xs = 0x9e3779b97f4a7c15ull;
static u64 xr(void)
{
	xs ^= xs << 13; xs ^= xs >> 7; xs ^= xs << 17;
	return xs;
}

/* n words -> 40 digits of 29 bits */
static void to29(u64 *d, const u64 *w, int n)
{
	for (int j = 0; j < L; j++) {
		int bit = 29 * j, wi = bit / 64, s = bit % 64;
		u64 x = wi < n ? w[wi] >> s : 0;

		if (s > 35 && wi + 1 < n)
			x |= w[wi + 1] << (64 - s);
		d[j] = x & MASK;
	}
}

static void pr(const char *tag, const u64 *d, int n)
{
	printf("%s", tag);
	for (int j = n - 1; j >= 0; j--)
		printf(" %llx", (unsigned long long)d[j]);
	printf("\n");
}

void bnx_mul16_adx(u64 *r, const u64 *a, const u64 *b, const u64 *m, u64 m0inv, u64 n, u64 *t);
void bnx_sqr16_adx(u64 *r, const u64 *a, const u64 *m, u64 m0inv, u64 n, u64 *t);

/* m~ = k m (19 words) and the shifted copies of M' for m (16 words, odd) */
static void vsetup(struct vmont *c, u64 *mt, const u64 *m)
{
	u64 mp[L];
	u128 inv = 1, k;

	memset(mt, 0, 19 * 8);
	/* inv = m^-1 mod 2^128 (Newton), k = -inv mod 2^116 */
	u128 m128 = ((u128)m[1] << 64) | m[0];
	for (int i = 0; i < 7; i++)
		inv *= 2 - m128 * inv;
	k = (0 - inv) & (((u128)1 << 116) - 1);
	/* mt = k m (18 words) */
	{
		u64 k0 = (u64)k, k1 = (u64)(k >> 64);
		for (int i = 0; i < 16; i++) {
			u128 p = (u128)m[i] * k0 + mt[i];
			mt[i] = (u64)p;
			u64 cy = (u64)(p >> 64);
			for (int j = i + 1; j < 19 && cy; j++) {
				u128 s = (u128)mt[j] + cy;
				mt[j] = (u64)s;
				cy = (u64)(s >> 64);
			}
			p = (u128)m[i] * k1 + mt[i + 1];
			mt[i + 1] = (u64)p;
			cy = (u64)(p >> 64);
			for (int j = i + 2; j < 19 && cy; j++) {
				u128 s = (u128)mt[j] + cy;
				mt[j] = (u64)s;
				cy = (u64)(s >> 64);
			}
		}
	}
	/* M' = (mt + 1) >> 116 */
	{
		u64 w[19];
		memcpy(w, mt, sizeof(w));
		for (int j = 0; j < 19 && !++w[j]; j++)
			;
		u64 sh[17];
		for (int j = 0; j < 17; j++)
			sh[j] = (w[j + 1] >> 52) | (j + 2 < 19 ? w[j + 2] << 12 : 0);
		to29(mp, sh, 17);
	}
	memset(c, 0, sizeof(*c));
	for (int l = 0; l < 4; l++)
		for (int j = 0; j < 36; j++)
			c->mp[l][j + l] = mp[j];
}

#ifndef NO_MAIN
int main(void)
{
	u64 m[16], mt[19], a[L], b[L], z[L], zs[L];
	struct vmont c;

	for (int j = 0; j < 16; j++)
		m[j] = xr();
	m[0] |= 1;
	m[15] |= 1ull << 63;
	vsetup(&c, mt, m);
	pr("m", m, 16);
	pr("mt", mt, 19);
	/* random a, b < mt (digits exact) and products */
	for (int it = 0; it < 200; it++) {
		u64 wa[19], wb[19];
		for (int j = 0; j < 19; j++) {
			wa[j] = xr();
			wb[j] = xr();
		}
		wa[17] &= (mt[17] >> 1);	/* < mt */
		wb[17] &= (mt[17] >> 1);
		wa[18] = wb[18] = 0;
		if (it == 0) {
			/* large edge: 2 mt - 1 > a, b >= mt */
			memcpy(wa, mt, sizeof(wa));
			memcpy(wb, mt, sizeof(wb));
			wa[17] |= 0; /* a = mt exactly */
		}
		to29(a, wa, 19);
		to29(b, wb, 19);
		vmul(z, a, b, &c);
		vsqr(zs, a, &c);
		pr("a", a, L);
		pr("b", b, L);
		pr("z", z, L);
		pr("s", zs, L);
		/* chain: feed the output back (digits not exact) */
		vmul(a, z, zs, &c);
		pr("a", z, L);
		pr("b", zs, L);
		pr("z", a, L);
		vsqr(b, z, &c);
		pr("a", z, L);
		pr("b", z, L);
		pr("z", b, L);
		pr("s", b, L);
	}
	/* timing */
	{
		u64 wm[16], ra[16], t[40], b1 = ~0ull, b2 = ~0ull, b3 = ~0ull, b4 = ~0ull;
		memcpy(wm, m, sizeof(wm));
		for (int j = 0; j < 16; j++)
			ra[j] = xr() >> 1;
		for (int rep = 0; rep < 20000; rep++) {
			u64 t0 = __rdtsc(); vmul(z, z, a, &c); u64 t1 = __rdtsc();
			if (t1 - t0 < b1) b1 = t1 - t0;
			t0 = __rdtsc(); vsqr(z, z, &c); t1 = __rdtsc();
			if (t1 - t0 < b2) b2 = t1 - t0;
			t0 = __rdtsc(); bnx_mul16_adx(ra, ra, ra, wm, 12345, 16, t); t1 = __rdtsc();
			if (t1 - t0 < b3) b3 = t1 - t0;
			t0 = __rdtsc(); bnx_sqr16_adx(ra, ra, wm, 12345, 16, t); t1 = __rdtsc();
			if (t1 - t0 < b4) b4 = t1 - t0;
		}
		fprintf(stderr, "TSC minima: vector mul %llu sqr %llu | ADX mul16 %llu sqr16 %llu | ratio mul %.2f sqr %.2f\n",
			(unsigned long long)b1, (unsigned long long)b2, (unsigned long long)b3,
			(unsigned long long)b4, (double)b1 / b3, (double)b2 / b4);
	}
	return 0;
}
#endif
