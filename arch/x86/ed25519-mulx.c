// SPDX-License-Identifier: MIT
/*
 * Ed25519 (RFC 8032) for x86-64 with MULX/ADCX/ADOX: the
 * "ed25519-x86_64-adx" sig.
 * Requires: BMI2 (MULX) and ADX (ADCX, ADOX).
 *
 * The group code of api/include/crypto/ed25519-impl.h (constant-time fixed-base comb for
 * signing, sliding-window double-scalar multiplication for verification)
 * compiled over the radix-2^64 field arithmetic of fe25519-mulx.h, with
 * its own tables.  Hashing, scalars modulo L, the verification policy and
 * the key formats are the generic driver's (algs/ed25519.c).
 */
#include <string.h>
#include <rind/internal/sig.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/ed25519.h>
#include <crypto/curve25519.h>
#include "ed25519-x86.h"
#include "fe25519-mulx.h"
#include <crypto/ed25519-impl.h>

void curve25519_base_mulx(u8 out[CURVE25519_KEY_SIZE], const u8 scalar[CURVE25519_KEY_SIZE])
{
	ed_base_mul_mont(out, scalar);
}

static struct ed25519_driver ed25519_mulx_drv = {
	.base_mul = ed_base_mul,
	.base_mul_batch = ed_base_mul_batch,
	.base_mul_mont = ed_base_mul_mont,
	.prepare = ed_prepare,
	.double_mul = ed_double_mul,
	.alg = ED25519_SIG_ALG("ed25519-x86_64-adx", 300, "x86"),
};

static int ed25519_mulx_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_BMI2) || !rind_cpu_has(RIND_X86_ADX))
		return 0;
	crypto_register_test(&ed25519_test_desc);
	return crypto_register_sig(&ed25519_mulx_drv.alg);
}

module_init(ed25519_mulx_mod_init);
