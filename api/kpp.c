// SPDX-License-Identifier: MIT
/*
 * The kpp front end: key agreement (Diffie-Hellman style), as the kernel's
 * crypto/kpp.c, plus key export.  Its self-test runner is in
 * testmgr-pk.c.
 */
#include <rind/internal/kpp.h>
#include <rind/internal/frontend.h>

static int crypto_kpp_init_tfm(struct crypto_tfm *tfm)
{
	tfm->crt_reqsize = __crypto_kpp_alg(tfm->__crt_alg)->reqsize;
	return 0;
}

CRYPTO_DEFINE_ALG_INIT_EXIT(crypto_kpp, struct kpp_alg, struct crypto_kpp, init, exit)

static int crypto_kpp_prepare_alg(struct crypto_alg *base)
{
	struct kpp_alg *alg = __crypto_kpp_alg(base);

	if (!alg->set_secret || !alg->generate_public_key || !alg->compute_shared_secret ||
	    !alg->max_size)
		return -EINVAL;
	return 0;
}

const struct crypto_type crypto_kpp_type = {
	.name = "kpp",
	.type = CRYPTO_ALG_TYPE_KPP,
	.tfmsize = offsetof(struct crypto_kpp, base),
	.tfm_flags = CRYPTO_TFM_NEED_KEY,
	.init_tfm = crypto_kpp_init_tfm,
	.alg_init = crypto_kpp_alg_init,
	.alg_exit = crypto_kpp_alg_exit,
	.prepare_alg = crypto_kpp_prepare_alg,
	.reqhead = sizeof(struct kpp_request),
	.reqbase = offsetof(struct kpp_request, base),
	.selftest = alg_test_kpp,
};

CRYPTO_DEFINE_ALG_API(kpp)
CRYPTO_DEFINE_ALGS_API(kpp, kpps)
CRYPTO_DEFINE_SPAWN_API(kpp)
CRYPTO_DEFINE_TFM_API(kpp)
CRYPTO_DEFINE_REQUEST_API(kpp)
CRYPTO_DEFINE_ALG_NAME(kpp)

RIND_EXPORT unsigned int crypto_kpp_reqsize(struct crypto_kpp *tfm)
{
	return tfm->base.crt_reqsize;
}

RIND_EXPORT int crypto_kpp_set_secret(struct crypto_kpp *tfm, const void *buffer, unsigned int len)
{
	if (IS_ERR_OR_NULL(tfm) || (!buffer && len))
		return -EINVAL;
	return crypto_tfm_key_set(&tfm->base, crypto_kpp_alg(tfm)->set_secret(tfm, buffer, len));
}

static int kpp_check_req(struct kpp_request *req, bool input)
{
	struct crypto_kpp *tfm;

	if (IS_ERR_OR_NULL(req) || !req->base.tfm)
		return -EINVAL;
	tfm = crypto_kpp_reqtfm(req);
	if (tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY)
		return -ENOKEY;
	if (!req->dst || (input && !req->src))
		return -EINVAL;
	return 0;
}

RIND_EXPORT int crypto_kpp_generate_public_key(struct kpp_request *req)
{
	int err = kpp_check_req(req, false);

	if (err)
		return err;
	/* Synchronous, as every rind kpp: the result is returned, no callback. */
	return crypto_kpp_alg(crypto_kpp_reqtfm(req))->generate_public_key(req);
}

RIND_EXPORT int crypto_kpp_compute_shared_secret(struct kpp_request *req)
{
	int err = kpp_check_req(req, true);

	if (err)
		return err;
	return crypto_kpp_alg(crypto_kpp_reqtfm(req))->compute_shared_secret(req);
}

RIND_EXPORT unsigned int crypto_kpp_maxsize(struct crypto_kpp *tfm)
{
	return crypto_kpp_alg(tfm)->max_size(tfm);
}

CRYPTO_DEFINE_KEY_EXPORT_API(kpp)
