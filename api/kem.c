// SPDX-License-Identifier: MIT
/*
 * The kem front end: key encapsulation (ML-KEM and hybrids), in the style
 * of the kernel's tfm types.  Checks arguments and sizes, keeps track of
 * which keys are set, and draws the randomness for key generation and
 * encapsulation, so that algorithms are deterministic underneath (and
 * testable with known answers through crypto_kem_encapsulate_m and seeds).
 */
#include <string.h>
#include <rind/rng.h>
#include <rind/internal/kem.h>
#include <rind/internal/frontend.h>
#include <rind/internal/util.h>

#define KEM_MAX_RANDOM	128

CRYPTO_DEFINE_ALG_INIT_EXIT(crypto_kem, struct kem_alg, struct crypto_kem, init, exit)

static int crypto_kem_prepare_alg(struct crypto_alg *base)
{
	struct kem_alg *alg = __crypto_kem_alg(base);

	if (!alg->set_priv_key || !alg->set_pub_key || !alg->encapsulate ||
	    !alg->decapsulate || !alg->pubkey_size || !alg->privkey_size ||
	    !alg->ciphertext_size || !alg->shared_secret_size ||
	    alg->seed_size > KEM_MAX_RANDOM || !alg->m_size || alg->m_size > KEM_MAX_RANDOM)
		return -EINVAL;
	return 0;
}

const struct crypto_type crypto_kem_type = {
	.name = "kem",
	.type = CRYPTO_ALG_TYPE_KEM,
	.tfmsize = offsetof(struct crypto_kem, base),
	.tfm_flags = CRYPTO_TFM_NEED_KEY,
	.alg_init = crypto_kem_alg_init,
	.alg_exit = crypto_kem_alg_exit,
	.prepare_alg = crypto_kem_prepare_alg,
	/* Each kem registers a custom alg_test_desc.test. */
	.selftest = NULL,
};

CRYPTO_DEFINE_ALG_API(kem)
CRYPTO_DEFINE_ALGS_API(kem, kems)
CRYPTO_DEFINE_TFM_API(kem)
CRYPTO_DEFINE_ALG_NAME(kem)

static void kem_set_flags(struct crypto_kem *tfm, u32 flags)
{
	tfm->base.crt_flags &= ~(CRYPTO_TFM_NEED_KEY | CRYPTO_KEM_HAS_PUB | CRYPTO_KEM_HAS_PRIV);
	tfm->base.crt_flags |= flags;
}

RIND_EXPORT int crypto_kem_set_privkey(struct crypto_kem *tfm, const void *key, unsigned int keylen)
{
	struct kem_alg *alg;
	int err;

	if (IS_ERR_OR_NULL(tfm) || !key)
		return -EINVAL;
	alg = crypto_kem_alg(tfm);
	if (!alg->key_encodings && keylen != alg->privkey_size &&
	    (!alg->seed_size || keylen != alg->seed_size))
		return -EINVAL;
	err = alg->set_priv_key(tfm, key, keylen);
	if (!err)
		kem_set_flags(tfm, CRYPTO_KEM_HAS_PUB | CRYPTO_KEM_HAS_PRIV);
	return err;
}

RIND_EXPORT int crypto_kem_set_pubkey(struct crypto_kem *tfm, const void *key, unsigned int keylen)
{
	struct kem_alg *alg;
	int err;

	if (IS_ERR_OR_NULL(tfm) || !key)
		return -EINVAL;
	alg = crypto_kem_alg(tfm);
	if (!alg->key_encodings && keylen != alg->pubkey_size)
		return -EINVAL;
	err = alg->set_pub_key(tfm, key, keylen);
	if (!err)
		kem_set_flags(tfm, CRYPTO_KEM_HAS_PUB);
	return err;
}

RIND_EXPORT int crypto_kem_generate_key(struct crypto_kem *tfm)
{
	u8 seed[KEM_MAX_RANDOM];
	struct kem_alg *alg;
	int err;

	if (IS_ERR_OR_NULL(tfm))
		return -EINVAL;
	alg = crypto_kem_alg(tfm);
	if (!alg->seed_size)
		return -EOPNOTSUPP;
	err = rind_get_random_bytes(seed, alg->seed_size);
	if (!err)
		err = crypto_kem_set_privkey(tfm, seed, alg->seed_size);
	memzero_explicit(seed, sizeof(seed));
	return err;
}

RIND_EXPORT int crypto_kem_encapsulate_m(struct crypto_kem *tfm, const u8 *m, unsigned int mlen,
					 u8 *ct, unsigned int ctlen, u8 *ss, unsigned int sslen)
{
	struct kem_alg *alg;

	if (IS_ERR_OR_NULL(tfm) || !m || !ct || !ss)
		return -EINVAL;
	alg = crypto_kem_alg(tfm);
	if (mlen != alg->m_size || ctlen < alg->ciphertext_size || sslen < alg->shared_secret_size)
		return -EINVAL;
	if (!(tfm->base.crt_flags & CRYPTO_KEM_HAS_PUB))
		return -ENOKEY;
	return alg->encapsulate(tfm, m, ct, ss);
}

RIND_EXPORT int crypto_kem_encapsulate(struct crypto_kem *tfm, u8 *ct, unsigned int ctlen,
				       u8 *ss, unsigned int sslen)
{
	u8 m[KEM_MAX_RANDOM];
	struct kem_alg *alg;
	int err;

	if (IS_ERR_OR_NULL(tfm) || !ct || !ss)
		return -EINVAL;
	alg = crypto_kem_alg(tfm);
	if (ctlen < alg->ciphertext_size || sslen < alg->shared_secret_size)
		return -EINVAL;
	if (!(tfm->base.crt_flags & CRYPTO_KEM_HAS_PUB))
		return -ENOKEY;
	err = rind_get_random_bytes(m, alg->m_size);
	if (!err)
		err = alg->encapsulate(tfm, m, ct, ss);
	memzero_explicit(m, sizeof(m));
	return err;
}

RIND_EXPORT int crypto_kem_decapsulate(struct crypto_kem *tfm, const u8 *ct, unsigned int ctlen,
				       u8 *ss, unsigned int sslen)
{
	struct kem_alg *alg;

	if (IS_ERR_OR_NULL(tfm) || !ct || !ss)
		return -EINVAL;
	alg = crypto_kem_alg(tfm);
	if (ctlen != alg->ciphertext_size || sslen < alg->shared_secret_size)
		return -EINVAL;
	if (!(tfm->base.crt_flags & CRYPTO_KEM_HAS_PRIV))
		return -ENOKEY;
	return alg->decapsulate(tfm, ct, ss);
}

RIND_EXPORT unsigned int crypto_kem_pubkeysize(struct crypto_kem *tfm)
{
	return crypto_kem_alg(tfm)->pubkey_size;
}

RIND_EXPORT unsigned int crypto_kem_privkeysize(struct crypto_kem *tfm)
{
	return crypto_kem_alg(tfm)->privkey_size;
}

RIND_EXPORT unsigned int crypto_kem_seedsize(struct crypto_kem *tfm)
{
	return crypto_kem_alg(tfm)->seed_size;
}

RIND_EXPORT unsigned int crypto_kem_ciphertextsize(struct crypto_kem *tfm)
{
	return crypto_kem_alg(tfm)->ciphertext_size;
}

RIND_EXPORT unsigned int crypto_kem_sharedsecretsize(struct crypto_kem *tfm)
{
	return crypto_kem_alg(tfm)->shared_secret_size;
}

RIND_EXPORT unsigned int crypto_kem_encapsizeof_m(struct crypto_kem *tfm)
{
	return crypto_kem_alg(tfm)->m_size;
}

/* Both key exports: argument, support and key-state checks, then the alg. */
static int kem_export(struct crypto_kem *tfm, bool priv, enum rind_key_format fmt,
		      u8 *out, unsigned int outlen)
{
	struct kem_alg *alg;
	int (*export)(struct crypto_kem *tfm, enum rind_key_format fmt, u8 *out,
		      unsigned int outlen);

	if (IS_ERR_OR_NULL(tfm) || (!out && outlen))
		return -EINVAL;
	if (!(tfm->base.crt_flags & (priv ? CRYPTO_KEM_HAS_PRIV : CRYPTO_KEM_HAS_PUB)))
		return -ENOKEY;
	alg = crypto_kem_alg(tfm);
	export = priv ? alg->export_privkey : alg->export_pubkey;
	if (!export)
		return -EOPNOTSUPP;
	return export(tfm, fmt, out, outlen);
}

RIND_EXPORT int crypto_kem_export_pubkey(struct crypto_kem *tfm, enum rind_key_format fmt,
					 u8 *out, unsigned int outlen)
{
	return kem_export(tfm, false, fmt, out, outlen);
}

RIND_EXPORT int crypto_kem_export_privkey(struct crypto_kem *tfm, enum rind_key_format fmt,
					  u8 *out, unsigned int outlen)
{
	return kem_export(tfm, true, fmt, out, outlen);
}

RIND_EXPORT int crypto_kem_export_seed(struct crypto_kem *tfm, u8 *out, unsigned int outlen)
{
	struct kem_alg *alg;

	if (IS_ERR_OR_NULL(tfm) || !out)
		return -EINVAL;
	if (!(tfm->base.crt_flags & CRYPTO_KEM_HAS_PRIV))
		return -ENOKEY;
	alg = crypto_kem_alg(tfm);
	if (!alg->export_seed || !alg->seed_size)
		return -EOPNOTSUPP;
	if (outlen < alg->seed_size)
		return -ENOSPC;
	return alg->export_seed(tfm, out);
}
