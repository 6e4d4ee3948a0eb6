/* SPDX-License-Identifier: MIT */
/*
 * What every tfm type shares, as in the kernel's <linux/crypto.h>: algorithm
 * type and flag bits, the async request header, completion waiting, and
 * registry discovery.
 */
#ifndef _RIND_BASE_H
#define _RIND_BASE_H

#include <pthread.h>
#include <rind/types.h>
#include <rind/err.h>

#define RIND_VERSION_MAJOR 0
#define RIND_VERSION_MINOR 1
#define RIND_VERSION_PATCH 0
#define RIND_VERSION "0.1.0"
/* The version of the library actually linked. */
const char *rind_version(void);
/*
 * CPU nanoseconds spent in self-tests so far.  Each implementation is
 * tested the first time a lookup would return it (rind_alg_foreach tests
 * whatever has not been yet), so a program pays for what it uses.
 */
u64 rind_selftest_ns(void);

#define CRYPTO_MAX_ALG_NAME		128

#define CRYPTO_ALG_TYPE_MASK		0x0000000f
#define CRYPTO_ALG_TYPE_CIPHER		0x00000001
#define CRYPTO_ALG_TYPE_AEAD		0x00000003
#define CRYPTO_ALG_TYPE_SKCIPHER	0x00000005
#define CRYPTO_ALG_TYPE_KEM		0x00000006
#define CRYPTO_ALG_TYPE_KPP		0x00000008
#define CRYPTO_ALG_TYPE_SIG		0x0000000b
#define CRYPTO_ALG_TYPE_RNG		0x0000000c
#define CRYPTO_ALG_TYPE_AKCIPHER	0x0000000d
#define CRYPTO_ALG_TYPE_SHASH		0x0000000e

#define CRYPTO_ALG_LARVAL		0x00000010
#define CRYPTO_ALG_DEAD			0x00000020
#define CRYPTO_ALG_DYING		0x00000040
#define CRYPTO_ALG_ASYNC		0x00000080
#define CRYPTO_ALG_NEED_FALLBACK	0x00000100
#define CRYPTO_ALG_TESTED		0x00000400
#define CRYPTO_ALG_INSTANCE		0x00000800
#define CRYPTO_ALG_KERN_DRIVER_ONLY	0x00001000
#define CRYPTO_ALG_INTERNAL		0x00002000
#define CRYPTO_ALG_OPTIONAL_KEY		0x00004000
#define CRYPTO_ALG_ALLOCATES_MEMORY	0x00010000

#define CRYPTO_TFM_NEED_KEY		0x00000001
#define CRYPTO_TFM_REQ_FORBID_WEAK_KEYS	0x00000100
#define CRYPTO_TFM_REQ_MAY_SLEEP	0x00000200
#define CRYPTO_TFM_REQ_MAY_BACKLOG	0x00000400

struct crypto_tfm;

typedef void (*crypto_completion_t)(void *data, int err);

struct crypto_async_request {
	struct crypto_tfm *tfm;
	crypto_completion_t complete;
	void *data;
	u32 flags;
};

/*
 * Waiting for a request.  rind's implementations are synchronous and return
 * their result directly (they never return -EINPROGRESS), so the wait only
 * blocks for asynchronous back ends such as the daemon client.
 */
struct crypto_wait {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int done;
	int err;
};

#define CRYPTO_WAIT_INITIALIZER \
	{ PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 }
#define DECLARE_CRYPTO_WAIT(_wait) \
	struct crypto_wait _wait = CRYPTO_WAIT_INITIALIZER

static inline void crypto_init_wait(struct crypto_wait *wait)
{
	pthread_mutex_init(&wait->lock, NULL);
	pthread_cond_init(&wait->cond, NULL);
	wait->done = 0;
	wait->err = 0;
}

void crypto_req_done(void *data, int err);
int crypto_wait_req(int err, struct crypto_wait *wait);

/* Generic tfm helpers (any type; pass &tfm->base via crypto_*_tfm()). */
const char *crypto_tfm_alg_name(struct crypto_tfm *tfm);
const char *crypto_tfm_alg_driver_name(struct crypto_tfm *tfm);
unsigned int crypto_tfm_alg_blocksize(struct crypto_tfm *tfm);
u32 crypto_tfm_get_flags(struct crypto_tfm *tfm);
void crypto_tfm_set_flags(struct crypto_tfm *tfm, u32 flags);
void crypto_tfm_clear_flags(struct crypto_tfm *tfm, u32 flags);

/* 1 if an implementation of @name (cra_name or driver) can be had. */
int crypto_has_alg(const char *name, u32 type, u32 mask);

/* Discovery: every registered implementation, as `rind list` prints it. */
struct rind_alg_info {
	const char *name;	/* cra_name, "gcm(aes)" */
	const char *driver;	/* cra_driver_name, "gcm-aes-vaes-avx512" */
	const char *type;	/* "aead", "shash", "skcipher", "cipher", "sig", "kpp", "akcipher", "kem", "rng" */
	const char *module;	/* "generic", "x86", "arm64" */
	int priority;
	int selftest;		/* 1 passed, 0 not yet run, negative errno failed */
	unsigned int blocksize;
	unsigned int ctxsize;
	unsigned int refcnt;
	unsigned int flags;	/* cra_flags */
};
int rind_alg_foreach(int (*fn)(const struct rind_alg_info *info, void *ctx), void *ctx);

/*
 * Constant-time sections.  On arm64 these set PSTATE.DIT (data-independent
 * timing) where the CPU has it and restore the previous state at the
 * matching end; they nest.  x86-64 offers user space no such control, so
 * there they only count the nesting depth (rind's code is written to be
 * constant-time without help).
 */
void rind_ct_begin(void);
void rind_ct_end(void);
/* 1 while DIT (or its equivalent) is in force on this thread. */
int rind_ct_active(void);

/* Wipe memory in a way the compiler may not elide. */
void rind_memzero_explicit(void *s, size_t n);
/* Constant-time comparison: 0 if equal, non-zero otherwise. */
int rind_memneq(const void *a, const void *b, size_t n);
#define crypto_memneq rind_memneq

/* CPU feature names rind knows (for RIND_DISABLE and `rind list`). */
int rind_cpu_feature_foreach(int (*fn)(const char *name, int present, int masked, void *ctx), void *ctx);

#endif /* _RIND_BASE_H */
