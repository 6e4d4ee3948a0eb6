// SPDX-License-Identifier: MIT
/*
 * CBC: the "cbc" template over any single-block cipher, "cbc(aes)" ->
 * instance driver "cbc(aes-generic)", as the kernel's crypto/cbc.c.  No
 * padding: the length must be a multiple of the block size (-EINVAL
 * otherwise; rind_pkcs7_pad/unpad are there for callers who want PKCS#7).
 * On return the iv holds the last ciphertext block, so that a message can
 * be processed in several requests.  Encryption is sequential; decryption
 * hands chunks of blocks to the cipher's multi-block entry.
 */
#include <rind/internal/cipher.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/sp800-38a.h>

#define CBC_MAX_BS	32	/* the cipher front end's limit */
#define CBC_CHUNK	512	/* bytes decrypted per multi-block call */

static int cbc_encrypt(struct skcipher_request *req)
{
	struct crypto_cipher *cipher = skcipher_cipher_simple(crypto_skcipher_reqtfm(req));
	struct cipher_alg *calg = crypto_cipher_alg(cipher);
	unsigned int bs = crypto_cipher_blocksize(cipher);
	u8 iv[CBC_MAX_BS], blk[CBC_MAX_BS];
	struct rind_sg_map m;
	size_t off;
	int err = skcipher_map_request(req, &m, bs);

	if (err <= 0)
		return err;
	memcpy(iv, req->iv, bs);
	for (off = 0; off < m.len; off += bs) {
		crypto_xor_cpy(blk, m.src + off, iv, bs);
		calg->encrypt(cipher, iv, blk);
		memcpy(m.dst + off, iv, bs);
	}
	memcpy(req->iv, iv, bs);
	rind_sg_unmap(&m, true);
	memzero_explicit(blk, sizeof(blk));
	return 0;
}

static int cbc_decrypt(struct skcipher_request *req)
{
	struct crypto_cipher *cipher = skcipher_cipher_simple(crypto_skcipher_reqtfm(req));
	unsigned int bs = crypto_cipher_blocksize(cipher);
	u8 prev[CBC_MAX_BS], ct[CBC_CHUNK];
	struct rind_sg_map m;
	size_t off, chunk = CBC_CHUNK - CBC_CHUNK % bs;
	int err = skcipher_map_request(req, &m, bs);

	if (err <= 0)
		return err;
	memcpy(prev, req->iv, bs);
	for (off = 0; off < m.len; off += chunk) {
		size_t n = min(chunk, m.len - off);
		u8 *d = m.dst + off;

		/* keep the ciphertext: the request may be in place */
		memcpy(ct, m.src + off, n);
		crypto_cipher_decrypt_blocks(cipher, d, ct, n / bs);
		crypto_xor(d, prev, bs);
		crypto_xor(d + bs, ct, n - bs);
		memcpy(prev, ct + n - bs, bs);
	}
	memcpy(req->iv, prev, bs);
	rind_sg_unmap(&m, true);
	return 0;
}

static int cbc_create(struct crypto_template *tmpl, const char *const *args, int nargs)
{
	struct skcipher_instance *inst;

	inst = skcipher_alloc_instance_simple(tmpl, args, nargs, 1, CBC_MAX_BS);
	if (IS_ERR(inst))
		return (int)PTR_ERR(inst);
	inst->alg.encrypt = cbc_encrypt;
	inst->alg.decrypt = cbc_decrypt;
	return skcipher_register_instance_simple(tmpl, inst);
}

static struct crypto_template cbc_tmpl = {
	.name = "cbc",
	.create = cbc_create,
};

/* NIST SP 800-38A F.2.1 (CBC-AES128) and F.2.3 (CBC-AES192). */
static const struct cipher_testvec cbc_aes_tv[] = {
	{
		.key	= SP800_38A_KEY128,
		.klen	= 16,
		.iv	= "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f",
		.iv_out	= "\x3f\xf1\xca\xa1\x68\x1f\xac\x09\x12\x0e\xca\x30\x75\x86\xe1\xa7",
		.ptext	= SP800_38A_PTEXT,
		.ctext	= "\x76\x49\xab\xac\x81\x19\xb2\x46\xce\xe9\x8e\x9b\x12\xe9\x19\x7d"
			  "\x50\x86\xcb\x9b\x50\x72\x19\xee\x95\xdb\x11\x3a\x91\x76\x78\xb2"
			  "\x73\xbe\xd6\xb8\xe3\xc1\x74\x3b\x71\x16\xe6\x9e\x22\x22\x95\x16"
			  "\x3f\xf1\xca\xa1\x68\x1f\xac\x09\x12\x0e\xca\x30\x75\x86\xe1\xa7",
		.len	= 64,
	}, {
		.key	= SP800_38A_KEY192,
		.klen	= 24,
		.iv	= "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f",
		.iv_out	= "\x08\xb0\xe2\x79\x88\x59\x88\x81\xd9\x20\xa9\xe6\x4f\x56\x15\xcd",
		.ptext	= SP800_38A_PTEXT,
		.ctext	= "\x4f\x02\x1d\xb2\x43\xbc\x63\x3d\x71\x78\x18\x3a\x9f\xa0\x71\xe8"
			  "\xb4\xd9\xad\xa9\xad\x7d\xed\xf4\xe5\xe7\x38\x76\x3f\x69\x14\x5a"
			  "\x57\x1b\x24\x20\x12\xfb\x7a\xe0\x7f\xa9\xba\xac\x3d\xf1\x02\xe0"
			  "\x08\xb0\xe2\x79\x88\x59\x88\x81\xd9\x20\xa9\xe6\x4f\x56\x15\xcd",
		.len	= 64,
	},
};

static struct alg_test_desc cbc_test = {
	.alg = "cbc(aes)",
	.suite.cipher = __VECS(cbc_aes_tv),
};

static int cbc_mod_init(void)
{
	crypto_register_test(&cbc_test);
	return crypto_register_template(&cbc_tmpl);
}
module_init(cbc_mod_init);
