/* SPDX-License-Identifier: MIT */
/*
 * Symmetric ciphers over scatterlists ("cbc(aes)", "ctr(aes)", "chacha20"),
 * as the kernel's crypto_skcipher.
 */
#ifndef _RIND_SKCIPHER_H
#define _RIND_SKCIPHER_H

#include <rind/base.h>
#include <rind/scatterlist.h>

struct crypto_skcipher;

struct skcipher_request {
	unsigned int cryptlen;
	u8 *iv;
	struct scatterlist *src;
	struct scatterlist *dst;
	struct crypto_async_request base;
	void *__ctx[] __attribute__((aligned(16)));
};

struct crypto_skcipher *crypto_alloc_skcipher(const char *alg_name, u32 type, u32 mask);
void crypto_free_skcipher(struct crypto_skcipher *tfm);
int crypto_skcipher_setkey(struct crypto_skcipher *tfm, const u8 *key, unsigned int keylen);
int crypto_skcipher_encrypt(struct skcipher_request *req);
int crypto_skcipher_decrypt(struct skcipher_request *req);
unsigned int crypto_skcipher_ivsize(struct crypto_skcipher *tfm);
unsigned int crypto_skcipher_blocksize(struct crypto_skcipher *tfm);
unsigned int crypto_skcipher_chunksize(struct crypto_skcipher *tfm);
unsigned int crypto_skcipher_min_keysize(struct crypto_skcipher *tfm);
unsigned int crypto_skcipher_max_keysize(struct crypto_skcipher *tfm);
unsigned int crypto_skcipher_reqsize(struct crypto_skcipher *tfm);
const char *crypto_skcipher_driver_name(struct crypto_skcipher *tfm);
const char *crypto_skcipher_alg_name(struct crypto_skcipher *tfm);
struct crypto_tfm *crypto_skcipher_tfm(struct crypto_skcipher *tfm);
int crypto_has_skcipher(const char *alg_name, u32 type, u32 mask);

struct skcipher_request *skcipher_request_alloc(struct crypto_skcipher *tfm, gfp_t gfp);
void skcipher_request_free(struct skcipher_request *req);
void skcipher_request_set_tfm(struct skcipher_request *req, struct crypto_skcipher *tfm);

static inline struct crypto_skcipher *crypto_skcipher_reqtfm(struct skcipher_request *req)
{
	return (struct crypto_skcipher *)req->base.tfm;
}

static inline void skcipher_request_set_callback(struct skcipher_request *req, u32 flags,
						 crypto_completion_t compl, void *data)
{
	req->base.complete = compl;
	req->base.data = data;
	req->base.flags = flags;
}

static inline void skcipher_request_set_crypt(struct skcipher_request *req,
					      struct scatterlist *src, struct scatterlist *dst,
					      unsigned int cryptlen, void *iv)
{
	req->src = src;
	req->dst = dst;
	req->cryptlen = cryptlen;
	req->iv = (u8 *)iv;
}

static inline void *skcipher_request_ctx(struct skcipher_request *req)
{
	return req->__ctx;
}

/*
 * PKCS#7 padding for block modes without padding of their own (cbc(aes)).
 * rind_pkcs7_pad writes the padding after @len bytes of @buf (capacity
 * @bufsize) and returns the padded length, or -ENOSPC.  rind_pkcs7_unpad
 * checks the padding in constant time and returns the unpadded length, or
 * -EBADMSG.
 */
int rind_pkcs7_pad(u8 *buf, size_t len, size_t bufsize, unsigned int blocksize);
int rind_pkcs7_unpad(const u8 *buf, size_t len, unsigned int blocksize);

#endif /* _RIND_SKCIPHER_H */
