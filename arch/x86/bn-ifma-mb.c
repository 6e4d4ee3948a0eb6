// SPDX-License-Identifier: MIT
/*
 * Almost Montgomery multiplication (AMM) with AVX-512 IFMA on eight
 * numbers modulo one modulus, one number a 64-bit lane (bn-ifma-mb.h:
 * the lane layout), for the RSA batch signer of rsa-ifma-mb.c.
 * Requires: AVX512F, AVX512IFMA (zmm registers only).
 *
 * Product scanning, one column k of a b + Y m a step (k = 0 .. 2 nl - 1),
 * every term a whole register of eight lanes, so nothing is ever
 * permuted or broadcast across lanes but the modulus' digits and k0:
 *   col_k = carry + lo(a_i b_j) over i + j = k + hi(a_i b_j) over
 *           i + j = k - 1 + the same of m_i y_j (VPMADD52LUQ/HUQ: the
 *           low and high 52 bits of a 104-bit product; a high half weighs
 *           one digit more, so it belongs to the next column);
 *   k < nl: y_k = col_k k0 mod 2^52, then col_k += lo(m_0 y_k), which
 *           makes it 0 mod 2^52;
 *   k >= nl: digit k - nl of the result is col_k mod 2^52;
 *   carry = col_k >> 52.
 * The carries are propagated as the columns go, so the result's digits
 * come out below 2^52 with no pass of their own; a column sums at most
 * 4 nl + 1 terms below 2^52 (below 2^59 for nl = 30).  Each column's
 * terms go to four accumulators (even and odd i, low and high halves),
 * so that a column is four dependency chains of about nl / 2 products
 * rather than one of 4 nl; the chain between columns is the carry, and
 * for k < nl the y product and the m_0 y one (~11 cycles).  The result is
 * kept in registers until the last column: r may alias a or b.
 *
 * The squaring: a_i a_j for i < j once, the column doubled, and the
 * squares a_i a_i: nl (nl + 1) products where the multiplication has
 * 2 nl^2, the reduction (nl^2 + nl products, each two instructions) the
 * same.  Counts, one AMM of eight numbers, nl = 20 (RSA-2048's halves):
 * 1620 VPMADD52 for a multiplication, 1240 for a squaring (420 + 820);
 * nl = 30: 3630 and 2760.  rsa-ifma-mb.c has the cost of a batch.
 *
 * No branch and no memory index depends on a value; the column bounds and
 * the sizes are public.  The y digits and the partial sums live in the
 * stack frame, which, as for any compiled C of the library, is not wiped
 * (bn-ifma.c says the same of its spills).
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
 * The column loops unrolled whole (the sizes are constants in each
 * amm20/amm30/sqr20/sqr30): rolled, GCC kept them as loops with bounds
 * computed per column, ~10 VPMADD52 in the code and a branch every two
 * or three of them, ~2200 cycles an AMM of nl = 20 measured on Zen 5
 * where the ~1600 VPMADD52 of a product take ~800 at two a cycle.  Not
 * in the emulation build, where each intrinsic is a loop of its own and
 * the unrolled bodies would take minutes to compile (as in
 * ecc-p256-ifma-mb.c).
 */
#ifdef RIND_AVX512_EMU
#define BNM_UNROLL
#else
#define BNM_UNROLL _Pragma("GCC unroll 64")
#endif

/* ---- layout (plain C) ---------------------------------------------------- */

void bnm_mont_init(struct bnm_mont *c, const struct bn_mont *mc)
{
	unsigned int n = mc->n, d, j, l;
	u64 t[BN_MAX_LIMBS], x[BN_MAX_LIMBS];
	const u64 *one[BNM_LANES], *rr[BNM_LANES];

	memset(c, 0, sizeof(*c));
	c->mc = mc;
	c->n = n;
	c->nl = n == 16 ? 20 : 30;
	c->k0 = mc->m0inv & M52;
	/* R'^2 / R = R 2^(2 d), d = 52 nl - 64 n: the Montgomery form of 2^(2 d). */
	d = 52 * c->nl - 64 * n;
	memset(t, 0, (size_t)n * 8);
	t[2 * d / 64] = (u64)1 << (2 * d % 64);
	bn_mont_mul(x, t, mc->rr, mc);
	for (l = 0; l < BNM_LANES; l++) {
		one[l] = mc->one;
		rr[l] = x;
	}
	bnm_pack(&c->rr, rr, BNM_LANES, c);
	bnm_pack(&c->one, one, BNM_LANES, c);
	{
		const u64 *mm[1] = { mc->m };
		struct bnm_num tmp;

		bnm_pack(&tmp, mm, 1, c);
		for (j = 0; j < c->nl; j++)
			c->m[j] = tmp.d[8 * j];
		memzero_explicit(&tmp, sizeof(tmp));	/* m is a CRT prime */
	}
	memzero_explicit(x, sizeof(x));
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
 * The a b terms of column k into the accumulators: lo(a_i b_{k-i}),
 * hi(a_i b_{k-1-i}); for a squaring, each a_i a_j with i < j once, the
 * sum doubled, and the square a_{k/2}^2 (lo) or a_{(k-1)/2}^2 (hi).
 */
BNM_INLINE __m512i col_ab(const struct bnm_num *a, const struct bnm_num *b, unsigned int k,
			  const unsigned int nl, const bool sqr)
{
	const __m512i zero = _mm512_setzero_si512();
	__m512i s0 = zero, s1 = zero, s2 = zero, s3 = zero;
	unsigned int i, i0 = k < nl ? 0 : k - nl + 1, i1 = k < nl ? k : nl - 1;
	unsigned int h0 = k <= nl ? 0 : k - nl, h1 = k - 1 < nl - 1 ? k - 1 : nl - 1;

	if (!sqr) {
		BNM_UNROLL
		for (i = i0; i <= i1; i += 2)
			s0 = _mm512_madd52lo_epu64(s0, dig(a, i), dig(b, k - i));
		BNM_UNROLL
		for (i = i0 + 1; i <= i1; i += 2)
			s1 = _mm512_madd52lo_epu64(s1, dig(a, i), dig(b, k - i));
		BNM_UNROLL
		for (i = h0; k && i <= h1; i += 2)
			s2 = _mm512_madd52hi_epu64(s2, dig(a, i), dig(b, k - 1 - i));
		BNM_UNROLL
		for (i = h0 + 1; k && i <= h1; i += 2)
			s3 = _mm512_madd52hi_epu64(s3, dig(a, i), dig(b, k - 1 - i));
		return _mm512_add_epi64(_mm512_add_epi64(s0, s1), _mm512_add_epi64(s2, s3));
	}
	/* i < j = k - i: i < k / 2 (lo), i < (k - 1) / 2 (hi) */
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
	if (!(k & 1) && k / 2 < nl)
		s0 = _mm512_madd52lo_epu64(s0, dig(a, k / 2), dig(a, k / 2));
	if ((k & 1) && (k - 1) / 2 < nl)
		s0 = _mm512_madd52hi_epu64(s0, dig(a, (k - 1) / 2), dig(a, (k - 1) / 2));
	return s0;
}

/*
 * The m y terms of column k known before y_k: lo(m_{k-j} y_j) for j < k
 * (j > k - nl), hi(m_{k-1-j} y_j) for j <= k - 1 (j >= k - nl).
 */
BNM_INLINE __m512i col_my(const __m512i *y, const struct bnm_mont *c, unsigned int k,
			  const unsigned int nl)
{
	const __m512i zero = _mm512_setzero_si512();
	__m512i s0 = zero, s1 = zero, s2 = zero, s3 = zero;
	unsigned int j, j0 = k < nl ? 0 : k - nl + 1, j1 = k < nl ? k : nl;	/* j < j1 */
	unsigned int h0 = k <= nl ? 0 : k - nl, h1 = k < nl ? k : nl;		/* j < h1 */

	BNM_UNROLL
	for (j = j0; j < j1; j += 2)
		s0 = _mm512_madd52lo_epu64(s0, mdig(c, k - j), y[j]);
	BNM_UNROLL
	for (j = j0 + 1; j < j1; j += 2)
		s1 = _mm512_madd52lo_epu64(s1, mdig(c, k - j), y[j]);
	BNM_UNROLL
	for (j = h0; j < h1; j += 2)
		s2 = _mm512_madd52hi_epu64(s2, mdig(c, k - 1 - j), y[j]);
	BNM_UNROLL
	for (j = h0 + 1; j < h1; j += 2)
		s3 = _mm512_madd52hi_epu64(s3, mdig(c, k - 1 - j), y[j]);
	return _mm512_add_epi64(_mm512_add_epi64(s0, s1), _mm512_add_epi64(s2, s3));
}

/* r = a b / R' (a == b: the squaring's terms), eight lanes (the file's comment). */
BNM_INLINE void amm_cols(struct bnm_num *r, const struct bnm_num *a, const struct bnm_num *b,
			 const struct bnm_mont *c, const unsigned int nl, const bool sqr)
{
	const __m512i zero = _mm512_setzero_si512(), m52 = _mm512_set1_epi64(M52);
	const __m512i k0 = _mm512_set1_epi64((long long)c->k0);
	__m512i y[BNM_MAX_DIGITS], o[BNM_MAX_DIGITS], carry = zero;
	unsigned int k;

	BNM_UNROLL
	for (k = 0; k < 2 * nl; k++) {
		__m512i col = _mm512_add_epi64(col_ab(a, b, k, nl, sqr), col_my(y, c, k, nl));

		col = _mm512_add_epi64(col, carry);
		if (k < nl) {		/* public: the column */
			y[k] = _mm512_madd52lo_epu64(zero, col, k0);
			col = _mm512_madd52lo_epu64(col, mdig(c, 0), y[k]);
		} else {
			o[k - nl] = _mm512_and_si512(col, m52);
		}
		carry = _mm512_srli_epi64(col, 52);
	}
	BNM_UNROLL
	for (k = 0; k < nl; k++)
		_mm512_store_si512((void *)(r->d + 8 * k), o[k]);
}

#define AMM_SIZE(nl)								\
static BNM_TARGET void amm##nl(struct bnm_num *r, const struct bnm_num *a,	\
			       const struct bnm_num *b, const struct bnm_mont *c)	\
{										\
	amm_cols(r, a, b, c, nl, false);					\
}										\
static BNM_TARGET void sqr##nl(struct bnm_num *r, const struct bnm_num *a,	\
			       unsigned int k, const struct bnm_mont *c)	\
{										\
	while (k--) {								\
		amm_cols(r, a, a, c, nl, true);					\
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
