/* SPDX-License-Identifier: MIT */
/*
 * Montgomery arithmetic with MULX/ADCX/ADOX (arch/x86/bn-adx.c) over
 * bignum.h's struct bn_mont, for the RSA engine of arch/x86/rsa-adx.c.
 * Sizes: multiples of four limbs (bnx_fits()); the callers send the
 * others to the generic code.  Constant time in every operand.
 */
#ifndef _RIND_BN_ADX_H
#define _RIND_BN_ADX_H

#include <stdbool.h>
#include <rind/types.h>
#include <rind/internal/util.h>
#include <crypto/bignum.h>
#include <crypto/rsa.h>

/*
 * Scratch of one product, kept by the caller across an exponentiation
 * (not wiped per product: the caller wipes it once at the end).
 */
struct bnx_tmp {
	u64 t[BN_MAX_LIMBS + 2];
	u64 p[2 * BN_MAX_LIMBS + 1];
};

/*
 * The words of @tmp that products at @n limbs write (tmp->p: 2 n + 1 at
 * most, the 8x8 and unrolled kernels; tmp->t: n + 2, the CIOS one),
 * wiped once after a run of them -- not the whole struct, 3 KiB whatever n.
 */
static inline void bnx_tmp_wipe(struct bnx_tmp *tmp, unsigned int n)
{
	memzero_explicit(tmp->t, (size_t)(n + 2) * 8);
	memzero_explicit(tmp->p, (size_t)(2 * n + 1) * 8);
}

static inline bool bnx_fits(unsigned int n)
{
	return n >= 4 && n % 4 == 0 && n <= BN_MAX_LIMBS;
}

/* The kernel (bn-adx-mul.S): r = a b / R mod m, n % 4 == 0, t of n + 2 words. */
void bnx_mul_adx(u64 *r, const u64 *a, const u64 *b, const u64 *m, u64 m0inv, u64 n, u64 *t);

/* r = a^2 / R mod m (bn-adx-8x8.S), n % 8 == 0, t of 2 n words (or more). */
void bnx_sqr_adx(u64 *r, const u64 *a, const u64 *m, u64 m0inv, u64 n, u64 *t);

/* r = a b / R mod m (bn-adx-8x8.S: product, then the reduction), n % 8 == 0, t of 2 n words. */
void bnx_mulr_adx(u64 *r, const u64 *a, const u64 *b, const u64 *m, u64 m0inv, u64 n, u64 *t);

/*
 * The same for n = 16, 24, 32 only (RSA-2048/3072/4096's CRT halves),
 * every loop unrolled (bn-adx-8x8u.S): 4-6% faster than the loops.
 * bnx_sqr_fixed(n) / bnx_mul_fixed(n): the one for n, NULL for others.
 */
typedef void bnx_sqr_fn(u64 *r, const u64 *a, const u64 *m, u64 m0inv, u64 n, u64 *t);
typedef void bnx_mul_fn(u64 *r, const u64 *a, const u64 *b, const u64 *m, u64 m0inv, u64 n,
			u64 *t);
bnx_sqr_fn bnx_sqr16_adx, bnx_sqr24_adx, bnx_sqr32_adx;
bnx_mul_fn bnx_mul16_adx, bnx_mul24_adx, bnx_mul32_adx;

static inline bnx_sqr_fn *bnx_sqr_fixed(unsigned int n)
{
	return n == 16 ? bnx_sqr16_adx : n == 24 ? bnx_sqr24_adx : n == 32 ? bnx_sqr32_adx : NULL;
}

static inline bnx_mul_fn *bnx_mul_fixed(unsigned int n)
{
	return n == 16 ? bnx_mul16_adx : n == 24 ? bnx_mul24_adx : n == 32 ? bnx_mul32_adx : NULL;
}

/*
 * k >= 1 squarings in one call at n = 16, 24, 32 (bn-adx-8x8u.S): r =
 * a^(2^k) / R^(2^k - 1) mod m, a < m; one frame and one wipe for the run
 * (an exponentiation's window of squarings).  NULL for other n.
 */
typedef void bnx_sqrk_fn(u64 *r, const u64 *a, const u64 *m, u64 m0inv, u64 k, u64 *t);
bnx_sqrk_fn bnx_sqr16k_adx, bnx_sqr24k_adx, bnx_sqr32k_adx;

static inline bnx_sqrk_fn *bnx_sqrk_fixed(unsigned int n)
{
	return n == 16 ? bnx_sqr16k_adx : n == 24 ? bnx_sqr24k_adx : n == 32 ? bnx_sqr32k_adx : NULL;
}

/* r = a b / R mod m, as bn_mont_mul (a < R, b < m); r may alias a or b. */
void bnx_mont_mul(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mc,
		  struct bnx_tmp *tmp);
/* r = a^2 / R mod m (a < m); r may alias a. */
void bnx_mont_sqr(u64 *r, const u64 *a, const struct bn_mont *mc, struct bnx_tmp *tmp);
/* @k >= 1 of those in a row (bnx_sqrk_fixed's kernel where there is one). */
void bnx_mont_sqrk(u64 *r, const u64 *a, unsigned int k, const struct bn_mont *mc,
		   struct bnx_tmp *tmp);

/* The engine (rsa-adx.c), registered only where BMI2 and ADX are. */
extern const struct rsa_engine rsa_engine_adx;

#endif /* _RIND_BN_ADX_H */
