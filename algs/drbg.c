// SPDX-License-Identifier: MIT
/*
 * "stdrng": a ChaCha20 fast-key-erasure generator (driver
 * "drbg-chacha20-generic"), and the per-thread generator behind
 * rind_get_random_bytes().
 *
 * Design.  The state is one 256-bit ChaCha20 key K that is used exactly
 * once.  Words 12..15 of the ChaCha20 input (RFC 8439 layout: counter and
 * nonce) carry a 128-bit block input; block(K, x) is the 64-byte ChaCha20
 * output for key K and input words x.
 *
 *   refill    buf = block(K, {0,0,0,0}) || ... || block(K, {7,0,0,0}); the
 *             first 32 bytes of buf become the new K and are erased from
 *             buf; the other 480 bytes are served in order, and each
 *             served byte is erased from buf at once.
 *   bulk      a request that still wants >= 256 bytes once the buffer is
 *             drained is written directly: b = block(K, {0,0,0,0}),
 *             K = b[0..31], R = b[32..63], output = ChaCha20 keystream of
 *             key R (counter from 0, nonce 0); R is erased.  A request
 *             above 1 GiB takes a fresh R per GiB.
 *   absorb    input (a deterministic seed, or additional input) is chained
 *             through ChaCha20 used as a PRF on its block input (a cascade,
 *             prefix-free because the header carries the length):
 *               K = block(K, {0xffffffff, len_lo, len_hi, domain})[0..31]
 *               K = block(K, chunk_i)[0..31]   for each 16-byte chunk of
 *                                              input, the last zero-padded
 *             with domain "SEED" for crypto_rng_reset() (from K = 0) and
 *             "ADDI" for additional input; any buffered output is erased
 *             first, so output after the call depends on the input.
 *   OS seed   K ^= 32 bytes of getrandom(2), then
 *             K = block(K, {0xfffffffe, 0, 0, "OSRS"})[0..31]; the buffer
 *             is erased.  Either a secret old K or a secret getrandom
 *             output leaves the new K unknown.
 *
 * Every key is used for one purpose, once, and the block inputs of the
 * different uses never collide (word 12 is 0..7 for output, 0xffffffff
 * or 0xfffffffe for the first block under a key in absorb/seed); after a
 * call returns, the state holds nothing from which earlier output can be
 * recomputed (fast key erasure).
 *
 * Seeding.  A generator that is not deterministic seeds from getrandom(2)
 * before its first output, and again once it has produced 1 MiB or 60 s
 * have passed since its last seeding (checked at each refill/bulk step),
 * and after a fork.  getrandom failing is an error returned to the caller
 * (whose buffer is zeroed); there is no fallback.  crypto_rng_reset() with
 * a seed makes a tfm deterministic (for tests: no OS seeding at all from
 * then on; its output is a function of the seed and of the sequence of
 * request sizes and additional inputs); crypto_rng_reset(tfm, NULL, 0)
 * reseeds it from the OS and makes it non-deterministic again.
 *
 * Threads and fork.  rind_get_random_bytes() uses a per-thread state (no
 * locking) on its own page, mapped with MADV_WIPEONFORK (the child sees
 * zeros: an unseeded state) and MADV_DONTDUMP, and wiped and unmapped at
 * thread exit; api/rng.c reaches it through the registry, as the
 * thread_generate hook of the best "stdrng".  As belt and braces a
 * pthread_atfork() child handler bumps a fork generation that every state
 * (per-thread and tfm) compares with the one it was seeded in.  A tfm's
 * state lives in ordinary memory, and a raw clone(2) runs no atfork
 * handler, so the generation is also bumped when a MADV_WIPEONFORK canary
 * page reads zero (or, without MADV_WIPEONFORK, the pid changed): a child
 * never repeats its parent's stream, however it was forked.  A tfm has a mutex, so one tfm may be shared by threads.
 *
 * The ChaCha20 block function is algs/chacha20.c's generic one (plain C,
 * not a registry lookup, so key generation in other self-tests may draw
 * random bytes while the registry is busy testing).
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <rind/internal/rng.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/chacha.h>

#define DRBG_BLOCKS		8
#define DRBG_BUF		(DRBG_BLOCKS * CHACHA_BLOCK_SIZE)
#define DRBG_BULK_MIN		256
#define DRBG_BULK_MAX		(1u << 30)
#define DRBG_SEEDSIZE		32
#define DRBG_MAX_SEED		256

#define DOM_SEED		0x44454553u	/* "SEED" little-endian */
#define DOM_ADDI		0x49444441u	/* "ADDI" */
#define DOM_OSRS		0x5352534fu	/* "OSRS" */

struct drbg_state {
	u32 key[8];
	u8 buf[DRBG_BUF];
	unsigned int pos;		/* next unserved byte of buf */
	unsigned int live;		/* 0: seed from the OS before use */
	unsigned int deterministic;
	u64 fork_gen;			/* generation the state was seeded in */
	u64 since_seed;			/* bytes output since the last OS seed */
	u64 seed_time;			/* CLOCK_MONOTONIC ns at that seed */
	u64 seeds;			/* OS seedings so far */
};

static u64 drbg_fork_generation = 1;
/*
 * Fork detection that does not depend on libc: a page mapped
 * MADV_WIPEONFORK holding a nonzero word reads zero in any child, however
 * it was made (fork(), or a raw clone(2) that runs no pthread_atfork
 * handler); where the kernel lacks MADV_WIPEONFORK, the pid recorded at
 * the last check is compared instead (getpid() is a system call, glibc
 * caches nothing since 2.25).  Either bumps the fork generation.
 */
static u32 *drbg_fork_canary;
static pid_t drbg_fork_pid;
static u64 drbg_reseed_bytes = 1u << 20;
static u64 drbg_reseed_ns = 60ull * 1000000000ull;

static u64 load_u64(const u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

/* The current fork generation, bumped first if this process is a new child. */
static u64 drbg_fork_gen_now(void)
{
	u32 *canary = __atomic_load_n(&drbg_fork_canary, __ATOMIC_ACQUIRE);

	if (canary) {
		if (__builtin_expect(!__atomic_load_n(canary, __ATOMIC_ACQUIRE), 0)) {
			__atomic_add_fetch(&drbg_fork_generation, 1, __ATOMIC_ACQ_REL);
			__atomic_store_n(canary, 1, __ATOMIC_RELEASE);
		}
	} else {
		pid_t pid = getpid();

		if (__builtin_expect(pid != __atomic_load_n(&drbg_fork_pid, __ATOMIC_ACQUIRE), 0)) {
			__atomic_add_fetch(&drbg_fork_generation, 1, __ATOMIC_ACQ_REL);
			__atomic_store_n(&drbg_fork_pid, pid, __ATOMIC_RELEASE);
		}
	}
	return __atomic_load_n(&drbg_fork_generation, __ATOMIC_ACQUIRE);
}

/* out = block(key, x): the ChaCha20 block with words 12..15 = x. */
static void drbg_block(const u32 key[8], const u32 x[4], u8 out[CHACHA_BLOCK_SIZE])
{
	u32 st[CHACHA_STATE_WORDS] = {
		CHACHA_CONST0, CHACHA_CONST1, CHACHA_CONST2, CHACHA_CONST3,
	};

	memcpy(&st[4], key, 32);
	memcpy(&st[12], x, 16);
	rind_chacha20_block_generic(st, out);
	memzero_explicit(st, sizeof(st));
}

/* key = block(key, x)[0..31] */
static void drbg_step(u32 key[8], const u32 x[4])
{
	u8 b[CHACHA_BLOCK_SIZE];
	int i;

	drbg_block(key, x, b);
	for (i = 0; i < 8; i++)
		key[i] = get_unaligned_le32(b + 4 * i);
	memzero_explicit(b, sizeof(b));
}

static void drbg_drop_buffer(struct drbg_state *s)
{
	memzero_explicit(s->buf, sizeof(s->buf));
	s->pos = DRBG_BUF;
}

static void drbg_absorb(struct drbg_state *s, u32 domain, const u8 *in, size_t len)
{
	u32 x[4] = { 0xffffffffu, (u32)len, (u32)((u64)len >> 32), domain };
	u8 chunk[16];
	size_t i, n;

	drbg_drop_buffer(s);
	drbg_step(s->key, x);
	for (i = 0; i < len; i += 16) {
		n = len - i < 16 ? len - i : 16;
		memset(chunk, 0, sizeof(chunk));
		memcpy(chunk, in + i, n);
		x[0] = get_unaligned_le32(chunk);
		x[1] = get_unaligned_le32(chunk + 4);
		x[2] = get_unaligned_le32(chunk + 8);
		x[3] = get_unaligned_le32(chunk + 12);
		drbg_step(s->key, x);
	}
	memzero_explicit(chunk, sizeof(chunk));
	memzero_explicit(x, sizeof(x));
}

static int drbg_seed_os(struct drbg_state *s)
{
	static const u32 x[4] = { 0xfffffffeu, 0, 0, DOM_OSRS };
	u8 fresh[32];
	int i, err;

	err = rind_getrandom(fresh, sizeof(fresh));
	if (err)
		return err;
	if (!s->live)
		memset(s->key, 0, sizeof(s->key));
	for (i = 0; i < 8; i++)
		s->key[i] ^= get_unaligned_le32(fresh + 4 * i);
	memzero_explicit(fresh, sizeof(fresh));
	drbg_step(s->key, x);
	drbg_drop_buffer(s);
	s->deterministic = 0;
	s->live = 1;
	s->fork_gen = drbg_fork_gen_now();
	s->since_seed = 0;
	s->seed_time = now_ns();
	s->seeds++;
	return 0;
}

static void drbg_seed_det(struct drbg_state *s, const u8 *seed, size_t len)
{
	memset(s->key, 0, sizeof(s->key));
	drbg_absorb(s, DOM_SEED, seed, len);
	s->deterministic = 1;
	s->live = 1;
}

/* Seed from the OS if unseeded, forked, or due. */
static int drbg_check_seed(struct drbg_state *s, int at_refill)
{
	if (!s->live || (!s->deterministic && s->fork_gen != drbg_fork_gen_now()))
		return drbg_seed_os(s);
	if (at_refill && !s->deterministic &&
	    (s->since_seed >= load_u64(&drbg_reseed_bytes) ||
	     now_ns() - s->seed_time >= load_u64(&drbg_reseed_ns)))
		return drbg_seed_os(s);
	return 0;
}

static void drbg_refill(struct drbg_state *s)
{
	u32 x[4] = { 0, 0, 0, 0 };
	int i;

	for (i = 0; i < DRBG_BLOCKS; i++) {
		x[0] = (u32)i;
		drbg_block(s->key, x, s->buf + i * CHACHA_BLOCK_SIZE);
	}
	for (i = 0; i < 8; i++)
		s->key[i] = get_unaligned_le32(s->buf + 4 * i);
	memzero_explicit(s->buf, 32);
	s->pos = 32;
}

/* Write @len (<= DRBG_BULK_MAX) bytes straight from a one-time key. */
static void drbg_bulk(struct drbg_state *s, u8 *out, size_t len)
{
	static const u32 zero[4];
	u32 st[CHACHA_STATE_WORDS] = {
		CHACHA_CONST0, CHACHA_CONST1, CHACHA_CONST2, CHACHA_CONST3,
	};
	u8 b[CHACHA_BLOCK_SIZE];
	int i;

	drbg_block(s->key, zero, b);
	for (i = 0; i < 8; i++) {
		s->key[i] = get_unaligned_le32(b + 4 * i);
		st[4 + i] = get_unaligned_le32(b + 32 + 4 * i);
	}
	while (len >= CHACHA_BLOCK_SIZE) {
		rind_chacha20_block_generic(st, out);
		out += CHACHA_BLOCK_SIZE;
		len -= CHACHA_BLOCK_SIZE;
	}
	if (len) {
		rind_chacha20_block_generic(st, b);
		memcpy(out, b, len);
	}
	memzero_explicit(b, sizeof(b));
	memzero_explicit(st, sizeof(st));
}

static int drbg_generate(struct drbg_state *s, const u8 *addin, size_t alen,
			 u8 *out, size_t len)
{
	u8 *start = out;
	size_t total = len, n;
	int err;

	err = drbg_check_seed(s, 0);
	if (err)
		goto fail;
	if (alen)
		drbg_absorb(s, DOM_ADDI, addin, alen);
	while (len) {
		if (s->pos < DRBG_BUF) {
			n = min(len, (size_t)(DRBG_BUF - s->pos));
			memcpy(out, s->buf + s->pos, n);
			memzero_explicit(s->buf + s->pos, n);
			s->pos += (unsigned int)n;
			s->since_seed += n;
			out += n;
			len -= n;
			continue;
		}
		err = drbg_check_seed(s, 1);
		if (err)
			goto fail;
		if (len >= DRBG_BULK_MIN) {
			n = min(len, (size_t)DRBG_BULK_MAX);
			drbg_bulk(s, out, n);
			s->since_seed += n;
			out += n;
			len -= n;
		} else {
			drbg_refill(s);
		}
	}
	return 0;
fail:
	memzero_explicit(start, total);
	return err;
}

/* ---- fork handling and the per-thread generators ---- */

static pthread_once_t drbg_once = PTHREAD_ONCE_INIT;
static pthread_key_t drbg_tls_key;
static int drbg_tls_key_ok;
static __thread struct drbg_state *drbg_tls;

static void drbg_atfork_child(void)
{
	__atomic_add_fetch(&drbg_fork_generation, 1, __ATOMIC_RELAXED);
}

static size_t drbg_page_size_raw(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps <= 0 ? 4096 : (size_t)ps;
}

static size_t drbg_page_size(void)
{
	long ps = sysconf(_SC_PAGESIZE);
	size_t sz = sizeof(struct drbg_state);

	if (ps <= 0)
		ps = 4096;
	return (sz + (size_t)ps - 1) / (size_t)ps * (size_t)ps;
}

static void drbg_thread_exit(void *p)
{
	struct drbg_state *s = p;

	if (!s)
		return;
	memzero_explicit(s, sizeof(*s));
	munmap(s, drbg_page_size());
	if (drbg_tls == s)
		drbg_tls = NULL;
}

static void drbg_global_init(void)
{
	void *p;

	__atomic_store_n(&drbg_fork_pid, getpid(), __ATOMIC_RELEASE);
#ifdef MADV_WIPEONFORK
	p = mmap(NULL, drbg_page_size_raw(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	/*
	 * Trust the canary only where madvise() is the kernel's: one that
	 * also accepts an advice no kernel has (qemu-user answers 0 to all
	 * and wipes nothing) gets the pid check, a system call per use.
	 */
	if (p != MAP_FAILED && madvise(p, drbg_page_size_raw(), 0x7ffe) == 0) {
		munmap(p, drbg_page_size_raw());
		p = MAP_FAILED;
	}
	if (p != MAP_FAILED && madvise(p, drbg_page_size_raw(), MADV_WIPEONFORK) == 0) {
		*(u32 *)p = 1;
		__atomic_store_n(&drbg_fork_canary, (u32 *)p, __ATOMIC_RELEASE);
	} else if (p != MAP_FAILED) {
		munmap(p, drbg_page_size_raw());	/* no WIPEONFORK: the pid check */
	}
#else
	(void)p;
#endif
	pthread_atfork(NULL, NULL, drbg_atfork_child);
	drbg_tls_key_ok = pthread_key_create(&drbg_tls_key, drbg_thread_exit) == 0;
}

static struct drbg_state *drbg_thread_state(void)
{
	struct drbg_state *s = drbg_tls;
	size_t sz;
	void *p;

	if (s)
		return s;
	pthread_once(&drbg_once, drbg_global_init);
	sz = drbg_page_size();
	p = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_WIPEONFORK
	/* Linux >= 4.14; the fork generation covers older kernels. */
	madvise(p, sz, MADV_WIPEONFORK);
#endif
#ifdef MADV_DONTDUMP
	madvise(p, sz, MADV_DONTDUMP);
#endif
	if (drbg_tls_key_ok)
		pthread_setspecific(drbg_tls_key, p);
	drbg_tls = p;
	return p;
}

/* rng_alg.thread_generate: what rind_get_random_bytes() calls. */
static int drbg_thread_generate(void *buf, size_t len)
{
	struct drbg_state *s = drbg_thread_state();

	if (!s) {
		memzero_explicit(buf, len);
		return -ENOMEM;
	}
	return drbg_generate(s, NULL, 0, buf, len);
}

void rind_drbg_set_reseed_interval(u64 bytes, u64 nsec)
{
	if (bytes)
		__atomic_store_n(&drbg_reseed_bytes, bytes, __ATOMIC_RELAXED);
	if (nsec)
		__atomic_store_n(&drbg_reseed_ns, nsec, __ATOMIC_RELAXED);
}

u64 rind_drbg_thread_seed_count(void)
{
	return drbg_tls ? drbg_tls->seeds : 0;
}

/* ---- the "stdrng" tfm ---- */

struct drbg_tfm_ctx {
	pthread_mutex_t lock;
	struct drbg_state st;
};

static int drbg_tfm_init(struct crypto_rng *tfm)
{
	struct drbg_tfm_ctx *ctx = crypto_rng_ctx(tfm);
	int err;

	pthread_once(&drbg_once, drbg_global_init);
	pthread_mutex_init(&ctx->lock, NULL);
	err = drbg_seed_os(&ctx->st);
	if (err)
		pthread_mutex_destroy(&ctx->lock);
	return err;
}

static void drbg_tfm_exit(struct crypto_rng *tfm)
{
	struct drbg_tfm_ctx *ctx = crypto_rng_ctx(tfm);

	pthread_mutex_destroy(&ctx->lock);
	memzero_explicit(&ctx->st, sizeof(ctx->st));
}

static int drbg_tfm_generate(struct crypto_rng *tfm, const u8 *src, unsigned int slen,
			     u8 *dst, unsigned int dlen)
{
	struct drbg_tfm_ctx *ctx = crypto_rng_ctx(tfm);
	int err;

	pthread_mutex_lock(&ctx->lock);
	err = drbg_generate(&ctx->st, src, slen, dst, dlen);
	pthread_mutex_unlock(&ctx->lock);
	return err;
}

static int drbg_tfm_seed(struct crypto_rng *tfm, const u8 *seed, unsigned int slen)
{
	struct drbg_tfm_ctx *ctx = crypto_rng_ctx(tfm);
	int err = 0;

	if (seed && (slen < DRBG_SEEDSIZE || slen > DRBG_MAX_SEED))
		return -EINVAL;
	pthread_mutex_lock(&ctx->lock);
	if (seed)
		drbg_seed_det(&ctx->st, seed, slen);
	else
		err = drbg_seed_os(&ctx->st);
	pthread_mutex_unlock(&ctx->lock);
	return err;
}

/* ---- known-answer tests and registration ---- */

/*
 * Computed with an independent implementation of the construction above
 * (Python, over an RFC 8439 ChaCha20 checked against section 2.3.2).
 * Vector 1: seed 00..1f, two 64-byte requests (refill path).  Vector 2: a
 * 48-byte seed, 20 bytes of additional input, two 300-byte requests (the
 * bulk path, absorbing the additional input each time).
 */
static const struct rng_testvec drbg_tv[] = {
	{
		.seed =
			"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
			"\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f",
		.slen = 32,
		.out =
			"\x0b\x33\x8e\x55\xbc\x80\xb9\x16\x81\xaf\xd9\x9b\x57\xd0\x1b\x9a"
			"\x0a\xe0\x9b\x45\xaa\xe9\xac\x08\xd0\x77\x63\x99\xae\x63\x1f\x06"
			"\xc4\x2b\xb3\xc6\x11\x38\xe6\x8b\x16\x9b\x36\x1d\xcf\x59\x57\x24"
			"\x2a\x6c\x11\xac\xfb\xce\x5a\xc8\x60\x51\xd7\x56\x04\xa7\xd0\xeb"
			"\x9a\xb1\xfc\x20\x09\xf6\xa0\xf3\xf8\xf6\xd3\x8f\x8b\x78\x1c\x57"
			"\xa2\xb0\xbc\xc5\x9a\x96\xcd\x00\x29\x96\x43\x0f\x8b\x3c\x1a\x86"
			"\x93\xb0\x12\x62\x36\x29\x41\xc7\xb3\x2e\x7f\xb2\xf2\x42\x1a\x3c"
			"\xfd\xfe\x15\xc9\xe3\x9d\x41\x24\x5f\x75\xf4\x15\x3d\x0c\x99\xd4",
		.olen = 64,
	}, {
		.seed =
			"\x03\x0a\x11\x18\x1f\x26\x2d\x34\x3b\x42\x49\x50\x57\x5e\x65\x6c"
			"\x73\x7a\x81\x88\x8f\x96\x9d\xa4\xab\xb2\xb9\xc0\xc7\xce\xd5\xdc"
			"\xe3\xea\xf1\xf8\xff\x06\x0d\x14\x1b\x22\x29\x30\x37\x3e\x45\x4c",
		.slen = 48,
		.addin =
			"\x72\x69\x6e\x64\x20\x73\x74\x64\x72\x6e\x67\x20\x61\x64\x64\x69"
			"\x6e\x21\x21\x21",
		.alen = 20,
		.out =
			"\x2b\x50\x19\x87\x44\xf4\x88\x95\x86\x60\x7b\x87\x17\x2d\xf3\x9a"
			"\x7f\xdc\x80\xfc\x23\x7e\x33\xfc\xab\x65\xf6\xf7\x84\x20\x0c\x9f"
			"\xb9\xa0\xe7\xb8\x5b\x84\xbe\xeb\x24\xdb\xf2\x7c\xe8\x6f\xad\xad"
			"\x95\xf1\x30\x13\xa9\x19\xce\x1d\x5d\x04\xb9\x9a\xf4\x38\x40\x30"
			"\x8b\x47\x03\x11\x20\xa3\x60\xd5\x5b\xbc\x8e\x10\x01\x98\x09\xed"
			"\xf8\x19\x7b\x54\xa4\xa0\xda\x20\x4a\xc5\x78\x36\x84\xd8\x64\x61"
			"\x9b\x38\xe7\x77\xff\xad\x44\xc8\x32\x73\x0e\xf1\x43\xed\xd2\x31"
			"\xb3\x47\x4a\x62\x82\x5c\x67\xdb\xd0\x82\xf3\x9e\xa0\x96\x0c\x70"
			"\x5f\xd3\x34\x1a\xc4\x2d\x45\xfe\x50\x04\x20\xd7\xa1\xb1\x69\x7a"
			"\x3b\xf9\x7c\xee\x04\x8c\xcb\x90\x1b\x88\xe7\x6f\xdc\x6b\x7a\x3e"
			"\xba\xbe\x47\x3d\x90\x41\x3a\x1b\x00\x9c\x45\x3e\x2a\xc4\xa5\x97"
			"\x7d\x70\xe7\xb1\x4a\x17\x2c\x11\xbc\x90\xed\x63\x23\xfc\xde\x2b"
			"\x88\xb3\xd5\xd3\x1c\x59\x15\xc9\x45\xcb\xa1\xdf\xd0\xdd\xaa\xf8"
			"\xbb\xa0\x1d\x0a\x15\xae\x59\x4a\x56\x51\x4b\x1f\x92\x8b\xcb\x7f"
			"\x44\x2b\x5d\xe3\xed\xe5\x2e\x82\x57\xb5\x8c\x49\xfc\xf9\xea\xe5"
			"\xd4\x78\x22\xbd\xcc\xbe\x94\x8f\xff\x18\xa0\x01\x4e\xa4\xdc\x9e"
			"\x3a\xfb\x34\x8f\xb5\x3e\xe8\x35\x99\xa0\xbc\xc8\xe4\x0d\x56\x13"
			"\x3d\xb6\xe1\x45\xef\xbe\x47\xb3\xd0\x6d\x1b\x64\xa7\x22\x95\xb5"
			"\x14\x77\x9f\x45\xf9\x8b\xbd\x31\x7e\xe4\x29\x86\x35\x87\x6a\x6d"
			"\xd8\x14\x57\x9c\x69\xe8\xf1\x1a\x35\xab\x6b\xb7\x15\x75\xb9\x4a"
			"\xb7\x2d\x84\xad\xe6\x4c\xc8\xdb\xbf\x93\x67\xee\x73\x95\x05\x46"
			"\x91\x5c\xe2\xf5\x11\xd1\x90\x0b\xf6\x4f\x61\xe5\x9e\x5b\x11\x0c"
			"\xa4\x25\xf1\x8f\xec\xc1\xc3\x23\x1e\x50\x48\x9f\xa1\xdf\x01\xed"
			"\x1e\x30\x60\xe3\x65\x5d\xf6\x74\x2a\x80\xf7\x3f\x65\xab\x29\x8c"
			"\x5d\xb1\xa2\x05\x95\xa9\xa5\x97\x36\x07\xf8\xfb\x07\xfd\x54\x8c"
			"\xb4\x4e\xcb\x7e\x15\x77\xa8\x4a\xc2\x58\x32\x6a\xd5\x2e\x27\x63"
			"\xf4\x66\x94\xcb\xc3\xd0\x09\xe3\x83\x7b\x60\x0b\x6b\xd5\xfa\xf6"
			"\x22\xd0\x39\xcb\x37\xbc\x1f\xa5\xa1\x7b\xd7\xad\x04\xbf\x90\x24"
			"\x7e\xf0\xf7\x48\x78\x6a\x49\x65\xbe\x64\x1f\xeb\xcc\x8f\xf7\xa5"
			"\xc6\x7d\x3a\xf6\xa4\x5e\xb4\xa5\xa8\x9d\x78\xf4\xc2\x5e\xc6\x59"
			"\xfe\x0d\xd5\x4f\xba\x08\x8f\xa2\xc3\x6d\x95\x36\xca\xb9\x91\xd3"
			"\x6a\x66\x1c\xd5\xd9\x33\x5f\x9e\xb9\x5a\x70\xa1\x33\x86\xbf\x15"
			"\x9e\x7c\x50\x17\xac\xa7\xed\x77\x67\x49\xb7\xda\x34\xb7\x33\x13"
			"\xa6\x98\x0d\xd2\xf4\x7f\xeb\x16\x01\x00\x96\xa9\xda\x4c\x76\xf6"
			"\x45\x3a\xca\xc0\x6c\xb4\x44\xad\xe2\xc7\x02\xf4\xc3\x9b\x93\x3d"
			"\xba\x5d\xce\xe8\x38\x05\x41\x4c\x9c\xb3\x0c\xff\xa0\x16\x20\x3e"
			"\x99\xbc\x95\x2d\xd4\x61\x55\x55\xff\xfd\x28\x2d\xef\xbf\xa6\xff"
			"\xaf\xe4\x8a\x4a\xf2\x31\xe6\x16"
,
		.olen = 300,
	},
};

static const struct rng_test_suite drbg_suite = { drbg_tv, ARRAY_SIZE(drbg_tv) };

static struct alg_test_desc drbg_test_desc = {
	.alg = "stdrng",
	.test = alg_test_rng,
	.suite.priv = &drbg_suite,
};

static struct rng_alg drbg_alg = {
	.generate = drbg_tfm_generate,
	.seed = drbg_tfm_seed,
	.init = drbg_tfm_init,
	.exit = drbg_tfm_exit,
	.thread_generate = drbg_thread_generate,
	.seedsize = DRBG_SEEDSIZE,
	.base = {
		.cra_name = "stdrng",
		.cra_driver_name = "drbg-chacha20-generic",
		.cra_priority = 100,
		.cra_ctxsize = sizeof(struct drbg_tfm_ctx),
		.cra_module = "generic",
	},
};

static int drbg_mod_init(void)
{
	crypto_register_test(&drbg_test_desc);
	return crypto_register_rng(&drbg_alg);
}

module_init(drbg_mod_init);
