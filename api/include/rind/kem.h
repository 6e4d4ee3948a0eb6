/* SPDX-License-Identifier: MIT */
/*
 * Key encapsulation ("mlkem512", "mlkem768", "mlkem1024",
 * "x25519mlkem768"), a kernel-style tfm type with no kernel counterpart.
 *
 * Keys: crypto_kem_generate_key() makes a fresh key pair from
 * rind_get_random_bytes().  crypto_kem_set_privkey() takes either the
 * algorithm's seed (crypto_kem_seedsize() bytes: FIPS 203 d || z for
 * ML-KEM, from which the pair is derived deterministically, as
 * ML-KEM.KeyGen_internal) or its expanded decapsulation key
 * (crypto_kem_privkeysize() bytes); the length tells which.  An expanded
 * key whose embedded hash H(ek) does not match, or whose ek fails the
 * modulus check, is -EKEYREJECTED; another length -EINVAL.
 * crypto_kem_set_pubkey() takes the encapsulation key
 * (crypto_kem_pubkeysize() bytes; other lengths -EINVAL, an ML-KEM key
 * failing the FIPS 203 7.2 modulus check -EKEYREJECTED).  Setting a
 * private key makes the public key available too; setting a public key
 * drops a private key.
 *
 * crypto_kem_encapsulate(tfm, ct, ctlen, ss, sslen) writes a fresh
 * ciphertext (crypto_kem_ciphertextsize() bytes) and shared secret
 * (crypto_kem_sharedsecretsize() bytes) and returns 0; buffers smaller
 * than those are -EINVAL, no key -ENOKEY.  crypto_kem_encapsulate_m() is
 * the deterministic form for known-answer tests: @m is the encapsulation
 * randomness (crypto_kem_encapsizeof_m() bytes: ML-KEM's m; for
 * x25519mlkem768 m || the ephemeral X25519 secret).
 *
 * crypto_kem_decapsulate(tfm, ct, ctlen, ss, sslen) needs the private key
 * and @ctlen exactly crypto_kem_ciphertextsize() (else -EINVAL).  A
 * ciphertext that does not re-encrypt gives the implicit-rejection secret
 * (success, 0), as FIPS 203 requires; X25519 failures of the hybrid
 * (all-zero secret) are -EINVAL.
 *
 * Keys: crypto_kem_set_privkey takes the seed (crypto_kem_seedsize()) or
 * the expanded decapsulation key (crypto_kem_privkeysize()), and for
 * mlkem512/768/1024 also PKCS#8 DER or PEM of the IETF LAMPS profile
 * (privateKey the seed, the expanded key, or both -- which must agree);
 * crypto_kem_set_pubkey the raw encapsulation key, or SPKI DER or PEM for
 * ML-KEM.  A length that is neither is -EINVAL, a malformed or
 * inconsistent encoding -EKEYREJECTED; the previous key stays.
 *
 * Export: crypto_kem_export_pubkey / crypto_kem_export_privkey with
 * RIND_KEY_RAW (the encapsulation key; the expanded decapsulation key),
 * and for ML-KEM RIND_KEY_SPKI_DER / RIND_KEY_PKCS8_DER (the seed form
 * when the key came from a seed) / RIND_KEY_PEM, return the length
 * written, -ENOSPC when @outlen is too small, -EINVAL for a format the
 * algorithm lacks, -ENOKEY when no such key is set.
 * crypto_kem_export_seed writes the seed when the private key was made
 * or set from one (else -ENOKEY).
 */
#ifndef _RIND_KEM_H
#define _RIND_KEM_H

#include <rind/base.h>
#include <rind/keyformat.h>

struct crypto_kem;

struct crypto_kem *crypto_alloc_kem(const char *alg_name, u32 type, u32 mask);
void crypto_free_kem(struct crypto_kem *tfm);
int crypto_has_kem(const char *alg_name, u32 type, u32 mask);
struct crypto_tfm *crypto_kem_tfm(struct crypto_kem *tfm);
const char *crypto_kem_driver_name(struct crypto_kem *tfm);
const char *crypto_kem_alg_name(struct crypto_kem *tfm);

int crypto_kem_generate_key(struct crypto_kem *tfm);
int crypto_kem_set_privkey(struct crypto_kem *tfm, const void *key, unsigned int keylen);
int crypto_kem_set_pubkey(struct crypto_kem *tfm, const void *key, unsigned int keylen);

int crypto_kem_encapsulate(struct crypto_kem *tfm, u8 *ct, unsigned int ctlen,
			   u8 *ss, unsigned int sslen);
int crypto_kem_encapsulate_m(struct crypto_kem *tfm, const u8 *m, unsigned int mlen,
			     u8 *ct, unsigned int ctlen, u8 *ss, unsigned int sslen);
int crypto_kem_decapsulate(struct crypto_kem *tfm, const u8 *ct, unsigned int ctlen,
			   u8 *ss, unsigned int sslen);

/* Sizes in bytes. */
unsigned int crypto_kem_pubkeysize(struct crypto_kem *tfm);
unsigned int crypto_kem_privkeysize(struct crypto_kem *tfm);
unsigned int crypto_kem_seedsize(struct crypto_kem *tfm);
unsigned int crypto_kem_ciphertextsize(struct crypto_kem *tfm);
unsigned int crypto_kem_sharedsecretsize(struct crypto_kem *tfm);
unsigned int crypto_kem_encapsizeof_m(struct crypto_kem *tfm);

int crypto_kem_export_pubkey(struct crypto_kem *tfm, enum rind_key_format fmt,
			     u8 *out, unsigned int outlen);
int crypto_kem_export_privkey(struct crypto_kem *tfm, enum rind_key_format fmt,
			      u8 *out, unsigned int outlen);
int crypto_kem_export_seed(struct crypto_kem *tfm, u8 *out, unsigned int outlen);

#define MLKEM_SEED_SIZE		64
#define MLKEM_SHARED_SECRET_SIZE 32
#define MLKEM768_PUBKEY_SIZE	1184
#define MLKEM768_CIPHERTEXT_SIZE 1088

#endif /* _RIND_KEM_H */
