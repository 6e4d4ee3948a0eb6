/* SPDX-License-Identifier: MIT */
/*
 * Single-block ciphers ("aes"), as the kernel's crypto_cipher.  The key
 * length selects the variant (16, 24 or 32 bytes for AES).
 */
#ifndef _RIND_CIPHER_H
#define _RIND_CIPHER_H

#include <rind/base.h>

struct crypto_cipher;

struct crypto_cipher *crypto_alloc_cipher(const char *alg_name, u32 type, u32 mask);
void crypto_free_cipher(struct crypto_cipher *tfm);
int crypto_cipher_setkey(struct crypto_cipher *tfm, const u8 *key, unsigned int keylen);
void crypto_cipher_encrypt_one(struct crypto_cipher *tfm, u8 *dst, const u8 *src);
void crypto_cipher_decrypt_one(struct crypto_cipher *tfm, u8 *dst, const u8 *src);
unsigned int crypto_cipher_blocksize(struct crypto_cipher *tfm);
const char *crypto_cipher_driver_name(struct crypto_cipher *tfm);
struct crypto_tfm *crypto_cipher_tfm(struct crypto_cipher *tfm);
int crypto_has_cipher(const char *alg_name, u32 type, u32 mask);

#endif /* _RIND_CIPHER_H */
