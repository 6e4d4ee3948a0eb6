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

static struct rind_pq_keydesc keydesc(const struct mldsa_params *p)
{
	struct rind_pq_keydesc kd = {
		.oid = p->oid, .pk_size = p->pk_size,
		.seed_size = MLDSA_SEED_BYTES, .expanded_size = p->sk_size,
	};

	return kd;
}

static int import_spki(struct mldsa_key *key, const struct mldsa_params *p,
		       const struct mldsa_ops *ops, const u8 *der, size_t len)
{
	struct rind_pq_keydesc kd = keydesc(p);
	const u8 *pk;

	if (rind_pq_spki_decode(&kd, der, len, &pk))
		return -EKEYREJECTED;
	rind_mldsa_set_pk(key, p, ops, pk);
	return 0;
}

int rind_mldsa_import_pub(struct mldsa_key *key, const struct mldsa_params *p,
			  const struct mldsa_ops *ops, const u8 *in, size_t len)
{
	size_t cap = 0;
	u8 *der = NULL;
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
		n = rind_pq_pem_to_der(in, len, RIND_PEM_PUBLIC_KEY, &der, &cap);
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
	struct rind_pq_keydesc kd = keydesc(p);
	struct rind_pq_privkey pk;
	const u8 *seed, *expanded;
	int err;

	if (rind_pq_pkcs8_decode(&kd, der, len, &pk))
		return -EKEYREJECTED;
	seed = pk.seed;
	expanded = pk.expanded;
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
	if (pk.pub) {
		rind_declassify(pk.pub, p->pk_size);
		if (memcmp(pk.pub, key->pk, p->pk_size))
			return -EKEYREJECTED;
	}
	return 0;
}

int rind_mldsa_import_priv(struct mldsa_key *key, const struct mldsa_params *p,
			   const struct mldsa_ops *ops, const u8 *in, size_t len)
{
	size_t cap = 0;
	u8 *der = NULL;
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
		n = rind_pq_pem_to_der(in, len, RIND_PEM_PRIVATE_KEY, &der, &cap);
		err = n < 0 ? n : import_pkcs8(key, p, ops, der, (size_t)n);
		if (der)
			memzero_explicit(der, cap);
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

static int encode_spki(const void *k, u8 *out, size_t outlen)
{
	const struct mldsa_key *key = k;
	struct rind_pq_keydesc kd = keydesc(key->p);

	return rind_pq_spki_encode(&kd, key->pk, out, outlen);
}

int rind_mldsa_export_pub(const struct mldsa_key *key, enum rind_key_format fmt,
			  u8 *out, size_t outlen)
{
	switch (fmt) {
	case RIND_KEY_RAW:
		return put_raw(key->pk, key->p->pk_size, out, outlen);
	case RIND_KEY_SPKI_DER:
		return encode_spki(key, out, outlen);
	case RIND_KEY_PEM: {
		struct rind_pq_keydesc kd = keydesc(key->p);

		return rind_pq_pem_encode(&kd, RIND_PEM_PUBLIC_KEY, encode_spki, key, out, outlen);
	}
	default:
		return -EINVAL;
	}
}

static int encode_pkcs8(const void *k, u8 *out, size_t outlen)
{
	const struct mldsa_key *key = k;
	struct rind_pq_keydesc kd = keydesc(key->p);

	return rind_pq_pkcs8_encode(&kd, key->has_seed ? key->seed : NULL, key->sk, out, outlen);
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
	case RIND_KEY_PEM: {
		struct rind_pq_keydesc kd = keydesc(key->p);

		n = rind_pq_pem_encode(&kd, RIND_PEM_PRIVATE_KEY, encode_pkcs8, key, out, outlen);
		break;
	}
	default:
		return -EINVAL;
	}
	/* Leave no partial secret behind on failure. */
	if (n < 0 && out)
		memzero_explicit(out, outlen);
	return n;
}
