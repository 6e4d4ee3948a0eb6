/* SPDX-License-Identifier: MIT */
#ifndef _RIND_INTERNAL_AEAD_H
#define _RIND_INTERNAL_AEAD_H

#include <rind/aead.h>
#include <rind/internal/alg.h>

struct aead_alg {
	int (*setkey)(struct crypto_aead *tfm, const u8 *key, unsigned int keylen);
	int (*setauthsize)(struct crypto_aead *tfm, unsigned int authsize);
	int (*encrypt)(struct aead_request *req);
	int (*decrypt)(struct aead_request *req);
	/*
	 * Optional batch entry points: run n independent requests (their
	 * tfms all of this alg), setting reqs[i]->err.  The front end loops
	 * over encrypt/decrypt when absent.
	 */
	void (*encrypt_batch)(struct aead_request **reqs, unsigned int n);
	void (*decrypt_batch)(struct aead_request **reqs, unsigned int n);
	int (*init)(struct crypto_aead *tfm);
	void (*exit)(struct crypto_aead *tfm);

	unsigned int ivsize;
	unsigned int maxauthsize;
	unsigned int chunksize;

	struct crypto_alg base;
};

struct crypto_aead {
	unsigned int authsize;
	struct crypto_tfm base;
};

/* __crypto_aead_alg(), crypto_aead_alg(), crypto_aead_ctx() */
CRYPTO_DEFINE_ALG_CASTS(aead, crypto_aead_ctx)

static inline void crypto_aead_set_reqsize(struct crypto_aead *tfm, unsigned int reqsize)
{
	tfm->base.crt_reqsize = reqsize;
}

extern const struct crypto_type crypto_aead_type;

int crypto_register_aead(struct aead_alg *alg);
void crypto_unregister_aead(struct aead_alg *alg);
int crypto_register_aeads(struct aead_alg *algs, int count);
int crypto_grab_aead(struct crypto_spawn *spawn, struct crypto_alg *inst,
		     const char *name, u32 type, u32 mask);
struct crypto_aead *crypto_spawn_aead(struct crypto_spawn *spawn);

#endif
