// SPDX-License-Identifier: MIT
/*
 * Montgomery multiplication and squaring with MULX/ADCX/ADOX (bn-adx.h),
 * the C side of the assembly kernels.
 *
 * Multiplication, n % 8 == 0 (every RSA size; bn-adx-8x8.S, bnx_mulr_adx):
 * the product a b, then the Montgomery reduction, each walked as 8x8 blocks
 * with the accumulator in an 8-register window (bn-adx-gen.py says how).
 * n % 8 == 4 (bn-adx-mul.S): CIOS, one pass over t per word b[i] adding
 * a b[i] and q m, four words of t in registers, the accumulator in memory.
 *
 * Squaring (bn-adx-8x8.S): the cross products once (n (n - 1) / 2 of
 * them, the diagonal blocks as triangles), doubled with the squares
 * added, then the multiplication's reduction (n^2).
 *
 * What bounds them, Zen 3 (TSC cycles, 2.45 GHz; the core runs ~1.22x
 * faster; minimum of 200 runs on a loaded host): a loop of MULX, ADCX and
 * ADOX alone takes 1.0 TSC a product (four ALU pipes, MULX two ops of
 * them, and one multiplier); the 8x8 block in a loop 1.10; the
 * reduction's first block of each strip 1.24 (its rows wait on each q:
 * IMUL, then the first products; computing the q two at a time from a
 * 128-bit inverse was no faster, nor was each next q by a MULX inside the
 * row ahead of its last six products, the flags kept: the multiplier is
 * busy with the older rows' products meanwhile).  Whole products, TSC (products counted as
 * MULX; the squaring has n (n - 1) / 2 + n + n^2):
 *
 *   n          16           24           32        64
 *   squaring   567 (376)   1165 (852)   2020 (1552)  7636 (6208)
 *   multiply   666 (512)   1423 (1152)  2508 (2048)  9819 (8192)
 *   unrolled   533 / 648   1117 / 1396  1964 / 2474  (bn-adx-8x8u.S)
 *
 * (At 24 and 32 limbs bn-adx-8x8u.S now keeps each strip's run of full
 * blocks as a loop: fully unrolled, the 32-limb pair was 58 KiB of code,
 * past the L1i, and an exponentiation's on-CPU median on the loaded host
 * ran ~1.5x its minimum where aws-lc's ran ~1.2x; looped, the minima
 * above stand and the median follows them.  The final select by CMOVC
 * gave 1-2% at 16 limbs, the k-squaring entry ~1%.)
 *
 * Where the squaring's time goes, n = 16, TSC minima of variants with
 * parts left out (wrong results, timing only): whole 554; without the
 * doubling pass 511; the reduction alone (with the final subtraction,
 * select and frame) 367 -- 1.43 a product where the cross products and
 * doubling take ~190 for 136 (1.15-1.4); frame, final subtraction and
 * select alone 42.  n = 32: 2073, 1984, 1344 (1.31 a product), 70.  So
 * the reduction's blocks are the slow part, but not through the q chain:
 * taking the first product's carry (W0 != 0) off the chain, so each q
 * waits on one add fewer, measured 1% slower; dropping the XOR that
 * clears the flags at each row (they are clear after the closing adds)
 * no faster.  Counting ALU ops (MULX two, ADCX, ADOX, ADC, SBB, CMOV one
 * each; four ALU pipes, one multiplier): ~4.4 a product in the blocks,
 * so ~1.1 cycles a product at best, against 1.0 for the bare loop (one
 * MULX a cycle: the loop's 1.0 TSC says the core runs near the TSC's
 * rate under this load); the kernels reach 77% (n = 16) to 87% (32) of
 * that bound.  A 1.3x lead over aws-lc's BN_mod_exp_mont_consttime at
 * 1536/2048-bit halves (now 1.07-1.15x at the minimum) would need the
 * kernels at ~1.0 cycle a product, the bound itself.
 * against 612 / 1247 / 2140 / 7977 and 746 / 1542 / 2708 / 10439 for the
 * accumulator-in-memory kernels these replaced: 1.27 to 1.42 TSC a
 * product, the rest of the gap to 1.0 being the q rows, the adds between
 * blocks and each strip's start and end.
 *
 * The squaring's doubling pass (t = 2 t + the squares, two flag chains
 * over 2n words) is ~60 TSC of the 16-limb squaring's ~540 (timed by
 * leaving it out); split into two independent chains (the doubling by
 * LEA/SHRX without flags, the squares by ADCX over the low half and ADOX
 * over the high half, the low half's carry added by the reduction's first
 * strip) it was no faster at 16, 24 or 32 limbs: the pass is bound by its
 * instruction count, not its chain.  Nor did a lazy end (r = t / R - c m
 * for the top carry c, below R but not reduced below m, by CMOVZ/ADCX or
 * by MULX with c, in place of the subtraction and select; exp_ct to
 * reduce once at the end) pay: within 2% either way, at every size, where
 * leaving the select out altogether saves 2-4%.  Nor does running the two
 * CRT halves' chains alternately (p's squaring, q's, p's ...: one
 * kernel's tail beside the other's head) help: 1.000 +- 0.008 against
 * one chain after the other at 16, 24 and 32 limbs, so the kernels are
 * bound by throughput, not by the latency between products.  What is left to the kernels is then
 * the ALU ports: at 1.28 (n = 32) to 1.43 (n = 16) TSC a product they are
 * within 30% of the MULX/ADCX/ADOX loop alone, while VPMULUDQ ymm issues
 * at 0.40 TSC (four 32x32 products; with a VPADDQ each 0.51-0.59): the
 * vector unit, not these kernels, is where a larger step would come from.
 * Measured since (bench/probes/mont1-avx2.c, vpair.c): a 1024-bit
 * Montgomery squaring on the vector unit alone (29-bit digits in four
 * lanes) takes 612 TSC against this kernel's 514-539, but one of each in
 * one instruction stream (the two CRT halves side by side) takes
 * 1039-1044 against 1088 for two of these: the two do not overlap
 * (front end and window, not ports), so the vector unit does not pay
 * for RSA here either.
 *
 *
 * Measured again 2026-12-02 (bench/probes/rsa-kern.c, core cycles from
 * a chain of ADDs: 0.823-0.828 TSC a core cycle under this load): MULX
 * alone from memory issues at 1.11-1.16 core cycles, but the kernels'
 * row pattern (MULX, ADCX, ADOX, eight a row, no loads of t) takes
 * 1.54 core cycles (1.27 TSC) a product, and MULX with two independent
 * ADDs 1.89: on Zen 3 the multiplier's two ops and the flag-chain adds
 * share ALU pipes.  The kernels run at 1.23-1.29 TSC a product for the
 * multiplication and 1.28-1.36 for the squaring: at that pattern's rate,
 * within 0-7%.  Two more endings tried and dropped: the lazy one with
 * m & -c staged in t's dead low half (the borrow chain not waited on by
 * a select) 0.99-1.00x the select, and the select as VPBLENDVB over
 * 256-bit words 1.00-1.01x (A/B in one process, n = 16, 24, 32): the
 * ALU ops are the same or the select was never on the critical path.
 * perf (cpu-clock) of an RSA-2048 signature: the reduction 51% (the
 * shared .Lreduce16 code), the squaring's cross products 21% and its
 * doubling pass 4.5%, the multiplication's product pass 9%, the final
 * subtraction and select 4.3%, the table scans 3%, the 32-limb products
 * (fault check, blinding) 3.8%, memset 0.1-0.3%, the rest 3%.  What is
 * left is fewer products, and Karatsuba does not give them here: at 32
 * limbs (a one-level trial: the 16x16 product pass of these kernels as a
 * plain product, 318 TSC, and the 32-limb reduction alone, 1396) a
 * multiplication as three plain products, a C combine and the reduction
 * took 2891-2964 against 2719-2768 (0.93-0.94x); with the combine in
 * assembly it might reach ~1.1x, 2% of an RSA-4096 exponentiation, where
 * the squarings (4/5 of it) gain nothing: three plain 16-limb squares
 * take 3 x 220 against the 32-limb squaring's ~780 of cross products and
 * doubling, and the reduction, 64% of that squaring, has no Karatsuba.
 *
 * Both are constant time: MULX, ADCX and ADOX take fixed time, and no
 * branch or address depends on an operand (loop counts on n only).
 */
#include <string.h>
#include "bn-adx.h"

void bnx_mont_mul(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mc,
		  struct bnx_tmp *tmp)
{
	bnx_mul_fn *f = bnx_mul_fixed(mc->n);

	if (f)
		f(r, a, b, mc->m, mc->m0inv, mc->n, tmp->p);
	else if (mc->n % 8)
		bnx_mul_adx(r, a, b, mc->m, mc->m0inv, mc->n, tmp->t);
	else
		bnx_mulr_adx(r, a, b, mc->m, mc->m0inv, mc->n, tmp->p);
}

void bnx_mont_sqr(u64 *r, const u64 *a, const struct bn_mont *mc, struct bnx_tmp *tmp)
{
	bnx_sqr_fn *f = bnx_sqr_fixed(mc->n);

	/* The squaring's reduction runs in blocks of eight words. */
	if (f)
		f(r, a, mc->m, mc->m0inv, mc->n, tmp->p);
	else if (mc->n % 8)
		bnx_mul_adx(r, a, a, mc->m, mc->m0inv, mc->n, tmp->t);
	else
		bnx_sqr_adx(r, a, mc->m, mc->m0inv, mc->n, tmp->p);
}

void bnx_mont_sqrk(u64 *r, const u64 *a, unsigned int k, const struct bn_mont *mc,
		   struct bnx_tmp *tmp)
{
	bnx_sqrk_fn *f = bnx_sqrk_fixed(mc->n);
	unsigned int i;

	if (f) {
		f(r, a, mc->m, mc->m0inv, k, tmp->p);
		return;
	}
	bnx_mont_sqr(r, a, mc, tmp);
	for (i = 1; i < k; i++)
		bnx_mont_sqr(r, r, mc, tmp);
}
