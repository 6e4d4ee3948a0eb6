// SPDX-License-Identifier: MIT
/*
 * SHA-224 and SHA-256 with the Intel SHA extensions.
 * Requires: SHA (SHA-NI), SSE4.1, SSSE3.
 *
 * The state is kept as the two registers SHA256RNDS2 works on, {A,B,E,F}
 * and {C,D,G,H}; each SHA256RNDS2 does two rounds using the low two dwords
 * of W+K, and SHA256MSG1/SHA256MSG2 compute the message schedule four words
 * at a time (Intel SDM vol. 2, "SHA256RNDS2", "SHA256MSG1", "SHA256MSG2").
 * Buffering and padding are the generic helpers of api/include/crypto/sha2.h.
 */
#include <immintrin.h>
#include <rind/internal/hash.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/sha2.h>

#define SHANI_TARGET __attribute__((target("sha,sse4.1,ssse3")))

/*
 * Four rounds starting at round 4*i, with message words @m (W[4i..4i+3]
 * in dwords 0..3).
 */
#define QROUND(m, i)							\
	do {								\
		__m128i wk = _mm_add_epi32(m, _mm_load_si128(		\
			(const __m128i *)&rind_sha256_k[4 * (i)]));	\
		cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);		\
		wk = _mm_shuffle_epi32(wk, 0x0e);			\
		abef = _mm_sha256rnds2_epu32(abef, cdgh, wk);		\
	} while (0)

/*
 * W[4i..4i+3] from the previous four groups: m0 = W[4i-16..], m1 =
 * W[4i-12..], m2 = W[4i-8..], m3 = W[4i-4..]; the result replaces m0.
 */
#define SCHED(m0, m1, m2, m3)						\
	do {								\
		m0 = _mm_sha256msg1_epu32(m0, m1);			\
		m0 = _mm_add_epi32(m0, _mm_alignr_epi8(m3, m2, 4));	\
		m0 = _mm_sha256msg2_epu32(m0, m3);			\
	} while (0)

SHANI_TARGET
static void sha256_shani_block(u32 state[8], const u8 *data, size_t blocks)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
	__m128i abef, cdgh, tmp;

	/* state[] is a,b,c,d,e,f,g,h; rearrange to {A,B,E,F} and {C,D,G,H}. */
	tmp = _mm_loadu_si128((const __m128i *)&state[0]);	/* d c b a */
	cdgh = _mm_loadu_si128((const __m128i *)&state[4]);	/* h g f e */
	tmp = _mm_shuffle_epi32(tmp, 0xb1);			/* c d a b */
	cdgh = _mm_shuffle_epi32(cdgh, 0x1b);			/* e f g h */
	abef = _mm_alignr_epi8(tmp, cdgh, 8);			/* a b e f */
	cdgh = _mm_blend_epi16(cdgh, tmp, 0xf0);		/* c d g h */

	while (blocks--) {
		__m128i abef_save = abef, cdgh_save = cdgh;
		__m128i m0, m1, m2, m3;

		m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 0)), bswap);
		m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16)), bswap);
		m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 32)), bswap);
		m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 48)), bswap);

		QROUND(m0, 0);
		QROUND(m1, 1);
		QROUND(m2, 2);
		QROUND(m3, 3);
		for (int i = 4; i < 16; i += 4) {
			SCHED(m0, m1, m2, m3);
			QROUND(m0, i);
			SCHED(m1, m2, m3, m0);
			QROUND(m1, i + 1);
			SCHED(m2, m3, m0, m1);
			QROUND(m2, i + 2);
			SCHED(m3, m0, m1, m2);
			QROUND(m3, i + 3);
		}

		abef = _mm_add_epi32(abef, abef_save);
		cdgh = _mm_add_epi32(cdgh, cdgh_save);
		data += SHA256_BLOCK_SIZE;
	}

	/* Back to a..h order. */
	tmp = _mm_shuffle_epi32(abef, 0x1b);			/* f e b a */
	cdgh = _mm_shuffle_epi32(cdgh, 0xb1);			/* d c h g */
	abef = _mm_blend_epi16(tmp, cdgh, 0xf0);		/* d c b a */
	cdgh = _mm_alignr_epi8(cdgh, tmp, 8);			/* h g f e */
	_mm_storeu_si128((__m128i *)&state[0], abef);
	_mm_storeu_si128((__m128i *)&state[4], cdgh);
}

DEFINE_SHA256_SHASH_ALGS(sha256_shani, sha256_shani_block, "shani", 350, "x86");

/* The known-answer tests for "sha224"/"sha256" are registered by algs/sha256.c. */
static int sha256_shani_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_SHANI) || !rind_cpu_has(RIND_X86_SSE41) ||
	    !rind_cpu_has(RIND_X86_SSSE3))
		return 0;
	return crypto_register_shashes(sha256_shani_algs, ARRAY_SIZE(sha256_shani_algs));
}
module_init(sha256_shani_mod_init);
