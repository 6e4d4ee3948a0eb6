// SPDX-License-Identifier: MIT
/* The skcipher front end: block modes and stream ciphers over scatterlists. */
#include <string.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/frontend.h>
#include <rind/internal/testmgr.h>

CRYPTO_DEFINE_ALG_INIT_EXIT(crypto_skcipher, struct skcipher_alg, struct crypto_skcipher,
			    init, exit)

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

CRYPTO_DEFINE_ALG_API(skcipher)
CRYPTO_DEFINE_ALGS_API(skcipher, skciphers)
CRYPTO_DEFINE_SPAWN_API(skcipher)
CRYPTO_DEFINE_TFM_API(skcipher)
CRYPTO_DEFINE_REQUEST_API(skcipher)
CRYPTO_DEFINE_ALG_NAME(skcipher)

RIND_EXPORT int crypto_skcipher_setkey(struct crypto_skcipher *tfm, const u8 *key, unsigned int keylen)
{
	struct skcipher_alg *alg = crypto_skcipher_alg(tfm);

	if (!key || keylen < alg->min_keysize || keylen > alg->max_keysize)
		return crypto_tfm_setkey_result(&tfm->base, -EINVAL);
	return crypto_tfm_setkey_result(&tfm->base, alg->setkey(tfm, key, keylen));
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
