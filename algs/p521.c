// SPDX-License-Identifier: MIT
/*
 * P-521 (secp521r1, FIPS 186-5 / SEC 2: p = 2^521 - 1),
 * portable C over the generic arithmetic of algs/ecc-impl.h with 9
 * 64-bit limbs: the curve operations that the "ecdh-nist-p521" kpp and
 * the "ecdsa-nist-p521" sig drivers (algs/ecdh.c, algs/ecdsa.c) are
 * built on.
 *
 * The constants are the curve's domain parameters (FIPS 186-5 / SP 800-186
 * section 3.2) written as little-endian 64-bit limbs; the Montgomery
 * ones are derived from them with R = 2^576: rr = R^2 mod m,
 * one = R mod m, m0inv = -m^-1 mod 2^64, and b, Gx, Gy times R mod p.
 */
#define ECC_N 9
#include <rind/types.h>

static void p521_mont_mul(u64 *r, const u64 *a, const u64 *b);
#define ECC_FP_MUL(r, a, b)	p521_mont_mul(r, a, b)
#include "ecc-impl.h"

/*
 * P-521's field, p = 2^521 - 1 with R = 2^576: since 2^521 = 1 mod p,
 * a * b / R = a * b * 2^466 mod p, so the Montgomery product is the plain
 * product folded at bit 521 and then rotated left by 466 bits within 521
 * bits (a cyclic shift multiplies by a power of two mod 2^521 - 1).
 */
static void p521_mont_mul(u64 *r, const u64 *a, const u64 *b)
{
	u64 t[18], x[9], y[9], c, borrow = 0, mask;
	ecc_u128 s;
	int i, j;

	memset(t, 0, sizeof(t));
	ECC_UNROLL
	for (i = 0; i < 9; i++) {
		const u64 bi = b[i];

		c = 0;
		ECC_UNROLL
		for (j = 0; j < 9; j++) {
			s = (ecc_u128)a[j] * bi + t[i + j] + c;
			t[i + j] = (u64)s;
			c = (u64)(s >> 64);
		}
		t[i + 9] = c;
	}
	/* x = low 521 bits + (t >> 521) */
	c = 0;
	ECC_UNROLL
	for (i = 0; i < 9; i++) {
		u64 hi = (t[i + 8] >> 9) | (t[i + 9] << 55);
		u64 lo = i < 8 ? t[i] : t[8] & 0x1ff;

		s = (ecc_u128)lo + hi + c;
		x[i] = (u64)s;
		c = (u64)(s >> 64);
	}
	/* x < 2^522: fold bit 521 once more, then subtract p if x >= p. */
	c = x[8] >> 9;
	x[8] &= 0x1ff;
	ECC_UNROLL
	for (i = 0; i < 9; i++) {
		s = (ecc_u128)x[i] + c;
		x[i] = (u64)s;
		c = (u64)(s >> 64);
	}
	ECC_UNROLL
	for (i = 0; i < 9; i++) {
		s = (ecc_u128)x[i] - (i < 8 ? ~0ull : 0x1ffull) - borrow;
		y[i] = (u64)s;
		borrow = (u64)(s >> 64) & 1;
	}
	mask = 0 - borrow;
	ECC_UNROLL
	for (i = 0; i < 9; i++)
		x[i] = (x[i] & mask) | (y[i] & ~mask);
	/* rotate left by 466 = 7 * 64 + 18 within 521 bits: bits k -> (k + 466) mod 521 */
	{
		u64 lo[9], hi[9];

		/* x << 466 (bits below 521 kept) and x >> 55 */
		memset(lo, 0, sizeof(lo));
		lo[7] = x[0] << 18;
		lo[8] = ((x[0] >> 46) | (x[1] << 18)) & 0x1ff;
		ECC_UNROLL
		for (i = 0; i < 9; i++) {
			u64 v = x[i] >> 55;

			if (i < 8)
				v |= x[i + 1] << 9;
			hi[i] = v;
		}
		ECC_UNROLL
		for (i = 0; i < 9; i++)
			r[i] = lo[i] | hi[i];
	}
}

static const struct ecc_mod p521_fp = {
	.m = { 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0x00000000000001ffull },
	.rr = { 0x0000000000000000ull, 0x0000400000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull },
	.one = { 0x0080000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull },
	.m0inv = 0x0000000000000001ull,
	.minus2 = { 0xfffffffffffffffdull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0x00000000000001ffull },
};
static const struct ecc_mod p521_fn = {
	.m = { 0xbb6fb71e91386409ull, 0x3bb5c9b8899c47aeull, 0x7fcc0148f709a5d0ull, 0x51868783bf2f966bull, 0xfffffffffffffffaull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0x00000000000001ffull },
	.rr = { 0x137cd04dcf15dd04ull, 0xf707badce5547ea3ull, 0x12a78d38794573ffull, 0xd3721ef557f75e06ull, 0xdd6e23d82e49c7dbull, 0xcff3d142b7756e3eull, 0x5bcc6d61a8e567bcull, 0x2d8e03d1492d0d45ull, 0x000000000000003dull },
	.one = { 0xfb80000000000000ull, 0x28a2482470b763cdull, 0x17e2251b23bb31dcull, 0xca4019ff5b847b2dull, 0x02d73cbc3e206834ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull },
	.m0inv = 0x1d2f5ccd79a995c7ull,
	.minus2 = { 0xbb6fb71e91386407ull, 0x3bb5c9b8899c47aeull, 0x7fcc0148f709a5d0ull, 0x51868783bf2f966bull, 0xfffffffffffffffaull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0x00000000000001ffull },
};
static const u64 p521_b[9] = { 0x8014654fae586387ull, 0x78f7a28fea35a81full, 0x839ab9efc41e961aull, 0xbd8b29605e9dd8dfull, 0xf0ab0c9ca8f63f49ull, 0xf9dc5a44c8c77884ull, 0x77516d392dccd98aull, 0x0fc94d10d05b42a0ull, 0x000000000000004dull };
static const u64 p521_gx[9] = { 0xb331a16381adc101ull, 0x4dfcbf3f18e172deull, 0x6f19a459e0c2b521ull, 0x947f0ee093d17fd4ull, 0xdd50a5af3bf7f3acull, 0x90fc1457b035a69eull, 0x214e32409c829fdaull, 0xe6cf1f65b311cadaull, 0x0000000000000074ull };
static const u64 p521_gy[9] = { 0x28460e4a5a9e268eull, 0x20445f4a3b4fe8b3ull, 0xb09a9e3843513961ull, 0x2062a85c809fd683ull, 0x164bf7394caf7a13ull, 0x340bd7de8b939f33ull, 0xeccc7aa224abcda2ull, 0x022e452fda163e8dull, 0x00000000000001e0ull };
static const u64 p521_sqrt_exp[9] = { 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000080ull };

static const struct ecc_def p521_def = {
	.fp = &p521_fp,
	.fn = &p521_fn,
	.b = p521_b,
	.gx = p521_gx,
	.gy = p521_gy,
	.sqrt_exp = p521_sqrt_exp,
	.nbytes = 66,
	.bits = 521,
};

ECC_DEFINE_CURVE(ecc_p521_generic, p521_def, "P-521", RIND_OID_SECP521R1, 66, 521);
