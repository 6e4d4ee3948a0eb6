/* SPDX-License-Identifier: MIT */
#ifndef _RIND_INTERNAL_HASH_H
#define _RIND_INTERNAL_HASH_H

#include <errno.h>
#include <string.h>
#include <rind/hash.h>
#include <rind/internal/alg.h>

struct shash_alg {
	int (*init)(struct shash_desc *desc);
	int (*update)(struct shash_desc *desc, const u8 *data, unsigned int len);
	int (*final)(struct shash_desc *desc, u8 *out);
	/* Optional; the front end composes them from the above when absent. */
	int (*finup)(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out);
	int (*digest)(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out);
	int (*export)(struct shash_desc *desc, void *out);
	int (*import)(struct shash_desc *desc, const void *in);
	/*
	 * Optional multi-buffer finup (the kernel's finup_mb): @num_msgs
	 * messages of @len bytes, each continuing the state in @desc (a
	 * common prefix already hashed), digest i to outs[i] -- exactly the
	 * digests of num_msgs finup calls on copies of @desc.  The front end
	 * calls it with 2 <= num_msgs <= mb_max_msgs; it only reads @desc
	 * (the front end may call it again for the next messages, and wipes
	 * the state at the end).  It hashes secrets (Ed25519 nonce prefixes):
	 * no branch or address may depend on the state or the data, only on
	 * @len, @num_msgs and the prefix length.
	 */
	int (*finup_mb)(struct shash_desc *desc, const u8 * const data[], unsigned int len,
			u8 * const outs[], unsigned int num_msgs);
	/* Keyed hashes (hmac) only. */
	int (*setkey)(struct crypto_shash *tfm, const u8 *key, unsigned int keylen);
	int (*init_tfm)(struct crypto_shash *tfm);
	void (*exit_tfm)(struct crypto_shash *tfm);	/* the ctx is wiped afterwards anyway */

	unsigned int descsize;		/* <= HASH_MAX_DESCSIZE */
	unsigned int digestsize;	/* <= HASH_MAX_DIGESTSIZE */
	unsigned int statesize;		/* export/import size; 0 = descsize */
	/*
	 * Messages one finup_mb call hashes at once, 2..HASH_MAX_MB_MSGS
	 * when finup_mb is set; registration sets it to 1 when it is not.
	 */
	unsigned int mb_max_msgs;

	struct crypto_alg base;
};

/* The most messages any finup_mb takes in one call (8 x 64-bit lanes). */
#define HASH_MAX_MB_MSGS	8

struct crypto_shash {
	unsigned int descsize;
	struct crypto_tfm base;
};

/* __crypto_shash_alg(), crypto_shash_alg(), crypto_shash_ctx() */
CRYPTO_DEFINE_ALG_CASTS(shash, crypto_shash_ctx)

/*
 * How many messages crypto_shash_finup_mb() hashes together on @tfm: 1
 * when its implementation has no finup_mb (the front end then hashes one
 * message after another), so a caller can skip gathering messages for it.
 */
static inline unsigned int crypto_shash_mb_max_msgs(struct crypto_shash *tfm)
{
	return crypto_shash_alg(tfm)->mb_max_msgs;
}

/*
 * crypto_shash_type, crypto_register_shash, crypto_unregister_shash,
 * crypto_register_shashes, crypto_grab_shash, crypto_spawn_shash
 */
CRYPTO_DECLARE_ALG_API(shash);
CRYPTO_DECLARE_ALGS_API(shash, shashes);
CRYPTO_DECLARE_SPAWN_API(shash);

/*
 * An unkeyed hash's entry points without the front end, for code that
 * drives a hash inside its own keyed construction (the hmac template,
 * RFC 6979's HMAC-DRBG): no key check, and no wipe after each finish --
 * the caller owns the descriptor and wipes it once.  The optional entry
 * points are composed as the front end would.
 */
static inline int shash_raw_import(const struct shash_alg *h, struct shash_desc *d, const void *in)
{
	if (h->import)
		return h->import(d, in);
	memcpy(shash_desc_ctx(d), in, h->descsize);
	return 0;
}

static inline int shash_raw_export(const struct shash_alg *h, struct shash_desc *d, void *out)
{
	if (h->export)
		return h->export(d, out);
	memcpy(out, shash_desc_ctx(d), h->descsize);
	return 0;
}

static inline int shash_raw_finup(const struct shash_alg *h, struct shash_desc *d,
				  const u8 *data, unsigned int len, u8 *out)
{
	int err;

	if (h->finup)
		return h->finup(d, data, len, out);
	err = h->update(d, data, len);
	return err ? err : h->final(d, out);
}

static inline int shash_raw_digest(const struct shash_alg *h, struct shash_desc *d,
				   const u8 *data, unsigned int len, u8 *out)
{
	int err;

	if (h->digest)
		return h->digest(d, data, len, out);
	err = h->init(d);
	return err ? err : shash_raw_finup(h, d, data, len, out);
}

/* The exported state's size: what shash_raw_export() writes. */
static inline unsigned int shash_raw_statesize(const struct shash_alg *h)
{
	return h->export && h->statesize ? h->statesize : h->descsize;
}

/* Largest block size HMAC accepts for its inner hash (SHA-3's is at most 144). */
#define HMAC_MAX_BLOCKSIZE	256

#define HMAC_IPAD64	0x3636363636363636ULL
#define HMAC_OPAD64	0x5c5c5c5c5c5c5c5cULL

/* Hash @pad (one block) from a fresh state and export the state to @state. */
static inline int hmac_pad_state(const struct shash_alg *h, struct shash_desc *d,
				 const u8 *pad, unsigned int bs, u8 *state)
{
	int err = h->init(d);

	if (!err)
		err = h->update(d, pad, bs);
	return err ? err : shash_raw_export(h, d, state);
}

/*
 * RFC 2104's two key states: the hash (descriptor @d, block size @bs) run
 * over K' ^ ipad and over K' ^ opad, exported to @ist and @ost, where K' is
 * @key zero-padded to @bs (hashed first when longer).  Only @keylen decides
 * anything; the padded key is built and flipped a word at a time and wiped.
 * @d holds the last state (the caller wipes it).  The hmac template, the
 * ECDSA nonce's HMAC-DRBG and the provider's HMAC use it (inline: the
 * provider links only librind's public names).
 */
static inline int hmac_pad_states(const struct shash_alg *h, struct shash_desc *d, unsigned int bs,
				  const u8 *key, unsigned int keylen, u8 *ist, u8 *ost)
{
	unsigned int nw = (bs + 7) / 8;
	u64 pad[HMAC_MAX_BLOCKSIZE / 8];
	int err = 0;

	if (bs > HMAC_MAX_BLOCKSIZE || h->digestsize > bs)
		return -EINVAL;
	if (keylen > bs) {
		err = shash_raw_digest(h, d, key, keylen, (u8 *)pad);
		keylen = h->digestsize;
	} else if (keylen) {
		memcpy(pad, key, keylen);
	}
	if (!err) {
		/* Whole words: bytes past bs (up to 7) are never hashed. */
		memset((u8 *)pad + keylen, 0, nw * 8 - keylen);
		for (unsigned int i = 0; i < nw; i++)
			pad[i] ^= HMAC_IPAD64;
		err = hmac_pad_state(h, d, (const u8 *)pad, bs, ist);
	}
	if (!err) {
		for (unsigned int i = 0; i < nw; i++)
			pad[i] ^= HMAC_IPAD64 ^ HMAC_OPAD64;
		err = hmac_pad_state(h, d, (const u8 *)pad, bs, ost);
	}
	rind_memzero_explicit(pad, nw * 8);
	return err;
}

#endif
