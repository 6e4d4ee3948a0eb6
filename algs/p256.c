// SPDX-License-Identifier: MIT
/*
 * P-256 (secp256r1), portable C: the curve operations that the
 * "ecdh-nist-p256-generic" kpp and the "ecdsa-nist-p256-generic" sig
 * drivers (algs/ecdh.c, algs/ecdsa.c) are built on.  The point and scalar
 * arithmetic is api/include/crypto/ecc-impl.h's with 4 64-bit limbs, the constants
 * api/include/crypto/ecc-p256.h's; the field multiplication is specialised here to
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1.
 *
 * Montgomery multiplication with R = 2^256: since p = -1 mod 2^64, the
 * reduction multiplier of each word is the word itself (q = t0), and
 * q p = q 2^96 + q (2^64 - 2^32 + 1) 2^192 - q: adding it clears the low
 * word with one 64 x 64-bit product and two shifts.  Operand scanning,
 * one reduction step after each row; the result (below 2p) is reduced by
 * a masked subtraction.  Squaring has its own routine (ten products).
 * Constant time: no branch, no data-dependent index.
 */
#define ECC_N	4
#define ECC_GW	6	/* fixed-base table: 43 windows of 32 affine points (88 KiB) */
#include <rind/types.h>

typedef unsigned __int128 p256_u128;

/* r = t + top 2^256 (< 2p) minus p unless that borrows: fully reduced. */
static inline void p256_final(u64 *r, u64 t0, u64 t1, u64 t2, u64 t3, u64 top)
{
	u64 u0, u1, u2, u3, bw, mask;
	p256_u128 s;

	s = (p256_u128)t0 - 0xffffffffffffffffull;
	u0 = (u64)s;
	bw = (u64)(s >> 64) & 1;
	s = (p256_u128)t1 - 0x00000000ffffffffull - bw;
	u1 = (u64)s;
	bw = (u64)(s >> 64) & 1;
	s = (p256_u128)t2 - bw;
	u2 = (u64)s;
	bw = (u64)(s >> 64) & 1;
	s = (p256_u128)t3 - 0xffffffff00000001ull - bw;
	u3 = (u64)s;
	bw = (u64)(s >> 64) & 1;
	mask = 0 - (bw & (top ^ 1));
	r[0] = (t0 & mask) | (u0 & ~mask);
	r[1] = (t1 & mask) | (u1 & ~mask);
	r[2] = (t2 & mask) | (u2 & ~mask);
	r[3] = (t3 & mask) | (u3 & ~mask);
}

static void p256_mul(u64 *r, const u64 *a, const u64 *b)
{
	const u64 a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
	u64 t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5, q, c;
	p256_u128 s;
	int i;

	_Pragma("GCC unroll 4")
	for (i = 0; i < 4; i++) {
		const u64 bi = b[i];

		s = (p256_u128)a0 * bi + t0;
		t0 = (u64)s;
		c = (u64)(s >> 64);
		s = (p256_u128)a1 * bi + t1 + c;
		t1 = (u64)s;
		c = (u64)(s >> 64);
		s = (p256_u128)a2 * bi + t2 + c;
		t2 = (u64)s;
		c = (u64)(s >> 64);
		s = (p256_u128)a3 * bi + t3 + c;
		t3 = (u64)s;
		c = (u64)(s >> 64);
		s = (p256_u128)t4 + c;
		t4 = (u64)s;
		t5 = (u64)(s >> 64);
		/* + q p with q = t0, then one word down */
		q = t0;
		s = (p256_u128)t1 + (q << 32);
		t0 = (u64)s;
		c = (u64)(s >> 64);
		s = (p256_u128)t2 + (q >> 32) + c;
		t1 = (u64)s;
		c = (u64)(s >> 64);
		s = (p256_u128)q * 0xffffffff00000001ull + t3 + c;
		t2 = (u64)s;
		c = (u64)(s >> 64);
		s = (p256_u128)t4 + c;
		t3 = (u64)s;
		t4 = t5 + (u64)(s >> 64);
	}
	p256_final(r, t0, t1, t2, t3, t4);
}

/*
 * r = a^2 / R: the six cross products doubled and the four squares (the
 * full 512-bit square), then the low half reduced word by word into the
 * words above it (a rolling top word, below p after four steps) and the
 * high half added; below 2p, reduced by p256_final.
 */
static void p256_sqr(u64 *r, const u64 *a)
{
	const u64 a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
	u64 t0, t1, t2, t3, t4, t5, t6, t7, c, q;
	p256_u128 s;

	s = (p256_u128)a0 * a1;
	t1 = (u64)s;
	c = (u64)(s >> 64);
	s = (p256_u128)a0 * a2 + c;
	t2 = (u64)s;
	c = (u64)(s >> 64);
	s = (p256_u128)a0 * a3 + c;
	t3 = (u64)s;
	t4 = (u64)(s >> 64);
	s = (p256_u128)a1 * a2 + t3;
	t3 = (u64)s;
	c = (u64)(s >> 64);
	s = (p256_u128)a1 * a3 + t4 + c;
	t4 = (u64)s;
	t5 = (u64)(s >> 64);
	s = (p256_u128)a2 * a3 + t5;
	t5 = (u64)s;
	t6 = (u64)(s >> 64);
	/* doubled */
	t7 = t6 >> 63;
	t6 = (t6 << 1) | (t5 >> 63);
	t5 = (t5 << 1) | (t4 >> 63);
	t4 = (t4 << 1) | (t3 >> 63);
	t3 = (t3 << 1) | (t2 >> 63);
	t2 = (t2 << 1) | (t1 >> 63);
	t1 <<= 1;
	/* plus the squares */
	s = (p256_u128)a0 * a0;
	t0 = (u64)s;
	c = (u64)(s >> 64);
	s = (p256_u128)t1 + c;
	t1 = (u64)s;
	c = (u64)(s >> 64);
	s = (p256_u128)a1 * a1 + t2 + c;
	t2 = (u64)s;
	c = (u64)(s >> 64);
	s = (p256_u128)t3 + c;
	t3 = (u64)s;
	c = (u64)(s >> 64);
	s = (p256_u128)a2 * a2 + t4 + c;
	t4 = (u64)s;
	c = (u64)(s >> 64);
	s = (p256_u128)t5 + c;
	t5 = (u64)s;
	c = (u64)(s >> 64);
	s = (p256_u128)a3 * a3 + t6 + c;
	t6 = (u64)s;
	c = (u64)(s >> 64);
	t7 += c;
	/* q = T0, (T1, T2, T3) += q p / 2^64 pieces, T0 = the new top word */
#define P256_REDL(T0, T1, T2, T3)					\
	do {								\
		q = T0;							\
		s = (p256_u128)T1 + (q << 32);				\
		T1 = (u64)s;						\
		c = (u64)(s >> 64);					\
		s = (p256_u128)T2 + (q >> 32) + c;			\
		T2 = (u64)s;						\
		c = (u64)(s >> 64);					\
		s = (p256_u128)q * 0xffffffff00000001ull + T3 + c;	\
		T3 = (u64)s;						\
		T0 = (u64)(s >> 64);					\
	} while (0)
	P256_REDL(t0, t1, t2, t3);
	P256_REDL(t1, t2, t3, t0);
	P256_REDL(t2, t3, t0, t1);
	P256_REDL(t3, t0, t1, t2);
#undef P256_REDL
	s = (p256_u128)t0 + t4;
	t0 = (u64)s;
	c = (u64)(s >> 64);
	s = (p256_u128)t1 + t5 + c;
	t1 = (u64)s;
	c = (u64)(s >> 64);
	s = (p256_u128)t2 + t6 + c;
	t2 = (u64)s;
	c = (u64)(s >> 64);
	s = (p256_u128)t3 + t7 + c;
	t3 = (u64)s;
	p256_final(r, t0, t1, t2, t3, (u64)(s >> 64));
}

#define ECC_FP_MUL(r, a, b)	p256_mul(r, a, b)
#define ECC_FP_SQR(r, a)	p256_sqr(r, a)
#include <crypto/ecc-impl.h>
#include <crypto/ecc-p256.h>

ECC_DEFINE_CURVE(ecc_p256_generic, p256_def, "P-256", RIND_OID_SECP256R1, 32, 256);
