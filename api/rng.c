// SPDX-License-Identifier: MIT
/*
 * The rng front end, as the kernel's crypto/rng.c: crypto_rng tfms over
 * the registered generators ("stdrng"), the type's self-test runner, the
 * raw getrandom(2) helper used for seeding, and rind_get_random_bytes(),
 * the library's own source of randomness (a per-thread generator in
 * algs/drbg.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <rind/internal/rng.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>

static int crypto_rng_init_tfm(struct crypto_tfm *tfm)
{
	struct crypto_rng *rng = container_of(tfm, struct crypto_rng, base);
	struct rng_alg *alg = __crypto_rng_alg(tfm->__crt_alg);

	if (alg->base.cra_init) {
		int err = alg->base.cra_init(tfm);

		if (err)
			return err;
	}
	return alg->init ? alg->init(rng) : 0;
}

static void crypto_rng_exit_tfm(struct crypto_tfm *tfm)
{
	struct crypto_rng *rng = container_of(tfm, struct crypto_rng, base);
	struct rng_alg *alg = __crypto_rng_alg(tfm->__crt_alg);

	if (alg->exit)
		alg->exit(rng);
	if (alg->base.cra_exit)
		alg->base.cra_exit(tfm);
}

const struct crypto_type crypto_rng_type = {
	.name = "rng",
	.type = CRYPTO_ALG_TYPE_RNG,
	.tfmsize = offsetof(struct crypto_rng, base),
	.init_tfm = crypto_rng_init_tfm,
	.exit_tfm = crypto_rng_exit_tfm,
	.selftest = alg_test_rng,
};

int crypto_register_rng(struct rng_alg *alg)
{
	struct crypto_alg *base = &alg->base;

	if (!alg->generate || !alg->seed)
		return -EINVAL;
	base->cra_type = &crypto_rng_type;
	base->cra_flags = (base->cra_flags & ~CRYPTO_ALG_TYPE_MASK) | CRYPTO_ALG_TYPE_RNG;
	return crypto_register_alg(base);
}

void crypto_unregister_rng(struct rng_alg *alg)
{
	crypto_unregister_alg(&alg->base);
}

int crypto_register_rngs(struct rng_alg *algs, int count)
{
	int i, err;

	for (i = 0; i < count; i++) {
		err = crypto_register_rng(&algs[i]);
		if (err) {
			while (--i >= 0)
				crypto_unregister_rng(&algs[i]);
			return err;
		}
	}
	return 0;
}

RIND_EXPORT struct crypto_rng *crypto_alloc_rng(const char *alg_name, u32 type, u32 mask)
{
	return crypto_alloc_tfm(alg_name, &crypto_rng_type, type, mask);
}

RIND_EXPORT void crypto_free_rng(struct crypto_rng *tfm)
{
	if (!IS_ERR_OR_NULL(tfm))
		crypto_destroy_tfm(tfm, &tfm->base);
}

RIND_EXPORT int crypto_has_rng(const char *alg_name, u32 type, u32 mask)
{
	return crypto_has_alg(alg_name, (type & ~CRYPTO_ALG_TYPE_MASK) | CRYPTO_ALG_TYPE_RNG,
			      mask | CRYPTO_ALG_TYPE_MASK);
}

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

RIND_EXPORT const char *crypto_rng_driver_name(struct crypto_rng *tfm)
{
	return tfm->base.__crt_alg->cra_driver_name;
}

RIND_EXPORT const char *crypto_rng_alg_name(struct crypto_rng *tfm)
{
	return tfm->base.__crt_alg->cra_name;
}

RIND_EXPORT struct crypto_tfm *crypto_rng_tfm(struct crypto_rng *tfm)
{
	return &tfm->base;
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

RIND_EXPORT int rind_get_random_bytes(void *buf, size_t len)
{
	if (!buf && len)
		return -EINVAL;
	if (!len)
		return 0;
	return rind_drbg_thread_bytes(buf, len);
}

/* ---- self-test runner ---- */

static int rng_fail(struct crypto_alg *alg, unsigned int i, const char *what, int err)
{
	fprintf(stderr, "rind: %s: self-test vector %u: %s (%d)\n",
		alg->cra_driver_name, i, what, err);
	return err < 0 ? err : -EBADMSG;
}

int alg_test_rng(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	const struct rng_test_suite *suite = desc->suite.priv;
	struct crypto_rng *tfm;
	unsigned int i;
	u8 *out;
	int err = 0;

	if (!suite || !suite->count)
		return -ENOENT;
	tfm = crypto_alloc_rng(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	for (i = 0; i < suite->count && !err; i++) {
		const struct rng_testvec *v = &suite->vecs[i];

		out = malloc(2 * (size_t)v->olen + 1);
		if (!out) {
			err = -ENOMEM;
			break;
		}
		err = crypto_rng_reset(tfm, (const u8 *)v->seed, v->slen);
		if (err) {
			err = rng_fail(alg, i, "reset", err);
		} else {
			err = crypto_rng_generate(tfm, (const u8 *)v->addin, v->alen, out, v->olen);
			if (!err)
				err = crypto_rng_generate(tfm, (const u8 *)v->addin, v->alen,
							  out + v->olen, v->olen);
			if (err)
				err = rng_fail(alg, i, "generate", err);
			else if (memcmp(out, v->out, 2 * (size_t)v->olen))
				err = rng_fail(alg, i, "output mismatch", -EBADMSG);
		}
		free(out);
	}
	crypto_free_rng(tfm);
	return err;
}
