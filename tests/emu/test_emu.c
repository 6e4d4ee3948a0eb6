// SPDX-License-Identifier: MIT
/*
 * Self-test of tests/emu/avx512-emu.h: each emulated intrinsic, called by
 * its <immintrin.h> name, against values worked out from the Intel SDM /
 * Intrinsics Guide definitions -- literal expected lanes, published test
 * vectors (FIPS 197, SP 800-38A, Intel's CLMUL white paper), or identities
 * the SDM states (VPTERNLOGQ on 0xf0/0xcc/0xaa returns imm8) -- never
 * against the emulation itself.  Edge cases: the 52-bit truncation of
 * VPMADD52's inputs and carries into bit 52 and past bit 63, shift counts
 * at and beyond the width, rotation counts modulo the width, masks with
 * holes, masked loads and stores next to an unmapped page, aligned
 * accesses that must fault.
 *
 * Compiled with -DRIND_AVX512_EMU -include tests/emu/avx512-emu.h; needs
 * AVX2, AES-NI and PCLMULQDQ.  Prints its check count; exit status 1 on
 * any failure.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef RIND_AVX512_EMU
#error "compile with -DRIND_AVX512_EMU -include tests/emu/avx512-emu.h"
#endif

#define TGT __attribute__((target("avx2,aes,pclmul")))

static int checks, fails;

#define CHECK(c, ...)								\
	do {									\
		checks++;							\
		if (!(c)) {							\
			fails++;						\
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);	\
			fprintf(stderr, __VA_ARGS__);				\
			fputc('\n', stderr);					\
		}								\
	} while (0)

static void eq_q(const char *what, __m512i got, const uint64_t want[8])
{
	int i;

	for (i = 0; i < 8; i++)
		CHECK(got.q[i] == want[i], "%s: qword %d: %016llx, want %016llx", what, i,
		      (unsigned long long)got.q[i], (unsigned long long)want[i]);
}

static void eq_d(const char *what, __m512i got, const uint32_t want[16])
{
	int i;

	for (i = 0; i < 16; i++)
		CHECK(got.d[i] == want[i], "%s: dword %d: %08x, want %08x", what, i, got.d[i],
		      want[i]);
}

static void eq_b(const char *what, __m512i got, const uint8_t want[64])
{
	int i;

	for (i = 0; i < 64; i++)
		CHECK(got.b[i] == want[i], "%s: byte %d: %02x, want %02x", what, i, got.b[i],
		      want[i]);
}

/* A register whose byte i is @base + i (so lane contents name their origin). */
static __m512i iota8(uint8_t base)
{
	__m512i r;
	int i;

	for (i = 0; i < 64; i++)
		r.b[i] = (uint8_t)(base + i);
	return r;
}

static __m512i iota32(uint32_t base)
{
	__m512i r;
	int i;

	for (i = 0; i < 16; i++)
		r.d[i] = base + (uint32_t)i;
	return r;
}

static __m512i iota64(uint64_t base)
{
	__m512i r;
	int i;

	for (i = 0; i < 8; i++)
		r.q[i] = base + (uint64_t)i;
	return r;
}

/* ---- set, load, store ---- */

static void test_set(void)
{
	static const uint64_t q76543210[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	static const uint32_t d0_15[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	uint64_t all[8];
	uint32_t all32[16];
	int i;

	/* _mm512_set_epi64(e7, ..., e0): e0 is lane 0 */
	eq_q("set_epi64", _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), q76543210);
	eq_d("set_epi32", _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
	     d0_15);
	eq_d("setr_epi32", _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
	     d0_15);
	for (i = 0; i < 8; i++)
		all[i] = 0x8000000000000001ULL;
	eq_q("set1_epi64", _mm512_set1_epi64((long long)0x8000000000000001ULL), all);
	for (i = 0; i < 16; i++)
		all32[i] = 0xfffffffeU;
	eq_d("set1_epi32", _mm512_set1_epi32(-2), all32);
	memset(all, 0, sizeof(all));
	eq_q("setzero", _mm512_setzero_si512(), all);
	{
		static const uint64_t want[8] = { 0, 0x42, 0, 0x42, 0x42, 0, 0, 0x42 };

		/* mask 0x9a: lanes 1, 3, 4, 7 */
		eq_q("maskz_set1_epi64", _mm512_maskz_set1_epi64(0x9a, 0x42), want);
	}
}

static void test_loadstore(void)
{
	uint8_t buf[256] __attribute__((aligned(64)));
	uint8_t want[64];
	__m512i x;
	int i;

	for (i = 0; i < 256; i++)
		buf[i] = (uint8_t)(3 * i + 1);
	/* unaligned */
	x = _mm512_loadu_si512(buf + 5);
	for (i = 0; i < 64; i++)
		want[i] = (uint8_t)(3 * (i + 5) + 1);
	eq_b("loadu_si512", x, want);
	_mm512_storeu_si512(buf + 131, x);
	CHECK(!memcmp(buf + 131, want, 64), "storeu_si512");
	CHECK(buf[130] == (uint8_t)(3 * 130 + 1) && buf[195] == (uint8_t)(3 * 195 + 1),
	      "storeu_si512 wrote outside its 64 bytes");
	/* aligned */
	x = _mm512_load_si512(buf + 64);
	for (i = 0; i < 64; i++)
		want[i] = (uint8_t)(3 * (i + 64) + 1);
	eq_b("load_si512", x, want);
	_mm512_store_si512(buf + 192, x);
	CHECK(!memcmp(buf + 192, want, 64), "store_si512");
}

/* The aligned forms fault (#GP in hardware) on an address not 64-byte aligned. */
static void test_misaligned_faults(void)
{
	static uint8_t buf[192] __attribute__((aligned(64)));
	int k;

	for (k = 0; k < 2; k++) {
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			if (k == 0) {
				volatile __m512i x = _mm512_load_si512(buf + 8);

				(void)x;
			} else {
				_mm512_store_si512(buf + 32, _mm512_setzero_si512());
			}
			_exit(0);
		}
		CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFSIGNALED(st),
		      "misaligned %s did not fault", k ? "store_si512" : "load_si512");
	}
}

/*
 * Masked byte loads and stores touch only the bytes the mask selects: a
 * register that straddles the end of a mapping, with the bytes past it
 * masked off, must neither fault nor change them.
 */
static void test_masked_bytes(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *map = mmap(NULL, (size_t)(2 * pg), PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t want[64], *end, mem[64];
	__m512i src = iota8(0x40), x;
	__mmask64 k;
	int i;

	CHECK(map != MAP_FAILED, "mmap");
	if (map == MAP_FAILED)
		return;
	CHECK(!mprotect(map + pg, (size_t)pg, PROT_NONE), "mprotect");
	end = map + pg;
	for (i = 0; i < pg; i++)
		map[i] = (uint8_t)(i ^ 0x5a);

	/* 10 bytes before the unmapped page: mask 0x3ff, the rest unmapped */
	x = _mm512_maskz_loadu_epi8(0x3ff, end - 10);
	for (i = 0; i < 64; i++)
		want[i] = i < 10 ? (uint8_t)((pg - 10 + i) ^ 0x5a) : 0;
	eq_b("maskz_loadu_epi8 at the page end", x, want);
	_mm512_mask_storeu_epi8(end - 10, 0x3ff, src);
	for (i = 0; i < 10; i++)
		CHECK(end[i - 10] == (uint8_t)(0x40 + i), "mask_storeu_epi8 at the page end: byte %d",
		      i);
	/* the empty mask touches nothing at all, even a pointer into the unmapped page */
	x = _mm512_maskz_loadu_epi8(0, end + 3);
	memset(want, 0, sizeof(want));
	eq_b("maskz_loadu_epi8 with mask 0", x, want);
	_mm512_mask_storeu_epi8(end + 3, 0, src);

	/* a mask with holes: bytes 0, 2, 9, 31, 32, 62, 63 (and nothing else) */
	k = (1ULL << 0) | (1ULL << 2) | (1ULL << 9) | (1ULL << 31) | (1ULL << 32) |
	    (1ULL << 62) | (1ULL << 63);
	for (i = 0; i < 64; i++)
		mem[i] = (uint8_t)(0xa0 ^ i);
	x = _mm512_maskz_loadu_epi8(k, mem);
	for (i = 0; i < 64; i++)
		want[i] = (k >> i) & 1 ? (uint8_t)(0xa0 ^ i) : 0;
	eq_b("maskz_loadu_epi8 with holes", x, want);
	_mm512_mask_storeu_epi8(mem, k, src);
	for (i = 0; i < 64; i++)
		want[i] = (k >> i) & 1 ? (uint8_t)(0x40 + i) : (uint8_t)(0xa0 ^ i);
	CHECK(!memcmp(mem, want, 64), "mask_storeu_epi8 with holes");
	x = _mm512_maskz_mov_epi8(k, src);
	for (i = 0; i < 64; i++)
		want[i] = (k >> i) & 1 ? (uint8_t)(0x40 + i) : 0;
	eq_b("maskz_mov_epi8", x, want);
	munmap(map, (size_t)(2 * pg));
}

/* ---- casts, extract, insert, broadcast ---- */

static TGT void test_casts(void)
{
	__m128i lo = _mm_set_epi64x(0x1111111111111111LL, 0x2222222222222222LL);
	__m256i y = _mm256_set_epi64x(0x4444, 0x3333, 0x2222, 0x1111);
	__m512i x = iota64(100), r;
	uint64_t q[4];

	r = _mm512_castsi128_si512(lo);
	CHECK(r.q[0] == 0x2222222222222222ULL && r.q[1] == 0x1111111111111111ULL,
	      "castsi128_si512: low lane");
	{
		static const uint64_t want[8] = { 0x2222222222222222ULL, 0x1111111111111111ULL };

		eq_q("zextsi128_si512", _mm512_zextsi128_si512(lo), want);
	}
	r = _mm512_castsi256_si512(y);
	CHECK(r.q[0] == 0x1111 && r.q[1] == 0x2222 && r.q[2] == 0x3333 && r.q[3] == 0x4444,
	      "castsi256_si512: low half");
	{
		static const uint64_t want[8] = { 0x1111, 0x2222, 0x3333, 0x4444 };

		eq_q("zextsi256_si512", _mm512_zextsi256_si512(y), want);
	}
	_mm_storeu_si128((__m128i *)q, _mm512_castsi512_si128(x));
	CHECK(q[0] == 100 && q[1] == 101, "castsi512_si128");
	_mm256_storeu_si256((__m256i *)q, _mm512_castsi512_si256(x));
	CHECK(q[0] == 100 && q[1] == 101 && q[2] == 102 && q[3] == 103, "castsi512_si256");
	_mm256_storeu_si256((__m256i *)q, _mm512_extracti64x4_epi64(x, 1));
	CHECK(q[0] == 104 && q[1] == 105 && q[2] == 106 && q[3] == 107, "extracti64x4_epi64(1)");
	_mm256_storeu_si256((__m256i *)q, _mm512_extracti64x4_epi64(x, 0));
	CHECK(q[0] == 100 && q[3] == 103, "extracti64x4_epi64(0)");
	_mm_storeu_si128((__m128i *)q, _mm512_extracti32x4_epi32(x, 2));
	CHECK(q[0] == 104 && q[1] == 105, "extracti32x4_epi32(2)");
	{
		static const uint64_t want1[8] = { 100, 101, 102, 103, 0x1111, 0x2222, 0x3333, 0x4444 };
		static const uint64_t want0[8] = { 0x1111, 0x2222, 0x3333, 0x4444, 104, 105, 106, 107 };
		static const uint64_t wantb[8] = { 0x1111, 0x2222, 0x3333, 0x4444,
						   0x1111, 0x2222, 0x3333, 0x4444 };
		static const uint64_t want4[8] = { 0x2222222222222222ULL, 0x1111111111111111ULL,
						   0x2222222222222222ULL, 0x1111111111111111ULL,
						   0x2222222222222222ULL, 0x1111111111111111ULL,
						   0x2222222222222222ULL, 0x1111111111111111ULL };

		eq_q("inserti64x4(1)", _mm512_inserti64x4(x, y, 1), want1);
		eq_q("inserti64x4(0)", _mm512_inserti64x4(x, y, 0), want0);
		eq_q("broadcast_i64x4", _mm512_broadcast_i64x4(y), wantb);
		eq_q("broadcast_i32x4", _mm512_broadcast_i32x4(lo), want4);
	}
}

/* ---- bitwise ---- */

static void test_bitwise(void)
{
	__m512i a = _mm512_set1_epi64((long long)0xff00ff00f0f0ccaaULL);
	__m512i b = _mm512_set1_epi64((long long)0x0ff00ff0ff00aaaaULL);
	uint64_t w[8];
	int i, imm;

	for (i = 0; i < 8; i++)
		w[i] = 0x0f000f00f00088aaULL;
	eq_q("and_si512", _mm512_and_si512(a, b), w);
	for (i = 0; i < 8; i++)
		w[i] = 0xfff0fff0fff0eeaaULL;
	eq_q("or_si512", _mm512_or_si512(a, b), w);
	for (i = 0; i < 8; i++)
		w[i] = 0xf0f0f0f00ff06600ULL;
	eq_q("xor_si512", _mm512_xor_si512(a, b), w);
	for (i = 0; i < 8; i++)
		w[i] = 0x00f000f00f002200ULL;
	eq_q("andnot_si512", _mm512_andnot_si512(a, b), w);

	/*
	 * SDM: with A = 0xf0, B = 0xcc, C = 0xaa in every byte, the result
	 * of VPTERNLOG is imm8 in every byte (bit j's index A_j B_j C_j is j).
	 */
	{
		__m512i ta = _mm512_set1_epi64((long long)0xf0f0f0f0f0f0f0f0ULL);
		__m512i tb = _mm512_set1_epi64((long long)0xccccccccccccccccULL);
		__m512i tc = _mm512_set1_epi64((long long)0xaaaaaaaaaaaaaaaaULL);

#define TERN(i) _mm512_ternarylogic_epi64(ta, tb, tc, i)
#define T16(i) TERN(i), TERN(i + 1), TERN(i + 2), TERN(i + 3), TERN(i + 4), TERN(i + 5), \
	TERN(i + 6), TERN(i + 7), TERN(i + 8), TERN(i + 9), TERN(i + 10), TERN(i + 11),    \
	TERN(i + 12), TERN(i + 13), TERN(i + 14), TERN(i + 15)
		const __m512i all[256] = { T16(0), T16(16), T16(32), T16(48), T16(64), T16(80),
			T16(96), T16(112), T16(128), T16(144), T16(160), T16(176), T16(192), T16(208),
			T16(224), T16(240) };
#undef T16
#undef TERN
		for (imm = 0; imm < 256; imm++) {
			for (i = 0; i < 8; i++)
				w[i] = 0x0101010101010101ULL * (uint64_t)imm;
			eq_q("ternarylogic_epi64 truth table", all[imm], w);
		}
	}
	/* the drivers' functions on distinct lane values: XOR3, Ch (a ? b : c), Maj */
	{
		__m512i x = iota64(0x1234567800000000ULL), y = _mm512_set1_epi64(0x00ff00ff00ff00ffLL);
		__m512i z = _mm512_set1_epi64((long long)0xf0f0f0f00f0f0f0fULL);
		uint64_t wx[8], wc[8], wm[8];

		for (i = 0; i < 8; i++) {
			uint64_t xi = 0x1234567800000000ULL + (uint64_t)i;

			wx[i] = xi ^ 0x00ff00ff00ff00ffULL ^ 0xf0f0f0f00f0f0f0fULL;
			wc[i] = (xi & 0x00ff00ff00ff00ffULL) | (~xi & 0xf0f0f0f00f0f0f0fULL);
			wm[i] = (xi & 0x00ff00ff00ff00ffULL) | (xi & 0xf0f0f0f00f0f0f0fULL) |
				(0x00ff00ff00ff00ffULL & 0xf0f0f0f00f0f0f0fULL);
		}
		eq_q("ternarylogic 0x96", _mm512_ternarylogic_epi64(x, y, z, 0x96), wx);
		eq_q("ternarylogic 0xca", _mm512_ternarylogic_epi64(x, y, z, 0xca), wc);
		eq_q("ternarylogic 0xe8", _mm512_ternarylogic_epi64(x, y, z, 0xe8), wm);
	}
}

/* ---- arithmetic ---- */

static void test_arith(void)
{
	__m512i a = _mm512_set_epi64(-1, 1, (long long)0x8000000000000000ULL, 0, 5,
				     0x7fffffffffffffffLL, 3, -3);
	__m512i b = _mm512_set_epi64(1, -1, (long long)0x8000000000000000ULL, 0, 7, 1, 5, 2);
	/* lanes 0..7 of a: -3, 3, 2^63-1, 5, 0, 2^63, 1, -1 */
	static const uint64_t add[8] = { 0xffffffffffffffffULL, 8, 0x8000000000000000ULL, 12, 0, 0,
					 0, 0 };
	static const uint64_t sub[8] = { 0xfffffffffffffffbULL, 0xfffffffffffffffeULL,
					 0x7ffffffffffffffeULL, 0xfffffffffffffffeULL, 0, 0, 2,
					 0xfffffffffffffffeULL };
	/* mask 0x65 (lanes 0, 2, 5, 6) merges into src = 1000 + lane */
	static const uint64_t msub[8] = { 0xfffffffffffffffbULL, 1001, 0x7ffffffffffffffeULL, 1003,
					  1004, 0, 2, 1007 };
	static const uint64_t madd[8] = { 0xffffffffffffffffULL, 1001, 0x8000000000000000ULL, 1003,
					  1004, 0, 0, 1007 };
	/* blend mask 0xa6 (lanes 1, 2, 5, 7) picks b */
	static const uint64_t blend[8] = { 0xfffffffffffffffdULL, 5, 1, 5, 0, 0x8000000000000000ULL,
					   1, 1 };
	uint32_t d_add[16], d_sub[16];
	__m512i src = iota64(1000);
	int i;

	eq_q("add_epi64", _mm512_add_epi64(a, b), add);
	eq_q("sub_epi64", _mm512_sub_epi64(a, b), sub);
	eq_q("mask_sub_epi64", _mm512_mask_sub_epi64(src, 0x65, a, b), msub);
	eq_q("mask_add_epi64", _mm512_mask_add_epi64(src, 0x65, a, b), madd);
	eq_q("mask_blend_epi64", _mm512_mask_blend_epi64(0xa6, a, b), blend);
	/* reduce_add: -3 + 3 + (2^63 - 1) + 5 + 0 + 2^63 + 1 - 1 = 4 (mod 2^64) */
	CHECK((uint64_t)_mm512_reduce_add_epi64(a) == 4, "reduce_add_epi64: %llx",
	      (unsigned long long)_mm512_reduce_add_epi64(a));
	CHECK((uint64_t)_mm512_reduce_add_epi64(_mm512_set1_epi64(0x2000000000000001LL)) == 8,
	      "reduce_add_epi64 wraps");

	/* 32-bit lanes: 0xfffffff0 + i + 16 - 2i = wraps below 16 */
	for (i = 0; i < 16; i++) {
		d_add[i] = (uint32_t)(0xfffffff0U + (uint32_t)i) + (uint32_t)(16 + i);
		d_sub[i] = (uint32_t)(0xfffffff0U + (uint32_t)i) - (uint32_t)(16 + i);
	}
	/* d_add[i] = i + 16 + i - 16 wrapped = 2i; d_sub[i] = 0xffffffe0 */
	for (i = 0; i < 16; i++)
		CHECK(d_add[i] == 2u * (uint32_t)i && d_sub[i] == 0xffffffe0u, "32-bit model");
	eq_d("add_epi32", _mm512_add_epi32(iota32(0xfffffff0U), iota32(16)), d_add);
	eq_d("sub_epi32", _mm512_sub_epi32(iota32(0xfffffff0U), iota32(16)), d_sub);
}

/*
 * VPMADD52LUQ/HUQ, worked out by hand (tests/emu/README.md):
 *   lane 0: 0 + (2^52-1)^2 = 2^104 - 2^53 + 1: lo 1, hi 2^52 - 2;
 *   lane 1: (2^64-1) + (2^52-1)*2: lo wraps to 2^52 - 3, hi 1 wraps to 0;
 *   lane 2: b = 0xfff0000000000001 is 1 in its low 52 bits (the top 12
 *           bits are ignored): lo a + 0x456789abcdef0, hi a;
 *   lane 3: b = 2^52 is 0 in its low 52 bits: lo = hi = a;
 *   lane 4: b = c = 2^64-1 count as 2^52-1: as lane 0 plus 5, the high
 *           half carrying into bit 52 of the sum;
 *   lane 5: 2^51 * 2 = 2^52: lo a + 0, hi a + 1;
 *   lane 6: (2^52-1)(2^52-2) = 2^104 - 3*2^52 + 2 plus a = 2^52-1:
 *           lo 2^52 + 1, hi 2^53 - 4 (carries into bits 52, 53);
 *   lane 7: (2^32+1)^2 = 2^64 + 2^33 + 1, a = 2^63-1: lo 2^63 + 2^33,
 *           hi a + 2^12.
 */
static TGT void test_madd52(void)
{
	static const uint64_t A[8] = { 0x0000000000000000ULL, 0xffffffffffffffffULL,
		0x0123456789abcdefULL, 0x8000000000000000ULL, 0x0000000000000005ULL,
		0xfffffffffffff000ULL, 0x000fffffffffffffULL, 0x7fffffffffffffffULL };
	static const uint64_t B[8] = { 0x000fffffffffffffULL, 0x000fffffffffffffULL,
		0xfff0000000000001ULL, 0x0010000000000000ULL, 0xffffffffffffffffULL,
		0x0008000000000000ULL, 0x000fffffffffffffULL, 0x0000000100000001ULL };
	static const uint64_t C[8] = { 0x000fffffffffffffULL, 0x0000000000000002ULL,
		0x123456789abcdef0ULL, 0x0000000000000003ULL, 0xffffffffffffffffULL,
		0x0000000000000002ULL, 0x000ffffffffffffeULL, 0x0000000100000001ULL };
	static const uint64_t LO[8] = { 0x0000000000000001ULL, 0x000ffffffffffffdULL,
		0x01279be02468acdfULL, 0x8000000000000000ULL, 0x0000000000000006ULL,
		0xfffffffffffff000ULL, 0x0010000000000001ULL, 0x8000000200000000ULL };
	static const uint64_t HI[8] = { 0x000ffffffffffffeULL, 0x0000000000000000ULL,
		0x0123456789abcdefULL, 0x8000000000000000ULL, 0x0010000000000003ULL,
		0xfffffffffffff001ULL, 0x001ffffffffffffcULL, 0x8000000000000fffULL };
	__m512i a = _mm512_loadu_si512(A), b = _mm512_loadu_si512(B), c = _mm512_loadu_si512(C);
	uint64_t got[4];
	int h, i;

	eq_q("madd52lo_epu64", _mm512_madd52lo_epu64(a, b, c), LO);
	eq_q("madd52hi_epu64", _mm512_madd52hi_epu64(a, b, c), HI);
	/* the operands b and c commute */
	eq_q("madd52lo_epu64 (c, b)", _mm512_madd52lo_epu64(a, c, b), LO);
	eq_q("madd52hi_epu64 (c, b)", _mm512_madd52hi_epu64(a, c, b), HI);
	/* the 256-bit (AVX512VL) forms, on each half */
	for (h = 0; h < 2; h++) {
		__m256i a4 = _mm256_loadu_si256((const __m256i *)(A + 4 * h));
		__m256i b4 = _mm256_loadu_si256((const __m256i *)(B + 4 * h));
		__m256i c4 = _mm256_loadu_si256((const __m256i *)(C + 4 * h));

		_mm256_storeu_si256((__m256i *)got, _mm256_madd52lo_epu64(a4, b4, c4));
		for (i = 0; i < 4; i++)
			CHECK(got[i] == LO[4 * h + i], "_mm256_madd52lo_epu64 lane %d", 4 * h + i);
		_mm256_storeu_si256((__m256i *)got, _mm256_madd52hi_epu64(a4, b4, c4));
		for (i = 0; i < 4; i++)
			CHECK(got[i] == HI[4 * h + i], "_mm256_madd52hi_epu64 lane %d", 4 * h + i);
	}
}

static TGT void test_mask256(void)
{
	__m256i src = _mm256_set_epi64x(13, 12, 11, 10);
	__m256i a = _mm256_set_epi64x(0, 5, 1, 100);
	__m256i b = _mm256_set_epi64x(1, 7, 2, 1);
	uint64_t got[4];

	/* mask 0x1d: lanes 0, 2, 3 (bits above 3 ignored by the 4-lane form) */
	_mm256_storeu_si256((__m256i *)got, _mm256_mask_sub_epi64(src, 0x1d, a, b));
	CHECK(got[0] == 99 && got[1] == 11 && got[2] == 0xfffffffffffffffeULL &&
	      got[3] == 0xffffffffffffffffULL, "_mm256_mask_sub_epi64");
	_mm256_storeu_si256((__m256i *)got, _mm256_mask_blend_epi64(0x16, a, b));
	CHECK(got[0] == 100 && got[1] == 2 && got[2] == 7 && got[3] == 0, "_mm256_mask_blend_epi64");
}

/* The 256-bit VPRORQ and VPTERNLOGQ (sha512-avx512vl.c's small sigmas). */
static TGT void test_vl256(void)
{
	/* 0x0123456789abcdef >>> 1, 8, 19, 61; a top bit coming round; count 64 */
	__m256i x = _mm256_set_epi64x(0x0123456789abcdefLL, 0x0123456789abcdefLL,
				      (long long)0x8000000000000001ULL, 0x0123456789abcdefLL);
	/* a, b, c with every minterm in each byte: the result is imm in every byte */
	__m256i ta = _mm256_set1_epi64x((long long)0xf0f0f0f0f0f0f0f0ULL);
	__m256i tb = _mm256_set1_epi64x((long long)0xccccccccccccccccULL);
	__m256i tc = _mm256_set1_epi64x((long long)0xaaaaaaaaaaaaaaaaULL);
	static const int imms[] = { 0x96, 0xe8, 0xca, 0x00, 0xff, 0x01 };
	__m256i y;
	uint64_t got[4];
	unsigned int i, j;

	/* lanes 0, 2 and 3 hold 0x0123456789abcdef, lane 1 0x8000000000000001 */
	static const struct { int n; uint64_t w, w1; } rors[] = {
		{ 1, 0x8091a2b3c4d5e6f7ULL, 0xc000000000000000ULL },
		{ 8, 0xef0123456789abcdULL, 0x0180000000000000ULL },
		{ 19, 0x79bde02468acf135ULL, 0x0000300000000000ULL },
		{ 61, 0x091a2b3c4d5e6f78ULL, 0x000000000000000cULL },
		{ 64, 0x0123456789abcdefULL, 0x8000000000000001ULL },
	};

	for (i = 0; i < sizeof(rors) / sizeof(rors[0]); i++) {
		switch (rors[i].n) {	/* the intrinsic wants a constant */
		case 1: y = _mm256_ror_epi64(x, 1); break;
		case 8: y = _mm256_ror_epi64(x, 8); break;
		case 19: y = _mm256_ror_epi64(x, 19); break;
		case 61: y = _mm256_ror_epi64(x, 61); break;
		default: y = _mm256_ror_epi64(x, 64); break;
		}
		_mm256_storeu_si256((__m256i *)got, y);
		CHECK(got[0] == rors[i].w && got[1] == rors[i].w1 && got[2] == rors[i].w &&
		      got[3] == rors[i].w, "_mm256_ror_epi64 %d", rors[i].n);
	}
	for (i = 0; i < sizeof(imms) / sizeof(imms[0]); i++) {
		uint64_t w = 0x0101010101010101ULL * (uint64_t)imms[i];

		switch (imms[i]) {
		case 0x96: x = _mm256_ternarylogic_epi64(ta, tb, tc, 0x96); break;
		case 0xe8: x = _mm256_ternarylogic_epi64(ta, tb, tc, 0xe8); break;
		case 0xca: x = _mm256_ternarylogic_epi64(ta, tb, tc, 0xca); break;
		case 0x00: x = _mm256_ternarylogic_epi64(ta, tb, tc, 0x00); break;
		case 0xff: x = _mm256_ternarylogic_epi64(ta, tb, tc, 0xff); break;
		default: x = _mm256_ternarylogic_epi64(ta, tb, tc, 0x01); break;
		}
		_mm256_storeu_si256((__m256i *)got, x);
		for (j = 0; j < 4; j++)
			CHECK(got[j] == w, "_mm256_ternarylogic_epi64 0x%02x lane %u", imms[i], j);
	}
}

/* ---- shifts, rotations ---- */

static void test_shifts(void)
{
	__m512i x = _mm512_set1_epi64((long long)0x8000000000000001ULL);
	__m512i y = _mm512_set1_epi32((int)0x80000001U);
	uint64_t w[8];
	uint32_t d[16];
	int i;

#define ALLQ(v) do { for (i = 0; i < 8; i++) w[i] = (v); } while (0)
#define ALLD(v) do { for (i = 0; i < 16; i++) d[i] = (v); } while (0)
	ALLQ(0x0000000000000002ULL);
	eq_q("slli_epi64 1", _mm512_slli_epi64(x, 1), w);
	ALLQ(0x8000000000000000ULL);
	eq_q("slli_epi64 63", _mm512_slli_epi64(x, 63), w);
	ALLQ(0);
	eq_q("slli_epi64 64 (count past the width: 0)", _mm512_slli_epi64(x, 64), w);
	eq_q("srli_epi64 200", _mm512_srli_epi64(x, 200), w);
	ALLQ(0x8000000000000001ULL);
	eq_q("slli_epi64 0", _mm512_slli_epi64(x, 0), w);
	ALLQ(0x0000000000000001ULL);
	eq_q("srli_epi64 63", _mm512_srli_epi64(x, 63), w);
	ALLQ(0x0000000000000800ULL);
	eq_q("srli_epi64 52", _mm512_srli_epi64(x, 52), w);
	ALLD(0x00000002U);
	eq_d("slli_epi32 1", _mm512_slli_epi32(y, 1), d);
	ALLD(0);
	eq_d("slli_epi32 32", _mm512_slli_epi32(y, 32), d);
	ALLD(0x00000001U);
	eq_d("srli_epi32 31", _mm512_srli_epi32(y, 31), d);

	/* rotations: the count is taken modulo the width */
	ALLQ(0x0000000000000003ULL);
	eq_q("rol_epi64 1", _mm512_rol_epi64(x, 1), w);
	ALLQ(0xc000000000000000ULL);
	eq_q("ror_epi64 1", _mm512_ror_epi64(x, 1), w);
	ALLQ(0x000000000000000cULL);
	eq_q("ror_epi64 61", _mm512_ror_epi64(x, 61), w);
	ALLQ(0x8000000000000001ULL);
	eq_q("ror_epi64 64", _mm512_ror_epi64(x, 64), w);
	eq_q("rol_epi64 0", _mm512_rol_epi64(x, 0), w);
	ALLQ(0x0000000000000003ULL);
	eq_q("rol_epi64 65", _mm512_rol_epi64(x, 65), w);
	ALLD(0x00000003U);
	eq_d("rol_epi32 1", _mm512_rol_epi32(y, 1), d);
	ALLD(0x00018000U);
	eq_d("rol_epi32 16", _mm512_rol_epi32(y, 16), d);
	ALLD(0x80000001U);
	eq_d("rol_epi32 32", _mm512_rol_epi32(y, 32), d);
	ALLD(0xc0000000U);
	eq_d("ror_epi32 1", _mm512_ror_epi32(y, 1), d);
	/* ChaCha's counts on a word with distinct bits: 0x12345678 <<< 7, 8, 12 */
	{
		__m512i z = _mm512_set1_epi32(0x12345678);

		ALLD(0x1a2b3c09U);
		eq_d("rol_epi32 7", _mm512_rol_epi32(z, 7), d);
		ALLD(0x34567812U);
		eq_d("rol_epi32 8", _mm512_rol_epi32(z, 8), d);
		ALLD(0x45678123U);
		eq_d("rol_epi32 12", _mm512_rol_epi32(z, 12), d);
	}
	/* SHA-512's: 0x0123456789abcdef >>> 14 and >>> 28 */
	{
		__m512i z = _mm512_set1_epi64(0x0123456789abcdefLL);

		ALLQ(0x37bc048d159e26afULL);
		eq_q("ror_epi64 14", _mm512_ror_epi64(z, 14), w);
		ALLQ(0x9abcdef012345678ULL);
		eq_q("ror_epi64 28", _mm512_ror_epi64(z, 28), w);
	}
#undef ALLQ
#undef ALLD
}

/* ---- shuffles and permutations ---- */

static void test_shuffles(void)
{
	__m512i d = iota32(0), q = iota64(0), q8 = iota64(8), b = iota8(0);

	/* VPSHUFD per 128-bit lane */
	{
		static const uint32_t w1b[16] = { 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12 };
		static const uint32_t w4e[16] = { 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13 };
		static const uint32_t w39[16] = { 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12 };
		static const uint32_t w93[16] = { 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14 };

		eq_d("shuffle_epi32 0x1b", _mm512_shuffle_epi32(d, 0x1b), w1b);
		eq_d("shuffle_epi32 0x4e", _mm512_shuffle_epi32(d, 0x4e), w4e);
		eq_d("shuffle_epi32 0x39", _mm512_shuffle_epi32(d, (_MM_PERM_ENUM)0x39), w39);
		eq_d("shuffle_epi32 0x93", _mm512_shuffle_epi32(d, (_MM_PERM_ENUM)0x93), w93);
	}
	/*
	 * VPSHUFB per 128-bit lane: index bytes 0x8x give zero, the others
	 * select with their low four bits within the lane (0x1f is 15).
	 */
	{
		__m512i idx;
		uint8_t w[64];
		int i;

		for (i = 0; i < 64; i++)
			idx.b[i] = (uint8_t)(15 - (i & 15));
		idx.b[3] = 0x80;	/* zero */
		idx.b[17] = 0x1f;	/* 15 of lane 1 */
		idx.b[40] = 0xf0;	/* zero */
		idx.b[63] = 0x23;	/* 3 of lane 3 */
		for (i = 0; i < 64; i++)
			w[i] = (uint8_t)((i & ~15) + 15 - (i & 15));
		w[3] = 0;
		w[17] = 31;
		w[40] = 0;
		w[63] = 51;
		eq_b("shuffle_epi8", _mm512_shuffle_epi8(b, idx), w);
	}
	/* VSHUFI64X2 / VSHUFI32X4: lanes 0, 1 from a, 2, 3 from b (128-bit lanes L0..L3) */
	{
		static const uint64_t w88[8] = { 0, 1, 4, 5, 8, 9, 12, 13 };	/* a.L0 a.L2 b.L0 b.L2 */
		static const uint64_t wdd[8] = { 2, 3, 6, 7, 10, 11, 14, 15 };	/* a.L1 a.L3 b.L1 b.L3 */
		static const uint64_t w44[8] = { 0, 1, 2, 3, 8, 9, 10, 11 };	/* a.L0 a.L1 b.L0 b.L1 */
		static const uint64_t wee[8] = { 4, 5, 6, 7, 12, 13, 14, 15 };
		static const uint64_t w1b[8] = { 6, 7, 4, 5, 10, 11, 8, 9 };	/* a.L3 a.L2 b.L1 b.L0 */

		eq_q("shuffle_i64x2 0x88", _mm512_shuffle_i64x2(q, q8, 0x88), w88);
		eq_q("shuffle_i64x2 0xdd", _mm512_shuffle_i64x2(q, q8, 0xdd), wdd);
		eq_q("shuffle_i64x2 0x1b", _mm512_shuffle_i64x2(q, q8, 0x1b), w1b);
		eq_q("shuffle_i32x4 0x44", _mm512_shuffle_i32x4(q, q8, 0x44), w44);
		eq_q("shuffle_i32x4 0xee", _mm512_shuffle_i32x4(q, q8, 0xee), wee);
	}
	/* VALIGNQ: b's qwords imm.. then a's (q8 above q) */
	{
		static const uint64_t w2[8] = { 2, 3, 4, 5, 6, 7, 8, 9 };
		static const uint64_t w6[8] = { 6, 7, 8, 9, 10, 11, 12, 13 };
		static const uint64_t w0[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
		static const uint64_t w9[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };	/* imm mod 8 */

		eq_q("alignr_epi64 2", _mm512_alignr_epi64(q8, q, 2), w2);
		eq_q("alignr_epi64 6", _mm512_alignr_epi64(q8, q, 6), w6);
		eq_q("alignr_epi64 0", _mm512_alignr_epi64(q8, q, 0), w0);
		eq_q("alignr_epi64 9", _mm512_alignr_epi64(q8, q, 9), w9);
	}
	/* VPERMQ imm8 per 256-bit half; VPERMQ by vector (index bits above 2 ignored) */
	{
		static const uint64_t w1b[8] = { 3, 2, 1, 0, 7, 6, 5, 4 };
		static const uint64_t w4e[8] = { 2, 3, 0, 1, 6, 7, 4, 5 };
		static const uint64_t wb1[8] = { 1, 0, 3, 2, 5, 4, 7, 6 };	/* _MM_SHUFFLE(2,3,0,1) */
		static const uint64_t wv[8] = { 7, 0, 5, 5, 1, 2, 3, 4 };
		__m512i idx = _mm512_set_epi64(4, 3, 10, 0x39, 5, 13, 8, 7);

		eq_q("permutex_epi64 0x1b", _mm512_permutex_epi64(q, 0x1b), w1b);
		eq_q("permutex_epi64 0x4e", _mm512_permutex_epi64(q, 0x4e), w4e);
		eq_q("permutex_epi64 0xb1", _mm512_permutex_epi64(q, 0xb1), wb1);
		eq_q("permutexvar_epi64", _mm512_permutexvar_epi64(idx, q), wv);
	}
	/* VPUNPCKLQDQ / VPUNPCKHQDQ per 128-bit lane */
	{
		static const uint64_t wlo[8] = { 0, 8, 2, 10, 4, 12, 6, 14 };
		static const uint64_t whi[8] = { 1, 9, 3, 11, 5, 13, 7, 15 };

		eq_q("unpacklo_epi64", _mm512_unpacklo_epi64(q, q8), wlo);
		eq_q("unpackhi_epi64", _mm512_unpackhi_epi64(q, q8), whi);
	}
}

/* ---- AES, CLMUL ---- */

static TGT void aes128_keys(__m128i rk[11], const uint8_t key[16])
{
	__m128i k = _mm_loadu_si128((const __m128i *)key), t;
	int i;

	rk[0] = k;
#define STEP(rc)								\
	do {									\
		t = _mm_shuffle_epi32(_mm_aeskeygenassist_si128(k, rc), 0xff);	\
		k = _mm_xor_si128(k, _mm_slli_si128(k, 4));			\
		k = _mm_xor_si128(k, _mm_slli_si128(k, 8));			\
		k = _mm_xor_si128(k, t);					\
		rk[++i] = k;							\
	} while (0)
	i = 0;
	STEP(0x01); STEP(0x02); STEP(0x04); STEP(0x08); STEP(0x10);
	STEP(0x20); STEP(0x40); STEP(0x80); STEP(0x1b); STEP(0x36);
#undef STEP
}

static void unhex(uint8_t *out, const char *hex, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned int v;

		sscanf(hex + 2 * i, "%2x", &v);
		out[i] = (uint8_t)v;
	}
}

/*
 * Four AES-128 encryptions at once, a different key in each lane:
 * FIPS 197 appendix C.1 in lane 0, SP 800-38A F.1.1 blocks 1-3 in lanes
 * 1-3 (another key); then the decryptions with the equivalent inverse
 * cipher.  Round keys from AESKEYGENASSIST (the real instruction).
 */
static TGT void test_aes(void)
{
	static const char *const keys[4] = {
		"000102030405060708090a0b0c0d0e0f", "2b7e151628aed2a6abf7158809cf4f3c",
		"2b7e151628aed2a6abf7158809cf4f3c", "2b7e151628aed2a6abf7158809cf4f3c",
	};
	static const char *const pts[4] = {
		"00112233445566778899aabbccddeeff", "6bc1bee22e409f96e93d7e117393172a",
		"ae2d8a571e03ac9c9eb76fac45af8e51", "30c81c46a35ce411e5fbc1191a0a52ef",
	};
	static const char *const cts[4] = {
		"69c4e0d86a7b0430d8cdb78070b4c55a", "3ad77bb40d7a3660a89ecaf32466ef97",
		"f5d3d58503b9699de785895a96fdbaaf", "43b1cd7f598ece23881b00e3ed030688",
	};
	__m512i ek[11], dk[11], x;
	uint8_t pt[64], ct[64];
	int l, r;

	for (l = 0; l < 4; l++) {
		uint8_t key[16];
		__m128i rk[11];

		unhex(key, keys[l], 16);
		unhex(pt + 16 * l, pts[l], 16);
		unhex(ct + 16 * l, cts[l], 16);
		aes128_keys(rk, key);
		for (r = 0; r <= 10; r++) {
			_mm_storeu_si128((__m128i *)&ek[r].b[16 * l], rk[r]);
			_mm_storeu_si128((__m128i *)&dk[10 - r].b[16 * l],
					 r == 0 || r == 10 ? rk[r] : _mm_aesimc_si128(rk[r]));
		}
	}
	x = _mm512_xor_si512(_mm512_loadu_si512(pt), ek[0]);
	for (r = 1; r < 10; r++)
		x = _mm512_aesenc_epi128(x, ek[r]);
	x = _mm512_aesenclast_epi128(x, ek[10]);
	eq_b("aesenc/aesenclast_epi128", x, ct);
	x = _mm512_xor_si512(x, dk[0]);
	for (r = 1; r < 10; r++)
		x = _mm512_aesdec_epi128(x, dk[r]);
	x = _mm512_aesdeclast_epi128(x, dk[10]);
	eq_b("aesdec/aesdeclast_epi128", x, pt);
}

/*
 * VPCLMULQDQ per 128-bit lane, imm8 bit 0 choosing a's qword and bit 4
 * b's.  Lane 0 is the example of Intel's CLMUL white paper (its 0x00
 * product, of the high qwords here, is 1d4d84c85c3440c0929633d5d36f0451);
 * the others: (1 + x^63)(1 + x + ... + x^63), (1 + x)^2 = 1 + x^2,
 * x^63 * x = x^64, the GHASH constant 0xc2 << 56 times a word.
 */
static TGT void test_clmul(void)
{
	static const uint64_t X[8] = { 0x7b5b546573745665ULL, 0x63746f725d53475dULL,
		0x8000000000000001ULL, 0xffffffffffffffffULL, 0x0000000000000003ULL,
		0x8000000000000000ULL, 0x0123456789abcdefULL, 0xfedcba9876543210ULL };
	static const uint64_t Y[8] = { 0x4869285368617929ULL, 0x5b477565726f6e5dULL,
		0xffffffffffffffffULL, 0x8000000000000001ULL, 0x0000000000000003ULL,
		0x0000000000000002ULL, 0xc200000000000000ULL, 0x0000000000000001ULL };
	static const uint64_t W[4][8] = {
		{ 0xd66ee03e410fd4edULL, 0x1d1e1f2c592e7c45ULL, 0x7fffffffffffffffULL,
		  0x7fffffffffffffffULL, 0x0000000000000005ULL, 0x0000000000000000ULL,
		  0x9e00000000000000ULL, 0x00db3560e9ac4217ULL },
		{ 0x7fa540ac2a281315ULL, 0x1bd17c8d556ab5a1ULL, 0x5555555555555555ULL,
		  0x5555555555555555ULL, 0x8000000000000000ULL, 0x0000000000000001ULL,
		  0x2000000000000000ULL, 0x4124ca9f1653bde8ULL },
		{ 0xbabf262df4b7d5c9ULL, 0x1a2bf6db3a30862fULL, 0x0000000000000001ULL,
		  0x4000000000000000ULL, 0x0000000000000006ULL, 0x0000000000000000ULL,
		  0x0123456789abcdefULL, 0x0000000000000000ULL },
		{ 0x929633d5d36f0451ULL, 0x1d4d84c85c3440c0ULL, 0x7fffffffffffffffULL,
		  0x7fffffffffffffffULL, 0x0000000000000000ULL, 0x0000000000000001ULL,
		  0xfedcba9876543210ULL, 0x0000000000000000ULL },
	};
	__m512i a = _mm512_loadu_si512(X), b = _mm512_loadu_si512(Y);

	eq_q("clmulepi64_epi128 0x00", _mm512_clmulepi64_epi128(a, b, 0x00), W[0]);
	eq_q("clmulepi64_epi128 0x01", _mm512_clmulepi64_epi128(a, b, 0x01), W[1]);
	eq_q("clmulepi64_epi128 0x10", _mm512_clmulepi64_epi128(a, b, 0x10), W[2]);
	eq_q("clmulepi64_epi128 0x11", _mm512_clmulepi64_epi128(a, b, 0x11), W[3]);
	/* only bits 0 and 4 of imm8 count */
	eq_q("clmulepi64_epi128 0xee", _mm512_clmulepi64_epi128(a, b, 0xee), W[0]);
}


/* ---- arch/x86/mlkem-avx512.c's section ---- */

static __m512i w16(const uint16_t w[32])
{
	__m512i r;

	memcpy(r.w, w, 64);
	return r;
}

static void eq_w(const char *what, __m512i got, const uint16_t want[32])
{
	int i;

	for (i = 0; i < 32; i++)
		CHECK(got.w[i] == want[i], "%s: word %d: %04x, want %04x", what, i, got.w[i], want[i]);
}

/* The lanes beyond the literals: words i >= 8 hold @a_rest, @b_rest */
static void fill_w(uint16_t *a, uint16_t a_rest, int from)
{
	int i;

	for (i = from; i < 32; i++)
		a[i] = a_rest;
}

static TGT void test_mlkem_section(void)
{
	/* operands with the edges of 16-bit arithmetic in words 0..7 */
	uint16_t A[32] = { 0x7fff, 0x0000, 0x8000, 0xffff, 0x4000, 0x1234, 0x8000, 0xfffe };
	uint16_t B[32] = { 0x0001, 0x0001, 0x8000, 0xffff, 0x4000, 0x0100, 0x7fff, 0x0003 };
	uint16_t W[32];
	__m512i a, b, x;
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *map, *end;
	int i;

	fill_w(A, 0x0102, 8);
	fill_w(B, 0x0304, 8);
	a = w16(A);
	b = w16(B);

	/* PADDW / PSUBW wrap */
	{
		const uint16_t add[8] = { 0x8000, 0x0001, 0x0000, 0xfffe, 0x8000, 0x1334, 0xffff, 0x0001 };
		const uint16_t sub[8] = { 0x7ffe, 0xffff, 0x0000, 0x0000, 0x0000, 0x1134, 0x0001, 0xfffb };

		memcpy(W, add, sizeof(add));
		fill_w(W, 0x0406, 8);
		eq_w("add_epi16", _mm512_add_epi16(a, b), W);
		memcpy(W, sub, sizeof(sub));
		fill_w(W, 0xfdfe, 8);
		eq_w("sub_epi16", _mm512_sub_epi16(a, b), W);
		/* merge masks with holes: words 0 and 31 only; the rest from src */
		x = _mm512_mask_add_epi16(_mm512_set1_epi16(0x5555), 0x80000001u, a, b);
		fill_w(W, 0x5555, 0);
		W[0] = 0x8000;
		W[31] = 0x0406;
		eq_w("mask_add_epi16", x, W);
		x = _mm512_mask_sub_epi16(_mm512_set1_epi16(-2), 0x00000088u, a, b);
		fill_w(W, 0xfffe, 0);
		W[3] = 0x0000;
		W[7] = 0xfffb;
		eq_w("mask_sub_epi16", x, W);
	}
	/* PMULLW, PMULHW, PMULHUW, PMULHRSW */
	{
		/*
		 * signed products: 0x7fff, 0, 2^30, 1, 2^28, 0x123400, -2^30 + 2^15, -6;
		 * unsigned, where they differ: 0xfffe0001, 0x3fff8000, 0x2fffa
		 */
		const uint16_t lo[8] = { 0x7fff, 0x0000, 0x0000, 0x0001, 0x0000, 0x3400, 0x8000, 0xfffa };
		const uint16_t hi[8] = { 0x0000, 0x0000, 0x4000, 0x0000, 0x1000, 0x0012, 0xc000, 0xffff };
		const uint16_t hu[8] = { 0x0000, 0x0000, 0x4000, 0xfffe, 0x1000, 0x0012, 0x3fff, 0x0002 };
		/* (p >> 14) + 1, >> 1: 0x7fff*1 -> 1; 2^30 -> 0x8000; 1 -> 0; 2^28 -> 0x2000;
		 * 0x123400 -> 0x24; -2^30 + 2^15 -> 0x8001; -6 -> 0 */
		const uint16_t rs[8] = { 0x0001, 0x0000, 0x8000, 0x0000, 0x2000, 0x0024, 0x8001, 0x0000 };

		memcpy(W, lo, sizeof(lo));
		fill_w(W, (uint16_t)(0x0102 * 0x0304), 8);	/* 0x30a08: low 0x0a08 */
		eq_w("mullo_epi16", _mm512_mullo_epi16(a, b), W);
		memcpy(W, hi, sizeof(hi));
		fill_w(W, 0x0003, 8);
		eq_w("mulhi_epi16", _mm512_mulhi_epi16(a, b), W);
		memcpy(W, hu, sizeof(hu));
		fill_w(W, 0x0003, 8);
		eq_w("mulhi_epu16", _mm512_mulhi_epu16(a, b), W);
		memcpy(W, rs, sizeof(rs));
		fill_w(W, 0x0006, 8);	/* 0x30a08 >> 14 = 12, +1 = 13, >> 1 = 6 */
		eq_w("mulhrs_epi16", _mm512_mulhrs_epi16(a, b), W);
	}
	/* PSRAW, PSLLW by immediate; VPSRLVW, VPSLLVW per word */
	{
		x = _mm512_srai_epi16(a, 3);
		CHECK(x.w[0] == 0x0fff && x.w[2] == 0xf000 && x.w[3] == 0xffff && x.w[7] == 0xffff,
		      "srai_epi16 3");
		x = _mm512_srai_epi16(a, 16);	/* above 15: the sign everywhere */
		CHECK(x.w[0] == 0 && x.w[2] == 0xffff && x.w[5] == 0 && x.w[6] == 0xffff, "srai_epi16 16");
		x = _mm512_slli_epi16(a, 15);
		CHECK(x.w[0] == 0x8000 && x.w[3] == 0x8000 && x.w[4] == 0 && x.w[7] == 0, "slli_epi16 15");
		x = _mm512_slli_epi16(a, 16);
		CHECK(x.w[0] == 0 && x.w[3] == 0 && x.w[31] == 0, "slli_epi16 16");
		for (i = 0; i < 32; i++)
			W[i] = (uint16_t)(i < 16 ? i : i == 16 ? 16 : i == 17 ? 0xffff : 0x0101);
		x = _mm512_srlv_epi16(_mm512_set1_epi16(-1), w16(W));
		for (i = 0; i < 16; i++)
			CHECK(x.w[i] == (uint16_t)(0xffffu >> i), "srlv_epi16 count %d", i);
		CHECK(x.w[16] == 0 && x.w[17] == 0 && x.w[18] == 0, "srlv_epi16 counts 16, 0xffff, 0x101");
		x = _mm512_sllv_epi16(_mm512_set1_epi16(1), w16(W));
		for (i = 0; i < 16; i++)
			CHECK(x.w[i] == (uint16_t)(1u << i), "sllv_epi16 count %d", i);
		CHECK(x.w[16] == 0 && x.w[17] == 0 && x.w[31] == 0, "sllv_epi16 counts 16, 0xffff, 0x101");
		x = _mm512_mask_srli_epi32(_mm512_set1_epi32(7), 0xaaaa, _mm512_set1_epi32((int)0x80000010u), 4);
		CHECK(x.d[0] == 7 && x.d[1] == 0x08000001u && x.d[14] == 7 && x.d[15] == 0x08000001u,
		      "mask_srli_epi32 4");
		x = _mm512_mask_srli_epi32(_mm512_set1_epi32(7), 0x0001, _mm512_set1_epi32(-1), 32);
		CHECK(x.d[0] == 0 && x.d[1] == 7, "mask_srli_epi32 32");
	}
	/* PMADDWD: 0x7fff*1 + 0*1; (-2^15)^2 + (-1)(-1) wraps; 2^28 + 0x123400; ... */
	x = _mm512_madd_epi16(a, b);
	CHECK(x.d[0] == 0x7fff && x.d[1] == 0x40000001u && x.d[2] == 0x10123400u &&
	      x.d[3] == (uint32_t)(-(0x8000 * 0x7fff) - 6), "madd_epi16");
	x = _mm512_madd_epi16(_mm512_set1_epi16(-32768), _mm512_set1_epi16(-32768));
	CHECK(x.d[0] == 0x80000000u && x.d[15] == 0x80000000u, "madd_epi16 2^31 wraps");
	CHECK(x.d[8] == 0x80000000u, "madd_epi16 lane 8");
	/* compares and mask moves */
	/* 0x7fff > 1, 0x1234 > 0x100; not 0x4000 > 0x4000, -2^15 > 0x7fff, -2 > 3 */
	CHECK(_mm512_cmpgt_epi16_mask(a, b) == 0x00000021u, "cmpgt_epi16_mask: %08x",
	      (unsigned int)_mm512_cmpgt_epi16_mask(a, b));
	CHECK(_mm512_movepi16_mask(a) == 0x000000ccu, "movepi16_mask: %08x",
	      (unsigned int)_mm512_movepi16_mask(a));
	CHECK(_mm512_test_epi16_mask(a, b) == 0xffffff9du, "test_epi16_mask: %08x",
	      (unsigned int)_mm512_test_epi16_mask(a, b));
	{
		__m512i u = iota32(0xfffffff0u), v = _mm512_set1_epi32(1);

		/* 0xfffffff0.. 0xffffffff, then nothing below 1 but dword 0 of iota32(0) */
		CHECK(_mm512_cmplt_epu32_mask(u, v) == 0, "cmplt_epu32_mask, large unsigned");
		CHECK(_mm512_cmplt_epu32_mask(iota32(0), v) == 0x0001, "cmplt_epu32_mask 0 < 1");
		CHECK(_mm512_cmplt_epu32_mask(v, u) == 0xffff, "cmplt_epu32_mask 1 < 2^32 - 16..");
	}
	x = _mm512_maskz_mov_epi16(0x80000002u, a);
	CHECK(x.w[1] == 0 && x.w[31] == 0x0102 && x.w[0] == 0 && x.w[30] == 0, "maskz_mov_epi16");
	x = _mm512_maskz_mov_epi16(0x00000010u, a);
	CHECK(x.w[4] == 0x4000 && x.w[5] == 0, "maskz_mov_epi16 word 4");
	x = _mm512_mask_blend_epi16(0xaaaaaaaau, a, b);
	CHECK(x.w[0] == 0x7fff && x.w[1] == 0x0001 && x.w[6] == 0x8000 && x.w[7] == 0x0003 &&
	      x.w[30] == 0x0102 && x.w[31] == 0x0304, "mask_blend_epi16 (b where set)");
	x = _mm512_mask_blend_epi32(0x8001, iota32(0), iota32(100));
	CHECK(x.d[0] == 100 && x.d[1] == 1 && x.d[14] == 14 && x.d[15] == 115, "mask_blend_epi32");
	/* VPERMT2W: index bits 4:0 a word, bit 5 the table, bits 15:6 ignored */
	{
		__m512i t0, t1, idx;

		for (i = 0; i < 32; i++)
			W[i] = (uint16_t)(0x1000 + i);
		t0 = w16(W);
		for (i = 0; i < 32; i++)
			W[i] = (uint16_t)(0x2000 + i);
		t1 = w16(W);
		for (i = 0; i < 32; i++)
			W[i] = (uint16_t)((31 - i) | (i & 1 ? 0x20 : 0) | (i & 2 ? 0xffc0 : 0));
		idx = w16(W);
		x = _mm512_permutex2var_epi16(t0, idx, t1);
		for (i = 0; i < 32; i++)
			CHECK(x.w[i] == (uint16_t)((i & 1 ? 0x2000 : 0x1000) + 31 - i),
			      "permutex2var_epi16 word %d", i);
		/* VPERMW: bits 4:0 only */
		x = _mm512_permutexvar_epi16(idx, t1);
		for (i = 0; i < 32; i++)
			CHECK(x.w[i] == (uint16_t)(0x2000 + 31 - i), "permutexvar_epi16 word %d", i);
		/* VPERMT2Q: bits 2:0 a qword, bit 3 the table, the rest ignored */
		{
			const uint64_t qi[8] = { 0, 9, 0xfffffffffffffff2ull, 0xb, 4, 13, 6, 0x7f };
			const uint64_t qw[8] = { 100, 201, 102, 203, 104, 205, 106, 207 };

			x = _mm512_permutex2var_epi64(iota64(100), _mm512_loadu_si512(qi), iota64(200));
			eq_q("permutex2var_epi64", x, qw);
		}
	}
	/* VPCOMPRESSD zero-masking: dwords 0, 5, 15 to the bottom, zero above */
	x = _mm512_maskz_compress_epi32(0x8021, iota32(0x100));
	CHECK(x.d[0] == 0x100 && x.d[1] == 0x105 && x.d[2] == 0x10f && x.d[3] == 0 && x.d[15] == 0,
	      "maskz_compress_epi32");
	x = _mm512_maskz_compress_epi32(0, iota32(1));
	CHECK(x.d[0] == 0 && x.d[15] == 0, "maskz_compress_epi32 empty");
	x = _mm512_maskz_compress_epi32(0xffff, iota32(1));
	CHECK(x.d[0] == 1 && x.d[15] == 16, "maskz_compress_epi32 full");
	/* VPMOVDW / VPMOVDB truncate, VPMOVZXBD */
	{
		uint16_t w[16];
		uint8_t bt[16];
		uint32_t d[16];

		x = _mm512_set1_epi32((int)0x89abcdefu);
		x.d[3] = 0x00017fff;
		_mm256_storeu_si256((__m256i *)w, _mm512_cvtepi32_epi16(x));
		CHECK(w[0] == 0xcdef && w[3] == 0x7fff && w[15] == 0xcdef, "cvtepi32_epi16 truncates");
		_mm_storeu_si128((__m128i *)bt, _mm512_cvtepi32_epi8(x));
		CHECK(bt[0] == 0xef && bt[3] == 0xff && bt[15] == 0xef, "cvtepi32_epi8 truncates");
		for (i = 0; i < 16; i++)
			bt[i] = (uint8_t)(0xf0 + i);
		x = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)bt));
		memcpy(d, x.d, sizeof(d));
		CHECK(d[0] == 0xf0 && d[15] == 0xff, "cvtepu8_epi32 zero-extends");
	}
	/* VPSRLDQ per 128-bit lane; VINSERTI32X4 takes imm8 bits 1:0 */
	x = _mm512_bsrli_epi128(iota8(0), 3);
	CHECK(x.b[0] == 3 && x.b[12] == 15 && x.b[13] == 0 && x.b[15] == 0 && x.b[16] == 19 &&
	      x.b[60] == 63 && x.b[61] == 0, "bsrli_epi128 3");
	x = _mm512_bsrli_epi128(iota8(1), 16);
	CHECK(x.b[0] == 0 && x.b[63] == 0, "bsrli_epi128 16");
	x = _mm512_inserti32x4(iota8(0), _mm_set1_epi8(0x77), 5);
	CHECK(x.b[15] == 15 && x.b[16] == 0x77 && x.b[31] == 0x77 && x.b[32] == 32, "inserti32x4 imm 5");
	/* masked 128/256-bit loads and stores next to an unmapped page */
	map = mmap(NULL, (size_t)(2 * pg), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(map != MAP_FAILED, "mmap");
	if (map == MAP_FAILED)
		return;
	CHECK(!mprotect(map + pg, (size_t)pg, PROT_NONE), "mprotect");
	end = map + pg;
	for (i = 0; i < 16; i++)
		end[i - 16] = (uint8_t)(0x30 + i);
	{
		uint8_t bt[16];
		uint16_t w[16];

		_mm_storeu_si128((__m128i *)bt, _mm_maskz_loadu_epi8(0x07ff, end - 11));
		CHECK(bt[0] == 0x35 && bt[10] == 0x3f && bt[11] == 0 && bt[15] == 0,
		      "_mm_maskz_loadu_epi8 at the page end");
		_mm_mask_storeu_epi8(end - 5, 0x001f, _mm_set1_epi8(0x11));
		CHECK(end[-6] == 0x3a && end[-5] == 0x11 && end[-1] == 0x11, "_mm_mask_storeu_epi8 at the page end");
		_mm_mask_storeu_epi8(end - 16, 0x8001, _mm_set1_epi8(0x22));
		CHECK(end[-16] == 0x22 && end[-15] == 0x31 && end[-1] == 0x22, "_mm_mask_storeu_epi8 holes");
		for (i = 0; i < 16; i++)
			w[i] = (uint16_t)(0x4000 + i);
		_mm256_mask_storeu_epi16(end - 6, 0x0007, _mm256_loadu_si256((const __m256i *)w));
		CHECK(end[-6] == 0x00 && end[-5] == 0x40 && end[-2] == 0x02 && end[-1] == 0x40,
		      "_mm256_mask_storeu_epi16 at the page end");
		_mm256_mask_storeu_epi16(end, 0, _mm256_loadu_si256((const __m256i *)w));
		_mm_mask_storeu_epi8(end, 0, _mm_set1_epi8(1));
		_mm_storeu_si128((__m128i *)bt, _mm_maskz_loadu_epi8(0, end + 1));
		CHECK(bt[0] == 0 && bt[15] == 0, "empty masks touch nothing");
	}
	munmap(map, (size_t)(2 * pg));
}

/* ---- appended: arch/x86/bn-ifma.c (VPERMT2Q as it uses it, VPCMPUQ eq / nle) ---- */

static void test_rsa_ifma_ops(void)
{
	__m512i a = iota64(100), b = iota64(200);
	/* bit 3 picks b; bits above 3 ignored (0x39 = b[1], 0xf0 = a[0], -1 = b[7]) */
	__m512i idx = _mm512_set_epi64(-1, 0xf0, 0x39, 12, 7, 8, 3, 1);
	static const uint64_t wp[8] = { 101, 103, 200, 107, 204, 201, 100, 207 };
	/* bn-ifma.c's shifts: one qword down / up in each 256-bit half, across the pair */
	static const uint64_t wdown[8] = { 101, 102, 103, 200, 105, 106, 107, 204 };
	static const uint64_t wup[8] = { 103, 200, 201, 202, 107, 204, 205, 206 };
	__m512i x, y;
	unsigned int k;

	eq_q("permutex2var_epi64", _mm512_permutex2var_epi64(a, idx, b), wp);
	eq_q("permutex2var_epi64 down",
	     _mm512_permutex2var_epi64(a, _mm512_set_epi64(12, 7, 6, 5, 8, 3, 2, 1), b), wdown);
	eq_q("permutex2var_epi64 up",
	     _mm512_permutex2var_epi64(a, _mm512_set_epi64(14, 13, 12, 7, 10, 9, 8, 3), b), wup);
	/* unsigned: 2^63 > 1 (a signed compare says no), equal is not greater */
	x = _mm512_set_epi64(5, 0, -1, 7, (long long)0x8000000000000000ULL, 1, 0, 3);
	y = _mm512_set_epi64(5, 1, 0, 7, 1, (long long)0x8000000000000000ULL, 0, 2);
	k = _mm512_cmpgt_epu64_mask(x, y);
	CHECK(k == 0x29, "cmpgt_epu64_mask: %02x, want 29", k);
	k = _mm512_cmpeq_epu64_mask(x, y);
	CHECK(k == 0x92, "cmpeq_epu64_mask: %02x, want 92", k);
	k = _mm512_cmpeq_epu64_mask(a, a);
	CHECK(k == 0xff, "cmpeq_epu64_mask all: %02x", k);
	k = _mm512_cmpgt_epu64_mask(a, a);
	CHECK(k == 0, "cmpgt_epu64_mask none: %02x", k);
}

/* ---- appended: arch/x86/mldsa-avx512.c (PMULDQ/PMULUDQ, PMULLD, PSRAD, VPCMPD eq / nle, VPERMT2D) ---- */

static void test_mldsa_ops(void)
{
	__m512i a = iota32(100), b = iota32(200), x, y;
	/* PMULDQ reads the low dword of each qword, signed; the high dwords are ignored */
	static const uint64_t wmul[8] = {
		0xfffffffffffffffeULL,		/* -1 * 2 */
		0x3fffffff00000001ULL,		/* 0x7fffffff^2 */
		0x4000000000000000ULL,		/* (-2^31)^2 */
		0xffffffff80000000ULL,		/* -2^31 * 1 */
		0, 6, 0xfffffffffffffffaULL, 0x0000000100000000ULL,	/* 0*x, 2*3, -2*3, 2^16 * 2^16 */
	};
	static const uint64_t wmulu[8] = {
		0x00000001fffffffeULL,		/* 0xffffffff * 2 */
		0x3fffffff00000001ULL,
		0x4000000000000000ULL,		/* 0x80000000^2 */
		0x80000000ULL,
		0, 6, 0x2fffffffaULL, 0x0000000100000000ULL,	/* 0xfffffffe * 3 */
	};
	/* PMULLD: low 32 bits of the full product of each dword */
	static const uint32_t wlo[16] = {
		0xfffffffe, 0x00000001, 0x00000000, 0x80000000, 0, 6, 0xfffffffa, 0,
		0x00000001, 0xfffffffe, 0x2a832f3c, 0x00000000, 0xffffffff, 0xfffffff7, 42, 0x80000000,
	};
	static const uint32_t wsra7[16] = {
		0xffffffff, 0x00ffffff, 0xff000000, 0, 0, 0, 0xffffffff, 0x00000200,
		0xffffffff, 0, 0x00123456, 0, 0, 0xffffffe0, 0, 0xff000000,
	};
	uint32_t ad[16] = { 0xffffffff, 0x7fffffff, 0x80000000, 0x80000000, 0, 2, 0xfffffffe, 0x10000,
			    0xffffffff, 0x7fffffff, 0x091a2b3c, 0, 0xffffffff, 0xfffffffd, 7, 0x80000000 };
	uint32_t bd[16] = { 2, 0x7fffffff, 0x80000000, 1, 0x12345678, 3, 3, 0x10000,
			    0xffffffff, 2, 0xabcdef01, 0x80000000, 1, 3, 6, 0xffffffff };
	uint32_t aq[16], bq[16];
	uint64_t r64[8];
	uint32_t r32[16];
	unsigned int i, k;

	/* the products' operands in the even dwords, junk in the odd ones */
	{
		static const uint32_t lo[8] = { 0xffffffff, 0x7fffffff, 0x80000000, 0x80000000,
						0, 2, 0xfffffffe, 0x10000 };
		static const uint32_t hi[8] = { 2, 0x7fffffff, 0x80000000, 1, 0x12345678, 3, 3, 0x10000 };

		for (i = 0; i < 8; i++) {
			aq[2 * i] = lo[i];
			bq[2 * i] = hi[i];
			aq[2 * i + 1] = 0xdead0000u + i;
			bq[2 * i + 1] = 0xbeef0000u + i;
		}
	}
	memcpy(x.d, aq, sizeof(aq));
	memcpy(y.d, bq, sizeof(bq));
	memcpy(r64, _mm512_mul_epi32(x, y).q, sizeof(r64));
	for (i = 0; i < 8; i++)
		CHECK(r64[i] == wmul[i], "mul_epi32 qword %u: %016llx, want %016llx", i,
		      (unsigned long long)r64[i], (unsigned long long)wmul[i]);
	memcpy(r64, _mm512_mul_epu32(x, y).q, sizeof(r64));
	for (i = 0; i < 8; i++)
		CHECK(r64[i] == wmulu[i], "mul_epu32 qword %u: %016llx, want %016llx", i,
		      (unsigned long long)r64[i], (unsigned long long)wmulu[i]);
	memcpy(x.d, ad, sizeof(ad));
	memcpy(y.d, bd, sizeof(bd));
	eq_d("mullo_epi32", _mm512_mullo_epi32(x, y), wlo);
	/* PSRAD by 7, 0, 31, and a count past the width (the sign everywhere) */
	{
		uint32_t s[16] = { 0xffffff80, 0x7fffffff, 0x80000000, 0x7f, 0, 1, 0xffffffc0, 0x10000,
				   0xfffffffe, 0x40, 0x091a2b3c, 0x7e, 0x3f, 0xfffff000, 0x7f, 0x80000000 };

		memcpy(x.d, s, sizeof(s));
		eq_d("srai_epi32 7", _mm512_srai_epi32(x, 7), wsra7);
		y = _mm512_srai_epi32(x, 0);
		CHECK(!memcmp(y.d, s, sizeof(s)), "srai_epi32 0");
		memcpy(r32, _mm512_srai_epi32(x, 31).d, sizeof(r32));
		CHECK(r32[0] == 0xffffffff && r32[1] == 0 && r32[2] == 0xffffffff && r32[15] == 0xffffffff &&
		      r32[3] == 0, "srai_epi32 31");
		memcpy(r32, _mm512_srai_epi32(x, 40).d, sizeof(r32));
		CHECK(r32[0] == 0xffffffff && r32[1] == 0 && r32[13] == 0xffffffff && r32[14] == 0,
		      "srai_epi32 40 (past the width)");
	}
	/* VPCMPD: signed; 0x80000000 is the least, -1 below 0 */
	memcpy(x.d, ad, sizeof(ad));
	memcpy(y.d, bd, sizeof(bd));
	k = _mm512_cmpgt_epi32_mask(x, y);
	/* lanes: -1>2 n, eq n, eq n, min>1 n, 0>x n, 2>3 n, -2>3 n, eq n,
	   eq n, 7fff..>2 y, 091a>abcd(neg) y, 0>min y, -1>1 n, -3>3 n, 7>6 y, min>-1 n */
	CHECK(k == 0x4e00, "cmpgt_epi32_mask: %04x, want 4e00", k);
	k = _mm512_cmpeq_epi32_mask(x, y);
	CHECK(k == 0x0186, "cmpeq_epi32_mask: %04x, want 0186", k);
	CHECK(_mm512_cmpeq_epi32_mask(a, a) == 0xffff && _mm512_cmpgt_epi32_mask(a, a) == 0,
	      "cmpeq/cmpgt_epi32_mask of equal vectors");
	/* VPERMT2D: bit 4 picks b, bits above 4 ignored (0x35 = b[5], 0xe3 = a[3], -1 = b[15]) */
	{
		uint32_t idx[16] = { 0, 15, 16, 31, 0x35, 0xe3, 0xffffffff, 7, 8, 17, 1, 30, 2, 29, 3, 28 };
		static const uint32_t wp[16] = { 100, 115, 200, 215, 205, 103, 215, 107, 108, 201, 101, 214,
						 102, 213, 103, 212 };

		memcpy(x.d, idx, sizeof(idx));
		eq_d("permutex2var_epi32", _mm512_permutex2var_epi32(a, x, b), wp);
	}
	(void)b;
}

/* ---- appended: arch/x86/keccak-avx512.c (VPTERNLOGQ's select-tree form, VPROLQ counts) ---- */

/*
 * The SDM's VPTERNLOG bit by bit (result bit j = imm8 bit (a_j << 2 |
 * b_j << 1 | c_j)) against the select-tree emulation with imm8 both a
 * constant (Keccak's 0x96 and chi's 0xd2 on distinct lanes) and a value
 * only known at run time (every imm8, so the selects cannot fold); VPROLQ
 * by every count Keccak's rho uses and past 63 (count mod 64).
 */
static void test_keccak_ops(void)
{
	__m512i a = iota64(0x0123456789abcdefULL), b = iota64(0xfedcba9876543210ULL);
	__m512i c = _mm512_set_epi64(0, -1, 0x5555, (long long)0xaaaa000000000000ULL, 7, 1 << 20,
				     0x0f0f0f0f0f0f0f0fLL, (long long)0x8000000000000001ULL);
	uint64_t w[8];
	volatile int vimm;
	int imm, i, j, n;

	for (i = 0; i < 8; i++)
		w[i] = a.q[i] ^ (~b.q[i] & c.q[i]);
	eq_q("ternarylogic 0xd2 (chi)", _mm512_ternarylogic_epi64(a, b, c, 0xd2), w);
	for (i = 0; i < 8; i++)
		w[i] = a.q[i] ^ b.q[i] ^ c.q[i];
	eq_q("ternarylogic 0x96 (theta)", _mm512_ternarylogic_epi64(a, b, c, 0x96), w);
	for (imm = 0; imm < 256; imm++) {
		vimm = imm | 0x300;	/* bits above imm8: ignored */
		for (i = 0; i < 8; i++) {
			w[i] = 0;
			for (j = 0; j < 64; j++) {
				unsigned int idx = (unsigned int)(((a.q[i] >> j) & 1) << 2 |
								  ((b.q[i] >> j) & 1) << 1 |
								  ((c.q[i] >> j) & 1));

				w[i] |= (uint64_t)((imm >> idx) & 1) << j;
			}
		}
		eq_q("ternarylogic_epi64, run-time imm8", _mm512_ternarylogic_epi64(a, b, c, vimm), w);
	}
	for (n = 0; n < 130; n++) {
		for (i = 0; i < 8; i++) {
			unsigned int r = (unsigned int)n % 64;

			w[i] = r ? (a.q[i] << r) | (a.q[i] >> (64 - r)) : a.q[i];
		}
		vimm = n;
		eq_q("rol_epi64 by every count", _mm512_rol_epi64(a, vimm), w);
	}
}

/*
 * ---- the branch-free masked operations and mask-producing compares ----
 * (avx512-emu.h selects with EMU_MBIT/EMU_SEL and computes compare bits
 * arithmetically, so that make ct-avx512-emu sees no branch on a mask or
 * a compared value.)  Each with the empty mask, the full mask and a mixed
 * one reaching both halves of the register, against values worked out by
 * hand from the operands of test_mlkem_section; the compares at the
 * extremes of their ranges, where a wrong borrow or sign shows.
 */
static TGT void test_branchfree_masks(void)
{
	uint16_t A[32] = { 0x7fff, 0x0000, 0x8000, 0xffff, 0x4000, 0x1234, 0x8000, 0xfffe };
	uint16_t B[32] = { 0x0001, 0x0001, 0x8000, 0xffff, 0x4000, 0x0100, 0x7fff, 0x0003 };
	/* a + b and a - b, words 0..7; words 8..31: 0x0102 + 0x0304, 0x0102 - 0x0304 */
	static const uint16_t add[8] = { 0x8000, 0x0001, 0x0000, 0xfffe, 0x8000, 0x1334, 0xffff, 0x0001 };
	static const uint16_t sub[8] = { 0x7ffe, 0xffff, 0x0000, 0x0000, 0x0000, 0x1134, 0x0001, 0xfffb };
	uint16_t W[32];
	__m512i a, b, x;
	int i;

	fill_w(A, 0x0102, 8);
	fill_w(B, 0x0304, 8);
	a = w16(A);
	b = w16(B);

	/* VPADDW merge-masked */
	eq_w("mask_add_epi16 k=0", _mm512_mask_add_epi16(_mm512_set1_epi16(0x5555), 0, a, b),
	     (fill_w(W, 0x5555, 0), W));
	memcpy(W, add, sizeof(add));
	fill_w(W, 0x0406, 8);
	eq_w("mask_add_epi16 k=~0", _mm512_mask_add_epi16(_mm512_set1_epi16(0x5555), 0xffffffffu, a, b), W);
	/* 0x0001005a: words 1, 3, 4, 6 and 16 */
	fill_w(W, 0x5555, 0);
	W[1] = 0x0001;
	W[3] = 0xfffe;
	W[4] = 0x8000;
	W[6] = 0xffff;
	W[16] = 0x0406;
	eq_w("mask_add_epi16 k=0001005a", _mm512_mask_add_epi16(_mm512_set1_epi16(0x5555), 0x0001005au, a, b), W);

	/* VPSUBW merge-masked */
	eq_w("mask_sub_epi16 k=0", _mm512_mask_sub_epi16(_mm512_set1_epi16(-2), 0, a, b),
	     (fill_w(W, 0xfffe, 0), W));
	memcpy(W, sub, sizeof(sub));
	fill_w(W, 0xfdfe, 8);
	eq_w("mask_sub_epi16 k=~0", _mm512_mask_sub_epi16(_mm512_set1_epi16(-2), 0xffffffffu, a, b), W);
	/* 0xa5000081: words 0, 7, 24, 26, 29, 31 */
	fill_w(W, 0xfffe, 0);
	W[0] = 0x7ffe;
	W[7] = 0xfffb;
	W[24] = W[26] = W[29] = W[31] = 0xfdfe;
	eq_w("mask_sub_epi16 k=a5000081", _mm512_mask_sub_epi16(_mm512_set1_epi16(-2), 0xa5000081u, a, b), W);

	/* VMOVDQU16 zero-masking */
	eq_w("maskz_mov_epi16 k=0", _mm512_maskz_mov_epi16(0, a), (fill_w(W, 0, 0), W));
	eq_w("maskz_mov_epi16 k=~0", _mm512_maskz_mov_epi16(0xffffffffu, a), A);
	fill_w(W, 0, 0);
	W[2] = 0x8000;
	W[5] = 0x1234;
	W[20] = 0x0102;
	eq_w("maskz_mov_epi16 k=00100024", _mm512_maskz_mov_epi16(0x00100024u, a), W);

	/* VPBLENDMW / VPBLENDMD */
	eq_w("mask_blend_epi16 k=0", _mm512_mask_blend_epi16(0, a, b), A);
	eq_w("mask_blend_epi16 k=~0", _mm512_mask_blend_epi16(0xffffffffu, a, b), B);
	memcpy(W, A, sizeof(W));
	W[0] = 0x0001;
	W[31] = 0x0304;
	eq_w("mask_blend_epi16 k=80000001", _mm512_mask_blend_epi16(0x80000001u, a, b), W);
	{
		static const uint32_t mixed[16] = { 0, 101, 2, 3, 4, 5, 6, 107, 8, 9, 10, 11, 12, 13, 114, 15 };
		uint32_t d[16];

		for (i = 0; i < 16; i++)
			d[i] = (uint32_t)i;
		eq_d("mask_blend_epi32 k=0", _mm512_mask_blend_epi32(0, iota32(0), iota32(100)), d);
		for (i = 0; i < 16; i++)
			d[i] = 100 + (uint32_t)i;
		eq_d("mask_blend_epi32 k=ffff", _mm512_mask_blend_epi32(0xffff, iota32(0), iota32(100)), d);
		eq_d("mask_blend_epi32 k=4082", _mm512_mask_blend_epi32(0x4082, iota32(0), iota32(100)), mixed);
	}

	/* VPSRLD imm merge-masked: 0x80000010 >> 4 = 0x08000001 */
	x = _mm512_mask_srli_epi32(_mm512_set1_epi32(7), 0, _mm512_set1_epi32((int)0x80000010u), 4);
	for (i = 0; i < 16; i++)
		CHECK(x.d[i] == 7, "mask_srli_epi32 k=0: dword %d", i);
	x = _mm512_mask_srli_epi32(_mm512_set1_epi32(7), 0xffff, _mm512_set1_epi32((int)0x80000010u), 4);
	for (i = 0; i < 16; i++)
		CHECK(x.d[i] == 0x08000001u, "mask_srli_epi32 k=ffff: dword %d", i);
	x = _mm512_mask_srli_epi32(_mm512_set1_epi32(7), 0x0180, _mm512_set1_epi32((int)0x80000010u), 31);
	for (i = 0; i < 16; i++)
		CHECK(x.d[i] == (i == 7 || i == 8 ? 1u : 7u), "mask_srli_epi32 k=0180 31: dword %d", i);

	/* VPCMPGTW: signed, at the ends of the range */
	CHECK(_mm512_cmpgt_epi16_mask(a, a) == 0, "cmpgt_epi16_mask a > a");
	CHECK(_mm512_cmpgt_epi16_mask(_mm512_set1_epi16(0x7fff), _mm512_set1_epi16(-32768)) == 0xffffffffu,
	      "cmpgt_epi16_mask 0x7fff > -0x8000");
	CHECK(_mm512_cmpgt_epi16_mask(_mm512_set1_epi16(-32768), _mm512_set1_epi16(0x7fff)) == 0,
	      "cmpgt_epi16_mask -0x8000 > 0x7fff");
	CHECK(_mm512_cmpgt_epi16_mask(_mm512_set1_epi16(0), _mm512_set1_epi16(-1)) == 0xffffffffu,
	      "cmpgt_epi16_mask 0 > -1");
	/* b > a: 1 > 0x7fff n, 1 > 0 y, eq n, eq n, eq n, 0x100 > 0x1234 n, 0x7fff > -2^15 y, 3 > -2 y; 0x304 > 0x102 y */
	CHECK(_mm512_cmpgt_epi16_mask(b, a) == 0xffffffc2u, "cmpgt_epi16_mask b > a: %08x",
	      (unsigned int)_mm512_cmpgt_epi16_mask(b, a));

	/* VPTESTMW */
	CHECK(_mm512_test_epi16_mask(a, _mm512_setzero_si512()) == 0, "test_epi16_mask with 0");
	CHECK(_mm512_test_epi16_mask(_mm512_set1_epi16(-32768), _mm512_set1_epi16(-1)) == 0xffffffffu,
	      "test_epi16_mask 0x8000 & 0xffff");
	CHECK(_mm512_test_epi16_mask(_mm512_set1_epi16(1), _mm512_set1_epi16(-2)) == 0,
	      "test_epi16_mask 1 & 0xfffe");

	/* VPCMPUD LT */
	CHECK(_mm512_cmplt_epu32_mask(_mm512_set1_epi32(-1), _mm512_set1_epi32(0)) == 0,
	      "cmplt_epu32_mask 0xffffffff < 0");
	CHECK(_mm512_cmplt_epu32_mask(_mm512_set1_epi32(0x7fffffff), _mm512_set1_epi32((int)0x80000000u)) == 0xffff,
	      "cmplt_epu32_mask 0x7fffffff < 0x80000000");
	CHECK(_mm512_cmplt_epu32_mask(_mm512_set1_epi32(3328), _mm512_set1_epi32(3329)) == 0xffff &&
	      _mm512_cmplt_epu32_mask(_mm512_set1_epi32(3329), _mm512_set1_epi32(3329)) == 0,
	      "cmplt_epu32_mask at q");

	/* VPCMPUQ EQ / NLE */
	CHECK(_mm512_cmpgt_epu64_mask(_mm512_set1_epi64(-1), _mm512_set1_epi64(0)) == 0xff,
	      "cmpgt_epu64_mask 2^64-1 > 0");
	CHECK(_mm512_cmpgt_epu64_mask(_mm512_set1_epi64(0), _mm512_set1_epi64(-1)) == 0,
	      "cmpgt_epu64_mask 0 > 2^64-1");
	CHECK(_mm512_cmpgt_epu64_mask(_mm512_set1_epi64((long long)0x8000000000000000ULL),
				      _mm512_set1_epi64(0x7fffffffffffffffLL)) == 0xff,
	      "cmpgt_epu64_mask 2^63 > 2^63-1");
	CHECK(_mm512_cmpgt_epu64_mask(_mm512_set1_epi64(0x7fffffffffffffffLL),
				      _mm512_set1_epi64((long long)0x8000000000000000ULL)) == 0,
	      "cmpgt_epu64_mask 2^63-1 > 2^63");
	CHECK(_mm512_cmpeq_epu64_mask(_mm512_set1_epi64(0), _mm512_set1_epi64((long long)0x8000000000000000ULL)) == 0,
	      "cmpeq_epu64_mask 0 == 2^63");
	CHECK(_mm512_cmpeq_epu64_mask(_mm512_set1_epi64(-1), _mm512_set1_epi64(-1)) == 0xff &&
	      _mm512_cmpeq_epu64_mask(_mm512_setzero_si512(), _mm512_setzero_si512()) == 0xff,
	      "cmpeq_epu64_mask of 2^64-1 and of 0");
	CHECK(_mm512_cmpeq_epu64_mask(_mm512_set1_epi64(1), _mm512_setzero_si512()) == 0,
	      "cmpeq_epu64_mask 1 == 0");

	/* VPCMPD EQ / NLE */
	CHECK(_mm512_cmpgt_epi32_mask(_mm512_set1_epi32(0x7fffffff), _mm512_set1_epi32((int)0x80000000u)) == 0xffff,
	      "cmpgt_epi32_mask 2^31-1 > -2^31");
	CHECK(_mm512_cmpgt_epi32_mask(_mm512_set1_epi32((int)0x80000000u), _mm512_set1_epi32(0x7fffffff)) == 0,
	      "cmpgt_epi32_mask -2^31 > 2^31-1");
	CHECK(_mm512_cmpeq_epi32_mask(_mm512_set1_epi32((int)0x80000000u), _mm512_setzero_si512()) == 0,
	      "cmpeq_epi32_mask -2^31 == 0");
	CHECK(_mm512_cmpeq_epi32_mask(_mm512_set1_epi32(-1), _mm512_set1_epi32(-1)) == 0xffff,
	      "cmpeq_epi32_mask -1 == -1");
}

int main(void)
{
	test_set();
	test_loadstore();
	test_misaligned_faults();
	test_masked_bytes();
	test_casts();
	test_bitwise();
	test_arith();
	test_madd52();
	test_mask256();
	test_vl256();
	test_shifts();
	test_shuffles();
	test_aes();
	test_clmul();
	test_mlkem_section();
	test_rsa_ifma_ops();
	test_mldsa_ops();
	test_keccak_ops();
	test_branchfree_masks();
	printf("test_emu: %d checks, %d failures\n", checks, fails);
	return fails ? 1 : 0;
}
