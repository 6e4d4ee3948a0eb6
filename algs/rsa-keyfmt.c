// SPDX-License-Identifier: MIT
/*
 * RSA key encodings (see rsa.h): PKCS#1 RSAPublicKey / RSAPrivateKey DER
 * (the raw form), SPKI and PKCS#8 DER with rsaEncryption, PEM, JWK.
 * Decoding only finds the components; rsa_install() (rsa-key.c) checks
 * them and builds the key.  The DER reader declassifies the tags and
 * lengths it reads (public structure), never a value.
 */
#include <errno.h>
#include <string.h>
#include <rind/internal/keyfmt.h>
#include <rind/internal/util.h>
#include <crypto/rsa.h>

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

/*
 * rsaEncryption with exactly a DER NULL as parameters (read by the DER
 * reader: its tag and length are public).
 */
static bool rsa_alg_id(enum rind_oid alg, const u8 *params, size_t len)
{
	const u8 *v;
	size_t vlen;

	return alg == RIND_OID_RSA_ENCRYPTION && params &&
	       !rind_der_parse_one(params, len, DER_NULL, &v, &vlen) && !vlen;
}

static int parse_spki(const u8 *der, size_t len, struct rsa_parts *pt)
{
	struct rind_spki s;

	if (rind_spki_decode(der, len, &s) || !rsa_alg_id(s.alg, s.params, s.params_len))
		return -EKEYREJECTED;
	return parse_pkcs1_pub(s.key, s.keylen, pt);
}

static int parse_pkcs8(const u8 *der, size_t len, struct rsa_parts *pt)
{
	struct rind_pkcs8 p8;

	if (rind_pkcs8_decode(der, len, &p8) || !rsa_alg_id(p8.alg, p8.params, p8.params_len))
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
	rsa_strip_zeros(&be, &len);
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
