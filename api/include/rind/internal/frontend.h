/* SPDX-License-Identifier: MIT */
/*
 * Implementing a front end (a tfm type: api/aead.c, skcipher.c, ...), as
 * the kernel's crypto/internal.h is for crypto/: the shared code in
 * api/tfm.c and the macros that spell each type's one-line calls.  Not for
 * algorithms, which use the type's <rind/internal/X.h>.
 */
#ifndef _RIND_INTERNAL_FRONTEND_H
#define _RIND_INTERNAL_FRONTEND_H

#include <rind/internal/alg.h>

/*
 * What every typed front end shares (api/tfm.c), so that crypto_register_aead
 * and its kind are one line each.  Register @alg as an alg of @frontend
 * (prepare_alg, then cra_type and the type bits, then crypto_register_alg);
 * register @count algs of @frontend spaced @stride bytes apart from @first,
 * unregistering those done if one fails, as the kernel's
 * crypto_register_algs.
 */
int crypto_register_type_alg(struct crypto_alg *alg, const struct crypto_type *frontend);
int crypto_register_type_algs(struct crypto_alg *first, int count, size_t stride,
			      const struct crypto_type *frontend);
/* crypto_grab_spawn / crypto_has_alg restricted to @frontend's type. */
int crypto_grab_type(struct crypto_spawn *spawn, struct crypto_alg *inst, const char *name,
		     const struct crypto_type *frontend, u32 type, u32 mask);
int crypto_has_type(const char *name, const struct crypto_type *frontend, u32 type, u32 mask);
/* Free a typed tfm (any pointer from crypto_create_tfm; NULL and errors ignored). */
void crypto_free_type_tfm(void *tfm, const struct crypto_type *frontend);
/*
 * Requests of @frontend's layout for the typed @tfm: zeroed, with base.tfm
 * holding the typed tfm (the type's *_reqtfm() casts it back) and
 * crt_reqsize bytes of context; -EINVAL for a bad tfm, -ENOMEM.  Free
 * wipes the whole request.
 */
void *crypto_request_alloc(void *tfm, const struct crypto_type *frontend);
void crypto_request_free(void *req, const struct crypto_type *frontend);

/*
 * The one-line calls every front end X has over the helpers above, spelled
 * once here (as the kernel's SYSCALL_DEFINE spells functions from a name)
 * for a type with crypto_X_type, struct crypto_X and struct X_alg:
 *
 *   CRYPTO_DEFINE_TFM_API(X)	exported crypto_alloc_X, crypto_free_X,
 *				crypto_has_X, crypto_X_tfm, crypto_X_driver_name
 *   CRYPTO_DEFINE_ALG_NAME(X)	exported crypto_X_alg_name
 *   CRYPTO_DEFINE_ALG_API(X)	crypto_register_X, crypto_unregister_X
 *   CRYPTO_DEFINE_ALGS_API(X, Xs)	crypto_register_Xs (an array)
 *   CRYPTO_DEFINE_SPAWN_API(X)	crypto_grab_X, crypto_spawn_X
 *   CRYPTO_DEFINE_REQUEST_API(X)	exported X_request_alloc, X_request_free,
 *				X_request_set_tfm (struct X_request)
 *
 * and for the public-key types whose tfm has CRYPTO_TFM_NEED_KEY until a
 * key is set (sig, kpp, akcipher; kem keeps finer key flags of its own):
 *
 *   CRYPTO_DEFINE_SET_KEY(X, fn, hook)	exported crypto_X_fn(tfm, key, keylen),
 *				calling the alg's @hook; the key set on success
 *   CRYPTO_DEFINE_KEYGEN_API(X)	exported crypto_X_generate_key,
 *				crypto_X_set_keygen_bits (-EOPNOTSUPP without
 *				the alg's hooks)
 *   CRYPTO_DEFINE_KEY_EXPORT_API(X)	exported crypto_X_export_pubkey,
 *				crypto_X_export_privkey (-ENOKEY before a key)
 *
 * Their declarations (and documentation) are in <rind/X.h> and
 * <rind/internal/X.h>.
 */
#define CRYPTO_DEFINE_TFM_API(X)							\
RIND_EXPORT struct crypto_##X *crypto_alloc_##X(const char *alg_name, u32 type, u32 mask)	\
{										\
	return crypto_alloc_tfm(alg_name, &crypto_##X##_type, type, mask);	\
}										\
RIND_EXPORT void crypto_free_##X(struct crypto_##X *tfm)			\
{										\
	crypto_free_type_tfm(tfm, &crypto_##X##_type);				\
}										\
RIND_EXPORT int crypto_has_##X(const char *alg_name, u32 type, u32 mask)	\
{										\
	return crypto_has_type(alg_name, &crypto_##X##_type, type, mask);	\
}										\
RIND_EXPORT struct crypto_tfm *crypto_##X##_tfm(struct crypto_##X *tfm)	\
{										\
	return &tfm->base;							\
}										\
RIND_EXPORT const char *crypto_##X##_driver_name(struct crypto_##X *tfm)	\
{										\
	return tfm->base.__crt_alg->cra_driver_name;				\
}

#define CRYPTO_DEFINE_ALG_NAME(X)						\
RIND_EXPORT const char *crypto_##X##_alg_name(struct crypto_##X *tfm)		\
{										\
	return tfm->base.__crt_alg->cra_name;					\
}

#define CRYPTO_DEFINE_ALG_API(X)							\
int crypto_register_##X(struct X##_alg *alg)					\
{										\
	return crypto_register_type_alg(&alg->base, &crypto_##X##_type);	\
}										\
void crypto_unregister_##X(struct X##_alg *alg)					\
{										\
	crypto_unregister_alg(&alg->base);					\
}

#define CRYPTO_DEFINE_ALGS_API(X, Xs)						\
int crypto_register_##Xs(struct X##_alg *algs, int count)			\
{										\
	return crypto_register_type_algs(&algs->base, count, sizeof(*algs),	\
					 &crypto_##X##_type);			\
}

#define CRYPTO_DEFINE_SPAWN_API(X)						\
int crypto_grab_##X(struct crypto_spawn *spawn, struct crypto_alg *inst,	\
		    const char *name, u32 type, u32 mask)			\
{										\
	return crypto_grab_type(spawn, inst, name, &crypto_##X##_type, type, mask); \
}										\
struct crypto_##X *crypto_spawn_##X(struct crypto_spawn *spawn)			\
{										\
	return crypto_spawn_tfm(spawn, &crypto_##X##_type);			\
}

#define CRYPTO_DEFINE_REQUEST_API(X)						\
RIND_EXPORT struct X##_request *X##_request_alloc(struct crypto_##X *tfm, gfp_t gfp)	\
{										\
	(void)gfp;								\
	return crypto_request_alloc(tfm, &crypto_##X##_type);			\
}										\
RIND_EXPORT void X##_request_free(struct X##_request *req)			\
{										\
	crypto_request_free(req, &crypto_##X##_type);				\
}										\
RIND_EXPORT void X##_request_set_tfm(struct X##_request *req, struct crypto_##X *tfm)	\
{										\
	req->base.tfm = (struct crypto_tfm *)tfm;				\
}

/*
 * Key state after a setkey that returned @err; both return @err.  The
 * symmetric types' setkey decides CRYPTO_TFM_NEED_KEY either way (a failed
 * setkey leaves no usable key); the public-key types' set_*key only clear
 * it on success (their algs keep the old key when a new one is refused).
 */
static inline int crypto_tfm_setkey_result(struct crypto_tfm *tfm, int err)
{
	if (err)
		tfm->crt_flags |= CRYPTO_TFM_NEED_KEY;
	else
		tfm->crt_flags &= ~CRYPTO_TFM_NEED_KEY;
	return err;
}

static inline int crypto_tfm_key_set(struct crypto_tfm *tfm, int err)
{
	if (!err)
		tfm->crt_flags &= ~CRYPTO_TFM_NEED_KEY;
	return err;
}

#define CRYPTO_DEFINE_SET_KEY(X, fn, hook)					\
RIND_EXPORT int crypto_##X##_##fn(struct crypto_##X *tfm, const void *key, unsigned int keylen) \
{										\
	if (IS_ERR_OR_NULL(tfm) || !key)					\
		return -EINVAL;							\
	return crypto_tfm_key_set(&tfm->base, crypto_##X##_alg(tfm)->hook(tfm, key, keylen)); \
}

#define CRYPTO_DEFINE_KEYGEN_API(X)						\
RIND_EXPORT int crypto_##X##_generate_key(struct crypto_##X *tfm)		\
{										\
	struct X##_alg *alg;							\
										\
	if (IS_ERR_OR_NULL(tfm))						\
		return -EINVAL;							\
	alg = crypto_##X##_alg(tfm);						\
	if (!alg->generate_key)							\
		return -EOPNOTSUPP;						\
	return crypto_tfm_key_set(&tfm->base, alg->generate_key(tfm));		\
}										\
RIND_EXPORT int crypto_##X##_set_keygen_bits(struct crypto_##X *tfm, unsigned int bits) \
{										\
	struct X##_alg *alg;							\
										\
	if (IS_ERR_OR_NULL(tfm))						\
		return -EINVAL;							\
	alg = crypto_##X##_alg(tfm);						\
	if (!alg->set_keygen_bits)						\
		return -EOPNOTSUPP;						\
	return alg->set_keygen_bits(tfm, bits);					\
}

/* Both key exports: argument, support and key-state checks, then the alg. */
#define CRYPTO_DEFINE_KEY_EXPORT_API(X)						\
static int X##_export(struct crypto_##X *tfm, bool priv, enum rind_key_format fmt, \
		      u8 *out, unsigned int outlen)				\
{										\
	struct X##_alg *alg;							\
	int (*export)(struct crypto_##X *tfm, enum rind_key_format fmt, u8 *out,	\
		      unsigned int outlen);					\
										\
	if (IS_ERR_OR_NULL(tfm) || (!out && outlen))				\
		return -EINVAL;							\
	alg = crypto_##X##_alg(tfm);						\
	export = priv ? alg->export_privkey : alg->export_pubkey;		\
	if (!export)								\
		return -EOPNOTSUPP;						\
	if (tfm->base.crt_flags & CRYPTO_TFM_NEED_KEY)				\
		return -ENOKEY;							\
	return export(tfm, fmt, out, outlen);					\
}										\
RIND_EXPORT int crypto_##X##_export_pubkey(struct crypto_##X *tfm, enum rind_key_format fmt, \
					   u8 *out, unsigned int outlen)	\
{										\
	return X##_export(tfm, false, fmt, out, outlen);			\
}										\
RIND_EXPORT int crypto_##X##_export_privkey(struct crypto_##X *tfm, enum rind_key_format fmt, \
					    u8 *out, unsigned int outlen)	\
{										\
	return X##_export(tfm, true, fmt, out, outlen);				\
}

/*
 * The alg_init/alg_exit pair of a front end whose alg struct @alg_t (with
 * its struct crypto_alg named base) has optional members @initf and @exitf
 * taking its tfm struct @tfm_t: defines static pfx##_alg_init/_alg_exit.
 */
#define CRYPTO_DEFINE_ALG_INIT_EXIT(pfx, alg_t, tfm_t, initf, exitf)		\
static int pfx##_alg_init(struct crypto_tfm *tfm)				\
{										\
	alg_t *alg = container_of(tfm->__crt_alg, alg_t, base);		\
										\
	return alg->initf ? alg->initf(container_of(tfm, tfm_t, base)) : 0;	\
}										\
static void pfx##_alg_exit(struct crypto_tfm *tfm)				\
{										\
	alg_t *alg = container_of(tfm->__crt_alg, alg_t, base);		\
										\
	if (alg->exitf)								\
		alg->exitf(container_of(tfm, tfm_t, base));			\
}

#endif /* _RIND_INTERNAL_FRONTEND_H */
