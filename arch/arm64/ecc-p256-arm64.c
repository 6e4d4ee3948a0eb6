// SPDX-License-Identifier: MIT
/*
 * P-256 for arm64 with MUL/UMULH/ADCS: the "ecdh-nist-p256-arm64" kpp and
 * "ecdsa-nist-p256-arm64" sig drivers, priority 300 (generic is 100).
 * Requires: base A64 only; registered under "asimd" (on every Linux arm64
 * system) so that RIND_DISABLE=asimd or all leaves the generic drivers.
 *
 * The point and scalar arithmetic of the curve template
 * (<crypto/ecc-impl.h>, hooks in <crypto/ecc.h>: complete formulas,
 * signed windows, the fixed-base table, constant time for secret scalars)
 * and <crypto/ecc-p256.h>'s constants, over the field operations of
 * ecc-p256-arm64.h in inline assembly, as arch/x86/ecc-p256-adx.c does
 * over MULX.  Montgomery multiplication with R = 2^256 and p's special form: -p^-1 = 1 mod 2^64,
 * so each reduction word q is the low word itself, and
 * q p = q 2^96 + q K 2^192 - q with K = 2^64 - 2^32 + 1 -- two shifts and
 * one MUL/UMULH pair per word, the -q cancelling the low word exactly.
 * Operand scanning, one reduction step after each row, the low halves of
 * a row's products added in one ADDS/ADCS chain and the high halves in a
 * second; a dedicated squaring (ten products, the low half reduced word by
 * word, then the high half added); additions and subtractions with a
 * correction selected by CSEL (or masked by CSETM).  Every element is
 * kept fully reduced (below p), as in the generic algs/p256.c.  Scalars
 * modulo n use the template's generic Montgomery code.  The protocol glue
 * (key formats, checks, RFC 6979 nonces) is the generic drivers'.
 *
 * Constant time: MUL, UMULH, LSL/LSR by constants, ADDS/ADCS, SUBS/SBCS,
 * CSEL and CSETM only (data-independent under PSTATE.DIT); no branch and
 * no memory index depends on a value.
 *
 * Expected cost, an estimate (no arm64 hardware here; assumed figures:
 * MUL latency about 4 cycles, UMULH about 5, at most one multiply per
 * cycle on Neoverse N1): fp_mul is 40 multiply instructions (16 products
 * and 4 reduction products, MUL and UMULH each) and ~100 in all, about
 * 45-50 cycles, multiply-bound; fp_sqr 28 multiplies, about 35.  A
 * signature's fixed-base multiplication (43 mixed additions of ~11
 * multiplications) about 30k cycles, an ECDH (256 doublings and ~52
 * additions, then the inversion) about 200k.
 */
#include <string.h>
#include <rind/types.h>
#include <rind/internal/alg.h>
#include <rind/internal/kpp.h>
#include <rind/internal/sig.h>
#include <rind/internal/util.h>
#include "ecc-p256-arm64.h"

#define ECC_N			4
#define ECC_GW			6	/* fixed-base table: 43 windows of 32 affine points */
#define ECC_FP_MUL(r, a, b)	p256a_mul(r, a, b)
#define ECC_FP_SQR(r, a)	p256a_sqr(r, a)
#define ECC_FP_ADD(r, a, b)	p256a_add(r, a, b)
#define ECC_FP_SUB(r, a, b)	p256a_sub(r, a, b)
#include <crypto/ecc-impl.h>
#include <crypto/ecc-p256.h>

ECC_DEFINE_CURVE(ecc_p256_arm64, p256_def, "P-256", RIND_OID_SECP256R1, 32, 256);

/* ---- registration -------------------------------------------------------- */

/* The protocol glue registers a driver over a curve implementation (<crypto/ecc.h>). */
ECC_DEFINE_CURVE_DRIVERS(p256_arm64, ecc_p256_arm64, 300, "arm64", rind_cpu_has(RIND_ARM64_ASIMD),
			 "ecdh-nist-p256", "ecdh-nist-p256-arm64",
			 "ecdsa-nist-p256", "ecdsa-nist-p256-arm64");
