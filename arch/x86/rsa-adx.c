// SPDX-License-Identifier: MIT
/*
 * RSA engine for x86-64 with MULX/ADCX/ADOX (crypto/rsa.h): the drivers
 * "pkcs1-rsa-sha256-adx", "pss-rsa-sha256-adx", "oaep-rsa-sha256-adx"
 * (and the sha384, sha512 ones), priority 300.
 * Requires: BMI2 (MULX) and ADX (ADCX, ADOX).
 *
 * Only the two exponentiations are this file's (rsa.h: the engine);
 * blinding, CRT, the fault check and the padding are the shared C.
 * The Montgomery products are bn-adx.h's assembly kernels: a squaring of
 * its own (each cross product once), a multiplication as a product pass
 * then the same reduction (CIOS where n % 8 == 4); bn-adx.c has the
 * figures.  The engine's mont_mul serves the shared code's products
 * (conversions, CRT, blinding, fault check).  Moduli whose limb count is
 * not a multiple of four (2056-bit keys, unbalanced CRT halves) go to
 * the generic engine.
 *
 * Cost of an RSA-2048 signature here (Zen 3, perf over crypto_sig_sign as
 * ../shared/peers/bench.c calls it): the 16-limb kernels (the two
 * exponentiations) 89%, the table scan 2.6% (4% before the VPBLENDVB
 * scan), the 32-limb ones (fault check, blinding, unblinding) 3.7%, the
 * rest (hash, padding, CRT, glue) 2-3%.  Minima of the steps of
 * rsa_private (rdtsc around each, 2026-12-02): blinding 5.5k TSC, c r^e
 * 2.6k, the two reductions mod p and q 2.6k each, the recombination
 * 4.4k, unblinding 3.2k, the fault check (exp_pub mod n) 37.6k, against
 * ~700k for each exponentiation: ~4% of a signature is outside them.  A
 * 1024-bit exponentiation (1024 squarings, 205 + 30 products) takes
 * ~745k TSC cycles, aws-lc's BN_mod_exp_mont_consttime ~875k (same
 * process, minima, loaded host); the whole signature ~1.59M against
 * aws-lc's ~1.73M.  The 1536- and 2048-bit ones (RSA-3072/4096's
 * halves): ~2.3M against ~2.55M and ~5.3M against ~6.0M; on-CPU
 * medians of whole signatures 1.05-1.08x aws-lc at 3072 bits and
 * 1.01-1.04x at 4096 (bench/probes/rsa-peer.c, 2026-12-01, load ~5 on
 * the 2 CPUs: at 4096 bits almost every signature is preempted, so its
 * TSC minimum means nothing there).
 *
 * exp_ct: fixed 5-bit windows over every exponent bit, the 32-entry
 * table read whole for each window and the entry kept by mask (no
 * secret-dependent branch or address); the table, the accumulator and
 * the scratch are wiped once, at the end, not after each product.  The
 * window's five squarings are one bnx_mont_sqrk call.  Six-bit windows
 * for the 1536- and 2048-bit exponents (RSA-3072/4096's halves: 342
 * products instead of 410, a 64-entry table) measured 1-3% slower at
 * the minimum and the median (same process, against aws-lc): the table's
 * 31 more products and the scan of twice the table eat the saving.
 * exp_vt: left-to-right square and multiply over the public exponent
 * only (e = 65537: 16 squarings and one multiplication), each run of
 * squarings one bnx_mont_sqrk call; exp_pub the same with the
 * conversions folded in (verification, the fault check).
 */
#include <string.h>
#include <immintrin.h>
#include <rind/types.h>
#include <rind/internal/alg.h>
#include <rind/internal/util.h>
#include <crypto/rsa.h>
#include "bn-adx.h"

#define WIN	5
#define TBL	(1u << WIN)

/* @nb bits of e from bit @pos (public positions, secret bits). */
static inline u64 exp_bits(const u64 *e, unsigned int en, unsigned int pos, unsigned int nb)
{
	unsigned int w = pos / 64, s = pos % 64;
	u64 v = e[w] >> s;

	if (s + nb > 64 && w + 1 < en)
		v |= e[w + 1] << (64 - s);
	return v & ((1u << nb) - 1);
}

/* r = table[idx], every entry read (idx secret). */
static void tbl_select(u64 *r, const u64 *table, unsigned int n, u64 idx)
{
	unsigned int i, j;

	memset(r, 0, (size_t)n * 8);
	for (i = 0; i < TBL; i++) {
		u64 d = idx ^ i;
		/* All-ones when d == 0, no branch. */
		u64 mask = ((d | ((u64)0 - d)) >> 63) - 1;
		const u64 *t = table + (size_t)i * n;

		for (j = 0; j < n; j++)
			r[j] |= t[j] & mask;
	}
}

/*
 * The same scan with 256-bit loads, the mask from VPCMPEQQ (n % 4 == 0):
 * a quarter of the loads and logic of the scalar scan, which took a tenth
 * of a signature's time.
 */
__attribute__((target("avx2")))
static void tbl_select_avx2(u64 *r, const u64 *table, unsigned int n, u64 idx)
{
	const __m256i want = _mm256_set1_epi64x((long long)idx);
	unsigned int i, j;

	for (j = 0; j < n; j += 8) {
		__m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
		__m256i cur = _mm256_setzero_si256();
		const u64 *t = table + j;

		for (i = 0; i < TBL; i++, t += n) {
			__m256i mask = _mm256_cmpeq_epi64(cur, want);

			acc0 = _mm256_or_si256(acc0, _mm256_and_si256(mask,
					_mm256_loadu_si256((const __m256i *)t)));
			if (j + 4 < n)	/* public: n */
				acc1 = _mm256_or_si256(acc1, _mm256_and_si256(mask,
						_mm256_loadu_si256((const __m256i *)(t + 4))));
			cur = _mm256_add_epi64(cur, _mm256_set1_epi64x(1));
		}
		_mm256_storeu_si256((__m256i *)(r + j), acc0);
		if (j + 4 < n)
			_mm256_storeu_si256((__m256i *)(r + j + 4), acc1);
	}
}

/*
 * The scan for n = 16, 24, 32 (RSA-2048/3072/4096's halves): the entry
 * whole in n / 4 registers, one mask a table entry, VPBLENDVB keeping the
 * wanted one (one op where AND and OR were two).  TSC minima (Zen 3, a
 * scan alone): n = 16 73 against 98-147 for tbl_select_avx2, n = 32
 * 171-196 against 220-245.
 */
static inline __attribute__((always_inline, target("avx2")))
void tbl_select_avx2_n(u64 *r, const u64 *table, u64 idx, const unsigned int n)
{
	const __m256i want = _mm256_set1_epi64x((long long)idx), one = _mm256_set1_epi64x(1);
	__m256i acc[8], cur = _mm256_setzero_si256();
	unsigned int i, j;

#pragma GCC unroll 8
	for (j = 0; j < n / 4; j++)
		acc[j] = _mm256_setzero_si256();
#pragma GCC unroll 4
	for (i = 0; i < TBL; i++, table += n) {
		__m256i mask = _mm256_cmpeq_epi64(cur, want);

#pragma GCC unroll 8
		for (j = 0; j < n / 4; j++)
			acc[j] = _mm256_blendv_epi8(acc[j],
					_mm256_loadu_si256((const __m256i *)(table + 4 * j)), mask);
		cur = _mm256_add_epi64(cur, one);
	}
#pragma GCC unroll 8
	for (j = 0; j < n / 4; j++)
		_mm256_storeu_si256((__m256i *)(r + 4 * j), acc[j]);
}

__attribute__((target("avx2")))
static void tbl_select16(u64 *r, const u64 *table, u64 idx)
{
	tbl_select_avx2_n(r, table, idx, 16);
}

__attribute__((target("avx2")))
static void tbl_select24(u64 *r, const u64 *table, u64 idx)
{
	tbl_select_avx2_n(r, table, idx, 24);
}

__attribute__((target("avx2")))
static void tbl_select32(u64 *r, const u64 *table, u64 idx)
{
	tbl_select_avx2_n(r, table, idx, 32);
}

static bool have_avx2;

static void select_entry(u64 *r, const u64 *table, unsigned int n, u64 idx)
{
	if (!have_avx2)
		tbl_select(r, table, n, idx);
	else if (n == 16)	/* public: n */
		tbl_select16(r, table, idx);
	else if (n == 24)
		tbl_select24(r, table, idx);
	else if (n == 32)
		tbl_select32(r, table, idx);
	else
		tbl_select_avx2(r, table, n, idx);
}

struct exp_scratch {
	u64 table[TBL * BN_MAX_LIMBS];
	u64 acc[BN_MAX_LIMBS], sel[BN_MAX_LIMBS];
	struct bnx_tmp tmp;
};

static void rsa_adx_exp_ct(u64 *r, const u64 *a, const u64 *e, unsigned int en,
			   const struct bn_mont *mc)
{
	unsigned int n = mc->n, nb = 64 * en, pos, first, i;
	struct exp_scratch w;

	if (!bnx_fits(n) || !en) {
		bn_mont_exp_ct(r, a, e, en, mc);
		return;
	}
	memcpy(w.table, mc->one, (size_t)n * 8);
	memcpy(w.table + n, a, (size_t)n * 8);
	for (i = 2; i < TBL; i++) {
		u64 *t = w.table + (size_t)i * n;

		if (i & 1)
			bnx_mont_mul(t, t - n, a, mc, &w.tmp);
		else
			bnx_mont_sqr(t, w.table + (size_t)(i / 2) * n, mc, &w.tmp);
	}
	/* The top window is what is left over above the 5-bit ones. */
	first = nb % WIN ? nb % WIN : WIN;
	pos = nb - first;
	select_entry(w.acc, w.table, n, exp_bits(e, en, pos, first));
	while (pos) {
		pos -= WIN;
		bnx_mont_sqrk(w.acc, w.acc, WIN, mc, &w.tmp);	/* one call for the five */
		select_entry(w.sel, w.table, n, exp_bits(e, en, pos, WIN));
		bnx_mont_mul(w.acc, w.acc, w.sel, mc, &w.tmp);
	}
	memcpy(r, w.acc, (size_t)n * 8);
	/*
	 * Wiped once, here, and only the words the exponentiation wrote: the
	 * table's 32 n, n each of acc and sel, the kernels' 2 n + 1 of
	 * tmp.p (the fixed and 8x8 kernels' scratch; the CIOS one, for
	 * n % 8 == 4, uses tmp.t's n + 2).  The whole structs were 5 KiB of
	 * stores a call beyond the table at every size.
	 */
	memzero_explicit(w.table, (size_t)TBL * n * 8);
	memzero_explicit(w.acc, (size_t)n * 8);
	memzero_explicit(w.sel, (size_t)n * 8);
	bnx_tmp_wipe(&w.tmp, n);
}

/*
 * Left to right over the public e's bits below its top one down to bit
 * @lo: a squaring of acc a bit and a product by base for each set one,
 * then @extra more squarings; each run of squarings one bnx_mont_sqrk
 * call (e = 65537 in exp_pub: 16 squarings in one).
 */
static void sqr_mul_bits(u64 *acc, const u64 *base, u64 e, int lo, unsigned int extra,
			 const struct bn_mont *mc, struct bnx_tmp *tmp)
{
	unsigned int run = 0;
	int i;

	for (i = 62 - __builtin_clzll(e); i >= lo; i--) {
		run++;
		if ((e >> i) & 1) {
			bnx_mont_sqrk(acc, acc, run, mc, tmp);
			bnx_mont_mul(acc, acc, base, mc, tmp);
			run = 0;
		}
	}
	run += extra;
	if (run)
		bnx_mont_sqrk(acc, acc, run, mc, tmp);
}

static void rsa_adx_exp_vt(u64 *r, const u64 *a, u64 e, const struct bn_mont *mc)
{
	unsigned int n = mc->n;
	u64 acc[BN_MAX_LIMBS], base[BN_MAX_LIMBS];
	struct bnx_tmp tmp;

	if (!bnx_fits(n)) {
		bn_mont_exp_vt(r, a, e, mc);
		return;
	}
	if (!e) {
		memcpy(r, mc->one, (size_t)n * 8);
		return;
	}
	/* a is secret (a blinding factor, a result being checked). */
	memcpy(base, a, (size_t)n * 8);
	memcpy(acc, a, (size_t)n * 8);
	sqr_mul_bits(acc, base, e, 0, 0, mc, &tmp);
	memcpy(r, acc, (size_t)n * 8);
	memzero_explicit(acc, (size_t)n * 8);
	memzero_explicit(base, (size_t)n * 8);
	bnx_tmp_wipe(&tmp, n);
}

static void rsa_adx_mont_mul(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mc);

/*
 * r = a^e mod m in the ordinary form (rsa.h: exp_pub): a R, then the
 * squarings and multiplications by a R over e's bits but the last; the
 * last bit's product is by a itself, a R a^(e-1) / R = a^e, out of the
 * Montgomery form with no product by 1.  e = 65537: one conversion, 16
 * squarings, one product (to_mont, exp_vt, from_mont: two products).
 */
static void rsa_adx_exp_pub(u64 *r, const u64 *a, u64 e, const struct bn_mont *mc)
{
	unsigned int n = mc->n;
	u64 acc[BN_MAX_LIMBS], base[BN_MAX_LIMBS], x[BN_MAX_LIMBS], one[BN_MAX_LIMBS];
	struct bnx_tmp tmp;

	memset(one, 0, (size_t)n * 8);
	one[0] = 1;
	memcpy(x, a, (size_t)n * 8);		/* r may alias a */
	if (!bnx_fits(n) || e < 2) {
		/* e = 0 or 1 (no RSA key's), or a size the kernels do not take. */
		rsa_adx_mont_mul(acc, x, mc->rr, mc);
		rsa_adx_exp_vt(acc, acc, e, mc);
		rsa_adx_mont_mul(r, acc, one, mc);
	} else {
		/* a is secret in the fault check (the signature being checked). */
		bnx_mont_mul(base, x, mc->rr, mc, &tmp);
		memcpy(acc, base, (size_t)n * 8);
		/* the bits above bit 0, bit 0's squaring in the last run */
		sqr_mul_bits(acc, base, e, 1, 1, mc, &tmp);
		bnx_mont_mul(r, acc, (e & 1) ? x : one, mc, &tmp);
	}
	memzero_explicit(acc, (size_t)n * 8);
	memzero_explicit(base, (size_t)n * 8);
	memzero_explicit(x, (size_t)n * 8);
	bnx_tmp_wipe(&tmp, n);
}

/* One product for the shared code (rsa.h: mont_mul), its scratch wiped. */
static void rsa_adx_mont_mul(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mc)
{
	u64 t[2 * BN_MAX_LIMBS + 1];

	if (!bnx_fits(mc->n)) {
		bn_mont_mul(r, a, b, mc);
		return;
	}
	if (mc->n % 8) {
		bnx_mul_adx(r, a, b, mc->m, mc->m0inv, mc->n, t);
		memzero_explicit(t, (size_t)(mc->n + 2) * 8);
	} else if (a == b) {
		/*
		 * A square (the blinding pair's per-use squarings; the pointers
		 * are public, and a = b < m here): the squaring kernel, ~0.8 of
		 * a product's time at 32 limbs.
		 */
		bnx_sqr_fn *f = bnx_sqr_fixed(mc->n);

		(f ? f : bnx_sqr_adx)(r, a, mc->m, mc->m0inv, mc->n, t);
		memzero_explicit(t, (size_t)(2 * mc->n + 1) * 8);
	} else {
		bnx_mul_fn *f = bnx_mul_fixed(mc->n);	/* the unrolled one where there is one */

		(f ? f : bnx_mulr_adx)(r, a, b, mc->m, mc->m0inv, mc->n, t);
		memzero_explicit(t, (size_t)(2 * mc->n + 1) * 8);
	}
}

const struct rsa_engine rsa_engine_adx = {
	.name = "adx",
	.exp_ct = rsa_adx_exp_ct,
	.exp_vt = rsa_adx_exp_vt,
	.mont_mul = rsa_adx_mont_mul,
	.exp_pub = rsa_adx_exp_pub,
};

static struct rsa_engine_drivers rsa_adx_drivers;

static int rsa_adx_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_BMI2) || !rind_cpu_has(RIND_X86_ADX))
		return 0;
	have_avx2 = rind_cpu_has(RIND_X86_AVX2);
	return rsa_register_engine(&rsa_adx_drivers, &rsa_engine_adx, 300, "x86");
}

module_init(rsa_adx_mod_init);
