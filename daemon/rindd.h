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
#define KEY_MAX_VERSIONS	65	/* current + 64 live older versions */

/* ---- configuration (main.c) ---- */
struct rindd_config {
	const char *socket_path;
	const char *state_dir;
	const char *master_key_file;
	const char *bus;		/* "system", "user", "none"; NULL: auto */
	const char *bus_address;	/* a private bus (tests) */
	bool bus_auto;			/* cfg.bus was not given: a failure is not fatal */
	const char *log_target;		/* "journal", "stderr"; NULL: auto */
	unsigned int threads;
	uint32_t max_frame;
	unsigned int max_inflight;	/* per connection, then ERR_BUSY */
	size_t max_output;		/* per connection, then stop reading */
	unsigned int max_batch;
	mode_t socket_mode;
	bool foreground;
	/* connections (loop.c) */
	unsigned int max_connections;	/* 0: from RLIMIT_NOFILE (workers_start) */
	unsigned int idle_timeout_ms;	/* close idle connections after this; 0: never */
	unsigned int drain_timeout_ms;	/* SIGTERM: answer what was sent for this long */
	bool socket_activated;		/* the listening socket is systemd's: leave it be */
};
#define RINDD_IDLE_TIMEOUT_DEFAULT_MS	(300u * 1000)
#define RINDD_DRAIN_TIMEOUT_DEFAULT_MS	(5u * 1000)
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

/*
 * Audit records: every management action and every denied request, with the
 * peer's uid/pid, the key and the action; never key material.  @result is
 * "ok", "denied" or an error name.  Through the journal as fields
 * RIND_AUDIT=1 RIND_ACTION= RIND_KEY= RIND_UID= RIND_PID= RIND_RESULT=
 * (plus the line as MESSAGE), else one "event=audit ..." line on stderr.
 */
void audit(const char *action, const char *key, uid_t uid, pid_t pid, const char *via,
	   const char *result, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
void log_init(void);
/*
 * @s as a quoted log value: "..." with \" \\ and \xHH escapes, cut to
 * fit @size.  For any client-supplied string in a log or audit line
 * ("alg=%s", log_quote(buf, sizeof(buf), alg)).  Returns @buf.
 */
const char *log_quote(char *buf, size_t size, const char *s);

/* ---- keys (key-object.c) ---- */
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
	uint32_t version;			/* current: signs and seals */
	uint32_t min_version;			/* older versions below are retired */
	bool exportable;
	uint8_t *secret;			/* RINDD_KEY_MAX bytes, mlock'ed, not dumped */
	atomic_int refs;
	bool deleted;
	/* one transform per thread, set up lazily by the thread that uses it */
	void *tfm[RINDD_MAX_THREADS];
	/*
	 * Older versions still accepted by verify and open (>= min_version),
	 * oldest first.  A key object is never changed once it is in the
	 * table: rotation, retirement and access changes insert a new object
	 * (key_clone + key_replace); requests holding the old one finish with it.
	 */
	struct key_old {
		uint32_t version;
		uint64_t created;
		uint8_t *secret;
		void *tfm[RINDD_MAX_THREADS];
	} *old;
	size_t n_old;
};

const char *key_alg_name(enum key_alg alg);
int key_alg_parse(const char *s, enum key_alg *alg);	/* -EOPNOTSUPP/-EINVAL */
bool key_name_valid(const char *name);

struct key *key_new(const char *name, enum key_alg alg, const uint8_t *secret);
uint8_t *key_slot_dup(const uint8_t *secret);	/* a locked copy, RINDD_KEY_MAX bytes */
void key_put(struct key *k);
struct key *key_lookup(const char *name);	/* takes a reference */
int key_insert(struct key *k);			/* -EEXIST */
struct key *key_remove(const char *name);	/* the table's reference */
/* A deep copy (secrets in fresh locked slots, no transforms), refs 1. */
struct key *key_clone(const struct key *k);
/* Put @k in the place of the key of the same name: 0 or -ENOENT. */
int key_replace(struct key *k);
/* Make a new current version from @secret (the old one joins k->old). */
int key_add_version(struct key *k, const uint8_t *secret);
/* Drop versions below @min (wiped): 0, -EINVAL if @min > current. */
int key_retire(struct key *k, uint32_t min);
/* Version @v of @k: its secret and transform slots, NULL if not live. */
uint8_t *key_version_secret(struct key *k, uint32_t v, void ***tfm);
size_t key_count(void);
/* Snapshot of every key (referenced); free with key_list_put. */
struct key **key_list(size_t *n);
void key_list_put(struct key **v, size_t n);
void keys_wipe_all(void);

/* Per-thread request arena (arena.c): reset at the end of each turn. */
int arena_thread_init(void);
void arena_thread_exit(void);
ProtobufCAllocator *arena_allocator(void);	/* NULL: malloc */
void *arena_zalloc(size_t size);
void arena_release(void *p, size_t size);	/* wipes it unless the reset will */
void arena_reset(void);

/* Locked, non-dumpable memory (secmem.c): key slots and library transforms. */
void secmem_init(void);
void *secmem_alloc(size_t size);		/* zeroed, 64-byte aligned */
void secmem_free(void *p, size_t size);	/* wipes */
size_t secmem_locked_bytes(void);

/* Per-thread transforms (-errno on failure). */
struct crypto_sig *key_sig(struct key *k, int thread);
struct crypto_kpp *key_kpp(struct key *k, int thread);
struct crypto_aead *key_aead(struct key *k, int thread);
/* The same for version @v (NULL when it is not live or cannot be set up). */
struct crypto_sig *key_sig_ver(struct key *k, uint32_t v, int thread);
struct crypto_aead *key_aead_ver(struct key *k, uint32_t v, int thread);

/* ---- key store (key-file.c) ---- */
int keystore_init(void);		/* master key, then load all keys */
int keystore_save(const struct key *k);
int keystore_write(const struct key *k, bool replace);
int keystore_delete(const char *name);
bool keystore_exists(const char *name);
void keystore_exit(void);
extern pthread_mutex_t keystore_lock;	/* serialises create/import/delete */

/* ---- access control (acl.c) ---- */
struct peer {
	pid_t pid;
	uid_t uid;
	gid_t gid;		/* primary; (gid_t)-1: unknown, matches nothing */
	gid_t *groups;		/* supplementary (SO_PEERGROUPS, the bus's UnixGroupIDs) */
	size_t ngroups;
};
int peer_get(int fd, struct peer *p);	/* peer_release() frees its groups */
void peer_release(struct peer *p);
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
	/*
	 * Lingering (after a framing error, or over the connection limit):
	 * what the client still sends is read and discarded, so that its
	 * writes do not fail with EPIPE before it reads the error and the
	 * close is no reset; our side is shut for writing once the error is
	 * out, and the connection closes at the client's EOF or @linger_until.
	 * @reject: over the connection limit -- each request is answered
	 * ERR_BUSY until @linger_until, then the linger proper.
	 */
	bool linger, reject, wr_shut;
	bool draining;			/* SIGTERM: our read side is shut, the queue is read out */
	bool over_limit;		/* accepted past --max-connections: turned away */
	uint64_t linger_until;		/* CLOCK_MONOTONIC ms */
	size_t discarded;
	uint64_t last_active;		/* CLOCK_MONOTONIC ms of the last request or I/O */
	bool on_ready;
	unsigned int store_jobs;	/* requests out at the store thread */
	struct conn *ready_next;
	struct conn *prev, *next;	/* the worker's list */
};

struct worker;
struct conn *conn_new(int fd);
void conn_free(struct conn *c);
int buf_reserve(struct buf *b, size_t extra);	/* the old block is wiped, never realloc'ed */
void buf_consume(struct buf *b, size_t n);	/* drop the first @n bytes, wiped */
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
	bool accept_multi;		/* the armed accept is multishot */
	bool stopping;
	bool finalizing;		/* the drain timed out: cancelling I/O, answering ERR_SHUTDOWN */
	/*
	 * Accept back-off (worker 0): out of descriptors, accept is not
	 * re-armed until a connection closes (any worker wakes worker 0) or
	 * @accept_resume (ms) passes; one log line per episode at its start,
	 * one with the count at its end.
	 */
	atomic_bool accept_paused;
	uint64_t accept_resume, episode_start;
	unsigned long episode_failures;
	unsigned long rejects;		/* over the connection limit, since @reject_logged */
	uint64_t reject_logged;
	uint64_t stop_deadline;		/* ms */
	uint64_t next_idle_check;	/* ms */
	unsigned int nlinger;
	uint64_t wake_val;
	struct conn *conns;
	unsigned int nconns;
	struct conn *ready;
	struct batch_ctx *batch;
	pthread_t thread;
	atomic_ullong alive;		/* the last watchdog ping this loop answered */
	pthread_mutex_t store_lock;
	struct store_job *store_done;	/* answered by the store thread */
	atomic_uint store_out;		/* requests of this loop at the store thread */
};
void worker_mark_ready(struct worker *w, struct conn *c);

/*
 * Request types: one row each in dispatch.c's req_types[], the one place
 * a type is described.  A new type is a row there and its handler.
 */
enum req_run {
	REQ_INLINE,	/* answered on the loop, at once */
	REQ_BATCH,	/* queued to the turn's batch of its key (batch.c) */
	REQ_STORE,	/* on the store thread (it fsyncs); at once without one */
};

#define REQ_WIPE_MAX	2
struct batch_group;

struct req_type {
	const char *name;		/* logs, audit records, errors */
	enum req_run run;
	/*
	 * The key the request names: the offset of its name string in the
	 * operation's message (0: none), and the algorithm the key must be
	 * (-1: any).  dispatch() looks it up and checks access and algorithm,
	 * answering the error itself, before the request goes on.
	 */
	size_t key_name;
	int key_alg;
	/*
	 * REQ_INLINE, REQ_STORE: answer @req exactly once.  @k is the key the
	 * request names (or NULL), referenced until the handler returns; @w
	 * is NULL on the store thread.  The caller frees @req.
	 */
	void (*handle)(struct worker *w, struct conn *c, Rind__Request *req, struct key *k);
	/* REQ_BATCH: answer every request of a group (one key, this type) */
	void (*run_batch)(struct worker *w, struct batch_group *g);
	/* bytes fields of the operation's message wiped at free (offsets; 0 ends) */
	size_t wipe[REQ_WIPE_MAX];
};

const struct req_type *req_type(const Rind__Request *req);	/* NULL: unknown */
const char *req_name(const Rind__Request *req);			/* "unknown" */
/* Handle one request; batchable ones are queued to w->batch. */
void dispatch(struct worker *w, struct conn *c, Rind__Request *req);
void dispatch_free(Rind__Request *req);
/* Create, import and delete: the store thread runs them (no free of @req). */
void dispatch_admin(struct conn *c, Rind__Request *req);

/* ---- the store thread (store-thread.c) ---- */
struct store_job;
int store_start(void);
void store_stop(void);
bool store_submit(struct worker *w, struct conn *c, Rind__Request *req);
void store_complete(struct worker *w);
struct batch_ctx *batch_new(void);
void batch_free(struct batch_ctx *b);
/* Queue @req (of type @t); takes ownership of @req and a reference to @k. */
void batch_add(struct worker *w, struct conn *c, const struct req_type *t, struct key *k,
	       Rind__Request *req);
void batch_run(struct worker *w);
/* The batch runners of sign and seal (req_types[] rows). */
void batch_sign(struct worker *w, struct batch_group *g);
void batch_seal(struct worker *w, struct batch_group *g);
/* Errors for a failed crypto call. */
int status_from_errno(int err);

/* ---- loop (loop.c) ---- */
int workers_start(int listen_fd);
void workers_stop(void);
void workers_join(void);
/*
 * Liveness for the watchdog: workers_ping() asks every loop to answer;
 * workers_alive() is true when each answered the previous ping.
 */
void workers_ping(void);
bool workers_alive(void);

/* ---- management actions shared by the socket and D-Bus (key-admin.c) ---- */
/* Rotate: 0 and the new version in *@ver, or -ENOENT/-EPERM/-errno. */
int key_rotate(const char *name, uid_t uid, pid_t pid, const char *via, uint32_t *ver);
int key_set_min_version(const char *name, uint32_t min, uid_t uid, pid_t pid, const char *via);
int key_set_access(const char *name, const uint32_t *uids, size_t nu, const uint32_t *gids,
		   size_t ng, uid_t uid, pid_t pid, const char *via);
/* Create (secret generated when @import is NULL) or import; sets *@out (referenced). */
int key_create(const char *name, const char *alg, const uint8_t *import, size_t importlen,
	       bool pem_etc, bool exportable, uid_t uid, pid_t pid, const char *via,
	       char *err, size_t errlen, struct key **out);
int key_delete(const char *name, uid_t uid, pid_t pid, const char *via);

/* ---- D-Bus (dbus.c) ---- */
int dbus_start(void);		/* 0 also when the bus is "none" */
void dbus_stop(void);
bool dbus_alive(void);
void dbus_signal_rotated(const char *name, uint32_t version);
void dbus_signal_created(const char *name, const char *alg, uint32_t owner);
void dbus_signal_deleted(const char *name);

#endif /* _RINDD_H */
