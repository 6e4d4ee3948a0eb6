/* SPDX-License-Identifier: MIT */
/*
 * Poly1305's scalar block loop for arm64 in MUL/UMULH and ADDS/ADCS
 * (poly1305-arm64.c gives the method, the constant-time argument and
 * the expected speed): shared by the "poly1305-arm64" driver and
 * poly1305-neon.c, which runs it on short inputs and on the blocks left
 * over from its four-block steps.  Library internal.
 */
#ifndef _RIND_ARM64_POLY1305_ARM64_H
#define _RIND_ARM64_POLY1305_ARM64_H

#include <rind/internal/util.h>
#include <crypto/poly1305.h>

static inline __attribute__((always_inline)) void
poly1305_blocks_arm64(struct poly1305_state *st, const u8 *src, size_t nblocks, u32 padbit)
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
#endif /* _RIND_ARM64_POLY1305_ARM64_H */
