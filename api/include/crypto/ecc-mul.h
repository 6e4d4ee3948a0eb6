/* SPDX-License-Identifier: MIT */
/*
 * Scalar multiplication for the NIST curve template (ecc-impl.h, hooks in
 * ecc.h), over ecc-point.h's formulas.  Secret scalars, constant time:
 *   - k * P (ECDH): signed ("Booth") windows of 5 bits, digits in
 *     [-16, 16], over a table of P..16P read in full for every window
 *     (the entry picked by masking, its Y negated by masking); doublings
 *     and additions in Jacobian coordinates.  The doubling is exact for
 *     every point (the identity kept as (0 : Y : 0)); the addition's
 *     exceptional cases other than the identity (masked) cannot occur
 *     before the last window (pt_mul has the argument), and the last
 *     window goes through the complete projective addition;
 *   - k * G (key generation, signing): a table of d * 2^(W i) * G for
 *     every window i of ECC_GW bits and d = 1..2^(ECC_GW - 1), affine,
 *     built once (pthread_once) after the first few base multiplications;
 *     then one mixed Jacobian addition per signed window, no doublings,
 *     and the complete addition for the last window; digit 0 (the
 *     identity, which has no affine form) is skipped by masking the sum
 *     away.
 * Public scalars (verification), variable time: u1 * G from the same
 * table (one mixed Jacobian addition per non-zero window), u2 * Q by a
 * width-5 NAF.
 */
#ifndef _RIND_CRYPTO_ECC_MUL_H
#define _RIND_CRYPTO_ECC_MUL_H

#include <pthread.h>
#include <stdlib.h>
#include <crypto/ecc-point.h>

/* ---- secret scalars: signed windows, masked table reads ------------------ */

/* w + 1 bits of k from bit pos (pos >= -1; bits outside k are 0); pos public. */
static ECC_INLINE u64 ecc_bits(const fe k, int pos, unsigned int w)
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
static ECC_INLINE void ecc_booth(u64 bits, unsigned int w, u64 *mag, u64 *neg)
{
	u64 s = bits >> w, d = (bits + 1) >> 1, mask = 0 - s;

	*mag = ((((u64)1 << w) - d) & mask) | (d & ~mask);
	*neg = s;
}

/*
 * r = entry idx - 1 of a table of count entries of w words each (all zero
 * for idx = 0), reading every entry; two words at a time in vector
 * registers (GCC vector extensions: SSE2 on x86-64, NEON on arm64,
 * scalar code elsewhere) so that the accumulator stays in registers.
 */
typedef u64 ecc_v2 __attribute__((vector_size(16)));

static ECC_INLINE void ecc_select(u64 *r, const u64 *table, unsigned int w, unsigned int count, u64 idx)
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
static ECC_INLINE void pt_select(struct ecc_pt *r, const struct ecc_pt *table, unsigned int count,
			     u64 idx, const struct ecc_def *D)
{
	ecc_select((u64 *)r, (const u64 *)table, 3 * ECC_N, count, idx);
	ecc_cmov(r->y, D->fp->one, ecc_eq_mask(0, idx));
}

/* The same over affine entries; all zero for idx = 0. */
static ECC_INLINE void aff_select(struct ecc_aff *r, const struct ecc_aff *table, unsigned int count,
			      u64 idx)
{
	ecc_select((u64 *)r, (const u64 *)table, 2 * ECC_N, count, idx);
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

static ECC_COLD void ecc_gtab_fill(const struct ecc_def *D)
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
	memcpy(o.x, t.x, sizeof(fe));
	memcpy(o.y, t.y, sizeof(fe));
	memcpy(o.z, D->fp->one, sizeof(fe));
	pt_add(&o, &s, &o, D);			/* once per multiplication */
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

#endif /* _RIND_CRYPTO_ECC_MUL_H */
