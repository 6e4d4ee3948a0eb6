// SPDX-License-Identifier: MIT
/*
 * rindd end to end: every operation through librind-client (sync and
 * pipelined async) and through the rind CLI, 64 concurrent pipelining
 * client processes, restart, wrong master key, access control by uid and
 * crash safety under SIGKILL.  Each test starts its own rindd on a private
 * temporary directory (tests/test_daemon.h).
 */
#include <sys/mman.h>
#include <sodium.h>

#include "test_daemon.h"

static const char *const msg1 = "the quick brown fox";

static void get_raw_pub(struct rind_client *c, const char *name, uint8_t pub[32])
{
	uint8_t *p;
	size_t n;
	int err = rind_client_get_public(c, name, RIND_CLIENT_RAW, &p, &n);

	ck_assert_msg(!err, "get_public %s: %d %s", name, err, rind_client_last_error(c));
	ck_assert_uint_eq(n, 32);
	memcpy(pub, p, 32);
	free(p);
}

/* Sign through the daemon, verify in-process: 0 if valid. */
static int sign_check(struct rind_client *c, const char *name, const void *m, size_t len)
{
	uint8_t pub[32], *sig;
	size_t slen;
	int err;

	get_raw_pub(c, name, pub);
	err = rind_client_sign(c, name, m, len, &sig, &slen);
	if (err)
		return err;
	if (slen != 64) {
		free(sig);
		return -EPROTO;
	}
	err = rind_ed25519_verify(sig, m, len, pub);
	free(sig);
	return err;
}

START_TEST(test_lib_roundtrip)
{
	struct rind_client *c = rd_client();
	struct rind_client_key_info ki, *keys;
	struct rind_client_stats st;
	uint8_t pub[32], seed[32], *p, *q, *sig;
	size_t n, m, slen, i;
	char *ver;
	int err, found = 0;

	ck_assert_int_eq(rind_client_hello(c, &ver), 0);
	ck_assert_msg(strstr(ver, "rindd") != NULL, "version '%s'", ver);
	free(ver);

	ck_assert_int_eq(rind_client_create_key(c, "ed", "ed25519", false, &ki), 0);
	ck_assert_str_eq(ki.name, "ed");
	ck_assert_str_eq(ki.algorithm, "ed25519");
	ck_assert_uint_eq(ki.owner_uid, getuid());
	ck_assert_int_eq(rind_client_create_key(c, "xx", "x25519", false, NULL), 0);
	ck_assert_int_eq(rind_client_create_key(c, "aes", "aes-256-gcm", false, NULL), 0);
	err = rind_client_create_key(c, "ed", "ed25519", false, NULL);
	ck_assert_int_eq(err, -EEXIST);
	ck_assert_int_eq(rind_client_last_status(c), RIND__STATUS__ERR_EXISTS);
	ck_assert_msg(rind_client_last_error(c)[0], "no message for ERR_EXISTS");

	ck_assert_int_eq(rind_client_list_keys(c, &keys, &n), 0);
	ck_assert_uint_eq(n, 3);
	for (i = 0; i < n; i++)
		found += !strcmp(keys[i].name, "ed") + !strcmp(keys[i].name, "xx") +
			 !strcmp(keys[i].name, "aes");
	ck_assert_int_eq(found, 3);
	free(keys);

	/* Public key in every format. */
	get_raw_pub(c, "ed", pub);
	ck_assert_int_eq(rind_client_get_public(c, "ed", RIND_CLIENT_SPKI_DER, &p, &n), 0);
	ck_assert_uint_eq(n, 44);
	ck_assert_int_eq(memcmp(p + 12, pub, 32), 0);
	free(p);
	ck_assert_int_eq(rind_client_get_public(c, "ed", RIND_CLIENT_PEM, &p, &n), 0);
	ck_assert(n > 30 && !memcmp(p, "-----BEGIN PUBLIC KEY-----", 26));
	free(p);
	ck_assert_int_eq(rind_client_get_public(c, "ed", RIND_CLIENT_JWK, &p, &n), 0);
	ck_assert(memchr(p, '{', n) && n > 20);
	free(p);
	ck_assert_int_eq(rind_client_get_public(c, "ed", RIND_CLIENT_PKCS8_DER, &p, &n), -EPERM);
	ck_assert_int_eq(rind_client_get_public(c, "aes", RIND_CLIENT_RAW, &p, &n), -EINVAL);

	/* Sign, verify in-process and through the daemon. */
	ck_assert_int_eq(rind_client_sign(c, "ed", msg1, strlen(msg1), &sig, &slen), 0);
	ck_assert_uint_eq(slen, 64);
	ck_assert_int_eq(rind_ed25519_verify(sig, msg1, strlen(msg1), pub), 0);
	ck_assert_int_eq(rind_client_verify(c, "ed", msg1, strlen(msg1), sig, 64), 0);
	sig[5] ^= 1;
	ck_assert_int_eq(rind_client_verify(c, "ed", msg1, strlen(msg1), sig, 64), -EBADMSG);
	free(sig);

	/* Seal and open, with associated data. */
	ck_assert_int_eq(rind_client_seal(c, "aes", msg1, strlen(msg1), "ad", 2, &p, &n), 0);
	ck_assert_uint_eq(n, strlen(msg1) + 28);
	ck_assert_int_eq(rind_client_open(c, "aes", p, n, "ad", 2, &q, &m), 0);
	ck_assert_uint_eq(m, strlen(msg1));
	ck_assert_int_eq(memcmp(q, msg1, m), 0);
	free(q);
	ck_assert_int_eq(rind_client_open(c, "aes", p, n, "AD", 2, &q, &m), -EBADMSG);
	free(p);
	ck_assert_int_eq(rind_client_seal(c, "aes", "", 0, NULL, 0, &p, &n), 0);
	ck_assert_uint_eq(n, 28);
	ck_assert_int_eq(rind_client_open(c, "aes", p, n, NULL, 0, &q, &m), 0);
	ck_assert_uint_eq(m, 0);
	free(p);
	free(q);

	/* Derive: X25519 against a key made here with libsodium. */
	{
		uint8_t sk[32], mypub[32], dpub[32], ss[32];

		ck_assert_int_eq(sodium_init() >= 0, 1);
		randombytes_buf(sk, 32);
		crypto_scalarmult_base(mypub, sk);
		get_raw_pub(c, "xx", dpub);
		ck_assert_int_eq(rind_client_derive(c, "xx", mypub, 32, &p, &n), 0);
		ck_assert_uint_eq(n, 32);
		ck_assert_int_eq(crypto_scalarmult(ss, sk, dpub), 0);
		ck_assert_int_eq(memcmp(ss, p, 32), 0);
		free(p);
	}

	/* Import: a known seed gives the public key the library computes. */
	for (i = 0; i < 32; i++)
		seed[i] = (uint8_t)(i * 7 + 1);
	ck_assert_int_eq(rind_client_import_key(c, "imp", "ed25519", seed, 32, RIND_CLIENT_RAW, true,
						NULL), 0);
	get_raw_pub(c, "imp", pub);
	{
		uint8_t want[32];

		rind_ed25519_public_key(want, seed);
		ck_assert_int_eq(memcmp(want, pub, 32), 0);
	}
	ck_assert_int_eq(rind_client_get_public(c, "imp", RIND_CLIENT_PKCS8_DER, &p, &n), 0);
	ck_assert_msg(n >= 48 && !memcmp(p + n - 32, seed, 32), "exported PKCS#8 holds the seed");
	free(p);
	ck_assert_int_eq(sign_check(c, "imp", "x", 1), 0);

	ck_assert_int_eq(rind_client_stats(c, &st), 0);
	ck_assert_uint_ge(st.requests, 20);
	ck_assert_uint_eq(st.keys, 4);
	ck_assert_uint_ge(st.threads, 1);

	ck_assert_int_eq(rind_client_delete_key(c, "imp"), 0);
	ck_assert_int_eq(rind_client_sign(c, "imp", "x", 1, &sig, &slen), -ENOENT);
	ck_assert_msg(strstr(rind_client_last_error(c), "imp") != NULL,
		      "error names the key: '%s'", rind_client_last_error(c));
	ck_assert_int_eq(rind_client_delete_key(c, "imp"), -ENOENT);
	rind_client_close(c);
}
END_TEST

/* ---- asynchronous pipelining on one connection ---- */

#define ASYNC_N 600

struct async_state {
	int seen[ASYNC_N];
	uint8_t sig[ASYNC_N][64];
	size_t len[ASYNC_N];
	int errors;
	uint64_t ids[ASYNC_N];
	int order_changed;
	int last;
};

static struct async_state *as;

static void async_cb(struct rind_client *c, const struct rind_client_result *r, void *user)
{
	long i = (long)(uintptr_t)user;

	(void)c;
	if (i < 0 || i >= ASYNC_N) {
		as->errors++;
		return;
	}
	as->seen[i]++;
	if (r->id != as->ids[i] || r->status)
		as->errors++;
	if (i < as->last)
		as->order_changed = 1;
	as->last = (int)i;
	as->len[i] = r->len;
	if (r->len == 64)
		memcpy(as->sig[i], r->data, 64);
}

static void async_msg(char *m, long i)
{
	snprintf(m, 48, "async message %ld", i % 1000000);
}

START_TEST(test_lib_async)
{
	struct rind_client *c = rd_client();
	uint8_t pub[32];
	char m[48];
	long i;
	int err;

	as = calloc(1, sizeof(*as));
	ck_assert(as != NULL);
	ck_assert_int_eq(rind_client_create_key(c, "ed", "ed25519", false, NULL), 0);
	ck_assert_int_eq(rind_client_create_key(c, "aes", "aes-256-gcm", false, NULL), 0);
	get_raw_pub(c, "ed", pub);
	rind_client_set_max_inflight(c, 64);
	for (i = 0; i < ASYNC_N; i++) {
		async_msg(m, i);
		if (i % 3 == 2)
			err = rind_client_submit_seal(c, "aes", m, strlen(m), NULL, 0, async_cb,
						      (void *)(uintptr_t)i, &as->ids[i]);
		else
			err = rind_client_submit_sign(c, "ed", m, strlen(m), async_cb,
						      (void *)(uintptr_t)i, &as->ids[i]);
		ck_assert_int_eq(err, 0);
		ck_assert_uint_le(rind_client_inflight(c), 64);
		if (i % 50 == 0) {
			err = rind_client_poll(c, 0);
			ck_assert_int_ge(err, 0);
		}
	}
	/* A synchronous call in the middle of the pipeline. */
	ck_assert_int_eq(sign_check(c, "ed", "sync", 4), 0);
	ck_assert_int_eq(rind_client_wait_all(c, 15000), 0);
	ck_assert_uint_eq(rind_client_inflight(c), 0);
	ck_assert_int_eq(as->errors, 0);
	for (i = 0; i < ASYNC_N; i++) {
		ck_assert_msg(as->seen[i] == 1, "request %ld completed %d times", i, as->seen[i]);
		async_msg(m, i);
		if (i % 3 == 2) {
			ck_assert_uint_eq(as->len[i], strlen(m) + 28);
		} else {
			ck_assert_uint_eq(as->len[i], 64);
			ck_assert_msg(!rind_ed25519_verify(as->sig[i], m, strlen(m), pub),
				      "signature %ld belongs to its request", i);
		}
	}
	printf("async: %d requests pipelined on one connection, %s\n", ASYNC_N,
	       as->order_changed ? "some completed out of order" : "all in order");
	free(as);
	rind_client_close(c);
}
END_TEST

/* One get-public-key request completed asynchronously: its result, copied. */
struct gp_async {
	uint64_t id, got_id;
	int calls, status;
	uint8_t *data;
	size_t len;
};

static void gp_cb(struct rind_client *c, const struct rind_client_result *r, void *user)
{
	struct gp_async *g = user;

	(void)c;
	g->calls++;
	g->got_id = r->id;
	g->status = r->status;
	g->len = r->len;
	free(g->data);
	g->data = malloc(r->len ? r->len : 1);
	if (g->data && r->len)
		memcpy(g->data, r->data, r->len);
}

/*
 * rind_client_submit_get_public gives what rind_client_get_public gives:
 * the same bytes in each format, the same errno for a key without a
 * public part and for an unknown name.  The requests are all submitted
 * before any completes, so each must find its own answer.
 */
START_TEST(test_lib_async_get_public)
{
	static const struct {
		const char *name;
		enum rind_client_format fmt;
	} q[] = {
		{ "ed", RIND_CLIENT_RAW },
		{ "ed", RIND_CLIENT_SPKI_DER },
		{ "ed", RIND_CLIENT_PEM },
		{ "ed", RIND_CLIENT_JWK },
		{ "aes", RIND_CLIENT_RAW },
		{ "no-such-key", RIND_CLIENT_RAW },
		{ "no-such-key", RIND_CLIENT_PEM },
	};
	struct rind_client *c = rd_client();
	struct gp_async g[ARRAY_SIZE(q)] = { 0 };
	uint8_t *p[ARRAY_SIZE(q)] = { NULL };
	size_t n[ARRAY_SIZE(q)] = { 0 }, i;
	int err[ARRAY_SIZE(q)];

	ck_assert_int_eq(rind_client_create_key(c, "ed", "ed25519", false, NULL), 0);
	ck_assert_int_eq(rind_client_create_key(c, "aes", "aes-256-gcm", false, NULL), 0);
	for (i = 0; i < ARRAY_SIZE(q); i++)
		err[i] = rind_client_get_public(c, q[i].name, q[i].fmt, &p[i], &n[i]);
	for (i = 0; i < 4; i++)
		ck_assert_msg(!err[i] && n[i] > 0, "get_public ed format %d: %d", q[i].fmt, err[i]);
	ck_assert_uint_eq(n[0], 32);
	ck_assert_int_lt(err[4], 0);	/* a symmetric key has no public key */
	ck_assert_int_eq(err[5], -ENOENT);
	ck_assert_int_eq(err[6], -ENOENT);

	for (i = 0; i < ARRAY_SIZE(q); i++)
		ck_assert_int_eq(rind_client_submit_get_public(c, q[i].name, q[i].fmt, gp_cb, &g[i],
							       &g[i].id), 0);
	ck_assert_int_eq(rind_client_wait_all(c, 15000), 0);
	ck_assert_uint_eq(rind_client_inflight(c), 0);
	for (i = 0; i < ARRAY_SIZE(q); i++) {
		ck_assert_msg(g[i].calls == 1, "request %zu completed %d times", i, g[i].calls);
		ck_assert_uint_eq(g[i].got_id, g[i].id);
		ck_assert_msg(g[i].status == err[i], "%s format %d: async %d, sync %d", q[i].name,
			      q[i].fmt, g[i].status, err[i]);
		if (!err[i]) {
			ck_assert_uint_eq(g[i].len, n[i]);
			ck_assert_ptr_nonnull(g[i].data);
			ck_assert_msg(!memcmp(g[i].data, p[i], n[i]),
				      "%s format %d: the async public key differs", q[i].name, q[i].fmt);
		}
		free(g[i].data);
		free(p[i]);
	}
	rind_client_close(c);
}
END_TEST

/* Reconnect: a client survives a daemon restart. */
START_TEST(test_lib_reconnect)
{
	struct rind_client *c = rd_client();
	char *v;

	ck_assert_int_eq(rind_client_create_key(c, "ed", "ed25519", false, NULL), 0);
	ck_assert_int_eq(sign_check(c, "ed", "a", 1), 0);
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	rd_start();
	/* Idle connection: noticed and replaced on the next call. */
	ck_assert_int_eq(sign_check(c, "ed", "b", 1), 0);
	/* Explicit reconnect. */
	ck_assert_int_eq(rind_client_reconnect(c), 0);
	ck_assert_int_eq(rind_client_hello(c, &v), 0);
	free(v);
	/* Daemon gone: a clear error, not a hang. */
	rd_stop(SIGKILL);
	ck_assert_int_lt(rind_client_hello(c, &v), 0);
	rind_client_close(c);
	{
		/*
		 * The kernel tears a dead process's io_uring down in a worker
		 * after the process is reaped, and the listening socket (held by
		 * the ring's pending accept) lives until then: a connect in that
		 * window still lands in its backlog.  Refused within 5 s.
		 */
		uint64_t t0 = rd_now_ms();
		struct rind_client *late;

		while ((late = rind_client_connect(rd.sock)) != NULL && rd_now_ms() - t0 < 5000) {
			rind_client_close(late);
			rd_sleep_ms(10);
		}
		ck_assert_ptr_null(late);
	}
	rd_start();
	c = rd_client();
	ck_assert_int_eq(sign_check(c, "ed", "c", 1), 0);
	rind_client_close(c);
}
END_TEST

/* ---- the rind CLI ---- */

START_TEST(test_cli_roundtrip)
{
	const char *S = rd.sock, *D = rd.dir;
	char *log;

	ck_assert_int_eq(rd_sh("%s --socket %s ping >/dev/null", RIND_CLI, S), 0);
	ck_assert_int_eq(rd_sh("%s --socket %s key create ed --alg ed25519 >/dev/null", RIND_CLI, S), 0);
	ck_assert_int_eq(rd_sh("RIND_SOCKET=%s %s key create aes --alg aes-256-gcm >/dev/null", S,
			       RIND_CLI), 0);
	ck_assert_int_eq(rd_sh("%s --socket %s key create xx --alg x25519 >/dev/null", RIND_CLI, S), 0);
	ck_assert_int_eq(rd_sh("%s --socket %s key create ed --alg ed25519 2>/dev/null", RIND_CLI, S), 1);
	ck_assert_int_eq(rd_sh("%s --socket %s key create bad --alg rot13 2>%s/err", RIND_CLI, S, D), 1);
	ck_assert_int_eq(rd_sh("grep -qi 'rot13\\|unsupported\\|unknown' %s/err", D), 0);
	ck_assert_int_eq(rd_sh("%s --socket %s key list > %s/list && grep -q '^ed .*ed25519' %s/list"
			       " && grep -q '^aes .*aes-256-gcm' %s/list", RIND_CLI, S, D, D, D), 0);
	ck_assert_int_eq(rd_sh("%s --socket %s key pub ed > %s/ed.pem && grep -q 'BEGIN PUBLIC KEY' %s/ed.pem",
			       RIND_CLI, S, D, D), 0);
	ck_assert_int_eq(rd_sh("%s --socket %s key pub ed --format der --out %s/ed.der && "
			       "test $(wc -c < %s/ed.der) -eq 44", RIND_CLI, S, D, D), 0);
	ck_assert_int_eq(rd_sh("%s --socket %s key pub ed --format raw | wc -c | grep -qx ' *32'",
			       RIND_CLI, S), 0);
	ck_assert_int_eq(rd_sh("%s --socket %s key pub ed --format jwk | grep -q '\"crv\":\"Ed25519\"'",
			       RIND_CLI, S), 0);
	/* The PEM is a real SPKI: OpenSSL verifies the CLI's signature with it. */
	ck_assert_int_eq(rd_sh("printf 'message\\n' > %s/m && %s --socket %s sign ed --in %s/m --out %s/sig"
			       " && test $(wc -c < %s/sig) -eq 64", D, RIND_CLI, S, D, D, D), 0);
	ck_assert_int_eq(rd_sh("%s --socket %s verify ed --sig %s/sig --in %s/m >/dev/null", RIND_CLI, S,
			       D, D), 0);
	if (rd_sh("command -v openssl >/dev/null") == 0)
		ck_assert_int_eq(rd_sh("openssl pkeyutl -verify -pubin -inkey %s/ed.pem -rawin -in %s/m "
				       "-sigfile %s/sig >/dev/null 2>&1", D, D, D), 0);
	ck_assert_int_eq(rd_sh("printf 'messagf\\n' | %s --socket %s verify ed --sig %s/sig >/dev/null",
			       RIND_CLI, S, D), 1);
	ck_assert_int_eq(rd_sh("%s --socket %s verify nokey --sig %s/sig --in %s/m 2>/dev/null", RIND_CLI,
			       S, D, D), 2);
	/* sign from stdin to stdout equals sign from a file (Ed25519 is deterministic) */
	ck_assert_int_eq(rd_sh("%s --socket %s sign ed < %s/m | cmp -s - %s/sig", RIND_CLI, S, D, D), 0);
	/* seal / open, files and pipes, with associated data */
	ck_assert_int_eq(rd_sh("head -c 5000 /dev/urandom > %s/pt && %s --socket %s seal aes --in %s/pt "
			       "--out %s/box --ad hdr && test $(wc -c < %s/box) -eq 5028 && "
			       "%s --socket %s open aes --in %s/box --ad hdr | cmp -s - %s/pt",
			       D, RIND_CLI, S, D, D, D, RIND_CLI, S, D, D), 0);
	ck_assert_int_eq(rd_sh("%s --socket %s open aes --in %s/box 2>/dev/null", RIND_CLI, S, D), 1);
	ck_assert_int_eq(rd_sh("echo hi | %s --socket %s seal aes | %s --socket %s open aes | grep -qx hi",
			       RIND_CLI, S, RIND_CLI, S), 0);
	/* derive with the daemon's own public key as peer: 32 bytes */
	ck_assert_int_eq(rd_sh("%s --socket %s key pub xx --format raw --out %s/xpub && "
			       "%s --socket %s derive xx --peer %s/xpub | wc -c | grep -qx ' *32'",
			       RIND_CLI, S, D, RIND_CLI, S, D), 0);
	ck_assert_int_eq(rd_sh("%s --socket %s stats | grep -q '^batches'", RIND_CLI, S), 0);
	ck_assert_int_eq(rd_sh("%s --socket %s bench-daemon --alg ed25519 --clients 2 --requests 50 "
			       "--pipeline 4 --size 64 > %s/bench && grep -q 'verified *100 of 100' %s/bench",
			       RIND_CLI, S, D, D), 0);
	ck_assert_int_eq(rd_sh("%s --socket %s key delete ed", RIND_CLI, S), 0);
	ck_assert_int_eq(rd_sh("%s --socket %s key delete ed 2>/dev/null", RIND_CLI, S), 1);
	ck_assert_int_eq(rd_sh("%s --socket %s/none ping 2>/dev/null", RIND_CLI, D), 1);
	ck_assert_int_eq(rd_sh("%s --socket %s key create 2>/dev/null", RIND_CLI, S), 2);
	ck_assert_int_eq(rd_sh("%s list >/dev/null", RIND_CLI), 0);
	log = rd_read_log();
	ck_assert_msg(strstr(log, "level=error") == NULL || strstr(log, "rot13"),
		      "unexpected errors in the log:\n%s", log);
	free(log);
}
END_TEST

/* ---- 64 concurrent pipelining client processes ---- */

#define CC_CLIENTS 64
#define CC_REQS 60

/* State of the one client in this (forked) process. */
static struct {
	int seen[CC_REQS];
	uint8_t *box[CC_REQS];
	size_t boxlen[CC_REQS];
	int bad;
	int idx;
	uint8_t pub[32];
} cc;

static void cc_msg(char *m, int idx, int i)
{
	snprintf(m, 64, "client %d request %d", idx, i);
}

static void cc_cb(struct rind_client *cl, const struct rind_client_result *r, void *user)
{
	int i = (int)(uintptr_t)user;
	char m[64];

	(void)cl;
	if (i < 0 || i >= CC_REQS) {
		cc.bad++;
		return;
	}
	cc.seen[i]++;
	if (r->status) {
		cc.bad++;
		return;
	}
	cc_msg(m, cc.idx, i);
	if (i & 1) {
		if (r->len != strlen(m) + 28) {
			cc.bad++;
			return;
		}
		cc.box[i] = malloc(r->len);
		memcpy(cc.box[i], r->data, r->len);
		cc.boxlen[i] = r->len;
	} else if (r->len != 64 || rind_ed25519_verify(r->data, m, strlen(m), cc.pub)) {
		cc.bad++;
	}
}

/* One client process: 0 or a code naming what went wrong. */
static int cc_child(int idx)
{
	struct rind_client *c = rind_client_connect(rd.sock);
	char m[64];
	int i, err;

	if (!c)
		return 10;
	cc.idx = idx;
	rind_client_set_timeout(c, 20000);
	rind_client_set_max_inflight(c, 16);
	for (i = 0; i < CC_REQS; i++) {
		cc_msg(m, idx, i);
		if (i & 1)
			err = rind_client_submit_seal(c, "aes", m, strlen(m), &idx, sizeof(idx), cc_cb,
						      (void *)(uintptr_t)i, NULL);
		else
			err = rind_client_submit_sign(c, "ed", m, strlen(m), cc_cb,
						      (void *)(uintptr_t)i, NULL);
		if (err)
			return 11;
	}
	if (rind_client_wait_all(c, 20000))
		return 12;
	for (i = 0; i < CC_REQS; i++)
		if (cc.seen[i] != 1)
			return 13;
	if (cc.bad)
		return 14;
	for (i = 1; i < CC_REQS; i += 2) {
		uint8_t *pt;
		size_t n;

		cc_msg(m, idx, i);
		err = rind_client_open(c, "aes", cc.box[i], cc.boxlen[i], &idx, sizeof(idx), &pt, &n);
		if (err || n != strlen(m) || memcmp(pt, m, n))
			return 15;
		free(pt);
		free(cc.box[i]);
	}
	rind_client_close(c);
	return 0;
}

/*
 * Key churn alongside the 64 clients: each churn process creates a key
 * (ed25519 or aes-256-gcm, alternately) on one connection, pipelines sign
 * or seal requests with it on another (dealt to another worker thread),
 * and deletes it while they are in flight, so a key leaves the table and
 * is freed (its per-thread transforms too) by whichever thread drops the
 * last reference.  Each request answers OK (checked) or ERR_NOT_FOUND
 * (counted: the daemon's error count must match).
 */
#define CHURN_PROCS 2
#define CHURN_ROUNDS 30
#define CHURN_PIPE 12

static struct {
	int bad, done, notfound;
	uint8_t pub[32];
	int ed;
	char name[32];
} ch;

static void churn_cb(struct rind_client *cl, const struct rind_client_result *r, void *user)
{
	int i = (int)(uintptr_t)user;
	char m[48];

	(void)cl;
	ch.done++;
	if (r->status == -ENOENT) {
		ch.notfound++;
		return;
	}
	snprintf(m, sizeof(m), "churn %s %d", ch.name, i);
	if (r->status)
		ch.bad++;
	else if (ch.ed && (r->len != 64 || rind_ed25519_verify(r->data, m, strlen(m), ch.pub)))
		ch.bad++;
	else if (!ch.ed && r->len != strlen(m) + 28)
		ch.bad++;
}

/* One churn process: 0 or a code; its count of ERR_NOT_FOUND answers in *@errors. */
static int churn_child(int idx, long *errors)
{
	struct rind_client *use = rind_client_connect(rd.sock), *adm = rind_client_connect(rd.sock);
	struct rind_client_key_info *keys;
	uint8_t *p;
	size_t n;
	char m[48];
	int r, i;

	if (!use || !adm)
		return 30;
	rind_client_set_timeout(use, 20000);
	rind_client_set_timeout(adm, 20000);
	for (r = 0; r < CHURN_ROUNDS; r++) {
		ch.ed = !(r & 1);
		snprintf(ch.name, sizeof(ch.name), "churn-%d-%d", idx, r);
		if (rind_client_create_key(adm, ch.name, ch.ed ? "ed25519" : "aes-256-gcm", false, NULL))
			return 31;
		if (ch.ed) {
			if (rind_client_get_public(adm, ch.name, RIND_CLIENT_RAW, &p, &n) || n != 32)
				return 32;
			memcpy(ch.pub, p, 32);
			free(p);
		}
		ch.done = 0;
		for (i = 0; i < CHURN_PIPE; i++) {
			snprintf(m, sizeof(m), "churn %s %d", ch.name, i);
			if ((ch.ed ? rind_client_submit_sign(use, ch.name, m, strlen(m), churn_cb,
							     (void *)(uintptr_t)i, NULL) :
				     rind_client_submit_seal(use, ch.name, m, strlen(m), NULL, 0, churn_cb,
							     (void *)(uintptr_t)i, NULL)))
				return 33;
			if (i == CHURN_PIPE / 2) {
				/* half sent; every third round the delete races them now */
				if (rind_client_poll(use, 0) < 0)
					return 34;
				if (r % 3 == 1 && rind_client_delete_key(adm, ch.name))
					return 35;
			}
		}
		if (rind_client_poll(use, 0) < 0)	/* all sent: the delete races them */
			return 34;
		if (r % 3 != 1 && rind_client_delete_key(adm, ch.name))
			return 35;
		if (rind_client_wait_all(use, 20000) || ch.done != CHURN_PIPE)
			return 36;
		if (rind_client_sign(use, ch.name, "x", 1, &p, &n) != -ENOENT)
			return 37;
		ch.notfound++;
		if (r % 5 == 0) {
			if (rind_client_list_keys(adm, &keys, &n))
				return 38;
			free(keys);
		}
	}
	*errors = ch.notfound;
	rind_client_close(use);
	rind_client_close(adm);
	return ch.bad ? 39 : 0;
}

START_TEST(test_concurrent_64)
{
	struct rind_client *c = rd_client();
	struct rind_client_stats s0, s1;
	pid_t pids[CC_CLIENTS + CHURN_PROCS];
	long *churn_errors, expect_errors = 0;
	int i, st, failed = 0;
	uint64_t t0;

	ck_assert_int_eq(rind_client_create_key(c, "ed", "ed25519", false, NULL), 0);
	ck_assert_int_eq(rind_client_create_key(c, "aes", "aes-256-gcm", false, NULL), 0);
	get_raw_pub(c, "ed", cc.pub);
	ck_assert_int_eq(rind_client_stats(c, &s0), 0);
	churn_errors = mmap(NULL, CHURN_PROCS * sizeof(long), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert(churn_errors != MAP_FAILED);
	fflush(NULL);
	for (i = 0; i < CC_CLIENTS + CHURN_PROCS; i++) {
		pids[i] = fork();
		ck_assert_int_ge(pids[i], 0);
		if (pids[i] == 0)
			_exit(i < CC_CLIENTS ? cc_child(i) :
			      churn_child(i - CC_CLIENTS, &churn_errors[i - CC_CLIENTS]));
	}
	t0 = rd_now_ms();
	for (i = 0; i < CC_CLIENTS + CHURN_PROCS; i++) {
		st = rd_wait_child(pids[i], 30000);
		if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "%s %d: status %d (exit %d)\n",
				i < CC_CLIENTS ? "client" : "churn process",
				i < CC_CLIENTS ? i : i - CC_CLIENTS, st,
				st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1);
			failed++;
		}
	}
	rd_check_alive();
	ck_assert_msg(!failed, "%d of %d clients (and %d churn processes) failed", failed,
		      CC_CLIENTS, CHURN_PROCS);
	for (i = 0; i < CHURN_PROCS; i++)
		expect_errors += churn_errors[i];
	munmap(churn_errors, CHURN_PROCS * sizeof(long));
	ck_assert_int_eq(rind_client_stats(c, &s1), 0);
	ck_assert_uint_ge(s1.requests - s0.requests, CC_CLIENTS * (CC_REQS + CC_REQS / 2));
	ck_assert_msg(s1.errors - s0.errors == (uint64_t)expect_errors,
		      "%llu error responses, the churn processes counted %ld ERR_NOT_FOUND",
		      (unsigned long long)(s1.errors - s0.errors), expect_errors);
	ck_assert_uint_eq(s1.keys, 2);
	printf("concurrent: %d processes x %d pipelined requests (+%d opens) in %llu ms: all "
	       "matched; %llu batches, mean %.1f; %d keys created and deleted under load "
	       "(%ld requests found theirs gone); %u threads\n", CC_CLIENTS, CC_REQS, CC_REQS / 2,
	       (unsigned long long)(rd_now_ms() - t0),
	       (unsigned long long)(s1.batches - s0.batches),
	       s1.batches > s0.batches ? (double)(s1.batched_requests - s0.batched_requests) /
					 (double)(s1.batches - s0.batches) : 0.0,
	       CHURN_PROCS * CHURN_ROUNDS, expect_errors - CHURN_PROCS * CHURN_ROUNDS,
	       (unsigned int)s1.threads);
	rind_client_close(c);
}
END_TEST

/* The concurrency test's daemon: four worker threads on any machine. */
static void rd_setup_4(void)
{
	rd_setup_dir();
	rd_start_threads("4");
}

/* ---- key store: restart, wrong master key ---- */

START_TEST(test_restart_preserves_keys)
{
	struct rind_client *c = rd_client();
	uint8_t pub[32], pub2[32], *sig, *sig2, *box, *pt;
	size_t n, n2, bl;

	ck_assert_int_eq(rind_client_create_key(c, "ed", "ed25519", false, NULL), 0);
	ck_assert_int_eq(rind_client_create_key(c, "aes", "aes-256-gcm", false, NULL), 0);
	get_raw_pub(c, "ed", pub);
	ck_assert_int_eq(rind_client_sign(c, "ed", msg1, strlen(msg1), &sig, &n), 0);
	ck_assert_int_eq(rind_client_seal(c, "aes", msg1, strlen(msg1), NULL, 0, &box, &bl), 0);
	rind_client_close(c);
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	rd_start();
	c = rd_client();
	get_raw_pub(c, "ed", pub2);
	ck_assert_int_eq(memcmp(pub, pub2, 32), 0);
	ck_assert_int_eq(rind_client_sign(c, "ed", msg1, strlen(msg1), &sig2, &n2), 0);
	ck_assert_int_eq(memcmp(sig, sig2, 64), 0);
	ck_assert_int_eq(rind_client_open(c, "aes", box, bl, NULL, 0, &pt, &n), 0);
	ck_assert_int_eq(memcmp(pt, msg1, n), 0);
	free(sig);
	free(sig2);
	free(box);
	free(pt);
	rind_client_close(c);
}
END_TEST

static int count_key_files(void)
{
	char cmd[512];
	FILE *f;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls %s | grep -c '\\.rkey$'", rd.state);
	f = popen(cmd, "r");
	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = -1;
		pclose(f);
	}
	return n;
}

START_TEST(test_wrong_master_key)
{
	struct rind_client *c = rd_client();
	struct rind_client_key_info *keys;
	char good[256], *log;
	size_t n;

	ck_assert_int_eq(rind_client_create_key(c, "k1", "ed25519", false, NULL), 0);
	ck_assert_int_eq(rind_client_create_key(c, "k2", "aes-256-gcm", false, NULL), 0);
	ck_assert_int_eq(rind_client_create_key(c, "k3", "x25519", false, NULL), 0);
	rind_client_close(c);
	ck_assert_int_eq(WEXITSTATUS(rd_stop(SIGTERM)), 0);
	ck_assert_int_eq(count_key_files(), 3);

	snprintf(good, sizeof(good), "%s.good", rd.mk);
	ck_assert_int_eq(rename(rd.mk, good), 0);
	rd_write_master(rd.mk, 0xbad);
	/*
	 * A wrong master key no longer starts an empty daemon: the manifest's
	 * verifier does not authenticate, and rindd exits naming the problem.
	 */
	{
		int st = 0;

		ck_assert_int_eq(rd_start_args(&st, "--threads", "2", (char *)NULL), -1);
		ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 1, "rindd with a wrong master key: status %d", st);
	}
	log = rd_read_log();
	ck_assert_msg(strstr(log, "wrong master key") != NULL, "log explains the failure:\n%s", log);
	ck_assert_msg(strstr(log, "master key") != NULL, "log explains the failure:\n%s", log);
	ck_assert_msg(strstr(log, "event=ready") == NULL, "rindd served with a wrong master key:\n%s", log);
	free(log);
	ck_assert_int_eq(count_key_files(), 3);

	ck_assert_int_eq(rename(good, rd.mk), 0);
	rd_start();
	c = rd_client();
	ck_assert_int_eq(rind_client_list_keys(c, &keys, &n), 0);
	ck_assert_uint_eq(n, 3);
	free(keys);
	ck_assert_int_eq(sign_check(c, "k1", "after", 5), 0);
	rind_client_close(c);
}
END_TEST

/* ---- access control ---- */

START_TEST(test_access_control)
{
	struct rind_client *c;
	struct rind_client_key_info *keys;
	pid_t pid;
	size_t n, i;
	char *log;
	int saw = 0;

	if (!rd_restart_for_nobody())
		return;
	c = rd_client();
	ck_assert_int_eq(rind_client_create_key(c, "root-ed", "ed25519", false, NULL), 0);
	ck_assert_int_eq(rind_client_create_key(c, "root-aes", "aes-256-gcm", false, NULL), 0);

	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct rind_client *u;
		uint8_t *p;
		size_t len, k;
		struct rind_client_key_info *ks;
		int code = 0;

		u = rd_nobody_client();
		if (rind_client_sign(u, "root-ed", "m", 1, &p, &len) != -EPERM)
			code = 22;
		else if (rind_client_seal(u, "root-aes", "m", 1, NULL, 0, &p, &len) != -EPERM)
			code = 23;
		else if (rind_client_delete_key(u, "root-ed") != -EPERM)
			code = 24;
		else if (rind_client_create_key(u, "nobody-ed", "ed25519", false, NULL))
			code = 25;
		else if (rind_client_sign(u, "nobody-ed", "m", 1, &p, &len))
			code = 26;
		else if (rind_client_list_keys(u, &ks, &len))
			code = 27;
		if (!code) {
			free(p);
			for (k = 0; k < len; k++)
				if (strncmp(ks[k].name, "nobody-", 7))
					code = 28;	/* sees a key it may not use */
			free(ks);
		}
		rind_client_close(u);
		_exit(code);
	}
	rd_wait_nobody(pid);

	/* The same through the CLI under setpriv, when available. */
	if (rd_sh("command -v setpriv >/dev/null") == 0) {
		ck_assert_int_eq(rd_sh("echo m | setpriv --reuid=%d --regid=%d --clear-groups %s --socket %s "
				       "sign root-ed > /dev/null 2>%s/deny", NOBODY, NOBODY, RIND_CLI, rd.sock,
				       rd.dir), 1);
		ck_assert_int_eq(rd_sh("grep -qi 'permi' %s/deny", rd.dir), 0);
	}

	/* root sees nobody's key with its owner, and may use it. */
	ck_assert_int_eq(rind_client_list_keys(c, &keys, &n), 0);
	for (i = 0; i < n; i++)
		if (!strcmp(keys[i].name, "nobody-ed")) {
			ck_assert_uint_eq(keys[i].owner_uid, NOBODY);
			saw = 1;
		}
	free(keys);
	ck_assert_msg(saw, "root lists nobody-ed");
	ck_assert_int_eq(sign_check(c, "nobody-ed", "root uses it", 12), 0);
	ck_assert_int_eq(sign_check(c, "root-ed", "still fine", 10), 0);
	rind_client_close(c);
	log = rd_read_log();
	ck_assert_msg(strstr(log, "uid=65534") != NULL, "denials logged with the uid:\n%s", log);
	free(log);
}
END_TEST

/* ---- crash safety ---- */

#define CRASH_ROUNDS 6
#define CRASH_MAX 4000

START_TEST(test_crash_safety)
{
	struct rt_rng rng;
	char (*acked)[32];
	int nacked = 0, round, p[2], i;
	struct rind_client *c;
	struct rind_client_key_info *keys;
	size_t n, k;
	char *log;

	acked = calloc(CRASH_MAX, sizeof(*acked));
	ck_assert(acked != NULL);
	rt_rng_seed(&rng, 0xc7a5);
	for (round = 0; round < CRASH_ROUNDS; round++) {
		pid_t pid;
		char buf[4096];
		size_t have = 0;
		ssize_t r;
		unsigned int wait_ms = 20 + rt_rand_range(&rng, 150);

		if (round)
			rd_start();
		ck_assert_int_eq(pipe(p), 0);
		fflush(NULL);
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			/* Create keys one after another; report each acknowledged name. */
			struct rind_client *u = rind_client_connect(rd.sock);
			char name[32];
			int j;

			close(p[0]);
			if (!u || write(p[1], "+", 1) != 1)
				_exit(1);
			rind_client_set_timeout(u, 10000);
			for (j = 0; j < CRASH_MAX / CRASH_ROUNDS; j++) {
				snprintf(name, sizeof(name), "r%d-%s-%d", round, j % 3 == 2 ?
					 "aes" : "ed", j);
				if (rind_client_create_key(u, name, j % 3 == 2 ? "aes-256-gcm" :
							   "ed25519", false, NULL))
					_exit(0);	/* the daemon died */
				strcat(name, "\n");
				if (write(p[1], name, strlen(name)) < 0)
					_exit(2);
			}
			_exit(0);
		}
		close(p[1]);
		/*
		 * The kill comes @wait_ms after the creator connected: starting
		 * a process takes longer than that under the sanitizers.
		 */
		if (read(p[0], buf, 1) != 1 || buf[0] != '+') {
			i = rd_wait_child(pid, 15000);
			ck_abort_msg("the creator did not connect (status %d)", i);
		}
		rd_sleep_ms(wait_ms);
		rd_stop(SIGKILL);
		for (;;) {
			r = read(p[0], buf + have, sizeof(buf) - 1 - have);
			if (r <= 0)
				break;
			have += (size_t)r;
			buf[have] = 0;
			/* Consume whole lines. */
			char *line = buf, *nl;

			while ((nl = strchr(line, '\n'))) {
				*nl = 0;
				ck_assert_int_lt(nacked, CRASH_MAX);
				snprintf(acked[nacked++], 32, "%.31s", line);
				line = nl + 1;
			}
			have = strlen(line);
			memmove(buf, line, have + 1);
		}
		close(p[0]);
		i = rd_wait_child(pid, 15000);
		ck_assert_msg(i != -1 && WIFEXITED(i) && WEXITSTATUS(i) == 0, "creator exited %d", i);
	}
	rd_start();
	c = rd_client();
	ck_assert_int_eq(rind_client_list_keys(c, &keys, &n), 0);
	for (i = 0; i < nacked; i++) {
		int found = 0;

		for (k = 0; k < n && !found; k++)
			found = !strcmp(keys[k].name, acked[i]);
		ck_assert_msg(found, "acknowledged key %s lost after SIGKILL", acked[i]);
		if (strstr(acked[i], "-ed-")) {
			ck_assert_msg(sign_check(c, acked[i], "crash", 5) == 0, "key %s signs", acked[i]);
		} else {
			uint8_t *b, *pt;
			size_t bl, pl;

			ck_assert_int_eq(rind_client_seal(c, acked[i], "x", 1, NULL, 0, &b, &bl), 0);
			ck_assert_int_eq(rind_client_open(c, acked[i], b, bl, NULL, 0, &pt, &pl), 0);
			free(b);
			free(pt);
		}
	}
	/* Nothing half-written was loaded: every key is one we asked for. */
	for (k = 0; k < n; k++)
		ck_assert_msg(keys[k].name[0] == 'r' && strchr(keys[k].name, '-'),
			      "unexpected key %s", keys[k].name);
	free(keys);
	rind_client_close(c);
	log = rd_read_log();
	ck_assert_msg(strstr(log, "key_load_failed") == NULL, "a key file failed to load:\n%s", log);
	free(log);
	printf("crash safety: %d rounds of SIGKILL, %d acknowledged keys all present and working, "
	       "%zu keys on disk\n", CRASH_ROUNDS, nacked, n);
	free(acked);
}
END_TEST

/*
 * A daemon that drains (SIGTERM) answers what it has read and closes.  The
 * client must complete those answers even when it learns of the close from
 * a send of its own failing with EPIPE, or reads the answers together with
 * EOF: only the requests left unanswered fail.  A stand-in server on a
 * socket of the test's plays the daemon: it answers the first of two
 * requests and closes.
 */
struct early { int status[3]; size_t len[3]; int calls[3]; };

#define BIG_ANSWER	(80u << 10)

static void early_cb(struct rind_client *c, const struct rind_client_result *r, void *user)
{
	struct early *e = user;
	unsigned int k = (unsigned int)(r->id >> 32) - 1;	/* the request's sequence number */

	(void)c;
	if (k < 3) {
		e->status[k] = r->status;
		e->len[k] = r->len;
		e->calls[k]++;
	}
}

START_TEST(test_client_answers_before_close)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	Rind__Response resp = RIND__RESPONSE__INIT;
	uint64_t id[2];
	uint8_t in[4096], *out, *big;
	size_t got = 0, off = 0, n;
	int lfd, sfd, seen = 0;
	struct rind_client *c;
	struct early e;

	/* _i: 0, the close seen by a failed send; 1, by a read with EOF */
	memset(&e, 0, sizeof(e));
	ck_assert_uint_lt(strlen(rd.dir) + sizeof("/drain.sock"), sizeof(a.sun_path));
	memcpy(a.sun_path, rd.dir, strlen(rd.dir));
	memcpy(a.sun_path + strlen(rd.dir), "/drain.sock", sizeof("/drain.sock"));
	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_ge(lfd, 0);
	ck_assert_int_eq(bind(lfd, (struct sockaddr *)&a, sizeof(a)), 0);
	ck_assert_int_eq(listen(lfd, 1), 0);
	c = rind_client_connect(a.sun_path);
	ck_assert_ptr_nonnull(c);
	sfd = accept(lfd, NULL, NULL);
	ck_assert_int_ge(sfd, 0);
	ck_assert_int_eq(rind_client_submit_sign(c, "k", "one", 3, early_cb, &e, &id[0]), 0);
	ck_assert_int_eq(rind_client_submit_sign(c, "k", "two", 3, early_cb, &e, &id[1]), 0);
	/* the server reads both requests ... */
	while (seen < 2) {
		const uint8_t *pl;
		uint32_t plen;
		long fl = rind_frame_parse(in + off, got - off, sizeof(in), &pl, &plen);
		ssize_t r;

		ck_assert_int_ge(fl, 0);
		if (fl > 0) {
			Rind__Request *req = rind__request__unpack(NULL, plen, pl);

			ck_assert_ptr_nonnull(req);
			ck_assert(req->id == id[seen]);
			rind__request__free_unpacked(req, NULL);
			off += (size_t)fl;
			seen++;
			continue;
		}
		r = read(sfd, in + got, sizeof(in) - got);
		ck_assert_int_gt(r, 0);
		got += (size_t)r;
	}
	/*
	 * ... answers the first and closes.  _i 1: an answer larger than the
	 * client's read chunk (64 KiB), so that one read_in() takes the whole
	 * frame and then EOF and returns the error with the frame unprocessed.
	 */
	big = calloc(1, BIG_ANSWER);
	ck_assert_ptr_nonnull(big);
	resp.id = id[0];
	resp.status = RIND__STATUS__OK;
	resp.result_case = RIND__RESPONSE__RESULT_DATA;
	resp.data.data = _i ? big : (uint8_t *)"sig-of-one";
	resp.data.len = _i ? BIG_ANSWER : 10;
	out = malloc(rind_frame_size(&resp.base));
	ck_assert_ptr_nonnull(out);
	n = rind_frame_pack(&resp.base, out);
	ck_assert_int_eq(write(sfd, out, n), (ssize_t)n);
	free(out);
	free(big);
	close(sfd);
	close(lfd);
	if (_i == 0) {
		/* a third request: its send finds the connection closed (EPIPE) */
		ck_assert_int_eq(rind_client_submit_sign(c, "k", "three", 5, early_cb, &e, NULL), 0);
	}
	/* 0 when the failed send already completed everything */
	ck_assert_int_le(rind_client_wait_all(c, 5000), 0);
	ck_assert_uint_eq(rind_client_inflight(c), 0);
	ck_assert_int_eq(e.calls[0], 1);
	ck_assert_msg(e.status[0] == 0, "the answered request completed with %d", e.status[0]);
	ck_assert_uint_eq(e.len[0], _i ? BIG_ANSWER : 10);
	ck_assert_int_eq(e.calls[1], 1);
	ck_assert_int_eq(e.status[1], -ECONNRESET);
	if (_i == 0) {
		ck_assert_int_eq(e.calls[2], 1);
		ck_assert_int_lt(e.status[2], 0);
	}
	rind_client_close(c);
}
END_TEST

static Suite *daemon_suite(void)
{
	Suite *s = suite_create("daemon");
	TCase *tc = rd_tcase(s, "client", rd_setup, 20);

	tcase_add_test(tc, test_lib_roundtrip);
	tcase_add_test(tc, test_lib_async);
	tcase_add_test(tc, test_lib_async_get_public);
	tcase_add_test(tc, test_lib_reconnect);
	tcase_add_test(tc, test_cli_roundtrip);
	tcase_add_loop_test(tc, test_client_answers_before_close, 0, 2);

	tc = rd_tcase(s, "concurrent", rd_setup_4, 20);
	tcase_add_test(tc, test_concurrent_64);

	tc = rd_tcase(s, "store", rd_setup, 20);
	tcase_add_test(tc, test_restart_preserves_keys);
	tcase_add_test(tc, test_wrong_master_key);
	tcase_add_test(tc, test_access_control);
	tcase_add_test(tc, test_crash_safety);
	return s;
}

RIND_TEST_MAIN(daemon_suite)
