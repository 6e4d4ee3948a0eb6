// SPDX-License-Identifier: MIT
/*
 * The "gcm" template: Galois/Counter Mode (NIST SP 800-38D) over a 16-byte
 * block cipher, "gcm(aes)" -> instance driver "gcm(aes-generic)".
 *
 * The counter mode runs through the cipher's multi-block entry (a chunk of
 * counter blocks at a time) and GHASH is the constant-time generic one of
 * algs/ghash.c, called directly rather than through a spawned shash.  Only
 * 96-bit IVs are accepted (ivsize 12, J0 = IV || 0^31 || 1).
 *
 * Requests follow <rind/aead.h>: the associated data is hashed from the
 * source and copied to the destination when the two differ; decryption
 * hashes and decrypts in one pass and, if the tag does not match (compared
 * in constant time), zeroes the plaintext it wrote and returns -EBADMSG.
 */
#include <limits.h>
#include <rind/internal/aead.h>
#include <rind/internal/cipher.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/ghash.h>

#define GCM_IV_SIZE	12
#define GCM_CHUNK	512	/* bytes of keystream made per cipher call */

/* The key's tfm data; wiped with the whole tfm when it is freed. */
struct gcm_ctx {
	struct aead_ctx_simple base;	/* the block cipher */
	struct ghash_key ghash;
};

/* 4, 8 and 12..16 bytes (SP 800-38D section 5.2.1.2). */
static int gcm_check_authsize(unsigned int authsize)
{
	switch (authsize) {
	case 4:
	case 8:
	case 12:
	case 13:
	case 14:
	case 15:
	case 16:
		return 0;
	}
	return -EINVAL;
}

static int gcm_setauthsize(struct crypto_aead *tfm, unsigned int authsize)
{
	(void)tfm;
	return gcm_check_authsize(authsize);
}

static int gcm_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int keylen)
{
	struct gcm_ctx *ctx = crypto_aead_ctx(tfm);
	u8 h[16] = { 0 };
	int err;

	err = crypto_cipher_setkey(ctx->base.cipher, key, keylen);
	if (err)
		return err;
	crypto_cipher_encrypt_one(ctx->base.cipher, h, h);
	ghash_generic_setkey(&ctx->ghash, h);
	memzero_explicit(h, sizeof(h));
	return 0;
}

/*
 * Counter mode from counter value @ctr over @len bytes, hashing the
 * ciphertext (before decryption or after encryption).
 */
static void gcm_ctr_hash(struct gcm_ctx *ctx, struct ghash_acc *acc, const u8 *iv,
			 u8 *dst, const u8 *src, size_t len, bool enc)
{
	u8 ks[GCM_CHUNK] __attribute__((aligned(16)));
	u32 ctr = 2;
	size_t n, nb, i;

	while (len) {
		n = min(len, sizeof(ks));
		nb = (n + 15) / 16;
		for (i = 0; i < nb; i++) {
			memcpy(ks + 16 * i, iv, GCM_IV_SIZE);
			put_unaligned_be32(ctr++, ks + 16 * i + 12);
		}
		crypto_cipher_encrypt_blocks(ctx->base.cipher, ks, ks, nb);
		if (!enc)
			ghash_generic_pad(&ctx->ghash, acc, src, n);
		crypto_xor_cpy(dst, src, ks, n);
		if (enc)
			ghash_generic_pad(&ctx->ghash, acc, dst, n);
		src += n;
		dst += n;
		len -= n;
	}
	memzero_explicit(ks, sizeof(ks));
}

/* The destination gets the AD when it is not the source (nor the same bytes). */
static int gcm_copy_ad(struct aead_request *req, const u8 *ad)
{
	unsigned int assoclen = req->assoclen;
	u8 *d;

	if (req->src == req->dst)
		return 0;
	d = rind_sg_contig(req->dst, 0, assoclen);
	if (d) {
		if (d != ad)
			memmove(d, ad, assoclen);
		return 0;
	}
	if (sg_pcopy_from_buffer(req->dst, sg_nents(req->dst), ad, assoclen, 0) != assoclen)
		return -EINVAL;
	return 0;
}

static int gcm_crypt(struct aead_request *req, bool enc)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	struct gcm_ctx *ctx = crypto_aead_ctx(tfm);
	unsigned int authsize = crypto_aead_authsize(tfm);
	unsigned int assoclen = req->assoclen, cryptlen = req->cryptlen, ptlen;
	struct ghash_acc acc = { 0, 0 };
	struct rind_sg_map m;
	u8 j0[16], tag[16], rtag[16];
	int err = 0;

	if (enc) {
		ptlen = cryptlen;
		if ((u64)assoclen + cryptlen + authsize > UINT_MAX)
			return -EINVAL;
	} else {
		if (cryptlen < authsize)
			return -EINVAL;
		ptlen = cryptlen - authsize;
		if ((u64)assoclen + cryptlen > UINT_MAX)
			return -EINVAL;
		if (sg_pcopy_to_buffer(req->src, sg_nents(req->src), rtag, authsize,
				       assoclen + ptlen) != authsize)
			return -EINVAL;
	}

	if (assoclen) {
		err = rind_sg_map_ro(&m, req->src, 0, assoclen);
		if (err)
			return err;
		ghash_generic_pad(&ctx->ghash, &acc, m.src, assoclen);
		err = gcm_copy_ad(req, m.src);
		rind_sg_unmap(&m, false);
		if (err)
			goto out;
	}

	memcpy(j0, req->iv, GCM_IV_SIZE);
	put_unaligned_be32(1, j0 + 12);

	if (ptlen) {
		err = rind_sg_map(&m, req->src, req->dst, assoclen, ptlen);
		if (err)
			goto out;
		gcm_ctr_hash(ctx, &acc, j0, m.dst, m.src, ptlen, enc);
	}

	ghash_generic_lengths(&ctx->ghash, &acc, assoclen, ptlen);
	ghash_acc_out(&acc, tag);
	crypto_cipher_encrypt_one(ctx->base.cipher, j0, j0);
	crypto_xor(tag, j0, 16);

	if (enc) {
		if (ptlen)
			rind_sg_unmap(&m, true);
		if (sg_pcopy_from_buffer(req->dst, sg_nents(req->dst), tag, authsize,
					 assoclen + ptlen) != authsize)
			err = -EINVAL;
	} else {
		if (crypto_memneq(tag, rtag, authsize)) {
			err = -EBADMSG;
			if (ptlen)
				memzero_explicit(m.dst, ptlen);
		}
		if (ptlen)
			rind_sg_unmap(&m, true);
	}
out:
	memzero_explicit(&acc, sizeof(acc));
	memzero_explicit(tag, sizeof(tag));
	memzero_explicit(j0, sizeof(j0));
	return err;
}

static int gcm_encrypt(struct aead_request *req)
{
	return gcm_crypt(req, true);
}

static int gcm_decrypt(struct aead_request *req)
{
	return gcm_crypt(req, false);
}

static int gcm_create(struct crypto_template *tmpl, const char *const *args, int nargs)
{
	struct aead_instance *inst;

	inst = aead_alloc_instance_simple(tmpl, args, nargs, CRYPTO_ALG_TYPE_CIPHER);
	if (IS_ERR(inst))
		return (int)PTR_ERR(inst);
	if (inst->spawn.alg->cra_blocksize != 16) {
		aead_free_instance_simple(inst);
		return -EINVAL;
	}
	/* ranks as the kernel's gcm_base: between its cipher and ghash-generic */
	inst->alg.base.cra_priority = (inst->spawn.alg->cra_priority + 100) / 2;
	inst->alg.base.cra_ctxsize = sizeof(struct gcm_ctx);
	inst->alg.ivsize = GCM_IV_SIZE;
	inst->alg.setkey = gcm_setkey;
	inst->alg.setauthsize = gcm_setauthsize;
	inst->alg.encrypt = gcm_encrypt;
	inst->alg.decrypt = gcm_decrypt;
	return aead_register_instance_simple(tmpl, inst);
}

static struct crypto_template gcm_tmpl = {
	.name = "gcm",
	.create = gcm_create,
};

/*
 * Known answers for every "gcm(aes)": test cases 2, 4 (AD, partial block),
 * 8 (192-bit key) and 16 (256-bit) of the GCM specification, GMAC only
 * and a forgery.
 */
static const struct aead_testvec gcm_aes_tv[] = {
	{
		/* test case 2 */
		.key	= "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.iv	= "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.assoc	= "",
		.ptext	= "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.ctext	= "\x03\x88\xda\xce\x60\xb6\xa3\x92\xf3\x28\xc2\xb9\x71\xb2\xfe\x78"
			  "\xab\x6e\x47\xd4\x2c\xec\x13\xbd\xf5\x3a\x67\xb2\x12\x57\xbd\xdf",
		.klen	= 16,
		.alen	= 0,
		.plen	= 16,
		.clen	= 32,
	},
	{
		/* test case 4 */
		.key	= "\xfe\xff\xe9\x92\x86\x65\x73\x1c\x6d\x6a\x8f\x94\x67\x30\x83\x08",
		.iv	= "\xca\xfe\xba\xbe\xfa\xce\xdb\xad\xde\xca\xf8\x88",
		.assoc	= "\xfe\xed\xfa\xce\xde\xad\xbe\xef\xfe\xed\xfa\xce\xde\xad\xbe\xef"
			  "\xab\xad\xda\xd2",
		.ptext	= "\xd9\x31\x32\x25\xf8\x84\x06\xe5\xa5\x59\x09\xc5\xaf\xf5\x26\x9a"
			  "\x86\xa7\xa9\x53\x15\x34\xf7\xda\x2e\x4c\x30\x3d\x8a\x31\x8a\x72"
			  "\x1c\x3c\x0c\x95\x95\x68\x09\x53\x2f\xcf\x0e\x24\x49\xa6\xb5\x25"
			  "\xb1\x6a\xed\xf5\xaa\x0d\xe6\x57\xba\x63\x7b\x39",
		.ctext	= "\x42\x83\x1e\xc2\x21\x77\x74\x24\x4b\x72\x21\xb7\x84\xd0\xd4\x9c"
			  "\xe3\xaa\x21\x2f\x2c\x02\xa4\xe0\x35\xc1\x7e\x23\x29\xac\xa1\x2e"
			  "\x21\xd5\x14\xb2\x54\x66\x93\x1c\x7d\x8f\x6a\x5a\xac\x84\xaa\x05"
			  "\x1b\xa3\x0b\x39\x6a\x0a\xac\x97\x3d\x58\xe0\x91\x5b\xc9\x4f\xbc"
			  "\x32\x21\xa5\xdb\x94\xfa\xe9\x5a\xe7\x12\x1a\x47",
		.klen	= 16,
		.alen	= 20,
		.plen	= 60,
		.clen	= 76,
	},
	{
		/* test case 8 */
		.key	= "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
			  "\x00\x00\x00\x00\x00\x00\x00\x00",
		.iv	= "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.assoc	= "",
		.ptext	= "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.ctext	= "\x98\xe7\x24\x7c\x07\xf0\xfe\x41\x1c\x26\x7e\x43\x84\xb0\xf6\x00"
			  "\x2f\xf5\x8d\x80\x03\x39\x27\xab\x8e\xf4\xd4\x58\x75\x14\xf0\xfb",
		.klen	= 24,
		.alen	= 0,
		.plen	= 16,
		.clen	= 32,
	},
	{
		/* test case 16 */
		.key	= "\xfe\xff\xe9\x92\x86\x65\x73\x1c\x6d\x6a\x8f\x94\x67\x30\x83\x08"
			  "\xfe\xff\xe9\x92\x86\x65\x73\x1c\x6d\x6a\x8f\x94\x67\x30\x83\x08",
		.iv	= "\xca\xfe\xba\xbe\xfa\xce\xdb\xad\xde\xca\xf8\x88",
		.assoc	= "\xfe\xed\xfa\xce\xde\xad\xbe\xef\xfe\xed\xfa\xce\xde\xad\xbe\xef"
			  "\xab\xad\xda\xd2",
		.ptext	= "\xd9\x31\x32\x25\xf8\x84\x06\xe5\xa5\x59\x09\xc5\xaf\xf5\x26\x9a"
			  "\x86\xa7\xa9\x53\x15\x34\xf7\xda\x2e\x4c\x30\x3d\x8a\x31\x8a\x72"
			  "\x1c\x3c\x0c\x95\x95\x68\x09\x53\x2f\xcf\x0e\x24\x49\xa6\xb5\x25"
			  "\xb1\x6a\xed\xf5\xaa\x0d\xe6\x57\xba\x63\x7b\x39",
		.ctext	= "\x52\x2d\xc1\xf0\x99\x56\x7d\x07\xf4\x7f\x37\xa3\x2a\x84\x42\x7d"
			  "\x64\x3a\x8c\xdc\xbf\xe5\xc0\xc9\x75\x98\xa2\xbd\x25\x55\xd1\xaa"
			  "\x8c\xb0\x8e\x48\x59\x0d\xbb\x3d\xa7\xb0\x8b\x10\x56\x82\x88\x38"
			  "\xc5\xf6\x1e\x63\x93\xba\x7a\x0a\xbc\xc9\xf6\x62\x76\xfc\x6e\xce"
			  "\x0f\x4e\x17\x68\xcd\xdf\x88\x53\xbb\x2d\x55\x1b",
		.klen	= 32,
		.alen	= 20,
		.plen	= 60,
		.clen	= 76,
	},
	{
		/* GMAC: the AD of test case 4, no plaintext */
		.key	= "\xfe\xff\xe9\x92\x86\x65\x73\x1c\x6d\x6a\x8f\x94\x67\x30\x83\x08",
		.iv	= "\xca\xfe\xba\xbe\xfa\xce\xdb\xad\xde\xca\xf8\x88",
		.assoc	= "\xfe\xed\xfa\xce\xde\xad\xbe\xef\xfe\xed\xfa\xce\xde\xad\xbe\xef"
			  "\xab\xad\xda\xd2",
		.ptext	= "",
		.ctext	= "\x34\x64\x34\xfd\x51\xd5\xcd\x0c\x58\x87\xec\x63\xe3\x9b\x90\x7a",
		.klen	= 16,
		.alen	= 20,
		.plen	= 0,
		.clen	= 16,
	},
	{
		/* test case 3, tag altered */
		.key	= "\xfe\xff\xe9\x92\x86\x65\x73\x1c\x6d\x6a\x8f\x94\x67\x30\x83\x08",
		.iv	= "\xca\xfe\xba\xbe\xfa\xce\xdb\xad\xde\xca\xf8\x88",
		.assoc	= "",
		.ptext	= "\xd9\x31\x32\x25\xf8\x84\x06\xe5\xa5\x59\x09\xc5\xaf\xf5\x26\x9a"
			  "\x86\xa7\xa9\x53\x15\x34\xf7\xda\x2e\x4c\x30\x3d\x8a\x31\x8a\x72"
			  "\x1c\x3c\x0c\x95\x95\x68\x09\x53\x2f\xcf\x0e\x24\x49\xa6\xb5\x25"
			  "\xb1\x6a\xed\xf5\xaa\x0d\xe6\x57\xba\x63\x7b\x39\x1a\xaf\xd2\x55",
		.ctext	= "\x42\x83\x1e\xc2\x21\x77\x74\x24\x4b\x72\x21\xb7\x84\xd0\xd4\x9c"
			  "\xe3\xaa\x21\x2f\x2c\x02\xa4\xe0\x35\xc1\x7e\x23\x29\xac\xa1\x2e"
			  "\x21\xd5\x14\xb2\x54\x66\x93\x1c\x7d\x8f\x6a\x5a\xac\x84\xaa\x05"
			  "\x1b\xa3\x0b\x39\x6a\x0a\xac\x97\x3d\x58\xe0\x91\x47\x3f\x59\x85"
			  "\x4d\x5c\x2a\xf3\x27\xcd\x64\xa6\x2c\xf3\x5a\xbd\x2b\xa6\xfa\xb5",
		.klen	= 16,
		.alen	= 0,
		.plen	= 64,
		.clen	= 80,
		.novrfy	= 1,
	},
};

static struct alg_test_desc gcm_test = {
	.alg = "gcm(aes)",
	.suite.aead = __VECS(gcm_aes_tv),
};

static int gcm_mod_init(void)
{
	crypto_register_test(&gcm_test);
	return crypto_register_template(&gcm_tmpl);
}
module_init(gcm_mod_init);
