// SPDX-License-Identifier: MIT
/*
 * Measuring probe (not built by make, nothing in the library links it):
 * rind's SHA-256, SHA-512 and HMAC-SHA256 against aws-lc 5.5 in one
 * process, interleaved call by call, for exactly the calls the peers
 * harness's rows make (../shared/peers/bench.c):
 *
 *   rind:   crypto_shash_digest() on one desc of a "sha256" / "sha512" tfm,
 *           and of an "hmac(sha256)" tfm keyed once with a 32-byte key;
 *   aws-lc: EVP_DigestInit_ex / Update / Final_ex on one reused EVP_MD_CTX,
 *           and HMAC_Init_ex(ctx, NULL, 0, NULL, NULL) / Update / Final on
 *           an HMAC_CTX keyed once.
 *
 * at 64, 1350 and 16384 bytes (HMAC at 64 and 1350), plus the bare
 * compression functions (the registered drivers' block functions, included
 * whole, against sha256_block_data_order_hw / sha512_block_data_order_avx,
 * the ones aws-lc picks on a CPU with SHA-NI and AVX but without the SHA-512
 * instructions) at 1, 21 / 10 and 256 / 128 blocks, and aws-lc's SHA256() /
 * SHA512() one-shots for reference.
 *
 * One file, two translation units (rind's and OpenSSL's headers apart):
 *
 *   A=/work/shared/peers/aws-lc
 *   cc -O2 -DSIDE_AWSLC -I$A/include -c -o /tmp/sha-a.o bench/probes/sha-peer.c
 *   cc -O2 -DSIDE_RIND -D_GNU_SOURCE -Iapi/include -Iarch/x86 -c -o /tmp/sha-r.o \
 *      bench/probes/sha-peer.c
 *   cc -o /tmp/sha-peer /tmp/sha-r.o /tmp/sha-a.o build/librind-internal.a \
 *      $A/lib/libcrypto.a -pthread
 *   /tmp/sha-peer [calls] [row-substring] [fence|batch]
 *
 * Per call: TSC (rdtsc; peer-timing.h also takes the on-CPU time, outside
 * the TSC window, which this probe does not print); per row: TSC minimum
 * and median of each, and aws-lc's over rind's (> 1: rind faster).  Calls
 * alternate which library goes first.  Without "fence" a call's last
 * instructions may still run while the next call (the other library's)
 * starts, as in the harness's loops of one op; with it, LFENCE before and
 * after each call gives the call's latency alone; with "batch" each sample
 * is 16 calls of one library in a row (per call), as the harness's timing
 * loops.  Before timing, every row's outputs are compared.
 *
 * What it showed on the Zen 3 EPYC (2026-12-02, loaded host; TSC 2.45 GHz,
 * about 1.2-1.3 core cycles per tick): SHA256RNDS2's latency is 3.8-3.9
 * core cycles and a block is 32 of them in one dependency chain, so one
 * message costs >= 128 cycles a block; rind's and aws-lc's SHA-NI loops
 * both run 256 blocks in the same time to 0.1% (about 102-106 ticks a
 * block), which bounds SHA-256 1350B/16KiB and HMAC-SHA256 1350B at
 * 1.00-1.06x whatever the rest costs.  aws-lc's SHA-512 on this CPU is its
 * scalar code (its EVP rows run at sha512_block_data_order_nohw's speed;
 * its AVX one is twice rind's AVX2 block time).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXLEN 16384

#ifdef SIDE_AWSLC
#include <openssl/crypto.h>
#include <openssl/digest.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

void sha256_block_data_order_hw(uint32_t *state, const uint8_t *data, size_t num);
void sha512_block_data_order_avx(uint64_t *state, const uint8_t *data, size_t num);
void sha512_block_data_order_nohw(uint64_t *state, const uint8_t *data, size_t num);

static EVP_MD_CTX *mdctx;
static HMAC_CTX *hctx;

int a_init(const uint8_t *key, size_t keylen)
{
	CRYPTO_library_init();
	mdctx = EVP_MD_CTX_new();
	hctx = HMAC_CTX_new();
	return mdctx && hctx && HMAC_Init_ex(hctx, key, keylen, EVP_sha256(), NULL);
}

static int a_evp(const EVP_MD *md, const uint8_t *in, size_t len, uint8_t *out)
{
	unsigned int ol;

	return EVP_DigestInit_ex(mdctx, md, NULL) && EVP_DigestUpdate(mdctx, in, len) &&
	       EVP_DigestFinal_ex(mdctx, out, &ol);
}

int a_sha256(const uint8_t *in, size_t len, uint8_t *out) { return a_evp(EVP_sha256(), in, len, out); }
int a_sha512(const uint8_t *in, size_t len, uint8_t *out) { return a_evp(EVP_sha512(), in, len, out); }
int a_sha256_oneshot(const uint8_t *in, size_t len, uint8_t *out) { return SHA256(in, len, out) != NULL; }
int a_sha512_oneshot(const uint8_t *in, size_t len, uint8_t *out) { return SHA512(in, len, out) != NULL; }

int a_hmac(const uint8_t *in, size_t len, uint8_t *out)
{
	unsigned int ol;

	return HMAC_Init_ex(hctx, NULL, 0, NULL, NULL) && HMAC_Update(hctx, in, len) &&
	       HMAC_Final(hctx, out, &ol);
}

void a_blocks256(uint32_t *st, const uint8_t *in, size_t n) { sha256_block_data_order_hw(st, in, n); }
void a_blocks512(uint64_t *st, const uint8_t *in, size_t n) { sha512_block_data_order_avx(st, in, n); }
void a_blocks512n(uint64_t *st, const uint8_t *in, size_t n) { sha512_block_data_order_nohw(st, in, n); }
#endif

#ifdef SIDE_RIND
#define PEER_MAXS 200000
#include "peer-timing.h"
#include <rind/internal/alg.h>
/* The drivers whole, for their block functions; their registration left out. */
#undef module_init
#define module_init(fn) static int (*const __probe_##fn)(void) __attribute__((unused)) = fn
#include "../../arch/x86/sha256-shani.c"
#undef SCHED
#include "../../arch/x86/sha512-avx2.c"

int a_init(const uint8_t *key, size_t keylen);
int a_sha256(const uint8_t *in, size_t len, uint8_t *out);
int a_sha512(const uint8_t *in, size_t len, uint8_t *out);
int a_sha256_oneshot(const uint8_t *in, size_t len, uint8_t *out);
int a_sha512_oneshot(const uint8_t *in, size_t len, uint8_t *out);
int a_hmac(const uint8_t *in, size_t len, uint8_t *out);
void a_blocks256(uint32_t *st, const uint8_t *in, size_t n);
void a_blocks512(uint64_t *st, const uint8_t *in, size_t n);
void a_blocks512n(uint64_t *st, const uint8_t *in, size_t n);

static uint8_t in[MAXLEN] __attribute__((aligned(64)));
static uint8_t key[32];
static uint8_t out_r[64], out_a[64];
static struct shash_desc *d256, *d512, *dhmac;
static u32 st256[8];
static u64 st512[8];
static size_t cur_len;	/* the row's length (bytes, or blocks for the block rows) */

static int r_sha256(void) { return crypto_shash_digest(d256, in, (unsigned int)cur_len, out_r) == 0; }
static int x_sha256(void) { return a_sha256(in, cur_len, out_a); }
static int r_sha512(void) { return crypto_shash_digest(d512, in, (unsigned int)cur_len, out_r) == 0; }
static int x_sha512(void) { return a_sha512(in, cur_len, out_a); }
static int x_sha256_1(void) { return a_sha256_oneshot(in, cur_len, out_a); }
static int x_sha512_1(void) { return a_sha512_oneshot(in, cur_len, out_a); }
static int r_hmac(void) { return crypto_shash_digest(dhmac, in, (unsigned int)cur_len, out_r) == 0; }
static int x_hmac(void) { return a_hmac(in, cur_len, out_a); }
static int r_b256(void) { sha256_shani_block(st256, in, cur_len); return 1; }
static int x_b256(void) { a_blocks256(st256, in, cur_len); return 1; }
static int r_b512(void) { sha512_avx2_block(st512, in, cur_len); return 1; }
static int x_b512(void) { a_blocks512(st512, in, cur_len); return 1; }
static struct shash_desc *ddrv;
static int r_drv512(void) { return sha512_avx2_algs[1].digest(ddrv, in, (unsigned int)cur_len, out_r) == 0; }

static int x_b512n(void) { a_blocks512n(st512, in, cur_len); return 1; }

/*
 * Instruction latencies in TSC ticks: 1024 dependent ADDs (1 core cycle each
 * on Zen 3) give the TSC ticks per core cycle; 1024 dependent SHA256RNDS2
 * (each round pair needs the previous one's output) then give that
 * instruction's latency in core cycles -- the bound of any one-message
 * SHA-256 with SHA-NI: 32 of them per block.
 */
static u64 lat_sink;
static int r_add_chain(void)
{
	u64 x = lat_sink;

	for (int i = 0; i < 128; i++)
		__asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
				 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0" : "+r"(x));
	lat_sink = x;
	return 1;
}
static int r_rnds2_chain(void)
{
	__m128i a = _mm_set1_epi32((int)lat_sink), b = _mm_set1_epi32(3), k = _mm_set1_epi32(5);

	for (int i = 0; i < 128; i++)
		__asm__ volatile("sha256rnds2 %1, %0\n\tsha256rnds2 %0, %1\n\t"
				 "sha256rnds2 %1, %0\n\tsha256rnds2 %0, %1\n\t"
				 "sha256rnds2 %1, %0\n\tsha256rnds2 %0, %1\n\t"
				 "sha256rnds2 %1, %0\n\tsha256rnds2 %0, %1"
				 : "+x"(a), "+x"(b) : "Yz"(k));
	lat_sink = (u64)_mm_cvtsi128_si32(a);
	return 1;
}

static struct peer_samples sr, sa;

/* @calls pairs (at most PEER_MAXS), after 16 untimed calls of each */
static void row(const char *name, int (*fr)(void), int (*fa_)(void), int calls)
{
	peer_pair(fr, fa_, &sr, &sa, 16, 1, calls);
	peer_print("%-24s rind min %8.0f med %8.0f | aws-lc min %8.0f med %8.0f | aws/rind min %.3f med %.3f\n",
		   name, &sr, &sa, 1);
}

/* The least of 2000 samples of @f alone, per instruction of its 1024 */
static double latency(int (*f)(void))
{
	sr.k = 0;
	for (int i = 0; i < 2000; i++)
		peer_one(f, &sr);
	qsort(sr.tsc, sr.k, sizeof(double), peer_cmpd);
	return sr.tsc[0] / 1024;
}

static struct shash_desc *mk_desc(const char *alg, const u8 *k, unsigned int klen)
{
	struct crypto_shash *tfm = crypto_alloc_shash(alg, 0, 0);
	struct shash_desc *d;

	if (IS_ERR(tfm) || (k && crypto_shash_setkey(tfm, k, klen))) {
		fprintf(stderr, "%s: no tfm\n", alg);
		exit(1);
	}
	fprintf(stderr, "# %s: %s\n", alg, crypto_shash_driver_name(tfm));
	d = calloc(1, sizeof(*d) + crypto_shash_descsize(tfm));
	d->tfm = tfm;
	return d;
}

/* Both sides' outputs of a row agree (the block rows: from the same state). */
static void agree(const char *name, int (*fr)(void), int (*fa_)(void), size_t n)
{
	memset(out_r, 0, sizeof(out_r));
	memset(out_a, 0xff, sizeof(out_a));
	if (!fr() || !fa_() || memcmp(out_r, out_a, n)) {
		fprintf(stderr, "%s: outputs differ\n", name);
		exit(1);
	}
}

static void agree_blocks(void)
{
	u32 s1[8];
	u64 s2[8];

	for (int i = 0; i < 8; i++) {
		st256[i] = 0x01234567u * (u32)(i + 1);
		st512[i] = 0x0123456789abcdefull * (u64)(i + 1);
	}
	memcpy(s1, st256, sizeof(s1));
	memcpy(s2, st512, sizeof(s2));
	sha256_shani_block(st256, in, 21);
	a_blocks256(s1, in, 21);
	sha512_avx2_block(st512, in, 11);
	a_blocks512(s2, in, 11);
	if (memcmp(s1, st256, sizeof(s1)) || memcmp(s2, st512, sizeof(s2))) {
		fprintf(stderr, "block functions differ\n");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	int calls = argc > 1 ? atoi(argv[1]) : 20000;
	const char *only = argc > 2 ? argv[2] : "";
	static const size_t lens[3] = { 64, 1350, 16384 };
	static const char *const ln[3] = { "64B", "1350B", "16KiB" };
	char name[64];

	peer_alt_call = 1;	/* a row is one round: who goes first changes every pair */
	peer_fence = argc > 3 && !strcmp(argv[3], "fence");
	if (argc > 3 && !strcmp(argv[3], "batch"))
		peer_batch = 16;
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 31 + 7);
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 7 + 1);
	if (!a_init(key, sizeof(key)))
		return 1;
	d256 = mk_desc("sha256", NULL, 0);
	d512 = mk_desc("sha512", NULL, 0);
	dhmac = mk_desc("hmac(sha256)", key, sizeof(key));
	for (int i = 0; i < 3; i++) {
		cur_len = lens[i];
		agree("sha256", r_sha256, x_sha256, 32);
		agree("sha256 one-shot", r_sha256, x_sha256_1, 32);
		agree("sha512", r_sha512, x_sha512, 64);
		agree("sha512 one-shot", r_sha512, x_sha512_1, 64);
		agree("hmac", r_hmac, x_hmac, 32);
	}
	agree_blocks();

#define ROW(fmt, arg, r, a, n, c)						\
	do {									\
		snprintf(name, sizeof(name), fmt, arg);				\
		cur_len = (n);							\
		if (strstr(name, only))						\
			row(name, r, a, c);					\
	} while (0)
	for (int i = 0; i < 3; i++)
		ROW("SHA-256 %s", ln[i], r_sha256, x_sha256, lens[i], i == 2 ? calls / 8 : calls);
	for (int i = 0; i < 3; i++)
		ROW("SHA-512 %s", ln[i], r_sha512, x_sha512, lens[i], i == 2 ? calls / 8 : calls);
	for (int i = 0; i < 2; i++)
		ROW("HMAC-SHA256 %s", ln[i], r_hmac, x_hmac, lens[i], calls);
	for (int i = 0; i < 2; i++)
		ROW("SHA-256 %s [SHA256()]", ln[i], r_sha256, x_sha256_1, lens[i], calls);
	for (int i = 0; i < 2; i++)
		ROW("SHA-512 %s [SHA512()]", ln[i], r_sha512, x_sha512_1, lens[i], calls);
	ddrv = calloc(1, sizeof(*ddrv) + sizeof(struct sha512_state));
	ddrv->tfm = d512->tfm;
	for (int i = 0; i < 2; i++)
		ROW("SHA-512 %s [driver's digest]", ln[i], r_drv512, x_sha512, lens[i], calls);
	ROW("sha256 blocks x%d", 1, r_b256, x_b256, 1, calls);
	ROW("sha256 blocks x%d", 21, r_b256, x_b256, 21, calls);
	ROW("sha256 blocks x%d", 256, r_b256, x_b256, 256, calls / 8);
	ROW("sha512 blocks x%d", 1, r_b512, x_b512, 1, calls);
	ROW("sha512 blocks x%d", 2, r_b512, x_b512, 2, calls);
	ROW("sha512 blocks x%d", 11, r_b512, x_b512, 11, calls);
	ROW("sha512 blocks x%d", 128, r_b512, x_b512, 128, calls / 8);
	ROW("sha512 blocks x%d [nohw]", 1, r_b512, x_b512n, 1, calls);
	ROW("sha512 blocks x%d [nohw]", 11, r_b512, x_b512n, 11, calls);
	ROW("sha512 blocks x%d [nohw]", 128, r_b512, x_b512n, 128, calls / 8);
	if (strstr("latency", only) || !*only) {
		double add = latency(r_add_chain), rn = latency(r_rnds2_chain);

		printf("latency: add %.3f TSC (core cycles per TSC tick %.3f); sha256rnds2 %.2f TSC = %.2f core cycles;"
		       " 32 per block = %.0f TSC per block\n", add, 1 / add, rn, rn / add, 32 * rn);
	}
	return 0;
}
#endif
