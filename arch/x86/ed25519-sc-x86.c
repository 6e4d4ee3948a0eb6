// SPDX-License-Identifier: MIT
/*
 * Arithmetic modulo L = 2^252 + delta (delta < 2^125), the Ed25519 group
 * order, for the x86-64 MULX driver's signing (ed25519-mulx.c hands these
 * to algs/ed25519.c through struct ed25519_driver's sc_reduce and
 * sc_muladd): the same results as ed25519_sc_reduce and ed25519_sc_muladd,
 * constant time, with a reduction that uses the special form of L rather
 * than Barrett's.
 *
 * Why.  Barrett's reduction of a 512-bit value with 64-bit digits takes
 * 45 word products (q1 mu, then q3 L); a signature reduces two hashes and
 * one product.  Here 2^252 = -delta (mod L) folds the bits from 252 up:
 *
 *   x = a + 2^252 b  ->  a - delta b + 2^133 L   (b < 2^260: 10 products)
 *   y = a + 2^252 b  ->  a - delta b + 2^8 L     (b < 2^134:  6 products)
 *   z = a + 2^252 b  ->  a - delta b + L         (b < 2^9:    2 products)
 *
 * each multiple of L chosen just above delta b so that every
 * intermediate value stays non-negative (unsigned limbs throughout);
 * the last is below 2^252 + L < 2L, so one masked subtraction of L ends
 * it.  18 products instead of 45.
 */
#include <rind/types.h>
#include <rind/internal/util.h>
#include "ed25519-x86.h"

typedef unsigned __int128 u128;

#define SC_M60 ((u64)((1ULL << 60) - 1))	/* bits 192..251: limb 3's low 60 */

static const u64 sc_delta[2] = { 0x5812631a5cf5d3edULL, 0x14def9dea2f79cd6ULL };
static const u64 sc_l4[4] = { 0x5812631a5cf5d3edULL, 0x14def9dea2f79cd6ULL, 0, 1ULL << 60 };
/* 2^133 L and 2^8 L */
static const u64 sc_k1[7] = {
	0, 0, 0x024c634b9eba7da0ULL, 0x9bdf3bd45ef39acbULL, 2, 0, 2,
};
static const u64 sc_k2[5] = {
	0x12631a5cf5d3ed00ULL, 0xdef9dea2f79cd658ULL, 0x14, 0, 0x10,
};

/*
 * c[0 .. n + 1] = delta * b[0 .. n - 1]: after limb i, (c0, c1) is what
 * is pending at limbs i + 1 and i + 2.
 */
static inline __attribute__((always_inline)) void sc_mul_delta(u64 *c, const u64 *b, int n)
{
	u64 c0 = 0, c1 = 0;
	int i;

#pragma GCC unroll 8
	for (i = 0; i < n; i++) {
		u128 t = (u128)b[i] * sc_delta[0] + c0;

		c[i] = (u64)t;
		t = (u128)b[i] * sc_delta[1] + (t >> 64) + c1;
		c0 = (u64)t;
		c1 = (u64)(t >> 64);
	}
	c[n] = c0;
	c[n + 1] = c1;
}

/*
 * r[0 .. n - 1] = a (the low 252 bits of x, four limbs) + k - c, all n
 * limbs; the caller's k exceeds c, so no borrow leaves the top.
 */
static inline __attribute__((always_inline)) void sc_fold(u64 *r, const u64 a[4], const u64 *k, const u64 *c, int n)
{
	u128 acc = 0;
	s64 borrow = 0;
	int i;

#pragma GCC unroll 8
	for (i = 0; i < n; i++) {
		u128 s = (u128)(i < 4 ? a[i] : 0) + k[i] + (u64)acc;
		u128 d = (u128)(u64)s - c[i] + borrow;

		acc = s >> 64;
		r[i] = (u64)d;
		/* d's top: 0 or all ones (a borrow of 1) */
		borrow = (s64)(d >> 64);
	}
	(void)borrow;
}

/* The low 252 bits of x in a, x >> 252 (nb limbs) in b. */
static inline __attribute__((always_inline)) void sc_split(u64 a[4], u64 *b, const u64 *x, int nx, int nb)
{
	int i;

	a[0] = x[0];
	a[1] = x[1];
	a[2] = x[2];
	a[3] = x[3] & SC_M60;
#pragma GCC unroll 8
	for (i = 0; i < nb; i++)
		b[i] = (x[3 + i] >> 60) | (3 + i + 1 < nx ? x[3 + i + 1] << 4 : 0);
}

/* out = x mod L for x < 2^512 (eight limbs), constant time. */
static void sc_reduce_limbs(u8 out[32], const u64 x[8])
{
	u64 a[4], b[5], c[7], y[7], z[5], w[4], t[4];
	u64 borrow = 0, mask;
	int i;

	/* x = a + 2^252 b, b < 2^260; y = a + 2^133 L - delta b < 2^386 */
	sc_split(a, b, x, 8, 5);
	sc_mul_delta(c, b, 5);
	sc_fold(y, a, sc_k1, c, 7);
	/* y = a + 2^252 b, b < 2^134; z = a + 2^8 L - delta b < 2^261 */
	sc_split(a, b, y, 7, 3);
	sc_mul_delta(c, b, 3);
	sc_fold(z, a, sc_k2, c, 5);
	/* z = a + 2^252 b, b < 2^9; w = a + L - delta b < 2^252 + L */
	sc_split(a, b, z, 5, 1);
	sc_mul_delta(c, b, 1);
	c[3] = 0;
	sc_fold(w, a, sc_l4, c, 4);
	/* w < 2L: w - L when that does not borrow */
#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		u128 d = (u128)w[i] - sc_l4[i] - borrow;

		t[i] = (u64)d;
		borrow = (u64)(d >> 64) & 1;
	}
	mask = borrow - 1;	/* all ones: no borrow, w >= L */
#pragma GCC unroll 4
	for (i = 0; i < 4; i++)
		put_unaligned_le64(w[i] ^ (mask & (w[i] ^ t[i])), out + 8 * i);
	memzero_explicit(a, sizeof(a));
	memzero_explicit(b, sizeof(b));
	memzero_explicit(c, sizeof(c));
	memzero_explicit(y, sizeof(y));
	memzero_explicit(z, sizeof(z));
	memzero_explicit(w, sizeof(w));
	memzero_explicit(t, sizeof(t));
}

void ed25519_sc_reduce_x86(u8 out[32], const u8 in[64])
{
	u64 x[8];
	int i;

	for (i = 0; i < 8; i++)
		x[i] = get_unaligned_le64(in + 8 * i);
	sc_reduce_limbs(out, x);
	memzero_explicit(x, sizeof(x));
}

/* out = (a b + c) mod L for 32-byte a, b, c (each below 2^256). */
void ed25519_sc_muladd_x86(u8 out[32], const u8 a[32], const u8 b[32], const u8 c[32])
{
	u64 al[4], bl[4], x[8];
	u128 acc;
	int i, j;

	for (i = 0; i < 4; i++) {
		al[i] = get_unaligned_le64(a + 8 * i);
		bl[i] = get_unaligned_le64(b + 8 * i);
		x[i] = get_unaligned_le64(c + 8 * i);
		x[i + 4] = 0;
	}
	/* a b + c < 2^512 */
#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		u64 carry = 0;

#pragma GCC unroll 4
		for (j = 0; j < 4; j++) {
			acc = (u128)al[i] * bl[j] + x[i + j] + carry;
			x[i + j] = (u64)acc;
			carry = (u64)(acc >> 64);
		}
#pragma GCC unroll 4
		for (j = i + 4; j < 8; j++) {
			acc = (u128)x[j] + carry;
			x[j] = (u64)acc;
			carry = (u64)(acc >> 64);
		}
	}
	sc_reduce_limbs(out, x);
	memzero_explicit(al, sizeof(al));
	memzero_explicit(bl, sizeof(bl));
	memzero_explicit(x, sizeof(x));
}
