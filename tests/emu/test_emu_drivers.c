// SPDX-License-Identifier: MIT
/*
 * The AVX-512 emulation run (make check-avx512-emu, tests/emu/README.md):
 * that the emulation build with RIND_EMU_ASSUME=avx512 really has the
 * AVX-512 drivers in play -- the features taken as present, every driver
 * of tests/emu/drivers.txt registered, self-tested (passed) and among the
 * implementations the suites' driver walk (rt_impls) visits, and the
 * SHA-384/512 drivers hashing eight messages at once (finup_mb).  Run
 * natively it fails: it is built and run by that target only.
 */
#include <rind/internal/hash.h>
#include <rind/internal/alg.h>
#include "testutil.h"

#define EMU_MAX_DRIVERS 64

struct expect {
	char driver[CRYPTO_MAX_ALG_NAME];
	char suite[64];
};

static int load_expected(struct expect *e, int max)
{
	FILE *f = fopen(RIND_SOURCE_DIR "/tests/emu/drivers.txt", "r");
	char line[256];
	int n = 0;

	ck_assert_msg(f != NULL, "tests/emu/drivers.txt: cannot open");
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		ck_assert_msg(n < max, "drivers.txt: more than %d drivers", max);
		ck_assert_msg(sscanf(line, "%127s %63s", e[n].driver, e[n].suite) == 2,
			      "drivers.txt: bad line '%s'", line);
		n++;
	}
	fclose(f);
	ck_assert_msg(n > 0, "drivers.txt lists no driver");
	return n;
}

START_TEST(test_features_assumed)
{
	static const enum rind_cpu_feature f[] = {
		RIND_X86_AVX512F, RIND_X86_AVX512VL, RIND_X86_AVX512BW, RIND_X86_AVX512DQ,
		RIND_X86_AVX512IFMA, RIND_X86_AVX512VBMI,
	};
	size_t i;

	ck_assert_msg(getenv("RIND_EMU_ASSUME") && !strcmp(getenv("RIND_EMU_ASSUME"), "avx512"),
		      "run with RIND_EMU_ASSUME=avx512 (make check-avx512-emu)");
	for (i = 0; i < ARRAY_SIZE(f); i++)
		ck_assert_msg(rind_cpu_has(f[i]), "feature %d not taken as present", (int)f[i]);
}
END_TEST

struct find_ctx {
	const char *driver;
	const struct rind_alg_info *hit;
	struct rind_alg_info info;
	char name[CRYPTO_MAX_ALG_NAME], type[32];
	int found;
};

static int find_driver(const struct rind_alg_info *info, void *ctx)
{
	struct find_ctx *c = ctx;

	if (!strcmp(info->driver, c->driver)) {
		c->found++;
		c->info = *info;
		snprintf(c->name, sizeof(c->name), "%s", info->name);
		snprintf(c->type, sizeof(c->type), "%s", info->type);
	}
	return 0;
}

START_TEST(test_drivers_registered)
{
	static struct expect e[EMU_MAX_DRIVERS];
	int n = load_expected(e, EMU_MAX_DRIVERS), i, j;

	for (i = 0; i < n; i++) {
		struct find_ctx c = { .driver = e[i].driver };
		drivers_t drv;
		int nd, walked = 0;

		ck_assert_msg(crypto_has_alg(e[i].driver, 0, 0), "%s: not registered", e[i].driver);
		/* rind_alg_foreach runs the self-tests not run yet */
		rind_alg_foreach(find_driver, &c);
		ck_assert_msg(c.found == 1, "%s: listed %d times", e[i].driver, c.found);
		ck_assert_msg(!strcmp(c.info.module, "x86"), "%s: module %s", e[i].driver,
			      c.info.module);
		ck_assert_msg(c.info.selftest == 1, "%s: self-test state %d", e[i].driver,
			      c.info.selftest);
		nd = rt_impls(c.name, c.type, drv, RT_MAX_IMPLS);
		for (j = 0; j < nd; j++)
			walked |= !strcmp(drv[j], e[i].driver);
		ck_assert_msg(walked, "%s: not among the %d implementations of %s the suites walk",
			      e[i].driver, nd, c.name);
		printf("emulated: %s (%s, %s, priority %d), self-test passed, walked by %s\n",
		       e[i].driver, c.name, c.type, c.info.priority, e[i].suite);
	}
}
END_TEST

/* sha512-mb-avx512.c is no driver of its own: the x86 SHA-384/512 drivers' finup_mb. */
START_TEST(test_sha512_mb_installed)
{
	static const char *const drv[] = { "sha384-avx2", "sha512-avx2", "sha384-avx512vl",
					    "sha512-avx512vl" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(drv); i++) {
		struct crypto_shash *tfm = crypto_alloc_shash(drv[i], 0, 0);

		ck_assert_msg(!IS_ERR(tfm), "%s: not registered", drv[i]);
		ck_assert_msg(crypto_shash_mb_max_msgs(tfm) == 8, "%s: finup_mb of %u messages",
			      drv[i], crypto_shash_mb_max_msgs(tfm));
		crypto_free_shash(tfm);
		printf("emulated: %s finup_mb (sha512-mb-avx512.c, eight lanes)\n", drv[i]);
	}
}
END_TEST

/*
 * SHA-512 of "abc" (FIPS 180-4 example) through finup_mb of eight equal
 * messages: every lane of the emulated eight-lane code gives the digest.
 */
START_TEST(test_sha512_mb_abc)
{
	static const char *const want =
		"ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
		"2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f";
	struct crypto_shash *tfm = crypto_alloc_shash("sha512-avx2", 0, 0);
	u8 out[8][64], *outs[8];
	const u8 *data[8];
	u8 w[64];
	int i;

	ck_assert(!IS_ERR(tfm));
	rt_unhex(w, sizeof(w), want);
	{
		SHASH_DESC_ON_STACK(desc, tfm);

		desc->tfm = tfm;
		for (i = 0; i < 8; i++) {
			data[i] = (const u8 *)"abc";
			outs[i] = out[i];
		}
		ck_assert_int_eq(crypto_shash_init(desc), 0);
		ck_assert_int_eq(crypto_shash_finup_mb(desc, data, 3, outs, 8), 0);
		for (i = 0; i < 8; i++)
			rt_check_eq("sha512-avx2 finup_mb", "digest", out[i], w, 64);
	}
	crypto_free_shash(tfm);
}
END_TEST

static Suite *emu_suite(void)
{
	Suite *s = suite_create("emu_drivers");
	TCase *tc = tcase_create("emu_drivers");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_features_assumed);
	tcase_add_test(tc, test_drivers_registered);
	tcase_add_test(tc, test_sha512_mb_installed);
	tcase_add_test(tc, test_sha512_mb_abc);
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(emu_suite)
