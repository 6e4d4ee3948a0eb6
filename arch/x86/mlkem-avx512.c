// SPDX-License-Identifier: MIT
/*
 * ML-KEM (FIPS 203) arithmetic with AVX-512: "mlkem512-avx512",
 * "mlkem768-avx512", "mlkem1024-avx512" and "x25519mlkem768-avx512",
 * priority 400 (above the AVX2 drivers' 300).
 * Requires: AVX2, BMI2, AVX512F, AVX512BW, AVX512VL (and POPCNT, which
 * every AVX-512 CPU has and rind_cpu_has() does not list).  No
 * AVX512VBMI/VBMI2: byte permutes and VPCOMPRESSW are not used.
 *
 * Thirty-two coefficients per 512-bit register, eight registers a
 * polynomial.  Same representatives as algs/mlkem.c and mlkem-avx2.c
 * (struct mlkem_ops requires them), so keys, ciphertexts and known
 * answers are shared:
 *  - NTT and inverse: the layers of distance 128, 64 and 32 pair whole
 *    registers; for 16, 8, 4 and 2 a register pair (one 64-coefficient
 *    block) is regrouped before each layer -- 256-bit halves (VSHUFI64X2),
 *    128-bit units (VPERMT2Q), 64-bit (VPUNPCK*QDQ), 32-bit (shift and
 *    blend) -- so that partners sit in the same lanes of the two
 *    registers.  The four regroupings are undone at the end of the NTT
 *    (and set up at the start of the inverse) by one VPERMT2W per
 *    register, their composition.  The zeta vectors follow the lanes;
 *    both are derived at init from plain-C models of the regroupings.
 *    Butterflies, Montgomery products (VPMULLW/VPMULHW with z q^-1
 *    precomputed) and Barrett reduction are mlkem-avx2.c's, lane for lane.
 *  - base-case products: the partner swap of a coefficient pair is
 *    VPROLD by 16 (no shuffle port), the even/odd merge a mask blend;
 *    the matrix-vector products sum a row in 32 bits with VPMADDWD and
 *    reduce once, as mlkem-avx2.c does.
 *  - compression: the estimate-and-correct Compress_d of mlkem-avx2.c
 *    with mask compares; the fields packed with VPMADDWD, 64-bit shifts
 *    and VPTERNLOGQ, then per d: d = 1 the compare mask itself, d = 4
 *    VPMOVDB, d = 10 VPSHUFB + VPERMW + one masked store, d = 5 and 11
 *    masked 128-bit stores.  Decompression: masked loads, VPERMW/VPSHUFB
 *    to give each field its bytes, VPSRLVW (the per-lane shift AVX2
 *    lacks), VPMULHRSW.  Nothing is read or written past the polynomial's
 *    bytes.
 *  - SampleNTT's rejection: sixteen candidates a step, spread to 32-bit
 *    lanes (VPERMT2W from the block's registers, VPSHUFB, shifts),
 *    compared into a k-mask and moved to the front by VPCOMPRESSD (an
 *    AVX512F instruction, unlike VPCOMPRESSW), then narrowed by VPMOVDW;
 *    the places in r follow in a second pass (as in mlkem-avx2.c) with
 *    masked stores, so nothing is written past MLKEM_N.
 *  - Keccak: the matrix expansion (of a key set from its encoding),
 *    the noise of five or more streams and key generation run eight
 *    SHAKE streams at once (keccak-avx512.c: VPTERNLOGQ, VPROLQ); key
 *    generation is mlkem-avx2.c's lane schedule (kg_run, through
 *    mlkem-x86.h: A-hat, noise and H(ek) interleaved) on eight lanes with
 *    this file's permutation, NTT and rejection.  ML-KEM-512's four
 *    matrix streams and short noise calls keep the four-way permutation
 *    of keccak-avx2.c.  Key generation's wide permutations (typical
 *    rejections), four-way schedule -> eight-way, plus scalar ones:
 *    512: 5 x4 + 7 x1 -> 3 x8 + 6 x1; 768: 11 x4 + 3 x1 -> 6 x8 + 7 x1;
 *    1024: 17 x4 + 4 x1 -> 10 x8 + 7 x1 (the scalar ones: G and what is
 *    left of H(ek)).
 *
 * Constant time: no branch or table index depends on secret data (the
 * rejection's mask and counts are over the public rho); decapsulation is
 * algs/mlkem.c's (masked comparison of the re-encryption and branch-free
 * selection of the implicit-rejection secret) over these operations.
 *
 * Speed could not be measured where this was written: the machine (AMD
 * Zen 3) has no AVX-512, and the code ran only under tests/emu's plain-C
 * intrinsics.  Instructions executed per call instead, gcc 12 -O2: this
 * file's transforms are straight-line (objdump -d, no branch, no stack
 * access), mlkem-avx2.c's counted by valgrind --tool=callgrind:
 *   NTT           343 (avx512_ntt)     1218 (avx2_ntt)
 *   inverse NTT   464 (avx512_invntt)  1528 (avx2_invntt)
 *   basemul_acc   170                   460 (avx2_basemul_acc)
 *   rej_block     162 (avx512_rej_block) 346 (rej_block, from ctr 0)
 * Fewer instructions is not the same as faster: 512-bit shuffles all go
 * to one port on Intel cores and some of them (VPERMT2W, VPCOMPRESSD)
 * take two or three uops; the figures are for reading, not a claim.
 */
#include <errno.h>
#include <immintrin.h>
#include <string.h>
#include <rind/internal/kem.h>
#include <rind/internal/util.h>
#include <crypto/keccak.h>
#include <crypto/mlkem.h>
#include "keccak-x8.h"
#include "mlkem-x86.h"
#include "x86-target.h"

/* the emulation build (tests/emu/README.md) drops the avx512* features */
#define T512 RIND_AVX512_TARGET("avx2,bmi2,popcnt,avx512f,avx512bw,avx512vl", "avx2,bmi2,popcnt")
#define T512_INLINE static inline __attribute__((always_inline)) T512

#define Q	MLKEM_Q
#define QINV	(-3327)		/* q^-1 mod 2^16, as a signed 16-bit value */
#define BARRETT_V 20159		/* round(2^26 / q) */

#define ODD16	((__mmask32)0xaaaaaaaau)	/* the odd 16-bit lanes */

static s16 mont_q(s16 z)
{
	return (s16)(u16)((u32)(u16)z * (u16)QINV);
}

/* ---- tables ------------------------------------------------------------ */

struct zvec32 {
	s16 z[32];
	s16 zq[32];	/* z q^-1 mod 2^16: the low half of the Montgomery product */
};

/*
 * Per 64-coefficient block p and in-register layer (distance 16, 8, 4, 2),
 * the zetas in the lanes the regrouped registers hold; gamma per
 * 32-coefficient chunk (gamma_i at lane 2i + 1, 0 at 2i).
 */
static struct zvec32 ntt_zv[4][4], inv_zv[4][4], gamma_v[8];
/* VPERMT2W indices: the regrouped pair back to order, and order to regrouped */
static s16 ntt_out_idx[2][32], inv_in_idx[2][32];

/*
 * Plain-C models of the regroupings (below, the same with intrinsics) on a
 * pair x, y of 32 lanes: what each lane holds afterwards.
 */
static void m_grp16(s16 *x, s16 *y)	/* 256-bit halves: x = [x.lo | y.lo] */
{
	s16 a[32], b[32];
	int i;

	memcpy(a, x, sizeof(a));
	memcpy(b, y, sizeof(b));
	for (i = 0; i < 16; i++) {
		x[i] = a[i];
		x[16 + i] = b[i];
		y[i] = a[16 + i];
		y[16 + i] = b[16 + i];
	}
}

static void m_grp8(s16 *x, s16 *y)	/* 128-bit units 0, 2 of each half and 1, 3 */
{
	s16 a[32], b[32];
	int i;

	memcpy(a, x, sizeof(a));
	memcpy(b, y, sizeof(b));
	for (i = 0; i < 8; i++) {
		x[i] = a[i];
		x[8 + i] = b[i];
		x[16 + i] = a[16 + i];
		x[24 + i] = b[16 + i];
		y[i] = a[8 + i];
		y[8 + i] = b[8 + i];
		y[16 + i] = a[24 + i];
		y[24 + i] = b[24 + i];
	}
}

static void m_grp4(s16 *x, s16 *y)	/* per 128-bit lane: 64-bit units (unpack lo, hi) */
{
	s16 a[32], b[32];
	int l, i;

	memcpy(a, x, sizeof(a));
	memcpy(b, y, sizeof(b));
	for (l = 0; l < 4; l++) {
		for (i = 0; i < 4; i++) {
			x[8 * l + i] = a[8 * l + i];
			x[8 * l + 4 + i] = b[8 * l + i];
			y[8 * l + i] = a[8 * l + 4 + i];
			y[8 * l + 4 + i] = b[8 * l + 4 + i];
		}
	}
}

static void m_grp2(s16 *x, s16 *y)	/* per 64-bit unit: 32-bit halves */
{
	s16 a[32], b[32];
	int q;

	memcpy(a, x, sizeof(a));
	memcpy(b, y, sizeof(b));
	for (q = 0; q < 8; q++) {
		x[4 * q] = a[4 * q];
		x[4 * q + 1] = a[4 * q + 1];
		x[4 * q + 2] = b[4 * q];
		x[4 * q + 3] = b[4 * q + 1];
		y[4 * q] = a[4 * q + 2];
		y[4 * q + 1] = a[4 * q + 3];
		y[4 * q + 2] = b[4 * q + 2];
		y[4 * q + 3] = b[4 * q + 3];
	}
}

static void zv_set(struct zvec32 *v, unsigned int lane, s16 z)
{
	v->z[lane] = z;
	v->zq[lane] = mont_q(z);
}

/*
 * Follow each coefficient of a block through the regroupings: before the
 * layer of distance d, lane l of x holds coefficient c and lane l of y
 * c + d, whose butterfly takes zeta[128/d + c/(2d)] in the NTT (the
 * generic code's running index) and zeta[256/d - 1 - c/(2d)] in the
 * inverse.
 */
static int mlkem_avx512_tables(void)
{
	static void (*const grp[4])(s16 *, s16 *) = { m_grp16, m_grp8, m_grp4, m_grp2 };
	const s16 *z = rind_mlkem_zetas;
	s16 x[32], y[32], pos[64];
	unsigned int p, L, l, d, c;

	for (p = 0; p < 4; p++) {
		for (l = 0; l < 32; l++) {
			x[l] = (s16)(64 * p + l);
			y[l] = (s16)(64 * p + 32 + l);
		}
		for (L = 0; L < 4; L++) {
			d = 16u >> L;
			grp[L](x, y);
			for (l = 0; l < 32; l++) {
				c = (unsigned int)x[l];
				if ((unsigned int)y[l] != c + d)
					return -EFAULT;	/* a model out of step: register nothing */
				zv_set(&ntt_zv[p][L], l, z[128 / d + c / (2 * d)]);
				zv_set(&inv_zv[p][L], l, z[256 / d - 1 - c / (2 * d)]);
			}
		}
		for (l = 0; l < 32; l++) {
			pos[x[l] - 64 * p] = (s16)l;
			pos[y[l] - 64 * p] = (s16)(32 + l);
			inv_in_idx[0][l] = (s16)(x[l] - 64 * p);
			inv_in_idx[1][l] = (s16)(y[l] - 64 * p);
		}
		for (l = 0; l < 32; l++) {
			ntt_out_idx[0][l] = pos[l];
			ntt_out_idx[1][l] = pos[32 + l];
		}
	}
	for (c = 0; c < MLKEM_N; c++)
		zv_set(&gamma_v[c / 32], c % 32, (c & 1) ? rind_mlkem_gammas[c / 2] : 0);
	return 0;
}

/* ---- arithmetic --------------------------------------------------------- */

T512_INLINE __m512i ld(const void *p)
{
	return _mm512_loadu_si512(p);
}

T512_INLINE void st(void *p, __m512i v)
{
	_mm512_storeu_si512(p, v);
}

/* a * b * R^-1, as montgomery_reduce(a * b) */
T512_INLINE __m512i fqmul(__m512i a, __m512i b)
{
	__m512i lo = _mm512_mullo_epi16(a, b);
	__m512i hi = _mm512_mulhi_epi16(a, b);

	lo = _mm512_mullo_epi16(lo, _mm512_set1_epi16(QINV));
	return _mm512_sub_epi16(hi, _mm512_mulhi_epi16(lo, _mm512_set1_epi16(Q)));
}

/* The same with zq = z q^-1 mod 2^16 precomputed. */
T512_INLINE __m512i fqmul_z(__m512i b, __m512i z, __m512i zq)
{
	__m512i hi = _mm512_mulhi_epi16(b, z);
	__m512i t = _mm512_mullo_epi16(b, zq);

	return _mm512_sub_epi16(hi, _mm512_mulhi_epi16(t, _mm512_set1_epi16(Q)));
}

T512_INLINE __m512i barrett(__m512i a)
{
	__m512i t = _mm512_mulhi_epi16(a, _mm512_set1_epi16(BARRETT_V));

	t = _mm512_srai_epi16(_mm512_add_epi16(t, _mm512_set1_epi16(1 << 9)), 10);
	return _mm512_sub_epi16(a, _mm512_mullo_epi16(t, _mm512_set1_epi16(Q)));
}

/* From any representative to [0, q): Barrett, then add q where negative. */
T512_INLINE __m512i canonical(__m512i a)
{
	a = barrett(a);
	return _mm512_mask_add_epi16(a, _mm512_movepi16_mask(a), a, _mm512_set1_epi16(Q));
}

/* Cooley-Tukey: a + z b, a - z b */
T512_INLINE void bf(__m512i *a, __m512i *b, __m512i z, __m512i zq)
{
	__m512i t = fqmul_z(*b, z, zq);

	*b = _mm512_sub_epi16(*a, t);
	*a = _mm512_add_epi16(*a, t);
}

/* Gentleman-Sande: reduce(a + b), z (b - a) */
T512_INLINE void ibf(__m512i *a, __m512i *b, __m512i z, __m512i zq)
{
	__m512i t = *a;

	*a = barrett(_mm512_add_epi16(t, *b));
	*b = fqmul_z(_mm512_sub_epi16(*b, t), z, zq);
}

T512_INLINE void bf_s(__m512i *a, __m512i *b, s16 z)
{
	bf(a, b, _mm512_set1_epi16(z), _mm512_set1_epi16(mont_q(z)));
}

T512_INLINE void ibf_s(__m512i *a, __m512i *b, s16 z)
{
	ibf(a, b, _mm512_set1_epi16(z), _mm512_set1_epi16(mont_q(z)));
}

T512_INLINE void bf_v(__m512i *a, __m512i *b, const struct zvec32 *v)
{
	bf(a, b, ld(v->z), ld(v->zq));
}

T512_INLINE void ibf_v(__m512i *a, __m512i *b, const struct zvec32 *v)
{
	ibf(a, b, ld(v->z), ld(v->zq));
}

/* The regroupings, as m_grp16 .. m_grp2 model them; each undoes itself. */
T512_INLINE void grp16(__m512i *x, __m512i *y)
{
	__m512i a = *x, b = *y;

	*x = _mm512_shuffle_i64x2(a, b, 0x44);
	*y = _mm512_shuffle_i64x2(a, b, 0xee);
}

static const u64 grp8_idx[2][8] __attribute__((aligned(64))) = {
	{ 0, 1, 8, 9, 4, 5, 12, 13 },
	{ 2, 3, 10, 11, 6, 7, 14, 15 },
};

T512_INLINE void grp8(__m512i *x, __m512i *y)
{
	__m512i a = *x, b = *y;

	*x = _mm512_permutex2var_epi64(a, ld(grp8_idx[0]), b);
	*y = _mm512_permutex2var_epi64(a, ld(grp8_idx[1]), b);
}

T512_INLINE void grp4(__m512i *x, __m512i *y)
{
	__m512i a = *x, b = *y;

	*x = _mm512_unpacklo_epi64(a, b);
	*y = _mm512_unpackhi_epi64(a, b);
}

T512_INLINE void grp2(__m512i *x, __m512i *y)
{
	__m512i a = *x, b = *y;

	*x = _mm512_mask_blend_epi32(0xaaaa, a, _mm512_slli_epi64(b, 32));
	*y = _mm512_mask_blend_epi32(0xaaaa, _mm512_srli_epi64(a, 32), b);
}

/*
 * One block's in-register layers (distance 32 as a whole pair first), for
 * two blocks at a time: two independent chains of multiplies and
 * shuffles keep the units busy where one would wait on its latencies.
 */
static T512 void avx512_ntt(struct mlkem_poly *f)
{
	const s16 *z = rind_mlkem_zetas;
	const __m512i ox = ld(ntt_out_idx[0]), oy = ld(ntt_out_idx[1]);
	__m512i v[8];
	unsigned int k, p, L;

#pragma GCC unroll 8
	for (k = 0; k < 8; k++)
		v[k] = ld(&f->c[32 * k]);
#pragma GCC unroll 4
	for (k = 0; k < 4; k++)
		bf_s(&v[k], &v[k + 4], z[1]);
#pragma GCC unroll 4
	for (k = 0; k < 4; k++)
		bf_s(&v[(k & 2) * 2 + (k & 1)], &v[(k & 2) * 2 + (k & 1) + 2], z[2 + k / 2]);
#pragma GCC unroll 2
	for (p = 0; p < 4; p += 2) {
		__m512i x = v[2 * p], y = v[2 * p + 1], x1 = v[2 * p + 2], y1 = v[2 * p + 3];

		bf_s(&x, &y, z[4 + p]);
		bf_s(&x1, &y1, z[5 + p]);
#pragma GCC unroll 4
		for (L = 0; L < 4; L++) {
			switch (L) {
			case 0:
				grp16(&x, &y);
				grp16(&x1, &y1);
				break;
			case 1:
				grp8(&x, &y);
				grp8(&x1, &y1);
				break;
			case 2:
				grp4(&x, &y);
				grp4(&x1, &y1);
				break;
			default:
				grp2(&x, &y);
				grp2(&x1, &y1);
			}
			bf_v(&x, &y, &ntt_zv[p][L]);
			bf_v(&x1, &y1, &ntt_zv[p + 1][L]);
		}
		st(&f->c[64 * p], barrett(_mm512_permutex2var_epi16(x, ox, y)));
		st(&f->c[64 * p + 32], barrett(_mm512_permutex2var_epi16(x, oy, y)));
		st(&f->c[64 * p + 64], barrett(_mm512_permutex2var_epi16(x1, ox, y1)));
		st(&f->c[64 * p + 96], barrett(_mm512_permutex2var_epi16(x1, oy, y1)));
	}
}

static T512 void avx512_invntt(struct mlkem_poly *f)
{
	const s16 *z = rind_mlkem_zetas;
	const __m512i ix = ld(inv_in_idx[0]), iy = ld(inv_in_idx[1]);
	const __m512i fz = _mm512_set1_epi16(rind_mlkem_invntt_f);
	__m512i v[8];
	unsigned int k, p;
	int L;

#pragma GCC unroll 2
	for (p = 0; p < 4; p += 2) {
		__m512i a = ld(&f->c[64 * p]), b = ld(&f->c[64 * p + 32]);
		__m512i a1 = ld(&f->c[64 * p + 64]), b1 = ld(&f->c[64 * p + 96]);
		__m512i x = _mm512_permutex2var_epi16(a, ix, b), y = _mm512_permutex2var_epi16(a, iy, b);
		__m512i x1 = _mm512_permutex2var_epi16(a1, ix, b1);
		__m512i y1 = _mm512_permutex2var_epi16(a1, iy, b1);

#pragma GCC unroll 4
		for (L = 3; L >= 0; L--) {
			ibf_v(&x, &y, &inv_zv[p][L]);
			ibf_v(&x1, &y1, &inv_zv[p + 1][L]);
			switch (L) {
			case 0:
				grp16(&x, &y);
				grp16(&x1, &y1);
				break;
			case 1:
				grp8(&x, &y);
				grp8(&x1, &y1);
				break;
			case 2:
				grp4(&x, &y);
				grp4(&x1, &y1);
				break;
			default:
				grp2(&x, &y);
				grp2(&x1, &y1);
			}
		}
		ibf_s(&x, &y, z[7 - p]);
		ibf_s(&x1, &y1, z[6 - p]);
		v[2 * p] = x;
		v[2 * p + 1] = y;
		v[2 * p + 2] = x1;
		v[2 * p + 3] = y1;
	}
#pragma GCC unroll 4
	for (k = 0; k < 4; k++)
		ibf_s(&v[(k & 2) * 2 + (k & 1)], &v[(k & 2) * 2 + (k & 1) + 2], z[3 - k / 2]);
#pragma GCC unroll 4
	for (k = 0; k < 4; k++)
		ibf_s(&v[k], &v[k + 4], z[1]);
#pragma GCC unroll 8
	for (k = 0; k < 8; k++)
		st(&f->c[32 * k], fqmul(v[k], fz));
}

/*
 * a * b for thirty-two coefficients: per pair (a0 b0 + a1 b1 gamma,
 * a0 b1 + a1 b0), each product reduced as the generic code reduces it.
 * VPROLD by 16 swaps the two halves of each pair.
 */
T512_INLINE __m512i basemul32(__m512i va, __m512i vb, const struct zvec32 *g)
{
	__m512i p = fqmul(va, vb);				/* a0b0, a1b1 */
	__m512i pg = fqmul_z(p, ld(g->z), ld(g->zq));		/* -, a1b1g */
	__m512i c = fqmul(va, _mm512_rol_epi32(vb, 16));	/* a0b1, a1b0 */
	__m512i s = _mm512_mask_blend_epi16(ODD16, p, c);	/* a0b0, a1b0 */
	__m512i u = _mm512_mask_blend_epi16(ODD16, c, pg);	/* a0b1, a1b1g */

	return _mm512_add_epi16(s, _mm512_rol_epi32(u, 16));
}

/* r += a * b */
static T512 void avx512_basemul_acc(struct mlkem_poly *r, const struct mlkem_poly *a,
				    const struct mlkem_poly *b)
{
	unsigned int k;

#pragma GCC unroll 8
	for (k = 0; k < MLKEM_N; k += 32)
		st(&r->c[k], _mm512_add_epi16(ld(&r->c[k]),
					      basemul32(ld(&a->c[k]), ld(&b->c[k]), &gamma_v[k / 32])));
}

/*
 * For a row sum (mlkem-avx2.c's kg_mulcache): per polynomial b two
 * multiplier vectors, b0 = (b_2i, b_2i+1 gamma_i), b1 = (b_2i+1, b_2i), so
 * that one VPMADDWD of a pair (a_2i, a_2i+1) with each gives the two
 * 32-bit sums of the base-case product.
 */
static T512 void mulcache(struct mlkem_poly b0[], struct mlkem_poly b1[],
			  const struct mlkem_poly s[], unsigned int k)
{
	unsigned int m, j;

	for (m = 0; m < k; m++) {
		for (j = 0; j < MLKEM_N; j += 32) {
			__m512i b = ld(&s[m].c[j]);
			const struct zvec32 *g = &gamma_v[j / 32];

			st(&b0[m].c[j], _mm512_mask_blend_epi16(ODD16, b, fqmul_z(b, ld(g->z), ld(g->zq))));
			st(&b1[m].c[j], _mm512_rol_epi32(b, 16));
		}
	}
}

/*
 * Coefficients j .. j+31 of the sum over m < k of a[m] * b[m] times R^-1,
 * in (-q, q): the 32-bit sums (|sum| < 2 k q^2 < q 2^15) Montgomery-
 * reduced once, the even lanes' from c0, the odd lanes' from c1.
 */
T512_INLINE __m512i row_sum32(const struct mlkem_poly *const a[], const struct mlkem_poly b0[],
			      const struct mlkem_poly b1[], unsigned int k, unsigned int j)
{
	__m512i c0 = _mm512_setzero_si512(), c1 = _mm512_setzero_si512(), lo, hi;
	unsigned int m;

	for (m = 0; m < k; m++) {
		__m512i x = ld(&a[m]->c[j]);

		c0 = _mm512_add_epi32(c0, _mm512_madd_epi16(x, ld(&b0[m].c[j])));
		c1 = _mm512_add_epi32(c1, _mm512_madd_epi16(x, ld(&b1[m].c[j])));
	}
	lo = _mm512_mask_blend_epi16(ODD16, c0, _mm512_slli_epi32(c1, 16));
	hi = _mm512_mask_blend_epi16(ODD16, _mm512_srli_epi32(c0, 16), c1);
	lo = _mm512_mullo_epi16(lo, _mm512_set1_epi16(QINV));
	return _mm512_sub_epi16(hi, _mm512_mulhi_epi16(lo, _mm512_set1_epi16(Q)));
}

/* struct mlkem_ops.matvec: each row's sums reduced once, then Barrett-reduced. */
static T512 void avx512_matvec(struct mlkem_poly *r, const struct mlkem_poly *const a[],
			       unsigned int rows, const struct mlkem_poly b[], unsigned int k)
{
	struct mlkem_poly b0[MLKEM_KMAX], b1[MLKEM_KMAX];
	unsigned int i, j;

	mulcache(b0, b1, b, k);
	for (i = 0; i < rows; i++)
		for (j = 0; j < MLKEM_N; j += 32)
			st(&r[i].c[j], barrett(row_sum32(a + i * k, b0, b1, k, j)));
	memzero_explicit(b0, sizeof(b0));
	memzero_explicit(b1, sizeof(b1));
}

/* ---- compression ---------------------------------------------------------- */

/*
 * Compress_d(x) = floor((2^d x + (q-1)/2) / q) mod 2^d for x in [0, q):
 * the estimate floor(x M / 2^16), M = round(2^(16+d) / q), is off by at
 * most one; the remainder 2^d x + (q-1)/2 - t q (exact in 16 bits: it
 * lies in [-q, 2q)) says which way.  mlkem-avx2.c's compress16.
 */
T512_INLINE __m512i compress32(__m512i x, const unsigned int d)
{
	const __m512i one = _mm512_set1_epi16(1);
	__m512i t = _mm512_mulhi_epu16(x, _mm512_set1_epi16((short)((((u32)1 << (16 + d)) + Q / 2) / Q)));
	__m512i y = _mm512_add_epi16(_mm512_slli_epi16(x, d), _mm512_set1_epi16((Q - 1) / 2));
	__m512i r = _mm512_sub_epi16(y, _mm512_mullo_epi16(t, _mm512_set1_epi16(Q)));

	t = _mm512_mask_add_epi16(t, _mm512_cmpgt_epi16_mask(r, _mm512_set1_epi16(Q - 1)), t, one);
	t = _mm512_mask_sub_epi16(t, _mm512_movepi16_mask(r), t, one);
	return _mm512_and_si512(t, _mm512_set1_epi16((short)((1u << d) - 1)));
}

/*
 * Pairs of d-bit fields joined in 32-bit lanes (c0 + 2^d c1, VPMADDWD),
 * then pairs of those in 64-bit lanes: the low 2d bits from the low half,
 * the high half shifted down to bit 2d (VPTERNLOGQ as a bit select).
 */
T512_INLINE __m512i join4(__m512i c, const unsigned int d)
{
	__m512i w = _mm512_madd_epi16(c, _mm512_set1_epi32(1 | (1 << (16 + d))));
	__m512i m = _mm512_set1_epi64((long long)((1ull << (2 * d)) - 1));

	return _mm512_ternarylogic_epi64(m, w, _mm512_srli_epi64(w, 32 - 2 * d), 0xca);
}

/* The low @n bytes of each 128-bit lane of @v to r, r + n, r + 2n, r + 3n. */
T512_INLINE void store_lanes(u8 *r, __m512i v, const unsigned int n)
{
	const __mmask16 m = (__mmask16)((1u << n) - 1);

	_mm_mask_storeu_epi8(r, m, _mm512_castsi512_si128(v));
	_mm_mask_storeu_epi8(r + n, m, _mm512_extracti32x4_epi32(v, 1));
	_mm_mask_storeu_epi8(r + 2 * n, m, _mm512_extracti32x4_epi32(v, 2));
	_mm_mask_storeu_epi8(r + 3 * n, m, _mm512_extracti32x4_epi32(v, 3));
}

/* words 8i .. 8i+4 of the four lanes to words 0 .. 19 (d = 10) */
static const s16 pack10_idx[32] __attribute__((aligned(64))) = {
	0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 16, 17, 18, 19, 20, 24, 25, 26, 27, 28,
};

/* ByteEncode_d of the 32 fields of @c (each < 2^d): 4 d bytes at @r */
T512_INLINE void encode32(u8 *r, __m512i c, const unsigned int d)
{
	__m512i t, hi;

	switch (d) {
	case 1:
		put_unaligned_le32((u32)_mm512_test_epi16_mask(c, c), r);
		break;
	case 4:
		_mm_storeu_si128((__m128i *)r,
				 _mm512_cvtepi32_epi8(_mm512_madd_epi16(c, _mm512_set1_epi32(1 | (16 << 16)))));
		break;
	case 5:
		/* 20 bits a 64-bit lane, two of them 40 bits a 128-bit lane */
		t = join4(c, 5);
		t = _mm512_or_si512(t, _mm512_bsrli_epi128(_mm512_slli_epi64(t, 20), 8));
		store_lanes(r, t, 5);
		break;
	case 10:
		/* 40 bits a 64-bit lane: bytes 0-4 and 8-12 of each 128-bit lane */
		t = _mm512_shuffle_epi8(join4(c, 10),
					_mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 2, 3, 4, 8, 9, 10, 11, 12,
									     -1, -1, -1, -1, -1, -1)));
		t = _mm512_permutexvar_epi16(ld(pack10_idx), t);
		_mm512_mask_storeu_epi8(r, (__mmask64)((1ull << 40) - 1), t);
		break;
	default:
		/* d = 11: 44 bits a 64-bit lane, 88 a 128-bit lane */
		t = join4(c, 11);
		hi = _mm512_srli_epi64(t, 20);
		t = _mm512_or_si512(t, _mm512_bsrli_epi128(_mm512_slli_epi64(t, 44), 8));
		t = _mm512_mask_blend_epi64(0xaa, t, hi);
		store_lanes(r, t, 11);
	}
}

T512_INLINE void compress_d(u8 *r, const struct mlkem_poly *a, const unsigned int d)
{
	unsigned int i;

#pragma GCC unroll 8
	for (i = 0; i < MLKEM_N; i += 32)
		encode32(r + 4 * d * (i / 32), compress32(canonical(ld(&a->c[i])), d), d);
}

static T512 void avx512_compress(u8 *r, const struct mlkem_poly *a, unsigned int d)
{
	switch (d) {
	case 1:
		compress_d(r, a, 1);
		break;
	case 4:
		compress_d(r, a, 4);
		break;
	case 5:
		compress_d(r, a, 5);
		break;
	case 10:
		compress_d(r, a, 10);
		break;
	default:
		compress_d(r, a, 11);
	}
}

/*
 * ByteDecode_d of 4 d bytes at @a: 32 fields, each given the two (d = 11:
 * three) bytes it spans in its 16-bit lane and shifted down by VPSRLVW.
 * Lane i of 128 bits takes the fields 8i .. 8i+7, bytes d i .. d i + d-1.
 */
static const s16 unpack10_idx[32] __attribute__((aligned(64))) = {
	0, 1, 2, 3, 4, 5, 6, 7, 5, 6, 7, 8, 9, 10, 11, 12,
	10, 11, 12, 13, 14, 15, 16, 17, 15, 16, 17, 18, 19, 19, 19, 19,
};

/*
 * d = 5: field k of lane i at bit 40 i + 5 k, in byte 5 i + 5k/8 (lane
 * 3's bytes start at 4, its load's offset) and the next one where the
 * field crosses into it (otherwise zero), shifted by 5k % 8.
 */
static u8 dec5_idx[64] __attribute__((aligned(64)));
static s16 dec5_sh[32] __attribute__((aligned(64)));

static void dec5_tables(void)
{
	unsigned int i, k;

	for (i = 0; i < 4; i++) {
		for (k = 0; k < 8; k++) {
			unsigned int bit = 40 * i + 5 * k, b = bit / 8 - (i < 3 ? 0 : 4), s = bit % 8;

			dec5_idx[16 * i + 2 * k] = (u8)b;
			dec5_idx[16 * i + 2 * k + 1] = s + 5 > 8 ? (u8)(b + 1) : 0x80;
			dec5_sh[8 * i + k] = (s16)s;
		}
	}
}

T512_INLINE __m512i decode32(const u8 *a, const unsigned int d)
{
	__m512i x, y;

	switch (d) {
	case 4:
		/* byte j in 32-bit lane j: its nibbles to bits 0-3 and 16-19 */
		x = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)a));
		return _mm512_and_si512(_mm512_or_si512(x, _mm512_slli_epi32(x, 12)),
					_mm512_set1_epi32(0x000f000f));
	case 5:
		/* lanes 0-2 from bytes 0-15, lane 3 (bytes 15-19) from bytes 4-19 */
		x = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)a));
		x = _mm512_inserti32x4(x, _mm_loadu_si128((const __m128i *)(a + 4)), 3);
		x = _mm512_srlv_epi16(_mm512_shuffle_epi8(x, ld(dec5_idx)), ld(dec5_sh));
		return _mm512_and_si512(x, _mm512_set1_epi16(0x1f));
	case 10: {
		const __m512i sh = _mm512_broadcast_i32x4(_mm_setr_epi16(0, 2, 4, 6, 0, 2, 4, 6));

		x = _mm512_maskz_loadu_epi8((__mmask64)((1ull << 40) - 1), a);
		x = _mm512_permutexvar_epi16(ld(unpack10_idx), x);
		x = _mm512_shuffle_epi8(x, _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 1, 2, 2, 3, 3, 4,
										5, 6, 6, 7, 7, 8, 8, 9)));
		return _mm512_and_si512(_mm512_srlv_epi16(x, sh), _mm512_set1_epi16(0x3ff));
	}
	default: {
		/*
		 * d = 11: field k of a lane at bit 11 k: bytes b = 11k/8 .. b+2,
		 * shift s = 11k % 8; (bytes b, b+1) >> s | (bytes b+1, b+2) << (8 - s)
		 */
		const __m128i lo = _mm_setr_epi8(0, 1, 1, 2, 2, 3, 4, 5, 5, 6, 6, 7, 8, 9, 9, 10);
		const __m128i hi = _mm_setr_epi8(1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 9, 10, 10, 11);
		const __m512i sr = _mm512_broadcast_i32x4(_mm_setr_epi16(0, 3, 6, 1, 4, 7, 2, 5));
		const __m512i sll = _mm512_broadcast_i32x4(_mm_setr_epi16(8, 5, 2, 7, 4, 1, 6, 3));

		x = _mm512_castsi128_si512(_mm_maskz_loadu_epi8(0x0fff, a));
		x = _mm512_inserti32x4(x, _mm_maskz_loadu_epi8(0x0fff, a + 11), 1);
		x = _mm512_inserti32x4(x, _mm_maskz_loadu_epi8(0x0fff, a + 22), 2);
		x = _mm512_inserti32x4(x, _mm_maskz_loadu_epi8(0x07ff, a + 33), 3);
		y = _mm512_sllv_epi16(_mm512_shuffle_epi8(x, _mm512_broadcast_i32x4(hi)), sll);
		x = _mm512_srlv_epi16(_mm512_shuffle_epi8(x, _mm512_broadcast_i32x4(lo)), sr);
		return _mm512_and_si512(_mm512_or_si512(x, y), _mm512_set1_epi16(0x7ff));
	}
	}
}

/* Decompress_d(y) = floor((q y + 2^(d-1)) / 2^d): VPMULHRSW of y 2^(15-d) by q. */
T512_INLINE void decompress_d(struct mlkem_poly *r, const u8 *a, const unsigned int d)
{
	unsigned int i;

#pragma GCC unroll 8
	for (i = 0; i < MLKEM_N; i += 32)
		st(&r->c[i], _mm512_mulhrs_epi16(_mm512_slli_epi16(decode32(a + 4 * d * (i / 32), d),
								   15 - d),
						 _mm512_set1_epi16(Q)));
}

/* The ciphertext is public; nothing is read past its 32 d bytes. */
static T512 void avx512_decompress(struct mlkem_poly *r, const u8 *a, unsigned int d)
{
	switch (d) {
	case 1: {
		/* Decompress_1: bit i -> 0 or 1665 (not used by the KEM, which has frommsg) */
		unsigned int i;

		for (i = 0; i < MLKEM_N; i += 32)
			st(&r->c[i], _mm512_maskz_mov_epi16((__mmask32)get_unaligned_le32(a + i / 8),
							    _mm512_set1_epi16((Q + 1) / 2)));
		break;
	}
	case 4:
		decompress_d(r, a, 4);
		break;
	case 5:
		decompress_d(r, a, 5);
		break;
	case 10:
		decompress_d(r, a, 10);
		break;
	default:
		decompress_d(r, a, 11);
	}
}

/* ---- SampleNTT's rejection ------------------------------------------------- */

/*
 * Step h (h < 7) takes bytes 24h .. 24h+23 of the block: 16 candidates,
 * four a 128-bit lane from its 6 bytes (words 12h + 3i .. 12h + 3i + 2,
 * lane i).  The block's 21 words are the three registers z0..z2 (bytes
 * 0-63, 64-127, 128-191); steps 0-4 read words 0-59 of z0:z1, steps 5, 6
 * words 60-83 of z1:z2 (index relative to z1).
 */
static s16 rej_perm[7][32] __attribute__((aligned(64)));

static void rej_tables(void)
{
	unsigned int h, i, j;

	for (h = 0; h < 7; h++) {
		unsigned int base = h < 5 ? 0 : 32;

		for (i = 0; i < 4; i++)
			for (j = 0; j < 8; j++)
				rej_perm[h][8 * i + j] = (s16)(j < 3 ? 12 * h + 3 * i + j - base : 0);
	}
}

/*
 * One step: the accepted candidates (value < q) at the front of a
 * register of sixteen 16-bit lanes, their number in *cnt.
 */
T512_INLINE __m256i rej_step(__m512i lo, __m512i hi, const s16 *perm, unsigned int *cnt)
{
	/* dword m of a lane: bytes 3(m/2) + (m&1), +1 of its six */
	const __m512i spread = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, -1, -1, 1, 2, -1, -1,
								    3, 4, -1, -1, 4, 5, -1, -1));
	__m512i x = _mm512_permutex2var_epi16(lo, ld(perm), hi);
	__mmask16 ok;

	x = _mm512_shuffle_epi8(x, spread);
	x = _mm512_mask_srli_epi32(x, 0xaaaa, x, 4);
	x = _mm512_and_si512(x, _mm512_set1_epi32(0xfff));
	ok = _mm512_cmplt_epu32_mask(x, _mm512_set1_epi32(Q));
	*cnt = (unsigned int)_mm_popcnt_u32(ok);
	return _mm512_cvtepi32_epi16(_mm512_maskz_compress_epi32(ok, x));
}

/*
 * struct mlkem_x86_kg_hooks.rej_block: all seven steps first (no store
 * waits on a running count), then the places in r, each a masked store of
 * what still fits.
 */
static T512 unsigned int avx512_rej_block(s16 *r, unsigned int ctr, const __m256i w[6])
{
	__m512i z0 = _mm512_inserti64x4(_mm512_castsi256_si512(w[0]), w[1], 1);
	__m512i z1 = _mm512_inserti64x4(_mm512_castsi256_si512(w[2]), w[3], 1);
	__m512i z2 = _mm512_inserti64x4(_mm512_castsi256_si512(w[4]), w[5], 1);
	__m256i acc[7];
	unsigned int cnt[7], h;

#pragma GCC unroll 5
	for (h = 0; h < 5; h++)
		acc[h] = rej_step(z0, z1, rej_perm[h], &cnt[h]);
#pragma GCC unroll 2
	for (; h < 7; h++)
		acc[h] = rej_step(z1, z2, rej_perm[h], &cnt[h]);
#pragma GCC unroll 7
	for (h = 0; h < 7; h++) {
		unsigned int n = cnt[h] < MLKEM_N - ctr ? cnt[h] : MLKEM_N - ctr;

		_mm256_mask_storeu_epi16(r + ctr, (__mmask16)((1u << n) - 1), acc[h]);
		ctr += n;
	}
	return ctr;
}

const struct mlkem_x86_kg_hooks rind_mlkem_avx512_kg_hooks = {
	.ntt		= avx512_ntt,
	.rej_block	= avx512_rej_block,
	.lanes		= 4,
	.permute	= rind_mlkem_avx2_kg_permute4,
};

/* ---- eight SHAKE streams at once (keccak-avx512.c) ---------------------------- */

union keccakx8_lanes {
	struct keccakx8_state st;
	u64 w[25][8];	/* w[i][l]: word i of state l */
};

/*
 * Start state @l on the one-block input @seed || @tail (@tlen = 1 or 2
 * bytes, little-endian), padded for SHAKE at @rate, straight into the
 * lanes (no copy of sigma left to wipe) -- mlkem-avx2.c's lane_start.
 */
static void x8_lane_start(union keccakx8_lanes *s, unsigned int l, const u8 seed[32], u32 tail,
			  unsigned int tlen, unsigned int rate)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		s->w[i][l] = get_unaligned_le64(seed + 8 * i);
	s->w[4][l] = tail | (u64)KECCAK_DS_SHAKE << (8 * tlen);
	for (i = 5; i < 25; i++)
		s->w[i][l] = 0;
	s->w[rate / 8 - 1][l] ^= 0x80ull << 56;
}

/* words 0..23 of state l in lw[l][0..5], rej_block's form */
T512_INLINE void x8_blocks(__m256i lw[8][6], const struct keccakx8_state *st)
{
	__m512i r[8];
	unsigned int g, l;

	for (g = 0; g < 3; g++) {
		keccakx8_extract(r, st, 8 * g);
		for (l = 0; l < 8; l++) {
			lw[l][2 * g] = _mm512_castsi512_si256(r[l]);
			lw[l][2 * g + 1] = _mm512_extracti64x4_epi64(r[l], 1);
		}
	}
}

/*
 * struct mlkem_x86_kg_hooks.permute on the eight-way permutation: x8_blocks
 * with its transposed registers wiped after (the noise lanes are secret)
 */
static T512 void x8_kg_permute(u64 *w, __m256i lw[][6])
{
	struct keccakx8_state *st = (struct keccakx8_state *)(void *)w;
	__m512i r[8];
	unsigned int g, l;

	keccakx8_f1600(st);
	for (g = 0; g < 3; g++) {
		keccakx8_extract(r, st, 8 * g);
		for (l = 0; l < 8; l++) {
			lw[l][2 * g] = _mm512_castsi512_si256(r[l]);
			lw[l][2 * g + 1] = _mm512_extracti64x4_epi64(r[l], 1);
		}
	}
	memzero_explicit(r, sizeof(r));
}

/*
 * Key generation's lane schedule (mlkem-avx2.c's kg_run: the 2k PRF
 * streams, A-hat row by row, H(ek)'s blocks as ek is encoded) on eight
 * lanes.
 */
const struct mlkem_x86_kg_hooks rind_mlkem_avx512_kg_hooks_x8 = {
	.ntt		= avx512_ntt,
	.rej_block	= avx512_rej_block,
	.lanes		= 8,
	.permute	= x8_kg_permute,
};

#define X8_IDLE	0xffu

/*
 * A-hat entries @first .. @first + @n - 1 (entry i k + j is A-hat[i][j] =
 * SampleNTT(rho || j || i)) over the eight lanes, each lane taking the
 * next entry as soon as its own has 256 coefficients: ML-KEM-1024's 16
 * streams (three blocks each, rarely four) take 6 or 7 eight-way
 * permutations.  The schedule depends only on rejections over rho (public).
 */
static T512 void x8_matrix(struct mlkem_key *key, const u8 rho[32], unsigned int first,
			   unsigned int n)
{
	const unsigned int k = key->p->k;
	union keccakx8_lanes s;
	__m256i lw[8][6];
	unsigned int job[8], ctr[8], next = first, end = first + n, busy = 0, l;

	memset(&s, 0, sizeof(s));
	for (l = 0; l < 8; l++) {
		ctr[l] = 0;
		job[l] = X8_IDLE;
		if (next < end) {
			job[l] = next++;
			x8_lane_start(&s, l, rho, job[l] % k | (job[l] / k) << 8, 2, SHAKE128_RATE);
			busy++;
		}
	}
	while (busy) {
		keccakx8_f1600(&s.st);
		x8_blocks(lw, &s.st);
		for (l = 0; l < 8; l++) {
			unsigned int j = job[l];

			if (j == X8_IDLE)
				continue;
			ctr[l] = avx512_rej_block(key->a[j / k][j % k].c, ctr[l], lw[l]);
			if (ctr[l] < MLKEM_N)
				continue;
			busy--;
			ctr[l] = 0;
			job[l] = X8_IDLE;
			if (next < end) {
				job[l] = next++;
				x8_lane_start(&s, l, rho, job[l] % k | (job[l] / k) << 8, 2,
					      SHAKE128_RATE);
				busy++;
			}
		}
	}
}

/* One A-hat entry on the scalar permutation (a lone stream: cheaper than a wide one) */
static T512 void x1_matrix_entry(struct mlkem_key *key, const u8 rho[32], unsigned int j)
{
	const unsigned int k = key->p->k;
	u64 a[25];
	__m256i lw[6];
	unsigned int ctr = 0, i;

	for (i = 0; i < 4; i++)
		a[i] = get_unaligned_le64(rho + 8 * i);
	a[4] = (j % k) | (j / k) << 8 | (u64)KECCAK_DS_SHAKE << 16;
	for (i = 5; i < 25; i++)
		a[i] = 0;
	a[SHAKE128_RATE / 8 - 1] ^= 0x80ull << 56;
	while (ctr < MLKEM_N) {
		rind_keccak_f1600(a);
		for (i = 0; i < 6; i++)
			lw[i] = _mm256_loadu_si256((const __m256i *)(a + 4 * i));
		ctr = avx512_rej_block(key->a[j / k][j % k].c, ctr, lw);
	}
}

/* ---- key generation, matrix, registration ------------------------------------ */

/*
 * struct mlkem_ops.gen_matrix: the k^2 streams eight at a time, the rest
 * (ML-KEM-768's ninth) on the scalar permutation; ML-KEM-512's four keep
 * the four-way schedule (three four-way permutations).  Permutations:
 * 512: 3 four-way; 768: 3 eight-way + 3 scalar (four-way schedule: 7);
 * 1024: 6-7 eight-way (four-way: 12-13).
 */
static T512 void avx512_gen_matrix(struct mlkem_key *key, const u8 rho[32])
{
	const unsigned int n = key->p->k * key->p->k, n8 = n & ~7u;
	unsigned int j;

	if (!n8) {
		rind_mlkem_avx2_gen_matrix_hk(key, rho, &rind_mlkem_avx512_kg_hooks);
		return;
	}
	x8_matrix(key, rho, 0, n8);
	for (j = n8; j < n; j++)
		x1_matrix_entry(key, rho, j);
}

/*
 * SamplePolyCBD_2 of 128 bytes: per byte the sums of its bit pairs, then
 * (low pair sum) - (high pair sum) per nibble; coefficient 2m from the low
 * nibble of byte m, 2m + 1 from the high one.
 */
T512_INLINE void x8_cbd2(struct mlkem_poly *r, const u8 *buf)
{
	const __m128i m55 = _mm_set1_epi8(0x55), m03 = _mm_set1_epi8(3);
	unsigned int i;

	for (i = 0; i < MLKEM_N / 32; i++) {
		__m128i x = _mm_loadu_si128((const __m128i *)(buf + 16 * i));
		__m128i d = _mm_add_epi8(_mm_and_si128(x, m55), _mm_and_si128(_mm_srli_epi16(x, 1), m55));
		__m128i lo = _mm_sub_epi8(_mm_and_si128(d, m03), _mm_and_si128(_mm_srli_epi16(d, 2), m03));
		__m128i hi = _mm_sub_epi8(_mm_and_si128(_mm_srli_epi16(d, 4), m03),
					  _mm_and_si128(_mm_srli_epi16(d, 6), m03));

		_mm256_storeu_si256((__m256i *)&r->c[32 * i], _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(lo, hi)));
		_mm256_storeu_si256((__m256i *)&r->c[32 * i + 16],
				    _mm256_cvtepi8_epi16(_mm_unpackhi_epi8(lo, hi)));
	}
}

/*
 * struct mlkem_ops.noise: PRF_2(sigma, n0 + i) (SHAKE256 of 33 bytes, one
 * block out) eight at a time when there are five or more -- the
 * encryption's 2k + 1 streams of ML-KEM-768 (7) and -1024 (9) -- the rest,
 * fewer than five and eta = 3 (ML-KEM-512's calls: 2 and 3 streams)
 * four at a time (mlkem-avx2.c): ML-KEM-768 encryption in one eight-way
 * permutation instead of two four-way ones, -1024 in one eight-way and
 * one four-way instead of three.  Idle lanes permute a zero state whose
 * output is dropped.
 */
static T512 void avx512_noise(struct mlkem_poly *const r[], unsigned int count, const u8 sigma[32],
			      u8 n0, unsigned int eta)
{
	union keccakx8_lanes s;
	u8 buf[8][SHAKE256_RATE];
	u8 *const outp[8] = { buf[0], buf[1], buf[2], buf[3], buf[4], buf[5], buf[6], buf[7] };
	unsigned int l, n = count < 8 ? count : 8;

	if (count < 5 || eta != 2) {
		rind_mlkem_avx2_noise(r, count, sigma, n0, eta);
		return;
	}
	memset(&s, 0, sizeof(s));
	for (l = 0; l < n; l++)
		x8_lane_start(&s, l, sigma, (u8)(n0 + l), 1, SHAKE256_RATE);
	keccakx8_squeeze_blocks(&s.st, SHAKE256_RATE, outp, 1);	/* 128 of 136 bytes */
	for (l = 0; l < n; l++)
		x8_cbd2(r[l], buf[l]);
	memzero_explicit(&s, sizeof(s));
	memzero_explicit(buf, sizeof(buf));
	if (count > 8)
		rind_mlkem_avx2_noise(r + 8, count - 8, sigma, (u8)(n0 + 8), eta);
}

static void avx512_pke_keygen(struct mlkem_key *key, const u8 rho[32], const u8 sigma[32])
{
	rind_mlkem_avx2_pke_keygen_hk(key, rho, sigma, &rind_mlkem_avx512_kg_hooks_x8);
}

static const struct mlkem_ops mlkem_avx512_ops = {
	.ntt		= avx512_ntt,
	.invntt		= avx512_invntt,
	.basemul_acc	= avx512_basemul_acc,
	.gen_matrix	= avx512_gen_matrix,
	.noise		= avx512_noise,
	.compress	= avx512_compress,
	.decompress	= avx512_decompress,
	.pke_keygen	= avx512_pke_keygen,
	.pke_keygen_h	= true,
	.matvec		= avx512_matvec,
};

static struct mlkem_alg mlkem_avx512_algs[3];
static struct mlkem_alg xmlkem_avx512_alg;
static const char *const mlkem_avx512_names[3] = {
	"mlkem512-avx512", "mlkem768-avx512", "mlkem1024-avx512",
};

static int mlkem_avx512_mod_init(void)
{
	int err;

	if (!rind_cpu_has(RIND_X86_AVX2) || !rind_cpu_has(RIND_X86_BMI2) ||
	    !rind_cpu_has(RIND_X86_AVX512F) || !rind_cpu_has(RIND_X86_AVX512BW) ||
	    !rind_cpu_has(RIND_X86_AVX512VL))
		return 0;
	rind_mlkem_init_tables();
	err = mlkem_avx512_tables();
	if (err)
		return err;
	rej_tables();
	dec5_tables();
	err = rind_mlkem_register_drivers(mlkem_avx512_algs, &mlkem_avx512_ops,
					  mlkem_avx512_names, 400, "x86");
	if (err)
		return err;
	return rind_xmlkem_register_driver(&xmlkem_avx512_alg, &mlkem_avx512_ops,
					   "x25519mlkem768-avx512", 400, "x86");
}
module_init(mlkem_avx512_mod_init);
