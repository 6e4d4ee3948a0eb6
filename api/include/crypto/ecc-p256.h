/* SPDX-License-Identifier: MIT */
/*
 * P-256 (secp256r1, FIPS 186-5 / SEC 2: p = 2^256 - 2^224 + 2^192 + 2^96 - 1)
 * for every implementation over api/include/crypto/ecc-impl.h with 4 64-bit limbs: the
 * generic algs/p256.c and arch/x86/ecc-p256-adx.c include ecc-impl.h
 * (with their own field operations) and then this file, which holds the
 * domain parameters.
 *
 * The constants are the curve's domain parameters (FIPS 186-5 / SP 800-186
 * section 3.2) written as little-endian 64-bit limbs; the Montgomery
 * ones are derived from them with R = 2^256: rr = R^2 mod m,
 * one = R mod m, m0inv = -m^-1 mod 2^64, and b, Gx, Gy times R mod p.
 */
#ifndef _RIND_ALGS_ECC_P256_H
#define _RIND_ALGS_ECC_P256_H

#if ECC_N != 4
#error "P-256 is 4 limbs"
#endif

static const struct ecc_mod p256_fp = {
	.m = { 0xffffffffffffffffull, 0x00000000ffffffffull, 0x0000000000000000ull, 0xffffffff00000001ull },
	.rr = { 0x0000000000000003ull, 0xfffffffbffffffffull, 0xfffffffffffffffeull, 0x00000004fffffffdull },
	.one = { 0x0000000000000001ull, 0xffffffff00000000ull, 0xffffffffffffffffull, 0x00000000fffffffeull },
	.m0inv = 0x0000000000000001ull,
};
static const struct ecc_mod p256_fn = {
	.m = { 0xf3b9cac2fc632551ull, 0xbce6faada7179e84ull, 0xffffffffffffffffull, 0xffffffff00000000ull },
	.rr = { 0x83244c95be79eea2ull, 0x4699799c49bd6fa6ull, 0x2845b2392b6bec59ull, 0x66e12d94f3d95620ull },
	.one = { 0x0c46353d039cdaafull, 0x4319055258e8617bull, 0x0000000000000000ull, 0x00000000ffffffffull },
	.m0inv = 0xccd1c8aaee00bc4full,
};
static const u64 p256_b[4] = { 0xd89cdf6229c4bddfull, 0xacf005cd78843090ull, 0xe5a220abf7212ed6ull, 0xdc30061d04874834ull };
static const u64 p256_gx[4] = { 0x79e730d418a9143cull, 0x75ba95fc5fedb601ull, 0x79fb732b77622510ull, 0x18905f76a53755c6ull };
static const u64 p256_gy[4] = { 0xddf25357ce95560aull, 0x8b4ab8e4ba19e45cull, 0xd2e88688dd21f325ull, 0x8571ff1825885d85ull };
static const u64 p256_sqrt_exp[4] = { 0x0000000000000000ull, 0x0000000040000000ull, 0x4000000000000000ull, 0x3fffffffc0000000ull };

static const struct ecc_def p256_def = {
	.fp = &p256_fp, .fn = &p256_fn, .b = p256_b, .gx = p256_gx, .gy = p256_gy,
	.sqrt_exp = p256_sqrt_exp, .nbytes = 32, .bits = 256,
};

#endif /* _RIND_ALGS_ECC_P256_H */
