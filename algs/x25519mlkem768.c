// SPDX-License-Identifier: MIT
/*
 * "x25519mlkem768": the hybrid key exchange of draft-ietf-tls-ecdhe-mlkem
 * (TLS group X25519MLKEM768, 0x11ec) as a kem.  ML-KEM-768 comes first
 * everywhere:
 *
 *   public key (client share)   ML-KEM-768 ek (1184) || X25519 public (32)
 *   ciphertext (server share)   ML-KEM-768 ct (1088) || X25519 public (32)
 *   shared secret               ML-KEM-768 K (32)    || X25519 secret (32)
 *
 * The private key is the ML-KEM seed d || z (64) || the X25519 secret (32)
 * = 96 bytes, or the expanded ML-KEM decapsulation key (2400) || the
 * X25519 secret = 2432 bytes.  The encapsulation randomness is ML-KEM's
 * m (32) || the ephemeral X25519 secret (32).  An X25519 result of zero
 * (a small-order peer share) is -EINVAL, as for the curve25519 kpp.
 */
#include <stdio.h>
#include <string.h>
#include <rind/kpp.h>
#include <rind/internal/kem.h>
#include <rind/internal/util.h>
#include <crypto/mlkem.h>

#define X_KEY	CURVE25519_KEY_SIZE
#define EK	1184
#define DK	2400
#define CT	1088

struct xmlkem_ctx {
	struct mlkem_key mk;
	u8 xsk[X_KEY];
	u8 xpk[X_KEY];
};

static const struct mlkem_ops *tfm_ops(struct crypto_kem *tfm)
{
	return container_of(crypto_kem_alg(tfm), struct mlkem_alg, kem)->ops;
}

static int xmlkem_set_priv_key(struct crypto_kem *tfm, const void *key, unsigned int keylen)
{
	struct xmlkem_ctx *ctx = crypto_kem_ctx(tfm);
	const u8 *k = key;
	const u8 *xsk = k + (keylen == MLKEM_SEED_BYTES + X_KEY ? MLKEM_SEED_BYTES : DK);
	u8 xpk[X_KEY];
	int err;

	if (keylen != MLKEM_SEED_BYTES + X_KEY && keylen != DK + X_KEY)
		return -EINVAL;
	ctx->mk.ops = tfm_ops(tfm);
	err = rind_curve25519_generate_public(xpk, xsk);
	if (err)
		return -EKEYREJECTED;
	if (keylen == DK + X_KEY) {
		err = rind_mlkem_set_dk(&ctx->mk, &rind_mlkem768_params, k);
		if (err)
			return err;
	} else {
		rind_mlkem_keygen(&ctx->mk, &rind_mlkem768_params, k);
	}
	memcpy(ctx->xsk, xsk, X_KEY);
	memcpy(ctx->xpk, xpk, X_KEY);
	return 0;
}

static int xmlkem_set_pub_key(struct crypto_kem *tfm, const void *key, unsigned int keylen)
{
	struct xmlkem_ctx *ctx = crypto_kem_ctx(tfm);
	int err;

	if (keylen != EK + X_KEY)
		return -EINVAL;
	ctx->mk.ops = tfm_ops(tfm);
	err = rind_mlkem_set_ek(&ctx->mk, &rind_mlkem768_params, key);
	if (err)
		return err;
	memcpy(ctx->xpk, (const u8 *)key + EK, X_KEY);
	memzero_explicit(ctx->xsk, X_KEY);
	return 0;
}

static int xmlkem_encapsulate(struct crypto_kem *tfm, const u8 *m, u8 *ct, u8 *ss)
{
	struct xmlkem_ctx *ctx = crypto_kem_ctx(tfm);
	int err;

	err = rind_curve25519_generate_public(ct + CT, m + 32);
	if (!err)
		err = rind_curve25519(ss + MLKEM_SS_BYTES, m + 32, ctx->xpk);
	if (err) {
		memzero_explicit(ct, CT + X_KEY);
		memzero_explicit(ss, MLKEM_SS_BYTES + X_KEY);
		return -EINVAL;
	}
	rind_mlkem_encaps(&ctx->mk, m, ct, ss);
	return 0;
}

static int xmlkem_decapsulate(struct crypto_kem *tfm, const u8 *ct, u8 *ss)
{
	struct xmlkem_ctx *ctx = crypto_kem_ctx(tfm);

	if (rind_curve25519(ss + MLKEM_SS_BYTES, ctx->xsk, ct + CT)) {
		memzero_explicit(ss, MLKEM_SS_BYTES + X_KEY);
		return -EINVAL;
	}
	rind_mlkem_decaps(&ctx->mk, ct, ss);
	return 0;
}

static int xmlkem_export_pubkey(struct crypto_kem *tfm, enum rind_key_format fmt,
				u8 *out, unsigned int outlen)
{
	struct xmlkem_ctx *ctx = crypto_kem_ctx(tfm);

	if (fmt != RIND_KEY_RAW)
		return -EINVAL;
	if (outlen < EK + X_KEY)
		return -ENOSPC;
	memcpy(out, ctx->mk.ek, EK);
	memcpy(out + EK, ctx->xpk, X_KEY);
	return EK + X_KEY;
}

static int xmlkem_export_privkey(struct crypto_kem *tfm, enum rind_key_format fmt,
				 u8 *out, unsigned int outlen)
{
	struct xmlkem_ctx *ctx = crypto_kem_ctx(tfm);

	if (fmt != RIND_KEY_RAW)
		return -EINVAL;
	if (outlen < DK + X_KEY)
		return -ENOSPC;
	rind_mlkem_export_dk(&ctx->mk, out);
	memcpy(out + DK, ctx->xsk, X_KEY);
	return DK + X_KEY;
}

static int xmlkem_export_seed(struct crypto_kem *tfm, u8 *out)
{
	struct xmlkem_ctx *ctx = crypto_kem_ctx(tfm);

	if (!ctx->mk.has_seed)
		return -ENOKEY;
	memcpy(out, ctx->mk.seed, MLKEM_SEED_BYTES);
	memcpy(out + MLKEM_SEED_BYTES, ctx->xsk, X_KEY);
	return MLKEM_SEED_BYTES + X_KEY;
}

#define XMLKEM_ALG(prio, mod, ops_) {				\
	.kem = {							\
		.set_priv_key		= xmlkem_set_priv_key,		\
		.set_pub_key		= xmlkem_set_pub_key,		\
		.encapsulate		= xmlkem_encapsulate,		\
		.decapsulate		= xmlkem_decapsulate,		\
		.export_pubkey		= xmlkem_export_pubkey,		\
		.export_privkey		= xmlkem_export_privkey,	\
		.export_seed		= xmlkem_export_seed,		\
		.pubkey_size		= EK + X_KEY,			\
		.privkey_size		= DK + X_KEY,			\
		.seed_size		= MLKEM_SEED_BYTES + X_KEY,	\
		.ciphertext_size	= CT + X_KEY,			\
		.shared_secret_size	= MLKEM_SS_BYTES + X_KEY,	\
		.m_size			= 32 + X_KEY,			\
		.base = {						\
			.cra_name		= "x25519mlkem768",	\
			.cra_priority		= prio,			\
			.cra_ctxsize		= sizeof(struct xmlkem_ctx), \
			.cra_module		= mod,			\
		},							\
	},								\
	.p = &rind_mlkem768_params,					\
	.ops = ops_,							\
}

/* The hybrid over an ML-KEM driver's arithmetic, into the caller's @alg. */
int rind_xmlkem_register_driver(struct mlkem_alg *alg, const struct mlkem_ops *ops,
				const char *drv, int prio, const char *mod)
{
	*alg = (struct mlkem_alg)XMLKEM_ALG(prio, mod, ops);
	snprintf(alg->kem.base.cra_driver_name, sizeof(alg->kem.base.cra_driver_name), "%s", drv);
	return crypto_register_kem(&alg->kem);
}

static struct mlkem_alg xmlkem_alg;

/*
 * The mlkem768 vector of algs/mlkem.c (Wycheproof seed and encapsulation
 * m) with the X25519 keys of RFC 7748 section 6.1: Alice's private key as
 * the decapsulator's, Bob's as the ephemeral one; so the ciphertext ends
 * in Bob's public key and the secret in their shared K.  The ML-KEM half
 * of the rejection secret is J(z || c'), c' the ML-KEM ciphertext alone.
 */
static const struct kem_kat xmlkem_kat[] = { {
	.seed = "\x7c\x99\x35\xa0\xb0\x76\x94\xaa\x0c\x6d\x10\xe4\xdb\x6b\x1a\xdd"
	  "\x2f\xd8\x1a\x25\xcc\xb1\x48\x03\x2d\xcd\x73\x99\x36\x73\x7f\x2d"
	  "\x86\x26\xed\x79\xd4\x51\x14\x08\x00\xe0\x3b\x59\xb9\x56\xf8\x21"
	  "\x0e\x55\x60\x67\x40\x7d\x13\xdc\x90\xfa\x9e\x8b\x87\x2b\xfb\x8f"
	  "\x77\x07\x6d\x0a\x73\x18\xa5\x7d\x3c\x16\xc1\x72\x51\xb2\x66\x45"
	  "\xdf\x4c\x2f\x87\xeb\xc0\x99\x2a\xb1\x77\xfb\xa5\x1d\xb9\x2c\x2a",
	.ek_hash = "\x4a\x18\x82\xe9\x0c\x6e\x7a\xcc\x66\x94\x37\xe7\x26\xd6\x3a\x63"
	  "\x58\x3c\x88\x1c\x93\x32\x9a\xb0\x68\xbd\xfd\x73\x39\xdf\x67\xbf",
	.m = "\x14\x7c\x03\xf7\xa5\xbe\xbb\xa4\x06\xc8\xfa\xe1\x87\x4d\x7f\x13"
	  "\xc8\x0e\xfe\x79\xa3\xa9\xa8\x74\xcc\x09\xfe\x76\xf6\x99\x76\x15"
	  "\x5d\xab\x08\x7e\x62\x4a\x8a\x4b\x79\xe1\x7f\x8b\x83\x80\x0e\xe6"
	  "\x6f\x3b\xb1\x29\x26\x18\xb6\xfd\x1c\x2f\x8b\x27\xff\x88\xe0\xeb",
	.ct_hash = "\x4b\x59\x5f\x3c\xe1\x83\xcf\x34\x05\x5a\x5f\xbe\xcd\xa5\x02\x5e"
	  "\xfd\xfb\x69\x61\x50\x53\xbe\x88\x0d\xb6\x9f\x05\xe8\x3e\x99\x6b",
	.ss = "\xe7\x18\x4a\x09\x75\xee\x34\x70\x87\x8d\x2d\x15\x9e\xc8\x31\x29"
	  "\xc8\xae\xc2\x53\xd4\xee\x17\xb4\x81\x03\x11\xd1\x98\xcd\x03\x68"
	  "\x4a\x5d\x9d\x5b\xa4\xce\x2d\xe1\x72\x8e\x3b\xf4\x80\x35\x0f\x25"
	  "\xe0\x7e\x21\xc9\x47\xd1\x9e\x33\x76\xf0\x9b\x3c\x1e\x16\x17\x42",
	.rej_ss = "\xd8\xf2\x4f\xa3\x84\x30\xa1\x71\xf9\x3f\x27\xd4\x6c\x52\xe0\xbc"
	  "\x63\x6d\x0a\x1f\xd5\xb9\x57\x19\x51\xaf\xbf\x1a\xd0\xb8\x95\xa5"
	  "\x4a\x5d\x9d\x5b\xa4\xce\x2d\xe1\x72\x8e\x3b\xf4\x80\x35\x0f\x25"
	  "\xe0\x7e\x21\xc9\x47\xd1\x9e\x33\x76\xf0\x9b\x3c\x1e\x16\x17\x42",
} };

static const struct kem_kat_suite xmlkem_suite = { xmlkem_kat, ARRAY_SIZE(xmlkem_kat) };

static struct alg_test_desc xmlkem_test = {
	.alg = "x25519mlkem768", .test = rind_kem_kat_test, .suite.priv = &xmlkem_suite,
};

static int x25519mlkem768_mod_init(void)
{
	crypto_register_test(&xmlkem_test);
	return rind_xmlkem_register_driver(&xmlkem_alg, &rind_mlkem_generic_ops,
					   "x25519mlkem768-generic", 100, "generic");
}
module_init(x25519mlkem768_mod_init);
