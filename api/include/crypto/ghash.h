/* SPDX-License-Identifier: MIT */
/*
 * GHASH (SP 800-38D section 6.4) as plain functions, for the gcm template
 * and anything else that wants a GHASH engine without a shash tfm.
 *
 * Blocks are handled as two big-endian 64-bit words (hi = bytes 0..7),
 * which is the bit-reflected form of the GF(2^128) element.  The
 * multiplication is constant time: carry-less products are made from
 * integer multiplications of operands whose set bits are spaced five
 * apart, so no carry ever reaches a bit that is kept; nothing is looked
 * up by an index derived from the key or the data.
 */
#ifndef _RIND_ALGS_GHASH_H
#define _RIND_ALGS_GHASH_H

#include <rind/types.h>

#define GHASH_BLOCK_SIZE	16
#define GHASH_DIGEST_SIZE	16

/* H split for the constant-time multiplier (Karatsuba halves, 5 masks each). */
struct ghash_key {
	u64 h[3][5];		/* hi, lo, hi^lo, each cut into 5 bit classes */
};

/* The running GHASH value Y, as big-endian words. */
struct ghash_acc {
	u64 hi, lo;
};

void ghash_generic_setkey(struct ghash_key *key, const u8 h[16]);
/* Y = (Y ^ X_i) * H for each of @nblocks 16-byte blocks at @src. */
void ghash_generic_blocks(const struct ghash_key *key, struct ghash_acc *acc,
			  const u8 *src, size_t nblocks);
/*
 * Absorb @len bytes: whole blocks, then a final partial block padded with
 * zeros (the GCM way of hashing the AD and the ciphertext).
 */
void ghash_generic_pad(const struct ghash_key *key, struct ghash_acc *acc,
		       const u8 *src, size_t len);
/* Absorb the GCM length block: bit lengths of the AD and the ciphertext. */
void ghash_generic_lengths(const struct ghash_key *key, struct ghash_acc *acc,
			   u64 adlen, u64 ctlen);
void ghash_acc_out(const struct ghash_acc *acc, u8 out[16]);

#endif /* _RIND_ALGS_GHASH_H */
