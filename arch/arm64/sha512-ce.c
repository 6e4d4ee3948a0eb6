// SPDX-License-Identifier: MIT
/*
 * SHA-384 and SHA-512 with the Armv8.2 SHA512 instructions.
 * Requires: SHA512, ASIMD (HWCAP_SHA512).
 *
 * The state is four registers of two words each, {a,b} {c,d} {e,f} {g,h}
 * (the first word in lane 0).  Two rounds at a time: SHA512H takes
 * h + K + W of the first round and g + K + W of the second (one register,
 * first round in the high lane), {f,g} and {d,e} (both built with EXT),
 * and gives the two T1 values; c..d plus them are the new {e,f}; SHA512H2
 * with {c,d} and {a,b} adds T2 and gives the new {a,b}.  Then {c,d} is
 * the old {a,b} and {g,h} the old {e,f}.  SHA512SU0/SHA512SU1 compute the
 * schedule two words at a time (Arm ARM, "SHA512H", "SHA512H2",
 * "SHA512SU0", "SHA512SU1").  Buffering and padding are the generic
 * helpers of api/include/crypto/sha2.h.
 *
 * Constant time: SHA512H/H2/SU0/SU1, ADD, EXT, REV64 and loads are
 * data-independent under PSTATE.DIT; nothing branches on the data.
 *
 * Expected speed on Neoverse V1 (Neoverse V1 Software Optimization Guide:
 * SHA512H/H2 about 4 cycles latency; N1 has no SHA512): 40 dependent
 * pairs of SHA512H+SHA512H2 per 128-byte block, about 330 cycles, 2.5-2.7
 * cycles/byte; on Apple cores, with lower latency, about 1.5.
 */
#include <arm_neon.h>
#include <rind/internal/hash.h>
#include <rind/internal/util.h>
#include <crypto/sha2.h>

/* gcc declares the SHA512 intrinsics for armv8.2-a+sha3 (FEAT_SHA512 is v8.2). */
#ifdef __clang__
#define SHA512_TARGET	/* clang: -march=armv8.2-a+sha3 for this file (Makefile) */
#else
#define SHA512_TARGET __attribute__((target("arch=armv8.2-a+sha3")))
#endif

SHA512_TARGET
static void sha512_ce_block(u64 state[8], const u8 *data, size_t blocks)
{
	uint64x2_t ab = vld1q_u64(&state[0]), cd = vld1q_u64(&state[2]);
	uint64x2_t ef = vld1q_u64(&state[4]), gh = vld1q_u64(&state[6]);

	while (blocks--) {
		uint64x2_t ab0 = ab, cd0 = cd, ef0 = ef, gh0 = gh, m[8];
		int j;

		for (j = 0; j < 8; j++)
			m[j] = vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(data + 16 * j)));
		for (j = 0; j < 40; j++) {
			uint64x2_t kw = vaddq_u64(m[j % 8], vld1q_u64(&rind_sha512_k[2 * j]));
			uint64x2_t t, nef;

			/* {lo: g + KW[2j+1], hi: h + KW[2j]} */
			t = vaddq_u64(gh, vextq_u64(kw, kw, 1));
			t = vsha512hq_u64(t, vextq_u64(ef, gh, 1), vextq_u64(cd, ef, 1));
			nef = vaddq_u64(cd, t);
			gh = ef;
			ef = nef;
			nef = vsha512h2q_u64(t, cd, ab);
			cd = ab;
			ab = nef;
			/* W[2j+16], W[2j+17] from W[2j..2j+15], for pair j + 8. */
			if (j < 32)
				m[j % 8] = vsha512su1q_u64(vsha512su0q_u64(m[j % 8], m[(j + 1) % 8]),
							   m[(j + 7) % 8],
							   vextq_u64(m[(j + 4) % 8], m[(j + 5) % 8], 1));
		}
		ab = vaddq_u64(ab, ab0);
		cd = vaddq_u64(cd, cd0);
		ef = vaddq_u64(ef, ef0);
		gh = vaddq_u64(gh, gh0);
		data += SHA512_BLOCK_SIZE;
	}
	vst1q_u64(&state[0], ab);
	vst1q_u64(&state[2], cd);
	vst1q_u64(&state[4], ef);
	vst1q_u64(&state[6], gh);
}

DEFINE_SHA512_SHASH_ALGS(sha512_ce, sha512_ce_block, "ce", 350, "arm64");

/* The known-answer tests for "sha384"/"sha512" are registered by algs/sha512.c. */
static int sha512_ce_mod_init(void)
{
	if (!rind_cpu_has(RIND_ARM64_SHA512) || !rind_cpu_has(RIND_ARM64_ASIMD))
		return 0;
	return crypto_register_shashes(sha512_ce_algs, ARRAY_SIZE(sha512_ce_algs));
}
module_init(sha512_ce_mod_init);
