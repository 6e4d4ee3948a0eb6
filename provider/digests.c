// SPDX-License-Identifier: MIT
/*
 * Digests: SHA-1 (as a digest only: no signature here accepts it),
 * SHA-224/256/384/512, SHA3-256/512 -- each a crypto_shash of the
 * registry.  A keyless tfm may be shared by threads, so each algorithm's
 * tfm is allocated once (on first use) and every context is a descriptor
 * over it.
 */
#include <stdlib.h>
#include <string.h>
#include "prov.h"

struct dctx {
	const struct rind_md *md;
	struct crypto_shash *tfm;
	size_t descsize;
	struct shash_desc *desc;
};

enum { MD_SHA1, MD_SHA224, MD_SHA256, MD_SHA384, MD_SHA512, MD_SHA3_256, MD_SHA3_512, MD_N };
static const char *const md_rind[MD_N] = { "sha1", "sha224", "sha256", "sha384", "sha512", "sha3-256", "sha3-512" };
static struct crypto_shash *md_tfm[MD_N];

static struct crypto_shash *shared_tfm(int i)
{
	struct crypto_shash *t = __atomic_load_n(&md_tfm[i], __ATOMIC_ACQUIRE), *exp = NULL;

	if (t)
		return t;
	t = crypto_alloc_shash(md_rind[i], 0, 0);
	if (IS_ERR(t))
		return NULL;
	if (!__atomic_compare_exchange_n(&md_tfm[i], &exp, t, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		crypto_free_shash(t);
		t = exp;
	}
	return t;
}

static void *dnew(int i)
{
	struct dctx *c;
	struct crypto_shash *t = shared_tfm(i);

	if (!t)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->tfm = t;
	c->md = rind_md_by_name(md_rind[i]);
	c->descsize = sizeof(struct shash_desc) + crypto_shash_descsize(t);
	c->desc = aligned_alloc(16, (c->descsize + 15) & ~(size_t)15);
	if (!c->desc) {
		free(c);
		return NULL;
	}
	c->desc->tfm = t;
	return c;
}

static void dfree(void *vc)
{
	struct dctx *c = vc;

	if (!c)
		return;
	rind_memzero_explicit(c->desc, c->descsize);
	free(c->desc);
	free(c);
}

static void *ddup(void *vc)
{
	struct dctx *c = vc, *d = malloc(sizeof(*d));

	if (!d)
		return NULL;
	*d = *c;
	d->desc = aligned_alloc(16, (c->descsize + 15) & ~(size_t)15);
	if (!d->desc) {
		free(d);
		return NULL;
	}
	/* The descriptor is the whole state (a tfm pointer and the hash state). */
	memcpy(d->desc, c->desc, c->descsize);
	return d;
}

static int dinit(void *vc, const OSSL_PARAM params[])
{
	struct dctx *c = vc;

	(void)params;
	RTRACE("digest %s (%s)", c->md->rind, crypto_shash_driver_name(c->tfm));
	return crypto_shash_init(c->desc) == 0;
}

static int dupdate(void *vc, const unsigned char *in, size_t inl)
{
	struct dctx *c = vc;

	while (inl) {
		unsigned int n = inl > (1u << 30) ? 1u << 30 : (unsigned int)inl;

		if (crypto_shash_update(c->desc, in, n))
			return 0;
		in += n;
		inl -= n;
	}
	return 1;
}

static int dfinal(void *vc, unsigned char *out, size_t *outl, size_t outsz)
{
	struct dctx *c = vc;

	if (outsz < c->md->size)
		return 0;
	if (crypto_shash_final(c->desc, out))
		return 0;
	*outl = c->md->size;
	return 1;
}

static const OSSL_PARAM d_gettable[] = {
	{ OSSL_DIGEST_PARAM_BLOCK_SIZE, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ OSSL_DIGEST_PARAM_SIZE, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ OSSL_DIGEST_PARAM_XOF, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ OSSL_DIGEST_PARAM_ALGID_ABSENT, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ NULL, 0, NULL, 0, 0 }
};

static const OSSL_PARAM *dgettable(void *provctx)
{
	(void)provctx;
	return d_gettable;
}

static int dget(int i, OSSL_PARAM params[])
{
	const struct rind_md *m = rind_md_by_name(md_rind[i]);

	return rp_put_size_t(params, OSSL_DIGEST_PARAM_BLOCK_SIZE, m->blocksize)
		&& rp_put_size_t(params, OSSL_DIGEST_PARAM_SIZE, m->size)
		&& rp_put_int(params, OSSL_DIGEST_PARAM_XOF, 0)
		&& rp_put_int(params, OSSL_DIGEST_PARAM_ALGID_ABSENT, 1);
}

#define DIGEST(id, sym)								\
static void *sym##_new(void *provctx) { (void)provctx; return dnew(id); }	\
static int sym##_get(OSSL_PARAM params[]) { return dget(id, params); }		\
static const OSSL_DISPATCH sym##_fns[] = {					\
	{ OSSL_FUNC_DIGEST_NEWCTX, (void (*)(void))sym##_new },			\
	{ OSSL_FUNC_DIGEST_INIT, (void (*)(void))dinit },			\
	{ OSSL_FUNC_DIGEST_UPDATE, (void (*)(void))dupdate },			\
	{ OSSL_FUNC_DIGEST_FINAL, (void (*)(void))dfinal },			\
	{ OSSL_FUNC_DIGEST_FREECTX, (void (*)(void))dfree },			\
	{ OSSL_FUNC_DIGEST_DUPCTX, (void (*)(void))ddup },			\
	{ OSSL_FUNC_DIGEST_GET_PARAMS, (void (*)(void))sym##_get },		\
	{ OSSL_FUNC_DIGEST_GETTABLE_PARAMS, (void (*)(void))dgettable },	\
	{ 0, NULL }								\
};

DIGEST(MD_SHA1, sha1)
DIGEST(MD_SHA224, sha224)
DIGEST(MD_SHA256, sha256)
DIGEST(MD_SHA384, sha384)
DIGEST(MD_SHA512, sha512)
DIGEST(MD_SHA3_256, sha3_256)
DIGEST(MD_SHA3_512, sha3_512)

const OSSL_ALGORITHM rind_digests[] = {
	{ "SHA1:SHA-1:SSL3-SHA1:1.3.14.3.2.26", RIND_PROPS, sha1_fns, "SHA-1 (rind)" },
	{ "SHA2-224:SHA-224:SHA224:2.16.840.1.101.3.4.2.4", RIND_PROPS, sha224_fns, "SHA-224 (rind)" },
	{ "SHA2-256:SHA-256:SHA256:2.16.840.1.101.3.4.2.1", RIND_PROPS, sha256_fns, "SHA-256 (rind)" },
	{ "SHA2-384:SHA-384:SHA384:2.16.840.1.101.3.4.2.2", RIND_PROPS, sha384_fns, "SHA-384 (rind)" },
	{ "SHA2-512:SHA-512:SHA512:2.16.840.1.101.3.4.2.3", RIND_PROPS, sha512_fns, "SHA-512 (rind)" },
	{ "SHA3-256:2.16.840.1.101.3.4.2.8", RIND_PROPS, sha3_256_fns, "SHA3-256 (rind)" },
	{ "SHA3-512:2.16.840.1.101.3.4.2.10", RIND_PROPS, sha3_512_fns, "SHA3-512 (rind)" },
	{ NULL, NULL, NULL, NULL }
};
