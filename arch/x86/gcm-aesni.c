// SPDX-License-Identifier: MIT
/*
 * gcm-aes-aesni: AES-GCM with AES-NI and PCLMULQDQ on xmm registers.
 * CPU features: AES-NI, PCLMULQDQ, SSSE3.
 *
 * Counter mode runs eight blocks at a time, each AES round applied to all
 * eight before the next, and GHASH is stitched into the same loop: while
 * the keystream of one group is made, the ciphertext of the previous group
 * (encryption) or of the same group (decryption) is hashed.  The eight
 * blocks of a group are multiplied by H^8 .. H^1 and summed before a
 * single reduction (aggregated reduction).
 *
 * GHASH representation: a block is byte-reversed into a register, which
 * makes it the bit-reflected polynomial (bit 127 = x^0).  The powers of H
 * are stored multiplied by x^-1, which absorbs the one-bit shift that the
 * carry-less product of reflected operands needs; the 256-bit product is
 * then reduced by x^128 = x^7 + x^2 + x + 1 with two carry-less
 * multiplications by the reflected constant 0xc2 << 56.
 */
#include <immintrin.h>
#include <rind/internal/aead.h>
#include <rind/internal/util.h>
#include "gcm-glue.h"

#define TGT __attribute__((target("aes,pclmul,ssse3")))
#define INL static inline __attribute__((always_inline)) TGT

struct gcm_aesni_ctx {
	__m128i rk[AES_MAX_ROUND_KEYS];
	__m128i hpow[8];	/* hpow[i] = H^(i+1) * x^-1, reflected */
	unsigned int rounds;
};

/* ---- AES ---- */

INL __m128i aes_block(const struct gcm_aesni_ctx *ctx, __m128i x)
{
	unsigned int r;

	x = _mm_xor_si128(x, ctx->rk[0]);
	for (r = 1; r < ctx->rounds; r++)
		x = _mm_aesenc_si128(x, ctx->rk[r]);
	return _mm_aesenclast_si128(x, ctx->rk[ctx->rounds]);
}

/* ---- GHASH ---- */

INL void clmul_acc(__m128i a, __m128i h, __m128i *lo, __m128i *mi, __m128i *hi)
{
	*lo = _mm_xor_si128(*lo, _mm_clmulepi64_si128(a, h, 0x00));
	*mi = _mm_xor_si128(*mi, _mm_xor_si128(_mm_clmulepi64_si128(a, h, 0x01),
					       _mm_clmulepi64_si128(a, h, 0x10)));
	*hi = _mm_xor_si128(*hi, _mm_clmulepi64_si128(a, h, 0x11));
}

/* Reduce hi*x^128 + mi*x^64 + lo (reflected) modulo the GCM polynomial. */
INL __m128i ghash_reduce(__m128i lo, __m128i mi, __m128i hi)
{
	const __m128i c = _mm_set_epi64x(0, (long long)0xc200000000000000ULL);

	mi = _mm_xor_si128(mi, _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e),
					     _mm_clmulepi64_si128(lo, c, 0x00)));
	hi = _mm_xor_si128(hi, _mm_xor_si128(_mm_shuffle_epi32(mi, 0x4e),
					     _mm_clmulepi64_si128(mi, c, 0x00)));
	return hi;
}

/* acc = (acc ^ X0) H^n + X1 H^(n-1) + ... + X(n-1) H, 1 <= n <= 8; X already reversed */
INL __m128i ghash_n(const struct gcm_aesni_ctx *ctx, __m128i acc, const __m128i *x,
		    unsigned int n)
{
	__m128i lo = _mm_setzero_si128(), mi = lo, hi = lo;
	unsigned int j;

	clmul_acc(_mm_xor_si128(acc, x[0]), ctx->hpow[n - 1], &lo, &mi, &hi);
	for (j = 1; j < n; j++)
		clmul_acc(x[j], ctx->hpow[n - 1 - j], &lo, &mi, &hi);
	return ghash_reduce(lo, mi, hi);
}

/* Hash @len bytes, the last partial block padded with zeros. */
TGT static __m128i ghash_pad(const struct gcm_aesni_ctx *ctx, __m128i acc, const u8 *p,
			     size_t len)
{
	__m128i x[8];
	unsigned int j, n;

	while (len >= 128) {
		for (j = 0; j < 8; j++)
			x[j] = gcm_bswap128(_mm_loadu_si128((const __m128i *)(p + 16 * j)));
		acc = ghash_n(ctx, acc, x, 8);
		p += 128;
		len -= 128;
	}
	if (len) {
		n = (unsigned int)((len + 15) / 16);
		for (j = 0; j + 1 < n; j++)
			x[j] = gcm_bswap128(_mm_loadu_si128((const __m128i *)(p + 16 * j)));
		x[j] = gcm_bswap128(gcm_load_partial(p + 16 * j, (unsigned int)(len - 16 * j)));
		acc = ghash_n(ctx, acc, x, n);
	}
	return acc;
}

/* ---- GCM ---- */

/* Counter blocks are kept byte-reversed, so the 32-bit counter is lane 0. */
#define CTR_ONE _mm_set_epi32(0, 0, 0, 1)

#define B8(OP) OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7)
#define CTR8(i) b##i = _mm_xor_si128(gcm_bswap128(ctr), rk0); ctr = _mm_add_epi32(ctr, CTR_ONE);
#define ENC8(i) b##i = _mm_aesenc_si128(b##i, k);

/* One AES round on all eight blocks plus the GHASH product of one block. */
#define ROUND_HASH(r, x)						\
	do {								\
		k = ctx->rk[r];						\
		B8(ENC8)						\
		clmul_acc((x), ctx->hpow[8 - (r)], &lo, &mi, &hi);	\
	} while (0)
#define GBLK(i) gcm_bswap128(_mm_loadu_si128((const __m128i *)(gp + 16 * (i))))

/*
 * Encrypt or decrypt @len bytes from @src to @dst (which may be equal),
 * hashing the ciphertext into @acc; @ctr is the reversed J0 + 1.
 */
TGT static __m128i gcm_aesni_ctr_ghash(const struct gcm_aesni_ctx *ctx, u8 *dst,
				       const u8 *src, size_t len, __m128i ctr,
				       __m128i acc, bool enc)
{
	const unsigned int rounds = ctx->rounds;
	const __m128i rk0 = ctx->rk[0];
	__m128i b[8], c[8];
	bool hashed_all = true;
	unsigned int j, r, n;

	while (len >= 128) {
		__m128i b0, b1, b2, b3, b4, b5, b6, b7, k;
		/* ciphertext to hash: the previous group's output, or this input */
		const u8 *gp = enc ? dst - 128 : src;

		B8(CTR8)
		if (!enc || !hashed_all) {
			__m128i lo = _mm_setzero_si128(), mi = lo, hi = lo;

			ROUND_HASH(1, _mm_xor_si128(acc, GBLK(0)));
			ROUND_HASH(2, GBLK(1));
			ROUND_HASH(3, GBLK(2));
			ROUND_HASH(4, GBLK(3));
			ROUND_HASH(5, GBLK(4));
			ROUND_HASH(6, GBLK(5));
			ROUND_HASH(7, GBLK(6));
			ROUND_HASH(8, GBLK(7));
			acc = ghash_reduce(lo, mi, hi);
		} else {
			for (r = 1; r <= 8; r++) {
				k = ctx->rk[r];
				B8(ENC8)
			}
		}
		for (r = 9; r < rounds; r++) {
			k = ctx->rk[r];
			B8(ENC8)
		}
		k = ctx->rk[rounds];
#define LAST8(i)								\
		b##i = _mm_xor_si128(_mm_aesenclast_si128(b##i, k),		\
				     _mm_loadu_si128((const __m128i *)(src + 16 * i))); \
		_mm_storeu_si128((__m128i *)(dst + 16 * i), b##i);
		B8(LAST8)
#undef LAST8
		hashed_all = !enc;
		src += 128;
		dst += 128;
		len -= 128;
	}
	if (!hashed_all) {
		const u8 *gp = dst - 128;

		for (j = 0; j < 8; j++)
			c[j] = GBLK(j);
		acc = ghash_n(ctx, acc, c, 8);
	}

	if (len) {
		/* The last 1..8 blocks, the final one possibly partial (read and written in pieces). */
		unsigned int last;

		n = (unsigned int)((len + 15) / 16);
		last = (unsigned int)(len - 16 * (n - 1));
		for (j = 0; j < n; j++) {
			b[j] = _mm_xor_si128(gcm_bswap128(ctr), rk0);
			ctr = _mm_add_epi32(ctr, CTR_ONE);
		}
		for (r = 1; r < rounds; r++) {
			__m128i k = ctx->rk[r];

			for (j = 0; j < n; j++)
				b[j] = _mm_aesenc_si128(b[j], k);
		}
		for (j = 0; j < n; j++) {
			bool full = j + 1 < n || last == 16;
			__m128i in = full ? _mm_loadu_si128((const __m128i *)(src + 16 * j)) :
					    gcm_load_partial(src + 16 * j, last);

			b[j] = _mm_xor_si128(_mm_aesenclast_si128(b[j], ctx->rk[rounds]), in);
			if (full) {
				_mm_storeu_si128((__m128i *)(dst + 16 * j), b[j]);
			} else {
				gcm_store_partial(dst + 16 * j, b[j], last);
				/* the ciphertext with the bytes past the end zeroed */
				b[j] = _mm_and_si128(b[j], _mm_loadu_si128((const __m128i *)
							(gcm_glue_keep + 16 - last)));
			}
			c[j] = gcm_bswap128(enc ? b[j] : in);
		}
		acc = ghash_n(ctx, acc, c, n);
	}
	return acc;
}

/* The whole of GCM over contiguous buffers (gcm_glue_core_fn). */
GCM_GLUE_DEFINE_CORE(gcm_aesni, struct gcm_aesni_ctx, ctx->rk, 1, &ctx->hpow[0], 1, ctx->hpow[0],
		     _mm_add_epi32(j0, CTR_ONE), TGT);

TGT static int gcm_aesni_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int keylen)
{
	struct gcm_aesni_ctx *ctx = crypto_aead_ctx(tfm);
	int nr;

	/* A wrong key length is refused before the context is touched. */
	nr = aesni_expand_key(ctx->rk, key, keylen);
	if (nr < 0)
		return nr;
	ctx->rounds = (unsigned int)nr;
	ctx->hpow[0] = gcm_ghash_hxinv(gcm_bswap128(aes_block(ctx, _mm_setzero_si128())));
	gcm_ghash_powers(ctx->hpow, 8, false);
	return 0;
}

GCM_GLUE_DEFINE_ALG(gcm_aesni, struct gcm_aesni_ctx, "gcm-aes-aesni", 400, "x86", TGT);

/* Its known-answer tests are the "gcm(aes)" ones of algs/gcm.c. */
static int gcm_aesni_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_AESNI) || !rind_cpu_has(RIND_X86_PCLMULQDQ) ||
	    !rind_cpu_has(RIND_X86_SSSE3))
		return 0;
	return crypto_register_aead(&gcm_aesni_alg);
}
module_init(gcm_aesni_mod_init);
