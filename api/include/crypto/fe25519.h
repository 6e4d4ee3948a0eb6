/* SPDX-License-Identifier: MIT */
/*
 * Arithmetic in GF(2^255 - 19), portable C: five 64-bit limbs of radix
 * 2^51 with unsigned __int128 products.  Shared by the generic X25519
 * (algs/curve25519.c) and Ed25519 (algs/ed25519.c); the x86-64 drivers
 * have the same interface in arch/x86/fe25519-mulx.h (radix 2^64), so the
 * curve code in api/include/crypto/ed25519-impl.h is written once over either.
 *
 * Every function is constant-time: no branch or memory index depends on
 * the values.  Bounds: a field element is "loose" when each limb is below
 * 2^54; fe_mul/fe_sq accept loose inputs; every function returns "tight"
 * elements (limbs below 2^51 + 2^15), so any result may feed any other
 * function.  Only fe_tobytes produces the canonical value (< p).
 */
#ifndef _RIND_ALGS_FE25519_H
#define _RIND_ALGS_FE25519_H

#include <rind/types.h>
#include <rind/internal/util.h>

typedef unsigned __int128 u128;

typedef struct {
	u64 v[5];
} fe;

#define FE_MASK51 ((1ULL << 51) - 1)

/* Constants as limb arrays. */
#define FE_INIT(a, b, c, d, e) { { a, b, c, d, e } }

static inline void fe_0(fe *h)
{
	h->v[0] = h->v[1] = h->v[2] = h->v[3] = h->v[4] = 0;
}

static inline void fe_1(fe *h)
{
	h->v[0] = 1;
	h->v[1] = h->v[2] = h->v[3] = h->v[4] = 0;
}

static inline void fe_copy(fe *h, const fe *f)
{
	*h = *f;
}

/* Propagate carries: limbs below 2^51 + 19 * 2^13 on loose input. */
static inline void fe_carry(fe *h)
{
	u64 c;

	c = h->v[0] >> 51; h->v[0] &= FE_MASK51; h->v[1] += c;
	c = h->v[1] >> 51; h->v[1] &= FE_MASK51; h->v[2] += c;
	c = h->v[2] >> 51; h->v[2] &= FE_MASK51; h->v[3] += c;
	c = h->v[3] >> 51; h->v[3] &= FE_MASK51; h->v[4] += c;
	c = h->v[4] >> 51; h->v[4] &= FE_MASK51; h->v[0] += c * 19;
}

static inline void fe_add(fe *h, const fe *f, const fe *g)
{
	for (int i = 0; i < 5; i++)
		h->v[i] = f->v[i] + g->v[i];
	fe_carry(h);
}

/* h = f - g, computed as f + 4p - g so that no limb goes negative. */
static inline void fe_sub(fe *h, const fe *f, const fe *g)
{
	h->v[0] = f->v[0] + 0x1fffffffffffb4ULL - g->v[0];
	h->v[1] = f->v[1] + 0x1ffffffffffffcULL - g->v[1];
	h->v[2] = f->v[2] + 0x1ffffffffffffcULL - g->v[2];
	h->v[3] = f->v[3] + 0x1ffffffffffffcULL - g->v[3];
	h->v[4] = f->v[4] + 0x1ffffffffffffcULL - g->v[4];
	fe_carry(h);
}

static inline void fe_neg(fe *h, const fe *f)
{
	fe z;

	fe_0(&z);
	fe_sub(h, &z, f);
}

/* Reduce the five 128-bit column sums of a product. */
static inline void fe_reduce128(fe *h, u128 t0, u128 t1, u128 t2, u128 t3, u128 t4)
{
	u64 r0, r1, r2, r3, r4, c;

	r0 = (u64)t0 & FE_MASK51; t1 += (u64)(t0 >> 51);
	r1 = (u64)t1 & FE_MASK51; t2 += (u64)(t1 >> 51);
	r2 = (u64)t2 & FE_MASK51; t3 += (u64)(t2 >> 51);
	r3 = (u64)t3 & FE_MASK51; t4 += (u64)(t3 >> 51);
	r4 = (u64)t4 & FE_MASK51; c = (u64)(t4 >> 51);
	r0 += c * 19;
	c = r0 >> 51; r0 &= FE_MASK51; r1 += c;
	h->v[0] = r0; h->v[1] = r1; h->v[2] = r2; h->v[3] = r3; h->v[4] = r4;
}

static inline void fe_mul(fe *h, const fe *f, const fe *g)
{
	u64 f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
	u64 g0 = g->v[0], g1 = g->v[1], g2 = g->v[2], g3 = g->v[3], g4 = g->v[4];
	u64 g1_19 = g1 * 19, g2_19 = g2 * 19, g3_19 = g3 * 19, g4_19 = g4 * 19;
	u128 t0, t1, t2, t3, t4;

	t0 = (u128)f0 * g0 + (u128)f1 * g4_19 + (u128)f2 * g3_19 + (u128)f3 * g2_19 + (u128)f4 * g1_19;
	t1 = (u128)f0 * g1 + (u128)f1 * g0 + (u128)f2 * g4_19 + (u128)f3 * g3_19 + (u128)f4 * g2_19;
	t2 = (u128)f0 * g2 + (u128)f1 * g1 + (u128)f2 * g0 + (u128)f3 * g4_19 + (u128)f4 * g3_19;
	t3 = (u128)f0 * g3 + (u128)f1 * g2 + (u128)f2 * g1 + (u128)f3 * g0 + (u128)f4 * g4_19;
	t4 = (u128)f0 * g4 + (u128)f1 * g3 + (u128)f2 * g2 + (u128)f3 * g1 + (u128)f4 * g0;
	fe_reduce128(h, t0, t1, t2, t3, t4);
}

static inline void fe_sq(fe *h, const fe *f)
{
	u64 f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
	u64 f0_2 = f0 * 2, f1_2 = f1 * 2, f2_2 = f2 * 2;
	u64 f3_19 = f3 * 19, f4_19 = f4 * 19;
	u128 t0, t1, t2, t3, t4;

	t0 = (u128)f0 * f0 + (u128)f1_2 * f4_19 + (u128)f2_2 * f3_19;
	t1 = (u128)f0_2 * f1 + (u128)f2_2 * f4_19 + (u128)f3 * f3_19;
	t2 = (u128)f0_2 * f2 + (u128)f1 * f1 + (u128)(f3 * 2) * f4_19;
	t3 = (u128)f0_2 * f3 + (u128)f1_2 * f2 + (u128)f4 * f4_19;
	t4 = (u128)f0_2 * f4 + (u128)f1_2 * f3 + (u128)f2 * f2;
	fe_reduce128(h, t0, t1, t2, t3, t4);
}

/*
 * h = f^(2^n), n >= 1.  Out of line: inlined, each of the ten runs of
 * squarings in the exponent chains below was its own copy of the loop,
 * compiled (at some cost: 128-bit products) ten times for one call per
 * run saved.
 */
static __attribute__((noinline, unused)) void fe_sqn(fe *h, const fe *f, int n)
{
	fe_sq(h, f);
	while (--n > 0)
		fe_sq(h, h);
}

/* h = f * c for a small constant c < 2^20 */
static inline void fe_mul_small(fe *h, const fe *f, u32 c)
{
	u128 t0 = (u128)f->v[0] * c, t1 = (u128)f->v[1] * c, t2 = (u128)f->v[2] * c;
	u128 t3 = (u128)f->v[3] * c, t4 = (u128)f->v[4] * c;

	fe_reduce128(h, t0, t1, t2, t3, t4);
}

/* Bits 0..254 of s (bit 255 is ignored). */
static inline void fe_frombytes(fe *h, const u8 s[32])
{
	h->v[0] = get_unaligned_le64(s) & FE_MASK51;
	h->v[1] = (get_unaligned_le64(s + 6) >> 3) & FE_MASK51;
	h->v[2] = (get_unaligned_le64(s + 12) >> 6) & FE_MASK51;
	h->v[3] = (get_unaligned_le64(s + 19) >> 1) & FE_MASK51;
	h->v[4] = (get_unaligned_le64(s + 24) >> 12) & FE_MASK51;
}

/* The canonical encoding (value reduced below p). */
static inline void fe_tobytes(u8 s[32], const fe *f)
{
	fe h = *f;
	u64 q, c;

	fe_carry(&h);
	fe_carry(&h);
	/* Now h < 2^255 + 2^14: q = 1 exactly when h >= p. */
	q = (h.v[0] + 19) >> 51;
	q = (h.v[1] + q) >> 51;
	q = (h.v[2] + q) >> 51;
	q = (h.v[3] + q) >> 51;
	q = (h.v[4] + q) >> 51;
	h.v[0] += 19 * q;
	c = h.v[0] >> 51; h.v[0] &= FE_MASK51; h.v[1] += c;
	c = h.v[1] >> 51; h.v[1] &= FE_MASK51; h.v[2] += c;
	c = h.v[2] >> 51; h.v[2] &= FE_MASK51; h.v[3] += c;
	c = h.v[3] >> 51; h.v[3] &= FE_MASK51; h.v[4] += c;
	h.v[4] &= FE_MASK51;	/* drops the 2^255 that q * p removes */
	put_unaligned_le64(h.v[0] | h.v[1] << 51, s);
	put_unaligned_le64(h.v[1] >> 13 | h.v[2] << 38, s + 8);
	put_unaligned_le64(h.v[2] >> 26 | h.v[3] << 25, s + 16);
	put_unaligned_le64(h.v[3] >> 39 | h.v[4] << 12, s + 24);
}

/* Swap f and g when b == 1, leave them when b == 0, without branching. */
static inline void fe_cswap(fe *f, fe *g, u64 b)
{
	u64 m = 0 - b;

	for (int i = 0; i < 5; i++) {
		u64 t = m & (f->v[i] ^ g->v[i]);

		f->v[i] ^= t;
		g->v[i] ^= t;
	}
}

/* f = g when b == 1 */
static inline void fe_cmov(fe *f, const fe *g, u64 b)
{
	u64 m = 0 - b;

	for (int i = 0; i < 5; i++)
		f->v[i] ^= m & (f->v[i] ^ g->v[i]);
}

/* 1 if the canonical value is odd ("negative" in RFC 8032). */
static inline int fe_isnegative(const fe *f)
{
	u8 s[32];

	fe_tobytes(s, f);
	return s[0] & 1;
}

/* 1 if f == 0 (mod p), constant time. */
static inline int fe_iszero(const fe *f)
{
	u8 s[32];
	u64 acc = 0;

	fe_tobytes(s, f);
	for (int i = 0; i < 32; i++)
		acc |= s[i];
	return (int)(((acc | (0 - acc)) >> 63) ^ 1);
}

/*
 * z^(2^250 - 1) and z^11, the common prefix of the inversion and square
 * root exponent chains.
 */
static inline void fe_pow2_250_1(fe *t250, fe *z11, const fe *z)
{
	fe z2, z9, t, t5, t10, t20, t40, t50, t100;

	fe_sq(&z2, z);			/* 2 */
	fe_sqn(&t, &z2, 2);		/* 8 */
	fe_mul(&z9, &t, z);		/* 9 */
	fe_mul(z11, &z9, &z2);		/* 11 */
	fe_sq(&t, z11);			/* 22 */
	fe_mul(&t5, &t, &z9);		/* 2^5 - 1 */
	fe_sqn(&t, &t5, 5);
	fe_mul(&t10, &t, &t5);		/* 2^10 - 1 */
	fe_sqn(&t, &t10, 10);
	fe_mul(&t20, &t, &t10);		/* 2^20 - 1 */
	fe_sqn(&t, &t20, 20);
	fe_mul(&t40, &t, &t20);		/* 2^40 - 1 */
	fe_sqn(&t, &t40, 10);
	fe_mul(&t50, &t, &t10);		/* 2^50 - 1 */
	fe_sqn(&t, &t50, 50);
	fe_mul(&t100, &t, &t50);	/* 2^100 - 1 */
	fe_sqn(&t, &t100, 100);
	fe_mul(&t, &t, &t100);		/* 2^200 - 1 */
	fe_sqn(&t, &t, 50);
	fe_mul(t250, &t, &t50);		/* 2^250 - 1 */
}

/* algs/curve25519.c: constant-time inversion (Bernstein-Yang divsteps). */
void fe25519_invert_bytes(u8 out[32], const u8 in[32]);

/* h = 1/z (0 for z = 0), constant time */
static inline void fe_invert(fe *h, const fe *z)
{
	u8 s[32];

	fe_tobytes(s, z);
	fe25519_invert_bytes(s, s);
	fe_frombytes(h, s);
	memzero_explicit(s, sizeof(s));
}

/* h = z^((p - 5) / 8) = z^(2^252 - 3) */
static inline void fe_pow22523(fe *h, const fe *z)
{
	fe t, z11;

	fe_pow2_250_1(&t, &z11, z);
	fe_sqn(&t, &t, 2);		/* 2^252 - 4 */
	fe_mul(h, &t, z);		/* 2^252 - 3 */
}

#endif /* _RIND_ALGS_FE25519_H */
