// SPDX-License-Identifier: MIT
/*
 * The event loops: N worker threads, each with its own io_uring.  Worker
 * 0 accepts (multishot where the kernel has it, else one-shot accept
 * SQEs) and deals the connections round-robin to the workers: its own, or
 * another's ring through IORING_OP_MSG_RING (the fd travels in the CQE's
 * result).  (Several rings arming accept on one socket do not share: the
 * first waiter takes every connection.)  A connection stays with its
 * worker.
 *
 * One turn: wait for completions; append received bytes to their
 * connections; parse every whole frame and dispatch it (sign and seal
 * requests are grouped into the turn's batches); run the batches; then
 * for each touched connection post a send of its queued responses and,
 * unless its output is over --max-output, the next recv.
 *
 * Limits.  Out of descriptors (EMFILE/ENFILE), worker 0 stops accepting
 * until a connection closes or ACCEPT_BACKOFF_MS pass (re-arming at once
 * spun at 60% CPU and logged a million lines in 5 s), with one log line
 * when such an episode starts and one, with its count, when it ends.
 * Past --max-connections (default: what RLIMIT_NOFILE leaves) a new
 * connection is accepted only to answer its requests ERR_BUSY for a
 * moment and close.  A connection with nothing in flight and nothing
 * received for --idle-timeout is closed.
 *
 * Errors that close.  After a framing error (or the connection limit's
 * ERR_BUSY) the connection lingers: the error is sent, our side is shut
 * for writing, and what the client still sends is read and discarded
 * until its EOF (bounded in time and bytes) -- so the client's write of
 * an oversized request completes and it reads the daemon's reason, not
 * EPIPE, and the close is not a reset.
 *
 * Stopping (SIGTERM).  Stop accepting (the listening socket is shut for
 * reading: new connects are refused; those already queued are accepted
 * and served), shut every connection for reading -- the client cannot
 * add requests, but everything it sent is still read and answered --, and
 * exit when every connection has read its EOF and sent its answers.  After
 * --drain-timeout, what is left (requests received but not run, or still
 * in the socket) is answered ERR_SHUTDOWN, flushed for up to FLUSH_MS,
 * and the socket emptied before it is closed (a close with unread data
 * would reset the client).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <liburing.h>

#include "rindd.h"

enum { TAG_RECV = 1, TAG_SEND = 2, TAG_ACCEPT = 3, TAG_WAKE = 4, TAG_NEWCONN = 5, TAG_HANDOFF = 6 };
#define TAG_MASK	7ul
#define RECV_MIN	(16 * 1024)
#define ACCEPT_BACKOFF_MS	100
#define LINGER_MS		2000		/* after a framing error */
#define REJECT_MS		500		/* over the connection limit: ERR_BUSY for this long, */
#define REJECT_LINGER_MS	200		/* then EOF and a short linger: the slot is needed */
#define LINGER_DISCARD_MAX	(64u << 20)	/* bytes read and dropped while lingering */
#define FLUSH_MS		1000		/* after the drain timeout: last answers */
#define FINAL_READ_MAX		(64u << 20)
#define TICK_MS			100

static struct worker *workers;
static unsigned int nworkers;
static atomic_ullong conn_serial;
static unsigned int next_worker;
static atomic_ullong ping_seq;
/*
 * Connections over the limit being answered ERR_BUSY hold a descriptor
 * each: at most @reject_max at a time, the rest are closed at once.
 */
static atomic_uint rejecting;
static unsigned int reject_max;
/* Descriptors accepted by worker 0 and on their way to another ring. */
static atomic_uint handoffs;
#define LISTEN_BACKLOG	4096	/* main.c's listen(); systemd's Backlog= default */

/*
 * Descriptors the connections may use: the limit and the rejects'
 * share.  Accept is not armed past it (no EMFILE from a burst), and a
 * multishot accept -- which takes what the backlog holds in one go -- only
 * while a whole backlog still fits.
 */
static unsigned int conn_in_use(void)
{
	return (unsigned int)atomic_load(&stats.connections) + atomic_load(&handoffs);
}

static bool accept_budget_left(unsigned int extra)
{
	return (unsigned long long)conn_in_use() + extra <
	       (unsigned long long)cfg.max_connections + reject_max;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static struct io_uring_sqe *get_sqe(struct worker *w)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(w->ring);

	if (!sqe) {
		io_uring_submit(w->ring);
		sqe = io_uring_get_sqe(w->ring);
	}
	return sqe;
}

static void post_accept(struct worker *w)
{
	struct io_uring_sqe *sqe;

	if (w->accept_posted || w->stopping || w->id != 0 || atomic_load(&w->accept_paused))
		return;
	if (!accept_budget_left(0)) {
		/* every descriptor spoken for: wait for a close (or the timer) */
		w->accept_resume = mono_ms() + ACCEPT_BACKOFF_MS;
		atomic_store(&w->accept_paused, true);
		return;
	}
	sqe = get_sqe(w);
	if (!sqe)
		return;
	w->accept_multi = w->multishot && accept_budget_left(LISTEN_BACKLOG);
	if (w->accept_multi)
		io_uring_prep_multishot_accept(sqe, w->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	else
		io_uring_prep_accept(sqe, w->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	io_uring_sqe_set_data64(sqe, TAG_ACCEPT);
	w->accept_posted = true;
}

static void post_wake(struct worker *w)
{
	struct io_uring_sqe *sqe = get_sqe(w);

	if (!sqe)
		return;
	io_uring_prep_read(sqe, w->wake_fd, &w->wake_val, sizeof(w->wake_val), 0);
	io_uring_sqe_set_data64(sqe, TAG_WAKE);
}

void worker_mark_ready(struct worker *w, struct conn *c)
{
	if (c->on_ready)
		return;
	c->on_ready = true;
	c->ready_next = w->ready;
	w->ready = c;
}

/* Responses can hold plaintext and private keys: wiped once sent or dropped. */
static void out_sent(struct conn *c)
{
	buf_consume(&c->out, c->out.len);
	c->out_off = 0;
	c->out_count = 0;
}

static void conn_drop_output(struct conn *c)
{
	buf_consume(&c->pending, c->pending.len);
	c->pending_count = 0;
	if (!c->send_posted)
		out_sent(c);
}

/* ---- completions ---- */
/*
 * Linger (see the top of the file): reject, answering ERR_BUSY until @ms
 * from now, or (!@reject) discard until EOF or @ms from now.
 */
static void enter_linger(struct worker *w, struct conn *c, bool reject, unsigned int ms)
{
	uint64_t now = mono_ms();

	if (!c->linger)
		w->nlinger++;
	c->linger = true;
	c->reject = reject;
	c->linger_until = now + ms;
	if (w->next_idle_check > now + TICK_MS)
		w->next_idle_check = now + TICK_MS;
}

static void add_conn(struct worker *w, int fd)
{
	struct conn *c = conn_new(fd);
	bool over;

	if (!c) {
		log_err("event=out_of_memory where=accept");
		close(fd);
		return;
	}
	if (peer_get(fd, &c->peer) < 0) {
		log_warn("event=peercred_failed errno=%d", errno);
		conn_free(c);
		return;
	}
	c->serial = atomic_fetch_add(&conn_serial, 1) + 1;
	c->last_active = mono_ms();
	c->next = w->conns;
	if (w->conns)
		w->conns->prev = c;
	w->conns = c;
	w->nconns++;
	over = atomic_fetch_add(&stats.connections, 1) >= cfg.max_connections;
	log_info("event=connect conn=%llu pid=%d uid=%u gid=%u", (unsigned long long)c->serial,
		 (int)c->peer.pid, (unsigned int)c->peer.uid, (unsigned int)c->peer.gid);
	if (w->stopping) {
		/* taken from the backlog at the stop: served like the others */
		shutdown(fd, SHUT_RD);
		c->draining = true;
	} else if (over) {
		uint64_t now = mono_ms();
		bool drop = atomic_fetch_add(&rejecting, 1) >= reject_max;

		c->over_limit = true;
		w->rejects++;
		if (now - w->reject_logged >= 1000) {
			log_warn("event=connection_limit max_connections=%u rejected=%lu msg=\"answering ERR_BUSY and closing\"",
				 cfg.max_connections, w->rejects);
			w->reject_logged = now;
			w->rejects = 0;
		}
		if (drop) {
			/* a flood: no descriptor to spare for an answer */
			c->closing = true;
		} else {
			enter_linger(w, c, true, REJECT_MS);
		}
	}
	worker_mark_ready(w, c);
}

/*
 * accept failed (out of descriptors, or memory): stop accepting until a
 * connection closes or ACCEPT_BACKOFF_MS pass.  Logged once per episode.
 */
static void accept_backoff(struct worker *w, int err)
{
	uint64_t now = mono_ms();
	struct io_uring_sqe *sqe;

	if (!w->episode_failures) {
		w->episode_start = now;
		log_warn("event=accept_failed errno=%d open_connections=%llu max_connections=%u msg=\"%s: not accepting until a connection closes (retrying every %d ms); logged once until it recovers\"",
			 err, (unsigned long long)atomic_load(&stats.connections), cfg.max_connections,
			 strerror(err), ACCEPT_BACKOFF_MS);
	}
	w->episode_failures++;
	w->accept_resume = now + ACCEPT_BACKOFF_MS;
	atomic_store(&w->accept_paused, true);
	if (w->accept_posted && (sqe = get_sqe(w))) {
		/* a multishot accept that is still armed would fail again at once */
		io_uring_prep_cancel64(sqe, TAG_ACCEPT, 0);
		io_uring_sqe_set_data64(sqe, 0);
	}
}

static void on_accept(struct worker *w, struct io_uring_cqe *cqe)
{
	struct io_uring_sqe *sqe;
	struct worker *to;
	int fd = cqe->res;

	if (!(cqe->flags & IORING_CQE_F_MORE))
		w->accept_posted = false;
	if (fd < 0) {
		if (fd == -EINVAL && w->multishot) {
			log_info("event=multishot_accept_unavailable msg=\"using one-shot accept\"");
			w->multishot = false;
		} else if (fd != -ECANCELED && fd != -EINTR && fd != -EAGAIN && fd != -ECONNABORTED) {
			accept_backoff(w, -fd);
		}
		return;
	}
	if (w->episode_failures) {
		log_info("event=accept_resumed failed_accepts=%lu after_ms=%llu", w->episode_failures,
			 (unsigned long long)(mono_ms() - w->episode_start));
		w->episode_failures = 0;
	}
	if (w->accept_posted && w->accept_multi && !accept_budget_left(LISTEN_BACKLOG) &&
	    (sqe = get_sqe(w))) {
		/* near the limit: one connection at a time from here */
		io_uring_prep_cancel64(sqe, TAG_ACCEPT, 0);
		io_uring_sqe_set_data64(sqe, 0);
		w->accept_multi = false;
	}
	to = &workers[next_worker++ % nworkers];
	if (to == w || w->stopping || !(sqe = get_sqe(w))) {
		add_conn(w, fd);
		return;
	}
	atomic_fetch_add(&handoffs, 1);
	io_uring_prep_msg_ring(sqe, to->ring->ring_fd, (unsigned int)fd, TAG_NEWCONN, 0);
	io_uring_sqe_set_data64(sqe, (uint64_t)fd << 3 | TAG_HANDOFF);
}

static void on_recv(struct worker *w, struct conn *c, int res)
{
	c->recv_posted = false;
	if (res > 0) {
		c->last_active = mono_ms();
		if (c->linger && !c->reject) {
			/* read to be dropped; it may be a secret all the same */
			explicit_bzero(c->in.data + c->in.len, (size_t)res);
			c->discarded += (size_t)res;
			if (c->discarded > LINGER_DISCARD_MAX)
				c->closing = true;
		} else {
			c->in.len += (size_t)res;
		}
	} else if (res == -ECANCELED && w->finalizing) {
		/* cancelled by finalize(): it reads the rest itself */
	} else if (res == 0) {
		c->eof = true;
		c->closing = true;	/* answer what was asked, then close */
	} else if (res != -EINTR && res != -EAGAIN) {
		c->eof = true;
		c->closing = true;
		c->broken = true;
		conn_drop_output(c);
	}
	worker_mark_ready(w, c);
}

static void on_send(struct worker *w, struct conn *c, int res)
{
	c->send_posted = false;
	if (res < 0) {
		if (res != -EINTR && res != -EAGAIN && !(res == -ECANCELED && w->finalizing)) {
			c->closing = true;
			c->broken = true;
			conn_drop_output(c);
		}
	} else {
		c->out_off += (size_t)res;
		if (c->out_off >= c->out.len)
			out_sent(c);
		if (res)
			c->last_active = mono_ms();
	}
	worker_mark_ready(w, c);
}

/*
 * Stop reading new requests from @c but keep reading what it already sent:
 * with our read side shut the client's writes fail, while the queued
 * bytes are still delivered, then EOF -- the normal close path.
 */
static void drain_conn(struct worker *w, struct conn *c)
{
	if (!c->closing && !c->linger && !c->draining) {
		shutdown(c->fd, SHUT_RD);
		c->draining = true;
	}
	worker_mark_ready(w, c);
}

/*
 * Worker 0 at the stop: refuse new connects (a listening socket shut for
 * reading refuses them) and take those already queued, to serve them too.
 * A socket systemd passed is left alone: it keeps the queue for the next
 * instance.
 */
static void take_backlog(struct worker *w)
{
	unsigned int n = 0;

	if (cfg.socket_activated || shutdown(w->listen_fd, SHUT_RD) < 0)
		return;
	while (n++ < cfg.max_connections) {
		struct pollfd pfd = { .fd = w->listen_fd, .events = POLLIN };
		int fd;

		if (poll(&pfd, 1, 0) != 1 || !(pfd.revents & POLLIN))
			break;
		fd = accept4(w->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			break;
		add_conn(w, fd);
	}
}

static void begin_stop(struct worker *w)
{
	struct conn *c;
	struct io_uring_sqe *sqe;

	if (w->stopping)
		return;
	w->stopping = true;
	w->stop_deadline = mono_ms() + cfg.drain_timeout_ms;
	if (w->accept_posted) {
		sqe = get_sqe(w);
		if (sqe) {
			io_uring_prep_cancel64(sqe, TAG_ACCEPT, 0);
			io_uring_sqe_set_data64(sqe, 0);
		}
	}
	if (w->id == 0)
		take_backlog(w);
	for (c = w->conns; c; c = c->next)
		drain_conn(w, c);
}

static void handle_cqe(struct worker *w, struct io_uring_cqe *cqe)
{
	uint64_t ud = io_uring_cqe_get_data64(cqe);
	struct conn *c = (struct conn *)(uintptr_t)(ud & ~TAG_MASK);

	switch (ud & TAG_MASK) {
	case TAG_ACCEPT:
		on_accept(w, cqe);
		break;
	case TAG_RECV:
		on_recv(w, c, cqe->res);
		break;
	case TAG_SEND:
		on_send(w, c, cqe->res);
		break;
	case TAG_NEWCONN:
		if (cqe->res >= 0) {
			add_conn(w, cqe->res);
			atomic_fetch_sub(&handoffs, 1);
		}
		break;
	case TAG_HANDOFF:
		/* the other ring did not get it: serve it here */
		if (cqe->res < 0) {
			add_conn(w, (int)(ud >> 3));
			atomic_fetch_sub(&handoffs, 1);
		}
		break;
	case TAG_WAKE:
		/* a connection closed somewhere (or a ping): accept may resume */
		atomic_store(&w->accept_paused, false);
		if (atomic_load(&rindd_stopping)) {
			begin_stop(w);
		} else {
			atomic_store(&w->alive, atomic_load(&ping_seq));
			post_wake(w);
		}
		break;
	default:
		break;
	}
}

/* ---- parsing ---- */
/*
 * One turn takes at most --max-batch requests of a connection (a full
 * batch of its own); the rest wait in its input for the next turn, which
 * comes at once.  A client that pipelines thousands of requests then
 * delays everyone else on this worker by one batch, not by all of them:
 * 30 connections of 500 signatures each held a well-behaved client's one
 * request for over 10 s under TSan.
 */
static void parse(struct worker *w, struct conn *c)
{
	size_t off = 0;
	unsigned int taken = 0;

	c->backlog = false;

	/*
	 * A request at the store thread is a barrier for its connection: what
	 * the client sent after it (a sign with the key just created) waits.
	 */
	while (!c->fatal && !c->broken && !conn_output_full(c) && !c->store_jobs &&
	       !(c->linger && !c->reject)) {
		const uint8_t *payload;
		uint32_t plen;
		long n = rind_frame_parse(c->in.data + off, c->in.len - off, cfg.max_frame,
					  &payload, &plen);
		Rind__Request *req;

		if (n == 0)
			break;
		w->stack_dirty = true;
		if (taken++ == cfg.max_batch) {
			c->backlog = true;
			break;
		}
		atomic_fetch_add_explicit(&stats.requests, 1, memory_order_relaxed);
		if (n < 0) {
			log_warn("event=frame_too_large conn=%llu pid=%d uid=%u len=%u max=%u",
				 (unsigned long long)c->serial, (int)c->peer.pid,
				 (unsigned int)c->peer.uid, rind_frame_get_len(c->in.data + off),
				 cfg.max_frame);
			conn_error(c, 0, RIND__STATUS__ERR_FRAME,
				   "frame of %u bytes exceeds the maximum of %u; closing",
				   rind_frame_get_len(c->in.data + off), cfg.max_frame);
			c->fatal = true;
			enter_linger(w, c, false, LINGER_MS);
			off = c->in.len;
			break;
		}
		req = rind__request__unpack(arena_allocator(), plen, payload);
		off += (size_t)n;
		if (!req) {
			log_warn("event=bad_message conn=%llu pid=%d uid=%u len=%u",
				 (unsigned long long)c->serial, (int)c->peer.pid,
				 (unsigned int)c->peer.uid, plen);
			conn_error(c, 0, RIND__STATUS__ERR_FRAME,
				   "message of %u bytes does not parse as rind.Request; closing", plen);
			c->fatal = true;
			enter_linger(w, c, false, LINGER_MS);
			off = c->in.len;
			break;
		}
		c->last_active = mono_ms();
		if (c->reject) {
			conn_error(c, req->id, RIND__STATUS__ERR_BUSY,
				   "rindd is at its limit of %u connections: try again later",
				   cfg.max_connections);
			dispatch_free(req);
			continue;
		}
		if (rind_frame_check_strings(&rind__request__descriptor, payload, plen)) {
			/* "web\0evil" must not act on the key "web" */
			conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
				   "a string field holds a NUL byte (names, algorithms and formats are text)");
			dispatch_free(req);
			continue;
		}
		if (conn_inflight(c) >= cfg.max_inflight) {
			conn_error(c, req->id, RIND__STATUS__ERR_BUSY,
				   "more than %u requests in flight on this connection",
				   cfg.max_inflight);
			dispatch_free(req);
			continue;
		}
		dispatch(w, c, req);
	}
	/*
	 * Stopped by a full output with whole frames left: a backlog too.
	 * Nothing more is read until they are parsed, and they are parsed
	 * once the output drains (run_ready; send_now can drain it in the same
	 * turn, so "output full" alone no longer keeps the recv off).
	 */
	if (!c->backlog && !c->fatal && !c->broken && conn_output_full(c)) {
		const uint8_t *payload;
		uint32_t plen;

		if (rind_frame_parse(c->in.data + off, c->in.len - off, cfg.max_frame, &payload,
				     &plen) != 0)
			c->backlog = true;
	}
	/* the parsed frames held plaintext and keys: gone, not just moved over */
	buf_consume(&c->in, off);
}

/* ---- after the turn: sends, recvs, closing ---- */
static void unlink_conn(struct worker *w, struct conn *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		w->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	w->nconns--;
	if (c->linger)
		w->nlinger--;
	if (c->over_limit)
		atomic_fetch_sub(&rejecting, 1);
	atomic_fetch_sub(&stats.connections, 1);
	log_info("event=disconnect conn=%llu pid=%d uid=%u%s", (unsigned long long)c->serial,
		 (int)c->peer.pid, (unsigned int)c->peer.uid,
		 c->fatal ? " reason=frame_error" : c->over_limit ? " reason=connection_limit" :
		 c->broken ? " reason=io_error" : "");
	conn_free(c);
	/* a descriptor is free: worker 0 may accept again */
	if (atomic_load(&workers[0].accept_paused)) {
		if (w->id == 0) {
			atomic_store(&w->accept_paused, false);
		} else {
			uint64_t one = 1;

			if (write(workers[0].wake_fd, &one, sizeof(one)) < 0)
				log_warn("event=wake_failed thread=0 errno=%d", errno);
		}
	}
}

/*
 * Send @c's output at once, without waiting (MSG_DONTWAIT: the loop never
 * blocks on a client).  A response usually fits in the socket's buffer:
 * then it is out without a send SQE, and without the completion, and the
 * loop turn of its own that the completion took (at one request at a
 * time, every other turn).  What does not fit goes in a send SQE as
 * before (kick); nothing is sent here while one is in flight, so the
 * stream stays in order.  Errors are on_send's.
 */
static void send_now(struct conn *c)
{
	ssize_t r = send(c->fd, c->out.data + c->out_off, c->out.len - c->out_off,
			 MSG_DONTWAIT | MSG_NOSIGNAL);

	if (r > 0) {
		c->out_off += (size_t)r;
		if (c->out_off >= c->out.len)
			out_sent(c);
		c->last_active = mono_ms();
	} else if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
		c->closing = true;
		c->broken = true;
		conn_drop_output(c);
	}
}

/* Post @c's send and recv, or close it: false when @c is gone (freed). */
static bool kick(struct worker *w, struct conn *c)
{
	struct io_uring_sqe *sqe;

	if (c->broken)
		conn_drop_output(c);
	if (!c->send_posted && c->out.len == 0 && c->pending.len) {
		struct buf t = c->out;

		c->out = c->pending;
		c->pending = t;
		c->pending.len = 0;
		c->out_off = 0;
		c->out_count = c->pending_count;
		c->pending_count = 0;
	}
	if (!c->send_posted && c->out.len > c->out_off && !c->broken && !w->finalizing)
		send_now(c);
	if (!c->send_posted && c->out.len > c->out_off && !c->broken) {
		sqe = get_sqe(w);
		if (sqe) {
			io_uring_prep_send(sqe, c->fd, c->out.data + c->out_off,
					   c->out.len - c->out_off, MSG_NOSIGNAL);
			io_uring_sqe_set_data64(sqe, (uintptr_t)c | TAG_SEND);
			c->send_posted = true;
		}
	}
	if (c->closing) {
		/* answer what was asked (a store request too), then close */
		if (!c->shut && ((conn_output_len(c) == 0 && !c->store_jobs && !c->backlog) || c->broken)) {
			shutdown(c->fd, SHUT_RDWR);
			c->shut = true;
		}
		if (c->shut && !c->recv_posted && !c->send_posted && !c->store_jobs) {
			unlink_conn(w, c);
			return false;
		}
		return true;
	}
	if (c->linger && !c->reject) {
		/* the error is out: EOF for the client; its bytes are dropped */
		if (!c->wr_shut && !c->send_posted && conn_output_len(c) == 0 && !c->store_jobs) {
			shutdown(c->fd, SHUT_WR);
			c->wr_shut = true;
		}
		if (!c->recv_posted && c->in.cap > c->in.len && (sqe = get_sqe(w))) {
			io_uring_prep_recv(sqe, c->fd, c->in.data + c->in.len,
					   c->in.cap - c->in.len, 0);
			io_uring_sqe_set_data64(sqe, (uintptr_t)c | TAG_RECV);
			c->recv_posted = true;
		}
		return true;
	}
	/* with a backlog, nothing more is read until it is parsed */
	if (!c->recv_posted && !conn_output_full(c) && !c->store_jobs && !c->backlog) {
		uint32_t need = RECV_MIN;

		if (c->in.len >= RIND_FRAME_HDR) {
			uint32_t flen = rind_frame_get_len(c->in.data);

			/* (a whole frame is never left here: parse took it or set backlog) */
			if (flen <= cfg.max_frame && flen + RIND_FRAME_HDR > c->in.len &&
			    flen + RIND_FRAME_HDR - c->in.len > need)
				need = flen + RIND_FRAME_HDR - (uint32_t)c->in.len;
		}
		if (c->in.cap - c->in.len < need && buf_reserve(&c->in, need)) {
			log_err("event=out_of_memory where=recv conn=%llu", (unsigned long long)c->serial);
			c->closing = true;
			return true;
		}
		sqe = get_sqe(w);
		if (sqe) {
			io_uring_prep_recv(sqe, c->fd, c->in.data + c->in.len,
					   c->in.cap - c->in.len, 0);
			io_uring_sqe_set_data64(sqe, (uintptr_t)c | TAG_RECV);
			c->recv_posted = true;
		}
	}
	return true;
}

/*
 * What the turn's calls left on this thread's stack below the loop's frame
 * (a cipher's block buffer, a response being packed): wiped.  The library
 * wipes its own locals, but not every compiler spill; a -O1 build left
 * 96 bytes of an opened plaintext 2 KiB below here.  32 KiB covers the
 * deepest call a request makes; it costs about a microsecond a turn.
 */
#define STACK_BURN	(32 * 1024)

static __attribute__((noinline)) void burn_stack(void)
{
	unsigned char buf[STACK_BURN];

	explicit_bzero(buf, sizeof(buf));
	__asm__ volatile("" : : "r"(buf) : "memory");
}

static void run_ready(struct worker *w)
{
	struct conn *list = w->ready, *c, *next;

	w->ready = NULL;
	for (c = list; c; c = c->ready_next)
		parse(w, c);
	batch_run(w);
	for (c = list; c; c = next) {
		bool again;

		next = c->ready_next;
		c->on_ready = false;
		/*
		 * Whole requests left: the next turn, without waiting -- unless
		 * the output is still full, when the send kick posted brings it
		 * back (parse would stop at once: a spin while the client is
		 * not reading).
		 */
		again = kick(w, c) && c->backlog && !c->broken && !conn_output_full(c);
		if (again)
			worker_mark_ready(w, c);	/* the next turn, without waiting */
	}
	arena_reset();
	/*
	 * Only after a turn that ran requests: at one request at a time every
	 * other turn is a send or recv completion, and 32 KiB of zeroes each
	 * was 2-3% of the daemon's CPU per request.
	 */
	if (w->stack_dirty) {
		w->stack_dirty = false;
		burn_stack();
	}
}

/*
 * Once a turn, when due: lingering connections whose time is up, and
 * connections idle for --idle-timeout.
 */
static void housekeeping(struct worker *w, uint64_t now)
{
	struct conn *c;

	if (atomic_load(&w->accept_paused) && now >= w->accept_resume)
		atomic_store(&w->accept_paused, false);
	if (now < w->next_idle_check)
		return;
	for (c = w->conns; c; c = c->next) {
		if (c->closing)
			continue;
		if (c->linger) {
			if (now < c->linger_until)
				continue;
			if (c->reject) {
				/* ERR_BUSY given: now the linger proper */
				c->reject = false;
				c->linger_until = now + REJECT_LINGER_MS;
				buf_consume(&c->in, c->in.len);
			} else {
				c->closing = true;
			}
			worker_mark_ready(w, c);
			continue;
		}
		if (cfg.idle_timeout_ms && !c->send_posted && !conn_output_len(c) &&
		    !c->store_jobs && now - c->last_active >= cfg.idle_timeout_ms) {
			log_info("event=idle_close conn=%llu pid=%d uid=%u idle_ms=%llu",
				 (unsigned long long)c->serial, (int)c->peer.pid,
				 (unsigned int)c->peer.uid, (unsigned long long)(now - c->last_active));
			c->closing = true;
			worker_mark_ready(w, c);
		}
	}
	if (w->nlinger)
		w->next_idle_check = now + TICK_MS;
	else if (cfg.idle_timeout_ms)
		w->next_idle_check = now + (cfg.idle_timeout_ms / 4 < TICK_MS ? TICK_MS :
					    cfg.idle_timeout_ms / 4 > 1000 ? 1000 :
					    cfg.idle_timeout_ms / 4);
	else
		w->next_idle_check = UINT64_MAX;
}

/* How long the loop may sleep: -1 for as long as it takes. */
static int64_t wait_ms(struct worker *w, uint64_t now)
{
	int64_t ms = -1;
	uint64_t until = UINT64_MAX;

	if (w->ready)
		return 0;	/* requests left over from the last turn */
	if (w->stopping)
		until = now + TICK_MS;
	if (atomic_load(&w->accept_paused) && w->accept_resume < until)
		until = w->accept_resume;
	if (w->next_idle_check < until)
		until = w->next_idle_check;
	if (until != UINT64_MAX)
		ms = until > now ? (int64_t)(until - now) : 0;
	return ms;
}

/* Any I/O of @w's connections still out at the kernel. */
static bool io_posted(struct worker *w)
{
	struct conn *c;

	for (c = w->conns; c; c = c->next)
		if (c->recv_posted || c->send_posted)
			return true;
	return false;
}

/* Read what @c's socket holds (appended, or dropped when lingering). */
static void final_read(struct conn *c)
{
	size_t total = 0;

	while (total < FINAL_READ_MAX) {
		ssize_t r;

		if (c->in.cap - c->in.len < RECV_MIN && buf_reserve(&c->in, RECV_MIN))
			break;
		r = recv(c->fd, c->in.data + c->in.len, c->in.cap - c->in.len, MSG_DONTWAIT);
		if (r <= 0)
			break;
		total += (size_t)r;
		if (c->linger && !c->reject)
			explicit_bzero(c->in.data + c->in.len, (size_t)r);
		else
			c->in.len += (size_t)r;
	}
}

/* Every whole request left in @c's input: ERR_SHUTDOWN, with its id. */
static void answer_shutdown(struct conn *c)
{
	size_t off = 0;

	while (!c->fatal && !c->broken) {
		const uint8_t *payload;
		uint32_t plen;
		long n = rind_frame_parse(c->in.data + off, c->in.len - off, cfg.max_frame,
					  &payload, &plen);
		Rind__Request *req;

		if (n <= 0)
			break;
		off += (size_t)n;
		req = rind__request__unpack(NULL, plen, payload);
		if (!req)
			break;
		conn_error(c, req->id, RIND__STATUS__ERR_SHUTDOWN,
			   "rindd is stopping: the request was not run (drain timeout %u ms)",
			   cfg.drain_timeout_ms);
		dispatch_free(req);
	}
	buf_consume(&c->in, c->in.len);
}

/* Send what @c has queued, without blocking: true when all of it is out. */
static bool final_send(struct conn *c)
{
	for (;;) {
		struct buf *b = c->out_off < c->out.len ? &c->out : &c->pending;
		size_t off = b == &c->out ? c->out_off : 0;
		ssize_t r;

		if (b == &c->pending && !c->pending.len)
			return true;
		r = send(c->fd, b->data + off, b->len - off, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (r < 0)
			return errno != EAGAIN && errno != EINTR;	/* gone: nothing to wait for */
		if (b == &c->out) {
			c->out_off += (size_t)r;
			if (c->out_off >= c->out.len)
				out_sent(c);
		} else {
			buf_consume(&c->pending, (size_t)r);
		}
	}
}

/*
 * The drain timed out: cancel this loop's I/O, answer what was received
 * but not run with ERR_SHUTDOWN, give the answers FLUSH_MS to go out,
 * empty each socket (no reset) and close it.
 */
static void finalize(struct worker *w)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct conn *c, *next;
	uint64_t t0 = mono_ms();

	log_warn("event=drain_timeout thread=%d open_connections=%u timeout_ms=%u msg=\"answering what is left with ERR_SHUTDOWN\"",
		 w->id, w->nconns, cfg.drain_timeout_ms);
	w->finalizing = true;
	for (c = w->conns; c; c = c->next) {
		if (c->recv_posted && (sqe = get_sqe(w))) {
			io_uring_prep_cancel64(sqe, (uintptr_t)c | TAG_RECV, 0);
			io_uring_sqe_set_data64(sqe, 0);
		}
		if (c->send_posted && (sqe = get_sqe(w))) {
			io_uring_prep_cancel64(sqe, (uintptr_t)c | TAG_SEND, 0);
			io_uring_sqe_set_data64(sqe, 0);
		}
	}
	while (io_posted(w) && mono_ms() - t0 < FLUSH_MS) {
		struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = TICK_MS * 1000000L };
		unsigned int head, n = 0;

		io_uring_submit_and_wait_timeout(w->ring, &cqe, 1, &ts, NULL);
		io_uring_for_each_cqe(w->ring, head, cqe) {
			handle_cqe(w, cqe);
			n++;
		}
		io_uring_cq_advance(w->ring, n);
	}
	/* the store thread's answers first: they were run */
	while (atomic_load(&w->store_out)) {
		usleep(1000);
		store_complete(w);
	}
	for (c = w->conns; c; c = c->next) {
		c->on_ready = false;
		if (c->recv_posted || c->send_posted)
			continue;	/* the kernel still has it: just close */
		final_read(c);
		if (!c->linger || c->reject)
			answer_shutdown(c);
	}
	w->ready = NULL;
	t0 = mono_ms();
	for (;;) {
		struct pollfd pfd[256];
		unsigned int np = 0, waiting = 0;
		uint64_t now = mono_ms();

		for (c = w->conns; c; c = c->next)
			if (!c->recv_posted && !c->send_posted && !c->broken && !final_send(c)) {
				waiting++;
				if (np < 256) {
					pfd[np].fd = c->fd;
					pfd[np++].events = POLLOUT;
				}
			}
		if (!waiting || now - t0 >= FLUSH_MS)
			break;
		if (poll(pfd, np, (int)(FLUSH_MS - (now - t0))) < 0 && errno != EINTR)
			break;
	}
	for (c = w->conns; c; c = next) {
		next = c->next;
		if (c->recv_posted || c->send_posted)
			continue;	/* freed after the ring is gone */
		shutdown(c->fd, SHUT_WR);
		final_read(c);		/* whatever came meanwhile: read, not reset */
		buf_consume(&c->in, c->in.len);
		unlink_conn(w, c);
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct io_uring_cqe *cqe;

	log_thread = w->id;
	if (w->ring_disabled) {
		/* raw: liburing 2.3 (Debian 12) declares io_uring_enable_rings but does not export it */
		if (syscall(__NR_io_uring_register, w->ring->ring_fd, IORING_REGISTER_ENABLE_RINGS,
			    NULL, 0) < 0) {
			log_err("event=io_uring_enable_failed thread=%d errno=%d", w->id, errno);
			abort();
		}
	}
	if (arena_thread_init())
		log_warn("event=out_of_memory where=arena msg=\"requests use malloc\"");
	w->next_idle_check = UINT64_MAX;
	if (cfg.idle_timeout_ms)
		w->next_idle_check = mono_ms() + TICK_MS;
	post_accept(w);
	post_wake(w);
	for (;;) {
		struct __kernel_timespec ts;
		uint64_t now = mono_ms();
		unsigned int head, n = 0;
		int64_t ms;
		int ret;

		if (w->stopping) {
			if (!w->nconns && !atomic_load(&w->store_out))
				break;
			if (now >= w->stop_deadline) {
				finalize(w);
				break;
			}
		}
		ms = wait_ms(w, now);
		ts.tv_sec = ms / 1000;
		ts.tv_nsec = ms % 1000 * 1000000L;
		ret = io_uring_submit_and_wait_timeout(w->ring, &cqe, 1, ms >= 0 ? &ts : NULL, NULL);
		if (ret < 0 && ret != -ETIME && ret != -EINTR && ret != -EBUSY) {
			log_err("event=ring_wait_failed errno=%d", -ret);
			break;
		}
		io_uring_for_each_cqe(w->ring, head, cqe) {
			handle_cqe(w, cqe);
			n++;
		}
		io_uring_cq_advance(w->ring, n);
		if (atomic_load_explicit(&w->store_out, memory_order_relaxed))
			store_complete(w);
		housekeeping(w, mono_ms());
		if (!w->stopping)
			post_accept(w);
		run_ready(w);
	}
	/* Leftover connections (their I/O could not be cancelled): close without waiting... */
	io_uring_queue_exit(w->ring);
	/* ...but for what the store thread is doing for them (an fsync). */
	while (atomic_load(&w->store_out)) {
		usleep(1000);
		store_complete(w);
	}
	while (w->conns) {
		struct conn *c = w->conns;

		w->conns = c->next;
		atomic_fetch_sub(&stats.connections, 1);
		conn_free(c);
	}
	w->nconns = 0;
	arena_thread_exit();
	return NULL;
}

/*
 * The ring: a loop is the only thread that submits to its ring and waits
 * on it, which is what IORING_SETUP_SINGLE_ISSUER | DEFER_TASKRUN (6.1)
 * are for -- completions are run when the loop waits, in its own
 * context, instead of as task work that interrupts it (at one request at
 * a time, one less interruption and wakeup per request).  The ring is
 * made disabled (R_DISABLED) and the loop enables it itself (worker_main),
 * so that the issuer is the loop thread and not the thread that made it.
 * Older kernels refuse these flags (EINVAL): then COOP_TASKRUN (5.19),
 * then nothing.  @*disabled says whether the loop must enable the ring.
 */
static int ring_init(struct io_uring *ring, bool *disabled)
{
	static const unsigned int tries[] = {
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
			IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	struct io_uring_params p;
	unsigned int i;
	int err = -EINVAL;

	for (i = 0; i < sizeof(tries) / sizeof(tries[0]) && err == -EINVAL; i++) {
		memset(&p, 0, sizeof(p));
		p.flags = tries[i];
		err = io_uring_queue_init_params(4096, ring, &p);
		*disabled = !err && (tries[i] & IORING_SETUP_R_DISABLED);
	}
	return err;
}

/* Why io_uring_setup failed, in words an operator can act on. */
static void ring_init_failed(unsigned int thread, int err)
{
	struct rlimit rl = { 0, 0 };
	char lim[32] = "unlimited";

	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		snprintf(lim, sizeof(lim), "%llu", (unsigned long long)rl.rlim_cur);
	switch (err) {
	case -ENOMEM:
		log_err("event=io_uring_init_failed thread=%u errno=%d rlimit_memlock=%s msg=\"io_uring_setup: %s: RLIMIT_MEMLOCK is %s bytes, and kernels before 5.12 charge each ring (about 300 KiB for 4096 entries, per worker thread) to it -- raise LimitMEMLOCK= in the unit or ulimit -l, or use fewer --threads\"",
			thread, -err, lim, strerror(-err), lim);
		break;
	case -EPERM:
	case -EACCES:
		log_err("event=io_uring_init_failed thread=%u errno=%d msg=\"io_uring_setup: %s: io_uring is disabled for this process (sysctl kernel.io_uring_disabled, a seccomp filter or an LSM policy)\"",
			thread, -err, strerror(-err));
		break;
	case -ENOSYS:
		log_err("event=io_uring_init_failed thread=%u errno=%d msg=\"io_uring_setup: %s: this kernel has no io_uring (CONFIG_IO_URING), or a seccomp filter hides it\"",
			thread, -err, strerror(-err));
		break;
	case -EMFILE:
	case -ENFILE:
		log_err("event=io_uring_init_failed thread=%u errno=%d msg=\"io_uring_setup: %s: out of file descriptors (raise LimitNOFILE=)\"",
			thread, -err, strerror(-err));
		break;
	default:
		log_err("event=io_uring_init_failed thread=%u errno=%d msg=\"io_uring_setup: %s\"",
			thread, -err, strerror(-err));
	}
}

/*
 * The default connection limit: of what RLIMIT_NOFILE leaves after the
 * daemon's own descriptors (rings and eventfds per thread, the store's key
 * files and directory, the bus, the log), three quarters; the last quarter
 * is for connections being turned away with ERR_BUSY.  So the limit is met
 * before accept runs out of descriptors.
 */
static void default_limits(void)
{
	struct rlimit rl;
	unsigned long long n = 1u << 20, reserve = 32 + 2ull * cfg.threads;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		n = rl.rlim_cur > reserve + 16 ? rl.rlim_cur - reserve : 16;
	if (n > (1u << 20))
		n = 1u << 20;
	if (!cfg.max_connections) {
		cfg.max_connections = (unsigned int)(n * 3 / 4);
		reject_max = (unsigned int)(n - cfg.max_connections);
	} else {
		reject_max = n > cfg.max_connections ? (unsigned int)(n - cfg.max_connections) : 4;
		if (reject_max > 1024)
			reject_max = 1024;
	}
	if (reject_max < 4)
		reject_max = 4;
}

int workers_start(int listen_fd)
{
	unsigned int i;
	int err;

	nworkers = cfg.threads;
	default_limits();
	workers = calloc(nworkers, sizeof(*workers));
	if (!workers)
		return -ENOMEM;
	for (i = 0; i < nworkers; i++) {
		struct worker *w = &workers[i];

		w->id = (int)i;
		w->listen_fd = listen_fd;
		pthread_mutex_init(&w->store_lock, NULL);
		w->multishot = true;
		w->ring = calloc(1, sizeof(*w->ring));
		w->batch = batch_new();
		w->wake_fd = eventfd(0, EFD_CLOEXEC);
		if (!w->ring || !w->batch || w->wake_fd < 0)
			return -ENOMEM;
		err = ring_init(w->ring, &w->ring_disabled);
		if (err) {
			ring_init_failed(i, err);
			return err;
		}
	}
	/* every ring exists before worker 0 can hand a connection over */
	for (i = 0; i < nworkers; i++)
		if (pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]))
			return -EAGAIN;
	log_info("event=workers_started threads=%u max_connections=%u idle_timeout_ms=%u drain_timeout_ms=%u",
		 nworkers, cfg.max_connections, cfg.idle_timeout_ms, cfg.drain_timeout_ms);
	return 0;
}

void workers_stop(void)
{
	unsigned int i;
	uint64_t one = 1;

	atomic_store(&rindd_stopping, true);
	for (i = 0; i < nworkers; i++)
		if (write(workers[i].wake_fd, &one, sizeof(one)) < 0)
			log_warn("event=wake_failed thread=%u errno=%d", i, errno);
}

void workers_join(void)
{
	unsigned int i;

	for (i = 0; i < nworkers; i++) {
		pthread_join(workers[i].thread, NULL);
		batch_free(workers[i].batch);
		close(workers[i].wake_fd);
		free(workers[i].ring);
	}
	free(workers);
	workers = NULL;
}

/*
 * Watchdog liveness: each ping bumps the sequence and wakes every loop,
 * which records the sequence it saw when it next runs its completions.
 */
void workers_ping(void)
{
	unsigned int i;
	uint64_t one = 1;

	atomic_fetch_add(&ping_seq, 1);
	for (i = 0; i < nworkers; i++)
		if (write(workers[i].wake_fd, &one, sizeof(one)) < 0)
			log_warn("event=wake_failed thread=%u errno=%d", i, errno);
}

bool workers_alive(void)
{
	unsigned long long seq = atomic_load(&ping_seq);
	unsigned int i;

	for (i = 0; i < nworkers; i++)
		if (atomic_load(&workers[i].alive) != seq)
			return false;
	return true;
}
