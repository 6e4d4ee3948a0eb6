// SPDX-License-Identifier: MIT
/*
 * ML-KEM (FIPS 203) arithmetic with NEON: "mlkem512-neon",
 * "mlkem768-neon", "mlkem1024-neon" and "x25519mlkem768-neon", priority
 * 300 (generic is 100).  Requires: ASIMD (HWCAP_ASIMD).
 *
 * Eight 16-bit coefficients per 128-bit register.  The NTT, its inverse
 * and the base multiplication keep the generic code's order and its
 * exact representatives (struct mlkem_ops requires it), so keys,
 * ciphertexts and known answers are those of algs/mlkem.c:
 *  - the layers with distance >= 16 pair whole registers from memory;
 *    each group of 16 coefficients then runs the distances 8, 4 and 2 in
 *    two registers: 8 pairs the two registers, 4 regroups them by 64-bit
 *    halves (TRN1/TRN2 on 64-bit elements) and 2 by 32-bit units (TRN1/
 *    TRN2 on 32-bit elements), so that partners sit in the same lanes,
 *    with the zetas laid out per lane (tables filled at registration);
 *  - a Montgomery product a*b*R^-1 is MUL (t = a * (b q^-1) mod 2^16),
 *    two SQDMULH (floor(2ab / 2^16) and floor(2tq / 2^16), whose low bits
 *    agree because ab = tq mod 2^16) and SHSUB (their halved difference):
 *    exactly the generic montgomery_reduce(a * b) whenever not both
 *    operands are -2^15 (SQDMULH saturates there), which no caller
 *    produces: one operand is always a zeta, a gamma or a reduced
 *    coefficient;
 *  - Barrett reduction is the generic floor((a v + 2^25) / 2^26) as
 *    SRSHR #11 of SQDMULH(a, v) = floor(a v / 2^15) (a floor inside a
 *    floor), then MLS;
 *  - the base multiplication deinterleaves pairs with LD2/ST2.
 * Matrix expansion and noise sampling run two SHAKE streams at once
 * over a two-way Keccak-f[1600] (keccak-x2.h): keccak-ce.c's EOR3/RAX1/
 * XAR/BCAX rounds where HWCAP_SHA3, keccak-x2-neon.c's plain ASIMD ones
 * otherwise; the rejection sampling (public data, from rho) takes eight
 * candidates at a time (a TBL spread, CMHI, and a TBL compaction by the
 * accept mask), the CBD is a NEON form of the generic one (neon_cbd).
 * Compression and decompression compute in NEON (the generic formulas,
 * eight coefficients at a time, UMULL for the division by q) and pack or
 * unpack the bits in registers too: pairwise merges by USHL for
 * ByteEncode, a TBL gather and per-lane USHL for ByteDecode.
 *
 * Constant time: MUL, SQDMULH, SHSUB, SRSHR, MLS, ADD/SUB and TRN1/TRN2
 * (and UMULL, USHL/USHR, AND/ORR, XTN, and TBL with public indices in
 * the encodings) only, data-independent under PSTATE.DIT; no branch or index depends on
 * a coefficient; the zeta tables are public constants.  The sponge lanes
 * are the Keccak files' instructions; SampleNTT's branches depend on rho
 * only (public), the noise lanes on nothing but the (public) counts.
 *
 * Expected speed, an estimate (no arm64 hardware here; Neoverse N1 has
 * two 128-bit ASIMD pipes, and 16-bit multiplies are assumed to issue at
 * one per cycle): an NTT is 7 layers x 16 butterfly vectors x 6
 * instructions, plus the Barrett pass, the regroupings and the loads and
 * stores, about 1000 vector instructions, some 600-900 cycles, eight
 * coefficients per instruction where the generic C takes one; the
 * inverse (a Barrett reduction per butterfly) about a third more.
 * Sampling: ML-KEM-768's matrix about 14 two-way permutations (~1200
 * cycles each on V1 with SHA3, ~2500 on N1 without), against 27
 * one-way ones; the noise half the permutations of the generic code.
 * The rejection: about 12 instructions per eight candidates where the
 * generic loop takes some 8-10 per candidate, roughly 700 cycles rather
 * than 4000 for ML-KEM-768's ~2700 candidates on N1.
 * The encodings: per eight coefficients about 20 vector instructions to
 * compress and 10 to pack (plus 4-5 general ones), 5 to unpack and 8 to
 * decompress, some 400-600 cycles per polynomial on N1 where the generic
 * shift loop takes about five instructions per coefficient.
 */
#include <arm_neon.h>
#include <string.h>
#include <rind/internal/kem.h>
#include <rind/internal/util.h>
#include <crypto/keccak.h>
#include <crypto/mlkem.h>
#include "keccak-x2.h"

#define NEON_INLINE static inline __attribute__((always_inline))

#define Q	MLKEM_Q
#define QINV	(-3327)		/* q^-1 mod 2^16, as a signed 16-bit value */
#define BARRETT_V 20159		/* round(2^26 / q) */

/*
 * Per group g of 16 coefficients, the per-lane zetas of the distances 4
 * and 2, forward and inverse order, with their products by q^-1 mod 2^16.
 */
static s16 fz4[16][8], fz4q[16][8], fz2[16][8], fz2q[16][8];
static s16 iz4[16][8], iz4q[16][8], iz2[16][8], iz2q[16][8];
static s16 gammaq[128];

static s16 times_qinv(s16 z)
{
	return (s16)(u16)((u32)(s32)z * (u32)(s32)QINV);
}

static void mlkem_neon_tables(void)
{
	const s16 *z = rind_mlkem_zetas;
	unsigned int g, l;

	for (g = 0; g < 16; g++) {
		for (l = 0; l < 8; l++) {
			/* distance 4: lanes 0-3 block 2g, lanes 4-7 block 2g + 1 */
			unsigned int b4 = 2 * g + l / 4;
			/* distance 2: 32-bit units hold blocks 4g, 4g + 2, 4g + 1, 4g + 3 */
			static const unsigned int u2[4] = { 0, 2, 1, 3 };
			unsigned int b2 = 4 * g + u2[l / 2];

			fz4[g][l] = z[32 + b4];
			iz4[g][l] = z[63 - b4];
			fz2[g][l] = z[64 + b2];
			iz2[g][l] = z[127 - b2];
			fz4q[g][l] = times_qinv(fz4[g][l]);
			iz4q[g][l] = times_qinv(iz4[g][l]);
			fz2q[g][l] = times_qinv(fz2[g][l]);
			iz2q[g][l] = times_qinv(iz2[g][l]);
		}
	}
	for (g = 0; g < 128; g++)
		gammaq[g] = times_qinv(rind_mlkem_gammas[g]);
}

/* a * b * R^-1 as montgomery_reduce(a * b); bq = b q^-1 mod 2^16 */
NEON_INLINE int16x8_t fqmul(int16x8_t a, int16x8_t b, int16x8_t bq)
{
	int16x8_t t = vmulq_s16(a, bq);

	return vhsubq_s16(vqdmulhq_s16(a, b), vqdmulhq_s16(t, vdupq_n_s16(Q)));
}

/* a - round(a v / 2^26) q: the generic barrett_reduce */
NEON_INLINE int16x8_t barrett(int16x8_t a)
{
	int16x8_t t = vrshrq_n_s16(vqdmulhq_s16(a, vdupq_n_s16(BARRETT_V)), 11);

	return vmlsq_s16(a, t, vdupq_n_s16(Q));
}

/* Forward butterfly: t = z y; y = x - t; x = x + t */
NEON_INLINE void fbf(int16x8_t *x, int16x8_t *y, int16x8_t z, int16x8_t zq)
{
	int16x8_t t = fqmul(*y, z, zq);

	*y = vsubq_s16(*x, t);
	*x = vaddq_s16(*x, t);
}

/* Inverse butterfly: x' = barrett(x + y); y' = z (y - x) */
NEON_INLINE void ibf(int16x8_t *x, int16x8_t *y, int16x8_t z, int16x8_t zq)
{
	int16x8_t t = *x;

	*x = barrett(vaddq_s16(t, *y));
	*y = fqmul(vsubq_s16(*y, t), z, zq);
}

#define TRN64(f, a, b)	vreinterpretq_s16_s64(f(vreinterpretq_s64_s16(a), vreinterpretq_s64_s16(b)))
#define TRN32(f, a, b)	vreinterpretq_s16_s32(f(vreinterpretq_s32_s16(a), vreinterpretq_s32_s16(b)))

/* The layers of distance >= 16, whole registers from memory. */
static void ntt_outer(s16 *c)
{
	unsigned int len, start, j, i = 1;

	for (len = 128; len >= 16; len >>= 1) {
		for (start = 0; start < MLKEM_N; start += 2 * len) {
			s16 zs = rind_mlkem_zetas[i++];
			int16x8_t z = vdupq_n_s16(zs), zq = vdupq_n_s16(times_qinv(zs));

			for (j = start; j < start + len; j += 8) {
				int16x8_t x = vld1q_s16(c + j), y = vld1q_s16(c + j + len);

				fbf(&x, &y, z, zq);
				vst1q_s16(c + j, x);
				vst1q_s16(c + j + len, y);
			}
		}
	}
}

/* FIPS 203 Algorithm 9; input |c| < q, output Barrett-reduced. */
static void neon_ntt(struct mlkem_poly *f)
{
	unsigned int g;

	ntt_outer(f->c);
	for (g = 0; g < 16; g++) {
		s16 *c = f->c + 16 * g;
		s16 zs = rind_mlkem_zetas[16 + g];
		int16x8_t v0 = vld1q_s16(c), v1 = vld1q_s16(c + 8), x, y;

		/* distance 8: block g is the two registers */
		fbf(&v0, &v1, vdupq_n_s16(zs), vdupq_n_s16(times_qinv(zs)));
		/* distance 4 */
		x = TRN64(vtrn1q_s64, v0, v1);
		y = TRN64(vtrn2q_s64, v0, v1);
		fbf(&x, &y, vld1q_s16(fz4[g]), vld1q_s16(fz4q[g]));
		v0 = TRN64(vtrn1q_s64, x, y);
		v1 = TRN64(vtrn2q_s64, x, y);
		/* distance 2 */
		x = TRN32(vtrn1q_s32, v0, v1);
		y = TRN32(vtrn2q_s32, v0, v1);
		fbf(&x, &y, vld1q_s16(fz2[g]), vld1q_s16(fz2q[g]));
		v0 = TRN32(vtrn1q_s32, x, y);
		v1 = TRN32(vtrn2q_s32, x, y);
		vst1q_s16(c, barrett(v0));
		vst1q_s16(c + 8, barrett(v1));
	}
}

/* FIPS 203 Algorithm 10, times R (to cancel a product's R^-1); out in (-q, q). */
static void neon_invntt(struct mlkem_poly *f)
{
	const s16 fs = rind_mlkem_invntt_f;
	const int16x8_t fv = vdupq_n_s16(fs), fq = vdupq_n_s16(times_qinv(fs));
	unsigned int g, len, start, j, i = 15;

	for (g = 0; g < 16; g++) {
		s16 *c = f->c + 16 * g;
		s16 zs = rind_mlkem_zetas[31 - g];
		int16x8_t v0 = vld1q_s16(c), v1 = vld1q_s16(c + 8), x, y;

		/* distance 2 */
		x = TRN32(vtrn1q_s32, v0, v1);
		y = TRN32(vtrn2q_s32, v0, v1);
		ibf(&x, &y, vld1q_s16(iz2[g]), vld1q_s16(iz2q[g]));
		v0 = TRN32(vtrn1q_s32, x, y);
		v1 = TRN32(vtrn2q_s32, x, y);
		/* distance 4 */
		x = TRN64(vtrn1q_s64, v0, v1);
		y = TRN64(vtrn2q_s64, v0, v1);
		ibf(&x, &y, vld1q_s16(iz4[g]), vld1q_s16(iz4q[g]));
		v0 = TRN64(vtrn1q_s64, x, y);
		v1 = TRN64(vtrn2q_s64, x, y);
		/* distance 8 */
		ibf(&v0, &v1, vdupq_n_s16(zs), vdupq_n_s16(times_qinv(zs)));
		vst1q_s16(c, v0);
		vst1q_s16(c + 8, v1);
	}
	for (len = 16; len <= 128; len <<= 1) {
		for (start = 0; start < MLKEM_N; start += 2 * len) {
			s16 zs = rind_mlkem_zetas[i--];
			int16x8_t z = vdupq_n_s16(zs), zq = vdupq_n_s16(times_qinv(zs));

			for (j = start; j < start + len; j += 8) {
				int16x8_t x = vld1q_s16(f->c + j), y = vld1q_s16(f->c + j + len);

				ibf(&x, &y, z, zq);
				vst1q_s16(f->c + j, x);
				vst1q_s16(f->c + j + len, y);
			}
		}
	}
	for (j = 0; j < MLKEM_N; j += 8)
		vst1q_s16(f->c + j, fqmul(vld1q_s16(f->c + j), fv, fq));
}

/* r += a * b in the NTT domain (FIPS 203 Algorithms 11, 12), times R^-1. */
static void neon_basemul_acc(struct mlkem_poly *r, const struct mlkem_poly *a,
			     const struct mlkem_poly *b)
{
	unsigned int i;

	for (i = 0; i < 128; i += 8) {
		int16x8x2_t av = vld2q_s16(a->c + 2 * i), bv = vld2q_s16(b->c + 2 * i);
		int16x8x2_t rv = vld2q_s16(r->c + 2 * i);
		int16x8_t g = vld1q_s16(rind_mlkem_gammas + i), gq = vld1q_s16(gammaq + i);
		int16x8_t b0q = vmulq_n_s16(bv.val[0], QINV), b1q = vmulq_n_s16(bv.val[1], QINV);
		int16x8_t t, u;

		/* a1 b1 gamma + a0 b0 */
		t = fqmul(av.val[1], bv.val[1], b1q);
		t = fqmul(t, g, gq);
		u = fqmul(av.val[0], bv.val[0], b0q);
		rv.val[0] = vaddq_s16(rv.val[0], vaddq_s16(t, u));
		/* a0 b1 + a1 b0 */
		t = fqmul(av.val[0], bv.val[1], b1q);
		u = fqmul(av.val[1], bv.val[0], b0q);
		rv.val[1] = vaddq_s16(rv.val[1], vaddq_s16(t, u));
		vst2q_s16(r->c + 2 * i, rv);
	}
}

/* ---- sampling over two Keccak states at once ---------------------------- */

/*
 * The two-way permutation the drivers use: keccak-ce.c's where the CPU
 * has SHA3, else keccak-x2-neon.c's (set at registration; a variable so
 * that tests/test_mlkem.c can run the drivers over either).
 */
void (*rind_mlkem_neon_keccakx2)(struct keccakx2_state *s);

/*
 * Start state @l on the one-block input @seed || @tail (@tlen = 1 or 2
 * bytes, little-endian in @tail), padded for SHAKE at @rate: written
 * straight into the lane, so no copy of sigma is left to wipe.
 */
static void lane_start(struct keccakx2_state *s, unsigned int l, const u8 seed[32], u32 tail,
		       unsigned int tlen, unsigned int rate)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		s->a[i][l] = get_unaligned_le64(seed + 8 * i);
	s->a[4][l] = tail | (u64)KECCAK_DS_SHAKE << (8 * tlen);
	for (i = 5; i < 25; i++)
		s->a[i][l] = 0;
	s->a[rate / 8 - 1][l] ^= 0x80ull << 56;
}

/*
 * The first @words (odd) words of both states as bytes, state 0 into
 * @o0 and state 1 into @o1: TRN1/TRN2 of word pairs, one 16-byte store
 * per state and pair (little-endian, the sponge's byte order).
 */
static void lanes_bytes(u8 *o0, u8 *o1, const struct keccakx2_state *s, unsigned int words)
{
	unsigned int i;

	for (i = 0; i + 1 < words; i += 2) {
		uint64x2_t x = vld1q_u64(s->a[i]), y = vld1q_u64(s->a[i + 1]);

		vst1q_u8(o0 + 8 * i, vreinterpretq_u8_u64(vtrn1q_u64(x, y)));
		vst1q_u8(o1 + 8 * i, vreinterpretq_u8_u64(vtrn2q_u64(x, y)));
	}
	put_unaligned_le64(s->a[i][0], o0 + 8 * i);
	put_unaligned_le64(s->a[i][1], o1 + 8 * i);
}

/*
 * SampleNTT's compaction: for each 8-bit mask of accepted candidates, the
 * TBL indices that move the accepted 16-bit lanes, in order, to the front
 * (the rest zero).  Filled at registration; indexed by public data only.
 */
static u8 rej_idx[256][16];

static void rej_tables(void)
{
	unsigned int m, j, k;

	for (m = 0; m < 256; m++) {
		memset(rej_idx[m], 0xff, 16);
		for (j = 0, k = 0; j < 8; j++)
			if (m >> j & 1) {
				rej_idx[m][2 * k] = (u8)(2 * j);
				rej_idx[m][2 * k + 1] = (u8)(2 * j + 1);
				k++;
			}
	}
}

/*
 * SampleNTT's rejection (FIPS 203 Algorithm 7) over one squeezed block
 * of @len bytes (a multiple of 3), from coefficient @ctr on; returns the
 * new count.  The blocks are public (from rho), so the branches and the
 * table index are too.  Whole 3-byte groups per block, as the generic
 * code reads 3 blocks and then 1 at a time: the same coefficients in the
 * same order.  Twelve bytes (eight candidates) at a time while all eight
 * fit below 256: a TBL spreads them to 16-bit lanes (bytes 3i, 3i + 1 and
 * 3i + 1, 3i + 2), USHL by 0 / -4 and AND 0xfff give the 12-bit values,
 * CMHI against q and a weighted ADDV the 8-bit mask, and rej_idx[mask]
 * packs the accepted ones to the front of the store (the lanes past them
 * are overwritten by the next store); then the generic loop for the
 * rest.  Reads up to 4 bytes past @len: the caller's buffer has them.
 */
static unsigned int rej_block(s16 *r, unsigned int ctr, const u8 *buf, unsigned int len)
{
	static const u8 spread[16] = { 0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11 };
	static const s16 shifts[8] = { 0, -4, 0, -4, 0, -4, 0, -4 };
	static const u16 weights[8] = { 1, 2, 4, 8, 16, 32, 64, 128 };
	const uint8x16_t sp = vld1q_u8(spread);
	const int16x8_t sh = vld1q_s16(shifts);
	const uint16x8_t w = vld1q_u16(weights), q = vdupq_n_u16(Q), m12 = vdupq_n_u16(0xfff);
	unsigned int pos = 0;

	for (; pos + 12 <= len && ctr + 8 <= MLKEM_N; pos += 12) {
		uint16x8_t v = vreinterpretq_u16_u8(vqtbl1q_u8(vld1q_u8(buf + pos), sp));
		unsigned int m;

		v = vandq_u16(vshlq_u16(v, sh), m12);
		m = vaddvq_u16(vandq_u16(vcltq_u16(v, q), w));
		vst1q_u8((u8 *)(r + ctr), vqtbl1q_u8(vreinterpretq_u8_u16(v), vld1q_u8(rej_idx[m])));
		ctr += (unsigned int)__builtin_popcount(m);
	}
	for (; pos + 3 <= len && ctr < MLKEM_N; pos += 3) {
		u16 d1 = (u16)(buf[pos] | ((buf[pos + 1] & 0x0f) << 8));
		u16 d2 = (u16)((buf[pos + 1] >> 4) | (buf[pos + 2] << 4));

		if (d1 < Q)
			r[ctr++] = (s16)d1;
		if (d2 < Q && ctr < MLKEM_N)
			r[ctr++] = (s16)d2;
	}
	return ctr;
}

/*
 * A-hat[i][j] = SampleNTT(rho || j || i) (struct mlkem_ops.gen_matrix):
 * the k^2 SHAKE128 streams are jobs handed to the two lanes as lanes
 * free up, so a lane never waits for the other's rejections: ML-KEM-768's
 * nine streams (3 blocks each, now and then 4) take about 14 two-way
 * permutations rather than 15 of fixed pairs or 27 one at a time.  The schedule
 * depends on rho only (public).
 */
static void neon_gen_matrix(struct mlkem_key *key, const u8 rho[32])
{
	void (*f1600)(struct keccakx2_state *) = rind_mlkem_neon_keccakx2;
	const unsigned int k = key->p->k, n = k * k;
	struct keccakx2_state s;
	u8 buf[2][SHAKE128_RATE + 8];	/* rej_block reads up to 4 bytes past */
	unsigned int job[2], ctr[2], next = 0, busy = 0, l;

	memset(buf, 0, sizeof(buf));	/* the padding read by rej_block */
	/* n = k^2 >= 4: both lanes start on a job */
	for (l = 0; l < 2; l++) {
		job[l] = next++;
		ctr[l] = 0;
		lane_start(&s, l, rho, (job[l] % k) | (job[l] / k) << 8, 2, SHAKE128_RATE);
		busy++;
	}
	while (busy) {
		f1600(&s);
		lanes_bytes(buf[0], buf[1], &s, SHAKE128_RATE / 8);
		for (l = 0; l < 2; l++) {
			unsigned int j = job[l];

			if (j >= n)
				continue;
			ctr[l] = rej_block(key->a[j / k][j % k].c, ctr[l], buf[l], SHAKE128_RATE);
			if (ctr[l] < MLKEM_N)
				continue;
			ctr[l] = 0;
			if (next < n) {
				job[l] = next++;
				lane_start(&s, l, rho, (job[l] % k) | (job[l] / k) << 8, 2,
					   SHAKE128_RATE);
			} else {
				job[l] = n;
				busy--;
			}
		}
	}
}

/*
 * SamplePolyCBD_eta (FIPS 203 Algorithm 8) in NEON, the generic
 * rind_mlkem_cbd()'s coefficients exactly.  eta = 2: per byte two
 * coefficients, each the popcount of two bits minus that of the next two:
 * d = (x & 0x55) + ((x >> 1) & 0x55) holds the four 2-bit sums, and the
 * coefficients of byte k (2k from the low nibble, 2k + 1 from the high)
 * are zipped into order and widened.  eta = 3: coefficient 4i + j takes
 * the six bits from bit 24i + 6j, which a TBL gathers into a 16-bit lane
 * (bytes 3i + (6j >> 3) and the next) and a USHL by -(6j & 7) brings
 * down; then the same two 3-bit sums.  Reads up to 4 bytes past the 192
 * of eta = 3 (masked off): callers pass a buffer of 2 SHAKE256 blocks.
 * Constant time: AND, USHR/USHL by public amounts, ADD/SUB, ZIP, TBL with
 * public indices, SXTL.
 */
static void neon_cbd(struct mlkem_poly *r, const u8 *buf, unsigned int eta)
{
	unsigned int k;

	if (eta == 2) {
		const uint8x16_t m55 = vdupq_n_u8(0x55), m3 = vdupq_n_u8(3);

		for (k = 0; k < 8; k++) {
			uint8x16_t x = vld1q_u8(buf + 16 * k);
			uint8x16_t d = vaddq_u8(vandq_u8(x, m55), vandq_u8(vshrq_n_u8(x, 1), m55));
			int8x16_t lo = vsubq_s8(vreinterpretq_s8_u8(vandq_u8(d, m3)),
						vreinterpretq_s8_u8(vandq_u8(vshrq_n_u8(d, 2), m3)));
			int8x16_t hi = vsubq_s8(vreinterpretq_s8_u8(vandq_u8(vshrq_n_u8(d, 4), m3)),
						vreinterpretq_s8_u8(vshrq_n_u8(d, 6)));
			int8x16_t c0 = vzip1q_s8(lo, hi), c1 = vzip2q_s8(lo, hi);

			vst1q_s16(r->c + 32 * k, vmovl_s8(vget_low_s8(c0)));
			vst1q_s16(r->c + 32 * k + 8, vmovl_high_s8(c0));
			vst1q_s16(r->c + 32 * k + 16, vmovl_s8(vget_low_s8(c1)));
			vst1q_s16(r->c + 32 * k + 24, vmovl_high_s8(c1));
		}
	} else {
		/* lanes j = 0..3 of groups i = 0, 1 (first vector) and 2, 3 (second) */
		static const u8 idx0[16] = { 0, 1, 0, 1, 1, 2, 2, 3, 3, 4, 3, 4, 4, 5, 5, 6 };
		static const u8 idx1[16] = { 6, 7, 6, 7, 7, 8, 8, 9, 9, 10, 9, 10, 10, 11, 11, 12 };
		static const s16 sh[8] = { 0, -6, -4, -2, 0, -6, -4, -2 };
		const uint8x16_t t0 = vld1q_u8(idx0), t1 = vld1q_u8(idx1);
		const int16x8_t shv = vld1q_s16(sh);
		const uint16x8_t m3f = vdupq_n_u16(0x3f), m09 = vdupq_n_u16(0x09), m7 = vdupq_n_u16(7);

		for (k = 0; k < 16; k++) {
			uint8x16_t x = vld1q_u8(buf + 12 * k);
			uint16x8_t f[2];
			int j;

			f[0] = vreinterpretq_u16_u8(vqtbl1q_u8(x, t0));
			f[1] = vreinterpretq_u16_u8(vqtbl1q_u8(x, t1));
			for (j = 0; j < 2; j++) {
				uint16x8_t v = vandq_u16(vshlq_u16(f[j], shv), m3f);
				uint16x8_t d = vaddq_u16(vaddq_u16(vandq_u16(v, m09),
								  vandq_u16(vshrq_n_u16(v, 1), m09)),
							 vandq_u16(vshrq_n_u16(v, 2), m09));

				vst1q_s16(r->c + 16 * k + 8 * j,
					  vsubq_s16(vreinterpretq_s16_u16(vandq_u16(d, m7)),
						    vreinterpretq_s16_u16(vshrq_n_u16(d, 3))));
			}
		}
	}
}

/*
 * r[i] = SamplePolyCBD_eta(PRF_eta(sigma, n0 + i)) (struct mlkem_ops.noise),
 * two polynomials per pass: PRF_eta is SHAKE256 of the 33 bytes sigma ||
 * n, 64 eta bytes out (one block for eta = 2, two for 3).  With an odd
 * @count the second lane repeats the last stream and is dropped.  The
 * states hold sigma: wiped with the output blocks.
 */
static void neon_noise(struct mlkem_poly *const r[], unsigned int count, const u8 sigma[32],
		       u8 n0, unsigned int eta)
{
	void (*f1600)(struct keccakx2_state *) = rind_mlkem_neon_keccakx2;
	const unsigned int nb = 64 * eta > SHAKE256_RATE ? 2 : 1;
	struct keccakx2_state s;
	u8 buf[2][2 * SHAKE256_RATE];
	unsigned int i, l, b;

	for (i = 0; i < count; i += 2) {
		for (l = 0; l < 2; l++)
			lane_start(&s, l, sigma, (u8)(n0 + (i + l < count ? i + l : i)), 1,
				   SHAKE256_RATE);
		for (b = 0; b < nb; b++) {
			f1600(&s);
			lanes_bytes(buf[0] + SHAKE256_RATE * b, buf[1] + SHAKE256_RATE * b, &s,
				    SHAKE256_RATE / 8);
		}
		for (l = 0; l < 2 && i + l < count; l++)
			neon_cbd(r[i + l], buf[l], eta);
	}
	memzero_explicit(&s, sizeof(s));
	memzero_explicit(buf, sizeof(buf));
}

/* ---- compression -------------------------------------------------------- */

#define COMPRESS_M40	((((u64)1 << 40) + Q - 1) / Q)	/* ceil(2^40 / q), the generic's */

/*
 * Compress_d (FIPS 203 4.7) of eight coefficients, any representatives:
 * the generic Barrett reduction and caddq to [0, q), then the generic
 * floor((2^d x + (q - 1)/2) ceil(2^40 / q) / 2^40) mod 2^d in 32-bit
 * lanes, the products by UMULL/UMULL2 in 64-bit ones (below 2^52).
 */
NEON_INLINE uint16x8_t compress8(int16x8_t a, int32x4_t sh, uint32x4_t mask)
{
	const uint32x4_t half = vdupq_n_u32(Q / 2), m = vdupq_n_u32((u32)COMPRESS_M40);
	int16x8_t x = barrett(a);
	uint16x8_t ux;
	uint32x4_t lo, hi;

	x = vaddq_s16(x, vandq_s16(vshrq_n_s16(x, 15), vdupq_n_s16(Q)));
	ux = vreinterpretq_u16_s16(x);
	lo = vaddq_u32(vshlq_u32(vmovl_u16(vget_low_u16(ux)), sh), half);
	hi = vaddq_u32(vshlq_u32(vmovl_high_u16(ux), sh), half);
	lo = vcombine_u32(vmovn_u64(vshrq_n_u64(vmull_u32(vget_low_u32(lo), vget_low_u32(m)), 40)),
			  vmovn_u64(vshrq_n_u64(vmull_high_u32(lo, m), 40)));
	hi = vcombine_u32(vmovn_u64(vshrq_n_u64(vmull_u32(vget_low_u32(hi), vget_low_u32(m)), 40)),
			  vmovn_u64(vshrq_n_u64(vmull_high_u32(hi, m), 40)));
	return vcombine_u16(vmovn_u32(vandq_u32(lo, mask)), vmovn_u32(vandq_u32(hi, mask)));
}

/*
 * ByteEncode_d of eight d-bit values (d <= 11) to the d bytes at @p: the
 * values merged pairwise in the vector (16-bit lanes into 32-bit ones,
 * x0 | x1 << d, then into 64-bit ones, | << 2d), the two 4d-bit halves
 * joined in general registers.  Writes 8 bytes (d <= 8) or 12 (d > 8)
 * from @p, the bytes past the d zero: the caller's buffer has the room,
 * and the next group overwrites them.  Shifts by the public d only.
 */
NEON_INLINE void pack8(u8 *p, uint16x8_t v, unsigned int d)
{
	uint32x4_t w = vreinterpretq_u32_u16(v);
	uint64x2_t x;
	u64 l0, l1;

	w = vorrq_u32(vandq_u32(w, vdupq_n_u32(0xffff)),
		      vshlq_u32(vshrq_n_u32(w, 16), vdupq_n_s32((int)d)));
	x = vreinterpretq_u64_u32(w);
	x = vorrq_u64(vandq_u64(x, vdupq_n_u64(0xffffffffu)),
		      vshlq_u64(vshrq_n_u64(x, 32), vdupq_n_s64(2 * (int)d)));
	l0 = vgetq_lane_u64(x, 0);
	l1 = vgetq_lane_u64(x, 1);
	put_unaligned_le64(l0 | l1 << (4 * d), p);
	if (d > 8)
		put_unaligned_le32((u32)(l1 >> (64 - 4 * d)), p + 8);
}

/*
 * ByteDecode_d of the d bytes at @p (d <= 11) to eight d-bit values:
 * value j starts at bit d j, so a TBL gathers bytes (d j) / 8 .. + 2 into
 * 32-bit lane j (index 0xff: a zero byte), USHL by -((d j) % 8) brings it
 * down and AND keeps d bits.  Reads 16 bytes from @p (the caller's buffer
 * has the room).  Indices and shifts from the public d only.
 */
struct unpack_tbl {
	uint8x16_t idx[2];
	int32x4_t sh[2];
	uint32x4_t mask;
};

static void unpack_tbl_init(struct unpack_tbl *t, unsigned int d)
{
	u8 idx[2][16];
	s32 sh[2][4];
	unsigned int j, b;

	for (j = 0; j < 8; j++) {
		for (b = 0; b < 4; b++)
			idx[j / 4][4 * (j % 4) + b] = b < 3 ? (u8)((d * j) / 8 + b) : 0xff;
		sh[j / 4][j % 4] = -(s32)((d * j) % 8);
	}
	for (j = 0; j < 2; j++) {
		t->idx[j] = vld1q_u8(idx[j]);
		t->sh[j] = vld1q_s32(sh[j]);
	}
	t->mask = vdupq_n_u32((1u << d) - 1);
}

NEON_INLINE uint16x8_t unpack8(const u8 *p, const struct unpack_tbl *t)
{
	uint8x16_t in = vld1q_u8(p);
	uint32x4_t lo = vreinterpretq_u32_u8(vqtbl1q_u8(in, t->idx[0]));
	uint32x4_t hi = vreinterpretq_u32_u8(vqtbl1q_u8(in, t->idx[1]));

	lo = vandq_u32(vshlq_u32(lo, t->sh[0]), t->mask);
	hi = vandq_u32(vshlq_u32(hi, t->sh[1]), t->mask);
	return vcombine_u16(vmovn_u32(lo), vmovn_u32(hi));
}

/*
 * ByteEncode_d(Compress_d(a)) (struct mlkem_ops.compress), d in {1, 4, 5,
 * 10, 11}: eight coefficients at a time, compressed (compress8) and
 * packed (pack8) in registers, into a buffer with room for pack8's last
 * over-long store, then the 32 d bytes to @r.  No branch on a value; the
 * values may be secret (Compress_1 of the decrypted message): the buffer
 * is wiped.
 */
static void neon_compress(u8 *r, const struct mlkem_poly *a, unsigned int d)
{
	const int32x4_t sh = vdupq_n_s32((int)d);
	const uint32x4_t mask = vdupq_n_u32((1u << d) - 1);
	u8 buf[32 * 11 + 16];
	unsigned int i;

	for (i = 0; i < MLKEM_N / 8; i++)
		pack8(buf + d * i, compress8(vld1q_s16(a->c + 8 * i), sh, mask), d);
	memcpy(r, buf, 32 * d);
	memzero_explicit(buf, sizeof(buf));
}

/*
 * Decompress_d(ByteDecode_d(a)) (struct mlkem_ops.decompress): the 32 d
 * bytes copied into a buffer with room for unpack8's 16-byte loads, then
 * eight coefficients at a time unpacked (unpack8) and decompressed,
 * (y q + 2^(d-1)) >> d (UMULL/UMULL2 to 32-bit lanes, ADD, USHL by -d,
 * XTN), in registers.
 */
static void neon_decompress(struct mlkem_poly *r, const u8 *a, unsigned int d)
{
	const uint32x4_t rnd = vdupq_n_u32(1u << (d - 1));
	const int32x4_t sh = vdupq_n_s32(-(int)d);
	struct unpack_tbl t;
	u8 buf[32 * 11 + 16];
	unsigned int i;

	unpack_tbl_init(&t, d);
	memcpy(buf, a, 32 * d);
	memset(buf + 32 * d, 0, 16);
	for (i = 0; i < MLKEM_N / 8; i++) {
		uint16x8_t v = unpack8(buf + d * i, &t);
		uint32x4_t lo = vmull_u16(vget_low_u16(v), vdup_n_u16(Q));
		uint32x4_t hi = vmull_high_u16(v, vdupq_n_u16(Q));

		lo = vshlq_u32(vaddq_u32(lo, rnd), sh);
		hi = vshlq_u32(vaddq_u32(hi, rnd), sh);
		vst1q_s16(r->c + 8 * i,
			  vreinterpretq_s16_u16(vcombine_u16(vmovn_u32(lo), vmovn_u32(hi))));
	}
	memzero_explicit(buf, sizeof(buf));
}

static struct mlkem_ops mlkem_neon_ops;
static struct mlkem_alg mlkem_neon_algs[3];
static struct mlkem_alg xmlkem_neon_alg;
static const char *const mlkem_neon_names[3] = {
	"mlkem512-neon", "mlkem768-neon", "mlkem1024-neon",
};

static int mlkem_neon_mod_init(void)
{
	int err;

	if (!rind_cpu_has(RIND_ARM64_ASIMD))
		return 0;
	rind_mlkem_init_tables();
	mlkem_neon_tables();
	rej_tables();
	rind_mlkem_neon_keccakx2 = rind_cpu_has(RIND_ARM64_SHA3) ? rind_keccakx2_f1600_ce
								  : rind_keccakx2_f1600_neon;
	mlkem_neon_ops = rind_mlkem_generic_ops;
	mlkem_neon_ops.ntt = neon_ntt;
	mlkem_neon_ops.invntt = neon_invntt;
	mlkem_neon_ops.basemul_acc = neon_basemul_acc;
	mlkem_neon_ops.gen_matrix = neon_gen_matrix;
	mlkem_neon_ops.noise = neon_noise;
	mlkem_neon_ops.compress = neon_compress;
	mlkem_neon_ops.decompress = neon_decompress;
	err = rind_mlkem_register_drivers(mlkem_neon_algs, &mlkem_neon_ops,
					  mlkem_neon_names, 300, "arm64");
	if (err)
		return err;
	return rind_xmlkem_register_driver(&xmlkem_neon_alg, &mlkem_neon_ops,
					   "x25519mlkem768-neon", 300, "arm64");
}
module_init(mlkem_neon_mod_init);
