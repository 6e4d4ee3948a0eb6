/* SPDX-License-Identifier: MIT */
/*
 * librind-client: talk to rindd, the rind key daemon, over its Unix socket
 * (protocol: proto/README.md).
 *
 * Every call returns 0 or a negative errno.  A daemon error status maps to
 * an errno (ERR_INVALID -EINVAL, ERR_NOT_FOUND -ENOENT, ERR_EXISTS -EEXIST,
 * ERR_PERMISSION -EPERM, ERR_BAD_MESSAGE -EBADMSG, ERR_UNSUPPORTED
 * -EOPNOTSUPP, ERR_FRAME -EPROTO, ERR_BUSY -EBUSY, ERR_INTERNAL -EIO,
 * ERR_RETIRED -ESTALE, ERR_QUOTA -EDQUOT) and
 * the daemon's message is kept: rind_client_last_error().  A lost
 * connection is -ECONNRESET (or -EPIPE); the next call reconnects.
 *
 * Buffers returned through uint8_t ** are malloc'd: free() them.
 *
 * Synchronous calls and the asynchronous interface may be mixed on one
 * connection: a synchronous call submits its request and polls until its
 * own response arrives, completing other requests' callbacks meanwhile.
 * A struct rind_client is not thread-safe: one per thread.
 */
#ifndef _RIND_CLIENT_H
#define _RIND_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RIND_CLIENT_API __attribute__((visibility("default")))

/* The socket used when no path is given and $RIND_SOCKET is unset. */
#define RIND_CLIENT_DEFAULT_SOCKET "/run/rind/rindd.sock"

/* Key encodings (values of rind.KeyFormat). */
enum rind_client_format {
	RIND_CLIENT_RAW = 0,
	RIND_CLIENT_SPKI_DER = 1,
	RIND_CLIENT_PKCS8_DER = 2,
	RIND_CLIENT_PEM = 3,
	RIND_CLIENT_JWK = 4,
};

struct rind_client;

/* A key has at most this many live versions (the current one and 64 older). */
#define RIND_CLIENT_MAX_VERSIONS 65

struct rind_client_key_info {
	char name[80];
	char algorithm[40];
	uint32_t owner_uid;
	uint64_t created;		/* when the current version was made (Unix seconds) */
	uint32_t version;		/* current: signs and seals */
	uint32_t min_version;		/* oldest live version (1 when none was retired; 0 from old daemons) */
	/* the live versions, oldest first, with their creation times (none from old daemons) */
	unsigned int n_versions;
	struct rind_client_key_version {
		uint32_t version;
		uint64_t created;
	} versions[RIND_CLIENT_MAX_VERSIONS];
	bool exportable;
	char usage[16];		/* RSA keys: "sign" or "decrypt"; else "" */
};

struct rind_client_stats {
	uint64_t requests, errors, batches, batched_requests, max_batch;
	uint64_t connections, keys;	/* keys: the caller's own, unless all_keys */
	uint32_t threads;
	bool all_keys;			/* the caller owns the service (root, rindd's uid): every key */
	uint32_t max_keys, max_keys_per_uid;	/* the daemon's quotas, 0: none */
};

/*
 * Connect to @path (NULL: $RIND_SOCKET, else RIND_CLIENT_DEFAULT_SOCKET).
 * Returns NULL with errno set on failure.
 */
RIND_CLIENT_API struct rind_client *rind_client_connect(const char *path);
/* Close the connection; pending requests complete with -ECANCELED. */
RIND_CLIENT_API void rind_client_close(struct rind_client *c);
/*
 * Drop the connection (pending requests complete with -ECONNRESET) and
 * connect again to the same path.
 */
RIND_CLIENT_API int rind_client_reconnect(struct rind_client *c);
/* The socket descriptor (for poll/epoll), -1 when disconnected. */
RIND_CLIENT_API int rind_client_fd(struct rind_client *c);
/* The socket path in use. */
RIND_CLIENT_API const char *rind_client_path(struct rind_client *c);
/*
 * Time limit of synchronous calls in milliseconds (-1, the default: none).
 * A call that runs out of time returns -ETIMEDOUT and the connection is
 * dropped (its response could otherwise arrive later).
 */
RIND_CLIENT_API void rind_client_set_timeout(struct rind_client *c, int timeout_ms);
/*
 * Largest number of requests in flight (default 256, at most 1000 to stay
 * under the daemon's per-connection limit).  Submitting beyond it first
 * polls until a response arrives.
 */
RIND_CLIENT_API void rind_client_set_max_inflight(struct rind_client *c, unsigned int n);
/*
 * Corking, as TCP_CORK does for a socket: between rind_client_cork() and
 * rind_client_uncork(), submitted requests are queued without a send, so
 * that a burst of them goes out in one write (one system call, and the
 * daemon sees them in one turn and batches them).  Uncork, a poll, a wait
 * or a synchronous call sends what is queued.  Corks nest.
 */
RIND_CLIENT_API void rind_client_cork(struct rind_client *c);
RIND_CLIENT_API int rind_client_uncork(struct rind_client *c);
/*
 * The daemon's message for the last failed call ("" if none) and its
 * status code (rind.Status; 0 when the failure was local).
 */
RIND_CLIENT_API const char *rind_client_last_error(struct rind_client *c);
RIND_CLIENT_API int rind_client_last_status(struct rind_client *c);
/* Name of a status code ("OK", "ERR_NOT_FOUND", ...) and its errno. */
RIND_CLIENT_API const char *rind_client_status_name(int status);
RIND_CLIENT_API int rind_client_status_errno(int status);
/* Parse "raw", "der" (SPKI), "pkcs8", "pem", "jwk": 0 or -EINVAL. */
RIND_CLIENT_API int rind_client_format_parse(const char *s, enum rind_client_format *fmt);

/* ---- synchronous calls ---- */
RIND_CLIENT_API int rind_client_hello(struct rind_client *c, char **version);

/*
 * Key administration (root and the key's owner; what D-Bus RotateKey,
 * RetireVersions and SetAccess do).  @info, if non-NULL, receives the key
 * as it is afterwards.
 */
/* A new current version; the old ones still verify and open until retired. */
RIND_CLIENT_API int rind_client_rotate_key(struct rind_client *c, const char *name,
					   struct rind_client_key_info *info);
/* Retire the versions below @min_version (at most the current version). */
RIND_CLIENT_API int rind_client_retire_versions(struct rind_client *c, const char *name,
						uint32_t min_version,
						struct rind_client_key_info *info);
/*
 * Change a key's allow lists: add the allow ids, remove the deny ids, from
 * empty lists if @replace.  Nothing to add, remove or replace is a query.
 * The lists afterwards come back in *@uids and *@gids (malloc'd, free() them;
 * either may be NULL) when those are non-NULL.  Denying root or the owner
 * is -EINVAL: they always have access.
 */
struct rind_client_access {
	const uint32_t *allow_uids, *allow_gids, *deny_uids, *deny_gids;
	size_t n_allow_uids, n_allow_gids, n_deny_uids, n_deny_gids;
	bool replace;
};
RIND_CLIENT_API int rind_client_set_access(struct rind_client *c, const char *name,
					   const struct rind_client_access *change,
					   uint32_t **uids, size_t *nuids,
					   uint32_t **gids, size_t *ngids);

RIND_CLIENT_API int rind_client_create_key(struct rind_client *c, const char *name,
					   const char *algorithm, bool exportable,
					   struct rind_client_key_info *info);
RIND_CLIENT_API int rind_client_import_key(struct rind_client *c, const char *name,
					   const char *algorithm, const void *key, size_t keylen,
					   enum rind_client_format format, bool exportable,
					   struct rind_client_key_info *info);
RIND_CLIENT_API int rind_client_get_public(struct rind_client *c, const char *name,
					   enum rind_client_format format,
					   uint8_t **out, size_t *outlen);
/* *@keys is a malloc'd array of *@n entries. */
RIND_CLIENT_API int rind_client_list_keys(struct rind_client *c,
					  struct rind_client_key_info **keys, size_t *n);
RIND_CLIENT_API int rind_client_delete_key(struct rind_client *c, const char *name);
/*
 * Key files in the daemon's state directory that did not load, with the
 * reason (those the caller may see: all of them for root and the daemon's
 * uid); rind_client_delete_key() of the name removes one.  *@v is a
 * malloc'd array of *@n entries.
 */
struct rind_client_failed_key {
	char name[80];
	char file[96];
	char reason[256];
};
RIND_CLIENT_API int rind_client_list_failed(struct rind_client *c,
					    struct rind_client_failed_key **v, size_t *n);
RIND_CLIENT_API int rind_client_sign(struct rind_client *c, const char *name,
				     const void *msg, size_t msglen,
				     uint8_t **sig, size_t *siglen);
/* 0: valid, -EBADMSG: invalid, other: error. */
RIND_CLIENT_API int rind_client_verify(struct rind_client *c, const char *name,
				       const void *msg, size_t msglen,
				       const void *sig, size_t siglen);
/* *@out = nonce(12) || ciphertext || tag(16). */
RIND_CLIENT_API int rind_client_seal(struct rind_client *c, const char *name,
				     const void *pt, size_t ptlen,
				     const void *ad, size_t adlen,
				     uint8_t **out, size_t *outlen);
RIND_CLIENT_API int rind_client_open(struct rind_client *c, const char *name,
				     const void *sealed, size_t sealedlen,
				     const void *ad, size_t adlen,
				     uint8_t **out, size_t *outlen);
RIND_CLIENT_API int rind_client_derive(struct rind_client *c, const char *name,
				       const void *peer, size_t peerlen,
				       uint8_t **out, size_t *outlen);
RIND_CLIENT_API int rind_client_stats(struct rind_client *c, struct rind_client_stats *st);

/* ---- every key type (ECDSA, RSA, ECDH, ML-KEM, ...) ---- */

/*
 * Create with a usage: RSA keys are made for "sign" (the default) or
 * "decrypt"; NULL or "" for the other types.
 */
RIND_CLIENT_API int rind_client_create_key_usage(struct rind_client *c, const char *name,
						 const char *algorithm, const char *usage,
						 bool exportable, struct rind_client_key_info *info);
/*
 * Import a private key: @algorithm NULL or "" lets the daemon detect the
 * type from the encoding (PKCS#8, SEC1, PKCS#1, in DER or PEM, or JWK);
 * @format RIND_CLIENT_RAW with a type means the type's raw form, any other
 * @format that the encoding is detected.  @usage as above.
 */
RIND_CLIENT_API int rind_client_import_key_usage(struct rind_client *c, const char *name,
						 const char *algorithm, const char *usage,
						 const void *key, size_t keylen,
						 enum rind_client_format format, bool exportable,
						 struct rind_client_key_info *info);
/*
 * Signature options: @hash "sha256", "sha384", "sha512" (NULL: the type's
 * default: SHA-256 for P-256 and RSA, SHA-384 for P-384, SHA-512 for
 * P-521); @sig_format "der" (default) or "p1363" for ECDSA; @padding
 * "pkcs1" (default) or "pss" for RSA.  Ed25519 takes none.
 */
struct rind_client_sig_opts {
	const char *hash;
	const char *sig_format;
	const char *padding;
};
RIND_CLIENT_API int rind_client_sign_opts(struct rind_client *c, const char *name,
					  const void *msg, size_t msglen,
					  const struct rind_client_sig_opts *opts,
					  uint8_t **sig, size_t *siglen);
RIND_CLIENT_API int rind_client_verify_opts(struct rind_client *c, const char *name,
					    const void *msg, size_t msglen,
					    const void *sig, size_t siglen,
					    const struct rind_client_sig_opts *opts);
/* RSA-OAEP (MGF1 and label-less; @hash NULL: sha256): *@out the plaintext. */
RIND_CLIENT_API int rind_client_decrypt(struct rind_client *c, const char *name,
					const void *ct, size_t ctlen, const char *hash,
					uint8_t **out, size_t *outlen);
/* ML-KEM / X25519MLKEM768: *@out the shared secret of ciphertext @ct. */
RIND_CLIENT_API int rind_client_decap(struct rind_client *c, const char *name,
				      const void *ct, size_t ctlen,
				      uint8_t **out, size_t *outlen);
/* Per key type counters: *@v a malloc'd array of *@n entries. */
struct rind_client_type_stats {
	char algorithm[40];
	uint64_t requests, batches, batched_requests, max_batch;
	/* Lanes used: mean = batched_requests / passes; lanes = the widest pass. */
	uint64_t passes;
	uint32_t lanes;
};
RIND_CLIENT_API int rind_client_type_stats(struct rind_client *c,
					   struct rind_client_type_stats **v, size_t *n);

/* ---- asynchronous interface ---- */

/*
 * One completed request, valid only during the callback.  @status is 0 or
 * a negative errno; @error the daemon's message (NULL if none); @data the
 * result bytes (signature, sealed box, plaintext, public key, secret).
 */
struct rind_client_result {
	uint64_t id;
	int status;
	int daemon_status;
	const char *error;
	const uint8_t *data;
	size_t len;
};

typedef void (*rind_client_cb)(struct rind_client *c, const struct rind_client_result *r,
			       void *user);

/*
 * Queue a request; the callback runs from rind_client_poll(),
 * rind_client_wait_all() or a later synchronous call, exactly once, with
 * the response or with an error (-ECONNRESET when the connection is lost,
 * -ECANCELED on close).  When a send fails (the daemon went away), the
 * answers it sent before it closed and then the errors of the rest are
 * completed at once, also from inside a submit or rind_client_uncork().
 * A callback may submit and poll again, but must not close the client.  Returns 0 (and the request id in *@id if non-NULL)
 * or -errno (then the callback never runs).  The data is copied.
 */
RIND_CLIENT_API int rind_client_submit_sign(struct rind_client *c, const char *name,
					    const void *msg, size_t msglen,
					    rind_client_cb cb, void *user, uint64_t *id);
RIND_CLIENT_API int rind_client_submit_verify(struct rind_client *c, const char *name,
					      const void *msg, size_t msglen,
					      const void *sig, size_t siglen,
					      rind_client_cb cb, void *user, uint64_t *id);
RIND_CLIENT_API int rind_client_submit_seal(struct rind_client *c, const char *name,
					    const void *pt, size_t ptlen,
					    const void *ad, size_t adlen,
					    rind_client_cb cb, void *user, uint64_t *id);
RIND_CLIENT_API int rind_client_submit_open(struct rind_client *c, const char *name,
					    const void *sealed, size_t sealedlen,
					    const void *ad, size_t adlen,
					    rind_client_cb cb, void *user, uint64_t *id);
RIND_CLIENT_API int rind_client_submit_derive(struct rind_client *c, const char *name,
					      const void *peer, size_t peerlen,
					      rind_client_cb cb, void *user, uint64_t *id);
RIND_CLIENT_API int rind_client_submit_get_public(struct rind_client *c, const char *name,
						  enum rind_client_format format,
						  rind_client_cb cb, void *user, uint64_t *id);
/* Asynchronous sign with options (see rind_client_sign_opts). */
RIND_CLIENT_API int rind_client_submit_sign_opts(struct rind_client *c, const char *name,
						 const void *msg, size_t msglen,
						 const struct rind_client_sig_opts *opts,
						 rind_client_cb cb, void *user, uint64_t *id);
/*
 * Send what is queued and complete what has arrived, waiting up to
 * @timeout_ms (0: do not wait, -1: until at least one completes).
 * Returns the number of callbacks run, or -errno (-ECONNRESET: the
 * connection was lost and every pending request completed with an error).
 */
RIND_CLIENT_API int rind_client_poll(struct rind_client *c, int timeout_ms);
/* Poll until nothing is in flight: 0, -ETIMEDOUT, or -errno. */
RIND_CLIENT_API int rind_client_wait_all(struct rind_client *c, int timeout_ms);
/* Requests submitted and not yet completed. */
RIND_CLIENT_API unsigned int rind_client_inflight(struct rind_client *c);

#ifdef __cplusplus
}
#endif

#endif /* _RIND_CLIENT_H */
