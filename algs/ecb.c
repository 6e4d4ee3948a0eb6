// SPDX-License-Identifier: MIT
/*
 * ECB: the "ecb" template over any single-block cipher, "ecb(aes)" ->
 * instance driver "ecb(aes-generic)", as the kernel's crypto/ecb.c.  The
 * length must be a multiple of the block size (-EINVAL otherwise); no iv.
 * The blocks go to the cipher's multi-block entry in one call per request
 * (a bitsliced or pipelined cipher is much faster given many blocks).
 */
#include <limits.h>
#include <rind/internal/cipher.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/sp800-38a.h>

static int ecb_crypt(struct skcipher_request *req, bool enc)
{
	struct crypto_cipher *cipher = skcipher_cipher_simple(crypto_skcipher_reqtfm(req));
	unsigned int bs = crypto_cipher_blocksize(cipher);
	struct rind_sg_map m;
	int err = skcipher_map_request(req, &m, bs);

	if (err <= 0)
		return err;
	if (enc)
		crypto_cipher_encrypt_blocks(cipher, m.dst, m.src, req->cryptlen / bs);
	else
		crypto_cipher_decrypt_blocks(cipher, m.dst, m.src, req->cryptlen / bs);
	rind_sg_unmap(&m, true);
	return 0;
}

static int ecb_encrypt(struct skcipher_request *req)
{
	return ecb_crypt(req, true);
}

static int ecb_decrypt(struct skcipher_request *req)
{
	return ecb_crypt(req, false);
}

static int ecb_create(struct crypto_template *tmpl, const char *const *args, int nargs)
{
	struct skcipher_instance *inst;

	inst = skcipher_alloc_instance_simple(tmpl, args, nargs, 1, UINT_MAX);
	if (IS_ERR(inst))
		return (int)PTR_ERR(inst);
	inst->alg.ivsize = 0;	/* ECB takes no iv */
	inst->alg.encrypt = ecb_encrypt;
	inst->alg.decrypt = ecb_decrypt;
	return skcipher_register_instance_simple(tmpl, inst);
}

static struct crypto_template ecb_tmpl = {
	.name = "ecb",
	.create = ecb_create,
};

/* NIST SP 800-38A F.1.1 (ECB-AES128) and F.1.5 (ECB-AES256). */
static const struct cipher_testvec ecb_aes_tv[] = {
	{
		.key	= SP800_38A_KEY128,
		.klen	= 16,
		.ptext	= SP800_38A_PTEXT,
		.ctext	= "\x3a\xd7\x7b\xb4\x0d\x7a\x36\x60\xa8\x9e\xca\xf3\x24\x66\xef\x97"
			  "\xf5\xd3\xd5\x85\x03\xb9\x69\x9d\xe7\x85\x89\x5a\x96\xfd\xba\xaf"
			  "\x43\xb1\xcd\x7f\x59\x8e\xce\x23\x88\x1b\x00\xe3\xed\x03\x06\x88"
			  "\x7b\x0c\x78\x5e\x27\xe8\xad\x3f\x82\x23\x20\x71\x04\x72\x5d\xd4",
		.len	= 64,
	}, {
		.key	= SP800_38A_KEY256,
		.klen	= 32,
		.ptext	= SP800_38A_PTEXT,
		.ctext	= "\xf3\xee\xd1\xbd\xb5\xd2\xa0\x3c\x06\x4b\x5a\x7e\x3d\xb1\x81\xf8"
			  "\x59\x1c\xcb\x10\xd4\x10\xed\x26\xdc\x5b\xa7\x4a\x31\x36\x28\x70"
			  "\xb6\xed\x21\xb9\x9c\xa6\xf4\xf9\xf1\x53\xe7\xb1\xbe\xaf\xed\x1d"
			  "\x23\x30\x4b\x7a\x39\xf9\xf3\xff\x06\x7d\x8d\x8f\x9e\x24\xec\xc7",
		.len	= 64,
	}, {
		.key	= "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10",
		.klen	= 17,
		.setkey_error = -EINVAL,
	},
};

static struct alg_test_desc ecb_test = {
	.alg = "ecb(aes)",
	.suite.cipher = __VECS(ecb_aes_tv),
};

static int ecb_mod_init(void)
{
	crypto_register_test(&ecb_test);
	return crypto_register_template(&ecb_tmpl);
}
module_init(ecb_mod_init);
