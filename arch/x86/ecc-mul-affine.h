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
	u64 mag, neg, nz, inf;

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
	inf = ~nz;
	for (w = nwin - 2; w >= 0; w--) {
		for (i = 0; i < ECC_VW; i++)
			jac_dbl(&acc, &acc, D);
		ecc_booth(ecc_bits(k, w * ECC_VW - 1, ECC_VW), ECC_VW, &mag, &neg);
		aff_select(&t, tab, ECC_VT, mag);
		fp_cneg(t.y, neg, D);
		nz = ~ecc_eq_mask(0, mag);
		if (w) {
			/*
			 * acc is the identity exactly while every digit so far
			 * was 0 (a partial sum 32 v + d with v >= 1, |d| <= 16,
			 * is positive, and below n): inf, a mask kept from the
			 * digits rather than a test of Z, takes the table entry
			 * itself then (the formula's output being meaningless).
			 */
			jac_add_affine_core(&s, &acc, &t, D);
			ecc_cmov(s.x, t.x, inf);
			ecc_cmov(s.y, t.y, inf);
			ecc_cmov(s.z, D->fp->one, inf);
			ecc_cmov(acc.x, s.x, nz);
			ecc_cmov(acc.y, s.y, nz);
			ecc_cmov(acc.z, s.z, nz);
			inf &= ~nz;
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

/* r = u1 G + u2 Q for verification, u2 Q (and u1 G before its table is built) over the affine table. */
static void ecc_x86_mul2_vt_affine(struct ecc_pt *r, const fe u1, const fe u2,
				   const struct ecc_pt *q, const struct ecc_def *D)
{
	ecc_mul2_vt_by(r, u1, u2, q, D, ecc_x86_mul_vt_affine);
}

/*
 * ECC_DEFINE_CURVE with ECDH's k P and verification's u2 Q over the affine
 * tables; the shared protocol layer (ecc-proto.c) runs over them.
 */
#define ECC_X86_DEFINE_CURVE_AFFINE(sym, def, crv, roid, nb, nbits)			\
	ECC_DEFINE_CURVE_MUL(sym, def, crv, roid, nb, nbits, ecc_x86_pt_mul_affine,	\
			     ecc_x86_mul2_vt_affine)

#endif /* _RIND_ARCH_X86_ECC_MUL_AFFINE_H */
