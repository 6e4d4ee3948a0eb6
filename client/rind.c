// SPDX-License-Identifier: MIT
/*
 * rind: the command-line tool.  `rind list` prints the registry like
 * /proc/crypto; `rind features` shows the CPU features rind sees and which
 * RIND_DISABLE masks.  The daemon commands (key, sign, verify, seal, open,
 * derive, stats, bench-daemon) talk to rindd through librind-client.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <rind/crypto.h>
#include "rind_client.h"

/* Every name API.md promises, instantiated so that `rind list` shows them. */
static const char *const std_names[] = {
	"sha1", "sha224", "sha256", "sha384", "sha512",
	"hmac(sha1)", "hmac(sha256)", "hmac(sha384)", "hmac(sha512)",
	"aes", "ecb(aes)", "cbc(aes)", "ctr(aes)", "kw(aes)", "chacha20", "xchacha20",
	"gcm(aes)", "rfc4106(gcm(aes))", "rfc7539(chacha20,poly1305)",
	"rfc7539(xchacha20,poly1305)",
	"curve25519", "ecdh-nist-p256", "ecdh-nist-p384", "ecdh-nist-p521", "ed25519",
	"x962(ecdsa-nist-p256,sha256)", "x962(ecdsa-nist-p384,sha384)", "x962(ecdsa-nist-p521,sha512)",
	"p1363(ecdsa-nist-p256,sha256)", "p1363(ecdsa-nist-p384,sha384)",
	"p1363(ecdsa-nist-p521,sha512)",
	"pkcs1(rsa,sha256)", "pkcs1(rsa,sha384)", "pkcs1(rsa,sha512)",
	"pss(rsa,sha256)", "pss(rsa,sha384)", "pss(rsa,sha512)",
	"oaep(rsa,sha256)", "oaep(rsa,sha384)", "oaep(rsa,sha512)",
	"mlkem512", "mlkem768", "mlkem1024", "x25519mlkem768", "stdrng",
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
		"usage: rind [--socket PATH] <command>\n"
		"  list [--proc]   every registered implementation (name, driver, module,\n"
		"                  priority, type, self-test, block size, context size)\n"
		"  features        CPU features and RIND_DISABLE masking\n"
		"  version         library version\n"
		"daemon commands (socket: --socket, else $RIND_SOCKET, else %s):\n"
		"  key create NAME --alg ed25519|x25519|aes-256-gcm [--exportable]\n"
		"  key import NAME --alg ALG [--in FILE] [--format raw|pkcs8|pem|jwk] [--exportable]\n"
		"  key list\n"
		"  key pub NAME [--format pem|der|raw|jwk|pkcs8] [--out FILE]\n"
		"  key delete NAME\n"
		"  sign NAME [--in FILE] [--out FILE]        signature bytes (Ed25519: 64)\n"
		"  verify NAME --sig FILE [--in FILE]       exit 0 valid, 1 invalid, 2 error\n"
		"  seal NAME [--in FILE] [--out FILE] [--ad STRING]   nonce||ciphertext||tag\n"
		"  open NAME [--in FILE] [--out FILE] [--ad STRING]\n"
		"  derive NAME --peer FILE [--out FILE]     X25519 with a raw 32-byte peer key\n"
		"  ping                                     daemon version\n"
		"  stats                                    daemon counters and batching\n"
		"  bench-daemon --alg ALG [--clients N] [--requests M] [--pipeline K]\n"
		"               [--size BYTES] [--key NAME]\n"
		"                  N processes, M requests each, K in flight per connection;\n"
		"                  requests/s, p50/p99 latency, mean batch size; every\n"
		"                  Ed25519 signature is verified in-process afterwards\n"
		"  stdin/stdout by default; errors exit 1 (verify: 2)\n",
		RIND_CLIENT_DEFAULT_SOCKET);
}

/* ---- daemon commands ---- */

static const char *const daemon_cmds[] = {
	"key", "sign", "verify", "seal", "open", "derive", "stats", "ping", "bench-daemon",
};

static int is_daemon_cmd(const char *cmd)
{
	size_t i;

	for (i = 0; i < sizeof(daemon_cmds) / sizeof(daemon_cmds[0]); i++)
		if (!strcmp(cmd, daemon_cmds[i]))
			return 1;
	return 0;
}

/* Options of the daemon commands: --name VALUE or --name=VALUE, flags. */
struct opts {
	const char *socket, *alg, *in, *out, *sig, *format, *ad, *peer, *key;
	long clients, requests, pipeline, size;
	int exportable;
	const char *pos[4];
	int npos;
};

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const char *const with_arg[] = {
		"socket", "alg", "in", "out", "sig", "format", "ad", "peer", "key",
		"clients", "requests", "pipeline", "size",
	};
	int i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *val = NULL, *eq;
		char name[32];
		size_t k, nl;

		if (strncmp(a, "--", 2) || !a[2]) {
			if (o->npos >= 4) {
				fprintf(stderr, "rind: unexpected argument '%s'\n", a);
				return -1;
			}
			o->pos[o->npos++] = a;
			continue;
		}
		a += 2;
		eq = strchr(a, '=');
		nl = eq ? (size_t)(eq - a) : strlen(a);
		if (nl >= sizeof(name)) {
			fprintf(stderr, "rind: unknown option '%s'\n", argv[i]);
			return -1;
		}
		memcpy(name, a, nl);
		name[nl] = 0;
		if (!strcmp(name, "exportable")) {
			o->exportable = 1;
			continue;
		}
		for (k = 0; k < sizeof(with_arg) / sizeof(with_arg[0]); k++)
			if (!strcmp(name, with_arg[k]))
				break;
		if (k == sizeof(with_arg) / sizeof(with_arg[0])) {
			fprintf(stderr, "rind: unknown option '%s'\n", argv[i]);
			return -1;
		}
		if (eq) {
			val = eq + 1;
		} else {
			if (i + 1 >= argc) {
				fprintf(stderr, "rind: option --%s needs a value\n", name);
				return -1;
			}
			val = argv[++i];
		}
		if (!strcmp(name, "socket")) o->socket = val;
		else if (!strcmp(name, "alg")) o->alg = val;
		else if (!strcmp(name, "in")) o->in = val;
		else if (!strcmp(name, "out")) o->out = val;
		else if (!strcmp(name, "sig")) o->sig = val;
		else if (!strcmp(name, "format")) o->format = val;
		else if (!strcmp(name, "ad")) o->ad = val;
		else if (!strcmp(name, "peer")) o->peer = val;
		else if (!strcmp(name, "key")) o->key = val;
		else {
			char *end;
			long v;

			errno = 0;
			v = strtol(val, &end, 10);
			if (errno || !*val || *end || v < 0 || v > 1000000000) {
				fprintf(stderr, "rind: --%s: '%s' is not a number\n", name, val);
				return -1;
			}
			if (!strcmp(name, "clients")) o->clients = v;
			else if (!strcmp(name, "requests")) o->requests = v;
			else if (!strcmp(name, "pipeline")) o->pipeline = v;
			else o->size = v;
		}
	}
	return 0;
}

/* Whole file (or stdin for NULL / "-") into a malloc'd buffer. */
static int read_input(const char *path, uint8_t **buf, size_t *len)
{
	int fd = (!path || !strcmp(path, "-")) ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 65536, n = 0;
	uint8_t *p;

	if (fd < 0) {
		fprintf(stderr, "rind: %s: %s\n", path, strerror(errno));
		return -1;
	}
	p = malloc(cap);
	for (;;) {
		ssize_t r;

		if (!p)
			break;
		if (n == cap) {
			uint8_t *q = realloc(p, cap * 2);

			if (!q) {
				free(p);
				p = NULL;
				break;
			}
			p = q;
			cap *= 2;
		}
		r = read(fd, p + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fprintf(stderr, "rind: read %s: %s\n", path ? path : "stdin", strerror(errno));
			free(p);
			p = NULL;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (fd > 0)
		close(fd);
	if (!p)
		return -1;
	*buf = p;
	*len = n;
	return 0;
}

static int write_output(const char *path, const void *buf, size_t len)
{
	int fd = (!path || !strcmp(path, "-")) ? 1 :
		 open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	const uint8_t *p = buf;

	if (fd < 0) {
		fprintf(stderr, "rind: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (len) {
		ssize_t r = write(fd, p, len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fprintf(stderr, "rind: write %s: %s\n", path ? path : "stdout", strerror(errno));
			if (fd > 1)
				close(fd);
			return -1;
		}
		p += r;
		len -= (size_t)r;
	}
	if (fd > 1 && close(fd) < 0) {
		fprintf(stderr, "rind: close %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int report(struct rind_client *c, const char *what, int err)
{
	const char *msg = c ? rind_client_last_error(c) : "";

	if (msg && *msg)
		fprintf(stderr, "rind: %s: %s (%s)\n", what, msg, strerror(-err));
	else
		fprintf(stderr, "rind: %s: %s\n", what, strerror(-err));
	return 1;
}

static struct rind_client *cli_connect(const char *sock)
{
	struct rind_client *c = rind_client_connect(sock);

	if (!c) {
		const char *p = sock && *sock ? sock : getenv("RIND_SOCKET");

		fprintf(stderr, "rind: cannot connect to rindd at %s: %s\n",
			p && *p ? p : RIND_CLIENT_DEFAULT_SOCKET, strerror(errno));
	}
	return c;
}

static int need_pos(const struct opts *o, int n, const char *usage_line)
{
	if (o->npos != n) {
		fprintf(stderr, "usage: rind %s\n", usage_line);
		return -1;
	}
	return 0;
}

/*
 * rind key ref NAME: a PEM block that names a key held by rindd and the
 * socket to reach it, with the key's public half (SPKI), for programs
 * that only read key files: the OpenSSL provider (provider/README.md)
 * decodes it into a key whose private operations go to rindd.
 */
static int cmd_key_ref(struct rind_client *c, struct opts *o)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char sock[4096], *body, *p;
	const char *path = rind_client_path(c);
	uint8_t *spki;
	size_t len, blen, i, col = 0;
	int err;

	if (need_pos(o, 2, "key ref NAME [--out FILE]"))
		return 2;
	err = rind_client_get_public(c, o->pos[1], RIND_CLIENT_SPKI_DER, &spki, &len);
	if (err)
		return report(c, "key ref", err);
	if (!path || !realpath(path, sock))
		snprintf(sock, sizeof(sock), "%s", path ? path : RIND_CLIENT_DEFAULT_SOCKET);
	blen = 64 + strlen(o->pos[1]) + strlen(sock) + 2 * len;
	body = malloc(blen);
	if (!body) {
		free(spki);
		return 1;
	}
	p = body + snprintf(body, blen, "rind-key-ref 1\nname %s\nsocket %s\nspki ", o->pos[1], sock);
	for (i = 0; i < len; i++)
		p += sprintf(p, "%02x", spki[i]);
	*p++ = '\n';
	free(spki);
	len = (size_t)(p - body);
	{
		char *pem = malloc(len * 2 + 128), *q = pem;

		if (!pem) {
			free(body);
			return 1;
		}
		q += sprintf(q, "-----BEGIN RIND KEY REFERENCE-----\n");
		for (i = 0; i < len; i += 3) {
			unsigned int v = (unsigned int)(uint8_t)body[i] << 16
				| (i + 1 < len ? (unsigned int)(uint8_t)body[i + 1] << 8 : 0)
				| (i + 2 < len ? (uint8_t)body[i + 2] : 0);

			*q++ = b64[v >> 18 & 63];
			*q++ = b64[v >> 12 & 63];
			*q++ = i + 1 < len ? b64[v >> 6 & 63] : '=';
			*q++ = i + 2 < len ? b64[v & 63] : '=';
			if ((col += 4) == 64) {
				*q++ = '\n';
				col = 0;
			}
		}
		if (col)
			*q++ = '\n';
		q += sprintf(q, "-----END RIND KEY REFERENCE-----\n");
		err = write_output(o->out, pem, (size_t)(q - pem));
		free(pem);
	}
	free(body);
	return err ? 1 : 0;
}

static int cmd_key(struct rind_client *c, struct opts *o)
{
	const char *sub = o->npos ? o->pos[0] : "";
	enum rind_client_format fmt;
	uint8_t *buf;
	size_t len;
	int err;

	if (!strcmp(sub, "create")) {
		struct rind_client_key_info ki;

		if (need_pos(o, 2, "key create NAME --alg ALG [--exportable]"))
			return 2;
		if (!o->alg) {
			fprintf(stderr, "rind: key create: --alg is required (ed25519, x25519, aes-256-gcm)\n");
			return 2;
		}
		err = rind_client_create_key(c, o->pos[1], o->alg, o->exportable, &ki);
		if (err)
			return report(c, "key create", err);
		printf("created %s (%s)\n", ki.name[0] ? ki.name : o->pos[1],
		       ki.algorithm[0] ? ki.algorithm : o->alg);
		return 0;
	}
	if (!strcmp(sub, "import")) {
		if (need_pos(o, 2, "key import NAME --alg ALG [--in FILE] [--format raw|pkcs8|pem|jwk]"))
			return 2;
		if (!o->alg) {
			fprintf(stderr, "rind: key import: --alg is required\n");
			return 2;
		}
		fmt = RIND_CLIENT_RAW;
		if (o->format && rind_client_format_parse(o->format, &fmt)) {
			fprintf(stderr, "rind: unknown format '%s'\n", o->format);
			return 2;
		}
		if (read_input(o->in, &buf, &len))
			return 1;
		err = rind_client_import_key(c, o->pos[1], o->alg, buf, len, fmt, o->exportable, NULL);
		memset(buf, 0, len);
		free(buf);
		if (err)
			return report(c, "key import", err);
		printf("imported %s (%s)\n", o->pos[1], o->alg);
		return 0;
	}
	if (!strcmp(sub, "list")) {
		struct rind_client_key_info *k;
		size_t n, i;

		if (need_pos(o, 1, "key list"))
			return 2;
		err = rind_client_list_keys(c, &k, &n);
		if (err)
			return report(c, "key list", err);
		printf("%-32s %-12s %6s %10s %s\n", "NAME", "ALGORITHM", "OWNER", "EXPORTABLE",
		       "CREATED");
		for (i = 0; i < n; i++) {
			time_t t = (time_t)k[i].created;
			struct tm tm;
			char when[32] = "-";

			if (gmtime_r(&t, &tm))
				strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
			printf("%-32s %-12s %6u %10s %s\n", k[i].name, k[i].algorithm, k[i].owner_uid,
			       k[i].exportable ? "yes" : "no", when);
		}
		free(k);
		return 0;
	}
	if (!strcmp(sub, "pub")) {
		if (need_pos(o, 2, "key pub NAME [--format pem|der|raw|jwk] [--out FILE]"))
			return 2;
		fmt = RIND_CLIENT_PEM;
		if (o->format && rind_client_format_parse(o->format, &fmt)) {
			fprintf(stderr, "rind: unknown format '%s' (pem, der, raw, jwk, pkcs8)\n",
				o->format);
			return 2;
		}
		err = rind_client_get_public(c, o->pos[1], fmt, &buf, &len);
		if (err)
			return report(c, "key pub", err);
		err = write_output(o->out, buf, len);
		if (!err && !o->out && fmt == RIND_CLIENT_JWK && (!len || buf[len - 1] != '\n'))
			err = write_output(NULL, "\n", 1);
		free(buf);
		return err ? 1 : 0;
	}
	if (!strcmp(sub, "ref"))
		return cmd_key_ref(c, o);
	if (!strcmp(sub, "delete")) {
		if (need_pos(o, 2, "key delete NAME"))
			return 2;
		err = rind_client_delete_key(c, o->pos[1]);
		if (err)
			return report(c, "key delete", err);
		return 0;
	}
	fprintf(stderr, "usage: rind key create|import|list|pub|delete ...\n");
	return 2;
}

static int cmd_data(struct rind_client *c, const char *cmd, struct opts *o)
{
	uint8_t *in = NULL, *out = NULL;
	size_t inlen, outlen = 0;
	const char *ad = o->ad ? o->ad : "";
	char what[128];
	int err;

	snprintf(what, sizeof(what), "%s %s", cmd, o->npos ? o->pos[0] : "");
	if (o->npos != 1) {
		fprintf(stderr, "usage: rind %s NAME [--in FILE] [--out FILE]\n", cmd);
		return 2;
	}
	if (!strcmp(cmd, "derive")) {
		if (!o->peer) {
			fprintf(stderr, "rind: derive: --peer FILE (raw public key) is required\n");
			return 2;
		}
		if (read_input(o->peer, &in, &inlen))
			return 1;
	} else if (read_input(o->in, &in, &inlen)) {
		return 1;
	}
	if (!strcmp(cmd, "sign"))
		err = rind_client_sign(c, o->pos[0], in, inlen, &out, &outlen);
	else if (!strcmp(cmd, "seal"))
		err = rind_client_seal(c, o->pos[0], in, inlen, ad, strlen(ad), &out, &outlen);
	else if (!strcmp(cmd, "open"))
		err = rind_client_open(c, o->pos[0], in, inlen, ad, strlen(ad), &out, &outlen);
	else
		err = rind_client_derive(c, o->pos[0], in, inlen, &out, &outlen);
	free(in);
	if (err)
		return report(c, what, err);
	err = write_output(o->out, out, outlen);
	memset(out, 0, outlen);
	free(out);
	return err ? 1 : 0;
}

static int cmd_verify(struct rind_client *c, struct opts *o)
{
	uint8_t *msg, *sig;
	size_t mlen, slen;
	int err;

	if (o->npos != 1 || !o->sig) {
		fprintf(stderr, "usage: rind verify NAME --sig FILE [--in FILE]\n");
		return 2;
	}
	if (read_input(o->sig, &sig, &slen))
		return 2;
	if (read_input(o->in, &msg, &mlen)) {
		free(sig);
		return 2;
	}
	err = rind_client_verify(c, o->pos[0], msg, mlen, sig, slen);
	free(msg);
	free(sig);
	if (!err) {
		printf("valid\n");
		return 0;
	}
	if (err == -EBADMSG) {
		printf("invalid\n");
		return 1;
	}
	report(c, "verify", err);
	return 2;
}

static int cmd_stats(struct rind_client *c)
{
	struct rind_client_stats st;
	int err = rind_client_stats(c, &st);

	if (err)
		return report(c, "stats", err);
	printf("requests          %llu\n", (unsigned long long)st.requests);
	printf("errors            %llu\n", (unsigned long long)st.errors);
	printf("batches           %llu\n", (unsigned long long)st.batches);
	printf("batched_requests  %llu\n", (unsigned long long)st.batched_requests);
	printf("mean_batch        %.2f\n", st.batches ? (double)st.batched_requests / st.batches : 0.0);
	printf("max_batch         %llu\n", (unsigned long long)st.max_batch);
	printf("connections       %llu\n", (unsigned long long)st.connections);
	printf("keys              %llu\n", (unsigned long long)st.keys);
	printf("threads           %u\n", st.threads);
	return 0;
}

/* ---- bench-daemon ---- */

enum bench_op { BENCH_SIGN, BENCH_SEAL, BENCH_DERIVE };

struct bench_child {
	struct rind_client *c;
	const char *key;
	enum bench_op op;
	long client, requests, size;
	uint8_t *msg;			/* one message buffer, request index in front */
	uint64_t *t0;			/* submit times, ns */
	uint64_t *lat;			/* shared: this client's latencies */
	uint8_t *sigs;			/* Ed25519: 64 bytes per request */
	uint8_t *seen;
	long done, failures, dup;
	int first_err_printed;
	int ready_sent, done_sent;	/* told the parent: set up / timed phase over */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The message of request @i of client @client: distinct for every request
 * (client and index in front), the rest a fixed pattern written once per
 * buffer (@fresh) so that the client spends its time talking to rindd.
 */
static void bench_message(uint8_t *m, long size, long client, long i, bool fresh)
{
	long k;

	if (fresh || size < 16)
		for (k = 0; k < size; k++)
			m[k] = (uint8_t)(k * 131 + client * 7 + (size < 16 ? i : 0));
	if (size >= 16) {
		memcpy(m, &client, sizeof(client));
		memcpy(m + 8, &i, sizeof(i));
	}
}

/* The client of this process (bench_cb runs in the forked child). */
static struct bench_child *bench_self;

static void bench_cb(struct rind_client *c, const struct rind_client_result *r, void *user)
{
	struct bench_child *b = bench_self;
	long i = (long)(uintptr_t)user;

	(void)c;
	if (i < 0 || i >= b->requests || b->seen[i]) {
		b->dup++;
		return;
	}
	b->seen[i] = 1;
	b->done++;
	b->lat[i] = mono_ns() - b->t0[i];
	if (r->status) {
		b->failures++;
		if (!b->first_err_printed++)
			fprintf(stderr, "rind: bench client %ld: request %ld: %s (%s)\n", b->client, i,
				r->error ? r->error : "-", strerror(-r->status));
		return;
	}
	if (b->op == BENCH_SIGN) {
		if (r->len != 64) {
			b->failures++;
			return;
		}
		memcpy(b->sigs + 64 * i, r->data, 64);
	} else if (b->op == BENCH_SEAL && r->len != (size_t)b->size + 28) {
		b->failures++;
	} else if (b->op == BENCH_DERIVE && r->len != 32) {
		b->failures++;
	}
}

static int bench_submit(struct bench_child *b, long i)
{
	static const uint8_t peer[32] = { 9 };	/* the X25519 base point */

	bench_message(b->msg, b->size, b->client, i, i == 0);
	b->t0[i] = mono_ns();
	switch (b->op) {
	case BENCH_SIGN:
		return rind_client_submit_sign(b->c, b->key, b->msg, (size_t)b->size, bench_cb,
					       (void *)(uintptr_t)i, NULL);
	case BENCH_SEAL:
		return rind_client_submit_seal(b->c, b->key, b->msg, (size_t)b->size, NULL, 0,
					       bench_cb, (void *)(uintptr_t)i, NULL);
	default:
		return rind_client_submit_derive(b->c, b->key, peer, 32, bench_cb,
						 (void *)(uintptr_t)i, NULL);
	}
}

/* One client process: returns the exit status. */
static int bench_run_child(const char *sock, struct bench_child *b, long pipeline, int ready_fd,
			   int go_fd, int done_fd, int verify_fd, uint64_t *end_ns, long *verified)
{
	uint8_t pub[32];
	long next = 0, i;
	char ch = 1;
	int err;

	b->c = rind_client_connect(sock);
	if (!b->c) {
		fprintf(stderr, "rind: bench client %ld: connect: %s\n", b->client, strerror(errno));
		return 1;
	}
	rind_client_set_max_inflight(b->c, (unsigned int)(pipeline > 1000 ? 1000 : pipeline));
	if (b->op == BENCH_SIGN) {
		uint8_t *p;
		size_t n;

		err = rind_client_get_public(b->c, b->key, RIND_CLIENT_RAW, &p, &n);
		if (err || n != 32) {
			fprintf(stderr, "rind: bench client %ld: public key: %s\n", b->client,
				rind_client_last_error(b->c));
			return 1;
		}
		memcpy(pub, p, 32);
		free(p);
	}
	b->msg = malloc((size_t)b->size + 16);
	b->t0 = calloc((size_t)b->requests, sizeof(*b->t0));
	b->seen = calloc((size_t)b->requests, 1);
	b->sigs = b->op == BENCH_SIGN ? malloc((size_t)b->requests * 64) : NULL;
	if (!b->msg || !b->t0 || !b->seen || (b->op == BENCH_SIGN && !b->sigs))
		return 1;
	bench_self = b;
	b->ready_sent = 1;
	if (write(ready_fd, &ch, 1) != 1)
		return 1;
	while (read(go_fd, &ch, 1) < 0 && errno == EINTR)
		;
	while (b->done < b->requests) {
		/* what the window allows goes out in one write */
		rind_client_cork(b->c);
		while (next < b->requests && (long)rind_client_inflight(b->c) < pipeline) {
			err = bench_submit(b, next++);
			if (err) {
				fprintf(stderr, "rind: bench client %ld: submit: %s\n", b->client,
					strerror(-err));
				return 1;
			}
		}
		rind_client_uncork(b->c);
		err = rind_client_poll(b->c, 10000);
		if (err < 0) {
			fprintf(stderr, "rind: bench client %ld: %s (%s)\n", b->client,
				rind_client_last_error(b->c), strerror(-err));
			return 1;
		}
		if (err == 0 && rind_client_inflight(b->c)) {
			fprintf(stderr, "rind: bench client %ld: no response for 10 s\n", b->client);
			return 1;
		}
	}
	*end_ns = mono_ns();
	/*
	 * Verification is the test's work, not the daemon's: wait until every
	 * client is done, so that it does not take CPU from the timed phase.
	 */
	b->done_sent = 1;
	if (write(done_fd, &ch, 1) != 1)
		return 1;
	while (read(verify_fd, &ch, 1) < 0 && errno == EINTR)
		;
	if (b->op == BENCH_SIGN) {
		for (i = 0; i < b->requests; i++) {
			if (!b->seen[i])
				continue;
			bench_message(b->msg, b->size, b->client, i, i == 0);
			if (rind_ed25519_verify(b->sigs + 64 * i, b->msg, (size_t)b->size, pub)) {
				if (!b->failures++)
					fprintf(stderr, "rind: bench client %ld: signature %ld does not verify\n",
						b->client, i);
			} else {
				(*verified)++;
			}
		}
	}
	rind_client_close(b->c);
	return b->failures || b->dup ? 1 : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct bench_shared {
	uint64_t end_ns;
	long verified;
};

static int cmd_bench(const char *sock, struct opts *o)
{
	long clients = o->clients ? o->clients : 8, requests = o->requests ? o->requests : 10000;
	long pipeline = o->pipeline ? o->pipeline : 16, size = o->size ? o->size : 1024;
	struct rind_client_stats s0, s1;
	struct rind_client *c;
	struct bench_shared *sh;
	uint64_t *lat, start, end = 0;
	int ready[2], go[2], done[2], verify[2], status, failed = 0, made_key = 0;
	long i, verified = 0, total;
	const char *alg = o->alg;
	char keyname[64];
	enum bench_op op;
	pid_t *pids;
	char ch = 0;
	int err;

	if (!alg) {
		fprintf(stderr, "usage: rind bench-daemon --alg ed25519|aes-256-gcm|x25519 [--clients N] "
			"[--requests M] [--pipeline K] [--size BYTES] [--key NAME]\n");
		return 2;
	}
	if (!strcmp(alg, "ed25519")) {
		op = BENCH_SIGN;
	} else if (!strcmp(alg, "aes-256-gcm")) {
		op = BENCH_SEAL;
	} else if (!strcmp(alg, "x25519")) {
		op = BENCH_DERIVE;
	} else {
		fprintf(stderr, "rind: bench-daemon: --alg %s: ed25519, aes-256-gcm or x25519\n", alg);
		return 2;
	}
	if (clients < 1 || clients > 4096 || requests < 1 || pipeline < 1) {
		fprintf(stderr, "rind: bench-daemon: --clients 1..4096, --requests and --pipeline >= 1\n");
		return 2;
	}
	c = cli_connect(sock);
	if (!c)
		return 1;
	if (o->key) {
		snprintf(keyname, sizeof(keyname), "%s", o->key);
	} else {
		snprintf(keyname, sizeof(keyname), "bench-%s-%d", alg, (int)getpid());
		err = rind_client_create_key(c, keyname, alg, false, NULL);
		if (err) {
			report(c, "bench-daemon: create key", err);
			rind_client_close(c);
			return 1;
		}
		made_key = 1;
	}
	total = clients * requests;
	lat = mmap(NULL, (size_t)total * sizeof(*lat), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	sh = mmap(NULL, (size_t)clients * sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc((size_t)clients, sizeof(*pids));
	if (lat == MAP_FAILED || sh == MAP_FAILED || !pids || pipe(ready) || pipe(go) ||
	    pipe(done) || pipe(verify)) {
		fprintf(stderr, "rind: bench-daemon: out of memory\n");
		return 1;
	}
	err = rind_client_stats(c, &s0);
	if (err)
		return report(c, "stats", err);
	fflush(NULL);
	for (i = 0; i < clients; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("rind: fork");
			clients = i;
			failed = 1;
			break;
		}
		if (pids[i] == 0) {
			struct bench_child b = {
				.key = keyname, .op = op, .client = i, .requests = requests,
				.size = size, .lat = lat + i * requests,
			};

			close(ready[0]);
			close(go[1]);
			close(done[0]);
			close(verify[1]);
			int rc = bench_run_child(sock, &b, pipeline, ready[1], go[0], done[1],
						 verify[0], &sh[i].end_ns, &sh[i].verified);

			/* a failed client still counts as ready and done for the parent */
			if (!b.ready_sent && write(ready[1], &ch, 1) != 1)
				rc = 1;
			if (!b.done_sent && write(done[1], &ch, 1) != 1)
				rc = 1;
			_exit(rc);
		}
	}
	close(ready[1]);
	close(go[0]);
	for (i = 0; i < clients; i++)
		if (read(ready[0], &ch, 1) != 1)
			break;	/* a child failed before it was ready */
	start = mono_ns();
	close(go[1]);
	close(done[1]);
	close(verify[0]);
	for (i = 0; i < clients; i++)
		if (read(done[0], &ch, 1) != 1)
			break;	/* a child failed */
	close(done[0]);
	err = rind_client_stats(c, &s1);
	close(verify[1]);
	for (i = 0; i < clients; i++) {
		if (waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			failed = 1;
		if (sh[i].end_ns > end)
			end = sh[i].end_ns;
		verified += sh[i].verified;
	}
	close(ready[0]);
	if (made_key)
		rind_client_delete_key(c, keyname);
	if (err)
		return report(c, "stats", err);
	qsort(lat, (size_t)total, sizeof(*lat), cmp_u64);
	printf("bench-daemon: %s %s, %ld-byte messages, %ld clients x %ld requests, pipeline %ld\n",
	       alg, op == BENCH_SIGN ? "sign" : op == BENCH_SEAL ? "seal" : "derive",
	       op == BENCH_DERIVE ? 32L : size, clients, requests, pipeline);
	if (end > start)
		printf("  requests/s    %.0f  (%ld requests in %.3f s)\n",
		       (double)total * 1e9 / (double)(end - start), total, (double)(end - start) / 1e9);
	printf("  latency       p50 %.3f ms  p99 %.3f ms  max %.3f ms\n",
	       lat[total / 2] / 1e6, lat[(total * 99) / 100] / 1e6, lat[total - 1] / 1e6);
	printf("  batches       %llu  mean batch %.2f  max batch %llu (daemon-wide, during this run)\n",
	       (unsigned long long)(s1.batches - s0.batches),
	       s1.batches > s0.batches ? (double)(s1.batched_requests - s0.batched_requests) /
					 (double)(s1.batches - s0.batches) : 0.0,
	       (unsigned long long)s1.max_batch);
	printf("  daemon        %u threads, %llu errors during this run\n", s1.threads,
	       (unsigned long long)(s1.errors - s0.errors));
	if (op == BENCH_SIGN)
		printf("  verified      %ld of %ld signatures in-process (rind_ed25519_verify)\n",
		       verified, total);
	if (failed)
		printf("  FAILED: a client reported errors (see above)\n");
	rind_client_close(c);
	munmap(lat, (size_t)total * sizeof(*lat));
	munmap(sh, (size_t)clients * sizeof(*sh));
	free(pids);
	return failed || (op == BENCH_SIGN && verified != total) ? 1 : 0;
}

static int daemon_cmd(const char *sock, int argc, char **argv)
{
	struct opts o = { 0 };
	struct rind_client *c;
	const char *cmd = argv[0];
	int ret;

	if (parse_opts(argc - 1, argv + 1, &o))
		return 2;
	if (o.socket)
		sock = o.socket;
	if (!strcmp(cmd, "bench-daemon"))
		return cmd_bench(sock, &o);
	c = cli_connect(sock);
	if (!c)
		return !strcmp(cmd, "verify") ? 2 : 1;
	if (!strcmp(cmd, "key")) {
		ret = cmd_key(c, &o);
	} else if (!strcmp(cmd, "verify")) {
		ret = cmd_verify(c, &o);
	} else if (!strcmp(cmd, "stats")) {
		ret = cmd_stats(c);
	} else if (!strcmp(cmd, "ping")) {
		char *v;
		int err = rind_client_hello(c, &v);

		ret = err ? report(c, "ping", err) : (printf("%s\n", v), free(v), 0);
	} else {
		ret = cmd_data(c, cmd, &o);
	}
	rind_client_close(c);
	return ret;
}

int main(int argc, char **argv)
{
	const char *sock = NULL;

	while (argc > 2 && !strcmp(argv[1], "--socket")) {
		sock = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc > 1 && !strncmp(argv[1], "--socket=", 9)) {
		sock = argv[1] + 9;
		argv++;
		argc--;
	}
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
	if (is_daemon_cmd(argv[1]))
		return daemon_cmd(sock, argc - 1, argv + 1);
	fprintf(stderr, "rind: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
