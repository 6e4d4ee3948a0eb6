// SPDX-License-Identifier: MIT
/*
 * SHA-1 with the Intel SHA extensions.
 * Requires: SHA (SHA-NI), SSE4.1, SSSE3.
 *
 * A,B,C,D live in one register (A in the top dword) and E in the top dword
 * of another.  SHA1RNDS4 does four rounds with the round function and
 * constant chosen by its immediate (0..3 for rounds 0-19, 20-39, 40-59,
 * 60-79); SHA1NEXTE derives the next E from the A four rounds back and adds
 * it to the message words; SHA1MSG1/SHA1MSG2 with an XOR compute the
 * schedule four words at a time (Intel SDM vol. 2).  Buffering and padding
 * are the generic helpers of api/include/crypto/sha2.h.
 */
#include <immintrin.h>
#include <rind/internal/hash.h>
#include <rind/internal/util.h>
#include <crypto/sha2.h>

#define SHANI_TARGET __attribute__((target("sha,sse4.1,ssse3")))

/*
 * Rounds 4g..4g+3.  m[g % 4] holds W[4g-16..] on entry and is replaced by
 * W[4g..4g+3] (W[4g] in the top dword) for g >= 4.  @prev is ABCD as it was
 * before the previous group, from which SHA1NEXTE computes this group's E.
 */
#define GROUP(g)							\
	do {								\
		__m128i e;						\
		if ((g) >= 4)						\
			m[(g) % 4] = _mm_sha1msg2_epu32(		\
				_mm_xor_si128(_mm_sha1msg1_epu32(m[(g) % 4], \
								 m[((g) + 1) % 4]), \
					      m[((g) + 2) % 4]),	\
				m[((g) + 3) % 4]);			\
		if ((g) == 0)						\
			e = _mm_add_epi32(e0, m[0]);			\
		else							\
			e = _mm_sha1nexte_epu32(prev, m[(g) % 4]);	\
		prev = abcd;						\
		abcd = _mm_sha1rnds4_epu32(abcd, e, (g) / 5);		\
	} while (0)

SHANI_TARGET
static void sha1_shani_block(u32 state[5], const u8 *data, size_t blocks)
{
	/* Reverse all 16 bytes: big-endian words, first word in the top dword. */
	const __m128i bswap = _mm_set_epi64x(0x0001020304050607ULL, 0x08090a0b0c0d0e0fULL);
	__m128i abcd, e0, prev;

	abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0x1b);
	e0 = _mm_set_epi32((int)state[4], 0, 0, 0);

	while (blocks--) {
		__m128i abcd_save = abcd, e_save = e0;
		__m128i m[4];

		for (int i = 0; i < 4; i++)
			m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)),
						bswap);
		prev = abcd;

		GROUP(0);  GROUP(1);  GROUP(2);  GROUP(3);  GROUP(4);
		GROUP(5);  GROUP(6);  GROUP(7);  GROUP(8);  GROUP(9);
		GROUP(10); GROUP(11); GROUP(12); GROUP(13); GROUP(14);
		GROUP(15); GROUP(16); GROUP(17); GROUP(18); GROUP(19);

		e0 = _mm_sha1nexte_epu32(prev, e_save);
		abcd = _mm_add_epi32(abcd, abcd_save);
		data += SHA1_BLOCK_SIZE;
	}

	_mm_storeu_si128((__m128i *)state, _mm_shuffle_epi32(abcd, 0x1b));
	state[4] = (u32)_mm_extract_epi32(e0, 3);
}

static int sha1_shani_init(struct shash_desc *desc)
{
	sha1_base_init(shash_desc_ctx(desc));
	return 0;
}

static int sha1_shani_update(struct shash_desc *desc, const u8 *data, unsigned int len)
{
	sha1_base_do_update(shash_desc_ctx(desc), data, len, sha1_shani_block);
	return 0;
}

static int sha1_shani_finup(struct shash_desc *desc, const u8 *data, unsigned int len,
			    u8 *out)
{
	struct sha1_state *s = shash_desc_ctx(desc);

	if (len)
		sha1_base_do_update(s, data, len, sha1_shani_block);
	sha1_base_do_finalize(s, sha1_shani_block);
	sha1_base_finish(s, out);
	return 0;
}

static int sha1_shani_final(struct shash_desc *desc, u8 *out)
{
	return sha1_shani_finup(desc, NULL, 0, out);
}

static int sha1_shani_digest(struct shash_desc *desc, const u8 *data, unsigned int len,
			     u8 *out)
{
	sha1_base_init(shash_desc_ctx(desc));
	return sha1_shani_finup(desc, data, len, out);
}

static int sha1_shani_export(struct shash_desc *desc, void *out)
{
	memcpy(out, shash_desc_ctx(desc), sizeof(struct sha1_state));
	return 0;
}

static int sha1_shani_import(struct shash_desc *desc, const void *in)
{
	memcpy(shash_desc_ctx(desc), in, sizeof(struct sha1_state));
	return 0;
}

static struct shash_alg sha1_shani_alg = {
	.init		= sha1_shani_init,
	.update		= sha1_shani_update,
	.final		= sha1_shani_final,
	.finup		= sha1_shani_finup,
	.digest		= sha1_shani_digest,
	.export		= sha1_shani_export,
	.import		= sha1_shani_import,
	.descsize	= sizeof(struct sha1_state),
	.digestsize	= SHA1_DIGEST_SIZE,
	.statesize	= sizeof(struct sha1_state),
	.base = {
		.cra_name		= "sha1",
		.cra_driver_name	= "sha1-shani",
		.cra_priority		= 350,
		.cra_blocksize		= SHA1_BLOCK_SIZE,
		.cra_module		= "x86",
	},
};

/* The known-answer tests for "sha1" are registered by algs/sha1.c. */
static int sha1_shani_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_SHANI) || !rind_cpu_has(RIND_X86_SSE41) ||
	    !rind_cpu_has(RIND_X86_SSSE3))
		return 0;
	return crypto_register_shash(&sha1_shani_alg);
}
module_init(sha1_shani_mod_init);
