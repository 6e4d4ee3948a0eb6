// SPDX-License-Identifier: MIT
/*
 * Asymmetric cipher: RSA-OAEP with SHA-256/384/512 (MGF1 with the same
 * hash, no label), over oaep(rsa,sha*).  RSAES-PKCS1-v1_5 is not offered
 * (the default padding mode: set rsa_padding_mode:oaep), nor OAEP with
 * SHA-1 (OpenSSL's default OAEP digest: set rsa_oaep_md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "key.h"

#define PAD_PKCS1 1
#define PAD_OAEP 4

struct actx {
	void *provctx;
	struct rkey *k;
	int pad;
	const struct rind_md *md, *mgf1;
	int label;
};

static void *anew(void *provctx)
{
	struct actx *c = calloc(1, sizeof(*c));

	if (c) {
		c->provctx = provctx;
		c->pad = PAD_PKCS1;
	}
	return c;
}

static void afree(void *c) { free(c); }

static void *adup(void *vc)
{
	struct actx *d = malloc(sizeof(*d));

	if (d)
		*d = *(struct actx *)vc;
	return d;
}

static int aset(void *vc, const OSSL_PARAM params[]);

static int ainit(void *vc, void *key, const OSSL_PARAM params[])
{
	struct actx *c = vc;

	c->k = key;
	if (!c->k || c->k->type != RK_RSA)
		return 0;
	return aset(c, params);
}

static const char *alg(struct actx *c, char *buf, size_t n)
{
	const struct rind_md *md = c->md ? c->md : rind_md_by_name("sha1");
	const struct rind_md *mgf1 = c->mgf1 ? c->mgf1 : md;

	if (c->pad != PAD_OAEP || c->label || mgf1 != md || !md->sig_ok || !strcmp(md->rind, "sha224")) {
		rind_raise(c->provctx, RIND_R_FAIL, "rind: RSA-OAEP with SHA-256/384/512, MGF1 of the same hash, no label");
		return NULL;
	}
	snprintf(buf, n, "oaep(rsa,%s)", md->rind);
	return buf;
}

static int run(struct actx *c, int enc, unsigned char *out, size_t *outlen, size_t outsize,
	       const unsigned char *in, size_t inlen)
{
	char name[32];
	const char *a = alg(c, name, sizeof(name));
	struct crypto_akcipher *t;
	struct akcipher_request *req;
	struct scatterlist src, dst;
	size_t max = (c->k->rsabits + 7) / 8;
	int err;

	if (!a)
		return 0;
	if (!out) {
		*outlen = max;
		return 1;
	}
	if (inlen > 0xffffffffu || outsize > 0xffffffffu)
		return 0;
	if (!enc && !c->k->has_priv)
		return 0;
	t = rk_akcipher(c->k, a, !enc);
	if (!t)
		return 0;
	req = akcipher_request_alloc(t, GFP_KERNEL);
	if (IS_ERR(req))
		return 0;
	sg_init_one(&src, in, (unsigned int)inlen);
	sg_init_one(&dst, out, (unsigned int)outsize);
	akcipher_request_set_crypt(req, &src, &dst, (unsigned int)inlen, (unsigned int)outsize);
	err = enc ? crypto_akcipher_encrypt(req) : crypto_akcipher_decrypt(req);
	RTRACE("%s %s (%s) %s", enc ? "encrypt" : "decrypt", a, crypto_akcipher_driver_name(t), err ? "failed" : "ok");
	if (!err)
		*outlen = req->dst_len;
	akcipher_request_free(req);
	return err == 0;
}

static int aenc(void *c, unsigned char *out, size_t *outlen, size_t outsize, const unsigned char *in, size_t inlen)
{
	return run(c, 1, out, outlen, outsize, in, inlen);
}

static int adec(void *c, unsigned char *out, size_t *outlen, size_t outsize, const unsigned char *in, size_t inlen)
{
	return run(c, 0, out, outlen, outsize, in, inlen);
}

static int aset(void *vc, const OSSL_PARAM params[])
{
	struct actx *c = vc;
	const OSSL_PARAM *p;
	const char *s;
	const void *d;
	size_t n;

	if ((p = rp_locate_c(params, OSSL_ASYM_CIPHER_PARAM_PAD_MODE))) {
		int v;

		if (p->data_type == OSSL_PARAM_UTF8_STRING) {
			if (!rp_get_utf8(p, &s))
				return 0;
			v = !strcasecmp(s, "oaep") ? PAD_OAEP : !strcasecmp(s, "pkcs1") ? PAD_PKCS1 : -1;
		} else if (!rp_get_int(p, &v)) {
			return 0;
		}
		if (v != PAD_OAEP && v != PAD_PKCS1)
			return 0;
		c->pad = v;
	}
	if ((p = rp_locate_c(params, OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST))) {
		if (!rp_get_utf8(p, &s) || !(c->md = rind_md_by_name(s)))
			return 0;
	}
	if ((p = rp_locate_c(params, OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST))) {
		if (!rp_get_utf8(p, &s) || !(c->mgf1 = rind_md_by_name(s)))
			return 0;
	}
	if ((p = rp_locate_c(params, OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL))) {
		if (!rp_get_octets(p, &d, &n))
			return 0;
		c->label = n != 0;
	}
	return 1;
}

static int aget(void *vc, OSSL_PARAM params[])
{
	struct actx *c = vc;
	OSSL_PARAM *p = rp_locate(params, OSSL_ASYM_CIPHER_PARAM_PAD_MODE);

	if (p) {
		if (p->data_type == OSSL_PARAM_UTF8_STRING ? !rp_set_utf8(p, c->pad == PAD_OAEP ? "oaep" : "pkcs1")
							  : !rp_set_int(p, c->pad))
			return 0;
	}
	return 1;
}

static const OSSL_PARAM a_settable_list[] = {
	{ OSSL_ASYM_CIPHER_PARAM_PAD_MODE, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST_PROPS, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM a_gettable_list[] = {
	{ OSSL_ASYM_CIPHER_PARAM_PAD_MODE, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM *asettable(void *c, void *p) { (void)c; (void)p; return a_settable_list; }
static const OSSL_PARAM *agettable(void *c, void *p) { (void)c; (void)p; return a_gettable_list; }

static const OSSL_DISPATCH oaep_fns[] = {
	{ OSSL_FUNC_ASYM_CIPHER_NEWCTX, (void (*)(void))anew },
	{ OSSL_FUNC_ASYM_CIPHER_ENCRYPT_INIT, (void (*)(void))ainit },
	{ OSSL_FUNC_ASYM_CIPHER_ENCRYPT, (void (*)(void))aenc },
	{ OSSL_FUNC_ASYM_CIPHER_DECRYPT_INIT, (void (*)(void))ainit },
	{ OSSL_FUNC_ASYM_CIPHER_DECRYPT, (void (*)(void))adec },
	{ OSSL_FUNC_ASYM_CIPHER_FREECTX, (void (*)(void))afree },
	{ OSSL_FUNC_ASYM_CIPHER_DUPCTX, (void (*)(void))adup },
	{ OSSL_FUNC_ASYM_CIPHER_SET_CTX_PARAMS, (void (*)(void))aset },
	{ OSSL_FUNC_ASYM_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))asettable },
	{ OSSL_FUNC_ASYM_CIPHER_GET_CTX_PARAMS, (void (*)(void))aget },
	{ OSSL_FUNC_ASYM_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))agettable },
	{ 0, NULL }
};

const OSSL_ALGORITHM rind_asym_ciphers[] = {
	{ "RSA:rsaEncryption:1.2.840.113549.1.1.1", RIND_PROPS, oaep_fns, "RSA-OAEP (rind)" },
	{ NULL, NULL, NULL, NULL }
};
