// SPDX-License-Identifier: MIT
/*
 * Measuring probe (not built by make, nothing in the library links it):
 * what the X25519 ladder's step is made of on this CPU.  The field
 * operations of arch/x86/fe25519-mulx-asm.h in loops
 * (fe25519-mulx-ops.S): FE_MUL and FE_SQR as one dependent chain
 * (latency) and as two independent chains side by side (throughput, what
 * the ladder's step can reach at best), a product's four MULX rows
 * without the reduction, and FE_ADD + FE_SUB; then the ladder itself
 * (curve25519_ladder_mulx, 252 full steps and 3 doublings) per step.
 *
 *   cc -c -Iarch/x86 -o /tmp/feops-s.o bench/probes/fe25519-mulx-ops.S
 *   cc -O2 -Iapi/include -o /tmp/feops bench/probes/fe25519-mulx-ops.c \
 *      /tmp/feops-s.o build/librind-internal.a -pthread
 *   /tmp/feops [rounds]
 *
 * Per row: TSC minimum and median of one operation (rdtsc around 100 of
 * them, peer-timing.h's sampling; rind only, so the side "B" is unused).
 *
 * Measured 2026-12-02 07:30 UTC on the AMD EPYC (Zen 3) VM, load ~10 on
 * 2 CPUs, TSC minima: FE_MUL 39.2 chained / 29.4 side by side, FE_SQR
 * 32.3 / 23.4, the product rows alone 18-19 of the 29.4, FE_ADD + FE_SUB
 * ~9; the ladder 63.5-65.7k, ~252 per step against 5 x 29.4 + 4 x 23.4 =
 * 241 for its products and squarings at their throughput: the step runs
 * at the throughput of its field operations, and the reductions (four
 * MULX by 38 and a fold each) are ~27% of the ladder (63.5k -> 48.8k with
 * FE_REDUCE and REDUCE_LO_MEM reduced to their stores, timed in one
 * process).
 */
#define PEER_MAXS 40000
#include "peer-timing.h"
#include <stdint.h>
#include <string.h>

typedef uint64_t u64;
typedef uint8_t u8;

void fe_ops_mul_chain(const u64 *buf, long n);
void fe_ops_mul_x2(const u64 *buf, long n);
void fe_ops_sqr_chain(const u64 *buf, long n);
void fe_ops_sqr_x2(const u64 *buf, long n);
void fe_ops_rows_x2(const u64 *buf, long n);
void fe_ops_add_sub(const u64 *buf, long n);
void curve25519_ladder_mulx(u64 xz[8], const u8 k[32], const u64 x1[4]);

#define N 100

static const u64 seed[4] = { 0x1234567890abcdefull, 0x0fedcba987654321ull,
			     0x5555aaaa5555aaaaull, 0x3fffffff12345678ull };
static u8 k[32];
static u64 xz[8];

static int mul_chain(void) { fe_ops_mul_chain(seed, N); return 1; }
static int mul_x2(void) { fe_ops_mul_x2(seed, N); return 1; }
static int sqr_chain(void) { fe_ops_sqr_chain(seed, N); return 1; }
static int sqr_x2(void) { fe_ops_sqr_x2(seed, N); return 1; }
static int rows_x2(void) { fe_ops_rows_x2(seed, N); return 1; }
static int add_sub(void) { fe_ops_add_sub(seed, N); return 1; }
static int ladder(void) { curve25519_ladder_mulx(xz, k, seed); return 1; }
static int nothing(void) { return 1; }

static struct peer_samples sr, sn;

static void row(const char *name, int (*f)(void), int rounds, int per, double div)
{
	peer_pair(f, nothing, &sr, &sn, 3, rounds, per);
	printf("%-24s min %8.1f med %8.1f TSC\n", name, sr.tsc[0] / div, sr.tsc[sr.k / 2] / div);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 100;
	unsigned int i;

	for (i = 0; i < 32; i++)
		k[i] = (u8)(i * 29 + 7);
	k[0] &= 248;
	k[31] = (u8)((k[31] & 127) | 64);
	row("FE_MUL chained", mul_chain, rounds, 20, N);
	row("FE_MUL side by side", mul_x2, rounds, 20, 2 * N);
	row("FE_SQR chained", sqr_chain, rounds, 20, N);
	row("FE_SQR side by side", sqr_x2, rounds, 20, 2 * N);
	row("product rows, no reduce", rows_x2, rounds, 20, 2 * N);
	row("FE_ADD + FE_SUB", add_sub, rounds, 20, N);
	row("ladder", ladder, rounds / 4 + 1, 10, 1);
	row("ladder per step", ladder, rounds / 4 + 1, 10, 255);
	return 0;
}
