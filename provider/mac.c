// SPDX-License-Identifier: MIT
/*
 * MAC: HMAC over the digests of digests.c, computed by hmac.c (the same
 * construction as the registry's hmac(...) template, over the digest's
 * shared unkeyed tfm, so that a context allocates no tfm).
 */
#include <stdlib.h>
#include <string.h>
#include "prov.h"
#include "hmac.h"

/*
 * The key's pad states and the running state are in the context (struct
 * rp_hmac, over the digest's shared unkeyed tfm: see hmac.c), computed
 * when a key or digest is set and reused by every init after it; the raw
 * key is kept too, for a digest set after the key.
 */
struct mctx {
	void *provctx;
	const struct rind_md *md;
	uint8_t *key;
	size_t keylen;
	int keyed;		/* h holds the states of key under md */
	int ready;
	struct rp_hmac h;
};

/* Not zeroed as a whole: h's states and descriptor are written before they are read. */
static void *mnew(void *provctx)
{
	struct mctx *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	c->provctx = provctx;
	c->md = NULL;
	c->key = NULL;
	c->keylen = 0;
	c->keyed = 0;
	c->ready = 0;
	c->h.alg = NULL;
	return c;
}

static void mfree(void *vc)
{
	struct mctx *c = vc;

	if (!c)
		return;
	rp_hmac_wipe(&c->h);
	rind_clear_free(c->key, c->keylen);
	free(c);
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
	rp_hmac_wipe(&c->h);	/* the old key's states go with it */
	c->key = k;
	c->keylen = keylen;
	c->keyed = 0;
	c->ready = 0;
	return 1;
}

enum { MP_DIGEST, MP_KEY, MP_N };
static const char *const mp_names[MP_N] = { OSSL_MAC_PARAM_DIGEST, OSSL_MAC_PARAM_KEY };

static int mset(void *vc, const OSSL_PARAM params[])
{
	struct mctx *c = vc;
	const OSSL_PARAM *f[MP_N], *p;
	const char *s;
	const void *d;
	size_t n;

	if (!params)
		return 1;
	rp_scan(params, mp_names, MP_N, f);
	if ((p = f[MP_DIGEST])) {
		const struct rind_md *m;

		if (!rp_get_utf8(p, &s) || !(m = rind_md_by_name(s))) {
			rind_raise(c->provctx, RIND_R_FAIL, "digest not offered by rind");
			return 0;
		}
		if (m != c->md) {
			rp_hmac_wipe(&c->h);
			c->md = m;
			c->keyed = 0;
		}
		c->ready = 0;
	}
	if ((p = f[MP_KEY])) {
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
	if (!c->keyed) {
		if (!rind_md_hash(c->md)) {
			rind_raise(c->provctx, RIND_R_FAIL, "no %s in rind", c->md->rind);
			return 0;
		}
		if (!rp_hmac_setkey(&c->h, c->md, c->key, c->keylen))
			return 0;
		c->keyed = 1;
	}
	RTRACE("mac HMAC %s (hmac(%s))", c->md->rind, crypto_shash_driver_name(rind_md_hash(c->md)));
	c->ready = rp_hmac_init(&c->h);
	return c->ready;
}

static int mupdate(void *vc, const unsigned char *in, size_t inl)
{
	struct mctx *c = vc;

	return c->ready && rp_hmac_update(&c->h, in, inl);
}

static int mfinal(void *vc, unsigned char *out, size_t *outl, size_t outsize)
{
	struct mctx *c = vc;
	int ok;

	if (!c->ready || outsize < c->md->size)
		return 0;
	c->ready = 0;
	ok = rp_hmac_final(&c->h, out);
	rp_hmac_clear_desc(&c->h);
	if (!ok)
		return 0;
	*outl = c->md->size;
	return 1;
}

/* The whole state is bytes in the context (the tfm is shared): a copy is a dup. */
static void *mdup(void *vc)
{
	struct mctx *c = vc, *d = malloc(sizeof(*d));

	if (!d)
		return NULL;
	memcpy(d, c, sizeof(*d));
	d->key = NULL;
	d->keylen = 0;
	if (c->key && !(d->key = malloc(c->keylen ? c->keylen : 1))) {
		rp_hmac_wipe(&d->h);
		free(d);
		return NULL;
	}
	if (c->key) {
		memcpy(d->key, c->key, c->keylen);
		d->keylen = c->keylen;
	}
	return d;
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
