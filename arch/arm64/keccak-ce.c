// SPDX-License-Identifier: MIT
/*
 * Keccak-f[1600] with the Armv8.2 SHA3 instructions, one state and two.
 * sha3-ce.c registers the "sha3-*-ce"/"shake*-ce" drivers over the
 * one-state form and installs it for the library's own users (ML-KEM,
 * ML-DSA); mlkem-neon.c runs the two-way form.  No driver here.
 * Requires: SHA3, ASIMD (HWCAP_SHA3); callers check.
 *
 * Each lane lives in a 64-bit vector lane; theta's column parities are two
 * EOR3 each, its D values one RAX1 each (C[x-1] ^ ROL(C[x+1], 1)), rho and
 * pi together one XAR per lane (ROR(a ^ D, 64 - r), the rotation an
 * immediate, so the rounds are written out per lane; the (0,0) lane has
 * r = 0 and takes a plain EOR), chi one BCAX per lane (b ^ (b2 & ~b1)).
 * The one-state form keeps its state in lane 0 (lane 1 computes a copy
 * and is dropped); rind_keccakx2_f1600_ce runs the same rounds on
 * two states, one per lane (keccak-x2.h), for the ML-KEM drivers' matrix
 * expansion and noise (mlkem-neon.c).
 *
 * Constant time: EOR3, RAX1, XAR, BCAX, EOR and DUP/UMOV are
 * data-independent under PSTATE.DIT; no branch or index depends on the
 * state.
 *
 * Expected speed (Neoverse V1 Software Optimization Guide: EOR3/BCAX/
 * RAX1/XAR 2 cycles latency, on two of the four vector pipes; N1 has no
 * SHA3): about 95 of these instructions per round, some 50 cycles per
 * round and 1200 per permutation, about 9 cycles/byte for SHA3-256 (136-
 * byte rate) -- close to scalar on V1, ahead of it on Apple cores, whose
 * four vector pipes all take them.  The two-way form costs the same per
 * permutation and hashes two streams: about 4.5 cycles/byte per stream on
 * V1, some 3 on Apple M1-M4 (estimates).
 */
#include <arm_neon.h>
#include <crypto/keccak.h>
#include <crypto/keccak-rounds.h>
#include "keccak-x2.h"

/* gcc declares the SHA3 intrinsics for armv8.2-a+sha3. */
#ifdef __clang__
#define SHA3_TARGET	/* clang: -march=armv8.2-a+sha3 for this file (Makefile) */
#else
#define SHA3_TARGET __attribute__((target("arch=armv8.2-a+sha3")))
#endif

/* The rho offsets and the pi moves of FIPS 202 3.2.2-3.2.3, per lane. */
#define KECCAK_CE_VARS							\
	uint64x2_t a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16,	\
		a17, a18, a19, a20, a21, a22, a23, a24;				\
	uint64x2_t b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15, b16,	\
		b17, b18, b19, b20, b21, b22, b23, b24;				\
	uint64x2_t c0, c1, c2, c3, c4, d0, d1, d2, d3, d4

/* Lane i of the state(s) from/to X(i) (an lvalue or load expression). */
#define KECCAK_CE_LOAD(X)						\
	do {								\
		a0 = X(0); a1 = X(1); a2 = X(2); a3 = X(3); a4 = X(4);	\
		a5 = X(5); a6 = X(6); a7 = X(7); a8 = X(8); a9 = X(9);	\
		a10 = X(10); a11 = X(11); a12 = X(12); a13 = X(13); a14 = X(14);	\
		a15 = X(15); a16 = X(16); a17 = X(17); a18 = X(18); a19 = X(19);	\
		a20 = X(20); a21 = X(21); a22 = X(22); a23 = X(23); a24 = X(24);	\
	} while (0)
#define KECCAK_CE_STORE(S)						\
	do {								\
		S(0, a0); S(1, a1); S(2, a2); S(3, a3); S(4, a4);	\
		S(5, a5); S(6, a6); S(7, a7); S(8, a8); S(9, a9);	\
		S(10, a10); S(11, a11); S(12, a12); S(13, a13); S(14, a14);	\
		S(15, a15); S(16, a16); S(17, a17); S(18, a18); S(19, a19);	\
		S(20, a20); S(21, a21); S(22, a22); S(23, a23); S(24, a24);	\
	} while (0)

/*
 * One round on the state in a0..a24 (b0..b24, c0..c4, d0..d4 scratch),
 * both vector lanes at once; RC the round constant.
 */
#define KECCAK_CE_ROUND(RC)							\
	do {								\
		c0 = veor3q_u64(veor3q_u64(a0, a5, a10), a15, a20);	\
		c1 = veor3q_u64(veor3q_u64(a1, a6, a11), a16, a21);	\
		c2 = veor3q_u64(veor3q_u64(a2, a7, a12), a17, a22);	\
		c3 = veor3q_u64(veor3q_u64(a3, a8, a13), a18, a23);	\
		c4 = veor3q_u64(veor3q_u64(a4, a9, a14), a19, a24);	\
		d0 = vrax1q_u64(c4, c1);	\
		d1 = vrax1q_u64(c0, c2);	\
		d2 = vrax1q_u64(c1, c3);	\
		d3 = vrax1q_u64(c2, c4);	\
		d4 = vrax1q_u64(c3, c0);	\
		b0 = veorq_u64(a0, d0);	\
		b10 = vxarq_u64(a1, d1, 63);	\
		b20 = vxarq_u64(a2, d2, 2);	\
		b5 = vxarq_u64(a3, d3, 36);	\
		b15 = vxarq_u64(a4, d4, 37);	\
		b16 = vxarq_u64(a5, d0, 28);	\
		b1 = vxarq_u64(a6, d1, 20);	\
		b11 = vxarq_u64(a7, d2, 58);	\
		b21 = vxarq_u64(a8, d3, 9);	\
		b6 = vxarq_u64(a9, d4, 44);	\
		b7 = vxarq_u64(a10, d0, 61);	\
		b17 = vxarq_u64(a11, d1, 54);	\
		b2 = vxarq_u64(a12, d2, 21);	\
		b12 = vxarq_u64(a13, d3, 39);	\
		b22 = vxarq_u64(a14, d4, 25);	\
		b23 = vxarq_u64(a15, d0, 23);	\
		b8 = vxarq_u64(a16, d1, 19);	\
		b18 = vxarq_u64(a17, d2, 49);	\
		b3 = vxarq_u64(a18, d3, 43);	\
		b13 = vxarq_u64(a19, d4, 56);	\
		b14 = vxarq_u64(a20, d0, 46);	\
		b24 = vxarq_u64(a21, d1, 62);	\
		b9 = vxarq_u64(a22, d2, 3);	\
		b19 = vxarq_u64(a23, d3, 8);	\
		b4 = vxarq_u64(a24, d4, 50);	\
		a0 = vbcaxq_u64(b0, b2, b1);	\
		a1 = vbcaxq_u64(b1, b3, b2);	\
		a2 = vbcaxq_u64(b2, b4, b3);	\
		a3 = vbcaxq_u64(b3, b0, b4);	\
		a4 = vbcaxq_u64(b4, b1, b0);	\
		a5 = vbcaxq_u64(b5, b7, b6);	\
		a6 = vbcaxq_u64(b6, b8, b7);	\
		a7 = vbcaxq_u64(b7, b9, b8);	\
		a8 = vbcaxq_u64(b8, b5, b9);	\
		a9 = vbcaxq_u64(b9, b6, b5);	\
		a10 = vbcaxq_u64(b10, b12, b11);	\
		a11 = vbcaxq_u64(b11, b13, b12);	\
		a12 = vbcaxq_u64(b12, b14, b13);	\
		a13 = vbcaxq_u64(b13, b10, b14);	\
		a14 = vbcaxq_u64(b14, b11, b10);	\
		a15 = vbcaxq_u64(b15, b17, b16);	\
		a16 = vbcaxq_u64(b16, b18, b17);	\
		a17 = vbcaxq_u64(b17, b19, b18);	\
		a18 = vbcaxq_u64(b18, b15, b19);	\
		a19 = vbcaxq_u64(b19, b16, b15);	\
		a20 = vbcaxq_u64(b20, b22, b21);	\
		a21 = vbcaxq_u64(b21, b23, b22);	\
		a22 = vbcaxq_u64(b22, b24, b23);	\
		a23 = vbcaxq_u64(b23, b20, b24);	\
		a24 = vbcaxq_u64(b24, b21, b20);	\
		a0 = veorq_u64(a0, vdupq_n_u64((RC)));	\
	} while (0)

/* One state, in lane 0 of each register. */
SHA3_TARGET void rind_keccak_f1600_ce(u64 st[25])
{
	KECCAK_CE_VARS;
	int r;

#define LD1(i)		vdupq_n_u64(st[i])
#define ST1(i, v)	(st[i] = vgetq_lane_u64(v, 0))
	KECCAK_CE_LOAD(LD1);
	for (r = 0; r < 24; r++)
		KECCAK_CE_ROUND(keccak_round_constants[r]);
	KECCAK_CE_STORE(ST1);
#undef LD1
#undef ST1
}

/*
 * Two states, one per vector lane (keccak-x2.h: word i of both states
 * side by side, so each register is one LD1/ST1 of 16 bytes).
 */
SHA3_TARGET void rind_keccakx2_f1600_ce(struct keccakx2_state *s)
{
	KECCAK_CE_VARS;
	int r;

#define LD2(i)		vld1q_u64(s->a[i])
#define ST2(i, v)	vst1q_u64(s->a[i], v)
	KECCAK_CE_LOAD(LD2);
	for (r = 0; r < 24; r++)
		KECCAK_CE_ROUND(keccak_round_constants[r]);
	KECCAK_CE_STORE(ST2);
#undef LD2
#undef ST2
}
