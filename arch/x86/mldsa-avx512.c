// SPDX-License-Identifier: MIT
/*
 * ML-DSA (FIPS 204) with AVX-512: "mldsa44-avx512", "mldsa65-avx512",
 * "mldsa87-avx512", priority 400 (above the AVX2 drivers' 300), over the
 * scheme of algs/mldsa.c with the hooks of struct mldsa_ops.
 * Requires: AVX2, AVX512F, AVX512BW (VPSHUFB on 512 bits, the rejection
 * step's only BW instruction), and POPCNT, which every AVX-512 CPU has and
 * rind_cpu_has() does not list.  No VL, DQ or VBMI.
 *
 * Sixteen coefficients per 512-bit register in 32-bit lanes, sixteen
 * registers a polynomial.  What this file does itself:
 *  - NTT and inverse: the layers of distance 128, 64, 32 and 16 pair
 *    whole registers, four registers at a time (a column of four for
 *    128 and 64, a 64-coefficient group for 32 and 16); for 8, 4, 2 and
 *    1 a register pair (one 32-coefficient block) is regrouped before
 *    each layer by two VPERMT2D, so that each butterfly's partners sit
 *    in the same lane of the two registers, and put back in order after
 *    the last (the index vectors and the zeta vectors that follow the
 *    lanes are derived at init from a plain-C model of the layouts).
 *    A Montgomery product is algs/mldsa-poly.c's mont_reduce bit for bit:
 *    VPMULDQ on the even lanes and on the odd ones (shifted down), t = a
 *    z q^-1 mod 2^32 from one VPMULLD by z q^-1 (precomputed), the high
 *    halves of a z - t q merged by a mask blend.  The butterflies and the
 *    inverse's reduction (after distance 8) and final factors are the
 *    generic code's, so every output equals it.
 *  - pointwise products and sums (64-bit accumulation, one reduction),
 *    reduce32;
 *  - Decompose, HighBits and UseHint (the 32-bit reciprocal of
 *    mldsa-avx2.c's highbits_raw; mask compares and blends for the
 *    corner case and the hint's wrap-around);
 *  - ExpandA's rejection: sixteen candidates a step (VPERMQ + VPSHUFB to
 *    spread 48 bytes to 32-bit lanes, a mask compare with q, VPCOMPRESSD);
 *  - the signing loop's w (sign_w): these transforms and products, then
 *    the AVX2 driver's w1 packing.
 *  - ExpandS's streams (the AVX2 driver's rejection, rind_mldsa_avx2_rej_eta);
 *  - the signing loop's ExpandMask and c-tilde over a pool of eight
 *    sponges (the AVX2 driver's BitUnpack of y);
 * The rest comes from mldsa-avx2.c's struct mldsa_ops (mldsa-x86.h):
 * ExpandMask outside the signing loop, the challenge
 * products and the signing loop's fused steps (sign_prepare lays out
 * struct mldsa_sign_pre for those steps, so they go together).
 *
 * Keccak: ExpandA and ExpandS run eight SHAKE streams at once on the
 * eight-way AVX-512 permutation (keccak-x8.h) through xof_absorb and
 * xof_squeeze below, over XOF_LANES streams, in passes of eight entries
 * (a pass's spare lanes repeat its first entry, their output dropped).
 * Wide permutations (four-way before -> eight-way), ML-DSA-44/65/87:
 *   ExpandA (keygen, public-key import)  20/40/70 -> 10/20/35
 *   ExpandS (keygen)                      4/ 6/ 8 ->  2/ 4/ 4
 * (five blocks a pass for A, two for S; a third, rarely, when a lane's
 * rejections need it).  The signing loop's y streams and c-tilde share a
 * pool of eight sponges (mldsa-pool.h, which the AVX2 driver runs on four):
 * per attempt 9.8/10.1/13.6 four-way -> 9.0/9.0/11.2 eight-way
 * permutations, c-tilde's sequential blocks (7-9 and one of H(c-tilde))
 * now setting the pace.
 *
 * Constant time: the arithmetic has no data-dependent branch or index
 * (the permutation and zeta vectors are public constants; masks select,
 * never branch).  ExpandA's rejection runs on public rho.  Keys,
 * signatures and deterministic signatures equal the generic driver's
 * (tests/test_mldsa.c compares every hook and the signatures byte for
 * byte).
 *
 * Speed could not be measured where this was written (AMD Zen 3, no
 * AVX-512): the code ran only under tests/emu's plain-C intrinsics.
 * Instructions executed per call instead (gcc 12 -O2, counted from
 * objdump -d over the loops' trip counts), against mldsa-avx2.c's:
 *   NTT          1333 (320 multiplications)   avx2_ntt     2279 (640)
 *   inverse NTT  1570 (360)                   avx2_invntt  2710 (720)
 * Fewer instructions is not the same as faster: VPMULLD is two uops on
 * Intel cores, VPERMT2D runs on one port; the figures are for reading,
 * not a claim.
 */
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <rind/internal/alg.h>
#include <rind/internal/util.h>
#include <crypto/keccak.h>
#include <crypto/mldsa.h>
#include "keccak-x8.h"
#include "mldsa-x86.h"
#include "x86-target.h"

/* the emulation build (tests/emu/README.md) drops the avx512* features */
#define T512 RIND_AVX512_TARGET("avx2,popcnt,avx512f,avx512bw", "avx2,popcnt")
#define T512_INLINE static inline __attribute__((always_inline)) T512

#define Q		MLDSA_Q
#define QINV		58728449u	/* q^-1 mod 2^32 */
#define MONT_R		4193792		/* 2^32 mod q */
#define N_INV		8347681		/* 256^-1 mod q */

/* ---- tables ---------------------------------------------------------------- */

/* zeta^BitRev8(m) R mod q, centered (algs/mldsa-poly.c's), its z q^-1, and -zeta */
static s32 zetas[256], zetas_q[256], zetas_n[256], zetas_nq[256];
/* the inverse's final factors R^2/256 and its product with -zetas[1] */
static s32 inv_f, inv_f1;

/* one in-register layer's constants: z, z in the even lanes (the odd ones'), z q^-1 */
struct zvec {
	s32 z[16];
	s32 zo[16];
	s32 zq[16];
};

/* the two VPERMT2D index vectors of one regrouping: the new X and Y */
struct pvec {
	s32 ix[16];
	s32 iy[16];
};

/*
 * Per 32-coefficient block P (registers 2P, 2P+1) the zetas of distance
 * 8, 4, 2, 1 (forward) and 1, 2, 4, 8 (inverse) in their layouts' lanes;
 * the regroupings 16->8->4->2->1->16 (forward) and 16->1->2->4->8->16.
 */
static struct zvec fz[8][4], iz[8][4];
static struct pvec fperm[5], iperm[5];

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

/*
 * Layout d (16, 8, 4, 2, 1) of a 32-coefficient block in the register
 * pair (X, Y): X lane i holds the i-th coefficient j (in increasing
 * order) with bit d of j clear, Y lane i its partner j + d.  Layout 16
 * is the natural order.  The coefficient in slot s (X: 0-15, Y: 16-31).
 */
static unsigned int lay(unsigned int d, unsigned int s)
{
	unsigned int i = s & 15, j, n = 0;

	for (j = 0; j < 32; j++) {
		if (j & d)
			continue;
		if (n++ == i)
			break;
	}
	return s < 16 ? j : j + d;
}

/* VPERMT2D indices (bit 4: from Y) taking layout @from to layout @to */
static void mkperm(struct pvec *pv, unsigned int from, unsigned int to)
{
	unsigned int s, t;

	for (s = 0; s < 32; s++) {
		unsigned int c = lay(to, s);

		for (t = 0; t < 32 && lay(from, t) != c; t++)
			;
		if (s < 16)
			pv->ix[s] = (s32)t;
		else
			pv->iy[s - 16] = (s32)t;
	}
}

static void zvec_set(struct zvec *v, unsigned int lane, s32 z)
{
	v->z[lane] = z;
	v->zq[lane] = (s32)((u32)z * QINV);
	if (lane & 1)
		v->zo[lane - 1] = v->zo[lane] = z;
}

/*
 * A butterfly of distance d on the coefficients j, j + d (j with bit d
 * clear) uses zetas[128/d + j/(2d)] forward and -zetas[256/d - 1 - j/(2d)]
 * inverse (algs/mldsa-poly.c's order).
 */
static void mldsa_avx512_tables(void)
{
	static const unsigned int fwd[5] = { 16, 8, 4, 2, 1 }, inv[5] = { 16, 1, 2, 4, 8 };
	unsigned int m, P, k, l;

	for (m = 0; m < 256; m++)
		zetas[m] = centered(rind_powmod(1753, rind_bitrev(m, 8), Q) * MONT_R);
	for (m = 0; m < 256; m++) {
		zetas_q[m] = (s32)((u32)zetas[m] * QINV);
		zetas_n[m] = -zetas[m];
		zetas_nq[m] = (s32)((u32)zetas_n[m] * QINV);
	}
	inv_f = centered((u64)MONT_R * MONT_R % Q * N_INV);
	inv_f1 = mont_mul_c(-zetas[1], inv_f);
	for (k = 0; k < 5; k++) {
		mkperm(&fperm[k], fwd[k], fwd[(k + 1) % 5]);
		mkperm(&iperm[k], inv[k], inv[(k + 1) % 5]);
	}
	for (P = 0; P < 8; P++) {
		for (k = 0; k < 4; k++) {
			unsigned int df = 8 >> k, di = 1u << k;

			for (l = 0; l < 16; l++) {
				unsigned int jf = 32 * P + lay(df, l), ji = 32 * P + lay(di, l);

				zvec_set(&fz[P][k], l, zetas[128 / df + jf / (2 * df)]);
				zvec_set(&iz[P][k], l, -zetas[256 / di - 1 - ji / (2 * di)]);
			}
		}
	}
}

/* ---- arithmetic -------------------------------------------------------------- */

T512_INLINE __m512i ld(const s32 *p)
{
	return _mm512_loadu_si512((const void *)p);
}

T512_INLINE void st(s32 *p, __m512i v)
{
	_mm512_storeu_si512((void *)p, v);
}

/* the odd 32-bit lanes moved to the even ones (where VPMULDQ reads) */
T512_INLINE __m512i odd(__m512i a)
{
	return _mm512_srli_epi64(a, 32);
}

/*
 * Montgomery reduction of the 64-bit pe (even lanes' products) and po
 * (odd lanes'): t = p q^-1 mod 2^32 in the low halves of @te / @to, then
 * the high half of p - t q in each lane.
 */
T512_INLINE __m512i mont_finish(__m512i pe, __m512i po, __m512i te, __m512i to)
{
	const __m512i q = _mm512_set1_epi32(Q);

	pe = _mm512_sub_epi64(pe, _mm512_mul_epi32(te, q));
	po = _mm512_sub_epi64(po, _mm512_mul_epi32(to, q));
	return _mm512_mask_blend_epi32(0xaaaa, _mm512_srli_epi64(pe, 32), po);
}

/* a z R^-1 with zq = z q^-1 mod 2^32 and zo = z's odd lanes in the even ones */
T512_INLINE __m512i mulz(__m512i a, __m512i z, __m512i zo, __m512i zq)
{
	__m512i t = _mm512_mullo_epi32(a, zq);
	__m512i pe = _mm512_mul_epi32(a, z), po = _mm512_mul_epi32(odd(a), zo);

	return mont_finish(pe, po, t, odd(t));
}

/* 64-bit sums (even, odd lanes) reduced as mont_reduce() */
T512_INLINE __m512i mont_reduce64(__m512i pe, __m512i po)
{
	const __m512i qinv = _mm512_set1_epi32((int)QINV);

	/* only the products' low halves matter: signed or unsigned alike */
	return mont_finish(pe, po, _mm512_mul_epi32(pe, qinv), _mm512_mul_epi32(po, qinv));
}

/* reduce32: a - round(a / 2^23) q */
T512_INLINE __m512i reduce32(__m512i a)
{
	__m512i t = _mm512_srai_epi32(_mm512_add_epi32(a, _mm512_set1_epi32(1 << 22)), 23);

	return _mm512_sub_epi32(a, _mm512_mullo_epi32(t, _mm512_set1_epi32(Q)));
}

struct zc {
	__m512i z, zq;
};

/* zetas[m] (forward) and -zetas[m] (inverse), one constant in every lane */
T512_INLINE struct zc zf(unsigned int m)
{
	struct zc r = { _mm512_set1_epi32(zetas[m]), _mm512_set1_epi32(zetas_q[m]) };

	return r;
}

T512_INLINE struct zc zi(unsigned int m)
{
	struct zc r = { _mm512_set1_epi32(zetas_n[m]), _mm512_set1_epi32(zetas_nq[m]) };

	return r;
}

T512_INLINE struct zc zbc(s32 z)
{
	struct zc r = { _mm512_set1_epi32(z), _mm512_set1_epi32((int)((u32)z * QINV)) };

	return r;
}

/* Cooley-Tukey: (a + z b, a - z b) */
T512_INLINE void bf1(__m512i *a, __m512i *b, struct zc z)
{
	__m512i t = mulz(*b, z.z, z.z, z.zq);

	*b = _mm512_sub_epi32(*a, t);
	*a = _mm512_add_epi32(*a, t);
}

T512_INLINE void bfv(__m512i *a, __m512i *b, const struct zvec *z)
{
	__m512i t = mulz(*b, ld(z->z), ld(z->zo), ld(z->zq));

	*b = _mm512_sub_epi32(*a, t);
	*a = _mm512_add_epi32(*a, t);
}

/* Gentleman-Sande: (a + b, w (a - b)) */
T512_INLINE void ibf1(__m512i *a, __m512i *b, struct zc w)
{
	__m512i t = *a;

	*a = _mm512_add_epi32(t, *b);
	*b = mulz(_mm512_sub_epi32(t, *b), w.z, w.z, w.zq);
}

T512_INLINE void ibfv(__m512i *a, __m512i *b, const struct zvec *w)
{
	__m512i t = *a;

	*a = _mm512_add_epi32(t, *b);
	*b = mulz(_mm512_sub_epi32(t, *b), ld(w->z), ld(w->zo), ld(w->zq));
}

/* one regrouping of the pair (VPERMT2D twice) */
T512_INLINE void regroup(__m512i *x, __m512i *y, const struct pvec *pv)
{
	__m512i a = *x, b = *y;

	*x = _mm512_permutex2var_epi32(a, ld(pv->ix), b);
	*y = _mm512_permutex2var_epi32(a, ld(pv->iy), b);
}

/* distances 8, 4, 2, 1 on block P, in and out in natural order */
T512_INLINE void ntt_block(__m512i *x, __m512i *y, unsigned int P)
{
	unsigned int k;

	for (k = 0; k < 4; k++) {
		regroup(x, y, &fperm[k]);
		bfv(x, y, &fz[P][k]);
	}
	regroup(x, y, &fperm[4]);
}

/* distances 1, 2, 4, 8 on block P, then the generic code's reduction */
T512_INLINE void invntt_block(__m512i *x, __m512i *y, unsigned int P)
{
	unsigned int k;

	for (k = 0; k < 4; k++) {
		regroup(x, y, &iperm[k]);
		ibfv(x, y, &iz[P][k]);
	}
	regroup(x, y, &iperm[4]);
	*x = reduce32(*x);
	*y = reduce32(*y);
}

/*
 * Forward: distances 128 and 64 over the columns (registers c, c + 4,
 * c + 8, c + 12), then per 64 coefficients 32 and 16 and the two blocks'
 * in-register layers.
 */
static T512 void avx512_ntt(struct mldsa_poly *p)
{
	s32 *a = p->c;
	unsigned int c, g;

	for (c = 0; c < 4; c++) {
		__m512i r0 = ld(a + 16 * c), r1 = ld(a + 16 * (c + 4));
		__m512i r2 = ld(a + 16 * (c + 8)), r3 = ld(a + 16 * (c + 12));

		bf1(&r0, &r2, zf(1));
		bf1(&r1, &r3, zf(1));
		bf1(&r0, &r1, zf(2));
		bf1(&r2, &r3, zf(3));
		st(a + 16 * c, r0);
		st(a + 16 * (c + 4), r1);
		st(a + 16 * (c + 8), r2);
		st(a + 16 * (c + 12), r3);
	}
	for (g = 0; g < 4; g++) {
		s32 *b = a + 64 * g;
		__m512i r0 = ld(b), r1 = ld(b + 16), r2 = ld(b + 32), r3 = ld(b + 48);

		bf1(&r0, &r2, zf(4 + g));
		bf1(&r1, &r3, zf(4 + g));
		bf1(&r0, &r1, zf(8 + 2 * g));
		bf1(&r2, &r3, zf(9 + 2 * g));
		ntt_block(&r0, &r1, 2 * g);
		ntt_block(&r2, &r3, 2 * g + 1);
		st(b, r0);
		st(b + 16, r1);
		st(b + 32, r2);
		st(b + 48, r3);
	}
}

/*
 * Inverse: per 64 coefficients the blocks' in-register layers (and the
 * reduction after distance 8), 16 and 32; then 64 and 128 over the
 * columns, the last with the final factor folded in as the generic
 * code does.
 */
static T512 void avx512_invntt(struct mldsa_poly *p)
{
	const struct zc f = zbc(inv_f), f1 = zbc(inv_f1);
	s32 *a = p->c;
	unsigned int c, g;

	for (g = 0; g < 4; g++) {
		s32 *b = a + 64 * g;
		__m512i r0 = ld(b), r1 = ld(b + 16), r2 = ld(b + 32), r3 = ld(b + 48);

		invntt_block(&r0, &r1, 2 * g);
		invntt_block(&r2, &r3, 2 * g + 1);
		ibf1(&r0, &r1, zi(15 - 2 * g));
		ibf1(&r2, &r3, zi(14 - 2 * g));
		ibf1(&r0, &r2, zi(7 - g));
		ibf1(&r1, &r3, zi(7 - g));
		st(b, r0);
		st(b + 16, r1);
		st(b + 32, r2);
		st(b + 48, r3);
	}
	for (c = 0; c < 4; c++) {
		__m512i r0 = ld(a + 16 * c), r1 = ld(a + 16 * (c + 4));
		__m512i r2 = ld(a + 16 * (c + 8)), r3 = ld(a + 16 * (c + 12));

		ibf1(&r0, &r1, zi(3));
		ibf1(&r2, &r3, zi(2));
		st(a + 16 * c, mulz(_mm512_add_epi32(r0, r2), f.z, f.z, f.zq));
		st(a + 16 * (c + 8), mulz(_mm512_sub_epi32(r0, r2), f1.z, f1.z, f1.zq));
		st(a + 16 * (c + 4), mulz(_mm512_add_epi32(r1, r3), f.z, f.z, f.zq));
		st(a + 16 * (c + 12), mulz(_mm512_sub_epi32(r1, r3), f1.z, f1.z, f1.zq));
	}
}

static T512 void avx512_pointwise_acc(struct mldsa_poly *r, const struct mldsa_poly *a,
				      const struct mldsa_poly *b, unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i < MLDSA_N; i += 16) {
		__m512i se = _mm512_setzero_si512(), so = se;

		for (j = 0; j < n; j++) {
			__m512i x = ld(a[j].c + i), y = ld(b[j].c + i);

			se = _mm512_add_epi64(se, _mm512_mul_epi32(x, y));
			so = _mm512_add_epi64(so, _mm512_mul_epi32(odd(x), odd(y)));
		}
		st(r->c + i, mont_reduce64(se, so));
	}
}

static T512 void avx512_pointwise(struct mldsa_poly *r, const struct mldsa_poly *a,
				  const struct mldsa_poly *b)
{
	unsigned int i;

	for (i = 0; i < MLDSA_N; i += 16) {
		__m512i x = ld(a->c + i), y = ld(b->c + i);

		st(r->c + i, mont_reduce64(_mm512_mul_epi32(x, y), _mm512_mul_epi32(odd(x), odd(y))));
	}
}

static T512 void avx512_poly_reduce(struct mldsa_poly *a)
{
	unsigned int i;

	for (i = 0; i < MLDSA_N; i += 16)
		st(a->c + i, reduce32(ld(a->c + i)));
}

/* ---- rounding ---------------------------------------------------------------- */

#define G2_88	((MLDSA_Q - 1) / 88)
#define G2_32	((MLDSA_Q - 1) / 32)

/*
 * HighBits before the corner case, for r in [0, q): ceil(r / 128) times
 * a 32-bit reciprocal of 2 gamma2 / 128, rounded -- mldsa-avx2.c's
 * highbits_raw, in [0, (q-1)/(2 gamma2)] (tests/test_mldsa.c checks
 * Decompose, HighBits and UseHint for every r in [0, q)).
 */
T512_INLINE __m512i highbits_raw(__m512i r, s32 g2)
{
	__m512i a1 = _mm512_srai_epi32(_mm512_add_epi32(r, _mm512_set1_epi32(127)), 7);

	if (g2 == G2_32) {
		a1 = _mm512_mullo_epi32(a1, _mm512_set1_epi32(1025));
		return _mm512_srai_epi32(_mm512_add_epi32(a1, _mm512_set1_epi32(1 << 21)), 22);
	}
	a1 = _mm512_mullo_epi32(a1, _mm512_set1_epi32(11275));
	return _mm512_srai_epi32(_mm512_add_epi32(a1, _mm512_set1_epi32(1 << 23)), 24);
}

/* Decompose: r0 = r - a1 2 gamma2; at a1 = (q-1)/(2 gamma2), (0, r0 - 1) */
T512_INLINE void decompose16(__m512i r, s32 g2, __m512i *r1, __m512i *r0)
{
	__m512i a1 = highbits_raw(r, g2);
	__mmask16 eq = _mm512_cmpeq_epi32_mask(a1, _mm512_set1_epi32((Q - 1) / (2 * g2)));
	__m512i a0 = _mm512_sub_epi32(r, _mm512_mullo_epi32(a1, _mm512_set1_epi32(2 * g2)));

	*r1 = _mm512_mask_blend_epi32(eq, a1, _mm512_setzero_si512());
	*r0 = _mm512_mask_blend_epi32(eq, a0, _mm512_sub_epi32(a0, _mm512_set1_epi32(1)));
}

/* one loop per gamma2, so that the constants fold */
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

static T512 void avx512_poly_decompose(struct mldsa_poly *r1, struct mldsa_poly *r0,
				       const struct mldsa_poly *a, s32 gamma2)
{
	unsigned int i;

	FOR_G2(gamma2, for (i = 0; i < MLDSA_N; i += 16) {
		__m512i h, l;

		decompose16(ld(a->c + i), G, &h, &l);
		st(r1->c + i, h);
		st(r0->c + i, l);
	});
}

static T512 void avx512_poly_highbits(struct mldsa_poly *r1, const struct mldsa_poly *a, s32 gamma2)
{
	unsigned int i;

	FOR_G2(gamma2, for (i = 0; i < MLDSA_N; i += 16) {
		__m512i h = highbits_raw(ld(a->c + i), G);
		__mmask16 eq = _mm512_cmpeq_epi32_mask(h, _mm512_set1_epi32((Q - 1) / (2 * G)));

		st(r1->c + i, _mm512_mask_blend_epi32(eq, h, _mm512_setzero_si512()));
	});
}

/*
 * UseHint: r1 + 1 when h and r0 > 0, r1 - 1 when h and r0 <= 0, modulo
 * m = (q-1)/(2 gamma2) (16: a mask; 44: the two wrap-arounds by mask
 * compares).  h in {0, 1}; r may be a.
 */
static T512 void avx512_poly_use_hint(struct mldsa_poly *r, const struct mldsa_poly *a,
				      const struct mldsa_poly *hint, s32 gamma2)
{
	const __m512i zero = _mm512_setzero_si512();
	unsigned int i;

	FOR_G2(gamma2, for (i = 0; i < MLDSA_N; i += 16) {
		const s32 M = (Q - 1) / (2 * G);
		__m512i h, l, hv = ld(hint->c + i);
		__mmask16 pos;

		decompose16(ld(a->c + i), G, &h, &l);
		pos = _mm512_cmpgt_epi32_mask(l, zero);
		/* + h where r0 > 0, - h elsewhere */
		h = _mm512_add_epi32(h, _mm512_mask_blend_epi32(pos, _mm512_sub_epi32(zero, hv), hv));
		if (M == 16) {
			h = _mm512_and_si512(h, _mm512_set1_epi32(15));
		} else {
			const __m512i m = _mm512_set1_epi32(M);

			h = _mm512_mask_blend_epi32(_mm512_cmpgt_epi32_mask(zero, h), h,
						    _mm512_add_epi32(h, m));
			h = _mm512_mask_blend_epi32(_mm512_cmpeq_epi32_mask(h, m), h, zero);
		}
		st(r->c + i, h);
	});
}

/* ---- the signing loop's w ------------------------------------------------------ */

/*
 * w = NTT^-1(A-hat NTT(y)) in [0, q) and its w1 encoding: this file's
 * transforms and products (the generic hooks' values), then the AVX2
 * driver's w1_pack, which takes (-q, q) to [0, q) and packs.
 */
static T512 void avx512_sign_w(const struct mldsa_key *key, const struct mldsa_poly *y,
			       struct mldsa_poly *yh, struct mldsa_poly *w, u8 *w1)
{
	const struct mldsa_params *p = key->p;
	const unsigned int wb = p->gamma2 == G2_88 ? 192 : 128;
	unsigned int i, j;

	for (j = 0; j < p->l; j++) {
		yh[j] = y[j];
		avx512_ntt(&yh[j]);
	}
	for (i = 0; i < p->k; i++) {
		avx512_pointwise_acc(&w[i], key->a[i], yh, p->l);
		avx512_invntt(&w[i]);
		rind_mldsa_avx2_ops.w1_pack(w1 + wb * i, &w[i], p->gamma2);
	}
}

/* ---- ExpandA ------------------------------------------------------------------ */

/*
 * The streams ExpandA and ExpandS run side by side: eight, on the
 * eight-way AVX-512 permutation (keccak-avx512.c).  Only these two
 * functions and XOF_LANES know the permutation.
 */
#define XOF_LANES	8

struct xof {
	struct keccakx8_state ks;
};

static void xof_absorb(struct xof *x, unsigned int rate, const u8 *const in[XOF_LANES], size_t len)
{
	keccakx8_absorb_once(&x->ks, rate, KECCAK_DS_SHAKE, in, len);
}

static void xof_squeeze(struct xof *x, unsigned int rate, u8 *const out[XOF_LANES], size_t nblocks)
{
	keccakx8_squeeze_blocks(&x->ks, rate, out, nblocks);
}

/*
 * RejNTTPoly's step over @len bytes of one stream (public: rho).
 * Sixteen candidates a step while 64 bytes are left to read and n <=
 * 240: qwords 0 1 1 2 3 4 4 5 put each 128-bit lane's twelve bytes in
 * reach of VPSHUFB (lanes 1 and 3 start 4 bytes in), which gives each
 * candidate's three bytes a 32-bit lane; masked to 23 bits, compared
 * with q into a mask, the accepted ones packed to the front by
 * VPCOMPRESSD and stored (the zeros past them land below index 256 and
 * are overwritten by the next step); the rest one at a time as the
 * generic code does.
 */
static T512 unsigned int rej_uniform(s32 *a, unsigned int n, const u8 *buf, unsigned int len)
{
	const __m512i perm = _mm512_set_epi64(5, 4, 4, 3, 2, 1, 1, 0);
	const __m512i sel = _mm512_broadcast_i64x4(_mm256_setr_epi8(
		0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
		4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1));
	const __m512i m23 = _mm512_set1_epi32(0x7fffff), q = _mm512_set1_epi32(Q);
	unsigned int pos = 0;

	for (; pos + 64 <= len && n <= MLDSA_N - 16; pos += 48) {
		__m512i x = _mm512_loadu_si512((const void *)(buf + pos));
		__mmask16 k;

		x = _mm512_permutexvar_epi64(perm, x);
		x = _mm512_and_si512(_mm512_shuffle_epi8(x, sel), m23);
		k = _mm512_cmplt_epu32_mask(x, q);
		st(a + n, _mm512_maskz_compress_epi32(k, x));
		n += (unsigned int)__builtin_popcount(k);
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
 * A-hat[r][s] = RejNTTPoly(rho || s || r), XOF_LANES entries a pass
 * (ML-DSA-44: 16 entries, two passes; 65: 30, four, the last with six
 * live lanes; 87: 56, seven); the spare lanes of the last pass repeat an
 * entry, which is written twice with the same values.  168-byte blocks
 * hold whole candidates, so the first five blocks are taken at once and
 * each further block on its own, as the generic code does.
 */
static T512 void avx512_expand_a(struct mldsa_key *key)
{
	const struct mldsa_params *p = key->p;
	unsigned int n = p->k * p->l, e, l;
	u8 in[XOF_LANES][34], buf[XOF_LANES][A_BLOCKS * SHAKE128_RATE];
	const u8 *inp[XOF_LANES];
	u8 *outp[XOF_LANES];
	struct xof x;

	for (l = 0; l < XOF_LANES; l++) {
		inp[l] = in[l];
		outp[l] = buf[l];
	}
	for (e = 0; e < n; e += XOF_LANES) {
		unsigned int ctr[XOF_LANES], idx[XOF_LANES];
		bool more;

		for (l = 0; l < XOF_LANES; l++) {
			idx[l] = e + l < n ? e + l : e;
			memcpy(in[l], key->rho, 32);
			in[l][32] = (u8)(idx[l] % p->l);	/* s */
			in[l][33] = (u8)(idx[l] / p->l);	/* r */
		}
		xof_absorb(&x, SHAKE128_RATE, inp, 34);
		xof_squeeze(&x, SHAKE128_RATE, outp, A_BLOCKS);
		for (l = 0; l < XOF_LANES; l++)
			ctr[l] = rej_uniform(key->a[idx[l] / p->l][idx[l] % p->l].c, 0, buf[l],
					     A_BLOCKS * SHAKE128_RATE);
		for (;;) {
			more = false;
			for (l = 0; l < XOF_LANES; l++)
				more |= ctr[l] < MLDSA_N;
			if (!more)
				break;
			xof_squeeze(&x, SHAKE128_RATE, outp, 1);
			for (l = 0; l < XOF_LANES; l++)
				ctr[l] = rej_uniform(key->a[idx[l] / p->l][idx[l] % p->l].c, ctr[l],
						     buf[l], SHAKE128_RATE);
		}
	}
}

/* ---- ExpandS ------------------------------------------------------------------ */

#define S_BLOCKS	2	/* 272 bytes: usually enough for eta = 2 and 4 (mldsa-avx2.c's) */

/*
 * s1 || s2 [r] = RejBoundedPoly(rho' || r), XOF_LANES polynomials a
 * pass with mldsa-avx2.c's rejection (rind_mldsa_avx2_rej_eta): ML-DSA-44's
 * 8 streams in one pass, 65's 11 and 87's 15 in two (the spare lanes of
 * the last repeat an entry and are dropped).  Which lanes need a third
 * block is the acceptance pattern, declassified as the generic code does.
 */
static T512 void avx512_expand_s(const struct mldsa_params *p, const u8 rhop[64],
				 struct mldsa_poly *s1, struct mldsa_poly *s2)
{
	unsigned int n = p->l + p->k, e, l;
	u8 in[XOF_LANES][66], buf[XOF_LANES][S_BLOCKS * SHAKE256_RATE];
	s32 tmp[XOF_LANES][MLDSA_N + 16];	/* rej_eta's 16 spare entries */
	const u8 *inp[XOF_LANES];
	u8 *outp[XOF_LANES];
	struct xof x;

	for (l = 0; l < XOF_LANES; l++) {
		inp[l] = in[l];
		outp[l] = buf[l];
	}
	for (e = 0; e < n; e += XOF_LANES) {
		unsigned int ctr[XOF_LANES], idx[XOF_LANES];
		bool more;

		for (l = 0; l < XOF_LANES; l++) {
			idx[l] = e + l < n ? e + l : e;
			memcpy(in[l], rhop, 64);
			in[l][64] = (u8)idx[l];
			in[l][65] = (u8)(idx[l] >> 8);
		}
		xof_absorb(&x, SHAKE256_RATE, inp, 66);
		xof_squeeze(&x, SHAKE256_RATE, outp, S_BLOCKS);
		for (l = 0; l < XOF_LANES; l++)
			ctr[l] = rind_mldsa_avx2_rej_eta(tmp[l], 0, buf[l], S_BLOCKS * SHAKE256_RATE,
							 p->eta);
		for (;;) {
			more = false;
			for (l = 0; l < XOF_LANES; l++)
				more |= ctr[l] < MLDSA_N;
			if (!more)
				break;
			xof_squeeze(&x, SHAKE256_RATE, outp, 1);
			for (l = 0; l < XOF_LANES; l++)
				ctr[l] = rind_mldsa_avx2_rej_eta(tmp[l], ctr[l], buf[l], SHAKE256_RATE,
								 p->eta);
		}
		for (l = 0; l < XOF_LANES && e + l < n; l++)
			memcpy(idx[l] < p->l ? s1[idx[l]].c : s2[idx[l] - p->l].c, tmp[l],
			       sizeof(s1->c));
	}
	memzero_explicit(tmp, sizeof(tmp));
	memzero_explicit(&x, sizeof(x));
	memzero_explicit(in, sizeof(in));
	memzero_explicit(buf, sizeof(buf));
}

/* ---- ExpandMask and c-tilde: a pool of eight sponges --------------------------- */

/*
 * mldsa-pool.h's pool on eight lanes, c-tilde in lane 0 while the other
 * seven go on: words 0-15 of the eight lanes leave by two 8x8
 * transpositions in registers (keccakx8_extract), one store a lane each.
 */
T512_INLINE void pool_store16(const struct keccakx8_state *st, u8 *const o[8])
{
	__m512i r[8];
	unsigned int l, g;

	for (g = 0; g < 2; g++) {
		keccakx8_extract(r, st, 8 * g);
		for (l = 0; l < 8; l++)
			_mm512_storeu_si512((void *)(o[l] + 64 * g), r[l]);
	}
	/* y is secret; the stack copy goes with it */
	memzero_explicit(r, sizeof(r));
}

#define MLDSA_POOL_LANES	8
#define MLDSA_POOL_SLOTS	14	/* what the mask cache holds */
#define MLDSA_POOL_STATE	struct keccakx8_state
#define MLDSA_POOL_ALIGN	64u
#define MLDSA_POOL_TARGET	T512
#define MLDSA_POOL_PERMUTE(st)	keccakx8_f1600(st)
#define MLDSA_POOL_STORE16(st, o)	pool_store16(st, o)
#define MLDSA_POOL_UNPACK_Y(y, in, bits)	rind_mldsa_avx2_unpack_y(y, in, bits)
#include "mldsa-pool.h"

/* ---- registration ---------------------------------------------------------------- */

/* the AVX2 driver's hooks, these file's over them (set at init) */
static struct mldsa_ops mldsa_avx512_ops;

static const char *const mldsa_avx512_names[3] = {
	"mldsa44-avx512", "mldsa65-avx512", "mldsa87-avx512",
};

static int mldsa_avx512_mod_init(void)
{
	struct mldsa_ops *o = &mldsa_avx512_ops;

	if (!rind_cpu_has(RIND_X86_AVX2) || !rind_cpu_has(RIND_X86_AVX512F) ||
	    !rind_cpu_has(RIND_X86_AVX512BW))
		return 0;
	rind_mldsa_avx2_setup();
	mldsa_avx512_tables();
	*o = rind_mldsa_avx2_ops;
	o->ntt = avx512_ntt;
	o->invntt_tomont = avx512_invntt;
	o->pointwise_acc = avx512_pointwise_acc;
	o->pointwise = avx512_pointwise;
	o->poly_reduce = avx512_poly_reduce;
	o->expand_a = avx512_expand_a;
	o->expand_s = avx512_expand_s;
	o->expand_mask_loop = pool_expand_mask_loop;
	o->ctilde = pool_ctilde;
	o->poly_decompose = avx512_poly_decompose;
	o->poly_highbits = avx512_poly_highbits;
	o->poly_use_hint = avx512_poly_use_hint;
	o->sign_w = avx512_sign_w;
	return rind_mldsa_register_drivers(o, mldsa_avx512_names, 400, "x86");
}
module_init(mldsa_avx512_mod_init);
