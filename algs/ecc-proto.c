// SPDX-License-Identifier: MIT
/*
 * The NIST curves' protocol layer, once for every curve and driver
 * (<crypto/ecc-proto.h>): what struct ecc_curve's operations (ecc.h) do
 * around the point multiplications -- byte strings in and out, range and
 * curve checks, the affine conversion, the ECDSA scalar arithmetic, the
 * projective comparison of verification and the batch inversions of
 * sign_batch -- over the driver's operations (struct ecc_proto_ops,
 * filled by ECC_DEFINE_CURVE in the driver's file).
 *
 * Limb loops run over the driver's nl words, a public size.  Secret data
 * (scalars, nonces, products with them) goes through branch-free,
 * index-free code only: the driver's constant-time operations and the
 * masked helpers below; what is declassified is the verdict only.
 * Verification and decompression work on public data and may branch.
 *
 * Batched signing: a signature costs one fixed-base multiplication k G
 * and two inversions, Z of k G (the affine x) and k modulo n.  For a batch
 * under one key the multiplications stay one per signature and each kind
 * of inversion is done once for the whole batch by Montgomery's
 * simultaneous inversion:
 *   c_1 = a_1, c_i = c_(i-1) a_i;  u = c_n^-1;
 *   for i = n .. 2: a_i^-1 = u c_(i-1), u = u a_i;  a_1^-1 = u
 * 3 (n - 1) multiplications and one inversion instead of n inversions.
 * The sequence of operations depends on n only, never on the values.  It
 * needs every a_i non-zero (one zero would turn every result into zero):
 * Z of k G is not zero for 1 <= k < n (G has prime order n), nor is k.
 */
#include <errno.h>
#include <string.h>
#include <rind/internal/util.h>
#include <crypto/ecc.h>
#include <crypto/ecc-proto.h>

typedef unsigned __int128 ep_u128;
typedef u64 ep_fe[ECC_MAX_LIMBS];
typedef u64 ep_pt[3 * ECC_MAX_LIMBS];

/* One driver's operations and constants. */
struct ep {
	const struct ecc_proto_ops *f;
	unsigned int nl, nbytes;
	const u64 *p, *n, *n_rr, *fp_one, *sqrt_exp;
};

static struct ep *ep_init(struct ep *o, const struct ecc_proto_ops *ops)
{
	struct ecc_proto_consts c;

	ops->consts(&c);
	o->f = ops;
	o->nl = ops->nl;
	o->nbytes = c.nbytes;
	o->p = c.p;
	o->n = c.n;
	o->n_rr = c.n_rr;
	o->fp_one = c.fp_one;
	o->sqrt_exp = c.sqrt_exp;
	return o;
}

/* ---- limbs ---------------------------------------------------------------- */

/*
 * Big-endian bytes to words: whole words (shifts the compiler turns into
 * one load and a byte swap), then P-521's top bytes.
 */
static void ep_from_bytes(u64 *r, const u8 *in, const struct ep *o)
{
	unsigned int i, j, nb = o->nbytes;

	memset(r, 0, o->nl * sizeof(u64));
	for (j = 0; j < nb / 8; j++) {
		const u8 *p = in + nb - 8 * (j + 1);
		u64 w = 0;

		for (i = 0; i < 8; i++)
			w = (w << 8) | p[i];
		r[j] = w;
	}
	for (i = 8 * j; i < nb; i++)
		r[i / 8] |= (u64)in[nb - 1 - i] << (8 * (i % 8));
}

static void ep_to_bytes(u8 *out, const u64 *a, const struct ep *o)
{
	unsigned int i, j, nb = o->nbytes;

	for (j = 0; j < nb / 8; j++) {
		u8 *p = out + nb - 8 * (j + 1);

		for (i = 0; i < 8; i++)
			p[i] = (u8)(a[j] >> (56 - 8 * i));
	}
	for (i = 8 * j; i < nb; i++)
		out[nb - 1 - i] = (u8)(a[i / 8] >> (8 * (i % 8)));
}

/* 1 if a < m, constant time. */
static u64 ep_lt(const u64 *a, const u64 *m, unsigned int nl)
{
	u64 borrow = 0;
	unsigned int i;

	for (i = 0; i < nl; i++) {
		ep_u128 d = (ep_u128)a[i] - m[i] - borrow;

		borrow = (u64)(d >> 64) & 1;
	}
	return borrow;
}

/* 1 if a == 0, constant time. */
static u64 ep_is_zero(const u64 *a, unsigned int nl)
{
	u64 acc = 0;
	unsigned int i;

	for (i = 0; i < nl; i++)
		acc |= a[i];
	return 1 ^ ((acc | (0 - acc)) >> 63);
}

/* r = a - m if a >= m (a < 2m), constant time. */
static void ep_reduce_once(u64 *r, const u64 *a, const u64 *m, unsigned int nl)
{
	u64 u[ECC_MAX_LIMBS], borrow = 0, mask;
	unsigned int i;

	for (i = 0; i < nl; i++) {
		ep_u128 d = (ep_u128)a[i] - m[i] - borrow;

		u[i] = (u64)d;
		borrow = (u64)(d >> 64) & 1;
	}
	mask = 0 - borrow;	/* keep a when it was below m */
	for (i = 0; i < nl; i++)
		r[i] = (a[i] & mask) | (u[i] & ~mask);
}

/* r = a + b mod m (a, b < m), constant time. */
static void ep_mod_add(u64 *r, const u64 *a, const u64 *b, const u64 *m, unsigned int nl)
{
	u64 t[ECC_MAX_LIMBS], u[ECC_MAX_LIMBS], carry = 0, borrow = 0, mask;
	unsigned int i;

	for (i = 0; i < nl; i++) {
		ep_u128 s = (ep_u128)a[i] + b[i] + carry;

		t[i] = (u64)s;
		carry = (u64)(s >> 64);
	}
	for (i = 0; i < nl; i++) {
		ep_u128 d = (ep_u128)t[i] - m[i] - borrow;

		u[i] = (u64)d;
		borrow = (u64)(d >> 64) & 1;
	}
	/* t + carry * R - m < 0 exactly when borrow and no carry. */
	mask = 0 - (borrow & (carry ^ 1));
	for (i = 0; i < nl; i++)
		r[i] = (t[i] & mask) | (u[i] & ~mask);
}

/* r = m - a for 0 < a < m (public data: decompression). */
static void ep_neg(u64 *r, const u64 *a, const u64 *m, unsigned int nl)
{
	u64 borrow = 0;
	unsigned int i;

	for (i = 0; i < nl; i++) {
		ep_u128 d = (ep_u128)m[i] - a[i] - borrow;

		r[i] = (u64)d;
		borrow = (u64)(d >> 64) & 1;
	}
}

/* Montgomery form modulo n and back. */
static void ep_fn_to(const struct ep *o, u64 *r, const u64 *a)
{
	o->f->fn_mul(r, a, o->n_rr);
}

static void ep_fn_from(const struct ep *o, u64 *r, const u64 *a)
{
	ep_fe one = { 1 };

	o->f->fn_mul(r, a, one);
}

/* The plain, reduced x = X / Z of a projective point (0 for the identity). */
static void ep_affine_x(const struct ep *o, u64 *x, const u64 *pt)
{
	ep_fe zi;

	o->f->fp_inv(zi, pt + 2 * o->nl);
	o->f->fp_mul(x, pt, zi);
	o->f->fp_from(x, x);
	memzero_explicit(zi, sizeof(zi));
}

/* Parse and check a public X||Y point into the field's form, Z = 1. */
static int ep_load_point(const struct ep *o, u64 *pt, const u8 *xy)
{
	unsigned int nl = o->nl;
	ep_fe x, y, l, r;

	ep_from_bytes(x, xy, o);
	ep_from_bytes(y, xy + o->nbytes, o);
	if (!ep_lt(x, o->p, nl) || !ep_lt(y, o->p, nl))
		return -EINVAL;
	o->f->fp_to(pt, x);
	o->f->fp_to(pt + nl, y);
	memcpy(pt + 2 * nl, o->fp_one, nl * sizeof(u64));
	/* y^2 == x^3 - 3x + b */
	o->f->fp_sqr(l, pt + nl);
	o->f->fp_rhs(r, pt);
	if (!o->f->fp_eq(l, r))
		return -EINVAL;
	return 0;
}

/* ---- the operations ------------------------------------------------------ */

int ecc_proto_scalar_ok(const struct ecc_proto_ops *ops, const u8 *d)
{
	struct ep ctx, *o = ep_init(&ctx, ops);
	ep_fe k;
	int ok;

	ep_from_bytes(k, d, o);
	ok = (int)(ep_lt(k, o->n, o->nl) & (ep_is_zero(k, o->nl) ^ 1));
	memzero_explicit(k, sizeof(k));
	return ok;
}

void ecc_proto_reduce_n(const struct ecc_proto_ops *ops, u8 *out, const u8 *in)
{
	struct ep ctx, *o = ep_init(&ctx, ops);
	ep_fe e;

	ep_from_bytes(e, in, o);
	ep_reduce_once(e, e, o->n, o->nl);
	ep_to_bytes(out, e, o);
	memzero_explicit(e, sizeof(e));
}

void ecc_proto_mul_base(const struct ecc_proto_ops *ops, u8 *xy, const u8 *d)
{
	struct ep ctx, *o = ep_init(&ctx, ops);
	unsigned int nl = o->nl;
	ep_pt r;
	ep_fe k, zi, x, y;

	ep_from_bytes(k, d, o);
	o->f->pt_mul_base(r, k);
	o->f->fp_inv(zi, r + 2 * nl);
	o->f->fp_mul(x, r, zi);
	o->f->fp_mul(y, r + nl, zi);
	o->f->fp_from(x, x);
	o->f->fp_from(y, y);
	ep_to_bytes(xy, x, o);
	ep_to_bytes(xy + o->nbytes, y, o);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(r, sizeof(r));
	memzero_explicit(zi, sizeof(zi));
}

int ecc_proto_point_check(const struct ecc_proto_ops *ops, const u8 *xy)
{
	struct ep ctx, *o = ep_init(&ctx, ops);
	ep_pt p;

	return ep_load_point(o, p, xy);
}

int ecc_proto_decompress(const struct ecc_proto_ops *ops, u8 *xy, const u8 *xb, unsigned int odd)
{
	struct ep ctx, *o = ep_init(&ctx, ops);
	unsigned int nl = o->nl;
	ep_fe x, xm, rhs, t, y, ym;
	int i;

	ep_from_bytes(x, xb, o);
	if (!ep_lt(x, o->p, nl))
		return -EINVAL;
	o->f->fp_to(xm, x);
	o->f->fp_rhs(rhs, xm);
	/* ym = rhs^((p + 1) / 4), square and multiply (public exponent) */
	memcpy(ym, o->fp_one, nl * sizeof(u64));
	for (i = 64 * (int)nl - 1; i >= 0; i--) {
		o->f->fp_sqr(ym, ym);
		if ((o->sqrt_exp[i / 64] >> (i % 64)) & 1)
			o->f->fp_mul(ym, ym, rhs);
	}
	o->f->fp_sqr(t, ym);
	if (!o->f->fp_eq(t, rhs))
		return -EINVAL;
	o->f->fp_from(y, ym);
	if ((y[0] & 1) != (odd & 1)) {
		if (ep_is_zero(y, nl))
			return -EINVAL;
		ep_neg(y, y, o->p, nl);
	}
	ep_to_bytes(xy, x, o);
	ep_to_bytes(xy + o->nbytes, y, o);
	return 0;
}

int ecc_proto_ecdh(const struct ecc_proto_ops *ops, u8 *out, const u8 *d, const u8 *xy)
{
	struct ep ctx, *o = ep_init(&ctx, ops);
	ep_pt p, r;
	ep_fe k, x;
	u64 inf;
	int err;

	err = ep_load_point(o, p, xy);
	if (err)
		return err;
	ep_from_bytes(k, d, o);
	o->f->pt_mul(r, k, p);
	/* x = X / Z; Z = 0 (the identity) gives 0 here and the error below */
	ep_affine_x(o, x, r);
	/* whether the result is the identity is the verdict, public */
	inf = o->f->fp_is_zero(r + 2 * o->nl);
	rind_declassify(&inf, sizeof(inf));
	err = inf ? -EINVAL : 0;
	if (!err)
		ep_to_bytes(out, x, o);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(r, sizeof(r));
	memzero_explicit(x, sizeof(x));
	return err;
}

/*
 * s = k^-1 (e + r d) mod n from plain r < n, Montgomery-form d and k^-1;
 * e < 2^bits < 2n.  Returns whether r or s is zero (declassified).
 */
static u64 ep_sign_s(const struct ep *o, u64 *s, const u64 *r, const u64 *dm,
		     const u64 *kinv, const u8 *eb)
{
	unsigned int nl = o->nl;
	ep_fe e, em, rm;
	u64 zero;

	ep_from_bytes(e, eb, o);
	ep_reduce_once(e, e, o->n, nl);
	ep_fn_to(o, em, e);
	ep_fn_to(o, rm, r);
	o->f->fn_mul(s, rm, dm);
	ep_mod_add(s, s, em, o->n, nl);
	o->f->fn_mul(s, s, kinv);
	ep_fn_from(o, s, s);
	/* whether a new nonce is needed is the verdict, public */
	zero = ep_is_zero(r, nl) | ep_is_zero(s, nl);
	rind_declassify(&zero, sizeof(zero));
	return zero;
}

int ecc_proto_sign(const struct ecc_proto_ops *ops, u8 *rb, u8 *sb, const u8 *d, const u8 *kb,
		   const u8 *eb)
{
	struct ep ctx, *o = ep_init(&ctx, ops);
	unsigned int nl = o->nl;
	ep_pt R;
	ep_fe k, x, r, dm, km, s;
	u64 zero;

	ep_from_bytes(k, kb, o);
	o->f->pt_mul_base(R, k);
	ep_affine_x(o, x, R);
	ep_reduce_once(r, x, o->n, nl);			/* x < p < 2n */
	ep_from_bytes(dm, d, o);
	ep_fn_to(o, dm, dm);
	ep_fn_to(o, km, k);
	o->f->fn_inv(km, km);				/* k^-1 */
	zero = ep_sign_s(o, s, r, dm, km, eb);
	ep_to_bytes(rb, r, o);
	ep_to_bytes(sb, s, o);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(km, sizeof(km));
	memzero_explicit(dm, sizeof(dm));
	memzero_explicit(R, sizeof(R));
	memzero_explicit(x, sizeof(x));
	memzero_explicit(s, sizeof(s));
	return zero ? -EAGAIN : 0;
}

int ecc_proto_verify(const struct ecc_proto_ops *ops, const u8 *xy, const u8 *eb, const u8 *rb,
		     const u8 *sb)
{
	struct ep ctx, *o = ep_init(&ctx, ops);
	unsigned int nl = o->nl, i;
	ep_pt q, a;
	ep_fe r, s, e, w, u1, u2, z2, t;
	u64 c = 0;

	ep_from_bytes(r, rb, o);
	ep_from_bytes(s, sb, o);
	if (ep_is_zero(r, nl) || ep_is_zero(s, nl) || !ep_lt(r, o->n, nl) || !ep_lt(s, o->n, nl))
		return -EBADMSG;
	if (ep_load_point(o, q, xy))
		return -EBADMSG;
	ep_from_bytes(e, eb, o);
	ep_reduce_once(e, e, o->n, nl);
	ep_fn_to(o, w, s);
	o->f->fn_inv(w, w);
	ep_fn_to(o, u1, e);
	o->f->fn_mul(u1, u1, w);
	ep_fn_from(o, u1, u1);
	ep_fn_to(o, u2, r);
	o->f->fn_mul(u2, u2, w);
	ep_fn_from(o, u2, u2);
	o->f->mul2_vt(a, u1, u2, q);
	if (o->f->fp_is_zero(a + 2 * nl))
		return -EBADMSG;
	/* x(R) mod n == r: X == r Z^2, or X == (r + n) Z^2 when r + n < p */
	o->f->fp_sqr(z2, a + 2 * nl);
	o->f->fp_to(t, r);
	o->f->fp_mul(t, t, z2);
	if (o->f->fp_eq(t, a))
		return 0;
	for (i = 0; i < nl; i++) {
		ep_u128 sum = (ep_u128)r[i] + o->n[i] + c;

		t[i] = (u64)sum;
		c = (u64)(sum >> 64);
	}
	if (c || !ep_lt(t, o->p, nl))
		return -EBADMSG;
	o->f->fp_to(t, t);
	o->f->fp_mul(t, t, z2);
	return o->f->fp_eq(t, a) ? 0 : -EBADMSG;
}

/*
 * out[i] = a[i]^-1 for n elements of nl words (stride ECC_MAX_LIMBS),
 * every a[i] != 0, by mul and inv (the field's or the scalars'); out may
 * be a; c: n scratch.
 */
static void ep_inv_batch(const struct ep *o, ep_fe *out, const ep_fe *a,
			 unsigned int n, ep_fe *c, void (*mul)(u64 *, const u64 *, const u64 *),
			 void (*inv)(u64 *, const u64 *))
{
	unsigned int i;
	ep_fe u, t;

	memcpy(c[0], a[0], o->nl * sizeof(u64));
	for (i = 1; i < n; i++)
		mul(c[i], c[i - 1], a[i]);
	inv(u, c[n - 1]);
	for (i = n - 1; i > 0; i--) {
		mul(t, u, c[i - 1]);
		mul(u, u, a[i]);		/* a[i] read before out[i] is written */
		memcpy(out[i], t, sizeof(ep_fe));
	}
	memcpy(out[0], u, sizeof(ep_fe));
	memzero_explicit(u, sizeof(u));
	memzero_explicit(t, sizeof(t));
	memzero_explicit(c, n * sizeof(ep_fe));
}

void ecc_proto_sign_batch(const struct ecc_proto_ops *ops, u8 *rb, u8 *sb, const u8 *d,
			  const u8 *kb, const u8 *eb, unsigned int n, int *err)
{
	struct ep ctx, *o = ep_init(&ctx, ops);
	ep_pt R;
	ep_fe x[ECC_SIGN_BATCH_MAX], a[ECC_SIGN_BATCH_MAX], c[ECC_SIGN_BATCH_MAX];
	ep_fe k, dm, r, s;
	unsigned int i, nl = o->nl, nb = o->nbytes;

	if (!n || n > ECC_SIGN_BATCH_MAX)
		return;
	/* n multiplications k_i G, then one inversion for the n affine x */
	for (i = 0; i < n; i++) {
		ep_from_bytes(k, kb + (size_t)i * nb, o);
		o->f->pt_mul_base(R, k);
		memcpy(x[i], R, nl * sizeof(u64));
		memcpy(a[i], R + 2 * nl, nl * sizeof(u64));
	}
	ep_inv_batch(o, a, a, n, c, o->f->fp_mul, o->f->fp_inv);
	for (i = 0; i < n; i++) {
		o->f->fp_mul(x[i], x[i], a[i]);
		o->f->fp_from(x[i], x[i]);
		ep_reduce_once(x[i], x[i], o->n, nl);	/* r_i (x < p < 2n) */
	}
	/* one inversion for the n k_i^-1 */
	for (i = 0; i < n; i++) {
		ep_from_bytes(k, kb + (size_t)i * nb, o);
		ep_fn_to(o, a[i], k);
	}
	ep_inv_batch(o, a, a, n, c, o->f->fn_mul, o->f->fn_inv);
	ep_from_bytes(dm, d, o);
	ep_fn_to(o, dm, dm);
	for (i = 0; i < n; i++) {
		memcpy(r, x[i], sizeof(r));
		err[i] = ep_sign_s(o, s, r, dm, a[i], eb + (size_t)i * nb) ? -EAGAIN : 0;
		ep_to_bytes(rb + (size_t)i * nb, r, o);
		ep_to_bytes(sb + (size_t)i * nb, s, o);
	}
	memzero_explicit(R, sizeof(R));
	memzero_explicit(x, n * sizeof(x[0]));
	memzero_explicit(a, n * sizeof(a[0]));
	memzero_explicit(k, sizeof(k));
	memzero_explicit(dm, sizeof(dm));
	memzero_explicit(r, sizeof(r));
	memzero_explicit(s, sizeof(s));
}

/* Both drivers of a curve or neither (<crypto/ecc.h>). */
int ecc_register_curve_drivers(struct ecdh_driver *ecdh, struct ecdsa_driver *ecdsa)
{
	int err;

	err = ecdh_register_curve_driver(ecdh);
	if (err)
		return err;
	err = ecdsa_register_curve_driver(ecdsa);
	if (err)
		crypto_unregister_kpp(&ecdh->alg);
	return err;
}
