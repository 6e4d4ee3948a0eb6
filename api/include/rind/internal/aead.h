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
	void (*exit)(struct crypto_aead *tfm);	/* the ctx is wiped afterwards anyway */

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

/*
 * crypto_aead_type, crypto_register_aead, crypto_unregister_aead,
 * crypto_register_aeads, crypto_grab_aead, crypto_spawn_aead
 */
CRYPTO_DECLARE_ALG_API(aead);
CRYPTO_DECLARE_ALGS_API(aead, aeads);
CRYPTO_DECLARE_SPAWN_API(aead);

/*
 * An aead template over one spawn (api/simple-instance.c), the aead
 * counterpart of skcipher_alloc_instance_simple(): args[0] grabbed as a
 * cipher (@spawn_type CRYPTO_ALG_TYPE_CIPHER, gcm) or an aead
 * (CRYPTO_ALG_TYPE_AEAD, rfc4106), names "tmpl(name)" / "tmpl(driver)",
 * the spawn's priority, block size 1, and from the spawn: over a cipher
 * maxauthsize = chunksize = its block size, over an aead its ivsize,
 * maxauthsize and chunksize.  init/exit allocate and free the spawn's tfm
 * in the context, which must start with struct aead_ctx_simple (set
 * cra_ctxsize to the template's own context).  The template sets setkey,
 * encrypt, decrypt and what differs, then aead_register_instance_simple(),
 * which frees the instance if it is not registered; on an error before
 * that it calls aead_free_instance_simple().
 */
struct aead_instance {
	struct crypto_spawn spawn;	/* the cipher or the inner aead */
	struct aead_alg alg;
};

struct crypto_cipher;

struct aead_ctx_simple {
	union {
		struct crypto_cipher *cipher;	/* over a cipher */
		struct crypto_aead *child;	/* over an aead */
	};
};

struct aead_instance *aead_alloc_instance_simple(struct crypto_template *tmpl,
						 const char *const *args, int nargs,
						 u32 spawn_type);
int aead_register_instance(struct crypto_template *tmpl, struct aead_instance *inst);
int aead_register_instance_simple(struct crypto_template *tmpl, struct aead_instance *inst);
void aead_free_instance_simple(struct aead_instance *inst);

#endif
