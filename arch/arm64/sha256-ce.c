// SPDX-License-Identifier: MIT
/*
 * SHA-224 and SHA-256 with the Armv8 SHA2 instructions.
 * Requires: SHA2, ASIMD (HWCAP_SHA2).
 *
 * The state is the two registers {a,b,c,d} and {e,f,g,h}; SHA256H and
 * SHA256H2 each do four rounds (one updates a..d, the other e..h, from the
 * same W+K), and SHA256SU0/SHA256SU1 compute the message schedule four
 * words at a time (Arm ARM, "SHA256H", "SHA256SU0").  Buffering and
 * padding are the generic helpers of api/include/crypto/sha2.h.
 *
 * Constant time: SHA256H/SHA256H2/SHA256SU0/SHA256SU1, ADD (vector),
 * REV32 and loads are data-independent under PSTATE.DIT; nothing branches
 * on the data.
 *
 * Expected speed on Neoverse N1 (Neoverse N1 Software Optimization Guide:
 * SHA256H/H2 4 cycles latency, throughput 1 per cycle on one pipe): the
 * 16 four-round groups of a block are a dependent chain through a..d and
 * e..h, about 16 * 4 = 64-70 cycles per 64-byte block, 1.0-1.1
 * cycles/byte.
 */
#include <arm_neon.h>
#include <rind/internal/hash.h>
#include <rind/internal/util.h>
#include <crypto/sha2.h>

#define SHA2_TARGET __attribute__((target("+crypto")))

SHA2_TARGET
static void sha256_ce_block(u32 state[8], const u8 *data, size_t blocks)
{
	uint32x4_t abcd = vld1q_u32(&state[0]), efgh = vld1q_u32(&state[4]);

	while (blocks--) {
		uint32x4_t abcd0 = abcd, efgh0 = efgh, m[4];
		int i;

		for (i = 0; i < 4; i++)
			m[i] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(data + 16 * i)));
		for (i = 0; i < 16; i++) {
			uint32x4_t wk = vaddq_u32(m[i % 4], vld1q_u32(&rind_sha256_k[4 * i]));
			uint32x4_t t = abcd;

			abcd = vsha256hq_u32(abcd, efgh, wk);
			efgh = vsha256h2q_u32(efgh, t, wk);
			/* W[4i+16..4i+19] from W[4i..4i+15], for group i + 4. */
			if (i < 12)
				m[i % 4] = vsha256su1q_u32(vsha256su0q_u32(m[i % 4], m[(i + 1) % 4]),
							   m[(i + 2) % 4], m[(i + 3) % 4]);
		}
		abcd = vaddq_u32(abcd, abcd0);
		efgh = vaddq_u32(efgh, efgh0);
		data += SHA256_BLOCK_SIZE;
	}
	vst1q_u32(&state[0], abcd);
	vst1q_u32(&state[4], efgh);
}

DEFINE_SHA256_SHASH_ALGS(sha256_ce, sha256_ce_block, "ce", 350, "arm64");

/* The known-answer tests for "sha224"/"sha256" are registered by algs/sha256.c. */
static int sha256_ce_mod_init(void)
{
	if (!rind_cpu_has(RIND_ARM64_SHA2) || !rind_cpu_has(RIND_ARM64_ASIMD))
		return 0;
	return crypto_register_shashes(sha256_ce_algs, ARRAY_SIZE(sha256_ce_algs));
}
module_init(sha256_ce_mod_init);
