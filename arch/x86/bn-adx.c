// SPDX-License-Identifier: MIT
/*
 * Montgomery multiplication and squaring with MULX/ADCX/ADOX (bn-adx.h),
 * the C side of the two assembly kernels.
 *
 * Multiplication (bn-adx-mul.S): CIOS, one pass over t per word b[i] that
 * adds a b[i] and q m (q = (t0 + a0 b[i]) (-m^-1) mod 2^64, so the low word
 * vanishes) and shifts down one word, four words of t at a time in
 * registers, two carry chains (ADCX, ADOX).  About 1.5 cycles per product
 * on Zen 3 at 16 to 64 words, which is what one MULX with its ADCX and
 * ADOX costs there in a loop of nothing else (measured 1.47): the bound of
 * this instruction mix, not of the loop.
 *
 * Where n % 8 == 0 (every RSA size) the multiplication is instead the
 * product a b row by row into 2n words, then the squaring's reduction
 * (bnx_mulr_adx): the rows keep their carries in the flags, the next
 * row's q is ready before the row ends, about 5% faster than CIOS here.
 *
 * Squaring (bn-adx-sqr.S): the cross products once (n (n - 1) / 2 of
 * them), doubled with the squares added, then a reduction pass of n^2:
 * 0.77-0.89 of a multiplication's time at 16-64 words, against the 0.77
 * of the product counts (the short rows of the cross-product triangle
 * cost a little more each).  The squaring's rows keep their carries in
 * the flags across blocks (LOOP and LEA leave them alone), where the
 * multiplication's fused row folds them into a carry word per block.
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
