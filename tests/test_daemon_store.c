// SPDX-License-Identifier: MIT
/*
 * rindd's store thread: creating and deleting keys (which fsync) never
 * holds up an event loop.  The daemon runs with one loop and
 * RINDD_TEST_STORE_DELAY_MS standing in for a slow disk; the checks are on
 * the order in which things complete, not on timing.
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_daemon.h"

#define DELAY_MS "3000"

static void start_slow_store(void)
{
	setenv("RINDD_TEST_STORE_DELAY_MS", DELAY_MS, 1);
	rd_setup_dir();
	rd_start_threads("1");
	unsetenv("RINDD_TEST_STORE_DELAY_MS");
}

struct creator;
static void *create_thread(void *arg);

static unsigned int log_count(const char *what)
{
	char *log = rd_read_log(), *p = log;
	unsigned int n = 0;

	while ((p = strstr(p, what))) {
		n++;
		p += strlen(what);
	}
	free(log);
	return n;
}

/* Start the creator thread and return once its connection is in. */
static void start_creator(pthread_t *th, struct creator *cr)
{
	unsigned int n0 = log_count("event=connect ");

	ck_assert_int_eq(pthread_create(th, NULL, create_thread, cr), 0);
	while (log_count("event=connect ") == n0)
		rd_sleep_ms(5);
	rd_sleep_ms(100);	/* and its request read: the loop has nothing else to do */
}

struct creator {
	const char *name;
	atomic_int done;
	int err;
};

static void *create_thread(void *arg)
{
	struct creator *cr = arg;
	struct rind_client *c = rind_client_connect(rd.sock);

	if (!c) {
		cr->err = -errno;
	} else {
		rind_client_set_timeout(c, 30000);
		cr->err = rind_client_create_key(c, cr->name, "ed25519", false, NULL);
		rind_client_close(c);
	}
	atomic_store(&cr->done, 1);
	return NULL;
}

START_TEST(test_signing_goes_on_while_the_store_is_slow)
{
	struct creator cr = { .name = "slow" };
	struct rind_client *c;
	pthread_t th;
	uint8_t sig[64];
	size_t n;
	int i, signed_ok = 0;

	start_slow_store();
	c = rd_client();
	rind_client_set_timeout(c, 30000);
	ck_assert_int_eq(rind_client_create_key(c, "fast", "ed25519", false, NULL), 0);
	start_creator(&th, &cr);
	for (i = 0; i < 200; i++) {
		uint8_t *s = NULL;
		char msg[32];

		snprintf(msg, sizeof(msg), "message %d", i);
		if (rind_client_sign(c, "fast", (const uint8_t *)msg, strlen(msg), &s, &n) == 0 &&
		    n == sizeof(sig))
			signed_ok++;
		free(s);
	}
	ck_assert_int_eq(signed_ok, 200);
	ck_assert_msg(!atomic_load(&cr.done),
		      "the create finished before 200 signatures on the same loop: it stalled them");
	pthread_join(th, NULL);
	ck_assert_int_eq(cr.err, 0);
	rind_client_close(c);
	printf("store: 200 signatures answered while a %s ms key creation was in progress\n",
	       DELAY_MS);
	rd_teardown();
}
END_TEST

/* Send @reqs pipelined in one write on a raw connection; read @n responses. */
static void exchange(Rind__Request **reqs, size_t n, Rind__Response **resps)
{
	uint8_t buf[4096], in[8192];
	size_t len = 0, have = 0, got = 0, i;
	int fd = rd_try_connect(rd.sock);

	ck_assert_int_ge(fd, 0);
	for (i = 0; i < n; i++) {
		ck_assert_uint_le(len + rind_frame_size(&reqs[i]->base), sizeof(buf));
		len += rind_frame_pack(&reqs[i]->base, buf + len);
	}
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
	while (got < n) {
		const uint8_t *payload;
		uint32_t plen;
		long fl = rind_frame_parse(in, have, 1 << 20, &payload, &plen);
		ssize_t r;

		if (fl > 0) {
			resps[got++] = rind__response__unpack(NULL, plen, payload);
			ck_assert_ptr_nonnull(resps[got - 1]);
			memmove(in, in + fl, have - (size_t)fl);
			have -= (size_t)fl;
			continue;
		}
		r = read(fd, in + have, sizeof(in) - have);
		ck_assert_int_gt(r, 0);
		have += (size_t)r;
	}
	close(fd);
}

static const Rind__Response *by_id(Rind__Response **resps, size_t n, uint64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (resps[i]->id == id)
			return resps[i];
	ck_abort_msg("no response with id %llu", (unsigned long long)id);
	return NULL;
}

START_TEST(test_store_request_orders_its_connection)
{
	Rind__Request r1 = RIND__REQUEST__INIT, r2 = RIND__REQUEST__INIT, r3 = RIND__REQUEST__INIT;
	Rind__Request r4 = RIND__REQUEST__INIT;
	Rind__CreateKey ck = RIND__CREATE_KEY__INIT;
	Rind__DeleteKey dk = RIND__DELETE_KEY__INIT;
	Rind__Sign s1 = RIND__SIGN__INIT, s2 = RIND__SIGN__INIT;
	Rind__Request *reqs[4] = { &r1, &r2, &r3, &r4 };
	Rind__Response *resps[4];
	const Rind__Response *r;
	size_t i;

	setenv("RINDD_TEST_STORE_DELAY_MS", "200", 1);
	rd_setup_dir();
	rd_start_threads("1");
	unsetenv("RINDD_TEST_STORE_DELAY_MS");
	ck.name = "ordered";
	ck.algorithm = "ed25519";
	r1.id = 1;
	r1.op_case = RIND__REQUEST__OP_CREATE_KEY;
	r1.create_key = &ck;
	s1.name = "ordered";
	s1.message.data = (uint8_t *)"after create";
	s1.message.len = 12;
	r2.id = 2;
	r2.op_case = RIND__REQUEST__OP_SIGN;
	r2.sign = &s1;
	dk.name = "ordered";
	r3.id = 3;
	r3.op_case = RIND__REQUEST__OP_DELETE_KEY;
	r3.delete_key = &dk;
	s2 = s1;
	s2.message.data = (uint8_t *)"after delete";
	r4.id = 4;
	r4.op_case = RIND__REQUEST__OP_SIGN;
	r4.sign = &s2;
	exchange(reqs, 4, resps);

	r = by_id(resps, 4, 1);
	ck_assert_msg(r->status == RIND__STATUS__OK, "create: %s", r->error);
	r = by_id(resps, 4, 2);
	ck_assert_msg(r->status == RIND__STATUS__OK && r->data.len == 64,
		      "a sign pipelined after the create did not see the key: %s", r->error);
	r = by_id(resps, 4, 3);
	ck_assert_msg(r->status == RIND__STATUS__OK, "delete: %s", r->error);
	r = by_id(resps, 4, 4);
	ck_assert_msg(r->status == RIND__STATUS__ERR_NOT_FOUND,
		      "a sign pipelined after the delete still found the key (status %d)", r->status);
	for (i = 0; i < 4; i++)
		rind__response__free_unpacked(resps[i], NULL);
	rd_teardown();
}
END_TEST

/* SIGTERM while a create is at the store: it is answered, and durable. */
START_TEST(test_stop_waits_for_the_store)
{
	struct creator cr = { .name = "late" };
	struct rind_client *c;
	pthread_t th;
	int st;

	setenv("RINDD_TEST_STORE_DELAY_MS", "700", 1);
	rd_setup_dir();
	rd_start_threads("1");
	unsetenv("RINDD_TEST_STORE_DELAY_MS");
	start_creator(&th, &cr);
	st = rd_stop(SIGTERM);
	ck_assert_msg(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "rindd did not stop cleanly with a create at the store");
	pthread_join(th, NULL);
	ck_assert_msg(cr.err == 0, "the create in progress at SIGTERM failed: %d", cr.err);

	/* acknowledged, so it must be there after a restart */
	rd_start_threads("1");
	c = rd_client();
	{
		uint8_t *pub = NULL;
		size_t n;

		ck_assert_int_eq(rind_client_get_public(c, "late", RIND_CLIENT_RAW, &pub, &n), 0);
		ck_assert_uint_eq(n, 32);
		free(pub);
	}
	rind_client_close(c);
	rd_teardown();
}
END_TEST

static Suite *daemon_store_suite(void)
{
	Suite *s = suite_create("daemon_store");
	TCase *tc = tcase_create("store");

	(void)rd_setup;		/* shared helpers these tests do not need */
	(void)rd_wait_child;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_signing_goes_on_while_the_store_is_slow);
	tcase_add_test(tc, test_store_request_orders_its_connection);
	tcase_add_test(tc, test_stop_waits_for_the_store);
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(daemon_store_suite)
