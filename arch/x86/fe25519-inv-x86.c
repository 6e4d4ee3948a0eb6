// SPDX-License-Identifier: MIT
/*
 * Inversion modulo p = 2^255 - 19 for the x86-64 radix-2^64 field code
 * (fe25519-mulx.h routes fe_invert here): the half-delta divsteps of
 * algs/curve25519.c's fe25519_invert_limbs (same result, same contract:
 * canonical input below p, 0 for 0, constant time), with the steps
 * themselves done in fewer instructions.  Baseline x86-64 only (BT,
 * CMOV, LEA).
 *
 * Why.  In fe25519_invert_limbs each step updates f, g, zeta and the two
 * packed matrix rows separately, ~22 ALU operations; 600 of them are ~3/4
 * of an inversion, and an inversion ~20% of an Ed25519 signature.  Here
 * a batch of 20 steps carries the matrix inside f and g themselves:
 *
 *   F = u + 2^22 v + 2^44 (u f0 + v g0)     (mod 2^64)
 *   G = q + 2^22 r + 2^44 (q f0 + r g0)
 *
 * i.e. the linear forms of the matrix evaluated at f0 := 1 + 2^44 f0 and
 * g0 := 2^22 + 2^44 g0 (low 20 bits of f and g; no more decide 20
 * steps).  In the "scaled" form, where step i holds 2^i f_i and 2^i g_i,
 * every step is linear without a division:
 *
 *   delta > 0, g odd:  (F, G) = (2G, G - F),  delta = 1 - delta
 *   g odd:             (F, G) = (2F, G + F),  delta = 1 + delta
 *   g even:            (F, G) = (2F, G),      delta = 1 + delta
 *
 * so one add or subtract and one doubling move f, g and both matrix rows
 * at once, and the parity of g_i is bit 44 + i of G (the low bits of
 * 2^i g_i are 0).  The matrix fields are signed and below 2^20 + 2^42 in
 * magnitude, so G is kept biased by 2^43: no borrow from them reaches
 * bit 44.  A step is then 13 operations (bt, three lea, two sub, five
 * cmov, sar, xor/dec), the bit index an immediate.  After the batch the
 * entries are read out of the low 44 bits, and the next batch starts
 * from the low words of M (f, g) / 2^20.  Three batches make the 60-step
 * matrix applied to the full f, g, d, e as in algs/curve25519.c.
 */
#include <string.h>
#include <rind/types.h>
#include <rind/internal/util.h>
#include "fe25519-inv-x86.h"

#define INV_M60 ((u64)((1ULL << 60) - 1))

typedef __int128 s128;

static const s64 inv_p60[5] = {
	0xfffffffffffffedLL, 0xfffffffffffffffLL, 0xfffffffffffffffLL, 0xfffffffffffffffLL, 0x7fffLL,
};
/* p^-1 mod 2^60 */
#define INV_PINV60 0x9435e50d79435e5ULL

struct inv_mat {
	s64 u, v, q, r;
};

/*
 * One step: F in \pf, biased G in \b; the new ones in \nf, \nb.  bt puts
 * g's parity in CF; y = (g odd ? zeta : 0) >> 63 is the swap mask (its SF
 * selects); zeta' = (zeta ^ swap) - 1 as in fe25519_invert_limbs.
 */
#define HD_STEP(k, pf, b, nf, nb)					\
	"movq " b ", %[d]\n\t"						\
	"subq " pf ", %[d]\n\t"		/* G - F */			\
	"leaq (" b "," b "), %[g2]\n\t"					\
	"subq %[c44], %[g2]\n\t"	/* 2G, unbiased */		\
	"leaq (" b "," pf "), " nb "\n\t"	/* G + F */		\
	"leaq (" pf "," pf "), " nf "\n\t"	/* 2F */		\
	"movq %[z], %[y]\n\t"						\
	"btq $" #k ", " b "\n\t"					\
	"cmovncq " b ", " nb "\n\t"	/* g even: G */			\
	"cmovncq %[zero], %[y]\n\t"					\
	"sarq $63, %[y]\n\t"						\
	"cmovsq %[d], " nb "\n\t"	/* swap: G - F, 2G */		\
	"cmovsq %[g2], " nf "\n\t"					\
	"xorq %[y], %[z]\n\t"						\
	"decq %[z]\n\t"

#define HD_STEP2(k0, k1)						\
	HD_STEP(k0, "%[f0]", "%[b0]", "%[f1]", "%[b1]")			\
	HD_STEP(k1, "%[f1]", "%[b1]", "%[f0]", "%[b0]")

/* 20 hddivsteps on the low 20 bits of f and g; 2^20 (f', g') = M (f, g). */
static inline s64 inv_steps20(s64 zeta, u64 f, u64 g, struct inv_mat *t)
{
	u64 f0 = 1 + (f << 44), b0 = ((u64)1 << 22) + (g << 44) + ((u64)1 << 43);
	u64 f1, b1, d, g2, y;
	s64 u, v, q, r;

	__asm__("" HD_STEP2(44, 45) HD_STEP2(46, 47) HD_STEP2(48, 49) HD_STEP2(50, 51)
		HD_STEP2(52, 53) HD_STEP2(54, 55) HD_STEP2(56, 57) HD_STEP2(58, 59)
		HD_STEP2(60, 61) HD_STEP2(62, 63)
		: [f0] "+r"(f0), [b0] "+r"(b0), [f1] "=&r"(f1), [b1] "=&r"(b1), [d] "=&r"(d),
		  [g2] "=&r"(g2), [y] "=&r"(y), [z] "+r"(zeta)
		: [zero] "r"((u64)0), [c44] "r"((u64)1 << 44)
		: "cc");
	b0 -= (u64)1 << 43;
	u = (s64)(f0 << 42) >> 42;
	v = (s64)((f0 - (u64)u) << 20) >> 42;
	q = (s64)(b0 << 42) >> 42;
	r = (s64)((b0 - (u64)q) << 20) >> 42;
	t->u = u;
	t->v = v;
	t->q = q;
	t->r = r;
	return zeta;
}

/* b = a * b: (a applied after b) */
static inline void inv_mat_mul(struct inv_mat *b, const struct inv_mat *a)
{
	s64 u = a->u * b->u + a->v * b->q;
	s64 v = a->u * b->v + a->v * b->r;
	s64 q = a->q * b->u + a->r * b->q;
	s64 r = a->q * b->v + a->r * b->r;

	b->u = u;
	b->v = v;
	b->q = q;
	b->r = r;
}

/* 60 hddivsteps on the low words of f and g. */
static inline s64 inv_steps60(s64 zeta, u64 f, u64 g, struct inv_mat *m)
{
	struct inv_mat t;
	u64 f1, g1;

	zeta = inv_steps20(zeta, f, g, m);
	f1 = ((u64)m->u * f + (u64)m->v * g) >> 20;
	g1 = ((u64)m->q * f + (u64)m->r * g) >> 20;
	zeta = inv_steps20(zeta, f1, g1, &t);
	f = ((u64)t.u * f1 + (u64)t.v * g1) >> 20;
	g = ((u64)t.q * f1 + (u64)t.r * g1) >> 20;
	inv_mat_mul(m, &t);
	zeta = inv_steps20(zeta, f, g, &t);
	inv_mat_mul(m, &t);
	memzero_explicit(&t, sizeof(t));
	return zeta;
}

/* (f, g) = M (f, g) / 2^60, exact. */
static inline void inv_update_fg(s64 f[5], s64 g[5], const struct inv_mat *t)
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

/*
 * (d, e) = M (d, e) / 2^60 mod p; m p with m < 2^60 is added as -19 m at
 * 2^0 and m 2^15 at 2^240.
 */
static inline void inv_update_de(s64 d[5], s64 e[5], const struct inv_mat *t)
{
	s128 cd = (s128)t->u * d[0] + (s128)t->v * e[0];
	s128 ce = (s128)t->q * d[0] + (s128)t->r * e[0];
	s64 md = (s64)(((0 - (u64)cd) * INV_PINV60) & INV_M60);
	s64 me = (s64)(((0 - (u64)ce) * INV_PINV60) & INV_M60);
	int i;

	cd -= (s128)md * 19;
	ce -= (s128)me * 19;
	cd >>= 60;
	ce >>= 60;
	for (i = 1; i < 5; i++) {
		cd += (s128)t->u * d[i] + (s128)t->v * e[i];
		ce += (s128)t->q * d[i] + (s128)t->r * e[i];
		if (i == 4) {
			cd += (s128)md << 15;
			ce += (s128)me << 15;
		}
		d[i - 1] = (s64)((u64)cd & INV_M60);
		e[i - 1] = (s64)((u64)ce & INV_M60);
		cd >>= 60;
		ce >>= 60;
	}
	d[4] = (s64)cd;
	e[4] = (s64)ce;
}

void fe25519_invert_limbs_x86(u64 out[4], const u64 w[4])
{
	s64 f[5], g[5], d[5] = { 0 }, e[5] = { 1, 0, 0, 0, 0 }, zeta = -1;
	unsigned __int128 acc;
	u64 o[4], t[4], top, m, sgn;
	struct inv_mat mt;
	s128 c = 0;
	int i;

	memcpy(f, inv_p60, sizeof(f));
	g[0] = (s64)(w[0] & INV_M60);
	g[1] = (s64)((w[0] >> 60 | w[1] << 4) & INV_M60);
	g[2] = (s64)((w[1] >> 56 | w[2] << 8) & INV_M60);
	g[3] = (s64)((w[2] >> 52 | w[3] << 12) & INV_M60);
	g[4] = (s64)(w[3] >> 48);
	/* 10 rounds of 60: 600 >= 590 hddivsteps, the bound for 256 bits */
	for (i = 0; i < 10; i++) {
		zeta = inv_steps60(zeta, (u64)f[0] | (u64)f[1] << 60, (u64)g[0] | (u64)g[1] << 60,
				   &mt);
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
	memzero_explicit(&mt, sizeof(mt));
}
