// SPDX-License-Identifier: MIT
/*
 * Ed25519 (RFC 8032) for x86-64 with MULX/ADCX/ADOX: the
 * "ed25519-x86_64-adx" sig.
 * Requires: BMI2 (MULX) and ADX (ADCX, ADOX).
 *
 * The group code of api/include/crypto/ed25519-impl.h (constant-time fixed-base comb for
 * signing, sliding-window double-scalar multiplication for verification)
 * compiled over the radix-2^64 field arithmetic of fe25519-mulx.h, with
 * its own tables.  Hashing, scalars modulo L, the verification policy and
 * the key formats are the generic driver's (algs/ed25519.c).
 *
 * The fixed-base multiplication is a signed-digit table walk in radix 32
 * with a row per digit (no doublings), a table of its own (below), and
 * the table scan done in AVX2 where the CPU has it: the scan reads all
 * sixteen 96-byte entries of a row for each of the 52 digits; three
 * 256-bit registers hold an entry, so a row is 48 ANDs (with the loads)
 * and 48 ORs.  Each of the 52 mixed additions (7 products) is one call of
 * ed25519-mulx-madd.S, which also runs the next digit's scan.
 */
#include <immintrin.h>
#include <string.h>
#include <rind/internal/sig.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/ed25519.h>
#include <crypto/curve25519.h>
#include "ed25519-x86.h"
#include "fe25519-mulx.h"
#include <crypto/ed25519-impl.h>

/* Set at registration: the table scan may use AVX2. */
static bool ed_mulx_avx2;

#define ED_AVX2 __attribute__((target("avx2")))

/* n = -x (mod p) below 2^256, as fe_neg, on limbs in registers. */
static inline void fe_neg_limbs(u64 n[4], const u64 x[4])
{
	unsigned long long t0, t1, t2, t3;
	unsigned char b;

	b = _subborrow_u64(0, 0, x[0], &t0);
	b = _subborrow_u64(b, 0, x[1], &t1);
	b = _subborrow_u64(b, 0, x[2], &t2);
	b = _subborrow_u64(b, 0, x[3], &t3);
	/* A borrow out of 2^256 is a multiple of 2^256 = 38 too many. */
	b = _subborrow_u64(0, t0, (0 - (u64)b) & 38, &t0);
	b = _subborrow_u64(b, t1, 0, &t1);
	b = _subborrow_u64(b, t2, 0, &t2);
	b = _subborrow_u64(b, t3, 0, &t3);
	t0 -= (0 - (u64)b) & 38;
	n[0] = t0;
	n[1] = t1;
	n[2] = t2;
	n[3] = t3;
}

/*
 * The signing table: radix 32 rather than the radix 16 of ed25519-impl.h.
 * 52 signed digits in [-16, 16] instead of 64 in [-8, 8], so 52 mixed
 * additions instead of 64, for a table scan of 16 entries instead of 8
 * per digit.  The scans run in the vector unit beside the additions' MULX
 * chains, but they share the core's front end: of the 12 additions'
 * ~3.1k cycles, ~2.2k are gained (the fixed-base multiplication with its
 * inversion 23.6k -> 21.4k cycles).  Row m holds j * 32^m * B,
 * j = 1..16, m = 0..51 (52 rows of 16 entries, 78 KiB):
 *   [k]B = sum_m e_m 32^m B,
 * one row per digit and no doubling at all.  A comb over half the rows
 * (39 KiB, 1024^m B, five doublings between the two halves) cost those
 * five doublings, ~1k cycles; the larger table lives in L2 rather than
 * L1, which the scans do not notice (they are bound by their vector
 * operations and their place beside the products, not by the loads:
 * timed with every scan reading row 0 or the first 8 rows, no faster).
 */
#define ED5_ROWS	52
#define ED5_COLS	16
#define ED5_DIGITS	ED5_ROWS

static ge_precomp ed5_base[ED5_ROWS][ED5_COLS] __attribute__((aligned(64)));
static pthread_once_t ed5_once = PTHREAD_ONCE_INIT;

/* Once per process, after ed_tables() (ge_p3_to_cached needs 2d). */
static __attribute__((cold)) void ed5_tables_init(void)
{
	ge_p3 row[ED5_COLS], p;
	fe scratch[ED5_COLS];
	ge_cached pc;
	ge_p1p1 t;
	int m, j;

	fe_frombytes(&p.X, ed_bx_bytes);
	fe_frombytes(&p.Y, ed_by_bytes);
	fe_1(&p.Z);
	fe_mul(&p.T, &p.X, &p.Y);
	for (m = 0; m < ED5_ROWS; m++) {
		row[0] = p;
		ge_p3_to_cached(&pc, &p);
		for (j = 1; j < ED5_COLS; j++) {
			ge_add(&t, &row[j - 1], &pc);
			ge_p1p1_to_p3(&row[j], &t);
		}
		ge_batch_to_precomp(ed5_base[m], row, ED5_COLS, scratch);
		/* 32 P = 2 * (16 P) */
		ge_p3_dbl(&t, &row[ED5_COLS - 1]);
		ge_p1p1_to_p3(&p, &t);
	}
}

static inline void ed5_tables(void)
{
	ed_tables();
	pthread_once(&ed5_once, ed5_tables_init);
}

/*
 * t = b * 32^m * B for a digit b in [-16, 16]: every entry of row m is
 * read and combined under a mask (exactly one of the sixteen masks is set
 * when b != 0, none when b == 0, which leaves the identity (1, 1, 0)); the
 * negation (swap y+x and y-x, negate 2dxy) is masked too.  The digit
 * never becomes a branch or an address.
 */
/* |b| for a digit b in [-16, 16], and whether b < 0, without a branch. */
static inline u64 ed_digit_abs(s8 b, u64 *neg)
{
	*neg = (u64)(u8)b >> 7;
	return (u64)(u8)(b - (s8)((0 - (u8)*neg) & ((u8)b << 1)));
}

/*
 * t = the selection (ypx, ymx, xy2d) for |b|, negated when neg: swap y+x
 * and y-x, negate 2dxy, under masks.
 */
static ED_AVX2 void ed_select_finish_avx2(ge_precomp *t, __m256i ypx, __m256i ymx, __m256i xy2d,
					  u64 neg)
{
	__m256i nmask = _mm256_set1_epi64x((long long)(0 - neg));
	__m256i sw = _mm256_and_si256(nmask, _mm256_xor_si256(ypx, ymx));
	__m256i neg256;
	u64 x[4], n[4];

	_mm256_storeu_si256((__m256i *)t->ypx.v, _mm256_xor_si256(ypx, sw));
	_mm256_storeu_si256((__m256i *)t->ymx.v, _mm256_xor_si256(ymx, sw));
	/*
	 * -2dxy from the register, not from t: eight-byte loads of what a
	 * 32-byte store just wrote do not forward and stalled the scan.
	 */
	x[0] = (u64)_mm256_extract_epi64(xy2d, 0);
	x[1] = (u64)_mm256_extract_epi64(xy2d, 1);
	x[2] = (u64)_mm256_extract_epi64(xy2d, 2);
	x[3] = (u64)_mm256_extract_epi64(xy2d, 3);
	fe_neg_limbs(n, x);
	/*
	 * Back into a vector by register moves and selected there: x and n
	 * stay in registers (no address escapes, nothing to wipe).
	 */
	neg256 = _mm256_set_epi64x((long long)n[3], (long long)n[2], (long long)n[1],
				   (long long)n[0]);
	sw = _mm256_and_si256(nmask, _mm256_xor_si256(xy2d, neg256));
	_mm256_storeu_si256((__m256i *)t->xy2d.v, _mm256_xor_si256(xy2d, sw));
}

static ED_AVX2 void ed_select_avx2(ge_precomp *t, int m, s8 b)
{
	u64 neg, babs = ed_digit_abs(b, &neg);
	const ge_precomp *row = ed5_base[m];
	__m256i want = _mm256_set1_epi64x((long long)babs);
	__m256i one = _mm256_set_epi64x(0, 0, 0, 1);
	__m256i zero = _mm256_cmpeq_epi64(want, _mm256_setzero_si256());
	__m256i ypx = _mm256_and_si256(zero, one);
	__m256i ymx = ypx;
	__m256i xy2d = _mm256_setzero_si256();
	__m256i inc = _mm256_set1_epi64x(1), idx = _mm256_setzero_si256();
	int j;

	/*
	 * The entry index counts up in a vector register (no scalar move
	 * and broadcast per entry), and the loop is unrolled: per entry one
	 * compare, three ANDs with a memory operand and three ORs.
	 */
#pragma GCC unroll 16
	for (j = 0; j < ED5_COLS; j++) {
		__m256i mask;

		idx = _mm256_add_epi64(idx, inc);
		mask = _mm256_cmpeq_epi64(want, idx);

		ypx = _mm256_or_si256(ypx, _mm256_and_si256(mask,
				_mm256_loadu_si256((const __m256i *)row[j].ypx.v)));
		ymx = _mm256_or_si256(ymx, _mm256_and_si256(mask,
				_mm256_loadu_si256((const __m256i *)row[j].ymx.v)));
		xy2d = _mm256_or_si256(xy2d, _mm256_and_si256(mask,
				_mm256_loadu_si256((const __m256i *)row[j].xy2d.v)));
	}
	ed_select_finish_avx2(t, ypx, ymx, xy2d, neg);
}

/*
 * ed25519-mulx-madd.S: h = h + q as ge_madd_p3_mulx, with the scan of
 * row for the next digit's |b| woven in; sel gets the unsigned selection.
 */
void ge_madd_p3_scan_mulx(ge_p3 *h, const ge_precomp *q, const ge_precomp *row, u64 babs,
			  u64 sel[12]);

/* h = h + q, and t = the entry of row m for the digit b (AVX2 CPUs). */
static ED_AVX2 void ge_madd_p3_select_avx2(ge_p3 *h, const ge_precomp *q, ge_precomp *t, int m,
					   s8 b, u64 sel[12])
{
	u64 neg, babs = ed_digit_abs(b, &neg);

	ge_madd_p3_scan_mulx(h, q, ed5_base[m], babs, sel);
	ed_select_finish_avx2(t, _mm256_loadu_si256((const __m256i *)sel),
			      _mm256_loadu_si256((const __m256i *)(sel + 4)),
			      _mm256_loadu_si256((const __m256i *)(sel + 8)), neg);
}

/* The same with 64-bit masks, for a CPU without AVX2. */
static void ed_select_c(ge_precomp *t, int m, s8 b)
{
	u64 neg, babs = ed_digit_abs(b, &neg);
	ge_precomp minus;
	int j;

	ge_precomp_0(t);
	for (j = 0; j < ED5_COLS; j++)
		ge_precomp_cmov(t, &ed5_base[m][j], ct_eq(babs, (u64)j + 1));
	minus.ypx = t->ymx;
	minus.ymx = t->ypx;
	fe_neg(&minus.xy2d, &t->xy2d);
	ge_precomp_cmov(t, &minus, neg);
	memzero_explicit(&minus, sizeof(minus));
}

static inline void ed_select_mulx(ge_precomp *t, int m, s8 b)
{
	/* A CPU feature, not a secret. */
	if (ed_mulx_avx2)
		ed_select_avx2(t, m, b);
	else
		ed_select_c(t, m, b);
}

/*
 * ed25519-mulx-madd.S: h = h + q for h = (X : Y : Z : T), q affine
 * (y + x, y - x, 2dxy): ge_madd then ge_p1p1_to_p3 in one call, the
 * operands in one frame, products weakly reduced.
 */
void ge_madd_p3_mulx(ge_p3 *h, const ge_precomp *q, u64 scratch[40]);

_Static_assert(sizeof(ge_p3) == 16 * sizeof(u64) && sizeof(ge_precomp) == 12 * sizeof(u64),
	       "ge_madd_p3_mulx works on the limbs of ge_p3 and ge_precomp");

/* scratch: 40 words, wiped by the caller */
static inline void ge_madd_p3(ge_p3 *h, const ge_precomp *q, u64 scratch[40])
{
	ge_madd_p3_mulx(h, q, scratch);
}

/*
 * h = h + q, then t = the entry of row m for the digit b: on AVX2 CPUs in
 * one call, the scan beside the products; else one after the other.
 */
static inline void ge_madd_p3_select(ge_p3 *h, const ge_precomp *q, ge_precomp *t, int m, s8 b,
				     u64 scratch[40])
{
	/* A CPU feature, not a secret. */
	if (ed_mulx_avx2) {
		ge_madd_p3_select_avx2(h, q, t, m, b, scratch);
	} else {
		ed_select_c(t, m, b);
		ge_madd_p3_mulx(h, q, scratch);
	}
}

/*
 * h = [k]B for a 32-byte little-endian k < 2^255, constant time: the
 * signed radix-32 table walk above over ed_select_mulx and ge_madd_p3_select.
 */
static void ge_scalarmult_base_mulx(ge_p3 *h, const u8 k[32])
{
	u64 scratch[40];
	s8 e[ED5_DIGITS];
	u8 kk[33];
	s8 carry = 0;
	ge_precomp t[2];
	int i;

	/* e_i = bits 5i .. 5i + 4 of k (bits from 256 up are 0) */
	memcpy(kk, k, 32);
	kk[32] = 0;
	for (i = 0; i < ED5_DIGITS; i++) {
		int bit = 5 * i;
		u32 w = kk[bit >> 3] | (u32)kk[(bit >> 3) + 1] << 8;

		e[i] = (s8)((w >> (bit & 7)) & 31);
	}
	/* Signed digits: each e_i in [-16, 15], e_51 in [0, 1]. */
	for (i = 0; i < ED5_DIGITS - 1; i++) {
		e[i] = (s8)(e[i] + carry);
		carry = (s8)((e[i] + 16) >> 5);
		e[i] = (s8)(e[i] - (carry << 5));
	}
	e[ED5_DIGITS - 1] = (s8)(e[ED5_DIGITS - 1] + carry);

	/*
	 * Each row's scan is issued with the previous row's addition, which
	 * does not depend on it: the core overlaps the table reads with the
	 * products.
	 */
	ge_p3_0(h);
	ed_select_mulx(&t[0], 0, e[0]);
	for (i = 0; i < ED5_DIGITS; i++) {
		if (i + 1 < ED5_DIGITS)
			ge_madd_p3_select(h, &t[i & 1], &t[(i + 1) & 1], i + 1, e[i + 1], scratch);
		else
			ge_madd_p3(h, &t[i & 1], scratch);
	}
	memzero_explicit(scratch, sizeof(scratch));
	memzero_explicit(e, sizeof(e));
	memzero_explicit(kk, sizeof(kk));
	memzero_explicit(t, sizeof(t));
}

/* ed_base_mul, ed_base_mul_batch and ed_base_mul_mont over the scan above. */
static void ed_base_mul_x86(u8 out[32], const u8 k[32])
{
	ge_p3 h;

	ed5_tables();
	ge_scalarmult_base_mulx(&h, k);
	ge_tobytes(out, &h.X, &h.Y, &h.Z);
	memzero_explicit(&h, sizeof(h));
}

static void ed_base_mul_batch_x86(u8 (*out)[32], const u8 (*k)[32], unsigned int n)
{
	fe X[ED_BATCH], Y[ED_BATCH], Z[ED_BATCH];
	unsigned int i, m;
	ge_p3 h;

	ed5_tables();
	while (n) {
		m = n < ED_BATCH ? n : ED_BATCH;
		for (i = 0; i < m; i++) {
			ge_scalarmult_base_mulx(&h, k[i]);
			X[i] = h.X;
			Y[i] = h.Y;
			Z[i] = h.Z;
		}
		ge_batch_tobytes(out, X, Y, Z, m);
		out += m;
		k += m;
		n -= m;
	}
	memzero_explicit(&h, sizeof(h));
	memzero_explicit(X, sizeof(X));
	memzero_explicit(Y, sizeof(Y));
	memzero_explicit(Z, sizeof(Z));
}

/* X25519(k, 9) = (Z + Y) / (Z - Y) of [clamped k]B. */
static void ed_base_mul_mont_x86(u8 out[32], const u8 k[32])
{
	u8 kc[32];
	fe n, d;
	ge_p3 h;

	memcpy(kc, k, 32);
	curve25519_clamp_secret(kc);
	ed5_tables();
	ge_scalarmult_base_mulx(&h, kc);
	fe_add(&n, &h.Z, &h.Y);
	fe_sub(&d, &h.Z, &h.Y);
	fe_invert(&d, &d);
	fe_mul(&n, &n, &d);
	fe_tobytes(out, &n);
	memzero_explicit(kc, sizeof(kc));
	memzero_explicit(&h, sizeof(h));
	memzero_explicit(&n, sizeof(n));
	memzero_explicit(&d, sizeof(d));
}

void curve25519_base_mulx(u8 out[CURVE25519_KEY_SIZE], const u8 scalar[CURVE25519_KEY_SIZE])
{
	ed_base_mul_mont_x86(out, scalar);
}

static struct ed25519_driver ed25519_mulx_drv = {
	.base_mul = ed_base_mul_x86,
	.base_mul_batch = ed_base_mul_batch_x86,
	.base_mul_mont = ed_base_mul_mont_x86,
	.prepare = ed_prepare,
	.double_mul = ed_double_mul,
	.sc_reduce = ed25519_sc_reduce_x86,
	.sc_muladd = ed25519_sc_muladd_x86,
	.alg = ED25519_SIG_ALG("ed25519-x86_64-adx", 300, "x86"),
};

static int ed25519_mulx_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_BMI2) || !rind_cpu_has(RIND_X86_ADX))
		return 0;
	ed_mulx_avx2 = rind_cpu_has(RIND_X86_AVX2);
	crypto_register_test(&ed25519_test_desc);
	return crypto_register_sig(&ed25519_mulx_drv.alg);
}

module_init(ed25519_mulx_mod_init);
