/* SPDX-License-Identifier: MIT */
/*
 * P-384 (secp384r1, FIPS 186-5 / SEC 2: p = 2^384 - 2^128 - 2^96 + 2^32 - 1)
 * for every implementation over <crypto/ecc-impl.h> with 6 64-bit limbs:
 * the generic algs/p384.c and arch/x86/ecc-p384-adx.c include ecc-impl.h
 * (with their own field operations) and then this file, which holds the
 * domain parameters.
 *
 * The constants are the curve's domain parameters (FIPS 186-5 / SP 800-186
 * section 3.2) written as little-endian 64-bit limbs; the Montgomery
 * ones are derived from them with R = 2^384: rr = R^2 mod m,
 * one = R mod m, m0inv = -m^-1 mod 2^64, and b, Gx, Gy times R mod p.
 */
#ifndef _RIND_ALGS_ECC_P384_H
#define _RIND_ALGS_ECC_P384_H

#if ECC_N != 6
#error "P-384 is 6 limbs"
#endif

static const struct ecc_mod p384_fp = {
	.m = { 0x00000000ffffffffull, 0xffffffff00000000ull, 0xfffffffffffffffeull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull },
	.rr = { 0xfffffffe00000001ull, 0x0000000200000000ull, 0xfffffffe00000000ull, 0x0000000200000000ull, 0x0000000000000001ull, 0x0000000000000000ull },
	.one = { 0xffffffff00000001ull, 0x00000000ffffffffull, 0x0000000000000001ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull },
	.m0inv = 0x0000000100000001ull,
};
static const struct ecc_mod p384_fn = {
	.m = { 0xecec196accc52973ull, 0x581a0db248b0a77aull, 0xc7634d81f4372ddfull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull },
	.rr = { 0x2d319b2419b409a9ull, 0xff3d81e5df1aa419ull, 0xbc3e483afcb82947ull, 0xd40d49174aab1cc5ull, 0x3fb05b7a28266895ull, 0x0c84ee012b39bf21ull },
	.one = { 0x1313e695333ad68dull, 0xa7e5f24db74f5885ull, 0x389cb27e0bc8d220ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull },
	.m0inv = 0x6ed46089e88fdc45ull,
};
static const u64 p384_b[6] = { 0x081188719d412dccull, 0xf729add87a4c32ecull, 0x77f2209b1920022eull, 0xe3374bee94938ae2ull, 0xb62b21f41f022094ull, 0xcd08114b604fbff9ull };
static const u64 p384_gx[6] = { 0x3dd0756649c0b528ull, 0x20e378e2a0d6ce38ull, 0x879c3afc541b4d6eull, 0x6454868459a30effull, 0x812ff723614ede2bull, 0x4d3aadc2299e1513ull };
static const u64 p384_gy[6] = { 0x23043dad4b03a4feull, 0xa1bfa8bf7bb4a9acull, 0x8bade7562e83b050ull, 0xc6c3521968f4ffd9ull, 0xdd8002263969a840ull, 0x2b78abc25a15c5e9ull };
static const u64 p384_sqrt_exp[6] = { 0x0000000040000000ull, 0xbfffffffc0000000ull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0x3fffffffffffffffull };

static const struct ecc_def p384_def = {
	.fp = &p384_fp, .fn = &p384_fn, .b = p384_b, .gx = p384_gx, .gy = p384_gy,
	.sqrt_exp = p384_sqrt_exp, .nbytes = 48, .bits = 384,
};

#endif /* _RIND_ALGS_ECC_P384_H */
