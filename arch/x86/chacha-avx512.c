// SPDX-License-Identifier: MIT
/*
 * ChaCha20 and XChaCha20 with AVX-512.  Requires: AVX512F, AVX512VL, AVX512BW.
 *
 * Bulk data goes 32 (then 16) blocks at a time, word-sliced: zmm register
 * i holds state word i of sixteen consecutive blocks, rotations are single
 * VPROLD instructions, and a 16x16 transpose (in-lane dword unpacks, then
 * 128-bit lane shuffles) turns the words back into blocks; those cores are
 * in chacha-avx512-asm.S; a tail of more than 1280 (or 512 to 1023) bytes
 * runs them on a stack copy, as their latency is little more than that of
 * fewer blocks.  Other tails of 65 to 512 bytes use the row layout here,
 * each zmm holding one row of four blocks, up to two such groups
 * interleaved, the last partial block byte-masked; a single block goes to
 * the scalar code, whose latency is lower than any vector chain's.  The block counter (state
 * word 12) advances modulo 2^32, as in the generic code and the kernel.
 * No data-dependent branch or index: constant time.
 *
 * "chacha20-avx512vl" and "xchacha20-avx512vl", priority 600.
 */
#include <immintrin.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/util.h>
#include <crypto/chacha.h>
#include "chacha-avx512.h"
#include "x86-target.h"

#define AVX512 RIND_AVX512_TARGET("avx512f,avx512vl,avx512bw", "avx2")
#define AVX512_INLINE static inline __attribute__((always_inline)) AVX512

#define QR4(a, b, c, d) do {							\
		a = _mm512_add_epi32(a, b); d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 16); \
		c = _mm512_add_epi32(c, d); b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 12); \
		a = _mm512_add_epi32(a, b); d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 8);  \
		c = _mm512_add_epi32(c, d); b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 7);  \
	} while (0)

AVX512_INLINE void xor_store64(u8 *dst, const u8 *src, __m512i k)
{
	_mm512_storeu_si512((void *)dst, _mm512_xor_si512(_mm512_loadu_si512((const void *)src), k));
}

/*
 * o[j] = [p.j, q.j, r.j, s.j] (128-bit lanes): the four 16-byte pieces of
 * lane j of four vectors, as one 64-byte block.
 */
AVX512_INLINE void lanes4x4(__m512i p, __m512i q, __m512i r, __m512i s, __m512i o[4])
{
	__m512i t0 = _mm512_shuffle_i32x4(p, q, 0x44);	/* p0 p1 q0 q1 */
	__m512i t1 = _mm512_shuffle_i32x4(p, q, 0xee);	/* p2 p3 q2 q3 */
	__m512i t2 = _mm512_shuffle_i32x4(r, s, 0x44);	/* r0 r1 s0 s1 */
	__m512i t3 = _mm512_shuffle_i32x4(r, s, 0xee);	/* r2 r3 s2 s3 */

	o[0] = _mm512_shuffle_i32x4(t0, t2, 0x88);	/* p0 q0 r0 s0 */
	o[1] = _mm512_shuffle_i32x4(t0, t2, 0xdd);	/* p1 q1 r1 s1 */
	o[2] = _mm512_shuffle_i32x4(t1, t3, 0x88);
	o[3] = _mm512_shuffle_i32x4(t1, t3, 0xdd);
}

/* The word-sliced cores, in chacha-avx512-asm.S. */
void rind_chacha20_16block_avx512(const u32 state[16], u8 *dst, const u8 *src);
void rind_chacha20_32block_avx512(const u32 state[16], u8 *dst, const u8 *src);

#ifdef RIND_AVX512_EMU
/*
 * The emulation build (tests/emu/README.md) cannot run the assembly cores
 * (EVEX instructions): there they are the generic code on a copy of the
 * state, so that the row-layout C paths below still run emulated.
 */
static void chacha_emu_blocks(const u32 state[16], u8 *dst, const u8 *src, size_t len)
{
	u32 st[16];

	memcpy(st, state, sizeof(st));
	rind_chacha20_crypt_generic(st, dst, src, len);
	memzero_explicit(st, sizeof(st));
}
#define rind_chacha20_16block_avx512(st, d, s) chacha_emu_blocks((st), (d), (s), 1024)
#define rind_chacha20_32block_avx512(st, d, s) chacha_emu_blocks((st), (d), (s), 2048)
#endif

/* Row layout: one zmm per row, four consecutive blocks in its four lanes. */
#define ROUND4(a, b, c, d) QR4(a, b, c, d)
#define DIAG4(b, c, d) do {						\
		b = _mm512_shuffle_epi32(b, (_MM_PERM_ENUM)0x39);		\
		c = _mm512_shuffle_epi32(c, (_MM_PERM_ENUM)0x4e);		\
		d = _mm512_shuffle_epi32(d, (_MM_PERM_ENUM)0x93);		\
	} while (0)
#define UNDIAG4(b, c, d) do {						\
		b = _mm512_shuffle_epi32(b, (_MM_PERM_ENUM)0x93);		\
		c = _mm512_shuffle_epi32(c, (_MM_PERM_ENUM)0x4e);		\
		d = _mm512_shuffle_epi32(d, (_MM_PERM_ENUM)0x39);		\
	} while (0)

/* XOR up to 256 bytes of the four blocks held in rows a, b, c, d. */
AVX512_INLINE void out_quad(__m512i a, __m512i b, __m512i c, __m512i d, u8 *dst, const u8 *src,
			    size_t len)
{
	__m512i o[4];
	size_t i, full = len / 64;

	lanes4x4(a, b, c, d, o);
	for (i = 0; i < full && i < 4; i++)
		xor_store64(dst + 64 * i, src + 64 * i, o[i]);
	if (full < 4 && len % 64) {
		/* the last, partial block: byte-masked (no fault past the end) */
		__mmask64 m = (__mmask64)((1ull << (len % 64)) - 1);
		__m512i x = _mm512_maskz_loadu_epi8(m, src + 64 * full);

		_mm512_mask_storeu_epi8(dst + 64 * full, m, _mm512_xor_si512(x, o[full]));
	}
}

AVX512_INLINE void load_rows(const u32 state[16], __m512i *a, __m512i *b, __m512i *c, __m512i *d)
{
	*a = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)&state[0]));
	*b = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)&state[4]));
	*c = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)&state[8]));
	*d = _mm512_add_epi32(_mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)&state[12])),
			      _mm512_setr_epi32(0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0));
}

/* Up to eight blocks (len <= 512) from counter state[12]: two row groups. */
static AVX512 void chacha_8block_rows(const u32 state[16], u8 *dst, const u8 *src, size_t len)
{
	const __m512i four = _mm512_setr_epi32(4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0);
	__m512i a, b, c, d, a0, b0, c0, d0, a1, b1, c1, d1;
	int i;

	load_rows(state, &a, &b, &c, &d);
	a0 = a1 = a;
	b0 = b1 = b;
	c0 = c1 = c;
	d0 = d;
	d1 = _mm512_add_epi32(d, four);
	for (i = 0; i < 10; i++) {
		ROUND4(a0, b0, c0, d0);
		ROUND4(a1, b1, c1, d1);
		DIAG4(b0, c0, d0);
		DIAG4(b1, c1, d1);
		ROUND4(a0, b0, c0, d0);
		ROUND4(a1, b1, c1, d1);
		UNDIAG4(b0, c0, d0);
		UNDIAG4(b1, c1, d1);
	}
	out_quad(_mm512_add_epi32(a0, a), _mm512_add_epi32(b0, b), _mm512_add_epi32(c0, c),
		 _mm512_add_epi32(d0, d), dst, src, min(len, (size_t)256));
	if (len > 256)
		out_quad(_mm512_add_epi32(a1, a), _mm512_add_epi32(b1, b),
			 _mm512_add_epi32(c1, c), _mm512_add_epi32(d1, _mm512_add_epi32(d, four)),
			 dst + 256, src + 256, len - 256);
}

/* Up to four blocks (len <= 256): one row group. */
static AVX512 void chacha_4block_rows(const u32 state[16], u8 *dst, const u8 *src, size_t len)
{
	__m512i a, b, c, d, a0, b0, c0, d0;
	int i;

	load_rows(state, &a, &b, &c, &d);
	a0 = a;
	b0 = b;
	c0 = c;
	d0 = d;
	for (i = 0; i < 10; i++) {
		ROUND4(a0, b0, c0, d0);
		DIAG4(b0, c0, d0);
		ROUND4(a0, b0, c0, d0);
		UNDIAG4(b0, c0, d0);
	}
	out_quad(_mm512_add_epi32(a0, a), _mm512_add_epi32(b0, b), _mm512_add_epi32(c0, c),
		 _mm512_add_epi32(d0, d), dst, src, len);
}

AVX512 void rind_chacha20_crypt_avx512(u32 state[16], u8 *dst, const u8 *src, size_t len)
{
	u8 buf[2048] __attribute__((aligned(64)));

	/* one block: the scalar code is faster than any vector latency chain */
	if (len <= 64) {
		rind_chacha20_crypt_generic(state, dst, src, len);
		return;
	}
	while (len >= 2048) {
		rind_chacha20_32block_avx512(state, dst, src);
		state[12] += 32;
		dst += 2048;
		src += 2048;
		len -= 2048;
	}
	if (len > 1280 || (len > 512 && len < 1024)) {
		/*
		 * 32 (16) blocks cost little more latency than 8 in rows: run
		 * the core on a copy and keep what is needed.
		 */
		size_t cap = len > 1024 ? 2048 : 1024;

		memcpy(buf, src, len);
		if (cap == 2048)
			rind_chacha20_32block_avx512(state, buf, buf);
		else
			rind_chacha20_16block_avx512(state, buf, buf);
		memcpy(dst, buf, len);
		memzero_explicit(buf, cap);
		state[12] += (u32)((len + 63) / 64);
		return;
	}
	if (len >= 1024) {
		rind_chacha20_16block_avx512(state, dst, src);
		state[12] += 16;
		dst += 1024;
		src += 1024;
		len -= 1024;
	}
	if (len > 256) {
		chacha_8block_rows(state, dst, src, len);
		state[12] += (u32)((len + 63) / 64);
	} else if (len) {
		chacha_4block_rows(state, dst, src, len);
		state[12] += (u32)((len + 63) / 64);
	}
	_mm256_zeroupper();
}

static struct chacha_alg chacha_avx512_algs[] = {
	RIND_CHACHA20_ALG("chacha20-avx512vl", 600, "x86", rind_chacha20_crypt_avx512),
	RIND_XCHACHA20_ALG("xchacha20-avx512vl", 600, "x86", rind_chacha20_crypt_avx512),
};

static int chacha_avx512_mod_init(void)
{
	size_t i;
	int err;

	/* The known-answer tests of "chacha20" and "xchacha20" are algs/chacha20.c's. */
	if (!rind_cpu_has(RIND_X86_AVX512F) || !rind_cpu_has(RIND_X86_AVX512VL) ||
	    !rind_cpu_has(RIND_X86_AVX512BW))
		return 0;
	for (i = 0; i < ARRAY_SIZE(chacha_avx512_algs); i++) {
		err = crypto_register_skcipher(&chacha_avx512_algs[i].alg);
		if (err)
			return err;
	}
	return 0;
}

module_init(chacha_avx512_mod_init);
