// SPDX-License-Identifier: MIT
/*
 * RSA keys: a key assembled from its big-endian components (from any
 * encoding, rsa-keyfmt.c, or from key generation, rsa-keygen.c) and
 * checked before it replaces the one a tfm holds.
 *
 * The checks on a private key (p q == n, p, q >= 2, every component below
 * its modulus) run without a branch or an index on the secrets; only the
 * one verdict, the import's result, is made public.  What is public
 * anyway: the modulus, the public exponent, and the components' lengths
 * (minimal DER and JWK encodings make a leading zero byte a public fact).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rind/internal/util.h>
#include <crypto/rsa.h>

void rsa_strip_zeros(const u8 **p, size_t *len)
{
	/*
	 * Leading zero bytes: DER's minimal INTEGER encoding (and JWK's
	 * minimal octets) already make the lengths, and so whether a byte
	 * is a leading zero, public.  Only that verdict is declassified,
	 * never the byte.
	 */
	while (*len) {
		u32 zero = ((u32)**p - 1) >> 31;

		rind_declassify(&zero, sizeof(zero));
		if (!zero)
			break;
		(*p)++;
		(*len)--;
	}
}

/* All-ones if @a (@n limbs) is at least 2, else 0; constant time. */
static u64 ge2_mask(const u64 *a, unsigned int n)
{
	u64 acc = a[0] >> 1;
	unsigned int i;

	for (i = 1; i < n; i++)
		acc |= a[i];
	return ~bn_is_zero_mask(&acc, 1);
}

static int load(u64 *r, unsigned int n, const u8 *be, size_t len)
{
	rsa_strip_zeros(&be, &len);
	if (len > (size_t)n * 8)
		return -EKEYREJECTED;
	bn_from_be(r, n, be, len);
	return 0;
}

/* Build and check a key into @k (a scratch key, copied by the caller). */
static int rsa_build(struct rsa_key *k, const struct rsa_parts *pt, bool priv)
{
	const u8 *nb = pt->n, *eb = pt->e;
	size_t nlen = pt->nlen, elen = pt->elen, i;
	u64 n[BN_MAX_LIMBS], p[BN_MAX_LIMBS], q[BN_MAX_LIMBS], prod[2 * BN_MAX_LIMBS];
	u64 diff = 0, ok;
	unsigned int nl, pl, ql, bits;
	int err = -EKEYREJECTED;

	memset(k, 0, sizeof(*k));
	rsa_strip_zeros(&nb, &nlen);
	rsa_strip_zeros(&eb, &elen);
	if (!nlen || nlen > RSA_MAX_BYTES || !elen || elen > 8)
		return -EKEYREJECTED;
	nl = bn_limbs((unsigned int)nlen * 8);
	bn_from_be(n, nl, nb, nlen);
	bits = bn_bits_vt(n, nl);
	if (bits < RSA_MIN_BITS || bits > RSA_MAX_BITS || !(n[0] & 1))
		return -EKEYREJECTED;
	nl = bn_limbs(bits);
	for (i = 0; i < elen; i++)
		k->e = (k->e << 8) | eb[i];
	if (!(k->e & 1) || k->e < 3)
		return -EKEYREJECTED;
	if (bn_mont_init(&k->mn, n, nl))
		return -EKEYREJECTED;
	k->bits = bits;
	k->k = (bits + 7) / 8;
	if (!priv)
		return 0;

	/* Private: p * q == n, components in range. */
	{
		const u8 *pb = pt->p, *qb = pt->q;
		size_t plen = pt->plen, qlen = pt->qlen;

		rsa_strip_zeros(&pb, &plen);
		rsa_strip_zeros(&qb, &qlen);
		if (!plen || !qlen || plen > nlen || qlen > nlen)
			goto out;
		pl = bn_limbs((unsigned int)plen * 8);
		ql = bn_limbs((unsigned int)qlen * 8);
		bn_from_be(p, pl, pb, plen);
		bn_from_be(q, ql, qb, qlen);
	}
	if (pl + ql < nl)
		goto out;
	if (load(k->d, nl, pt->d, pt->dlen) || load(k->dp, pl, pt->dp, pt->dplen) ||
	    load(k->dq, ql, pt->dq, pt->dqlen) || load(k->qinv, pl, pt->qi, pt->qilen))
		goto out;
	/*
	 * p q == n (the product compared with n zero-extended), p, q >= 2,
	 * and every component in range: computed without a branch on the
	 * secrets, and only the one verdict, the import's result, made public.
	 */
	bn_mul(prod, p, pl, q, ql);
	for (i = 0; i < pl + ql; i++)
		diff |= prod[i] ^ (i < nl ? n[i] : 0);
	ok = bn_is_zero_mask(&diff, 1) & ge2_mask(p, pl) & ge2_mask(q, ql);
	ok &= bn_lt_mask(k->d, n, nl) & bn_lt_mask(k->dp, p, pl) & bn_lt_mask(k->dq, q, ql) &
	      bn_lt_mask(k->qinv, p, pl);
	rind_declassify(&ok, sizeof(ok));
	if (!ok)
		goto out;
	/* p and q are odd now (p q = n, odd): bn_mont_init's parity check passes. */
	if (bn_mont_init(&k->mp, p, pl) || bn_mont_init(&k->mq, q, ql))
		goto out;
	bn_mont_mul(k->rr3p, k->mp.rr, k->mp.rr, &k->mp);	/* R^4 / R */
	bn_mont_mul(k->rr3q, k->mq.rr, k->mq.rr, &k->mq);
	k->has_priv = true;
	err = 0;
out:
	memzero_explicit(p, sizeof(p));
	memzero_explicit(q, sizeof(q));
	memzero_explicit(prod, sizeof(prod));
	if (err)
		memzero_explicit(k, sizeof(*k));
	return err;
}

/*
 * One private operation, with its own fault check, on a fixed value: CRT
 * components that do not belong together (p q != n, dp, dq or qinv
 * wrong) are accepted by the parser but would make every signature fail
 * with -EIO; refuse them at import instead (-EKEYREJECTED).
 */
static int rsa_check_private(const struct rsa_key *k)
{
	u8 *in = calloc(2, RSA_MAX_BYTES), *out;
	int err;

	if (!in)
		return -ENOMEM;
	out = in + RSA_MAX_BYTES;
	in[k->k - 1] = 2;
	err = rsa_private(k, out, in);
	memzero_explicit(out, RSA_MAX_BYTES);
	free(in);
	if (err == -ENOMEM)
		return err;
	return err ? -EKEYREJECTED : 0;
}

/* Assemble into a scratch key and replace @key only on success. */
int rsa_install(struct rsa_key *key, const struct rsa_parts *pt, bool priv)
{
	struct rsa_key *tmp = malloc(sizeof(*tmp));
	int err;

	if (!tmp)
		return -ENOMEM;
	/* The modulus and public exponent are public, however they arrived. */
	rind_declassify(pt->n, pt->nlen);
	rind_declassify(pt->e, pt->elen);
	err = rsa_build(tmp, pt, priv);
	if (!err) {
		tmp->eng = key->eng;	/* the tfm's, not the key's */
		if (priv)
			err = rsa_check_private(tmp);
	}
	if (!err)
		memcpy(key, tmp, sizeof(*tmp));
	memzero_explicit(tmp, sizeof(*tmp));
	free(tmp);
	return err;
}

void rsa_key_wipe(struct rsa_key *key)
{
	const struct rsa_engine *eng = key->eng;

	memzero_explicit(key, sizeof(*key));
	key->eng = eng;
}
