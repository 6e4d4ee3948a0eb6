/* SPDX-License-Identifier: MIT */
/*
 * RSA keys and the RSA primitives (RFC 8017 RSAEP/RSAVP1, RSADP/RSASP1),
 * shared by the padding files: rsa_pkcs1.c, rsa_pss.c (sig) and
 * rsa_oaep.c (akcipher).  The primitives and key handling live in rsa.c.
 *
 * Policy: imported keys have a modulus of 2048 to 8192 bits and an odd
 * public exponent 3 <= e < 2^64 (verification of existing keys); a
 * private key must carry its CRT parameters (two primes, no multi-prime).
 * Generated keys: 2048 to 8192 bits (even), e = 65537 only.  Anything
 * else is refused (-EKEYREJECTED on import, -EINVAL for generation).
 *
 * Key encodings: the raw form (RIND_KEY_RAW) of an RSA public key is the
 * PKCS#1 RSAPublicKey DER, of a private key the PKCS#1 RSAPrivateKey DER;
 * also SPKI / PKCS#8 DER (rsaEncryption), PEM ("PUBLIC KEY", "PRIVATE
 * KEY", and on import "RSA PUBLIC KEY", "RSA PRIVATE KEY") and JWK
 * (kty "RSA"; a private JWK needs d, p, q, dp, dq, qi).
 */
#ifndef _RIND_RSA_H
#define _RIND_RSA_H

#include <rind/types.h>
#include <rind/keyformat.h>
#include <crypto/bignum.h>

#define RSA_MIN_BITS		2048
#define RSA_MAX_BITS		8192
#define RSA_MAX_BYTES		(RSA_MAX_BITS / 8)
#define RSA_KEYGEN_E		65537

struct rsa_key {
	unsigned int bits;		/* modulus bits; 0 when no key */
	unsigned int k;			/* modulus bytes */
	bool has_priv;
	u64 e;
	struct bn_mont mn;		/* n (mn.m), nlimbs = mn.n */
	/* Private (has_priv). */
	u64 d[BN_MAX_LIMBS];		/* mn.n limbs, for export */
	u64 dp[BN_MAX_LIMBS];		/* mp.n limbs */
	u64 dq[BN_MAX_LIMBS];		/* mq.n limbs */
	u64 qinv[BN_MAX_LIMBS];		/* mp.n limbs */
	struct bn_mont mp;		/* p */
	struct bn_mont mq;		/* q */
};

/* Replace the key in @key (unchanged on error).  0 or -EKEYREJECTED / -ENOMEM. */
int rsa_import_pub(struct rsa_key *key, const u8 *in, size_t len);
int rsa_import_priv(struct rsa_key *key, const u8 *in, size_t len);
/* Length written, -ENOSPC, -EINVAL (no such format), -ENOKEY. */
int rsa_export_pub(const struct rsa_key *key, enum rind_key_format fmt, u8 *out, size_t outlen);
int rsa_export_priv(const struct rsa_key *key, enum rind_key_format fmt, u8 *out, size_t outlen);
/* A fresh key pair of @bits (2048..8192, even), e = 65537.  0, -EINVAL, -errno. */
int rsa_generate(struct rsa_key *key, unsigned int bits);
void rsa_key_wipe(struct rsa_key *key);

/*
 * RSAVP1 / RSAEP: @out = @in^e mod n, both key->k bytes big-endian.
 * -EBADMSG when in >= n.  Variable time (public values).
 */
int rsa_public(const struct rsa_key *key, u8 *out, const u8 *in);
/*
 * RSASP1 / RSADP: @out = @in^d mod n via CRT, with a fresh random
 * blinding factor and constant-time exponentiations; the result is
 * checked with the public exponent before it is released (a fault gives
 * -EIO and no output).  -EBADMSG when in >= n; -ENOKEY without a private key.
 */
int rsa_private(const struct rsa_key *key, u8 *out, const u8 *in);

/* MGF1 (RFC 8017 B.2.1) with @hash: out ^= MGF1(seed, outlen). */
struct crypto_shash;
int rsa_mgf1_xor(struct crypto_shash *hash, const u8 *seed, unsigned int seedlen,
		 u8 *out, unsigned int outlen);

/*
 * What the three padding files share for their tfm contexts: the key, the
 * message hash, and the size for generation.
 */
struct rsa_tfm_ctx {
	struct rsa_key key;
	struct crypto_shash *hash;
	unsigned int keygen_bits;
};

int rsa_ctx_init(struct rsa_tfm_ctx *ctx, const char *hash_name);
/* The same, the hash taken from a cra_name: "oaep(rsa,sha384)" -> "sha384". */
int rsa_ctx_init_from_name(struct rsa_tfm_ctx *ctx, const char *cra_name);
void rsa_ctx_exit(struct rsa_tfm_ctx *ctx);
int rsa_ctx_set_keygen_bits(struct rsa_tfm_ctx *ctx, unsigned int bits);

/*
 * Glue for the sig algorithms (rsa_pkcs1.c, rsa_pss.c): their tfm context
 * is a struct rsa_tfm_ctx; init takes the hash from the cra_name
 * ("pss(rsa,sha384)" -> "sha384").
 */
struct crypto_sig;
int rsa_sig_init(struct crypto_sig *tfm);
void rsa_sig_exit(struct crypto_sig *tfm);
int rsa_sig_set_pub_key(struct crypto_sig *tfm, const void *key, unsigned int keylen);
int rsa_sig_set_priv_key(struct crypto_sig *tfm, const void *key, unsigned int keylen);
int rsa_sig_generate_key(struct crypto_sig *tfm);
int rsa_sig_set_keygen_bits(struct crypto_sig *tfm, unsigned int bits);
int rsa_sig_export_pubkey(struct crypto_sig *tfm, enum rind_key_format fmt, u8 *out,
			  unsigned int outlen);
int rsa_sig_export_privkey(struct crypto_sig *tfm, enum rind_key_format fmt, u8 *out,
			   unsigned int outlen);
unsigned int rsa_sig_key_size(struct crypto_sig *tfm);
unsigned int rsa_sig_max_size(struct crypto_sig *tfm);

#define RSA_SIG_OPS							\
	.init = rsa_sig_init,						\
	.exit = rsa_sig_exit,						\
	.set_pub_key = rsa_sig_set_pub_key,				\
	.set_priv_key = rsa_sig_set_priv_key,				\
	.generate_key = rsa_sig_generate_key,				\
	.set_keygen_bits = rsa_sig_set_keygen_bits,			\
	.export_pubkey = rsa_sig_export_pubkey,				\
	.export_privkey = rsa_sig_export_privkey,			\
	.key_size = rsa_sig_key_size,					\
	.max_size = rsa_sig_max_size

/* The RSA-2048 key of the known-answer tests: PKCS#1 private and public DER. */
#define RSA_KAT_PRIV_SIZE	1193
#define RSA_KAT_PUB_SIZE	270
extern const char rsa_kat_privkey[RSA_KAT_PRIV_SIZE + 1];
extern const char rsa_kat_pubkey[RSA_KAT_PUB_SIZE + 1];

#endif /* _RIND_RSA_H */
