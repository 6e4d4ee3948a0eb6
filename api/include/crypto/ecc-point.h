/* SPDX-License-Identifier: MIT */
/*
 * The point formulas of the NIST curve template (ecc-impl.h, hooks in
 * ecc.h), short Weierstrass with a = -3, over ecc-field.h's fp_*():
 *   - complete projective formulas of Renes, Costello and Batina
 *     ("Complete addition formulas for prime order elliptic curves",
 *     2016, algorithms 4 and 6), for the last window of a scalar
 *     multiplication and the fixed-base table; they run once per
 *     operation, so they are compiled for size (ECC_COLD);
 *   - Jacobian doubling (4M + 4S) and additions (12M + 4S, mixed 8M + 3S),
 *     the inner loops: the curve file may replace each by its own
 *     (ECC_JAC_DBL, ECC_JAC_ADD, ECC_JAC_ADD_AFFINE).  The additions are
 *     written once, without any case analysis (jac_add_core); the
 *     constant-time forms mask the identity around them, the
 *     variable-time ones (verification) branch on it and on p = +-q.
 */
#ifndef _RIND_CRYPTO_ECC_POINT_H
#define _RIND_CRYPTO_ECC_POINT_H

#include <crypto/ecc-field.h>

/* Code run once per operation: optimised for size, kept out of line. */
#define ECC_COLD	__attribute__((cold, noinline))

/* Projective (X : Y : Z) or Jacobian (X / Z^2, Y / Z^3), as the functions say. */
struct ecc_pt {
	fe x, y, z;
};

/* An affine point (the field's form), for the fixed-base table. */
struct ecc_aff {
	fe x, y;
};

/* ---- points: complete projective formulas (RCB) -------------------------- */

/* RCB algorithm 4: r = p + q, complete (a = -3). r may alias p or q. */
static ECC_COLD void pt_add(struct ecc_pt *r, const struct ecc_pt *p, const struct ecc_pt *q,
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

/* RCB algorithm 6: r = 2p, complete (a = -3). r may alias p. */
static ECC_COLD void pt_dbl(struct ecc_pt *r, const struct ecc_pt *p, const struct ecc_def *D)
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
	fp_add_lazy(y2, p->y, p->y, D);		/* 2Y */
	fp_sub_lazy(t, p->x, delta, D);
	fp_add_lazy(u, p->x, delta, D);
	fp_mul(m, t, u, D);
	fp_add_lazy(t, m, m, D);
	fp_add_lazy(m, t, m, D);		/* M */
	fp_mul(r->z, y2, p->z, D);		/* 2YZ */
	fp_sqr(y2, y2, D);			/* 4Y^2 */
	fp_mul(s, p->x, y2, D);			/* S = 4XY^2 */
	fp_sqr(y2, y2, D);
	fp_half(y2, y2, D);			/* 8Y^4 */
	fp_sqr(t, m, D);
	fp_sub2(r->x, t, s, D);			/* M^2 - 2S */
	fp_sub_lazy(t, s, r->x, D);
	fp_mul(t, m, t, D);
	fp_sub(r->y, t, y2, D);
#endif
}

/*
 * o = p + q in Jacobian coordinates, add-2007-bl (12M + 4S), or with
 * Z2 = 1 madd-2007-bl (8M + 3S): @affine is a constant, folded away in
 * each of the two functions below.  For p, q not the identity and
 * p != +-q: Z3 = Z1 Z2 H is 0 exactly when H = 0, i.e. p = +-q, and the
 * result is then meaningless.  o distinct from p and q.
 */
static ECC_INLINE void jac_add_formula(struct ecc_pt *o, const struct ecc_pt *p, const u64 *x2,
				       const u64 *y2, const u64 *z2, int affine,
				       const struct ecc_def *D)
{
	fe z1z1, z2z2, bu1, bs1, u2, s2, h, rr, hh, v, t;
	const u64 *u1 = p->x, *s1 = p->y;

	fp_sqr(z1z1, p->z, D);
	fp_mul(u2, x2, z1z1, D);		/* U2 = X2 Z1^2 */
	fp_mul(s2, y2, p->z, D);
	fp_mul(s2, s2, z1z1, D);		/* S2 = Y2 Z1^3 */
	if (!affine) {
		fp_sqr(z2z2, z2, D);
		fp_mul(bu1, p->x, z2z2, D);	/* U1 = X1 Z2^2 */
		fp_mul(bs1, p->y, z2, D);
		fp_mul(bs1, bs1, z2z2, D);	/* S1 = Y1 Z2^3 */
		u1 = bu1;
		s1 = bs1;
	}
	fp_sub_lazy(h, u2, u1, D);		/* H = U2 - U1 */
	fp_sub_lazy(rr, s2, s1, D);		/* R = S2 - S1 */
	fp_sqr(hh, h, D);
	fp_mul(v, u1, hh, D);			/* V = U1 H^2 */
	fp_mul(hh, h, hh, D);			/* H^3 */
	if (affine) {
		fp_mul(o->z, p->z, h, D);
	} else {
		fp_mul(t, p->z, z2, D);
		fp_mul(o->z, t, h, D);		/* Z3 = Z1 Z2 H */
	}
	fp_sqr(t, rr, D);
	fp_sub(t, t, hh, D);
	fp_sub2(o->x, t, v, D);			/* X3 = R^2 - H^3 - 2V */
	fp_sub_lazy(v, v, o->x, D);
	fp_mul(v, rr, v, D);
	fp_mul(t, s1, hh, D);
	fp_sub(o->y, v, t, D);			/* Y3 = R (V - X3) - S1 H^3 */
}

static void jac_add_core(struct ecc_pt *o, const struct ecc_pt *p, const struct ecc_pt *q,
			 const struct ecc_def *D)
{
#ifdef ECC_JAC_ADD
	(void)D;
	ECC_JAC_ADD(o, p, q);
#else
	jac_add_formula(o, p, q->x, q->y, q->z, 0, D);
#endif
}

static void jac_add_affine_core(struct ecc_pt *o, const struct ecc_pt *p, const struct ecc_aff *q,
				const struct ecc_def *D)
{
#ifdef ECC_JAC_ADD_AFFINE
	(void)D;
	ECC_JAC_ADD_AFFINE(o, p, q);
#else
	jac_add_formula(o, p, q->x, q->y, NULL, 1, D);
#endif
}

/*
 * r = p + q in Jacobian coordinates, constant time.  The identity (Z = 0)
 * on either side is handled by masking; the doubling case p = q (and
 * p = -q, which yields Z = 0) is not: callers add only where they are
 * shown not to occur (see pt_mul).  r may alias p or q.
 */
static ECC_INLINE void jac_add_ct(struct ecc_pt *r, const struct ecc_pt *p, const struct ecc_pt *q,
			      const struct ecc_def *D)
{
	u64 pinf = 0 - fp_is_zero(p->z), qinf = 0 - fp_is_zero(q->z);
	struct ecc_pt o;

	jac_add_core(&o, p, q, D);
	ecc_cmov(o.x, q->x, pinf);
	ecc_cmov(o.y, q->y, pinf);
	ecc_cmov(o.z, q->z, pinf);
	ecc_cmov(o.x, p->x, qinf);
	ecc_cmov(o.y, p->y, qinf);
	ecc_cmov(o.z, p->z, qinf);
	*r = o;
}

/*
 * r = p + (x2, y2) in Jacobian coordinates, constant time; p may be the
 * identity (masked), the affine point cannot be; p = +-q is not handled
 * (see pt_mul_base).  r may alias p.
 */
static ECC_INLINE void jac_add_affine_ct(struct ecc_pt *r, const struct ecc_pt *p,
				     const struct ecc_aff *q, const struct ecc_def *D)
{
	u64 pinf = 0 - fp_is_zero(p->z);
	struct ecc_pt o;

	jac_add_affine_core(&o, p, q, D);
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

/* ---- public points (verification): variable time ------------------------ */

/*
 * r = p + q where H = 0 (the same x): 2p when also S1 = S2 (p = q), else
 * the identity (p = -q); p, q not the identity.  Rare: public inputs only.
 */
static ECC_COLD void jac_add_same_x(struct ecc_pt *r, const struct ecc_pt *p,
				    const struct ecc_pt *q, const struct ecc_def *D)
{
	fe s1, s2, t;

	fp_sqr(t, q->z, D);
	fp_mul(t, t, q->z, D);
	fp_mul(s1, p->y, t, D);
	fp_sqr(t, p->z, D);
	fp_mul(t, t, p->z, D);
	fp_mul(s2, q->y, t, D);
	if (fp_eq(s1, s2))
		jac_dbl(r, p, D);
	else
		pt_identity(r, D);
}

/* r = p + q, Jacobian, every case, branching on them.  r may alias p or q. */
static void jac_add_vt(struct ecc_pt *r, const struct ecc_pt *p, const struct ecc_pt *q,
		       const struct ecc_def *D)
{
	struct ecc_pt o;

	if (fp_is_zero(p->z)) {
		*r = *q;
		return;
	}
	if (fp_is_zero(q->z)) {
		*r = *p;
		return;
	}
	jac_add_core(&o, p, q, D);
	if (fp_is_zero(o.z))
		jac_add_same_x(&o, p, q, D);
	*r = o;
}

/* r = p + q for an affine q, every case; r may alias p. */
static void jac_add_affine_vt(struct ecc_pt *r, const struct ecc_pt *p, const struct ecc_aff *q,
			      const struct ecc_def *D)
{
	struct ecc_pt o;

	if (fp_is_zero(p->z)) {
		memcpy(r->x, q->x, sizeof(fe));
		memcpy(r->y, q->y, sizeof(fe));
		memcpy(r->z, D->fp->one, sizeof(fe));
		return;
	}
	jac_add_affine_core(&o, p, q, D);
	if (fp_is_zero(o.z)) {
		struct ecc_pt qj;

		memcpy(qj.x, q->x, sizeof(fe));
		memcpy(qj.y, q->y, sizeof(fe));
		memcpy(qj.z, D->fp->one, sizeof(fe));
		jac_add_same_x(&o, p, &qj, D);
	}
	*r = o;
}

#endif /* _RIND_CRYPTO_ECC_POINT_H */
