/* SPDX-License-Identifier: MIT */
/*
 * Fixed-width multi-precision arithmetic on 64-bit limbs (little-endian
 * limb order), for RSA.  Every number has an explicit limb count chosen
 * from public sizes (the modulus length), never from its value.
 *
 * Constant time: every function is constant time in the values of its
 * operands (loops run over limb counts and exponent widths only, selects
 * use masks), except those whose name ends in _vt, which may branch on
 * their operands and are only called on public values (the public
 * exponent, signatures being verified) or on values blinded by a fresh
 * random factor (bn_mod_inv_vt).
 */
#ifndef _RIND_BIGNUM_H
#define _RIND_BIGNUM_H

#include <stddef.h>
#include <rind/types.h>

/* 8192-bit moduli. */
#define BN_MAX_LIMBS	128

/* Montgomery arithmetic modulo an odd @m of @n limbs, R = 2^(64n). */
struct bn_mont {
	unsigned int n;
	u64 m0inv;			/* -m^-1 mod 2^64 */
	u64 m[BN_MAX_LIMBS];
	u64 rr[BN_MAX_LIMBS];		/* R^2 mod m */
	u64 one[BN_MAX_LIMBS];		/* R mod m: 1 in Montgomery form */
};

static inline unsigned int bn_limbs(unsigned int bits)
{
	return (bits + 63) / 64;
}

/* Big-endian bytes to @n limbs; @len <= 8 * @n. */
void bn_from_be(u64 *r, unsigned int n, const u8 *be, size_t len);
/* The low @len bytes of @a (@n limbs), big-endian. */
void bn_to_be(u8 *be, size_t len, const u64 *a, unsigned int n);
/* 1 if the big-endian @be (@len bytes) fits @n limbs (public check). */
int bn_be_fits_vt(const u8 *be, size_t len, unsigned int n);

u64 bn_add(u64 *r, const u64 *a, const u64 *b, unsigned int n);
u64 bn_sub(u64 *r, const u64 *a, const u64 *b, unsigned int n);
/* r = mask ? a : r (mask all-ones or zero). */
void bn_cmov(u64 *r, const u64 *a, unsigned int n, u64 mask);
/* All-ones if a < b, else 0. */
u64 bn_lt_mask(const u64 *a, const u64 *b, unsigned int n);
/* All-ones if a == b, else 0. */
u64 bn_eq_mask(const u64 *a, const u64 *b, unsigned int n);
u64 bn_is_zero_mask(const u64 *a, unsigned int n);
/* Bit length (variable time: public values only). */
unsigned int bn_bits_vt(const u64 *a, unsigned int n);
/* r (an + bn limbs) = a * b; r must not alias a or b. */
void bn_mul(u64 *r, const u64 *a, unsigned int an, const u64 *b, unsigned int bn);

/* Set up @mc for the odd modulus @m (@n limbs); -EINVAL if even or n too big. */
int bn_mont_init(struct bn_mont *mc, const u64 *m, unsigned int n);
/* r = a * b / R mod m; a < R, b < m; r may alias a or b. */
void bn_mont_mul(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mc);
void bn_to_mont(u64 *r, const u64 *a, const struct bn_mont *mc);
void bn_from_mont(u64 *r, const u64 *a, const struct bn_mont *mc);
/* r = a + b, a - b mod m (a, b < m). */
void bn_mod_add(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mc);
void bn_mod_sub(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mc);
/* r = x * R mod m (Montgomery form of x mod m) for any x of @xn limbs. */
void bn_mod_reduce_mont(u64 *r, const u64 *x, unsigned int xn, const struct bn_mont *mc);
/*
 * r = a^e (Montgomery form in and out), e secret of @en limbs: fixed
 * 4-bit windows over all 64 * @en bits, table entries read by masked scan.
 * This and bn_mont_exp_vt are the generic RSA engine (crypto/rsa.h): an
 * arch engine replaces the two with the same contract.
 */
void bn_mont_exp_ct(u64 *r, const u64 *a, const u64 *e, unsigned int en,
		    const struct bn_mont *mc);
/* As above for a public exponent @e (square and multiply, variable time in e). */
void bn_mont_exp_vt(u64 *r, const u64 *a, u64 e, const struct bn_mont *mc);
/*
 * r = a^-1 mod m (m odd, a < m; r may alias a), binary extended Euclid
 * with its steps batched 62 at a time on word-sized stand-ins (~35 us at
 * 2048 bits), variable time: only for blinded values.  0, or -EINVAL when
 * a is not invertible (a = 0 included).
 */
int bn_mod_inv_vt(u64 *r, const u64 *a, const struct bn_mont *mc);

#endif /* _RIND_BIGNUM_H */
