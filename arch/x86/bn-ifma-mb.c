// SPDX-License-Identifier: MIT
/*
 * Almost Montgomery multiplication (AMM) with AVX-512 IFMA on eight
 * numbers modulo one modulus, one number a 64-bit lane (bn-ifma-mb.h:
 * the lane layout), for the RSA batch signer of rsa-ifma-mb.c.
 * Requires: AVX512F, AVX512IFMA (zmm registers only).
 *
 * Operand scanning (amm_rows), every term a whole register of eight
 * lanes, so nothing is ever permuted or broadcast across lanes but the
 * modulus' digits and k0: row i (i = 0 .. nl - 1) adds lo(a_i b_j) to
 * accumulator j and hi(a_i b_j) to j + 1 (VPMADD52LUQ/HUQ: the low and
 * high 52 bits of a 104-bit product; a high half weighs one digit more),
 * then y_i = acc_0 k0 mod 2^52 and the same of m_j y_i, which makes acc_0
 * 0 mod 2^52; acc_0 leaves, its carry (acc_0 >> 52) into the new acc_0.
 * The nl + 1 accumulators stay in registers (nl = 20; at 30 some spill),
 * each b_j and m_j a memory operand of its VPMADD52s.  4 nl^2 + nl
 * VPMADD52 an AMM of eight numbers: 1620 at nl = 20 (RSA-2048's halves),
 * 3630 at nl = 30.  The squaring (sqr_rows) keeps the reduction rows and
 * adds a a a column at a time, each a_i a_j (i < j) once: 1240 VPMADD52
 * at nl = 20, 2760 at 30.  Measured on Zen 5 (a pass of eight RSA-2048
 * halves, bench/probes/rsa-peer.c "lanes 8", TSC minima, loaded host):
 * 1.11M TSC cycles with the first version's column-wise product and
 * squaring (two operand loads a product), 0.97M with this product, 0.94M
 * with the squaring in its rows as well (1640 VPMADD52), 0.90M with
 * sqr_rows, 0.83M with the rows rolled (BNM_UNROLL_ROWS).  The result
 * is stored only at the end: r may alias a or b.
 *
 * No branch and no memory index depends on a value; the column bounds and
 * the sizes are public.  Spilled accumulators live in the stack frame,
 * which, as for any compiled C of the library, is not wiped (bn-ifma.c
 * says the same of its spills).
 */
#include <string.h>
#include <immintrin.h>
#include <rind/types.h>
#include <rind/internal/util.h>
#include <crypto/bignum.h>
#include "bn-ifma.h"
#include "bn-ifma-mb.h"
#include "x86-target.h"

#define BNM_TARGET RIND_AVX512_TARGET("avx512f,avx512ifma", "avx2")
#define BNM_INLINE static inline __attribute__((always_inline)) BNM_TARGET

#define M52	(((u64)1 << 52) - 1)

/*
 * The loops over digits unrolled whole (the sizes are constants in each
 * amm20/amm30/sqr20/sqr30), so that the accumulators are registers:
 * left to GCC they stayed loops with bounds computed per column, ~10
 * VPMADD52 in amm20's code and a branch every two or three, ~2200 TSC
 * cycles an AMM of nl = 20 on Zen 5.  The loop over the rows is kept
 * (BNM_UNROLL_ROWS): unrolled too, amm30 and sqr30 were ~9k and ~6k
 * instructions, amm20 and sqr20 ~2.6k each, and a pass of eight halves
 * (bench/probes/rsa-peer.c "lanes 8", TSC minima, loaded host) took
 * 0.90M TSC cycles at RSA-2048 and 5.9M at 3072, against 0.83M and
 * 3.36M with the rows rolled (the code no longer fits the op cache).
 * Not in the emulation build, where each intrinsic is a loop of its own
 * and the unrolled bodies would take minutes to compile (as in
 * ecc-p256-ifma-mb.c).
 */
#ifdef RIND_AVX512_EMU
#define BNM_UNROLL
#define BNM_UNROLL_ROWS
#else
#define BNM_UNROLL _Pragma("GCC unroll 64")
#define BNM_UNROLL_ROWS _Pragma("GCC unroll 1")
#endif

/* ---- layout (plain C) ---------------------------------------------------- */

void bnm_mont_init(struct bnm_mont *c, const struct bn_mont *mc)
{
	unsigned int n = mc->n, d, j, l;
	const u64 *one[BNM_LANES], *rr[BNM_LANES];
	struct bnm_num x, t;

	memset(c, 0, sizeof(*c));
	c->mc = mc;
	c->n = n;
	c->nl = n == 16 ? 20 : 30;
	c->k0 = mc->m0inv & M52;
	for (l = 0; l < BNM_LANES; l++) {
		one[l] = mc->one;
		rr[l] = mc->rr;
	}
	bnm_pack(&c->one, one, BNM_LANES, c);
	{
		const u64 *mm[1] = { mc->m };

		bnm_pack(&x, mm, 1, c);
		for (j = 0; j < c->nl; j++)
			c->m[j] = x.d[8 * j];
	}
	/*
	 * R'^2 / R = R 2^(2 d), d = 52 nl - 64 n (R' = R 2^d): one AMM of R^2
	 * mod m by 2^(3 d) (2^48 or 2^72, below m), as bni_mont2_init does;
	 * below 2 m, as an AMM operand may be.
	 */
	d = 52 * c->nl - 64 * n;
	bnm_pack(&x, rr, BNM_LANES, c);
	memset(&t, 0, sizeof(t));
	for (l = 0; l < BNM_LANES; l++)
		t.d[8 * (3 * d / 52) + l] = (u64)1 << (3 * d % 52);
	bnm_amm(&c->rr, &x, &t, c);
	memzero_explicit(&x, sizeof(x));	/* m is a CRT prime, R^2 mod it */
}

void bnm_pack(struct bnm_num *x, const u64 *const *a, unsigned int cnt, const struct bnm_mont *c)
{
	unsigned int n = c->n, l, j;

	memset(x, 0, sizeof(*x));
	for (l = 0; l < cnt; l++) {
		for (j = 0; j < c->nl; j++)
			x->d[8 * j + l] = bni_digit(a[l], n, j);
	}
}

void bnm_unpack_reduce(u64 *const *r, unsigned int cnt, const struct bnm_num *x,
		       const struct bnm_mont *c)
{
	unsigned int n = c->n, l, j;
	u64 t[BN_MAX_LIMBS + 2], d[BN_MAX_LIMBS + 2], m[BN_MAX_LIMBS + 2];

	memcpy(m, c->mc->m, (size_t)n * 8);
	m[n] = 0;
	for (l = 0; l < cnt; l++) {
		memset(t, 0, sizeof(t));
		for (j = 0; j < c->nl; j++)
			bni_put_digit(t, j, x->d[8 * j + l]);
		/* Below 2 m < 2^(64 n + 1): n + 1 limbs; t - m kept unless it borrows. */
		bn_cmov(t, d, n + 1, bn_sub(d, t, m, n + 1) - 1);
		memcpy(r[l], t, (size_t)n * 8);
	}
	memzero_explicit(t, sizeof(t));
	memzero_explicit(d, sizeof(d));
	memzero_explicit(m, sizeof(m));
}

/* ---- the products (AVX-512 IFMA) ----------------------------------------- */

BNM_INLINE __m512i dig(const struct bnm_num *x, unsigned int j)
{
	return _mm512_load_si512((const void *)(x->d + 8 * j));
}

BNM_INLINE __m512i mdig(const struct bnm_mont *c, unsigned int j)
{
	return _mm512_set1_epi64((long long)c->m[j]);
}

/*
 * r = a b / R', operand scanning (the file's comment): row i adds a_i b and
 * y_i m to nl + 1 accumulators that stay in registers, y_i from the
 * lowest, which is then 0 mod 2^52 and leaves, its carry into the next.
 * Each b_j and m_j is one memory operand of the VPMADD52 that uses it
 * (m_j broadcast), where the columns load two operands per product; the
 * chain between rows is acc_0 -> y_i -> m_0 y_i -> carry (~13 cycles),
 * against ~80 VPMADD52 a row.  An accumulator lives nl rows and takes at
 * most 4 terms below 2^52 each (and the carries): below 2^59 for nl =
 * 30.  The result is (ab + Y m) / R' for the one Y below R' that makes
 * it exact, whatever the order of the terms; the digits made below 2^52
 * at the end, the last carry 0 (r < 2 m < R').
 */
BNM_INLINE void amm_rows(struct bnm_num *r, const struct bnm_num *a, const struct bnm_num *b,
			 const struct bnm_mont *c, const unsigned int nl)
{
	const __m512i zero = _mm512_setzero_si512(), m52 = _mm512_set1_epi64(M52);
	const __m512i k0 = _mm512_set1_epi64((long long)c->k0);
	__m512i acc[BNM_MAX_DIGITS + 1], ai, y, carry;
	unsigned int i, j;

	BNM_UNROLL
	for (j = 0; j <= nl; j++)
		acc[j] = zero;
	BNM_UNROLL_ROWS
	for (i = 0; i < nl; i++) {
		ai = dig(a, i);
		BNM_UNROLL
		for (j = 0; j < nl; j++) {
			acc[j] = _mm512_madd52lo_epu64(acc[j], ai, dig(b, j));
			acc[j + 1] = _mm512_madd52hi_epu64(acc[j + 1], ai, dig(b, j));
		}
		y = _mm512_madd52lo_epu64(zero, acc[0], k0);
		BNM_UNROLL
		for (j = 0; j < nl; j++) {
			acc[j] = _mm512_madd52lo_epu64(acc[j], y, mdig(c, j));
			acc[j + 1] = _mm512_madd52hi_epu64(acc[j + 1], y, mdig(c, j));
		}
		carry = _mm512_srli_epi64(acc[0], 52);
		BNM_UNROLL
		for (j = 0; j < nl; j++)
			acc[j] = acc[j + 1];
		acc[0] = _mm512_add_epi64(acc[0], carry);
		acc[nl] = zero;
	}
	carry = zero;
	BNM_UNROLL
	for (j = 0; j < nl; j++) {
		acc[j] = _mm512_add_epi64(acc[j], carry);
		carry = _mm512_srli_epi64(acc[j], 52);
		_mm512_store_si512((void *)(r->d + 8 * j), _mm512_and_si512(acc[j], m52));
	}
}

/*
 * Column k of a a: each a_i a_j with i < j once, lo(a_i a_{k-i}) and
 * hi(a_i a_{k-1-i}), the sum doubled, and the square lo(a_{k/2}^2) or
 * hi(a_{(k-1)/2}^2); four accumulators (even and odd i, low and high
 * halves), at most 2 nl + 1 terms below 2^52.
 */
BNM_INLINE __m512i col_sqr(const struct bnm_num *a, unsigned int k, const unsigned int nl)
{
	const __m512i zero = _mm512_setzero_si512();
	__m512i s0 = zero, s1 = zero, s2 = zero, s3 = zero;
	unsigned int i, i0 = k < nl ? 0 : k - nl + 1, h0 = k <= nl ? 0 : k - nl;

	/* i < j = k - i: 2 i < k (lo), 2 i < k - 1 (hi) */
	BNM_UNROLL
	for (i = i0; 2 * i < k; i += 2)
		s0 = _mm512_madd52lo_epu64(s0, dig(a, i), dig(a, k - i));
	BNM_UNROLL
	for (i = i0 + 1; 2 * i < k; i += 2)
		s1 = _mm512_madd52lo_epu64(s1, dig(a, i), dig(a, k - i));
	BNM_UNROLL
	for (i = h0; 2 * i + 1 < k; i += 2)
		s2 = _mm512_madd52hi_epu64(s2, dig(a, i), dig(a, k - 1 - i));
	BNM_UNROLL
	for (i = h0 + 1; 2 * i + 1 < k; i += 2)
		s3 = _mm512_madd52hi_epu64(s3, dig(a, i), dig(a, k - 1 - i));
	s0 = _mm512_add_epi64(_mm512_add_epi64(s0, s1), _mm512_add_epi64(s2, s3));
	s0 = _mm512_add_epi64(s0, s0);
	if (!(k & 1) && k / 2 < nl)	/* public: the column */
		s0 = _mm512_madd52lo_epu64(s0, dig(a, k / 2), dig(a, k / 2));
	if ((k & 1) && (k - 1) / 2 < nl)
		s0 = _mm512_madd52hi_epu64(s0, dig(a, (k - 1) / 2), dig(a, (k - 1) / 2));
	return s0;
}

/*
 * r = a a / R': the rows of amm_rows for the reduction (y_i m), and a a
 * a column at a time (col_sqr), each column added to its accumulator
 * just before that leaves (k < nl: before y_k is taken from it) or is
 * made a digit of the result (k >= nl).  nl (nl + 1) products for a a
 * where amm_rows has 2 nl^2, the same 2 nl^2 + nl for the reduction:
 * 1240 VPMADD52 at nl = 20, 2760 at nl = 30.  An accumulator takes at
 * most 2 nl + 1 terms of a a and 2 nl of y m below 2^52, and carries.
 */
BNM_INLINE void sqr_rows(struct bnm_num *r, const struct bnm_num *a, const struct bnm_mont *c,
			 const unsigned int nl)
{
	const __m512i zero = _mm512_setzero_si512(), m52 = _mm512_set1_epi64(M52);
	const __m512i k0 = _mm512_set1_epi64((long long)c->k0);
	__m512i acc[BNM_MAX_DIGITS + 1], y, carry;
	unsigned int i, j;

	BNM_UNROLL
	for (j = 0; j <= nl; j++)
		acc[j] = zero;
	BNM_UNROLL_ROWS
	for (i = 0; i < nl; i++) {
		acc[0] = _mm512_add_epi64(acc[0], col_sqr(a, i, nl));
		y = _mm512_madd52lo_epu64(zero, acc[0], k0);
		BNM_UNROLL
		for (j = 0; j < nl; j++) {
			acc[j] = _mm512_madd52lo_epu64(acc[j], y, mdig(c, j));
			acc[j + 1] = _mm512_madd52hi_epu64(acc[j + 1], y, mdig(c, j));
		}
		carry = _mm512_srli_epi64(acc[0], 52);
		BNM_UNROLL
		for (j = 0; j < nl; j++)
			acc[j] = acc[j + 1];
		acc[0] = _mm512_add_epi64(acc[0], carry);
		acc[nl] = zero;
	}
	carry = zero;
	BNM_UNROLL
	for (j = 0; j < nl; j++) {
		acc[j] = _mm512_add_epi64(acc[j], _mm512_add_epi64(col_sqr(a, nl + j, nl), carry));
		carry = _mm512_srli_epi64(acc[j], 52);
		_mm512_store_si512((void *)(r->d + 8 * j), _mm512_and_si512(acc[j], m52));
	}
}

#define AMM_SIZE(nl)								\
static BNM_TARGET void amm##nl(struct bnm_num *r, const struct bnm_num *a,	\
			       const struct bnm_num *b, const struct bnm_mont *c)	\
{										\
	amm_rows(r, a, b, c, nl);						\
}										\
static BNM_TARGET void sqr##nl(struct bnm_num *r, const struct bnm_num *a,	\
			       unsigned int k, const struct bnm_mont *c)	\
{										\
	while (k--) {								\
		sqr_rows(r, a, c, nl);						\
		a = r;								\
	}									\
}
AMM_SIZE(20)
AMM_SIZE(30)

void bnm_amm(struct bnm_num *r, const struct bnm_num *a, const struct bnm_num *b,
	     const struct bnm_mont *c)
{
	if (c->nl == 20)	/* public: the size */
		amm20(r, a, b, c);
	else
		amm30(r, a, b, c);
}

void bnm_amm_sqrk(struct bnm_num *r, const struct bnm_num *a, unsigned int k,
		  const struct bnm_mont *c)
{
	if (!k) {
		if (r != a)
			*r = *a;
		return;
	}
	if (c->nl == 20)
		sqr20(r, a, k, c);
	else
		sqr30(r, a, k, c);
}

/* ---- the window table's scan --------------------------------------------- */

BNM_INLINE void select_run(struct bnm_num *r, const struct bnm_num *table, unsigned int cnt,
			   u64 idx, const unsigned int nl)
{
	const __m512i want = _mm512_set1_epi64((long long)idx), inc = _mm512_set1_epi64(1);
	__m512i acc[BNM_MAX_DIGITS], cur = _mm512_setzero_si512();
	unsigned int i, j;

	BNM_UNROLL
	for (j = 0; j < nl; j++)
		acc[j] = _mm512_setzero_si512();
	for (i = 0; i < cnt; i++, table++) {
		/* all eight lanes where i = idx, none elsewhere */
		__mmask8 sel = _mm512_cmpeq_epu64_mask(cur, want);

		BNM_UNROLL
		for (j = 0; j < nl; j++)
			acc[j] = _mm512_mask_blend_epi64(sel, acc[j], dig(table, j));
		cur = _mm512_add_epi64(cur, inc);
	}
	BNM_UNROLL
	for (j = 0; j < nl; j++)
		_mm512_store_si512((void *)(r->d + 8 * j), acc[j]);
}

static BNM_TARGET void select20(struct bnm_num *r, const struct bnm_num *t, unsigned int cnt, u64 idx)
{
	select_run(r, t, cnt, idx, 20);
}

static BNM_TARGET void select30(struct bnm_num *r, const struct bnm_num *t, unsigned int cnt, u64 idx)
{
	select_run(r, t, cnt, idx, 30);
}

void bnm_select(struct bnm_num *r, const struct bnm_num *table, unsigned int cnt, u64 idx,
		const struct bnm_mont *c)
{
	if (c->nl == 20)
		select20(r, table, cnt, idx);
	else
		select30(r, table, cnt, idx);
}
