/* SPDX-License-Identifier: MIT */
#ifndef _RIND_INTERNAL_CIPHER_H
#define _RIND_INTERNAL_CIPHER_H

#include <rind/cipher.h>
#include <rind/internal/alg.h>

/*
 * A single-block cipher.  encrypt_blocks/decrypt_blocks are optional
 * multi-block entry points (ECB over n contiguous blocks, src may equal
 * dst) that templates use when present: bitsliced and pipelined
 * implementations are much faster given several blocks at once.
 */
struct cipher_alg {
	unsigned int min_keysize;
	unsigned int max_keysize;
	int (*setkey)(struct crypto_cipher *tfm, const u8 *key, unsigned int keylen);
	void (*encrypt)(struct crypto_cipher *tfm, u8 *dst, const u8 *src);
	void (*decrypt)(struct crypto_cipher *tfm, u8 *dst, const u8 *src);
	void (*encrypt_blocks)(struct crypto_cipher *tfm, u8 *dst, const u8 *src, size_t nblocks);
	void (*decrypt_blocks)(struct crypto_cipher *tfm, u8 *dst, const u8 *src, size_t nblocks);
	struct crypto_alg base;
};

struct crypto_cipher {
	struct crypto_tfm base;
};

/* __crypto_cipher_alg(), crypto_cipher_alg(), crypto_cipher_ctx() */
CRYPTO_DEFINE_ALG_CASTS(cipher, crypto_cipher_ctx)

/* Encrypt/decrypt n blocks through the multi-block entry or one by one. */
void crypto_cipher_encrypt_blocks(struct crypto_cipher *tfm, u8 *dst, const u8 *src, size_t nblocks);
void crypto_cipher_decrypt_blocks(struct crypto_cipher *tfm, u8 *dst, const u8 *src, size_t nblocks);

/*
 * crypto_cipher_type, crypto_register_cipher, crypto_unregister_cipher,
 * crypto_grab_cipher, crypto_spawn_cipher
 */
CRYPTO_DECLARE_ALG_API(cipher);
CRYPTO_DECLARE_SPAWN_API(cipher);

#endif
