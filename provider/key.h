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

enum rk_type { RK_ED25519, RK_X25519, RK_EC, RK_RSA, RK_NTYPES };

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
	uint8_t pub[133];		/* Ed25519/X25519 32 bytes, EC 04||X||Y */
	size_t publen;
	uint8_t *priv;			/* seed, X25519 secret, EC scalar, PKCS#1 RSAPrivateKey */
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

/* keymgmt load() takes the reference decoders and the store hand out. */
#define RK_REF_SIZE sizeof(struct rkey *)

/* der.c: just enough DER for RSA's integers */
struct der_int { const uint8_t *p; size_t n; };
int der_rsa_priv_parse(const uint8_t *der, size_t len, struct der_int v[9]);
int der_rsa_pub_parse(const uint8_t *der, size_t len, struct der_int v[2]);
/* RSAPrivateKey (v has 8 values n..qinv) or RSAPublicKey (n, e), malloc'ed */
int der_rsa_priv_build(const struct der_int v[8], uint8_t **out, size_t *outlen);
int der_rsa_pub_build(const struct der_int v[2], uint8_t **out, size_t *outlen);

#endif
