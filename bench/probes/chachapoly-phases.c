// SPDX-License-Identifier: MIT
/*
 * Phase probe (not built by make): is rind-bench's slow ChaCha20-Poly1305
 * 16 KiB row the benchmark's doing, or the machine's?  Times batches of
 * seals the way rind-bench does (one tfm and request set up once, AD of 13
 * bytes, out of place, buffers from aligned_alloc(64), a fresh nonce per
 * call), as a time series of short batches, and puts other code between
 * them: a batch of OpenSSL's EVP ChaCha20-Poly1305, of libsodium's, or of
 * a second rind algorithm (ALG2), in the order given.
 *
 *   make -j2 && cc -O2 -Iapi/include -o /tmp/cpp bench/probes/chachapoly-phases.c \
 *      build/librind-internal.a -lcrypto -lsodium -pthread
 *   taskset -c 1 /tmp/cpp [SEQ [ROUNDS [CALLS [LEN]]]]
 *
 *   SEQ     the batches of one round, letters: r rind (ALG, default
 *           rfc7539(chacha20,poly1305)), g rind (ALG2, default the
 *           two-pass rfc7539(chacha20-avx2,poly1305-avx2)), o OpenSSL,
 *           s libsodium ("rgo")
 *   ROUNDS  rounds (20); CALLS calls per batch (500); LEN bytes (16384)
 *   env FIXIV=1: one nonce for every call (the peers harness's way)
 *
 * Each batch prints p10/median/mean of its calls' rdtsc times.  ALG may be
 * any aead ("gcm(aes)": 32-byte key); the OpenSSL and libsodium batches are
 * ChaCha20-Poly1305 whatever ALG is.
 *
 * What it showed (AMD EPYC Zen 3, 2-vCPU KVM guest, 2026-12-02): the time
 * of every implementation moves with the host, in phases of seconds
 * within one process and across processes, whatever ran before it:
 *   rind stitched core  16.0-16.4k cycles  ->  20-28k   (1.3-1.7x)
 *   OpenSSL 3.0 EVP     20.4-21.1k         ->  22.5-24k (1.1x)
 *   aws-lc EVP_AEAD     18.1-18.5k         ->  20-23k   (1.1-1.25x)
 *   rind AES-256-GCM    6.7-6.8k           ->  8.3-10k  (1.25-1.45x)
 * (the last column from chachapoly-layout.c built against aws-lc).  The
 * batch just before (OpenSSL, libsodium, rind itself: 200 rounds each,
 * "rrorsr") did not move rind's median (21.2k after each), nor did a
 * fixed nonce.  The high-IPC codes (the stitched core runs ~5 instructions
 * a cycle, VAES GCM likewise) lose the most when the host shares the core:
 * the signature of a sibling thread or a co-scheduled guest, not of a
 * state left behind.  rind-bench in a fast phase: rind 6.8-7.4 us, OpenSSL
 * 8.7-9.0 (1.23-1.28x); in a slow one 10.1-10.9 against 9.8-9.9 (0.90-0.98x):
 * it measures what runs, and its 30 ms rounds alternate the libraries, so
 * each sees the same phases (only long phases bias one library's rounds).
 */
#include <rind/crypto.h>
#include <openssl/evp.h>
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#define AD 13
#define TAG 16
#define MAXCALLS (1 << 16)

static unsigned int len = 16384;
static u8 *pt, *out;
static struct aead_request *req1, *req2;
static EVP_CIPHER_CTX *ectx;
static u8 key[32], iv[12], aad[AD];
static uint64_t ctr, times[MAXCALLS];
static int fixiv;

/* rind-bench's nonce: a big-endian counter in the last 8 bytes */
static void next_iv(void)
{
	uint64_t c = ++ctr;

	if (fixiv)
		return;
	for (int i = 0; i < 8; i++)
		iv[11 - i] = (u8)(c >> (8 * i));
}

static void *balloc(size_t n)
{
	void *p;

	n = (n + 63) & ~(size_t)63;
	p = aligned_alloc(64, n);
	if (!p)
		abort();
	memset(p, 0, n);
	return p;
}

static void rind_a(void)
{
	next_iv();
	if (crypto_aead_encrypt(req1))
		abort();
}

static void rind_b(void)
{
	next_iv();
	if (crypto_aead_encrypt(req2))
		abort();
}

static void ossl(void)
{
	int n;

	next_iv();
	if (EVP_EncryptInit_ex(ectx, NULL, NULL, NULL, iv) != 1 ||
	    EVP_EncryptUpdate(ectx, NULL, &n, aad, AD) != 1 ||
	    EVP_EncryptUpdate(ectx, out, &n, pt, (int)len) != 1 ||
	    EVP_EncryptFinal_ex(ectx, out + n, &n) != 1 ||
	    EVP_CIPHER_CTX_ctrl(ectx, EVP_CTRL_AEAD_GET_TAG, TAG, out + len) != 1)
		abort();
}

static void sodium(void)
{
	unsigned long long cl;

	next_iv();
	crypto_aead_chacha20poly1305_ietf_encrypt(out, &cl, pt, len, aad, AD, NULL, iv, key);
}

static int cmp64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void batch(char what, void (*f)(void), long n)
{
	uint64_t t0 = __rdtsc(), t;

	for (long i = 0; i < n; i++) {
		t = __rdtsc();
		f();
		times[i] = __rdtsc() - t;
	}
	t = __rdtsc() - t0;
	qsort(times, (size_t)n, sizeof(times[0]), cmp64);
	printf("%c %6llu/%6llu/%6llu  ", what, (unsigned long long)times[n / 10],
	       (unsigned long long)times[n / 2], (unsigned long long)(t / (uint64_t)n));
}

static struct aead_request *mkreq(const char *alg, struct scatterlist *s, struct scatterlist *d)
{
	struct crypto_aead *tfm = crypto_alloc_aead(alg, 0, 0);
	struct aead_request *r;

	if (IS_ERR(tfm) || crypto_aead_setkey(tfm, key, 32) || crypto_aead_setauthsize(tfm, TAG)) {
		fprintf(stderr, "%s: cannot set up\n", alg);
		exit(1);
	}
	r = aead_request_alloc(tfm, GFP_KERNEL);
	if (IS_ERR_OR_NULL(r))
		exit(1);
	aead_request_set_callback(r, 0, NULL, NULL);
	aead_request_set_ad(r, AD);
	aead_request_set_crypt(r, s, d, len, iv);
	printf("# %s -> %s\n", alg, crypto_aead_driver_name(tfm));
	return r;
}

int main(int argc, char **argv)
{
	const char *seq = argc > 1 ? argv[1] : "rgo";
	int rounds = argc > 2 ? atoi(argv[2]) : 20;
	long n = argc > 3 ? atol(argv[3]) : 500;
	const char *alg = getenv("ALG"), *alg2 = getenv("ALG2");
	static struct scatterlist sgs, sgd;
	u8 *src, *dst;

	if (argc > 4)
		len = (unsigned int)atoi(argv[4]);
	if (n < 1 || n > MAXCALLS || len > (1u << 20) || sodium_init() < 0)
		return 2;
	fixiv = getenv("FIXIV") != NULL;
	for (int i = 0; i < 32; i++)
		key[i] = (u8)(i + 1);
	memset(iv, 4, sizeof(iv));
	memset(aad, 2, sizeof(aad));
	pt = balloc(len + 64);
	out = balloc(len + 64);
	for (unsigned int i = 0; i < len; i++)
		pt[i] = (u8)(i * 7 + 1);
	src = balloc(AD + len + TAG);
	dst = balloc(AD + len + TAG);
	memcpy(src, aad, AD);
	memcpy(src + AD, pt, len);
	sg_init_one(&sgs, src, AD + len);
	sg_init_one(&sgd, dst, AD + len + TAG);
	req1 = mkreq(alg ? alg : "rfc7539(chacha20,poly1305)", &sgs, &sgd);
	req2 = mkreq(alg2 ? alg2 : "rfc7539(chacha20-avx2,poly1305-avx2)", &sgs, &sgd);
	ectx = EVP_CIPHER_CTX_new();
	if (!ectx || EVP_EncryptInit_ex(ectx, EVP_chacha20_poly1305(), NULL, key, NULL) != 1)
		return 1;
	printf("# %u bytes, %ld calls a batch, p10/median/mean rdtsc cycles per call\n", len, n);
	for (int r = 0; r < rounds; r++) {
		for (const char *m = seq; *m; m++) {
			switch (*m) {
			case 'r': batch('r', rind_a, n); break;
			case 'g': batch('g', rind_b, n); break;
			case 'o': batch('o', ossl, n); break;
			case 's': batch('s', sodium, n); break;
			default: return 2;
			}
		}
		printf("\n");
		fflush(stdout);
	}
	EVP_CIPHER_CTX_free(ectx);
	return 0;
}
