// SPDX-License-Identifier: MIT
/*
 * Poly1305 for x86-64: the "poly1305-x86_64" shash, priority 300.
 * Requires: BMI2, ADX.
 *
 * The radix-2^64 code of <crypto/poly1305.h> (poly1305_blocks_core)
 * compiled for MULX.  The vector drivers (poly1305-avx2.c,
 * poly1305-avx512ifma.c) run the same code for short inputs.
 */
#include <rind/internal/hash.h>
#include <rind/internal/util.h>
#include <crypto/poly1305.h>

__attribute__((target("bmi2,adx")))
static void poly1305_blocks_x86_64(struct poly1305_state *st, const u8 *src, size_t nblocks,
				   u32 padbit)
{
	poly1305_blocks_core(st, src, nblocks, padbit);
}

static struct poly1305_alg poly1305_x86_64_alg =
	RIND_POLY1305_ALG("poly1305-x86_64", 300, "x86", poly1305_blocks_x86_64);

static int poly1305_x86_64_mod_init(void)
{
	/* The known-answer tests of "poly1305" are algs/poly1305.c's. */
	if (!rind_cpu_has(RIND_X86_BMI2) || !rind_cpu_has(RIND_X86_ADX))
		return 0;
	return crypto_register_shash(&poly1305_x86_64_alg.alg);
}

module_init(poly1305_x86_64_mod_init);
