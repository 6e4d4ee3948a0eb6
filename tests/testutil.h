/* SPDX-License-Identifier: MIT */
/*
 * Shared test helpers: hex, a seeded PRNG, random scatterlist splits, the
 * list of every implementation of an algorithm, Wycheproof files (jansson),
 * and the Check runner main.
 */
#ifndef RIND_TESTUTIL_H
#define RIND_TESTUTIL_H

#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rind/crypto.h>

#define RT_MAX_IMPLS 32

/* Hex to bytes; returns the byte count, aborts the test on bad hex. */
size_t rt_unhex(u8 *out, size_t outmax, const char *hex);
/* Hex to a malloc'd buffer (never NULL: zero-length gives a 1-byte buffer). */
u8 *rt_unhex_alloc(const char *hex, size_t *len);
/* Bytes to hex in a static buffer (for messages). */
const char *rt_hex(const u8 *p, size_t len);

/*
 * Every implementation (driver name) of cra_name @name of type @type
 * ("shash", "aead", ...).  Template names are instantiated over every
 * implementation of each argument ("hmac(sha256-generic)",
 * "hmac(sha256-shani)", ...), and directly registered implementations are
 * included.  Returns the count (fails the test if zero).
 */
int rt_impls(const char *name, const char *type, char drivers[][CRYPTO_MAX_ALG_NAME], int max);

/* Deterministic xoshiro-style PRNG, seeded per test so failures reproduce. */
struct rt_rng {
	u64 s[4];
};
void rt_rng_seed(struct rt_rng *r, u64 seed);
u64 rt_rand(struct rt_rng *r);
u32 rt_rand_range(struct rt_rng *r, u32 n);	/* 0..n-1 */
void rt_fill(struct rt_rng *r, void *buf, size_t len);

/*
 * Describe @buf (@len bytes) as a scatterlist of up to @maxents entries cut
 * at random byte positions (zero-length entries included sometimes).
 * Returns the number of entries used; the table is end-marked.
 */
int rt_sg_split(struct rt_rng *r, struct scatterlist *sg, int maxents, void *buf, size_t len);

/*
 * Wycheproof: WYCHEPROOF_DIR (default ../shared/vectors/wycheproof relative
 * to the repository root).  rt_wp_load returns the parsed file, or NULL
 * after printing "SKIP: <file>: <reason>" when the directory or file is
 * missing.
 */
const char *rt_wp_dir(void);
json_t *rt_wp_load(const char *file);
/* Hex field of a JSON object as a malloc'd buffer. */
u8 *rt_wp_hex(json_t *obj, const char *key, size_t *len);
/* "valid", "invalid", "acceptable" -> 1, 0, -1 */
int rt_wp_result(json_t *test);
/* 1 if the test's flags array contains @flag */
int rt_wp_has_flag(json_t *test, const char *flag);

/* Print a count line, e.g. "aes_gcm_test.json: 316 cases (gcm(aes-generic))". */
void rt_report(const char *what, const char *impl, int ran, int skipped);

/* One Check runner per suite file. */
#define RIND_TEST_MAIN(suite_fn)						\
	int main(void)								\
	{									\
		SRunner *sr = srunner_create(suite_fn());			\
		int nf;								\
		srunner_run_all(sr, CK_NORMAL);					\
		nf = srunner_ntests_failed(sr);					\
		srunner_free(sr);						\
		return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;			\
	}

#endif
