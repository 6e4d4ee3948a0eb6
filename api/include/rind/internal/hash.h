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
	/* Keyed hashes (hmac) only. */
	int (*setkey)(struct crypto_shash *tfm, const u8 *key, unsigned int keylen);
	int (*init_tfm)(struct crypto_shash *tfm);
	void (*exit_tfm)(struct crypto_shash *tfm);

	unsigned int descsize;		/* <= HASH_MAX_DESCSIZE */
	unsigned int digestsize;	/* <= HASH_MAX_DIGESTSIZE */
	unsigned int statesize;		/* export/import size; 0 = descsize */

	struct crypto_alg base;
};

struct crypto_shash {
	unsigned int descsize;
	struct crypto_tfm base;
};

static inline struct shash_alg *__crypto_shash_alg(struct crypto_alg *alg)
{
	return container_of(alg, struct shash_alg, base);
}

static inline struct shash_alg *crypto_shash_alg(struct crypto_shash *tfm)
{
	return __crypto_shash_alg(tfm->base.__crt_alg);
}

static inline void *crypto_shash_ctx(struct crypto_shash *tfm)
{
	return crypto_tfm_ctx(&tfm->base);
}

extern const struct crypto_type crypto_shash_type;

int crypto_register_shash(struct shash_alg *alg);
void crypto_unregister_shash(struct shash_alg *alg);
int crypto_register_shashes(struct shash_alg *algs, int count);
int crypto_grab_shash(struct crypto_spawn *spawn, struct crypto_alg *inst,
		      const char *name, u32 type, u32 mask);
struct crypto_shash *crypto_spawn_shash(struct crypto_spawn *spawn);

#endif
