// SPDX-License-Identifier: MIT
/*
 * rindd as an operator drives it (issue 14, "what operators expect"):
 * key rotation, retirement and access lists over the socket (librind-client
 * and the rind CLI, no D-Bus), refused for a second uid exactly as over
 * D-Bus; key quotas and stats that show a caller its own keys; --help on
 * every CLI command; a detached rindd that logs to --log-file or syslog
 * (never the caller's terminal) and writes --pidfile; bench-daemon removing
 * its key when interrupted; `make install-data` installing the documents
 * the unit's Documentation= names; and the README quick start, run line by
 * line.  Each test starts its own rindd (tests/test_daemon.h); the ones
 * that switch to uid 65534 (nobody) need root and say SKIP without it.
 */
#include <sys/prctl.h>

#include "test_daemon.h"

/* Run a shell command; stdout and stderr into @out (NUL-terminated). Its exit status. */
static int run(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int run(char *out, size_t cap, const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	size_t n = 0;
	FILE *f;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd) - 8, fmt, ap);
	va_end(ap);
	strcat(cmd, " 2>&1");
	fflush(NULL);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(out, 1, cap - 1, f);
	out[n] = 0;
	while (n == cap - 1 && fgetc(f) != EOF)
		;
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* The daemon for this file's tests: never a bus (rotation must not need one). */
static void start_nobus(const char *a1, const char *a2, const char *a3, const char *a4)
{
	char *log;

	if (rd_start_args(NULL, "--threads", "2", "--bus", "none", "--socket-mode", "0666", a1, a2,
			  a3, a4, (char *)NULL) == 0)
		return;
	log = rd_read_log();
	ck_abort_msg("rindd did not start; log:\n%.3000s", log);
}

static void setup_nobus(void)
{
	rd_setup_dir();
	chmod(rd.dir, 0755);	/* nobody reaches the socket (mode 0666) */
	start_nobus(NULL, NULL, NULL, NULL);
}

static bool need_root(const char *what)
{
	if (geteuid() == 0)
		return true;
	printf("SKIP: %s: switching to uid %d needs root\n", what, NOBODY);
	return false;
}

/*
 * Run @fn as uid/gid NOBODY in a child, on its own connection; the child
 * must exit 0 (@fn's nonzero return is the step that went wrong).
 */
static void as_nobody(int (*fn)(struct rind_client *u))
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(fn(rd_nobody_client()));
	rd_wait_nobody(pid);
}

#define AS_NOBODY "setpriv --reuid=65534 --regid=65534 --clear-groups "

/* ---- --help ---- */

START_TEST(test_cli_help)
{
	static const char *const cmds[] = {
		"--help", "-h", "help", "key --help", "key create --help", "key import --help",
		"key list --help", "key pub --help", "key delete --help", "key rotate --help",
		"key retire --help", "key access --help", "key create web --alg ed25519 --help",
		"sign --help", "verify --help", "seal --help", "open --help", "derive --help",
		"ping --help", "stats --help", "bench-daemon --help", "list --help",
		"features --help", "version --help", "help key rotate", "decrypt --help",
		"decap --help",
	};
	char out[8192], err[300];
	size_t i;

	snprintf(err, sizeof(err), "/tmp/rind-help-err.%d", (int)getpid());
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		/* stdout only here: stderr goes to a file that must stay empty */
		int rc = run(out, sizeof(out), "%s --socket /nonexistent/sock %s 2>%s", RIND_CLI, cmds[i], err);

		ck_assert_msg(rc == 0, "rind %s: exit %d: %s", cmds[i], rc, out);
		ck_assert_msg(strstr(out, "usage: rind"), "rind %s: no usage on stdout: %s", cmds[i], out);
		ck_assert_msg(!rt_slurp(err)[0], "rind %s wrote to stderr: %s", cmds[i],
			      rt_slurp(err));
	}
	unlink(err);
	/* each subcommand's own text: its options */
	ck_assert_int_eq(run(out, sizeof(out), "%s key retire --help", RIND_CLI), 0);
	ck_assert_msg(strstr(out, "--below V") && !strstr(out, "--allow-uid"), "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), "%s key access --help", RIND_CLI), 0);
	ck_assert_msg(strstr(out, "--allow-uid") && strstr(out, "--deny-gid") && strstr(out, "--clear"),
		      "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), "%s key create --help", RIND_CLI), 0);
	ck_assert_msg(strstr(out, "--alg") && strstr(out, "--exportable"), "%s", out);
	/* the texts name every option the commands take */
	ck_assert_int_eq(run(out, sizeof(out), "%s key create --help", RIND_CLI), 0);
	ck_assert_msg(strstr(out, "--usage") && strstr(out, "ecdsa-p256|p384|p521") && strstr(out, "rsa-2048|3072|4096") &&
		      strstr(out, "mlkem768") && strstr(out, "chacha20-poly1305"), "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), "%s sign --help", RIND_CLI), 0);
	ck_assert_msg(strstr(out, "--hash") && strstr(out, "--sig-format") && strstr(out, "--padding"),
		      "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), "%s bench-daemon --help", RIND_CLI), 0);
	ck_assert_msg(strstr(out, "ecdsa-p256") && strstr(out, "rsa-2048"), "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), "%s stats --help", RIND_CLI), 0);
	ck_assert_msg(strstr(out, "lanes"), "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), "%s --help", RIND_CLI), 0);
	ck_assert_msg(strstr(out, "key rotate NAME") && strstr(out, "key retire NAME --below V") &&
		      strstr(out, "key access NAME"), "%s", out);
	/* a mistake still goes to stderr with a nonzero exit */
	ck_assert_int_eq(run(out, sizeof(out), "(%s key retire web --bogus 1 2>&1 >/dev/null)", RIND_CLI), 2);
	ck_assert_msg(strstr(out, "unknown option"), "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), "(%s key retire web 2>&1 >/dev/null)", RIND_CLI), 2);
	ck_assert_msg(strstr(out, "--below"), "%s", out);
	printf("help: %zu command lines print their usage on stdout and exit 0\n",
	       sizeof(cmds) / sizeof(cmds[0]));
}
END_TEST

/* ---- rotation and retirement through the CLI, no bus ---- */

START_TEST(test_cli_rotate_retire)
{
	const char *S = rd.sock, *D = rd.dir;
	char out[8192];

	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key create web --alg ed25519", RIND_CLI, S), 0);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key create box --alg aes-256-gcm", RIND_CLI, S), 0);
	ck_assert_int_eq(rd_sh("echo hello | %s --socket %s sign web > %s/sig1", RIND_CLI, S, D), 0);
	ck_assert_int_eq(rd_sh("echo secret | %s --socket %s seal box > %s/box1", RIND_CLI, S, D), 0);

	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key rotate web", RIND_CLI, S), 0);
	ck_assert_msg(strstr(out, "rotated web: version 2 (live versions 1-2)") &&
		      strstr(out, "version 1  created ") && strstr(out, "version 2  created ") &&
		      strstr(out, "(current)"), "rotate: %s", out);
	ck_assert_int_eq(run(out, sizeof(out), "RIND_SOCKET=%s %s key rotate box", S, RIND_CLI), 0);
	ck_assert_msg(strstr(out, "version 2"), "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key rotate box", RIND_CLI, S), 0);
	ck_assert_msg(strstr(out, "version 3 (live versions 1-3)"), "%s", out);

	/* key list: version, live versions, creation and rotation times */
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key list", RIND_CLI, S), 0);
	ck_assert_msg(strstr(out, "VERSION") && strstr(out, "LIVE") && strstr(out, "CREATED") &&
		      strstr(out, "ROTATED"), "list header: %s", out);
	ck_assert_int_eq(rd_sh("%s --socket %s key list | grep -Eq '^web +ed25519 +2 +1-2 +[0-9]+ +no +20[0-9-]+T[0-9:]+Z +20[0-9-]+T[0-9:]+Z +-$'",
			       RIND_CLI, S), 0);
	ck_assert_int_eq(rd_sh("%s --socket %s key list | grep -Eq '^box +aes-256-gcm +3 +1-3 '", RIND_CLI, S), 0);

	/* the new version signs; both verify; old boxes still open */
	ck_assert_int_eq(rd_sh("echo hello | %s --socket %s sign web > %s/sig2", RIND_CLI, S, D), 0);
	ck_assert_int_ne(rd_sh("cmp -s %s/sig1 %s/sig2", D, D), 0);
	ck_assert_int_eq(rd_sh("echo hello | %s --socket %s verify web --sig %s/sig1 >/dev/null", RIND_CLI, S, D), 0);
	ck_assert_int_eq(rd_sh("echo hello | %s --socket %s verify web --sig %s/sig2 >/dev/null", RIND_CLI, S, D), 0);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s open box < %s/box1", RIND_CLI, S, D), 0);
	ck_assert_str_eq(out, "secret\n");

	/* retire: too high a version is refused with the reason, nothing changes */
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key retire web --below 3", RIND_CLI, S), 1);
	ck_assert_msg(strstr(out, "above key web's current version"), "%s", out);
	ck_assert_int_eq(rd_sh("echo hello | %s --socket %s verify web --sig %s/sig1 >/dev/null", RIND_CLI, S, D), 0);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key retire web --below 0", RIND_CLI, S), 2);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key retire web --below=2", RIND_CLI, S), 0);
	ck_assert_msg(strstr(out, "web: versions below 2 retired (live versions 2-2)"), "%s", out);
	ck_assert_int_eq(rd_sh("echo hello | %s --socket %s verify web --sig %s/sig1 >/dev/null", RIND_CLI, S, D), 1);
	ck_assert_int_eq(rd_sh("echo hello | %s --socket %s verify web --sig %s/sig2 >/dev/null", RIND_CLI, S, D), 0);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key retire box --below 3", RIND_CLI, S), 0);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s open box < %s/box1", RIND_CLI, S, D), 1);
	ck_assert_msg(strstr(out, "versions below 3 are retired"), "%s", out);
	ck_assert_int_eq(rd_sh("%s --socket %s key list | grep -Eq '^web +ed25519 +2 +2-2 '", RIND_CLI, S), 0);

	/* errors name the problem */
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key rotate nosuch", RIND_CLI, S), 1);
	ck_assert_msg(strstr(out, "no key named nosuch"), "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key rotate 'bad name'", RIND_CLI, S), 1);
	ck_assert_msg(strstr(out, "name:"), "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key rotate", RIND_CLI, S), 2);

	/* all of it survives a restart */
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	start_nobus(NULL, NULL, NULL, NULL);
	ck_assert_int_eq(rd_sh("%s --socket %s key list | grep -Eq '^web +ed25519 +2 +2-2 '", RIND_CLI, S), 0);
	ck_assert_int_eq(rd_sh("%s --socket %s key list | grep -Eq '^box +aes-256-gcm +3 +3-3 '", RIND_CLI, S), 0);
	ck_assert_int_eq(rd_sh("echo hello | %s --socket %s verify web --sig %s/sig2 >/dev/null", RIND_CLI, S, D), 0);
	ck_assert_int_eq(rd_sh("echo hello | %s --socket %s verify web --sig %s/sig1 >/dev/null", RIND_CLI, S, D), 1);
	{
		char *log = rd_read_log();

		ck_assert_msg(strstr(log, "event=ready") && strstr(log, "bus=none"), "%s", log);
		free(log);
	}
}
END_TEST

/* ---- the library calls ---- */

START_TEST(test_lib_rotate_retire)
{
	struct rind_client *c = rd_client();
	struct rind_client_key_info ki, *keys;
	uint8_t *sig1, *sig2, *box1, *pt, pub1[32], *p;
	size_t l1, l2, bl, ptl, n, i;
	uint64_t t0 = (uint64_t)time(NULL);

	ck_assert_int_eq(rind_client_create_key(c, "ed", "ed25519", false, &ki), 0);
	ck_assert_uint_eq(ki.version, 1);
	ck_assert_uint_eq(ki.min_version, 1);
	ck_assert_uint_eq(ki.n_versions, 1);
	ck_assert_uint_ge(ki.versions[0].created, t0 - 1);
	ck_assert_int_eq(rind_client_create_key(c, "aes", "aes-256-gcm", false, NULL), 0);
	ck_assert_int_eq(rind_client_get_public(c, "ed", RIND_CLIENT_RAW, &p, &n), 0);
	memcpy(pub1, p, 32);
	free(p);
	ck_assert_int_eq(rind_client_sign(c, "ed", "m", 1, &sig1, &l1), 0);
	ck_assert_int_eq(rind_client_seal(c, "aes", "pt", 2, NULL, 0, &box1, &bl), 0);

	/* pipelined right behind the rotation on the same connection: the new version signs */
	for (i = 2; i <= 4; i++) {
		ck_assert_int_eq(rind_client_rotate_key(c, "ed", &ki), 0);
		ck_assert_uint_eq(ki.version, i);
		ck_assert_uint_eq(ki.min_version, 1);
		ck_assert_uint_eq(ki.n_versions, i);
		ck_assert_uint_eq(ki.versions[i - 1].version, i);
		ck_assert_uint_eq(ki.versions[0].version, 1);
		ck_assert_uint_ge(ki.versions[i - 1].created, ki.versions[0].created);
		ck_assert_uint_eq(ki.created, ki.versions[i - 1].created);
	}
	ck_assert_int_eq(rind_client_sign(c, "ed", "m", 1, &sig2, &l2), 0);
	ck_assert_msg(memcmp(sig1, sig2, 64), "version 4 signs like version 1");
	ck_assert_int_ne(rind_ed25519_verify(sig2, "m", 1, pub1), 0);
	ck_assert_int_eq(rind_client_verify(c, "ed", "m", 1, sig1, l1), 0);
	ck_assert_int_eq(rind_client_verify(c, "ed", "m", 1, sig2, l2), 0);
	ck_assert_int_eq(rind_client_rotate_key(c, "aes", NULL), 0);
	ck_assert_int_eq(rind_client_open(c, "aes", box1, bl, NULL, 0, &pt, &ptl), 0);
	ck_assert_mem_eq(pt, "pt", 2);
	free(pt);

	/* list carries every live version */
	ck_assert_int_eq(rind_client_list_keys(c, &keys, &n), 0);
	ck_assert_uint_eq(n, 2);
	for (i = 0; i < n; i++) {
		if (!strcmp(keys[i].name, "ed")) {
			ck_assert_uint_eq(keys[i].version, 4);
			ck_assert_uint_eq(keys[i].n_versions, 4);
		} else {
			ck_assert_uint_eq(keys[i].version, 2);
			ck_assert_uint_eq(keys[i].n_versions, 2);
		}
	}
	free(keys);

	/* retire */
	ck_assert_int_eq(rind_client_retire_versions(c, "ed", 5, &ki), -EINVAL);
	ck_assert_int_eq(rind_client_last_status(c), RIND__STATUS__ERR_INVALID);
	ck_assert_int_eq(rind_client_retire_versions(c, "ed", 0, &ki), -EINVAL);
	ck_assert_int_eq(rind_client_retire_versions(c, "nosuch", 2, &ki), -ENOENT);
	ck_assert_int_eq(rind_client_retire_versions(c, "ed", 3, &ki), 0);
	ck_assert_uint_eq(ki.min_version, 3);
	ck_assert_uint_eq(ki.n_versions, 2);
	ck_assert_uint_eq(ki.versions[0].version, 3);
	ck_assert_int_eq(rind_client_verify(c, "ed", "m", 1, sig1, l1), -EBADMSG);
	ck_assert_int_eq(rind_client_verify(c, "ed", "m", 1, sig2, l2), 0);
	ck_assert_int_eq(rind_client_retire_versions(c, "aes", 2, NULL), 0);
	ck_assert_int_eq(rind_client_open(c, "aes", box1, bl, NULL, 0, &pt, &ptl), -EBADMSG);
	ck_assert_int_eq(rind_client_rotate_key(c, "nosuch", NULL), -ENOENT);
	ck_assert_int_eq(rind_client_rotate_key(c, "", NULL), -EINVAL);
	free(sig1);
	free(sig2);
	free(box1);
	rind_client_close(c);
	{
		char *log = rd_read_log();

		ck_assert_msg(strstr(log, "action=rotate_key key=ed uid=") && strstr(log, "via=socket result=ok version=4"),
			      "audit: %s", log);
		ck_assert_msg(strstr(log, "action=retire_versions key=ed") &&
			      strstr(log, "min_version=3 errno=0"), "audit: %s", log);
		free(log);
	}
}
END_TEST

/* 64 live old versions is the limit: rotation says to retire first */
START_TEST(test_rotate_limit)
{
	struct rind_client *c = rd_client();
	struct rind_client_key_info ki;
	int i;

	ck_assert_int_eq(rind_client_create_key(c, "many", "aes-256-gcm", false, NULL), 0);
	for (i = 0; i < 64; i++)
		ck_assert_int_eq(rind_client_rotate_key(c, "many", &ki), 0);
	ck_assert_uint_eq(ki.version, 65);
	ck_assert_uint_eq(ki.n_versions, 65);
	ck_assert_int_eq(rind_client_rotate_key(c, "many", &ki), -EINVAL);
	ck_assert_msg(strstr(rind_client_last_error(c), "retire"), "%s", rind_client_last_error(c));
	ck_assert_int_eq(rind_client_retire_versions(c, "many", 60, &ki), 0);
	ck_assert_int_eq(rind_client_rotate_key(c, "many", &ki), 0);
	ck_assert_uint_eq(ki.version, 66);
	ck_assert_uint_eq(ki.n_versions, 7);
	rind_client_close(c);
}
END_TEST

/* ---- rotation and access changes while other clients sign and seal ---- */

#define HOT_CLIENTS 4
#define HOT_REQS 150
#define HOT_ROTATIONS 20

static struct {
	uint8_t sig[HOT_REQS][64];
	uint8_t *box[HOT_REQS];
	size_t boxlen[HOT_REQS];
	int seen[HOT_REQS], bad;
} hot;

static void hot_cb(struct rind_client *cl, const struct rind_client_result *r, void *user)
{
	long i = (long)(uintptr_t)user;

	(void)cl;
	if (i < 0 || i >= HOT_REQS || r->status) {
		hot.bad++;
		return;
	}
	hot.seen[i]++;
	if (i & 1) {
		hot.box[i] = malloc(r->len);
		memcpy(hot.box[i], r->data, r->len);
		hot.boxlen[i] = r->len;
	} else if (r->len == 64) {
		memcpy(hot.sig[i], r->data, 64);
	} else {
		hot.bad++;
	}
}

/* One client: pipelined signs and seals, then every result checked by the daemon. */
static int hot_client(int idx)
{
	struct rind_client *c = rind_client_connect(rd.sock);
	char m[64];
	uint8_t *pt;
	size_t ptl;
	long i;

	if (!c)
		return 10;
	rind_client_set_timeout(c, 30000);
	rind_client_set_max_inflight(c, 16);
	for (i = 0; i < HOT_REQS; i++) {
		snprintf(m, sizeof(m), "hot %d %ld", idx, i);
		if ((i & 1 ? rind_client_submit_seal(c, "hotbox", m, strlen(m), NULL, 0, hot_cb,
						     (void *)(uintptr_t)i, NULL) :
			     rind_client_submit_sign(c, "hot", m, strlen(m), hot_cb, (void *)(uintptr_t)i,
						     NULL)))
			return 11;
		if (i % 10 == 9)
			rind_client_poll(c, 1);
	}
	if (rind_client_wait_all(c, 30000) || hot.bad)
		return 12;
	for (i = 0; i < HOT_REQS; i++) {
		if (hot.seen[i] != 1)
			return 13;
		snprintf(m, sizeof(m), "hot %d %ld", idx, i);
		if (i & 1) {
			if (rind_client_open(c, "hotbox", hot.box[i], hot.boxlen[i], NULL, 0, &pt, &ptl) ||
			    ptl != strlen(m) || memcmp(pt, m, ptl))
				return 14;
			free(pt);
			free(hot.box[i]);
		} else if (rind_client_verify(c, "hot", m, strlen(m), hot.sig[i], 64)) {
			return 15;
		}
	}
	rind_client_close(c);
	return 0;
}

static int hot_admin(void)
{
	struct rind_client *c = rind_client_connect(rd.sock);
	struct rind_client_key_info ki;
	uint32_t id = 4242;
	struct rind_client_access add = { .allow_uids = &id, .n_allow_uids = 1 };
	struct rind_client_access del = { .deny_uids = &id, .n_deny_uids = 1 };
	int i;

	if (!c)
		return 20;
	rind_client_set_timeout(c, 30000);
	for (i = 0; i < HOT_ROTATIONS; i++) {
		if (rind_client_rotate_key(c, i & 1 ? "hotbox" : "hot", &ki))
			return 21;
		if (rind_client_set_access(c, "hot", i & 1 ? &del : &add, NULL, NULL, NULL, NULL))
			return 22;
	}
	rind_client_close(c);
	return 0;
}

START_TEST(test_rotate_under_load)
{
	struct rind_client *c = rd_client();
	struct rind_client_key_info *keys;
	pid_t pids[HOT_CLIENTS + 1];
	size_t n, i;
	int k, st, failed = 0;

	ck_assert_int_eq(rind_client_create_key(c, "hot", "ed25519", false, NULL), 0);
	ck_assert_int_eq(rind_client_create_key(c, "hotbox", "aes-256-gcm", false, NULL), 0);
	fflush(NULL);
	for (k = 0; k <= HOT_CLIENTS; k++) {
		pids[k] = fork();
		ck_assert_int_ge(pids[k], 0);
		if (pids[k] == 0)
			_exit(k < HOT_CLIENTS ? hot_client(k) : hot_admin());
	}
	for (k = 0; k <= HOT_CLIENTS; k++) {
		st = rd_wait_child(pids[k], 60000);
		if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "%s %d: exit %d\n", k < HOT_CLIENTS ? "client" : "administrator", k,
				st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1);
			failed++;
		}
	}
	rd_check_alive();
	ck_assert_msg(!failed, "%d processes failed", failed);
	ck_assert_int_eq(rind_client_list_keys(c, &keys, &n), 0);
	ck_assert_uint_eq(n, 2);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(keys[i].version, 1 + HOT_ROTATIONS / 2);
		ck_assert_uint_eq(keys[i].n_versions, 1 + HOT_ROTATIONS / 2);
	}
	free(keys);
	rind_client_close(c);
	printf("under load: %d clients x %d signs/seals while %d rotations and %d access changes ran; "
	       "every result verified\n", HOT_CLIENTS, HOT_REQS, HOT_ROTATIONS, HOT_ROTATIONS);
}
END_TEST

/* ---- a second uid is refused, as over D-Bus ---- */

/* Its steps count from 31: rd_nobody_client() exits 20 and 21. */
static int nobody_admin(struct rind_client *u)
{
	struct rind_client_access a = { 0 };
	struct rind_client_key_info ki;
	uint32_t uid = NOBODY, *uids = NULL, *gids = NULL;
	size_t nu, ng;
	uint8_t *p;
	size_t len;

	if (rind_client_rotate_key(u, "rootkey", &ki) != -EPERM ||
	    rind_client_last_status(u) != RIND__STATUS__ERR_PERMISSION)
		return 31;
	if (!strstr(rind_client_last_error(u), "uid 65534 may not rotate key rootkey"))
		return 32;
	if (rind_client_retire_versions(u, "rootkey", 1, &ki) != -EPERM)
		return 33;
	a.allow_uids = &uid;
	a.n_allow_uids = 1;
	if (rind_client_set_access(u, "rootkey", &a, NULL, NULL, NULL, NULL) != -EPERM)
		return 34;
	if (rind_client_set_access(u, "rootkey", NULL, &uids, &nu, &gids, &ng) != -EPERM)
		return 35;	/* not even a look at the lists */
	/* allowed to use "shared", not to manage it */
	if (rind_client_sign(u, "shared", "m", 1, &p, &len))
		return 36;
	free(p);
	if (rind_client_rotate_key(u, "shared", &ki) != -EPERM)
		return 37;
	if (rind_client_set_access(u, "shared", &a, NULL, NULL, NULL, NULL) != -EPERM)
		return 38;
	/* its own key: everything */
	if (rind_client_create_key(u, "mine", "ed25519", false, NULL))
		return 39;
	if (rind_client_rotate_key(u, "mine", &ki) || ki.version != 2)
		return 40;
	if (rind_client_retire_versions(u, "mine", 2, &ki) || ki.min_version != 2)
		return 41;
	a.allow_uids = NULL;
	a.n_allow_uids = 0;
	uid = 4242;
	a.allow_gids = &uid;
	a.n_allow_gids = 1;
	if (rind_client_set_access(u, "mine", &a, &uids, &nu, &gids, &ng) || nu != 0 || ng != 1 ||
	    gids[0] != 4242)
		return 42;
	free(uids);
	free(gids);
	rind_client_close(u);
	return 0;
}

START_TEST(test_admin_second_uid)
{
	struct rind_client *c;
	struct rind_client_key_info ki, *keys;
	uint32_t uid = NOBODY;
	struct rind_client_access a = { .allow_uids = &uid, .n_allow_uids = 1 };
	char out[4096], *log;
	size_t n, i;

	if (!need_root("second-uid administration"))
		return;
	c = rd_client();
	ck_assert_int_eq(rind_client_create_key(c, "rootkey", "ed25519", false, NULL), 0);
	ck_assert_int_eq(rind_client_create_key(c, "shared", "ed25519", false, NULL), 0);
	ck_assert_int_eq(rind_client_set_access(c, "shared", &a, NULL, NULL, NULL, NULL), 0);
	as_nobody(nobody_admin);

	/* the same refusals through the CLI */
	ck_assert_int_eq(run(out, sizeof(out), AS_NOBODY "%s --socket %s key rotate rootkey", RIND_CLI, rd.sock), 1);
	ck_assert_msg(strstr(out, "may not rotate key rootkey") && strstr(out, "Operation not permitted"), "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), AS_NOBODY "%s --socket %s key retire rootkey --below 1", RIND_CLI, rd.sock), 1);
	ck_assert_msg(strstr(out, "may not retire versions of key rootkey"), "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), AS_NOBODY "%s --socket %s key access rootkey --allow-uid 65534", RIND_CLI, rd.sock), 1);
	ck_assert_msg(strstr(out, "may not change access to key rootkey"), "%s", out);

	/* nothing changed: root's key is still version 1, its lists empty */
	ck_assert_int_eq(rind_client_list_keys(c, &keys, &n), 0);
	for (i = 0; i < n; i++) {
		if (!strcmp(keys[i].name, "rootkey"))
			ck_assert_uint_eq(keys[i].version, 1);
		if (!strcmp(keys[i].name, "mine")) {
			ck_assert_uint_eq(keys[i].owner_uid, NOBODY);
			ck_assert_uint_eq(keys[i].version, 2);
		}
	}
	free(keys);
	{
		uint32_t *uids, *gids;
		size_t nu, ng;

		ck_assert_int_eq(rind_client_set_access(c, "rootkey", NULL, &uids, &nu, &gids, &ng), 0);
		ck_assert_uint_eq(nu + ng, 0);
		free(uids);
		free(gids);
		/* root manages nobody's key */
		ck_assert_int_eq(rind_client_rotate_key(c, "mine", &ki), 0);
		ck_assert_uint_eq(ki.version, 3);
	}
	rind_client_close(c);
	log = rd_read_log();
	ck_assert_msg(strstr(log, "event=audit action=rotate_key key=rootkey uid=65534") &&
		      strstr(log, "via=socket result=denied owner=0"), "audit: %s", log);
	ck_assert_msg(strstr(log, "action=retire_versions key=rootkey uid=65534"), "audit: %s", log);
	ck_assert_msg(strstr(log, "action=set_access key=rootkey uid=65534"), "audit: %s", log);
	ck_assert_msg(strstr(log, "action=rotate_key key=mine uid=65534") &&
		      strstr(log, "action=rotate_key key=mine uid=0"), "audit: %s", log);
	free(log);
}
END_TEST

/* ---- access lists through the CLI ---- */

START_TEST(test_cli_access)
{
	const char *S = rd.sock, *D = rd.dir;
	char out[8192];

	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key create web --alg ed25519", RIND_CLI, S), 0);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key access web", RIND_CLI, S), 0);
	ck_assert_msg(strstr(out, "allow uids: none\nallow gids: none\n"), "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key access web --allow-uid 1001,1002 --allow-uid=nobody --allow-gid 33 --allow gid:nogroup",
			     RIND_CLI, S), 0);
	ck_assert_msg(strstr(out, "allow uids: 1001 1002 65534\nallow gids: 33 65534\n"), "%s", out);
	/* adding again changes nothing; deny removes */
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key access web --allow-uid 1001 --deny-uid 1002 --deny uid:1003 --deny-gid 33",
			     RIND_CLI, S), 0);
	ck_assert_msg(strstr(out, "allow uids: 1001 65534\nallow gids: 65534\n"), "%s", out);
	/* bad input: exit 2 before the daemon, or the daemon's reason */
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key access web --allow-uid no-such-user-x", RIND_CLI, S), 2);
	ck_assert_msg(strstr(out, "neither a uid number nor a user name"), "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key access web --allow-gid 4294967295", RIND_CLI, S), 2);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key access web --deny-uid 0", RIND_CLI, S), 1);
	ck_assert_msg(strstr(out, "root always has access"), "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key access web --allow-uid 7 --deny-uid 7", RIND_CLI, S), 1);
	ck_assert_msg(strstr(out, "also to be allowed"), "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key access web --rotate 1", RIND_CLI, S), 2);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key access nosuch --allow-uid 7", RIND_CLI, S), 1);
	ck_assert_msg(strstr(out, "no key named nosuch"), "%s", out);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key access web", RIND_CLI, S), 0);
	ck_assert_msg(strstr(out, "allow uids: 1001 65534\nallow gids: 65534\n"), "unchanged by the refusals: %s", out);

	if (geteuid() == 0) {
		/* the lists decide: nobody (gid nogroup) signs while either allows it */
		ck_assert_int_eq(rd_sh("echo m | " AS_NOBODY "%s --socket %s sign web > %s/s1", RIND_CLI, S, D), 0);
		ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key access web --deny uid:65534", RIND_CLI, S), 0);
		ck_assert_int_eq(rd_sh("echo m | " AS_NOBODY "%s --socket %s sign web > %s/s2", RIND_CLI, S, D), 0);
		ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key access web --deny-gid nogroup", RIND_CLI, S), 0);
		ck_assert_msg(strstr(out, "allow uids: 1001\nallow gids: none\n"), "%s", out);
		ck_assert_int_eq(run(out, sizeof(out), "echo m | " AS_NOBODY "%s --socket %s sign web", RIND_CLI, S), 1);
		ck_assert_msg(strstr(out, "may not use key web"), "%s", out);
		ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key access web --clear --allow-gid 65534", RIND_CLI, S), 0);
		ck_assert_msg(strstr(out, "allow uids: none\nallow gids: 65534\n"), "%s", out);
		ck_assert_int_eq(rd_sh("echo m | " AS_NOBODY "%s --socket %s sign web > %s/s3", RIND_CLI, S, D), 0);
	} else {
		printf("SKIP: the allow lists' effect on another uid needs root\n");
	}
	/* the lists survive a restart */
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	start_nobus(NULL, NULL, NULL, NULL);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key access web", RIND_CLI, S), 0);
	ck_assert_msg(strstr(out, geteuid() == 0 ? "allow uids: none\nallow gids: 65534\n" :
			     "allow uids: 1001 65534\nallow gids: 65534\n"), "after restart: %s", out);
}
END_TEST

/* ---- quotas; stats show a caller its own keys ---- */

static int nobody_quota(struct rind_client *u)
{
	struct rind_client_stats st;
	uint8_t k[32] = { 1 };

	if (rind_client_create_key(u, "n1", "ed25519", false, NULL) ||
	    rind_client_create_key(u, "n2", "aes-256-gcm", false, NULL))
		return 11;
	if (rind_client_create_key(u, "n3", "ed25519", false, NULL) != -EDQUOT ||
	    rind_client_last_status(u) != RIND__STATUS__ERR_QUOTA)
		return 12;
	if (!strstr(rind_client_last_error(u), "uid 65534 owns 2 keys") ||
	    !strstr(rind_client_last_error(u), "--max-keys-per-uid 2"))
		return 13;
	if (rind_client_import_key(u, "n3", "aes-256-gcm", k, 32, RIND_CLIENT_RAW, false, NULL) != -EDQUOT)
		return 14;
	if (rind_client_stats(u, &st) || st.keys != 2 || st.all_keys || st.max_keys != 6 ||
	    st.max_keys_per_uid != 2)
		return 15;
	rind_client_close(u);
	return 0;
}

static int nobody_after(struct rind_client *u)
{
	struct rind_client_stats st;

	if (rind_client_delete_key(u, "n1"))
		return 11;
	if (rind_client_stats(u, &st) || st.keys != 1)
		return 12;
	if (rind_client_create_key(u, "n3", "x25519", false, NULL))
		return 13;	/* the total is back under 6 */
	if (rind_client_stats(u, &st) || st.keys != 2)
		return 14;
	rind_client_close(u);
	return 0;
}

START_TEST(test_quota)
{
	struct rind_client *c;
	struct rind_client_stats st;
	char out[4096], name[16];
	int i;

	rd_stop(SIGTERM);
	start_nobus("--max-keys", "6", "--max-keys-per-uid", "2");
	c = rd_client();
	if (geteuid() == 0) {
		as_nobody(nobody_quota);
		/* the service owner is held to the total, not to the per-uid quota */
		for (i = 1; i <= 4; i++) {
			snprintf(name, sizeof(name), "r%d", i);
			ck_assert_int_eq(rind_client_create_key(c, name, "ed25519", false, NULL), 0);
		}
	} else {
		for (i = 1; i <= 6; i++) {
			snprintf(name, sizeof(name), "r%d", i);
			ck_assert_int_eq(rind_client_create_key(c, name, "ed25519", false, NULL), 0);
		}
	}
	ck_assert_int_eq(rind_client_create_key(c, "r9", "ed25519", false, NULL), -EDQUOT);
	ck_assert_msg(strstr(rind_client_last_error(c), "rindd holds 6 keys, its limit (--max-keys 6)"),
		      "%s", rind_client_last_error(c));
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s key create r9 --alg ed25519", RIND_CLI, rd.sock), 1);
	ck_assert_msg(strstr(out, "key quota") && strstr(out, "Disk quota exceeded"), "%s", out);
	ck_assert_int_eq(rind_client_stats(c, &st), 0);
	ck_assert_uint_eq(st.keys, 6);
	ck_assert(st.all_keys);
	ck_assert_uint_eq(st.max_keys, 6);
	ck_assert_uint_eq(st.max_keys_per_uid, 2);
	ck_assert_int_eq(run(out, sizeof(out), "%s --socket %s stats", RIND_CLI, rd.sock), 0);
	ck_assert_msg(strstr(out, "keys              6 (all)") &&
		      strstr(out, "key_quota         6 total, 2 per uid"), "%s", out);
	if (geteuid() == 0) {
		as_nobody(nobody_after);
		ck_assert_int_eq(run(out, sizeof(out), AS_NOBODY "%s --socket %s stats", RIND_CLI, rd.sock), 0);
		ck_assert_msg(strstr(out, "keys              2 (yours)"), "%s", out);
	}
	/* refused creations left nothing behind: the count after a restart is the same */
	rind_client_close(c);
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	start_nobus("--max-keys", "6", "--max-keys-per-uid", "2");
	c = rd_client();
	ck_assert_int_eq(rind_client_stats(c, &st), 0);
	ck_assert_uint_eq(st.keys, 6);
	rind_client_close(c);
}
END_TEST

/* the quota is in the audit log, and the defaults are sensible */
START_TEST(test_quota_audit_defaults)
{
	struct rind_client *c;
	struct rind_client_stats st;
	char *log;

	c = rd_client();
	ck_assert_int_eq(rind_client_stats(c, &st), 0);
	ck_assert_uint_eq(st.max_keys, 4096);
	ck_assert_uint_eq(st.max_keys_per_uid, 256);
	rind_client_close(c);
	rd_stop(SIGTERM);
	start_nobus("--max-keys", "1", NULL, NULL);
	c = rd_client();
	ck_assert_int_eq(rind_client_create_key(c, "one", "ed25519", false, NULL), 0);
	ck_assert_int_eq(rind_client_create_key(c, "two", "ed25519", false, NULL), -EDQUOT);
	rind_client_close(c);
	log = rd_read_log();
	ck_assert_msg(strstr(log, "action=create_key key=two") && strstr(log, "result=quota"), "%s", log);
	free(log);
	/* 0 is no limit; a bad value is refused at start */
	rd_stop(SIGTERM);
	{
		int st2 = 0;

		ck_assert_int_eq(rd_start_args(&st2, "--max-keys", "lots", (char *)NULL), -1);
		ck_assert(WIFEXITED(st2) && WEXITSTATUS(st2) == 2);
	}
	start_nobus("--max-keys", "0", "--max-keys-per-uid", "0");
	c = rd_client();
	ck_assert_int_eq(rind_client_create_key(c, "two", "ed25519", false, NULL), 0);
	ck_assert_int_eq(rind_client_stats(c, &st), 0);
	ck_assert_uint_eq(st.max_keys, 0);
	rind_client_close(c);
}
END_TEST

/* ---- a detached rindd: --log-file, syslog, --pidfile ---- */

static pid_t read_pidfile(const char *path)
{
	char *t = rt_slurp(path);

	return (pid_t)atoi(t);
}

/* Wait for the detached daemon @pid (we are its subreaper): its exit status. */
static int wait_detached(pid_t pid)
{
	int st = rd_wait_child(pid, 20000);

	return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(test_detached_log_file)
{
	char cmd[2048], out[4096], logf[256], pidf[256], link[64], target[256], *t, *rep;
	pid_t pid;
	ssize_t n;

	rd_setup_dir();
	prctl(PR_SET_CHILD_SUBREAPER, 1);	/* the daemon's grandchild comes back to us */
	snprintf(logf, sizeof(logf), "%s/rindd-detached.log", rd.dir);
	snprintf(pidf, sizeof(pidf), "%s/rindd.pid", rd.dir);
	snprintf(cmd, sizeof(cmd), "%s/rindd --socket %s --state-dir %s --master-key-file %s --bus none "
		 "--threads 1 --log-file %s --pidfile %s", RIND_BUILD_DIR, rd.sock, rd.state, rd.mk,
		 logf, pidf);
	/* returns once the daemon listens; nothing on the terminal */
	ck_assert_int_eq(run(out, sizeof(out), "%s", cmd), 0);
	ck_assert_msg(!out[0], "a detached rindd wrote to its caller's terminal: %s", out);
	pid = read_pidfile(pidf);
	ck_assert_int_gt(pid, 1);
	ck_assert_int_eq(kill(pid, 0), 0);
	rd.pid = pid;	/* killed by the teardown if the test fails */
	rd_create_key("web", "ed25519");
	t = rt_slurp(logf);
	ck_assert_msg(strstr(t, "event=ready") && strstr(t, "action=create_key key=web"), "log: %s", t);
	/* stdout is /dev/null, stderr the log file: no terminal */
	snprintf(link, sizeof(link), "/proc/%d/fd/1", (int)pid);
	n = readlink(link, target, sizeof(target) - 1);
	ck_assert_int_gt(n, 0);
	target[n] = 0;
	ck_assert_str_eq(target, "/dev/null");
	snprintf(link, sizeof(link), "/proc/%d/fd/2", (int)pid);
	n = readlink(link, target, sizeof(target) - 1);
	ck_assert_int_gt(n, 0);
	target[n] = 0;
	ck_assert_str_eq(target, logf);
	/* its own session: the caller's terminal signals do not reach it */
	ck_assert_int_eq(getsid(pid), pid);
	ck_assert_int_eq(kill(pid, SIGTERM), 0);
	ck_assert_int_eq(wait_detached(pid), 0);
	rd.pid = 0;
	ck_assert_msg(access(pidf, F_OK) != 0, "the pidfile outlived the daemon");
	t = rt_slurp(logf);
	ck_assert_msg(strstr(t, "event=stopped"), "log: %s", t);
	rep = rd_san_report(logf);
	ck_assert_msg(!rep, "sanitizer report: %s", rep);

	/* a failed start says where to look, on the terminal, and exits 1 */
	ck_assert_int_eq(run(out, sizeof(out), "%s/rindd --socket %s --state-dir /proc/nonexistent/x --master-key-file %s "
			     "--bus none --log-file %s", RIND_BUILD_DIR, rd.sock, rd.mk, logf), 1);
	ck_assert_msg(strstr(out, "did not start") && strstr(out, logf), "%s", out);
	ck_assert_msg(strstr(rt_slurp(logf), "state_dir_failed"), "%s", rt_slurp(logf));
	/* an unwritable log file is refused at once */
	ck_assert_int_ne(run(out, sizeof(out), "%s/rindd --socket %s --state-dir %s --master-key-file %s "
			     "--bus none --log-file /proc/nonexistent/log", RIND_BUILD_DIR, rd.sock, rd.state,
			     rd.mk), 0);
	ck_assert_msg(strstr(out, "--log-file /proc/nonexistent/log"), "%s", out);
	rd_atexit();
}
END_TEST

START_TEST(test_detached_syslog)
{
	char cmd[2048], out[4096], pidf[256], link[64], target[256];
	struct rind_client *c;
	pid_t pid;
	ssize_t n;
	char *v;

	rd_setup_dir();
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	snprintf(pidf, sizeof(pidf), "%s/rindd.pid", rd.dir);
	snprintf(cmd, sizeof(cmd), "%s/rindd --socket %s --state-dir %s --master-key-file %s --bus none "
		 "--threads 1 --pidfile %s", RIND_BUILD_DIR, rd.sock, rd.state, rd.mk, pidf);
	ck_assert_int_eq(run(out, sizeof(out), "%s", cmd), 0);
	ck_assert_msg(!out[0], "a detached rindd wrote to its caller's terminal: %s", out);
	pid = read_pidfile(pidf);
	ck_assert_int_gt(pid, 1);
	rd.pid = pid;
	c = rd_client();
	ck_assert_int_eq(rind_client_hello(c, &v), 0);
	free(v);
	ck_assert_int_eq(rind_client_create_key(c, "k", "nosuch-alg", false, NULL), -EOPNOTSUPP);
	rind_client_close(c);
	/* every descriptor 0-2 is /dev/null: the log went to syslog */
	for (int fd = 0; fd <= 2; fd++) {
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)pid, fd);
		n = readlink(link, target, sizeof(target) - 1);
		ck_assert_int_gt(n, 0);
		target[n] = 0;
		ck_assert_msg(!strcmp(target, "/dev/null"), "fd %d is %s", fd, target);
	}
	ck_assert_int_eq(kill(pid, SIGTERM), 0);
	ck_assert_int_eq(wait_detached(pid), 0);
	rd.pid = 0;
	ck_assert_int_ne(access(pidf, F_OK), 0);
	/* a bad --log target is refused */
	ck_assert_int_eq(run(out, sizeof(out), "%s/rindd --log bogus", RIND_BUILD_DIR), 2);
	ck_assert_msg(strstr(out, "journal, stderr or syslog"), "%s", out);
	rd_atexit();
}
END_TEST

/* ---- bench-daemon interrupted ---- */

START_TEST(test_bench_interrupt)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	char errf[256];
	unsigned int s;

	snprintf(errf, sizeof(errf), "%s/bench.err", rd.dir);
	for (s = 0; s < 2; s++) {
		struct rind_client *c = rd_client();
		struct rind_client_key_info *keys;
		size_t n, i;
		int found = 0, st, tries;
		pid_t pid;

		fflush(NULL);
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			int fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
			int nul = open("/dev/null", O_WRONLY);

			dup2(fd, 2);
			dup2(nul, 1);
			execl(RIND_CLI, RIND_CLI, "--socket", rd.sock, "bench-daemon", "--alg", "ed25519",
			      "--clients", "2", "--requests", "200000", "--pipeline", "8", "--size", "32",
			      (char *)NULL);
			_exit(127);
		}
		/* the run's key appears, the clients start signing ... */
		for (tries = 0; tries < 2000 && !found; tries++) {
			ck_assert_int_eq(rind_client_list_keys(c, &keys, &n), 0);
			for (i = 0; i < n; i++)
				found |= !strncmp(keys[i].name, "bench-ed25519-", 14);
			free(keys);
			if (!found)
				rd_sleep_ms(5);
		}
		ck_assert_msg(found, "bench-daemon never created its key");
		rd_sleep_ms(300);
		/* ... and the signal stops them, the key goes */
		ck_assert_int_eq(kill(pid, sigs[s]), 0);
		st = rd_wait_child(pid, 20000);
		ck_assert_msg(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 128 + sigs[s],
			      "bench-daemon after signal %d: status %d; stderr: %s", sigs[s], st,
			      rt_slurp(errf));
		ck_assert_msg(strstr(rt_slurp(errf), "interrupted") &&
			      strstr(rt_slurp(errf), "deleted"), "%s", rt_slurp(errf));
		ck_assert_int_eq(rind_client_list_keys(c, &keys, &n), 0);
		for (i = 0; i < n; i++)
			ck_assert_msg(strncmp(keys[i].name, "bench-", 6), "key %s left behind", keys[i].name);
		free(keys);
		rind_client_close(c);
	}
	/* and a whole run still cleans up after itself */
	ck_assert_int_eq(rd_sh("%s --socket %s bench-daemon --alg aes-256-gcm --clients 1 --requests 50 "
			       "--pipeline 4 --size 16 > /dev/null", RIND_CLI, rd.sock), 0);
	{
		struct rind_client *c = rd_client();
		struct rind_client_stats st;

		ck_assert_int_eq(rind_client_stats(c, &st), 0);
		ck_assert_uint_eq(st.keys, 0);
		rind_client_close(c);
	}
}
END_TEST

/* ---- make install-data: the documents the unit names ---- */

START_TEST(test_install_docs)
{
	char out[8192], dest[128], unit[300], *t, *p;
	int ndocs = 0;

	snprintf(dest, sizeof(dest), "/tmp/rind-install.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dest));
	ck_assert_msg(run(out, sizeof(out), "env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -C %s install-data DESTDIR=%s PREFIX=/usr",
			  RIND_SOURCE_DIR, dest) == 0, "make install-data: %s", out);
	snprintf(unit, sizeof(unit), "%s/usr/lib/systemd/system/rindd.service", dest);
	t = rt_slurp(unit);
	ck_assert_msg(strstr(t, "ExecStart=/usr/bin/rindd "), "%s", t);
	for (p = t; (p = strstr(p, "Documentation=")); ) {
		char path[512], *e;

		p += strlen("Documentation=");
		while (*p && *p != '\n') {
			char url[256];
			size_t l = strcspn(p, " \n");

			snprintf(url, sizeof(url), "%.*s", (int)l, p);
			ck_assert_msg(!strncmp(url, "file://", 7), "Documentation=%s is not a file", url);
			snprintf(path, sizeof(path), "%s%s", dest, url + 7);
			ck_assert_msg(access(path, R_OK) == 0, "Documentation=%s: %s is not installed", url, path);
			ndocs++;
			p += l;
			while (*p == ' ')
				p++;
		}
		e = strstr(path, "/systemd/README.md");
		if (e)
			ck_assert_int_eq(run(out, sizeof(out), "cmp %s %s/systemd/README.md", path, RIND_SOURCE_DIR), 0);
	}
	ck_assert_int_ge(ndocs, 1);
	ck_assert_int_eq(run(out, sizeof(out), "test -f %s/usr/share/doc/rind/README.md && test -f %s/usr/share/doc/rind/proto/README.md "
			     "&& test -f %s/usr/share/doc/rind/daemon/README.md", dest, dest, dest), 0);
	/* another PREFIX: the unit points where the documents went */
	ck_assert_int_eq(run(out, sizeof(out), "env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -C %s install-data DESTDIR=%s/b PREFIX=/opt/rind",
			     RIND_SOURCE_DIR, dest), 0);
	ck_assert_int_eq(run(out, sizeof(out), "grep -q '^Documentation=file:///opt/rind/share/doc/rind/systemd/README.md' %s/b/opt/rind/lib/systemd/system/rindd.service "
			     "&& test -f %s/b/opt/rind/share/doc/rind/systemd/README.md", dest, dest), 0);
	ck_assert_int_eq(rd_sh("rm -rf %s", dest), 0);
	printf("install: %d Documentation= file(s) of rindd.service installed\n", ndocs);
}
END_TEST

/* ---- the README quick start, line by line ---- */

START_TEST(test_readme_quickstart)
{
	char readme[300], script[300], out[65536], *t, *start, *end, *line, *rep;
	char dir[256] = "";
	FILE *f;
	int nlines = 0, rc;

	snprintf(readme, sizeof(readme), "%s/README.md", RIND_SOURCE_DIR);
	t = rt_slurp(readme);
	start = strstr(t, "## Quick start");
	ck_assert_ptr_nonnull(start);
	start = strstr(start, "```sh\n");
	ck_assert_ptr_nonnull(start);
	start += 6;
	end = strstr(start, "```");
	ck_assert_ptr_nonnull(end);
	*end = 0;
	snprintf(script, sizeof(script), "/tmp/rind-quickstart.%d.sh", (int)getpid());
	f = fopen(script, "w");
	ck_assert_ptr_nonnull(f);
	/* every line as written, in the source tree, stopping at the first that fails */
	/*
	 * A fresh shell as a user has it: make exports its command-line
	 * variables, so the sanitizer run's O=build/asan and CFLAGS would
	 * otherwise reach the quick start's own `make`.
	 */
	fprintf(f, "set -e\ncd %s\nunset RIND_SOCKET MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES O CFLAGS "
		"LDFLAGS CC LD AR OBJCOPY ARCH PKG_CONFIG TEST_ENV TEST_CFLAGS TEST_LIBS\n", RIND_SOURCE_DIR);
	for (line = strtok(start, "\n"); line; line = strtok(NULL, "\n")) {
		if (!*line)
			continue;
		fprintf(f, "echo '>>> line %d'\n%s\n", ++nlines, line);
	}
	fprintf(f, "echo \">>> done D=$D\"\n");
	fclose(f);
	ck_assert_int_ge(nlines, 8);
	rc = run(out, sizeof(out), "sh %s", script);
	unlink(script);
	{
		char *d = strstr(out, ">>> done D=");

		if (d)
			sscanf(d + strlen(">>> done D="), "%255s", dir);
	}
	ck_assert_msg(rc == 0 && dir[0], "the quick start failed (exit %d):\n%.3000s", rc, out);
	/* what the lines promise */
	ck_assert_msg(strstr(out, "created web (ed25519)") && strstr(out, "created box (aes-256-gcm)"),
		      "%.3000s", out);
	ck_assert_msg(strstr(out, "valid\n") && strstr(out, "secret\n"), "%.3000s", out);
	ck_assert_msg(strstr(out, "rotated web: version 2"), "%.3000s", out);
	ck_assert_msg(strstr(out, "BEGIN PUBLIC KEY"), "%.3000s", out);
	/* the daemon it started stops cleanly (the last line sends SIGTERM) */
	{
		char logf[300], pidf[300];
		int i;

		snprintf(logf, sizeof(logf), "%s/rindd.log", dir);
		snprintf(pidf, sizeof(pidf), "%s/rindd.pid", dir);
		for (i = 0; i < 1000 && !strstr(rt_slurp(logf), "event=stopped"); i++)
			rd_sleep_ms(10);
		ck_assert_msg(strstr(rt_slurp(logf), "event=stopped"), "log: %s", rt_slurp(logf));
		ck_assert_int_ne(access(pidf, F_OK), 0);
		rep = rd_san_report(logf);
		ck_assert_msg(!rep, "%s", rep);
	}
	if (!strncmp(dir, "/tmp/", 5))
		rd_sh("rm -rf %s", dir);
	printf("quick start: %d lines of README.md ran as written\n", nlines);
}
END_TEST

static Suite *daemon_admin_suite(void)
{
	Suite *s = suite_create("daemon_admin");
	TCase *tc = tcase_create("cli");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_cli_help);
	tcase_add_test(tc, test_install_docs);
	suite_add_tcase(s, tc);

	tc = rd_tcase(s, "admin", setup_nobus, 30);
	tcase_add_test(tc, test_cli_rotate_retire);
	tcase_add_test(tc, test_lib_rotate_retire);
	tcase_add_test(tc, test_rotate_limit);
	tcase_add_test(tc, test_rotate_under_load);
	tcase_add_test(tc, test_admin_second_uid);
	tcase_add_test(tc, test_cli_access);
	tcase_add_test(tc, test_quota);
	tcase_add_test(tc, test_quota_audit_defaults);

	tc = rd_tcase(s, "bench", rd_setup, 60);
	tcase_add_test(tc, test_bench_interrupt);

	tc = tcase_create("detached");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_detached_log_file);
	tcase_add_test(tc, test_detached_syslog);
	suite_add_tcase(s, tc);

	tc = tcase_create("quickstart");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_readme_quickstart);
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(daemon_admin_suite)
