// SPDX-License-Identifier: MIT
/*
 * Keys whose private half is in rindd: the reference (key name, socket)
 * and the private operations, sent through librind-client.
 *
 * A connection belongs to one process: servers load keys in a master and
 * sign in forked workers, so each use compares getpid() with the pid
 * that opened the connection and reconnects in a new process (without
 * pthread_atfork, which a provider loaded late cannot rely on).  A
 * struct rind_client is not thread-safe: one connection per socket path
 * per process, used under a lock.  A lost connection is retried once,
 * then the operation fails: never a wrong signature.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "key.h"
#include "rind_client.h"

struct rind_remote {
	char *name;
	char *socket;
};

struct conn {
	struct conn *next;
	char *path;
	pid_t pid;
	struct rind_client *c;
};

static pthread_mutex_t conn_lock = PTHREAD_MUTEX_INITIALIZER;
static struct conn *conns;

void rind_remote_free(struct rind_remote *r)
{
	if (!r)
		return;
	free(r->name);
	free(r->socket);
	free(r);
}

static struct rind_remote *remote_new(const char *name, const char *sock)
{
	struct rind_remote *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->name = strdup(name);
	d->socket = sock ? strdup(sock) : NULL;
	if (!d->name || (sock && !d->socket)) {
		rind_remote_free(d);
		return NULL;
	}
	return d;
}

struct rind_remote *rind_remote_dup(const struct rind_remote *r)
{
	return remote_new(r->name, r->socket);
}

/* This process's connection to @path; conn_lock held. */
static struct rind_client *get_conn(const char *path, int fresh)
{
	struct conn *c;
	pid_t pid = getpid();
	const char *key = path ? path : "";

	for (c = conns; c; c = c->next)
		if (!strcmp(c->path, key))
			break;
	if (!c) {
		c = calloc(1, sizeof(*c));
		if (!c || !(c->path = strdup(key))) {
			free(c);
			return NULL;
		}
		c->next = conns;
		conns = c;
	}
	if (c->c && (c->pid != pid || fresh)) {
		/*
		 * A connection inherited across fork() is the parent's: the
		 * child only drops its copy of the descriptor.
		 */
		if (c->pid != pid)
			RTRACE("rindd connection of pid %d dropped in pid %d (fork)", (int)c->pid, (int)pid);
		rind_client_close(c->c);
		c->c = NULL;
	}
	if (!c->c) {
		c->c = rind_client_connect(path);
		c->pid = pid;
		if (c->c)
			RTRACE("connected to rindd at %s", rind_client_path(c->c));
	}
	return c->c;
}

static int lost(int err)
{
	return err == -ECONNRESET || err == -EPIPE || err == -ENOTCONN || err == -ECONNREFUSED || err == -ETIMEDOUT;
}

int rind_remote_get_spki(const char *name, const char *sock, uint8_t **spki, size_t *len)
{
	struct rind_client *c;
	int err = -ECONNREFUSED, attempt;

	pthread_mutex_lock(&conn_lock);
	for (attempt = 0; attempt < 2; attempt++) {
		c = get_conn(sock, attempt);
		if (!c)
			continue;
		err = rind_client_get_public(c, name, RIND_CLIENT_SPKI_DER, spki, len);
		if (!lost(err))
			break;
	}
	pthread_mutex_unlock(&conn_lock);
	return err;
}

/*
 * What rindd is asked to sign with: @alg is the registry name the
 * signature context chose ("x962(ecdsa-nist-p256,sha384)", "pss(rsa,sha256)"),
 * sent as rindd's sign options (hash, ECDSA DER form, RSA padding) so
 * that rindd signs exactly that; the daemon's PSS is rind's (MGF1 with the
 * same hash, salt = hash length).  Ed25519 takes no options.  Anything
 * else (another curve's name, a hash rindd does not offer) is refused
 * here.  Without the options rindd would sign with the key type's
 * default (PKCS#1 v1.5 SHA-256 for RSA), and a PSS request -- every TLS
 * 1.3 handshake with an RSA key -- would get a signature that does not
 * verify.
 */
static int remote_opts(const struct rkey *k, const char *alg, struct rind_client_sig_opts *o,
		       char hash[8])
{
	static const char *const hashes[] = { "sha256", "sha384", "sha512" };
	const char *p = NULL, *end;
	size_t i, n;

	memset(o, 0, sizeof(*o));
	switch (k->type) {
	case RK_ED25519:
		return !strcmp(alg, "ed25519");
	case RK_MLDSA44: case RK_MLDSA65: case RK_MLDSA87:
		/* pure ML-DSA, empty context: what rindd's mldsa keys sign */
		return !strcmp(alg, RK_MLDSA(k->type)->rind);
	case RK_EC:
		n = k->curve ? strlen(k->curve->ecdsa) : 0;
		if (n && !strncmp(alg, "x962(", 5) && !strncmp(alg + 5, k->curve->ecdsa, n) && alg[5 + n] == ',')
			p = alg + 5 + n + 1;
		o->sig_format = "der";
		break;
	case RK_RSA:
		if (!strncmp(alg, "pkcs1(rsa,", 10)) {
			p = alg + 10;
			o->padding = "pkcs1";
		} else if (!strncmp(alg, "pss(rsa,", 8)) {
			p = alg + 8;
			o->padding = "pss";
		}
		break;
	default:
		return 0;
	}
	if (!p || !(end = strchr(p, ')')) || end[1])
		return 0;
	for (i = 0; i < sizeof(hashes) / sizeof(hashes[0]); i++) {
		if ((size_t)(end - p) == strlen(hashes[i]) && !strncmp(p, hashes[i], (size_t)(end - p))) {
			memcpy(hash, hashes[i], strlen(hashes[i]) + 1);
			o->hash = hash;
			return 1;
		}
	}
	return 0;
}

int rind_remote_sign(struct rkey *k, const char *alg, const uint8_t *msg, size_t len,
		     uint8_t *sig, size_t sigsize, size_t *siglen)
{
	struct rind_client *c;
	struct rind_client_sig_opts opts;
	char hash[8];
	uint8_t *out = NULL;
	size_t outlen = 0;
	int err = -ECONNREFUSED, attempt;

	if (!remote_opts(k, alg, &opts, hash)) {
		rind_raise(k->provctx, RIND_R_FAIL, "rindd key %s does not sign with %s", k->remote->name, alg);
		return 0;
	}
	pthread_mutex_lock(&conn_lock);
	for (attempt = 0; attempt < 2; attempt++) {
		c = get_conn(k->remote->socket, attempt);
		if (!c)
			continue;
		if (k->type == RK_ED25519 || RK_IS_MLDSA(k->type))
			err = rind_client_sign(c, k->remote->name, msg, len, &out, &outlen);
		else
			err = rind_client_sign_opts(c, k->remote->name, msg, len, &opts, &out, &outlen);
		if (!lost(err))
			break;
		RTRACE("rindd connection lost (%d)%s", err, attempt ? ": giving up" : ": retrying once");
	}
	pthread_mutex_unlock(&conn_lock);
	RTRACE("sign %s in rindd (key %s) %s", alg, k->remote->name, err ? "failed" : "ok");
	if (err) {
		rind_raise(k->provctx, RIND_R_FAIL, "rindd sign with %s: error %d", k->remote->name, err);
		free(out);
		return 0;
	}
	if (outlen > sigsize || outlen > rk_max_sig(k)) {
		free(out);
		return 0;
	}
	memcpy(sig, out, outlen);
	free(out);
	*siglen = outlen;
	return 1;
}

/* A key object for rindd's key @name: public half from @spki, private operations remote. */
int rind_remote_key(void *provctx, const char *name, const char *sock, const uint8_t *spki, size_t len,
		    int want_type, struct rkey **out)
{
	int t, err = -EKEYREJECTED;

	for (t = 0; t < RK_NTYPES; t++) {
		struct rkey *k;

		if (want_type >= 0 && t != want_type)
			continue;
		if (t == RK_X25519)
			continue;	/* signing keys only */
		k = rk_new(provctx, (enum rk_type)t);
		if (!k)
			return -ENOMEM;
		if (!rk_set_pub_der(k, spki, len)) {
			k->remote = remote_new(name, sock);
			/* the private half exists, in rindd */
			k->has_priv = 1;
			if (!k->remote) {
				rk_free(k);
				return -ENOMEM;
			}
			*out = k;
			return 0;
		}
		rk_free(k);
	}
	return err;
}

/*
 * The key-reference PEM's body (what `rind key ref NAME` writes):
 *   rind-key-ref 1\nname NAME\nsocket PATH\nspki HEX\n
 * The first line is the format and its version; "name" and "spki" are
 * required, "socket" optional (rindd's default), other lines ignored (a
 * later version may add some).  Text only: a NUL, a second name, an odd
 * or non-hex spki is malformed.  On failure *why says what was wrong.
 */
int rind_keyref_is(const uint8_t *body, size_t len)
{
	return len >= 13 && !memcmp(body, "rind-key-ref ", 13);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

void rind_keyref_clear(struct rind_keyref *r)
{
	free(r->text);
	free(r->spki);
	memset(r, 0, sizeof(*r));
}

int rind_keyref_parse(const uint8_t *body, size_t len, struct rind_keyref *r, const char **why)
{
	char *line, *save = NULL;
	const char *hex = NULL;
	size_t n, i;

	memset(r, 0, sizeof(*r));
	*why = "not a key reference (no 'rind-key-ref' line first)";
	if (!rind_keyref_is(body, len))
		return -EKEYREJECTED;
	*why = "not text (a NUL byte)";
	if (memchr(body, 0, len))
		return -EKEYREJECTED;
	*why = "out of memory";
	if (!(r->text = malloc(len + 1)))
		return -ENOMEM;
	memcpy(r->text, body, len);
	r->text[len] = 0;
	line = strtok_r(r->text, "\n", &save);
	*why = "format version other than 1";
	if (!line || strcmp(line, "rind-key-ref 1"))
		goto bad;
	while ((line = strtok_r(NULL, "\n", &save))) {
		const char **f = !strncmp(line, "name ", 5) ? &r->name :
				 !strncmp(line, "socket ", 7) ? &r->sock :
				 !strncmp(line, "spki ", 5) ? &hex : NULL;

		if (!f)
			continue;
		*why = "a field given twice";
		if (*f)
			goto bad;
		*f = strchr(line, ' ') + 1;
	}
	*why = "no key name";
	if (!r->name || !*r->name)
		goto bad;
	*why = "no public key (spki)";
	if (!hex || !*hex)
		goto bad;
	*why = "spki is not an even number of hex digits";
	n = strlen(hex);
	if (n % 2)
		goto bad;
	n /= 2;
	*why = "out of memory";
	if (!(r->spki = malloc(n)))
		goto nomem;
	*why = "spki is not an even number of hex digits";
	for (i = 0; i < n; i++) {
		int hi = hexval((unsigned char)hex[2 * i]), lo = hexval((unsigned char)hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			goto bad;
		r->spki[i] = (uint8_t)(hi << 4 | lo);
	}
	r->spkilen = n;
	if (r->sock && !*r->sock)
		r->sock = NULL;
	*why = NULL;
	return 0;
bad:
	rind_keyref_clear(r);
	return -EKEYREJECTED;
nomem:
	rind_keyref_clear(r);
	return -ENOMEM;
}
