// SPDX-License-Identifier: MIT
/*
 * Digests: SHA-1 (as a digest only: no signature here accepts it),
 * SHA-224/256/384/512, SHA3-224/256/384/512 and the XOFs SHAKE-128/256 --
 * each a crypto_shash of the registry.  A keyless tfm may be shared by
 * threads, so each algorithm's tfm is allocated once (on first use) and
 * every context is a descriptor over it.
 *
 * SHAKE: OpenSSL's default output sizes are 16 and 32 bytes (half the
 * registry's 32 and 64: an application that asks no length gets what the
 * default provider gives it); OSSL_DIGEST_PARAM_XOFLEN, which
 * EVP_DigestFinalXOF() sets, chooses any other, and the output comes from
 * rind_shash_final_xof().  One final per context, as OpenSSL 3.0 has it
 * (no EVP_DigestSqueeze).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "prov.h"

enum {
	MD_SHA1, MD_SHA224, MD_SHA256, MD_SHA384, MD_SHA512,
	MD_SHA3_224, MD_SHA3_256, MD_SHA3_384, MD_SHA3_512, MD_SHAKE128, MD_SHAKE256, MD_N
};

static const struct dmd {
	const char *rind;		/* registry name */
	unsigned int size;		/* OpenSSL's output size (the default one for an XOF) */
	unsigned int blocksize;
	int xof;
} dmds[MD_N] = {
	[MD_SHA1] = { "sha1", 20, 64, 0 },
	[MD_SHA224] = { "sha224", 28, 64, 0 },
	[MD_SHA256] = { "sha256", 32, 64, 0 },
	[MD_SHA384] = { "sha384", 48, 128, 0 },
	[MD_SHA512] = { "sha512", 64, 128, 0 },
	[MD_SHA3_224] = { "sha3-224", 28, 144, 0 },
	[MD_SHA3_256] = { "sha3-256", 32, 136, 0 },
	[MD_SHA3_384] = { "sha3-384", 48, 104, 0 },
	[MD_SHA3_512] = { "sha3-512", 64, 72, 0 },
	[MD_SHAKE128] = { "shake128", 16, 168, 1 },
	[MD_SHAKE256] = { "shake256", 32, 136, 1 },
};
static struct crypto_shash *md_tfm[MD_N];

/* The last instance of the provider is gone (prov.c): nothing uses them. */
void rind_digests_release(void)
{
	int i;

	for (i = 0; i < MD_N; i++) {
		struct crypto_shash *t = __atomic_exchange_n(&md_tfm[i], NULL, __ATOMIC_ACQ_REL);

		if (t)
			crypto_free_shash(t);
	}
}

struct dctx {
	const struct dmd *md;
	struct crypto_shash *tfm;
	size_t xoflen;			/* XOF output length (OSSL_DIGEST_PARAM_XOFLEN) */
	size_t descsize;
	struct shash_desc *desc;	/* dbuf */
	/* The descriptor in the same allocation: one malloc per context or dup. */
	uint8_t dbuf[] __attribute__((aligned(16)));
};
/* malloc's alignment is the descriptor's (16: its context holds vector state). */
_Static_assert(_Alignof(max_align_t) >= 16, "malloc alignment");

static struct crypto_shash *shared_tfm(int i)
{
	struct crypto_shash *t = __atomic_load_n(&md_tfm[i], __ATOMIC_ACQUIRE), *exp = NULL;

	if (t)
		return t;
	t = crypto_alloc_shash(dmds[i].rind, 0, 0);
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
	size_t ds;

	if (!t)
		return NULL;
	ds = sizeof(struct shash_desc) + crypto_shash_descsize(t);
	c = malloc(sizeof(*c) + ds);
	if (!c)
		return NULL;
	c->tfm = t;
	c->md = &dmds[i];
	c->xoflen = c->md->size;
	c->descsize = ds;
	c->desc = (struct shash_desc *)c->dbuf;
	c->desc->tfm = t;
	return c;
}

static void dfree(void *vc)
{
	struct dctx *c = vc;

	if (!c)
		return;
	rind_memzero_explicit(c->desc, c->descsize);
	free(c);
}

static void *ddup(void *vc)
{
	struct dctx *c = vc, *d = malloc(sizeof(*c) + c->descsize);

	if (!d)
		return NULL;
	d->md = c->md;
	d->tfm = c->tfm;
	d->xoflen = c->xoflen;
	d->descsize = c->descsize;
	d->desc = (struct shash_desc *)d->dbuf;
	/* The descriptor is the whole state (a tfm pointer and the hash state). */
	memcpy(d->desc, c->desc, c->descsize);
	return d;
}

/* XOFLEN, for the XOFs (their settable list is the only one naming it). */
static int dset_ctx(void *vc, const OSSL_PARAM params[])
{
	struct dctx *c = vc;
	const OSSL_PARAM *p;
	size_t n;

	if (!params)
		return 1;
	p = rp_locate_c(params, OSSL_DIGEST_PARAM_XOFLEN);
	if (p) {
		if (!c->md->xof || !rp_get_size_t(p, &n))
			return 0;
		c->xoflen = n;
	}
	return 1;
}

static const OSSL_PARAM d_xof_settable[] = {
	{ OSSL_DIGEST_PARAM_XOFLEN, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ NULL, 0, NULL, 0, 0 }
};

static const OSSL_PARAM *dxof_settable(void *vc, void *provctx)
{
	(void)vc;
	(void)provctx;
	return d_xof_settable;
}

static int dinit(void *vc, const OSSL_PARAM params[])
{
	struct dctx *c = vc;

	c->xoflen = c->md->size;
	if (!dset_ctx(c, params))
		return 0;
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

	if (c->md->xof) {
		if (outsz < c->xoflen)
			return 0;
		RTRACE("digest %s final, %zu bytes", c->md->rind, c->xoflen);
		if (rind_shash_final_xof(c->desc, out, c->xoflen))
			return 0;
		*outl = c->xoflen;
		return 1;
	}
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
	const struct dmd *m = &dmds[i];

	return rp_put_size_t(params, OSSL_DIGEST_PARAM_BLOCK_SIZE, m->blocksize)
		&& rp_put_size_t(params, OSSL_DIGEST_PARAM_SIZE, m->size)
		&& rp_put_int(params, OSSL_DIGEST_PARAM_XOF, m->xof)
		&& rp_put_int(params, OSSL_DIGEST_PARAM_ALGID_ABSENT, 1);
}

#define DIGEST_FNS(id, sym)							\
	{ OSSL_FUNC_DIGEST_NEWCTX, (void (*)(void))sym##_new },			\
	{ OSSL_FUNC_DIGEST_INIT, (void (*)(void))dinit },			\
	{ OSSL_FUNC_DIGEST_UPDATE, (void (*)(void))dupdate },			\
	{ OSSL_FUNC_DIGEST_FINAL, (void (*)(void))dfinal },			\
	{ OSSL_FUNC_DIGEST_FREECTX, (void (*)(void))dfree },			\
	{ OSSL_FUNC_DIGEST_DUPCTX, (void (*)(void))ddup },			\
	{ OSSL_FUNC_DIGEST_GET_PARAMS, (void (*)(void))sym##_get },		\
	{ OSSL_FUNC_DIGEST_GETTABLE_PARAMS, (void (*)(void))dgettable }

#define DIGEST_NEW(id, sym)							\
static void *sym##_new(void *provctx) { (void)provctx; return dnew(id); }	\
static int sym##_get(OSSL_PARAM params[]) { return dget(id, params); }

#define DIGEST(id, sym)								\
DIGEST_NEW(id, sym)								\
static const OSSL_DISPATCH sym##_fns[] = {					\
	DIGEST_FNS(id, sym),							\
	{ 0, NULL }								\
};

/* An XOF also takes OSSL_DIGEST_PARAM_XOFLEN. */
#define XOF(id, sym)								\
DIGEST_NEW(id, sym)								\
static const OSSL_DISPATCH sym##_fns[] = {					\
	DIGEST_FNS(id, sym),							\
	{ OSSL_FUNC_DIGEST_SET_CTX_PARAMS, (void (*)(void))dset_ctx },		\
	{ OSSL_FUNC_DIGEST_SETTABLE_CTX_PARAMS, (void (*)(void))dxof_settable },	\
	{ 0, NULL }								\
};

DIGEST(MD_SHA1, sha1)
DIGEST(MD_SHA224, sha224)
DIGEST(MD_SHA256, sha256)
DIGEST(MD_SHA384, sha384)
DIGEST(MD_SHA512, sha512)
DIGEST(MD_SHA3_224, sha3_224)
DIGEST(MD_SHA3_256, sha3_256)
DIGEST(MD_SHA3_384, sha3_384)
DIGEST(MD_SHA3_512, sha3_512)
XOF(MD_SHAKE128, shake128)
XOF(MD_SHAKE256, shake256)

/* The names and OIDs of OpenSSL's default provider, so the core joins them. */
const OSSL_ALGORITHM rind_digests[] = {
	{ "SHA1:SHA-1:SSL3-SHA1:1.3.14.3.2.26", RIND_PROPS, sha1_fns, "SHA-1 (rind)" },
	{ "SHA2-224:SHA-224:SHA224:2.16.840.1.101.3.4.2.4", RIND_PROPS, sha224_fns, "SHA-224 (rind)" },
	{ "SHA2-256:SHA-256:SHA256:2.16.840.1.101.3.4.2.1", RIND_PROPS, sha256_fns, "SHA-256 (rind)" },
	{ "SHA2-384:SHA-384:SHA384:2.16.840.1.101.3.4.2.2", RIND_PROPS, sha384_fns, "SHA-384 (rind)" },
	{ "SHA2-512:SHA-512:SHA512:2.16.840.1.101.3.4.2.3", RIND_PROPS, sha512_fns, "SHA-512 (rind)" },
	{ "SHA3-224:2.16.840.1.101.3.4.2.7", RIND_PROPS, sha3_224_fns, "SHA3-224 (rind)" },
	{ "SHA3-256:2.16.840.1.101.3.4.2.8", RIND_PROPS, sha3_256_fns, "SHA3-256 (rind)" },
	{ "SHA3-384:2.16.840.1.101.3.4.2.9", RIND_PROPS, sha3_384_fns, "SHA3-384 (rind)" },
	{ "SHA3-512:2.16.840.1.101.3.4.2.10", RIND_PROPS, sha3_512_fns, "SHA3-512 (rind)" },
	{ "SHAKE-128:SHAKE128:2.16.840.1.101.3.4.2.11", RIND_PROPS, shake128_fns, "SHAKE-128 (rind)" },
	{ "SHAKE-256:SHAKE256:2.16.840.1.101.3.4.2.12", RIND_PROPS, shake256_fns, "SHAKE-256 (rind)" },
	{ NULL, NULL, NULL, NULL }
};
