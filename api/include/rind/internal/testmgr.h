/* SPDX-License-Identifier: MIT */
/*
 * Known-answer self-tests.  Vectors sit with the algorithm they test: each
 * algorithm or template file registers an alg_test_desc per cra_name it
 * provides ("sha256", "hmac(sha256)", "gcm(aes)") from its init function,
 * before registering its implementations.  Every implementation of that
 * cra_name must pass the desc's vectors before the registry hands it out.
 * Byte strings are given as C string literals with explicit lengths.
 */
#ifndef _RIND_INTERNAL_TESTMGR_H
#define _RIND_INTERNAL_TESTMGR_H

#include <rind/internal/alg.h>

struct hash_testvec {
	const char *key;
	const char *plaintext;
	const char *digest;
	unsigned int ksize;
	unsigned int psize;
};

/* For "cipher" (one block per vector, no iv) and "skcipher". */
struct cipher_testvec {
	const char *key;
	const char *iv;
	const char *iv_out;	/* optional: expected iv after encryption */
	const char *ptext;
	const char *ctext;
	unsigned int klen;
	unsigned int len;
	int setkey_error;	/* expected setkey result (0 = success) */
};

struct aead_testvec {
	const char *key;
	const char *iv;
	const char *assoc;
	const char *ptext;
	const char *ctext;	/* ciphertext || tag */
	unsigned int klen;
	unsigned int alen;
	unsigned int plen;
	unsigned int clen;	/* plen + authsize */
	int setkey_error;
	int novrfy;		/* decrypt must fail with -EBADMSG */
};

struct alg_test_desc;
typedef int (*alg_test_fn)(const struct alg_test_desc *desc, struct crypto_alg *alg);

struct alg_test_desc {
	const char *alg;		/* cra_name */
	/* Custom test (sig, kpp, ...); the type's table runner when NULL. */
	alg_test_fn test;
	union {
		struct { const struct hash_testvec *vecs; unsigned int count; } hash;
		struct { const struct cipher_testvec *vecs; unsigned int count; } cipher;
		struct { const struct aead_testvec *vecs; unsigned int count; } aead;
		const void *priv;	/* for custom tests */
	} suite;
	struct alg_test_desc *next;	/* testmgr private */
};

#define __VECS(tv) { .vecs = tv, .count = ARRAY_SIZE(tv) }

/* Register known-answer tests for a cra_name; call before registering algs. */
void crypto_register_test(struct alg_test_desc *desc);
void crypto_register_tests(struct alg_test_desc *descs, int count);

/*
 * What the runners (api/testmgr-*.c) share.  alg_test_fail reports that
 * vector @i of @alg's @type runner failed at @what (with @err) and returns
 * -EBADMSG.  alg_test_key_done takes a vector's setkey result in *@err,
 * expected to be @want: it returns true when the vector ends there, with
 * *@err -EBADMSG (reported) if they differ or 0 for an expected failure,
 * and false with *@err 0 to go on.
 */
int alg_test_fail(struct crypto_alg *alg, const char *type, unsigned int i, const char *what,
		  int err);
bool alg_test_key_done(struct crypto_alg *alg, const char *type, unsigned int i,
		       const char *what, int *err, int want);

/* The table runners, for custom tests that want to reuse them. */
int alg_test_hash(const struct alg_test_desc *desc, struct crypto_alg *alg);
int alg_test_cipher(const struct alg_test_desc *desc, struct crypto_alg *alg);
int alg_test_skcipher(const struct alg_test_desc *desc, struct crypto_alg *alg);
int alg_test_aead(const struct alg_test_desc *desc, struct crypto_alg *alg);

#endif
