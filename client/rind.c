// SPDX-License-Identifier: MIT
/*
 * rind: the command-line tool.  `rind list` prints the registry like
 * /proc/crypto; `rind features` shows the CPU features rind sees and which
 * RIND_DISABLE masks.  The daemon commands (key, sign, verify, seal, open,
 * derive, stats, bench-daemon) talk to rindd through librind-client.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
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
		"  key create NAME --alg|--type TYPE [--usage sign|decrypt] [--exportable]\n"
		"                  TYPE: ed25519, ecdsa-p256|p384|p521, rsa-2048|3072|4096, mldsa44|\n"
		"                  65|87 (signing; RSA --usage decrypt for OAEP), x25519, ecdh-p256|p384|p521,\n"
		"                  mlkem768, mlkem1024, x25519mlkem768, aes-256-gcm, aes-128-gcm,\n"
		"                  chacha20-poly1305\n"
		"  key import NAME [--type TYPE] [--usage U] [--in FILE] [--format raw|pkcs8|pem|jwk]\n"
		"                  [--exportable]   PKCS#8, SEC1, PKCS#1 (DER or PEM), JWK: the type\n"
		"                  is detected; raw keys need --type\n"
		"  key list [--all]                         --all: also key files that failed to load\n"
		"  key pub NAME [--format pem|der|raw|jwk|pkcs8] [--out FILE]\n"
		"  key delete NAME\n"
		"  sign NAME [--in FILE] [--out FILE] [--hash sha256|sha384|sha512]\n"
		"           [--sig-format der|p1363] [--padding pkcs1|pss]   signature bytes\n"
		"  verify NAME --sig FILE [--in FILE] [the sign options]   exit 0 valid, 1 invalid, 2 error\n"
		"  seal NAME [--in FILE] [--out FILE] [--ad STRING]   nonce||ciphertext||tag\n"
		"  open NAME [--in FILE] [--out FILE] [--ad STRING]\n"
		"  derive NAME --peer FILE [--out FILE]     X25519/ECDH; peer raw, SPKI DER or PEM\n"
		"  decrypt NAME [--in FILE] [--out FILE] [--hash H]   RSA-OAEP (usage decrypt keys)\n"
		"  decap NAME [--in FILE] [--out FILE]      ML-KEM shared secret of a ciphertext\n"
		"                  (the peer encapsulates to `key pub NAME --format raw`)\n"
		"  ping                                     daemon version\n"
		"  stats                                    daemon counters and batching\n"
		"key administration (root and the key's owner; no D-Bus needed):\n"
		"  key rotate NAME                          a new current version\n"
		"  key retire NAME --below V                retire the versions below V\n"
		"  key access NAME [--allow-uid U] [--allow-gid G] [--deny-uid U] [--deny-gid G]\n"
		"             [--allow uid:U|gid:G] [--deny uid:U|gid:G] [--clear]\n"
		"                                           change (or show) who may use the key\n"
		"  (key list shows each key's VERSION, LIVE versions, CREATED and ROTATED times)\n"
		"  bench-daemon --alg ALG [--clients N] [--requests M] [--pipeline K]   ALG: ed25519,\n"
		"               ecdsa-p256|p384|p521, rsa-2048|3072|4096, aes-256-gcm, x25519\n"
		"               [--size BYTES] [--key NAME]\n"
		"                  N processes, M requests each, K in flight per connection;\n"
		"                  requests/s, p50/p99 latency, mean batch size; every\n"
		"                  signature is verified in-process afterwards\n"
		"  stdin/stdout by default; errors exit 1 (verify: 2)\n"
		"  rind COMMAND --help, rind key SUBCOMMAND --help: that command's usage\n",
		RIND_CLIENT_DEFAULT_SOCKET);
}

/* ---- daemon commands ---- */

static const char *const daemon_cmds[] = {
	"key", "sign", "verify", "seal", "open", "derive", "stats", "ping", "bench-daemon",
	"decrypt", "decap",
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
	const char *usage, *hash, *sig_format, *padding;
	long clients, requests, pipeline, size;
	int exportable;
	int all;
	const char *pos[4];
	int npos;
};

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const char *const with_arg[] = {
		"socket", "alg", "in", "out", "sig", "format", "ad", "peer", "key",
		"clients", "requests", "pipeline", "size",
		"type", "usage", "hash", "sig-format", "padding",
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
		if (!strcmp(name, "all")) {
			o->all = 1;
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
		else if (!strcmp(name, "type")) o->alg = val;	/* a synonym of --alg */
		else if (!strcmp(name, "usage")) o->usage = val;
		else if (!strcmp(name, "hash")) o->hash = val;
		else if (!strcmp(name, "sig-format")) o->sig_format = val;
		else if (!strcmp(name, "padding")) o->padding = val;
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

static void fmt_time(uint64_t secs, char *buf, size_t len)
{
	time_t t = (time_t)secs;
	struct tm tm;

	snprintf(buf, len, "-");
	if (secs && gmtime_r(&t, &tm))
		strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/*
 * `rind key list`: one line per key.  VERSION is the current version,
 * LIVE the versions verify/open still accept, CREATED when the oldest
 * live version was made (the key's creation until versions are retired),
 * ROTATED when the current one was ("-": never rotated).
 */
static void print_key_list(const struct rind_client_key_info *k, size_t n)
{
	size_t i;

	printf("%-32s %-17s %7s %-9s %6s %10s %-20s %-20s %s\n", "NAME", "ALGORITHM", "VERSION",
	       "LIVE", "OWNER", "EXPORTABLE", "CREATED", "ROTATED", "USAGE");
	for (i = 0; i < n; i++) {
		uint32_t lo = k[i].min_version ? k[i].min_version : 1;
		uint64_t first = k[i].n_versions ? k[i].versions[0].created : k[i].created;
		char created[32], rotated[32] = "-", live[24];

		fmt_time(first, created, sizeof(created));
		if (k[i].version > 1)
			fmt_time(k[i].created, rotated, sizeof(rotated));
		snprintf(live, sizeof(live), "%u-%u", (unsigned int)lo, (unsigned int)k[i].version);
		printf("%-32s %-17s %7u %-9s %6u %10s %-20s %-20s %s\n", k[i].name, k[i].algorithm,
		       (unsigned int)k[i].version, live, (unsigned int)k[i].owner_uid,
		       k[i].exportable ? "yes" : "no", created, rotated,
		       k[i].usage[0] ? k[i].usage : "-");
	}
}

static int need_pos(const struct opts *o, int n, const char *usage_line)
{
	if (o->npos != n) {
		fprintf(stderr, "usage: rind %s\n", usage_line);
		return -1;
	}
	return 0;
}

/* key list --all: the key files that did not load, and why. */
static int list_failed(struct rind_client *c)
{
	struct rind_client_failed_key *f;
	size_t n, i;
	int err = rind_client_list_failed(c, &f, &n);

	if (err)
		return report(c, "key list --all", err);
	if (n) {
		printf("\nkey files that failed to load (rind key delete NAME removes one):\n");
		printf("%-32s %-12s %s\n", "NAME", "STATE", "REASON");
	}
	for (i = 0; i < n; i++)
		printf("%-32s %-12s %s%s%s\n", f[i].name, "failed", f[i].reason,
		       f[i].file[0] ? " -- file " : "", f[i].file);
	free(f);
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

/* The input looks like @fmt: PEM armour, a JSON object, a DER SEQUENCE. */
static bool import_has_format(const uint8_t *buf, size_t len, enum rind_client_format fmt)
{
	size_t i = 0;

	if (fmt == RIND_CLIENT_PEM || fmt == RIND_CLIENT_JWK)
		while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
			i++;
	if (fmt == RIND_CLIENT_PEM)
		return len - i >= 11 && !memcmp(buf + i, "-----BEGIN ", 11);
	if (fmt == RIND_CLIENT_JWK)
		return i < len && buf[i] == '{';
	return len >= 2 && buf[0] == 0x30;	/* PKCS#8, SEC1, PKCS#1, SPKI: a SEQUENCE */
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

		if (need_pos(o, 2, "key create NAME --type TYPE [--usage sign|decrypt] [--exportable]"))
			return 2;
		if (!o->alg) {
			fprintf(stderr, "rind: key create: --type (or --alg) is required: ed25519, "
				"ecdsa-p256, ecdsa-p384, ecdsa-p521, rsa-2048, rsa-3072, rsa-4096, mldsa44, "
				"mldsa65, mldsa87, x25519, "
				"ecdh-p256, ecdh-p384, ecdh-p521, mlkem768, mlkem1024, x25519mlkem768, "
				"aes-256-gcm, aes-128-gcm, chacha20-poly1305\n");
			return 2;
		}
		err = rind_client_create_key_usage(c, o->pos[1], o->alg, o->usage, o->exportable, &ki);
		if (err)
			return report(c, "key create", err);
		printf("created %s (%s)\n", ki.name[0] ? ki.name : o->pos[1],
		       ki.algorithm[0] ? ki.algorithm : o->alg);
		return 0;
	}
	if (!strcmp(sub, "import")) {
		struct rind_client_key_info ki;

		if (need_pos(o, 2, "key import NAME [--type TYPE] [--in FILE] [--format raw|pkcs8|pem|jwk]"))
			return 2;
		/* no --format: the daemon detects the encoding (and, without --type, the type) */
		fmt = RIND_CLIENT_PEM;
		if (o->format && rind_client_format_parse(o->format, &fmt)) {
			fprintf(stderr, "rind: unknown format '%s'\n", o->format);
			return 2;
		}
		if (fmt == RIND_CLIENT_RAW && !o->alg) {
			fprintf(stderr, "rind: key import: a raw key needs --type\n");
			return 2;
		}
		if (read_input(o->in, &buf, &len))
			return 1;
		/*
		 * A format named with --format is one the data must have (the
		 * daemon detects the encoding, and 32 random bytes "as PEM"
		 * would otherwise import as a raw 32-byte key).
		 */
		if (o->format && fmt != RIND_CLIENT_RAW && !import_has_format(buf, len, fmt)) {
			fprintf(stderr, "rind: key import: --format %s given, but the input is not %s\n",
				o->format, fmt == RIND_CLIENT_PEM ? "PEM" : fmt == RIND_CLIENT_JWK ?
				"a JWK object" : "DER");
			memset(buf, 0, len);
			free(buf);
			return 2;
		}
		err = rind_client_import_key_usage(c, o->pos[1], o->alg, o->usage, buf, len, fmt,
						   o->exportable, &ki);
		memset(buf, 0, len);
		free(buf);
		if (err)
			return report(c, "key import", err);
		printf("imported %s (%s%s%s)\n", o->pos[1], ki.algorithm[0] ? ki.algorithm : o->alg,
		       ki.usage[0] ? ", usage " : "", ki.usage);
		return 0;
	}
	if (!strcmp(sub, "list")) {
		struct rind_client_key_info *k;
		size_t n;

		if (need_pos(o, 1, "key list"))
			return 2;
		err = rind_client_list_keys(c, &k, &n);
		if (err)
			return report(c, "key list", err);
		print_key_list(k, n);
		free(k);
		if (o->all)
			return list_failed(c);
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
	fprintf(stderr, "usage: rind key create|import|list|pub|delete|rotate|retire|access ... "
		"(rind key --help)\n");
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
	if (!strcmp(cmd, "sign")) {
		struct rind_client_sig_opts so = { o->hash, o->sig_format, o->padding };

		err = rind_client_sign_opts(c, o->pos[0], in, inlen, &so, &out, &outlen);
	} else if (!strcmp(cmd, "decrypt"))
		err = rind_client_decrypt(c, o->pos[0], in, inlen, o->hash, &out, &outlen);
	else if (!strcmp(cmd, "decap"))
		err = rind_client_decap(c, o->pos[0], in, inlen, &out, &outlen);
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
	{
		struct rind_client_sig_opts so = { o->hash, o->sig_format, o->padding };

		err = rind_client_verify_opts(c, o->pos[0], msg, mlen, sig, slen, &so);
	}
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
	printf("keys              %llu%s\n", (unsigned long long)st.keys,
	       st.all_keys ? " (all)" : " (yours)");
	if (st.max_keys || st.max_keys_per_uid)
		printf("key_quota         %u total, %u per uid\n", st.max_keys, st.max_keys_per_uid);
	printf("threads           %u\n", st.threads);
	{
		struct rind_client_type_stats *v;
		size_t n, i;

		err = rind_client_type_stats(c, &v, &n);
		if (err)
			return report(c, "stats", err);
		if (n)
			printf("%-18s %12s %10s %10s %9s %5s %10s\n", "TYPE", "REQUESTS", "BATCHES",
			       "MEAN_BATCH", "MAX_BATCH", "LANES", "MEAN_LANES");
		for (i = 0; i < n; i++)
			printf("%-18s %12llu %10llu %10.2f %9llu %5u %10.2f\n", v[i].algorithm,
			       (unsigned long long)v[i].requests, (unsigned long long)v[i].batches,
			       v[i].batches ? (double)v[i].batched_requests / (double)v[i].batches : 0.0,
			       (unsigned long long)v[i].max_batch, v[i].lanes ? v[i].lanes : 1,
			       v[i].passes ? (double)v[i].batched_requests / (double)v[i].passes : 0.0);
		free(v);
	}
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
	uint8_t *sigs;			/* sigmax bytes per request */
	uint16_t *siglens;
	unsigned int sigmax;		/* 64 for Ed25519, else 512 */
	const char *verify_alg;		/* ECDSA, RSA: the library's name to verify with */
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
		if ((b->verify_alg ? r->len > b->sigmax : r->len != 64) || !r->len) {
			b->failures++;
			return;
		}
		memcpy(b->sigs + (size_t)b->sigmax * i, r->data, r->len);
		b->siglens[i] = (uint16_t)r->len;
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
	struct crypto_sig *vtfm = NULL;
	long next = 0, i;
	char ch = 1;
	int err;

	b->c = rind_client_connect(sock);
	if (!b->c) {
		fprintf(stderr, "rind: bench client %ld: connect: %s\n", b->client, strerror(errno));
		return 1;
	}
	rind_client_set_max_inflight(b->c, (unsigned int)(pipeline > 1000 ? 1000 : pipeline));
	if (b->op == BENCH_SIGN && b->verify_alg) {
		uint8_t *p;
		size_t n;

		/* ECDSA / RSA: verified with the library, from the SPKI */
		err = rind_client_get_public(b->c, b->key, RIND_CLIENT_SPKI_DER, &p, &n);
		vtfm = err ? NULL : crypto_alloc_sig(b->verify_alg, 0, 0);
		if (err || IS_ERR(vtfm) || crypto_sig_set_pubkey(vtfm, p, (unsigned int)n)) {
			fprintf(stderr, "rind: bench client %ld: public key: %s\n", b->client,
				rind_client_last_error(b->c));
			return 1;
		}
		free(p);
	} else if (b->op == BENCH_SIGN) {
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
	b->sigs = b->op == BENCH_SIGN ? malloc((size_t)b->requests * b->sigmax) : NULL;
	b->siglens = b->op == BENCH_SIGN ? calloc((size_t)b->requests, sizeof(*b->siglens)) : NULL;
	if (!b->msg || !b->t0 || !b->seen || (b->op == BENCH_SIGN && (!b->sigs || !b->siglens)))
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
			if (vtfm ? crypto_sig_verify(vtfm, b->sigs + (size_t)b->sigmax * i, b->siglens[i],
						     b->msg, (unsigned int)b->size) :
			    rind_ed25519_verify(b->sigs + 64 * i, b->msg, (size_t)b->size, pub)) {
				if (!b->failures++)
					fprintf(stderr, "rind: bench client %ld: signature %ld does not verify\n",
						b->client, i);
			} else {
				(*verified)++;
			}
		}
	}
	if (vtfm)
		crypto_free_sig(vtfm);
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

/*
 * SIGINT/SIGTERM during bench-daemon: the clients are stopped and the key
 * the run created is deleted before exiting (128 + the signal), so an
 * interrupted benchmark leaves nothing in the daemon.  The handler only
 * records the signal and kills the clients (async-signal-safe); blocking
 * calls return EINTR and the run unwinds.
 */
static volatile sig_atomic_t bench_sig;
static pid_t *volatile bench_pids;
static volatile long bench_npids;

static void bench_on_signal(int sig)
{
	long i;

	bench_sig = sig;
	for (i = 0; bench_pids && i < bench_npids; i++)
		if (bench_pids[i] > 0)
			kill(bench_pids[i], SIGTERM);
}

static void bench_signals(bool install)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = install ? bench_on_signal : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: a blocking read returns EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Delete the run's key (if it made one); the exit status of an interrupted run. */
static int bench_cleanup(struct rind_client *c, const char *keyname, int made_key, int rc)
{
	if (made_key && c) {
		int err = rind_client_delete_key(c, keyname);

		if (err && err != -ENOENT)
			report(c, "bench-daemon: delete key", err);
		else if (bench_sig)
			fprintf(stderr, "rind: bench-daemon: interrupted (%s); key %s deleted\n",
				bench_sig == SIGINT ? "SIGINT" : "SIGTERM", keyname);
	} else if (bench_sig) {
		fprintf(stderr, "rind: bench-daemon: interrupted (%s)\n",
			bench_sig == SIGINT ? "SIGINT" : "SIGTERM");
	}
	rind_client_close(c);
	return bench_sig ? 128 + bench_sig : rc;
}

static int cmd_bench(const char *sock, struct opts *o)
{
	long clients = o->clients ? o->clients : 8, requests = o->requests ? o->requests : 10000;
	long pipeline = o->pipeline ? o->pipeline : 16, size = o->size ? o->size : 1024;
	struct rind_client_stats s0, s1;
	struct rind_client *c;
	struct bench_shared *sh;
	uint64_t *lat, start, end = 0;
	int ready[2], go[2], done[2], verify[2], status, failed = 0, made_key = 0;
	long i, verified = 0, total, nmapped;
	const char *alg = o->alg, *verify_alg = NULL;
	char keyname[64];
	enum bench_op op;
	pid_t *pids;
	char ch = 0;
	int err;

	if (!alg) {
		fprintf(stderr, "usage: rind bench-daemon --alg ed25519|ecdsa-p256|ecdsa-p384|ecdsa-p521|"
			"rsa-2048|rsa-3072|rsa-4096|aes-256-gcm|x25519 [--clients N] "
			"[--requests M] [--pipeline K] [--size BYTES] [--key NAME]\n");
		return 2;
	}
	if (!strcmp(alg, "ed25519")) {
		op = BENCH_SIGN;
	} else if (!strncmp(alg, "ecdsa-p", 7) || !strncmp(alg, "rsa-", 4)) {
		/* signed with each type's default (SHA-256/384/512 by curve, PKCS#1 v1.5) */
		op = BENCH_SIGN;
		verify_alg = !strcmp(alg, "ecdsa-p256") ? "x962(ecdsa-nist-p256,sha256)" :
			     !strcmp(alg, "ecdsa-p384") ? "x962(ecdsa-nist-p384,sha384)" :
			     !strcmp(alg, "ecdsa-p521") ? "x962(ecdsa-nist-p521,sha512)" :
			     "pkcs1(rsa,sha256)";
	} else if (!strcmp(alg, "aes-256-gcm")) {
		op = BENCH_SEAL;
	} else if (!strcmp(alg, "x25519")) {
		op = BENCH_DERIVE;
	} else {
		fprintf(stderr, "rind: bench-daemon: --alg %s: ed25519, ecdsa-p256|p384|p521, "
			"rsa-2048|3072|4096, aes-256-gcm or x25519\n", alg);
		return 2;
	}
	if (clients < 1 || clients > 4096 || requests < 1 || pipeline < 1) {
		fprintf(stderr, "rind: bench-daemon: --clients 1..4096, --requests and --pipeline >= 1\n");
		return 2;
	}
	c = cli_connect(sock);
	if (!c)
		return 1;
	{
		/* the handlers go in before the key exists; a signal waits until they do */
		sigset_t set, old;

		sigemptyset(&set);
		sigaddset(&set, SIGINT);
		sigaddset(&set, SIGTERM);
		sigprocmask(SIG_BLOCK, &set, &old);
		bench_signals(true);
		if (o->key) {
			snprintf(keyname, sizeof(keyname), "%s", o->key);
		} else {
			snprintf(keyname, sizeof(keyname), "bench-%s-%d", alg, (int)getpid());
			err = rind_client_create_key(c, keyname, alg, false, NULL);
			if (err) {
				report(c, "bench-daemon: create key", err);
				sigprocmask(SIG_SETMASK, &old, NULL);
				return bench_cleanup(c, keyname, 0, 1);
			}
			made_key = 1;
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	total = clients * requests;
	nmapped = clients;
	lat = mmap(NULL, (size_t)total * sizeof(*lat), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	sh = mmap(NULL, (size_t)clients * sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc((size_t)clients, sizeof(*pids));
	if (lat == MAP_FAILED || sh == MAP_FAILED || !pids || pipe(ready) || pipe(go) ||
	    pipe(done) || pipe(verify)) {
		fprintf(stderr, "rind: bench-daemon: out of memory\n");
		return bench_cleanup(c, keyname, made_key, 1);
	}
	err = rind_client_stats(c, &s0);
	if (err) {
		report(c, "stats", err);
		return bench_cleanup(c, keyname, made_key, 1);
	}
	fflush(NULL);
	bench_pids = pids;
	for (i = 0; i < clients && !bench_sig; i++) {
		bench_npids = i;
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
				.sigmax = verify_alg ? 512 : 64, .verify_alg = verify_alg,
			};

			bench_signals(false);
			prctl(PR_SET_PDEATHSIG, SIGTERM);	/* the parent died: stop too */
			if (getppid() == 1 || bench_sig)
				_exit(1);
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
	bench_npids = clients;
	if (bench_sig)
		clients = bench_npids = i;	/* the ones started before the signal */
	close(ready[1]);
	close(go[0]);
	for (i = 0; i < clients && !bench_sig; i++)
		if (read(ready[0], &ch, 1) != 1)
			break;	/* a child failed before it was ready (or a signal came) */
	start = mono_ns();
	close(go[1]);
	close(done[1]);
	close(verify[0]);
	for (i = 0; i < clients && !bench_sig; i++)
		if (read(done[0], &ch, 1) != 1)
			break;	/* a child failed (or a signal came) */
	close(done[0]);
	err = bench_sig ? 0 : rind_client_stats(c, &s1);
	close(verify[1]);
	for (i = 0; i < clients; i++) {
		pid_t r;

		if (bench_sig)
			kill(pids[i], SIGTERM);
		while ((r = waitpid(pids[i], &status, 0)) < 0 && errno == EINTR)
			kill(pids[i], SIGTERM);
		if (r < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			failed = 1;
		if (sh[i].end_ns > end)
			end = sh[i].end_ns;
		verified += sh[i].verified;
	}
	close(ready[0]);
	bench_pids = NULL;
	if (bench_sig || err) {
		if (err)
			report(c, "stats", err);
		munmap(lat, (size_t)total * sizeof(*lat));
		munmap(sh, (size_t)nmapped * sizeof(*sh));
		free(pids);
		return bench_cleanup(c, keyname, made_key, 1);
	}
	if (made_key)
		rind_client_delete_key(c, keyname);
	bench_signals(false);
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
		printf("  verified      %ld of %ld signatures in-process (%s)\n", verified, total,
		       verify_alg ? verify_alg : "rind_ed25519_verify");
	if (failed)
		printf("  FAILED: a client reported errors (see above)\n");
	rind_client_close(c);
	munmap(lat, (size_t)total * sizeof(*lat));
	munmap(sh, (size_t)clients * sizeof(*sh));
	free(pids);
	return failed || (op == BENCH_SIGN && verified != total) ? 1 : 0;
}

/* ---- key rotate, retire, access: options of their own ---- */

static const char *const key_admin_subs[] = { "rotate", "retire", "access" };

static int is_key_admin(const char *sub)
{
	size_t i;

	for (i = 0; i < sizeof(key_admin_subs) / sizeof(key_admin_subs[0]); i++)
		if (!strcmp(sub, key_admin_subs[i]))
			return 1;
	return 0;
}

/* A growing list of ids. */
struct idlist {
	uint32_t *v;
	size_t n, cap;
};

static int idlist_add(struct idlist *l, uint32_t id)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		uint32_t *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = id;
	return 0;
}

/* A uid (@group false) or gid: a number, or a user or group name. */
static int parse_id(const char *s, bool group, uint32_t *id)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s && *s != '-' && !*end && !errno) {
		if (v >= UINT32_MAX) {
			fprintf(stderr, "rind: %s %s is out of range (0..4294967294)\n",
				group ? "gid" : "uid", s);
			return -1;
		}
		*id = (uint32_t)v;
		return 0;
	}
	if (group) {
		struct group *g = *s ? getgrnam(s) : NULL;

		if (g) {
			*id = (uint32_t)g->gr_gid;
			return 0;
		}
	} else {
		struct passwd *p = *s ? getpwnam(s) : NULL;

		if (p) {
			*id = (uint32_t)p->pw_uid;
			return 0;
		}
	}
	fprintf(stderr, "rind: '%s' is neither a %s number nor a %s name\n", s,
		group ? "gid" : "uid", group ? "group" : "user");
	return -1;
}

/* "1001,alice" into @l. */
static int parse_ids(const char *s, bool group, struct idlist *l)
{
	char buf[256], *tok, *save = NULL;
	uint32_t id;

	if (strlen(s) >= sizeof(buf)) {
		fprintf(stderr, "rind: id list '%.32s...' is too long (repeat the option instead)\n", s);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	if (!*buf)
		return parse_id(buf, group, &id);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (parse_id(tok, group, &id) || idlist_add(l, id))
			return -1;
	}
	return 0;
}

/* --allow/--deny take "uid:U" or "gid:G" (a bare id is a uid). */
static int parse_tagged(const char *s, struct idlist *uids, struct idlist *gids)
{
	if (!strncmp(s, "uid:", 4))
		return parse_ids(s + 4, false, uids);
	if (!strncmp(s, "gid:", 4))
		return parse_ids(s + 4, true, gids);
	if (!strncmp(s, "user:", 5))
		return parse_ids(s + 5, false, uids);
	if (!strncmp(s, "group:", 6))
		return parse_ids(s + 6, true, gids);
	return parse_ids(s, false, uids);
}

static void print_ids(const char *what, const uint32_t *v, size_t n)
{
	size_t i;

	printf("%s:", what);
	if (!n)
		printf(" none");
	for (i = 0; i < n; i++)
		printf(" %u", (unsigned int)v[i]);
	printf("\n");
}

static int print_versions(const struct rind_client_key_info *ki)
{
	unsigned int i;

	for (i = 0; i < ki->n_versions; i++) {
		char when[32];

		fmt_time(ki->versions[i].created, when, sizeof(when));
		printf("  version %u  created %s%s\n", (unsigned int)ki->versions[i].version, when,
		       ki->versions[i].version == ki->version ? "  (current)" : "");
	}
	return 0;
}

/*
 * rind key rotate NAME
 * rind key retire NAME --below V
 * rind key access NAME [--allow-uid U]... [--allow-gid G]... [--deny-uid U]...
 *                      [--deny-gid G]... [--allow uid:U|gid:G] [--deny uid:U|gid:G] [--clear]
 */
static int cmd_key_admin(const char *sock, int argc, char **argv)
{
	struct idlist au = { 0 }, ag = { 0 }, du = { 0 }, dg = { 0 };
	const char *sub = argv[0], *name = NULL;
	struct rind_client_key_info ki;
	struct rind_client *c;
	long below = -1;
	bool clear = false;
	int i, err, ret = 2;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL, *eq = strchr(a, '=');
		char opt[32];
		size_t nl;

		if (strncmp(a, "--", 2) || !a[2]) {
			if (name) {
				fprintf(stderr, "rind: key %s: unexpected argument '%s'\n", sub, a);
				goto out;
			}
			name = a;
			continue;
		}
		nl = eq ? (size_t)(eq - a) : strlen(a);
		if (nl >= sizeof(opt)) {
			fprintf(stderr, "rind: key %s: unknown option '%s'\n", sub, a);
			goto out;
		}
		memcpy(opt, a, nl);
		opt[nl] = 0;
		if (!strcmp(opt, "--clear") && !strcmp(sub, "access") && !eq) {
			clear = true;
			continue;
		}
		if (strcmp(opt, "--socket") &&
		    !(!strcmp(sub, "retire") && !strcmp(opt, "--below")) &&
		    !(!strcmp(sub, "access") &&
		      (!strcmp(opt, "--allow-uid") || !strcmp(opt, "--allow-gid") ||
		       !strcmp(opt, "--deny-uid") || !strcmp(opt, "--deny-gid") ||
		       !strcmp(opt, "--allow") || !strcmp(opt, "--deny")))) {
			fprintf(stderr, "rind: key %s: unknown option '%s' (rind key %s --help)\n", sub, a,
				sub);
			goto out;
		}
		if (eq) {
			val = eq + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			fprintf(stderr, "rind: key %s: option %s needs a value\n", sub, opt);
			goto out;
		}
		if (!strcmp(opt, "--socket")) {
			sock = val;
		} else if (!strcmp(opt, "--below")) {
			char *end;

			errno = 0;
			below = strtol(val, &end, 10);
			if (errno || !*val || *end || below < 1 || below > (long)UINT32_MAX - 1) {
				fprintf(stderr, "rind: key retire: --below '%s' is not a version (1, 2, ...)\n",
					val);
				goto out;
			}
		} else if (!strcmp(opt, "--allow-uid")) {
			if (parse_ids(val, false, &au))
				goto out;
		} else if (!strcmp(opt, "--allow-gid")) {
			if (parse_ids(val, true, &ag))
				goto out;
		} else if (!strcmp(opt, "--deny-uid")) {
			if (parse_ids(val, false, &du))
				goto out;
		} else if (!strcmp(opt, "--deny-gid")) {
			if (parse_ids(val, true, &dg))
				goto out;
		} else if (!strcmp(opt, "--allow")) {
			if (parse_tagged(val, &au, &ag))
				goto out;
		} else if (parse_tagged(val, &du, &dg)) {
			goto out;
		}
	}
	if (!name) {
		fprintf(stderr, "usage: rind key %s NAME%s (rind key %s --help)\n", sub,
			!strcmp(sub, "retire") ? " --below V" : !strcmp(sub, "access") ?
			" [--allow-uid U] [--allow-gid G] [--deny-uid U] [--deny-gid G] [--clear]" : "",
			sub);
		goto out;
	}
	if (!strcmp(sub, "retire") && below < 0) {
		fprintf(stderr, "rind: key retire: --below V is required (versions below V are retired)\n");
		goto out;
	}
	ret = 1;
	c = cli_connect(sock);
	if (!c)
		goto out;
	if (!strcmp(sub, "rotate")) {
		err = rind_client_rotate_key(c, name, &ki);
		if (err) {
			ret = report(c, "key rotate", err);
		} else {
			printf("rotated %s: version %u (live versions %u-%u)\n", name,
			       (unsigned int)ki.version, (unsigned int)(ki.min_version ? ki.min_version : 1),
			       (unsigned int)ki.version);
			ret = print_versions(&ki);
		}
	} else if (!strcmp(sub, "retire")) {
		err = rind_client_retire_versions(c, name, (uint32_t)below, &ki);
		if (err) {
			ret = report(c, "key retire", err);
		} else {
			printf("%s: versions below %ld retired (live versions %u-%u)\n", name, below,
			       (unsigned int)(ki.min_version ? ki.min_version : (uint32_t)below),
			       (unsigned int)ki.version);
			ret = print_versions(&ki);
		}
	} else {
		struct rind_client_access a = {
			.allow_uids = au.v, .n_allow_uids = au.n, .allow_gids = ag.v, .n_allow_gids = ag.n,
			.deny_uids = du.v, .n_deny_uids = du.n, .deny_gids = dg.v, .n_deny_gids = dg.n,
			.replace = clear,
		};
		uint32_t *uids = NULL, *gids = NULL;
		size_t nu = 0, ng = 0;

		err = rind_client_set_access(c, name, &a, &uids, &nu, &gids, &ng);
		if (err) {
			ret = report(c, "key access", err);
		} else {
			printf("key %s (root and its owner always have access):\n", name);
			print_ids("allow uids", uids, nu);
			print_ids("allow gids", gids, ng);
			ret = 0;
		}
		free(uids);
		free(gids);
	}
	rind_client_close(c);
out:
	free(au.v);
	free(ag.v);
	free(du.v);
	free(dg.v);
	return ret;
}

static int daemon_cmd(const char *sock, int argc, char **argv)
{
	struct opts o = { 0 };
	struct rind_client *c;
	const char *cmd = argv[0];
	int ret;

	if (!strcmp(cmd, "key") && argc > 1 && is_key_admin(argv[1]))
		return cmd_key_admin(sock, argc - 1, argv + 1);
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

/* ---- --help on every command ---- */

struct help {
	const char *cmd, *sub;		/* sub NULL: the command itself */
	const char *text;
};

static const struct help helps[] = {
	{ "list", NULL, "usage: rind list [--proc]\n"
	  "  every registered implementation: name, driver, module, priority, type,\n"
	  "  self-test result, block and context size (--proc: /proc/crypto form)\n" },
	{ "features", NULL, "usage: rind features\n"
	  "  the CPU features rind sees and which RIND_DISABLE masks\n" },
	{ "version", NULL, "usage: rind version\n  the library version\n" },
	{ "key", NULL, "usage: rind [--socket PATH] key SUBCOMMAND ...\n"
	  "  create NAME --alg|--type TYPE [--usage sign|decrypt] [--exportable]\n"
	  "  import NAME [--type TYPE] [--usage U] [--in FILE] [--format raw|pkcs8|pem|jwk]\n"
	  "              [--exportable]\n"
	  "  list [--all]                                keys you may use, versions, times\n"
	  "  pub NAME [--format pem|der|raw|jwk|pkcs8] [--out FILE]\n"
	  "  delete NAME                                 root and the owner\n"
	  "  rotate NAME                                 a new current version\n"
	  "  retire NAME --below V                       retire the versions below V\n"
	  "  access NAME [--allow-uid U] [--allow-gid G] [--deny-uid U] [--deny-gid G]\n"
	  "              [--allow uid:U|gid:G] [--deny uid:U|gid:G] [--clear]\n"
	  "  rind key SUBCOMMAND --help: its options\n" },
	{ "key", "create", "usage: rind key create NAME --alg|--type TYPE [--usage sign|decrypt]\n"
	  "                       [--exportable] [--socket PATH]\n"
	  "  rindd generates the key and stores it (sealed) before it answers; you own it.\n"
	  "  TYPE: ed25519, ecdsa-p256|p384|p521, rsa-2048|3072|4096, mldsa44|65|87\n"
	  "  (signing), x25519, ecdh-p256|p384|p521 (deriving), mlkem768, mlkem1024,\n"
	  "  x25519mlkem768 (decapsulating), aes-256-gcm, aes-128-gcm, chacha20-poly1305\n"
	  "  (sealing).  An RSA key is for one use: --usage sign (the default) or decrypt\n"
	  "  (OAEP).  --exportable: the owner may read the private key back\n"
	  "  (rind key pub NAME --format pkcs8).\n" },
	{ "key", "import", "usage: rind key import NAME [--type TYPE] [--usage sign|decrypt] [--in FILE]\n"
	  "                       [--format raw|pkcs8|pem|jwk] [--exportable] [--socket PATH]\n"
	  "  the private key from FILE (default stdin): PKCS#8, SEC1 EC or PKCS#1 RSA keys\n"
	  "  (DER or PEM) and JWK, the type detected; raw keys need --type.  Keys outside\n"
	  "  the library's policy (RSA below 2048 bits or e != 65537, ...) are refused.\n" },
	{ "key", "list", "usage: rind key list [--all] [--socket PATH]\n"
	  "  --all: also the key files that failed to load, with the reason\n"
	  "  the keys you may use, one line each: NAME, ALGORITHM, VERSION (current),\n"
	  "  LIVE (versions verify/open accept), OWNER (uid), EXPORTABLE, CREATED (the\n"
	  "  oldest live version), ROTATED (the current version; - if never rotated)\n" },
	{ "key", "pub", "usage: rind key pub NAME [--format pem|der|raw|jwk|pkcs8] [--out FILE] [--socket PATH]\n"
	  "  the public key (default PEM); pkcs8: the private key of an exportable key, to its owner\n" },
	{ "key", "delete", "usage: rind key delete NAME [--socket PATH]\n"
	  "  removes the key and its file (root and the key's owner)\n" },
	{ "key", "rotate", "usage: rind key rotate NAME [--socket PATH]\n"
	  "  a new current version (a fresh secret) signs and seals from now on; verify\n"
	  "  and open still accept the older versions until they are retired.  Root and\n"
	  "  the key's owner.  Works without D-Bus (rindd --bus none).\n" },
	{ "key", "retire", "usage: rind key retire NAME --below V [--socket PATH]\n"
	  "  versions below V are wiped; signatures and sealed boxes made with them no\n"
	  "  longer verify or open.  V is at most the current version.  Root and the owner.\n" },
	{ "key", "access", "usage: rind key access NAME [--allow-uid U]... [--allow-gid G]...\n"
	  "                       [--deny-uid U]... [--deny-gid G]... [--allow uid:U|gid:G]...\n"
	  "                       [--deny uid:U|gid:G]... [--clear] [--socket PATH]\n"
	  "  root and the key's owner always may use it; the allow lists add uids and gids\n"
	  "  (user and group names work too; commas separate several).  --allow-* adds to\n"
	  "  the lists, --deny-* removes from them (root and the owner cannot be denied),\n"
	  "  --clear empties them first.  No option: show the lists.  Root and the owner.\n" },
	{ "sign", NULL, "usage: rind sign NAME [--in FILE] [--out FILE] [--hash sha256|sha384|sha512]\n"
	  "                 [--sig-format der|p1363] [--padding pkcs1|pss] [--socket PATH]\n"
	  "  the signature of FILE (default stdin) by key NAME.  ECDSA: the curve's hash\n"
	  "  (P-256 SHA-256, P-384 SHA-384, P-521 SHA-512) unless --hash, DER unless\n"
	  "  --sig-format p1363 (r || s); RSA: PKCS#1 v1.5 with SHA-256 unless --padding\n"
	  "  pss / --hash; Ed25519 and ML-DSA take no options\n" },
	{ "verify", NULL, "usage: rind verify NAME --sig FILE [--in FILE] [the sign options] [--socket PATH]\n"
	  "  exit 0: valid, 1: invalid, 2: error\n" },
	{ "seal", NULL, "usage: rind seal NAME [--in FILE] [--out FILE] [--ad STRING] [--socket PATH]\n"
	  "  AES-256-GCM, AES-128-GCM or ChaCha20-Poly1305 (the key's type) under key\n"
	  "  NAME, a fresh random nonce: nonce(12) || ciphertext || tag(16)\n" },
	{ "open", NULL, "usage: rind open NAME [--in FILE] [--out FILE] [--ad STRING] [--socket PATH]\n"
	  "  the plaintext of a sealed box (exit 1 if it does not authenticate)\n" },
	{ "derive", NULL, "usage: rind derive NAME --peer FILE [--out FILE] [--socket PATH]\n"
	  "  X25519 or ECDH (the key's type) with the peer's public key (raw, SPKI DER or\n"
	  "  PEM): the shared secret\n" },
	{ "decrypt", NULL, "usage: rind decrypt NAME [--in FILE] [--out FILE] [--hash sha256|sha384|sha512]\n"
	  "                    [--socket PATH]\n"
	  "  RSA-OAEP (SHA-256 unless --hash) with a --usage decrypt key: the plaintext\n" },
	{ "decap", NULL, "usage: rind decap NAME [--in FILE] [--out FILE] [--socket PATH]\n"
	  "  ML-KEM-768/1024 or X25519MLKEM768: the shared secret of the ciphertext;\n"
	  "  the peer encapsulates to `rind key pub NAME --format raw`\n" },
	{ "ping", NULL, "usage: rind ping [--socket PATH]\n  the daemon's version\n" },
	{ "stats", NULL, "usage: rind stats [--socket PATH]\n"
	  "  request, error and batch counters; keys: yours (every key for root and\n"
	  "  rindd's own user); the key quotas; per key type: requests, batches, mean\n"
	  "  and largest batch, lanes (signatures computed side by side by the type's\n"
	  "  batch implementation, 1 when one after another) and mean lanes used\n" },
	{ "bench-daemon", NULL, "usage: rind bench-daemon --alg ALG [--clients N]\n"
	  "                        [--requests M] [--pipeline K] [--size BYTES] [--key NAME]\n"
	  "  ALG: ed25519, ecdsa-p256|p384|p521, rsa-2048|3072|4096 (signing with the\n"
	  "  type's defaults), aes-256-gcm (sealing), x25519 (deriving).\n"
	  "  N processes, M requests each, K in flight per connection: requests/s, p50/p99\n"
	  "  latency, batch sizes; every signature is verified in-process afterwards.\n"
	  "  Without --key it creates a key and deletes it at the end, also on SIGINT/SIGTERM.\n" },
};

/* `rind ... --help` or `-h` anywhere, or `rind help ...`. */
static int wants_help(int argc, char **argv)
{
	int i;

	if (!strcmp(argv[1], "help"))
		return 1;
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

/* The usage of the command in @argv (its subcommand for key) on stdout: exit 0. */
static int cmd_help(int argc, char **argv)
{
	const char *cmd = NULL, *sub = NULL;
	size_t i;
	int j;

	for (j = 0; j < argc; j++) {
		if (!strcmp(argv[j], "help") && j == 0)
			continue;
		if (!strncmp(argv[j], "-", 1))
			continue;
		if (!cmd)
			cmd = argv[j];
		else if (!sub)
			sub = argv[j];
	}
	for (i = 0; cmd && i < sizeof(helps) / sizeof(helps[0]); i++)
		if (!strcmp(helps[i].cmd, cmd) && helps[i].sub && sub && !strcmp(helps[i].sub, sub)) {
			fputs(helps[i].text, stdout);
			return 0;
		}
	for (i = 0; cmd && i < sizeof(helps) / sizeof(helps[0]); i++)
		if (!strcmp(helps[i].cmd, cmd) && !helps[i].sub) {
			fputs(helps[i].text, stdout);
			return 0;
		}
	usage(stdout);
	return 0;
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
	if (wants_help(argc, argv))
		return cmd_help(argc - 1, argv + 1);
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
