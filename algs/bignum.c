// SPDX-License-Identifier: MIT
/*
 * Fixed-width multi-precision arithmetic for RSA (see bignum.h): schoolbook
 * products, Montgomery multiplication (CIOS), fixed-window exponentiation
 * with masked table reads, modular reduction of wide values through the
 * Montgomery domain, and a variable-time inverse for blinded values.
 *
 * Products use unsigned __int128; the compilers targeted lower it to the
 * 64x64->128 multiply instruction (mul / umulh), whose latency does not
 * depend on its operands on the x86-64 and arm64 cores rind runs on.
 */
#include <errno.h>
#include <string.h>
#include <rind/internal/util.h>
#include <crypto/bignum.h>

typedef unsigned __int128 u128;
typedef __int128 s128;

/* All-ones when @x is non-zero, without a branch. */
static inline u64 nz_mask(u64 x)
{
	return (u64)0 - ((x | ((u64)0 - x)) >> 63);
}

/*
 * Eight bytes at a time (a byte loop was 4% of an RSA-2048 verification),
 * the top len % 8 bytes by bytes; every branch on the lengths alone.
 */
void bn_from_be(u64 *r, unsigned int n, const u8 *be, size_t len)
{
	size_t w, full = len / 8, i;

	memset(r, 0, (size_t)n * 8);
	for (w = 0; w < full; w++)
		r[w] = get_unaligned_be64(be + len - 8 * (w + 1));
	for (i = 0; i < len % 8; i++)		/* be[0 .. len % 8): word full */
		r[full] |= (u64)be[i] << (8 * (len % 8 - 1 - i));
}

void bn_to_be(u8 *be, size_t len, const u64 *a, unsigned int n)
{
	size_t w, full = len / 8, i;

	for (w = 0; w < full; w++)
		put_unaligned_be64(w < n ? a[w] : 0, be + len - 8 * (w + 1));
	for (i = 0; i < len % 8; i++)
		be[i] = full < n ? (u8)(a[full] >> (8 * (len % 8 - 1 - i))) : 0;
}

int bn_be_fits_vt(const u8 *be, size_t len, unsigned int n)
{
	while (len > (size_t)n * 8) {
		if (*be)
			return 0;
		be++;
		len--;
	}
	return 1;
}

u64 bn_add(u64 *r, const u64 *a, const u64 *b, unsigned int n)
{
	u64 c = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		u128 t = (u128)a[i] + b[i] + c;

		r[i] = (u64)t;
		c = (u64)(t >> 64);
	}
	return c;
}

u64 bn_sub(u64 *r, const u64 *a, const u64 *b, unsigned int n)
{
	u64 borrow = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		u128 t = (u128)a[i] - b[i] - borrow;

		r[i] = (u64)t;
		borrow = (u64)(t >> 64) & 1;
	}
	return borrow;
}

void bn_cmov(u64 *r, const u64 *a, unsigned int n, u64 mask)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		r[i] ^= (r[i] ^ a[i]) & mask;
}

u64 bn_lt_mask(const u64 *a, const u64 *b, unsigned int n)
{
	u64 borrow = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		u128 t = (u128)a[i] - b[i] - borrow;

		borrow = (u64)(t >> 64) & 1;
	}
	return (u64)0 - borrow;
}

u64 bn_is_zero_mask(const u64 *a, unsigned int n)
{
	u64 acc = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		acc |= a[i];
	return ~nz_mask(acc);
}

u64 bn_eq_mask(const u64 *a, const u64 *b, unsigned int n)
{
	u64 acc = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		acc |= a[i] ^ b[i];
	return ~nz_mask(acc);
}

unsigned int bn_bits_vt(const u64 *a, unsigned int n)
{
	while (n && !a[n - 1])
		n--;
	if (!n)
		return 0;
	return 64 * (n - 1) + (64 - (unsigned int)__builtin_clzll(a[n - 1]));
}

void bn_mul(u64 *r, const u64 *a, unsigned int an, const u64 *b, unsigned int bn)
{
	unsigned int i, j;

	memset(r, 0, (size_t)(an + bn) * 8);
	for (i = 0; i < bn; i++) {
		u64 c = 0;

		for (j = 0; j < an; j++) {
			u128 t = (u128)a[j] * b[i] + r[i + j] + c;

			r[i + j] = (u64)t;
			c = (u64)(t >> 64);
		}
		r[i + an] = c;
	}
}

/*
 * CIOS Montgomery multiplication, multiplication and reduction fused: for
 * each limb b[i], q is chosen so that t + a*b[i] + q*m is divisible by
 * 2^64, and the sum is shifted down one limb as it is formed.  t < 2m at
 * the end, and one masked subtraction gives r < m.
 */
void bn_mont_mul(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mc)
{
	unsigned int n = mc->n, i, j;
	const u64 *m = mc->m;
	u64 t[BN_MAX_LIMBS + 1], s[BN_MAX_LIMBS];
	u64 borrow, keep, m0inv = mc->m0inv;

	memset(t, 0, (size_t)(n + 1) * 8);
	for (i = 0; i < n; i++) {
		u64 bi = b[i], c1, c2, q;
		u128 x, y;

		x = (u128)a[0] * bi + t[0];
		c1 = (u64)(x >> 64);
		q = (u64)x * m0inv;
		y = (u128)q * m[0] + (u64)x;
		c2 = (u64)(y >> 64);
		for (j = 1; j < n; j++) {
			x = (u128)a[j] * bi + t[j] + c1;
			c1 = (u64)(x >> 64);
			y = (u128)q * m[j] + (u64)x + c2;
			c2 = (u64)(y >> 64);
			t[j - 1] = (u64)y;
		}
		x = (u128)t[n] + c1 + c2;
		t[n - 1] = (u64)x;
		t[n] = (u64)(x >> 64);
	}
	borrow = bn_sub(s, t, m, n);
	/* Keep t when t < m: a borrow not covered by t's top limb. */
	keep = (u64)0 - (borrow & ~t[n] & 1);
	bn_cmov(s, t, n, keep);
	memcpy(r, s, (size_t)n * 8);
	memzero_explicit(t, (size_t)(n + 1) * 8);
	memzero_explicit(s, (size_t)n * 8);
}

void bn_mod_add(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mc)
{
	unsigned int n = mc->n;
	u64 s[BN_MAX_LIMBS], d[BN_MAX_LIMBS];
	u64 carry, borrow;

	carry = bn_add(s, a, b, n);
	borrow = bn_sub(d, s, mc->m, n);
	/* Keep s only when there was no carry and s < m. */
	bn_cmov(d, s, n, (u64)0 - (borrow & ~carry & 1));
	memcpy(r, d, (size_t)n * 8);
	memzero_explicit(s, sizeof(s));
	memzero_explicit(d, sizeof(d));
}

void bn_mod_sub(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mc)
{
	unsigned int n = mc->n;
	u64 s[BN_MAX_LIMBS], d[BN_MAX_LIMBS];
	u64 borrow;

	borrow = bn_sub(s, a, b, n);
	bn_add(d, s, mc->m, n);
	bn_cmov(s, d, n, (u64)0 - borrow);
	memcpy(r, s, (size_t)n * 8);
	memzero_explicit(s, sizeof(s));
	memzero_explicit(d, sizeof(d));
}

/* The bit length of one word, by a binary search of masks (no branch on @w). */
static unsigned int word_bits_ct(u64 w)
{
	unsigned int b = 0, s;

	for (s = 32; s; s >>= 1) {
		u64 t = w >> s, nz = (t | ((u64)0 - t)) >> 63;

		b += (unsigned int)nz * s;
		w ^= (w ^ t) & ((u64)0 - nz);
	}
	return b + (unsigned int)w;
}

/* The bit length of @m (@n limbs), its words deciding no branch. */
static unsigned int bn_bits_ct(const u64 *m, unsigned int n)
{
	unsigned int i, bits = 0;

	for (i = 0; i < n; i++) {
		u64 nz = (m[i] | ((u64)0 - m[i])) >> 63;
		unsigned int mask = 0u - (unsigned int)nz;

		bits = (bits & ~mask) | ((64 * i + word_bits_ct(m[i])) & mask);
	}
	return bits;
}

int bn_mont_init(struct bn_mont *mc, const u64 *m, unsigned int n)
{
	u64 x, m0, odd;
	unsigned int i, k, b;

	if (!n || n > BN_MAX_LIMBS)
		return -EINVAL;
	/*
	 * The parity is the verdict returned, public (for RSA's CRT primes
	 * it is known anyway: p q = n is odd).
	 */
	odd = m[0] & 1;
	rind_declassify(&odd, sizeof(odd));
	if (!odd)
		return -EINVAL;
	memset(mc, 0, sizeof(*mc));
	mc->n = n;
	memcpy(mc->m, m, (size_t)n * 8);
	/* Newton's iteration for m0^-1 mod 2^64: 3, 6, 12, 24, 48, 96 bits. */
	m0 = m[0];
	x = m0;
	for (i = 0; i < 5; i++)
		x *= 2 - m0 * x;
	mc->m0inv = (u64)0 - x;

	/*
	 * R mod m and R^2 mod m.  Doubling from 1 until 2^(64n + n) mod m
	 * gives the Montgomery form of 2^n; six Montgomery squarings turn
	 * Montgomery(2^k) into Montgomery(2^(64k)), so the result is
	 * Montgomery(2^(64n)) = R^2 mod m.  The doublings below m's bit
	 * length b never reduce, so they start at 2^(b-1) < m: n + 1 + (64n
	 * - b) of them instead of 65n (33 instead of 2080 for a 2048-bit
	 * modulus, the cost of every RSA public key set up).  b is made
	 * without a branch on m's words and then declassified: it is the key
	 * size's (or its half's) bit length, which the limb count gives to
	 * within a word anyway.  Each doubling subtracts m under a mask, so
	 * the modulus (a secret prime for the CRT halves) decides no branch.
	 */
	b = bn_bits_ct(m, n);
	rind_declassify(&b, sizeof(b));
	memset(mc->rr, 0, sizeof(mc->rr));
	if (b > 1)			/* m = 1: every residue is 0 */
		mc->rr[(b - 1) / 64] = (u64)1 << ((b - 1) % 64);
	for (k = b - 1; k < 64 * n + n; k++) {
		u64 t[BN_MAX_LIMBS], carry, borrow;

		carry = bn_add(mc->rr, mc->rr, mc->rr, n);
		borrow = bn_sub(t, mc->rr, m, n);
		bn_cmov(mc->rr, t, n, (u64)0 - ((carry | (borrow ^ 1)) & 1));
		if (k + 1 == 64 * n)
			memcpy(mc->one, mc->rr, (size_t)n * 8);
	}
	for (i = 0; i < 6; i++)
		bn_mont_mul(mc->rr, mc->rr, mc->rr, mc);
	return 0;
}

void bn_to_mont(u64 *r, const u64 *a, const struct bn_mont *mc)
{
	bn_mont_mul(r, a, mc->rr, mc);
}

void bn_from_mont(u64 *r, const u64 *a, const struct bn_mont *mc)
{
	u64 one[BN_MAX_LIMBS];

	memset(one, 0, (size_t)mc->n * 8);
	one[0] = 1;
	bn_mont_mul(r, a, one, mc);
}

/*
 * Horner over n-limb chunks from the top: acc (Montgomery form of the
 * value so far) becomes acc * R + chunk, i.e. mont_mul(acc, R^2) plus the
 * Montgomery form of the chunk, mont_mul(chunk, R^2) (valid for any chunk
 * below R).
 */
void bn_mod_reduce_mont(u64 *r, const u64 *x, unsigned int xn, const struct bn_mont *mc)
{
	unsigned int n = mc->n, chunks = (xn + n - 1) / n, c;
	u64 acc[BN_MAX_LIMBS], y[BN_MAX_LIMBS];

	memset(acc, 0, (size_t)n * 8);
	for (c = chunks; c-- > 0;) {
		unsigned int lo = c * n, cnt = xn - lo < n ? xn - lo : n;

		memset(y, 0, (size_t)n * 8);
		memcpy(y, x + lo, (size_t)cnt * 8);
		bn_mont_mul(y, y, mc->rr, mc);
		bn_mont_mul(acc, acc, mc->rr, mc);
		bn_mod_add(acc, acc, y, mc);
	}
	memcpy(r, acc, (size_t)n * 8);
	memzero_explicit(acc, sizeof(acc));
	memzero_explicit(y, sizeof(y));
}

#define BN_WIN	4

void bn_mont_exp_ct(u64 *r, const u64 *a, const u64 *e, unsigned int en,
		    const struct bn_mont *mc)
{
	u64 table[1 << BN_WIN][BN_MAX_LIMBS];
	unsigned int n = mc->n, i, j, w;
	u64 acc[BN_MAX_LIMBS], sel[BN_MAX_LIMBS];

	memcpy(table[0], mc->one, (size_t)n * 8);
	memcpy(table[1], a, (size_t)n * 8);
	for (i = 2; i < (1u << BN_WIN); i++)
		bn_mont_mul(table[i], table[i - 1], a, mc);

	memcpy(acc, mc->one, (size_t)n * 8);
	for (w = en * 64 / BN_WIN; w-- > 0;) {
		unsigned int bit = w * BN_WIN;
		u64 idx = (e[bit / 64] >> (bit % 64)) & ((1u << BN_WIN) - 1);

		for (i = 0; i < BN_WIN; i++)
			bn_mont_mul(acc, acc, acc, mc);
		/* Read every entry, keep the one whose index matches. */
		memset(sel, 0, (size_t)n * 8);
		for (i = 0; i < (1u << BN_WIN); i++) {
			u64 mask = ~nz_mask(idx ^ i);

			for (j = 0; j < n; j++)
				sel[j] |= table[i][j] & mask;
		}
		bn_mont_mul(acc, acc, sel, mc);
	}
	memcpy(r, acc, (size_t)n * 8);
	memzero_explicit(table, sizeof(table));
	memzero_explicit(acc, sizeof(acc));
	memzero_explicit(sel, sizeof(sel));
}

void bn_mont_exp_vt(u64 *r, const u64 *a, u64 e, const struct bn_mont *mc)
{
	unsigned int n = mc->n;
	u64 acc[BN_MAX_LIMBS];
	int i;

	memcpy(acc, mc->one, (size_t)n * 8);
	for (i = e ? 63 - __builtin_clzll(e) : -1; i >= 0; i--) {
		bn_mont_mul(acc, acc, acc, mc);
		if ((e >> i) & 1)
			bn_mont_mul(acc, acc, a, mc);
	}
	memcpy(r, acc, (size_t)n * 8);
	memzero_explicit(acc, sizeof(acc));
}

/* a >>= 1 with @top shifted into the most significant bit. */
static void shr1(u64 *a, unsigned int n, u64 top)
{
	unsigned int i;

	for (i = 0; i + 1 < n; i++)
		a[i] = (a[i] >> 1) | (a[i + 1] << 63);
	a[n - 1] = (a[n - 1] >> 1) | (top << 63);
}

/* x = x / 2 mod m (m odd). */
static void half_mod(u64 *x, const u64 *m, unsigned int n)
{
	u64 c = 0;

	if (x[0] & 1)
		c = bn_add(x, x, m, n);
	shr1(x, n, c);
}

static int is_one_vt(const u64 *a, unsigned int n)
{
	unsigned int i;

	if (a[0] != 1)
		return 0;
	for (i = 1; i < n; i++)
		if (a[i])
			return 0;
	return 1;
}

/*
 * The bit-at-a-time binary extended Euclid: the fallback of bn_mod_inv_vt
 * should its batched loop ever run past its iteration bound.
 */
static int mod_inv_bits_vt(u64 *r, const u64 *a, const struct bn_mont *mc)
{
	unsigned int n = mc->n;
	u64 u[BN_MAX_LIMBS], v[BN_MAX_LIMBS], x1[BN_MAX_LIMBS], x2[BN_MAX_LIMBS];
	int err = 0;

	memcpy(u, a, (size_t)n * 8);
	memcpy(v, mc->m, (size_t)n * 8);
	memset(x1, 0, (size_t)n * 8);
	memset(x2, 0, (size_t)n * 8);
	x1[0] = 1;
	for (;;) {
		if (bn_is_zero_mask(u, n)) {
			err = -EINVAL;
			break;
		}
		if (is_one_vt(u, n) || is_one_vt(v, n))
			break;
		while (!(u[0] & 1)) {
			shr1(u, n, 0);
			half_mod(x1, mc->m, n);
		}
		while (!(v[0] & 1)) {
			shr1(v, n, 0);
			half_mod(x2, mc->m, n);
		}
		if (!bn_lt_mask(u, v, n)) {
			bn_sub(u, u, v, n);
			bn_mod_sub(x1, x1, x2, mc);
		} else {
			bn_sub(v, v, u, n);
			bn_mod_sub(x2, x2, x1, mc);
		}
	}
	if (!err)
		memcpy(r, is_one_vt(u, n) ? x1 : x2, (size_t)n * 8);
	memzero_explicit(u, sizeof(u));
	memzero_explicit(v, sizeof(v));
	memzero_explicit(x1, sizeof(x1));
	memzero_explicit(x2, sizeof(x2));
	return err;
}

/*
 * bn_mod_inv_vt batches binary GCD steps on machine words (after Pornin,
 * "Optimized Binary GCD for Modular Inversion", ePrint 2020/972).  The
 * exact algorithm keeps b odd and, while a != 0: if a is odd and a < b,
 * swaps (a, u) with (b, v); if a is odd, a -= b and u -= v; then a /= 2
 * and u /= 2 mod m; with u y = a and v y = b mod m throughout (y the
 * input), so b ends as gcd(y, m) and v as y^-1 when that is 1.
 *
 * INV_STEPS (62) such steps are run on 128-bit stand-ins for a and b, made
 * of their low 62 bits (which decide every parity exactly) and their top
 * 66 bits (which decide the comparisons, approximately), while the
 * factors expressing the new values in the old ones are kept:
 * 2^62 a' = f0 a + g0 b, 2^62 b' = f1 a + g1 b, with |f| + |g| <= 2^62
 * (one unsigned 64x64 product per limb and factor; sums stay below 2^127).
 * Whatever the comparisons decided, the divisions are exact and b' is
 * odd; a wrong one only makes a' or b' negative (then negated, with its
 * factors), and |a'|, |b'| <= max(a, b), so no value grows.  Pornin shows
 * the length of a and b still falls by about INV_STEPS bits per round.
 */
#define INV_STEPS	62
#define INV_LOW		(((u64)1 << INV_STEPS) - 1)

/* a = -a over @n limbs. */
static void neg_vt(u64 *a, unsigned int n)
{
	u64 c = 1;
	unsigned int i;

	for (i = 0; i < n; i++) {
		u64 t = ~a[i] + c;

		c = c && !t;
		a[i] = t;
	}
}

/*
 * INV_STEPS binary GCD steps on the stand-ins @xa and @ya (@ya odd); the
 * factors come back in @f (f0, g0, f1, g1).  Branch-free: the parity and
 * the comparison are unpredictable.
 */
static void inv_steps(u128 xa, u128 ya, s64 f[4])
{
	u64 f0 = 1, g0 = 0, f1 = 0, g1 = 1, odd, lt, sw, t, dl, dh, nl, nh;
	u64 xl = (u64)xa, xh = (u64)(xa >> 64), yl = (u64)ya, yh = (u64)(ya >> 64);
	int i;

	/* On word halves: a u128 comparison would be compiled to branches. */
	for (i = 0; i < INV_STEPS; i++) {
		odd = (u64)0 - (xl & 1);
		dl = xl - yl;
		dh = xh - yh - (((~xl & yl) | (~(xl ^ yl) & dl)) >> 63);
		lt = (u64)0 - ((((~xh & yh) | (~(xh ^ yh) & dh))) >> 63);	/* x < y */
		sw = odd & lt;
		/* x odd: (x, y) = (|x - y|, min(x, y)). */
		yl ^= (xl ^ yl) & sw;
		yh ^= (xh ^ yh) & sw;
		nl = (dl ^ lt) - lt;
		nh = (dh ^ lt) + (lt & (u64)(dl == 0));
		xl = (xl & ~odd) | (nl & odd);
		xh = (xh & ~odd) | (nh & odd);
		t = (f0 ^ f1) & sw;
		f0 ^= t;
		f1 ^= t;
		t = (g0 ^ g1) & sw;
		g0 ^= t;
		g1 ^= t;
		f0 -= f1 & odd;
		g0 -= g1 & odd;
		xl = (xl >> 1) | (xh << 63);
		xh >>= 1;
		f1 += f1;
		g1 += g1;
	}
	f[0] = (s64)f0;
	f[1] = (s64)g0;
	f[2] = (s64)f1;
	f[3] = (s64)g1;
}

/*
 * r = (x f + y g + m k) / 2^62 over @len limbs, the signs of f and g
 * (@sf, @sg: +1 or -1, constants once inlined) apart from their
 * magnitudes @fa, @ga, so that every product is an unsigned 64x64 one;
 * @mk says whether m k is added.  Returns the signed word above r.  @r
 * may be @y (written one limb behind the read), not @x.
 */
static __attribute__((always_inline)) inline s64
lin_pass(u64 *r, const u64 *x, const u64 *y, u64 fa, u64 ga, const u64 *m, u64 k,
	 unsigned int len, int sf, int sg, int mk)
{
	s128 t = 0;
	u64 p = 0;
	unsigned int i;

	for (i = 0; i < len; i++) {
		s128 px = (s128)((u128)x[i] * fa), py = (s128)((u128)y[i] * ga);

		t = (t >> 64) + (sf > 0 ? px : -px) + (sg > 0 ? py : -py);
		if (mk)
			t += (s128)((u128)m[i] * k);
		if (i)
			r[i - 1] = (p >> INV_STEPS) | ((u64)t << (64 - INV_STEPS));
		p = (u64)t;
	}
	t >>= 64;
	r[len - 1] = (p >> INV_STEPS) | ((u64)t << (64 - INV_STEPS));
	return (s64)t >> INV_STEPS;
}

static __attribute__((always_inline)) inline s64
lin_comb(u64 *r, const u64 *x, const u64 *y, s64 f, s64 g, const u64 *m, u64 k,
	 unsigned int len, int mk)
{
	u64 fa = f < 0 ? (u64)0 - (u64)f : (u64)f, ga = g < 0 ? (u64)0 - (u64)g : (u64)g;

	if (f >= 0)
		return g >= 0 ? lin_pass(r, x, y, fa, ga, m, k, len, 1, 1, mk) :
				lin_pass(r, x, y, fa, ga, m, k, len, 1, -1, mk);
	return g >= 0 ? lin_pass(r, x, y, fa, ga, m, k, len, -1, 1, mk) :
			lin_pass(r, x, y, fa, ga, m, k, len, -1, -1, mk);
}

/*
 * (x, y) = ((x f0 + y g0) / 2^62, (x f1 + y g1) / 2^62) over @len limbs,
 * made non-negative; a factor pair is negated with the value it made.
 * |x'| <= max(x, y) < 2^(64 len): the word above is 0 or -1.
 */
static void inv_update_xy(u64 *x, u64 *y, u64 *t, unsigned int len, s64 f[4])
{
	if (lin_comb(t, x, y, f[0], f[1], NULL, 0, len, 0) < 0) {
		neg_vt(t, len);
		f[0] = -f[0];
		f[1] = -f[1];
	}
	if (lin_comb(y, x, y, f[2], f[3], NULL, 0, len, 0) < 0) {
		neg_vt(y, len);
		f[2] = -f[2];
		f[3] = -f[3];
	}
	memcpy(x, t, (size_t)len * 8);
}

/* @top:@x (the word above @x's n limbs), in (-m, 2m), to [0, m). */
static void inv_fix(u64 *x, s64 top, const struct bn_mont *mc)
{
	unsigned int n = mc->n;

	if (top < 0)
		bn_add(x, x, mc->m, n);
	else if (top > 0 || !bn_lt_mask(x, mc->m, n))
		bn_sub(x, x, mc->m, n);
}

/*
 * (u, v) = ((u f0 + v g0) / 2^62 mod m, (u f1 + v g1) / 2^62 mod m): the
 * division is a Montgomery step, adding k m with k = -t / m mod 2^62 to
 * clear t's low bits.  |t| <= 2^62 (m - 1), so (t + k m) / 2^62 lies in
 * (-m, 2m) and one correction brings it into [0, m).
 */
static void inv_update_uv(u64 *u, u64 *v, u64 *t, const s64 f[4], const struct bn_mont *mc)
{
	unsigned int n = mc->n;
	u64 ku, kv;
	s64 top;

	ku = ((u[0] * (u64)f[0] + v[0] * (u64)f[1]) * mc->m0inv) & INV_LOW;
	kv = ((u[0] * (u64)f[2] + v[0] * (u64)f[3]) * mc->m0inv) & INV_LOW;
	top = lin_comb(t, u, v, f[0], f[1], mc->m, ku, n, 1);
	inv_fix(t, top, mc);
	top = lin_comb(v, u, v, f[2], f[3], mc->m, kv, n, 1);
	inv_fix(v, top, mc);
	memcpy(u, t, (size_t)n * 8);
}

/* The 64 bits of @x (@len limbs) from bit @s up. */
static inline u64 inv_window(const u64 *x, unsigned int len, unsigned int s)
{
	unsigned int l = s / 64, o = s % 64;

	if (!o)
		return x[l];
	return (x[l] >> o) | (l + 1 < len ? x[l + 1] << (64 - o) : 0);
}

int bn_mod_inv_vt(u64 *r, const u64 *a, const struct bn_mont *mc)
{
	unsigned int n = mc->n, len = n, rounds, cap;
	u64 x[BN_MAX_LIMBS], y[BN_MAX_LIMBS], u[BN_MAX_LIMBS], v[BN_MAX_LIMBS];
	u64 t[BN_MAX_LIMBS];
	s64 f[4];
	int err = 0;

	if (bn_is_zero_mask(a, n))
		return -EINVAL;
	memcpy(x, a, (size_t)n * 8);
	memcpy(y, mc->m, (size_t)n * 8);
	memset(u, 0, (size_t)n * 8);
	memset(v, 0, (size_t)n * 8);
	u[0] = 1;
	/* Each round removes about INV_STEPS bits of the 128 n; bound it. */
	cap = (128 * n) / (INV_STEPS - 2) + 16;
	for (rounds = 0;; rounds++) {
		u128 xa, ya;

		while (len > 1 && !x[len - 1] && !y[len - 1])
			len--;
		if (len <= 2) {
			xa = x[0] | (len == 2 ? (u128)x[1] << 64 : 0);
			ya = y[0] | (len == 2 ? (u128)y[1] << 64 : 0);
		} else {
			u64 top = x[len - 1] | y[len - 1];
			unsigned int s = 64 * (len - 1) + (64 - __builtin_clzll(top)) - 128;

			xa = ((u128)inv_window(x, len, s + 64) << 64) | inv_window(x, len, s);
			ya = ((u128)inv_window(y, len, s + 64) << 64) | inv_window(y, len, s);
			xa = (xa & ~(u128)INV_LOW) | (x[0] & INV_LOW);
			ya = (ya & ~(u128)INV_LOW) | (y[0] & INV_LOW);
		}
		if (rounds == cap) {
			err = mod_inv_bits_vt(r, a, mc);
			goto out;
		}
		inv_steps(xa, ya, f);
		inv_update_xy(x, y, t, len, f);
		inv_update_uv(u, v, t, f, mc);
		if (!x[0] && bn_is_zero_mask(x, len))
			break;
	}
	/* y = gcd(a, m); v = a^-1 when it is 1. */
	if (y[0] != 1 || (len > 1 && !bn_is_zero_mask(y + 1, len - 1)))
		err = -EINVAL;
	else
		memcpy(r, v, (size_t)n * 8);
out:
	memzero_explicit(x, sizeof(x));
	memzero_explicit(y, sizeof(y));
	memzero_explicit(u, sizeof(u));
	memzero_explicit(v, sizeof(v));
	memzero_explicit(t, sizeof(t));
	memzero_explicit(f, sizeof(f));
	return err;
}
