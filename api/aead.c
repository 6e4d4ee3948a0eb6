// SPDX-License-Identifier: MIT
/* The aead front end: authenticated encryption over scatterlists, batches. */
#include <string.h>
#include <rind/internal/aead.h>
#include <rind/internal/frontend.h>
#include <rind/internal/testmgr.h>

static int crypto_aead_init_tfm(struct crypto_tfm *tfm)
{
	struct crypto_aead *aead = container_of(tfm, struct crypto_aead, base);

	aead->authsize = __crypto_aead_alg(tfm->__crt_alg)->maxauthsize;
	return 0;
}

CRYPTO_DEFINE_ALG_INIT_EXIT(crypto_aead, struct aead_alg, struct crypto_aead, init, exit)

static int crypto_aead_prepare_alg(struct crypto_alg *base)
{
	struct aead_alg *alg = __crypto_aead_alg(base);

	if (!alg->setkey || !alg->encrypt || !alg->decrypt || !base->cra_blocksize ||
	    alg->maxauthsize > 64 || alg->ivsize > 64)
		return -EINVAL;
	if (!alg->chunksize)
		alg->chunksize = base->cra_blocksize;
	return 0;
}

const struct crypto_type crypto_aead_type = {
	.name = "aead",
	.type = CRYPTO_ALG_TYPE_AEAD,
	.tfmsize = offsetof(struct crypto_aead, base),
	.tfm_flags = CRYPTO_TFM_NEED_KEY,
	.init_tfm = crypto_aead_init_tfm,
	.alg_init = crypto_aead_alg_init,
	.alg_exit = crypto_aead_alg_exit,
	.prepare_alg = crypto_aead_prepare_alg,
	.reqhead = sizeof(struct aead_request),
	.reqbase = offsetof(struct aead_request, base),
	.selftest = alg_test_aead,
};

CRYPTO_DEFINE_ALG_API(aead)
CRYPTO_DEFINE_ALGS_API(aead, aeads)
CRYPTO_DEFINE_SPAWN_API(aead)
CRYPTO_DEFINE_TFM_API(aead)
CRYPTO_DEFINE_REQUEST_API(aead)
CRYPTO_DEFINE_ALG_NAME(aead)

RIND_EXPORT int crypto_aead_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int keylen)
{
	struct aead_alg *alg = crypto_aead_alg(tfm);

	if (!key && keylen)
		return -EINVAL;
	return crypto_tfm_setkey_result(&tfm->base, alg->setkey(tfm, key, keylen));
}

RIND_EXPORT int crypto_aead_setauthsize(struct crypto_aead *tfm, unsigned int authsize)
{
	struct aead_alg *alg = crypto_aead_alg(tfm);
	int err;

	if (authsize > alg->maxauthsize)
		return -EINVAL;
	if (alg->setauthsize) {
		err = alg->setauthsize(tfm, authsize);
		if (err)
			return err;
	}
	tfm->authsize = authsize;
	return 0;
}

static int aead_check(struct aead_request *req, bool dec)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);

	if (!tfm)
		return -EINVAL;
	if (tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY)
		return -ENOKEY;
	if ((req->assoclen || req->cryptlen) && (!req->src || !req->dst))
		return -EINVAL;
	if (crypto_aead_alg(tfm)->ivsize && !req->iv)
		return -EINVAL;
	if (dec && req->cryptlen < tfm->authsize)
		return -EINVAL;
	/* assoclen + cryptlen (+ tag) must not wrap. */
	if ((u64)req->assoclen + req->cryptlen + tfm->authsize > 0xffffffffull)
		return -EINVAL;
	return 0;
}

RIND_EXPORT int crypto_aead_encrypt(struct aead_request *req)
{
	int err = aead_check(req, false);

	if (err)
		return err;
	return crypto_aead_alg(crypto_aead_reqtfm(req))->encrypt(req);
}

RIND_EXPORT int crypto_aead_decrypt(struct aead_request *req)
{
	int err = aead_check(req, true);

	if (err)
		return err;
	return crypto_aead_alg(crypto_aead_reqtfm(req))->decrypt(req);
}

/*
 * Batches: consecutive requests whose tfms share an implementation with a
 * batch entry go to it together; everything else runs one by one.  The
 * whole batch is one constant-time section.
 */
static int aead_batch(struct aead_request **reqs, unsigned int n, bool dec)
{
	unsigned int i = 0, j;
	int first = 0;

	rind_ct_begin();
	while (i < n) {
		struct aead_alg *alg;
		void (*batch)(struct aead_request **, unsigned int);

		reqs[i]->err = aead_check(reqs[i], dec);
		if (reqs[i]->err) {
			i++;
			continue;
		}
		alg = crypto_aead_alg(crypto_aead_reqtfm(reqs[i]));
		batch = dec ? alg->decrypt_batch : alg->encrypt_batch;
		if (!batch) {
			reqs[i]->err = dec ? alg->decrypt(reqs[i]) : alg->encrypt(reqs[i]);
			i++;
			continue;
		}
		for (j = i + 1; j < n; j++) {
			struct crypto_aead *t = crypto_aead_reqtfm(reqs[j]);

			if (!t || crypto_aead_alg(t) != alg || aead_check(reqs[j], dec))
				break;
		}
		batch(reqs + i, j - i);
		i = j;
	}
	rind_ct_end();
	for (i = 0; i < n; i++) {
		if (reqs[i]->err && !first)
			first = reqs[i]->err;
	}
	return first;
}

RIND_EXPORT int crypto_aead_encrypt_batch(struct aead_request **reqs, unsigned int n)
{
	return aead_batch(reqs, n, false);
}

RIND_EXPORT int crypto_aead_decrypt_batch(struct aead_request **reqs, unsigned int n)
{
	return aead_batch(reqs, n, true);
}

RIND_EXPORT unsigned int crypto_aead_ivsize(struct crypto_aead *tfm)
{
	return crypto_aead_alg(tfm)->ivsize;
}

RIND_EXPORT unsigned int crypto_aead_authsize(struct crypto_aead *tfm)
{
	return tfm->authsize;
}

RIND_EXPORT unsigned int crypto_aead_maxauthsize(struct crypto_aead *tfm)
{
	return crypto_aead_alg(tfm)->maxauthsize;
}

RIND_EXPORT unsigned int crypto_aead_blocksize(struct crypto_aead *tfm)
{
	return tfm->base.__crt_alg->cra_blocksize;
}

RIND_EXPORT unsigned int crypto_aead_reqsize(struct crypto_aead *tfm)
{
	return tfm->base.crt_reqsize;
}
