// SPDX-License-Identifier: MIT
/*
 * ML-DSA (FIPS 204) polynomial arithmetic, portable C: reduction mod
 * q = 8380417, the NTT (Algorithms 41-42), the rounding functions
 * (Algorithms 35-40) and the pointwise products.
 *
 * Products use Montgomery reduction with R = 2^32 on 64-bit intermediates;
 * the NTT constants zeta^BitRev8(m) are kept in Montgomery form, computed
 * once at init from zeta = 1753.  Everything here is branch-free and
 * indexes memory only by loop counters: the same code runs on secret
 * polynomials (s1, s2, t0, y, w) and public ones.  Division by 2 gamma2
 * in Decompose is a multiplication by a 2^48-scaled reciprocal, exact for
 * every r in [0, q) (tests/test_mldsa.c checks all of them).
 */
#include <string.h>
#include <rind/internal/util.h>
#include <crypto/mldsa.h>

#define Q		MLDSA_Q
#define QINV		58728449u	/* q^-1 mod 2^32 */
#define MONT_R		4193792		/* 2^32 mod q */
#define N_INV		8347681		/* 256^-1 mod q (FIPS 204's f) */

_Static_assert((u32)((u64)MLDSA_Q * QINV) == 1, "QINV");
_Static_assert(((u64)1 << 32) % MLDSA_Q == MONT_R, "R mod q");
_Static_assert((u64)256 * N_INV % MLDSA_Q == 1, "256^-1");

/* zeta^BitRev8(m) * R mod q, centered; [0] is unused by the transforms. */
static s32 zetas[256];
/* R^2 / 256 mod q: the inverse transform's final factor (see the header). */
static s32 invntt_f;

/* a * R^-1 mod q, in (-q, q), for |a| < 2^31 q. */
static inline s32 mont_reduce(s64 a)
{
	s32 t = (s32)((u32)(u64)a * QINV);

	return (s32)((a - (s64)t * Q) >> 32);
}

static inline s32 mont_mul(s32 a, s32 b)
{
	return mont_reduce((s64)a * b);
}

/* a mod q in [-6283008, 6283008] (so |r| < q), for a <= 2^31 - 2^22. */
static inline s32 reduce32(s32 a)
{
	s32 t = (a + (1 << 22)) >> 23;

	return a - t * Q;
}

static s32 centered(u64 x)
{
	x %= Q;
	return (s32)(x > Q / 2 ? (s64)x - Q : (s64)x);
}

void rind_mldsa_init_tables(void)
{
	unsigned int m;

	for (m = 0; m < 256; m++)
		zetas[m] = centered(rind_powmod(1753, rind_bitrev(m, 8), Q) * MONT_R);
	invntt_f = centered((u64)MONT_R * MONT_R % Q * N_INV);
}

/*
 * Algorithm 41, two layers a pass (len = L and L/2 over the same four
 * coefficients, held in registers).  The forward layer of length len
 * uses zetas[128/len + b] in its block b.  |a| < B on entry gives
 * |a| < B + 8q on return.
 */
void rind_mldsa_ntt_generic(struct mldsa_poly *p)
{
	s32 *a = p->c;
	unsigned int L, h, b, j;

	for (L = 128; L >= 2; L >>= 2) {
		h = L / 2;
		for (b = 0; b < 128 / L; b++) {
			const s32 z1 = zetas[128 / L + b];
			const s32 z2 = zetas[256 / L + 2 * b], z3 = zetas[256 / L + 2 * b + 1];
			s32 *x = a + 2 * L * b;

			for (j = 0; j < h; j++) {
				s32 a0 = x[j], a1 = x[j + h], a2 = x[j + L], a3 = x[j + L + h], t;

				t = mont_mul(z1, a2);
				a2 = a0 - t;
				a0 = a0 + t;
				t = mont_mul(z1, a3);
				a3 = a1 - t;
				a1 = a1 + t;
				t = mont_mul(z2, a1);
				x[j + h] = a0 - t;
				x[j] = a0 + t;
				t = mont_mul(z3, a3);
				x[j + L + h] = a2 - t;
				x[j + L] = a2 + t;
			}
		}
	}
}

/*
 * Algorithm 42 followed by the scaling by R^2/256 (so the result carries a
 * factor R, which a Montgomery product's R^-1 cancels), two layers a
 * pass (len = L and 2L).  The inverse layer of length len uses
 * -zetas[256/len - 1 - b] in its block b.  The sums double per layer: a
 * reduction after the fourth keeps them below 16q; the scaling is folded
 * into the last layer.
 */
void rind_mldsa_invntt_tomont_generic(struct mldsa_poly *p)
{
	s32 *a = p->c;
	unsigned int L, c, j;

	for (L = 1; L <= 64; L <<= 2) {
		bool last = L == 64;

		for (c = 0; c < 64 / L; c++) {
			const s32 w1 = -zetas[256 / L - 1 - 2 * c], w2 = -zetas[256 / L - 2 - 2 * c];
			const s32 w3 = -zetas[128 / L - 1 - c];
			const s32 f0 = last ? invntt_f : 0, f1 = last ? mont_mul(w3, invntt_f) : 0;
			s32 *x = a + 4 * L * c;

			for (j = 0; j < L; j++) {
				s32 a0 = x[j], a1 = x[j + L], a2 = x[j + 2 * L], a3 = x[j + 3 * L], t;

				t = a0;
				a0 = t + a1;
				a1 = mont_mul(w1, t - a1);
				t = a2;
				a2 = t + a3;
				a3 = mont_mul(w2, t - a3);
				if (last) {
					x[j] = mont_mul(f0, a0 + a2);
					x[j + 2 * L] = mont_mul(f1, a0 - a2);
					x[j + L] = mont_mul(f0, a1 + a3);
					x[j + 3 * L] = mont_mul(f1, a1 - a3);
				} else {
					x[j] = a0 + a2;
					x[j + 2 * L] = mont_mul(w3, a0 - a2);
					x[j + L] = a1 + a3;
					x[j + 3 * L] = mont_mul(w3, a1 - a3);
				}
			}
		}
		if (L == 4)	/* after the len = 8 layer */
			for (j = 0; j < MLDSA_N; j++)
				a[j] = reduce32(a[j]);
	}
}


/*
 * One 64-bit sum of the n <= 8 products and one reduction per
 * coefficient: with |a| < q and |b| < 10q the sum stays below 2^31 q.
 */
void rind_mldsa_pointwise_acc(struct mldsa_poly *r, const struct mldsa_poly *a,
			      const struct mldsa_poly *b, unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i < MLDSA_N; i++) {
		s64 acc = 0;

		for (j = 0; j < n; j++)
			acc += (s64)a[j].c[i] * b[j].c[i];
		r->c[i] = mont_reduce(acc);
	}
}

void rind_mldsa_pointwise(struct mldsa_poly *r, const struct mldsa_poly *a,
			  const struct mldsa_poly *b)
{
	unsigned int i;

	for (i = 0; i < MLDSA_N; i++)
		r->c[i] = mont_mul(a->c[i], b->c[i]);
}

void rind_mldsa_poly_reduce(struct mldsa_poly *a)
{
	unsigned int i;

	for (i = 0; i < MLDSA_N; i++)
		a->c[i] = reduce32(a->c[i]);
}

/* ---- rounding (FIPS 204 section 7.4) -------------------------------------- */

void rind_mldsa_power2round(s32 r, s32 *r1, s32 *r0)
{
	/* r0 = r mod+- 2^13 in (-2^12, 2^12], r1 = (r - r0) / 2^13 */
	s32 a1 = (r + (1 << (MLDSA_D - 1)) - 1) >> MLDSA_D;

	*r1 = a1;
	*r0 = r - (a1 << MLDSA_D);
}

/*
 * Algorithm 36 for a constant gamma2 (inlined per parameter set):
 * r1 = floor((r + gamma2 - 1) / (2 gamma2)) makes r0 = r - 2 gamma2 r1 the
 * centered remainder in (-gamma2, gamma2]; the corner r - r0 = q - 1
 * (r1 = (q-1)/(2 gamma2)) becomes r1 = 0, r0 - 1, with a mask.  The
 * quotient is (x * ceil(2^48 / (2 gamma2))) >> 48, exact for x < 2^24.
 */
static inline __attribute__((always_inline)) void decompose_c(s32 r, s32 g2, s32 *r1, s32 *r0)
{
	const u64 m = (((u64)1 << 48) + 2 * (u64)g2 - 1) / (2 * (u64)g2);
	const u32 top = (Q - 1) / (2 * (u32)g2);
	u32 a1 = (u32)(((u64)(u32)(r + g2 - 1) * m) >> 48);
	u32 d = a1 ^ top;
	u32 eq = ((d | (0u - d)) >> 31) ^ 1;	/* 1 iff a1 == top */
	s32 a0 = r - (s32)a1 * 2 * g2;

	*r1 = (s32)(a1 & (eq - 1));
	*r0 = a0 - (s32)eq;
}

#define G2_88	((MLDSA_Q - 1) / 88)
#define G2_32	((MLDSA_Q - 1) / 32)

void rind_mldsa_decompose(s32 r, s32 gamma2, s32 *r1, s32 *r0)
{
	if (gamma2 == G2_88)
		decompose_c(r, G2_88, r1, r0);
	else
		decompose_c(r, G2_32, r1, r0);
}

s32 rind_mldsa_use_hint(int h, s32 r, s32 gamma2)
{
	s32 m = (Q - 1) / (2 * gamma2), r1, r0;

	rind_mldsa_decompose(r, gamma2, &r1, &r0);
	if (!h)
		return r1;
	if (r0 > 0)
		return r1 + 1 == m ? 0 : r1 + 1;
	return r1 == 0 ? m - 1 : r1 - 1;
}

/*
 * HighBits of a whole polynomial (w1 of the signer and of the verifier's
 * hints are built from it), with gamma2 constant in each loop.
 */
void rind_mldsa_poly_highbits(struct mldsa_poly *r1, const struct mldsa_poly *a, s32 gamma2)
{
	unsigned int i;
	s32 lo;

	if (gamma2 == G2_88)
		for (i = 0; i < MLDSA_N; i++)
			decompose_c(a->c[i], G2_88, &r1->c[i], &lo);
	else
		for (i = 0; i < MLDSA_N; i++)
			decompose_c(a->c[i], G2_32, &r1->c[i], &lo);
}

void rind_mldsa_poly_decompose(struct mldsa_poly *r1, struct mldsa_poly *r0,
			       const struct mldsa_poly *a, s32 gamma2)
{
	unsigned int i;

	if (gamma2 == G2_88)
		for (i = 0; i < MLDSA_N; i++)
			decompose_c(a->c[i], G2_88, &r1->c[i], &r0->c[i]);
	else
		for (i = 0; i < MLDSA_N; i++)
			decompose_c(a->c[i], G2_32, &r1->c[i], &r0->c[i]);
}

void rind_mldsa_poly_use_hint(struct mldsa_poly *r, const struct mldsa_poly *a,
			      const struct mldsa_poly *h, s32 gamma2)
{
	unsigned int i;

	for (i = 0; i < MLDSA_N; i++)
		r->c[i] = rind_mldsa_use_hint(h->c[i], a->c[i], gamma2);
}

/* ---- products with the challenge ------------------------------------------ */

/* restrict: without it the loop stayed scalar (e might overlap a). */
void rind_mldsa_poly_negext(s32 e[restrict 2 * MLDSA_N], const struct mldsa_poly *restrict a)
{
	unsigned int i;

	for (i = 0; i < MLDSA_N; i++) {
		e[i] = -a->c[i];
		e[MLDSA_N + i] = a->c[i];
	}
}

/*
 * r = c a in Z[X]/(X^256 + 1), exactly (no reduction: |c a| <= tau |a|),
 * for the challenge c of weight tau.  X^j a is, at coefficient m,
 * a[m - j] for m >= j and -a[m - j + 256] below: e[256 + m - j] in the
 * negated extension, so each nonzero c_j is one loop of fixed length;
 * the loops take four terms of the same sign at a time (a quarter of the
 * loads and stores of r).  The positions and signs of c are public (they
 * come from c-tilde); the coefficients of a only ever enter additions.
 */
void rind_mldsa_poly_mul_challenge(struct mldsa_poly *r, const s32 *restrict e,
				   const struct mldsa_challenge *c)
{
	s32 *restrict out = r->c;
	const s32 *src[2][MLDSA_N];
	unsigned int cnt[2] = { 0, 0 }, k, m, s;

	memset(r, 0, sizeof(*r));
	for (k = 0; k < c->n; k++) {
		s = c->neg[k] != 0;
		src[s][cnt[s]++] = e + MLDSA_N - c->pos[k];
	}
	for (s = 0; s < 2; s++) {
		const s32 *const *q = src[s];

		for (k = 0; k + 4 <= cnt[s]; k += 4) {
			const s32 *restrict a0 = q[k], *restrict a1 = q[k + 1];
			const s32 *restrict a2 = q[k + 2], *restrict a3 = q[k + 3];

			if (s)
				for (m = 0; m < MLDSA_N; m++)
					out[m] -= (a0[m] + a1[m]) + (a2[m] + a3[m]);
			else
				for (m = 0; m < MLDSA_N; m++)
					out[m] += (a0[m] + a1[m]) + (a2[m] + a3[m]);
		}
		for (; k < cnt[s]; k++) {
			const s32 *restrict a0 = q[k];

			if (s)
				for (m = 0; m < MLDSA_N; m++)
					out[m] -= a0[m];
			else
				for (m = 0; m < MLDSA_N; m++)
					out[m] += a0[m];
		}
	}
}

void rind_mldsa_challenge_of(struct mldsa_challenge *ch, const struct mldsa_poly *c)
{
	unsigned int b, j, n = 0;

	/*
	 * c is public: a mask of its nonzero coefficients per 64 (c in {-1,
	 * 0, 1}: the low bit says nonzero), then its set bits in order.
	 */
	for (b = 0; b < MLDSA_N; b += 64) {
		u64 m = 0;

		_Pragma("GCC unroll 64")
		for (j = 0; j < 64; j++)
			m |= (u64)((u32)c->c[b + j] & 1) << j;
		for (; m; m &= m - 1) {
			unsigned int neg;

			j = b + (unsigned int)__builtin_ctzll(m);
			neg = c->c[j] < 0;
			ch->pos[n] = (u8)j;
			ch->neg[n] = (u8)neg;
			ch->sh[n] = (u16)(j + neg * MLDSA_N);
			n++;
		}
	}
	ch->n = n;
}

const struct mldsa_ops rind_mldsa_generic_ops = {
	.ntt = rind_mldsa_ntt_generic,
	.invntt_tomont = rind_mldsa_invntt_tomont_generic,
	.pointwise_acc = rind_mldsa_pointwise_acc,
	.pointwise = rind_mldsa_pointwise,
	.poly_reduce = rind_mldsa_poly_reduce,
	.expand_a = rind_mldsa_expand_a,
	.expand_s = rind_mldsa_expand_s,
	.expand_mask = rind_mldsa_expand_mask,
	.expand_mask_loop = rind_mldsa_expand_mask_loop,
	.mul_challenge = rind_mldsa_poly_mul_challenge,
	.mul_challenge_eta = rind_mldsa_poly_mul_challenge,
	.poly_decompose = rind_mldsa_poly_decompose,
	.poly_highbits = rind_mldsa_poly_highbits,
	.poly_use_hint = rind_mldsa_poly_use_hint,
	.ctilde = rind_mldsa_ctilde,
	.sign_prepare = rind_mldsa_sign_prepare,
	.w1_pack = rind_mldsa_w1_pack,
	.sign_z = rind_mldsa_sign_z,
	.sign_r = rind_mldsa_sign_r,
	.sign_hint = rind_mldsa_sign_hint,
	.sign_w = rind_mldsa_sign_w,
};
