// SPDX-License-Identifier: MIT
/*
 * ECB: the "ecb" template over any single-block cipher, "ecb(aes)" ->
 * instance driver "ecb(aes-generic)", as the kernel's crypto/ecb.c.  The
 * length must be a multiple of the block size (-EINVAL otherwise); no iv.
 * The blocks go to the cipher's multi-block entry in one call per request
 * (a bitsliced or pipelined cipher is much faster given many blocks).
 */
#include <rind/internal/cipher.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>

struct ecb_instance {
	struct crypto_spawn spawn;
	struct skcipher_alg alg;
};

struct ecb_ctx {
	struct crypto_cipher *cipher;
};

static struct ecb_instance *ecb_inst(struct crypto_skcipher *tfm)
{
	return container_of(crypto_skcipher_alg(tfm), struct ecb_instance, alg);
}

static int ecb_setkey(struct crypto_skcipher *tfm, const u8 *key, unsigned int keylen)
{
	struct ecb_ctx *ctx = crypto_skcipher_ctx(tfm);

	return crypto_cipher_setkey(ctx->cipher, key, keylen);
}

static int ecb_crypt(struct skcipher_request *req, bool enc)
{
	struct ecb_ctx *ctx = crypto_skcipher_ctx(crypto_skcipher_reqtfm(req));
	unsigned int bs = crypto_cipher_blocksize(ctx->cipher);
	struct rind_sg_map m;
	int err;

	if (req->cryptlen % bs)
		return -EINVAL;
	if (!req->cryptlen)
		return 0;
	err = rind_sg_map(&m, req->src, req->dst, 0, req->cryptlen);
	if (err)
		return err;
	if (enc)
		crypto_cipher_encrypt_blocks(ctx->cipher, m.dst, m.src, req->cryptlen / bs);
	else
		crypto_cipher_decrypt_blocks(ctx->cipher, m.dst, m.src, req->cryptlen / bs);
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

static int ecb_init_tfm(struct crypto_skcipher *tfm)
{
	struct ecb_ctx *ctx = crypto_skcipher_ctx(tfm);
	struct crypto_cipher *cipher = crypto_spawn_cipher(&ecb_inst(tfm)->spawn);

	if (IS_ERR(cipher))
		return (int)PTR_ERR(cipher);
	ctx->cipher = cipher;
	return 0;
}

static void ecb_exit_tfm(struct crypto_skcipher *tfm)
{
	struct ecb_ctx *ctx = crypto_skcipher_ctx(tfm);

	crypto_free_cipher(ctx->cipher);
}

static void ecb_destroy(struct crypto_alg *alg)
{
	struct ecb_instance *inst = container_of(alg, struct ecb_instance, alg.base);

	crypto_drop_spawn(&inst->spawn);
	free(inst);
}

static int ecb_create(struct crypto_template *tmpl, const char *const *args, int nargs)
{
	struct ecb_instance *inst;
	struct cipher_alg *calg;
	struct crypto_alg *base;
	int err;

	if (nargs != 1)
		return -EINVAL;
	inst = calloc(1, sizeof(*inst));
	if (!inst)
		return -ENOMEM;
	err = crypto_grab_cipher(&inst->spawn, &inst->alg.base, args[0], 0, 0);
	if (err)
		goto err_free;
	base = inst->spawn.alg;
	calg = __crypto_cipher_alg(base);
	err = crypto_inst_setname(&inst->alg.base, "ecb", &base, 1);
	if (err)
		goto err_drop;

	inst->alg.base.cra_priority = base->cra_priority;
	inst->alg.base.cra_flags = CRYPTO_ALG_TYPE_SKCIPHER;
	inst->alg.base.cra_blocksize = base->cra_blocksize;
	inst->alg.base.cra_ctxsize = sizeof(struct ecb_ctx);
	inst->alg.base.cra_module = "generic";
	inst->alg.base.cra_type = &crypto_skcipher_type;
	inst->alg.base.cra_destroy = ecb_destroy;
	inst->alg.min_keysize = calg->min_keysize;
	inst->alg.max_keysize = calg->max_keysize;
	inst->alg.ivsize = 0;
	inst->alg.setkey = ecb_setkey;
	inst->alg.encrypt = ecb_encrypt;
	inst->alg.decrypt = ecb_decrypt;
	inst->alg.init = ecb_init_tfm;
	inst->alg.exit = ecb_exit_tfm;

	err = crypto_register_instance(tmpl, &inst->alg.base);
	if (!err)
		return 0;
err_drop:
	crypto_drop_spawn(&inst->spawn);
err_free:
	free(inst);
	return err;
}

static struct crypto_template ecb_tmpl = {
	.name = "ecb",
	.create = ecb_create,
};

/* NIST SP 800-38A F.1.1 (ECB-AES128) and F.1.5 (ECB-AES256). */
static const struct cipher_testvec ecb_aes_tv[] = {
	{
		.key	= "\x2b\x7e\x15\x16\x28\xae\xd2\xa6\xab\xf7\x15\x88\x09\xcf\x4f\x3c",
		.klen	= 16,
		.ptext	= "\x6b\xc1\xbe\xe2\x2e\x40\x9f\x96\xe9\x3d\x7e\x11\x73\x93\x17\x2a"
			  "\xae\x2d\x8a\x57\x1e\x03\xac\x9c\x9e\xb7\x6f\xac\x45\xaf\x8e\x51"
			  "\x30\xc8\x1c\x46\xa3\x5c\xe4\x11\xe5\xfb\xc1\x19\x1a\x0a\x52\xef"
			  "\xf6\x9f\x24\x45\xdf\x4f\x9b\x17\xad\x2b\x41\x7b\xe6\x6c\x37\x10",
		.ctext	= "\x3a\xd7\x7b\xb4\x0d\x7a\x36\x60\xa8\x9e\xca\xf3\x24\x66\xef\x97"
			  "\xf5\xd3\xd5\x85\x03\xb9\x69\x9d\xe7\x85\x89\x5a\x96\xfd\xba\xaf"
			  "\x43\xb1\xcd\x7f\x59\x8e\xce\x23\x88\x1b\x00\xe3\xed\x03\x06\x88"
			  "\x7b\x0c\x78\x5e\x27\xe8\xad\x3f\x82\x23\x20\x71\x04\x72\x5d\xd4",
		.len	= 64,
	}, {
		.key	= "\x60\x3d\xeb\x10\x15\xca\x71\xbe\x2b\x73\xae\xf0\x85\x7d\x77\x81"
			  "\x1f\x35\x2c\x07\x3b\x61\x08\xd7\x2d\x98\x10\xa3\x09\x14\xdf\xf4",
		.klen	= 32,
		.ptext	= "\x6b\xc1\xbe\xe2\x2e\x40\x9f\x96\xe9\x3d\x7e\x11\x73\x93\x17\x2a"
			  "\xae\x2d\x8a\x57\x1e\x03\xac\x9c\x9e\xb7\x6f\xac\x45\xaf\x8e\x51"
			  "\x30\xc8\x1c\x46\xa3\x5c\xe4\x11\xe5\xfb\xc1\x19\x1a\x0a\x52\xef"
			  "\xf6\x9f\x24\x45\xdf\x4f\x9b\x17\xad\x2b\x41\x7b\xe6\x6c\x37\x10",
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
