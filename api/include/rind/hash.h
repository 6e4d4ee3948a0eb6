/* SPDX-License-Identifier: MIT */
/*
 * Synchronous hashes and MACs ("sha256", "hmac(sha256)"), as the kernel's
 * crypto_shash, plus the lib/crypto style one-shots and the KDF helpers.
 */
#ifndef _RIND_HASH_H
#define _RIND_HASH_H

#include <rind/base.h>

#define HASH_MAX_DIGESTSIZE	64
#define HASH_MAX_DESCSIZE	416
#define HASH_MAX_STATESIZE	256

struct crypto_shash;

struct shash_desc {
	struct crypto_shash *tfm;
	void *__ctx[] __attribute__((aligned(16)));
};

#define SHASH_DESC_ON_STACK(shash, ctx)					\
	char __##shash##_desc[sizeof(struct shash_desc) + HASH_MAX_DESCSIZE]	\
		__attribute__((aligned(16)));					\
	struct shash_desc *shash = (struct shash_desc *)__##shash##_desc

static inline void *shash_desc_ctx(struct shash_desc *desc)
{
	return desc->__ctx;
}

struct crypto_shash *crypto_alloc_shash(const char *alg_name, u32 type, u32 mask);
void crypto_free_shash(struct crypto_shash *tfm);
int crypto_shash_setkey(struct crypto_shash *tfm, const u8 *key, unsigned int keylen);
int crypto_shash_init(struct shash_desc *desc);
int crypto_shash_update(struct shash_desc *desc, const u8 *data, unsigned int len);
int crypto_shash_final(struct shash_desc *desc, u8 *out);
int crypto_shash_finup(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out);
int crypto_shash_digest(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out);
int crypto_shash_tfm_digest(struct crypto_shash *tfm, const u8 *data, unsigned int len, u8 *out);
int crypto_shash_export(struct shash_desc *desc, void *out);
int crypto_shash_import(struct shash_desc *desc, const void *in);
unsigned int crypto_shash_digestsize(struct crypto_shash *tfm);
unsigned int crypto_shash_blocksize(struct crypto_shash *tfm);
unsigned int crypto_shash_descsize(struct crypto_shash *tfm);
unsigned int crypto_shash_statesize(struct crypto_shash *tfm);
const char *crypto_shash_driver_name(struct crypto_shash *tfm);
const char *crypto_shash_alg_name(struct crypto_shash *tfm);
struct crypto_tfm *crypto_shash_tfm(struct crypto_shash *tfm);
int crypto_has_shash(const char *alg_name, u32 type, u32 mask);
/*
 * Multi-buffer finup, as the kernel's crypto_shash_finup_mb(): @num_msgs
 * messages data[0..num_msgs-1], all of the same length @len, each hashed
 * as a continuation of the state in @desc (after init and the updates of
 * a common prefix, possibly empty), digest i written to outs[i].  The
 * same digests as num_msgs crypto_shash_finup() calls on copies of @desc,
 * faster where the implementation interleaves messages in vector lanes
 * (up to 8 at a time; any @num_msgs is accepted).  Like finup, it consumes
 * @desc: its state is wiped, init it again before reuse.  The buffers
 * must not overlap the outputs.  Returns 0 or a negative errno.
 */
int crypto_shash_finup_mb(struct shash_desc *desc, const u8 * const data[], unsigned int len,
			  u8 * const outs[], unsigned int num_msgs);
/* Wipe a descriptor (SHASH_DESC_ON_STACK) after use. */
void shash_desc_zero(struct shash_desc *desc);

/*
 * Finish a "shake128" or "shake256" descriptor (after init and updates)
 * with @outlen bytes of output, any length (0 included), instead of the
 * fixed-size digest of crypto_shash_final() (32 and 64 bytes, which are
 * the first bytes of this output).  Like final, it consumes @desc.
 * -EINVAL, nothing written and @desc unchanged, if the descriptor's tfm
 * is not a SHAKE or @out is NULL with a nonzero @outlen.
 */
int rind_shash_final_xof(struct shash_desc *desc, u8 *out, size_t outlen);

/* One-shots over the best implementation (the kernel's lib/crypto). */
void rind_sha1(const u8 *data, size_t len, u8 out[20]);
void rind_sha224(const u8 *data, size_t len, u8 out[28]);
void rind_sha256(const u8 *data, size_t len, u8 out[32]);
void rind_sha384(const u8 *data, size_t len, u8 out[48]);
void rind_sha512(const u8 *data, size_t len, u8 out[64]);
int rind_hmac(const char *hash, const u8 *key, size_t keylen, const u8 *data, size_t len, u8 *out);

/*
 * HKDF (RFC 5869) and PBKDF2 (RFC 8018) over an hmac(...) tfm, as the
 * kernel's crypto/hkdf.h.  rind_hkdf_extract keys @hmac_tfm with the salt
 * (a zero-filled hash-length salt if @saltlen is 0) and writes the PRK
 * (digestsize bytes) to @prk; rind_hkdf_expand expects the caller to have
 * keyed @hmac_tfm with the PRK and refuses @okmlen > 255 * digestsize with
 * -EINVAL.  rind_pbkdf2 keys @hmac_tfm with the password.
 */
int rind_hkdf_extract(struct crypto_shash *hmac_tfm, const u8 *ikm, unsigned int ikmlen,
		      const u8 *salt, unsigned int saltlen, u8 *prk);
int rind_hkdf_expand(struct crypto_shash *hmac_tfm, const u8 *info, unsigned int infolen,
		     u8 *okm, unsigned int okmlen);
int rind_pbkdf2(struct crypto_shash *hmac_tfm, const u8 *pass, unsigned int passlen,
		const u8 *salt, unsigned int saltlen, unsigned int iterations,
		u8 *out, unsigned int outlen);

#endif /* _RIND_HASH_H */
