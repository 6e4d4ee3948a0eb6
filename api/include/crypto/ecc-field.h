/* SPDX-License-Identifier: MIT */
/*
 * The field and scalar arithmetic of the NIST curve template (ecc-impl.h,
 * hooks in ecc.h), for ECC_N 64-bit limbs: Montgomery multiplication
 * (CIOS, one reduction word per limb) with unsigned __int128,
 * R = 2^(64 * ECC_N); additions end with a masked conditional
 * subtraction; every value is kept fully reduced.  Inversions (field and
 * scalars) are Bernstein and Yang's constant-time divsteps (ecc-inv.h).
 * No branch and no memory index depends on an operand.
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
 * One body for two functions; @outer is the unrolling of the loop over b's
 * limbs.
 */
#define ECC_MONT_MUL_BODY(r, a, b, M, outer)					\
	u64 t[ECC_N + 2], u[ECC_N], m[ECC_N], av[ECC_N], borrow = 0, mask, c, q;	\
	const u64 m0inv = M->m0inv;						\
	ecc_u128 s;								\
	int i, j;								\
									\
	memcpy(m, M->m, sizeof(m));						\
	memcpy(av, a, sizeof(av));						\
	memset(t, 0, sizeof(t));						\
	outer									\
	for (i = 0; i < ECC_N; i++) {						\
		const u64 bi = b[i];						\
									\
		c = 0;								\
		ECC_UNROLL							\
		for (j = 0; j < ECC_N; j++) {					\
			s = (ecc_u128)av[j] * bi + t[j] + c;			\
			t[j] = (u64)s;						\
			c = (u64)(s >> 64);					\
		}								\
		s = (ecc_u128)t[ECC_N] + c;					\
		t[ECC_N] = (u64)s;						\
		t[ECC_N + 1] = (u64)(s >> 64);					\
									\
		q = t[0] * m0inv;						\
		s = (ecc_u128)q * m[0] + t[0];					\
		c = (u64)(s >> 64);						\
		ECC_UNROLL							\
		for (j = 1; j < ECC_N; j++) {					\
			s = (ecc_u128)q * m[j] + t[j] + c;			\
			t[j - 1] = (u64)s;					\
			c = (u64)(s >> 64);					\
		}								\
		s = (ecc_u128)t[ECC_N] + c;					\
		t[ECC_N - 1] = (u64)s;						\
		t[ECC_N] = t[ECC_N + 1] + (u64)(s >> 64);			\
	}									\
	/* t < 2m: subtract m unless that goes negative. */			\
	ECC_UNROLL								\
	for (i = 0; i < ECC_N; i++) {						\
		s = (ecc_u128)t[i] - m[i] - borrow;				\
		u[i] = (u64)s;							\
		borrow = (u64)(s >> 64) & 1;					\
	}									\
	mask = 0 - (borrow & (t[ECC_N] ^ 1));					\
	ECC_UNROLL								\
	for (i = 0; i < ECC_N; i++)						\
		r[i] = (t[i] & mask) | (u[i] & ~mask);

/* The field's multiplication (unless the curve file has its own): all unrolled. */
static inline void mont_mul(fe r, const fe a, const fe b, const struct ecc_mod *M)
{
	ECC_MONT_MUL_BODY(r, a, b, M, ECC_UNROLL)
}

/*
 * The same for scalars modulo n (fn_mul unless ECC_FN_MUL, where the field
 * has its own multiplication and mont_mul() is not there anyway): a dozen
 * calls per signature or verification, so the rows stay a loop.  Unrolled,
 * the N^2 products cost the P-521 files 6 KiB of code each and their
 * compile time, for no measurable speed.
 */
static __attribute__((noinline, unused)) void mont_mul_n(fe r, const fe a, const fe b,
							  const struct ecc_mod *M)
{
	ECC_MONT_MUL_BODY(r, a, b, M, _Pragma("GCC unroll 1"))
}

#include <crypto/ecc-inv.h>

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
#elif defined(ECC_FP_MUL)
	mont_mul_n(r, a, b, D->fn);
#else
	mont_mul(r, a, b, D->fn);	/* the field's copy, there anyway */
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
