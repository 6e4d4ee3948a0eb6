// SPDX-License-Identifier: MIT
/*
 * Rows for hashes, HMAC and the KDFs.
 *
 *   rind      one shash tfm (keyed once for HMAC) and one shash_desc,
 *             crypto_shash_digest per message; rind_hkdf_extract/expand and
 *             rind_pbkdf2 over one "hmac(sha256)" tfm
 *   OpenSSL   one EVP_MD_CTX (EVP_DigestInit_ex/Update/Final_ex with a
 *             fetched EVP_MD), one EVP_MAC_CTX keyed once (re-initialised
 *             with the same key per message), one EVP_KDF_CTX "HKDF",
 *             PKCS5_PBKDF2_HMAC
 *   libsodium crypto_hash_sha256/sha512, crypto_auth_hmacsha256 (the key is
 *             an argument of each call), crypto_kdf_hkdf_sha256_* where the
 *             installed libsodium has it (1.0.19 and later)
 *
 * HKDF: 32-byte IKM, 32-byte salt, 10-byte info, 32-byte output.  "extract+
 * expand" takes IKM, salt and info per call; "expand" takes a PRK keyed once
 * and the info per call.  PBKDF2: 16-byte password and salt, 32-byte output.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <sodium.h>

#include "bench.h"

enum hash_kind {
	K_HASH,
	K_HMAC,
	K_HKDF,		/* extract + expand */
	K_HKDF_EXPAND,
	K_PBKDF2,
};

struct hash_param {
	enum hash_kind kind;
	const char *md;		/* OpenSSL digest name */
	unsigned int outlen;
};

#define HMAC_KEY_LEN	32
#define HKDF_IKM_LEN	32
#define HKDF_SALT_LEN	32
#define HKDF_INFO_LEN	10
#define PBKDF2_ITER	10000
#define PBKDF2_LEN	16	/* password and salt lengths */

struct hash_bufs {
	u8 *msg;
	unsigned int len;
	u8 key[HMAC_KEY_LEN];
	u8 ikm[HKDF_IKM_LEN];
	u8 salt[HKDF_SALT_LEN];
	u8 info[HKDF_INFO_LEN];
	u8 prk[32];
	u8 pass[PBKDF2_LEN];
	u8 psalt[PBKDF2_LEN];
	u8 out[64];
};

static void hash_bufs_init(struct hash_bufs *b, const struct bench_row *row)
{
	b->len = row->bytes;
	b->msg = bench_alloc(row->bytes + 1);
	bench_fill(b->msg, row->bytes, 8);
	bench_fill(b->key, sizeof(b->key), 9);
	bench_fill(b->ikm, sizeof(b->ikm), 10);
	bench_fill(b->salt, sizeof(b->salt), 11);
	bench_fill(b->info, sizeof(b->info), 12);
	bench_fill(b->prk, sizeof(b->prk), 13);
	bench_fill(b->pass, sizeof(b->pass), 14);
	bench_fill(b->psalt, sizeof(b->psalt), 15);
	memset(b->out, 0, sizeof(b->out));
}

/* ---- rind ---------------------------------------------------------------- */

struct rind_hash {
	const struct hash_param *p;
	struct hash_bufs b;
	struct crypto_shash *tfm;
	struct shash_desc *desc;
};

static void rind_hash_teardown(void *arg)
{
	struct rind_hash *c = arg;

	if (c->desc)
		shash_desc_zero(c->desc);
	free(c->desc);
	if (c->tfm && !IS_ERR(c->tfm))
		crypto_free_shash(c->tfm);
	free(c->b.msg);
	free(c);
}

static int rind_hash_one(struct rind_hash *c)
{
	struct hash_bufs *b = &c->b;
	int err;

	switch (c->p->kind) {
	case K_HASH:
	case K_HMAC:
		return crypto_shash_digest(c->desc, b->msg, b->len, b->out);
	case K_HKDF:
		err = rind_hkdf_extract(c->tfm, b->ikm, sizeof(b->ikm), b->salt, sizeof(b->salt),
					b->prk);
		if (!err)
			err = crypto_shash_setkey(c->tfm, b->prk, 32);
		if (!err)
			err = rind_hkdf_expand(c->tfm, b->info, sizeof(b->info), b->out,
					       c->p->outlen);
		return err;
	case K_HKDF_EXPAND:
		return rind_hkdf_expand(c->tfm, b->info, sizeof(b->info), b->out, c->p->outlen);
	case K_PBKDF2:
		return rind_pbkdf2(c->tfm, b->pass, sizeof(b->pass), b->psalt, sizeof(b->psalt),
				   PBKDF2_ITER, b->out, c->p->outlen);
	}
	return -EINVAL;
}

static int rind_hash_setup(const struct bench_row *row, const char *alg, void **ctx,
			   struct bench_check *chk)
{
	const struct hash_param *p = row->param;
	struct rind_hash *c = calloc(1, sizeof(*c));
	int err = 0;

	if (!c)
		return -ENOMEM;
	*ctx = c;
	c->p = p;
	hash_bufs_init(&c->b, row);
	c->tfm = crypto_alloc_shash(alg, 0, 0);
	if (IS_ERR(c->tfm))
		return (int)PTR_ERR(c->tfm);
	c->desc = bench_alloc(sizeof(*c->desc) + crypto_shash_descsize(c->tfm));
	c->desc->tfm = c->tfm;
	if (p->kind == K_HMAC)
		err = crypto_shash_setkey(c->tfm, c->b.key, sizeof(c->b.key));
	else if (p->kind == K_HKDF_EXPAND)
		err = crypto_shash_setkey(c->tfm, c->b.prk, sizeof(c->b.prk));
	if (err)
		return err;
	err = rind_hash_one(c);
	if (err)
		return err;
	bench_check_set(chk, c->b.out, p->outlen);
	return 0;
}

static int rind_hash_run(void *arg, uint64_t n)
{
	struct rind_hash *c = arg;
	int err;

	for (uint64_t i = 0; i < n; i++) {
		err = rind_hash_one(c);
		if (err)
			return err;
		bench_consume(c->b.out);
	}
	return 0;
}

static const char *rind_hash_driver(void *arg)
{
	return crypto_shash_driver_name(((struct rind_hash *)arg)->tfm);
}

static const struct bench_impl rind_hash = {
	rind_hash_setup, rind_hash_run, rind_hash_teardown, rind_hash_driver,
};

/* ---- OpenSSL ------------------------------------------------------------- */

struct ossl_hash {
	const struct hash_param *p;
	struct hash_bufs b;
	EVP_MD *md;
	EVP_MD_CTX *mdctx;
	EVP_MAC *mac;
	EVP_MAC_CTX *macctx;
	EVP_KDF *kdf;
	EVP_KDF_CTX *kdfctx;
	OSSL_PARAM params[4];	/* per-call KDF inputs */
};

static void ossl_hash_teardown(void *arg)
{
	struct ossl_hash *c = arg;

	EVP_KDF_CTX_free(c->kdfctx);
	EVP_KDF_free(c->kdf);
	EVP_MAC_CTX_free(c->macctx);
	EVP_MAC_free(c->mac);
	EVP_MD_CTX_free(c->mdctx);
	EVP_MD_free(c->md);
	free(c->b.msg);
	free(c);
}

static int ossl_hash_one(struct ossl_hash *c)
{
	struct hash_bufs *b = &c->b;
	unsigned int mdlen;
	size_t outl;

	switch (c->p->kind) {
	case K_HASH:
		if (EVP_DigestInit_ex(c->mdctx, c->md, NULL) != 1 ||
		    EVP_DigestUpdate(c->mdctx, b->msg, b->len) != 1 ||
		    EVP_DigestFinal_ex(c->mdctx, b->out, &mdlen) != 1)
			return bench_ossl_error("digest");
		return 0;
	case K_HMAC:
		if (EVP_MAC_init(c->macctx, NULL, 0, NULL) != 1 ||
		    EVP_MAC_update(c->macctx, b->msg, b->len) != 1 ||
		    EVP_MAC_final(c->macctx, b->out, &outl, sizeof(b->out)) != 1)
			return bench_ossl_error("HMAC");
		return 0;
	case K_HKDF:
	case K_HKDF_EXPAND:
		if (EVP_KDF_derive(c->kdfctx, b->out, c->p->outlen, c->params) != 1)
			return bench_ossl_error("HKDF");
		return 0;
	case K_PBKDF2:
		if (PKCS5_PBKDF2_HMAC((const char *)b->pass, sizeof(b->pass), b->psalt,
				      sizeof(b->psalt), PBKDF2_ITER, EVP_sha256(),
				      (int)c->p->outlen, b->out) != 1)
			return bench_ossl_error("PBKDF2");
		return 0;
	}
	return -EINVAL;
}

static int ossl_hash_setup(const struct bench_row *row, const char *alg, void **ctx,
			   struct bench_check *chk)
{
	const struct hash_param *p = row->param;
	struct ossl_hash *c = calloc(1, sizeof(*c));
	struct hash_bufs *b;
	OSSL_PARAM set[3], *q;
	int mode, err;

	(void)alg;
	if (!c)
		return -ENOMEM;
	*ctx = c;
	c->p = p;
	b = &c->b;
	hash_bufs_init(b, row);

	switch (p->kind) {
	case K_HASH:
		c->md = EVP_MD_fetch(NULL, p->md, NULL);
		c->mdctx = EVP_MD_CTX_new();
		if (!c->md || !c->mdctx)
			return bench_ossl_error(p->md);
		break;
	case K_HMAC:
		c->mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
		if (!c->mac || !(c->macctx = EVP_MAC_CTX_new(c->mac)))
			return bench_ossl_error("HMAC");
		set[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)p->md, 0);
		set[1] = OSSL_PARAM_construct_end();
		if (EVP_MAC_init(c->macctx, b->key, sizeof(b->key), set) != 1)
			return bench_ossl_error("HMAC key");
		break;
	case K_HKDF:
	case K_HKDF_EXPAND:
		c->kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
		if (!c->kdf || !(c->kdfctx = EVP_KDF_CTX_new(c->kdf)))
			return bench_ossl_error("HKDF");
		mode = p->kind == K_HKDF ? EVP_KDF_HKDF_MODE_EXTRACT_AND_EXPAND
					 : EVP_KDF_HKDF_MODE_EXPAND_ONLY;
		set[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)p->md, 0);
		set[1] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
		set[2] = OSSL_PARAM_construct_end();
		if (EVP_KDF_CTX_set_params(c->kdfctx, set) != 1)
			return bench_ossl_error("HKDF params");
		q = c->params;
		if (p->kind == K_HKDF) {
			*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, b->ikm,
								 sizeof(b->ikm));
			*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, b->salt,
								 sizeof(b->salt));
		} else {
			/* the PRK is keyed once, outside the timed loop */
			set[0] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, b->prk,
								   sizeof(b->prk));
			set[1] = OSSL_PARAM_construct_end();
			if (EVP_KDF_CTX_set_params(c->kdfctx, set) != 1)
				return bench_ossl_error("HKDF key");
		}
		*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, b->info,
							 sizeof(b->info));
		*q = OSSL_PARAM_construct_end();
		break;
	case K_PBKDF2:
		break;
	}
	err = ossl_hash_one(c);
	if (err)
		return err;
	bench_check_set(chk, b->out, p->outlen);
	return 0;
}

static int ossl_hash_run(void *arg, uint64_t n)
{
	struct ossl_hash *c = arg;
	int err;

	for (uint64_t i = 0; i < n; i++) {
		err = ossl_hash_one(c);
		if (err)
			return err;
		bench_consume(c->b.out);
	}
	return 0;
}

static const struct bench_impl ossl_hash = {
	ossl_hash_setup, ossl_hash_run, ossl_hash_teardown, NULL,
};

/* ---- libsodium ----------------------------------------------------------- */

struct sod_hash {
	const struct hash_param *p;
	struct hash_bufs b;
};

static void sod_hash_teardown(void *arg)
{
	struct sod_hash *c = arg;

	free(c->b.msg);
	free(c);
}

static int sod_hash_one(struct sod_hash *c)
{
	struct hash_bufs *b = &c->b;

	switch (c->p->kind) {
	case K_HASH:
		if (c->p->outlen == 32)
			return crypto_hash_sha256(b->out, b->msg, b->len) ? -EIO : 0;
		return crypto_hash_sha512(b->out, b->msg, b->len) ? -EIO : 0;
	case K_HMAC:
		return crypto_auth_hmacsha256(b->out, b->msg, b->len, b->key) ? -EIO : 0;
#ifdef crypto_kdf_hkdf_sha256_KEYBYTES
	case K_HKDF:
		if (crypto_kdf_hkdf_sha256_extract(b->prk, b->salt, sizeof(b->salt), b->ikm,
						   sizeof(b->ikm)))
			return -EIO;
		/* fall through */
	case K_HKDF_EXPAND:
		return crypto_kdf_hkdf_sha256_expand(b->out, c->p->outlen, (const char *)b->info,
						     sizeof(b->info), b->prk) ? -EIO : 0;
#endif
	default:
		return -ENOENT;
	}
}

static int sod_hash_setup(const struct bench_row *row, const char *alg, void **ctx,
			  struct bench_check *chk)
{
	const struct hash_param *p = row->param;
	struct sod_hash *c;
	int err;

	(void)alg;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	*ctx = c;
	c->p = p;
	hash_bufs_init(&c->b, row);
	err = sod_hash_one(c);
	if (err)
		return err;
	bench_check_set(chk, c->b.out, p->outlen);
	return 0;
}

static int sod_hash_run(void *arg, uint64_t n)
{
	struct sod_hash *c = arg;
	int err;

	for (uint64_t i = 0; i < n; i++) {
		err = sod_hash_one(c);
		if (err)
			return err;
		bench_consume(c->b.out);
	}
	return 0;
}

static const struct bench_impl sod_hash = {
	sod_hash_setup, sod_hash_run, sod_hash_teardown, NULL,
};

/* ---- rows ---------------------------------------------------------------- */

static const struct hash_param sha256 = { K_HASH, "SHA256", 32 };
static const struct hash_param sha512 = { K_HASH, "SHA512", 64 };
static const struct hash_param hmac256 = { K_HMAC, "SHA256", 32 };
static const struct hash_param hkdf = { K_HKDF, "SHA256", 32 };
static const struct hash_param hkdf_expand = { K_HKDF_EXPAND, "SHA256", 32 };
static const struct hash_param pbkdf2 = { K_PBKDF2, "SHA256", 32 };

#define HROW(op, sz, alg, prm) \
	{ "Hashes and KDFs", op, sz, alg, "shash", &prm, { &rind_hash, &ossl_hash, &sod_hash }, 0 }

const struct bench_row bench_rows_hash[] = {
	HROW("SHA-256", 64, "sha256", sha256),
	HROW("SHA-256", 1350, "sha256", sha256),
	HROW("SHA-256", 16384, "sha256", sha256),
	HROW("SHA-512", 64, "sha512", sha512),
	HROW("SHA-512", 1350, "sha512", sha512),
	HROW("SHA-512", 16384, "sha512", sha512),
	HROW("HMAC-SHA256", 64, "hmac(sha256)", hmac256),
	HROW("HMAC-SHA256", 1350, "hmac(sha256)", hmac256),
	HROW("HKDF-SHA256 extract+expand", 0, "hmac(sha256)", hkdf),
	HROW("HKDF-SHA256 expand", 0, "hmac(sha256)", hkdf_expand),
	HROW("PBKDF2-SHA256 10000 iterations", 0, "hmac(sha256)", pbkdf2),
	{ .op = NULL }
};
