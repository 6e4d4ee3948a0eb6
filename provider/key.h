/* SPDX-License-Identifier: MIT */
/*
 * The provider's key object (keymgmt's keydata), shared by keymgmt.c,
 * signature.c, keyexch.c, asymcipher.c, encoder.c, decoder.c, store.c.
 * It holds the key material in rind's raw forms and caches the keyed
 * tfms built from it (a keyed tfm may be shared by threads).  A key whose
 * private half lives in rindd (store.c, the key-reference PEM) has only
 * its public half here and a remote reference for private operations.
 */
#ifndef RIND_PROVIDER_KEY_H
#define RIND_PROVIDER_KEY_H

#include <pthread.h>
#include "prov.h"

enum rk_type { RK_ED25519, RK_X25519, RK_EC, RK_RSA, RK_MLDSA44, RK_MLDSA65, RK_MLDSA87, RK_NTYPES };
#define RK_IS_MLDSA(t) ((t) >= RK_MLDSA44 && (t) <= RK_MLDSA87)

/* ML-DSA (FIPS 204) parameter sets: sizes, registry name, OID's last arc. */
struct rk_mldsa {
	const char *rind;	/* "mldsa65" */
	unsigned int pklen, sklen, siglen, secbits, category;
	uint8_t oid_arc;	/* 2.16.840.1.101.3.4.3.17/18/19 */
};
extern const struct rk_mldsa rk_mldsa[3];
#define RK_MLDSA(t) (&rk_mldsa[(t) - RK_MLDSA44])
/* OpenSSL 3.5's names for them (keymgmt, signature, encoders, decoders) */
#define RK_MLDSA44_NAMES "ML-DSA-44:MLDSA44:2.16.840.1.101.3.4.3.17:id-ml-dsa-44"
#define RK_MLDSA65_NAMES "ML-DSA-65:MLDSA65:2.16.840.1.101.3.4.3.18:id-ml-dsa-65"
#define RK_MLDSA87_NAMES "ML-DSA-87:MLDSA87:2.16.840.1.101.3.4.3.19:id-ml-dsa-87"
#define RK_PUB_MAX 2592		/* ML-DSA-87's public key */

/*
 * The parameter names OpenSSL 3.5 gives ML-DSA (absent from the 3.0
 * headers the provider builds against): the same strings, so programs
 * written for 3.5's own ML-DSA drive rind's unchanged.
 */
#ifndef OSSL_PKEY_PARAM_ML_DSA_SEED
#define OSSL_PKEY_PARAM_ML_DSA_SEED "seed"
#endif
#ifndef OSSL_PKEY_PARAM_SECURITY_CATEGORY
#define OSSL_PKEY_PARAM_SECURITY_CATEGORY "security-category"
#endif
#ifndef OSSL_SIGNATURE_PARAM_CONTEXT_STRING
#define OSSL_SIGNATURE_PARAM_CONTEXT_STRING "context-string"
#endif
#ifndef OSSL_SIGNATURE_PARAM_DETERMINISTIC
#define OSSL_SIGNATURE_PARAM_DETERMINISTIC "deterministic"
#endif
#ifndef OSSL_SIGNATURE_PARAM_TEST_ENTROPY
#define OSSL_SIGNATURE_PARAM_TEST_ENTROPY "test-entropy"
#endif
#ifndef OSSL_SIGNATURE_PARAM_MU
#define OSSL_SIGNATURE_PARAM_MU "mu"
#endif
#ifndef OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING
#define OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING "message-encoding"
#endif

struct rk_curve {
	const char *names;	/* OpenSSL group names */
	const char *ossl_name;	/* what OpenSSL's EC code calls it */
	const char *tls_name;	/* what the group is called in TLS */
	const char *ecdsa;	/* "ecdsa-nist-p256" */
	const char *ecdh;	/* "ecdh-nist-p256" */
	unsigned int flen, bits, secbits, maxsig;
};
extern const struct rk_curve rk_curves[3];
const struct rk_curve *rk_curve_by_name(const char *name);

struct rk_tfm {
	struct rk_tfm *next;
	char alg[64];
	struct crypto_sig *sig;
	struct crypto_akcipher *ak;
	int priv;
};

struct rind_remote;	/* remote.c */

struct rkey {
	void *provctx;
	enum rk_type type;
	const struct rk_curve *curve;	/* RK_EC */
	int has_pub, has_priv;
	uint8_t pub[RK_PUB_MAX];	/* Ed25519/X25519 32 bytes, EC 04||X||Y, ML-DSA raw */
	size_t publen;
	uint8_t *priv;			/* seed, X25519 secret, EC scalar, PKCS#1 RSAPrivateKey,
				   ML-DSA seed (or expanded key when set without one) */
	size_t privlen;
	uint8_t *rsapub;		/* PKCS#1 RSAPublicKey */
	size_t rsapublen;
	unsigned int rsabits;
	struct rind_remote *remote;	/* private operations in rindd */
	pthread_mutex_t lock;
	struct rk_tfm *cache;
};

extern const char *const rk_type_name[RK_NTYPES];
struct rkey *rk_new(void *provctx, enum rk_type type);
void rk_free(struct rkey *k);
struct rkey *rk_dup(const struct rkey *k);
/* A keyed signature tfm of algorithm @alg, private if @priv (cached). */
struct crypto_sig *rk_sig(struct rkey *k, const char *alg, int priv);
struct crypto_akcipher *rk_akcipher(struct rkey *k, const char *alg, int priv);
/* Build the key from rind-readable material (PKCS#8/SPKI DER, raw): 0 or -errno. */
int rk_set_priv_der(struct rkey *k, const uint8_t *der, size_t len);
int rk_set_pub_der(struct rkey *k, const uint8_t *der, size_t len);
/* Encode into a malloc'ed buffer: PKCS#8 or SPKI, DER or PEM. */
int rk_encode(struct rkey *k, int priv, enum rind_key_format fmt, uint8_t **out, size_t *outlen);
/* Key parameters for OpenSSL (keymgmt export, decoder export_object). */
int rk_export(struct rkey *k, int selection, OSSL_CALLBACK *cb, void *arg);
int rk_import(struct rkey *k, int selection, const OSSL_PARAM params[]);
unsigned int rk_max_sig(const struct rkey *k);

/*
 * remote.c: a rindd key-reference's body (the text inside `rind key ref`'s
 * PEM block), parsed; name and sock point into text (sock NULL: rindd's
 * default socket).
 */
struct rind_keyref {
	char *text;
	const char *name, *sock;
	uint8_t *spki;
	size_t spkilen;
};
int rind_keyref_is(const uint8_t *body, size_t len);
int rind_keyref_parse(const uint8_t *body, size_t len, struct rind_keyref *r, const char **why);
void rind_keyref_clear(struct rind_keyref *r);
int rind_remote_key(void *provctx, const char *name, const char *sock, const uint8_t *spki, size_t len,
		    int want_type, struct rkey **out);

/* keymgmt load() takes the reference decoders and the store hand out. */
#define RK_REF_SIZE sizeof(struct rkey *)

/* der.c: just enough DER for RSA's integers */
struct der_int { const uint8_t *p; size_t n; };
int der_rsa_priv_parse(const uint8_t *der, size_t len, struct der_int v[9]);
int der_rsa_pub_parse(const uint8_t *der, size_t len, struct der_int v[2]);
/* RSAPrivateKey (v has 8 values n..qinv) or RSAPublicKey (n, e), malloc'ed */
int der_rsa_priv_build(const struct der_int v[8], uint8_t **out, size_t *outlen);
int der_rsa_pub_build(const struct der_int v[2], uint8_t **out, size_t *outlen);
/* The key type a SubjectPublicKeyInfo's algorithm OID names, or -1. */
int der_spki_type(const uint8_t *der, size_t len);

#endif
