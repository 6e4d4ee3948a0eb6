// SPDX-License-Identifier: MIT
/*
 * ChaCha20 and XChaCha20 with AVX-512.  Requires: AVX512F, AVX512VL.
 *
 * Bulk data goes sixteen blocks at a time, word-sliced: zmm register i
 * holds state word i of sixteen consecutive blocks, rotations are single
 * VPROLD instructions, and a 16x16 transpose (in-lane dword unpacks, then
 * 128-bit lane shuffles) turns the words back into blocks.  The tail
 * (under 1024 bytes) uses the row layout, each zmm holding one row of four
 * blocks, up to two such groups interleaved.  The block counter (state
 * word 12) advances modulo 2^32, as in the generic code and the kernel.
 * No data-dependent branch or index: constant time.
 *
 * "chacha20-avx512vl" and "xchacha20-avx512vl", priority 600.
 */
#include <immintrin.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/util.h>
#include "../../algs/chacha.h"

#define AVX512 __attribute__((target("avx512f,avx512vl")))
#define AVX512_INLINE static inline __attribute__((always_inline, target("avx512f,avx512vl")))

#define QR16(a, b, c, d) do {							\
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

/* In-lane 4x4 dword transpose of x[0..3]: y[m] lane k = words of block 4k+m. */
AVX512_INLINE void dwords4x4(const __m512i x[4], __m512i y[4])
{
	__m512i t0 = _mm512_unpacklo_epi32(x[0], x[1]);
	__m512i t1 = _mm512_unpackhi_epi32(x[0], x[1]);
	__m512i t2 = _mm512_unpacklo_epi32(x[2], x[3]);
	__m512i t3 = _mm512_unpackhi_epi32(x[2], x[3]);

	y[0] = _mm512_unpacklo_epi64(t0, t2);
	y[1] = _mm512_unpackhi_epi64(t0, t2);
	y[2] = _mm512_unpacklo_epi64(t1, t3);
	y[3] = _mm512_unpackhi_epi64(t1, t3);
}

/* Sixteen blocks (1024 bytes) from counter state[12]. */
static AVX512 void chacha_16block(const u32 state[16], u8 *dst, const u8 *src)
{
	const __m512i inc = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
	__m512i x[16], y[4][4], o[4];
	int i, g, m;

	for (i = 0; i < 16; i++)
		x[i] = _mm512_set1_epi32((int)state[i]);
	x[12] = _mm512_add_epi32(x[12], inc);

	for (i = 0; i < 10; i++) {
		QR16(x[0], x[4], x[8], x[12]);
		QR16(x[1], x[5], x[9], x[13]);
		QR16(x[2], x[6], x[10], x[14]);
		QR16(x[3], x[7], x[11], x[15]);
		QR16(x[0], x[5], x[10], x[15]);
		QR16(x[1], x[6], x[11], x[12]);
		QR16(x[2], x[7], x[8], x[13]);
		QR16(x[3], x[4], x[9], x[14]);
	}

	for (i = 0; i < 16; i++)
		x[i] = _mm512_add_epi32(x[i], _mm512_set1_epi32((int)state[i]));
	x[12] = _mm512_add_epi32(x[12], inc);

	for (g = 0; g < 4; g++)
		dwords4x4(&x[4 * g], y[g]);
	for (m = 0; m < 4; m++) {
		lanes4x4(y[0][m], y[1][m], y[2][m], y[3][m], o);
		/* o[k] is block 4k + m */
		for (i = 0; i < 4; i++)
			xor_store64(dst + 64 * (4 * i + m), src + 64 * (4 * i + m), o[i]);
	}
}

/* Row layout: one zmm per row, four consecutive blocks in its four lanes. */
#define ROUND4(a, b, c, d) QR16(a, b, c, d)
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
	u8 buf[256] __attribute__((aligned(64)));
	__m512i o[4];
	size_t i;

	lanes4x4(a, b, c, d, o);
	if (len >= 256) {
		for (i = 0; i < 4; i++)
			xor_store64(dst + 64 * i, src + 64 * i, o[i]);
		return;
	}
	for (i = 0; i < len / 64; i++)
		xor_store64(dst + 64 * i, src + 64 * i, o[i]);
	if (len % 64) {
		_mm512_store_si512((void *)buf, o[len / 64]);
		crypto_xor_cpy(dst + len - len % 64, src + len - len % 64, buf, len % 64);
		memzero_explicit(buf, 64);
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

static AVX512 void chacha20_crypt_avx512(u32 state[16], u8 *dst, const u8 *src, size_t len)
{
	size_t n;

	while (len >= 1024) {
		chacha_16block(state, dst, src);
		state[12] += 16;
		dst += 1024;
		src += 1024;
		len -= 1024;
	}
	while (len > 256) {
		n = min(len, (size_t)512);
		chacha_8block_rows(state, dst, src, n);
		state[12] += (u32)((n + 63) / 64);
		dst += n;
		src += n;
		len -= n;
	}
	if (len) {
		chacha_4block_rows(state, dst, src, len);
		state[12] += (u32)((len + 63) / 64);
	}
	_mm256_zeroupper();
}

static struct chacha_alg chacha_avx512_algs[] = {
	RIND_CHACHA20_ALG("chacha20-avx512vl", 600, "x86", chacha20_crypt_avx512),
	RIND_XCHACHA20_ALG("xchacha20-avx512vl", 600, "x86", chacha20_crypt_avx512),
};

static int chacha_avx512_mod_init(void)
{
	size_t i;
	int err;

	/* The known-answer tests of "chacha20" and "xchacha20" are algs/chacha20.c's. */
	if (!rind_cpu_has(RIND_X86_AVX512F) || !rind_cpu_has(RIND_X86_AVX512VL))
		return 0;
	for (i = 0; i < ARRAY_SIZE(chacha_avx512_algs); i++) {
		err = crypto_register_skcipher(&chacha_avx512_algs[i].alg);
		if (err)
			return err;
	}
	return 0;
}

module_init(chacha_avx512_mod_init);
