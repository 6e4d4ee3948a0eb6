// SPDX-License-Identifier: MIT
/*
 * P-384 for arm64 with MUL/UMULH/ADCS: the "ecdh-nist-p384-arm64" kpp and
 * "ecdsa-nist-p384-arm64" sig drivers, priority 300 (generic is 100).
 * Requires: base A64 only; registered under "asimd" (on every Linux arm64
 * system) so that RIND_DISABLE=asimd or all leaves the generic drivers.
 *
 * The point and scalar arithmetic of the curve template
 * (<crypto/ecc-impl.h>, hooks in <crypto/ecc.h>: complete formulas,
 * signed windows, the fixed-base table, constant time for secret scalars)
 * and <crypto/ecc-p384.h>'s constants, over the field operations of
 * ecc-p384-arm64.h in inline assembly, as ecc-p256-arm64.c is for P-256
 * (and arch/x86/ecc-p384-adx.c over MULX/ADX).  Montgomery multiplication
 * with R = 2^384, six words: operand scanning, the low and the high halves
 * of each row's products in two ADDS/ADCS chains, and after each row one
 * reduction step whose multiplier is q = W0 (2^32 + 1) -- one shifted ADD,
 * since -p^-1 = 2^32 + 1 mod 2^64 -- and whose q p needs four MUL/UMULH
 * pairs, not six (p's top three words are all ones).  A dedicated
 * squaring: the 15 cross products doubled plus the 6 squares, the low
 * half of the 768-bit square reduced in place, then the high half added
 * (57 multiplies against the multiplication's 84).
 * Additions and subtractions with a correction selected by CSEL or masked
 * by CSETM.  Every element is fully reduced (below p), as in the generic
 * algs/p384.c.  Scalars modulo n use the template's generic Montgomery
 * code.  The protocol glue (key formats, checks, RFC 6979 nonces) is the
 * generic drivers'.
 *
 * Constant time: MUL, UMULH, ADD (shifted), ADDS/ADCS, SUBS/SBCS, CSEL,
 * CSETM, AND and LDR/LDP only (data-independent under PSTATE.DIT); no
 * branch and no memory index depends on a value.
 *
 * Expected cost, an estimate (no arm64 hardware here; assumed figures:
 * MUL latency about 4 cycles, UMULH about 5, at most one multiply per
 * cycle on Neoverse N1, about two on V1 and Apple cores): fp_mul is 84
 * multiply instructions (36 products as MUL and UMULH, six q p of four
 * pairs) and some 200 in all, about 90-100 cycles on N1, multiply-bound,
 * 55-65 on V1/Apple; fp_sqr about 65-70 on N1.  An ECDH (384 doublings, ~77 additions, the
 * inversion) about 550k cycles on N1; a signature's fixed-base
 * multiplication about 80k.
 */
#include <string.h>
#include <rind/types.h>
#include <rind/internal/alg.h>
#include <rind/internal/kpp.h>
#include <rind/internal/sig.h>
#include <rind/internal/util.h>
#include "ecc-p384-arm64.h"

#define ECC_N			6
#define ECC_FP_MUL(r, a, b)	p384a_mul(r, a, b)
#define ECC_FP_SQR(r, a)	p384a_sqr(r, a)
#define ECC_FP_ADD(r, a, b)	p384a_add(r, a, b)
#define ECC_FP_SUB(r, a, b)	p384a_sub(r, a, b)
#include <crypto/ecc-impl.h>
#include <crypto/ecc-p384.h>

ECC_DEFINE_CURVE(ecc_p384_arm64, p384_def, "P-384", RIND_OID_SECP384R1, 48, 384);

/* ---- registration -------------------------------------------------------- */

/* The protocol glue registers a driver over a curve implementation (<crypto/ecc.h>). */
ECC_DEFINE_CURVE_DRIVERS(p384_arm64, ecc_p384_arm64, 300, "arm64", rind_cpu_has(RIND_ARM64_ASIMD),
			 "ecdh-nist-p384", "ecdh-nist-p384-arm64",
			 "ecdsa-nist-p384", "ecdsa-nist-p384-arm64");
