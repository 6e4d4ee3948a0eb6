// SPDX-License-Identifier: MIT
/*
 * Template instances over one spawned algorithm, as the kernel's
 * skcipher_alloc_instance_simple(): the template says what its mode adds
 * (encrypt, decrypt, the sizes that differ) and this does the rest.
 *
 *  - skcipher_alloc_instance_simple(): a skcipher over a single-block
 *    cipher (ecb, cbc, ctr, kw, kwp) of the block sizes the mode takes;
 *  - aead_alloc_instance_simple(): an aead over a cipher (gcm) or over
 *    another aead (rfc4106).
 *
 * Both grab args[0] as the spawn, name the instance "tmpl(name)" with
 * driver "tmpl(driver)", rank it as its spawn and give every tfm a context
 * that starts with a tfm of the spawn, allocated at init and freed at
 * exit (the whole context is wiped by the front end when the tfm goes).
 * On failure the template calls the matching *_free_instance_simple()
 * (skcipher_register_instance_simple() does when registering fails);
 * once registered the registry owns the instance and frees it through
 * cra_destroy when its last reference goes.
 */
#include <rind/internal/aead.h>
#include <rind/internal/cipher.h>
#include <rind/internal/skcipher.h>

/* Grab args[0] for @inst, name it after @tmpl and rank it as its spawn. */
static int simple_instance_init(struct crypto_template *tmpl, const char *const *args,
				int nargs, struct crypto_alg *inst, struct crypto_spawn *spawn,
				u32 spawn_type, const struct crypto_type *type)
{
	struct crypto_alg *alg;
	int err;

	if (nargs != 1)
		return -EINVAL;
	err = crypto_grab_spawn(spawn, inst, args[0], spawn_type, CRYPTO_ALG_TYPE_MASK);
	if (err)
		return err;
	alg = spawn->alg;
	err = crypto_inst_setname(inst, tmpl->name, &alg, 1);
	if (err)
		return err;
	inst->cra_priority = alg->cra_priority;
	inst->cra_flags = type->type;
	inst->cra_module = "generic";
	inst->cra_type = type;
	return 0;
}

/* ---- skcipher over a cipher ---- */

static struct skcipher_instance *skcipher_inst_simple(struct crypto_skcipher *tfm)
{
	return container_of(crypto_skcipher_alg(tfm), struct skcipher_instance, alg);
}

static int skcipher_setkey_simple(struct crypto_skcipher *tfm, const u8 *key, unsigned int keylen)
{
	return crypto_cipher_setkey(skcipher_cipher_simple(tfm), key, keylen);
}

static int skcipher_init_tfm_simple(struct crypto_skcipher *tfm)
{
	struct skcipher_ctx_simple *ctx = crypto_skcipher_ctx(tfm);
	struct crypto_cipher *cipher = crypto_spawn_cipher(&skcipher_inst_simple(tfm)->spawn);

	if (IS_ERR(cipher))
		return (int)PTR_ERR(cipher);
	ctx->cipher = cipher;
	return 0;
}

static void skcipher_exit_tfm_simple(struct crypto_skcipher *tfm)
{
	crypto_free_cipher(skcipher_cipher_simple(tfm));
}

void skcipher_free_instance_simple(struct skcipher_instance *inst)
{
	crypto_drop_spawn(&inst->spawn);	/* no-op if not grabbed or dropped */
	free(inst);
}

static void skcipher_destroy_simple(struct crypto_alg *alg)
{
	skcipher_free_instance_simple(container_of(alg, struct skcipher_instance, alg.base));
}

struct skcipher_instance *skcipher_alloc_instance_simple(struct crypto_template *tmpl,
							 const char *const *args, int nargs,
							 unsigned int min_bs, unsigned int max_bs)
{
	struct skcipher_instance *inst = calloc(1, sizeof(*inst));
	struct cipher_alg *calg;
	int err;

	if (!inst)
		return ERR_PTR(-ENOMEM);
	err = simple_instance_init(tmpl, args, nargs, &inst->alg.base, &inst->spawn,
				   CRYPTO_ALG_TYPE_CIPHER, &crypto_skcipher_type);
	if (err)
		goto err_free;
	calg = __crypto_cipher_alg(inst->spawn.alg);
	err = -EINVAL;
	if (calg->base.cra_blocksize < min_bs || calg->base.cra_blocksize > max_bs)
		goto err_free;
	inst->alg.base.cra_blocksize = calg->base.cra_blocksize;
	inst->alg.base.cra_ctxsize = sizeof(struct skcipher_ctx_simple);
	inst->alg.base.cra_destroy = skcipher_destroy_simple;
	inst->alg.min_keysize = calg->min_keysize;
	inst->alg.max_keysize = calg->max_keysize;
	inst->alg.ivsize = calg->base.cra_blocksize;
	inst->alg.setkey = skcipher_setkey_simple;
	inst->alg.init = skcipher_init_tfm_simple;
	inst->alg.exit = skcipher_exit_tfm_simple;
	return inst;

err_free:
	skcipher_free_instance_simple(inst);
	return ERR_PTR(err);
}

int skcipher_register_instance(struct crypto_template *tmpl, struct skcipher_instance *inst)
{
	return crypto_register_instance(tmpl, &inst->alg.base);
}

/* Registered, the registry owns @inst; refused, nothing else will free it. */
int skcipher_register_instance_simple(struct crypto_template *tmpl,
				      struct skcipher_instance *inst)
{
	int err = skcipher_register_instance(tmpl, inst);

	if (err)
		skcipher_free_instance_simple(inst);	/* -EEXIST, failed self-test */
	return err;
}

/* ---- aead over a cipher or an aead ---- */

static struct aead_instance *aead_inst_simple(struct crypto_aead *tfm)
{
	return container_of(crypto_aead_alg(tfm), struct aead_instance, alg);
}

static bool aead_over_cipher(const struct aead_instance *inst)
{
	return (inst->spawn.alg->cra_flags & CRYPTO_ALG_TYPE_MASK) == CRYPTO_ALG_TYPE_CIPHER;
}

static int aead_init_tfm_simple(struct crypto_aead *tfm)
{
	struct aead_instance *inst = aead_inst_simple(tfm);
	struct aead_ctx_simple *ctx = crypto_aead_ctx(tfm);

	if (aead_over_cipher(inst)) {
		struct crypto_cipher *cipher = crypto_spawn_cipher(&inst->spawn);

		if (IS_ERR(cipher))
			return (int)PTR_ERR(cipher);
		ctx->cipher = cipher;
	} else {
		struct crypto_aead *child = crypto_spawn_aead(&inst->spawn);

		if (IS_ERR(child))
			return (int)PTR_ERR(child);
		ctx->child = child;
	}
	return 0;
}

static void aead_exit_tfm_simple(struct crypto_aead *tfm)
{
	struct aead_ctx_simple *ctx = crypto_aead_ctx(tfm);

	if (aead_over_cipher(aead_inst_simple(tfm)))
		crypto_free_cipher(ctx->cipher);
	else
		crypto_free_aead(ctx->child);
}

void aead_free_instance_simple(struct aead_instance *inst)
{
	crypto_drop_spawn(&inst->spawn);	/* no-op if not grabbed or dropped */
	free(inst);
}

static void aead_destroy_simple(struct crypto_alg *alg)
{
	aead_free_instance_simple(container_of(alg, struct aead_instance, alg.base));
}

struct aead_instance *aead_alloc_instance_simple(struct crypto_template *tmpl,
						 const char *const *args, int nargs,
						 u32 spawn_type)
{
	struct aead_instance *inst;
	struct crypto_alg *alg;
	int err;

	if (spawn_type != CRYPTO_ALG_TYPE_CIPHER && spawn_type != CRYPTO_ALG_TYPE_AEAD)
		return ERR_PTR(-EINVAL);
	inst = calloc(1, sizeof(*inst));
	if (!inst)
		return ERR_PTR(-ENOMEM);
	err = simple_instance_init(tmpl, args, nargs, &inst->alg.base, &inst->spawn,
				   spawn_type, &crypto_aead_type);
	if (err) {
		aead_free_instance_simple(inst);
		return ERR_PTR(err);
	}
	alg = inst->spawn.alg;
	inst->alg.base.cra_blocksize = 1;
	inst->alg.base.cra_ctxsize = sizeof(struct aead_ctx_simple);
	inst->alg.base.cra_destroy = aead_destroy_simple;
	if (spawn_type == CRYPTO_ALG_TYPE_CIPHER) {
		/* a block-cipher mode: tags and chunks of one block */
		inst->alg.maxauthsize = alg->cra_blocksize;
		inst->alg.chunksize = alg->cra_blocksize;
	} else {
		struct aead_alg *child = __crypto_aead_alg(alg);

		inst->alg.ivsize = child->ivsize;
		inst->alg.maxauthsize = child->maxauthsize;
		inst->alg.chunksize = child->chunksize;
	}
	inst->alg.init = aead_init_tfm_simple;
	inst->alg.exit = aead_exit_tfm_simple;
	return inst;
}

int aead_register_instance(struct crypto_template *tmpl, struct aead_instance *inst)
{
	return crypto_register_instance(tmpl, &inst->alg.base);
}

/* As skcipher_register_instance_simple(): refused, @inst is freed here. */
int aead_register_instance_simple(struct crypto_template *tmpl, struct aead_instance *inst)
{
	int err = aead_register_instance(tmpl, inst);

	if (err)
		aead_free_instance_simple(inst);	/* -EEXIST, failed self-test */
	return err;
}
