/* SPDX-License-Identifier: MIT */
/*
 * Keccak-f[1600] and the FIPS 202 sponge functions used inside the library
 * (ML-KEM's H, G, J, PRF and XOF): SHA3-256, SHA3-512, SHAKE128 and
 * SHAKE256 as plain functions plus an incremental sponge.  Library
 * internal (hidden symbols); algs/sha3.c registers "sha3-224/256/384/512"
 * and "shake128"/"shake256" as shash algorithms over the same sponge
 * (rind_shash_final_xof() in <rind/hash.h> is the public way to a SHAKE
 * output of any length).
 */
#ifndef _RIND_ALGS_KECCAK_H
#define _RIND_ALGS_KECCAK_H

#include <stddef.h>
#include <rind/types.h>

#define SHA3_224_DIGEST_SIZE	28
#define SHA3_256_DIGEST_SIZE	32
#define SHA3_384_DIGEST_SIZE	48
#define SHA3_512_DIGEST_SIZE	64
/* Rates in bytes: 200 - 2 * digest size (FIPS 202 section 6.1). */
#define SHA3_224_RATE		144
#define SHA3_256_RATE		136
#define SHA3_384_RATE		104
#define SHA3_512_RATE		72
#define SHAKE128_RATE		168
#define SHAKE256_RATE		136
/* The "shake128"/"shake256" shash digest sizes: full security strength. */
#define SHAKE128_DEFAULT_SIZE	32
#define SHAKE256_DEFAULT_SIZE	64

/* Domain separation bytes (with the first padding bit), FIPS 202 B.2. */
#define KECCAK_DS_SHA3		0x06
#define KECCAK_DS_SHAKE		0x1f

struct keccak_state {
	u64 a[25];
	unsigned int rate;	/* bytes */
	unsigned int pos;	/* byte position in the current block */
	u8 ds;
	bool squeezing;
};

typedef void keccak_f1600_fn(u64 a[25]);

/* The library's permutation (ML-KEM, ML-DSA, the sponge functions below). */
void rind_keccak_f1600(u64 a[25]);
/* The C rounds, as the generic "sha3-*"/"shake*" drivers run them. */
void rind_keccak_f1600_c(u64 a[25]);
/*
 * At module init: install the C rounds compiled for more instructions, for
 * the generic drivers and the library (NULL restores the portable build).
 */
void rind_keccak_set_f1600(keccak_f1600_fn *fn);
/*
 * At module init: install an arch permutation for the library's own users
 * only (the generic drivers keep the C rounds; the arch permutation has
 * shash drivers of its own names); NULL: the C rounds again.
 */
void rind_keccak_set_lib_f1600(keccak_f1600_fn *fn);

void rind_keccak_init(struct keccak_state *st, unsigned int rate, u8 ds);
void rind_keccak_absorb(struct keccak_state *st, const void *in, size_t len);
/* Pad and switch to squeezing (implied by the first squeeze). */
void rind_keccak_finalize(struct keccak_state *st);
void rind_keccak_squeeze(struct keccak_state *st, void *out, size_t len);
/*
 * The sponge over a given permutation (the shash drivers': each runs its
 * own, arch/arm64/sha3-ce.c the SHA3 form); @f NULL is the C rounds.
 */
void rind_keccak_absorb_with(struct keccak_state *st, const void *in, size_t len,
			     keccak_f1600_fn *f);
void rind_keccak_squeeze_with(struct keccak_state *st, void *out, size_t len,
			      keccak_f1600_fn *f);
/* Squeeze @nblocks whole blocks of rate bytes (right after finalize). */
void rind_keccak_squeeze_blocks(struct keccak_state *st, u8 *out, size_t nblocks);

static inline void rind_shake128_init(struct keccak_state *st)
{
	rind_keccak_init(st, SHAKE128_RATE, KECCAK_DS_SHAKE);
}

static inline void rind_shake256_init(struct keccak_state *st)
{
	rind_keccak_init(st, SHAKE256_RATE, KECCAK_DS_SHAKE);
}

void rind_sha3_256(u8 out[SHA3_256_DIGEST_SIZE], const void *in, size_t len);
void rind_sha3_512(u8 out[SHA3_512_DIGEST_SIZE], const void *in, size_t len);
void rind_shake128(void *out, size_t outlen, const void *in, size_t inlen);
void rind_shake256(void *out, size_t outlen, const void *in, size_t inlen);

#endif /* _RIND_ALGS_KECCAK_H */
