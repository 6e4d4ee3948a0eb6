// SPDX-License-Identifier: MIT
/*
 * The akcipher front end: asymmetric encryption, as the kernel's
 * crypto/akcipher.c, plus key generation and key export.  Its self-test
 * runner is in testmgr-pk.c.
 */
#include <rind/internal/akcipher.h>
#include <rind/internal/frontend.h>

static int crypto_akcipher_init_tfm(struct crypto_tfm *tfm)
{
	tfm->crt_reqsize = __crypto_akcipher_alg(tfm->__crt_alg)->reqsize;
	return 0;
}

CRYPTO_DEFINE_ALG_INIT_EXIT(crypto_akcipher, struct akcipher_alg, struct crypto_akcipher,
			    init, exit)

static int crypto_akcipher_prepare_alg(struct crypto_alg *base)
{
	struct akcipher_alg *alg = __crypto_akcipher_alg(base);

	if (!alg->encrypt || !alg->decrypt || !alg->set_pub_key || !alg->set_priv_key ||
	    !alg->max_size)
		return -EINVAL;
	return 0;
}

const struct crypto_type crypto_akcipher_type = {
	.name = "akcipher",
	.type = CRYPTO_ALG_TYPE_AKCIPHER,
	.tfmsize = offsetof(struct crypto_akcipher, base),
	.tfm_flags = CRYPTO_TFM_NEED_KEY,
	.init_tfm = crypto_akcipher_init_tfm,
	.alg_init = crypto_akcipher_alg_init,
	.alg_exit = crypto_akcipher_alg_exit,
	.prepare_alg = crypto_akcipher_prepare_alg,
	.reqhead = sizeof(struct akcipher_request),
	.reqbase = offsetof(struct akcipher_request, base),
	.selftest = alg_test_akcipher,
};

CRYPTO_DEFINE_ALG_API(akcipher)
CRYPTO_DEFINE_ALGS_API(akcipher, akciphers)
CRYPTO_DEFINE_SPAWN_API(akcipher)
CRYPTO_DEFINE_TFM_API(akcipher)
CRYPTO_DEFINE_REQUEST_API(akcipher)
CRYPTO_DEFINE_ALG_NAME(akcipher)

RIND_EXPORT unsigned int crypto_akcipher_reqsize(struct crypto_akcipher *tfm)
{
	return tfm->base.crt_reqsize;
}

CRYPTO_DEFINE_SET_KEY(akcipher, set_pub_key, set_pub_key)
CRYPTO_DEFINE_SET_KEY(akcipher, set_priv_key, set_priv_key)
CRYPTO_DEFINE_KEYGEN_API(akcipher)
CRYPTO_DEFINE_KEY_EXPORT_API(akcipher)

RIND_EXPORT unsigned int crypto_akcipher_maxsize(struct crypto_akcipher *tfm)
{
	return crypto_akcipher_alg(tfm)->max_size(tfm);
}

static int akcipher_check_req(struct akcipher_request *req)
{
	struct crypto_akcipher *tfm;

	if (IS_ERR_OR_NULL(req) || !req->base.tfm)
		return -EINVAL;
	tfm = crypto_akcipher_reqtfm(req);
	if (tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY)
		return -ENOKEY;
	if ((!req->src && req->src_len) || (!req->dst && req->dst_len))
		return -EINVAL;
	return 0;
}

RIND_EXPORT int crypto_akcipher_encrypt(struct akcipher_request *req)
{
	int err = akcipher_check_req(req);

	if (err)
		return err;
	/* Synchronous, as every rind akcipher: the result is returned. */
	return crypto_akcipher_alg(crypto_akcipher_reqtfm(req))->encrypt(req);
}

RIND_EXPORT int crypto_akcipher_decrypt(struct akcipher_request *req)
{
	int err = akcipher_check_req(req);

	if (err)
		return err;
	return crypto_akcipher_alg(crypto_akcipher_reqtfm(req))->decrypt(req);
}
