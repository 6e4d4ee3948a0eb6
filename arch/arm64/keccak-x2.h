/* SPDX-License-Identifier: MIT */
/*
 * Two Keccak-f[1600] states side by side, one per 64-bit lane of a NEON
 * register: a[i][l] is word i of state l, so word i of both states loads
 * as one 128-bit vector.  Two implementations of the same permutation:
 * keccak-ce.c's with the SHA3 instructions (HWCAP_SHA3) and
 * keccak-x2-neon.c's with plain ASIMD; mlkem-neon.c picks one at
 * registration.  Callers check the features before use.  Library
 * internal; a header so that tests/test_hash.c can check both against
 * the portable rounds.
 */
#ifndef _RIND_ARM64_KECCAK_X2_H
#define _RIND_ARM64_KECCAK_X2_H

#include <rind/types.h>

struct keccakx2_state {
	u64 a[25][2] __attribute__((aligned(16)));
};

/* Requires SHA3 and ASIMD. */
void rind_keccakx2_f1600_ce(struct keccakx2_state *s);
/* keccak-ce.c's one-state form, for sha3-ce.c (requires SHA3 and ASIMD). */
void rind_keccak_f1600_ce(u64 st[25]);
/* Requires ASIMD. */
void rind_keccakx2_f1600_neon(struct keccakx2_state *s);

/*
 * The one mlkem-neon.c's drivers run (set at their registration: the SHA3
 * form where HWCAP_SHA3, else the ASIMD one).
 */
extern void (*rind_mlkem_neon_keccakx2)(struct keccakx2_state *s);

#endif /* _RIND_ARM64_KECCAK_X2_H */
