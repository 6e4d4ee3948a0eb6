/* SPDX-License-Identifier: MIT */
#ifndef _RIND_INTERNAL_HASH_H
#define _RIND_INTERNAL_HASH_H

#include <rind/hash.h>
#include <rind/internal/alg.h>

struct shash_alg {
	int (*init)(struct shash_desc *desc);
	int (*update)(struct shash_desc *desc, const u8 *data, unsigned int len);
	int (*final)(struct shash_desc *desc, u8 *out);
	/* Optional; the front end composes them from the above when absent. */
	int (*finup)(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out);
	int (*digest)(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out);
	int (*export)(struct shash_desc *desc, void *out);
	int (*import)(struct shash_desc *desc, const void *in);
	/*
	 * Optional multi-buffer finup (the kernel's finup_mb): @num_msgs
	 * messages of @len bytes, each continuing the state in @desc (a
	 * common prefix already hashed), digest i to outs[i] -- exactly the
	 * digests of num_msgs finup calls on copies of @desc.  The front end
	 * calls it with 2 <= num_msgs <= mb_max_msgs; it only reads @desc
	 * (the front end may call it again for the next messages, and wipes
	 * the state at the end).  It hashes secrets (Ed25519 nonce prefixes):
	 * no branch or address may depend on the state or the data, only on
	 * @len, @num_msgs and the prefix length.
	 */
	int (*finup_mb)(struct shash_desc *desc, const u8 * const data[], unsigned int len,
			u8 * const outs[], unsigned int num_msgs);
	/* Keyed hashes (hmac) only. */
	int (*setkey)(struct crypto_shash *tfm, const u8 *key, unsigned int keylen);
	int (*init_tfm)(struct crypto_shash *tfm);
	void (*exit_tfm)(struct crypto_shash *tfm);

	unsigned int descsize;		/* <= HASH_MAX_DESCSIZE */
	unsigned int digestsize;	/* <= HASH_MAX_DIGESTSIZE */
	unsigned int statesize;		/* export/import size; 0 = descsize */
	/*
	 * Messages one finup_mb call hashes at once, 2..HASH_MAX_MB_MSGS
	 * when finup_mb is set; registration sets it to 1 when it is not.
	 */
	unsigned int mb_max_msgs;

	struct crypto_alg base;
};

/* The most messages any finup_mb takes in one call (8 x 64-bit lanes). */
#define HASH_MAX_MB_MSGS	8

struct crypto_shash {
	unsigned int descsize;
	struct crypto_tfm base;
};

/* __crypto_shash_alg(), crypto_shash_alg(), crypto_shash_ctx() */
CRYPTO_DEFINE_ALG_CASTS(shash, crypto_shash_ctx)

/*
 * How many messages crypto_shash_finup_mb() hashes together on @tfm: 1
 * when its implementation has no finup_mb (the front end then hashes one
 * message after another), so a caller can skip gathering messages for it.
 */
static inline unsigned int crypto_shash_mb_max_msgs(struct crypto_shash *tfm)
{
	return crypto_shash_alg(tfm)->mb_max_msgs;
}

extern const struct crypto_type crypto_shash_type;

int crypto_register_shash(struct shash_alg *alg);
void crypto_unregister_shash(struct shash_alg *alg);
int crypto_register_shashes(struct shash_alg *algs, int count);
int crypto_grab_shash(struct crypto_spawn *spawn, struct crypto_alg *inst,
		      const char *name, u32 type, u32 mask);
struct crypto_shash *crypto_spawn_shash(struct crypto_spawn *spawn);

#endif
