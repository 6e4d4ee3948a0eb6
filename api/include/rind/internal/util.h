/* SPDX-License-Identifier: MIT */
/*
 * Small helpers shared by implementations: byte order, rotations, and a
 * linear view of scatterlist data.
 */
#ifndef _RIND_INTERNAL_UTIL_H
#define _RIND_INTERNAL_UTIL_H

#include <string.h>
#include <rind/types.h>
#include <rind/scatterlist.h>

static inline u32 rol32(u32 w, unsigned int s) { return (w << (s & 31)) | (w >> ((-s) & 31)); }
static inline u32 ror32(u32 w, unsigned int s) { return (w >> (s & 31)) | (w << ((-s) & 31)); }
static inline u64 rol64(u64 w, unsigned int s) { return (w << (s & 63)) | (w >> ((-s) & 63)); }
static inline u64 ror64(u64 w, unsigned int s) { return (w >> (s & 63)) | (w << ((-s) & 63)); }

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RIND_LE(bits, v) (v)
#define RIND_BE(bits, v) __builtin_bswap##bits(v)
#else
#define RIND_LE(bits, v) __builtin_bswap##bits(v)
#define RIND_BE(bits, v) (v)
#endif
static inline u32 get_unaligned_le32(const void *p) { u32 v; memcpy(&v, p, 4); return RIND_LE(32, v); }
static inline u16 get_unaligned_le16(const void *p) { u16 v; memcpy(&v, p, 2); return RIND_LE(16, v); }
static inline u16 get_unaligned_be16(const void *p) { u16 v; memcpy(&v, p, 2); return RIND_BE(16, v); }
static inline u32 get_unaligned_be32(const void *p) { u32 v; memcpy(&v, p, 4); return RIND_BE(32, v); }
static inline u64 get_unaligned_le64(const void *p) { u64 v; memcpy(&v, p, 8); return RIND_LE(64, v); }
static inline u64 get_unaligned_be64(const void *p) { u64 v; memcpy(&v, p, 8); return RIND_BE(64, v); }
static inline void put_unaligned_le16(u16 v, void *p) { v = RIND_LE(16, v); memcpy(p, &v, 2); }
static inline void put_unaligned_be16(u16 v, void *p) { v = RIND_BE(16, v); memcpy(p, &v, 2); }
static inline void put_unaligned_le32(u32 v, void *p) { v = RIND_LE(32, v); memcpy(p, &v, 4); }
static inline void put_unaligned_be32(u32 v, void *p) { v = RIND_BE(32, v); memcpy(p, &v, 4); }
static inline void put_unaligned_le64(u64 v, void *p) { v = RIND_LE(64, v); memcpy(p, &v, 8); }
static inline void put_unaligned_be64(u64 v, void *p) { v = RIND_BE(64, v); memcpy(p, &v, 8); }

/*
 * Declassify: say that a value computed from secrets is public from here on
 * (a tag comparison's verdict, a signature about to be output).  A no-op,
 * except in the constant-time checking build (make ct, -DRIND_VALGRIND),
 * where memcheck tracks secrets as undefined memory and this marks the
 * value defined, so that a branch on it is not reported.
 */
#ifdef RIND_VALGRIND
#include <valgrind/memcheck.h>
#define rind_declassify(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#else
#define rind_declassify(p, n) ((void)(p), (void)(n))
#endif

void rind_memzero_explicit(void *s, size_t n);
#define memzero_explicit rind_memzero_explicit
int rind_memneq(const void *a, const void *b, size_t n);
#define crypto_memneq rind_memneq

/* dst = a ^ b over n bytes (any alignment; dst may equal a or b). */
static inline void crypto_xor_cpy(u8 *dst, const u8 *a, const u8 *b, size_t n)
{
	while (n >= 8) {
		u64 x, y;
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		x ^= y;
		memcpy(dst, &x, 8);
		dst += 8; a += 8; b += 8; n -= 8;
	}
	while (n--)
		*dst++ = *a++ ^ *b++;
}

static inline void crypto_xor(u8 *dst, const u8 *src, size_t n)
{
	crypto_xor_cpy(dst, dst, src, n);
}

/*
 * A contiguous view of @len bytes at offset @skip of a source and a
 * destination scatterlist.  When both ranges are contiguous the pointers
 * point into the caller's buffers (src == dst for in-place requests);
 * otherwise the data is copied into a bounce buffer that is processed in
 * place, copied out to the destination by rind_sg_unmap() and wiped.
 */
struct rind_sg_map {
	const u8 *src;
	u8 *dst;
	size_t len;
	/* private */
	u8 *bounce;
	struct scatterlist *dsg;
	size_t skip;
};

int rind_sg_map(struct rind_sg_map *m, struct scatterlist *src, struct scatterlist *dst,
		size_t skip, size_t len);
/* Copy a bounced result out to the destination (if @copy_out) and release. */
void rind_sg_unmap(struct rind_sg_map *m, bool copy_out);
/* Read-only contiguous view of @len bytes at @skip of @sg. */
int rind_sg_map_ro(struct rind_sg_map *m, struct scatterlist *sg, size_t skip, size_t len);
/* Pointer to [skip, skip+len) of @sg if contiguous there, else NULL. */
u8 *rind_sg_contig(struct scatterlist *sg, size_t skip, size_t len);

/*
 * For building tables of public constants at init (NTT zetas): b^e mod m
 * (m < 2^32) and the @bits-bit reversal of i.  Not constant time.
 */
static inline u64 rind_powmod(u64 b, u64 e, u64 m)
{
	u64 r = 1;

	b %= m;
	while (e) {
		if (e & 1)
			r = r * b % m;
		b = b * b % m;
		e >>= 1;
	}
	return r;
}

static inline unsigned int rind_bitrev(unsigned int i, unsigned int bits)
{
	unsigned int r = 0, b;

	for (b = 0; b < bits; b++)
		r |= ((i >> b) & 1) << (bits - 1 - b);
	return r;
}

#endif
