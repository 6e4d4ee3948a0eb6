/* SPDX-License-Identifier: MIT */
/*
 * 62 of Bernstein and Yang's divsteps on the low words of f and g in the
 * "half-delta" form (delta starts at 1/2, kept as zeta = -(delta + 1/2)),
 * for ecc-inv.h's ecc_by_inv_with(): the x86 P-256 and P-384 drivers'
 * inversions, which differ only in how many batches their size needs.
 * The scalar registers carry only f, g and zeta (the chain that bounds
 * the loop); the matrix rows (u, v) and (q, r) go through the same masked
 * updates in SSE2 registers, off that chain and off the integer ports.
 * Branch-free: CMOV and masks only.  Include after <crypto/ecc-inv.h>.
 */
#ifndef _RIND_X86_ECC_DIVSTEPS_H
#define _RIND_X86_ECC_DIVSTEPS_H

typedef u64 ecc_x86_v2 __attribute__((vector_size(16)));

static inline s64 ecc_x86_divsteps(s64 zeta, u64 f, u64 g, struct ecc_by_mat *t)
{
	ecc_x86_v2 uv = { 1, 0 }, qr = { 0, 1 };
	int i;

	for (i = 0; i < 62; i++) {
		u64 c1, c2, sw, x;
		ecc_x86_v2 vc1, vc2, vsw;

		/*
		 * c1: delta > 0; c2: g odd; sw = c1 & c2, the swapping
		 * case: (f, g) = (g, (g - f) / 2); else g odd: (g + f) / 2;
		 * else g / 2.  zeta = -zeta - 2 or zeta - 1.  CMOV rather
		 * than masks on the g chain (test, cmov, add, shift).
		 */
		__asm__("movq %[z], %[c1]\n\t"
			"sarq $63, %[c1]\n\t"
			"movl %k[g], %k[c2]\n\t"
			"andl $1, %k[c2]\n\t"
			"negq %[c2]\n\t"
			"movq %[f], %[x]\n\t"
			"xorq %[c1], %[x]\n\t"
			"subq %[c1], %[x]\n\t"
			"movq %[c1], %[sw]\n\t"
			"andq %[c2], %[sw]\n\t"
			"cmovnzq %[g], %[f]\n\t"
			"testb $1, %b[g]\n\t"
			"cmovzq %[zero], %[x]\n\t"
			"addq %[x], %[g]\n\t"
			"shrq $1, %[g]\n\t"
			"xorq %[sw], %[z]\n\t"
			"decq %[z]\n\t"
			: [z] "+r"(zeta), [f] "+r"(f), [g] "+q"(g), [c1] "=&r"(c1), [c2] "=&r"(c2),
			  [sw] "=&r"(sw), [x] "=&r"(x)
			: [zero] "r"((u64)0)
			: "cc");
		vc1 = (ecc_x86_v2){ c1, c1 };
		vc2 = (ecc_x86_v2){ c2, c2 };
		vsw = (ecc_x86_v2){ sw, sw };
		qr += ((uv ^ vc1) - vc1) & vc2;
		uv += qr & vsw;
		uv += uv;
	}
	t->u = (s64)uv[0];
	t->v = (s64)uv[1];
	t->q = (s64)qr[0];
	t->r = (s64)qr[1];
	return zeta;
}

#endif /* _RIND_X86_ECC_DIVSTEPS_H */
