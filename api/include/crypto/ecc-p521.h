/* SPDX-License-Identifier: MIT */
/*
 * P-521 (secp521r1, FIPS 186-5 / SEC 2: p = 2^521 - 1) constants shared by
 * the implementations over <crypto/ecc-impl.h> with 9 64-bit limbs
 * (algs/p521.c, arch/x86/ecc-p521-adx.c): the group order n with its
 * Montgomery constants (R = 2^576: rr = R^2 mod n, one = R mod n,
 * m0inv = -n^-1 mod 2^64; the scalar arithmetic is the template's in
 * both) and the square-root exponent (p + 1) / 4 = 2^519.  Each file has
 * its own field form, so b and G are given by each in that form.
 */
#ifndef _RIND_ALGS_ECC_P521_H
#define _RIND_ALGS_ECC_P521_H

#if ECC_N != 9
#error "P-521 is 9 limbs"
#endif

static const struct ecc_mod p521_fn = {
	.m = { 0xbb6fb71e91386409ull, 0x3bb5c9b8899c47aeull, 0x7fcc0148f709a5d0ull, 0x51868783bf2f966bull, 0xfffffffffffffffaull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0x00000000000001ffull },
	.rr = { 0x137cd04dcf15dd04ull, 0xf707badce5547ea3ull, 0x12a78d38794573ffull, 0xd3721ef557f75e06ull, 0xdd6e23d82e49c7dbull, 0xcff3d142b7756e3eull, 0x5bcc6d61a8e567bcull, 0x2d8e03d1492d0d45ull, 0x000000000000003dull },
	.one = { 0xfb80000000000000ull, 0x28a2482470b763cdull, 0x17e2251b23bb31dcull, 0xca4019ff5b847b2dull, 0x02d73cbc3e206834ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull },
	.m0inv = 0x1d2f5ccd79a995c7ull,
};
static const u64 p521_sqrt_exp[9] = { 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000080ull };

#endif /* _RIND_ALGS_ECC_P521_H */
