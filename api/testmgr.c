// SPDX-License-Identifier: MIT
/*
 * The self-test manager, as the kernel's crypto/testmgr.c: known-answer
 * tests registered per cra_name by the algorithm files, the dispatch to a
 * desc's custom test or its type's table runner, and what the runners
 * share.  Every implementation runs its name's vectors before the registry
 * hands it out (CRYPTO_ALG_TESTED); an implementation with no vectors is
 * refused, so a new algorithm cannot slip in untested.
 *
 * The runners: testmgr-sym.c (hash, cipher, skcipher, aead), testmgr-pk.c
 * (akcipher, kpp, sig, rng).
 */
#include <stdio.h>
#include <string.h>
#include <rind/internal/testmgr.h>

static struct alg_test_desc *test_list;
static pthread_mutex_t test_lock = PTHREAD_MUTEX_INITIALIZER;

void crypto_register_test(struct alg_test_desc *desc)
{
	struct alg_test_desc *d;

	pthread_mutex_lock(&test_lock);
	for (d = test_list; d; d = d->next)
		if (d == desc)
			break;
	if (!d) {
		desc->next = test_list;
		test_list = desc;
	}
	pthread_mutex_unlock(&test_lock);
}

void crypto_register_tests(struct alg_test_desc *descs, int count)
{
	int i;

	for (i = 0; i < count; i++)
		crypto_register_test(&descs[i]);
}

static const struct alg_test_desc *find_test(const char *name)
{
	const struct alg_test_desc *d;

	pthread_mutex_lock(&test_lock);
	for (d = test_list; d; d = d->next)
		if (!strcmp(d->alg, name))
			break;
	pthread_mutex_unlock(&test_lock);
	return d;
}

int alg_test(struct crypto_alg *alg)
{
	const struct alg_test_desc *desc = find_test(alg->cra_name);

	if (!desc) {
		fprintf(stderr, "rind: no known-answer test for %s (%s): refused\n",
			alg->cra_name, alg->cra_driver_name);
		return -ENOENT;
	}
	if (desc->test)
		return desc->test(desc, alg);
	if (alg->cra_type && alg->cra_type->selftest)
		return alg->cra_type->selftest(desc, alg);
	return -ENOSYS;
}

int alg_test_fail(struct crypto_alg *alg, const char *type, unsigned int i, const char *what,
		  int err)
{
	fprintf(stderr, "rind: %s: %s self-test vector %u: %s (%d)\n", alg->cra_driver_name,
		type, i, what, err);
	return -EBADMSG;
}

bool alg_test_key_done(struct crypto_alg *alg, const char *type, unsigned int i,
		       const char *what, int *err, int want)
{
	if (*err != want) {
		*err = alg_test_fail(alg, type, i, what, *err);
		return true;
	}
	*err = 0;
	return want != 0;
}
