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
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include <liburing.h>

#include "rindd.h"

enum { TAG_RECV = 1, TAG_SEND = 2, TAG_ACCEPT = 3, TAG_WAKE = 4, TAG_NEWCONN = 5, TAG_HANDOFF = 6 };
#define TAG_MASK	7ul
#define RECV_MIN	(16 * 1024)
#define STOP_GRACE_MS	5000

static struct worker *workers;
static unsigned int nworkers;
static atomic_ullong conn_serial;
static unsigned int next_worker;
static atomic_ullong ping_seq;

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

	if (w->accept_posted || w->stopping || w->id != 0)
		return;
	sqe = get_sqe(w);
	if (!sqe)
		return;
	if (w->multishot)
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
static void add_conn(struct worker *w, int fd)
{
	struct conn *c = conn_new(fd);

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
	c->next = w->conns;
	if (w->conns)
		w->conns->prev = c;
	w->conns = c;
	w->nconns++;
	atomic_fetch_add(&stats.connections, 1);
	if (w->stopping)
		c->closing = true;
	log_info("event=connect conn=%llu pid=%d uid=%u gid=%u", (unsigned long long)c->serial,
		 (int)c->peer.pid, (unsigned int)c->peer.uid, (unsigned int)c->peer.gid);
	worker_mark_ready(w, c);
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
		} else if (fd != -ECANCELED) {
			log_warn("event=accept_failed errno=%d", -fd);
		}
		return;
	}
	to = &workers[next_worker++ % nworkers];
	if (to == w || w->stopping || !(sqe = get_sqe(w))) {
		add_conn(w, fd);
		return;
	}
	io_uring_prep_msg_ring(sqe, to->ring->ring_fd, (unsigned int)fd, TAG_NEWCONN, 0);
	io_uring_sqe_set_data64(sqe, (uint64_t)fd << 3 | TAG_HANDOFF);
}

static void on_recv(struct worker *w, struct conn *c, int res)
{
	c->recv_posted = false;
	if (res > 0) {
		c->in.len += (size_t)res;
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
		if (res != -EINTR && res != -EAGAIN) {
			c->closing = true;
			c->broken = true;
			conn_drop_output(c);
		}
	} else {
		c->out_off += (size_t)res;
		if (c->out_off >= c->out.len)
			out_sent(c);
	}
	worker_mark_ready(w, c);
}

static void begin_stop(struct worker *w)
{
	struct conn *c;
	struct io_uring_sqe *sqe;

	if (w->stopping)
		return;
	w->stopping = true;
	if (w->accept_posted) {
		sqe = get_sqe(w);
		if (sqe) {
			io_uring_prep_cancel64(sqe, TAG_ACCEPT, 0);
			io_uring_sqe_set_data64(sqe, 0);
		}
	}
	for (c = w->conns; c; c = c->next) {
		c->closing = true;
		worker_mark_ready(w, c);
	}
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
		if (cqe->res >= 0)
			add_conn(w, cqe->res);
		break;
	case TAG_HANDOFF:
		/* the other ring did not get it: serve it here */
		if (cqe->res < 0)
			add_conn(w, (int)(ud >> 3));
		break;
	case TAG_WAKE:
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
static void parse(struct worker *w, struct conn *c)
{
	size_t off = 0;

	/*
	 * A request at the store thread is a barrier for its connection: what
	 * the client sent after it (a sign with the key just created) waits.
	 */
	while (!c->fatal && !c->broken && !conn_output_full(c) && !c->store_jobs) {
		const uint8_t *payload;
		uint32_t plen;
		long n = rind_frame_parse(c->in.data + off, c->in.len - off, cfg.max_frame,
					  &payload, &plen);
		Rind__Request *req;

		if (n == 0)
			break;
		atomic_fetch_add_explicit(&stats.requests, 1, memory_order_relaxed);
		if (n < 0) {
			log_warn("event=frame_too_large conn=%llu pid=%d uid=%u len=%u max=%u",
				 (unsigned long long)c->serial, (int)c->peer.pid,
				 (unsigned int)c->peer.uid, rind_frame_get_len(c->in.data + off),
				 cfg.max_frame);
			conn_error(c, 0, RIND__STATUS__ERR_FRAME,
				   "frame of %u bytes exceeds the maximum of %u; closing",
				   rind_frame_get_len(c->in.data + off), cfg.max_frame);
			c->closing = c->fatal = true;
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
			c->closing = c->fatal = true;
			off = c->in.len;
			break;
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
	atomic_fetch_sub(&stats.connections, 1);
	log_info("event=disconnect conn=%llu pid=%d uid=%u%s", (unsigned long long)c->serial,
		 (int)c->peer.pid, (unsigned int)c->peer.uid,
		 c->fatal ? " reason=frame_error" : c->broken ? " reason=io_error" : "");
	conn_free(c);
}

static void kick(struct worker *w, struct conn *c)
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
		if (!c->shut && ((conn_output_len(c) == 0 && !c->store_jobs) || c->broken)) {
			shutdown(c->fd, SHUT_RDWR);
			c->shut = true;
		}
		if (c->shut && !c->recv_posted && !c->send_posted && !c->store_jobs)
			unlink_conn(w, c);
		return;
	}
	if (!c->recv_posted && !conn_output_full(c) && !c->store_jobs) {
		uint32_t need = RECV_MIN;

		if (c->in.len >= RIND_FRAME_HDR) {
			uint32_t flen = rind_frame_get_len(c->in.data);

			if (flen <= cfg.max_frame && flen + RIND_FRAME_HDR - c->in.len > need)
				need = flen + RIND_FRAME_HDR - (uint32_t)c->in.len;
		}
		if (c->in.cap - c->in.len < need && buf_reserve(&c->in, need)) {
			log_err("event=out_of_memory where=recv conn=%llu", (unsigned long long)c->serial);
			c->closing = true;
			return;
		}
		sqe = get_sqe(w);
		if (sqe) {
			io_uring_prep_recv(sqe, c->fd, c->in.data + c->in.len,
					   c->in.cap - c->in.len, 0);
			io_uring_sqe_set_data64(sqe, (uintptr_t)c | TAG_RECV);
			c->recv_posted = true;
		}
	}
}

static void run_ready(struct worker *w)
{
	struct conn *list = w->ready, *c, *next;

	w->ready = NULL;
	for (c = list; c; c = c->ready_next)
		parse(w, c);
	batch_run(w);
	for (c = list; c; c = next) {
		next = c->ready_next;
		c->on_ready = false;
		kick(w, c);
	}
	arena_reset();
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct io_uring_cqe *cqe;
	struct timespec t0 = { 0 }, now;

	log_thread = w->id;
	if (arena_thread_init())
		log_warn("event=out_of_memory where=arena msg=\"requests use malloc\"");
	post_accept(w);
	post_wake(w);
	for (;;) {
		struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 100 * 1000 * 1000 };
		unsigned int head, n = 0;
		int ret;

		if (w->stopping) {
			if (!w->nconns)
				break;
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (!t0.tv_sec)
				t0 = now;
			if ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 >
			    STOP_GRACE_MS) {
				log_warn("event=stop_grace_expired open_connections=%u", w->nconns);
				break;
			}
		}
		ret = io_uring_submit_and_wait_timeout(w->ring, &cqe, 1, w->stopping ? &ts : NULL, NULL);
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
		if (!w->stopping)
			post_accept(w);
		run_ready(w);
	}
	/* Leftover connections (grace expired): close without waiting... */
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

static int ring_init(struct io_uring *ring)
{
	struct io_uring_params p;
	int err;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_COOP_TASKRUN;
	err = io_uring_queue_init_params(4096, ring, &p);
	if (err == -EINVAL) {
		memset(&p, 0, sizeof(p));
		err = io_uring_queue_init_params(4096, ring, &p);
	}
	return err;
}

int workers_start(int listen_fd)
{
	unsigned int i;

	nworkers = cfg.threads;
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
		if (ring_init(w->ring)) {
			log_err("event=io_uring_init_failed thread=%u", i);
			return -ENOSYS;
		}
	}
	/* every ring exists before worker 0 can hand a connection over */
	for (i = 0; i < nworkers; i++)
		if (pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]))
			return -EAGAIN;
	log_info("event=workers_started threads=%u", nworkers);
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
