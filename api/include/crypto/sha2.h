/* SPDX-License-Identifier: MIT */
/*
 * SHA-1 and SHA-2 internals shared by the generic C (algs/sha1.c,
 * algs/sha256.c, algs/sha512.c) and the accelerated drivers (arch/): the
 * descriptor state layouts (identical across drivers of one hash, so an
 * exported state imports into any of them), the generic block functions,
 * the buffering and padding logic (FIPS 180-4 section 5.1) written once
 * over a block function, as the kernel's sha*_base.h, and the shash entry
 * points and algs of a SHA-2 driver (DEFINE_SHA256_SHASH_ALGS,
 * DEFINE_SHA512_SHASH_ALGS), so that a driver is its block function.
 *
 * Not installed; only the library's own files include it.
 */
#ifndef _RIND_ALGS_SHA2_H
#define _RIND_ALGS_SHA2_H

#include <string.h>
#include <rind/internal/hash.h>
#include <rind/internal/util.h>

#define SHA1_DIGEST_SIZE	20
#define SHA1_BLOCK_SIZE		64
#define SHA224_DIGEST_SIZE	28
#define SHA256_DIGEST_SIZE	32
#define SHA256_BLOCK_SIZE	64
#define SHA384_DIGEST_SIZE	48
#define SHA512_DIGEST_SIZE	64
#define SHA512_BLOCK_SIZE	128

struct sha1_state {
	u32 state[5];
	u64 count;			/* bytes hashed so far */
	u8 buf[SHA1_BLOCK_SIZE];
};

struct sha256_state {
	u32 state[8];
	u64 count;
	u8 buf[SHA256_BLOCK_SIZE];
};

struct sha512_state {
	u64 state[8];
	u64 count[2];			/* 128-bit byte count, low word first */
	u8 buf[SHA512_BLOCK_SIZE];
};

/* Compress @blocks consecutive 64/128-byte blocks of @data into @state. */
typedef void (sha1_block_fn)(u32 state[5], const u8 *data, size_t blocks);
typedef void (sha256_block_fn)(u32 state[8], const u8 *data, size_t blocks);
typedef void (sha512_block_fn)(u64 state[8], const u8 *data, size_t blocks);

/* The portable C compression functions (library-internal). */
void rind_sha1_block_generic(u32 state[5], const u8 *data, size_t blocks);
void rind_sha256_block_generic(u32 state[8], const u8 *data, size_t blocks);
void rind_sha512_block_generic(u64 state[8], const u8 *data, size_t blocks);

/* The round constants (FIPS 180-4 section 4.2), 64-byte aligned for vector loads. */
extern const u32 rind_sha256_k[64] __attribute__((aligned(64)));
extern const u64 rind_sha512_k[80] __attribute__((aligned(64)));

/*
 * The buffering and padding of FIPS 180-4 section 5.1, for any of the
 * states above (@s has ->state and ->buf) and its block function @fn.
 * Macros, as the states and block functions differ in type; @fn is called
 * directly.
 *
 * SHA_BASE_BUFFER: add @len bytes at @data to a state whose buffer holds
 * @partial bytes, compressing each block that fills.
 */
#define SHA_BASE_BUFFER(s, partial, data, len, fn, bs)				\
	do {									\
		const u8 *__d = (data);						\
		size_t __l = (len), __p = (partial);				\
										\
		if (__p + __l >= (bs)) {					\
			if (__p) {						\
				size_t __n = (bs) - __p;			\
										\
				memcpy((s)->buf + __p, __d, __n);		\
				__d += __n;					\
				__l -= __n;					\
				fn((s)->state, (s)->buf, 1);			\
			}							\
			if (__l >= (bs)) {					\
				fn((s)->state, __d, __l / (bs));		\
				__d += __l / (bs) * (bs);			\
				__l %= (bs);					\
			}							\
			__p = 0;						\
		}								\
		if (__l)							\
			memcpy((s)->buf + __p, __d, __l);			\
	} while (0)

/*
 * SHA_BASE_PAD: after the @partial buffered bytes, the 0x80 byte and zeros
 * up to the length field at @lenoff of the last block (compressing one
 * more block first when the field does not fit).  The caller then writes
 * the bit length at s->buf + lenoff and compresses s->buf.
 */
#define SHA_BASE_PAD(s, partial, lenoff, fn, bs)				\
	do {									\
		size_t __p = (partial);						\
										\
		(s)->buf[__p++] = 0x80;						\
		if (__p > (lenoff)) {						\
			memset((s)->buf + __p, 0, (bs) - __p);			\
			fn((s)->state, (s)->buf, 1);				\
			__p = 0;						\
		}								\
		memset((s)->buf + __p, 0, (lenoff) - __p);			\
	} while (0)

/*
 * SHA_BASE_ONESHOT: the whole message @data, @len bytes, into @st (a fresh
 * state array), as one digest: whole blocks are compressed straight from
 * @data and the tail with its padding is built in a local block pair and
 * compressed with one more call, so nothing passes through the
 * descriptor's buffer.  @putlen(p, len) writes the length field at p.  The
 * copied tail may be secret (an HMAC key, a KDF input): its bytes are wiped;
 * the padding and the length are public.
 */
#define SHA_BASE_ONESHOT(st, data, len, fn, bs, lenoff, putlen)		\
	do {									\
		u8 __b[2 * (bs)] __attribute__((aligned(16)));			\
		const u8 *__d = (data);						\
		size_t __l = (len), __t = __l % (bs);				\
		size_t __n = __t + 1 > (lenoff) ? 2 * (bs) : (bs);		\
										\
		if (__l >= (bs))						\
			fn(st, __d, __l / (bs));				\
		if (__n == (bs))						\
			sha_base_zero(__b, (bs));				\
		else								\
			sha_base_zero(__b, 2 * (bs));				\
		if (__t)	/* (no arithmetic on a NULL empty message) */	\
			sha_base_copy_tail(__b, __d + (__l - __t), __t);	\
		__b[__t] = 0x80;						\
		putlen(__b + __n - ((bs) - (lenoff)), __l);			\
		fn(st, __b, __n / (bs));					\
		memzero_explicit(__b, __t);					\
	} while (0)

/*
 * The block is zeroed and the tail copied in fixed-size pieces: gcc expands
 * a memset of 128 bytes or more, or a memcpy of a bounded variable size,
 * into rep stos / rep movs, whose start-up cost is a sizeable part of a
 * short message's hash.  The vector type may alias: it is stored over byte
 * arrays.
 */
typedef u64 sha_base_v16 __attribute__((vector_size(16), aligned(16), may_alias));

/* Zero @n (a multiple of 64, at most 256) bytes of 16-byte aligned @dst. */
static inline __attribute__((always_inline)) void sha_base_zero(u8 *dst, size_t n)
{
	const sha_base_v16 z = { 0, 0 };

#pragma GCC unroll 16
	for (size_t i = 0; i < n; i += 16)
		*(sha_base_v16 *)(void *)(dst + i) = z;
}

/* Copy the @n < 128 tail bytes of @src to @dst. */
static inline void sha_base_copy_tail(u8 *dst, const u8 *src, size_t n)
{
	size_t i = 0;

	for (; i + 16 <= n; i += 16)
		__builtin_memcpy(dst + i, src + i, 16);
	if (n - i >= 8) {
		__builtin_memcpy(dst + i, src + i, 8);
		i += 8;
	}
	if (n - i >= 4) {
		__builtin_memcpy(dst + i, src + i, 4);
		i += 4;
	}
	for (; i < n; i++)
		dst[i] = src[i];
}

/* The 64-bit and 128-bit big-endian bit counts of a @len-byte message. */
#define SHA_PUTLEN64(p, len)	put_unaligned_be64((u64)(len) << 3, (p))
/*
 * The 128-bit field fills the last 16 bytes of the block alone (the pad
 * leaves it aligned): one 16-byte store, so that a block function's
 * 16-byte load of it can be forwarded from a single store.
 */
#define SHA_PUTLEN128(p, len)							\
	do {									\
		sha_base_v16 __v = { RIND_BE(64, (u64)(len) >> 61),		\
				     RIND_BE(64, (u64)(len) << 3) };		\
		*(sha_base_v16 *)(void *)(p) = __v;				\
	} while (0)

/*
 * The finishing helpers below write the digest and leave the state to be
 * wiped by whoever owns the descriptor: the shash front end wipes it after
 * every final, finup and digest, and the callers that drive a hash's entry
 * points themselves (the hmac template, PBKDF2, rind_hmac) wipe the
 * descriptor around it.  Wiping here as well cost a second pass over the
 * state on every hash.
 */

/* ---- SHA-1 -------------------------------------------------------------- */

static inline void sha1_base_init(struct sha1_state *s)
{
	s->state[0] = 0x67452301;
	s->state[1] = 0xefcdab89;
	s->state[2] = 0x98badcfe;
	s->state[3] = 0x10325476;
	s->state[4] = 0xc3d2e1f0;
	s->count = 0;
}

static inline void sha1_base_do_update(struct sha1_state *s, const u8 *data,
				       size_t len, sha1_block_fn *fn)
{
	size_t partial = s->count % SHA1_BLOCK_SIZE;

	s->count += len;
	SHA_BASE_BUFFER(s, partial, data, len, fn, SHA1_BLOCK_SIZE);
}

static inline void sha1_base_do_finalize(struct sha1_state *s, sha1_block_fn *fn)
{
	SHA_BASE_PAD(s, s->count % SHA1_BLOCK_SIZE, SHA1_BLOCK_SIZE - 8, fn, SHA1_BLOCK_SIZE);
	put_unaligned_be64(s->count << 3, s->buf + SHA1_BLOCK_SIZE - 8);
	fn(s->state, s->buf, 1);
}

static inline void sha1_base_finish(struct sha1_state *s, u8 *out)
{
	for (int i = 0; i < 5; i++)
		put_unaligned_be32(s->state[i], out + 4 * i);
}

/* One-shot digest of @len bytes into a state from sha1_base_init(). */
static inline void sha1_base_digest(struct sha1_state *s, const u8 *data, size_t len,
				    u8 *out, sha1_block_fn *fn)
{
	SHA_BASE_ONESHOT(s->state, data, len, fn, SHA1_BLOCK_SIZE, SHA1_BLOCK_SIZE - 8,
			 SHA_PUTLEN64);
	sha1_base_finish(s, out);
}

/* ---- SHA-224 / SHA-256 -------------------------------------------------- */

static inline void sha224_base_init(struct sha256_state *s)
{
	s->state[0] = 0xc1059ed8;
	s->state[1] = 0x367cd507;
	s->state[2] = 0x3070dd17;
	s->state[3] = 0xf70e5939;
	s->state[4] = 0xffc00b31;
	s->state[5] = 0x68581511;
	s->state[6] = 0x64f98fa7;
	s->state[7] = 0xbefa4fa4;
	s->count = 0;
}

static inline void sha256_base_init(struct sha256_state *s)
{
	s->state[0] = 0x6a09e667;
	s->state[1] = 0xbb67ae85;
	s->state[2] = 0x3c6ef372;
	s->state[3] = 0xa54ff53a;
	s->state[4] = 0x510e527f;
	s->state[5] = 0x9b05688c;
	s->state[6] = 0x1f83d9ab;
	s->state[7] = 0x5be0cd19;
	s->count = 0;
}

static inline void sha256_base_do_update(struct sha256_state *s, const u8 *data,
					 size_t len, sha256_block_fn *fn)
{
	size_t partial = s->count % SHA256_BLOCK_SIZE;

	s->count += len;
	SHA_BASE_BUFFER(s, partial, data, len, fn, SHA256_BLOCK_SIZE);
}

static inline void sha256_base_do_finalize(struct sha256_state *s, sha256_block_fn *fn)
{
	SHA_BASE_PAD(s, s->count % SHA256_BLOCK_SIZE, SHA256_BLOCK_SIZE - 8, fn, SHA256_BLOCK_SIZE);
	put_unaligned_be64(s->count << 3, s->buf + SHA256_BLOCK_SIZE - 8);
	fn(s->state, s->buf, 1);
}

/* Write the first @digestsize bytes of the state (see above for the wipe). */
static inline void sha256_base_finish(struct sha256_state *s, u8 *out,
				      unsigned int digestsize)
{
	for (unsigned int i = 0; i < digestsize / 4; i++)
		put_unaligned_be32(s->state[i], out + 4 * i);
}

/* One-shot digest of @len bytes into a state from sha224/256_base_init(). */
static inline void sha256_base_digest(struct sha256_state *s, const u8 *data, size_t len,
				      u8 *out, unsigned int digestsize, sha256_block_fn *fn)
{
	SHA_BASE_ONESHOT(s->state, data, len, fn, SHA256_BLOCK_SIZE, SHA256_BLOCK_SIZE - 8,
			 SHA_PUTLEN64);
	sha256_base_finish(s, out, digestsize);
}

/* ---- SHA-384 / SHA-512 -------------------------------------------------- */

static inline void sha384_base_init(struct sha512_state *s)
{
	s->state[0] = 0xcbbb9d5dc1059ed8ULL;
	s->state[1] = 0x629a292a367cd507ULL;
	s->state[2] = 0x9159015a3070dd17ULL;
	s->state[3] = 0x152fecd8f70e5939ULL;
	s->state[4] = 0x67332667ffc00b31ULL;
	s->state[5] = 0x8eb44a8768581511ULL;
	s->state[6] = 0xdb0c2e0d64f98fa7ULL;
	s->state[7] = 0x47b5481dbefa4fa4ULL;
	s->count[0] = s->count[1] = 0;
}

static inline void sha512_base_init(struct sha512_state *s)
{
	s->state[0] = 0x6a09e667f3bcc908ULL;
	s->state[1] = 0xbb67ae8584caa73bULL;
	s->state[2] = 0x3c6ef372fe94f82bULL;
	s->state[3] = 0xa54ff53a5f1d36f1ULL;
	s->state[4] = 0x510e527fade682d1ULL;
	s->state[5] = 0x9b05688c2b3e6c1fULL;
	s->state[6] = 0x1f83d9abfb41bd6bULL;
	s->state[7] = 0x5be0cd19137e2179ULL;
	s->count[0] = s->count[1] = 0;
}

static inline void sha512_base_do_update(struct sha512_state *s, const u8 *data,
					 size_t len, sha512_block_fn *fn)
{
	size_t partial = s->count[0] % SHA512_BLOCK_SIZE;

	s->count[0] += len;
	if (s->count[0] < len)
		s->count[1]++;
	SHA_BASE_BUFFER(s, partial, data, len, fn, SHA512_BLOCK_SIZE);
}

static inline void sha512_base_do_finalize(struct sha512_state *s, sha512_block_fn *fn)
{
	const size_t lenoff = SHA512_BLOCK_SIZE - 16;

	SHA_BASE_PAD(s, s->count[0] % SHA512_BLOCK_SIZE, lenoff, fn, SHA512_BLOCK_SIZE);
	/* The message length in bits, as a 128-bit big-endian integer. */
	put_unaligned_be64(s->count[1] << 3 | s->count[0] >> 61, s->buf + lenoff);
	put_unaligned_be64(s->count[0] << 3, s->buf + lenoff + 8);
	fn(s->state, s->buf, 1);
}

static inline void sha512_base_finish(struct sha512_state *s, u8 *out,
				      unsigned int digestsize)
{
	for (unsigned int i = 0; i < digestsize / 8; i++)
		put_unaligned_be64(s->state[i], out + 8 * i);
}

/* One-shot digest of @len bytes into a state from sha384/512_base_init(). */
static inline void sha512_base_digest(struct sha512_state *s, const u8 *data, size_t len,
				      u8 *out, unsigned int digestsize, sha512_block_fn *fn)
{
	SHA_BASE_ONESHOT(s->state, data, len, fn, SHA512_BLOCK_SIZE, SHA512_BLOCK_SIZE - 16,
			 SHA_PUTLEN128);
	sha512_base_finish(s, out, digestsize);
}

/* ---- shash drivers ------------------------------------------------------ */

/*
 * The shash entry points and the two-entry shash_alg array @pfx##_algs of a
 * SHA-224/256 or SHA-384/512 driver whose block function is @fn: the same
 * in every driver but for @fn, which each entry point calls directly
 * through the inline helpers above.  @sfx ends the driver names
 * ("sha224-" @sfx, "sha256-" @sfx), @module is "generic" or the arch.
 * Known-answer tests are registered by the generic files.
 */
#define DEFINE_SHA256_SHASH_ALGS(pfx, fn, sfx, prio, module)			\
	__DEFINE_SHA2_SHASH_ALGS(pfx, fn, sfx, prio, module, sha256, sha224, sha256,	\
				 SHA224_DIGEST_SIZE, SHA256_DIGEST_SIZE, SHA256_BLOCK_SIZE)
#define DEFINE_SHA512_SHASH_ALGS(pfx, fn, sfx, prio, module)			\
	__DEFINE_SHA2_SHASH_ALGS(pfx, fn, sfx, prio, module, sha512, sha384, sha512,	\
				 SHA384_DIGEST_SIZE, SHA512_DIGEST_SIZE, SHA512_BLOCK_SIZE)

/* @fam: sha256 or sha512 (state and helpers); @a, @b: its two hashes. */
#define __DEFINE_SHA2_SHASH_ALGS(pfx, fn, sfx, prio, module, fam, a, b, a_ds, b_ds, bs) \
static int pfx##_##a##_init(struct shash_desc *desc)				\
{										\
	a##_base_init(shash_desc_ctx(desc));					\
	return 0;								\
}										\
										\
static int pfx##_##b##_init(struct shash_desc *desc)				\
{										\
	b##_base_init(shash_desc_ctx(desc));					\
	return 0;								\
}										\
										\
static int pfx##_update(struct shash_desc *desc, const u8 *data, unsigned int len) \
{										\
	fam##_base_do_update(shash_desc_ctx(desc), data, len, fn);		\
	return 0;								\
}										\
										\
static int pfx##_finup(struct shash_desc *desc, const u8 *data, unsigned int len, \
		       u8 *out)							\
{										\
	struct fam##_state *s = shash_desc_ctx(desc);				\
	unsigned int ds = crypto_shash_alg(desc->tfm)->digestsize;		\
										\
	if (len)								\
		fam##_base_do_update(s, data, len, fn);				\
	fam##_base_do_finalize(s, fn);						\
	fam##_base_finish(s, out, ds);						\
	return 0;								\
}										\
										\
static int pfx##_final(struct shash_desc *desc, u8 *out)			\
{										\
	return pfx##_finup(desc, NULL, 0, out);					\
}										\
										\
static int pfx##_##a##_digest(struct shash_desc *desc, const u8 *data,		\
			      unsigned int len, u8 *out)			\
{										\
	struct fam##_state *s = shash_desc_ctx(desc);				\
										\
	a##_base_init(s);							\
	fam##_base_digest(s, data, len, out, a_ds, fn);				\
	return 0;								\
}										\
										\
static int pfx##_##b##_digest(struct shash_desc *desc, const u8 *data,		\
			      unsigned int len, u8 *out)			\
{										\
	struct fam##_state *s = shash_desc_ctx(desc);				\
										\
	b##_base_init(s);							\
	fam##_base_digest(s, data, len, out, b_ds, fn);				\
	return 0;								\
}										\
										\
static int pfx##_export(struct shash_desc *desc, void *out)			\
{										\
	memcpy(out, shash_desc_ctx(desc), sizeof(struct fam##_state));		\
	return 0;								\
}										\
										\
static int pfx##_import(struct shash_desc *desc, const void *in)		\
{										\
	memcpy(shash_desc_ctx(desc), in, sizeof(struct fam##_state));		\
	return 0;								\
}										\
										\
static struct shash_alg pfx##_algs[] = {					\
	__SHA2_SHASH_ALG(pfx, fam, a, a_ds, bs, sfx, prio, module),		\
	__SHA2_SHASH_ALG(pfx, fam, b, b_ds, bs, sfx, prio, module),		\
}

#define __SHA2_SHASH_ALG(pfx, fam, name, ds, bs, sfx, prio, module) {		\
	.init		= pfx##_##name##_init,					\
	.update		= pfx##_update,						\
	.final		= pfx##_final,						\
	.finup		= pfx##_finup,						\
	.digest		= pfx##_##name##_digest,				\
	.export		= pfx##_export,						\
	.import		= pfx##_import,						\
	.descsize	= sizeof(struct fam##_state),				\
	.digestsize	= ds,							\
	.statesize	= sizeof(struct fam##_state),				\
	.base = {								\
		.cra_name		= #name,				\
		.cra_driver_name	= #name "-" sfx,			\
		.cra_priority		= prio,					\
		.cra_blocksize		= bs,					\
		.cra_module		= module,				\
	},									\
}

#endif /* _RIND_ALGS_SHA2_H */
