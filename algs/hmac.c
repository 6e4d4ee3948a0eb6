// SPDX-License-Identifier: MIT
/*
 * The hmac template (RFC 2104): "hmac(sha256)" over any unkeyed shash.
 *
 *   HMAC(K, m) = H((K' ^ opad) || H((K' ^ ipad) || m))
 *
 * where K' is the key zero-padded to the hash's block size (hashed first
 * if it is longer than a block).  As in the kernel, setkey runs the hash
 * over the two padded key blocks once and keeps the exported inner states;
 * init imports the ipad state into a descriptor of the inner hash that
 * lives inside the hmac descriptor, and final finishes it, imports the
 * opad state and hashes the inner digest.
 *
 * The key is handled without branches or indexing on its bytes: only its
 * length decides anything.
 *
 * Cost per call.  A digest is the message blocks plus the two finishing
 * compressions and nothing else: the inner hash's entry points are called
 * directly, not through the front end, because the front end would wipe
 * the inner descriptor after each finish and the hmac descriptor around it
 * is wiped by the front end anyway when the hmac finishes (crypto_shash_
 * final/finup/digest wipe the whole hmac descriptor, inner one included).
 * setkey builds the padded key a word at a time and exports the two states
 * straight into the tfm, wiping only the bytes it used.
 */
#include <rind/internal/hash.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>

struct hmac_instance {
	struct shash_alg alg;
	struct crypto_spawn spawn;
	unsigned int ss;	/* inner statesize, rounded up to 16 */
};

struct hmac_ctx {
	struct crypto_shash *hash;
	const struct shash_alg *halg;	/* the inner hash's entry points */
	unsigned int ss;		/* hmac_instance.ss: where the opad state starts */
	/* ipad state, then opad state, each ss bytes */
	u8 pads[] __attribute__((aligned(16)));
};

static inline struct hmac_instance *hmac_inst(struct crypto_shash *tfm)
{
	return container_of(crypto_shash_alg(tfm), struct hmac_instance, alg);
}

static inline struct hmac_ctx *hmac_ctx(struct crypto_shash *tfm)
{
	return crypto_shash_ctx(tfm);
}

/* The inner hash's descriptor, kept in the hmac descriptor's context. */
static inline struct shash_desc *hmac_inner(struct shash_desc *desc)
{
	return shash_desc_ctx(desc);
}

static int hmac_setkey(struct crypto_shash *tfm, const u8 *key, unsigned int keylen)
{
	struct hmac_ctx *ctx = hmac_ctx(tfm);
	struct crypto_shash *hash = ctx->hash;
	const struct shash_alg *h = ctx->halg;
	SHASH_DESC_ON_STACK(d, hash);
	int err;

	d->tfm = hash;
	err = hmac_pad_states(h, d, hash->base.__crt_alg->cra_blocksize, key, keylen,
			      ctx->pads, ctx->pads + ctx->ss);
	/*
	 * A failed setkey leaves no key (the front end then refuses the tfm
	 * until the next good one), so half-written states are just wiped.
	 */
	if (err)
		memzero_explicit(ctx->pads, 2 * ctx->ss);
	memzero_explicit(d, sizeof(*d) + h->descsize);
	return err;
}

static int hmac_init(struct shash_desc *desc)
{
	struct hmac_ctx *ctx = hmac_ctx(desc->tfm);
	struct shash_desc *inner = hmac_inner(desc);

	inner->tfm = ctx->hash;
	return shash_raw_import(ctx->halg, inner, ctx->pads);
}

static int hmac_update(struct shash_desc *desc, const u8 *data, unsigned int len)
{
	return hmac_ctx(desc->tfm)->halg->update(hmac_inner(desc), data, len);
}

/* The outer hash over the inner digest in @out (the inner desc is spent). */
static int hmac_outer(struct hmac_ctx *ctx, struct shash_desc *inner, u8 *out)
{
	const struct shash_alg *h = ctx->halg;
	int err = shash_raw_import(h, inner, ctx->pads + ctx->ss);

	return err ? err : shash_raw_finup(h, inner, out, h->digestsize, out);
}

static int hmac_final(struct shash_desc *desc, u8 *out)
{
	struct hmac_ctx *ctx = hmac_ctx(desc->tfm);
	struct shash_desc *inner = hmac_inner(desc);
	int err = ctx->halg->final(inner, out);

	return err ? err : hmac_outer(ctx, inner, out);
}

static int hmac_finup(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out)
{
	struct hmac_ctx *ctx = hmac_ctx(desc->tfm);
	struct shash_desc *inner = hmac_inner(desc);
	int err = shash_raw_finup(ctx->halg, inner, data, len, out);

	return err ? err : hmac_outer(ctx, inner, out);
}

static int hmac_digest(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out)
{
	struct hmac_ctx *ctx = hmac_ctx(desc->tfm);
	const struct shash_alg *h = ctx->halg;
	struct shash_desc *inner = hmac_inner(desc);
	int err;

	inner->tfm = ctx->hash;
	err = shash_raw_import(h, inner, ctx->pads);
	if (!err)
		err = shash_raw_finup(h, inner, data, len, out);
	return err ? err : hmac_outer(ctx, inner, out);
}

static int hmac_export(struct shash_desc *desc, void *out)
{
	return shash_raw_export(hmac_ctx(desc->tfm)->halg, hmac_inner(desc), out);
}

static int hmac_import(struct shash_desc *desc, const void *in)
{
	struct hmac_ctx *ctx = hmac_ctx(desc->tfm);
	struct shash_desc *inner = hmac_inner(desc);

	inner->tfm = ctx->hash;
	return shash_raw_import(ctx->halg, inner, in);
}

static int hmac_init_tfm(struct crypto_shash *tfm)
{
	struct crypto_shash *hash = crypto_spawn_shash(&hmac_inst(tfm)->spawn);

	if (IS_ERR(hash))
		return (int)PTR_ERR(hash);
	hmac_ctx(tfm)->hash = hash;
	hmac_ctx(tfm)->halg = crypto_shash_alg(hash);
	hmac_ctx(tfm)->ss = hmac_inst(tfm)->ss;
	return 0;
}

static void hmac_exit_tfm(struct crypto_shash *tfm)
{
	/* The pads are wiped with the rest of the tfm by the front end. */
	crypto_free_shash(hmac_ctx(tfm)->hash);
}

static void hmac_free(struct hmac_instance *inst)
{
	crypto_drop_spawn(&inst->spawn);
	memzero_explicit(inst, sizeof(*inst));
	free(inst);
}

static void hmac_destroy(struct crypto_alg *alg)
{
	hmac_free(container_of(__crypto_shash_alg(alg), struct hmac_instance, alg));
}

static int hmac_create(struct crypto_template *tmpl, const char *const *args, int nargs)
{
	struct hmac_instance *inst;
	struct shash_alg *salg;
	struct crypto_alg *alg;
	unsigned int ss;
	int err;

	if (nargs != 1)
		return -EINVAL;
	inst = calloc(1, sizeof(*inst));
	if (!inst)
		return -ENOMEM;

	err = crypto_grab_shash(&inst->spawn, &inst->alg.base, args[0], 0, 0);
	if (err)
		goto err_free;
	alg = inst->spawn.alg;
	salg = __crypto_shash_alg(alg);
	ss = salg->statesize ? salg->statesize : salg->descsize;

	/*
	 * Refuse keyed inner hashes (hmac(hmac(...))), digests longer than a
	 * block, and anything whose descriptor or state would not fit.
	 */
	err = -EINVAL;
	if (alg->cra_type != &crypto_shash_type ||
	    (salg->setkey && !(alg->cra_flags & CRYPTO_ALG_OPTIONAL_KEY)) ||
	    !alg->cra_blocksize || alg->cra_blocksize > HMAC_MAX_BLOCKSIZE ||
	    salg->digestsize > alg->cra_blocksize || ss > HASH_MAX_STATESIZE ||
	    sizeof(struct shash_desc) + salg->descsize > HASH_MAX_DESCSIZE)
		goto err_free;

	err = crypto_inst_setname(&inst->alg.base, tmpl->name, &alg, 1);
	if (err)
		goto err_free;

	inst->ss = (ss + 15) & ~15u;
	inst->alg.init = hmac_init;
	inst->alg.update = hmac_update;
	inst->alg.final = hmac_final;
	inst->alg.finup = hmac_finup;
	inst->alg.digest = hmac_digest;
	inst->alg.export = hmac_export;
	inst->alg.import = hmac_import;
	inst->alg.setkey = hmac_setkey;
	inst->alg.init_tfm = hmac_init_tfm;
	inst->alg.exit_tfm = hmac_exit_tfm;
	inst->alg.descsize = (unsigned int)sizeof(struct shash_desc) + salg->descsize;
	inst->alg.digestsize = salg->digestsize;
	inst->alg.statesize = ss;
	inst->alg.base.cra_priority = alg->cra_priority;
	inst->alg.base.cra_blocksize = alg->cra_blocksize;
	inst->alg.base.cra_ctxsize = (unsigned int)sizeof(struct hmac_ctx) + 2 * inst->ss;
	inst->alg.base.cra_module = alg->cra_module;
	inst->alg.base.cra_type = &crypto_shash_type;
	inst->alg.base.cra_flags = CRYPTO_ALG_TYPE_SHASH;
	inst->alg.base.cra_destroy = hmac_destroy;

	err = crypto_register_instance(tmpl, &inst->alg.base);
	if (err)
		goto err_free;	/* -EEXIST (built already) or failed self-test */
	return 0;

err_free:
	hmac_free(inst);
	return err;
}

static struct crypto_template hmac_tmpl = {
	.name = "hmac",
	.create = hmac_create,
};

#define HMAC_KEY_0B20	"\x0b\x0b\x0b\x0b\x0b\x0b\x0b\x0b\x0b\x0b"		\
			"\x0b\x0b\x0b\x0b\x0b\x0b\x0b\x0b\x0b\x0b"
#define HMAC_AA10	"\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa"
#define HMAC_KEY_AA80	HMAC_AA10 HMAC_AA10 HMAC_AA10 HMAC_AA10			\
			HMAC_AA10 HMAC_AA10 HMAC_AA10 HMAC_AA10
#define HMAC_KEY_AA131	HMAC_KEY_AA80 HMAC_AA10 HMAC_AA10 HMAC_AA10 HMAC_AA10	\
			HMAC_AA10 "\xaa"

/*
 * RFC 2202 section 3 (HMAC-SHA-1) and RFC 4231 section 4 (HMAC-SHA-224 to
 * -512): test cases 1, 2 and 6 (20-byte key, short key, key longer than a
 * block).
 */
static const struct hash_testvec hmac_sha1_tv[] = {
	{
		.key = HMAC_KEY_0B20,
		.ksize = 20,
		.plaintext = "Hi There",
		.psize = 8,
		.digest = "\xb6\x17\x31\x86\x55\x05\x72\x64\xe2\x8b"
			  "\xc0\xb6\xfb\x37\x8c\x8e\xf1\x46\xbe\x00",
	}, {
		.key = "Jefe",
		.ksize = 4,
		.plaintext = "what do ya want for nothing?",
		.psize = 28,
		.digest = "\xef\xfc\xdf\x6a\xe5\xeb\x2f\xa2\xd2\x74"
			  "\x16\xd5\xf1\x84\xdf\x9c\x25\x9a\x7c\x79",
	}, {
		.key = HMAC_KEY_AA80,
		.ksize = 80,
		.plaintext = "Test Using Larger Than Block-Size Key - Hash Key First",
		.psize = 54,
		.digest = "\xaa\x4a\xe5\xe1\x52\x72\xd0\x0e\x95\x70"
			  "\x56\x37\xce\x8a\x3b\x55\xed\x40\x21\x12",
	},
};

static const struct hash_testvec hmac_sha224_tv[] = {
	{
		.key = HMAC_KEY_0B20,
		.ksize = 20,
		.plaintext = "Hi There",
		.psize = 8,
		.digest = "\x89\x6f\xb1\x12\x8a\xbb\xdf\x19\x68\x32"
			  "\x10\x7c\xd4\x9d\xf3\x3f\x47\xb4\xb1\x16"
			  "\x99\x12\xba\x4f\x53\x68\x4b\x22",
	}, {
		.key = "Jefe",
		.ksize = 4,
		.plaintext = "what do ya want for nothing?",
		.psize = 28,
		.digest = "\xa3\x0e\x01\x09\x8b\xc6\xdb\xbf\x45\x69"
			  "\x0f\x3a\x7e\x9e\x6d\x0f\x8b\xbe\xa2\xa3"
			  "\x9e\x61\x48\x00\x8f\xd0\x5e\x44",
	}, {
		.key = HMAC_KEY_AA131,
		.ksize = 131,
		.plaintext = "Test Using Larger Than Block-Size Key - Hash Key First",
		.psize = 54,
		.digest = "\x95\xe9\xa0\xdb\x96\x20\x95\xad\xae\xbe"
			  "\x9b\x2d\x6f\x0d\xbc\xe2\xd4\x99\xf1\x12"
			  "\xf2\xd2\xb7\x27\x3f\xa6\x87\x0e",
	},
};

static const struct hash_testvec hmac_sha256_tv[] = {
	{
		.key = HMAC_KEY_0B20,
		.ksize = 20,
		.plaintext = "Hi There",
		.psize = 8,
		.digest = "\xb0\x34\x4c\x61\xd8\xdb\x38\x53\x5c\xa8"
			  "\xaf\xce\xaf\x0b\xf1\x2b\x88\x1d\xc2\x00"
			  "\xc9\x83\x3d\xa7\x26\xe9\x37\x6c\x2e\x32"
			  "\xcf\xf7",
	}, {
		.key = "Jefe",
		.ksize = 4,
		.plaintext = "what do ya want for nothing?",
		.psize = 28,
		.digest = "\x5b\xdc\xc1\x46\xbf\x60\x75\x4e\x6a\x04"
			  "\x24\x26\x08\x95\x75\xc7\x5a\x00\x3f\x08"
			  "\x9d\x27\x39\x83\x9d\xec\x58\xb9\x64\xec"
			  "\x38\x43",
	}, {
		.key = HMAC_KEY_AA131,
		.ksize = 131,
		.plaintext = "Test Using Larger Than Block-Size Key - Hash Key First",
		.psize = 54,
		.digest = "\x60\xe4\x31\x59\x1e\xe0\xb6\x7f\x0d\x8a"
			  "\x26\xaa\xcb\xf5\xb7\x7f\x8e\x0b\xc6\x21"
			  "\x37\x28\xc5\x14\x05\x46\x04\x0f\x0e\xe3"
			  "\x7f\x54",
	},
};

static const struct hash_testvec hmac_sha384_tv[] = {
	{
		.key = HMAC_KEY_0B20,
		.ksize = 20,
		.plaintext = "Hi There",
		.psize = 8,
		.digest = "\xaf\xd0\x39\x44\xd8\x48\x95\x62\x6b\x08"
			  "\x25\xf4\xab\x46\x90\x7f\x15\xf9\xda\xdb"
			  "\xe4\x10\x1e\xc6\x82\xaa\x03\x4c\x7c\xeb"
			  "\xc5\x9c\xfa\xea\x9e\xa9\x07\x6e\xde\x7f"
			  "\x4a\xf1\x52\xe8\xb2\xfa\x9c\xb6",
	}, {
		.key = "Jefe",
		.ksize = 4,
		.plaintext = "what do ya want for nothing?",
		.psize = 28,
		.digest = "\xaf\x45\xd2\xe3\x76\x48\x40\x31\x61\x7f"
			  "\x78\xd2\xb5\x8a\x6b\x1b\x9c\x7e\xf4\x64"
			  "\xf5\xa0\x1b\x47\xe4\x2e\xc3\x73\x63\x22"
			  "\x44\x5e\x8e\x22\x40\xca\x5e\x69\xe2\xc7"
			  "\x8b\x32\x39\xec\xfa\xb2\x16\x49",
	}, {
		.key = HMAC_KEY_AA131,
		.ksize = 131,
		.plaintext = "Test Using Larger Than Block-Size Key - Hash Key First",
		.psize = 54,
		.digest = "\x4e\xce\x08\x44\x85\x81\x3e\x90\x88\xd2"
			  "\xc6\x3a\x04\x1b\xc5\xb4\x4f\x9e\xf1\x01"
			  "\x2a\x2b\x58\x8f\x3c\xd1\x1f\x05\x03\x3a"
			  "\xc4\xc6\x0c\x2e\xf6\xab\x40\x30\xfe\x82"
			  "\x96\x24\x8d\xf1\x63\xf4\x49\x52",
	},
};

static const struct hash_testvec hmac_sha512_tv[] = {
	{
		.key = HMAC_KEY_0B20,
		.ksize = 20,
		.plaintext = "Hi There",
		.psize = 8,
		.digest = "\x87\xaa\x7c\xde\xa5\xef\x61\x9d\x4f\xf0"
			  "\xb4\x24\x1a\x1d\x6c\xb0\x23\x79\xf4\xe2"
			  "\xce\x4e\xc2\x78\x7a\xd0\xb3\x05\x45\xe1"
			  "\x7c\xde\xda\xa8\x33\xb7\xd6\xb8\xa7\x02"
			  "\x03\x8b\x27\x4e\xae\xa3\xf4\xe4\xbe\x9d"
			  "\x91\x4e\xeb\x61\xf1\x70\x2e\x69\x6c\x20"
			  "\x3a\x12\x68\x54",
	}, {
		.key = "Jefe",
		.ksize = 4,
		.plaintext = "what do ya want for nothing?",
		.psize = 28,
		.digest = "\x16\x4b\x7a\x7b\xfc\xf8\x19\xe2\xe3\x95"
			  "\xfb\xe7\x3b\x56\xe0\xa3\x87\xbd\x64\x22"
			  "\x2e\x83\x1f\xd6\x10\x27\x0c\xd7\xea\x25"
			  "\x05\x54\x97\x58\xbf\x75\xc0\x5a\x99\x4a"
			  "\x6d\x03\x4f\x65\xf8\xf0\xe6\xfd\xca\xea"
			  "\xb1\xa3\x4d\x4a\x6b\x4b\x63\x6e\x07\x0a"
			  "\x38\xbc\xe7\x37",
	}, {
		.key = HMAC_KEY_AA131,
		.ksize = 131,
		.plaintext = "Test Using Larger Than Block-Size Key - Hash Key First",
		.psize = 54,
		.digest = "\x80\xb2\x42\x63\xc7\xc1\xa3\xeb\xb7\x14"
			  "\x93\xc1\xdd\x7b\xe8\xb4\x9b\x46\xd1\xf4"
			  "\x1b\x4a\xee\xc1\x12\x1b\x01\x37\x83\xf8"
			  "\xf3\x52\x6b\x56\xd0\x37\xe0\x5f\x25\x98"
			  "\xbd\x0f\xd2\x21\x5d\x6a\x1e\x52\x95\xe6"
			  "\x4f\x73\xf6\x3f\x0a\xec\x8b\x91\x5a\x98"
			  "\x5d\x78\x65\x98",
	},
};

static struct alg_test_desc hmac_tests[] = {
	{ .alg = "hmac(sha1)", .suite.hash = __VECS(hmac_sha1_tv) },
	{ .alg = "hmac(sha224)", .suite.hash = __VECS(hmac_sha224_tv) },
	{ .alg = "hmac(sha256)", .suite.hash = __VECS(hmac_sha256_tv) },
	{ .alg = "hmac(sha384)", .suite.hash = __VECS(hmac_sha384_tv) },
	{ .alg = "hmac(sha512)", .suite.hash = __VECS(hmac_sha512_tv) },
};

static int hmac_mod_init(void)
{
	crypto_register_tests(hmac_tests, ARRAY_SIZE(hmac_tests));
	return crypto_register_template(&hmac_tmpl);
}
module_init(hmac_mod_init);
