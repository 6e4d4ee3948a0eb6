// SPDX-License-Identifier: MIT
/*
 * gcm-aes-vaes-avx2: AES-GCM with VAES and VPCLMULQDQ on 256-bit
 * registers (two blocks per register), for CPUs without AVX-512.
 * CPU features: AES-NI, PCLMULQDQ, AVX, AVX2, VAES, VPCLMULQDQ.
 *
 * Eight blocks (four registers) per loop iteration, GHASH of eight
 * ciphertext blocks stitched between the AES rounds, the products by
 * H^8 .. H^1 summed before one reduction per 128-bit lane and the two lanes
 * then added.  The last 1..127 bytes go through a zero-padded stack buffer.
 *
 * GHASH representation as in gcm-aesni.c: blocks byte-reversed (bit
 * reflected), powers of H stored times x^-1, reduction by two carry-less
 * multiplications with 0xc2 << 56.
 */
#include <immintrin.h>
#include <limits.h>
#include <rind/internal/aead.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>

#define TGT __attribute__((target("aes,pclmul,ssse3,avx,avx2,vaes,vpclmulqdq")))
#define INL static inline __attribute__((always_inline)) TGT

struct gcm_vaes2_ctx {
	__m256i rky[15];	/* round keys, each in both lanes */
	/*
	 * hpow[i] = H^(8-i) * x^-1 (reflected) for i < 8, so that eight
	 * consecutive blocks line up with hpow[0..7]; zero entries follow for
	 * the tail's shifted loads.
	 */
	__m128i hpow[10];
	unsigned int rounds;
};

INL __m128i bswap128(__m128i x)
{
	return _mm_shuffle_epi8(x, _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8,
						 7, 6, 5, 4, 3, 2, 1, 0));
}

INL __m256i bswap256(__m256i x)
{
	return _mm256_shuffle_epi8(x, _mm256_broadcastsi128_si256(
		_mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)));
}

INL __m256i xor3(__m256i a, __m256i b, __m256i c)
{
	return _mm256_xor_si256(a, _mm256_xor_si256(b, c));
}

/* ---- AES ---- */

TGT static u32 vaes2_subword(u32 w)
{
	__m128i x = _mm_shuffle_epi32(_mm_cvtsi32_si128((int)w), 0);

	return (u32)_mm_cvtsi128_si32(_mm_aeskeygenassist_si128(x, 0));
}

/* FIPS 197 key expansion, SubWord by AESKEYGENASSIST (no tables). */
TGT static int vaes2_expandkey(__m128i *rk, unsigned int *rounds, const u8 *key,
			       unsigned int keylen)
{
	u32 w[60], t, rc = 1;
	unsigned int nk = keylen / 4, total, i;

	if (keylen != 16 && keylen != 24 && keylen != 32)
		return -EINVAL;
	*rounds = nk + 6;
	total = 4 * (*rounds + 1);
	for (i = 0; i < nk; i++)
		w[i] = get_unaligned_le32(key + 4 * i);
	for (i = nk; i < total; i++) {
		t = w[i - 1];
		if (i % nk == 0) {
			t = vaes2_subword(ror32(t, 8)) ^ rc;
			rc = (rc << 1) ^ ((rc >> 7) * 0x11b);
		} else if (nk > 6 && i % nk == 4) {
			t = vaes2_subword(t);
		}
		w[i] = w[i - nk] ^ t;
	}
	for (i = 0; i <= *rounds; i++)
		rk[i] = _mm_set_epi32((int)w[4 * i + 3], (int)w[4 * i + 2],
				      (int)w[4 * i + 1], (int)w[4 * i]);
	memzero_explicit(w, sizeof(w));
	return 0;
}

INL __m128i aes_block(const struct gcm_vaes2_ctx *ctx, __m128i x)
{
	unsigned int r;

	x = _mm_xor_si128(x, _mm256_castsi256_si128(ctx->rky[0]));
	for (r = 1; r < ctx->rounds; r++)
		x = _mm_aesenc_si128(x, _mm256_castsi256_si128(ctx->rky[r]));
	return _mm_aesenclast_si128(x, _mm256_castsi256_si128(ctx->rky[ctx->rounds]));
}

/* ---- GHASH ---- */

INL __m128i ghash_mul128(__m128i a, __m128i hx)
{
	const __m128i c = _mm_set_epi64x(0, (long long)0xc200000000000000ULL);
	__m128i lo, mi, hi;

	lo = _mm_clmulepi64_si128(a, hx, 0x00);
	mi = _mm_xor_si128(_mm_clmulepi64_si128(a, hx, 0x01), _mm_clmulepi64_si128(a, hx, 0x10));
	hi = _mm_clmulepi64_si128(a, hx, 0x11);
	mi = _mm_xor_si128(mi, _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e),
					     _mm_clmulepi64_si128(lo, c, 0x00)));
	return _mm_xor_si128(hi, _mm_xor_si128(_mm_shuffle_epi32(mi, 0x4e),
					       _mm_clmulepi64_si128(mi, c, 0x00)));
}

INL void clmul_acc(__m256i a, __m256i h, __m256i *lo, __m256i *mi, __m256i *hi)
{
	*lo = _mm256_xor_si256(*lo, _mm256_clmulepi64_epi128(a, h, 0x00));
	*mi = xor3(*mi, _mm256_clmulepi64_epi128(a, h, 0x01), _mm256_clmulepi64_epi128(a, h, 0x10));
	*hi = _mm256_xor_si256(*hi, _mm256_clmulepi64_epi128(a, h, 0x11));
}

/* Reduce each lane, then add the two lanes. */
INL __m128i ghash_reduce(__m256i lo, __m256i mi, __m256i hi)
{
	const __m256i c = _mm256_set1_epi64x((long long)0xc200000000000000ULL);

	mi = xor3(mi, _mm256_shuffle_epi32(lo, 0x4e), _mm256_clmulepi64_epi128(lo, c, 0x00));
	hi = xor3(hi, _mm256_shuffle_epi32(mi, 0x4e), _mm256_clmulepi64_epi128(mi, c, 0x00));
	return _mm_xor_si128(_mm256_castsi256_si128(hi), _mm256_extracti128_si256(hi, 1));
}

INL __m256i hpow2(const struct gcm_vaes2_ctx *ctx, unsigned int i)
{
	return _mm256_loadu_si256((const __m256i *)&ctx->hpow[i]);
}

INL __m256i zext(__m128i x)
{
	return _mm256_inserti128_si256(_mm256_setzero_si256(), x, 0);
}

/*
 * Hash the zero-padded tail x[0..nv-1] (n16 blocks in all, 1..8) so that
 * its last block meets H^1.
 */
INL __m128i ghash_tail(const struct gcm_vaes2_ctx *ctx, __m128i acc, const __m256i *x,
		       unsigned int n16)
{
	__m256i lo = _mm256_setzero_si256(), mi = lo, hi = lo;
	unsigned int nv = (n16 + 1) / 2, v, base = 8 - n16;

	clmul_acc(_mm256_xor_si256(x[0], zext(acc)), hpow2(ctx, base), &lo, &mi, &hi);
	for (v = 1; v < nv; v++)
		clmul_acc(x[v], hpow2(ctx, base + 2 * v), &lo, &mi, &hi);
	return ghash_reduce(lo, mi, hi);
}

INL __m256i load2(const u8 *p)
{
	return bswap256(_mm256_loadu_si256((const __m256i *)p));
}

/* Hash @len bytes, the last partial block padded with zeros. */
TGT static __m128i ghash_pad(const struct gcm_vaes2_ctx *ctx, __m128i acc, const u8 *p,
			     size_t len)
{
	__m256i x[4];
	unsigned int v;

	while (len >= 128) {
		__m256i lo = _mm256_setzero_si256(), mi = lo, hi = lo;

		clmul_acc(_mm256_xor_si256(load2(p), zext(acc)), hpow2(ctx, 0), &lo, &mi, &hi);
		clmul_acc(load2(p + 32), hpow2(ctx, 2), &lo, &mi, &hi);
		clmul_acc(load2(p + 64), hpow2(ctx, 4), &lo, &mi, &hi);
		clmul_acc(load2(p + 96), hpow2(ctx, 6), &lo, &mi, &hi);
		acc = ghash_reduce(lo, mi, hi);
		p += 128;
		len -= 128;
	}
	if (len) {
		u8 buf[128] __attribute__((aligned(32)));

		memset(buf, 0, sizeof(buf));
		memcpy(buf, p, len);
		for (v = 0; v < 4; v++)
			x[v] = load2(buf + 32 * v);
		acc = ghash_tail(ctx, acc, x, (unsigned int)((len + 15) / 16));
	}
	return acc;
}

/* ---- GCM ---- */

#define ENC4(k)							\
	do {								\
		b0 = _mm256_aesenc_epi128(b0, (k));			\
		b1 = _mm256_aesenc_epi128(b1, (k));			\
		b2 = _mm256_aesenc_epi128(b2, (k));			\
		b3 = _mm256_aesenc_epi128(b3, (k));			\
	} while (0)

/*
 * Encrypt or decrypt @len bytes from @src to @dst (which may be equal),
 * hashing the ciphertext into @acc; @ctr holds the reversed counter
 * blocks J0+1, J0+2.
 */
TGT static __m128i gcm_vaes2_ctr_ghash(const struct gcm_vaes2_ctx *ctx, u8 *dst,
				       const u8 *src, size_t len, __m256i ctr,
				       __m128i acc, bool enc)
{
	const unsigned int rounds = ctx->rounds;
	const __m256i two = _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 2);
	const __m256i rk0 = ctx->rky[0];
	bool pending = false;	/* enc: the previous group is still to hash */
	unsigned int r, v;

	while (len >= 128) {
		__m256i b0, b1, b2, b3;
		const u8 *gp = enc ? dst - 128 : src;

		b0 = _mm256_xor_si256(bswap256(ctr), rk0);
		ctr = _mm256_add_epi32(ctr, two);
		b1 = _mm256_xor_si256(bswap256(ctr), rk0);
		ctr = _mm256_add_epi32(ctr, two);
		b2 = _mm256_xor_si256(bswap256(ctr), rk0);
		ctr = _mm256_add_epi32(ctr, two);
		b3 = _mm256_xor_si256(bswap256(ctr), rk0);
		ctr = _mm256_add_epi32(ctr, two);

		if (!enc || pending) {
			__m256i lo = _mm256_setzero_si256(), mi = lo, hi = lo;

			ENC4(ctx->rky[1]);
			clmul_acc(_mm256_xor_si256(load2(gp), zext(acc)), hpow2(ctx, 0),
				  &lo, &mi, &hi);
			ENC4(ctx->rky[2]);
			clmul_acc(load2(gp + 32), hpow2(ctx, 2), &lo, &mi, &hi);
			ENC4(ctx->rky[3]);
			clmul_acc(load2(gp + 64), hpow2(ctx, 4), &lo, &mi, &hi);
			ENC4(ctx->rky[4]);
			clmul_acc(load2(gp + 96), hpow2(ctx, 6), &lo, &mi, &hi);
			ENC4(ctx->rky[5]);
			acc = ghash_reduce(lo, mi, hi);
		} else {
			ENC4(ctx->rky[1]);
			ENC4(ctx->rky[2]);
			ENC4(ctx->rky[3]);
			ENC4(ctx->rky[4]);
			ENC4(ctx->rky[5]);
		}
		for (r = 6; r < rounds; r++)
			ENC4(ctx->rky[r]);
		{
			const __m256i k = ctx->rky[rounds];

			b0 = _mm256_aesenclast_epi128(b0, k);
			b1 = _mm256_aesenclast_epi128(b1, k);
			b2 = _mm256_aesenclast_epi128(b2, k);
			b3 = _mm256_aesenclast_epi128(b3, k);
		}
		b0 = _mm256_xor_si256(b0, _mm256_loadu_si256((const __m256i *)src));
		b1 = _mm256_xor_si256(b1, _mm256_loadu_si256((const __m256i *)(src + 32)));
		b2 = _mm256_xor_si256(b2, _mm256_loadu_si256((const __m256i *)(src + 64)));
		b3 = _mm256_xor_si256(b3, _mm256_loadu_si256((const __m256i *)(src + 96)));
		_mm256_storeu_si256((__m256i *)dst, b0);
		_mm256_storeu_si256((__m256i *)(dst + 32), b1);
		_mm256_storeu_si256((__m256i *)(dst + 64), b2);
		_mm256_storeu_si256((__m256i *)(dst + 96), b3);
		pending = enc;
		src += 128;
		dst += 128;
		len -= 128;
	}
	if (pending)
		acc = ghash_pad(ctx, acc, dst - 128, 128);

	if (len) {
		/* 1..127 bytes through a zero-padded buffer. */
		u8 buf[128] __attribute__((aligned(32)));
		unsigned int nv = (unsigned int)((len + 31) / 32);
		__m256i b[4], x[4];

		memset(buf, 0, sizeof(buf));
		memcpy(buf, src, len);
		for (v = 0; v < 4; v++) {
			b[v] = _mm256_xor_si256(bswap256(ctr), rk0);
			ctr = _mm256_add_epi32(ctr, two);
		}
		/* only the registers that hold message bytes */
		for (r = 1; r < rounds; r++) {
			const __m256i k = ctx->rky[r];

			b[0] = _mm256_aesenc_epi128(b[0], k);
			if (nv > 1)
				b[1] = _mm256_aesenc_epi128(b[1], k);
			if (nv > 2)
				b[2] = _mm256_aesenc_epi128(b[2], k);
			if (nv > 3)
				b[3] = _mm256_aesenc_epi128(b[3], k);
		}
		for (v = 0; v < 4; v++) {
			__m256i in = _mm256_load_si256((const __m256i *)(buf + 32 * v));

			if (!enc)
				x[v] = bswap256(in);
			_mm256_store_si256((__m256i *)(buf + 32 * v),
					   _mm256_xor_si256(_mm256_aesenclast_epi128(b[v], ctx->rky[rounds]), in));
		}
		memcpy(dst, buf, len);
		if (enc) {
			/* hash the ciphertext with the bytes past the end zeroed */
			memset(buf + len, 0, sizeof(buf) - len);
			for (v = 0; v < 4; v++)
				x[v] = load2(buf + 32 * v);
		}
		acc = ghash_tail(ctx, acc, x, (unsigned int)((len + 15) / 16));
		memzero_explicit(buf, sizeof(buf));
	}
	return acc;
}

/* The whole of GCM over contiguous buffers; writes the 16-byte tag. */
TGT static void gcm_vaes2_core(const struct gcm_vaes2_ctx *ctx, const u8 iv[12],
			       const u8 *ad, size_t adlen, u8 *dst, const u8 *src,
			       size_t len, bool enc, u8 tag[16])
{
	__m128i acc = _mm_setzero_si128(), j0, ej0;
	u8 blk[16];

	memcpy(blk, iv, 12);
	put_unaligned_be32(1, blk + 12);
	j0 = _mm_loadu_si128((const __m128i *)blk);
	ej0 = aes_block(ctx, j0);
	j0 = bswap128(j0);

	if (adlen)
		acc = ghash_pad(ctx, acc, ad, adlen);
	if (len) {
		__m256i ctr = _mm256_add_epi32(_mm256_broadcastsi128_si256(j0),
					       _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 1));

		acc = gcm_vaes2_ctr_ghash(ctx, dst, src, len, ctr, acc, enc);
	}
	acc = _mm_xor_si128(acc, _mm_set_epi64x((long long)((u64)adlen * 8),
						(long long)((u64)len * 8)));
	acc = ghash_mul128(acc, ctx->hpow[7]);
	_mm_storeu_si128((__m128i *)tag, _mm_xor_si128(bswap128(acc), ej0));
}

TGT static int gcm_vaes2_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int keylen)
{
	struct gcm_vaes2_ctx *ctx = crypto_aead_ctx(tfm);
	__m128i rk[15], h, hp[8];
	unsigned int rounds, i;
	u64 hi, lo, m;
	u8 hb[16];
	int err;

	err = vaes2_expandkey(rk, &rounds, key, keylen);
	if (err)
		return err;
	for (i = 0; i <= rounds; i++)
		ctx->rky[i] = _mm256_broadcastsi128_si256(rk[i]);
	ctx->rounds = rounds;
	h = bswap128(aes_block(ctx, _mm_setzero_si128()));
	_mm_storeu_si128((__m128i *)hb, h);
	lo = get_unaligned_le64(hb);
	hi = get_unaligned_le64(hb + 8);
	/* H * x^-1: shift left (reflected), folding x^-1 = x^127 + x^6 + x + 1 */
	m = 0 - (hi >> 63);
	hi = (hi << 1) ^ (lo >> 63) ^ (m & 0xc200000000000000ULL);
	lo = (lo << 1) ^ (m & 1);
	hp[0] = _mm_set_epi64x((long long)hi, (long long)lo);
	for (i = 1; i < 8; i++)
		hp[i] = ghash_mul128(hp[i - 1], hp[0]);
	for (i = 0; i < 8; i++)
		ctx->hpow[i] = hp[7 - i];
	for (i = 8; i < 10; i++)
		ctx->hpow[i] = _mm_setzero_si128();
	memzero_explicit(rk, sizeof(rk));
	memzero_explicit(hp, sizeof(hp));
	memzero_explicit(hb, sizeof(hb));
	return 0;
}

static int gcm_vaes2_setauthsize(struct crypto_aead *tfm, unsigned int authsize)
{
	(void)tfm;
	switch (authsize) {
	case 4: case 8: case 12: case 13: case 14: case 15: case 16:
		return 0;
	}
	return -EINVAL;
}

/* Copy the AD to the destination when it is a different buffer. */
static int gcm_copy_ad(struct aead_request *req, const u8 *ad)
{
	unsigned int assoclen = req->assoclen;
	u8 *d;

	if (req->src == req->dst || !assoclen)
		return 0;
	d = rind_sg_contig(req->dst, 0, assoclen);
	if (d) {
		if (d != ad)
			memmove(d, ad, assoclen);
		return 0;
	}
	if (sg_pcopy_from_buffer(req->dst, ~0u, ad, assoclen, 0) != assoclen)
		return -EINVAL;
	return 0;
}

static int gcm_vaes2_crypt(struct aead_request *req, bool enc)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	const struct gcm_vaes2_ctx *ctx = crypto_aead_ctx(tfm);
	unsigned int authsize = crypto_aead_authsize(tfm);
	unsigned int assoclen = req->assoclen, ptlen;
	struct rind_sg_map adm = { 0 }, m;
	const u8 *ad = NULL;
	u8 tag[16], rtag[16];
	int err;

	if (enc) {
		ptlen = req->cryptlen;
	} else {
		if (req->cryptlen < authsize)
			return -EINVAL;
		ptlen = req->cryptlen - authsize;
	}
	if ((u64)assoclen + ptlen + authsize > UINT_MAX)
		return -EINVAL;

	/* Fast path: source and destination are one buffer each. */
	if (req->src && req->dst && sg_is_last(req->src) && sg_is_last(req->dst) &&
	    req->src->length >= assoclen + ptlen + (enc ? 0 : authsize) &&
	    req->dst->length >= assoclen + ptlen + (enc ? authsize : 0)) {
		const u8 *s = sg_virt(req->src);
		u8 *d = sg_virt(req->dst);

		if (d != s && assoclen)
			memmove(d, s, assoclen);
		if (enc) {
			gcm_vaes2_core(ctx, req->iv, d, assoclen, d + assoclen, s + assoclen, ptlen, true, tag);
			memcpy(d + assoclen + ptlen, tag, authsize);
			return 0;
		}
		memcpy(rtag, s + assoclen + ptlen, authsize);
		gcm_vaes2_core(ctx, req->iv, d, assoclen, d + assoclen, s + assoclen, ptlen, false, tag);
		err = 0;
		if (crypto_memneq(tag, rtag, authsize)) {
			memzero_explicit(d + assoclen, ptlen);
			err = -EBADMSG;
		}
		memzero_explicit(tag, sizeof(tag));
		return err;
	}

	if (!enc && sg_pcopy_to_buffer(req->src, ~0u, rtag, authsize, assoclen + ptlen) != authsize)
		return -EINVAL;

	if (assoclen) {
		ad = rind_sg_contig(req->src, 0, assoclen);
		if (!ad) {
			err = rind_sg_map_ro(&adm, req->src, 0, assoclen);
			if (err)
				return err;
			ad = adm.src;
		}
		err = gcm_copy_ad(req, ad);
		if (err)
			goto out_ad;
	}
	err = rind_sg_map(&m, req->src, req->dst, assoclen, ptlen);
	if (err)
		goto out_ad;

	gcm_vaes2_core(ctx, req->iv, ad, assoclen, m.dst, m.src, ptlen, enc, tag);

	if (enc) {
		rind_sg_unmap(&m, true);
		if (sg_pcopy_from_buffer(req->dst, ~0u, tag, authsize, assoclen + ptlen) != authsize)
			err = -EINVAL;
	} else {
		if (crypto_memneq(tag, rtag, authsize)) {
			memzero_explicit(m.dst, ptlen);
			err = -EBADMSG;
		}
		rind_sg_unmap(&m, true);
	}
	memzero_explicit(tag, sizeof(tag));
out_ad:
	if (adm.bounce)
		rind_sg_unmap(&adm, false);
	return err;
}

static int gcm_vaes2_encrypt(struct aead_request *req)
{
	return gcm_vaes2_crypt(req, true);
}

static int gcm_vaes2_decrypt(struct aead_request *req)
{
	return gcm_vaes2_crypt(req, false);
}

static void gcm_vaes2_exit(struct crypto_aead *tfm)
{
	memzero_explicit(crypto_aead_ctx(tfm), sizeof(struct gcm_vaes2_ctx));
}

static struct aead_alg gcm_vaes2_alg = {
	.setkey		= gcm_vaes2_setkey,
	.setauthsize	= gcm_vaes2_setauthsize,
	.encrypt	= gcm_vaes2_encrypt,
	.decrypt	= gcm_vaes2_decrypt,
	.exit		= gcm_vaes2_exit,
	.ivsize		= 12,
	.maxauthsize	= 16,
	.chunksize	= 16,
	.base = {
		.cra_name		= "gcm(aes)",
		.cra_driver_name	= "gcm-aes-vaes-avx2",
		.cra_priority		= 600,
		.cra_blocksize		= 1,
		.cra_ctxsize		= sizeof(struct gcm_vaes2_ctx),
		.cra_module		= "x86",
	},
};

/* Its known-answer tests are the "gcm(aes)" ones of algs/gcm.c. */
static int gcm_vaes_avx2_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_AESNI) || !rind_cpu_has(RIND_X86_PCLMULQDQ) ||
	    !rind_cpu_has(RIND_X86_AVX) || !rind_cpu_has(RIND_X86_AVX2) ||
	    !rind_cpu_has(RIND_X86_VAES) || !rind_cpu_has(RIND_X86_VPCLMULQDQ))
		return 0;
	return crypto_register_aead(&gcm_vaes2_alg);
}
module_init(gcm_vaes_avx2_mod_init);
