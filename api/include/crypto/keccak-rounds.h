/* SPDX-License-Identifier: MIT */
/*
 * The Keccak-f[1600] rounds as an inline body, compiled once portably
 * (algs/keccak.c) and once for BMI1/BMI2 (arch/x86/keccak-bmi2.c: ANDN
 * for chi, RORX for rho), where the instruction choice is the only
 * difference.  Library internal.
 */
#ifndef _RIND_CRYPTO_KECCAK_ROUNDS_H
#define _RIND_CRYPTO_KECCAK_ROUNDS_H

#include <rind/types.h>
#include <rind/internal/util.h>

/* Round constants RC[i] (the LFSR of FIPS 202 Algorithm 5, per round). */
static const u64 keccak_round_constants[24] = {
	0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull,
	0x8000000080008000ull, 0x000000000000808bull, 0x0000000080000001ull,
	0x8000000080008081ull, 0x8000000000008009ull, 0x000000000000008aull,
	0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
	0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull,
	0x8000000000008003ull, 0x8000000000008002ull, 0x8000000000000080ull,
	0x000000000000800aull, 0x800000008000000aull, 0x8000000080008081ull,
	0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull,
};

/*
 * The 24 rounds with the state in 25 local lanes (a<x + 5y>), theta, rho,
 * pi, chi and iota written out per lane.  rho offsets (FIPS 202
 * Algorithm 2, by lane): 0 1 62 28 27 / 36 44 6 55 20 / 3 10 43 25 39 /
 * 41 45 15 21 8 / 18 2 61 56 14; pi moves lane (x, y) to (y, 2x + 3y).
 */
static inline __attribute__((always_inline)) void keccak_f1600_rounds(u64 a[25])
{
	u64 a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4];
	u64 a5 = a[5], a6 = a[6], a7 = a[7], a8 = a[8], a9 = a[9];
	u64 a10 = a[10], a11 = a[11], a12 = a[12], a13 = a[13], a14 = a[14];
	u64 a15 = a[15], a16 = a[16], a17 = a[17], a18 = a[18], a19 = a[19];
	u64 a20 = a[20], a21 = a[21], a22 = a[22], a23 = a[23], a24 = a[24];
	u64 b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12;
	u64 b13, b14, b15, b16, b17, b18, b19, b20, b21, b22, b23, b24;
	u64 c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
	int round;

	for (round = 0; round < 24; round++) {
		c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20;
		c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21;
		c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22;
		c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23;
		c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24;
		d0 = c4 ^ rol64(c1, 1);
		d1 = c0 ^ rol64(c2, 1);
		d2 = c1 ^ rol64(c3, 1);
		d3 = c2 ^ rol64(c4, 1);
		d4 = c3 ^ rol64(c0, 1);
		b0 = a0 ^ d0;
		b10 = rol64(a1 ^ d1, 1);
		b20 = rol64(a2 ^ d2, 62);
		b5 = rol64(a3 ^ d3, 28);
		b15 = rol64(a4 ^ d4, 27);
		b16 = rol64(a5 ^ d0, 36);
		b1 = rol64(a6 ^ d1, 44);
		b11 = rol64(a7 ^ d2, 6);
		b21 = rol64(a8 ^ d3, 55);
		b6 = rol64(a9 ^ d4, 20);
		b7 = rol64(a10 ^ d0, 3);
		b17 = rol64(a11 ^ d1, 10);
		b2 = rol64(a12 ^ d2, 43);
		b12 = rol64(a13 ^ d3, 25);
		b22 = rol64(a14 ^ d4, 39);
		b23 = rol64(a15 ^ d0, 41);
		b8 = rol64(a16 ^ d1, 45);
		b18 = rol64(a17 ^ d2, 15);
		b3 = rol64(a18 ^ d3, 21);
		b13 = rol64(a19 ^ d4, 8);
		b14 = rol64(a20 ^ d0, 18);
		b24 = rol64(a21 ^ d1, 2);
		b9 = rol64(a22 ^ d2, 61);
		b19 = rol64(a23 ^ d3, 56);
		b4 = rol64(a24 ^ d4, 14);
		a0 = b0 ^ (~b1 & b2);
		a1 = b1 ^ (~b2 & b3);
		a2 = b2 ^ (~b3 & b4);
		a3 = b3 ^ (~b4 & b0);
		a4 = b4 ^ (~b0 & b1);
		a5 = b5 ^ (~b6 & b7);
		a6 = b6 ^ (~b7 & b8);
		a7 = b7 ^ (~b8 & b9);
		a8 = b8 ^ (~b9 & b5);
		a9 = b9 ^ (~b5 & b6);
		a10 = b10 ^ (~b11 & b12);
		a11 = b11 ^ (~b12 & b13);
		a12 = b12 ^ (~b13 & b14);
		a13 = b13 ^ (~b14 & b10);
		a14 = b14 ^ (~b10 & b11);
		a15 = b15 ^ (~b16 & b17);
		a16 = b16 ^ (~b17 & b18);
		a17 = b17 ^ (~b18 & b19);
		a18 = b18 ^ (~b19 & b15);
		a19 = b19 ^ (~b15 & b16);
		a20 = b20 ^ (~b21 & b22);
		a21 = b21 ^ (~b22 & b23);
		a22 = b22 ^ (~b23 & b24);
		a23 = b23 ^ (~b24 & b20);
		a24 = b24 ^ (~b20 & b21);
		a0 ^= keccak_round_constants[round];
	}

	a[0] = a0; a[1] = a1; a[2] = a2; a[3] = a3; a[4] = a4;
	a[5] = a5; a[6] = a6; a[7] = a7; a[8] = a8; a[9] = a9;
	a[10] = a10; a[11] = a11; a[12] = a12; a[13] = a13; a[14] = a14;
	a[15] = a15; a[16] = a16; a[17] = a17; a[18] = a18; a[19] = a19;
	a[20] = a20; a[21] = a21; a[22] = a22; a[23] = a23; a[24] = a24;
}

#endif /* _RIND_CRYPTO_KECCAK_ROUNDS_H */
