// SPDX-License-Identifier: MIT
/*
 * Measuring probe (not built by make, nothing in the library links it):
 * the x86 P-256 and P-384 drivers' field inversions alone
 * (p256x_fp_inv / p384x_fp_inv: ecc-inv.h's ecc_by_inv_with around
 * ecc-divsteps-x86.h's batch), TSC minimum and median per call.  The
 * driver is included whole so that its static inversion can be timed;
 * -DCURVE=256 or 384 picks which:
 *
 *   cc -O2 -DCURVE=384 -D_GNU_SOURCE -Iapi/include -Iarch/x86 -c \
 *      -o /tmp/inv384.o bench/probes/ecc-inv-x86.c
 *   cc -o /tmp/inv384 /tmp/inv384.o build/librind-internal.a -pthread
 *   /tmp/inv384 [rounds]
 *
 * Each timed call inverts the previous result (a data-dependent chain of
 * varying inputs); a check first inverts twice and compares.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#if CURVE == 384
#define ecc_p384_adx probe_ecc_p384_adx
#define ecc_p384_adx_mod_init probe_ecc_p384_adx_mod_init
#define p384x_field_test probe_p384x_field_test
#define p384x_jac_dbl_test probe_p384x_jac_dbl_test
#define p384x_jac_add_affine_test probe_p384x_jac_add_affine_test
#include "../../arch/x86/ecc-p384-adx.c"
#define NW 6
#define INV p384x_fp_inv
#else
#define ecc_p256_adx probe_ecc_p256_adx
#define ecc_p256_adx_mod_init probe_ecc_p256_adx_mod_init
#define p256x_field_test probe_p256x_field_test
#define p256x_jac_dbl_test probe_p256x_jac_dbl_test
#define p256x_jac_dbln_test probe_p256x_jac_dbln_test
#define p256x_jac_add_test probe_p256x_jac_add_test
#define p256x_jac_add_affine_test probe_p256x_jac_add_affine_test
#include "../../arch/x86/ecc-p256-adx.c"
#define NW 4
#define INV p256x_fp_inv
#endif

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20000;
	double *ts = malloc(sizeof(double) * (size_t)rounds);
	u64 a[NW], b[NW];
	unsigned int aux;
	int i;

	if (!ts)
		return 1;
	for (i = 0; i < NW; i++)
		a[i] = 0x0123456789abcdefull * (u64)(i + 3);
	a[NW - 1] >>= 4;
	INV(b, a);
	INV(b, b);
	if (memcmp(a, b, sizeof(a))) {
		fprintf(stderr, "inv(inv(a)) != a\n");
		return 1;
	}
	for (i = 0; i < rounds; i++) {
		u64 t0 = __rdtscp(&aux);

		INV(b, a);
		ts[i] = (double)(__rdtscp(&aux) - t0);
		memcpy(a, b, sizeof(a));
		a[0] ^= (u64)i;		/* vary the input */
	}
	qsort(ts, (size_t)rounds, sizeof(double), cmpd);
	printf("P-%d fp inv: TSC min %.0f median %.0f (%d calls)\n", CURVE, ts[0],
	       ts[rounds / 2], rounds);
	free(ts);
	return 0;
}
