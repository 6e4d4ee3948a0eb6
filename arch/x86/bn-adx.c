// SPDX-License-Identifier: MIT
/*
 * Montgomery multiplication and squaring with MULX/ADCX/ADOX (bn-adx.h),
 * the C side of the assembly kernels.
 *
 * Multiplication, n % 8 == 0 (every RSA size; bn-adx-sqr.S, bnx_mulr_adx):
 * the product a b row by row into 2n words, then the squaring's Montgomery
 * reduction.  n % 8 == 4 (bn-adx-mul.S): CIOS, one pass over t per word
 * b[i] adding a b[i] and q m, four words of t in registers.  The first is
 * ~5% faster here: its rows keep their carries in the flags across blocks
 * (LOOP, LEA and JRCXZ leave them alone) where CIOS folds them into a carry
 * word per block, and the next row's q is ready before the row ends.
 *
 * Squaring (bn-adx-sqr.S): the cross products once (n (n - 1) / 2 of
 * them), doubled with the squares added, then the reduction (n^2): 0.78
 * to 0.83 of a multiplication's time at 16 to 64 words.
 *
 * What bounds them, Zen 3 (TSC cycles, 2.45 GHz; the core runs ~1.28x
 * faster): a loop of nothing but MULX with its ADCX and ADOX reaches one
 * product per core cycle (0.81 TSC), ALU-bound (MULX is two ALU ops, the
 * two adds one each, four ALU pipes).  The kernels take 1.26-1.37 TSC a
 * product in the reduction and 1.40-1.53 in the cross products (16 to 64
 * words; measured pass by pass): each product's accumulator word is
 * loaded and stored in memory (t has 2n words), which a loop of the same
 * rows measured at 1.2 against 0.9 with the words in registers.  At 16
 * words a squaring is ~630 TSC cycles (bound ~320), a multiplication ~970.
 *
 * Both are constant time: MULX, ADCX and ADOX take fixed time, and no
 * branch or address depends on an operand (loop counts on n only).
 */
#include <string.h>
#include "bn-adx.h"

void bnx_mont_mul(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mc,
		  struct bnx_tmp *tmp)
{
	/* Product pass then the squaring's reduction: ~5% faster at 16-64 words. */
	if (mc->n % 8)
		bnx_mul_adx(r, a, b, mc->m, mc->m0inv, mc->n, tmp->t);
	else
		bnx_mulr_adx(r, a, b, mc->m, mc->m0inv, mc->n, tmp->p);
}

void bnx_mont_sqr(u64 *r, const u64 *a, const struct bn_mont *mc, struct bnx_tmp *tmp)
{
	/* The squaring's reduction runs in blocks of eight words. */
	if (mc->n % 8)
		bnx_mul_adx(r, a, a, mc->m, mc->m0inv, mc->n, tmp->t);
	else
		bnx_sqr_adx(r, a, mc->m, mc->m0inv, mc->n, tmp->p);
}
