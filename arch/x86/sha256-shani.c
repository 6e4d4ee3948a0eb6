// SPDX-License-Identifier: MIT
/*
 * SHA-224 and SHA-256 with the Intel SHA extensions.
 * Requires: SHA (SHA-NI), SSE4.1, SSSE3.
 *
 * The state is kept as the two registers SHA256RNDS2 works on, {A,B,E,F}
 * and {C,D,G,H}; each SHA256RNDS2 does two rounds using the low two dwords
 * of W+K, and SHA256MSG1/SHA256MSG2 compute the message schedule four words
 * at a time (Intel SDM vol. 2, "SHA256RNDS2", "SHA256MSG1", "SHA256MSG2").
 * Buffering in update is the generic helper of api/include/crypto/sha2.h;
 * digest, finup and final keep the state in the two registers from the
 * first block to the digest: the padding block is built in registers and
 * the digest is written from them, so a short message costs its blocks'
 * rounds and little else (a 64-byte message is two blocks, 2 x 32
 * dependent SHA256RNDS2).
 */
#include <immintrin.h>
#include <stdbool.h>
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

/*
 * One block from its sixteen message words in m0..m3, into the state
 * registers.  Every SHA256RNDS2 needs the previous one's output, so a block
 * is 32 of them in a row (their latency, 4 cycles on Zen 3, is the bound of
 * any one-message SHA-256 here; bench/probes/sha-peer.c measures it); the
 * schedule and the W+K adds are off that chain.
 */
#define SHANI_COMPRESS(abef, cdgh, m0, m1, m2, m3)				\
	do {									\
		__m128i abef_save = abef, cdgh_save = cdgh;			\
										\
		QROUND(m0, 0);							\
		QROUND(m1, 1);							\
		QROUND(m2, 2);							\
		QROUND(m3, 3);							\
		for (int i = 4; i < 16; i += 4) {				\
			SCHED(m0, m1, m2, m3);					\
			QROUND(m0, i);						\
			SCHED(m1, m2, m3, m0);					\
			QROUND(m1, i + 1);					\
			SCHED(m2, m3, m0, m1);					\
			QROUND(m2, i + 2);					\
			SCHED(m3, m0, m1, m2);					\
			QROUND(m3, i + 3);					\
		}								\
		abef = _mm_add_epi32(abef, abef_save);				\
		cdgh = _mm_add_epi32(cdgh, cdgh_save);				\
	} while (0)

/* Byte swap within each dword: message bytes to big-endian words. */
#define SHANI_BSWAP() _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL)

struct shani_regs {
	__m128i abef, cdgh;
};

/* @blocks whole blocks of @data into @r. */
SHANI_TARGET
static inline __attribute__((always_inline)) void shani_blocks(struct shani_regs *r,
							       const u8 *data, size_t blocks)
{
	const __m128i bswap = SHANI_BSWAP();
	__m128i abef = r->abef, cdgh = r->cdgh;

	for (; blocks; blocks--, data += SHA256_BLOCK_SIZE) {
		__m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 0)), bswap);
		__m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16)), bswap);
		__m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 32)), bswap);
		__m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 48)), bswap);

		SHANI_COMPRESS(abef, cdgh, m0, m1, m2, m3);
	}
	r->abef = abef;
	r->cdgh = cdgh;
}

/* state[] is a,b,c,d,e,f,g,h; the registers are {F,E,B,A} and {H,G,D,C} (dword 0 first). */
SHANI_TARGET
static inline __attribute__((always_inline)) void shani_load_state(struct shani_regs *r,
								   const u32 state[8])
{
	__m128i tmp = _mm_loadu_si128((const __m128i *)&state[0]);	/* d c b a */
	__m128i cdgh = _mm_loadu_si128((const __m128i *)&state[4]);	/* h g f e */

	tmp = _mm_shuffle_epi32(tmp, 0xb1);			/* c d a b */
	cdgh = _mm_shuffle_epi32(cdgh, 0x1b);			/* e f g h */
	r->abef = _mm_alignr_epi8(tmp, cdgh, 8);		/* a b e f */
	r->cdgh = _mm_blend_epi16(cdgh, tmp, 0xf0);		/* c d g h */
}

SHANI_TARGET
static inline __attribute__((always_inline)) void shani_store_state(const struct shani_regs *r,
								    u32 state[8])
{
	__m128i tmp = _mm_shuffle_epi32(r->abef, 0x1b);		/* f e b a */
	__m128i cdgh = _mm_shuffle_epi32(r->cdgh, 0xb1);	/* d c h g */

	_mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(tmp, cdgh, 0xf0));  /* d c b a */
	_mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(cdgh, tmp, 8));     /* h g f e */
}

SHANI_TARGET
static void sha256_shani_block(u32 state[8], const u8 *data, size_t blocks)
{
	struct shani_regs r;

	shani_load_state(&r, state);
	shani_blocks(&r, data, blocks);
	shani_store_state(&r, state);
}

/*
 * The finishing block, a 16-byte piece at a time in registers: the
 * message's last @t bytes (less than a block) at @p, then the 0x80 byte
 * and zeros; shani_finish adds the bit count.  Built without a byte of it
 * going through memory in pieces of different sizes, so the rounds never
 * wait on a load that partly overlaps recent stores (a padding block
 * assembled on the stack with byte and word stores costs a store-to-load
 * forwarding stall per mixed 16-byte piece, and on a finup that stall
 * comes after the previous block's whole dependency chain).
 *
 * Reading the tail: @back16 says that the 16 bytes before p + t are
 * readable (the call had 16 bytes or more), so the last partial piece is
 * loaded ending at p + t and shifted down; @bufall says that the whole
 * block at @p is readable (a descriptor's buffer), so the piece is loaded
 * in place and masked; else (under 16 bytes in all) it is put together
 * from overlapping loads inside the message.  Nothing outside the message
 * (or the buffer) is read.
 */
static const u8 shani_tabs[3][32] __attribute__((aligned(32))) = {
	/* shift: loadu(+16 - n) picks bytes 16-n..15 into 0..n-1, zeros above */
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	  0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	  0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80 },
	/* keep: loadu(+16 - n) is 0xff in bytes 0..n-1 */
	{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	/* pad: loadu(+16 - n) is 0x80 in byte n */
	{ [16] = 0x80 },
};

/* The @n (1..15) bytes at @p, zero-extended, from loads inside p[0..n-1]. */
static inline __m128i shani_load_short(const u8 *p, size_t n)
{
	u64 lo, hi = 0;

	if (n >= 8) {
		u64 x;

		lo = get_unaligned_le64(p);
		x = get_unaligned_le64(p + n - 8);
		hi = n > 8 ? x >> (8 * (16 - n)) : 0;
	} else if (n >= 4) {
		lo = get_unaligned_le32(p) | ((u64)get_unaligned_le32(p + n - 4) >> (8 * (8 - n))) << 32;
	} else {
		lo = p[0] | (u64)p[n / 2] << (8 * (n / 2)) | (u64)p[n - 1] << (8 * (n - 1));
	}
	return _mm_set_epi64x((long long)hi, (long long)lo);
}

/* Bytes 16c..16c+15 of the finishing block, in message byte order. */
SHANI_TARGET
static inline __attribute__((always_inline)) __m128i shani_tail_piece(const u8 *p, size_t t,
									 unsigned int c, bool back16,
									 bool bufall)
{
	size_t lo = 16 * c;
	__m128i v;

	if (t >= lo + 16)
		return _mm_loadu_si128((const __m128i *)(p + lo));
	if (t <= lo) {
		v = _mm_setzero_si128();
	} else if (bufall) {
		v = _mm_and_si128(_mm_loadu_si128((const __m128i *)(p + lo)),
				  _mm_loadu_si128((const __m128i *)&shani_tabs[1][16 - (t - lo)]));
	} else if (back16) {
		v = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + t - 16)),
				     _mm_loadu_si128((const __m128i *)&shani_tabs[0][16 - (t - lo)]));
	} else {
		v = shani_load_short(p + lo, t - lo);
	}
	if (t >= lo)
		v = _mm_or_si128(v, _mm_loadu_si128((const __m128i *)&shani_tabs[2][16 - (t - lo)]));
	return v;
}

/* The finishing block(s), then the bit count, in the message registers. */
SHANI_TARGET
static inline __attribute__((always_inline)) void shani_finish(struct shani_regs *r, const u8 *p,
							       size_t t, u64 bitlen, bool back16,
							       bool bufall)
{
	const __m128i bswap = SHANI_BSWAP();
	/* Words 14 and 15: the bit count, high word first. */
	const __m128i lenw = _mm_slli_si128(_mm_cvtsi64_si128((long long)ror64(bitlen, 32)), 8);
	__m128i abef = r->abef, cdgh = r->cdgh;
	__m128i m0 = _mm_shuffle_epi8(shani_tail_piece(p, t, 0, back16, bufall), bswap);
	__m128i m1 = _mm_shuffle_epi8(shani_tail_piece(p, t, 1, back16, bufall), bswap);
	__m128i m2 = _mm_shuffle_epi8(shani_tail_piece(p, t, 2, back16, bufall), bswap);
	__m128i m3 = _mm_shuffle_epi8(shani_tail_piece(p, t, 3, back16, bufall), bswap);

	if (t < SHA256_BLOCK_SIZE - 8) {
		m3 = _mm_or_si128(m3, lenw);
		SHANI_COMPRESS(abef, cdgh, m0, m1, m2, m3);
	} else {
		SHANI_COMPRESS(abef, cdgh, m0, m1, m2, m3);
		m0 = _mm_setzero_si128();
		m1 = _mm_setzero_si128();
		m2 = _mm_setzero_si128();
		m3 = lenw;
		SHANI_COMPRESS(abef, cdgh, m0, m1, m2, m3);
	}
	r->abef = abef;
	r->cdgh = cdgh;
}

/* The digest (28 or 32 bytes), straight from the registers. */
SHANI_TARGET
static inline __attribute__((always_inline)) void shani_output(const struct shani_regs *r, u8 *out,
							       unsigned int ds)
{
	/* Reversing all 16 bytes byte-swaps each dword and reverses their order. */
	const __m128i rev = _mm_set_epi64x(0x0001020304050607ULL, 0x08090a0b0c0d0e0fULL);
	__m128i x = _mm_shuffle_epi8(r->abef, rev);		/* a b e f */
	__m128i y = _mm_shuffle_epi8(r->cdgh, rev);		/* c d g h */
	__m128i hi = _mm_unpackhi_epi64(x, y);			/* e f g h */

	_mm_storeu_si128((__m128i *)out, _mm_unpacklo_epi64(x, y));
	if (ds == SHA256_DIGEST_SIZE) {
		_mm_storeu_si128((__m128i *)(out + 16), hi);
	} else {
		u32 g = (u32)_mm_extract_epi32(hi, 2);

		_mm_storel_epi64((__m128i *)(out + 16), hi);
		memcpy(out + 24, &g, 4);
	}
}

/* The initial states in register order: {F,E,B,A}, {H,G,D,C}. */
static const u32 shani_iv[2][8] __attribute__((aligned(16))) = {
	{ 0x68581511, 0xffc00b31, 0x367cd507, 0xc1059ed8,	/* SHA-224 */
	  0xbefa4fa4, 0x64f98fa7, 0xf70e5939, 0x3070dd17 },
	{ 0x9b05688c, 0x510e527f, 0xbb67ae85, 0x6a09e667,	/* SHA-256 */
	  0x5be0cd19, 0x1f83d9ab, 0xa54ff53a, 0x3c6ef372 },
};

/* A whole message: no byte goes through the descriptor. */
SHANI_TARGET
static int shani_digest(const u8 *data, unsigned int len, u8 *out, unsigned int ds)
{
	const u32 *iv = shani_iv[ds == SHA256_DIGEST_SIZE];
	struct shani_regs r = {
		_mm_load_si128((const __m128i *)&iv[0]),
		_mm_load_si128((const __m128i *)&iv[4]),
	};
	size_t blocks = len / SHA256_BLOCK_SIZE;

	if (blocks) {	/* (no arithmetic on the NULL of an empty message) */
		shani_blocks(&r, data, blocks);
		data += blocks * SHA256_BLOCK_SIZE;
	}
	shani_finish(&r, data, len % SHA256_BLOCK_SIZE, (u64)len << 3, len >= 16, false);
	shani_output(&r, out, ds);
	return 0;
}

static int sha256_shani_sha224_digest(struct shash_desc *desc, const u8 *data, unsigned int len,
				      u8 *out)
{
	(void)desc;
	return shani_digest(data, len, out, SHA224_DIGEST_SIZE);
}

static int sha256_shani_sha256_digest(struct shash_desc *desc, const u8 *data, unsigned int len,
				      u8 *out)
{
	(void)desc;
	return shani_digest(data, len, out, SHA256_DIGEST_SIZE);
}

/*
 * The rest of a message after the descriptor's state: bytes left in its
 * buffer are completed to a block from @data (or, when the message ends
 * there, finished from the buffer); then whole blocks and the tail come
 * straight from @data, and the digest is written from the registers (the
 * state in the descriptor is left for its owner to wipe, as every finish).
 */
SHANI_TARGET
static int sha256_shani_finup(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out)
{
	struct sha256_state *s = shash_desc_ctx(desc);
	unsigned int ds = crypto_shash_alg(desc->tfm)->digestsize;
	size_t partial = s->count % SHA256_BLOCK_SIZE;
	u64 bitlen = (s->count + len) << 3;
	bool back16 = len >= 16;
	struct shani_regs r;
	size_t blocks;

	if (partial) {
		if (partial + len < SHA256_BLOCK_SIZE) {
			if (len)
				memcpy(s->buf + partial, data, len);
			shani_load_state(&r, s->state);
			shani_finish(&r, s->buf, partial + len, bitlen, false, true);
			shani_output(&r, out, ds);
			return 0;
		}
		memcpy(s->buf + partial, data, SHA256_BLOCK_SIZE - partial);
		data += SHA256_BLOCK_SIZE - partial;
		len -= (unsigned int)(SHA256_BLOCK_SIZE - partial);
		shani_load_state(&r, s->state);
		shani_blocks(&r, s->buf, 1);
	} else {
		shani_load_state(&r, s->state);
	}
	blocks = len / SHA256_BLOCK_SIZE;
	if (blocks) {
		shani_blocks(&r, data, blocks);
		data += blocks * SHA256_BLOCK_SIZE;
	}
	shani_finish(&r, data, len % SHA256_BLOCK_SIZE, bitlen, back16, false);
	shani_output(&r, out, ds);
	return 0;
}

static int sha256_shani_final(struct shash_desc *desc, u8 *out)
{
	return sha256_shani_finup(desc, NULL, 0, out);
}

static int sha256_shani_sha224_init(struct shash_desc *desc)
{
	sha224_base_init(shash_desc_ctx(desc));
	return 0;
}

static int sha256_shani_sha256_init(struct shash_desc *desc)
{
	sha256_base_init(shash_desc_ctx(desc));
	return 0;
}

static int sha256_shani_update(struct shash_desc *desc, const u8 *data, unsigned int len)
{
	sha256_base_do_update(shash_desc_ctx(desc), data, len, sha256_shani_block);
	return 0;
}

static int sha256_shani_export(struct shash_desc *desc, void *out)
{
	memcpy(out, shash_desc_ctx(desc), sizeof(struct sha256_state));
	return 0;
}

static int sha256_shani_import(struct shash_desc *desc, const void *in)
{
	memcpy(shash_desc_ctx(desc), in, sizeof(struct sha256_state));
	return 0;
}

/* As DEFINE_SHA256_SHASH_ALGS, with this driver's own digest, finup and final. */
#define SHANI_ALG(name, ds) {							\
	.init		= sha256_shani_##name##_init,				\
	.update		= sha256_shani_update,					\
	.final		= sha256_shani_final,					\
	.finup		= sha256_shani_finup,					\
	.digest		= sha256_shani_##name##_digest,				\
	.export		= sha256_shani_export,					\
	.import		= sha256_shani_import,					\
	.descsize	= sizeof(struct sha256_state),				\
	.digestsize	= ds,							\
	.statesize	= sizeof(struct sha256_state),				\
	.base = {								\
		.cra_name		= #name,				\
		.cra_driver_name	= #name "-shani",			\
		.cra_priority		= 350,					\
		.cra_blocksize		= SHA256_BLOCK_SIZE,			\
		.cra_module		= "x86",				\
	},									\
}

static struct shash_alg sha256_shani_algs[] = {
	SHANI_ALG(sha224, SHA224_DIGEST_SIZE),
	SHANI_ALG(sha256, SHA256_DIGEST_SIZE),
};

/* The known-answer tests for "sha224"/"sha256" are registered by algs/sha256.c. */
static int sha256_shani_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_SHANI) || !rind_cpu_has(RIND_X86_SSE41) ||
	    !rind_cpu_has(RIND_X86_SSSE3))
		return 0;
	return crypto_register_shashes(sha256_shani_algs, ARRAY_SIZE(sha256_shani_algs));
}
module_init(sha256_shani_mod_init);
