// SPDX-License-Identifier: MIT
/*
 * Inversion modulo p = 2^255 - 19 for the x86-64 field code
 * (fe25519-mulx.h), on four 64-bit limbs: out = in^-1 (0 for 0), constant
 * time.  It is the Bernstein-Yang gcd of algs/curve25519.c
 * (fe25519_invert_bytes) in its "half-delta" form (hddivsteps: delta
 * starts at 1/2 rather than 1), which needs fewer steps for the same
 * inputs: for f, g < 2^256, 590 hddivsteps always reach g = 0 (the bound
 * computed in Wuille's safegcd-bounds, the one libsecp256k1's constant-time
 * inversion runs on), against 738 divsteps in the general bound the
 * portable code uses.  Here: 10 rounds of 60 = 600 steps.
 *
 * hddivstep(delta, f, g), f odd, delta a half-integer:
 *   delta > 0 and g odd:  (1 - delta, g, (g - f) / 2)
 *   g odd:                (1 + delta, f, (g + f) / 2)
 *   otherwise:            (1 + delta, f, g / 2)
 * kept as zeta = -(delta + 1/2), an integer: delta > 0 exactly when
 * zeta < 0; 1 - delta gives zeta' = -zeta - 2 = ~zeta - 1 and 1 + delta
 * gives zeta' = zeta - 1, so zeta' = (zeta ^ swap) - 1 with the swap
 * mask.  Starting from (1/2, p, x): zeta = -1.
 *
 * The rest is as in the portable code: each round makes 2 x 30 steps on
 * the low 64 bits of f and g, with the pairs (u, v) and (q, r) of its
 * transition matrix packed lo + 2^32 hi in one word each, then applies
 * the matrix to f and g (five signed 60-bit limbs) and to d and e (f = d x,
 * g = e x mod p), dividing by 2^60 modulo p.  At the end x^-1 = +-d.
 */
#include <string.h>
#include <rind/types.h>
#include <rind/internal/util.h>
#include "fe25519-mulx.h"

#define INV_M60 ((u64)((1ULL << 60) - 1))

static const s64 inv_p60[5] = {
	0xfffffffffffffedLL, 0xfffffffffffffffLL, 0xfffffffffffffffLL, 0xfffffffffffffffLL, 0x7fffLL,
};
/* p^-1 mod 2^60 */
#define INV_PINV60 0x9435e50d79435e5ULL

typedef __int128 s128;

struct inv_mat {
	s64 u, v, q, r;
};

/* 30 hddivsteps on the low words. */
static s64 inv_hddivsteps30(s64 zeta, u64 f, u64 g, struct inv_mat *t)
{
	u64 uv = 1, qr = (u64)1 << 32;
	int i;

	for (i = 0; i < 30; i++) {
		u64 c1 = (u64)(zeta >> 63);		/* delta > 0 */
		u64 c2 = 0 - (g & 1);			/* g odd */
		u64 x = (f ^ c1) - c1;			/* -f when delta > 0 */
		u64 y = (uv ^ c1) - c1;
		u64 sw;

		g += x & c2;
		qr += y & c2;
		sw = c1 & c2;				/* the swapping case */
		zeta = (s64)(((u64)zeta ^ sw) - 1);
		f += g & sw;
		uv += qr & sw;
		g >>= 1;
		uv <<= 1;
	}
	t->u = (s32)uv;
	t->v = (s64)(uv - (u64)t->u) >> 32;
	t->q = (s32)qr;
	t->r = (s64)(qr - (u64)t->q) >> 32;
	return zeta;
}

/* (f, g) = M (f, g) / 2^60, exact. */
static void inv_update_fg(s64 f[5], s64 g[5], const struct inv_mat *t)
{
	s128 cf = (s128)t->u * f[0] + (s128)t->v * g[0];
	s128 cg = (s128)t->q * f[0] + (s128)t->r * g[0];
	int i;

	cf >>= 60;
	cg >>= 60;
	for (i = 1; i < 5; i++) {
		cf += (s128)t->u * f[i] + (s128)t->v * g[i];
		cg += (s128)t->q * f[i] + (s128)t->r * g[i];
		f[i - 1] = (s64)((u64)cf & INV_M60);
		g[i - 1] = (s64)((u64)cg & INV_M60);
		cf >>= 60;
		cg >>= 60;
	}
	f[4] = (s64)cf;
	g[4] = (s64)cg;
}

/* (d, e) = M (d, e) / 2^60 mod p; |d|, |e| grow by at most p per round. */
static void inv_update_de(s64 d[5], s64 e[5], const struct inv_mat *t)
{
	s128 cd = (s128)t->u * d[0] + (s128)t->v * e[0];
	s128 ce = (s128)t->q * d[0] + (s128)t->r * e[0];
	s64 md = (s64)(((0 - (u64)cd) * INV_PINV60) & INV_M60);
	s64 me = (s64)(((0 - (u64)ce) * INV_PINV60) & INV_M60);
	int i;

	cd += (s128)md * inv_p60[0];
	ce += (s128)me * inv_p60[0];
	cd >>= 60;
	ce >>= 60;
	for (i = 1; i < 5; i++) {
		cd += (s128)t->u * d[i] + (s128)t->v * e[i] + (s128)md * inv_p60[i];
		ce += (s128)t->q * d[i] + (s128)t->r * e[i] + (s128)me * inv_p60[i];
		d[i - 1] = (s64)((u64)cd & INV_M60);
		e[i - 1] = (s64)((u64)ce & INV_M60);
		cd >>= 60;
		ce >>= 60;
	}
	d[4] = (s64)cd;
	e[4] = (s64)ce;
}

void fe25519_invert_x86(u64 out[4], const u64 w[4])
{
	s64 f[5], g[5], d[5] = { 0 }, e[5] = { 1, 0, 0, 0, 0 }, zeta = -1;
	unsigned __int128 acc;
	u64 o[4], t[4], top, m, sgn;
	struct inv_mat t1, t2, mt;
	s128 c = 0;
	int i;

	memcpy(f, inv_p60, sizeof(f));
	g[0] = (s64)(w[0] & INV_M60);
	g[1] = (s64)((w[0] >> 60 | w[1] << 4) & INV_M60);
	g[2] = (s64)((w[1] >> 56 | w[2] << 8) & INV_M60);
	g[3] = (s64)((w[2] >> 52 | w[3] << 12) & INV_M60);
	g[4] = (s64)(w[3] >> 48);
	for (i = 0; i < 10; i++) {
		u64 flo = (u64)f[0] | (u64)f[1] << 60, glo = (u64)g[0] | (u64)g[1] << 60;
		u64 f1, g1;

		zeta = inv_hddivsteps30(zeta, flo, glo, &t1);
		f1 = ((u64)t1.u * flo + (u64)t1.v * glo) >> 30;
		g1 = ((u64)t1.q * flo + (u64)t1.r * glo) >> 30;
		zeta = inv_hddivsteps30(zeta, f1, g1, &t2);
		mt.u = t2.u * t1.u + t2.v * t1.q;
		mt.v = t2.u * t1.v + t2.v * t1.r;
		mt.q = t2.q * t1.u + t2.r * t1.q;
		mt.r = t2.q * t1.v + t2.r * t1.r;
		inv_update_fg(f, g, &mt);
		inv_update_de(d, e, &mt);
	}
	/* x^-1 = d * f with f = +-1; then + 16p makes it positive, below 2^260. */
	sgn = (u64)(f[4] >> 63);
	for (i = 0; i < 5; i++) {
		c += (s128)(s64)(((u64)d[i] ^ sgn) - sgn) + (s128)16 * inv_p60[i];
		d[i] = (s64)((u64)c & INV_M60);
		c >>= 60;
	}
	acc = (u64)d[0] | (unsigned __int128)(u64)d[1] << 60;
	o[0] = (u64)acc;
	acc >>= 64;
	acc |= (unsigned __int128)(u64)d[2] << 56;
	o[1] = (u64)acc;
	acc >>= 64;
	acc |= (unsigned __int128)(u64)d[3] << 52;
	o[2] = (u64)acc;
	acc >>= 64;
	acc |= (unsigned __int128)(u64)d[4] << 48;
	o[3] = (u64)acc;
	acc >>= 64;
	/* Fold the bits from 2^255 up (times 19), then subtract p if >= p. */
	top = o[3] >> 63 | (u64)acc << 1;
	o[3] &= 0x7fffffffffffffffULL;
	acc = (unsigned __int128)o[0] + 19 * top;
	o[0] = (u64)acc;
	for (i = 1; i < 4; i++) {
		acc = (acc >> 64) + o[i];
		o[i] = (u64)acc;
	}
	acc = (unsigned __int128)o[0] + 19;
	t[0] = (u64)acc;
	for (i = 1; i < 4; i++) {
		acc = (acc >> 64) + o[i];
		t[i] = (u64)acc;
	}
	m = 0 - (t[3] >> 63);
	t[3] &= 0x7fffffffffffffffULL;
	for (i = 0; i < 4; i++)
		out[i] = o[i] ^ (m & (o[i] ^ t[i]));
	memzero_explicit(f, sizeof(f));
	memzero_explicit(g, sizeof(g));
	memzero_explicit(d, sizeof(d));
	memzero_explicit(e, sizeof(e));
	memzero_explicit(o, sizeof(o));
	memzero_explicit(t, sizeof(t));
	memzero_explicit(&t1, sizeof(t1));
	memzero_explicit(&t2, sizeof(t2));
	memzero_explicit(&mt, sizeof(mt));
}
