// SPDX-License-Identifier: MIT
/*
 * The kpp front end: key agreement (Diffie-Hellman style), as the kernel's
 * crypto/kpp.c, plus key export and the type's self-test runner.
 */
#include <stdio.h>
#include <string.h>
#include <rind/internal/kpp.h>
#include <rind/internal/util.h>

static int crypto_kpp_init_tfm(struct crypto_tfm *tfm)
{
	struct crypto_kpp *kpp = container_of(tfm, struct crypto_kpp, base);
	struct kpp_alg *alg = __crypto_kpp_alg(tfm->__crt_alg);

	kpp->reqsize = alg->reqsize;
	tfm->crt_flags |= CRYPTO_TFM_NEED_KEY;
	if (alg->base.cra_init) {
		int err = alg->base.cra_init(tfm);

		if (err)
			return err;
	}
	return alg->init ? alg->init(kpp) : 0;
}

static void crypto_kpp_exit_tfm(struct crypto_tfm *tfm)
{
	struct crypto_kpp *kpp = container_of(tfm, struct crypto_kpp, base);
	struct kpp_alg *alg = __crypto_kpp_alg(tfm->__crt_alg);

	if (alg->exit)
		alg->exit(kpp);
	if (alg->base.cra_exit)
		alg->base.cra_exit(tfm);
}

const struct crypto_type crypto_kpp_type = {
	.name = "kpp",
	.type = CRYPTO_ALG_TYPE_KPP,
	.tfmsize = offsetof(struct crypto_kpp, base),
	.init_tfm = crypto_kpp_init_tfm,
	.exit_tfm = crypto_kpp_exit_tfm,
	.selftest = alg_test_kpp,
};

int crypto_register_kpp(struct kpp_alg *alg)
{
	struct crypto_alg *base = &alg->base;

	if (!alg->set_secret || !alg->generate_public_key || !alg->compute_shared_secret ||
	    !alg->max_size)
		return -EINVAL;
	base->cra_type = &crypto_kpp_type;
	base->cra_flags = (base->cra_flags & ~CRYPTO_ALG_TYPE_MASK) | CRYPTO_ALG_TYPE_KPP;
	return crypto_register_alg(base);
}

void crypto_unregister_kpp(struct kpp_alg *alg)
{
	crypto_unregister_alg(&alg->base);
}

int crypto_register_kpps(struct kpp_alg *algs, int count)
{
	int i, err;

	for (i = 0; i < count; i++) {
		err = crypto_register_kpp(&algs[i]);
		if (err) {
			while (--i >= 0)
				crypto_unregister_kpp(&algs[i]);
			return err;
		}
	}
	return 0;
}

int crypto_grab_kpp(struct crypto_spawn *spawn, struct crypto_alg *inst,
		    const char *name, u32 type, u32 mask)
{
	return crypto_grab_spawn(spawn, inst, name, (type & ~CRYPTO_ALG_TYPE_MASK) | CRYPTO_ALG_TYPE_KPP,
				 mask | CRYPTO_ALG_TYPE_MASK);
}

struct crypto_kpp *crypto_spawn_kpp(struct crypto_spawn *spawn)
{
	return crypto_spawn_tfm(spawn, &crypto_kpp_type);
}

RIND_EXPORT struct crypto_kpp *crypto_alloc_kpp(const char *alg_name, u32 type, u32 mask)
{
	return crypto_alloc_tfm(alg_name, &crypto_kpp_type, type, mask);
}

RIND_EXPORT void crypto_free_kpp(struct crypto_kpp *tfm)
{
	if (!IS_ERR_OR_NULL(tfm))
		crypto_destroy_tfm(tfm, &tfm->base);
}

RIND_EXPORT int crypto_has_kpp(const char *alg_name, u32 type, u32 mask)
{
	return crypto_has_alg(alg_name, (type & ~CRYPTO_ALG_TYPE_MASK) | CRYPTO_ALG_TYPE_KPP,
			      mask | CRYPTO_ALG_TYPE_MASK);
}

RIND_EXPORT struct crypto_tfm *crypto_kpp_tfm(struct crypto_kpp *tfm)
{
	return &tfm->base;
}

RIND_EXPORT const char *crypto_kpp_driver_name(struct crypto_kpp *tfm)
{
	return tfm->base.__crt_alg->cra_driver_name;
}

RIND_EXPORT const char *crypto_kpp_alg_name(struct crypto_kpp *tfm)
{
	return tfm->base.__crt_alg->cra_name;
}

RIND_EXPORT unsigned int crypto_kpp_reqsize(struct crypto_kpp *tfm)
{
	return tfm->reqsize;
}

RIND_EXPORT int crypto_kpp_set_secret(struct crypto_kpp *tfm, const void *buffer, unsigned int len)
{
	int err;

	if (IS_ERR_OR_NULL(tfm) || (!buffer && len))
		return -EINVAL;
	err = crypto_kpp_alg(tfm)->set_secret(tfm, buffer, len);
	if (!err)
		tfm->base.crt_flags &= ~CRYPTO_TFM_NEED_KEY;
	return err;
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

RIND_EXPORT int crypto_kpp_export_pubkey(struct crypto_kpp *tfm, enum rind_key_format fmt,
					 u8 *out, unsigned int outlen)
{
	struct kpp_alg *alg;

	if (IS_ERR_OR_NULL(tfm) || (!out && outlen))
		return -EINVAL;
	alg = crypto_kpp_alg(tfm);
	if (!alg->export_pubkey)
		return -EOPNOTSUPP;
	if (tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY)
		return -ENOKEY;
	return alg->export_pubkey(tfm, fmt, out, outlen);
}

RIND_EXPORT int crypto_kpp_export_privkey(struct crypto_kpp *tfm, enum rind_key_format fmt,
					  u8 *out, unsigned int outlen)
{
	struct kpp_alg *alg;

	if (IS_ERR_OR_NULL(tfm) || (!out && outlen))
		return -EINVAL;
	alg = crypto_kpp_alg(tfm);
	if (!alg->export_privkey)
		return -EOPNOTSUPP;
	if (tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY)
		return -ENOKEY;
	return alg->export_privkey(tfm, fmt, out, outlen);
}

RIND_EXPORT struct kpp_request *kpp_request_alloc(struct crypto_kpp *tfm, gfp_t gfp)
{
	struct kpp_request *req;

	(void)gfp;
	if (IS_ERR_OR_NULL(tfm))
		return ERR_PTR(-EINVAL);
	req = calloc(1, sizeof(*req) + tfm->reqsize);
	if (!req)
		return ERR_PTR(-ENOMEM);
	/* base.tfm holds the typed tfm: crypto_kpp_reqtfm() casts it back. */
	req->base.tfm = (struct crypto_tfm *)tfm;
	return req;
}

RIND_EXPORT void kpp_request_free(struct kpp_request *req)
{
	struct crypto_kpp *tfm;

	if (IS_ERR_OR_NULL(req))
		return;
	tfm = crypto_kpp_reqtfm(req);
	rind_memzero_explicit(req, sizeof(*req) + (tfm ? tfm->reqsize : 0));
	free(req);
}

RIND_EXPORT void kpp_request_set_tfm(struct kpp_request *req, struct crypto_kpp *tfm)
{
	req->base.tfm = (struct crypto_tfm *)tfm;
}

/* ---- self-test runner ---------------------------------------------------- */

static int kpp_fail(struct crypto_alg *alg, unsigned int i, const char *what, int err)
{
	fprintf(stderr, "rind: %s: kpp self-test vector %u: %s (%d)\n",
		alg->cra_driver_name, i, what, err);
	return -EBADMSG;
}

/* One operation through a request, with the output in a linear buffer. */
static int kpp_run(struct crypto_kpp *tfm, bool shared, const void *in, unsigned int inlen,
		   u8 *out, unsigned int *outlen)
{
	struct kpp_request *req = kpp_request_alloc(tfm, GFP_KERNEL);
	struct scatterlist src, dst;
	int err;

	if (IS_ERR(req))
		return (int)PTR_ERR(req);
	sg_init_one(&src, in, inlen);
	sg_init_one(&dst, out, *outlen);
	kpp_request_set_input(req, &src, inlen);
	kpp_request_set_output(req, &dst, *outlen);
	err = shared ? crypto_kpp_compute_shared_secret(req) : crypto_kpp_generate_public_key(req);
	*outlen = req->dst_len;
	kpp_request_free(req);
	return err;
}

int alg_test_kpp(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	const struct kpp_test_suite *suite = desc->suite.priv;
	struct crypto_kpp *tfm;
	unsigned int i, max, len;
	u8 *out;
	int err = 0;

	if (!suite || !suite->count)
		return -ENOENT;
	tfm = crypto_alloc_kpp(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	max = crypto_kpp_maxsize(tfm);
	out = malloc(max ? max : 1);
	if (!out) {
		crypto_free_kpp(tfm);
		return -ENOMEM;
	}
	for (i = 0; i < suite->count && !err; i++) {
		const struct kpp_testvec *v = &suite->vecs[i];

		err = crypto_kpp_set_secret(tfm, v->secret, v->secret_size);
		if (err != v->secret_error) {
			err = kpp_fail(alg, i, "set_secret", err);
			break;
		}
		err = 0;
		if (v->secret_error)
			continue;
		if (v->expected_public) {
			len = max;
			err = kpp_run(tfm, false, NULL, 0, out, &len);
			if (err || len != v->expected_public_size ||
			    memcmp(out, v->expected_public, len)) {
				err = kpp_fail(alg, i, "generate_public_key", err);
				break;
			}
		}
		if (!v->peer_public)
			continue;
		len = max;
		err = kpp_run(tfm, true, v->peer_public, v->peer_public_size, out, &len);
		if (err != v->ss_error) {
			err = kpp_fail(alg, i, "compute_shared_secret", err);
			break;
		}
		if (!err && v->expected_ss &&
		    (len != v->expected_ss_size || memcmp(out, v->expected_ss, len))) {
			err = kpp_fail(alg, i, "shared secret mismatch", 0);
			break;
		}
		err = 0;
	}
	rind_memzero_explicit(out, max);
	free(out);
	crypto_free_kpp(tfm);
	return err;
}
