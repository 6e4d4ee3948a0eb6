/* SPDX-License-Identifier: MIT */
/*
 * Poly1305 (RFC 8439 section 2.5) as plain functions, the kernel's
 * lib/crypto/poly1305 for rind, and the shash glue shared by every
 * "poly1305" implementation (algs/poly1305.c, arch/x86/poly1305-*.c).
 * Internal to the library.
 *
 * The accumulator is kept in radix 2^64 (h[0], h[1] full words, h[2] a
 * few bits over 2^128) between calls whatever the implementation; an
 * implementation with another internal radix converts on entry and exit
 * of its blocks function, so states are interchangeable.
 *
 * The "poly1305" shash takes its 32-byte one-time key (r || s) in one of
 * two ways:
 *   - crypto_shash_setkey(tfm, key, 32); every digest then uses that key.
 *     Meant for tests and one-off MACs: a Poly1305 key must never
 *     authenticate two messages.  setkey(tfm, NULL, 0) removes the key
 *     (back to the form below); any other length is -EINVAL.
 *   - on a tfm without a key (the algorithm is CRYPTO_ALG_OPTIONAL_KEY), the
 *     first 32 bytes passed to update are the key, as in the kernel's
 *     original poly1305 shash; final without them is -ENOKEY.  This is
 *     how the rfc7539 template keys each request, so one tfm serves many
 *     threads.
 */
#ifndef _RIND_ALGS_POLY1305_H
#define _RIND_ALGS_POLY1305_H

#include <rind/types.h>
#include <rind/internal/hash.h>
#include <rind/internal/util.h>

typedef unsigned __int128 poly1305_u128;

#define POLY1305_KEY_SIZE	32
#define POLY1305_BLOCK_SIZE	16
#define POLY1305_DIGEST_SIZE	16

struct poly1305_state {
	u64 h[3];		/* accumulator, radix 2^64 */
	u64 r[2];		/* clamped r */
	u64 s[2];		/* s, added at the end */
	u32 arch_ready;		/* arch[] holds this r's precomputation */
	u32 reserved;
	u64 arch[28];		/* implementation-private: powers of r */
};

/*
 * Process @nblocks full 16-byte blocks of @src, each with 2^128 added
 * (padbit 1) or not (padbit 0, the padded final block of a raw MAC).
 */
typedef void (*poly1305_blocks_fn)(struct poly1305_state *st, const u8 *src, size_t nblocks,
				   u32 padbit);

/*
 * h = (h + m) * r mod 2^130 - 5, per block.  With r = r0 + 2^64 r1 and r1
 * a multiple of 4, 2^128 r1 = 2^130 (r1 / 4) == 5 r1 / 4 = s1 (mod p), so
 *   d0 = h0 r0 + h1 s1
 *   d1 = h0 r1 + h1 r0 + h2 s1
 *   d2 = h2 r0
 * and the bits of d2 from 2^130 up fold back in times 5.  h2 stays below
 * 8, every product below 2^126.  Inline so that arch code can compile it
 * with its own target flags (MULX).
 */
static inline __attribute__((always_inline)) void
poly1305_blocks_core(struct poly1305_state *st, const u8 *src, size_t nblocks, u32 padbit)
{
	const u64 r0 = st->r[0], r1 = st->r[1];
	const u64 s1 = r1 + (r1 >> 2);
	u64 h0 = st->h[0], h1 = st->h[1], h2 = st->h[2];
	poly1305_u128 d0, d1, t;
	u64 d2, c;

	while (nblocks--) {
		t = (poly1305_u128)h0 + get_unaligned_le64(src);
		h0 = (u64)t;
		t = (poly1305_u128)h1 + get_unaligned_le64(src + 8) + (u64)(t >> 64);
		h1 = (u64)t;
		h2 += (u64)(t >> 64) + padbit;

		d0 = (poly1305_u128)h0 * r0 + (poly1305_u128)h1 * s1;
		d1 = (poly1305_u128)h0 * r1 + (poly1305_u128)h1 * r0 + (poly1305_u128)h2 * s1;
		d2 = h2 * r0;

		d1 += (u64)(d0 >> 64);
		d2 += (u64)(d1 >> 64);
		h0 = (u64)d0;
		h1 = (u64)d1;

		c = (d2 & ~3ull) + (d2 >> 2);	/* 5 * (d2 >> 2) */
		h2 = d2 & 3;
		t = (poly1305_u128)h0 + c;
		h0 = (u64)t;
		t = (poly1305_u128)h1 + (u64)(t >> 64);
		h1 = (u64)t;
		h2 += (u64)(t >> 64);

		src += POLY1305_BLOCK_SIZE;
	}
	st->h[0] = h0;
	st->h[1] = h1;
	st->h[2] = h2;
}

/* A MAC in progress: state plus a partial block. */
struct poly1305_ctx {
	struct poly1305_state st;
	u8 buf[POLY1305_BLOCK_SIZE];
	unsigned int buflen;
};

/* Load and clamp a one-time key, zero the accumulator. */
void rind_poly1305_init_state(struct poly1305_state *st, const u8 key[POLY1305_KEY_SIZE]);
/* Final reduction mod 2^130 - 5, add s, write the tag. */
void rind_poly1305_emit(const struct poly1305_state *st, u8 mac[POLY1305_DIGEST_SIZE]);
void rind_poly1305_blocks_generic(struct poly1305_state *st, const u8 *src, size_t nblocks,
				  u32 padbit);

void rind_poly1305_init(struct poly1305_ctx *ctx, const u8 key[POLY1305_KEY_SIZE]);
void rind_poly1305_update(struct poly1305_ctx *ctx, const u8 *src, size_t len,
			  poly1305_blocks_fn blocks);
/* Pads a partial last block with 0x01 then zeros (RFC 8439); wipes @ctx. */
void rind_poly1305_final(struct poly1305_ctx *ctx, u8 mac[POLY1305_DIGEST_SIZE],
			 poly1305_blocks_fn blocks);
/* One-shot over the generic code. */
void rind_poly1305(u8 mac[POLY1305_DIGEST_SIZE], const u8 *msg, size_t len,
		   const u8 key[POLY1305_KEY_SIZE]);

/*
 * AEAD helper (RFC 8439 section 2.8): absorb @len bytes then zero padding
 * up to a multiple of 16, as full blocks (padbit 1).
 */
void rind_poly1305_padded(struct poly1305_state *st, const u8 *src, size_t len,
			  poly1305_blocks_fn blocks);

/*
 * Best available blocks function (that of the registry's best "poly1305"
 * when it is one of rind's), resolved at first use.
 */
poly1305_blocks_fn rind_poly1305_best_blocks(void);

/*
 * Shash glue.  Every rind poly1305 implementation is a struct poly1305_alg
 * whose shash_alg uses the rind_poly1305_shash_* entries below; they run
 * @blocks.
 */
struct poly1305_alg {
	poly1305_blocks_fn blocks;
	struct shash_alg alg;
};

struct poly1305_desc_ctx {
	struct poly1305_ctx ctx;
	unsigned int keylen;		/* key bytes received (32 = keyed) */
	u8 kbuf[POLY1305_KEY_SIZE];	/* key arriving through update */
};

struct poly1305_tfm_ctx {
	u8 key[POLY1305_KEY_SIZE];
	bool keyed;
};

int rind_poly1305_shash_setkey(struct crypto_shash *tfm, const u8 *key, unsigned int keylen);
int rind_poly1305_shash_init(struct shash_desc *desc);
int rind_poly1305_shash_update(struct shash_desc *desc, const u8 *src, unsigned int len);
int rind_poly1305_shash_final(struct shash_desc *desc, u8 *out);

/* If @alg is one of rind's poly1305 shashes, its blocks function; else NULL. */
poly1305_blocks_fn rind_poly1305_alg_blocks(struct crypto_alg *alg);

#define RIND_POLY1305_ALG(_drv, _prio, _module, _blocks)			\
	{									\
		.blocks = (_blocks),						\
		.alg = {							\
			.init = rind_poly1305_shash_init,			\
			.update = rind_poly1305_shash_update,			\
			.final = rind_poly1305_shash_final,			\
			.setkey = rind_poly1305_shash_setkey,			\
			.descsize = sizeof(struct poly1305_desc_ctx),		\
			.digestsize = POLY1305_DIGEST_SIZE,			\
			.base = {						\
				.cra_name = "poly1305",				\
				.cra_driver_name = (_drv),			\
				.cra_priority = (_prio),			\
				.cra_flags = CRYPTO_ALG_OPTIONAL_KEY,		\
				.cra_blocksize = POLY1305_BLOCK_SIZE,		\
				.cra_ctxsize = sizeof(struct poly1305_tfm_ctx),	\
				.cra_module = (_module),			\
			},							\
		},								\
	}

#endif /* _RIND_ALGS_POLY1305_H */
