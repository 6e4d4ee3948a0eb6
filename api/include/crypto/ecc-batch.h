/* SPDX-License-Identifier: MIT */
/*
 * Batched ECDSA signing for the NIST curve template (ecc-impl.h, hooks in
 * ecc.h): struct ecc_curve's sign_batch.  A signature costs one fixed-base
 * multiplication k G and two inversions: Z of k G (the affine x) and k
 * modulo n.  For a batch of signatures under one key the multiplications
 * stay one per signature (pt_mul_base, the curve file's constant-time
 * code), and each of the two kinds of inversion is done once for the
 * whole batch by Montgomery's simultaneous inversion:
 *   c_1 = a_1, c_i = c_(i-1) a_i;  u = c_n^-1;
 *   for i = n .. 2: a_i^-1 = u c_(i-1), u = u a_i;  a_1^-1 = u
 * 3 (n - 1) multiplications and one inversion instead of n inversions.
 * The sequence of operations depends on n only, never on the values, so
 * it is as constant time as the multiplications and the inversion it is
 * made of.  It needs every a_i non-zero (one zero would turn every result
 * into zero): the callers' Z of k G is not zero for 1 <= k < n (G has
 * prime order n), nor is k.
 */
#ifndef _RIND_CRYPTO_ECC_BATCH_H
#define _RIND_CRYPTO_ECC_BATCH_H

#include <crypto/ecc-mul.h>

/* out[i] = a[i]^-1 in the field (its own form), every a[i] != 0; out may be a; c: n scratch. */
static void fp_inv_batch(fe *out, const fe *a, unsigned int n, fe *c, const struct ecc_def *D)
{
	unsigned int i;
	fe u, t;

	memcpy(c[0], a[0], sizeof(fe));
	for (i = 1; i < n; i++)
		fp_mul(c[i], c[i - 1], a[i], D);
	fp_inv(u, c[n - 1], D);
	for (i = n - 1; i > 0; i--) {
		fp_mul(t, u, c[i - 1], D);
		fp_mul(u, u, a[i], D);		/* a[i] read before out[i] is written */
		memcpy(out[i], t, sizeof(fe));
	}
	memcpy(out[0], u, sizeof(fe));
	memzero_explicit(u, sizeof(u));
	memzero_explicit(t, sizeof(t));
	memzero_explicit(c, n * sizeof(fe));
}

/* The same modulo n, Montgomery form in and out. */
static void fn_inv_batch(fe *out, const fe *a, unsigned int n, fe *c, const struct ecc_def *D)
{
	unsigned int i;
	fe u, t;

	memcpy(c[0], a[0], sizeof(fe));
	for (i = 1; i < n; i++)
		fn_mul(c[i], c[i - 1], a[i], D);
	fn_inv(u, c[n - 1], D);
	for (i = n - 1; i > 0; i--) {
		fn_mul(t, u, c[i - 1], D);
		fn_mul(u, u, a[i], D);
		memcpy(out[i], t, sizeof(fe));
	}
	memcpy(out[0], u, sizeof(fe));
	memzero_explicit(u, sizeof(u));
	memzero_explicit(t, sizeof(t));
	memzero_explicit(c, n * sizeof(fe));
}

/*
 * n signatures (r_i, s_i) of ecc_impl_sign() under one d, n in
 * 1..ECC_SIGN_BATCH_MAX; kb, eb, rb, sb: n strings of nbytes each.
 */
static void ecc_impl_sign_batch(u8 *rb, u8 *sb, const u8 *d, const u8 *kb, const u8 *eb,
				unsigned int n, int *err, const struct ecc_def *D)
{
	const struct ecc_mod *N = D->fn;
	struct ecc_pt R[ECC_SIGN_BATCH_MAX];
	fe a[ECC_SIGN_BATCH_MAX], c[ECC_SIGN_BATCH_MAX], k, x, e, dm, rm, em, s;
	unsigned int i, nb = D->nbytes;
	u64 zero;

	if (!n || n > ECC_SIGN_BATCH_MAX)
		return;
	/* n multiplications k_i G, then one inversion for the n affine x */
	for (i = 0; i < n; i++) {
		ecc_from_bytes(k, kb + (size_t)i * nb, nb);
		pt_mul_base(&R[i], k, D);
		memcpy(a[i], R[i].z, sizeof(fe));
	}
	fp_inv_batch(a, a, n, c, D);
	for (i = 0; i < n; i++) {
		fp_mul(x, R[i].x, a[i], D);
		fp_from(x, x, D);
		ecc_reduce_once(R[i].y, x, N->m);	/* r_i (x < p < 2n), kept in R[i].y */
	}
	/* one inversion for the n k_i^-1 */
	for (i = 0; i < n; i++) {
		ecc_from_bytes(k, kb + (size_t)i * nb, nb);
		fn_to(a[i], k, D);
	}
	fn_inv_batch(a, a, n, c, D);
	ecc_from_bytes(dm, d, nb);
	fn_to(dm, dm, D);
	for (i = 0; i < n; i++) {
		ecc_from_bytes(e, eb + (size_t)i * nb, nb);
		ecc_reduce_once(e, e, N->m);		/* e < 2^bits < 2n */
		fn_to(em, e, D);
		fn_to(rm, R[i].y, D);
		fn_mul(s, rm, dm, D);
		mod_add(s, s, em, N);
		fn_mul(s, s, a[i], D);
		fn_from(s, s, D);
		/* whether a new nonce is needed is the verdict, public */
		zero = ecc_is_zero(R[i].y) | ecc_is_zero(s);
		rind_declassify(&zero, sizeof(zero));
		err[i] = zero ? -EAGAIN : 0;
		ecc_to_bytes(rb + (size_t)i * nb, R[i].y, nb);
		ecc_to_bytes(sb + (size_t)i * nb, s, nb);
	}
	memzero_explicit(R, n * sizeof(R[0]));
	memzero_explicit(a, n * sizeof(a[0]));
	memzero_explicit(k, sizeof(k));
	memzero_explicit(x, sizeof(x));
	memzero_explicit(dm, sizeof(dm));
	memzero_explicit(s, sizeof(s));
}

#endif /* _RIND_CRYPTO_ECC_BATCH_H */
