/* SPDX-License-Identifier: MIT */
/*
 * The timing the *-peer probes share (rind's side of each, SIDE_RIND):
 * every call timed by rdtsc and by on-CPU time (the TSC window holds only
 * the call), rind's and aws-lc's calls interleaved with odd rounds running
 * aws-lc first, so that frequency drift and the other helpers' load fall
 * on both alike; then each side's samples sorted for minimum and median.
 * A probe defines PEER_MAXS, the samples it keeps per side, first.
 *
 * peer_alt_call, peer_fence and peer_batch change how a probe samples (all
 * off by default): see peer_one and peer_pair.  peer_print prints the row
 * of minima and medians the curve and hash probes share.
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

/*
 * peer_alt_call: within a round, who goes first changes every pair rather
 * than every round.  peer_fence: LFENCE on both sides of the timed call, so
 * that its TSC window holds its own latency and not the tail of the call
 * before it (the other library's).  peer_batch: one sample is that many
 * calls in a row, counted per call, as a harness's timing loops run.
 */
static int peer_alt_call, peer_fence, peer_batch = 1;

/* One timed sample; a probe's op returns 0 when it failed, which ends the run. */
static void peer_one(int (*f)(void), struct peer_samples *s)
{
	double c0 = peer_cpu_ns();
	unsigned long long t0;
	int i;

	if (peer_fence)
		_mm_lfence();
	t0 = __rdtsc();
	if (peer_fence)
		_mm_lfence();
	for (i = 0; i < peer_batch; i++) {
		if (!f()) {
			fprintf(stderr, "op failed\n");
			exit(1);
		}
	}
	if (peer_fence)
		_mm_lfence();
	s->tsc[s->k] = (double)(__rdtsc() - t0) / peer_batch;
	s->cpu[s->k] = (peer_cpu_ns() - c0) / peer_batch;
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
			if ((peer_alt_call ? j : i) & 1) {
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

/*
 * A row of sorted samples: @name, each side's TSC minimum and median per
 * @div, and aws-lc's over rind's (> 1: rind faster), through @fmt (the
 * probe's own widths: a string and six numbers).
 */
static inline void peer_print(const char *fmt, const char *name, const struct peer_samples *sr,
			      const struct peer_samples *sa, double div)
{
	double mr = sr->tsc[0] / div, dr = sr->tsc[sr->k / 2] / div;
	double ma = sa->tsc[0] / div, da = sa->tsc[sa->k / 2] / div;

	printf(fmt, name, mr, dr, ma, da, ma / mr, da / dr);
	fflush(stdout);
}

#endif
