// SPDX-License-Identifier: MIT
/*
 * ChaCha20-Poly1305 (RFC 8439 section 2.8) and XChaCha20-Poly1305 as one
 * AEAD driver for x86-64 with AVX2, BMI2 and ADX, "stitched": every eight
 * ChaCha20 blocks (rind_cp8_avx2 of chacha20poly1305-avx2-asm.S, vector
 * pipes) run the radix-2^64 MULX Poly1305 (integer pipes) between their
 * quarter rounds, four or eight blocks a double round, so the two halves
 * of the construction overlap instead of taking a pass each over the data.
 *
 *   seal: the MAC of each 512-byte chunk's ciphertext runs during the
 *         next chunk's ChaCha20 (it reads dst behind the writes);
 *   open: each chunk's ciphertext is MACed during its own ChaCha20 (the
 *         rounds read it before the XOR overwrites it in place).
 *
 * Texts of CP_LONG_MIN bytes and more, where the CPU has AVX-512 (F, VL,
 * BW) and IFMA, are not stitched: chacha-avx512.c's ChaCha20 (32 blocks a
 * call) and then poly1305-avx512ifma.c's Poly1305 over the ciphertext
 * (rind_chachapoly_seal/open), one pass each, are faster there than the
 * eight-block stitched core.  Measured on Zen 4 (AMD EPYC, 2026-12-03,
 * make bench rows against the rfc7539 instance over those two drivers,
 * noisy host, medians of 7 rounds): 16 KiB 4.6-5.1 against 5.3-6.9 us
 * stitched (OpenSSL 4.8-5.1 us), 8 KiB 2.66-2.82 against 3.33-3.84,
 * 4 KiB 1.51-1.66 against 1.89-2.12, 2 KiB about level, 1350 B 981 against
 * 675 ns.  On Zen 5 the stitched core was 0.68x OpenSSL at 16 KiB
 * (bench/PEERS.md); its full-width zmm pipes favour the AVX-512 pair more.
 *
 * The first chunk is the Poly1305 key block and 448 bytes of data, through
 * a stack copy; the last partial chunk runs eight blocks on a stack copy.
 * What is left of the ciphertext after the last call (seal: the last
 * partial chunk, padded in its stack copy and followed by the lengths:
 * one call; open: a partial block) goes through the scalar blocks.
 * Messages shorter than CP_STITCH_MIN with at most CP_SMALL_AD bytes of AD
 * take cp_small: the raw keystream of up to four blocks (two row pairs),
 * XORed once where it is wanted, and every Poly1305 block laid out in one
 * buffer for one call; longer AD goes to rind_chachapoly_seal/open.
 * Requests whose source and destination each hold their bytes in the
 * first segment (sg_init_one, in place or not) skip rind_sg_map.
 * Tried and left out (2026-12-02): seal's tail as two interleaved MULX
 * chains (first half from h, second from zero, h r^k + g with r^k in
 * radix 2^44).  On Zen 3 a block's six multiplications (four MULX, which
 * issue every other cycle, and two IMUL) bound the chain at ~10 cycles a
 * block even with two chains in flight: 10.8 against 13.1 for 32 blocks
 * alone, and raising r^k and the final product cost more than that (1350
 * bytes: 2000 cycles against 1850).
 * Open computes the tag over the whole ciphertext before any plaintext
 * reaches dst[] beyond what it also zeroes on mismatch (-EBADMSG, dst
 * zeroed), compares it in constant time and declassifies only the verdict.
 * No branch or index depends on key, data or tag (only on lengths).
 *
 * "rfc7539-chacha20-poly1305-avx2" / "rfc7539-xchacha20-poly1305-avx2",
 * priority 600 (above the rfc7539 template over the AVX2 halves, 450).
 * Requires: AVX2, BMI2, ADX; AVX512F, AVX512VL, AVX512BW and AVX512IFMA
 * are used for the long texts where present.
 *
 * Measured on an AMD EPYC (Zen 3, a loaded 2-vCPU KVM guest), 2026-12-01,
 * bench/probes/chachapoly-layout.c: rdtsc minima of 201-501 calls, 13 bytes
 * of AD, interleaved call by call in one process with OpenSSL 3.0's and
 * aws-lc 5.5's EVP_CIPHER (and aws-lc's EVP_AEAD_CTX):
 *   seal 16 KiB  16.0-16.4k cycles (0.98-1.0 c/B) in the host's quiet
 *                phases, 18.4-20.0k when it loads the core (OpenSSL
 *                20.5-22.4k in both; aws-lc EVP 1.6x rind's, EVP_AEAD
 *                1.0-1.14x);
 *   1350 B       seal 2550-2820, open 2650-2960 (aws-lc EVP 1.5-1.6x,
 *                EVP_AEAD 0.82-0.92x);  32 B 540-810 (EVP 1.7-1.9x,
 *                EVP_AEAD 0.61-0.69x: the 2-block ChaCha20 latency and
 *                the request/scatterlist layers).
 * The C version of the core (GCC, every state vector through the stack
 * each quarter round) took 18.0k in the quiet phases and 26-28k in the
 * loaded ones: 1.5x, against OpenSSL's 1.06x and this core's 1.15-1.2x.
 */
#include <rind/internal/aead.h>
#include <rind/internal/util.h>
#include <crypto/chacha.h>
#include <crypto/poly1305.h>
#include "chacha-avx2.h"
#include "chacha-avx512.h"
#include "poly1305-x86.h"

/* everything here: VEX encodings only (scripts/check-vex.sh), run only where registered */
#define CP_TGT __attribute__((target("avx2,bmi2,adx")))

#define CP_CHUNK	512
#define CP_FIRST	(CP_CHUNK - CHACHA_BLOCK_SIZE)	/* data bytes of the first chunk */
#define CP_STITCH_MIN	512
#define CP_LONG_MIN	4096

/* The CPU has what the long path's two drivers need (cp_mod_init). */
static bool cp_long_avx512;


struct cp_ctx {
	u32 key[8];
};

/* chacha20poly1305-avx2-asm.S: @nb Poly1305 blocks, padbit 1, the chunks' MULX chain */
void rind_cp_blocks_mulx(struct poly1305_state *ps, const u8 *m, size_t nb);

static CP_TGT void cp_blocks(struct poly1305_state *st, const u8 *src, size_t nblocks,
			     u32 padbit)
{
	/* long runs (a long AD) go across vector lanes; every caller pads with padbit 1 */
	if (nblocks >= AVX2_MIN_BLOCKS || padbit != 1)
		rind_poly1305_blocks_avx2(st, src, nblocks, padbit);
	else
		rind_cp_blocks_mulx(st, src, nblocks);
}

static CP_TGT void cp_lengths(struct poly1305_state *st, size_t adlen, size_t len)
{
	u8 b[POLY1305_BLOCK_SIZE];

	put_unaligned_le64(adlen, b);
	put_unaligned_le64(len, b + 8);
	cp_blocks(st, b, 1, 1);
}

/*
 * Copy @n bytes between disjoint buffers, 32 at a time (the last 32 of a
 * length past 32 overlapping what was copied).  GCC expanded the memcpy
 * calls of cp_crypt (and a plain loop like this one) as rep movsq, whose
 * start-up cost (four a call) took a tenth of a 1350-byte seal's time.
 */
static inline __attribute__((always_inline, target("avx2"))) void
cp_copy(u8 *d, const u8 *s, size_t n)
{
	__m256i v;
	size_t i;

	if (n < 32) {
		for (; n >= 8; n -= 8, d += 8, s += 8)
			put_unaligned_le64(get_unaligned_le64(s), d);
		for (; n; n--)
			*d++ = *s++;
		return;
	}
	for (i = 0; i + 32 < n; i += 32) {
		v = _mm256_loadu_si256((const __m256i *)(s + i));
		/* opaque to GCC, which would turn the loop back into a memcpy */
		__asm__("" : "+x"(v));
		_mm256_storeu_si256((__m256i *)(d + i), v);
	}
	_mm256_storeu_si256((__m256i *)(d + n - 32), _mm256_loadu_si256((const __m256i *)(s + n - 32)));
}

/* 512 bytes of keystream from state[12] (advanced), MACing the @nb blocks at @m on the way */
static CP_TGT void cp_chunk(u32 state[16], u8 *dst, const u8 *src, struct poly1305_state *ps,
			    const u8 *m, size_t nb)
{
	rind_cp8_avx2(state, dst, src, ps, m, nb);
	state[12] += 8;
}

/*
 * Seal (@enc) or open @len >= CP_FIRST bytes; the tag goes to @tag.  For
 * open, src and dst are equal or disjoint.
 */
static CP_TGT void cp_crypt(u32 state[16], u8 *dst, const u8 *src, size_t len, const u8 *ad,
			    size_t adlen, u8 tag[CHACHAPOLY_TAG_SIZE], bool enc)
{
	u8 first[CP_CHUNK] __attribute__((aligned(32)));
	/* the last chunk, then (seal) its padding and the lengths block */
	u8 last[CP_CHUNK + 2 * POLY1305_BLOCK_SIZE] __attribute__((aligned(32)));
	/* ciphertext: dst when sealing, src (read before overwritten) when opening */
	const u8 *ct = enc ? dst : src;
	struct poly1305_state ps;
	size_t off = CP_FIRST, macked = 0, nb, rem;
	/*
	 * Open out of place (src untouched by the writes): the MAC may lag
	 * behind the keystream, so its blocks are spread evenly over the calls
	 * (1350 bytes: 42 and 42 instead of 60 and 24, the 60 a latency chain
	 * longer than the call's rounds).  In place it must keep ahead of them.
	 */
	bool spread = !enc && ((uintptr_t)dst + len <= (uintptr_t)src ||
			       (uintptr_t)src + len <= (uintptr_t)dst);
	size_t calls = (len - CP_FIRST + CP_CHUNK - 1) / CP_CHUNK, done = 0;
	size_t full = len / POLY1305_BLOCK_SIZE;

	/* block 0: the Poly1305 key; blocks 1..7: the first 448 bytes */
	memset(first, 0, CHACHA_BLOCK_SIZE);
	cp_copy(first + CHACHA_BLOCK_SIZE, src, CP_FIRST);
	cp_chunk(state, first, first, NULL, NULL, 0);
	rind_poly1305_init_state(&ps, first);
	rind_poly1305_padded(&ps, ad, adlen, cp_blocks);
	/* open writes the first plaintext once its ciphertext is MACed */
	if (enc)
		cp_copy(dst, first + CHACHA_BLOCK_SIZE, CP_FIRST);

	for (; len - off >= CP_CHUNK; off += CP_CHUNK) {
		/* seal: the blocks written so far (28, then 32); open: up to the
		 * end of this chunk (60, then 32) */
		nb = ((enc ? off : off + CP_CHUNK) - macked) / POLY1305_BLOCK_SIZE;
		if (spread)
			nb = (full - macked / POLY1305_BLOCK_SIZE + calls - done - 1) /
			     (calls - done);
		done++;
		cp_chunk(state, dst + off, src + off, &ps, ct + macked, nb);
		macked += nb * POLY1305_BLOCK_SIZE;
		if (!enc && off == CP_FIRST)
			cp_copy(dst, first + CHACHA_BLOCK_SIZE, CP_FIRST);
	}
	rem = len - off;
	if (rem) {
		/* open: every full block left (at most 59; spread: its share) */
		cp_copy(last, src + off, rem);
		nb = ((enc ? off : len) - macked) / POLY1305_BLOCK_SIZE;
		cp_chunk(state, last, last, &ps, ct + macked, nb);
		macked += nb * POLY1305_BLOCK_SIZE;
		if (enc)
			cp_copy(dst + off, last, rem);
	}
	if (enc && rem) {
		/* what is left is the last chunk's ciphertext, in last[]: pad it and
		 * append the lengths there, one call for all of it */
		nb = (rem + POLY1305_BLOCK_SIZE - 1) / POLY1305_BLOCK_SIZE;
		memset(last + rem, 0, nb * POLY1305_BLOCK_SIZE - rem);
		put_unaligned_le64(adlen, last + nb * POLY1305_BLOCK_SIZE);
		put_unaligned_le64(len, last + nb * POLY1305_BLOCK_SIZE + 8);
		cp_blocks(&ps, last, nb + 1, 1);
	} else {
		/* what is left: less than a chunk, read before open's last writes */
		rind_poly1305_padded(&ps, ct + macked, len - macked, cp_blocks);
		if (!enc) {
			if (off == CP_FIRST)
				cp_copy(dst, first + CHACHA_BLOCK_SIZE, CP_FIRST);
			if (rem)
				cp_copy(dst + off, last, rem);
		}
		cp_lengths(&ps, adlen, len);
	}
	rind_poly1305_emit(&ps, tag);
	memzero_explicit(&ps, sizeof(ps));
	memzero_explicit(first, sizeof(first));
	memzero_explicit(last, sizeof(last));
	_mm256_zeroupper();
}

static CP_TGT bool cp_tag_neq(const u8 *a, const u8 *b)
{
	/* 16 bytes as two words, no early exit; then 0 or 1 without a branch */
	u64 x = (get_unaligned_le64(a) ^ get_unaligned_le64(b)) |
		(get_unaligned_le64(a + 8) ^ get_unaligned_le64(b + 8));
	int ne = (int)((x | (0 - x)) >> 63);

	/* the verdict is public (the request fails or not); the tags are not */
	rind_declassify(&ne, sizeof(ne));
	return ne;
}

/*
 * Raw keystream of blocks state[12] .. state[12] + 2 * @pairs - 1 (@pairs 1
 * or 2) into @ks, row layout (one ymm per row of two blocks, the diagonal
 * rounds by in-lane word rotation, CP_ROT), as chacha-avx2.c's short paths but
 * stored as is: the caller XORs it once, where it wants the result,
 * instead of a copy in, an XOR in place and a copy out.  (Three pairs
 * side by side do not fit the 16 ymm registers: GCC spilled 20 vectors a
 * double round.)
 */
#define CP_QR(a, b, c, d) do {							\
		a = _mm256_add_epi32(a, b); d = rot16(_mm256_xor_si256(d, a));	\
		c = _mm256_add_epi32(c, d); b = rot12(_mm256_xor_si256(b, c));	\
		a = _mm256_add_epi32(a, b); d = rot8(_mm256_xor_si256(d, a));	\
		c = _mm256_add_epi32(c, d); b = rot7(_mm256_xor_si256(b, c));	\
	} while (0)
/*
 * Into the diagonals and back by rotating rows a, c and d, not b: b is the
 * last row a quarter round computes and the first the next one needs, so
 * a word rotation of b sat on the latency chain (one cycle a half round);
 * the diagonal (a[j], b[j + 1], c[j + 2], d[j + 3]) is then in lane j + 1.
 */
#define CP_ROT(x, y, z, a, c, d) do {						\
		a = _mm256_shuffle_epi32(a, x);					\
		c = _mm256_shuffle_epi32(c, y);					\
		d = _mm256_shuffle_epi32(d, z);					\
	} while (0)

static inline __attribute__((always_inline, target("avx2"))) void
cp_store_pair(u8 *ks, __m256i a, __m256i b, __m256i c, __m256i d)
{
	_mm256_store_si256((__m256i *)ks, _mm256_permute2x128_si256(a, b, 0x20));
	_mm256_store_si256((__m256i *)(ks + 32), _mm256_permute2x128_si256(c, d, 0x20));
	_mm256_store_si256((__m256i *)(ks + 64), _mm256_permute2x128_si256(a, b, 0x31));
	_mm256_store_si256((__m256i *)(ks + 96), _mm256_permute2x128_si256(c, d, 0x31));
}

/* the four rows of block state[12] (low lane) and state[12] + 1 (high lane) */
static inline __attribute__((always_inline, target("avx2"))) void
cp_rows(const u32 state[16], __m256i r[4])
{
	for (int i = 0; i < 3; i++)
		r[i] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)&state[4 * i]));
	r[3] = _mm256_add_epi32(
		_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)&state[12])),
		_mm256_setr_epi32(0, 0, 0, 0, 1, 0, 0, 0));
}

static inline __attribute__((always_inline, target("avx2"))) void
cp_keystream(const u32 state[16], u8 *ks, const int pairs)
{
	const __m256i two = _mm256_setr_epi32(2, 0, 0, 0, 2, 0, 0, 0);
	__m256i r[4], a0, b0, c0, d0, a1, b1, c1, d1;
	int i;

	cp_rows(state, r);
	a0 = a1 = r[0];
	b0 = b1 = r[1];
	c0 = c1 = r[2];
	d0 = r[3];
	d1 = _mm256_add_epi32(d0, two);
	/* the pairs side by side: their latency chains overlap */
	for (i = 0; i < 10; i++) {
		CP_QR(a0, b0, c0, d0);
		if (pairs >= 2)
			CP_QR(a1, b1, c1, d1);
		CP_ROT(0x93, 0x39, 0x4e, a0, c0, d0);
		if (pairs >= 2)
			CP_ROT(0x93, 0x39, 0x4e, a1, c1, d1);
		CP_QR(a0, b0, c0, d0);
		if (pairs >= 2)
			CP_QR(a1, b1, c1, d1);
		CP_ROT(0x39, 0x93, 0x4e, a0, c0, d0);
		if (pairs >= 2)
			CP_ROT(0x39, 0x93, 0x4e, a1, c1, d1);
	}
	/*
	 * The input rows again for the feed-forward, loaded anew (the barrier
	 * keeps the compiler from holding the first load through the rounds,
	 * where the registers are all taken: scripts/check-loop-spills.sh).
	 */
	__asm__ volatile("" ::: "memory");
	cp_rows(state, r);
	cp_store_pair(ks, _mm256_add_epi32(a0, r[0]), _mm256_add_epi32(b0, r[1]),
		      _mm256_add_epi32(c0, r[2]), _mm256_add_epi32(d0, r[3]));
	if (pairs >= 2) {
		r[3] = _mm256_add_epi32(r[3], two);
		cp_store_pair(ks + 128, _mm256_add_epi32(a1, r[0]), _mm256_add_epi32(b1, r[1]),
			      _mm256_add_epi32(c1, r[2]), _mm256_add_epi32(d1, r[3]));
	}
}

/* one function per width, out of line: the rounds keep their registers (no spills) */
static __attribute__((noinline, target("avx2"))) void cp_keystream2(const u32 state[16], u8 *ks)
{
	cp_keystream(state, ks, 1);
}

static __attribute__((noinline, target("avx2"))) void cp_keystream4(const u32 state[16], u8 *ks)
{
	cp_keystream(state, ks, 2);
}

/* dst = a ^ b, @n bytes: 32 at a time, then 8, then single bytes */
static inline __attribute__((always_inline, target("avx2"))) void
cp_xor(u8 *dst, const u8 *x, const u8 *y, size_t n)
{
	for (; n >= 32; n -= 32, dst += 32, x += 32, y += 32)
		_mm256_storeu_si256((__m256i *)dst,
				    _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)x),
						     _mm256_loadu_si256((const __m256i *)y)));
	crypto_xor_cpy(dst, x, y, n);
}

/*
 * Short messages (len < CP_STITCH_MIN, AD up to CP_SMALL_AD): the
 * keystream of the key block and the text from one call (up to four
 * blocks: cp_keystream; more: chacha-avx2's crypt over a copy), then every
 * Poly1305 block (AD, pad, ciphertext, pad, lengths) laid out in one
 * buffer and absorbed by one call, instead of a call per piece.  Seal
 * XORs the text into that buffer and copies the ciphertext out; open
 * copies the ciphertext in, and XORs src into dst only after the
 * constant-time tag check (dst zeroed on mismatch).  The pads are zeroed
 * by fixed 16-byte stores ahead of the copies, not by variable memsets.
 */
#define CP_SMALL_AD	64

static inline void cp_zero16(u8 *p)
{
	memset(p, 0, 16);
}

/*
 * Wipe the @n bytes of keystream at @ks: 128 or 256 by straight vector
 * stores (a loop of them GCC turned into rep stosq, a memset call cost
 * more than the stores), else memzero_explicit.  Out of line, through a
 * pointer: stores to the caller's frame inside its code would read, to
 * scripts/check-loop-spills.sh, as spills.
 */
static __attribute__((noinline, target("avx2"))) void cp_wipe(u8 *ks, size_t n)
{
	const __m256i z = _mm256_setzero_si256();

	if (n > 4 * CHACHA_BLOCK_SIZE) {
		memzero_explicit(ks, n);
		return;
	}
	_mm256_storeu_si256((__m256i *)ks, z);
	_mm256_storeu_si256((__m256i *)(ks + 32), z);
	_mm256_storeu_si256((__m256i *)(ks + 64), z);
	_mm256_storeu_si256((__m256i *)(ks + 96), z);
	if (n > 2 * CHACHA_BLOCK_SIZE) {
		_mm256_storeu_si256((__m256i *)(ks + 128), z);
		_mm256_storeu_si256((__m256i *)(ks + 160), z);
		_mm256_storeu_si256((__m256i *)(ks + 192), z);
		_mm256_storeu_si256((__m256i *)(ks + 224), z);
	}
	/* as memzero_explicit's: the stores stay */
	__asm__ volatile("" : : "r"(ks) : "memory");
	_mm256_zeroupper();
}

/* seal: @want NULL, the tag to @tag; open: @want the tag received, @tag scratch */
static CP_TGT int cp_small(u32 state[16], u8 *dst, const u8 *src, size_t len, const u8 *ad,
			   size_t adlen, u8 tag[CHACHAPOLY_TAG_SIZE], const u8 *want)
{
	u8 ks[CHACHA_BLOCK_SIZE + CP_STITCH_MIN] __attribute__((aligned(32)));
	/* AD | pad | text | pad | lengths */
	u8 pm[CP_SMALL_AD + CP_STITCH_MIN + POLY1305_BLOCK_SIZE] __attribute__((aligned(32)));
	size_t a16 = (adlen + 15) & ~(size_t)15, t16 = (len + 15) & ~(size_t)15;
	u8 *txt = pm + CP_SMALL_AD, *msg = txt - a16;
	struct poly1305_state ps;
	size_t kn = 4 * CHACHA_BLOCK_SIZE;	/* keystream bytes written, to wipe */
	bool bad = false, xored = false;

	/* the keystream, from block 0 (or, longer, the text XORed with it) */
	if (len <= CHACHA_BLOCK_SIZE) {
		cp_keystream2(state, ks);
		kn = 2 * CHACHA_BLOCK_SIZE;
	} else if (len <= 3 * CHACHA_BLOCK_SIZE) {
		cp_keystream4(state, ks);
	} else {
		memset(ks, 0, CHACHA_BLOCK_SIZE);
		cp_copy(ks + CHACHA_BLOCK_SIZE, src, len);
		rind_chacha20_crypt_avx2(state, ks, ks, CHACHA_BLOCK_SIZE + len);
		kn = CHACHA_BLOCK_SIZE + len;
		xored = true;
	}
	cp_zero16(txt - 16);
	cp_copy(msg, ad, adlen);
	cp_zero16(txt + (len & ~(size_t)15));
	if (want)
		cp_copy(txt, src, len);
	else if (xored)
		cp_copy(txt, ks + CHACHA_BLOCK_SIZE, len);
	else
		cp_xor(txt, src, ks + CHACHA_BLOCK_SIZE, len);
	put_unaligned_le64(adlen, txt + t16);
	put_unaligned_le64(len, txt + t16 + 8);
	rind_poly1305_init_state(&ps, ks);
	cp_blocks(&ps, msg, (a16 + t16) / POLY1305_BLOCK_SIZE + 1, 1);
	rind_poly1305_emit(&ps, tag);
	if (want)
		bad = cp_tag_neq(tag, want);
	if (bad)
		memset(dst, 0, len);
	else if (want && xored)
		cp_copy(dst, ks + CHACHA_BLOCK_SIZE, len);
	else if (want)
		cp_xor(dst, src, ks + CHACHA_BLOCK_SIZE, len);
	else
		cp_copy(dst, txt, len);
	memzero_explicit(&ps, sizeof(ps));
	cp_wipe(ks, kn);
	_mm256_zeroupper();
	return bad ? -EBADMSG : 0;
}

static CP_TGT int cp_seal_buf(u32 state[16], u8 *dst, const u8 *src, size_t len,
			      const u8 *ad, size_t adlen, u8 tag[CHACHAPOLY_TAG_SIZE])
{
	if (len >= CP_LONG_MIN && cp_long_avx512)
		rind_chachapoly_seal(state, rind_chacha20_crypt_avx512, rind_poly1305_blocks_ifma,
				     dst, src, len, ad, adlen, tag);
	else if (len < CP_STITCH_MIN && adlen <= CP_SMALL_AD)
		cp_small(state, dst, src, len, ad, adlen, tag, NULL);
	else if (len < CP_STITCH_MIN)
		rind_chachapoly_seal(state, rind_chacha20_crypt_avx2, cp_blocks, dst, src, len, ad,
				     adlen, tag);
	else
		cp_crypt(state, dst, src, len, ad, adlen, tag, true);
	return 0;
}

static CP_TGT int cp_open_buf(u32 state[16], u8 *dst, const u8 *src, size_t len,
			      const u8 *ad, size_t adlen, const u8 tag[CHACHAPOLY_TAG_SIZE])
{
	u8 mac[CHACHAPOLY_TAG_SIZE];
	bool bad;

	if (len >= CP_LONG_MIN && cp_long_avx512)
		return rind_chachapoly_open(state, rind_chacha20_crypt_avx512,
					    rind_poly1305_blocks_ifma, dst, src, len, ad, adlen, tag);
	if (len < CP_STITCH_MIN && adlen <= CP_SMALL_AD) {
		bad = cp_small(state, dst, src, len, ad, adlen, mac, tag);
		memzero_explicit(mac, sizeof(mac));
		return bad ? -EBADMSG : 0;
	}
	if (len < CP_STITCH_MIN)
		return rind_chachapoly_open(state, rind_chacha20_crypt_avx2, cp_blocks, dst, src,
					    len, ad, adlen, tag);
	cp_crypt(state, dst, src, len, ad, adlen, mac, false);
	bad = cp_tag_neq(mac, tag);
	memzero_explicit(mac, sizeof(mac));
	if (bad) {
		memzero_explicit(dst, len);
		return -EBADMSG;
	}
	return 0;
}

/* ---- aead_alg glue: as the rfc7539 template's direct path ---- */

static CP_TGT void cp_state(struct crypto_aead *tfm, const u8 *nonce, u32 state[16])
{
	const struct cp_ctx *ctx = crypto_aead_ctx(tfm);
	u8 iv[XCHACHA_IV_SIZE];

	if (crypto_aead_ivsize(tfm) == 24) {
		memcpy(iv, nonce, 24);
		put_unaligned_le64(0, iv + 24);
		rind_xchacha_init(state, ctx->key, iv);
	} else {
		put_unaligned_le32(0, iv);
		memcpy(iv + 4, nonce, 12);
		rind_chacha_init(state, ctx->key, iv);
	}
}

static CP_TGT void cp_write_tag(struct scatterlist *sg, size_t off,
				 const u8 tag[CHACHAPOLY_TAG_SIZE])
{
	u8 *p = rind_sg_contig(sg, off, CHACHAPOLY_TAG_SIZE);

	if (p)
		memcpy(p, tag, CHACHAPOLY_TAG_SIZE);
	else
		sg_pcopy_from_buffer(sg, ~0u, tag, CHACHAPOLY_TAG_SIZE, (off_t)off);
}

static CP_TGT int cp_read_tag(struct scatterlist *sg, size_t off, u8 tag[CHACHAPOLY_TAG_SIZE])
{
	u8 *p = rind_sg_contig(sg, off, CHACHAPOLY_TAG_SIZE);

	if (p)
		memcpy(tag, p, CHACHAPOLY_TAG_SIZE);
	else if (sg_pcopy_to_buffer(sg, ~0u, tag, CHACHAPOLY_TAG_SIZE, (off_t)off) !=
		 CHACHAPOLY_TAG_SIZE)
		return -EINVAL;
	return 0;
}

/*
 * The first segment of @sg if it holds @need bytes, else NULL: the same
 * pointer rind_sg_map() would find, without its walks, bounce bookkeeping
 * and the separate tag look-up (the request shape of every caller that
 * passes one buffer: sg_init_one, in place or not).
 */
static inline u8 *cp_seg(struct scatterlist *sg, size_t need)
{
	return sg && sg->length >= need ? sg_virt(sg) : NULL;
}

static CP_TGT int cp_encrypt(struct aead_request *req)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	size_t alen = req->assoclen, n = (size_t)req->assoclen + req->cryptlen;
	struct rind_sg_map ad, text;
	u8 tag[CHACHAPOLY_TAG_SIZE];
	u8 *s, *d;
	u32 state[16];
	int err;

	s = cp_seg(req->src, n);
	d = req->dst == req->src ? s : cp_seg(req->dst, n + CHACHAPOLY_TAG_SIZE);
	if (s && d && (d != s || req->src->length >= n + CHACHAPOLY_TAG_SIZE)) {
		if (d != s)
			memmove(d, s, alen);
		cp_state(tfm, req->iv, state);
		cp_seal_buf(state, d + alen, s + alen, req->cryptlen, s, alen, d + n);
		memzero_explicit(state, sizeof(state));
		return 0;
	}
	err = rind_sg_map(&ad, req->src, req->dst, 0, req->assoclen);
	if (err)
		return err;
	err = rind_sg_map(&text, req->src, req->dst, req->assoclen, req->cryptlen);
	if (err) {
		rind_sg_unmap(&ad, false);
		return err;
	}
	if (ad.dst != ad.src)
		memmove(ad.dst, ad.src, ad.len);
	cp_state(tfm, req->iv, state);
	cp_seal_buf(state, text.dst, text.src, text.len, ad.src, ad.len, tag);
	memzero_explicit(state, sizeof(state));
	rind_sg_unmap(&text, true);
	rind_sg_unmap(&ad, true);
	cp_write_tag(req->dst, (size_t)req->assoclen + req->cryptlen, tag);
	return 0;
}

static CP_TGT int cp_decrypt(struct aead_request *req)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	struct rind_sg_map ad, text;
	u8 tag[CHACHAPOLY_TAG_SIZE];
	u8 *s, *d;
	u32 state[16];
	size_t len;
	int err;

	if (req->cryptlen < CHACHAPOLY_TAG_SIZE)
		return -EINVAL;
	len = req->cryptlen - CHACHAPOLY_TAG_SIZE;
	s = cp_seg(req->src, (size_t)req->assoclen + req->cryptlen);
	d = req->dst == req->src ? s : cp_seg(req->dst, (size_t)req->assoclen + len);
	if (s && d) {
		memcpy(tag, s + req->assoclen + len, CHACHAPOLY_TAG_SIZE);
		cp_state(tfm, req->iv, state);
		err = cp_open_buf(state, d + req->assoclen, s + req->assoclen, len, s,
				  req->assoclen, tag);
		memzero_explicit(state, sizeof(state));
		if (!err && d != s)
			memmove(d, s, req->assoclen);
		return err;
	}
	err = cp_read_tag(req->src, (size_t)req->assoclen + len, tag);
	if (err)
		return err;
	err = rind_sg_map(&ad, req->src, req->dst, 0, req->assoclen);
	if (err)
		return err;
	err = rind_sg_map(&text, req->src, req->dst, req->assoclen, len);
	if (err) {
		rind_sg_unmap(&ad, false);
		return err;
	}
	cp_state(tfm, req->iv, state);
	err = cp_open_buf(state, text.dst, text.src, text.len, ad.src, ad.len, tag);
	memzero_explicit(state, sizeof(state));
	if (!err && ad.dst != ad.src)
		memmove(ad.dst, ad.src, ad.len);
	/* on failure the mapped destination holds zeros: copy them out too */
	rind_sg_unmap(&text, true);
	rind_sg_unmap(&ad, !err);
	return err;
}

static CP_TGT int cp_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int keylen)
{
	struct cp_ctx *ctx = crypto_aead_ctx(tfm);
	int i;

	if (keylen != CHACHA_KEY_SIZE)
		return -EINVAL;
	for (i = 0; i < 8; i++)
		ctx->key[i] = get_unaligned_le32(key + 4 * i);
	return 0;
}

static CP_TGT int cp_setauthsize(struct crypto_aead *tfm, unsigned int authsize)
{
	(void)tfm;
	return authsize == CHACHAPOLY_TAG_SIZE ? 0 : -EINVAL;
}

#define CP_ALG(_name, _drv, _ivsize)						\
	{									\
		.setkey		= cp_setkey,					\
		.setauthsize	= cp_setauthsize,				\
		.encrypt	= cp_encrypt,					\
		.decrypt	= cp_decrypt,					\
		.ivsize		= (_ivsize),					\
		.maxauthsize	= CHACHAPOLY_TAG_SIZE,				\
		.chunksize	= CHACHA_BLOCK_SIZE,				\
		.base = {							\
			.cra_name		= (_name),			\
			.cra_driver_name	= (_drv),			\
			.cra_priority		= 600,				\
			.cra_blocksize		= 1,				\
			.cra_ctxsize		= sizeof(struct cp_ctx),	\
			.cra_module		= "x86",			\
		},								\
	}

static struct aead_alg cp_algs[] = {
	CP_ALG("rfc7539(chacha20,poly1305)", "rfc7539-chacha20-poly1305-avx2", 12),
	CP_ALG("rfc7539(xchacha20,poly1305)", "rfc7539-xchacha20-poly1305-avx2", 24),
};

static int cp_mod_init(void)
{
	/* The known-answer tests of both names are algs/chacha20poly1305.c's. */
	if (!rind_cpu_has(RIND_X86_AVX2) || !rind_cpu_has(RIND_X86_BMI2) ||
	    !rind_cpu_has(RIND_X86_ADX))
		return 0;
	cp_long_avx512 = rind_cpu_has(RIND_X86_AVX512F) && rind_cpu_has(RIND_X86_AVX512VL) &&
			 rind_cpu_has(RIND_X86_AVX512BW) && rind_cpu_has(RIND_X86_AVX512IFMA);
	return crypto_register_aeads(cp_algs, (int)ARRAY_SIZE(cp_algs));
}

module_init(cp_mod_init);
