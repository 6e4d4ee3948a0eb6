// SPDX-License-Identifier: MIT
/* The skcipher front end: block modes and stream ciphers over scatterlists. */
#include <string.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/testmgr.h>

CRYPTO_TYPE_ALG_INIT_EXIT(crypto_skcipher, struct skcipher_alg, struct crypto_skcipher, init, exit)

static int crypto_skcipher_prepare_alg(struct crypto_alg *base)
{
	struct skcipher_alg *alg = __crypto_skcipher_alg(base);

	if (!alg->setkey || !alg->encrypt || !alg->decrypt || !base->cra_blocksize ||
	    alg->ivsize > 64)
		return -EINVAL;
	if (!alg->chunksize)
		alg->chunksize = base->cra_blocksize;
	if (!alg->walksize)
		alg->walksize = alg->chunksize;
	return 0;
}

const struct crypto_type crypto_skcipher_type = {
	.name = "skcipher",
	.type = CRYPTO_ALG_TYPE_SKCIPHER,
	.tfmsize = offsetof(struct crypto_skcipher, base),
	.tfm_flags = CRYPTO_TFM_NEED_KEY,
	.alg_init = crypto_skcipher_alg_init,
	.alg_exit = crypto_skcipher_alg_exit,
	.prepare_alg = crypto_skcipher_prepare_alg,
	.reqhead = sizeof(struct skcipher_request),
	.reqbase = offsetof(struct skcipher_request, base),
	.selftest = alg_test_skcipher,
};

int crypto_register_skcipher(struct skcipher_alg *alg)
{
	return crypto_register_type_alg(&alg->base, &crypto_skcipher_type);
}

void crypto_unregister_skcipher(struct skcipher_alg *alg)
{
	crypto_unregister_alg(&alg->base);
}

int crypto_register_skciphers(struct skcipher_alg *algs, int count)
{
	return crypto_register_type_algs(&algs->base, count, sizeof(*algs), &crypto_skcipher_type);
}

int crypto_grab_skcipher(struct crypto_spawn *spawn, struct crypto_alg *inst,
			 const char *name, u32 type, u32 mask)
{
	return crypto_grab_type(spawn, inst, name, &crypto_skcipher_type, type, mask);
}

struct crypto_skcipher *crypto_spawn_skcipher(struct crypto_spawn *spawn)
{
	return crypto_spawn_tfm(spawn, &crypto_skcipher_type);
}

RIND_EXPORT struct crypto_skcipher *crypto_alloc_skcipher(const char *alg_name, u32 type, u32 mask)
{
	return crypto_alloc_tfm(alg_name, &crypto_skcipher_type, type, mask);
}

RIND_EXPORT void crypto_free_skcipher(struct crypto_skcipher *tfm)
{
	crypto_free_type_tfm(tfm, &crypto_skcipher_type);
}

RIND_EXPORT int crypto_has_skcipher(const char *alg_name, u32 type, u32 mask)
{
	return crypto_has_type(alg_name, &crypto_skcipher_type, type, mask);
}

RIND_EXPORT int crypto_skcipher_setkey(struct crypto_skcipher *tfm, const u8 *key, unsigned int keylen)
{
	struct skcipher_alg *alg = crypto_skcipher_alg(tfm);
	int err;

	if (!key || keylen < alg->min_keysize || keylen > alg->max_keysize) {
		tfm->base.crt_flags |= CRYPTO_TFM_NEED_KEY;
		return -EINVAL;
	}
	err = alg->setkey(tfm, key, keylen);
	if (err)
		tfm->base.crt_flags |= CRYPTO_TFM_NEED_KEY;
	else
		tfm->base.crt_flags &= ~CRYPTO_TFM_NEED_KEY;
	return err;
}

static int skcipher_check(struct skcipher_request *req)
{
	struct crypto_skcipher *tfm = crypto_skcipher_reqtfm(req);

	if (!tfm)
		return -EINVAL;
	if (tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY)
		return -ENOKEY;
	if (req->cryptlen && (!req->src || !req->dst))
		return -EINVAL;
	if (crypto_skcipher_alg(tfm)->ivsize && !req->iv)
		return -EINVAL;
	return 0;
}

RIND_EXPORT int crypto_skcipher_encrypt(struct skcipher_request *req)
{
	int err = skcipher_check(req);

	if (err)
		return err;
	return crypto_skcipher_alg(crypto_skcipher_reqtfm(req))->encrypt(req);
}

RIND_EXPORT int crypto_skcipher_decrypt(struct skcipher_request *req)
{
	int err = skcipher_check(req);

	if (err)
		return err;
	return crypto_skcipher_alg(crypto_skcipher_reqtfm(req))->decrypt(req);
}

RIND_EXPORT unsigned int crypto_skcipher_ivsize(struct crypto_skcipher *tfm)
{
	return crypto_skcipher_alg(tfm)->ivsize;
}

RIND_EXPORT unsigned int crypto_skcipher_blocksize(struct crypto_skcipher *tfm)
{
	return tfm->base.__crt_alg->cra_blocksize;
}

RIND_EXPORT unsigned int crypto_skcipher_chunksize(struct crypto_skcipher *tfm)
{
	return crypto_skcipher_alg(tfm)->chunksize;
}

RIND_EXPORT unsigned int crypto_skcipher_min_keysize(struct crypto_skcipher *tfm)
{
	return crypto_skcipher_alg(tfm)->min_keysize;
}

RIND_EXPORT unsigned int crypto_skcipher_max_keysize(struct crypto_skcipher *tfm)
{
	return crypto_skcipher_alg(tfm)->max_keysize;
}

RIND_EXPORT unsigned int crypto_skcipher_reqsize(struct crypto_skcipher *tfm)
{
	return tfm->base.crt_reqsize;
}

RIND_EXPORT const char *crypto_skcipher_driver_name(struct crypto_skcipher *tfm)
{
	return tfm->base.__crt_alg->cra_driver_name;
}

RIND_EXPORT const char *crypto_skcipher_alg_name(struct crypto_skcipher *tfm)
{
	return tfm->base.__crt_alg->cra_name;
}

RIND_EXPORT struct crypto_tfm *crypto_skcipher_tfm(struct crypto_skcipher *tfm)
{
	return &tfm->base;
}

RIND_EXPORT struct skcipher_request *skcipher_request_alloc(struct crypto_skcipher *tfm, gfp_t gfp)
{
	(void)gfp;
	return crypto_request_alloc(tfm, &crypto_skcipher_type);
}

RIND_EXPORT void skcipher_request_free(struct skcipher_request *req)
{
	crypto_request_free(req, &crypto_skcipher_type);
}

RIND_EXPORT void skcipher_request_set_tfm(struct skcipher_request *req, struct crypto_skcipher *tfm)
{
	req->base.tfm = (struct crypto_tfm *)tfm;
}
