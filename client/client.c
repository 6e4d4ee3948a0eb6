// SPDX-License-Identifier: MIT
/*
 * librind-client: connection, request table, pipelining, synchronous
 * calls on top of the asynchronous core (see rind_client.h and
 * proto/README.md).
 *
 * Requests are packed into an output buffer and sent without waiting;
 * responses are read into an input buffer, split into frames and matched
 * to their request through the id: the low 32 bits index the slot table,
 * the high 32 bits are a sequence number so that a stale id never matches
 * a reused slot.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "frame.h"
#include "rind_client.h"

#define CLIENT_MAX_RESPONSE	(256u << 20)
#define CLIENT_OUT_HIGH		(4u << 20)	/* flush before queueing more */
#define CLIENT_READ_CHUNK	(64u << 10)

struct sync_wait {
	bool done;
	int err;
	Rind__Response *resp;
};

struct slot {
	uint64_t id;			/* 0: free */
	rind_client_cb cb;
	void *user;
	struct sync_wait *w;
	uint32_t next_free;
};

struct rind_client {
	char *path;
	int fd;
	int timeout_ms;
	unsigned int max_inflight;
	unsigned int corked;		/* submits queue without sending */
	unsigned int inflight;
	uint32_t seq;

	uint8_t *out;
	size_t out_off, out_len, out_cap;
	uint8_t *in;
	size_t in_off, in_len, in_cap;

	struct slot *slots;
	uint32_t nslots, free_head;

	char err[512];
	int last_status;
};

#define NO_SLOT UINT32_MAX

static int status_errno(int status)
{
	switch (status) {
	case RIND__STATUS__OK:			return 0;
	case RIND__STATUS__ERR_INVALID:		return -EINVAL;
	case RIND__STATUS__ERR_NOT_FOUND:	return -ENOENT;
	case RIND__STATUS__ERR_EXISTS:		return -EEXIST;
	case RIND__STATUS__ERR_PERMISSION:	return -EPERM;
	case RIND__STATUS__ERR_BAD_MESSAGE:	return -EBADMSG;
	case RIND__STATUS__ERR_UNSUPPORTED:	return -EOPNOTSUPP;
	case RIND__STATUS__ERR_FRAME:		return -EPROTO;
	case RIND__STATUS__ERR_BUSY:		return -EBUSY;
	case RIND__STATUS__ERR_RETIRED:		return -ESTALE;
	case RIND__STATUS__ERR_QUOTA:		return -EDQUOT;
	default:				return -EIO;
	}
}

int rind_client_status_errno(int status)
{
	return status_errno(status);
}

const char *rind_client_status_name(int status)
{
	return rind_status_name(status);
}

int rind_client_format_parse(const char *s, enum rind_client_format *fmt)
{
	if (!strcmp(s, "raw"))
		*fmt = RIND_CLIENT_RAW;
	else if (!strcmp(s, "der") || !strcmp(s, "spki"))
		*fmt = RIND_CLIENT_SPKI_DER;
	else if (!strcmp(s, "pkcs8"))
		*fmt = RIND_CLIENT_PKCS8_DER;
	else if (!strcmp(s, "pem"))
		*fmt = RIND_CLIENT_PEM;
	else if (!strcmp(s, "jwk"))
		*fmt = RIND_CLIENT_JWK;
	else
		return -EINVAL;
	return 0;
}

static void set_err(struct rind_client *c, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(struct rind_client *c, int status, const char *fmt, ...)
{
	va_list ap;

	c->last_status = status;
	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
}

const char *rind_client_last_error(struct rind_client *c)
{
	return c->err;
}

int rind_client_last_status(struct rind_client *c)
{
	return c->last_status;
}

int rind_client_fd(struct rind_client *c)
{
	return c->fd;
}

const char *rind_client_path(struct rind_client *c)
{
	return c->path;
}

void rind_client_set_timeout(struct rind_client *c, int timeout_ms)
{
	c->timeout_ms = timeout_ms < 0 ? -1 : timeout_ms;
}

void rind_client_set_max_inflight(struct rind_client *c, unsigned int n)
{
	c->max_inflight = n < 1 ? 1 : n > 1000 ? 1000 : n;
}

unsigned int rind_client_inflight(struct rind_client *c)
{
	return c->inflight;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int remaining_ms(int64_t deadline)
{
	int64_t r;

	if (deadline < 0)
		return -1;
	r = deadline - now_ms();
	return r < 0 ? 0 : r > 1000000000 ? 1000000000 : (int)r;
}

static int open_socket(struct rind_client *c)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(c->path) >= sizeof(sa.sun_path)) {
		set_err(c, 0, "socket path too long: %s", c->path);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, c->path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	/* A Unix stream connect completes at once or fails (EAGAIN: backlog full). */
	for (int tries = 0;; tries++) {
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			break;
		if ((errno == EAGAIN || errno == EINTR) && tries < 1000) {
			struct timespec ts = { 0, 1000000 };

			nanosleep(&ts, NULL);
			continue;
		}
		int err = -errno;

		set_err(c, 0, "cannot connect to %s: %s", c->path, strerror(-err));
		close(fd);
		return err;
	}
	c->fd = fd;
	c->out_off = c->out_len = 0;
	c->in_off = c->in_len = 0;
	return 0;
}

struct rind_client *rind_client_connect(const char *path)
{
	struct rind_client *c;
	int err;

	if (!path || !*path)
		path = getenv("RIND_SOCKET");
	if (!path || !*path)
		path = RIND_CLIENT_DEFAULT_SOCKET;
	c = calloc(1, sizeof(*c));
	if (!c) {
		errno = ENOMEM;
		return NULL;
	}
	c->path = strdup(path);
	c->fd = -1;
	c->timeout_ms = -1;
	c->max_inflight = 256;
	c->free_head = NO_SLOT;
	if (!c->path) {
		free(c);
		errno = ENOMEM;
		return NULL;
	}
	err = open_socket(c);
	if (err) {
		free(c->path);
		free(c);
		errno = -err;
		return NULL;
	}
	return c;
}

/* Complete slot @idx with @resp (owned; may be NULL) or error @err. */
static void complete(struct rind_client *c, uint32_t idx, Rind__Response *resp, int err)
{
	struct slot *s = &c->slots[idx];
	rind_client_cb cb = s->cb;
	void *user = s->user;
	struct sync_wait *w = s->w;
	struct rind_client_result r = { .id = s->id };

	s->id = 0;
	s->cb = NULL;
	s->w = NULL;
	s->next_free = c->free_head;
	c->free_head = idx;
	c->inflight--;

	if (w) {
		w->done = true;
		w->err = err;
		w->resp = resp;
		return;
	}
	if (resp) {
		r.daemon_status = resp->status;
		r.status = status_errno(resp->status);
		if (resp->error && *resp->error)
			r.error = resp->error;
		if (resp->result_case == RIND__RESPONSE__RESULT_DATA) {
			r.data = resp->data.data;
			r.len = resp->data.len;
		} else if (resp->result_case == RIND__RESPONSE__RESULT_VERSION && resp->version) {
			r.data = (const uint8_t *)resp->version;
			r.len = strlen(resp->version);
		}
	} else {
		r.status = err;
	}
	if (cb)
		cb(c, &r, user);
	if (resp)
		rind__response__free_unpacked(resp, NULL);
}

/* Drop the connection; every pending request completes with @err. */
static int lose_connection(struct rind_client *c, int err)
{
	uint32_t i;

	if (c->fd >= 0) {
		close(c->fd);
		c->fd = -1;
	}
	c->out_off = c->out_len = 0;
	c->in_off = c->in_len = 0;
	for (i = 0; i < c->nslots && c->inflight; i++)
		if (c->slots[i].id)
			complete(c, i, NULL, err);
	return err;
}

int rind_client_reconnect(struct rind_client *c)
{
	lose_connection(c, -ECONNRESET);
	return open_socket(c);
}

void rind_client_close(struct rind_client *c)
{
	if (!c)
		return;
	lose_connection(c, -ECANCELED);
	free(c->slots);
	free(c->out);
	free(c->in);
	free(c->path);
	free(c);
}

static int fail_connection(struct rind_client *c, int err);

static int flush_out(struct rind_client *c)
{
	while (c->out_off < c->out_len) {
		ssize_t r = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			set_err(c, 0, "send to %s: %s", c->path, strerror(errno));
			return -errno;
		}
		c->out_off += (size_t)r;
	}
	c->out_off = c->out_len = 0;
	return 0;
}

void rind_client_cork(struct rind_client *c)
{
	c->corked++;
}

/* 0, or -errno if the send failed (the queued requests complete with it). */
int rind_client_uncork(struct rind_client *c)
{
	int err;

	if (c->corked && --c->corked)
		return 0;
	if (c->fd < 0)
		return 0;
	err = flush_out(c);
	if (err)
		fail_connection(c, err);
	return err;
}

/* Read what is available; -ECONNRESET on EOF. */
static int read_in(struct rind_client *c)
{
	if (c->in_off) {
		memmove(c->in, c->in + c->in_off, c->in_len - c->in_off);
		c->in_len -= c->in_off;
		c->in_off = 0;
	}
	for (;;) {
		ssize_t r;

		if (c->in_cap - c->in_len < CLIENT_READ_CHUNK) {
			size_t ncap = c->in_cap ? c->in_cap * 2 : 2 * CLIENT_READ_CHUNK;
			uint8_t *n = realloc(c->in, ncap);

			if (!n)
				return -ENOMEM;
			c->in = n;
			c->in_cap = ncap;
		}
		r = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len, MSG_DONTWAIT);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			set_err(c, 0, "recv from %s: %s", c->path, strerror(errno));
			return -errno;
		}
		if (r == 0) {
			if (!c->err[0] || !c->last_status)
				set_err(c, 0, "rindd closed the connection");
			return -ECONNRESET;
		}
		c->in_len += (size_t)r;
		if ((size_t)r < CLIENT_READ_CHUNK)
			return 0;
	}
}

/*
 * Complete every whole frame in the input buffer: count or -errno.  The
 * read position lives in the client so that a callback may poll again.
 */
static int process_in(struct rind_client *c)
{
	int n = 0, err = 0;

	while (c->fd >= 0) {
		const uint8_t *payload;
		uint32_t plen, idx;
		long fl = rind_frame_parse(c->in + c->in_off, c->in_len - c->in_off, CLIENT_MAX_RESPONSE,
					   &payload, &plen);
		Rind__Response *resp;

		if (fl == 0)
			break;
		if (fl < 0) {
			set_err(c, 0, "response frame too large");
			err = -EPROTO;
			break;
		}
		c->in_off += (size_t)fl;
		resp = rind__response__unpack(NULL, plen, payload);
		if (!resp) {
			set_err(c, 0, "response does not parse");
			err = -EPROTO;
			break;
		}
		idx = (uint32_t)resp->id;
		if (resp->id == 0 || idx >= c->nslots || c->slots[idx].id != resp->id) {
			if (resp->status != RIND__STATUS__OK)
				set_err(c, resp->status, "%s", resp->error ? resp->error : "");
			if (resp->status == RIND__STATUS__ERR_FRAME)
				err = -EPROTO;
			rind__response__free_unpacked(resp, NULL);
			if (err)
				break;
			continue;	/* not ours (a request that was given up) */
		}
		complete(c, idx, resp, 0);
		n++;
	}
	return err ? err : n;
}

/*
 * The connection failed with @err (a send refused, EOF, a bad frame): first
 * complete the answers the daemon sent before it went -- a daemon that
 * drains on SIGTERM answers what it read and closes, and a send of ours
 * failing with EPIPE then must not lose those answers -- then complete the
 * rest with the error.  Returns the number of callbacks run with answers.
 */
static int fail_connection(struct rind_client *c, int err)
{
	int n = 0, r;

	if (c->fd >= 0 && err != -EPROTO) {
		r = read_in(c);		/* what is queued, up to EOF */
		(void)r;
		r = process_in(c);	/* whole frames, also those read with EOF */
		if (r > 0)
			n = r;
		else if (r < 0)
			err = r;
	}
	lose_connection(c, err == -EPIPE ? -ECONNRESET : err);
	return n;
}

static int poll_until(struct rind_client *c, int64_t deadline, const struct sync_wait *w)
{
	int done = 0;

	/*
	 * A synchronous call with nothing else in flight, its request sent:
	 * the answer cannot be there yet (rindd signs for tens of
	 * microseconds), so wait for it first instead of a recv that finds
	 * nothing -- one system call less per call (~1 us each here).
	 */
	bool wait_first = w && c->inflight == 1 && c->out_off == c->out_len;

	if (c->fd < 0)
		return -ENOTCONN;
	for (;;) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
		int r, wait;

		if (wait_first) {
			wait_first = false;
			wait = remaining_ms(deadline);
			if (wait && poll(&pfd, 1, wait) < 0 && errno != EINTR)
				return -errno;
		}
		r = flush_out(c);
		if (!r)
			r = read_in(c);
		if (!r) {
			r = process_in(c);
			if (r > 0)
				done += r;
		}
		if (r < 0) {
			done += fail_connection(c, r);
			return r;
		}
		if (w ? w->done : done > 0)
			return done;
		if (!c->inflight && c->out_off == c->out_len)
			return done;
		wait = remaining_ms(deadline);
		if (!wait)
			return done;
		if (c->out_off < c->out_len)
			pfd.events |= POLLOUT;
		r = poll(&pfd, 1, wait);
		if (r < 0 && errno != EINTR)
			return -errno;
	}
}

int rind_client_poll(struct rind_client *c, int timeout_ms)
{
	return poll_until(c, timeout_ms < 0 ? -1 : now_ms() + timeout_ms, NULL);
}

int rind_client_wait_all(struct rind_client *c, int timeout_ms)
{
	int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;

	while (c->inflight) {
		int r = poll_until(c, deadline, NULL);

		if (r < 0)
			return r;
		if (c->inflight && !remaining_ms(deadline))
			return -ETIMEDOUT;
	}
	return 0;
}

static int alloc_slot(struct rind_client *c, uint32_t *idx)
{
	if (c->free_head == NO_SLOT) {
		uint32_t n = c->nslots ? c->nslots * 2 : 64, i;
		struct slot *s = realloc(c->slots, n * sizeof(*s));

		if (!s)
			return -ENOMEM;
		for (i = c->nslots; i < n; i++) {
			s[i].id = 0;
			s[i].w = NULL;
			s[i].cb = NULL;
			s[i].next_free = i + 1 < n ? i + 1 : NO_SLOT;
		}
		c->slots = s;
		c->free_head = c->nslots;
		c->nslots = n;
	}
	*idx = c->free_head;
	c->free_head = c->slots[*idx].next_free;
	return 0;
}

static int submit(struct rind_client *c, Rind__Request *req, rind_client_cb cb, void *user,
		  struct sync_wait *w, uint64_t *idp)
{
	uint32_t idx;
	size_t need;
	int err;

	c->err[0] = 0;
	c->last_status = 0;
	if (c->fd >= 0 && !c->inflight && c->out_off == c->out_len) {
		/*
		 * Idle connection: if the daemon went away (restart), notice it
		 * now and reconnect, so that this request is not lost with it.
		 */
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };

		if (poll(&pfd, 1, 0) == 1 && (pfd.revents & (POLLIN | POLLHUP | POLLERR))) {
			err = read_in(c);
			if (err)
				lose_connection(c, err);
		}
	}
	if (c->fd < 0) {
		err = open_socket(c);
		if (err)
			return err;
	}
	while (c->inflight >= c->max_inflight || c->out_len - c->out_off > CLIENT_OUT_HIGH) {
		err = poll_until(c, c->timeout_ms < 0 ? -1 : now_ms() + c->timeout_ms, NULL);
		if (err < 0) {
			if (c->fd < 0 && !open_socket(c))
				continue;
			return err;
		}
		if (err == 0 && c->timeout_ms >= 0 && c->inflight >= c->max_inflight)
			return -ETIMEDOUT;
	}
	err = alloc_slot(c, &idx);
	if (err)
		return err;
	if (++c->seq == 0)
		c->seq = 1;
	req->id = (uint64_t)c->seq << 32 | idx;
	need = rind_frame_size(&req->base);
	if (c->out_off == c->out_len)
		c->out_off = c->out_len = 0;
	if (c->out_cap - c->out_len < need) {
		size_t ncap = c->out_cap ? c->out_cap : 4096;
		uint8_t *n;

		if (c->out_off) {
			memmove(c->out, c->out + c->out_off, c->out_len - c->out_off);
			c->out_len -= c->out_off;
			c->out_off = 0;
		}
		while (ncap - c->out_len < need)
			ncap *= 2;
		n = ncap == c->out_cap ? c->out : realloc(c->out, ncap);
		if (!n) {
			c->slots[idx].next_free = c->free_head;
			c->free_head = idx;
			return -ENOMEM;
		}
		c->out = n;
		c->out_cap = ncap;
	}
	c->out_len += rind_frame_pack(&req->base, c->out + c->out_len);
	c->slots[idx].id = req->id;
	c->slots[idx].cb = cb;
	c->slots[idx].user = user;
	c->slots[idx].w = w;
	c->inflight++;
	if (idp)
		*idp = req->id;
	if (c->corked && c->out_len - c->out_off < CLIENT_OUT_HIGH)
		return 0;
	/* Opportunistic send; a failure completes the request via fail_connection. */
	err = flush_out(c);
	if (err)
		fail_connection(c, err);
	return 0;
}

/*
 * Synchronous call: 0 with *@resp (OK status; the caller frees it), or
 * -errno with the daemon's message in c->err.
 */
static int call(struct rind_client *c, Rind__Request *req, Rind__Response **resp)
{
	struct sync_wait w = { 0 };
	int64_t deadline = c->timeout_ms < 0 ? -1 : now_ms() + c->timeout_ms;
	int err;

	*resp = NULL;
	err = submit(c, req, NULL, NULL, &w, NULL);
	if (err)
		return err;
	while (!w.done) {
		err = poll_until(c, deadline, &w);
		if (w.done)
			break;
		if (err < 0)
			return err;
		if (!remaining_ms(deadline)) {
			set_err(c, 0, "no response from rindd within %d ms", c->timeout_ms);
			lose_connection(c, -ETIMEDOUT);
			return -ETIMEDOUT;
		}
	}
	if (w.err)
		return w.err;
	if (w.resp->status != RIND__STATUS__OK) {
		err = status_errno(w.resp->status);
		set_err(c, w.resp->status, "%s", w.resp->error && *w.resp->error ? w.resp->error :
			rind_status_name(w.resp->status));
		rind__response__free_unpacked(w.resp, NULL);
		return err;
	}
	*resp = w.resp;
	return 0;
}

static int take_data(struct rind_client *c, Rind__Response *resp, uint8_t **out, size_t *outlen)
{
	uint8_t *p;

	if (resp->result_case != RIND__RESPONSE__RESULT_DATA) {
		set_err(c, 0, "response without data");
		rind__response__free_unpacked(resp, NULL);
		return -EPROTO;
	}
	p = malloc(resp->data.len ? resp->data.len : 1);
	if (!p) {
		rind__response__free_unpacked(resp, NULL);
		return -ENOMEM;
	}
	if (resp->data.len)
		memcpy(p, resp->data.data, resp->data.len);
	*out = p;
	*outlen = resp->data.len;
	rind__response__free_unpacked(resp, NULL);
	return 0;
}

static int call_data(struct rind_client *c, Rind__Request *req, uint8_t **out, size_t *outlen)
{
	Rind__Response *resp;
	int err = call(c, req, &resp);

	if (err)
		return err;
	if (!out) {
		rind__response__free_unpacked(resp, NULL);
		return 0;
	}
	return take_data(c, resp, out, outlen);
}

static void copy_info(struct rind_client_key_info *dst, const Rind__KeyInfo *ki)
{
	memset(dst, 0, sizeof(*dst));
	snprintf(dst->name, sizeof(dst->name), "%s", ki->name ? ki->name : "");
	snprintf(dst->algorithm, sizeof(dst->algorithm), "%s", ki->algorithm ? ki->algorithm : "");
	dst->owner_uid = ki->owner_uid;
	dst->created = ki->created;
	dst->version = ki->version;
	dst->min_version = ki->min_version;
	for (size_t i = 0; i < ki->n_versions && i < RIND_CLIENT_MAX_VERSIONS; i++) {
		dst->versions[i].version = ki->versions[i]->version;
		dst->versions[i].created = ki->versions[i]->created;
		dst->n_versions++;
	}
	dst->exportable = ki->exportable;
	snprintf(dst->usage, sizeof(dst->usage), "%s", ki->usage ? ki->usage : "");
}

static int call_info(struct rind_client *c, Rind__Request *req, struct rind_client_key_info *info)
{
	Rind__Response *resp;
	int err = call(c, req, &resp);

	if (err)
		return err;
	if (info) {
		if (resp->result_case == RIND__RESPONSE__RESULT_KEYS && resp->keys &&
		    resp->keys->n_keys >= 1)
			copy_info(info, resp->keys->keys[0]);
		else
			memset(info, 0, sizeof(*info));
	}
	rind__response__free_unpacked(resp, NULL);
	return 0;
}

#define BIN(p, n) ((ProtobufCBinaryData){ .len = (n), .data = (uint8_t *)(uintptr_t)(p) })
#define STR(s) ((char *)(uintptr_t)(s))

int rind_client_hello(struct rind_client *c, char **version)
{
	Rind__Hello h = RIND__HELLO__INIT;
	Rind__Request req = RIND__REQUEST__INIT;
	Rind__Response *resp;
	int err;

	h.protocol_version = RIND_PROTOCOL_VERSION;
	h.client_name = STR("librind-client");
	req.op_case = RIND__REQUEST__OP_HELLO;
	req.hello = &h;
	err = call(c, &req, &resp);
	if (err)
		return err;
	if (version) {
		*version = strdup(resp->result_case == RIND__RESPONSE__RESULT_VERSION &&
				  resp->version ? resp->version : "");
		if (!*version)
			err = -ENOMEM;
	}
	rind__response__free_unpacked(resp, NULL);
	return err;
}

/* The _usage variants add the usage field to the same request. */
static void build_create(Rind__Request *req, Rind__CreateKey *m, const char *name,
			 const char *algorithm, bool exportable)
{
	m->name = STR(name);
	m->algorithm = STR(algorithm);
	m->exportable = exportable;
	req->op_case = RIND__REQUEST__OP_CREATE_KEY;
	req->create_key = m;
}

static void build_import(Rind__Request *req, Rind__ImportKey *m, const char *name,
			 const char *algorithm, const void *key, size_t keylen,
			 enum rind_client_format format, bool exportable)
{
	m->name = STR(name);
	m->algorithm = STR(algorithm);
	m->key = BIN(key, keylen);
	m->format = (Rind__KeyFormat)format;
	m->exportable = exportable;
	req->op_case = RIND__REQUEST__OP_IMPORT_KEY;
	req->import_key = m;
}

int rind_client_create_key(struct rind_client *c, const char *name, const char *algorithm,
			   bool exportable, struct rind_client_key_info *info)
{
	Rind__CreateKey m = RIND__CREATE_KEY__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_create(&req, &m, name, algorithm, exportable);
	return call_info(c, &req, info);
}

int rind_client_import_key(struct rind_client *c, const char *name, const char *algorithm,
			   const void *key, size_t keylen, enum rind_client_format format,
			   bool exportable, struct rind_client_key_info *info)
{
	Rind__ImportKey m = RIND__IMPORT_KEY__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_import(&req, &m, name, algorithm, key, keylen, format, exportable);
	return call_info(c, &req, info);
}

static void build_get_public(Rind__Request *req, Rind__GetPublicKey *m, const char *name,
			     enum rind_client_format format)
{
	m->name = STR(name);
	m->format = (Rind__KeyFormat)format;
	req->op_case = RIND__REQUEST__OP_GET_PUBLIC_KEY;
	req->get_public_key = m;
}

int rind_client_get_public(struct rind_client *c, const char *name, enum rind_client_format format,
			   uint8_t **out, size_t *outlen)
{
	Rind__GetPublicKey m = RIND__GET_PUBLIC_KEY__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_get_public(&req, &m, name, format);
	return call_data(c, &req, out, outlen);
}

/* List the keys; @all: also the key files that failed to load. */
static int call_list(struct rind_client *c, bool all, Rind__Response **resp)
{
	Rind__ListKeys m = RIND__LIST_KEYS__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	m.all = all;
	req.op_case = RIND__REQUEST__OP_LIST_KEYS;
	req.list_keys = &m;
	return call(c, &req, resp);
}

int rind_client_list_keys(struct rind_client *c, struct rind_client_key_info **keys, size_t *n)
{
	Rind__Response *resp;
	size_t i, cnt = 0;
	int err;

	err = call_list(c, false, &resp);
	if (err)
		return err;
	if (resp->result_case == RIND__RESPONSE__RESULT_KEYS && resp->keys)
		cnt = resp->keys->n_keys;
	*keys = calloc(cnt ? cnt : 1, sizeof(**keys));
	if (!*keys) {
		rind__response__free_unpacked(resp, NULL);
		return -ENOMEM;
	}
	for (i = 0; i < cnt; i++)
		copy_info(&(*keys)[i], resp->keys->keys[i]);
	*n = cnt;
	rind__response__free_unpacked(resp, NULL);
	return 0;
}

int rind_client_list_failed(struct rind_client *c, struct rind_client_failed_key **v, size_t *n)
{
	Rind__Response *resp;
	size_t i, cnt = 0;
	int err;

	err = call_list(c, true, &resp);
	if (err)
		return err;
	if (resp->result_case == RIND__RESPONSE__RESULT_KEYS && resp->keys)
		cnt = resp->keys->n_failed;
	*v = calloc(cnt ? cnt : 1, sizeof(**v));
	if (!*v) {
		rind__response__free_unpacked(resp, NULL);
		return -ENOMEM;
	}
	for (i = 0; i < cnt; i++) {
		const Rind__FailedKey *f = resp->keys->failed[i];

		snprintf((*v)[i].name, sizeof((*v)[i].name), "%s", f->name ? f->name : "");
		snprintf((*v)[i].file, sizeof((*v)[i].file), "%s", f->file ? f->file : "");
		snprintf((*v)[i].reason, sizeof((*v)[i].reason), "%s", f->reason ? f->reason : "");
	}
	*n = cnt;
	rind__response__free_unpacked(resp, NULL);
	return 0;
}

int rind_client_delete_key(struct rind_client *c, const char *name)
{
	Rind__DeleteKey m = RIND__DELETE_KEY__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	m.name = STR(name);
	req.op_case = RIND__REQUEST__OP_DELETE_KEY;
	req.delete_key = &m;
	return call_data(c, &req, NULL, NULL);
}

/* ---- key administration ---- */

int rind_client_rotate_key(struct rind_client *c, const char *name, struct rind_client_key_info *info)
{
	Rind__RotateKey m = RIND__ROTATE_KEY__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	m.name = STR(name);
	req.op_case = RIND__REQUEST__OP_ROTATE_KEY;
	req.rotate_key = &m;
	return call_info(c, &req, info);
}

int rind_client_retire_versions(struct rind_client *c, const char *name, uint32_t min_version,
				struct rind_client_key_info *info)
{
	Rind__RetireVersions m = RIND__RETIRE_VERSIONS__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	m.name = STR(name);
	m.min_version = min_version;
	req.op_case = RIND__REQUEST__OP_RETIRE_VERSIONS;
	req.retire_versions = &m;
	return call_info(c, &req, info);
}

static int dup_ids(const uint32_t *v, size_t n, uint32_t **out, size_t *nout)
{
	*out = NULL;
	*nout = 0;
	if (!n)
		return 0;
	*out = malloc(n * sizeof(**out));
	if (!*out)
		return -ENOMEM;
	memcpy(*out, v, n * sizeof(**out));
	*nout = n;
	return 0;
}

int rind_client_set_access(struct rind_client *c, const char *name,
			   const struct rind_client_access *change, uint32_t **uids, size_t *nuids,
			   uint32_t **gids, size_t *ngids)
{
	static const struct rind_client_access none;
	const struct rind_client_access *a = change ? change : &none;
	Rind__SetAccess m = RIND__SET_ACCESS__INIT;
	Rind__Request req = RIND__REQUEST__INIT;
	Rind__Response *resp;
	const Rind__KeyInfo *ki = NULL;
	int err;

	m.name = STR(name);
	m.allow_uids = (uint32_t *)(uintptr_t)a->allow_uids;
	m.n_allow_uids = a->n_allow_uids;
	m.allow_gids = (uint32_t *)(uintptr_t)a->allow_gids;
	m.n_allow_gids = a->n_allow_gids;
	m.deny_uids = (uint32_t *)(uintptr_t)a->deny_uids;
	m.n_deny_uids = a->n_deny_uids;
	m.deny_gids = (uint32_t *)(uintptr_t)a->deny_gids;
	m.n_deny_gids = a->n_deny_gids;
	m.replace = a->replace;
	req.op_case = RIND__REQUEST__OP_SET_ACCESS;
	req.set_access = &m;
	err = call(c, &req, &resp);
	if (err)
		return err;
	if (resp->result_case == RIND__RESPONSE__RESULT_KEYS && resp->keys && resp->keys->n_keys >= 1)
		ki = resp->keys->keys[0];
	if (uids)
		err = dup_ids(ki ? ki->allow_uids : NULL, ki ? ki->n_allow_uids : 0, uids, nuids);
	if (!err && gids) {
		err = dup_ids(ki ? ki->allow_gids : NULL, ki ? ki->n_allow_gids : 0, gids, ngids);
		if (err && uids) {
			free(*uids);
			*uids = NULL;
		}
	}
	rind__response__free_unpacked(resp, NULL);
	return err;
}

static void build_sign(Rind__Request *req, Rind__Sign *m, const char *name, const void *msg,
		       size_t len)
{
	m->name = STR(name);
	m->message = BIN(msg, len);
	req->op_case = RIND__REQUEST__OP_SIGN;
	req->sign = m;
}

static void build_verify(Rind__Request *req, Rind__Verify *m, const char *name, const void *msg,
			 size_t len, const void *sig, size_t siglen)
{
	m->name = STR(name);
	m->message = BIN(msg, len);
	m->signature = BIN(sig, siglen);
	req->op_case = RIND__REQUEST__OP_VERIFY;
	req->verify = m;
}

static void build_seal(Rind__Request *req, Rind__Seal *m, const char *name, const void *pt,
		       size_t ptlen, const void *ad, size_t adlen)
{
	m->name = STR(name);
	m->plaintext = BIN(pt, ptlen);
	m->associated_data = BIN(ad, adlen);
	req->op_case = RIND__REQUEST__OP_SEAL;
	req->seal = m;
}

static void build_open(Rind__Request *req, Rind__Open *m, const char *name, const void *box,
		       size_t len, const void *ad, size_t adlen)
{
	m->name = STR(name);
	m->sealed = BIN(box, len);
	m->associated_data = BIN(ad, adlen);
	req->op_case = RIND__REQUEST__OP_OPEN;
	req->open = m;
}

static void build_derive(Rind__Request *req, Rind__Derive *m, const char *name, const void *peer,
			 size_t len)
{
	m->name = STR(name);
	m->peer_public_key = BIN(peer, len);
	req->op_case = RIND__REQUEST__OP_DERIVE;
	req->derive = m;
}

int rind_client_sign(struct rind_client *c, const char *name, const void *msg, size_t msglen,
		     uint8_t **sig, size_t *siglen)
{
	Rind__Sign m = RIND__SIGN__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_sign(&req, &m, name, msg, msglen);
	return call_data(c, &req, sig, siglen);
}

int rind_client_verify(struct rind_client *c, const char *name, const void *msg, size_t msglen,
		       const void *sig, size_t siglen)
{
	Rind__Verify m = RIND__VERIFY__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_verify(&req, &m, name, msg, msglen, sig, siglen);
	return call_data(c, &req, NULL, NULL);
}

int rind_client_seal(struct rind_client *c, const char *name, const void *pt, size_t ptlen,
		     const void *ad, size_t adlen, uint8_t **out, size_t *outlen)
{
	Rind__Seal m = RIND__SEAL__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_seal(&req, &m, name, pt, ptlen, ad, adlen);
	return call_data(c, &req, out, outlen);
}

int rind_client_open(struct rind_client *c, const char *name, const void *sealed, size_t sealedlen,
		     const void *ad, size_t adlen, uint8_t **out, size_t *outlen)
{
	Rind__Open m = RIND__OPEN__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_open(&req, &m, name, sealed, sealedlen, ad, adlen);
	return call_data(c, &req, out, outlen);
}

int rind_client_derive(struct rind_client *c, const char *name, const void *peer, size_t peerlen,
		       uint8_t **out, size_t *outlen)
{
	Rind__Derive m = RIND__DERIVE__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_derive(&req, &m, name, peer, peerlen);
	return call_data(c, &req, out, outlen);
}

/* One Stats answer carries both the totals and the per-type counters. */
static int call_stats(struct rind_client *c, Rind__Response **resp)
{
	Rind__Stats m = RIND__STATS__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	req.op_case = RIND__REQUEST__OP_STATS;
	req.stats = &m;
	return call(c, &req, resp);
}

int rind_client_stats(struct rind_client *c, struct rind_client_stats *st)
{
	Rind__Response *resp;
	int err;

	err = call_stats(c, &resp);
	if (err)
		return err;
	memset(st, 0, sizeof(*st));
	if (resp->result_case == RIND__RESPONSE__RESULT_STATS && resp->stats) {
		st->requests = resp->stats->requests;
		st->errors = resp->stats->errors;
		st->batches = resp->stats->batches;
		st->batched_requests = resp->stats->batched_requests;
		st->max_batch = resp->stats->max_batch;
		st->connections = resp->stats->connections;
		st->keys = resp->stats->keys;
		st->threads = resp->stats->threads;
		st->all_keys = resp->stats->all_keys;
		st->max_keys = resp->stats->max_keys;
		st->max_keys_per_uid = resp->stats->max_keys_per_uid;
	}
	rind__response__free_unpacked(resp, NULL);
	return 0;
}

int rind_client_submit_sign(struct rind_client *c, const char *name, const void *msg,
			    size_t msglen, rind_client_cb cb, void *user, uint64_t *id)
{
	Rind__Sign m = RIND__SIGN__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_sign(&req, &m, name, msg, msglen);
	return submit(c, &req, cb, user, NULL, id);
}

int rind_client_submit_verify(struct rind_client *c, const char *name, const void *msg,
			      size_t msglen, const void *sig, size_t siglen,
			      rind_client_cb cb, void *user, uint64_t *id)
{
	Rind__Verify m = RIND__VERIFY__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_verify(&req, &m, name, msg, msglen, sig, siglen);
	return submit(c, &req, cb, user, NULL, id);
}

int rind_client_submit_seal(struct rind_client *c, const char *name, const void *pt,
			    size_t ptlen, const void *ad, size_t adlen,
			    rind_client_cb cb, void *user, uint64_t *id)
{
	Rind__Seal m = RIND__SEAL__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_seal(&req, &m, name, pt, ptlen, ad, adlen);
	return submit(c, &req, cb, user, NULL, id);
}

int rind_client_submit_open(struct rind_client *c, const char *name, const void *sealed,
			    size_t sealedlen, const void *ad, size_t adlen,
			    rind_client_cb cb, void *user, uint64_t *id)
{
	Rind__Open m = RIND__OPEN__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_open(&req, &m, name, sealed, sealedlen, ad, adlen);
	return submit(c, &req, cb, user, NULL, id);
}

int rind_client_submit_derive(struct rind_client *c, const char *name, const void *peer,
			      size_t peerlen, rind_client_cb cb, void *user, uint64_t *id)
{
	Rind__Derive m = RIND__DERIVE__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_derive(&req, &m, name, peer, peerlen);
	return submit(c, &req, cb, user, NULL, id);
}

int rind_client_submit_get_public(struct rind_client *c, const char *name,
				  enum rind_client_format format,
				  rind_client_cb cb, void *user, uint64_t *id)
{
	Rind__GetPublicKey m = RIND__GET_PUBLIC_KEY__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_get_public(&req, &m, name, format);
	return submit(c, &req, cb, user, NULL, id);
}

/* ---- every key type ---- */

int rind_client_create_key_usage(struct rind_client *c, const char *name, const char *algorithm,
				 const char *usage, bool exportable,
				 struct rind_client_key_info *info)
{
	Rind__CreateKey m = RIND__CREATE_KEY__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_create(&req, &m, name, algorithm ? algorithm : "", exportable);
	m.usage = STR(usage ? usage : "");
	return call_info(c, &req, info);
}

int rind_client_import_key_usage(struct rind_client *c, const char *name, const char *algorithm,
				 const char *usage, const void *key, size_t keylen,
				 enum rind_client_format format, bool exportable,
				 struct rind_client_key_info *info)
{
	Rind__ImportKey m = RIND__IMPORT_KEY__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_import(&req, &m, name, algorithm ? algorithm : "", key, keylen, format, exportable);
	m.usage = STR(usage ? usage : "");
	return call_info(c, &req, info);
}

static void sign_opts(Rind__Sign *m, const struct rind_client_sig_opts *o)
{
	if (!o)
		return;
	m->hash = STR(o->hash ? o->hash : "");
	m->sig_format = STR(o->sig_format ? o->sig_format : "");
	m->padding = STR(o->padding ? o->padding : "");
}

int rind_client_sign_opts(struct rind_client *c, const char *name, const void *msg, size_t msglen,
			  const struct rind_client_sig_opts *opts, uint8_t **sig, size_t *siglen)
{
	Rind__Sign m = RIND__SIGN__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_sign(&req, &m, name, msg, msglen);
	sign_opts(&m, opts);
	return call_data(c, &req, sig, siglen);
}

int rind_client_submit_sign_opts(struct rind_client *c, const char *name, const void *msg,
				 size_t msglen, const struct rind_client_sig_opts *opts,
				 rind_client_cb cb, void *user, uint64_t *id)
{
	Rind__Sign m = RIND__SIGN__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_sign(&req, &m, name, msg, msglen);
	sign_opts(&m, opts);
	return submit(c, &req, cb, user, NULL, id);
}

int rind_client_verify_opts(struct rind_client *c, const char *name, const void *msg,
			    size_t msglen, const void *sig, size_t siglen,
			    const struct rind_client_sig_opts *o)
{
	Rind__Verify m = RIND__VERIFY__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	build_verify(&req, &m, name, msg, msglen, sig, siglen);
	if (o) {
		m.hash = STR(o->hash ? o->hash : "");
		m.sig_format = STR(o->sig_format ? o->sig_format : "");
		m.padding = STR(o->padding ? o->padding : "");
	}
	return call_data(c, &req, NULL, NULL);
}

int rind_client_decrypt(struct rind_client *c, const char *name, const void *ct, size_t ctlen,
			const char *hash, uint8_t **out, size_t *outlen)
{
	Rind__Decrypt m = RIND__DECRYPT__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	m.name = STR(name);
	m.ciphertext = BIN(ct, ctlen);
	m.hash = STR(hash ? hash : "");
	req.op_case = RIND__REQUEST__OP_DECRYPT;
	req.decrypt = &m;
	return call_data(c, &req, out, outlen);
}

int rind_client_decap(struct rind_client *c, const char *name, const void *ct, size_t ctlen,
		      uint8_t **out, size_t *outlen)
{
	Rind__Decapsulate m = RIND__DECAPSULATE__INIT;
	Rind__Request req = RIND__REQUEST__INIT;

	m.name = STR(name);
	m.ciphertext = BIN(ct, ctlen);
	req.op_case = RIND__REQUEST__OP_DECAPSULATE;
	req.decapsulate = &m;
	return call_data(c, &req, out, outlen);
}

int rind_client_type_stats(struct rind_client *c, struct rind_client_type_stats **v, size_t *n)
{
	Rind__Response *resp;
	size_t i, cnt = 0;
	int err;

	err = call_stats(c, &resp);
	if (err)
		return err;
	if (resp->result_case == RIND__RESPONSE__RESULT_STATS && resp->stats)
		cnt = resp->stats->n_types;
	*v = calloc(cnt ? cnt : 1, sizeof(**v));
	if (!*v) {
		rind__response__free_unpacked(resp, NULL);
		return -ENOMEM;
	}
	for (i = 0; i < cnt; i++) {
		const Rind__TypeStats *t = resp->stats->types[i];

		snprintf((*v)[i].algorithm, sizeof((*v)[i].algorithm), "%s",
			 t->algorithm ? t->algorithm : "");
		(*v)[i].requests = t->requests;
		(*v)[i].batches = t->batches;
		(*v)[i].batched_requests = t->batched_requests;
		(*v)[i].max_batch = t->max_batch;
		(*v)[i].passes = t->passes;
		(*v)[i].lanes = t->lanes;
	}
	*n = cnt;
	rind__response__free_unpacked(resp, NULL);
	return 0;
}
