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
 * Matrix expansion, noise sampling and compression are the generic
 * code's, over the library Keccak (keccak-ce.c where the CPU has SHA3).
 *
 * Constant time: MUL, SQDMULH, SHSUB, SRSHR, MLS, ADD/SUB and TRN1/TRN2
 * only, data-independent under PSTATE.DIT; no branch or index depends on
 * a coefficient; the zeta tables are public constants.
 *
 * Expected speed, an estimate (no arm64 hardware here; Neoverse N1 has
 * two 128-bit ASIMD pipes, and 16-bit multiplies are assumed to issue at
 * one per cycle): an NTT is 7 layers x 16 butterfly vectors x 6
 * instructions, plus the Barrett pass, the regroupings and the loads and
 * stores, about 1000 vector instructions, some 600-900 cycles, eight
 * coefficients per instruction where the generic C takes one; the
 * inverse (a Barrett reduction per butterfly) about a third more.
 */
#include <arm_neon.h>
#include <string.h>
#include <rind/internal/kem.h>
#include <rind/internal/util.h>
#include <crypto/mlkem.h>

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
	/* Sampling and compression: the generic code's. */
	mlkem_neon_ops = rind_mlkem_generic_ops;
	mlkem_neon_ops.ntt = neon_ntt;
	mlkem_neon_ops.invntt = neon_invntt;
	mlkem_neon_ops.basemul_acc = neon_basemul_acc;
	err = rind_mlkem_register_drivers(mlkem_neon_algs, &mlkem_neon_ops,
					  mlkem_neon_names, 300, "arm64");
	if (err)
		return err;
	return rind_xmlkem_register_driver(&xmlkem_neon_alg, &mlkem_neon_ops,
					   "x25519mlkem768-neon", 300, "arm64");
}
module_init(mlkem_neon_mod_init);
