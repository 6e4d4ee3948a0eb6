// SPDX-License-Identifier: MIT
/*
 * PBKDF2 (RFC 8018 section 5.2) with HMAC as the PRF, over any keyed hash
 * tfm ("hmac(sha256)", ...):
 *
 *   DK = T_1 | T_2 | ... truncated to dkLen,
 *   T_i = U_1 ^ U_2 ^ ... ^ U_c,
 *   U_1 = PRF(P, S | INT(i)),  U_j = PRF(P, U_{j-1}).
 *
 * The tfm is keyed with the password once; every PRF call after that
 * starts from the HMAC's precomputed inner and outer states (an init on a
 * keyed hmac tfm), so an iteration costs the two hash finalisations of one
 * HMAC, never a re-keying.  The iteration loop calls the implementation's
 * own digest entry (or init/finup) directly: the front end's per-call work
 * (the key check, done once here, and a wipe of the descriptor after every
 * digest, done once at the end here) would otherwise be a good part of an
 * iteration's cost.
 *
 * Nothing branches on or indexes by the password or the intermediate
 * values; the U and T blocks and the descriptor are wiped on return.
 * A library function, not a registry algorithm: it registers nothing.
 */

#include <rind/internal/hash.h>
#include <rind/internal/util.h>

/* Stands in for a NULL pointer given with a zero length. */
static const u8 pbkdf2_empty[1];

/* The empty password's key form: HashLen zero bytes (see below). */
static const u8 pbkdf2_zero_key[HASH_MAX_DIGESTSIZE];

/* One PRF call on a keyed descriptor, without the front end's wrapping. */
static inline int pbkdf2_prf(const struct shash_alg *alg, struct shash_desc *desc,
			     const u8 *in, unsigned int len, u8 *out)
{
	int err;

	if (alg->digest)
		return alg->digest(desc, in, len, out);
	err = alg->init(desc);
	if (err)
		return err;
	if (alg->finup)
		return alg->finup(desc, in, len, out);
	err = alg->update(desc, in, len);
	return err ? err : alg->final(desc, out);
}

RIND_EXPORT int rind_pbkdf2(struct crypto_shash *hmac_tfm, const u8 *pass,
			    unsigned int passlen, const u8 *salt, unsigned int saltlen,
			    unsigned int iterations, u8 *out, unsigned int outlen)
{
	SHASH_DESC_ON_STACK(desc, hmac_tfm);
	const struct shash_alg *alg;
	u8 u[2][HASH_MAX_DIGESTSIZE];
	u8 t[HASH_MAX_DIGESTSIZE];
	unsigned int hashlen, done, n, j;
	u8 be_i[4];
	u32 i;
	int cur;
	int err = 0;

	if (IS_ERR_OR_NULL(hmac_tfm) || !out)
		return -EINVAL;
	if ((!pass && passlen) || (!salt && saltlen))
		return -EINVAL;
	/* RFC 8018: c and dkLen are positive integers. */
	if (!iterations || !outlen)
		return -EINVAL;
	hashlen = crypto_shash_digestsize(hmac_tfm);
	if (!hashlen || hashlen > HASH_MAX_DIGESTSIZE)
		return -EINVAL;
	/*
	 * dkLen > (2^32 - 1) * hLen cannot be expressed in an unsigned int,
	 * so the block counter below never wraps.
	 */
	if (!salt)
		salt = pbkdf2_empty;

	/*
	 * An empty password is allowed.  HMAC pads short keys with zeros, so
	 * HashLen zero bytes is the same key as the empty one; use that form
	 * so as not to depend on how the HMAC treats a zero-length key.
	 */
	if (passlen)
		err = crypto_shash_setkey(hmac_tfm, pass, passlen);
	else
		err = crypto_shash_setkey(hmac_tfm, pbkdf2_zero_key, hashlen);
	if (err)
		return err;

	alg = crypto_shash_alg(hmac_tfm);
	desc->tfm = hmac_tfm;
	rind_ct_begin();
	for (done = 0, i = 1; done < outlen; done += n, i++) {
		put_unaligned_be32(i, be_i);

		/* U_1 = PRF(P, S | INT(i)) */
		err = crypto_shash_init(desc);
		if (!err)
			err = crypto_shash_update(desc, salt, saltlen);
		if (!err)
			err = crypto_shash_finup(desc, be_i, sizeof(be_i), u[0]);
		if (err)
			break;
		memcpy(t, u[0], hashlen);

		/* U_j = PRF(P, U_{j-1}), alternating between two buffers. */
		cur = 0;
		for (j = 1; j < iterations; j++) {
			err = pbkdf2_prf(alg, desc, u[cur], hashlen, u[cur ^ 1]);
			if (err)
				break;
			cur ^= 1;
			crypto_xor(t, u[cur], hashlen);
		}
		if (err)
			break;

		n = min(hashlen, outlen - done);
		memcpy(out + done, t, n);
	}

	rind_ct_end();
	if (err)
		memzero_explicit(out, outlen);
	shash_desc_zero(desc);
	memzero_explicit(u, sizeof(u));
	memzero_explicit(t, sizeof(t));
	return err;
}
