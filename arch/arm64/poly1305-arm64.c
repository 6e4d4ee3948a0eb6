// SPDX-License-Identifier: MIT
/*
 * Poly1305 for arm64 with scalar MUL/UMULH and ADDS/ADCS: the
 * "poly1305-arm64" shash, priority 300 (generic is 100).  The
 * ChaCha20-Poly1305 and XChaCha20-Poly1305 AEADs pick it up as the best
 * "poly1305" (rind_poly1305_best_blocks, and the rfc7539 template's
 * poly1305 spawn), as they pick up poly1305-x86_64 on x86.
 * Requires: base A64 only.  No HWCAP names the integer multiplier, so the
 * driver registers under "asimd" (present on every Linux arm64 system,
 * FP/ASIMD being part of its ABI) so that RIND_DISABLE=asimd or all
 * leaves the generic code to be tested.
 *
 * The arithmetic is that of poly1305_blocks_core in <crypto/poly1305.h>
 * (radix 2^64: h0, h1 full words, h2 < 8; r1's low two bits clamped to 0
 * so 2^128 r1 = 5 r1 / 4 = s1 mod 2^130 - 5), one block per step:
 *   h += m + padbit 2^128
 *   d0 = h0 r0 + h1 s1,  d1 = h0 r1 + h1 r0 + h2 s1,  d2 = h2 r0
 *   carry d0 into d1 into d2, fold the bits of d2 from 2^130 up times 5.
 * gcc 12 compiles that C for aarch64 (algs/poly1305.c) into the same
 * MUL/UMULH products but rebuilds five of its carries with CSET/CINC,
 * most of them on the serial chain from one block's accumulator to the
 * next; here every carry stays in the flags (ADDS/ADCS/ADC): 28
 * instructions per block against gcc's 34 (objdump of both, loop
 * overhead and loads left out).  The state layout (radix 2^64) is the
 * generic one, so states move freely between drivers.
 *
 * The loop itself is in poly1305-arm64.h, which poly1305-neon.c (the
 * radix-2^26 NEON driver above this one, for long messages) shares for
 * its short inputs and leftover blocks.
 *
 * Constant time: MUL, UMULH, ADDS/ADCS/ADC, AND and shifted ADD only,
 * data-independent in timing under PSTATE.DIT; no branch or address
 * depends on the key, the accumulator or the message (the loop runs on
 * the block count).
 *
 * Expected speed, an estimate (no arm64 hardware here; assumed figures:
 * MUL latency about 4 cycles, UMULH about 5, ADDS/ADCS 1, one multiply
 * per cycle on Neoverse N1): the chain h -> UMULH -> d0 hi -> d1 -> d2 ->
 * fold -> h is about 14-16 cycles per 16-byte block and the 11 multiplies
 * fit beside it, 0.9-1.0 cycles/byte; cores with multiply latency 2-3
 * (Neoverse V1, Apple) about 0.6.
 */
#include <rind/internal/hash.h>
#include <rind/internal/util.h>
#include <crypto/poly1305.h>
#include "poly1305-arm64.h"

static void poly1305_blocks_arm64_fn(struct poly1305_state *st, const u8 *src, size_t nblocks,
				     u32 padbit)
{
	poly1305_blocks_arm64(st, src, nblocks, padbit);
}

static struct poly1305_alg poly1305_arm64_alg =
	RIND_POLY1305_ALG("poly1305-arm64", 300, "arm64", poly1305_blocks_arm64_fn);

static int poly1305_arm64_mod_init(void)
{
	/* The known-answer tests of "poly1305" are algs/poly1305.c's. */
	if (!rind_cpu_has(RIND_ARM64_ASIMD))
		return 0;
	return crypto_register_shash(&poly1305_arm64_alg.alg);
}

module_init(poly1305_arm64_mod_init);
