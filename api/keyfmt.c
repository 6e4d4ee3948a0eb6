// SPDX-License-Identifier: MIT
/*
 * Key containers on top of der.c, pem.c and jwk.c: SubjectPublicKeyInfo
 * (RFC 5280), PKCS#8 PrivateKeyInfo / OneAsymmetricKey (RFC 5208, 5958),
 * SEC1 ECPrivateKey (RFC 5915), format detection, and whole-key import and
 * export for algorithms with fixed-size byte-string keys (X25519 and
 * Ed25519 as RFC 8410 and RFC 8037).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rind/err.h>
#include <rind/internal/keyfmt.h>
#include <rind/internal/util.h>

const u8 rind_der_null_tlv[2] = { DER_NULL, 0x00 };

/*
 * AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL }
 * Unknown algorithms are refused; NULL parameters must be empty.
 */
static int algid_decode(struct rind_der *d, enum rind_oid *alg, const u8 **params,
			size_t *params_len, enum rind_oid *curve)
{
	struct rind_der a, pd;
	u8 tag;
	int err;

	err = rind_der_enter(d, DER_SEQUENCE, &a);
	if (err)
		return err;
	err = rind_der_get_oid(&a, alg);
	if (err)
		return err;
	if (*alg == RIND_OID_NONE)
		return -EKEYREJECTED;
	*params = NULL;
	*params_len = 0;
	*curve = RIND_OID_NONE;
	if (!rind_der_empty(&a)) {
		err = rind_der_get_any(&a, &tag, NULL, NULL, params, params_len);
		if (err)
			return err;
		rind_der_init(&pd, *params, *params_len);
		if (tag == DER_OID)
			err = rind_der_get_oid(&pd, curve);
		else if (tag == DER_NULL)
			err = rind_der_get_null(&pd);
		if (err)
			return err;
	}
	return rind_der_finish(&a);
}

static void algid_encode(struct rind_derw *w, enum rind_oid alg, const u8 *params,
			 size_t params_len, enum rind_oid curve)
{
	rind_derw_begin(w, DER_SEQUENCE);
	rind_derw_oid(w, alg);
	if (params)
		rind_derw_raw(w, params, params_len);
	else if (curve != RIND_OID_NONE)
		rind_derw_oid(w, curve);
	rind_derw_end(w);
}

/* @der (@len bytes) must be one SEQUENCE and nothing after it: its contents in @s. */
static int der_whole_seq(const u8 *der, size_t len, struct rind_der *s)
{
	struct rind_der d;
	int err;

	rind_der_init(&d, der, len);
	err = rind_der_enter(&d, DER_SEQUENCE, s);
	if (!err)
		err = rind_der_finish(&d);
	return err;
}

int rind_spki_decode(const u8 *der, size_t len, struct rind_spki *spki)
{
	struct rind_der s;
	int err;

	err = der_whole_seq(der, len, &s);
	if (!err)
		err = algid_decode(&s, &spki->alg, &spki->params, &spki->params_len, &spki->curve);
	if (!err)
		err = rind_der_get_bitstring(&s, &spki->key, &spki->keylen);
	if (!err)
		err = rind_der_finish(&s);
	return err ? -EKEYREJECTED : 0;
}

int rind_spki_encode(const struct rind_spki *spki, u8 *out, size_t outlen)
{
	struct rind_derw w;

	rind_derw_init(&w, out, outlen);
	rind_derw_begin(&w, DER_SEQUENCE);
	algid_encode(&w, spki->alg, spki->params, spki->params_len, spki->curve);
	rind_derw_bitstring(&w, spki->key, spki->keylen);
	rind_derw_end(&w);
	return rind_derw_finish(&w);
}

int rind_pkcs8_decode(const u8 *der, size_t len, struct rind_pkcs8 *p8)
{
	struct rind_der s;
	unsigned long version;
	const u8 *v;
	size_t l;
	int err;

	memset(p8, 0, sizeof(*p8));
	err = der_whole_seq(der, len, &s);
	if (!err)
		err = rind_der_get_ulong(&s, &version);
	if (!err && version > 1)
		err = -EKEYREJECTED;
	if (!err)
		err = algid_decode(&s, &p8->alg, &p8->params, &p8->params_len, &p8->curve);
	if (!err)
		err = rind_der_get(&s, DER_OCTET_STRING, &p8->privkey, &p8->privkey_len);
	if (err)
		return -EKEYREJECTED;
	p8->version = (unsigned int)version;
	/* attributes [0] IMPLICIT SET OF Attribute: skipped. */
	if (rind_der_get_optional(&s, DER_CTX_CONS(0), &v, &l) < 0)
		return -EKEYREJECTED;
	/* publicKey [1] IMPLICIT BIT STRING, version 2 (v1 = 1) only. */
	err = rind_der_get_optional(&s, DER_CTX_PRIM(1), &v, &l);
	if (err < 0)
		return -EKEYREJECTED;
	if (err == 1) {
		if (version != 1 || l < 1 || v[0] != 0)
			return -EKEYREJECTED;
		p8->pubkey = v + 1;
		p8->pubkey_len = l - 1;
	}
	return rind_der_finish(&s) ? -EKEYREJECTED : 0;
}

int rind_pkcs8_encode(const struct rind_pkcs8 *p8, u8 *out, size_t outlen)
{
	struct rind_derw w;

	rind_derw_init(&w, out, outlen);
	rind_derw_begin(&w, DER_SEQUENCE);
	rind_derw_ulong(&w, p8->pubkey ? 1 : 0);
	algid_encode(&w, p8->alg, p8->params, p8->params_len, p8->curve);
	rind_derw_octets(&w, p8->privkey, p8->privkey_len);
	if (p8->pubkey) {
		rind_derw_begin(&w, DER_CTX_PRIM(1));
		rind_derw_raw(&w, "", 1);	/* 0 unused bits */
		rind_derw_raw(&w, p8->pubkey, p8->pubkey_len);
		rind_derw_end(&w);
	}
	rind_derw_end(&w);
	return rind_derw_finish(&w);
}

int rind_ec_privkey_decode(const u8 *der, size_t len, struct rind_ec_privkey *k)
{
	struct rind_der s, c;
	unsigned long version;
	int err;

	memset(k, 0, sizeof(*k));
	err = der_whole_seq(der, len, &s);
	if (!err)
		err = rind_der_get_ulong(&s, &version);
	if (!err && version != 1)
		err = -EKEYREJECTED;
	if (!err)
		err = rind_der_get(&s, DER_OCTET_STRING, &k->d, &k->dlen);
	if (err)
		return -EKEYREJECTED;
	if (rind_der_peek(&s) == DER_CTX_CONS(0)) {
		if (rind_der_enter(&s, DER_CTX_CONS(0), &c) ||
		    rind_der_get_oid(&c, &k->curve) || rind_der_finish(&c) ||
		    k->curve == RIND_OID_NONE)
			return -EKEYREJECTED;
	}
	if (rind_der_peek(&s) == DER_CTX_CONS(1)) {
		if (rind_der_enter(&s, DER_CTX_CONS(1), &c) ||
		    rind_der_get_bitstring(&c, &k->pub, &k->publen) || rind_der_finish(&c))
			return -EKEYREJECTED;
	}
	return rind_der_finish(&s) ? -EKEYREJECTED : 0;
}

int rind_ec_privkey_encode(const struct rind_ec_privkey *k, u8 *out, size_t outlen)
{
	struct rind_derw w;

	rind_derw_init(&w, out, outlen);
	rind_derw_begin(&w, DER_SEQUENCE);
	rind_derw_ulong(&w, 1);
	rind_derw_octets(&w, k->d, k->dlen);
	if (k->curve != RIND_OID_NONE) {
		rind_derw_begin(&w, DER_CTX_CONS(0));
		rind_derw_oid(&w, k->curve);
		rind_derw_end(&w);
	}
	if (k->pub) {
		rind_derw_begin(&w, DER_CTX_CONS(1));
		rind_derw_bitstring(&w, k->pub, k->publen);
		rind_derw_end(&w);
	}
	rind_derw_end(&w);
	return rind_derw_finish(&w);
}

/*
 * Constant time: a key of the raw length is never looked at.  Otherwise
 * only framing is examined, which is public in every format read here:
 * leading blanks, then one byte (a DER tag, PEM's '-' or JWK's '{'; any
 * other byte starts no encoding and the input is refused), the PEM armour
 * as one verdict, and DER tags and lengths (declassified by the reader).
 */
static inline u8 key_framing_byte(const u8 *p)
{
	u8 b = *p;

	rind_declassify(&b, 1);
	return b;
}

enum rind_key_format rind_key_detect(const u8 *in, size_t len, size_t raw_len)
{
	const u8 *v;
	size_t vlen, i;
	u8 b = 0;

	if (raw_len && len == raw_len)
		return RIND_KEY_RAW;
	for (i = 0; i < len; i++) {
		b = key_framing_byte(in + i);
		if (b != ' ' && b != '\t' && b != '\r' && b != '\n')
			break;
	}
	if (i == len)
		return RIND_KEY_RAW;
	if (b == '-' && len - i >= 11) {
		int pem = !crypto_memneq(in + i, "-----BEGIN ", 11);

		rind_declassify(&pem, sizeof(pem));	/* the armour, public */
		if (pem)
			return RIND_KEY_PEM;
	}
	if (b == '{')
		return RIND_KEY_JWK;
	if (!rind_der_parse_one(in, len, DER_SEQUENCE, &v, &vlen) && vlen)
	{
		struct rind_der inner;

		rind_der_init(&inner, v, vlen);
		return rind_der_peek(&inner) == DER_INTEGER ? RIND_KEY_PKCS8_DER : RIND_KEY_SPKI_DER;
	}
	return RIND_KEY_RAW;
}

/* ------------------------------------------------------------------ */
/* OKP keys                                                            */

const struct rind_okp_desc rind_okp_x25519 = {
	.oid = RIND_OID_X25519, .jwk_kty = "OKP", .jwk_crv = "X25519",
	.pub_len = 32, .priv_len = 32, .priv_wrapped = true,
};

const struct rind_okp_desc rind_okp_ed25519 = {
	.oid = RIND_OID_ED25519, .jwk_kty = "OKP", .jwk_crv = "Ed25519",
	.pub_len = 32, .priv_len = 32, .priv_wrapped = true,
};

/* Larger than any OKP key's DER (ML-DSA-87 public keys are 2592 bytes). */
#define OKP_MAX_DER 8192

static int okp_jwk_parse(const struct rind_okp_desc *desc, const u8 *in, size_t len,
			 struct rind_json_obj *obj)
{
	if (!desc->jwk_kty)
		return -EKEYREJECTED;
	if (rind_json_parse((const char *)in, len, obj))
		return -EKEYREJECTED;
	if (!rind_json_str_eq(obj, "kty", desc->jwk_kty) ||
	    !rind_json_str_eq(obj, "crv", desc->jwk_crv))
		return -EKEYREJECTED;
	return 0;
}

static int okp_spki_pub(const struct rind_okp_desc *desc, const u8 *der, size_t len, u8 *pub)
{
	struct rind_spki spki;

	if (rind_spki_decode(der, len, &spki) || spki.alg != desc->oid || spki.params ||
	    spki.keylen != desc->pub_len)
		return -EKEYREJECTED;
	memcpy(pub, spki.key, desc->pub_len);
	return 0;
}

int rind_okp_import_pub(const struct rind_okp_desc *desc, const u8 *in, size_t len, u8 *pub)
{
	struct rind_json_obj obj;
	u8 *der;
	int n, err;

	switch (rind_key_detect(in, len, desc->pub_len)) {
	case RIND_KEY_RAW:
		if (len != desc->pub_len)
			return -EKEYREJECTED;
		memcpy(pub, in, len);
		return 0;
	case RIND_KEY_SPKI_DER:
		return okp_spki_pub(desc, in, len, pub);
	case RIND_KEY_PEM:
		der = malloc(OKP_MAX_DER);
		if (!der)
			return -ENOMEM;
		n = rind_pem_decode((const char *)in, len, RIND_PEM_PUBLIC_KEY, NULL, NULL,
				    der, OKP_MAX_DER);
		err = n < 0 ? -EKEYREJECTED : okp_spki_pub(desc, der, (size_t)n, pub);
		free(der);
		return err;
	case RIND_KEY_JWK:
		if (okp_jwk_parse(desc, in, len, &obj) || rind_json_get(&obj, "d") ||
		    rind_json_get_b64url(&obj, "x", pub, desc->pub_len, 1) < 0)
			return -EKEYREJECTED;
		return 0;
	default:
		return -EKEYREJECTED;
	}
}

static int okp_pkcs8_priv(const struct rind_okp_desc *desc, const u8 *der, size_t len,
			  u8 *priv, u8 *pub, int *has_pub)
{
	struct rind_pkcs8 p8;
	const u8 *k;
	size_t klen;

	if (rind_pkcs8_decode(der, len, &p8) || p8.alg != desc->oid || p8.params)
		return -EKEYREJECTED;
	k = p8.privkey;
	klen = p8.privkey_len;
	if (desc->priv_wrapped &&
	    rind_der_parse_one(p8.privkey, p8.privkey_len, DER_OCTET_STRING, &k, &klen))
		return -EKEYREJECTED;
	if (klen != desc->priv_len)
		return -EKEYREJECTED;
	if (p8.pubkey && p8.pubkey_len != desc->pub_len)
		return -EKEYREJECTED;
	memcpy(priv, k, klen);
	if (p8.pubkey) {
		/* The public key carried along a private one is public. */
		rind_declassify(p8.pubkey, desc->pub_len);
		if (pub)
			memcpy(pub, p8.pubkey, desc->pub_len);
		*has_pub = 1;
	}
	return 0;
}

int rind_okp_import_priv(const struct rind_okp_desc *desc, const u8 *in, size_t len,
			 u8 *priv, u8 *pub, int *has_pub)
{
	struct rind_json_obj obj;
	int n, err, dummy;
	u8 *der;

	if (!has_pub)
		has_pub = &dummy;
	*has_pub = 0;
	switch (rind_key_detect(in, len, desc->priv_len)) {
	case RIND_KEY_RAW:
		if (len != desc->priv_len)
			return -EKEYREJECTED;
		memcpy(priv, in, len);
		return 0;
	case RIND_KEY_PKCS8_DER:
		return okp_pkcs8_priv(desc, in, len, priv, pub, has_pub);
	case RIND_KEY_PEM:
		der = malloc(OKP_MAX_DER);
		if (!der)
			return -ENOMEM;
		n = rind_pem_decode((const char *)in, len, RIND_PEM_PRIVATE_KEY, NULL, NULL,
				    der, OKP_MAX_DER);
		err = n < 0 ? -EKEYREJECTED :
		      okp_pkcs8_priv(desc, der, (size_t)n, priv, pub, has_pub);
		memzero_explicit(der, OKP_MAX_DER);
		free(der);
		return err;
	case RIND_KEY_JWK:
		if (okp_jwk_parse(desc, in, len, &obj))
			return -EKEYREJECTED;
		if (rind_json_get_b64url(&obj, "d", priv, desc->priv_len, 1) < 0)
			return -EKEYREJECTED;
		if (rind_json_get(&obj, "x")) {
			u8 tmp[256];

			if (desc->pub_len > sizeof(tmp) ||
			    rind_json_get_b64url(&obj, "x", tmp, desc->pub_len, 1) < 0) {
				memzero_explicit(priv, desc->priv_len);
				return -EKEYREJECTED;
			}
			rind_declassify(tmp, desc->pub_len);	/* the public key */
			if (pub)
				memcpy(pub, tmp, desc->pub_len);
			*has_pub = 1;
		}
		return 0;
	default:
		return -EKEYREJECTED;
	}
}

/* Raw bytes out, or the length with out == NULL. */
static int put_raw(const u8 *k, size_t len, u8 *out, size_t outlen)
{
	if (out) {
		if (outlen < len)
			return -ENOSPC;
		memcpy(out, k, len);
	}
	return (int)len;
}

static int okp_spki(const struct rind_okp_desc *desc, const u8 *pub, u8 *out, size_t outlen)
{
	struct rind_spki spki = {
		.alg = desc->oid, .key = pub, .keylen = desc->pub_len,
	};

	return rind_spki_encode(&spki, out, outlen);
}

/* PEM around @der_len bytes of @der (or pass on the error der_len holds). */
static int okp_pem(const char *label, const u8 *der, int der_len, u8 *out, size_t outlen)
{
	if (der_len < 0)
		return der_len;
	return rind_pem_encode(label, der, (size_t)der_len, (char *)out, out ? outlen : 0);
}

int rind_okp_export_pub(const struct rind_okp_desc *desc, enum rind_key_format fmt,
			const u8 *pub, u8 *out, size_t outlen)
{
	struct rind_jsonw w;
	u8 der[512];

	switch (fmt) {
	case RIND_KEY_RAW:
		return put_raw(pub, desc->pub_len, out, outlen);
	case RIND_KEY_SPKI_DER:
		return okp_spki(desc, pub, out, outlen);
	case RIND_KEY_PEM:
		if (desc->pub_len > 400)
			return -EINVAL;
		return okp_pem(RIND_PEM_PUBLIC_KEY, der, okp_spki(desc, pub, der, sizeof(der)),
			       out, outlen);
	case RIND_KEY_JWK:
		if (!desc->jwk_kty)
			return -EINVAL;
		rind_jsonw_init(&w, (char *)out, outlen);
		rind_jsonw_str(&w, "kty", desc->jwk_kty);
		rind_jsonw_str(&w, "crv", desc->jwk_crv);
		rind_jsonw_b64url(&w, "x", pub, desc->pub_len);
		return rind_jsonw_finish(&w);
	default:
		return -EINVAL;
	}
}

static int okp_pkcs8(const struct rind_okp_desc *desc, const u8 *priv, u8 *out, size_t outlen)
{
	struct rind_pkcs8 p8 = { .alg = desc->oid };
	u8 inner[4 + 256];
	int err;

	if (desc->priv_wrapped) {
		struct rind_derw w;

		if (desc->priv_len > 256)
			return -EINVAL;
		rind_derw_init(&w, inner, sizeof(inner));
		rind_derw_octets(&w, priv, desc->priv_len);
		err = rind_derw_finish(&w);
		if (err < 0)
			return err;
		p8.privkey = inner;
		p8.privkey_len = (size_t)err;
	} else {
		p8.privkey = priv;
		p8.privkey_len = desc->priv_len;
	}
	err = rind_pkcs8_encode(&p8, out, outlen);
	memzero_explicit(inner, sizeof(inner));
	return err;
}

int rind_okp_export_priv(const struct rind_okp_desc *desc, enum rind_key_format fmt,
			 const u8 *priv, const u8 *pub, u8 *out, size_t outlen)
{
	struct rind_jsonw w;
	u8 *der;
	int n;

	switch (fmt) {
	case RIND_KEY_RAW:
		n = put_raw(priv, desc->priv_len, out, outlen);
		break;
	case RIND_KEY_PKCS8_DER:
		n = okp_pkcs8(desc, priv, out, outlen);
		break;
	case RIND_KEY_PEM:
		der = malloc(OKP_MAX_DER);
		if (!der)
			return -ENOMEM;
		n = okp_pem(RIND_PEM_PRIVATE_KEY, der, okp_pkcs8(desc, priv, der, OKP_MAX_DER),
			    out, outlen);
		memzero_explicit(der, OKP_MAX_DER);
		free(der);
		break;
	case RIND_KEY_JWK:
		if (!desc->jwk_kty || !pub)
			return -EINVAL;
		rind_jsonw_init(&w, (char *)out, outlen);
		rind_jsonw_str(&w, "kty", desc->jwk_kty);
		rind_jsonw_str(&w, "crv", desc->jwk_crv);
		rind_jsonw_b64url(&w, "x", pub, desc->pub_len);
		rind_jsonw_b64url(&w, "d", priv, desc->priv_len);
		n = rind_jsonw_finish(&w);
		break;
	default:
		return -EINVAL;
	}
	/* Leave no partial secret behind on failure. */
	if (n < 0 && out)
		memzero_explicit(out, outlen);
	return n;
}
