// SPDX-License-Identifier: MIT
/*
 * Statistical timing-leakage test (make ct-timing), after the method of
 * dudect (O. Reparaz, J. Balasch, I. Verbauwhede, "Dude, is my code
 * constant time?", DATE 2017), for the implementations valgrind's memcheck
 * cannot run (make ct): valgrind's virtual CPU hides AVX-512, ADX, SHA-NI,
 * VAES, VPCLMULQDQ and GFNI, so every implementation needing one of them
 * does not register under it and ct_check never sees it.
 *
 * Method.  Each operation is timed with two classes of its secret input,
 * interleaved in random order: class 0 a fixed value (a fixed pattern of
 * random-looking bytes, see fixed_pattern(); for
 * private keys zero, else the scalar 1, else one fixed key), class 1 a
 * fresh random value each time.  The preparation reads both sources and
 * selects with a mask, so the two classes run the same instructions over
 * the same addresses before the measurement: only the secret's value
 * differs.  (Copying from one buffer or the other left class-dependent
 * cache and store-buffer state behind, which showed as sub-nanosecond
 * "leaks" in constant-time code.)  A measurement is one call, bracketed
 * by LFENCE;RDTSC;LFENCE and RDTSCP;LFENCE, after an MFENCE, a wait for
 * the counter's next step and a random spin (see tick_start).  Welch's
 * t-test, with Welford means and variances per class, runs online on all
 * measurements and on NCROP crops (measurements at or below the p-th
 * percentile of a calibration batch, p = 1 - 0.5^(10(k+1)/NCROP), as
 * dudect: discarding the upper tail that interrupts and the other core's
 * load put there).  The statistic is the largest |t| of these tests.
 *
 * Threshold: |t| >= 10 fails, dudect's "definitely not constant time".
 * With no leak, random interleaving makes every disturbance (other
 * processes, frequency changes, interrupts) hit both classes alike, so
 * each t is close to a standard normal variable; the largest of the 41
 * correlated tests stays near 2-4 (measured on this shared 2-core machine,
 * load average 10-18: at most 4.1 over 16 runs of every case, 10 of them
 * beside a make -j2; at most 2.6 with 2 million measurements per case),
 * so 10 is far from chance yet low enough for the planted bare branch
 * (about 0.3 ns on average, 0.1-2.7 ns in the crop that shows it best) to
 * pass it within a second.  A failure is
 * measured again from scratch and counts only if confirmed.  The
 * difference must also reach 0.25% of the operation's median time (see
 * rel_min: the clock follows the data's power); --min-diff can demand a
 * minimum in nanoseconds as well.  Each line
 * states the resolution reached: res = the mean difference that would
 * give |t| = 10 in the most precise test.
 *
 * Adaptive length: each case is measured for at least its minimum time
 * (0.3 s, 0.15 s for template instances, three times that for operations
 * over 10 us), then stops as soon as |t| < 5; a borderline value keeps it
 * measuring up to its maximum time (2 s, 1.5 s); |t| >= 10 stops it at
 * once.  A case that cannot gather 250 measurements of each class in four
 * times its maximum is an error.
 *
 * Coverage.  `valgrind ct_timing --list` prints every implementation
 * registered under valgrind after instantiating the same templates as
 * ct_check (which fails on any registered implementation it cannot check);
 * ct_check's own output ("ct: ok ...") is accepted as well.
 * `ct_timing --covered FILE` then times every natively registered
 * implementation not in FILE, and fails if one of them has no timing test
 * (every tfm type handles secrets).  `--leaky` runs planted leaks (an
 * early-exit tag comparison, a key-bit branch guarding a few
 * multiplications, a bare key-bit branch) through the same machinery, the
 * first two of which must be caught (the bare branch is reported: some
 * cores hide it entirely, see run_leaky), and their constant-time
 * controls, which must pass: it exits 1 when all of that holds (the leaks fail), 0 when a
 * planted leak went unnoticed, 2 on any other error.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>
#include <rind/crypto.h>
#include <rind/internal/alg.h>
#include <rind/internal/aead.h>
#include <rind/internal/hash.h>
#include <rind/internal/sig.h>
#include "ct_common.h"
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define HAVE_VALGRIND 1
#endif
#endif

/* Statistics */

#define NCROP		40
#define NTESTS		(NCROP + 1)	/* raw, then NCROP crops */
#define T_FAIL		10.0
#define T_CLEAR		5.0
#define MIN_PER_CLASS	250.0		/* a test counts from this many per class */
#define CAL_MAX		4000

struct moments {
	double n[2], mean[2], m2[2];
};

struct stats {
	struct moments t[NTESTS];
	double crop[NCROP];
};

static void mom_push(struct moments *m, int c, double x)
{
	double d;

	m->n[c] += 1;
	d = x - m->mean[c];
	m->mean[c] += d / m->n[c];
	m->m2[c] += d * (x - m->mean[c]);
}

/* Welch's t and its standard error; 0 while a class is too small. */
static double mom_t(const struct moments *m, double *se)
{
	double v0, v1, s;

	*se = 0;
	if (m->n[0] < MIN_PER_CLASS || m->n[1] < MIN_PER_CLASS)
		return 0;
	v0 = m->m2[0] / (m->n[0] - 1);
	v1 = m->m2[1] / (m->n[1] - 1);
	s = sqrt(v0 / m->n[0] + v1 / m->n[1]);
	if (s <= 0)
		return 0;
	*se = s;
	return (m->mean[0] - m->mean[1]) / s;
}

static void stats_push(struct stats *s, int c, double x)
{
	int k;

	mom_push(&s->t[0], c, x);
	for (k = 0; k < NCROP; k++) {
		if (x <= s->crop[k])
			mom_push(&s->t[1 + k], c, x);
	}
}

/* The smallest mean difference that counts (--min-diff, ns; in ticks). */
static double delta_min_ns;
static double delta_min;
/*
 * And the smallest relative to the operation's median time (--min-rel).
 * A clock that follows the data's power (see fixed_pattern()) changes
 * every instruction's time alike, so its effect grows with the
 * operation's length: 0.15% (0.5 ns of a 350 ns GCM seal) fixed pattern
 * against random data, confirmed, on this host while two compilers ran
 * beside it.  A branch or an index costs the same nanoseconds however
 * long the operation is (the planted bare branch: 3-4 ns on a 100 ns
 * operation, 3.5%).  0.25% of the median is below every planted leak
 * by ten times, and above that clock's effect.
 */
#define REL_MIN_DEFAULT	0.0025
static double rel_min = REL_MIN_DEFAULT;
static double tick_ns = 1.0;		/* nanoseconds per tick */

struct verdict {
	double maxt;	/* largest |t| of all tests (information) */
	double maxt_delta; /* its mean difference, ticks */
	double t;	/* largest |t| of the tests whose difference reaches the minimum */
	double delta;	/* mean difference (class 1 - class 0) of that test, ticks */
	double res;	/* 10 standard errors of the most precise test, ticks */
	int which;	/* that test: 0 raw, k crop k-1; -1 none yet */
	bool ready;	/* some test has enough measurements of each class */
};

static void stats_verdict(const struct stats *s, struct verdict *v, double dmin)
{
	double minse = 0, se, t, d;
	int k;

	memset(v, 0, sizeof(*v));
	v->which = -1;
	for (k = 0; k < NTESTS; k++) {
		t = fabs(mom_t(&s->t[k], &se));
		if (se <= 0)
			continue;
		v->ready = true;
		if (minse == 0 || se < minse)
			minse = se;
		d = s->t[k].mean[1] - s->t[k].mean[0];
		if (t > v->maxt) {
			v->maxt = t;
			v->maxt_delta = d;
		}
		if (fabs(d) >= dmin && t > v->t) {
			v->t = t;
			v->delta = d;
			v->which = k;
		}
	}
	v->res = T_FAIL * minse;
}

/* Randomness: xoshiro256**, seeded from getrandom() or --seed. */

static u64 rs[4];

static u64 rotl64(u64 x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static u64 rnd64(void)
{
	u64 r = rotl64(rs[1] * 5, 7) * 9, t = rs[1] << 17;

	rs[2] ^= rs[0];
	rs[3] ^= rs[1];
	rs[1] ^= rs[2];
	rs[0] ^= rs[3];
	rs[2] ^= t;
	rs[3] = rotl64(rs[3], 45);
	return r;
}

static void rnd_seed(u64 seed)
{
	int i;

	for (i = 0; i < 4; i++) {
		u64 z = (seed += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		rs[i] = z ^ (z >> 31);
	}
}

static void rnd_bytes(void *p, size_t n)
{
	u8 *b = p;
	u64 r;

	while (n >= 8) {
		r = rnd64();
		memcpy(b, &r, 8);
		b += 8;
		n -= 8;
	}
	if (n) {
		r = rnd64();
		memcpy(b, &r, n);
	}
}

static unsigned int rnd_below(unsigned int n)
{
	return (unsigned int)((rnd64() >> 32) * n >> 32);
}

/*
 * Clocks.  On this AMD EPYC the TSC advances in steps of 21 ticks (10 ns),
 * coarse next to the differences looked for.  Averaging still resolves
 * them, but only if a measurement starts at a phase of the step that is
 * independent of the class: otherwise the rounding of each duration to a
 * step (up to 20 ticks) differs between the classes, and anything in the
 * preparation that takes a class-dependent time (copying zeros or random
 * bytes) shows up as a "leak".  So each measurement first drains the
 * stores of the preparation (MFENCE), waits for the counter to step, then
 * spins for a random number of iterations (about 0 to 3 steps), and only
 * then reads the counter: the phase is uniform, whatever came before.
 */
#if defined(__x86_64__)
static inline u64 rdtsc_raw(void)
{
	u32 lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (u64)hi << 32 | lo;
}

static inline u64 tick_start(unsigned int spin)
{
	u64 t;
	u32 lo, hi;

	__asm__ volatile("mfence\n\tlfence" : : : "memory");
	t = rdtsc_raw();
	while (rdtsc_raw() == t)
		;
	while (spin--)
		__asm__ volatile("" : "+r"(spin));
	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return (u64)hi << 32 | lo;
}

static inline u64 tick_stop(void)
{
	u32 lo, hi, aux;

	__asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	return (u64)hi << 32 | lo;
}
#elif defined(__aarch64__)
static inline u64 tick_stop(void)
{
	u64 v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(v) : : "memory");
	return v;
}

static inline u64 tick_start(unsigned int spin)
{
	u64 t;

	__asm__ volatile("dsb sy" : : : "memory");
	t = tick_stop();
	while (tick_stop() == t)
		;
	while (spin--)
		__asm__ volatile("" : "+r"(spin));
	return tick_stop();
}
#else
static inline u64 tick_stop(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec;
}

static inline u64 tick_start(unsigned int spin)
{
	while (spin--)
		__asm__ volatile("" : "+r"(spin));
	return tick_stop();
}
#endif

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The CPU time this thread has had: what "too slow" is measured in. */
static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The counter's rate against CLOCK_MONOTONIC, over 20 ms. */
static void calibrate_ticks(void)
{
	double t0 = now(), t1;
	u64 c0 = tick_stop(), c1;

	do {
		t1 = now();
	} while (t1 - t0 < 0.02);
	c1 = tick_stop();
	if (c1 > c0)
		tick_ns = (t1 - t0) * 1e9 / (double)(c1 - c0);
	delta_min = delta_min_ns / tick_ns;
}

/* The operations under test */

#define MAXBUF		8192
#define NPOOL		64
#define NBATCH		16
#define OK_OR_BADMSG	1	/* accept 0 and -EBADMSG */

struct tctx;
typedef void (*prep_fn)(struct tctx *c, int cls);
typedef int (*op_fn)(struct tctx *c);

struct tctx {
	const char *driver;
	int prep_err;			/* set by a preparation that failed */
	u8 fixed[MAXBUF], rand[MAXBUF];
	u8 key[MAXBUF], in[MAXBUF], in2[MAXBUF], out[MAXBUF], good[MAXBUF];
	u8 iv[64], iv0[64], alt[2][64];
	unsigned int klen, len, alen, as;
	u8 *pool;			/* NPOOL keys (or ciphertexts) of plen bytes */
	unsigned int plen, npool;
	const char *fixed_desc;		/* what class 0's key is, when not the fixed pattern */
	struct scatterlist sg_in, sg_out;

	struct crypto_cipher *cipher;
	struct crypto_skcipher *sk;
	struct skcipher_request *skreq;
	struct crypto_aead *aead;
	struct aead_request *areq[NBATCH];
	struct scatterlist asg_in[NBATCH], asg_out[NBATCH];
	struct crypto_shash *shash;
	bool keyed;
	unsigned int nmb;		/* finup_mb: messages per call */
	struct crypto_kpp *kpp;
	struct kpp_request *kreq;
	u8 peer[256];
	unsigned int peerlen;
	struct crypto_sig *sig;
	struct sig_request sreq[NBATCH];
	u8 sigbuf[NBATCH][4627];	/* the largest signature, ML-DSA-87's (1100 left ML-DSA unsigned) */
	struct crypto_kem *kem;
	struct crypto_rng *rng;
	struct crypto_akcipher *ak;
	struct akcipher_request *akreq;
};

/*
 * dst = class 0 ? a : b, reading both and writing dst the same way for
 * either class: the preparation leaves no class-dependent trace (cache
 * lines, store buffer) for the measured call to stumble on, only the data.
 */
static void select_copy(u8 *dst, const u8 *a, const u8 *b, unsigned int n, int cls)
{
	u64 m = 0 - (u64)(cls & 1), x, y;
	unsigned int i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		x = (x & ~m) | (y & m);
		memcpy(dst + i, &x, 8);
	}
	for (; i < n; i++)
		dst[i] = (u8)((a[i] & ~m) | (b[i] & m));
}

/* The class's secret to @dst: class 0 the fixed bytes, class 1 fresh random ones. */
static void pick(struct tctx *c, int cls, u8 *dst, unsigned int n)
{
	rnd_bytes(c->rand, n);
	select_copy(dst, c->fixed, c->rand, n, cls);
}

/* A pool entry: class 0 the fixed one, class 1 a random one of the pool. */
static void pick_pool(struct tctx *c, int cls, u8 *dst)
{
	unsigned int i = 1 + rnd_below(c->npool - 1);

	select_copy(dst, c->fixed, c->pool + (size_t)i * c->plen, c->plen, cls);
}

/* cipher: key and block secret */

static void cipher_prep(struct tctx *c, int cls)
{
	pick(c, cls, c->key, c->klen);
	pick(c, cls, c->in, 16);
}

static int cipher_enc(struct tctx *c)
{
	int err = crypto_cipher_setkey(c->cipher, c->key, c->klen);

	crypto_cipher_encrypt_one(c->cipher, c->out, c->in);
	return err;
}

static int cipher_dec(struct tctx *c)
{
	int err = crypto_cipher_setkey(c->cipher, c->key, c->klen);

	crypto_cipher_decrypt_one(c->cipher, c->out, c->in);
	return err;
}

/* skcipher: key and data secret */

static void sk_prep(struct tctx *c, int cls)
{
	pick(c, cls, c->key, c->klen);
	pick(c, cls, c->in, c->len);
	memcpy(c->iv, c->iv0, sizeof(c->iv));
}

static int sk_enc(struct tctx *c)
{
	int err = crypto_skcipher_setkey(c->sk, c->key, c->klen);

	return err ? err : crypto_skcipher_encrypt(c->skreq);
}

static int sk_dec(struct tctx *c)
{
	int err = crypto_skcipher_setkey(c->sk, c->key, c->klen);

	return err ? err : crypto_skcipher_decrypt(c->skreq);
}

/* aead: seal (key, plaintext), open (key, valid ciphertext), tag comparison */

static void aead_set(struct tctx *c, unsigned int i, u8 *in, u8 *out, bool dec)
{
	sg_init_one(&c->asg_in[i], in, c->alen + c->len + c->as);
	sg_init_one(&c->asg_out[i], out, c->alen + c->len + c->as);
	aead_request_set_crypt(c->areq[i], &c->asg_in[i], &c->asg_out[i],
			       dec ? c->len + c->as : c->len, c->iv);
	aead_request_set_ad(c->areq[i], c->alen);
}

static void seal_prep(struct tctx *c, int cls)
{
	pick(c, cls, c->key, c->klen);
	pick(c, cls, c->in + c->alen, c->len);
	memcpy(c->iv, c->iv0, sizeof(c->iv));
	aead_set(c, 0, c->in, c->out, false);
}

static int aead_seal(struct tctx *c)
{
	int err = crypto_aead_setkey(c->aead, c->key, c->klen);

	return err ? err : crypto_aead_encrypt(c->areq[0]);
}

/* A valid ciphertext under the class's key and plaintext, made untimed. */
static void open_prep(struct tctx *c, int cls)
{
	pick(c, cls, c->key, c->klen);
	pick(c, cls, c->in2 + c->alen, c->len);
	memcpy(c->iv, c->iv0, sizeof(c->iv));
	aead_set(c, 0, c->in2, c->in, false);
	c->prep_err = crypto_aead_setkey(c->aead, c->key, c->klen);
	if (!c->prep_err)
		c->prep_err = crypto_aead_encrypt(c->areq[0]);
	aead_set(c, 0, c->in, c->out, true);
}

static int aead_open(struct tctx *c)
{
	int err = crypto_aead_setkey(c->aead, c->key, c->klen);

	return err ? err : crypto_aead_decrypt(c->areq[0]);
}

/*
 * The tag comparison.  Right against wrong tags would only measure the
 * public verdict (a failed open wipes its output instead of returning
 * plaintext), so both classes are wrong: class 0 a random tag (it differs
 * in its first bytes), class 1 the right tag with one random bit flipped
 * (an early-exit comparison reads on to that bit).  The key is fixed.
 */
static void tag_prep(struct tctx *c, int cls)
{
	unsigned int bit = rnd_below(c->as * 8);
	const u8 *tags[2] = { c->alt[0], c->alt[1] };

	memcpy(c->in, c->good, c->alen + c->len + c->as);
	rnd_bytes(c->alt[0], c->as);
	memcpy(c->alt[1], c->good + c->alen + c->len, c->as);
	c->alt[1][bit / 8] ^= (u8)(1 << (bit % 8));
	select_copy(c->in + c->alen + c->len, tags[0], tags[1], c->as, cls);
	memcpy(c->iv, c->iv0, sizeof(c->iv));
	aead_set(c, 0, c->in, c->out, true);
}

static int aead_open_nokey(struct tctx *c)
{
	return crypto_aead_decrypt(c->areq[0]);
}

/* Batches (implementations with a batch entry): ABATCH requests under one key. */
#define ABATCH 4

static void seal_batch_prep(struct tctx *c, int cls)
{
	unsigned int i, span = c->alen + c->len + c->as;

	pick(c, cls, c->key, c->klen);
	for (i = 0; i < ABATCH; i++) {
		pick(c, cls, c->in + i * span + c->alen, c->len);
		aead_set(c, i, c->in + i * span, c->out + i * span, false);
	}
	memcpy(c->iv, c->iv0, sizeof(c->iv));
}

static int aead_seal_batch(struct tctx *c)
{
	int err = crypto_aead_setkey(c->aead, c->key, c->klen);

	return err ? err : crypto_aead_encrypt_batch(c->areq, ABATCH);
}

static void open_batch_prep(struct tctx *c, int cls)
{
	unsigned int i, span = c->alen + c->len + c->as;

	seal_batch_prep(c, cls);
	for (i = 0; i < ABATCH; i++)
		aead_set(c, i, c->in + i * span, c->in2 + i * span, false);
	c->prep_err = aead_seal_batch(c);
	for (i = 0; i < ABATCH; i++)
		aead_set(c, i, c->in2 + i * span, c->out + i * span, true);
}

static int aead_open_batch(struct tctx *c)
{
	int err = crypto_aead_setkey(c->aead, c->key, c->klen);

	return err ? err : crypto_aead_decrypt_batch(c->areq, ABATCH);
}

/* shash: key (if keyed) and message secret */

static void hash_prep(struct tctx *c, int cls)
{
	if (c->keyed)
		pick(c, cls, c->key, c->klen);
	pick(c, cls, c->in, c->len);
}

static int hash_digest(struct tctx *c)
{
	int err = c->keyed ? crypto_shash_setkey(c->shash, c->key, c->klen) : 0;

	return err ? err : crypto_shash_tfm_digest(c->shash, c->in, c->len, c->out);
}

/* Multi-buffer finup: a secret prefix (an Ed25519 nonce's), then nmb secret messages. */
#define MB_PREFIX	32

static void mb_prep(struct tctx *c, int cls)
{
	if (c->keyed)
		pick(c, cls, c->key, c->klen);
	pick(c, cls, c->in2, MB_PREFIX);
	pick(c, cls, c->in, c->len * c->nmb);
}

static int hash_finup_mb(struct tctx *c)
{
	SHASH_DESC_ON_STACK(desc, c->shash);
	const u8 *data[HASH_MAX_MB_MSGS];
	u8 *outs[HASH_MAX_MB_MSGS];
	unsigned int i;
	int err;

	for (i = 0; i < c->nmb; i++) {
		data[i] = c->in + i * c->len;
		outs[i] = c->out + i * HASH_MAX_DIGESTSIZE;
	}
	desc->tfm = c->shash;
	err = c->keyed ? crypto_shash_setkey(c->shash, c->key, c->klen) : 0;
	if (!err)
		err = crypto_shash_init(desc);
	if (!err)
		err = crypto_shash_update(desc, c->in2, MB_PREFIX);
	if (!err)
		err = crypto_shash_finup_mb(desc, data, c->len, outs, c->nmb);
	return err;
}

/* kpp: the private key */

static void kpp_prep_shared(struct tctx *c, int cls)
{
	pick_pool(c, cls, c->key);
	sg_init_one(&c->sg_in, c->peer, c->peerlen);
	sg_init_one(&c->sg_out, c->out, crypto_kpp_maxsize(c->kpp));
	kpp_request_set_input(c->kreq, &c->sg_in, c->peerlen);
	kpp_request_set_output(c->kreq, &c->sg_out, crypto_kpp_maxsize(c->kpp));
}

static int kpp_shared(struct tctx *c)
{
	int err = crypto_kpp_set_secret(c->kpp, c->key, c->plen);

	return err ? err : crypto_kpp_compute_shared_secret(c->kreq);
}

static void kpp_prep_pub(struct tctx *c, int cls)
{
	pick_pool(c, cls, c->key);
	sg_init_one(&c->sg_out, c->out, crypto_kpp_maxsize(c->kpp));
	kpp_request_set_input(c->kreq, NULL, 0);
	kpp_request_set_output(c->kreq, &c->sg_out, crypto_kpp_maxsize(c->kpp));
}

static int kpp_pub(struct tctx *c)
{
	int err = crypto_kpp_set_secret(c->kpp, c->key, c->plen);

	return err ? err : crypto_kpp_generate_public_key(c->kreq);
}

/* sig: the private key (key setup = public key derivation), signing */

static void sig_prep_key(struct tctx *c, int cls)
{
	pick_pool(c, cls, c->key);
}

static int sig_keygen(struct tctx *c)
{
	return crypto_sig_set_privkey(c->sig, c->key, c->plen);
}

static void sig_prep_sign(struct tctx *c, int cls)
{
	pick_pool(c, cls, c->key);
	c->prep_err = crypto_sig_set_privkey(c->sig, c->key, c->plen);
}

static int sig_sign(struct tctx *c)
{
	int n = crypto_sig_sign(c->sig, c->in, 32, c->sigbuf[0], sizeof(c->sigbuf[0]));

	return n < 0 ? n : 0;
}

static int sig_sign_batch(struct tctx *c)
{
	unsigned int i;

	for (i = 0; i < NBATCH; i++) {
		c->sreq[i].msg = c->in + 32 * i;
		c->sreq[i].msglen = 32;
		c->sreq[i].sig = c->sigbuf[i];
		c->sreq[i].siglen = sizeof(c->sigbuf[i]);
	}
	return crypto_sig_sign_batch(c->sig, c->sreq, NBATCH);
}

/*
 * kem: decapsulation under a fixed key.  The key itself cannot be the
 * class: a seed also determines the public matrix seed rho, whose
 * expansion (rejection sampling, FIPS 203 SampleNTT) takes a time that
 * depends on rho legitimately.  So the secret varied is the message behind
 * the ciphertext: class 0 one fixed valid ciphertext, class 1 a random one
 * of a pool; then implicit rejection, valid against corrupted ciphertexts.
 */
static void kem_prep_decap(struct tctx *c, int cls)
{
	unsigned int i = 1 + rnd_below(c->npool - 1);

	select_copy(c->in, c->pool, c->pool + (size_t)i * c->plen, c->len, cls);
}

static int kem_decap(struct tctx *c)
{
	return crypto_kem_decapsulate(c->kem, c->in, c->len, c->out, 64);
}

/* Class 0 a valid ciphertext, class 1 one with a bit flipped (in the ML-KEM part). */
static void kem_prep_reject(struct tctx *c, int cls)
{
	unsigned int i = rnd_below(c->npool), bit = 8 * 64 + rnd_below(8 * (c->len - 128));
	u8 flip[2];

	memcpy(c->in, c->pool + (size_t)i * c->plen, c->len);
	flip[0] = 0;
	flip[1] = (u8)(1 << (bit % 8));
	c->in[bit / 8] ^= flip[cls];
}

/* rng: the seed */

static void rng_prep(struct tctx *c, int cls)
{
	pick(c, cls, c->key, c->klen);
}

static int rng_reseed(struct tctx *c)
{
	int err = crypto_rng_reset(c->rng, c->key, c->klen);

	return err ? err : crypto_rng_get_bytes(c->rng, c->out, 256);
}

/* akcipher: decryption of a fixed ciphertext against random ones (fixed key) */

static void ak_prep(struct tctx *c, int cls)
{
	pick_pool(c, cls, c->in);
	sg_init_one(&c->sg_in, c->in, c->plen);
	sg_init_one(&c->sg_out, c->out, c->plen);
	akcipher_request_set_crypt(c->akreq, &c->sg_in, &c->sg_out, c->plen, c->plen);
}

static int ak_dec(struct tctx *c)
{
	return crypto_akcipher_decrypt(c->akreq);
}

/* Planted leaks (--leaky) and their constant-time control */

__attribute__((noinline)) static int leaky_memcmp(const u8 *a, const u8 *b, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		__asm__ volatile("" : : : "memory");	/* byte at a time, as a naive loop */
		if (a[i] != b[i])
			return 1;
	}
	return 0;
}

/* GCM open by hand: recompute the tag (encrypt), compare it the leaky way. */
static int leaky_tag_op(struct tctx *c)
{
	int err = crypto_aead_encrypt(c->areq[0]);

	if (err)
		return err;
	return leaky_memcmp(c->out + c->alen + c->len, c->alt[0], c->as) ? -EBADMSG : 0;
}

static int ct_tag_op(struct tctx *c)
{
	int err = crypto_aead_encrypt(c->areq[0]);

	if (err)
		return err;
	return crypto_memneq(c->out + c->alen + c->len, c->alt[0], c->as) ? -EBADMSG : 0;
}

static void leaky_tag_prep(struct tctx *c, int cls)
{
	unsigned int bit = rnd_below(c->as * 8);
	u8 t[2][64];

	rnd_bytes(t[0], c->as);
	memcpy(t[1], c->good + c->alen + c->len, c->as);
	t[1][bit / 8] ^= (u8)(1 << (bit % 8));
	select_copy(c->alt[0], t[0], t[1], c->as, cls);
	memcpy(c->iv, c->iv0, sizeof(c->iv));
	aead_set(c, 0, c->in2, c->out, false);
}

/*
 * A branch on one secret bit.  With rounds = 0 it guards nothing but a
 * store: what it costs is the misprediction, which the out-of-order core
 * largely hides behind the cipher's own latency.  With rounds = 8 it
 * guards eight dependent multiplications (about 25 cycles), like a
 * conditional final reduction.  The bit is one that is 0 in class 0's
 * fixed pattern (leak_bit, set by run_leaky): the fixed class never runs
 * the guarded code, the random class half the time.  (On a bit the
 * pattern has set, the fixed class would run the multiplications every
 * time, perfectly predicted, and the random class's mispredictions would
 * cancel most of the difference.)
 */
static u8 leak_bit = 0x10;

__attribute__((noinline)) static u64 leaky_branch(const u8 *secret, u64 x, int rounds)
{
	int i;

	if (secret[5] & leak_bit) {
		__asm__ volatile("" : "+r"(x));
		x += 1;
		for (i = 0; i < rounds; i++) {
			__asm__ volatile("" : "+r"(x));
			x = x * 0x9e3779b97f4a7c15ULL + 1;
		}
	}
	return x;
}

static u64 leak_sink;
static int leak_rounds;

static int leaky_branch_op(struct tctx *c)
{
	int err = crypto_skcipher_setkey(c->sk, c->key, c->klen);

	if (!err)
		err = crypto_skcipher_encrypt(c->skreq);
	leak_sink = leaky_branch(c->key, leak_sink, leak_rounds);
	return err;
}

/* Measurement */

struct outcome {
	struct verdict v;
	double n, secs, median;
	int err;
};

struct budget {
	double tmin, tmax;
};

static double time_scale = 1.0;
static int no_early;

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static bool result_ok(int err, int expect)
{
	if (expect == OK_OR_BADMSG)
		return err == 0 || err == -EBADMSG;
	return err == expect;
}

/* One timed call; the preparation's own failure counts as the operation's. */
static inline int timed(struct tctx *c, prep_fn prep, op_fn op, int cls, u64 *ticks)
{
	/* 0..94 iterations, the sum of two uniform draws */
	unsigned int spin = (unsigned int)(rnd64() >> 58) + (unsigned int)(rnd64() >> 59);
	u64 t0, t1;
	int err;

	c->prep_err = 0;
	prep(c, cls);
	t0 = tick_start(spin);
	err = op(c);
	t1 = tick_stop();
	*ticks = t1 - t0;
	return c->prep_err ? c->prep_err : err;
}

static void measure(struct tctx *c, prep_fn prep, op_fn op, int expect, struct budget b,
		    struct outcome *o)
{
	static double cal[CAL_MAX];
	static struct stats st;
	double start = now(), el = 0, cpu0, per, dmin;
	unsigned int i, ncal = 0, chunk;
	u64 ticks;
	int k, err;

	memset(&st, 0, sizeof(st));
	memset(o, 0, sizeof(*o));
	o->v.which = -1;
	/* Warm-up, then a calibration batch for the crop percentiles. */
	for (i = 0; i < 32 || now() - start < 0.01 * b.tmin; i++) {
		err = timed(c, prep, op, (int)(i & 1), &ticks);
		if (!result_ok(err, expect))
			goto bad;
	}
	start = now();
	while (ncal < CAL_MAX && (ncal < 200 || now() - start < 0.1 * b.tmin)) {
		err = timed(c, prep, op, (int)(rnd64() & 1), &ticks);
		if (!result_ok(err, expect))
			goto bad;
		cal[ncal++] = (double)ticks;
	}
	per = (now() - start) / ncal;
	/* Slow operations (curve arithmetic, batches) get longer: too few samples otherwise. */
	if (per > 10e-6) {
		b.tmin *= 3;
		b.tmax *= 1.5;
	}
	qsort(cal, ncal, sizeof(cal[0]), cmp_double);
	o->median = cal[ncal / 2];
	dmin = rel_min * o->median > delta_min ? rel_min * o->median : delta_min;
	for (k = 0; k < NCROP; k++) {
		double p = 1 - pow(0.5, 10.0 * (k + 1) / NCROP);

		st.crop[k] = cal[(unsigned int)(p * (ncal - 1))];
	}
	/* Rounds of about 20 ms until the verdict is clear or time is up. */
	chunk = (unsigned int)(0.02 / (per > 0 ? per : 1e-6));
	if (chunk < 16)
		chunk = 16;
	start = now();
	cpu0 = cpu_now();
	for (;;) {
		for (i = 0; i < chunk; i++) {
			int cls = (int)(rnd64() & 1);

			err = timed(c, prep, op, cls, &ticks);
			if (!result_ok(err, expect))
				goto bad;
			stats_push(&st, cls, (double)ticks);
		}
		stats_verdict(&st, &o->v, dmin);
		o->n = st.t[0].n[0] + st.t[0].n[1];
		el = now() - start;
		if (o->v.t >= T_FAIL && !no_early)
			break;
		if (el >= b.tmin && o->v.ready && o->v.t < T_CLEAR && !no_early)
			break;
		if (el >= b.tmax && o->v.ready)
			break;
		/*
		 * Too slow for a verdict: an error, never a silent pass.  Counted
		 * in the CPU time this process had, not in wall time: on a CI host
		 * running three jobs on two cores (and more beside) a case can
		 * wait for the CPU longer than it runs, and a starved run is not
		 * a slow operation (pkcs1-rsa-sha256-ifma sign-batch ran out of
		 * wall time so, at a load average of 13).  Wall time still ends
		 * it, at a bound a starved host would have to be ten times over.
		 */
		if (cpu_now() - cpu0 >= 4 * b.tmax || el >= 40 * b.tmax) {
			o->err = -ETIME;
			return;
		}
	}
	o->secs = el;
	return;
bad:
	o->err = err ? err : -EPROTO;
}

static const char *test_name(int which, char *buf, size_t n)
{
	if (which < 0)
		snprintf(buf, n, "-");
	else if (which == 0)
		snprintf(buf, n, "raw");
	else
		snprintf(buf, n, "crop p%.3g", 100 * (1 - pow(0.5, 10.0 * which / NCROP)));
	return buf;
}

struct totals {
	int impls, cases, failed, errors, uncovered, vg;
	double worst_t, worst_maxt;
	char worst[160];
};

/* Measure one case; a failure is measured again and counts only if confirmed. */
static int run_case(struct tctx *c, const char *what, prep_fn prep, op_fn op, int expect,
		    struct budget b, struct totals *tot)
{
	struct outcome o, o2;
	char tn[32];
	bool fail;

	b.tmin *= time_scale;
	b.tmax *= time_scale;
	measure(c, prep, op, expect, b, &o);
	tot->cases++;
	/* Starved of the CPU for seconds (a loaded CI host): once more, like a failure. */
	if (o.err == -ETIME) {
		printf("ct-timing: %s %s: too few measurements in time, measuring again\n", c->driver, what);
		measure(c, prep, op, expect, b, &o);
	}
	if (o.err) {
		if (o.err == -ETIME)
			printf("ct-timing: ERROR %-44s %-12s too slow: under %.0f measurements of a class in time\n",
			       c->driver, what, MIN_PER_CLASS);
		else
			printf("ct-timing: ERROR %-44s %-12s operation returned %d\n", c->driver, what, o.err);
		tot->errors++;
		fflush(stdout);
		return 1;
	}
	fail = o.v.t >= T_FAIL;
	if (fail) {
		printf("ct-timing: |t| = %.1f, difference %.2f ns for %s %s (%s): measuring again\n",
		       o.v.t, o.v.delta * tick_ns, c->driver, what, test_name(o.v.which, tn, sizeof(tn)));
		measure(c, prep, op, expect, b, &o2);
		fail = !o2.err && o2.v.t >= T_FAIL;
		if (!fail)
			printf("ct-timing: not confirmed (|t| = %.1f)\n", o2.v.t);
		else
			o = o2;
	}
	printf("ct-timing: %s %-44s %-12s t %6.2f  diff %7.2f ns %-10s  max|t| %6.2f (%5.2f ns)  "
	       "res %5.2f ns  median %8.1f ns  n %8.0f  %.2fs%s%s\n",
	       fail ? "FAIL" : "ok  ", c->driver, what, o.v.t, o.v.delta * tick_ns,
	       test_name(o.v.which, tn, sizeof(tn)), o.v.maxt, o.v.maxt_delta * tick_ns,
	       o.v.res * tick_ns, o.median * tick_ns, o.n, o.secs, c->fixed_desc ? "  class 0: " : "",
	       c->fixed_desc ? c->fixed_desc : "");
	fflush(stdout);
	if (o.v.t > tot->worst_t) {
		tot->worst_t = o.v.t;
		snprintf(tot->worst, sizeof(tot->worst), "%s %s", c->driver, what);
	}
	if (o.v.maxt > tot->worst_maxt)
		tot->worst_maxt = o.v.maxt;
	if (fail)
		tot->failed++;
	return fail;
}

/* Checkers, by tfm type */

static const struct budget B_FAST = { 0.30, 2.0 };	/* per case, seconds */
static const struct budget B_INST = { 0.15, 1.5 };	/* template instances */

static bool is_instance(const char *drv)
{
	return strchr(drv, '(') != NULL;
}

static struct budget budget_for(const char *drv)
{
	return is_instance(drv) ? B_INST : B_FAST;
}

/*
 * Class 0's bytes: one fixed pattern of random-looking bytes (the same in
 * every run), not zeros.  All-zero keys and messages make a MAC or cipher
 * multiply and add zeros, which draws less power than random data; under a
 * package power limit (the other core busy, as in CI) the core's clock
 * follows the power (Hertzbleed, Wang et al., 2022).  The branch-free
 * poly1305-x86_64 timed all-zero against random gave |t| 10.7, confirmed,
 * in a CI run beside the arm64 check, and |t| < 3 in every run here
 * alone or under load: most likely that data-dependent frequency, which
 * no code can avoid, not a branch or an index.  A fixed
 * pattern of random weight keeps the test to what code controls and still
 * catches every planted leak.  Private keys keep their special values
 * (make_pool: 0, else 1).
 */
static void fixed_pattern(u8 *p, size_t n)
{
	u64 z = 0x243f6a8885a308d3ULL, x;
	size_t i;

	for (i = 0; i < n; i += 8) {
		z += 0x9e3779b97f4a7c15ULL;
		x = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
		x ^= x >> 31;
		memcpy(p + i, &x, n - i < 8 ? n - i : 8);
	}
}

static void ctx_init(struct tctx *c, const char *drv)
{
	memset(c, 0, sizeof(*c));
	c->driver = drv;
	fixed_pattern(c->fixed, sizeof(c->fixed));
	rnd_bytes(c->iv0, sizeof(c->iv0));
}

static int check_cipher(struct tctx *c, struct totals *tot)
{
	static const unsigned int klens[] = { 16, 24, 32 };
	struct budget b = budget_for(c->driver);
	char what[32];
	unsigned int i, maxk = 0;
	int fails = 0;

	c->cipher = crypto_alloc_cipher(c->driver, 0, 0);
	if (IS_ERR(c->cipher))
		return (int)PTR_ERR(c->cipher);
	for (i = 0; i < 3; i++) {
		if (crypto_cipher_setkey(c->cipher, c->fixed, klens[i]))
			continue;
		c->klen = maxk = klens[i];
		snprintf(what, sizeof(what), "enc-%u", klens[i] * 8);
		fails += run_case(c, what, cipher_prep, cipher_enc, 0, b, tot);
	}
	if (maxk) {
		c->klen = maxk;
		snprintf(what, sizeof(what), "dec-%u", maxk * 8);
		fails += run_case(c, what, cipher_prep, cipher_dec, 0, b, tot);
	}
	crypto_free_cipher(c->cipher);
	return maxk ? fails : -EINVAL;
}

static int check_skcipher(struct tctx *c, struct totals *tot)
{
	static const unsigned int klens[] = { 16, 24, 32 };
	struct budget b = budget_for(c->driver);
	unsigned int i, bs, maxk = 0;
	char what[32];
	int fails = 0;

	c->sk = crypto_alloc_skcipher(c->driver, 0, 0);
	if (IS_ERR(c->sk))
		return (int)PTR_ERR(c->sk);
	c->skreq = skcipher_request_alloc(c->sk, GFP_KERNEL);
	if (IS_ERR(c->skreq)) {
		crypto_free_skcipher(c->sk);
		return (int)PTR_ERR(c->skreq);
	}
	/* Long enough for the widest vector loops, with a tail. */
	bs = crypto_skcipher_blocksize(c->sk);
	c->len = bs > 1 ? 69 * bs : 1100;
	if (!strncmp(crypto_skcipher_alg_name(c->sk), "kwp(", 4)) {
		c->iv0[4] = 0;
		c->iv0[5] = 0;
		c->iv0[6] = (u8)(c->len >> 8);
		c->iv0[7] = (u8)c->len;
	}
	sg_init_one(&c->sg_in, c->in, c->len);
	sg_init_one(&c->sg_out, c->out, c->len);
	skcipher_request_set_crypt(c->skreq, &c->sg_in, &c->sg_out, c->len, c->iv);
	for (i = 0; i < 3; i++) {
		if (crypto_skcipher_setkey(c->sk, c->fixed, klens[i]))
			continue;
		c->klen = maxk = klens[i];
		/* Every key length of a base driver; the largest for an instance. */
		if (is_instance(c->driver) && i < 2 && !crypto_skcipher_setkey(c->sk, c->fixed, 32))
			continue;
		snprintf(what, sizeof(what), "enc-%u", klens[i] * 8);
		fails += run_case(c, what, sk_prep, sk_enc, 0, b, tot);
	}
	if (maxk) {
		c->klen = maxk;
		snprintf(what, sizeof(what), "dec-%u", maxk * 8);
		/* kw/kwp reject the garbage: a public verdict, the same for both classes. */
		fails += run_case(c, what, sk_prep, sk_dec, OK_OR_BADMSG, b, tot);
	}
	skcipher_request_free(c->skreq);
	crypto_free_skcipher(c->sk);
	return maxk ? fails : -EINVAL;
}

static bool force_batch;

static int check_aead(struct tctx *c, struct totals *tot)
{
	static const unsigned int klens[] = { 16, 20, 24, 28, 32, 36 };
	struct budget b = budget_for(c->driver);
	struct aead_alg *alg;
	unsigned int i, maxk = 0;
	char what[32];
	int fails = 0, err = 0;

	c->aead = crypto_alloc_aead(c->driver, 0, 0);
	if (IS_ERR(c->aead))
		return (int)PTR_ERR(c->aead);
	for (i = 0; i < ABATCH; i++) {
		c->areq[i] = aead_request_alloc(c->aead, GFP_KERNEL);
		if (IS_ERR(c->areq[i])) {
			err = (int)PTR_ERR(c->areq[i]);
			c->areq[i] = NULL;
			goto out;
		}
	}
	alg = crypto_aead_alg(c->aead);
	c->as = crypto_aead_authsize(c->aead);
	c->alen = 16;		/* rfc4106: 8 bytes of AD, then the IV */
	c->len = 1100;
	rnd_bytes(c->in, c->alen);
	rnd_bytes(c->in2, c->alen);
	for (i = 0; i < 6; i++) {
		if (crypto_aead_setkey(c->aead, c->fixed, klens[i]))
			continue;
		maxk = klens[i];
	}
	if (!maxk) {
		err = -EINVAL;
		goto out;
	}
	for (i = 0; i < 6; i++) {
		if (crypto_aead_setkey(c->aead, c->fixed, klens[i]))
			continue;
		if (is_instance(c->driver) && klens[i] != maxk)
			continue;
		c->klen = klens[i];
		snprintf(what, sizeof(what), "seal-%u", klens[i] * 8);
		fails += run_case(c, what, seal_prep, aead_seal, 0, b, tot);
	}
	c->klen = maxk;
	snprintf(what, sizeof(what), "open-%u", maxk * 8);
	fails += run_case(c, what, open_prep, aead_open, 0, b, tot);
	/*
	 * Every AEAD again at a long length: the paths drivers take for long
	 * texts (the stitched ChaCha20-Poly1305's past 4096 bytes, the wide
	 * loops of the GCM drivers).
	 */
	c->len = 4200;
	fails += run_case(c, "seal-long", seal_prep, aead_seal, 0, b, tot);
	fails += run_case(c, "open-long", open_prep, aead_open, 0, b, tot);
	c->len = 1100;
	/* The tag comparison: a fixed random key and a valid ciphertext. */
	rnd_bytes(c->key, c->klen);
	rnd_bytes(c->in2 + c->alen, c->len);
	memcpy(c->iv, c->iv0, sizeof(c->iv));
	aead_set(c, 0, c->in2, c->good, false);
	err = crypto_aead_setkey(c->aead, c->key, c->klen);
	if (!err)
		err = crypto_aead_encrypt(c->areq[0]);
	if (err)
		goto out;
	fails += run_case(c, "tag-compare", tag_prep, aead_open_nokey, -EBADMSG, b, tot);
	if (alg->encrypt_batch || force_batch)
		fails += run_case(c, "seal-batch", seal_batch_prep, aead_seal_batch, 0, b, tot);
	if (alg->decrypt_batch || force_batch)
		fails += run_case(c, "open-batch", open_batch_prep, aead_open_batch, 0, b, tot);
out:
	for (i = 0; i < ABATCH; i++) {
		if (c->areq[i])
			aead_request_free(c->areq[i]);
	}
	crypto_free_aead(c->aead);
	return err ? err : fails;
}

static int check_shash(struct tctx *c, struct totals *tot)
{
	static const unsigned int klens[] = { 32, 16, 64 };
	unsigned int i;
	int err, fails;

	c->shash = crypto_alloc_shash(c->driver, 0, 0);
	if (IS_ERR(c->shash))
		return (int)PTR_ERR(c->shash);
	/* Keyed (hmac 32 bytes, poly1305 32, ghash 16) or unkeyed (-ENOSYS). */
	for (i = 0; i < 3; i++) {
		err = crypto_shash_setkey(c->shash, c->fixed, klens[i]);
		if (err == -ENOSYS)
			break;
		if (!err) {
			c->keyed = true;
			c->klen = klens[i];
			break;
		}
	}
	/* poly1305-avx512ifma widens from 2 KiB: 2100 bytes reach every path. */
	c->len = 2100;
	fails = run_case(c, c->keyed ? "key+msg" : "msg", hash_prep, hash_digest, 0,
			 budget_for(c->driver), tot);
	/* The multi-buffer entry: 8 messages of 500 bytes (a padding block of their own). */
	c->nmb = crypto_shash_mb_max_msgs(c->shash);
	if (c->nmb > 1 || force_batch) {
		c->nmb = c->nmb > 1 ? c->nmb : HASH_MAX_MB_MSGS;
		c->len = 500;
		fails += run_case(c, "finup-mb", mb_prep, hash_finup_mb, 0, budget_for(c->driver), tot);
	}
	crypto_free_shash(c->shash);
	return fails;
}

/* A pool of private keys in @fmt; the fixed one is 0, else 1, else the first of the pool. */
static int make_pool(struct tctx *c, int (*gen)(struct tctx *), int (*exp)(struct tctx *, u8 *, unsigned int),
		     int (*set)(struct tctx *, const u8 *, unsigned int), unsigned int npool)
{
	/*
	 * The pool holds keys of one length: an RSA-2048 key's DER varies
	 * with its integers' leading bytes (1190-1194 bytes, 1191 for 41% of
	 * keys, 1194 for 1%).  Keys are made until npool share a length.
	 * (Requiring the first key's length failed the setup of about one
	 * RSA driver in fifty: a rare first length is rarely met again.)
	 */
	unsigned int i, n, same, cap = npool + 64;
	int *lens = calloc(cap, sizeof(*lens));
	int len = 0;

	c->pool = calloc(cap, MAXBUF / 2);
	if (!c->pool || !lens) {
		free(lens);
		return -ENOMEM;
	}
	for (n = 0; n < cap && !len; n++) {
		int err = gen(c), l;

		if (err) {
			free(lens);
			return err;
		}
		l = exp(c, c->pool + (size_t)n * (MAXBUF / 2), MAXBUF / 2);
		if (l <= 0) {
			free(lens);
			return l ? l : -EINVAL;
		}
		lens[n] = l;
		for (i = 0, same = 0; i <= n; i++)
			same += lens[i] == l;
		if (same == npool)
			len = l;
	}
	if (!len) {
		free(lens);
		return -EINVAL;
	}
	/* The first npool keys of that length, to the front. */
	for (i = 0, same = 0; i < n; i++) {
		if (lens[i] != len)
			continue;
		if (same != i)
			memcpy(c->pool + (size_t)same * (MAXBUF / 2), c->pool + (size_t)i * (MAXBUF / 2),
			       (size_t)len);
		same++;
	}
	free(lens);
	/* Repack at the exported length. */
	for (i = 1; i < npool; i++)
		memmove(c->pool + (size_t)i * (unsigned int)len, c->pool + (size_t)i * (MAXBUF / 2),
			(size_t)len);
	c->plen = (unsigned int)len;
	c->npool = npool;
	memset(c->fixed, 0, c->plen);
	c->fixed_desc = "key 0";
	if (!set(c, c->fixed, c->plen))
		return 0;
	c->fixed[c->plen - 1] = 1;
	c->fixed_desc = "key 1";
	if (!set(c, c->fixed, c->plen))
		return 0;
	memcpy(c->fixed, c->pool, c->plen);
	c->fixed_desc = "fixed key";
	return set(c, c->fixed, c->plen);
}

static int kpp_gen(struct tctx *c)
{
	return crypto_kpp_set_secret(c->kpp, NULL, 0);
}

static int kpp_exp(struct tctx *c, u8 *out, unsigned int n)
{
	return crypto_kpp_export_privkey(c->kpp, RIND_KEY_RAW, out, n);
}

static int kpp_set(struct tctx *c, const u8 *key, unsigned int n)
{
	return crypto_kpp_set_secret(c->kpp, key, n);
}

static int check_kpp(struct tctx *c, struct totals *tot)
{
	struct budget b = budget_for(c->driver);
	int err, fails = 0;

	c->kpp = crypto_alloc_kpp(c->driver, 0, 0);
	if (IS_ERR(c->kpp))
		return (int)PTR_ERR(c->kpp);
	c->kreq = kpp_request_alloc(c->kpp, GFP_KERNEL);
	if (IS_ERR(c->kreq)) {
		crypto_free_kpp(c->kpp);
		return (int)PTR_ERR(c->kreq);
	}
	/* The peer's public key, from a throwaway secret. */
	err = crypto_kpp_set_secret(c->kpp, NULL, 0);
	sg_init_one(&c->sg_out, c->peer, sizeof(c->peer));
	kpp_request_set_input(c->kreq, NULL, 0);
	kpp_request_set_output(c->kreq, &c->sg_out, crypto_kpp_maxsize(c->kpp));
	if (!err)
		err = crypto_kpp_generate_public_key(c->kreq);
	c->peerlen = c->kreq->dst_len;
	if (!err)
		err = make_pool(c, kpp_gen, kpp_exp, kpp_set, NPOOL);
	if (!err) {
		fails += run_case(c, "shared", kpp_prep_shared, kpp_shared, 0, b, tot);
		fails += run_case(c, "public-key", kpp_prep_pub, kpp_pub, 0, b, tot);
	}
	free(c->pool);
	kpp_request_free(c->kreq);
	crypto_free_kpp(c->kpp);
	return err ? err : fails;
}

static int sig_gen(struct tctx *c)
{
	return crypto_sig_generate_key(c->sig);
}

static int sig_exp(struct tctx *c, u8 *out, unsigned int n)
{
	int len = crypto_sig_export_privkey(c->sig, RIND_KEY_RAW, out, n);

	return len == -EINVAL ? crypto_sig_export_privkey(c->sig, RIND_KEY_PKCS8_DER, out, n) : len;
}

static int sig_set(struct tctx *c, const u8 *key, unsigned int n)
{
	return crypto_sig_set_privkey(c->sig, key, n);
}

static int check_sig(struct tctx *c, struct totals *tot)
{
	struct budget b = budget_for(c->driver);
	bool rsa;
	int err, fails = 0;

	c->sig = crypto_alloc_sig(c->driver, 0, 0);
	if (IS_ERR(c->sig))
		return (int)PTR_ERR(c->sig);
	rsa = strstr(crypto_sig_alg_name(c->sig), "rsa") != NULL;
	if (rsa)
		crypto_sig_set_keygen_bits(c->sig, 2048);
	err = make_pool(c, sig_gen, sig_exp, sig_set, rsa ? 3 : NPOOL);
	rnd_bytes(c->in, 32 * NBATCH);
	if (!err) {
		/* Curve building blocks ("ecdsa-nist-p256") sign only through x962()/p1363(). */
		bool can_sign = crypto_sig_sign(c->sig, c->in, 32, c->sigbuf[0],
						sizeof(c->sigbuf[0])) > 0;

		/*
		 * ML-DSA's key setup expands A from rho by rejection sampling:
		 * its time follows rho, which is public (the public key's first
		 * 32 bytes), and ExpandS's rejections, whose count says nothing
		 * of the accepted coefficients (FIPS 204).  A fixed-vs-random-key
		 * test measures that and fails for every ML-DSA driver, the
		 * generic one too (|t| 10-40, 0.3-12% of the time, measured on
		 * Zen 5); memcheck checks the secret handling there instead
		 * (make ct, and ct-mldsa-avx512-emu for the AVX-512 drivers).
		 */
		if (!strncmp(crypto_sig_alg_name(c->sig), "mldsa", 5))
			printf("ct-timing: skip %-44s set-privkey  its time follows rho (public); memcheck covers it\n",
			       c->driver);
		else
			fails += run_case(c, "set-privkey", sig_prep_key, sig_keygen, 0, b, tot);
		if (can_sign)
			fails += run_case(c, "sign", sig_prep_sign, sig_sign, 0, b, tot);
		if (can_sign && (crypto_sig_alg(c->sig)->sign_batch || force_batch))
			fails += run_case(c, "sign-batch", sig_prep_sign, sig_sign_batch, 0, b, tot);
	}
	free(c->pool);
	crypto_free_sig(c->sig);
	return err ? err : fails;
}

static int check_kem(struct tctx *c, struct totals *tot)
{
	struct budget b = budget_for(c->driver);
	unsigned int i;
	int err, fails = 0;

	c->kem = crypto_alloc_kem(c->driver, 0, 0);
	if (IS_ERR(c->kem))
		return (int)PTR_ERR(c->kem);
	c->klen = crypto_kem_seedsize(c->kem);
	c->len = crypto_kem_ciphertextsize(c->kem);
	c->plen = c->len;
	c->npool = NPOOL;
	err = c->klen && c->len <= MAXBUF && c->len > 256 ? 0 : -EINVAL;
	c->pool = calloc(NPOOL, c->len);
	if (!err && !c->pool)
		err = -ENOMEM;
	rnd_bytes(c->key, c->klen);
	if (!err)
		err = crypto_kem_set_privkey(c->kem, c->key, c->klen);
	for (i = 0; i < NPOOL && !err; i++)
		err = crypto_kem_encapsulate(c->kem, c->pool + (size_t)i * c->len, c->len, c->out, 64);
	if (!err) {
		fails += run_case(c, "decap", kem_prep_decap, kem_decap, 0, b, tot);
		fails += run_case(c, "reject", kem_prep_reject, kem_decap, 0, b, tot);
	}
	free(c->pool);
	crypto_free_kem(c->kem);
	return err ? err : fails;
}

static int check_rng(struct tctx *c, struct totals *tot)
{
	int fails;

	c->rng = crypto_alloc_rng(c->driver, 0, 0);
	if (IS_ERR(c->rng))
		return (int)PTR_ERR(c->rng);
	c->klen = crypto_rng_seedsize(c->rng);
	if (c->klen < 48)
		c->klen = 48;
	fails = run_case(c, "seed", rng_prep, rng_reseed, 0, budget_for(c->driver), tot);
	crypto_free_rng(c->rng);
	return fails;
}

static int check_akcipher(struct tctx *c, struct totals *tot)
{
	unsigned int i, n;
	int err, fails = 0;

	c->ak = crypto_alloc_akcipher(c->driver, 0, 0);
	if (IS_ERR(c->ak))
		return (int)PTR_ERR(c->ak);
	c->akreq = akcipher_request_alloc(c->ak, GFP_KERNEL);
	if (IS_ERR(c->akreq)) {
		crypto_free_akcipher(c->ak);
		return (int)PTR_ERR(c->akreq);
	}
	crypto_akcipher_set_keygen_bits(c->ak, 2048);
	err = crypto_akcipher_generate_key(c->ak);
	n = crypto_akcipher_maxsize(c->ak);
	c->pool = calloc(NPOOL, n ? n : 1);
	if (!err && (!c->pool || !n || n > MAXBUF))
		err = -EINVAL;
	/* Ciphertexts: the fixed one of a zero message, the pool of random ones. */
	for (i = 0; i <= NPOOL && !err; i++) {
		u8 *dst = i ? c->pool + (size_t)(i - 1) * n : c->fixed;

		if (i)
			rnd_bytes(c->in2, 32);
		else
			memset(c->in2, 0, 32);
		sg_init_one(&c->sg_in, c->in2, 32);
		sg_init_one(&c->sg_out, dst, n);
		akcipher_request_set_crypt(c->akreq, &c->sg_in, &c->sg_out, 32, n);
		err = crypto_akcipher_encrypt(c->akreq);
	}
	c->plen = n;
	c->npool = NPOOL;
	if (!err)
		fails = run_case(c, "decrypt", ak_prep, ak_dec, 0, budget_for(c->driver), tot);
	free(c->pool);
	akcipher_request_free(c->akreq);
	crypto_free_akcipher(c->ak);
	return err ? err : fails;
}

struct checker {
	const char *type;
	int (*fn)(struct tctx *c, struct totals *tot);
};

static const struct checker checkers[] = {
	{ "cipher", check_cipher },
	{ "skcipher", check_skcipher },
	{ "aead", check_aead },
	{ "shash", check_shash },
	{ "kpp", check_kpp },
	{ "sig", check_sig },
	{ "kem", check_kem },
	{ "rng", check_rng },
	{ "akcipher", check_akcipher },
};

/* The registry, as ct_check instantiates it: instantiate_all() in ct_common.h */

struct drv {
	char name[3 * CRYPTO_MAX_ALG_NAME];
	char driver[3 * CRYPTO_MAX_ALG_NAME];
	char type[16];
	unsigned int ctxsize;
	char sig[96];
};

struct drvlist {
	struct drv *d;
	size_t n, cap;
};

/*
 * What identifies the code an implementation runs beyond its name: its
 * context size and its optional entries (multi-buffer hashing, batches).
 * A driver keeps its name under valgrind but may take a vector entry only
 * where the CPU has the features (sha512-avx2's AVX-512 finup_mb): such a
 * driver differs from what valgrind saw, and is timed.
 */
static void impl_signature(const struct drv *i, char *buf, size_t n)
{
	int len = snprintf(buf, n, "ctx=%u", i->ctxsize);

	if (len < 0 || (size_t)len >= n)
		return;
	buf += len;
	n -= (size_t)len;
	if (!strcmp(i->type, "shash")) {
		struct crypto_shash *tfm = crypto_alloc_shash(i->driver, 0, 0);

		if (!IS_ERR(tfm)) {
			snprintf(buf, n, ",mb=%u", crypto_shash_mb_max_msgs(tfm));
			crypto_free_shash(tfm);
		}
	} else if (!strcmp(i->type, "aead")) {
		struct crypto_aead *tfm = crypto_alloc_aead(i->driver, 0, 0);

		if (!IS_ERR(tfm)) {
			snprintf(buf, n, ",batch=%d%d", crypto_aead_alg(tfm)->encrypt_batch != NULL,
				 crypto_aead_alg(tfm)->decrypt_batch != NULL);
			crypto_free_aead(tfm);
		}
	} else if (!strcmp(i->type, "sig")) {
		struct crypto_sig *tfm = crypto_alloc_sig(i->driver, 0, 0);

		if (!IS_ERR(tfm)) {
			snprintf(buf, n, ",batch=%d", crypto_sig_alg(tfm)->sign_batch != NULL);
			crypto_free_sig(tfm);
		}
	}
}

static int collect_cb(const struct rind_alg_info *i, void *ctx)
{
	struct drvlist *l = ctx;

	if (!strcmp(i->module, "test"))
		return 0;
	if (l->n == l->cap) {
		struct drv *nd = realloc(l->d, (l->cap = l->cap ? 2 * l->cap : 64) * sizeof(*nd));

		if (!nd)
			return -ENOMEM;
		l->d = nd;
	}
	snprintf(l->d[l->n].name, sizeof(l->d[0].name), "%s", i->name);
	snprintf(l->d[l->n].driver, sizeof(l->d[0].driver), "%s", i->driver);
	snprintf(l->d[l->n].type, sizeof(l->d[0].type), "%s", i->type);
	l->d[l->n].ctxsize = i->ctxsize;
	l->n++;
	return 0;
}

/* Every registered implementation (after the instances), with its signature. */
static int collect(struct drvlist *l)
{
	size_t k;

	instantiate_all();
	if (rind_alg_foreach(collect_cb, l))
		return -1;
	for (k = 0; k < l->n; k++)
		impl_signature(&l->d[k], l->d[k].sig, sizeof(l->d[k].sig));
	return 0;
}

/*
 * The list valgrind covers: `ct_timing --list` lines ("vg: driver
 * signature"), or ct_check's output ("ct: ok name driver (type)": names
 * only, no signature to compare).
 */
struct covered {
	char *driver;
	char *sig;	/* NULL: unknown */
};

static struct covered *covered;
static size_t ncovered;

static int load_covered(const char *path)
{
	char line[1024], a[8], b[16], name[512], drv[512], type[64];
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *e, *sig = NULL;

		line[strcspn(line, "\r\n")] = 0;
		if (!strncmp(line, "ct: ", 4)) {
			/* "ct: ok|FAIL name driver (type)"; NOT COVERED and summary lines do not count */
			if (sscanf(line, "%7s %15s %511s %511s %63s", a, b, name, drv, type) != 5 ||
			    (strcmp(b, "ok") && strcmp(b, "FAIL")) || type[0] != '(')
				continue;
			p = drv;
		} else if (!strncmp(line, "vg: ", 4)) {
			p = line + 4;
			e = p + strcspn(p, " ");
			if (*e) {
				*e = 0;
				sig = e + 1;
			}
		} else {
			continue;
		}
		if (!*p)
			continue;
		covered = realloc(covered, (ncovered + 1) * sizeof(*covered));
		if (!covered)
			return -1;
		covered[ncovered].driver = strdup(p);
		covered[ncovered].sig = sig ? strdup(sig) : NULL;
		ncovered++;
	}
	fclose(f);
	return 0;
}

static const struct covered *find_covered(const char *drv)
{
	size_t i;

	for (i = 0; i < ncovered; i++) {
		if (!strcmp(covered[i].driver, drv))
			return &covered[i];
	}
	return NULL;
}

static int time_driver(const struct drv *d, struct totals *tot)
{
	static struct tctx c;
	size_t k;
	int r;

	for (k = 0; k < sizeof(checkers) / sizeof(checkers[0]); k++) {
		if (strcmp(checkers[k].type, d->type))
			continue;
		ctx_init(&c, d->driver);
		r = checkers[k].fn(&c, tot);
		tot->impls++;
		if (r < 0) {
			printf("ct-timing: ERROR %-44s setup failed: %d\n", d->driver, r);
			tot->errors++;
		}
		return r;
	}
	printf("ct-timing: NOT COVERED %s %s (%s): no timing test for this type\n", d->name, d->driver,
	       d->type);
	tot->uncovered++;
	return 1;
}

/* --leaky: planted leaks must be caught, the constant-time control must pass. */
static int run_leaky(void)
{
	static struct tctx c;
	struct totals tot = { 0 };
	struct budget b = { 0.3, 2.0 };
	int caught = 0, control, bare;

	/* 1. GCM open by hand with an early-exit tag comparison (and a crypto_memneq control). */
	ctx_init(&c, "planted: gcm(aes) + memcmp");
	c.aead = crypto_alloc_aead("gcm(aes)", 0, 0);
	c.areq[0] = IS_ERR(c.aead) ? NULL : aead_request_alloc(c.aead, GFP_KERNEL);
	if (!c.areq[0] || IS_ERR(c.areq[0]))
		return 2;
	c.as = crypto_aead_authsize(c.aead);
	c.alen = 16;
	c.len = 64;
	c.klen = 16;
	rnd_bytes(c.key, 16);
	rnd_bytes(c.in2, c.alen + c.len);
	memcpy(c.iv, c.iv0, sizeof(c.iv));
	aead_set(&c, 0, c.in2, c.good, false);
	if (crypto_aead_setkey(c.aead, c.key, 16) || crypto_aead_encrypt(c.areq[0]))
		return 2;
	caught += run_case(&c, "tag-compare", leaky_tag_prep, leaky_tag_op, -EBADMSG, b, &tot);
	c.driver = "control: gcm(aes) + crypto_memneq";
	control = run_case(&c, "tag-compare", leaky_tag_prep, ct_tag_op, -EBADMSG, b, &tot);
	aead_request_free(c.areq[0]);
	crypto_free_aead(c.aead);

	/* 2. ctr(aes) then one branch on a key bit (and the same without the branch). */
	ctx_init(&c, "planted: ctr(aes) + key-bit branch, 8 mul");
	c.sk = crypto_alloc_skcipher("ctr(aes)", 0, 0);
	c.skreq = IS_ERR(c.sk) ? NULL : skcipher_request_alloc(c.sk, GFP_KERNEL);
	if (!c.skreq || IS_ERR(c.skreq))
		return 2;
	c.klen = 16;
	c.len = 64;
	for (leak_bit = 1; leak_bit && (c.fixed[5] & leak_bit); leak_bit = (u8)(leak_bit << 1))
		;
	if (!leak_bit)
		return 2;
	sg_init_one(&c.sg_in, c.in, c.len);
	sg_init_one(&c.sg_out, c.out, c.len);
	skcipher_request_set_crypt(c.skreq, &c.sg_in, &c.sg_out, c.len, c.iv);
	leak_rounds = 8;
	caught += run_case(&c, "enc-128", sk_prep, leaky_branch_op, 0, b, &tot);
	c.driver = "control: ctr(aes)";
	control += run_case(&c, "enc-128", sk_prep, sk_enc, 0, b, &tot);
	/*
	 * The bare branch: a fraction of a nanosecond on average, reported
	 * but not required.  On Zen 5 it is bimodal from one process to the
	 * next: caught at |t| 11-75 in some, in others no difference at all
	 * in any of several measurements (t 0.00, diff 0.00 ns), the core
	 * hiding the branch entirely behind the cipher; about one process in
	 * three there.  A leak that costs no time in that process is not one a
	 * timing test can see, so it cannot gate CI; the two leaks above,
	 * which cost time, must be caught every run.
	 */
	leak_rounds = 0;
	c.driver = "planted: ctr(aes) + bare key-bit branch";
	bare = run_case(&c, "enc-128", sk_prep, leaky_branch_op, 0, b, &tot);
	skcipher_request_free(c.skreq);
	crypto_free_skcipher(c.sk);

	printf("ct-timing: planted leaks caught: %d of 2 (early-exit tag comparison, key-bit branch "
	       "guarding 8 multiplications; the bare key-bit branch %s); constant-time controls: %s\n",
	       caught, bare ? "caught too" : "not visible in this process", control ? "FAILED" : "passed");
	if (tot.errors || control)
		return 2;
	return caught == 2 ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: valgrind ct_timing --list            implementations registered under valgrind\n"
		"       ct_timing --covered FILE [options]   time those not in FILE (--list or ct_check output)\n"
		"       ct_timing --driver NAME... [options] time these implementations\n"
		"       ct_timing --all [options]            time every implementation\n"
		"       ct_timing --leaky                    planted leaks (exit 1 = caught)\n"
		"options: --seed N; --time-scale F (multiplies each case's time budget); --no-early (measure\n"
		"  each case for its whole maximum time); --min-diff NS (a failure also needs a mean\n"
		"  difference of NS nanoseconds; default 0); --min-rel F (and of F times the median time;\n"
		"  default 0.0025); --batch (batch cases even without a batch entry)\n");
}

int main(int argc, char **argv)
{
	struct drvlist l = { 0 };
	struct totals tot = { 0 };
	const char *covered_path = NULL;
	const char **only = NULL;
	bool list = false, all = false, leaky = false;
	int nonly = 0, i;
	u64 seed = 0;
	size_t k;
	double t0 = now();

	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (u64)time(NULL);
	only = calloc((size_t)argc, sizeof(*only));
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list")) {
			list = true;
		} else if (!strcmp(argv[i], "--all")) {
			all = true;
		} else if (!strcmp(argv[i], "--leaky")) {
			leaky = true;
		} else if (!strcmp(argv[i], "--no-early")) {
			no_early = 1;
		} else if (!strcmp(argv[i], "--batch")) {
			force_batch = true;
		} else if (!strcmp(argv[i], "--covered") && i + 1 < argc) {
			covered_path = argv[++i];
		} else if (!strcmp(argv[i], "--driver") && i + 1 < argc) {
			only[nonly++] = argv[++i];
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			seed = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--min-diff") && i + 1 < argc) {
			delta_min_ns = strtod(argv[++i], NULL);
		} else if (!strcmp(argv[i], "--min-rel") && i + 1 < argc) {
			rel_min = strtod(argv[++i], NULL);
		} else if (!strcmp(argv[i], "--time-scale") && i + 1 < argc) {
			time_scale = strtod(argv[++i], NULL);
		} else {
			usage();
			return 2;
		}
	}
	if (!list && !all && !leaky && !nonly && !covered_path) {
		usage();
		return 2;
	}
	rnd_seed(seed);

	if (list) {
#ifdef HAVE_VALGRIND
		if (!RUNNING_ON_VALGRIND) {
			fprintf(stderr, "ct_timing --list: run me under valgrind (its view is what counts)\n");
			return 2;
		}
#else
		fprintf(stderr, "ct_timing --list: built without valgrind headers\n");
		return 2;
#endif
		if (collect(&l))
			return 2;
		for (k = 0; k < l.n; k++)
			printf("vg: %s %s\n", l.d[k].driver, l.d[k].sig);
		return 0;
	}
#ifdef HAVE_VALGRIND
	if (RUNNING_ON_VALGRIND) {
		fprintf(stderr, "ct_timing: timing under valgrind means nothing; run it natively\n");
		return 2;
	}
#endif
	calibrate_ticks();
	printf("ct-timing: seed %llu; a case fails at |t| >= %.0f with a mean difference of at least "
	       "%.2f ns and %.2f%% of its median, confirmed by a second measurement (1 tick = %.3f ns)\n",
	       (unsigned long long)seed, T_FAIL, delta_min_ns, 100 * rel_min, tick_ns);
	if (leaky) {
		i = run_leaky();
		printf("ct-timing: %.1f s\n", now() - t0);
		return i;
	}
	if (covered_path) {
		if (load_covered(covered_path))
			return 2;
		/* An empty or foreign list would hand everything to valgrind. */
		if (!find_covered("aes-generic") || !find_covered("sha256-generic")) {
			fprintf(stderr, "ct_timing: %s does not look like valgrind's list (no aes-generic, sha256-generic)\n",
				covered_path);
			return 2;
		}
	}
	if (collect(&l))
		return 2;
	/*
	 * Instances valgrind made over other arguments (the best "poly1305" differs
	 * there) are expected; a plain implementation only valgrind has is not.
	 */
	for (k = 0; k < ncovered; k++) {
		size_t j;

		for (j = 0; j < l.n && strcmp(l.d[j].driver, covered[k].driver); j++)
			;
		if (j == l.n && !is_instance(covered[k].driver))
			printf("ct-timing: note: %s is registered under valgrind but not natively\n",
			       covered[k].driver);
	}
	for (k = 0; k < l.n; k++) {
		const struct covered *v = find_covered(l.d[k].driver);

		if (nonly) {
			int j;

			for (j = 0; j < nonly && strcmp(only[j], l.d[k].driver); j++)
				;
			if (j == nonly)
				continue;
		} else if (!all && v && (!v->sig || !strcmp(v->sig, l.d[k].sig))) {
			tot.vg++;
			continue;
		} else if (!all && v) {
			printf("ct-timing: %s runs other code natively (%s) than under valgrind (%s): timed\n",
			       l.d[k].driver, l.d[k].sig, v->sig);
		}
		time_driver(&l.d[k], &tot);
	}
	if (nonly && tot.impls + tot.uncovered < nonly) {
		fprintf(stderr, "ct_timing: some --driver names are not registered\n");
		tot.errors++;
	}
	printf("ct-timing: %d implementations timed (%d cases), %d checked by valgrind instead; "
	       "%d failed, %d errors, %d not covered; largest t %.2f (%s), largest max|t| %.2f; %.1f s\n",
	       tot.impls, tot.cases, tot.vg, tot.failed, tot.errors, tot.uncovered, tot.worst_t,
	       tot.worst[0] ? tot.worst : "-", tot.worst_maxt, now() - t0);
	return tot.failed || tot.errors || tot.uncovered ? 1 : 0;
}
