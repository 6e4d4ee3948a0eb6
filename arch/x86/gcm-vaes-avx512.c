// SPDX-License-Identifier: MIT
/*
 * gcm-aes-vaes-avx512: AES-GCM with VAES and VPCLMULQDQ on 512-bit
 * registers (four blocks per register).
 * CPU features: AES-NI, PCLMULQDQ, AVX2, AVX512F, AVX512VL, AVX512BW, VAES,
 * VPCLMULQDQ.
 *
 * Sixteen blocks (four registers) are encrypted per loop iteration with
 * GHASH of sixteen ciphertext blocks stitched between the AES rounds; the
 * sixteen products by H^16 .. H^1 are summed before one reduction per
 * 128-bit lane, and the four lanes are then added.  The last 1..255 bytes
 * go through masked loads and stores, the tail's blocks multiplied by the
 * powers that make them line up with the end of the message.
 *
 * GHASH representation as in gcm-aesni.c: blocks byte-reversed (bit
 * reflected), powers of H stored times x^-1, reduction by two carry-less
 * multiplications with 0xc2 << 56.
 */
#include <immintrin.h>
#include <rind/internal/aead.h>
#include <rind/internal/util.h>
#include "gcm-glue.h"
#include "x86-target.h"

#define TGT RIND_AVX512_TARGET("aes,pclmul,ssse3,avx2,avx512f,avx512vl,avx512bw,vaes,vpclmulqdq", \
			   "aes,pclmul,ssse3,avx2")
#define INL static inline __attribute__((always_inline)) TGT

struct gcm_vaes_ctx {
	__m512i rkz[15];	/* round keys, each broadcast to the four lanes */
	/*
	 * hpow[i] = H^(16-i) * x^-1 (reflected) for i < 16, so that sixteen
	 * consecutive blocks line up with hpow[0..15]; four zero entries
	 * follow for the tail's shifted loads.
	 */
	__m128i hpow[20];
	unsigned int rounds;
};

#define XOR3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)

INL __m512i bswap512(__m512i x)
{
	return _mm512_shuffle_epi8(x, _mm512_broadcast_i32x4(
		_mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)));
}

/* ---- AES ---- */

INL __m128i aes_block(const struct gcm_vaes_ctx *ctx, __m128i x)
{
	unsigned int r;

	x = _mm_xor_si128(x, _mm512_castsi512_si128(ctx->rkz[0]));
	for (r = 1; r < ctx->rounds; r++)
		x = _mm_aesenc_si128(x, _mm512_castsi512_si128(ctx->rkz[r]));
	return _mm_aesenclast_si128(x, _mm512_castsi512_si128(ctx->rkz[ctx->rounds]));
}

/* ---- GHASH ---- */

INL void clmul_acc(__m512i a, __m512i h, __m512i *lo, __m512i *mi, __m512i *hi)
{
	*lo = _mm512_xor_si512(*lo, _mm512_clmulepi64_epi128(a, h, 0x00));
	*mi = XOR3(*mi, _mm512_clmulepi64_epi128(a, h, 0x01), _mm512_clmulepi64_epi128(a, h, 0x10));
	*hi = _mm512_xor_si512(*hi, _mm512_clmulepi64_epi128(a, h, 0x11));
}

/* Reduce each lane, then add the four lanes. */
INL __m128i ghash_reduce(__m512i lo, __m512i mi, __m512i hi)
{
	const __m512i c = _mm512_set1_epi64((long long)0xc200000000000000ULL);
	__m256i y;
	__m128i x;

	mi = XOR3(mi, _mm512_shuffle_epi32(lo, 0x4e), _mm512_clmulepi64_epi128(lo, c, 0x00));
	hi = XOR3(hi, _mm512_shuffle_epi32(mi, 0x4e), _mm512_clmulepi64_epi128(mi, c, 0x00));
	y = _mm256_xor_si256(_mm512_castsi512_si256(hi), _mm512_extracti64x4_epi64(hi, 1));
	x = _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
	return x;
}

INL __m512i hpow4(const struct gcm_vaes_ctx *ctx, unsigned int i)
{
	return _mm512_loadu_si512((const void *)&ctx->hpow[i]);
}

INL __mmask64 tail_mask(size_t bytes)
{
	return bytes >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << bytes) - 1);
}

/*
 * Hash the zero-padded tail x[0..nv-1] (n16 blocks in all, 1..16) so that
 * its last block meets H^1.
 */
INL __m128i ghash_tail(const struct gcm_vaes_ctx *ctx, __m128i acc, const __m512i *x,
		       unsigned int n16)
{
	__m512i lo = _mm512_setzero_si512(), mi = lo, hi = lo;
	unsigned int nv = (n16 + 3) / 4, v, base = 16 - n16;

	clmul_acc(_mm512_xor_si512(x[0], _mm512_zextsi128_si512(acc)), hpow4(ctx, base),
		  &lo, &mi, &hi);
	for (v = 1; v < nv; v++)
		clmul_acc(x[v], hpow4(ctx, base + 4 * v), &lo, &mi, &hi);
	return ghash_reduce(lo, mi, hi);
}

/* Hash @len bytes, the last partial block padded with zeros. */
TGT static __m128i ghash_pad(const struct gcm_vaes_ctx *ctx, __m128i acc, const u8 *p,
			     size_t len)
{
	__m512i x[4];
	unsigned int v;

	while (len >= 256) {
		__m512i lo = _mm512_setzero_si512(), mi = lo, hi = lo;

		x[0] = _mm512_xor_si512(bswap512(_mm512_loadu_si512((const void *)p)),
					_mm512_zextsi128_si512(acc));
		clmul_acc(x[0], hpow4(ctx, 0), &lo, &mi, &hi);
		for (v = 1; v < 4; v++)
			clmul_acc(bswap512(_mm512_loadu_si512((const void *)(p + 64 * v))),
				  hpow4(ctx, 4 * v), &lo, &mi, &hi);
		acc = ghash_reduce(lo, mi, hi);
		p += 256;
		len -= 256;
	}
	if (len) {
		unsigned int n16 = (unsigned int)((len + 15) / 16), nv = (n16 + 3) / 4;

		/*
		 * Only registers holding message bytes are loaded: a masked
		 * load whose masked-off bytes reach a page that is not mapped
		 * is very slow (fault suppression).
		 */
		for (v = 0; v < nv; v++) {
			size_t off = 64 * v;

			x[v] = bswap512(_mm512_maskz_loadu_epi8(tail_mask(len - off),
								(const void *)(p + off)));
		}
		acc = ghash_tail(ctx, acc, x, n16);
	}
	return acc;
}

/* ---- GCM ---- */

#define ENC4(k)							\
	do {								\
		b0 = _mm512_aesenc_epi128(b0, (k));			\
		b1 = _mm512_aesenc_epi128(b1, (k));			\
		b2 = _mm512_aesenc_epi128(b2, (k));			\
		b3 = _mm512_aesenc_epi128(b3, (k));			\
	} while (0)

/*
 * Encrypt or decrypt @len bytes from @src to @dst (which may be equal),
 * hashing the ciphertext into @acc; @j0 is the reversed J0.  (A 512-bit
 * argument would make the compiler skip VZEROUPPER on some of the exits.)
 */
TGT static __m128i gcm_vaes_ctr_ghash(const struct gcm_vaes_ctx *ctx, u8 *dst,
				      const u8 *src, size_t len, __m128i j0,
				      __m128i acc, bool enc)
{
	const unsigned int rounds = ctx->rounds;
	const __m512i four = _mm512_broadcast_i32x4(_mm_set_epi32(0, 0, 0, 4));
	const __m512i rk0 = ctx->rkz[0];
	bool pending = false;	/* enc: the previous group is still to hash */
	__m512i ctr = _mm512_add_epi32(_mm512_broadcast_i32x4(j0),
				       _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 3,
							0, 0, 0, 2, 0, 0, 0, 1));
	unsigned int r, v;

	while (len >= 256) {
		__m512i b0, b1, b2, b3, x0, x1, x2, x3;
		__m512i lo = _mm512_setzero_si512(), mi = lo, hi = lo;
		const u8 *gp = enc ? dst - 256 : src;
		bool hash = !enc || pending;

		b0 = _mm512_xor_si512(bswap512(ctr), rk0);
		ctr = _mm512_add_epi32(ctr, four);
		b1 = _mm512_xor_si512(bswap512(ctr), rk0);
		ctr = _mm512_add_epi32(ctr, four);
		b2 = _mm512_xor_si512(bswap512(ctr), rk0);
		ctr = _mm512_add_epi32(ctr, four);
		b3 = _mm512_xor_si512(bswap512(ctr), rk0);
		ctr = _mm512_add_epi32(ctr, four);

		if (hash) {
			x0 = bswap512(_mm512_loadu_si512((const void *)gp));
			x1 = bswap512(_mm512_loadu_si512((const void *)(gp + 64)));
			x2 = bswap512(_mm512_loadu_si512((const void *)(gp + 128)));
			x3 = bswap512(_mm512_loadu_si512((const void *)(gp + 192)));
			x0 = _mm512_xor_si512(x0, _mm512_zextsi128_si512(acc));
			ENC4(ctx->rkz[1]);
			clmul_acc(x0, hpow4(ctx, 0), &lo, &mi, &hi);
			ENC4(ctx->rkz[2]);
			clmul_acc(x1, hpow4(ctx, 4), &lo, &mi, &hi);
			ENC4(ctx->rkz[3]);
			clmul_acc(x2, hpow4(ctx, 8), &lo, &mi, &hi);
			ENC4(ctx->rkz[4]);
			clmul_acc(x3, hpow4(ctx, 12), &lo, &mi, &hi);
			ENC4(ctx->rkz[5]);
			acc = ghash_reduce(lo, mi, hi);
		} else {
			ENC4(ctx->rkz[1]);
			ENC4(ctx->rkz[2]);
			ENC4(ctx->rkz[3]);
			ENC4(ctx->rkz[4]);
			ENC4(ctx->rkz[5]);
		}
		for (r = 6; r < rounds; r++)
			ENC4(ctx->rkz[r]);
		{
			const __m512i k = ctx->rkz[rounds];

			b0 = _mm512_aesenclast_epi128(b0, k);
			b1 = _mm512_aesenclast_epi128(b1, k);
			b2 = _mm512_aesenclast_epi128(b2, k);
			b3 = _mm512_aesenclast_epi128(b3, k);
		}
		b0 = _mm512_xor_si512(b0, _mm512_loadu_si512((const void *)src));
		b1 = _mm512_xor_si512(b1, _mm512_loadu_si512((const void *)(src + 64)));
		b2 = _mm512_xor_si512(b2, _mm512_loadu_si512((const void *)(src + 128)));
		b3 = _mm512_xor_si512(b3, _mm512_loadu_si512((const void *)(src + 192)));
		_mm512_storeu_si512((void *)dst, b0);
		_mm512_storeu_si512((void *)(dst + 64), b1);
		_mm512_storeu_si512((void *)(dst + 128), b2);
		_mm512_storeu_si512((void *)(dst + 192), b3);
		pending = enc;
		src += 256;
		dst += 256;
		len -= 256;
	}
	if (pending)
		acc = ghash_pad(ctx, acc, dst - 256, 256);

	if (len) {
		/* 1..255 bytes: up to four registers, masked. */
		unsigned int n16 = (unsigned int)((len + 15) / 16);
		unsigned int nv = (n16 + 3) / 4;
		__m512i b[4], x[4];

		for (v = 0; v < 4; v++) {
			b[v] = _mm512_xor_si512(bswap512(ctr), rk0);
			ctr = _mm512_add_epi32(ctr, four);
		}
		/* only the registers that hold message bytes */
		for (r = 1; r < rounds; r++) {
			const __m512i k = ctx->rkz[r];

			b[0] = _mm512_aesenc_epi128(b[0], k);
			if (nv > 1)
				b[1] = _mm512_aesenc_epi128(b[1], k);
			if (nv > 2)
				b[2] = _mm512_aesenc_epi128(b[2], k);
			if (nv > 3)
				b[3] = _mm512_aesenc_epi128(b[3], k);
		}
		for (v = 0; v < nv; v++) {
			size_t off = 64 * v;
			__mmask64 m = tail_mask(len - off);
			__m512i in = _mm512_maskz_loadu_epi8(m, (const void *)(src + off));
			__m512i out = _mm512_xor_si512(_mm512_aesenclast_epi128(b[v], ctx->rkz[rounds]), in);

			_mm512_mask_storeu_epi8((void *)(dst + off), m, out);
			x[v] = bswap512(enc ? _mm512_maskz_mov_epi8(m, out) : in);
		}
		acc = ghash_tail(ctx, acc, x, n16);
	}
	return acc;
}

/* The whole of GCM over contiguous buffers (gcm_glue_core_fn). */
GCM_GLUE_DEFINE_CORE(gcm_vaes, struct gcm_vaes_ctx, (const __m128i *)ctx->rkz, 4, &ctx->hpow[15],
		     -1, ctx->hpow[15], j0, TGT);

TGT static int gcm_vaes_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int keylen)
{
	struct gcm_vaes_ctx *ctx = crypto_aead_ctx(tfm);
	__m128i rk[AES_MAX_ROUND_KEYS];
	int nr = aesni_expand_key(rk, key, keylen), i;

	if (nr < 0)
		return nr;
	for (i = 0; i <= nr; i++)
		ctx->rkz[i] = _mm512_broadcast_i32x4(rk[i]);
	ctx->rounds = (unsigned int)nr;
	ctx->hpow[15] = gcm_ghash_hxinv(gcm_bswap128(aes_block(ctx, _mm_setzero_si128())));
	gcm_ghash_powers(ctx->hpow, 16, true);
	for (i = 16; i < 20; i++)
		ctx->hpow[i] = _mm_setzero_si128();
	memzero_explicit(rk, sizeof(rk));
	return 0;
}

GCM_GLUE_DEFINE_ALG(gcm_vaes, struct gcm_vaes_ctx, "gcm-aes-vaes-avx512", 800, "x86", TGT);

/* Its known-answer tests are the "gcm(aes)" ones of algs/gcm.c. */
static int gcm_vaes_avx512_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_AESNI) || !rind_cpu_has(RIND_X86_PCLMULQDQ) ||
	    !rind_cpu_has(RIND_X86_AVX2) || !rind_cpu_has(RIND_X86_AVX512F) ||
	    !rind_cpu_has(RIND_X86_AVX512VL) || !rind_cpu_has(RIND_X86_AVX512BW) ||
	    !rind_cpu_has(RIND_X86_VAES) || !rind_cpu_has(RIND_X86_VPCLMULQDQ))
		return 0;
	return crypto_register_aead(&gcm_vaes_alg);
}
module_init(gcm_vaes_avx512_mod_init);
