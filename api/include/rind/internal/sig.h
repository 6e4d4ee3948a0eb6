/* SPDX-License-Identifier: MIT */
/*
 * Implementing a sig (signature) algorithm, as the kernel's
 * <crypto/internal/sig.h>.  The front end (api/sig.c) checks pointers and
 * calls the alg; the alg parses key formats (internal/keyfmt.h), hashes
 * the message and enforces its own key policy.
 */
#ifndef _RIND_INTERNAL_SIG_H
#define _RIND_INTERNAL_SIG_H

#include <rind/sig.h>
#include <rind/internal/alg.h>
#include <rind/internal/testmgr.h>

struct sig_alg {
	/* Sign @msg into @sig (@siglen available): the length, or -errno. */
	int (*sign)(struct crypto_sig *tfm, const void *msg, unsigned int msglen,
		    void *sig, unsigned int siglen);
	/* 0 or -EBADMSG (or another -errno for bad arguments). */
	int (*verify)(struct crypto_sig *tfm, const void *sig, unsigned int siglen,
		      const void *msg, unsigned int msglen);
	int (*set_pub_key)(struct crypto_sig *tfm, const void *key, unsigned int keylen);
	int (*set_priv_key)(struct crypto_sig *tfm, const void *key, unsigned int keylen);
	/* Optional (-EOPNOTSUPP when absent). */
	int (*generate_key)(struct crypto_sig *tfm);
	int (*set_keygen_bits)(struct crypto_sig *tfm, unsigned int bits);
	int (*export_pubkey)(struct crypto_sig *tfm, enum rind_key_format fmt,
			     u8 *out, unsigned int outlen);
	int (*export_privkey)(struct crypto_sig *tfm, enum rind_key_format fmt,
			      u8 *out, unsigned int outlen);
	/*
	 * Optional batch entry points; the front end loops over sign/verify
	 * when absent.  They set every reqs[i].err (and, signing, .siglen).
	 */
	void (*sign_batch)(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n);
	void (*verify_batch)(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n);
	/*
	 * Signatures sign_batch computes side by side in one pass (SIMD
	 * lanes); 0 when it computes them one after another (sharing only
	 * inversions or hashing).  rindd's stats report as lanes used what
	 * crypto_sig_batch_lanes() says for the key's tfm (batch_width below
	 * where there is one).
	 */
	unsigned int batch_lanes;
	/* The smallest batch it runs in lanes (shorter ones: one at a time). */
	unsigned int batch_min;
	/*
	 * Optional, for an implementation whose lanes depend on the key (RSA:
	 * the modulus size): the signatures of a batch of @n that sign_batch
	 * would compute side by side with @tfm's key as it is now (1: one at
	 * a time, also without a key).  crypto_sig_batch_lanes() asks it in
	 * place of batch_lanes / batch_min, which then say only the most the
	 * driver can run.  A template over a spawn forwards it only where its
	 * tfms share the spawn's context (algs/ecdsa.c).
	 */
	unsigned int (*batch_width)(struct crypto_sig *tfm, unsigned int n);
	/*
	 * Optional signing options (rind_sig_set_context,
	 * rind_sig_set_deterministic; -EOPNOTSUPP when absent).  They are
	 * tfm settings, kept across key changes.
	 */
	int (*set_context)(struct crypto_sig *tfm, const u8 *ctx, unsigned int ctxlen);
	int (*set_deterministic)(struct crypto_sig *tfm, bool on);
	unsigned int (*key_size)(struct crypto_sig *tfm);	/* bits */
	unsigned int (*max_size)(struct crypto_sig *tfm);	/* signature bytes */
	int (*init)(struct crypto_sig *tfm);
	void (*exit)(struct crypto_sig *tfm);	/* the ctx is wiped afterwards anyway */

	struct crypto_alg base;
};

struct crypto_sig {
	struct crypto_tfm base;
};

/* __crypto_sig_alg(), crypto_sig_alg(), crypto_sig_ctx() */
CRYPTO_DEFINE_ALG_CASTS(sig, crypto_sig_ctx)

/*
 * crypto_sig_type, crypto_register_sig, crypto_unregister_sig,
 * crypto_register_sigs, crypto_grab_sig, crypto_spawn_sig
 */
CRYPTO_DECLARE_ALG_API(sig);
CRYPTO_DECLARE_ALGS_API(sig, sigs);
CRYPTO_DECLARE_SPAWN_API(sig);

/*
 * Known-answer vectors for the sig front end's self-test runner
 * (alg_test_sig, the type's testmgr hook): register an alg_test_desc with
 * .test = NULL and .suite.priv pointing at a struct sig_test_suite.
 *
 * A vector with @privkey: the key is set, and if @pubkey is given the
 * exported raw public key must equal it; the message is signed and, for
 * a deterministic algorithm (!@randomized), the signature must equal
 * @sig; the fresh signature must verify.  Every vector then sets @pubkey
 * (when given) on a fresh tfm and verifies @sig, which must give 0, or
 * -EBADMSG when @must_fail.
 */
struct sig_testvec {
	const char *privkey;		/* NULL: verify-only vector */
	const char *pubkey;		/* NULL: taken from the private key */
	const char *msg;
	const char *sig;
	unsigned int privkey_size;
	unsigned int pubkey_size;
	unsigned int msg_size;
	unsigned int sig_size;
	bool randomized;		/* signatures differ per call */
	bool must_fail;
};

struct sig_test_suite {
	const struct sig_testvec *vecs;
	unsigned int count;
};

int alg_test_sig(const struct alg_test_desc *desc, struct crypto_alg *alg);

#endif /* _RIND_INTERNAL_SIG_H */
