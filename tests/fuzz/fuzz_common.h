/* SPDX-License-Identifier: MIT */
/*
 * What the libFuzzer targets share: the FAIL report, the list of every
 * implementation of an algorithm, the ECDSA template instances, and
 * fuzz_dup (fuzz_dup.h).
 *
 * A target defines FUZZ_NAME ("fuzz_aead") and MAXIMPL (the most drivers
 * it keeps per algorithm) before including this.  Everything here is
 * static inline, so a target that uses only part of it builds cleanly.
 */
#ifndef RIND_FUZZ_COMMON_H
#define RIND_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rind/crypto.h>
#include "fuzz_dup.h"

#ifndef FUZZ_NAME
#error "define FUZZ_NAME before including fuzz_common.h"
#endif
#ifndef MAXIMPL
#define MAXIMPL 16
#endif

/* What the input is testing, for FAIL: an operation and a driver ("" if none). */
static const char *cur_alg = "", *cur_impl = "";

/* "FAIL fuzz_x: alg [impl]: message", then abort() (libFuzzer saves the input). */
#define FAIL(...) do {								\
	fprintf(stderr, "FAIL " FUZZ_NAME ": %s%s%s%s: ", cur_alg,		\
		*cur_impl ? (*cur_alg ? " [" : "[") : "", cur_impl, *cur_impl ? "]" : ""); \
	fprintf(stderr, __VA_ARGS__);						\
	fputc('\n', stderr);							\
	abort();								\
} while (0)

/* Driver names, each once. */
struct fuzz_impls {
	int n;
	char name[MAXIMPL][CRYPTO_MAX_ALG_NAME];
};

struct fuzz_collect_ctx {
	const char *name;	/* cra_name, NULL: any */
	const char *type;	/* "aead", "shash", ...; NULL: any */
	struct fuzz_impls *l;
};

static inline int fuzz_collect(const struct rind_alg_info *info, void *p)
{
	struct fuzz_collect_ctx *c = p;
	int i;

	if ((c->name && strcmp(info->name, c->name)) || (c->type && strcmp(info->type, c->type)) ||
	    info->selftest < 0)
		return 0;
	for (i = 0; i < c->l->n; i++)
		if (!strcmp(c->l->name[i], info->driver))
			return 0;
	if (c->l->n < MAXIMPL)
		snprintf(c->l->name[c->l->n++], CRYPTO_MAX_ALG_NAME, "%s", info->driver);
	return 0;
}

/*
 * Every registered implementation of @name (NULL: of every name) of type
 * @type (NULL: any) that passed its self-test.  Looking @name up first
 * brings up the registry and instantiates a template name.
 */
static inline void fuzz_impls(const char *name, const char *type, struct fuzz_impls *l)
{
	struct fuzz_collect_ctx c = { name, type, l };

	l->n = 0;
	if (name)
		(void)crypto_has_alg(name, 0, 0);
	rind_alg_foreach(fuzz_collect, &c);
}

static inline int fuzz_ecdsa_inst_cb(const struct rind_alg_info *info, void *p)
{
	const char *curve = ((const char *const *)p)[0], *hash = ((const char *const *)p)[1];
	char name[3 * CRYPTO_MAX_ALG_NAME];

	if (strcmp(info->name, curve))
		return 0;
	snprintf(name, sizeof(name), "x962(%s,%s)", info->driver, hash);
	(void)crypto_has_alg(name, 0, 0);
	snprintf(name, sizeof(name), "p1363(%s,%s)", info->driver, hash);
	(void)crypto_has_alg(name, 0, 0);
	return 0;
}

/*
 * Signature templates are instantiated on demand: make the instances the
 * registry has self-tests for (each over every driver of its curve), so
 * that an enumeration of "sig" sees them.
 */
static inline void fuzz_instantiate_ecdsa(void)
{
	static const char *const curves[] = { "ecdsa-nist-p256", "ecdsa-nist-p384", "ecdsa-nist-p521" };
	static const char *const hashes[] = { "sha256", "sha384", "sha512" };
	unsigned int c, h;

	for (c = 0; c < 3; c++) {
		(void)crypto_has_alg(curves[c], 0, 0);
		for (h = 0; h < 3; h++) {
			const char *arg[2] = { curves[c], hashes[h] };

			rind_alg_foreach(fuzz_ecdsa_inst_cb, (void *)arg);
		}
	}
}

#endif
