/* SPDX-License-Identifier: MIT */
/*
 * Implementing a kpp (key agreement) algorithm, as the kernel's
 * <crypto/internal/kpp.h>.  The front end (api/kpp.c) checks the request
 * and tfm arguments, then calls the alg; the alg parses key formats
 * (internal/keyfmt.h) and enforces its own key policy.
 */
#ifndef _RIND_INTERNAL_KPP_H
#define _RIND_INTERNAL_KPP_H

#include <rind/kpp.h>
#include <rind/internal/alg.h>
#include <rind/internal/testmgr.h>

struct kpp_alg {
	/* Raw or encoded private key; NULL/0 asks for a fresh one. */
	int (*set_secret)(struct crypto_kpp *tfm, const void *buffer, unsigned int len);
	/* Write the public key to req->dst, set req->dst_len. */
	int (*generate_public_key)(struct kpp_request *req);
	/* Peer public key from req->src; shared secret to req->dst, set dst_len. */
	int (*compute_shared_secret)(struct kpp_request *req);
	unsigned int (*max_size)(struct crypto_kpp *tfm);
	/* Optional (-EOPNOTSUPP when absent); as crypto_kpp_export_*. */
	int (*export_pubkey)(struct crypto_kpp *tfm, enum rind_key_format fmt,
			     u8 *out, unsigned int outlen);
	int (*export_privkey)(struct crypto_kpp *tfm, enum rind_key_format fmt,
			      u8 *out, unsigned int outlen);
	int (*init)(struct crypto_kpp *tfm);
	void (*exit)(struct crypto_kpp *tfm);	/* the ctx is wiped afterwards anyway */

	unsigned int reqsize;			/* per-request context */

	struct crypto_alg base;
};

struct crypto_kpp {
	struct crypto_tfm base;
};

/* __crypto_kpp_alg(), crypto_kpp_alg(), kpp_tfm_ctx() */
CRYPTO_DEFINE_ALG_CASTS(kpp, kpp_tfm_ctx)

static inline void kpp_set_reqsize(struct crypto_kpp *tfm, unsigned int reqsize)
{
	tfm->base.crt_reqsize = reqsize;
}

/*
 * crypto_kpp_type, crypto_register_kpp, crypto_unregister_kpp,
 * crypto_register_kpps, crypto_grab_kpp, crypto_spawn_kpp
 */
CRYPTO_DECLARE_ALG_API(kpp);
CRYPTO_DECLARE_ALGS_API(kpp, kpps);
CRYPTO_DECLARE_SPAWN_API(kpp);

/*
 * Known-answer vectors for the kpp front end's self-test runner
 * (alg_test_kpp, the type's testmgr hook): register an alg_test_desc with
 * .test = NULL and .suite.priv pointing at a struct kpp_test_suite.
 * For each vector: set_secret(secret) must return secret_error; then, if
 * expected_public is set, generate_public_key must produce it; then
 * compute_shared_secret(peer_public) must return ss_error and, on
 * success, produce expected_ss.
 */
struct kpp_testvec {
	const char *secret;
	const char *peer_public;
	const char *expected_public;	/* NULL: not checked */
	const char *expected_ss;	/* NULL: not checked */
	unsigned int secret_size;
	unsigned int peer_public_size;
	unsigned int expected_public_size;
	unsigned int expected_ss_size;
	int secret_error;
	int ss_error;
};

struct kpp_test_suite {
	const struct kpp_testvec *vecs;
	unsigned int count;
};

int alg_test_kpp(const struct alg_test_desc *desc, struct crypto_alg *alg);

#endif /* _RIND_INTERNAL_KPP_H */
