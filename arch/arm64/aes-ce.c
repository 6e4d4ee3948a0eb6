// SPDX-License-Identifier: MIT
/*
 * AES with the Armv8 Cryptography Extension.  Requires: AES (HWCAP_AES),
 * ASIMD (checked with rind_cpu_has before registering).
 *
 *  - "aes" cipher "aes-ce" (priority 300), with multi-block entries that
 *    keep eight blocks in flight;
 *  - direct skciphers "ecb-aes-ce", "cbc-aes-ce", "ctr-aes-ce" (priority
 *    400) with the semantics of the ecb/cbc/ctr templates: ECB and CBC
 *    need a multiple of 16 bytes (-EINVAL otherwise), CBC leaves the last
 *    ciphertext block in the iv, CTR takes any length, carries its 128-bit
 *    big-endian counter through all 16 bytes and leaves the next counter
 *    in the iv.  CBC decryption runs eight blocks interleaved (they are
 *    independent); CBC encryption is one chain, one block at a time.
 *
 * Constant time: every secret-dependent step is AESE/AESMC/AESD/AESIMC,
 * EOR and loads/stores at public addresses; these are in Arm's list of
 * data-independent-timing instructions under PSTATE.DIT (Arm ARM, "About
 * PSTATE.DIT").  The key schedule is aes-ce.h's (SubWord by AESE, no
 * S-box table anywhere).  Branches depend on
 * the key length, the data length and the (public) counter only.  The
 * cipher and skcipher glue around the block loops is <crypto/aes-glue.h>'s
 * (the x86 AES-NI driver's, written once).
 *
 * Expected speed on Neoverse N1 (Arm Neoverse N1 Software Optimization
 * Guide: AESE/AESD 2 cycles latency, AESMC/AESIMC 2, fused AESE+AESMC
 * pairs, two pipelines): with eight independent blocks in flight,
 * ECB/CTR/CBC-decrypt of AES-128 about 0.6-0.7 cycles/byte (10 fused
 * pairs per block over 2 pipes = 5 cycles / 16 bytes, plus loads and
 * EORs); CBC encryption is latency bound, about 10 rounds * 2 cycles / 16
 * = 1.3 cycles/byte (AES-256: 1.8).
 */
#include <arm_neon.h>
#include <rind/internal/cipher.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/aes-glue.h>
#include "aes-ce.h"

#define CE_FN		AES_CE_TARGET
#define CE_INLINE	AES_CE_INL

struct aes_ce_ctx {
	uint8x16_t ek[AES_CE_MAX_RK];
	uint8x16_t dk[AES_CE_MAX_RK];
	unsigned int nr;
};

/* ---- key schedule (aes-ce.h), decryption by the equivalent inverse cipher ---- */

CE_FN static int aes_ce_expandkey(struct aes_ce_ctx *ctx, const u8 *key, unsigned int keylen)
{
	int nr = aes_ce_expand_key(ctx->ek, key, keylen);
	unsigned int i;

	if (nr < 0)
		return nr;
	/* FIPS 197 5.3.5: the round keys reversed, the middle ones through InvMixColumns. */
	ctx->dk[0] = ctx->ek[nr];
	for (i = 1; i < (unsigned int)nr; i++)
		ctx->dk[i] = vaesimcq_u8(ctx->ek[nr - i]);
	ctx->dk[nr] = ctx->ek[0];
	ctx->nr = (unsigned int)nr;
	return 0;
}

/* ---- one block and eight blocks ---- */

/*
 * AESE is AddRoundKey+SubBytes+ShiftRows, so round r XORs rk[r] first and
 * the last round key is a plain EOR; AESD likewise with the inverse steps.
 */
CE_INLINE uint8x16_t aes_ce_enc1(const struct aes_ce_ctx *ctx, uint8x16_t b)
{
	return aes_ce_encrypt1(ctx->ek, ctx->nr, b);
}

CE_INLINE uint8x16_t aes_ce_dec1(const struct aes_ce_ctx *ctx, uint8x16_t b)
{
	unsigned int r, nr = ctx->nr;

	for (r = 0; r < nr - 1; r++)
		b = vaesimcq_u8(vaesdq_u8(b, ctx->dk[r]));
	b = vaesdq_u8(b, ctx->dk[nr - 1]);
	return veorq_u8(b, ctx->dk[nr]);
}

#define EACH8(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)

CE_INLINE void aes_ce_enc8(const struct aes_ce_ctx *ctx, uint8x16_t b[8])
{
	unsigned int r, nr = ctx->nr;
	uint8x16_t b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3];
	uint8x16_t b4 = b[4], b5 = b[5], b6 = b[6], b7 = b[7], k;

	for (r = 0; r < nr - 1; r++) {
		k = ctx->ek[r];
#define R(i)	b##i = vaesmcq_u8(vaeseq_u8(b##i, k));
		EACH8(R)
#undef R
	}
	k = ctx->ek[nr - 1];
#define L(i)	b[i] = veorq_u8(vaeseq_u8(b##i, k), ctx->ek[nr]);
	EACH8(L)
#undef L
}

CE_INLINE void aes_ce_dec8(const struct aes_ce_ctx *ctx, uint8x16_t b[8])
{
	unsigned int r, nr = ctx->nr;
	uint8x16_t b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3];
	uint8x16_t b4 = b[4], b5 = b[5], b6 = b[6], b7 = b[7], k;

	for (r = 0; r < nr - 1; r++) {
		k = ctx->dk[r];
#define R(i)	b##i = vaesimcq_u8(vaesdq_u8(b##i, k));
		EACH8(R)
#undef R
	}
	k = ctx->dk[nr - 1];
#define L(i)	b[i] = veorq_u8(vaesdq_u8(b##i, k), ctx->dk[nr]);
	EACH8(L)
#undef L
}

CE_FN static void aes_ce_ecb(const struct aes_ce_ctx *ctx, u8 *dst, const u8 *src,
			     size_t nblocks, bool enc)
{
	uint8x16_t b[8];
	int i;

	for (; nblocks >= 8; nblocks -= 8, src += 128, dst += 128) {
		for (i = 0; i < 8; i++)
			b[i] = vld1q_u8(src + 16 * i);
		if (enc)
			aes_ce_enc8(ctx, b);
		else
			aes_ce_dec8(ctx, b);
		for (i = 0; i < 8; i++)
			vst1q_u8(dst + 16 * i, b[i]);
	}
	for (; nblocks; nblocks--, src += 16, dst += 16) {
		uint8x16_t x = vld1q_u8(src);

		vst1q_u8(dst, enc ? aes_ce_enc1(ctx, x) : aes_ce_dec1(ctx, x));
	}
}

/* ---- the "aes" cipher ---- */

CE_FN static void aes_ce_cipher_encrypt(struct crypto_cipher *tfm, u8 *dst, const u8 *src)
{
	vst1q_u8(dst, aes_ce_enc1(crypto_cipher_ctx(tfm), vld1q_u8(src)));
}

CE_FN static void aes_ce_cipher_decrypt(struct crypto_cipher *tfm, u8 *dst, const u8 *src)
{
	vst1q_u8(dst, aes_ce_dec1(crypto_cipher_ctx(tfm), vld1q_u8(src)));
}

/* ---- skciphers ---- */

CE_FN static void aes_ce_cbc_enc(const struct aes_ce_ctx *ctx, u8 *dst, const u8 *src,
				 size_t nblocks, u8 *iv)
{
	uint8x16_t c = vld1q_u8(iv);

	for (; nblocks; nblocks--, src += 16, dst += 16) {
		c = aes_ce_enc1(ctx, veorq_u8(c, vld1q_u8(src)));
		vst1q_u8(dst, c);
	}
	vst1q_u8(iv, c);
}

CE_FN static void aes_ce_cbc_dec(const struct aes_ce_ctx *ctx, u8 *dst, const u8 *src,
				 size_t nblocks, u8 *iv)
{
	uint8x16_t prev = vld1q_u8(iv), b[8], c[8];
	int i;

	/* All eight ciphertext blocks are loaded before any store: in place works. */
	for (; nblocks >= 8; nblocks -= 8, src += 128, dst += 128) {
		for (i = 0; i < 8; i++)
			b[i] = c[i] = vld1q_u8(src + 16 * i);
		aes_ce_dec8(ctx, b);
		vst1q_u8(dst, veorq_u8(b[0], prev));
		for (i = 1; i < 8; i++)
			vst1q_u8(dst + 16 * i, veorq_u8(b[i], c[i - 1]));
		prev = c[7];
	}
	for (; nblocks; nblocks--, src += 16, dst += 16) {
		uint8x16_t x = vld1q_u8(src);

		vst1q_u8(dst, veorq_u8(aes_ce_dec1(ctx, x), prev));
		prev = x;
	}
	vst1q_u8(iv, prev);
}

/* The counter block for the 128-bit big-endian counter (hi, lo). */
CE_INLINE uint8x16_t aes_ce_ctr_block(u64 hi, u64 lo)
{
	return vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(__builtin_bswap64(hi)),
						 vcreate_u64(__builtin_bswap64(lo))));
}

/*
 * CTR, eight blocks in flight.  The counter is public: its carry is an
 * ordinary add with carry on two 64-bit halves.
 */
CE_FN static void aes_ce_ctr(const struct aes_ce_ctx *ctx, u8 *dst, const u8 *src,
			     size_t len, u8 *iv)
{
	u64 hi = get_unaligned_be64(iv), lo = get_unaligned_be64(iv + 8);
	uint8x16_t b[8];
	int i;

	for (; len >= 128; src += 128, dst += 128, len -= 128) {
		for (i = 0; i < 8; i++) {
			b[i] = aes_ce_ctr_block(hi, lo);
			hi += !++lo;
		}
		aes_ce_enc8(ctx, b);
		for (i = 0; i < 8; i++)
			vst1q_u8(dst + 16 * i, veorq_u8(vld1q_u8(src + 16 * i), b[i]));
	}
	if (len) {
		size_t n = (len + 15) / 16;
		u8 ks[128];

		for (i = 0; i < 8; i++) {
			b[i] = aes_ce_ctr_block(hi, lo);
			if (i < (int)n)
				hi += !++lo;
		}
		aes_ce_enc8(ctx, b);
		for (i = 0; i < (int)n; i++)
			vst1q_u8(ks + 16 * i, b[i]);
		crypto_xor_cpy(dst, src, ks, len);
		memzero_explicit(ks, sizeof(ks));
	}
	put_unaligned_be64(hi, iv);
	put_unaligned_be64(lo, iv + 8);
}

/* The cipher, ECB/CBC/CTR glue and the algs: <crypto/aes-glue.h>. */
AES_GLUE_DEFINE_ALGS(aes_ce, struct aes_ce_ctx, "aes-ce", 300, "ce", 400, "arm64");

static int aes_ce_mod_init(void)
{
	if (!rind_cpu_has(RIND_ARM64_AES) || !rind_cpu_has(RIND_ARM64_ASIMD))
		return 0;
	return aes_glue_register(&aes_ce_cipher_alg, aes_ce_skciphers,
				 ARRAY_SIZE(aes_ce_skciphers));
}
module_init(aes_ce_mod_init);
