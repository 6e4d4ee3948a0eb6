// SPDX-License-Identifier: MIT
/*
 * rindd's state directory as an operator meets it (issue 14): no master
 * key (refused unless --dev-master-key, which creates one atomically), a
 * wrong master key (refused by the manifest's verifier), a second daemon
 * on the same directory (refused by the lock), a restart right after
 * SIGKILL or over a stale listening socket (taken over), key files that
 * fail to load (listed by `rind key list --all`, removed by `rind key
 * delete`, audited), rolled-back and resurrected key files (refused), the
 * key file size limit at and one past it, the random-nonce seal limit
 * (counted durably, warned, refused, rotation) and a full disk.
 *
 * These start rindd themselves (spawn_rindd) where the harness's start
 * would hide the defect: it unlinks the socket path first and always
 * passes a master key.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_daemon.h"

/*
 * The key file limit the size test runs rindd with (RINDD_TEST_KEY_FILE_MAX
 * lowers RINDD_KEY_FILE_MAX, 32 KiB, which access lists alone cannot fill;
 * reader and writer use the same limit either way).
 */
#define KEY_FILE_MAX 8192

static bool file_has(const char *path, const char *what)
{
	char *t = rt_read_file(path);
	bool r = strstr(t, what) != NULL;

	free(t);
	return r;
}

/* True when one line of @text holds each of the NULL-terminated strings. */
static bool line_has(const char *text, ...)
{
	const char *p = text;

	while (*p) {
		const char *e = strchr(p, '\n'), *w;
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char *line = strndup(p, len);
		bool all = true;
		va_list ap;

		va_start(ap, text);
		while ((w = va_arg(ap, const char *)) != NULL)
			if (!strstr(line, w))
				all = false;
		va_end(ap);
		free(line);
		if (all)
			return true;
		p += len + (e ? 1 : 0);
	}
	return false;
}

/* Flip bits of byte @off of @path. */
static void flip_byte(const char *path, long off)
{
	FILE *f = fopen(path, "r+b");
	int ch;

	ck_assert(f != NULL);
	ck_assert_int_eq(fseek(f, off, SEEK_SET), 0);
	ch = fgetc(f);
	ck_assert_int_ne(ch, EOF);
	ck_assert_int_eq(fseek(f, off, SEEK_SET), 0);
	fputc(ch ^ 0x5a, f);
	fclose(f);
}

/*
 * Start rindd on rd.state with @sock, stderr to @log (truncated), the
 * master key file when @mk, extra arguments NULL-terminated.  No unlink
 * of the socket path.  The pid; see wait_ready().
 */
static pid_t spawn_rindd(const char *sock, const char *log, int mk, ...)
{
	const char *argv[32];
	int argc = 0;
	va_list ap;
	pid_t pid;

	argv[argc++] = RIND_BUILD_DIR "/rindd";
	argv[argc++] = "--foreground";
	argv[argc++] = "--threads";
	argv[argc++] = "2";
	argv[argc++] = "--socket";
	argv[argc++] = sock;
	argv[argc++] = "--state-dir";
	argv[argc++] = rd.state;
	if (mk) {
		argv[argc++] = "--master-key-file";
		argv[argc++] = rd.mk;
	}
	va_start(ap, mk);
	while (argc < 31 && (argv[argc] = va_arg(ap, const char *)) != NULL)
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	/* truncated here, before the fork: wait_ready() must not read the last run's log */
	close(open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600));
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int lf = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (lf >= 0) {
			dup2(lf, 2);
			close(lf);
		}
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* 0 once @log says ready, -1 when @pid exited first (status in *@st). */
static int wait_ready(pid_t pid, const char *log, int *st)
{
	uint64_t t0 = rd_now_ms();

	for (;;) {
		if (waitpid(pid, st, WNOHANG) == pid)
			return -1;
		if (file_has(log, "event=ready"))
			return 0;
		if (rd_now_ms() - t0 > 20000) {
			kill(pid, SIGKILL);
			waitpid(pid, st, 0);
			ck_abort_msg("rindd neither started nor exited in 20 s");
		}
		rd_sleep_ms(5);
	}
}

/* Fail on a sanitizer report in @log (the harness only watches rd.log). */
static void san_check(const char *log)
{
	char *rep = rd_san_report(log);

	if (rep) {
		fprintf(stderr, "rindd sanitizer report:\n%s", rep);
		ck_abort_msg("rindd sanitizer report:\n%.1500s", rep);
	}
}

/* Start rindd as the harness's daemon (rd.pid, rd.log) without unlinking the socket. */
static void start_main(bool mk, const char *extra)
{
	int st = 0;
	char *log;

	rd_check_log("before restart");
	rd.pid = extra ? spawn_rindd(rd.sock, rd.log, mk, extra, (char *)NULL) :
			 spawn_rindd(rd.sock, rd.log, mk, (char *)NULL);
	if (wait_ready(rd.pid, rd.log, &st) == 0)
		return;
	rd.pid = 0;
	log = rd_read_log();
	ck_abort_msg("rindd did not start (status %d); log:\n%.3000s", st, log);
}

/* The exit status of a rindd that must refuse to start; its log in *@log. */
static int must_refuse(pid_t pid, const char *logpath, char **log)
{
	int st = 0, r = wait_ready(pid, logpath, &st);

	*log = rt_read_file(logpath);
	if (r == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		ck_abort_msg("rindd started where it must refuse:\n%.3000s", *log);
	}
	san_check(logpath);
	ck_assert_msg(WIFEXITED(st), "rindd died of signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	return WEXITSTATUS(st);
}

static void state_path(char *buf, size_t len, const char *file)
{
	snprintf(buf, len, "%s/%s", rd.state, file);
}

static bool exists(const char *file)
{
	char p[300];
	struct stat st;

	state_path(p, sizeof(p), file);
	return lstat(p, &st) == 0;
}

static long file_size(const char *file)
{
	char p[300];
	struct stat st;

	state_path(p, sizeof(p), file);
	return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

static void copy_file(const char *from, const char *to)
{
	ck_assert_int_eq(rd_sh("cp -p '%s' '%s'", from, to), 0);
}

static int sign_ok(struct rind_client *c, const char *name)
{
	uint8_t *sig = NULL;
	size_t n = 0;
	int err = rind_client_sign(c, name, "m", 1, &sig, &n);

	free(sig);
	return err ? err : n == 64 ? 0 : -EPROTO;
}

/* sign_ok over a connection of its own. */
static int sign_ok_once(const char *name)
{
	struct rind_client *c = rd_client();
	int err = sign_ok(c, name);

	rind_client_close(c);
	return err;
}

/* `rind key list --all` on rd.sock: its output (malloc'd) and status. */
static char *cli(int *status, const char *args)
{
	char cmd[1024], *out = calloc(1, 65536);
	size_t n = 0;
	FILE *f;

	ck_assert(out != NULL);
	snprintf(cmd, sizeof(cmd), "%s --socket %s %s 2>&1", RIND_CLI, rd.sock, args);
	fflush(NULL);
	f = popen(cmd, "r");
	ck_assert(f != NULL);
	n = fread(out, 1, 65535, f);
	out[n] = 0;
	*status = pclose(f);
	*status = WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
	return out;
}

/* ---- item 3: no master key ---- */
START_TEST(test_no_master_key_is_refused)
{
	char *log, p[300];
	struct stat st;

	rd_setup_dir();
	ck_assert_int_eq(mkdir(rd.state, 0700), 0);
	ck_assert_int_eq(must_refuse(spawn_rindd(rd.sock, rd.log, false, (char *)NULL), rd.log, &log), 1);
	ck_assert_msg(strstr(log, "no master key") && strstr(log, "--dev-master-key") &&
		      strstr(log, "--master-key-file"), "the refusal says what to do:\n%s", log);
	ck_assert_msg(!strstr(log, "event=ready"), "%s", log);
	free(log);
	ck_assert_msg(!exists("master.key"), "a master key was generated next to the keys");
	ck_assert_int_ne(access(rd.sock, F_OK), 0);

	/* the development flag: generated once, 0600, 32 bytes, reused */
	start_main(false, "--dev-master-key");
	state_path(p, sizeof(p), "master.key");
	ck_assert_int_eq(stat(p, &st), 0);
	ck_assert_int_eq(st.st_size, 32);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	log = rd_read_log();
	ck_assert_msg(strstr(log, "DEVELOPMENT ONLY"), "%s", log);
	free(log);
	rd_create_key("dev", "ed25519");
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);

	/* the generated key stays in use only with the flag */
	ck_assert_int_eq(must_refuse(spawn_rindd(rd.sock, rd.log, false, (char *)NULL), rd.log, &log), 1);
	free(log);
	start_main(false, "--dev-master-key");
	ck_assert_int_eq(sign_ok_once("dev"), 0);
	rd_teardown();
}
END_TEST

/* The systemd credential is a master key too (no flag needed). */
START_TEST(test_credential_master_key)
{
	char creds[300], p[340];

	rd_setup_dir();
	snprintf(creds, sizeof(creds), "%s/creds", rd.dir);
	ck_assert_int_eq(mkdir(creds, 0700), 0);
	snprintf(p, sizeof(p), "%s/rindd.master", creds);
	rd_write_master(p, 77);
	setenv("CREDENTIALS_DIRECTORY", creds, 1);
	start_main(false, NULL);
	unsetenv("CREDENTIALS_DIRECTORY");
	ck_assert_msg(file_has(rd.log, "event=master_key_loaded"), "credential not used");
	ck_assert(!exists("master.key"));
	rd_create_key("cred", "ed25519");
	rd_teardown();
}
END_TEST

/*
 * A write that fails while the development key is created (a full disk;
 * here RLIMIT_FSIZE 0 with SIGXFSZ ignored, so every write to a file
 * fails) leaves no empty master.key that would fail every later start.
 */
START_TEST(test_dev_master_key_written_atomically)
{
	int pfd[2];
	char out[8192];
	size_t n = 0;
	pid_t pid;
	DIR *d;
	struct dirent *de;

	rd_setup_dir();
	ck_assert_int_eq(mkdir(rd.state, 0700), 0);
	ck_assert_int_eq(pipe(pfd), 0);
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct rlimit rl = { 0, 0 };

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(pfd[1], 2);	/* a pipe: the log is not a file */
		close(pfd[0]);
		signal(SIGXFSZ, SIG_IGN);
		setrlimit(RLIMIT_FSIZE, &rl);
		execl(RIND_BUILD_DIR "/rindd", "rindd", "--foreground", "--socket", rd.sock,
		      "--state-dir", rd.state, "--dev-master-key", (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		ssize_t r = read(pfd[0], out + n, sizeof(out) - 1 - n);

		if (r <= 0)
			break;
		n += (size_t)r;
	}
	out[n] = 0;
	close(pfd[0]);
	ck_assert_int_eq(rd_wait_child(pid, 20000) >> 8, 1);
	ck_assert_msg(strstr(out, "master_key_create_failed") && strstr(out, "File too large"),
		      "the failure is named:\n%s", out);
	ck_assert_msg(!exists("master.key"), "a failed write left a master.key behind");
	d = opendir(rd.state);
	ck_assert(d != NULL);
	while ((de = readdir(d)))
		ck_assert_msg(!strstr(de->d_name, "master"), "left behind: %s", de->d_name);
	closedir(d);
	/* and the next start creates it */
	start_main(false, "--dev-master-key");
	ck_assert_int_eq(file_size("master.key"), 32);
	rd_teardown();
}
END_TEST

/* ---- item 15: permissions ---- */
START_TEST(test_loose_permissions_warn)
{
	char *log;

	rd_setup_dir();
	ck_assert_int_eq(mkdir(rd.state, 0700), 0);
	ck_assert_int_eq(chmod(rd.state, 0777), 0);
	ck_assert_int_eq(chmod(rd.mk, 0644), 0);
	start_main(true, NULL);
	log = rd_read_log();
	ck_assert_msg(strstr(log, "event=state_dir_permissions") && strstr(log, "mode=0777"),
		      "no warning for a 0777 state directory:\n%s", log);
	ck_assert_msg(strstr(log, "event=master_key_permissions") && strstr(log, "mode=0644"),
		      "no warning for a 0644 master key file:\n%s", log);
	free(log);
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	ck_assert_int_eq(chmod(rd.state, 0700), 0);
	ck_assert_int_eq(chmod(rd.mk, 0600), 0);
	start_main(true, NULL);
	log = rd_read_log();
	ck_assert_msg(!strstr(log, "permissions"), "a warning for 0700/0600:\n%s", log);
	free(log);
	rd_teardown();
}
END_TEST

/* ---- item 4: the wrong master key, a damaged manifest ---- */
START_TEST(test_wrong_master_key_refused)
{
	char good[300], p[300], *log;
	long sz;

	rd_setup();
	rd_create_key("w1", "ed25519");
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	snprintf(good, sizeof(good), "%s.good", rd.mk);
	ck_assert_int_eq(rename(rd.mk, good), 0);
	rd_write_master(rd.mk, 0xbad);
	ck_assert_int_eq(must_refuse(spawn_rindd(rd.sock, rd.log, true, (char *)NULL), rd.log, &log), 1);
	ck_assert_msg(strstr(log, "event=master_key_wrong") && strstr(log, "wrong master key"),
		      "the refusal names the master key:\n%s", log);
	free(log);
	ck_assert(exists("w1.rkey"));

	ck_assert_int_eq(rename(good, rd.mk), 0);
	start_main(true, NULL);
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);

	/* a damaged manifest under the right key: refused, and said so */
	state_path(p, sizeof(p), "manifest");
	sz = file_size("manifest");
	ck_assert_int_gt(sz, 60);
	flip_byte(p, sz - 20);
	ck_assert_int_eq(must_refuse(spawn_rindd(rd.sock, rd.log, true, (char *)NULL), rd.log, &log), 1);
	ck_assert_msg(strstr(log, "event=manifest_bad") && strstr(log, "damaged"), "%s", log);
	free(log);
	rd_atexit();
}
END_TEST

/* ---- item 5: one daemon per state directory ---- */
START_TEST(test_second_daemon_refused)
{
	char log2[300], sock2[300], *log;
	struct rind_client *c;

	rd_setup();
	snprintf(log2, sizeof(log2), "%s/second.log", rd.dir);
	snprintf(sock2, sizeof(sock2), "%s/second.sock", rd.dir);
	/* another socket, the same state directory */
	ck_assert_int_eq(must_refuse(spawn_rindd(sock2, log2, true, (char *)NULL), log2, &log), 1);
	ck_assert_msg(strstr(log, "event=state_dir_locked") && strstr(log, "another rindd"),
		      "the refusal names the lock:\n%s", log);
	free(log);
	/* the same socket: refused before it touches the first daemon's socket */
	ck_assert_int_eq(must_refuse(spawn_rindd(rd.sock, log2, true, (char *)NULL), log2, &log), 1);
	ck_assert_msg(strstr(log, "event=state_dir_locked"), "%s", log);
	free(log);
	c = rd_client();
	ck_assert_int_eq(rind_client_create_key(c, "one", "ed25519", false, NULL), 0);
	ck_assert_int_eq(sign_ok(c, "one"), 0);
	rind_client_close(c);
	rd_teardown();
}
END_TEST

/* ---- item 14: restart at once after SIGKILL; a stale listener ---- */
START_TEST(test_restart_right_after_sigkill)
{
	int round;

	rd_setup_dir();
	start_main(true, NULL);
	rd_create_key("survivor", "ed25519");
	for (round = 0; round < 3; round++) {
		ck_assert_int_eq(sign_ok_once("survivor"), 0);
		kill(rd.pid, SIGKILL);
		waitpid(rd.pid, NULL, 0);
		rd.pid = 0;
		start_main(true, NULL);	/* at once: its rings may still be going down */
		ck_assert_msg(file_has(rd.log, "event=ready"), "round %d", round);
	}
	ck_assert_int_eq(sign_ok_once("survivor"), 0);
	rd_teardown();
}
END_TEST

START_TEST(test_stale_listener_taken_over)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct rind_client *c;
	char *version = NULL;
	int fd;

	rd_setup_dir();
	/* a listening socket nobody serves, at the path: what a dying ring leaves */
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_uint_lt(strlen(rd.sock), sizeof(sa.sun_path));
	memcpy(sa.sun_path, rd.sock, strlen(rd.sock) + 1);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(listen(fd, 16), 0);
	start_main(true, NULL);
	ck_assert_msg(file_has(rd.log, "event=socket_taken_over"), "no takeover logged");
	c = rd_client();
	ck_assert_int_eq(rind_client_hello(c, &version), 0);
	ck_assert_ptr_nonnull(strstr(version, "rindd"));
	free(version);
	rind_client_close(c);
	close(fd);
	rd_teardown();
}
END_TEST

/* ---- item 4: failed key files are listed and deletable ---- */
START_TEST(test_failed_key_listed_and_deleted)
{
	struct rind_client *c;
	char p[300], *out, *log;
	int st;

	rd_setup();
	c = rd_client();
	ck_assert_int_eq(rind_client_create_key(c, "good", "ed25519", false, NULL), 0);
	ck_assert_int_eq(rind_client_create_key(c, "bad", "ed25519", false, NULL), 0);
	rind_client_close(c);
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	state_path(p, sizeof(p), "bad.rkey");
	flip_byte(p, 40);
	rd_start();

	out = cli(&st, "key list --all");
	ck_assert_msg(st == 0, "rind key list --all: %d\n%s", st, out);
	ck_assert_msg(strstr(out, "good") && strstr(out, "bad") && strstr(out, "failed") &&
		      strstr(out, "authentication failed"), "key list --all:\n%s", out);
	free(out);
	out = cli(&st, "key list");
	ck_assert_msg(st == 0 && !strstr(out, "bad"), "plain key list shows the failed file:\n%s", out);
	free(out);

	/* the name is blocked, and the error says where to look */
	c = rd_client();
	ck_assert_int_eq(rind_client_create_key(c, "bad", "ed25519", false, NULL), -EEXIST);
	ck_assert_msg(strstr(rind_client_last_error(c), "key list --all"), "%s",
		      rind_client_last_error(c));
	ck_assert_int_eq(rind_client_sign(c, "bad", "m", 1, NULL, NULL), -ENOENT);
	rind_client_close(c);

	/* rind key delete removes it, audited */
	out = cli(&st, "key delete bad");
	ck_assert_msg(st == 0, "rind key delete bad: %d\n%s", st, out);
	free(out);
	ck_assert(!exists("bad.rkey"));
	log = rd_read_log();
	ck_assert_msg(line_has(log, "event=audit", "action=delete_key", "bad", "failed_file=1",
			       "result=ok", (char *)NULL), "no audit record:\n%s", log);
	free(log);
	out = cli(&st, "key list --all");
	ck_assert_msg(st == 0 && !strstr(out, "bad"), "%s", out);
	free(out);
	rd_create_key("bad", "ed25519");
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	rd_start();
	c = rd_client();
	ck_assert_int_eq(sign_ok(c, "bad"), 0);
	ck_assert_int_eq(sign_ok(c, "good"), 0);
	rind_client_close(c);
	rd_teardown();
}
END_TEST

/* A file the manifest lists that is gone: listed as missing, deletable. */
START_TEST(test_missing_key_file_listed)
{
	char p[300], *out;
	int st;

	rd_setup();
	rd_create_key("gone", "ed25519");
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	state_path(p, sizeof(p), "gone.rkey");
	ck_assert_int_eq(unlink(p), 0);
	rd_start();
	out = cli(&st, "key list --all");
	ck_assert_msg(st == 0 && strstr(out, "gone") && strstr(out, "missing"), "%s", out);
	free(out);
	out = cli(&st, "key delete gone");
	ck_assert_msg(st == 0, "%s", out);
	free(out);
	rd_create_key("gone", "ed25519");
	rd_teardown();
}
END_TEST

/* ---- item 6: rollback ---- */

/*
 * Stop rindd, put key r's file @p back from the copy @old and restart: r
 * must not sign, and the log must say why (@why: "deleted", "older copy").
 */
static void restore_refused(const char *p, const char *old, const char *why)
{
	struct rind_client *c;
	char *log;

	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	copy_file(old, p);
	rd_start();
	c = rd_client();
	ck_assert_int_eq(rind_client_sign(c, "r", "m", 1, NULL, NULL), -ENOENT);
	rind_client_close(c);
	log = rd_read_log();
	ck_assert_msg(line_has(log, "event=key_rollback_refused", "key=r ", why, (char *)NULL),
		      "not refused and logged:\n%s", log);
	free(log);
}

START_TEST(test_rollback_refused)
{
	struct rind_client *c;
	char p[300], old[300], *out;
	uint8_t *pub1 = NULL, *pub2 = NULL;
	size_t n;
	int st;

	rd_setup();
	state_path(p, sizeof(p), "r.rkey");
	snprintf(old, sizeof(old), "%s/r.rkey.backup", rd.dir);

	/* a deleted key's file put back */
	c = rd_client();
	ck_assert_int_eq(rind_client_create_key(c, "r", "ed25519", false, NULL), 0);
	ck_assert_int_eq(rind_client_get_public(c, "r", RIND_CLIENT_RAW, &pub1, &n), 0);
	copy_file(p, old);
	ck_assert_int_eq(rind_client_delete_key(c, "r"), 0);
	rind_client_close(c);
	restore_refused(p, old, "deleted");
	out = cli(&st, "key list --all");
	ck_assert_msg(strstr(out, "rollback refused"), "%s", out);
	free(out);

	/* an older copy of a live key's file (the same name, created again) */
	out = cli(&st, "key delete r");
	ck_assert_msg(st == 0, "%s", out);
	free(out);
	c = rd_client();
	ck_assert_int_eq(rind_client_create_key(c, "r", "ed25519", false, NULL), 0);
	ck_assert_int_eq(rind_client_get_public(c, "r", RIND_CLIENT_RAW, &pub2, &n), 0);
	ck_assert_int_ne(memcmp(pub1, pub2, 32), 0);
	rind_client_close(c);
	restore_refused(p, old, "older copy");
	free(pub1);
	free(pub2);
	rd_teardown();
}
END_TEST


/* ---- a state directory from before the manifest (format-1 key files) ---- */
static void master_bytes(uint8_t key[32])
{
	char *hex = rt_read_file(rd.mk);
	unsigned int i, v;

	for (i = 0; i < 32; i++) {
		ck_assert_int_eq(sscanf(hex + 2 * i, "%2x", &v), 1);
		key[i] = (uint8_t)v;
	}
	free(hex);
}

/* Write NAME.rkey as rindd wrote it before the manifest: a 24-byte header. */
static void write_v1_key(const char *name, const uint8_t secret[32])
{
	Rind__StoredKey sk = RIND__STORED_KEY__INIT;
	struct rind_aesgcm_ctx *ctx = rind_aesgcm_alloc();
	uint8_t mk[32], pt[512], file[600], ad[300];
	char fname[100], path[300];
	size_t ptlen, n;
	FILE *f;

	sk.name = (char *)name;
	sk.algorithm = (char *)"ed25519";
	sk.owner_uid = getuid();
	sk.created = 1700000000;
	sk.version = 1;
	sk.key.data = (uint8_t *)secret;
	sk.key.len = 32;
	ptlen = rind__stored_key__get_packed_size(&sk);
	ck_assert_uint_le(ptlen, sizeof(pt));
	rind__stored_key__pack(&sk, pt);
	master_bytes(mk);
	ck_assert(ctx != NULL);
	ck_assert_int_eq(rind_aesgcm_expandkey(ctx, mk, 32, 16), 0);
	memcpy(file, "RINDKEY", 8);
	rind_frame_put_len(file + 8, 1);
	memset(file + 12, 0x42, 12);
	snprintf(fname, sizeof(fname), "%s.rkey", name);
	n = strlen(fname);
	memcpy(ad, file, 24);
	memcpy(ad + 24, fname, n);
	ck_assert_int_eq(rind_aesgcm_encrypt(ctx, file + 24, pt, ptlen, ad, 24 + n, file + 12), 0);
	rind_aesgcm_free(ctx);
	state_path(path, sizeof(path), fname);
	f = fopen(path, "wb");
	ck_assert(f != NULL);
	ck_assert_uint_eq(fwrite(file, 1, 24 + ptlen + 16, f), 24 + ptlen + 16);
	fclose(f);
	chmod(path, 0600);
}

START_TEST(test_format1_state_taken_over)
{
	uint8_t seed[32], pub[32], *got = NULL, v[12];
	struct rind_client *c;
	char good[300], path[300], old[300], *log;
	size_t n;
	FILE *f;

	rd_setup_dir();
	ck_assert_int_eq(mkdir(rd.state, 0700), 0);
	memset(seed, 7, sizeof(seed));
	rind_ed25519_public_key(pub, seed);
	write_v1_key("legacy", seed);
	state_path(path, sizeof(path), "legacy.rkey");
	snprintf(old, sizeof(old), "%s/legacy.v1", rd.dir);
	copy_file(path, old);

	/* a wrong master key opens none of them: refused, the files kept */
	snprintf(good, sizeof(good), "%s.good", rd.mk);
	ck_assert_int_eq(rename(rd.mk, good), 0);
	rd_write_master(rd.mk, 0xbad);
	ck_assert_int_eq(must_refuse(spawn_rindd(rd.sock, rd.log, true, (char *)NULL), rd.log, &log), 1);
	ck_assert_msg(strstr(log, "wrong master key"), "%s", log);
	free(log);
	ck_assert(!exists("manifest"));
	ck_assert_int_eq(rename(good, rd.mk), 0);

	/* the right one: loaded, the file rewritten with a generation, a manifest made */
	start_main(true, NULL);
	c = rd_client();
	ck_assert_int_eq(rind_client_get_public(c, "legacy", RIND_CLIENT_RAW, &got, &n), 0);
	ck_assert_uint_eq(n, 32);
	ck_assert_int_eq(memcmp(got, pub, 32), 0);
	free(got);
	rind_client_close(c);
	ck_assert(exists("manifest"));
	f = fopen(path, "rb");
	ck_assert(f != NULL);
	ck_assert_uint_eq(fread(v, 1, 12, f), 12);
	fclose(f);
	ck_assert_int_eq(rind_frame_get_len(v + 8), 2);
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);

	/* the format-1 copy put back is refused now */
	copy_file(old, path);
	start_main(true, NULL);
	log = rd_read_log();
	ck_assert_msg(line_has(log, "event=key_rollback_refused", "key=legacy ", (char *)NULL), "%s", log);
	free(log);
	ck_assert_int_eq(sign_ok_once("legacy"), -ENOENT);
	rd_teardown();
}
END_TEST

/* ---- a private dbus-daemon (SetAccess, RotateKey, signals) ---- */
static char bus_addr[1100];
static pid_t bus_pid;

static bool have_bus_tools(void)
{
	if (rd_sh("command -v dbus-daemon >/dev/null && command -v busctl >/dev/null && command -v dbus-monitor >/dev/null"))
	{
		printf("SKIP: dbus-daemon, busctl or dbus-monitor not installed\n");
		return false;
	}
	return true;
}

static void bus_start(void)
{
	char conf[300], out[2048], cmd[600], *nl;
	FILE *f;
	size_t n;

	snprintf(conf, sizeof(conf), "%s/bus.conf", rd.dir);
	f = fopen(conf, "w");
	ck_assert(f != NULL);
	fprintf(f,
		"<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
		" \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
		"<busconfig><type>rind-test</type><listen>unix:path=%s/bus.sock</listen>\n"
		"<auth>EXTERNAL</auth><policy context=\"default\"><allow user=\"*\"/>\n"
		"<allow own=\"*\"/><allow send_destination=\"*\"/><allow receive_sender=\"*\"/>\n"
		"<allow eavesdrop=\"true\"/></policy></busconfig>\n", rd.dir);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "dbus-daemon --config-file=%s --fork --print-address=1 --print-pid=1 2>&1",
		 conf);
	f = popen(cmd, "r");
	ck_assert(f != NULL);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = 0;
	pclose(f);
	nl = strchr(out, '\n');
	ck_assert_msg(nl && atoi(nl + 1) > 1, "dbus-daemon: %s", out);
	*nl = 0;
	ck_assert_uint_lt(strlen(out), sizeof(bus_addr));
	memcpy(bus_addr, out, strlen(out) + 1);
	bus_pid = atoi(nl + 1);
}

static void bus_stop(void)
{
	if (bus_pid > 1)
		kill(bus_pid, SIGTERM);
	bus_pid = 0;
}

static void start_with_bus(void)
{
	char arg[1200];
	uint64_t t0 = rd_now_ms();

	snprintf(arg, sizeof(arg), "--bus-address=%s", bus_addr);
	start_main(true, arg);
	while (rd_sh("busctl --address=%s status org.rind.KeyService1 >/dev/null 2>&1", bus_addr)) {
		ck_assert_msg(rd_now_ms() - t0 < 20000, "rindd never took its bus name");
		rd_sleep_ms(20);
	}
}

/* busctl call SetAccess NAME with @nu uids then @ng gids; its exit status. */
static int set_access(const char *name, const uint32_t *uids, size_t nu, const uint32_t *gids,
		      size_t ng)
{
	size_t cap = 64 + 12 * (nu + ng) + 1200, off;
	char *cmd = malloc(cap);
	size_t i;
	int st;

	ck_assert(cmd != NULL);
	off = (size_t)snprintf(cmd, cap,
			       "busctl --address=%s call org.rind.KeyService1 /org/rind/KeyService1 org.rind.KeyService1 SetAccess sauau %s %zu",
			       bus_addr, name, nu);
	for (i = 0; i < nu; i++)
		off += (size_t)snprintf(cmd + off, cap - off, " %u", uids[i]);
	off += (size_t)snprintf(cmd + off, cap - off, " %zu", ng);
	for (i = 0; i < ng; i++)
		off += (size_t)snprintf(cmd + off, cap - off, " %u", gids[i]);
	snprintf(cmd + off, cap - off, " >%s/busctl.out 2>&1", rd.dir);
	fflush(NULL);
	st = system(cmd);
	free(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * Lists of 1024 uids and 1024 gids whose key file is @target bytes, from
 * the size @base of the file with the ids 128 .. 1151 in each list (two
 * bytes each in the protobuf's packed varints; the ids are distinct, as
 * the daemon keeps an access list as a set): moving an id past 2^14,
 * 2^21 or 2^28 adds one byte each time, up to three per id.
 */
static void ids_for_size(uint32_t *ids, size_t n, long base, long target)
{
	static const uint32_t widen[4] = { 128, 1u << 14, 1u << 21, 1u << 28 };
	long extra = target - base;
	size_t i;

	ck_assert_int_ge(extra, 0);
	ck_assert_int_le(extra, (long)n * 3);
	for (i = 0; i < n; i++) {
		long add = extra > 3 ? 3 : extra;

		ids[i] = widen[add] + (uint32_t)(i % 1024);
		extra -= add;
	}
}

static void read_whole(const char *file, uint8_t **buf, long *len)
{
	char p[300];
	FILE *f;

	state_path(p, sizeof(p), file);
	*len = file_size(file);
	ck_assert_int_gt(*len, 0);
	*buf = malloc((size_t)*len);
	f = fopen(p, "rb");
	ck_assert(f && *buf);
	ck_assert_int_eq(fread(*buf, 1, (size_t)*len, f), (size_t)*len);
	fclose(f);
}

/* ---- item 2: the key file size limit, at it and one past it ---- */
START_TEST(test_key_file_size_limit)
{
	uint32_t ids[2048];
	uint8_t *before, *after;
	long base, lb, la;
	char *out;

	if (!have_bus_tools())
		return;
	setenv("RINDD_TEST_KEY_FILE_MAX", "8192", 1);
	rd_setup_dir();
	bus_start();
	start_with_bus();
	rd_create_key("big", "ed25519");
	ids_for_size(ids, 2048, 0, 0);
	ck_assert_int_eq(set_access("big", ids, 1024, ids + 1024, 1024), 0);
	base = file_size("big.rkey");
	ck_assert_int_lt(base, KEY_FILE_MAX - 2048);

	/* exactly at the limit: accepted, and it loads again after a restart */
	ids_for_size(ids, 2048, base, KEY_FILE_MAX);
	ck_assert_int_eq(set_access("big", ids, 1024, ids + 1024, 1024), 0);
	ck_assert_int_eq(file_size("big.rkey"), KEY_FILE_MAX);
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	start_with_bus();
	ck_assert_msg(!file_has(rd.log, "key_load_failed"), "the key file at the limit did not load");
	ck_assert_int_eq(sign_ok_once("big"), 0);

	/* one past it: refused, and nothing written */
	read_whole("big.rkey", &before, &lb);
	ids_for_size(ids, 2048, base, KEY_FILE_MAX + 1);
	ck_assert_int_ne(set_access("big", ids, 1024, ids + 1024, 1024), 0);
	{
		char p[300];

		snprintf(p, sizeof(p), "%s/busctl.out", rd.dir);
		out = rt_read_file(p);
		ck_assert_msg(strstr(out, "LimitExceeded") || strstr(out, "too many"), "%s", out);
		free(out);
	}
	read_whole("big.rkey", &after, &la);
	ck_assert_int_eq(la, lb);
	ck_assert_int_eq(memcmp(before, after, (size_t)la), 0);
	free(before);
	free(after);
	ck_assert_msg(file_has(rd.log, "event=key_too_large"), "the refusal is not logged");

	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	start_with_bus();
	ck_assert_msg(!file_has(rd.log, "key_load_failed"), "the key at the limit did not load");
	ck_assert_int_eq(sign_ok_once("big"), 0);
	printf("key file size limit: %d bytes accepted and loaded, %d refused unwritten (base %ld)\n",
	       KEY_FILE_MAX, KEY_FILE_MAX + 1, base);
	rd_teardown();
	bus_stop();
	unsetenv("RINDD_TEST_KEY_FILE_MAX");
}
END_TEST

/* ---- item 6 over D-Bus: a revoked access list put back ---- */
START_TEST(test_revoked_access_rollback_refused)
{
	uint32_t grant[1] = { 4242 };
	char p[300], old[300], *log;

	if (!have_bus_tools())
		return;
	rd_setup_dir();
	bus_start();
	start_with_bus();
	rd_create_key("acl", "ed25519");
	ck_assert_int_eq(set_access("acl", grant, 1, NULL, 0), 0);
	state_path(p, sizeof(p), "acl.rkey");
	snprintf(old, sizeof(old), "%s/acl.granted", rd.dir);
	copy_file(p, old);
	ck_assert_int_eq(set_access("acl", NULL, 0, NULL, 0), 0);	/* revoked */
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	copy_file(old, p);
	start_with_bus();
	log = rd_read_log();
	ck_assert_msg(line_has(log, "event=key_rollback_refused", "key=acl ", "older copy", (char *)NULL),
		      "the old access list came back:\n%s", log);
	free(log);
	ck_assert_int_eq(sign_ok_once("acl"), -ENOENT);
	rd_teardown();
	bus_stop();
}
END_TEST

/* ---- item 12: seals with random nonces are counted and bounded ---- */
#define SEAL_LIMIT 16384	/* RINDD_TEST_SEAL_LIMIT: blocks of 4 */

struct seal_tally {
	unsigned int ok, refused, other;
	char last_error[512];
};

static void seal_cb(struct rind_client *c, const struct rind_client_result *r, void *user)
{
	struct seal_tally *t = user;

	(void)c;
	if (!r->status) {
		t->ok++;
	} else if (r->daemon_status == 10 /* ERR_RETIRED */) {
		t->refused++;
		snprintf(t->last_error, sizeof(t->last_error), "%s", r->error ? r->error : "");
	} else {
		t->other++;
	}
}

/* @n seals of "sealer", pipelined. */
static void seal_n(struct rind_client *c, unsigned int n, struct seal_tally *t)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		ck_assert_int_eq(rind_client_submit_seal(c, "sealer", "x", 1, NULL, 0, seal_cb, t, NULL), 0);
	ck_assert_int_eq(rind_client_wait_all(c, 60000), 0);
	ck_assert_uint_eq(t->other, 0);
}

START_TEST(test_seal_limit)
{
	struct seal_tally t = { 0 };
	struct rind_client *c;
	char mon[300], *log;
	uint8_t *box = NULL, *pt = NULL;
	size_t bl, pl;
	unsigned int total;
	pid_t mpid;
	uint64_t t0;

	if (!have_bus_tools())
		return;
	rd_setup_dir();
	bus_start();
	snprintf(mon, sizeof(mon), "%s/monitor.out", rd.dir);
	fflush(NULL);
	mpid = fork();
	ck_assert_int_ge(mpid, 0);
	if (mpid == 0) {
		int fd = open(mon, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(fd, 1);
		execlp("dbus-monitor", "dbus-monitor", "--address", bus_addr,
		       "type='signal',interface='org.rind.KeyService1'", (char *)NULL);
		_exit(127);
	}
	setenv("RINDD_TEST_SEAL_LIMIT", "16384", 1);
	start_with_bus();
	c = rd_client();
	ck_assert_int_eq(rind_client_create_key(c, "sealer", "aes-256-gcm", false, NULL), 0);
	ck_assert_int_eq(rind_client_seal(c, "sealer", "old", 3, NULL, 0, &box, &bl), 0);
	t.ok++;
	seal_n(c, SEAL_LIMIT / 2 - 200, &t);
	ck_assert_msg(!file_has(rd.log, "seal_limit_near"), "warned below half the limit");
	seal_n(c, 400, &t);
	ck_assert_uint_eq(t.refused, 0);
	ck_assert_msg(file_has(rd.log, "event=seal_limit_near key=sealer"), "no warning past half the limit");
	for (t0 = rd_now_ms(); !file_has(mon, "SealLimitNear"); rd_sleep_ms(20))
		ck_assert_msg(rd_now_ms() - t0 < 10000, "no SealLimitNear signal");
	rind_client_close(c);

	/* durable: a restart resumes at the last block recorded, not at zero */
	total = t.ok;
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	start_with_bus();
	ck_assert_msg(file_has(rd.log, "event=seal_limit_near key=sealer"), "no warning at start");
	c = rd_client();
	memset(&t, 0, sizeof(t));
	while (!t.refused)
		seal_n(c, 256, &t);
	while (rind_client_seal(c, "sealer", "x", 1, NULL, 0, NULL, NULL) == 0)
		t.ok++;	/* the last ones, one by one (a batch is refused whole) */
	total += t.ok;
	ck_assert_msg(total <= SEAL_LIMIT && total >= SEAL_LIMIT - 4,
		      "%u seals made with a limit of %u", total, SEAL_LIMIT);
	ck_assert_msg(strstr(rind_client_last_error(c), "rotate") &&
		      strstr(rind_client_last_error(c), "limit"), "%s", rind_client_last_error(c));
	ck_assert_int_eq(rind_client_last_status(c), 10);
	rind_client_close(c);
	log = rd_read_log();
	ck_assert_msg(strstr(log, "event=seal_limit_reached key=sealer"), "%s", log);
	free(log);

	/* still refused after a restart; a rotation seals again, old boxes open */
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	start_with_bus();
	c = rd_client();
	ck_assert_int_ne(rind_client_seal(c, "sealer", "x", 1, NULL, 0, NULL, NULL), 0);
	ck_assert_int_eq(rd_sh("busctl --address=%s call org.rind.KeyService1 /org/rind/KeyService1 org.rind.KeyService1 RotateKey s sealer >/dev/null",
			       bus_addr), 0);
	ck_assert_int_eq(rind_client_seal(c, "sealer", "new", 3, NULL, 0, NULL, NULL), 0);
	ck_assert_int_eq(rind_client_open(c, "sealer", box, bl, NULL, 0, &pt, &pl), 0);
	ck_assert_int_eq(pl, 3);
	free(pt);
	free(box);
	rind_client_close(c);
	printf("seal limit %u: %u seals made across restarts, then refused; warned and signalled past half; rotation seals again\n",
	       SEAL_LIMIT, total);
	unsetenv("RINDD_TEST_SEAL_LIMIT");
	rd_teardown();
	kill(mpid, SIGKILL);
	waitpid(mpid, NULL, 0);
	bus_stop();
}
END_TEST

/* ---- item 15: a full disk says so (a small tmpfs in a user namespace) ---- */
START_TEST(test_full_disk_message)
{
	char cmd[2048], *log;
	struct rind_client *c;
	int i, err = 0;
	uint64_t t0;
	pid_t pid;

	rd_setup_dir();
	if (rd_sh("unshare -rm sh -c 'mount -t tmpfs -o size=64k tmpfs %s' >/dev/null 2>&1", rd.dir)) {
		printf("SKIP: full disk: no user namespace with a tmpfs here (unshare -rm)\n");
		rd_atexit();
		return;
	}
	ck_assert_int_eq(mkdir(rd.state, 0700), 0);
	close(open(rd.log, O_WRONLY | O_CREAT | O_TRUNC, 0600));
	snprintf(cmd, sizeof(cmd),
		 "mount -t tmpfs -o size=48k,nr_inodes=64 tmpfs %s && exec %s/rindd --foreground --threads 1 --socket %s --state-dir %s --master-key-file %s",
		 rd.state, RIND_BUILD_DIR, rd.sock, rd.state, rd.mk);
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int lf = open(rd.log, O_WRONLY | O_CREAT | O_APPEND, 0600);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(lf, 2);
		execlp("unshare", "unshare", "-rm", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	rd.pid = pid;
	for (t0 = rd_now_ms(); !file_has(rd.log, "event=ready"); rd_sleep_ms(10)) {
		rd_check_alive();
		ck_assert_msg(rd_now_ms() - t0 < 20000, "rindd did not start on the tmpfs");
	}
	c = rd_client();
	for (i = 0; i < 2000; i++) {
		char name[32];

		snprintf(name, sizeof(name), "fill%04d", i);
		err = rind_client_create_key(c, name, "ed25519", false, NULL);
		if (err)
			break;
	}
	ck_assert_msg(err, "2000 keys fit in 48 KiB?");
	ck_assert_msg(strstr(rind_client_last_error(c), "No space left on device"),
		      "a full disk is not named: \"%s\"", rind_client_last_error(c));
	ck_assert_int_eq(sign_ok(c, "fill0000"), 0);
	rind_client_close(c);
	log = rd_read_log();
	ck_assert_msg(strstr(log, "No space left on device"), "%s", log);
	free(log);
	rd_teardown();
}
END_TEST

static Suite *daemon_recovery_suite(void)
{
	Suite *s = suite_create("daemon_recovery");
	TCase *tc = tcase_create("recovery");

	(void)rd_start_threads;
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_no_master_key_is_refused);
	tcase_add_test(tc, test_credential_master_key);
	tcase_add_test(tc, test_dev_master_key_written_atomically);
	tcase_add_test(tc, test_loose_permissions_warn);
	tcase_add_test(tc, test_wrong_master_key_refused);
	tcase_add_test(tc, test_second_daemon_refused);
	tcase_add_test(tc, test_restart_right_after_sigkill);
	tcase_add_test(tc, test_stale_listener_taken_over);
	tcase_add_test(tc, test_failed_key_listed_and_deleted);
	tcase_add_test(tc, test_missing_key_file_listed);
	tcase_add_test(tc, test_rollback_refused);
	tcase_add_test(tc, test_format1_state_taken_over);
	tcase_add_test(tc, test_key_file_size_limit);
	tcase_add_test(tc, test_revoked_access_rollback_refused);
	tcase_add_test(tc, test_seal_limit);
	tcase_add_test(tc, test_full_disk_message);
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(daemon_recovery_suite)
