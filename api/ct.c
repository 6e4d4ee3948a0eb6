// SPDX-License-Identifier: MIT
/*
 * Constant-time support: the DIT guard, explicit wiping, and comparison.
 *
 * rind_ct_begin/end nest per thread: the outermost begin saves PSTATE.DIT
 * and sets it, the matching end restores what was there.  On x86-64 there
 * is no user-space control of data-independent timing (DOITM is a kernel
 * MSR), so only the depth is tracked; the code is written constant-time.
 */
#include <string.h>
#include <rind/internal/alg.h>
#include <rind/internal/util.h>

static __thread unsigned int ct_depth;
static __thread int ct_saved_dit;

#if defined(__aarch64__)
static int dit_read(void)
{
	u64 v;

	/* MRS x, DIT (S3_3_C4_C2_5): bit 24 is the DIT flag. */
	__asm__ volatile("mrs %0, S3_3_C4_C2_5" : "=r"(v));
	return (v >> 24) & 1;
}

static void dit_write(int on)
{
	u64 v = (u64)(on & 1) << 24;

	/* MSR DIT, x (S3_3_C4_C2_5). */
	__asm__ volatile("msr S3_3_C4_C2_5, %0" : : "r"(v) : "memory");
}
#endif

RIND_EXPORT void rind_ct_begin(void)
{
	if (ct_depth++ == 0) {
#if defined(__aarch64__)
		if (rind_cpu_has(RIND_ARM64_DIT)) {
			ct_saved_dit = dit_read();
			dit_write(1);
		}
#else
		ct_saved_dit = 0;
#endif
	}
}

RIND_EXPORT void rind_ct_end(void)
{
	if (!ct_depth)
		return;
	if (--ct_depth == 0) {
#if defined(__aarch64__)
		if (rind_cpu_has(RIND_ARM64_DIT))
			dit_write(ct_saved_dit);
#endif
	}
}

RIND_EXPORT int rind_ct_active(void)
{
#if defined(__aarch64__)
	if (rind_cpu_has(RIND_ARM64_DIT))
		return dit_read();
#endif
	return ct_depth > 0;
}

RIND_EXPORT void rind_memzero_explicit(void *s, size_t n)
{
	if (!n)
		return;
	memset(s, 0, n);
	/* The barrier makes the compiler assume s is read. */
	__asm__ volatile("" : : "r"(s) : "memory");
}

RIND_EXPORT int rind_memneq(const void *a, const void *b, size_t n)
{
	const volatile u8 *x = a, *y = b;
	u8 d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	/* The verdict is public: callers branch on it. */
	rind_declassify(&d, sizeof(d));
	return d != 0;
}
