// SPDX-License-Identifier: MIT
/*
 * Almost Montgomery multiplication (AMM) with AVX-512 IFMA, two moduli
 * side by side (bn-ifma.h: the x2 layout), for the RSA engine of
 * rsa-ifma.c.
 * Requires: AVX512F, AVX512IFMA (zmm registers only: no AVX512VL).
 *
 * One product, word-serial over b's digits (i = 0 .. nl - 1), every zmm
 * holding four digits of each half:
 *   acc += a b_i (low halves of the 104-bit products, VPMADD52LUQ)
 *   y = acc_0 k0 mod 2^52, per half, broadcast to its four lanes
 *   acc += m y (low halves); acc_0 is now 0 mod 2^52
 *   acc >>= one digit per half (VALIGNQ across register pairs), acc_0's
 *     bits above 52 carried into the new acc_0
 *   acc += the high halves of a b_i and m y (VPMADD52HUQ), which weigh
 *     one digit more than the low ones: after the shift, the same digit.
 * The high halves are summed apart (H) and added after the shift, and
 * the next y is computed before the shift (amm_row), so that the chain
 * from one y to the next is the m_0 y product, a broadcast, an add and
 * the y product (14 cycles on Zen 5) rather than four products in a row.
 * Measured on Zen 5 (same-process rdtsc minima over 1000 squarings,
 * loaded host): 18.6 -> 15.0 TSC cycles a row at nl = 20 (19.5 -> 15.5
 * at 32, 20.0 -> 16.9 at 40) with the y taken before the shift; with no
 * y chain at all (results wrong) 13.8: the rows are now bound by the
 * VPMADD52s (about one a cycle here), not by the chain.  Digits grow
 * by below 2^54 a row, so nothing overflows before the end (40 rows:
 * below 2^60); the carries are then propagated in two steps: one vector
 * pass (each digit's bits above 52 into the next digit), after which a
 * digit is at most 2^52 + 2^8 and each carries at most one more; the
 * chains of those single carries from the generate/propagate masks as
 * in an adder, ((G << 1) + P) ^ P, on general registers (bni_carry_in,
 * both halves' digits of all the registers in one 128-bit word).  No branch
 * and no memory index depends on the values anywhere.
 *
 * Operation count, one 1024-bit product (RSA-2048's halves; a row is
 * 4 nr + 1 VPMADD52 for the two halves, nr = 5, 20 rows): 420 IFMA
 * instructions for the pair, 210 a product, plus per row ~9 shuffles
 * (b_i's broadcast, the shift's five VALIGNQs, two for the next y) and
 * ~10 adds; the MULX/ADX kernel (bn-adx-8x8u.S) takes 512 MULX for a
 * 16-limb product (256 for a b, 256 for the reduction) and ~392 for a
 * square.  1536 bits: 33 x 30 = 990 for the pair (495 a product; 30
 * digits in 8 registers, the last half used) against 1152 MULX; 2048
 * bits: 41 x 40 = 1640 (820) against 2048.  Whether that is faster depends on the part
 * (one or two 512-bit IFMA ports, zmm frequency); see rsa-ifma.c.
 *
 * The 2048-bit kernel (ten registers a number, twenty for acc and H)
 * spills a few registers to its stack frame, which, as for any compiled
 * C of the library, is not wiped; everything the exponentiation keeps in
 * memory (rsa-ifma.c) is.
 */
#include <string.h>
#include <immintrin.h>
#include <rind/types.h>
#include <rind/internal/util.h>
#include <crypto/bignum.h>
#include "bn-ifma.h"
#include "x86-target.h"

/* zmm only: AVX512F and IFMA (tests/emu/README.md: the emulation build's spelling) */
#define BNI_TARGET RIND_AVX512_TARGET("avx512f,avx512ifma", "avx2")
#define BNI_INLINE static inline __attribute__((always_inline)) BNI_TARGET

#define M52	(((u64)1 << 52) - 1)

/* ---- layout (plain C) ---------------------------------------------------- */

void bni_mont2_init(struct bni_mont2 *c, const struct bn_mont *m1, const struct bn_mont *m2)
{
	unsigned int n = m1->n, d, h;
	struct bni_num x, t;

	memset(c, 0, sizeof(*c));
	c->mc[0] = m1;
	c->mc[1] = m2;
	c->n = n;
	c->nl = n == 16 ? 20 : n == 24 ? 30 : 40;
	c->nr = (c->nl + 3) / 4;
	for (h = 0; h < 2; h++) {
		const struct bn_mont *mc = h ? m2 : m1;

		c->k0[h] = c->k0[2 + h] = c->k0[4 + h] = c->k0[6 + h] = mc->m0inv & M52;
	}
	bni_pack(&c->m, m1->m, m2->m, c);
	bni_pack(&c->one, m1->one, m2->one, c);
	/*
	 * R'^2 / R = R 2^(2 d), d = 52 nl - 64 n (R' = R 2^d), as one AMM of
	 * R^2 mod m (the halves' own) by 2^(3 d): R^2 2^(3 d) / (R 2^d).  2^(3 d)
	 * is 2^48, 2^72 or 2^96, below each m (p and q have 64 n - 40 bits
	 * or more); the result is below 2 m, which an AMM operand may be.
	 * One AMM rather than a generic bn_mont_mul a half (~2.5k TSC cycles
	 * for both on Zen 5, for every exponentiation pair and fault check).
	 */
	d = 52 * c->nl - 64 * n;
	bni_pack(&x, m1->rr, m2->rr, c);
	memset(&t, 0, sizeof(t));
	t.w[bni_word(3 * d / 52, 0)] = t.w[bni_word(3 * d / 52, 1)] = (u64)1 << (3 * d % 52);
	bni_amm(&c->rr, &x, &t, c);
	memzero_explicit(&x, sizeof(x));	/* R^2 mod p, q */
}

void bni_pack(struct bni_num *x, const u64 *a1, const u64 *a2, const struct bni_mont2 *c)
{
	const u64 *a[2] = { a1, a2 };
	unsigned int n = c->n, h, j;

	memset(x, 0, sizeof(*x));
	for (h = 0; h < 2; h++) {
		for (j = 0; j < c->nl; j++)
			x->w[bni_word(j, h)] = bni_digit(a[h], n, j);
	}
}

void bni_unpack_reduce(u64 *r1, u64 *r2, const struct bni_num *x, const struct bni_mont2 *c)
{
	u64 *r[2] = { r1, r2 };
	unsigned int n = c->n, h, j;
	u64 t[BN_MAX_LIMBS + 2], d[BN_MAX_LIMBS + 2], m[BN_MAX_LIMBS + 2];

	for (h = 0; h < 2; h++) {
		memset(t, 0, sizeof(t));
		for (j = 0; j < c->nl; j++)
			bni_put_digit(t, j, x->w[bni_word(j, h)]);
		/* Below 2 m < 2^(64 n + 1): n + 1 limbs; t - m kept unless it borrows. */
		memcpy(m, c->mc[h]->m, (size_t)n * 8);
		m[n] = 0;
		bn_cmov(t, d, n + 1, bn_sub(d, t, m, n + 1) - 1);
		memcpy(r[h], t, (size_t)n * 8);
	}
	/* the halves are p and q */
	memzero_explicit(t, sizeof(t));
	memzero_explicit(d, sizeof(d));
	memzero_explicit(m, sizeof(m));
}

/* ---- the products (AVX-512 IFMA) ----------------------------------------- */

/*
 * Both halves' digits one place down (two lanes: one VALIGNQ), the next
 * register's lowest digit pair coming in at the top; and one place up,
 * the previous register's top pair coming in at the bottom.  (With a
 * half in each 256-bit half, as this file had it first, the shift was a
 * VPERMT2Q, which on Zen 4 takes a slot of the pipes the VPMADD52s run
 * on: 12 VPMADD52s and 4 VPERMT2Qs, 16 cycles; with 4 VALIGNQs, 12.)
 */
#define SHIFT_DOWN(a, next)	_mm512_alignr_epi64(next, a, 2)
#define SHIFT_UP(prev, a)	_mm512_alignr_epi64(a, prev, 6)
/* A digit pair (both halves' digit j of a register, j < 4) in every lane pair. */
#define PAIR(a, j)		_mm512_shuffle_i64x2(a, a, 0x55 * (j))

/*
 * One row: acc, H += a b_i, m y for the digit b_i of each half (bi: it
 * in the even lanes, the second half's in the odd ones), acc shifted
 * down one digit;
 * *yp is this row's y in, the next row's out.  Three things keep the
 * shift and the adds after it off the chain from one y to the next
 * (the file's comment):
 *   acc_0's a b_i came in with the previous row's H (the lowest
 *     register's product by the next digit, bn; zero after the last);
 *   acc_0's carry out is known before m_0 y: acc_0 + lo(m_0 y) is
 *     0 mod 2^52 and lo(m_0 y) < 2^52, so it is acc_0 / 2^52 rounded up;
 *   the next y is taken from digit 1 of acc_0 and digit 0 of H, each
 *     pair broadcast, before the shift, already in all four lanes of
 *     its half.
 * The chain is then m_0 y (VPMADD52, 4 cycles on Zen 5), a broadcast
 * (VSHUFI64X2, 4), an add (2) and the y product (4): 14 cycles a row,
 * against 23 with the y computed from the shifted acc_0 (and a VPERMT2Q
 * of 5, two adds and a broadcast of y on it).
 */
BNI_INLINE void amm_row(__m512i *acc, __m512i *hi, __m512i *yp, const struct bni_num *a,
			const struct bni_num *m, __m512i bi, __m512i bn, __m512i k0,
			const unsigned int nr)
{
	const __m512i zero = _mm512_setzero_si512();
	const __m512i m52 = _mm512_set1_epi64(M52);
	__m512i y = *yp, c;
	unsigned int k;

	/* acc_0's carry out once m_0 y is in: its value over 2^52 rounded up */
	c = _mm512_srli_epi64(_mm512_add_epi64(acc[0], m52), 52);
	/*
	 * Register 0 and the next y first, in program order too: the chain
	 * from one y to the next (Zen 4, TSC minima of 100 squarings: 4096-bit
	 * AMM 1398-1476 -> 1344-1352 cycles; the other sizes within noise).
	 */
	{
		__m512i a0 = _mm512_load_si512((const void *)a->w);
		__m512i m0 = _mm512_load_si512((const void *)m->w);

		hi[0] = _mm512_madd52hi_epu64(zero, a0, bi);
		/* the next row's a b lands where this H does, after the shift */
		hi[0] = _mm512_madd52lo_epu64(hi[0], a0, bn);
		hi[0] = _mm512_mask_add_epi64(hi[0], 0x03, hi[0], c);
		acc[0] = _mm512_madd52lo_epu64(acc[0], m0, y);
		hi[0] = _mm512_madd52hi_epu64(hi[0], m0, y);
	}
	/* the next y from the new acc_0 (digit 1 of acc_0 and 0 of H), broadcast already */
	*yp = _mm512_madd52lo_epu64(zero, _mm512_add_epi64(PAIR(acc[0], 1), PAIR(hi[0], 0)), k0);
#pragma GCC unroll 10
	for (k = 1; k < nr; k++) {
		__m512i ak = _mm512_load_si512((const void *)(a->w + 8 * k));
		__m512i mk = _mm512_load_si512((const void *)(m->w + 8 * k));

		hi[k] = _mm512_madd52hi_epu64(zero, ak, bi);
		acc[k] = _mm512_madd52lo_epu64(acc[k], ak, bi);
		acc[k] = _mm512_madd52lo_epu64(acc[k], mk, y);
		hi[k] = _mm512_madd52hi_epu64(hi[k], mk, y);
	}
#pragma GCC unroll 10
	for (k = 0; k + 1 < nr; k++)
		acc[k] = SHIFT_DOWN(acc[k], acc[k + 1]);
	acc[nr - 1] = SHIFT_DOWN(acc[nr - 1], zero);
#pragma GCC unroll 10
	for (k = 0; k < nr; k++)
		acc[k] = _mm512_add_epi64(acc[k], hi[k]);
}

/* Four digits of each half out of register bk: pair j broadcast to the four pairs. */
#define AMM_ROW(j, bn)								\
	amm_row(acc, hi, &y, a, m, PAIR(bk, j), bn, k0, nr)

/* Digits below 2^52 again (the file's comment: two steps; bni_carry_in()). */
BNI_INLINE void amm_normalize(__m512i *acc, const unsigned int nr)
{
	const __m512i zero = _mm512_setzero_si512(), m52 = _mm512_set1_epi64(M52);
	const __m512i one = _mm512_set1_epi64(1);
	__m512i c[BNI_MAX_REGS];
	bni_u128 g = 0, p = 0, cy;
	unsigned int k;

#pragma GCC unroll 10
	for (k = 0; k < nr; k++) {
		c[k] = _mm512_srli_epi64(acc[k], 52);
		acc[k] = _mm512_and_si512(acc[k], m52);
	}
#pragma GCC unroll 10
	for (k = 0; k < nr; k++)
		acc[k] = _mm512_add_epi64(acc[k], SHIFT_UP(k ? c[k - 1] : zero, c[k]));
	/* G: digits above 2^52 - 1 (carry one out), P: equal to it (pass one on) */
#pragma GCC unroll 10
	for (k = 0; k < nr; k++) {
		g |= (bni_u128)_mm512_cmpgt_epu64_mask(acc[k], m52) << (8 * k);
		p |= (bni_u128)_mm512_cmpeq_epu64_mask(acc[k], m52) << (8 * k);
	}
	cy = bni_carry_in(g, p);
#pragma GCC unroll 10
	for (k = 0; k < nr; k++)
		acc[k] = _mm512_and_si512(_mm512_mask_add_epi64(acc[k], (__mmask8)(cy >> (8 * k)),
								acc[k], one), m52);
}

/* r = a b / R' per half, then k more squarings of r (bn-ifma.h: bni_amm, bni_amm_sqrk). */
BNI_INLINE void amm_run(struct bni_num *r, const struct bni_num *a, const struct bni_num *b,
			unsigned int k, const struct bni_mont2 *ctx, const unsigned int nr,
			const unsigned int nl)
{
	const struct bni_num *m = &ctx->m;
	const __m512i k0 = _mm512_load_si512((const void *)ctx->k0);
	__m512i acc[BNI_MAX_REGS], hi[BNI_MAX_REGS], y;
	unsigned int g, j, t;

	for (t = 0; t <= k; t++) {
#pragma GCC unroll 10
		for (j = 0; j < nr; j++)
			acc[j] = _mm512_setzero_si512();
		/* acc_0 starts with a b_0 (amm_row) */
		acc[0] = _mm512_madd52lo_epu64(acc[0], _mm512_load_si512((const void *)a->w),
					       PAIR(_mm512_load_si512((const void *)b->w), 0));
		y = _mm512_madd52lo_epu64(_mm512_setzero_si512(), PAIR(acc[0], 0), k0);
		for (g = 0; g < nl / 4; g++) {
			__m512i bk = _mm512_load_si512((const void *)(b->w + 8 * g));
			/* public: the row index */
			__m512i bk1 = g + 1 < nr ? _mm512_load_si512((const void *)(b->w + 8 * g + 8))
						 : _mm512_setzero_si512();

			AMM_ROW(0, PAIR(bk, 1));
			AMM_ROW(1, PAIR(bk, 2));
			AMM_ROW(2, PAIR(bk, 3));
			AMM_ROW(3, PAIR(bk1, 0));
		}
		if (nl % 4) {
			/* 30 digits: the last register's two; its digit 30 (the bn) is zero */
			__m512i bk = _mm512_load_si512((const void *)(b->w + 8 * g));

			AMM_ROW(0, PAIR(bk, 1));
			AMM_ROW(1, PAIR(bk, 2));
		}
		amm_normalize(acc, nr);
#pragma GCC unroll 10
		for (j = 0; j < nr; j++)
			_mm512_store_si512((void *)(r->w + 8 * j), acc[j]);
		/* the squarings that follow: r r */
		a = b = r;
	}
}

#define AMM_SIZE(nr, nl)							\
static BNI_TARGET void amm##nr(struct bni_num *r, const struct bni_num *a,	\
			       const struct bni_num *b, unsigned int k,		\
			       const struct bni_mont2 *c)			\
{										\
	amm_run(r, a, b, k, c, nr, nl);						\
}
AMM_SIZE(5, 20)
AMM_SIZE(8, 30)
AMM_SIZE(10, 40)

static void amm_dispatch(struct bni_num *r, const struct bni_num *a, const struct bni_num *b,
			 unsigned int k, const struct bni_mont2 *c)
{
	if (c->nr == 5)		/* public: the size */
		amm5(r, a, b, k, c);
	else if (c->nr == 8)
		amm8(r, a, b, k, c);
	else
		amm10(r, a, b, k, c);
}

void bni_amm(struct bni_num *r, const struct bni_num *a, const struct bni_num *b,
	     const struct bni_mont2 *c)
{
	amm_dispatch(r, a, b, 0, c);
}

void bni_amm_sqrk(struct bni_num *r, const struct bni_num *a, unsigned int k,
		  const struct bni_mont2 *c)
{
	if (!k) {
		if (r != a)
			*r = *a;
		return;
	}
	amm_dispatch(r, a, a, k - 1, c);
}

/* ---- the window table's scan --------------------------------------------- */

BNI_INLINE void select_run(struct bni_num *r, const struct bni_num *table, unsigned int cnt,
			   u64 i1, u64 i2, const unsigned int nr)
{
	const __m512i want = _mm512_mask_blend_epi64(0xaa, _mm512_set1_epi64((long long)i1),
						     _mm512_set1_epi64((long long)i2));
	const __m512i inc = _mm512_set1_epi64(1);
	__m512i acc[BNI_MAX_REGS], cur = _mm512_setzero_si512();
	unsigned int i, k;

#pragma GCC unroll 10
	for (k = 0; k < nr; k++)
		acc[k] = _mm512_setzero_si512();
	for (i = 0; i < cnt; i++, table++) {
		/* the even lanes where i = i1, the odd ones where i = i2 */
		__mmask8 sel = _mm512_cmpeq_epu64_mask(cur, want);

#pragma GCC unroll 10
		for (k = 0; k < nr; k++)
			acc[k] = _mm512_mask_blend_epi64(sel, acc[k],
					_mm512_load_si512((const void *)(table->w + 8 * k)));
		cur = _mm512_add_epi64(cur, inc);
	}
#pragma GCC unroll 10
	for (k = 0; k < nr; k++)
		_mm512_store_si512((void *)(r->w + 8 * k), acc[k]);
}

#define SELECT_SIZE(nr)								\
static BNI_TARGET void select##nr(struct bni_num *r, const struct bni_num *t,	\
				  unsigned int cnt, u64 i1, u64 i2)		\
{										\
	select_run(r, t, cnt, i1, i2, nr);					\
}
SELECT_SIZE(5)
SELECT_SIZE(8)
SELECT_SIZE(10)

void bni_select(struct bni_num *r, const struct bni_num *table, unsigned int cnt,
		u64 i1, u64 i2, const struct bni_mont2 *c)
{
	if (c->nr == 5)
		select5(r, table, cnt, i1, i2);
	else if (c->nr == 8)
		select8(r, table, cnt, i1, i2);
	else
		select10(r, table, cnt, i1, i2);
}
