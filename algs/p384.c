// SPDX-License-Identifier: MIT
/*
 * P-384 (secp384r1, FIPS 186-5 / SEC 2: p = 2^384 - 2^128 - 2^96 + 2^32 - 1),
 * portable C over the generic arithmetic of api/include/crypto/ecc-impl.h with 6
 * 64-bit limbs: the curve operations that the "ecdh-nist-p384" kpp and
 * the "ecdsa-nist-p384" sig drivers (algs/ecdh.c, algs/ecdsa.c) are
 * built on.
 *
 * The constants are the curve's domain parameters (FIPS 186-5 / SP 800-186
 * section 3.2) written as little-endian 64-bit limbs; the Montgomery
 * ones are derived from them with R = 2^384: rr = R^2 mod m,
 * one = R mod m, m0inv = -m^-1 mod 2^64, and b, Gx, Gy times R mod p.
 */
#define ECC_N 6
#include <crypto/ecc-impl.h>

#include <crypto/ecc-p384.h>

ECC_DEFINE_CURVE(ecc_p384_generic, p384_def, "P-384", RIND_OID_SECP384R1, 48, 384);
