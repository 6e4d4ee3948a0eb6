// SPDX-License-Identifier: MIT
/*
 * ML-DSA key encodings (the IETF LAMPS profile, RFC 9881): raw keys,
 * SubjectPublicKeyInfo and PKCS#8 DER with the algorithm OIDs
 * 2.16.840.1.101.3.4.3.17/18/19 and absent parameters, and PEM.
 *
 * The PKCS#8 privateKey OCTET STRING holds an ML-DSA-PrivateKey:
 *   CHOICE { seed [0] IMPLICIT OCTET STRING (SIZE (32)),
 *            expandedKey OCTET STRING (SIZE (2560 | 4032 | 4896)),
 *            both SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING } }
 * Export writes the seed-only form (the expanded key when the key was
 * set without a seed).  A "both" encoding, or a OneAsymmetricKey v2
 * public key, must match the key the seed generates.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rind/internal/keyfmt.h>
#include <rind/internal/util.h>
#include <crypto/mldsa.h>

/* The largest DER: PKCS#8 of the ML-DSA-87 "both" form, with headers. */
#define MLDSA_DER_MAX	(MLDSA_SK_MAX + 128)

static int import_spki(struct mldsa_key *key, const struct mldsa_params *p,
		       const struct mldsa_ops *ops, const u8 *der, size_t len)
{
	struct rind_spki spki;

	if (rind_spki_decode(der, len, &spki) || spki.alg != p->oid || spki.params ||
	    spki.keylen != p->pk_size)
		return -EKEYREJECTED;
	rind_mldsa_set_pk(key, p, ops, spki.key);
	return 0;
}

/* PEM of @label into a DER buffer (malloc'd, wiped and freed by the caller). */
static int pem_to_der(const u8 *in, size_t len, const char *label, u8 **der)
{
	size_t cap = rind_base64_decoded_max(len);
	int n;

	*der = malloc(cap);
	if (!*der)
		return -ENOMEM;
	n = rind_pem_decode((const char *)in, len, label, NULL, NULL, *der, cap);
	return n < 0 ? -EKEYREJECTED : n;
}

int rind_mldsa_import_pub(struct mldsa_key *key, const struct mldsa_params *p,
			  const struct mldsa_ops *ops, const u8 *in, size_t len)
{
	u8 *der;
	int n, err;

	switch (rind_key_detect(in, len, p->pk_size)) {
	case RIND_KEY_RAW:
		if (len != p->pk_size)
			return -EKEYREJECTED;
		rind_mldsa_set_pk(key, p, ops, in);
		return 0;
	case RIND_KEY_SPKI_DER:
		return import_spki(key, p, ops, in, len);
	case RIND_KEY_PEM:
		n = pem_to_der(in, len, RIND_PEM_PUBLIC_KEY, &der);
		err = n < 0 ? n : import_spki(key, p, ops, der, (size_t)n);
		free(der);
		return err;
	default:
		return -EKEYREJECTED;
	}
}

static int import_pkcs8(struct mldsa_key *key, const struct mldsa_params *p,
			const struct mldsa_ops *ops, const u8 *der, size_t len)
{
	const u8 *seed = NULL, *expanded = NULL, *v;
	struct rind_pkcs8 p8;
	struct rind_der d, both;
	size_t vlen;
	int tag, err;

	if (rind_pkcs8_decode(der, len, &p8) || p8.alg != p->oid || p8.params)
		return -EKEYREJECTED;
	if (p8.pubkey && p8.pubkey_len != p->pk_size)
		return -EKEYREJECTED;
	rind_der_init(&d, p8.privkey, p8.privkey_len);
	tag = rind_der_peek(&d);
	if (tag == DER_CTX_PRIM(0)) {
		if (rind_der_get(&d, DER_CTX_PRIM(0), &seed, &vlen) || vlen != MLDSA_SEED_BYTES)
			return -EKEYREJECTED;
	} else if (tag == DER_OCTET_STRING) {
		if (rind_der_get(&d, DER_OCTET_STRING, &expanded, &vlen) || vlen != p->sk_size)
			return -EKEYREJECTED;
	} else if (tag == DER_SEQUENCE) {
		if (rind_der_enter(&d, DER_SEQUENCE, &both) ||
		    rind_der_get(&both, DER_OCTET_STRING, &seed, &vlen) ||
		    vlen != MLDSA_SEED_BYTES ||
		    rind_der_get(&both, DER_OCTET_STRING, &v, &vlen) || vlen != p->sk_size ||
		    rind_der_finish(&both))
			return -EKEYREJECTED;
		expanded = v;
	} else {
		return -EKEYREJECTED;
	}
	if (rind_der_finish(&d))
		return -EKEYREJECTED;
	if (seed) {
		err = rind_mldsa_keygen(key, p, ops, seed);
		if (err)
			return err;
		if (expanded) {
			int ne = rind_memneq(key->sk, expanded, p->sk_size);

			rind_declassify(&ne, sizeof(ne));
			if (ne)
				return -EKEYREJECTED;
		}
	} else {
		err = rind_mldsa_set_sk(key, p, ops, expanded);
		if (err)
			return err;
	}
	/* A public key carried along is public; it must be this key's. */
	if (p8.pubkey) {
		rind_declassify(p8.pubkey, p8.pubkey_len);
		if (memcmp(p8.pubkey, key->pk, p->pk_size))
			return -EKEYREJECTED;
	}
	return 0;
}

int rind_mldsa_import_priv(struct mldsa_key *key, const struct mldsa_params *p,
			   const struct mldsa_ops *ops, const u8 *in, size_t len)
{
	u8 *der;
	int n, err;

	if (len == p->sk_size)
		return rind_mldsa_set_sk(key, p, ops, in);
	switch (rind_key_detect(in, len, MLDSA_SEED_BYTES)) {
	case RIND_KEY_RAW:
		if (len != MLDSA_SEED_BYTES)
			return -EKEYREJECTED;
		return rind_mldsa_keygen(key, p, ops, in);
	case RIND_KEY_PKCS8_DER:
		return import_pkcs8(key, p, ops, in, len);
	case RIND_KEY_PEM:
		n = pem_to_der(in, len, RIND_PEM_PRIVATE_KEY, &der);
		err = n < 0 ? n : import_pkcs8(key, p, ops, der, (size_t)n);
		memzero_explicit(der, rind_base64_decoded_max(len));
		free(der);
		return err;
	default:
		return -EKEYREJECTED;
	}
}

static int put_raw(const u8 *k, size_t len, u8 *out, size_t outlen)
{
	if (out) {
		if (outlen < len)
			return -ENOSPC;
		memcpy(out, k, len);
	}
	return (int)len;
}

static int encode_spki(const struct mldsa_key *key, u8 *out, size_t outlen)
{
	struct rind_spki spki = {
		.alg = key->p->oid, .key = key->pk, .keylen = key->p->pk_size,
	};

	return rind_spki_encode(&spki, out, outlen);
}

/* PEM of the DER another encoder writes into a scratch buffer. */
static int encode_pem(const struct mldsa_key *key, const char *label,
		      int (*enc)(const struct mldsa_key *, u8 *, size_t), u8 *out, size_t outlen)
{
	u8 *der = malloc(MLDSA_DER_MAX);
	int n;

	if (!der)
		return -ENOMEM;
	n = enc(key, der, MLDSA_DER_MAX);
	if (n >= 0)
		n = rind_pem_encode(label, der, (size_t)n, (char *)out, out ? outlen : 0);
	memzero_explicit(der, MLDSA_DER_MAX);
	free(der);
	return n;
}

int rind_mldsa_export_pub(const struct mldsa_key *key, enum rind_key_format fmt,
			  u8 *out, size_t outlen)
{
	switch (fmt) {
	case RIND_KEY_RAW:
		return put_raw(key->pk, key->p->pk_size, out, outlen);
	case RIND_KEY_SPKI_DER:
		return encode_spki(key, out, outlen);
	case RIND_KEY_PEM:
		return encode_pem(key, RIND_PEM_PUBLIC_KEY, encode_spki, out, outlen);
	default:
		return -EINVAL;
	}
}

static int encode_pkcs8(const struct mldsa_key *key, u8 *out, size_t outlen)
{
	struct rind_pkcs8 p8 = { .alg = key->p->oid };
	u8 *inner = malloc(MLDSA_DER_MAX);
	struct rind_derw w;
	int n;

	if (!inner)
		return -ENOMEM;
	rind_derw_init(&w, inner, MLDSA_DER_MAX);
	if (key->has_seed)
		rind_derw_tlv(&w, DER_CTX_PRIM(0), key->seed, MLDSA_SEED_BYTES);
	else
		rind_derw_octets(&w, key->sk, key->p->sk_size);
	n = rind_derw_finish(&w);
	if (n >= 0) {
		p8.privkey = inner;
		p8.privkey_len = (size_t)n;
		n = rind_pkcs8_encode(&p8, out, outlen);
	}
	memzero_explicit(inner, MLDSA_DER_MAX);
	free(inner);
	return n;
}

int rind_mldsa_export_priv(const struct mldsa_key *key, enum rind_key_format fmt,
			   u8 *out, size_t outlen)
{
	int n;

	switch (fmt) {
	case RIND_KEY_RAW:
		n = key->has_seed ? put_raw(key->seed, MLDSA_SEED_BYTES, out, outlen) :
				    put_raw(key->sk, key->p->sk_size, out, outlen);
		break;
	case RIND_KEY_PKCS8_DER:
		n = encode_pkcs8(key, out, outlen);
		break;
	case RIND_KEY_PEM:
		n = encode_pem(key, RIND_PEM_PRIVATE_KEY, encode_pkcs8, out, outlen);
		break;
	default:
		return -EINVAL;
	}
	/* Leave no partial secret behind on failure. */
	if (n < 0 && out)
		memzero_explicit(out, outlen);
	return n;
}
