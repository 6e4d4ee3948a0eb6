// SPDX-License-Identifier: MIT
/*
 * The sig front end: signatures over messages, as the kernel's
 * crypto/sig.c, plus key generation, key export, batches and the type's
 * self-test runner.
 */
#include <stdio.h>
#include <string.h>
#include <rind/internal/sig.h>
#include <rind/internal/util.h>

static int crypto_sig_init_tfm(struct crypto_tfm *tfm)
{
	struct crypto_sig *sig = container_of(tfm, struct crypto_sig, base);
	struct sig_alg *alg = __crypto_sig_alg(tfm->__crt_alg);

	tfm->crt_flags |= CRYPTO_TFM_NEED_KEY;
	if (alg->base.cra_init) {
		int err = alg->base.cra_init(tfm);

		if (err)
			return err;
	}
	return alg->init ? alg->init(sig) : 0;
}

static void crypto_sig_exit_tfm(struct crypto_tfm *tfm)
{
	struct crypto_sig *sig = container_of(tfm, struct crypto_sig, base);
	struct sig_alg *alg = __crypto_sig_alg(tfm->__crt_alg);

	if (alg->exit)
		alg->exit(sig);
	if (alg->base.cra_exit)
		alg->base.cra_exit(tfm);
}

const struct crypto_type crypto_sig_type = {
	.name = "sig",
	.type = CRYPTO_ALG_TYPE_SIG,
	.tfmsize = offsetof(struct crypto_sig, base),
	.init_tfm = crypto_sig_init_tfm,
	.exit_tfm = crypto_sig_exit_tfm,
	.selftest = alg_test_sig,
};

int crypto_register_sig(struct sig_alg *alg)
{
	struct crypto_alg *base = &alg->base;

	if (!alg->sign || !alg->verify || !alg->set_pub_key || !alg->set_priv_key ||
	    !alg->max_size)
		return -EINVAL;
	base->cra_type = &crypto_sig_type;
	base->cra_flags = (base->cra_flags & ~CRYPTO_ALG_TYPE_MASK) | CRYPTO_ALG_TYPE_SIG;
	return crypto_register_alg(base);
}

void crypto_unregister_sig(struct sig_alg *alg)
{
	crypto_unregister_alg(&alg->base);
}

int crypto_register_sigs(struct sig_alg *algs, int count)
{
	int i, err;

	for (i = 0; i < count; i++) {
		err = crypto_register_sig(&algs[i]);
		if (err) {
			while (--i >= 0)
				crypto_unregister_sig(&algs[i]);
			return err;
		}
	}
	return 0;
}

int crypto_grab_sig(struct crypto_spawn *spawn, struct crypto_alg *inst,
		    const char *name, u32 type, u32 mask)
{
	return crypto_grab_spawn(spawn, inst, name, (type & ~CRYPTO_ALG_TYPE_MASK) | CRYPTO_ALG_TYPE_SIG,
				 mask | CRYPTO_ALG_TYPE_MASK);
}

struct crypto_sig *crypto_spawn_sig(struct crypto_spawn *spawn)
{
	return crypto_spawn_tfm(spawn, &crypto_sig_type);
}

RIND_EXPORT struct crypto_sig *crypto_alloc_sig(const char *alg_name, u32 type, u32 mask)
{
	return crypto_alloc_tfm(alg_name, &crypto_sig_type, type, mask);
}

RIND_EXPORT void crypto_free_sig(struct crypto_sig *tfm)
{
	if (!IS_ERR_OR_NULL(tfm))
		crypto_destroy_tfm(tfm, &tfm->base);
}

RIND_EXPORT int crypto_has_sig(const char *alg_name, u32 type, u32 mask)
{
	return crypto_has_alg(alg_name, (type & ~CRYPTO_ALG_TYPE_MASK) | CRYPTO_ALG_TYPE_SIG,
			      mask | CRYPTO_ALG_TYPE_MASK);
}

RIND_EXPORT struct crypto_tfm *crypto_sig_tfm(struct crypto_sig *tfm)
{
	return &tfm->base;
}

RIND_EXPORT const char *crypto_sig_driver_name(struct crypto_sig *tfm)
{
	return tfm->base.__crt_alg->cra_driver_name;
}

RIND_EXPORT const char *crypto_sig_alg_name(struct crypto_sig *tfm)
{
	return tfm->base.__crt_alg->cra_name;
}

RIND_EXPORT int crypto_sig_set_privkey(struct crypto_sig *tfm, const void *key, unsigned int keylen)
{
	int err;

	if (IS_ERR_OR_NULL(tfm) || !key)
		return -EINVAL;
	err = crypto_sig_alg(tfm)->set_priv_key(tfm, key, keylen);
	if (!err)
		tfm->base.crt_flags &= ~CRYPTO_TFM_NEED_KEY;
	return err;
}

RIND_EXPORT int crypto_sig_set_pubkey(struct crypto_sig *tfm, const void *key, unsigned int keylen)
{
	int err;

	if (IS_ERR_OR_NULL(tfm) || !key)
		return -EINVAL;
	err = crypto_sig_alg(tfm)->set_pub_key(tfm, key, keylen);
	if (!err)
		tfm->base.crt_flags &= ~CRYPTO_TFM_NEED_KEY;
	return err;
}

RIND_EXPORT int crypto_sig_generate_key(struct crypto_sig *tfm)
{
	struct sig_alg *alg;
	int err;

	if (IS_ERR_OR_NULL(tfm))
		return -EINVAL;
	alg = crypto_sig_alg(tfm);
	if (!alg->generate_key)
		return -EOPNOTSUPP;
	err = alg->generate_key(tfm);
	if (!err)
		tfm->base.crt_flags &= ~CRYPTO_TFM_NEED_KEY;
	return err;
}

RIND_EXPORT int crypto_sig_set_keygen_bits(struct crypto_sig *tfm, unsigned int bits)
{
	struct sig_alg *alg;

	if (IS_ERR_OR_NULL(tfm))
		return -EINVAL;
	alg = crypto_sig_alg(tfm);
	if (!alg->set_keygen_bits)
		return -EOPNOTSUPP;
	return alg->set_keygen_bits(tfm, bits);
}

RIND_EXPORT int crypto_sig_sign(struct crypto_sig *tfm, const void *msg, unsigned int msglen,
				void *sig, unsigned int siglen)
{
	if (IS_ERR_OR_NULL(tfm) || (!msg && msglen) || !sig)
		return -EINVAL;
	if (tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY)
		return -ENOKEY;
	return crypto_sig_alg(tfm)->sign(tfm, msg, msglen, sig, siglen);
}

RIND_EXPORT int crypto_sig_verify(struct crypto_sig *tfm, const void *sig, unsigned int siglen,
				  const void *msg, unsigned int msglen)
{
	if (IS_ERR_OR_NULL(tfm) || (!msg && msglen) || (!sig && siglen))
		return -EINVAL;
	if (tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY)
		return -ENOKEY;
	return crypto_sig_alg(tfm)->verify(tfm, sig, siglen, msg, msglen);
}

RIND_EXPORT unsigned int crypto_sig_keysize(struct crypto_sig *tfm)
{
	struct sig_alg *alg = crypto_sig_alg(tfm);

	return alg->key_size ? alg->key_size(tfm) : 0;
}

RIND_EXPORT unsigned int crypto_sig_maxsize(struct crypto_sig *tfm)
{
	return crypto_sig_alg(tfm)->max_size(tfm);
}

RIND_EXPORT int crypto_sig_export_pubkey(struct crypto_sig *tfm, enum rind_key_format fmt,
					 u8 *out, unsigned int outlen)
{
	struct sig_alg *alg;

	if (IS_ERR_OR_NULL(tfm) || (!out && outlen))
		return -EINVAL;
	alg = crypto_sig_alg(tfm);
	if (!alg->export_pubkey)
		return -EOPNOTSUPP;
	if (tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY)
		return -ENOKEY;
	return alg->export_pubkey(tfm, fmt, out, outlen);
}

RIND_EXPORT int crypto_sig_export_privkey(struct crypto_sig *tfm, enum rind_key_format fmt,
					  u8 *out, unsigned int outlen)
{
	struct sig_alg *alg;

	if (IS_ERR_OR_NULL(tfm) || (!out && outlen))
		return -EINVAL;
	alg = crypto_sig_alg(tfm);
	if (!alg->export_privkey)
		return -EOPNOTSUPP;
	if (tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY)
		return -ENOKEY;
	return alg->export_privkey(tfm, fmt, out, outlen);
}

static int sig_batch_result(struct sig_request *reqs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (reqs[i].err)
			return reqs[i].err;
	return 0;
}

static int sig_batch_check(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n)
{
	unsigned int i;
	int err = 0;

	if (IS_ERR_OR_NULL(tfm) || (!reqs && n))
		return -EINVAL;
	if (tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY)
		err = -ENOKEY;
	for (i = 0; i < n && err; i++)
		reqs[i].err = err;
	return err;
}

RIND_EXPORT int crypto_sig_sign_batch(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n)
{
	struct sig_alg *alg;
	unsigned int i;
	int err = sig_batch_check(tfm, reqs, n);

	if (err)
		return err;
	alg = crypto_sig_alg(tfm);
	if (alg->sign_batch) {
		/* The alg sees only well-formed requests. */
		for (i = 0; i < n; i++)
			reqs[i].err = (!reqs[i].msg && reqs[i].msglen) || !reqs[i].sig ? -EINVAL : 0;
		alg->sign_batch(tfm, reqs, n);
		return sig_batch_result(reqs, n);
	}
	for (i = 0; i < n; i++) {
		int r = crypto_sig_sign(tfm, reqs[i].msg, reqs[i].msglen, reqs[i].sig, reqs[i].siglen);

		if (r >= 0) {
			reqs[i].siglen = (unsigned int)r;
			reqs[i].err = 0;
		} else {
			reqs[i].err = r;
		}
	}
	return sig_batch_result(reqs, n);
}

RIND_EXPORT int crypto_sig_verify_batch(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n)
{
	struct sig_alg *alg;
	unsigned int i;
	int err = sig_batch_check(tfm, reqs, n);

	if (err)
		return err;
	alg = crypto_sig_alg(tfm);
	if (alg->verify_batch) {
		for (i = 0; i < n; i++)
			reqs[i].err = (!reqs[i].msg && reqs[i].msglen) ||
				      (!reqs[i].sig && reqs[i].siglen) ? -EINVAL : 0;
		alg->verify_batch(tfm, reqs, n);
		return sig_batch_result(reqs, n);
	}
	for (i = 0; i < n; i++)
		reqs[i].err = crypto_sig_verify(tfm, reqs[i].sig, reqs[i].siglen,
						reqs[i].msg, reqs[i].msglen);
	return sig_batch_result(reqs, n);
}

/* ---- self-test runner ---------------------------------------------------- */

static int sig_fail(struct crypto_alg *alg, unsigned int i, const char *what, int err)
{
	fprintf(stderr, "rind: %s: sig self-test vector %u: %s (%d)\n",
		alg->cra_driver_name, i, what, err);
	return -EBADMSG;
}

static int sig_test_one(struct crypto_alg *alg, unsigned int i, const struct sig_testvec *v,
			u8 *buf, unsigned int max)
{
	struct crypto_sig *tfm;
	int err, len;

	if (v->privkey) {
		tfm = crypto_alloc_sig(alg->cra_driver_name, 0, 0);
		if (IS_ERR(tfm))
			return (int)PTR_ERR(tfm);
		err = crypto_sig_set_privkey(tfm, v->privkey, v->privkey_size);
		if (err) {
			err = sig_fail(alg, i, "set_privkey", err);
			goto out;
		}
		if (v->pubkey && crypto_sig_alg(tfm)->export_pubkey) {
			len = crypto_sig_export_pubkey(tfm, RIND_KEY_RAW, buf, max);
			if (len != (int)v->pubkey_size || memcmp(buf, v->pubkey, (size_t)len)) {
				err = sig_fail(alg, i, "public key from private key", len);
				goto out;
			}
		}
		len = crypto_sig_sign(tfm, v->msg, v->msg_size, buf, max);
		if (len < 0) {
			err = sig_fail(alg, i, "sign", len);
			goto out;
		}
		if (!v->randomized && !v->must_fail &&
		    ((unsigned int)len != v->sig_size || memcmp(buf, v->sig, (size_t)len))) {
			err = sig_fail(alg, i, "signature mismatch", len);
			goto out;
		}
		err = crypto_sig_verify(tfm, buf, (unsigned int)len, v->msg, v->msg_size);
		if (err) {
			err = sig_fail(alg, i, "verify own signature", err);
			goto out;
		}
		if (!v->pubkey) {
			err = crypto_sig_verify(tfm, v->sig, v->sig_size, v->msg, v->msg_size);
			if (err != (v->must_fail ? -EBADMSG : 0))
				err = sig_fail(alg, i, "verify", err);
			else
				err = 0;
		}
out:
		crypto_free_sig(tfm);
		if (err)
			return err;
	}
	if (!v->pubkey)
		return 0;
	tfm = crypto_alloc_sig(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	err = crypto_sig_set_pubkey(tfm, v->pubkey, v->pubkey_size);
	if (err) {
		err = sig_fail(alg, i, "set_pubkey", err);
	} else {
		err = crypto_sig_verify(tfm, v->sig, v->sig_size, v->msg, v->msg_size);
		if (err != (v->must_fail ? -EBADMSG : 0))
			err = sig_fail(alg, i, "verify", err);
		else
			err = 0;
	}
	crypto_free_sig(tfm);
	return err;
}

int alg_test_sig(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	const struct sig_test_suite *suite = desc->suite.priv;
	struct crypto_sig *tfm;
	unsigned int i, max;
	u8 *buf;
	int err = 0;

	if (!suite || !suite->count)
		return -ENOENT;
	tfm = crypto_alloc_sig(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	max = crypto_sig_maxsize(tfm);
	crypto_free_sig(tfm);
	/* Room for a signature or a raw public key. */
	max = max < 1024 ? 1024 : max;
	buf = malloc(max);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < suite->count && !err; i++)
		err = sig_test_one(alg, i, &suite->vecs[i], buf, max);
	free(buf);
	return err;
}
