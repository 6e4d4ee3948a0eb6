// SPDX-License-Identifier: MIT
/*
 * AES with the AES-NI instructions.  Requires: AESNI, SSSE3 (checked with
 * rind_cpu_has before registering).
 *
 *  - "aes" cipher "aes-aesni" (priority 300), with multi-block entries
 *    that keep eight blocks in flight (the instructions' latency is several
 *    times their throughput);
 *  - direct skciphers "ecb-aes-aesni", "cbc-aes-aesni", "ctr-aes-aesni"
 *    (priority 400), with the semantics of the ecb/cbc/ctr templates:
 *    ECB and CBC need a multiple of 16 bytes (-EINVAL otherwise), CBC
 *    leaves the last ciphertext block in the iv, CTR takes any length,
 *    carries its 128-bit big-endian counter through all 16 bytes and
 *    leaves the next counter in the iv.
 *
 * The key schedule is the one of aes-aesni.h (AESKEYGENASSIST, no table;
 * decryption by the equivalent inverse cipher).  The cipher and skcipher
 * glue around the loops below (setkey, the request mapping and length
 * rules, exit, the algs) is <crypto/aes-glue.h>'s, shared with arm64's
 * aes-ce.c.
 */
#include <immintrin.h>
#include <rind/internal/cipher.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/aes-glue.h>
#include "aes-aesni.h"

#define AESNI_FN	__attribute__((target("aes,ssse3")))
#define AESNI_INLINE	static inline __attribute__((always_inline, target("aes,ssse3")))

struct aesni_ctx {
	__m128i ek[AES_MAX_ROUND_KEYS];
	__m128i dk[AES_MAX_ROUND_KEYS];
	unsigned int nr;
};

/* ---- key schedule ---- */

AESNI_FN static int aesni_expandkey(struct aesni_ctx *ctx, const u8 *key, unsigned int keylen)
{
	int nr = aesni_expand_key(ctx->ek, key, keylen);

	if (nr < 0)
		return nr;
	aesni_expand_dec(ctx->dk, ctx->ek, (unsigned int)nr);
	ctx->nr = (unsigned int)nr;
	return 0;
}

/* ---- one block and eight blocks ---- */

/*
 * Encryption and decryption differ only in the round keys and the two
 * instructions; @enc is a constant at every call, so each wrapper below
 * compiles to the one straight loop it names.
 */
AESNI_INLINE __m128i aesni_crypt1(const struct aesni_ctx *ctx, __m128i b, bool enc)
{
	const __m128i *rk = enc ? ctx->ek : ctx->dk;
	unsigned int r, nr = ctx->nr;

	b = _mm_xor_si128(b, rk[0]);
	for (r = 1; r < nr; r++)
		b = enc ? _mm_aesenc_si128(b, rk[r]) : _mm_aesdec_si128(b, rk[r]);
	return enc ? _mm_aesenclast_si128(b, rk[nr]) : _mm_aesdeclast_si128(b, rk[nr]);
}

#define EACH8(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)

AESNI_INLINE void aesni_crypt8(const struct aesni_ctx *ctx, __m128i b[8], bool enc)
{
	const __m128i *rk = enc ? ctx->ek : ctx->dk;
	unsigned int r, nr = ctx->nr;
	__m128i k = rk[0];
	__m128i b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3];
	__m128i b4 = b[4], b5 = b[5], b6 = b[6], b7 = b[7];

#define X(i)	b##i = _mm_xor_si128(b##i, k);
	EACH8(X)
#undef X
	for (r = 1; r < nr; r++) {
		k = rk[r];
#define R(i)	b##i = enc ? _mm_aesenc_si128(b##i, k) : _mm_aesdec_si128(b##i, k);
		EACH8(R)
#undef R
	}
	k = rk[nr];
#define L(i)	b[i] = enc ? _mm_aesenclast_si128(b##i, k) : _mm_aesdeclast_si128(b##i, k);
	EACH8(L)
#undef L
}

AESNI_INLINE __m128i aesni_enc1(const struct aesni_ctx *ctx, __m128i b)
{
	return aesni_crypt1(ctx, b, true);
}

AESNI_INLINE __m128i aesni_dec1(const struct aesni_ctx *ctx, __m128i b)
{
	return aesni_crypt1(ctx, b, false);
}

AESNI_INLINE void aesni_enc8(const struct aesni_ctx *ctx, __m128i b[8])
{
	aesni_crypt8(ctx, b, true);
}

AESNI_INLINE void aesni_dec8(const struct aesni_ctx *ctx, __m128i b[8])
{
	aesni_crypt8(ctx, b, false);
}

AESNI_FN static void aesni_ecb(const struct aesni_ctx *ctx, u8 *dst, const u8 *src,
			       size_t nblocks, bool enc)
{
	__m128i b[8];
	int i;

	for (; nblocks >= 8; nblocks -= 8, src += 128, dst += 128) {
		for (i = 0; i < 8; i++)
			b[i] = _mm_loadu_si128((const __m128i *)(src + 16 * i));
		if (enc)
			aesni_enc8(ctx, b);
		else
			aesni_dec8(ctx, b);
		for (i = 0; i < 8; i++)
			_mm_storeu_si128((__m128i *)(dst + 16 * i), b[i]);
	}
	for (; nblocks; nblocks--, src += 16, dst += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)src);

		x = enc ? aesni_enc1(ctx, x) : aesni_dec1(ctx, x);
		_mm_storeu_si128((__m128i *)dst, x);
	}
}

/* ---- the "aes" cipher ---- */

AESNI_FN static void aesni_cipher_encrypt(struct crypto_cipher *tfm, u8 *dst, const u8 *src)
{
	__m128i x = _mm_loadu_si128((const __m128i *)src);

	_mm_storeu_si128((__m128i *)dst, aesni_enc1(crypto_cipher_ctx(tfm), x));
}

AESNI_FN static void aesni_cipher_decrypt(struct crypto_cipher *tfm, u8 *dst, const u8 *src)
{
	__m128i x = _mm_loadu_si128((const __m128i *)src);

	_mm_storeu_si128((__m128i *)dst, aesni_dec1(crypto_cipher_ctx(tfm), x));
}

/* ---- CBC and CTR ---- */

AESNI_FN static void aesni_cbc_enc(const struct aesni_ctx *ctx, u8 *dst, const u8 *src,
				   size_t nblocks, u8 *iv)
{
	__m128i c = _mm_loadu_si128((const __m128i *)iv);

	for (; nblocks; nblocks--, src += 16, dst += 16) {
		c = _mm_xor_si128(c, _mm_loadu_si128((const __m128i *)src));
		c = aesni_enc1(ctx, c);
		_mm_storeu_si128((__m128i *)dst, c);
	}
	_mm_storeu_si128((__m128i *)iv, c);
}

AESNI_FN static void aesni_cbc_dec(const struct aesni_ctx *ctx, u8 *dst, const u8 *src,
				   size_t nblocks, u8 *iv)
{
	__m128i prev = _mm_loadu_si128((const __m128i *)iv);
	__m128i b[8], c[8];
	int i;

	/* all eight ciphertext blocks are loaded before any store: in place works */
	for (; nblocks >= 8; nblocks -= 8, src += 128, dst += 128) {
		for (i = 0; i < 8; i++)
			b[i] = c[i] = _mm_loadu_si128((const __m128i *)(src + 16 * i));
		aesni_dec8(ctx, b);
		_mm_storeu_si128((__m128i *)dst, _mm_xor_si128(b[0], prev));
		for (i = 1; i < 8; i++)
			_mm_storeu_si128((__m128i *)(dst + 16 * i), _mm_xor_si128(b[i], c[i - 1]));
		prev = c[7];
	}
	for (; nblocks; nblocks--, src += 16, dst += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)src);

		_mm_storeu_si128((__m128i *)dst, _mm_xor_si128(aesni_dec1(ctx, x), prev));
		prev = x;
	}
	_mm_storeu_si128((__m128i *)iv, prev);
}

/*
 * CTR.  The counter is kept as two 64-bit halves (little-endian lanes, the
 * low half in lane 0) and byte-reversed into a block with PSHUFB; eight
 * blocks are built with lane additions when the low half cannot carry
 * within them, one at a time with the carry otherwise.
 */
AESNI_FN static void aesni_ctr(const struct aesni_ctx *ctx, u8 *dst, const u8 *src,
			       size_t len, u8 *iv)
{
	const __m128i bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
	const __m128i one = _mm_set_epi64x(0, 1);
	u64 hi = get_unaligned_be64(iv), lo = get_unaligned_be64(iv + 8);
	__m128i b[8];
	int i;

	while (len >= 128) {
		if (lo <= ~(u64)0 - 8) {
			__m128i c = _mm_set_epi64x((long long)hi, (long long)lo);

			for (i = 0; i < 8; i++) {
				b[i] = _mm_shuffle_epi8(c, bswap);
				c = _mm_add_epi64(c, one);
			}
			lo += 8;
		} else {
			for (i = 0; i < 8; i++) {
				b[i] = _mm_shuffle_epi8(_mm_set_epi64x((long long)hi, (long long)lo),
							bswap);
				lo++;
				hi += !lo;
			}
		}
		aesni_enc8(ctx, b);
		for (i = 0; i < 8; i++) {
			__m128i x = _mm_loadu_si128((const __m128i *)(src + 16 * i));

			_mm_storeu_si128((__m128i *)(dst + 16 * i), _mm_xor_si128(x, b[i]));
		}
		src += 128;
		dst += 128;
		len -= 128;
	}
	if (len) {
		size_t n = (len + 15) / 16;
		u8 ks[128];

		for (i = 0; i < (int)n; i++) {
			b[i] = _mm_shuffle_epi8(_mm_set_epi64x((long long)hi, (long long)lo), bswap);
			lo++;
			hi += !lo;
		}
		for (; i < 8; i++)
			b[i] = _mm_setzero_si128();
		aesni_enc8(ctx, b);
		for (i = 0; i < (int)n; i++)
			_mm_storeu_si128((__m128i *)(ks + 16 * i), b[i]);
		crypto_xor_cpy(dst, src, ks, len);
		memzero_explicit(ks, sizeof(ks));
	}
	put_unaligned_be64(hi, iv);
	put_unaligned_be64(lo, iv + 8);
}

/* The cipher, the ECB/CBC/CTR request glue and the algs: <crypto/aes-glue.h>. */
AES_GLUE_DEFINE_ALGS(aesni, struct aesni_ctx, "aes-aesni", 300, "aesni", 400, "x86");

static int aesni_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_AESNI) || !rind_cpu_has(RIND_X86_SSSE3))
		return 0;
	return aes_glue_register(&aesni_cipher_alg, aesni_skciphers,
				 ARRAY_SIZE(aesni_skciphers));
}
module_init(aesni_mod_init);
