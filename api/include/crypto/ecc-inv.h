/* SPDX-License-Identifier: MIT */
/*
 * Inversion modulo an odd m of ECC_N words, constant time, for the NIST
 * curve template: fp_inv and fn_inv, and algs/p521.c's field.  Included
 * by ecc-field.h once its limb types are defined.
 *
 * Bernstein and Yang's divsteps ("Fast constant-time gcd computation and
 * modular inversion", 2019), as algs/curve25519.c uses them for 2^255 - 19,
 * written here for any odd modulus of ECC_N words:
 *   divstep(delta, f, g), f odd:
 *     delta > 0 and g odd:  (1 - delta, g, (g - f) / 2)
 *     g odd:                (1 + delta, f, (g + f) / 2)
 *     otherwise:            (1 + delta, f, g / 2)
 * From (1, m, x), g reaches 0 and f = +-1 within (49 d + 57) / 17 steps
 * for d-bit inputs (the paper's theorem 11.2); the count run is fixed by
 * the curve size alone.  Batches of 62 steps work on the low 64 bits of
 * f and g and record what they did as a matrix M (|u| + |v| and |q| + |r|
 * at most 2^62) with 2^62 (f', g') = M (f, g); the matrix is then applied
 * to the full f and g (signed 62-bit limbs) and to d and e, which track
 * f = d x and g = e x (mod m), dividing by 2^62 modulo m after adding the
 * multiple of m that clears the low 62 bits; |d| and |e| grow by at most m
 * per batch.  At the end x^-1 = +-d (the sign of f), brought into
 * [0, m) by adding 32m and six masked subtractions.  Every step is
 * branch-free and the sequence of operations depends on m only.
 */
#ifndef _RIND_CRYPTO_ECC_INV_H
#define _RIND_CRYPTO_ECC_INV_H

#include <string.h>
#include <rind/internal/util.h>
#include <crypto/divsteps-mat.h>

#define ECC_BY_NL	((64 * ECC_N + 1 + 61) / 62)
#define ECC_BY_M62	((u64)0x3fffffffffffffffull)

typedef __int128 ecc_s128;

/* 62 divsteps on the low words of f and g; zeta = -delta. */
static inline s64 ecc_by_divsteps(s64 zeta, u64 f, u64 g, struct ecc_by_mat *t)
{
	u64 u = 1, v = 0, q = 0, r = 1;
	int i;

	for (i = 0; i < 62; i++) {
		u64 c1 = (u64)(zeta >> 63);		/* delta > 0 */
		u64 c2 = 0 - (g & 1);			/* g odd */
		u64 x = (f ^ c1) - c1, y = (u ^ c1) - c1, z = (v ^ c1) - c1, sw;

		g += x & c2;
		q += y & c2;
		r += z & c2;
		sw = c1 & c2;				/* the swapping case */
		zeta = (s64)(((u64)zeta ^ sw) + ~sw);	/* ~zeta, or zeta - 1 */
		f += g & sw;
		u += q & sw;
		v += r & sw;
		g >>= 1;
		u <<= 1;
		v <<= 1;
	}
	t->u = (s64)u;
	t->v = (s64)v;
	t->q = (s64)q;
	t->r = (s64)r;
	return zeta;
}

/* (f, g) = M (f, g) / 2^62, exact. */
static inline void ecc_by_update_fg(s64 *f, s64 *g, const struct ecc_by_mat *t)
{
	ecc_s128 cf = (ecc_s128)t->u * f[0] + (ecc_s128)t->v * g[0];
	ecc_s128 cg = (ecc_s128)t->q * f[0] + (ecc_s128)t->r * g[0];
	int i;

	cf >>= 62;
	cg >>= 62;
	for (i = 1; i < ECC_BY_NL; i++) {
		cf += (ecc_s128)t->u * f[i] + (ecc_s128)t->v * g[i];
		cg += (ecc_s128)t->q * f[i] + (ecc_s128)t->r * g[i];
		f[i - 1] = (s64)((u64)cf & ECC_BY_M62);
		g[i - 1] = (s64)((u64)cg & ECC_BY_M62);
		cf >>= 62;
		cg >>= 62;
	}
	f[ECC_BY_NL - 1] = (s64)cf;
	g[ECC_BY_NL - 1] = (s64)cg;
}

/* (d, e) = M (d, e) / 2^62 mod m (m62: m in 62-bit limbs, minv = m^-1 mod 2^62). */
static inline void ecc_by_update_de(s64 *d, s64 *e, const struct ecc_by_mat *t, const s64 *m62,
				    u64 minv)
{
	ecc_s128 cd = (ecc_s128)t->u * d[0] + (ecc_s128)t->v * e[0];
	ecc_s128 ce = (ecc_s128)t->q * d[0] + (ecc_s128)t->r * e[0];
	s64 md = (s64)(((0 - (u64)cd) * minv) & ECC_BY_M62);
	s64 me = (s64)(((0 - (u64)ce) * minv) & ECC_BY_M62);
	int i;

	cd += (ecc_s128)md * m62[0];
	ce += (ecc_s128)me * m62[0];
	cd >>= 62;
	ce >>= 62;
	for (i = 1; i < ECC_BY_NL; i++) {
		cd += (ecc_s128)t->u * d[i] + (ecc_s128)t->v * e[i] + (ecc_s128)md * m62[i];
		ce += (ecc_s128)t->q * d[i] + (ecc_s128)t->r * e[i] + (ecc_s128)me * m62[i];
		d[i - 1] = (s64)((u64)cd & ECC_BY_M62);
		e[i - 1] = (s64)((u64)ce & ECC_BY_M62);
		cd >>= 62;
		ce >>= 62;
	}
	d[ECC_BY_NL - 1] = (s64)cd;
	e[ECC_BY_NL - 1] = (s64)ce;
}

/* words (ECC_N + 1, two's complement) of a value in signed 62-bit limbs */
static inline void ecc_by_to_words(u64 *w, const s64 *l)
{
	ecc_s128 acc = 0;
	int i, j = 0, nb = 0;

	for (i = 0; i < ECC_BY_NL; i++) {
		acc += (ecc_s128)l[i] * ((ecc_s128)1 << nb);
		nb += 62;
		if (nb >= 64 && j <= ECC_N) {
			w[j++] = (u64)acc;
			acc >>= 64;
			nb -= 64;
		}
	}
	while (j <= ECC_N) {
		w[j++] = (u64)acc;
		acc >>= 64;
	}
}

/* From (1, m, x): f = m, g = a and d = 0, e = 1 in signed 62-bit limbs. */
static inline void ecc_by_start(s64 *f, s64 *g, s64 *d, s64 *e, s64 *m62, const fe a, const u64 *m)
{
	int i;

	for (i = 0; i < ECC_BY_NL; i++) {
		int bit = 62 * i, li = bit / 64, sh = bit % 64;
		u64 v = 0, x = 0;

		if (li < ECC_N) {
			v = m[li] >> sh;
			x = a[li] >> sh;
			if (sh > 2 && li + 1 < ECC_N) {
				v |= m[li + 1] << (64 - sh);
				x |= a[li + 1] << (64 - sh);
			}
		}
		m62[i] = (s64)(v & ECC_BY_M62);
		g[i] = (s64)(x & ECC_BY_M62);
		d[i] = 0;
		e[i] = 0;
	}
	memcpy(f, m62, ECC_BY_NL * sizeof(s64));
	e[0] = 1;
}

/*
 * The end: x^-1 = d * sign(f), |d| <= (batches + 1) m < 32 m, brought into
 * [0, m) by adding 32 m and six masked subtractions of 2^j m.
 */
static inline void ecc_by_finish(fe r, const s64 *d, const s64 *f, const u64 *m)
{
	u64 w[ECC_N + 1], t[ECC_N + 1], sgn, borrow, mask;
	int i, j;

	ecc_by_to_words(w, d);
	sgn = 0 - (u64)((u64)f[ECC_BY_NL - 1] >> 63);
	{
		ecc_u128 c = sgn & 1;

		for (i = 0; i <= ECC_N; i++) {
			c += (u64)(w[i] ^ sgn);
			w[i] = (u64)c;
			c >>= 64;
		}
	}
	/* + 32 m: now in [0, 64 m) */
	{
		ecc_u128 c = 0;

		for (i = 0; i <= ECC_N; i++) {
			u64 mi = (i < ECC_N ? m[i] << 5 : 0) | (i ? m[i - 1] >> 59 : 0);

			c += (ecc_u128)w[i] + mi;
			w[i] = (u64)c;
			c >>= 64;
		}
	}
	for (j = 5; j >= 0; j--) {
		borrow = 0;
		for (i = 0; i <= ECC_N; i++) {
			u64 mi = (i < ECC_N ? m[i] << j : 0) | (i && j ? m[i - 1] >> (64 - j) : 0);
			ecc_u128 s = (ecc_u128)w[i] - mi - borrow;

			t[i] = (u64)s;
			borrow = (u64)(s >> 64) & 1;
		}
		mask = 0 - borrow;		/* keep w when it was below 2^j m */
		for (i = 0; i <= ECC_N; i++)
			w[i] = (w[i] & mask) | (t[i] & ~mask);
	}
	memcpy(r, w, sizeof(fe));
	memzero_explicit(w, sizeof(w));
	memzero_explicit(t, sizeof(t));
}

/*
 * r = a^-1 mod m (0 for 0) for a < m, plain integers (not Montgomery form):
 * @batches batches of 62 steps of @divsteps (this file's, or an arch
 * driver's form of them with its own step count), started from zeta = -1.
 * minv64 = -m^-1 mod 2^64 (struct ecc_mod's m0inv).  Inlined, so that
 * @divsteps is a direct call.
 */
static inline __attribute__((always_inline)) void
ecc_by_inv_with(fe r, const fe a, const u64 *m, u64 minv64, int batches,
		s64 (*divsteps)(s64 zeta, u64 f, u64 g, struct ecc_by_mat *t))
{
	s64 f[ECC_BY_NL], g[ECC_BY_NL], d[ECC_BY_NL], e[ECC_BY_NL], m62[ECC_BY_NL], zeta = -1;
	u64 minv = (0 - minv64) & ECC_BY_M62;
	struct ecc_by_mat mt;
	int i;

	ecc_by_start(f, g, d, e, m62, a, m);
	for (i = 0; i < batches; i++) {
		zeta = divsteps(zeta, (u64)f[0] | (u64)f[1] << 62, (u64)g[0] | (u64)g[1] << 62, &mt);
		ecc_by_update_fg(f, g, &mt);
		ecc_by_update_de(d, e, &mt, m62, minv);
	}
	ecc_by_finish(r, d, f, m);
	memzero_explicit(f, sizeof(f));
	memzero_explicit(g, sizeof(g));
	memzero_explicit(d, sizeof(d));
	memzero_explicit(e, sizeof(e));
	memzero_explicit(&mt, sizeof(mt));
}

/* r = a^-1 mod m with the steps above; bits: the size of m. */
static void ecc_by_inv(fe r, const fe a, const u64 *m, u64 minv64, unsigned int bits)
{
	ecc_by_inv_with(r, a, m, minv64, (int)(((49 * bits + 57) / 17 + 1 + 61) / 62), ecc_by_divsteps);
}

#endif /* _RIND_CRYPTO_ECC_INV_H */
