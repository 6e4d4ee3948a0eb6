// SPDX-License-Identifier: MIT
/*
 * X25519 (RFC 7748) for arm64 with MUL/UMULH/ADCS: the "curve25519-arm64"
 * kpp, priority 300 (generic is 100).
 * Requires: base A64 only; registered under "asimd" (on every Linux arm64
 * system) so that RIND_DISABLE=asimd or all leaves the generic driver.
 *
 * The Montgomery ladder of RFC 7748 section 5 over the radix-2^64 field
 * arithmetic of fe25519-arm64.h: 255 steps, each 5 multiplications, 4
 * squarings and one multiplication by a24, the two points swapped by
 * masks (fe_cswap) on the XOR of consecutive scalar bits.  The public key
 * (X25519(k, 9)) goes through the Ed25519 fixed-base table of
 * ed25519-arm64.c.  The kpp glue (key formats, checks) is the generic
 * driver's.
 *
 * Constant time: the field code uses MUL, UMULH, ADDS/ADCS, SUBS/SBCS and
 * CSEL only (data-independent under PSTATE.DIT) and no branch; the scalar
 * bits become masks, never branches or addresses; the inversion is the
 * generic constant-time one (algs/curve25519.c).
 *
 * Expected cost on Neoverse N1, an estimate (fe_mul about 45 cycles,
 * fe_sq 32; see fe25519-arm64.h): 255 * (5 * 45 + 4 * 32 + ~40 for the
 * additions, a24 and swaps) + the inversion, about 110k cycles per
 * shared secret; a public key through the fixed-base table about 35k.
 */
#include <string.h>
#include <rind/internal/kpp.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/curve25519.h>
#include "ed25519-arm64.h"
#include "fe25519-arm64.h"

#define CURVE25519_A24 121666

/*
 * One ladder step: (x2 : z2) doubled, (x3 : z3) the differential sum with
 * difference x1 (RFC 7748 section 5, with a24 = (A + 2) / 4).
 */
static inline void ladder_step(fe *x2, fe *z2, fe *x3, fe *z3, const fe *x1)
{
	fe a, aa, b, bb, e, c, d, da, cb, t;

	fe_add(&a, x2, z2);
	fe_sub(&b, x2, z2);
	fe_add(&c, x3, z3);
	fe_sub(&d, x3, z3);
	fe_sq(&aa, &a);
	fe_sq(&bb, &b);
	fe_mul(&da, &d, &a);
	fe_mul(&cb, &c, &b);
	fe_sub(&e, &aa, &bb);
	fe_mul(x2, &aa, &bb);
	fe_add(&t, &da, &cb);
	fe_sq(x3, &t);
	fe_sub(&t, &da, &cb);
	fe_sq(&t, &t);
	fe_mul(z3, x1, &t);
	fe_mul_small(&t, &e, CURVE25519_A24);
	fe_add(&t, &t, &bb);
	fe_mul(z2, &e, &t);
}

static void curve25519_arm64(u8 out[CURVE25519_KEY_SIZE], const u8 scalar[CURVE25519_KEY_SIZE],
			     const u8 point[CURVE25519_KEY_SIZE])
{
	u8 k[CURVE25519_KEY_SIZE];
	fe x1, x2, z2, x3, z3;
	u64 swap = 0;
	int t;

	memcpy(k, scalar, sizeof(k));
	curve25519_clamp_secret(k);
	fe_frombytes(&x1, point);
	fe_1(&x2);
	fe_0(&z2);
	x3 = x1;
	fe_1(&z3);
	for (t = 254; t >= 0; t--) {
		u64 bit = (k[t >> 3] >> (t & 7)) & 1;

		swap ^= bit;
		fe_cswap(&x2, &x3, swap);
		fe_cswap(&z2, &z3, swap);
		swap = bit;
		ladder_step(&x2, &z2, &x3, &z3, &x1);
	}
	fe_cswap(&x2, &x3, swap);
	fe_cswap(&z2, &z3, swap);
	fe_invert(&z2, &z2);
	fe_mul(&x2, &x2, &z2);
	fe_tobytes(out, &x2);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(&x2, sizeof(x2));
	memzero_explicit(&z2, sizeof(z2));
	memzero_explicit(&x3, sizeof(x3));
	memzero_explicit(&z3, sizeof(z3));
}

static struct curve25519_driver curve25519_arm64_drv = {
	.mul = curve25519_arm64,
	.mul_base = curve25519_base_arm64,
	.alg = CURVE25519_KPP_ALG("curve25519-arm64", 300, "arm64"),
};

static int curve25519_arm64_mod_init(void)
{
	if (!rind_cpu_has(RIND_ARM64_ASIMD))
		return 0;
	crypto_register_test(&curve25519_test_desc);
	return crypto_register_kpp(&curve25519_arm64_drv.alg);
}

module_init(curve25519_arm64_mod_init);
