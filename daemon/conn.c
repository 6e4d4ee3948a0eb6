// SPDX-License-Identifier: MIT
/*
 * Per-connection state: the input buffer (frames are parsed from it in
 * place, it grows to one whole frame of at most --max-frame), and two
 * output buffers: @out is what the kernel is sending (never touched while
 * a send is in flight), @pending collects the responses that follow.
 * Output is bounded: past --max-output queued bytes the loop stops reading
 * from the client until it reads its responses.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rind/crypto.h>

#include "rindd.h"

#define IN_INITIAL	(64 * 1024)

/*
 * Grow @b to hold @extra more bytes.  Not realloc: it frees the old block
 * unwiped, and these buffers hold imported keys, plaintexts, derived
 * secrets and PKCS#8 exports.  So a new block, a copy, and the old one
 * wiped before it is freed.
 */
int buf_reserve(struct buf *b, size_t extra)
{
	size_t cap = b->cap ? b->cap : 4096;
	u8 *p;

	if (b->len + extra <= b->cap)
		return 0;
	while (cap < b->len + extra)
		cap *= 2;
	p = malloc(cap);
	if (!p)
		return -ENOMEM;
	if (b->data) {
		memcpy(p, b->data, b->len);
		rind_memzero_explicit(b->data, b->cap);
		free(b->data);
	}
	b->data = p;
	b->cap = cap;
	return 0;
}

/* Drop the first @n bytes of @b (consumed frames, sent responses), wiped. */
void buf_consume(struct buf *b, size_t n)
{
	size_t rest = b->len - n;

	if (!n)
		return;
	if (rest)
		memmove(b->data, b->data + n, rest);
	rind_memzero_explicit(b->data + rest, n);
	b->len = rest;
}

/* Requests and responses may carry plaintext: wipe before freeing. */
void buf_wipe_free(struct buf *b)
{
	if (b->data)
		rind_memzero_explicit(b->data, b->cap);
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

struct conn *conn_new(int fd)
{
	struct conn *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->fd = fd;
	if (buf_reserve(&c->in, IN_INITIAL)) {
		free(c);
		return NULL;
	}
	return c;
}

void conn_free(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	buf_wipe_free(&c->in);
	buf_wipe_free(&c->out);
	buf_wipe_free(&c->pending);
	peer_release(&c->peer);
	free(c);
}

/* Requests answered but whose answers the kernel has not yet taken. */
unsigned int conn_inflight(const struct conn *c)
{
	return c->out_count + c->pending_count + c->store_jobs;
}

size_t conn_output_len(const struct conn *c)
{
	return c->out.len - c->out_off + c->pending.len;
}

bool conn_output_full(const struct conn *c)
{
	return conn_output_len(c) >= cfg.max_output;
}

bool conn_respond(struct conn *c, Rind__Response *resp)
{
	size_t n = rind_frame_size(&resp->base);

	if (resp->status != RIND__STATUS__OK)
		atomic_fetch_add_explicit(&stats.errors, 1, memory_order_relaxed);
	if (c->closing && c->shut)
		return true;
	if (buf_reserve(&c->pending, n)) {
		log_err("event=out_of_memory conn=%llu", (unsigned long long)c->serial);
		c->closing = true;
		return false;
	}
	c->pending.len += rind_frame_pack(&resp->base, c->pending.data + c->pending.len);
	c->pending_count++;
	return true;
}

void conn_error(struct conn *c, uint64_t id, int status, const char *fmt, ...)
{
	Rind__Response resp = RIND__RESPONSE__INIT;
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	resp.id = id;
	resp.status = status;
	resp.error = msg;
	conn_respond(c, &resp);
}
