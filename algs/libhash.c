// SPDX-License-Identifier: MIT
/*
 * One-shot hashing and HMAC for callers that want no tfm, as the kernel's
 * lib/crypto: rind_sha1() ... rind_sha512() and rind_hmac().
 *
 * Each hash's tfm is allocated once, from the registry's best
 * implementation, on first use (pthread_once) and then shared: a hash tfm
 * has no key, so threads may use it concurrently with descriptors on their
 * own stacks.  rind_hmac() over one of these five hashes computes RFC 2104
 * directly on the shared hash tfm (no per-call allocation); other names go
 * through a freshly allocated "hmac(<name>)" tfm.
 */
#include <limits.h>
#include <stdio.h>
#include <rind/internal/hash.h>
#include <rind/internal/util.h>

enum { LIB_SHA1, LIB_SHA224, LIB_SHA256, LIB_SHA384, LIB_SHA512, LIB_NHASH };

static const char *const lib_names[LIB_NHASH] = {
	"sha1", "sha224", "sha256", "sha384", "sha512",
};

static struct crypto_shash *lib_tfm[LIB_NHASH];
static pthread_once_t lib_once[LIB_NHASH] = {
	PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
	PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
};

static void lib_alloc(int i)
{
	lib_tfm[i] = crypto_alloc_shash(lib_names[i], 0, 0);
}

#define LIB_INIT_FN(i) static void lib_init_##i(void) { lib_alloc(i); }
LIB_INIT_FN(0)
LIB_INIT_FN(1)
LIB_INIT_FN(2)
LIB_INIT_FN(3)
LIB_INIT_FN(4)

static void (*const lib_init[LIB_NHASH])(void) = {
	lib_init_0, lib_init_1, lib_init_2, lib_init_3, lib_init_4,
};

/*
 * Which of lib_names[] @h is, or -1: decoded a character at a time (each
 * test stops at the terminating NUL), not five strcmp() calls per HMAC.
 */
static int lib_index(const char *h)
{
	if (h[0] != 's' || h[1] != 'h' || h[2] != 'a')
		return -1;
	switch (h[3]) {
	case '1':
		return h[4] ? -1 : LIB_SHA1;
	case '2':
		if (h[4] == '2' && h[5] == '4' && !h[6])
			return LIB_SHA224;
		if (h[4] == '5' && h[5] == '6' && !h[6])
			return LIB_SHA256;
		return -1;
	case '3':
		return h[4] == '8' && h[5] == '4' && !h[6] ? LIB_SHA384 : -1;
	case '5':
		return h[4] == '1' && h[5] == '2' && !h[6] ? LIB_SHA512 : -1;
	}
	return -1;
}

/* The shared tfm of hash @i, or an error pointer. */
static struct crypto_shash *lib_get(int i)
{
	pthread_once(&lib_once[i], lib_init[i]);
	return lib_tfm[i];
}

/*
 * The void one-shots cannot report failure, and a wrong digest must never
 * be returned: if no implementation of a standard hash can be had (every
 * one failed its self-test), stop.
 */
static struct crypto_shash *lib_get_or_die(int i)
{
	struct crypto_shash *tfm = lib_get(i);

	if (IS_ERR(tfm)) {
		fprintf(stderr, "rind: %s unavailable (%ld), cannot continue\n",
			lib_names[i], PTR_ERR(tfm));
		abort();
	}
	return tfm;
}

/* update() in pieces a shash length (unsigned int) can carry. */
static int lib_update(struct shash_desc *desc, const u8 *data, size_t len)
{
	int err = 0;

	while (len && !err) {
		unsigned int n = len > (UINT_MAX & ~127u) ? (UINT_MAX & ~127u) : (unsigned int)len;

		err = crypto_shash_update(desc, data, n);
		data += n;
		len -= n;
	}
	return err;
}

static int lib_digest(struct crypto_shash *tfm, const u8 *data, size_t len, u8 *out)
{
	SHASH_DESC_ON_STACK(desc, tfm);
	int err;

	desc->tfm = tfm;
	if (len <= UINT_MAX)
		return crypto_shash_digest(desc, data, (unsigned int)len, out);
	err = crypto_shash_init(desc);
	if (!err)
		err = lib_update(desc, data, len);
	if (!err)
		err = crypto_shash_final(desc, out);
	else
		shash_desc_zero(desc);
	return err;
}

static void lib_hash(int i, const u8 *data, size_t len, u8 *out)
{
	if (lib_digest(lib_get_or_die(i), data, len, out)) {
		fprintf(stderr, "rind: %s failed, cannot continue\n", lib_names[i]);
		abort();
	}
}

RIND_EXPORT void rind_sha1(const u8 *data, size_t len, u8 out[20])
{
	lib_hash(LIB_SHA1, data, len, out);
}

RIND_EXPORT void rind_sha224(const u8 *data, size_t len, u8 out[28])
{
	lib_hash(LIB_SHA224, data, len, out);
}

RIND_EXPORT void rind_sha256(const u8 *data, size_t len, u8 out[32])
{
	lib_hash(LIB_SHA256, data, len, out);
}

RIND_EXPORT void rind_sha384(const u8 *data, size_t len, u8 out[48])
{
	lib_hash(LIB_SHA384, data, len, out);
}

RIND_EXPORT void rind_sha512(const u8 *data, size_t len, u8 out[64])
{
	lib_hash(LIB_SHA512, data, len, out);
}

/* Largest block size of the five hashes above. */
#define LIB_MAX_BLOCKSIZE 128

#define LIB_IPAD64	0x3636363636363636ULL
#define LIB_OPAD64	0x5c5c5c5c5c5c5c5cULL

/*
 * The hash's entry points without the front end (shash_raw_*), for
 * rind_hmac(), with size_t lengths: lib_hmac_direct() wipes its one
 * descriptor once at the end.
 */
static int lib_h_update(const struct shash_alg *h, struct shash_desc *d,
			const u8 *data, size_t len)
{
	int err = 0;

	while (len && !err) {
		unsigned int n = len > (UINT_MAX & ~127u) ? (UINT_MAX & ~127u) : (unsigned int)len;

		err = h->update(d, data, n);
		data += n;
		len -= n;
	}
	return err;
}

static int lib_h_finup(const struct shash_alg *h, struct shash_desc *d,
		       const u8 *data, size_t len, u8 *out)
{
	int err;

	if (len <= UINT_MAX)
		return shash_raw_finup(h, d, data, (unsigned int)len, out);
	err = lib_h_update(h, d, data, len);
	return err ? err : h->final(d, out);
}

static int lib_h_digest(const struct shash_alg *h, struct shash_desc *d,
			const u8 *data, size_t len, u8 *out)
{
	int err;

	if (len <= UINT_MAX)
		return shash_raw_digest(h, d, data, (unsigned int)len, out);
	err = h->init(d);
	return err ? err : lib_h_finup(h, d, data, len, out);
}

/*
 * RFC 2104 over the shared unkeyed hash tfm, calling its entry points
 * directly.  The padded key is built and flipped between ipad and opad a
 * word at a time; only the key's length decides anything.  The pad, the
 * inner digest and the descriptor are wiped once, on every path.
 */
static int lib_hmac_direct(struct crypto_shash *tfm, const u8 *key, size_t keylen,
			   const u8 *data, size_t len, u8 *out)
{
	const struct shash_alg *h = crypto_shash_alg(tfm);
	unsigned int bs = crypto_shash_blocksize(tfm);
	unsigned int ds = h->digestsize;
	u64 pad[LIB_MAX_BLOCKSIZE / 8];
	u8 inner[HASH_MAX_DIGESTSIZE];
	SHASH_DESC_ON_STACK(desc, tfm);
	int err = 0;

	if (bs > LIB_MAX_BLOCKSIZE || bs % 8 || ds > bs)
		return -EINVAL;
	desc->tfm = tfm;
	if (keylen > bs) {
		err = lib_h_digest(h, desc, key, keylen, (u8 *)pad);
		keylen = ds;
	} else if (keylen) {
		memcpy(pad, key, keylen);
	}
	if (!err) {
		memset((u8 *)pad + keylen, 0, bs - keylen);
		for (unsigned int i = 0; i < bs / 8; i++)
			pad[i] ^= LIB_IPAD64;
		err = h->init(desc);
	}
	if (!err)
		err = h->update(desc, (const u8 *)pad, bs);
	if (!err)
		err = lib_h_finup(h, desc, data, len, inner);
	if (!err) {
		for (unsigned int i = 0; i < bs / 8; i++)
			pad[i] ^= LIB_IPAD64 ^ LIB_OPAD64;
		err = h->init(desc);
	}
	if (!err)
		err = h->update(desc, (const u8 *)pad, bs);
	if (!err)
		err = shash_raw_finup(h, desc, inner, ds, out);
	memzero_explicit(pad, bs);
	memzero_explicit(inner, ds);
	memzero_explicit(shash_desc_ctx(desc), h->descsize);
	return err;
}

/* Any other hash: a keyed "hmac(<hash>)" tfm for this call. */
static int lib_hmac_tfm(const char *hash, const u8 *key, size_t keylen,
			const u8 *data, size_t len, u8 *out)
{
	char name[CRYPTO_MAX_ALG_NAME];
	struct crypto_shash *tfm;
	u8 k0[HASH_MAX_DIGESTSIZE];
	int n, err;

	n = snprintf(name, sizeof(name), "hmac(%s)", hash);
	if (n < 0 || (size_t)n >= sizeof(name))
		return -ENAMETOOLONG;
	tfm = crypto_alloc_shash(name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	if (keylen > UINT_MAX) {
		/* Hash a huge key down first, as HMAC itself would. */
		struct crypto_shash *h = crypto_alloc_shash(hash, 0, 0);

		if (IS_ERR(h)) {
			err = (int)PTR_ERR(h);
			goto out;
		}
		err = lib_digest(h, key, keylen, k0);
		keylen = crypto_shash_digestsize(h);
		crypto_free_shash(h);
		if (err)
			goto out;
		key = k0;
	}
	err = crypto_shash_setkey(tfm, key, (unsigned int)keylen);
	if (!err)
		err = lib_digest(tfm, data, len, out);
out:
	memzero_explicit(k0, sizeof(k0));
	crypto_free_shash(tfm);
	return err;
}

RIND_EXPORT int rind_hmac(const char *hash, const u8 *key, size_t keylen,
			  const u8 *data, size_t len, u8 *out)
{
	int i;

	if (!hash || !out || (!key && keylen) || (!data && len))
		return -EINVAL;
	i = lib_index(hash);
	if (i >= 0) {
		struct crypto_shash *tfm = lib_get(i);

		if (IS_ERR(tfm))
			return (int)PTR_ERR(tfm);
		return lib_hmac_direct(tfm, key, keylen, data, len, out);
	}
	return lib_hmac_tfm(hash, key, keylen, data, len, out);
}
