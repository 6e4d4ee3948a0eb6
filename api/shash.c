// SPDX-License-Identifier: MIT
/* The shash front end: synchronous hashes and keyed hashes (MACs). */
#include <string.h>
#include <rind/internal/hash.h>
#include <rind/internal/frontend.h>
#include <rind/internal/testmgr.h>

static int crypto_shash_init_tfm(struct crypto_tfm *tfm)
{
	struct crypto_shash *hash = container_of(tfm, struct crypto_shash, base);
	struct shash_alg *alg = __crypto_shash_alg(tfm->__crt_alg);

	hash->descsize = alg->descsize;
	if (alg->setkey && !(alg->base.cra_flags & CRYPTO_ALG_OPTIONAL_KEY))
		tfm->crt_flags |= CRYPTO_TFM_NEED_KEY;
	return 0;
}

CRYPTO_DEFINE_ALG_INIT_EXIT(crypto_shash, struct shash_alg, struct crypto_shash, init_tfm, exit_tfm)

static int crypto_shash_prepare_alg(struct crypto_alg *base)
{
	struct shash_alg *alg = __crypto_shash_alg(base);

	if (alg->descsize > HASH_MAX_DESCSIZE || alg->digestsize > HASH_MAX_DIGESTSIZE ||
	    (alg->statesize ? alg->statesize : alg->descsize) > HASH_MAX_DESCSIZE ||
	    !alg->init || !alg->update || !alg->final)
		return -EINVAL;
	if (!alg->finup_mb)
		alg->mb_max_msgs = 1;
	else if (alg->mb_max_msgs < 2 || alg->mb_max_msgs > HASH_MAX_MB_MSGS)
		return -EINVAL;
	return 0;
}

const struct crypto_type crypto_shash_type = {
	.name = "shash",
	.type = CRYPTO_ALG_TYPE_SHASH,
	.tfmsize = offsetof(struct crypto_shash, base),
	.init_tfm = crypto_shash_init_tfm,
	.alg_init = crypto_shash_alg_init,
	.alg_exit = crypto_shash_alg_exit,
	.prepare_alg = crypto_shash_prepare_alg,
	.selftest = alg_test_hash,
};

CRYPTO_DEFINE_ALG_API(shash)
CRYPTO_DEFINE_ALGS_API(shash, shashes)
CRYPTO_DEFINE_SPAWN_API(shash)
CRYPTO_DEFINE_TFM_API(shash)
CRYPTO_DEFINE_ALG_NAME(shash)

RIND_EXPORT int crypto_shash_setkey(struct crypto_shash *tfm, const u8 *key, unsigned int keylen)
{
	struct shash_alg *alg = crypto_shash_alg(tfm);

	if (!alg->setkey)
		return -ENOSYS;
	if (!key && keylen)
		return -EINVAL;
	return crypto_tfm_setkey_result(&tfm->base, alg->setkey(tfm, key, keylen));
}

static bool shash_needs_key(struct crypto_shash *tfm)
{
	struct shash_alg *alg = crypto_shash_alg(tfm);

	if (!alg->setkey || (alg->base.cra_flags & CRYPTO_ALG_OPTIONAL_KEY))
		return false;
	return tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY;
}

RIND_EXPORT int crypto_shash_init(struct shash_desc *desc)
{
	if (shash_needs_key(desc->tfm))
		return -ENOKEY;
	return crypto_shash_alg(desc->tfm)->init(desc);
}

RIND_EXPORT int crypto_shash_update(struct shash_desc *desc, const u8 *data, unsigned int len)
{
	return crypto_shash_alg(desc->tfm)->update(desc, data, len);
}

RIND_EXPORT void shash_desc_zero(struct shash_desc *desc)
{
	rind_memzero_explicit(desc, sizeof(*desc) + desc->tfm->descsize);
}

static void wipe_ctx(struct shash_desc *desc)
{
	rind_memzero_explicit(shash_desc_ctx(desc), desc->tfm->descsize);
}

RIND_EXPORT int crypto_shash_final(struct shash_desc *desc, u8 *out)
{
	int err = crypto_shash_alg(desc->tfm)->final(desc, out);

	wipe_ctx(desc);
	return err;
}

RIND_EXPORT int crypto_shash_finup(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out)
{
	struct shash_alg *alg = crypto_shash_alg(desc->tfm);
	int err;

	if (alg->finup) {
		err = alg->finup(desc, data, len, out);
	} else {
		err = alg->update(desc, data, len);
		if (!err)
			err = alg->final(desc, out);
	}
	wipe_ctx(desc);
	return err;
}

/*
 * Without finup_mb (or for a single message) each message is hashed from a
 * fork of the state: exported once, imported into a scratch descriptor per
 * message, the last one finished in @desc itself.
 */
static int shash_finup_mb_fallback(struct shash_desc *desc, const u8 * const data[],
				   unsigned int len, u8 * const outs[], unsigned int num_msgs)
{
	struct crypto_shash *tfm = desc->tfm;
	u8 state[HASH_MAX_DESCSIZE] __attribute__((aligned(16)));
	SHASH_DESC_ON_STACK(fork, tfm);
	unsigned int i;
	int err = 0;

	if (num_msgs > 1)
		err = crypto_shash_export(desc, state);
	fork->tfm = tfm;
	for (i = 0; !err && i + 1 < num_msgs; i++) {
		err = crypto_shash_import(fork, state);
		if (!err)
			err = crypto_shash_finup(fork, data[i], len, outs[i]);
	}
	if (!err)
		err = crypto_shash_finup(desc, data[i], len, outs[i]);
	rind_memzero_explicit(state, sizeof(state));
	shash_desc_zero(fork);
	wipe_ctx(desc);		/* also after an error */
	return err;
}

RIND_EXPORT int crypto_shash_finup_mb(struct shash_desc *desc, const u8 * const data[],
				      unsigned int len, u8 * const outs[], unsigned int num_msgs)
{
	struct shash_alg *alg = crypto_shash_alg(desc->tfm);
	unsigned int i, n;
	int err = 0;

	if (alg->mb_max_msgs < 2 || num_msgs < 2) {
		if (num_msgs)
			return shash_finup_mb_fallback(desc, data, len, outs, num_msgs);
		wipe_ctx(desc);
		return 0;
	}
	/* Groups of up to mb_max_msgs, each from the same (unchanged) state. */
	for (i = 0; !err && i < num_msgs; i += n) {
		n = num_msgs - i < alg->mb_max_msgs ? num_msgs - i : alg->mb_max_msgs;
		if (n == 1)	/* the last message: finish @desc itself */
			err = crypto_shash_finup(desc, data[i], len, outs[i]);
		else
			err = alg->finup_mb(desc, data + i, len, outs + i, n);
	}
	wipe_ctx(desc);
	return err;
}

RIND_EXPORT int crypto_shash_digest(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out)
{
	struct shash_alg *alg = crypto_shash_alg(desc->tfm);
	int err;

	if (shash_needs_key(desc->tfm))
		return -ENOKEY;
	if (alg->digest) {
		err = alg->digest(desc, data, len, out);
		wipe_ctx(desc);
		return err;
	}
	err = alg->init(desc);
	if (err) {
		wipe_ctx(desc);
		return err;
	}
	return crypto_shash_finup(desc, data, len, out);
}

/*
 * crypto_shash_digest() leaves the context wiped on every path that wrote
 * to it, and the rest of the descriptor is the tfm pointer: no second wipe.
 */
RIND_EXPORT int crypto_shash_tfm_digest(struct crypto_shash *tfm, const u8 *data, unsigned int len, u8 *out)
{
	SHASH_DESC_ON_STACK(desc, tfm);

	desc->tfm = tfm;
	return crypto_shash_digest(desc, data, len, out);
}

RIND_EXPORT int crypto_shash_export(struct shash_desc *desc, void *out)
{
	struct shash_alg *alg = crypto_shash_alg(desc->tfm);

	if (alg->export)
		return alg->export(desc, out);
	memcpy(out, shash_desc_ctx(desc), desc->tfm->descsize);
	return 0;
}

RIND_EXPORT int crypto_shash_import(struct shash_desc *desc, const void *in)
{
	struct shash_alg *alg = crypto_shash_alg(desc->tfm);

	if (shash_needs_key(desc->tfm))
		return -ENOKEY;
	if (alg->import)
		return alg->import(desc, in);
	memcpy(shash_desc_ctx(desc), in, desc->tfm->descsize);
	return 0;
}

RIND_EXPORT unsigned int crypto_shash_digestsize(struct crypto_shash *tfm)
{
	return crypto_shash_alg(tfm)->digestsize;
}

RIND_EXPORT unsigned int crypto_shash_blocksize(struct crypto_shash *tfm)
{
	return tfm->base.__crt_alg->cra_blocksize;
}

RIND_EXPORT unsigned int crypto_shash_descsize(struct crypto_shash *tfm)
{
	return tfm->descsize;
}

RIND_EXPORT unsigned int crypto_shash_statesize(struct crypto_shash *tfm)
{
	struct shash_alg *alg = crypto_shash_alg(tfm);

	return alg->statesize ? alg->statesize : alg->descsize;
}

