// SPDX-License-Identifier: MIT
/*
 * SHA3-224/256/384/512 and SHAKE128/256 over the Armv8.2 SHA3
 * instructions: "sha3-224-ce" ... "sha3-512-ce", "shake128-ce",
 * "shake256-ce", priority 300 (above the generic C's 100).
 * Requires: SHA3, ASIMD (HWCAP_SHA3).
 *
 * The drivers are algs/sha3.c's operations (<crypto/sha3.h>) over
 * keccak-ce.c's one-state permutation (theta by EOR3 and RAX1, rho and pi
 * by XAR, chi by BCAX); the sponge, the descriptor and the exported state
 * are the generic drivers', so a state exported by one imports into the
 * other, and "sha3-256-generic" stays the C rounds, reachable by name and
 * tested against these.  The known answers are algs/sha3.c's, registered
 * under the algorithm names.
 *
 * The library's own single-stream Keccak (ML-KEM's H, G, J and PRF
 * outside its NEON matrix and noise, all of ML-DSA's SHAKE, the
 * one-shots) keeps running this permutation too
 * (rind_keccak_set_lib_f1600): the estimates below put it at or ahead of
 * the scalar rounds on every core with SHA3, and it is what those suites
 * tested before the drivers had names.  The generic drivers do not follow
 * it: they keep the C rounds, so that "-generic" is what it says and the
 * differential test compares two permutations.
 *
 * Constant time: EOR3, RAX1, XAR, BCAX, EOR, DUP and UMOV are
 * data-independent under PSTATE.DIT; the sponge's branches and indices
 * depend only on the lengths and the block position, never on the data.
 *
 * Expected speed (estimates from Arm's software optimization guides, not
 * measured): Neoverse N1 has no SHA3, so the generic C runs there.  On
 * Neoverse V1 the SHA3 instructions take 2 cycles on two of the four
 * vector pipes: 67 of them per round plus the spills of a 60-register
 * round, some 40-50 cycles per round and about 1100 per permutation,
 * 8-9 cycles/byte for SHA3-256 (136-byte rate), SHAKE128 about 7,
 * SHA3-512 about 15 -- on a par with the scalar rounds (some 120 integer
 * operations per round on four ALUs); on Apple cores, whose four vector
 * pipes all take them, about 4-5 cycles/byte for SHA3-256.
 */
#include <rind/internal/alg.h>
#include <crypto/keccak.h>
#include <crypto/sha3.h>
#include "keccak-x2.h"

DEFINE_SHA3_ALGS(sha3_ce, rind_keccak_f1600_ce, "ce", 300, "arm64");

static int sha3_ce_mod_init(void)
{
	if (!rind_cpu_has(RIND_ARM64_SHA3) || !rind_cpu_has(RIND_ARM64_ASIMD))
		return 0;
	rind_keccak_set_lib_f1600(rind_keccak_f1600_ce);
	return rind_sha3_register(sha3_ce_algs, ARRAY_SIZE(sha3_ce_algs));
}
module_init(sha3_ce_mod_init);
