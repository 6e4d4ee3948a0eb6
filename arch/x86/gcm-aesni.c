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
#include <limits.h>
#include <rind/internal/aead.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>

#define TGT __attribute__((target("aes,pclmul,ssse3")))
#define INL static inline __attribute__((always_inline)) TGT

struct gcm_aesni_ctx {
	__m128i rk[15];
	__m128i hpow[8];	/* hpow[i] = H^(i+1) * x^-1, reflected */
	unsigned int rounds;
};

INL __m128i bswap128(__m128i x)
{
	return _mm_shuffle_epi8(x, _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8,
						 7, 6, 5, 4, 3, 2, 1, 0));
}

/* ---- AES ---- */

TGT static u32 aesni_subword(u32 w)
{
	__m128i x = _mm_shuffle_epi32(_mm_cvtsi32_si128((int)w), 0);

	return (u32)_mm_cvtsi128_si32(_mm_aeskeygenassist_si128(x, 0));
}

/* FIPS 197 key expansion, SubWord by AESKEYGENASSIST (no tables). */
TGT static int aesni_expandkey(__m128i *rk, unsigned int *rounds, const u8 *key,
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
			t = aesni_subword(ror32(t, 8)) ^ rc;
			rc = (rc << 1) ^ ((rc >> 7) * 0x11b);
		} else if (nk > 6 && i % nk == 4) {
			t = aesni_subword(t);
		}
		w[i] = w[i - nk] ^ t;
	}
	for (i = 0; i <= *rounds; i++) {
		u8 b[16];

		put_unaligned_le32(w[4 * i], b);
		put_unaligned_le32(w[4 * i + 1], b + 4);
		put_unaligned_le32(w[4 * i + 2], b + 8);
		put_unaligned_le32(w[4 * i + 3], b + 12);
		rk[i] = _mm_loadu_si128((const __m128i *)b);
		memzero_explicit(b, sizeof(b));
	}
	memzero_explicit(w, sizeof(w));
	return 0;
}

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

/* a * b, where @hx is b * x^-1 */
INL __m128i ghash_mul(__m128i a, __m128i hx)
{
	__m128i lo = _mm_setzero_si128(), mi = lo, hi = lo;

	clmul_acc(a, hx, &lo, &mi, &hi);
	return ghash_reduce(lo, mi, hi);
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
			x[j] = bswap128(_mm_loadu_si128((const __m128i *)(p + 16 * j)));
		acc = ghash_n(ctx, acc, x, 8);
		p += 128;
		len -= 128;
	}
	if (len) {
		u8 buf[16] = { 0 };

		n = (unsigned int)((len + 15) / 16);
		for (j = 0; j + 1 < n; j++)
			x[j] = bswap128(_mm_loadu_si128((const __m128i *)(p + 16 * j)));
		memcpy(buf, p + 16 * j, len - 16 * j);
		x[j] = bswap128(_mm_loadu_si128((const __m128i *)buf));
		acc = ghash_n(ctx, acc, x, n);
	}
	return acc;
}

/* ---- GCM ---- */

/* Counter blocks are kept byte-reversed, so the 32-bit counter is lane 0. */
#define CTR_ONE _mm_set_epi32(0, 0, 0, 1)

#define B8(OP) OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7)
#define CTR8(i) b##i = _mm_xor_si128(bswap128(ctr), rk0); ctr = _mm_add_epi32(ctr, CTR_ONE);
#define ENC8(i) b##i = _mm_aesenc_si128(b##i, k);

/* One AES round on all eight blocks plus the GHASH product of one block. */
#define ROUND_HASH(r, x)						\
	do {								\
		k = ctx->rk[r];						\
		B8(ENC8)						\
		clmul_acc((x), ctx->hpow[8 - (r)], &lo, &mi, &hi);	\
	} while (0)
#define GBLK(i) bswap128(_mm_loadu_si128((const __m128i *)(gp + 16 * (i))))

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
		/* The last 1..8 blocks, the final one possibly partial. */
		u8 buf[128] __attribute__((aligned(16)));

		n = (unsigned int)((len + 15) / 16);
		memset(buf + 16 * (n - 1), 0, 16);
		memcpy(buf, src, len);
		for (j = 0; j < n; j++) {
			b[j] = _mm_xor_si128(bswap128(ctr), rk0);
			ctr = _mm_add_epi32(ctr, CTR_ONE);
		}
		for (r = 1; r < rounds; r++) {
			__m128i k = ctx->rk[r];

			for (j = 0; j < n; j++)
				b[j] = _mm_aesenc_si128(b[j], k);
		}
		for (j = 0; j < n; j++) {
			__m128i in = _mm_load_si128((const __m128i *)(buf + 16 * j));

			b[j] = _mm_xor_si128(_mm_aesenclast_si128(b[j], ctx->rk[rounds]), in);
			if (!enc)
				c[j] = bswap128(in);
			_mm_store_si128((__m128i *)(buf + 16 * j), b[j]);
		}
		memcpy(dst, buf, len);
		if (enc) {
			/* hash the ciphertext with the bytes past the end zeroed */
			memset(buf + len, 0, 16 * n - len);
			for (j = 0; j < n; j++)
				c[j] = bswap128(_mm_load_si128((const __m128i *)(buf + 16 * j)));
		}
		acc = ghash_n(ctx, acc, c, n);
		memzero_explicit(buf, sizeof(buf));
	}
	return acc;
}

/* The whole of GCM over contiguous buffers; writes the 16-byte tag. */
TGT static void gcm_aesni_core(const struct gcm_aesni_ctx *ctx, const u8 iv[12],
			       const u8 *ad, size_t adlen, u8 *dst, const u8 *src,
			       size_t len, bool enc, u8 tag[16])
{
	__m128i acc = _mm_setzero_si128(), j0, ej0;
	u8 blk[16];

	memcpy(blk, iv, 12);
	put_unaligned_be32(1, blk + 12);
	j0 = bswap128(_mm_loadu_si128((const __m128i *)blk));
	ej0 = aes_block(ctx, bswap128(j0));

	if (adlen)
		acc = ghash_pad(ctx, acc, ad, adlen);
	if (len)
		acc = gcm_aesni_ctr_ghash(ctx, dst, src, len, _mm_add_epi32(j0, CTR_ONE), acc, enc);
	acc = _mm_xor_si128(acc, _mm_set_epi64x((long long)((u64)adlen * 8),
						(long long)((u64)len * 8)));
	acc = ghash_mul(acc, ctx->hpow[0]);
	_mm_storeu_si128((__m128i *)tag, _mm_xor_si128(bswap128(acc), ej0));
}

TGT static int gcm_aesni_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int keylen)
{
	struct gcm_aesni_ctx *ctx = crypto_aead_ctx(tfm);
	struct gcm_aesni_ctx tmp;
	__m128i h;
	u64 hi, lo, m;
	u8 hb[16];
	int err, i;

	err = aesni_expandkey(tmp.rk, &tmp.rounds, key, keylen);
	if (err)
		return err;
	h = bswap128(aes_block(&tmp, _mm_setzero_si128()));
	_mm_storeu_si128((__m128i *)hb, h);
	lo = get_unaligned_le64(hb);
	hi = get_unaligned_le64(hb + 8);
	/* H * x^-1: shift left (reflected), folding x^-1 = x^127 + x^6 + x + 1 */
	m = 0 - (hi >> 63);
	hi = (hi << 1) ^ (lo >> 63) ^ (m & 0xc200000000000000ULL);
	lo = (lo << 1) ^ (m & 1);
	tmp.hpow[0] = _mm_set_epi64x((long long)hi, (long long)lo);
	for (i = 1; i < 8; i++)
		tmp.hpow[i] = ghash_mul(tmp.hpow[i - 1], tmp.hpow[0]);
	*ctx = tmp;
	memzero_explicit(&tmp, sizeof(tmp));
	memzero_explicit(hb, sizeof(hb));
	return 0;
}

static int gcm_aesni_setauthsize(struct crypto_aead *tfm, unsigned int authsize)
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

static int gcm_aesni_crypt(struct aead_request *req, bool enc)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	const struct gcm_aesni_ctx *ctx = crypto_aead_ctx(tfm);
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
			gcm_aesni_core(ctx, req->iv, d, assoclen, d + assoclen, s + assoclen, ptlen, true, tag);
			memcpy(d + assoclen + ptlen, tag, authsize);
			return 0;
		}
		memcpy(rtag, s + assoclen + ptlen, authsize);
		gcm_aesni_core(ctx, req->iv, d, assoclen, d + assoclen, s + assoclen, ptlen, false, tag);
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

	gcm_aesni_core(ctx, req->iv, ad, assoclen, m.dst, m.src, ptlen, enc, tag);

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

static int gcm_aesni_encrypt(struct aead_request *req)
{
	return gcm_aesni_crypt(req, true);
}

static int gcm_aesni_decrypt(struct aead_request *req)
{
	return gcm_aesni_crypt(req, false);
}

static void gcm_aesni_exit(struct crypto_aead *tfm)
{
	memzero_explicit(crypto_aead_ctx(tfm), sizeof(struct gcm_aesni_ctx));
}

static struct aead_alg gcm_aesni_alg = {
	.setkey		= gcm_aesni_setkey,
	.setauthsize	= gcm_aesni_setauthsize,
	.encrypt	= gcm_aesni_encrypt,
	.decrypt	= gcm_aesni_decrypt,
	.exit		= gcm_aesni_exit,
	.ivsize		= 12,
	.maxauthsize	= 16,
	.chunksize	= 16,
	.base = {
		.cra_name		= "gcm(aes)",
		.cra_driver_name	= "gcm-aes-aesni",
		.cra_priority		= 400,
		.cra_blocksize		= 1,
		.cra_ctxsize		= sizeof(struct gcm_aesni_ctx),
		.cra_module		= "x86",
	},
};

/* Its known-answer tests are the "gcm(aes)" ones of algs/gcm.c. */
static int gcm_aesni_mod_init(void)
{
	if (!rind_cpu_has(RIND_X86_AESNI) || !rind_cpu_has(RIND_X86_PCLMULQDQ) ||
	    !rind_cpu_has(RIND_X86_SSSE3))
		return 0;
	return crypto_register_aead(&gcm_aesni_alg);
}
module_init(gcm_aesni_mod_init);
