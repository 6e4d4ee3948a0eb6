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

#endif /* _RIND_ARCH_X86_ECC_P521_ADX_H */
