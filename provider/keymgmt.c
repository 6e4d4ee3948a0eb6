// SPDX-License-Identifier: MIT
/*
 * Key management for ED25519, X25519, EC (P-256/384/521), RSA and ML-DSA-44/
 * 65/87 (FIPS 204; the private key is the 32-byte seed): key
 * objects (key.h), generation, OpenSSL's key parameters in and out
 * (import/export, so keys cross to and from other providers), and the
 * keyed-tfm cache the operations use.
 */
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "key.h"

const char *const rk_type_name[RK_NTYPES] = {
	"ED25519", "X25519", "EC", "RSA", "ML-DSA-44", "ML-DSA-65", "ML-DSA-87"
};

/* FIPS 204 table 2 sizes; security strength and NIST category of each set. */
const struct rk_mldsa rk_mldsa[3] = {
	{ "mldsa44", 1312, 2560, 2420, 128, 2, 17 },
	{ "mldsa65", 1952, 4032, 3309, 192, 3, 18 },
	{ "mldsa87", 2592, 4896, 4627, 256, 5, 19 },
};

const struct rk_curve rk_curves[3] = {
	{ "prime256v1:P-256:secp256r1", "prime256v1", "secp256r1", "ecdsa-nist-p256", "ecdh-nist-p256", 32, 256, 128, 72 },
	{ "secp384r1:P-384", "secp384r1", "secp384r1", "ecdsa-nist-p384", "ecdh-nist-p384", 48, 384, 192, 104 },
	{ "secp521r1:P-521", "secp521r1", "secp521r1", "ecdsa-nist-p521", "ecdh-nist-p521", 66, 521, 256, 139 },
};

const struct rk_curve *rk_curve_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; name && i < 3; i++)
		if (rind_name_in(rk_curves[i].names, name))
			return &rk_curves[i];
	return NULL;
}

/*
 * pub[] (room for ML-DSA-87's 2592 bytes) is not zeroed: it is read only
 * as far as publen (0 here), and only with has_pub set.  Zeroing it was
 * 2.7k instructions a key, and a TLS handshake makes three or four key
 * objects (the X25519 share, the peer's, the certificate's key).
 */
struct rkey *rk_new(void *provctx, enum rk_type type)
{
	struct rkey *k = malloc(sizeof(*k));

	if (!k)
		return NULL;
	memset(k, 0, offsetof(struct rkey, pub));
	memset(&k->publen, 0, sizeof(*k) - offsetof(struct rkey, publen));
	k->provctx = provctx;
	k->type = type;
	pthread_mutex_init(&k->lock, NULL);
	return k;
}

void rind_remote_free(struct rind_remote *r);
struct rind_remote *rind_remote_dup(const struct rind_remote *r);

static void drop_cache(struct rkey *k)
{
	struct rk_tfm *t, *n;

	for (t = k->cache; t; t = n) {
		n = t->next;
		if (t->sig)
			crypto_free_sig(t->sig);
		if (t->ak)
			crypto_free_akcipher(t->ak);
		free(t);
	}
	k->cache = NULL;
}

void rk_free(struct rkey *k)
{
	if (!k)
		return;
	drop_cache(k);
	rind_clear_free(k->priv, k->privlen);
	free(k->rsapub);
	if (k->remote)
		rind_remote_free(k->remote);
	pthread_mutex_destroy(&k->lock);
	/*
	 * Wiped as far as used: pub[] has room for ML-DSA-87's 2592 bytes and
	 * an X25519 key (one per TLS handshake) fills 32 of them.
	 */
	rind_memzero_explicit(k, offsetof(struct rkey, pub) + (k->publen < RK_PUB_MAX ? k->publen : RK_PUB_MAX));
	rind_memzero_explicit(&k->publen, sizeof(*k) - offsetof(struct rkey, publen));
	free(k);
}

struct rkey *rk_dup(const struct rkey *k)
{
	struct rkey *d = rk_new(k->provctx, k->type);

	if (!d)
		return NULL;
	d->curve = k->curve;
	d->has_pub = k->has_pub;
	d->has_priv = k->has_priv;
	memcpy(d->pub, k->pub, k->publen);
	d->publen = k->publen;
	d->rsabits = k->rsabits;
	if ((k->priv && !(d->priv = malloc(k->privlen))) || (k->rsapub && !(d->rsapub = malloc(k->rsapublen)))
	    || (k->remote && !(d->remote = rind_remote_dup(k->remote)))) {
		rk_free(d);
		return NULL;
	}
	if (k->priv)
		memcpy(d->priv, k->priv, d->privlen = k->privlen);
	if (k->rsapub)
		memcpy(d->rsapub, k->rsapub, d->rsapublen = k->rsapublen);
	return d;
}

/* The signature algorithm used for key handling (generation, encoding). */
static const char *base_sig_alg(const struct rkey *k)
{
	static char buf[64];

	switch (k->type) {
	case RK_ED25519: return "ed25519";
	case RK_RSA: return "pkcs1(rsa,sha256)";
	case RK_MLDSA44: case RK_MLDSA65: case RK_MLDSA87: return RK_MLDSA(k->type)->rind;
	case RK_EC:
		/* x962(ecdsa-nist-p256,sha256) etc.: the names are constant per curve */
		if (k->curve == &rk_curves[0]) return "x962(ecdsa-nist-p256,sha256)";
		if (k->curve == &rk_curves[1]) return "x962(ecdsa-nist-p384,sha384)";
		return "x962(ecdsa-nist-p521,sha512)";
	default:
		buf[0] = 0;
		return buf;
	}
}

static int key_into_sig(struct rkey *k, struct crypto_sig *t, int priv)
{
	if (priv) {
		if (!k->priv)
			return -ENOKEY;
		return crypto_sig_set_privkey(t, k->priv, (unsigned int)k->privlen);
	}
	if (k->type == RK_RSA)
		return k->rsapub ? crypto_sig_set_pubkey(t, k->rsapub, (unsigned int)k->rsapublen) : -ENOKEY;
	return k->has_pub ? crypto_sig_set_pubkey(t, k->pub, (unsigned int)k->publen) : -ENOKEY;
}

static struct rk_tfm *cache_find(struct rkey *k, const char *alg, int priv, int ak)
{
	struct rk_tfm *t;

	for (t = k->cache; t; t = t->next)
		if (t->priv == priv && !strcmp(t->alg, alg) && (ak ? t->ak != NULL : t->sig != NULL))
			return t;
	return NULL;
}

struct crypto_sig *rk_sig(struct rkey *k, const char *alg, int priv)
{
	struct rk_tfm *t;
	struct crypto_sig *s;

	if (strlen(alg) >= sizeof(t->alg))
		return NULL;
	pthread_mutex_lock(&k->lock);
	t = cache_find(k, alg, priv, 0);
	if (t) {
		pthread_mutex_unlock(&k->lock);
		return t->sig;
	}
	s = crypto_alloc_sig(alg, 0, 0);
	if (IS_ERR(s)) {
		pthread_mutex_unlock(&k->lock);
		return NULL;
	}
	if (key_into_sig(k, s, priv) || !(t = calloc(1, sizeof(*t)))) {
		crypto_free_sig(s);
		pthread_mutex_unlock(&k->lock);
		return NULL;
	}
	strcpy(t->alg, alg);
	t->sig = s;
	t->priv = priv;
	t->next = k->cache;
	k->cache = t;
	pthread_mutex_unlock(&k->lock);
	return s;
}

struct crypto_akcipher *rk_akcipher(struct rkey *k, const char *alg, int priv)
{
	struct rk_tfm *t;
	struct crypto_akcipher *a;
	int err;

	if (k->type != RK_RSA || strlen(alg) >= sizeof(t->alg))
		return NULL;
	pthread_mutex_lock(&k->lock);
	t = cache_find(k, alg, priv, 1);
	if (t) {
		pthread_mutex_unlock(&k->lock);
		return t->ak;
	}
	a = crypto_alloc_akcipher(alg, 0, 0);
	if (IS_ERR(a)) {
		pthread_mutex_unlock(&k->lock);
		return NULL;
	}
	if (priv)
		err = k->priv ? crypto_akcipher_set_priv_key(a, k->priv, (unsigned int)k->privlen) : -ENOKEY;
	else
		err = k->rsapub ? crypto_akcipher_set_pub_key(a, k->rsapub, (unsigned int)k->rsapublen) : -ENOKEY;
	if (err || !(t = calloc(1, sizeof(*t)))) {
		crypto_free_akcipher(a);
		pthread_mutex_unlock(&k->lock);
		return NULL;
	}
	strcpy(t->alg, alg);
	t->ak = a;
	t->priv = priv;
	t->next = k->cache;
	k->cache = t;
	pthread_mutex_unlock(&k->lock);
	return a;
}

static int set_priv_bytes(struct rkey *k, const uint8_t *p, size_t n)
{
	uint8_t *c = malloc(n ? n : 1);

	if (!c)
		return -ENOMEM;
	memcpy(c, p, n);
	rind_clear_free(k->priv, k->privlen);
	k->priv = c;
	k->privlen = n;
	k->has_priv = 1;
	return 0;
}

static int set_rsapub_bytes(struct rkey *k, const uint8_t *p, size_t n)
{
	struct der_int v[2];
	uint8_t *c;

	if (!der_rsa_pub_parse(p, n, v))
		return -EKEYREJECTED;
	c = malloc(n);
	if (!c)
		return -ENOMEM;
	memcpy(c, p, n);
	free(k->rsapub);
	k->rsapub = c;
	k->rsapublen = n;
	k->rsabits = (unsigned int)(v[0].n * 8);
	{
		uint8_t top = v[0].p[0];

		while (!(top & 0x80)) {
			top <<= 1;
			k->rsabits--;
		}
	}
	k->has_pub = 1;
	return 0;
}

/* Take the key in the raw forms from a tfm that holds it. */
static int from_sig_tfm(struct rkey *k, struct crypto_sig *t, int priv)
{
	uint8_t buf[8192];
	int n;

	drop_cache(k);
	n = crypto_sig_export_pubkey(t, RIND_KEY_RAW, buf, sizeof(buf));
	if (n < 0)
		return n;
	if (k->type == RK_RSA) {
		if ((n = set_rsapub_bytes(k, buf, (size_t)n)))
			return n;
	} else {
		if ((size_t)n > sizeof(k->pub))
			return -EINVAL;
		memcpy(k->pub, buf, (size_t)n);
		k->publen = (size_t)n;
		k->has_pub = 1;
	}
	/*
	 * Only a private key's export needs the wipe: a public key alone (a
	 * certificate's, decoded in every TLS client handshake) left nothing
	 * secret in buf, and wiping its 8 KiB cost 8.2k instructions there, a
	 * third of the decode (callgrind, tests/provider/opcost-hs.sh).
	 */
	if (priv) {
		n = crypto_sig_export_privkey(t, RIND_KEY_RAW, buf, sizeof(buf));
		if (n >= 0)
			n = set_priv_bytes(k, buf, (size_t)n);
		rind_memzero_explicit(buf, sizeof(buf));
	}
	return n < 0 ? n : 0;
}

/* X25519 keys go through a kpp tfm. */
static int x25519_set(struct rkey *k, const uint8_t *priv, const uint8_t *pub)
{
	drop_cache(k);
	if (priv) {
		if (set_priv_bytes(k, priv, 32))
			return -ENOMEM;
		if (rind_curve25519_generate_public(k->pub, priv))
			return -EKEYREJECTED;
	} else {
		memcpy(k->pub, pub, 32);
	}
	k->publen = 32;
	k->has_pub = 1;
	return 0;
}

static int kpp_import(struct rkey *k, const uint8_t *der, size_t len, int priv)
{
	struct crypto_kpp *t = crypto_alloc_kpp("curve25519", 0, 0);
	uint8_t raw[64];
	int n;

	if (IS_ERR(t))
		return PTR_ERR(t);
	if (priv) {
		/*
		 * An empty secret is the kpp's "generate one" (as the kernel's):
		 * a decoder handed empty input must not make a random key of it.
		 */
		n = len ? crypto_kpp_set_secret(t, der, (unsigned int)len) : -EKEYREJECTED;
		if (!n)
			n = crypto_kpp_export_privkey(t, RIND_KEY_RAW, raw, sizeof(raw));
		crypto_free_kpp(t);
		if (n != 32)
			return n < 0 ? n : -EKEYREJECTED;
		n = x25519_set(k, raw, NULL);
		rind_memzero_explicit(raw, sizeof(raw));
		return n;
	}
	crypto_free_kpp(t);
	/* SPKI for X25519 (RFC 8410): a 12-byte prefix, then the key */
	{
		static const uint8_t pfx[12] = { 0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00 };

		if (len != 44 || memcmp(der, pfx, 12))
			return -EKEYREJECTED;
		return x25519_set(k, NULL, der + 12);
	}
}

static struct crypto_sig *alloc_base(struct rkey *k)
{
	struct crypto_sig *t = crypto_alloc_sig(base_sig_alg(k), 0, 0);

	return IS_ERR(t) ? NULL : t;
}

int rk_set_priv_der(struct rkey *k, const uint8_t *der, size_t len)
{
	struct crypto_sig *t;
	int err;

	if (k->type == RK_X25519)
		return kpp_import(k, der, len, 1);
	if (k->type == RK_EC && !k->curve) {
		/* PKCS#8 names its curve: the first that takes it */
		unsigned int i;

		for (i = 0; i < 3; i++) {
			k->curve = &rk_curves[i];
			if (!rk_set_priv_der(k, der, len))
				return 0;
		}
		k->curve = NULL;
		return -EKEYREJECTED;
	}
	if (!(t = alloc_base(k)))
		return -ENOENT;
	err = crypto_sig_set_privkey(t, der, (unsigned int)len);
	if (!err)
		err = from_sig_tfm(k, t, 1);
	crypto_free_sig(t);
	return err;
}

/*
 * The tfm that checks a public key while it is decoded is kept as the key's
 * verification tfm, keyed as the verification most likely to follow asks
 * for it (signature.c's names): a certificate's key is decoded and then
 * verifies one signature (the peer's CertificateVerify, in every TLS
 * handshake), and setting a key twice cost that twice -- for RSA-2048 the
 * key's Montgomery constants, 3.1M instructions each (callgrind), more
 * than the verification.  For RSA that is PSS with SHA-256, TLS 1.3's
 * first choice for an RSA key (rsa_pss_rsae_sha256); the padding decides
 * nothing in the key check (one RSA key import for every padding).
 * Ed25519's and ECDSA's base algorithms are already what TLS verifies.
 */
static const char *pub_check_alg(const struct rkey *k)
{
	return k->type == RK_RSA ? "pss(rsa,sha256)" : base_sig_alg(k);
}

/* Keep @t, keyed with @k's public key, as @k's tfm for @alg: 0, or -errno. */
static int cache_keep(struct rkey *k, struct crypto_sig *t, const char *alg)
{
	struct rk_tfm *c;

	if (strlen(alg) >= sizeof(c->alg) || cache_find(k, alg, 0, 0) || !(c = calloc(1, sizeof(*c))))
		return -ENOMEM;
	strcpy(c->alg, alg);
	c->sig = t;
	c->next = k->cache;
	k->cache = c;
	return 0;
}

int rk_set_pub_der(struct rkey *k, const uint8_t *der, size_t len)
{
	struct crypto_sig *t;
	const char *alg;
	int err;

	if (k->type == RK_X25519)
		return kpp_import(k, der, len, 0);
	if (k->type == RK_EC && !k->curve) {
		unsigned int i;

		for (i = 0; i < 3; i++) {
			k->curve = &rk_curves[i];
			if (!rk_set_pub_der(k, der, len))
				return 0;
		}
		k->curve = NULL;
		return -EKEYREJECTED;
	}
	alg = pub_check_alg(k);
	t = crypto_alloc_sig(alg, 0, 0);
	if (IS_ERR(t) && alg != base_sig_alg(k))
		t = crypto_alloc_sig(alg = base_sig_alg(k), 0, 0);
	if (IS_ERR(t))
		return -ENOENT;
	err = crypto_sig_set_pubkey(t, der, (unsigned int)len);
	if (!err)
		err = from_sig_tfm(k, t, 0);
	if (err || cache_keep(k, t, alg))
		crypto_free_sig(t);
	return err;
}

int rk_encode(struct rkey *k, int priv, enum rind_key_format fmt, uint8_t **out, size_t *outlen)
{
	uint8_t *buf = malloc(16384);
	int n;

	if (!buf)
		return -ENOMEM;
	if (k->type == RK_X25519) {
		struct crypto_kpp *t = crypto_alloc_kpp("curve25519", 0, 0);

		if (IS_ERR(t)) {
			free(buf);
			return PTR_ERR(t);
		}
		if (priv) {
			n = k->priv ? crypto_kpp_set_secret(t, k->priv, 32) : -ENOKEY;
			if (!n)
				n = crypto_kpp_export_privkey(t, fmt, buf, 16384);
		} else if (!k->has_pub) {
			n = -ENOKEY;
		} else if (fmt == RIND_KEY_SPKI_DER || fmt == RIND_KEY_PEM) {
			static const uint8_t pfx[12] = { 0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00 };
			uint8_t der[44];

			memcpy(der, pfx, 12);
			memcpy(der + 12, k->pub, 32);
			if (fmt == RIND_KEY_SPKI_DER) {
				memcpy(buf, der, 44);
				n = 44;
			} else {
				/* no secret set in a kpp for a public key: PEM armour here */
				static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
				char *o = (char *)buf;
				int i;

				o += sprintf(o, "-----BEGIN PUBLIC KEY-----\n");
				for (i = 0; i < 44; i += 3) {
					unsigned int v = (unsigned int)der[i] << 16 | (unsigned int)der[i + 1] << 8 | (i + 2 < 44 ? der[i + 2] : 0);

					*o++ = b64[v >> 18 & 63];
					*o++ = b64[v >> 12 & 63];
					*o++ = i + 1 < 44 ? b64[v >> 6 & 63] : '=';
					*o++ = i + 2 < 44 ? b64[v & 63] : '=';
				}
				o += sprintf(o, "\n-----END PUBLIC KEY-----\n");
				n = (int)(o - (char *)buf);
			}
		} else {
			n = -EINVAL;
		}
		crypto_free_kpp(t);
	} else {
		struct crypto_sig *t = alloc_base(k);

		if (!t) {
			free(buf);
			return -ENOENT;
		}
		n = key_into_sig(k, t, priv);
		if (!n)
			n = priv ? crypto_sig_export_privkey(t, fmt, buf, 16384)
				 : crypto_sig_export_pubkey(t, fmt, buf, 16384);
		crypto_free_sig(t);
	}
	if (n < 0) {
		rind_clear_free(buf, 16384);
		return n;
	}
	*out = buf;
	*outlen = (size_t)n;
	return 0;
}

unsigned int rk_max_sig(const struct rkey *k)
{
	switch (k->type) {
	case RK_ED25519: return 64;
	case RK_X25519: return 32;
	case RK_EC: return k->curve ? k->curve->maxsig : 0;
	case RK_RSA: return (k->rsabits + 7) / 8;
	case RK_MLDSA44: case RK_MLDSA65: case RK_MLDSA87: return RK_MLDSA(k->type)->siglen;
	default: return 0;
	}
}

/* ---- OpenSSL's parameters ---- */

#define SEL_PRIV OSSL_KEYMGMT_SELECT_PRIVATE_KEY
#define SEL_PUB OSSL_KEYMGMT_SELECT_PUBLIC_KEY
#define SEL_DOM OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS

struct pbuild {
	OSSL_PARAM p[12];
	uint8_t *bufs[12];
	size_t lens[12];
	int n;
};

static int pb_octets(struct pbuild *b, const char *key, const void *d, size_t n)
{
	b->p[b->n] = (OSSL_PARAM){ key, OSSL_PARAM_OCTET_STRING, (void *)d, n, 0 };
	b->n++;
	return 1;
}

static int pb_utf8(struct pbuild *b, const char *key, const char *s)
{
	b->p[b->n] = (OSSL_PARAM){ key, OSSL_PARAM_UTF8_STRING, (void *)s, strlen(s), 0 };
	b->n++;
	return 1;
}

static int pb_bn(struct pbuild *b, const char *key, const uint8_t *be, size_t n)
{
	uint8_t *buf = malloc(n ? n : 1);

	if (!buf)
		return 0;
	b->bufs[b->n] = buf;
	b->lens[b->n] = n;
	b->p[b->n] = (OSSL_PARAM){ key, OSSL_PARAM_UNSIGNED_INTEGER, buf, n, 0 };
	if (!rp_set_bn(&b->p[b->n], be, n)) {
		free(buf);
		b->bufs[b->n] = NULL;
		return 0;
	}
	b->n++;
	return 1;
}

static void pb_free(struct pbuild *b)
{
	int i;

	for (i = 0; i < b->n; i++)
		rind_clear_free(b->bufs[i], b->lens[i]);
}

int rk_export(struct rkey *k, int selection, OSSL_CALLBACK *cb, void *arg)
{
	struct pbuild b;
	int ok = 1, ret;
	struct der_int v[9];
	static const char *const rsa_names[8] = {
		OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E, OSSL_PKEY_PARAM_RSA_D,
		OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2,
		OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1
	};

	memset(&b, 0, sizeof(b));
	/* A key held by rindd has no private half to give. */
	if ((selection & SEL_PRIV) && !k->priv && (selection & (SEL_PUB | SEL_DOM)) == 0)
		return 0;
	switch (k->type) {
	case RK_ED25519:
	case RK_X25519:
		if ((selection & SEL_PUB) && k->has_pub)
			pb_octets(&b, OSSL_PKEY_PARAM_PUB_KEY, k->pub, 32);
		if ((selection & SEL_PRIV) && k->priv)
			pb_octets(&b, OSSL_PKEY_PARAM_PRIV_KEY, k->priv, 32);
		break;
	case RK_EC:
		if (!k->curve)
			return 0;
		pb_utf8(&b, OSSL_PKEY_PARAM_GROUP_NAME, k->curve->ossl_name);
		if ((selection & SEL_PUB) && k->has_pub)
			pb_octets(&b, OSSL_PKEY_PARAM_PUB_KEY, k->pub, k->publen);
		if ((selection & SEL_PRIV) && k->priv)
			ok = pb_bn(&b, OSSL_PKEY_PARAM_PRIV_KEY, k->priv, k->privlen);
		break;
	case RK_MLDSA44: case RK_MLDSA65: case RK_MLDSA87:
		/* "seed" (32 bytes) or, for a key set without one, "priv" (expanded) */
		if ((selection & SEL_PUB) && k->has_pub)
			pb_octets(&b, OSSL_PKEY_PARAM_PUB_KEY, k->pub, k->publen);
		if ((selection & SEL_PRIV) && k->priv)
			pb_octets(&b, k->privlen == 32 ? OSSL_PKEY_PARAM_ML_DSA_SEED : OSSL_PKEY_PARAM_PRIV_KEY,
				  k->priv, k->privlen);
		break;
	case RK_RSA:
		if ((selection & SEL_PRIV) && k->priv) {
			int i;

			if (!der_rsa_priv_parse(k->priv, k->privlen, v))
				return 0;
			for (i = 0; i < 8 && ok; i++)
				ok = pb_bn(&b, rsa_names[i], v[i + 1].p, v[i + 1].n);
		} else if ((selection & SEL_PUB) && k->rsapub) {
			if (!der_rsa_pub_parse(k->rsapub, k->rsapublen, v))
				return 0;
			ok = pb_bn(&b, rsa_names[0], v[0].p, v[0].n) && pb_bn(&b, rsa_names[1], v[1].p, v[1].n);
		}
		break;
	default:
		return 0;
	}
	b.p[b.n] = (OSSL_PARAM){ NULL, 0, NULL, 0, 0 };
	ret = ok ? cb(b.p, arg) : 0;
	pb_free(&b);
	return ret;
}

static int get_bn_dup(const OSSL_PARAM *params, const char *key, uint8_t **out, size_t *len)
{
	const OSSL_PARAM *p = rp_locate_c(params, key);
	size_t n;

	if (!p || !(n = rp_bn_len(p)))
		return 0;
	*out = malloc(n);
	if (!*out || !rp_get_bn(p, *out, n)) {
		free(*out);
		return 0;
	}
	*len = n;
	return 1;
}

static int import_rsa(struct rkey *k, int selection, const OSSL_PARAM params[])
{
	static const char *const names[8] = {
		OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E, OSSL_PKEY_PARAM_RSA_D,
		OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2,
		OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1
	};
	uint8_t *b[8] = { 0 }, *der = NULL;
	size_t l[8] = { 0 }, derlen = 0;
	struct der_int v[8];
	int i, have = 0, err = -EKEYREJECTED;

	for (i = 0; i < 8; i++) {
		if (get_bn_dup(params, names[i], &b[i], &l[i]))
			have |= 1 << i;
		v[i].p = b[i];
		v[i].n = l[i];
	}
	if ((have & 3) != 3)
		goto out;
	if ((selection & SEL_PRIV) && have == 0xff) {
		struct crypto_sig *t;

		if (!der_rsa_priv_build(v, &der, &derlen))
			goto out;
		t = alloc_base(k);
		if (!t)
			goto out;
		err = crypto_sig_set_privkey(t, der, (unsigned int)derlen);
		if (!err)
			err = from_sig_tfm(k, t, 1);
		crypto_free_sig(t);
	} else if (selection & SEL_PUB) {
		if (!der_rsa_pub_build(v, &der, &derlen))
			goto out;
		err = rk_set_pub_der(k, der, derlen);
	}
out:
	for (i = 0; i < 8; i++)
		rind_clear_free(b[i], l[i]);
	rind_clear_free(der, derlen);
	return err;
}

/*
 * A seed and an expanded private key given together must be one key, as
 * librind's PKCS#8 "both" form requires: the two tfms' public keys and a
 * deterministic signature of a fixed message under each must agree (the
 * signature depends on every part of the expanded key: rho, K, tr, s1,
 * s2, t0).  Both are public outputs, so a plain comparison is fine.
 */
static int mldsa_pair_check(struct rkey *k, struct crypto_sig *seeded, const void *exp, size_t len)
{
	static const uint8_t msg[] = "rind provider: seed and expanded key agree";
	const struct rk_mldsa *m = RK_MLDSA(k->type);
	struct crypto_sig *t = alloc_base(k);
	uint8_t *a = NULL, *b = NULL;
	int err = -ENOMEM, la, lb;

	if (!t)
		return -ENOENT;
	a = malloc(m->siglen > m->pklen ? m->siglen : m->pklen);
	b = malloc(m->siglen > m->pklen ? m->siglen : m->pklen);
	if (!a || !b)
		goto out;
	err = crypto_sig_set_privkey(t, exp, (unsigned int)len);
	if (err)
		goto out;
	err = -EKEYREJECTED;
	la = crypto_sig_export_pubkey(seeded, RIND_KEY_RAW, a, m->pklen);
	lb = crypto_sig_export_pubkey(t, RIND_KEY_RAW, b, m->pklen);
	if (la < 0 || la != lb || memcmp(a, b, (size_t)la))
		goto out;
	if (rind_sig_set_deterministic(seeded, true) || rind_sig_set_deterministic(t, true))
		goto out;
	la = crypto_sig_sign(seeded, msg, sizeof(msg), a, m->siglen);
	lb = crypto_sig_sign(t, msg, sizeof(msg), b, m->siglen);
	if (la > 0 && la == lb && !memcmp(a, b, (size_t)la))
		err = 0;
out:
	free(a);
	free(b);
	crypto_free_sig(t);
	return err;
}

/*
 * ML-DSA from OpenSSL 3.5's parameters: "seed" (32 bytes; what rind
 * keeps), else "priv" (the expanded FIPS 204 private key), else "pub";
 * both private forms given must be one key.  A public key given with a
 * private one must be that key's.  Nothing of @k changes on a refusal.
 */
static int import_mldsa(struct rkey *k, int selection, const OSSL_PARAM params[])
{
	const struct rk_mldsa *m = RK_MLDSA(k->type);
	const OSSL_PARAM *ps = rp_locate_c(params, OSSL_PKEY_PARAM_ML_DSA_SEED);
	const OSSL_PARAM *pp = rp_locate_c(params, OSSL_PKEY_PARAM_PRIV_KEY);
	const OSSL_PARAM *pu = rp_locate_c(params, OSSL_PKEY_PARAM_PUB_KEY);
	const void *d;
	size_t n;
	int err;

	if ((selection & SEL_PRIV) && (ps || pp)) {
		struct crypto_sig *t;

		if (ps ? !rp_get_octets(ps, &d, &n) || n != 32 : !rp_get_octets(pp, &d, &n) || n != m->sklen)
			return -EKEYREJECTED;
		if (!(t = alloc_base(k)))
			return -ENOENT;
		err = crypto_sig_set_privkey(t, d, (unsigned int)n);
		if (!err && ps && pp) {
			const void *e;
			size_t el;

			err = rp_get_octets(pp, &e, &el) && el == m->sklen ?
			      mldsa_pair_check(k, t, e, el) : -EKEYREJECTED;
		}
		if (!err && pu) {
			uint8_t pub[2592];	/* ML-DSA-87's, the largest */
			int pl = crypto_sig_export_pubkey(t, RIND_KEY_RAW, pub, sizeof(pub));

			if (pl < 0 || !rp_get_octets(pu, &d, &n) || n != (size_t)pl || memcmp(d, pub, n))
				err = -EKEYREJECTED;
		}
		/* the checks first: k is changed only by a key that passed them */
		if (!err)
			err = from_sig_tfm(k, t, 1);
		crypto_free_sig(t);
		return err;
	}
	if ((selection & SEL_PUB) && pu) {
		if (!rp_get_octets(pu, &d, &n) || n != m->pklen)
			return -EKEYREJECTED;
		return rk_set_pub_der(k, d, n);
	}
	return -EINVAL;
}

int rk_import(struct rkey *k, int selection, const OSSL_PARAM params[])
{
	const OSSL_PARAM *p;
	const void *d;
	size_t n;
	const char *s;

	switch (k->type) {
	case RK_ED25519:
	case RK_X25519: {
		const OSSL_PARAM *pp = rp_locate_c(params, OSSL_PKEY_PARAM_PRIV_KEY);
		const OSSL_PARAM *pu = rp_locate_c(params, OSSL_PKEY_PARAM_PUB_KEY);

		if ((selection & SEL_PRIV) && pp) {
			if (!rp_get_octets(pp, &d, &n) || n != 32)
				return -EKEYREJECTED;
			if (k->type == RK_X25519)
				return x25519_set(k, d, NULL);
			{
				struct crypto_sig *t = alloc_base(k);
				int err;

				if (!t)
					return -ENOENT;
				err = crypto_sig_set_privkey(t, d, 32);
				if (!err)
					err = from_sig_tfm(k, t, 1);
				crypto_free_sig(t);
				if (err)
					return err;
			}
			if (pu && (!rp_get_octets(pu, &d, &n) || n != 32 || memcmp(d, k->pub, 32)))
				return -EKEYREJECTED;
			return 0;
		}
		if ((selection & SEL_PUB) && pu) {
			if (!rp_get_octets(pu, &d, &n) || n != 32)
				return -EKEYREJECTED;
			if (k->type == RK_X25519)
				return x25519_set(k, NULL, d);
			return rk_set_pub_der(k, d, 32);
		}
		return -EINVAL;
	}
	case RK_EC: {
		if ((p = rp_locate_c(params, OSSL_PKEY_PARAM_GROUP_NAME))) {
			if (!rp_get_utf8(p, &s) || !(k->curve = rk_curve_by_name(s)))
				return -EKEYREJECTED;
		}
		if (!k->curve)
			return -EINVAL;
		if ((selection & SEL_PRIV) && (p = rp_locate_c(params, OSSL_PKEY_PARAM_PRIV_KEY))) {
			uint8_t sc[66];
			struct crypto_sig *t = alloc_base(k);
			int err;

			if (!t)
				return -ENOENT;
			err = rp_get_bn(p, sc, k->curve->flen) ? crypto_sig_set_privkey(t, sc, k->curve->flen) : -EKEYREJECTED;
			rind_memzero_explicit(sc, sizeof(sc));
			if (!err)
				err = from_sig_tfm(k, t, 1);
			crypto_free_sig(t);
			return err;
		}
		if ((selection & SEL_PUB) && (p = rp_locate_c(params, OSSL_PKEY_PARAM_PUB_KEY))) {
			if (!rp_get_octets(p, &d, &n))
				return -EKEYREJECTED;
			return rk_set_pub_der(k, d, n);
		}
		return (selection & SEL_DOM) ? 0 : -EINVAL;
	}
	case RK_RSA:
		return import_rsa(k, selection, params);
	case RK_MLDSA44: case RK_MLDSA65: case RK_MLDSA87:
		return import_mldsa(k, selection, params);
	default:
		return -EINVAL;
	}
}

/* ---- keymgmt dispatch ---- */

static void *km_new(void *provctx, enum rk_type t) { return rk_new(provctx, t); }
static void km_free(void *k) { rk_free(k); }

static int km_has(const void *vk, int selection)
{
	const struct rkey *k = vk;

	if (!k)
		return 0;
	if ((selection & SEL_PRIV) && !k->has_priv)
		return 0;
	if ((selection & SEL_PUB) && !k->has_pub)
		return 0;
	if ((selection & SEL_DOM) && k->type == RK_EC && !k->curve)
		return 0;
	return 1;
}

static int km_match(const void *va, const void *vb, int selection)
{
	const struct rkey *a = va, *b = vb;

	if (a->type != b->type)
		return 0;
	if (a->type == RK_EC && a->curve != b->curve)
		return 0;
	if (selection & (SEL_PUB | SEL_PRIV)) {
		if (a->type == RK_RSA)
			return a->rsapub && b->rsapub && a->rsapublen == b->rsapublen
				&& !memcmp(a->rsapub, b->rsapub, a->rsapublen);
		return a->has_pub && b->has_pub && a->publen == b->publen && !memcmp(a->pub, b->pub, a->publen);
	}
	return 1;
}

static int km_import(void *vk, int selection, const OSSL_PARAM params[])
{
	return rk_import(vk, selection, params) == 0;
}

static int km_export(void *vk, int selection, OSSL_CALLBACK *cb, void *arg)
{
	return rk_export(vk, selection, cb, arg);
}

static const OSSL_PARAM ecx_ptypes[] = {
	{ OSSL_PKEY_PARAM_PUB_KEY, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_PRIV_KEY, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM ec_ptypes[] = {
	{ OSSL_PKEY_PARAM_GROUP_NAME, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_PUB_KEY, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_PRIV_KEY, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM mldsa_ptypes[] = {
	{ OSSL_PKEY_PARAM_ML_DSA_SEED, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_PUB_KEY, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_PRIV_KEY, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM rsa_ptypes[] = {
	{ OSSL_PKEY_PARAM_RSA_N, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_RSA_E, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_RSA_D, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_RSA_FACTOR2, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_RSA_COEFFICIENT1, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};

static int km_get_params(void *vk, OSSL_PARAM params[])
{
	struct rkey *k = vk;
	OSSL_PARAM *p;
	unsigned int bits = 0, sec = 0;

	switch (k->type) {
	case RK_ED25519: bits = 256; sec = 128; break;
	case RK_X25519: bits = 253; sec = 128; break;
	case RK_EC: if (k->curve) { bits = k->curve->bits; sec = k->curve->secbits; } break;
	case RK_RSA:
		bits = k->rsabits;
		sec = bits >= 15360 ? 256 : bits >= 7680 ? 192 : bits >= 3072 ? 128 : bits >= 2048 ? 112 : 80;
		break;
	case RK_MLDSA44: case RK_MLDSA65: case RK_MLDSA87:
		/* as OpenSSL 3.5: bits are the public key's, strength FIPS 204's */
		bits = 8 * RK_MLDSA(k->type)->pklen;
		sec = RK_MLDSA(k->type)->secbits;
		if (!rp_put_int(params, OSSL_PKEY_PARAM_SECURITY_CATEGORY, (int)RK_MLDSA(k->type)->category))
			return 0;
		break;
	default: break;
	}
	if (!rp_put_int(params, OSSL_PKEY_PARAM_BITS, (int)bits)
	    || !rp_put_int(params, OSSL_PKEY_PARAM_SECURITY_BITS, (int)sec)
	    || !rp_put_int(params, OSSL_PKEY_PARAM_MAX_SIZE, (int)rk_max_sig(k)))
		return 0;
	if (k->type == RK_EC || k->type == RK_RSA) {
		if (!rp_put_utf8(params, OSSL_PKEY_PARAM_DEFAULT_DIGEST, "SHA256"))
			return 0;
	} else if (k->type == RK_ED25519 || RK_IS_MLDSA(k->type)) {
		/* Ed25519 and ML-DSA hash inside: no digest to choose. */
		if (!rp_put_utf8(params, OSSL_PKEY_PARAM_MANDATORY_DIGEST, ""))
			return 0;
	}
	if (k->type == RK_EC && k->curve && !rp_put_utf8(params, OSSL_PKEY_PARAM_GROUP_NAME, k->curve->ossl_name))
		return 0;
	if (RK_IS_MLDSA(k->type) && k->priv
	    && !rp_put_octets(params, k->privlen == 32 ? OSSL_PKEY_PARAM_ML_DSA_SEED : OSSL_PKEY_PARAM_PRIV_KEY,
			      k->priv, k->privlen))
		return 0;
	if (k->type != RK_RSA && k->has_pub) {
		if (!rp_put_octets(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, k->pub, k->publen)
		    || !rp_put_octets(params, OSSL_PKEY_PARAM_PUB_KEY, k->pub, k->publen))
			return 0;
	}
	if (k->type == RK_RSA && k->rsapub) {
		struct der_int v[2];

		if (der_rsa_pub_parse(k->rsapub, k->rsapublen, v)) {
			if ((p = rp_locate(params, OSSL_PKEY_PARAM_RSA_N)) && !rp_set_bn(p, v[0].p, v[0].n))
				return 0;
			if ((p = rp_locate(params, OSSL_PKEY_PARAM_RSA_E)) && !rp_set_bn(p, v[1].p, v[1].n))
				return 0;
		}
	}
	return 1;
}

static const OSSL_PARAM km_gettable_list[] = {
	{ OSSL_PKEY_PARAM_BITS, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ OSSL_PKEY_PARAM_SECURITY_BITS, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ OSSL_PKEY_PARAM_MAX_SIZE, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ OSSL_PKEY_PARAM_DEFAULT_DIGEST, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_MANDATORY_DIGEST, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_GROUP_NAME, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_PUB_KEY, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_RSA_N, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_RSA_E, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_SECURITY_CATEGORY, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ OSSL_PKEY_PARAM_ML_DSA_SEED, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_PRIV_KEY, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM *km_gettable(void *provctx) { (void)provctx; return km_gettable_list; }

static int km_set_params(void *vk, const OSSL_PARAM params[])
{
	struct rkey *k = vk;
	const OSSL_PARAM *p = rp_locate_c(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
	const void *d;
	size_t n;

	if (!p)
		return 1;
	if (!rp_get_octets(p, &d, &n))
		return 0;
	/* The peer's share in a key exchange: a public key alone. */
	switch (k->type) {
	case RK_X25519:
		if (n != 32)
			return 0;
		rind_clear_free(k->priv, k->privlen);
		k->priv = NULL;
		k->has_priv = 0;
		return x25519_set(k, NULL, d) == 0;
	case RK_EC:
		if (!k->curve || n != 1 + 2 * (size_t)k->curve->flen || ((const uint8_t *)d)[0] != 4)
			return 0;
		rind_clear_free(k->priv, k->privlen);
		k->priv = NULL;
		k->has_priv = 0;
		return rk_set_pub_der(k, d, n) == 0;
	default:
		return 0;
	}
}

static const OSSL_PARAM km_settable_list[] = {
	{ OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM *km_settable(void *provctx) { (void)provctx; return km_settable_list; }

static void *km_load(const void *reference, size_t reference_sz)
{
	struct rkey *k;

	if (reference_sz != RK_REF_SIZE)
		return NULL;
	/* The decoder's (or store's) key, handed over: its pointer is cleared. */
	k = *(struct rkey **)reference;
	*(struct rkey **)reference = NULL;
	return k;
}

static void *km_dup(const void *vk, int selection)
{
	(void)selection;
	return rk_dup(vk);
}

static int km_validate(const void *vk, int selection, int checktype)
{
	(void)checktype;
	/* rind checked the key when it took it (points on the curve, RSA policy). */
	return km_has(vk, selection);
}

/* ---- generation ---- */

struct genctx {
	void *provctx;
	enum rk_type type;
	int selection;
	const struct rk_curve *curve;
	unsigned int bits;
	uint8_t seed[32];	/* ML-DSA: key generation from this seed */
	int has_seed;
};

static void *gen_init(void *provctx, enum rk_type type, int selection, const OSSL_PARAM params[]);

static int gen_set_params(void *vg, const OSSL_PARAM params[])
{
	struct genctx *g = vg;
	const OSSL_PARAM *p;
	const char *s;

	if ((p = rp_locate_c(params, OSSL_PKEY_PARAM_GROUP_NAME))) {
		if (!rp_get_utf8(p, &s))
			return 0;
		/* libssl names the group for X25519 too */
		if (g->type == RK_EC ? !(g->curve = rk_curve_by_name(s)) : strcasecmp(s, rk_type_name[g->type]))
			return 0;
	}
	/* EC keys are named curves, points uncompressed (node sets both) */
	if ((p = rp_locate_c(params, OSSL_PKEY_PARAM_EC_ENCODING))) {
		if (!rp_get_utf8(p, &s) || strcasecmp(s, OSSL_PKEY_EC_ENCODING_GROUP))
			return 0;
	}
	if ((p = rp_locate_c(params, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT))) {
		if (!rp_get_utf8(p, &s) || strcasecmp(s, OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_UNCOMPRESSED))
			return 0;
	}
	if ((p = rp_locate_c(params, OSSL_PKEY_PARAM_RSA_BITS))) {
		if (!rp_get_uint(p, &g->bits))
			return 0;
	}
	if ((p = rp_locate_c(params, OSSL_PKEY_PARAM_ML_DSA_SEED))) {
		const void *d;
		size_t n;

		if (!RK_IS_MLDSA(g->type) || !rp_get_octets(p, &d, &n) || n != sizeof(g->seed))
			return 0;
		memcpy(g->seed, d, n);
		g->has_seed = 1;
	}
	if ((p = rp_locate_c(params, OSSL_PKEY_PARAM_RSA_E))) {
		uint8_t e[8];

		/* rind generates with e = 65537 */
		if (!rp_get_bn(p, e, sizeof(e)) || memcmp(e, "\0\0\0\0\0\x01\x00\x01", 8))
			return 0;
	}
	return 1;
}

static void *gen_init(void *provctx, enum rk_type type, int selection, const OSSL_PARAM params[])
{
	struct genctx *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->provctx = provctx;
	g->type = type;
	g->selection = selection;
	g->bits = 2048;
	if (!gen_set_params(g, params)) {
		rind_clear_free(g, sizeof(*g));
		return NULL;
	}
	return g;
}

static int gen_set_template(void *vg, void *templ)
{
	struct genctx *g = vg;
	struct rkey *t = templ;

	if (g->type == RK_EC && t && t->curve)
		g->curve = t->curve;
	return 1;
}

static void *gen(void *vg, OSSL_CALLBACK *cb, void *cbarg)
{
	struct genctx *g = vg;
	struct rkey *k = rk_new(g->provctx, g->type);
	int err = 0;

	(void)cb; (void)cbarg;
	if (!k)
		return NULL;
	k->curve = g->curve;
	if (g->type == RK_EC && !k->curve)
		goto fail;
	if (!(g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR))
		return k;	/* parameters only (the group) */
	if (g->type == RK_X25519) {
		uint8_t s[32];

		err = rind_curve25519_generate_secret(s);
		if (!err)
			err = x25519_set(k, s, NULL);
		rind_memzero_explicit(s, sizeof(s));
	} else {
		struct crypto_sig *t = alloc_base(k);

		if (!t)
			goto fail;
		if (g->type == RK_RSA)
			err = crypto_sig_set_keygen_bits(t, g->bits);
		if (!err)
			/* FIPS 204 ML-DSA.KeyGen_internal from a given seed */
			err = g->has_seed ? crypto_sig_set_privkey(t, g->seed, sizeof(g->seed))
					  : crypto_sig_generate_key(t);
		if (!err)
			err = from_sig_tfm(k, t, 1);
		crypto_free_sig(t);
	}
	if (err)
		goto fail;
	RTRACE("keygen %s%s%s", rk_type_name[k->type], k->curve ? " " : "", k->curve ? k->curve->tls_name : "");
	return k;
fail:
	rind_raise(g->provctx, RIND_R_FAIL, "rind keygen %s failed (%d)", rk_type_name[g->type], err);
	rk_free(k);
	return NULL;
}

static void gen_cleanup(void *vg)
{
	rind_clear_free(vg, sizeof(struct genctx));
}

static const OSSL_PARAM gen_settable_list[] = {
	{ OSSL_PKEY_PARAM_GROUP_NAME, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_EC_ENCODING, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_RSA_BITS, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(unsigned int), 0 },
	{ OSSL_PKEY_PARAM_RSA_E, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_ML_DSA_SEED, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM *gen_settable(void *g, void *p) { (void)g; (void)p; return gen_settable_list; }

static const char *qname(enum rk_type t, int op)
{
	switch (t) {
	case RK_EC: return op == OSSL_OP_KEYEXCH ? "ECDH" : "ECDSA";
	case RK_RSA: return "RSA";
	default: return rk_type_name[t];
	}
}

#define KEYMGMT(sym, T, types)							\
static void *sym##_new(void *provctx) { return km_new(provctx, T); }		\
static void *sym##_gen_init(void *provctx, int sel, const OSSL_PARAM p[])	\
	{ return gen_init(provctx, T, sel, p); }				\
static const OSSL_PARAM *sym##_types(int sel) { (void)sel; return types; }	\
static const char *sym##_qname(int op) { return qname(T, op); }		\
static const OSSL_DISPATCH sym##_keymgmt_fns[] = {				\
	{ OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))sym##_new },			\
	{ OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))km_free },			\
	{ OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))km_dup },			\
	{ OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))km_load },			\
	{ OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))km_has },			\
	{ OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))km_match },			\
	{ OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))km_validate },		\
	{ OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))km_import },		\
	{ OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))sym##_types },	\
	{ OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))km_export },		\
	{ OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))sym##_types },	\
	{ OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))km_get_params },	\
	{ OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))km_gettable },	\
	{ OSSL_FUNC_KEYMGMT_SET_PARAMS, (void (*)(void))km_set_params },	\
	{ OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, (void (*)(void))km_settable },	\
	{ OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))sym##_gen_init },		\
	{ OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))gen_set_params },	\
	{ OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))gen_settable },\
	{ OSSL_FUNC_KEYMGMT_GEN_SET_TEMPLATE, (void (*)(void))gen_set_template },\
	{ OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))gen },				\
	{ OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))gen_cleanup },		\
	{ OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, (void (*)(void))sym##_qname },\
	{ 0, NULL }								\
};

KEYMGMT(ed25519, RK_ED25519, ecx_ptypes)
KEYMGMT(x25519, RK_X25519, ecx_ptypes)
KEYMGMT(ec, RK_EC, ec_ptypes)
KEYMGMT(rsa, RK_RSA, rsa_ptypes)
KEYMGMT(mldsa44, RK_MLDSA44, mldsa_ptypes)
KEYMGMT(mldsa65, RK_MLDSA65, mldsa_ptypes)
KEYMGMT(mldsa87, RK_MLDSA87, mldsa_ptypes)

extern const OSSL_DISPATCH rind_xmlkem_km_fns[], rind_mlkem768_km_fns[], rind_mlkem1024_km_fns[];

const OSSL_ALGORITHM rind_keymgmts[] = {
	{ "ED25519:1.3.101.112", RIND_PROPS, ed25519_keymgmt_fns, "Ed25519 keys (rind)" },
	{ "X25519:1.3.101.110", RIND_PROPS, x25519_keymgmt_fns, "X25519 keys (rind)" },
	{ "EC:id-ecPublicKey:1.2.840.10045.2.1", RIND_PROPS, ec_keymgmt_fns, "EC P-256/384/521 keys (rind)" },
	{ "RSA:rsaEncryption:1.2.840.113549.1.1.1", RIND_PROPS, rsa_keymgmt_fns, "RSA keys (rind)" },
	/*
	 * libssl enables the rsa_pss_rsae_* signature algorithms only if an
	 * RSA-PSS key management exists: the RSA one serves (rind's PSS keys
	 * are rsaEncryption keys; id-RSASSA-PSS key encodings are not read).
	 */
	{ "RSA-PSS:RSASSA-PSS:1.2.840.113549.1.1.10", RIND_PROPS, rsa_keymgmt_fns, "RSA keys for PSS (rind)" },
	{ RK_MLDSA44_NAMES, RIND_PROPS, mldsa44_keymgmt_fns, "ML-DSA-44 keys (rind)" },
	{ RK_MLDSA65_NAMES, RIND_PROPS, mldsa65_keymgmt_fns, "ML-DSA-65 keys (rind)" },
	{ RK_MLDSA87_NAMES, RIND_PROPS, mldsa87_keymgmt_fns, "ML-DSA-87 keys (rind)" },
	{ "X25519MLKEM768", RIND_PROPS, rind_xmlkem_km_fns, "X25519MLKEM768 keys (rind, kem.c)" },
	{ "ML-KEM-768:MLKEM768", RIND_PROPS, rind_mlkem768_km_fns, "ML-KEM-768 keys (rind, kem.c)" },
	{ "ML-KEM-1024:MLKEM1024", RIND_PROPS, rind_mlkem1024_km_fns, "ML-KEM-1024 keys (rind, kem.c)" },
	{ NULL, NULL, NULL, NULL }
};
