/* SPDX-License-Identifier: MIT */
/*
 * AVX-512 in plain C, for the emulation build (make check-avx512-emu,
 * tests/emu/README.md): force-included (-include) into the arch/x86 files
 * compiled with -DRIND_AVX512_EMU, so that the AVX-512 drivers run on a
 * CPU without AVX-512 and pass the same suites as the other drivers.
 *
 * <immintrin.h> comes first; then __m512i is redefined as a plain 64-byte
 * union (emu_m512i) and every intrinsic the drivers use, as a plain C
 * function (emu_*), is #defined over the <immintrin.h> name.  A driver
 * compiled this way must drop the avx512* / vaes / vpclmulqdq target
 * features (RIND_X86_TARGET() of arch/x86/x86-target.h): then the
 * compiler can emit no EVEX instruction, and the Makefile target checks
 * the objects for none.
 *
 * Each function follows the pseudo-code of the Intel SDM / Intrinsics
 * Guide for the instruction; tests/emu/test_emu.c checks each against
 * values worked out from those definitions.  Where the SDM leaves bits
 * undefined (the upper part of _mm512_castsi128/256_si512), this header
 * fills them with a poison pattern so that a driver relying on them shows
 * up.  Aligned loads and stores trap on a misaligned address as the
 * instructions fault; masked loads and stores touch only the bytes their
 * mask selects (fault suppression).
 *
 * The 128-bit AES and carry-less multiplication per lane call the AES-NI
 * and PCLMULQDQ intrinsics (the emulating CPU has them); the 256-bit forms
 * of AVX512VL intrinsics take and return the real AVX2 __m256i.
 *
 * Adding an intrinsic: append it in a section of its own at the end (see
 * tests/emu/README.md), #undef + #define its name, and add a test of it to
 * tests/emu/test_emu.c.
 */
#ifndef RIND_TESTS_AVX512_EMU_H
#define RIND_TESTS_AVX512_EMU_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#define EMU_INL static inline __attribute__((unused))
#define EMU_INL_AES static inline __attribute__((unused, target("aes,sse2")))
#define EMU_INL_CLMUL static inline __attribute__((unused, target("pclmul,sse2")))
#define EMU_INL_256 static inline __attribute__((unused, target("avx2")))

/* The 512-bit register: 8 qwords, 16 dwords, 32 words or 64 bytes, little-endian lanes. */
typedef union {
	uint64_t q[8];
	uint32_t d[16];
	uint16_t w[32];
	uint8_t b[64];
} __attribute__((aligned(64))) emu_m512i;

/* The bits the SDM leaves undefined (upper lanes of the casts up). */
#define EMU_POISON 0xa5c3e10fdeadbeefULL

#undef __m512i
#define __m512i emu_m512i

/*
 * All ones where bit @i of the mask @k is set, else zero: the masked
 * operations select with it instead of branching, so that a mask made
 * from secret data (the 25519 drivers' lane blends, ML-KEM's compression
 * corrections, ML-DSA's decompose) leaves no secret-dependent branch for
 * valgrind's constant-time check to flag, as the instructions leave none.
 * For the same reason the compares that produce masks compute each bit
 * arithmetically (no `if`, which the compiler may keep as a jump).
 * The exceptions, each said where it is: the masked loads and stores
 * branch on their mask, as they must not touch a masked-off byte (their
 * masks are lengths); VPCOMPRESSD stores at an index its mask sets (used
 * on the public rejection-sampling candidates only); and the table
 * lookups (VPSHUFB, VPERM*) index by their index vector, which the drivers
 * load from constants.
 */
#define EMU_MBIT(k, i) ((uint64_t)0 - (((uint64_t)(k) >> (i)) & 1))
#define EMU_SEL(m, x, y) (((x) & (m)) | ((y) & ~(m)))

/* ---- 128/256-bit pieces ---- */

EMU_INL __m128i emu_get128(const emu_m512i *a, int i)
{
	return _mm_loadu_si128((const __m128i *)&a->b[16 * (i & 3)]);
}

EMU_INL void emu_put128(emu_m512i *a, int i, __m128i x)
{
	_mm_storeu_si128((__m128i *)&a->b[16 * (i & 3)], x);
}

/* ---- set, load, store ---- */

EMU_INL emu_m512i emu_mm512_setzero_si512(void)
{
	emu_m512i r;

	memset(&r, 0, sizeof(r));
	return r;
}

EMU_INL emu_m512i emu_mm512_set1_epi64(long long x)
{
	emu_m512i r;
	int i;

	for (i = 0; i < 8; i++)
		r.q[i] = (uint64_t)x;
	return r;
}

EMU_INL emu_m512i emu_mm512_set1_epi32(int x)
{
	emu_m512i r;
	int i;

	for (i = 0; i < 16; i++)
		r.d[i] = (uint32_t)x;
	return r;
}

/* _mm512_set_epi64(e7, ..., e0): the last argument in lane 0. */
EMU_INL emu_m512i emu_mm512_set_epi64(long long e7, long long e6, long long e5, long long e4,
				      long long e3, long long e2, long long e1, long long e0)
{
	emu_m512i r;

	r.q[0] = (uint64_t)e0; r.q[1] = (uint64_t)e1; r.q[2] = (uint64_t)e2; r.q[3] = (uint64_t)e3;
	r.q[4] = (uint64_t)e4; r.q[5] = (uint64_t)e5; r.q[6] = (uint64_t)e6; r.q[7] = (uint64_t)e7;
	return r;
}

/* _mm512_set_epi32(e15, ..., e0): the last argument in lane 0. */
EMU_INL emu_m512i emu_mm512_set_epi32(int e15, int e14, int e13, int e12, int e11, int e10,
				      int e9, int e8, int e7, int e6, int e5, int e4, int e3,
				      int e2, int e1, int e0)
{
	const int e[16] = { e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15 };
	emu_m512i r;
	int i;

	for (i = 0; i < 16; i++)
		r.d[i] = (uint32_t)e[i];
	return r;
}

/* _mm512_setr_epi32(e0, ..., e15): the first argument in lane 0. */
EMU_INL emu_m512i emu_mm512_setr_epi32(int e0, int e1, int e2, int e3, int e4, int e5, int e6,
				       int e7, int e8, int e9, int e10, int e11, int e12, int e13,
				       int e14, int e15)
{
	return emu_mm512_set_epi32(e15, e14, e13, e12, e11, e10, e9, e8, e7, e6, e5, e4, e3, e2,
				   e1, e0);
}

EMU_INL emu_m512i emu_mm512_loadu_si512(const void *p)
{
	emu_m512i r;

	memcpy(&r, p, sizeof(r));
	return r;
}

EMU_INL void emu_mm512_storeu_si512(void *p, emu_m512i a)
{
	memcpy(p, &a, sizeof(a));
}

/* VMOVDQA64 faults (#GP) on an address that is not 64-byte aligned. */
EMU_INL emu_m512i emu_mm512_load_si512(const void *p)
{
	if ((uintptr_t)p & 63)
		__builtin_trap();
	return emu_mm512_loadu_si512(p);
}

EMU_INL void emu_mm512_store_si512(void *p, emu_m512i a)
{
	if ((uintptr_t)p & 63)
		__builtin_trap();
	emu_mm512_storeu_si512(p, a);
}

/*
 * VMOVDQU8 with a mask: byte i is read (written) only where bit i of @k
 * is set; the others are zero (left alone) and never touched, so a
 * masked-off byte on an unmapped page does not fault.
 */
EMU_INL emu_m512i emu_mm512_maskz_loadu_epi8(__mmask64 k, const void *p)
{
	const volatile uint8_t *s = (const volatile uint8_t *)p;
	emu_m512i r;
	int i;

	for (i = 0; i < 64; i++)
		r.b[i] = (k >> i) & 1 ? s[i] : 0;
	return r;
}

EMU_INL void emu_mm512_mask_storeu_epi8(void *p, __mmask64 k, emu_m512i a)
{
	volatile uint8_t *d = (volatile uint8_t *)p;
	int i;

	for (i = 0; i < 64; i++)
		if ((k >> i) & 1)
			d[i] = a.b[i];
}

EMU_INL emu_m512i emu_mm512_maskz_mov_epi8(__mmask64 k, emu_m512i a)
{
	emu_m512i r;
	int i;

	for (i = 0; i < 64; i++)
		r.b[i] = (uint8_t)(a.b[i] & EMU_MBIT(k, i));
	return r;
}

/* VPBROADCASTQ with a zeroing mask. */
EMU_INL emu_m512i emu_mm512_maskz_set1_epi64(__mmask8 k, long long x)
{
	emu_m512i r;
	int i;

	for (i = 0; i < 8; i++)
		r.q[i] = (uint64_t)x & EMU_MBIT(k, i);
	return r;
}

/* ---- casts, extract, insert, broadcast ---- */

/* The upper 384 bits are undefined in the SDM: poisoned here. */
EMU_INL emu_m512i emu_mm512_castsi128_si512(__m128i x)
{
	emu_m512i r;
	int i;

	for (i = 0; i < 8; i++)
		r.q[i] = EMU_POISON ^ (uint64_t)i;
	emu_put128(&r, 0, x);
	return r;
}

EMU_INL emu_m512i emu_mm512_zextsi128_si512(__m128i x)
{
	emu_m512i r = emu_mm512_setzero_si512();

	emu_put128(&r, 0, x);
	return r;
}

EMU_INL __m128i emu_mm512_castsi512_si128(emu_m512i a)
{
	return emu_get128(&a, 0);
}

EMU_INL emu_m512i emu_mm512_broadcast_i32x4(__m128i x)
{
	emu_m512i r;
	int i;

	for (i = 0; i < 4; i++)
		emu_put128(&r, i, x);
	return r;
}

/* VEXTRACTI32X4: imm[1:0] selects the 128-bit lane. */
EMU_INL __m128i emu_mm512_extracti32x4_epi32(emu_m512i a, int imm)
{
	return emu_get128(&a, imm & 3);
}

/* ---- the 256-bit halves (their callers are compiled for AVX2) ---- */

/* The upper 256 bits are undefined in the SDM: poisoned here. */
EMU_INL_256 emu_m512i emu_mm512_castsi256_si512(__m256i x)
{
	emu_m512i r;
	int i;

	for (i = 4; i < 8; i++)
		r.q[i] = EMU_POISON ^ (uint64_t)i;
	_mm256_storeu_si256((__m256i *)&r.b[0], x);
	return r;
}

EMU_INL_256 emu_m512i emu_mm512_zextsi256_si512(__m256i x)
{
	emu_m512i r = emu_mm512_setzero_si512();

	_mm256_storeu_si256((__m256i *)&r.b[0], x);
	return r;
}

EMU_INL_256 __m256i emu_mm512_castsi512_si256(emu_m512i a)
{
	return _mm256_loadu_si256((const __m256i *)&a.b[0]);
}

/* VEXTRACTI64X4: imm[0] selects the 256-bit half. */
EMU_INL_256 __m256i emu_mm512_extracti64x4_epi64(emu_m512i a, int imm)
{
	return _mm256_loadu_si256((const __m256i *)&a.b[32 * (imm & 1)]);
}

/* VINSERTI64X4: @a with its half imm[0] replaced by @b. */
EMU_INL_256 emu_m512i emu_mm512_inserti64x4(emu_m512i a, __m256i b, int imm)
{
	_mm256_storeu_si256((__m256i *)&a.b[32 * (imm & 1)], b);
	return a;
}

EMU_INL_256 emu_m512i emu_mm512_broadcast_i64x4(__m256i x)
{
	emu_m512i r;

	_mm256_storeu_si256((__m256i *)&r.b[0], x);
	_mm256_storeu_si256((__m256i *)&r.b[32], x);
	return r;
}

/* ---- bitwise ---- */

EMU_INL emu_m512i emu_mm512_and_si512(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 8; i++)
		a.q[i] &= b.q[i];
	return a;
}

EMU_INL emu_m512i emu_mm512_or_si512(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 8; i++)
		a.q[i] |= b.q[i];
	return a;
}

EMU_INL emu_m512i emu_mm512_xor_si512(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 8; i++)
		a.q[i] ^= b.q[i];
	return a;
}

/* (~a) & b, as VPANDNQ. */
EMU_INL emu_m512i emu_mm512_andnot_si512(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 8; i++)
		a.q[i] = ~a.q[i] & b.q[i];
	return a;
}

/*
 * VPTERNLOGQ: bit j of the result is bit (a_j << 2 | b_j << 1 | c_j) of
 * imm8 (the SDM's truth table).  As the OR of the minterms imm8 selects.
 */
EMU_INL uint64_t emu_ternlog64(uint64_t a, uint64_t b, uint64_t c, int imm)
{
	uint64_t r = 0;
	int m;

	for (m = 0; m < 8; m++)
		if ((imm >> m) & 1)
			r |= ((m & 4) ? a : ~a) & ((m & 2) ? b : ~b) & ((m & 1) ? c : ~c);
	return r;
}

EMU_INL emu_m512i emu_mm512_ternarylogic_epi64(emu_m512i a, emu_m512i b, emu_m512i c, int imm)
{
	int i;

	for (i = 0; i < 8; i++)
		a.q[i] = emu_ternlog64(a.q[i], b.q[i], c.q[i], imm & 0xff);
	return a;
}

/* ---- integer arithmetic ---- */

EMU_INL emu_m512i emu_mm512_add_epi64(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 8; i++)
		a.q[i] += b.q[i];
	return a;
}

EMU_INL emu_m512i emu_mm512_sub_epi64(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 8; i++)
		a.q[i] -= b.q[i];
	return a;
}

EMU_INL emu_m512i emu_mm512_add_epi32(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 16; i++)
		a.d[i] += b.d[i];
	return a;
}

EMU_INL emu_m512i emu_mm512_sub_epi32(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 16; i++)
		a.d[i] -= b.d[i];
	return a;
}

/* VPSUBQ with a merge mask: lanes of @src where bit i of @k is clear. */
EMU_INL emu_m512i emu_mm512_mask_sub_epi64(emu_m512i src, __mmask8 k, emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 8; i++)
		src.q[i] = EMU_SEL(EMU_MBIT(k, i), a.q[i] - b.q[i], src.q[i]);
	return src;
}

EMU_INL emu_m512i emu_mm512_mask_add_epi64(emu_m512i src, __mmask8 k, emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 8; i++)
		src.q[i] = EMU_SEL(EMU_MBIT(k, i), a.q[i] + b.q[i], src.q[i]);
	return src;
}

/* VPBLENDMQ: lane i of @b where bit i of @k is set, of @a elsewhere. */
EMU_INL emu_m512i emu_mm512_mask_blend_epi64(__mmask8 k, emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 8; i++)
		a.q[i] = EMU_SEL(EMU_MBIT(k, i), b.q[i], a.q[i]);
	return a;
}

/* Wrapping sum of the eight qword lanes. */
EMU_INL long long emu_mm512_reduce_add_epi64(emu_m512i a)
{
	uint64_t s = 0;
	int i;

	for (i = 0; i < 8; i++)
		s += a.q[i];
	return (long long)s;
}

/*
 * VPMADD52LUQ / VPMADD52HUQ: the 104-bit product of bits 51:0 of @b and of
 * @c; a + its bits 51:0 (lo) or 103:52 (hi), modulo 2^64.  Bits 63:52 of
 * b and c are ignored.
 */
#define EMU_M52 ((1ULL << 52) - 1)

EMU_INL uint64_t emu_madd52lo(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned __int128 t = (unsigned __int128)(b & EMU_M52) * (c & EMU_M52);

	return a + ((uint64_t)t & EMU_M52);
}

EMU_INL uint64_t emu_madd52hi(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned __int128 t = (unsigned __int128)(b & EMU_M52) * (c & EMU_M52);

	return a + (uint64_t)(t >> 52);
}

EMU_INL emu_m512i emu_mm512_madd52lo_epu64(emu_m512i a, emu_m512i b, emu_m512i c)
{
	int i;

	for (i = 0; i < 8; i++)
		a.q[i] = emu_madd52lo(a.q[i], b.q[i], c.q[i]);
	return a;
}

EMU_INL emu_m512i emu_mm512_madd52hi_epu64(emu_m512i a, emu_m512i b, emu_m512i c)
{
	int i;

	for (i = 0; i < 8; i++)
		a.q[i] = emu_madd52hi(a.q[i], b.q[i], c.q[i]);
	return a;
}

/* ---- shifts and rotations (a count above the width gives 0 for shifts) ---- */

EMU_INL emu_m512i emu_mm512_slli_epi64(emu_m512i a, unsigned int n)
{
	int i;

	for (i = 0; i < 8; i++)
		a.q[i] = n > 63 ? 0 : a.q[i] << n;
	return a;
}

EMU_INL emu_m512i emu_mm512_srli_epi64(emu_m512i a, unsigned int n)
{
	int i;

	for (i = 0; i < 8; i++)
		a.q[i] = n > 63 ? 0 : a.q[i] >> n;
	return a;
}

EMU_INL emu_m512i emu_mm512_slli_epi32(emu_m512i a, unsigned int n)
{
	int i;

	for (i = 0; i < 16; i++)
		a.d[i] = n > 31 ? 0 : a.d[i] << n;
	return a;
}

EMU_INL emu_m512i emu_mm512_srli_epi32(emu_m512i a, unsigned int n)
{
	int i;

	for (i = 0; i < 16; i++)
		a.d[i] = n > 31 ? 0 : a.d[i] >> n;
	return a;
}

/* VPROLD / VPRORQ: the count modulo the width. */
EMU_INL emu_m512i emu_mm512_rol_epi32(emu_m512i a, int imm)
{
	unsigned int n = (unsigned int)imm & 31;
	int i;

	for (i = 0; i < 16; i++)
		a.d[i] = n ? (a.d[i] << n) | (a.d[i] >> (32 - n)) : a.d[i];
	return a;
}

EMU_INL emu_m512i emu_mm512_ror_epi32(emu_m512i a, int imm)
{
	return emu_mm512_rol_epi32(a, (32 - (imm & 31)) & 31);
}

EMU_INL emu_m512i emu_mm512_rol_epi64(emu_m512i a, int imm)
{
	unsigned int n = (unsigned int)imm & 63;
	int i;

	for (i = 0; i < 8; i++)
		a.q[i] = n ? (a.q[i] << n) | (a.q[i] >> (64 - n)) : a.q[i];
	return a;
}

EMU_INL emu_m512i emu_mm512_ror_epi64(emu_m512i a, int imm)
{
	return emu_mm512_rol_epi64(a, (64 - (imm & 63)) & 63);
}

/* ---- shuffles and permutations ---- */

/* VPSHUFD: in each 128-bit lane, dword i = dword imm[2i+1:2i] of that lane. */
EMU_INL emu_m512i emu_mm512_shuffle_epi32(emu_m512i a, int imm)
{
	emu_m512i r;
	int l, i;

	for (l = 0; l < 4; l++)
		for (i = 0; i < 4; i++)
			r.d[4 * l + i] = a.d[4 * l + ((imm >> (2 * i)) & 3)];
	return r;
}

/*
 * VPSHUFB: in each 128-bit lane, byte i = 0 if bit 7 of b's byte i is set,
 * else byte (b_i & 15) of a's same lane.  (A table lookup by b: the
 * drivers' index vectors are constants.  The zeroing is a select.)
 */
EMU_INL emu_m512i emu_mm512_shuffle_epi8(emu_m512i a, emu_m512i b)
{
	emu_m512i r;
	int i;

	for (i = 0; i < 64; i++)
		r.b[i] = (uint8_t)(a.b[(i & ~15) + (b.b[i] & 15)] & ~EMU_MBIT(b.b[i], 7));
	return r;
}

/*
 * VSHUFI64X2 / VSHUFI32X4: 128-bit lanes 0 and 1 from @a, 2 and 3 from @b,
 * lane i being lane imm[2i+1:2i] of its source.  (The two differ only in
 * their masked forms.)
 */
EMU_INL emu_m512i emu_mm512_shuffle_i64x2(emu_m512i a, emu_m512i b, int imm)
{
	emu_m512i r;
	int i;

	for (i = 0; i < 4; i++)
		emu_put128(&r, i, emu_get128(i < 2 ? &a : &b, (imm >> (2 * i)) & 3));
	return r;
}

EMU_INL emu_m512i emu_mm512_shuffle_i32x4(emu_m512i a, emu_m512i b, int imm)
{
	return emu_mm512_shuffle_i64x2(a, b, imm);
}

/*
 * VALIGNQ: @a above @b as one 16-qword value, shifted down by imm[2:0]
 * qwords; the low 8 qwords.
 */
EMU_INL emu_m512i emu_mm512_alignr_epi64(emu_m512i a, emu_m512i b, int imm)
{
	emu_m512i r;
	int i, j;

	for (i = 0; i < 8; i++) {
		j = i + (imm & 7);
		r.q[i] = j < 8 ? b.q[j] : a.q[j - 8];
	}
	return r;
}

/* VPERMQ (immediate): in each 256-bit half, qword i = qword imm[2i+1:2i] of that half. */
EMU_INL emu_m512i emu_mm512_permutex_epi64(emu_m512i a, int imm)
{
	emu_m512i r;
	int h, i;

	for (h = 0; h < 2; h++)
		for (i = 0; i < 4; i++)
			r.q[4 * h + i] = a.q[4 * h + ((imm >> (2 * i)) & 3)];
	return r;
}

/* VPERMQ (vector): qword i = qword idx[i] & 7 of @a. */
EMU_INL emu_m512i emu_mm512_permutexvar_epi64(emu_m512i idx, emu_m512i a)
{
	emu_m512i r;
	int i;

	for (i = 0; i < 8; i++)
		r.q[i] = a.q[idx.q[i] & 7];
	return r;
}

/* VPUNPCKLQDQ / VPUNPCKHQDQ: per 128-bit lane (a.lo, b.lo) and (a.hi, b.hi). */
EMU_INL emu_m512i emu_mm512_unpacklo_epi64(emu_m512i a, emu_m512i b)
{
	emu_m512i r;
	int l;

	for (l = 0; l < 4; l++) {
		r.q[2 * l] = a.q[2 * l];
		r.q[2 * l + 1] = b.q[2 * l];
	}
	return r;
}

EMU_INL emu_m512i emu_mm512_unpackhi_epi64(emu_m512i a, emu_m512i b)
{
	emu_m512i r;
	int l;

	for (l = 0; l < 4; l++) {
		r.q[2 * l] = a.q[2 * l + 1];
		r.q[2 * l + 1] = b.q[2 * l + 1];
	}
	return r;
}

/* ---- AES and carry-less multiplication, per 128-bit lane ---- */

#define EMU_AES_LANES(name, op)							\
EMU_INL_AES emu_m512i name(emu_m512i a, emu_m512i k)				\
{										\
	int i;									\
										\
	for (i = 0; i < 4; i++)							\
		emu_put128(&a, i, op(emu_get128(&a, i), emu_get128(&k, i)));	\
	return a;								\
}
EMU_AES_LANES(emu_mm512_aesenc_epi128, _mm_aesenc_si128)
EMU_AES_LANES(emu_mm512_aesenclast_epi128, _mm_aesenclast_si128)
EMU_AES_LANES(emu_mm512_aesdec_epi128, _mm_aesdec_si128)
EMU_AES_LANES(emu_mm512_aesdeclast_epi128, _mm_aesdeclast_si128)
#undef EMU_AES_LANES

/*
 * VPCLMULQDQ: in each 128-bit lane, the carry-less product of qword imm[0]
 * of @a and qword imm[4] of @b (the other immediate bits are ignored).
 */
EMU_INL_CLMUL __m128i emu_clmul128(__m128i x, __m128i y, int imm)
{
	switch (imm & 0x11) {
	case 0x00:
		return _mm_clmulepi64_si128(x, y, 0x00);
	case 0x01:
		return _mm_clmulepi64_si128(x, y, 0x01);
	case 0x10:
		return _mm_clmulepi64_si128(x, y, 0x10);
	default:
		return _mm_clmulepi64_si128(x, y, 0x11);
	}
}

EMU_INL_CLMUL emu_m512i emu_mm512_clmulepi64_epi128(emu_m512i a, emu_m512i b, int imm)
{
	int l;

	for (l = 0; l < 4; l++)
		emu_put128(&a, l, emu_clmul128(emu_get128(&a, l), emu_get128(&b, l), imm));
	return a;
}

/* ---- AVX512VL forms on the 256-bit (AVX2) __m256i ---- */

EMU_INL_256 __m256i emu_mm256_madd52lo_epu64(__m256i a, __m256i b, __m256i c)
{
	uint64_t x[4], y[4], z[4];
	int i;

	_mm256_storeu_si256((__m256i *)x, a);
	_mm256_storeu_si256((__m256i *)y, b);
	_mm256_storeu_si256((__m256i *)z, c);
	for (i = 0; i < 4; i++)
		x[i] = emu_madd52lo(x[i], y[i], z[i]);
	return _mm256_loadu_si256((const __m256i *)x);
}

EMU_INL_256 __m256i emu_mm256_madd52hi_epu64(__m256i a, __m256i b, __m256i c)
{
	uint64_t x[4], y[4], z[4];
	int i;

	_mm256_storeu_si256((__m256i *)x, a);
	_mm256_storeu_si256((__m256i *)y, b);
	_mm256_storeu_si256((__m256i *)z, c);
	for (i = 0; i < 4; i++)
		x[i] = emu_madd52hi(x[i], y[i], z[i]);
	return _mm256_loadu_si256((const __m256i *)x);
}

EMU_INL_256 __m256i emu_mm256_mask_sub_epi64(__m256i src, __mmask8 k, __m256i a, __m256i b)
{
	uint64_t s[4], x[4], y[4];
	int i;

	_mm256_storeu_si256((__m256i *)s, src);
	_mm256_storeu_si256((__m256i *)x, a);
	_mm256_storeu_si256((__m256i *)y, b);
	for (i = 0; i < 4; i++)
		s[i] = EMU_SEL(EMU_MBIT(k, i), x[i] - y[i], s[i]);
	return _mm256_loadu_si256((const __m256i *)s);
}

EMU_INL_256 __m256i emu_mm256_mask_blend_epi64(__mmask8 k, __m256i a, __m256i b)
{
	uint64_t x[4], y[4];
	int i;

	_mm256_storeu_si256((__m256i *)x, a);
	_mm256_storeu_si256((__m256i *)y, b);
	for (i = 0; i < 4; i++)
		x[i] = EMU_SEL(EMU_MBIT(k, i), y[i], x[i]);
	return _mm256_loadu_si256((const __m256i *)x);
}

/* VPRORQ and VPTERNLOGQ on four lanes (AVX512VL): the 512-bit ones' low half. */
EMU_INL_256 __m256i emu_mm256_ror_epi64(__m256i a, int n)
{
	return emu_mm512_castsi512_si256(emu_mm512_ror_epi64(emu_mm512_zextsi256_si512(a), n));
}

EMU_INL_256 __m256i emu_mm256_ternarylogic_epi64(__m256i a, __m256i b, __m256i c, int imm)
{
	return emu_mm512_castsi512_si256(emu_mm512_ternarylogic_epi64(emu_mm512_zextsi256_si512(a),
		emu_mm512_zextsi256_si512(b), emu_mm512_zextsi256_si512(c), imm));
}

/* ---- the intrinsic names ---- */

#undef _mm512_setzero_si512
#define _mm512_setzero_si512 emu_mm512_setzero_si512
#undef _mm512_set1_epi64
#define _mm512_set1_epi64 emu_mm512_set1_epi64
#undef _mm512_set1_epi32
#define _mm512_set1_epi32 emu_mm512_set1_epi32
#undef _mm512_set_epi64
#define _mm512_set_epi64 emu_mm512_set_epi64
#undef _mm512_set_epi32
#define _mm512_set_epi32 emu_mm512_set_epi32
#undef _mm512_setr_epi32
#define _mm512_setr_epi32 emu_mm512_setr_epi32
#undef _mm512_loadu_si512
#define _mm512_loadu_si512 emu_mm512_loadu_si512
#undef _mm512_storeu_si512
#define _mm512_storeu_si512 emu_mm512_storeu_si512
#undef _mm512_load_si512
#define _mm512_load_si512 emu_mm512_load_si512
#undef _mm512_store_si512
#define _mm512_store_si512 emu_mm512_store_si512
#undef _mm512_maskz_loadu_epi8
#define _mm512_maskz_loadu_epi8 emu_mm512_maskz_loadu_epi8
#undef _mm512_mask_storeu_epi8
#define _mm512_mask_storeu_epi8 emu_mm512_mask_storeu_epi8
#undef _mm512_maskz_mov_epi8
#define _mm512_maskz_mov_epi8 emu_mm512_maskz_mov_epi8
#undef _mm512_maskz_set1_epi64
#define _mm512_maskz_set1_epi64 emu_mm512_maskz_set1_epi64
#undef _mm512_castsi128_si512
#define _mm512_castsi128_si512 emu_mm512_castsi128_si512
#undef _mm512_zextsi128_si512
#define _mm512_zextsi128_si512 emu_mm512_zextsi128_si512
#undef _mm512_castsi512_si128
#define _mm512_castsi512_si128 emu_mm512_castsi512_si128
#undef _mm512_broadcast_i32x4
#define _mm512_broadcast_i32x4 emu_mm512_broadcast_i32x4
#undef _mm512_extracti32x4_epi32
#define _mm512_extracti32x4_epi32 emu_mm512_extracti32x4_epi32
#undef _mm512_castsi256_si512
#define _mm512_castsi256_si512 emu_mm512_castsi256_si512
#undef _mm512_zextsi256_si512
#define _mm512_zextsi256_si512 emu_mm512_zextsi256_si512
#undef _mm512_castsi512_si256
#define _mm512_castsi512_si256 emu_mm512_castsi512_si256
#undef _mm512_extracti64x4_epi64
#define _mm512_extracti64x4_epi64 emu_mm512_extracti64x4_epi64
#undef _mm512_inserti64x4
#define _mm512_inserti64x4 emu_mm512_inserti64x4
#undef _mm512_broadcast_i64x4
#define _mm512_broadcast_i64x4 emu_mm512_broadcast_i64x4
#undef _mm512_and_si512
#define _mm512_and_si512 emu_mm512_and_si512
#undef _mm512_or_si512
#define _mm512_or_si512 emu_mm512_or_si512
#undef _mm512_xor_si512
#define _mm512_xor_si512 emu_mm512_xor_si512
#undef _mm512_andnot_si512
#define _mm512_andnot_si512 emu_mm512_andnot_si512
#undef _mm512_ternarylogic_epi64
#define _mm512_ternarylogic_epi64 emu_mm512_ternarylogic_epi64
#undef _mm512_add_epi64
#define _mm512_add_epi64 emu_mm512_add_epi64
#undef _mm512_sub_epi64
#define _mm512_sub_epi64 emu_mm512_sub_epi64
#undef _mm512_add_epi32
#define _mm512_add_epi32 emu_mm512_add_epi32
#undef _mm512_sub_epi32
#define _mm512_sub_epi32 emu_mm512_sub_epi32
#undef _mm512_mask_sub_epi64
#define _mm512_mask_sub_epi64 emu_mm512_mask_sub_epi64
#undef _mm512_mask_add_epi64
#define _mm512_mask_add_epi64 emu_mm512_mask_add_epi64
#undef _mm512_mask_blend_epi64
#define _mm512_mask_blend_epi64 emu_mm512_mask_blend_epi64
#undef _mm512_reduce_add_epi64
#define _mm512_reduce_add_epi64 emu_mm512_reduce_add_epi64
#undef _mm512_madd52lo_epu64
#define _mm512_madd52lo_epu64 emu_mm512_madd52lo_epu64
#undef _mm512_madd52hi_epu64
#define _mm512_madd52hi_epu64 emu_mm512_madd52hi_epu64
#undef _mm512_slli_epi64
#define _mm512_slli_epi64 emu_mm512_slli_epi64
#undef _mm512_srli_epi64
#define _mm512_srli_epi64 emu_mm512_srli_epi64
#undef _mm512_slli_epi32
#define _mm512_slli_epi32 emu_mm512_slli_epi32
#undef _mm512_srli_epi32
#define _mm512_srli_epi32 emu_mm512_srli_epi32
#undef _mm512_rol_epi32
#define _mm512_rol_epi32 emu_mm512_rol_epi32
#undef _mm512_ror_epi32
#define _mm512_ror_epi32 emu_mm512_ror_epi32
#undef _mm512_rol_epi64
#define _mm512_rol_epi64 emu_mm512_rol_epi64
#undef _mm512_ror_epi64
#define _mm512_ror_epi64 emu_mm512_ror_epi64
#undef _mm512_shuffle_epi32
#define _mm512_shuffle_epi32 emu_mm512_shuffle_epi32
#undef _mm512_shuffle_epi8
#define _mm512_shuffle_epi8 emu_mm512_shuffle_epi8
#undef _mm512_shuffle_i64x2
#define _mm512_shuffle_i64x2 emu_mm512_shuffle_i64x2
#undef _mm512_shuffle_i32x4
#define _mm512_shuffle_i32x4 emu_mm512_shuffle_i32x4
#undef _mm512_alignr_epi64
#define _mm512_alignr_epi64 emu_mm512_alignr_epi64
#undef _mm512_permutex_epi64
#define _mm512_permutex_epi64 emu_mm512_permutex_epi64
#undef _mm512_permutexvar_epi64
#define _mm512_permutexvar_epi64 emu_mm512_permutexvar_epi64
#undef _mm512_unpacklo_epi64
#define _mm512_unpacklo_epi64 emu_mm512_unpacklo_epi64
#undef _mm512_unpackhi_epi64
#define _mm512_unpackhi_epi64 emu_mm512_unpackhi_epi64
#undef _mm512_aesenc_epi128
#define _mm512_aesenc_epi128 emu_mm512_aesenc_epi128
#undef _mm512_aesenclast_epi128
#define _mm512_aesenclast_epi128 emu_mm512_aesenclast_epi128
#undef _mm512_aesdec_epi128
#define _mm512_aesdec_epi128 emu_mm512_aesdec_epi128
#undef _mm512_aesdeclast_epi128
#define _mm512_aesdeclast_epi128 emu_mm512_aesdeclast_epi128
#undef _mm512_clmulepi64_epi128
#define _mm512_clmulepi64_epi128 emu_mm512_clmulepi64_epi128
#undef _mm256_madd52lo_epu64
#define _mm256_madd52lo_epu64 emu_mm256_madd52lo_epu64
#undef _mm256_madd52hi_epu64
#define _mm256_madd52hi_epu64 emu_mm256_madd52hi_epu64
#undef _mm256_mask_sub_epi64
#define _mm256_mask_sub_epi64 emu_mm256_mask_sub_epi64
#undef _mm256_mask_blend_epi64
#define _mm256_mask_blend_epi64 emu_mm256_mask_blend_epi64
#undef _mm256_ror_epi64
#define _mm256_ror_epi64 emu_mm256_ror_epi64
#undef _mm256_ternarylogic_epi64
#define _mm256_ternarylogic_epi64 emu_mm256_ternarylogic_epi64

/*
 * ---- appended sections ----
 * A helper adding intrinsics for a new driver appends a section here:
 * "---- <driver file>: <what> ----", the emu_* functions, then their
 * #undef/#define pairs, and tests in tests/emu/test_emu.c.
 */

/*
 * ---- arch/x86/mlkem-avx512.c: 16-bit lane arithmetic, shifts, compares,
 * masked moves and blends, word and qword permutes, VPCOMPRESSD, down- and
 * up-conversions, 128-bit lane byte shift and insert, and the AVX512BW+VL
 * masked 128/256-bit loads and stores ----
 * (Intel SDM vol. 2: PADDW/PSUBW, PMULLW, PMULHW, PMULHUW, PMULHRSW,
 * PSRAW/PSLLW imm, VPSRLVW/VPSLLVW, PMADDWD, VPCMPW/VPCMPUD, VPMOVW2M,
 * VPTESTMW, VMOVDQU16 zero-masking, VPBLENDMW/VPBLENDMD, VPSRLD masked,
 * VPERMT2W/VPERMT2Q, VPERMW, VPCOMPRESSD, VPMOVDW/VPMOVDB, VPMOVZXBD,
 * VPSRLDQ, VINSERTI32X4, VMOVDQU8/16 masked.)
 */
EMU_INL emu_m512i emu_mm512_set1_epi16(short a)
{
	emu_m512i r;
	int i;

	for (i = 0; i < 32; i++)
		r.w[i] = (uint16_t)a;
	return r;
}

EMU_INL emu_m512i emu_mm512_add_epi16(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 32; i++)
		a.w[i] = (uint16_t)(a.w[i] + b.w[i]);
	return a;
}

EMU_INL emu_m512i emu_mm512_sub_epi16(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 32; i++)
		a.w[i] = (uint16_t)(a.w[i] - b.w[i]);
	return a;
}

/*
 * k selects a op b, else src (merge masking).  A select, not a branch:
 * compress32's masks are compares of secret coefficients.
 */
EMU_INL emu_m512i emu_mm512_mask_add_epi16(emu_m512i src, __mmask32 k, emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 32; i++)
		src.w[i] = (uint16_t)EMU_SEL(EMU_MBIT(k, i), (uint64_t)(uint16_t)(a.w[i] + b.w[i]),
					     (uint64_t)src.w[i]);
	return src;
}

EMU_INL emu_m512i emu_mm512_mask_sub_epi16(emu_m512i src, __mmask32 k, emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 32; i++)
		src.w[i] = (uint16_t)EMU_SEL(EMU_MBIT(k, i), (uint64_t)(uint16_t)(a.w[i] - b.w[i]),
					     (uint64_t)src.w[i]);
	return src;
}

/* PMULLW: the low 16 bits of the (signed) product */
EMU_INL emu_m512i emu_mm512_mullo_epi16(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 32; i++)
		a.w[i] = (uint16_t)((int32_t)(int16_t)a.w[i] * (int16_t)b.w[i]);
	return a;
}

/* PMULHW: the high 16 bits of the signed product */
EMU_INL emu_m512i emu_mm512_mulhi_epi16(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 32; i++)
		a.w[i] = (uint16_t)((uint32_t)((int32_t)(int16_t)a.w[i] * (int16_t)b.w[i]) >> 16);
	return a;
}

/* PMULHUW: the high 16 bits of the unsigned product */
EMU_INL emu_m512i emu_mm512_mulhi_epu16(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 32; i++)
		a.w[i] = (uint16_t)(((uint32_t)a.w[i] * b.w[i]) >> 16);
	return a;
}

/* PMULHRSW: temp = ((a * b) >> 14) + 1, bits 16:1 of temp */
EMU_INL emu_m512i emu_mm512_mulhrs_epi16(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 32; i++) {
		int32_t t = (int32_t)(int16_t)a.w[i] * (int16_t)b.w[i];

		t = (t >> 14) + 1;	/* arithmetic shift, as the SDM's signed temp */
		a.w[i] = (uint16_t)((uint32_t)t >> 1);
	}
	return a;
}

/* PSRAW imm: counts above 15 fill with the sign */
EMU_INL emu_m512i emu_mm512_srai_epi16(emu_m512i a, unsigned int n)
{
	int i;

	for (i = 0; i < 32; i++)
		a.w[i] = (uint16_t)((int16_t)a.w[i] >> (n > 15 ? 15 : n));
	return a;
}

/* PSLLW imm: counts above 15 give 0 */
EMU_INL emu_m512i emu_mm512_slli_epi16(emu_m512i a, unsigned int n)
{
	int i;

	for (i = 0; i < 32; i++)
		a.w[i] = n > 15 ? 0 : (uint16_t)(a.w[i] << n);
	return a;
}

/* VPSRLVW / VPSLLVW: each word by its own count (all 16 bits); above 15 gives 0 */
EMU_INL emu_m512i emu_mm512_srlv_epi16(emu_m512i a, emu_m512i c)
{
	int i;

	for (i = 0; i < 32; i++)
		a.w[i] = c.w[i] > 15 ? 0 : (uint16_t)(a.w[i] >> c.w[i]);
	return a;
}

EMU_INL emu_m512i emu_mm512_sllv_epi16(emu_m512i a, emu_m512i c)
{
	int i;

	for (i = 0; i < 32; i++)
		a.w[i] = c.w[i] > 15 ? 0 : (uint16_t)(a.w[i] << c.w[i]);
	return a;
}

/* VPSRLD imm, merge-masked (n is an immediate: its test is no data branch) */
EMU_INL emu_m512i emu_mm512_mask_srli_epi32(emu_m512i src, __mmask16 k, emu_m512i a, unsigned int n)
{
	int i;

	for (i = 0; i < 16; i++)
		src.d[i] = (uint32_t)EMU_SEL(EMU_MBIT(k, i), (uint64_t)(n > 31 ? 0 : a.d[i] >> n),
					     (uint64_t)src.d[i]);
	return src;
}

/* PMADDWD: signed word products summed in pairs, wrapping to 32 bits */
EMU_INL emu_m512i emu_mm512_madd_epi16(emu_m512i a, emu_m512i b)
{
	emu_m512i r;
	int i;

	for (i = 0; i < 16; i++) {
		int64_t s = (int64_t)(int16_t)a.w[2 * i] * (int16_t)b.w[2 * i] +
			    (int64_t)(int16_t)a.w[2 * i + 1] * (int16_t)b.w[2 * i + 1];

		r.d[i] = (uint32_t)s;
	}
	return r;
}

/* VPCMPGTW: a > b signed, the sign of b - a computed in 32 bits */
EMU_INL __mmask32 emu_mm512_cmpgt_epi16_mask(emu_m512i a, emu_m512i b)
{
	uint32_t k = 0;
	int i;

	for (i = 0; i < 32; i++)
		k |= ((uint32_t)((int32_t)(int16_t)b.w[i] - (int32_t)(int16_t)a.w[i]) >> 31) << i;
	return (__mmask32)k;
}

/* VPCMPUD LT: a < b unsigned, the borrow of a - b in 64 bits */
EMU_INL __mmask16 emu_mm512_cmplt_epu32_mask(emu_m512i a, emu_m512i b)
{
	uint32_t k = 0;
	int i;

	for (i = 0; i < 16; i++)
		k |= (uint32_t)(((uint64_t)a.d[i] - b.d[i]) >> 63) << i;
	return (__mmask16)k;
}

/* VPMOVW2M: the sign bit of each word */
EMU_INL __mmask32 emu_mm512_movepi16_mask(emu_m512i a)
{
	__mmask32 k = 0;
	int i;

	for (i = 0; i < 32; i++)
		k |= (__mmask32)(a.w[i] >> 15) << i;
	return k;
}

/*
 * VPTESTMW: (a AND b) != 0 per word; x + 0xffff carries into bit 16 iff
 * the 16-bit x is not 0 (compress_d's d = 1 tests message bits).
 */
EMU_INL __mmask32 emu_mm512_test_epi16_mask(emu_m512i a, emu_m512i b)
{
	uint32_t k = 0;
	int i;

	for (i = 0; i < 32; i++)
		k |= ((((uint32_t)a.w[i] & b.w[i]) + 0xffffu) >> 16) << i;
	return (__mmask32)k;
}

EMU_INL emu_m512i emu_mm512_maskz_mov_epi16(__mmask32 k, emu_m512i a)
{
	int i;

	for (i = 0; i < 32; i++)
		a.w[i] = (uint16_t)(a.w[i] & EMU_MBIT(k, i));
	return a;
}

/* VPBLENDMW / VPBLENDMD: b where k is set, else a (ML-DSA's decompose blends by a secret compare) */
EMU_INL emu_m512i emu_mm512_mask_blend_epi16(__mmask32 k, emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 32; i++)
		a.w[i] = (uint16_t)EMU_SEL(EMU_MBIT(k, i), (uint64_t)b.w[i], (uint64_t)a.w[i]);
	return a;
}

EMU_INL emu_m512i emu_mm512_mask_blend_epi32(__mmask16 k, emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 16; i++)
		a.d[i] = (uint32_t)EMU_SEL(EMU_MBIT(k, i), (uint64_t)b.d[i], (uint64_t)a.d[i]);
	return a;
}

/*
 * VPERMT2W: index bits 4:0 pick the word, bit 5 the table (a or b); the
 * rest ignored.  The VPERM* lookups index by idx, which the drivers load
 * from constant tables (never data); the table bit is a select anyway.
 */
EMU_INL emu_m512i emu_mm512_permutex2var_epi16(emu_m512i a, emu_m512i idx, emu_m512i b)
{
	emu_m512i r;
	int i;

	for (i = 0; i < 32; i++)
		r.w[i] = (uint16_t)EMU_SEL(EMU_MBIT(idx.w[i], 5), (uint64_t)b.w[idx.w[i] & 31],
					   (uint64_t)a.w[idx.w[i] & 31]);
	return r;
}

/* VPERMT2Q: index bits 2:0 pick the qword, bit 3 the table */
EMU_INL emu_m512i emu_mm512_permutex2var_epi64(emu_m512i a, emu_m512i idx, emu_m512i b)
{
	emu_m512i r;
	int i;

	for (i = 0; i < 8; i++)
		r.q[i] = EMU_SEL(EMU_MBIT(idx.q[i], 3), b.q[idx.q[i] & 7], a.q[idx.q[i] & 7]);
	return r;
}

/* VPERMW: index bits 4:0 */
EMU_INL emu_m512i emu_mm512_permutexvar_epi16(emu_m512i idx, emu_m512i a)
{
	emu_m512i r;
	int i;

	for (i = 0; i < 32; i++)
		r.w[i] = a.w[idx.w[i] & 31];
	return r;
}

/*
 * VPCOMPRESSD, zero-masking: the selected dwords packed to the bottom, the
 * rest 0.  It stores at an index that the mask sets: kept so, as its one
 * caller, mlkem-avx512.c's rej_step, compresses the accepted candidates
 * of rejection sampling, which come from the public seed rho (matrix A)
 * and whose count the driver uses openly anyway.  Not for secret data.
 */
EMU_INL emu_m512i emu_mm512_maskz_compress_epi32(__mmask16 k, emu_m512i a)
{
	emu_m512i r;
	int i, n = 0;

	memset(&r, 0, sizeof(r));
	for (i = 0; i < 16; i++)
		if ((k >> i) & 1)
			r.d[n++] = a.d[i];
	return r;
}

/* VPMOVDW / VPMOVDB: truncation */
EMU_INL_256 __m256i emu_mm512_cvtepi32_epi16(emu_m512i a)
{
	uint16_t w[16];
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint16_t)a.d[i];
	return _mm256_loadu_si256((const __m256i *)w);
}

EMU_INL __m128i emu_mm512_cvtepi32_epi8(emu_m512i a)
{
	uint8_t b[16];
	int i;

	for (i = 0; i < 16; i++)
		b[i] = (uint8_t)a.d[i];
	return _mm_loadu_si128((const __m128i *)b);
}

/* VPMOVZXBD */
EMU_INL emu_m512i emu_mm512_cvtepu8_epi32(__m128i a)
{
	uint8_t b[16];
	emu_m512i r;
	int i;

	_mm_storeu_si128((__m128i *)b, a);
	for (i = 0; i < 16; i++)
		r.d[i] = b[i];
	return r;
}

/* VPSRLDQ: each 128-bit lane shifted right by n bytes (n > 15: 0) */
EMU_INL emu_m512i emu_mm512_bsrli_epi128(emu_m512i a, unsigned int n)
{
	emu_m512i r;
	int l, i;

	for (l = 0; l < 4; l++)
		for (i = 0; i < 16; i++)
			r.b[16 * l + i] = (unsigned int)i + n < 16 ? a.b[16 * l + i + n] : 0;
	return r;
}

/* VINSERTI32X4: lane imm (bits 1:0) replaced by b */
EMU_INL emu_m512i emu_mm512_inserti32x4(emu_m512i a, __m128i b, int imm)
{
	emu_put128(&a, imm & 3, b);
	return a;
}

/*
 * VMOVDQU8/16 with a mask (AVX512BW+VL): only the selected bytes are
 * touched, so these branch on the mask -- a length in every caller
 * (mlkem-avx512.c's encodings and decodings, and its rejection sampling's
 * count of accepted candidates, public).
 */
EMU_INL void emu_mm_mask_storeu_epi8(void *p, __mmask16 k, __m128i a)
{
	volatile uint8_t *d = (volatile uint8_t *)p;
	uint8_t b[16];
	int i;

	_mm_storeu_si128((__m128i *)b, a);
	for (i = 0; i < 16; i++)
		if ((k >> i) & 1)
			d[i] = b[i];
}

EMU_INL __m128i emu_mm_maskz_loadu_epi8(__mmask16 k, const void *p)
{
	const volatile uint8_t *s = (const volatile uint8_t *)p;
	uint8_t b[16];
	int i;

	for (i = 0; i < 16; i++)
		b[i] = (k >> i) & 1 ? s[i] : 0;
	return _mm_loadu_si128((const __m128i *)b);
}

EMU_INL_256 void emu_mm256_mask_storeu_epi16(void *p, __mmask16 k, __m256i a)
{
	volatile uint16_t *d = (volatile uint16_t *)p;
	uint16_t w[16];
	int i;

	_mm256_storeu_si256((__m256i *)w, a);
	for (i = 0; i < 16; i++)
		if ((k >> i) & 1)
			d[i] = w[i];
}

#undef _mm512_set1_epi16
#define _mm512_set1_epi16 emu_mm512_set1_epi16
#undef _mm512_add_epi16
#define _mm512_add_epi16 emu_mm512_add_epi16
#undef _mm512_sub_epi16
#define _mm512_sub_epi16 emu_mm512_sub_epi16
#undef _mm512_mask_add_epi16
#define _mm512_mask_add_epi16 emu_mm512_mask_add_epi16
#undef _mm512_mask_sub_epi16
#define _mm512_mask_sub_epi16 emu_mm512_mask_sub_epi16
#undef _mm512_mullo_epi16
#define _mm512_mullo_epi16 emu_mm512_mullo_epi16
#undef _mm512_mulhi_epi16
#define _mm512_mulhi_epi16 emu_mm512_mulhi_epi16
#undef _mm512_mulhi_epu16
#define _mm512_mulhi_epu16 emu_mm512_mulhi_epu16
#undef _mm512_mulhrs_epi16
#define _mm512_mulhrs_epi16 emu_mm512_mulhrs_epi16
#undef _mm512_srai_epi16
#define _mm512_srai_epi16 emu_mm512_srai_epi16
#undef _mm512_slli_epi16
#define _mm512_slli_epi16 emu_mm512_slli_epi16
#undef _mm512_srlv_epi16
#define _mm512_srlv_epi16 emu_mm512_srlv_epi16
#undef _mm512_sllv_epi16
#define _mm512_sllv_epi16 emu_mm512_sllv_epi16
#undef _mm512_mask_srli_epi32
#define _mm512_mask_srli_epi32 emu_mm512_mask_srli_epi32
#undef _mm512_madd_epi16
#define _mm512_madd_epi16 emu_mm512_madd_epi16
#undef _mm512_cmpgt_epi16_mask
#define _mm512_cmpgt_epi16_mask emu_mm512_cmpgt_epi16_mask
#undef _mm512_cmplt_epu32_mask
#define _mm512_cmplt_epu32_mask emu_mm512_cmplt_epu32_mask
#undef _mm512_movepi16_mask
#define _mm512_movepi16_mask emu_mm512_movepi16_mask
#undef _mm512_test_epi16_mask
#define _mm512_test_epi16_mask emu_mm512_test_epi16_mask
#undef _mm512_maskz_mov_epi16
#define _mm512_maskz_mov_epi16 emu_mm512_maskz_mov_epi16
#undef _mm512_mask_blend_epi16
#define _mm512_mask_blend_epi16 emu_mm512_mask_blend_epi16
#undef _mm512_mask_blend_epi32
#define _mm512_mask_blend_epi32 emu_mm512_mask_blend_epi32
#undef _mm512_permutex2var_epi16
#define _mm512_permutex2var_epi16 emu_mm512_permutex2var_epi16
#undef _mm512_permutex2var_epi64
#define _mm512_permutex2var_epi64 emu_mm512_permutex2var_epi64
#undef _mm512_permutexvar_epi16
#define _mm512_permutexvar_epi16 emu_mm512_permutexvar_epi16
#undef _mm512_maskz_compress_epi32
#define _mm512_maskz_compress_epi32 emu_mm512_maskz_compress_epi32
#undef _mm512_cvtepi32_epi16
#define _mm512_cvtepi32_epi16 emu_mm512_cvtepi32_epi16
#undef _mm512_cvtepi32_epi8
#define _mm512_cvtepi32_epi8 emu_mm512_cvtepi32_epi8
#undef _mm512_cvtepu8_epi32
#define _mm512_cvtepu8_epi32 emu_mm512_cvtepu8_epi32
#undef _mm512_bsrli_epi128
#define _mm512_bsrli_epi128 emu_mm512_bsrli_epi128
#undef _mm512_inserti32x4
#define _mm512_inserti32x4 emu_mm512_inserti32x4
#undef _mm_mask_storeu_epi8
#define _mm_mask_storeu_epi8 emu_mm_mask_storeu_epi8
#undef _mm_maskz_loadu_epi8
#define _mm_maskz_loadu_epi8 emu_mm_maskz_loadu_epi8
#undef _mm256_mask_storeu_epi16
#define _mm256_mask_storeu_epi16 emu_mm256_mask_storeu_epi16

/* ---- arch/x86/bn-ifma.c: unsigned qword compares (VPERMT2Q: the mlkem section's) ---- */

/*
 * VPCMPUQ, predicates EQ (0) and NLE (6): bit i of the mask = a[i] == b[i],
 * a[i] > b[i] unsigned.  Arithmetic (the carries of bn-ifma.c and the
 * table scans of the -mb drivers compare secrets): x == 0 iff the borrow
 * of x - 1 survives the AND with ~x; b < a is the borrow of b - a.
 */
EMU_INL __mmask8 emu_mm512_cmpeq_epu64_mask(emu_m512i a, emu_m512i b)
{
	unsigned int k = 0;
	int i;

	for (i = 0; i < 8; i++) {
		uint64_t x = a.q[i] ^ b.q[i];

		k |= (unsigned int)((~x & (x - 1)) >> 63) << i;
	}
	return (__mmask8)k;
}

EMU_INL __mmask8 emu_mm512_cmpgt_epu64_mask(emu_m512i a, emu_m512i b)
{
	unsigned int k = 0;
	int i;

	for (i = 0; i < 8; i++) {
		uint64_t x = a.q[i], y = b.q[i];

		k |= (unsigned int)(((~y & x) | (~(x ^ y) & (y - x))) >> 63) << i;
	}
	return (__mmask8)k;
}

#undef _mm512_cmpeq_epu64_mask
#define _mm512_cmpeq_epu64_mask emu_mm512_cmpeq_epu64_mask
#undef _mm512_cmpgt_epu64_mask
#define _mm512_cmpgt_epu64_mask emu_mm512_cmpgt_epu64_mask

/*
 * ---- arch/x86/mldsa-avx512.c: 32-bit lane products (even-lane 64-bit and
 * low-half), arithmetic right shift, signed dword compares, VPERMT2D ----
 * (Intel SDM vol. 2: PMULDQ, PMULUDQ, PMULLD, PSRAD imm, VPCMPD with the
 * EQ and NLE predicates (VPCMPEQD/VPCMPGTD into a mask), VPERMT2D.)
 */

/* PMULDQ: the signed 64-bit product of the low dwords of each qword */
EMU_INL emu_m512i emu_mm512_mul_epi32(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 8; i++)
		a.q[i] = (uint64_t)((int64_t)(int32_t)(uint32_t)a.q[i] * (int32_t)(uint32_t)b.q[i]);
	return a;
}

/* PMULUDQ: the unsigned 64-bit product of the low dwords of each qword */
EMU_INL emu_m512i emu_mm512_mul_epu32(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 8; i++)
		a.q[i] = (uint64_t)(uint32_t)a.q[i] * (uint32_t)b.q[i];
	return a;
}

/* PMULLD: the low 32 bits of each dword product */
EMU_INL emu_m512i emu_mm512_mullo_epi32(emu_m512i a, emu_m512i b)
{
	int i;

	for (i = 0; i < 16; i++)
		a.d[i] = (uint32_t)((uint64_t)a.d[i] * b.d[i]);
	return a;
}

/* PSRAD imm: counts above 31 fill with the sign */
EMU_INL emu_m512i emu_mm512_srai_epi32(emu_m512i a, unsigned int n)
{
	int i;

	for (i = 0; i < 16; i++) {
		int32_t v = (int32_t)a.d[i];

		a.d[i] = (uint32_t)(v >> (n > 31 ? 31 : n));	/* no test of v's sign */
	}
	return a;
}

/*
 * VPCMPD EQ / NLE (signed): bit i of the mask = a[i] == b[i], a[i] > b[i];
 * arithmetic in 64 bits (decompose compares secret high bits): the borrow
 * of (a ^ b) - 1, the sign of b - a.
 */
EMU_INL __mmask16 emu_mm512_cmpeq_epi32_mask(emu_m512i a, emu_m512i b)
{
	unsigned int k = 0;
	int i;

	for (i = 0; i < 16; i++)
		k |= (unsigned int)(((uint64_t)(a.d[i] ^ b.d[i]) - 1) >> 63) << i;
	return (__mmask16)k;
}

EMU_INL __mmask16 emu_mm512_cmpgt_epi32_mask(emu_m512i a, emu_m512i b)
{
	unsigned int k = 0;
	int i;

	for (i = 0; i < 16; i++)
		k |= (unsigned int)((uint64_t)((int64_t)(int32_t)b.d[i] - (int32_t)a.d[i]) >> 63) << i;
	return (__mmask16)k;
}

/* VPERMT2D: index bits 3:0 pick the dword, bit 4 the table (a or b); the rest ignored */
EMU_INL emu_m512i emu_mm512_permutex2var_epi32(emu_m512i a, emu_m512i idx, emu_m512i b)
{
	emu_m512i r;
	int i;

	for (i = 0; i < 16; i++)
		r.d[i] = (uint32_t)EMU_SEL(EMU_MBIT(idx.d[i], 4), (uint64_t)b.d[idx.d[i] & 15],
					   (uint64_t)a.d[idx.d[i] & 15]);
	return r;
}

#undef _mm512_mul_epi32
#define _mm512_mul_epi32 emu_mm512_mul_epi32
#undef _mm512_mul_epu32
#define _mm512_mul_epu32 emu_mm512_mul_epu32
#undef _mm512_mullo_epi32
#define _mm512_mullo_epi32 emu_mm512_mullo_epi32
#undef _mm512_srai_epi32
#define _mm512_srai_epi32 emu_mm512_srai_epi32
#undef _mm512_cmpeq_epi32_mask
#define _mm512_cmpeq_epi32_mask emu_mm512_cmpeq_epi32_mask
#undef _mm512_cmpgt_epi32_mask
#define _mm512_cmpgt_epi32_mask emu_mm512_cmpgt_epi32_mask
#undef _mm512_permutex2var_epi32
#define _mm512_permutex2var_epi32 emu_mm512_permutex2var_epi32

/* ---- arch/x86/keccak-avx512.c: VPTERNLOGQ as a select tree (speed) ---- */

/*
 * The truth table of emu_mm512_ternarylogic_epi64 above (bit j of the
 * result = bit (a_j << 2 | b_j << 1 | c_j) of imm8), the bit chosen by a,
 * then b, then c from the eight imm8 bits as all-zero/all-one words:
 * with imm8 a constant, as at every call, the selects fold to the
 * function itself (0x96: three XORs).  The minterm loop above was
 * vectorised over its eight minterms instead of folded -- some 600
 * cycles an operation, 0.4 ms for one emulated eight-way Keccak-f[1600]
 * (90 of them a round).  Branch-free on the data, as before.
 */
#define EMU_TBIT(imm, m) ((uint64_t)0 - (uint64_t)(((imm) >> (m)) & 1))
#define EMU_MUX(s, x, y) (((s) & (x)) | (~(s) & (y)))

static inline __attribute__((unused, always_inline)) uint64_t
emu_ternsel64(uint64_t a, uint64_t b, uint64_t c, int imm)
{
	uint64_t hi = EMU_MUX(b, EMU_MUX(c, EMU_TBIT(imm, 7), EMU_TBIT(imm, 6)),
			      EMU_MUX(c, EMU_TBIT(imm, 5), EMU_TBIT(imm, 4)));
	uint64_t lo = EMU_MUX(b, EMU_MUX(c, EMU_TBIT(imm, 3), EMU_TBIT(imm, 2)),
			      EMU_MUX(c, EMU_TBIT(imm, 1), EMU_TBIT(imm, 0)));

	return EMU_MUX(a, hi, lo);
}

static inline __attribute__((unused, always_inline)) emu_m512i
emu_mm512_ternarylogic_epi64_sel(emu_m512i a, emu_m512i b, emu_m512i c, int imm)
{
	int i;

	for (i = 0; i < 8; i++)
		a.q[i] = emu_ternsel64(a.q[i], b.q[i], c.q[i], imm & 0xff);
	return a;
}

#undef _mm512_ternarylogic_epi64
#define _mm512_ternarylogic_epi64 emu_mm512_ternarylogic_epi64_sel

#endif /* RIND_TESTS_AVX512_EMU_H */
