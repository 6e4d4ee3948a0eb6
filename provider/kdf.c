// SPDX-License-Identifier: MIT
/*
 * KDFs: HKDF (RFC 5869), TLS13-KDF (HKDF-Expand-Label and the TLS 1.3
 * key schedule's extract step, RFC 8446 7.1, as libssl drives it),
 * PBKDF2 (RFC 8018) and TLS1-PRF (RFC 5246 5, TLS 1.2's P_hash).
 *
 * What a derive costs besides its hashing.  libssl creates a context for
 * each key-schedule step, sets its parameters, derives once and frees it,
 * ~20 times a handshake, so that is what is kept small: HKDF, TLS13-KDF
 * and TLS1-PRF compute their HMACs with hmac.c (the keyed state on the
 * derive's stack, over the digest's shared unkeyed tfm: no tfm allocated,
 * no registry lookup), the parameters are read in one pass (rp_scan), the
 * digest name is parsed (rind_md_by_name), and parameters of up to
 * BUF_INLINE bytes (TLS's secrets, labels, hashes) are kept in the context
 * itself, wiped on reset or free as far as they were used.  PBKDF2 keeps
 * the registry's hmac tfm (rind_pbkdf2 takes one; its iterations dwarf an
 * allocation).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "prov.h"
#include "hmac.h"

enum kdf_kind { K_HKDF, K_TLS13, K_PBKDF2, K_TLS1PRF };
enum { MODE_EXTRACT_AND_EXPAND = 0, MODE_EXTRACT_ONLY = 1, MODE_EXPAND_ONLY = 2 };

#define BUF_INLINE 64

/* p is in[] for up to BUF_INLINE bytes, else the heap. */
struct buf { uint8_t *p; size_t n; int set; uint8_t in[BUF_INLINE]; };

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
	if (b->p == b->in)
		rind_memzero_explicit(b->in, b->n);
	else
		rind_clear_free(b->p, b->n);
	b->p = NULL;
	b->n = 0;
	b->set = 0;
}

static int bset(struct buf *b, const void *d, size_t n, int append)
{
	uint8_t *p;
	size_t old = append ? b->n : 0;

	if (old + n < n)
		return 0;
	if (old + n <= BUF_INLINE) {
		/* Appending in place, or a new value over the old one. */
		if (!old && b->n)
			bclear(b);
		if (n)
			memcpy(b->in + old, d, n);
		b->p = b->in;
		b->n = old + n;
		b->set = 1;
		return 1;
	}
	p = malloc(old + n);
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

/* @d is a byte copy of the context holding @s: give it its own bytes. */
static int bdup(struct buf *d, const struct buf *s)
{
	d->p = NULL;
	d->n = 0;
	d->set = 0;
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

/* A buffer's inline bytes need no zeroing: only the first n are ever read. */
static void binit(struct buf *b)
{
	b->p = NULL;
	b->n = 0;
	b->set = 0;
}

static void *knew(void *provctx, enum kdf_kind kind)
{
	struct kctx *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	c->provctx = provctx;
	c->kind = kind;
	binit(&c->key); binit(&c->salt); binit(&c->info); binit(&c->prefix);
	binit(&c->label); binit(&c->data); binit(&c->pass); binit(&c->seed);
	binit(&c->secret);
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
	struct kctx *c = vc, *d = knew(c->provctx, c->kind);

	if (!d)
		return NULL;
	d->md = c->md;
	d->mode = c->mode;
	d->iter = c->iter;
	/* Every buffer of @d starts empty (knew): kfree() is right after any failure. */
	if (!bdup(&d->key, &c->key) || !bdup(&d->salt, &c->salt) || !bdup(&d->info, &c->info)
	    || !bdup(&d->prefix, &c->prefix) || !bdup(&d->label, &c->label) || !bdup(&d->data, &c->data)
	    || !bdup(&d->pass, &c->pass) || !bdup(&d->seed, &c->seed) || !bdup(&d->secret, &c->secret)) {
		kfree(d);
		return NULL;
	}
	return d;
}

enum {
	KP_DIGEST, KP_MODE, KP_ITER, KP_KEY, KP_SALT, KP_PREFIX, KP_LABEL, KP_DATA,
	KP_PASS, KP_SECRET, KP_INFO, KP_SEED, KP_N
};
static const char *const kp_names[KP_N] = {
	[KP_DIGEST] = OSSL_KDF_PARAM_DIGEST, [KP_MODE] = OSSL_KDF_PARAM_MODE,
	[KP_ITER] = OSSL_KDF_PARAM_ITER, [KP_KEY] = OSSL_KDF_PARAM_KEY,
	[KP_SALT] = OSSL_KDF_PARAM_SALT, [KP_PREFIX] = OSSL_KDF_PARAM_PREFIX,
	[KP_LABEL] = OSSL_KDF_PARAM_LABEL, [KP_DATA] = OSSL_KDF_PARAM_DATA,
	[KP_PASS] = OSSL_KDF_PARAM_PASSWORD, [KP_SECRET] = OSSL_KDF_PARAM_SECRET,
	[KP_INFO] = OSSL_KDF_PARAM_INFO, [KP_SEED] = OSSL_KDF_PARAM_SEED,
};

static int set_one(const OSSL_PARAM *p, struct buf *b)
{
	const void *d;
	size_t n;

	if (!p)
		return 1;
	return rp_get_octets(p, &d, &n) && bset(b, d, n, 0);
}

/* Every occurrence of @key from @p on, concatenated (HKDF info, TLS1-PRF seed). */
static int set_all(const OSSL_PARAM *p, const char *key, struct buf *b)
{
	int first = 1;

	for (; p && p->key; p++) {
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
	const OSSL_PARAM *f[KP_N], *p;
	const char *s;

	if (!params)
		return 1;
	rp_scan(params, kp_names, KP_N, f);
	if ((p = f[KP_DIGEST])) {
		const struct rind_md *m;

		if (!rp_get_utf8(p, &s) || !(m = rind_md_by_name(s))) {
			rind_raise(c->provctx, RIND_R_FAIL, "digest not offered by rind");
			return 0;
		}
		c->md = m;
	}
	if ((p = f[KP_MODE])) {
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
	if ((p = f[KP_ITER])) {
		int64_t it;

		if (!rp_get_i64(p, &it) || it < 1 || it > 0xffffffffLL)
			return 0;
		c->iter = (uint64_t)it;
	}
	/* The first INFO/SEED found is where the concatenation starts. */
	if (!set_one(f[KP_KEY], &c->key) || !set_one(f[KP_SALT], &c->salt)
	    || !set_one(f[KP_PREFIX], &c->prefix) || !set_one(f[KP_LABEL], &c->label)
	    || !set_one(f[KP_DATA], &c->data) || !set_one(f[KP_PASS], &c->pass)
	    || !set_one(f[KP_SECRET], &c->secret)
	    || !set_all(f[KP_INFO], OSSL_KDF_PARAM_INFO, &c->info)
	    || !set_all(f[KP_SEED], OSSL_KDF_PARAM_SEED, &c->seed))
		return 0;
	return 1;
}

/* HMAC keyed with @key, one-shot over @msg: HKDF-Extract(salt = @key, IKM = @msg). */
static int hkdf_extract(struct rp_hmac *h, const struct rind_md *md, const struct buf *salt,
			const struct buf *ikm, uint8_t *prk)
{
	/* No salt is a hash-length string of zeros: the same K' as an empty key. */
	return rp_hmac_setkey(h, md, salt->p, salt->n) && rp_hmac(h, ikm->p, ikm->n, NULL, 0, NULL, 0, prk);
}

static int hkdf_expand(struct rp_hmac *h, const struct rind_md *md, const uint8_t *prk, size_t prklen,
		       const uint8_t *info, size_t infolen, uint8_t *out, size_t outlen)
{
	return rp_hmac_setkey(h, md, prk, prklen) && rp_hkdf_expand(h, info, infolen, out, outlen);
}

static int derive_hkdf(struct kctx *c, struct rp_hmac *h, uint8_t *out, size_t outlen)
{
	uint8_t prk[HASH_MAX_DIGESTSIZE];
	int ok;

	if (!c->key.set)
		return 0;
	switch (c->mode) {
	case MODE_EXTRACT_ONLY:
		if (outlen != c->md->size)
			return 0;
		return hkdf_extract(h, c->md, &c->salt, &c->key, out);
	case MODE_EXPAND_ONLY:
		return hkdf_expand(h, c->md, c->key.p, c->key.n, c->info.p, c->info.n, out, outlen);
	default:
		ok = hkdf_extract(h, c->md, &c->salt, &c->key, prk)
			&& hkdf_expand(h, c->md, prk, c->md->size, c->info.p, c->info.n, out, outlen);
		rind_memzero_explicit(prk, c->md->size);
		return ok;
	}
}

/* HKDF-Expand-Label(secret, label, data, outlen) with the given prefix ("tls13 "). */
static int expand_label(struct rp_hmac *h, const struct rind_md *md, const struct buf *prefix,
			const struct buf *label, const uint8_t *secret, size_t secretlen,
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
	return hkdf_expand(h, md, secret, secretlen, hl, n, out, outlen);
}

/*
 * Hash("") of @md, which every TLS 1.3 extract with a previous secret
 * needs: a public constant, computed once per digest (libssl asks twice
 * per handshake).  No lock: the first thread to claim an entry fills it
 * and publishes it; until then (and in a child forked while it was being
 * filled) a caller computes its own.
 */
static int empty_hash(const struct rind_md *md, uint8_t *out)
{
	enum { EMPTY, FILLING, READY };
	static struct { int state; uint8_t h[HASH_MAX_DIGESTSIZE]; } memo[RIND_MD_N];
	unsigned int i = rind_md_index(md);
	struct crypto_shash *t;
	int st = EMPTY;

	if (__atomic_load_n(&memo[i].state, __ATOMIC_ACQUIRE) == READY) {
		memcpy(out, memo[i].h, md->size);
		return 1;
	}
	if (!(t = rind_md_hash(md)) || crypto_shash_tfm_digest(t, NULL, 0, out))
		return 0;
	if (__atomic_compare_exchange_n(&memo[i].state, &st, FILLING, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		memcpy(memo[i].h, out, md->size);
		__atomic_store_n(&memo[i].state, READY, __ATOMIC_RELEASE);
	}
	return 1;
}

static int derive_tls13(struct kctx *c, struct rp_hmac *h, uint8_t *out, size_t outlen)
{
	static const uint8_t zeros[HASH_MAX_DIGESTSIZE];
	uint8_t hash[HASH_MAX_DIGESTSIZE], derived[HASH_MAX_DIGESTSIZE];
	struct buf ikm, salt;
	int ok;

	if (c->mode == MODE_EXPAND_ONLY) {
		if (!c->key.set)
			return 0;
		return expand_label(h, c->md, &c->prefix, &c->label, c->key.p, c->key.n,
				    c->data.p, c->data.n, out, outlen);
	}
	if (c->mode != MODE_EXTRACT_ONLY || outlen != c->md->size)
		return 0;
	/* No input secret is a hash-length string of zeros (RFC 8446 7.1). */
	ikm.p = c->key.set ? c->key.p : (uint8_t *)zeros;
	ikm.n = c->key.set ? c->key.n : c->md->size;
	if (!c->salt.set) {
		salt.p = NULL;
		salt.n = 0;
		return hkdf_extract(h, c->md, &salt, &ikm, out);
	}
	/* With a previous secret the salt is Derive-Secret(prev, label, ""). */
	ok = empty_hash(c->md, hash);
	ok = ok && expand_label(h, c->md, &c->prefix, &c->label, c->salt.p, c->salt.n,
				hash, c->md->size, derived, c->md->size);
	salt.p = derived;
	salt.n = c->md->size;
	ok = ok && hkdf_extract(h, c->md, &salt, &ikm, out);
	rind_memzero_explicit(derived, c->md->size);
	return ok;
}

/* TLS 1.2 PRF: P_hash(secret, seed), the label being the seed's first part. */
static int derive_tls1prf(struct kctx *c, struct rp_hmac *h, uint8_t *out, size_t outlen)
{
	uint8_t a[HASH_MAX_DIGESTSIZE], blk[HASH_MAX_DIGESTSIZE];
	unsigned int hl = c->md->size;
	int ok = 0;

	if (!c->secret.set || !c->seed.set || !rp_hmac_setkey(h, c->md, c->secret.p, c->secret.n))
		return 0;
	/* A(1) = HMAC(secret, seed); each block HMAC(secret, A(i) | seed), A(i+1) = HMAC(secret, A(i)) */
	if (!rp_hmac(h, c->seed.p, c->seed.n, NULL, 0, NULL, 0, a))
		goto out;
	while (outlen) {
		size_t n = outlen < hl ? outlen : hl;

		if (!rp_hmac(h, a, hl, c->seed.p, c->seed.n, NULL, 0, blk))
			goto out;
		memcpy(out, blk, n);
		out += n;
		outlen -= n;
		if (outlen && !rp_hmac(h, a, hl, NULL, 0, NULL, 0, a))
			goto out;
	}
	ok = 1;
out:
	rind_memzero_explicit(a, hl);
	rind_memzero_explicit(blk, hl);
	return ok;
}

static const char *const kind_name[] = { "HKDF", "TLS13-KDF", "PBKDF2", "TLS1-PRF" };

static int pbkdf2(struct kctx *c, uint8_t *key, size_t keylen)
{
	struct crypto_shash *t;
	int ok;

	if (!c->pass.set || !c->salt.set || keylen > 0xffffffffu || c->pass.n > 0xffffffffu
	    || c->salt.n > 0xffffffffu)
		return 0;
	t = crypto_alloc_shash(c->md->hmac, 0, 0);
	if (IS_ERR(t))
		return 0;
	ok = rind_pbkdf2(t, c->pass.p, (unsigned int)c->pass.n, c->salt.p, (unsigned int)c->salt.n,
			 (unsigned int)c->iter, key, (unsigned int)keylen) == 0;
	crypto_free_shash(t);
	return ok;
}

static int kderive(void *vc, unsigned char *key, size_t keylen, const OSSL_PARAM params[])
{
	struct kctx *c = vc;
	struct crypto_shash *t;
	struct rp_hmac h;
	int ok = 0;

	if (!kset(c, params))
		return 0;
	if (!c->md) {
		rind_raise(c->provctx, RIND_R_FAIL, "%s: no digest set", kind_name[c->kind]);
		return 0;
	}
	if (!keylen || !(t = rind_md_hash(c->md)))
		return 0;
	RTRACE("kdf %s %s mode %d (hmac(%s))", kind_name[c->kind], c->md->rind, c->mode, crypto_shash_driver_name(t));
	h.alg = NULL;
	switch (c->kind) {
	case K_HKDF:
		ok = derive_hkdf(c, &h, key, keylen);
		break;
	case K_TLS13:
		ok = derive_tls13(c, &h, key, keylen);
		break;
	case K_PBKDF2:
		return pbkdf2(c, key, keylen);
	case K_TLS1PRF:
		ok = derive_tls1prf(c, &h, key, keylen);
		break;
	}
	rp_hmac_wipe(&h);
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
