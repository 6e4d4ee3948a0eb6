// SPDX-License-Identifier: MIT
/*
 * Key store operations off the event loops.  Creating, importing and
 * deleting a key ends in fsync of the key file and of the directory:
 * milliseconds on a real disk, during which a loop would sign nothing for
 * any of its connections.  So the loops hand those requests to one store
 * thread (operations on the store are serialised by keystore_lock anyway)
 * and carry on; the thread runs the request against a shadow of the
 * connection (its peer credentials, a private output buffer) and passes
 * the framed response back to the loop, which appends it to the real
 * connection's output and frees the request there (it came from the
 * loop's arena).
 *
 * A connection with a request at the store is not freed until the answer
 * is back; a loop does not exit while any of its requests is out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rindd.h"

struct store_job {
	struct store_job *next;
	struct worker *w;
	struct conn *c;			/* the loop's: touched on the loop only */
	struct conn shadow;		/* what the handler sees */
	Rind__Request *req;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static struct store_job *queue, **queue_tail = &queue;
static bool running, stop;
static pthread_t thread;
/* Test hook: RINDD_TEST_STORE_DELAY_MS stands in for a slow disk. */
static unsigned int delay_ms;

static void *store_main(void *arg)
{
	(void)arg;
	log_thread = -2;
	pthread_mutex_lock(&lock);
	for (;;) {
		struct store_job *j;
		struct worker *w;
		uint64_t one = 1;

		while (!queue && !stop)
			pthread_cond_wait(&cond, &lock);
		if (!queue)
			break;
		j = queue;
		queue = j->next;
		if (!queue)
			queue_tail = &queue;
		pthread_mutex_unlock(&lock);

		if (delay_ms)
			usleep(delay_ms * 1000);
		dispatch_admin(&j->shadow, j->req);

		/*
		 * Wake the loop before letting go of store_lock: once the loop
		 * has taken its last job it may exit and workers_join() free
		 * @w and close its eventfd, so nothing of @w is touched after
		 * the unlock.
		 */
		w = j->w;
		pthread_mutex_lock(&w->store_lock);
		j->next = w->store_done;
		w->store_done = j;
		if (write(w->wake_fd, &one, sizeof(one)) < 0)
			log_warn("event=wake_failed thread=%d errno=%d", w->id, errno);
		pthread_mutex_unlock(&w->store_lock);
		pthread_mutex_lock(&lock);
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

int store_start(void)
{
	const char *d = getenv("RINDD_TEST_STORE_DELAY_MS");
	int err;

	if (d)
		delay_ms = (unsigned int)strtoul(d, NULL, 10);
	err = pthread_create(&thread, NULL, store_main, NULL);

	if (err)
		return -err;
	running = true;
	return 0;
}

/* After the loops have exited: the queue is empty by then. */
void store_stop(void)
{
	if (!running)
		return;
	pthread_mutex_lock(&lock);
	stop = true;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	pthread_join(thread, NULL);
	running = false;
}

/* Loop thread: true if @req went to the store thread (answered later). */
bool store_submit(struct worker *w, struct conn *c, Rind__Request *req)
{
	struct store_job *j;

	if (!running)
		return false;
	j = calloc(1, sizeof(*j));
	if (!j)
		return false;	/* do it here, then */
	j->w = w;
	j->c = c;
	j->req = req;
	j->shadow.fd = -1;
	j->shadow.peer = c->peer;
	j->shadow.serial = c->serial;
	c->store_jobs++;
	atomic_fetch_add(&w->store_out, 1);
	pthread_mutex_lock(&lock);
	*queue_tail = j;
	queue_tail = &j->next;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	return true;
}

/* Loop thread, on a wake: deliver what the store thread answered. */
void store_complete(struct worker *w)
{
	struct store_job *j, *next;

	pthread_mutex_lock(&w->store_lock);
	j = w->store_done;
	w->store_done = NULL;
	pthread_mutex_unlock(&w->store_lock);
	if (j)
		w->stack_dirty = true;	/* freed requests, answers copied: burn_stack() */
	for (; j; j = next) {
		struct conn *c = j->c;
		struct buf *out = &j->shadow.pending;

		next = j->next;
		c->store_jobs--;
		if (!(c->closing && c->shut) && !c->broken && out->len) {
			if (buf_reserve(&c->pending, out->len)) {
				log_err("event=out_of_memory conn=%llu", (unsigned long long)c->serial);
				c->closing = true;
			} else {
				memcpy(c->pending.data + c->pending.len, out->data, out->len);
				c->pending.len += out->len;
				c->pending_count += j->shadow.pending_count;
			}
		}
		buf_wipe_free(out);
		dispatch_free(j->req);
		free(j);
		atomic_fetch_sub(&w->store_out, 1);
		worker_mark_ready(w, c);
	}
}
