/* SPDX-License-Identifier: MIT */
/*
 * What implementors need: struct crypto_alg, the tfm layout, registration,
 * templates and spawns, CPU features.  Not installed for applications.
 */
#ifndef _RIND_INTERNAL_ALG_H
#define _RIND_INTERNAL_ALG_H

#include <rind/base.h>
#include <stdlib.h>

#define RIND_EXPORT __attribute__((visibility("default")))

#define CRYPTO_MINALIGN 64
#define CRYPTO_MINALIGN_ATTR __attribute__((aligned(CRYPTO_MINALIGN)))

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#ifndef min
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#endif

struct crypto_alg;
struct crypto_tfm;
struct crypto_spawn;
struct alg_test_desc;

/*
 * A front end (one per tfm type), as the kernel's struct crypto_type: how to
 * size, set up and tear down a tfm of that type around an alg, how to check
 * an alg of that type at registration, and where its requests keep their
 * header.  tfmsize is the size of the type's tfm struct before its embedded
 * struct crypto_tfm.
 *
 * crypto_create_tfm() sets up a tfm in this order: crt_flags |= tfm_flags,
 * init_tfm (the type's defaults, e.g. reqsize from the alg), the alg's
 * cra_init, then alg_init (the typed alg's .init, e.g. aead_alg.init).  If a
 * step fails, the steps before it are not undone (the allocation is wiped
 * and freed).  crypto_destroy_tfm() calls alg_exit, then cra_exit.
 */
struct crypto_type {
	const char *name;		/* "aead", "shash", ... */
	u32 type;			/* CRYPTO_ALG_TYPE_* */
	unsigned int tfmsize;
	u32 tfm_flags;			/* CRYPTO_TFM_NEED_KEY, or 0 */
	int (*init_tfm)(struct crypto_tfm *tfm);
	int (*alg_init)(struct crypto_tfm *tfm);
	void (*alg_exit)(struct crypto_tfm *tfm);
	unsigned int (*extsize)(struct crypto_alg *alg);
	/* Registration: check the typed alg and fill its defaults (-EINVAL). */
	int (*prepare_alg)(struct crypto_alg *alg);
	/*
	 * Requests (crypto_request_alloc): the size of the type's request
	 * struct, before the tfm's reqsize bytes of context, and the offset
	 * of its struct crypto_async_request.  0/0 for a type without.
	 */
	unsigned int reqhead;
	unsigned int reqbase;
	/*
	 * The type's table-driven known-answer runner (alg_test_hash, ...),
	 * used for a desc without a custom test.
	 */
	int (*selftest)(const struct alg_test_desc *desc, struct crypto_alg *alg);
};

struct crypto_alg {
	char cra_name[CRYPTO_MAX_ALG_NAME];
	char cra_driver_name[CRYPTO_MAX_ALG_NAME];
	int cra_priority;
	u32 cra_flags;
	unsigned int cra_blocksize;
	unsigned int cra_ctxsize;
	unsigned int cra_alignmask;
	const char *cra_module;		/* "generic", "x86", "arm64", "test" */
	const struct crypto_type *cra_type;

	int (*cra_init)(struct crypto_tfm *tfm);
	void (*cra_exit)(struct crypto_tfm *tfm);	/* the ctx is wiped afterwards anyway */
	/* Instances: called when the last reference is dropped. */
	void (*cra_destroy)(struct crypto_alg *alg);
	/*
	 * Optional: replaces the testmgr's known-answer test for this
	 * implementation (test-only algorithms use it).  Returns 0 on pass.
	 */
	int (*cra_selftest)(struct crypto_alg *alg);

	/* Registry private. */
	struct crypto_alg *cra_next;
	struct crypto_spawn *cra_spawns;	/* instances: what they are built on */
	int cra_refcnt;
	int cra_test_result;			/* 0 not run, 1 passed, <0 failed */
	int cra_registered;
	/*
	 * Instances: built over an implementation asked for by driver name,
	 * or over one outranked since; found by driver name only, so that
	 * it never shadows the instance over the best arguments.
	 */
	int cra_pinned;
};

struct rind_secmem;

struct crypto_tfm {
	u32 crt_flags;
	unsigned int crt_size;		/* whole allocation, wiped on free */
	unsigned int crt_reqsize;	/* request context after the type's header */
	struct crypto_alg *__crt_alg;
	void *__crt_mem;		/* start of the allocation */
	const struct rind_secmem *__crt_secmem;	/* its allocator, NULL: malloc */
	void *__crt_ctx[] CRYPTO_MINALIGN_ATTR;
};

static inline void *crypto_tfm_ctx(struct crypto_tfm *tfm)
{
	return tfm->__crt_ctx;
}

static inline struct crypto_alg *crypto_tfm_alg(struct crypto_tfm *tfm)
{
	return tfm->__crt_alg;
}

/* Registration: returns 0 or -EEXIST (driver name taken) / -EINVAL. */
int crypto_register_alg(struct crypto_alg *alg);
void crypto_unregister_alg(struct crypto_alg *alg);

/*
 * Look an algorithm up by cra_name (best tested implementation) or driver
 * name (exactly that one), instantiating a template only when nothing
 * registered serves the name (the instance is then registered).  Returns a
 * referenced alg or an error pointer: -ENOENT unknown, -EINVAL malformed
 * name, -ELIBBAD every match failed its self-test.
 */
struct crypto_alg *crypto_alg_mod_lookup(const char *name, u32 type, u32 mask);
void crypto_mod_put(struct crypto_alg *alg);
struct crypto_alg *crypto_mod_get(struct crypto_alg *alg);

/* Allocate a tfm of the front end @frontend around a referenced @alg. */
void *crypto_create_tfm(struct crypto_alg *alg, const struct crypto_type *frontend);
void *crypto_alloc_tfm(const char *name, const struct crypto_type *frontend, u32 type, u32 mask);
void crypto_destroy_tfm(void *mem, struct crypto_tfm *tfm);

/*
 * The casts of front end X for its internal header (struct X_alg and
 * struct crypto_X, each with its base): __crypto_X_alg(alg) and
 * crypto_X_alg(tfm) give the typed alg, @ctx(tfm) the tfm's context (the
 * kernel's crypto_aead_ctx, kpp_tfm_ctx, ...).
 */
#define CRYPTO_DEFINE_ALG_CASTS(X, ctx)						\
static inline struct X##_alg *__crypto_##X##_alg(struct crypto_alg *alg)	\
{										\
	return container_of(alg, struct X##_alg, base);				\
}										\
static inline struct X##_alg *crypto_##X##_alg(struct crypto_##X *tfm)	\
{										\
	return __crypto_##X##_alg(tfm->base.__crt_alg);			\
}										\
static inline void *ctx(struct crypto_##X *tfm)				\
{										\
	return crypto_tfm_ctx(&tfm->base);					\
}

/*
 * The registration API of front end X as its internal header declares it
 * (api/X.c defines it with frontend.h's CRYPTO_DEFINE_ALG_API,
 * CRYPTO_DEFINE_ALGS_API and CRYPTO_DEFINE_SPAWN_API): crypto_X_type,
 * crypto_register_X and crypto_unregister_X; crypto_register_Xs for an
 * array; crypto_grab_X and crypto_spawn_X for a template over an X.
 */
#define CRYPTO_DECLARE_ALG_API(X)						\
extern const struct crypto_type crypto_##X##_type;				\
int crypto_register_##X(struct X##_alg *alg);					\
void crypto_unregister_##X(struct X##_alg *alg)
#define CRYPTO_DECLARE_ALGS_API(X, Xs)						\
int crypto_register_##Xs(struct X##_alg *algs, int count)
#define CRYPTO_DECLARE_SPAWN_API(X)						\
int crypto_grab_##X(struct crypto_spawn *spawn, struct crypto_alg *inst,	\
		    const char *name, u32 type, u32 mask);			\
struct crypto_##X *crypto_spawn_##X(struct crypto_spawn *spawn)

/*
 * Where tfm allocations (contexts: keys, schedules, precomputed tables) come
 * from.  A process that keeps long-lived keys in tfms (rindd) installs an
 * allocator of locked, non-dumpable memory before it allocates them;
 * tfms allocated earlier keep their allocator.  alloc returns zeroed memory
 * aligned to CRYPTO_MINALIGN, or NULL; free gets back the size it was asked
 * for, after the library has wiped it.  NULL restores malloc.  Internal: for
 * programs linked with the static library.
 */
struct rind_secmem {
	void *(*alloc)(size_t size);
	void (*free)(void *p, size_t size);
};

void rind_set_secmem(const struct rind_secmem *sm);

/* Templates: "hmac" turns "hmac(sha256)" into an instance. */
struct crypto_template {
	struct crypto_template *next;
	char name[CRYPTO_MAX_ALG_NAME];
	/*
	 * Build and register (crypto_register_instance) the instance for
	 * @args, e.g. {"sha256"} or {"chacha20", "poly1305"}.
	 */
	int (*create)(struct crypto_template *tmpl, const char *const *args, int nargs);
};

int crypto_register_template(struct crypto_template *tmpl);
void crypto_unregister_template(struct crypto_template *tmpl);

/* A reference from an instance to an algorithm it is built on. */
struct crypto_spawn {
	struct crypto_alg *alg;
	struct crypto_spawn *next;
};

/*
 * Look up @name (type/mask as for allocation) and record it as a spawn of
 * @inst; the reference is dropped when the instance is destroyed.
 */
int crypto_grab_spawn(struct crypto_spawn *spawn, struct crypto_alg *inst,
		      const char *name, u32 type, u32 mask);
void crypto_drop_spawn(struct crypto_spawn *spawn);
/* Allocate a tfm for the spawn's exact algorithm. */
void *crypto_spawn_tfm(struct crypto_spawn *spawn, const struct crypto_type *frontend);

/*
 * Name an instance from its template and spawns: cra_name
 * "tmpl(name1,name2)", cra_driver_name "tmpl(driver1,driver2)".  -ENAMETOOLONG
 * if either does not fit.
 */
int crypto_inst_setname(struct crypto_alg *inst, const char *tmpl,
			struct crypto_alg *const *algs, int nalgs);
/*
 * Register an instance (cra_flags gets CRYPTO_ALG_INSTANCE) and run its
 * self-test.  Returns 0, -EEXIST (an instance with this driver name exists
 * already; the lookup then uses that one) or -ELIBBAD (self-test failed).
 * On any error the instance is not kept and the caller frees it, dropping
 * its spawns, as in the kernel.  Once registered, the registry owns it:
 * when its last reference goes, its spawns are dropped and cra_destroy
 * frees it.
 */
int crypto_register_instance(struct crypto_template *tmpl, struct crypto_alg *inst);

/* Self-test bookkeeping. */
int crypto_alg_selftest(struct crypto_alg *alg);

/*
 * What the registry has built and run so far, all threads (for tests: a
 * lookup served by a registered implementation adds nothing).
 */
struct rind_registry_counters {
	u64 creates;		/* template create() calls */
	u64 instances;		/* instances registered and kept */
	u64 selftests;		/* self-tests run */
};

void rind_registry_counters(struct rind_registry_counters *c);
/* Register the built-in algorithms and test them; idempotent. */
void crypto_init(void);
/* rng.c: resolve rind_get_random_bytes()'s generator once, at the end of crypto_init. */
void crypto_rng_init_default(void);

/* The testmgr (algs/testmgr.c): known-answer test for a driver. */
int alg_test(struct crypto_alg *alg);

/* CPU features. */
enum rind_cpu_feature {
	/* x86-64 */
	RIND_X86_SSSE3,
	RIND_X86_SSE41,
	RIND_X86_AVX,
	RIND_X86_AVX2,
	RIND_X86_BMI1,
	RIND_X86_BMI2,
	RIND_X86_ADX,
	RIND_X86_AESNI,
	RIND_X86_PCLMULQDQ,
	RIND_X86_SHANI,
	RIND_X86_VAES,
	RIND_X86_VPCLMULQDQ,
	RIND_X86_AVX512F,
	RIND_X86_AVX512VL,
	RIND_X86_AVX512BW,
	RIND_X86_AVX512DQ,
	RIND_X86_AVX512IFMA,
	RIND_X86_AVX512VBMI,
	RIND_X86_GFNI,
	/* arm64 */
	RIND_ARM64_ASIMD,
	RIND_ARM64_AES,
	RIND_ARM64_PMULL,
	RIND_ARM64_SHA1,
	RIND_ARM64_SHA2,
	RIND_ARM64_SHA3,
	RIND_ARM64_SHA512,
	RIND_ARM64_DIT,
	RIND_CPU_NFEATURES
};

/* True if the CPU (and OS) has @f and RIND_DISABLE does not mask it. */
bool rind_cpu_has(enum rind_cpu_feature f);

/*
 * Built-in registration, as the kernel's module_init: each algorithm file
 * names its init function, which checks CPU features and registers its
 * tests and implementations.  The pointers go to one linker section that
 * crypto_init() walks at first use (the static library is one relocatable
 * object, so no file is dropped by the linker).
 */
typedef int (*rind_initcall_t)(void);
#define module_init(fn)							\
	static rind_initcall_t __rind_initcall_##fn			\
	__attribute__((used, section("rind_initcall"), aligned(sizeof(void *)))) = fn
#define module_exit(fn)	static void (*__rind_exitcall_##fn)(void) __attribute__((used)) = fn
#define MODULE_LICENSE(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_ALIAS_CRYPTO(x)

#endif /* _RIND_INTERNAL_ALG_H */
