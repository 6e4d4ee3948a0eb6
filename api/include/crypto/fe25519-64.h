/* SPDX-License-Identifier: MIT */
/*
 * GF(2^255 - 19) on four 64-bit limbs (radix 2^64), the part that does not
 * depend on the CPU: the element type, constants, byte conversion, the
 * canonical reduction, masked swap and move, the sign and zero tests, the
 * inversion and the two exponent chains.  The arithmetic (fe_add, fe_sub,
 * fe_neg, fe_mul, fe_sq, fe_sqn, fe_mul_small) is each architecture's own,
 * in assembly: arch/x86/fe25519-mulx.h (MULX/ADX), arch/arm64/fe25519-arm64.h
 * (MUL/UMULH).  Such a header includes this one first, then defines the
 * arithmetic; the exponent chains below are declared over it.
 *
 * Elements are kept below 2^256 but not reduced below p; fe_canon and
 * fe_tobytes produce the canonical value.  Everything here is constant
 * time: masks, no branch and no address from the values.
 */
#ifndef _RIND_CRYPTO_FE25519_64_H
#define _RIND_CRYPTO_FE25519_64_H

#include <rind/types.h>
#include <rind/internal/util.h>

typedef struct {
	u64 v[4];
} fe;

/* The arithmetic, defined by the architecture's header after this one. */
static inline void fe_mul(fe *h, const fe *f, const fe *g);
static inline void fe_sq(fe *h, const fe *f);
static void fe_sqn(fe *h, const fe *f, int n);

static inline void fe_0(fe *h)
{
	h->v[0] = h->v[1] = h->v[2] = h->v[3] = 0;
}

static inline void fe_1(fe *h)
{
	h->v[0] = 1;
	h->v[1] = h->v[2] = h->v[3] = 0;
}

static inline void fe_copy(fe *h, const fe *f)
{
	*h = *f;
}

/* Bits 0..254 of s (bit 255 is ignored). */
static inline void fe_frombytes(fe *h, const u8 s[32])
{
	h->v[0] = get_unaligned_le64(s);
	h->v[1] = get_unaligned_le64(s + 8);
	h->v[2] = get_unaligned_le64(s + 16);
	h->v[3] = get_unaligned_le64(s + 24) & 0x7fffffffffffffffULL;
}

/* Add c (< 2^63) to the four limbs of t, returning the carry out. */
static inline u64 fe_add_small(u64 t[4], u64 c)
{
	unsigned __int128 acc = (unsigned __int128)t[0] + c;

	t[0] = (u64)acc;
	acc = (unsigned __int128)t[1] + (u64)(acc >> 64);
	t[1] = (u64)acc;
	acc = (unsigned __int128)t[2] + (u64)(acc >> 64);
	t[2] = (u64)acc;
	acc = (unsigned __int128)t[3] + (u64)(acc >> 64);
	t[3] = (u64)acc;
	return (u64)(acc >> 64);
}

/*
 * c = f reduced below p, as limbs, by masks: bit 255 is folded in as 19
 * (t < 2^255 + 38 afterwards), then t + 19 reaching 2^255 says t >= p and
 * selects t + 19 - 2^255 = t - p.
 */
static inline void fe_canon(u64 c[4], const fe *f)
{
	u64 t[4] = { f->v[0], f->v[1], f->v[2], f->v[3] };
	u64 g[4], top, m;
	int i;

	top = t[3] >> 63;
	t[3] &= 0x7fffffffffffffffULL;
	fe_add_small(t, 19 * top);
	for (i = 0; i < 4; i++)
		g[i] = t[i];
	fe_add_small(g, 19);
	m = 0 - (g[3] >> 63);
	g[3] &= 0x7fffffffffffffffULL;
	for (i = 0; i < 4; i++)
		c[i] = t[i] ^ (m & (t[i] ^ g[i]));
}

/* The canonical encoding (value reduced below p). */
static inline void fe_tobytes(u8 s[32], const fe *f)
{
	u64 c[4];
	int i;

	fe_canon(c, f);
	for (i = 0; i < 4; i++)
		put_unaligned_le64(c[i], s + 8 * i);
}

static inline void fe_cswap(fe *f, fe *g, u64 b)
{
	u64 m = 0 - b;

	for (int i = 0; i < 4; i++) {
		u64 t = m & (f->v[i] ^ g->v[i]);

		f->v[i] ^= t;
		g->v[i] ^= t;
	}
}

static inline void fe_cmov(fe *f, const fe *g, u64 b)
{
	u64 m = 0 - b;

	for (int i = 0; i < 4; i++)
		f->v[i] ^= m & (f->v[i] ^ g->v[i]);
}

/* The low bit of the canonical value. */
static inline int fe_isnegative(const fe *f)
{
	u64 c[4];

	fe_canon(c, f);
	return (int)(c[0] & 1);
}

static inline int fe_iszero(const fe *f)
{
	u64 c[4], acc;

	fe_canon(c, f);
	acc = c[0] | c[1] | c[2] | c[3];
	return (int)(((acc | (0 - acc)) >> 63) ^ 1);
}

/*
 * algs/curve25519.c: out = in^-1 mod p (0 for 0) for canonical limbs
 * (< p), constant time (Bernstein-Yang half-delta divsteps).
 */
void fe25519_invert_limbs(u64 out[4], const u64 in[4]);

/* h = 1/z (0 for z = 0), constant time */
static inline void fe_invert(fe *h, const fe *z)
{
	u64 c[4];

	fe_canon(c, z);
	fe25519_invert_limbs(h->v, c);
	memzero_explicit(c, sizeof(c));
}

/* z^(2^250 - 1), and z^11 on the way. */
static inline void fe_pow2_250_1(fe *t250, fe *z11, const fe *z)
{
	fe z2, z9, t, t5, t10, t20, t40, t50, t100;

	fe_sq(&z2, z);
	fe_sqn(&t, &z2, 2);
	fe_mul(&z9, &t, z);
	fe_mul(z11, &z9, &z2);
	fe_sq(&t, z11);
	fe_mul(&t5, &t, &z9);
	fe_sqn(&t, &t5, 5);
	fe_mul(&t10, &t, &t5);
	fe_sqn(&t, &t10, 10);
	fe_mul(&t20, &t, &t10);
	fe_sqn(&t, &t20, 20);
	fe_mul(&t40, &t, &t20);
	fe_sqn(&t, &t40, 10);
	fe_mul(&t50, &t, &t10);
	fe_sqn(&t, &t50, 50);
	fe_mul(&t100, &t, &t50);
	fe_sqn(&t, &t100, 100);
	fe_mul(&t, &t, &t100);
	fe_sqn(&t, &t, 50);
	fe_mul(t250, &t, &t50);
}

/* z^((p - 5) / 8) = z^(2^252 - 3) */
static inline void fe_pow22523(fe *h, const fe *z)
{
	fe t, z11;

	fe_pow2_250_1(&t, &z11, z);
	fe_sqn(&t, &t, 2);
	fe_mul(h, &t, z);
}

#endif /* _RIND_CRYPTO_FE25519_64_H */
