// SPDX-License-Identifier: MIT
/*
 * The algorithm registry: registration, lookup by cra_name (best tested
 * implementation) or driver name (exactly that one), template
 * instantiation, spawns, self-test bookkeeping and discovery.
 *
 * A lookup takes what is registered first, as the kernel's
 * crypto_larval_lookup; a template is instantiated only when nothing
 * registered serves the name, and its instance stays registered for the
 * next lookup.  An instance over an implementation asked for by driver name
 * (or outranked since) is pinned: it serves its driver name only.  Results
 * are cached until the list changes, so a repeated allocation costs a hash
 * of the name and the tfm.
 *
 * One recursive lock guards everything.  Lookups happen when tfms are
 * allocated, not per operation, so simplicity wins over concurrency here;
 * it is recursive because a self-test or a template's create() allocates
 * tfms, which looks algorithms up again.
 */
#include <stdio.h>
#include <string.h>
#include <rind/internal/alg.h>
#include <rind/internal/testmgr.h>

static pthread_mutex_t crypto_alg_sem = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static struct crypto_alg *crypto_alg_list;
static struct crypto_template *crypto_template_list;
static pthread_once_t crypto_init_once = PTHREAD_ONCE_INIT;
static int crypto_init_done;
/* CPU time spent in self-tests so far, all threads. */
static u64 crypto_selftest_total_ns;
/* rind_registry_counters(): what lookups have cost so far. */
static u64 crypto_stat_creates, crypto_stat_instances, crypto_stat_selftests;

/* The alg whose self-test runs on this thread may be allocated untested. */
static __thread struct crypto_alg *crypto_testing;
/* The instance the last template create() on this thread registered. */
static __thread struct crypto_alg *crypto_last_instance;
static __thread int crypto_in_init;

/*
 * What lookups found, so that an allocation does not walk the list: keyed by
 * name, type and mask, valid while crypto_alg_gen is what it was (any change
 * to the list or to what serves a name bumps it; entries hold no reference).
 * Only tested results are kept: failures are permanent, so the best
 * implementation that passed stays the best until the list changes.
 */
#define LOOKUP_CACHE_SIZE 64
struct lookup_cache_ent {
	u64 gen;
	struct crypto_alg *alg;
	u32 type, mask;
	char name[CRYPTO_MAX_ALG_NAME];
};
static struct lookup_cache_ent lookup_cache[LOOKUP_CACHE_SIZE];
static u64 crypto_alg_gen = 1;

static inline void alg_lock(void)
{
	pthread_mutex_lock(&crypto_alg_sem);
}

static inline void alg_unlock(void)
{
	pthread_mutex_unlock(&crypto_alg_sem);
}

/* The list, or what serves a name, changed; lock held. */
static inline void alg_changed(void)
{
	crypto_alg_gen++;
}

static struct lookup_cache_ent *lookup_cache_slot(const char *name, u32 type, u32 mask)
{
	u32 h = 2166136261u ^ type ^ (mask << 16);

	while (*name)
		h = (h ^ (u8)*name++) * 16777619u;
	return &lookup_cache[(h ^ (h >> 16)) % LOOKUP_CACHE_SIZE];
}

static struct crypto_alg *lookup_cache_get(struct lookup_cache_ent *e, const char *name,
					   u32 type, u32 mask)
{
	if (e->gen != crypto_alg_gen || e->type != type || e->mask != mask || strcmp(e->name, name))
		return NULL;
	return e->alg;
}

static void lookup_cache_put(struct lookup_cache_ent *e, const char *name, u32 type, u32 mask,
			     struct crypto_alg *alg)
{
	if (alg->cra_test_result <= 0)
		return;		/* handed out during its own self-test */
	e->gen = crypto_alg_gen;
	e->alg = alg;
	e->type = type;
	e->mask = mask;
	snprintf(e->name, sizeof(e->name), "%s", name);
}

struct crypto_alg *crypto_mod_get(struct crypto_alg *alg)
{
	__atomic_add_fetch(&alg->cra_refcnt, 1, __ATOMIC_RELAXED);
	return alg;
}

static void crypto_alg_release(struct crypto_alg *alg)
{
	struct crypto_spawn *s, *next;

	/* Only instances are destroyed; static algs outlive every tfm. */
	if (!(alg->cra_flags & CRYPTO_ALG_INSTANCE))
		return;
	for (s = alg->cra_spawns; s; s = next) {
		next = s->next;
		crypto_drop_spawn(s);
	}
	alg->cra_spawns = NULL;
	if (alg->cra_destroy)
		alg->cra_destroy(alg);
}

void crypto_mod_put(struct crypto_alg *alg)
{
	if (!alg)
		return;
	if (__atomic_sub_fetch(&alg->cra_refcnt, 1, __ATOMIC_ACQ_REL) == 0)
		crypto_alg_release(alg);
}

static bool alg_type_ok(const struct crypto_alg *alg, u32 type, u32 mask)
{
	return ((alg->cra_flags ^ type) & mask) == 0;
}

static struct crypto_alg *find_driver(const char *driver)
{
	struct crypto_alg *a;

	for (a = crypto_alg_list; a; a = a->cra_next)
		if (!strcmp(a->cra_driver_name, driver))
			return a;
	return NULL;
}

int crypto_alg_selftest(struct crypto_alg *alg)
{
	struct crypto_alg *saved;
	struct timespec t0, t1;
	int err;

	if (alg->cra_test_result)
		return alg->cra_test_result > 0 ? 0 : alg->cra_test_result;

	alg_lock();
	if (alg->cra_test_result) {
		alg_unlock();
		return alg->cra_test_result > 0 ? 0 : alg->cra_test_result;
	}
	saved = crypto_testing;
	crypto_testing = alg;
	__atomic_add_fetch(&crypto_stat_selftests, 1, __ATOMIC_RELAXED);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	if (alg->cra_selftest)
		err = alg->cra_selftest(alg);
	else
		err = alg_test(alg);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	crypto_testing = saved;
	__atomic_add_fetch(&crypto_selftest_total_ns,
			   (u64)((t1.tv_sec - t0.tv_sec) * 1000000000ll + (t1.tv_nsec - t0.tv_nsec)),
			   __ATOMIC_RELAXED);
	/* RIND_SELFTEST_TRACE=1: what each self-test costs, for keeping the budget. */
	if (getenv("RIND_SELFTEST_TRACE"))
		fprintf(stderr, "rind: self-test %-40s %8.1f us\n", alg->cra_driver_name,
			((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e3);
	if (err > 0)
		err = -ELIBBAD;
	if (err) {
		fprintf(stderr, "rind: self-test failed for %s (%s): %d\n",
			alg->cra_driver_name, alg->cra_name, err);
		alg->cra_test_result = err;
	} else {
		alg->cra_test_result = 1;
		alg->cra_flags |= CRYPTO_ALG_TESTED;
	}
	alg_unlock();
	return err;
}

/*
 * @alg now competes for its cra_name: an instance built over another
 * implementation of that name may no longer be over the best one, nor
 * then the instances built over it.  Pin them (driver lookups only); the
 * next lookup by name instantiates again, which builds the instance over
 * whatever is best then, or finds the pinned one unchanged and frees it
 * again.  Lock held.
 */
static void pin_outranked(struct crypto_alg *alg)
{
	struct crypto_alg *a;
	struct crypto_spawn *s;
	bool again;

	alg_changed();
	/* A pinned instance competes for nothing. */
	if (alg->cra_pinned)
		return;
	do {
		again = false;
		for (a = crypto_alg_list; a; a = a->cra_next) {
			if (!(a->cra_flags & CRYPTO_ALG_INSTANCE) || a->cra_pinned)
				continue;
			for (s = a->cra_spawns; s; s = s->next) {
				if (!s->alg || s->alg == alg)
					continue;
				if (s->alg->cra_pinned)
					break;
				/* Of equal priority, the newest wins a lookup. */
				if (!strcmp(s->alg->cra_name, alg->cra_name) &&
				    alg->cra_priority >= s->alg->cra_priority)
					break;
			}
			if (s) {
				a->cra_pinned = 1;
				again = true;
			}
		}
	} while (again);
}

/*
 * Put @alg (untested, holding the registry's own reference) at the head of
 * the list, and pin what it outranks.  Under alg_lock.
 */
static void link_alg(struct crypto_alg *alg)
{
	alg->cra_test_result = 0;
	alg->cra_registered = 1;
	alg->cra_refcnt = 1;
	alg->cra_next = crypto_alg_list;
	crypto_alg_list = alg;
	pin_outranked(alg);
}

int crypto_register_alg(struct crypto_alg *alg)
{
	int err = 0;

	if (!crypto_in_init)
		crypto_init();
	if (!alg->cra_name[0] || !alg->cra_driver_name[0] || !alg->cra_type)
		return -EINVAL;
	if (!alg->cra_module)
		alg->cra_module = "generic";

	alg_lock();
	if (find_driver(alg->cra_driver_name)) {
		err = -EEXIST;
	} else {
		alg->cra_flags &= ~(CRYPTO_ALG_TESTED | CRYPTO_ALG_DEAD);
		alg->cra_pinned = 0;
		link_alg(alg);
	}
	alg_unlock();
	if (err)
		return err;
	/* During init the tests run once everything is registered. */
	if (crypto_init_done)
		crypto_alg_selftest(alg);
	return 0;
}

static void unlink_alg(struct crypto_alg *alg)
{
	struct crypto_alg **pp;

	for (pp = &crypto_alg_list; *pp; pp = &(*pp)->cra_next) {
		if (*pp == alg) {
			alg_changed();
			*pp = alg->cra_next;
			alg->cra_next = NULL;
			alg->cra_registered = 0;
			alg->cra_flags |= CRYPTO_ALG_DEAD;
			return;
		}
	}
}

static bool depends_on(struct crypto_alg *inst, struct crypto_alg *alg)
{
	struct crypto_spawn *s;

	for (s = inst->cra_spawns; s; s = s->next)
		if (s->alg == alg)
			return true;
	return false;
}

/*
 * Unregister @alg and, recursively, every instance built on it (the
 * kernel's crypto_remove_spawns).  Instances are freed when their last tfm
 * goes; the caller of an unregistered static alg must not have tfms left.
 */
void crypto_unregister_alg(struct crypto_alg *alg)
{
	struct crypto_alg *a;

	alg_lock();
	if (!alg->cra_registered) {
		alg_unlock();
		return;
	}
	unlink_alg(alg);
restart:
	for (a = crypto_alg_list; a; a = a->cra_next) {
		if ((a->cra_flags & CRYPTO_ALG_INSTANCE) && depends_on(a, alg)) {
			crypto_unregister_alg(a);
			goto restart;
		}
	}
	alg_unlock();
	crypto_mod_put(alg);
}

int crypto_register_template(struct crypto_template *tmpl)
{
	struct crypto_template *t;
	int err = 0;

	alg_lock();
	for (t = crypto_template_list; t; t = t->next)
		if (t == tmpl || !strcmp(t->name, tmpl->name))
			err = -EEXIST;
	if (!err) {
		tmpl->next = crypto_template_list;
		crypto_template_list = tmpl;
	}
	alg_unlock();
	return err;
}

void crypto_unregister_template(struct crypto_template *tmpl)
{
	struct crypto_template **pp;

	alg_lock();
	for (pp = &crypto_template_list; *pp; pp = &(*pp)->next) {
		if (*pp == tmpl) {
			*pp = tmpl->next;
			break;
		}
	}
	alg_unlock();
}

static struct crypto_template *find_template(const char *name, size_t len)
{
	struct crypto_template *t;

	for (t = crypto_template_list; t; t = t->next)
		if (strlen(t->name) == len && !strncmp(t->name, name, len))
			return t;
	return NULL;
}

int crypto_inst_setname(struct crypto_alg *inst, const char *tmpl,
			struct crypto_alg *const *algs, int nalgs)
{
	char name[CRYPTO_MAX_ALG_NAME], driver[CRYPTO_MAX_ALG_NAME];
	size_t n = 0, d = 0;
	int i, r;

	r = snprintf(name, sizeof(name), "%s(", tmpl);
	if (r < 0 || (size_t)r >= sizeof(name))
		return -ENAMETOOLONG;
	n = (size_t)r;
	memcpy(driver, name, n + 1);
	d = n;
	for (i = 0; i < nalgs; i++) {
		r = snprintf(name + n, sizeof(name) - n, "%s%s", i ? "," : "", algs[i]->cra_name);
		if (r < 0 || (size_t)r >= sizeof(name) - n)
			return -ENAMETOOLONG;
		n += (size_t)r;
		r = snprintf(driver + d, sizeof(driver) - d, "%s%s", i ? "," : "",
			     algs[i]->cra_driver_name);
		if (r < 0 || (size_t)r >= sizeof(driver) - d)
			return -ENAMETOOLONG;
		d += (size_t)r;
	}
	if (n + 2 > sizeof(name) || d + 2 > sizeof(driver))
		return -ENAMETOOLONG;
	name[n++] = ')';
	name[n] = 0;
	driver[d++] = ')';
	driver[d] = 0;
	memcpy(inst->cra_name, name, n + 1);
	memcpy(inst->cra_driver_name, driver, d + 1);
	return 0;
}

int crypto_register_instance(struct crypto_template *tmpl, struct crypto_alg *inst)
{
	struct crypto_alg *old;
	int err;

	(void)tmpl;
	inst->cra_flags |= CRYPTO_ALG_INSTANCE;
	if (!inst->cra_module)
		inst->cra_module = "generic";
	alg_lock();
	old = find_driver(inst->cra_driver_name);
	if (old) {
		/*
		 * Built already (for a driver-name request, or before it was
		 * outranked): the caller frees its copy.  The same driver
		 * name means the same spawns, so if this copy was built over
		 * the best arguments, so is the one kept.
		 */
		if (!inst->cra_pinned && (old->cra_flags & CRYPTO_ALG_INSTANCE) &&
		    old->cra_pinned) {
			old->cra_pinned = 0;
			alg_changed();
		}
		crypto_last_instance = old;
		alg_unlock();
		return -EEXIST;
	}
	link_alg(inst);
	err = crypto_alg_selftest(inst);
	if (err) {
		/* Not kept: the caller frees it, as in the kernel. */
		unlink_alg(inst);
		crypto_last_instance = NULL;
		alg_unlock();
		return -ELIBBAD;
	}
	__atomic_add_fetch(&crypto_stat_instances, 1, __ATOMIC_RELAXED);
	crypto_last_instance = inst;
	alg_unlock();
	return 0;
}

int crypto_grab_spawn(struct crypto_spawn *spawn, struct crypto_alg *inst,
		      const char *name, u32 type, u32 mask)
{
	struct crypto_alg *alg = crypto_alg_mod_lookup(name, type, mask);

	if (IS_ERR(alg))
		return (int)PTR_ERR(alg);
	/*
	 * Asked for by driver name (or a nested driver name): the instance
	 * is not what a lookup by its cra_name should find.
	 */
	if (strcmp(name, alg->cra_name) || alg->cra_pinned)
		inst->cra_pinned = 1;
	spawn->alg = alg;
	spawn->next = inst->cra_spawns;
	inst->cra_spawns = spawn;
	return 0;
}

void crypto_drop_spawn(struct crypto_spawn *spawn)
{
	if (spawn->alg) {
		crypto_mod_put(spawn->alg);
		spawn->alg = NULL;
	}
}

void *crypto_spawn_tfm(struct crypto_spawn *spawn, const struct crypto_type *frontend)
{
	struct crypto_alg *alg = spawn->alg;

	if (!alg)
		return ERR_PTR(-ENOENT);
	if (((alg->cra_flags ^ frontend->type) & CRYPTO_ALG_TYPE_MASK))
		return ERR_PTR(-EINVAL);
	return crypto_create_tfm(crypto_mod_get(alg), frontend);
}

/*
 * Split "tmpl(a,b(c))" into the template name and its top-level arguments.
 * Returns the argument count, or -EINVAL for a malformed name.
 */
#define MAX_TMPL_ARGS 4
static int parse_template(const char *name, size_t *tlen,
			  char args[MAX_TMPL_ARGS][CRYPTO_MAX_ALG_NAME])
{
	const char *p = strchr(name, '('), *start;
	size_t len = strlen(name);
	int depth = 0, n = 0;

	if (!p || p == name || name[len - 1] != ')')
		return -EINVAL;
	*tlen = (size_t)(p - name);
	start = ++p;
	for (; *p; p++) {
		if (*p == '(') {
			depth++;
		} else if (*p == ')' || *p == ',') {
			if (depth > 0) {
				if (*p == ')')
					depth--;
				continue;
			}
			if ((size_t)(p - start) == 0 || (size_t)(p - start) >= CRYPTO_MAX_ALG_NAME ||
			    n >= MAX_TMPL_ARGS)
				return -EINVAL;
			memcpy(args[n], start, (size_t)(p - start));
			args[n][p - start] = 0;
			n++;
			start = p + 1;
			if (*p == ')')
				return p[1] ? -EINVAL : n;
		}
	}
	return -EINVAL;
}

static bool valid_name(const char *name)
{
	int depth = 0;
	const char *p;

	if (!name || !*name || strlen(name) >= CRYPTO_MAX_ALG_NAME)
		return false;
	for (p = name; *p; p++) {
		if (*p == '(') {
			depth++;
		} else if (*p == ')') {
			if (--depth < 0)
				return false;
		} else if (!(*p == '-' || *p == '_' || *p == ',' || *p == '.' ||
			   (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
			   (*p >= 'A' && *p <= 'Z')))
			return false;
	}
	return depth == 0;
}

/*
 * Exact driver, or the best tested match by cra_name; lock held.  One pass
 * over the list for both (this is every allocation's cost), the first
 * byte compared before the call.
 */
static struct crypto_alg *lookup_locked(const char *name, u32 type, u32 mask, int *failed)
{
	struct crypto_alg *a, *best;
	bool again;

	do {
		again = false;
		best = NULL;
		for (a = crypto_alg_list; a; a = a->cra_next) {
			if (a->cra_driver_name[0] == name[0] && !strcmp(a->cra_driver_name, name) &&
			    alg_type_ok(a, type, mask)) {
				if (a == crypto_testing || crypto_alg_selftest(a) == 0)
					return a;
				*failed = 1;
				return NULL;
			}
			if (a->cra_name[0] != name[0] || a->cra_pinned || strcmp(a->cra_name, name) ||
			    !alg_type_ok(a, type, mask))
				continue;
			if (a->cra_test_result < 0) {
				*failed = 1;
				continue;
			}
			if (!best || a->cra_priority > best->cra_priority)
				best = a;
		}
		if (best && best != crypto_testing && best->cra_test_result == 0) {
			/* Test it now; if it fails, look again. */
			if (crypto_alg_selftest(best)) {
				*failed = 1;
				again = true;
			}
		}
	} while (again);
	return best;
}

static struct crypto_alg *instantiate(const char *name, u32 type, u32 mask, int *failed)
{
	char args[MAX_TMPL_ARGS][CRYPTO_MAX_ALG_NAME];
	const char *argv[MAX_TMPL_ARGS];
	struct crypto_template *tmpl;
	struct crypto_alg *inst, *saved;
	size_t tlen;
	int n, i, err;

	n = parse_template(name, &tlen, args);
	if (n < 0)
		return ERR_PTR(n);
	tmpl = find_template(name, tlen);
	if (!tmpl)
		return ERR_PTR(-ENOENT);
	for (i = 0; i < n; i++)
		argv[i] = args[i];
	saved = crypto_last_instance;
	crypto_last_instance = NULL;
	__atomic_add_fetch(&crypto_stat_creates, 1, __ATOMIC_RELAXED);
	err = tmpl->create(tmpl, argv, n);
	inst = crypto_last_instance;
	crypto_last_instance = saved;
	if (err && err != -EEXIST) {
		if (err == -ELIBBAD)
			*failed = 1;
		return ERR_PTR(err);
	}
	if (!inst || !alg_type_ok(inst, type, mask))
		return ERR_PTR(-ENOENT);
	if (inst->cra_test_result < 0) {
		*failed = 1;
		return ERR_PTR(-ELIBBAD);
	}
	return inst;
}

struct crypto_alg *crypto_alg_mod_lookup(const char *name, u32 type, u32 mask)
{
	struct crypto_alg *alg, *inst = NULL;
	struct lookup_cache_ent *slot;
	int failed = 0;

	crypto_init();
	if (!name)
		return ERR_PTR(-EINVAL);
	alg_lock();
	/*
	 * As the kernel's crypto_larval_lookup: what is registered serves the
	 * name if it can (a driver, or an instance built before); a template
	 * is instantiated only when nothing does, which includes a name with
	 * a driver name inside ("gcm(aes-aesni)") whose instance is not built
	 * yet, and a name whose implementations all failed their self-tests.
	 */
	slot = lookup_cache_slot(name, type, mask);
	alg = lookup_cache_get(slot, name, type, mask);
	if (alg) {
		crypto_mod_get(alg);
		alg_unlock();
		return alg;
	}
	/*
	 * Checked only now: a name the cache holds passed this check when it
	 * was put there, and a hit is that exact string (a third of a cached
	 * allocation's instructions were this scan).
	 */
	if (!valid_name(name)) {
		alg_unlock();
		return ERR_PTR(-EINVAL);
	}
	alg = lookup_locked(name, type, mask, &failed);
	if (!alg && strchr(name, '(')) {
		inst = instantiate(name, type, mask, &failed);
		if (IS_ERR(inst) && PTR_ERR(inst) == -EINVAL) {
			alg_unlock();
			return inst;
		}
		alg = lookup_locked(name, type, mask, &failed);
		if (!alg && !IS_ERR(inst))
			alg = inst;	/* asked for by a mix of names and drivers */
	}
	if (alg) {
		crypto_mod_get(alg);
		lookup_cache_put(slot, name, type, mask, alg);
	}
	alg_unlock();
	if (alg)
		return alg;
	if (failed)
		return ERR_PTR(-ELIBBAD);
	if (inst && IS_ERR(inst) && PTR_ERR(inst) != -ENOENT)
		return inst;
	return ERR_PTR(-ENOENT);
}

RIND_EXPORT int crypto_has_alg(const char *name, u32 type, u32 mask)
{
	struct crypto_alg *alg = crypto_alg_mod_lookup(name, type, mask);

	if (IS_ERR(alg))
		return 0;
	crypto_mod_put(alg);
	return 1;
}

static const char *type_name(const struct crypto_alg *alg)
{
	return alg->cra_type && alg->cra_type->name ? alg->cra_type->name : "unknown";
}

RIND_EXPORT int rind_alg_foreach(int (*fn)(const struct rind_alg_info *info, void *ctx), void *ctx)
{
	struct crypto_alg *a;
	struct crypto_alg **snap;
	size_t n = 0, i;
	int ret = 0;

	crypto_init();
	/* Snapshot under the lock, call back without it (fn may allocate). */
	alg_lock();
	/* Every listed implementation shows a self-test verdict. */
	for (a = crypto_alg_list; a; a = a->cra_next)
		if (!a->cra_test_result)
			crypto_alg_selftest(a);
	for (a = crypto_alg_list; a; a = a->cra_next)
		n++;
	snap = calloc(n ? n : 1, sizeof(*snap));
	if (!snap) {
		alg_unlock();
		return -ENOMEM;
	}
	n = 0;
	for (a = crypto_alg_list; a; a = a->cra_next)
		snap[n++] = crypto_mod_get(a);
	alg_unlock();

	/* Registration order, oldest first, reads best. */
	for (i = n; i-- > 0;) {
		struct rind_alg_info info;

		a = snap[i];
		if (!ret) {
			info.name = a->cra_name;
			info.driver = a->cra_driver_name;
			info.type = type_name(a);
			info.module = a->cra_module;
			info.priority = a->cra_priority;
			info.selftest = a->cra_test_result;
			info.blocksize = a->cra_blocksize;
			info.ctxsize = a->cra_ctxsize;
			info.refcnt = (unsigned int)a->cra_refcnt;
			info.flags = a->cra_flags;
			ret = fn(&info, ctx);
		}
	}
	for (i = 0; i < n; i++)
		crypto_mod_put(snap[i]);
	free(snap);
	return ret;
}

/* Hidden, so that the linker-made section bounds are not exported. */
extern const rind_initcall_t __start_rind_initcall[] __attribute__((weak, visibility("hidden")));
extern const rind_initcall_t __stop_rind_initcall[] __attribute__((weak, visibility("hidden")));

/*
 * First use registers every built-in implementation.  Each one is
 * self-tested the first time a lookup would hand it out (or when
 * rind_alg_foreach() lists it), as the kernel tests an algorithm before it
 * becomes usable: a program pays only for the algorithms it uses, and
 * nothing untested is ever returned.
 */
/*
 * fork(): a child must not inherit the lock held by a thread that does not
 * exist there.  Take it around fork() so the list is consistent, and give
 * the child a fresh one (its owner, the forking thread, has another id in
 * the child, so it could not be unlocked there).
 */
static void alg_atfork_child(void)
{
	pthread_mutex_t fresh = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

	crypto_alg_sem = fresh;
}

static void do_crypto_init(void)
{
	const rind_initcall_t *fn;

	pthread_atfork(alg_lock, alg_unlock, alg_atfork_child);
	/* Lookups made during registration must not wait on this once. */
	crypto_in_init = 1;
	for (fn = __start_rind_initcall; fn && fn < __stop_rind_initcall; fn++)
		(*fn)();
	crypto_init_done = 1;
	/* rind_get_random_bytes() then never needs the lock (see api/rng.c). */
	crypto_rng_init_default();
	crypto_in_init = 0;
}

void crypto_init(void)
{
	if (crypto_in_init)
		return;
	pthread_once(&crypto_init_once, do_crypto_init);
}

RIND_EXPORT u64 rind_selftest_ns(void)
{
	crypto_init();
	return __atomic_load_n(&crypto_selftest_total_ns, __ATOMIC_RELAXED);
}

void rind_registry_counters(struct rind_registry_counters *c)
{
	c->creates = __atomic_load_n(&crypto_stat_creates, __ATOMIC_RELAXED);
	c->instances = __atomic_load_n(&crypto_stat_instances, __ATOMIC_RELAXED);
	c->selftests = __atomic_load_n(&crypto_stat_selftests, __ATOMIC_RELAXED);
}
