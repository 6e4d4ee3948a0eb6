// SPDX-License-Identifier: MIT
/*
 * Layout probe (not built by make): does rind's ChaCha20-Poly1305 time
 * depend on where its buffers and its stack sit, modulo 4096?  Times one
 * seal or open (13 bytes of AD, as rind-bench) with the text at chosen
 * offsets mod 4096 and the driver's stack moved down by a chosen number of
 * bytes, interleaved with OpenSSL's EVP on the same buffers.
 *
 *   make -j2 && cc -O2 -Iapi/include -o /tmp/cpl bench/probes/chachapoly-layout.c \
 *      build/librind-internal.a -lcrypto -pthread && /tmp/cpl [options]
 *
 *   -n LEN      message length (16384)
 *   -s OFF      src text offset mod 4096 (13: rind-bench's aligned_alloc(64) + AD)
 *   -d OFF      dst text offset mod 4096 (13)
 *   -k OFF      extra stack bytes below the caller (0)
 *   -S STEP     scan the stack offset 0..4095 by STEP (prints one row per offset)
 *   -D STEP     scan dst's offset 0..4095 by STEP
 *   -t N        repeat the measurement N times (a time series at one layout)
 *   -o          open instead of seal
 *   -r N        calls per measurement (101)
 *   -a NAME     rind algorithm (rfc7539(chacha20,poly1305))
 *
 * Each row: rdtsc minimum and median of N calls for rind and for OpenSSL
 * (alternating call by call), and OpenSSL's median over rind's.  Built
 * against aws-lc instead (the peers harness's copy):
 *
 *   cc -O2 -Iapi/include -I../shared/peers/aws-lc/include -o /tmp/cpl-awslc \
 *      bench/probes/chachapoly-layout.c build/librind-internal.a \
 *      ../shared/peers/aws-lc/lib/libcrypto.a -pthread
 *
 * "ossl" is then aws-lc's EVP_CIPHER, and a third column times its
 * EVP_AEAD_CTX_seal/open (its fastest API) in the same rounds.
 *
 * What it found (Zen 3 KVM guest, 2026-12-01), for the C stitched loop
 * that chacha20poly1305-avx2-asm.S replaced: 16 KiB seal at 18.0k cycles
 * or 26-28k, OpenSSL at 20.8k or 22.3k beside it.  The mode did not follow
 * -S (stack offsets 0..4095), -D (dst offsets), the data's pages or ASLR
 * (setarch -R runs came out fast and slow, interleaved with ASLR ones); it
 * switched over seconds inside one process, -t showing runs of one mode
 * then the other: the host loading the core, to which the spill-bound C
 * loop was 1.5x sensitive and OpenSSL 1.06x.  The assembly core: 16.0k or
 * 18.4-20k (1.15-1.2x).
 */
#include <rind/crypto.h>
#include <openssl/evp.h>
#include <alloca.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <x86intrin.h>

#define AD 13
#define TAG 16

static unsigned int len = 16384, reps = 101;
static int do_open;
static u8 *src, *dst, *base;
static struct aead_request *req;
static struct scatterlist sg_src, sg_dst;
static EVP_CIPHER_CTX *ectx;
static u8 key[32], iv[12], aad[AD];
#ifdef OPENSSL_IS_AWSLC
#include <openssl/aead.h>
static EVP_AEAD_CTX *actx;

static __attribute__((noinline)) void awslc_call(void)
{
	size_t n;

	if (do_open) {
		if (!EVP_AEAD_CTX_open(actx, dst + AD, &n, len, iv, 12, src + AD, len + TAG, aad, AD))
			abort();
	} else {
		EVP_AEAD_CTX_seal(actx, dst + AD, &n, len + TAG, iv, 12, src + AD, len, aad, AD);
	}
}
#endif

static int cmp64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static __attribute__((noinline)) int rind_call(void)
{
	return do_open ? crypto_aead_decrypt(req) : crypto_aead_encrypt(req);
}

/* the driver's frame moves down by @k bytes */
static __attribute__((noinline)) int rind_call_at(size_t k)
{
	volatile u8 *p = alloca(k + 1);

	p[0] = 0;
	__asm__ volatile("" ::"r"(p) : "memory");
	return rind_call();
}

static __attribute__((noinline)) void ossl_call(void)
{
	int n;

	if (do_open) {
		EVP_DecryptInit_ex(ectx, NULL, NULL, NULL, iv);
		EVP_DecryptUpdate(ectx, NULL, &n, aad, AD);
		EVP_DecryptUpdate(ectx, dst + AD, &n, src + AD, (int)len);
		EVP_CIPHER_CTX_ctrl(ectx, EVP_CTRL_AEAD_SET_TAG, TAG, src + AD + len);
		if (EVP_DecryptFinal_ex(ectx, dst + AD + len, &n) != 1)
			abort();
	} else {
		EVP_EncryptInit_ex(ectx, NULL, NULL, NULL, iv);
		EVP_EncryptUpdate(ectx, NULL, &n, aad, AD);
		EVP_EncryptUpdate(ectx, dst + AD, &n, src + AD, (int)len);
		EVP_EncryptFinal_ex(ectx, dst + AD + len, &n);
		EVP_CIPHER_CTX_ctrl(ectx, EVP_CTRL_AEAD_GET_TAG, TAG, dst + AD + len);
	}
}

/* src text at offset @so mod 4096, dst text at @dof; 64 KiB apart */
static void place(struct crypto_aead *tfm, unsigned int so, unsigned int dof)
{
	int n;

	src = base + 4096 + ((so - AD) & 4095);
	dst = base + 4096 + 65536 + 4096 + ((dof - AD) & 4095);
	memcpy(src, aad, AD);
	for (unsigned int i = 0; i < len; i++)
		src[AD + i] = (u8)(i * 7 + 1);
	aead_request_set_ad(req, AD);
	if (do_open) {
		/* make a valid ciphertext in src with OpenSSL, then open it with both */
		EVP_EncryptInit_ex(ectx, EVP_chacha20_poly1305(), NULL, key, iv);
		EVP_EncryptUpdate(ectx, NULL, &n, aad, AD);
		EVP_EncryptUpdate(ectx, src + AD, &n, src + AD, (int)len);
		EVP_EncryptFinal_ex(ectx, src + AD + len, &n);
		EVP_CIPHER_CTX_ctrl(ectx, EVP_CTRL_AEAD_GET_TAG, TAG, src + AD + len);
		EVP_CIPHER_CTX_free(ectx);
		ectx = EVP_CIPHER_CTX_new();
		EVP_DecryptInit_ex(ectx, EVP_chacha20_poly1305(), NULL, key, iv);
		sg_init_one(&sg_src, src, AD + len + TAG);
		sg_init_one(&sg_dst, dst, AD + len);
		aead_request_set_crypt(req, &sg_src, &sg_dst, len + TAG, iv);
	} else {
		EVP_EncryptInit_ex(ectx, EVP_chacha20_poly1305(), NULL, key, iv);
		sg_init_one(&sg_src, src, AD + len);
		sg_init_one(&sg_dst, dst, AD + len + TAG);
		aead_request_set_crypt(req, &sg_src, &sg_dst, len, iv);
	}
	(void)tfm;
}

static void measure(size_t k, const char *label)
{
	uint64_t *a = calloc(reps, 8), *b = calloc(reps, 8), *c = calloc(reps, 8), t;

	for (int w = 0; w < 5; w++) {
		if (rind_call_at(k))
			abort();
		ossl_call();
	}
	for (unsigned int i = 0; i < reps; i++) {
		t = __rdtsc();
		if (rind_call_at(k))
			abort();
		a[i] = __rdtsc() - t;
		t = __rdtsc();
		ossl_call();
		b[i] = __rdtsc() - t;
#ifdef OPENSSL_IS_AWSLC
		t = __rdtsc();
		awslc_call();
		c[i] = __rdtsc() - t;
#endif
	}
	qsort(a, reps, 8, cmp64);
	qsort(b, reps, 8, cmp64);
	qsort(c, reps, 8, cmp64);
	printf("%s rind min %6llu med %6llu  ossl min %6llu med %6llu  ossl/rind %.2f", label,
	       (unsigned long long)a[0], (unsigned long long)a[reps / 2],
	       (unsigned long long)b[0], (unsigned long long)b[reps / 2],
	       (double)b[reps / 2] / (double)a[reps / 2]);
#ifdef OPENSSL_IS_AWSLC
	printf("  aead min %6llu med %6llu  aead/rind %.2f", (unsigned long long)c[0],
	       (unsigned long long)c[reps / 2], (double)c[reps / 2] / (double)a[reps / 2]);
#endif
	printf("\n");
	fflush(stdout);
	free(a);
	free(b);
	free(c);
}

int main(int argc, char **argv)
{
	unsigned int so = AD, dof = AD, sstep = 0, dstep = 0, times = 1;
	size_t k = 0;
	const char *alg = "rfc7539(chacha20,poly1305)";
	struct crypto_aead *tfm;
	char label[96];
	int c;

	while ((c = getopt(argc, argv, "n:s:d:k:S:D:or:a:t:")) != -1) {
		switch (c) {
		case 'n': len = (unsigned int)atoi(optarg); break;
		case 's': so = (unsigned int)atoi(optarg) & 4095; break;
		case 'd': dof = (unsigned int)atoi(optarg) & 4095; break;
		case 'k': k = (size_t)atoi(optarg); break;
		case 'S': sstep = (unsigned int)atoi(optarg); break;
		case 'D': dstep = (unsigned int)atoi(optarg); break;
		case 'o': do_open = 1; break;
		case 't': times = (unsigned int)atoi(optarg); break;
		case 'r': reps = (unsigned int)atoi(optarg); break;
		case 'a': alg = optarg; break;
		default: return 2;
		}
	}
	for (unsigned int i = 0; i < 32; i++)
		key[i] = (u8)(i + 1);
	memset(iv, 4, sizeof(iv));
	memset(aad, 2, sizeof(aad));
	base = aligned_alloc(4096, 4 * 65536);
	memset(base, 0, 4 * 65536);
	tfm = crypto_alloc_aead(alg, 0, 0);
	if (IS_ERR(tfm) || crypto_aead_setkey(tfm, key, 32) || crypto_aead_setauthsize(tfm, TAG))
		return 1;
	req = aead_request_alloc(tfm, GFP_KERNEL);
	aead_request_set_callback(req, 0, NULL, NULL);
	ectx = EVP_CIPHER_CTX_new();
#ifdef OPENSSL_IS_AWSLC
	actx = EVP_AEAD_CTX_new(EVP_aead_chacha20_poly1305(), key, 32, TAG);
#endif
	printf("# %s (%s) %s %u B; stack at %p\n", alg, crypto_aead_driver_name(tfm),
	       do_open ? "open" : "seal", len, (void *)&label);
	if (sstep) {
		place(tfm, so, dof);
		for (size_t kk = 0; kk < 4096; kk += sstep) {
			snprintf(label, sizeof(label), "src=%u dst=%u stk=%zu", so, dof, kk);
			measure(kk, label);
		}
	} else if (dstep) {
		for (unsigned int d = 0; d < 4096; d += dstep) {
			place(tfm, so, d);
			snprintf(label, sizeof(label), "src=%u dst=%u stk=%zu", so, d, k);
			measure(k, label);
		}
	} else {
		place(tfm, so, dof);
		snprintf(label, sizeof(label), "src=%u dst=%u stk=%zu", so, dof, k);
		for (unsigned int t = 0; t < times; t++)
			measure(k, label);
	}
	aead_request_free(req);
	crypto_free_aead(tfm);
	EVP_CIPHER_CTX_free(ectx);
	return 0;
}
