// SPDX-License-Identifier: MIT
/*
 * Feasibility probe (not built by make): is a 4-lane AVX2 Montgomery
 * product (one 1024-bit modulus per 64-bit lane, VPMULUDQ on 29-bit limbs)
 * fast enough to carry a multi-buffer RSA-2048 sign_batch (issue 15)?
 * Compared with four sequential products of the MULX/ADX kernels
 * (arch/x86/bn-adx-8x8u.S, bnx_mul16_adx / bnx_sqr16_adx).
 *
 *   cc -O2 -mavx2 -Iapi/include -o /tmp/mont4 bench/probes/mont4-avx2.c \
 *      arch/x86/bn-adx-8x8u.S && /tmp/mont4
 *
 * Layout: limb j of the four lanes in one __m256i; 36 limbs of 29 bits
 * (R = 2^1044 > 4m, so products of values < 2m stay < 2m, no final
 * subtraction).  Product a b (or a^2 with the cross products against 2a)
 * as 4-row sweeps (four multipliers in registers, one b limb loaded per
 * four VPMULUDQ); a partial carry pass (columns < 2^29 + 2^35, so the
 * reduction's 36 more products cannot overflow 64 bits); the reduction in
 * groups of four rows, each group's four q computed from its four columns
 * (carried in registers) before the previous group's long tail; two
 * parallel carry passes out (limbs < 2^29 + 2^7, top limb whole).
 * Checked against Python big integers (all four lanes, mul and sqr,
 * result < 2m); this file checks sqr(a) == mul(a, a) mod m per lane.
 *
 * Zen 3 (EPYC, loaded 2-vCPU guest), TSC minima of 20000 calls,
 * 2026-12-01, three same-run rounds:
 *   VPMULUDQ ymm throughput          0.41-0.48 TSC
 *   4-lane mul 1813-1886, sqr 1617-1666 TSC
 *   MULX mul16 637-661, sqr16 514-539 TSC (x4: 2548-2644, 2056-2156)
 *   => 4 lanes vs 4 MULX products: mul 1.37-1.41x, sqr 1.27-1.31x
 * (28-bit limbs, 37 of them, CIOS or separated: 1.24-1.39x / 1.07-1.22x;
 * two independent 4-lane squarings interleaved: no gain.)  The kernels
 * issue ~9200 (mul) / ~8300 (sqr) instructions (callgrind) and run at
 * about 5 a TSC cycle: bound by dispatch and the four FP pipes (each
 * 28x28 product is a VPMULUDQ and a VPADDQ), not by the q chain (faking
 * the q dependency away saved ~220 TSC of a reduction's ~1080).  Even at
 * the VPMULUDQ bound (2000 products a squaring, ~2 a cycle) a squaring
 * is ~1000 TSC, about 2.1x four MULX ones: an RSA-2048 signature (87% in
 * the two exponentiations) could not pass ~1.8x rind's single path, so
 * the aim (batch >= 2.5x aws-lc single) needs IFMA (52-bit
 * limbs), not AVX2.  Below the 1.5x bar set for building the driver, so
 * no driver was built.
 */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <x86intrin.h>

typedef __m256i v;
typedef uint64_t u64;
#define K 29
#define MASK ((1ull << K) - 1)
#define MUL _mm256_mul_epu32
#define ADD _mm256_add_epi64
#define SRL(x) _mm256_srli_epi64(x, K)
#define N 36

/* t[j+r] += a_r b[j]; first: t[0..3] start from zero-or-given */
static inline __attribute__((always_inline)) void rows4(v *restrict t, v a0, v a1, v a2, v a3, const v *restrict b, int n)
{
	v c0 = t[0], c1 = t[1], c2 = t[2], c3 = t[3];
#pragma GCC unroll 8
	for (int j = 0; j < n; j++) {
		v bj = b[j];
		c0 = ADD(c0, MUL(a0, bj));
		c1 = ADD(c1, MUL(a1, bj));
		c2 = ADD(c2, MUL(a2, bj));
		c3 = ADD(c3, MUL(a3, bj));
		t[j] = c0; c0 = c1; c1 = c2; c2 = c3; c3 = t[j + 4];
	}
	t[n] = c0; t[n + 1] = c1; t[n + 2] = c2;
}
/* same, t[n..n+3] not read (fresh) */
static inline __attribute__((always_inline)) void rows4f(v *restrict t, v a0, v a1, v a2, v a3, const v *restrict b, int n)
{
	v c0 = t[0], c1 = t[1], c2 = t[2], c3 = t[3];
#pragma GCC unroll 8
	for (int j = 0; j < n; j++) {
		v bj = b[j];
		c0 = ADD(c0, MUL(a0, bj));
		c1 = ADD(c1, MUL(a1, bj));
		c2 = ADD(c2, MUL(a2, bj));
		c3 = ADD(c3, MUL(a3, bj));
		t[j] = c0; c0 = c1; c1 = c2; c2 = c3;
		c3 = _mm256_setzero_si256();
	}
	t[n] = c0; t[n + 1] = c1; t[n + 2] = c2;
}

#define QSTEP(q, y) q = _mm256_and_si256(MUL(y, k0), mask)
static inline __attribute__((always_inline)) void qs4r(v *q, const v *t, const v *m, v k0, v mask)
{
	v y, cy;
	y = t[0]; QSTEP(q[0], y); cy = SRL(ADD(y, MUL(q[0], m[0])));
	y = ADD(ADD(t[1], MUL(q[0], m[1])), cy); QSTEP(q[1], y); cy = SRL(ADD(y, MUL(q[1], m[0])));
	y = ADD(ADD(ADD(t[2], MUL(q[0], m[2])), MUL(q[1], m[1])), cy); QSTEP(q[2], y); cy = SRL(ADD(y, MUL(q[2], m[0])));
	y = ADD(ADD(ADD(t[3], MUL(q[0], m[3])), ADD(MUL(q[1], m[2]), MUL(q[2], m[1]))), cy); QSTEP(q[3], y);
}
static inline __attribute__((always_inline)) void head4(v *t, const v *q, const v *m, v *y)
{
	v c0 = t[0], c1 = t[1], c2 = t[2], c3 = t[3], cy = _mm256_setzero_si256();
#pragma GCC unroll 8
	for (int j = 0; j < 8; j++) {
		v bj = m[j];
		c0 = ADD(c0, MUL(q[0], bj));
		c1 = ADD(c1, MUL(q[1], bj));
		c2 = ADD(c2, MUL(q[2], bj));
		c3 = ADD(c3, MUL(q[3], bj));
		c0 = ADD(c0, cy);
		if (j < 4) cy = SRL(c0); else { y[j - 4] = c0; cy = _mm256_setzero_si256(); }
		c0 = c1; c1 = c2; c2 = c3; c3 = t[j + 4];
	}
	t[4] = y[0]; t[5] = y[1]; t[6] = y[2]; t[7] = y[3];
	t[8] = c0; t[9] = c1; t[10] = c2;
}
/* t: 2N columns (< 2^63.2 each) -> r = t / 2^(29N) mod m, limbs < 2^29 + 2^7 (top limb whole) */
static inline __attribute__((always_inline)) void redc(v *r, v *t, const v *m, v k0)
{
	const v mask = _mm256_set1_epi64x(MASK);
	const int G = N / 4;
	v q[4], y[4], qn[4];
	/* partial normalisation: columns < 2^29 + 2^35 */
	v prev = _mm256_setzero_si256();
	for (int j = 0; j < 2 * N; j++) {
		v x = t[j];
		t[j] = ADD(_mm256_and_si256(x, mask), prev);
		prev = SRL(x);
	}
	t[2 * N] = prev; t[2*N+1] = t[2*N+2] = t[2*N+3] = _mm256_setzero_si256();
	y[0] = t[0]; y[1] = t[1]; y[2] = t[2]; y[3] = t[3];
	qs4r(q, y, m, k0, mask);
	for (int g = 0; g < G; g++) {
		int i = 4 * g;
		head4(t + i, q, m, y);
		if (g + 1 < G)
			qs4r(qn, y, m, k0, mask);
		rows4(t + i + 8, q[0], q[1], q[2], q[3], m + 8, N - 8);
		q[0] = qn[0]; q[1] = qn[1]; q[2] = qn[2]; q[3] = qn[3];
	}
	/* two parallel carry passes */
	v p = _mm256_setzero_si256();
	for (int j = 0; j < N; j++) {
		v x = t[N + j];
		t[N + j] = ADD(_mm256_and_si256(x, mask), p);
		p = SRL(x);
	}
	t[2 * N] = ADD(t[2 * N], p);
	p = _mm256_setzero_si256();
	for (int j = 0; j < N - 1; j++) {
		v x = t[N + j];
		r[j] = ADD(_mm256_and_si256(x, mask), p);
		p = SRL(x);
	}
	r[N - 1] = ADD(ADD(t[2 * N - 1], p), _mm256_slli_epi64(t[2 * N], K));
}

static __attribute__((noinline)) void mul_36(v *r, const v *a, const v *b, const v *m, v k0)
{
	v t[2 * N + 4];
	t[0] = t[1] = t[2] = t[3] = _mm256_setzero_si256();
	rows4f(t, a[0], a[1], a[2], a[3], b, N);
	for (int j = N + 3; j < 2 * N + 4; j++) t[j] = _mm256_setzero_si256();
	for (int i = 4; i < N; i += 4) {
		rows4(t + i, a[i], a[i+1], a[i+2], a[i+3], b, N);
	}
	redc(r, t, m, k0);
}

static __attribute__((noinline)) void sqr_36(v *r, const v *a, const v *m, v k0)
{
	v t[2 * N + 4], a2[N];
	for (int j = 0; j < N; j++) a2[j] = _mm256_add_epi64(a[j], a[j]);
	for (int j = 0; j < 2 * N + 4; j++) t[j] = _mm256_setzero_si256();
	for (int j = 0; j < N; j++) t[2 * j] = MUL(a[j], a[j]);
	for (int i = 0; i < N; i += 4) {
		v a0 = a[i], a1 = a[i+1], a2_ = a[i+2];
		t[2*i+1] = ADD(t[2*i+1], MUL(a0, a2[i+1]));
		t[2*i+2] = ADD(t[2*i+2], MUL(a0, a2[i+2]));
		t[2*i+3] = ADD(t[2*i+3], ADD(MUL(a0, a2[i+3]), MUL(a1, a2[i+2])));
		t[2*i+4] = ADD(t[2*i+4], MUL(a1, a2[i+3]));
		t[2*i+5] = ADD(t[2*i+5], MUL(a2_, a2[i+3]));
		if (i + 4 < N)
			rows4(t + 2 * i + 4, a[i], a[i+1], a[i+2], a[i+3], a2 + i + 4, N - i - 4);
	}
	redc(r, t, m, k0);
}


void bnx_mul16_adx(u64 *r, const u64 *a, const u64 *b, const u64 *m, u64 m0inv, u64 n, u64 *t);
void bnx_sqr16_adx(u64 *r, const u64 *a, const u64 *m, u64 m0inv, u64 n, u64 *t);

static u64 rng = 88172645463325252ull;
static u64 xr(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

static u64 *lane(v *x, int j, int l) { return (u64 *)&x[j] + l; }

/* Lane l of x as 36 exact 29-bit limbs (x[N-1] may be wider), then minus m if >= m. */
static void canon(u64 *o, v *x, v *m, int l)
{
	u64 c = 0, b = 0, s[N];
	int j;

	for (j = 0; j < N; j++) {
		u64 t = *lane(x, j, l) + c;
		o[j] = j < N - 1 ? t & MASK : t;
		c = t >> K;
	}
	for (j = 0; j < N; j++) {
		u64 t = o[j] - *lane(m, j, l) - b;
		s[j] = j < N - 1 ? t & MASK : t;
		b = j < N - 1 ? (t >> 63) : 0;
	}
	if ((int64_t)s[N - 1] >= 0 && !((s[N - 1] >> 62) & 1))
		memcpy(o, s, sizeof(s));
}

static double vpmuludq_tsc(void)
{
	u64 best = ~0ull;

	for (int it = 0; it < 100; it++) {
		u64 t0 = __rdtsc();
		for (int k = 0; k < 10000; k++)
			__asm__ volatile(
			"vpmuludq %%ymm8,%%ymm0,%%ymm0\n vpmuludq %%ymm8,%%ymm1,%%ymm1\n"
			"vpmuludq %%ymm8,%%ymm2,%%ymm2\n vpmuludq %%ymm8,%%ymm3,%%ymm3\n"
			"vpmuludq %%ymm8,%%ymm4,%%ymm4\n vpmuludq %%ymm8,%%ymm5,%%ymm5\n"
			"vpmuludq %%ymm8,%%ymm6,%%ymm6\n vpmuludq %%ymm8,%%ymm7,%%ymm7\n"
			::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7");
		u64 t1 = __rdtsc();
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	return best / 80000.0;
}

int main(void)
{
	static v A[N], M[N], R[N], S[N];
	u64 kk[4], a[16], m[16], r[16], t[40], cs[N], cm[N];
	u64 b1 = ~0ull, b2 = ~0ull, bm = ~0ull, bs = ~0ull;
	int bad = 0;

	for (int j = 0; j < N; j++)
		for (int l = 0; l < 4; l++) {
			*lane(A, j, l) = xr() & MASK;
			*lane(M, j, l) = xr() & MASK;
		}
	for (int l = 0; l < 4; l++) {
		u64 m0, x = 1;

		*lane(M, 0, l) |= 1;			/* odd, 1024 bits */
		*lane(M, N - 1, l) = (*lane(M, N - 1, l) & 0xfffff) | 0x80000;
		*lane(A, N - 1, l) &= 0x7ffff;		/* a < m */
		m0 = *lane(M, 0, l);
		for (int i = 0; i < 6; i++)
			x *= 2 - m0 * x;
		kk[l] = (0 - x) & MASK;			/* -m^-1 mod 2^29 */
	}
	v k0 = _mm256_loadu_si256((const v *)kk);

	/* sqr(a) == mul(a, a) mod m, lane by lane, over a chain of squarings */
	memcpy(R, A, sizeof(R));
	for (int it = 0; it < 50; it++) {
		sqr_36(S, R, M, k0);
		mul_36(R, R, R, M, k0);
		for (int l = 0; l < 4; l++) {
			canon(cs, S, M, l);
			canon(cm, R, M, l);
			bad |= memcmp(cs, cm, sizeof(cs)) != 0;
		}
	}
	printf("sqr == mul mod m: %s\n", bad ? "NO" : "yes");

	for (int j = 0; j < 16; j++) {
		a[j] = xr();
		m[j] = xr();
	}
	m[0] |= 1;
	m[15] |= 1ull << 63;
	a[15] >>= 1;
	memcpy(r, a, sizeof(r));
	memcpy(R, A, sizeof(R));
	for (int it = 0; it < 20000; it++) {
		u64 t0 = __rdtsc(); mul_36(R, A, R, M, k0); u64 t1 = __rdtsc();
		if (t1 - t0 < b1) b1 = t1 - t0;
		t0 = __rdtsc(); sqr_36(R, R, M, k0); t1 = __rdtsc();
		if (t1 - t0 < b2) b2 = t1 - t0;
		t0 = __rdtsc(); bnx_mul16_adx(r, a, r, m, 12345, 16, t); t1 = __rdtsc();
		if (t1 - t0 < bm) bm = t1 - t0;
		t0 = __rdtsc(); bnx_sqr16_adx(r, r, m, 12345, 16, t); t1 = __rdtsc();
		if (t1 - t0 < bs) bs = t1 - t0;
	}
	printf("VPMULUDQ ymm: %.2f TSC\n", vpmuludq_tsc());
	printf("4-lane mul %llu sqr %llu | MULX mul16 %llu sqr16 %llu | 4 lanes / 4 MULX: mul %.2fx sqr %.2fx\n",
	       (unsigned long long)b1, (unsigned long long)b2, (unsigned long long)bm,
	       (unsigned long long)bs, 4.0 * bm / b1, 4.0 * bs / b2);
	return bad;
}
