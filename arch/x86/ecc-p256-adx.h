/* SPDX-License-Identifier: MIT */
/*
 * P-256 for x86-64 with MULX/ADCX/ADOX (arch/x86/ecc-p256-adx.c): the curve
 * implementation that the "ecdh-nist-p256-adx" and "ecdsa-nist-p256-adx"
 * drivers are registered over (struct ecc_curve, <crypto/ecc.h>).
 */
#ifndef _RIND_ARCH_X86_ECC_P256_ADX_H
#define _RIND_ARCH_X86_ECC_P256_ADX_H

#include <crypto/ecc.h>

extern const struct ecc_curve ecc_p256_adx;

/*
 * The field operations, for the tests (tests/test_ecdh.c checks them
 * against BIGNUM on edge values): r = op(a, b) for a, b below the modulus
 * (four 64-bit words, least significant first), r fully reduced: the
 * Montgomery product a b / 2^256 and the square modulo p, addition,
 * subtraction and halving modulo p, the Montgomery product modulo the
 * group order n, the inverse modulo p in Montgomery form (a^-1 R for
 * a R; 0 for 0), the point formulas' fused steps a - 3b (a - b - 2c),
 * 3 (a - b) and a - b / 2 modulo p, and the inversion of plain integers
 * (not Montgomery form; 0 for 0) modulo p and modulo n (a below n), as
 * signing uses it for k^-1.  Needs BMI2 and ADX.
 */
enum p256x_test_op {
	P256X_T_MUL, P256X_T_SQR, P256X_T_ADD, P256X_T_SUB, P256X_T_HALF, P256X_T_NMUL,
	P256X_T_INV, P256X_T_SUB3B, P256X_T_SUB3, P256X_T_SUBHALF, P256X_T_PINV, P256X_T_NINV,
	P256X_T_NOPS
};
void p256x_field_test(enum p256x_test_op op, u64 *r, const u64 *a, const u64 *b);

/*
 * The point formulas on 12 words (X, Y, Z in Montgomery form): the
 * doubling (ECC_JAC_DBL; r may alias p), n >= 1 doublings in a row, the
 * Jacobian addition (ECC_JAC_ADD, add-2007-bl's products without its
 * case analysis) and the mixed addition (ECC_JAC_ADD_AFFINE, q = x, y
 * of 8 words); o may alias p.
 */
void p256x_jac_dbl_test(u64 *r, const u64 *p);
void p256x_jac_dbln_test(u64 *r, const u64 *p, unsigned int n);
void p256x_jac_add_test(u64 *o, const u64 *p, const u64 *q);
void p256x_jac_add_affine_test(u64 *o, const u64 *p, const u64 *q);

#endif /* _RIND_ARCH_X86_ECC_P256_ADX_H */
