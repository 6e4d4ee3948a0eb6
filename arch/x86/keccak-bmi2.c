// SPDX-License-Identifier: MIT
/*
 * Keccak-f[1600] for x86-64 with BMI1 and BMI2 (FIPS 202 section 3.2),
 * installed as the library permutation (SHA-3, SHAKE, ML-KEM, ML-DSA)
 * when the CPU has both.  ANDN does chi's ~b & c in one instruction and
 * RORX rho's rotations without overwriting their source.
 *
 * The rounds go between the state and a scratch copy one output row at a
 * time, as keccak-avx2.c's: each row loads its five lanes (through pi),
 * applies theta's D, rho and chi (iota on lane 0), stores them and folds
 * them into the next round's column parities, so only the parities, one
 * row and a few temporaries are live -- they fit the 15 registers, where
 * the 25 lanes of the portable rounds (<crypto/keccak-rounds.h>) had the
 * compiler spilling and moving about 200 times a round.  About 1.15x
 * the portable rounds with these instructions on Zen 3 (TSC minima, the
 * scratch wipe included).  Requires: BMI1, BMI2.  No data-dependent
 * branches or lookups.
 */
#include <rind/internal/alg.h>
#include <crypto/keccak.h>
#include <crypto/keccak-rounds.h>

#define BMI2_INLINE static inline __attribute__((always_inline, target("bmi,bmi2")))
#define ROL(x, n) (((x) << (n)) | ((x) >> (64 - (n))))

/* One round from @a into @e; @c: the column parities of @a in, of @e out. */
BMI2_INLINE void round1(const u64 *restrict a, u64 *restrict e, u64 *restrict c, u64 rc)
{
	const u64 d0 = c[4] ^ ROL(c[1], 1), d1 = c[0] ^ ROL(c[2], 1);
	const u64 d2 = c[1] ^ ROL(c[3], 1), d3 = c[2] ^ ROL(c[4], 1);
	const u64 d4 = c[3] ^ ROL(c[0], 1);
	u64 b0, b1, b2, b3, b4, x0, x1, x2, x3, x4;

#define ROW(o, first)								\
	do {									\
		x0 = b0 ^ (~b1 & b2); x1 = b1 ^ (~b2 & b3); x2 = b2 ^ (~b3 & b4);	\
		x3 = b3 ^ (~b4 & b0); x4 = b4 ^ (~b0 & b1);			\
		if (first) {							\
			x0 ^= rc;						\
			c[0] = x0; c[1] = x1; c[2] = x2; c[3] = x3; c[4] = x4;	\
		} else {							\
			c[0] ^= x0; c[1] ^= x1; c[2] ^= x2; c[3] ^= x3; c[4] ^= x4; \
		}								\
		e[o] = x0; e[o + 1] = x1; e[o + 2] = x2; e[o + 3] = x3; e[o + 4] = x4; \
	} while (0)

	/* rho offsets and pi as in <crypto/keccak-rounds.h> */
	b0 = a[0] ^ d0;
	b1 = ROL(a[6] ^ d1, 44);
	b2 = ROL(a[12] ^ d2, 43);
	b3 = ROL(a[18] ^ d3, 21);
	b4 = ROL(a[24] ^ d4, 14);
	ROW(0, 1);
	b0 = ROL(a[3] ^ d3, 28);
	b1 = ROL(a[9] ^ d4, 20);
	b2 = ROL(a[10] ^ d0, 3);
	b3 = ROL(a[16] ^ d1, 45);
	b4 = ROL(a[22] ^ d2, 61);
	ROW(5, 0);
	b0 = ROL(a[1] ^ d1, 1);
	b1 = ROL(a[7] ^ d2, 6);
	b2 = ROL(a[13] ^ d3, 25);
	b3 = ROL(a[19] ^ d4, 8);
	b4 = ROL(a[20] ^ d0, 18);
	ROW(10, 0);
	b0 = ROL(a[4] ^ d4, 27);
	b1 = ROL(a[5] ^ d0, 36);
	b2 = ROL(a[11] ^ d1, 10);
	b3 = ROL(a[17] ^ d2, 15);
	b4 = ROL(a[23] ^ d3, 56);
	ROW(15, 0);
	b0 = ROL(a[2] ^ d2, 62);
	b1 = ROL(a[8] ^ d3, 55);
	b2 = ROL(a[14] ^ d4, 39);
	b3 = ROL(a[15] ^ d0, 41);
	b4 = ROL(a[21] ^ d1, 2);
	ROW(20, 0);
#undef ROW
}

static __attribute__((target("bmi,bmi2"))) void keccak_f1600_bmi2(u64 a[25])
{
	u64 e[25], c[5];
	unsigned int x, round;

	for (x = 0; x < 5; x++)
		c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
	for (round = 0; round < 24; round += 2) {
		round1(a, e, c, keccak_round_constants[round]);
		round1(e, a, c, keccak_round_constants[round + 1]);
	}
	/*
	 * e is the state one round back (the permutation is invertible: it
	 * gives away what was absorbed).  Plain volatile stores: a call to
	 * memzero_explicit cost more than the 30 stores.
	 */
	for (x = 0; x < 25; x++)
		((volatile u64 *)e)[x] = 0;
	for (x = 0; x < 5; x++)
		((volatile u64 *)c)[x] = 0;
}

static int keccak_bmi2_mod_init(void)
{
	if (rind_cpu_has(RIND_X86_BMI1) && rind_cpu_has(RIND_X86_BMI2))
		rind_keccak_set_f1600(keccak_f1600_bmi2);
	return 0;
}
module_init(keccak_bmi2_mod_init);
