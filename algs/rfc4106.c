// SPDX-License-Identifier: MIT
/*
 * The "rfc4106" template: GCM for IPsec ESP (RFC 4106) over a gcm AEAD,
 * "rfc4106(gcm(aes))".
 *
 * The key is the cipher key followed by a 4-byte salt; the nonce is
 * salt || the 8-byte explicit IV of the request (ivsize 8).  As in the
 * kernel, the associated data is 16 or 20 bytes (SPI, sequence number or
 * extended sequence number, then the explicit IV) and its last 8 bytes, the
 * IV, are not authenticated: GCM gets the first assoclen - 8 bytes as its
 * AD and the payload that follows the whole associated data.  Tags are 8,
 * 12 or 16 bytes.
 */
#include <limits.h>
#include <rind/internal/aead.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>

#define RFC4106_SALT_SIZE	4
#define RFC4106_IV_SIZE		8
#define RFC4106_SUBREQ_STACK	256	/* child request context kept on the stack */

/* The salt is wiped with the whole tfm when it is freed. */
struct rfc4106_ctx {
	struct aead_ctx_simple base;	/* the gcm aead, at its maxauthsize 16 until setauthsize */
	u8 salt[RFC4106_SALT_SIZE];
};

static int rfc4106_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int keylen)
{
	struct rfc4106_ctx *ctx = crypto_aead_ctx(tfm);
	int err;

	if (keylen < RFC4106_SALT_SIZE)
		return -EINVAL;
	keylen -= RFC4106_SALT_SIZE;
	err = crypto_aead_setkey(ctx->base.child, key, keylen);
	if (err)
		return err;
	memcpy(ctx->salt, key + keylen, RFC4106_SALT_SIZE);
	return 0;
}

static int rfc4106_setauthsize(struct crypto_aead *tfm, unsigned int authsize)
{
	struct rfc4106_ctx *ctx = crypto_aead_ctx(tfm);

	if (authsize != 8 && authsize != 12 && authsize != 16)
		return -EINVAL;
	return crypto_aead_setauthsize(ctx->base.child, authsize);
}

/*
 * @sg fast-forwarded by @len bytes: a pointer into it, or @tmp (two
 * entries) holding the rest of a cut entry chained to the following ones.
 * NULL when nothing is left.
 */
static struct scatterlist *rfc4106_ffwd(struct scatterlist tmp[2], struct scatterlist *sg,
					unsigned int len)
{
	for (;;) {
		if (!sg)
			return NULL;
		if (!len)
			return sg;
		if (sg->length > len)
			break;
		len -= sg->length;
		sg = sg_next(sg);
	}
	sg_init_table(tmp, 2);
	tmp[0].addr = sg->addr;
	tmp[0].offset = sg->offset + len;
	tmp[0].length = sg->length - len;
	if (sg_next(sg))
		sg_chain(tmp, 2, sg_next(sg));
	else
		sg_mark_end(&tmp[0]);
	return tmp;
}

/* [ad buffer] followed by @rest (or nothing). */
static void rfc4106_head(struct scatterlist head[2], u8 *ad, unsigned int adlen,
			 struct scatterlist *rest)
{
	sg_init_table(head, 2);
	sg_set_buf(&head[0], ad, adlen);
	if (rest)
		sg_chain(head, 2, rest);
	else
		sg_mark_end(&head[0]);
}

static int rfc4106_crypt(struct aead_request *req, bool enc)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	struct rfc4106_ctx *ctx = crypto_aead_ctx(tfm);
	unsigned int assoclen = req->assoclen, adlen = assoclen - RFC4106_IV_SIZE;
	struct scatterlist shead[2], dhead[2], stmp[2], dtmp[2];
	u8 sad[12], dad[12], iv[12];
	union {
		struct aead_request req;
		u8 buf[sizeof(struct aead_request) + RFC4106_SUBREQ_STACK];
	} onstack __attribute__((aligned(16)));
	struct aead_request *subreq = &onstack.req;
	int err;

	if (assoclen != 16 && assoclen != 20)
		return -EINVAL;
	if (sg_pcopy_to_buffer(req->src, sg_nents(req->src), sad, adlen, 0) != adlen)
		return -EINVAL;
	memcpy(dad, sad, adlen);
	if (req->src != req->dst) {
		/* The destination gets the whole associated data, IV included. */
		u8 full[20];

		if (sg_pcopy_to_buffer(req->src, sg_nents(req->src), full, assoclen, 0) != assoclen ||
		    sg_pcopy_from_buffer(req->dst, sg_nents(req->dst), full, assoclen, 0) != assoclen)
			return -EINVAL;
	}

	memcpy(iv, ctx->salt, RFC4106_SALT_SIZE);
	memcpy(iv + RFC4106_SALT_SIZE, req->iv, RFC4106_IV_SIZE);

	if (crypto_aead_reqsize(ctx->base.child) > RFC4106_SUBREQ_STACK) {
		subreq = aead_request_alloc(ctx->base.child, GFP_KERNEL);
		if (IS_ERR_OR_NULL(subreq))
			return subreq ? (int)PTR_ERR(subreq) : -ENOMEM;
	} else {
		memset(subreq, 0, sizeof(*subreq));
		aead_request_set_tfm(subreq, ctx->base.child);
	}
	aead_request_set_callback(subreq, req->base.flags, NULL, NULL);

	rfc4106_head(shead, sad, adlen, rfc4106_ffwd(stmp, req->src, assoclen));
	if (req->src == req->dst) {
		aead_request_set_crypt(subreq, shead, shead, req->cryptlen, iv);
	} else {
		rfc4106_head(dhead, dad, adlen, rfc4106_ffwd(dtmp, req->dst, assoclen));
		aead_request_set_crypt(subreq, shead, dhead, req->cryptlen, iv);
	}
	aead_request_set_ad(subreq, adlen);

	err = enc ? crypto_aead_encrypt(subreq) : crypto_aead_decrypt(subreq);

	if (subreq != &onstack.req)
		aead_request_free(subreq);
	else
		memzero_explicit(&onstack, sizeof(onstack));
	memzero_explicit(iv, sizeof(iv));
	return err;
}

static int rfc4106_encrypt(struct aead_request *req)
{
	return rfc4106_crypt(req, true);
}

static int rfc4106_decrypt(struct aead_request *req)
{
	return rfc4106_crypt(req, false);
}

static int rfc4106_create(struct crypto_template *tmpl, const char *const *args, int nargs)
{
	struct aead_instance *inst;
	struct crypto_alg *gcm;

	inst = aead_alloc_instance_simple(tmpl, args, nargs, CRYPTO_ALG_TYPE_AEAD);
	if (IS_ERR(inst))
		return (int)PTR_ERR(inst);
	gcm = inst->spawn.alg;
	/* Only plain GCM with a 96-bit nonce and 16-byte tags underneath. */
	if (strncmp(gcm->cra_name, "gcm(", 4) || inst->alg.ivsize != 12 ||
	    inst->alg.maxauthsize != 16) {
		aead_free_instance_simple(inst);
		return -EINVAL;
	}
	inst->alg.base.cra_module = gcm->cra_module;
	inst->alg.base.cra_ctxsize = sizeof(struct rfc4106_ctx);
	inst->alg.ivsize = RFC4106_IV_SIZE;
	inst->alg.setkey = rfc4106_setkey;
	inst->alg.setauthsize = rfc4106_setauthsize;
	inst->alg.encrypt = rfc4106_encrypt;
	inst->alg.decrypt = rfc4106_decrypt;
	return aead_register_instance_simple(tmpl, inst);
}

static struct crypto_template rfc4106_tmpl = {
	.name = "rfc4106",
	.create = rfc4106_create,
};

/*
 * Known answers for "rfc4106(gcm(aes))", made with an independent GCM over
 * the nonce salt || IV and the AD without its trailing IV: a 16-byte AD
 * (SPI, sequence number, IV), a 20-byte one (extended sequence number) with
 * a 256-bit key, and a forgery.
 */
static const struct aead_testvec rfc4106_tv[] = {
	{
		/* 16-byte AD: SPI, sequence number, IV */
		.key	= "\x4c\x80\xcd\xef\xbb\x5d\x10\xda\x90\x6a\xc7\x3c\x36\x13\xa6\x34"
			  "\x2e\x44\x3b\x68",
		.iv	= "\x49\x56\xed\x7e\x3b\x24\x4c\xfe",
		.assoc	= "\x00\x00\x43\x21\x00\x00\x00\x07\x49\x56\xed\x7e\x3b\x24\x4c\xfe",
		.ptext	= "\x45\x00\x00\x48\x69\x9a\x00\x00\x80\x11\x4d\xb7\xc0\xa8\x01\x02"
			  "\xc0\xa8\x01\x01\x0a\x9b\xf1\x56\x38\xd3\x01\x00\x00\x01\x00\x00"
			  "\x00\x00\x00\x00\x00\x00\x01\x02\x02\x01",
		.ctext	= "\xfe\xcf\x53\x7e\x72\x9d\x5b\x07\xdc\x30\xdf\x52\x8d\xd2\x2b\x76"
			  "\x8d\x1b\x98\x73\x66\x96\xa6\xfd\x34\x85\x09\xfa\x13\xce\xac\x34"
			  "\xcf\xa2\x43\x6f\x10\xfc\x81\xa4\x17\x97\xc5\xd8\xe6\x56\x27\x36"
			  "\x8e\xf7\xbb\x5c\x9f\x6d\x60\x5c\xe6\x75",
		.klen	= 20,
		.alen	= 16,
		.plen	= 42,
		.clen	= 58,
	},
	{
		/* 20-byte AD (extended sequence number), 256-bit key */
		.key	= "\xab\xbc\xcd\xde\xf0\x01\x12\x23\x34\x45\x56\x67\x78\x89\x9a\xab"
			  "\xab\xbc\xcd\xde\xf0\x01\x12\x23\x34\x45\x56\x67\x78\x89\x9a\xab"
			  "\x73\x61\x6c\x74",
		.iv	= "\x61\x6e\x64\x0a\x6e\x6f\x6e\x63",
		.assoc	= "\x17\x40\x5e\x67\x15\x6f\x5d\x3c\x78\xe1\xf8\xfd\x61\x6e\x64\x0a"
			  "\x6e\x6f\x6e\x63",
		.ptext	= "\x45\x00\x00\x30\x69\xa6\x40\x00\x80\x06\x26\x90\xc0\xa8\x01\x02"
			  "\xc0\xa8\x01\x01\x01\x23\x45\x67\x89\xab\xcd\xef\x01\x23\x45\x67"
			  "\x89\xab\xcd\xef\x01\x23\x45\x67\x89\xab\xcd\xef\x01\x23\x45\x67"
			  "\x89\xab\xcd\xef\x01\x23\x45\x67\x89\xab\xcd\xef\x01\x02\x03\x04",
		.ctext	= "\x68\x17\xc1\xb7\x1c\xd4\x64\xc5\xd2\x50\x5f\x4f\xb6\x42\xfb\x80"
			  "\xb0\x69\xb7\x53\x05\xc3\x87\x51\x85\x6f\x49\x29\x6b\xe9\xf9\x49"
			  "\x07\x59\x12\x30\xc7\x6b\x5a\xcd\x7f\x5e\xc8\x84\xbf\x97\x09\x00"
			  "\xc3\x24\xda\xdb\xc8\x2a\x19\xc1\xfd\x7e\x37\xe5\x00\xfb\xb1\xef"
			  "\x08\x2a\x0b\x4b\x12\x26\x2c\xe6\x1e\xbc\xd8\xee\x6d\xd4\xf7\xd0",
		.klen	= 36,
		.alen	= 20,
		.plen	= 64,
		.clen	= 80,
	},
	{
		/* the first one with a ciphertext bit flipped */
		.key	= "\x4c\x80\xcd\xef\xbb\x5d\x10\xda\x90\x6a\xc7\x3c\x36\x13\xa6\x34"
			  "\x2e\x44\x3b\x68",
		.iv	= "\x49\x56\xed\x7e\x3b\x24\x4c\xfe",
		.assoc	= "\x00\x00\x43\x21\x00\x00\x00\x07\x49\x56\xed\x7e\x3b\x24\x4c\xfe",
		.ptext	= "\x45\x00\x00\x48\x69\x9a\x00\x00\x80\x11\x4d\xb7\xc0\xa8\x01\x02"
			  "\xc0\xa8\x01\x01\x0a\x9b\xf1\x56\x38\xd3\x01\x00\x00\x01\x00\x00"
			  "\x00\x00\x00\x00\x00\x00\x01\x02\x02\x01",
		.ctext	= "\xfe\xcf\x53\x7e\x72\x9d\x5b\x07\xdc\x30\xdf\x52\x8d\xd2\x2b\x76"
			  "\x8d\x1b\x98\x73\x66\x96\xa6\xfd\x34\x85\x09\xfa\x13\xce\xac\x34"
			  "\xcf\xa2\x43\x6f\x10\xfc\x81\xa4\x17\x97\xc5\xd8\xe6\xd6\x27\x36"
			  "\x8e\xf7\xbb\x5c\x9f\x6d\x60\x5c\xe6\x75",
		.klen	= 20,
		.alen	= 16,
		.plen	= 42,
		.clen	= 58,
		.novrfy	= 1,
	},
};

static struct alg_test_desc rfc4106_test = {
	.alg = "rfc4106(gcm(aes))",
	.suite.aead = __VECS(rfc4106_tv),
};

static int rfc4106_mod_init(void)
{
	crypto_register_test(&rfc4106_test);
	return crypto_register_template(&rfc4106_tmpl);
}
module_init(rfc4106_mod_init);
