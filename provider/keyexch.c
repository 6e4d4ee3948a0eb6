// SPDX-License-Identifier: MIT
/*
 * Key exchange: X25519 (curve25519) and ECDH on P-256/384/521
 * (ecdh-nist-p*), the shared secret being the X coordinate.  No KDF is
 * applied here (OpenSSL's "kdf-type" other than none is refused).
 */
#include <stdlib.h>
#include <string.h>
#include "key.h"

struct xctx {
	void *provctx;
	struct rkey *k, *peer;
};

static void *xnew(void *provctx)
{
	struct xctx *c = calloc(1, sizeof(*c));

	if (c)
		c->provctx = provctx;
	return c;
}

static void xfree(void *c) { free(c); }

static void *xdup(void *vc)
{
	struct xctx *d = malloc(sizeof(*d));

	if (d)
		*d = *(struct xctx *)vc;
	return d;
}

static int xset(void *vc, const OSSL_PARAM params[]);

static int xinit(void *vc, void *key, const OSSL_PARAM params[])
{
	struct xctx *c = vc;
	struct rkey *k = key;

	if (!k || !k->priv || (k->type != RK_X25519 && k->type != RK_EC))
		return 0;
	c->k = k;
	return xset(c, params);
}

static int xset_peer(void *vc, void *peer)
{
	struct xctx *c = vc;
	struct rkey *p = peer;

	if (!p || !p->has_pub || p->type != c->k->type || p->curve != c->k->curve)
		return 0;
	c->peer = p;
	return 1;
}

static int xderive(void *vc, unsigned char *secret, size_t *secretlen, size_t outlen)
{
	struct xctx *c = vc;
	struct crypto_kpp *t;
	struct kpp_request *req;
	struct scatterlist src, dst;
	size_t need = c->k->type == RK_X25519 ? 32 : c->k->curve->flen;
	uint8_t out[66];
	int err;

	if (!secret) {
		*secretlen = need;
		return 1;
	}
	if (!c->peer || outlen < need)
		return 0;
	t = crypto_alloc_kpp(c->k->type == RK_X25519 ? "curve25519" : c->k->curve->ecdh, 0, 0);
	if (IS_ERR(t))
		return 0;
	err = crypto_kpp_set_secret(t, c->k->priv, (unsigned int)c->k->privlen);
	req = err ? NULL : kpp_request_alloc(t, GFP_KERNEL);
	if (err || IS_ERR(req)) {
		crypto_free_kpp(t);
		return 0;
	}
	sg_init_one(&src, c->peer->pub, (unsigned int)c->peer->publen);
	sg_init_one(&dst, out, (unsigned int)need);
	kpp_request_set_input(req, &src, (unsigned int)c->peer->publen);
	kpp_request_set_output(req, &dst, (unsigned int)need);
	err = crypto_kpp_compute_shared_secret(req);
	RTRACE("derive %s (%s) %s", c->k->type == RK_X25519 ? "X25519" : c->k->curve->ecdh,
	       crypto_kpp_driver_name(t), err ? "failed" : "ok");
	if (!err && req->dst_len != need)
		err = -EINVAL;
	kpp_request_free(req);
	crypto_free_kpp(t);
	if (!err) {
		memcpy(secret, out, need);
		*secretlen = need;
	}
	rind_memzero_explicit(out, sizeof(out));
	return err == 0;
}

static int xset(void *vc, const OSSL_PARAM params[])
{
	const OSSL_PARAM *p;
	const char *s;

	(void)vc;
	if ((p = rp_locate_c(params, OSSL_EXCHANGE_PARAM_KDF_TYPE))) {
		if (!rp_get_utf8(p, &s) || *s)
			return 0;
	}
	if ((p = rp_locate_c(params, OSSL_EXCHANGE_PARAM_EC_ECDH_COFACTOR_MODE))) {
		int v;

		/* the NIST curves have cofactor 1: both modes are the same */
		if (!rp_get_int(p, &v) || v < -1 || v > 1)
			return 0;
	}
	return 1;
}

static const OSSL_PARAM x_settable_list[] = {
	{ OSSL_EXCHANGE_PARAM_KDF_TYPE, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ OSSL_EXCHANGE_PARAM_EC_ECDH_COFACTOR_MODE, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM *xsettable(void *c, void *p) { (void)c; (void)p; return x_settable_list; }

static const OSSL_DISPATCH kex_fns[] = {
	{ OSSL_FUNC_KEYEXCH_NEWCTX, (void (*)(void))xnew },
	{ OSSL_FUNC_KEYEXCH_INIT, (void (*)(void))xinit },
	{ OSSL_FUNC_KEYEXCH_SET_PEER, (void (*)(void))xset_peer },
	{ OSSL_FUNC_KEYEXCH_DERIVE, (void (*)(void))xderive },
	{ OSSL_FUNC_KEYEXCH_FREECTX, (void (*)(void))xfree },
	{ OSSL_FUNC_KEYEXCH_DUPCTX, (void (*)(void))xdup },
	{ OSSL_FUNC_KEYEXCH_SET_CTX_PARAMS, (void (*)(void))xset },
	{ OSSL_FUNC_KEYEXCH_SETTABLE_CTX_PARAMS, (void (*)(void))xsettable },
	{ 0, NULL }
};

const OSSL_ALGORITHM rind_keyexchs[] = {
	{ "X25519:1.3.101.110", RIND_PROPS, kex_fns, "X25519 (rind)" },
	{ "ECDH", RIND_PROPS, kex_fns, "ECDH P-256/384/521 (rind)" },
	{ NULL, NULL, NULL, NULL }
};
