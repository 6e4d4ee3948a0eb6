/* SPDX-License-Identifier: MIT */
/*
 * ECDH's k P over an affine table, for the x86 NIST curve drivers
 * (ecc-p384-adx.c, ecc-p521-adx.c): included after <crypto/ecc-impl.h>,
 * over the curve file's hooks (fp_*, jac_dbl, the table reads).
 *
 * ecc-mul.h's pt_mul (signed windows of 5 bits over P..16P, constant time
 * in k, its argument for the exceptional cases unchanged) with the table
 * made affine: its entries built in Jacobian coordinates (the even ones
 * doubled from the half, 2i P = 2 (i P), a doubling being cheaper than an
 * addition; the odd ones 2i P + P, never the identity nor +-P since
 * 2 <= 2i <= 14 < n - 1), then divided by their Z with one inversion for
 * all (Montgomery's trick; no entry is the identity, n being prime and
 * the cofactor 1), so that each window costs a mixed addition (8M + 3S)
 * instead of a Jacobian one (12M + 4S) and a table read of 2 N words
 * instead of 3 N.  The conversion costs one inversion and 45M + 16S; the
 * windows (77 for P-384, 104 for P-521) save 4M + S each.  A window's
 * digit 0 (no affine form) is skipped by masking the sum away, as in
 * pt_mul_base; the last window goes through the complete formula.
 */
#ifndef _RIND_ARCH_X86_ECC_MUL_AFFINE_H
#define _RIND_ARCH_X86_ECC_MUL_AFFINE_H

static void ecc_x86_pt_mul_affine(struct ecc_pt *r, const fe k, const struct ecc_pt *p,
				  const struct ecc_def *D)
{
	struct ecc_pt jt[ECC_VT], acc, s, o;
	struct ecc_aff tab[ECC_VT], t;
	int w, i, nwin = (int)((D->bits + ECC_VW) / ECC_VW);
	fe prod[ECC_VT], inv, zi, z2;
	u64 mag, neg, nz;

	memcpy(t.x, p->x, sizeof(fe));
	memcpy(t.y, p->y, sizeof(fe));
	jt[0] = *p;
	for (i = 1; i < (int)ECC_VT; i++) {
		if (i & 1)			/* (i + 1) P = 2 ((i + 1) / 2 P) */
			jac_dbl(&jt[i], &jt[i / 2], D);
		else				/* (i + 1) P = i P + P */
			jac_add_affine_core(&jt[i], &jt[i - 1], &t, D);
	}
	memcpy(prod[0], jt[0].z, sizeof(fe));
	for (i = 1; i < (int)ECC_VT; i++)
		fp_mul(prod[i], prod[i - 1], jt[i].z, D);
	fp_inv(inv, prod[ECC_VT - 1], D);
	for (i = ECC_VT - 1; i >= 0; i--) {
		if (i) {
			fp_mul(zi, inv, prod[i - 1], D);	/* 1 / Z_i */
			fp_mul(inv, inv, jt[i].z, D);
		} else {
			memcpy(zi, inv, sizeof(fe));
		}
		fp_sqr(z2, zi, D);
		fp_mul(tab[i].x, jt[i].x, z2, D);
		fp_mul(z2, z2, zi, D);
		fp_mul(tab[i].y, jt[i].y, z2, D);
	}

	/* the top window (its digit not negative, k < 2^bits): (x, y, 1) or (0 : 1 : 0) */
	ecc_booth(ecc_bits(k, (nwin - 1) * ECC_VW - 1, ECC_VW), ECC_VW, &mag, &neg);
	aff_select(&t, tab, ECC_VT, mag);
	nz = ~ecc_eq_mask(0, mag);
	memcpy(acc.x, t.x, sizeof(fe));
	memcpy(acc.y, D->fp->one, sizeof(fe));
	ecc_cmov(acc.y, t.y, nz);
	memset(acc.z, 0, sizeof(fe));
	ecc_cmov(acc.z, D->fp->one, nz);
	for (w = nwin - 2; w >= 0; w--) {
		for (i = 0; i < ECC_VW; i++)
			jac_dbl(&acc, &acc, D);
		ecc_booth(ecc_bits(k, w * ECC_VW - 1, ECC_VW), ECC_VW, &mag, &neg);
		aff_select(&t, tab, ECC_VT, mag);
		fp_cneg(t.y, neg, D);
		nz = ~ecc_eq_mask(0, mag);
		if (w) {
			jac_add_affine_ct(&s, &acc, &t, D);
			ecc_cmov(acc.x, s.x, nz);
			ecc_cmov(acc.y, s.y, nz);
			ecc_cmov(acc.z, s.z, nz);
		} else {
			/* the last window may meet P = +-Q: the complete formula */
			jac_to_proj(&s, &acc, D);
			memcpy(o.x, t.x, sizeof(fe));
			memcpy(o.y, t.y, sizeof(fe));
			memcpy(o.z, D->fp->one, sizeof(fe));
			pt_add(&o, &s, &o, D);
			ecc_cmov(s.x, o.x, nz);
			ecc_cmov(s.y, o.y, nz);
			ecc_cmov(s.z, o.z, nz);
			*r = s;
		}
	}
	memzero_explicit(jt, sizeof(jt));
	memzero_explicit(tab, sizeof(tab));
	memzero_explicit(prod, sizeof(prod));
	memzero_explicit(inv, sizeof(inv));
	memzero_explicit(zi, sizeof(zi));
	memzero_explicit(z2, sizeof(z2));
	memzero_explicit(&acc, sizeof(acc));
	memzero_explicit(&s, sizeof(s));
	memzero_explicit(&o, sizeof(o));
	memzero_explicit(&t, sizeof(t));
}

/* ECDH: ecc-impl.h's ecc_impl_ecdh over ecc_x86_pt_mul_affine. */
static int ecc_x86_ecdh_affine(u8 *out, const u8 *d, const u8 *xy, const struct ecc_def *D)
{
	struct ecc_pt p, r;
	fe k, x, zi;
	u64 inf;
	int err;

	err = ecc_load_point(&p, xy, D);
	if (err)
		return err;
	ecc_from_bytes(k, d, D->nbytes);
	ecc_x86_pt_mul_affine(&r, k, &p, D);
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

/*
 * r = k * p (Jacobian) for public k, p Jacobian with Z = 1: ecc-mul.h's
 * jac_mul_vt (width-5 NAF over P, 3P, ..., 15P) with that table made
 * affine by one inversion (its entries are never the identity: n is
 * prime), so that each non-zero digit costs a mixed addition instead of a
 * Jacobian one.  Variable time (verification).
 */
static void ecc_x86_mul_vt_affine(struct ecc_pt *r, const fe k, const struct ecc_pt *p,
				  const struct ecc_def *D)
{
	struct ecc_pt tab[1 << (ECC_NAFW - 2)], p2;
	struct ecc_aff atab[1 << (ECC_NAFW - 2)], t;
	signed char naf[64 * ECC_N + 2];
	fe prod[1 << (ECC_NAFW - 2)], inv, zi, z2;
	int i, nt = 1 << (ECC_NAFW - 2), len = ecc_wnaf(naf, k, 64 * ECC_N);

	tab[0] = *p;
	jac_dbl(&p2, p, D);
	for (i = 1; i < nt; i++)
		jac_add_vt(&tab[i], &tab[i - 1], &p2, D);
	memcpy(prod[0], tab[0].z, sizeof(fe));
	for (i = 1; i < nt; i++)
		fp_mul(prod[i], prod[i - 1], tab[i].z, D);
	fp_inv(inv, prod[nt - 1], D);
	for (i = nt - 1; i >= 0; i--) {
		if (i) {
			fp_mul(zi, inv, prod[i - 1], D);
			fp_mul(inv, inv, tab[i].z, D);
		} else {
			memcpy(zi, inv, sizeof(fe));
		}
		fp_sqr(z2, zi, D);
		fp_mul(atab[i].x, tab[i].x, z2, D);
		fp_mul(z2, z2, zi, D);
		fp_mul(atab[i].y, tab[i].y, z2, D);
	}
	memset(r, 0, sizeof(*r));
	memcpy(r->y, D->fp->one, sizeof(fe));
	for (i = len - 1; i >= 0; i--) {
		if (!fp_is_zero(r->z))
			jac_dbl(r, r, D);
		if (naf[i] > 0) {
			jac_add_affine_vt(r, r, &atab[naf[i] >> 1], D);
		} else if (naf[i] < 0) {
			t = atab[(-naf[i]) >> 1];
			fp_neg(t.y, t.y, D);
			jac_add_affine_vt(r, r, &t, D);
		}
	}
}

/* ECDSA verification: ecc-impl.h's ecc_impl_verify over ecc_x86_mul_vt_affine. */
static int ecc_x86_verify_affine(const u8 *xy, const u8 *eb, const u8 *rb, const u8 *sb,
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
		ecc_x86_mul_vt_affine(&a, u1, &b, D);
	}
	ecc_x86_mul_vt_affine(&b, u2, &q, D);
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

/*
 * ECC_DEFINE_CURVE's struct with ECDH and verification over the affine
 * tables: the same operations of the template otherwise.
 */
#define ECC_X86_DEFINE_CURVE_AFFINE(sym, def, crv, roid, nb, nbits)			\
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
{ return ecc_x86_ecdh_affine(o, d, xy, &def); }					\
static int sym##_sign(u8 *r, u8 *s, const u8 *d, const u8 *k, const u8 *e)	\
{ return ecc_impl_sign(r, s, d, k, e, &def); }					\
static int sym##_verify(const u8 *xy, const u8 *e, const u8 *r, const u8 *s)	\
{ return ecc_x86_verify_affine(xy, e, r, s, &def); }					\
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

#endif /* _RIND_ARCH_X86_ECC_MUL_AFFINE_H */
