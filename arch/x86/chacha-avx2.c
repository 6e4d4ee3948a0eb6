// SPDX-License-Identifier: MIT
/*
 * ChaCha20 and XChaCha20 with AVX2.  Requires: AVX2.
 *
 * Bulk data goes eight blocks at a time, "word-sliced": ymm register i holds
 * state word i of eight consecutive blocks, so the rounds need no shuffles;
 * an 8x8 transpose at the end turns the words back into blocks; a tail of
 * 257 to 511 bytes runs them on a stack copy.  Shorter tails use the row
 * layout, each ymm holding one row of two blocks (diagonals by in-lane word
 * rotation), two such pairs interleaved; a single block goes to the scalar
 * code, whose latency is lower.
 * Rotations by 16 and 8 are byte shuffles, by 12 and 7 shift pairs.  The
 * block counter (state word 12) advances modulo 2^32, as in the generic
 * code and the kernel.  No data-dependent branch or index: constant time.
 *
 * "chacha20-avx2" and "xchacha20-avx2", priority 500.
 */
#include <immintrin.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/util.h>
#include <crypto/chacha.h>

#include "chacha-avx2.h"

/* Eight blocks (512 bytes) from counter state[12]: the assembly core, no MAC. */
static AVX2 void chacha_8block(const u32 state[16], u8 *dst, const u8 *src)
{
	rind_cp8_avx2(state, dst, src, NULL, NULL, 0);
}

/* Row layout: one ymm per row, blocks n (low lane) and n + 1 (high lane). */
#define ROUND2(a, b, c, d) do {						\
		a = _mm256_add_epi32(a, b); d = rot16(_mm256_xor_si256(d, a));	\
		c = _mm256_add_epi32(c, d); b = rot12(_mm256_xor_si256(b, c));	\
		a = _mm256_add_epi32(a, b); d = rot8(_mm256_xor_si256(d, a));	\
		c = _mm256_add_epi32(c, d); b = rot7(_mm256_xor_si256(b, c));	\
	} while (0)
#define DIAG(b, c, d) do {						\
		b = _mm256_shuffle_epi32(b, 0x39);				\
		c = _mm256_shuffle_epi32(c, 0x4e);				\
		d = _mm256_shuffle_epi32(d, 0x93);				\
	} while (0)
#define UNDIAG(b, c, d) do {						\
		b = _mm256_shuffle_epi32(b, 0x93);				\
		c = _mm256_shuffle_epi32(c, 0x4e);				\
		d = _mm256_shuffle_epi32(d, 0x39);				\
	} while (0)

/* XOR up to 128 bytes of the two blocks held in rows a, b, c, d. */
AVX2_INLINE void out_pair(__m256i a, __m256i b, __m256i c, __m256i d, u8 *dst, const u8 *src,
			  size_t len)
{
	__m256i k0 = _mm256_permute2x128_si256(a, b, 0x20);
	__m256i k1 = _mm256_permute2x128_si256(c, d, 0x20);
	__m256i k2 = _mm256_permute2x128_si256(a, b, 0x31);
	__m256i k3 = _mm256_permute2x128_si256(c, d, 0x31);
	u8 buf[128] __attribute__((aligned(32)));

	if (len >= 128) {
		xor_store(dst, src, k0);
		xor_store(dst + 32, src + 32, k1);
		xor_store(dst + 64, src + 64, k2);
		xor_store(dst + 96, src + 96, k3);
		return;
	}
	_mm256_store_si256((__m256i *)buf, k0);
	_mm256_store_si256((__m256i *)(buf + 32), k1);
	_mm256_store_si256((__m256i *)(buf + 64), k2);
	_mm256_store_si256((__m256i *)(buf + 96), k3);
	crypto_xor_cpy(dst, src, buf, len);
	memzero_explicit(buf, sizeof(buf));
}

/* Up to four blocks (len <= 256) from counter state[12]: two row pairs. */
static AVX2 void chacha_4block(const u32 state[16], u8 *dst, const u8 *src, size_t len)
{
	const __m256i a = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)&state[0]));
	const __m256i b = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)&state[4]));
	const __m256i c = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)&state[8]));
	const __m256i d = _mm256_add_epi32(
		_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)&state[12])),
		_mm256_setr_epi32(0, 0, 0, 0, 1, 0, 0, 0));
	const __m256i two = _mm256_setr_epi32(2, 0, 0, 0, 2, 0, 0, 0);
	__m256i a0 = a, b0 = b, c0 = c, d0 = d;
	__m256i a1 = a, b1 = b, c1 = c, d1 = _mm256_add_epi32(d, two);
	int i;

	for (i = 0; i < 10; i++) {
		ROUND2(a0, b0, c0, d0);
		ROUND2(a1, b1, c1, d1);
		DIAG(b0, c0, d0);
		DIAG(b1, c1, d1);
		ROUND2(a0, b0, c0, d0);
		ROUND2(a1, b1, c1, d1);
		UNDIAG(b0, c0, d0);
		UNDIAG(b1, c1, d1);
	}
	a0 = _mm256_add_epi32(a0, a);
	b0 = _mm256_add_epi32(b0, b);
	c0 = _mm256_add_epi32(c0, c);
	d0 = _mm256_add_epi32(d0, d);
	out_pair(a0, b0, c0, d0, dst, src, len);
	if (len <= 128)
		return;
	a1 = _mm256_add_epi32(a1, a);
	b1 = _mm256_add_epi32(b1, b);
	c1 = _mm256_add_epi32(c1, c);
	d1 = _mm256_add_epi32(d1, _mm256_add_epi32(d, two));
	out_pair(a1, b1, c1, d1, dst + 128, src + 128, len - 128);
}

/* Up to two blocks (len <= 128): one row pair. */
static AVX2 void chacha_2block(const u32 state[16], u8 *dst, const u8 *src, size_t len)
{
	const __m256i a = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)&state[0]));
	const __m256i b = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)&state[4]));
	const __m256i c = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)&state[8]));
	const __m256i d = _mm256_add_epi32(
		_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)&state[12])),
		_mm256_setr_epi32(0, 0, 0, 0, 1, 0, 0, 0));
	__m256i a0 = a, b0 = b, c0 = c, d0 = d;
	int i;

	for (i = 0; i < 10; i++) {
		ROUND2(a0, b0, c0, d0);
		DIAG(b0, c0, d0);
		ROUND2(a0, b0, c0, d0);
		UNDIAG(b0, c0, d0);
	}
	out_pair(_mm256_add_epi32(a0, a), _mm256_add_epi32(b0, b), _mm256_add_epi32(c0, c),
		 _mm256_add_epi32(d0, d), dst, src, len);
}

AVX2 void rind_chacha20_crypt_avx2(u32 state[16], u8 *dst, const u8 *src, size_t len)
{
	u8 buf[512] __attribute__((aligned(32)));
	size_t n;

	/* one block: the scalar code is faster than any vector latency chain */
	if (len <= 64) {
		rind_chacha20_crypt_generic(state, dst, src, len);
		return;
	}
	while (len >= 512) {
		chacha_8block(state, dst, src);
		state[12] += 8;
		dst += 512;
		src += 512;
		len -= 512;
	}
	if (len > 256) {
		/* eight blocks cost about the latency of four: run them on a copy */
		memcpy(buf, src, len);
		chacha_8block(state, buf, buf);
		memcpy(dst, buf, len);
		memzero_explicit(buf, sizeof(buf));
		state[12] += (u32)((len + 63) / 64);
		_mm256_zeroupper();
		return;
	}
	while (len > 128) {
		n = min(len, (size_t)256);
		chacha_4block(state, dst, src, n);
		state[12] += (u32)((n + 63) / 64);
		dst += n;
		src += n;
		len -= n;
	}
	if (len) {
		chacha_2block(state, dst, src, len);
		state[12] += (u32)((len + 63) / 64);
	}
	_mm256_zeroupper();
}

static struct chacha_alg chacha_avx2_algs[] = {
	RIND_CHACHA20_ALG("chacha20-avx2", 500, "x86", rind_chacha20_crypt_avx2),
	RIND_XCHACHA20_ALG("xchacha20-avx2", 500, "x86", rind_chacha20_crypt_avx2),
};

static int chacha_avx2_mod_init(void)
{
	size_t i;
	int err;

	/* The known-answer tests of "chacha20" and "xchacha20" are algs/chacha20.c's. */
	if (!rind_cpu_has(RIND_X86_AVX2))
		return 0;
	for (i = 0; i < ARRAY_SIZE(chacha_avx2_algs); i++) {
		err = crypto_register_skcipher(&chacha_avx2_algs[i].alg);
		if (err)
			return err;
	}
	return 0;
}

module_init(chacha_avx2_mod_init);
