// SPDX-License-Identifier: MIT
/*
 * rind-bench: the harness.  For each row: set every library up (untimed),
 * check that they all compute the same thing, calibrate a batch size per
 * library so that one round lasts about --round-ms, warm up, then time the
 * libraries in alternating rounds (A B C A B C ...) and keep the median and
 * the spread (min-max) of the per-operation times.  Every ratio printed is
 * between numbers of the same run.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <sodium.h>

#include "bench.h"

#ifndef RIND_VERSION
#define RIND_VERSION "0.1.0-dev"
#endif

#define MAX_PARTS	(BENCH_NLIBS + 32)
#define MAX_ROUNDS	1000

volatile unsigned char bench_sink;

const char *const bench_lib_names[BENCH_NLIBS] = { "rind", "openssl", "libsodium" };
const char *const bench_lib_titles[BENCH_NLIBS] = { "rind", "OpenSSL", "libsodium" };

static struct {
	unsigned int rounds;
	unsigned int round_ms;
	int quick;
	int drivers;
	int pin;
	int wall_clock;
	const char *json;
	const char *html;
	int have_filter;
	regex_t filter;
} opt = {
	.rounds = 7,
	.round_ms = 30,
	.pin = -1,
};

/* ---- helpers for the ops files ----------------------------------------- */

void bench_fill(void *buf, size_t len, unsigned int seed)
{
	unsigned char *p = buf;

	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 131 + seed * 17 + 1);
}

void *bench_alloc(size_t len)
{
	size_t n = (len + 63) & ~(size_t)63;
	void *p = aligned_alloc(64, n ? n : 64);

	if (!p) {
		fprintf(stderr, "rind-bench: out of memory\n");
		exit(3);
	}
	memset(p, 0, n ? n : 64);
	return p;
}

const char *bench_strerror(int err)
{
	switch (err) {
	case -ENOENT: return "ENOENT (not available)";
	case -EINVAL: return "EINVAL";
	case -EBADMSG: return "EBADMSG";
	case -ENOMEM: return "ENOMEM";
	case -EIO: return "EIO (library error)";
	case -EOPNOTSUPP: return "EOPNOTSUPP";
	case -EKEYREJECTED: return "EKEYREJECTED";
	case -ELIBBAD: return "ELIBBAD (self-test failed)";
	default: return strerror(-err);
	}
}

int bench_ossl_error(const char *what)
{
	unsigned long e;
	char buf[256];

	while ((e = ERR_get_error()) != 0) {
		ERR_error_string_n(e, buf, sizeof(buf));
		fprintf(stderr, "rind-bench: openssl: %s: %s\n", what, buf);
	}
	return -EIO;
}

int bench_ossl_missing(void)
{
	ERR_clear_error();
	return -ENOENT;
}

static double clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* Wall and on-CPU time of the timed rounds: how much other processes took. */
static double timed_wall, timed_cpu;

/* ---- one row ------------------------------------------------------------ */

struct part {
	int lib;
	const struct bench_impl *impl;
	char alg[CRYPTO_MAX_ALG_NAME];	/* rind: the name allocated */
	int is_driver_row;
	void *ctx;
	int status;			/* 1 ready/measured, 0 missing, < 0 error */
	struct bench_check chk;
	uint64_t iters;
	double *samples;
	unsigned int nsamples;
	char driver[CRYPTO_MAX_ALG_NAME];
};

static struct bench_result *results;
static size_t nresults, results_cap;
static int exit_status;

static struct bench_result *new_result(const struct bench_row *row)
{
	struct bench_result *r;

	if (nresults == results_cap) {
		results_cap = results_cap ? 2 * results_cap : 64;
		results = realloc(results, results_cap * sizeof(*results));
		if (!results) {
			fprintf(stderr, "rind-bench: out of memory\n");
			exit(3);
		}
	}
	r = &results[nresults++];
	memset(r, 0, sizeof(*r));
	r->row = row;
	return r;
}

static void part_setup(const struct bench_row *row, struct part *p)
{
	int err;

	p->ctx = NULL;
	memset(&p->chk, 0, sizeof(p->chk));
	if (!p->impl) {
		p->status = 0;
		return;
	}
	err = p->impl->setup(row, p->lib == LIB_RIND ? p->alg : NULL, &p->ctx, &p->chk);
	if (err) {
		if (p->ctx)
			p->impl->teardown(p->ctx);
		p->ctx = NULL;
		p->status = err == -ENOENT ? 0 : err;
		if (err != -ENOENT && !p->is_driver_row)
			fprintf(stderr, "rind-bench: %s/%u: %s setup failed: %s\n", row->op,
				row->bytes, p->lib == LIB_RIND ? p->alg : bench_lib_titles[p->lib],
				bench_strerror(err));
		return;
	}
	p->status = 1;
	if (p->lib == LIB_RIND && p->impl->driver) {
		const char *d = p->impl->driver(p->ctx);

		snprintf(p->driver, sizeof(p->driver), "%s", d ? d : "?");
	}
}

static void part_teardown(struct part *p)
{
	if (p->ctx)
		p->impl->teardown(p->ctx);
	p->ctx = NULL;
	free(p->samples);
	p->samples = NULL;
}

/*
 * Time @n operations.  Both clocks are read: CLOCK_THREAD_CPUTIME_ID counts
 * only the time this thread was on a CPU, CLOCK_MONOTONIC the elapsed time
 * (which includes any time other processes took the CPU from us); --clock
 * picks the one reported.
 */
static int time_batch(struct part *p, uint64_t n, double *ns, int record)
{
	double w0, w1, c0, c1;
	int err;

	w0 = now_ns();
	c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	err = p->impl->run(p->ctx, n);
	c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	w1 = now_ns();
	*ns = opt.wall_clock ? w1 - w0 : c1 - c0;
	if (record) {
		timed_wall += w1 - w0;
		timed_cpu += c1 - c0;
	}
	return err;
}

static void part_fail(const struct bench_row *row, struct part *p, int err)
{
	fprintf(stderr, "rind-bench: %s/%u: %s failed: %s\n", row->op, row->bytes,
		p->lib == LIB_RIND ? p->alg : bench_lib_titles[p->lib], bench_strerror(err));
	p->status = err < 0 ? err : -EIO;
}

/* Find a batch size that makes one round last about @target ns, then warm up. */
static void calibrate(const struct bench_row *row, struct part *p, double target)
{
	uint64_t n = 1;
	double t = 0, scale;
	int err;

	for (;;) {
		err = time_batch(p, n, &t, 0);
		if (err) {
			part_fail(row, p, err);
			return;
		}
		if (t >= target / 4 || n >= (1ull << 36))
			break;
		scale = t > 0 ? (target / 4) / t * 1.5 : 64;
		if (scale < 2)
			scale = 2;
		if (scale > 64)
			scale = 64;
		n = (uint64_t)((double)n * scale);
	}
	scale = target / (t > 1 ? t : 1);
	p->iters = (uint64_t)((double)n * scale);
	if (p->iters < 1)
		p->iters = 1;
	if (!opt.quick) {
		/* warm-up round at the final batch size, discarded */
		err = time_batch(p, p->iters, &t, 0);
		if (err)
			part_fail(row, p, err);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void part_stats(const struct part *p, struct bench_cell *cell)
{
	double *s;
	unsigned int n = p->nsamples;

	cell->status = p->status;
	if (p->status != 1 || !n)
		return;
	s = p->samples;
	qsort(s, n, sizeof(*s), cmp_double);
	cell->ns = n & 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	cell->lo = s[0];
	cell->hi = s[n - 1];
}

/* Every rind implementation of @row's algorithm, as names to allocate. */
struct driver_list {
	const char *name;		/* the cra_name looked for */
	char names[32][CRYPTO_MAX_ALG_NAME];
	int n;
};

static void driver_list_add(struct driver_list *l, const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->names[i], name))
			return;
	if (l->n < 32)
		snprintf(l->names[l->n++], CRYPTO_MAX_ALG_NAME, "%s", name);
}

static int collect_driver(const struct rind_alg_info *info, void *arg)
{
	struct driver_list *l = arg;

	if (!strcmp(info->name, l->name))
		driver_list_add(l, info->driver);
	return 0;
}

/*
 * The directly registered implementations of @name, then, for a template
 * name "t(a,b)", the instances over each implementation of each argument
 * ("t(a-generic,b)", "t(a,b-avx2)", ...), as the kernel's testmgr reaches
 * them.
 */
static void list_drivers(const char *name, struct driver_list *out)
{
	struct driver_list args;
	const char *open, *p, *start;
	char arg[CRYPTO_MAX_ALG_NAME], built[CRYPTO_MAX_ALG_NAME * 2];
	int depth;

	out->n = 0;
	out->name = name;
	rind_alg_foreach(collect_driver, out);

	open = strchr(name, '(');
	if (!open || name[strlen(name) - 1] != ')')
		return;
	start = open + 1;
	depth = 0;
	for (p = start; *p; p++) {
		if (*p == '(') {
			depth++;
			continue;
		}
		if (*p == ')' && depth > 0) {
			depth--;
			continue;
		}
		if (depth || (*p != ',' && *p != ')'))
			continue;
		/* argument [start, p) */
		snprintf(arg, sizeof(arg), "%.*s", (int)(p - start), start);
		args.n = 0;
		args.name = arg;
		rind_alg_foreach(collect_driver, &args);
		for (int i = 0; i < args.n; i++) {
			snprintf(built, sizeof(built), "%.*s%s%s", (int)(start - name), name,
				 args.names[i], p);
			if (strlen(built) < CRYPTO_MAX_ALG_NAME)
				driver_list_add(out, built);
		}
		start = p + 1;
	}
}

static void print_hex(const char *label, const struct bench_check *c)
{
	fprintf(stderr, "    %-10s", label);
	for (unsigned int i = 0; i < c->len && i < 32; i++)
		fprintf(stderr, "%02x", c->buf[i]);
	fprintf(stderr, "%s\n", c->len > 32 ? "..." : "");
}

/* Outputs of the first operation must agree wherever they are comparable. */
static int check_outputs(const struct bench_row *row, struct part *parts, int np)
{
	const struct part *ref = NULL;
	int bad = 0;

	for (int i = 0; i < np; i++) {
		struct part *p = &parts[i];

		if (p->status != 1 || !p->chk.len)
			continue;
		if (!ref) {
			ref = p;
			continue;
		}
		if (p->chk.len != ref->chk.len || memcmp(p->chk.buf, ref->chk.buf, p->chk.len)) {
			fprintf(stderr, "rind-bench: %s/%u: outputs differ:\n", row->op, row->bytes);
			print_hex(ref->lib == LIB_RIND ? ref->driver : bench_lib_names[ref->lib],
				  &ref->chk);
			print_hex(p->lib == LIB_RIND ? p->driver : bench_lib_names[p->lib], &p->chk);
			bad = 1;
		}
	}
	return bad;
}

static void run_row(const struct bench_row *row)
{
	struct part parts[MAX_PARTS];
	struct driver_list *dl = NULL;
	struct bench_result *r;
	struct bench_cell main_cells[BENCH_NLIBS];
	unsigned int rounds = opt.quick ? 3 : opt.rounds;
	double target;
	int np = 0, mismatch, first_driver;

	memset(parts, 0, sizeof(parts));
	for (int lib = 0; lib < BENCH_NLIBS; lib++) {
		struct part *p = &parts[np++];

		p->lib = lib;
		p->impl = row->impl[lib];
		if (lib == LIB_RIND)
			snprintf(p->alg, sizeof(p->alg), "%s", row->rind_alg ? row->rind_alg : "");
		part_setup(row, p);
	}

	first_driver = np;
	if (opt.drivers && row->rind_alg && row->impl[LIB_RIND]) {
		dl = calloc(1, sizeof(*dl));
		if (dl)
			list_drivers(row->rind_alg, dl);
		for (int i = 0; dl && i < dl->n && np < MAX_PARTS; i++) {
			struct part *p = &parts[np];
			int dup = 0;

			p->lib = LIB_RIND;
			p->impl = row->impl[LIB_RIND];
			p->is_driver_row = 1;
			snprintf(p->alg, sizeof(p->alg), "%s", dl->names[i]);
			part_setup(row, p);
			if (p->status != 1) {
				if (p->status < 0)
					fprintf(stderr, "rind-bench: %s/%u: driver %s: %s\n",
						row->op, row->bytes, p->alg,
						bench_strerror(p->status));
				continue;
			}
			/* two names can reach the same implementation */
			for (int j = first_driver; j < np; j++)
				dup |= !strcmp(parts[j].driver, p->driver);
			if (dup) {
				part_teardown(p);
				memset(p, 0, sizeof(*p));
				continue;
			}
			np++;
		}
		free(dl);
	}

	mismatch = check_outputs(row, parts, np);

	target = (opt.quick ? 2.0 : (row->round_ms ? row->round_ms : opt.round_ms)) * 1e6;
	for (int i = 0; i < np; i++) {
		if (parts[i].status != 1)
			continue;
		parts[i].samples = calloc(rounds, sizeof(double));
		if (!parts[i].samples) {
			parts[i].status = -ENOMEM;
			continue;
		}
		calibrate(row, &parts[i], target);
	}

	/* alternating rounds: A B C A B C ... */
	for (unsigned int round = 0; round < rounds; round++) {
		for (int i = 0; i < np; i++) {
			struct part *p = &parts[i];
			double t;
			int err;

			if (p->status != 1)
				continue;
			err = time_batch(p, p->iters, &t, 1);
			if (err) {
				part_fail(row, p, err);
				continue;
			}
			p->samples[p->nsamples++] = t / (double)p->iters;
		}
	}

	r = new_result(row);
	r->mismatch = mismatch;
	for (int lib = 0; lib < BENCH_NLIBS; lib++)
		part_stats(&parts[lib], &r->cell[lib]);
	snprintf(r->driver, sizeof(r->driver), "%s",
		 parts[LIB_RIND].status == 1 ? parts[LIB_RIND].driver : "");
	for (int lib = 0; lib < BENCH_NLIBS; lib++)
		if (r->cell[lib].status < 0)
			exit_status = 1;
	if (mismatch)
		exit_status = 1;
	report_table_row(r);

	main_cells[LIB_OPENSSL] = r->cell[LIB_OPENSSL];
	main_cells[LIB_SODIUM] = r->cell[LIB_SODIUM];
	for (int i = first_driver; i < np; i++) {
		struct bench_result *d = new_result(row);	/* may move results[] */

		d->is_driver_row = 1;
		snprintf(d->driver, sizeof(d->driver), "%s", parts[i].driver);
		part_stats(&parts[i], &d->cell[LIB_RIND]);
		/* the other libraries' numbers from the same rounds, for the ratio */
		d->cell[LIB_OPENSSL] = main_cells[LIB_OPENSSL];
		d->cell[LIB_SODIUM] = main_cells[LIB_SODIUM];
		if (d->cell[LIB_RIND].status < 0)
			exit_status = 1;
		report_table_row(d);
	}

	for (int i = 0; i < np; i++)
		part_teardown(&parts[i]);
}

/* ---- the run ------------------------------------------------------------ */

static int row_selected(const struct bench_row *row)
{
	char name[256];

	if (!opt.have_filter)
		return 1;
	if (!regexec(&opt.filter, row->op, 0, NULL, 0))
		return 1;
	snprintf(name, sizeof(name), "%s/%u", row->op, row->bytes);
	return !regexec(&opt.filter, name, 0, NULL, 0);
}

static const struct bench_row *const tables[] = {
	bench_rows_sym, bench_rows_hash, bench_rows_pk,
	bench_rows_mldsa,
};

static void read_cpu_name(char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];
	struct utsname u;

	out[0] = 0;
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');

			if (!colon || strncmp(line, "model name", 10))
				continue;
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			colon[strcspn(colon, "\n")] = 0;
			snprintf(out, len, "%s", colon);
			break;
		}
		fclose(f);
	}
	if (!out[0] && !uname(&u))
		snprintf(out, len, "%s", u.machine);
}

static void fill_meta(struct bench_meta *m, int argc, char **argv)
{
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	size_t off = 0;

	memset(m, 0, sizeof(*m));
	read_cpu_name(m->cpu, sizeof(m->cpu));
	gmtime_r(&now, &tm);
	strftime(m->date, sizeof(m->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(m->version, sizeof(m->version), "%s", RIND_VERSION);
	if (!uname(&u))
		snprintf(m->kernel, sizeof(m->kernel), "%s %s %s", u.sysname, u.release, u.machine);
	snprintf(m->openssl, sizeof(m->openssl), "%s", OpenSSL_version(OPENSSL_VERSION));
	snprintf(m->sodium, sizeof(m->sodium), "libsodium %s", sodium_version_string());
	m->ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	m->pinned_cpu = opt.pin;
	m->quick = opt.quick;
	m->drivers = opt.drivers;
	m->rounds = opt.quick ? 3 : opt.rounds;
	m->round_ms = opt.quick ? 2 : opt.round_ms;
	m->wall_clock = opt.wall_clock;
	off = (size_t)snprintf(m->command, sizeof(m->command), "rind-bench");
	for (int i = 1; i < argc && off < sizeof(m->command); i++)
		off += (size_t)snprintf(m->command + off, sizeof(m->command) - off, " %s", argv[i]);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rind-bench [options]\n"
		"  --filter REGEX   only rows whose operation (or \"operation/bytes\") matches\n"
		"  --quick          short rounds (2 ms, 3 rounds): a smoke test, not a measurement\n"
		"  --drivers        also time every registered rind implementation of each row\n"
		"  --pin CPU        pin the process to CPU\n"
		"  --json FILE      write the results as JSON\n"
		"  --html FILE      write a self-contained HTML page with bar charts\n"
		"  --rounds N       timed rounds per library (default 7)\n"
		"  --round-ms MS    length of one round (default 30)\n"
		"  --clock cpu|wall time on-CPU (CLOCK_THREAD_CPUTIME_ID, default) or elapsed\n"
		"                   (CLOCK_MONOTONIC) time\n"
		"  --list           list the rows and exit\n"
		"  --help\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "filter", required_argument, NULL, 'f' },
		{ "quick", no_argument, NULL, 'q' },
		{ "drivers", no_argument, NULL, 'd' },
		{ "pin", required_argument, NULL, 'p' },
		{ "json", required_argument, NULL, 'j' },
		{ "html", required_argument, NULL, 'H' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "round-ms", required_argument, NULL, 'm' },
		{ "list", no_argument, NULL, 'l' },
		{ "clock", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench_meta meta;
	int c, list = 0, rc;
	char *end;
	long v;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			rc = regcomp(&opt.filter, optarg, REG_EXTENDED | REG_NOSUB);
			if (rc) {
				char msg[256];

				regerror(rc, &opt.filter, msg, sizeof(msg));
				fprintf(stderr, "rind-bench: --filter: %s\n", msg);
				return 2;
			}
			opt.have_filter = 1;
			break;
		case 'q':
			opt.quick = 1;
			break;
		case 'd':
			opt.drivers = 1;
			break;
		case 'p':
		case 'r':
		case 'm':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || v < (c == 'p' ? 0 : 1) ||
			    (c == 'r' && v > MAX_ROUNDS) || (c == 'p' && v >= CPU_SETSIZE) ||
			    v > 100000) {
				fprintf(stderr, "rind-bench: bad number: %s\n", optarg);
				return 2;
			}
			if (c == 'p')
				opt.pin = (int)v;
			else if (c == 'r')
				opt.rounds = (unsigned int)v;
			else
				opt.round_ms = (unsigned int)v;
			break;
		case 'j':
			opt.json = optarg;
			break;
		case 'H':
			opt.html = optarg;
			break;
		case 'l':
			list = 1;
			break;
		case 'c':
			if (!strcmp(optarg, "wall")) {
				opt.wall_clock = 1;
			} else if (strcmp(optarg, "cpu")) {
				fprintf(stderr, "rind-bench: --clock cpu|wall\n");
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}

	if (list) {
		for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
			for (const struct bench_row *row = tables[t]; row->op; row++)
				if (row_selected(row))
					printf("%-20s %-32s %6u  %s\n", row->group, row->op,
					       row->bytes, row->rind_alg ? row->rind_alg : "-");
		return 0;
	}

	if (opt.pin >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(opt.pin, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			fprintf(stderr, "rind-bench: --pin %d: %s\n", opt.pin, strerror(errno));
			return 2;
		}
	}
	if (sodium_init() < 0) {
		fprintf(stderr, "rind-bench: sodium_init failed\n");
		return 3;
	}

	fill_meta(&meta, argc, argv);
	if (!opt.quick) {
		/* let the core leave its idle clock before the first row */
		double t0 = now_ns();

		while (now_ns() - t0 < 300e6)
			bench_sink++;
	}
	report_table_header(&meta);
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		for (const struct bench_row *row = tables[t]; row->op; row++)
			if (row_selected(row))
				run_row(row);
	meta.descheduled = timed_wall > 0 ? (timed_wall - timed_cpu) / timed_wall : 0;
	report_table_footer(&meta);
	if (!nresults)
		fprintf(stderr, "rind-bench: no row matches the filter\n");

	if (opt.json && report_json(opt.json, &meta, results, nresults))
		exit_status = 1;
	if (opt.html && report_html(opt.html, &meta, results, nresults))
		exit_status = 1;

	bench_pk_cleanup();
	free(results);
	if (opt.have_filter)
		regfree(&opt.filter);
	return exit_status;
}
