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
 * A NEON radix-2^26 version (four blocks per step over r^4, as
 * arch/x86/poly1305-avx2.c does with eight) is not here: UMLAL on
 * 32 x 32 -> 64-bit lanes gives two products per instruction where
 * MUL + UMULH give one 128-bit product per two, and on Neoverse N1 the
 * scalar chain already runs at about 1 cycle/byte; whether the vector
 * form pays could not be measured (no arm64 hardware here).
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

static void poly1305_blocks_arm64(struct poly1305_state *st, const u8 *src, size_t nblocks,
				  u32 padbit)
{
	const u64 r0 = st->r[0], r1 = st->r[1];
	const u64 s1 = r1 + (r1 >> 2);
	const u64 pad = padbit;
	u64 h0 = st->h[0], h1 = st->h[1], h2 = st->h[2];

	for (; nblocks; nblocks--, src += POLY1305_BLOCK_SIZE) {
		u64 m0 = get_unaligned_le64(src), m1 = get_unaligned_le64(src + 8);
		u64 a0, a1, b0, b1, c0, c1, e0, e1, f0, f1, d2;

		__asm__(
			/* h += m + pad * 2^128 */
			"adds	%[h0], %[h0], %[m0]\n\t"
			"adcs	%[h1], %[h1], %[m1]\n\t"
			"adc	%[h2], %[h2], %[pad]\n\t"
			/* the ten partial products, d2 = h2 r0 (< 2^63) */
			"mul	%[a0], %[h0], %[r0]\n\t"
			"umulh	%[a1], %[h0], %[r0]\n\t"
			"mul	%[b0], %[h1], %[s1]\n\t"
			"umulh	%[b1], %[h1], %[s1]\n\t"
			"mul	%[c0], %[h0], %[r1]\n\t"
			"umulh	%[c1], %[h0], %[r1]\n\t"
			"mul	%[e0], %[h1], %[r0]\n\t"
			"umulh	%[e1], %[h1], %[r0]\n\t"
			"mul	%[f0], %[h2], %[s1]\n\t"
			"umulh	%[f1], %[h2], %[s1]\n\t"
			"mul	%[d2], %[h2], %[r0]\n\t"
			/* d0 = h0 r0 + h1 s1 in a1:a0 */
			"adds	%[a0], %[a0], %[b0]\n\t"
			"adc	%[a1], %[a1], %[b1]\n\t"
			/* d1 = h0 r1 + h1 r0 + h2 s1 + (d0 >> 64) in c1:c0 */
			"adds	%[c0], %[c0], %[e0]\n\t"
			"adc	%[c1], %[c1], %[e1]\n\t"
			"adds	%[c0], %[c0], %[f0]\n\t"
			"adc	%[c1], %[c1], %[f1]\n\t"
			"adds	%[c0], %[c0], %[a1]\n\t"
			"adc	%[c1], %[c1], xzr\n\t"
			/* d2 += d1 >> 64; h = d0 lo, d1 lo, d2 & 3 plus 5 (d2 >> 2) */
			"add	%[d2], %[d2], %[c1]\n\t"
			"and	%[b0], %[d2], #0xfffffffffffffffc\n\t"
			"add	%[b0], %[b0], %[d2], lsr #2\n\t"
			"and	%[h2], %[d2], #3\n\t"
			"adds	%[h0], %[a0], %[b0]\n\t"
			"adcs	%[h1], %[c0], xzr\n\t"
			"adc	%[h2], %[h2], xzr\n\t"
			: [h0] "+&r"(h0), [h1] "+&r"(h1), [h2] "+&r"(h2),
			  [a0] "=&r"(a0), [a1] "=&r"(a1), [b0] "=&r"(b0), [b1] "=&r"(b1),
			  [c0] "=&r"(c0), [c1] "=&r"(c1), [e0] "=&r"(e0), [e1] "=&r"(e1),
			  [f0] "=&r"(f0), [f1] "=&r"(f1), [d2] "=&r"(d2)
			: [m0] "r"(m0), [m1] "r"(m1), [pad] "r"(pad),
			  [r0] "r"(r0), [r1] "r"(r1), [s1] "r"(s1)
			: "cc");
	}
	st->h[0] = h0;
	st->h[1] = h1;
	st->h[2] = h2;
}

static struct poly1305_alg poly1305_arm64_alg =
	RIND_POLY1305_ALG("poly1305-arm64", 300, "arm64", poly1305_blocks_arm64);

static int poly1305_arm64_mod_init(void)
{
	/* The known-answer tests of "poly1305" are algs/poly1305.c's. */
	if (!rind_cpu_has(RIND_ARM64_ASIMD))
		return 0;
	return crypto_register_shash(&poly1305_arm64_alg.alg);
}

module_init(poly1305_arm64_mod_init);
