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
	struct crypto_akcipher *ak = container_of(tfm, struct crypto_akcipher, base);
	struct akcipher_alg *alg = __crypto_akcipher_alg(tfm->__crt_alg);

	ak->reqsize = alg->reqsize;
	tfm->crt_flags |= CRYPTO_TFM_NEED_KEY;
	if (alg->base.cra_init) {
		int err = alg->base.cra_init(tfm);

		if (err)
			return err;
	}
	return alg->init ? alg->init(ak) : 0;
}

static void crypto_akcipher_exit_tfm(struct crypto_tfm *tfm)
{
	struct crypto_akcipher *ak = container_of(tfm, struct crypto_akcipher, base);
	struct akcipher_alg *alg = __crypto_akcipher_alg(tfm->__crt_alg);

	if (alg->exit)
		alg->exit(ak);
	if (alg->base.cra_exit)
		alg->base.cra_exit(tfm);
}

const struct crypto_type crypto_akcipher_type = {
	.name = "akcipher",
	.type = CRYPTO_ALG_TYPE_AKCIPHER,
	.tfmsize = offsetof(struct crypto_akcipher, base),
	.init_tfm = crypto_akcipher_init_tfm,
	.exit_tfm = crypto_akcipher_exit_tfm,
	.selftest = alg_test_akcipher,
};

int crypto_register_akcipher(struct akcipher_alg *alg)
{
	struct crypto_alg *base = &alg->base;

	if (!alg->encrypt || !alg->decrypt || !alg->set_pub_key || !alg->set_priv_key ||
	    !alg->max_size)
		return -EINVAL;
	base->cra_type = &crypto_akcipher_type;
	base->cra_flags = (base->cra_flags & ~CRYPTO_ALG_TYPE_MASK) | CRYPTO_ALG_TYPE_AKCIPHER;
	return crypto_register_alg(base);
}

void crypto_unregister_akcipher(struct akcipher_alg *alg)
{
	crypto_unregister_alg(&alg->base);
}

int crypto_register_akciphers(struct akcipher_alg *algs, int count)
{
	int i, err;

	for (i = 0; i < count; i++) {
		err = crypto_register_akcipher(&algs[i]);
		if (err) {
			while (--i >= 0)
				crypto_unregister_akcipher(&algs[i]);
			return err;
		}
	}
	return 0;
}

int crypto_grab_akcipher(struct crypto_spawn *spawn, struct crypto_alg *inst,
			 const char *name, u32 type, u32 mask)
{
	return crypto_grab_spawn(spawn, inst, name,
				 (type & ~CRYPTO_ALG_TYPE_MASK) | CRYPTO_ALG_TYPE_AKCIPHER,
				 mask | CRYPTO_ALG_TYPE_MASK);
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
	if (!IS_ERR_OR_NULL(tfm))
		crypto_destroy_tfm(tfm, &tfm->base);
}

RIND_EXPORT int crypto_has_akcipher(const char *alg_name, u32 type, u32 mask)
{
	return crypto_has_alg(alg_name, (type & ~CRYPTO_ALG_TYPE_MASK) | CRYPTO_ALG_TYPE_AKCIPHER,
			      mask | CRYPTO_ALG_TYPE_MASK);
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
	return tfm->reqsize;
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
	struct akcipher_request *req;

	(void)gfp;
	if (IS_ERR_OR_NULL(tfm))
		return ERR_PTR(-EINVAL);
	req = calloc(1, sizeof(*req) + tfm->reqsize);
	if (!req)
		return ERR_PTR(-ENOMEM);
	/* base.tfm holds the typed tfm: crypto_akcipher_reqtfm() casts it back. */
	req->base.tfm = (struct crypto_tfm *)tfm;
	return req;
}

RIND_EXPORT void akcipher_request_free(struct akcipher_request *req)
{
	struct crypto_akcipher *tfm;

	if (IS_ERR_OR_NULL(req))
		return;
	tfm = crypto_akcipher_reqtfm(req);
	rind_memzero_explicit(req, sizeof(*req) + (tfm ? tfm->reqsize : 0));
	free(req);
}

RIND_EXPORT void akcipher_request_set_tfm(struct akcipher_request *req, struct crypto_akcipher *tfm)
{
	req->base.tfm = (struct crypto_tfm *)tfm;
}

/* ---- self-test runner ---------------------------------------------------- */

static int akcipher_fail(struct crypto_alg *alg, unsigned int i, const char *what, int err)
{
	fprintf(stderr, "rind: %s: akcipher self-test vector %u: %s (%d)\n",
		alg->cra_driver_name, i, what, err);
	return -EBADMSG;
}

/* One operation through a request, linear buffers. */
static int akcipher_run(struct crypto_akcipher *tfm, bool enc, const void *in, unsigned int inlen,
			u8 *out, unsigned int *outlen)
{
	struct akcipher_request *req = akcipher_request_alloc(tfm, GFP_KERNEL);
	struct scatterlist src, dst;
	int err;

	if (IS_ERR(req))
		return (int)PTR_ERR(req);
	sg_init_one(&src, in, inlen);
	sg_init_one(&dst, out, *outlen);
	akcipher_request_set_crypt(req, &src, &dst, inlen, *outlen);
	err = enc ? crypto_akcipher_encrypt(req) : crypto_akcipher_decrypt(req);
	*outlen = req->dst_len;
	akcipher_request_free(req);
	return err;
}

int alg_test_akcipher(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	const struct akcipher_test_suite *suite = desc->suite.priv;
	struct crypto_akcipher *tfm;
	unsigned int i, max = 0, len;
	u8 *out = NULL;
	int err = 0;

	if (!suite || !suite->count)
		return -ENOENT;
	tfm = crypto_alloc_akcipher(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	for (i = 0; i < suite->count && !err; i++) {
		const struct akcipher_testvec *v = &suite->vecs[i];

		err = v->public_key_vec ? crypto_akcipher_set_pub_key(tfm, v->key, v->key_len) :
					  crypto_akcipher_set_priv_key(tfm, v->key, v->key_len);
		if (err) {
			err = akcipher_fail(alg, i, "set key", err);
			break;
		}
		if (crypto_akcipher_maxsize(tfm) > max) {
			max = crypto_akcipher_maxsize(tfm);
			free(out);
			out = malloc(max);
			if (!out) {
				err = -ENOMEM;
				break;
			}
		}
		if (!v->must_fail) {
			len = max;
			err = akcipher_run(tfm, true, v->m, v->m_size, out, &len);
			if (err || len != v->c_size ||
			    (!v->randomized && memcmp(out, v->c, len))) {
				err = akcipher_fail(alg, i, "encrypt", err);
				break;
			}
		}
		if (v->public_key_vec)
			continue;
		len = max;
		err = akcipher_run(tfm, false, v->c, v->c_size, out, &len);
		if (v->must_fail) {
			if (err != -EBADMSG) {
				err = akcipher_fail(alg, i, "decrypt must fail", err);
				break;
			}
			err = 0;
			continue;
		}
		if (err || len != v->m_size || memcmp(out, v->m, len)) {
			err = akcipher_fail(alg, i, "decrypt", err);
			break;
		}
	}
	if (out) {
		rind_memzero_explicit(out, max);
		free(out);
	}
	crypto_free_akcipher(tfm);
	return err;
}
