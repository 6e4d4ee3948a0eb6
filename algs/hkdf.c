// SPDX-License-Identifier: MIT
/*
 * HKDF (RFC 5869) over any keyed hash tfm, normally "hmac(<hash>)", in the
 * shape of the kernel's crypto/hkdf.c:
 *
 *   rind_hkdf_extract: PRK = HMAC-Hash(salt, IKM); the tfm is left keyed
 *                      with the salt.
 *   rind_hkdf_expand:  OKM = T(1) | T(2) | ... truncated to okmlen, where
 *                      T(i) = HMAC-Hash(PRK, T(i-1) | info | i); the caller
 *                      has keyed the tfm with the PRK.
 *
 * These are library functions, not registry algorithms: they register
 * nothing and work with every implementation of the underlying HMAC.
 *
 * Cost: the tfm is keyed once per call of extract (the salt; the HMAC
 * precomputes its padded-key states there) and never by expand, whose
 * T(i) are each one digest call on the keyed tfm (the HMAC's precomputed
 * inner state imported, the message blocks, the outer state): T(i-1) |
 * info | i is laid out once in a buffer on the stack when it fits, so each
 * block is a single digest rather than init, two updates and a finup.
 * Nothing here branches on or indexes by secret data; intermediate
 * blocks and descriptors are wiped before returning.
 */

#include <rind/hash.h>
#include <rind/internal/alg.h>
#include <rind/internal/util.h>

/* Stands in for a NULL pointer given with a zero length. */
static const u8 hkdf_empty[1];

/* The absent salt (RFC 5869 section 2.2): HashLen zero bytes. */
static const u8 hkdf_zero_salt[HASH_MAX_DIGESTSIZE];

/* T(i-1) | info | i fits this for infolen up to 256 - 1 - HashLen. */
#define HKDF_MSG_MAX	256

RIND_EXPORT int rind_hkdf_extract(struct crypto_shash *hmac_tfm, const u8 *ikm,
				  unsigned int ikmlen, const u8 *salt,
				  unsigned int saltlen, u8 *prk)
{
	SHASH_DESC_ON_STACK(desc, hmac_tfm);
	unsigned int hashlen;
	int err;

	if (IS_ERR_OR_NULL(hmac_tfm) || !prk)
		return -EINVAL;
	if ((!ikm && ikmlen) || (!salt && saltlen))
		return -EINVAL;
	hashlen = crypto_shash_digestsize(hmac_tfm);
	if (!hashlen || hashlen > HASH_MAX_DIGESTSIZE)
		return -EINVAL;
	if (!ikm)
		ikm = hkdf_empty;

	/*
	 * RFC 5869 section 2.2: an absent salt is HashLen zero bytes.  (HMAC
	 * pads a short key with zeros, so this equals the empty key; passing
	 * the explicit form keeps us independent of how the HMAC treats a
	 * zero-length key.)
	 */
	if (saltlen)
		err = crypto_shash_setkey(hmac_tfm, salt, saltlen);
	else
		err = crypto_shash_setkey(hmac_tfm, hkdf_zero_salt, hashlen);
	if (err)
		return err;

	/* The front end wipes the descriptor's state after the digest. */
	desc->tfm = hmac_tfm;
	rind_ct_begin();
	err = crypto_shash_digest(desc, ikm, ikmlen, prk);
	rind_ct_end();
	if (err) {
		memzero_explicit(prk, hashlen);
		shash_desc_zero(desc);
	}
	return err;
}

RIND_EXPORT int rind_hkdf_expand(struct crypto_shash *hmac_tfm, const u8 *info,
				 unsigned int infolen, u8 *okm, unsigned int okmlen)
{
	SHASH_DESC_ON_STACK(desc, hmac_tfm);
	u8 t[HASH_MAX_DIGESTSIZE];
	u8 msg[HKDF_MSG_MAX];
	unsigned int hashlen, done, n;
	u8 counter;
	int err = 0;

	if (IS_ERR_OR_NULL(hmac_tfm) || (!okm && okmlen) || (!info && infolen))
		return -EINVAL;
	hashlen = crypto_shash_digestsize(hmac_tfm);
	if (!hashlen || hashlen > HASH_MAX_DIGESTSIZE)
		return -EINVAL;
	/* L <= 255 * HashLen (RFC 5869 section 2.3); 255 * 64 fits easily. */
	if (okmlen > 255 * hashlen)
		return -EINVAL;
	if (!okmlen)
		return 0;
	if (!info)
		info = hkdf_empty;

	desc->tfm = hmac_tfm;
	rind_ct_begin();
	if (infolen <= HKDF_MSG_MAX - 1 - hashlen) {
		/*
		 * msg = T(i-1) | info | i; T(0) is the empty string, so the
		 * first block's message starts at msg + hashlen.
		 */
		u8 *ctr = msg + hashlen + infolen;

		memcpy(msg + hashlen, info, infolen);
		counter = 1;
		for (done = 0; done < okmlen; done += n, counter++) {
			*ctr = counter;
			if (done)
				err = crypto_shash_digest(desc, msg, hashlen + infolen + 1, t);
			else
				err = crypto_shash_digest(desc, msg + hashlen, infolen + 1, t);
			if (err)
				break;
			n = min(hashlen, okmlen - done);
			memcpy(okm + done, t, n);
			if (done + n < okmlen)
				memcpy(msg, t, hashlen);
		}
		if (okmlen > hashlen)	/* T(1).. were kept in msg */
			memzero_explicit(msg, hashlen);
	} else {
		counter = 1;
		for (done = 0; done < okmlen; done += n, counter++) {
			err = crypto_shash_init(desc);
			/* T(0) is the empty string: the first block has no prefix. */
			if (!err && done)
				err = crypto_shash_update(desc, t, hashlen);
			if (!err)
				err = crypto_shash_update(desc, info, infolen);
			if (!err)
				err = crypto_shash_finup(desc, &counter, 1, t);
			if (err)
				break;
			n = min(hashlen, okmlen - done);
			memcpy(okm + done, t, n);
		}
		shash_desc_zero(desc);
	}

	rind_ct_end();

	/*
	 * A failed call leaves no partial key material behind.  After a
	 * successful crypto_shash_digest the front end has wiped the
	 * descriptor's state already.
	 */
	if (err) {
		memzero_explicit(okm, okmlen);
		shash_desc_zero(desc);
	}
	memzero_explicit(t, sizeof(t));
	return err;
}
