/* SPDX-License-Identifier: MIT */
/*
 * The signing loop's y streams (expand_mask_loop) and c-tilde (ctilde)
 * over a pool of Keccak sponges run side by side, written once for
 * mldsa-avx2.c (four lanes, keccak-x4.h) and mldsa-avx512.c (eight,
 * keccak-x8.h).  Included in the middle of the driver, after its
 * BitUnpack of y, with these defined first:
 *
 *   MLDSA_POOL_LANES             sponges side by side (4 or 8);
 *   MLDSA_POOL_SLOTS             finished-or-running streams held at most,
 *                                as many as the mask cache has room for;
 *   MLDSA_POOL_STATE             the lanes' Keccak state type;
 *   MLDSA_POOL_ALIGN             the alignment its vector loads want;
 *   MLDSA_POOL_TARGET            the target attribute of the code that
 *                                touches vectors;
 *   MLDSA_POOL_PERMUTE(st)       Keccak-f[1600] on every lane;
 *   MLDSA_POOL_STORE16(st, o)    words 0-15 of lane l's state to o[l]
 *                                (128 bytes each, unaligned), the driver's
 *                                transposition; it wipes its own copies;
 *   MLDSA_POOL_UNPACK_Y(y, in, bits)  BitUnpack of y from a stream.
 *
 * Every lane carries a y stream of its own (SHAKE256(rho'' || kappa),
 * MLDSA_Y_BLOCKS blocks), the counters started in order, and the pool
 * lives across the attempts in the signer's mask cache: a lane whose
 * stream has its blocks hands y over to a slot of the cache and starts
 * the next counter before the next permutation, so no lane idles.
 * c-tilde = H(mu || w1) borrows lane 0 (its stream set aside and put
 * back after), the other lanes going on meanwhile: c-tilde's seven
 * permutations (nine for ML-DSA-87) all give y blocks in the others,
 * where a pass of whole streams used five of them.  On four lanes an
 * attempt takes about 8.3 four-way permutations for 25 + 7 blocks,
 * against 9.5 for passes of whole streams; on eight, c-tilde's
 * sequential blocks set the pace (mldsa-avx512.c's header).
 *
 * What runs depends only on the counters and on how many streams are
 * waiting (public: the attempt's number); the lanes' contents (secret y
 * streams, public w1) steer nothing.  A stream is started only while
 * fewer than MLDSA_POOL_SLOTS are outstanding, so every finished one has
 * a slot; a counter wanted and not yet started finds none outstanding
 * (they are all below it, consumed), so the loop always makes progress.
 * The pool is the mask cache, which the caller wipes after the loop.
 *
 * Not installed; only the two drivers include it, each once.
 */
#ifndef _RIND_X86_MLDSA_POOL_H
#define _RIND_X86_MLDSA_POOL_H

#if !defined(MLDSA_POOL_LANES) || !defined(MLDSA_POOL_SLOTS) || !defined(MLDSA_POOL_STATE) || \
	!defined(MLDSA_POOL_ALIGN) || !defined(MLDSA_POOL_TARGET) ||			\
	!defined(MLDSA_POOL_PERMUTE) || !defined(MLDSA_POOL_STORE16) ||			\
	!defined(MLDSA_POOL_UNPACK_Y)
#error "mldsa-pool.h: the driver defines its lanes and hooks first"
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <rind/internal/util.h>
#include <crypto/keccak.h>
#include <crypto/mldsa.h>
#include "mldsa-x86.h"

#define POOL_ALL	((1u << MLDSA_POOL_LANES) - 1)	/* every lane on y */
#define POOL_BUT0	(POOL_ALL & ~1u)		/* lane 0 on c-tilde */
#define POOL_IDLE	0xffu	/* a lane's nb: no stream */
#define POOL_FREE	0u
#define POOL_BUSY	1u	/* a lane is writing the slot */
#define POOL_DONE	2u	/* all of the stream's blocks in */
#define POOL_CT_MAXBLK	10	/* (64 + 8 * 128 + 1) / 136 rounded up: 9 */

struct ypool {
	union {
		MLDSA_POOL_STATE st;
		u64 w[25][MLDSA_POOL_LANES];	/* w[i][l]: word i of state l */
	} s;
	u64 saved[25];			/* lane 0's stream while c-tilde has the lane */
	u8 raw[MLDSA_POOL_SLOTS][MLDSA_Y_BLOCKS * SHAKE256_RATE];	/* the streams' bytes */
	u8 junk[SHAKE256_RATE];		/* where the blocks of lanes not carrying y go */
	u32 slot_kap[MLDSA_POOL_SLOTS], slot_st[MLDSA_POOL_SLOTS];
	/* a lane's slot, its blocks so far (POOL_IDLE: none) */
	u32 lane_slot[MLDSA_POOL_LANES], nb[MLDSA_POOL_LANES];
	u32 next;			/* the next counter to start */
	u32 outstanding;		/* slots not free */
	u8 rhopp[64];
};

/*
 * The cache is 32-byte aligned; a state whose loads want more (__m512i:
 * 64) skips up to the difference.  MLDSA_POOL_ALIGN is the driver's
 * word rather than _Alignof: gcc caps a vector type's alignment at what
 * the file's -m flags allow (16 without -mavx512f), and the target
 * attributes do not change that.  Both are constants, so a pool that
 * wants 32 costs no rounding.
 */
#define POOL_CACHE_ALIGN	32u
#define POOL_SKIP	(MLDSA_POOL_ALIGN > POOL_CACHE_ALIGN ? MLDSA_POOL_ALIGN - POOL_CACHE_ALIGN : 0)

_Static_assert(sizeof(struct ypool) + POOL_SKIP <= sizeof(((struct mldsa_mask_cache *)0)->drv),
	       "the pool fits the mask cache");

static inline struct ypool *pool_of(struct mldsa_mask_cache *c)
{
	const uintptr_t a = MLDSA_POOL_ALIGN;

	if (!POOL_SKIP)
		return (struct ypool *)(void *)c->drv;
	return (struct ypool *)(void *)(((uintptr_t)c->drv + a - 1) & ~(a - 1));
}

/* lane @l to SHAKE256(rho'' || next) with its one block absorbed, into a free slot */
static void lane_start(struct ypool *pl, unsigned int l)
{
	u16 v = (u16)pl->next;
	unsigned int i, s = 0;

	while (pl->slot_st[s] != POOL_FREE)
		s++;
	for (i = 0; i < 8; i++)
		pl->s.w[i][l] = get_unaligned_le64(pl->rhopp + 8 * i);
	pl->s.w[8][l] = (u64)v | (u64)KECCAK_DS_SHAKE << 16;
	for (i = 9; i < 25; i++)
		pl->s.w[i][l] = 0;
	pl->s.w[SHAKE256_RATE / 8 - 1][l] ^= 0x80ull << 56;
	pl->slot_kap[s] = pl->next++;
	pl->slot_st[s] = POOL_BUSY;
	pl->lane_slot[l] = s;
	pl->nb[l] = 0;
	pl->outstanding++;
}

/*
 * One permutation of the pool, the lanes in @lanes carrying y streams
 * (idle ones started first, while slots allow); each writes its block
 * into its slot (words 0-15 by the driver's transposition, word 16
 * alone), and the last block finishes the slot.
 */
static MLDSA_POOL_TARGET void pool_step(struct ypool *pl, unsigned int lanes)
{
	u8 *o[MLDSA_POOL_LANES];
	unsigned int l;

	for (l = 0; l < MLDSA_POOL_LANES; l++) {
		if ((lanes >> l & 1) && pl->nb[l] == POOL_IDLE && pl->outstanding < MLDSA_POOL_SLOTS)
			lane_start(pl, l);
		o[l] = (lanes >> l & 1) && pl->nb[l] != POOL_IDLE ?
		       pl->raw[pl->lane_slot[l]] + SHAKE256_RATE * pl->nb[l] : pl->junk;
	}
	MLDSA_POOL_PERMUTE(&pl->s.st);
	MLDSA_POOL_STORE16(&pl->s.st, o);
	for (l = 0; l < MLDSA_POOL_LANES; l++)
		put_unaligned_le64(pl->s.w[16][l], o[l] + 8 * 16);
	for (l = 0; l < MLDSA_POOL_LANES; l++) {
		if (!(lanes >> l & 1) || pl->nb[l] == POOL_IDLE)
			continue;
		if (++pl->nb[l] == MLDSA_Y_BLOCKS) {
			pl->slot_st[pl->lane_slot[l]] = POOL_DONE;
			pl->nb[l] = POOL_IDLE;
		}
	}
}

static void pool_init(struct ypool *pl, struct mldsa_mask_cache *c, const u8 rhopp[64],
		      unsigned int kappa)
{
	unsigned int l;

	memset(pl, 0, offsetof(struct ypool, raw));
	memset(&pl->slot_kap, 0, sizeof(*pl) - offsetof(struct ypool, slot_kap));
	memcpy(pl->rhopp, rhopp, 64);
	for (l = 0; l < MLDSA_POOL_LANES; l++)
		pl->nb[l] = POOL_IDLE;
	pl->next = kappa;
	c->init = 1;
}

static MLDSA_POOL_TARGET void pool_expand_mask_loop(const struct mldsa_params *p,
						    const u8 rhopp[64], u16 kappa,
						    struct mldsa_poly *y,
						    struct mldsa_mask_cache *cache)
{
	struct ypool *pl = pool_of(cache);
	unsigned int r, s;

	if (!cache->init)
		pool_init(pl, cache, rhopp, kappa);
	for (r = 0; r < p->l; r++) {
		const u32 want = (u32)kappa + r;

		for (;;) {
			for (s = 0; s < MLDSA_POOL_SLOTS; s++)
				if (pl->slot_st[s] == POOL_DONE && pl->slot_kap[s] == want)
					break;
			if (s < MLDSA_POOL_SLOTS)
				break;
			pool_step(pl, POOL_ALL);
		}
		MLDSA_POOL_UNPACK_Y(&y[r], pl->raw[s], p->gamma1_bits);
		pl->slot_st[s] = POOL_FREE;
		pl->outstanding--;
	}
}

/* c-tilde and SampleInBall's first block in lane 0, y in the others */
static MLDSA_POOL_TARGET void pool_ctilde(const struct mldsa_params *p, u8 *ctilde, u8 *ball,
					  const u8 mu[MLDSA_MU_BYTES], const u8 *w1,
					  size_t w1len, const u8 rhopp[64], u16 kappa,
					  struct mldsa_mask_cache *cache)
{
	const size_t len = MLDSA_MU_BYTES + w1len, nblk = len / SHAKE256_RATE + 1;
	struct ypool *pl = pool_of(cache);
	bool held = false;
	unsigned int i;
	size_t b;

	if (nblk > POOL_CT_MAXBLK || !cache->init || w1len % 8) {
		rind_mldsa_ctilde(p, ctilde, ball, mu, w1, w1len, rhopp, kappa, cache);
		return;
	}
	/* lane 0's stream aside, the lane to the empty state */
	if (pl->nb[0] != POOL_IDLE) {
		for (i = 0; i < 25; i++)
			pl->saved[i] = pl->s.w[i][0];
		held = true;
	}
	for (i = 0; i < 25; i++)
		pl->s.w[i][0] = 0;
	/*
	 * mu || w1 || the padding, a word at a time straight from the inputs:
	 * mu and w1 are whole words, so no word straddles them, and the
	 * domain byte starts the word after the last.
	 */
	for (b = 0; b < nblk; b++) {
		for (i = 0; i < SHAKE256_RATE / 8; i++) {
			size_t off = SHAKE256_RATE * b + 8 * i;
			u64 v = off < MLDSA_MU_BYTES ? get_unaligned_le64(mu + off) :
				off < len ? get_unaligned_le64(w1 + off - MLDSA_MU_BYTES) :
				off == len ? KECCAK_DS_SHAKE : 0;

			pl->s.w[i][0] ^= v;
		}
		if (b == nblk - 1)
			pl->s.w[SHAKE256_RATE / 8 - 1][0] ^= 0x80ull << 56;
		pool_step(pl, POOL_BUT0);
	}
	for (i = 0; i < p->ctilde_bytes / 8; i++)
		put_unaligned_le64(pl->s.w[i][0], ctilde + 8 * i);
	/* H(c-tilde)'s first block in lane 0 with one more step of the others */
	for (i = p->ctilde_bytes / 8; i < 25; i++)
		pl->s.w[i][0] = 0;
	pl->s.w[p->ctilde_bytes / 8][0] = KECCAK_DS_SHAKE;
	pl->s.w[SHAKE256_RATE / 8 - 1][0] ^= 0x80ull << 56;
	pool_step(pl, POOL_BUT0);
	for (i = 0; i < SHAKE256_RATE / 8; i++)
		put_unaligned_le64(pl->s.w[i][0], ball + 8 * i);
	for (i = 0; i < 25; i++)
		pl->s.w[i][0] = held ? pl->saved[i] : 0;
}

#endif /* _RIND_X86_MLDSA_POOL_H */
