// SPDX-License-Identifier: MIT
/*
 * Measuring probe (not built by make): the pieces of an RSA signature on
 * the ADX engine, TSC cycles (rdtsc around each call; minimum and median
 * of many, the pieces interleaved so the host's load falls on all alike).
 * Rows at 16, 24 and 32 limbs (RSA-2048/3072/4096's CRT halves) and the
 * whole moduli's 32/48/64: one Montgomery squaring (bnx_sqr<n>k_adx with
 * k = 5, over 5), one multiplication, a whole exp_ct (and the share of it
 * its counted products would take at those minima), and loops of MULX/ADCX/ADOX rows and of MULX alone (the bounds:
 * TSC a product), with the TSC's rate over the core's (a chain of ADDs).
 *
 *   cc -O2 -Iapi/include -I. -o /tmp/rsa-kern bench/probes/rsa-kern.c \
 *      build/librind-internal.a -pthread
 *   taskset -c 1 /tmp/rsa-kern [reps]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>
#include <rind/crypto.h>
#include <rind/sig.h>
#include <crypto/bignum.h>
#include <crypto/rsa.h>
#include "arch/x86/bn-adx.h"

#define MAXS 4000

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* n products: MULX, ADCX, ADOX on registers alone, 8 a row. */
static void mulx_loop(unsigned long rows)
{
	static const u64 ops[8] = { 3, 5, 7, 11, 13, 17, 19, 23 };

	__asm__ volatile(
		"1:\n\t"
		"xorl %%eax, %%eax\n\t"
		"mulxq 0(%2), %%rax, %%rbx\n\t adcxq %%rax, %%r9\n\t adoxq %%rbx, %%r10\n\t"
		"mulxq 8(%2), %%rax, %%rbx\n\t adcxq %%rax, %%r10\n\t adoxq %%rbx, %%r11\n\t"
		"mulxq 16(%2), %%rax, %%rbx\n\t adcxq %%rax, %%r11\n\t adoxq %%rbx, %%r12\n\t"
		"mulxq 24(%2), %%rax, %%rbx\n\t adcxq %%rax, %%r12\n\t adoxq %%rbx, %%r13\n\t"
		"mulxq 32(%2), %%rax, %%rbx\n\t adcxq %%rax, %%r13\n\t adoxq %%rbx, %%r14\n\t"
		"mulxq 40(%2), %%rax, %%rbx\n\t adcxq %%rax, %%r14\n\t adoxq %%rbx, %%r15\n\t"
		"mulxq 48(%2), %%rax, %%rbx\n\t adcxq %%rax, %%r15\n\t adoxq %%rbx, %%r8\n\t"
		"mulxq 56(%2), %%rax, %%rbx\n\t adcxq %%rax, %%r8\n\t adoxq %%rbx, %%r9\n\t"
		"decq %0\n\t jnz 1b"
		: "+r"(rows) : "d"(0x9e3779b97f4a7c15ull), "r"(ops)
		: "rax", "rbx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "cc");
}

/* 10000 dependent ADDs: one core cycle each (the TSC's rate over the core's). */
static double tsc_per_core_cycle(void)
{
	unsigned long long best = ~0ull, t0;
	int it;

	for (it = 0; it < 500; it++) {
		unsigned long x = 1, k = 1000;

		t0 = __rdtsc();
		__asm__ volatile("1:\n\t.rept 10\n\taddq $1, %0\n\t.endr\n\tdecq %1\n\tjnz 1b"
				 : "+r"(x), "+r"(k) : : "cc");
		t0 = __rdtsc() - t0;
		if (t0 < best)
			best = t0;
	}
	return best / 10000.0;
}

/* 8 MULX a row from memory, nothing else: the multiplier alone. */
static void mulx_only(unsigned long rows)
{
	static const u64 ops[8] = { 3, 5, 7, 11, 13, 17, 19, 23 };

	__asm__ volatile(
		"1:\n\t"
		".irp o, 0, 8, 16, 24, 32, 40, 48, 56\n\t"
		"mulxq \\o(%2), %%rax, %%rbx\n\t"
		".endr\n\t"
		"decq %0\n\t jnz 1b"
		: "+r"(rows) : "d"(0x9e3779b97f4a7c15ull), "r"(ops) : "rax", "rbx", "cc");
}

struct piece {
	const char *name;
	double per;		/* divide each sample by this */
	double s[MAXS];
	int k;
};

int main(int argc, char **argv)
{
	static const unsigned int sizes[] = { 16, 24, 32, 48, 64 };
	static struct bn_mont mc;
	static struct bnx_tmp tmp;
	static u64 m[BN_MAX_LIMBS], a[BN_MAX_LIMBS], b[BN_MAX_LIMBS], e[BN_MAX_LIMBS];
	static u64 r[BN_MAX_LIMBS];
	static struct piece pc[4];
	int reps = argc > 1 ? atoi(argv[1]) : 1000, it, z;
	unsigned int si, i;

	if (reps > MAXS)
		reps = MAXS;
	if (!crypto_has_sig("pkcs1(rsa,sha256)", 0, 0))	/* module inits (AVX2 flag) */
		return 3;
	{
		unsigned long long t0, best = ~0ull;

		for (it = 0; it < 200; it++) {
			t0 = __rdtsc();
			mulx_loop(128);
			t0 = __rdtsc() - t0;
			if (t0 < best)
				best = t0;
		}
		printf("MULX/ADCX/ADOX rows (the kernels' pattern, no loads of t): %.3f TSC a"
		       " product (min)\n", best / 1024.0);
		best = ~0ull;
		for (it = 0; it < 200; it++) {
			t0 = __rdtsc();
			mulx_only(128);
			t0 = __rdtsc() - t0;
			if (t0 < best)
				best = t0;
		}
		printf("MULX alone: %.3f TSC a product (min); TSC per core cycle %.3f\n",
		       best / 1024.0, tsc_per_core_cycle());
	}
	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		unsigned int n = sizes[si];
		u64 x = 0x9e3779b97f4a7c15ull + n;

		for (i = 0; i < n; i++) {
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			m[i] = x; a[i] = x * 5 >> 2; b[i] = x * 7 >> 2; e[i] = x * 3;
		}
		m[0] |= 1;
		m[n - 1] |= 1ull << 63;
		if (bn_mont_init(&mc, m, n))
			return 4;
		pc[0].name = "sqr"; pc[0].per = 5;
		pc[1].name = "mul"; pc[1].per = 1;
		pc[2].name = "exp_ct"; pc[2].per = 1;
		for (z = 0; z < 3; z++)
			pc[z].k = 0;
		for (it = 0; it < reps; it++) {
			unsigned long long t0;

			t0 = __rdtsc();
			bnx_mont_sqrk(r, a, 5, &mc, &tmp);
			pc[0].s[pc[0].k++] = (double)(__rdtsc() - t0) / 5;
			t0 = __rdtsc();
			bnx_mont_mul(r, a, b, &mc, &tmp);
			pc[1].s[pc[1].k++] = (double)(__rdtsc() - t0);
			if (n <= 32 && it % 20 == 0) {
				t0 = __rdtsc();
				rsa_engine_adx.exp_ct(r, a, e, n, &mc);
				pc[2].s[pc[2].k++] = (double)(__rdtsc() - t0);
			}
		}
		for (z = 0; z < 3; z++)
			qsort(pc[z].s, pc[z].k, sizeof(double), cmpd);
		{
			double prods_sq = n * (n - 1) / 2.0 + n + (double)n * n;
			double prods_mul = 2.0 * n * n;

			printf("n=%2u sqr min %6.0f med %6.0f (%.3f/product) | mul min %6.0f med %6.0f"
			       " (%.3f/product)", n, pc[0].s[0], pc[0].s[pc[0].k / 2],
			       pc[0].s[0] / prods_sq, pc[1].s[0], pc[1].s[pc[1].k / 2],
			       pc[1].s[0] / prods_mul);
			if (pc[2].k) {
				unsigned int bits = 64 * n, w = (bits + 4) / 5;
				double prod = bits * pc[0].s[0] + (w - 1 + 30) * pc[1].s[0];

				printf(" | exp_ct min %8.0f med %8.0f, products %.0f (%.1f%%)",
				       pc[2].s[0], pc[2].s[pc[2].k / 2], prod,
				       100.0 * prod / pc[2].s[0]);
			}
			printf("\n");
		}
	}
	return 0;
}
