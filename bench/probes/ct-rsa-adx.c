// SPDX-License-Identifier: MIT
/*
 * Constant-time probe for the ADX RSA engine under valgrind memcheck (not
 * built by make).  `make ct` signs through the registry, and under
 * valgrind 3.19 (whose CPUID hides ADX) that is the generic engine, so
 * this calls arch/x86's engine and kernels directly: modulus, m0inv, R^2,
 * R, base, second operand and exponent all marked undefined (secret), at
 * 16, 24, 32 and 64 limbs (RSA-2048/3072/4096's CRT halves, RSA-4096's
 * modulus): exp_ct, the engine's mont_mul and exp_pub, bnx_mont_sqr,
 * bnx_mont_sqrk and bnx_mont_mul.  Any branch or address on them is a
 * memcheck error (CMOV and the flags are not: memcheck propagates them).
 * --leaky plants a branch on a result, which must be caught.
 *
 *   make O=build/ct CFLAGS="-O2 -g -DRIND_VALGRIND" build/ct/librind-internal.a
 *   cc -O2 -g -Iapi/include -I. -o /tmp/ct-rsa-adx bench/probes/ct-rsa-adx.c \
 *      build/ct/librind-internal.a -pthread
 *   export RIND_CT_ASSUME=adx
 *   valgrind -q --error-exitcode=1 /tmp/ct-rsa-adx && \
 *   ! valgrind -q --error-exitcode=1 /tmp/ct-rsa-adx --leaky 2>/dev/null
 */
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include <rind/crypto.h>
#include <rind/sig.h>
#include <crypto/bignum.h>
#include <crypto/rsa.h>
#include "arch/x86/bn-adx.h"

static volatile int sink;

int main(int argc, char **argv)
{
	static struct bn_mont mc;
	static struct bnx_tmp tmp;
	static u64 m[BN_MAX_LIMBS], a[BN_MAX_LIMBS], b[BN_MAX_LIMBS], e[BN_MAX_LIMBS];
	static u64 r[BN_MAX_LIMBS];
	static const unsigned int sizes[] = { 16, 24, 32, 64 };
	int leaky = argc > 1 && !strcmp(argv[1], "--leaky");
	unsigned long before = VALGRIND_COUNT_ERRORS;
	unsigned int k, i;

	/*
	 * The registry's first use runs the module inits: rsa-adx's sets its
	 * AVX2 flag there, so the table scans below are the VPBLENDVB ones
	 * (with RIND_CT_ASSUME=adx in a -DRIND_VALGRIND build, as make ct).
	 */
	if (!crypto_has_sig("pkcs1(rsa,sha256)", 0, 0))
		return 3;
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		unsigned int n = sizes[k];
		u64 x = 0x9e3779b97f4a7c15ull;

		for (i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			m[i] = x;
			e[i] = x * 3;
			a[i] = x >> 3;
			b[i] = x >> 5;
		}
		m[0] |= 1;
		m[n - 1] |= (u64)1 << 63;
		if (bn_mont_init(&mc, m, n))
			return 2;
		VALGRIND_MAKE_MEM_UNDEFINED(a, n * 8);
		VALGRIND_MAKE_MEM_UNDEFINED(b, n * 8);
		VALGRIND_MAKE_MEM_UNDEFINED(e, n * 8);
		VALGRIND_MAKE_MEM_UNDEFINED(mc.m, n * 8);
		VALGRIND_MAKE_MEM_UNDEFINED(&mc.m0inv, 8);
		VALGRIND_MAKE_MEM_UNDEFINED(mc.rr, n * 8);
		VALGRIND_MAKE_MEM_UNDEFINED(mc.one, n * 8);
		rsa_engine_adx.exp_ct(r, a, e, n, &mc);
		rsa_engine_adx.mont_mul(r, a, b, &mc);
		rsa_engine_adx.exp_pub(r, r, 65537, &mc);
		bnx_mont_sqr(r, r, &mc, &tmp);
		bnx_mont_sqrk(r, r, 5, &mc, &tmp);
		bnx_mont_mul(r, r, b, &mc, &tmp);
		if (leaky && (r[0] & 1))
			sink++;
		VALGRIND_MAKE_MEM_DEFINED(r, n * 8);
	}
	printf("ct-rsa-adx: %lu memcheck errors%s\n", VALGRIND_COUNT_ERRORS - before,
	       leaky ? " (a planted branch: expected)" : "");
	return VALGRIND_COUNT_ERRORS != before;
}
