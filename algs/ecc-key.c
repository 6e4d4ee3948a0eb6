// SPDX-License-Identifier: MIT
/*
 * Key encodings of the NIST prime curves, shared by the ECDH kpp and the
 * ECDSA sig algorithms: SEC1 points (SEC 1 v2 section 2.3.3/2.3.4,
 * compressed ones decompressed), SubjectPublicKeyInfo with
 * id-ecPublicKey and a named curve (RFC 5480), PKCS#8 around a SEC1
 * ECPrivateKey (RFC 5915, RFC 5208), PEM (RFC 7468) and JWK (RFC 7518
 * section 6.2).  Explicit curve parameters are refused: only the named
 * curve of the algorithm is accepted.
 */
#include <string.h>
#include <rind/rng.h>
#include <rind/internal/util.h>
#include <crypto/ecc.h>

#define ECC_MAX_DER	512
#define ECC_MAX_POINT	(1 + 2 * ECC_MAX_BYTES)

/*
 * A raw SEC1 point: 04||X||Y, bare X||Y (the kernel's form) or 02/03||X.
 * 1 if @len and the first byte make it one of those (it is then parsed
 * into *err), 0 if it is not a raw point at all.
 */
static int ecc_raw_point(const struct ecc_curve *c, const u8 *in, size_t len, u8 *xy, int *err)
{
	size_t n = c->nbytes;

	if (len == 2 * n) {
		memcpy(xy, in, 2 * n);
	} else if (len == 2 * n + 1 && in[0] == 0x04) {
		memcpy(xy, in + 1, 2 * n);
	} else if (len == n + 1 && (in[0] == 0x02 || in[0] == 0x03)) {
		*err = c->decompress(xy, in + 1, in[0] & 1);
		return 1;
	} else {
		return 0;
	}
	*err = c->point_check(xy);
	return 1;
}

/* The point inside an SPKI or a SEC1/PKCS#8 publicKey: only SEC1 forms with a prefix. */
static int ecc_point(const struct ecc_curve *c, const u8 *in, size_t len, u8 *xy)
{
	int err;

	if (!len || in[0] == 0x00 || len == 2 * c->nbytes)
		return -EKEYREJECTED;
	if (!ecc_raw_point(c, in, len, xy, &err))
		return -EKEYREJECTED;
	return err;
}

static int ecc_spki_pub(const struct ecc_curve *c, const u8 *der, size_t len, u8 *xy)
{
	struct rind_spki spki;

	if (rind_spki_decode(der, len, &spki) || spki.alg != RIND_OID_EC_PUBLIC_KEY ||
	    spki.curve != c->oid)
		return -EKEYREJECTED;
	return ecc_point(c, spki.key, spki.keylen, xy);
}

static int ecc_jwk_parse(const struct ecc_curve *c, const u8 *in, size_t len,
			 struct rind_json_obj *obj)
{
	if (rind_json_parse((const char *)in, len, obj) ||
	    !rind_json_str_eq(obj, "kty", "EC") || !rind_json_str_eq(obj, "crv", c->jwk_crv))
		return -EKEYREJECTED;
	return 0;
}

static int ecc_jwk_xy(const struct ecc_curve *c, const struct rind_json_obj *obj, u8 *xy)
{
	if (rind_json_get_b64url(obj, "x", xy, c->nbytes, 1) < 0 ||
	    rind_json_get_b64url(obj, "y", xy + c->nbytes, c->nbytes, 1) < 0)
		return -EKEYREJECTED;
	rind_declassify(xy, 2 * c->nbytes);	/* the public key, even in a private JWK */
	return c->point_check(xy);
}

int ecc_import_pub(const struct ecc_curve *c, const u8 *in, size_t len, u8 *xy)
{
	struct rind_json_obj obj;
	u8 *der;
	int n, err;

	if (ecc_raw_point(c, in, len, xy, &err))
		return err;
	switch (rind_key_detect(in, len, 0)) {
	case RIND_KEY_SPKI_DER:
		return ecc_spki_pub(c, in, len, xy);
	case RIND_KEY_PEM:
		der = malloc(ECC_MAX_DER);
		if (!der)
			return -ENOMEM;
		n = rind_pem_decode((const char *)in, len, RIND_PEM_PUBLIC_KEY, NULL, NULL,
				    der, ECC_MAX_DER);
		err = n < 0 ? -EKEYREJECTED : ecc_spki_pub(c, der, (size_t)n, xy);
		free(der);
		return err;
	case RIND_KEY_JWK:
		if (ecc_jwk_parse(c, in, len, &obj) || rind_json_get(&obj, "d"))
			return -EKEYREJECTED;
		return ecc_jwk_xy(c, &obj, xy);
	default:
		return -EKEYREJECTED;
	}
}

/* A SEC1 ECPrivateKey; @curve_required: the named curve from the outside. */
static int ecc_sec1_priv(const struct ecc_curve *c, const u8 *der, size_t len,
			 u8 *d, u8 *xy, int *has_pub)
{
	struct rind_ec_privkey k;

	if (rind_ec_privkey_decode(der, len, &k))
		return -EKEYREJECTED;
	if ((k.curve != RIND_OID_NONE && k.curve != c->oid) || !k.dlen || k.dlen > c->nbytes)
		return -EKEYREJECTED;
	memset(d, 0, c->nbytes - k.dlen);
	memcpy(d + c->nbytes - k.dlen, k.d, k.dlen);
	if (k.pub) {
		/* The public key carried along a private one is public. */
		rind_declassify(k.pub, k.publen);
		if (ecc_point(c, k.pub, k.publen, xy))
			return -EKEYREJECTED;
		*has_pub = 1;
	}
	return 0;
}

static int ecc_der_priv(const struct ecc_curve *c, const u8 *der, size_t len,
			u8 *d, u8 *xy, int *has_pub)
{
	struct rind_pkcs8 p8;

	if (!rind_pkcs8_decode(der, len, &p8)) {
		if (p8.alg != RIND_OID_EC_PUBLIC_KEY || p8.curve != c->oid)
			return -EKEYREJECTED;
		/* A SEC1 structure without [0] curve must name the PKCS#8 one. */
		return ecc_sec1_priv(c, p8.privkey, p8.privkey_len, d, xy, has_pub);
	}
	/* A bare SEC1 key must name its curve. */
	{
		struct rind_ec_privkey k;

		if (rind_ec_privkey_decode(der, len, &k) || k.curve != c->oid)
			return -EKEYREJECTED;
	}
	return ecc_sec1_priv(c, der, len, d, xy, has_pub);
}

int ecc_import_priv(const struct ecc_curve *c, const u8 *in, size_t len,
		    u8 *d, u8 *xy, int *has_pub)
{
	struct rind_json_obj obj;
	const char *label;
	size_t label_len;
	u8 *der;
	int n, err;

	*has_pub = 0;
	if (len == c->nbytes) {
		memcpy(d, in, len);
		return 0;
	}
	switch (rind_key_detect(in, len, c->nbytes)) {
	case RIND_KEY_PKCS8_DER:
	case RIND_KEY_SPKI_DER:
		return ecc_der_priv(c, in, len, d, xy, has_pub);
	case RIND_KEY_PEM:
		der = malloc(ECC_MAX_DER);
		if (!der)
			return -ENOMEM;
		n = rind_pem_decode((const char *)in, len, NULL, &label, &label_len,
				    der, ECC_MAX_DER);
		if (n < 0)
			err = -EKEYREJECTED;
		else if ((label_len == strlen(RIND_PEM_PRIVATE_KEY) &&
			  !memcmp(label, RIND_PEM_PRIVATE_KEY, label_len)) ||
			 (label_len == strlen(RIND_PEM_EC_PRIVATE_KEY) &&
			  !memcmp(label, RIND_PEM_EC_PRIVATE_KEY, label_len)))
			err = ecc_der_priv(c, der, (size_t)n, d, xy, has_pub);
		else
			err = -EKEYREJECTED;
		memzero_explicit(der, ECC_MAX_DER);
		free(der);
		return err;
	case RIND_KEY_JWK:
		if (ecc_jwk_parse(c, in, len, &obj) ||
		    rind_json_get_b64url(&obj, "d", d, c->nbytes, 1) < 0)
			return -EKEYREJECTED;
		if (rind_json_get(&obj, "x") || rind_json_get(&obj, "y")) {
			if (ecc_jwk_xy(c, &obj, xy))
				return -EKEYREJECTED;
			*has_pub = 1;
		}
		return 0;
	default:
		return -EKEYREJECTED;
	}
}

static int ecc_spki_encode(const struct ecc_curve *c, const u8 *xy, u8 *out, size_t outlen)
{
	struct rind_spki spki = { .alg = RIND_OID_EC_PUBLIC_KEY, .curve = c->oid };
	u8 pt[ECC_MAX_POINT];

	pt[0] = 0x04;
	memcpy(pt + 1, xy, 2 * c->nbytes);
	spki.key = pt;
	spki.keylen = 1 + 2 * c->nbytes;
	return rind_spki_encode(&spki, out, outlen);
}

static int ecc_jwk_encode(const struct ecc_curve *c, const u8 *d, const u8 *xy,
			  u8 *out, size_t outlen)
{
	struct rind_jsonw w;

	rind_jsonw_init(&w, (char *)out, outlen);
	rind_jsonw_str(&w, "kty", "EC");
	rind_jsonw_str(&w, "crv", c->jwk_crv);
	rind_jsonw_b64url(&w, "x", xy, c->nbytes);
	rind_jsonw_b64url(&w, "y", xy + c->nbytes, c->nbytes);
	if (d)
		rind_jsonw_b64url(&w, "d", d, c->nbytes);
	return rind_jsonw_finish(&w);
}

int ecc_export_pub(const struct ecc_curve *c, enum rind_key_format fmt,
		   const u8 *xy, u8 *out, size_t outlen)
{
	u8 der[ECC_MAX_DER];
	int n;

	switch (fmt) {
	case RIND_KEY_RAW:
		if (outlen < 1 + 2 * c->nbytes)
			return -ENOSPC;
		out[0] = 0x04;
		memcpy(out + 1, xy, 2 * c->nbytes);
		return (int)(1 + 2 * c->nbytes);
	case RIND_KEY_SPKI_DER:
		return ecc_spki_encode(c, xy, out, outlen);
	case RIND_KEY_PEM:
		n = ecc_spki_encode(c, xy, der, sizeof(der));
		if (n < 0)
			return n;
		return rind_pem_encode(RIND_PEM_PUBLIC_KEY, der, (size_t)n, (char *)out, outlen);
	case RIND_KEY_JWK:
		return ecc_jwk_encode(c, NULL, xy, out, outlen);
	default:
		return -EINVAL;
	}
}

/* PKCS#8 v1 with a SEC1 ECPrivateKey inside (no [0], with [1]), as OpenSSL writes. */
static int ecc_pkcs8_encode(const struct ecc_curve *c, const u8 *d, const u8 *xy,
			    u8 *out, size_t outlen)
{
	struct rind_ec_privkey k = { .d = d, .dlen = c->nbytes, .curve = RIND_OID_NONE };
	struct rind_pkcs8 p8 = { .version = 0, .alg = RIND_OID_EC_PUBLIC_KEY, .curve = c->oid };
	u8 inner[ECC_MAX_DER], pt[ECC_MAX_POINT];
	int n;

	pt[0] = 0x04;
	memcpy(pt + 1, xy, 2 * c->nbytes);
	k.pub = pt;
	k.publen = 1 + 2 * c->nbytes;
	n = rind_ec_privkey_encode(&k, inner, sizeof(inner));
	if (n >= 0) {
		p8.privkey = inner;
		p8.privkey_len = (size_t)n;
		n = rind_pkcs8_encode(&p8, out, outlen);
	}
	memzero_explicit(inner, sizeof(inner));
	return n;
}

int ecc_export_priv(const struct ecc_curve *c, enum rind_key_format fmt,
		    const u8 *d, const u8 *xy, u8 *out, size_t outlen)
{
	u8 der[ECC_MAX_DER];
	int n;

	switch (fmt) {
	case RIND_KEY_RAW:
		if (outlen < c->nbytes)
			return -ENOSPC;
		memcpy(out, d, c->nbytes);
		return (int)c->nbytes;
	case RIND_KEY_PKCS8_DER:
		return ecc_pkcs8_encode(c, d, xy, out, outlen);
	case RIND_KEY_PEM:
		n = ecc_pkcs8_encode(c, d, xy, der, sizeof(der));
		if (n >= 0)
			n = rind_pem_encode(RIND_PEM_PRIVATE_KEY, der, (size_t)n, (char *)out, outlen);
		memzero_explicit(der, sizeof(der));
		return n;
	case RIND_KEY_JWK:
		return ecc_jwk_encode(c, d, xy, out, outlen);
	default:
		return -EINVAL;
	}
}

/* ---- scalars and raw keys, for both protocols ----------------------------- */

/* The verdict is public: an import returns it, key generation discards the candidate. */
int ecc_scalar_ok(const struct ecc_curve *c, const u8 *d)
{
	int ok = c->scalar_ok(d);

	rind_declassify(&ok, sizeof(ok));
	return ok;
}

/* The top byte masked to the order's bits, so that few candidates are rejected. */
int ecc_random_scalar(const struct ecc_curve *c, u8 *d)
{
	unsigned int excess = c->nbytes * 8 - c->bits;
	int err, tries;

	for (tries = 0; tries < 64; tries++) {
		err = rind_get_random_bytes(d, c->nbytes);
		if (err)
			return err;
		d[0] &= (u8)(0xff >> excess);
		if (ecc_scalar_ok(c, d))
			return 0;
	}
	return -EAGAIN;
}

/* Only framing is looked at: the first byte as a DER tag (public). */
bool ecc_key_is_bare(const u8 *in, size_t len, size_t raw_len)
{
	struct rind_der d;

	rind_der_init(&d, in, len);
	return rind_key_detect(in, len, raw_len) == RIND_KEY_RAW &&
	       rind_der_peek(&d) != DER_SEQUENCE;
}
