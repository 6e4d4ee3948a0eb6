// SPDX-License-Identifier: MIT
/*
 * The "rfc7539" template: the ChaCha20-Poly1305 AEAD of RFC 8439 section 2.8
 * over any "chacha20"-shaped skcipher and any "poly1305" shash.
 *
 *   rfc7539(chacha20,poly1305)   32-byte key, 12-byte IV (the nonce), 16-byte
 *                                tag, as the kernel's rfc7539 template.
 *   rfc7539(xchacha20,poly1305)  32-byte key, 24-byte IV: XChaCha20-Poly1305
 *                                of draft-irtf-cfrg-xchacha (the subkey is
 *                                HChaCha20(key, nonce[0..15]); then the
 *                                above with nonce 00000000 || nonce[16..23]).
 *                                The kernel has no such instance; here the
 *                                template takes any skcipher with a 32-byte
 *                                IV laid out as the kernel's xchacha20.
 *
 * create() grabs args[0] as a skcipher (16- or 32-byte IV, stream cipher:
 * blocksize 1, chunksize 64) and args[1] as a shash named "poly1305" with a
 * 16-byte digest, so an instance works over any implementation of each.
 * When both spawned implementations are rind's own (generic or arch), the
 * instance calls their crypt and blocks functions directly on mapped
 * buffers (same code, no request building); over anything else it goes
 * through the skcipher and shash APIs, keying the unkeyed poly1305 tfm with
 * the first 32 bytes of its input.
 *
 * Requests follow <rind/aead.h>: source = AD || text (|| tag on decrypt),
 * the AD is copied to the destination when the two differ, cryptlen
 * includes the tag on decrypt, authsize is fixed at 16 (setauthsize to
 * anything else is -EINVAL).  Decryption verifies the tag (constant time)
 * over the source before decrypting anything; on mismatch it zeroes the
 * plaintext region of the destination and returns -EBADMSG.
 */
#include <limits.h>
#include <rind/internal/aead.h>
#include <rind/internal/hash.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/chacha.h>
#include <crypto/poly1305.h>

#define CHACHAPOLY_IV_SIZE	12
#define XCHACHAPOLY_IV_SIZE	24
/*
 * Messages up to this size take the Poly1305 key block and the data in one
 * crypt call, through a stack buffer: vector implementations pay mostly
 * latency per call, so one call of n + 1 blocks beats two.
 */
#define CHACHAPOLY_SMALL	(2048 - CHACHA_BLOCK_SIZE)

struct chachapoly_instance {
	struct crypto_spawn chacha;
	struct crypto_spawn poly;
	/* Direct entries when both spawns are rind implementations. */
	chacha_crypt_fn crypt;
	poly1305_blocks_fn blocks;
	bool xchacha;
	struct aead_alg alg;
};

struct chachapoly_ctx {
	struct crypto_skcipher *chacha;
	struct crypto_shash *poly;
};

static inline struct chachapoly_instance *chachapoly_inst(struct crypto_aead *tfm)
{
	return container_of(crypto_aead_alg(tfm), struct chachapoly_instance, alg);
}

/* ---- the construction on contiguous buffers ---- */

static void chachapoly_lengths(struct poly1305_state *st, poly1305_blocks_fn blocks,
			       size_t adlen, size_t len)
{
	u8 b[POLY1305_BLOCK_SIZE];

	put_unaligned_le64(adlen, b);
	put_unaligned_le64(len, b + 8);
	blocks(st, b, 1, 1);
}

void rind_chachapoly_seal(u32 state[CHACHA_STATE_WORDS], chacha_crypt_fn crypt,
			  poly1305_blocks_fn blocks, u8 *dst, const u8 *src, size_t len,
			  const u8 *ad, size_t adlen, u8 tag[CHACHAPOLY_TAG_SIZE])
{
	struct poly1305_state st;
	u8 buf[CHACHA_BLOCK_SIZE + CHACHAPOLY_SMALL] __attribute__((aligned(16)));

	if (len <= CHACHAPOLY_SMALL) {
		/* block 0 (the Poly1305 key) and blocks 1.. in one call */
		memset(buf, 0, CHACHA_BLOCK_SIZE);
		if (len)
			memcpy(buf + CHACHA_BLOCK_SIZE, src, len);
		crypt(state, buf, buf, CHACHA_BLOCK_SIZE + len);
		if (len)
			memcpy(dst, buf + CHACHA_BLOCK_SIZE, len);
		memzero_explicit(buf + POLY1305_KEY_SIZE,
				 CHACHA_BLOCK_SIZE - POLY1305_KEY_SIZE + len);
	} else {
		memset(buf, 0, POLY1305_KEY_SIZE);
		crypt(state, buf, buf, POLY1305_KEY_SIZE);
		crypt(state, dst, src, len);
	}
	rind_poly1305_init_state(&st, buf);
	memzero_explicit(buf, POLY1305_KEY_SIZE);
	rind_poly1305_padded(&st, ad, adlen, blocks);
	rind_poly1305_padded(&st, dst, len, blocks);
	chachapoly_lengths(&st, blocks, adlen, len);
	rind_poly1305_emit(&st, tag);
	memzero_explicit(&st, sizeof(st));
}

int rind_chachapoly_open(u32 state[CHACHA_STATE_WORDS], chacha_crypt_fn crypt,
			 poly1305_blocks_fn blocks, u8 *dst, const u8 *src, size_t len,
			 const u8 *ad, size_t adlen, const u8 tag[CHACHAPOLY_TAG_SIZE])
{
	struct poly1305_state st;
	u8 buf[CHACHA_BLOCK_SIZE + CHACHAPOLY_SMALL] __attribute__((aligned(16)));
	u8 mac[CHACHAPOLY_TAG_SIZE];
	bool small = len <= CHACHAPOLY_SMALL;
	int bad;

	if (small) {
		memset(buf, 0, CHACHA_BLOCK_SIZE);
		if (len)
			memcpy(buf + CHACHA_BLOCK_SIZE, src, len);
		crypt(state, buf, buf, CHACHA_BLOCK_SIZE + len);
	} else {
		memset(buf, 0, POLY1305_KEY_SIZE);
		crypt(state, buf, buf, POLY1305_KEY_SIZE);
	}
	rind_poly1305_init_state(&st, buf);
	memzero_explicit(buf, POLY1305_KEY_SIZE);
	rind_poly1305_padded(&st, ad, adlen, blocks);
	rind_poly1305_padded(&st, src, len, blocks);
	chachapoly_lengths(&st, blocks, adlen, len);
	rind_poly1305_emit(&st, mac);
	memzero_explicit(&st, sizeof(st));

	bad = crypto_memneq(mac, tag, CHACHAPOLY_TAG_SIZE);
	memzero_explicit(mac, sizeof(mac));
	if (bad) {
		if (len)
			memset(dst, 0, len);
		if (small)
			memzero_explicit(buf, CHACHA_BLOCK_SIZE + len);
		return -EBADMSG;
	}
	if (small) {
		if (len)
			memcpy(dst, buf + CHACHA_BLOCK_SIZE, len);
		memzero_explicit(buf, CHACHA_BLOCK_SIZE + len);
	} else {
		crypt(state, dst, src, len);
	}
	return 0;
}

/* ---- scatterlist helpers ---- */

/* @sg advanced by @skip bytes, as a 2-entry table chained to the rest. */
static struct scatterlist *sg_ffwd(struct scatterlist dst[2], struct scatterlist *sg, size_t skip)
{
	struct scatterlist *next;

	while (skip >= sg->length && !sg_is_last(sg)) {
		skip -= sg->length;
		sg = sg_next(sg);
		if (!sg)
			return NULL;
	}
	if (skip > sg->length)
		return NULL;
	sg_init_table(dst, 2);
	sg_set_buf(&dst[0], (u8 *)sg_virt(sg) + skip, sg->length - (unsigned int)skip);
	next = sg_is_last(sg) ? NULL : sg_next(sg);
	if (next)
		sg_chain(dst, 2, next);
	else
		sg_mark_end(&dst[0]);
	return dst;
}

static int poly_update_sg(struct shash_desc *desc, struct scatterlist *sg, size_t skip,
			  size_t len)
{
	static const u8 zeros[POLY1305_BLOCK_SIZE];
	size_t total = len;
	int err;

	for (; sg && len; sg = sg_next(sg)) {
		size_t n;

		if (skip >= sg->length) {
			skip -= sg->length;
			continue;
		}
		n = min((size_t)sg->length - skip, len);
		err = crypto_shash_update(desc, (const u8 *)sg_virt(sg) + skip, (unsigned int)n);
		if (err)
			return err;
		skip = 0;
		len -= n;
	}
	if (len)
		return -EINVAL;
	if (total % POLY1305_BLOCK_SIZE)
		return crypto_shash_update(desc, zeros,
					   POLY1305_BLOCK_SIZE - total % POLY1305_BLOCK_SIZE);
	return 0;
}

/* Copy @len bytes from the start of @src to the start of @dst. */
static int sg_copy_sg(struct scatterlist *dst, struct scatterlist *src, size_t len)
{
	struct rind_sg_map m;
	int err;

	if (!len || src == dst)
		return 0;
	err = rind_sg_map(&m, src, dst, 0, len);
	if (err)
		return err;
	if (m.dst != m.src)
		memmove(m.dst, m.src, len);
	rind_sg_unmap(&m, true);
	return 0;
}

static void write_tag(struct scatterlist *sg, size_t off, const u8 tag[CHACHAPOLY_TAG_SIZE])
{
	u8 *p = rind_sg_contig(sg, off, CHACHAPOLY_TAG_SIZE);

	if (p)
		memcpy(p, tag, CHACHAPOLY_TAG_SIZE);
	else
		sg_pcopy_from_buffer(sg, ~0u, tag, CHACHAPOLY_TAG_SIZE, (off_t)off);
}

static int read_tag(struct scatterlist *sg, size_t off, u8 tag[CHACHAPOLY_TAG_SIZE])
{
	u8 *p = rind_sg_contig(sg, off, CHACHAPOLY_TAG_SIZE);

	if (p)
		memcpy(tag, p, CHACHAPOLY_TAG_SIZE);
	else if (sg_pcopy_to_buffer(sg, ~0u, tag, CHACHAPOLY_TAG_SIZE, (off_t)off) !=
		 CHACHAPOLY_TAG_SIZE)
		return -EINVAL;
	return 0;
}

/* The skcipher IV for block @counter of the request's nonce. */
static void chachapoly_iv(u8 iv[XCHACHA_IV_SIZE], const u8 *nonce, bool xchacha, u32 counter)
{
	if (xchacha) {
		memcpy(iv, nonce, XCHACHAPOLY_IV_SIZE);
		put_unaligned_le64(counter, iv + XCHACHAPOLY_IV_SIZE);
	} else {
		put_unaligned_le32(counter, iv);
		memcpy(iv + 4, nonce, CHACHAPOLY_IV_SIZE);
	}
}

/* ---- direct path: both spawns are rind implementations ---- */

static void direct_state(struct crypto_aead *tfm, const u8 *nonce, u32 state[16])
{
	struct chachapoly_instance *inst = chachapoly_inst(tfm);
	struct chachapoly_ctx *ctx = crypto_aead_ctx(tfm);
	const struct chacha_ctx *cc = crypto_skcipher_ctx(ctx->chacha);
	u8 iv[XCHACHA_IV_SIZE];

	chachapoly_iv(iv, nonce, inst->xchacha, 0);
	if (inst->xchacha)
		rind_xchacha_init(state, cc->key, iv);
	else
		rind_chacha_init(state, cc->key, iv);
}

static int direct_encrypt(struct aead_request *req)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	struct chachapoly_instance *inst = chachapoly_inst(tfm);
	struct rind_sg_map ad, text;
	u8 tag[CHACHAPOLY_TAG_SIZE];
	u32 state[16];
	int err;

	err = rind_sg_map(&ad, req->src, req->dst, 0, req->assoclen);
	if (err)
		return err;
	err = rind_sg_map(&text, req->src, req->dst, req->assoclen, req->cryptlen);
	if (err) {
		rind_sg_unmap(&ad, false);
		return err;
	}
	if (ad.dst != ad.src)
		memmove(ad.dst, ad.src, ad.len);
	direct_state(tfm, req->iv, state);
	rind_chachapoly_seal(state, inst->crypt, inst->blocks, text.dst, text.src, text.len,
			     ad.src, ad.len, tag);
	memzero_explicit(state, sizeof(state));
	rind_sg_unmap(&text, true);
	rind_sg_unmap(&ad, true);
	write_tag(req->dst, (size_t)req->assoclen + req->cryptlen, tag);
	return 0;
}

static int direct_decrypt(struct aead_request *req)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	struct chachapoly_instance *inst = chachapoly_inst(tfm);
	size_t len = req->cryptlen - CHACHAPOLY_TAG_SIZE;
	struct rind_sg_map ad, text;
	u8 tag[CHACHAPOLY_TAG_SIZE];
	u32 state[16];
	int err;

	err = read_tag(req->src, (size_t)req->assoclen + len, tag);
	if (err)
		return err;
	err = rind_sg_map(&ad, req->src, req->dst, 0, req->assoclen);
	if (err)
		return err;
	err = rind_sg_map(&text, req->src, req->dst, req->assoclen, len);
	if (err) {
		rind_sg_unmap(&ad, false);
		return err;
	}
	direct_state(tfm, req->iv, state);
	err = rind_chachapoly_open(state, inst->crypt, inst->blocks, text.dst, text.src, text.len,
				   ad.src, ad.len, tag);
	memzero_explicit(state, sizeof(state));
	if (!err && ad.dst != ad.src)
		memmove(ad.dst, ad.src, ad.len);
	/* on failure the mapped destination holds zeros: copy them out too */
	rind_sg_unmap(&text, true);
	rind_sg_unmap(&ad, !err);
	return err;
}

/* ---- API path: spawns reached through their front ends ---- */

static int api_chacha(struct aead_request *req, u32 counter, struct scatterlist *src,
		      struct scatterlist *dst, unsigned int len)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	struct chachapoly_ctx *ctx = crypto_aead_ctx(tfm);
	struct skcipher_request *sreq = aead_request_ctx(req);
	u8 iv[XCHACHA_IV_SIZE];
	int err;

	chachapoly_iv(iv, req->iv, chachapoly_inst(tfm)->xchacha, counter);
	skcipher_request_set_tfm(sreq, ctx->chacha);
	skcipher_request_set_callback(sreq, 0, NULL, NULL);
	skcipher_request_set_crypt(sreq, src, dst, len, iv);
	err = crypto_skcipher_encrypt(sreq);
	memzero_explicit(sreq, sizeof(*sreq) + crypto_skcipher_reqsize(ctx->chacha));
	return err;
}

/* Tag over AD (from @adsg) and @len bytes of ciphertext (at @assoclen of @ctsg). */
static int api_tag(struct aead_request *req, struct scatterlist *adsg, struct scatterlist *ctsg,
		   size_t len, u8 tag[CHACHAPOLY_TAG_SIZE])
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	struct chachapoly_ctx *ctx = crypto_aead_ctx(tfm);
	u8 key[CHACHA_BLOCK_SIZE] = { 0 }, lens[POLY1305_BLOCK_SIZE];
	struct scatterlist sg;
	SHASH_DESC_ON_STACK(desc, ctx->poly);
	int err;

	desc->tfm = ctx->poly;
	sg_init_one(&sg, key, POLY1305_KEY_SIZE);
	err = api_chacha(req, 0, &sg, &sg, POLY1305_KEY_SIZE);
	if (err)
		goto out;
	err = crypto_shash_init(desc);
	if (!err)
		err = crypto_shash_update(desc, key, POLY1305_KEY_SIZE);
	if (!err)
		err = poly_update_sg(desc, adsg, 0, req->assoclen);
	if (!err)
		err = poly_update_sg(desc, ctsg, req->assoclen, len);
	put_unaligned_le64(req->assoclen, lens);
	put_unaligned_le64(len, lens + 8);
	if (!err)
		err = crypto_shash_update(desc, lens, sizeof(lens));
	if (!err)
		err = crypto_shash_final(desc, tag);
out:
	shash_desc_zero(desc);
	memzero_explicit(key, sizeof(key));
	return err;
}

static int api_encrypt(struct aead_request *req)
{
	struct scatterlist sfw[2], dfw[2], *s, *d;
	u8 tag[CHACHAPOLY_TAG_SIZE];
	int err;

	err = sg_copy_sg(req->dst, req->src, req->assoclen);
	if (err)
		return err;
	if (req->cryptlen) {
		s = sg_ffwd(sfw, req->src, req->assoclen);
		d = req->src == req->dst ? s : sg_ffwd(dfw, req->dst, req->assoclen);
		if (!s || !d)
			return -EINVAL;
		err = api_chacha(req, 1, s, d, req->cryptlen);
		if (err)
			return err;
	}
	err = api_tag(req, req->src, req->dst, req->cryptlen, tag);
	if (err)
		return err;
	write_tag(req->dst, (size_t)req->assoclen + req->cryptlen, tag);
	return 0;
}

static int api_decrypt(struct aead_request *req)
{
	size_t len = req->cryptlen - CHACHAPOLY_TAG_SIZE;
	struct scatterlist sfw[2], dfw[2], *s, *d;
	u8 tag[CHACHAPOLY_TAG_SIZE], mac[CHACHAPOLY_TAG_SIZE];
	int err, bad;

	err = read_tag(req->src, (size_t)req->assoclen + len, tag);
	if (!err)
		err = api_tag(req, req->src, req->src, len, mac);
	if (err)
		return err;
	bad = crypto_memneq(mac, tag, CHACHAPOLY_TAG_SIZE);
	memzero_explicit(mac, sizeof(mac));
	if (bad) {
		sg_zero_buffer(req->dst, ~0u, len, (off_t)req->assoclen);
		return -EBADMSG;
	}
	err = sg_copy_sg(req->dst, req->src, req->assoclen);
	if (err || !len)
		return err;
	s = sg_ffwd(sfw, req->src, req->assoclen);
	d = req->src == req->dst ? s : sg_ffwd(dfw, req->dst, req->assoclen);
	if (!s || !d)
		return -EINVAL;
	return api_chacha(req, 1, s, d, (unsigned int)len);
}

/* ---- aead_alg entries ---- */

static int chachapoly_encrypt(struct aead_request *req)
{
	struct chachapoly_instance *inst = chachapoly_inst(crypto_aead_reqtfm(req));

	if (inst->crypt && inst->blocks)
		return direct_encrypt(req);
	return api_encrypt(req);
}

static int chachapoly_decrypt(struct aead_request *req)
{
	struct chachapoly_instance *inst = chachapoly_inst(crypto_aead_reqtfm(req));

	if (req->cryptlen < CHACHAPOLY_TAG_SIZE)
		return -EINVAL;
	if (inst->crypt && inst->blocks)
		return direct_decrypt(req);
	return api_decrypt(req);
}

static int chachapoly_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int keylen)
{
	struct chachapoly_ctx *ctx = crypto_aead_ctx(tfm);

	if (keylen != CHACHA_KEY_SIZE)
		return -EINVAL;
	return crypto_skcipher_setkey(ctx->chacha, key, keylen);
}

static int chachapoly_setauthsize(struct crypto_aead *tfm, unsigned int authsize)
{
	(void)tfm;
	return authsize == CHACHAPOLY_TAG_SIZE ? 0 : -EINVAL;
}

static int chachapoly_init_tfm(struct crypto_aead *tfm)
{
	struct chachapoly_instance *inst = chachapoly_inst(tfm);
	struct chachapoly_ctx *ctx = crypto_aead_ctx(tfm);
	struct crypto_skcipher *chacha;
	struct crypto_shash *poly;

	chacha = crypto_spawn_skcipher(&inst->chacha);
	if (IS_ERR(chacha))
		return (int)PTR_ERR(chacha);
	poly = crypto_spawn_shash(&inst->poly);
	if (IS_ERR(poly)) {
		crypto_free_skcipher(chacha);
		return (int)PTR_ERR(poly);
	}
	ctx->chacha = chacha;
	ctx->poly = poly;
	if (!(inst->crypt && inst->blocks))
		crypto_aead_set_reqsize(tfm, sizeof(struct skcipher_request) +
					     crypto_skcipher_reqsize(chacha));
	return 0;
}

static void chachapoly_exit_tfm(struct crypto_aead *tfm)
{
	struct chachapoly_ctx *ctx = crypto_aead_ctx(tfm);

	crypto_free_skcipher(ctx->chacha);
	crypto_free_shash(ctx->poly);
}

static void chachapoly_destroy(struct crypto_alg *alg)
{
	struct chachapoly_instance *inst = container_of(alg, struct chachapoly_instance, alg.base);

	/* no-ops if the registry dropped them */
	crypto_drop_spawn(&inst->chacha);
	crypto_drop_spawn(&inst->poly);
	free(inst);
}

static int chachapoly_create(struct crypto_template *tmpl, const char *const *args, int nargs)
{
	struct chachapoly_instance *inst;
	struct crypto_alg *algs[2];
	struct skcipher_alg *chacha;
	struct shash_alg *poly;
	int err;

	if (nargs != 2)
		return -EINVAL;
	inst = calloc(1, sizeof(*inst));
	if (!inst)
		return -ENOMEM;

	err = crypto_grab_skcipher(&inst->chacha, &inst->alg.base, args[0], 0, 0);
	if (err)
		goto err_free;
	err = crypto_grab_shash(&inst->poly, &inst->alg.base, args[1], 0, 0);
	if (err)
		goto err_drop;
	algs[0] = inst->chacha.alg;
	algs[1] = inst->poly.alg;
	chacha = __crypto_skcipher_alg(algs[0]);
	poly = __crypto_shash_alg(algs[1]);

	err = -EINVAL;
	if (algs[0]->cra_blocksize != 1 || chacha->chunksize != CHACHA_BLOCK_SIZE ||
	    chacha->min_keysize > CHACHA_KEY_SIZE || chacha->max_keysize < CHACHA_KEY_SIZE)
		goto err_drop;
	if (chacha->ivsize == CHACHA_IV_SIZE)
		inst->xchacha = false;
	else if (chacha->ivsize == XCHACHA_IV_SIZE)
		inst->xchacha = true;
	else
		goto err_drop;
	if (strcmp(algs[1]->cra_name, "poly1305") || poly->digestsize != POLY1305_DIGEST_SIZE)
		goto err_drop;
	err = crypto_inst_setname(&inst->alg.base, "rfc7539", algs, 2);
	if (err)
		goto err_drop;

	inst->crypt = rind_chacha_alg_crypt(algs[0], NULL);
	inst->blocks = rind_poly1305_alg_blocks(algs[1]);

	/* as the kernel's chachapoly: the mean of its two halves */
	inst->alg.base.cra_priority = (algs[0]->cra_priority + algs[1]->cra_priority) / 2;
	inst->alg.base.cra_flags = CRYPTO_ALG_TYPE_AEAD;
	inst->alg.base.cra_blocksize = 1;
	inst->alg.base.cra_ctxsize = sizeof(struct chachapoly_ctx);
	inst->alg.base.cra_module = "generic";
	inst->alg.base.cra_type = &crypto_aead_type;
	inst->alg.base.cra_destroy = chachapoly_destroy;
	inst->alg.ivsize = inst->xchacha ? XCHACHAPOLY_IV_SIZE : CHACHAPOLY_IV_SIZE;
	inst->alg.maxauthsize = CHACHAPOLY_TAG_SIZE;
	inst->alg.chunksize = CHACHA_BLOCK_SIZE;
	inst->alg.setkey = chachapoly_setkey;
	inst->alg.setauthsize = chachapoly_setauthsize;
	inst->alg.encrypt = chachapoly_encrypt;
	inst->alg.decrypt = chachapoly_decrypt;
	inst->alg.init = chachapoly_init_tfm;
	inst->alg.exit = chachapoly_exit_tfm;

	err = crypto_register_instance(tmpl, &inst->alg.base);
	if (!err)
		return 0;
	/* Not kept (-EEXIST: built already; or its self-test failed). */
err_drop:
	crypto_drop_spawn(&inst->poly);
	crypto_drop_spawn(&inst->chacha);
err_free:
	free(inst);
	return err;
}

static struct crypto_template rfc7539_tmpl = {
	.name = "rfc7539",
	.create = chachapoly_create,
};

/*
 * The RFC 8439 section 2.8.2 inputs, which draft-irtf-cfrg-xchacha A.3.1
 * uses again (with its own 24-byte nonce), and the two ciphertexts but
 * for the byte each altered copy below flips: 2.8.2's last (a tag byte),
 * A.3.1's first.
 */
#define TV_SUNSCREEN_KEY \
	"\x80\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f" \
	"\x90\x91\x92\x93\x94\x95\x96\x97\x98\x99\x9a\x9b\x9c\x9d\x9e\x9f"
#define TV_SUNSCREEN_AAD \
	"\x50\x51\x52\x53\xc0\xc1\xc2\xc3\xc4\xc5\xc6\xc7"
#define TV_SUNSCREEN_PTEXT \
	"\x4c\x61\x64\x69\x65\x73\x20\x61\x6e\x64\x20\x47\x65\x6e\x74\x6c" \
	"\x65\x6d\x65\x6e\x20\x6f\x66\x20\x74\x68\x65\x20\x63\x6c\x61\x73" \
	"\x73\x20\x6f\x66\x20\x27\x39\x39\x3a\x20\x49\x66\x20\x49\x20\x63" \
	"\x6f\x75\x6c\x64\x20\x6f\x66\x66\x65\x72\x20\x79\x6f\x75\x20\x6f" \
	"\x6e\x6c\x79\x20\x6f\x6e\x65\x20\x74\x69\x70\x20\x66\x6f\x72\x20" \
	"\x74\x68\x65\x20\x66\x75\x74\x75\x72\x65\x2c\x20\x73\x75\x6e\x73" \
	"\x63\x72\x65\x65\x6e\x20\x77\x6f\x75\x6c\x64\x20\x62\x65\x20\x69" \
	"\x74\x2e"
#define TV_RFC8439_282_CTEXT_HEAD \
	"\xd3\x1a\x8d\x34\x64\x8e\x60\xdb\x7b\x86\xaf\xbc\x53\xef\x7e\xc2" \
	"\xa4\xad\xed\x51\x29\x6e\x08\xfe\xa9\xe2\xb5\xa7\x36\xee\x62\xd6" \
	"\x3d\xbe\xa4\x5e\x8c\xa9\x67\x12\x82\xfa\xfb\x69\xda\x92\x72\x8b" \
	"\x1a\x71\xde\x0a\x9e\x06\x0b\x29\x05\xd6\xa5\xb6\x7e\xcd\x3b\x36" \
	"\x92\xdd\xbd\x7f\x2d\x77\x8b\x8c\x98\x03\xae\xe3\x28\x09\x1b\x58" \
	"\xfa\xb3\x24\xe4\xfa\xd6\x75\x94\x55\x85\x80\x8b\x48\x31\xd7\xbc" \
	"\x3f\xf4\xde\xf0\x8e\x4b\x7a\x9d\xe5\x76\xd2\x65\x86\xce\xc6\x4b" \
	"\x61\x16\x1a\xe1\x0b\x59\x4f\x09\xe2\x6a\x7e\x90\x2e\xcb\xd0\x60" \
	"\x06"
#define TV_XCHACHA_A31_CTEXT_TAIL \
	"\x6d\x17\x9d\x3e\x83\xd4\x3b\x95\x76\x57\x94\x93\xc0\xe9\x39\x57" \
	"\x2a\x17\x00\x25\x2b\xfa\xcc\xbe\xd2\x90\x2c\x21\x39\x6c\xbb\x73" \
	"\x1c\x7f\x1b\x0b\x4a\xa6\x44\x0b\xf3\xa8\x2f\x4e\xda\x7e\x39\xae" \
	"\x64\xc6\x70\x8c\x54\xc2\x16\xcb\x96\xb7\x2e\x12\x13\xb4\x52\x2f" \
	"\x8c\x9b\xa4\x0d\xb5\xd9\x45\xb1\x1b\x69\xb9\x82\xc1\xbb\x9e\x3f" \
	"\x3f\xac\x2b\xc3\x69\x48\x8f\x76\xb2\x38\x35\x65\xd3\xff\xf9\x21" \
	"\xf9\x66\x4c\x97\x63\x7d\xa9\x76\x88\x12\xf6\x15\xc6\x8b\x13\xb5" \
	"\x2e\xc0\x87\x59\x24\xc1\xc7\x98\x79\x47\xde\xaf\xd8\x78\x0a\xcf" \
	"\x49"
#define TV_RFC8439_282_IV "\x07\x00\x00\x00\x40\x41\x42\x43\x44\x45\x46\x47"
#define TV_XCHACHA_A31_IV \
	"\x40\x41\x42\x43\x44\x45\x46\x47\x48\x49\x4a\x4b\x4c\x4d\x4e\x4f" \
	"\x50\x51\x52\x53\x54\x55\x56\x57"

/* The 2.8.2 and A.3.1 entries but for the nonce and the ciphertext. */
#define TV_SUNSCREEN(_iv)		\
	.key	= TV_SUNSCREEN_KEY,	\
	.klen	= 32,			\
	.iv	= _iv,			\
	.assoc	= TV_SUNSCREEN_AAD,	\
	.alen	= 12,			\
	.ptext	= TV_SUNSCREEN_PTEXT,	\
	.plen	= 114,			\
	.clen	= 130

/* RFC 8439 section 2.8.2, A.5, and 2.8.2 with its tag altered. */
static const struct aead_testvec rfc7539_tv[] = {
	{
		/* RFC 8439 section 2.8.2 */
		TV_SUNSCREEN(TV_RFC8439_282_IV),
		.ctext	= TV_RFC8439_282_CTEXT_HEAD "\x91",
	},
	{
		/* RFC 8439 A.5 */
		.key	= "\x1c\x92\x40\xa5\xeb\x55\xd3\x8a\xf3\x33\x88\x86\x04\xf6\xb5\xf0"
			  "\x47\x39\x17\xc1\x40\x2b\x80\x09\x9d\xca\x5c\xbc\x20\x70\x75\xc0",
		.klen	= 32,
		.iv	= "\x00\x00\x00\x00\x01\x02\x03\x04\x05\x06\x07\x08",
		.assoc	= "\xf3\x33\x88\x86\x00\x00\x00\x00\x00\x00\x4e\x91",
		.alen	= 12,
		.ptext	= "\x49\x6e\x74\x65\x72\x6e\x65\x74\x2d\x44\x72\x61\x66\x74\x73\x20"
			  "\x61\x72\x65\x20\x64\x72\x61\x66\x74\x20\x64\x6f\x63\x75\x6d\x65"
			  "\x6e\x74\x73\x20\x76\x61\x6c\x69\x64\x20\x66\x6f\x72\x20\x61\x20"
			  "\x6d\x61\x78\x69\x6d\x75\x6d\x20\x6f\x66\x20\x73\x69\x78\x20\x6d"
			  "\x6f\x6e\x74\x68\x73\x20\x61\x6e\x64\x20\x6d\x61\x79\x20\x62\x65"
			  "\x20\x75\x70\x64\x61\x74\x65\x64\x2c\x20\x72\x65\x70\x6c\x61\x63"
			  "\x65\x64\x2c\x20\x6f\x72\x20\x6f\x62\x73\x6f\x6c\x65\x74\x65\x64"
			  "\x20\x62\x79\x20\x6f\x74\x68\x65\x72\x20\x64\x6f\x63\x75\x6d\x65"
			  "\x6e\x74\x73\x20\x61\x74\x20\x61\x6e\x79\x20\x74\x69\x6d\x65\x2e"
			  "\x20\x49\x74\x20\x69\x73\x20\x69\x6e\x61\x70\x70\x72\x6f\x70\x72"
			  "\x69\x61\x74\x65\x20\x74\x6f\x20\x75\x73\x65\x20\x49\x6e\x74\x65"
			  "\x72\x6e\x65\x74\x2d\x44\x72\x61\x66\x74\x73\x20\x61\x73\x20\x72"
			  "\x65\x66\x65\x72\x65\x6e\x63\x65\x20\x6d\x61\x74\x65\x72\x69\x61"
			  "\x6c\x20\x6f\x72\x20\x74\x6f\x20\x63\x69\x74\x65\x20\x74\x68\x65"
			  "\x6d\x20\x6f\x74\x68\x65\x72\x20\x74\x68\x61\x6e\x20\x61\x73\x20"
			  "\x2f\xe2\x80\x9c\x77\x6f\x72\x6b\x20\x69\x6e\x20\x70\x72\x6f\x67"
			  "\x72\x65\x73\x73\x2e\x2f\xe2\x80\x9d",
		.plen	= 265,
		.ctext	= "\x64\xa0\x86\x15\x75\x86\x1a\xf4\x60\xf0\x62\xc7\x9b\xe6\x43\xbd"
			  "\x5e\x80\x5c\xfd\x34\x5c\xf3\x89\xf1\x08\x67\x0a\xc7\x6c\x8c\xb2"
			  "\x4c\x6c\xfc\x18\x75\x5d\x43\xee\xa0\x9e\xe9\x4e\x38\x2d\x26\xb0"
			  "\xbd\xb7\xb7\x3c\x32\x1b\x01\x00\xd4\xf0\x3b\x7f\x35\x58\x94\xcf"
			  "\x33\x2f\x83\x0e\x71\x0b\x97\xce\x98\xc8\xa8\x4a\xbd\x0b\x94\x81"
			  "\x14\xad\x17\x6e\x00\x8d\x33\xbd\x60\xf9\x82\xb1\xff\x37\xc8\x55"
			  "\x97\x97\xa0\x6e\xf4\xf0\xef\x61\xc1\x86\x32\x4e\x2b\x35\x06\x38"
			  "\x36\x06\x90\x7b\x6a\x7c\x02\xb0\xf9\xf6\x15\x7b\x53\xc8\x67\xe4"
			  "\xb9\x16\x6c\x76\x7b\x80\x4d\x46\xa5\x9b\x52\x16\xcd\xe7\xa4\xe9"
			  "\x90\x40\xc5\xa4\x04\x33\x22\x5e\xe2\x82\xa1\xb0\xa0\x6c\x52\x3e"
			  "\xaf\x45\x34\xd7\xf8\x3f\xa1\x15\x5b\x00\x47\x71\x8c\xbc\x54\x6a"
			  "\x0d\x07\x2b\x04\xb3\x56\x4e\xea\x1b\x42\x22\x73\xf5\x48\x27\x1a"
			  "\x0b\xb2\x31\x60\x53\xfa\x76\x99\x19\x55\xeb\xd6\x31\x59\x43\x4e"
			  "\xce\xbb\x4e\x46\x6d\xae\x5a\x10\x73\xa6\x72\x76\x27\x09\x7a\x10"
			  "\x49\xe6\x17\xd9\x1d\x36\x10\x94\xfa\x68\xf0\xff\x77\x98\x71\x30"
			  "\x30\x5b\xea\xba\x2e\xda\x04\xdf\x99\x7b\x71\x4d\x6c\x6f\x2c\x29"
			  "\xa6\xad\x5c\xb4\x02\x2b\x02\x70\x9b\xee\xad\x9d\x67\x89\x0c\xbb"
			  "\x22\x39\x23\x36\xfe\xa1\x85\x1f\x38",
		.clen	= 281,
	},
	{
		/* section 2.8.2, last tag bit flipped: must not verify */
		TV_SUNSCREEN(TV_RFC8439_282_IV),
		.ctext	= TV_RFC8439_282_CTEXT_HEAD "\x90",
		.novrfy	= 1,
	},
};

/* draft-irtf-cfrg-xchacha A.3.1, and the same with a ciphertext bit flipped. */
static const struct aead_testvec rfc7539_xchacha_tv[] = {
	{
		/* draft-irtf-cfrg-xchacha A.3.1 */
		TV_SUNSCREEN(TV_XCHACHA_A31_IV),
		.ctext	= "\xbd" TV_XCHACHA_A31_CTEXT_TAIL,
	},
	{
		/* A.3.1, first ciphertext bit flipped: must not verify */
		TV_SUNSCREEN(TV_XCHACHA_A31_IV),
		.ctext	= "\x3d" TV_XCHACHA_A31_CTEXT_TAIL,
		.novrfy	= 1,
	},
};

static struct alg_test_desc rfc7539_tests[] = {
	{ .alg = "rfc7539(chacha20,poly1305)", .suite.aead = __VECS(rfc7539_tv) },
	{ .alg = "rfc7539(xchacha20,poly1305)", .suite.aead = __VECS(rfc7539_xchacha_tv) },
};

static int chacha20poly1305_mod_init(void)
{
	crypto_register_tests(rfc7539_tests, ARRAY_SIZE(rfc7539_tests));
	return crypto_register_template(&rfc7539_tmpl);
}

module_init(chacha20poly1305_mod_init);
