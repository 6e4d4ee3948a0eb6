/* SPDX-License-Identifier: MIT */
/*
 * Random numbers, as the kernel's crypto_rng ("stdrng"), plus
 * rind_get_random_bytes(), the library's own source of randomness.
 *
 * A freshly allocated rng tfm is seeded from getrandom(2) and reseeds
 * itself from it periodically.  crypto_rng_reset() with a seed makes the
 * tfm deterministic: its output is then a fixed function of the seed and
 * of the sequence of request sizes and additional inputs that follow, and
 * it no longer draws from the operating system (not even after fork) --
 * for known-answer tests and reproducible simulations only.
 * crypto_rng_reset(tfm, NULL, 0) returns it to getrandom seeding.
 *
 * Errors: -EINVAL bad argument, -EIO (or the errno getrandom reported)
 * when the operating system cannot provide entropy.  There is never a
 * weaker fallback.
 */
#ifndef _RIND_RNG_H
#define _RIND_RNG_H

#include <rind/base.h>

struct crypto_rng;

struct crypto_rng *crypto_alloc_rng(const char *alg_name, u32 type, u32 mask);
void crypto_free_rng(struct crypto_rng *tfm);
/* Fill @rdata with @dlen random bytes: 0 or a negative errno. */
int crypto_rng_get_bytes(struct crypto_rng *tfm, u8 *rdata, unsigned int dlen);
/*
 * As the kernel: @src (may be NULL/0) is additional input mixed into the
 * state before the output is generated.
 */
int crypto_rng_generate(struct crypto_rng *tfm, const u8 *src, unsigned int slen,
			u8 *dst, unsigned int dlen);
/*
 * Reseed.  With a seed (at least crypto_rng_seedsize() bytes, at most 256)
 * the tfm becomes deterministic (see above); with NULL/0 it reseeds from
 * getrandom(2) and is non-deterministic again.
 */
int crypto_rng_reset(struct crypto_rng *tfm, const u8 *seed, unsigned int slen);
unsigned int crypto_rng_seedsize(struct crypto_rng *tfm);
const char *crypto_rng_driver_name(struct crypto_rng *tfm);
const char *crypto_rng_alg_name(struct crypto_rng *tfm);
struct crypto_tfm *crypto_rng_tfm(struct crypto_rng *tfm);
int crypto_has_rng(const char *alg_name, u32 type, u32 mask);

/*
 * @len cryptographically secure random bytes into @buf, from a per-thread
 * DRBG seeded from getrandom(2), safe across fork().  Returns 0, or a
 * negative errno (buf is then zeroed) if the system cannot provide
 * entropy.
 */
int rind_get_random_bytes(void *buf, size_t len);

#endif /* _RIND_RNG_H */
