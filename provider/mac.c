// SPDX-License-Identifier: MIT
/*
 * MAC: HMAC over the digests of digests.c, as the registry's hmac(...)
 * template.  A keyed tfm belongs to one context (its key is the MAC key).
 */
#include <stdlib.h>
#include <string.h>
#include "prov.h"

struct mctx {
	void *provctx;
	const struct rind_md *md;
	struct crypto_shash *tfm;
	struct shash_desc *desc;
	size_t descsize;
	uint8_t *key;
	size_t keylen;
	int ready;
};

static void *mnew(void *provctx)
{
	struct mctx *c = calloc(1, sizeof(*c));

	if (c)
		c->provctx = provctx;
	return c;
}

static void mdrop_tfm(struct mctx *c)
{
	if (c->desc) {
		rind_memzero_explicit(c->desc, c->descsize);
		free(c->desc);
		c->desc = NULL;
	}
	if (c->tfm)
		crypto_free_shash(c->tfm);
	c->tfm = NULL;
	c->ready = 0;
}

static void mfree(void *vc)
{
	struct mctx *c = vc;

	if (!c)
		return;
	mdrop_tfm(c);
	rind_clear_free(c->key, c->keylen);
	free(c);
}

static int mset_tfm(struct mctx *c)
{
	struct crypto_shash *t;

	mdrop_tfm(c);
	t = crypto_alloc_shash(c->md->hmac, 0, 0);
	if (IS_ERR(t)) {
		rind_raise(c->provctx, RIND_R_FAIL, "no %s in rind", c->md->hmac);
		return 0;
	}
	c->tfm = t;
	c->descsize = sizeof(struct shash_desc) + crypto_shash_descsize(t);
	c->desc = aligned_alloc(16, (c->descsize + 15) & ~(size_t)15);
	if (!c->desc)
		return 0;
	c->desc->tfm = t;
	return 1;
}

static int mkey(struct mctx *c, const unsigned char *key, size_t keylen)
{
	uint8_t *k = malloc(keylen ? keylen : 1);

	if (!k || keylen > 0xffffffffu) {
		free(k);
		return 0;
	}
	memcpy(k, key, keylen);
	rind_clear_free(c->key, c->keylen);
	c->key = k;
	c->keylen = keylen;
	c->ready = 0;
	return 1;
}

static int mset(void *vc, const OSSL_PARAM params[])
{
	struct mctx *c = vc;
	const OSSL_PARAM *p;
	const char *s;
	const void *d;
	size_t n;

	if ((p = rp_locate_c(params, OSSL_MAC_PARAM_DIGEST))) {
		const struct rind_md *m;

		if (!rp_get_utf8(p, &s) || !(m = rind_md_by_name(s))) {
			rind_raise(c->provctx, RIND_R_FAIL, "digest not offered by rind");
			return 0;
		}
		c->md = m;
		mdrop_tfm(c);
	}
	if ((p = rp_locate_c(params, OSSL_MAC_PARAM_KEY))) {
		if (!rp_get_octets(p, &d, &n) || !mkey(c, d, n))
			return 0;
	}
	return 1;
}

static int minit(void *vc, const unsigned char *key, size_t keylen, const OSSL_PARAM params[])
{
	struct mctx *c = vc;

	if (!mset(c, params))
		return 0;
	if (key && !mkey(c, key, keylen))
		return 0;
	if (!c->md || !c->key)
		return 0;
	if (!c->tfm && !mset_tfm(c))
		return 0;
	if (crypto_shash_setkey(c->tfm, c->key, (unsigned int)c->keylen))
		return 0;
	RTRACE("mac HMAC %s (%s)", c->md->rind, crypto_shash_driver_name(c->tfm));
	c->ready = crypto_shash_init(c->desc) == 0;
	return c->ready;
}

static int mupdate(void *vc, const unsigned char *in, size_t inl)
{
	struct mctx *c = vc;

	if (!c->ready)
		return 0;
	while (inl) {
		unsigned int n = inl > (1u << 30) ? 1u << 30 : (unsigned int)inl;

		if (crypto_shash_update(c->desc, in, n))
			return 0;
		in += n;
		inl -= n;
	}
	return 1;
}

static int mfinal(void *vc, unsigned char *out, size_t *outl, size_t outsize)
{
	struct mctx *c = vc;

	if (!c->ready || outsize < c->md->size)
		return 0;
	c->ready = 0;
	if (crypto_shash_final(c->desc, out))
		return 0;
	*outl = c->md->size;
	return 1;
}

static void *mdup(void *vc)
{
	struct mctx *c = vc, *d = mnew(c->provctx);
	uint8_t state[HASH_MAX_STATESIZE];

	if (!d)
		return NULL;
	d->md = c->md;
	if (c->key && !mkey(d, c->key, c->keylen))
		goto fail;
	if (c->tfm) {
		if (!mset_tfm(d) || crypto_shash_setkey(d->tfm, d->key, (unsigned int)d->keylen))
			goto fail;
		if (c->ready) {
			/* The state moves by export/import: the descriptor may point into its tfm. */
			if (crypto_shash_export(c->desc, state) || crypto_shash_import(d->desc, state))
				goto fail;
			d->ready = 1;
		}
	}
	rind_memzero_explicit(state, sizeof(state));
	return d;
fail:
	rind_memzero_explicit(state, sizeof(state));
	mfree(d);
	return NULL;
}

static int mget_ctx(void *vc, OSSL_PARAM params[])
{
	struct mctx *c = vc;

	return rp_put_size_t(params, OSSL_MAC_PARAM_SIZE, c->md ? c->md->size : 0)
		&& rp_put_size_t(params, OSSL_MAC_PARAM_BLOCK_SIZE, c->md ? c->md->blocksize : 0);
}

static const OSSL_PARAM m_gettable_ctx[] = {
	{ OSSL_MAC_PARAM_SIZE, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ OSSL_MAC_PARAM_BLOCK_SIZE, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM m_settable_ctx[] = {
	{ OSSL_MAC_PARAM_DIGEST, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_MAC_PARAM_PROPERTIES, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_MAC_PARAM_KEY, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};

static const OSSL_PARAM *mgettable_ctx(void *c, void *p) { (void)c; (void)p; return m_gettable_ctx; }
static const OSSL_PARAM *msettable_ctx(void *c, void *p) { (void)c; (void)p; return m_settable_ctx; }

static const OSSL_DISPATCH hmac_fns[] = {
	{ OSSL_FUNC_MAC_NEWCTX, (void (*)(void))mnew },
	{ OSSL_FUNC_MAC_DUPCTX, (void (*)(void))mdup },
	{ OSSL_FUNC_MAC_FREECTX, (void (*)(void))mfree },
	{ OSSL_FUNC_MAC_INIT, (void (*)(void))minit },
	{ OSSL_FUNC_MAC_UPDATE, (void (*)(void))mupdate },
	{ OSSL_FUNC_MAC_FINAL, (void (*)(void))mfinal },
	{ OSSL_FUNC_MAC_GET_CTX_PARAMS, (void (*)(void))mget_ctx },
	{ OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS, (void (*)(void))mgettable_ctx },
	{ OSSL_FUNC_MAC_SET_CTX_PARAMS, (void (*)(void))mset },
	{ OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, (void (*)(void))msettable_ctx },
	{ 0, NULL }
};

const OSSL_ALGORITHM rind_macs[] = {
	{ "HMAC", RIND_PROPS, hmac_fns, "HMAC (rind)" },
	{ NULL, NULL, NULL, NULL }
};
