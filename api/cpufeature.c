// SPDX-License-Identifier: MIT
/*
 * CPU feature detection.  x86-64: CPUID, with XGETBV to confirm the OS
 * saves YMM/ZMM state (a CPU bit alone does not make AVX usable).  arm64:
 * AT_HWCAP/AT_HWCAP2, plus ID_AA64PFR0_EL1 for DIT, which qemu's user mode
 * emulates without advertising HWCAP_DIT.
 *
 * RIND_DISABLE=name,name,... (or "all"; "avx512" names every AVX-512
 * feature) masks features before any
 * implementation registers, so every code path can be exercised on one
 * machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rind/internal/alg.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif
#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

static const char *const feature_names[RIND_CPU_NFEATURES] = {
	[RIND_X86_SSSE3] = "ssse3",
	[RIND_X86_SSE41] = "sse4_1",
	[RIND_X86_AVX] = "avx",
	[RIND_X86_AVX2] = "avx2",
	[RIND_X86_BMI1] = "bmi1",
	[RIND_X86_BMI2] = "bmi2",
	[RIND_X86_ADX] = "adx",
	[RIND_X86_AESNI] = "aesni",
	[RIND_X86_PCLMULQDQ] = "pclmulqdq",
	[RIND_X86_SHANI] = "shani",
	[RIND_X86_VAES] = "vaes",
	[RIND_X86_VPCLMULQDQ] = "vpclmulqdq",
	[RIND_X86_AVX512F] = "avx512f",
	[RIND_X86_AVX512VL] = "avx512vl",
	[RIND_X86_AVX512BW] = "avx512bw",
	[RIND_X86_AVX512DQ] = "avx512dq",
	[RIND_X86_AVX512IFMA] = "avx512ifma",
	[RIND_X86_AVX512VBMI] = "avx512vbmi",
	[RIND_X86_GFNI] = "gfni",
	[RIND_ARM64_ASIMD] = "asimd",
	[RIND_ARM64_AES] = "aes",
	[RIND_ARM64_PMULL] = "pmull",
	[RIND_ARM64_SHA1] = "sha1",
	[RIND_ARM64_SHA2] = "sha2",
	[RIND_ARM64_SHA3] = "sha3",
	[RIND_ARM64_SHA512] = "sha512",
	[RIND_ARM64_DIT] = "dit",
};

static bool cpu_present[RIND_CPU_NFEATURES];
static bool cpu_masked[RIND_CPU_NFEATURES];
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;

#if defined(__x86_64__)
static u64 xgetbv0(void)
{
	u32 lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((u64)hi << 32) | lo;
}

static void detect(void)
{
	unsigned int a, b, d, max;
	unsigned int c1, d1, b7 = 0, c7 = 0;
	bool osxsave, ymm = false, zmm = false;

	max = __get_cpuid_max(0, NULL);
	if (max < 1)
		return;
	__cpuid(1, a, b, c1, d1);
	(void)d1;
	if (max >= 7)
		__cpuid_count(7, 0, a, b7, c7, d);
	osxsave = c1 & (1u << 27);
	if (osxsave) {
		u64 xcr0 = xgetbv0();

		ymm = (xcr0 & 0x6) == 0x6;		/* XMM | YMM */
		zmm = ymm && (xcr0 & 0xe0) == 0xe0;	/* opmask | ZMM_Hi256 | Hi16_ZMM */
	}
	cpu_present[RIND_X86_SSSE3] = c1 & (1u << 9);
	cpu_present[RIND_X86_SSE41] = c1 & (1u << 19);
	cpu_present[RIND_X86_AESNI] = c1 & (1u << 25);
	cpu_present[RIND_X86_PCLMULQDQ] = c1 & (1u << 1);
	cpu_present[RIND_X86_AVX] = ymm && (c1 & (1u << 28));
	cpu_present[RIND_X86_AVX2] = cpu_present[RIND_X86_AVX] && (b7 & (1u << 5));
	cpu_present[RIND_X86_BMI1] = b7 & (1u << 3);
	cpu_present[RIND_X86_BMI2] = b7 & (1u << 8);
	cpu_present[RIND_X86_ADX] = b7 & (1u << 19);
	cpu_present[RIND_X86_SHANI] = b7 & (1u << 29);
	/* VEX/EVEX-encoded AES and CLMUL need the OS to save YMM at least. */
	cpu_present[RIND_X86_VAES] = cpu_present[RIND_X86_AVX] && (c7 & (1u << 9));
	cpu_present[RIND_X86_VPCLMULQDQ] = cpu_present[RIND_X86_AVX] && (c7 & (1u << 10));
	cpu_present[RIND_X86_GFNI] = c7 & (1u << 8);
	cpu_present[RIND_X86_AVX512F] = zmm && (b7 & (1u << 16));
	cpu_present[RIND_X86_AVX512DQ] = zmm && (b7 & (1u << 17));
	cpu_present[RIND_X86_AVX512IFMA] = zmm && (b7 & (1u << 21));
	cpu_present[RIND_X86_AVX512BW] = zmm && (b7 & (1u << 30));
	cpu_present[RIND_X86_AVX512VL] = zmm && (b7 & (1u << 31));
	cpu_present[RIND_X86_AVX512VBMI] = zmm && (c7 & (1u << 1));
}
#elif defined(__aarch64__)
#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD	(1 << 1)
#endif
#ifndef HWCAP_AES
#define HWCAP_AES	(1 << 3)
#endif
#ifndef HWCAP_PMULL
#define HWCAP_PMULL	(1 << 4)
#endif
#ifndef HWCAP_SHA1
#define HWCAP_SHA1	(1 << 5)
#endif
#ifndef HWCAP_SHA2
#define HWCAP_SHA2	(1 << 6)
#endif
#ifndef HWCAP_CPUID
#define HWCAP_CPUID	(1 << 11)
#endif
#ifndef HWCAP_SHA3
#define HWCAP_SHA3	(1 << 17)
#endif
#ifndef HWCAP_SHA512
#define HWCAP_SHA512	(1 << 21)
#endif
#ifndef HWCAP_DIT
#define HWCAP_DIT	(1 << 24)
#endif

static void detect(void)
{
	unsigned long hw = getauxval(AT_HWCAP);

	cpu_present[RIND_ARM64_ASIMD] = hw & HWCAP_ASIMD;
	cpu_present[RIND_ARM64_AES] = hw & HWCAP_AES;
	cpu_present[RIND_ARM64_PMULL] = hw & HWCAP_PMULL;
	cpu_present[RIND_ARM64_SHA1] = hw & HWCAP_SHA1;
	cpu_present[RIND_ARM64_SHA2] = hw & HWCAP_SHA2;
	cpu_present[RIND_ARM64_SHA3] = hw & HWCAP_SHA3;
	cpu_present[RIND_ARM64_SHA512] = hw & HWCAP_SHA512;
	cpu_present[RIND_ARM64_DIT] = hw & HWCAP_DIT;
	/*
	 * The kernel traps and emulates MRS of ID registers when HWCAP_CPUID
	 * is set (and qemu-user answers them): ID_AA64PFR0_EL1.DIT, bits
	 * [51:48], is non-zero where DIT exists.
	 */
	if (!cpu_present[RIND_ARM64_DIT] && (hw & HWCAP_CPUID)) {
		u64 pfr0;

		__asm__ volatile("mrs %0, ID_AA64PFR0_EL1" : "=r"(pfr0));
		cpu_present[RIND_ARM64_DIT] = ((pfr0 >> 48) & 0xf) != 0;
	}
}
#else
static void detect(void)
{
}
#endif

static void apply_disable(void)
{
	const char *env = getenv("RIND_DISABLE");
	char buf[512], *tok, *save;
	int i;

	if (!env || !*env)
		return;
	snprintf(buf, sizeof(buf), "%s", env);
	for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		bool found = false;

		for (i = 0; i < RIND_CPU_NFEATURES; i++) {
			/* "avx512": every AVX-512 feature (avx512f, avx512ifma, ...) */
			if (!strcmp(tok, "all") || !strcmp(tok, feature_names[i]) ||
			    (!strcmp(tok, "avx512") && feature_names[i] &&
			     !strncmp(feature_names[i], "avx512", 6))) {
				cpu_masked[i] = true;
				found = true;
			}
		}
		if (!found)
			fprintf(stderr, "rind: RIND_DISABLE: unknown CPU feature '%s' ignored\n", tok);
	}
}

#ifdef RIND_VALGRIND
/*
 * The constant-time checking build only (make ct, -DRIND_VALGRIND):
 * valgrind's synthetic CPUID clears ADX (3.19), although it executes
 * ADCX/ADOX, so memcheck would never see the MULX/ADX drivers (P-256,
 * P-384, P-521, RSA, X25519, Ed25519).  RIND_CT_ASSUME=adx takes ADX as
 * present when BMI2 is; the Makefile sets it only where the host's
 * /proc/cpuinfo says adx.  Only ADX: valgrind cannot run the other
 * instructions it hides (SHA-NI, VAES, VPCLMULQDQ).  A normal build
 * never trusts the environment to enable a feature.
 */
static void apply_ct_assume(void)
{
	const char *env = getenv("RIND_CT_ASSUME");

	if (env && !strcmp(env, "adx") && cpu_present[RIND_X86_BMI2])
		cpu_present[RIND_X86_ADX] = true;
}
#else
static void apply_ct_assume(void)
{
}
#endif

#if defined(RIND_AVX512_EMU) && defined(__x86_64__)
/*
 * The AVX-512 emulation build only (make check-avx512-emu,
 * -DRIND_AVX512_EMU): its AVX-512 drivers are compiled over the plain C
 * intrinsics of tests/emu/avx512-emu.h, which need AVX2, AES-NI and
 * PCLMULQDQ of the host and nothing more.  RIND_EMU_ASSUME=avx512 takes
 * AVX512F/VL/BW/DQ/IFMA/VBMI as present where the host has those, so that
 * the drivers register and the suites walk them.  VAES and VPCLMULQDQ
 * also name the real 256-bit instructions of gcm-vaes-avx2.c, compiled
 * natively in this build too: they are taken as present only where the
 * host has them.  RIND_DISABLE still masks afterwards.  A normal build
 * never trusts the environment to enable a feature.
 */
static void apply_emu_assume(void)
{
	const char *env = getenv("RIND_EMU_ASSUME");

	if (!env || strcmp(env, "avx512") || !cpu_present[RIND_X86_AVX2] ||
	    !cpu_present[RIND_X86_AESNI] || !cpu_present[RIND_X86_PCLMULQDQ])
		return;
	cpu_present[RIND_X86_AVX512F] = true;
	cpu_present[RIND_X86_AVX512VL] = true;
	cpu_present[RIND_X86_AVX512BW] = true;
	cpu_present[RIND_X86_AVX512DQ] = true;
	cpu_present[RIND_X86_AVX512IFMA] = true;
	cpu_present[RIND_X86_AVX512VBMI] = true;
}
#else
static void apply_emu_assume(void)
{
}
#endif

static void cpu_init(void)
{
	detect();
	apply_ct_assume();
	apply_emu_assume();
	apply_disable();
}

bool rind_cpu_has(enum rind_cpu_feature f)
{
	pthread_once(&cpu_once, cpu_init);
	if ((unsigned int)f >= RIND_CPU_NFEATURES)
		return false;
	return cpu_present[f] && !cpu_masked[f];
}

RIND_EXPORT int rind_cpu_feature_foreach(int (*fn)(const char *name, int present, int masked, void *ctx),
					 void *ctx)
{
	int i, ret;

	pthread_once(&cpu_once, cpu_init);
	for (i = 0; i < RIND_CPU_NFEATURES; i++) {
#if defined(__x86_64__)
		if (i >= RIND_ARM64_ASIMD)
			continue;
#elif defined(__aarch64__)
		if (i < RIND_ARM64_ASIMD)
			continue;
#endif
		ret = fn(feature_names[i], cpu_present[i], cpu_masked[i], ctx);
		if (ret)
			return ret;
	}
	return 0;
}
