/* SPDX-License-Identifier: MIT */
/*
 * Implementing an akcipher (asymmetric cipher), as the kernel's
 * <crypto/internal/akcipher.h>.  The front end (api/akcipher.c) checks
 * the request and the key state and calls the alg; the alg parses key
 * formats (internal/keyfmt.h), maps the scatterlists and enforces its own
 * key policy.
 */
#ifndef _RIND_INTERNAL_AKCIPHER_H
#define _RIND_INTERNAL_AKCIPHER_H

#include <rind/akcipher.h>
#include <rind/internal/alg.h>
#include <rind/internal/testmgr.h>

struct akcipher_alg {
	/* req->src/src_len in, req->dst/dst_len out; set req->dst_len. */
	int (*encrypt)(struct akcipher_request *req);
	int (*decrypt)(struct akcipher_request *req);
	int (*set_pub_key)(struct crypto_akcipher *tfm, const void *key, unsigned int keylen);
	int (*set_priv_key)(struct crypto_akcipher *tfm, const void *key, unsigned int keylen);
	unsigned int (*max_size)(struct crypto_akcipher *tfm);
	/* Optional (-EOPNOTSUPP when absent). */
	int (*generate_key)(struct crypto_akcipher *tfm);
	int (*set_keygen_bits)(struct crypto_akcipher *tfm, unsigned int bits);
	int (*export_pubkey)(struct crypto_akcipher *tfm, enum rind_key_format fmt,
			     u8 *out, unsigned int outlen);
	int (*export_privkey)(struct crypto_akcipher *tfm, enum rind_key_format fmt,
			      u8 *out, unsigned int outlen);
	int (*init)(struct crypto_akcipher *tfm);
	void (*exit)(struct crypto_akcipher *tfm);	/* the ctx is wiped afterwards anyway */
	unsigned int reqsize;

	struct crypto_alg base;
};

struct crypto_akcipher {
	struct crypto_tfm base;
};

/* __crypto_akcipher_alg(), crypto_akcipher_alg(), akcipher_tfm_ctx() */
CRYPTO_DEFINE_ALG_CASTS(akcipher, akcipher_tfm_ctx)

static inline void akcipher_set_reqsize(struct crypto_akcipher *tfm, unsigned int reqsize)
{
	tfm->base.crt_reqsize = reqsize;
}

/*
 * crypto_akcipher_type, crypto_register_akcipher, crypto_unregister_akcipher,
 * crypto_register_akciphers, crypto_grab_akcipher, crypto_spawn_akcipher
 */
CRYPTO_DECLARE_ALG_API(akcipher);
CRYPTO_DECLARE_ALGS_API(akcipher, akciphers);
CRYPTO_DECLARE_SPAWN_API(akcipher);

/*
 * Known-answer vectors for the akcipher front end's self-test runner
 * (alg_test_akcipher, the type's testmgr hook): register an alg_test_desc
 * with .test = NULL and .suite.priv pointing at a struct
 * akcipher_test_suite.  For each vector the key is set (private unless
 * @public_key_vec); @m is encrypted, and the ciphertext must be @c_size
 * bytes long and equal @c unless @randomized; with a private key @c must
 * then decrypt to @m (or fail with -EBADMSG when @must_fail).
 */
struct akcipher_testvec {
	const char *key;
	const char *m;
	const char *c;
	unsigned int key_len;
	unsigned int m_size;
	unsigned int c_size;
	bool public_key_vec;
	bool randomized;
	bool must_fail;
};

struct akcipher_test_suite {
	const struct akcipher_testvec *vecs;
	unsigned int count;
};

int alg_test_akcipher(const struct alg_test_desc *desc, struct crypto_alg *alg);

#endif /* _RIND_INTERNAL_AKCIPHER_H */
