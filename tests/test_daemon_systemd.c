// SPDX-License-Identifier: MIT
/*
 * rindd as a systemd/D-Bus citizen: the units (systemd-analyze verify and
 * the offline security rating), socket activation through
 * systemd-socket-activate, the D-Bus management API on a private
 * dbus-daemon (never the machine's buses) called with busctl and
 * dbus-send, unauthorized callers (setpriv to nobody and daemon),
 * signals (dbus-monitor), sd_notify READY/STATUS/WATCHDOG on a test
 * datagram socket, and key rotation/retirement.  A missing tool prints
 * a SKIP line; tests that need root to switch uids skip without it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "rind_client.h"
#include "frame.h"

#ifndef RIND_BUILD_DIR
#define RIND_BUILD_DIR "build"
#endif

/*
 * RIND_BUILD_DIR is "$(CURDIR)/$(O)", which doubles up when O is absolute
 * ("/src//tmp/b"): then the part after "//" is the build directory.
 */
static const char *rindd_path(void)
{
	static char path[512];
	const char *d = RIND_BUILD_DIR, *dd = strstr(d, "//");

	snprintf(path, sizeof(path), "%s/rindd", d);
	if (access(path, X_OK) && dd)
		snprintf(path, sizeof(path), "%s/rindd", dd + 1);
	return path;
}
#define RINDD rindd_path()
#define BUS_CALL "org.rind.KeyService1 /org/rind/KeyService1 org.rind.KeyService1"

static char tmp[64];

static void mk_tmp(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/rind-sd-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	chmod(tmp, 0755);	/* nobody reaches the bus socket in here */
}

static bool have(const char *tool)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	if (system(cmd) == 0)
		return true;
	printf("SKIP: %s not installed\n", tool);
	return false;
}

/* Run a shell command; its stdout+stderr into @out. Returns the exit status. */
static int sh(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int sh(char *out, size_t cap, const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	FILE *f;
	size_t n = 0;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd) - 8, fmt, ap);
	va_end(ap);
	strcat(cmd, " 2>&1");
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	if (out) {
		n = fread(out, 1, cap - 1, f);
		out[n] = 0;
	} else {
		char sink[4096];

		while (fread(sink, 1, sizeof(sink), f) > 0)
			;
	}
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void wait_path(const char *path)
{
	struct stat st;
	int i;

	for (i = 0; i < 500; i++) {
		if (stat(path, &st) == 0)
			return;
		usleep(10000);
	}
	ck_abort_msg("%s did not appear", path);
}

/* fork+exec @argv with stderr to @log and extra environment @env (NULL-terminated). */
static pid_t spawn(char *const argv[], char *const env[], const char *log)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);

		if (fd >= 0) {
			dup2(fd, 2);
			dup2(fd, 1);
		}
		for (; env && *env; env++)
			putenv(*env);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/*
 * Under check-asan rindd is an ASan+UBSan build writing its reports to
 * its stderr, the log: fail the test on one.  rindd's own lines begin
 * "ts="; a report starts at any other line naming a sanitizer or a UBSan
 * "runtime error".
 */
static void san_check(void)
{
	char path[300], line[1024], rep[3000] = "";
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/rindd.log", tmp);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t l = strlen(line);

		if (!strncmp(line, "ts=", 3) ||
		    (!n && !strstr(line, "Sanitizer") && !strstr(line, "runtime error")))
			continue;
		if (n + l >= sizeof(rep))
			break;
		memcpy(rep + n, line, l + 1);
		n += l;
	}
	fclose(f);
	if (n) {
		fprintf(stderr, "rindd sanitizer report:\n%s", rep);
		ck_abort_msg("rindd sanitizer report:\n%.1500s", rep);
	}
}

/* SIGTERM; the exit status (-1 if it had to be killed).  A sanitizer report fails the test. */
static int stop(pid_t pid)
{
	int st, i;

	kill(pid, SIGTERM);
	for (i = 0; i < 1000; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid) {
			san_check();
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		}
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	san_check();
	return -1;
}

/* ---- a private dbus-daemon: the shipped policy, plus nobody as a "rind" member ---- */
static char bus_addr[1100];
static pid_t bus_pid;

static void bus_start(void)
{
	char conf[512], out[1024], *nl;
	FILE *f;

	snprintf(conf, sizeof(conf), "%s/bus.conf", tmp);
	f = fopen(conf, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f,
		"<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
		" \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
		"<busconfig>\n"
		"  <type>rind-test</type>\n"
		"  <listen>unix:path=%s/bus.sock</listen>\n"
		"  <auth>EXTERNAL</auth>\n"
		"  <policy context=\"default\">\n"
		"    <allow user=\"*\"/>\n"
		"    <allow send_destination=\"org.freedesktop.DBus\"/>\n"
		"    <allow send_type=\"signal\"/>\n"
		"    <allow send_requested_reply=\"true\" send_type=\"method_return\"/>\n"
		"    <allow send_requested_reply=\"true\" send_type=\"error\"/>\n"
		"    <allow receive_type=\"method_call\"/>\n"
		"    <allow receive_type=\"method_return\"/>\n"
		"    <allow receive_type=\"error\"/>\n"
		"    <allow receive_type=\"signal\"/>\n"
		"  </policy>\n"
		"  <include>%s/systemd/org.rind.KeyService1.conf</include>\n"
		"  <!-- nobody stands for a member of group rind -->\n"
		"  <policy user=\"nobody\">\n"
		"    <allow send_destination=\"org.rind.KeyService1\"/>\n"
		"  </policy>\n"
		"</busconfig>\n", tmp, RIND_SOURCE_DIR);
	fclose(f);
	ck_assert_int_eq(sh(out, sizeof(out), "{ dbus-daemon --config-file=%s --fork --print-address=1 --print-pid=1 2>/dev/null; }",
			    conf), 0);
	nl = strchr(out, '\n');
	ck_assert_msg(nl && atoi(nl + 1) > 1, "dbus-daemon: %s", out);
	*nl = 0;
	snprintf(bus_addr, sizeof(bus_addr), "%s", out);
	bus_pid = atoi(nl + 1);
	ck_assert_int_gt(bus_pid, 1);
}

static void bus_stop(void)
{
	if (bus_pid > 1)
		kill(bus_pid, SIGTERM);
	bus_pid = 0;
}

/* rindd's arguments every start here begins with (two threads, @sock, @state); the count. */
static int rindd_argv(char **argv, char *sock, char *state)
{
	int n = 0;

	argv[n++] = (char *)RINDD;
	argv[n++] = (char *)"--foreground";
	argv[n++] = (char *)"--threads";
	argv[n++] = (char *)"2";
	argv[n++] = (char *)"--socket";
	argv[n++] = sock;
	argv[n++] = (char *)"--state-dir";
	argv[n++] = state;
	return n;
}

static pid_t rindd_start(const char *log, char *const env[], const char *bus)
{
	char sock[300], state[300], busarg[600];
	char *argv[16];
	int n;

	snprintf(sock, sizeof(sock), "%s/rindd.sock", tmp);
	snprintf(state, sizeof(state), "%s/state", tmp);
	n = rindd_argv(argv, sock, state);
	argv[n++] = (char *)"--dev-master-key";
	if (bus) {
		snprintf(busarg, sizeof(busarg), "--bus-address=%s", bus);
		argv[n++] = busarg;
	} else {
		argv[n++] = (char *)"--bus";
		argv[n++] = (char *)"none";
	}
	argv[n] = NULL;
	unlink(sock);
	return spawn(argv, env, log);
}

/* Wait until the daemon owns its bus name (it does so before READY). */
static void wait_bus_name(void)
{
	char out[4096];
	int i;

	for (i = 0; i < 500; i++) {
		if (sh(out, sizeof(out), "busctl --address=%s status org.rind.KeyService1", bus_addr) == 0)
			return;
		usleep(10000);
	}
	ck_abort_msg("rindd never took org.rind.KeyService1");
}

static struct rind_client *connect_wait(void)
{
	char sock[300];
	struct rind_client *c = NULL;
	int i;

	snprintf(sock, sizeof(sock), "%s/rindd.sock", tmp);
	for (i = 0; i < 500 && !c; i++) {
		c = rind_client_connect(sock);
		if (!c)
			usleep(10000);
	}
	ck_assert_ptr_nonnull(c);
	rind_client_set_timeout(c, 10000);
	return c;
}

/* ---- the units ---- */
START_TEST(test_units_verify)
{
	char out[16384];
	int rc;

	if (!have("systemd-analyze"))
		return;
	mk_tmp();
	/* the installed ExecStart path is not here: point it at the build */
	ck_assert_int_eq(sh(NULL, 0, "sed 's|^ExecStart=[^ ]*|ExecStart=%s|' %s/systemd/rindd.service > %s/rindd.service && "
			    "cp %s/systemd/rindd.socket %s/", RINDD, RIND_SOURCE_DIR, tmp, RIND_SOURCE_DIR, tmp), 0);
	rc = sh(out, sizeof(out), "cd %s && systemd-analyze verify --man=no ./rindd.socket ./rindd.service", tmp);
	if (rc && (strstr(out, "Failed to initialize") || strstr(out, "Operation not permitted"))) {
		printf("SKIP: systemd-analyze verify cannot run here: %.200s\n", out);
		return;
	}
	ck_assert_msg(rc == 0 && !strstr(out, "rindd."), "systemd-analyze verify: %s", out);
	printf("units: systemd-analyze verify clean\n");
}
END_TEST

START_TEST(test_security_rating)
{
	char out[65536], *p;
	double level;

	if (!have("systemd-analyze"))
		return;
	ck_assert_int_eq(sh(out, sizeof(out), "systemd-analyze security --no-pager --offline=yes %s/systemd/rindd.service",
			    RIND_SOURCE_DIR), 0);
	p = strstr(out, "Overall exposure level for rindd.service:");
	ck_assert_msg(p != NULL, "no rating in: %.500s", out);
	level = strtod(p + strlen("Overall exposure level for rindd.service:"), NULL);
	printf("units: systemd-analyze security --offline=yes rindd.service: %.1f\n", level);
	ck_assert_msg(level <= 1.0, "exposure level %.1f > 1.0", level);
}
END_TEST

/* ---- socket activation ---- */
START_TEST(test_socket_activation)
{
	char sock[300], state[300], log[300], *log_text;
	char *argv[16];
	struct rind_client *c;
	struct rind_client_key_info info;
	char *version = NULL;
	pid_t pid;
	int i;

	if (!have("systemd-socket-activate"))
		return;
	mk_tmp();
	snprintf(sock, sizeof(sock), "%s/act.sock", tmp);
	snprintf(state, sizeof(state), "%s/state", tmp);
	snprintf(log, sizeof(log), "%s/rindd.log", tmp);
	argv[0] = (char *)"/usr/bin/systemd-socket-activate";
	argv[1] = (char *)"-l";
	argv[2] = sock;
	argv[3] = (char *)RINDD;
	argv[4] = (char *)"--state-dir";
	argv[5] = state;
	argv[6] = (char *)"--threads";
	argv[7] = (char *)"1";
	argv[8] = (char *)"--bus";
	argv[9] = (char *)"none";
	argv[10] = (char *)"--dev-master-key";
	argv[11] = NULL;
	if (access(argv[0], X_OK)) {
		argv[0] = (char *)"/bin/systemd-socket-activate";
	}
	pid = spawn(argv, NULL, log);
	wait_path(sock);
	/* rindd has not started yet: the socket is systemd-socket-activate's */
	ck_assert_ptr_null(strstr(rt_slurp(log), "event=starting"));
	for (i = 0; i < 200 && !(c = rind_client_connect(sock)); i++)
		usleep(10000);	/* bound a moment before it listens */
	ck_assert_ptr_nonnull(c);
	rind_client_set_timeout(c, 20000);
	ck_assert_int_eq(rind_client_hello(c, &version), 0);
	ck_assert_ptr_nonnull(strstr(version, "rindd"));
	free(version);
	ck_assert_int_eq(rind_client_create_key(c, "act", "ed25519", false, &info), 0);
	rind_client_close(c);
	ck_assert_int_eq(stop(pid), 0);
	log_text = rt_slurp(log);
	ck_assert_msg(strstr(log_text, "event=socket_activation"), "log: %s", log_text);
	ck_assert_msg(strstr(log_text, "event=stopped"), "log: %s", log_text);
	/* rindd created no socket of its own */
	printf("socket activation: client connected before rindd started and was served\n");
}
END_TEST

/* ---- sd_notify ---- */
START_TEST(test_notify)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char env1[400], env2[64], log[300], buf[4096];
	char *env[] = { env1, env2, NULL };
	struct timeval tv = { 0, 100000 };
	int fd, ready = 0, status = 0, wd = 0, stopping = 0, i, rc;
	bool status_ok = false;
	struct rind_client *c;
	struct rind_client_key_info info;
	pid_t pid;

	mk_tmp();
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/notify", tmp);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	snprintf(env1, sizeof(env1), "NOTIFY_SOCKET=%s", sa.sun_path);
	snprintf(env2, sizeof(env2), "WATCHDOG_USEC=%d", 400000);
	snprintf(log, sizeof(log), "%s/rindd.log", tmp);
	pid = rindd_start(log, env, NULL);
	c = connect_wait();
	ck_assert_int_eq(rind_client_create_key(c, "n1", "ed25519", false, &info), 0);
	/* about 2.5 s: READY, STATUS about once a second, WATCHDOG every 200 ms */
	for (i = 0; i < 25; i++) {
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);

		if (n <= 0)
			continue;
		buf[n] = 0;
		if (strstr(buf, "READY=1"))
			ready++;
		if (strstr(buf, "STATUS=")) {
			status++;
			if (strstr(buf, " keys, ") && strstr(buf, "requests/s"))
				status_ok = true;
		}
		if (strstr(buf, "WATCHDOG=1"))
			wd++;
	}
	rind_client_close(c);
	kill(pid, SIGTERM);
	for (i = 0; i < 50 && !stopping; i++) {
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);

		if (n > 0) {
			buf[n] = 0;
			stopping += strstr(buf, "STOPPING=1") != NULL;
		}
	}
	rc = stop(pid);
	close(fd);
	printf("sd_notify: READY=1 x%d, STATUS= x%d, WATCHDOG=1 x%d, STOPPING=1 x%d, exit %d\n",
	       ready, status, wd, stopping, rc);
	ck_assert_int_eq(ready, 1);
	ck_assert_int_ge(status, 2);
	ck_assert_msg(status_ok, "STATUS= lacks the key count and request rate");
	ck_assert_int_ge(wd, 5);
	ck_assert_int_eq(stopping, 1);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(strstr(rt_slurp(log), "event=stopped"));
}
END_TEST

/* ---- D-Bus ---- */
static bool dbus_tools(void)
{
	return have("dbus-daemon") && have("busctl") && have("dbus-send") && have("dbus-monitor");
}

/*
 * The start of a D-Bus test: a scratch directory, a private bus and the
 * path of rindd's log in @log; false (the test is skipped) without the
 * D-Bus tools.
 */
static bool bus_test_begin(char *log, size_t loglen)
{
	if (!dbus_tools())
		return false;
	mk_tmp();
	bus_start();
	snprintf(log, loglen, "%s/rindd.log", tmp);
	return true;
}

#define BUSCTL(out, ...) sh(out, sizeof(out), "busctl --address=%s " __VA_ARGS__)
/* setpriv to a user with its primary group (nobody: nogroup) */
#define AS(user) "setpriv --reuid=" user " --regid=$(id -g " user ") --clear-groups "

/* ---- quotas and KeyCount over D-Bus ---- */

/* rindd on the private bus with a master key file and @extra arguments (NULL-terminated). */
static pid_t rindd_start_with(const char *log, const char *bus, ...)
{
	char sock[300], state[300], busarg[1200], mk[300];
	char *argv[24];
	const char *a;
	va_list ap;
	FILE *f;
	int n;

	snprintf(sock, sizeof(sock), "%s/rindd.sock", tmp);
	snprintf(state, sizeof(state), "%s/state", tmp);
	snprintf(mk, sizeof(mk), "%s/master.hex", tmp);
	f = fopen(mk, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s\n", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
	fclose(f);
	chmod(mk, 0600);
	n = rindd_argv(argv, sock, state);
	argv[n++] = (char *)"--master-key-file";
	argv[n++] = mk;
	snprintf(busarg, sizeof(busarg), "--bus-address=%s", bus);
	argv[n++] = busarg;
	va_start(ap, bus);
	while (n < 23 && (a = va_arg(ap, const char *)))
		argv[n++] = (char *)a;
	va_end(ap);
	argv[n] = NULL;
	unlink(sock);
	return spawn(argv, NULL, log);
}

START_TEST(test_dbus_keycount_quota)
{
	char out[16384], log[300], *t;
	pid_t pid;

	if (!dbus_tools())
		return;
	if (geteuid() != 0) {
		printf("SKIP: KeyCount and quotas per caller need root (setpriv to nobody)\n");
		return;
	}
	mk_tmp();
	bus_start();
	snprintf(log, sizeof(log), "%s/rindd.log", tmp);
	pid = rindd_start_with(log, bus_addr, "--max-keys-per-uid", "1", "--max-keys", "4", (char *)NULL);
	wait_bus_name();
	/* root (the service owner) is held to the total only */
	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " CreateKey 'ssa{sv}' r1 ed25519 0", bus_addr), 0);
	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " CreateKey 'ssa{sv}' r2 x25519 0", bus_addr), 0);
	ck_assert_int_eq(sh(out, sizeof(out), AS("nobody") "busctl --address=%s call " BUS_CALL
			    " CreateKey 'ssa{sv}' n1 ed25519 0", bus_addr), 0);
	ck_assert_int_ne(sh(out, sizeof(out), AS("nobody") "busctl --address=%s call " BUS_CALL
			    " CreateKey 'ssa{sv}' n2 ed25519 0", bus_addr), 0);
	ck_assert_msg(strstr(out, "key quota: uid 65534 owns 1 keys"), "%s", out);
	/* KeyCount: a caller's own keys, every key for root */
	ck_assert_int_eq(BUSCTL(out, "get-property " BUS_CALL " KeyCount", bus_addr), 0);
	ck_assert_str_eq(out, "u 3\n");
	ck_assert_int_eq(sh(out, sizeof(out), AS("nobody") "busctl --address=%s get-property " BUS_CALL
			    " KeyCount", bus_addr), 0);
	ck_assert_str_eq(out, "u 1\n");
	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " CreateKey 'ssa{sv}' r3 ed25519 0", bus_addr), 0);
	ck_assert_int_ne(BUSCTL(out, "call " BUS_CALL " CreateKey 'ssa{sv}' r4 ed25519 0", bus_addr), 0);
	ck_assert_msg(strstr(out, "(--max-keys 4)"), "%s", out);
	ck_assert_int_eq(sh(out, sizeof(out), AS("nobody") "busctl --address=%s get-property " BUS_CALL
			    " KeyCount", bus_addr), 0);
	ck_assert_str_eq(out, "u 1\n");
	ck_assert_int_eq(stop(pid), 0);
	bus_stop();
	t = rt_slurp(log);
	ck_assert_msg(strstr(t, "action=create_key key=n2 uid=65534") && strstr(t, "via=dbus result=quota"),
		      "log: %s", t);
	printf("dbus: KeyCount per caller (root 3, nobody 1), quotas per uid and in total\n");
}
END_TEST

START_TEST(test_dbus_methods)
{
	char out[16384], log[300], mon[300], *t;
	static const char raw_key_hex[] =
		"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
	char key_args[512] = "", *pk;
	struct rind_client *c;
	struct rind_client_key_info info;
	uint8_t *pub = NULL;
	size_t publen, i;
	pid_t pid, mpid;
	bool root = geteuid() == 0;

	if (!bus_test_begin(log, sizeof(log)))
		return;
	snprintf(mon, sizeof(mon), "%s/monitor.log", tmp);
	{
		char *argv[] = { (char *)"/usr/bin/dbus-monitor", (char *)"--address", bus_addr,
				 (char *)"type='signal',interface='org.rind.KeyService1'", NULL };

		mpid = spawn(argv, NULL, mon);
	}
	pid = rindd_start(log, NULL, bus_addr);
	wait_bus_name();

	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " CreateKey 'ssa{sv}' k1 ed25519 0", bus_addr), 0);
	ck_assert_str_eq(out, "u 1\n");
	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " CreateKey 'ssa{sv}' a1 aes-256-gcm 1 exportable b true",
				bus_addr), 0);
	for (i = 0; i < 32; i++) {
		unsigned int b;

		sscanf(raw_key_hex + 2 * i, "%2x", &b);
		snprintf(key_args + strlen(key_args), sizeof(key_args) - strlen(key_args), " %u", b);
	}
	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " ImportKey 'ssaya{sv}' i1 ed25519 32 %s 0", bus_addr,
				key_args), 0);
	ck_assert_str_eq(out, "u 1\n");
	ck_assert_int_ne(BUSCTL(out, "call " BUS_CALL " CreateKey 'ssa{sv}' k1 ed25519 0", bus_addr), 0);
	ck_assert_msg(strstr(out, "exists"), "%s", out);
	ck_assert_int_ne(BUSCTL(out, "call " BUS_CALL " CreateKey 'ssa{sv}' bad rsa-9 0", bus_addr), 0);
	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " ListKeys", bus_addr), 0);
	ck_assert_msg(strstr(out, "\"k1\" \"ed25519\" 1 0 ") && strstr(out, "\"a1\" \"aes-256-gcm\" 1 0 ") &&
		      strstr(out, "\"i1\" \"ed25519\" 1 0 "), "ListKeys: %s", out);

	/* GetPublicKey agrees with the data-plane socket; RFC 8032 test 1's public key for i1 */
	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " GetPublicKey ss i1 raw", bus_addr), 0);
	ck_assert_msg(!strncmp(out, "ay 32 215 90 152 1 130 177 10 183 213 ", 37), "GetPublicKey: %s", out);
	c = connect_wait();
	ck_assert_int_eq(rind_client_get_public(c, "k1", RIND_CLIENT_RAW, &pub, &publen), 0);
	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " GetPublicKey ss k1 raw", bus_addr), 0);
	{
		char want[512];
		size_t n = (size_t)snprintf(want, sizeof(want), "ay %zu", publen);

		for (i = 0; i < publen; i++)
			n += (size_t)snprintf(want + n, sizeof(want) - n, " %u", pub[i]);
		ck_assert_msg(!strncmp(out, want, n), "GetPublicKey %s vs socket %s", out, want);
	}
	free(pub);
	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " GetPublicKey ss k1 pem", bus_addr), 0);
	ck_assert_int_ne(BUSCTL(out, "call " BUS_CALL " GetPublicKey ss a1 raw", bus_addr), 0);

	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " RotateKey s k1", bus_addr), 0);
	ck_assert_str_eq(out, "u 2\n");
	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " SetAccess sauau k1 1 65534 0", bus_addr), 0);
	ck_assert_int_eq(BUSCTL(out, "get-property " BUS_CALL " Version KeyCount Requests", bus_addr), 0);
	ck_assert_msg(strstr(out, "s \"rindd ") && strstr(out, "u 3\n") && strstr(out, "t "), "%s", out);
	ck_assert_int_eq(BUSCTL(out, "introspect " BUS_CALL, bus_addr), 0);
	{
		static const char *const members[] = {
			".CreateKey", ".ImportKey", ".DeleteKey", ".ListKeys", ".GetPublicKey",
			".RotateKey", ".SetAccess", ".RetireVersions", ".Version", ".KeyCount",
			".Requests", ".KeyCreated", ".KeyDeleted", ".KeyRotated",
		};

		for (i = 0; i < sizeof(members) / sizeof(members[0]); i++)
			ck_assert_msg(strstr(out, members[i]), "introspection lacks %s", members[i]);
	}
	ck_assert_int_eq(sh(out, sizeof(out), "busctl --address=%s --xml-interface introspect org.rind.KeyService1 /org/rind/KeyService1",
			    bus_addr), 0);
	ck_assert_msg(strstr(out, "<arg type=\"s\" name=\"algorithm\" direction=\"in\"/>"), "%s", out);

	/* clear error names */
	ck_assert_int_ne(sh(out, sizeof(out), "dbus-send --bus=%s --print-reply --dest=org.rind.KeyService1 "
			    "/org/rind/KeyService1 org.rind.KeyService1.DeleteKey string:nosuch", bus_addr), 0);
	ck_assert_msg(strstr(out, "org.rind.KeyService1.Error.NotFound"), "%s", out);
	ck_assert_int_ne(sh(out, sizeof(out), "dbus-send --bus=%s --print-reply --dest=org.rind.KeyService1 "
			    "/org/rind/KeyService1 org.rind.KeyService1.RotateKey string:a..b", bus_addr), 0);

	if (root) {
		/* nobody (a "rind member" on this bus) is refused root's key, may manage its own */
		ck_assert_int_ne(sh(out, sizeof(out), AS("nobody") "dbus-send --bus=%s --print-reply --dest=org.rind.KeyService1 "
				    "/org/rind/KeyService1 org.rind.KeyService1.DeleteKey string:a1", bus_addr), 0);
		ck_assert_msg(strstr(out, "org.rind.KeyService1.Error.PermissionDenied"), "%s", out);
		ck_assert_int_ne(sh(out, sizeof(out), AS("nobody") "busctl --address=%s call " BUS_CALL
				    " RotateKey s a1", bus_addr), 0);
		ck_assert_int_ne(sh(out, sizeof(out), AS("nobody") "busctl --address=%s call " BUS_CALL
				    " SetAccess sauau a1 1 65534 0", bus_addr), 0);
		ck_assert_int_ne(sh(out, sizeof(out), AS("nobody") "busctl --address=%s call " BUS_CALL
				    " GetPublicKey ss i1 raw", bus_addr), 0);
		/* k1 allows uid 65534: the public key, not management */
		ck_assert_int_eq(sh(out, sizeof(out), AS("nobody") "busctl --address=%s call " BUS_CALL
				    " GetPublicKey ss k1 raw", bus_addr), 0);
		ck_assert_int_eq(sh(out, sizeof(out), AS("nobody") "busctl --address=%s call " BUS_CALL
				    " CreateKey 'ssa{sv}' mine x25519 0", bus_addr), 0);
		ck_assert_int_eq(sh(out, sizeof(out), AS("nobody") "busctl --address=%s call " BUS_CALL
				    " ListKeys", bus_addr), 0);
		ck_assert_msg(strstr(out, "\"mine\" \"x25519\" 1 65534 ") && strstr(out, "\"k1\"") &&
			      !strstr(out, "\"a1\"") && !strstr(out, "\"i1\""), "nobody's ListKeys: %s", out);
		ck_assert_int_eq(sh(out, sizeof(out), AS("nobody") "busctl --address=%s call " BUS_CALL
				    " RotateKey s mine", bus_addr), 0);
		ck_assert_int_eq(sh(out, sizeof(out), AS("nobody") "busctl --address=%s call " BUS_CALL
				    " DeleteKey s mine", bus_addr), 0);
		/* daemon (uid 1) is neither root nor in the policy: the bus refuses */
		ck_assert_int_ne(sh(out, sizeof(out), AS("daemon") "dbus-send --bus=%s --print-reply --dest=org.rind.KeyService1 "
				    "/org/rind/KeyService1 org.rind.KeyService1.ListKeys", bus_addr), 0);
		ck_assert_msg(strstr(out, "org.freedesktop.DBus.Error.AccessDenied"), "%s", out);
	} else {
		printf("SKIP: unauthorized-caller checks need root (setpriv)\n");
	}

	/* a key created over the socket also raises KeyCreated */
	ck_assert_int_eq(rind_client_create_key(c, "sock1", "ed25519", false, &info), 0);
	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " DeleteKey s i1", bus_addr), 0);
	rind_client_close(c);
	usleep(300000);
	ck_assert_int_eq(stop(pid), 0);
	kill(mpid, SIGTERM);
	waitpid(mpid, NULL, 0);
	bus_stop();

	t = rt_slurp(mon);
	ck_assert_msg(strstr(t, "member=KeyCreated") && strstr(t, "member=KeyRotated") &&
		      strstr(t, "member=KeyDeleted") && strstr(t, "string \"sock1\""), "signals: %s", t);
	t = rt_slurp(log);
	ck_assert_msg(strstr(t, "event=audit action=rotate_key key=k1 uid=0"), "log: %s", t);
	ck_assert_msg(strstr(t, "event=audit action=import_key key=i1 uid=0"), "log: %s", t);
	if (root)
		ck_assert_msg(strstr(t, "action=delete_key key=a1 uid=65534") &&
			      strstr(t, "via=dbus result=denied"), "log: %s", t);
	/* key material never appears in the log */
	ck_assert_ptr_null(strstr(t, raw_key_hex));
	ck_assert_ptr_null(strstr(t, "9D61B19D"));
	pk = strstr(t, key_args + 1);
	ck_assert_ptr_null(pk);
	printf("dbus: every method via busctl, errors, refusals, signals, audit lines checked\n");
}
END_TEST

/* ---- rotation ---- */
static int raw_open(const char *sockpath, const char *name, const uint8_t *box, size_t len, uint32_t ver,
		    char *err, size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	Rind__Request req = RIND__REQUEST__INIT;
	Rind__Open o = RIND__OPEN__INIT;
	Rind__Response *resp;
	uint8_t *payload;
	uint32_t plen;
	int fd, st;

	ck_assert_uint_lt(strlen(sockpath), sizeof(sa.sun_path));
	strcpy(sa.sun_path, sockpath);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	o.name = (char *)name;
	o.sealed.data = (uint8_t *)box;
	o.sealed.len = len;
	o.key_version = ver;
	o.associated_data.data = (uint8_t *)"ad";	/* as the test sealed */
	o.associated_data.len = 2;
	req.id = 7;
	req.op_case = RIND__REQUEST__OP_OPEN;
	req.open = &o;
	ck_assert_int_eq(rind_frame_write(fd, &req.base), 0);
	ck_assert_int_eq(rind_frame_read(fd, 1 << 20, &payload, &plen), 0);
	close(fd);
	resp = rind__response__unpack(NULL, plen, payload);
	free(payload);
	ck_assert_ptr_nonnull(resp);
	st = resp->status;
	snprintf(err, errlen, "%s", resp->error ? resp->error : "");
	if (!st)
		ck_assert_uint_eq(resp->key_version, ver);
	rind__response__free_unpacked(resp, NULL);
	return st;
}

START_TEST(test_rotation)
{
	static const char msg[] = "rotate me";
	char out[4096], log[300], sock[300], err[512];
	struct rind_client *c;
	struct rind_client_key_info info, *keys;
	uint8_t *sig1, *sig2, *box1, *box2, *pt;
	size_t l1, l2, b1, b2, ptl, n, i;
	pid_t pid;

	if (!bus_test_begin(log, sizeof(log)))
		return;
	snprintf(sock, sizeof(sock), "%s/rindd.sock", tmp);
	pid = rindd_start(log, NULL, bus_addr);
	wait_bus_name();
	c = connect_wait();
	ck_assert_int_eq(rind_client_create_key(c, "r", "ed25519", false, &info), 0);
	ck_assert_int_eq(rind_client_create_key(c, "ra", "aes-256-gcm", false, &info), 0);
	ck_assert_int_eq(rind_client_sign(c, "r", msg, sizeof(msg), &sig1, &l1), 0);
	ck_assert_int_eq(rind_client_seal(c, "ra", msg, sizeof(msg), "ad", 2, &box1, &b1), 0);

	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " RotateKey s r", bus_addr), 0);
	ck_assert_str_eq(out, "u 2\n");
	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " RotateKey s ra", bus_addr), 0);
	ck_assert_str_eq(out, "u 2\n");

	ck_assert_int_eq(rind_client_sign(c, "r", msg, sizeof(msg), &sig2, &l2), 0);
	ck_assert_int_eq(l1, l2);
	ck_assert_msg(memcmp(sig1, sig2, l1), "version 2 signed like version 1");
	ck_assert_int_eq(rind_client_verify(c, "r", msg, sizeof(msg), sig1, l1), 0);
	ck_assert_int_eq(rind_client_verify(c, "r", msg, sizeof(msg), sig2, l2), 0);
	ck_assert_int_eq(rind_client_seal(c, "ra", msg, sizeof(msg), "ad", 2, &box2, &b2), 0);
	ck_assert_int_eq(rind_client_open(c, "ra", box1, b1, "ad", 2, &pt, &ptl), 0);
	ck_assert_int_eq(ptl, sizeof(msg));
	ck_assert_mem_eq(pt, msg, ptl);
	free(pt);
	ck_assert_int_eq(rind_client_open(c, "ra", box2, b2, "ad", 2, &pt, &ptl), 0);
	free(pt);
	ck_assert_int_eq(raw_open(sock, "ra", box1, b1, 1, err, sizeof(err)), RIND__STATUS__OK);
	ck_assert_int_eq(raw_open(sock, "ra", box1, b1, 2, err, sizeof(err)), RIND__STATUS__ERR_BAD_MESSAGE);
	ck_assert_int_eq(rind_client_list_keys(c, &keys, &n), 0);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(keys[i].version, 2);
	free(keys);

	/* the restart keeps both versions */
	rind_client_close(c);
	ck_assert_int_eq(stop(pid), 0);
	pid = rindd_start(log, NULL, bus_addr);
	wait_bus_name();
	c = connect_wait();
	ck_assert_int_eq(rind_client_verify(c, "r", msg, sizeof(msg), sig1, l1), 0);
	ck_assert_int_eq(rind_client_open(c, "ra", box1, b1, "ad", 2, &pt, &ptl), 0);
	free(pt);

	/* retire version 1 */
	ck_assert_int_ne(BUSCTL(out, "call " BUS_CALL " RetireVersions su ra 3", bus_addr), 0);
	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " RetireVersions su ra 2", bus_addr), 0);
	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " RetireVersions su r 2", bus_addr), 0);
	ck_assert_int_eq(rind_client_open(c, "ra", box1, b1, "ad", 2, &pt, &ptl), -EBADMSG);
	ck_assert_msg(strstr(rind_client_last_error(c), "versions below 2 are retired"), "error: %s",
		      rind_client_last_error(c));
	ck_assert_int_eq(raw_open(sock, "ra", box1, b1, 1, err, sizeof(err)), RIND__STATUS__ERR_RETIRED);
	ck_assert_msg(strstr(err, "version 1 is retired (min_version 2)"), "error: %s", err);
	ck_assert_int_eq(raw_open(sock, "ra", box2, b2, 2, err, sizeof(err)), RIND__STATUS__OK);
	ck_assert_int_eq(rind_client_open(c, "ra", box2, b2, "ad", 2, &pt, &ptl), 0);
	free(pt);
	ck_assert_int_eq(rind_client_verify(c, "r", msg, sizeof(msg), sig1, l1), -EBADMSG);
	ck_assert_int_eq(rind_client_verify(c, "r", msg, sizeof(msg), sig2, l2), 0);
	rind_client_close(c);

	/* retirement survives a restart */
	ck_assert_int_eq(stop(pid), 0);
	pid = rindd_start(log, NULL, bus_addr);
	wait_bus_name();
	c = connect_wait();
	ck_assert_int_eq(rind_client_open(c, "ra", box1, b1, "ad", 2, &pt, &ptl), -EBADMSG);
	ck_assert_int_eq(rind_client_verify(c, "r", msg, sizeof(msg), sig2, l2), 0);
	rind_client_close(c);
	ck_assert_int_eq(stop(pid), 0);
	bus_stop();
	ck_assert_ptr_nonnull(strstr(rt_slurp(log), "action=retire_versions key=ra uid=0"));
	free(sig1);
	free(sig2);
	free(box1);
	free(box2);
	printf("rotation: v1/v2 sign+verify, seal+open, retirement (clear errors), restarts\n");
}
END_TEST

/*
 * Issue 14 item 11: group allow lists compared only the primary gid of
 * SO_PEERCRED (supplementary groups ignored), and over D-Bus the caller's
 * gid was -1, so a grant to gid 4294967295 let every D-Bus caller in.
 * Members of a group by their supplementary list are let in, through the
 * socket (SO_PEERGROUPS) and D-Bus (UnixGroupIDs); -1 matches nobody.
 */
START_TEST(test_group_access)
{
	char out[4096], log[300], mk[300], sock[300], state[300], busarg[1200], *t;
	char rind_path[512];
	struct rind_client *c;
	bool gid_minus1;
	pid_t pid;
	FILE *f;
	int i;

	snprintf(rind_path, sizeof(rind_path), "%s", RINDD);
	rind_path[strlen(rind_path) - 1] = 0;	/* .../rindd -> .../rind */
	if (!dbus_tools() || !have("setpriv") || geteuid() != 0) {
		printf("SKIP: group access lists need root, setpriv and the D-Bus tools\n");
		return;
	}
	mk_tmp();
	bus_start();
	snprintf(log, sizeof(log), "%s/rindd.log", tmp);
	snprintf(mk, sizeof(mk), "%s/master.hex", tmp);
	snprintf(sock, sizeof(sock), "%s/rindd.sock", tmp);
	snprintf(state, sizeof(state), "%s/state", tmp);
	snprintf(busarg, sizeof(busarg), "--bus-address=%s", bus_addr);
	f = fopen(mk, "w");
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < 32; i++)
		fprintf(f, "%02x", (unsigned int)(i * 37 + 11) & 0xff);
	fclose(f);
	chmod(mk, 0600);
	{
		char *argv[] = { (char *)RINDD, (char *)"--foreground", (char *)"--threads", (char *)"2",
				 (char *)"--socket", sock, (char *)"--socket-mode", (char *)"0666",
				 (char *)"--state-dir", state, (char *)"--master-key-file", mk, busarg,
				 NULL };

		pid = spawn(argv, NULL, log);
	}
	wait_bus_name();
	c = connect_wait();
	ck_assert_int_eq(rind_client_create_key(c, "gsup", "ed25519", false, NULL), 0);
	ck_assert_int_eq(rind_client_create_key(c, "gnone", "ed25519", false, NULL), 0);
	rind_client_close(c);
	ck_assert_int_eq(BUSCTL(out, "call " BUS_CALL " SetAccess sauau gsup 0 1 4242", bus_addr), 0);
	/*
	 * A grant to gid 4294967295 (-1): refused outright by SetAccess
	 * (key-admin.c), or, if a list holds it all the same, matching nobody.
	 */
	gid_minus1 = BUSCTL(out, "call " BUS_CALL " SetAccess sauau gnone 0 1 4294967295", bus_addr) == 0;
	if (!gid_minus1)
		ck_assert_msg(strstr(out, "is not an id") || strstr(out, "invalid argument"),
			      "SetAccess gid -1: %s", out);
#define SUPP "setpriv --reuid=65534 --regid=65534 --groups=4242 "
#define NOGR "setpriv --reuid=65534 --regid=65534 --clear-groups "
#define PRIM "setpriv --reuid=65534 --regid=4242 --clear-groups "
#define PUB_SOCK "%s --socket %s key pub %s --format raw >/dev/null 2>&1"
#define PUB_BUS "busctl --address=%s call " BUS_CALL " GetPublicKey ss %s raw"
	/* a supplementary member: the socket and D-Bus both let it in */
	ck_assert_msg(sh(out, sizeof(out), SUPP PUB_SOCK, rind_path, sock, "gsup") == 0,
		      "socket, supplementary group 4242: refused");
	ck_assert_msg(sh(out, sizeof(out), SUPP PUB_BUS, bus_addr, "gsup") == 0,
		      "D-Bus, supplementary group 4242: %s", out);
	/* ... and its primary group still counts on the socket */
	ck_assert_msg(sh(out, sizeof(out), PRIM PUB_SOCK, rind_path, sock, "gsup") == 0,
		      "socket, primary group 4242: refused");
	/* not a member: refused */
	ck_assert_int_ne(sh(out, sizeof(out), NOGR PUB_SOCK, rind_path, sock, "gsup"), 0);
	ck_assert_int_ne(sh(out, sizeof(out), NOGR PUB_BUS, bus_addr, "gsup"), 0);
	ck_assert_msg(strstr(out, "may not use"), "%s", out);
	/* a key gnone (gid -1 granted, or nothing) is nobody's, on either path */
	ck_assert_int_ne(sh(out, sizeof(out), SUPP PUB_BUS, bus_addr, "gnone"), 0);
	ck_assert_msg(strstr(out, "may not use"), "D-Bus, gid -1 grant: %s", out);
	ck_assert_int_ne(sh(out, sizeof(out), NOGR PUB_BUS, bus_addr, "gnone"), 0);
	ck_assert_int_ne(sh(out, sizeof(out), SUPP PUB_SOCK, rind_path, sock, "gnone"), 0);
	/* ListKeys over D-Bus shows the member gsup, not gnone */
	ck_assert_int_eq(sh(out, sizeof(out), SUPP "busctl --address=%s call " BUS_CALL " ListKeys",
			    bus_addr), 0);
	ck_assert_msg(strstr(out, "\"gsup\"") && !strstr(out, "\"gnone\""), "ListKeys: %s", out);
#undef SUPP
#undef NOGR
#undef PRIM
#undef PUB_SOCK
#undef PUB_BUS
	ck_assert_int_eq(stop(pid), 0);
	bus_stop();
	t = rt_slurp(log);
	ck_assert_msg(strstr(t, "action=get_public_key key=gnone uid=65534") != NULL,
		      "denials audited: %s", t);
	printf("groups: supplementary and primary members let in (socket, D-Bus), gid -1 %s\n",
	       gid_minus1 ? "granted but matching none" : "refused as a grant");
}
END_TEST

static Suite *daemon_systemd_suite(void)
{
	Suite *s = suite_create("daemon_systemd");
	TCase *tc = tcase_create("systemd");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_units_verify);
	tcase_add_test(tc, test_dbus_keycount_quota);
	tcase_add_test(tc, test_security_rating);
	tcase_add_test(tc, test_socket_activation);
	tcase_add_test(tc, test_notify);
	tcase_add_test(tc, test_dbus_methods);
	tcase_add_test(tc, test_rotation);
	tcase_add_test(tc, test_group_access);
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(daemon_systemd_suite)
