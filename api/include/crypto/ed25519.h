/* SPDX-License-Identifier: MIT */
/*
 * Ed25519 (RFC 8032) internals shared by the generic driver
 * (algs/ed25519.c) and the accelerated ones (arch/): arithmetic modulo the
 * group order L, the sig glue written once over a driver's three curve
 * operations, and the per-key verification precomputation.  Not installed.
 */
#ifndef _RIND_ALGS_ED25519_H
#define _RIND_ALGS_ED25519_H

#include <rind/internal/sig.h>
#include <rind/internal/hash.h>

/* ---- scalars modulo L = 2^252 + 27742317777372353535851937790883648493 -- */

/* out = in mod L, for a 64-byte little-endian @in; constant time. */
void ed25519_sc_reduce(u8 out[32], const u8 in[64]);
/* out = (a * b + c) mod L for a, b, c < 2^255; constant time. */
void ed25519_sc_muladd(u8 out[32], const u8 a[32], const u8 b[32], const u8 c[32]);
/* 1 if s < L (the canonical range of S), else 0; variable time (public). */
int ed25519_sc_is_canonical(const u8 s[32]);

/* ---- drivers ------------------------------------------------------------- */

/* Room for a driver's precomputed multiples of a public key. */
#define ED25519_PRE_BYTES 4096

struct ed25519_pre {
	u64 w[ED25519_PRE_BYTES / 8] __attribute__((aligned(64)));
};

struct ed25519_driver {
	/*
	 * out = encode([k]B) for a 32-byte little-endian k < 2^255, in
	 * constant time (the signer's nonce and secret scalar go here).
	 */
	void (*base_mul)(u8 out[32], const u8 k[32]);
	/* The same for n scalars, sharing field inversions between them. */
	void (*base_mul_batch)(u8 (*out)[32], const u8 (*k)[32], unsigned int n);
	/*
	 * out = X25519(k, 9) for a clamped 32-byte k, through the same
	 * fixed-base table (the birational map u = (1 + y) / (1 - y)).
	 */
	void (*base_mul_mont)(u8 out[32], const u8 k[32]);
	/*
	 * Decode a public key strictly (canonical y < p, no "negative zero"
	 * x) and precompute its multiples into @pre: 0 or -EKEYREJECTED.
	 */
	int (*prepare)(struct ed25519_pre *pre, const u8 pub[32]);
	/* out = encode([s]B - [h]A) for public s, h < 2^253; variable time. */
	void (*double_mul)(u8 out[32], const struct ed25519_pre *pre, const u8 s[32], const u8 h[32]);
	/*
	 * Optional (NULL: ed25519_sc_reduce, ed25519_sc_muladd): the same
	 * arithmetic modulo L, constant time, for signing.
	 */
	void (*sc_reduce)(u8 out[32], const u8 in[64]);
	void (*sc_muladd)(u8 out[32], const u8 a[32], const u8 b[32], const u8 c[32]);
	struct sig_alg alg;
};

struct ed25519_ctx {
	struct crypto_shash *sha512;
	u8 seed[32];
	u8 az[64];		/* SHA-512(seed): clamped scalar a, then the prefix */
	u8 pub[32];
	bool has_priv;
	bool has_pub;
	struct ed25519_pre pre;	/* valid when has_pub */
};

/* The sig_alg entries every driver uses (algs/ed25519.c). */
int ed25519_sig_init(struct crypto_sig *tfm);
void ed25519_sig_exit(struct crypto_sig *tfm);
int ed25519_sig_set_priv_key(struct crypto_sig *tfm, const void *key, unsigned int keylen);
int ed25519_sig_set_pub_key(struct crypto_sig *tfm, const void *key, unsigned int keylen);
int ed25519_sig_generate_key(struct crypto_sig *tfm);
int ed25519_sig_sign(struct crypto_sig *tfm, const void *msg, unsigned int msglen,
		     void *sig, unsigned int siglen);
int ed25519_sig_verify(struct crypto_sig *tfm, const void *sig, unsigned int siglen,
		       const void *msg, unsigned int msglen);
void ed25519_sig_sign_batch(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n);
void ed25519_sig_verify_batch(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n);
int ed25519_sig_export_pubkey(struct crypto_sig *tfm, enum rind_key_format fmt,
			      u8 *out, unsigned int outlen);
int ed25519_sig_export_privkey(struct crypto_sig *tfm, enum rind_key_format fmt,
			       u8 *out, unsigned int outlen);
unsigned int ed25519_sig_key_size(struct crypto_sig *tfm);
unsigned int ed25519_sig_max_size(struct crypto_sig *tfm);
int ed25519_sig_set_deterministic(struct crypto_sig *tfm, bool on);

#define ED25519_SIG_ALG(drv_name, prio, module)					\
	{									\
		.sign = ed25519_sig_sign,					\
		.verify = ed25519_sig_verify,					\
		.set_pub_key = ed25519_sig_set_pub_key,				\
		.set_priv_key = ed25519_sig_set_priv_key,			\
		.generate_key = ed25519_sig_generate_key,			\
		.export_pubkey = ed25519_sig_export_pubkey,			\
		.export_privkey = ed25519_sig_export_privkey,			\
		.sign_batch = ed25519_sig_sign_batch,				\
		.verify_batch = ed25519_sig_verify_batch,			\
		.key_size = ed25519_sig_key_size,				\
		.max_size = ed25519_sig_max_size,				\
		.set_deterministic = ed25519_sig_set_deterministic,		\
		.init = ed25519_sig_init,					\
		.exit = ed25519_sig_exit,					\
		.base = {							\
			.cra_name = "ed25519",					\
			.cra_driver_name = drv_name,				\
			.cra_priority = prio,					\
			.cra_module = module,					\
			.cra_ctxsize = sizeof(struct ed25519_ctx),		\
		},								\
	}

/*
 * X25519(scalar, 9) (a curve25519_base_fn of <crypto/curve25519.h>) through
 * the generic driver's fixed-base table: the generic X25519 driver's
 * mul_base, defined in algs/ed25519.c.
 */
void curve25519_base_generic(u8 out[32], const u8 scalar[32]);

/* The known-answer tests for "ed25519" (registered by algs/ed25519.c). */
extern struct alg_test_desc ed25519_test_desc;

#endif /* _RIND_ALGS_ED25519_H */
