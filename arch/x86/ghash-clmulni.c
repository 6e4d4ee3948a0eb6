// SPDX-License-Identifier: MIT
/*
 * ghash-clmulni: the "ghash" shash with PCLMULQDQ.
 * CPU features: PCLMULQDQ, SSSE3.
 *
 * Same interface as ghash-generic (16-byte key H, 16-byte digest, a
 * trailing partial block padded with zeros).  Blocks are byte-reversed
 * into registers (the bit-reflected form), H is kept multiplied by x^-1
 * so that the reflected carry-less product needs no shift, four blocks
 * are multiplied by H^4 .. H^1 and reduced once, and the reduction uses
 * two carry-less multiplications by 0xc2 << 56.
 */
#include <immintrin.h>
#include <rind/internal/hash.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>

#define TGT __attribute__((target("pclmul,ssse3")))
#define INL static inline __attribute__((always_inline)) TGT

struct ghash_clmul_key {
	__m128i hpow[4];	/* hpow[i] = H^(i+1) * x^-1, reflected */
};

struct ghash_clmul_desc {
	u8 acc[16];		/* Y, reflected (byte-reversed) */
	u8 buf[16];
	unsigned int bytes;
};

INL __m128i bswap128(__m128i x)
{
	return _mm_shuffle_epi8(x, _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8,
						 7, 6, 5, 4, 3, 2, 1, 0));
}

INL void clmul_acc(__m128i a, __m128i h, __m128i *lo, __m128i *mi, __m128i *hi)
{
	*lo = _mm_xor_si128(*lo, _mm_clmulepi64_si128(a, h, 0x00));
	*mi = _mm_xor_si128(*mi, _mm_xor_si128(_mm_clmulepi64_si128(a, h, 0x01),
					       _mm_clmulepi64_si128(a, h, 0x10)));
	*hi = _mm_xor_si128(*hi, _mm_clmulepi64_si128(a, h, 0x11));
}

INL __m128i ghash_reduce(__m128i lo, __m128i mi, __m128i hi)
{
	const __m128i c = _mm_set_epi64x(0, (long long)0xc200000000000000ULL);

	mi = _mm_xor_si128(mi, _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e),
					     _mm_clmulepi64_si128(lo, c, 0x00)));
	return _mm_xor_si128(hi, _mm_xor_si128(_mm_shuffle_epi32(mi, 0x4e),
					       _mm_clmulepi64_si128(mi, c, 0x00)));
}

INL __m128i ghash_mul(__m128i a, __m128i hx)
{
	__m128i lo = _mm_setzero_si128(), mi = lo, hi = lo;

	clmul_acc(a, hx, &lo, &mi, &hi);
	return ghash_reduce(lo, mi, hi);
}

TGT static void ghash_clmul_blocks(const struct ghash_clmul_key *key, u8 accb[16],
				   const u8 *src, size_t nblocks)
{
	__m128i acc = _mm_loadu_si128((const __m128i *)accb);

	while (nblocks >= 4) {
		__m128i lo = _mm_setzero_si128(), mi = lo, hi = lo;

		clmul_acc(_mm_xor_si128(acc, bswap128(_mm_loadu_si128((const __m128i *)src))),
			  key->hpow[3], &lo, &mi, &hi);
		clmul_acc(bswap128(_mm_loadu_si128((const __m128i *)(src + 16))), key->hpow[2],
			  &lo, &mi, &hi);
		clmul_acc(bswap128(_mm_loadu_si128((const __m128i *)(src + 32))), key->hpow[1],
			  &lo, &mi, &hi);
		clmul_acc(bswap128(_mm_loadu_si128((const __m128i *)(src + 48))), key->hpow[0],
			  &lo, &mi, &hi);
		acc = ghash_reduce(lo, mi, hi);
		src += 64;
		nblocks -= 4;
	}
	while (nblocks--) {
		acc = ghash_mul(_mm_xor_si128(acc, bswap128(_mm_loadu_si128((const __m128i *)src))),
				key->hpow[0]);
		src += 16;
	}
	_mm_storeu_si128((__m128i *)accb, acc);
}

TGT static int ghash_clmul_setkey(struct crypto_shash *tfm, const u8 *key, unsigned int keylen)
{
	struct ghash_clmul_key *ctx = crypto_shash_ctx(tfm);
	u64 hi, lo, m;
	int i;

	if (keylen != 16)
		return -EINVAL;
	hi = get_unaligned_be64(key);
	lo = get_unaligned_be64(key + 8);
	/* H * x^-1: shift left (reflected), folding x^-1 = x^127 + x^6 + x + 1 */
	m = 0 - (hi >> 63);
	hi = (hi << 1) ^ (lo >> 63) ^ (m & 0xc200000000000000ULL);
	lo = (lo << 1) ^ (m & 1);
	ctx->hpow[0] = _mm_set_epi64x((long long)hi, (long long)lo);
	for (i = 1; i < 4; i++)
		ctx->hpow[i] = ghash_mul(ctx->hpow[i - 1], ctx->hpow[0]);
	return 0;
}

static int ghash_clmul_init(struct shash_desc *desc)
{
	memset(shash_desc_ctx(desc), 0, sizeof(struct ghash_clmul_desc));
	return 0;
}

static int ghash_clmul_update(struct shash_desc *desc, const u8 *src, unsigned int len)
{
	const struct ghash_clmul_key *key = crypto_shash_ctx(desc->tfm);
	struct ghash_clmul_desc *d = shash_desc_ctx(desc);
	unsigned int n;

	if (d->bytes) {
		n = min(len, 16 - d->bytes);
		memcpy(d->buf + d->bytes, src, n);
		d->bytes += n;
		src += n;
		len -= n;
		if (d->bytes < 16)
			return 0;
		ghash_clmul_blocks(key, d->acc, d->buf, 1);
		d->bytes = 0;
	}
	ghash_clmul_blocks(key, d->acc, src, len / 16);
	src += len & ~15u;
	len %= 16;
	if (len) {
		memcpy(d->buf, src, len);
		d->bytes = len;
	}
	return 0;
}

TGT static int ghash_clmul_final(struct shash_desc *desc, u8 *out)
{
	const struct ghash_clmul_key *key = crypto_shash_ctx(desc->tfm);
	struct ghash_clmul_desc *d = shash_desc_ctx(desc);

	if (d->bytes) {
		memset(d->buf + d->bytes, 0, 16 - d->bytes);
		ghash_clmul_blocks(key, d->acc, d->buf, 1);
	}
	_mm_storeu_si128((__m128i *)out, bswap128(_mm_loadu_si128((const __m128i *)d->acc)));
	memzero_explicit(d, sizeof(*d));
	return 0;
}

static struct shash_alg ghash_clmul_alg = {
	.init		= ghash_clmul_init,
	.update		= ghash_clmul_update,
	.final		= ghash_clmul_final,
	.setkey		= ghash_clmul_setkey,
	.descsize	= sizeof(struct ghash_clmul_desc),
	.digestsize	= 16,
	.base = {
		.cra_name		= "ghash",
		.cra_driver_name	= "ghash-clmulni",
		.cra_priority		= 400,
		.cra_blocksize		= 16,
		.cra_ctxsize		= sizeof(struct ghash_clmul_key),
		.cra_module		= "x86",
	},
};

/* Its known-answer tests are the "ghash" ones of algs/ghash.c. */
static int ghash_clmulni_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_PCLMULQDQ) || !rind_cpu_has(RIND_X86_SSSE3))
		return 0;
	return crypto_register_shash(&ghash_clmul_alg);
}
module_init(ghash_clmulni_mod_init);
