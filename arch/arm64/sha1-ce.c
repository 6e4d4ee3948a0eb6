// SPDX-License-Identifier: MIT
/*
 * SHA-1 with the Armv8 SHA1 instructions.  Requires: SHA1, ASIMD
 * (HWCAP_SHA1).
 *
 * a..d live in one register (a in lane 0) and e in a scalar.  SHA1C,
 * SHA1P and SHA1M do four rounds with the choose, parity and majority
 * functions; SHA1H gives the rotated a that becomes e four rounds later;
 * SHA1SU0/SHA1SU1 compute the schedule four words at a time (Arm ARM,
 * "SHA1C", "SHA1SU0").  Buffering and padding are the generic helpers of
 * api/include/crypto/sha2.h.
 *
 * Constant time: SHA1C/SHA1P/SHA1M/SHA1H/SHA1SU0/SHA1SU1, ADD (vector),
 * REV32 and loads are data-independent under PSTATE.DIT; nothing branches
 * on the data.
 *
 * Expected speed on Neoverse N1 (Neoverse N1 Software Optimization Guide:
 * SHA1C/P/M 4 cycles latency, one pipe): 20 dependent four-round groups
 * per block, about 80-90 cycles per 64-byte block, 1.3-1.4 cycles/byte.
 */
#include <arm_neon.h>
#include <rind/internal/hash.h>
#include <rind/internal/util.h>
#include <crypto/sha2.h>

#define SHA1_TARGET __attribute__((target("+crypto")))

SHA1_TARGET
static void sha1_ce_block(u32 state[5], const u8 *data, size_t blocks)
{
	static const u32 k[4] = { 0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6 };
	uint32x4_t abcd = vld1q_u32(state);
	u32 e0 = state[4];

	while (blocks--) {
		uint32x4_t abcd0 = abcd, m[4];
		u32 e00 = e0;
		int g;

		for (g = 0; g < 4; g++)
			m[g] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(data + 16 * g)));
		for (g = 0; g < 20; g++) {
			uint32x4_t wk = vaddq_u32(m[g % 4], vdupq_n_u32(k[g / 5]));
			u32 e1 = vsha1h_u32(vgetq_lane_u32(abcd, 0));

			if (g < 5)
				abcd = vsha1cq_u32(abcd, e0, wk);
			else if (g < 10 || g >= 15)
				abcd = vsha1pq_u32(abcd, e0, wk);
			else
				abcd = vsha1mq_u32(abcd, e0, wk);
			e0 = e1;
			/* W[4g+16..4g+19] from W[4g..4g+15], for group g + 4. */
			if (g < 16)
				m[g % 4] = vsha1su1q_u32(vsha1su0q_u32(m[g % 4], m[(g + 1) % 4],
								       m[(g + 2) % 4]),
							 m[(g + 3) % 4]);
		}
		abcd = vaddq_u32(abcd, abcd0);
		e0 += e00;
		data += SHA1_BLOCK_SIZE;
	}
	vst1q_u32(state, abcd);
	state[4] = e0;
}

static int sha1_ce_init(struct shash_desc *desc)
{
	sha1_base_init(shash_desc_ctx(desc));
	return 0;
}

static int sha1_ce_update(struct shash_desc *desc, const u8 *data, unsigned int len)
{
	sha1_base_do_update(shash_desc_ctx(desc), data, len, sha1_ce_block);
	return 0;
}

static int sha1_ce_finup(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out)
{
	struct sha1_state *s = shash_desc_ctx(desc);

	if (len)
		sha1_base_do_update(s, data, len, sha1_ce_block);
	sha1_base_do_finalize(s, sha1_ce_block);
	sha1_base_finish(s, out);
	return 0;
}

static int sha1_ce_final(struct shash_desc *desc, u8 *out)
{
	return sha1_ce_finup(desc, NULL, 0, out);
}

static int sha1_ce_digest(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out)
{
	sha1_base_init(shash_desc_ctx(desc));
	return sha1_ce_finup(desc, data, len, out);
}

static int sha1_ce_export(struct shash_desc *desc, void *out)
{
	memcpy(out, shash_desc_ctx(desc), sizeof(struct sha1_state));
	return 0;
}

static int sha1_ce_import(struct shash_desc *desc, const void *in)
{
	memcpy(shash_desc_ctx(desc), in, sizeof(struct sha1_state));
	return 0;
}

static struct shash_alg sha1_ce_alg = {
	.init		= sha1_ce_init,
	.update		= sha1_ce_update,
	.final		= sha1_ce_final,
	.finup		= sha1_ce_finup,
	.digest		= sha1_ce_digest,
	.export		= sha1_ce_export,
	.import		= sha1_ce_import,
	.descsize	= sizeof(struct sha1_state),
	.digestsize	= SHA1_DIGEST_SIZE,
	.statesize	= sizeof(struct sha1_state),
	.base = {
		.cra_name		= "sha1",
		.cra_driver_name	= "sha1-ce",
		.cra_priority		= 350,
		.cra_blocksize		= SHA1_BLOCK_SIZE,
		.cra_module		= "arm64",
	},
};

/* The known-answer tests for "sha1" are registered by algs/sha1.c. */
static int sha1_ce_mod_init(void)
{
	if (!rind_cpu_has(RIND_ARM64_SHA1) || !rind_cpu_has(RIND_ARM64_ASIMD))
		return 0;
	return crypto_register_shash(&sha1_ce_alg);
}
module_init(sha1_ce_mod_init);
