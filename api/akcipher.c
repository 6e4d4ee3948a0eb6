// SPDX-License-Identifier: MIT
/*
 * The akcipher front end: asymmetric encryption, as the kernel's
 * crypto/akcipher.c, plus key generation, key export and the type's
 * self-test runner.
 */
#include <stdio.h>
#include <string.h>
#include <rind/internal/akcipher.h>
#include <rind/internal/util.h>

static int crypto_akcipher_init_tfm(struct crypto_tfm *tfm)
{
	tfm->crt_reqsize = __crypto_akcipher_alg(tfm->__crt_alg)->reqsize;
	return 0;
}

CRYPTO_TYPE_ALG_INIT_EXIT(crypto_akcipher, struct akcipher_alg, struct crypto_akcipher, init, exit)

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

int crypto_register_akcipher(struct akcipher_alg *alg)
{
	return crypto_register_type_alg(&alg->base, &crypto_akcipher_type);
}

void crypto_unregister_akcipher(struct akcipher_alg *alg)
{
	crypto_unregister_alg(&alg->base);
}

int crypto_register_akciphers(struct akcipher_alg *algs, int count)
{
	return crypto_register_type_algs(&algs->base, count, sizeof(*algs), &crypto_akcipher_type);
}

int crypto_grab_akcipher(struct crypto_spawn *spawn, struct crypto_alg *inst,
			 const char *name, u32 type, u32 mask)
{
	return crypto_grab_type(spawn, inst, name, &crypto_akcipher_type, type, mask);
}

struct crypto_akcipher *crypto_spawn_akcipher(struct crypto_spawn *spawn)
{
	return crypto_spawn_tfm(spawn, &crypto_akcipher_type);
}

RIND_EXPORT struct crypto_akcipher *crypto_alloc_akcipher(const char *alg_name, u32 type, u32 mask)
{
	return crypto_alloc_tfm(alg_name, &crypto_akcipher_type, type, mask);
}

RIND_EXPORT void crypto_free_akcipher(struct crypto_akcipher *tfm)
{
	crypto_free_type_tfm(tfm, &crypto_akcipher_type);
}

RIND_EXPORT int crypto_has_akcipher(const char *alg_name, u32 type, u32 mask)
{
	return crypto_has_type(alg_name, &crypto_akcipher_type, type, mask);
}

RIND_EXPORT struct crypto_tfm *crypto_akcipher_tfm(struct crypto_akcipher *tfm)
{
	return &tfm->base;
}

RIND_EXPORT const char *crypto_akcipher_driver_name(struct crypto_akcipher *tfm)
{
	return tfm->base.__crt_alg->cra_driver_name;
}

RIND_EXPORT const char *crypto_akcipher_alg_name(struct crypto_akcipher *tfm)
{
	return tfm->base.__crt_alg->cra_name;
}

RIND_EXPORT unsigned int crypto_akcipher_reqsize(struct crypto_akcipher *tfm)
{
	return tfm->base.crt_reqsize;
}

RIND_EXPORT int crypto_akcipher_set_pub_key(struct crypto_akcipher *tfm, const void *key,
					    unsigned int keylen)
{
	int err;

	if (IS_ERR_OR_NULL(tfm) || !key)
		return -EINVAL;
	err = crypto_akcipher_alg(tfm)->set_pub_key(tfm, key, keylen);
	if (!err)
		tfm->base.crt_flags &= ~CRYPTO_TFM_NEED_KEY;
	return err;
}

RIND_EXPORT int crypto_akcipher_set_priv_key(struct crypto_akcipher *tfm, const void *key,
					     unsigned int keylen)
{
	int err;

	if (IS_ERR_OR_NULL(tfm) || !key)
		return -EINVAL;
	err = crypto_akcipher_alg(tfm)->set_priv_key(tfm, key, keylen);
	if (!err)
		tfm->base.crt_flags &= ~CRYPTO_TFM_NEED_KEY;
	return err;
}

RIND_EXPORT int crypto_akcipher_generate_key(struct crypto_akcipher *tfm)
{
	struct akcipher_alg *alg;
	int err;

	if (IS_ERR_OR_NULL(tfm))
		return -EINVAL;
	alg = crypto_akcipher_alg(tfm);
	if (!alg->generate_key)
		return -EOPNOTSUPP;
	err = alg->generate_key(tfm);
	if (!err)
		tfm->base.crt_flags &= ~CRYPTO_TFM_NEED_KEY;
	return err;
}

RIND_EXPORT int crypto_akcipher_set_keygen_bits(struct crypto_akcipher *tfm, unsigned int bits)
{
	struct akcipher_alg *alg;

	if (IS_ERR_OR_NULL(tfm))
		return -EINVAL;
	alg = crypto_akcipher_alg(tfm);
	if (!alg->set_keygen_bits)
		return -EOPNOTSUPP;
	return alg->set_keygen_bits(tfm, bits);
}

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

RIND_EXPORT int crypto_akcipher_export_pubkey(struct crypto_akcipher *tfm,
					      enum rind_key_format fmt, u8 *out,
					      unsigned int outlen)
{
	struct akcipher_alg *alg;

	if (IS_ERR_OR_NULL(tfm) || (!out && outlen))
		return -EINVAL;
	alg = crypto_akcipher_alg(tfm);
	if (!alg->export_pubkey)
		return -EOPNOTSUPP;
	if (tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY)
		return -ENOKEY;
	return alg->export_pubkey(tfm, fmt, out, outlen);
}

RIND_EXPORT int crypto_akcipher_export_privkey(struct crypto_akcipher *tfm,
					       enum rind_key_format fmt, u8 *out,
					       unsigned int outlen)
{
	struct akcipher_alg *alg;

	if (IS_ERR_OR_NULL(tfm) || (!out && outlen))
		return -EINVAL;
	alg = crypto_akcipher_alg(tfm);
	if (!alg->export_privkey)
		return -EOPNOTSUPP;
	if (tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY)
		return -ENOKEY;
	return alg->export_privkey(tfm, fmt, out, outlen);
}

RIND_EXPORT struct akcipher_request *akcipher_request_alloc(struct crypto_akcipher *tfm, gfp_t gfp)
{
	(void)gfp;
	return crypto_request_alloc(tfm, &crypto_akcipher_type);
}

RIND_EXPORT void akcipher_request_free(struct akcipher_request *req)
{
	crypto_request_free(req, &crypto_akcipher_type);
}

RIND_EXPORT void akcipher_request_set_tfm(struct akcipher_request *req, struct crypto_akcipher *tfm)
{
	req->base.tfm = (struct crypto_tfm *)tfm;
}
