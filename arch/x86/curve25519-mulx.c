// SPDX-License-Identifier: MIT
/*
 * X25519 (RFC 7748) for x86-64 with MULX/ADCX/ADOX: the
 * "curve25519-x86_64-adx" kpp.
 * Requires: BMI2 (MULX) and ADX (ADCX, ADOX).
 *
 * The Montgomery ladder of algs/curve25519.c, in assembly
 * (curve25519-mulx-ladder.S): the same constant-time structure (255
 * steps, masked conditional swaps), each step 5 multiplications, 4
 * squarings and one multiplication by a24, in the frame of one function
 * with results kept weakly reduced (below 2^255 + 2^11) so that sums and
 * differences need one fold; then the inversion and the last product in
 * the radix-2^64 field arithmetic of fe25519-mulx.h.  The public key goes through
 * the Ed25519 fixed-base table of ed25519-mulx.c.  The kpp glue (key
 * formats, checks) is the generic driver's.
 */
#include <string.h>
#include <rind/internal/kpp.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/curve25519.h>
#include "ed25519-x86.h"
#include "fe25519-mulx.h"

/* curve25519-mulx-ladder.S: the 255 ladder steps; x2, z2 out. */
void curve25519_ladder_mulx(u64 xz[8], const u8 k[32], const u64 x1[4]);

static void curve25519_mulx(u8 out[CURVE25519_KEY_SIZE], const u8 scalar[CURVE25519_KEY_SIZE],
			    const u8 point[CURVE25519_KEY_SIZE])
{
	u8 k[CURVE25519_KEY_SIZE];
	u64 xz[8];
	fe x1, x2, z2;

	memcpy(k, scalar, sizeof(k));
	curve25519_clamp_secret(k);
	fe_frombytes(&x1, point);
	curve25519_ladder_mulx(xz, k, x1.v);
	memcpy(x2.v, xz, sizeof(x2.v));
	memcpy(z2.v, xz + 4, sizeof(z2.v));
	fe_invert(&z2, &z2);
	fe_mul(&x2, &x2, &z2);
	fe_tobytes(out, &x2);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(xz, sizeof(xz));
	memzero_explicit(&x2, sizeof(x2));
	memzero_explicit(&z2, sizeof(z2));
}

static struct curve25519_driver curve25519_mulx_drv = {
	.mul = curve25519_mulx,
	.mul_base = curve25519_base_mulx,
	.alg = CURVE25519_KPP_ALG("curve25519-x86_64-adx", 300, "x86"),
};

static int curve25519_mulx_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_BMI2) || !rind_cpu_has(RIND_X86_ADX))
		return 0;
	crypto_register_test(&curve25519_test_desc);
	return crypto_register_kpp(&curve25519_mulx_drv.alg);
}

module_init(curve25519_mulx_mod_init);
