// SPDX-License-Identifier: MIT
/*
 * Random source: the registry's "stdrng" (a fast-key-erasure DRBG seeded
 * and reseeded from getrandom(2), safe across fork) as an EVP_RAND named
 * RIND-DRBG.  It draws its own entropy, so any parent OpenSSL gives it is
 * not used; openssl.cnf selects it with "random = RIND-DRBG" in the
 * [random] section (provider/README.md).
 */
#include <pthread.h>
#include <stdlib.h>
#include "prov.h"

struct rctx {
	struct crypto_rng *rng;
	pthread_mutex_t *lock;
	int state;
};

#define RAND_STATE_UNINIT 0
#define RAND_STATE_READY 1
#define RAND_STATE_ERROR 2

static void *rnew(void *provctx, void *parent, const OSSL_DISPATCH *parent_dispatch)
{
	struct rctx *c = calloc(1, sizeof(*c));

	(void)provctx; (void)parent; (void)parent_dispatch;
	return c;
}

static void rfree(void *vc)
{
	struct rctx *c = vc;

	if (!c)
		return;
	if (c->rng)
		crypto_free_rng(c->rng);
	if (c->lock) {
		pthread_mutex_destroy(c->lock);
		free(c->lock);
	}
	free(c);
}

static int rinstantiate(void *vc, unsigned int strength, int pr, const unsigned char *pstr,
			size_t pstrlen, const OSSL_PARAM params[])
{
	struct rctx *c = vc;
	struct crypto_rng *r;

	(void)pr; (void)params;
	if (strength > 256)
		return 0;
	if (!c->rng) {
		r = crypto_alloc_rng("stdrng", 0, 0);
		if (IS_ERR(r)) {
			c->state = RAND_STATE_ERROR;
			return 0;
		}
		c->rng = r;
	}
	/* The personalisation string is mixed in as additional input. */
	if (pstr && pstrlen) {
		uint8_t tmp[32];
		int err = crypto_rng_generate(c->rng, pstr, pstrlen > 256 ? 256 : (unsigned int)pstrlen, tmp, sizeof(tmp));

		rind_memzero_explicit(tmp, sizeof(tmp));
		if (err)
			return 0;
	}
	RTRACE("rand RIND-DRBG instantiate (%s)", crypto_rng_driver_name(c->rng));
	c->state = RAND_STATE_READY;
	return 1;
}

static int runinstantiate(void *vc)
{
	struct rctx *c = vc;

	if (c->rng)
		crypto_free_rng(c->rng);
	c->rng = NULL;
	c->state = RAND_STATE_UNINIT;
	return 1;
}

static int rgenerate(void *vc, unsigned char *out, size_t outlen, unsigned int strength, int pr,
		     const unsigned char *adin, size_t adinlen)
{
	struct rctx *c = vc;

	(void)pr;
	if (c->state != RAND_STATE_READY || strength > 256)
		return 0;
	if (adinlen > 256)
		adinlen = 256;
	while (outlen) {
		unsigned int n = outlen > 65536 ? 65536 : (unsigned int)outlen;

		if (crypto_rng_generate(c->rng, adin, (unsigned int)adinlen, out, n))
			return 0;
		adin = NULL;
		adinlen = 0;
		out += n;
		outlen -= n;
	}
	return 1;
}

static int rreseed(void *vc, int pr, const unsigned char *ent, size_t entlen,
		   const unsigned char *adin, size_t adinlen)
{
	struct rctx *c = vc;
	uint8_t tmp[32];
	int err;

	(void)pr; (void)ent; (void)entlen;
	if (c->state != RAND_STATE_READY)
		return 0;
	/* Fresh entropy from the OS; the caller's input only as additional input. */
	if (crypto_rng_reset(c->rng, NULL, 0))
		return 0;
	if (!adin || !adinlen)
		return 1;
	err = crypto_rng_generate(c->rng, adin, adinlen > 256 ? 256 : (unsigned int)adinlen, tmp, sizeof(tmp));
	rind_memzero_explicit(tmp, sizeof(tmp));
	return !err;
}

static int renable_locking(void *vc)
{
	struct rctx *c = vc;

	if (c->lock)
		return 1;
	c->lock = malloc(sizeof(*c->lock));
	if (!c->lock)
		return 0;
	pthread_mutex_init(c->lock, NULL);
	return 1;
}

static int rlock(void *vc)
{
	struct rctx *c = vc;

	return !c->lock || !pthread_mutex_lock(c->lock);
}

static void runlock(void *vc)
{
	struct rctx *c = vc;

	if (c->lock)
		pthread_mutex_unlock(c->lock);
}

static int rget_ctx(void *vc, OSSL_PARAM params[])
{
	struct rctx *c = vc;

	return rp_put_int(params, OSSL_RAND_PARAM_STATE, c->state)
		&& rp_put_int(params, OSSL_RAND_PARAM_STRENGTH, 256)
		&& rp_put_size_t(params, OSSL_RAND_PARAM_MAX_REQUEST, 1 << 16);
}

static const OSSL_PARAM r_gettable[] = {
	{ OSSL_RAND_PARAM_STATE, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ OSSL_RAND_PARAM_STRENGTH, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(unsigned int), 0 },
	{ OSSL_RAND_PARAM_MAX_REQUEST, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM r_settable[] = { { NULL, 0, NULL, 0, 0 } };

static const OSSL_PARAM *rgettable(void *c, void *p) { (void)c; (void)p; return r_gettable; }
static const OSSL_PARAM *rsettable(void *c, void *p) { (void)c; (void)p; return r_settable; }
/* "cipher", "digest" and the like from a [random] section are accepted and unused. */
static int rset_ctx(void *c, const OSSL_PARAM params[]) { (void)c; (void)params; return 1; }
static int rverify_zero(void *c) { (void)c; return 1; }

static const OSSL_DISPATCH drbg_fns[] = {
	{ OSSL_FUNC_RAND_NEWCTX, (void (*)(void))rnew },
	{ OSSL_FUNC_RAND_FREECTX, (void (*)(void))rfree },
	{ OSSL_FUNC_RAND_INSTANTIATE, (void (*)(void))rinstantiate },
	{ OSSL_FUNC_RAND_UNINSTANTIATE, (void (*)(void))runinstantiate },
	{ OSSL_FUNC_RAND_GENERATE, (void (*)(void))rgenerate },
	{ OSSL_FUNC_RAND_RESEED, (void (*)(void))rreseed },
	{ OSSL_FUNC_RAND_ENABLE_LOCKING, (void (*)(void))renable_locking },
	{ OSSL_FUNC_RAND_LOCK, (void (*)(void))rlock },
	{ OSSL_FUNC_RAND_UNLOCK, (void (*)(void))runlock },
	{ OSSL_FUNC_RAND_GETTABLE_CTX_PARAMS, (void (*)(void))rgettable },
	{ OSSL_FUNC_RAND_GET_CTX_PARAMS, (void (*)(void))rget_ctx },
	{ OSSL_FUNC_RAND_SETTABLE_CTX_PARAMS, (void (*)(void))rsettable },
	{ OSSL_FUNC_RAND_SET_CTX_PARAMS, (void (*)(void))rset_ctx },
	{ OSSL_FUNC_RAND_VERIFY_ZEROIZATION, (void (*)(void))rverify_zero },
	{ 0, NULL }
};

const OSSL_ALGORITHM rind_rands[] = {
	{ "RIND-DRBG", RIND_PROPS, drbg_fns, "rind's ChaCha20 DRBG over getrandom" },
	{ NULL, NULL, NULL, NULL }
};
