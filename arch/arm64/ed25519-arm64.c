// SPDX-License-Identifier: MIT
/*
 * Ed25519 (RFC 8032) for arm64 with MUL/UMULH/ADCS: the "ed25519-arm64"
 * sig, priority 300 (generic is 100).
 * Requires: base A64 only; registered under "asimd" (on every Linux arm64
 * system) so that RIND_DISABLE=asimd or all leaves the generic driver.
 *
 * The group code of api/include/crypto/ed25519-impl.h (constant-time
 * fixed-base comb for signing, sliding-window double-scalar
 * multiplication for verification) compiled over the radix-2^64 field
 * arithmetic of fe25519-arm64.h, with its own tables, exactly as
 * arch/x86/ed25519-mulx.c does over MULX.  Hashing, scalars modulo L, the
 * verification policy and the key formats are the generic driver's
 * (algs/ed25519.c).
 *
 * Constant time: the field code uses MUL, UMULH, ADDS/ADCS, SUBS/SBCS and
 * CSEL (data-independent under PSTATE.DIT) and no branch; the signing
 * table is read by scanning every entry with masks (ed25519-impl.h).
 * Verification is variable time over public values only.
 *
 * Expected cost on Neoverse N1, an estimate (fe_mul about 45 cycles,
 * fe_sq 32; see fe25519-arm64.h): a signature's fixed-base
 * multiplication is 64 mixed additions and 4 doublings, about 35k cycles
 * with the table scans; a verification about 120k.
 */
#include <string.h>
#include <rind/internal/sig.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/ed25519.h>
#include <crypto/curve25519.h>
#include "ed25519-arm64.h"
#include "fe25519-arm64.h"
#include <crypto/ed25519-impl.h>

void curve25519_base_arm64(u8 out[CURVE25519_KEY_SIZE], const u8 scalar[CURVE25519_KEY_SIZE])
{
	ed_base_mul_mont(out, scalar);
}

static struct ed25519_driver ed25519_arm64_drv = {
	.base_mul = ed_base_mul,
	.base_mul_batch = ed_base_mul_batch,
	.base_mul_mont = ed_base_mul_mont,
	.prepare = ed_prepare,
	.double_mul = ed_double_mul,
	.alg = ED25519_SIG_ALG("ed25519-arm64", 300, "arm64"),
};

static int ed25519_arm64_mod_init(void)
{
	if (!rind_cpu_has(RIND_ARM64_ASIMD))
		return 0;
	crypto_register_test(&ed25519_test_desc);
	return crypto_register_sig(&ed25519_arm64_drv.alg);
}

module_init(ed25519_arm64_mod_init);
