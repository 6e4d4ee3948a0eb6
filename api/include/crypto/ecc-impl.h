/* SPDX-License-Identifier: MIT */
/*
 * Short-Weierstrass arithmetic (a = -3) for the NIST prime curves, written
 * once for ECC_N 64-bit limbs: algs/p256.c (4), p384.c (6), p521.c (9)
 * and the arch/ drivers define ECC_N and, optionally, their own field or
 * point operations (the hooks: api/include/crypto/ecc.h), include this
 * file and instantiate it with their constants through ECC_DEFINE_CURVE().
 *
 * In layers, each header over the one before:
 *   ecc-field.h  limbs, Montgomery arithmetic modulo p and n (ecc-inv.h:
 *                the inversion)
 *   ecc-point.h  complete projective and Jacobian point formulas
 *   ecc-mul.h    scalar multiplication: secret (constant time), public
 *   ecc-batch.h  batched signing: shared inversions (Montgomery's trick)
 *   ecc-impl.h   (this file) the operations of struct ecc_curve: key and
 *                point checks, ECDH, ECDSA signing and verification
 * Verification works on public data only and is variable time; it
 * compares the x-coordinate projectively (r * Z^2 == X, and
 * (r + n) * Z^2 when r + n < p) without an inversion.
 */
#ifndef _RIND_ALGS_ECC_IMPL_H
#define _RIND_ALGS_ECC_IMPL_H

#include <crypto/ecc-mul.h>
#include <crypto/ecc-batch.h>

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

/* r = x^3 - 3x + b, the curve equation's right side (the field's form). */
static ECC_COLD void ecc_rhs(fe r, const fe x, const struct ecc_def *D)
{
	fe t;

	fp_sqr(r, x, D);
	fp_mul(r, r, x, D);
	fp_add(t, x, x, D);
	fp_add(t, t, x, D);
	fp_sub(r, r, t, D);
	fp_add(r, r, D->b, D);
}

/* y^2 == x^3 - 3x + b for Montgomery-form x, y: 1 yes. */
static u64 ecc_on_curve(const fe x, const fe y, const struct ecc_def *D)
{
	fe l, r;

	fp_sqr(l, y, D);
	ecc_rhs(r, x, D);
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

static ECC_COLD int ecc_impl_decompress(u8 *xy, const u8 *xb, unsigned int odd,
					const struct ecc_def *D)
{
	const struct ecc_mod *F = D->fp;
	fe x, xm, rhs, t, y, ym, base;
	int i;

	ecc_from_bytes(x, xb, D->nbytes);
	if (!ecc_lt(x, F->m))
		return -EINVAL;
	fp_to(xm, x, D);
	ecc_rhs(rhs, xm, D);
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
static void sym##_sign_batch(u8 *r, u8 *s, const u8 *d, const u8 *k,		\
			     const u8 *e, unsigned int n, int *err)		\
{ ecc_impl_sign_batch(r, s, d, k, e, n, err, &def); }				\
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
	.sign_batch = sym##_sign_batch,						\
}

#endif /* _RIND_ALGS_ECC_IMPL_H */
