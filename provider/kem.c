// SPDX-License-Identifier: MIT
/*
 * KEMs: X25519MLKEM768 (the TLS 1.3 hybrid group), ML-KEM-768 and
 * ML-KEM-1024, each with its own key management: generation, the
 * encoded public key (the TLS key share) in and out, and
 * encapsulate/decapsulate over the registry's crypto_kem.  The key
 * object holds a keyed tfm (thread-shareable for operations).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "prov.h"

struct kkey {
	void *provctx;
	const char *alg, *oname;
	struct crypto_kem *tfm;
	int has_pub, has_priv;
	uint8_t *pub;
	size_t publen;
};

static struct kkey *kk_new(void *provctx, const char *alg, const char *oname)
{
	struct kkey *k = calloc(1, sizeof(*k));
	struct crypto_kem *t;

	if (!k)
		return NULL;
	t = crypto_alloc_kem(alg, 0, 0);
	if (IS_ERR(t)) {
		free(k);
		return NULL;
	}
	k->provctx = provctx;
	k->alg = alg;
	k->oname = oname;
	k->tfm = t;
	return k;
}

static void kk_free(void *vk)
{
	struct kkey *k = vk;

	if (!k)
		return;
	crypto_free_kem(k->tfm);
	free(k->pub);
	free(k);
}

static int kk_take_pub(struct kkey *k)
{
	unsigned int n = crypto_kem_pubkeysize(k->tfm);
	uint8_t *p = malloc(n);
	int r;

	if (!p)
		return 0;
	r = crypto_kem_export_pubkey(k->tfm, RIND_KEY_RAW, p, n);
	if (r != (int)n) {
		free(p);
		return 0;
	}
	free(k->pub);
	k->pub = p;
	k->publen = n;
	k->has_pub = 1;
	return 1;
}

static int kk_has(const void *vk, int sel)
{
	const struct kkey *k = vk;

	if ((sel & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && !k->has_priv)
		return 0;
	if ((sel & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) && !k->has_pub)
		return 0;
	return 1;
}

static int kk_match(const void *va, const void *vb, int sel)
{
	const struct kkey *a = va, *b = vb;

	(void)sel;
	return a->alg == b->alg && a->publen == b->publen && a->pub && !memcmp(a->pub, b->pub, a->publen);
}

static int kk_get_params(void *vk, OSSL_PARAM params[])
{
	struct kkey *k = vk;
	unsigned int bits = strstr(k->alg, "1024") ? 256 : 192;

	if (!rp_put_int(params, OSSL_PKEY_PARAM_BITS, (int)(crypto_kem_pubkeysize(k->tfm) * 8))
	    || !rp_put_int(params, OSSL_PKEY_PARAM_SECURITY_BITS, (int)bits)
	    || !rp_put_int(params, OSSL_PKEY_PARAM_MAX_SIZE, (int)crypto_kem_ciphertextsize(k->tfm)))
		return 0;
	if (k->has_pub && (!rp_put_octets(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, k->pub, k->publen)
			   || !rp_put_octets(params, OSSL_PKEY_PARAM_PUB_KEY, k->pub, k->publen)))
		return 0;
	return 1;
}

static int kk_set_params(void *vk, const OSSL_PARAM params[])
{
	struct kkey *k = vk;
	const OSSL_PARAM *p = rp_locate_c(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
	const void *d;
	size_t n;

	if (!p)
		return 1;
	/* The peer's key share: a public key alone. */
	if (!rp_get_octets(p, &d, &n) || n != crypto_kem_pubkeysize(k->tfm)
	    || crypto_kem_set_pubkey(k->tfm, d, (unsigned int)n))
		return 0;
	k->has_priv = 0;
	return kk_take_pub(k);
}

static const OSSL_PARAM kk_gettable_list[] = {
	{ OSSL_PKEY_PARAM_BITS, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ OSSL_PKEY_PARAM_SECURITY_BITS, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ OSSL_PKEY_PARAM_MAX_SIZE, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_PKEY_PARAM_PUB_KEY, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM kk_settable_list[] = {
	{ OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM kk_types[] = {
	{ OSSL_PKEY_PARAM_PUB_KEY, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM *kk_gettable(void *p) { (void)p; return kk_gettable_list; }
static const OSSL_PARAM *kk_settable(void *p) { (void)p; return kk_settable_list; }
static const OSSL_PARAM *kk_ptypes(int sel) { (void)sel; return kk_types; }

static int kk_import(void *vk, int sel, const OSSL_PARAM params[])
{
	struct kkey *k = vk;
	const OSSL_PARAM *p = rp_locate_c(params, OSSL_PKEY_PARAM_PUB_KEY);
	const void *d;
	size_t n;

	if (!(sel & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) || !p || !rp_get_octets(p, &d, &n)
	    || crypto_kem_set_pubkey(k->tfm, d, (unsigned int)n))
		return 0;
	return kk_take_pub(k);
}

static int kk_export(void *vk, int sel, OSSL_CALLBACK *cb, void *arg)
{
	struct kkey *k = vk;
	OSSL_PARAM p[] = {
		{ OSSL_PKEY_PARAM_PUB_KEY, OSSL_PARAM_OCTET_STRING, k->pub, k->publen, 0 },
		{ NULL, 0, NULL, 0, 0 }
	};

	/* The public key only: the private key stays in its tfm. */
	if (!(sel & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) || !k->has_pub)
		return 0;
	return cb(p, arg);
}

struct kgen {
	void *provctx;
	const char *alg, *oname;
	int sel;
};

static int kgen_set(void *vg, const OSSL_PARAM params[])
{
	struct kgen *g = vg;
	const OSSL_PARAM *p = rp_locate_c(params, OSSL_PKEY_PARAM_GROUP_NAME);
	const char *s;

	/* libssl names the TLS group: it must be this one */
	if (p && (!rp_get_utf8(p, &s) || strcasecmp(s, g->oname)))
		return 0;
	return 1;
}

static void *kgen_init(void *provctx, const char *alg, const char *oname, int sel, const OSSL_PARAM params[])
{
	struct kgen *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->provctx = provctx;
	g->alg = alg;
	g->oname = oname;
	g->sel = sel;
	if (!kgen_set(g, params)) {
		free(g);
		return NULL;
	}
	return g;
}

static void *kgen(void *vg, OSSL_CALLBACK *cb, void *arg)
{
	struct kgen *g = vg;
	struct kkey *k = kk_new(g->provctx, g->alg, g->oname);

	(void)cb; (void)arg;
	if (!k)
		return NULL;
	if (!(g->sel & OSSL_KEYMGMT_SELECT_KEYPAIR))
		return k;
	if (crypto_kem_generate_key(k->tfm) || !kk_take_pub(k)) {
		kk_free(k);
		return NULL;
	}
	k->has_priv = 1;
	RTRACE("keygen %s (%s)", g->oname, crypto_kem_driver_name(k->tfm));
	return k;
}

static void kgen_cleanup(void *g) { free(g); }
static const OSSL_PARAM kgen_settable_list[] = {
	{ OSSL_PKEY_PARAM_GROUP_NAME, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM *kgen_settable(void *g, void *p) { (void)g; (void)p; return kgen_settable_list; }
static int kgen_set_template(void *g, void *t) { (void)g; (void)t; return 1; }

/* ---- the KEM operation ---- */

struct kemctx {
	struct kkey *k;
};

static void *kem_new(void *provctx) { (void)provctx; return calloc(1, sizeof(struct kemctx)); }
static void kem_free(void *c) { free(c); }
static void *kem_dup(void *c)
{
	struct kemctx *d = malloc(sizeof(*d));

	if (d)
		*d = *(struct kemctx *)c;
	return d;
}

static int kem_init(void *vc, void *key, const OSSL_PARAM params[])
{
	struct kemctx *c = vc;

	(void)params;
	c->k = key;
	return c->k && c->k->has_pub;
}

static int kem_encap(void *vc, unsigned char *out, size_t *outlen, unsigned char *secret, size_t *secretlen)
{
	struct kemctx *c = vc;
	unsigned int ctl = crypto_kem_ciphertextsize(c->k->tfm), ssl = crypto_kem_sharedsecretsize(c->k->tfm);
	int err;

	if (!out) {
		if (outlen)
			*outlen = ctl;
		if (secretlen)
			*secretlen = ssl;
		return 1;
	}
	if (!secret || !outlen || !secretlen || *outlen < ctl || *secretlen < ssl)
		return 0;
	err = crypto_kem_encapsulate(c->k->tfm, out, ctl, secret, ssl);
	RTRACE("encapsulate %s (%s) %s", c->k->oname, crypto_kem_driver_name(c->k->tfm), err ? "failed" : "ok");
	if (err)
		return 0;
	*outlen = ctl;
	*secretlen = ssl;
	return 1;
}

static int kem_decap(void *vc, unsigned char *out, size_t *outlen, const unsigned char *in, size_t inlen)
{
	struct kemctx *c = vc;
	unsigned int ssl = crypto_kem_sharedsecretsize(c->k->tfm);
	int err;

	if (!c->k->has_priv)
		return 0;
	if (!out) {
		*outlen = ssl;
		return 1;
	}
	if (*outlen < ssl || inlen != crypto_kem_ciphertextsize(c->k->tfm))
		return 0;
	err = crypto_kem_decapsulate(c->k->tfm, in, (unsigned int)inlen, out, ssl);
	RTRACE("decapsulate %s (%s) %s", c->k->oname, crypto_kem_driver_name(c->k->tfm), err ? "failed" : "ok");
	if (err)
		return 0;
	*outlen = ssl;
	return 1;
}

static int kem_set(void *c, const OSSL_PARAM p[]) { (void)c; (void)p; return 1; }
static const OSSL_PARAM kem_settable_list[] = { { NULL, 0, NULL, 0, 0 } };
static const OSSL_PARAM *kem_settable(void *c, void *p) { (void)c; (void)p; return kem_settable_list; }

static const OSSL_DISPATCH kem_fns[] = {
	{ OSSL_FUNC_KEM_NEWCTX, (void (*)(void))kem_new },
	{ OSSL_FUNC_KEM_FREECTX, (void (*)(void))kem_free },
	{ OSSL_FUNC_KEM_DUPCTX, (void (*)(void))kem_dup },
	{ OSSL_FUNC_KEM_ENCAPSULATE_INIT, (void (*)(void))kem_init },
	{ OSSL_FUNC_KEM_ENCAPSULATE, (void (*)(void))kem_encap },
	{ OSSL_FUNC_KEM_DECAPSULATE_INIT, (void (*)(void))kem_init },
	{ OSSL_FUNC_KEM_DECAPSULATE, (void (*)(void))kem_decap },
	{ OSSL_FUNC_KEM_SET_CTX_PARAMS, (void (*)(void))kem_set },
	{ OSSL_FUNC_KEM_SETTABLE_CTX_PARAMS, (void (*)(void))kem_settable },
	{ 0, NULL }
};

#define KEMKEY(sym, alg, oname)							\
static void *sym##_new(void *provctx) { return kk_new(provctx, alg, oname); }	\
static void *sym##_gen_init(void *provctx, int sel, const OSSL_PARAM p[])	\
	{ return kgen_init(provctx, alg, oname, sel, p); }			\
const OSSL_DISPATCH rind_##sym##_km_fns[] = {										\
	{ OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))sym##_new },			\
	{ OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))kk_free },			\
	{ OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))kk_has },			\
	{ OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))kk_match },			\
	{ OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))kk_import },		\
	{ OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))kk_ptypes },		\
	{ OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))kk_export },		\
	{ OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))kk_ptypes },		\
	{ OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))kk_get_params },	\
	{ OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))kk_gettable },	\
	{ OSSL_FUNC_KEYMGMT_SET_PARAMS, (void (*)(void))kk_set_params },	\
	{ OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, (void (*)(void))kk_settable },	\
	{ OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))sym##_gen_init },		\
	{ OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))kgen_set },		\
	{ OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))kgen_settable },\
	{ OSSL_FUNC_KEYMGMT_GEN_SET_TEMPLATE, (void (*)(void))kgen_set_template },\
	{ OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))kgen },			\
	{ OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))kgen_cleanup },	\
	{ 0, NULL }								\
};

KEMKEY(xmlkem, "x25519mlkem768", "X25519MLKEM768")
KEMKEY(mlkem768, "mlkem768", "ML-KEM-768")
KEMKEY(mlkem1024, "mlkem1024", "ML-KEM-1024")

const OSSL_ALGORITHM rind_kems[] = {
	{ "X25519MLKEM768", RIND_PROPS, kem_fns, "X25519MLKEM768 hybrid KEM (rind)" },
	{ "ML-KEM-768:MLKEM768", RIND_PROPS, kem_fns, "ML-KEM-768 (rind)" },
	{ "ML-KEM-1024:MLKEM1024", RIND_PROPS, kem_fns, "ML-KEM-1024 (rind)" },
	{ NULL, NULL, NULL, NULL }
};
