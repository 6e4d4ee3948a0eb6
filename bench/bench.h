/* SPDX-License-Identifier: MIT */
/*
 * rind-bench: rind against OpenSSL (libcrypto, EVP) and libsodium, measured
 * in the same run with the libraries in alternating rounds.
 *
 * A row of the benchmark is one operation at one size.  It names up to three
 * implementations (rind, OpenSSL, libsodium); each is a setup / run /
 * teardown triple over a context of its own.  A library that lacks the
 * operation has no implementation (NULL) or its setup returns -ENOENT, and
 * its cell prints "-".  Adding a row means adding a table entry in one of
 * the ops_*.c files.
 */
#ifndef RIND_BENCH_H
#define RIND_BENCH_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <rind/crypto.h>

enum bench_lib {
	LIB_RIND,
	LIB_OPENSSL,
	LIB_SODIUM,
	BENCH_NLIBS
};

/*
 * What one operation produced at setup (the first operation, run once
 * before any timing), so that the harness can check that every library did
 * the same work: a digest, a ciphertext prefix, a shared secret, a
 * deterministic signature.  Left at len 0 where the output is randomised
 * (ECDSA, PSS) or not comparable.
 */
#define BENCH_CHECK_MAX 64
struct bench_check {
	unsigned char buf[BENCH_CHECK_MAX];
	unsigned int len;
};

static inline void bench_check_set(struct bench_check *chk, const void *p, size_t len)
{
	if (!chk)
		return;
	if (len > BENCH_CHECK_MAX)
		len = BENCH_CHECK_MAX;
	for (size_t i = 0; i < len; i++)
		chk->buf[i] = ((const unsigned char *)p)[i];
	chk->len = (unsigned int)len;
}

struct bench_row;

struct bench_impl {
	/*
	 * Allocate keys, contexts and buffers (untimed).  @alg is the rind
	 * algorithm or driver name to allocate (rind only; NULL otherwise).
	 * Returns 0, -ENOENT when the library or the build lacks the
	 * operation, or another negative errno on failure.  *ctx is then
	 * owned by the harness and handed to run() and teardown().
	 */
	int (*setup)(const struct bench_row *row, const char *alg, void **ctx,
		     struct bench_check *chk);
	/* Run the operation @n times; 0 or a negative errno. */
	int (*run)(void *ctx, uint64_t n);
	void (*teardown)(void *ctx);
	/* rind only: the driver that runs (crypto_*_driver_name). */
	const char *(*driver)(void *ctx);
};

struct bench_row {
	const char *group;	/* "AEAD", "Header protection", ... */
	const char *op;		/* the JSON "op": "AES-128-GCM seal" */
	unsigned int bytes;	/* 0 for operations without a size */
	const char *rind_alg;	/* cra_name the rind side allocates (for --drivers) */
	const char *rind_type;	/* its rind_alg_info.type: "aead", "shash", ... */
	const void *param;	/* the ops file's own parameters for the row */
	const struct bench_impl *impl[BENCH_NLIBS];
	unsigned int round_ms;	/* round length override for slow ops (0: default) */
};

/* Row tables, each ended by an entry with op == NULL. */
extern const struct bench_row bench_rows_sym[];
extern const struct bench_row bench_rows_hash[];
extern const struct bench_row bench_rows_pk[];
extern const struct bench_row bench_rows_mldsa[];	/* ops_mldsa.c */
/* Free the keys the public-key rows share (ops_pk.c). */
void bench_pk_cleanup(void);

/* Fold a result byte into a global sink so no work can be optimised away. */
extern volatile unsigned char bench_sink;
static inline void bench_consume(const void *p)
{
	bench_sink ^= *(const volatile unsigned char *)p;
}

/* Fixed, recognisable test data: byte i = (i * 131 + seed) mod 256. */
void bench_fill(void *buf, size_t len, unsigned int seed);
/* Zeroed memory aligned to 64 bytes; exits on failure. */
void *bench_alloc(size_t len);

/* Human-readable name of an error returned by an impl. */
const char *bench_strerror(int err);

/*
 * An OpenSSL call failed: print its error queue to stderr (prefixed with
 * @what), clear it, return -EIO.  bench_ossl_missing clears the queue
 * silently and returns -ENOENT (an algorithm this OpenSSL does not have).
 */
int bench_ossl_error(const char *what);
int bench_ossl_missing(void);

/*
 * Results and output (report.c).
 */
struct bench_cell {
	int status;		/* 1 measured, 0 lacks it ("-"), < 0 error */
	double ns;		/* median ns per operation */
	double lo, hi;		/* spread over the rounds (min, max) */
};

struct bench_result {
	const struct bench_row *row;
	int is_driver_row;	/* a --drivers extra row: only rind is filled */
	char driver[CRYPTO_MAX_ALG_NAME];	/* rind driver that ran, "" if none */
	struct bench_cell cell[BENCH_NLIBS];
	int mismatch;		/* outputs at setup differed between libraries */
};

struct bench_meta {
	char cpu[256];
	char date[64];
	char version[64];
	char command[1024];
	char kernel[256];
	char openssl[128];
	char sodium[64];
	int ncpu;
	int pinned_cpu;		/* -1: not pinned */
	int quick;
	int drivers;
	unsigned int rounds;
	unsigned int round_ms;
	int wall_clock;		/* 1: CLOCK_MONOTONIC, 0: CLOCK_THREAD_CPUTIME_ID */
	double descheduled;	/* share of the timed wall time spent off the CPU */
};

extern const char *const bench_lib_names[BENCH_NLIBS];	/* "rind", "openssl", "libsodium" */
extern const char *const bench_lib_titles[BENCH_NLIBS];	/* "rind", "OpenSSL", "libsodium" */

void report_table_header(const struct bench_meta *m);
void report_table_row(const struct bench_result *r);
void report_table_footer(const struct bench_meta *m);
int report_json(const char *path, const struct bench_meta *m,
		const struct bench_result *res, size_t n);
int report_html(const char *path, const struct bench_meta *m,
		const struct bench_result *res, size_t n);

/* Speed of rind relative to the fastest other library (> 1: rind faster); 0 if n/a. */
double bench_ratio(const struct bench_result *r);

#endif /* RIND_BENCH_H */
