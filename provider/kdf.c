// SPDX-License-Identifier: MIT
/*
 * KDFs: HKDF (RFC 5869), TLS13-KDF (HKDF-Expand-Label and the TLS 1.3
 * key schedule's extract step, RFC 8446 7.1, as libssl drives it),
 * PBKDF2 (RFC 8018) and TLS1-PRF (RFC 5246 5, TLS 1.2's P_hash) -- all
 * over the registry's hmac(...) tfms and rind_hkdf_extract/expand and rind_pbkdf2.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "prov.h"

enum kdf_kind { K_HKDF, K_TLS13, K_PBKDF2, K_TLS1PRF };
enum { MODE_EXTRACT_AND_EXPAND = 0, MODE_EXTRACT_ONLY = 1, MODE_EXPAND_ONLY = 2 };

struct buf { uint8_t *p; size_t n; int set; };

struct kctx {
	void *provctx;
	enum kdf_kind kind;
	const struct rind_md *md;
	int mode;
	struct buf key, salt, info, prefix, label, data, pass, seed, secret;
	uint64_t iter;
};

static void bclear(struct buf *b)
{
	rind_clear_free(b->p, b->n);
	b->p = NULL;
	b->n = 0;
	b->set = 0;
}

static int bset(struct buf *b, const void *d, size_t n, int append)
{
	uint8_t *p;
	size_t old = append ? b->n : 0;

	p = malloc(old + n + 1);
	if (!p)
		return 0;
	if (old)
		memcpy(p, b->p, old);
	if (n)
		memcpy(p + old, d, n);
	bclear(b);
	b->p = p;
	b->n = old + n;
	b->set = 1;
	return 1;
}

static int bdup(struct buf *d, const struct buf *s)
{
	memset(d, 0, sizeof(*d));
	if (!s->set)
		return 1;
	return bset(d, s->p, s->n, 0);
}

static void kreset(void *vc)
{
	struct kctx *c = vc;

	bclear(&c->key); bclear(&c->salt); bclear(&c->info); bclear(&c->prefix);
	bclear(&c->label); bclear(&c->data); bclear(&c->pass); bclear(&c->seed);
	bclear(&c->secret);
	c->md = NULL;
	c->mode = MODE_EXTRACT_AND_EXPAND;
	c->iter = 2048;
}

static void *knew(void *provctx, enum kdf_kind kind)
{
	struct kctx *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->provctx = provctx;
	c->kind = kind;
	kreset(c);
	return c;
}

static void kfree(void *vc)
{
	if (!vc)
		return;
	kreset(vc);
	free(vc);
}

static void *kdup(void *vc)
{
	struct kctx *c = vc, *d = malloc(sizeof(*d));

	if (!d)
		return NULL;
	*d = *c;
	if (!bdup(&d->key, &c->key) || !bdup(&d->salt, &c->salt) || !bdup(&d->info, &c->info)
	    || !bdup(&d->prefix, &c->prefix) || !bdup(&d->label, &c->label) || !bdup(&d->data, &c->data)
	    || !bdup(&d->pass, &c->pass) || !bdup(&d->seed, &c->seed) || !bdup(&d->secret, &c->secret)) {
		kfree(d);
		return NULL;
	}
	return d;
}

static int set_one(const OSSL_PARAM *params, const char *key, struct buf *b)
{
	const OSSL_PARAM *p = rp_locate_c(params, key);
	const void *d;
	size_t n;

	if (!p)
		return 1;
	return rp_get_octets(p, &d, &n) && bset(b, d, n, 0);
}

/* Every occurrence of @key, concatenated (HKDF info, TLS1-PRF seed). */
static int set_all(const OSSL_PARAM *params, const char *key, struct buf *b)
{
	const OSSL_PARAM *p;
	int first = 1;

	for (p = params; p && p->key; p++) {
		const void *d;
		size_t n;

		if (strcmp(p->key, key))
			continue;
		if (!rp_get_octets(p, &d, &n) || !bset(b, d, n, !first))
			return 0;
		first = 0;
	}
	return 1;
}

static int kset(void *vc, const OSSL_PARAM params[])
{
	struct kctx *c = vc;
	const OSSL_PARAM *p;
	const char *s;

	if (!params)
		return 1;
	if ((p = rp_locate_c(params, OSSL_KDF_PARAM_DIGEST))) {
		const struct rind_md *m;

		if (!rp_get_utf8(p, &s) || !(m = rind_md_by_name(s))) {
			rind_raise(c->provctx, RIND_R_FAIL, "digest not offered by rind");
			return 0;
		}
		c->md = m;
	}
	if ((p = rp_locate_c(params, OSSL_KDF_PARAM_MODE))) {
		int m;

		if (p->data_type == OSSL_PARAM_UTF8_STRING && rp_get_utf8(p, &s)) {
			if (!strcasecmp(s, "EXTRACT_AND_EXPAND"))
				m = MODE_EXTRACT_AND_EXPAND;
			else if (!strcasecmp(s, "EXTRACT_ONLY"))
				m = MODE_EXTRACT_ONLY;
			else if (!strcasecmp(s, "EXPAND_ONLY"))
				m = MODE_EXPAND_ONLY;
			else
				return 0;
		} else if (!rp_get_int(p, &m) || m < 0 || m > 2) {
			return 0;
		}
		c->mode = m;
	}
	if ((p = rp_locate_c(params, OSSL_KDF_PARAM_ITER))) {
		int64_t it;

		if (!rp_get_i64(p, &it) || it < 1 || it > 0xffffffffLL)
			return 0;
		c->iter = (uint64_t)it;
	}
	if (!set_one(params, OSSL_KDF_PARAM_KEY, &c->key) || !set_one(params, OSSL_KDF_PARAM_SALT, &c->salt)
	    || !set_one(params, OSSL_KDF_PARAM_PREFIX, &c->prefix) || !set_one(params, OSSL_KDF_PARAM_LABEL, &c->label)
	    || !set_one(params, OSSL_KDF_PARAM_DATA, &c->data) || !set_one(params, OSSL_KDF_PARAM_PASSWORD, &c->pass)
	    || !set_one(params, OSSL_KDF_PARAM_SECRET, &c->secret)
	    || !set_all(params, OSSL_KDF_PARAM_INFO, &c->info) || !set_all(params, OSSL_KDF_PARAM_SEED, &c->seed))
		return 0;
	return 1;
}

static struct crypto_shash *hmac_tfm(struct kctx *c)
{
	struct crypto_shash *t;

	if (!c->md)
		return NULL;
	t = crypto_alloc_shash(c->md->hmac, 0, 0);
	return IS_ERR(t) ? NULL : t;
}

static int hkdf_extract(struct crypto_shash *t, const struct buf *salt, const struct buf *ikm, uint8_t *prk)
{
	return rind_hkdf_extract(t, ikm->p, (unsigned int)ikm->n, salt->p, (unsigned int)salt->n, prk) == 0;
}

static int hkdf_expand(struct crypto_shash *t, const uint8_t *prk, size_t prklen,
		       const uint8_t *info, size_t infolen, uint8_t *out, size_t outlen)
{
	if (outlen > 0xffffffffu || crypto_shash_setkey(t, prk, (unsigned int)prklen))
		return 0;
	return rind_hkdf_expand(t, info, (unsigned int)infolen, out, (unsigned int)outlen) == 0;
}

static int derive_hkdf(struct kctx *c, struct crypto_shash *t, uint8_t *out, size_t outlen)
{
	uint8_t prk[HASH_MAX_DIGESTSIZE];
	int ok;

	if (!c->key.set)
		return 0;
	switch (c->mode) {
	case MODE_EXTRACT_ONLY:
		if (outlen != c->md->size)
			return 0;
		return hkdf_extract(t, &c->salt, &c->key, out);
	case MODE_EXPAND_ONLY:
		return hkdf_expand(t, c->key.p, c->key.n, c->info.p, c->info.n, out, outlen);
	default:
		ok = hkdf_extract(t, &c->salt, &c->key, prk)
			&& hkdf_expand(t, prk, c->md->size, c->info.p, c->info.n, out, outlen);
		rind_memzero_explicit(prk, sizeof(prk));
		return ok;
	}
}

/* HKDF-Expand-Label(secret, label, data, outlen) with the given prefix ("tls13 "). */
static int expand_label(struct crypto_shash *t, const struct buf *prefix, const struct buf *label,
			const uint8_t *secret, size_t secretlen,
			const uint8_t *data, size_t datalen, uint8_t *out, size_t outlen)
{
	uint8_t hl[2 + 1 + 255 + 1 + 255];
	size_t n = 0;

	if (prefix->n + label->n > 255 || datalen > 255 || outlen > 0xffff)
		return 0;
	hl[n++] = (uint8_t)(outlen >> 8);
	hl[n++] = (uint8_t)outlen;
	hl[n++] = (uint8_t)(prefix->n + label->n);
	if (prefix->n)
		memcpy(hl + n, prefix->p, prefix->n);
	n += prefix->n;
	if (label->n)
		memcpy(hl + n, label->p, label->n);
	n += label->n;
	hl[n++] = (uint8_t)datalen;
	if (datalen)
		memcpy(hl + n, data, datalen);
	n += datalen;
	return hkdf_expand(t, secret, secretlen, hl, n, out, outlen);
}

/*
 * Hash("") of @md, which every TLS 1.3 extract with a previous secret
 * needs: a public constant, computed once per digest (libssl asks twice
 * per handshake, and a tfm per ask cost an allocation and a lookup).
 */
static int empty_hash(const struct rind_md *md, uint8_t *out)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct { const struct rind_md *md; uint8_t h[HASH_MAX_DIGESTSIZE]; } memo[8];
	struct crypto_shash *h;
	unsigned int i;
	int ok;

	pthread_mutex_lock(&lock);
	for (i = 0; i < 8 && memo[i].md; i++) {
		if (memo[i].md == md) {
			memcpy(out, memo[i].h, md->size);
			pthread_mutex_unlock(&lock);
			return 1;
		}
	}
	h = crypto_alloc_shash(md->rind, 0, 0);
	ok = !IS_ERR(h) && crypto_shash_tfm_digest(h, NULL, 0, out) == 0;
	if (!IS_ERR(h))
		crypto_free_shash(h);
	if (ok && i < 8) {
		memcpy(memo[i].h, out, md->size);
		memo[i].md = md;
	}
	pthread_mutex_unlock(&lock);
	return ok;
}

static int derive_tls13(struct kctx *c, struct crypto_shash *t, uint8_t *out, size_t outlen)
{
	static const uint8_t zeros[HASH_MAX_DIGESTSIZE];
	uint8_t hash[HASH_MAX_DIGESTSIZE], derived[HASH_MAX_DIGESTSIZE];
	struct buf ikm, salt;
	int ok;

	if (c->mode == MODE_EXPAND_ONLY) {
		if (!c->key.set)
			return 0;
		return expand_label(t, &c->prefix, &c->label, c->key.p, c->key.n,
				    c->data.p, c->data.n, out, outlen);
	}
	if (c->mode != MODE_EXTRACT_ONLY || outlen != c->md->size)
		return 0;
	/* No input secret is a hash-length string of zeros (RFC 8446 7.1). */
	ikm = c->key.set ? c->key : (struct buf){ (uint8_t *)zeros, c->md->size, 1 };
	if (!c->salt.set) {
		salt = (struct buf){ (uint8_t *)zeros, 0, 1 };
		return hkdf_extract(t, &salt, &ikm, out);
	}
	/* With a previous secret the salt is Derive-Secret(prev, label, ""). */
	ok = empty_hash(c->md, hash);
	ok = ok && expand_label(t, &c->prefix, &c->label, c->salt.p, c->salt.n,
				hash, c->md->size, derived, c->md->size);
	salt = (struct buf){ derived, c->md->size, 1 };
	ok = ok && hkdf_extract(t, &salt, &ikm, out);
	rind_memzero_explicit(derived, sizeof(derived));
	return ok;
}

/* TLS 1.2 PRF: P_hash(secret, seed), the label being the seed's first part. */
static int derive_tls1prf(struct kctx *c, struct crypto_shash *t, uint8_t *out, size_t outlen)
{
	uint8_t a[HASH_MAX_DIGESTSIZE], blk[HASH_MAX_DIGESTSIZE];
	unsigned int hl = c->md->size;
	SHASH_DESC_ON_STACK(desc, t);
	int ok = 0;

	if (!c->secret.set || !c->seed.set || crypto_shash_setkey(t, c->secret.p, (unsigned int)c->secret.n))
		return 0;
	desc->tfm = t;
	/* A(1) = HMAC(secret, seed) */
	if (crypto_shash_digest(desc, c->seed.p, (unsigned int)c->seed.n, a))
		goto out;
	while (outlen) {
		size_t n = outlen < hl ? outlen : hl;

		if (crypto_shash_init(desc) || crypto_shash_update(desc, a, hl)
		    || crypto_shash_finup(desc, c->seed.p, (unsigned int)c->seed.n, blk))
			goto out;
		memcpy(out, blk, n);
		out += n;
		outlen -= n;
		if (outlen && crypto_shash_digest(desc, a, hl, a))
			goto out;
	}
	ok = 1;
out:
	shash_desc_zero(desc);
	rind_memzero_explicit(a, sizeof(a));
	rind_memzero_explicit(blk, sizeof(blk));
	return ok;
}

static const char *const kind_name[] = { "HKDF", "TLS13-KDF", "PBKDF2", "TLS1-PRF" };

static int kderive(void *vc, unsigned char *key, size_t keylen, const OSSL_PARAM params[])
{
	struct kctx *c = vc;
	struct crypto_shash *t;
	int ok = 0;

	if (!kset(c, params))
		return 0;
	if (!c->md) {
		rind_raise(c->provctx, RIND_R_FAIL, "%s: no digest set", kind_name[c->kind]);
		return 0;
	}
	if (!keylen || !(t = hmac_tfm(c)))
		return 0;
	RTRACE("kdf %s %s mode %d (%s)", kind_name[c->kind], c->md->rind, c->mode, crypto_shash_driver_name(t));
	switch (c->kind) {
	case K_HKDF:
		ok = derive_hkdf(c, t, key, keylen);
		break;
	case K_TLS13:
		ok = derive_tls13(c, t, key, keylen);
		break;
	case K_PBKDF2:
		ok = c->pass.set && c->salt.set && keylen <= 0xffffffffu
			&& rind_pbkdf2(t, c->pass.p, (unsigned int)c->pass.n, c->salt.p, (unsigned int)c->salt.n,
				       (unsigned int)c->iter, key, (unsigned int)keylen) == 0;
		break;
	case K_TLS1PRF:
		ok = derive_tls1prf(c, t, key, keylen);
		break;
	}
	crypto_free_shash(t);
	return ok;
}

static int kget_ctx(void *vc, OSSL_PARAM params[])
{
	struct kctx *c = vc;
	size_t sz = SIZE_MAX;

	if ((c->kind == K_HKDF || c->kind == K_TLS13) && c->mode == MODE_EXTRACT_ONLY && c->md)
		sz = c->md->size;
	return rp_put_size_t(params, OSSL_KDF_PARAM_SIZE, sz);
}

#define OCT(k) { k, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 }
#define UTF(k) { k, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 }
static const OSSL_PARAM hkdf_settable[] = {
	UTF(OSSL_KDF_PARAM_MODE), { OSSL_KDF_PARAM_MODE, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	UTF(OSSL_KDF_PARAM_PROPERTIES), UTF(OSSL_KDF_PARAM_DIGEST),
	OCT(OSSL_KDF_PARAM_KEY), OCT(OSSL_KDF_PARAM_SALT), OCT(OSSL_KDF_PARAM_INFO),
	OCT(OSSL_KDF_PARAM_PREFIX), OCT(OSSL_KDF_PARAM_LABEL), OCT(OSSL_KDF_PARAM_DATA),
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM pbkdf2_settable[] = {
	UTF(OSSL_KDF_PARAM_PROPERTIES), UTF(OSSL_KDF_PARAM_DIGEST),
	OCT(OSSL_KDF_PARAM_PASSWORD), OCT(OSSL_KDF_PARAM_SALT),
	{ OSSL_KDF_PARAM_ITER, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(uint64_t), 0 },
	{ OSSL_KDF_PARAM_PKCS5, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM prf_settable[] = {
	UTF(OSSL_KDF_PARAM_PROPERTIES), UTF(OSSL_KDF_PARAM_DIGEST),
	OCT(OSSL_KDF_PARAM_SECRET), OCT(OSSL_KDF_PARAM_SEED),
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM k_gettable[] = {
	{ OSSL_KDF_PARAM_SIZE, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ NULL, 0, NULL, 0, 0 }
};

static const OSSL_PARAM *hkdf_settable_fn(void *c, void *p) { (void)c; (void)p; return hkdf_settable; }
static const OSSL_PARAM *pbkdf2_settable_fn(void *c, void *p) { (void)c; (void)p; return pbkdf2_settable; }
static const OSSL_PARAM *prf_settable_fn(void *c, void *p) { (void)c; (void)p; return prf_settable; }
static const OSSL_PARAM *kgettable_fn(void *c, void *p) { (void)c; (void)p; return k_gettable; }

#define KDF(sym, kind, settable)						\
static void *sym##_new(void *provctx) { return knew(provctx, kind); }		\
static const OSSL_DISPATCH sym##_fns[] = {					\
	{ OSSL_FUNC_KDF_NEWCTX, (void (*)(void))sym##_new },			\
	{ OSSL_FUNC_KDF_DUPCTX, (void (*)(void))kdup },				\
	{ OSSL_FUNC_KDF_FREECTX, (void (*)(void))kfree },			\
	{ OSSL_FUNC_KDF_RESET, (void (*)(void))kreset },			\
	{ OSSL_FUNC_KDF_DERIVE, (void (*)(void))kderive },			\
	{ OSSL_FUNC_KDF_SETTABLE_CTX_PARAMS, (void (*)(void))settable },	\
	{ OSSL_FUNC_KDF_SET_CTX_PARAMS, (void (*)(void))kset },			\
	{ OSSL_FUNC_KDF_GETTABLE_CTX_PARAMS, (void (*)(void))kgettable_fn },	\
	{ OSSL_FUNC_KDF_GET_CTX_PARAMS, (void (*)(void))kget_ctx },		\
	{ 0, NULL }								\
};

KDF(hkdf, K_HKDF, hkdf_settable_fn)
KDF(tls13, K_TLS13, hkdf_settable_fn)
KDF(pbkdf2, K_PBKDF2, pbkdf2_settable_fn)
KDF(tls1prf, K_TLS1PRF, prf_settable_fn)

const OSSL_ALGORITHM rind_kdfs[] = {
	{ "HKDF", RIND_PROPS, hkdf_fns, "HKDF (rind)" },
	{ "TLS13-KDF", RIND_PROPS, tls13_fns, "TLS 1.3 key schedule (rind)" },
	{ "PBKDF2:1.2.840.113549.1.5.12", RIND_PROPS, pbkdf2_fns, "PBKDF2 (rind)" },
	{ "TLS1-PRF", RIND_PROPS, tls1prf_fns, "TLS 1.2 PRF (rind)" },
	{ NULL, NULL, NULL, NULL }
};
