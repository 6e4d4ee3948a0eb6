// SPDX-License-Identifier: MIT
/*
 * Rows for ML-DSA-44/65/87 (FIPS 204): key generation from a fresh seed,
 * hedged signing of a 1 KiB message (the default: rnd from the DRBG,
 * empty context) and verification of one such signature, on one tfm
 * keyed once (key expansion is part of key generation, not of signing).
 *
 * OpenSSL gained ML-DSA in 3.5; the OpenSSL side runs when the library
 * the benchmark is linked with has it (EVP_PKEY_CTX_new_from_name), and
 * prints "-" otherwise.  libsodium has no ML-DSA.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "bench.h"
#include <rind/sig.h>

#define MLDSA_MSG_LEN	1024
#define MLDSA_SIG_BUF	4627	/* the largest, ML-DSA-87 */

enum mldsa_op { MLDSA_KEYGEN, MLDSA_SIGN, MLDSA_VERIFY };

struct mldsa_param {
	enum mldsa_op op;
	const char *ossl_name;	/* "ML-DSA-65" */
};

static const unsigned char *mldsa_msg(void)
{
	static unsigned char msg[MLDSA_MSG_LEN];
	static int init;

	if (!init) {
		bench_fill(msg, sizeof(msg), 204);
		init = 1;
	}
	return msg;
}

/* ---- rind ----------------------------------------------------------------- */

struct rind_mldsa {
	const struct mldsa_param *p;
	struct crypto_sig *tfm;
	unsigned char sig[MLDSA_SIG_BUF];
	unsigned int siglen;
};

static int rind_mldsa_one(struct rind_mldsa *c)
{
	int r;

	switch (c->p->op) {
	case MLDSA_KEYGEN:
		return crypto_sig_generate_key(c->tfm);
	case MLDSA_SIGN:
		r = crypto_sig_sign(c->tfm, mldsa_msg(), MLDSA_MSG_LEN, c->sig, sizeof(c->sig));
		if (r < 0)
			return r;
		c->siglen = (unsigned int)r;
		return 0;
	default:
		return crypto_sig_verify(c->tfm, c->sig, c->siglen, mldsa_msg(), MLDSA_MSG_LEN);
	}
}

static void rind_mldsa_teardown(void *arg)
{
	struct rind_mldsa *c = arg;

	if (c->tfm && !IS_ERR(c->tfm))
		crypto_free_sig(c->tfm);
	free(c);
}

static int rind_mldsa_setup(const struct bench_row *row, const char *alg, void **ctx,
			    struct bench_check *chk)
{
	struct rind_mldsa *c = calloc(1, sizeof(*c));
	int err, r;

	(void)chk;	/* hedged signatures differ per run: nothing to compare */
	if (!c)
		return -ENOMEM;
	*ctx = c;
	c->p = row->param;
	c->tfm = crypto_alloc_sig(alg, 0, 0);
	if (IS_ERR(c->tfm))
		return (int)PTR_ERR(c->tfm);
	err = crypto_sig_generate_key(c->tfm);
	if (err)
		return err;
	r = crypto_sig_sign(c->tfm, mldsa_msg(), MLDSA_MSG_LEN, c->sig, sizeof(c->sig));
	if (r < 0)
		return r;
	c->siglen = (unsigned int)r;
	return rind_mldsa_one(c);
}

static int rind_mldsa_run(void *arg, uint64_t n)
{
	struct rind_mldsa *c = arg;
	int err;

	for (uint64_t i = 0; i < n; i++) {
		err = rind_mldsa_one(c);
		if (err)
			return err;
		bench_consume(c->sig);
	}
	return 0;
}

static const char *rind_mldsa_driver(void *arg)
{
	struct rind_mldsa *c = arg;

	return c->tfm && !IS_ERR(c->tfm) ? crypto_sig_driver_name(c->tfm) : NULL;
}

static const struct bench_impl rind_mldsa = {
	rind_mldsa_setup, rind_mldsa_run, rind_mldsa_teardown, rind_mldsa_driver,
};

/* ---- OpenSSL (3.5 and later) ----------------------------------------------- */

struct ossl_mldsa {
	const struct mldsa_param *p;
	EVP_PKEY_CTX *kctx;
	EVP_PKEY *key;
	EVP_MD_CTX *mctx;
	unsigned char sig[MLDSA_SIG_BUF];
	size_t siglen;
};

static void ossl_mldsa_teardown(void *arg)
{
	struct ossl_mldsa *c = arg;

	EVP_MD_CTX_free(c->mctx);
	EVP_PKEY_free(c->key);
	EVP_PKEY_CTX_free(c->kctx);
	free(c);
}

static int ossl_mldsa_one(struct ossl_mldsa *c)
{
	EVP_PKEY *k = NULL;

	switch (c->p->op) {
	case MLDSA_KEYGEN:
		if (EVP_PKEY_keygen(c->kctx, &k) != 1)
			return bench_ossl_error("ML-DSA keygen");
		EVP_PKEY_free(k);
		return 0;
	case MLDSA_SIGN:
		c->siglen = sizeof(c->sig);
		if (EVP_DigestSignInit_ex(c->mctx, NULL, NULL, NULL, NULL, c->key, NULL) != 1 ||
		    EVP_DigestSign(c->mctx, c->sig, &c->siglen, mldsa_msg(), MLDSA_MSG_LEN) != 1)
			return bench_ossl_error("ML-DSA sign");
		return 0;
	default:
		if (EVP_DigestVerifyInit_ex(c->mctx, NULL, NULL, NULL, NULL, c->key, NULL) != 1 ||
		    EVP_DigestVerify(c->mctx, c->sig, c->siglen, mldsa_msg(), MLDSA_MSG_LEN) != 1)
			return bench_ossl_error("ML-DSA verify");
		return 0;
	}
}

static int ossl_mldsa_setup(const struct bench_row *row, const char *alg, void **ctx,
			    struct bench_check *chk)
{
	struct ossl_mldsa *c = calloc(1, sizeof(*c));
	int err;

	(void)alg;
	(void)chk;
	if (!c)
		return -ENOMEM;
	*ctx = c;
	c->p = row->param;
	c->kctx = EVP_PKEY_CTX_new_from_name(NULL, c->p->ossl_name, NULL);
	if (!c->kctx)
		return bench_ossl_missing();
	if (EVP_PKEY_keygen_init(c->kctx) != 1 || EVP_PKEY_keygen(c->kctx, &c->key) != 1)
		return bench_ossl_error("ML-DSA keygen");
	c->mctx = EVP_MD_CTX_new();
	if (!c->mctx)
		return -ENOMEM;
	/* A signature to verify, made once. */
	c->siglen = sizeof(c->sig);
	if (EVP_DigestSignInit_ex(c->mctx, NULL, NULL, NULL, NULL, c->key, NULL) != 1 ||
	    EVP_DigestSign(c->mctx, c->sig, &c->siglen, mldsa_msg(), MLDSA_MSG_LEN) != 1)
		return bench_ossl_error("ML-DSA sign");
	err = ossl_mldsa_one(c);
	return err;
}

static int ossl_mldsa_run(void *arg, uint64_t n)
{
	struct ossl_mldsa *c = arg;
	int err;

	for (uint64_t i = 0; i < n; i++) {
		err = ossl_mldsa_one(c);
		if (err)
			return err;
		bench_consume(c->sig);
	}
	return 0;
}

static const struct bench_impl ossl_mldsa = {
	ossl_mldsa_setup, ossl_mldsa_run, ossl_mldsa_teardown, NULL,
};

/* ---- rows ------------------------------------------------------------------- */

#define MLDSA_PARAMS(v)								\
	static const struct mldsa_param mldsa##v##_keygen = { MLDSA_KEYGEN, "ML-DSA-" #v };	\
	static const struct mldsa_param mldsa##v##_sign = { MLDSA_SIGN, "ML-DSA-" #v };	\
	static const struct mldsa_param mldsa##v##_verify = { MLDSA_VERIFY, "ML-DSA-" #v };

MLDSA_PARAMS(44)
MLDSA_PARAMS(65)
MLDSA_PARAMS(87)

#define MLDSA_ROW(op, bytes, alg, prm) \
	{ "Post-quantum", op, bytes, alg, "sig", &prm, { &rind_mldsa, &ossl_mldsa, NULL }, 0 }
#define MLDSA_ROWS(v)								\
	MLDSA_ROW("ML-DSA-" #v " key generation", 0, "mldsa" #v, mldsa##v##_keygen),	\
	MLDSA_ROW("ML-DSA-" #v " sign (hedged)", MLDSA_MSG_LEN, "mldsa" #v, mldsa##v##_sign), \
	MLDSA_ROW("ML-DSA-" #v " verify", MLDSA_MSG_LEN, "mldsa" #v, mldsa##v##_verify)

const struct bench_row bench_rows_mldsa[] = {
	MLDSA_ROWS(44),
	MLDSA_ROWS(65),
	MLDSA_ROWS(87),
	{ .op = NULL }
};
