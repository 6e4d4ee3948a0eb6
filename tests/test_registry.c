// SPDX-License-Identifier: MIT
/*
 * The registry: priority order, self-test gating, driver lookup, template
 * instantiation and caching, nesting, malformed names, concurrency, the
 * constant-time guard, error pointers and scatterlist helpers.  The
 * algorithms here are test-only ("rt-*"), registered by the test itself.
 */
#include <pthread.h>
#include <rind/internal/alg.h>
#include <rind/internal/hash.h>
#include <rind/internal/aead.h>
#include <rind/internal/sig.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include "testutil.h"

#ifndef __has_feature
#define __has_feature(x) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || \
	__has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define RT_SANITIZED 1
#else
#define RT_SANITIZED 0
#endif

/* A toy hash: digest = 8 bytes, sum of input bytes plus a per-driver tag. */
struct rt_desc {
	u64 sum;
};

static int rt_init(struct shash_desc *d)
{
	((struct rt_desc *)shash_desc_ctx(d))->sum = 0;
	return 0;
}

static int rt_update(struct shash_desc *d, const u8 *p, unsigned int len)
{
	struct rt_desc *c = shash_desc_ctx(d);

	while (len--)
		c->sum += *p++;
	return 0;
}

static int rt_final_tag(struct shash_desc *d, u8 *out, u64 tag)
{
	put_unaligned_le64(((struct rt_desc *)shash_desc_ctx(d))->sum + tag, out);
	return 0;
}

static int rt_final_a(struct shash_desc *d, u8 *out) { return rt_final_tag(d, out, 0); }
static int rt_final_b(struct shash_desc *d, u8 *out) { return rt_final_tag(d, out, 0); }
static int rt_final_bad(struct shash_desc *d, u8 *out) { return rt_final_tag(d, out, 1); }

static int rt_selftest(struct crypto_alg *alg)
{
	struct crypto_shash *tfm = crypto_alloc_shash(alg->cra_driver_name, 0, 0);
	u8 out[8];
	int err;

	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	err = crypto_shash_tfm_digest(tfm, (const u8 *)"\x01\x02", 2, out);
	if (!err && get_unaligned_le64(out) != 3)
		err = -EBADMSG;
	crypto_free_shash(tfm);
	return err;
}

#define RT_SHASH(drv, prio, fin)					\
	{								\
		.init = rt_init, .update = rt_update, .final = fin,	\
		.descsize = sizeof(struct rt_desc), .digestsize = 8,	\
		.base = {						\
			.cra_name = "rt-hash", .cra_driver_name = drv,	\
			.cra_priority = prio, .cra_blocksize = 1,	\
			.cra_module = "test", .cra_selftest = rt_selftest, \
		},							\
	}

static struct shash_alg rt_low = RT_SHASH("rt-hash-low", 100, rt_final_a);
static struct shash_alg rt_high = RT_SHASH("rt-hash-high", 300, rt_final_b);
static struct shash_alg rt_broken = RT_SHASH("rt-hash-broken", 900, rt_final_bad);

/* Template "rtwrap": an shash over an shash, digest = inner digest + 1. */
struct rtwrap_inst {
	struct shash_alg alg;
	struct crypto_spawn spawn;
};

struct rtwrap_ctx {
	struct crypto_shash *inner;
};

static int created;

static int rtwrap_init_tfm(struct crypto_shash *tfm)
{
	struct rtwrap_inst *inst = container_of(tfm->base.__crt_alg, struct rtwrap_inst, alg.base);
	struct rtwrap_ctx *ctx = crypto_shash_ctx(tfm);

	ctx->inner = crypto_spawn_shash(&inst->spawn);
	return IS_ERR(ctx->inner) ? (int)PTR_ERR(ctx->inner) : 0;
}

static void rtwrap_exit_tfm(struct crypto_shash *tfm)
{
	struct rtwrap_ctx *ctx = crypto_shash_ctx(tfm);

	crypto_free_shash(ctx->inner);
}

static struct shash_desc *inner_desc(struct shash_desc *d)
{
	return shash_desc_ctx(d);
}

static int rtwrap_dinit(struct shash_desc *d)
{
	struct rtwrap_ctx *ctx = crypto_shash_ctx(d->tfm);

	inner_desc(d)->tfm = ctx->inner;
	return crypto_shash_init(inner_desc(d));
}

static int rtwrap_update(struct shash_desc *d, const u8 *p, unsigned int len)
{
	return crypto_shash_update(inner_desc(d), p, len);
}

static int rtwrap_final(struct shash_desc *d, u8 *out)
{
	int err = crypto_shash_final(inner_desc(d), out);

	put_unaligned_le64(get_unaligned_le64(out) + 1, out);
	return err;
}

static void rtwrap_free(struct crypto_alg *alg)
{
	free(container_of(alg, struct rtwrap_inst, alg.base));
}

static int rtwrap_selftest(struct crypto_alg *alg)
{
	(void)alg;
	return 0;
}

/* What every rtwrap instance has, whatever it wraps. */
static const struct shash_alg rtwrap_proto = {
	.init = rtwrap_dinit,
	.update = rtwrap_update,
	.final = rtwrap_final,
	.init_tfm = rtwrap_init_tfm,
	.exit_tfm = rtwrap_exit_tfm,
	.base = {
		.cra_blocksize = 1,
		.cra_ctxsize = sizeof(struct rtwrap_ctx),
		.cra_destroy = rtwrap_free,
		.cra_selftest = rtwrap_selftest,
		.cra_module = "test",
		.cra_type = &crypto_shash_type,
		.cra_flags = CRYPTO_ALG_TYPE_SHASH,
	},
};

static int rtwrap_create(struct crypto_template *tmpl, const char *const *args, int nargs)
{
	struct rtwrap_inst *inst;
	struct shash_alg *in;
	int err;

	if (nargs != 1)
		return -EINVAL;
	inst = malloc(sizeof(*inst));
	if (!inst)
		return -ENOMEM;
	/* before the grab, which links the spawn into alg.base */
	*inst = (struct rtwrap_inst){ .alg = rtwrap_proto };
	err = crypto_grab_shash(&inst->spawn, &inst->alg.base, args[0], 0, 0);
	if (err)
		goto out_free;
	in = __crypto_shash_alg(inst->spawn.alg);
	err = crypto_inst_setname(&inst->alg.base, "rtwrap", &inst->spawn.alg, 1);
	if (err)
		goto out_free;
	/* the rest follows the inner hash */
	inst->alg.descsize = sizeof(struct shash_desc) + in->descsize;
	inst->alg.digestsize = in->digestsize;
	inst->alg.base.cra_priority = in->base.cra_priority;
	err = crypto_register_instance(tmpl, &inst->alg.base);
	if (err)
		goto out_free;
	created++;
	return 0;
out_free:
	crypto_drop_spawn(&inst->spawn);	/* nothing to drop if the grab failed */
	free(inst);
	return err;
}

static struct crypto_template rtwrap_tmpl = {
	.name = "rtwrap",
	.create = rtwrap_create,
};

static void setup(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	ck_assert_int_eq(crypto_register_shash(&rt_low), 0);
	ck_assert_int_eq(crypto_register_shash(&rt_high), 0);
	ck_assert_int_eq(crypto_register_template(&rtwrap_tmpl), 0);
}

static u64 digest_of(const char *name, const char *expect_driver)
{
	struct crypto_shash *tfm = crypto_alloc_shash(name, 0, 0);
	u8 out[8];

	ck_assert_msg(!IS_ERR(tfm), "alloc %s: %ld", name, PTR_ERR(tfm));
	if (expect_driver)
		ck_assert_str_eq(crypto_shash_driver_name(tfm), expect_driver);
	ck_assert_int_eq(crypto_shash_tfm_digest(tfm, (const u8 *)"abc", 3, out), 0);
	crypto_free_shash(tfm);
	return get_unaligned_le64(out);
}

START_TEST(test_priority_order)
{
	setup();
	/* The higher priority wins by name; each is reachable by driver. */
	digest_of("rt-hash", "rt-hash-high");
	digest_of("rt-hash-low", "rt-hash-low");
	digest_of("rt-hash-high", "rt-hash-high");
	ck_assert_int_eq(crypto_register_shash(&rt_low), -EEXIST);
}
END_TEST

START_TEST(test_failed_selftest_never_returned)
{
	struct crypto_shash *tfm;

	setup();
	ck_assert_int_eq(crypto_register_shash(&rt_broken), 0);
	/* Highest priority, but it failed its self-test: the next one wins. */
	digest_of("rt-hash", "rt-hash-high");
	tfm = crypto_alloc_shash("rt-hash-broken", 0, 0);
	ck_assert(IS_ERR(tfm));
	ck_assert_int_eq(PTR_ERR(tfm), -ELIBBAD);
	crypto_unregister_shash(&rt_broken);
	tfm = crypto_alloc_shash("rt-hash-broken", 0, 0);
	ck_assert_int_eq(PTR_ERR(tfm), -ENOENT);
}
END_TEST

START_TEST(test_only_failed_gives_elibbad)
{
	static struct shash_alg lone = RT_SHASH("rt-lone-broken", 100, rt_final_bad);
	struct crypto_shash *tfm;

	snprintf(lone.base.cra_name, sizeof(lone.base.cra_name), "rt-lone");
	ck_assert_int_eq(crypto_register_shash(&lone), 0);
	tfm = crypto_alloc_shash("rt-lone", 0, 0);
	ck_assert_int_eq(PTR_ERR(tfm), -ELIBBAD);
	crypto_unregister_shash(&lone);
}
END_TEST

struct find_ctx {
	const char *driver;
	struct rind_alg_info info;
	int found;
};

static int find_cb(const struct rind_alg_info *i, void *ctx)
{
	struct find_ctx *f = ctx;

	if (!strcmp(i->driver, f->driver)) {
		f->info = *i;
		f->found = 1;
	}
	return 0;
}

START_TEST(test_template_instantiation_and_cache)
{
	struct find_ctx f = { .driver = "rtwrap(rt-hash-high)" };
	int before;

	setup();
	before = created;
	ck_assert_uint_eq(digest_of("rtwrap(rt-hash)", "rtwrap(rt-hash-high)"), 'a' + 'b' + 'c' + 1);
	ck_assert_int_eq(created, before + 1);
	/* Cached: a second lookup creates nothing new (-EEXIST path). */
	digest_of("rtwrap(rt-hash)", "rtwrap(rt-hash-high)");
	ck_assert_int_eq(created, before + 1);
	/* Over an explicit driver. */
	digest_of("rtwrap(rt-hash-low)", "rtwrap(rt-hash-low)");
	ck_assert_int_eq(created, before + 2);
	/* The lesser instance does not shadow the best one. */
	digest_of("rtwrap(rt-hash)", "rtwrap(rt-hash-high)");
	rind_alg_foreach(find_cb, &f);
	ck_assert(f.found);
	ck_assert_str_eq(f.info.name, "rtwrap(rt-hash)");
	ck_assert_str_eq(f.info.module, "test");
	ck_assert_int_eq(f.info.priority, 300);
	ck_assert_int_eq(f.info.selftest, 1);
	ck_assert_str_eq(f.info.type, "shash");
}
END_TEST

START_TEST(test_nested_templates)
{
	setup();
	ck_assert_uint_eq(digest_of("rtwrap(rtwrap(rt-hash))", "rtwrap(rtwrap(rt-hash-high))"),
			  'a' + 'b' + 'c' + 2);
	ck_assert_uint_eq(digest_of("rtwrap(rtwrap(rtwrap(rt-hash-low)))", NULL), 'a' + 'b' + 'c' + 3);
}
END_TEST

START_TEST(test_malformed_names)
{
	static const char *const bad[] = {
		"", "(", ")", "rtwrap(", "rtwrap)", "rtwrap()", "rtwrap(rt-hash", "rtwrap(rt-hash))",
		"rtwrap((rt-hash))", "rtwrap(rt-hash)x", "rtwrap(,rt-hash)", "rtwrap(rt-hash,)",
		"nosuch(rt-hash)", "rtwrap(nosuch)", "nosuch", "rt hash", "rtwrap(rt-hash)(x)",
		"a(b(c(d(e(f(g(h(i(j(k(l(m(n(o(p))))))))))))))))",
		"sha256\n", "hmac(sha256", "hmac(sha256))", "hmac()", "hmac(sha256,sha256)",
	};
	char longname[300];
	size_t i;

	setup();
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct crypto_shash *t = crypto_alloc_shash(bad[i], 0, 0);

		ck_assert_msg(IS_ERR(t), "'%s' resolved", bad[i]);
		ck_assert_msg(PTR_ERR(t) == -ENOENT || PTR_ERR(t) == -EINVAL,
			      "'%s': %ld", bad[i], PTR_ERR(t));
	}
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	ck_assert_int_eq(PTR_ERR(crypto_alloc_shash(longname, 0, 0)), -EINVAL);
	ck_assert_int_eq(PTR_ERR(crypto_alloc_shash(NULL, 0, 0)), -EINVAL);
	/*
	 * The name check runs only when the lookup cache misses: a name in
	 * the cache, then names that extend it, are still refused.
	 */
	for (i = 0; i < 2; i++)
		crypto_free_shash(crypto_alloc_shash("sha256", 0, 0));
	ck_assert_int_eq(PTR_ERR(crypto_alloc_shash("sha256\n", 0, 0)), -EINVAL);
	ck_assert_int_eq(PTR_ERR(crypto_alloc_shash("sha256 ", 0, 0)), -EINVAL);
	memcpy(longname, "sha256", 6);
	ck_assert_int_eq(PTR_ERR(crypto_alloc_shash(longname, 0, 0)), -EINVAL);
	/* A name of the wrong type is unknown to that front end. */
	ck_assert_int_eq(PTR_ERR(crypto_alloc_aead("rt-hash", 0, 0)), -ENOENT);
	ck_assert_int_eq(crypto_has_alg("rt-hash", 0, 0), 1);
	ck_assert_int_eq(crypto_has_shash("rt-hash", 0, 0), 1);
	ck_assert_int_eq(crypto_has_aead("rt-hash", 0, 0), 0);
}
END_TEST

static void *alloc_worker(void *arg)
{
	static const char *const names[] = { "rt-hash", "rtwrap(rt-hash)", "rtwrap(rt-hash-low)",
					     "rtwrap(rtwrap(rt-hash-high))", "sha256", "hmac(sha256)" };
	static const char *const aead_names[] = { "gcm(aes)", "gcm(aes-generic)",
						  "rfc4106(gcm(aes))", "rfc4106(gcm(aes-generic))" };
	uintptr_t id = (uintptr_t)arg;
	long bad = 0;
	int i;

	for (i = 0; i < 300; i++) {
		const char *n = names[(id + (uintptr_t)i) % ARRAY_SIZE(names)];
		struct crypto_shash *tfm = crypto_alloc_shash(n, 0, 0);
		u8 out[64], key[16] = { 0 }, akey[20] = { 0 };

		if (IS_ERR(tfm)) {
			/* sha256/hmac may not be built in a stripped-down build. */
			if (strncmp(n, "rt", 2))
				continue;
			bad++;
			continue;
		}
		if (!strncmp(n, "hmac", 4))
			crypto_shash_setkey(tfm, key, sizeof(key));
		if (crypto_shash_tfm_digest(tfm, (const u8 *)"abc", 3, out))
			bad++;
		crypto_free_shash(tfm);
		/* AEADs served by a driver, by an instance, by a nested one. */
		if (i % 4 == 0) {
			const char *an = aead_names[(id + (uintptr_t)i / 4) % ARRAY_SIZE(aead_names)];
			struct crypto_aead *a = crypto_alloc_aead(an, 0, 0);

			if (IS_ERR(a))
				continue;
			/* rfc4106: the AES key, then a 4-byte salt */
			if (crypto_aead_setkey(a, akey, strncmp(an, "rfc4106", 7) ? 16 : 20))
				bad++;
			crypto_free_aead(a);
		}
	}
	return (void *)bad;
}

START_TEST(test_concurrent_allocation)
{
	pthread_t th[8];
	uintptr_t i;

	setup();
	for (i = 0; i < 8; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, alloc_worker, (void *)i), 0);
	for (i = 0; i < 8; i++) {
		void *ret;

		ck_assert_int_eq(pthread_join(th[i], &ret), 0);
		ck_assert_ptr_null(ret);
	}
}
END_TEST

static int count_cb(const struct rind_alg_info *i, void *ctx)
{
	int *n = ctx;

	ck_assert_ptr_nonnull(i->name);
	ck_assert_ptr_nonnull(i->driver);
	ck_assert_ptr_nonnull(i->type);
	ck_assert_ptr_nonnull(i->module);
	(*n)++;
	return *n == 3 ? 42 : 0;
}

START_TEST(test_foreach_stops)
{
	int n = 0;

	setup();
	ck_assert_int_eq(rind_alg_foreach(count_cb, &n), 42);
	ck_assert_int_eq(n, 3);
}
END_TEST

static int all_tested_cb(const struct rind_alg_info *i, void *ctx)
{
	(void)ctx;
	if (!strcmp(i->module, "test"))
		return 0;
	ck_assert_msg(i->selftest == 1, "%s (%s): selftest %d", i->driver, i->name, i->selftest);
	return 0;
}

START_TEST(test_builtin_selftests_pass_and_are_fast)
{
	/* What a TLS server or token issuer allocates at start-up. */
	static const char *const tls[] = {
		"gcm(aes)", "rfc7539(chacha20,poly1305)", "sha256", "sha384", "hmac(sha256)",
		"hmac(sha384)", "curve25519", "ed25519", "x962(ecdsa-nist-p256,sha256)", "stdrng",
	};
	u64 before = rind_selftest_ns(), used, total;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tls); i++)
		(void)crypto_has_alg(tls[i], 0, 0);
	used = rind_selftest_ns() - before;
	rind_alg_foreach(all_tested_cb, NULL);
	total = rind_selftest_ns();
	printf("registry: self-tests of a TLS server's algorithms at first use: %.2f ms CPU; "
	       "of every registered implementation: %.2f ms CPU\n", used / 1e6, total / 1e6);
	/* The budget is 20 ms natively; sanitizer and qemu builds are slower. */
#if !RT_SANITIZED && defined(__x86_64__)
	ck_assert_msg(used < 20000000ull, "first-use self-tests took %.2f ms", used / 1e6);
#endif
}
END_TEST

START_TEST(test_ct_guard_nests)
{
	ck_assert_int_eq(rind_ct_active(), 0);
	rind_ct_begin();
	ck_assert_int_eq(rind_ct_active(), 1);
	rind_ct_begin();
	ck_assert_int_eq(rind_ct_active(), 1);
	rind_ct_end();
	ck_assert_int_eq(rind_ct_active(), 1);
	rind_ct_end();
	ck_assert_int_eq(rind_ct_active(), 0);
	rind_ct_end();	/* unbalanced end is harmless */
	ck_assert_int_eq(rind_ct_active(), 0);
}
END_TEST

#if defined(__aarch64__)
static u64 read_dit(void)
{
	u64 v;

	__asm__ volatile("mrs %0, S3_3_C4_C2_5" : "=r"(v));
	return (v >> 24) & 1;
}

START_TEST(test_dit_set_and_restored)
{
	if (!rind_cpu_has(RIND_ARM64_DIT)) {
		printf("SKIP: DIT not present on this CPU\n");
		return;
	}
	ck_assert_uint_eq(read_dit(), 0);
	rind_ct_begin();
	ck_assert_uint_eq(read_dit(), 1);
	rind_ct_begin();
	rind_ct_end();
	ck_assert_uint_eq(read_dit(), 1);
	rind_ct_end();
	ck_assert_uint_eq(read_dit(), 0);
	/* A caller that already had DIT set keeps it after our section. */
	__asm__ volatile("msr S3_3_C4_C2_5, %0" : : "r"((u64)1 << 24));
	rind_ct_begin();
	rind_ct_end();
	ck_assert_uint_eq(read_dit(), 1);
	__asm__ volatile("msr S3_3_C4_C2_5, %0" : : "r"((u64)0));
	printf("arm64: DIT set inside rind_ct_begin/end and restored after\n");
}
END_TEST
#endif

/*
 * Batches hold the constant-time section (PSTATE.DIT where the CPU has it)
 * from their first operation to their last.  Test-only aead and sig algs
 * record, at every operation, what rind_ct_active() reports and, on arm64
 * with DIT, the DIT bit read straight from the register.
 */
#define RT_CT_MAX 8
static int rt_ct_seen[RT_CT_MAX], rt_dit_seen[RT_CT_MAX];
static unsigned int rt_ct_n;

static void rt_ct_record(void)
{
	if (rt_ct_n >= RT_CT_MAX)
		return;
	rt_ct_seen[rt_ct_n] = rind_ct_active();
#if defined(__aarch64__)
	rt_dit_seen[rt_ct_n] = rind_cpu_has(RIND_ARM64_DIT) ? (int)read_dit() : 1;
#else
	rt_dit_seen[rt_ct_n] = 1;
#endif
	rt_ct_n++;
}

static int rt_ok_selftest(struct crypto_alg *alg)
{
	(void)alg;
	return 0;
}

static int rt_aead_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int keylen)
{
	(void)tfm, (void)key, (void)keylen;
	return 0;
}

static int rt_aead_op(struct aead_request *req)
{
	(void)req;
	rt_ct_record();
	return 0;
}

static struct aead_alg rt_ct_aead = {
	.setkey = rt_aead_setkey, .encrypt = rt_aead_op, .decrypt = rt_aead_op,
	.ivsize = 0, .maxauthsize = 16,
	.base = {
		.cra_name = "rt-ct-aead", .cra_driver_name = "rt-ct-aead-test",
		.cra_priority = 100, .cra_blocksize = 1, .cra_module = "test",
		.cra_selftest = rt_ok_selftest,
	},
};

static int rt_sig_sign(struct crypto_sig *tfm, const void *msg, unsigned int msglen,
		       void *sig, unsigned int siglen)
{
	(void)tfm, (void)msg, (void)msglen;
	if (siglen < 1)
		return -EOVERFLOW;
	rt_ct_record();
	*(u8 *)sig = 0x5a;
	return 1;
}

static int rt_sig_verify(struct crypto_sig *tfm, const void *sig, unsigned int siglen,
			 const void *msg, unsigned int msglen)
{
	(void)tfm, (void)sig, (void)siglen, (void)msg, (void)msglen;
	return 0;
}

static int rt_sig_key(struct crypto_sig *tfm, const void *key, unsigned int keylen)
{
	(void)tfm, (void)key, (void)keylen;
	return 0;
}

static unsigned int rt_sig_max(struct crypto_sig *tfm)
{
	(void)tfm;
	return 1;
}

static struct sig_alg rt_ct_sig = {
	.sign = rt_sig_sign, .verify = rt_sig_verify, .set_pub_key = rt_sig_key,
	.set_priv_key = rt_sig_key, .max_size = rt_sig_max,
	.base = {
		.cra_name = "rt-ct-sig", .cra_driver_name = "rt-ct-sig-test",
		.cra_priority = 100, .cra_module = "test", .cra_selftest = rt_ok_selftest,
	},
};

static int rt_ct_outside(void)
{
#if defined(__aarch64__)
	if (rind_cpu_has(RIND_ARM64_DIT) && read_dit())
		return 1;
#endif
	return rind_ct_active();
}

/* A batch entry that signs one after another: only its lane figures matter here. */
static void rt_lanes_batch(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		int r = rt_sig_sign(tfm, reqs[i].msg, reqs[i].msglen, reqs[i].sig, reqs[i].siglen);

		reqs[i].err = r < 0 ? r : 0;
		reqs[i].siglen = r < 0 ? reqs[i].siglen : (unsigned int)r;
	}
}

static struct sig_alg rt_lanes_sig[2] = {
	{	/* lanes declared but no batch entry: one at a time */
		.sign = rt_sig_sign, .verify = rt_sig_verify, .set_pub_key = rt_sig_key,
		.set_priv_key = rt_sig_key, .max_size = rt_sig_max, .batch_lanes = 4,
		.base = {
			.cra_name = "rt-lanes-none", .cra_driver_name = "rt-lanes-none-test",
			.cra_priority = 100, .cra_module = "test", .cra_selftest = rt_ok_selftest,
		},
	}, {	/* four lanes from three requests on */
		.sign = rt_sig_sign, .verify = rt_sig_verify, .set_pub_key = rt_sig_key,
		.set_priv_key = rt_sig_key, .max_size = rt_sig_max, .sign_batch = rt_lanes_batch,
		.batch_lanes = 4, .batch_min = 3,
		.base = {
			.cra_name = "rt-lanes-four", .cra_driver_name = "rt-lanes-four-test",
			.cra_priority = 100, .cra_module = "test", .cra_selftest = rt_ok_selftest,
		},
	},
};

/*
 * crypto_sig_batch_lanes: the implementation's lane count for a batch of
 * n, 1 below its smallest batch, where it has no batch entry, and for a
 * tfm that is not one; every real driver (ECDSA, Ed25519, RSA) reports 1
 * for a tfm without a key (the lanes of RSA and ECDSA are per key: struct
 * sig_alg.batch_width), even over the IFMA drivers that have lanes.
 */
START_TEST(test_sig_batch_lanes)
{
	static const char *const real[] = { "ed25519", "x962(ecdsa-nist-p256,sha256)",
					     "pkcs1(rsa,sha256)", "mldsa65" };
	struct crypto_sig *none, *four;
	unsigned int i;

	ck_assert_int_eq(crypto_register_sigs(rt_lanes_sig, 2), 0);
	none = crypto_alloc_sig("rt-lanes-none", 0, 0);
	four = crypto_alloc_sig("rt-lanes-four", 0, 0);
	ck_assert(!IS_ERR(none) && !IS_ERR(four));
	ck_assert_uint_eq(crypto_sig_batch_lanes(none, 64), 1);
	ck_assert_uint_eq(crypto_sig_batch_lanes(four, 1), 1);
	ck_assert_uint_eq(crypto_sig_batch_lanes(four, 2), 1);
	ck_assert_uint_eq(crypto_sig_batch_lanes(four, 3), 4);
	ck_assert_uint_eq(crypto_sig_batch_lanes(four, 17), 4);
	ck_assert_uint_eq(crypto_sig_batch_lanes(NULL, 8), 1);
	ck_assert_uint_eq(crypto_sig_batch_lanes(ERR_PTR(-ENOENT), 8), 1);
	for (i = 0; i < sizeof(real) / sizeof(real[0]); i++) {
		struct crypto_sig *t = crypto_alloc_sig(real[i], 0, 0);

		ck_assert_msg(!IS_ERR(t), "%s", real[i]);
		ck_assert_uint_eq(crypto_sig_batch_lanes(t, 64), 1);
		crypto_free_sig(t);
	}
	crypto_free_sig(none);
	crypto_free_sig(four);
	crypto_unregister_sig(&rt_lanes_sig[0]);
	crypto_unregister_sig(&rt_lanes_sig[1]);
}
END_TEST

START_TEST(test_batches_hold_ct_section)
{
	struct crypto_aead *a;
	struct crypto_sig *s;
	struct aead_request *r[3];
	struct sig_request sr[3];
	u8 sigs[3];
	unsigned int i;

	ck_assert_int_eq(crypto_register_aead(&rt_ct_aead), 0);
	ck_assert_int_eq(crypto_register_sig(&rt_ct_sig), 0);

	a = crypto_alloc_aead("rt-ct-aead", 0, 0);
	ck_assert(!IS_ERR(a));
	ck_assert_int_eq(crypto_aead_setkey(a, (const u8 *)"k", 1), 0);
	ck_assert_int_eq(crypto_aead_setauthsize(a, 0), 0);	/* empty requests decrypt too */
	for (i = 0; i < 3; i++) {
		r[i] = aead_request_alloc(a, GFP_KERNEL);
		ck_assert_ptr_nonnull(r[i]);
		aead_request_set_crypt(r[i], NULL, NULL, 0, NULL);
		aead_request_set_ad(r[i], 0);
	}
	/* Outside a batch: no section, DIT clear. */
	rt_ct_n = 0;
	ck_assert_int_eq(crypto_aead_encrypt(r[0]), 0);
	ck_assert_uint_eq(rt_ct_n, 1);
	ck_assert_int_eq(rt_ct_seen[0], 0);
	ck_assert_int_eq(rt_ct_outside(), 0);
	rt_ct_n = 0;
	ck_assert_int_eq(crypto_aead_encrypt_batch(r, 3), 0);
	ck_assert_uint_eq(rt_ct_n, 3);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(rt_ct_seen[i], 1);
		ck_assert_int_eq(rt_dit_seen[i], 1);
	}
	ck_assert_int_eq(rt_ct_outside(), 0);
	rt_ct_n = 0;
	ck_assert_int_eq(crypto_aead_decrypt_batch(r, 2), 0);
	ck_assert_uint_eq(rt_ct_n, 2);
	ck_assert_int_eq(rt_ct_seen[1] & rt_dit_seen[1], 1);
	ck_assert_int_eq(rt_ct_outside(), 0);

	s = crypto_alloc_sig("rt-ct-sig", 0, 0);
	ck_assert(!IS_ERR(s));
	/* No key: the batch is refused before any operation runs. */
	rt_ct_n = 0;
	for (i = 0; i < 3; i++) {
		sr[i] = (struct sig_request){ .msg = "m", .msglen = 1, .sig = &sigs[i], .siglen = 1 };
	}
	ck_assert_int_eq(crypto_sig_sign_batch(s, sr, 3), -ENOKEY);
	ck_assert_uint_eq(rt_ct_n, 0);
	ck_assert_int_eq(crypto_sig_set_privkey(s, "k", 1), 0);
	ck_assert_int_eq(crypto_sig_sign(s, "m", 1, sigs, 1), 1);
	ck_assert_uint_eq(rt_ct_n, 1);
	ck_assert_int_eq(rt_ct_seen[0], 0);
	rt_ct_n = 0;
	ck_assert_int_eq(crypto_sig_sign_batch(s, sr, 3), 0);
	ck_assert_uint_eq(rt_ct_n, 3);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(rt_ct_seen[i], 1);
		ck_assert_int_eq(rt_dit_seen[i], 1);
		ck_assert_int_eq(sr[i].err, 0);
		ck_assert_uint_eq(sr[i].siglen, 1);
		ck_assert_uint_eq(sigs[i], 0x5a);
	}
	ck_assert_int_eq(rt_ct_outside(), 0);
	/* Inside a caller's section the batch nests and leaves it open. */
	rind_ct_begin();
	rt_ct_n = 0;
	ck_assert_int_eq(crypto_sig_sign_batch(s, sr, 1), 0);
	ck_assert_int_eq(rt_ct_seen[0] & rt_dit_seen[0], 1);
	ck_assert_int_eq(rind_ct_active(), 1);
	rind_ct_end();
	ck_assert_int_eq(rt_ct_outside(), 0);
#if defined(__aarch64__)
	printf("arm64: DIT %s inside aead and sig batches, clear outside\n",
	       rind_cpu_has(RIND_ARM64_DIT) ? "set" : "(absent; depth only)");
#endif

	crypto_free_sig(s);
	for (i = 0; i < 3; i++)
		aead_request_free(r[i]);
	crypto_free_aead(a);
	crypto_unregister_sig(&rt_ct_sig);
	crypto_unregister_aead(&rt_ct_aead);
}
END_TEST

START_TEST(test_err_ptr)
{
	void *p = ERR_PTR(-ENOENT);

	ck_assert(IS_ERR(p));
	ck_assert_int_eq(PTR_ERR(p), -ENOENT);
	ck_assert(!IS_ERR(&p));
	ck_assert(IS_ERR_OR_NULL(NULL));
	ck_assert_int_eq(PTR_ERR_OR_ZERO(&p), 0);
}
END_TEST

START_TEST(test_scatterlist_helpers)
{
	u8 a[5] = "abcde", b[3] = "fgh", c[4] = "ijkl", out[12];
	struct scatterlist t1[2], t2[2];

	sg_init_table(t1, 2);
	sg_set_buf(&t1[0], a, 5);
	sg_init_table(t2, 2);
	sg_set_buf(&t2[0], b, 3);
	sg_set_buf(&t2[1], c, 4);
	sg_chain(t1, 2, t2);
	ck_assert_int_eq(sg_nents(t1), 3);
	ck_assert_int_eq(sg_nents_for_len(t1, 6), 2);
	ck_assert_int_eq(sg_nents_for_len(t1, 13), -EINVAL);
	ck_assert_uint_eq(sg_copy_to_buffer(t1, 3, out, 12), 12);
	ck_assert(!memcmp(out, "abcdefghijkl", 12));
	ck_assert_uint_eq(sg_pcopy_to_buffer(t1, 3, out, 4, 4), 4);
	ck_assert(!memcmp(out, "efgh", 4));
	ck_assert_uint_eq(sg_pcopy_from_buffer(t1, 3, "XYZ", 3, 7), 3);
	ck_assert(!memcmp(b, "fgX", 3) && !memcmp(c, "YZkl", 4));
	ck_assert_uint_eq(sg_zero_buffer(t1, 3, 2, 0), 2);
	ck_assert(a[0] == 0 && a[1] == 0 && a[2] == 'c');
}
END_TEST

START_TEST(test_sg_map)
{
	u8 buf[64], out[64];
	struct scatterlist s[4], d[4];
	struct rind_sg_map m;
	int i;

	for (i = 0; i < 64; i++)
		buf[i] = (u8)i;
	/* Contiguous: pointers into the buffers, no bounce. */
	sg_init_one(s, buf, 64);
	ck_assert_int_eq(rind_sg_map(&m, s, s, 10, 20), 0);
	ck_assert_ptr_eq(m.src, buf + 10);
	ck_assert_ptr_eq(m.dst, buf + 10);
	rind_sg_unmap(&m, true);
	/* Fragmented destination: bounced, copied out on unmap. */
	sg_init_table(d, 3);
	sg_set_buf(&d[0], out, 7);
	sg_set_buf(&d[1], out + 7, 0);
	sg_set_buf(&d[2], out + 7, 57);
	memset(out, 0, sizeof(out));
	ck_assert_int_eq(rind_sg_map(&m, s, d, 3, 40), 0);
	for (i = 0; i < 40; i++)
		m.dst[i] = m.src[i] ^ 0xff;
	rind_sg_unmap(&m, true);
	for (i = 0; i < 40; i++)
		ck_assert_uint_eq(out[3 + i], (u8)((3 + i) ^ 0xff));
	ck_assert_uint_eq(out[0], 0);
	ck_assert_uint_eq(out[43], 0);
	/* Too short a list is -EINVAL. */
	ck_assert_int_eq(rind_sg_map(&m, s, d, 30, 40), -EINVAL);
	ck_assert_int_eq(crypto_memneq("abc", "abc", 3), 0);
	ck_assert_int_ne(crypto_memneq("abc", "abd", 3), 0);
}
END_TEST

START_TEST(test_crypto_wait)
{
	DECLARE_CRYPTO_WAIT(w);

	/* A synchronous result passes straight through. */
	ck_assert_int_eq(crypto_wait_req(0, &w), 0);
	ck_assert_int_eq(crypto_wait_req(-EBADMSG, &w), -EBADMSG);
	/* An async completion delivered before the wait. */
	crypto_req_done(&w, -EINPROGRESS);
	crypto_req_done(&w, -EBADMSG);
	ck_assert_int_eq(crypto_wait_req(-EINPROGRESS, &w), -EBADMSG);
}
END_TEST

/* API.md: "Names every build resolves". */
/* API.md: "Names every build resolves". */
static const char *const api_names_required[] = {
	"sha1", "sha224", "sha256", "sha384", "sha512",
	"hmac(sha1)", "hmac(sha256)", "hmac(sha384)", "hmac(sha512)",
	"aes", "ecb(aes)", "cbc(aes)", "ctr(aes)", "kw(aes)", "chacha20", "xchacha20",
	"gcm(aes)", "rfc4106(gcm(aes))", "rfc7539(chacha20,poly1305)", "rfc7539(xchacha20,poly1305)",
	"curve25519", "ecdh-nist-p256", "ecdh-nist-p384", "ecdh-nist-p521", "ed25519",
	"x962(ecdsa-nist-p256,sha256)", "x962(ecdsa-nist-p384,sha384)", "x962(ecdsa-nist-p521,sha512)",
	"p1363(ecdsa-nist-p256,sha256)", "p1363(ecdsa-nist-p384,sha384)", "p1363(ecdsa-nist-p521,sha512)",
	"pkcs1(rsa,sha256)", "pkcs1(rsa,sha384)", "pkcs1(rsa,sha512)",
	"pss(rsa,sha256)", "pss(rsa,sha384)", "pss(rsa,sha512)",
	"oaep(rsa,sha256)", "oaep(rsa,sha384)", "oaep(rsa,sha512)",
	"mlkem512", "mlkem768", "mlkem1024", "x25519mlkem768", "stdrng",
};

/* Other pairings API.md allows, and SHA-1 ECDSA, which it refuses. */
static const char *const api_names_more[] = {
	"x962(ecdsa-nist-p256,sha384)", "p1363(ecdsa-nist-p384,sha512)", "x962(ecdsa-nist-p521,sha256)",
};

START_TEST(test_api_names_resolve)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(api_names_required); i++)
		ck_assert_msg(crypto_has_alg(api_names_required[i], 0, 0), "%s does not resolve",
			      api_names_required[i]);
	for (i = 0; i < ARRAY_SIZE(api_names_more); i++)
		ck_assert_msg(crypto_has_alg(api_names_more[i], 0, 0), "%s does not resolve",
			      api_names_more[i]);
	ck_assert_int_eq(crypto_has_alg("x962(ecdsa-nist-p256,sha1)", 0, 0), 0);
	printf("registry: all %zu API.md names resolve, with passed self-tests\n",
	       ARRAY_SIZE(api_names_required));
	rind_alg_foreach(all_tested_cb, NULL);
}
END_TEST

/*
 * rind_set_secmem: every tfm, and the tfms templates spawn inside it
 * (gcm's cipher, ed25519's sha512), comes from the installed allocator and
 * goes back to it wiped; tfms from before keep their allocator.
 */
static struct {
	unsigned int allocs, frees, dirty;
	size_t live;
} sm_count;

static void *sm_alloc(size_t size)
{
	void *p = aligned_alloc(64, (size + 63) & ~(size_t)63);

	if (p) {
		memset(p, 0, size);
		sm_count.allocs++;
		sm_count.live += size;
	}
	return p;
}

static void sm_free(void *p, size_t size)
{
	const u8 *b = p;
	size_t i;

	for (i = 0; i < size; i++)
		if (b[i])
			sm_count.dirty++;
	sm_count.frees++;
	sm_count.live -= size;
	free(p);
}

START_TEST(test_secmem_allocator)
{
	static const struct rind_secmem sm = { .alloc = sm_alloc, .free = sm_free };
	struct crypto_aead *before, *gcm;
	struct crypto_sig *ed;
	u8 key[32] = { 1, 2, 3 }, seed[32] = { 4, 5, 6 }, sig[64];
	unsigned int frees;

	memset(&sm_count, 0, sizeof(sm_count));
	before = crypto_alloc_aead("gcm(aes)", 0, 0);
	ck_assert(!IS_ERR(before));
	rind_set_secmem(&sm);
	gcm = crypto_alloc_aead("gcm(aes)", 0, 0);
	ed = crypto_alloc_sig("ed25519", 0, 0);
	ck_assert(!IS_ERR(gcm) && !IS_ERR(ed));
	ck_assert_int_eq(crypto_aead_setkey(gcm, key, 32), 0);
	ck_assert_int_eq(crypto_sig_set_privkey(ed, seed, 32), 0);
	ck_assert_int_eq(crypto_sig_sign(ed, "m", 1, sig, sizeof(sig)), 64);
	/* at least the two tfms and what they spawned (cipher, sha512) */
	ck_assert_uint_ge(sm_count.allocs, 3);
	frees = sm_count.frees;			/* self-tests' tfms came and went */
	crypto_free_aead(before);		/* malloc'ed: must not reach sm_free */
	ck_assert_uint_eq(sm_count.frees, frees);
	crypto_free_aead(gcm);
	crypto_free_sig(ed);
	rind_set_secmem(NULL);
	ck_assert_uint_eq(sm_count.frees, sm_count.allocs);
	ck_assert_uint_eq(sm_count.live, 0);
	ck_assert_uint_eq(sm_count.dirty, 0);
	printf("registry: secmem allocator: %u tfm allocations, all returned wiped\n",
	       sm_count.allocs);
}
END_TEST

/*
 * Look up before instantiating: a name something registered serves is
 * served by it, without building (or self-testing) a template instance; a
 * name nothing serves is instantiated once and found after that.
 */
static struct rind_registry_counters rc_before;

static void rc_mark(void)
{
	rind_registry_counters(&rc_before);
}

static void rc_expect(const char *what, u64 creates, u64 instances, u64 selftests)
{
	struct rind_registry_counters now;

	rind_registry_counters(&now);
	ck_assert_msg(now.creates - rc_before.creates == creates &&
		      now.instances - rc_before.instances == instances &&
		      now.selftests - rc_before.selftests == selftests,
		      "%s: %llu creates, %llu instances, %llu self-tests (expected %llu, %llu, %llu)",
		      what, (unsigned long long)(now.creates - rc_before.creates),
		      (unsigned long long)(now.instances - rc_before.instances),
		      (unsigned long long)(now.selftests - rc_before.selftests),
		      (unsigned long long)creates, (unsigned long long)instances,
		      (unsigned long long)selftests);
}

static bool aead_alloc_setkey_free(const char *name, bool *instance)
{
	static const u8 key[16] = { 1, 2, 3 };
	struct crypto_aead *tfm = crypto_alloc_aead(name, 0, 0);

	ck_assert_msg(!IS_ERR(tfm), "alloc %s: %ld", name, PTR_ERR(tfm));
	*instance = crypto_aead_tfm(tfm)->__crt_alg->cra_flags & CRYPTO_ALG_INSTANCE;
	ck_assert_int_eq(crypto_aead_setkey(tfm, key, sizeof(key)), 0);
	crypto_free_aead(tfm);
	return true;
}

START_TEST(test_lookup_before_instantiate_builtin)
{
	static const char *const names[] = {
		"gcm(aes)", "rfc4106(gcm(aes))", "ctr(aes)", "cbc(aes)", "ecb(aes)", "kw(aes)",
		"hmac(sha256)", "hmac(sha512)", "rfc7539(chacha20,poly1305)",
		"x962(ecdsa-nist-p256,sha256)", "p1363(ecdsa-nist-p384,sha384)",
		"pkcs1(rsa,sha256)", "pss(rsa,sha256)", "oaep(rsa,sha256)",
		/* a driver name inside a template */
		"gcm(aes-generic)", "hmac(sha256-generic)", "rfc4106(gcm(aes-generic))",
		"ctr(aes-generic)",
		/* a mix: its instance's names are neither */
		"x962(ecdsa-nist-p256,sha256-generic)",
	};
	bool inst;
	size_t i;

	/*
	 * Served by a registered driver: even the first alloc builds nothing.
	 * (The library's initialisation, which also resolves the default
	 * random generator and so self-tests the DRBG, is done first.)
	 */
	(void)rind_selftest_ns();
	rind_registry_counters(&rc_before);
	aead_alloc_setkey_free("gcm(aes)", &inst);
	if (!inst) {
		struct rind_registry_counters now;

		/* (the driver's own self-test, if this is its first use) */
		rind_registry_counters(&now);
		ck_assert_uint_eq(now.creates, rc_before.creates);
		ck_assert_uint_eq(now.instances, rc_before.instances);
		ck_assert_uint_le(now.selftests - rc_before.selftests, 1);
	}
	/* Served by an instance (RIND_DISABLE=all): built once at most. */
	rc_mark();
	aead_alloc_setkey_free("gcm(aes)", &inst);
	rc_expect("second gcm(aes)", 0, 0, 0);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		ck_assert_msg(crypto_has_alg(names[i], 0, 0), "%s", names[i]);
		rc_mark();
		ck_assert(crypto_has_alg(names[i], 0, 0));
		rc_expect(names[i], 0, 0, 0);
	}
	printf("registry: second lookups of %zu names build and self-test nothing\n",
	       ARRAY_SIZE(names));
}
END_TEST

static struct shash_alg rt3_a = RT_SHASH("rt-h3-a", 100, rt_final_a);
static struct shash_alg rt3_top = RT_SHASH("rt-h3-top", 500, rt_final_b);
/* Registered under a template-shaped name, at a lower priority than the instance's. */
static struct shash_alg rt3_wrapped = RT_SHASH("rt-h3-wrapped-driver", 50, rt_final_a);

START_TEST(test_lookup_before_instantiate)
{
	struct crypto_shash *keep;

	setup();
	snprintf(rt3_a.base.cra_name, sizeof(rt3_a.base.cra_name), "rt-h3");
	snprintf(rt3_top.base.cra_name, sizeof(rt3_top.base.cra_name), "rt-h3");
	snprintf(rt3_wrapped.base.cra_name, sizeof(rt3_wrapped.base.cra_name), "rtwrap(rt-h3)");
	ck_assert_int_eq(crypto_register_shash(&rt3_a), 0);
	ck_assert_int_eq(crypto_register_shash(&rt3_wrapped), 0);

	/* A registered implementation of the name wins, as in the kernel. */
	rc_mark();
	ck_assert_uint_eq(digest_of("rtwrap(rt-h3)", "rt-h3-wrapped-driver"), 'a' + 'b' + 'c');
	rc_expect("rtwrap(rt-h3), registered", 0, 0, 0);

	/* A driver name inside: instantiated once ... */
	rc_mark();
	ck_assert_uint_eq(digest_of("rtwrap(rt-h3-a)", "rtwrap(rt-h3-a)"), 'a' + 'b' + 'c' + 1);
	rc_expect("rtwrap(rt-h3-a), first", 1, 1, 1);
	/* ... then found. */
	rc_mark();
	digest_of("rtwrap(rt-h3-a)", "rtwrap(rt-h3-a)");
	rc_expect("rtwrap(rt-h3-a), second", 0, 0, 0);
	/* Nested: the inner name is served by the registered one. */
	rc_mark();
	ck_assert_uint_eq(digest_of("rtwrap(rtwrap(rt-h3))", "rtwrap(rt-h3-wrapped-driver)"),
			  'a' + 'b' + 'c' + 1);
	rc_expect("rtwrap(rtwrap(rt-h3)), first", 1, 1, 1);
	rc_mark();
	digest_of("rtwrap(rtwrap(rt-h3))", "rtwrap(rt-h3-wrapped-driver)");
	rc_expect("rtwrap(rtwrap(rt-h3)), second", 0, 0, 0);

	/* Without the registered one the template serves the name, over the best. */
	crypto_unregister_shash(&rt3_wrapped);
	rc_mark();
	digest_of("rtwrap(rt-h3)", "rtwrap(rt-h3-a)");
	rc_expect("rtwrap(rt-h3) after the registered one went", 1, 0, 0);
	rc_mark();
	digest_of("rtwrap(rt-h3)", "rtwrap(rt-h3-a)");
	rc_expect("rtwrap(rt-h3), again", 0, 0, 0);

	/*
	 * A better argument registered later: the instance over the old
	 * best no longer serves the name (nor the one nested over it), but
	 * stays reachable by driver name.
	 */
	keep = crypto_alloc_shash("rtwrap(rtwrap(rt-h3))", 0, 0);
	ck_assert(!IS_ERR(keep));
	ck_assert_str_eq(crypto_shash_driver_name(keep), "rtwrap(rtwrap(rt-h3-a))");
	ck_assert_int_eq(crypto_register_shash(&rt3_top), 0);
	digest_of("rtwrap(rt-h3)", "rtwrap(rt-h3-top)");
	digest_of("rtwrap(rtwrap(rt-h3))", "rtwrap(rtwrap(rt-h3-top))");
	digest_of("rtwrap(rt-h3-a)", "rtwrap(rt-h3-a)");
	rc_mark();
	digest_of("rtwrap(rtwrap(rt-h3))", "rtwrap(rtwrap(rt-h3-top))");
	rc_expect("rtwrap(rtwrap(rt-h3)) over the new best, second", 0, 0, 0);
	/* It goes again: the old instances serve the name again, none rebuilt. */
	crypto_unregister_shash(&rt3_top);
	rc_mark();
	digest_of("rtwrap(rtwrap(rt-h3))", "rtwrap(rtwrap(rt-h3-a))");
	rc_expect("rtwrap(rtwrap(rt-h3)) after the best went", 2, 0, 0);
	rc_mark();
	digest_of("rtwrap(rtwrap(rt-h3))", "rtwrap(rtwrap(rt-h3-a))");
	rc_expect("rtwrap(rtwrap(rt-h3)), again", 0, 0, 0);
	crypto_free_shash(keep);

	crypto_unregister_shash(&rt3_a);
	ck_assert_int_eq(PTR_ERR(crypto_alloc_shash("rtwrap(rt-h3)", 0, 0)), -ENOENT);
}
END_TEST

static struct shash_alg rt4_a = RT_SHASH("rt-h4-a", 100, rt_final_a);
static struct shash_alg rt4_bad = RT_SHASH("rt-h4-wrapped-bad", 900, rt_final_bad);
static struct shash_alg rt5_bad = RT_SHASH("rt-h5-wrapped-bad", 900, rt_final_bad);

START_TEST(test_lookup_failed_then_template)
{
	setup();
	snprintf(rt4_a.base.cra_name, sizeof(rt4_a.base.cra_name), "rt-h4");
	snprintf(rt4_bad.base.cra_name, sizeof(rt4_bad.base.cra_name), "rtwrap(rt-h4)");
	snprintf(rt5_bad.base.cra_name, sizeof(rt5_bad.base.cra_name), "rtwrap(rt-h5)");
	ck_assert_int_eq(crypto_register_shash(&rt4_a), 0);
	ck_assert_int_eq(crypto_register_shash(&rt4_bad), 0);
	ck_assert_int_eq(crypto_register_shash(&rt5_bad), 0);
	/* The only registered implementation failed: the template serves the name ... */
	rc_mark();
	ck_assert_uint_eq(digest_of("rtwrap(rt-h4)", "rtwrap(rt-h4-a)"), 'a' + 'b' + 'c' + 1);
	rc_expect("rtwrap(rt-h4) over a failed one", 1, 1, 1);
	rc_mark();
	digest_of("rtwrap(rt-h4)", "rtwrap(rt-h4-a)");
	rc_expect("rtwrap(rt-h4), second", 0, 0, 0);
	ck_assert_int_eq(PTR_ERR(crypto_alloc_shash("rt-h4-wrapped-bad", 0, 0)), -ELIBBAD);
	/* ... and where it cannot, the failure is what the caller hears. */
	ck_assert_int_eq(PTR_ERR(crypto_alloc_shash("rtwrap(rt-h5)", 0, 0)), -ELIBBAD);
	crypto_unregister_shash(&rt5_bad);
	crypto_unregister_shash(&rt4_bad);
	crypto_unregister_shash(&rt4_a);
	ck_assert_int_eq(PTR_ERR(crypto_alloc_shash("rtwrap(rt-h4)", 0, 0)), -ENOENT);
}
END_TEST

static Suite *registry_suite(void)
{
	Suite *s = suite_create("registry");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_priority_order);
	tcase_add_test(tc, test_failed_selftest_never_returned);
	tcase_add_test(tc, test_only_failed_gives_elibbad);
	tcase_add_test(tc, test_template_instantiation_and_cache);
	tcase_add_test(tc, test_nested_templates);
	tcase_add_test(tc, test_malformed_names);
	tcase_add_test(tc, test_concurrent_allocation);
	tcase_add_test(tc, test_foreach_stops);
	tcase_add_test(tc, test_builtin_selftests_pass_and_are_fast);
	tcase_add_test(tc, test_api_names_resolve);
	tcase_add_test(tc, test_ct_guard_nests);
#if defined(__aarch64__)
	tcase_add_test(tc, test_dit_set_and_restored);
#endif
	tcase_add_test(tc, test_batches_hold_ct_section);
	tcase_add_test(tc, test_sig_batch_lanes);
	tcase_add_test(tc, test_err_ptr);
	tcase_add_test(tc, test_scatterlist_helpers);
	tcase_add_test(tc, test_sg_map);
	tcase_add_test(tc, test_crypto_wait);
	tcase_add_test(tc, test_secmem_allocator);
	tcase_add_test(tc, test_lookup_before_instantiate_builtin);
	tcase_add_test(tc, test_lookup_before_instantiate);
	tcase_add_test(tc, test_lookup_failed_then_template);
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(registry_suite)
