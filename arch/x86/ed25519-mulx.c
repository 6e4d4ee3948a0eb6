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
 * The fixed-base multiplication is the comb of ed25519-impl.h with the
 * table scan done in AVX2 where the CPU has it: the scan reads all eight
 * 96-byte entries of a row for each of the 64 digits, and with 128-bit
 * moves it was a fifth of a signature's time; three 256-bit registers
 * hold an entry, so a row is 24 loads, 24 ANDs and 24 ORs.  Each of the
 * 64 mixed additions (7 products) is one call of ed25519-mulx-madd.S.
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
 * t = b * 256^m * B for a digit b in [-8, 8], as ed_select: every entry
 * of row m is read and combined under a mask (exactly one of the eight
 * masks is set when b != 0, none when b == 0, which leaves the identity
 * (1, 1, 0)); the negation (swap y+x and y-x, negate 2dxy) is masked
 * too.  The digit never becomes a branch or an address.
 */
static ED_AVX2 void ed_select_avx2(ge_precomp *t, int m, s8 b)
{
	u64 neg = (u64)(u8)b >> 7;
	u64 babs = (u64)(u8)(b - (s8)((0 - (u8)neg) & ((u8)b << 1)));
	const ge_precomp *row = ed_tab.base[m];
	__m256i want = _mm256_set1_epi64x((long long)babs);
	__m256i one = _mm256_set_epi64x(0, 0, 0, 1);
	__m256i zero = _mm256_cmpeq_epi64(want, _mm256_setzero_si256());
	__m256i ypx = _mm256_and_si256(zero, one);
	__m256i ymx = ypx;
	__m256i xy2d = _mm256_setzero_si256();
	__m256i nmask, sw, neg256;
	u64 x[4], n[4];
	int j;

	for (j = 0; j < ED_BASE_COLS; j++) {
		__m256i mask = _mm256_cmpeq_epi64(want, _mm256_set1_epi64x(j + 1));

		ypx = _mm256_or_si256(ypx, _mm256_and_si256(mask,
				_mm256_loadu_si256((const __m256i *)row[j].ypx.v)));
		ymx = _mm256_or_si256(ymx, _mm256_and_si256(mask,
				_mm256_loadu_si256((const __m256i *)row[j].ymx.v)));
		xy2d = _mm256_or_si256(xy2d, _mm256_and_si256(mask,
				_mm256_loadu_si256((const __m256i *)row[j].xy2d.v)));
	}
	nmask = _mm256_set1_epi64x((long long)(0 - neg));
	sw = _mm256_and_si256(nmask, _mm256_xor_si256(ypx, ymx));
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

static inline void ed_select_mulx(ge_precomp *t, int m, s8 b)
{
	/* A CPU feature, not a secret. */
	if (ed_mulx_avx2)
		ed_select_avx2(t, m, b);
	else
		ed_select(t, m, b);
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
 * h = [k]B for a 32-byte little-endian k < 2^255, constant time: the
 * signed radix-16 comb of ge_scalarmult_base (ed25519-impl.h) over
 * ed_select_mulx and ge_madd_p3.
 */
static void ge_scalarmult_base_mulx(ge_p3 *h, const u8 k[32])
{
	u64 scratch[40];
	s8 e[64];
	s8 carry = 0;
	ge_precomp t[2];
	ge_p1p1 r;
	ge_p2 s;
	int i;

	for (i = 0; i < 32; i++) {
		e[2 * i] = (s8)(k[i] & 15);
		e[2 * i + 1] = (s8)(k[i] >> 4);
	}
	/* Signed digits: each e_i in [-8, 7], e_63 in [0, 8]. */
	for (i = 0; i < 63; i++) {
		e[i] = (s8)(e[i] + carry);
		carry = (s8)((e[i] + 8) >> 4);
		e[i] = (s8)(e[i] - (carry << 4));
	}
	e[63] = (s8)(e[63] + carry);

	/*
	 * Each row's scan is issued before the previous row's addition,
	 * which does not depend on it: the core overlaps the table reads
	 * with the products.
	 */
	ge_p3_0(h);
	ed_select_mulx(&t[0], 0, e[1]);
	for (i = 1; i < 64; i += 2) {
		if (i + 2 < 64)
			ed_select_mulx(&t[((i / 2) + 1) & 1], (i + 2) / 2, e[i + 2]);
		ge_madd_p3(h, &t[(i / 2) & 1], scratch);
	}
	ge_p3_dbl(&r, h);
	ge_p1p1_to_p2(&s, &r);
	ge_p2_dbl(&r, &s);
	ge_p1p1_to_p2(&s, &r);
	ge_p2_dbl(&r, &s);
	ge_p1p1_to_p2(&s, &r);
	ge_p2_dbl(&r, &s);
	ed_select_mulx(&t[0], 0, e[0]);
	ge_p1p1_to_p3(h, &r);
	for (i = 0; i < 64; i += 2) {
		if (i + 2 < 64)
			ed_select_mulx(&t[((i / 2) + 1) & 1], (i + 2) / 2, e[i + 2]);
		ge_madd_p3(h, &t[(i / 2) & 1], scratch);
	}
	memzero_explicit(scratch, sizeof(scratch));
	memzero_explicit(e, sizeof(e));
	memzero_explicit(t, sizeof(t));
	memzero_explicit(&r, sizeof(r));
	memzero_explicit(&s, sizeof(s));
}

/* ed_base_mul, ed_base_mul_batch and ed_base_mul_mont over the scan above. */
static void ed_base_mul_x86(u8 out[32], const u8 k[32])
{
	ge_p3 h;

	ed_tables();
	ge_scalarmult_base_mulx(&h, k);
	ge_tobytes(out, &h.X, &h.Y, &h.Z);
	memzero_explicit(&h, sizeof(h));
}

static void ed_base_mul_batch_x86(u8 (*out)[32], const u8 (*k)[32], unsigned int n)
{
	fe X[ED_BATCH], Y[ED_BATCH], Z[ED_BATCH];
	unsigned int i, m;
	ge_p3 h;

	ed_tables();
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
	ed_tables();
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
