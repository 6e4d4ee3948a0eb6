/* SPDX-License-Identifier: MIT */
/*
 * Key agreement ("curve25519", "ecdh-nist-p256", ...), as the kernel's
 * crypto_kpp: set a private key with crypto_kpp_set_secret(), then use
 * requests to produce the public key and the shared secret.
 *
 * crypto_kpp_set_secret() takes the algorithm's raw private key (32 bytes
 * for curve25519, a big-endian scalar for ecdh-nist-p*) or an encoded one
 * (PKCS#8 DER, SEC1 DER, PEM, JWK: detected); NULL/0 generates a fresh
 * secret from rind_get_random_bytes().  Malformed keys are -EKEYREJECTED.
 *
 * crypto_kpp_generate_public_key(): the public key is written to req->dst
 * (req->dst_len bytes available, at least crypto_kpp_maxsize()); req->src
 * is unused.  crypto_kpp_compute_shared_secret(): the peer's public key is
 * read from req->src (req->src_len bytes), the shared secret written to
 * req->dst.  On success both set req->dst_len to the number of bytes
 * written.  curve25519 refuses an all-zero shared secret (a small-order
 * peer) with -EINVAL; a too small destination is -EINVAL (as the kernel)
 * and nothing is written then.
 *
 * Export: crypto_kpp_export_pubkey / crypto_kpp_export_privkey write the
 * key in one of enum rind_key_format and return the length, or -ENOSPC
 * when @outlen is too small, -EINVAL for a format the algorithm lacks,
 * -ENOKEY when no secret is set.
 */
#ifndef _RIND_KPP_H
#define _RIND_KPP_H

#include <rind/base.h>
#include <rind/scatterlist.h>
#include <rind/keyformat.h>

struct crypto_kpp;

struct kpp_request {
	struct crypto_async_request base;
	struct scatterlist *src;
	struct scatterlist *dst;
	unsigned int src_len;
	unsigned int dst_len;
	void *__ctx[] __attribute__((aligned(16)));
};

struct crypto_kpp *crypto_alloc_kpp(const char *alg_name, u32 type, u32 mask);
void crypto_free_kpp(struct crypto_kpp *tfm);
int crypto_has_kpp(const char *alg_name, u32 type, u32 mask);
struct crypto_tfm *crypto_kpp_tfm(struct crypto_kpp *tfm);
const char *crypto_kpp_driver_name(struct crypto_kpp *tfm);
const char *crypto_kpp_alg_name(struct crypto_kpp *tfm);
unsigned int crypto_kpp_reqsize(struct crypto_kpp *tfm);

int crypto_kpp_set_secret(struct crypto_kpp *tfm, const void *buffer, unsigned int len);
int crypto_kpp_generate_public_key(struct kpp_request *req);
int crypto_kpp_compute_shared_secret(struct kpp_request *req);
/* Largest output of the two operations (public key or shared secret). */
unsigned int crypto_kpp_maxsize(struct crypto_kpp *tfm);

int crypto_kpp_export_pubkey(struct crypto_kpp *tfm, enum rind_key_format fmt,
			     u8 *out, unsigned int outlen);
int crypto_kpp_export_privkey(struct crypto_kpp *tfm, enum rind_key_format fmt,
			      u8 *out, unsigned int outlen);

struct kpp_request *kpp_request_alloc(struct crypto_kpp *tfm, gfp_t gfp);
void kpp_request_free(struct kpp_request *req);
void kpp_request_set_tfm(struct kpp_request *req, struct crypto_kpp *tfm);

static inline struct crypto_kpp *crypto_kpp_reqtfm(struct kpp_request *req)
{
	return (struct crypto_kpp *)req->base.tfm;
}

static inline void kpp_request_set_callback(struct kpp_request *req, u32 flags,
					    crypto_completion_t cmpl, void *data)
{
	req->base.complete = cmpl;
	req->base.data = data;
	req->base.flags = flags;
}

static inline void kpp_request_set_input(struct kpp_request *req,
					 struct scatterlist *input, unsigned int input_len)
{
	req->src = input;
	req->src_len = input_len;
}

static inline void kpp_request_set_output(struct kpp_request *req,
					  struct scatterlist *output, unsigned int output_len)
{
	req->dst = output;
	req->dst_len = output_len;
}

static inline void *kpp_request_ctx(struct kpp_request *req)
{
	return req->__ctx;
}

/*
 * X25519 (RFC 7748 section 5) over the best registered implementation, as
 * the kernel's lib/crypto curve25519(): @out = X25519(@secret, @basepoint).
 * Returns 0, or -EINVAL when the result is all zero (small-order point);
 * @out is written either way.
 */
#define CURVE25519_KEY_SIZE 32
int rind_curve25519(u8 out[CURVE25519_KEY_SIZE], const u8 secret[CURVE25519_KEY_SIZE],
		    const u8 basepoint[CURVE25519_KEY_SIZE]);
/* The public key of @secret: X25519(@secret, 9). */
int rind_curve25519_generate_public(u8 pub[CURVE25519_KEY_SIZE],
				    const u8 secret[CURVE25519_KEY_SIZE]);
/* A fresh clamped secret from rind_get_random_bytes(): 0 or -errno. */
int rind_curve25519_generate_secret(u8 secret[CURVE25519_KEY_SIZE]);

#endif /* _RIND_KPP_H */
