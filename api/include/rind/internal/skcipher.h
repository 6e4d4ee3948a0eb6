/* SPDX-License-Identifier: MIT */
#ifndef _RIND_INTERNAL_SKCIPHER_H
#define _RIND_INTERNAL_SKCIPHER_H

#include <rind/skcipher.h>
#include <rind/internal/alg.h>
#include <rind/internal/util.h>

struct skcipher_alg {
	int (*setkey)(struct crypto_skcipher *tfm, const u8 *key, unsigned int keylen);
	int (*encrypt)(struct skcipher_request *req);
	int (*decrypt)(struct skcipher_request *req);
	int (*init)(struct crypto_skcipher *tfm);
	void (*exit)(struct crypto_skcipher *tfm);	/* the ctx is wiped afterwards anyway */

	unsigned int min_keysize;
	unsigned int max_keysize;
	unsigned int ivsize;
	unsigned int chunksize;		/* stream ciphers: their block size */
	unsigned int walksize;

	struct crypto_alg base;
};

struct crypto_skcipher {
	struct crypto_tfm base;
};

/* __crypto_skcipher_alg(), crypto_skcipher_alg(), crypto_skcipher_ctx() */
CRYPTO_DEFINE_ALG_CASTS(skcipher, crypto_skcipher_ctx)

static inline void crypto_skcipher_set_reqsize(struct crypto_skcipher *tfm, unsigned int reqsize)
{
	tfm->base.crt_reqsize = reqsize;
}

/*
 * crypto_skcipher_type, crypto_register_skcipher, crypto_unregister_skcipher,
 * crypto_register_skciphers, crypto_grab_skcipher, crypto_spawn_skcipher
 */
CRYPTO_DECLARE_ALG_API(skcipher);
CRYPTO_DECLARE_ALGS_API(skcipher, skciphers);
CRYPTO_DECLARE_SPAWN_API(skcipher);

/*
 * A skcipher template over one single-block cipher (ecb, cbc, ctr, kw), as
 * the kernel's skcipher_alloc_instance_simple() (api/simple-instance.c):
 * args[0] grabbed as the cipher, names "tmpl(name)" / "tmpl(driver)", the
 * cipher's priority, block size, key sizes and ivsize = block size, a
 * context of struct skcipher_ctx_simple, setkey/init/exit that key,
 * allocate and free its cipher.  A cipher whose block size is outside
 * [min_bs, max_bs] (what the mode's buffers hold, or the one size it is
 * defined for) is refused with -EINVAL.  The template sets encrypt and
 * decrypt (and whatever else differs), then
 * skcipher_register_instance_simple(), which frees the instance if it is
 * not registered; on an error before that it calls
 * skcipher_free_instance_simple().
 */
struct skcipher_instance {
	struct crypto_spawn spawn;	/* the cipher */
	struct skcipher_alg alg;
};

struct crypto_cipher;

struct skcipher_ctx_simple {
	struct crypto_cipher *cipher;
};

static inline struct crypto_cipher *skcipher_cipher_simple(struct crypto_skcipher *tfm)
{
	struct skcipher_ctx_simple *ctx = crypto_skcipher_ctx(tfm);

	return ctx->cipher;
}

struct skcipher_instance *skcipher_alloc_instance_simple(struct crypto_template *tmpl,
							 const char *const *args, int nargs,
							 unsigned int min_bs, unsigned int max_bs);
int skcipher_register_instance(struct crypto_template *tmpl, struct skcipher_instance *inst);
int skcipher_register_instance_simple(struct crypto_template *tmpl,
				      struct skcipher_instance *inst);
void skcipher_free_instance_simple(struct skcipher_instance *inst);

/*
 * The whole of @req mapped to one span @m, for a mode over blocks of @bs
 * bytes (1: any length): 1 with @m mapped (the caller runs its loop over
 * m->src and m->dst, then rind_sg_unmap(m, true)), 0 for an empty request
 * (nothing to do), -EINVAL when cryptlen is not a multiple of @bs (the
 * request is refused before anything is touched), or rind_sg_map()'s
 * error.  Inline: with a constant @bs the length check folds away.
 */
static inline int skcipher_map_request(struct skcipher_request *req, struct rind_sg_map *m,
				       unsigned int bs)
{
	int err;

	if (req->cryptlen % bs)
		return -EINVAL;
	if (!req->cryptlen)
		return 0;
	err = rind_sg_map(m, req->src, req->dst, 0, req->cryptlen);
	return err ? err : 1;
}

#endif
