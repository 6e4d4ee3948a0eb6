// SPDX-License-Identifier: MIT
/*
 * The IFMA engine's batch exponentiation (rsa.h: exp_ct_lanes): up to
 * eight exponentiations modulo one CRT prime by one exponent, one a
 * 64-bit lane (bn-ifma-mb.c's AMM).  The batch signer (rsa.c:
 * rsa_private_batch, crypto_sig_sign_batch of the -ifma pkcs1 and pss
 * drivers) runs it twice per eight signatures, mod p with dp and mod q
 * with dq: the key is shared, each lane's input is its own signature's,
 * blinded with its own factor.
 *
 * The exponent is the same in every lane, so is each window's table
 * index: still secret (it is the key's), so the table is scanned whole
 * for every window and the entry kept by mask (bnm_select), as in the
 * single path.  Fixed 5-bit windows over all 64 en bits, the window's
 * five squarings one bnm_amm_sqrk call (the squaring kernel), the
 * Montgomery form at the seam (R = 2^(64 n)) converted on entry by one
 * AMM by R'^2 / R and back by one AMM by R mod m, then one masked
 * subtraction; the table, the accumulators and the constants (m is a
 * prime of the key) wiped at the end.
 *
 * Cost (a model: this was written on a CPU without AVX-512 and ran only
 * under tests/emu's emulation, which checks results, not speed).  An
 * RSA-2048 half: 1024 squarings and 237 other AMMs (205 windows, 30 for
 * the table, 2 conversions).  VPMADD52 per AMM of eight numbers
 * (bn-ifma-mb.c): 1240 a squaring, 1620 a product, so one pass is
 * 1024 x 1240 + 237 x 1620 = 1.65M and a batch of eight signatures two
 * passes, 3.31M, 413k a signature.  The single path (rsa-ifma.c) runs a
 * signature's two halves as 1261 AMMs of the x2 layout at 420 VPMADD52
 * each, 530k, plus ~300 permutes and adds an AMM that the lanes do not
 * need, and (when this was written) a chain from one digit to the next
 * of ~17 cycles that kept it at ~340 cycles an AMM; bn-ifma.c now takes
 * 14, and the single path's rows are bound by the VPMADD52s.
 * Eight signatures: 8 x 1261 = 10.1k x2 AMMs (4.24M VPMADD52) against
 * 2 x 1261 = 2.5k lane AMMs (3.31M).  Bound by one 512-bit IFMA port,
 * the batch is 1.28x the single path at eight; where the single path is
 * latency-bound (two ports) ~2x.  RSA-3072 (halves of 30 digits here,
 * 32 in the x2 layout): 1536 squarings and 339 products, 2 x (1536 x
 * 2760 + 339 x 3630) = 10.9M a batch against 8 x 1875 x 1056 = 15.8M,
 * 1.45x.  A pass costs the same whatever number of its lanes is used, so
 * a short batch is cheaper one signature at a time below ~6.3 signatures
 * (2048, one port; 5.5 at 3072) by this model.  Measured on Zen 5
 * (bench/probes/rsa-peer.c, TSC minima, loaded host): a pass of eight
 * RSA-2048 halves 0.83M TSC cycles (~660 an AMM; 1.11M with the rolled
 * column loops of the first version), one half alone on the single path
 * ~460k, a whole single signature ~550k (its halves together, exp_ct2):
 * a batch of eight signatures 1.95M, break-even between 3 and 4
 * signatures, RSA_IFMA_MB_MIN (rsa-ifma.c) is 4; at RSA-3072 a pass is
 * ~3.4M against ~1.35M a single signature, RSA_IFMA_MB_MIN_3072 is 6.
 * Since then the single path is ~20% faster (bn-ifma.c's y chain):
 * RSA-2048 single ~415k TSC, a batch of eight ~1.76M (2.45-2.50x
 * aws-lc's one at a time; the two passes ~1.59M of it), so the
 * break-even counts moved up (rsa-ifma.c: RSA_IFMA_MB_MIN 5, 7 at 3072).
 *
 * bnm_exp_vt: the batch's fault checks (rsa.h: exp_vt_lanes), e public,
 * left to right over its bits as bni_exp_vt2 (rsa-ifma.c), ~15k TSC
 * cycles for eight RSA-2048 halves.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rind/types.h>
#include <rind/internal/util.h>
#include <crypto/bignum.h>
#include <crypto/rsa.h>
#include "bn-ifma-mb.h"

#define WIN	5
#define TBL	(1u << WIN)

struct mb_scratch {
	struct bnm_num table[TBL];
	struct bnm_num acc, sel, x;
	struct bnm_mont c;
};

int bnm_exp_ct(u64 *const *r, const u64 *const *a, unsigned int cnt, const u64 *e,
	       unsigned int en, const struct bn_mont *mc)
{
	unsigned int nb = 64 * en, pos, first, i;
	struct mb_scratch *w;

	/* 40-60 KiB: off the stack (the daemon's threads). */
	w = aligned_alloc(64, sizeof(*w));
	if (!w)
		return -ENOMEM;
	bnm_mont_init(&w->c, mc);
	bnm_pack(&w->x, a, cnt, &w->c);
	/* table[i] = a^i R' in every lane: R', then a R' = (a R) (R'^2 / R) / R' */
	bnm_amm(&w->table[0], &w->c.one, &w->c.rr, &w->c);
	bnm_amm(&w->table[1], &w->x, &w->c.rr, &w->c);
	for (i = 2; i < TBL; i++) {
		if (i & 1)
			bnm_amm(&w->table[i], &w->table[i - 1], &w->table[1], &w->c);
		else
			bnm_amm_sqrk(&w->table[i], &w->table[i / 2], 1, &w->c);
	}
	/* The top window is what is left over above the 5-bit ones. */
	first = nb % WIN ? nb % WIN : WIN;
	pos = nb - first;
	bnm_select(&w->acc, w->table, TBL, rsa_exp_window(e, en, pos, first), &w->c);
	while (pos) {
		pos -= WIN;
		bnm_amm_sqrk(&w->acc, &w->acc, WIN, &w->c);
		bnm_select(&w->sel, w->table, TBL, rsa_exp_window(e, en, pos, WIN), &w->c);
		bnm_amm(&w->acc, &w->acc, &w->sel, &w->c);
	}
	/* x R' -> x R (below 2 m), then below m */
	bnm_amm(&w->acc, &w->acc, &w->c.one, &w->c);
	bnm_unpack_reduce(r, cnt, &w->acc, &w->c);
	memzero_explicit(w, sizeof(*w));
	free(w);
	return 0;
}

struct mb_vt_scratch {
	struct bnm_num x, base, acc;
	struct bnm_mont c;
};

int bnm_exp_vt(u64 *const *r, const u64 *const *a, unsigned int cnt, u64 e,
	       const struct bn_mont *mc)
{
	struct mb_vt_scratch *w;
	unsigned int run = 0;
	int i;

	w = aligned_alloc(64, sizeof(*w));
	if (!w)
		return -ENOMEM;
	bnm_mont_init(&w->c, mc);
	bnm_pack(&w->x, a, cnt, &w->c);
	if (!e) {
		w->acc = w->c.one;			/* R mod m, below m */
	} else {
		/* a R', then left to right over e's bits (public) */
		bnm_amm(&w->base, &w->x, &w->c.rr, &w->c);
		w->acc = w->base;
		for (i = 62 - __builtin_clzll(e); i >= 0; i--) {
			run++;
			if ((e >> i) & 1) {
				bnm_amm_sqrk(&w->acc, &w->acc, run, &w->c);
				bnm_amm(&w->acc, &w->acc, &w->base, &w->c);
				run = 0;
			}
		}
		bnm_amm_sqrk(&w->acc, &w->acc, run, &w->c);
		bnm_amm(&w->acc, &w->acc, &w->c.one, &w->c);
	}
	bnm_unpack_reduce(r, cnt, &w->acc, &w->c);
	/* the a[l] are secret (signatures being checked), and so is m */
	memzero_explicit(w, sizeof(*w));
	free(w);
	return 0;
}
