/* SPDX-License-Identifier: MIT */
/*
 * The generic constant-time AES of algs/aes.c as plain functions, for other
 * generic code that wants AES without going through the registry (the
 * kernel's lib/crypto/aes.c in spirit).  Bitsliced, so several blocks at
 * once are much cheaper per block than one at a time.
 */
#ifndef _RIND_ALGS_AES_H
#define _RIND_ALGS_AES_H

#include <rind/types.h>

#define AES_BLOCK_SIZE		16
#define AES_MIN_KEY_SIZE	16
#define AES_KEYSIZE_128		16
#define AES_KEYSIZE_192		24
#define AES_KEYSIZE_256		32
#define AES_MAX_KEY_SIZE	32

/* Round keys in the bitsliced layout (already in the fixsliced frames). */
struct rind_aes_ctx {
	u64 sk[15][16] __attribute__((aligned(16)));
	unsigned int nrounds;
	unsigned int key_length;
};

/* 16, 24 or 32-byte key, else -EINVAL (ctx untouched). */
int rind_aes_expandkey(struct rind_aes_ctx *ctx, const u8 *key, unsigned int keylen);
/* ECB over @nblocks blocks; dst may equal src. */
void rind_aes_encrypt_blocks(const struct rind_aes_ctx *ctx, u8 *dst, const u8 *src,
			     size_t nblocks);
void rind_aes_decrypt_blocks(const struct rind_aes_ctx *ctx, u8 *dst, const u8 *src,
			     size_t nblocks);

#endif /* _RIND_ALGS_AES_H */
