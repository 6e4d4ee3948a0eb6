/* SPDX-License-Identifier: MIT */
/*
 * Harness of the rindd test suites (tests/test_daemon*.c): a private
 * temporary directory (socket, state directory, master key, log) and a
 * rindd started from RIND_BUILD_DIR with --foreground.  The daemon gets
 * PR_SET_PDEATHSIG=SIGKILL, and an atexit handler kills it and removes
 * the directory, so a failing or timed-out test (Check forks each test and
 * exits the child on failure, without teardown) leaves nothing running.
 *
 * Under the sanitizer builds (make check-asan, check-tsan) rindd is built
 * with the same sanitizer and inherits ASAN_OPTIONS/TSAN_OPTIONS; its
 * reports go to its stderr, the log file.  Every stop (rd_stop, the
 * teardown's SIGTERM) and every restart scans the log for a sanitizer
 * report and fails the test with it, and the teardown requires a clean
 * exit 0 (a report at exit, e.g. a leak, makes it nonzero).  When a test
 * fails otherwise (say, because the daemon died of a report), a sentinel
 * process prints the report and removes the directory (rd_sentinel).
 */
#ifndef RIND_TEST_DAEMON_H
#define RIND_TEST_DAEMON_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "testutil.h"
#include "rind_client.h"
#include "frame.h"

#ifndef RIND_BUILD_DIR
#define RIND_BUILD_DIR "build"
#endif

struct rd {
	char dir[128];
	char sock[192], state[192], mk[192], log[192];
	pid_t pid;
	pid_t owner;		/* the process that cleans up */
	pid_t sentinel;		/* cleans up after a failed test (rd_sentinel) */
	int registered;
};

static struct rd rd;

/*
 * Run in the daemon's process just before exec when set (rd_start_args):
 * a test's resource limits or seccomp filter for rindd alone.
 */
static void (*rd_child_hook)(void);

static uint64_t rd_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void rd_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int rd_rm(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	remove(p);
	return 0;
}

static void rd_atexit(void)
{
	if (getpid() != rd.owner)
		return;		/* a forked helper: not ours to clean */
	if (rd.sentinel > 0) {
		kill(rd.sentinel, SIGKILL);
		waitpid(rd.sentinel, NULL, 0);
		rd.sentinel = 0;
	}
	if (rd.pid > 0) {
		kill(rd.pid, SIGKILL);
		waitpid(rd.pid, NULL, 0);
		rd.pid = 0;
	}
	if (rd.dir[0]) {
		nftw(rd.dir, rd_rm, 16, FTW_DEPTH | FTW_PHYS);
		rd.dir[0] = 0;
	}
}

/*
 * The first sanitizer report in the log @path (malloc'd excerpt, at most
 * 6 KiB from its start, without rindd's own lines), NULL if none.
 * rindd's own lines begin "ts="; a report starts at any other line naming
 * a sanitizer or a UBSan "runtime error", so request text echoed in
 * rindd's lines cannot fake one.
 */
static char *rd_san_report(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096], *out = NULL;
	size_t n = 0, cap = 6144;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		size_t l;

		if (!strncmp(line, "ts=", 3))
			continue;	/* rindd's own lines, also when interleaved */
		if (!out) {
			if (!strstr(line, "Sanitizer") && !strstr(line, "runtime error"))
				continue;
			out = calloc(1, cap);
			if (!out)
				break;
		}
		l = strlen(line);
		if (n + l >= cap)
			break;
		memcpy(out + n, line, l + 1);
		n += l;
	}
	fclose(f);
	return out;
}

/* Fail the test when the current log holds a sanitizer report. */
static void rd_check_log(const char *when)
{
	char *rep;

	if (!rd.log[0])
		return;
	rep = rd_san_report(rd.log);
	if (rep) {
		fprintf(stderr, "rindd sanitizer report (%s):\n%s", when, rep);
		rd_atexit();	/* reported: the sentinel need not */
		ck_abort_msg("rindd sanitizer report (%s; whole report on stderr):\n%.1500s", when, rep);
	}
}

/*
 * Fail the test, with the reason, if the daemon has died (a sanitizer
 * with halt_on_error ends it at its first report).  Check ends a failing
 * test with _exit(), so tests call this before asserting on results a
 * dead daemon would spoil, to name the real cause.
 */
static void rd_check_alive(void)
{
	int st;

	if (rd.pid <= 0 || waitpid(rd.pid, &st, WNOHANG) != rd.pid)
		return;
	rd.pid = 0;
	rd_check_log("died");
	ck_abort_msg("rindd died: %s %d", WIFEXITED(st) ? "exit" : "signal",
		     WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? WTERMSIG(st) : st);
}

/*
 * Stop the daemon with @sig, wait (then SIGKILL after 10 s): its wait
 * status.  A sanitizer report in its log fails the test.
 */
static int rd_stop(int sig)
{
	uint64_t t0 = rd_now_ms();
	int status = -1;

	if (rd.pid <= 0)
		return -1;
	kill(rd.pid, sig);
	for (;;) {
		pid_t r = waitpid(rd.pid, &status, WNOHANG);

		if (r == rd.pid || (r < 0 && errno != EINTR))
			break;
		if (rd_now_ms() - t0 > 10000) {
			kill(rd.pid, SIGKILL);
			waitpid(rd.pid, &status, 0);
			break;
		}
		rd_sleep_ms(5);
	}
	rd.pid = 0;
	rd_check_log("stopped");
	return status;
}

/*
 * A master key from @seed, a different key for every seed: its first four
 * bytes are the seed itself.  (Derived from the seed alone, as it was
 * before, a key depended on only some of the seed's bits: the key of pid
 * 25044 was the "wrong" key 0xbad, and a wrong-master-key test failed
 * when its process had that pid.)
 */
static void rd_write_master(const char *path, unsigned int seed)
{
	FILE *f = fopen(path, "w");
	unsigned int i;

	ck_assert_msg(f != NULL, "cannot write %s", path);
	for (i = 0; i < 32; i++)
		fprintf(f, "%02x", i < 4 ? seed >> (8 * i) & 0xff : (seed * 2654435761u + i * 40503u) >> 8 & 0xff);
	fclose(f);
	chmod(path, 0600);
}

/*
 * Check ends a failing test with _exit(): no teardown, no atexit.  So a
 * sentinel process waits for the test process to end; when it ends
 * without teardown (which kills the sentinel first), the sentinel prints
 * the sanitizer report of the daemon's log, if any -- a daemon that died
 * of one makes some later assertion fail, which would otherwise hide the
 * cause -- and removes the directory.  The daemon itself dies with the
 * test process (PR_SET_PDEATHSIG).
 */
static void rd_sentinel(void)
{
	pid_t parent = getpid();
	sigset_t set, old;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	fflush(NULL);
	rd.sentinel = fork();
	ck_assert_msg(rd.sentinel >= 0, "fork: %s", strerror(errno));
	if (rd.sentinel == 0) {
		char *rep;

		setpgid(0, 0);	/* Check kills the test's process group */
		prctl(PR_SET_PDEATHSIG, SIGUSR1);
		if (getppid() == parent)
			sigwait(&set, &sig);
		rd_sleep_ms(200);	/* the daemon's SIGKILL, then its last words */
		rep = rd_san_report(rd.log);
		if (rep)
			fprintf(stderr, "rindd sanitizer report (the test failed):\n%s", rep);
		nftw(rd.dir, rd_rm, 16, FTW_DEPTH | FTW_PHYS);
		_exit(0);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* A fresh directory with a master key; the daemon is not started. */
static void rd_setup_dir(void)
{
	u8 seed[32] = { 0 }, pub[32];

	/*
	 * Initialise the registry (self-tests) once here, not in each of the
	 * client processes a test forks later.
	 */
	rind_ed25519_public_key(pub, seed);
	rd.owner = getpid();
	if (!rd.registered) {
		atexit(rd_atexit);
		rd.registered = 1;
	}
	snprintf(rd.dir, sizeof(rd.dir), "/tmp/rindd-test.XXXXXX");
	ck_assert_msg(mkdtemp(rd.dir) != NULL, "mkdtemp: %s", strerror(errno));
	snprintf(rd.sock, sizeof(rd.sock), "%s/rindd.sock", rd.dir);
	snprintf(rd.state, sizeof(rd.state), "%s/state", rd.dir);
	snprintf(rd.mk, sizeof(rd.mk), "%s/master.hex", rd.dir);
	snprintf(rd.log, sizeof(rd.log), "%s/rindd.log", rd.dir);
	/* the top bit set: the tests' other keys (0xbad, 77) are never this one */
	rd_write_master(rd.mk, 0x80000000u | (unsigned int)getpid());
	rd_sentinel();
}

static int rd_try_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		close(fd);
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Start rindd (extra arguments NULL-terminated); the log file is truncated.
 * Returns 0 once the socket accepts connections, -1 if the daemon exited
 * (its status in *@status if non-NULL) or did not come up within 20 s.
 */
static int rd_start_args(int *status, ...)
{
	const char *argv[32];
	int argc = 0, fd;
	uint64_t t0 = rd_now_ms();
	va_list ap;
	pid_t pid;

	argv[argc++] = RIND_BUILD_DIR "/rindd";
	argv[argc++] = "--foreground";
	argv[argc++] = "--socket";
	argv[argc++] = rd.sock;
	argv[argc++] = "--state-dir";
	argv[argc++] = rd.state;
	argv[argc++] = "--master-key-file";
	argv[argc++] = rd.mk;
	va_start(ap, status);
	while (argc < 31 && (argv[argc] = va_arg(ap, const char *)) != NULL)
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	rd_check_log("before restart");	/* the log is truncated below */
	unlink(rd.sock);
	fflush(NULL);
	pid = fork();
	ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		int lf = open(rd.log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (lf >= 0) {
			dup2(lf, 2);
			close(lf);
		}
		if (rd_child_hook)
			rd_child_hook();
		execv(argv[0], (char *const *)argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	rd.pid = pid;
	for (;;) {
		int st;

		if (waitpid(pid, &st, WNOHANG) == pid) {
			rd.pid = 0;
			if (status)
				*status = st;
			return -1;
		}
		fd = rd_try_connect(rd.sock);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (rd_now_ms() - t0 > 20000) {
			rd_stop(SIGKILL);
			return -1;
		}
		rd_sleep_ms(5);
	}
}

/* Start rindd with @threads worker threads, or fail the test with its log. */
static void rd_start_threads(const char *threads)
{
	char buf[2048] = "";
	int fd;

	if (rd_start_args(NULL, "--threads", threads, (char *)NULL) == 0)
		return;
	fd = open(rd.log, O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);

		buf[n > 0 ? n : 0] = 0;
		close(fd);
	}
	ck_abort_msg("rindd did not start; log:\n%s", buf);
}

static void rd_start(void)
{
	rd_start_threads("2");
}

/* Checked fixtures: each test gets its own directory and daemon. */
static void rd_setup(void)
{
	rd_setup_dir();
	rd_start();
}

/*
 * A graceful stop (SIGTERM): the shutdown path runs too, and a sanitizer
 * report at any time, or at exit (leaks), fails the test.
 */
static void rd_teardown(void)
{
	if (rd.pid > 0) {
		int st = rd_stop(SIGTERM);

		ck_assert_msg(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
			      "rindd did not exit cleanly on SIGTERM: %s %d",
			      st != -1 && WIFEXITED(st) ? "exit" : "signal/status",
			      st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) :
			      st != -1 && WIFSIGNALED(st) ? WTERMSIG(st) : st);
	}
	rd_atexit();
}

/* The whole log (malloc'd, NUL-terminated). */
static __attribute__((unused)) char *rd_read_log(void)
{
	return rt_read_file(rd.log);
}

static struct rind_client *rd_client(void)
{
	struct rind_client *c = rind_client_connect(rd.sock);

	if (!c)
		rd_check_alive();
	ck_assert_msg(c != NULL, "connect %s: %s", rd.sock, strerror(errno));
	rind_client_set_timeout(c, 15000);
	return c;
}

/* A key @name of @alg (not exportable) created over a connection of its own. */
static __attribute__((unused)) void rd_create_key(const char *name, const char *alg)
{
	struct rind_client *c = rd_client();

	ck_assert_int_eq(rind_client_create_key(c, name, alg, false, NULL), 0);
	rind_client_close(c);
}

/* Run a shell command line (printf format); its exit status, -1 if killed. */
static int rd_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2), unused));
static int rd_sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	fflush(NULL);
	st = system(cmd);
	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

#define RIND_CLI RIND_BUILD_DIR "/rind"

/* Wait for @pid at most @ms; SIGKILL it after that.  Its wait status. */
static int rd_wait_child(pid_t pid, unsigned int ms)
{
	uint64_t t0 = rd_now_ms();
	int st = -1;

	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return st;
		if (r < 0 && errno != EINTR)
			return -1;
		if (rd_now_ms() - t0 > ms) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -1;
		}
		rd_sleep_ms(2);
	}
}

/*
 * The access tests: a child switched to uid and gid NOBODY uses rindd
 * and exits with 0, or with the number of the step that went wrong.
 */
#define NOBODY 65534

/*
 * Restart rindd where NOBODY can reach it: the directory open, the socket
 * mode 0666.  False, after a SKIP line, when not root: only root can
 * switch to NOBODY.
 */
static __attribute__((unused)) bool rd_restart_for_nobody(void)
{
	if (geteuid() != 0) {
		printf("SKIP: access control: the test needs root to switch to uid %d\n", NOBODY);
		return false;
	}
	rd_stop(SIGTERM);
	chmod(rd.dir, 0755);
	ck_assert_int_eq(rd_start_args(NULL, "--socket-mode", "0666", "--threads", "2", (char *)NULL), 0);
	return true;
}

/* In the forked child: become NOBODY and connect (exit 20 or 21 if it cannot). */
static __attribute__((unused)) struct rind_client *rd_nobody_client(void)
{
	struct rind_client *u;

	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		_exit(20);
	u = rind_client_connect(rd.sock);
	if (!u)
		_exit(21);
	rind_client_set_timeout(u, 15000);
	return u;
}

/* The NOBODY child @pid must exit 0 within 30 s (the longest any suite gave it: TSan, ASan). */
static __attribute__((unused)) void rd_wait_nobody(pid_t pid)
{
	int st = rd_wait_child(pid, 30000);

	ck_assert_msg(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0, "the uid %d client: exit %d",
		      NOBODY, st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

/*
 * A test case of @s whose tests each get a rindd of their own (@setup,
 * rd_teardown) and @timeout seconds.
 */
static __attribute__((unused)) TCase *rd_tcase(Suite *s, const char *name, void (*setup)(void),
					       double timeout)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, setup, rd_teardown);
	tcase_set_timeout(tc, timeout);
	suite_add_tcase(s, tc);
	return tc;
}

#endif /* RIND_TEST_DAEMON_H */
