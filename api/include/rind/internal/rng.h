/* SPDX-License-Identifier: MIT */
#ifndef _RIND_INTERNAL_RNG_H
#define _RIND_INTERNAL_RNG_H

#include <rind/rng.h>
#include <rind/internal/alg.h>

/*
 * A generator's per-thread entry: @dlen bytes to @dst from the calling
 * thread's own state, no tfm and no lock; 0, or a negative errno with @dst
 * zeroed.
 */
typedef int (*rng_thread_generate_t)(void *dst, size_t dlen);

struct rng_alg {
	/*
	 * Mix @src (additional input, may be empty) into the state, then
	 * write @dlen bytes to @dst.  0 or a negative errno.
	 */
	int (*generate)(struct crypto_rng *tfm, const u8 *src, unsigned int slen,
			u8 *dst, unsigned int dlen);
	/* Seed with @seed (deterministic), or from the OS when @seed is NULL. */
	int (*seed)(struct crypto_rng *tfm, const u8 *seed, unsigned int slen);
	int (*init)(struct crypto_rng *tfm);	/* optional; seeds from the OS */
	void (*exit)(struct crypto_rng *tfm);	/* optional; ctx wiped anyway */
	/*
	 * The hook behind rind_get_random_bytes(), which calls the one of
	 * the best "stdrng" (looked up at its first call; -ENOENT if that
	 * alg has none).  It must seed itself from the OS, reseed, and
	 * never repeat a stream across threads or fork (algs/drbg.c).
	 */
	rng_thread_generate_t thread_generate;

	unsigned int seedsize;			/* minimum deterministic seed */

	struct crypto_alg base;
};

struct crypto_rng {
	struct crypto_tfm base;
};

/* __crypto_rng_alg(), crypto_rng_alg(), crypto_rng_ctx() */
CRYPTO_DEFINE_ALG_CASTS(rng, crypto_rng_ctx)

extern const struct crypto_type crypto_rng_type;

/*
 * Known-answer vectors for the rng type's runner: reset with @seed, then
 * generate @olen bytes with additional input @addin (may be empty) twice;
 * the two outputs concatenated must equal @out (2 * @olen bytes).
 */
struct rng_testvec {
	const char *seed;
	const char *addin;
	const char *out;
	unsigned int slen;
	unsigned int alen;
	unsigned int olen;
};

struct rng_test_suite {
	const struct rng_testvec *vecs;
	unsigned int count;
};

struct alg_test_desc;
/* The rng type's self-test runner (desc->suite.priv: struct rng_test_suite). */
int alg_test_rng(const struct alg_test_desc *desc, struct crypto_alg *alg);

int crypto_register_rng(struct rng_alg *alg);
void crypto_unregister_rng(struct rng_alg *alg);
int crypto_register_rngs(struct rng_alg *algs, int count);

/*
 * Fill @buf straight from getrandom(2) (looping over short reads and
 * EINTR).  0 or a negative errno.  For seeding; everything else should
 * use rind_get_random_bytes().
 */
int rind_getrandom(void *buf, size_t len);

/*
 * Test hooks (algs/drbg.c): the reseed interval of every generator that
 * is not deterministic (defaults 1 MiB and 60 s; 0 keeps the current
 * value), and the number of times the calling thread's generator has been
 * seeded from the OS.
 */
void rind_drbg_set_reseed_interval(u64 bytes, u64 nsec);
u64 rind_drbg_thread_seed_count(void);

#endif /* _RIND_INTERNAL_RNG_H */
