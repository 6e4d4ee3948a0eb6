// SPDX-License-Identifier: MIT
/* The single-block cipher front end ("aes"). */
#include <string.h>
#include <rind/internal/cipher.h>
#include <rind/internal/frontend.h>
#include <rind/internal/testmgr.h>

static int crypto_cipher_prepare_alg(struct crypto_alg *base)
{
	struct cipher_alg *alg = __crypto_cipher_alg(base);

	if (!alg->setkey || !alg->encrypt || !alg->decrypt || !base->cra_blocksize ||
	    base->cra_blocksize > 32)
		return -EINVAL;
	return 0;
}

/* No typed init/exit: a cipher_alg has only the base's cra_init/cra_exit. */
const struct crypto_type crypto_cipher_type = {
	.name = "cipher",
	.type = CRYPTO_ALG_TYPE_CIPHER,
	.tfmsize = offsetof(struct crypto_cipher, base),
	.tfm_flags = CRYPTO_TFM_NEED_KEY,
	.prepare_alg = crypto_cipher_prepare_alg,
	.selftest = alg_test_cipher,
};

CRYPTO_DEFINE_ALG_API(cipher)
CRYPTO_DEFINE_SPAWN_API(cipher)
CRYPTO_DEFINE_TFM_API(cipher)

RIND_EXPORT int crypto_cipher_setkey(struct crypto_cipher *tfm, const u8 *key, unsigned int keylen)
{
	struct cipher_alg *alg = crypto_cipher_alg(tfm);

	if (!key || keylen < alg->min_keysize || keylen > alg->max_keysize)
		return crypto_tfm_setkey_result(&tfm->base, -EINVAL);
	return crypto_tfm_setkey_result(&tfm->base, alg->setkey(tfm, key, keylen));
}

/*
 * The kernel's one-block calls return nothing; with no key set rind
 * writes zeros rather than run on an empty schedule.
 */
RIND_EXPORT void crypto_cipher_encrypt_one(struct crypto_cipher *tfm, u8 *dst, const u8 *src)
{
	if (tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY) {
		memset(dst, 0, tfm->base.__crt_alg->cra_blocksize);
		return;
	}
	crypto_cipher_alg(tfm)->encrypt(tfm, dst, src);
}

RIND_EXPORT void crypto_cipher_decrypt_one(struct crypto_cipher *tfm, u8 *dst, const u8 *src)
{
	if (tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY) {
		memset(dst, 0, tfm->base.__crt_alg->cra_blocksize);
		return;
	}
	crypto_cipher_alg(tfm)->decrypt(tfm, dst, src);
}

void crypto_cipher_encrypt_blocks(struct crypto_cipher *tfm, u8 *dst, const u8 *src, size_t nblocks)
{
	struct cipher_alg *alg = crypto_cipher_alg(tfm);
	unsigned int bs = alg->base.cra_blocksize;

	if (alg->encrypt_blocks) {
		alg->encrypt_blocks(tfm, dst, src, nblocks);
		return;
	}
	for (; nblocks; nblocks--, dst += bs, src += bs)
		alg->encrypt(tfm, dst, src);
}

void crypto_cipher_decrypt_blocks(struct crypto_cipher *tfm, u8 *dst, const u8 *src, size_t nblocks)
{
	struct cipher_alg *alg = crypto_cipher_alg(tfm);
	unsigned int bs = alg->base.cra_blocksize;

	if (alg->decrypt_blocks) {
		alg->decrypt_blocks(tfm, dst, src, nblocks);
		return;
	}
	for (; nblocks; nblocks--, dst += bs, src += bs)
		alg->decrypt(tfm, dst, src);
}

RIND_EXPORT unsigned int crypto_cipher_blocksize(struct crypto_cipher *tfm)
{
	return tfm->base.__crt_alg->cra_blocksize;
}

