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
#define RINDD_KEY_MAX		32	/* raw secret bytes of the 32-byte types (key_new) */
#define RINDD_SECRET_MAX	4096	/* largest stored secret (RSA-4096 PKCS#1 DER, ML-KEM dk) */
#define RINDD_SIG_MAX		4627	/* largest signature (ML-DSA-87; RSA-4096 512) */
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
	/* key quotas (key-admin.c): 0 is no limit; root and rindd's uid skip the per-uid one */
	unsigned int max_keys;
	unsigned int max_keys_per_uid;
	const char *log_file;		/* --log-file: detached rindd logs here */
	const char *pidfile;		/* --pidfile */
	mode_t socket_mode;
	bool foreground;
	/* connections (loop.c) */
	unsigned int max_connections;	/* 0: from RLIMIT_NOFILE (workers_start) */
	unsigned int idle_timeout_ms;	/* close idle connections after this; 0: never */
	unsigned int drain_timeout_ms;	/* SIGTERM: answer what was sent for this long */
	bool socket_activated;		/* the listening socket is systemd's: leave it be */
	bool dev_master_key;		/* --dev-master-key: may generate <state>/master.key */
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
void stats_note_type_batch(int alg, unsigned int n, unsigned int passes, unsigned int lanes);

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

/* ---- keys (key-object.c; the types in key-types.c) ---- */
enum key_alg {
	KEY_ED25519,
	KEY_X25519,
	KEY_AES256GCM,
	KEY_ECDSA_P256,
	KEY_ECDSA_P384,
	KEY_ECDSA_P521,
	KEY_RSA2048,
	KEY_RSA3072,
	KEY_RSA4096,
	KEY_ECDH_P256,
	KEY_ECDH_P384,
	KEY_ECDH_P521,
	KEY_MLKEM768,
	KEY_MLKEM1024,
	KEY_X25519MLKEM768,
	KEY_AES128GCM,
	KEY_CHACHA20POLY1305,
	KEY_MLDSA44,
	KEY_MLDSA65,
	KEY_MLDSA87,
	KEY_NALGS
};

/* What a key is for (RSA keys are made for one use; other types have one). */
enum key_usage {
	KEY_USAGE_DEFAULT,	/* the type's only use (RSA: sign) */
	KEY_USAGE_SIGN,
	KEY_USAGE_DECRYPT,
};

/* The operation a request asks of its key (req_types[] rows). */
enum key_op {
	KOP_ANY,
	KOP_SIGN,
	KOP_VERIFY,
	KOP_SEAL,
	KOP_OPEN,
	KOP_DERIVE,
	KOP_DECRYPT,
	KOP_DECAP,
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
	enum key_usage usage;			/* RSA: sign or decrypt */
	uint8_t *secret;			/* secret_len bytes, mlock'ed, not dumped */
	size_t secret_len;
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
		size_t secret_len;
		void *tfm[RINDD_MAX_THREADS];
	} *old;
	size_t n_old;
};

const char *key_alg_name(enum key_alg alg);
int key_alg_parse(const char *s, enum key_alg *alg);	/* -EOPNOTSUPP/-EINVAL */
bool key_name_valid(const char *name);

struct key *key_new(const char *name, enum key_alg alg, const uint8_t *secret);
uint8_t *key_slot_dup(const uint8_t *secret);	/* a locked copy, RINDD_KEY_MAX bytes */
/* The same for secrets of any length (RSA, ML-KEM, ...). */
struct key *key_new_len(const char *name, enum key_alg alg, const uint8_t *secret, size_t len);
uint8_t *key_slot_dup_len(const uint8_t *secret, size_t len);
void key_slot_free(uint8_t *slot, size_t len);
void key_put(struct key *k);
struct key *key_lookup(const char *name);	/* takes a reference */
int key_insert(struct key *k);			/* -EEXIST */
struct key *key_remove(const char *name);	/* the table's reference */
/* A deep copy (secrets in fresh locked slots, no transforms), refs 1. */
struct key *key_clone(const struct key *k);
/* A malloc'd copy of the @n ids at @v (an access list); NULL for none or out of memory. */
uint32_t *key_dup_ids(const uint32_t *v, size_t n);
/* Put @k in the place of the key of the same name: 0 or -ENOENT. */
int key_replace(struct key *k);
/* Make a new current version from @secret (the old one joins k->old). */
int key_add_version(struct key *k, const uint8_t *secret);
int key_add_version_len(struct key *k, const uint8_t *secret, size_t len);
/* Drop versions below @min (wiped): 0, -EINVAL if @min > current. */
int key_retire(struct key *k, uint32_t min);
/* Version @v of @k: its secret and transform slots, NULL if not live. */
uint8_t *key_version_secret(struct key *k, uint32_t v, void ***tfm);
uint8_t *key_version_secret_len(struct key *k, uint32_t v, void ***tfm, size_t *len);
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
/*
 * Signing variants (key-types.c: hash, signature encoding, RSA padding):
 * the transform of version @v for variant @var, set up on first use.
 */
struct crypto_sig *key_sig_var(struct key *k, uint32_t v, int thread, unsigned int var);
struct crypto_akcipher *key_akcipher_var(struct key *k, int thread, unsigned int var);
struct crypto_kem *key_kem(struct key *k, int thread);

/* ---- key types (key-types.c) ---- */
#define KEY_VARIANTS	8	/* transforms per key, thread and version */
struct key_type {
	const char *name;		/* "ecdsa-p256" */
	enum { KC_SIG, KC_KPP, KC_AEAD, KC_RSA, KC_KEM } kind;
	size_t raw_len;			/* raw secret; 0: variable (RSA PKCS#1 DER) */
	const char *lib;		/* the library algorithm (default variant) */
	unsigned int bits;		/* RSA modulus, EC field */
};
const struct key_type *key_type_of(enum key_alg alg);
const char *key_usage_name(enum key_usage u);		/* "sign", "decrypt", "" */
int key_usage_parse(const char *s, enum key_usage *u);	/* -EINVAL */
/* The effective use of @k: KEY_USAGE_SIGN or KEY_USAGE_DECRYPT for RSA. */
bool key_can(const struct key *k, enum key_op op);
/* "sign needs a signing key (...)": why @k cannot do @op, for the error. */
void key_cannot(const struct key *k, enum key_op op, char *msg, size_t len);
bool key_secret_len_ok(enum key_alg alg, size_t len);
/* The type names a client may ask for, for messages ("ed25519, x25519, ..."). */
const char *key_type_list(void);
/*
 * The transform variant of a sign/verify request: @hash ("", sha256,
 * sha384, sha512), @format ("", der, p1363), @padding ("", pkcs1, pss).
 * 0 and *@var, or -EINVAL with the reason in @msg.
 */
int key_sig_variant(const struct key *k, const char *hash, const char *format,
		    const char *padding, unsigned int *var, char *msg, size_t len);
int key_oaep_variant(const char *hash, unsigned int *var, char *msg, size_t len);
/* The library algorithm name of variant @var of @k's type. */
const char *key_variant_lib(const struct key *k, unsigned int var);
/* Generate a fresh secret for @alg (and @usage): 0, -errno. */
int key_generate(enum key_alg alg, enum key_usage usage, uint8_t *secret, size_t *len);
/*
 * Import: @alg_s may be "" (detect the type from the encoding); @encoded
 * false means the type's raw form.  On success the canonical secret in
 * @secret (*@len bytes) and the type in *@alg.  Errors: -EINVAL or
 * -EOPNOTSUPP with a message for the client.
 */
int key_import(const char *alg_s, enum key_usage usage, const uint8_t *in, size_t inlen,
	       bool encoded, enum key_alg *alg, uint8_t *secret, size_t *len, char *msg,
	       size_t msglen);
/*
 * The public key of @k (current version) in @fmt, or with @private_key its
 * PKCS#8 DER: the length, or -errno (-EINVAL: no such form, with @msg).
 * @thread: the caller's transform slots, -1 for a transform of its own.
 */
int key_export(struct key *k, int fmt, bool private_key, int thread, uint8_t *out, size_t outlen,
	       char *msg, size_t msglen);
/* A peer public key for derive, in any encoding, as the raw form: its length or -EINVAL. */
int key_peer_raw(const struct key *k, const uint8_t *in, size_t len, uint8_t *out, size_t outlen,
		 char *msg, size_t msglen);

/* Per key type counters (batch.c), shown by stats. */
struct rindd_type_stats {
	atomic_ullong requests, batches, batched_requests, max_batch;
	atomic_ullong passes, lanes;	/* lanes used: stats_note_type_batch() */
};
extern struct rindd_type_stats type_stats[KEY_NALGS];
void stats_note_request(enum key_alg alg);

/* ---- key store (key-file.c) ---- */
int keystore_init(void);		/* master key, then load all keys */
int keystore_save(const struct key *k);
int keystore_write(const struct key *k, bool replace);
int keystore_delete(const char *name);
bool keystore_exists(const char *name);
void keystore_exit(void);
extern pthread_mutex_t keystore_lock;	/* serialises create/import/delete */

/*
 * The one size limit of a key file, header and tag included: the writer
 * refuses a record that would exceed it (before writing anything), the
 * reader accepts every file up to it.  32 KiB: an RSA-4096 key with a
 * dozen versions, or an Ed25519 key with full access lists.  Tests may
 * lower it (never raise it) with RINDD_TEST_KEY_FILE_MAX.
 */
#define RINDD_KEY_FILE_MAX	32768
size_t key_file_limit(void);
/* Files in the state directory (key-file.c, master-key.c, manifest.c). */
#define STATE_LOCK_FILE		"rindd.lock"
#define STATE_MANIFEST_FILE	"manifest"
#define STATE_DEV_MASTER_FILE	"master.key"
/* Whole file @path (relative to @dfd) into @buf: -EFBIG when longer than @cap. */
int state_read_file(int dfd, const char *path, uint8_t *buf, size_t cap, size_t *len);
/*
 * Write @name in @dfd atomically and durably: a temp file ".@name.tmp.<pid>",
 * write, fsync, rename (over an existing file only with @replace), fsync
 * of the directory.  0 or -errno (nothing of a failed write is left).
 */
int state_write_file(int dfd, const char *name, const void *data, size_t len, bool replace);
/* The master key (master-key.c): 0, or -errno after logging why not. */
int master_key_load(int dir_fd, uint8_t key[32], const char **src);

/*
 * Key files that did not load (key-file.c): rind key list --all shows
 * them, rind key delete NAME removes them.  @owner is (uint32_t)-1 when
 * the file could not be read.
 */
struct peer;
struct failed_key {
	char name[RINDD_NAME_MAX + 1];
	char file[RINDD_NAME_MAX + 16];
	char reason[224];
	uint32_t owner;
};
/* Those @p may see (the service owner: all; others: their own): malloc'd. */
struct failed_key *keystore_failed(const struct peer *p, size_t *n);
/* Remove the failed file (and manifest entry) of @name: -ENOENT if none, -EPERM. */
int keystore_remove_failed(const char *name, uid_t uid);
/* True for root and the uid rindd runs as. */
bool service_owner(uid_t uid);

/*
 * The manifest (manifest.c): "<state>/manifest", sealed under the master
 * key, records each key file's generation (so an older copy of a file, or
 * the file of a deleted key, is refused) and each key's count of
 * random-nonce seals.
 */
struct rind_aesgcm_ctx;
int manifest_load(int dir_fd, struct rind_aesgcm_ctx *master);	/* -ENOENT: none yet */
bool manifest_present(void);
uint64_t manifest_begin(const char *name);	/* the generation of a new file of @name */
void manifest_abort(const char *name, uint64_t gen);
/* Load-time verdict on a file of generation @gen (0: format 1): NULL or why not. */
const char *manifest_check(const char *name, uint64_t gen, bool legacy, char *buf, size_t len);
/* A loaded key: note its generation and version (written by manifest_commit). */
void manifest_loaded(const char *name, uint64_t gen, uint32_t version, bool legacy);
/* Names the manifest lists without a loaded file (load time): malloc'd, n. */
char **manifest_unseen(size_t *n);
int manifest_commit(void);
/* Record that @name's file is generation @gen, version @version (commits). */
int manifest_set(const char *name, uint64_t gen, uint32_t version);
int manifest_remove(const char *name);		/* commits; 0 if absent */
bool manifest_has(const char *name);
void manifest_exit(void);
/*
 * Count @n seals with a random nonce by version @version of @name before
 * they are made: 0, or -EDQUOT at the limit (2^32 per version, SP 800-38D
 * 8.3), or -errno when the count could not be made durable; @msg says why.
 */
int seal_count_reserve(const char *name, uint32_t version, unsigned int n, char *msg,
		       size_t msglen);

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
	bool backlog;			/* whole requests left for the next turn (parse) */
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
	bool ring_disabled;		/* made R_DISABLED: the loop enables it (loop.c ring_init) */
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
	/*
	 * This turn unpacked a request or took a store answer: its bytes may
	 * be on the stack below the loop, which burn_stack() wipes.  A turn
	 * of send completions and re-armed recvs only touched no request.
	 */
	bool stack_dirty;
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
	enum key_op key_op;	/* what the key must be able to do (KOP_ANY: no check) */
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
/* Inline handlers of the key types (key-ops.c). */
void op_decrypt(struct worker *w, struct conn *c, Rind__Request *req, struct key *k);
void op_decap(struct worker *w, struct conn *c, Rind__Request *req, struct key *k);
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
/* The same with the key's usage ("sign", "decrypt"; "" the type's default). */
int key_create_usage(const char *name, const char *alg, const char *usage, const uint8_t *import,
		     size_t importlen, bool pem_etc, bool exportable, uid_t uid, pid_t pid,
		     const char *via, char *err, size_t errlen, struct key **out);
int key_delete(const char *name, uid_t uid, pid_t pid, const char *via);
/* Root or the uid rindd runs as: sees every key in stats, no per-uid quota. */
bool peer_is_service_owner(uid_t uid);
/* What stats report to @uid: its own keys, every key (*@all) for the service owner. */
size_t key_count_for(uid_t uid, bool *all);
/* @k's live versions for a KeyInfo, oldest first (@v, @pv: KEY_MAX_VERSIONS each): the count. */
size_t key_info_versions(const struct key *k, Rind__KeyVersionInfo *v, Rind__KeyVersionInfo **pv);
/* The socket's rotate_key, retire_versions, set_access (REQ_STORE rows of dispatch.c). */
void admin_op_rotate(struct worker *w, struct conn *c, Rind__Request *req, struct key *k);
void admin_op_retire(struct worker *w, struct conn *c, Rind__Request *req, struct key *k);
void admin_op_set_access(struct worker *w, struct conn *c, Rind__Request *req, struct key *k);

/* ---- D-Bus (dbus.c) ---- */
int dbus_start(void);		/* 0 also when the bus is "none" */
void dbus_stop(void);
bool dbus_alive(void);
void dbus_signal_rotated(const char *name, uint32_t version);
void dbus_signal_created(const char *name, const char *alg, uint32_t owner);
void dbus_signal_deleted(const char *name);
/* SealLimitNear: key @name version @version has @remaining seals left. */
void dbus_signal_seal_limit(const char *name, uint32_t version, uint64_t remaining);

#endif /* _RINDD_H */
