// SPDX-License-Identifier: MIT
/*
 * rind: the command-line tool.  `rind list` prints the registry like
 * /proc/crypto; `rind features` shows the CPU features rind sees and which
 * RIND_DISABLE masks.  Daemon client commands arrive with rindd.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rind/crypto.h>

/* Every name API.md promises, instantiated so that `rind list` shows them. */
static const char *const std_names[] = {
	"sha1", "sha224", "sha256", "sha384", "sha512",
	"hmac(sha1)", "hmac(sha256)", "hmac(sha384)", "hmac(sha512)",
	"aes", "ecb(aes)", "cbc(aes)", "ctr(aes)", "kw(aes)", "chacha20", "xchacha20",
	"gcm(aes)", "rfc4106(gcm(aes))", "rfc7539(chacha20,poly1305)",
	"rfc7539(xchacha20,poly1305)",
};

static void instantiate_std(void)
{
	size_t i;

	for (i = 0; i < sizeof(std_names) / sizeof(std_names[0]); i++)
		(void)crypto_has_alg(std_names[i], 0, 0);
}

static const char *selftest_str(int r)
{
	static char buf[32];

	if (r > 0)
		return "passed";
	if (r == 0)
		return "not run";
	snprintf(buf, sizeof(buf), "failed (%d)", r);
	return buf;
}

static int print_proc(const struct rind_alg_info *i, void *ctx)
{
	(void)ctx;
	printf("name         : %s\n", i->name);
	printf("driver       : %s\n", i->driver);
	printf("module       : %s\n", i->module);
	printf("priority     : %d\n", i->priority);
	printf("refcnt       : %u\n", i->refcnt);
	printf("selftest     : %s\n", selftest_str(i->selftest));
	printf("internal     : no\n");
	printf("type         : %s\n", i->type);
	printf("blocksize    : %u\n", i->blocksize);
	printf("ctxsize      : %u\n\n", i->ctxsize);
	return 0;
}

static int print_row(const struct rind_alg_info *i, void *ctx)
{
	(void)ctx;
	printf("%-30s %-42s %-8s %5d %-9s %-9s %5u %6u\n", i->name, i->driver, i->module,
	       i->priority, i->type, selftest_str(i->selftest), i->blocksize, i->ctxsize);
	return 0;
}

static int print_feature(const char *name, int present, int masked, void *ctx)
{
	(void)ctx;
	printf("%-12s %s%s\n", name, present ? "yes" : "no", present && masked ? " (masked by RIND_DISABLE)" : "");
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rind <command>\n"
		"  list [--proc]   every registered implementation (name, driver, module,\n"
		"                  priority, type, self-test, block size, context size)\n"
		"  features        CPU features and RIND_DISABLE masking\n"
		"  version         library version\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "list")) {
		instantiate_std();
		if (argc > 2 && !strcmp(argv[2], "--proc"))
			return rind_alg_foreach(print_proc, NULL) ? 1 : 0;
		printf("%-30s %-42s %-8s %5s %-9s %-9s %5s %6s\n", "NAME", "DRIVER", "MODULE", "PRIO",
		       "TYPE", "SELFTEST", "BLOCK", "CTX");
		return rind_alg_foreach(print_row, NULL) ? 1 : 0;
	}
	if (!strcmp(argv[1], "features"))
		return rind_cpu_feature_foreach(print_feature, NULL) ? 1 : 0;
	if (!strcmp(argv[1], "version")) {
		printf("rind %s\n", rind_version());
		return 0;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "rind: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
