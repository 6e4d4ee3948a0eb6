// SPDX-License-Identifier: MIT
/*
 * P-521 (secp521r1, FIPS 186-5 / SEC 2: p = 2^521 - 1), portable C: the
 * curve operations that the "ecdh-nist-p521-generic" kpp and the
 * "ecdsa-nist-p521-generic" sig drivers (algs/ecdh.c, algs/ecdsa.c) are
 * built on.  Points and scalars are the template's (<crypto/ecc-impl.h>,
 * hooks in ecc.h) with 9 64-bit limbs (the scalars modulo n in Montgomery
 * form, R = 2^576); the field is this file's own, and its lazy additions
 * let the template's point formulas skip the carry pass where a value
 * only feeds a product.
 *
 * Field elements are nine limbs of 58 bits (value = sum l_i 2^(58 i)),
 * the plain value (no Montgomery factor), not necessarily below p: limbs
 * 0..7 below 2^58 (limb 1 below 2^58 + 2^9), limb 8 below 2^57 after
 * every operation, so the value is below 2p.  A product accumulates its
 * 81 limb products in 128-bit column sums without carries (each below
 * 2^123), and since 2^522 = 2 (mod p) the columns above the ninth fold
 * onto the low ones with a factor 2 (taken from 2b); one carry pass
 * (bits from 2^521 up wrap to the bottom) ends every operation.
 * Comparisons, the conversion to bytes and the inversion (Bernstein-Yang,
 * ecc-field.h) work on the fully reduced value.  Constant time: no
 * branch, no data-dependent index.
 *
 * The constants are the curve's domain parameters (FIPS 186-5 / SP 800-186
 * section 3.2) as little-endian 64-bit limbs, b and G in 58-bit limbs; the
 * constants of n and the square-root exponent are <crypto/ecc-p521.h>'s.
 */
#define ECC_N 9
#include <rind/types.h>

static void p521_mul(u64 *r, const u64 *a, const u64 *b);
static void p521_sqr(u64 *r, const u64 *a);
static void p521_add(u64 *r, const u64 *a, const u64 *b);
static void p521_sub(u64 *r, const u64 *a, const u64 *b);
static void p521_half(u64 *r, const u64 *a);
static void p521_inv(u64 *r, const u64 *a);
static void p521_to(u64 *r, const u64 *a);
static void p521_from(u64 *r, const u64 *a);
static u64 p521_is_zero(const u64 *a);
static u64 p521_eq(const u64 *a, const u64 *b);
static inline void p521_add_nc(u64 *r, const u64 *a, const u64 *b);
static inline void p521_sub_nc(u64 *r, const u64 *a, const u64 *b);
static inline void p521_sub2(u64 *r, const u64 *a, const u64 *b);

#define ECC_FP_MUL(r, a, b)	p521_mul(r, a, b)
#define ECC_FP_SQR(r, a)	p521_sqr(r, a)
#define ECC_FP_ADD(r, a, b)	p521_add(r, a, b)
#define ECC_FP_SUB(r, a, b)	p521_sub(r, a, b)
#define ECC_FP_HALF(r, a)	p521_half(r, a)
#define ECC_FP_INV(r, a)	p521_inv(r, a)
#define ECC_FP_TO(r, a)		p521_to(r, a)
#define ECC_FP_FROM(r, a)	p521_from(r, a)
#define ECC_FP_ISZERO(a)	p521_is_zero(a)
#define ECC_FP_EQ(a, b)		p521_eq(a, b)
#define ECC_FP_ADD_LAZY(r, a, b)	p521_add_nc(r, a, b)
#define ECC_FP_SUB_LAZY(r, a, b)	p521_sub_nc(r, a, b)
#define ECC_FP_SUB2(r, a, b)	p521_sub2(r, a, b)
#include <crypto/ecc-impl.h>
#include <crypto/ecc-p521.h>

/* The field: m for range checks and the inversion; one = 1 in limbs (plain, no R). */
static const struct ecc_mod p521_fp = {
	.m = { 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0x00000000000001ffull },
	.rr = { 1 },
	.one = { 1 },
	.m0inv = 0x0000000000000001ull,
};

#define P521_M58	((1ull << 58) - 1)
#define P521_M57	((1ull << 57) - 1)

/* the carry pass: limbs below 2^63 in, the bounds above out */
static inline void p521_carry(u64 *r)
{
	u64 c;
	int i;

	ECC_UNROLL
	for (i = 0; i < 8; i++) {
		c = r[i] >> 58;
		r[i] &= P521_M58;
		r[i + 1] += c;
	}
	c = r[8] >> 57;
	r[8] &= P521_M57;
	r[0] += c;		/* 2^521 = 1 */
	c = r[0] >> 58;
	r[0] &= P521_M58;
	r[1] += c;
}

/* the same from 128-bit column sums */
static inline void p521_carry_wide(u64 *r, ecc_u128 *t)
{
	ecc_u128 c;
	int i;

	ECC_UNROLL
	for (i = 0; i < 8; i++) {
		t[i + 1] += t[i] >> 58;
		r[i] = (u64)t[i] & P521_M58;
	}
	r[8] = (u64)t[8] & P521_M57;
	c = (t[8] >> 57) + r[0];
	r[0] = (u64)c & P521_M58;
	r[1] += (u64)(c >> 58);
}

static void p521_mul(u64 *r, const u64 *a, const u64 *b)
{
	ecc_u128 t[9];
	u64 b2[9];
	int i, k;

	ECC_UNROLL
	for (i = 0; i < 9; i++)
		b2[i] = b[i] << 1;
	ECC_UNROLL
	for (k = 0; k < 9; k++) {
		ecc_u128 s = 0;

		ECC_UNROLL
		for (i = 0; i < 9; i++)
			s += (ecc_u128)a[i] * (i <= k ? b[k - i] : b2[k + 9 - i]);
		t[k] = s;
	}
	p521_carry_wide(r, t);
}

static void p521_sqr(u64 *r, const u64 *a)
{
	ecc_u128 t[9];
	u64 a2[9];
	int i, k;

	ECC_UNROLL
	for (i = 0; i < 9; i++)
		a2[i] = a[i] << 1;
	/* column k: a_i a_j for i + j = k, and 2 a_i a_j for i + j = k + 9 */
	ECC_UNROLL
	for (k = 0; k < 9; k++) {
		ecc_u128 s = 0;

		ECC_UNROLL
		for (i = 0; i <= k / 2; i++)
			s += (ecc_u128)(2 * i == k ? a[i] : a2[i]) * a[k - i];
		ECC_UNROLL
		for (i = k + 1; i <= (k + 9) / 2; i++)
			s += (ecc_u128)a2[i] * (2 * i == k + 9 ? a[i] : a2[k + 9 - i]);
		t[k] = s;
	}
	p521_carry_wide(r, t);
}

static void p521_add(u64 *r, const u64 *a, const u64 *b)
{
	int i;

	ECC_UNROLL
	for (i = 0; i < 9; i++)
		r[i] = a[i] + b[i];
	p521_carry(r);
}

/* a - b + 2p, limb by limb (2p: 2^59 - 2 and 2^58 - 2 on top) */
static void p521_sub(u64 *r, const u64 *a, const u64 *b)
{
	int i;

	ECC_UNROLL
	for (i = 0; i < 8; i++)
		r[i] = a[i] + ((1ull << 59) - 2) - b[i];
	r[8] = a[8] + ((1ull << 58) - 2) - b[8];
	p521_carry(r);
}

/* a / 2: (a + p) / 2 when a is odd */
static void p521_half(u64 *r, const u64 *a)
{
	u64 t[9], mask = 0 - (a[0] & 1), c;
	int i;

	ECC_UNROLL
	for (i = 0; i < 8; i++)
		t[i] = a[i] + (P521_M58 & mask);
	t[8] = a[8] + (P521_M57 & mask);
	ECC_UNROLL
	for (i = 0; i < 8; i++) {		/* exact, no wrap: t is even */
		c = t[i] >> 58;
		t[i] &= P521_M58;
		t[i + 1] += c;
	}
	ECC_UNROLL
	for (i = 0; i < 8; i++)
		r[i] = (t[i] >> 1) | ((t[i + 1] & 1) << 57);
	r[8] = t[8] >> 1;
	p521_carry(r);
}

/*
 * The template's lazy forms (ECC_FP_ADD_LAZY, ECC_FP_SUB_LAZY), without
 * the carry pass, for values that only feed p521_mul and p521_sqr: those
 * accept limbs up to 2^61 (products below 2^123, nine to a column below
 * 2^127), and a chain of two lazy additions of carried values stays below
 * 2^60.  a + b, and a - b + 2p.
 */
static inline void p521_add_nc(u64 *r, const u64 *a, const u64 *b)
{
	int i;

	ECC_UNROLL
	for (i = 0; i < 9; i++)
		r[i] = a[i] + b[i];
}

static inline void p521_sub_nc(u64 *r, const u64 *a, const u64 *b)
{
	int i;

	ECC_UNROLL
	for (i = 0; i < 8; i++)
		r[i] = a[i] + ((1ull << 59) - 2) - b[i];
	r[8] = a[8] + ((1ull << 58) - 2) - b[8];
}

/* a - 2b + 4p, carried (ECC_FP_SUB2) */
static inline void p521_sub2(u64 *r, const u64 *a, const u64 *b)
{
	int i;

	ECC_UNROLL
	for (i = 0; i < 8; i++)
		r[i] = a[i] + ((1ull << 60) - 4) - 2 * b[i];
	r[8] = a[8] + ((1ull << 59) - 4) - 2 * b[8];
	p521_carry(r);
}

/* the fully reduced value (< p), in limbs */
static void p521_canon(u64 *r, const u64 *a)
{
	u64 t[9], u[9], c, mask;
	int i;

	memcpy(t, a, sizeof(t));
	p521_carry(t);
	ECC_UNROLL
	for (i = 0; i < 8; i++) {		/* exact: limbs below 2^58, value < 2p */
		c = t[i] >> 58;
		t[i] &= P521_M58;
		t[i + 1] += c;
	}
	/* t >= p exactly when t + 1 reaches 2^521; then t - p = t + 1 - 2^521 */
	c = 1;
	ECC_UNROLL
	for (i = 0; i < 8; i++) {
		u[i] = t[i] + c;
		c = u[i] >> 58;
		u[i] &= P521_M58;
	}
	u[8] = t[8] + c;
	mask = 0 - (u[8] >> 57);
	u[8] &= P521_M57;
	ECC_UNROLL
	for (i = 0; i < 9; i++)
		r[i] = (t[i] & ~mask) | (u[i] & mask);
}

/* 58-bit limbs (fully reduced) <-> 64-bit words */
static void p521_limbs_to_words(u64 *w, const u64 *l)	/* w != l */
{
	int i;

	ECC_UNROLL
	for (i = 0; i < 9; i++) {
		int bit = 64 * i, li = bit / 58, sh = bit % 58;
		u64 v = l[li] >> sh;

		if (li + 1 < 9)
			v |= l[li + 1] << (58 - sh);
		if (sh > 52 && li + 2 < 9)
			v |= l[li + 2] << (116 - sh);
		w[i] = v;
	}
	w[8] &= 0x1ff;
}

static void p521_to(u64 *r, const u64 *in)
{
	u64 a[9];
	int i;

	memcpy(a, in, sizeof(a));	/* r may alias in */
	ECC_UNROLL
	for (i = 0; i < 9; i++) {
		int bit = 58 * i, wi = bit / 64, sh = bit % 64;
		u64 v = a[wi] >> sh;

		if (sh > 6 && wi + 1 < 9)
			v |= a[wi + 1] << (64 - sh);
		r[i] = v & (i < 8 ? P521_M58 : P521_M57);
	}
}

static void p521_from(u64 *r, const u64 *a)
{
	u64 t[9];

	p521_canon(t, a);
	p521_limbs_to_words(r, t);
	memzero_explicit(t, sizeof(t));
}

static u64 p521_is_zero(const u64 *a)
{
	u64 t[9];

	p521_canon(t, a);
	return ecc_is_zero(t);
}

static u64 p521_eq(const u64 *a, const u64 *b)
{
	u64 t[9], u[9];

	p521_canon(t, a);
	p521_canon(u, b);
	return ecc_eq(t, u);
}

static void p521_inv(u64 *r, const u64 *a)
{
	fe w, t;

	p521_from(w, a);
	ecc_by_inv(t, w, p521_fp.m, 1, 521);
	p521_to(r, t);
	memzero_explicit(w, sizeof(w));
	memzero_explicit(t, sizeof(t));
}

/* b, Gx, Gy (FIPS 186-5 / SP 800-186 section 3.2.1.5) in 58-bit limbs */
static const u64 p521_b[9] = {
	0x3451fd46b503f00ull, 0x0f7e20f4b0d3c7bull, 0x00bd3bb1bf07357ull, 0x147b1fa4dec594bull,
	0x18ef109e1561939ull, 0x26cc57cee2d2264ull, 0x0540eea2da725b9ull, 0x2687e4a688682daull,
	0x051953eb9618e1cull,
};
static const u64 p521_gx[9] = {
	0x17e7e31c2e5bd66ull, 0x22cf0615a90a6feull, 0x0127a2ffa8de334ull, 0x1dfbf9d64a3f877ull,
	0x06b4d3dbaa14b5eull, 0x14fed487e0a2bd8ull, 0x15b4429c6481390ull, 0x3a73678fb2d988eull,
	0x0c6858e06b70404ull,
};
static const u64 p521_gy[9] = {
	0x0be94769fd16650ull, 0x31c21a89cb09022ull, 0x39013fad0761353ull, 0x2657bd099031542ull,
	0x3273e662c97ee72ull, 0x1e6d11a05ebef45ull, 0x3d1bd998f544495ull, 0x3001172297ed0b1ull,
	0x11839296a789a3bull,
};

static const struct ecc_def p521_def = {
	.fp = &p521_fp, .fn = &p521_fn, .b = p521_b, .gx = p521_gx, .gy = p521_gy,
	.sqrt_exp = p521_sqrt_exp, .nbytes = 66, .bits = 521,
};

ECC_DEFINE_CURVE(ecc_p521_generic, p521_def, "P-521", RIND_OID_SECP521R1, 66, 521);
