/* SPDX-License-Identifier: MIT */
/*
 * What the x86-64 Poly1305 vector drivers (poly1305-avx2.c,
 * poly1305-avx512ifma.c) share: the tag of the powers of r each keeps in
 * the state's arch[] (so that a state imported from the other driver is
 * recomputed, not misread), their thresholds, and the radix-2^44 scalar
 * arithmetic they compute those powers with.  All of it runs once per key
 * or once per call, never per block.
 *
 * Both run long inputs across lanes: lane j accumulates blocks j, j + L,
 * j + 2L, ... by Horner's rule with r^L; the last group multiplies lane j
 * by r^(L - j) instead, and the lanes are summed.  Long inputs run two (or
 * four) such accumulators side by side, stepping by r^2L (r^4L), so that
 * independent multiplication chains overlap.  The accumulator enters and
 * leaves in radix 2^64, so every driver shares the state layout of
 * <crypto/poly1305.h>; short inputs (and the tail) go to the radix-2^64
 * poly1305_blocks_core compiled for MULX, as in poly1305-x86_64.c.
 * Constant time: no branch or index depends on the key, the accumulator or
 * the message (only on lengths).
 */
#ifndef _RIND_X86_POLY1305_X86_H
#define _RIND_X86_POLY1305_X86_H

#include <rind/types.h>
#include <rind/internal/util.h>
#include <crypto/poly1305.h>

typedef poly1305_u128 u128;

#define M26 0x3ffffffull
#define M44 0xfffffffffffull
#define M42 0x3ffffffffffull

#define ARCH_AVX2	1	/* arch[]: r^4, r^2, r^3, r^1 as [limb 0..4][lane 0..3],
				   then r^8 at [20..24] */
#define ARCH_IFMA	2	/* arch[]: r^8, r^4, r^7, r^3, r^6, r^2, r^5, r^1 as [limb 0..2][lane 0..7],
				   then r^16 at [24..26] */

#define AVX2_MIN_BLOCKS	40
#define IFMA_MIN_BLOCKS	20

/* ---- powers of r: radix 2^44, three limbs (44, 44, 42 bits) ---- */

static inline void to44(u64 out[3], u64 h0, u64 h1, u64 h2)
{
	out[0] = h0 & M44;
	out[1] = ((h0 >> 44) | (h1 << 20)) & M44;
	out[2] = (h1 >> 24) | (h2 << 40);
}

/* a * b mod 2^130 - 5, limbs carried (< 2^44, < 2^44, < 2^42), value < 2^130 + 2^20. */
static inline void mul44(u64 out[3], const u64 a[3], const u64 b[3])
{
	u64 s1 = b[1] * 20, s2 = b[2] * 20, c;
	u128 d0, d1, d2;

	d0 = (u128)a[0] * b[0] + (u128)a[1] * s2 + (u128)a[2] * s1;
	d1 = (u128)a[0] * b[1] + (u128)a[1] * b[0] + (u128)a[2] * s2;
	d2 = (u128)a[0] * b[2] + (u128)a[1] * b[1] + (u128)a[2] * b[0];

	d1 += (u64)(d0 >> 44);
	out[0] = (u64)d0 & M44;
	d2 += (u64)(d1 >> 44);
	out[1] = (u64)d1 & M44;
	c = (u64)(d2 >> 42);
	out[2] = (u64)d2 & M42;
	c = out[0] + c * 5;
	out[0] = c & M44;
	c = out[1] + (c >> 44);
	out[1] = c & M44;
	out[2] += c >> 44;
}

/* r^1 .. r^n (n = 4 or 8) in radix 2^44, as a tree of depth 2 or 3. */
static inline void powers44(const struct poly1305_state *st, u64 pw[8][3], int n)
{
	to44(pw[0], st->r[0], st->r[1], 0);
	mul44(pw[1], pw[0], pw[0]);		/* r^2 */
	mul44(pw[2], pw[1], pw[0]);		/* r^3 */
	mul44(pw[3], pw[1], pw[1]);		/* r^4 */
	if (n <= 4)
		return;
	mul44(pw[4], pw[3], pw[0]);		/* r^5 */
	mul44(pw[5], pw[3], pw[1]);		/* r^6 */
	mul44(pw[6], pw[3], pw[2]);		/* r^7 */
	mul44(pw[7], pw[3], pw[3]);		/* r^8 */
}

/* poly1305-avx2.c's blocks function, for the stitched AEAD's short path. */
void rind_poly1305_blocks_avx2(struct poly1305_state *st, const u8 *src, size_t nblocks,
			       u32 padbit);

/*
 * poly1305-avx512ifma.c's (AVX512F, AVX512VL, AVX512IFMA, BMI2, ADX), for
 * the stitched AEAD's long messages.
 */
void rind_poly1305_blocks_ifma(struct poly1305_state *st, const u8 *src, size_t nblocks,
			       u32 padbit);

#endif /* _RIND_X86_POLY1305_X86_H */
