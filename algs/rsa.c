// SPDX-License-Identifier: MIT
/*
 * The RSA primitives (RFC 8017 5.1, 5.2) that the padding files
 * (rsa-pkcs1.c, rsa-pss.c, rsa-oaep.c) build on.  No algorithm is
 * registered here.  The modular exponentiations are the key's engine's
 * (rsa.h: the seam for arch drivers); everything around them is here and
 * shared by every engine.
 *
 * Private-key operation: the input is blinded by r^e for a random r,
 * exponentiated modulo p and q separately (CRT, Garner recombination)
 * with constant-time fixed-window exponentiations, unblinded by r^-1, and
 * checked against the input with the public exponent before release.
 * The pair (r^e, r^-1) is cached in the key and squared on each use,
 * drawn afresh every RSA_BLIND_USES uses (rsa.h); a fresh r^-1 is
 * computed as (r*s)^-1 * s for a second random s, so the variable-time
 * inversion only ever sees the uniformly random r*s.  Every Montgomery
 * product here is the engine's (rsa.h: mont_mul).
 */
#include <errno.h>
#include <string.h>
#include <rind/rng.h>
#include <rind/internal/util.h>
#include <crypto/rsa.h>

const struct rsa_engine rsa_engine_generic = {
	.name = "generic",
	.exp_ct = bn_mont_exp_ct,
	.exp_vt = bn_mont_exp_vt,
};

/* The engine's Montgomery product, bn_mont_mul where it has none. */
static inline void mmul(const struct rsa_engine *eng, u64 *r, const u64 *a, const u64 *b,
			const struct bn_mont *mc)
{
	if (eng->mont_mul)
		eng->mont_mul(r, a, b, mc);
	else
		bn_mont_mul(r, a, b, mc);
}

static void to_mont(const struct rsa_engine *eng, u64 *r, const u64 *a, const struct bn_mont *mc)
{
	mmul(eng, r, a, mc->rr, mc);
}

static void from_mont(const struct rsa_engine *eng, u64 *r, const u64 *a,
		      const struct bn_mont *mc)
{
	u64 one[BN_MAX_LIMBS];

	memset(one, 0, (size_t)mc->n * 8);
	one[0] = 1;
	mmul(eng, r, a, one, mc);
}

/* r = a^e mod m, a < m, both in the ordinary form (rsa.h: exp_pub). */
static void pub_exp(const struct rsa_engine *eng, u64 *r, const u64 *a, u64 e,
		    const struct bn_mont *mc)
{
	if (eng->exp_pub) {
		eng->exp_pub(r, a, e, mc);
		return;
	}
	to_mont(eng, r, a, mc);
	eng->exp_vt(r, r, e, mc);
	from_mont(eng, r, r, mc);
}

/* bn_mod_reduce_mont with the engine's products: r = x R mod m. */
static void reduce_mont(const struct rsa_engine *eng, u64 *r, const u64 *x, unsigned int xn,
			const struct bn_mont *mc)
{
	unsigned int n = mc->n, chunks = (xn + n - 1) / n, c;
	u64 acc[BN_MAX_LIMBS], y[BN_MAX_LIMBS];

	memset(acc, 0, (size_t)n * 8);
	for (c = chunks; c-- > 0;) {
		unsigned int lo = c * n, cnt = xn - lo < n ? xn - lo : n;

		memset(y, 0, (size_t)n * 8);
		memcpy(y, x + lo, (size_t)cnt * 8);
		mmul(eng, y, y, mc->rr, mc);
		if (c + 1 < chunks)	/* public: acc is 0 before the top chunk */
			mmul(eng, acc, acc, mc->rr, mc);
		bn_mod_add(acc, acc, y, mc);
	}
	memcpy(r, acc, (size_t)n * 8);
	memzero_explicit(acc, sizeof(acc));
	memzero_explicit(y, sizeof(y));
}

/*
 * reduce_mont of an n-limb @x (the key's modulus, nl limbs) modulo the
 * half @h (0: p, 1: q): where nl is twice the half's limbs, x = x1 R + x0
 * to x R = x0 R + x1 R^2 in two products (x1 by R^3, rr3p/rr3q) rather
 * than reduce_mont's three.
 */
static void reduce_half(const struct rsa_engine *eng, const struct rsa_key *key, u64 *r,
			const u64 *x, unsigned int h)
{
	const struct bn_mont *mc = h ? &key->mq : &key->mp;
	unsigned int n = mc->n;
	u64 y[BN_MAX_LIMBS];

	if (key->mn.n != 2 * n) {	/* public: the sizes */
		reduce_mont(eng, r, x, key->mn.n, mc);
		return;
	}
	mmul(eng, y, x + n, h ? key->rr3q : key->rr3p, mc);	/* x1 R^2 */
	mmul(eng, r, x, mc->rr, mc);				/* x0 R */
	bn_mod_add(r, r, y, mc);
	memzero_explicit(y, sizeof(y));
}

int rsa_public(const struct rsa_key *key, u8 *out, const u8 *in)
{
	const struct rsa_engine *eng = rsa_key_engine(key);
	const struct bn_mont *mn = &key->mn;
	u64 x[BN_MAX_LIMBS];

	if (!key->bits)
		return -ENOKEY;
	bn_from_be(x, mn->n, in, key->k);
	if (!bn_lt_mask(x, mn->m, mn->n))
		return -EBADMSG;
	pub_exp(eng, x, x, key->e, mn);
	bn_to_be(out, key->k, x, mn->n);
	return 0;
}

/* A uniformly random value below n (n has at least 2048 bits). */
static int random_below_n(u64 *r, const struct rsa_key *key)
{
	unsigned int nl = key->mn.n;
	u64 zero;
	int err;

	/* k - 1 random bytes: below 2^(8k - 8) <= n.  Retry on zero. */
	do {
		u8 buf[RSA_MAX_BYTES];

		err = rind_get_random_bytes(buf, key->k - 1);
		if (err)
			return err;
		bn_from_be(r, nl, buf, key->k - 1);
		memzero_explicit(buf, sizeof(buf));
		zero = bn_is_zero_mask(r, nl);
		rind_declassify(&zero, sizeof(zero));	/* a zero r is thrown away */
	} while (zero);
	return 0;
}

struct rsa_priv_scratch {
	u64 c[BN_MAX_LIMBS], cb[BN_MAX_LIMBS];
	u64 r[BN_MAX_LIMBS], rm[BN_MAX_LIMBS], s[BN_MAX_LIMBS], t[BN_MAX_LIMBS];
	u64 vi[BN_MAX_LIMBS], vf[BN_MAX_LIMBS];
	u64 m1[BN_MAX_LIMBS], m2[BN_MAX_LIMBS], m2p[BN_MAX_LIMBS], h[BN_MAX_LIMBS];
	u64 m[2 * BN_MAX_LIMBS + 1];
	u64 chk[BN_MAX_LIMBS];
};

/*
 * A fresh blinding pair in w->vi, w->vf: r random, vi = r^e and vf = r^-1
 * (Montgomery forms), r^-1 as (r s)^-1 s for a second random s, so that
 * the inversion, variable time, only sees the uniformly random r s.
 */
static int blind_fresh(const struct rsa_key *key, const struct rsa_engine *eng,
		       struct rsa_priv_scratch *w)
{
	const struct bn_mont *mn = &key->mn;
	int err, tries;

	for (tries = 0;; tries++) {
		if (tries == 8)
			return -EIO;
		err = random_below_n(w->r, key);
		if (!err)
			err = random_below_n(w->s, key);
		if (err)
			return err;
		to_mont(eng, w->rm, w->r, mn);			/* r R */
		mmul(eng, w->t, w->rm, w->s, mn);		/* r s mod n */
		if (bn_mod_inv_vt(w->t, w->t, mn))
			continue;				/* shares a factor with n */
		to_mont(eng, w->t, w->t, mn);			/* (r s)^-1 R */
		to_mont(eng, w->s, w->s, mn);			/* s R */
		mmul(eng, w->vf, w->t, w->s, mn);		/* r^-1 R */
		break;
	}
	eng->exp_vt(w->vi, w->rm, key->e, mn);			/* r^e R */
	return 0;
}

/*
 * w->vi, w->vf: the key's cached pair squared (r -> r^2), or a fresh one
 * every RSA_BLIND_USES uses; a fresh one of the caller's own, not cached,
 * when another caller holds the cache.
 */
static int rsa_blind(const struct rsa_key *key, const struct rsa_engine *eng,
		     struct rsa_priv_scratch *w)
{
	/* The cache is written through the const key (rsa.h). */
	struct rsa_blind_cache *bc = (struct rsa_blind_cache *)&key->blind;
	const struct bn_mont *mn = &key->mn;
	size_t len = (size_t)mn->n * 8;
	int err = 0;

	if (__atomic_test_and_set(&bc->busy, __ATOMIC_ACQUIRE))
		return blind_fresh(key, eng, w);
	if (bc->uses) {
		mmul(eng, bc->vi, bc->vi, bc->vi, mn);
		mmul(eng, bc->vf, bc->vf, bc->vf, mn);
		bc->uses--;
	} else {
		err = blind_fresh(key, eng, w);
		if (!err) {
			memcpy(bc->vi, w->vi, len);
			memcpy(bc->vf, w->vf, len);
			bc->uses = RSA_BLIND_USES - 1;
		}
	}
	if (!err) {
		memcpy(w->vi, bc->vi, len);
		memcpy(w->vf, bc->vf, len);
	}
	__atomic_clear(&bc->busy, __ATOMIC_RELEASE);
	return err;
}

/*
 * The steps of a private-key operation, split around the two
 * exponentiations so that a batch (rsa_private_batch) can run those of
 * several requests side by side.
 *
 * priv_begin: w->c = @in (checked below n), blinded by the key's pair
 * (rsa_blind: one pair a request, never shared), and its residues mod p
 * and mod q, Montgomery forms, in w->m1 and w->m2.
 */
static int priv_begin(const struct rsa_key *key, const struct rsa_engine *eng,
		      struct rsa_priv_scratch *w, const u8 *in)
{
	const struct bn_mont *mn = &key->mn;
	unsigned int nl = mn->n;
	u64 ok;
	int err;

	bn_from_be(w->c, nl, in, key->k);
	/*
	 * c < n: public, a ciphertext is, and an encoded message to sign is
	 * below n by construction (its top byte is zero).
	 */
	ok = bn_lt_mask(w->c, mn->m, nl);
	rind_declassify(&ok, sizeof(ok));
	if (!ok)
		return -EBADMSG;
	err = rsa_blind(key, eng, w);
	if (err)
		return err;
	mmul(eng, w->cb, w->c, w->vi, mn);			/* c r^e mod n */
	reduce_half(eng, key, w->m1, w->cb, 0);
	reduce_half(eng, key, w->m2, w->cb, 1);
	return 0;
}

/* m1 = m1^dp mod p, m2 = m2^dq mod q: one request's two exponentiations. */
static void priv_exps(const struct rsa_key *key, const struct rsa_engine *eng,
		      struct rsa_priv_scratch *w)
{
	const struct bn_mont *mp = &key->mp, *mq = &key->mq;

	if (eng->exp_ct2) {
		eng->exp_ct2(w->m1, w->m1, key->dp, mp->n, mp, w->m2, w->m2, key->dq, mq->n, mq);
	} else {
		eng->exp_ct(w->m1, w->m1, key->dp, mp->n, mp);
		eng->exp_ct(w->m2, w->m2, key->dq, mq->n, mq);
	}
}

/* Garner's recombination of m1, m2 into cb^d mod n, then unblinding: w->m. */
static void priv_combine(const struct rsa_key *key, const struct rsa_engine *eng,
			 struct rsa_priv_scratch *w)
{
	const struct bn_mont *mn = &key->mn, *mp = &key->mp, *mq = &key->mq;
	unsigned int pl = mp->n, ql = mq->n;
	u64 ext[2 * BN_MAX_LIMBS + 1];

	from_mont(eng, w->m2, w->m2, mq);			/* m2 < q */
	/* h = (m1 - m2) qinv mod p; m = m2 + h q. */
	reduce_mont(eng, w->m2p, w->m2, ql, mp);
	bn_mod_sub(w->h, w->m1, w->m2p, mp);			/* (m1 - m2) R */
	mmul(eng, w->h, w->h, key->qinv, mp);			/* (m1 - m2) qinv */
	bn_mul(w->m, w->h, pl, mq->m, ql);
	w->m[pl + ql] = 0;
	memset(ext, 0, sizeof(ext));
	memcpy(ext, w->m2, (size_t)ql * 8);
	bn_add(w->m, w->m, ext, pl + ql + 1);
	memzero_explicit(ext, sizeof(ext));
	/* m < n fits nl limbs; unblind: m r^-1 (vf in Montgomery form). */
	mmul(eng, w->m, w->m, w->vf, mn);
}

/*
 * The fault check (m^e == c) before @out is written (CRT fault attacks):
 * mod n, or where the engine runs two halves' exponentiations side by
 * side (exp_vt2), mod p and mod q, which is the same (p, q coprime) for
 * about half the cost: (m R)^e against c R of each half, Montgomery
 * forms below p and q.  check_halves says which; check_begin puts m's
 * residues in w->m1, w->m2, which check_end expects raised to e.
 */
static bool check_halves(const struct rsa_key *key, const struct rsa_engine *eng)
{
	return eng->exp_vt2 && key->mp.n == key->mq.n;	/* public: the engine, the sizes */
}

static void check_begin(const struct rsa_key *key, const struct rsa_engine *eng,
			struct rsa_priv_scratch *w)
{
	reduce_half(eng, key, w->m1, w->m, 0);
	reduce_half(eng, key, w->m2, w->m, 1);
}

static int check_end(const struct rsa_key *key, const struct rsa_engine *eng,
		     struct rsa_priv_scratch *w, u8 *out)
{
	unsigned int nl = key->mn.n;
	u64 ok;

	reduce_half(eng, key, w->h, w->c, 0);
	reduce_half(eng, key, w->m2p, w->c, 1);
	ok = bn_eq_mask(w->m1, w->h, key->mp.n) & bn_eq_mask(w->m2, w->m2p, key->mq.n);
	/* The verdict is public: a fault is reported as such, nothing released. */
	rind_declassify(&ok, sizeof(ok));
	if (!ok)
		return -EIO;
	bn_to_be(out, key->k, w->m, nl);
	return 0;
}

/* priv_end: priv_combine and the fault check of one request, @out written if it passes. */
static int priv_end(const struct rsa_key *key, const struct rsa_engine *eng,
		    struct rsa_priv_scratch *w, u8 *out)
{
	const struct bn_mont *mn = &key->mn;
	unsigned int nl = mn->n;
	u64 ok;

	priv_combine(key, eng, w);
	if (check_halves(key, eng)) {
		check_begin(key, eng, w);
		eng->exp_vt2(w->m1, w->m1, &key->mp, w->m2, w->m2, &key->mq, key->e);
		return check_end(key, eng, w, out);
	}
	pub_exp(eng, w->chk, w->m, key->e, mn);
	ok = bn_eq_mask(w->chk, w->c, nl);
	/* The verdict is public: a fault is reported as such, nothing released. */
	rind_declassify(&ok, sizeof(ok));
	if (!ok)
		return -EIO;
	bn_to_be(out, key->k, w->m, nl);
	return 0;
}

int rsa_private(const struct rsa_key *key, u8 *out, const u8 *in)
{
	const struct rsa_engine *eng = rsa_key_engine(key);
	struct rsa_priv_scratch *w;
	int err;

	if (!key->has_priv)
		return -ENOKEY;
	w = malloc(sizeof(*w));
	if (!w)
		return -ENOMEM;
	err = priv_begin(key, eng, w, in);
	if (!err) {
		priv_exps(key, eng, w);
		err = priv_end(key, eng, w, out);
	}
	memzero_explicit(w, sizeof(*w));
	free(w);
	return err;
}

/* ---- batches (rsa.h: rsa_private_batch) ------------------------------------ */

#define RSA_MAX_LANES	8

/* The lanes the key's engine runs its halves in, and the fewest worth a pass; 1, 0: none. */
static unsigned int batch_width(const struct rsa_key *key, const struct rsa_engine *eng,
				unsigned int *min)
{
	unsigned int lanes = eng->lanes < RSA_MAX_LANES ? eng->lanes : RSA_MAX_LANES;

	*min = 0;
	if (!key->has_priv || !eng->exp_ct_lanes || !eng->lanes_min || lanes < 2 ||
	    key->mp.n != key->mq.n)
		return 1;
	*min = eng->lanes_min(key->mp.n);
	return *min ? lanes : 1;
}

unsigned int rsa_batch_lanes(const struct rsa_key *key, unsigned int n)
{
	unsigned int min, lanes = batch_width(key, rsa_key_engine(key), &min);

	return lanes > 1 && n >= min ? lanes : 1;
}

void rsa_private_batch(const struct rsa_key *key, struct rsa_priv_req *reqs, unsigned int n)
{
	const struct rsa_engine *eng = rsa_key_engine(key);
	unsigned int min, lanes = batch_width(key, eng, &min), i = 0, g, j;
	struct rsa_priv_scratch *w;
	unsigned int idx[RSA_MAX_LANES];
	int err = key->has_priv ? 0 : -ENOKEY;

	w = err ? NULL : malloc(lanes * sizeof(*w));
	if (!w && !err)
		err = -ENOMEM;
	if (err) {
		for (i = 0; i < n; i++)
			if (!reqs[i].err)
				reqs[i].err = err;
		return;
	}
	while (i < n) {
		/* The next group: up to @lanes requests whose input is good. */
		for (g = 0; i < n && g < lanes; i++) {
			if (reqs[i].err)
				continue;
			err = priv_begin(key, eng, &w[g], reqs[i].in);
			if (err) {
				reqs[i].err = err;
				continue;
			}
			idx[g++] = i;
		}
		if (lanes > 1 && g >= min && g) {	/* public: the counts */
			u64 *r1[RSA_MAX_LANES], *r2[RSA_MAX_LANES];

			for (j = 0; j < g; j++) {
				r1[j] = w[j].m1;
				r2[j] = w[j].m2;
			}
			eng->exp_ct_lanes(r1, (const u64 *const *)r1, g, key->dp, key->mp.n, &key->mp);
			eng->exp_ct_lanes(r2, (const u64 *const *)r2, g, key->dq, key->mq.n, &key->mq);
		} else {
			for (j = 0; j < g; j++)
				priv_exps(key, eng, &w[j]);
		}
		if (lanes > 1 && g >= min && g && eng->exp_vt_lanes && check_halves(key, eng)) {
			/* the group's fault checks in lanes too, each its own verdict */
			u64 *r1[RSA_MAX_LANES], *r2[RSA_MAX_LANES];

			for (j = 0; j < g; j++) {
				priv_combine(key, eng, &w[j]);
				check_begin(key, eng, &w[j]);
				r1[j] = w[j].m1;
				r2[j] = w[j].m2;
			}
			eng->exp_vt_lanes(r1, (const u64 *const *)r1, g, key->e, &key->mp);
			eng->exp_vt_lanes(r2, (const u64 *const *)r2, g, key->e, &key->mq);
			for (j = 0; j < g; j++)
				reqs[idx[j]].err = check_end(key, eng, &w[j], reqs[idx[j]].out);
		} else {
			for (j = 0; j < g; j++)
				reqs[idx[j]].err = priv_end(key, eng, &w[j], reqs[idx[j]].out);
		}
		memzero_explicit(w, (size_t)lanes * sizeof(*w));
	}
	free(w);
}
