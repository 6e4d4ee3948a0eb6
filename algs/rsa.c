// SPDX-License-Identifier: MIT
/*
 * RSA (RFC 8017): keys, their encodings, key generation (FIPS 186-5
 * A.1.3-style random probable primes), and the primitives the padding
 * files (rsa_pkcs1.c, rsa_pss.c, rsa_oaep.c) build on.  No algorithm is
 * registered here.
 *
 * Private-key operation: the input is blinded by r^e for a fresh random
 * r, exponentiated modulo p and q separately (CRT, Garner recombination)
 * with constant-time fixed-window exponentiations, unblinded by r^-1, and
 * checked against the input with the public exponent before release.
 * r^-1 is computed as (r*s)^-1 * s for a second random s, so the
 * variable-time inversion only ever sees the uniformly random r*s.
 *
 * Key generation, what is variable time (all of it on candidate primes
 * that are thrown away, or on public facts): the choice to reject a
 * candidate after trial division (the residues themselves are computed
 * with constant-time Barrett reductions, and for the prime finally kept
 * no residue is zero, so its trial division takes the same path every
 * time); the Miller-Rabin verdicts, the position of the first +-1 in a
 * witness sequence, and the count s of trailing zero bits of p - 1; the
 * retries on |p - q| and on the size of d (the verdicts only: the
 * comparisons themselves are masked).  The exponentiations inside
 * Miller-Rabin and for q^-1 mod p are the constant-time ones.
 *
 * Generated keys: p and q of bits/2 bits each with their top two bits set,
 * p, q != 1 mod e, |p - q| > 2^(bits/2 - 100), d = e^-1 mod (p-1)(q-1)
 * (a valid private exponent; FIPS 186-5 takes it modulo lcm(p-1, q-1),
 * which would need a gcd of secret values), d > 2^(bits/2).
 */
#include <errno.h>
#include <string.h>
#include <rind/rng.h>
#include <rind/hash.h>
#include <rind/internal/keyfmt.h>
#include <rind/internal/util.h>
#include <rind/internal/sig.h>
#include <crypto/rsa.h>

typedef unsigned __int128 u128;

/* ---- key assembly -------------------------------------------------------- */

/* Big-endian components, leading zeros allowed (stripped here). */
struct rsa_parts {
	const u8 *n, *e, *d, *p, *q, *dp, *dq, *qi;
	size_t nlen, elen, dlen, plen, qlen, dplen, dqlen, qilen;
};

static void strip(const u8 **p, size_t *len)
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
	strip(&be, &len);
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
	strip(&nb, &nlen);
	strip(&eb, &elen);
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

		strip(&pb, &plen);
		strip(&qb, &qlen);
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

/* Assemble into a scratch key and replace @key only on success. */
static int rsa_install(struct rsa_key *key, const struct rsa_parts *pt, bool priv)
{
	struct rsa_key *tmp = malloc(sizeof(*tmp));
	int err;

	if (!tmp)
		return -ENOMEM;
	/* The modulus and public exponent are public, however they arrived. */
	rind_declassify(pt->n, pt->nlen);
	rind_declassify(pt->e, pt->elen);
	err = rsa_build(tmp, pt, priv);
	if (!err)
		memcpy(key, tmp, sizeof(*tmp));
	memzero_explicit(tmp, sizeof(*tmp));
	free(tmp);
	return err;
}

void rsa_key_wipe(struct rsa_key *key)
{
	memzero_explicit(key, sizeof(*key));
}

/* ---- DER ----------------------------------------------------------------- */

static int parse_pkcs1_pub(const u8 *der, size_t len, struct rsa_parts *pt)
{
	struct rind_der d;
	const u8 *val;
	size_t vlen;
	int err;

	err = rind_der_parse_one(der, len, DER_SEQUENCE, &val, &vlen);
	if (err)
		return -EKEYREJECTED;
	rind_der_init(&d, val, vlen);
	if (rind_der_get_uint(&d, &pt->n, &pt->nlen) || rind_der_get_uint(&d, &pt->e, &pt->elen) ||
	    rind_der_finish(&d))
		return -EKEYREJECTED;
	return 0;
}

static int parse_pkcs1_priv(const u8 *der, size_t len, struct rsa_parts *pt)
{
	struct rind_der d;
	unsigned long version;
	const u8 *val;
	size_t vlen;

	if (rind_der_parse_one(der, len, DER_SEQUENCE, &val, &vlen))
		return -EKEYREJECTED;
	rind_der_init(&d, val, vlen);
	/* version 0: two primes (multi-prime, version 1, is refused). */
	if (rind_der_get_ulong(&d, &version) || version != 0 ||
	    rind_der_get_uint(&d, &pt->n, &pt->nlen) || rind_der_get_uint(&d, &pt->e, &pt->elen) ||
	    rind_der_get_uint(&d, &pt->d, &pt->dlen) || rind_der_get_uint(&d, &pt->p, &pt->plen) ||
	    rind_der_get_uint(&d, &pt->q, &pt->qlen) || rind_der_get_uint(&d, &pt->dp, &pt->dplen) ||
	    rind_der_get_uint(&d, &pt->dq, &pt->dqlen) || rind_der_get_uint(&d, &pt->qi, &pt->qilen) ||
	    rind_der_finish(&d))
		return -EKEYREJECTED;
	return 0;
}

/* Exactly a DER NULL (read by the DER reader: its tag and length are public). */
static bool null_params(const u8 *params, size_t len)
{
	const u8 *v;
	size_t vlen;

	return params && !rind_der_parse_one(params, len, DER_NULL, &v, &vlen) && !vlen;
}

static int parse_spki(const u8 *der, size_t len, struct rsa_parts *pt)
{
	struct rind_spki s;

	if (rind_spki_decode(der, len, &s) || s.alg != RIND_OID_RSA_ENCRYPTION ||
	    !null_params(s.params, s.params_len))
		return -EKEYREJECTED;
	return parse_pkcs1_pub(s.key, s.keylen, pt);
}

static int parse_pkcs8(const u8 *der, size_t len, struct rsa_parts *pt)
{
	struct rind_pkcs8 p8;

	if (rind_pkcs8_decode(der, len, &p8) || p8.alg != RIND_OID_RSA_ENCRYPTION ||
	    !null_params(p8.params, p8.params_len))
		return -EKEYREJECTED;
	return parse_pkcs1_priv(p8.privkey, p8.privkey_len, pt);
}

/* ---- JWK ----------------------------------------------------------------- */

#define JWK_BUF	(RSA_MAX_BYTES + 8)

struct jwk_bufs {
	u8 b[8][JWK_BUF];
};

static int jwk_member(const struct rind_json_obj *o, const char *name, u8 *buf,
		      const u8 **val, size_t *len)
{
	int r = rind_json_get_b64url(o, name, buf, JWK_BUF, 0);

	if (r <= 0)
		return -EKEYREJECTED;
	*val = buf;
	*len = (size_t)r;
	return 0;
}

static int rsa_import_jwk(struct rsa_key *key, const u8 *in, size_t len, bool priv)
{
	struct rind_json_obj *o = malloc(sizeof(*o));
	struct jwk_bufs *b = malloc(sizeof(*b));
	struct rsa_parts pt = { 0 };
	int err = -EKEYREJECTED;

	if (!o || !b) {
		err = -ENOMEM;
		goto out;
	}
	if (rind_json_parse((const char *)in, len, o) || !rind_json_str_eq(o, "kty", "RSA"))
		goto out;
	if (jwk_member(o, "n", b->b[0], &pt.n, &pt.nlen) ||
	    jwk_member(o, "e", b->b[1], &pt.e, &pt.elen))
		goto out;
	if (!priv) {
		/* A private JWK is not a public key. */
		if (rind_json_get(o, "d"))
			goto out;
	} else if (jwk_member(o, "d", b->b[2], &pt.d, &pt.dlen) ||
		   jwk_member(o, "p", b->b[3], &pt.p, &pt.plen) ||
		   jwk_member(o, "q", b->b[4], &pt.q, &pt.qlen) ||
		   jwk_member(o, "dp", b->b[5], &pt.dp, &pt.dplen) ||
		   jwk_member(o, "dq", b->b[6], &pt.dq, &pt.dqlen) ||
		   jwk_member(o, "qi", b->b[7], &pt.qi, &pt.qilen) ||
		   rind_json_get(o, "oth")) {
		goto out;
	}
	err = rsa_install(key, &pt, priv);
out:
	if (b)
		memzero_explicit(b, sizeof(*b));
	free(b);
	free(o);
	return err;
}

/* ---- import -------------------------------------------------------------- */

static int rsa_import(struct rsa_key *key, const u8 *in, size_t len, bool priv)
{
	struct rsa_parts pt = { 0 };
	enum rind_key_format fmt;
	int err;

	if (!len)
		return -EKEYREJECTED;
	fmt = rind_key_detect(in, len, 0);
	if (fmt == RIND_KEY_JWK)
		return rsa_import_jwk(key, in, len, priv);
	if (fmt == RIND_KEY_PEM) {
		const char *label;
		size_t label_len;
		u8 *der = malloc(len);
		int n;

		if (!der)
			return -ENOMEM;
		n = rind_pem_decode((const char *)in, len, NULL, &label, &label_len, der, len);
		err = -EKEYREJECTED;
		if (n > 0) {
#define LABEL_IS(s) (label_len == strlen(s) && !memcmp(label, s, label_len))
			if (!priv && LABEL_IS(RIND_PEM_PUBLIC_KEY))
				err = parse_spki(der, (size_t)n, &pt);
			else if (!priv && LABEL_IS(RIND_PEM_RSA_PUBLIC_KEY))
				err = parse_pkcs1_pub(der, (size_t)n, &pt);
			else if (priv && LABEL_IS(RIND_PEM_PRIVATE_KEY))
				err = parse_pkcs8(der, (size_t)n, &pt);
			else if (priv && LABEL_IS(RIND_PEM_RSA_PRIVATE_KEY))
				err = parse_pkcs1_priv(der, (size_t)n, &pt);
#undef LABEL_IS
			if (!err)
				err = rsa_install(key, &pt, priv);
		}
		memzero_explicit(der, len);
		free(der);
		return err;
	}
	/* DER: SPKI / PKCS#8 first, then the PKCS#1 (raw) structures. */
	if (priv) {
		err = parse_pkcs8(in, len, &pt);
		if (err)
			err = parse_pkcs1_priv(in, len, &pt);
	} else {
		err = parse_spki(in, len, &pt);
		if (err)
			err = parse_pkcs1_pub(in, len, &pt);
	}
	if (err)
		return -EKEYREJECTED;
	return rsa_install(key, &pt, priv);
}

int rsa_import_pub(struct rsa_key *key, const u8 *in, size_t len)
{
	return rsa_import(key, in, len, false);
}

int rsa_import_priv(struct rsa_key *key, const u8 *in, size_t len)
{
	return rsa_import(key, in, len, true);
}

/* ---- export -------------------------------------------------------------- */

/* Scratch big-endian copies of every component. */
struct rsa_be {
	u8 n[RSA_MAX_BYTES], e[8], d[RSA_MAX_BYTES];
	u8 p[RSA_MAX_BYTES], q[RSA_MAX_BYTES], dp[RSA_MAX_BYTES], dq[RSA_MAX_BYTES];
	u8 qi[RSA_MAX_BYTES];
	size_t nlen, plen, qlen;
};

static void rsa_to_be(const struct rsa_key *k, struct rsa_be *b, bool priv)
{
	b->nlen = k->k;
	bn_to_be(b->n, b->nlen, k->mn.m, k->mn.n);
	put_unaligned_be64(k->e, b->e);
	if (!priv)
		return;
	b->plen = (size_t)k->mp.n * 8;
	b->qlen = (size_t)k->mq.n * 8;
	bn_to_be(b->d, b->nlen, k->d, k->mn.n);
	bn_to_be(b->p, b->plen, k->mp.m, k->mp.n);
	bn_to_be(b->q, b->qlen, k->mq.m, k->mq.n);
	bn_to_be(b->dp, b->plen, k->dp, k->mp.n);
	bn_to_be(b->dq, b->qlen, k->dq, k->mq.n);
	bn_to_be(b->qi, b->plen, k->qinv, k->mp.n);
}

static int der_pkcs1(const struct rsa_be *b, bool priv, u8 *out, size_t outlen)
{
	struct rind_derw w;

	rind_derw_init(&w, out, outlen);
	rind_derw_begin(&w, DER_SEQUENCE);
	if (priv)
		rind_derw_ulong(&w, 0);
	rind_derw_uint(&w, b->n, b->nlen);
	rind_derw_uint(&w, b->e, 8);
	if (priv) {
		rind_derw_uint(&w, b->d, b->nlen);
		rind_derw_uint(&w, b->p, b->plen);
		rind_derw_uint(&w, b->q, b->qlen);
		rind_derw_uint(&w, b->dp, b->plen);
		rind_derw_uint(&w, b->dq, b->qlen);
		rind_derw_uint(&w, b->qi, b->plen);
	}
	rind_derw_end(&w);
	return rind_derw_finish(&w);
}

static void jwk_int(struct rind_jsonw *w, const char *name, const u8 *be, size_t len)
{
	strip(&be, &len);
	rind_jsonw_b64url(w, name, be, len);
}

#define DER_SCRATCH	(6 * RSA_MAX_BYTES)

static int rsa_export(const struct rsa_key *key, enum rind_key_format fmt, bool priv,
		      u8 *out, size_t outlen)
{
	struct rsa_be *b;
	u8 *der = NULL, *der2 = NULL;
	int len, ret;

	if (!key->bits || (priv && !key->has_priv))
		return -ENOKEY;
	if (fmt > RIND_KEY_JWK || (priv && fmt == RIND_KEY_SPKI_DER) ||
	    (!priv && fmt == RIND_KEY_PKCS8_DER))
		return -EINVAL;
	b = malloc(sizeof(*b));
	if (!b)
		return -ENOMEM;
	rsa_to_be(key, b, priv);
	if (fmt == RIND_KEY_JWK) {
		struct rind_jsonw w;

		rind_jsonw_init(&w, (char *)out, outlen);
		rind_jsonw_str(&w, "kty", "RSA");
		jwk_int(&w, "n", b->n, b->nlen);
		jwk_int(&w, "e", b->e, 8);
		if (priv) {
			jwk_int(&w, "d", b->d, b->nlen);
			jwk_int(&w, "p", b->p, b->plen);
			jwk_int(&w, "q", b->q, b->qlen);
			jwk_int(&w, "dp", b->dp, b->plen);
			jwk_int(&w, "dq", b->dq, b->qlen);
			jwk_int(&w, "qi", b->qi, b->plen);
		}
		ret = rind_jsonw_finish(&w);
		goto out;
	}
	if (fmt == RIND_KEY_RAW) {
		ret = der_pkcs1(b, priv, out, outlen);
		goto out;
	}
	ret = -ENOMEM;
	der = malloc(DER_SCRATCH);
	der2 = malloc(DER_SCRATCH);
	if (!der || !der2)
		goto out;
	len = der_pkcs1(b, priv, der, DER_SCRATCH);
	if (len < 0) {
		ret = len;
		goto out;
	}
	if (priv) {
		struct rind_pkcs8 p8 = {
			.version = 0, .alg = RIND_OID_RSA_ENCRYPTION,
			.params = rind_der_null_tlv, .params_len = 2,
			.privkey = der, .privkey_len = (size_t)len,
		};

		len = rind_pkcs8_encode(&p8, fmt == RIND_KEY_PEM ? der2 : out,
					fmt == RIND_KEY_PEM ? DER_SCRATCH : outlen);
	} else {
		struct rind_spki s = {
			.alg = RIND_OID_RSA_ENCRYPTION,
			.params = rind_der_null_tlv, .params_len = 2,
			.key = der, .keylen = (size_t)len,
		};

		len = rind_spki_encode(&s, fmt == RIND_KEY_PEM ? der2 : out,
				       fmt == RIND_KEY_PEM ? DER_SCRATCH : outlen);
	}
	if (len < 0 || fmt != RIND_KEY_PEM) {
		ret = len;
		goto out;
	}
	ret = rind_pem_encode(priv ? RIND_PEM_PRIVATE_KEY : RIND_PEM_PUBLIC_KEY,
			      der2, (size_t)len, (char *)out, outlen);
out:
	if (der) {
		memzero_explicit(der, DER_SCRATCH);
		free(der);
	}
	if (der2) {
		memzero_explicit(der2, DER_SCRATCH);
		free(der2);
	}
	memzero_explicit(b, sizeof(*b));
	free(b);
	return ret;
}

int rsa_export_pub(const struct rsa_key *key, enum rind_key_format fmt, u8 *out, size_t outlen)
{
	return rsa_export(key, fmt, false, out, outlen);
}

int rsa_export_priv(const struct rsa_key *key, enum rind_key_format fmt, u8 *out, size_t outlen)
{
	return rsa_export(key, fmt, true, out, outlen);
}

/* ---- primitives ---------------------------------------------------------- */

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
	bn_mont_exp_vt(x, x, key->e, mn);
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

int rsa_private(const struct rsa_key *key, u8 *out, const u8 *in)
{
	const struct bn_mont *mn = &key->mn, *mp = &key->mp, *mq = &key->mq;
	unsigned int nl = mn->n, pl = mp->n, ql = mq->n;
	struct rsa_priv_scratch *w;
	u64 ok;
	int err, tries;

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

	/* Blinding: r random, rb = r^e, rinv = r^-1 = (r s)^-1 s. */
	for (tries = 0;; tries++) {
		if (tries == 8) {
			err = -EIO;
			goto out;
		}
		err = random_below_n(w->r, key);
		if (!err)
			err = random_below_n(w->s, key);
		if (err)
			goto out;
		bn_to_mont(w->rm, w->r, mn);
		bn_mont_mul(w->t, w->rm, w->s, mn);		/* r s mod n */
		if (bn_mod_inv_vt(w->t, w->t, mn))
			continue;				/* shares a factor with n */
		bn_to_mont(w->t, w->t, mn);
		bn_mont_mul(w->rinv, w->t, w->s, mn);		/* (r s)^-1 s = r^-1 */
		break;
	}
	bn_mont_exp_vt(w->rb, w->rm, key->e, mn);		/* Montgomery form of r^e */
	bn_mont_mul(w->cb, w->c, w->rb, mn);			/* c r^e mod n */

	/* CRT: m1 = cb^dp mod p, m2 = cb^dq mod q (Montgomery forms). */
	bn_mod_reduce_mont(w->m1, w->cb, nl, mp);
	bn_mont_exp_ct(w->m1, w->m1, key->dp, pl, mp);
	bn_mod_reduce_mont(w->m2, w->cb, nl, mq);
	bn_mont_exp_ct(w->m2, w->m2, key->dq, ql, mq);
	bn_from_mont(w->m2, w->m2, mq);				/* m2 < q */
	/* h = (m1 - m2) qinv mod p; m = m2 + h q. */
	bn_mod_reduce_mont(w->m2p, w->m2, ql, mp);
	bn_mod_sub(w->h, w->m1, w->m2p, mp);			/* (m1 - m2) R */
	bn_mont_mul(w->h, w->h, key->qinv, mp);			/* (m1 - m2) qinv */
	bn_mul(w->m, w->h, pl, mq->m, ql);
	w->m[pl + ql] = 0;
	{
		u64 ext[2 * BN_MAX_LIMBS + 1];

		memset(ext, 0, sizeof(ext));
		memcpy(ext, w->m2, (size_t)ql * 8);
		bn_add(w->m, w->m, ext, pl + ql + 1);
	}
	/* m < n fits nl limbs; unblind: m r^-1. */
	bn_to_mont(w->m, w->m, mn);
	bn_mont_mul(w->m, w->m, w->rinv, mn);

	/* Check m^e == c before releasing m (CRT fault attacks). */
	bn_to_mont(w->chk, w->m, mn);
	bn_mont_exp_vt(w->chk, w->chk, key->e, mn);
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

int rsa_mgf1_xor(struct crypto_shash *hash, const u8 *seed, unsigned int seedlen,
		 u8 *out, unsigned int outlen)
{
	unsigned int hlen = crypto_shash_digestsize(hash), done = 0, i;
	u8 d[HASH_MAX_DIGESTSIZE], ctr[4];
	SHASH_DESC_ON_STACK(desc, hash);
	u32 c;
	int err = 0;

	desc->tfm = hash;
	for (c = 0; done < outlen; c++) {
		put_unaligned_be32(c, ctr);
		err = crypto_shash_init(desc);
		if (!err)
			err = crypto_shash_update(desc, seed, seedlen);
		if (!err)
			err = crypto_shash_update(desc, ctr, 4);
		if (!err)
			err = crypto_shash_final(desc, d);
		if (err)
			break;
		for (i = 0; i < hlen && done < outlen; i++)
			out[done++] ^= d[i];
	}
	memzero_explicit(d, sizeof(d));
	shash_desc_zero(desc);
	return err;
}

/* ---- key generation ------------------------------------------------------ */

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

static int miller_rabin(const struct bn_mont *mc, unsigned int pbits, int *prime)
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
		bn_mont_exp_ct(a, a, d, n, mc);
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
static int gen_prime(u64 *p, unsigned int pbits, const struct small_primes *sp,
		     u64 e, u64 emu, struct bn_mont *mc)
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
			err = miller_rabin(mc, pbits, &prime);
		if (err)
			break;
		if (prime)
			break;
	}
	memzero_explicit(buf, sizeof(buf));
	return err;
}

int rsa_generate(struct rsa_key *key, unsigned int bits)
{
	struct gen {
		struct small_primes sp;
		struct bn_mont mp, mq;
		u64 p[BN_MAX_LIMBS], q[BN_MAX_LIMBS], pm1[BN_MAX_LIMBS], qm1[BN_MAX_LIMBS];
		u64 phi[BN_MAX_LIMBS], n[BN_MAX_LIMBS], d[BN_MAX_LIMBS];
		u64 dp[BN_MAX_LIMBS], dq[BN_MAX_LIMBS], qi[BN_MAX_LIMBS], t[BN_MAX_LIMBS];
		u64 one[BN_MAX_LIMBS], two[BN_MAX_LIMBS];
		struct rsa_be be;
	} *g;
	const u64 e = RSA_KEYGEN_E;
	unsigned int pbits = bits / 2, pl = bn_limbs(pbits), nl = bn_limbs(bits), i;
	struct rsa_parts pt;
	u64 emu = ~(u64)0 / e, retry;
	int err;

	if (bits < RSA_MIN_BITS || bits > RSA_MAX_BITS || (bits & 1))
		return -EINVAL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	small_primes_init(&g->sp);
	g->one[0] = 1;
	g->two[0] = 2;
	for (;;) {
		err = gen_prime(g->p, pbits, &g->sp, e, emu, &g->mp);
		if (!err)
			err = gen_prime(g->q, pbits, &g->sp, e, emu, &g->mq);
		if (err)
			goto out;
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
		if (retry)
			continue;
		break;
	}
	inv_e_mod(g->dp, g->pm1, pl, e, emu);
	inv_e_mod(g->dq, g->qm1, pl, e, emu);
	/* qinv = q^(p - 2) mod p */
	bn_sub(g->t, g->p, g->two, pl);
	bn_to_mont(g->qi, g->q, &g->mp);	/* q < R, so this reduces it too */
	bn_mont_exp_ct(g->qi, g->qi, g->t, pl, &g->mp);
	bn_from_mont(g->qi, g->qi, &g->mp);

	memset(&pt, 0, sizeof(pt));
	bn_to_be(g->be.n, (size_t)nl * 8, g->n, nl);
	bn_to_be(g->be.d, (size_t)nl * 8, g->d, nl);
	bn_to_be(g->be.p, (size_t)pl * 8, g->p, pl);
	bn_to_be(g->be.q, (size_t)pl * 8, g->q, pl);
	bn_to_be(g->be.dp, (size_t)pl * 8, g->dp, pl);
	bn_to_be(g->be.dq, (size_t)pl * 8, g->dq, pl);
	bn_to_be(g->be.qi, (size_t)pl * 8, g->qi, pl);
	for (i = 0; i < 8; i++)
		g->be.e[i] = (u8)(e >> (56 - 8 * i));
	pt.n = g->be.n;   pt.nlen = (size_t)nl * 8;
	pt.e = g->be.e;   pt.elen = 8;
	pt.d = g->be.d;   pt.dlen = (size_t)nl * 8;
	pt.p = g->be.p;   pt.plen = (size_t)pl * 8;
	pt.q = g->be.q;   pt.qlen = (size_t)pl * 8;
	pt.dp = g->be.dp; pt.dplen = (size_t)pl * 8;
	pt.dq = g->be.dq; pt.dqlen = (size_t)pl * 8;
	pt.qi = g->be.qi; pt.qilen = (size_t)pl * 8;
	err = rsa_install(key, &pt, true);
out:
	memzero_explicit(g, sizeof(*g));
	free(g);
	return err;
}

/* ---- tfm helpers ----------------------------------------------------------- */

int rsa_ctx_init(struct rsa_tfm_ctx *ctx, const char *hash_name)
{
	struct crypto_shash *h = crypto_alloc_shash(hash_name, 0, 0);

	if (IS_ERR(h))
		return (int)PTR_ERR(h);
	ctx->hash = h;
	ctx->keygen_bits = 3072;
	return 0;
}

void rsa_ctx_exit(struct rsa_tfm_ctx *ctx)
{
	if (!IS_ERR_OR_NULL(ctx->hash))
		crypto_free_shash(ctx->hash);
	ctx->hash = NULL;
	rsa_key_wipe(&ctx->key);
}

int rsa_ctx_set_keygen_bits(struct rsa_tfm_ctx *ctx, unsigned int bits)
{
	if (bits < RSA_MIN_BITS || bits > RSA_MAX_BITS || (bits & 1))
		return -EINVAL;
	ctx->keygen_bits = bits;
	return 0;
}

/* ---- sig glue (rsa_pkcs1.c, rsa_pss.c) ------------------------------------- */

static struct rsa_tfm_ctx *sig_ctx(struct crypto_sig *tfm)
{
	return crypto_sig_ctx(tfm);
}

/* The hash is the second argument of the name: "pkcs1(rsa,sha256)". */
int rsa_ctx_init_from_name(struct rsa_tfm_ctx *ctx, const char *name)
{
	const char *comma = strchr(name, ',');
	char hash[CRYPTO_MAX_ALG_NAME];
	size_t len;

	if (!comma)
		return -EINVAL;
	len = strlen(comma + 1);
	if (!len || len >= sizeof(hash) || comma[len] != ')')
		return -EINVAL;
	memcpy(hash, comma + 1, len - 1);
	hash[len - 1] = 0;
	return rsa_ctx_init(ctx, hash);
}

int rsa_sig_init(struct crypto_sig *tfm)
{
	return rsa_ctx_init_from_name(sig_ctx(tfm), crypto_sig_alg_name(tfm));
}

void rsa_sig_exit(struct crypto_sig *tfm)
{
	rsa_ctx_exit(sig_ctx(tfm));
}

int rsa_sig_set_pub_key(struct crypto_sig *tfm, const void *key, unsigned int keylen)
{
	return rsa_import_pub(&sig_ctx(tfm)->key, key, keylen);
}

int rsa_sig_set_priv_key(struct crypto_sig *tfm, const void *key, unsigned int keylen)
{
	return rsa_import_priv(&sig_ctx(tfm)->key, key, keylen);
}

int rsa_sig_generate_key(struct crypto_sig *tfm)
{
	struct rsa_tfm_ctx *ctx = sig_ctx(tfm);

	return rsa_generate(&ctx->key, ctx->keygen_bits);
}

int rsa_sig_set_keygen_bits(struct crypto_sig *tfm, unsigned int bits)
{
	return rsa_ctx_set_keygen_bits(sig_ctx(tfm), bits);
}

int rsa_sig_export_pubkey(struct crypto_sig *tfm, enum rind_key_format fmt, u8 *out,
			  unsigned int outlen)
{
	return rsa_export_pub(&sig_ctx(tfm)->key, fmt, out, outlen);
}

int rsa_sig_export_privkey(struct crypto_sig *tfm, enum rind_key_format fmt, u8 *out,
			   unsigned int outlen)
{
	return rsa_export_priv(&sig_ctx(tfm)->key, fmt, out, outlen);
}

unsigned int rsa_sig_key_size(struct crypto_sig *tfm)
{
	return sig_ctx(tfm)->key.bits;
}

unsigned int rsa_sig_max_size(struct crypto_sig *tfm)
{
	struct rsa_tfm_ctx *ctx = sig_ctx(tfm);

	return ctx->key.bits ? ctx->key.k : RSA_MAX_BYTES;
}

/* ---- the self-test key ------------------------------------------------------ */

/* An RSA-2048 key made by OpenSSL for the known-answer tests (PKCS#1 DER). */
const char rsa_kat_privkey[RSA_KAT_PRIV_SIZE + 1] =
	"\x30\x82\x04\xa5\x02\x01\x00\x02\x82\x01\x01\x00\xc9\x38\x41\x33"
	"\x44\xa0\x8a\x71\x15\x42\x76\x36\xae\x54\x32\x4e\x2e\xfa\x40\x95"
	"\xac\x9b\x49\x99\x21\xca\x3f\x62\x33\x06\x80\x7d\xe3\x31\x12\x9d"
	"\xc8\x47\xa6\xe8\xd0\x5d\xbe\xb1\x00\xe9\xc0\x37\xe2\x19\xdb\xa9"
	"\x06\xfb\x5c\xc4\x2f\x40\x11\x75\x81\xf1\xab\x9b\x46\x64\xd9\x97"
	"\xcf\xb7\xe5\xc7\xf8\xf1\xbc\x3c\xa9\x94\x79\xa1\x4f\x1c\x0e\x54"
	"\x90\xdf\xc1\x75\x45\xd9\xc4\xd0\x5b\x10\x71\x1e\xca\xc4\xed\x79"
	"\xc8\x8e\xf2\x66\x73\xed\xc4\xcd\x04\x44\x10\x06\xc1\x06\x49\xf0"
	"\x39\x2a\xdd\xe9\xc1\xc2\x4c\x27\x3c\x12\xeb\x7e\xb2\x1c\x51\x55"
	"\xd9\xe9\xd1\x55\xc2\x3e\x8a\x1a\xde\xe3\x38\x1a\x60\x21\xd9\x8d"
	"\x4e\x3c\xc8\xd0\x67\xf1\x26\x53\xc3\x41\x76\xd3\xe3\x10\x22\xd2"
	"\xbd\x4c\x42\x40\xef\xfb\xd1\x34\xd0\xca\x21\x53\x73\x95\x0e\x93"
	"\x48\xea\x10\x2f\xc4\xc9\xd7\x3e\xb3\x94\xcb\x03\x7b\xa2\xd0\x5b"
	"\x3b\x26\x8a\x26\x09\x3e\xb3\xe9\x3d\xa6\x3b\x16\x72\x0a\xff\x91"
	"\xce\xb5\xa5\x0d\x7b\x9a\xea\x0a\x14\xf6\xa9\xa3\xa8\x41\x70\x95"
	"\xfc\xbd\x48\xa2\x7b\x13\x91\x3b\xd3\xe3\x4f\x03\x2c\x68\x35\x58"
	"\x3c\x75\xae\xf7\xf1\xc7\x42\xa3\xc3\x6a\x14\x3f\x02\x03\x01\x00"
	"\x01\x02\x82\x01\x00\x14\xf0\x25\x1c\xb4\x19\xee\x7d\xf8\xe3\xdb"
	"\x10\x32\x90\xb1\x51\x60\x63\x0b\x00\x68\x1f\x1a\x87\xf4\x33\xaa"
	"\xe7\xc9\x7e\x76\x35\x63\x44\x32\x77\x37\xa5\x79\x11\x45\xc9\x53"
	"\x73\xf0\xaf\xe2\x20\x0e\x87\x79\x4b\x7b\xde\x01\x17\xab\x01\x04"
	"\x30\x11\x8e\xf7\xb7\xe7\x19\xcc\x68\x97\x25\x40\x24\x50\x5b\xbb"
	"\x26\x26\xd1\x3b\xdc\xd4\xb2\x0b\x2d\xb2\x8b\x8e\x02\x69\x7b\xd1"
	"\x16\x8b\x3b\x49\x42\x16\x80\x6a\x63\x9f\x42\x7c\xa7\xbb\x8d\x74"
	"\xca\x8e\x94\x94\x84\x57\x66\x93\xa0\x0b\x1a\xd2\x4f\xa6\x29\x55"
	"\x2a\x49\xfe\x80\x01\x96\x36\x96\x79\x6c\x28\xe2\x39\x34\x12\xb5"
	"\x05\x14\xeb\xf8\x3d\xf1\xa0\x91\x1c\x6d\x72\x35\x88\xa7\x7c\xed"
	"\x45\x62\xd6\x61\xdc\xd5\xba\xf3\x69\x38\xef\x13\x27\xb3\xfa\x07"
	"\xd0\x5d\xf5\x8e\x77\xb0\x09\x62\x3b\xc8\x7b\x07\x37\x8e\xc6\xe1"
	"\x1c\x2e\x14\x9a\x80\xb2\xfd\x83\xbe\xb4\xee\xe3\xa0\xe2\xf4\x24"
	"\x68\xee\x81\x0e\xc1\xee\x0c\x7a\x21\x8f\xe5\x6c\xaa\xe5\x55\xf0"
	"\x14\x4a\x4d\xb3\x1c\x69\xf3\x42\xb1\x9a\x46\xf1\xa6\x0c\x59\x3d"
	"\x8a\x19\xb5\xdf\x20\x53\x0b\x44\x53\x58\xc3\x9e\x92\x1d\xf8\xfb"
	"\x85\x53\x96\xaf\x49\x02\x81\x81\x00\xed\xed\xe2\x79\xec\x5a\xc1"
	"\xd4\x38\x13\xd1\x5a\x53\xaf\x82\x1d\xa2\xe6\xac\x47\x6d\xb8\x1b"
	"\xd6\xda\xf4\x30\xe8\xc3\x2f\xdf\x86\xa9\xd4\x07\xda\x12\x40\xc7"
	"\x72\x17\xca\x5c\xd9\xd0\x45\x78\xb0\xa4\x72\x80\xb2\xef\x7d\xcc"
	"\xd7\xd7\xde\xce\x00\x20\x79\x13\x0b\x08\x7a\x6a\x51\xa6\x4b\xa2"
	"\x18\x95\xd0\x91\x25\xef\x8f\x5b\xd2\x34\xec\x6f\x55\xea\x12\x06"
	"\xff\xa1\x74\x6f\xa3\x47\xd4\x7a\x57\xfe\x5c\x7a\x11\x74\xcb\x50"
	"\xa7\x94\x48\x0a\x82\xe4\x9c\xd1\x71\x6b\x79\x3d\x9a\x68\xde\xa7"
	"\x80\xd1\x69\x38\xa9\x76\x86\x74\xa9\x02\x81\x81\x00\xd8\x80\x9e"
	"\x58\x97\x60\x28\xd2\xb5\x22\x54\x01\x18\x4f\x8a\x4b\x6d\x3b\xf9"
	"\x99\xa4\xe1\xbc\x93\xdb\x0c\x5b\xde\xba\xee\x08\x9f\xfe\x96\x66"
	"\xae\x8d\x6a\x43\x6d\x4b\x1c\x7f\x22\x14\xff\xb2\x67\xe4\x0f\x7e"
	"\x28\xec\x78\xcb\x36\xd0\xe0\xe7\x9b\x5d\x6a\x91\x29\x83\x9c\x5e"
	"\x25\x55\xcd\xd7\x26\x42\xe8\xd1\xd8\x0c\x7d\x58\x4b\x48\xdf\x6a"
	"\x56\x21\xd4\x30\xe5\x70\xdb\xc7\x24\x6f\x9f\x8d\x02\x28\xc0\x94"
	"\xf5\x39\xb6\x18\x9a\x24\xd1\x6c\x95\x09\xa1\x0a\xac\x31\x9a\xc5"
	"\x90\xd9\xd7\x6f\x28\xb9\x47\xc7\x42\x33\xf6\x6a\xa7\x02\x81\x81"
	"\x00\xa9\x52\x24\x5d\x1e\x0d\xcc\x68\xa9\x6b\xb9\x0d\xee\x06\x35"
	"\xb3\xbf\x8d\x27\x47\x41\xd6\xc6\xc1\x15\x5a\xb8\x3f\xbd\x40\x21"
	"\x73\xa5\x02\x46\x80\x33\x83\x34\x2c\x86\xaf\xb5\x7a\x30\x94\x6f"
	"\xfa\x4d\x5d\x4b\x27\x8b\xf5\xdb\xc4\x33\x54\xd5\x07\x14\x14\xf5"
	"\xaf\x61\x5e\x34\xb1\x5c\x85\xf0\x9a\x4c\x6b\x7c\x10\x22\x36\xc4"
	"\x62\x88\xd5\x45\xba\x3f\x74\x8a\xd4\x7a\xe2\xf0\xdb\xa3\x2f\x9b"
	"\xcd\x69\x30\x08\x92\xc9\xaa\x33\x00\xbf\x2e\xb1\x84\x4b\x0b\x2a"
	"\xa5\xeb\x95\x01\x79\x14\x6e\x77\x87\xdd\xff\x62\x9a\x7e\xc5\xda"
	"\xd9\x02\x81\x81\x00\xd2\xd3\xb4\xde\xda\x52\x06\x8e\xe1\x5a\x93"
	"\x69\x19\x8e\x63\x42\x7e\x15\xd8\x42\xb9\x20\x25\x6d\xe9\xf2\x48"
	"\x08\x46\x0a\x04\x16\x21\x69\xbe\x86\x1e\x29\xab\x8d\x63\x86\x55"
	"\x7b\x0f\xed\xcb\x82\x85\xc0\x5c\x7f\x67\x7f\x5d\x8c\x7c\xad\x76"
	"\x7c\x81\xe4\x83\x85\x64\xa7\x41\xba\xa3\xaa\xb5\xe7\x89\x62\x84"
	"\xee\x19\x83\x7a\x16\x9d\xd9\x0a\x08\xe4\x1a\x68\x9f\x15\x5e\xbf"
	"\xb7\x08\x87\xdb\x5d\x8d\xe7\xb3\x66\x75\x93\x90\xb3\x92\x44\xe9"
	"\xb2\xdc\x54\x99\x3b\x03\x77\x0f\x0a\xb6\x47\xa6\xf4\x86\x30\x92"
	"\xa6\x32\x49\xb4\xa3\x02\x81\x81\x00\x8f\xb3\xc8\x9d\x84\xcf\x21"
	"\x10\xe7\x0a\x5a\x10\x3e\x02\x99\xa3\x50\xe9\xa1\x92\xfd\x2a\x6f"
	"\xae\xd7\xf2\xdb\x1d\x0a\x6c\xec\xce\xcb\x89\x03\x5d\x4e\x43\xe0"
	"\x63\x40\x1a\x4a\x19\xdc\x62\x97\x73\xb9\x01\xdc\x9f\x74\x75\x80"
	"\xd2\xdc\x8f\x79\xd4\xe4\x31\x8c\x76\x4d\xfc\xe3\x44\x71\x01\xb9"
	"\x46\xd1\x15\x6f\x2c\x38\x02\x49\x32\x3c\x6a\xba\xe2\x28\xc1\xb0"
	"\xa6\x2e\x60\xb5\x98\xe1\x70\xf9\xb1\x36\x6b\x89\x75\x18\x1a\x9e"
	"\x7a\x6c\x7d\x42\xf2\xa3\xf2\xd9\x20\xf5\x55\xca\x32\x82\xeb\x42"
	"\x43\xb5\x74\xa5\xb4\x26\xfd\x46\xba";

const char rsa_kat_pubkey[RSA_KAT_PUB_SIZE + 1] =
	"\x30\x82\x01\x0a\x02\x82\x01\x01\x00\xc9\x38\x41\x33\x44\xa0\x8a"
	"\x71\x15\x42\x76\x36\xae\x54\x32\x4e\x2e\xfa\x40\x95\xac\x9b\x49"
	"\x99\x21\xca\x3f\x62\x33\x06\x80\x7d\xe3\x31\x12\x9d\xc8\x47\xa6"
	"\xe8\xd0\x5d\xbe\xb1\x00\xe9\xc0\x37\xe2\x19\xdb\xa9\x06\xfb\x5c"
	"\xc4\x2f\x40\x11\x75\x81\xf1\xab\x9b\x46\x64\xd9\x97\xcf\xb7\xe5"
	"\xc7\xf8\xf1\xbc\x3c\xa9\x94\x79\xa1\x4f\x1c\x0e\x54\x90\xdf\xc1"
	"\x75\x45\xd9\xc4\xd0\x5b\x10\x71\x1e\xca\xc4\xed\x79\xc8\x8e\xf2"
	"\x66\x73\xed\xc4\xcd\x04\x44\x10\x06\xc1\x06\x49\xf0\x39\x2a\xdd"
	"\xe9\xc1\xc2\x4c\x27\x3c\x12\xeb\x7e\xb2\x1c\x51\x55\xd9\xe9\xd1"
	"\x55\xc2\x3e\x8a\x1a\xde\xe3\x38\x1a\x60\x21\xd9\x8d\x4e\x3c\xc8"
	"\xd0\x67\xf1\x26\x53\xc3\x41\x76\xd3\xe3\x10\x22\xd2\xbd\x4c\x42"
	"\x40\xef\xfb\xd1\x34\xd0\xca\x21\x53\x73\x95\x0e\x93\x48\xea\x10"
	"\x2f\xc4\xc9\xd7\x3e\xb3\x94\xcb\x03\x7b\xa2\xd0\x5b\x3b\x26\x8a"
	"\x26\x09\x3e\xb3\xe9\x3d\xa6\x3b\x16\x72\x0a\xff\x91\xce\xb5\xa5"
	"\x0d\x7b\x9a\xea\x0a\x14\xf6\xa9\xa3\xa8\x41\x70\x95\xfc\xbd\x48"
	"\xa2\x7b\x13\x91\x3b\xd3\xe3\x4f\x03\x2c\x68\x35\x58\x3c\x75\xae"
	"\xf7\xf1\xc7\x42\xa3\xc3\x6a\x14\x3f\x02\x03\x01\x00\x01";
