/* SPDX-License-Identifier: MIT */
/*
 * Authenticated encryption ("gcm(aes)", "rfc7539(chacha20,poly1305)"), as the
 * kernel's crypto_aead.  The source holds the associated data then the
 * plaintext (encrypt) or ciphertext||tag (decrypt); the destination gets the
 * associated data then the output; cryptlen excludes the associated data and,
 * for decrypt, includes the tag.  A decrypt that fails authentication
 * returns -EBADMSG and leaves no plaintext in the destination.
 */
#ifndef _RIND_AEAD_H
#define _RIND_AEAD_H

#include <rind/base.h>
#include <rind/scatterlist.h>

struct crypto_aead;

struct aead_request {
	unsigned int assoclen;
	unsigned int cryptlen;
	u8 *iv;
	struct scatterlist *src;
	struct scatterlist *dst;
	int err;		/* result of each request of a batch */
	struct crypto_async_request base;
	void *__ctx[] __attribute__((aligned(16)));
};

struct crypto_aead *crypto_alloc_aead(const char *alg_name, u32 type, u32 mask);
void crypto_free_aead(struct crypto_aead *tfm);
int crypto_aead_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int keylen);
int crypto_aead_setauthsize(struct crypto_aead *tfm, unsigned int authsize);
int crypto_aead_encrypt(struct aead_request *req);
int crypto_aead_decrypt(struct aead_request *req);
/*
 * Run @n independent requests (each with its own tfm, key and buffers);
 * each request's result is left in reqs[i]->err.  Returns 0 when every
 * request succeeded, else the first error.
 */
int crypto_aead_encrypt_batch(struct aead_request **reqs, unsigned int n);
int crypto_aead_decrypt_batch(struct aead_request **reqs, unsigned int n);
unsigned int crypto_aead_ivsize(struct crypto_aead *tfm);
unsigned int crypto_aead_authsize(struct crypto_aead *tfm);
unsigned int crypto_aead_maxauthsize(struct crypto_aead *tfm);
unsigned int crypto_aead_blocksize(struct crypto_aead *tfm);
unsigned int crypto_aead_reqsize(struct crypto_aead *tfm);
const char *crypto_aead_driver_name(struct crypto_aead *tfm);
const char *crypto_aead_alg_name(struct crypto_aead *tfm);
struct crypto_tfm *crypto_aead_tfm(struct crypto_aead *tfm);
int crypto_has_aead(const char *alg_name, u32 type, u32 mask);

struct aead_request *aead_request_alloc(struct crypto_aead *tfm, gfp_t gfp);
void aead_request_free(struct aead_request *req);
void aead_request_set_tfm(struct aead_request *req, struct crypto_aead *tfm);

static inline struct crypto_aead *crypto_aead_reqtfm(struct aead_request *req)
{
	return (struct crypto_aead *)req->base.tfm;
}

static inline void aead_request_set_callback(struct aead_request *req, u32 flags,
					     crypto_completion_t compl, void *data)
{
	req->base.complete = compl;
	req->base.data = data;
	req->base.flags = flags;
}

static inline void aead_request_set_crypt(struct aead_request *req,
					  struct scatterlist *src, struct scatterlist *dst,
					  unsigned int cryptlen, u8 *iv)
{
	req->src = src;
	req->dst = dst;
	req->cryptlen = cryptlen;
	req->iv = iv;
}

static inline void aead_request_set_ad(struct aead_request *req, unsigned int assoclen)
{
	req->assoclen = assoclen;
}

static inline void *aead_request_ctx(struct aead_request *req)
{
	return req->__ctx;
}

/*
 * One-shots in the style of the kernel's lib/crypto, over the registry's
 * best implementation.  Encrypt writes len bytes of ciphertext then the
 * 16-byte tag to dst; decrypt takes ciphertext||tag (len includes the tag)
 * and returns 0 or -EBADMSG (dst then holds zeros).
 */
struct rind_aesgcm_ctx;
struct rind_aesgcm_ctx *rind_aesgcm_alloc(void);
void rind_aesgcm_free(struct rind_aesgcm_ctx *ctx);
int rind_aesgcm_expandkey(struct rind_aesgcm_ctx *ctx, const u8 *key, unsigned int keylen,
			  unsigned int authsize);
int rind_aesgcm_encrypt(struct rind_aesgcm_ctx *ctx, u8 *dst, const u8 *src, size_t len,
			const u8 *assoc, size_t assoclen, const u8 iv[12]);
int rind_aesgcm_decrypt(struct rind_aesgcm_ctx *ctx, u8 *dst, const u8 *src, size_t len,
			const u8 *assoc, size_t assoclen, const u8 iv[12]);

int rind_chacha20poly1305_encrypt(u8 *dst, const u8 *src, size_t src_len,
				  const u8 *ad, size_t ad_len, const u8 nonce[12], const u8 key[32]);
int rind_chacha20poly1305_decrypt(u8 *dst, const u8 *src, size_t src_len,
				  const u8 *ad, size_t ad_len, const u8 nonce[12], const u8 key[32]);
int rind_xchacha20poly1305_encrypt(u8 *dst, const u8 *src, size_t src_len,
				   const u8 *ad, size_t ad_len, const u8 nonce[24], const u8 key[32]);
int rind_xchacha20poly1305_decrypt(u8 *dst, const u8 *src, size_t src_len,
				   const u8 *ad, size_t ad_len, const u8 nonce[24], const u8 key[32]);

/*
 * QUIC header protection (RFC 9001 section 5.4): the 5-byte mask for a
 * 16-byte ciphertext sample.  @alg is "aes" (16- or 32-byte key) or
 * "chacha20" (32-byte key).
 */
int rind_quic_hp_mask(const char *alg, const u8 *key, unsigned int keylen,
		      const u8 sample[16], u8 mask[5]);

#endif /* _RIND_AEAD_H */
