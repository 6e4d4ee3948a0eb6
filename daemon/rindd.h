/* SPDX-License-Identifier: MIT */
/*
 * rindd internals: configuration, keys, connections, the per-thread loop.
 */
#ifndef _RINDD_H
#define _RINDD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <pthread.h>

#include "frame.h"

/*
 * No rind header here: loop.c includes liburing, whose <linux/types.h>
 * clashes with <rind/types.h>.  Files that call the library include
 * <rind/crypto.h> themselves.
 */
struct crypto_sig;
struct crypto_kpp;
struct crypto_aead;

#define RINDD_VERSION		"rindd 0.1.0 protocol 1"
#define RINDD_MAX_THREADS	64
#define RINDD_NAME_MAX		64
#define RINDD_KEY_MAX		32	/* raw secret bytes of every supported alg */

/* ---- configuration (main.c) ---- */
struct rindd_config {
	const char *socket_path;
	const char *state_dir;
	const char *master_key_file;
	unsigned int threads;
	uint32_t max_frame;
	unsigned int max_inflight;	/* per connection, then ERR_BUSY */
	size_t max_output;		/* per connection, then stop reading */
	unsigned int max_batch;
	mode_t socket_mode;
	bool foreground;
};
extern struct rindd_config cfg;
extern atomic_bool rindd_stopping;

/* ---- statistics ---- */
struct rindd_stats {
	atomic_ullong requests, errors, batches, batched_requests, max_batch;
	atomic_ullong connections;	/* currently open */
};
extern struct rindd_stats stats;
void stats_note_batch(unsigned int n);

/* ---- logging (log.c): one "key=value ..." line per event on stderr ---- */
void rlog(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define log_info(...)	rlog("info", __VA_ARGS__)
#define log_warn(...)	rlog("warn", __VA_ARGS__)
#define log_err(...)	rlog("error", __VA_ARGS__)
extern __thread int log_thread;

/* ---- keys (keys.c) ---- */
enum key_alg {
	KEY_ED25519,
	KEY_X25519,
	KEY_AES256GCM,
};

struct key {
	char name[RINDD_NAME_MAX + 1];
	enum key_alg alg;
	uint32_t owner_uid;
	uint32_t *allow_uids, *allow_gids;
	size_t n_allow_uids, n_allow_gids;
	uint64_t created;
	uint32_t version;
	bool exportable;
	uint8_t *secret;			/* RINDD_KEY_MAX bytes, mlock'ed, not dumped */
	atomic_int refs;
	bool deleted;
	/* one transform per thread, set up lazily by the thread that uses it */
	void *tfm[RINDD_MAX_THREADS];
};

const char *key_alg_name(enum key_alg alg);
int key_alg_parse(const char *s, enum key_alg *alg);	/* -EOPNOTSUPP/-EINVAL */
bool key_name_valid(const char *name);

struct key *key_new(const char *name, enum key_alg alg, const uint8_t *secret);
void key_put(struct key *k);
struct key *key_lookup(const char *name);	/* takes a reference */
int key_insert(struct key *k);			/* -EEXIST */
struct key *key_remove(const char *name);	/* the table's reference */
size_t key_count(void);
/* Snapshot of every key (referenced); free with key_list_put. */
struct key **key_list(size_t *n);
void key_list_put(struct key **v, size_t n);
void keys_wipe_all(void);

/* Per-thread transforms (-errno on failure). */
struct crypto_sig *key_sig(struct key *k, int thread);
struct crypto_kpp *key_kpp(struct key *k, int thread);
struct crypto_aead *key_aead(struct key *k, int thread);

/* ---- key store (keystore.c) ---- */
int keystore_init(void);		/* master key, then load all keys */
int keystore_save(const struct key *k);
int keystore_delete(const char *name);
bool keystore_exists(const char *name);
void keystore_exit(void);
extern pthread_mutex_t keystore_lock;	/* serialises create/import/delete */

/* ---- access control (acl.c) ---- */
struct peer {
	pid_t pid;
	uid_t uid;
	gid_t gid;
};
int peer_get(int fd, struct peer *p);
bool acl_may_use(const struct key *k, const struct peer *p);
bool acl_may_admin(const struct key *k, const struct peer *p);
bool acl_may_see(const struct key *k, const struct peer *p);

/* ---- connections (conn.c) ---- */
struct buf {
	uint8_t *data;
	size_t len, cap;
};

struct conn {
	int fd;
	struct peer peer;
	uint64_t serial;
	struct buf in;			/* received, not yet parsed */
	struct buf out;			/* being sent (stable while a send is in flight) */
	size_t out_off;
	struct buf pending;		/* responses queued behind @out */
	unsigned int out_count;		/* responses in @out */
	unsigned int pending_count;	/* responses in @pending */
	bool recv_posted, send_posted;
	bool closing;			/* stop reading; close once output drained */
	bool shut;
	bool eof;
	bool fatal;			/* framing error: answer it, then close */
	bool broken;			/* write side failed: drop output */
	bool on_ready;
	struct conn *ready_next;
	struct conn *prev, *next;	/* the worker's list */
};

struct worker;
struct conn *conn_new(int fd);
void conn_free(struct conn *c);
int buf_reserve(struct buf *b, size_t extra);
void buf_wipe_free(struct buf *b);
/* Frame and queue a response; false when out of memory (conn then closes). */
bool conn_respond(struct conn *c, Rind__Response *resp);
/* Respond with an error status and message (printf format). */
void conn_error(struct conn *c, uint64_t id, int status, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
bool conn_output_full(const struct conn *c);
size_t conn_output_len(const struct conn *c);
unsigned int conn_inflight(const struct conn *c);

/* ---- dispatch (dispatch.c) and batches (batch.c) ---- */
struct batch_ctx;
struct worker {
	int id;
	struct io_uring *ring;
	int listen_fd;
	int wake_fd;
	bool multishot;
	bool accept_posted;
	bool stopping;
	uint64_t wake_val;
	struct conn *conns;
	unsigned int nconns;
	struct conn *ready;
	struct batch_ctx *batch;
	pthread_t thread;
};
void worker_mark_ready(struct worker *w, struct conn *c);

/* Handle one request; batchable ones are queued to w->batch. */
void dispatch(struct worker *w, struct conn *c, Rind__Request *req);
void dispatch_free(Rind__Request *req);
struct batch_ctx *batch_new(void);
void batch_free(struct batch_ctx *b);
/* Queue; takes ownership of @req and a reference to @k. */
void batch_add(struct worker *w, struct conn *c, struct key *k, Rind__Request *req);
void batch_run(struct worker *w);
/* Errors for a failed crypto call. */
int status_from_errno(int err);

/* ---- loop (loop.c) ---- */
int workers_start(int listen_fd);
void workers_stop(void);
void workers_join(void);

#endif /* _RINDD_H */
