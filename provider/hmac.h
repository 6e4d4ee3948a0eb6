/* SPDX-License-Identifier: MIT */
/*
 * HMAC and HKDF-Expand over a shared unkeyed hash (hmac.c): the keyed
 * state is the caller's, wiped by rp_hmac_wipe().
 */
#ifndef RIND_PROVIDER_HMAC_H
#define RIND_PROVIDER_HMAC_H

#include <rind/internal/hash.h>
#include "prov.h"

/* Largest block of the digests HMAC is offered over (SHA3-224's, 144). */
#define HMAC_PAD_MAX 144

struct rp_hmac {
	const struct shash_alg *alg;	/* NULL: no key */
	struct crypto_shash *tfm;	/* the digest's shared one */
	const struct rind_md *md;
	unsigned int ss;		/* bytes of each pad state in use */
	uint8_t ist[HASH_MAX_STATESIZE] __attribute__((aligned(16)));
	uint8_t ost[HASH_MAX_STATESIZE] __attribute__((aligned(16)));
	union {
		struct shash_desc desc;
		uint8_t b[sizeof(struct shash_desc) + HASH_MAX_DESCSIZE];
	} d __attribute__((aligned(16)));
};

/* The shared unkeyed tfm of @m (allocated on first use; NULL if none). */
struct crypto_shash *rind_md_hash(const struct rind_md *m);

/* 1 on success, 0 on failure (then nothing of the key is left in @h). */
int rp_hmac_setkey(struct rp_hmac *h, const struct rind_md *m, const uint8_t *key, size_t keylen);
int rp_hmac_init(struct rp_hmac *h);
int rp_hmac_update(struct rp_hmac *h, const uint8_t *p, size_t n);
int rp_hmac_final(struct rp_hmac *h, uint8_t *out);
/* HMAC over the concatenation a | b | c (any of them empty). */
int rp_hmac(struct rp_hmac *h, const uint8_t *a, size_t an, const uint8_t *b, size_t bn,
	    const uint8_t *c, size_t cn, uint8_t *out);
/* RFC 5869 HKDF-Expand with the PRK as @h's key. */
int rp_hkdf_expand(struct rp_hmac *h, const uint8_t *info, size_t infolen, uint8_t *out, size_t outlen);
/* Wipe what the key and the last message left: the bytes the digest uses. */
void rp_hmac_wipe(struct rp_hmac *h);
/* Wipe only the descriptor (the last message's state); the key stays. */
void rp_hmac_clear_desc(struct rp_hmac *h);

#endif
