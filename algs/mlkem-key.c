// SPDX-License-Identifier: MIT
/*
 * ML-KEM key encodings besides the raw ones: SubjectPublicKeyInfo and
 * PKCS#8 DER and PEM of the IETF LAMPS profile (OIDs
 * 2.16.840.1.101.3.4.4.1/2/3, absent parameters; the private key as the
 * 64-byte seed d || z, the expanded decapsulation key, or both -- which
 * must then agree -- see api/pqkey.c).  Export writes the seed form when
 * the key came from a seed, else the expanded key.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rind/internal/keyfmt.h>
#include <rind/internal/util.h>
#include <crypto/mlkem.h>

static struct rind_pq_keydesc keydesc(const struct mlkem_params *p)
{
	struct rind_pq_keydesc kd = {
		.oid = p->k == 2 ? RIND_OID_ML_KEM_512 :
		       p->k == 3 ? RIND_OID_ML_KEM_768 : RIND_OID_ML_KEM_1024,
		.pk_size = p->ek_size,
		.seed_size = MLKEM_SEED_BYTES,
		.expanded_size = p->dk_size,
	};

	return kd;
}

static int import_spki(struct mlkem_key *key, const struct mlkem_params *p,
		       const u8 *der, size_t len)
{
	struct rind_pq_keydesc kd = keydesc(p);
	const u8 *pk;

	if (rind_pq_spki_decode(&kd, der, len, &pk))
		return -EKEYREJECTED;
	return rind_mlkem_set_ek(key, p, pk);
}

int rind_mlkem_import_pub(struct mlkem_key *key, const struct mlkem_params *p,
			  const u8 *in, size_t len)
{
	size_t cap = 0;
	u8 *der = NULL;
	int n, err;

	switch (rind_key_detect(in, len, p->ek_size)) {
	case RIND_KEY_RAW:
		if (len != p->ek_size)
			return -EINVAL;
		return rind_mlkem_set_ek(key, p, in);
	case RIND_KEY_SPKI_DER:
		return import_spki(key, p, in, len);
	case RIND_KEY_PEM:
		n = rind_pq_pem_to_der(in, len, RIND_PEM_PUBLIC_KEY, &der, &cap);
		err = n < 0 ? n : import_spki(key, p, der, (size_t)n);
		free(der);
		return err;
	default:
		return -EINVAL;	/* no JWK form: bytes of a wrong length */
	}
}

/*
 * Into a scratch key first, so that @key is unchanged when the parts
 * disagree: a seed with an expanded key that is not the seed's, or a
 * public key that is not the private key's.
 */
static int import_pkcs8(struct mlkem_key *key, const struct mlkem_params *p,
			const u8 *der, size_t len)
{
	struct rind_pq_keydesc kd = keydesc(p);
	struct rind_pq_privkey pk;
	struct mlkem_key *t;
	int err = 0, ne = 0;

	if (rind_pq_pkcs8_decode(&kd, der, len, &pk))
		return -EKEYREJECTED;
	t = malloc(sizeof(*t));
	if (!t)
		return -ENOMEM;
	memset(t, 0, sizeof(*t));
	t->ops = key->ops;
	if (pk.seed) {
		rind_mlkem_keygen(t, p, pk.seed);
		if (pk.expanded) {
			u8 *dk = malloc(p->dk_size);

			if (!dk) {
				err = -ENOMEM;
			} else {
				rind_mlkem_export_dk(t, dk);
				ne = crypto_memneq(dk, pk.expanded, p->dk_size);
				rind_declassify(&ne, sizeof(ne));
				memzero_explicit(dk, p->dk_size);
				free(dk);
			}
		}
	} else {
		err = rind_mlkem_set_dk(t, p, pk.expanded);
	}
	if (!err && ne)
		err = -EKEYREJECTED;
	/* A public key carried along is public; it must be this key's. */
	if (!err && pk.pub && memcmp(pk.pub, t->ek, p->ek_size))
		err = -EKEYREJECTED;
	if (!err)
		memcpy(key, t, sizeof(*t));
	memzero_explicit(t, sizeof(*t));
	free(t);
	return err;
}

int rind_mlkem_import_priv(struct mlkem_key *key, const struct mlkem_params *p,
			   const u8 *in, size_t len)
{
	size_t cap = 0;
	u8 *der = NULL;
	int n, err;

	if (len == MLKEM_SEED_BYTES) {
		rind_mlkem_keygen(key, p, in);
		return 0;
	}
	if (len == p->dk_size)
		return rind_mlkem_set_dk(key, p, in);
	switch (rind_key_detect(in, len, 0)) {
	case RIND_KEY_PKCS8_DER:
		return import_pkcs8(key, p, in, len);
	case RIND_KEY_PEM:
		n = rind_pq_pem_to_der(in, len, RIND_PEM_PRIVATE_KEY, &der, &cap);
		err = n < 0 ? n : import_pkcs8(key, p, der, (size_t)n);
		if (der)
			memzero_explicit(der, cap);
		free(der);
		return err;
	default:
		return -EINVAL;	/* neither a raw length nor an encoding */
	}
}

static int put_raw(const u8 *k, size_t len, u8 *out, size_t outlen)
{
	if (outlen < len)
		return -ENOSPC;
	memcpy(out, k, len);
	return (int)len;
}

static int encode_spki(const void *k, u8 *out, size_t outlen)
{
	const struct mlkem_key *key = k;
	struct rind_pq_keydesc kd = keydesc(key->p);

	return rind_pq_spki_encode(&kd, key->ek, out, outlen);
}

int rind_mlkem_export_pub(const struct mlkem_key *key, enum rind_key_format fmt,
			  u8 *out, size_t outlen)
{
	struct rind_pq_keydesc kd = keydesc(key->p);

	switch (fmt) {
	case RIND_KEY_RAW:
		return put_raw(key->ek, key->p->ek_size, out, outlen);
	case RIND_KEY_SPKI_DER:
		return encode_spki(key, out, outlen);
	case RIND_KEY_PEM:
		return rind_pq_pem_encode(&kd, RIND_PEM_PUBLIC_KEY, encode_spki, key, out, outlen);
	default:
		return -EINVAL;
	}
}

static int encode_pkcs8(const void *k, u8 *out, size_t outlen)
{
	const struct mlkem_key *key = k;
	struct rind_pq_keydesc kd = keydesc(key->p);
	u8 *dk = NULL;
	int n;

	if (key->has_seed)
		return rind_pq_pkcs8_encode(&kd, key->seed, NULL, out, outlen);
	dk = malloc(key->p->dk_size);
	if (!dk)
		return -ENOMEM;
	rind_mlkem_export_dk(key, dk);
	n = rind_pq_pkcs8_encode(&kd, NULL, dk, out, outlen);
	memzero_explicit(dk, key->p->dk_size);
	free(dk);
	return n;
}

int rind_mlkem_export_priv(const struct mlkem_key *key, enum rind_key_format fmt,
			   u8 *out, size_t outlen)
{
	struct rind_pq_keydesc kd = keydesc(key->p);
	int n;

	switch (fmt) {
	case RIND_KEY_RAW:
		if (outlen < key->p->dk_size)
			return -ENOSPC;
		rind_mlkem_export_dk(key, out);
		return (int)key->p->dk_size;
	case RIND_KEY_PKCS8_DER:
		n = encode_pkcs8(key, out, outlen);
		break;
	case RIND_KEY_PEM:
		n = rind_pq_pem_encode(&kd, RIND_PEM_PRIVATE_KEY, encode_pkcs8, key, out, outlen);
		break;
	default:
		return -EINVAL;
	}
	/* Leave no partial secret behind on failure. */
	if (n < 0)
		memzero_explicit(out, outlen);
	return n;
}
