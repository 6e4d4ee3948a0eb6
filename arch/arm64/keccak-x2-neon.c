// SPDX-License-Identifier: MIT
/*
 * Two Keccak-f[1600] permutations at once with plain ASIMD, one state per
 * 64-bit lane (keccak-x2.h), for the ML-KEM drivers (mlkem-neon.c) on
 * CPUs without the SHA3 instructions (Neoverse N1, Cortex-A72/A76,
 * Graviton 2).  Requires: ASIMD.  No driver name of its own: mlkem-neon.c
 * calls it, or keccak-ce.c's rind_keccakx2_f1600_ce where HWCAP_SHA3.
 *
 * The rounds of FIPS 202 3.2 written out per lane, as in keccak-ce.c, with
 * the SHA3 instructions spelled in base ASIMD: EOR3 as two EORs, a
 * rotation as SHL then SRI (shift right and insert) by the complementary
 * amount, RAX1 as that rotation by 1 and an EOR, BCAX as BIC then EOR.
 *
 * Constant time: EOR, BIC, SHL, SRI, LD1/ST1 and DUP only, data-independent
 * under PSTATE.DIT; the rotation amounts are immediates, no branch or
 * address depends on the state.
 *
 * Expected speed, an estimate (no arm64 hardware here; Neoverse N1
 * Software Optimization Guide: EOR/BIC 1 cycle on both vector pipes,
 * SHL/SRI 2 cycles on one of them, V1): per round 40 EOR for theta,
 * 5 x 3 for the D values, 24 x 3 for rho/pi, 50 for chi, about 180
 * instructions, 100-110 cycles on N1's two pipes, some 2500 cycles per
 * two-way permutation: about 7.5 cycles/byte per SHAKE128 stream (168-byte
 * rate), against some 9-10 for N1's scalar Keccak on one stream -- the
 * vector pipes are otherwise idle, so the gain is modest, and this path is
 * chosen only without SHA3.  On V1/Apple cores keccak-ce.c's form is
 * used instead.
 */
#include <arm_neon.h>
#include <crypto/keccak-rounds.h>
#include "keccak-x2.h"

/* ROL(x, n), 0 < n < 64: SHL then SRI. */
#define ROL(x, n)	vsriq_n_u64(vshlq_n_u64((x), (n)), (x), 64 - (n))

void rind_keccakx2_f1600_neon(struct keccakx2_state *s)
{
	uint64x2_t a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16,
		a17, a18, a19, a20, a21, a22, a23, a24;
	uint64x2_t b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15, b16,
		b17, b18, b19, b20, b21, b22, b23, b24;
	uint64x2_t c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
	int r;

	a0 = vld1q_u64(s->a[0]);
	a1 = vld1q_u64(s->a[1]);
	a2 = vld1q_u64(s->a[2]);
	a3 = vld1q_u64(s->a[3]);
	a4 = vld1q_u64(s->a[4]);
	a5 = vld1q_u64(s->a[5]);
	a6 = vld1q_u64(s->a[6]);
	a7 = vld1q_u64(s->a[7]);
	a8 = vld1q_u64(s->a[8]);
	a9 = vld1q_u64(s->a[9]);
	a10 = vld1q_u64(s->a[10]);
	a11 = vld1q_u64(s->a[11]);
	a12 = vld1q_u64(s->a[12]);
	a13 = vld1q_u64(s->a[13]);
	a14 = vld1q_u64(s->a[14]);
	a15 = vld1q_u64(s->a[15]);
	a16 = vld1q_u64(s->a[16]);
	a17 = vld1q_u64(s->a[17]);
	a18 = vld1q_u64(s->a[18]);
	a19 = vld1q_u64(s->a[19]);
	a20 = vld1q_u64(s->a[20]);
	a21 = vld1q_u64(s->a[21]);
	a22 = vld1q_u64(s->a[22]);
	a23 = vld1q_u64(s->a[23]);
	a24 = vld1q_u64(s->a[24]);
	for (r = 0; r < 24; r++) {
		c0 = veorq_u64(veorq_u64(veorq_u64(a0, a5), veorq_u64(a10, a15)), a20);
		c1 = veorq_u64(veorq_u64(veorq_u64(a1, a6), veorq_u64(a11, a16)), a21);
		c2 = veorq_u64(veorq_u64(veorq_u64(a2, a7), veorq_u64(a12, a17)), a22);
		c3 = veorq_u64(veorq_u64(veorq_u64(a3, a8), veorq_u64(a13, a18)), a23);
		c4 = veorq_u64(veorq_u64(veorq_u64(a4, a9), veorq_u64(a14, a19)), a24);
		d0 = veorq_u64(c4, ROL(c1, 1));
		d1 = veorq_u64(c0, ROL(c2, 1));
		d2 = veorq_u64(c1, ROL(c3, 1));
		d3 = veorq_u64(c2, ROL(c4, 1));
		d4 = veorq_u64(c3, ROL(c0, 1));
		b0 = veorq_u64(a0, d0);
		b10 = ROL(veorq_u64(a1, d1), 1);
		b20 = ROL(veorq_u64(a2, d2), 62);
		b5 = ROL(veorq_u64(a3, d3), 28);
		b15 = ROL(veorq_u64(a4, d4), 27);
		b16 = ROL(veorq_u64(a5, d0), 36);
		b1 = ROL(veorq_u64(a6, d1), 44);
		b11 = ROL(veorq_u64(a7, d2), 6);
		b21 = ROL(veorq_u64(a8, d3), 55);
		b6 = ROL(veorq_u64(a9, d4), 20);
		b7 = ROL(veorq_u64(a10, d0), 3);
		b17 = ROL(veorq_u64(a11, d1), 10);
		b2 = ROL(veorq_u64(a12, d2), 43);
		b12 = ROL(veorq_u64(a13, d3), 25);
		b22 = ROL(veorq_u64(a14, d4), 39);
		b23 = ROL(veorq_u64(a15, d0), 41);
		b8 = ROL(veorq_u64(a16, d1), 45);
		b18 = ROL(veorq_u64(a17, d2), 15);
		b3 = ROL(veorq_u64(a18, d3), 21);
		b13 = ROL(veorq_u64(a19, d4), 8);
		b14 = ROL(veorq_u64(a20, d0), 18);
		b24 = ROL(veorq_u64(a21, d1), 2);
		b9 = ROL(veorq_u64(a22, d2), 61);
		b19 = ROL(veorq_u64(a23, d3), 56);
		b4 = ROL(veorq_u64(a24, d4), 14);
		a0 = veorq_u64(b0, vbicq_u64(b2, b1));
		a1 = veorq_u64(b1, vbicq_u64(b3, b2));
		a2 = veorq_u64(b2, vbicq_u64(b4, b3));
		a3 = veorq_u64(b3, vbicq_u64(b0, b4));
		a4 = veorq_u64(b4, vbicq_u64(b1, b0));
		a5 = veorq_u64(b5, vbicq_u64(b7, b6));
		a6 = veorq_u64(b6, vbicq_u64(b8, b7));
		a7 = veorq_u64(b7, vbicq_u64(b9, b8));
		a8 = veorq_u64(b8, vbicq_u64(b5, b9));
		a9 = veorq_u64(b9, vbicq_u64(b6, b5));
		a10 = veorq_u64(b10, vbicq_u64(b12, b11));
		a11 = veorq_u64(b11, vbicq_u64(b13, b12));
		a12 = veorq_u64(b12, vbicq_u64(b14, b13));
		a13 = veorq_u64(b13, vbicq_u64(b10, b14));
		a14 = veorq_u64(b14, vbicq_u64(b11, b10));
		a15 = veorq_u64(b15, vbicq_u64(b17, b16));
		a16 = veorq_u64(b16, vbicq_u64(b18, b17));
		a17 = veorq_u64(b17, vbicq_u64(b19, b18));
		a18 = veorq_u64(b18, vbicq_u64(b15, b19));
		a19 = veorq_u64(b19, vbicq_u64(b16, b15));
		a20 = veorq_u64(b20, vbicq_u64(b22, b21));
		a21 = veorq_u64(b21, vbicq_u64(b23, b22));
		a22 = veorq_u64(b22, vbicq_u64(b24, b23));
		a23 = veorq_u64(b23, vbicq_u64(b20, b24));
		a24 = veorq_u64(b24, vbicq_u64(b21, b20));
		a0 = veorq_u64(a0, vdupq_n_u64(keccak_round_constants[r]));
	}
	vst1q_u64(s->a[0], a0);
	vst1q_u64(s->a[1], a1);
	vst1q_u64(s->a[2], a2);
	vst1q_u64(s->a[3], a3);
	vst1q_u64(s->a[4], a4);
	vst1q_u64(s->a[5], a5);
	vst1q_u64(s->a[6], a6);
	vst1q_u64(s->a[7], a7);
	vst1q_u64(s->a[8], a8);
	vst1q_u64(s->a[9], a9);
	vst1q_u64(s->a[10], a10);
	vst1q_u64(s->a[11], a11);
	vst1q_u64(s->a[12], a12);
	vst1q_u64(s->a[13], a13);
	vst1q_u64(s->a[14], a14);
	vst1q_u64(s->a[15], a15);
	vst1q_u64(s->a[16], a16);
	vst1q_u64(s->a[17], a17);
	vst1q_u64(s->a[18], a18);
	vst1q_u64(s->a[19], a19);
	vst1q_u64(s->a[20], a20);
	vst1q_u64(s->a[21], a21);
	vst1q_u64(s->a[22], a22);
	vst1q_u64(s->a[23], a23);
	vst1q_u64(s->a[24], a24);
}
