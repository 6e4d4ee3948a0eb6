/* SPDX-License-Identifier: MIT */
/*
 * Inversion modulo p = 2^255 - 19 by Bernstein and Yang's half-delta
 * divsteps (algs/curve25519.c explains the method), written once for the
 * portable batches (algs/curve25519.c: fe25519_invert_limbs) and the x86
 * ones (arch/x86/fe25519-inv-x86.c, the steps of ecc-divsteps-x86.h): the
 * state in five signed 60-bit limbs, each round's matrix applied to f, g,
 * d and e, and the final reduction.  A caller gives its 60-step batch;
 * fe25519_invert_with() is inlined into it, so the batch is a direct call
 * (inlined too when the batch is static inline).  Constant time: the
 * sequence of operations depends on nothing but the input's length.
 */
#ifndef _RIND_CRYPTO_FE25519_INV_H
#define _RIND_CRYPTO_FE25519_INV_H

#include <string.h>
#include <rind/internal/util.h>
#include <crypto/divsteps-mat.h>

#define FE_INV_M60 ((u64)((1ULL << 60) - 1))

/* p in five signed limbs of 60 bits */
static const s64 fe_inv_p60[5] = {
	0xfffffffffffffedLL, 0xfffffffffffffffLL, 0xfffffffffffffffLL, 0xfffffffffffffffLL, 0x7fffLL,
};
/* p^-1 mod 2^60 */
#define FE_INV_PINV60 0x9435e50d79435e5ULL

typedef __int128 fe_inv_s128;

/*
 * 60 hddivsteps on the low 64 bits of f and g, from @zeta; the matrix M
 * with 2^60 (f', g') = M (f, g) to @m; returns the new zeta.
 */
typedef s64 (*fe25519_steps60_fn)(s64 zeta, u64 f, u64 g, struct ecc_by_mat *m);

/* (f, g) = M (f, g) / 2^60, exact. */
static inline void fe25519_inv_update_fg(s64 f[5], s64 g[5], const struct ecc_by_mat *t)
{
	fe_inv_s128 cf = (fe_inv_s128)t->u * f[0] + (fe_inv_s128)t->v * g[0];
	fe_inv_s128 cg = (fe_inv_s128)t->q * f[0] + (fe_inv_s128)t->r * g[0];
	int i;

	cf >>= 60;
	cg >>= 60;
	for (i = 1; i < 5; i++) {
		cf += (fe_inv_s128)t->u * f[i] + (fe_inv_s128)t->v * g[i];
		cg += (fe_inv_s128)t->q * f[i] + (fe_inv_s128)t->r * g[i];
		f[i - 1] = (s64)((u64)cf & FE_INV_M60);
		g[i - 1] = (s64)((u64)cg & FE_INV_M60);
		cf >>= 60;
		cg >>= 60;
	}
	f[4] = (s64)cf;
	g[4] = (s64)cg;
}

/*
 * (d, e) = M (d, e) / 2^60 mod p; |d|, |e| grow by at most p per round.
 * m p with m < 2^60 is added as -19 m at 2^0 and m 2^15 at 2^240.
 */
static inline void fe25519_inv_update_de(s64 d[5], s64 e[5], const struct ecc_by_mat *t)
{
	fe_inv_s128 cd = (fe_inv_s128)t->u * d[0] + (fe_inv_s128)t->v * e[0];
	fe_inv_s128 ce = (fe_inv_s128)t->q * d[0] + (fe_inv_s128)t->r * e[0];
	s64 md = (s64)(((0 - (u64)cd) * FE_INV_PINV60) & FE_INV_M60);
	s64 me = (s64)(((0 - (u64)ce) * FE_INV_PINV60) & FE_INV_M60);
	int i;

	cd -= (fe_inv_s128)md * 19;
	ce -= (fe_inv_s128)me * 19;
	cd >>= 60;
	ce >>= 60;
	for (i = 1; i < 5; i++) {
		cd += (fe_inv_s128)t->u * d[i] + (fe_inv_s128)t->v * e[i];
		ce += (fe_inv_s128)t->q * d[i] + (fe_inv_s128)t->r * e[i];
		if (i == 4) {
			cd += (fe_inv_s128)md << 15;
			ce += (fe_inv_s128)me << 15;
		}
		d[i - 1] = (s64)((u64)cd & FE_INV_M60);
		e[i - 1] = (s64)((u64)ce & FE_INV_M60);
		cd >>= 60;
		ce >>= 60;
	}
	d[4] = (s64)cd;
	e[4] = (s64)ce;
}

static inline __attribute__((always_inline)) void
fe25519_invert_with(u64 out[4], const u64 w[4], fe25519_steps60_fn steps60)
{
	s64 f[5], g[5], d[5] = { 0 }, e[5] = { 1, 0, 0, 0, 0 }, zeta = -1;
	unsigned __int128 acc;
	u64 o[4], t[4], top, m, sgn;
	struct ecc_by_mat mt;
	fe_inv_s128 c = 0;
	int i;

	memcpy(f, fe_inv_p60, sizeof(f));
	g[0] = (s64)(w[0] & FE_INV_M60);
	g[1] = (s64)((w[0] >> 60 | w[1] << 4) & FE_INV_M60);
	g[2] = (s64)((w[1] >> 56 | w[2] << 8) & FE_INV_M60);
	g[3] = (s64)((w[2] >> 52 | w[3] << 12) & FE_INV_M60);
	g[4] = (s64)(w[3] >> 48);
	/* 10 rounds of 60: 600 >= 590 hddivsteps, the bound for 256 bits */
	for (i = 0; i < 10; i++) {
		zeta = steps60(zeta, (u64)f[0] | (u64)f[1] << 60, (u64)g[0] | (u64)g[1] << 60, &mt);
		fe25519_inv_update_fg(f, g, &mt);
		fe25519_inv_update_de(d, e, &mt);
	}
	/* x^-1 = d * f with f = +-1; then + 16p makes it positive, below 2^260. */
	sgn = (u64)(f[4] >> 63);
	for (i = 0; i < 5; i++) {
		c += (fe_inv_s128)(s64)(((u64)d[i] ^ sgn) - sgn) + (fe_inv_s128)16 * fe_inv_p60[i];
		d[i] = (s64)((u64)c & FE_INV_M60);
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
	memzero_explicit(&mt, sizeof(mt));
}

#endif /* _RIND_CRYPTO_FE25519_INV_H */
