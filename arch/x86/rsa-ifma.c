// SPDX-License-Identifier: MIT
/*
 * RSA engine for x86-64 with AVX-512 IFMA (crypto/rsa.h): the drivers
 * "pkcs1-rsa-sha256-ifma", "pss-rsa-sha256-ifma", "oaep-rsa-sha256-ifma"
 * (and the sha384, sha512 ones), priority 400, above the ADX ones.
 * Requires: AVX512F, AVX512IFMA (the exponentiations); BMI2 and ADX are
 * used where present (the other operations, below).
 *
 * What it supplies is exp_ct2 (rsa.h): the two CRT exponentiations of a
 * private-key operation side by side, p's digits in the even lanes of each
 * zmm register and q's in the odd ones (bn-ifma.h: the x2 layout), as one
 * AMM kernel of 52-bit digits (bn-ifma.c) running both.  The same layout
 * serves all three sizes, 1024-, 1536- and 2048-bit halves (RSA-2048,
 * 3072, 4096: 5, 8 and 10 registers a number), not one exponentiation at
 * a time: the kernel's dependency chain (one y digit to the next, ~17
 * cycles) is then shared by the two halves.  Blinding, CRT recombination, the fault check and the
 * padding are the shared C (algs/rsa*.c), as for every engine.
 *
 * exp_ct2: fixed 5-bit windows over every bit of the two exponents (the
 * same positions in both), the 32-entry table of each half scanned whole
 * for every window and the entry kept by mask (bni_select: a VPCMPEQQ
 * mask per entry, one half's index in each of its lanes); the window's
 * five squarings one bni_amm_sqrk call.  The Montgomery form at the seam
 * (R = 2^(64 n)) is converted on entry by one AMM by R'^2 / R and back on
 * exit by one AMM by R mod m, then reduced below m by one masked
 * subtraction (the AMM's values stay below 2 m in between).  The table,
 * the accumulator, the constants (p, q are secret) and the operands are
 * wiped at the end.
 *
 * Batches (crypto_sig_sign_batch of the pkcs1 and pss drivers): exp_ct_lanes,
 * eight exponentiations modulo one prime in lanes (rsa-ifma-mb.c over
 * bn-ifma-mb.c), for RSA-2048 and 3072 keys; rsa.c's rsa_private_batch
 * runs it mod p and mod q for each group of seven or eight signatures.
 *
 * Everything else -- exp_ct on one modulus (keygen's candidates, the
 * sizes that do not fit: unbalanced halves, 2056-bit keys, 6144 and
 * 8192 bits), the public exponentiations (e = 65537: 17 products, which
 * the ADX engine's exp_pub already does with the conversions folded in)
 * and the shared code's single products -- goes to the ADX engine where
 * BMI2 and ADX are, else to the generic one.
 *
 * Cost (an estimate; see the end): an RSA-2048 signature's two
 * exponentiations are each 1024 squarings and ~237 products (205
 * windows, 30 for the table, 2 conversions) of 16 limbs.  Here they are
 * 1261 x2 AMMs of 420 VPMADD52 each (bn-ifma.c), 530k IFMA instructions
 * for both halves, plus per AMM ~140 permutes and ~160 adds; the ADX
 * engine takes ~1024 x 392 + 237 x 512 = 523k MULX for each half, 1.05M
 * for both.  Measured on Zen 5 (2026-12-02, loaded host): an AMM of
 * the pair ~300 TSC cycles at 1024 bits (15 a row, bound by the
 * VPMADD52s once bn-ifma.c took the y chain from 23 to 14 cycles; 18.6
 * a row before), a whole RSA-2048 signature ~410-420k TSC, 1.29-1.31x
 * aws-lc 5.5 (bench/probes/rsa-peer.c, interleaved, minima and
 * on-CPU medians of 9 rounds; 1.02x before), RSA-3072 ~1.06M (1.56x),
 * RSA-4096 ~1.89M (1.88x).
 *
 * Zen 4 (2026-12-03) runs each 512-bit instruction as two 256-bit
 * halves: one zmm VPMADD52 a cycle, about two zmm instructions of any
 * kind a cycle, and a zmm VPERMT2Q takes a VPMADD52's slot.  There the
 * AMM of the pair is ~600 core cycles at 1024 bits (~30 a row against
 * the 21 VPMADD52s' 21), 1220 at 1536 and ~1850 at 2048.  The halves
 * interleaved lane by lane (one VALIGNQ a register for the shift, not a
 * VPERMT2Q), 30 digits for 1536 bits, and the y chain first in each row
 * took RSA-2048 signing from 0.91x aws-lc to 1.03-1.04x, RSA-3072 from
 * 0.81x to 0.99-1.00x and RSA-4096 from 0.84x to 1.03-1.04x
 * (../shared/peers/run, two runs of 3 rounds).  What bounds the row there is the y chain together with the
 * count of zmm instructions; fewer VPMADD52s for the squarings (the
 * cross terms once, doubled) would be the next step: a product-then-
 * reduce squaring measured here lost, as its reduction rows alone are
 * chain-bound at ~21 cycles.
 *
 * The fault check (rsa.c: m^e = c mod p and mod q where the engine has
 * exp_vt2) is bni_exp_vt2: both halves' exponentiations by e side by
 * side, 19 AMMs of the pair, ~7k TSC cycles with the conversions against
 * ~24k for the ADX engine's exp_pub mod n; a batch's are in lanes
 * (exp_vt_lanes, rsa-ifma-mb.c), ~30k for eight against ~57k.
 */
#include <stdlib.h>
#include <string.h>
#include <rind/types.h>
#include <rind/internal/alg.h>
#include <rind/internal/util.h>
#include <crypto/rsa.h>
#include "bn-adx.h"
#include "bn-ifma.h"
#include "bn-ifma-mb.h"

#define WIN	5
#define TBL	(1u << WIN)

/* The engine the other operations go to (rsa_ifma_mod_init). */
static const struct rsa_engine *fallback = &rsa_engine_generic;

struct exp2_scratch {
	struct bni_num table[TBL];
	struct bni_num acc, sel, x;
	struct bni_mont2 c;
};

void bni_exp_ct2(u64 *r1, const u64 *a1, const u64 *e1, const struct bn_mont *mc1,
		 u64 *r2, const u64 *a2, const u64 *e2, const struct bn_mont *mc2,
		 unsigned int en)
{
	unsigned int nb = 64 * en, pos, first, i;
	struct exp2_scratch *w;

	/* 20-40 KiB: off the stack (the daemon's threads). */
	w = aligned_alloc(64, sizeof(*w));
	if (!w) {
		fallback->exp_ct(r1, a1, e1, en, mc1);
		fallback->exp_ct(r2, a2, e2, en, mc2);
		return;
	}
	bni_mont2_init(&w->c, mc1, mc2);
	bni_pack(&w->x, a1, a2, &w->c);
	/* table[i] = a^i R' per half: R', then a R' = (a R) (R'^2 / R) / R' */
	bni_amm(&w->table[0], &w->c.one, &w->c.rr, &w->c);
	bni_amm(&w->table[1], &w->x, &w->c.rr, &w->c);
	for (i = 2; i < TBL; i++) {
		if (i & 1)
			bni_amm(&w->table[i], &w->table[i - 1], &w->table[1], &w->c);
		else
			bni_amm_sqrk(&w->table[i], &w->table[i / 2], 1, &w->c);
	}
	/* The top window is what is left over above the 5-bit ones. */
	first = nb % WIN ? nb % WIN : WIN;
	pos = nb - first;
	bni_select(&w->acc, w->table, TBL, rsa_exp_window(e1, en, pos, first),
		   rsa_exp_window(e2, en, pos, first), &w->c);
	while (pos) {
		pos -= WIN;
		bni_amm_sqrk(&w->acc, &w->acc, WIN, &w->c);
		bni_select(&w->sel, w->table, TBL, rsa_exp_window(e1, en, pos, WIN),
			   rsa_exp_window(e2, en, pos, WIN), &w->c);
		bni_amm(&w->acc, &w->acc, &w->sel, &w->c);
	}
	/* x R' -> x R (below 2 m), then below m */
	bni_amm(&w->acc, &w->acc, &w->c.one, &w->c);
	bni_unpack_reduce(r1, r2, &w->acc, &w->c);
	memzero_explicit(w, sizeof(*w));
	free(w);
}

struct vt2_scratch {
	struct bni_num x, base, acc;
	struct bni_mont2 c;
};

void bni_exp_vt2(u64 *r1, const u64 *a1, const struct bn_mont *mc1,
		 u64 *r2, const u64 *a2, const struct bn_mont *mc2, u64 e)
{
	struct vt2_scratch w;
	unsigned int run = 0;
	int i;

	bni_mont2_init(&w.c, mc1, mc2);
	bni_pack(&w.x, a1, a2, &w.c);
	if (!e) {
		w.acc = w.c.one;			/* R mod m, below m */
	} else {
		/* a R' = (a R) (R'^2 / R) / R', then left to right over e's bits (public) */
		bni_amm(&w.base, &w.x, &w.c.rr, &w.c);
		w.acc = w.base;
		for (i = 62 - __builtin_clzll(e); i >= 0; i--) {
			run++;
			if ((e >> i) & 1) {
				bni_amm_sqrk(&w.acc, &w.acc, run, &w.c);
				bni_amm(&w.acc, &w.acc, &w.base, &w.c);
				run = 0;
			}
		}
		bni_amm_sqrk(&w.acc, &w.acc, run, &w.c);
		/* x R' -> x R (below 2 m) */
		bni_amm(&w.acc, &w.acc, &w.c.one, &w.c);
	}
	bni_unpack_reduce(r1, r2, &w.acc, &w.c);
	/* a is secret (the signature being checked), and so are p and q */
	memzero_explicit(&w, sizeof(w));
}

static void rsa_ifma_exp_vt2(u64 *r1, const u64 *a1, const struct bn_mont *mc1,
			     u64 *r2, const u64 *a2, const struct bn_mont *mc2, u64 e)
{
	/* public: the sizes */
	if (!bni_fits(mc1->n) || mc2->n != mc1->n) {
		fallback->exp_vt(r1, a1, e, mc1);
		fallback->exp_vt(r2, a2, e, mc2);
		return;
	}
	bni_exp_vt2(r1, a1, mc1, r2, a2, mc2, e);
}

static void rsa_ifma_exp_ct2(u64 *r1, const u64 *a1, const u64 *e1, unsigned int en1,
			     const struct bn_mont *mc1,
			     u64 *r2, const u64 *a2, const u64 *e2, unsigned int en2,
			     const struct bn_mont *mc2)
{
	/* public: the sizes */
	if (!bni_fits(mc1->n) || mc2->n != mc1->n || en1 != en2 || !en1) {
		fallback->exp_ct(r1, a1, e1, en1, mc1);
		fallback->exp_ct(r2, a2, e2, en2, mc2);
		return;
	}
	bni_exp_ct2(r1, a1, e1, mc1, r2, a2, e2, mc2, en1);
}

static void rsa_ifma_exp_ct(u64 *r, const u64 *a, const u64 *e, unsigned int en,
			    const struct bn_mont *mc)
{
	fallback->exp_ct(r, a, e, en, mc);
}

static void rsa_ifma_exp_vt(u64 *r, const u64 *a, u64 e, const struct bn_mont *mc)
{
	fallback->exp_vt(r, a, e, mc);
}

static void rsa_ifma_mont_mul(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mc)
{
	if (fallback->mont_mul)
		fallback->mont_mul(r, a, b, mc);
	else
		bn_mont_mul(r, a, b, mc);
}

static void rsa_ifma_exp_pub(u64 *r, const u64 *a, u64 e, const struct bn_mont *mc)
{
	u64 one[BN_MAX_LIMBS];

	if (fallback->exp_pub) {
		fallback->exp_pub(r, a, e, mc);
		return;
	}
	/* the generic engine has none: to_mont, exp_vt, from_mont */
	memset(one, 0, (size_t)mc->n * 8);
	one[0] = 1;
	bn_mont_mul(r, a, mc->rr, mc);
	fallback->exp_vt(r, r, e, mc);
	bn_mont_mul(r, r, one, mc);
}

/*
 * The batch path (rsa.h: exp_ct_lanes): eight numbers modulo one half
 * in lanes (rsa-ifma-mb.c), for the sizes bn-ifma-mb.c serves (RSA-2048
 * and 3072 halves); anything else, or no memory, one at a time.
 */
static void rsa_ifma_exp_ct_lanes(u64 *const *r, const u64 *const *a, unsigned int cnt,
				  const u64 *e, unsigned int en, const struct bn_mont *mc)
{
	unsigned int i;

	/* public: the sizes */
	if (bnm_fits(mc->n) && en && cnt && cnt <= BNM_LANES && !bnm_exp_ct(r, a, cnt, e, en, mc))
		return;
	for (i = 0; i < cnt; i++)
		fallback->exp_ct(r[i], a[i], e, en, mc);
}

/* The batch's fault checks (rsa.h: exp_vt_lanes), as exp_ct_lanes. */
static void rsa_ifma_exp_vt_lanes(u64 *const *r, const u64 *const *a, unsigned int cnt, u64 e,
				  const struct bn_mont *mc)
{
	unsigned int i;

	/* public: the sizes */
	if (bnm_fits(mc->n) && cnt && cnt <= BNM_LANES && !bnm_exp_vt(r, a, cnt, e, mc))
		return;
	for (i = 0; i < cnt; i++)
		fallback->exp_vt(r[i], a[i], e, mc);
}

/*
 * The fewest signatures worth a pass of the lanes: a pass costs the same
 * for one lane or eight.  Measured (AMD Zen 5, bench/probes/rsa-peer.c
 * with PROBE_ALL=1, "sign single N": crypto_sig_sign_batch of N against N
 * crypto_sig_sign, which runs a signature's two halves together, TSC
 * minima over 9 rounds, loaded host), RSA-2048: the lanes (two passes,
 * ~1.8M TSC cycles, then ~36k a signature) 0.84x the single path at 3,
 * 1.09x at 4, 1.30x at 5, 2.04x at 8: break-even between 3 and 4
 * (with the rolled rows of bn-ifma-mb.c, 1.00x at 3, 1.23x at 4).
 * RSA-3072 (a pass of eight halves ~3.4M TSC cycles against ~1.35M for a
 * whole single signature; on-CPU medians of 5 rounds, the host loaded
 * more): 0.68x at 4, ~1.0x at 5, 1.10x at 6, 1.24x at 8: from 6.
 * Measured again once the single path was ~20% faster (bn-ifma.c's y
 * chain; same probe, TSC minima over 5 rounds, loaded host): RSA-2048
 * lanes 0.99x at 4, 1.24x at 5, 1.47x at 6, 1.93x at 8: from 5;
 * RSA-3072 (3 rounds; a pass of eight halves ~3.5M against ~1.02M a
 * single signature): 0.88x at 6, 1.03x at 7, 1.17x at 8: from 7.
 */
#define RSA_IFMA_MB_MIN		5	/* RSA-2048: halves of 16 limbs */
#define RSA_IFMA_MB_MIN_3072	7	/* halves of 24 limbs */

static unsigned int rsa_ifma_lanes_min(unsigned int n)
{
	if (!bnm_fits(n))	/* public: the size */
		return 0;
	return n == 16 ? RSA_IFMA_MB_MIN : RSA_IFMA_MB_MIN_3072;
}

const struct rsa_engine rsa_engine_ifma = {
	.name = "ifma",
	.exp_ct = rsa_ifma_exp_ct,
	.exp_vt = rsa_ifma_exp_vt,
	.mont_mul = rsa_ifma_mont_mul,
	.exp_pub = rsa_ifma_exp_pub,
	.exp_ct2 = rsa_ifma_exp_ct2,
	.exp_vt2 = rsa_ifma_exp_vt2,
	.exp_ct_lanes = rsa_ifma_exp_ct_lanes,
	.exp_vt_lanes = rsa_ifma_exp_vt_lanes,
	.lanes_min = rsa_ifma_lanes_min,
	.lanes = BNM_LANES,
};

static struct rsa_engine_drivers rsa_ifma_drivers;

static int rsa_ifma_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_AVX512F) || !rind_cpu_has(RIND_X86_AVX512IFMA))
		return 0;
	if (rind_cpu_has(RIND_X86_BMI2) && rind_cpu_has(RIND_X86_ADX))
		fallback = &rsa_engine_adx;
	return rsa_register_engine(&rsa_ifma_drivers, &rsa_engine_ifma, 400, "x86");
}

module_init(rsa_ifma_mod_init);
