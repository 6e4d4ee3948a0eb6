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
	.socket_path = "/run/rindd/rindd.sock",
	.state_dir = "/var/lib/rindd",
	.max_frame = RIND_FRAME_DEFAULT_MAX,
	.max_inflight = 1024,
	.max_output = 4u << 20,
	.max_batch = 64,
	.socket_mode = 0660,
};
atomic_bool rindd_stopping;
struct rindd_stats stats;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rindd [options]\n"
		"  --socket PATH          Unix socket to listen on (default /run/rindd/rindd.sock)\n"
		"  --state-dir DIR        key files (default /var/lib/rindd; created 0700)\n"
		"  --master-key-file FILE 32-byte (raw or 64 hex digits) master key; default\n"
		"                         $CREDENTIALS_DIRECTORY/rindd.master, else a generated\n"
		"                         DIR/master.key (development only)\n"
		"  --threads N            worker threads, 1..%d (default: one per core)\n"
		"  --max-frame BYTES      largest request frame (default 1048576; K/M suffixes)\n"
		"  --max-inflight N       unanswered requests per connection before ERR_BUSY (default 1024)\n"
		"  --max-output BYTES     queued response bytes per connection before reading\n"
		"                         from it pauses (default 4M)\n"
		"  --max-batch N          largest batch, 1..4096 (default 64)\n"
		"  --socket-mode OCTAL    permissions of the socket (default 0660)\n"
		"  --foreground           do not detach\n"
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

static int parse_args(int argc, char **argv)
{
	enum { O_SOCKET = 256, O_STATE, O_MASTER, O_THREADS, O_FRAME, O_INFLIGHT, O_OUTPUT,
	       O_BATCH, O_MODE, O_FG, O_VERSION, O_HELP };
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, O_SOCKET },
		{ "state-dir", required_argument, NULL, O_STATE },
		{ "master-key-file", required_argument, NULL, O_MASTER },
		{ "threads", required_argument, NULL, O_THREADS },
		{ "max-frame", required_argument, NULL, O_FRAME },
		{ "max-inflight", required_argument, NULL, O_INFLIGHT },
		{ "max-output", required_argument, NULL, O_OUTPUT },
		{ "max-batch", required_argument, NULL, O_BATCH },
		{ "socket-mode", required_argument, NULL, O_MODE },
		{ "foreground", no_argument, NULL, O_FG },
		{ "version", no_argument, NULL, O_VERSION },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long v;
	char *end;
	int o;

	cfg.threads = ncpu < 1 ? 1 : ncpu > RINDD_MAX_THREADS ? RINDD_MAX_THREADS : (unsigned int)ncpu;
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
		return SD_LISTEN_FDS_START;
	}
	if (strlen(cfg.socket_path) >= sizeof(sa.sun_path)) {
		log_err("event=socket_path_too_long path=%s max=%zu", cfg.socket_path,
			sizeof(sa.sun_path) - 1);
		return -1;
	}
	strcpy(sa.sun_path, cfg.socket_path);
	if (lstat(cfg.socket_path, &st) == 0) {
		int probe;

		if (!S_ISSOCK(st.st_mode)) {
			log_err("event=socket_path_exists path=%s msg=\"not a socket; refusing to replace it\"",
				cfg.socket_path);
			return -1;
		}
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (probe >= 0 && connect(probe, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			close(probe);
			log_err("event=socket_in_use path=%s msg=\"another daemon listens there\"",
				cfg.socket_path);
			return -1;
		}
		if (probe >= 0)
			close(probe);
		unlink(cfg.socket_path);
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

int main(int argc, char **argv)
{
	sigset_t set;
	int listen_fd, ready_pipe[2] = { -1, -1 };
	struct timespec tick = { 0, 200 * 1000 * 1000 };
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
			return read(ready_pipe[0], &one, 1) == 1 ? 0 : 1;
		}
		close(ready_pipe[0]);
		setsid();
	}

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);

	protect_process();
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
		return 1;
	}
	listen_fd = listen_socket();
	if (listen_fd < 0) {
		keys_wipe_all();
		return 1;
	}
	if (workers_start(listen_fd)) {
		log_err("event=exit reason=\"cannot start workers\"");
		return 1;
	}
	log_info("event=ready socket=%s keys=%zu", cfg.socket_path, key_count());
	sd_notify(0, "READY=1");
	if (ready_pipe[1] >= 0) {
		if (write(ready_pipe[1], &one, 1) < 0)
			log_warn("event=ready_pipe_failed errno=%d", errno);
		close(ready_pipe[1]);
	}

	while (!atomic_load(&rindd_stopping)) {
		int sig = sigtimedwait(&set, NULL, &tick);

		if (sig == SIGTERM || sig == SIGINT) {
			log_info("event=stopping signal=%s", sig == SIGTERM ? "TERM" : "INT");
			break;
		}
	}
	sd_notify(0, "STOPPING=1");
	workers_stop();
	workers_join();
	close(listen_fd);
	if (socket_created)
		unlink(cfg.socket_path);
	keys_wipe_all();
	keystore_exit();
	log_info("event=stopped requests=%llu errors=%llu batches=%llu batched_requests=%llu max_batch=%llu",
		 (unsigned long long)atomic_load(&stats.requests),
		 (unsigned long long)atomic_load(&stats.errors),
		 (unsigned long long)atomic_load(&stats.batches),
		 (unsigned long long)atomic_load(&stats.batched_requests),
		 (unsigned long long)atomic_load(&stats.max_batch));
	return 0;
}
