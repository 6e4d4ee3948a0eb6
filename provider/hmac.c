// SPDX-License-Identifier: MIT
/*
 * HMAC (RFC 2104) and HKDF-Expand (RFC 5869) for the provider's MAC and
 * KDFs, over one shared, unkeyed hash tfm per digest.
 *
 * Why not an hmac(...) tfm per operation: libssl creates, uses once and
 * frees a KDF context for each of the ~20 steps of a TLS 1.3 key schedule,
 * and a tfm per step was a registry lookup under its lock, two allocations
 * (the hmac tfm and its inner hash's), their zeroing and their wipes --
 * about as much as the step's hashing (measured with callgrind: see
 * README.md).  Keeping keyed hmac tfms in a free list instead would leave
 * the last key's pad states in memory after its context is gone, and
 * wiping them by re-keying costs the two compressions a new key costs.
 *
 * So the keyed state lives with the caller (struct rp_hmac: the two pad
 * states and a descriptor, on the stack of a derive or in a MAC context),
 * is wiped there -- only the bytes the digest uses -- and the hash is the
 * unkeyed tfm, which holds no secret and no lock and is shared by every
 * thread and inherited by forked children as it is (a tfm's entry points
 * keep all their state in the caller's descriptor).  The hash is driven
 * through its direct entry points (shash_raw_* of <rind/internal/hash.h>)
 * as the library's hmac template drives its inner hash: the front end's
 * per-finish wipe is for callers that do not wipe; rp_hmac_wipe() does it
 * once.  The key is handled as the template does: only its length decides
 * anything, never its bytes.
 *
 * (The pad states are the library's hmac_pad_states(), inline in
 * <rind/internal/hash.h>: the provider links only librind's public names.)
 */
#include <string.h>
#include "prov.h"
#include "hmac.h"

/*
 * Shared by every instance of the provider in the process (one per
 * library context that loads it); freed when the last one is torn down
 * (rind_shared_release: the module may be unloaded after that).
 */
static struct crypto_shash *hash_tfm[RIND_MD_N];

void rind_md_hash_release(void)
{
	unsigned int i;

	for (i = 0; i < RIND_MD_N; i++) {
		struct crypto_shash *t = __atomic_exchange_n(&hash_tfm[i], NULL, __ATOMIC_ACQ_REL);

		if (t)
			crypto_free_shash(t);
	}
}

struct crypto_shash *rind_md_hash(const struct rind_md *m)
{
	unsigned int i = rind_md_index(m);
	struct crypto_shash *t = __atomic_load_n(&hash_tfm[i], __ATOMIC_ACQUIRE), *exp = NULL;

	if (t)
		return t;
	t = crypto_alloc_shash(m->rind, 0, 0);
	if (IS_ERR(t))
		return NULL;
	/* A thread that lost the race frees its own: one tfm per digest. */
	if (!__atomic_compare_exchange_n(&hash_tfm[i], &exp, t, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		crypto_free_shash(t);
		t = exp;
	}
	return t;
}

int rp_hmac_setkey(struct rp_hmac *h, const struct rind_md *m, const uint8_t *key, size_t keylen)
{
	struct crypto_shash *t = rind_md_hash(m);
	unsigned int bs = m->blocksize;
	struct shash_desc *d = &h->d.desc;
	const struct shash_alg *a;
	int err;

	/* @h may hold an earlier key (of another digest): any failure wipes it. */
	if (!t) {
		rp_hmac_wipe(h);
		return 0;
	}
	a = crypto_shash_alg(t);
	if (bs > HMAC_PAD_MAX || a->digestsize != m->size || bs < m->size
	    || shash_raw_statesize(a) > HASH_MAX_STATESIZE || a->descsize > HASH_MAX_DESCSIZE) {
		rp_hmac_wipe(h);
		return 0;
	}
	/* A smaller state or descriptor would not overwrite all of the old one's. */
	if (h->alg && (shash_raw_statesize(a) < h->ss || a->descsize < h->alg->descsize))
		rp_hmac_wipe(h);
	h->alg = a;
	h->tfm = t;
	h->md = m;
	h->ss = shash_raw_statesize(a);
	d->tfm = t;
	/* K' ^ ipad and K' ^ opad hashed, as the library's hmac template does. */
	if (keylen > 0xffffffffu) {
		rp_hmac_wipe(h);
		return 0;
	}
	err = hmac_pad_states(a, d, bs, key, (unsigned int)keylen, h->ist, h->ost);
	if (err) {
		rp_hmac_wipe(h);
		return 0;
	}
	return 1;
}

/* The descriptor may have been wiped since (rp_hmac_clear_desc): its tfm is set again. */
int rp_hmac_init(struct rp_hmac *h)
{
	if (!h->alg)
		return 0;
	h->d.desc.tfm = h->tfm;
	return shash_raw_import(h->alg, &h->d.desc, h->ist) == 0;
}

int rp_hmac_update(struct rp_hmac *h, const uint8_t *p, size_t n)
{
	while (n) {
		unsigned int k = n > (1u << 30) ? 1u << 30 : (unsigned int)n;

		if (h->alg->update(&h->d.desc, p, k))
			return 0;
		p += k;
		n -= k;
	}
	return 1;
}

/* Finish the inner hash in @out, then the outer one over it, in @out. */
int rp_hmac_final(struct rp_hmac *h, uint8_t *out)
{
	const struct shash_alg *a = h->alg;
	struct shash_desc *d = &h->d.desc;

	return a->final(d, out) == 0 && shash_raw_import(a, d, h->ost) == 0
		&& shash_raw_finup(a, d, out, a->digestsize, out) == 0;
}

int rp_hmac(struct rp_hmac *h, const uint8_t *a, size_t an, const uint8_t *b, size_t bn,
	    const uint8_t *c, size_t cn, uint8_t *out)
{
	return rp_hmac_init(h) && rp_hmac_update(h, a, an) && rp_hmac_update(h, b, bn)
		&& rp_hmac_update(h, c, cn) && rp_hmac_final(h, out);
}

int rp_hkdf_expand(struct rp_hmac *h, const uint8_t *info, size_t infolen, uint8_t *out, size_t outlen)
{
	unsigned int hl = h->md->size;
	uint8_t t[HASH_MAX_DIGESTSIZE];
	size_t prev = 0;
	uint8_t i;
	int ok = 1;

	if (outlen > 255 * (size_t)hl)
		return 0;
	/* T(i) = HMAC(PRK, T(i-1) | info | i), T(0) empty; OKM the first outlen bytes. */
	for (i = 1; ok && outlen; i++) {
		size_t n = outlen < hl ? outlen : hl;

		ok = rp_hmac(h, t, prev, info, infolen, &i, 1, t);
		if (ok)
			memcpy(out, t, n);
		out += n;
		outlen -= n;
		prev = hl;
	}
	rind_memzero_explicit(t, hl);
	return ok;
}

void rp_hmac_clear_desc(struct rp_hmac *h)
{
	if (h->alg)
		rind_memzero_explicit(&h->d, sizeof(struct shash_desc) + h->alg->descsize);
}

/* No key (alg NULL): nothing was written (a failed setkey wipes itself). */
void rp_hmac_wipe(struct rp_hmac *h)
{
	if (!h->alg)
		return;
	rind_memzero_explicit(h->ist, h->ss);
	rind_memzero_explicit(h->ost, h->ss);
	rp_hmac_clear_desc(h);
	h->alg = NULL;
}
