/* SPDX-License-Identifier: MIT */
/*
 * Generic short-Weierstrass arithmetic (a = -3) for the NIST prime
 * curves, written once for ECC_N 64-bit limbs: algs/p256.c (4), p384.c
 * (6) and p521.c (9) define ECC_N, include this file and instantiate it
 * with their constants through ECC_DEFINE_CURVE().
 *
 * Field and scalar arithmetic: Montgomery multiplication (CIOS, one
 * reduction word per limb) with unsigned __int128, R = 2^(64 * ECC_N);
 * additions end with a masked conditional subtraction.  No branch and no
 * memory index depends on an operand.
 *
 * Points: projective (X : Y : Z) with the complete formulas of Renes,
 * Costello and Batina ("Complete addition formulas for prime order
 * elliptic curves", 2016, algorithms 4 and 6 for a = -3): the same
 * sequence of field operations for every input, the identity (0 : 1 : 0)
 * and doublings included, so no special case branches on secret data.
 *
 * Scalar multiplication: fixed 4-bit windows, most significant first; the
 * table of 0..15 multiples is read in full for every window and the entry
 * picked by masking.  Inversions are Fermat's (exponent m - 2, public).
 * Verification uses the same routines (constant time where it need not be).
 */
#ifndef _RIND_ALGS_ECC_IMPL_H
#define _RIND_ALGS_ECC_IMPL_H

#include <pthread.h>
#include <string.h>
#include <rind/internal/util.h>
#include "ecc.h"

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

struct ecc_pt {
	fe x, y, z;
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

#ifdef ECC_FP_MERSENNE521
/*
 * P-521's field, p = 2^521 - 1 with R = 2^576: since 2^521 = 1 mod p,
 * a * b / R = a * b * 2^466 mod p, so the Montgomery product is the plain
 * product folded at bit 521 and then rotated left by 466 bits within 521
 * bits (a cyclic shift multiplies by a power of two mod 2^521 - 1).
 */
static void p521_mont_mul(fe r, const fe a, const fe b)
{
	u64 t[18], x[9], y[9], c, borrow = 0, mask;
	ecc_u128 s;
	int i, j;

	memset(t, 0, sizeof(t));
	ECC_UNROLL
	for (i = 0; i < 9; i++) {
		const u64 bi = b[i];

		c = 0;
		ECC_UNROLL
		for (j = 0; j < 9; j++) {
			s = (ecc_u128)a[j] * bi + t[i + j] + c;
			t[i + j] = (u64)s;
			c = (u64)(s >> 64);
		}
		t[i + 9] = c;
	}
	/* x = low 521 bits + (t >> 521) */
	c = 0;
	ECC_UNROLL
	for (i = 0; i < 9; i++) {
		u64 hi = (t[i + 8] >> 9) | (t[i + 9] << 55);
		u64 lo = i < 8 ? t[i] : t[8] & 0x1ff;

		s = (ecc_u128)lo + hi + c;
		x[i] = (u64)s;
		c = (u64)(s >> 64);
	}
	/* x < 2^522: fold bit 521 once more, then subtract p if x >= p. */
	c = x[8] >> 9;
	x[8] &= 0x1ff;
	ECC_UNROLL
	for (i = 0; i < 9; i++) {
		s = (ecc_u128)x[i] + c;
		x[i] = (u64)s;
		c = (u64)(s >> 64);
	}
	ECC_UNROLL
	for (i = 0; i < 9; i++) {
		s = (ecc_u128)x[i] - (i < 8 ? ~0ull : 0x1ffull) - borrow;
		y[i] = (u64)s;
		borrow = (u64)(s >> 64) & 1;
	}
	mask = 0 - borrow;
	ECC_UNROLL
	for (i = 0; i < 9; i++)
		x[i] = (x[i] & mask) | (y[i] & ~mask);
	/* rotate left by 466 = 7 * 64 + 18 within 521 bits: bits k -> (k + 466) mod 521 */
	{
		u64 lo[9], hi[9];

		/* x << 466 (bits below 521 kept) and x >> 55 */
		memset(lo, 0, sizeof(lo));
		lo[7] = x[0] << 18;
		lo[8] = ((x[0] >> 46) | (x[1] << 18)) & 0x1ff;
		ECC_UNROLL
		for (i = 0; i < 9; i++) {
			u64 v = x[i] >> 55;

			if (i < 8)
				v |= x[i + 1] << 9;
			hi[i] = v;
		}
		ECC_UNROLL
		for (i = 0; i < 9; i++)
			r[i] = lo[i] | hi[i];
	}
}
#endif

/*
 * r = a * b / R mod m (a, b < m).  The modulus is copied to locals first so
 * that the compiler keeps it in registers (r may alias a or b, never M).
 */
static void mont_mul(fe r, const fe a, const fe b, const struct ecc_mod *M)
{
	u64 t[ECC_N + 2], u[ECC_N], m[ECC_N], av[ECC_N], borrow = 0, mask, c, q;
	const u64 m0inv = M->m0inv;
	ecc_u128 s;
	int i, j;

#ifdef ECC_FP_MERSENNE521
	/* The field modulus (not the order): public, so a branch is fine. */
	if (M->m[0] == ~0ull && M->m[4] == ~0ull) {
		p521_mont_mul(r, a, b);
		return;
	}
#endif
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

static inline void mont_sqr(fe r, const fe a, const struct ecc_mod *M)
{
	mont_mul(r, a, a, M);
}

static inline void mont_to(fe r, const fe a, const struct ecc_mod *M)
{
	mont_mul(r, a, M->rr, M);
}

static inline void mont_from(fe r, const fe a, const struct ecc_mod *M)
{
	fe one;

	memset(one, 0, sizeof(one));
	one[0] = 1;
	mont_mul(r, a, one, M);
}

/* r = a^e (Montgomery domain) for a public exponent e. */
static void mont_pow(fe r, const fe a, const u64 *e, const struct ecc_mod *M)
{
	fe acc, base;
	int i, started = 0;

	memcpy(base, a, sizeof(fe));
	memcpy(acc, M->one, sizeof(fe));
	for (i = 64 * ECC_N - 1; i >= 0; i--) {
		u64 bit = (e[i / 64] >> (i % 64)) & 1;

		if (started)
			mont_sqr(acc, acc, M);
		if (bit) {
			mont_mul(acc, acc, base, M);
			started = 1;
		}
	}
	memcpy(r, acc, sizeof(fe));
	memzero_explicit(acc, sizeof(acc));
	memzero_explicit(base, sizeof(base));
}

static inline void mont_inv(fe r, const fe a, const struct ecc_mod *M)
{
	mont_pow(r, a, M->minus2, M);
}

/* ---- points -------------------------------------------------------------- */

/* RCB algorithm 4: r = p + q, complete (a = -3). r may alias p or q. */
static void pt_add(struct ecc_pt *r, const struct ecc_pt *p, const struct ecc_pt *q,
		   const struct ecc_def *D)
{
	const struct ecc_mod *F = D->fp;
	fe t0, t1, t2, t3, t4, x3, y3, z3;

	mont_mul(t0, p->x, q->x, F);
	mont_mul(t1, p->y, q->y, F);
	mont_mul(t2, p->z, q->z, F);
	mod_add(t3, p->x, p->y, F);
	mod_add(t4, q->x, q->y, F);
	mont_mul(t3, t3, t4, F);
	mod_add(t4, t0, t1, F);
	mod_sub(t3, t3, t4, F);
	mod_add(t4, p->y, p->z, F);
	mod_add(x3, q->y, q->z, F);
	mont_mul(t4, t4, x3, F);
	mod_add(x3, t1, t2, F);
	mod_sub(t4, t4, x3, F);
	mod_add(x3, p->x, p->z, F);
	mod_add(y3, q->x, q->z, F);
	mont_mul(x3, x3, y3, F);
	mod_add(y3, t0, t2, F);
	mod_sub(y3, x3, y3, F);
	mont_mul(z3, D->b, t2, F);
	mod_sub(x3, y3, z3, F);
	mod_add(z3, x3, x3, F);
	mod_add(x3, x3, z3, F);
	mod_sub(z3, t1, x3, F);
	mod_add(x3, t1, x3, F);
	mont_mul(y3, D->b, y3, F);
	mod_add(t1, t2, t2, F);
	mod_add(t2, t1, t2, F);
	mod_sub(y3, y3, t2, F);
	mod_sub(y3, y3, t0, F);
	mod_add(t1, y3, y3, F);
	mod_add(y3, t1, y3, F);
	mod_add(t1, t0, t0, F);
	mod_add(t0, t1, t0, F);
	mod_sub(t0, t0, t2, F);
	mont_mul(t1, t4, y3, F);
	mont_mul(t2, t0, y3, F);
	mont_mul(y3, x3, z3, F);
	mod_add(y3, y3, t2, F);
	mont_mul(x3, t3, x3, F);
	mod_sub(x3, x3, t1, F);
	mont_mul(z3, t4, z3, F);
	mont_mul(t1, t3, t0, F);
	mod_add(z3, z3, t1, F);
	memcpy(r->x, x3, sizeof(fe));
	memcpy(r->y, y3, sizeof(fe));
	memcpy(r->z, z3, sizeof(fe));
}

/* RCB algorithm 6: r = 2p, complete (a = -3). r may alias p. */
static void pt_dbl(struct ecc_pt *r, const struct ecc_pt *p, const struct ecc_def *D)
{
	const struct ecc_mod *F = D->fp;
	fe t0, t1, t2, t3, x3, y3, z3;

	mont_sqr(t0, p->x, F);
	mont_sqr(t1, p->y, F);
	mont_sqr(t2, p->z, F);
	mont_mul(t3, p->x, p->y, F);
	mod_add(t3, t3, t3, F);
	mont_mul(z3, p->x, p->z, F);
	mod_add(z3, z3, z3, F);
	mont_mul(y3, D->b, t2, F);
	mod_sub(y3, y3, z3, F);
	mod_add(x3, y3, y3, F);
	mod_add(y3, x3, y3, F);
	mod_sub(x3, t1, y3, F);
	mod_add(y3, t1, y3, F);
	mont_mul(y3, x3, y3, F);
	mont_mul(x3, x3, t3, F);
	mod_add(t3, t2, t2, F);
	mod_add(t2, t2, t3, F);
	mont_mul(z3, D->b, z3, F);
	mod_sub(z3, z3, t2, F);
	mod_sub(z3, z3, t0, F);
	mod_add(t3, z3, z3, F);
	mod_add(z3, z3, t3, F);
	mod_add(t3, t0, t0, F);
	mod_add(t0, t3, t0, F);
	mod_sub(t0, t0, t2, F);
	mont_mul(t0, t0, z3, F);
	mod_add(y3, y3, t0, F);
	mont_mul(t0, p->y, p->z, F);
	mod_add(t0, t0, t0, F);
	mont_mul(z3, t0, z3, F);
	mod_sub(x3, x3, z3, F);
	mont_mul(z3, t0, t1, F);
	mod_add(z3, z3, z3, F);
	mod_add(z3, z3, z3, F);
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

/* r = table[idx] reading every entry; idx is secret. */
static inline void pt_select(struct ecc_pt *r, const struct ecc_pt *table, unsigned int count,
			     u64 idx)
{
	unsigned int i;
	int j;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < count; i++) {
		u64 d = (u64)i ^ idx;
		u64 mask = 0 - ((d - 1) >> 63);	/* all ones when d == 0 */

		ECC_UNROLL
		for (j = 0; j < ECC_N; j++) {
			r->x[j] |= table[i].x[j] & mask;
			r->y[j] |= table[i].y[j] & mask;
			r->z[j] |= table[i].z[j] & mask;
		}
	}
}

#define ECC_WBITS	4
#define ECC_TSIZE	(1u << ECC_WBITS)

/* r = k * p, k a plain integer (k < 2^bits); constant time in k. */
static void pt_mul(struct ecc_pt *r, const fe k, const struct ecc_pt *p, const struct ecc_def *D)
{
	struct ecc_pt table[ECC_TSIZE], acc, t;
	int w, i, nwin = (int)((D->bits + ECC_WBITS - 1) / ECC_WBITS);

	pt_identity(&table[0], D);
	table[1] = *p;
	for (i = 2; i < (int)ECC_TSIZE; i++) {
		if (i & 1)
			pt_add(&table[i], &table[i - 1], p, D);
		else
			pt_dbl(&table[i], &table[i / 2], D);
	}
	pt_identity(&acc, D);
	for (w = nwin - 1; w >= 0; w--) {
		u64 digit = (k[w / 16] >> ((w % 16) * 4)) & 0xf;

		for (i = 0; i < ECC_WBITS; i++)
			pt_dbl(&acc, &acc, D);
		pt_select(&t, table, ECC_TSIZE, digit);
		pt_add(&acc, &acc, &t, D);
	}
	*r = acc;
	memzero_explicit(table, sizeof(table));
	memzero_explicit(&acc, sizeof(acc));
	memzero_explicit(&t, sizeof(t));
}

static void pt_base(struct ecc_pt *g, const struct ecc_def *D)
{
	memcpy(g->x, D->gx, sizeof(fe));
	memcpy(g->y, D->gy, sizeof(fe));
	memcpy(g->z, D->fp->one, sizeof(fe));
}

/*
 * Fixed-base multiplication: a table of j * 16^w * G for every 4-bit
 * window w and j = 0..15 (j = 0 the identity), built once at first use
 * (ECC_DEFINE_CURVE provides ecc_gtab_build for the file's curve).  k * G
 * is then one complete addition per window of an entry selected by
 * masking over the whole row: no doublings, constant time in k.  The
 * table costs about as much as a few multiplications, so the first
 * ECC_GTAB_AFTER base multiplications (the registry's self-tests among
 * them) use the variable-base ladder on G instead, and a process that
 * signs or makes keys only once never pays for it.
 */
#define ECC_GTAB_AFTER	4
static struct ecc_pt *ecc_gtab;
static unsigned int ecc_gtab_uses;
static pthread_once_t ecc_gtab_once = PTHREAD_ONCE_INIT;
static void ecc_gtab_build(void);

static void ecc_gtab_fill(const struct ecc_def *D)
{
	int w, j, nwin = (int)((D->bits + ECC_WBITS - 1) / ECC_WBITS);
	struct ecc_pt *t, base;

	t = malloc((size_t)nwin * ECC_TSIZE * sizeof(*t));
	if (!t)
		return;		/* k * G falls back to the variable-base ladder */
	pt_base(&base, D);
	for (w = 0; w < nwin; w++) {
		struct ecc_pt *row = t + (size_t)w * ECC_TSIZE;

		pt_identity(&row[0], D);
		row[1] = base;
		for (j = 2; j < (int)ECC_TSIZE; j++)
			pt_add(&row[j], &row[j - 1], &base, D);
		pt_add(&base, &row[ECC_TSIZE - 1], &base, D);
	}
	ecc_gtab = t;
}

/* r = k * G, constant time in k. */
static void pt_mul_base(struct ecc_pt *r, const fe k, const struct ecc_def *D)
{
	int w, nwin = (int)((D->bits + ECC_WBITS - 1) / ECC_WBITS);
	struct ecc_pt acc, t;

	if (__atomic_load_n(&ecc_gtab_uses, __ATOMIC_RELAXED) < ECC_GTAB_AFTER &&
	    __atomic_fetch_add(&ecc_gtab_uses, 1, __ATOMIC_RELAXED) < ECC_GTAB_AFTER) {
		pt_base(&t, D);
		pt_mul(r, k, &t, D);
		return;
	}
	pthread_once(&ecc_gtab_once, ecc_gtab_build);
	if (!ecc_gtab) {
		pt_base(&t, D);
		pt_mul(r, k, &t, D);
		return;
	}
	pt_identity(&acc, D);
	for (w = 0; w < nwin; w++) {
		u64 digit = (k[w / 16] >> ((w % 16) * 4)) & 0xf;

		pt_select(&t, ecc_gtab + (size_t)w * ECC_TSIZE, ECC_TSIZE, digit);
		pt_add(&acc, &acc, &t, D);
	}
	*r = acc;
	memzero_explicit(&acc, sizeof(acc));
	memzero_explicit(&t, sizeof(t));
}

/* Affine plain coordinates; returns 1 for the identity (x, y zero then). */
static u64 pt_affine(fe x, fe y, const struct ecc_pt *p, const struct ecc_def *D)
{
	const struct ecc_mod *F = D->fp;
	fe zi;

	mont_inv(zi, p->z, F);
	mont_mul(x, p->x, zi, F);
	mont_mul(y, p->y, zi, F);
	mont_from(x, x, F);
	mont_from(y, y, F);
	return ecc_is_zero(p->z);
}

/* y^2 == x^3 - 3x + b for Montgomery-form x, y: 1 yes. */
static u64 ecc_on_curve(const fe x, const fe y, const struct ecc_def *D)
{
	const struct ecc_mod *F = D->fp;
	fe l, r, t;
	u64 acc = 0;
	int i;

	mont_sqr(l, y, F);
	mont_sqr(r, x, F);
	mont_mul(r, r, x, F);
	mod_add(t, x, x, F);
	mod_add(t, t, x, F);
	mod_sub(r, r, t, F);
	mod_add(r, r, D->b, F);
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++)
		acc |= l[i] ^ r[i];
	return ecc_is_zero((u64[ECC_N]){ acc });
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
	mont_to(p->x, x, F);
	mont_to(p->y, y, F);
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
	fe x, xm, rhs, t, y, ym;
	u64 acc = 0;
	int i;

	ecc_from_bytes(x, xb, D->nbytes);
	if (!ecc_lt(x, F->m))
		return -EINVAL;
	mont_to(xm, x, F);
	mont_sqr(rhs, xm, F);
	mont_mul(rhs, rhs, xm, F);
	mod_add(t, xm, xm, F);
	mod_add(t, t, xm, F);
	mod_sub(rhs, rhs, t, F);
	mod_add(rhs, rhs, D->b, F);
	mont_pow(ym, rhs, D->sqrt_exp, F);
	mont_sqr(t, ym, F);
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++)
		acc |= t[i] ^ rhs[i];
	if (acc)
		return -EINVAL;
	mont_from(y, ym, F);
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
	fe k, x, y;
	int err;

	err = ecc_load_point(&p, xy, D);
	if (err)
		return err;
	ecc_from_bytes(k, d, D->nbytes);
	pt_mul(&r, k, &p, D);
	err = pt_affine(x, y, &r, D) ? -EINVAL : 0;
	if (!err)
		ecc_to_bytes(out, x, D->nbytes);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(&r, sizeof(r));
	memzero_explicit(x, sizeof(x));
	memzero_explicit(y, sizeof(y));
	return err;
}

static int ecc_impl_sign(u8 *rb, u8 *sb, const u8 *d, const u8 *kb, const u8 *eb,
			 const struct ecc_def *D)
{
	const struct ecc_mod *N = D->fn;
	struct ecc_pt R;
	fe k, x, y, r, e, dm, km, rm, em, s;
	u64 zero;

	ecc_from_bytes(k, kb, D->nbytes);
	pt_mul_base(&R, k, D);
	pt_affine(x, y, &R, D);
	ecc_reduce_once(r, x, N->m);			/* x < p < 2n */
	ecc_from_bytes(e, eb, D->nbytes);
	ecc_reduce_once(e, e, N->m);			/* e < 2^bits < 2n */
	ecc_from_bytes(dm, d, D->nbytes);
	mont_to(dm, dm, N);
	mont_to(km, k, N);
	mont_to(rm, r, N);
	mont_to(em, e, N);
	mont_inv(km, km, N);				/* k^-1, exponent public */
	mont_mul(s, rm, dm, N);
	mod_add(s, s, em, N);
	mont_mul(s, s, km, N);
	mont_from(s, s, N);
	zero = ecc_is_zero(r) | ecc_is_zero(s);
	ecc_to_bytes(rb, r, D->nbytes);
	ecc_to_bytes(sb, s, D->nbytes);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(km, sizeof(km));
	memzero_explicit(dm, sizeof(dm));
	memzero_explicit(&R, sizeof(R));
	memzero_explicit(x, sizeof(x));
	memzero_explicit(y, sizeof(y));
	return zero ? -EAGAIN : 0;
}

static int ecc_impl_verify(const u8 *xy, const u8 *eb, const u8 *rb, const u8 *sb,
			   const struct ecc_def *D)
{
	const struct ecc_mod *N = D->fn;
	struct ecc_pt q, a, b;
	fe r, s, e, w, u1, u2, x, y;

	ecc_from_bytes(r, rb, D->nbytes);
	ecc_from_bytes(s, sb, D->nbytes);
	if (ecc_is_zero(r) || ecc_is_zero(s) || !ecc_lt(r, N->m) || !ecc_lt(s, N->m))
		return -EBADMSG;
	if (ecc_load_point(&q, xy, D))
		return -EBADMSG;
	ecc_from_bytes(e, eb, D->nbytes);
	ecc_reduce_once(e, e, N->m);
	mont_to(w, s, N);
	mont_inv(w, w, N);
	mont_to(u1, e, N);
	mont_mul(u1, u1, w, N);
	mont_from(u1, u1, N);
	mont_to(u2, r, N);
	mont_mul(u2, u2, w, N);
	mont_from(u2, u2, N);
	pt_mul_base(&a, u1, D);
	pt_mul(&b, u2, &q, D);
	pt_add(&a, &a, &b, D);
	if (pt_affine(x, y, &a, D))
		return -EBADMSG;
	ecc_reduce_once(x, x, N->m);
	return memcmp(x, r, sizeof(fe)) ? -EBADMSG : 0;
}

/* The struct ecc_curve of one curve definition. */
#define ECC_DEFINE_CURVE(sym, def, crv, roid, nb, nbits)					\
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
