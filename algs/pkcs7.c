// SPDX-License-Identifier: MIT
/*
 * PKCS#7 padding (RFC 5652 section 6.3; PKCS#5 for 8-byte blocks) for the
 * block modes that have none of their own, cbc(aes) in particular:
 * 1..blocksize bytes, each holding the pad length, always added.
 *
 * rind_pkcs7_unpad runs in constant time in the padding: it reads the last
 * blocksize bytes whatever the pad length claims, and folds every check
 * into one mask, so the time it takes says nothing of where or whether the
 * padding is wrong (the classic CBC padding oracle still exists if the
 * caller reports the failure differently from a MAC failure: authenticate
 * first).  Only a length that is not a positive multiple of the block size
 * is rejected early; the length is public.
 */
#include <limits.h>
#include <rind/internal/alg.h>
#include <rind/internal/util.h>
#include <rind/skcipher.h>

/* 1 if a < b, for a, b < 2^32, without a branch. */
static inline u32 ct_lt(u32 a, u32 b)
{
	return (u32)(((u64)a - (u64)b) >> 63);
}

RIND_EXPORT int rind_pkcs7_pad(u8 *buf, size_t len, size_t bufsize, unsigned int blocksize)
{
	unsigned int pad;

	if (!buf || !blocksize || blocksize > 255)
		return -EINVAL;
	pad = blocksize - (unsigned int)(len % blocksize);
	if (len > INT_MAX - pad)
		return -EINVAL;
	if (len + pad > bufsize)
		return -ENOSPC;
	memset(buf + len, (int)pad, pad);
	return (int)(len + pad);
}

RIND_EXPORT int rind_pkcs7_unpad(const u8 *buf, size_t len, unsigned int blocksize)
{
	const u8 *tail;
	u32 pad, bad, i;

	if (!blocksize || blocksize > 255)
		return -EINVAL;
	if (!buf || !len || len % blocksize || len > INT_MAX)
		return -EBADMSG;
	tail = buf + len - blocksize;
	pad = buf[len - 1];
	/* 1 <= pad <= blocksize */
	bad = ct_lt(pad, 1) | ct_lt(blocksize, pad);
	/* every byte of the claimed padding equals pad */
	for (i = 0; i < blocksize; i++) {
		u32 in_pad = ct_lt(i, pad);	/* byte blocksize-1-i is padding */

		bad |= in_pad & ct_lt(0, tail[blocksize - 1 - i] ^ pad);
	}
	/* bad is 0 or 1: select the result without a branch on the padding */
	return (int)(((u32)(len - pad) & (bad - 1)) | ((u32)-EBADMSG & (0u - bad)));
}
