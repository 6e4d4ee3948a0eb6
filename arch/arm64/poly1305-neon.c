// SPDX-License-Identifier: MIT
/*
 * Poly1305 for arm64 with NEON on long messages: the "poly1305-neon"
 * shash, priority 400, above "poly1305-arm64" (300) as poly1305-avx2 is
 * above poly1305-x86_64 on x86.  Requires: ASIMD (HWCAP_ASIMD).  The
 * ChaCha20-Poly1305 and XChaCha20-Poly1305 AEADs pick it up as the best
 * "poly1305" (rind_poly1305_best_blocks, the rfc7539 template's spawn).
 *
 * One driver choosing by length: a call of at least NEON_MIN_BLOCKS
 * blocks runs its multiple of four here and the rest (0-3 blocks) in
 * poly1305-arm64.h's scalar MUL/UMULH loop; shorter calls run that loop
 * alone.  A separate driver above poly1305-arm64, not a branch inside
 * it, so that the scalar driver stays reachable by name (the suites walk
 * both), and so that the lookup of "poly1305" gets both paths at once.
 *
 * Radix 2^26: five limbs in 32-bit lanes, products by UMULL/UMLAL (two
 * 32 x 32 -> 64-bit products per instruction).  Two accumulators of two
 * lanes each take blocks 4i, 4i+1 and 4i+2, 4i+3 and step by r^4, so
 * two independent multiplication chains overlap; the last step
 * multiplies the lanes by r^4, r^3, r^2 and r instead, and the four lanes
 * are summed (the scheme of arch/x86/poly1305-avx2.c, on 2-lane vectors).
 * The powers r..r^4 are computed once per key (scalar, radix 2^64) into
 * the state's arch[] and marked by arch_ready; the accumulator is
 * converted from and back to the generic radix 2^64 on every call, so
 * states move freely between drivers.  Limb bounds: h and the powers
 * below 2^27, 5 r below 2^30, each column sum below 2^60; one carry pass
 * (two interleaved chains) per step leaves every limb below 2^27.
 *
 * Constant time: UMULL/UMLAL, MUL by 5, ADD, AND, ORR, USHR/SHL, XTN,
 * TRN1/TRN2, UADDLP and LD1, and scalar MUL/UMULH/ADDS/ADCS, all
 * data-independent under PSTATE.DIT; the only branches are on the block
 * count (public) and on arch_ready (whether this key's powers are there,
 * not their value).
 *
 * Expected speed, an estimate (no arm64 hardware here; Neoverse N1
 * Software Optimization Guide: UMULL/UMLAL 4 cycles latency, one per
 * cycle on one vector pipe; V1 and Apple cores two or more): per four
 * blocks 50 multiply instructions and about 60 others, some 55-60 cycles
 * on N1 (0.85-0.95 cycles/byte, little ahead of the scalar loop's
 * 0.9-1.0), some 30-35 on V1 and Apple cores (about 0.5 cycles/byte
 * against the scalar 0.6).  NEON_MIN_BLOCKS = 16 (256 bytes) since each
 * call pays about 110 instructions of setup and lane summing, some four
 * scalar blocks' worth.
 */
#include <arm_neon.h>
#include <rind/internal/hash.h>
#include <rind/internal/util.h>
#include <crypto/poly1305.h>
#include "poly1305-arm64.h"

#define NEON_MIN_BLOCKS	16
#define ARCH_NEON	0x4e454f4eu	/* arch[5 (k - 1) + j]: limb j of r^k, k = 1..4 */
#define M26		0x3ffffffull

/* Radix 2^64 (a[2] small) to five 26-bit limbs (the top one a few bits more). */
static void to26(u64 l[5], u64 a0, u64 a1, u64 a2)
{
	l[0] = a0 & M26;
	l[1] = (a0 >> 26) & M26;
	l[2] = ((a0 >> 52) | (a1 << 12)) & M26;
	l[3] = (a1 >> 14) & M26;
	l[4] = (a1 >> 40) | (a2 << 24);
}

/* a = a r mod 2^130 - 5, partly reduced (a[2] <= 4): the block step without a message. */
static void mul_r(u64 a[3], const u64 r[2])
{
	const u64 r0 = r[0], r1 = r[1], s1 = r1 + (r1 >> 2);
	poly1305_u128 d0, d1, t;
	u64 d2, c;

	d0 = (poly1305_u128)a[0] * r0 + (poly1305_u128)a[1] * s1;
	d1 = (poly1305_u128)a[0] * r1 + (poly1305_u128)a[1] * r0 + (poly1305_u128)a[2] * s1;
	d2 = a[2] * r0;
	d1 += (u64)(d0 >> 64);
	d2 += (u64)(d1 >> 64);
	c = (d2 & ~3ull) + (d2 >> 2);
	t = (poly1305_u128)(u64)d0 + c;
	a[0] = (u64)t;
	t = (poly1305_u128)(u64)d1 + (u64)(t >> 64);
	a[1] = (u64)t;
	a[2] = (d2 & 3) + (u64)(t >> 64);
}

static void neon_precompute(struct poly1305_state *st)
{
	u64 a[3] = { st->r[0], st->r[1], 0 }, l[5];
	int k, j;

	for (k = 0; k < 4; k++) {
		to26(l, a[0], a[1], a[2]);
		for (j = 0; j < 5; j++)
			st->arch[5 * k + j] = l[j];
		mul_r(a, st->r);
	}
	st->arch_ready = ARCH_NEON;
	memzero_explicit(a, sizeof(a));
	memzero_explicit(l, sizeof(l));
}

#define NEON_INLINE static inline __attribute__((always_inline))

/* Blocks @src and @src + 16 as limbs of the two lanes, 2^128 added per @hibit. */
NEON_INLINE void load2(const u8 *src, uint64x2_t hibit, uint32x2_t m[5])
{
	const uint64x2_t mask = vdupq_n_u64(M26);
	uint64x2_t b0 = vreinterpretq_u64_u8(vld1q_u8(src));
	uint64x2_t b1 = vreinterpretq_u64_u8(vld1q_u8(src + 16));
	uint64x2_t lo = vtrn1q_u64(b0, b1), hi = vtrn2q_u64(b0, b1);

	m[0] = vmovn_u64(vandq_u64(lo, mask));
	m[1] = vmovn_u64(vandq_u64(vshrq_n_u64(lo, 26), mask));
	m[2] = vmovn_u64(vandq_u64(vorrq_u64(vshrq_n_u64(lo, 52), vshlq_n_u64(hi, 12)), mask));
	m[3] = vmovn_u64(vandq_u64(vshrq_n_u64(hi, 14), mask));
	m[4] = vmovn_u64(vorrq_u64(vshrq_n_u64(hi, 40), hibit));
}

/* h = h r mod 2^130 - 5 lane-wise (s = 5 r), then one carry pass. */
NEON_INLINE void mul_carry(uint32x2_t h[5], const uint32x2_t r[5], const uint32x2_t s[5])
{
	const uint64x2_t mask = vdupq_n_u64(M26);
	uint64x2_t d0, d1, d2, d3, d4, c;

	d0 = vmull_u32(h[0], r[0]);
	d1 = vmull_u32(h[0], r[1]);
	d2 = vmull_u32(h[0], r[2]);
	d3 = vmull_u32(h[0], r[3]);
	d4 = vmull_u32(h[0], r[4]);
	d0 = vmlal_u32(d0, h[1], s[4]);
	d1 = vmlal_u32(d1, h[1], r[0]);
	d2 = vmlal_u32(d2, h[1], r[1]);
	d3 = vmlal_u32(d3, h[1], r[2]);
	d4 = vmlal_u32(d4, h[1], r[3]);
	d0 = vmlal_u32(d0, h[2], s[3]);
	d1 = vmlal_u32(d1, h[2], s[4]);
	d2 = vmlal_u32(d2, h[2], r[0]);
	d3 = vmlal_u32(d3, h[2], r[1]);
	d4 = vmlal_u32(d4, h[2], r[2]);
	d0 = vmlal_u32(d0, h[3], s[2]);
	d1 = vmlal_u32(d1, h[3], s[3]);
	d2 = vmlal_u32(d2, h[3], s[4]);
	d3 = vmlal_u32(d3, h[3], r[0]);
	d4 = vmlal_u32(d4, h[3], r[1]);
	d0 = vmlal_u32(d0, h[4], s[1]);
	d1 = vmlal_u32(d1, h[4], s[2]);
	d2 = vmlal_u32(d2, h[4], s[3]);
	d3 = vmlal_u32(d3, h[4], s[4]);
	d4 = vmlal_u32(d4, h[4], r[0]);

	/* two interleaved carry chains: 0 -> 1 -> 2 -> 3 and 3 -> 4 -> 0 -> 1 */
	c = vshrq_n_u64(d0, 26); d0 = vandq_u64(d0, mask); d1 = vaddq_u64(d1, c);
	c = vshrq_n_u64(d3, 26); d3 = vandq_u64(d3, mask); d4 = vaddq_u64(d4, c);
	c = vshrq_n_u64(d1, 26); d1 = vandq_u64(d1, mask); d2 = vaddq_u64(d2, c);
	c = vshrq_n_u64(d4, 26); d4 = vandq_u64(d4, mask);
	d0 = vaddq_u64(d0, vaddq_u64(c, vshlq_n_u64(c, 2)));
	c = vshrq_n_u64(d2, 26); d2 = vandq_u64(d2, mask); d3 = vaddq_u64(d3, c);
	c = vshrq_n_u64(d0, 26); d0 = vandq_u64(d0, mask); d1 = vaddq_u64(d1, c);
	c = vshrq_n_u64(d3, 26); d3 = vandq_u64(d3, mask); d4 = vaddq_u64(d4, c);
	h[0] = vmovn_u64(d0);
	h[1] = vmovn_u64(d1);
	h[2] = vmovn_u64(d2);
	h[3] = vmovn_u64(d3);
	h[4] = vmovn_u64(d4);
}

/* nblocks: a positive multiple of 4; the powers are in st->arch. */
static void neon_blocks4(struct poly1305_state *st, const u8 *src, size_t nblocks, u32 padbit)
{
	const uint64x2_t hibit = vdupq_n_u64((u64)padbit << 24);
	const u64 *pw = st->arch;
	uint32x2_t hx[5], hy[5], m[5], r4[5], s4[5], fx[5], sx[5], fy[5], sy[5];
	u64 l[5], c;
	poly1305_u128 t;
	int k;

	to26(l, st->h[0], st->h[1], st->h[2]);
	for (k = 0; k < 5; k++) {
		hx[k] = vset_lane_u32((u32)l[k], vdup_n_u32(0), 0);
		hy[k] = vdup_n_u32(0);
		r4[k] = vdup_n_u32((u32)pw[15 + k]);
		s4[k] = vmul_n_u32(r4[k], 5);
		/* lanes: blocks 4i, 4i+1 take r^4, r^3; blocks 4i+2, 4i+3 r^2, r */
		fx[k] = vset_lane_u32((u32)pw[10 + k], vdup_n_u32((u32)pw[15 + k]), 1);
		fy[k] = vset_lane_u32((u32)pw[k], vdup_n_u32((u32)pw[5 + k]), 1);
		sx[k] = vmul_n_u32(fx[k], 5);
		sy[k] = vmul_n_u32(fy[k], 5);
	}

	for (; nblocks > 4; nblocks -= 4, src += 4 * POLY1305_BLOCK_SIZE) {
		load2(src, hibit, m);
		for (k = 0; k < 5; k++)
			hx[k] = vadd_u32(hx[k], m[k]);
		load2(src + 32, hibit, m);
		for (k = 0; k < 5; k++)
			hy[k] = vadd_u32(hy[k], m[k]);
		mul_carry(hx, r4, s4);
		mul_carry(hy, r4, s4);
	}
	load2(src, hibit, m);
	for (k = 0; k < 5; k++)
		hx[k] = vadd_u32(hx[k], m[k]);
	load2(src + 32, hibit, m);
	for (k = 0; k < 5; k++)
		hy[k] = vadd_u32(hy[k], m[k]);
	mul_carry(hx, fx, sx);
	mul_carry(hy, fy, sy);

	/* the four lanes summed (each limb below 2^27, the sum below 2^29) */
	for (k = 0; k < 5; k++)
		l[k] = vget_lane_u64(vpaddl_u32(vadd_u32(hx[k], hy[k])), 0);
	c = l[0] >> 26; l[0] &= M26; l[1] += c;
	c = l[1] >> 26; l[1] &= M26; l[2] += c;
	c = l[2] >> 26; l[2] &= M26; l[3] += c;
	c = l[3] >> 26; l[3] &= M26; l[4] += c;
	c = l[4] >> 26; l[4] &= M26; l[0] += c * 5;
	c = l[0] >> 26; l[0] &= M26; l[1] += c;
	/* radix 2^26 -> 2^64 */
	t = (poly1305_u128)l[0] + ((poly1305_u128)l[1] << 26) + ((poly1305_u128)l[2] << 52);
	st->h[0] = (u64)t;
	t >>= 64;
	t += ((poly1305_u128)l[3] << 14) + ((poly1305_u128)l[4] << 40);
	st->h[1] = (u64)t;
	st->h[2] = (u64)(t >> 64);
	memzero_explicit(l, sizeof(l));
}

static void poly1305_blocks_neon(struct poly1305_state *st, const u8 *src, size_t nblocks,
				 u32 padbit)
{
	if (nblocks >= NEON_MIN_BLOCKS) {
		size_t n = nblocks & ~(size_t)3;

		if (st->arch_ready != ARCH_NEON)
			neon_precompute(st);
		neon_blocks4(st, src, n, padbit);
		src += n * POLY1305_BLOCK_SIZE;
		nblocks -= n;
	}
	poly1305_blocks_arm64(st, src, nblocks, padbit);
}

static struct poly1305_alg poly1305_neon_alg =
	RIND_POLY1305_ALG("poly1305-neon", 400, "arm64", poly1305_blocks_neon);

static int poly1305_neon_mod_init(void)
{
	/* The known-answer tests of "poly1305" are algs/poly1305.c's. */
	if (!rind_cpu_has(RIND_ARM64_ASIMD))
		return 0;
	return crypto_register_shash(&poly1305_neon_alg.alg);
}

module_init(poly1305_neon_mod_init);
