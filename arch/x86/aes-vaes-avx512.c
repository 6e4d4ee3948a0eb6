// SPDX-License-Identifier: MIT
/*
 * AES-CTR and AES-ECB with VAES on 512-bit registers: four blocks per
 * instruction, four registers in flight (sixteen blocks, 256 bytes, per
 * pass).  Requires: AESNI (key schedule), VAES, AVX512F, AVX512VL,
 * AVX512BW (byte shuffles and byte-masked loads/stores for the tail),
 * checked with rind_cpu_has before registering.
 *
 * "ctr-aes-vaes-avx512" and "ecb-aes-vaes-avx512", priority 800, with the
 * semantics of the ctr and ecb templates (CTR: any length, 128-bit
 * big-endian counter carried through all 16 bytes, the next counter left
 * in the iv; ECB: a multiple of 16 bytes, else -EINVAL).  The request
 * glue (setkey, mapping, length rules, exit, the algs) is
 * <crypto/aes-glue.h>'s, as for aes-aesni.c.
 */
#include <immintrin.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/aes-glue.h>
#include "aes-aesni.h"
#include "x86-target.h"

#define VAES_FN		RIND_AVX512_TARGET("aes,vaes,avx512f,avx512vl,avx512bw", "aes,avx2")
#define VAES_INLINE	static inline __attribute__((always_inline)) VAES_FN

struct vaes_ctx {
	__m512i ek[AES_MAX_ROUND_KEYS];	/* round keys broadcast to the four lanes */
	__m512i dk[AES_MAX_ROUND_KEYS];	/* equivalent inverse cipher */
	unsigned int nr;
};

/* ---- key schedule (aes-aesni.h), broadcast to the four lanes ---- */

VAES_FN static int vaes_expandkey(struct vaes_ctx *ctx, const u8 *key, unsigned int keylen)
{
	__m128i ek[AES_MAX_ROUND_KEYS], dk[AES_MAX_ROUND_KEYS];
	int nr = aesni_expand_key(ek, key, keylen), i;

	if (nr < 0)
		return nr;
	aesni_expand_dec(dk, ek, (unsigned int)nr);
	for (i = 0; i <= nr; i++) {
		ctx->ek[i] = _mm512_broadcast_i32x4(ek[i]);
		ctx->dk[i] = _mm512_broadcast_i32x4(dk[i]);
	}
	ctx->nr = (unsigned int)nr;
	memzero_explicit(ek, sizeof(ek));
	memzero_explicit(dk, sizeof(dk));
	return 0;
}

/* ---- 4 x 4 blocks and 1 x 4 blocks ---- */

/*
 * vaes_<dir>4x4 and vaes_<dir>4, for encryption (round keys ek, VAESENC,
 * VAESENCLAST) and decryption (dk, VAESDEC, VAESDECLAST): one body,
 * expanded twice.
 */
#define VAES_DEFINE_CRYPT(dir, rk, round, last)					\
VAES_INLINE void vaes_##dir##4x4(const struct vaes_ctx *ctx, __m512i *a, __m512i *b,	\
				 __m512i *c, __m512i *d)				\
{											\
	unsigned int r, nr = ctx->nr;							\
	__m512i k = ctx->rk[0];								\
	__m512i x0 = _mm512_xor_si512(*a, k), x1 = _mm512_xor_si512(*b, k);		\
	__m512i x2 = _mm512_xor_si512(*c, k), x3 = _mm512_xor_si512(*d, k);		\
											\
	for (r = 1; r < nr; r++) {							\
		k = ctx->rk[r];								\
		x0 = round(x0, k);							\
		x1 = round(x1, k);							\
		x2 = round(x2, k);							\
		x3 = round(x3, k);							\
	}										\
	k = ctx->rk[nr];								\
	*a = last(x0, k);								\
	*b = last(x1, k);								\
	*c = last(x2, k);								\
	*d = last(x3, k);								\
}											\
											\
VAES_INLINE __m512i vaes_##dir##4(const struct vaes_ctx *ctx, __m512i x)		\
{											\
	unsigned int r, nr = ctx->nr;							\
											\
	x = _mm512_xor_si512(x, ctx->rk[0]);						\
	for (r = 1; r < nr; r++)							\
		x = round(x, ctx->rk[r]);						\
	return last(x, ctx->rk[nr]);							\
}

VAES_DEFINE_CRYPT(enc, ek, _mm512_aesenc_epi128, _mm512_aesenclast_epi128)
VAES_DEFINE_CRYPT(dec, dk, _mm512_aesdec_epi128, _mm512_aesdeclast_epi128)
#undef VAES_DEFINE_CRYPT

/* Byte mask of the first @n (< 64) bytes. */
static inline __mmask64 vaes_head(size_t n)
{
	return n >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1;
}

/* ---- ECB ---- */

VAES_FN static void vaes_ecb(const struct vaes_ctx *ctx, u8 *dst, const u8 *src,
			     size_t nblocks, bool enc)
{
	size_t len = nblocks * 16;

	while (len >= 256) {
		__m512i a = _mm512_loadu_si512(src), b = _mm512_loadu_si512(src + 64);
		__m512i c = _mm512_loadu_si512(src + 128), d = _mm512_loadu_si512(src + 192);

		if (enc)
			vaes_enc4x4(ctx, &a, &b, &c, &d);
		else
			vaes_dec4x4(ctx, &a, &b, &c, &d);
		_mm512_storeu_si512(dst, a);
		_mm512_storeu_si512(dst + 64, b);
		_mm512_storeu_si512(dst + 128, c);
		_mm512_storeu_si512(dst + 192, d);
		src += 256;
		dst += 256;
		len -= 256;
	}
	while (len) {
		__mmask64 m = vaes_head(len);
		__m512i x = _mm512_maskz_loadu_epi8(m, src);

		x = enc ? vaes_enc4(ctx, x) : vaes_dec4(ctx, x);
		_mm512_mask_storeu_epi8(dst, m, x);
		if (len <= 64)
			break;
		src += 64;
		dst += 64;
		len -= 64;
	}
}

/* ---- CTR ---- */

/*
 * The counters live as (low, high) 64-bit lane pairs, one block per
 * 128-bit lane, and are byte-reversed into blocks with VPSHUFB.  A pass of
 * sixteen blocks uses lane additions when the low half cannot carry within
 * it, and builds the blocks one by one with the carry otherwise.
 */
VAES_INLINE __m512i vaes_ctr_blocks(u64 hi, u64 lo)
{
	/* four consecutive counters from (hi, lo), carrying into hi */
	u64 l1 = lo + 1, l2 = lo + 2, l3 = lo + 3;

	return _mm512_set_epi64((long long)(hi + (l3 < lo)), (long long)l3,
				(long long)(hi + (l2 < lo)), (long long)l2,
				(long long)(hi + (l1 < lo)), (long long)l1,
				(long long)hi, (long long)lo);
}

VAES_FN static void vaes_ctr(const struct vaes_ctx *ctx, u8 *dst, const u8 *src, size_t len,
			     u8 *iv)
{
	const __m512i bswap = _mm512_broadcast_i32x4(
		_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
	const __m512i four = _mm512_set_epi64(0, 4, 0, 4, 0, 4, 0, 4);
	u64 hi = get_unaligned_be64(iv), lo = get_unaligned_be64(iv + 8);

	while (len >= 256) {
		__m512i a, b, c, d;

		if (lo <= ~(u64)0 - 16) {
			__m512i x = vaes_ctr_blocks(hi, lo);

			a = _mm512_shuffle_epi8(x, bswap);
			x = _mm512_add_epi64(x, four);
			b = _mm512_shuffle_epi8(x, bswap);
			x = _mm512_add_epi64(x, four);
			c = _mm512_shuffle_epi8(x, bswap);
			x = _mm512_add_epi64(x, four);
			d = _mm512_shuffle_epi8(x, bswap);
		} else {
			a = _mm512_shuffle_epi8(vaes_ctr_blocks(hi, lo), bswap);
			b = _mm512_shuffle_epi8(vaes_ctr_blocks(hi + (lo + 4 < lo), lo + 4), bswap);
			c = _mm512_shuffle_epi8(vaes_ctr_blocks(hi + (lo + 8 < lo), lo + 8), bswap);
			d = _mm512_shuffle_epi8(vaes_ctr_blocks(hi + (lo + 12 < lo), lo + 12), bswap);
		}
		hi += lo + 16 < lo;
		lo += 16;
		vaes_enc4x4(ctx, &a, &b, &c, &d);
		_mm512_storeu_si512(dst, _mm512_xor_si512(a, _mm512_loadu_si512(src)));
		_mm512_storeu_si512(dst + 64, _mm512_xor_si512(b, _mm512_loadu_si512(src + 64)));
		_mm512_storeu_si512(dst + 128, _mm512_xor_si512(c, _mm512_loadu_si512(src + 128)));
		_mm512_storeu_si512(dst + 192, _mm512_xor_si512(d, _mm512_loadu_si512(src + 192)));
		src += 256;
		dst += 256;
		len -= 256;
	}
	while (len) {
		__mmask64 m = vaes_head(len);
		size_t n = len < 64 ? (len + 15) / 16 : 4;
		__m512i x = vaes_enc4(ctx, _mm512_shuffle_epi8(vaes_ctr_blocks(hi, lo), bswap));

		x = _mm512_xor_si512(x, _mm512_maskz_loadu_epi8(m, src));
		_mm512_mask_storeu_epi8(dst, m, x);
		hi += lo + n < lo;
		lo += n;
		if (len <= 64)
			break;
		src += 64;
		dst += 64;
		len -= 64;
	}
	put_unaligned_be64(hi, iv);
	put_unaligned_be64(lo, iv + 8);
}

/* The ECB and CTR request glue and the algs: <crypto/aes-glue.h>. */
AES_GLUE_DEFINE_SKCIPHER(vaes, struct vaes_ctx)
AES_GLUE_DEFINE_ECB(vaes, struct vaes_ctx)
AES_GLUE_DEFINE_CTR(vaes, struct vaes_ctx)

static struct skcipher_alg vaes_algs[] = {
	AES_GLUE_CTR_ALG(vaes, struct vaes_ctx, "ctr-aes-vaes-avx512", 800, "x86"),
	AES_GLUE_ECB_ALG(vaes, struct vaes_ctx, "ecb-aes-vaes-avx512", 800, "x86"),
};

static int vaes_mod_init(void)
{
	/* known answers: registered by the ctr and ecb templates */
	if (!rind_cpu_has(RIND_X86_AESNI) || !rind_cpu_has(RIND_X86_VAES) ||
	    !rind_cpu_has(RIND_X86_AVX512F) || !rind_cpu_has(RIND_X86_AVX512VL) ||
	    !rind_cpu_has(RIND_X86_AVX512BW))
		return 0;
	return crypto_register_skciphers(vaes_algs, ARRAY_SIZE(vaes_algs));
}
module_init(vaes_mod_init);
