// SPDX-License-Identifier: MIT
/*
 * Signatures: Ed25519, ECDSA (P-256/384/521, X9.62 DER signatures), RSA
 * PKCS#1 v1.5 and PSS, and ML-DSA-44/65/87 (FIPS 204 pure ML-DSA, with
 * its context string), as message signing only (EVP_DigestSign /
 * EVP_DigestVerify, what libssl and X.509 use): rind hashes the message
 * itself with the hash the algorithm names, so the message is collected
 * here and signed at final.  Signing a caller's digest (EVP_PKEY_sign) is
 * not offered, nor SHA-1 in any signature, nor PSS salts other than the
 * hash length, nor HashML-DSA or an external mu (both sign a caller's
 * digest).  A key held by rindd (store.c, remote.c) signs there.
 *
 * ML-DSA's options are OpenSSL 3.5's parameters: "context-string" (at
 * most 255 bytes), "deterministic" (FIPS 204's deterministic variant,
 * for known answers) and "test-entropy" (accepted only as 32 zero
 * bytes, which is the deterministic variant: rind takes no caller's
 * randomness).  The keyed tfms a key caches are shared by threads and
 * keep rind's defaults (empty context, hedged), so a context or the
 * deterministic variant gets a tfm of its own for the operation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "key.h"

#define PAD_PKCS1 1
#define PAD_PSS 6

int rind_remote_sign(struct rkey *k, const char *alg, const uint8_t *msg, size_t len,
		     uint8_t *sig, size_t sigsize, size_t *siglen);

struct sctx {
	void *provctx;
	struct rkey *k;
	int sign;
	const struct rind_md *md;
	int pad;
	int saltlen_ok;		/* salt = hash length (the only one rind signs with) */
	uint8_t *msg;
	size_t len, cap;
	char alg[64];
	uint8_t ctxstr[255];	/* ML-DSA context string */
	size_t ctxlen;
	int deterministic;
};

static void *snew(void *provctx, const char *propq)
{
	struct sctx *c = calloc(1, sizeof(*c));

	(void)propq;
	if (c) {
		c->provctx = provctx;
		c->pad = PAD_PKCS1;
		c->saltlen_ok = 1;
	}
	return c;
}

static void sfree(void *vc)
{
	struct sctx *c = vc;

	if (!c)
		return;
	rind_clear_free(c->msg, c->cap);
	free(c);
}

static void *sdup(void *vc)
{
	struct sctx *c = vc, *d = malloc(sizeof(*d));

	if (!d)
		return NULL;
	*d = *c;
	d->msg = NULL;
	d->cap = 0;
	if (c->len) {
		d->msg = malloc(c->len);
		if (!d->msg) {
			free(d);
			return NULL;
		}
		memcpy(d->msg, c->msg, c->len);
		d->cap = c->len;
	}
	return d;
}

/* The registry name for this key, hash and padding; NULL when rind has none. */
static const char *alg_name(struct sctx *c)
{
	const struct rind_md *md = c->md ? c->md : rind_md_by_name("sha256");

	switch (c->k->type) {
	case RK_ED25519:
		if (c->md)
			return NULL;
		return "ed25519";
	case RK_MLDSA44: case RK_MLDSA65: case RK_MLDSA87:
		return c->md ? NULL : RK_MLDSA(c->k->type)->rind;
	case RK_EC:
		if (!md->sig_ok || !c->k->curve)
			return NULL;
		snprintf(c->alg, sizeof(c->alg), "x962(%s,%s)", c->k->curve->ecdsa, md->rind);
		return c->alg;
	case RK_RSA:
		if (!md->sig_ok || !strcmp(md->rind, "sha224"))
			return NULL;
		if (c->pad == PAD_PSS && !c->saltlen_ok)
			return NULL;
		snprintf(c->alg, sizeof(c->alg), "%s(rsa,%s)", c->pad == PAD_PSS ? "pss" : "pkcs1", md->rind);
		return c->alg;
	default:
		return NULL;
	}
}

static int set_md(struct sctx *c, const char *mdname)
{
	if (!mdname || !*mdname || !strcasecmp(mdname, "UNDEF")) {
		c->md = NULL;
		return 1;
	}
	c->md = rind_md_by_name(mdname);
	/* Ed25519 and ML-DSA hash inside (a digest here would be HashML-DSA) */
	if (!c->md || !c->md->sig_ok || c->k->type == RK_ED25519 || RK_IS_MLDSA(c->k->type)) {
		rind_raise(c->provctx, RIND_R_FAIL, "rind signs with %s: no %s", rk_type_name[c->k->type], mdname);
		return 0;
	}
	return 1;
}

static int sset(void *vc, const OSSL_PARAM params[]);

static int sinit(void *vc, const char *mdname, void *key, const OSSL_PARAM params[], int sign)
{
	struct sctx *c = vc;

	if (key)
		c->k = key;
	if (!c->k)
		return 0;
	if (sign && !c->k->has_priv && !c->k->remote) {
		rind_raise(c->provctx, RIND_R_FAIL, "no private key");
		return 0;
	}
	c->sign = sign;
	c->len = 0;
	c->ctxlen = 0;
	c->deterministic = 0;
	if (!set_md(c, mdname) || !sset(c, params))
		return 0;
	return 1;
}

static int sign_init(void *c, const char *md, void *k, const OSSL_PARAM p[]) { return sinit(c, md, k, p, 1); }
static int verify_init(void *c, const char *md, void *k, const OSSL_PARAM p[]) { return sinit(c, md, k, p, 0); }

static int supdate(void *vc, const unsigned char *data, size_t len)
{
	struct sctx *c = vc;

	if (c->len + len > c->cap) {
		size_t cap = (c->len + len) * 2 + 256;
		uint8_t *p = malloc(cap);

		if (!p)
			return 0;
		if (c->len)
			memcpy(p, c->msg, c->len);
		rind_clear_free(c->msg, c->cap);
		c->msg = p;
		c->cap = cap;
	}
	if (len)
		memcpy(c->msg + c->len, data, len);
	c->len += len;
	return 1;
}

/* ML-DSA with a context string or deterministic: a tfm for this operation. */
static int own_tfm(const struct sctx *c)
{
	return RK_IS_MLDSA(c->k->type) && (c->ctxlen || c->deterministic);
}

static struct crypto_sig *op_tfm(struct sctx *c, const char *alg, int priv)
{
	struct crypto_sig *t;
	int err;

	if (!own_tfm(c))
		return rk_sig(c->k, alg, priv);
	t = crypto_alloc_sig(alg, 0, 0);
	if (IS_ERR(t))
		return NULL;
	if (priv)
		err = c->k->priv ? crypto_sig_set_privkey(t, c->k->priv, (unsigned int)c->k->privlen) : -ENOKEY;
	else
		err = crypto_sig_set_pubkey(t, c->k->pub, (unsigned int)c->k->publen);
	if (!err)
		err = rind_sig_set_context(t, c->ctxstr, (unsigned int)c->ctxlen);
	if (!err && c->deterministic)
		err = rind_sig_set_deterministic(t, true);
	if (err) {
		crypto_free_sig(t);
		return NULL;
	}
	return t;
}

static void op_tfm_done(struct sctx *c, struct crypto_sig *t)
{
	if (own_tfm(c))
		crypto_free_sig(t);
}

static int do_sign(struct sctx *c, const uint8_t *msg, size_t len, unsigned char *sig, size_t *siglen, size_t sigsize)
{
	const char *alg = alg_name(c);
	struct crypto_sig *t;
	int n;

	if (!alg) {
		rind_raise(c->provctx, RIND_R_FAIL, "signature outside rind's policy");
		return 0;
	}
	if (!sig) {
		*siglen = rk_max_sig(c->k);
		return 1;
	}
	if (len > 0xffffffffu)
		return 0;
	if (c->k->remote) {
		/* rindd signs hedged with an empty context: nothing else is asked of it */
		if (own_tfm(c)) {
			rind_raise(c->provctx, RIND_R_FAIL, "rindd signs ML-DSA without a context string, hedged");
			return 0;
		}
		return rind_remote_sign(c->k, alg, msg, len, sig, sigsize, siglen);
	}
	t = op_tfm(c, alg, 1);
	if (!t)
		return 0;
	n = crypto_sig_sign(t, msg, (unsigned int)len, sig, sigsize > 0xffffffffu ? 0xffffffffu : (unsigned int)sigsize);
	RTRACE("sign %s (%s)%s%s %s", alg, crypto_sig_driver_name(t), c->ctxlen ? " context" : "",
	       c->deterministic && own_tfm(c) ? " deterministic" : "", n > 0 ? "ok" : "failed");
	op_tfm_done(c, t);
	if (n <= 0)
		return 0;
	*siglen = (size_t)n;
	return 1;
}

static int do_verify(struct sctx *c, const uint8_t *msg, size_t len, const unsigned char *sig, size_t siglen)
{
	const char *alg = alg_name(c);
	struct crypto_sig *t;
	int err;

	if (!alg || len > 0xffffffffu || siglen > 0xffffffffu) {
		rind_raise(c->provctx, RIND_R_FAIL, "signature outside rind's policy");
		return 0;
	}
	t = op_tfm(c, alg, 0);
	if (!t)
		return 0;
	err = crypto_sig_verify(t, sig, (unsigned int)siglen, msg, (unsigned int)len);
	RTRACE("verify %s (%s)%s %s", alg, crypto_sig_driver_name(t), c->ctxlen ? " context" : "", err ? "bad" : "good");
	op_tfm_done(c, t);
	return err == 0;
}

static int sign_final(void *vc, unsigned char *sig, size_t *siglen, size_t sigsize)
{
	struct sctx *c = vc;

	return do_sign(c, c->msg, c->len, sig, siglen, sigsize);
}

static int verify_final(void *vc, const unsigned char *sig, size_t siglen)
{
	struct sctx *c = vc;

	return do_verify(c, c->msg, c->len, sig, siglen);
}

static int sign_oneshot(void *vc, unsigned char *sig, size_t *siglen, size_t sigsize,
			const unsigned char *tbs, size_t tbslen)
{
	return do_sign(vc, tbs, tbslen, sig, siglen, sigsize);
}

static int verify_oneshot(void *vc, const unsigned char *sig, size_t siglen,
			  const unsigned char *tbs, size_t tbslen)
{
	return do_verify(vc, tbs, tbslen, sig, siglen);
}

static int sset(void *vc, const OSSL_PARAM params[])
{
	struct sctx *c = vc;
	const OSSL_PARAM *p;
	const char *s;
	int v;

	if (!params)
		return 1;
	if ((p = rp_locate_c(params, OSSL_SIGNATURE_PARAM_DIGEST))) {
		if (!rp_get_utf8(p, &s) || !set_md(c, s))
			return 0;
	}
	if ((p = rp_locate_c(params, OSSL_SIGNATURE_PARAM_CONTEXT_STRING))) {
		const void *d;
		size_t n;

		if ((c->k && !RK_IS_MLDSA(c->k->type)) || !rp_get_octets(p, &d, &n) || n > sizeof(c->ctxstr)) {
			rind_raise(c->provctx, RIND_R_FAIL, "context string: ML-DSA only, at most 255 bytes");
			return 0;
		}
		memcpy(c->ctxstr, d, n);
		c->ctxlen = n;
	}
	if ((p = rp_locate_c(params, OSSL_SIGNATURE_PARAM_DETERMINISTIC))) {
		if ((c->k && !RK_IS_MLDSA(c->k->type)) || !rp_get_int(p, &v))
			return 0;
		c->deterministic = v != 0;
	}
	if ((p = rp_locate_c(params, OSSL_SIGNATURE_PARAM_TEST_ENTROPY))) {
		static const uint8_t zero[32];
		const void *d;
		size_t n;

		/* rnd = 0^32 is FIPS 204's deterministic variant; other rnd is not taken */
		if ((c->k && !RK_IS_MLDSA(c->k->type)) || !rp_get_octets(p, &d, &n)) {
			return 0;
		}
		if (n != 32 || memcmp(d, zero, 32)) {
			rind_raise(c->provctx, RIND_R_FAIL, "rind takes no caller's signing randomness (test-entropy: 32 zero bytes only)");
			return 0;
		}
		c->deterministic = 1;
	}
	if ((p = rp_locate_c(params, OSSL_SIGNATURE_PARAM_MU))) {
		/* an external mu is a caller's digest: refused as every pre-hash */
		if (!rp_get_int(p, &v) || v) {
			rind_raise(c->provctx, RIND_R_FAIL, "rind signs messages, not a caller's mu");
			return 0;
		}
	}
	if ((p = rp_locate_c(params, OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING))) {
		/* 1: FIPS 204's M' = 0 || len(ctx) || ctx || M; 0 (raw M') is not offered */
		if (!rp_get_int(p, &v) || v != 1)
			return 0;
	}
	if ((p = rp_locate_c(params, OSSL_SIGNATURE_PARAM_PAD_MODE))) {
		if (c->k && c->k->type != RK_RSA)
			return 0;
		if (p->data_type == OSSL_PARAM_UTF8_STRING) {
			if (!rp_get_utf8(p, &s))
				return 0;
			if (!strcasecmp(s, "pkcs1"))
				v = PAD_PKCS1;
			else if (!strcasecmp(s, "pss"))
				v = PAD_PSS;
			else
				return 0;
		} else if (!rp_get_int(p, &v) || (v != PAD_PKCS1 && v != PAD_PSS)) {
			return 0;
		}
		c->pad = v;
	}
	if ((p = rp_locate_c(params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN))) {
		/* "digest" (-1), or "auto" (-2) when verifying: rind's salt is the hash length */
		if (p->data_type == OSSL_PARAM_UTF8_STRING) {
			if (!rp_get_utf8(p, &s))
				return 0;
			c->saltlen_ok = !strcasecmp(s, "digest") || (!c->sign && !strcasecmp(s, "auto"));
			if (!c->saltlen_ok) {
				char *end;
				long n = strtol(s, &end, 10);

				c->saltlen_ok = !*end && c->md && n == (long)c->md->size;
			}
		} else if (rp_get_int(p, &v)) {
			c->saltlen_ok = v == -1 || (!c->sign && v == -2)
				|| (v > 0 && (unsigned int)v == (c->md ? c->md->size : 32));
		} else {
			return 0;
		}
		if (!c->saltlen_ok)
			rind_raise(c->provctx, RIND_R_FAIL, "rind's PSS salt is the hash length");
	}
	if ((p = rp_locate_c(params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST))) {
		const struct rind_md *m;

		if (!rp_get_utf8(p, &s) || !(m = rind_md_by_name(s)))
			return 0;
		/* MGF1 with the message hash only */
		if (c->md ? m != c->md : strcmp(m->rind, "sha256"))
			return 0;
	}
	return 1;
}

/*
 * The signature's AlgorithmIdentifier (DER), which X.509 signing asks the
 * provider for: RFC 8410 (Ed25519), RFC 5758 (ECDSA), RFC 8017 (RSA).
 */
static size_t algorithm_id(struct sctx *c, uint8_t *out)
{
	static const uint8_t ed[] = { 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70 };
	static const uint8_t ecdsa[] = { 0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03 };
	static const uint8_t rsa[] = { 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01 };
	static const uint8_t nist_hash[] = { 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02 };
	static const uint8_t mldsa[] = { 0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03 };
	static const uint8_t mgf1[] = { 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x08 };
	const struct rind_md *md = c->md ? c->md : rind_md_by_name("sha256");
	const char *h = md->rind;
	uint8_t hx = !strcmp(h, "sha224") ? 4 : !strcmp(h, "sha256") ? 1 : !strcmp(h, "sha384") ? 2 : !strcmp(h, "sha512") ? 3 : 0;
	size_t n = 0;

	if (!alg_name(c))
		return 0;
	switch (c->k->type) {
	case RK_ED25519:
		memcpy(out, ed, sizeof(ed));
		return sizeof(ed);
	case RK_MLDSA44: case RK_MLDSA65: case RK_MLDSA87:
		/* id-ml-dsa-*: 2.16.840.1.101.3.4.3.17-19, parameters absent */
		memcpy(out, mldsa, sizeof(mldsa));
		out[sizeof(mldsa)] = RK_MLDSA(c->k->type)->oid_arc;
		return sizeof(mldsa) + 1;
	case RK_EC:
		/* ecdsa-with-SHA224/256/384/512: 1.2.840.10045.4.3.1-4 */
		memcpy(out, ecdsa, sizeof(ecdsa));
		out[sizeof(ecdsa)] = hx == 4 ? 1 : hx + 1;
		return sizeof(ecdsa) + 1;
	case RK_RSA:
		if (!hx || hx == 4)
			return 0;
		if (c->pad == PAD_PKCS1) {
			/* sha256/384/512WithRSAEncryption: 1.2.840.113549.1.1.11-13, NULL parameters */
			memcpy(out, rsa, sizeof(rsa));
			n = sizeof(rsa);
			out[n++] = (uint8_t)(10 + hx);
			out[n++] = 0x05;
			out[n++] = 0x00;
			out[1] = (uint8_t)(n - 2);
			return n;
		}
		/* id-RSASSA-PSS with RSASSA-PSS-params { hash, MGF1(hash), salt = hash length } */
		{
			uint8_t hid[2 + sizeof(nist_hash) + 1];
			size_t hl = 0, p;

			hid[hl++] = 0x30;
			hid[hl++] = (uint8_t)(sizeof(nist_hash) + 1);
			memcpy(hid + hl, nist_hash, sizeof(nist_hash));
			hl += sizeof(nist_hash);
			hid[hl++] = hx;
			out[n++] = 0x30;
			out[n++] = 0;			/* outer length, below */
			memcpy(out + n, rsa + 2, sizeof(rsa) - 2);
			n += sizeof(rsa) - 2;
			out[n++] = 10;			/* 1.2.840.113549.1.1.10 */
			out[n++] = 0x30;
			p = n++;			/* params length */
			out[n++] = 0xa0;
			out[n++] = (uint8_t)hl;
			memcpy(out + n, hid, hl);
			n += hl;
			out[n++] = 0xa1;
			out[n++] = (uint8_t)(2 + sizeof(mgf1) + hl);
			out[n++] = 0x30;
			out[n++] = (uint8_t)(sizeof(mgf1) + hl);
			memcpy(out + n, mgf1, sizeof(mgf1));
			n += sizeof(mgf1);
			memcpy(out + n, hid, hl);
			n += hl;
			out[n++] = 0xa2;
			out[n++] = 0x03;
			out[n++] = 0x02;
			out[n++] = 0x01;
			out[n++] = (uint8_t)md->size;
			out[p] = (uint8_t)(n - p - 1);
			out[1] = (uint8_t)(n - 2);
			return n;
		}
	default:
		return 0;
	}
}

static int sget(void *vc, OSSL_PARAM params[])
{
	struct sctx *c = vc;
	const struct rind_md *md = c->md ? c->md : rind_md_by_name("sha256");
	OSSL_PARAM *p;
	const char *name = md->names;
	char buf[32];
	size_t i;

	/* OpenSSL's first name for the digest ("SHA2-256") */
	for (i = 0; name[i] && name[i] != ':' && i < sizeof(buf) - 1; i++)
		buf[i] = name[i];
	buf[i] = 0;
	if (c->k && c->k->type != RK_ED25519 && !RK_IS_MLDSA(c->k->type)
	    && !rp_put_utf8(params, OSSL_SIGNATURE_PARAM_DIGEST, buf))
		return 0;
	if ((p = rp_locate(params, OSSL_SIGNATURE_PARAM_PAD_MODE))) {
		if (p->data_type == OSSL_PARAM_UTF8_STRING) {
			if (!rp_set_utf8(p, c->pad == PAD_PSS ? "pss" : "pkcs1"))
				return 0;
		} else if (!rp_set_int(p, c->pad)) {
			return 0;
		}
	}
	if ((p = rp_locate(params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN))) {
		if (p->data_type == OSSL_PARAM_UTF8_STRING) {
			if (!rp_set_utf8(p, "digest"))
				return 0;
		} else if (!rp_set_int(p, (int)md->size)) {
			return 0;
		}
	}
	if (!rp_put_utf8(params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST, buf))
		return 0;
	if ((p = rp_locate(params, OSSL_SIGNATURE_PARAM_ALGORITHM_ID)) && c->k) {
		uint8_t aid[128];
		size_t n = algorithm_id(c, aid);

		if (!n || !rp_set_octets(p, aid, n))
			return 0;
	}
	return 1;
}

static const OSSL_PARAM s_settable_list[] = {
	{ OSSL_SIGNATURE_PARAM_DIGEST, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_SIGNATURE_PARAM_PROPERTIES, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_SIGNATURE_PARAM_PAD_MODE, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_SIGNATURE_PARAM_PSS_SALTLEN, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_SIGNATURE_PARAM_MGF1_DIGEST, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_SIGNATURE_PARAM_CONTEXT_STRING, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_SIGNATURE_PARAM_DETERMINISTIC, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ OSSL_SIGNATURE_PARAM_TEST_ENTROPY, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_SIGNATURE_PARAM_MU, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM s_gettable_list[] = {
	{ OSSL_SIGNATURE_PARAM_ALGORITHM_ID, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_SIGNATURE_PARAM_DIGEST, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_SIGNATURE_PARAM_PAD_MODE, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_SIGNATURE_PARAM_PSS_SALTLEN, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_SIGNATURE_PARAM_MGF1_DIGEST, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM *ssettable(void *c, void *p) { (void)c; (void)p; return s_settable_list; }
static const OSSL_PARAM *sgettable(void *c, void *p) { (void)c; (void)p; return s_gettable_list; }

static const OSSL_DISPATCH sig_fns[] = {
	{ OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))snew },
	{ OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))sfree },
	{ OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))sdup },
	{ OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (void (*)(void))sign_init },
	{ OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, (void (*)(void))supdate },
	{ OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, (void (*)(void))sign_final },
	{ OSSL_FUNC_SIGNATURE_DIGEST_SIGN, (void (*)(void))sign_oneshot },
	{ OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, (void (*)(void))verify_init },
	{ OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE, (void (*)(void))supdate },
	{ OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL, (void (*)(void))verify_final },
	{ OSSL_FUNC_SIGNATURE_DIGEST_VERIFY, (void (*)(void))verify_oneshot },
	{ OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, (void (*)(void))sset },
	{ OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, (void (*)(void))ssettable },
	{ OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, (void (*)(void))sget },
	{ OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, (void (*)(void))sgettable },
	{ 0, NULL }
};

const OSSL_ALGORITHM rind_signatures[] = {
	{ "ED25519:1.3.101.112", RIND_PROPS, sig_fns, "Ed25519 (rind)" },
	{ "ECDSA", RIND_PROPS, sig_fns, "ECDSA P-256/384/521 (rind)" },
	{ "RSA:rsaEncryption:1.2.840.113549.1.1.1", RIND_PROPS, sig_fns, "RSA PKCS#1 v1.5 and PSS (rind)" },
	{ RK_MLDSA44_NAMES, RIND_PROPS, sig_fns, "ML-DSA-44, FIPS 204 (rind)" },
	{ RK_MLDSA65_NAMES, RIND_PROPS, sig_fns, "ML-DSA-65, FIPS 204 (rind)" },
	{ RK_MLDSA87_NAMES, RIND_PROPS, sig_fns, "ML-DSA-87, FIPS 204 (rind)" },
	{ NULL, NULL, NULL, NULL }
};
