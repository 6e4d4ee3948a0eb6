// SPDX-License-Identifier: MIT
/*
 * Poly1305 one-time authenticator (RFC 8439 section 2.5), generic C:
 * arithmetic modulo 2^130 - 5 on two 64-bit limbs plus a few carry bits,
 * products in unsigned __int128.  Constant time: no branch or index
 * depends on the key, the message or the accumulator.
 *
 * "poly1305" (poly1305-generic, 100), shash, 16-byte digest.  Keying: see
 * api/include/crypto/poly1305.h (setkey with the 32-byte r || s, or, on an unkeyed tfm,
 * the first 32 bytes of the data as in the kernel's original poly1305).
 */
#include <pthread.h>
#include <stdlib.h>
#include <rind/internal/hash.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/poly1305.h>

typedef poly1305_u128 u128;

void rind_poly1305_init_state(struct poly1305_state *st, const u8 key[POLY1305_KEY_SIZE])
{
	st->h[0] = 0;
	st->h[1] = 0;
	st->h[2] = 0;
	/* clamp: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff */
	st->r[0] = get_unaligned_le64(key + 0) & 0x0ffffffc0fffffffull;
	st->r[1] = get_unaligned_le64(key + 8) & 0x0ffffffc0ffffffcull;
	st->s[0] = get_unaligned_le64(key + 16);
	st->s[1] = get_unaligned_le64(key + 24);
	st->arch_ready = 0;
}

void rind_poly1305_blocks_generic(struct poly1305_state *st, const u8 *src, size_t nblocks,
				  u32 padbit)
{
	poly1305_blocks_core(st, src, nblocks, padbit);
}

void rind_poly1305_emit(const struct poly1305_state *st, u8 mac[POLY1305_DIGEST_SIZE])
{
	u64 h0 = st->h[0], h1 = st->h[1], h2 = st->h[2];
	u64 g0, g1, g2, c, mask;
	u128 t;

	/* Fold the bits above 2^130: h < 2^130 + 2^8 afterwards, so h < 2p. */
	c = (h2 & ~3ull) + (h2 >> 2);
	h2 &= 3;
	t = (u128)h0 + c;
	h0 = (u64)t;
	t = (u128)h1 + (u64)(t >> 64);
	h1 = (u64)t;
	h2 += (u64)(t >> 64);

	/* g = h + 5; if g >= 2^130 then h >= p and h - p = g - 2^130. */
	t = (u128)h0 + 5;
	g0 = (u64)t;
	t = (u128)h1 + (u64)(t >> 64);
	g1 = (u64)t;
	g2 = h2 + (u64)(t >> 64);
	mask = 0 - (g2 >> 2);		/* all ones when g >= 2^130 */
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);

	/* tag = (h + s) mod 2^128 */
	t = (u128)h0 + st->s[0];
	h0 = (u64)t;
	h1 = h1 + st->s[1] + (u64)(t >> 64);
	put_unaligned_le64(h0, mac);
	put_unaligned_le64(h1, mac + 8);
}

void rind_poly1305_init(struct poly1305_ctx *ctx, const u8 key[POLY1305_KEY_SIZE])
{
	rind_poly1305_init_state(&ctx->st, key);
	ctx->buflen = 0;
}

void rind_poly1305_update(struct poly1305_ctx *ctx, const u8 *src, size_t len,
			  poly1305_blocks_fn blocks)
{
	size_t n;

	if (!len)
		return;
	if (ctx->buflen) {
		n = min(len, POLY1305_BLOCK_SIZE - ctx->buflen);
		memcpy(ctx->buf + ctx->buflen, src, n);
		ctx->buflen += n;
		src += n;
		len -= n;
		if (ctx->buflen < POLY1305_BLOCK_SIZE)
			return;
		blocks(&ctx->st, ctx->buf, 1, 1);
		ctx->buflen = 0;
	}
	if (len >= POLY1305_BLOCK_SIZE) {
		n = len / POLY1305_BLOCK_SIZE;
		blocks(&ctx->st, src, n, 1);
		src += n * POLY1305_BLOCK_SIZE;
		len -= n * POLY1305_BLOCK_SIZE;
	}
	if (len) {
		memcpy(ctx->buf, src, len);
		ctx->buflen = len;
	}
}

void rind_poly1305_final(struct poly1305_ctx *ctx, u8 mac[POLY1305_DIGEST_SIZE],
			 poly1305_blocks_fn blocks)
{
	if (ctx->buflen) {
		ctx->buf[ctx->buflen] = 1;
		memset(ctx->buf + ctx->buflen + 1, 0, POLY1305_BLOCK_SIZE - ctx->buflen - 1);
		blocks(&ctx->st, ctx->buf, 1, 0);
	}
	rind_poly1305_emit(&ctx->st, mac);
	memzero_explicit(ctx, sizeof(*ctx));
}

void rind_poly1305(u8 mac[POLY1305_DIGEST_SIZE], const u8 *msg, size_t len,
		   const u8 key[POLY1305_KEY_SIZE])
{
	struct poly1305_ctx ctx;

	rind_poly1305_init(&ctx, key);
	rind_poly1305_update(&ctx, msg, len, rind_poly1305_blocks_generic);
	rind_poly1305_final(&ctx, mac, rind_poly1305_blocks_generic);
}

void rind_poly1305_padded(struct poly1305_state *st, const u8 *src, size_t len,
			  poly1305_blocks_fn blocks)
{
	size_t n = len / POLY1305_BLOCK_SIZE;
	u8 last[POLY1305_BLOCK_SIZE];

	if (n)
		blocks(st, src, n, 1);
	len -= n * POLY1305_BLOCK_SIZE;
	if (len) {
		memcpy(last, src + n * POLY1305_BLOCK_SIZE, len);
		memset(last + len, 0, sizeof(last) - len);
		blocks(st, last, 1, 1);
	}
}

/* ---- shash glue shared by every implementation ---- */

static inline poly1305_blocks_fn desc_blocks(struct shash_desc *desc)
{
	return container_of(crypto_shash_alg(desc->tfm), struct poly1305_alg, alg)->blocks;
}

int rind_poly1305_shash_setkey(struct crypto_shash *tfm, const u8 *key, unsigned int keylen)
{
	struct poly1305_tfm_ctx *tctx = crypto_shash_ctx(tfm);

	if (keylen == 0) {
		/* back to taking the key from the data */
		memzero_explicit(tctx, sizeof(*tctx));
		return 0;
	}
	if (keylen != POLY1305_KEY_SIZE || !key)
		return -EINVAL;
	memcpy(tctx->key, key, POLY1305_KEY_SIZE);
	tctx->keyed = true;
	return 0;
}

int rind_poly1305_shash_init(struct shash_desc *desc)
{
	struct poly1305_tfm_ctx *tctx = crypto_shash_ctx(desc->tfm);
	struct poly1305_desc_ctx *d = shash_desc_ctx(desc);

	if (tctx->keyed) {
		rind_poly1305_init(&d->ctx, tctx->key);
		d->keylen = POLY1305_KEY_SIZE;
	} else {
		memset(&d->ctx, 0, sizeof(d->ctx));
		d->keylen = 0;
	}
	return 0;
}

int rind_poly1305_shash_update(struct shash_desc *desc, const u8 *src, unsigned int len)
{
	struct poly1305_desc_ctx *d = shash_desc_ctx(desc);

	if (!len)
		return 0;
	if (d->keylen < POLY1305_KEY_SIZE) {
		unsigned int n = min(len, POLY1305_KEY_SIZE - d->keylen);

		memcpy(d->kbuf + d->keylen, src, n);
		d->keylen += n;
		src += n;
		len -= n;
		if (d->keylen < POLY1305_KEY_SIZE)
			return 0;
		rind_poly1305_init(&d->ctx, d->kbuf);
		memzero_explicit(d->kbuf, sizeof(d->kbuf));
	}
	if (len)
		rind_poly1305_update(&d->ctx, src, len, desc_blocks(desc));
	return 0;
}

int rind_poly1305_shash_final(struct shash_desc *desc, u8 *out)
{
	struct poly1305_desc_ctx *d = shash_desc_ctx(desc);

	if (d->keylen < POLY1305_KEY_SIZE) {
		memzero_explicit(d, sizeof(*d));
		return -ENOKEY;
	}
	rind_poly1305_final(&d->ctx, out, desc_blocks(desc));
	d->keylen = 0;
	return 0;
}

poly1305_blocks_fn rind_poly1305_alg_blocks(struct crypto_alg *alg)
{
	struct shash_alg *sh;

	if (!alg || alg->cra_type != &crypto_shash_type)
		return NULL;
	sh = __crypto_shash_alg(alg);
	if (sh->init != rind_poly1305_shash_init)
		return NULL;
	return container_of(sh, struct poly1305_alg, alg)->blocks;
}

static pthread_once_t poly1305_best_once = PTHREAD_ONCE_INIT;
static poly1305_blocks_fn best_blocks;

static void find_best_blocks(void)
{
	struct crypto_alg *alg;
	poly1305_blocks_fn fn = NULL;

	alg = crypto_alg_mod_lookup("poly1305", CRYPTO_ALG_TYPE_SHASH, CRYPTO_ALG_TYPE_MASK);
	if (!IS_ERR(alg)) {
		fn = rind_poly1305_alg_blocks(alg);
		crypto_mod_put(alg);	/* static algs outlive every reference */
	}
	best_blocks = fn ? fn : rind_poly1305_blocks_generic;
}

poly1305_blocks_fn rind_poly1305_best_blocks(void)
{
	pthread_once(&poly1305_best_once, find_best_blocks);
	return best_blocks;
}

/* ---- known-answer tests and registration ---- */

#define IETF_TEXT								\
	"Any submission to the IETF intended by the Contributor for publication"	\
	" as all or part of an IETF Internet-Draft or RFC and any statement made"	\
	" within the context of an IETF activity is considered an \"IETF"		\
	" Contribution\". Such statements include oral statements in IETF"		\
	" sessions, as well as written and electronic communications made at any"	\
	" time or place, which are addressed to"

/* RFC 8439 section 2.5.2 and A.3 #3, #4, #5, #6, #8, #11. */
static const struct hash_testvec poly1305_tv[] = {
	{
		.key	= "\x85\xd6\xbe\x78\x57\x55\x6d\x33\x7f\x44\x52\xfe\x42\xd5\x06\xa8"
			  "\x01\x03\x80\x8a\xfb\x0d\xb2\xfd\x4a\xbf\xf6\xaf\x41\x49\xf5\x1b",
		.ksize	= 32,
		.plaintext = "Cryptographic Forum Research Group",
		.psize	= 34,
		.digest	= "\xa8\x06\x1d\xc1\x30\x51\x36\xc6\xc2\x2b\x8b\xaf\x0c\x01\x27\xa9",
	}, {
		/* The same, keyed through the data (the kernel's original form). */
		.plaintext = "\x85\xd6\xbe\x78\x57\x55\x6d\x33\x7f\x44\x52\xfe\x42\xd5\x06\xa8"
			     "\x01\x03\x80\x8a\xfb\x0d\xb2\xfd\x4a\xbf\xf6\xaf\x41\x49\xf5\x1b"
			     "Cryptographic Forum Research Group",
		.psize	= 66,
		.digest	= "\xa8\x06\x1d\xc1\x30\x51\x36\xc6\xc2\x2b\x8b\xaf\x0c\x01\x27\xa9",
	}, {
		.key	= "\x36\xe5\xf6\xb5\xc5\xe0\x60\x70\xf0\xef\xca\x96\x22\x7a\x86\x3e"
			  "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.ksize	= 32,
		.plaintext = IETF_TEXT,
		.psize	= 375,
		.digest	= "\xf3\x47\x7e\x7c\xd9\x54\x17\xaf\x89\xa6\xb8\x79\x4c\x31\x0c\xf0",
	}, {
		.key	= "\x1c\x92\x40\xa5\xeb\x55\xd3\x8a\xf3\x33\x88\x86\x04\xf6\xb5\xf0"
			  "\x47\x39\x17\xc1\x40\x2b\x80\x09\x9d\xca\x5c\xbc\x20\x70\x75\xc0",
		.ksize	= 32,
		.plaintext = "'Twas brillig, and the slithy toves\n"
			     "Did gyre and gimble in the wabe:\n"
			     "All mimsy were the borogoves,\n"
			     "And the mome raths outgrabe.",
		.psize	= 127,
		.digest	= "\x45\x41\x66\x9a\x7e\xaa\xee\x61\xe7\x08\xdc\x7c\xbc\xc5\xeb\x62",
	}, {
		.key	= "\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
			  "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.ksize	= 32,
		.plaintext = "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff",
		.psize	= 16,
		.digest	= "\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
	}, {
		.key	= "\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
			  "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff",
		.ksize	= 32,
		.plaintext = "\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.psize	= 16,
		.digest	= "\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
	}, {
		.key	= "\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
			  "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.ksize	= 32,
		.plaintext = "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
			     "\xfb\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe"
			     "\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01",
		.psize	= 48,
		.digest	= "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
	}, {
		.key	= "\x01\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00"
			  "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.ksize	= 32,
		.plaintext = "\xe3\x35\x94\xd7\x50\x5e\x43\xb9\x00\x00\x00\x00\x00\x00\x00\x00"
			     "\x33\x94\xd7\x50\x5e\x43\x79\xcd\x01\x00\x00\x00\x00\x00\x00\x00"
			     "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.psize	= 48,
		.digest	= "\x13\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
	},
};

/*
 * After the table: 2100 bytes (the vector paths of the arch
 * implementations) through the implementation under test, keyed both
 * ways, against the generic code, which the table vectors check.
 */
#define POLY1305_LONG_TEST 2100

static int poly1305_test_fn(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	struct crypto_shash *tfm;
	u8 key[POLY1305_KEY_SIZE], mac[POLY1305_DIGEST_SIZE], ref[POLY1305_DIGEST_SIZE], *msg;
	size_t i;
	int err = alg_test_hash(desc, alg);

	if (err)
		return err;
	tfm = crypto_alloc_shash(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	msg = malloc(POLY1305_KEY_SIZE + POLY1305_LONG_TEST);
	err = -ENOMEM;
	if (!msg)
		goto out;
	for (i = 0; i < sizeof(key); i++)
		key[i] = (u8)(0xff - i * 3);
	memcpy(msg, key, sizeof(key));
	for (i = 0; i < POLY1305_LONG_TEST; i++)
		msg[POLY1305_KEY_SIZE + i] = (u8)(i * 37 + 250);
	rind_poly1305(ref, msg + POLY1305_KEY_SIZE, POLY1305_LONG_TEST, key);

	err = crypto_shash_setkey(tfm, key, sizeof(key));
	if (!err)
		err = crypto_shash_tfm_digest(tfm, msg + POLY1305_KEY_SIZE, POLY1305_LONG_TEST, mac);
	if (!err && crypto_memneq(mac, ref, sizeof(mac)))
		err = -EBADMSG;
	if (!err)
		err = crypto_shash_setkey(tfm, NULL, 0);
	if (!err)
		err = crypto_shash_tfm_digest(tfm, msg, POLY1305_KEY_SIZE + POLY1305_LONG_TEST, mac);
	if (!err && crypto_memneq(mac, ref, sizeof(mac)))
		err = -EBADMSG;
out:
	free(msg);
	crypto_free_shash(tfm);
	return err;
}

static struct alg_test_desc poly1305_test = {
	.alg = "poly1305",
	.test = poly1305_test_fn,
	.suite.hash = __VECS(poly1305_tv),
};

static struct poly1305_alg poly1305_generic_alg =
	RIND_POLY1305_ALG("poly1305-generic", 100, "generic", rind_poly1305_blocks_generic);

static int poly1305_generic_mod_init(void)
{
	crypto_register_test(&poly1305_test);
	return crypto_register_shash(&poly1305_generic_alg.alg);
}

module_init(poly1305_generic_mod_init);
