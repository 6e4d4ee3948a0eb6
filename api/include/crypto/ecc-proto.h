/* SPDX-License-Identifier: MIT */
/*
 * The protocol layer of the NIST curves, written once (algs/ecc-proto.c)
 * for every curve and every driver: key and point checks, point loading
 * and decompression, ECDH, ECDSA signing (one and batched) and
 * verification.  It is ordinary code over the few operations a curve
 * driver instantiates from the template (ecc-impl.h): its field
 * arithmetic, its scalar multiplications and its scalar arithmetic modulo
 * n, reached through struct ecc_proto_ops -- one indirect call per point
 * multiplication or inversion, a handful per signature for the field and
 * scalar products around them, none inside the loops.  Before, each of
 * the six x86 objects compiled its own copy of all of it, the field
 * arithmetic inlined into every line (a quarter of each object's code and
 * of its compile time).  Not installed.
 *
 * Elements are nl 64-bit little-endian words (nl = ECC_N of the driver,
 * at most ECC_MAX_LIMBS), in the driver's own field form where the
 * comment says "field"; points are x, y, z of nl words each, back to
 * back (the template's struct ecc_pt).
 */
#ifndef _RIND_CRYPTO_ECC_PROTO_H
#define _RIND_CRYPTO_ECC_PROTO_H

#include <rind/types.h>

#define ECC_MAX_LIMBS	9

/*
 * A driver's constants.  Read through ->consts() at each operation rather
 * than held in the table: they are members of the driver's struct ecc_def,
 * which a static initializer may not read in standard C.
 */
struct ecc_proto_consts {
	unsigned int nbytes;
	const u64 *p;			/* the field prime, plain */
	const u64 *n, *n_rr;		/* the order and R^2 mod n (R = 2^(64 nl)) */
	const u64 *fp_one;		/* 1 in the field's form */
	const u64 *sqrt_exp;		/* (p + 1) / 4 */
};

struct ecc_proto_ops {
	unsigned int nl;		/* limbs (the driver's ECC_N) */
	void (*consts)(struct ecc_proto_consts *c);
	/* the field, constant time (ecc.h's ECC_FP_* hooks or the template's) */
	void (*fp_mul)(u64 *r, const u64 *a, const u64 *b);
	void (*fp_sqr)(u64 *r, const u64 *a);
	void (*fp_inv)(u64 *r, const u64 *a);		/* 0 for 0 */
	void (*fp_to)(u64 *r, const u64 *a);		/* from a plain integer < p */
	void (*fp_from)(u64 *r, const u64 *a);		/* to the plain reduced integer */
	void (*fp_rhs)(u64 *r, const u64 *x);		/* x^3 - 3x + b */
	u64 (*fp_eq)(const u64 *a, const u64 *b);
	u64 (*fp_is_zero)(const u64 *a);
	/* scalars modulo n, Montgomery form, constant time */
	void (*fn_mul)(u64 *r, const u64 *a, const u64 *b);	/* a b / R mod n */
	void (*fn_inv)(u64 *r, const u64 *a);		/* 0 for 0 */
	/* r = k P, k G (projective, x = X / Z), constant time in k; P: Z = 1 */
	void (*pt_mul)(u64 *r, const u64 *k, const u64 *p);
	void (*pt_mul_base)(u64 *r, const u64 *k);
	/* r = u1 G + u2 Q (Jacobian, x = X / Z^2), public data; Q: Z = 1 */
	void (*mul2_vt)(u64 *r, const u64 *u1, const u64 *u2, const u64 *q);
};

/* struct ecc_curve's operations (ecc.h), over one driver's ops. */
int ecc_proto_scalar_ok(const struct ecc_proto_ops *o, const u8 *d);
void ecc_proto_reduce_n(const struct ecc_proto_ops *o, u8 *out, const u8 *in);
void ecc_proto_mul_base(const struct ecc_proto_ops *o, u8 *xy, const u8 *d);
int ecc_proto_point_check(const struct ecc_proto_ops *o, const u8 *xy);
int ecc_proto_decompress(const struct ecc_proto_ops *o, u8 *xy, const u8 *x, unsigned int odd);
int ecc_proto_ecdh(const struct ecc_proto_ops *o, u8 *out, const u8 *d, const u8 *xy);
int ecc_proto_sign(const struct ecc_proto_ops *o, u8 *r, u8 *s, const u8 *d, const u8 *k,
		   const u8 *e);
int ecc_proto_verify(const struct ecc_proto_ops *o, const u8 *xy, const u8 *e, const u8 *r,
		     const u8 *s);
void ecc_proto_sign_batch(const struct ecc_proto_ops *o, u8 *r, u8 *s, const u8 *d,
			  const u8 *k, const u8 *e, unsigned int n, int *err);

#endif /* _RIND_CRYPTO_ECC_PROTO_H */
