// SPDX-License-Identifier: MIT
/*
 * The "mldsa44", "mldsa65" and "mldsa87" sig algorithms over the ML-DSA
 * key object of algs/mldsa.c: key import and export (algs/mldsa-key.c),
 * generation, the signing options, and the known-answer self-test.
 *
 * A tfm holds its options (context string, deterministic flag) apart
 * from the key, so that setting a key keeps them.  A key is imported
 * into a scratch key object and copied in only when it is accepted: a
 * refused key leaves the tfm as it was.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rind/rng.h>
#include <rind/internal/sig.h>
#include <rind/internal/util.h>
#include <crypto/keccak.h>
#include <crypto/mldsa.h>

struct mldsa_tfm_ctx {
	bool deterministic;
	u8 ctxlen;
	u8 ctxstr[MLDSA_CTX_MAX];
	struct mldsa_key key;
};

struct mldsa_alg {
	const struct mldsa_params *p;
	const struct mldsa_ops *ops;
	struct sig_alg alg;
};

static const struct mldsa_alg *mldsa_alg_of(struct crypto_sig *tfm)
{
	return container_of(crypto_sig_alg(tfm), struct mldsa_alg, alg);
}

static int mldsa_init(struct crypto_sig *tfm)
{
	struct mldsa_tfm_ctx *ctx = crypto_sig_ctx(tfm);

	ctx->key.p = mldsa_alg_of(tfm)->p;
	ctx->key.ops = mldsa_alg_of(tfm)->ops;
	return 0;
}

/* Run @import into a scratch key; on success it becomes the tfm's key. */
static int mldsa_set_key(struct crypto_sig *tfm, const void *in, unsigned int len, bool priv)
{
	struct mldsa_tfm_ctx *ctx = crypto_sig_ctx(tfm);
	const struct mldsa_alg *a = mldsa_alg_of(tfm);
	struct mldsa_key *k = malloc(sizeof(*k));
	int err;

	if (!k)
		return -ENOMEM;
	err = priv ? rind_mldsa_import_priv(k, a->p, a->ops, in, len) :
		     rind_mldsa_import_pub(k, a->p, a->ops, in, len);
	if (!err)
		memcpy(&ctx->key, k, sizeof(*k));
	memzero_explicit(k, sizeof(*k));
	free(k);
	return err;
}

static int mldsa_set_priv_key(struct crypto_sig *tfm, const void *key, unsigned int keylen)
{
	return mldsa_set_key(tfm, key, keylen, true);
}

static int mldsa_set_pub_key(struct crypto_sig *tfm, const void *key, unsigned int keylen)
{
	return mldsa_set_key(tfm, key, keylen, false);
}

static int mldsa_generate_key(struct crypto_sig *tfm)
{
	u8 seed[MLDSA_SEED_BYTES];
	int err = rind_get_random_bytes(seed, sizeof(seed));

	if (!err)
		err = mldsa_set_key(tfm, seed, sizeof(seed), true);
	memzero_explicit(seed, sizeof(seed));
	return err;
}

static int mldsa_sign(struct crypto_sig *tfm, const void *msg, unsigned int msglen,
		      void *sig, unsigned int siglen)
{
	struct mldsa_tfm_ctx *ctx = crypto_sig_ctx(tfm);
	const struct mldsa_key *key = &ctx->key;
	u8 mu[MLDSA_MU_BYTES], rnd[MLDSA_RND_BYTES] = { 0 };
	int err;

	if (!key->has_priv)
		return -ENOKEY;
	if (siglen < key->p->sig_size)
		return -EINVAL;
	if (!ctx->deterministic) {
		err = rind_get_random_bytes(rnd, sizeof(rnd));
		if (err)
			return err;
	}
	rind_mldsa_mu(key, ctx->ctxstr, ctx->ctxlen, msg, msglen, mu);
	err = rind_mldsa_sign_mu(key, mu, rnd, sig);
	memzero_explicit(rnd, sizeof(rnd));
	memzero_explicit(mu, sizeof(mu));
	return err ? err : (int)key->p->sig_size;
}

static int mldsa_verify(struct crypto_sig *tfm, const void *sig, unsigned int siglen,
			const void *msg, unsigned int msglen)
{
	struct mldsa_tfm_ctx *ctx = crypto_sig_ctx(tfm);
	u8 mu[MLDSA_MU_BYTES];

	if (!ctx->key.has_pub)
		return -ENOKEY;
	if (!sig || siglen != ctx->key.p->sig_size)
		return -EBADMSG;
	rind_mldsa_mu(&ctx->key, ctx->ctxstr, ctx->ctxlen, msg, msglen, mu);
	return rind_mldsa_verify_mu(&ctx->key, sig, siglen, mu);
}

static int mldsa_set_context(struct crypto_sig *tfm, const u8 *c, unsigned int len)
{
	struct mldsa_tfm_ctx *ctx = crypto_sig_ctx(tfm);

	if (len > MLDSA_CTX_MAX)
		return -EINVAL;
	if (len)
		memcpy(ctx->ctxstr, c, len);
	ctx->ctxlen = (u8)len;
	return 0;
}

static int mldsa_set_deterministic(struct crypto_sig *tfm, bool on)
{
	struct mldsa_tfm_ctx *ctx = crypto_sig_ctx(tfm);

	ctx->deterministic = on;
	return 0;
}

static int mldsa_export_pubkey(struct crypto_sig *tfm, enum rind_key_format fmt,
			       u8 *out, unsigned int outlen)
{
	struct mldsa_tfm_ctx *ctx = crypto_sig_ctx(tfm);

	if (!ctx->key.has_pub)
		return -ENOKEY;
	return rind_mldsa_export_pub(&ctx->key, fmt, out, outlen);
}

static int mldsa_export_privkey(struct crypto_sig *tfm, enum rind_key_format fmt,
				u8 *out, unsigned int outlen)
{
	struct mldsa_tfm_ctx *ctx = crypto_sig_ctx(tfm);

	if (!ctx->key.has_priv)
		return -ENOKEY;
	return rind_mldsa_export_priv(&ctx->key, fmt, out, outlen);
}

/* The public key's size in bits (the kernel reports the key size; here it is the encoding). */
static unsigned int mldsa_key_size(struct crypto_sig *tfm)
{
	struct mldsa_tfm_ctx *ctx = crypto_sig_ctx(tfm);

	return ctx->key.has_pub ? 8 * ctx->key.p->pk_size : 0;
}

static unsigned int mldsa_max_size(struct crypto_sig *tfm)
{
	return mldsa_alg_of(tfm)->p->sig_size;
}

struct mldsa_key *rind_mldsa_tfm_key(struct crypto_sig *tfm)
{
	if (IS_ERR_OR_NULL(tfm) || crypto_sig_alg(tfm)->set_priv_key != mldsa_set_priv_key)
		return NULL;
	return &((struct mldsa_tfm_ctx *)crypto_sig_ctx(tfm))->key;
}

/* ---- known answers -------------------------------------------------------- */

/*
 * Wycheproof's mldsa_*_sign_seed_test.json tcId 1: the seed 0x2a * 32,
 * the message "Hello world", empty context, deterministic; SHA3-256 of
 * the public key and of the signature stand for the long encodings.
 */
struct mldsa_kat {
	const char *pk_hash, *sig_hash;
};

static const struct mldsa_kat mldsa44_kat = {
	"\x70\x57\xf8\x58\x74\xb8\x61\x16\xb0\x9e\xfe\xba\x00\x0c\xe1\xd8"
	"\xb0\xf1\x0d\x2f\x2c\x1d\x44\xaf\x94\xbd\xe9\x0f\x53\xfa\xae\x0c",
	"\x9f\x32\xd7\x7c\x98\x0e\x66\x11\x4a\x45\x2e\x6e\x8f\x3e\x1a\x41"
	"\xf0\xa8\xa2\x56\x4b\xd3\xa7\x86\x94\x0e\x6a\x59\xc4\xe3\xaa\x2d",
};

static const struct mldsa_kat mldsa65_kat = {
	"\x1d\x03\xe2\xa9\xe7\xc1\x38\x28\x7c\x5d\xf0\x96\x02\x56\x2d\x02"
	"\xb9\x4a\x8c\xc3\x8a\x61\x2d\x97\xa0\x92\x2f\x55\x4b\x0e\x2c\xee",
	"\x77\xc9\x44\xaa\xa5\x9e\xad\x13\x18\xb9\xee\xee\x22\x9d\xb1\x08"
	"\x76\x5f\x12\x00\x0b\x49\x53\x57\x56\xe2\x51\x3d\x0e\x94\xde\x03",
};

static const struct mldsa_kat mldsa87_kat = {
	"\x70\x88\x89\x7c\xb9\x1d\x5f\xf3\x85\x52\x77\xbd\xf1\xd0\xa3\xf1"
	"\x3c\xe7\xf2\x15\xf1\x4b\x55\x7d\x26\x8c\x8b\x61\x92\xee\x60\x4a",
	"\xb6\x17\xaa\x4d\x54\xdb\x7c\x3e\x12\xca\x75\x11\x54\xae\x3d\x4d"
	"\x50\xf5\x45\x5d\xb5\x0b\x37\xb2\x73\x6e\xdb\xf8\xa6\x48\xee\xcd",
};

static int kat_fail(struct crypto_alg *alg, const char *what, int err)
{
	fprintf(stderr, "rind: %s: self-test: %s (%d)\n", alg->cra_driver_name, what, err);
	return -EBADMSG;
}

/*
 * The key from the seed must have the known public key, the
 * deterministic signature must be the known one and verify, a hedged
 * signature must verify, and a signature with a flipped bit must not.
 */
static int mldsa_kat_test(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	const struct mldsa_kat *kat = desc->suite.priv;
	static const u8 seed[MLDSA_SEED_BYTES] = {
		[0 ... MLDSA_SEED_BYTES - 1] = 0x2a,
	};
	struct crypto_sig *tfm;
	u8 *buf, h[32];
	int err, len;

	tfm = crypto_alloc_sig(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	buf = malloc(MLDSA_PK_MAX + MLDSA_SIG_MAX);
	if (!buf) {
		crypto_free_sig(tfm);
		return -ENOMEM;
	}
	err = crypto_sig_set_privkey(tfm, seed, sizeof(seed));
	if (err) {
		err = kat_fail(alg, "key from seed", err);
		goto out;
	}
	len = crypto_sig_export_pubkey(tfm, RIND_KEY_RAW, buf, MLDSA_PK_MAX);
	if (len > 0)
		rind_sha3_256(h, buf, (size_t)len);
	if (len <= 0 || memcmp(h, kat->pk_hash, 32)) {
		err = kat_fail(alg, "public key", len);
		goto out;
	}
	rind_sig_set_deterministic(tfm, true);
	len = crypto_sig_sign(tfm, "Hello world", 11, buf, MLDSA_SIG_MAX);
	if (len > 0)
		rind_sha3_256(h, buf, (size_t)len);
	if (len <= 0 || memcmp(h, kat->sig_hash, 32)) {
		err = kat_fail(alg, "deterministic signature", len);
		goto out;
	}
	err = crypto_sig_verify(tfm, buf, (unsigned int)len, "Hello world", 11);
	if (err) {
		err = kat_fail(alg, "verify", err);
		goto out;
	}
	rind_sig_set_deterministic(tfm, false);
	len = crypto_sig_sign(tfm, "Hello world", 11, buf, MLDSA_SIG_MAX);
	err = len < 0 ? len : crypto_sig_verify(tfm, buf, (unsigned int)len, "Hello world", 11);
	if (err) {
		err = kat_fail(alg, "hedged signature", err);
		goto out;
	}
	buf[len / 2] ^= 0x10;
	err = crypto_sig_verify(tfm, buf, (unsigned int)len, "Hello world", 11);
	err = err == -EBADMSG ? 0 : kat_fail(alg, "verify of a bad signature", err);
out:
	crypto_free_sig(tfm);
	free(buf);
	return err;
}

static struct alg_test_desc mldsa_tests[] = {
	{ .alg = "mldsa44", .test = mldsa_kat_test, .suite.priv = &mldsa44_kat },
	{ .alg = "mldsa65", .test = mldsa_kat_test, .suite.priv = &mldsa65_kat },
	{ .alg = "mldsa87", .test = mldsa_kat_test, .suite.priv = &mldsa87_kat },
};

/* ---- registration --------------------------------------------------------- */

#define MLDSA_ALG(bits, params) MLDSA_ALG_OPS(bits, params, &rind_mldsa_generic_ops, \
					      "generic", 100, "generic")

#define MLDSA_ALG_OPS(bits, params, ops_, drv_, prio_, mod_) {			\
	.p = &(params),								\
	.ops = (ops_),								\
	.alg = {								\
		.sign			= mldsa_sign,				\
		.verify			= mldsa_verify,				\
		.set_pub_key		= mldsa_set_pub_key,			\
		.set_priv_key		= mldsa_set_priv_key,			\
		.generate_key		= mldsa_generate_key,			\
		.export_pubkey		= mldsa_export_pubkey,			\
		.export_privkey		= mldsa_export_privkey,			\
		.set_context		= mldsa_set_context,			\
		.set_deterministic	= mldsa_set_deterministic,		\
		.key_size		= mldsa_key_size,			\
		.max_size		= mldsa_max_size,			\
		.init			= mldsa_init,				\
		.base = {							\
			.cra_name	 = "mldsa" #bits,			\
			.cra_driver_name = "mldsa" #bits "-" drv_,		\
			.cra_priority	 = (prio_),				\
			.cra_ctxsize	 = sizeof(struct mldsa_tfm_ctx),	\
			.cra_module	 = (mod_),				\
		},								\
	},									\
}

static struct mldsa_alg mldsa_algs[] = {
	MLDSA_ALG(44, rind_mldsa44_params),
	MLDSA_ALG(65, rind_mldsa65_params),
	MLDSA_ALG(87, rind_mldsa87_params),
};

/* Arch drivers' algorithms (one set per driver calling the function below). */
#define MLDSA_ARCH_SETS	2
static struct mldsa_alg mldsa_arch_algs[MLDSA_ARCH_SETS][3];
static unsigned int mldsa_arch_sets;

int rind_mldsa_register_drivers(const struct mldsa_ops *ops, const char *const drv[3],
				int prio, const char *mod)
{
	struct mldsa_alg *a;
	unsigned int i;
	int err;

	if (mldsa_arch_sets == MLDSA_ARCH_SETS)
		return -ENOSPC;
	a = mldsa_arch_algs[mldsa_arch_sets++];
	rind_mldsa_init_tables();
	a[0] = (struct mldsa_alg)MLDSA_ALG_OPS(44, rind_mldsa44_params, ops, "", prio, mod);
	a[1] = (struct mldsa_alg)MLDSA_ALG_OPS(65, rind_mldsa65_params, ops, "", prio, mod);
	a[2] = (struct mldsa_alg)MLDSA_ALG_OPS(87, rind_mldsa87_params, ops, "", prio, mod);
	for (i = 0; i < 3; i++) {
		snprintf(a[i].alg.base.cra_driver_name, sizeof(a[i].alg.base.cra_driver_name),
			 "%s", drv[i]);
		err = crypto_register_sig(&a[i].alg);
		if (err)
			return err;
	}
	return 0;
}

static int mldsa_generic_mod_init(void)
{
	unsigned int i;
	int err;

	rind_mldsa_init_tables();
	crypto_register_tests(mldsa_tests, ARRAY_SIZE(mldsa_tests));
	for (i = 0; i < ARRAY_SIZE(mldsa_algs); i++) {
		err = crypto_register_sig(&mldsa_algs[i].alg);
		if (err)
			return err;
	}
	return 0;
}

module_init(mldsa_generic_mod_init);
