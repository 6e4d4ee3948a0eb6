// SPDX-License-Identifier: MIT
/*
 * The rng front end, as the kernel's crypto/rng.c: crypto_rng tfms over
 * the registered generators ("stdrng"), the raw getrandom(2) helper used
 * for seeding, and rind_get_random_bytes(), the library's own source of
 * randomness (the per-thread entry of the best registered "stdrng").
 */
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/random.h>
#include <rind/internal/rng.h>
#include <rind/internal/frontend.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>

CRYPTO_DEFINE_ALG_INIT_EXIT(crypto_rng, struct rng_alg, struct crypto_rng, init, exit)

static int crypto_rng_prepare_alg(struct crypto_alg *base)
{
	struct rng_alg *alg = __crypto_rng_alg(base);

	if (!alg->generate || !alg->seed)
		return -EINVAL;
	return 0;
}

const struct crypto_type crypto_rng_type = {
	.name = "rng",
	.type = CRYPTO_ALG_TYPE_RNG,
	.tfmsize = offsetof(struct crypto_rng, base),
	.alg_init = crypto_rng_alg_init,
	.alg_exit = crypto_rng_alg_exit,
	.prepare_alg = crypto_rng_prepare_alg,
	.selftest = alg_test_rng,
};

CRYPTO_DEFINE_ALG_API(rng)
CRYPTO_DEFINE_ALGS_API(rng, rngs)
CRYPTO_DEFINE_TFM_API(rng)
CRYPTO_DEFINE_ALG_NAME(rng)

RIND_EXPORT int crypto_rng_generate(struct crypto_rng *tfm, const u8 *src, unsigned int slen,
				    u8 *dst, unsigned int dlen)
{
	if (IS_ERR_OR_NULL(tfm) || (!src && slen) || (!dst && dlen))
		return -EINVAL;
	return crypto_rng_alg(tfm)->generate(tfm, src, slen, dst, dlen);
}

RIND_EXPORT int crypto_rng_get_bytes(struct crypto_rng *tfm, u8 *rdata, unsigned int dlen)
{
	return crypto_rng_generate(tfm, NULL, 0, rdata, dlen);
}

RIND_EXPORT int crypto_rng_reset(struct crypto_rng *tfm, const u8 *seed, unsigned int slen)
{
	struct rng_alg *alg;

	if (IS_ERR_OR_NULL(tfm) || (!seed && slen))
		return -EINVAL;
	alg = crypto_rng_alg(tfm);
	if (seed && slen < alg->seedsize)
		return -EINVAL;
	return alg->seed(tfm, slen ? seed : NULL, slen);
}

RIND_EXPORT unsigned int crypto_rng_seedsize(struct crypto_rng *tfm)
{
	return crypto_rng_alg(tfm)->seedsize;
}

int rind_getrandom(void *buf, size_t len)
{
	u8 *p = buf;
	ssize_t n;

	while (len) {
		/* Blocks until the kernel's pool is initialised, as it should. */
		n = getrandom(p, len, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = errno ? -errno : -EIO;
			memzero_explicit(buf, (size_t)(p - (u8 *)buf));
			return (int)n;
		}
		if (n == 0) {
			memzero_explicit(buf, (size_t)(p - (u8 *)buf));
			return -EIO;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The default generator, as the kernel's crypto_get_default_rng() takes
 * "stdrng" from the registry, but without a shared tfm: the best "stdrng"
 * (self-tested, as for any lookup) is asked once for its per-thread entry,
 * which rind_get_random_bytes() then calls directly, one load and an
 * indirect call per request.  The alg stays referenced for the life of the
 * process, so the entry cannot go away.  Only that first call takes the
 * registry lock, as a tfm allocation does.
 */
static _Atomic(rng_thread_generate_t) crypto_default_rng;

/*
 * Resolve the default generator: the best "stdrng" and its per-thread
 * entry, kept for the life of the process.  crypto_init() does this once
 * the built-in algorithms are registered, so a process that has used the
 * library never takes the registry lock here again -- in particular not in
 * a child forked while another thread held it.  NULL when no "stdrng"
 * (with the hook) passed its self-test; *@err says why.
 */
static rng_thread_generate_t crypto_resolve_default_rng(int *err)
{
	rng_thread_generate_t fn, none = NULL;
	struct crypto_alg *alg;

	fn = atomic_load_explicit(&crypto_default_rng, memory_order_acquire);
	if (fn)
		return fn;
	*err = -ENOENT;
	alg = crypto_alg_mod_lookup("stdrng", CRYPTO_ALG_TYPE_RNG, CRYPTO_ALG_TYPE_MASK);
	if (IS_ERR(alg)) {
		*err = (int)PTR_ERR(alg);
		return NULL;
	}
	fn = __crypto_rng_alg(alg)->thread_generate;
	if (!fn) {
		crypto_mod_put(alg);
		return NULL;
	}
	/* Raced with another thread: keep the first, drop this reference. */
	if (!atomic_compare_exchange_strong(&crypto_default_rng, &none, fn)) {
		crypto_mod_put(alg);
		fn = none;
	}
	return fn;
}

void crypto_rng_init_default(void)
{
	int err;

	(void)crypto_resolve_default_rng(&err);
}

/* The first call before crypto_init(), or each one while no "stdrng" serves. */
static __attribute__((noinline)) int crypto_get_default_rng(void *buf, size_t len)
{
	rng_thread_generate_t fn;
	int err = -ENOENT;

	crypto_init();
	fn = crypto_resolve_default_rng(&err);
	if (!fn) {
		/* As when the generator fails: no output, no fallback. */
		memzero_explicit(buf, len);
		return err;
	}
	return fn(buf, len);
}

RIND_EXPORT int rind_get_random_bytes(void *buf, size_t len)
{
	rng_thread_generate_t fn;

	if (!buf && len)
		return -EINVAL;
	if (!len)
		return 0;
	/* Two tail calls: the fast path has no frame of its own. */
	fn = atomic_load_explicit(&crypto_default_rng, memory_order_acquire);
	if (__builtin_expect(!fn, 0))
		return crypto_get_default_rng(buf, len);
	return fn(buf, len);
}
