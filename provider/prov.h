/* SPDX-License-Identifier: MIT */
/*
 * rind.so, the OpenSSL 3 provider: what its files share.
 *
 * The provider is an adapter: OpenSSL's dispatch tables on one side, the
 * registry's tfms (the public librind API) on the other.  It includes
 * OpenSSL's headers for the types, the function numbers and the parameter
 * names (all macros), and calls no libcrypto function: everything it
 * needs from OpenSSL (the BIO reads of decoders, error reporting) comes
 * through the core's dispatch table handed to OSSL_provider_init.
 */
#ifndef RIND_PROVIDER_H
#define RIND_PROVIDER_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <rind/crypto.h>

#define RIND_PROPS "provider=rind"

struct rind_prov {
	const OSSL_CORE_HANDLE *handle;
	OSSL_LIB_CTX *libctx;		/* the core's, opaque to us */
};

/* The core's functions the provider uses (NULL when the core lacks one). */
struct rind_core {
	OSSL_FUNC_core_new_error_fn *new_error;
	OSSL_FUNC_core_set_error_debug_fn *set_error_debug;
	OSSL_FUNC_core_vset_error_fn *vset_error;
	OSSL_FUNC_BIO_read_ex_fn *bio_read_ex;
	OSSL_FUNC_BIO_write_ex_fn *bio_write_ex;
	OSSL_FUNC_core_get_libctx_fn *get_libctx;
};
extern struct rind_core rind_core;

/* Algorithm tables, one per operation, each file its own. */
extern const OSSL_ALGORITHM rind_digests[];
extern const OSSL_ALGORITHM rind_macs[];
extern const OSSL_ALGORITHM rind_kdfs[];
extern const OSSL_ALGORITHM rind_rands[];
extern const OSSL_ALGORITHM rind_ciphers[];
extern const OSSL_ALGORITHM rind_keymgmts[];
extern const OSSL_ALGORITHM rind_signatures[];
extern const OSSL_ALGORITHM rind_keyexchs[];
extern const OSSL_ALGORITHM rind_asym_ciphers[];
extern const OSSL_ALGORITHM rind_kems[];
extern const OSSL_ALGORITHM rind_encoders[];
extern const OSSL_ALGORITHM rind_decoders[];
extern const OSSL_ALGORITHM rind_stores[];

int rind_tls_group_capability(OSSL_CALLBACK *cb, void *arg);

/* RIND_PROVIDER_TRACE=1: one line on stderr per operation served. */
extern int rind_trace_on;
void rind_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define RTRACE(...) do { if (rind_trace_on) rind_trace(__VA_ARGS__); } while (0)

/* Put an error on OpenSSL's error queue through the core. */
void rind_raise(void *provctx, int reason, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define RIND_R_FAIL 1

/* ---- OSSL_PARAM, read and written by hand (no libcrypto) ---- */
const OSSL_PARAM *rp_locate_c(const OSSL_PARAM *p, const char *key);
/*
 * One pass over @params for the n keys a function knows: found[i] is the
 * first parameter named names[i], or NULL.  Each parameter costs a
 * comparison of first characters with each name and one strcmp (of the
 * name it is, if any), where a locate per key would walk the whole array
 * with strcmp for each of them.  Written for set/get_ctx_params, which
 * libssl calls for every record and every key-schedule step.
 */
void rp_scan(const OSSL_PARAM *params, const char *const names[], unsigned int n,
	     const OSSL_PARAM *found[]);
/* The same for get_ctx_params, which writes what it finds. */
void rp_scan_w(OSSL_PARAM *params, const char *const names[], unsigned int n, OSSL_PARAM *found[]);
OSSL_PARAM *rp_locate(OSSL_PARAM *p, const char *key);
int rp_get_i64(const OSSL_PARAM *p, int64_t *v);
int rp_get_int(const OSSL_PARAM *p, int *v);
int rp_get_uint(const OSSL_PARAM *p, unsigned int *v);
int rp_get_size_t(const OSSL_PARAM *p, size_t *v);
int rp_get_utf8(const OSSL_PARAM *p, const char **s);
int rp_get_octets(const OSSL_PARAM *p, const void **d, size_t *n);
/* Big-endian magnitude of an unsigned integer parameter into out[len]. */
int rp_get_bn(const OSSL_PARAM *p, uint8_t *out, size_t len);
/* Its length in bytes, leading zero bytes dropped. */
size_t rp_bn_len(const OSSL_PARAM *p);
int rp_set_i64(OSSL_PARAM *p, int64_t v);
int rp_set_int(OSSL_PARAM *p, int v);
int rp_set_size_t(OSSL_PARAM *p, size_t v);
int rp_set_utf8(OSSL_PARAM *p, const char *s);
int rp_set_octets(OSSL_PARAM *p, const void *d, size_t n);
/* An unsigned integer parameter from a big-endian magnitude. */
int rp_set_bn(OSSL_PARAM *p, const uint8_t *be, size_t len);
/* Set the named parameter if it is asked for: 1 if absent or set, 0 on error. */
int rp_put_int(OSSL_PARAM *params, const char *key, int v);
int rp_put_size_t(OSSL_PARAM *params, const char *key, size_t v);
int rp_put_utf8(OSSL_PARAM *params, const char *key, const char *s);
int rp_put_octets(OSSL_PARAM *params, const char *key, const void *d, size_t n);

/*
 * A cipher's algorithm parameters (EVP_CIPHER_get_params), the same list
 * for the block-cipher modes (ciphers.c) and the AEADs (aead.c): an AEAD
 * also takes a caller's IV length (CUSTOM_IV), a mode does not.
 */
int rp_cipher_get_params(OSSL_PARAM params[], int mode, size_t keylen, size_t ivlen,
			 size_t blocksize, int aead);
const OSSL_PARAM *rp_cipher_gettable_params(void *provctx);

/* ---- digests by OpenSSL name ---- */
struct rind_md {
	const char *names;	/* OpenSSL's names, colon separated */
	const char *rind;	/* registry name: "sha256" */
	const char *hmac;	/* "hmac(sha256)" */
	unsigned int size, blocksize;
	int sig_ok;		/* allowed in signatures (not SHA-1) */
};
const struct rind_md *rind_md_by_name(const char *name);
/* The digests of that table, numbered 0 .. RIND_MD_N - 1. */
#define RIND_MD_N 9
unsigned int rind_md_index(const struct rind_md *m);
int rind_name_in(const char *names, const char *name);	/* case-insensitive, ':' list */

/*
 * The unkeyed tfms shared by every instance in the process (digests.c,
 * hmac.c), freed when the last instance is torn down.
 */
void rind_digests_release(void);
void rind_md_hash_release(void);

/* Wipe and free. */
void rind_clear_free(void *p, size_t n);

#endif
