/* SPDX-License-Identifier: MIT */
/*
 * Bernstein and Yang's divsteps on the low words of f and g in the
 * "half-delta" form (delta starts at 1/2, kept as zeta = -(delta + 1/2)),
 * for ecc-inv.h's ecc_by_inv_with(): the x86 P-256 and P-384 drivers'
 * inversions, which differ only in how many batches their size needs.
 * Baseline x86-64 only (BT, CMOV, LEA); branch-free, the sequence of
 * instructions fixed.  Also the 60-step batch of the curve25519
 * inversion (fe25519-inv-x86.c: ecc_x86_divsteps60).
 *
 * A batch here is 60 steps, not ecc-inv.h's 62: three runs of 20 in
 * which the matrix rides inside f and g themselves (the technique of
 * arch/x86/fe25519-inv-x86.c, which explains it in full):
 *
 *   F = u + 2^22 v + 2^44 (u f0 + v g0)     (mod 2^64)
 *   G = q + 2^22 r + 2^44 (q f0 + r g0)     (kept biased by 2^43)
 *
 * with f0, g0 the low 20 bits of f and g.  In the scaled form (step i
 * holds 2^i f_i, 2^i g_i) a step is linear: swap (delta > 0, g odd):
 * (F, G) = (2G, G - F); g odd: (2F, G + F); g even: (2F, G); the parity
 * of g_i is bit 44 + i of G.  15 operations a step against ~22 when
 * f, g, zeta and the two matrix rows are updated separately, and no chain
 * longer than 3: G -> bt -> cmov -> cmov, G -> shl -> and -> cmov (the
 * swap flag is the sign of (G << (63 - k)) & zeta), zeta -> not -> lea ->
 * cmov (both next values of zeta made before the flag selects one).
 * (A 13-operation form, the swap flag from RORX/ANDN and mu = ~zeta
 * updated as -mu or mu + 1, measured 2-6% slower on Zen 3.)  The 60-step
 * matrix M (|u| + |v|, |q| + |r| <= 2^60) is handed back as 4 M, so that
 * ecc-inv.h's 2^62 (f', g') = M' (f, g) and its bounds (entries' sums
 * <= 2^62) hold unchanged; the callers run enough batches of 60 for their
 * bound (P-256: 10 x 60 = 600 >= 590; P-384: 15 x 60 = 900 >= 885).
 */
#ifndef _RIND_X86_ECC_DIVSTEPS_H
#define _RIND_X86_ECC_DIVSTEPS_H

#include <crypto/divsteps-mat.h>

/*
 * One step: F in \pf, biased G in \b; the new ones in \nf, \nb.  bt puts
 * g's parity (bit k) in CF for the even case; y = G << (63 - k) has it in
 * the sign, and y & zeta's sign is the swap flag (delta > 0 and g odd).
 * zeta' = ~zeta - 1 on a swap, zeta - 1 otherwise.
 */
#define ECC_X86_HD_STEP(k, pf, b, nf, nb)				\
	"movq " b ", %[d]\n\t"						\
	"subq " pf ", %[d]\n\t"		/* G - F */			\
	"leaq (" b "," b "), %[g2]\n\t"					\
	"subq %[c44], %[g2]\n\t"	/* 2G, bias restored */		\
	"leaq (" b "," pf "), " nb "\n\t"	/* G + F */		\
	"leaq (" pf "," pf "), " nf "\n\t"	/* 2F */		\
	"movq " b ", %[y]\n\t"						\
	"shlq $(63 - " #k "), %[y]\n\t"	/* sign: g odd */	\
	"leaq -1(%[z]), %[za]\n\t"	/* zeta - 1 */			\
	"btq $" #k ", " b "\n\t"					\
	"cmovncq " b ", " nb "\n\t"	/* g even: G */			\
	"andq %[z], %[y]\n\t"		/* sign: swap */		\
	"cmovsq %[d], " nb "\n\t"	/* swap: G - F, 2G */		\
	"cmovsq %[g2], " nf "\n\t"					\
	"notq %[z]\n\t"						\
	"leaq -1(%[z]), %[z]\n\t"	/* ~zeta - 1 */			\
	"cmovnsq %[za], %[z]\n\t"

#define ECC_X86_HD_STEP2(k0, k1)					\
	ECC_X86_HD_STEP(k0, "%[f0]", "%[b0]", "%[f1]", "%[b1]")		\
	ECC_X86_HD_STEP(k1, "%[f1]", "%[b1]", "%[f0]", "%[b0]")

/* 20 steps on the low 20 bits of f and g; 2^20 (f', g') = M (f, g). */
static inline s64 ecc_x86_steps20(s64 zeta, u64 f, u64 g, struct ecc_by_mat *t)
{
	u64 f0 = 1 + (f << 44), b0 = ((u64)1 << 22) + (g << 44) + ((u64)1 << 43);
	u64 f1, b1, d, g2, y, za;
	s64 u, v, q, r;

	__asm__("" ECC_X86_HD_STEP2(44, 45) ECC_X86_HD_STEP2(46, 47) ECC_X86_HD_STEP2(48, 49)
		ECC_X86_HD_STEP2(50, 51) ECC_X86_HD_STEP2(52, 53) ECC_X86_HD_STEP2(54, 55)
		ECC_X86_HD_STEP2(56, 57) ECC_X86_HD_STEP2(58, 59) ECC_X86_HD_STEP2(60, 61)
		ECC_X86_HD_STEP2(62, 63)
		: [f0] "+r"(f0), [b0] "+r"(b0), [f1] "=&r"(f1), [b1] "=&r"(b1), [d] "=&r"(d),
		  [g2] "=&r"(g2), [y] "=&r"(y), [za] "=&r"(za), [z] "+r"(zeta)
		: [c44] "r"((u64)1 << 44)
		: "cc");
	b0 -= (u64)1 << 43;
	/* the entries: signed fields of 22 bits at 0 and 22 */
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

/* b = a * b (a applied after b) */
static inline void ecc_x86_mat_mul(struct ecc_by_mat *b, const struct ecc_by_mat *a)
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

/*
 * 60 steps on the low words of f and g: 2^60 (f', g') = M (f, g).  After
 * each run of 20 the next starts from (M (f, g)) / 2^20 on 64-bit words:
 * 44 and then 24 low bits of those are exact, more than the 20 a run
 * reads.
 */
static inline s64 ecc_x86_divsteps60(s64 zeta, u64 f, u64 g, struct ecc_by_mat *m)
{
	struct ecc_by_mat t;
	u64 f1, g1;

	zeta = ecc_x86_steps20(zeta, f, g, m);
	f1 = ((u64)m->u * f + (u64)m->v * g) >> 20;
	g1 = ((u64)m->q * f + (u64)m->r * g) >> 20;
	zeta = ecc_x86_steps20(zeta, f1, g1, &t);
	f = ((u64)t.u * f1 + (u64)t.v * g1) >> 20;
	g = ((u64)t.q * f1 + (u64)t.r * g1) >> 20;
	ecc_x86_mat_mul(m, &t);
	zeta = ecc_x86_steps20(zeta, f, g, &t);
	ecc_x86_mat_mul(m, &t);
	/*
	 * No wipe of t here: like f and g it is a scalar temporary once
	 * inlined (a memzero_explicit would force it to the stack, 2-5% of
	 * the inversion); the caller wipes the matrix it keeps.
	 */
	return zeta;
}

/* The same 60 steps returned as 4 M, for ecc-inv.h's 62-step scale: 2^62 (f', g') = (4 M) (f, g). */
static inline s64 ecc_x86_divsteps(s64 zeta, u64 f, u64 g, struct ecc_by_mat *m)
{
	zeta = ecc_x86_divsteps60(zeta, f, g, m);
	m->u *= 4;
	m->v *= 4;
	m->q *= 4;
	m->r *= 4;
	return zeta;
}

#endif /* _RIND_X86_ECC_DIVSTEPS_H */
