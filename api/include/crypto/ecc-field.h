/* SPDX-License-Identifier: MIT */
/*
 * The field and scalar arithmetic of the NIST curve template (ecc-impl.h,
 * hooks in ecc.h), for ECC_N 64-bit limbs: Montgomery multiplication
 * (CIOS, one reduction word per limb) with unsigned __int128,
 * R = 2^(64 * ECC_N); additions end with a masked conditional
 * subtraction; every value is kept fully reduced.  Inversions (field and
 * scalars) are Bernstein and Yang's constant-time divsteps.  No branch
 * and no memory index depends on an operand.
 *
 * fp_*() and fn_*() are what the point formulas and the protocol use:
 * these defaults, or the curve file's ECC_FP_* / ECC_FN_MUL hooks.
 */
#ifndef _RIND_CRYPTO_ECC_FIELD_H
#define _RIND_CRYPTO_ECC_FIELD_H

#include <string.h>
#include <rind/internal/util.h>
#include <crypto/ecc.h>

#ifndef ECC_N
#error "define ECC_N before including ecc-impl.h"
#endif

typedef unsigned __int128 ecc_u128;

/* Fixed-count limb loops: fully unrolled so that limbs live in registers. */
#define ECC_UNROLL _Pragma("GCC unroll 16")
/*
 * The small helpers of the inner loops: inlined even where the same
 * helper is also called from code compiled for size (ECC_COLD), which
 * would otherwise leave the loops calling an out-of-line copy.
 */
#define ECC_INLINE	inline __attribute__((always_inline))
typedef u64 fe[ECC_N];

/* A modulus (p or n) and its Montgomery constants. */
struct ecc_mod {
	u64 m[ECC_N];
	u64 rr[ECC_N];		/* R^2 mod m */
	u64 one[ECC_N];		/* R mod m */
	u64 m0inv;		/* -m^-1 mod 2^64 */
};

struct ecc_def {
	const struct ecc_mod *fp, *fn;
	const u64 *b, *gx, *gy;	/* Montgomery form */
	const u64 *sqrt_exp;	/* (p + 1) / 4 */
	unsigned int nbytes, bits;
};


/* ---- multiprecision helpers ---------------------------------------------- */

static inline void ecc_from_bytes(fe r, const u8 *in, unsigned int nbytes)
{
	unsigned int i;

	memset(r, 0, sizeof(fe));
	for (i = 0; i < nbytes; i++)
		r[i / 8] |= (u64)in[nbytes - 1 - i] << (8 * (i % 8));
}

static inline void ecc_to_bytes(u8 *out, const fe a, unsigned int nbytes)
{
	unsigned int i;

	for (i = 0; i < nbytes; i++)
		out[nbytes - 1 - i] = (u8)(a[i / 8] >> (8 * (i % 8)));
}

/* 1 if a < m, constant time. */
static inline u64 ecc_lt(const fe a, const u64 *m)
{
	u64 borrow = 0;
	int i;

	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		ecc_u128 d = (ecc_u128)a[i] - m[i] - borrow;

		borrow = (u64)(d >> 64) & 1;
	}
	return borrow;
}

/* 1 if a == 0, constant time. */
static ECC_INLINE u64 ecc_is_zero(const fe a)
{
	u64 acc = 0;
	int i;

	ECC_UNROLL
	for (i = 0; i < ECC_N; i++)
		acc |= a[i];
	return 1 ^ ((acc | (0 - acc)) >> 63);
}

/* 1 if a == b, constant time. */
static ECC_INLINE u64 ecc_eq(const fe a, const fe b)
{
	u64 acc = 0;
	int i;

	ECC_UNROLL
	for (i = 0; i < ECC_N; i++)
		acc |= a[i] ^ b[i];
	return 1 ^ ((acc | (0 - acc)) >> 63);
}

/* r = a where mask is all ones, unchanged where it is zero. */
static ECC_INLINE void ecc_cmov(fe r, const fe a, u64 mask)
{
	int i;

	ECC_UNROLL
	for (i = 0; i < ECC_N; i++)
		r[i] ^= mask & (r[i] ^ a[i]);
}

/* all ones if a == b (both below 2^63) */
static ECC_INLINE u64 ecc_eq_mask(u64 a, u64 b)
{
	return 0 - (((a ^ b) - 1) >> 63);
}

/* r = a - m if a >= m (a < 2m), constant time. */
static inline void ecc_reduce_once(fe r, const fe a, const u64 *m)
{
	u64 u[ECC_N], borrow = 0, mask;
	int i;

	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		ecc_u128 d = (ecc_u128)a[i] - m[i] - borrow;

		u[i] = (u64)d;
		borrow = (u64)(d >> 64) & 1;
	}
	mask = 0 - borrow;	/* keep a when it was below m */
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++)
		r[i] = (a[i] & mask) | (u[i] & ~mask);
}

static inline void mod_add(fe r, const fe a, const fe b, const struct ecc_mod *M)
{
	u64 t[ECC_N], u[ECC_N], m[ECC_N], carry = 0, borrow = 0, mask;
	int i;

	memcpy(m, M->m, sizeof(m));
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		ecc_u128 s = (ecc_u128)a[i] + b[i] + carry;

		t[i] = (u64)s;
		carry = (u64)(s >> 64);
	}
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		ecc_u128 d = (ecc_u128)t[i] - m[i] - borrow;

		u[i] = (u64)d;
		borrow = (u64)(d >> 64) & 1;
	}
	/* t + carry * R - m < 0 exactly when borrow and no carry. */
	mask = 0 - (borrow & (carry ^ 1));
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++)
		r[i] = (t[i] & mask) | (u[i] & ~mask);
}

static ECC_INLINE void mod_sub_inl(fe r, const fe a, const fe b, const struct ecc_mod *M)
{
	u64 t[ECC_N], m[ECC_N], borrow = 0, carry = 0, mask;
	int i;

	memcpy(m, M->m, sizeof(m));
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		ecc_u128 d = (ecc_u128)a[i] - b[i] - borrow;

		t[i] = (u64)d;
		borrow = (u64)(d >> 64) & 1;
	}
	mask = 0 - borrow;
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		ecc_u128 s = (ecc_u128)t[i] + (m[i] & mask) + carry;

		r[i] = (u64)s;
		carry = (u64)(s >> 64);
	}
}

/* The same, inlined where the compiler judges it worth it. */
static inline void mod_sub(fe r, const fe a, const fe b, const struct ecc_mod *M)
{
	mod_sub_inl(r, a, b, M);
}

/*
 * r = a * b / R mod m (a, b < m).  The modulus is copied to locals first so
 * that the compiler keeps it in registers (r may alias a or b, never M).
 */
static inline void mont_mul(fe r, const fe a, const fe b, const struct ecc_mod *M)
{
	u64 t[ECC_N + 2], u[ECC_N], m[ECC_N], av[ECC_N], borrow = 0, mask, c, q;
	const u64 m0inv = M->m0inv;
	ecc_u128 s;
	int i, j;

	memcpy(m, M->m, sizeof(m));
	memcpy(av, a, sizeof(av));
	memset(t, 0, sizeof(t));
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		const u64 bi = b[i];

		c = 0;
		ECC_UNROLL
		for (j = 0; j < ECC_N; j++) {
			s = (ecc_u128)av[j] * bi + t[j] + c;
			t[j] = (u64)s;
			c = (u64)(s >> 64);
		}
		s = (ecc_u128)t[ECC_N] + c;
		t[ECC_N] = (u64)s;
		t[ECC_N + 1] = (u64)(s >> 64);

		q = t[0] * m0inv;
		s = (ecc_u128)q * m[0] + t[0];
		c = (u64)(s >> 64);
		ECC_UNROLL
		for (j = 1; j < ECC_N; j++) {
			s = (ecc_u128)q * m[j] + t[j] + c;
			t[j - 1] = (u64)s;
			c = (u64)(s >> 64);
		}
		s = (ecc_u128)t[ECC_N] + c;
		t[ECC_N - 1] = (u64)s;
		t[ECC_N] = t[ECC_N + 1] + (u64)(s >> 64);
	}
	/* t < 2m: subtract m unless that goes negative. */
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		s = (ecc_u128)t[i] - m[i] - borrow;
		u[i] = (u64)s;
		borrow = (u64)(s >> 64) & 1;
	}
	mask = 0 - (borrow & (t[ECC_N] ^ 1));
	ECC_UNROLL
	for (i = 0; i < ECC_N; i++)
		r[i] = (t[i] & mask) | (u[i] & ~mask);
}

/*
 * ---- inversion modulo an odd m, constant time ------------------------------
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
#define ECC_BY_NL	((64 * ECC_N + 1 + 61) / 62)
#define ECC_BY_M62	((u64)0x3fffffffffffffffull)

typedef __int128 ecc_s128;

struct ecc_by_mat {
	s64 u, v, q, r;
};

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

/*
 * r = a^-1 mod m (0 for 0) for a < m, plain integers (not Montgomery form);
 * bits: the size of m.  minv64 = -m^-1 mod 2^64 (struct ecc_mod's m0inv).
 */
static void ecc_by_inv(fe r, const fe a, const u64 *m, u64 minv64, unsigned int bits)
{
	s64 f[ECC_BY_NL], g[ECC_BY_NL], d[ECC_BY_NL], e[ECC_BY_NL], m62[ECC_BY_NL], zeta = -1;
	int steps = (int)((49 * bits + 57) / 17 + 1), i, j;
	u64 minv = (0 - minv64) & ECC_BY_M62, w[ECC_N + 1], t[ECC_N + 1], sgn, borrow, mask;
	struct ecc_by_mat mt;

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
	memcpy(f, m62, sizeof(f));
	e[0] = 1;
	for (i = 0; i < steps; i += 62) {
		zeta = ecc_by_divsteps(zeta, (u64)f[0] | (u64)f[1] << 62,
				       (u64)g[0] | (u64)g[1] << 62, &mt);
		ecc_by_update_fg(f, g, &mt);
		ecc_by_update_de(d, e, &mt, m62, minv);
	}
	/* x^-1 = d * sign(f); |d| <= (batches + 1) m < 32 m */
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
	memzero_explicit(f, sizeof(f));
	memzero_explicit(g, sizeof(g));
	memzero_explicit(d, sizeof(d));
	memzero_explicit(e, sizeof(e));
	memzero_explicit(w, sizeof(w));
	memzero_explicit(t, sizeof(t));
}

/* ---- the field, possibly the curve file's own ----------------------------- */

static ECC_INLINE void fp_mul(fe r, const fe a, const fe b, const struct ecc_def *D)
{
#ifdef ECC_FP_MUL
	(void)D;
	ECC_FP_MUL(r, a, b);
#else
	mont_mul(r, a, b, D->fp);
#endif
}

static ECC_INLINE void fp_sqr(fe r, const fe a, const struct ecc_def *D)
{
#ifdef ECC_FP_SQR
	(void)D;
	ECC_FP_SQR(r, a);
#else
	fp_mul(r, a, a, D);
#endif
}

static ECC_INLINE void fp_add(fe r, const fe a, const fe b, const struct ecc_def *D)
{
#ifdef ECC_FP_ADD
	(void)D;
	ECC_FP_ADD(r, a, b);
#else
	mod_add(r, a, b, D->fp);
#endif
}

static ECC_INLINE void fp_sub(fe r, const fe a, const fe b, const struct ecc_def *D)
{
#ifdef ECC_FP_SUB
	(void)D;
	ECC_FP_SUB(r, a, b);
#else
	mod_sub(r, a, b, D->fp);
#endif
}

/*
 * Lazy forms for the point formulas: r = a + b and r = a - b where the
 * result only feeds fp_mul / fp_sqr (directly, or through one more lazy
 * addition), so a field with redundant limbs (algs/p521.c) may skip its
 * carry pass; and r = a - 2b (fully reduced).  By default the plain
 * operations.
 */
static ECC_INLINE void fp_add_lazy(fe r, const fe a, const fe b, const struct ecc_def *D)
{
#ifdef ECC_FP_ADD_LAZY
	(void)D;
	ECC_FP_ADD_LAZY(r, a, b);
#else
	fp_add(r, a, b, D);
#endif
}

static ECC_INLINE void fp_sub_lazy(fe r, const fe a, const fe b, const struct ecc_def *D)
{
#ifdef ECC_FP_SUB_LAZY
	(void)D;
	ECC_FP_SUB_LAZY(r, a, b);
#else
	fp_sub(r, a, b, D);
#endif
}

static ECC_INLINE void fp_sub2(fe r, const fe a, const fe b, const struct ecc_def *D)
{
#ifdef ECC_FP_SUB2
	(void)D;
	ECC_FP_SUB2(r, a, b);
#else
	fp_sub(r, a, b, D);
	fp_sub(r, r, b, D);
#endif
}

/* r = a^-1 (0 for 0), constant time; Montgomery form in and out. */
static inline void fp_inv(fe r, const fe a, const struct ecc_def *D)
{
#ifdef ECC_FP_INV
	(void)D;
	ECC_FP_INV(r, a);
#else
	fe t, r3;

	/* (a R)^-1 R^3 / R = a^-1 R */
	ecc_by_inv(t, a, D->fp->m, D->fp->m0inv, D->bits);
	fp_mul(r3, D->fp->rr, D->fp->rr, D);
	fp_mul(r, t, r3, D);
	memzero_explicit(t, sizeof(t));
#endif
}

/* r = -a, inlined whole: it sits in the loops of the scalar multiplications. */
static ECC_INLINE void fp_neg(fe r, const fe a, const struct ecc_def *D)
{
	fe z;

	memset(z, 0, sizeof(z));
#ifdef ECC_FP_SUB
	(void)D;
	ECC_FP_SUB(r, z, a);
#else
	mod_sub_inl(r, z, a, D->fp);
#endif
}

/* y = -y when neg (0 or 1), constant time. */
static ECC_INLINE void fp_cneg(fe y, u64 neg, const struct ecc_def *D)
{
	fe t;

	fp_neg(t, y, D);
	ecc_cmov(y, t, 0 - neg);
}

/* r = a / 2 mod p: (a + p) / 2 when a is odd; constant time. */
static ECC_INLINE void fp_half(fe r, const fe a, const struct ecc_def *D)
{
#ifdef ECC_FP_HALF
	(void)D;
	ECC_FP_HALF(r, a);
#else
	u64 t[ECC_N], mask = 0 - (a[0] & 1), c = 0;
	int i;

	ECC_UNROLL
	for (i = 0; i < ECC_N; i++) {
		ecc_u128 s = (ecc_u128)a[i] + (D->fp->m[i] & mask) + c;

		t[i] = (u64)s;
		c = (u64)(s >> 64);
	}
	ECC_UNROLL
	for (i = 0; i < ECC_N - 1; i++)
		r[i] = (t[i] >> 1) | (t[i + 1] << 63);
	r[ECC_N - 1] = (t[ECC_N - 1] >> 1) | (c << 63);
#endif
}

/*
 * The field's internal form from a plain integer < p (Montgomery form
 * unless the curve file says otherwise), and back to the plain, fully
 * reduced integer.
 */
static inline void fp_to(fe r, const fe a, const struct ecc_def *D)
{
#ifdef ECC_FP_TO
	(void)D;
	ECC_FP_TO(r, a);
#else
	fp_mul(r, a, D->fp->rr, D);
#endif
}

static inline void fp_from(fe r, const fe a, const struct ecc_def *D)
{
#ifdef ECC_FP_FROM
	(void)D;
	ECC_FP_FROM(r, a);
#else
	fe one;

	memset(one, 0, sizeof(one));
	one[0] = 1;
	fp_mul(r, a, one, D);
#endif
}

/* 1 if a = 0 / a = b in the field, constant time. */
static ECC_INLINE u64 fp_is_zero(const fe a)
{
#ifdef ECC_FP_ISZERO
	return ECC_FP_ISZERO(a);
#else
	return ecc_is_zero(a);
#endif
}

static ECC_INLINE u64 fp_eq(const fe a, const fe b)
{
#ifdef ECC_FP_EQ
	return ECC_FP_EQ(a, b);
#else
	return ecc_eq(a, b);
#endif
}

/* ---- scalars modulo n, possibly the curve file's own multiplication ------ */

static ECC_INLINE void fn_mul(fe r, const fe a, const fe b, const struct ecc_def *D)
{
#ifdef ECC_FN_MUL
	(void)D;
	ECC_FN_MUL(r, a, b);
#else
	mont_mul(r, a, b, D->fn);
#endif
}

static inline void fn_to(fe r, const fe a, const struct ecc_def *D)
{
	fn_mul(r, a, D->fn->rr, D);
}

static inline void fn_from(fe r, const fe a, const struct ecc_def *D)
{
	fe one;

	memset(one, 0, sizeof(one));
	one[0] = 1;
	fn_mul(r, a, one, D);
}

/* r = a^-1 mod n (0 for 0), constant time; Montgomery form in and out. */
static void fn_inv(fe r, const fe a, const struct ecc_def *D)
{
	fe t, r3;

	ecc_by_inv(t, a, D->fn->m, D->fn->m0inv, D->bits);
	fn_mul(r3, D->fn->rr, D->fn->rr, D);
	fn_mul(r, t, r3, D);
	memzero_explicit(t, sizeof(t));
}

#endif /* _RIND_CRYPTO_ECC_FIELD_H */
