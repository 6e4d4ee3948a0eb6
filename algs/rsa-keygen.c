// SPDX-License-Identifier: MIT
/*
 * RSA key generation: FIPS 186-5 A.1.3-style random probable primes.
 *
 * What is variable time (all of it on candidate primes that are thrown
 * away, or on public facts): the choice to reject a candidate after trial
 * division (the residues themselves are computed with constant-time
 * Barrett reductions, and for the prime finally kept no residue is zero,
 * so its trial division takes the same path every time); the Miller-Rabin
 * verdicts, the position of the first +-1 in a
 * witness sequence, and the count s of trailing zero bits of p - 1; the
 * retries on |p - q| and on the size of d (the verdicts only: the
 * comparisons themselves are masked).  The exponentiations inside
 * Miller-Rabin and for q^-1 mod p are the constant-time ones.
 *
 * Generated keys: p and q of bits/2 bits each with their top two bits set,
 * p, q != 1 mod e, |p - q| > 2^(bits/2 - 100), d = e^-1 mod (p-1)(q-1)
 * (a valid private exponent; FIPS 186-5 takes it modulo lcm(p-1, q-1),
 * which would need a gcd of secret values), d > 2^(bits/2).
 *
 * The exponentiations are the key's engine's (rsa.h), so that an arch
 * engine speeds key generation up as it does signing.
 */
#include <errno.h>
#include <string.h>
#include <rind/rng.h>
#include <rind/internal/util.h>
#include <crypto/rsa.h>

typedef unsigned __int128 u128;

#define SMALL_PRIME_BOUND	2048
#define SMALL_PRIMES_MAX	320

struct small_primes {
	unsigned int count;
	u32 p[SMALL_PRIMES_MAX];
	u64 mu[SMALL_PRIMES_MAX];	/* floor((2^64 - 1) / p) */
};

static void small_primes_init(struct small_primes *sp)
{
	u8 composite[SMALL_PRIME_BOUND] = { 0 };
	unsigned int i, j;

	sp->count = 0;
	for (i = 3; i < SMALL_PRIME_BOUND && sp->count < SMALL_PRIMES_MAX; i += 2) {
		if (composite[i])
			continue;
		sp->p[sp->count] = i;
		sp->mu[sp->count] = ~(u64)0 / i;
		sp->count++;
		for (j = i * i; j < SMALL_PRIME_BOUND; j += 2 * i)
			composite[j] = 1;
	}
}

/*
 * x mod p for a small p (< 2^17) in constant time: Barrett reduction of
 * 32 bits at a time (acc < p, so each step's value is below 2^49).
 */
static u32 mod_small(const u64 *x, unsigned int n, u32 p, u64 mu)
{
	u64 acc = 0;
	unsigned int i;
	int h;

	for (i = n; i-- > 0;) {
		for (h = 1; h >= 0; h--) {
			u64 v = (acc << 32) | ((x[i] >> (32 * h)) & 0xffffffffu);
			u64 q = (u64)(((u128)v * mu) >> 64);
			u64 r = v - q * p;
			u64 ge = (u64)0 - (u64)((r - p) >> 63 ^ 1);	/* r >= p */

			acc = r - (p & ge);
		}
	}
	return (u32)acc;
}

/* a * b mod e (a, b < e < 2^17), Barrett: no division instruction. */
static u64 mulmod_small(u64 a, u64 b, u64 e, u64 mu)
{
	u64 v = a * b, q = (u64)(((u128)v * mu) >> 64), r = v - q * e;
	u64 ge = (u64)0 - (u64)((r - e) >> 63 ^ 1);

	return r - (e & ge);
}

/* (-m^-1) mod e for a prime e, m coprime to e: e - m^(e-2) mod e. */
static u64 neg_inv_mod_e(u64 mr, u64 e, u64 mu)
{
	u64 acc = 1, x = e - 2;
	int i;

	/* e is public: the square-and-multiply pattern follows e only. */
	for (i = 63; i >= 0; i--) {
		acc = mulmod_small(acc, acc, e, mu);
		if ((x >> i) & 1)
			acc = mulmod_small(acc, mr, e, mu);
	}
	return e - acc;
}

/*
 * d = e^-1 mod m (m of @n limbs, gcd(e, m) = 1): with t = -m^-1 mod e,
 * e divides 1 + t m and d = (1 + t m) / e < m; the division is exact and
 * done by Hensel's method (multiplications only).
 */
static void inv_e_mod(u64 *d, const u64 *m, unsigned int n, u64 e, u64 mu)
{
	u64 x[BN_MAX_LIMBS + 1], einv = e, b = 0, c = 0;
	u64 t = neg_inv_mod_e(mod_small(m, n, (u32)e, mu), e, mu);
	unsigned int i;

	/* x = t m + 1 */
	for (i = 0; i < n; i++) {
		u128 v = (u128)m[i] * t + c + (i == 0);

		x[i] = (u64)v;
		c = (u64)(v >> 64);
	}
	x[n] = c;
	for (i = 0; i < 5; i++)
		einv *= 2 - e * einv;
	for (i = 0; i <= n; i++) {
		u64 s = x[i] - b, br = x[i] < b, q = s * einv;

		if (i < n)
			d[i] = q;
		b = (u64)(((u128)q * e) >> 64) + br;
	}
	memzero_explicit(x, sizeof(x));
}

/* All-ones if @a (@n limbs) is below 2^@k (@k public), else 0; constant time in @a. */
static u64 lt_pow2_mask(const u64 *a, unsigned int n, unsigned int k)
{
	u64 acc = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		u64 above;	/* the bits of limb i at positions >= k */

		if (64 * i >= k)
			above = ~(u64)0;
		else if (64 * i + 64 <= k)
			above = 0;
		else
			above = ~(u64)0 << (k - 64 * i);
		acc |= a[i] & above;
	}
	return bn_is_zero_mask(&acc, 1);
}

/* FIPS 186-5 Table B.1 asks for at most 5 rounds at these sizes. */
#define MR_ROUNDS	8

static int miller_rabin(const struct rsa_engine *eng, const struct bn_mont *mc,
			unsigned int pbits, int *prime)
{
	unsigned int n = mc->n, s = 0, i, j, round;
	u64 d[BN_MAX_LIMBS], a[BN_MAX_LIMBS], minus1[BN_MAX_LIMBS], one[BN_MAX_LIMBS];
	int err = 0;

	memset(one, 0, sizeof(one));
	one[0] = 1;
	bn_sub(d, mc->m, one, n);			/* p - 1 */
	while (!((d[s / 64] >> (s % 64)) & 1))
		s++;
	for (i = 0; i < s; i++) {			/* d = (p - 1) >> s */
		for (j = 0; j + 1 < n; j++)
			d[j] = (d[j] >> 1) | (d[j + 1] << 63);
		d[n - 1] >>= 1;
	}
	bn_mod_sub(minus1, mc->m, mc->one, mc);		/* Montgomery form of -1 */
	*prime = 0;
	for (round = 0; round < MR_ROUNDS; round++) {
		u8 buf[RSA_MAX_BYTES / 2];
		int pass = 0;

		/* Base a in [2, p - 2]: pbits - 1 random bits, retry below 2. */
		do {
			err = rind_get_random_bytes(buf, (size_t)n * 8);
			if (err)
				goto out;
			bn_from_be(a, n, buf, (size_t)n * 8);
			a[(pbits - 2) / 64] &= ((u64)2 << ((pbits - 2) % 64)) - 1;
			for (j = (pbits - 2) / 64 + 1; j < n; j++)
				a[j] = 0;
		} while (bn_bits_vt(a, n) < 2);
		memzero_explicit(buf, sizeof(buf));
		bn_to_mont(a, a, mc);
		eng->exp_ct(a, a, d, n, mc);
		if (bn_eq_mask(a, mc->one, n) || bn_eq_mask(a, minus1, n))
			pass = 1;
		for (i = 1; i < s && !pass; i++) {
			bn_mont_mul(a, a, a, mc);
			if (bn_eq_mask(a, minus1, n))
				pass = 1;
			else if (bn_eq_mask(a, mc->one, n))
				break;
		}
		if (!pass)
			goto out;
	}
	*prime = 1;
out:
	memzero_explicit(d, sizeof(d));
	memzero_explicit(a, sizeof(a));
	return err;
}

/*
 * A random probable prime of exactly @pbits bits with its top two bits set
 * (so that p q has exactly 2 pbits bits) and p != 1 mod e.
 */
static int gen_prime(const struct rsa_engine *eng, u64 *p, unsigned int pbits,
		     const struct small_primes *sp, u64 e, u64 emu, struct bn_mont *mc)
{
	unsigned int n = bn_limbs(pbits), i, top = (pbits - 1) % 64;
	u8 buf[RSA_MAX_BYTES / 2];
	int err, prime;

	for (;;) {
		err = rind_get_random_bytes(buf, (size_t)n * 8);
		if (err)
			break;
		bn_from_be(p, n, buf, (size_t)n * 8);
		if (top < 63)
			p[n - 1] &= ((u64)2 << top) - 1;
		p[n - 1] |= (u64)1 << top;
		if (top)
			p[n - 1] |= (u64)1 << (top - 1);
		else
			p[n - 2] |= (u64)1 << 63;
		p[0] |= 1;
		for (i = 0; i < sp->count; i++)
			if (!mod_small(p, n, sp->p[i], sp->mu[i]))
				break;
		if (i < sp->count)
			continue;
		if (mod_small(p, n, (u32)e, emu) == 1)
			continue;
		err = bn_mont_init(mc, p, n);
		if (!err)
			err = miller_rabin(eng, mc, pbits, &prime);
		if (err)
			break;
		if (prime)
			break;
	}
	memzero_explicit(buf, sizeof(buf));
	return err;
}

/* Scratch for one generation (28 kB, on the heap), wiped after. */
struct rsa_gen {
	struct small_primes sp;
	struct bn_mont mp, mq;
	u64 p[BN_MAX_LIMBS], q[BN_MAX_LIMBS], pm1[BN_MAX_LIMBS], qm1[BN_MAX_LIMBS];
	u64 phi[BN_MAX_LIMBS], n[BN_MAX_LIMBS], d[BN_MAX_LIMBS];
	u64 dp[BN_MAX_LIMBS], dq[BN_MAX_LIMBS], qi[BN_MAX_LIMBS], t[BN_MAX_LIMBS];
	u64 one[BN_MAX_LIMBS], two[BN_MAX_LIMBS];
	struct {	/* big-endian copies for rsa_install() */
		u8 n[RSA_MAX_BYTES], e[8], d[RSA_MAX_BYTES];
		u8 p[RSA_MAX_BYTES / 2], q[RSA_MAX_BYTES / 2], dp[RSA_MAX_BYTES / 2];
		u8 dq[RSA_MAX_BYTES / 2], qi[RSA_MAX_BYTES / 2];
	} be;
};

/* p, q, n = p q, phi = (p - 1)(q - 1) and d = e^-1 mod phi, all in @g. */
static int gen_pq(const struct rsa_engine *eng, struct rsa_gen *g, unsigned int bits,
		  u64 e, u64 emu)
{
	unsigned int pbits = bits / 2, pl = bn_limbs(pbits), nl = bn_limbs(bits);
	u64 retry;
	int err;

	for (;;) {
		err = gen_prime(eng, g->p, pbits, &g->sp, e, emu, &g->mp);
		if (!err)
			err = gen_prime(eng, g->q, pbits, &g->sp, e, emu, &g->mq);
		if (err)
			return err;
		/*
		 * |p - q| > 2^(pbits - 100) (FIPS 186-5 A.1.3), without a
		 * branch on which prime is larger or on the difference's
		 * length; only the retry verdict is public.
		 */
		bn_sub(g->t, g->p, g->q, pl);
		bn_sub(g->pm1, g->q, g->p, pl);
		bn_cmov(g->t, g->pm1, pl, bn_lt_mask(g->p, g->q, pl));
		retry = lt_pow2_mask(g->t, pl, pbits - 100);
		rind_declassify(&retry, sizeof(retry));
		if (retry)
			continue;
		bn_sub(g->pm1, g->p, g->one, pl);
		bn_sub(g->qm1, g->q, g->one, pl);
		bn_mul(g->phi, g->pm1, pl, g->qm1, pl);
		bn_mul(g->n, g->p, pl, g->q, pl);
		inv_e_mod(g->d, g->phi, nl, e, emu);
		/* d > 2^(bits/2) (FIPS 186-5); fails with negligible probability. */
		retry = lt_pow2_mask(g->d, nl, pbits);
		rind_declassify(&retry, sizeof(retry));
		if (!retry)
			return 0;
	}
}

/* @a (@n limbs) big-endian into @buf, which @v and @len then describe. */
static void gen_part(u8 *buf, const u64 *a, unsigned int n, const u8 **v, size_t *len)
{
	*len = (size_t)n * 8;
	bn_to_be(buf, *len, a, n);
	*v = buf;
}

int rsa_generate(struct rsa_key *key, unsigned int bits)
{
	const struct rsa_engine *eng = rsa_key_engine(key);
	const u64 e = RSA_KEYGEN_E;
	unsigned int pl = bn_limbs(bits / 2), nl = bn_limbs(bits), i;
	u64 emu = ~(u64)0 / e;
	struct rsa_parts pt;
	struct rsa_gen *g;
	int err;

	if (bits < RSA_MIN_BITS || bits > RSA_MAX_BITS || (bits & 1))
		return -EINVAL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	small_primes_init(&g->sp);
	g->one[0] = 1;
	g->two[0] = 2;
	err = gen_pq(eng, g, bits, e, emu);
	if (err)
		goto out;
	inv_e_mod(g->dp, g->pm1, pl, e, emu);
	inv_e_mod(g->dq, g->qm1, pl, e, emu);
	/* qinv = q^(p - 2) mod p */
	bn_sub(g->t, g->p, g->two, pl);
	bn_to_mont(g->qi, g->q, &g->mp);	/* q < R, so this reduces it too */
	eng->exp_ct(g->qi, g->qi, g->t, pl, &g->mp);
	bn_from_mont(g->qi, g->qi, &g->mp);

	gen_part(g->be.n, g->n, nl, &pt.n, &pt.nlen);
	gen_part(g->be.d, g->d, nl, &pt.d, &pt.dlen);
	gen_part(g->be.p, g->p, pl, &pt.p, &pt.plen);
	gen_part(g->be.q, g->q, pl, &pt.q, &pt.qlen);
	gen_part(g->be.dp, g->dp, pl, &pt.dp, &pt.dplen);
	gen_part(g->be.dq, g->dq, pl, &pt.dq, &pt.dqlen);
	gen_part(g->be.qi, g->qi, pl, &pt.qi, &pt.qilen);
	for (i = 0; i < 8; i++)
		g->be.e[i] = (u8)(e >> (56 - 8 * i));
	pt.e = g->be.e;
	pt.elen = 8;
	err = rsa_install(key, &pt, true);
out:
	memzero_explicit(g, sizeof(*g));
	free(g);
	return err;
}
