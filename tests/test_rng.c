// SPDX-License-Identifier: MIT
/*
 * Suite "rng": "stdrng" (every implementation) and rind_get_random_bytes().
 *
 *  - known answers and determinism of crypto_rng_reset() with a seed
 *    (values from an independent Python model of algs/drbg.c's design);
 *  - fork: a child (and a grandchild) never repeats its parent's stream,
 *    for the per-thread generator and for a tfm allocated before the fork;
 *    also through a raw fork syscall that skips pthread_atfork (x86-64
 *    only: MADV_WIPEONFORK alone must do it) and a raw clone(SIGCHLD), for
 *    a tfm too (the generator notices the child without libc's help);
 *  - 16 threads: no two outputs equal, per-thread generators and one
 *    shared tfm;
 *  - a statistical tripwire (no repeated 32-byte output in a million
 *    draws, monobit and byte chi-square over 8 Mbit) -- not a proof;
 *  - reseeding by bytes and by time, and that a deterministic tfm never
 *    reseeds;
 *  - getrandom(2) failing (seccomp, x86-64 only) is an error with the
 *    output zeroed, never a weaker fallback.
 */
#include "testutil.h"
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <math.h>
#include <openssl/sha.h>
#include <rind/rng.h>
#include <rind/internal/rng.h>

#define REQ(c) do { if (!(c)) ck_assert_msg(0, "failed: %s", #c); } while (0)

static char drivers[RT_MAX_IMPLS][CRYPTO_MAX_ALG_NAME];

static int impls(void)
{
	return rt_impls("stdrng", "rng", drivers, RT_MAX_IMPLS);
}

static struct crypto_rng *alloc_rng(const char *drv)
{
	struct crypto_rng *tfm = crypto_alloc_rng(drv, 0, 0);

	ck_assert_msg(!IS_ERR(tfm), "%s: alloc %ld", drv, PTR_ERR(tfm));
	if (strcmp(drv, "stdrng"))
		ck_assert_str_eq(crypto_rng_driver_name(tfm), drv);
	return tfm;
}

/* Seed 00..1f, then requests of 1, 31, 100, 1000 bytes: SHA-256 of the output. */
static const char kat_seq_sha256[] =
	"da025c1aef81be0cb331733d8842ad52f4cd6067759cd65c404ee93038659ca4";
/* Seed 00..1f, two 64-byte requests: the first 32 bytes. */
static const char kat_first[] =
	"0b338e55bc80b91681afd99b57d01b9a0ae09b45aae9ac08d0776399ae631f06";

START_TEST(test_kat_and_determinism)
{
	int n = impls();
	u8 seed[257], a[1132], b[1132], want[32], md[32];

	for (int i = 0; i < 257; i++)
		seed[i] = (u8)i;
	rt_unhex(want, sizeof(want), kat_first);
	for (int d = 0; d < n; d++) {
		struct crypto_rng *t1 = alloc_rng(drivers[d]), *t2 = alloc_rng(drivers[d]);
		size_t o = 0;

		ck_assert_uint_eq(crypto_rng_seedsize(t1), 32);
		ck_assert_str_eq(crypto_rng_alg_name(t1), "stdrng");
		/* Seed size limits. */
		ck_assert_int_eq(crypto_rng_reset(t1, seed, 31), -EINVAL);
		ck_assert_int_eq(crypto_rng_reset(t1, seed, 257), -EINVAL);
		ck_assert_int_eq(crypto_rng_reset(t1, NULL, 5), -EINVAL);
		ck_assert_int_eq(crypto_rng_reset(t1, seed, 256), 0);

		ck_assert_int_eq(crypto_rng_reset(t1, seed, 32), 0);
		ck_assert_int_eq(crypto_rng_get_bytes(t1, a, 64), 0);
		ck_assert_msg(!memcmp(a, want, 32), "%s: KAT %s", drivers[d], rt_hex(a, 32));

		ck_assert_int_eq(crypto_rng_reset(t1, seed, 32), 0);
		for (int k = 0; k < 4; k++) {
			static const unsigned int len[] = { 1, 31, 100, 1000 };

			ck_assert_int_eq(crypto_rng_get_bytes(t1, a + o, len[k]), 0);
			o += len[k];
		}
		SHA256(a, o, md);
		ck_assert_msg(!strcmp(rt_hex(md, 32), kat_seq_sha256), "%s: sequence KAT",
			      drivers[d]);

		/* Same seed, same stream; different seed, different stream. */
		ck_assert_int_eq(crypto_rng_reset(t1, seed, 40), 0);
		ck_assert_int_eq(crypto_rng_reset(t2, seed, 40), 0);
		ck_assert_int_eq(crypto_rng_get_bytes(t1, a, sizeof(a)), 0);
		ck_assert_int_eq(crypto_rng_get_bytes(t2, b, sizeof(b)), 0);
		ck_assert(!memcmp(a, b, sizeof(a)));
		seed[39] ^= 1;
		ck_assert_int_eq(crypto_rng_reset(t2, seed, 40), 0);
		seed[39] ^= 1;
		ck_assert_int_eq(crypto_rng_get_bytes(t2, b, sizeof(b)), 0);
		ck_assert(memcmp(a, b, 32));
		/* The seed's length matters (no zero-padding collision). */
		ck_assert_int_eq(crypto_rng_reset(t1, seed, 32), 0);
		seed[32] = 0;
		ck_assert_int_eq(crypto_rng_reset(t2, seed, 33), 0);
		seed[32] = 32;
		ck_assert_int_eq(crypto_rng_get_bytes(t1, a, 64), 0);
		ck_assert_int_eq(crypto_rng_get_bytes(t2, b, 64), 0);
		ck_assert(memcmp(a, b, 64));

		/* Additional input changes the output. */
		ck_assert_int_eq(crypto_rng_reset(t1, seed, 32), 0);
		ck_assert_int_eq(crypto_rng_reset(t2, seed, 32), 0);
		ck_assert_int_eq(crypto_rng_generate(t1, (const u8 *)"x", 1, a, 64), 0);
		ck_assert_int_eq(crypto_rng_generate(t2, NULL, 0, b, 64), 0);
		ck_assert(memcmp(a, b, 64));
		ck_assert_int_eq(crypto_rng_generate(t1, NULL, 5, a, 64), -EINVAL);

		/* Reset without a seed: back to the OS, the two diverge. */
		ck_assert_int_eq(crypto_rng_reset(t1, seed, 32), 0);
		ck_assert_int_eq(crypto_rng_reset(t2, seed, 32), 0);
		ck_assert_int_eq(crypto_rng_reset(t1, NULL, 0), 0);
		ck_assert_int_eq(crypto_rng_reset(t2, NULL, 0), 0);
		ck_assert_int_eq(crypto_rng_get_bytes(t1, a, 64), 0);
		ck_assert_int_eq(crypto_rng_get_bytes(t2, b, 64), 0);
		ck_assert(memcmp(a, b, 64));

		/* Two fresh tfms differ. */
		crypto_free_rng(t2);
		t2 = alloc_rng(drivers[d]);
		ck_assert_int_eq(crypto_rng_get_bytes(t2, b, 64), 0);
		ck_assert(memcmp(a, b, 64));
		ck_assert_int_eq(crypto_rng_get_bytes(t2, b, 0), 0);
		crypto_free_rng(t1);
		crypto_free_rng(t2);
	}
	rt_report("stdrng known answers and determinism", "all", n, 0);
}
END_TEST

/* ---- fork ---- */

static void read_all(int fd, void *buf, size_t len)
{
	u8 *p = buf;

	while (len) {
		ssize_t r = read(fd, p, len);

		ck_assert_int_gt(r, 0);
		p += r;
		len -= (size_t)r;
	}
}

/*
 * Draw 64 bytes in the parent and in a child (and the child's own child),
 * with @draw, after @forker; all three must differ.
 */
static void fork_case(int (*draw)(void *ctx, u8 *out, size_t len), void *ctx,
		      pid_t (*forker)(void), const char *what)
{
	u8 warm[32], p[64], c[64], gc[64];
	int fd[2], status;
	pid_t pid;

	REQ(draw(ctx, warm, sizeof(warm)) == 0);
	ck_assert_int_eq(pipe(fd), 0);
	pid = forker();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		u8 out[128];
		int gfd[2];
		pid_t g;

		close(fd[0]);
		if (pipe(gfd))
			_exit(2);
		g = forker();
		if (g == 0) {
			close(gfd[0]);
			if (draw(ctx, out, 64) || write(gfd[1], out, 64) != 64)
				_exit(3);
			_exit(0);
		}
		close(gfd[1]);
		if (draw(ctx, out, 64))
			_exit(4);
		{
			size_t got = 0;

			while (got < 64) {
				ssize_t r = read(gfd[0], out + 64 + got, 64 - got);

				if (r <= 0)
					_exit(5);
				got += (size_t)r;
			}
		}
		waitpid(g, &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			_exit(6);
		if (write(fd[1], out, 128) != 128)
			_exit(7);
		_exit(0);
	}
	close(fd[1]);
	REQ(draw(ctx, p, 64) == 0);
	read_all(fd[0], c, 64);
	read_all(fd[0], gc, 64);
	close(fd[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: child status %d", what,
		      status);
	ck_assert_msg(memcmp(p, c, 64) && memcmp(p, gc, 64) && memcmp(c, gc, 64),
		      "%s: parent/child/grandchild streams repeat", what);
	/* Nor does any 16-byte window of one appear in another. */
	for (int i = 0; i + 16 <= 64; i++)
		for (int j = 0; j + 16 <= 64; j++)
			REQ(memcmp(p + i, c + j, 16) && memcmp(p + i, gc + j, 16) &&
			    memcmp(c + i, gc + j, 16));
}

static int draw_thread(void *ctx, u8 *out, size_t len)
{
	(void)ctx;
	return rind_get_random_bytes(out, len);
}

static int draw_tfm(void *ctx, u8 *out, size_t len)
{
	return crypto_rng_get_bytes(ctx, out, (unsigned int)len);
}

static pid_t libc_fork(void)
{
	return fork();
}

#if defined(__x86_64__)
/* fork without pthread_atfork handlers: only MADV_WIPEONFORK protects. */
static pid_t raw_fork(void)
{
	return (pid_t)syscall(SYS_fork);
}
#endif

/*
 * clone(2) as a fork, straight to the kernel (no pthread_atfork, no libc
 * bookkeeping): a tfm's state is ordinary memory the child inherits, so
 * only a check independent of libc (a MADV_WIPEONFORK canary, or the pid)
 * can tell the child from its parent.
 */
static pid_t raw_clone(void)
{
	return (pid_t)syscall(SYS_clone, (unsigned long)SIGCHLD, 0ul, 0ul, 0ul, 0ul);
}

START_TEST(test_fork)
{
	int n = impls(), cases = 0;

	for (int i = 0; i < 10; i++, cases++)
		fork_case(draw_thread, NULL, libc_fork, "rind_get_random_bytes/fork");
	for (int d = 0; d < n; d++) {
		struct crypto_rng *tfm = alloc_rng(drivers[d]);

		for (int i = 0; i < 5; i++, cases++)
			fork_case(draw_tfm, tfm, libc_fork, drivers[d]);
		crypto_free_rng(tfm);
	}
#if defined(__x86_64__)
	for (int i = 0; i < 10; i++, cases++)
		fork_case(draw_thread, NULL, raw_fork, "rind_get_random_bytes/raw fork syscall");
#endif
	for (int i = 0; i < 5; i++, cases++)
		fork_case(draw_thread, NULL, raw_clone, "rind_get_random_bytes/raw clone(SIGCHLD)");
	for (int d = 0; d < n; d++) {
		struct crypto_rng *tfm = alloc_rng(drivers[d]);

		for (int i = 0; i < 5; i++, cases++) {
			char what[128];

			snprintf(what, sizeof(what), "%.64s tfm/raw clone(SIGCHLD)", drivers[d]);
			fork_case(draw_tfm, tfm, raw_clone, what);
		}
		crypto_free_rng(tfm);
	}
	rt_report("fork cases (parent, child, grandchild)", "all", cases, 0);
}
END_TEST

/*
 * fork() while another thread is inside the registry (its lock held, for
 * lookups and allocations): the child must be able to draw random bytes and
 * allocate, not inherit a lock whose owner does not exist there.
 */
static volatile int registry_busy_stop;

static void *registry_busy(void *arg)
{
	(void)arg;
	while (!registry_busy_stop) {
		struct crypto_shash *h = crypto_alloc_shash("hmac(sha256)", 0, 0);

		if (!IS_ERR(h))
			crypto_free_shash(h);
	}
	return NULL;
}

START_TEST(test_fork_registry_busy)
{
	pthread_t th;
	int hung = 0, failed = 0, forks = 200;

	/*
	 * The library is initialised before the thread starts: a fork while
	 * another thread is still inside crypto_init() is a different case
	 * (glibc re-runs the once routine in the child over the half-built
	 * list) and is not handled yet.
	 */
	{
		u8 b;

		ck_assert_int_eq(rind_get_random_bytes(&b, 1), 0);
	}
	ck_assert_int_eq(pthread_create(&th, NULL, registry_busy, NULL), 0);
	for (int i = 0; i < forks; i++) {
		pid_t pid = fork();
		int st;

		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			u8 buf[32];
			struct crypto_aead *a;

			alarm(10);
			if (rind_get_random_bytes(buf, sizeof(buf)))
				_exit(2);
			a = crypto_alloc_aead("gcm(aes)", 0, 0);
			if (IS_ERR(a))
				_exit(3);
			crypto_free_aead(a);
			_exit(0);
		}
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
			hung++;
		else if (!WIFEXITED(st) || WEXITSTATUS(st))
			failed++;
	}
	registry_busy_stop = 1;
	pthread_join(th, NULL);
	ck_assert_msg(!hung && !failed, "%d of %d children hung, %d failed", hung, forks, failed);
	rt_report("fork while another thread is in the registry", "all", forks, 0);
}
END_TEST

/* A deterministic tfm stays deterministic across fork (documented). */
START_TEST(test_fork_deterministic)
{
	struct crypto_rng *tfm = alloc_rng("drbg-chacha20-generic");
	u8 seed[32] = { 1 }, p[64], c[64];
	int fd[2], status;
	pid_t pid;

	ck_assert_int_eq(crypto_rng_reset(tfm, seed, 32), 0);
	ck_assert_int_eq(pipe(fd), 0);
	pid = fork();
	if (pid == 0) {
		if (crypto_rng_get_bytes(tfm, c, 64) || write(fd[1], c, 64) != 64)
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	ck_assert_int_eq(crypto_rng_get_bytes(tfm, p, 64), 0);
	read_all(fd[0], c, 64);
	close(fd[0]);
	waitpid(pid, &status, 0);
	ck_assert(WIFEXITED(status) && !WEXITSTATUS(status));
	ck_assert(!memcmp(p, c, 64));
	crypto_free_rng(tfm);
}
END_TEST

/* ---- threads ---- */

#define NTHREADS	16
#define PER_THREAD	4000

struct thr {
	struct crypto_rng *tfm;	/* NULL: rind_get_random_bytes */
	u8 (*out)[32];
	u64 seeds;
	int err;
};

static void *thr_main(void *arg)
{
	struct thr *t = arg;

	for (int i = 0; i < PER_THREAD && !t->err; i++)
		t->err = t->tfm ? crypto_rng_get_bytes(t->tfm, t->out[i], 32)
				: rind_get_random_bytes(t->out[i], 32);
	t->seeds = rind_drbg_thread_seed_count();
	return NULL;
}

static int cmp32(const void *a, const void *b)
{
	return memcmp(a, b, 32);
}

static void run_threads(struct crypto_rng *tfm, const char *what)
{
	u8 (*all)[32] = calloc(NTHREADS * PER_THREAD, 32);
	pthread_t th[NTHREADS];
	struct thr t[NTHREADS];

	ck_assert_ptr_nonnull(all);
	for (int i = 0; i < NTHREADS; i++) {
		t[i] = (struct thr){ tfm, all + i * PER_THREAD, 0, 0 };
		ck_assert_int_eq(pthread_create(&th[i], NULL, thr_main, &t[i]), 0);
	}
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], NULL);
		ck_assert_int_eq(t[i].err, 0);
		if (!tfm)
			ck_assert_msg(t[i].seeds >= 1, "%s: thread %d never seeded", what, i);
	}
	qsort(all, NTHREADS * PER_THREAD, 32, cmp32);
	for (int i = 1; i < NTHREADS * PER_THREAD; i++)
		REQ(memcmp(all[i - 1], all[i], 32) != 0);
	free(all);
}

START_TEST(test_threads)
{
	int n = impls();

	run_threads(NULL, "rind_get_random_bytes");
	for (int d = 0; d < n; d++) {
		struct crypto_rng *tfm = alloc_rng(drivers[d]);

		run_threads(tfm, drivers[d]);
		crypto_free_rng(tfm);
	}
	rt_report("16-thread draws without repeats", "all", (n + 1) * NTHREADS * PER_THREAD, 0);
}
END_TEST

/* ---- statistics (a tripwire) ---- */

#define DRAWS		1000000
#define HBITS		21

/* No repeated 32-byte output in a million draws (open-addressing hash set). */
static void no_repeats(int (*draw)(void *ctx, u8 *out, size_t len), void *ctx, const char *what)
{
	u8 (*vals)[32] = malloc((size_t)DRAWS * 32);
	u32 *slot = calloc((size_t)1 << HBITS, sizeof(u32));
	u32 mask = (1u << HBITS) - 1;

	ck_assert(vals && slot);
	for (u32 i = 0; i < DRAWS; i++) {
		u32 h;

		REQ(draw(ctx, vals[i], 32) == 0);
		memcpy(&h, vals[i], 4);
		for (h &= mask; slot[h]; h = (h + 1) & mask)
			if (!memcmp(vals[slot[h] - 1], vals[i], 32))
				ck_abort_msg("%s: draw %u repeats draw %u", what, i, slot[h] - 1);
		slot[h] = i + 1;
	}
	free(vals);
	free(slot);
}

/* Monobit and byte chi-square over 8 Mbit (bounds about 6 sigma). */
static void bit_stats(const u8 *buf, size_t len, const char *what)
{
	u64 ones = 0, bytes[256] = { 0 };
	double expect = (double)len / 256.0, chi = 0, mean = (double)len * 4.0;
	double sd = sqrt((double)len * 8.0) / 2.0;

	for (size_t i = 0; i < len; i++) {
		ones += (u64)__builtin_popcount(buf[i]);
		bytes[buf[i]]++;
	}
	for (int i = 0; i < 256; i++)
		chi += ((double)bytes[i] - expect) * ((double)bytes[i] - expect) / expect;
	ck_assert_msg(fabs((double)ones - mean) < 6 * sd, "%s: monobit %llu of %.0f", what,
		      (unsigned long long)ones, mean * 2);
	ck_assert_msg(chi < 400.0, "%s: byte chi-square %.1f (255 df)", what, chi);
}

START_TEST(test_statistics)
{
	struct crypto_rng *tfm = alloc_rng("stdrng");
	size_t len = 1 << 20;
	u8 *buf = malloc(len);

	ck_assert_ptr_nonnull(buf);
	no_repeats(draw_thread, NULL, "rind_get_random_bytes");
	/* Small draws (the buffered path) ... */
	for (size_t o = 0; o < len; o += 32)
		REQ(rind_get_random_bytes(buf + o, 32) == 0);
	bit_stats(buf, len, "rind_get_random_bytes, 32-byte draws");
	/* ... one bulk draw, and the tfm. */
	ck_assert_int_eq(rind_get_random_bytes(buf, len), 0);
	bit_stats(buf, len, "rind_get_random_bytes, one 1 MiB draw");
	ck_assert_int_eq(crypto_rng_get_bytes(tfm, buf, (unsigned int)len), 0);
	bit_stats(buf, len, crypto_rng_driver_name(tfm));
	/* Odd sizes straddle the buffer and bulk paths without losing bytes. */
	for (size_t o = 0, k = 1; o < len; o += k, k = k * 7 % 1013 + 1)
		REQ(rind_get_random_bytes(buf + o, min(k, len - o)) == 0);
	bit_stats(buf, len, "rind_get_random_bytes, mixed sizes");
	crypto_free_rng(tfm);
	free(buf);
	rt_report("draws without a repeated 32-byte output", "rind_get_random_bytes", DRAWS, 0);
}
END_TEST

/* ---- reseeding ---- */

static void *reseed_bytes_thread(void *arg)
{
	u8 out[32];
	u64 *seeds = arg;

	for (int i = 0; i < 2048; i++)		/* 64 KiB */
		if (rind_get_random_bytes(out, sizeof(out)))
			return NULL;
	*seeds = rind_drbg_thread_seed_count();
	return NULL;
}

static void *reseed_time_thread(void *arg)
{
	struct timespec ts = { 0, 3 * 1000 * 1000 };
	u8 out[600];
	u64 *seeds = arg;

	for (int i = 0; i < 6; i++) {
		if (rind_get_random_bytes(out, sizeof(out)))
			return NULL;
		nanosleep(&ts, NULL);
	}
	*seeds = rind_drbg_thread_seed_count();
	return NULL;
}

START_TEST(test_reseed)
{
	pthread_t th;
	u64 seeds = 0;
	struct crypto_rng *t1 = alloc_rng("stdrng"), *t2 = alloc_rng("stdrng");
	u8 seed[32] = { 7 }, *a = malloc(65536), *b = malloc(65536);

	/* By bytes: every 4 KiB. */
	rind_drbg_set_reseed_interval(4096, 0);
	ck_assert_int_eq(pthread_create(&th, NULL, reseed_bytes_thread, &seeds), 0);
	pthread_join(th, NULL);
	ck_assert_msg(seeds >= 12 && seeds <= 17, "64 KiB at a 4 KiB interval: %llu seedings",
		      (unsigned long long)seeds);
	/* A deterministic tfm never reseeds from the OS. */
	ck_assert_int_eq(crypto_rng_reset(t1, seed, 32), 0);
	ck_assert_int_eq(crypto_rng_reset(t2, seed, 32), 0);
	for (int i = 0; i < 64; i++)
		ck_assert_int_eq(crypto_rng_get_bytes(t1, a + i * 1024, 1024), 0);
	ck_assert_int_eq(crypto_rng_get_bytes(t2, b, 65536), 0);
	/* (request sizes differ, so compare each against its own replay) */
	ck_assert_int_eq(crypto_rng_reset(t2, seed, 32), 0);
	for (int i = 0; i < 64; i++)
		ck_assert_int_eq(crypto_rng_get_bytes(t2, b + i * 1024, 1024), 0);
	ck_assert(!memcmp(a, b, 65536));
	/* A non-deterministic tfm reseeds and stays unique. */
	ck_assert_int_eq(crypto_rng_reset(t1, NULL, 0), 0);
	ck_assert_int_eq(crypto_rng_get_bytes(t1, a, 65536), 0);
	ck_assert(memcmp(a, b, 32));
	rind_drbg_set_reseed_interval(1u << 20, 0);

	/* By time: every 1 ms, with 3 ms between refills. */
	rind_drbg_set_reseed_interval(0, 1000 * 1000);
	seeds = 0;
	ck_assert_int_eq(pthread_create(&th, NULL, reseed_time_thread, &seeds), 0);
	pthread_join(th, NULL);
	ck_assert_msg(seeds >= 5, "6 refills 3 ms apart at a 1 ms interval: %llu seedings",
		      (unsigned long long)seeds);
	rind_drbg_set_reseed_interval(0, 60ull * 1000 * 1000 * 1000);

	/* With the defaults a thread seeds once for small use. */
	seeds = 0;
	ck_assert_int_eq(pthread_create(&th, NULL, reseed_bytes_thread, &seeds), 0);
	pthread_join(th, NULL);
	ck_assert_uint_eq(seeds, 1);
	crypto_free_rng(t1);
	crypto_free_rng(t2);
	free(a);
	free(b);
}
END_TEST

/* ---- getrandom failure ---- */

#if defined(__x86_64__)
/*
 * A seccomp filter making getrandom fail with ENOSYS.  The kernel's
 * <linux/filter.h> and <linux/seccomp.h> cannot be included next to
 * <rind/types.h> (both define __le64 ...), so the few constants and
 * structures are spelled out here (values from the kernel UAPI).
 */
struct sock_filter {
	u16 code;
	u8 jt;
	u8 jf;
	u32 k;
};

struct sock_fprog {
	unsigned short len;
	struct sock_filter *filter;
};

#define BPF_STMT(code, k)		{ (u16)(code), 0, 0, (u32)(k) }
#define BPF_JUMP(code, k, jt, jf)	{ (u16)(code), (jt), (jf), (u32)(k) }
#define BPF_LD			0x00
#define BPF_W			0x00
#define BPF_ABS			0x20
#define BPF_JMP			0x05
#define BPF_JEQ			0x10
#define BPF_K			0x00
#define BPF_RET			0x06
#define SECCOMP_RET_ALLOW	0x7fff0000u
#define SECCOMP_RET_ERRNO	0x00050000u
#define SECCOMP_SET_MODE_FILTER	1
#define AUDIT_ARCH_X86_64	0xc000003eu
#define SECCOMP_DATA_NR		0	/* SECCOMP_DATA_NR */
#define SECCOMP_DATA_ARCH	4	/* SECCOMP_DATA_ARCH */
#define PR_SET_NO_NEW_PRIVS_	38

static int deny_getrandom(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SECCOMP_DATA_ARCH),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SECCOMP_DATA_NR),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getrandom, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { (unsigned short)ARRAY_SIZE(f), f };

	if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS_, 1L, 0L, 0L, 0L))
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static void *fail_thread(void *arg)
{
	u8 out[64];
	int *res = arg;

	memset(out, 0xaa, sizeof(out));
	res[0] = rind_get_random_bytes(out, sizeof(out));
	res[1] = 0;
	for (size_t i = 0; i < sizeof(out); i++)
		res[1] |= out[i];
	return NULL;
}

START_TEST(test_getrandom_failure)
{
	int fd[2], status, res[3];
	pid_t pid;

	crypto_has_alg("stdrng", 0, 0);		/* registry up before the filter */
	ck_assert_int_eq(pipe(fd), 0);
	pid = fork();
	if (pid == 0) {
		pthread_t th;
		struct crypto_rng *tfm;
		u8 buf[32];

		res[0] = res[1] = res[2] = 1;
		if (deny_getrandom() == 0) {
			/* A new thread has no state: it must seed, and cannot. */
			pthread_create(&th, NULL, fail_thread, res);
			pthread_join(th, NULL);
			/* The forked thread's state is unseeded too. */
			memset(buf, 0xaa, sizeof(buf));
			if (rind_get_random_bytes(buf, sizeof(buf)) != -ENOSYS || buf[0] || buf[31])
				res[1] = 1;
			tfm = crypto_alloc_rng("stdrng", 0, 0);
			res[2] = IS_ERR(tfm) ? (int)PTR_ERR(tfm) : 0;
		} else {
			res[0] = 1000;	/* no seccomp here: skipped */
		}
		if (write(fd[1], res, sizeof(res)) != sizeof(res))
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	read_all(fd[0], res, sizeof(res));
	close(fd[0]);
	waitpid(pid, &status, 0);
	if (res[0] == 1000) {
		printf("SKIP: seccomp unavailable, getrandom failure not tested\n");
		return;
	}
	ck_assert_int_eq(res[0], -ENOSYS);
	ck_assert_int_eq(res[1], 0);
	ck_assert_int_eq(res[2], -ENOSYS);
}
END_TEST
#endif

START_TEST(test_api_edges)
{
	u8 b[8];

	ck_assert_int_eq(rind_get_random_bytes(NULL, 0), 0);
	ck_assert_int_eq(rind_get_random_bytes(NULL, 8), -EINVAL);
	ck_assert_int_eq(rind_get_random_bytes(b, 0), 0);
	ck_assert(IS_ERR(crypto_alloc_rng("no-such-rng", 0, 0)));
	ck_assert(crypto_has_rng("stdrng", 0, 0));
	ck_assert(!crypto_has_rng("sha256", 0, 0));
}
END_TEST

static Suite *rng_suite(void)
{
	Suite *s = suite_create("rng");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_kat_and_determinism);
	tcase_add_test(tc, test_fork);
	tcase_add_test(tc, test_fork_deterministic);
	tcase_add_test(tc, test_fork_registry_busy);
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_statistics);
	tcase_add_test(tc, test_reseed);
#if defined(__x86_64__)
	tcase_add_test(tc, test_getrandom_failure);
#endif
	tcase_add_test(tc, test_api_edges);
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(rng_suite)
