// SPDX-License-Identifier: MIT
/*
 * gcm-aes-ce: AES-GCM with the Armv8 Cryptography Extension, AES and
 * PMULL/PMULL2.  Requires: AES, PMULL, ASIMD (HWCAP_AES, HWCAP_PMULL).
 *
 * Counter mode runs eight blocks at a time, each AES round applied to all
 * eight before the next, and GHASH is stitched into the same loop: during
 * the first eight AES rounds of a group, one PMULL/PMULL2 product per
 * round hashes the ciphertext of the previous group (encryption) or of the
 * same group (decryption).  The eight blocks of a group are multiplied by
 * H^8 .. H^1 and summed before a single reduction (aggregated reduction);
 * the powers are computed at setkey.
 *
 * GHASH representation (the same as the x86 drivers): a block is
 * byte-reversed into a register, which makes it the bit-reflected
 * polynomial (bit 127 = x^0); the powers of H are stored times x^-1, which
 * absorbs the one-bit shift of a carry-less product of reflected operands;
 * the 256-bit product is reduced by x^128 = x^7 + x^2 + x + 1 with two
 * PMULLs by the reflected constant 0xc2 << 56.
 *
 * Constant time: the secret-dependent work is AESE/AESMC, PMULL/PMULL2
 * (64x64 carry-less multiply), EOR, EXT/REV64 and loads/stores at public
 * addresses -- all data-independent under PSTATE.DIT (Arm ARM, "About
 * PSTATE.DIT"); the tag check is crypto_memneq.  Branches depend on lengths
 * only.  The AEAD glue (lengths, scatterlists, the tag, the aead_alg) is
 * <crypto/gcm-glue.h>'s, shared with the x86 drivers (which replace its
 * hooks with SSE steps); this driver uses the portable hooks.
 *
 * Expected speed on Neoverse N1 (Neoverse N1 Software Optimization Guide:
 * AESE+AESMC fused 2 cycles latency on two pipes, PMULL/PMULL2 2 cycles,
 * throughput 1/cycle): per 128-byte group 80 AESE/AESMC pairs (AES-128,
 * 40 cycles over two pipes) and 32 PMULL plus 2 for the reduction, which
 * share the pipes: about 0.9-1.1 cycles/byte for AES-128-GCM, 1.2-1.4
 * for AES-256-GCM.
 */
#include <arm_neon.h>
#include <rind/internal/aead.h>
#include <rind/internal/util.h>
#include <crypto/gcm-glue.h>
#include "aes-ce.h"

#define TGT AES_CE_TARGET
#define INL static inline __attribute__((always_inline)) TGT

struct gcm_ce_ctx {
	uint8x16_t rk[AES_CE_MAX_RK];
	uint64x2_t hpow[8];	/* hpow[i] = H^(i+1) * x^-1, reflected */
	unsigned int rounds;
};

/* ---- GHASH ---- */

INL uint64x2_t bswap128(uint8x16_t x)
{
	x = vrev64q_u8(x);
	return vreinterpretq_u64_u8(vextq_u8(x, x, 8));
}

INL uint8x16_t unbswap128(uint64x2_t x)
{
	uint8x16_t b = vrev64q_u8(vreinterpretq_u8_u64(x));

	return vextq_u8(b, b, 8);
}

INL uint64x2_t swap64(uint64x2_t x)
{
	return vextq_u64(x, x, 1);
}

INL uint64x2_t pmull_lo(uint64x2_t a, uint64x2_t b)
{
	return vreinterpretq_u64_p128(vmull_p64((poly64_t)vgetq_lane_u64(a, 0),
						(poly64_t)vgetq_lane_u64(b, 0)));
}

INL uint64x2_t pmull_hi(uint64x2_t a, uint64x2_t b)
{
	return vreinterpretq_u64_p128(vmull_high_p64(vreinterpretq_p64_u64(a),
						     vreinterpretq_p64_u64(b)));
}

/* lo ^= a.lo*h.lo, mi ^= a.lo*h.hi + a.hi*h.lo, hi ^= a.hi*h.hi */
INL void clmul_acc(uint64x2_t a, uint64x2_t h, uint64x2_t *lo, uint64x2_t *mi, uint64x2_t *hi)
{
	uint64x2_t hs = swap64(h);

	*lo = veorq_u64(*lo, pmull_lo(a, h));
	*mi = veorq_u64(*mi, veorq_u64(pmull_lo(a, hs), pmull_hi(a, hs)));
	*hi = veorq_u64(*hi, pmull_hi(a, h));
}

/* Reduce hi*x^128 + mi*x^64 + lo (reflected) modulo the GCM polynomial. */
INL uint64x2_t ghash_reduce(uint64x2_t lo, uint64x2_t mi, uint64x2_t hi)
{
	const uint64x2_t c = vcombine_u64(vcreate_u64(0xc200000000000000ULL), vcreate_u64(0));

	mi = veorq_u64(mi, veorq_u64(swap64(lo), pmull_lo(lo, c)));
	return veorq_u64(hi, veorq_u64(swap64(mi), pmull_lo(mi, c)));
}

INL uint64x2_t ghash_mul(uint64x2_t a, uint64x2_t hx)
{
	uint64x2_t z = vdupq_n_u64(0), lo = z, mi = z, hi = z;

	clmul_acc(a, hx, &lo, &mi, &hi);
	return ghash_reduce(lo, mi, hi);
}

/* acc = (acc ^ X0) H^n + X1 H^(n-1) + ... + X(n-1) H, 1 <= n <= 8; X already reversed */
INL uint64x2_t ghash_n(const struct gcm_ce_ctx *ctx, uint64x2_t acc, const uint64x2_t *x,
		       unsigned int n)
{
	uint64x2_t lo = vdupq_n_u64(0), mi = lo, hi = lo;
	unsigned int j;

	clmul_acc(veorq_u64(acc, x[0]), ctx->hpow[n - 1], &lo, &mi, &hi);
	for (j = 1; j < n; j++)
		clmul_acc(x[j], ctx->hpow[n - 1 - j], &lo, &mi, &hi);
	return ghash_reduce(lo, mi, hi);
}

/* Hash @len bytes, the last partial block padded with zeros. */
TGT static uint64x2_t ghash_pad(const struct gcm_ce_ctx *ctx, uint64x2_t acc, const u8 *p,
				size_t len)
{
	uint64x2_t x[8];
	unsigned int j, n;

	for (; len >= 128; p += 128, len -= 128) {
		for (j = 0; j < 8; j++)
			x[j] = bswap128(vld1q_u8(p + 16 * j));
		acc = ghash_n(ctx, acc, x, 8);
	}
	if (len) {
		u8 buf[16] = { 0 };

		n = (unsigned int)((len + 15) / 16);
		for (j = 0; j + 1 < n; j++)
			x[j] = bswap128(vld1q_u8(p + 16 * j));
		memcpy(buf, p + 16 * j, len - 16 * j);
		x[j] = bswap128(vld1q_u8(buf));
		acc = ghash_n(ctx, acc, x, n);
		memzero_explicit(buf, sizeof(buf));
	}
	return acc;
}

/* ---- GCM ---- */

/* The counter block IV || be32(ctr); the IV is public. */
INL uint8x16_t ctr_block(uint8x16_t j0, u32 ctr)
{
	return vreinterpretq_u8_u32(vsetq_lane_u32(__builtin_bswap32(ctr),
						   vreinterpretq_u32_u8(j0), 3));
}

#define B8(OP) OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7)
#define CTR8(i) b##i = ctr_block(j0, ctr + (i));
#define ENC8(i) b##i = vaesmcq_u8(vaeseq_u8(b##i, k));

/* One AES round on all eight blocks plus the GHASH product of one block. */
#define ROUND_HASH(r, x)						\
	do {								\
		k = ctx->rk[r];						\
		B8(ENC8)						\
		clmul_acc((x), ctx->hpow[7 - (r)], &lo, &mi, &hi);	\
	} while (0)
#define GBLK(i) bswap128(vld1q_u8(gp + 16 * (i)))

/*
 * Encrypt or decrypt @len bytes from @src to @dst (which may be equal),
 * hashing the ciphertext into @acc; the first counter is @ctr.
 */
TGT static uint64x2_t gcm_ce_ctr_ghash(const struct gcm_ce_ctx *ctx, u8 *dst, const u8 *src,
				       size_t len, uint8x16_t j0, u32 ctr, uint64x2_t acc,
				       bool enc)
{
	const unsigned int rounds = ctx->rounds;
	uint8x16_t b[8];
	uint64x2_t c[8];
	bool hashed_all = true;
	unsigned int j, r, n;

	for (; len >= 128; src += 128, dst += 128, len -= 128, ctr += 8) {
		uint8x16_t b0, b1, b2, b3, b4, b5, b6, b7, k;
		/* ciphertext to hash: the previous group's output, or this input */
		const u8 *gp = enc ? dst - 128 : src;

		B8(CTR8)
		if (!enc || !hashed_all) {
			uint64x2_t lo = vdupq_n_u64(0), mi = lo, hi = lo;

			ROUND_HASH(0, veorq_u64(acc, GBLK(0)));
			ROUND_HASH(1, GBLK(1));
			ROUND_HASH(2, GBLK(2));
			ROUND_HASH(3, GBLK(3));
			ROUND_HASH(4, GBLK(4));
			ROUND_HASH(5, GBLK(5));
			ROUND_HASH(6, GBLK(6));
			ROUND_HASH(7, GBLK(7));
			acc = ghash_reduce(lo, mi, hi);
		} else {
			for (r = 0; r < 8; r++) {
				k = ctx->rk[r];
				B8(ENC8)
			}
		}
		for (r = 8; r < rounds - 1; r++) {
			k = ctx->rk[r];
			B8(ENC8)
		}
		k = ctx->rk[rounds - 1];
#define LAST8(i)								\
		b##i = veorq_u8(veorq_u8(vaeseq_u8(b##i, k), ctx->rk[rounds]),	\
				vld1q_u8(src + 16 * (i)));				\
		vst1q_u8(dst + 16 * (i), b##i);
		B8(LAST8)
#undef LAST8
		hashed_all = !enc;
	}
	if (!hashed_all) {
		const u8 *gp = dst - 128;

		for (j = 0; j < 8; j++)
			c[j] = GBLK(j);
		acc = ghash_n(ctx, acc, c, 8);
	}

	if (len) {
		/* The last 1..8 blocks, the final one possibly partial. */
		u8 buf[128];

		n = (unsigned int)((len + 15) / 16);
		memset(buf + 16 * (n - 1), 0, 16);
		memcpy(buf, src, len);
		for (j = 0; j < n; j++)
			b[j] = ctr_block(j0, ctr + j);
		for (r = 0; r < rounds - 1; r++) {
			uint8x16_t k = ctx->rk[r];

			for (j = 0; j < n; j++)
				b[j] = vaesmcq_u8(vaeseq_u8(b[j], k));
		}
		for (j = 0; j < n; j++) {
			uint8x16_t in = vld1q_u8(buf + 16 * j);

			b[j] = veorq_u8(veorq_u8(vaeseq_u8(b[j], ctx->rk[rounds - 1]),
						 ctx->rk[rounds]), in);
			if (!enc)
				c[j] = bswap128(in);
			vst1q_u8(buf + 16 * j, b[j]);
		}
		memcpy(dst, buf, len);
		if (enc) {
			/* hash the ciphertext with the bytes past the end zeroed */
			memset(buf + len, 0, 16 * n - len);
			for (j = 0; j < n; j++)
				c[j] = bswap128(vld1q_u8(buf + 16 * j));
		}
		acc = ghash_n(ctx, acc, c, n);
		memzero_explicit(buf, sizeof(buf));
	}
	return acc;
}

/*
 * The whole of GCM over contiguous buffers (the gcm_glue_core_fn of
 * <crypto/gcm-glue.h>); 96-bit IV (SP 800-38D 7.1).
 */
TGT static void gcm_ce_core(const void *vctx, const u8 iv[12], const u8 *ad, size_t adlen,
			    u8 *dst, const u8 *src, size_t len, bool enc, u8 tag[16])
{
	const struct gcm_ce_ctx *ctx = vctx;
	u8 blk[16];
	uint8x16_t j0, ej0;
	uint64x2_t acc = vdupq_n_u64(0), lenblk;

	memcpy(blk, iv, 12);
	put_unaligned_be32(1, blk + 12);
	j0 = vld1q_u8(blk);
	ej0 = aes_ce_encrypt1(ctx->rk, ctx->rounds, j0);
	if (adlen)
		acc = ghash_pad(ctx, acc, ad, adlen);
	if (len)
		acc = gcm_ce_ctr_ghash(ctx, dst, src, len, j0, 2, acc, enc);
	/* The reflected length block [len(A)]64 || [len(C)]64 in bits. */
	lenblk = vcombine_u64(vcreate_u64((u64)len * 8), vcreate_u64((u64)adlen * 8));
	acc = ghash_mul(veorq_u64(acc, lenblk), ctx->hpow[0]);
	vst1q_u8(tag, veorq_u8(unbswap128(acc), ej0));
}

/* H * x^-1 from the reflected @h = bswap(E_K(0^128)) (gcm_glue_hxinv). */
TGT static uint64x2_t gcm_ce_hxinv(uint64x2_t h)
{
	u64 lo = vgetq_lane_u64(h, 0), hi = vgetq_lane_u64(h, 1);

	gcm_glue_hxinv(&lo, &hi);
	return vcombine_u64(vcreate_u64(lo), vcreate_u64(hi));
}

TGT static int gcm_ce_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int keylen)
{
	struct gcm_ce_ctx *ctx = crypto_aead_ctx(tfm);
	unsigned int m, k;
	int nr;

	/* A wrong key length is refused before the context is touched. */
	nr = aes_ce_expand_key(ctx->rk, key, keylen);
	if (nr < 0)
		return nr;
	ctx->rounds = (unsigned int)nr;
	ctx->hpow[0] = gcm_ce_hxinv(bswap128(aes_ce_encrypt1(ctx->rk, ctx->rounds,
							     vdupq_n_u8(0))));
	/* H^(k+1) = H^(k+1-m) * H^m: a chain log2(8) products deep. */
	for (m = 1; m < 8; m *= 2)
		for (k = m; k < 2 * m && k < 8; k++)
			ctx->hpow[k] = ghash_mul(ctx->hpow[k - m], ctx->hpow[m - 1]);
	return 0;
}

GCM_GLUE_DEFINE_ALG(gcm_ce, struct gcm_ce_ctx, "gcm-aes-ce", 400, "arm64", TGT);

/* Its known-answer tests are the "gcm(aes)" ones of algs/gcm.c. */
static int gcm_ce_mod_init(void)
{
	if (!rind_cpu_has(RIND_ARM64_AES) || !rind_cpu_has(RIND_ARM64_PMULL) ||
	    !rind_cpu_has(RIND_ARM64_ASIMD))
		return 0;
	return crypto_register_aead(&gcm_ce_alg);
}
module_init(gcm_ce_mod_init);
