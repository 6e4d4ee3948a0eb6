/* SPDX-License-Identifier: MIT */
/*
 * The edwards25519 group, written once over a field implementation: the
 * file that includes this has already included one that provides `fe`
 * and the fe_* functions of api/include/crypto/fe25519.h (portable, radix 2^51) or
 * arch/x86/fe25519-mulx.h (radix 2^64, MULX/ADX).  Everything here is
 * static; each driver gets its own copy, with its own tables.
 *
 * Curve: -x^2 + y^2 = 1 + d x^2 y^2, d = -121665/121666 (RFC 8032 5.1).
 * Points are kept in extended coordinates (X : Y : Z : T), x = X/Z,
 * y = Y/Z, xy = T/Z, with the a = -1 formulas of Hisil, Wong, Carter and
 * Dawson ("Twisted Edwards curves revisited", 2008), which are complete
 * on this curve (d is not a square), so the identity and doubling need
 * no special case.  Intermediate forms:
 *   ge_p2      (X : Y : Z), enough to double
 *   ge_p1p1    the (E, F, G, H) of a formula, before its final products:
 *              X = EF, Y = GH, Z = FG, T = EH
 *   ge_cached  (Y + X, Y - X, Z, 2dT) of a point to be added
 *   ge_precomp (y + x, y - x, 2dxy) of an affine point (Z = 1)
 *
 * Fixed-base multiplication [k]B (signing, key generation) is constant
 * time: k is recoded into 64 signed radix-16 digits e_i in [-8, 8], and
 * [k]B = sum e_i 16^i B is computed as (sum over odd i) * 16 + (sum over
 * even i), where every term e_i 16^i B = e_i 256^(i/2) B is read from a
 * table of j * 256^m * B (j = 1..8, m = 0..31) by scanning all eight
 * entries of row m with masked moves and negating by masks: the digits
 * never become branches or addresses.
 *
 * Verification computes [s]B - [h]A with public s, h (variable time):
 * a joint sliding-window (signed odd digits) double-and-add with 64 odd
 * multiples of B (digits up to 127) and 16 odd multiples of A (up to 31),
 * all normalised to affine form so each addition is a mixed one.  The
 * multiples of A are computed once per public key (prepare).
 */
#ifndef _RIND_ALGS_ED25519_IMPL_H
#define _RIND_ALGS_ED25519_IMPL_H

#include <pthread.h>
#include <string.h>

/* A file may use only part of this (arch/x86/ed25519-ifma.c does). */
#define ED_FN static __attribute__((unused))

typedef struct { fe X, Y, Z; } ge_p2;
typedef struct { fe X, Y, Z, T; } ge_p3;
typedef struct { fe E, F, G, H; } ge_p1p1;
typedef struct { fe YpX, YmX, Z, T2d; } ge_cached;
typedef struct { fe ypx, ymx, xy2d; } ge_precomp;

/* Constants, little-endian (decoded once into field elements). */
static const u8 ed_d_bytes[32] = {
	0xa3, 0x78, 0x59, 0x13, 0xca, 0x4d, 0xeb, 0x75, 0xab, 0xd8, 0x41, 0x41, 0x4d, 0x0a, 0x70, 0x00,
	0x98, 0xe8, 0x79, 0x77, 0x79, 0x40, 0xc7, 0x8c, 0x73, 0xfe, 0x6f, 0x2b, 0xee, 0x6c, 0x03, 0x52,
};
static const u8 ed_d2_bytes[32] = {
	0x59, 0xf1, 0xb2, 0x26, 0x94, 0x9b, 0xd6, 0xeb, 0x56, 0xb1, 0x83, 0x82, 0x9a, 0x14, 0xe0, 0x00,
	0x30, 0xd1, 0xf3, 0xee, 0xf2, 0x80, 0x8e, 0x19, 0xe7, 0xfc, 0xdf, 0x56, 0xdc, 0xd9, 0x06, 0x24,
};
/* sqrt(-1) = 2^((p - 1) / 4) */
static const u8 ed_sqrtm1_bytes[32] = {
	0xb0, 0xa0, 0x0e, 0x4a, 0x27, 0x1b, 0xee, 0xc4, 0x78, 0xe4, 0x2f, 0xad, 0x06, 0x18, 0x43, 0x2f,
	0xa7, 0xd7, 0xfb, 0x3d, 0x99, 0x00, 0x4d, 0x2b, 0x0b, 0xdf, 0xc1, 0x4f, 0x80, 0x24, 0x83, 0x2b,
};
/* The base point B: y = 4/5, x positive (even). */
static const u8 ed_bx_bytes[32] = {
	0x1a, 0xd5, 0x25, 0x8f, 0x60, 0x2d, 0x56, 0xc9, 0xb2, 0xa7, 0x25, 0x95, 0x60, 0xc7, 0x2c, 0x69,
	0x5c, 0xdc, 0xd6, 0xfd, 0x31, 0xe2, 0xa4, 0xc0, 0xfe, 0x53, 0x6e, 0xcd, 0xd3, 0x36, 0x69, 0x21,
};
static const u8 ed_by_bytes[32] = {
	0x58, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
	0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
};

#define ED_BASE_ROWS	32	/* rows of the signing table: 256^m B */
#define ED_BASE_COLS	8	/* j = 1..8 */
#define ED_BW		8	/* window of B in verification: odd multiples < 2^(ED_BW-1) */
#define ED_AW		6	/* window of A */
#define ED_BODD		(1 << (ED_BW - 2))	/* 64 */
#define ED_AODD		(1 << (ED_AW - 2))	/* 16 */

struct ed_tables {
	fe d, d2, sqrtm1;
	ge_precomp base[ED_BASE_ROWS][ED_BASE_COLS];
	ge_precomp bodd[ED_BODD];
};

static struct ed_tables ed_tab __attribute__((aligned(64), unused));
static pthread_once_t ed_tab_once __attribute__((unused)) = PTHREAD_ONCE_INIT;

struct ed_pre {
	ge_precomp aodd[ED_AODD];
};

_Static_assert(sizeof(struct ed_pre) <= ED25519_PRE_BYTES, "ed25519 precomputation too large");

/* ---- point arithmetic ---------------------------------------------------- */

static inline void ge_p3_0(ge_p3 *h)
{
	fe_0(&h->X);
	fe_1(&h->Y);
	fe_1(&h->Z);
	fe_0(&h->T);
}

static inline void ge_p2_0(ge_p2 *h)
{
	fe_0(&h->X);
	fe_1(&h->Y);
	fe_1(&h->Z);
}

static inline void ge_precomp_0(ge_precomp *h)
{
	fe_1(&h->ypx);
	fe_1(&h->ymx);
	fe_0(&h->xy2d);
}

static inline void ge_p1p1_to_p2(ge_p2 *r, const ge_p1p1 *p)
{
	fe_mul(&r->X, &p->E, &p->F);
	fe_mul(&r->Y, &p->G, &p->H);
	fe_mul(&r->Z, &p->F, &p->G);
}

static inline void ge_p1p1_to_p3(ge_p3 *r, const ge_p1p1 *p)
{
	fe_mul(&r->X, &p->E, &p->F);
	fe_mul(&r->Y, &p->G, &p->H);
	fe_mul(&r->Z, &p->F, &p->G);
	fe_mul(&r->T, &p->E, &p->H);
}

static inline void ge_p3_to_p2(ge_p2 *r, const ge_p3 *p)
{
	r->X = p->X;
	r->Y = p->Y;
	r->Z = p->Z;
}

static inline void ge_p3_to_cached(ge_cached *r, const ge_p3 *p)
{
	fe_add(&r->YpX, &p->Y, &p->X);
	fe_sub(&r->YmX, &p->Y, &p->X);
	r->Z = p->Z;
	fe_mul(&r->T2d, &p->T, &ed_tab.d2);
}

/* 2P from (X : Y : Z) */
static inline void ge_p2_dbl(ge_p1p1 *r, const ge_p2 *p)
{
	fe a, b, c, t;

	fe_sq(&a, &p->X);
	fe_sq(&b, &p->Y);
	fe_sq(&c, &p->Z);
	fe_add(&c, &c, &c);
	fe_add(&t, &p->X, &p->Y);
	fe_sq(&t, &t);
	fe_add(&r->H, &a, &b);		/* H = -(A + B), kept negated: */
	fe_sub(&r->E, &r->H, &t);	/* E' = A + B - (X + Y)^2 = -E */
	fe_sub(&r->G, &a, &b);		/* G' = A - B = -G */
	fe_add(&r->F, &r->G, &c);	/* F' = G' + C = -F */
	/*
	 * (E', F', G', H') = (-E, -F, -G, A + B = -H): the products EF, GH,
	 * FG and EH are unchanged by negating all four.
	 */
}

static inline void ge_p3_dbl(ge_p1p1 *r, const ge_p3 *p)
{
	ge_p2 q;

	ge_p3_to_p2(&q, p);
	ge_p2_dbl(r, &q);
}

/* p + q for cached q */
static inline void ge_add(ge_p1p1 *r, const ge_p3 *p, const ge_cached *q)
{
	fe a, b, c, d;

	fe_sub(&a, &p->Y, &p->X);
	fe_mul(&a, &a, &q->YmX);
	fe_add(&b, &p->Y, &p->X);
	fe_mul(&b, &b, &q->YpX);
	fe_mul(&c, &p->T, &q->T2d);
	fe_mul(&d, &p->Z, &q->Z);
	fe_add(&d, &d, &d);
	fe_sub(&r->E, &b, &a);
	fe_sub(&r->F, &d, &c);
	fe_add(&r->G, &d, &c);
	fe_add(&r->H, &b, &a);
}

/* p + q for affine q */
static inline void ge_madd(ge_p1p1 *r, const ge_p3 *p, const ge_precomp *q)
{
	fe a, b, c, d;

	fe_sub(&a, &p->Y, &p->X);
	fe_mul(&a, &a, &q->ymx);
	fe_add(&b, &p->Y, &p->X);
	fe_mul(&b, &b, &q->ypx);
	fe_mul(&c, &p->T, &q->xy2d);
	fe_add(&d, &p->Z, &p->Z);
	fe_sub(&r->E, &b, &a);
	fe_sub(&r->F, &d, &c);
	fe_add(&r->G, &d, &c);
	fe_add(&r->H, &b, &a);
}

/* p - q for affine q: -(x, y) = (-x, y) swaps y+x and y-x, negates xy. */
static inline void ge_msub(ge_p1p1 *r, const ge_p3 *p, const ge_precomp *q)
{
	fe a, b, c, d;

	fe_sub(&a, &p->Y, &p->X);
	fe_mul(&a, &a, &q->ypx);
	fe_add(&b, &p->Y, &p->X);
	fe_mul(&b, &b, &q->ymx);
	fe_mul(&c, &p->T, &q->xy2d);
	fe_add(&d, &p->Z, &p->Z);
	fe_sub(&r->E, &b, &a);
	fe_add(&r->F, &d, &c);
	fe_sub(&r->G, &d, &c);
	fe_add(&r->H, &b, &a);
}

ED_FN void ge_tobytes(u8 s[32], const fe *X, const fe *Y, const fe *Z)
{
	fe recip, x, y;

	fe_invert(&recip, Z);
	fe_mul(&x, X, &recip);
	fe_mul(&y, Y, &recip);
	fe_tobytes(s, &y);
	s[31] ^= (u8)(fe_isnegative(&x) << 7);
}

/*
 * Strict decoding (RFC 8032 5.1.3): y must be canonical (< p), x is the
 * square root of (y^2 - 1) / (d y^2 + 1) if there is one, and x = 0 with
 * the sign bit set is refused.  Public data: the branches are fine.
 */
ED_FN int ge_frombytes(ge_p3 *h, const u8 s[32])
{
	static const u8 p_bytes[32] = {
		0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
	};
	fe u, v, v3, vxx, check, one;
	int sign = s[31] >> 7, i;

	/* y < p: compare the 255-bit value from the top byte down. */
	for (i = 31; i >= 0; i--) {
		u8 b = i == 31 ? (s[31] & 0x7f) : s[i];

		if (b < p_bytes[i])
			break;
		if (b > p_bytes[i] || i == 0)
			return -EKEYREJECTED;
	}
	fe_frombytes(&h->Y, s);
	fe_1(&h->Z);
	fe_1(&one);
	fe_sq(&u, &h->Y);
	fe_mul(&v, &u, &ed_tab.d);
	fe_sub(&u, &u, &one);		/* u = y^2 - 1 */
	fe_add(&v, &v, &one);		/* v = d y^2 + 1 */
	fe_sq(&v3, &v);
	fe_mul(&v3, &v3, &v);		/* v^3 */
	fe_sq(&h->X, &v3);
	fe_mul(&h->X, &h->X, &v);
	fe_mul(&h->X, &h->X, &u);	/* u v^7 */
	fe_pow22523(&h->X, &h->X);	/* (u v^7)^((p - 5) / 8) */
	fe_mul(&h->X, &h->X, &v3);
	fe_mul(&h->X, &h->X, &u);	/* x = u v^3 (u v^7)^((p - 5) / 8) */
	fe_sq(&vxx, &h->X);
	fe_mul(&vxx, &vxx, &v);
	fe_sub(&check, &vxx, &u);
	if (!fe_iszero(&check)) {
		fe_add(&check, &vxx, &u);
		if (!fe_iszero(&check))
			return -EKEYREJECTED;	/* not a square: no such point */
		fe_mul(&h->X, &h->X, &ed_tab.sqrtm1);
	}
	if (fe_iszero(&h->X) && sign)
		return -EKEYREJECTED;
	if (fe_isnegative(&h->X) != sign)
		fe_neg(&h->X, &h->X);
	fe_mul(&h->T, &h->X, &h->Y);
	return 0;
}

/*
 * Affine (y + x, y - x, 2dxy) of n points with one inversion (Montgomery's
 * trick); @scratch holds n field elements.
 */
ED_FN void ge_batch_to_precomp(ge_precomp *out, const ge_p3 *in, int n, fe *scratch)
{
	fe acc, inv, zinv, x, y;
	int i;

	fe_1(&acc);
	for (i = 0; i < n; i++) {
		scratch[i] = acc;
		fe_mul(&acc, &acc, &in[i].Z);
	}
	fe_invert(&inv, &acc);
	for (i = n - 1; i >= 0; i--) {
		fe_mul(&zinv, &inv, &scratch[i]);
		fe_mul(&inv, &inv, &in[i].Z);
		fe_mul(&x, &in[i].X, &zinv);
		fe_mul(&y, &in[i].Y, &zinv);
		fe_add(&out[i].ypx, &y, &x);
		fe_sub(&out[i].ymx, &y, &x);
		fe_mul(&out[i].xy2d, &x, &y);
		fe_mul(&out[i].xy2d, &out[i].xy2d, &ed_tab.d2);
	}
}

/* The odd multiples P, 3P, ..., (2n - 1)P in affine form. */
ED_FN void ge_odd_multiples(ge_precomp *out, const ge_p3 *p, int n)
{
	ge_p3 pts[ED_BODD];
	fe scratch[ED_BODD];
	ge_cached p2c;
	ge_p1p1 t;
	ge_p3 p2;
	int i;

	pts[0] = *p;
	ge_p3_dbl(&t, p);
	ge_p1p1_to_p3(&p2, &t);
	ge_p3_to_cached(&p2c, &p2);
	for (i = 1; i < n; i++) {
		ge_add(&t, &pts[i - 1], &p2c);
		ge_p1p1_to_p3(&pts[i], &t);
	}
	ge_batch_to_precomp(out, pts, n, scratch);
}

/* Once per process: compiled for size. */
ED_FN __attribute__((cold)) void ed_tables_init(void)
{
	ge_p3 row[ED_BASE_COLS], b, p;
	fe scratch[ED_BASE_COLS];
	ge_cached pc;
	ge_p1p1 t;
	int m, j, k;

	fe_frombytes(&ed_tab.d, ed_d_bytes);
	fe_frombytes(&ed_tab.d2, ed_d2_bytes);
	fe_frombytes(&ed_tab.sqrtm1, ed_sqrtm1_bytes);
	fe_frombytes(&b.X, ed_bx_bytes);
	fe_frombytes(&b.Y, ed_by_bytes);
	fe_1(&b.Z);
	fe_mul(&b.T, &b.X, &b.Y);

	ge_odd_multiples(ed_tab.bodd, &b, ED_BODD);

	p = b;				/* 256^m B */
	for (m = 0; m < ED_BASE_ROWS; m++) {
		row[0] = p;
		ge_p3_to_cached(&pc, &p);
		for (j = 1; j < ED_BASE_COLS; j++) {
			ge_add(&t, &row[j - 1], &pc);
			ge_p1p1_to_p3(&row[j], &t);
		}
		ge_batch_to_precomp(ed_tab.base[m], row, ED_BASE_COLS, scratch);
		/* 256 P = 32 * (8 P) */
		p = row[ED_BASE_COLS - 1];
		for (k = 0; k < 5; k++) {
			ge_p3_dbl(&t, &p);
			ge_p1p1_to_p3(&p, &t);
		}
	}
}

static inline void ed_tables(void)
{
	pthread_once(&ed_tab_once, ed_tables_init);
}

/* ---- constant-time fixed-base multiplication ------------------------------ */

static inline void ge_precomp_cmov(ge_precomp *t, const ge_precomp *u, u64 b)
{
	fe_cmov(&t->ypx, &u->ypx, b);
	fe_cmov(&t->ymx, &u->ymx, b);
	fe_cmov(&t->xy2d, &u->xy2d, b);
}

/* 1 if a == b (both below 2^63), without branching. */
static inline u64 ct_eq(u64 a, u64 b)
{
	return ((a ^ b) - 1) >> 63;
}

/* t = b * 256^m * B for a digit b in [-8, 8]: every entry is read. */
static inline void ed_select(ge_precomp *t, int m, s8 b)
{
	u64 neg = (u64)(u8)b >> 7;
	u64 babs = (u64)(u8)(b - (s8)((0 - (u8)neg) & ((u8)b << 1)));
	ge_precomp minus;
	int j;

	ge_precomp_0(t);
	for (j = 0; j < ED_BASE_COLS; j++)
		ge_precomp_cmov(t, &ed_tab.base[m][j], ct_eq(babs, (u64)j + 1));
	minus.ypx = t->ymx;
	minus.ymx = t->ypx;
	fe_neg(&minus.xy2d, &t->xy2d);
	ge_precomp_cmov(t, &minus, neg);
}

/* h = [k]B for a 32-byte little-endian k < 2^255 (constant time). */
ED_FN void ge_scalarmult_base(ge_p3 *h, const u8 k[32])
{
	s8 e[64];
	s8 carry = 0;
	ge_precomp t;
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

	ge_p3_0(h);
	for (i = 1; i < 64; i += 2) {
		ed_select(&t, i / 2, e[i]);
		ge_madd(&r, h, &t);
		ge_p1p1_to_p3(h, &r);
	}
	ge_p3_dbl(&r, h);
	ge_p1p1_to_p2(&s, &r);
	ge_p2_dbl(&r, &s);
	ge_p1p1_to_p2(&s, &r);
	ge_p2_dbl(&r, &s);
	ge_p1p1_to_p2(&s, &r);
	ge_p2_dbl(&r, &s);
	ge_p1p1_to_p3(h, &r);
	for (i = 0; i < 64; i += 2) {
		ed_select(&t, i / 2, e[i]);
		ge_madd(&r, h, &t);
		ge_p1p1_to_p3(h, &r);
	}
	memzero_explicit(e, sizeof(e));
	memzero_explicit(&t, sizeof(t));
	memzero_explicit(&r, sizeof(r));
}

ED_FN void ed_base_mul(u8 out[32], const u8 k[32])
{
	ge_p3 h;

	ed_tables();
	ge_scalarmult_base(&h, k);
	ge_tobytes(out, &h.X, &h.Y, &h.Z);
	memzero_explicit(&h, sizeof(h));
}

/* Points per shared inversion in the batch functions. */
#define ED_BATCH 16

/*
 * Encode n <= ED_BATCH points (X : Y : Z) with one inversion shared by
 * all (Montgomery's trick: invert the product of the Z, then peel each
 * inverse off with two multiplications).  Constant time.
 */
ED_FN void ge_batch_tobytes(u8 (*out)[32], const fe *X, const fe *Y, const fe *Z, unsigned int n)
{
	fe acc[ED_BATCH], inv, zi, x, y;
	unsigned int i;

	acc[0] = Z[0];
	for (i = 1; i < n; i++)
		fe_mul(&acc[i], &acc[i - 1], &Z[i]);
	fe_invert(&inv, &acc[n - 1]);
	for (i = n; i-- > 0;) {
		if (i) {
			fe_mul(&zi, &inv, &acc[i - 1]);
			fe_mul(&inv, &inv, &Z[i]);
		} else {
			zi = inv;
		}
		fe_mul(&x, &X[i], &zi);
		fe_mul(&y, &Y[i], &zi);
		fe_tobytes(out[i], &y);
		out[i][31] ^= (u8)(fe_isnegative(&x) << 7);
	}
	memzero_explicit(acc, sizeof(acc));
	memzero_explicit(&inv, sizeof(inv));
	memzero_explicit(&zi, sizeof(zi));
	memzero_explicit(&x, sizeof(x));
	memzero_explicit(&y, sizeof(y));
}

/* out[i] = encode([k[i]]B) for n scalars, one inversion per ED_BATCH. */
ED_FN void ed_base_mul_batch(u8 (*out)[32], const u8 (*k)[32], unsigned int n)
{
	fe X[ED_BATCH], Y[ED_BATCH], Z[ED_BATCH];
	unsigned int i, m;
	ge_p3 h;

	ed_tables();
	while (n) {
		m = n < ED_BATCH ? n : ED_BATCH;
		for (i = 0; i < m; i++) {
			ge_scalarmult_base(&h, k[i]);
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

/* X25519(k, 9): [k]B on the Edwards curve, then u = (Z + Y) / (Z - Y). */
ED_FN void ed_base_mul_mont(u8 out[32], const u8 k[32])
{
	u8 kc[32];
	fe n, d;
	ge_p3 h;

	memcpy(kc, k, 32);
	kc[0] &= 248;
	kc[31] &= 127;
	kc[31] |= 64;
	ed_tables();
	ge_scalarmult_base(&h, kc);
	fe_add(&n, &h.Z, &h.Y);
	fe_sub(&d, &h.Z, &h.Y);
	fe_invert(&d, &d);
	fe_mul(&n, &n, &d);
	fe_tobytes(out, &n);
	memzero_explicit(kc, sizeof(kc));
	memzero_explicit(&h, sizeof(h));
	memzero_explicit(&n, sizeof(n));
}

/* ---- verification (public inputs, variable time) ------------------------- */

/*
 * Signed sliding-window digits of a 256-bit scalar < 2^253: r[i] odd in
 * (-2^(w-1), 2^(w-1)) or zero, at most one nonzero digit in any w
 * consecutive positions, sum r[i] 2^i = a.
 */
ED_FN void ed_slide(s8 r[256], const u8 a[32], int w)
{
	int max = (1 << (w - 1)) - 1;
	int i, b, k;

	for (i = 0; i < 256; i++)
		r[i] = (s8)((a[i >> 3] >> (i & 7)) & 1);
	for (i = 0; i < 256; i++) {
		if (!r[i])
			continue;
		for (b = 1; b < w && i + b < 256; b++) {
			if (!r[i + b])
				continue;
			if (r[i] + (r[i + b] << b) <= max) {
				r[i] = (s8)(r[i] + (r[i + b] << b));
				r[i + b] = 0;
			} else if (r[i] - (r[i + b] << b) >= -max) {
				r[i] = (s8)(r[i] - (r[i + b] << b));
				for (k = i + b; k < 256; k++) {
					if (!r[k]) {
						r[k] = 1;
						break;
					}
					r[k] = 0;
				}
			} else {
				break;
			}
		}
	}
}

ED_FN int ed_prepare(struct ed25519_pre *opaque, const u8 pub[32])
{
	struct ed_pre *pre = (struct ed_pre *)opaque;
	ge_p3 a;
	int err;

	ed_tables();
	err = ge_frombytes(&a, pub);
	if (err)
		return err;
	ge_odd_multiples(pre->aodd, &a, ED_AODD);
	return 0;
}

ED_FN void ed_double_mul(u8 out[32], const struct ed25519_pre *opaque, const u8 s[32],
			  const u8 h[32])
{
	const struct ed_pre *pre = (const struct ed_pre *)opaque;
	s8 sd[256], hd[256];
	ge_p1p1 t;
	ge_p3 u;
	ge_p2 r;
	int i;

	ed_slide(sd, s, ED_BW);
	ed_slide(hd, h, ED_AW);
	for (i = 255; i >= 0 && !sd[i] && !hd[i]; i--)
		;
	ge_p2_0(&r);
	for (; i >= 0; i--) {
		ge_p2_dbl(&t, &r);
		/* -[h]A: the digits of h are subtracted. */
		if (hd[i] > 0) {
			ge_p1p1_to_p3(&u, &t);
			ge_msub(&t, &u, &pre->aodd[hd[i] / 2]);
		} else if (hd[i] < 0) {
			ge_p1p1_to_p3(&u, &t);
			ge_madd(&t, &u, &pre->aodd[-hd[i] / 2]);
		}
		if (sd[i] > 0) {
			ge_p1p1_to_p3(&u, &t);
			ge_madd(&t, &u, &ed_tab.bodd[sd[i] / 2]);
		} else if (sd[i] < 0) {
			ge_p1p1_to_p3(&u, &t);
			ge_msub(&t, &u, &ed_tab.bodd[-sd[i] / 2]);
		}
		ge_p1p1_to_p2(&r, &t);
	}
	ge_tobytes(out, &r.X, &r.Y, &r.Z);
}

#endif /* _RIND_ALGS_ED25519_IMPL_H */
