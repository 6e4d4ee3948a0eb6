/* SPDX-License-Identifier: MIT */
/*
 * The timing the *-peer probes share (rind's side of each, SIDE_RIND):
 * every call timed by rdtsc and by on-CPU time (the TSC window holds only
 * the call), rind's and aws-lc's calls interleaved with odd rounds running
 * aws-lc first, so that frequency drift and the other helpers' load fall
 * on both alike; then each side's samples sorted for minimum and median.
 * A probe defines PEER_MAXS, the samples it keeps per side, first.
 */
#ifndef RIND_PEER_TIMING_H
#define RIND_PEER_TIMING_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

struct peer_samples {
	double tsc[PEER_MAXS], cpu[PEER_MAXS];	/* cycles, ns; sorted after peer_pair */
	int k;
};

static double peer_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int peer_cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One timed call; a probe's op returns 0 when it failed, which ends the run. */
static void peer_one(int (*f)(void), struct peer_samples *s)
{
	double c0 = peer_cpu_ns();
	unsigned long long t0 = __rdtsc();

	if (!f()) {
		fprintf(stderr, "op failed\n");
		exit(1);
	}
	s->tsc[s->k] = (double)(__rdtsc() - t0);
	s->cpu[s->k] = peer_cpu_ns() - c0;
	s->k++;
}

/*
 * @warm untimed calls of each, then @rounds rounds of @per timed pairs
 * (at most PEER_MAXS), into @sr (rind's @fr) and @sa (aws-lc's @fa), sorted.
 */
static void peer_pair(int (*fr)(void), int (*fa)(void), struct peer_samples *sr,
		      struct peer_samples *sa, int warm, int rounds, int per)
{
	int i, j;

	sr->k = sa->k = 0;
	for (i = 0; i < warm; i++) {
		fr();
		fa();
	}
	for (i = 0; i < rounds; i++)
		for (j = 0; j < per && sr->k < PEER_MAXS; j++) {
			if (i & 1) {
				peer_one(fa, sa);
				peer_one(fr, sr);
			} else {
				peer_one(fr, sr);
				peer_one(fa, sa);
			}
		}
	qsort(sr->tsc, sr->k, sizeof(double), peer_cmpd);
	qsort(sa->tsc, sa->k, sizeof(double), peer_cmpd);
	qsort(sr->cpu, sr->k, sizeof(double), peer_cmpd);
	qsort(sa->cpu, sa->k, sizeof(double), peer_cmpd);
}

#endif
