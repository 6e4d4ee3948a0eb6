// SPDX-License-Identifier: MIT
/*
 * P-256 ECDSA batch signing in eight AVX-512 IFMA lanes: the
 * "ecdsa-nist-p256-avx512ifma-mb" curve driver (<crypto/ecc.h>), whose
 * x962() / p1363() instances crypto_sig_sign_batch() signs through.
 * Requires: AVX512F and AVX512IFMA (zmm only, no AVX512VL), and BMI2 + ADX
 * for everything but the batch: every other operation of the driver (key
 * checks, k G of key generation, one signature, verification, ECDH) is
 * arch/x86/ecc-p256-adx.c's, called through its struct ecc_curve.
 *
 * What runs in lanes: the fixed-base multiplications k_i G, one signature
 * per 64-bit lane of a __m512i, eight at a time.  A field element is five
 * 52-bit limbs (one zmm per limb, lane i holding signature i's), in
 * Montgomery form with R = 2^260; the product is VPMADD52LUQ/HUQ operand
 * scanning (25 + 25) and a word-by-word reduction that needs no multiplier
 * of its own: p = -1 mod 2^52, so -p^-1 = 1 and the reduction digit is the
 * low limb itself, and p's third limb is zero (4 x 2 products a digit).
 * Values stay below 2p between operations (a product of two such is again
 * below 2p since 16p < R); additions and subtractions end in one masked
 * subtraction of 2p, the final form one of p.  k G is Booth-recoded in 52
 * windows of 5 bits; each window's entry d 2^(5w) G (|d| <= 16, affine,
 * from a table of 52 x 16 points) is read by a full scan of the 16 entries
 * with a per-lane compare mask (VPBROADCASTQ under mask: no secret index,
 * every entry read), negated under the digit's sign mask, and added with
 * Renes-Costello-Batina's complete mixed addition (their algorithm 5,
 * a = -3: 11M + 2 products by b, exact for the identity as the first
 * point and for P = +-Q), the sum kept under the mask of a non-zero digit.
 * Nothing in the lanes branches or indexes on data.
 *
 * Around the lanes, as algs/ecc-proto.c's ecc_proto_sign_batch (the ADX
 * driver's sign_batch) does it: one field inversion for all the affine
 * x = X / Z of the batch and one inversion modulo n for all the k^-1, both
 * by Montgomery's simultaneous inversion (3 (m - 1) products and one
 * inversion for m values), then s = k^-1 (e + r d) mod n per signature.
 * That scalar part is 4 x 64-bit code: the curve template instantiated
 * here (<crypto/ecc-mul.h> with ECC_N = 4 and <crypto/ecc-p256.h>'s
 * constants; Bernstein-Yang inversions, constant time), which also builds
 * the fixed-base table once (ecc_gtab_fill) before it is converted to
 * 52-bit limbs.  The lanes' X Z^-1 needs no change of form: X R' / (Z R')
 * is X / Z for any R'.
 *
 * Cost of one pass of eight (the model; nothing measured: the development
 * machine has no AVX-512): 52 windows x 13 lane products = 676 lane
 * products (~95 IFMA and ~25 other instructions each), 52 x ~23 lane
 * additions (~30 instructions each), 52 scans (16 compares + 160 masked
 * broadcasts) -- ~130k instructions, ~16k a signature, against the
 * single ADX path's 52 mixed Jacobian additions of ~120 MULX-based
 * instructions x 11 products each plus two inversions a signature.  The
 * shared inversions add (3 x 2 (m - 1) products + 2 inversions) / m.
 *
 * Batches below MB_MIN signatures, and what is left of a batch after its
 * passes of eight when that is below MB_MIN, are the ADX driver's
 * sign_batch (a pass costs the same for one lane as for eight).
 * Results are those of ->sign() (the ADX driver's) for the same k and e.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <immintrin.h>
#include <rind/types.h>
#include <rind/internal/alg.h>
#include <rind/internal/sig.h>
#include <rind/internal/util.h>
#include <crypto/ecc.h>
#include "ecc-p256-adx.h"
#include "x86-target.h"

/*
 * The curve template, for the scalar side (field and scalar arithmetic in
 * 64-bit limbs, the table builder).  Only part of it is used here.
 */
#define ECC_N	4
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-variable"
#include <crypto/ecc-mul.h>
#include <crypto/ecc-p256.h>
#pragma GCC diagnostic pop

#define MB_TARGET RIND_AVX512_TARGET("avx512f,avx512ifma", "avx2")
#define MB_INLINE static inline __attribute__((always_inline)) MB_TARGET
/*
 * Limb loops unrolled whole: the limbs then live in registers, not arrays.
 * Not in the emulation build, where each intrinsic is a loop of its own
 * and the unrolled body took minutes to compile.
 */
#ifdef RIND_AVX512_EMU
#define MB_UNROLL
#else
#define MB_UNROLL _Pragma("GCC unroll 16")
#endif

#define MB_LANES	8
#define MB_NWIN		52	/* 5-bit windows of a 256-bit scalar, Booth-recoded */
#define MB_TENT		16	/* entries per window: d = 1..16 */
/*
 * The smallest batch signed in lanes.  A pass costs the same for one
 * signature as for eight; the model above made it worth about three
 * single signatures.  Measured (AMD Zen 5, bench/probes/p256-peer.c "API
 * batch N" rows, crypto_sig_sign_batch, TSC minima per signature over 30
 * rounds, loaded host, normalised by aws-lc's single signature in the
 * same run): the ADX driver's sign_batch (shared inversions) 1.69x aws-lc
 * at 4, the lanes 1.50x at 4, 1.79x at 5, 2.05x at 6, 2.51x at 8 (a pass
 * ~65k TSC cycles plus ~3.4k a signature, against ~18k a signature for
 * the ADX batch): break-even between 4 and 5.
 */
#define MB_MIN		5

#define M52	(((u64)1 << 52) - 1)

_Static_assert(ECC_GW == 5 && ECC_GT == MB_TENT, "the template's table is the lanes' table");

/* ---- constants (limbs of 52 bits, least significant first) ---------------- */

struct mb_consts {
	u64 p[5];	/* p */
	u64 negp[5];	/* 2^260 - p: t + negp >= 2^260 exactly when t >= p */
	u64 neg2p[5];	/* 2^260 - 2p */
	u64 b2p[5];	/* 2p with limbs 0..3 >= 2^52 - 1: a + b2p - b, no limb below 0 */
	u64 one[5];	/* R = 2^260 mod p: 1 in the lanes' form */
	u64 b[5];	/* the curve's b R */
};

static struct mb_consts mb_c;
/* The fixed-base table: [window][d - 1][x limbs 0..4, y limbs 0..4], x, y R mod p. */
static u64 (*mb_tab)[MB_TENT][10];
static pthread_once_t mb_once = PTHREAD_ONCE_INIT;

/* 4 (or 5, @w4 the fifth) 64-bit words to five 52-bit limbs. */
static void mb_split(u64 *l, const u64 *w, u64 w4)
{
	l[0] = w[0] & M52;
	l[1] = ((w[0] >> 52) | (w[1] << 12)) & M52;
	l[2] = ((w[1] >> 40) | (w[2] << 24)) & M52;
	l[3] = ((w[2] >> 28) | (w[3] << 36)) & M52;
	l[4] = (w[3] >> 16) | (w4 << 48);
}

/* Five 52-bit limbs of a value below 2^256 to four 64-bit words. */
static void mb_join(u64 *w, const u64 *l)
{
	w[0] = l[0] | (l[1] << 52);
	w[1] = (l[1] >> 12) | (l[2] << 40);
	w[2] = (l[2] >> 24) | (l[3] << 28);
	w[3] = (l[3] >> 36) | (l[4] << 16);
}

/* 2^260 - m for m < 2^260 given in four words: l = its limbs. */
static void mb_neg260(u64 *l, const u64 *m)
{
	u64 w[4], borrow = 0, top;
	int i;

	for (i = 0; i < 4; i++) {
		ecc_u128 d = (ecc_u128)0 - m[i] - borrow;

		w[i] = (u64)d;
		borrow = (u64)(d >> 64) & 1;
	}
	top = ((u64)1 << 4) - borrow;	/* the word at 2^256: 2^4 less the borrow */
	mb_split(l, w, top);
}

/*
 * Once, at the first batch: the constants from p256_def, and the table
 * from the template's (same windows and digits: ECC_GW = 5, d = 1..16),
 * converted from x R256 to x R260 = (x R256) (2^260 mod p) / R256.
 * Public data.  On allocation failure mb_tab stays NULL and every batch
 * is the ADX driver's.
 */
static void ecc_gtab_build(void)
{
	const struct ecc_def *D = &p256_def;
	u64 (*tab)[MB_TENT][10];
	fe c, t, p2;
	int w, j, i;

	/* c = 2^260 mod p: R256 mod p doubled four times */
	memcpy(c, D->fp->one, sizeof(fe));
	for (i = 0; i < 4; i++)
		mod_add(c, c, c, D->fp);
	mb_split(mb_c.p, D->fp->m, 0);
	mb_split(mb_c.one, c, 0);
	mont_mul(t, D->b, c, D->fp);
	mb_split(mb_c.b, t, 0);
	mb_neg260(mb_c.negp, D->fp->m);
	/* 2p: five words */
	{
		u64 carry = 0, l[5];

		for (i = 0; i < 4; i++) {
			ecc_u128 s = (ecc_u128)D->fp->m[i] + D->fp->m[i] + carry;

			p2[i] = (u64)s;
			carry = (u64)(s >> 64);
		}
		mb_split(l, p2, carry);
		/* borrow one from each next limb: limbs 0..3 become >= 2^52 - 1 */
		mb_c.b2p[0] = l[0] + ((u64)1 << 52);
		for (i = 1; i < 4; i++)
			mb_c.b2p[i] = l[i] + ((u64)1 << 52) - 1;
		mb_c.b2p[4] = l[4] - 1;
		/* 2^260 - 2p = (2^260 - p) - p, from p's complement twice */
		{
			u64 np[5], b = 0;

			memcpy(np, mb_c.negp, sizeof(np));
			for (i = 0; i < 5; i++) {
				u64 d = np[i] - mb_c.p[i] - b;

				b = d >> 63;
				mb_c.neg2p[i] = d & M52;
			}
		}
	}

	ecc_gtab_fill(D);
	if (!ecc_gtab)
		return;
	tab = malloc(sizeof(*tab) * MB_NWIN);
	if (tab) {
		for (w = 0; w < MB_NWIN; w++) {
			for (j = 0; j < MB_TENT; j++) {
				const struct ecc_aff *a = &ecc_gtab[w * MB_TENT + j];

				mont_mul(t, a->x, c, D->fp);
				mb_split(tab[w][j], t, 0);
				mont_mul(t, a->y, c, D->fp);
				mb_split(tab[w][j] + 5, t, 0);
			}
		}
	}
	free(ecc_gtab);
	ecc_gtab = NULL;
	mb_tab = tab;
}

/* ---- the field in lanes --------------------------------------------------- */

typedef struct {
	__m512i v[5];
} fe8;

MB_INLINE __m512i mb_bc(u64 x)
{
	return _mm512_set1_epi64((long long)x);
}

/* Carry limbs 0..3 (non-negative) into the next; limb 4 keeps the rest. */
MB_INLINE void fe8_carry(__m512i *t)
{
	const __m512i m = mb_bc(M52);
	int i;

	MB_UNROLL
	for (i = 0; i < 4; i++) {
		t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64(t[i], 52));
		t[i] = _mm512_and_si512(t[i], m);
	}
}

/*
 * r = t - m where t >= m, else t, for carried t < 2^260 (and t < 2m):
 * t + (2^260 - m) reaches 2^260 exactly when t >= m.
 */
MB_INLINE void fe8_csub(fe8 *r, const __m512i *t, const u64 *negm)
{
	__m512i u[5];
	__mmask8 ge;
	int i;

	MB_UNROLL
	for (i = 0; i < 5; i++)
		u[i] = _mm512_add_epi64(t[i], mb_bc(negm[i]));
	fe8_carry(u);
	ge = _mm512_cmpgt_epu64_mask(u[4], mb_bc(M52));
	u[4] = _mm512_and_si512(u[4], mb_bc(M52));
	MB_UNROLL
	for (i = 0; i < 5; i++)
		r->v[i] = _mm512_mask_blend_epi64(ge, t[i], u[i]);
}

/* r = a + b (a, b < 2p): below 2p. */
MB_INLINE void fe8_add(fe8 *r, const fe8 *a, const fe8 *b)
{
	__m512i t[5];
	int i;

	MB_UNROLL
	for (i = 0; i < 5; i++)
		t[i] = _mm512_add_epi64(a->v[i], b->v[i]);
	fe8_carry(t);
	fe8_csub(r, t, mb_c.neg2p);
}

/*
 * r = a - b (a, b < 2p) as a + 2p - b in (0, 4p), limbs 0..3 of 2p
 * borrowed so that none goes below zero (limb 4 may, in the wrapping
 * 64-bit word, until the carries come in: the whole is positive): below 2p.
 */
MB_INLINE void fe8_sub(fe8 *r, const fe8 *a, const fe8 *b)
{
	__m512i t[5];
	int i;

	MB_UNROLL
	for (i = 0; i < 5; i++)
		t[i] = _mm512_sub_epi64(_mm512_add_epi64(a->v[i], mb_bc(mb_c.b2p[i])), b->v[i]);
	fe8_carry(t);
	fe8_csub(r, t, mb_c.neg2p);
}

/*
 * r = a b / 2^260 mod p (a, b < 2p, limbs below 2^52): below 2p.  Operand
 * scanning into ten 64-bit accumulators (below 2^57 each: at most ten
 * product halves and eight reduction halves of 52 bits, and a carry),
 * then five reduction digits q = t_i mod 2^52 (-p^-1 = 1 mod 2^52), each
 * adding q p (p's limb 2 is zero) and carrying t_i's top into t_(i+1).
 */
MB_INLINE void fe8_mul(fe8 *r, const fe8 *a, const fe8 *b)
{
	const __m512i m52 = mb_bc(M52);
	const __m512i p0 = mb_bc(mb_c.p[0]), p1 = mb_bc(mb_c.p[1]);
	const __m512i p3 = mb_bc(mb_c.p[3]), p4 = mb_bc(mb_c.p[4]);
	__m512i t[10], q;
	int i, j;

	MB_UNROLL
	for (i = 0; i < 10; i++)
		t[i] = _mm512_setzero_si512();
	MB_UNROLL
	for (i = 0; i < 5; i++) {
		MB_UNROLL
		for (j = 0; j < 5; j++) {
			t[i + j] = _mm512_madd52lo_epu64(t[i + j], a->v[i], b->v[j]);
			t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a->v[i], b->v[j]);
		}
	}
	MB_UNROLL
	for (i = 0; i < 5; i++) {
		q = _mm512_and_si512(t[i], m52);
		t[i] = _mm512_madd52lo_epu64(t[i], q, p0);
		t[i + 1] = _mm512_madd52hi_epu64(t[i + 1], q, p0);
		t[i + 1] = _mm512_madd52lo_epu64(t[i + 1], q, p1);
		t[i + 2] = _mm512_madd52hi_epu64(t[i + 2], q, p1);
		t[i + 3] = _mm512_madd52lo_epu64(t[i + 3], q, p3);
		t[i + 4] = _mm512_madd52hi_epu64(t[i + 4], q, p3);
		t[i + 4] = _mm512_madd52lo_epu64(t[i + 4], q, p4);
		t[i + 5] = _mm512_madd52hi_epu64(t[i + 5], q, p4);
		/* t_i is now 0 mod 2^52 */
		t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64(t[i], 52));
	}
	fe8_carry(t + 5);
	MB_UNROLL
	for (i = 0; i < 5; i++)
		r->v[i] = t[i + 5];
}

MB_INLINE void fe8_set1(fe8 *r, const u64 *l)
{
	int i;

	MB_UNROLL
	for (i = 0; i < 5; i++)
		r->v[i] = mb_bc(l[i]);
}

MB_INLINE void fe8_blend(fe8 *r, __mmask8 m, const fe8 *a, const fe8 *b)
{
	int i;

	MB_UNROLL
	for (i = 0; i < 5; i++)
		r->v[i] = _mm512_mask_blend_epi64(m, a->v[i], b->v[i]);
}

/* ---- points in lanes ------------------------------------------------------- */

typedef struct {
	fe8 x, y, z;
} pt8;

/*
 * o = p + (x2, y2, 1): Renes-Costello-Batina, algorithm 5 (mixed, a = -3),
 * complete for any p (the identity (0 : 1 : 0) included) and affine q.
 */
MB_INLINE void pt8_add_affine(pt8 *o, const pt8 *p, const fe8 *x2, const fe8 *y2, const fe8 *b)
{
	fe8 t0, t1, t2, t3, t4, x3, y3, z3;

	fe8_mul(&t0, &p->x, x2);
	fe8_mul(&t1, &p->y, y2);
	fe8_add(&t3, x2, y2);
	fe8_add(&t4, &p->x, &p->y);
	fe8_mul(&t3, &t3, &t4);
	fe8_add(&t4, &t0, &t1);
	fe8_sub(&t3, &t3, &t4);
	fe8_mul(&t4, y2, &p->z);
	fe8_add(&t4, &t4, &p->y);
	fe8_mul(&y3, x2, &p->z);
	fe8_add(&y3, &y3, &p->x);
	fe8_mul(&z3, b, &p->z);
	fe8_sub(&x3, &y3, &z3);
	fe8_add(&z3, &x3, &x3);
	fe8_add(&x3, &x3, &z3);
	fe8_sub(&z3, &t1, &x3);
	fe8_add(&x3, &t1, &x3);
	fe8_mul(&y3, b, &y3);
	fe8_add(&t1, &p->z, &p->z);
	fe8_add(&t2, &t1, &p->z);
	fe8_sub(&y3, &y3, &t2);
	fe8_sub(&y3, &y3, &t0);
	fe8_add(&t1, &y3, &y3);
	fe8_add(&y3, &t1, &y3);
	fe8_add(&t1, &t0, &t0);
	fe8_add(&t0, &t1, &t0);
	fe8_sub(&t0, &t0, &t2);
	fe8_mul(&t1, &t4, &y3);
	fe8_mul(&t2, &t0, &y3);
	fe8_mul(&y3, &x3, &z3);
	fe8_add(&y3, &y3, &t2);
	fe8_mul(&x3, &t3, &x3);
	fe8_sub(&x3, &x3, &t1);
	fe8_mul(&z3, &t4, &z3);
	fe8_mul(&t1, &t3, &t0);
	fe8_add(&z3, &z3, &t1);
	o->x = x3;
	o->y = y3;
	o->z = z3;
}

/*
 * The eight k_i G: mag / neg are the Booth digits, [window][lane]; X and Z
 * out (x R, z R fully reduced, 52-bit limbs, [limb][lane]) of the
 * projective k_i G = (X : Y : Z).
 */
static MB_TARGET void mb_mul_base8(u64 xo[5][MB_LANES], u64 zo[5][MB_LANES],
				   const u64 (*mag)[MB_LANES], const u64 (*neg)[MB_LANES])
{
	pt8 acc, s;
	fe8 b, x, y, ny, zero;
	int w, j, i;

	fe8_set1(&b, mb_c.b);
	MB_UNROLL
	for (i = 0; i < 5; i++)
		zero.v[i] = _mm512_setzero_si512();
	acc.x = zero;
	fe8_set1(&acc.y, mb_c.one);
	acc.z = zero;
	for (w = 0; w < MB_NWIN; w++) {
		const __m512i mv = _mm512_loadu_si512((const void *)mag[w]);
		const __m512i nv = _mm512_loadu_si512((const void *)neg[w]);
		__mmask8 isneg = _mm512_cmpeq_epu64_mask(nv, mb_bc(1));
		__mmask8 nz = (__mmask8)~_mm512_cmpeq_epu64_mask(mv, _mm512_setzero_si512());

		/* every entry read; lane i keeps entry mag_i (nothing for 0) */
		x = zero;
		y = zero;
		MB_UNROLL
		for (j = 0; j < MB_TENT; j++) {
			const u64 *e = mb_tab[w][j];
			__mmask8 hit = _mm512_cmpeq_epu64_mask(mv, mb_bc((u64)j + 1));

			MB_UNROLL
			for (i = 0; i < 5; i++) {
				x.v[i] = _mm512_or_si512(x.v[i],
					 _mm512_maskz_set1_epi64(hit, (long long)e[i]));
				y.v[i] = _mm512_or_si512(y.v[i],
					 _mm512_maskz_set1_epi64(hit, (long long)e[5 + i]));
			}
		}
		fe8_sub(&ny, &zero, &y);
		fe8_blend(&y, isneg, &y, &ny);
		pt8_add_affine(&s, &acc, &x, &y, &b);
		/* digit 0: no affine entry; keep the accumulator */
		fe8_blend(&acc.x, nz, &acc.x, &s.x);
		fe8_blend(&acc.y, nz, &acc.y, &s.y);
		fe8_blend(&acc.z, nz, &acc.z, &s.z);
	}
	fe8_csub(&x, acc.x.v, mb_c.negp);
	fe8_csub(&y, acc.z.v, mb_c.negp);
	MB_UNROLL
	for (i = 0; i < 5; i++) {
		_mm512_storeu_si512((void *)xo[i], x.v[i]);
		_mm512_storeu_si512((void *)zo[i], y.v[i]);
	}
	/* the registers' copies of k G's coordinates */
	memzero_explicit(&acc, sizeof(acc));
	memzero_explicit(&s, sizeof(s));
	memzero_explicit(&x, sizeof(x));
	memzero_explicit(&y, sizeof(y));
	memzero_explicit(&ny, sizeof(ny));
}

/* ---- the batch ------------------------------------------------------------ */

/*
 * out[i] = a[i]^-1 for m elements by @mul and @inv (Montgomery's
 * simultaneous inversion, as algs/ecc-proto.c); every a[i] != 0; c: m
 * scratch, wiped.
 */
static void mb_inv_batch(fe *out, const fe *a, unsigned int m, fe *c,
			 void (*mul)(fe, const fe, const fe), void (*inv)(fe, const fe))
{
	unsigned int i;
	fe u, t;

	memcpy(c[0], a[0], sizeof(fe));
	for (i = 1; i < m; i++)
		mul(c[i], c[i - 1], a[i]);
	inv(u, c[m - 1]);
	for (i = m - 1; i > 0; i--) {
		mul(t, u, c[i - 1]);
		mul(u, u, a[i]);
		memcpy(out[i], t, sizeof(fe));
	}
	memcpy(out[0], u, sizeof(fe));
	memzero_explicit(u, sizeof(u));
	memzero_explicit(t, sizeof(t));
	memzero_explicit(c, m * sizeof(fe));
}

static void mb_fp_mul(fe r, const fe a, const fe b)
{
	fp_mul(r, a, b, &p256_def);
}

static void mb_fp_inv(fe r, const fe a)
{
	fp_inv(r, a, &p256_def);
}

static void mb_fn_mul(fe r, const fe a, const fe b)
{
	fn_mul(r, a, b, &p256_def);
}

static void mb_fn_inv(fe r, const fe a)
{
	fn_inv(r, a, &p256_def);
}

/* Per batch: the lane buffers and the scalar side's values, wiped at the end. */
struct mb_work {
	u64 mag[MB_NWIN][MB_LANES], neg[MB_NWIN][MB_LANES];
	u64 xl[5][MB_LANES], zl[5][MB_LANES];
	fe x[ECC_SIGN_BATCH_MAX], z[ECC_SIGN_BATCH_MAX], c[ECC_SIGN_BATCH_MAX];
	fe k, dm, e, t, s;
};

/* The first @m (MB_MIN..ECC_SIGN_BATCH_MAX) signatures: k G in lanes. */
static void mb_sign_lanes(struct mb_work *W, u8 *rb, u8 *sb, const u8 *d, const u8 *kb,
			  const u8 *eb, unsigned int m, int *err)
{
	const struct ecc_def *D = &p256_def;
	unsigned int base, i, l, w;
	u64 zero;

	for (base = 0; base < m; base += MB_LANES) {
		for (l = 0; l < MB_LANES; l++) {
			/* lanes past the batch multiply by k = 1 (public filler) */
			if (base + l < m) {
				ecc_from_bytes(W->k, kb + (size_t)(base + l) * 32, 32);
			} else {
				memset(W->k, 0, sizeof(fe));
				W->k[0] = 1;
			}
			for (w = 0; w < MB_NWIN; w++)
				ecc_booth(ecc_bits(W->k, (int)w * 5 - 1, 5), 5, &W->mag[w][l],
					  &W->neg[w][l]);
		}
		mb_mul_base8(W->xl, W->zl, (const u64 (*)[MB_LANES])W->mag,
			     (const u64 (*)[MB_LANES])W->neg);
		for (l = 0; l < MB_LANES && base + l < m; l++) {
			u64 lx[5], lz[5];

			for (i = 0; i < 5; i++) {
				lx[i] = W->xl[i][l];
				lz[i] = W->zl[i][l];
			}
			mb_join(W->x[base + l], lx);
			mb_join(W->z[base + l], lz);
			memzero_explicit(lx, sizeof(lx));
			memzero_explicit(lz, sizeof(lz));
		}
	}
	/*
	 * x = X / Z: X and Z are X R', Z R' below p; read as the template's
	 * Montgomery forms, X (Z)^-1 is (X / Z) R and fp_from gives X / Z.
	 */
	mb_inv_batch(W->z, W->z, m, W->c, mb_fp_mul, mb_fp_inv);
	for (i = 0; i < m; i++) {
		fp_mul(W->x[i], W->x[i], W->z[i], D);
		fp_from(W->x[i], W->x[i], D);
		ecc_reduce_once(W->x[i], W->x[i], D->fn->m);	/* r_i (x < p < 2n) */
	}
	/* one inversion modulo n for the m k_i^-1 (Montgomery form) */
	for (i = 0; i < m; i++) {
		ecc_from_bytes(W->k, kb + (size_t)i * 32, 32);
		fn_to(W->z[i], W->k, D);
	}
	mb_inv_batch(W->z, W->z, m, W->c, mb_fn_mul, mb_fn_inv);
	ecc_from_bytes(W->dm, d, 32);
	fn_to(W->dm, W->dm, D);
	for (i = 0; i < m; i++) {
		/* s = k^-1 (e + r d) mod n, e < 2^256 < 2n */
		ecc_from_bytes(W->e, eb + (size_t)i * 32, 32);
		ecc_reduce_once(W->e, W->e, D->fn->m);
		fn_to(W->e, W->e, D);
		fn_to(W->t, W->x[i], D);
		fn_mul(W->s, W->t, W->dm, D);
		mod_add(W->s, W->s, W->e, D->fn);
		fn_mul(W->s, W->s, W->z[i], D);
		fn_from(W->s, W->s, D);
		/* whether a new nonce is needed is the verdict, public */
		zero = ecc_is_zero(W->x[i]) | ecc_is_zero(W->s);
		rind_declassify(&zero, sizeof(zero));
		err[i] = zero ? -EAGAIN : 0;
		ecc_to_bytes(rb + (size_t)i * 32, W->x[i], 32);
		ecc_to_bytes(sb + (size_t)i * 32, W->s, 32);
	}
}

static void mb_sign_batch(u8 *r, u8 *s, const u8 *d, const u8 *k, const u8 *e, unsigned int n,
			  int *err)
{
	struct mb_work *W;
	unsigned int m;

	if (!n || n > ECC_SIGN_BATCH_MAX)
		return;
	if (n >= MB_MIN)
		pthread_once(&mb_once, ecc_gtab_build);
	/* whole passes of eight, and a last partial one of at least MB_MIN */
	m = n % MB_LANES >= MB_MIN ? n : n - n % MB_LANES;
	W = m && mb_tab ? malloc(sizeof(*W)) : NULL;
	if (!W)
		m = 0;
	if (m) {
		mb_sign_lanes(W, r, s, d, k, e, m, err);
		memzero_explicit(W, sizeof(*W));
		free(W);
	}
	if (m < n)
		ecc_p256_adx.sign_batch(r + (size_t)m * 32, s + (size_t)m * 32, d,
					k + (size_t)m * 32, e + (size_t)m * 32, n - m, err + m);
}

/* ---- registration --------------------------------------------------------- */

/* ecc_p256_adx's operations, with the lanes' sign_batch (filled at init). */
static struct ecc_curve mb_curve;

/*
 * Priority 350: above "ecdsa-nist-p256-adx" (300), so that the x962() /
 * p1363() instances (which take the best "ecdsa-nist-p256") are built over
 * this driver wherever it registers, i.e. only where AVX512F and
 * AVX512IFMA are there (with BMI2 and ADX).  It wins only what it is
 * better at: everything but crypto_sig_sign_batch of MB_MIN or more is the
 * ADX driver's own code, the same speed; a batch of MB_MIN+ runs in lanes.
 */
static struct ecdsa_driver mb_ecdsa = {
	.curve = &mb_curve,
	.alg.batch_lanes = MB_LANES,
	.alg.batch_min = MB_MIN,
	.alg.base = {
		.cra_name = "ecdsa-nist-p256",
		.cra_driver_name = "ecdsa-nist-p256-avx512ifma-mb",
		.cra_priority = 350,
		.cra_module = "x86",
	},
};

static int ecc_p256_ifma_mb_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_AVX512F) || !rind_cpu_has(RIND_X86_AVX512IFMA) ||
	    !rind_cpu_has(RIND_X86_BMI2) || !rind_cpu_has(RIND_X86_ADX))
		return 0;
	mb_curve = ecc_p256_adx;
	mb_curve.sign_batch = mb_sign_batch;
	return ecdsa_register_curve_driver(&mb_ecdsa);
}

module_init(ecc_p256_ifma_mb_mod_init);
