/* SPDX-License-Identifier: MIT */
/*
 * Implementing a kem (key encapsulation) algorithm.  The front end
 * (api/kem.c) checks pointers and buffer sizes, tracks which keys are set
 * and draws the randomness (key generation seeds, encapsulation m), so an
 * alg's entry points are deterministic functions of their inputs.
 */
#ifndef _RIND_INTERNAL_KEM_H
#define _RIND_INTERNAL_KEM_H

#include <rind/kem.h>
#include <rind/internal/alg.h>
#include <rind/internal/testmgr.h>

struct kem_alg {
	/*
	 * Set the private key from a seed (@keylen == seed_size) or the
	 * expanded form (@keylen == privkey_size); the front end passes only
	 * those two lengths unless @key_encodings.  Derives and sets the
	 * public key too.
	 */
	int (*set_priv_key)(struct crypto_kem *tfm, const void *key, unsigned int keylen);
	/* @keylen == pubkey_size (any length with @key_encodings). */
	int (*set_pub_key)(struct crypto_kem *tfm, const void *key, unsigned int keylen);
	/* @m: m_size bytes of randomness; @ct, @ss have room for their sizes. */
	int (*encapsulate)(struct crypto_kem *tfm, const u8 *m, u8 *ct, u8 *ss);
	/* @ct is ciphertext_size bytes. */
	int (*decapsulate)(struct crypto_kem *tfm, const u8 *ct, u8 *ss);
	/* Optional (-EINVAL for formats other than RIND_KEY_RAW when absent). */
	int (*export_pubkey)(struct crypto_kem *tfm, enum rind_key_format fmt,
			     u8 *out, unsigned int outlen);
	int (*export_privkey)(struct crypto_kem *tfm, enum rind_key_format fmt,
			      u8 *out, unsigned int outlen);
	/* Optional: the seed the private key came from, or -ENOKEY. */
	int (*export_seed)(struct crypto_kem *tfm, u8 *out);
	int (*init)(struct crypto_kem *tfm);
	void (*exit)(struct crypto_kem *tfm);	/* the ctx is wiped afterwards anyway */

	unsigned int pubkey_size;
	unsigned int privkey_size;
	unsigned int seed_size;
	unsigned int ciphertext_size;
	unsigned int shared_secret_size;
	unsigned int m_size;
	/*
	 * The set_*_key callbacks also take encoded keys (SPKI/PKCS#8 DER,
	 * PEM) of any length and check the length themselves.
	 */
	bool key_encodings;

	struct crypto_alg base;
};

#define CRYPTO_KEM_HAS_PUB	0x00010000	/* crt_flags */
#define CRYPTO_KEM_HAS_PRIV	0x00020000

struct crypto_kem {
	struct crypto_tfm base;
};

/* __crypto_kem_alg(), crypto_kem_alg(), crypto_kem_ctx() */
CRYPTO_DEFINE_ALG_CASTS(kem, crypto_kem_ctx)

/* crypto_kem_type, crypto_register_kem, crypto_unregister_kem, crypto_register_kems */
CRYPTO_DECLARE_ALG_API(kem);
CRYPTO_DECLARE_ALGS_API(kem, kems);

#endif /* _RIND_INTERNAL_KEM_H */
