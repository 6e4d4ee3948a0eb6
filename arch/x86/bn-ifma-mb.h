/* SPDX-License-Identifier: MIT */
/*
 * Montgomery arithmetic with AVX-512 IFMA on eight numbers modulo one
 * modulus (arch/x86/bn-ifma-mb.c), for the RSA engine's batch path
 * (rsa-ifma-mb.c): one number a 64-bit lane, eight signatures of one key
 * side by side.  bn-ifma.h's kernel is the other layout (the two CRT
 * halves of one signature in the two 256-bit halves of a register).
 *
 * The lane layout: a number has @nl 52-bit digits, 20 for a 1024-bit
 * modulus (RSA-2048's halves), 30 for a 1536-bit one (RSA-3072's); digit
 * j of the eight numbers is register j (word 8 j + lane in memory,
 * struct bnm_num, 64-byte aligned).  The modulus, the same in every
 * lane, is kept as plain digits and broadcast where it is used, as is k0.
 * R' = 2^(52 nl): 2^16 and 2^24 above the halves' R = 2^(64 n).
 *
 * Values are "almost" reduced as in bn-ifma.h: a, b < 2 m in, r < 2 m
 * out (4 m < R': 14 and 22 bits to spare), digits below 2^52 in and out;
 * bnm_unpack_reduce() makes the one masked subtraction at the end.
 * Constant time in every operand.
 */
#ifndef _RIND_BN_IFMA_MB_H
#define _RIND_BN_IFMA_MB_H

#include <stdbool.h>
#include <rind/types.h>
#include <crypto/bignum.h>

#define BNM_LANES	8
#define BNM_MAX_DIGITS	30

/* Eight numbers, digit j of lane l at d[8 j + l]. */
struct bnm_num {
	u64 d[8 * BNM_MAX_DIGITS];
} __attribute__((aligned(64)));

/* One modulus, its constants in the lane layout (the same in all lanes). */
struct bnm_mont {
	unsigned int n;			/* 64-bit limbs: 16 or 24 */
	unsigned int nl;		/* 52-bit digits: 20 or 30 */
	const struct bn_mont *mc;	/* its own (64-bit limbs) */
	u64 m[BNM_MAX_DIGITS];		/* the modulus' digits (broadcast on use) */
	u64 k0;				/* -m^-1 mod 2^52 */
	struct bnm_num rr;		/* R'^2 / R mod m in every lane: x R -> x R' */
	struct bnm_num one;		/* R mod m in every lane: x R' -> x R */
};

/* The limb counts served: 1024- and 1536-bit moduli (RSA-2048/3072 halves). */
static inline bool bnm_fits(unsigned int n)
{
	return n == 16 || n == 24;
}

/* @mc of a bnm_fits() size into @c. */
void bnm_mont_init(struct bnm_mont *c, const struct bn_mont *mc);
/* @x = a[0..cnt-1] (n limbs each, below 2^(64 n)) in lanes 0..cnt-1, the others 0. */
void bnm_pack(struct bnm_num *x, const u64 *const *a, unsigned int cnt, const struct bnm_mont *c);
/* r[l] (n limbs) = lane l of @x (below 2 m) reduced below m, for l < cnt. */
void bnm_unpack_reduce(u64 *const *r, unsigned int cnt, const struct bnm_num *x,
		       const struct bnm_mont *c);
/* r = a b / R' in every lane (AMM); r may alias a or b. */
void bnm_amm(struct bnm_num *r, const struct bnm_num *a, const struct bnm_num *b,
	     const struct bnm_mont *c);
/* @k squarings in a row (the squaring kernel): r = a^(2^k) / R'^(2^k - 1); r may alias a. */
void bnm_amm_sqrk(struct bnm_num *r, const struct bnm_num *a, unsigned int k,
		  const struct bnm_mont *c);
/* r = table[idx] (every lane the same entry), all @cnt entries read, idx secret. */
void bnm_select(struct bnm_num *r, const struct bnm_num *table, unsigned int cnt, u64 idx,
		const struct bnm_mont *c);

/*
 * r[l] = a[l]^e mod m for l < cnt (1..8), exp_ct's contract (rsa.h) for
 * each: Montgomery forms for R = 2^(64 n) in and out, e secret of @en
 * limbs, one bnm_fits() modulus; r[l] may alias a[l].  rsa-ifma-mb.c;
 * 0, or -ENOMEM with nothing written.
 */
int bnm_exp_ct(u64 *const *r, const u64 *const *a, unsigned int cnt, const u64 *e,
	       unsigned int en, const struct bn_mont *mc);
/*
 * r[l] = a[l]^e mod m for l < cnt (1..8), exp_vt's contract (rsa.h) for
 * each: Montgomery forms in and out (below m), e public (the fault
 * checks of a batch), constant time in the a[l]; r[l] may alias a[l].
 * 0, or -ENOMEM with nothing written.
 */
int bnm_exp_vt(u64 *const *r, const u64 *const *a, unsigned int cnt, u64 e,
	       const struct bn_mont *mc);

#endif /* _RIND_BN_IFMA_MB_H */
