// SPDX-License-Identifier: MIT
/*
 * What every front end shares, as the kernel's crypto/api.c and algapi.c
 * do for its types: tfm allocation and teardown through the type's struct
 * crypto_type, typed registration, spawns and lookups, requests, and
 * request completion.  The front ends (aead.c, skcipher.c, ...) keep only
 * what differs: their crypto_type, argument checks and entry points.
 *
 * Layout of one allocation: the type's tfm struct (struct crypto_aead, ...)
 * ending in its struct crypto_tfm, whose context area follows, 64-byte
 * aligned so implementations can keep vector round keys there.  A request
 * is the type's request struct (whose struct crypto_async_request sits at
 * crypto_type.reqbase) followed by crt_reqsize bytes of the tfm's context.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <rind/internal/frontend.h>

static _Atomic(const struct rind_secmem *) secmem;

void rind_set_secmem(const struct rind_secmem *sm)
{
	atomic_store(&secmem, sm);
}

static void tfm_mem_free(void *mem, size_t size, const struct rind_secmem *sm)
{
	rind_memzero_explicit(mem, size);
	if (sm)
		sm->free(mem, size);
	else
		free(mem);
}

void *crypto_create_tfm(struct crypto_alg *alg, const struct crypto_type *frontend)
{
	unsigned int ext = frontend->extsize ? frontend->extsize(alg) : 0;
	size_t head = frontend->tfmsize;
	size_t size = head + sizeof(struct crypto_tfm) + alg->cra_ctxsize + ext;
	const struct rind_secmem *sm;
	struct crypto_tfm *tfm;
	void *mem;
	int err;

	/*
	 * The tfm struct ends in crypto_tfm, so it is not aligned at mem;
	 * the crypto_tfm is aligned within the allocation below, which is
	 * CRYPTO_MINALIGN bytes longer for it, so mem itself need not be.
	 * Hence malloc rather than aligned_alloc: glibc's memalign splits a
	 * larger chunk on every call, 166 TSC ticks for an allocation and
	 * its free against malloc's 13-28 (Zen 5, 1-4 KiB), a quarter of an
	 * AES-GCM tfm's alloc + setkey + free.
	 */
	size = (size + CRYPTO_MINALIGN - 1) & ~(size_t)(CRYPTO_MINALIGN - 1);
	sm = atomic_load(&secmem);
	if (sm)
		mem = sm->alloc(size + CRYPTO_MINALIGN);
	else
		mem = malloc(size + CRYPTO_MINALIGN);
	if (!mem) {
		crypto_mod_put(alg);
		return ERR_PTR(-ENOMEM);
	}
	memset(mem, 0, size + CRYPTO_MINALIGN);
	/*
	 * Place the crypto_tfm so that its ctx lands on a 64-byte boundary:
	 * offsetof(crypto_tfm, __crt_ctx) is a multiple of 64 by its
	 * alignment attribute, so aligning the crypto_tfm suffices.
	 */
	tfm = (struct crypto_tfm *)(((uintptr_t)mem + head + CRYPTO_MINALIGN - 1) &
				    ~(uintptr_t)(CRYPTO_MINALIGN - 1));
	tfm->__crt_alg = alg;
	tfm->__crt_mem = mem;
	tfm->crt_size = (unsigned int)(size + CRYPTO_MINALIGN);
	tfm->__crt_secmem = sm;
	tfm->crt_flags = frontend->tfm_flags;
	err = frontend->init_tfm ? frontend->init_tfm(tfm) : 0;
	if (!err && alg->cra_init)
		err = alg->cra_init(tfm);
	if (!err && frontend->alg_init)
		err = frontend->alg_init(tfm);
	if (err) {
		tfm_mem_free(mem, size + CRYPTO_MINALIGN, sm);
		crypto_mod_put(alg);
		return ERR_PTR(err);
	}
	return (char *)tfm - head;
}

void *crypto_alloc_tfm(const char *name, const struct crypto_type *frontend, u32 type, u32 mask)
{
	struct crypto_alg *alg;

	if (!name)
		return ERR_PTR(-EINVAL);
	type &= ~CRYPTO_ALG_TYPE_MASK;
	type |= frontend->type;
	mask |= CRYPTO_ALG_TYPE_MASK;
	alg = crypto_alg_mod_lookup(name, type, mask);
	if (IS_ERR(alg))
		return alg;
	return crypto_create_tfm(alg, frontend);
}

void crypto_destroy_tfm(void *mem, struct crypto_tfm *tfm)
{
	struct crypto_alg *alg;
	const struct crypto_type *frontend;
	void *raw;

	if (IS_ERR_OR_NULL(mem))
		return;
	alg = tfm->__crt_alg;
	frontend = alg->cra_type;
	if (frontend && frontend->alg_exit)
		frontend->alg_exit(tfm);
	if (alg->cra_exit)
		alg->cra_exit(tfm);
	raw = tfm->__crt_mem;
	/* Keys and schedules live in the context: wipe the whole allocation. */
	tfm_mem_free(raw, tfm->crt_size, tfm->__crt_secmem);
	crypto_mod_put(alg);
}

/* The crypto_tfm inside a typed tfm (struct crypto_aead, ...). */
static struct crypto_tfm *type_tfm(void *tfm, const struct crypto_type *frontend)
{
	return (struct crypto_tfm *)((char *)tfm + frontend->tfmsize);
}

void crypto_free_type_tfm(void *tfm, const struct crypto_type *frontend)
{
	/* Checked before the pointer arithmetic: tfm may be an error. */
	if (!IS_ERR_OR_NULL(tfm))
		crypto_destroy_tfm(tfm, type_tfm(tfm, frontend));
}

/* ---- typed registration, spawns and lookups ---- */

int crypto_register_type_alg(struct crypto_alg *alg, const struct crypto_type *frontend)
{
	int err = frontend->prepare_alg ? frontend->prepare_alg(alg) : 0;

	if (err)
		return err;
	alg->cra_type = frontend;
	alg->cra_flags = (alg->cra_flags & ~CRYPTO_ALG_TYPE_MASK) | frontend->type;
	return crypto_register_alg(alg);
}

static struct crypto_alg *nth_alg(struct crypto_alg *first, int i, size_t stride)
{
	return (struct crypto_alg *)((char *)first + (size_t)i * stride);
}

int crypto_register_type_algs(struct crypto_alg *first, int count, size_t stride,
			      const struct crypto_type *frontend)
{
	int i, err;

	for (i = 0; i < count; i++) {
		err = crypto_register_type_alg(nth_alg(first, i, stride), frontend);
		if (err) {
			while (--i >= 0)
				crypto_unregister_alg(nth_alg(first, i, stride));
			return err;
		}
	}
	return 0;
}

int crypto_grab_type(struct crypto_spawn *spawn, struct crypto_alg *inst, const char *name,
		     const struct crypto_type *frontend, u32 type, u32 mask)
{
	return crypto_grab_spawn(spawn, inst, name,
				 (type & ~CRYPTO_ALG_TYPE_MASK) | frontend->type,
				 mask | CRYPTO_ALG_TYPE_MASK);
}

int crypto_has_type(const char *name, const struct crypto_type *frontend, u32 type, u32 mask)
{
	return crypto_has_alg(name, (type & ~CRYPTO_ALG_TYPE_MASK) | frontend->type,
			      mask | CRYPTO_ALG_TYPE_MASK);
}

/* ---- requests ---- */

static struct crypto_async_request *req_base(void *req, const struct crypto_type *frontend)
{
	return (struct crypto_async_request *)((char *)req + frontend->reqbase);
}

void *crypto_request_alloc(void *tfm, const struct crypto_type *frontend)
{
	void *req;

	if (IS_ERR_OR_NULL(tfm))
		return ERR_PTR(-EINVAL);
	req = calloc(1, frontend->reqhead + type_tfm(tfm, frontend)->crt_reqsize);
	if (!req)
		return ERR_PTR(-ENOMEM);
	/* base.tfm holds the typed tfm: the type's *_reqtfm() casts it back. */
	req_base(req, frontend)->tfm = tfm;
	return req;
}

void crypto_request_free(void *req, const struct crypto_type *frontend)
{
	void *tfm;

	if (IS_ERR_OR_NULL(req))
		return;
	tfm = req_base(req, frontend)->tfm;
	rind_memzero_explicit(req, frontend->reqhead +
			      (tfm ? type_tfm(tfm, frontend)->crt_reqsize : 0));
	free(req);
}

RIND_EXPORT const char *crypto_tfm_alg_name(struct crypto_tfm *tfm)
{
	return tfm->__crt_alg->cra_name;
}

RIND_EXPORT const char *crypto_tfm_alg_driver_name(struct crypto_tfm *tfm)
{
	return tfm->__crt_alg->cra_driver_name;
}

RIND_EXPORT unsigned int crypto_tfm_alg_blocksize(struct crypto_tfm *tfm)
{
	return tfm->__crt_alg->cra_blocksize;
}

RIND_EXPORT u32 crypto_tfm_get_flags(struct crypto_tfm *tfm)
{
	return tfm->crt_flags;
}

RIND_EXPORT void crypto_tfm_set_flags(struct crypto_tfm *tfm, u32 flags)
{
	tfm->crt_flags |= flags;
}

RIND_EXPORT void crypto_tfm_clear_flags(struct crypto_tfm *tfm, u32 flags)
{
	tfm->crt_flags &= ~flags;
}

RIND_EXPORT void crypto_req_done(void *data, int err)
{
	struct crypto_wait *wait = data;

	/* -EINPROGRESS only says a backlogged request started. */
	if (err == -EINPROGRESS)
		return;
	pthread_mutex_lock(&wait->lock);
	wait->err = err;
	wait->done = 1;
	pthread_cond_broadcast(&wait->cond);
	pthread_mutex_unlock(&wait->lock);
}

RIND_EXPORT int crypto_wait_req(int err, struct crypto_wait *wait)
{
	if (err != -EINPROGRESS && err != -EBUSY)
		return err;
	pthread_mutex_lock(&wait->lock);
	while (!wait->done)
		pthread_cond_wait(&wait->cond, &wait->lock);
	err = wait->err;
	wait->done = 0;
	pthread_mutex_unlock(&wait->lock);
	return err;
}
