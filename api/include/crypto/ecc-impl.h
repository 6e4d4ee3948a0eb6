/* SPDX-License-Identifier: MIT */
/*
 * Short-Weierstrass arithmetic (a = -3) for the NIST prime curves, written
 * once for ECC_N 64-bit limbs: algs/p256.c (4), p384.c (6), p521.c (9)
 * and the arch/ drivers define ECC_N, optionally their own field
 * arithmetic (below), include this file and instantiate it with their
 * constants through ECC_DEFINE_CURVE().
 *
 * Field and scalar arithmetic: Montgomery multiplication (CIOS, one
 * reduction word per limb) with unsigned __int128, R = 2^(64 * ECC_N);
 * additions end with a masked conditional subtraction; every value is
 * kept fully reduced.  Inversions (field and scalars) are Bernstein and
 * Yang's constant-time divsteps.  No branch and no memory index depends
 * on an operand.  A curve file may replace the field operations (not
 * the scalar multiplication's, ECC_FN_MUL aside) by defining, before
 * including this file, any of
 *   ECC_FP_MUL(r, a, b)  ECC_FP_SQR(r, a)   ECC_FP_ADD(r, a, b)
 *   ECC_FP_SUB(r, a, b)  ECC_FP_HALF(r, a)  ECC_FP_INV(r, a)
 *   ECC_FN_MUL(r, a, b)  (Montgomery, modulo n)
 * over u64[ECC_N] arrays, constant time, r may alias a or b; by default
 * field elements are in Montgomery form and fully reduced.  A field with
 * another internal form (algs/p521.c: 58-bit limbs, not fully reduced)
 * also defines ECC_FP_TO / ECC_FP_FROM (from and to the plain, fully
 * reduced integer), ECC_FP_EQ / ECC_FP_ISZERO and ECC_FP_INV, and gives
 * b, Gx, Gy and "one" in its form.  Whole point operations may be
 * replaced too: ECC_JAC_DBL(r, p) (r may alias p), ECC_JAC_ADD(o, p, q)
 * and ECC_JAC_ADD_AFFINE(o, p, q) (o distinct from p and q; the formulas
 * of jac_add_ct and jac_add_affine_ct without their identity masks),
 * ECC_SELECT (arch/x86/ecc-p256-adx.c; algs/p521.c has its own point
 * operations).
 *
 * Points, and how secret scalars are handled (constant time throughout):
 *   - k * P (ECDH): signed ("Booth") windows of 5 bits, digits in
 *     [-16, 16], over a table of P..16P read in full for every window
 *     (the entry picked by masking, its Y negated by masking); doublings
 *     and additions in Jacobian coordinates (4M + 4S and 12M + 4S for
 *     a = -3).  The doubling is exact for every point (the identity kept
 *     as (0 : Y : 0)); the addition's exceptional cases other than the
 *     identity (masked) cannot occur before the last window (pt_mul has
 *     the argument), and the last window goes through the complete
 *     formulas of Renes, Costello and Batina ("Complete addition formulas
 *     for prime order elliptic curves", 2016, algorithm 4 for a = -3) on
 *     projective coordinates;
 *   - k * G (key generation, signing): a table of d * 2^(W i) * G for
 *     every window i of ECC_GW bits and d = 1..2^(ECC_GW - 1), affine,
 *     built once (pthread_once) after the first few base multiplications;
 *     then one mixed Jacobian addition per signed window, no doublings,
 *     and the complete mixed addition (RCB algorithm 5) for the last
 *     window; digit 0 (the identity, which has no affine form) is
 *     skipped by masking the sum away.
 * Verification works on public data only and is variable time: u1 * G
 * from the same table (one mixed Jacobian addition per non-zero window),
 * u2 * Q by a width-5 NAF, Jacobian formulas with their exceptional cases
 * branched on, and the x-coordinate compared projectively (r * Z^2 == X,
 * and (r + n) * Z^2 when r + n < p) without an inversion.
 */
#ifndef _RIND_ALGS_ECC_IMPL_H
#define _RIND_ALGS_ECC_IMPL_H

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <rind/internal/util.h>
#include <crypto/ecc.h>

#ifndef ECC_N
#error "define ECC_N before including ecc-impl.h"
#endif

typedef unsigned __int128 ecc_u128;

/* Fixed-count limb loops: fully unrolled so that limbs live in registers. */
#define ECC_UNROLL _Pragma("GCC unroll 16")
typedef u64 fe[ECC_N];

/* A modulus (p or n) and its Montgomery constants. */
struct ecc_mod {
	u64 m[ECC_N];
	u64 rr[ECC_N];		/* R^2 mod m */
	u64 one[ECC_N];		/* R mod m */
	u64 minus2[ECC_N];	/* m - 2, the inversion exponent */
	u64 m0inv;		/* -m^-1 mod 2^64 */
};

struct ecc_def {
	const struct ecc_mod *fp, *fn;
	const u64 *b, *gx, *gy;	/* Montgomery form */
	const u64 *sqrt_exp;	/* (p + 1) / 4 */
	unsigned int nbytes, bits;
};

/* Projective (X : Y : Z) or Jacobian (X / Z^2, Y / Z^3), as the functions say. */
struct ecc_pt {
	fe x, y, z;
};

/* An affine point (Montgomery form), for the fixed-base table. */
struct ecc_aff {
	fe x, y;
};

/* ---- multiprecision helpers ---------------------------------------------- */

static inline void ecc_from_bytes(fe r, const u8 *in, unsigned int nbytes)
{
	unsigned int i;

	memset(r, 0, sizeof(fe));
	for (i = 0; i < nbytes; i++)
		r[i / 8] |= (u64)in[nbytes - 1 - i] << (8 * (i % 8));
}

static inline void ecc_to_bytes(u8 *out, const fe a, unsigned int nbytes)
{
	unsigned int i;

	for (i = 0; i < nbytes; i++)
		out[nbytes - 1 - i] = (u8)(a[i / 8] >> (8 * (i % 8)));
}

/* 1 if a < m, constant time. */
static inline u64 ecc_lt(const fe a, const u64 *m)
{
	u64 borrow = 0;
	int i;

	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		ecc_u128 d = (ecc_u128)a[i] - m[i] - borrow;

		borrow = (u64)(d >> 64) & 1;
	}
	return borrow;
}

/* 1 if a == 0, constant time. */
static inline u64 ecc_is_zero(const fe a)
{
	u64 acc = 0;
	int i;

	ECC_UNROLL
	for (i = 0; i < ECC_N; i++)
		acc |= a[i];
	return 1 ^ ((acc | (0 - acc)) >> 63);
}

/* 1 if a == b, constant time. */
static inline u64 ecc_eq(const fe a, const fe b)
{
	u64 acc = 0;
	int i;

	ECC_UNROLL
	for (i = 0; i < ECC_N; i++)
		acc |= a[i] ^ b[i];
	return 1 ^ ((acc | (0 - acc)) >> 63);
}

/* r = a where mask is all ones, unchanged where it is zero. */
static inline void ecc_cmov(fe r, const fe a, u64 mask)
{
	int i;

	ECC_UNROLL
	for (i = 0; i < ECC_N; i++)
		r[i] ^= mask & (r[i] ^ a[i]);
}

/* r = a - m if a >= m (a < 2m), constant time. */
static inline void ecc_reduce_once(fe r, const fe a, const u64 *m)
{
	u64 u[ECC_N], borrow = 0, mask;
	int i;

	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		ecc_u128 d = (ecc_u128)a[i] - m[i] - borrow;

		u[i] = (u64)d;
		borrow = (u64)(d >> 64) & 1;
	}
	mask = 0 - borrow;	/* keep a when it was below m */
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++)
		r[i] = (a[i] & mask) | (u[i] & ~mask);
}

static inline void mod_add(fe r, const fe a, const fe b, const struct ecc_mod *M)
{
	u64 t[ECC_N], u[ECC_N], m[ECC_N], carry = 0, borrow = 0, mask;
	int i;

	memcpy(m, M->m, sizeof(m));
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		ecc_u128 s = (ecc_u128)a[i] + b[i] + carry;

		t[i] = (u64)s;
		carry = (u64)(s >> 64);
	}
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		ecc_u128 d = (ecc_u128)t[i] - m[i] - borrow;

		u[i] = (u64)d;
		borrow = (u64)(d >> 64) & 1;
	}
	/* t + carry * R - m < 0 exactly when borrow and no carry. */
	mask = 0 - (borrow & (carry ^ 1));
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++)
		r[i] = (t[i] & mask) | (u[i] & ~mask);
}

static inline void mod_sub(fe r, const fe a, const fe b, const struct ecc_mod *M)
{
	u64 t[ECC_N], m[ECC_N], borrow = 0, carry = 0, mask;
	int i;

	memcpy(m, M->m, sizeof(m));
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		ecc_u128 d = (ecc_u128)a[i] - b[i] - borrow;

		t[i] = (u64)d;
		borrow = (u64)(d >> 64) & 1;
	}
	mask = 0 - borrow;
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		ecc_u128 s = (ecc_u128)t[i] + (m[i] & mask) + carry;

		r[i] = (u64)s;
		carry = (u64)(s >> 64);
	}
}

/*
 * r = a * b / R mod m (a, b < m).  The modulus is copied to locals first so
 * that the compiler keeps it in registers (r may alias a or b, never M).
 */
static inline void mont_mul(fe r, const fe a, const fe b, const struct ecc_mod *M)
{
	u64 t[ECC_N + 2], u[ECC_N], m[ECC_N], av[ECC_N], borrow = 0, mask, c, q;
	const u64 m0inv = M->m0inv;
	ecc_u128 s;
	int i, j;

	memcpy(m, M->m, sizeof(m));
	memcpy(av, a, sizeof(av));
	memset(t, 0, sizeof(t));
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		const u64 bi = b[i];

		c = 0;
		ECC_UNROLL
		for (j = 0; j < ECC_N; j++) {
			s = (ecc_u128)av[j] * bi + t[j] + c;
			t[j] = (u64)s;
			c = (u64)(s >> 64);
		}
		s = (ecc_u128)t[ECC_N] + c;
		t[ECC_N] = (u64)s;
		t[ECC_N + 1] = (u64)(s >> 64);

		q = t[0] * m0inv;
		s = (ecc_u128)q * m[0] + t[0];
		c = (u64)(s >> 64);
		ECC_UNROLL
		for (j = 1; j < ECC_N; j++) {
			s = (ecc_u128)q * m[j] + t[j] + c;
			t[j - 1] = (u64)s;
			c = (u64)(s >> 64);
		}
		s = (ecc_u128)t[ECC_N] + c;
		t[ECC_N - 1] = (u64)s;
		t[ECC_N] = t[ECC_N + 1] + (u64)(s >> 64);
	}
	/* t < 2m: subtract m unless that goes negative. */
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		s = (ecc_u128)t[i] - m[i] - borrow;
		u[i] = (u64)s;
		borrow = (u64)(s >> 64) & 1;
	}
	mask = 0 - (borrow & (t[ECC_N] ^ 1));
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++)
		r[i] = (t[i] & mask) | (u[i] & ~mask);
}

/*
 * ---- inversion modulo an odd m, constant time ------------------------------
 *
 * Bernstein and Yang's divsteps ("Fast constant-time gcd computation and
 * modular inversion", 2019), as algs/curve25519.c uses them for 2^255 - 19,
 * written here for any odd modulus of ECC_N words:
 *   divstep(delta, f, g), f odd:
 *     delta > 0 and g odd:  (1 - delta, g, (g - f) / 2)
 *     g odd:                (1 + delta, f, (g + f) / 2)
 *     otherwise:            (1 + delta, f, g / 2)
 * From (1, m, x), g reaches 0 and f = +-1 within (49 d + 57) / 17 steps
 * for d-bit inputs (the paper's theorem 11.2); the count run is fixed by
 * the curve size alone.  Batches of 62 steps work on the low 64 bits of
 * f and g and record what they did as a matrix M (|u| + |v| and |q| + |r|
 * at most 2^62) with 2^62 (f', g') = M (f, g); the matrix is then applied
 * to the full f and g (signed 62-bit limbs) and to d and e, which track
 * f = d x and g = e x (mod m), dividing by 2^62 modulo m after adding the
 * multiple of m that clears the low 62 bits; |d| and |e| grow by at most m
 * per batch.  At the end x^-1 = +-d (the sign of f), brought into
 * [0, m) by adding 32m and six masked subtractions.  Every step is
 * branch-free and the sequence of operations depends on m only.
 */
#define ECC_BY_NL	((64 * ECC_N + 1 + 61) / 62)
#define ECC_BY_M62	((u64)0x3fffffffffffffffull)

typedef __int128 ecc_s128;

struct ecc_by_mat {
	s64 u, v, q, r;
};

/* 62 divsteps on the low words of f and g; zeta = -delta. */
static inline s64 ecc_by_divsteps(s64 zeta, u64 f, u64 g, struct ecc_by_mat *t)
{
	u64 u = 1, v = 0, q = 0, r = 1;
	int i;

	for (i = 0; i < 62; i++) {
		u64 c1 = (u64)(zeta >> 63);		/* delta > 0 */
		u64 c2 = 0 - (g & 1);			/* g odd */
		u64 x = (f ^ c1) - c1, y = (u ^ c1) - c1, z = (v ^ c1) - c1, sw;

		g += x & c2;
		q += y & c2;
		r += z & c2;
		sw = c1 & c2;				/* the swapping case */
		zeta = (s64)(((u64)zeta ^ sw) + ~sw);	/* ~zeta, or zeta - 1 */
		f += g & sw;
		u += q & sw;
		v += r & sw;
		g >>= 1;
		u <<= 1;
		v <<= 1;
	}
	t->u = (s64)u;
	t->v = (s64)v;
	t->q = (s64)q;
	t->r = (s64)r;
	return zeta;
}

/* (f, g) = M (f, g) / 2^62, exact. */
static inline void ecc_by_update_fg(s64 *f, s64 *g, const struct ecc_by_mat *t)
{
	ecc_s128 cf = (ecc_s128)t->u * f[0] + (ecc_s128)t->v * g[0];
	ecc_s128 cg = (ecc_s128)t->q * f[0] + (ecc_s128)t->r * g[0];
	int i;

	cf >>= 62;
	cg >>= 62;
	for (i = 1; i < ECC_BY_NL; i++) {
		cf += (ecc_s128)t->u * f[i] + (ecc_s128)t->v * g[i];
		cg += (ecc_s128)t->q * f[i] + (ecc_s128)t->r * g[i];
		f[i - 1] = (s64)((u64)cf & ECC_BY_M62);
		g[i - 1] = (s64)((u64)cg & ECC_BY_M62);
		cf >>= 62;
		cg >>= 62;
	}
	f[ECC_BY_NL - 1] = (s64)cf;
	g[ECC_BY_NL - 1] = (s64)cg;
}

/* (d, e) = M (d, e) / 2^62 mod m (m62: m in 62-bit limbs, minv = m^-1 mod 2^62). */
static inline void ecc_by_update_de(s64 *d, s64 *e, const struct ecc_by_mat *t, const s64 *m62,
				    u64 minv)
{
	ecc_s128 cd = (ecc_s128)t->u * d[0] + (ecc_s128)t->v * e[0];
	ecc_s128 ce = (ecc_s128)t->q * d[0] + (ecc_s128)t->r * e[0];
	s64 md = (s64)(((0 - (u64)cd) * minv) & ECC_BY_M62);
	s64 me = (s64)(((0 - (u64)ce) * minv) & ECC_BY_M62);
	int i;

	cd += (ecc_s128)md * m62[0];
	ce += (ecc_s128)me * m62[0];
	cd >>= 62;
	ce >>= 62;
	for (i = 1; i < ECC_BY_NL; i++) {
		cd += (ecc_s128)t->u * d[i] + (ecc_s128)t->v * e[i] + (ecc_s128)md * m62[i];
		ce += (ecc_s128)t->q * d[i] + (ecc_s128)t->r * e[i] + (ecc_s128)me * m62[i];
		d[i - 1] = (s64)((u64)cd & ECC_BY_M62);
		e[i - 1] = (s64)((u64)ce & ECC_BY_M62);
		cd >>= 62;
		ce >>= 62;
	}
	d[ECC_BY_NL - 1] = (s64)cd;
	e[ECC_BY_NL - 1] = (s64)ce;
}

/* words (ECC_N + 1, two's complement) of a value in signed 62-bit limbs */
static inline void ecc_by_to_words(u64 *w, const s64 *l)
{
	ecc_s128 acc = 0;
	int i, j = 0, nb = 0;

	for (i = 0; i < ECC_BY_NL; i++) {
		acc += (ecc_s128)l[i] * ((ecc_s128)1 << nb);
		nb += 62;
		if (nb >= 64 && j <= ECC_N) {
			w[j++] = (u64)acc;
			acc >>= 64;
			nb -= 64;
		}
	}
	while (j <= ECC_N) {
		w[j++] = (u64)acc;
		acc >>= 64;
	}
}

/*
 * r = a^-1 mod m (0 for 0) for a < m, plain integers (not Montgomery form);
 * bits: the size of m.  minv64 = -m^-1 mod 2^64 (struct ecc_mod's m0inv).
 */
static void ecc_by_inv(fe r, const fe a, const u64 *m, u64 minv64, unsigned int bits)
{
	s64 f[ECC_BY_NL], g[ECC_BY_NL], d[ECC_BY_NL], e[ECC_BY_NL], m62[ECC_BY_NL], zeta = -1;
	int steps = (int)((49 * bits + 57) / 17 + 1), i, j;
	u64 minv = (0 - minv64) & ECC_BY_M62, w[ECC_N + 1], t[ECC_N + 1], sgn, borrow, mask;
	struct ecc_by_mat mt;

	for (i = 0; i < ECC_BY_NL; i++) {
		int bit = 62 * i, li = bit / 64, sh = bit % 64;
		u64 v = 0, x = 0;

		if (li < ECC_N) {
			v = m[li] >> sh;
			x = a[li] >> sh;
			if (sh > 2 && li + 1 < ECC_N) {
				v |= m[li + 1] << (64 - sh);
				x |= a[li + 1] << (64 - sh);
			}
		}
		m62[i] = (s64)(v & ECC_BY_M62);
		g[i] = (s64)(x & ECC_BY_M62);
		d[i] = 0;
		e[i] = 0;
	}
	memcpy(f, m62, sizeof(f));
	e[0] = 1;
	for (i = 0; i < steps; i += 62) {
		zeta = ecc_by_divsteps(zeta, (u64)f[0] | (u64)f[1] << 62,
				       (u64)g[0] | (u64)g[1] << 62, &mt);
		ecc_by_update_fg(f, g, &mt);
		ecc_by_update_de(d, e, &mt, m62, minv);
	}
	/* x^-1 = d * sign(f); |d| <= (batches + 1) m < 32 m */
	ecc_by_to_words(w, d);
	sgn = 0 - (u64)((u64)f[ECC_BY_NL - 1] >> 63);
	{
		ecc_u128 c = sgn & 1;

		for (i = 0; i <= ECC_N; i++) {
			c += (u64)(w[i] ^ sgn);
			w[i] = (u64)c;
			c >>= 64;
		}
	}
	/* + 32 m: now in [0, 64 m) */
	{
		ecc_u128 c = 0;

		for (i = 0; i <= ECC_N; i++) {
			u64 mi = (i < ECC_N ? m[i] << 5 : 0) | (i ? m[i - 1] >> 59 : 0);

			c += (ecc_u128)w[i] + mi;
			w[i] = (u64)c;
			c >>= 64;
		}
	}
	for (j = 5; j >= 0; j--) {
		borrow = 0;
		for (i = 0; i <= ECC_N; i++) {
			u64 mi = (i < ECC_N ? m[i] << j : 0) | (i && j ? m[i - 1] >> (64 - j) : 0);
			ecc_u128 s = (ecc_u128)w[i] - mi - borrow;

			t[i] = (u64)s;
			borrow = (u64)(s >> 64) & 1;
		}
		mask = 0 - borrow;		/* keep w when it was below 2^j m */
		for (i = 0; i <= ECC_N; i++)
			w[i] = (w[i] & mask) | (t[i] & ~mask);
	}
	memcpy(r, w, sizeof(fe));
	memzero_explicit(f, sizeof(f));
	memzero_explicit(g, sizeof(g));
	memzero_explicit(d, sizeof(d));
	memzero_explicit(e, sizeof(e));
	memzero_explicit(w, sizeof(w));
	memzero_explicit(t, sizeof(t));
}

/* ---- the field, possibly the curve file's own ----------------------------- */

static inline void fp_mul(fe r, const fe a, const fe b, const struct ecc_def *D)
{
#ifdef ECC_FP_MUL
	(void)D;
	ECC_FP_MUL(r, a, b);
#else
	mont_mul(r, a, b, D->fp);
#endif
}

static inline void fp_sqr(fe r, const fe a, const struct ecc_def *D)
{
#ifdef ECC_FP_SQR
	(void)D;
	ECC_FP_SQR(r, a);
#else
	fp_mul(r, a, a, D);
#endif
}

static inline void fp_add(fe r, const fe a, const fe b, const struct ecc_def *D)
{
#ifdef ECC_FP_ADD
	(void)D;
	ECC_FP_ADD(r, a, b);
#else
	mod_add(r, a, b, D->fp);
#endif
}

static inline void fp_sub(fe r, const fe a, const fe b, const struct ecc_def *D)
{
#ifdef ECC_FP_SUB
	(void)D;
	ECC_FP_SUB(r, a, b);
#else
	mod_sub(r, a, b, D->fp);
#endif
}

/* r = a^-1 (0 for 0), constant time; Montgomery form in and out. */
static inline void fp_inv(fe r, const fe a, const struct ecc_def *D)
{
#ifdef ECC_FP_INV
	(void)D;
	ECC_FP_INV(r, a);
#else
	fe t, r3;

	/* (a R)^-1 R^3 / R = a^-1 R */
	ecc_by_inv(t, a, D->fp->m, D->fp->m0inv, D->bits);
	fp_mul(r3, D->fp->rr, D->fp->rr, D);
	fp_mul(r, t, r3, D);
	memzero_explicit(t, sizeof(t));
#endif
}

/* r = -a */
static inline void fp_neg(fe r, const fe a, const struct ecc_def *D)
{
	fe z;

	memset(z, 0, sizeof(z));
	fp_sub(r, z, a, D);
}

/* r = a / 2 mod p: (a + p) / 2 when a is odd; constant time. */
static inline void fp_half(fe r, const fe a, const struct ecc_def *D)
{
#ifdef ECC_FP_HALF
	(void)D;
	ECC_FP_HALF(r, a);
#else
	u64 t[ECC_N], mask = 0 - (a[0] & 1), c = 0;
	int i;

	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		ecc_u128 s = (ecc_u128)a[i] + (D->fp->m[i] & mask) + c;

		t[i] = (u64)s;
		c = (u64)(s >> 64);
	}
	ECC_UNROLL
	for (i = 0; i < ECC_N - 1; i++)
		r[i] = (t[i] >> 1) | (t[i + 1] << 63);
	r[ECC_N - 1] = (t[ECC_N - 1] >> 1) | (c << 63);
#endif
}

/*
 * The field's internal form from a plain integer < p (Montgomery form
 * unless the curve file says otherwise), and back to the plain, fully
 * reduced integer.
 */
static inline void fp_to(fe r, const fe a, const struct ecc_def *D)
{
#ifdef ECC_FP_TO
	(void)D;
	ECC_FP_TO(r, a);
#else
	fp_mul(r, a, D->fp->rr, D);
#endif
}

static inline void fp_from(fe r, const fe a, const struct ecc_def *D)
{
#ifdef ECC_FP_FROM
	(void)D;
	ECC_FP_FROM(r, a);
#else
	fe one;

	memset(one, 0, sizeof(one));
	one[0] = 1;
	fp_mul(r, a, one, D);
#endif
}

/* 1 if a = 0 / a = b in the field, constant time. */
static inline u64 fp_is_zero(const fe a)
{
#ifdef ECC_FP_ISZERO
	return ECC_FP_ISZERO(a);
#else
	return ecc_is_zero(a);
#endif
}

static inline u64 fp_eq(const fe a, const fe b)
{
#ifdef ECC_FP_EQ
	return ECC_FP_EQ(a, b);
#else
	return ecc_eq(a, b);
#endif
}

/* ---- scalars modulo n, possibly the curve file's own multiplication ------ */

static inline void fn_mul(fe r, const fe a, const fe b, const struct ecc_def *D)
{
#ifdef ECC_FN_MUL
	(void)D;
	ECC_FN_MUL(r, a, b);
#else
	mont_mul(r, a, b, D->fn);
#endif
}

static inline void fn_to(fe r, const fe a, const struct ecc_def *D)
{
	fn_mul(r, a, D->fn->rr, D);
}

static inline void fn_from(fe r, const fe a, const struct ecc_def *D)
{
	fe one;

	memset(one, 0, sizeof(one));
	one[0] = 1;
	fn_mul(r, a, one, D);
}

/* r = a^-1 mod n (0 for 0), constant time; Montgomery form in and out. */
static void fn_inv(fe r, const fe a, const struct ecc_def *D)
{
	fe t, r3;

	ecc_by_inv(t, a, D->fn->m, D->fn->m0inv, D->bits);
	fn_mul(r3, D->fn->rr, D->fn->rr, D);
	fn_mul(r, t, r3, D);
	memzero_explicit(t, sizeof(t));
}

/* ---- points: complete projective formulas (RCB) -------------------------- */

/* RCB algorithm 4: r = p + q, complete (a = -3). r may alias p or q. */
static void pt_add(struct ecc_pt *r, const struct ecc_pt *p, const struct ecc_pt *q,
		   const struct ecc_def *D)
{
	fe t0, t1, t2, t3, t4, x3, y3, z3;

	fp_mul(t0, p->x, q->x, D);
	fp_mul(t1, p->y, q->y, D);
	fp_mul(t2, p->z, q->z, D);
	fp_add(t3, p->x, p->y, D);
	fp_add(t4, q->x, q->y, D);
	fp_mul(t3, t3, t4, D);
	fp_add(t4, t0, t1, D);
	fp_sub(t3, t3, t4, D);
	fp_add(t4, p->y, p->z, D);
	fp_add(x3, q->y, q->z, D);
	fp_mul(t4, t4, x3, D);
	fp_add(x3, t1, t2, D);
	fp_sub(t4, t4, x3, D);
	fp_add(x3, p->x, p->z, D);
	fp_add(y3, q->x, q->z, D);
	fp_mul(x3, x3, y3, D);
	fp_add(y3, t0, t2, D);
	fp_sub(y3, x3, y3, D);
	fp_mul(z3, D->b, t2, D);
	fp_sub(x3, y3, z3, D);
	fp_add(z3, x3, x3, D);
	fp_add(x3, x3, z3, D);
	fp_sub(z3, t1, x3, D);
	fp_add(x3, t1, x3, D);
	fp_mul(y3, D->b, y3, D);
	fp_add(t1, t2, t2, D);
	fp_add(t2, t1, t2, D);
	fp_sub(y3, y3, t2, D);
	fp_sub(y3, y3, t0, D);
	fp_add(t1, y3, y3, D);
	fp_add(y3, t1, y3, D);
	fp_add(t1, t0, t0, D);
	fp_add(t0, t1, t0, D);
	fp_sub(t0, t0, t2, D);
	fp_mul(t1, t4, y3, D);
	fp_mul(t2, t0, y3, D);
	fp_mul(y3, x3, z3, D);
	fp_add(y3, y3, t2, D);
	fp_mul(x3, t3, x3, D);
	fp_sub(x3, x3, t1, D);
	fp_mul(z3, t4, z3, D);
	fp_mul(t1, t3, t0, D);
	fp_add(z3, z3, t1, D);
	memcpy(r->x, x3, sizeof(fe));
	memcpy(r->y, y3, sizeof(fe));
	memcpy(r->z, z3, sizeof(fe));
}

/*
 * r = p + (x2, y2): algorithm 4 with Z2 = 1 (RCB algorithm 5), complete
 * for every projective p and every affine point q (which cannot be the
 * identity).  r may alias p.
 */
static void pt_add_affine(struct ecc_pt *r, const struct ecc_pt *p, const struct ecc_aff *q,
			  const struct ecc_def *D)
{
	fe t0, t1, t2, t3, t4, x3, y3, z3;

	fp_mul(t0, p->x, q->x, D);
	fp_mul(t1, p->y, q->y, D);
	fp_add(t3, q->x, q->y, D);
	fp_add(t4, p->x, p->y, D);
	fp_mul(t3, t3, t4, D);
	fp_add(t4, t0, t1, D);
	fp_sub(t3, t3, t4, D);		/* X1 Y2 + X2 Y1 */
	fp_mul(t4, q->y, p->z, D);
	fp_add(t4, t4, p->y, D);	/* Y1 + Y2 Z1 */
	fp_mul(y3, q->x, p->z, D);
	fp_add(y3, y3, p->x, D);	/* X1 + X2 Z1 */
	fp_mul(z3, D->b, p->z, D);
	fp_sub(x3, y3, z3, D);
	fp_add(z3, x3, x3, D);
	fp_add(x3, x3, z3, D);
	fp_sub(z3, t1, x3, D);
	fp_add(x3, t1, x3, D);
	fp_mul(y3, D->b, y3, D);
	fp_add(t1, p->z, p->z, D);
	fp_add(t2, t1, p->z, D);
	fp_sub(y3, y3, t2, D);
	fp_sub(y3, y3, t0, D);
	fp_add(t1, y3, y3, D);
	fp_add(y3, t1, y3, D);
	fp_add(t1, t0, t0, D);
	fp_add(t0, t1, t0, D);
	fp_sub(t0, t0, t2, D);
	fp_mul(t1, t4, y3, D);
	fp_mul(t2, t0, y3, D);
	fp_mul(y3, x3, z3, D);
	fp_add(y3, y3, t2, D);
	fp_mul(x3, t3, x3, D);
	fp_sub(x3, x3, t1, D);
	fp_mul(z3, t4, z3, D);
	fp_mul(t1, t3, t0, D);
	fp_add(z3, z3, t1, D);
	memcpy(r->x, x3, sizeof(fe));
	memcpy(r->y, y3, sizeof(fe));
	memcpy(r->z, z3, sizeof(fe));
}

/* RCB algorithm 6: r = 2p, complete (a = -3). r may alias p. */
static void pt_dbl(struct ecc_pt *r, const struct ecc_pt *p, const struct ecc_def *D)
{
	fe t0, t1, t2, t3, x3, y3, z3;

	fp_sqr(t0, p->x, D);
	fp_sqr(t1, p->y, D);
	fp_sqr(t2, p->z, D);
	fp_mul(t3, p->x, p->y, D);
	fp_add(t3, t3, t3, D);
	fp_mul(z3, p->x, p->z, D);
	fp_add(z3, z3, z3, D);
	fp_mul(y3, D->b, t2, D);
	fp_sub(y3, y3, z3, D);
	fp_add(x3, y3, y3, D);
	fp_add(y3, x3, y3, D);
	fp_sub(x3, t1, y3, D);
	fp_add(y3, t1, y3, D);
	fp_mul(y3, x3, y3, D);
	fp_mul(x3, x3, t3, D);
	fp_add(t3, t2, t2, D);
	fp_add(t2, t2, t3, D);
	fp_mul(z3, D->b, z3, D);
	fp_sub(z3, z3, t2, D);
	fp_sub(z3, z3, t0, D);
	fp_add(t3, z3, z3, D);
	fp_add(z3, z3, t3, D);
	fp_add(t3, t0, t0, D);
	fp_add(t0, t3, t0, D);
	fp_sub(t0, t0, t2, D);
	fp_mul(t0, t0, z3, D);
	fp_add(y3, y3, t0, D);
	fp_mul(t0, p->y, p->z, D);
	fp_add(t0, t0, t0, D);
	fp_mul(z3, t0, z3, D);
	fp_sub(x3, x3, z3, D);
	fp_mul(z3, t0, t1, D);
	fp_add(z3, z3, z3, D);
	fp_add(z3, z3, z3, D);
	memcpy(r->x, x3, sizeof(fe));
	memcpy(r->y, y3, sizeof(fe));
	memcpy(r->z, z3, sizeof(fe));
}

static inline void pt_identity(struct ecc_pt *r, const struct ecc_def *D)
{
	memset(r->x, 0, sizeof(fe));
	memcpy(r->y, D->fp->one, sizeof(fe));
	memset(r->z, 0, sizeof(fe));
}

static void pt_base(struct ecc_pt *g, const struct ecc_def *D)
{
	memcpy(g->x, D->gx, sizeof(fe));
	memcpy(g->y, D->gy, sizeof(fe));
	memcpy(g->z, D->fp->one, sizeof(fe));
}

/* ---- Jacobian coordinates ------------------------------------------------ */

/*
 * r = 2p in Jacobian coordinates, a = -3 (4M + 4S): with S = 4 X Y^2 and
 * M = 3 (X - Z^2)(X + Z^2), X' = M^2 - 2S, Y' = M (S - X') - 8 Y^4,
 * Z' = 2 Y Z.  Exact for every point: the identity in the form this file
 * keeps it, (0 : Y : 0) with Y != 0, doubles to (0 : -8 Y^4 : 0); a point
 * of order 2, the only other exception, does not exist on these curves.
 * r may alias p.
 */
static void jac_dbl(struct ecc_pt *r, const struct ecc_pt *p, const struct ecc_def *D)
{
#ifdef ECC_JAC_DBL
	(void)D;
	ECC_JAC_DBL(r, p);
#else
	fe delta, y2, s, m, t, u;

	fp_sqr(delta, p->z, D);
	fp_add(y2, p->y, p->y, D);		/* 2Y */
	fp_sub(t, p->x, delta, D);
	fp_add(u, p->x, delta, D);
	fp_mul(m, t, u, D);
	fp_add(t, m, m, D);
	fp_add(m, t, m, D);			/* M */
	fp_mul(r->z, y2, p->z, D);		/* 2YZ */
	fp_sqr(y2, y2, D);			/* 4Y^2 */
	fp_mul(s, p->x, y2, D);			/* S = 4XY^2 */
	fp_sqr(y2, y2, D);
	fp_half(y2, y2, D);			/* 8Y^4 */
	fp_sqr(t, m, D);
	fp_add(u, s, s, D);
	fp_sub(r->x, t, u, D);			/* M^2 - 2S */
	fp_sub(t, s, r->x, D);
	fp_mul(t, m, t, D);
	fp_sub(r->y, t, y2, D);
#endif
}

/*
 * r = p + q in Jacobian coordinates (12M + 4S), constant time.  The
 * identity (Z = 0) on either side is handled by masking; the doubling
 * case p = q (and p = -q, which yields Z = 0) is not: callers add only
 * where they are shown not to occur (see pt_mul).
 */
static void jac_add_ct(struct ecc_pt *r, const struct ecc_pt *p, const struct ecc_pt *q,
		       const struct ecc_def *D)
{
	u64 pinf = 0 - fp_is_zero(p->z), qinf = 0 - fp_is_zero(q->z);
	struct ecc_pt o;
#ifdef ECC_JAC_ADD
	(void)D;
	ECC_JAC_ADD(&o, p, q);
#else
	fe z1z1, z2z2, u1, u2, s1, s2, h, rr, hh, v, t;

	fp_sqr(z1z1, p->z, D);
	fp_sqr(z2z2, q->z, D);
	fp_mul(u1, p->x, z2z2, D);
	fp_mul(u2, q->x, z1z1, D);
	fp_mul(s1, p->y, q->z, D);
	fp_mul(s1, s1, z2z2, D);
	fp_mul(s2, q->y, p->z, D);
	fp_mul(s2, s2, z1z1, D);
	fp_sub(h, u2, u1, D);
	fp_sub(rr, s2, s1, D);
	fp_sqr(hh, h, D);
	fp_mul(v, u1, hh, D);
	fp_mul(hh, h, hh, D);			/* H^3 */
	fp_mul(t, p->z, q->z, D);
	fp_mul(o.z, t, h, D);
	fp_sqr(t, rr, D);
	fp_sub(t, t, hh, D);
	fp_sub(t, t, v, D);
	fp_sub(o.x, t, v, D);			/* R^2 - H^3 - 2V */
	fp_sub(v, v, o.x, D);
	fp_mul(v, rr, v, D);
	fp_mul(s1, s1, hh, D);
	fp_sub(o.y, v, s1, D);			/* R (V - X3) - S1 H^3 */
#endif
	ecc_cmov(o.x, q->x, pinf);
	ecc_cmov(o.y, q->y, pinf);
	ecc_cmov(o.z, q->z, pinf);
	ecc_cmov(o.x, p->x, qinf);
	ecc_cmov(o.y, p->y, qinf);
	ecc_cmov(o.z, p->z, qinf);
	*r = o;
}

/*
 * r = p + (x2, y2) in Jacobian coordinates (8M + 3S), constant time; p
 * may be the identity (masked), the affine point cannot be; p = +-q is not
 * handled (see pt_mul_base).  r may alias p.
 */
static void jac_add_affine_ct(struct ecc_pt *r, const struct ecc_pt *p, const struct ecc_aff *q,
			      const struct ecc_def *D)
{
	u64 pinf = 0 - fp_is_zero(p->z);
	struct ecc_pt o;
#ifdef ECC_JAC_ADD_AFFINE
	ECC_JAC_ADD_AFFINE(&o, p, q);
#else
	fe z1z1, u2, s2, h, rr, hh, v, t;

	fp_sqr(z1z1, p->z, D);
	fp_mul(u2, q->x, z1z1, D);
	fp_mul(s2, q->y, p->z, D);
	fp_mul(s2, s2, z1z1, D);
	fp_sub(h, u2, p->x, D);
	fp_sub(rr, s2, p->y, D);
	fp_sqr(hh, h, D);
	fp_mul(v, p->x, hh, D);
	fp_mul(hh, h, hh, D);			/* H^3 */
	fp_mul(o.z, p->z, h, D);
	fp_sqr(t, rr, D);
	fp_sub(t, t, hh, D);
	fp_sub(t, t, v, D);
	fp_sub(o.x, t, v, D);
	fp_sub(v, v, o.x, D);
	fp_mul(v, rr, v, D);
	fp_mul(t, p->y, hh, D);
	fp_sub(o.y, v, t, D);
#endif
	ecc_cmov(o.x, q->x, pinf);
	ecc_cmov(o.y, q->y, pinf);
	ecc_cmov(o.z, D->fp->one, pinf);
	*r = o;
}

/* Jacobian (X, Y, Z) to projective (X Z, Y, Z^3): the same point. */
static void jac_to_proj(struct ecc_pt *r, const struct ecc_pt *p, const struct ecc_def *D)
{
	fe z2;

	fp_sqr(z2, p->z, D);
	fp_mul(r->x, p->x, p->z, D);
	fp_mul(r->z, z2, p->z, D);
	memcpy(r->y, p->y, sizeof(fe));
}

/* ---- secret scalars: signed windows, masked table reads ------------------ */

/* w + 1 bits of k from bit pos (pos >= -1; bits outside k are 0); pos public. */
static inline u64 ecc_bits(const fe k, int pos, unsigned int w)
{
	u64 v, mask = ((u64)1 << (w + 1)) - 1;
	int li, sh;

	if (pos < 0)
		return (k[0] << 1) & mask;
	li = pos / 64;
	sh = pos % 64;
	if (li >= ECC_N)
		return 0;
	v = k[li] >> sh;
	if (sh + (int)w + 1 > 64 && li + 1 < ECC_N)
		v |= k[li + 1] << (64 - sh);
	return v & mask;
}

/*
 * The signed digit of a window of w bits from its w + 1 bits (the lowest
 * being the previous window's top bit): |digit| in [0, 2^(w-1)] and its
 * sign, without a branch.
 */
static inline void ecc_booth(u64 bits, unsigned int w, u64 *mag, u64 *neg)
{
	u64 s = bits >> w, d = (bits + 1) >> 1, mask = 0 - s;

	*mag = ((((u64)1 << w) - d) & mask) | (d & ~mask);
	*neg = s;
}

/* all ones if a == b (both below 2^63) */
static inline u64 ecc_eq_mask(u64 a, u64 b)
{
	return 0 - (((a ^ b) - 1) >> 63);
}

/*
 * r = entry idx - 1 of a table of count entries of w words each (all zero
 * for idx = 0), reading every entry; two words at a time in vector
 * registers (GCC vector extensions: SSE2 on x86-64, NEON on arm64,
 * scalar code elsewhere) so that the accumulator stays in registers.
 */
typedef u64 ecc_v2 __attribute__((vector_size(16)));

static inline void ecc_select(u64 *r, const u64 *table, unsigned int w, unsigned int count, u64 idx)
{
	ecc_v2 acc[(3 * ECC_N + 1) / 2], v, m;
	u64 last = 0, mask;
	unsigned int i, j, nv = w / 2;

#ifdef ECC_SELECT
	/* the curve file's own (wider vectors) */
	if (ECC_SELECT(r, table, w, count, idx))
		return;
#endif
	memset(acc, 0, sizeof(acc));
	for (i = 0; i < count; i++) {
		const u64 *s = table + (size_t)i * w;

		mask = ecc_eq_mask(i + 1, idx);
		m = (ecc_v2){ mask, mask };
		ECC_UNROLL
		for (j = 0; j < nv; j++) {
			memcpy(&v, s + 2 * j, sizeof(v));
			acc[j] |= v & m;
		}
		if (w & 1)
			last |= s[w - 1] & mask;
	}
	memcpy(r, acc, nv * sizeof(ecc_v2));
	if (w & 1)
		r[w - 1] = last;
}

/*
 * r = table[idx - 1] for idx in 1..count, the identity (0 : 1 : 0) for
 * idx = 0; every entry is read.
 */
static inline void pt_select(struct ecc_pt *r, const struct ecc_pt *table, unsigned int count,
			     u64 idx, const struct ecc_def *D)
{
	ecc_select((u64 *)r, (const u64 *)table, 3 * ECC_N, count, idx);
	ecc_cmov(r->y, D->fp->one, ecc_eq_mask(0, idx));
}

/* The same over affine entries; all zero for idx = 0. */
static inline void aff_select(struct ecc_aff *r, const struct ecc_aff *table, unsigned int count,
			      u64 idx)
{
	ecc_select((u64 *)r, (const u64 *)table, 2 * ECC_N, count, idx);
}

/* y = -y when neg (0 or 1), constant time. */
static inline void fp_cneg(fe y, u64 neg, const struct ecc_def *D)
{
	fe t;

	fp_neg(t, y, D);
	ecc_cmov(y, t, 0 - neg);
}

#define ECC_VW		5			/* variable-base window */
#define ECC_VT		(1u << (ECC_VW - 1))	/* P..16P */

/*
 * r = k * p (projective) for k < 2^bits and an affine point p (Z = 1) of
 * the curve; constant time in k.
 *
 * The table holds P..16P in Jacobian coordinates.  Before the addition of
 * window w >= 1 the accumulator is A P with A = (k - L) / 2^(5w), where
 * L = sum of the digits d_j 2^(5j), j <= w, |L| < 2^(5w+4); so
 * |A| < 2^(bits-5) + 1 < n / 2 (n > 2^(bits-1)), and A = +-d_w (mod n)
 * with |d_w| <= 16 forces A = +-d_w, hence (A being a multiple of 32)
 * A = d_w = 0: the only exceptional inputs of the Jacobian addition are
 * the identity on either side, which it masks.  The last window (w = 0)
 * may meet p = +-q (k = 2 d_0 mod n, e.g.), so it goes through the
 * complete projective addition instead.
 */
static void pt_mul(struct ecc_pt *r, const fe k, const struct ecc_pt *p, const struct ecc_def *D)
{
	struct ecc_pt table[ECC_VT], acc, t;
	int w, i, nwin = (int)((D->bits + ECC_VW) / ECC_VW);
	struct ecc_aff pa;
	u64 mag, neg;

	memcpy(pa.x, p->x, sizeof(fe));
	memcpy(pa.y, p->y, sizeof(fe));
	table[0] = *p;
	jac_dbl(&table[1], p, D);
	for (i = 2; i < (int)ECC_VT; i++)
		jac_add_affine_ct(&table[i], &table[i - 1], &pa, D);

	/* The top window's digit is not negative (k < 2^bits). */
	ecc_booth(ecc_bits(k, (nwin - 1) * ECC_VW - 1, ECC_VW), ECC_VW, &mag, &neg);
	pt_select(&acc, table, ECC_VT, mag, D);
	for (w = nwin - 2; w >= 0; w--) {
		for (i = 0; i < ECC_VW; i++)
			jac_dbl(&acc, &acc, D);
		ecc_booth(ecc_bits(k, w * ECC_VW - 1, ECC_VW), ECC_VW, &mag, &neg);
		pt_select(&t, table, ECC_VT, mag, D);
		fp_cneg(t.y, neg, D);
		if (w) {
			jac_add_ct(&acc, &acc, &t, D);
		} else {
			jac_to_proj(&acc, &acc, D);
			jac_to_proj(&t, &t, D);
			pt_add(r, &acc, &t, D);
		}
	}
	memzero_explicit(table, sizeof(table));
	memzero_explicit(&acc, sizeof(acc));
	memzero_explicit(&t, sizeof(t));
}

/*
 * Fixed-base multiplication: a table of d * 2^(ECC_GW i) * G for every
 * signed window i and d = 1..2^(ECC_GW - 1), affine, built once at first
 * use (ECC_DEFINE_CURVE provides ecc_gtab_build for the file's curve).
 * The table costs as much as a few dozen multiplications, so the first
 * ECC_GTAB_AFTER base multiplications (the registry's self-tests among
 * them) use the variable-base ladder on G instead, and a process that
 * signs or makes keys only once never pays for it.
 */
#ifndef ECC_GW
#define ECC_GW		5
#endif
#define ECC_GT		(1u << (ECC_GW - 1))
#define ECC_GTAB_AFTER	4
static struct ecc_aff *ecc_gtab;
static unsigned int ecc_gtab_uses;
static pthread_once_t ecc_gtab_once = PTHREAD_ONCE_INIT;
static void ecc_gtab_build(void);

static inline int ecc_gnwin(const struct ecc_def *D)
{
	return (int)((D->bits + ECC_GW) / ECC_GW);
}

static void ecc_gtab_fill(const struct ecc_def *D)
{
	int nwin = ecc_gnwin(D), cnt = nwin * (int)ECC_GT, i, j;
	struct ecc_pt *pr, base;
	struct ecc_aff *tab;
	fe *prod, inv, t;

	pr = malloc((size_t)cnt * sizeof(*pr));
	prod = malloc((size_t)cnt * sizeof(*prod));
	tab = malloc((size_t)cnt * sizeof(*tab));
	if (!pr || !prod || !tab) {
		free(tab);	/* k * G falls back to the variable-base ladder */
		goto out;
	}
	pt_base(&base, D);
	for (i = 0; i < nwin; i++) {
		struct ecc_pt *row = pr + (size_t)i * ECC_GT;

		row[0] = base;
		for (j = 1; j < (int)ECC_GT; j++)
			pt_add(&row[j], &row[j - 1], &base, D);
		pt_dbl(&base, &row[ECC_GT - 1], D);	/* 2^ECC_GW * base */
	}
	/* One inversion for all: no entry is the identity (n is prime). */
	memcpy(prod[0], pr[0].z, sizeof(fe));
	for (i = 1; i < cnt; i++)
		fp_mul(prod[i], prod[i - 1], pr[i].z, D);
	fp_inv(inv, prod[cnt - 1], D);
	for (i = cnt - 1; i > 0; i--) {
		fp_mul(t, inv, prod[i - 1], D);		/* 1 / Z_i */
		fp_mul(inv, inv, pr[i].z, D);
		fp_mul(tab[i].x, pr[i].x, t, D);
		fp_mul(tab[i].y, pr[i].y, t, D);
	}
	fp_mul(tab[0].x, pr[0].x, inv, D);
	fp_mul(tab[0].y, pr[0].y, inv, D);
	ecc_gtab = tab;
out:
	free(pr);
	free(prod);
}

/* The table, or NULL for the first few uses (and when it could not be built). */
static const struct ecc_aff *ecc_gtab_get(void)
{
	if (__atomic_load_n(&ecc_gtab_uses, __ATOMIC_RELAXED) < ECC_GTAB_AFTER &&
	    __atomic_fetch_add(&ecc_gtab_uses, 1, __ATOMIC_RELAXED) < ECC_GTAB_AFTER)
		return NULL;
	pthread_once(&ecc_gtab_once, ecc_gtab_build);
	return ecc_gtab;
}

/*
 * r = k * G (projective), k < 2^bits, constant time in k.  Windows are
 * added in Jacobian coordinates to an accumulator A G with
 * |A| < 2^(W w) (W = ECC_GW), the entry being d 2^(W w) G with
 * 1 <= |d| <= 2^(W-1): A != +-d 2^(W w) as integers, and their difference
 * or sum is below (2^(W-1) + 1) 2^(W w) < n for every window but the last
 * (W w >= bits - W only there), so no addition but the last can meet
 * p = +-q; the last goes through the complete projective addition.
 * Digit 0 (no affine form) is skipped by masking the sum away.
 */
static void pt_mul_base(struct ecc_pt *r, const fe k, const struct ecc_def *D)
{
	const struct ecc_aff *gtab = ecc_gtab_get();
	int w, nwin = ecc_gnwin(D);
	struct ecc_pt acc, s, o;
	struct ecc_aff t;
	u64 mag, neg, nz;

	if (!gtab) {
		pt_base(&s, D);
		pt_mul(r, k, &s, D);
		return;
	}
	/* window 0 straight into the accumulator: (x, y, 1) or (0, 1, 0) */
	ecc_booth(ecc_bits(k, -1, ECC_GW), ECC_GW, &mag, &neg);
	aff_select(&t, gtab, ECC_GT, mag);
	fp_cneg(t.y, neg, D);
	nz = ~ecc_eq_mask(0, mag);
	memcpy(acc.x, t.x, sizeof(fe));
	memcpy(acc.y, D->fp->one, sizeof(fe));
	ecc_cmov(acc.y, t.y, nz);
	memset(acc.z, 0, sizeof(fe));
	ecc_cmov(acc.z, D->fp->one, nz);
	for (w = 1; w < nwin - 1; w++) {
		ecc_booth(ecc_bits(k, w * ECC_GW - 1, ECC_GW), ECC_GW, &mag, &neg);
		aff_select(&t, gtab + (size_t)w * ECC_GT, ECC_GT, mag);
		fp_cneg(t.y, neg, D);
		jac_add_affine_ct(&s, &acc, &t, D);
		nz = ~ecc_eq_mask(0, mag);
		ecc_cmov(acc.x, s.x, nz);
		ecc_cmov(acc.y, s.y, nz);
		ecc_cmov(acc.z, s.z, nz);
	}
	ecc_booth(ecc_bits(k, w * ECC_GW - 1, ECC_GW), ECC_GW, &mag, &neg);
	aff_select(&t, gtab + (size_t)w * ECC_GT, ECC_GT, mag);
	fp_cneg(t.y, neg, D);
	jac_to_proj(&s, &acc, D);
	pt_add_affine(&o, &s, &t, D);
	nz = ~ecc_eq_mask(0, mag);
	ecc_cmov(s.x, o.x, nz);
	ecc_cmov(s.y, o.y, nz);
	ecc_cmov(s.z, o.z, nz);
	*r = s;
	memzero_explicit(&acc, sizeof(acc));
	memzero_explicit(&s, sizeof(s));
	memzero_explicit(&o, sizeof(o));
	memzero_explicit(&t, sizeof(t));
}

/* ---- public scalars (verification): variable time ------------------------ */

/* r = p + q, Jacobian, every case (add-2007-bl with its exceptions). */
static void jac_add_vt(struct ecc_pt *r, const struct ecc_pt *p, const struct ecc_pt *q,
		       const struct ecc_def *D)
{
	fe z1z1, z2z2, u1, u2, s1, s2, h, rr, hh, hhh, v, t;

	if (fp_is_zero(p->z)) {
		*r = *q;
		return;
	}
	if (fp_is_zero(q->z)) {
		*r = *p;
		return;
	}
#ifdef ECC_JAC_ADD
	{
		/* the curve file's addition; redone below only if H = 0 */
		struct ecc_pt o;

		ECC_JAC_ADD(&o, p, q);
		if (!fp_is_zero(o.z)) {
			*r = o;
			return;
		}
	}
#endif
	fp_sqr(z1z1, p->z, D);
	fp_sqr(z2z2, q->z, D);
	fp_mul(u1, p->x, z2z2, D);
	fp_mul(u2, q->x, z1z1, D);
	fp_mul(s1, p->y, q->z, D);
	fp_mul(s1, s1, z2z2, D);
	fp_mul(s2, q->y, p->z, D);
	fp_mul(s2, s2, z1z1, D);
	fp_sub(h, u2, u1, D);
	fp_sub(rr, s2, s1, D);
	if (fp_is_zero(h)) {
		if (fp_is_zero(rr)) {
			jac_dbl(r, p, D);
		} else {
			memset(r, 0, sizeof(*r));
			memcpy(r->y, D->fp->one, sizeof(fe));
		}
		return;
	}
	fp_sqr(hh, h, D);
	fp_mul(hhh, h, hh, D);
	fp_mul(v, u1, hh, D);
	fp_mul(t, p->z, q->z, D);
	fp_mul(r->z, t, h, D);
	fp_sqr(t, rr, D);
	fp_sub(t, t, hhh, D);
	fp_sub(t, t, v, D);
	fp_sub(t, t, v, D);			/* X3 = r^2 - H^3 - 2V */
	fp_sub(v, v, t, D);
	fp_mul(v, rr, v, D);
	fp_mul(s1, s1, hhh, D);
	fp_sub(r->y, v, s1, D);			/* Y3 = r (V - X3) - S1 H^3 */
	memcpy(r->x, t, sizeof(fe));
}

/* r = p + q for an affine q (madd-2007-bl with its exceptions); r may alias p. */
static void jac_add_affine_vt(struct ecc_pt *r, const struct ecc_pt *p, const struct ecc_aff *q,
			      const struct ecc_def *D)
{
	fe z1z1, u2, s2, h, rr, hh, hhh, v, t;

	if (fp_is_zero(p->z)) {
		memcpy(r->x, q->x, sizeof(fe));
		memcpy(r->y, q->y, sizeof(fe));
		memcpy(r->z, D->fp->one, sizeof(fe));
		return;
	}
#ifdef ECC_JAC_ADD_AFFINE
	{
		struct ecc_pt o;

		ECC_JAC_ADD_AFFINE(&o, p, q);
		if (!fp_is_zero(o.z)) {
			*r = o;
			return;
		}
	}
#endif
	fp_sqr(z1z1, p->z, D);
	fp_mul(u2, q->x, z1z1, D);
	fp_mul(s2, q->y, p->z, D);
	fp_mul(s2, s2, z1z1, D);
	fp_sub(h, u2, p->x, D);
	fp_sub(rr, s2, p->y, D);
	if (fp_is_zero(h)) {
		if (fp_is_zero(rr)) {
			jac_dbl(r, p, D);
		} else {
			memset(r, 0, sizeof(*r));
			memcpy(r->y, D->fp->one, sizeof(fe));
		}
		return;
	}
	fp_sqr(hh, h, D);
	fp_mul(hhh, h, hh, D);
	fp_mul(v, p->x, hh, D);
	fp_mul(r->z, p->z, h, D);
	fp_mul(s2, p->y, hhh, D);		/* Y1 H^3 (p no longer needed) */
	fp_sqr(t, rr, D);
	fp_sub(t, t, hhh, D);
	fp_sub(t, t, v, D);
	fp_sub(t, t, v, D);
	fp_sub(v, v, t, D);
	fp_mul(v, rr, v, D);
	fp_sub(r->y, v, s2, D);
	memcpy(r->x, t, sizeof(fe));
}

#define ECC_NAFW	5	/* digits odd, |d| < 16: P, 3P, ..., 15P */

/* Width-5 NAF of k < 2^bits; returns the number of digits (at most bits + 1). */
static int ecc_wnaf(signed char *naf, const fe k, unsigned int bits)
{
	u64 v[ECC_N + 1];
	int i, len = 0;

	memcpy(v, k, sizeof(fe));
	v[ECC_N] = 0;
	while (len < (int)bits + 1) {
		int d = 0;

		if (v[0] & 1) {
			u64 c, m;

			d = (int)(v[0] & ((1u << ECC_NAFW) - 1));
			if (d >= 1 << (ECC_NAFW - 1))
				d -= 1 << ECC_NAFW;
			/* v -= d: the low ECC_NAFW bits become zero */
			if (d > 0) {
				v[0] -= (u64)d;
			} else {
				m = (u64)-d;
				for (i = 0; i <= ECC_N && m; i++) {
					c = v[i] + m;
					m = c < m;
					v[i] = c;
				}
			}
		}
		naf[len++] = (signed char)d;
		for (i = 0; i < ECC_N; i++)
			v[i] = (v[i] >> 1) | (v[i + 1] << 63);
		v[ECC_N] >>= 1;
	}
	while (len > 0 && !naf[len - 1])
		len--;
	return len;
}

/* r = k * p (Jacobian), p Jacobian with Z = 1, k public. */
static void jac_mul_vt(struct ecc_pt *r, const fe k, const struct ecc_pt *p,
		       const struct ecc_def *D)
{
	struct ecc_pt tab[1 << (ECC_NAFW - 2)], p2, t;
	signed char naf[64 * ECC_N + 2];
	int i, len = ecc_wnaf(naf, k, 64 * ECC_N);

	tab[0] = *p;
	jac_dbl(&p2, p, D);
	for (i = 1; i < 1 << (ECC_NAFW - 2); i++)
		jac_add_vt(&tab[i], &tab[i - 1], &p2, D);
	memset(r, 0, sizeof(*r));
	memcpy(r->y, D->fp->one, sizeof(fe));
	for (i = len - 1; i >= 0; i--) {
		if (!fp_is_zero(r->z))
			jac_dbl(r, r, D);
		if (naf[i] > 0) {
			jac_add_vt(r, r, &tab[naf[i] >> 1], D);
		} else if (naf[i] < 0) {
			t = tab[(-naf[i]) >> 1];
			fp_neg(t.y, t.y, D);
			jac_add_vt(r, r, &t, D);
		}
	}
}

/* r = k * G (Jacobian) from the table, k public. */
static void jac_mul_base_vt(struct ecc_pt *r, const fe k, const struct ecc_aff *gtab,
			    const struct ecc_def *D)
{
	int w, nwin = ecc_gnwin(D);
	struct ecc_aff t;
	u64 mag, neg;

	memset(r, 0, sizeof(*r));
	memcpy(r->y, D->fp->one, sizeof(fe));
	for (w = 0; w < nwin; w++) {
		ecc_booth(ecc_bits(k, w * ECC_GW - 1, ECC_GW), ECC_GW, &mag, &neg);
		if (!mag)
			continue;
		t = gtab[(size_t)w * ECC_GT + mag - 1];
		if (neg)
			fp_neg(t.y, t.y, D);
		jac_add_affine_vt(r, r, &t, D);
	}
}

/* ---- conversions and checks ---------------------------------------------- */

/* Affine plain coordinates of a projective point; 1 for the identity (x, y zero then). */
static u64 pt_affine(fe x, fe y, const struct ecc_pt *p, const struct ecc_def *D)
{
	fe zi;

	fp_inv(zi, p->z, D);
	fp_mul(x, p->x, zi, D);
	fp_mul(y, p->y, zi, D);
	fp_from(x, x, D);
	fp_from(y, y, D);
	memzero_explicit(zi, sizeof(zi));
	return fp_is_zero(p->z);
}

/* y^2 == x^3 - 3x + b for Montgomery-form x, y: 1 yes. */
static u64 ecc_on_curve(const fe x, const fe y, const struct ecc_def *D)
{
	fe l, r, t;

	fp_sqr(l, y, D);
	fp_sqr(r, x, D);
	fp_mul(r, r, x, D);
	fp_add(t, x, x, D);
	fp_add(t, t, x, D);
	fp_sub(r, r, t, D);
	fp_add(r, r, D->b, D);
	return fp_eq(l, r);
}

/* Parse and check a public X||Y point into Montgomery projective form. */
static int ecc_load_point(struct ecc_pt *p, const u8 *xy, const struct ecc_def *D)
{
	const struct ecc_mod *F = D->fp;
	fe x, y;

	ecc_from_bytes(x, xy, D->nbytes);
	ecc_from_bytes(y, xy + D->nbytes, D->nbytes);
	if (!ecc_lt(x, F->m) || !ecc_lt(y, F->m))
		return -EINVAL;
	fp_to(p->x, x, D);
	fp_to(p->y, y, D);
	memcpy(p->z, F->one, sizeof(fe));
	if (!ecc_on_curve(p->x, p->y, D))
		return -EINVAL;
	return 0;
}

/* ---- the operations ------------------------------------------------------ */

static inline int ecc_impl_scalar_ok(const u8 *d, const struct ecc_def *D)
{
	fe k;
	int ok;

	ecc_from_bytes(k, d, D->nbytes);
	ok = (int)(ecc_lt(k, D->fn->m) & (ecc_is_zero(k) ^ 1));
	memzero_explicit(k, sizeof(k));
	return ok;
}

static inline void ecc_impl_reduce_n(u8 *out, const u8 *in, const struct ecc_def *D)
{
	fe e;

	ecc_from_bytes(e, in, D->nbytes);
	ecc_reduce_once(e, e, D->fn->m);
	ecc_to_bytes(out, e, D->nbytes);
	memzero_explicit(e, sizeof(e));
}

static void ecc_impl_mul_base(u8 *xy, const u8 *d, const struct ecc_def *D)
{
	struct ecc_pt r;
	fe k, x, y;

	ecc_from_bytes(k, d, D->nbytes);
	pt_mul_base(&r, k, D);
	pt_affine(x, y, &r, D);
	ecc_to_bytes(xy, x, D->nbytes);
	ecc_to_bytes(xy + D->nbytes, y, D->nbytes);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(&r, sizeof(r));
}

static int ecc_impl_point_check(const u8 *xy, const struct ecc_def *D)
{
	struct ecc_pt p;

	return ecc_load_point(&p, xy, D);
}

static int ecc_impl_decompress(u8 *xy, const u8 *xb, unsigned int odd, const struct ecc_def *D)
{
	const struct ecc_mod *F = D->fp;
	fe x, xm, rhs, t, y, ym, base;
	int i;

	ecc_from_bytes(x, xb, D->nbytes);
	if (!ecc_lt(x, F->m))
		return -EINVAL;
	fp_to(xm, x, D);
	fp_sqr(rhs, xm, D);
	fp_mul(rhs, rhs, xm, D);
	fp_add(t, xm, xm, D);
	fp_add(t, t, xm, D);
	fp_sub(rhs, rhs, t, D);
	fp_add(rhs, rhs, D->b, D);
	/* ym = rhs^((p + 1) / 4), square and multiply (public exponent) */
	memcpy(base, rhs, sizeof(fe));
	memcpy(ym, F->one, sizeof(fe));
	for (i = 64 * ECC_N - 1; i >= 0; i--) {
		fp_sqr(ym, ym, D);
		if ((D->sqrt_exp[i / 64] >> (i % 64)) & 1)
			fp_mul(ym, ym, base, D);
	}
	fp_sqr(t, ym, D);
	if (!fp_eq(t, rhs))
		return -EINVAL;
	fp_from(y, ym, D);
	if ((y[0] & 1) != (odd & 1)) {
		if (ecc_is_zero(y))
			return -EINVAL;
		memset(t, 0, sizeof(t));
		mod_sub(y, t, y, F);
	}
	ecc_to_bytes(xy, x, D->nbytes);
	ecc_to_bytes(xy + D->nbytes, y, D->nbytes);
	return 0;
}

static int ecc_impl_ecdh(u8 *out, const u8 *d, const u8 *xy, const struct ecc_def *D)
{
	struct ecc_pt p, r;
	fe k, x, zi;
	u64 inf;
	int err;

	err = ecc_load_point(&p, xy, D);
	if (err)
		return err;
	ecc_from_bytes(k, d, D->nbytes);
	pt_mul(&r, k, &p, D);
	/* x = X / Z; Z = 0 (the identity) gives 0 here and the error below */
	fp_inv(zi, r.z, D);
	fp_mul(x, r.x, zi, D);
	fp_from(x, x, D);
	/* whether the result is the identity is the verdict, public */
	inf = fp_is_zero(r.z);
	rind_declassify(&inf, sizeof(inf));
	err = inf ? -EINVAL : 0;
	if (!err)
		ecc_to_bytes(out, x, D->nbytes);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(&r, sizeof(r));
	memzero_explicit(x, sizeof(x));
	memzero_explicit(zi, sizeof(zi));
	return err;
}

static int ecc_impl_sign(u8 *rb, u8 *sb, const u8 *d, const u8 *kb, const u8 *eb,
			 const struct ecc_def *D)
{
	const struct ecc_mod *N = D->fn;
	struct ecc_pt R;
	fe k, x, zi, r, e, dm, km, rm, em, s;
	u64 zero;

	ecc_from_bytes(k, kb, D->nbytes);
	pt_mul_base(&R, k, D);
	fp_inv(zi, R.z, D);
	fp_mul(x, R.x, zi, D);
	fp_from(x, x, D);
	ecc_reduce_once(r, x, N->m);			/* x < p < 2n */
	ecc_from_bytes(e, eb, D->nbytes);
	ecc_reduce_once(e, e, N->m);			/* e < 2^bits < 2n */
	ecc_from_bytes(dm, d, D->nbytes);
	fn_to(dm, dm, D);
	fn_to(km, k, D);
	fn_to(rm, r, D);
	fn_to(em, e, D);
	fn_inv(km, km, D);				/* k^-1 */
	fn_mul(s, rm, dm, D);
	mod_add(s, s, em, N);
	fn_mul(s, s, km, D);
	fn_from(s, s, D);
	/* whether a new nonce is needed is the verdict, public */
	zero = ecc_is_zero(r) | ecc_is_zero(s);
	rind_declassify(&zero, sizeof(zero));
	ecc_to_bytes(rb, r, D->nbytes);
	ecc_to_bytes(sb, s, D->nbytes);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(km, sizeof(km));
	memzero_explicit(dm, sizeof(dm));
	memzero_explicit(&R, sizeof(R));
	memzero_explicit(x, sizeof(x));
	memzero_explicit(zi, sizeof(zi));
	return zero ? -EAGAIN : 0;
}

static int ecc_impl_verify(const u8 *xy, const u8 *eb, const u8 *rb, const u8 *sb,
			   const struct ecc_def *D)
{
	const struct ecc_mod *N = D->fn;
	const struct ecc_aff *gtab;
	struct ecc_pt q, a, b;
	fe r, s, e, w, u1, u2, z2, t;
	u64 c = 0;
	int i;

	ecc_from_bytes(r, rb, D->nbytes);
	ecc_from_bytes(s, sb, D->nbytes);
	if (ecc_is_zero(r) || ecc_is_zero(s) || !ecc_lt(r, N->m) || !ecc_lt(s, N->m))
		return -EBADMSG;
	if (ecc_load_point(&q, xy, D))
		return -EBADMSG;
	ecc_from_bytes(e, eb, D->nbytes);
	ecc_reduce_once(e, e, N->m);
	fn_to(w, s, D);
	fn_inv(w, w, D);
	fn_to(u1, e, D);
	fn_mul(u1, u1, w, D);
	fn_from(u1, u1, D);
	fn_to(u2, r, D);
	fn_mul(u2, u2, w, D);
	fn_from(u2, u2, D);

	gtab = ecc_gtab_get();
	if (gtab) {
		jac_mul_base_vt(&a, u1, gtab, D);
	} else {
		pt_base(&b, D);
		jac_mul_vt(&a, u1, &b, D);
	}
	jac_mul_vt(&b, u2, &q, D);
	jac_add_vt(&a, &a, &b, D);
	if (fp_is_zero(a.z))
		return -EBADMSG;
	/* x(R) mod n == r: X == r Z^2, or X == (r + n) Z^2 when r + n < p */
	fp_sqr(z2, a.z, D);
	fp_to(t, r, D);
	fp_mul(t, t, z2, D);
	if (fp_eq(t, a.x))
		return 0;
	for (i = 0; i < ECC_N; i++) {
		ecc_u128 sum = (ecc_u128)r[i] + N->m[i] + c;

		t[i] = (u64)sum;
		c = (u64)(sum >> 64);
	}
	if (c || !ecc_lt(t, D->fp->m))
		return -EBADMSG;
	fp_to(t, t, D);
	fp_mul(t, t, z2, D);
	return fp_eq(t, a.x) ? 0 : -EBADMSG;
}

/* The struct ecc_curve of one curve definition. */
#define ECC_DEFINE_CURVE(sym, def, crv, roid, nb, nbits)				\
static void ecc_gtab_build(void)						\
{ ecc_gtab_fill(&def); }							\
static int sym##_scalar_ok(const u8 *d)						\
{ return ecc_impl_scalar_ok(d, &def); }						\
static void sym##_reduce_n(u8 *o, const u8 *i)					\
{ ecc_impl_reduce_n(o, i, &def); }						\
static void sym##_mul_base(u8 *xy, const u8 *d)				\
{ ecc_impl_mul_base(xy, d, &def); }						\
static int sym##_point_check(const u8 *xy)					\
{ return ecc_impl_point_check(xy, &def); }					\
static int sym##_decompress(u8 *xy, const u8 *x, unsigned int odd)		\
{ return ecc_impl_decompress(xy, x, odd, &def); }				\
static int sym##_ecdh(u8 *o, const u8 *d, const u8 *xy)				\
{ return ecc_impl_ecdh(o, d, xy, &def); }					\
static int sym##_sign(u8 *r, u8 *s, const u8 *d, const u8 *k, const u8 *e)	\
{ return ecc_impl_sign(r, s, d, k, e, &def); }					\
static int sym##_verify(const u8 *xy, const u8 *e, const u8 *r, const u8 *s)	\
{ return ecc_impl_verify(xy, e, r, s, &def); }					\
const struct ecc_curve sym = {							\
	.jwk_crv = crv,								\
	.nbytes = nb,								\
	.bits = nbits,								\
	.oid = roid,								\
	.scalar_ok = sym##_scalar_ok,						\
	.reduce_n = sym##_reduce_n,						\
	.mul_base = sym##_mul_base,						\
	.point_check = sym##_point_check,					\
	.decompress = sym##_decompress,						\
	.ecdh = sym##_ecdh,							\
	.sign = sym##_sign,							\
	.verify = sym##_verify,							\
}

#endif /* _RIND_ALGS_ECC_IMPL_H */
