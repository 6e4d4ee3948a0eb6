/* SPDX-License-Identifier: MIT */
/*
 * Signatures ("ed25519", "p1363(ecdsa-nist-p256,sha256)", "pss(rsa,sha256)",
 * ...), as the kernel's crypto_sig.  The message is hashed inside, with the
 * hash the algorithm names: no entry point signs a caller's digest.
 *
 * Keys: crypto_sig_set_privkey() takes the algorithm's raw private key
 * (32-byte Ed25519 seed, big-endian scalar, ...) or PKCS#8 DER, PEM or JWK
 * (detected); crypto_sig_set_pubkey() the raw public key or SPKI DER, PEM
 * or JWK.  Malformed keys are -EKEYREJECTED.  Setting a private key makes
 * the matching public key available too.  crypto_sig_generate_key()
 * makes a fresh key pair (RSA: modulus size from crypto_sig_set_keygen_bits).
 *
 * crypto_sig_sign(tfm, msg, msglen, sig, siglen) returns the signature
 * length (at most crypto_sig_maxsize()); a too small @siglen is -EINVAL
 * and no private key -ENOKEY.  crypto_sig_verify(tfm, sig, siglen, msg,
 * msglen) returns 0 or -EBADMSG.
 *
 * Export: crypto_sig_export_pubkey / crypto_sig_export_privkey return the
 * length written, or -ENOSPC when @outlen is too small, -EINVAL for a
 * format the key type lacks (a private key has no SPKI form), -ENOKEY
 * when no such key is set.
 */
#ifndef _RIND_SIG_H
#define _RIND_SIG_H

#include <rind/base.h>
#include <rind/keyformat.h>

struct crypto_sig;

struct crypto_sig *crypto_alloc_sig(const char *alg_name, u32 type, u32 mask);
void crypto_free_sig(struct crypto_sig *tfm);
int crypto_has_sig(const char *alg_name, u32 type, u32 mask);
struct crypto_tfm *crypto_sig_tfm(struct crypto_sig *tfm);
const char *crypto_sig_driver_name(struct crypto_sig *tfm);
const char *crypto_sig_alg_name(struct crypto_sig *tfm);

int crypto_sig_set_privkey(struct crypto_sig *tfm, const void *key, unsigned int keylen);
int crypto_sig_set_pubkey(struct crypto_sig *tfm, const void *key, unsigned int keylen);
int crypto_sig_generate_key(struct crypto_sig *tfm);
/* Key size for generation (RSA modulus bits); -EOPNOTSUPP where fixed. */
int crypto_sig_set_keygen_bits(struct crypto_sig *tfm, unsigned int bits);

int crypto_sig_sign(struct crypto_sig *tfm, const void *msg, unsigned int msglen,
		    void *sig, unsigned int siglen);
int crypto_sig_verify(struct crypto_sig *tfm, const void *sig, unsigned int siglen,
		      const void *msg, unsigned int msglen);

/* Size of the key in bits (as the kernel since 6.13); 0 when none is set. */
unsigned int crypto_sig_keysize(struct crypto_sig *tfm);
/* Largest signature in bytes. */
unsigned int crypto_sig_maxsize(struct crypto_sig *tfm);

int crypto_sig_export_pubkey(struct crypto_sig *tfm, enum rind_key_format fmt,
			     u8 *out, unsigned int outlen);
int crypto_sig_export_privkey(struct crypto_sig *tfm, enum rind_key_format fmt,
			      u8 *out, unsigned int outlen);

/*
 * Batches: @n independent operations with the tfm's key, which an
 * implementation may run together (SIMD lanes, shared precomputation).
 * For signing, @sig is the output buffer and @siglen its size, replaced
 * by the signature length on success; for verifying, @sig/@siglen is the
 * signature.  Each request's result is left in its @err (0 or a negative
 * errno: -EBADMSG for a signature that does not verify).  The call
 * returns 0 when every request succeeded, else the first error.
 */
struct sig_request {
	const void *msg;
	unsigned int msglen;
	void *sig;
	unsigned int siglen;
	int err;
};

int crypto_sig_sign_batch(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n);
int crypto_sig_verify_batch(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n);
/*
 * How many signatures crypto_sig_sign_batch(tfm, reqs, n) computes side by
 * side per pass (SIMD lanes): 1 where the implementation signs a batch of
 * that size one signature after another (it may still share work across
 * them, as ECDSA shares its inversions).  It answers for the tfm's key as
 * it is set (1 before a key is set; RSA: by modulus size).  For
 * statistics and tuning only; the results do not depend on it.
 */
unsigned int crypto_sig_batch_lanes(struct crypto_sig *tfm, unsigned int n);

/*
 * Signing options.  rind_sig_set_context sets the context string of FIPS
 * 204 (ML-DSA: at most 255 bytes, else -EINVAL; empty by default).
 * rind_sig_set_deterministic(tfm, true) makes signing a fixed function of
 * key and message, for known-answer tests: FIPS 204's deterministic
 * variant for ML-DSA, plain RFC 6979 for ECDSA; signing is hedged by
 * default.  Both return -EOPNOTSUPP where the algorithm has no such
 * notion (Ed25519 is always deterministic: setting it returns 0).
 * The settings belong to the tfm and survive key changes.
 */
int rind_sig_set_context(struct crypto_sig *tfm, const u8 *ctx, unsigned int ctxlen);
int rind_sig_set_deterministic(struct crypto_sig *tfm, bool on);

/*
 * Ed25519 (RFC 8032, pure) over the best registered implementation.
 * @seed is the 32-byte private key, @pub the 32-byte public key.  sign
 * returns 0 (or -EINVAL on bad arguments) and writes 64 bytes; verify
 * returns 0 or -EBADMSG (strict: S < L, canonical A and R, cofactorless).
 */
#define ED25519_SEED_SIZE	32
#define ED25519_PUBKEY_SIZE	32
#define ED25519_SIG_SIZE	64
int rind_ed25519_public_key(u8 pub[ED25519_PUBKEY_SIZE], const u8 seed[ED25519_SEED_SIZE]);
int rind_ed25519_sign(u8 sig[ED25519_SIG_SIZE], const void *msg, size_t msglen,
		      const u8 seed[ED25519_SEED_SIZE]);
int rind_ed25519_verify(const u8 sig[ED25519_SIG_SIZE], const void *msg, size_t msglen,
			const u8 pub[ED25519_PUBKEY_SIZE]);

#endif /* _RIND_SIG_H */
