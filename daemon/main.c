// SPDX-License-Identifier: MIT
/*
 * rindd: the rind key daemon.  Arguments, the listening socket, key store
 * start-up, the worker threads, signals (SIGTERM/SIGINT: stop accepting,
 * answer what was received, wipe keys, exit 0).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>

#include "rindd.h"

struct rindd_config cfg = {
	.socket_path = "/run/rind/rindd.sock",
	.state_dir = "/var/lib/rind",
	.max_frame = RIND_FRAME_DEFAULT_MAX,
	.max_inflight = 1024,
	.max_output = 4u << 20,
	.max_batch = 64,
	.socket_mode = 0660,
	.idle_timeout_ms = RINDD_IDLE_TIMEOUT_DEFAULT_MS,
	.drain_timeout_ms = RINDD_DRAIN_TIMEOUT_DEFAULT_MS,
	.max_keys = 4096,
	.max_keys_per_uid = 256,
};
atomic_bool rindd_stopping;
struct rindd_stats stats;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rindd [options]\n"
		"  --socket PATH          Unix socket to listen on (default /run/rind/rindd.sock;\n"
		"                         a socket passed by systemd (sd_listen_fds) is used instead)\n"
		"  --state-dir DIR        key files (default /var/lib/rind, or $STATE_DIRECTORY;\n"
		"                         created 0700)\n"
		"  --master-key-file FILE 32-byte (raw or 64 hex digits) master key; default\n"
		"                         $CREDENTIALS_DIRECTORY/rindd.master; without either\n"
		"                         rindd refuses to start\n"
		"  --dev-master-key       development only: without a master key file or\n"
		"                         credential, use (first generate) DIR/master.key\n"
		"  --threads N            worker threads, 1..%d (default: one per core)\n"
		"  --max-frame BYTES      largest request frame (default 1048576; K/M suffixes)\n"
		"  --max-inflight N       unanswered requests per connection before ERR_BUSY (default 1024)\n"
		"  --max-output BYTES     queued response bytes per connection before reading\n"
		"                         from it pauses (default 4M)\n"
		"  --max-batch N          largest batch, 1..4096 (default 64)\n"
		"  --socket-mode OCTAL    permissions of the socket (default 0660)\n"
		"  --max-connections N    open connections before new ones are answered ERR_BUSY\n"
		"                         and closed (default: RLIMIT_NOFILE less what rindd uses)\n"
		"  --idle-timeout SECONDS close a connection with nothing in flight after this\n"
		"                         long without a request (default 300; 0: never)\n"
		"  --drain-timeout SECONDS on SIGTERM, answer what clients sent for up to this\n"
		"                         long, then ERR_SHUTDOWN for the rest (default 5)\n"
		"  --foreground           do not detach (implied under systemd: $NOTIFY_SOCKET or\n"
		"                         $LISTEN_FDS set)\n"
		"  --bus system|user|none D-Bus management API org.rind.KeyService1 (default:\n"
		"                         system when started by systemd, else none)\n"
		"  --bus-address ADDR     connect to this bus instead (a private dbus-daemon)\n"
		"  --log journal|stderr|syslog  where log and audit records go (default: the\n"
		"                         journal when stderr is connected to it, else stderr;\n"
		"                         detached (no --foreground) without --log-file: syslog)\n"
		"  --log-file PATH        append log lines (and anything on stderr) to PATH;\n"
		"                         a detached rindd never writes to the caller's terminal\n"
		"  --pidfile PATH         write rindd's pid to PATH once it listens; removed at exit\n"
		"  --max-keys N           keys the daemon holds at most (default 4096; 0: no limit)\n"
		"  --max-keys-per-uid N   keys one uid may own (default 256; 0: no limit; root and\n"
		"                         rindd's own uid are not held to it)\n"
		"  --version, --help\n", RINDD_MAX_THREADS);
}

static int parse_num(const char *opt, const char *s, unsigned long long lo,
		     unsigned long long hi, bool sizes, unsigned long long *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!*s || *s == '-')
		goto bad;
	v = strtoull(s, &end, 10);
	if (errno)
		goto bad;
	if (sizes && (*end == 'K' || *end == 'k')) {
		v <<= 10;
		end++;
	} else if (sizes && (*end == 'M' || *end == 'm')) {
		v <<= 20;
		end++;
	}
	if (*end)
		goto bad;
	if (v < lo || v > hi) {
		fprintf(stderr, "rindd: %s %s: must be between %llu and %llu\n", opt, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
bad:
	fprintf(stderr, "rindd: %s: \"%s\" is not a %s\n", opt, s, sizes ? "size" : "number");
	return -1;
}

/* --log-file, --pidfile and the key quotas (getopt values past the others). */
enum { O_LOGFILE = 400, O_PIDFILE, O_MAXKEYS, O_MAXKEYS_UID };

static int parse_args(int argc, char **argv)
{
	enum { O_SOCKET = 256, O_STATE, O_MASTER, O_THREADS, O_FRAME, O_INFLIGHT, O_OUTPUT,
	       O_BATCH, O_MODE, O_FG, O_VERSION, O_HELP, O_BUS, O_BUSADDR, O_LOG,
	       O_DEVMASTER, O_MAXCONN = 420, O_IDLE, O_DRAIN };
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, O_SOCKET },
		{ "state-dir", required_argument, NULL, O_STATE },
		{ "master-key-file", required_argument, NULL, O_MASTER },
		{ "dev-master-key", no_argument, NULL, O_DEVMASTER },
		{ "threads", required_argument, NULL, O_THREADS },
		{ "max-frame", required_argument, NULL, O_FRAME },
		{ "max-inflight", required_argument, NULL, O_INFLIGHT },
		{ "max-output", required_argument, NULL, O_OUTPUT },
		{ "max-batch", required_argument, NULL, O_BATCH },
		{ "socket-mode", required_argument, NULL, O_MODE },
		{ "foreground", no_argument, NULL, O_FG },
		{ "bus", required_argument, NULL, O_BUS },
		{ "bus-address", required_argument, NULL, O_BUSADDR },
		{ "log", required_argument, NULL, O_LOG },
		{ "max-connections", required_argument, NULL, O_MAXCONN },
		{ "idle-timeout", required_argument, NULL, O_IDLE },
		{ "drain-timeout", required_argument, NULL, O_DRAIN },
		{ "log-file", required_argument, NULL, O_LOGFILE },
		{ "pidfile", required_argument, NULL, O_PIDFILE },
		{ "max-keys", required_argument, NULL, O_MAXKEYS },
		{ "max-keys-per-uid", required_argument, NULL, O_MAXKEYS_UID },
		{ "version", no_argument, NULL, O_VERSION },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long v;
	char *end;
	int o;

	cfg.threads = ncpu < 1 ? 1 : ncpu > RINDD_MAX_THREADS ? RINDD_MAX_THREADS : (unsigned int)ncpu;
	if (getenv("STATE_DIRECTORY") && *getenv("STATE_DIRECTORY") && !strchr(getenv("STATE_DIRECTORY"), ':'))
		cfg.state_dir = getenv("STATE_DIRECTORY");
	opterr = 0;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case O_SOCKET:
			cfg.socket_path = optarg;
			break;
		case O_STATE:
			cfg.state_dir = optarg;
			break;
		case O_MASTER:
			cfg.master_key_file = optarg;
			break;
		case O_DEVMASTER:
			cfg.dev_master_key = true;
			break;
		case O_THREADS:
			if (parse_num("--threads", optarg, 1, RINDD_MAX_THREADS, false, &v))
				return -1;
			cfg.threads = (unsigned int)v;
			break;
		case O_FRAME:
			if (parse_num("--max-frame", optarg, 64, 64u << 20, true, &v))
				return -1;
			cfg.max_frame = (uint32_t)v;
			break;
		case O_INFLIGHT:
			if (parse_num("--max-inflight", optarg, 1, 1u << 20, false, &v))
				return -1;
			cfg.max_inflight = (unsigned int)v;
			break;
		case O_OUTPUT:
			if (parse_num("--max-output", optarg, 4096, 1ull << 30, true, &v))
				return -1;
			cfg.max_output = (size_t)v;
			break;
		case O_BATCH:
			if (parse_num("--max-batch", optarg, 1, 4096, false, &v))
				return -1;
			cfg.max_batch = (unsigned int)v;
			break;
		case O_MODE:
			errno = 0;
			v = strtoull(optarg, &end, 8);
			if (errno || !*optarg || *end || v > 0777) {
				fprintf(stderr, "rindd: --socket-mode: \"%s\" is not an octal mode (e.g. 0660)\n",
					optarg);
				return -1;
			}
			cfg.socket_mode = (mode_t)v;
			break;
		case O_FG:
			cfg.foreground = true;
			break;
		case O_BUS:
			if (strcmp(optarg, "system") && strcmp(optarg, "user") && strcmp(optarg, "none")) {
				fprintf(stderr, "rindd: --bus: \"%s\" is not system, user or none\n", optarg);
				return -1;
			}
			cfg.bus = optarg;
			break;
		case O_BUSADDR:
			if (!*optarg) {
				fprintf(stderr, "rindd: --bus-address must not be empty\n");
				return -1;
			}
			cfg.bus_address = optarg;
			break;
		case O_LOG:
			if (strcmp(optarg, "journal") && strcmp(optarg, "stderr") && strcmp(optarg, "syslog")) {
				fprintf(stderr, "rindd: --log: \"%s\" is not journal, stderr or syslog\n", optarg);
				return -1;
			}
			cfg.log_target = optarg;
			break;
		case O_MAXCONN:
			if (parse_num("--max-connections", optarg, 1, 1u << 20, false, &v))
				return -1;
			cfg.max_connections = (unsigned int)v;
			break;
		case O_IDLE:
			if (parse_num("--idle-timeout", optarg, 0, 7 * 86400, false, &v))
				return -1;
			cfg.idle_timeout_ms = (unsigned int)v * 1000;
			break;
		case O_DRAIN:
			if (parse_num("--drain-timeout", optarg, 0, 3600, false, &v))
				return -1;
			cfg.drain_timeout_ms = (unsigned int)v * 1000;
			break;
		case O_LOGFILE:
		case O_PIDFILE:
			if (!*optarg) {
				fprintf(stderr, "rindd: %s must not be empty\n", o == O_LOGFILE ? "--log-file" : "--pidfile");
				return -1;
			}
			*(o == O_LOGFILE ? &cfg.log_file : &cfg.pidfile) = optarg;
			break;
		case O_MAXKEYS:
		case O_MAXKEYS_UID:
			if (parse_num(o == O_MAXKEYS ? "--max-keys" : "--max-keys-per-uid", optarg, 0,
				      1u << 24, false, &v))
				return -1;
			*(o == O_MAXKEYS ? &cfg.max_keys : &cfg.max_keys_per_uid) = (unsigned int)v;
			break;
		case O_VERSION:
			printf("%s\n", RINDD_VERSION);
			exit(0);
		case O_HELP:
			usage(stdout);
			exit(0);
		default:
			if (optopt)
				fprintf(stderr, "rindd: option %s needs an argument\n", argv[optind - 1]);
			else
				fprintf(stderr, "rindd: unknown option %s\n", argv[optind - 1]);
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rindd: unexpected argument \"%s\"\n", argv[optind]);
		usage(stderr);
		return -1;
	}
	if (getenv("NOTIFY_SOCKET") || getenv("LISTEN_FDS"))
		cfg.foreground = true;
	cfg.bus_auto = !cfg.bus && !cfg.bus_address;
	if (!cfg.bus)
		cfg.bus = cfg.bus_address ? "user" : getenv("INVOCATION_ID") ? "system" : "none";
	if (!*cfg.socket_path || !*cfg.state_dir) {
		fprintf(stderr, "rindd: --socket and --state-dir must not be empty\n");
		return -1;
	}
	return 0;
}

/* No core dumps, no ptrace by other users: keys stay in this process. */
static void protect_process(void)
{
	if (prctl(PR_SET_DUMPABLE, 0) < 0)
		log_warn("event=prctl_dumpable_failed errno=%d", errno);
}

static bool socket_created;

static int listen_socket(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	mode_t old;
	int fd, n = sd_listen_fds(1);

	if (n == 1) {
		log_info("event=socket_activation fd=%d", SD_LISTEN_FDS_START);
		cfg.socket_activated = true;
		return SD_LISTEN_FDS_START;
	}
	if (strlen(cfg.socket_path) >= sizeof(sa.sun_path)) {
		log_err("event=socket_path_too_long path=%s max=%zu", cfg.socket_path,
			sizeof(sa.sun_path) - 1);
		return -1;
	}
	strcpy(sa.sun_path, cfg.socket_path);
	/*
	 * Whether a daemon is alive is the state directory's lock, held since
	 * keystore_init(), not whether the socket answers: right after a
	 * crash the dead daemon's io_uring can keep its listening socket up
	 * for a moment.  So an existing socket is stale: take the path over.
	 */
	if (lstat(cfg.socket_path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			log_err("event=socket_path_exists path=%s msg=\"not a socket; refusing to replace it\"",
				cfg.socket_path);
			return -1;
		}
		if (unlink(cfg.socket_path) < 0 && errno != ENOENT) {
			log_err("event=socket_unlink_failed path=%s errno=%d msg=\"%s\"", cfg.socket_path,
				errno, strerror(errno));
			return -1;
		}
		log_info("event=socket_taken_over path=%s msg=\"a stale socket: this daemon holds the state directory lock\"",
			 cfg.socket_path);
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	old = umask(0177);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		umask(old);
		log_err("event=bind_failed path=%s errno=%d msg=\"%s\"", cfg.socket_path, errno,
			strerror(errno));
		close(fd);
		return -1;
	}
	umask(old);
	socket_created = true;
	if (chmod(cfg.socket_path, cfg.socket_mode) < 0 || listen(fd, 4096) < 0) {
		log_err("event=listen_failed path=%s errno=%d", cfg.socket_path, errno);
		close(fd);
		return -1;
	}
	return fd;
}

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/*
 * READY=1 (first call) and, about once a second, STATUS= with the key
 * count and the request rate over the last interval.
 */
static void notify_status(bool ready)
{
	static uint64_t last_t;
	static unsigned long long last_req;
	uint64_t t = now_usec();
	unsigned long long req = atomic_load(&stats.requests);
	double rate;
	char msg[256];

	if (!ready && t - last_t < 1000000)
		return;
	rate = last_t && t > last_t ? (double)(req - last_req) * 1e6 / (double)(t - last_t) : 0;
	snprintf(msg, sizeof(msg),
		 "%sSTATUS=%zu keys, %.0f requests/s, %llu requests, %llu connections",
		 ready ? "READY=1\n" : "", key_count(), rate, req,
		 (unsigned long long)atomic_load(&stats.connections));
	sd_notify(0, msg);
	last_t = t;
	last_req = req;
}

/*
 * Where a detached rindd's output goes: never the terminal it was started
 * from.  stdin and stdout are /dev/null; stderr (log lines, and sanitizer
 * reports in the test builds) is --log-file, or /dev/null with the log
 * in syslog.  In the foreground --log-file redirects stderr as well.
 */
static int redirect_output(bool detached)
{
	int fd;

	if (cfg.log_file) {
		fd = open(cfg.log_file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0640);
		if (fd < 0) {
			fprintf(stderr, "rindd: --log-file %s: %s\n", cfg.log_file, strerror(errno));
			return -1;
		}
		if (dup2(fd, 2) < 0) {
			close(fd);
			return -1;
		}
		close(fd);
		if (cfg.log_target && strcmp(cfg.log_target, "stderr"))
			fprintf(stderr, "rindd: --log %s and --log-file: logging to the file\n", cfg.log_target);
		cfg.log_target = "stderr";
	} else if (detached && !cfg.log_target) {
		cfg.log_target = "syslog";
	}
	if (!detached)
		return 0;
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	dup2(fd, 0);
	dup2(fd, 1);
	if (!cfg.log_file)
		dup2(fd, 2);
	close(fd);
	return 0;
}

/* --pidfile: written whole (a temporary file renamed over it), once rindd listens. */
static int write_pidfile(void)
{
	char tmp[PATH_MAX], line[32];
	int fd, n;

	if (!cfg.pidfile)
		return 0;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", cfg.pidfile) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	n = snprintf(line, sizeof(line), "%d\n", (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, line, (size_t)n) != n || close(fd) < 0 || rename(tmp, cfg.pidfile) < 0) {
		int err = -errno;

		unlink(tmp);
		return err ? err : -EIO;
	}
	return 0;
}

int main(int argc, char **argv)
{
	sigset_t set;
	int listen_fd, ready_pipe[2] = { -1, -1 };
	struct timespec tick = { 0, 200 * 1000 * 1000 };
	uint64_t wd_usec = 0, last_ping = 0;
	char one = 1;

	if (parse_args(argc, argv))
		return 2;
	if (!cfg.foreground) {
		pid_t pid;

		if (pipe2(ready_pipe, O_CLOEXEC) < 0) {
			perror("rindd: pipe");
			return 1;
		}
		pid = fork();
		if (pid < 0) {
			perror("rindd: fork");
			return 1;
		}
		if (pid > 0) {
			/* The parent returns once the daemon listens (0) or failed (1). */
			close(ready_pipe[1]);
			if (read(ready_pipe[0], &one, 1) == 1)
				return 0;
			fprintf(stderr, "rindd: the daemon did not start; see %s\n",
				cfg.log_file ? cfg.log_file : cfg.log_target && !strcmp(cfg.log_target, "stderr") ?
				"its stderr" : "the system log (syslog, or the journal)");
			return 1;
		}
		close(ready_pipe[0]);
		setsid();
	}
	if (redirect_output(!cfg.foreground))
		return 1;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);

	protect_process();
	log_init();
	secmem_init();
	log_info("event=starting version=\"%s\" socket=%s state_dir=%s threads=%u max_frame=%u max_batch=%u pid=%d",
		 RINDD_VERSION, cfg.socket_path, cfg.state_dir, cfg.threads, cfg.max_frame,
		 cfg.max_batch, (int)getpid());
	if (mkdir(cfg.state_dir, 0700) < 0 && errno != EEXIST) {
		log_err("event=state_dir_failed path=%s errno=%d msg=\"%s\"", cfg.state_dir, errno,
			strerror(errno));
		return 1;
	}
	if (keystore_init()) {
		log_err("event=exit reason=\"key store unavailable\"");
		keystore_exit();
		return 1;
	}
	listen_fd = listen_socket();
	if (listen_fd < 0) {
		keys_wipe_all();
		keystore_exit();
		return 1;
	}
	if (store_start())
		log_warn("event=store_thread_failed msg=\"key store writes run on the event loops\"");
	if (workers_start(listen_fd)) {
		log_err("event=exit reason=\"cannot start workers\"");
		return 1;
	}
	if (dbus_start()) {
		log_err("event=exit reason=\"cannot start the D-Bus service\"");
		workers_stop();
		workers_join();
		store_stop();
		keys_wipe_all();
		return 1;
	}
	{
		int err = write_pidfile();

		if (err)
			log_warn("event=pidfile_failed path=%s errno=%d msg=\"%s\"", cfg.pidfile, -err,
				 strerror(-err));
	}
	log_info("event=ready socket=%s keys=%zu bus=%s locked_bytes=%zu", cfg.socket_path,
		 key_count(), cfg.bus, secmem_locked_bytes());
	notify_status(true);
	if (ready_pipe[1] >= 0) {
		if (write(ready_pipe[1], &one, 1) < 0)
			log_warn("event=ready_pipe_failed errno=%d", errno);
		close(ready_pipe[1]);
	}
	if (sd_watchdog_enabled(0, &wd_usec) > 0 && wd_usec) {
		/* ping at half the interval; tick at a quarter so pings stay on time */
		if (wd_usec / 4 < 200000)
			tick.tv_nsec = (long)(wd_usec / 4 * 1000);
		log_info("event=watchdog usec=%llu", (unsigned long long)wd_usec);
		workers_ping();
		last_ping = now_usec();
	} else {
		wd_usec = 0;
	}

	while (!atomic_load(&rindd_stopping)) {
		int sig = sigtimedwait(&set, NULL, &tick);
		uint64_t now = now_usec();

		if (sig == SIGTERM || sig == SIGINT) {
			log_info("event=stopping signal=%s", sig == SIGTERM ? "TERM" : "INT");
			break;
		}
		if (wd_usec && now - last_ping >= wd_usec / 2) {
			/* only when every loop answered the previous ping */
			if (workers_alive() && dbus_alive())
				sd_notify(0, "WATCHDOG=1");
			else
				log_warn("event=watchdog_late msg=\"an event loop did not answer within %llu ms\"",
					 (unsigned long long)(now - last_ping) / 1000);
			workers_ping();
			last_ping = now;
		}
		notify_status(false);
	}
	sd_notify(0, "STOPPING=1\nSTATUS=stopping: finishing requests in flight");
	dbus_stop();
	workers_stop();
	workers_join();
	store_stop();
	close(listen_fd);
	if (socket_created)
		unlink(cfg.socket_path);
	keys_wipe_all();
	keystore_exit();
	if (cfg.pidfile)
		unlink(cfg.pidfile);
	log_info("event=stopped requests=%llu errors=%llu batches=%llu batched_requests=%llu max_batch=%llu",
		 (unsigned long long)atomic_load(&stats.requests),
		 (unsigned long long)atomic_load(&stats.errors),
		 (unsigned long long)atomic_load(&stats.batches),
		 (unsigned long long)atomic_load(&stats.batched_requests),
		 (unsigned long long)atomic_load(&stats.max_batch));
	return 0;
}
