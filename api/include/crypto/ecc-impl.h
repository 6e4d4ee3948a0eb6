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
 *   ecc-impl.h   (this file) the operations the protocol layer calls
 *                (struct ecc_proto_ops, <crypto/ecc-proto.h>) and the
 *                struct ecc_curve over them
 * The protocol layer itself -- key and point checks, point loading and
 * decompression, ECDH, ECDSA signing (one and batched) and verification --
 * is ordinary code, compiled once for every curve and driver
 * (algs/ecc-proto.c); only the field, the point formulas and the scalar
 * multiplications are instantiated per driver.  Verification works on
 * public data only and is variable time; it compares the x-coordinate
 * projectively (r * Z^2 == X, and (r + n) * Z^2 when r + n < p) without
 * an inversion.
 */
#ifndef _RIND_ALGS_ECC_IMPL_H
#define _RIND_ALGS_ECC_IMPL_H

#include <crypto/ecc-mul.h>
#include <crypto/ecc-proto.h>

/* ---- what the protocol layer (algs/ecc-proto.c) calls ---------------------- */

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

/* y^2 == x^3 - 3x + b for field-form x, y: 1 yes. */
static inline u64 ecc_on_curve(const fe x, const fe y, const struct ecc_def *D)
{
	fe l, r;

	fp_sqr(l, y, D);
	ecc_rhs(r, x, D);
	return fp_eq(l, r);
}

/*
 * Parse and check a public X||Y point into the field's projective form
 * (Z = 1): for a driver's own protocol code (arch/x86/ecc-p256-adx.c);
 * the template's operations use ecc-proto.c's.
 */
static inline int ecc_load_point(struct ecc_pt *p, const u8 *xy, const struct ecc_def *D)
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

/* A variable-time k P (jac_mul_vt's signature), for ecc_mul2_vt_by(). */
typedef void ecc_mul_vt_fn(struct ecc_pt *r, const fe k, const struct ecc_pt *p,
			   const struct ecc_def *D);

/*
 * r = u1 G + u2 Q (Jacobian), public scalars, Q with Z = 1: u1 G from the
 * fixed-base table once it is there, else by @mul like u2 Q.  Inlined
 * with a constant @mul, so a driver's own k P costs no indirect call.
 */
static inline void ecc_mul2_vt_by(struct ecc_pt *r, const fe u1, const fe u2,
				  const struct ecc_pt *q, const struct ecc_def *D,
				  ecc_mul_vt_fn *mul)
{
	const struct ecc_aff *gtab = ecc_gtab_get();
	struct ecc_pt a, b;

	if (gtab) {
		jac_mul_base_vt(&a, u1, gtab, D);
	} else {
		pt_base(&b, D);
		mul(&a, u1, &b, D);
	}
	mul(&b, u2, q, D);
	jac_add_vt(r, &a, &b, D);
}

/* ... by the width-5 NAF.  Unused in a driver that brings its own (ECC_DEFINE_CURVE_MUL). */
static void __attribute__((unused)) ecc_mul2_vt(struct ecc_pt *r, const fe u1, const fe u2,
						const struct ecc_pt *q, const struct ecc_def *D)
{
	ecc_mul2_vt_by(r, u1, u2, q, D, jac_mul_vt);
}

/*
 * The file's struct ecc_proto_ops, defined by ECC_DEFINE_PROTO_OPS (a
 * file that uses the ecc_impl_*() below without it does not link).
 */
static const struct ecc_proto_ops *ecc_proto_ops_get(void);

/* ---- the operations: ecc-proto.c's over this file's ops -------------------- */

static inline int ecc_impl_scalar_ok(const u8 *d, const struct ecc_def *D)
{
	(void)D;
	return ecc_proto_scalar_ok(ecc_proto_ops_get(), d);
}

static inline void ecc_impl_reduce_n(u8 *out, const u8 *in, const struct ecc_def *D)
{
	(void)D;
	ecc_proto_reduce_n(ecc_proto_ops_get(), out, in);
}

static inline void ecc_impl_mul_base(u8 *xy, const u8 *d, const struct ecc_def *D)
{
	(void)D;
	ecc_proto_mul_base(ecc_proto_ops_get(), xy, d);
}

static inline int ecc_impl_point_check(const u8 *xy, const struct ecc_def *D)
{
	(void)D;
	return ecc_proto_point_check(ecc_proto_ops_get(), xy);
}

static inline int ecc_impl_decompress(u8 *xy, const u8 *x, unsigned int odd,
				      const struct ecc_def *D)
{
	(void)D;
	return ecc_proto_decompress(ecc_proto_ops_get(), xy, x, odd);
}

static inline int ecc_impl_ecdh(u8 *out, const u8 *d, const u8 *xy, const struct ecc_def *D)
{
	(void)D;
	return ecc_proto_ecdh(ecc_proto_ops_get(), out, d, xy);
}

static inline int ecc_impl_sign(u8 *r, u8 *s, const u8 *d, const u8 *k, const u8 *e,
				const struct ecc_def *D)
{
	(void)D;
	return ecc_proto_sign(ecc_proto_ops_get(), r, s, d, k, e);
}

static inline int ecc_impl_verify(const u8 *xy, const u8 *e, const u8 *r, const u8 *s,
				  const struct ecc_def *D)
{
	(void)D;
	return ecc_proto_verify(ecc_proto_ops_get(), xy, e, r, s);
}

/* n signatures under one d sharing two inversions (ecc-proto.c). */
static inline void ecc_impl_sign_batch(u8 *r, u8 *s, const u8 *d, const u8 *k, const u8 *e,
				       unsigned int n, int *err, const struct ecc_def *D)
{
	(void)D;
	ecc_proto_sign_batch(ecc_proto_ops_get(), r, s, d, k, e, n, err);
}

/*
 * The operations ecc-proto.c calls, over one curve definition: out of line
 * here (the inlined field arithmetic stays in this file's own loops), one
 * indirect call each there.
 */
#define ECC_DEFINE_PROTO_OPS(def) ECC_DEFINE_PROTO_OPS_MUL(def, pt_mul, ecc_mul2_vt)

/*
 * The same with a driver's own k P (@ptmul, constant time, pt_mul's
 * signature) and u1 G + u2 Q (@mul2, variable time, ecc_mul2_vt's):
 * ECDH and verification of the shared protocol layer then run over them.
 */
#define ECC_DEFINE_PROTO_OPS_MUL(def, ptmul, mul2)					\
static void ecc_op_fp_mul(u64 *r, const u64 *a, const u64 *b)			\
{ fp_mul(r, a, b, &def); }							\
static void ecc_op_fp_sqr(u64 *r, const u64 *a)					\
{ fp_sqr(r, a, &def); }								\
static void ecc_op_fp_inv(u64 *r, const u64 *a)					\
{ fp_inv(r, a, &def); }								\
static void ecc_op_fp_to(u64 *r, const u64 *a)					\
{ fp_to(r, a, &def); }								\
static void ecc_op_fp_from(u64 *r, const u64 *a)				\
{ fp_from(r, a, &def); }							\
static void ecc_op_fp_rhs(u64 *r, const u64 *x)					\
{ ecc_rhs(r, x, &def); }							\
static u64 ecc_op_fp_eq(const u64 *a, const u64 *b)				\
{ return fp_eq(a, b); }								\
static u64 ecc_op_fp_is_zero(const u64 *a)					\
{ return fp_is_zero(a); }							\
static void ecc_op_fn_mul(u64 *r, const u64 *a, const u64 *b)			\
{ fn_mul(r, a, b, &def); }							\
static void ecc_op_fn_inv(u64 *r, const u64 *a)					\
{ fn_inv(r, a, &def); }								\
static void ecc_op_pt_mul(u64 *r, const u64 *k, const u64 *p)			\
{ ptmul((struct ecc_pt *)r, k, (const struct ecc_pt *)p, &def); }		\
static void ecc_op_pt_mul_base(u64 *r, const u64 *k)				\
{ pt_mul_base((struct ecc_pt *)r, k, &def); }					\
static void ecc_op_mul2_vt(u64 *r, const u64 *u1, const u64 *u2, const u64 *q)	\
{ mul2((struct ecc_pt *)r, u1, u2, (const struct ecc_pt *)q, &def); }	\
static void ecc_op_consts(struct ecc_proto_consts *c)				\
{										\
	c->nbytes = (def).nbytes;						\
	c->p = (def).fp->m;							\
	c->n = (def).fn->m;							\
	c->n_rr = (def).fn->rr;							\
	c->fp_one = (def).fp->one;						\
	c->sqrt_exp = (def).sqrt_exp;						\
}										\
static const struct ecc_proto_ops ecc_proto_ops = {				\
	.nl = ECC_N,								\
	.consts = ecc_op_consts,						\
	.fp_mul = ecc_op_fp_mul,						\
	.fp_sqr = ecc_op_fp_sqr,						\
	.fp_inv = ecc_op_fp_inv,						\
	.fp_to = ecc_op_fp_to,							\
	.fp_from = ecc_op_fp_from,						\
	.fp_rhs = ecc_op_fp_rhs,						\
	.fp_eq = ecc_op_fp_eq,							\
	.fp_is_zero = ecc_op_fp_is_zero,					\
	.fn_mul = ecc_op_fn_mul,						\
	.fn_inv = ecc_op_fn_inv,						\
	.pt_mul = ecc_op_pt_mul,						\
	.pt_mul_base = ecc_op_pt_mul_base,					\
	.mul2_vt = ecc_op_mul2_vt,						\
};										\
static const struct ecc_proto_ops *ecc_proto_ops_get(void)			\
{ return &ecc_proto_ops; }

/* The struct ecc_curve of one curve definition. */
#define ECC_DEFINE_CURVE(sym, def, crv, roid, nb, nbits)				\
	ECC_DEFINE_CURVE_MUL(sym, def, crv, roid, nb, nbits, pt_mul, ecc_mul2_vt)

/* ... with the driver's own k P and u1 G + u2 Q (ECC_DEFINE_PROTO_OPS_MUL). */
#define ECC_DEFINE_CURVE_MUL(sym, def, crv, roid, nb, nbits, ptmul, mul2)		\
static void ecc_gtab_build(void)						\
{ ecc_gtab_fill(&def); }							\
ECC_DEFINE_PROTO_OPS_MUL(def, ptmul, mul2)					\
static int sym##_scalar_ok(const u8 *d)						\
{ return ecc_proto_scalar_ok(&ecc_proto_ops, d); }				\
static void sym##_reduce_n(u8 *o, const u8 *i)					\
{ ecc_proto_reduce_n(&ecc_proto_ops, o, i); }					\
static void sym##_mul_base(u8 *xy, const u8 *d)				\
{ ecc_proto_mul_base(&ecc_proto_ops, xy, d); }					\
static int sym##_point_check(const u8 *xy)					\
{ return ecc_proto_point_check(&ecc_proto_ops, xy); }				\
static int sym##_decompress(u8 *xy, const u8 *x, unsigned int odd)		\
{ return ecc_proto_decompress(&ecc_proto_ops, xy, x, odd); }			\
static int sym##_ecdh(u8 *o, const u8 *d, const u8 *xy)				\
{ return ecc_proto_ecdh(&ecc_proto_ops, o, d, xy); }				\
static int sym##_sign(u8 *r, u8 *s, const u8 *d, const u8 *k, const u8 *e)	\
{ return ecc_proto_sign(&ecc_proto_ops, r, s, d, k, e); }			\
static int sym##_verify(const u8 *xy, const u8 *e, const u8 *r, const u8 *s)	\
{ return ecc_proto_verify(&ecc_proto_ops, xy, e, r, s); }			\
static void sym##_sign_batch(u8 *r, u8 *s, const u8 *d, const u8 *k,		\
			     const u8 *e, unsigned int n, int *err)		\
{ ecc_proto_sign_batch(&ecc_proto_ops, r, s, d, k, e, n, err); }		\
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
