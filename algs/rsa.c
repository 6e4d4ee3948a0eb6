// SPDX-License-Identifier: MIT
/*
 * The RSA primitives (RFC 8017 5.1, 5.2) that the padding files
 * (rsa-pkcs1.c, rsa-pss.c, rsa-oaep.c) build on.  No algorithm is
 * registered here.  The modular exponentiations are the key's engine's
 * (rsa.h: the seam for arch drivers); everything around them is here and
 * shared by every engine.
 *
 * Private-key operation: the input is blinded by r^e for a fresh random
 * r, exponentiated modulo p and q separately (CRT, Garner recombination)
 * with constant-time fixed-window exponentiations, unblinded by r^-1, and
 * checked against the input with the public exponent before release.
 * r^-1 is computed as (r*s)^-1 * s for a second random s, so the
 * variable-time inversion only ever sees the uniformly random r*s.
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

int rsa_public(const struct rsa_key *key, u8 *out, const u8 *in)
{
	const struct bn_mont *mn = &key->mn;
	u64 x[BN_MAX_LIMBS];

	if (!key->bits)
		return -ENOKEY;
	bn_from_be(x, mn->n, in, key->k);
	if (!bn_lt_mask(x, mn->m, mn->n))
		return -EBADMSG;
	bn_to_mont(x, x, mn);
	rsa_key_engine(key)->exp_vt(x, x, key->e, mn);
	bn_from_mont(x, x, mn);
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
	u64 r[BN_MAX_LIMBS], rm[BN_MAX_LIMBS], rb[BN_MAX_LIMBS], rinv[BN_MAX_LIMBS];
	u64 s[BN_MAX_LIMBS], t[BN_MAX_LIMBS];
	u64 m1[BN_MAX_LIMBS], m2[BN_MAX_LIMBS], m2p[BN_MAX_LIMBS], h[BN_MAX_LIMBS];
	u64 m[2 * BN_MAX_LIMBS + 1];
	u64 chk[BN_MAX_LIMBS];
};

/*
 * Blinding: r random, w->cb = c r^e (Montgomery form), w->rinv = r^-1 =
 * (r s)^-1 s (Montgomery form), so that the inversion, variable time,
 * only sees the uniformly random r s.
 */
static int rsa_blind(const struct rsa_key *key, const struct rsa_engine *eng,
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
		bn_to_mont(w->rm, w->r, mn);
		bn_mont_mul(w->t, w->rm, w->s, mn);		/* r s mod n */
		if (bn_mod_inv_vt(w->t, w->t, mn))
			continue;				/* shares a factor with n */
		bn_to_mont(w->t, w->t, mn);
		bn_mont_mul(w->rinv, w->t, w->s, mn);		/* (r s)^-1 s = r^-1 */
		break;
	}
	eng->exp_vt(w->rb, w->rm, key->e, mn);			/* Montgomery form of r^e */
	bn_mont_mul(w->cb, w->c, w->rb, mn);			/* c r^e mod n */
	return 0;
}

/* w->m = cb^d mod n from cb^dp mod p and cb^dq mod q (Garner). */
static void rsa_crt(const struct rsa_key *key, const struct rsa_engine *eng,
		    struct rsa_priv_scratch *w)
{
	const struct bn_mont *mp = &key->mp, *mq = &key->mq;
	unsigned int nl = key->mn.n, pl = mp->n, ql = mq->n;
	u64 ext[2 * BN_MAX_LIMBS + 1];

	/* m1 = cb^dp mod p, m2 = cb^dq mod q (Montgomery forms). */
	bn_mod_reduce_mont(w->m1, w->cb, nl, mp);
	eng->exp_ct(w->m1, w->m1, key->dp, pl, mp);
	bn_mod_reduce_mont(w->m2, w->cb, nl, mq);
	eng->exp_ct(w->m2, w->m2, key->dq, ql, mq);
	bn_from_mont(w->m2, w->m2, mq);				/* m2 < q */
	/* h = (m1 - m2) qinv mod p; m = m2 + h q. */
	bn_mod_reduce_mont(w->m2p, w->m2, ql, mp);
	bn_mod_sub(w->h, w->m1, w->m2p, mp);			/* (m1 - m2) R */
	bn_mont_mul(w->h, w->h, key->qinv, mp);			/* (m1 - m2) qinv */
	bn_mul(w->m, w->h, pl, mq->m, ql);
	w->m[pl + ql] = 0;
	memset(ext, 0, sizeof(ext));
	memcpy(ext, w->m2, (size_t)ql * 8);
	bn_add(w->m, w->m, ext, pl + ql + 1);
	memzero_explicit(ext, sizeof(ext));
}

int rsa_private(const struct rsa_key *key, u8 *out, const u8 *in)
{
	const struct rsa_engine *eng = rsa_key_engine(key);
	const struct bn_mont *mn = &key->mn;
	unsigned int nl = mn->n;
	struct rsa_priv_scratch *w;
	u64 ok;
	int err;

	if (!key->has_priv)
		return -ENOKEY;
	w = malloc(sizeof(*w));
	if (!w)
		return -ENOMEM;
	bn_from_be(w->c, nl, in, key->k);
	/*
	 * c < n: public, a ciphertext is, and an encoded message to sign is
	 * below n by construction (its top byte is zero).
	 */
	ok = bn_lt_mask(w->c, mn->m, nl);
	rind_declassify(&ok, sizeof(ok));
	if (!ok) {
		err = -EBADMSG;
		goto out;
	}
	err = rsa_blind(key, eng, w);
	if (err)
		goto out;
	rsa_crt(key, eng, w);
	/* m < n fits nl limbs; unblind: m r^-1. */
	bn_to_mont(w->m, w->m, mn);
	bn_mont_mul(w->m, w->m, w->rinv, mn);

	/* Check m^e == c before releasing m (CRT fault attacks). */
	bn_to_mont(w->chk, w->m, mn);
	eng->exp_vt(w->chk, w->chk, key->e, mn);
	bn_from_mont(w->chk, w->chk, mn);
	/* The verdict is public: a fault is reported as such, nothing released. */
	ok = bn_eq_mask(w->chk, w->c, nl);
	rind_declassify(&ok, sizeof(ok));
	if (!ok) {
		err = -EIO;
		goto out;
	}
	bn_to_be(out, key->k, w->m, nl);
	err = 0;
out:
	memzero_explicit(w, sizeof(*w));
	free(w);
	return err;
}
