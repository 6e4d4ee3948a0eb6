// SPDX-License-Identifier: MIT
/*
 * ML-DSA (FIPS 204) sampling, portable C: ExpandA (RejNTTPoly over
 * SHAKE128), ExpandS (RejBoundedPoly over SHAKE256), ExpandMask and
 * SampleInBall (Algorithms 29-34).
 *
 * Constant time: ExpandA and SampleInBall run on public inputs (rho and
 * the challenge c-tilde) and branch on them freely.  ExpandS rejects
 * nibbles of a secret stream: whether a nibble is kept depends only on
 * whether it is below 15 (eta = 2) or 9 (eta = 4), which is independent
 * of the value kept, so that one bit is declassified and the loop may
 * branch on it; the kept value is mapped to a coefficient without a
 * branch or a table.  ExpandMask has no rejection at all.
 */
#include <string.h>
#include <rind/internal/util.h>
#include <crypto/keccak.h>
#include <crypto/mldsa.h>

#define Q MLDSA_Q

/* Algorithm 30 (RejNTTPoly) with the seed rho || s || r. */
static void rej_ntt_poly(struct mldsa_poly *a, const u8 seed[34])
{
	struct keccak_state st;
	u8 buf[5 * SHAKE128_RATE];	/* 280 candidates; 256 are needed */
	unsigned int n = 0, pos = 0, len = sizeof(buf);

	rind_shake128_init(&st);
	rind_keccak_absorb(&st, seed, 34);
	rind_keccak_finalize(&st);
	rind_keccak_squeeze_blocks(&st, buf, 5);
	while (n < MLDSA_N) {
		u32 z;

		if (pos + 3 > len) {
			/* 840 and 168 are multiples of 3: nothing is left over. */
			rind_keccak_squeeze_blocks(&st, buf, 1);
			len = SHAKE128_RATE;
			pos = 0;
		}
		z = buf[pos] | (u32)buf[pos + 1] << 8 | (u32)(buf[pos + 2] & 0x7f) << 16;
		pos += 3;
		if (z < Q)
			a->c[n++] = (s32)z;
	}
}

void rind_mldsa_expand_a(struct mldsa_key *key)
{
	const struct mldsa_params *p = key->p;
	unsigned int r, s;
	u8 seed[34];

	memcpy(seed, key->rho, 32);
	for (r = 0; r < p->k; r++) {
		for (s = 0; s < p->l; s++) {
			seed[32] = (u8)s;
			seed[33] = (u8)r;
			rej_ntt_poly(&key->a[r][s], seed);
		}
	}
}

/*
 * CoeffFromHalfByte (Algorithm 15) for a kept nibble b: eta - (b mod 5)
 * for eta = 2 (b < 15; b mod 5 by a multiply, exact for b < 16), eta - b
 * for eta = 4.
 */
static inline s32 half_byte_coeff(u32 b, unsigned int eta)
{
	if (eta == 2)
		return 2 - (s32)(b - 5 * ((b * 205) >> 10));
	return 4 - (s32)b;
}

/* Algorithm 31 (RejBoundedPoly) with the 66-byte seed rho' || IntegerToBytes(r, 2). */
static void rej_bounded_poly(struct mldsa_poly *a, const u8 seed[66], unsigned int eta)
{
	struct keccak_state st;
	u8 buf[SHAKE256_RATE];
	const u32 limit = eta == 2 ? 15 : 9;
	unsigned int n = 0, pos = sizeof(buf), h;

	rind_shake256_init(&st);
	rind_keccak_absorb(&st, seed, 66);
	rind_keccak_finalize(&st);
	while (n < MLDSA_N) {
		u32 b;

		if (pos == sizeof(buf)) {
			rind_keccak_squeeze_blocks(&st, buf, 1);
			pos = 0;
		}
		b = buf[pos++];
		for (h = 0; h < 2 && n < MLDSA_N; h++) {
			u32 t = h ? b >> 4 : b & 15;
			u32 keep = (t - limit) >> 31;	/* t < limit */

			/* Public: the pattern of rejections says nothing about kept values. */
			rind_declassify(&keep, sizeof(keep));
			if (keep)
				a->c[n++] = half_byte_coeff(t, eta);
		}
	}
	memzero_explicit(buf, sizeof(buf));
	memzero_explicit(&st, sizeof(st));
}

void rind_mldsa_expand_s(const struct mldsa_params *p, const u8 rhop[64],
			 struct mldsa_poly *s1, struct mldsa_poly *s2)
{
	unsigned int r;
	u8 seed[66];

	memcpy(seed, rhop, 64);
	for (r = 0; r < p->l + p->k; r++) {
		seed[64] = (u8)r;
		seed[65] = (u8)(r >> 8);
		rej_bounded_poly(r < p->l ? &s1[r] : &s2[r - p->l], seed, p->eta);
	}
	memzero_explicit(seed, sizeof(seed));
}

/* Algorithm 34: y[r] = BitUnpack(H(rho'' || IntegerToBytes(kappa + r, 2)), gamma1 - 1, gamma1). */
void rind_mldsa_expand_mask(const struct mldsa_params *p, const u8 rhopp[64], u16 kappa,
			    struct mldsa_poly *y)
{
	struct keccak_state st;
	u8 seed[66], buf[5 * SHAKE256_RATE];	/* >= 32 * 20 */
	unsigned int r, bytes = 32 * (p->gamma1_bits + 1);

	memcpy(seed, rhopp, 64);
	for (r = 0; r < p->l; r++) {
		u16 v = (u16)(kappa + r);

		seed[64] = (u8)v;
		seed[65] = (u8)(v >> 8);
		rind_shake256_init(&st);
		rind_keccak_absorb(&st, seed, 66);
		rind_keccak_finalize(&st);
		rind_keccak_squeeze_blocks(&st, buf, (bytes + SHAKE256_RATE - 1) / SHAKE256_RATE);
		rind_mldsa_unpack_z(&y[r], buf, p->gamma1_bits);
	}
	memzero_explicit(buf, sizeof(buf));
	memzero_explicit(seed, sizeof(seed));
	memzero_explicit(&st, sizeof(st));
}

void rind_mldsa_expand_mask_loop(const struct mldsa_params *p, const u8 rhopp[64], u16 kappa,
				 struct mldsa_poly *y, struct mldsa_mask_cache *cache)
{
	(void)cache;
	rind_mldsa_expand_mask(p, rhopp, kappa, y);
}

/*
 * Algorithm 29.  c-tilde is the first field of the signature; the signer
 * declassifies it before calling this (see algs/mldsa.c).
 */
/*
 * SampleInBall (Algorithm 29) into bytes: c in {-1, 0, 1}.  The byte
 * array is a quarter of the polynomial to clear and the signer collects
 * the nonzero positions from it eight at a time.
 */
static void sample_in_ball8(const struct mldsa_params *p, const u8 *ctilde, const u8 *ball,
			    s8 c[MLDSA_N])
{
	struct keccak_state st;
	u8 buf[SHAKE256_RATE];
	unsigned int i, pos = 8;
	u64 signs;

	/*
	 * With the first block given, the sponge runs only if the rejections
	 * use up its 128 positions (its first squeeze then repeats the block).
	 */
	if (ball) {
		memcpy(buf, ball, sizeof(buf));
	} else {
		rind_shake256_init(&st);
		rind_keccak_absorb(&st, ctilde, p->ctilde_bytes);
		rind_keccak_squeeze_blocks(&st, buf, 1);
	}
	signs = get_unaligned_le64(buf);
	memset(c, 0, MLDSA_N);
	for (i = MLDSA_N - p->tau; i < MLDSA_N; i++) {
		unsigned int j;

		do {
			if (pos == sizeof(buf)) {
				if (ball) {
					rind_shake256_init(&st);
					rind_keccak_absorb(&st, ctilde, p->ctilde_bytes);
					rind_keccak_squeeze_blocks(&st, buf, 1);
					ball = NULL;
				}
				rind_keccak_squeeze_blocks(&st, buf, 1);
				pos = 0;
			}
			j = buf[pos++];
		} while (j > i);
		c[i] = c[j];
		c[j] = (s8)(1 - 2 * (int)(signs & 1));
		signs >>= 1;
	}
}

void rind_mldsa_sample_in_ball(const struct mldsa_params *p, const u8 *ctilde,
			       struct mldsa_poly *c)
{
	s8 c8[MLDSA_N];
	unsigned int i;

	sample_in_ball8(p, ctilde, NULL, c8);
	for (i = 0; i < MLDSA_N; i++)
		c->c[i] = c8[i];
}

/*
 * The same as rind_mldsa_challenge_of() gives it.  A mask of the nonzero
 * bytes per 64 (the low bit of 1 and -1 is set), eight bytes a step:
 * their low bits times 0x0102040810204080 land in order in the top byte
 * (each bit of the product has one source, so nothing carries); then
 * the set bits in order.
 */
void rind_mldsa_sample_challenge(const struct mldsa_params *p, const u8 *ctilde,
				 const u8 *ball, struct mldsa_challenge *ch)
{
	s8 c8[MLDSA_N];
	unsigned int b, k, j, n = 0;

	sample_in_ball8(p, ctilde, ball, c8);
	for (b = 0; b < MLDSA_N; b += 64) {
		u64 m = 0;

		for (k = 0; k < 8; k++) {
			u64 w = get_unaligned_le64(c8 + b + 8 * k) & 0x0101010101010101ull;

			m |= (w * 0x0102040810204080ull) >> 56 << (8 * k);
		}
		for (; m; m &= m - 1) {
			unsigned int neg;

			j = b + (unsigned int)__builtin_ctzll(m);
			neg = (u8)c8[j] >> 7;
			ch->pos[n] = (u8)j;
			ch->neg[n] = (u8)neg;
			ch->sh[n] = (u16)(j + neg * MLDSA_N);
			n++;
		}
	}
	ch->n = n;
}
