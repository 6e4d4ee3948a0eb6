// SPDX-License-Identifier: MIT
/*
 * Ed25519 (RFC 8032) with AVX-512 IFMA: the "ed25519-avx512ifma" sig.
 * Requires: AVX512F, AVX512VL, AVX512IFMA (the point arithmetic), BMI2 and
 * ADX (decoding, encoding and the final inversion, in fe25519-mulx.h).
 *
 * A point is one fe4 (fe25519-ifma.h) with its extended coordinates
 * (X, Y, Z, T) in the four lanes, and each formula of Hisil, Wong, Carter
 * and Dawson runs as two four-way multiplications:
 *   addition of an affine (y - x, y + x, 2dxy) (a table entry, stored as
 *   the lanes (y - x, y + x, 2dxy, 2)):
 *     (A, B, C, D) = (Y - X, Y + X, T, Z) * (y - x, y + x, 2dxy, 2)
 *     (E, H, F, G) = (B - A, B + A, D - C, D + C)
 *     (X', Y', Z', T') = (E, G, F, E) * (F, H, G, H)
 *   doubling:
 *     (A, B, C, S) = (X, Y, Z, X + Y)^2
 *     (E, H, F, G) = (S - A - B, -A - B, B - A - 2C, B - A)
 *     then the same second multiplication.
 *
 * Signing and key generation ([k]B, k secret) use the comb of
 * api/include/crypto/ed25519-impl.h: 64 signed radix-16 digits, each term read from a
 * row of eight multiples of 256^m B by masked blends over all eight
 * entries (the sign applied by a masked negation); the odd and the even
 * digits accumulate in two independent chains that run side by side in
 * the two halves of 512-bit vectors, joined at the end.  No branch or
 * address depends on the scalar.
 *
 * Verification ([s]B - [k]A, public) is the joint sliding-window
 * double-and-add of ed25519-impl.h with the same tables (64 odd multiples
 * of B, 16 odd multiples of A per public key) in lane form.
 *
 * Hashing, scalars modulo L, the verification policy and the key formats
 * are the generic driver's (algs/ed25519.c).
 */
#include <pthread.h>
#include <string.h>
#include <rind/internal/sig.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/ed25519.h>
#include <crypto/curve25519.h>
#include "ed25519-x86.h"
#include "fe25519-mulx.h"
#include <crypto/ed25519-impl.h>
#include "fe25519-ifma.h"

/* ---- tables in lane form ------------------------------------------------- */

struct ifma_tables {
	fe4 base[ED_BASE_ROWS][ED_BASE_COLS];
	fe4 bodd[ED_BODD];
};

static struct ifma_tables ifma_tab __attribute__((aligned(64)));
static pthread_once_t ifma_tab_once = PTHREAD_ONCE_INIT;

struct ifma_pre {
	fe4 aodd[ED_AODD];
};

_Static_assert(sizeof(struct ifma_pre) <= ED25519_PRE_BYTES, "ed25519 precomputation too large");

static void fe_to51(u64 h[5], const fe *f)
{
	u8 s[32];

	fe_tobytes(s, f);
	fe51_from_bytes(h, s);
}

/* (y - x, y + x, 2dxy, 2) of an affine point given as ge_precomp. */
IFMA_TARGET
static fe4 precomp_to_lanes(const ge_precomp *q)
{
	u64 ymx[5], ypx[5], xy2d[5], two[5] = { 2 };

	fe_to51(ymx, &q->ymx);
	fe_to51(ypx, &q->ypx);
	fe_to51(xy2d, &q->xy2d);
	return fe4_set(ymx, ypx, xy2d, two);
}

IFMA_TARGET
static void ifma_tables_init(void)
{
	int m, j;

	ed_tables();
	for (m = 0; m < ED_BASE_ROWS; m++)
		for (j = 0; j < ED_BASE_COLS; j++)
			ifma_tab.base[m][j] = precomp_to_lanes(&ed_tab.base[m][j]);
	for (j = 0; j < ED_BODD; j++)
		ifma_tab.bodd[j] = precomp_to_lanes(&ed_tab.bodd[j]);
}

static inline void ifma_tables(void)
{
	pthread_once(&ifma_tab_once, ifma_tables_init);
}

/* ---- point formulas ------------------------------------------------------ */

/* (X, Y, Z, T) = (0, 1, 1, 0) */
IFMA_INLINE fe4 ge4_identity(void)
{
	u64 zero[5] = { 0 }, one[5] = { 1 };

	return fe4_set(zero, one, one, zero);
}

/* The entry of the identity: (1, 1, 0, 2). */
IFMA_INLINE fe4 ge4_identity_entry(void)
{
	u64 zero[5] = { 0 }, one[5] = { 1 }, two[5] = { 2 };

	return fe4_set(one, one, zero, two);
}

/* The entry of -Q from that of Q: swap y - x and y + x, negate 2dxy. */
IFMA_INLINE fe4 ge4_entry_neg(fe4 q)
{
	return fe4_neg_lanes_2p(fe4_permute(q, _MM_SHUFFLE(3, 2, 0, 1)), 0x4);
}

/* From (A, B, C, D) (wide) to the result (E F, G H, F G, E H) (wide). */
IFMA_INLINE fe4 ge4_finish(fe4 w)
{
	/* (E, H, F, G) = (B - A, B + A, D - C, D + C) */
	fe4 v = fe4_carry(fe4_add(fe4_swap_pairs(w), fe4_neg_lanes_wide(w, 0x5)));

	return fe4_mul_wide(fe4_permute(v, _MM_SHUFFLE(0, 2, 3, 0)),	/* (E, G, F, E) */
			    fe4_permute(v, _MM_SHUFFLE(1, 3, 1, 2)));	/* (F, H, G, H) */
}

/* p + q for a table entry q; p may be wide, so is the result. */
IFMA_INLINE fe4 ge4_madd(fe4 p, fe4 q)
{
	/* (Y - X, Y + X, T, Z) = (Y, X, T, Z) + (-X, Y, 0, 0) */
	fe4 m = fe4_blend(fe4_neg_lanes_wide(p, 0x1), fe4_zero(), 0xc);
	fe4 l = fe4_carry(fe4_add(fe4_swap_pairs(p), m));

	return ge4_finish(fe4_mul_wide(l, q));
}

/* 2p; p may be wide, so is the result. */
IFMA_INLINE fe4 ge4_dbl(fe4 p)
{
	/* (X, Y, Z, X + Y) */
	fe4 q = fe4_carry(fe4_add(fe4_permute(p, _MM_SHUFFLE(0, 2, 1, 0)),
				  fe4_blend(fe4_zero(), fe4_permute(p, _MM_SHUFFLE(1, 1, 1, 1)), 0x8)));
	fe4 w = fe4_sq_wide(q);			/* (A, B, C, S) */
	fe4 a = fe4_permute(w, _MM_SHUFFLE(0, 0, 0, 0));
	fe4 b = fe4_permute(w, _MM_SHUFFLE(1, 1, 1, 1));
	fe4 c = fe4_permute(w, _MM_SHUFFLE(2, 2, 2, 2));
	/* n = (A + B, A + B, A + 2C, A): what is subtracted from (S, 0, B, B) */
	fe4 n = fe4_add(fe4_add(a, fe4_blend(fe4_zero(), b, 0x3)),
			fe4_blend(fe4_zero(), fe4_add(c, c), 0x4));
	fe4 u = fe4_blend(fe4_permute(w, _MM_SHUFFLE(1, 1, 0, 3)), fe4_zero(), 0x2);
	/* (E, H, F, G) = (S - A - B, -A - B, B - A - 2C, B - A) */
	fe4 v = fe4_carry(fe4_add(u, fe4_neg_huge(n)));

	return fe4_mul_wide(fe4_permute(v, _MM_SHUFFLE(0, 2, 3, 0)),
			    fe4_permute(v, _MM_SHUFFLE(1, 3, 1, 2)));
}

/* p + q for two points in extended coordinates (both may be wide). */
IFMA_INLINE fe4 ge4_add(fe4 p, fe4 q)
{
	u64 one[5] = { 1 }, two[5] = { 2 }, d2[5];
	fe4 k, r;

	fe_to51(d2, &ed_tab.d2);
	k = fe4_set(one, one, d2, two);
	/* q's entry (Y - X, Y + X, 2dT, 2Z) */
	r = fe4_carry(fe4_add(fe4_swap_pairs(q), fe4_blend(fe4_neg_lanes_wide(q, 0x1), fe4_zero(), 0xc)));
	r = fe4_mul(r, k);
	return ge4_madd(p, r);
}

/* The 51-bit limbs of lanes X, Y, Z to mulx field elements. */
IFMA_TARGET
static void ge4_to_xyz(fe *x, fe *y, fe *z, fe4 p)
{
	u64 h[5];

	fe4_lane_get(h, p, 0);
	fe51_to_u64(x->v, h);
	fe4_lane_get(h, p, 1);
	fe51_to_u64(y->v, h);
	fe4_lane_get(h, p, 2);
	fe51_to_u64(z->v, h);
	memzero_explicit(h, sizeof(h));
}

/* ---- constant-time fixed-base multiplication ------------------------------ */

/*
 * The comb runs its two chains (odd and even digits) side by side in the
 * two halves of 512-bit vectors (fe8): the same formulas as above, on two
 * points at once.
 */
IFMA_INLINE fe8 ge8_madd(fe8 p, fe8 q)
{
	fe8 m = fe8_blend(fe8_neg_lanes_wide(p, 0x1), fe8_zero(), 0xc);
	fe8 l = fe8_carry(fe8_add(fe8_swap_pairs(p), m));
	fe8 w = fe8_mul_wide(l, q);
	fe8 v = fe8_carry(fe8_add(fe8_swap_pairs(w), fe8_neg_lanes_wide(w, 0x5)));

	return fe8_mul_wide(fe8_permute(v, _MM_SHUFFLE(0, 2, 3, 0)),
			    fe8_permute(v, _MM_SHUFFLE(1, 3, 1, 2)));
}

/* Lanes of b where bit j of the 8-bit mask is set (no repetition). */
IFMA_INLINE fe8 fe8_blend8(fe8 a, fe8 b, __mmask8 m)
{
	return (fe8){ _mm512_mask_blend_epi64(m, a.l0, b.l0), _mm512_mask_blend_epi64(m, a.l1, b.l1),
		      _mm512_mask_blend_epi64(m, a.l2, b.l2), _mm512_mask_blend_epi64(m, a.l3, b.l3),
		      _mm512_mask_blend_epi64(m, a.l4, b.l4) };
}

IFMA_INLINE fe8 fe8_broadcast(const fe4 *e)
{
	return (fe8){ _mm512_broadcast_i64x4(e->l0), _mm512_broadcast_i64x4(e->l1),
		      _mm512_broadcast_i64x4(e->l2), _mm512_broadcast_i64x4(e->l3),
		      _mm512_broadcast_i64x4(e->l4) };
}

/* |b| and the sign of a digit b in [-8, 8], without branches. */
static inline u64 digit_abs(s8 b, u64 *neg)
{
	*neg = (u64)(u8)b >> 7;
	return (u64)(u8)(b - (s8)((0 - (u8)*neg) & ((u8)b << 1)));
}

/*
 * Row m's entries for two digits at once: lanes 0..3 get b_lo * 256^m * B,
 * lanes 4..7 get b_hi * 256^m * B.  All eight entries are read; the
 * digits only shape the blend masks.
 */
IFMA_INLINE fe8 ifma_select2(int m, s8 b_lo, s8 b_hi)
{
	u64 neg_lo, neg_hi;
	u64 abs_lo = digit_abs(b_lo, &neg_lo), abs_hi = digit_abs(b_hi, &neg_hi);
	fe8 t = fe8_join(ge4_identity_entry(), ge4_identity_entry());
	fe8 tn;
	int j;

	for (j = 0; j < ED_BASE_COLS; j++) {
		u64 sel = ((0 - ct_eq(abs_lo, (u64)j + 1)) & 0x0f) | ((0 - ct_eq(abs_hi, (u64)j + 1)) & 0xf0);

		t = fe8_blend8(t, fe8_broadcast(&ifma_tab.base[m][j]), (__mmask8)sel);
	}
	/* the negative: swap y - x and y + x, negate 2dxy */
	tn = fe8_neg_lanes_2p(fe8_permute(t, _MM_SHUFFLE(3, 2, 0, 1)), 0x4);
	return fe8_blend8(t, tn, (__mmask8)(((0 - neg_lo) & 0x0f) | ((0 - neg_hi) & 0xf0)));
}

/* The 64 signed radix-16 digits of a 32-byte k < 2^255: e_i in [-8, 8]. */
static void ifma_digits(s8 e[64], const u8 k[32])
{
	s8 carry = 0;
	int i;

	for (i = 0; i < 32; i++) {
		e[2 * i] = (s8)(k[i] & 15);
		e[2 * i + 1] = (s8)(k[i] >> 4);
	}
	for (i = 0; i < 63; i++) {
		e[i] = (s8)(e[i] + carry);
		carry = (s8)((e[i] + 8) >> 4);
		e[i] = (s8)(e[i] - (carry << 4));
	}
	e[63] = (s8)(e[63] + carry);
}

/*
 * From the two comb sums (odd digits low, even digits high) to the point.
 * Once per multiplication (against 32 comb additions), so out of line:
 * inlined at its three callers it tripled the largest part of the object
 * (four doublings and an addition) and of its compile time, to save one
 * call.
 */
IFMA_TARGET __attribute__((noinline))
static void ifma_comb_finish(fe4 *r, const fe8 *acc)
{
	fe4 odd = fe8_low(*acc), even = fe8_high(*acc);
	int i;

	/* A loop: three predictable branches more, a quarter of the code. */
	for (i = 0; i < 4; i++)
		odd = ge4_dbl(odd);
	*r = ge4_add(odd, even);
}

/* [k]B for a 32-byte little-endian k < 2^255, constant time. */
IFMA_TARGET
static fe4 ifma_scalarmult_base(const u8 k[32])
{
	s8 e[64];
	fe4 r;
	fe8 acc;
	int i;

	ifma_digits(e, k);
	/*
	 * Low half: sum over odd i of e_i 16^(i-1) B; high half: sum over
	 * even i of e_i 16^i B.
	 */
	acc = fe8_join(ge4_identity(), ge4_identity());
	for (i = 0; i < 32; i++)
		acc = ge8_madd(acc, ifma_select2(i, e[2 * i + 1], e[2 * i]));
	ifma_comb_finish(&r, &acc);
	memzero_explicit(e, sizeof(e));
	memzero_explicit(&acc, sizeof(acc));
	return r;
}

/* Two at once, their chains interleaved (batches: the processor overlaps them). */
IFMA_TARGET
static void ifma_scalarmult_base2(fe4 *r1, fe4 *r2, const u8 k1[32], const u8 k2[32])
{
	s8 e1[64], e2[64];
	fe8 acc1, acc2;
	int i;

	ifma_digits(e1, k1);
	ifma_digits(e2, k2);
	acc1 = fe8_join(ge4_identity(), ge4_identity());
	acc2 = acc1;
	for (i = 0; i < 32; i++) {
		acc1 = ge8_madd(acc1, ifma_select2(i, e1[2 * i + 1], e1[2 * i]));
		acc2 = ge8_madd(acc2, ifma_select2(i, e2[2 * i + 1], e2[2 * i]));
	}
	ifma_comb_finish(r1, &acc1);
	ifma_comb_finish(r2, &acc2);
	memzero_explicit(e1, sizeof(e1));
	memzero_explicit(e2, sizeof(e2));
	memzero_explicit(&acc1, sizeof(acc1));
	memzero_explicit(&acc2, sizeof(acc2));
}

IFMA_TARGET
static void ifma_base_mul(u8 out[32], const u8 k[32])
{
	fe4 p;
	fe x, y, z;

	ifma_tables();
	p = ifma_scalarmult_base(k);
	ge4_to_xyz(&x, &y, &z, p);
	ge_tobytes(out, &x, &y, &z);
	memzero_explicit(&p, sizeof(p));
	memzero_explicit(&x, sizeof(x));
	memzero_explicit(&y, sizeof(y));
	memzero_explicit(&z, sizeof(z));
}

/* Many at once: the points encoded with one shared inversion per ED_BATCH. */
IFMA_TARGET
static void ifma_base_mul_batch(u8 (*out)[32], const u8 (*k)[32], unsigned int n)
{
	fe X[ED_BATCH], Y[ED_BATCH], Z[ED_BATCH];
	unsigned int i, m;
	fe4 p;

	ifma_tables();
	while (n) {
		m = n < ED_BATCH ? n : ED_BATCH;
		for (i = 0; i + 1 < m; i += 2) {
			fe4 p2;

			ifma_scalarmult_base2(&p, &p2, k[i], k[i + 1]);
			ge4_to_xyz(&X[i], &Y[i], &Z[i], p);
			ge4_to_xyz(&X[i + 1], &Y[i + 1], &Z[i + 1], p2);
			memzero_explicit(&p2, sizeof(p2));
		}
		if (i < m) {
			p = ifma_scalarmult_base(k[i]);
			ge4_to_xyz(&X[i], &Y[i], &Z[i], p);
		}
		ge_batch_tobytes(out, X, Y, Z, m);
		out += m;
		k += m;
		n -= m;
	}
	memzero_explicit(&p, sizeof(p));
	memzero_explicit(X, sizeof(X));
	memzero_explicit(Y, sizeof(Y));
	memzero_explicit(Z, sizeof(Z));
}

/* X25519(k, 9) = u([k]B), u = (Z + Y) / (Z - Y). */
IFMA_TARGET
static void ifma_base_mul_mont(u8 out[32], const u8 k[32])
{
	u8 kc[32];
	fe4 p;
	fe x, y, z, n, d;

	memcpy(kc, k, 32);
	curve25519_clamp_secret(kc);
	ifma_tables();
	p = ifma_scalarmult_base(kc);
	ge4_to_xyz(&x, &y, &z, p);
	fe_add(&n, &z, &y);
	fe_sub(&d, &z, &y);
	fe_invert(&d, &d);
	fe_mul(&n, &n, &d);
	fe_tobytes(out, &n);
	memzero_explicit(kc, sizeof(kc));
	memzero_explicit(&p, sizeof(p));
	memzero_explicit(&x, sizeof(x));
	memzero_explicit(&y, sizeof(y));
	memzero_explicit(&z, sizeof(z));
	memzero_explicit(&n, sizeof(n));
}

void curve25519_base_ifma(u8 out[CURVE25519_KEY_SIZE], const u8 scalar[CURVE25519_KEY_SIZE])
{
	ifma_base_mul_mont(out, scalar);
}

/* ---- verification (public inputs, variable time) ------------------------- */

IFMA_TARGET
static int ifma_prepare(struct ed25519_pre *opaque, const u8 pub[32])
{
	struct ifma_pre *pre = (struct ifma_pre *)opaque;
	ge_precomp aodd[ED_AODD];
	ge_p3 a;
	int err, j;

	ifma_tables();
	err = ge_frombytes(&a, pub);
	if (err)
		return err;
	ge_odd_multiples(aodd, &a, ED_AODD);
	for (j = 0; j < ED_AODD; j++)
		pre->aodd[j] = precomp_to_lanes(&aodd[j]);
	return 0;
}

IFMA_TARGET
static void ifma_double_mul(u8 out[32], const struct ed25519_pre *opaque, const u8 s[32],
			    const u8 h[32])
{
	const struct ifma_pre *pre = (const struct ifma_pre *)opaque;
	s8 sd[256], hd[256];
	fe x, y, z;
	fe4 p;
	int i;

	ed_slide(sd, s, ED_BW);
	ed_slide(hd, h, ED_AW);
	for (i = 255; i >= 0 && !sd[i] && !hd[i]; i--)
		;
	p = ge4_identity();
	/*
	 * One addition per digit, its entry negated by sign first: two
	 * inlined additions rather than four (digits are public).
	 */
	for (; i >= 0; i--) {
		p = ge4_dbl(p);
		/* -[h]A: the digits of h are subtracted. */
		if (hd[i]) {
			fe4 e = hd[i] > 0 ? ge4_entry_neg(pre->aodd[hd[i] / 2]) :
					    pre->aodd[-hd[i] / 2];

			p = ge4_madd(p, e);
		}
		if (sd[i]) {
			fe4 e = sd[i] > 0 ? ifma_tab.bodd[sd[i] / 2] :
					    ge4_entry_neg(ifma_tab.bodd[-sd[i] / 2]);

			p = ge4_madd(p, e);
		}
	}
	ge4_to_xyz(&x, &y, &z, p);
	ge_tobytes(out, &x, &y, &z);
}

/* ---- registration -------------------------------------------------------- */

static struct ed25519_driver ed25519_ifma_drv = {
	.base_mul = ifma_base_mul,
	.base_mul_batch = ifma_base_mul_batch,
	.base_mul_mont = ifma_base_mul_mont,
	.prepare = ifma_prepare,
	.double_mul = ifma_double_mul,
	.alg = ED25519_SIG_ALG("ed25519-avx512ifma", 400, "x86"),
};

static int ed25519_ifma_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_AVX512F) || !rind_cpu_has(RIND_X86_AVX512VL) ||
	    !rind_cpu_has(RIND_X86_AVX512IFMA) || !rind_cpu_has(RIND_X86_BMI2) ||
	    !rind_cpu_has(RIND_X86_ADX))
		return 0;
	crypto_register_test(&ed25519_test_desc);
	return crypto_register_sig(&ed25519_ifma_drv.alg);
}

module_init(ed25519_ifma_mod_init);
