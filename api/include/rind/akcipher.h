/* SPDX-License-Identifier: MIT */
/*
 * Asymmetric ciphers ("oaep(rsa,sha256)", ...), as the kernel's
 * crypto_akcipher: set a public or private key, then encrypt or decrypt
 * through requests carrying scatterlists.
 *
 * Keys: crypto_akcipher_set_pub_key() takes SPKI DER, the algorithm's raw
 * form (RSA: PKCS#1 RSAPublicKey DER), PEM or JWK; crypto_akcipher_set_priv_key()
 * PKCS#8 DER, the raw form (RSA: PKCS#1 RSAPrivateKey DER), PEM or JWK
 * (detected).  Malformed keys, or keys outside the algorithm's policy, are
 * -EKEYREJECTED.  crypto_akcipher_generate_key() makes a fresh key pair
 * (RSA: modulus size from crypto_akcipher_set_keygen_bits()).
 *
 * Requests: akcipher_request_set_crypt(req, src, dst, src_len, dst_len);
 * encrypt reads src_len bytes of plaintext and writes the ciphertext
 * (crypto_akcipher_maxsize() bytes) to dst; decrypt the reverse.  On
 * success req->dst_len is set to the number of bytes written.  A too
 * small destination is -EOVERFLOW (req->dst_len then says how much is
 * needed), a too long plaintext -EINVAL, no key -ENOKEY.  Decryption of
 * anything that is not a valid ciphertext under the key is -EBADMSG, one
 * error for every cause.  rind's implementations are synchronous: the
 * result is returned, never -EINPROGRESS.
 *
 * Export: crypto_akcipher_export_pubkey / crypto_akcipher_export_privkey
 * return the length written, -ENOSPC when @outlen is too small, -EINVAL
 * for a format the key type lacks, -ENOKEY when no such key is set.
 */
#ifndef _RIND_AKCIPHER_H
#define _RIND_AKCIPHER_H

#include <rind/base.h>
#include <rind/scatterlist.h>
#include <rind/keyformat.h>

struct crypto_akcipher;

struct akcipher_request {
	struct crypto_async_request base;
	struct scatterlist *src;
	struct scatterlist *dst;
	unsigned int src_len;
	unsigned int dst_len;
	void *__ctx[] __attribute__((aligned(16)));
};

struct crypto_akcipher *crypto_alloc_akcipher(const char *alg_name, u32 type, u32 mask);
void crypto_free_akcipher(struct crypto_akcipher *tfm);
int crypto_has_akcipher(const char *alg_name, u32 type, u32 mask);
struct crypto_tfm *crypto_akcipher_tfm(struct crypto_akcipher *tfm);
const char *crypto_akcipher_driver_name(struct crypto_akcipher *tfm);
const char *crypto_akcipher_alg_name(struct crypto_akcipher *tfm);
unsigned int crypto_akcipher_reqsize(struct crypto_akcipher *tfm);

int crypto_akcipher_set_pub_key(struct crypto_akcipher *tfm, const void *key, unsigned int keylen);
int crypto_akcipher_set_priv_key(struct crypto_akcipher *tfm, const void *key, unsigned int keylen);
int crypto_akcipher_generate_key(struct crypto_akcipher *tfm);
/* Key size for generation (RSA modulus bits); -EOPNOTSUPP where fixed. */
int crypto_akcipher_set_keygen_bits(struct crypto_akcipher *tfm, unsigned int bits);
/* Largest output in bytes (the RSA modulus length); 0 before a key is set. */
unsigned int crypto_akcipher_maxsize(struct crypto_akcipher *tfm);

int crypto_akcipher_encrypt(struct akcipher_request *req);
int crypto_akcipher_decrypt(struct akcipher_request *req);

int crypto_akcipher_export_pubkey(struct crypto_akcipher *tfm, enum rind_key_format fmt,
				  u8 *out, unsigned int outlen);
int crypto_akcipher_export_privkey(struct crypto_akcipher *tfm, enum rind_key_format fmt,
				   u8 *out, unsigned int outlen);

struct akcipher_request *akcipher_request_alloc(struct crypto_akcipher *tfm, gfp_t gfp);
void akcipher_request_free(struct akcipher_request *req);
void akcipher_request_set_tfm(struct akcipher_request *req, struct crypto_akcipher *tfm);

static inline struct crypto_akcipher *crypto_akcipher_reqtfm(struct akcipher_request *req)
{
	return (struct crypto_akcipher *)req->base.tfm;
}

static inline void akcipher_request_set_callback(struct akcipher_request *req, u32 flags,
						 crypto_completion_t cmpl, void *data)
{
	req->base.complete = cmpl;
	req->base.data = data;
	req->base.flags = flags;
}

static inline void akcipher_request_set_crypt(struct akcipher_request *req,
					      struct scatterlist *src, struct scatterlist *dst,
					      unsigned int src_len, unsigned int dst_len)
{
	req->src = src;
	req->dst = dst;
	req->src_len = src_len;
	req->dst_len = dst_len;
}

static inline void *akcipher_request_ctx(struct akcipher_request *req)
{
	return req->__ctx;
}

#endif /* _RIND_AKCIPHER_H */
