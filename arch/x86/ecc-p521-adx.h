/* SPDX-License-Identifier: MIT */
/*
 * P-521 for x86-64 with MULX/ADCX/ADOX (arch/x86/ecc-p521-adx.c): the curve
 * implementation that the "ecdh-nist-p521-adx" and "ecdsa-nist-p521-adx"
 * drivers are registered over (struct ecc_curve, <crypto/ecc.h>).
 */
#ifndef _RIND_ARCH_X86_ECC_P521_ADX_H
#define _RIND_ARCH_X86_ECC_P521_ADX_H

#include <crypto/ecc.h>

extern const struct ecc_curve ecc_p521_adx;

/*
 * The field operations, for the tests (tests/test_ecdh.c checks them
 * against BIGNUM on edge values): r = op(a, b) mod p for a, b at most p
 * (nine 64-bit words, least significant first; p itself is a form of 0),
 * r at most p.  Needs BMI2 and ADX.
 */
enum p521x_test_op {
	P521X_T_MUL, P521X_T_SQR, P521X_T_ADD, P521X_T_SUB, P521X_T_HALF,
	P521X_T_DBL, P521X_T_MUL3, P521X_T_SUB2, P521X_T_SUBHALF,
	P521X_T_INV,	/* r = a^-1 (0 for 0), fully reduced */
	P521X_T_SUB8,	/* a - 8b */
	P521X_T_SUB4R,	/* 4a - b */
	P521X_T_SUBSUB,	/* a - b - c with c = a b (made by the product) */
	P521X_T_SUBSUB2,	/* a - b - 2c with c = a b */
	P521X_T_NOPS
};
void p521x_field_test(enum p521x_test_op op, u64 *r, const u64 *a, const u64 *b);

#endif /* _RIND_ARCH_X86_ECC_P521_ADX_H */
