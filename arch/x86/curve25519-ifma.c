// SPDX-License-Identifier: MIT
/*
 * X25519 (RFC 7748) with AVX-512 IFMA: the "curve25519-avx512ifma" kpp.
 * Requires: AVX512F, AVX512VL, AVX512IFMA (the ladder), BMI2 and ADX (the
 * final inversion, in fe25519-mulx.h).
 *
 * The Montgomery ladder of RFC 7748 with the state (x2, z2, x3, z3) in the
 * four lanes of one fe4 (fe25519-ifma.h), so that each step is three
 * four-way multiplications instead of ten serial ones:
 *   (A, B, C, D)      = (x2 + z2, x2 - z2, x3 + z3, x3 - z3)
 *   round 1: (AA, BB, DA, CB)             = (A, B, D, C) * (A, B, A, B)
 *   round 2: (x2', BB + t, x3', Z)        = (AA, E, DA + CB, DA - CB)
 *                                           * (BB, a24, DA + CB, DA - CB)
 *                                           + (0, BB, 0, 0)
 *            with E = AA - BB, a24 = 121666, t = a24 E
 *   round 3: (x2', z2', x3', z3')         = (x2', E, x3', Z) * (1, BB + t, 1, x1)
 * The conditional swap of (x2, z2) with (x3, z3) is a lane permutation
 * blended in under a mask made from the scalar bit: no branch, no
 * secret-dependent address.  The public key (the fixed base point) goes
 * through the Ed25519 fixed-base comb of ed25519-ifma.c.  The kpp glue is
 * the generic driver's.
 */
#include <string.h>
#include <rind/internal/kpp.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/curve25519.h>
#include "ed25519-x86.h"
#include "fe25519-mulx.h"
#include "fe25519-ifma.h"

IFMA_TARGET
static void curve25519_ifma_ladder(u64 x2[5], u64 z2[5], const u8 k[32], const u8 point[32])
{
	u64 x1[5], one[5] = { 1 }, zero[5] = { 0 }, a24[5] = { 121666 };
	fe4 p, q, v, w, sw, u, y, r, k3, ka24;
	u64 swap = 0;
	int t;

	fe51_from_bytes(x1, point);
	p = fe4_set(one, zero, x1, one);		/* (x2, z2, x3, z3) = (1, 0, u, 1) */
	k3 = fe4_set(one, zero, one, x1);		/* round 3's right operand but lane 1 */
	ka24 = fe4_set(zero, a24, zero, zero);

	for (t = 254; t >= 0; t--) {
		u64 bit = (k[t >> 3] >> (t & 7)) & 1;

		swap ^= bit;
		q = fe4_permute(p, _MM_SHUFFLE(1, 0, 3, 2));
		p = fe4_blend(p, q, (__mmask8)((0 - swap) & 0xf));
		swap = bit;

		/*
		 * (A, B, C, D) = (x2 + z2, x2 - z2, x3 + z3, x3 - z3); p is
		 * wide (not carried), hence the large multiple of p.
		 */
		v = fe4_carry(fe4_add(fe4_neg_lanes_wide(p, 0xa), fe4_swap_pairs(p)));
		/* round 1: (AA, BB, DA, CB) = (A, B, D, C) * (A, B, A, B), wide */
		w = fe4_mul_wide(fe4_permute(v, _MM_SHUFFLE(2, 3, 1, 0)),
				 fe4_permute(v, _MM_SHUFFLE(1, 0, 1, 0)));
		/* round 2: (AA, E, DA + CB, DA - CB) * (BB, a24, DA + CB, DA - CB) + (0, BB, 0, 0) */
		sw = fe4_swap_pairs(w);				/* (BB, AA, CB, DA) */
		u = fe4_carry(fe4_blend(fe4_add(fe4_neg_lanes_wide(w, 0xa), sw), w, 0x1));
		r = fe4_blend(fe4_blend(u, fe4_carry(sw), 0x1), ka24, 0x2);
		y = fe4_mul_add(u, r, fe4_blend(fe4_zero(), w, 0x2));	/* (x2', BB + t, x3', Z) */
		/* round 3: (x2', E, x3', Z) * (1, BB + t, 1, x1), left wide */
		p = fe4_mul_wide(fe4_blend(y, u, 0x2), fe4_blend(k3, y, 0x2));
	}
	q = fe4_permute(p, _MM_SHUFFLE(1, 0, 3, 2));
	p = fe4_blend(p, q, (__mmask8)((0 - swap) & 0xf));
	fe4_lane_get(x2, p, 0);
	fe4_lane_get(z2, p, 1);
	memzero_explicit(&p, sizeof(p));
	memzero_explicit(&q, sizeof(q));
	memzero_explicit(&w, sizeof(w));
	memzero_explicit(&y, sizeof(y));
}

static void curve25519_ifma(u8 out[CURVE25519_KEY_SIZE], const u8 scalar[CURVE25519_KEY_SIZE],
			    const u8 point[CURVE25519_KEY_SIZE])
{
	u8 k[CURVE25519_KEY_SIZE];
	u64 x2[5], z2[5];
	fe x, z;

	memcpy(k, scalar, sizeof(k));
	curve25519_clamp_secret(k);
	curve25519_ifma_ladder(x2, z2, k, point);
	fe51_to_u64(x.v, x2);
	fe51_to_u64(z.v, z2);
	fe_invert(&z, &z);
	fe_mul(&x, &x, &z);
	fe_tobytes(out, &x);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(x2, sizeof(x2));
	memzero_explicit(z2, sizeof(z2));
	memzero_explicit(&x, sizeof(x));
	memzero_explicit(&z, sizeof(z));
}

static struct curve25519_driver curve25519_ifma_drv = {
	.mul = curve25519_ifma,
	.mul_base = curve25519_base_ifma,
	.alg = CURVE25519_KPP_ALG("curve25519-avx512ifma", 400, "x86"),
};

static int curve25519_ifma_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_AVX512F) || !rind_cpu_has(RIND_X86_AVX512VL) ||
	    !rind_cpu_has(RIND_X86_AVX512IFMA) || !rind_cpu_has(RIND_X86_BMI2) ||
	    !rind_cpu_has(RIND_X86_ADX))
		return 0;
	crypto_register_test(&curve25519_test_desc);
	return crypto_register_kpp(&curve25519_ifma_drv.alg);
}

module_init(curve25519_ifma_mod_init);
