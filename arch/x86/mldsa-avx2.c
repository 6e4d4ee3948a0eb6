// SPDX-License-Identifier: MIT
/*
 * ML-DSA (FIPS 204) with AVX2: "mldsa44-avx2", "mldsa65-avx2",
 * "mldsa87-avx2", priority 300, over the scheme of algs/mldsa.c with the
 * hooks of struct mldsa_ops.  Requires: AVX2.
 *
 * Eight coefficients per 256-bit register, in 32-bit lanes.  A Montgomery
 * product is VPMULDQ on the even lanes and on the odd ones (shifted down):
 * the 64-bit a*b, t = a*b*q^-1 mod 2^32 (from z*q^-1 precomputed for the
 * NTT's constants), and the high half of a*b - t*q -- the generic
 * mont_reduce() bit for bit.  The NTT and its inverse do the generic
 * code's butterflies on the same values in another order (the layers of
 * distance >= 8 pair whole registers; for 4, 2 and 1 a register pair is
 * regrouped by 128-bit, 64-bit and 32-bit exchanges, as in mlkem-avx2.c),
 * with the reduction of the inverse after the same layer, so every output
 * equals algs/mldsa-poly.c's; so do the pointwise sums (64-bit
 * accumulation, one reduction), Decompose (the same 2^48-scaled
 * reciprocal) and the challenge products (exact sums: 8-bit lanes for
 * s1 and s2, 32-bit for t0).  Keys, signatures and deterministic
 * signatures are those of the generic driver (tests/test_mldsa.c
 * compares every hook and the signatures byte for byte).
 *
 * The signing loop's w (sign_w, whose only outputs are w in [0, q) and
 * w1) goes through transforms of its own: Shoup products by the
 * constants (four multiplications a register), no reduction the bounds
 * do not need, the inverse's result made canonical in its last pass.
 *
 * The signing loop's steps (the sign_* hooks) are single passes: s1, s2
 * and t0 are widened once per signature into (a, -a, a) windows, so a
 * challenge product is c->n additions of shifted windows whatever the
 * signs, and the norm checks, Decompose and the hints run in the pass
 * that finishes each product; w1 is packed in the pass that reduces w.
 *
 * Sampling runs four SHAKE streams at once (keccak-avx2.c): ExpandA four
 * matrix entries per pass, ExpandS four polynomials with a branch-free
 * rejection step, ExpandMask four consecutive counters per pass.  The
 * signing loop keeps a pool of four sponges across its attempts
 * (mldsa-pool.h, shared with mldsa-avx512.c's eight): y streams in
 * every lane, c-tilde and SampleInBall's block in lane 0 while the other
 * three go on, so no lane idles.
 *
 * Constant time: the arithmetic has no data-dependent branch or index;
 * the zeta vectors are public constants.  ExpandA's rejection works on
 * public rho; ExpandS declassifies only each nibble's keep bit (see
 * algs/mldsa-sample.c), ExpandMask rejects nothing.  The challenge's
 * positions and signs are public.  Buffers of secret streams are wiped.
 */
#include <immintrin.h>
#include <stddef.h>
#include <string.h>
#include <rind/internal/alg.h>
#include <rind/internal/util.h>
#include <crypto/keccak.h>
#include <crypto/mldsa.h>
#include "keccak-x4.h"
#include "mldsa-x86.h"

#define AVX2 __attribute__((target("avx2")))
#define AVX2_INLINE static inline __attribute__((always_inline, target("avx2")))

#define Q		MLDSA_Q
#define QINV		58728449u	/* q^-1 mod 2^32 */
#define MONT_R		4193792		/* 2^32 mod q */
#define N_INV		8347681		/* 256^-1 mod q */

/* ---- tables ---------------------------------------------------------------- */

/* zeta^BitRev8(m) R mod q, centered: algs/mldsa-poly.c's table, recomputed. */
static s32 zetas[256];
static s32 zetas_q[256];	/* zetas[m] q^-1 mod 2^32 */
static s32 zetas_n[256], zetas_nq[256];	/* -zetas[m] and its product (the inverse's) */
/* The inverse transform's final factors: R^2/256 and its product with -zetas[1]. */
static s32 inv_f, inv_f1;

/* Per-lane constants of one in-register layer, with their products by q^-1. */
struct zvec {
	s32 z[8];
	s32 zq[8];
};
/* Per register pair P (coefficients 16P .. 16P+15): distance 4, 2, 1. */
static struct zvec ntt_z4[16], ntt_z2[16], ntt_z1[16];
static struct zvec inv_z4[16], inv_z2[16], inv_z1[16];

/*
 * The signing loop's transforms (sign_w) multiply by constants with
 * Shoup's method instead: z plain (not times R), zp = floor(z 2^32 / q),
 * and zpo the odd lanes' zp in the even ones (where VPMULDQ reads).
 */
struct zsv {
	s32 z[8];
	s32 zp[8];
	s32 zpo[8];
};
static s32 shz[256], shzp[256];		/* zeta^BitRev8(m) mod q, centered, and zp */
static s32 shz_n[256], shzp_n[256];	/* -shz[m] and its zp (the inverse's) */
static s32 sh_f, sh_fp, sh_f1, sh_f1p;	/* the inverse's final factors R/256, -shz[1] R/256 */
static struct zsv sh_ntt4[16], sh_ntt2[16], sh_ntt1[16];
static struct zsv sh_inv4[16], sh_inv2[16], sh_inv1[16];

static s32 centered(u64 x)
{
	x %= Q;
	return (s32)(x > Q / 2 ? (s64)x - Q : (s64)x);
}

static s32 mont_mul_c(s32 a, s32 b)
{
	s64 p = (s64)a * b;
	s32 t = (s32)((u32)(u64)p * QINV);

	return (s32)((p - (s64)t * Q) >> 32);
}

static void zvec_set(struct zvec *v, unsigned int lane, s32 z)
{
	v->z[lane] = z;
	v->zq[lane] = (s32)((u32)z * QINV);
}

/* floor(z 2^32 / q) for |z| < q/2: in (-2^31, 2^31) */
static s32 shoup_of(s32 z)
{
	s64 n = (s64)z * ((s64)1 << 32), d = n / Q;

	return (s32)(n % Q < 0 ? d - 1 : d);
}

/* lane @lane of @v; an odd lane also fills its pair's slot of zpo */
static void zsv_set(struct zsv *v, unsigned int lane, s32 z)
{
	v->z[lane] = z;
	v->zp[lane] = shoup_of(z);
	if (lane & 1)
		v->zpo[lane - 1] = v->zpo[lane] = v->zp[lane];
}

/*
 * Regroupings of a register pair x = c[0..7], y = c[8..15], named by the
 * butterfly distance they serve; each is its own inverse.
 *   d4: X = [x0-3 | y0-3],           Y = [x4-7 | y4-7]
 *   d2: X = [x0 x1 x4 x5 | y0 y1 y4 y5], Y = [x2 x3 x6 x7 | y2 y3 y6 y7]
 *   d1: X = [x0 x2 x4 x6 | y0 ...],      Y = [x1 x3 x5 x7 | y1 ...]
 * (each applied to the previous one's output).
 */
AVX2_INLINE void swap128(__m256i *x, __m256i *y)
{
	__m256i a = *x, b = *y;

	*x = _mm256_permute2x128_si256(a, b, 0x20);
	*y = _mm256_permute2x128_si256(a, b, 0x31);
}

AVX2_INLINE void swap64(__m256i *x, __m256i *y)
{
	__m256i a = *x, b = *y;

	*x = _mm256_unpacklo_epi64(a, b);
	*y = _mm256_unpackhi_epi64(a, b);
}

AVX2_INLINE void swap32(__m256i *x, __m256i *y)
{
	__m256i a = *x, b = *y;

	*x = _mm256_blend_epi32(a, _mm256_slli_epi64(b, 32), 0xaa);
	*y = _mm256_blend_epi32(_mm256_srli_epi64(a, 32), b, 0xaa);
}

/*
 * The lane layout of each regrouping, found by regrouping the coefficient
 * indices themselves; a butterfly of distance len in the block b uses
 * zetas[128/len + b] forward and -zetas[256/len - 1 - b] inverse, b the
 * index of the lower coefficient over 2 len.
 */
static AVX2 void mldsa_avx2_tables(void)
{
	unsigned int m, P, l;
	s32 xi[8], yi[8];

	for (m = 0; m < 256; m++)
		zetas[m] = centered(rind_powmod(1753, rind_bitrev(m, 8), Q) * MONT_R);
	for (m = 0; m < 256; m++) {
		zetas_q[m] = (s32)((u32)zetas[m] * QINV);
		zetas_n[m] = -zetas[m];
		zetas_nq[m] = (s32)((u32)zetas_n[m] * QINV);
	}
	inv_f = centered((u64)MONT_R * MONT_R % Q * N_INV);
	inv_f1 = mont_mul_c(-zetas[1], inv_f);
	for (m = 0; m < 256; m++) {
		shz[m] = centered(rind_powmod(1753, rind_bitrev(m, 8), Q));
		shzp[m] = shoup_of(shz[m]);
		shz_n[m] = -shz[m];
		shzp_n[m] = shoup_of(shz_n[m]);
	}
	/* R/256 cancels the pointwise products' R^-1 and the 256 of the transform */
	sh_f = centered((u64)MONT_R * N_INV);
	sh_fp = shoup_of(sh_f);
	sh_f1 = centered((u64)(Q - shz[1]) % Q * ((u64)(sh_f + Q) % Q));
	sh_f1p = shoup_of(sh_f1);
	for (P = 0; P < 16; P++) {
		__m256i x, y;

		for (l = 0; l < 8; l++) {
			xi[l] = (s32)(16 * P + l);
			yi[l] = (s32)(16 * P + 8 + l);
		}
		x = _mm256_loadu_si256((const __m256i *)xi);
		y = _mm256_loadu_si256((const __m256i *)yi);
		swap128(&x, &y);
		_mm256_storeu_si256((__m256i *)xi, x);
		for (l = 0; l < 8; l++) {
			zvec_set(&ntt_z4[P], l, zetas[32 + xi[l] / 8]);
			zvec_set(&inv_z4[P], l, -zetas[63 - xi[l] / 8]);
			zsv_set(&sh_ntt4[P], l, shz[32 + xi[l] / 8]);
			zsv_set(&sh_inv4[P], l, shz_n[63 - xi[l] / 8]);
		}
		swap64(&x, &y);
		_mm256_storeu_si256((__m256i *)xi, x);
		for (l = 0; l < 8; l++) {
			zvec_set(&ntt_z2[P], l, zetas[64 + xi[l] / 4]);
			zvec_set(&inv_z2[P], l, -zetas[127 - xi[l] / 4]);
			zsv_set(&sh_ntt2[P], l, shz[64 + xi[l] / 4]);
			zsv_set(&sh_inv2[P], l, shz_n[127 - xi[l] / 4]);
		}
		swap32(&x, &y);
		_mm256_storeu_si256((__m256i *)xi, x);
		for (l = 0; l < 8; l++) {
			zvec_set(&ntt_z1[P], l, zetas[128 + xi[l] / 2]);
			zvec_set(&inv_z1[P], l, -zetas[255 - xi[l] / 2]);
			zsv_set(&sh_ntt1[P], l, shz[128 + xi[l] / 2]);
			zsv_set(&sh_inv1[P], l, shz_n[255 - xi[l] / 2]);
		}
	}
}

/* ---- arithmetic -------------------------------------------------------------- */

AVX2_INLINE __m256i ld(const s32 *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}

AVX2_INLINE void st(s32 *p, __m256i v)
{
	_mm256_storeu_si256((__m256i *)p, v);
}

/* The odd 32-bit lanes moved to the even ones (where VPMULDQ reads). */
AVX2_INLINE __m256i odd(__m256i a)
{
	return _mm256_castps_si256(_mm256_movehdup_ps(_mm256_castsi256_ps(a)));
}

/*
 * Montgomery reduction of the 64-bit values pe (the even lanes' products)
 * and po (the odd ones'): t = p q^-1 mod 2^32 from @te/@to (whose low
 * halves are that already), then the high half of p - t q.
 */
AVX2_INLINE __m256i mont_finish(__m256i pe, __m256i po, __m256i te, __m256i to)
{
	const __m256i q = _mm256_set1_epi32(Q);

	pe = _mm256_sub_epi64(pe, _mm256_mul_epi32(te, q));
	po = _mm256_sub_epi64(po, _mm256_mul_epi32(to, q));
	return _mm256_blend_epi32(_mm256_srli_epi64(pe, 32), po, 0xaa);
}

/*
 * a * z * R^-1 with zq = z q^-1 mod 2^32: t = a zq mod 2^32 for all eight
 * lanes in one VPMULLD (one uop on Zen 3), its odd lanes moved down for
 * the odd products: five multiplications rather than six.
 */
AVX2_INLINE __m256i mulz(__m256i a, __m256i z, __m256i zq)
{
	__m256i t = _mm256_mullo_epi32(a, zq);
	__m256i pe = _mm256_mul_epi32(a, z), po = _mm256_mul_epi32(odd(a), odd(z));

	return mont_finish(pe, po, t, odd(t));
}

/* The same with one constant in every lane (so no odd() of it). */
AVX2_INLINE __m256i mulz1(__m256i a, __m256i z, __m256i zq)
{
	__m256i t = _mm256_mullo_epi32(a, zq);
	__m256i pe = _mm256_mul_epi32(a, z), po = _mm256_mul_epi32(odd(a), z);

	return mont_finish(pe, po, t, odd(t));
}

/* Reduce 64-bit sums (even, odd lanes) as mont_reduce() does. */
AVX2_INLINE __m256i mont_reduce64(__m256i pe, __m256i po)
{
	const __m256i qinv = _mm256_set1_epi32((int)QINV);

	return mont_finish(pe, po, _mm256_mul_epu32(pe, qinv), _mm256_mul_epu32(po, qinv));
}

/* reduce32: a - round(a / 2^23) q */
AVX2_INLINE __m256i reduce32(__m256i a)
{
	__m256i t = _mm256_srai_epi32(_mm256_add_epi32(a, _mm256_set1_epi32(1 << 22)), 23);

	return _mm256_sub_epi32(a, _mm256_mullo_epi32(t, _mm256_set1_epi32(Q)));
}

/* (-q, q) to [0, q); (-q, 2q) to [0, q) */
AVX2_INLINE __m256i caddq(__m256i a)
{
	return _mm256_add_epi32(a, _mm256_and_si256(_mm256_srai_epi32(a, 31), _mm256_set1_epi32(Q)));
}

AVX2_INLINE __m256i canon(__m256i a)
{
	a = caddq(a);
	return _mm256_sub_epi32(a, _mm256_and_si256(_mm256_cmpgt_epi32(a, _mm256_set1_epi32(Q - 1)),
						    _mm256_set1_epi32(Q)));
}

struct zc {
	__m256i z, zq;
};

AVX2_INLINE struct zc zbc(s32 z)
{
	struct zc r = { _mm256_set1_epi32(z), _mm256_set1_epi32((int)((u32)z * QINV)) };

	return r;
}

/* zetas[m] (forward) and -zetas[m] (inverse) from the tables */
AVX2_INLINE struct zc zf(unsigned int m)
{
	struct zc r = { _mm256_set1_epi32(zetas[m]), _mm256_set1_epi32(zetas_q[m]) };

	return r;
}

AVX2_INLINE struct zc zi(unsigned int m)
{
	struct zc r = { _mm256_set1_epi32(zetas_n[m]), _mm256_set1_epi32(zetas_nq[m]) };

	return r;
}

/* Cooley-Tukey: (a + z b, a - z b) */
AVX2_INLINE void bf1(__m256i *a, __m256i *b, struct zc z)
{
	__m256i t = mulz1(*b, z.z, z.zq);

	*b = _mm256_sub_epi32(*a, t);
	*a = _mm256_add_epi32(*a, t);
}

AVX2_INLINE void bfv(__m256i *a, __m256i *b, const struct zvec *z)
{
	__m256i t = mulz(*b, ld(z->z), ld(z->zq));

	*b = _mm256_sub_epi32(*a, t);
	*a = _mm256_add_epi32(*a, t);
}

/* Gentleman-Sande: (a + b, w (a - b)) */
AVX2_INLINE void ibf1(__m256i *a, __m256i *b, struct zc w)
{
	__m256i t = *a;

	*a = _mm256_add_epi32(t, *b);
	*b = mulz1(_mm256_sub_epi32(t, *b), w.z, w.zq);
}

AVX2_INLINE void ibfv(__m256i *a, __m256i *b, const struct zvec *w)
{
	__m256i t = *a;

	*a = _mm256_add_epi32(t, *b);
	*b = mulz(_mm256_sub_epi32(t, *b), ld(w->z), ld(w->zq));
}

/*
 * Forward: distances 128, 64, 32 over the eight registers of a column
 * (registers c, c+4, ..., c+28); then per 32 coefficients 16 and 8, and
 * the three in-register distances of each register pair.  Written once
 * for both butterflies (Montgomery: avx2_ntt; Shoup, no reduction:
 * avx2_ntt_lazy): @BF1 a butterfly by the constant @Z(k), @BFV one by the
 * per-lane tables @T4, @T2, @T1; from @IN to @OUT (the same for in place).
 */
#define AVX2_NTT_BODY(IN, OUT, BF1, Z, BFV, T4, T2, T1)				\
	do {									\
		unsigned int c, m, g, h;					\
										\
		for (c = 0; c < 4; c++) {					\
			__m256i r[8];						\
										\
			_Pragma("GCC unroll 8")					\
			for (m = 0; m < 8; m++)					\
				r[m] = ld((IN) + 8 * (c + 4 * m));		\
			_Pragma("GCC unroll 8")					\
			for (m = 0; m < 4; m++)					\
				BF1(&r[m], &r[m + 4], Z(1));			\
			_Pragma("GCC unroll 8")					\
			for (m = 0; m < 8; m += 4) {				\
				BF1(&r[m], &r[m + 2], Z(2 + m / 4));		\
				BF1(&r[m + 1], &r[m + 3], Z(2 + m / 4));	\
			}							\
			_Pragma("GCC unroll 8")					\
			for (m = 0; m < 8; m += 2)				\
				BF1(&r[m], &r[m + 1], Z(4 + m / 2));		\
			_Pragma("GCC unroll 8")					\
			for (m = 0; m < 8; m++)					\
				st((OUT) + 8 * (c + 4 * m), r[m]);		\
		}								\
		for (g = 0; g < 8; g++) {					\
			__m256i r[4];						\
										\
			_Pragma("GCC unroll 8")					\
			for (m = 0; m < 4; m++)					\
				r[m] = ld((OUT) + 32 * g + 8 * m);		\
			BF1(&r[0], &r[2], Z(8 + g));				\
			BF1(&r[1], &r[3], Z(8 + g));				\
			BF1(&r[0], &r[1], Z(16 + 2 * g));			\
			BF1(&r[2], &r[3], Z(17 + 2 * g));			\
			_Pragma("GCC unroll 2")					\
			for (h = 0; h < 2; h++) {				\
				unsigned int P = 2 * g + h;			\
				__m256i x = r[2 * h], y = r[2 * h + 1];		\
										\
				swap128(&x, &y);				\
				BFV(&x, &y, &(T4)[P]);				\
				swap64(&x, &y);					\
				BFV(&x, &y, &(T2)[P]);				\
				swap32(&x, &y);					\
				BFV(&x, &y, &(T1)[P]);				\
				swap32(&x, &y);					\
				swap64(&x, &y);					\
				swap128(&x, &y);				\
				st((OUT) + 16 * P, x);				\
				st((OUT) + 16 * P + 8, y);			\
			}							\
		}								\
	} while (0)

static AVX2 void avx2_ntt(struct mldsa_poly *p)
{
	AVX2_NTT_BODY(p->c, p->c, bf1, zf, bfv, ntt_z4, ntt_z2, ntt_z1);
}

/*
 * Inverse: per register pair distances 1, 2, 4 and 8, then a reduction,
 * and 16 over two pairs in the same pass; 32, 64 and 128 over the
 * columns, the last with the final factor folded in.  Written once for
 * both butterflies (Montgomery: avx2_invntt, which reduces both halves
 * after distance 8 as the generic code does; Shoup: avx2_invntt_lazy,
 * which needs only one): @IBF1 by the constant @Z(k), @IBFV by the
 * tables @T1, @T2, @T4, @REDY the second half's reduction, f = @FV and
 * f1 = @FV1 (of type @FT) the final factors and @FINAL(x, f) the product
 * by one, in place on @A.
 */
#define AVX2_INVNTT_BODY(A, IBF1, Z, IBFV, T1, T2, T4, REDY, FT, FV, FV1, FINAL)\
	do {									\
		unsigned int c, m, g, P;					\
										\
		for (g = 0; g < 8; g++) {					\
			__m256i r[4];						\
			unsigned int h;						\
										\
			_Pragma("GCC unroll 2")					\
			for (h = 0; h < 2; h++) {				\
				__m256i x, y;					\
										\
				P = 2 * g + h;					\
				x = ld((A) + 16 * P);				\
				y = ld((A) + 16 * P + 8);			\
				swap128(&x, &y);				\
				swap64(&x, &y);					\
				swap32(&x, &y);					\
				IBFV(&x, &y, &(T1)[P]);				\
				swap32(&x, &y);					\
				IBFV(&x, &y, &(T2)[P]);				\
				swap64(&x, &y);					\
				IBFV(&x, &y, &(T4)[P]);				\
				swap128(&x, &y);				\
				IBF1(&x, &y, Z(31 - P));			\
				r[2 * h] = reduce32(x);				\
				r[2 * h + 1] = REDY(y);				\
			}							\
			IBF1(&r[0], &r[2], Z(15 - g));				\
			IBF1(&r[1], &r[3], Z(15 - g));				\
			_Pragma("GCC unroll 8")					\
			for (m = 0; m < 4; m++)					\
				st((A) + 32 * g + 8 * m, r[m]);			\
		}								\
		for (c = 0; c < 4; c++) {					\
			const FT f = FV, f1 = FV1;							\
			__m256i r[8];						\
										\
			_Pragma("GCC unroll 8")					\
			for (m = 0; m < 8; m++)					\
				r[m] = ld((A) + 8 * (c + 4 * m));		\
			_Pragma("GCC unroll 8")					\
			for (m = 0; m < 8; m += 2)				\
				IBF1(&r[m], &r[m + 1], Z(7 - m / 2));		\
			_Pragma("GCC unroll 8")					\
			for (m = 0; m < 8; m += 4) {				\
				IBF1(&r[m], &r[m + 2], Z(3 - m / 4));		\
				IBF1(&r[m + 1], &r[m + 3], Z(3 - m / 4));	\
			}							\
			_Pragma("GCC unroll 8")					\
			for (m = 0; m < 4; m++) {				\
				__m256i s = _mm256_add_epi32(r[m], r[m + 4]);	\
				__m256i d = _mm256_sub_epi32(r[m], r[m + 4]);	\
										\
				st((A) + 8 * (c + 4 * m), FINAL(s, f));		\
				st((A) + 8 * (c + 4 * m + 16), FINAL(d, f1));	\
			}							\
		}								\
	} while (0)

#define AVX2_INV_NOREDUCE(x)	(x)
#define AVX2_INV_FINAL_MONT(x, f)	mulz1(x, (f).z, (f).zq)
#define AVX2_INV_FINAL_SHOUP(x, f)	canon(shmul(x, (f).z, (f).zp, (f).zp))

static AVX2 void avx2_invntt(struct mldsa_poly *p)
{
	AVX2_INVNTT_BODY(p->c, ibf1, zi, ibfv, inv_z1, inv_z2, inv_z4, reduce32,
			 struct zc, zbc(inv_f), zbc(inv_f1), AVX2_INV_FINAL_MONT);
}

/*
 * The signing loop's transforms (sign_w), whose intermediate values are
 * nobody else's: products by constants with Shoup's method, and no
 * reduction the bounds do not need.  With zp = floor(z 2^32 / q) = z
 * 2^32 / q - d (0 <= d < 1), h = floor(a zp / 2^32) and r = a z - h q
 * lie in [e q, (1 + e) q) with |e| = |a d| / 2^32 < 1/4 for |a| < 2^30:
 * r in (-q/4, 5q/4), and r is exact in 32 bits (a z and h q modulo
 * 2^32, VPMULLD).  Four multiplications a register (the Montgomery
 * product takes five) and fewer of the other instructions.
 */
AVX2_INLINE __m256i shmul(__m256i a, __m256i z, __m256i zp, __m256i zpo)
{
	__m256i he = _mm256_mul_epi32(a, zp), ho = _mm256_mul_epi32(odd(a), zpo);
	__m256i h = _mm256_blend_epi32(_mm256_srli_epi64(he, 32), ho, 0xaa);
	__m256i q = _mm256_set1_epi32(Q);

	__asm__("" : "+x"(q));	/* a VPMULLD, not the compiler's shifts and additions */
	return _mm256_sub_epi32(_mm256_mullo_epi32(a, z), _mm256_mullo_epi32(h, q));
}

struct sc {
	__m256i z, zp;
};

AVX2_INLINE struct sc sbc(s32 z, s32 zp)
{
	struct sc r = { _mm256_set1_epi32(z), _mm256_set1_epi32(zp) };

	return r;
}

AVX2_INLINE void sbf1(__m256i *a, __m256i *b, struct sc z)
{
	__m256i t = shmul(*b, z.z, z.zp, z.zp);

	*b = _mm256_sub_epi32(*a, t);
	*a = _mm256_add_epi32(*a, t);
}

AVX2_INLINE void sbfv(__m256i *a, __m256i *b, const struct zsv *z)
{
	__m256i t = shmul(*b, ld(z->z), ld(z->zp), ld(z->zpo));

	*b = _mm256_sub_epi32(*a, t);
	*a = _mm256_add_epi32(*a, t);
}

AVX2_INLINE void sibf1(__m256i *a, __m256i *b, struct sc w)
{
	__m256i t = *a;

	*a = _mm256_add_epi32(t, *b);
	*b = shmul(_mm256_sub_epi32(t, *b), w.z, w.zp, w.zp);
}

AVX2_INLINE void sibfv(__m256i *a, __m256i *b, const struct zsv *w)
{
	__m256i t = *a;

	*a = _mm256_add_epi32(t, *b);
	*b = shmul(_mm256_sub_epi32(t, *b), ld(w->z), ld(w->zp), ld(w->zpo));
}

#define SF(m)	sbc(shz[m], shzp[m])
#define SI(m)	sbc(shz_n[m], shzp_n[m])

/*
 * NTT(y) from @in to @out in avx2_ntt's order of layers: |y| <= 2^19
 * grows by less than 5q/4 a layer, to |out| < 2^19 + 10 q < 2^27 (no
 * reduction); the values are those of the exact transform modulo q.
 */
static AVX2 void avx2_ntt_lazy(s32 *out, const s32 *in)
{
	AVX2_NTT_BODY(in, out, sbf1, SF, sbfv, sh_ntt4, sh_ntt2, sh_ntt1);
}

/*
 * The inverse of a pointwise sum (|a| < q, times R^-1) in avx2_invntt's
 * order, scaled by R/256, to [0, q).  A layer's sums double their bound
 * and its products are below 5q/4; the sums of the fourth layer (< 16q)
 * are reduced, so the last layer's operands stay below 20q.
 */
static AVX2 void avx2_invntt_lazy(struct mldsa_poly *p)
{
	AVX2_INVNTT_BODY(p->c, sibf1, SI, sibfv, sh_inv1, sh_inv2, sh_inv4, AVX2_INV_NOREDUCE,
			 struct sc, (sbc(sh_f, sh_fp)), (sbc(sh_f1, sh_f1p)), AVX2_INV_FINAL_SHOUP);
}
#undef SF
#undef SI

/*
 * Sixteen coefficients a step (two independent sums of each parity) and
 * the terms unrolled for the l of each parameter set, so that the
 * multiplications of consecutive terms overlap.
 */
AVX2_INLINE void pw_acc(struct mldsa_poly *r, const struct mldsa_poly *a,
			const struct mldsa_poly *b, unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i < MLDSA_N; i += 16) {
		__m256i se0 = _mm256_setzero_si256(), so0 = se0, se1 = se0, so1 = se0;

		_Pragma("GCC unroll 8")
		for (j = 0; j < n; j++) {
			__m256i x0 = ld(a[j].c + i), y0 = ld(b[j].c + i);
			__m256i x1 = ld(a[j].c + i + 8), y1 = ld(b[j].c + i + 8);

			se0 = _mm256_add_epi64(se0, _mm256_mul_epi32(x0, y0));
			so0 = _mm256_add_epi64(so0, _mm256_mul_epi32(odd(x0), odd(y0)));
			se1 = _mm256_add_epi64(se1, _mm256_mul_epi32(x1, y1));
			so1 = _mm256_add_epi64(so1, _mm256_mul_epi32(odd(x1), odd(y1)));
		}
		st(r->c + i, mont_reduce64(se0, so0));
		st(r->c + i + 8, mont_reduce64(se1, so1));
	}
}

static AVX2 void avx2_pointwise_acc(struct mldsa_poly *r, const struct mldsa_poly *a,
				    const struct mldsa_poly *b, unsigned int n)
{
	switch (n) {
	case 4:
		pw_acc(r, a, b, 4);
		break;
	case 5:
		pw_acc(r, a, b, 5);
		break;
	case 7:
		pw_acc(r, a, b, 7);
		break;
	default:
		pw_acc(r, a, b, n);
		break;
	}
}

static AVX2 void avx2_pointwise(struct mldsa_poly *r, const struct mldsa_poly *a,
				const struct mldsa_poly *b)
{
	unsigned int i;

	for (i = 0; i < MLDSA_N; i += 8) {
		__m256i x = ld(a->c + i), y = ld(b->c + i);

		st(r->c + i, mont_reduce64(_mm256_mul_epi32(x, y), _mm256_mul_epi32(odd(x), odd(y))));
	}
}

static AVX2 void avx2_poly_reduce(struct mldsa_poly *a)
{
	unsigned int i;

	for (i = 0; i < MLDSA_N; i += 8)
		st(a->c + i, reduce32(ld(a->c + i)));
}

/* ---- rounding ---------------------------------------------------------------- */

/*
 * Decompose as algs/mldsa-poly.c's decompose_c: a1 = ((r + g2 - 1) m) >>
 * 48 with m = ceil(2^48 / (2 g2)) on 64-bit products of the even and odd
 * lanes; the corner a1 = (q-1)/(2 g2) becomes (0, a0 - 1).
 */
AVX2_INLINE void decompose8(__m256i r, s32 g2, __m256i *r1, __m256i *r0)
{
	const u64 mm = (((u64)1 << 48) + 2 * (u64)g2 - 1) / (2 * (u64)g2);
	const __m256i m = _mm256_set1_epi64x((long long)mm);
	__m256i x = _mm256_add_epi32(r, _mm256_set1_epi32(g2 - 1));
	__m256i e = _mm256_srli_epi64(_mm256_mul_epu32(x, m), 48);
	__m256i o = _mm256_slli_epi64(_mm256_srli_epi64(_mm256_mul_epu32(odd(x), m), 48), 32);
	__m256i a1 = _mm256_or_si256(e, o);
	__m256i eq = _mm256_cmpeq_epi32(a1, _mm256_set1_epi32((Q - 1) / (2 * g2)));
	__m256i a0 = _mm256_sub_epi32(r, _mm256_mullo_epi32(a1, _mm256_set1_epi32(2 * g2)));

	*r1 = _mm256_andnot_si256(eq, a1);
	*r0 = _mm256_add_epi32(a0, eq);
}

#define G2_88	((MLDSA_Q - 1) / 88)
#define G2_32	((MLDSA_Q - 1) / 32)

/*
 * HighBits for r in [0, q) without the 64-bit products: a1 =
 * ceil(r / 128) scaled by a 32-bit reciprocal of 2 gamma2 / 128 and
 * rounded (highbits_raw, in [0, (q-1)/(2 gamma2)]), then the corner
 * (q-1)/(2 gamma2) to 0 (a mask for gamma2 = (q-1)/32, where it is 16;
 * a compare for (q-1)/88).  Equal to decompose8's r1 for every r in [0,
 * q) (checked exhaustively when written; tests/test_mldsa.c compares w1
 * with the generic code's).
 */
AVX2_INLINE __m256i highbits_raw(__m256i r, s32 g2)
{
	__m256i a1 = _mm256_srai_epi32(_mm256_add_epi32(r, _mm256_set1_epi32(127)), 7);

	if (g2 == G2_32) {
		a1 = _mm256_mullo_epi32(a1, _mm256_set1_epi32(1025));
		return _mm256_srai_epi32(_mm256_add_epi32(a1, _mm256_set1_epi32(1 << 21)), 22);
	}
	a1 = _mm256_mullo_epi32(a1, _mm256_set1_epi32(11275));
	return _mm256_srai_epi32(_mm256_add_epi32(a1, _mm256_set1_epi32(1 << 23)), 24);
}

AVX2_INLINE __m256i highbits8(__m256i r, s32 g2)
{
	__m256i a1 = highbits_raw(r, g2);

	if (g2 == G2_32)
		return _mm256_and_si256(a1, _mm256_set1_epi32(15));
	return _mm256_andnot_si256(_mm256_cmpgt_epi32(a1, _mm256_set1_epi32(43)), a1);
}

/*
 * Decompose from highbits_raw's a1 (in [0, (q-1)/(2 gamma2)]): r0 = r -
 * a1 2 gamma2, and at the corner a1 = (q-1)/(2 gamma2), (0, r0 - 1) --
 * decompose8's (r1, r0) with one multiplication fewer (tests/test_mldsa.c
 * checks both halves for every r through w1_pack).  In the signer's
 * split form r1 2^24 + r0; r1 in @r1.
 */
AVX2_INLINE __m256i split8(__m256i r, s32 g2, __m256i *r1)
{
	const __m256i m = _mm256_set1_epi32((Q - 1) / (2 * g2));
	__m256i a1 = highbits_raw(r, g2), eq = _mm256_cmpeq_epi32(a1, m);
	__m256i r0 = _mm256_add_epi32(_mm256_sub_epi32(r, _mm256_mullo_epi32(a1,
					_mm256_set1_epi32(2 * g2))), eq);

	*r1 = _mm256_andnot_si256(eq, a1);
	return _mm256_add_epi32(_mm256_slli_epi32(*r1, 24), r0);
}

/* One loop per gamma2, so that the constants fold. */
#define FOR_G2(g2, ...)					\
	do {						\
		if ((g2) == G2_88) {			\
			const s32 G = G2_88;		\
			__VA_ARGS__;			\
		} else {				\
			const s32 G = G2_32;		\
			__VA_ARGS__;			\
		}					\
	} while (0)

static AVX2 void avx2_poly_decompose(struct mldsa_poly *r1, struct mldsa_poly *r0,
				     const struct mldsa_poly *a, s32 gamma2)
{
	unsigned int i;

	FOR_G2(gamma2, for (i = 0; i < MLDSA_N; i += 8) {
		__m256i h, l;

		decompose8(ld(a->c + i), G, &h, &l);
		st(r1->c + i, h);
		st(r0->c + i, l);
	});
}

static AVX2 void avx2_poly_highbits(struct mldsa_poly *r1, const struct mldsa_poly *a, s32 gamma2)
{
	unsigned int i;

	FOR_G2(gamma2, for (i = 0; i < MLDSA_N; i += 8) {
		__m256i h, l;

		decompose8(ld(a->c + i), G, &h, &l);
		st(r1->c + i, h);
	});
}

/*
 * UseHint: r1 + 1 when h and r0 > 0, r1 - 1 when h and r0 <= 0, modulo m
 * = (q-1)/(2 gamma2) (16: a mask; 44: the two wrap-arounds by compare).
 */
static AVX2 void avx2_poly_use_hint(struct mldsa_poly *r, const struct mldsa_poly *a,
				    const struct mldsa_poly *hint, s32 gamma2)
{
	const __m256i zero = _mm256_setzero_si256();
	unsigned int i;

	FOR_G2(gamma2, for (i = 0; i < MLDSA_N; i += 8) {
		const s32 M = (Q - 1) / (2 * G);
		__m256i h, l, hv = ld(hint->c + i), d;

		decompose8(ld(a->c + i), G, &h, &l);
		/* d = h ? (r0 > 0 ? 1 : -1) : 0 */
		d = _mm256_sub_epi32(_mm256_slli_epi32(_mm256_and_si256(
				_mm256_cmpgt_epi32(l, zero), hv), 1), hv);
		h = _mm256_add_epi32(h, d);
		if (M == 16) {
			h = _mm256_and_si256(h, _mm256_set1_epi32(15));
		} else {
			h = _mm256_add_epi32(h, _mm256_and_si256(_mm256_cmpgt_epi32(zero, h),
								 _mm256_set1_epi32(M)));
			h = _mm256_andnot_si256(_mm256_cmpeq_epi32(h, _mm256_set1_epi32(M)), h);
		}
		st(r->c + i, h);
	});
}

/* ---- the challenge products ---------------------------------------------------- */

/*
 * r = c a exactly, as rind_mldsa_poly_mul_challenge: the terms of each
 * sign are summed 64 coefficients at a time in eight registers (the
 * positions and signs of c are public).
 */
static AVX2 void avx2_mul_challenge(struct mldsa_poly *r, const s32 *e,
				    const struct mldsa_challenge *c)
{
	const s32 *src[2][MLDSA_N];
	unsigned int cnt[2] = { 0, 0 }, k, part, s;

	for (k = 0; k < c->n; k++) {
		s = c->neg[k] != 0;
		src[s][cnt[s]++] = e + MLDSA_N - c->pos[k];
	}
	/* Eight named accumulators: an array of them stayed in memory. */
#define MC_TERMS(op, list, n)								\
	for (k = 0; k < (n); k++) {							\
		const s32 *x = (list)[k] + part;					\
											\
		a0 = op(a0, ld(x));      a1 = op(a1, ld(x + 8));			\
		a2 = op(a2, ld(x + 16)); a3 = op(a3, ld(x + 24));			\
		a4 = op(a4, ld(x + 32)); a5 = op(a5, ld(x + 40));			\
		a6 = op(a6, ld(x + 48)); a7 = op(a7, ld(x + 56));			\
	}
	for (part = 0; part < MLDSA_N; part += 64) {
		__m256i a0, a1, a2, a3, a4, a5, a6, a7;

		a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = _mm256_setzero_si256();
		MC_TERMS(_mm256_add_epi32, src[0], cnt[0]);
		MC_TERMS(_mm256_sub_epi32, src[1], cnt[1]);
		st(r->c + part, a0);
		st(r->c + part + 8, a1);
		st(r->c + part + 16, a2);
		st(r->c + part + 24, a3);
		st(r->c + part + 32, a4);
		st(r->c + part + 40, a5);
		st(r->c + part + 48, a6);
		st(r->c + part + 56, a7);
	}
#undef MC_TERMS
}

/*
 * The same for |a| <= eta (s1, s2), in 8-bit lanes: thirty-two
 * coefficients a register, the whole product in eight registers, a
 * quarter of the loads of the 32-bit version.  The terms go in chunks
 * of at most 31 (127 / 4), so no 8-bit partial sum can overflow; each chunk
 * is widened and added to r.  The operand is narrowed once per call
 * (|a| <= 4: no saturation).
 */
static AVX2 void avx2_mul_challenge_eta(struct mldsa_poly *r, const s32 *e,
					const struct mldsa_challenge *c)
{
	const __m256i fix = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
	s8 e8[2 * MLDSA_N];
	const s8 *src[MLDSA_N];
	unsigned int np = 0, nn = 0, n = c->n, k, k0, k1, i, m;
	__m256i acc[8];

	for (i = 0; i < 2 * MLDSA_N; i += 32) {
		__m256i ab = _mm256_packs_epi32(ld(e + i), ld(e + i + 8));
		__m256i cd = _mm256_packs_epi32(ld(e + i + 16), ld(e + i + 24));
		__m256i v = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(ab, cd), fix);

		_mm256_storeu_si256((__m256i *)(e8 + i), v);
	}
	/* the positive terms first, then the negative ones (public positions) */
	for (k = 0; k < n; k++)
		np += !c->neg[k];
	for (k = 0; k < n; k++) {
		if (c->neg[k])
			src[np + nn++] = e8 + MLDSA_N - c->pos[k];
		else
			src[k - nn] = e8 + MLDSA_N - c->pos[k];
	}
	/* |a| <= eta <= 4: 31 terms keep every 8-bit sum within [-124, 124] */
#define CHUNK	(127 / 4)
#define L8(p) _mm256_loadu_si256((const __m256i *)(p))
	for (k0 = 0; k0 < n; k0 = k1) {
		k1 = k0 + CHUNK < n ? k0 + CHUNK : n;
		for (m = 0; m < 8; m++)
			acc[m] = _mm256_setzero_si256();
		for (k = k0; k < k1 && k < np; k++) {
			const s8 *x = src[k];

			_Pragma("GCC unroll 8")
			for (m = 0; m < 8; m++)
				acc[m] = _mm256_add_epi8(acc[m], L8(x + 32 * m));
		}
		for (; k < k1; k++) {
			const s8 *x = src[k];

			_Pragma("GCC unroll 8")
			for (m = 0; m < 8; m++)
				acc[m] = _mm256_sub_epi8(acc[m], L8(x + 32 * m));
		}
		_Pragma("GCC unroll 8")
		for (m = 0; m < 8; m++) {
			__m128i lo = _mm256_castsi256_si128(acc[m]), hi = _mm256_extracti128_si256(acc[m], 1);
			__m256i w[4] = {
				_mm256_cvtepi8_epi32(lo), _mm256_cvtepi8_epi32(_mm_srli_si128(lo, 8)),
				_mm256_cvtepi8_epi32(hi), _mm256_cvtepi8_epi32(_mm_srli_si128(hi, 8)),
			};
			unsigned int q;

			for (q = 0; q < 4; q++) {
				s32 *o = r->c + 32 * m + 8 * q;

				st(o, k0 ? _mm256_add_epi32(ld(o), w[q]) : w[q]);
			}
		}
	}
	if (!n)
		memset(r, 0, sizeof(*r));
#undef L8
#undef CHUNK
	memzero_explicit(e8, sizeof(e8));
}

/* ---- the signing loop's steps ---------------------------------------------------- */

/*
 * struct mldsa_sign_pre in this driver's layout: s1 and s2 as 8-bit
 * E = (a, -a, a) (768 bytes each, s1[j] at j, s2[i] at LMAX + i), then t0
 * as 16-bit E (768 entries each, |t0| <= 2^12).  With c = sum_k X^sh[k] (sh in [0,
 * 512): sign folded into the shift, X^256 = -1), coefficient m of X^sh a
 * is E[512 + m - sh]: every term of a challenge product is one addition
 * of a contiguous 256-entry window, whatever its sign.  The windows'
 * positions are public (they come from c-tilde).
 */
#define E_LEN		(3 * MLDSA_N)
#define E8_OFF(idx)	((size_t)E_LEN * (idx))
#define E16_OFF		E8_OFF(MLDSA_LMAX + MLDSA_KMAX)

_Static_assert(E16_OFF + (size_t)MLDSA_KMAX * E_LEN * 2 <= sizeof(struct mldsa_sign_pre),
	       "the AVX2 layout fits struct mldsa_sign_pre");
_Static_assert(E16_OFF % 32 == 0, "16-bit windows aligned");

static inline s8 *pre_e8(struct mldsa_sign_pre *pre, unsigned int idx)
{
	return (s8 *)pre->e + E8_OFF(idx);
}

static inline const s8 *pre_e8c(const struct mldsa_sign_pre *pre, unsigned int idx)
{
	return (const s8 *)pre->e + E8_OFF(idx);
}

static inline s16 *pre_e16(struct mldsa_sign_pre *pre, unsigned int i)
{
	return (s16 *)(void *)((u8 *)pre->e + E16_OFF) + (size_t)E_LEN * i;
}

static inline const s16 *pre_e16c(const struct mldsa_sign_pre *pre, unsigned int i)
{
	return (const s16 *)(const void *)((const u8 *)pre->e + E16_OFF) + (size_t)E_LEN * i;
}

/* (a, -a, a) in 8-bit lanes from |a| <= 4 (no saturation). */
static AVX2 void ext8(s8 *e, const struct mldsa_poly *a)
{
	const __m256i fix = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
	unsigned int i;

	for (i = 0; i < MLDSA_N; i += 32) {
		__m256i ab = _mm256_packs_epi32(ld(a->c + i), ld(a->c + i + 8));
		__m256i cd = _mm256_packs_epi32(ld(a->c + i + 16), ld(a->c + i + 24));
		__m256i v = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(ab, cd), fix);

		_mm256_storeu_si256((__m256i *)(e + i), v);
		_mm256_storeu_si256((__m256i *)(e + MLDSA_N + i),
				    _mm256_sub_epi8(_mm256_setzero_si256(), v));
		_mm256_storeu_si256((__m256i *)(e + 2 * MLDSA_N + i), v);
	}
}

/* (a, -a, a) in 16-bit lanes from |a| <= 2^12 */
static AVX2 void ext16(s16 *e, const struct mldsa_poly *a)
{
	unsigned int i;

	for (i = 0; i < MLDSA_N; i += 16) {
		__m256i v = _mm256_permute4x64_epi64(_mm256_packs_epi32(ld(a->c + i), ld(a->c + i + 8)),
						     0xd8);

		_mm256_storeu_si256((__m256i *)(e + i), v);
		_mm256_storeu_si256((__m256i *)(e + MLDSA_N + i),
				    _mm256_sub_epi16(_mm256_setzero_si256(), v));
		_mm256_storeu_si256((__m256i *)(e + 2 * MLDSA_N + i), v);
	}
}

static AVX2 void avx2_sign_prepare(struct mldsa_sign_pre *pre, const struct mldsa_key *key)
{
	const struct mldsa_params *p = key->p;
	unsigned int i;

	for (i = 0; i < p->l; i++)
		ext8(pre_e8(pre, i), &key->s1[i]);
	for (i = 0; i < p->k; i++) {
		ext8(pre_e8(pre, MLDSA_LMAX + i), &key->s2[i]);
		ext16(pre_e16(pre, i), &key->t0[i]);
	}
}

/* all ones in the lanes where |a| >= bound (|a| < 2^31) */
AVX2_INLINE __m256i over(__m256i a, s32 bound)
{
	return _mm256_cmpgt_epi32(_mm256_abs_epi32(a), _mm256_set1_epi32(bound - 1));
}

/* The mask (all ones or 0) of "some lane of @v is nonzero", without a branch. */
AVX2_INLINE u32 any_mask(__m256i v)
{
	u32 m = (u32)_mm256_movemask_epi8(v);

	return 0u - ((m | (0u - m)) >> 31);
}

/*
 * The sum of the windows of the terms k0 .. k1 - 1 (at most 127 / eta:
 * 31 for eta = 4, 63 for eta = 2, so every 8-bit sum stays within 127;
 * ML-DSA-44 and -87 need one chunk) in eight registers of 32
 * coefficients; @e points at E + 512.
 */
#define ETA_CHUNK	(127 / p->eta)
#define ETA_SUM(e, c, k0, k1)								\
	do {										\
		unsigned int k_;							\
											\
		a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = _mm256_setzero_si256();	\
		k_ = (k0);								\
		if (((k1) - k_) & 1) {							\
			const s8 *x_ = (e) - (c)->sh[k_++];				\
											\
			a0 = L8(x_);       a1 = L8(x_ + 32);				\
			a2 = L8(x_ + 64);  a3 = L8(x_ + 96);				\
			a4 = L8(x_ + 128); a5 = L8(x_ + 160);				\
			a6 = L8(x_ + 192); a7 = L8(x_ + 224);				\
		}									\
		/* two terms a step, each pair summed before the accumulator */	\
		for (; k_ < (k1); k_ += 2) {						\
			const s8 *x_ = (e) - (c)->sh[k_], *y_ = (e) - (c)->sh[k_ + 1];	\
											\
			a0 = _mm256_add_epi8(a0, _mm256_add_epi8(L8(x_), L8(y_)));	\
			a1 = _mm256_add_epi8(a1, _mm256_add_epi8(L8(x_ + 32), L8(y_ + 32)));	\
			a2 = _mm256_add_epi8(a2, _mm256_add_epi8(L8(x_ + 64), L8(y_ + 64)));	\
			a3 = _mm256_add_epi8(a3, _mm256_add_epi8(L8(x_ + 96), L8(y_ + 96)));	\
			a4 = _mm256_add_epi8(a4, _mm256_add_epi8(L8(x_ + 128), L8(y_ + 128)));	\
			a5 = _mm256_add_epi8(a5, _mm256_add_epi8(L8(x_ + 160), L8(y_ + 160)));	\
			a6 = _mm256_add_epi8(a6, _mm256_add_epi8(L8(x_ + 192), L8(y_ + 192)));	\
			a7 = _mm256_add_epi8(a7, _mm256_add_epi8(L8(x_ + 224), L8(y_ + 224)));	\
		}									\
	} while (0)
#define L8(p) _mm256_loadu_si256((const __m256i *)(p))

/* The 32 coefficients of one 8-bit register as four 32-bit registers. */
AVX2_INLINE void widen8(__m256i a, __m256i w[4])
{
	__m128i lo = _mm256_castsi256_si128(a), hi = _mm256_extracti128_si256(a, 1);

	w[0] = _mm256_cvtepi8_epi32(lo);
	w[1] = _mm256_cvtepi8_epi32(_mm_srli_si128(lo, 8));
	w[2] = _mm256_cvtepi8_epi32(hi);
	w[3] = _mm256_cvtepi8_epi32(_mm_srli_si128(hi, 8));
}

/*
 * The sum of the windows of the terms k0 .. k1 - 1 over the 128
 * coefficients at @e (four registers), two terms a step.
 */
#define ETA_SUM4(e, c, k0, k1, x0, x1, x2, x3)						\
	do {										\
		unsigned int k_ = (k0);							\
											\
		x0 = x1 = x2 = x3 = _mm256_setzero_si256();				\
		if (((k1) - k_) & 1) {							\
			const s8 *u_ = (e) - (c)->sh[k_++];				\
											\
			x0 = L8(u_); x1 = L8(u_ + 32); x2 = L8(u_ + 64); x3 = L8(u_ + 96);	\
		}									\
		for (; k_ < (k1); k_ += 2) {						\
			const s8 *u_ = (e) - (c)->sh[k_], *v_ = (e) - (c)->sh[k_ + 1];	\
											\
			x0 = _mm256_add_epi8(x0, _mm256_add_epi8(L8(u_), L8(v_)));	\
			x1 = _mm256_add_epi8(x1, _mm256_add_epi8(L8(u_ + 32), L8(v_ + 32)));	\
			x2 = _mm256_add_epi8(x2, _mm256_add_epi8(L8(u_ + 64), L8(v_ + 64)));	\
			x3 = _mm256_add_epi8(x3, _mm256_add_epi8(L8(u_ + 96), L8(v_ + 96)));	\
		}									\
	} while (0)

/* two chunks' 8-bit sums of 32 coefficients, added and widened to four registers */
AVX2_INLINE void widen_two(__m256i a, __m256i b, __m256i wd[4])
{
	__m128i al = _mm256_castsi256_si128(a), ah = _mm256_extracti128_si256(a, 1);
	__m128i bl = _mm256_castsi256_si128(b), bh = _mm256_extracti128_si256(b, 1);
	__m256i lo = _mm256_add_epi16(_mm256_cvtepi8_epi16(al), _mm256_cvtepi8_epi16(bl));
	__m256i hi = _mm256_add_epi16(_mm256_cvtepi8_epi16(ah), _mm256_cvtepi8_epi16(bh));

	wd[0] = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(lo));
	wd[1] = _mm256_cvtepi16_epi32(_mm256_extracti128_si256(lo, 1));
	wd[2] = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(hi));
	wd[3] = _mm256_cvtepi16_epi32(_mm256_extracti128_si256(hi, 1));
}

/* sign_z over two chunks of terms, as sign_r_two below */
static AVX2 u32 sign_z_two(struct mldsa_poly *z, const s8 *e, const struct mldsa_challenge *c,
			   unsigned int split, s32 bound)
{
	__m256i bad = _mm256_setzero_si256();
	unsigned int h, m, q, n = c->n;

	for (h = 0; h < 2; h++) {
		const s8 *eh = e + 128 * h;
		__m256i a0, a1, a2, a3, b0, b1, b2, b3;

		ETA_SUM4(eh, c, 0, split, a0, a1, a2, a3);
		ETA_SUM4(eh, c, split, n, b0, b1, b2, b3);
		{
			const __m256i acc[4] = { a0, a1, a2, a3 }, bcc[4] = { b0, b1, b2, b3 };

			_Pragma("GCC unroll 4")
			for (m = 0; m < 4; m++) {
				__m256i wd[4];

				widen_two(acc[m], bcc[m], wd);
				for (q = 0; q < 4; q++) {
					s32 *o = z->c + 128 * h + 32 * m + 8 * q;
					__m256i v = _mm256_add_epi32(ld(o), wd[q]);

					st(o, v);
					bad = _mm256_or_si256(bad, over(v, bound));
				}
			}
		}
	}
	return any_mask(bad);
}

/* z += c s1[j] and its norm check in the last chunk's pass. */
static AVX2 u32 avx2_sign_z(struct mldsa_poly *z, const struct mldsa_sign_pre *pre, unsigned int j,
			    const struct mldsa_challenge *c, const struct mldsa_params *p)
{
	const s8 *e = pre_e8c(pre, j) + 2 * MLDSA_N;
	const s32 bound = ((s32)1 << p->gamma1_bits) - (s32)p->beta;
	__m256i a0, a1, a2, a3, a4, a5, a6, a7, bad = _mm256_setzero_si256();
	unsigned int k0 = 0, k1, n = c->n, m, q;

	if (n > ETA_CHUNK && n <= 2 * ETA_CHUNK)
		return sign_z_two(z, e, c, ETA_CHUNK, bound);
	do {
		k1 = n - k0 > ETA_CHUNK ? k0 + ETA_CHUNK : n;
		ETA_SUM(e, c, k0, k1);
		{
			const __m256i acc[8] = { a0, a1, a2, a3, a4, a5, a6, a7 };

			_Pragma("GCC unroll 8")
			for (m = 0; m < 8; m++) {
				__m256i w[4];

				widen8(acc[m], w);
				for (q = 0; q < 4; q++) {
					s32 *o = z->c + 32 * m + 8 * q;
					__m256i v = _mm256_add_epi32(ld(o), w[q]);

					st(o, v);
					if (k1 == n)
						bad = _mm256_or_si256(bad, over(v, bound));
				}
			}
		}
		k0 = k1;
	} while (k0 < n);
	return any_mask(bad);
}

/* w0 - c s2 in the low part of w's split form (sign-extended 24 bits) */
AVX2_INLINE __m256i split_lo(__m256i v)
{
	return _mm256_srai_epi32(_mm256_slli_epi32(v, 8), 8);
}

/*
 * w (in [0, q)) to its split form, in the first chunk's pass, minus c
 * s2[i] (the low part becomes w0 - c s2), checked against gamma2 - beta
 * in the last chunk's pass; one body per gamma2 (G a constant).
 */
#define SIGN_R_BODY(G)									\
	do {										\
		k1 = n - k0 > ETA_CHUNK ? k0 + ETA_CHUNK : n;				\
		ETA_SUM(e, c, k0, k1);							\
		{									\
			const __m256i acc[8] = { a0, a1, a2, a3, a4, a5, a6, a7 };	\
											\
			_Pragma("GCC unroll 8")						\
			for (m = 0; m < 8; m++) {					\
				__m256i wd[4];						\
											\
				widen8(acc[m], wd);					\
				for (q = 0; q < 4; q++) {				\
					unsigned int o = 32 * m + 8 * q;		\
					__m256i v = ld(w->c + o), h_;			\
											\
					if (k0 == 0)					\
						v = split8(v, G, &h_);			\
					v = _mm256_sub_epi32(v, wd[q]);			\
					if (k1 == n)					\
						bad = _mm256_or_si256(bad, over(split_lo(v), bound));	\
					st(w->c + o, v);				\
				}							\
			}								\
		}									\
		k0 = k1;								\
	} while (k0 < n)

/*
 * sign_r when the terms take two chunks (ML-DSA-65: 49 terms of |a| <=
 * 4): half a polynomial at a time, both chunks' 8-bit sums in eight
 * registers, added in 16-bit lanes and widened once, so that w is read
 * and written in one pass instead of one a chunk.
 */
static AVX2 u32 sign_r_two(struct mldsa_poly *w, const s8 *e, const struct mldsa_challenge *c,
			   unsigned int split, s32 bound)
{
	__m256i bad = _mm256_setzero_si256();
	unsigned int h, m, q, n = c->n;

	for (h = 0; h < 2; h++) {
		const s8 *eh = e + 128 * h;
		__m256i a0, a1, a2, a3, b0, b1, b2, b3;

		ETA_SUM4(eh, c, 0, split, a0, a1, a2, a3);
		ETA_SUM4(eh, c, split, n, b0, b1, b2, b3);
		{
			const __m256i acc[4] = { a0, a1, a2, a3 }, bcc[4] = { b0, b1, b2, b3 };

			_Pragma("GCC unroll 4")
			for (m = 0; m < 4; m++) {
				__m256i wd[4];

				widen_two(acc[m], bcc[m], wd);
				for (q = 0; q < 4; q++) {
					unsigned int o = 128 * h + 32 * m + 8 * q;
					__m256i h1, v = _mm256_sub_epi32(split8(ld(w->c + o), G2_32, &h1), wd[q]);

					bad = _mm256_or_si256(bad, over(split_lo(v), bound));
					st(w->c + o, v);
				}
			}
		}
	}
	return any_mask(bad);
}
#undef ETA_SUM4

static AVX2 u32 avx2_sign_r(struct mldsa_poly *w, const struct mldsa_sign_pre *pre, unsigned int i,
			    const struct mldsa_challenge *c, const struct mldsa_params *p)
{
	const s8 *e = pre_e8c(pre, MLDSA_LMAX + i) + 2 * MLDSA_N;
	const s32 bound = p->gamma2 - (s32)p->beta;
	__m256i a0, a1, a2, a3, a4, a5, a6, a7, bad = _mm256_setzero_si256();
	unsigned int k0 = 0, k1, n = c->n, m, q;

	/* two chunks (eta = 4 goes with gamma2 = (q-1)/32 in FIPS 204) */
	if (n > ETA_CHUNK && n <= 2 * ETA_CHUNK && p->gamma2 == G2_32)
		return sign_r_two(w, e, c, ETA_CHUNK, bound);
	if (p->gamma2 == G2_88)
		SIGN_R_BODY(G2_88);
	else
		SIGN_R_BODY(G2_32);
	return any_mask(bad);
}
#undef SIGN_R_BODY

/*
 * c t0[i], 128 coefficients a pass: the terms summed up to seven at a
 * time (|t0| <= 2^12: seven stay within 2^15) in 16-bit lanes, eight
 * registers, two terms a step; each chunk widened and added to @acc;
 * then, 64 coefficients at a time, the check against gamma2, v = r + c
 * t0 (r = w1 2 gamma2 + x from w's split form) and the hint
 * HighBits(v) != w1.
 */
#define T0_CHUNK	7
static AVX2 u32 avx2_sign_hint(struct mldsa_poly *h, const struct mldsa_poly *w,
			       const struct mldsa_sign_pre *pre, unsigned int i,
			       const struct mldsa_challenge *c, const struct mldsa_params *p,
			       u32 *count)
{
	const s16 *e = pre_e16c(pre, i) + 2 * MLDSA_N;
	const __m256i one = _mm256_set1_epi32(1);
	__m256i bad = _mm256_setzero_si256(), cnt = _mm256_setzero_si256();
	unsigned int n = c->n, k, k0, k1, half, part, m;
	s32 acc32[MLDSA_N] __attribute__((aligned(32)));
	u32 sum[8], total = 0;

	for (half = 0; half < MLDSA_N; half += 128) {
		for (k0 = 0; k0 < n; k0 = k1) {
			__m256i x0, x1, x2, x3, x4, x5, x6, x7;

			k1 = n - k0 > T0_CHUNK ? k0 + T0_CHUNK : n;
			x0 = x1 = x2 = x3 = x4 = x5 = x6 = x7 = _mm256_setzero_si256();
			k = k0;
#define L16(p, o) _mm256_loadu_si256((const __m256i *)((p) + (o)))
			if ((k1 - k0) & 1) {
				const s16 *u = e - c->sh[k++] + half;

				x0 = L16(u, 0);  x1 = L16(u, 16); x2 = L16(u, 32); x3 = L16(u, 48);
				x4 = L16(u, 64); x5 = L16(u, 80); x6 = L16(u, 96); x7 = L16(u, 112);
			}
			for (; k < k1; k += 2) {
				const s16 *u = e - c->sh[k] + half, *v = e - c->sh[k + 1] + half;

#define ADD2(a, o) a = _mm256_add_epi16(a, _mm256_add_epi16(L16(u, o), L16(v, o)))
				ADD2(x0, 0);  ADD2(x1, 16); ADD2(x2, 32); ADD2(x3, 48);
				ADD2(x4, 64); ADD2(x5, 80); ADD2(x6, 96); ADD2(x7, 112);
#undef ADD2
			}
#undef L16
			{
				const __m256i xs[8] = { x0, x1, x2, x3, x4, x5, x6, x7 };

				_Pragma("GCC unroll 8")
				for (m = 0; m < 8; m++) {
					s32 *o = acc32 + half + 16 * m;
					__m256i lo = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(xs[m]));
					__m256i hi = _mm256_cvtepi16_epi32(_mm256_extracti128_si256(xs[m], 1));

					st(o, k0 ? _mm256_add_epi32(ld(o), lo) : lo);
					st(o + 8, k0 ? _mm256_add_epi32(ld(o + 8), hi) : hi);
				}
			}
		}
	}
	if (!n)
		memset(acc32, 0, sizeof(acc32));
	for (part = 0; part < MLDSA_N; part += 64) {
		{
			_Pragma("GCC unroll 8")
			for (m = 0; m < 8; m++) {
				unsigned int o = part + 8 * m;
				__m256i sv = ld(w->c + o), x = split_lo(sv), hi, hb, v, a = ld(acc32 + o);
				__m256i w1 = _mm256_srai_epi32(_mm256_sub_epi32(sv, x), 24);

				/* v = w1 2 gamma2 + x + c t0 */
				v = _mm256_mullo_epi32(w1, _mm256_set1_epi32(2 * p->gamma2));
				v = canon(_mm256_add_epi32(_mm256_add_epi32(v, x), a));
				bad = _mm256_or_si256(bad, over(a, p->gamma2));
				FOR_G2(p->gamma2, hi = highbits8(v, G));
				hb = _mm256_andnot_si256(_mm256_cmpeq_epi32(hi, w1), one);
				st(h->c + o, hb);
				cnt = _mm256_add_epi32(cnt, hb);
			}
		}
	}
	_mm256_storeu_si256((__m256i *)sum, cnt);
	for (m = 0; m < 8; m++)
		total += sum[m];
	*count += total;
	memzero_explicit(acc32, sizeof(acc32));
	return any_mask(bad);
}
#undef T0_CHUNK

/*
 * w = caddq(w) (unless @canonical: w in [0, q) already, left as it
 * is) and w1Encode(HighBits(w)): 32 coefficients narrowed to
 * bytes (in order after a dword permutation), then pairs of 4-bit values
 * to bytes (gamma2 = (q-1)/32), or quadruples of 6-bit values to 3 bytes
 * ((q-1)/88).
 */
AVX2_INLINE void w1_pack(u8 *out, struct mldsa_poly *w, s32 gamma2, bool canonical)
{
	const __m256i fix = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
	unsigned int i, m;

	if (gamma2 == G2_32) {
		for (i = 0; i < MLDSA_N; i += 64) {
			__m256i b[2];

			for (m = 0; m < 2; m++) {
				__m256i r[4], t, u;
				unsigned int q;

				for (q = 0; q < 4; q++) {
					__m256i v = ld(w->c + i + 32 * m + 8 * q);

					if (!canonical) {
						v = caddq(v);
						st(w->c + i + 32 * m + 8 * q, v);
					}
					r[q] = highbits8(v, G2_32);
				}
				t = _mm256_packus_epi32(r[0], r[1]);
				u = _mm256_packus_epi32(r[2], r[3]);
				t = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(t, u), fix);
				b[m] = _mm256_maddubs_epi16(t, _mm256_set1_epi16(0x1001));
			}
			_mm256_storeu_si256((__m256i *)(out + i / 2),
					    _mm256_permute4x64_epi64(_mm256_packus_epi16(b[0], b[1]), 0xd8));
		}
		return;
	}
	for (i = 0; i < MLDSA_N; i += 32, out += 24) {
		const __m256i sel = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
						     0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
		__m256i r[4], t, u;
		__m128i lo, hi;
		unsigned int q;

		for (q = 0; q < 4; q++) {
			__m256i v = ld(w->c + i + 8 * q);

			if (!canonical) {
				v = caddq(v);
				st(w->c + i + 8 * q, v);
			}
			r[q] = highbits8(v, G2_88);
		}
		t = _mm256_packus_epi32(r[0], r[1]);
		u = _mm256_packus_epi32(r[2], r[3]);
		t = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(t, u), fix);
		t = _mm256_maddubs_epi16(t, _mm256_set1_epi16(0x4001));
		t = _mm256_madd_epi16(t, _mm256_set1_epi32(0x10000001));
		t = _mm256_shuffle_epi8(t, sel);
		lo = _mm256_castsi256_si128(t);
		hi = _mm256_extracti128_si256(t, 1);
		_mm_storel_epi64((__m128i *)out, lo);
		put_unaligned_le32((u32)_mm_extract_epi32(lo, 2), out + 8);
		_mm_storel_epi64((__m128i *)(out + 12), hi);
		put_unaligned_le32((u32)_mm_extract_epi32(hi, 2), out + 20);
	}
}
#undef L8

static AVX2 void avx2_w1_pack(u8 *out, struct mldsa_poly *w, s32 gamma2)
{
	w1_pack(out, w, gamma2, false);
}

/* One attempt's w and w1 (struct mldsa_ops' sign_w): the transforms above. */
static AVX2 void avx2_sign_w(const struct mldsa_key *key, const struct mldsa_poly *y,
			     struct mldsa_poly *yh, struct mldsa_poly *w, u8 *w1)
{
	const struct mldsa_params *p = key->p;
	const unsigned int wb = p->gamma2 == G2_88 ? 192 : 128;
	unsigned int i, j;

	for (j = 0; j < p->l; j++)
		avx2_ntt_lazy(yh[j].c, y[j].c);
	for (i = 0; i < p->k; i++) {
		avx2_pointwise_acc(&w[i], key->a[i], yh, p->l);
		avx2_invntt_lazy(&w[i]);
		w1_pack(w1 + wb * i, &w[i], p->gamma2, true);	/* w is in [0, q) */
	}
}

/* ---- sampling ------------------------------------------------------------------ */

static u8 rej_idx[256][8];

/*
 * RejNTTPoly's step over @len bytes of one stream (public: rho).  Eight
 * candidates a step while 32 bytes are left to read and n <= 248: the
 * three bytes of each moved to a 32-bit lane (each 128-bit half takes
 * its twelve), masked to 23 bits, compared with q; the accepted ones
 * moved to the front by rej_idx[mask] and stored (the lanes past them
 * land below index 256 and are overwritten by the next ones); the rest
 * one at a time as the generic code does.
 */
static AVX2 unsigned int rej_uniform(s32 *a, unsigned int n, const u8 *buf, unsigned int len)
{
	const __m256i sel = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
					     4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1);
	const __m256i m23 = _mm256_set1_epi32(0x7fffff), q = _mm256_set1_epi32(Q);
	unsigned int pos = 0;

	for (; pos + 32 <= len && n <= MLDSA_N - 8; pos += 24) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(buf + pos));
		unsigned int m;

		/* 64-bit words 0 1 1 2: bytes 0-15 low, 8-23 high */
		x = _mm256_permute4x64_epi64(x, 0x94);
		x = _mm256_and_si256(_mm256_shuffle_epi8(x, sel), m23);
		m = (unsigned int)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(q, x)));
		x = _mm256_permutevar8x32_epi32(x, _mm256_cvtepu8_epi32(
				_mm_loadl_epi64((const __m128i *)rej_idx[m])));
		_mm256_storeu_si256((__m256i *)(a + n), x);
		n += (unsigned int)__builtin_popcount(m);
	}
	for (; pos + 3 <= len && n < MLDSA_N; pos += 3) {
		u32 z = buf[pos] | (u32)buf[pos + 1] << 8 | (u32)(buf[pos + 2] & 0x7f) << 16;

		if (z < Q)
			a[n++] = (s32)z;
	}
	return n;
}

#define A_BLOCKS	5	/* 280 candidates, as the generic code */

/*
 * A-hat[r][s] = RejNTTPoly(rho || s || r), four entries per pass of the
 * four-way permutation; the spare lanes of the last pass repeat an entry.
 * 168-byte blocks hold whole 3-byte candidates, so each block is taken
 * on its own, as the generic code does.
 */
static AVX2 void avx2_expand_a(struct mldsa_key *key)
{
	const struct mldsa_params *p = key->p;
	unsigned int n = p->k * p->l, e, l;
	u8 in[4][34], buf[4][A_BLOCKS * SHAKE128_RATE];
	const u8 *const inp[4] = { in[0], in[1], in[2], in[3] };
	u8 *const outp[4] = { buf[0], buf[1], buf[2], buf[3] };
	struct keccakx4_state ks;

	for (e = 0; e < n; e += 4) {
		unsigned int ctr[4], idx[4];
		bool more;

		for (l = 0; l < 4; l++) {
			idx[l] = e + l < n ? e + l : e;
			memcpy(in[l], key->rho, 32);
			in[l][32] = (u8)(idx[l] % p->l);	/* s */
			in[l][33] = (u8)(idx[l] / p->l);	/* r */
		}
		keccakx4_absorb_once(&ks, SHAKE128_RATE, KECCAK_DS_SHAKE, inp, 34);
		keccakx4_squeeze_blocks(&ks, SHAKE128_RATE, outp, A_BLOCKS);
		for (l = 0; l < 4; l++)
			ctr[l] = rej_uniform(key->a[idx[l] / p->l][idx[l] % p->l].c, 0, buf[l],
					     A_BLOCKS * SHAKE128_RATE);
		for (;;) {
			more = false;
			for (l = 0; l < 4; l++)
				more |= ctr[l] < MLDSA_N;
			if (!more)
				break;
			keccakx4_squeeze_blocks(&ks, SHAKE128_RATE, outp, 1);
			for (l = 0; l < 4; l++)
				ctr[l] = rej_uniform(key->a[idx[l] / p->l][idx[l] % p->l].c, ctr[l],
						     buf[l], SHAKE128_RATE);
		}
	}
}

/*
 * RejBoundedPoly's step over @len bytes (a multiple of 8), sixteen
 * nibbles at a time without a branch per nibble: the nibbles in stream
 * order (low, then high, of each byte), compared with the bound; the
 * accepted ones moved to the front by a byte shuffle chosen by each
 * half's acceptance mask, mapped to eta - (b mod 5) or eta - b, widened
 * and stored.  As in algs/mldsa-sample.c only the acceptance pattern is
 * declassified (it says nothing about the values kept); it selects the
 * shuffle and the count.  @a has 16 spare entries past MLDSA_N.
 */
static void rej_tables(void)
{
	unsigned int m, b, n;

	for (m = 0; m < 256; m++) {
		for (b = 0, n = 0; b < 8; b++)
			if (m & (1u << b))
				rej_idx[m][n++] = (u8)b;
		for (; n < 8; n++)
			rej_idx[m][n] = 0x80;
	}
}

static AVX2 unsigned int rej_eta(s32 *a, unsigned int n, const u8 *buf, unsigned int len,
				 unsigned int eta)
{
	const __m128i m0f = _mm_set1_epi8(0x0f), bound = _mm_set1_epi8(eta == 2 ? 15 : 9);
	unsigned int pos;

	for (pos = 0; pos < len && n < MLDSA_N; pos += 8) {
		__m128i x = _mm_loadl_epi64((const __m128i *)(buf + pos)), t, v, hi;
		u32 keep, k0, k1;

		x = _mm_unpacklo_epi8(_mm_and_si128(x, m0f), _mm_and_si128(_mm_srli_epi16(x, 4), m0f));
		keep = (u32)_mm_movemask_epi8(_mm_cmpgt_epi8(bound, x));
		rind_declassify(&keep, sizeof(keep));
		if (eta == 2) {
			/* b mod 5 = b - 5 floor(b 205 / 2^10), in 16-bit lanes */
			__m128i lo16 = _mm_cvtepu8_epi16(x), hi16 = _mm_cvtepu8_epi16(_mm_srli_si128(x, 8));
			__m128i c205 = _mm_set1_epi16(205), c5 = _mm_set1_epi16(5);

			lo16 = _mm_sub_epi16(lo16, _mm_mullo_epi16(_mm_srli_epi16(_mm_mullo_epi16(lo16, c205), 10), c5));
			hi16 = _mm_sub_epi16(hi16, _mm_mullo_epi16(_mm_srli_epi16(_mm_mullo_epi16(hi16, c205), 10), c5));
			t = _mm_packus_epi16(lo16, hi16);
		} else {
			t = x;
		}
		v = _mm_sub_epi8(_mm_set1_epi8((char)eta), t);	/* in [-eta, eta] */
		k0 = keep & 0xff;
		k1 = keep >> 8;
		t = _mm_shuffle_epi8(v, _mm_loadl_epi64((const __m128i *)rej_idx[k0]));
		hi = _mm_shuffle_epi8(_mm_srli_si128(v, 8), _mm_loadl_epi64((const __m128i *)rej_idx[k1]));
		_mm256_storeu_si256((__m256i *)(a + n), _mm256_cvtepi8_epi32(t));
		n += (unsigned int)__builtin_popcount(k0);
		_mm256_storeu_si256((__m256i *)(a + n), _mm256_cvtepi8_epi32(hi));
		n += (unsigned int)__builtin_popcount(k1);
	}
	return n < MLDSA_N ? n : MLDSA_N;
}

AVX2 unsigned int rind_mldsa_avx2_rej_eta(s32 *a, unsigned int n, const u8 *buf, unsigned int len,
					 unsigned int eta)
{
	return rej_eta(a, n, buf, len, eta);
}

#define S_BLOCKS	2	/* 272 bytes: usually enough for eta = 2 and 4 */

/* s1 || s2 [r] = RejBoundedPoly(rho' || r), four polynomials per pass. */
static AVX2 void avx2_expand_s(const struct mldsa_params *p, const u8 rhop[64],
			       struct mldsa_poly *s1, struct mldsa_poly *s2)
{
	unsigned int n = p->l + p->k, e, l;
	u8 in[4][66], buf[4][S_BLOCKS * SHAKE256_RATE];
	const u8 *const inp[4] = { in[0], in[1], in[2], in[3] };
	u8 *const outp[4] = { buf[0], buf[1], buf[2], buf[3] };
	s32 tmp[4][MLDSA_N + 16];
	struct keccakx4_state ks;

	for (e = 0; e < n; e += 4) {
		unsigned int ctr[4], idx[4];
		s32 *dst[4] = { tmp[0], tmp[1], tmp[2], tmp[3] };
		bool more;

		for (l = 0; l < 4; l++) {
			idx[l] = e + l < n ? e + l : e;
			memcpy(in[l], rhop, 64);
			in[l][64] = (u8)idx[l];
			in[l][65] = (u8)(idx[l] >> 8);
		}
		keccakx4_absorb_once(&ks, SHAKE256_RATE, KECCAK_DS_SHAKE, inp, 66);
		keccakx4_squeeze_blocks(&ks, SHAKE256_RATE, outp, S_BLOCKS);
		for (l = 0; l < 4; l++)
			ctr[l] = rej_eta(dst[l], 0, buf[l], S_BLOCKS * SHAKE256_RATE, p->eta);
		for (;;) {
			more = false;
			for (l = 0; l < 4; l++)
				more |= ctr[l] < MLDSA_N;
			if (!more)
				break;
			keccakx4_squeeze_blocks(&ks, SHAKE256_RATE, outp, 1);
			for (l = 0; l < 4; l++)
				ctr[l] = rej_eta(dst[l], ctr[l], buf[l], SHAKE256_RATE, p->eta);
		}
		for (l = 0; l < 4 && e + l < n; l++)
			memcpy(idx[l] < p->l ? s1[idx[l]].c : s2[idx[l] - p->l].c, tmp[l],
			       sizeof(s1->c));
	}
	memzero_explicit(tmp, sizeof(tmp));
	memzero_explicit(&ks, sizeof(ks));
	memzero_explicit(in, sizeof(in));
	memzero_explicit(buf, sizeof(buf));
}

/*
 * BitUnpack of y (gamma1 - z for 18- or 20-bit z), eight coefficients a
 * step: each 128-bit half takes its own 9 or 10 bytes, a byte shuffle
 * puts each field's four bytes in its lane, a variable shift and a mask
 * finish.  Reads 16 bytes from @in + 9 (10): up to 7 (6) bytes past the
 * polynomial, which the caller's buffer has.
 */
static AVX2 void unpack_y(struct mldsa_poly *y, const u8 *in, unsigned int gamma1_bits)
{
	const __m256i g1 = _mm256_set1_epi32(1 << gamma1_bits);
	unsigned int i;

	if (gamma1_bits == 17) {
		const __m256i idx = _mm256_setr_epi8(0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, -1,
						     0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, -1);
		const __m256i sh = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
		const __m256i mask = _mm256_set1_epi32((1 << 18) - 1);

		for (i = 0; i < MLDSA_N / 8; i++) {
			__m256i x = _mm256_loadu2_m128i((const __m128i *)(in + 18 * i + 9),
							(const __m128i *)(in + 18 * i));

			x = _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(x, idx), sh), mask);
			st(y->c + 8 * i, _mm256_sub_epi32(g1, x));
		}
	} else {
		const __m256i idx = _mm256_setr_epi8(0, 1, 2, -1, 2, 3, 4, -1, 5, 6, 7, -1, 7, 8, 9, -1,
						     0, 1, 2, -1, 2, 3, 4, -1, 5, 6, 7, -1, 7, 8, 9, -1);
		const __m256i sh = _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4);
		const __m256i mask = _mm256_set1_epi32((1 << 20) - 1);

		for (i = 0; i < MLDSA_N / 8; i++) {
			__m256i x = _mm256_loadu2_m128i((const __m128i *)(in + 20 * i + 10),
							(const __m128i *)(in + 20 * i));

			x = _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(x, idx), sh), mask);
			st(y->c + 8 * i, _mm256_sub_epi32(g1, x));
		}
	}
}

AVX2 void rind_mldsa_avx2_unpack_y(struct mldsa_poly *y, const u8 *in, unsigned int gamma1_bits)
{
	unpack_y(y, in, gamma1_bits);
}

/*
 * y[r] = BitUnpack(H(rho'' || kappa + r)), four at a time; a single
 * remaining polynomial goes through the scalar sponge (one stream costs
 * about half of a four-way pass).
 */
static AVX2 void avx2_expand_mask(const struct mldsa_params *p, const u8 rhopp[64], u16 kappa,
				  struct mldsa_poly *y)
{
	u8 in[4][66], buf[4][MLDSA_Y_BLOCKS * SHAKE256_RATE];
	const u8 *const inp[4] = { in[0], in[1], in[2], in[3] };
	u8 *const outp[4] = { buf[0], buf[1], buf[2], buf[3] };
	struct keccakx4_state ks;
	struct keccak_state s1;
	unsigned int r, l;

	for (r = 0; r < p->l; r += 4) {
		unsigned int left = p->l - r;

		if (left == 1) {
			u16 v = (u16)(kappa + r);

			memcpy(in[0], rhopp, 64);
			in[0][64] = (u8)v;
			in[0][65] = (u8)(v >> 8);
			rind_shake256_init(&s1);
			rind_keccak_absorb(&s1, in[0], 66);
			rind_keccak_finalize(&s1);
			rind_keccak_squeeze_blocks(&s1, buf[0], MLDSA_Y_BLOCKS);
			unpack_y(&y[r], buf[0], p->gamma1_bits);
			memzero_explicit(&s1, sizeof(s1));
			break;
		}
		for (l = 0; l < 4; l++) {
			u16 v = (u16)(kappa + r + (l < left ? l : 0));

			memcpy(in[l], rhopp, 64);
			in[l][64] = (u8)v;
			in[l][65] = (u8)(v >> 8);
		}
		keccakx4_absorb_once(&ks, SHAKE256_RATE, KECCAK_DS_SHAKE, inp, 66);
		keccakx4_squeeze_blocks(&ks, SHAKE256_RATE, outp, MLDSA_Y_BLOCKS);
		for (l = 0; l < 4 && l < left; l++)
			unpack_y(&y[r + l], buf[l], p->gamma1_bits);
	}
	memzero_explicit(&ks, sizeof(ks));
	memzero_explicit(in, sizeof(in));
	memzero_explicit(buf, sizeof(buf));
}

/*
 * The signing loop's y streams and c-tilde over a pool of four sponges
 * (mldsa-pool.h): words 0-15 of the four lanes leave by 4x4 transposes
 * of 64-bit words, four stores a lane.
 */
AVX2_INLINE void pool_store16(const struct keccakx4_state *st, u8 *const o[4])
{
	unsigned int i;

	for (i = 0; i < 16; i += 4) {
		const __m256i *a = st->a + i;
		__m256i t0 = _mm256_unpacklo_epi64(a[0], a[1]), t1 = _mm256_unpackhi_epi64(a[0], a[1]);
		__m256i t2 = _mm256_unpacklo_epi64(a[2], a[3]), t3 = _mm256_unpackhi_epi64(a[2], a[3]);

		_mm256_storeu_si256((__m256i *)(o[0] + 8 * i), _mm256_permute2x128_si256(t0, t2, 0x20));
		_mm256_storeu_si256((__m256i *)(o[1] + 8 * i), _mm256_permute2x128_si256(t1, t3, 0x20));
		_mm256_storeu_si256((__m256i *)(o[2] + 8 * i), _mm256_permute2x128_si256(t0, t2, 0x31));
		_mm256_storeu_si256((__m256i *)(o[3] + 8 * i), _mm256_permute2x128_si256(t1, t3, 0x31));
	}
}

#define MLDSA_POOL_LANES	4
#define MLDSA_POOL_SLOTS	12
#define MLDSA_POOL_STATE	struct keccakx4_state
#define MLDSA_POOL_ALIGN	32u
#define MLDSA_POOL_TARGET	AVX2
#define MLDSA_POOL_PERMUTE(st)	keccakx4_f1600(st)
#define MLDSA_POOL_STORE16(st, o)	pool_store16(st, o)
#define MLDSA_POOL_UNPACK_Y(y, in, bits)	unpack_y(y, in, bits)
#include "mldsa-pool.h"

/* ---- registration ---------------------------------------------------------------- */

const struct mldsa_ops rind_mldsa_avx2_ops = {
	.ntt		= avx2_ntt,
	.invntt_tomont	= avx2_invntt,
	.pointwise_acc	= avx2_pointwise_acc,
	.pointwise	= avx2_pointwise,
	.poly_reduce	= avx2_poly_reduce,
	.expand_a	= avx2_expand_a,
	.expand_s	= avx2_expand_s,
	.expand_mask	= avx2_expand_mask,
	.expand_mask_loop = pool_expand_mask_loop,
	.mul_challenge	= avx2_mul_challenge,
	.mul_challenge_eta = avx2_mul_challenge_eta,
	.poly_decompose	= avx2_poly_decompose,
	.poly_highbits	= avx2_poly_highbits,
	.poly_use_hint	= avx2_poly_use_hint,
	.ctilde		= pool_ctilde,
	.sign_prepare	= avx2_sign_prepare,
	.w1_pack	= avx2_w1_pack,
	.sign_z		= avx2_sign_z,
	.sign_r		= avx2_sign_r,
	.sign_hint	= avx2_sign_hint,
	.sign_w		= avx2_sign_w,
};

/* module init runs once, single-threaded (crypto_init); mldsa-avx512.c calls it too */
void rind_mldsa_avx2_setup(void)
{
	static bool done;

	if (done)
		return;
	mldsa_avx2_tables();
	rej_tables();
	done = true;
}

static const char *const mldsa_avx2_names[3] = {
	"mldsa44-avx2", "mldsa65-avx2", "mldsa87-avx2",
};

static int mldsa_avx2_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_AVX2))
		return 0;
	rind_mldsa_avx2_setup();
	return rind_mldsa_register_drivers(&rind_mldsa_avx2_ops, mldsa_avx2_names, 300, "x86");
}
module_init(mldsa_avx2_mod_init);
