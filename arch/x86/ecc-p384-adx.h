/* SPDX-License-Identifier: MIT */
/*
 * P-384 for x86-64 with MULX/ADCX/ADOX (arch/x86/ecc-p384-adx.c): the curve
 * implementation that the "ecdh-nist-p384-adx" and "ecdsa-nist-p384-adx"
 * drivers are registered over (struct ecc_curve, <crypto/ecc.h>).
 */
#ifndef _RIND_ARCH_X86_ECC_P384_ADX_H
#define _RIND_ARCH_X86_ECC_P384_ADX_H

#include <crypto/ecc.h>

extern const struct ecc_curve ecc_p384_adx;

/*
 * The field operations, for the tests (tests/test_ecdh.c checks them
 * against BIGNUM on edge values): r = op(a, b) for a, b below the modulus
 * (six 64-bit words, least significant first), r fully reduced: the
 * Montgomery product a b / 2^384 and the square modulo p, addition,
 * subtraction and halving modulo p, the Montgomery product modulo the
 * group order n, and the inverse modulo p in Montgomery form (a^-1 R for
 * a R; 0 for 0).  Needs BMI2 and ADX.
 */
enum p384x_test_op {
	P384X_T_MUL, P384X_T_SQR, P384X_T_ADD, P384X_T_SUB, P384X_T_HALF, P384X_T_NMUL,
	P384X_T_INV, P384X_T_SUB2, P384X_T_MUL3, P384X_T_SUBHALF,
	P384X_T_SQRSUB2, P384X_T_SQRSUB3, P384X_T_DBLY, P384X_T_MULSUB,
	P384X_T_NOPS
};
void p384x_field_test(enum p384x_test_op op, u64 *r, const u64 *a, const u64 *b);

/*
 * The fused forms (a - 2b, 3a, a - b / 2 modulo p) are P384X_T_SUB2,
 * _MUL3 and _SUBHALF above; the steps that share one reduction, in
 * Montgomery form (M(x, y) = x y / 2^384 mod p): _SQRSUB2 M(a, a) - 2b,
 * _SQRSUB3 M(a, a) - 3b, _DBLY M(a, b) - M(a, a) / 2 and _MULSUB
 * M(a, b) - M(a, a); the point doubling (ECC_JAC_DBL): r = 2p for
 * p = (X, Y, Z) in Montgomery form, 18 words, r may alias p.
 */
void p384x_jac_dbl_test(u64 *r, const u64 *p);
/* The mixed addition (ECC_JAC_ADD_AFFINE): o = p + (x2, y2), madd-2007-bl; o distinct from p. */
void p384x_jac_add_affine_test(u64 *o, const u64 *p, const u64 *x2, const u64 *y2);

#endif /* _RIND_ARCH_X86_ECC_P384_ADX_H */
