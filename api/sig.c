// SPDX-License-Identifier: MIT
/*
 * The sig front end: signatures over messages, as the kernel's
 * crypto/sig.c, plus key generation, key export and batches.  Its
 * self-test runner is in testmgr-pk.c.
 */
#include <rind/internal/sig.h>
#include <rind/internal/frontend.h>

CRYPTO_DEFINE_ALG_INIT_EXIT(crypto_sig, struct sig_alg, struct crypto_sig, init, exit)

static int crypto_sig_prepare_alg(struct crypto_alg *base)
{
	struct sig_alg *alg = __crypto_sig_alg(base);

	if (!alg->sign || !alg->verify || !alg->set_pub_key || !alg->set_priv_key ||
	    !alg->max_size)
		return -EINVAL;
	return 0;
}

const struct crypto_type crypto_sig_type = {
	.name = "sig",
	.type = CRYPTO_ALG_TYPE_SIG,
	.tfmsize = offsetof(struct crypto_sig, base),
	.tfm_flags = CRYPTO_TFM_NEED_KEY,
	.alg_init = crypto_sig_alg_init,
	.alg_exit = crypto_sig_alg_exit,
	.prepare_alg = crypto_sig_prepare_alg,
	.selftest = alg_test_sig,
};

CRYPTO_DEFINE_ALG_API(sig)
CRYPTO_DEFINE_ALGS_API(sig, sigs)
CRYPTO_DEFINE_SPAWN_API(sig)
CRYPTO_DEFINE_TFM_API(sig)
CRYPTO_DEFINE_ALG_NAME(sig)

CRYPTO_DEFINE_SET_KEY(sig, set_privkey, set_priv_key)
CRYPTO_DEFINE_SET_KEY(sig, set_pubkey, set_pub_key)
CRYPTO_DEFINE_KEYGEN_API(sig)
CRYPTO_DEFINE_KEY_EXPORT_API(sig)

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

RIND_EXPORT int rind_sig_set_context(struct crypto_sig *tfm, const u8 *ctx, unsigned int ctxlen)
{
	struct sig_alg *alg;

	if (IS_ERR_OR_NULL(tfm) || (!ctx && ctxlen))
		return -EINVAL;
	alg = crypto_sig_alg(tfm);
	if (!alg->set_context)
		return -EOPNOTSUPP;
	return alg->set_context(tfm, ctx, ctxlen);
}

RIND_EXPORT int rind_sig_set_deterministic(struct crypto_sig *tfm, bool on)
{
	struct sig_alg *alg;

	if (IS_ERR_OR_NULL(tfm))
		return -EINVAL;
	alg = crypto_sig_alg(tfm);
	if (!alg->set_deterministic)
		return -EOPNOTSUPP;
	return alg->set_deterministic(tfm, on);
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
	/*
	 * The whole batch is one constant-time section (PSTATE.DIT on arm64),
	 * from its first signature to its last, as aead_batch() does.
	 */
	rind_ct_begin();
	if (alg->sign_batch) {
		/* The alg sees only well-formed requests. */
		for (i = 0; i < n; i++)
			reqs[i].err = (!reqs[i].msg && reqs[i].msglen) || !reqs[i].sig ? -EINVAL : 0;
		alg->sign_batch(tfm, reqs, n);
	} else {
		for (i = 0; i < n; i++) {
			int r = crypto_sig_sign(tfm, reqs[i].msg, reqs[i].msglen, reqs[i].sig,
						reqs[i].siglen);

			if (r >= 0) {
				reqs[i].siglen = (unsigned int)r;
				reqs[i].err = 0;
			} else {
				reqs[i].err = r;
			}
		}
	}
	rind_ct_end();
	return sig_batch_result(reqs, n);
}

RIND_EXPORT unsigned int crypto_sig_batch_lanes(struct crypto_sig *tfm, unsigned int n)
{
	struct sig_alg *alg;

	if (IS_ERR_OR_NULL(tfm))
		return 1;
	alg = crypto_sig_alg(tfm);
	if (!alg->sign_batch)
		return 1;
	if (alg->batch_width) {
		/* per key: what this tfm's sign_batch would run (rindd's "lanes used") */
		unsigned int l = alg->batch_width(tfm, n);

		return l > 1 ? l : 1;
	}
	if (alg->batch_lanes < 2 || n < alg->batch_min)
		return 1;
	return alg->batch_lanes;
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
