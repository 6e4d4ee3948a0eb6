// SPDX-License-Identifier: MIT
/*
 * Key encodings of the lattice algorithms (ML-KEM, RFC 9935 / the IETF
 * LAMPS kyber-certificates profile; ML-DSA, RFC 9881): the algorithm OID
 * with absent parameters, the raw public key as the subjectPublicKey,
 * and as the PKCS#8 privateKey an OCTET STRING holding
 *   CHOICE { seed [0] IMPLICIT OCTET STRING (SIZE (seed)),
 *            expandedKey OCTET STRING (SIZE (expanded)),
 *            both SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING } }
 * This file only takes the encodings apart and puts them together; the
 * algorithm checks that a seed and an expanded key agree.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rind/internal/keyfmt.h>
#include <rind/internal/util.h>

int rind_pq_spki_decode(const struct rind_pq_keydesc *kd, const u8 *der, size_t len,
			const u8 **pk)
{
	struct rind_spki spki;

	if (rind_spki_decode(der, len, &spki) || spki.alg != kd->oid || spki.params ||
	    spki.keylen != kd->pk_size)
		return -EKEYREJECTED;
	*pk = spki.key;
	return 0;
}

int rind_pq_pkcs8_decode(const struct rind_pq_keydesc *kd, const u8 *der, size_t len,
			 struct rind_pq_privkey *k)
{
	struct rind_pkcs8 p8;
	struct rind_der d, both;
	size_t vlen;
	int tag;

	memset(k, 0, sizeof(*k));
	if (rind_pkcs8_decode(der, len, &p8) || p8.alg != kd->oid || p8.params)
		return -EKEYREJECTED;
	if (p8.pubkey && p8.pubkey_len != kd->pk_size)
		return -EKEYREJECTED;
	rind_der_init(&d, p8.privkey, p8.privkey_len);
	tag = rind_der_peek(&d);
	if (tag == DER_CTX_PRIM(0)) {
		if (rind_der_get(&d, DER_CTX_PRIM(0), &k->seed, &vlen) || vlen != kd->seed_size)
			return -EKEYREJECTED;
	} else if (tag == DER_OCTET_STRING) {
		if (rind_der_get(&d, DER_OCTET_STRING, &k->expanded, &vlen) ||
		    vlen != kd->expanded_size)
			return -EKEYREJECTED;
	} else if (tag == DER_SEQUENCE) {
		if (rind_der_enter(&d, DER_SEQUENCE, &both) ||
		    rind_der_get(&both, DER_OCTET_STRING, &k->seed, &vlen) ||
		    vlen != kd->seed_size ||
		    rind_der_get(&both, DER_OCTET_STRING, &k->expanded, &vlen) ||
		    vlen != kd->expanded_size || rind_der_finish(&both))
			return -EKEYREJECTED;
	} else {
		return -EKEYREJECTED;
	}
	if (rind_der_finish(&d))
		return -EKEYREJECTED;
	k->pub = p8.pubkey;
	return 0;
}

int rind_pq_spki_encode(const struct rind_pq_keydesc *kd, const u8 *pk, u8 *out, size_t outlen)
{
	struct rind_spki spki = { .alg = kd->oid, .key = pk, .keylen = kd->pk_size };

	return rind_spki_encode(&spki, out, outlen);
}

/* Room for the largest privateKey contents: "both" with its headers. */
static size_t inner_max(const struct rind_pq_keydesc *kd)
{
	return kd->seed_size + kd->expanded_size + 16;
}

int rind_pq_pkcs8_encode(const struct rind_pq_keydesc *kd, const u8 *seed, const u8 *expanded,
			 u8 *out, size_t outlen)
{
	struct rind_pkcs8 p8 = { .alg = kd->oid };
	size_t cap = inner_max(kd);
	u8 *inner = malloc(cap);
	struct rind_derw w;
	int n;

	if (!inner)
		return -ENOMEM;
	rind_derw_init(&w, inner, cap);
	if (seed)
		rind_derw_tlv(&w, DER_CTX_PRIM(0), seed, kd->seed_size);
	else
		rind_derw_octets(&w, expanded, kd->expanded_size);
	n = rind_derw_finish(&w);
	if (n >= 0) {
		p8.privkey = inner;
		p8.privkey_len = (size_t)n;
		n = rind_pkcs8_encode(&p8, out, outlen);
	}
	memzero_explicit(inner, cap);
	free(inner);
	return n;
}

int rind_pq_pem_to_der(const u8 *in, size_t len, const char *label, u8 **der, size_t *cap)
{
	int n;

	*cap = rind_base64_decoded_max(len);
	*der = malloc(*cap ? *cap : 1);
	if (!*der)
		return -ENOMEM;
	n = rind_pem_decode((const char *)in, len, label, NULL, NULL, *der, *cap);
	return n < 0 ? -EKEYREJECTED : n;
}

int rind_pq_pem_encode(const struct rind_pq_keydesc *kd, const char *label,
		       int (*enc)(const void *key, u8 *der, size_t derlen), const void *key,
		       u8 *out, size_t outlen)
{
	size_t cap = inner_max(kd) + kd->pk_size + 128;
	u8 *der = malloc(cap);
	int n;

	if (!der)
		return -ENOMEM;
	n = enc(key, der, cap);
	if (n >= 0)
		n = rind_pem_encode(label, der, (size_t)n, (char *)out, out ? outlen : 0);
	memzero_explicit(der, cap);
	free(der);
	return n;
}
