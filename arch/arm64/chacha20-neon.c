// SPDX-License-Identifier: MIT
/*
 * ChaCha20 and XChaCha20 with NEON (Advanced SIMD).  Requires: ASIMD
 * (HWCAP_ASIMD).
 *
 * Bulk data goes four blocks at a time, "word-sliced": vector register i
 * holds state word i of four consecutive blocks (lane j = block j), so the
 * rounds need no lane shuffles; a 4x4 transpose per group of four words
 * (TRN1/TRN2 on 32- and 64-bit elements) turns them back into blocks.  A
 * tail of 65..255 bytes runs the four blocks on a stack copy; a single
 * block (or less) -- the QUIC header protection case -- goes to the scalar
 * code, whose latency is lower than a vector round chain.  Rotations: by
 * 16 is REV32 on halfwords, by 12, 8 and 7 a USHR plus SLI.  The block
 * counter (word 12) advances modulo 2^32, as in the generic code.
 *
 * Constant time: ADD, EOR, USHR/SLI, REV32, TRN1/TRN2 and loads/stores at
 * public addresses only -- data-independent under PSTATE.DIT; no branch
 * or index depends on the key or the data.
 *
 * Expected speed on Neoverse N1 (Neoverse N1 Software Optimization Guide:
 * two 128-bit ASIMD pipes, ADD/EOR 2 cycles latency, SLI/USHR on one pipe
 * only): 20 rounds * 4 quarter-rounds * 4 vectors * 12 instructions per
 * 256 bytes, bound by the shift pipe, about 2.5-3 cycles/byte (a
 * four-way interleave of scalar plus NEON would approach 2).
 *
 * "chacha20-neon" and "xchacha20-neon", priority 300 (generic is 100).
 */
#include <arm_neon.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/util.h>
#include <crypto/chacha.h>

#define NEON_INLINE static inline __attribute__((always_inline))

/* A macro: the shift counts must be constants where the intrinsic is. */
#define rotl(x, n) vsliq_n_u32(vshrq_n_u32((x), 32 - (n)), (x), (n))

NEON_INLINE uint32x4_t rot16(uint32x4_t x)
{
	return vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(x)));
}

#define QR4(a, b, c, d) do {							\
		a = vaddq_u32(a, b); d = rot16(veorq_u32(d, a));		\
		c = vaddq_u32(c, d); b = rotl(veorq_u32(b, c), 12);		\
		a = vaddq_u32(a, b); d = rotl(veorq_u32(d, a), 8);		\
		c = vaddq_u32(c, d); b = rotl(veorq_u32(b, c), 7);		\
	} while (0)

/*
 * The four words x[w..w+3] of blocks 0..3 (lane j = block j), transposed
 * and XORed into bytes 4w..4w+15 of each of the four 64-byte blocks.
 */
NEON_INLINE void xor_words(u8 *dst, const u8 *src, const uint32x4_t x[16], int w)
{
	uint32x4_t t0 = vtrn1q_u32(x[w], x[w + 1]), t1 = vtrn2q_u32(x[w], x[w + 1]);
	uint32x4_t t2 = vtrn1q_u32(x[w + 2], x[w + 3]), t3 = vtrn2q_u32(x[w + 2], x[w + 3]);
	uint32x4_t r[4];
	int j;

	r[0] = vreinterpretq_u32_u64(vtrn1q_u64(vreinterpretq_u64_u32(t0), vreinterpretq_u64_u32(t2)));
	r[1] = vreinterpretq_u32_u64(vtrn1q_u64(vreinterpretq_u64_u32(t1), vreinterpretq_u64_u32(t3)));
	r[2] = vreinterpretq_u32_u64(vtrn2q_u64(vreinterpretq_u64_u32(t0), vreinterpretq_u64_u32(t2)));
	r[3] = vreinterpretq_u32_u64(vtrn2q_u64(vreinterpretq_u64_u32(t1), vreinterpretq_u64_u32(t3)));
	for (j = 0; j < 4; j++) {
		u8 *d = dst + 64 * j + 4 * w;
		const u8 *s = src + 64 * j + 4 * w;

		vst1q_u8(d, veorq_u8(vld1q_u8(s), vreinterpretq_u8_u32(r[j])));
	}
}

/* Four blocks from @state (counter state[12] .. state[12] + 3) over 256 bytes. */
static void chacha_4block(const u32 state[16], u8 *dst, const u8 *src)
{
	const uint32x4_t ctr = { 0, 1, 2, 3 };
	uint32x4_t x[16], s[16];
	int i;

	for (i = 0; i < 16; i++)
		s[i] = vdupq_n_u32(state[i]);
	s[12] = vaddq_u32(s[12], ctr);
	for (i = 0; i < 16; i++)
		x[i] = s[i];
	for (i = 0; i < 10; i++) {
		QR4(x[0], x[4], x[8], x[12]);
		QR4(x[1], x[5], x[9], x[13]);
		QR4(x[2], x[6], x[10], x[14]);
		QR4(x[3], x[7], x[11], x[15]);
		QR4(x[0], x[5], x[10], x[15]);
		QR4(x[1], x[6], x[11], x[12]);
		QR4(x[2], x[7], x[8], x[13]);
		QR4(x[3], x[4], x[9], x[14]);
	}
	for (i = 0; i < 16; i++)
		x[i] = vaddq_u32(x[i], s[i]);
	for (i = 0; i < 16; i += 4)
		xor_words(dst, src, x, i);
}

static void chacha20_crypt_neon(u32 state[16], u8 *dst, const u8 *src, size_t len)
{
	u8 buf[256];

	if (len <= CHACHA_BLOCK_SIZE) {
		rind_chacha20_crypt_generic(state, dst, src, len);
		return;
	}
	for (; len >= 256; dst += 256, src += 256, len -= 256) {
		chacha_4block(state, dst, src);
		state[12] += 4;
	}
	if (len) {
		memcpy(buf, src, len);
		chacha_4block(state, buf, buf);
		memcpy(dst, buf, len);
		memzero_explicit(buf, sizeof(buf));
		state[12] += (u32)((len + 63) / 64);
	}
}

static struct chacha_alg chacha_neon_algs[] = {
	RIND_CHACHA20_ALG("chacha20-neon", 300, "arm64", chacha20_crypt_neon),
	RIND_XCHACHA20_ALG("xchacha20-neon", 300, "arm64", chacha20_crypt_neon),
};

static int chacha_neon_mod_init(void)
{
	size_t i;
	int err;

	/* The known-answer tests of "chacha20" and "xchacha20" are algs/chacha20.c's. */
	if (!rind_cpu_has(RIND_ARM64_ASIMD))
		return 0;
	for (i = 0; i < ARRAY_SIZE(chacha_neon_algs); i++) {
		err = crypto_register_skcipher(&chacha_neon_algs[i].alg);
		if (err)
			return err;
	}
	return 0;
}
module_init(chacha_neon_mod_init);
