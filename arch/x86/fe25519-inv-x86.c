// SPDX-License-Identifier: MIT
/*
 * Inversion modulo p = 2^255 - 19 for the x86-64 radix-2^64 field code
 * (fe25519-mulx.h routes fe_invert here): the half-delta divsteps of
 * algs/curve25519.c's fe25519_invert_limbs (same result, same contract:
 * canonical input below p, 0 for 0, constant time), with the steps
 * themselves done in fewer instructions.  Baseline x86-64 only (BT,
 * CMOV, LEA).
 *
 * Why.  In fe25519_invert_limbs each step updates f, g, zeta and the two
 * packed matrix rows separately, ~22 ALU operations; 600 of them are ~3/4
 * of an inversion, and an inversion ~20% of an Ed25519 signature.  Here
 * a batch of 20 steps carries the matrix inside f and g themselves:
 *
 *   F = u + 2^22 v + 2^44 (u f0 + v g0)     (mod 2^64)
 *   G = q + 2^22 r + 2^44 (q f0 + r g0)
 *
 * i.e. the linear forms of the matrix evaluated at f0 := 1 + 2^44 f0 and
 * g0 := 2^22 + 2^44 g0 (low 20 bits of f and g; no more decide 20
 * steps).  In the "scaled" form, where step i holds 2^i f_i and 2^i g_i,
 * every step is linear without a division:
 *
 *   delta > 0, g odd:  (F, G) = (2G, G - F),  delta = 1 - delta
 *   g odd:             (F, G) = (2F, G + F),  delta = 1 + delta
 *   g even:            (F, G) = (2F, G),      delta = 1 + delta
 *
 * so one add or subtract and one doubling move f, g and both matrix rows
 * at once, and the parity of g_i is bit 44 + i of G (the low bits of
 * 2^i g_i are 0).  The matrix fields are signed and below 2^20 + 2^42 in
 * magnitude, so G is kept biased by 2^43: no borrow from them reaches
 * bit 44.  The steps are arch/x86/ecc-divsteps-x86.h's (shared with the
 * P-256 and P-384 inversions: 15 operations a step, no dependency chain
 * longer than 3); the rounds around them, the matrix applied to the full
 * f, g, d, e, and the final reduction are <crypto/fe25519-inv.h>'s, as in
 * algs/curve25519.c.
 */
#include "fe25519-inv-x86.h"
#include <crypto/fe25519-inv.h>
#include "ecc-divsteps-x86.h"

void fe25519_invert_limbs_x86(u64 out[4], const u64 w[4])
{
	fe25519_invert_with(out, w, ecc_x86_divsteps60);
}
