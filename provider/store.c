// SPDX-License-Identifier: MIT
/*
 * The store loader for "rind:NAME" URIs (openssl pkeyutl -inkey rind:web,
 * openssl req -key rind:web): one object, the key NAME held by rindd,
 * whose public half is fetched from the daemon and whose private
 * operations go to it (remote.c).  The socket is $RIND_SOCKET or rindd's
 * default; "rind:NAME?socket=/path" names another.
 */
#include <stdlib.h>
#include <string.h>
#include "key.h"

int rind_remote_get_spki(const char *name, const char *sock, uint8_t **spki, size_t *len);
int rind_remote_key(void *provctx, const char *name, const char *sock, const uint8_t *spki, size_t len,
		    int want_type, struct rkey **out);

struct stctx {
	void *provctx;
	char *name, *sock;
	int done;
};

static void *st_open(void *provctx, const char *uri)
{
	struct stctx *c;
	const char *q;

	if (strncmp(uri, "rind:", 5) || !uri[5])
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->provctx = provctx;
	q = strstr(uri + 5, "?socket=");
	c->name = q ? strndup(uri + 5, (size_t)(q - uri - 5)) : strdup(uri + 5);
	if (q)
		c->sock = strdup(q + 8);
	if (!c->name || (q && !c->sock)) {
		free(c->name);
		free(c);
		return NULL;
	}
	return c;
}

static int st_load(void *vc, OSSL_CALLBACK *object_cb, void *object_cbarg,
		   OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg)
{
	struct stctx *c = vc;
	uint8_t *spki = NULL;
	size_t len = 0;
	struct rkey *k = NULL;
	int err, ret;

	(void)pw_cb; (void)pw_cbarg;
	if (c->done)
		return 0;
	c->done = 1;
	err = rind_remote_get_spki(c->name, c->sock, &spki, &len);
	if (!err)
		err = rind_remote_key(c->provctx, c->name, c->sock, spki, len, -1, &k);
	free(spki);
	if (err) {
		rind_raise(c->provctx, RIND_R_FAIL, "rind:%s: %d", c->name, err);
		return 0;
	}
	RTRACE("store rind:%s: %s key in rindd", c->name, rk_type_name[k->type]);
	{
		int otype = OSSL_OBJECT_PKEY;
		OSSL_PARAM p[] = {
			{ OSSL_OBJECT_PARAM_TYPE, OSSL_PARAM_INTEGER, &otype, sizeof(otype), 0 },
			{ OSSL_OBJECT_PARAM_DATA_TYPE, OSSL_PARAM_UTF8_STRING, (void *)rk_type_name[k->type],
			  strlen(rk_type_name[k->type]), 0 },
			{ OSSL_OBJECT_PARAM_REFERENCE, OSSL_PARAM_OCTET_STRING, &k, sizeof(k), 0 },
			{ NULL, 0, NULL, 0, 0 }
		};

		ret = object_cb(p, object_cbarg);
	}
	rk_free(k);	/* NULL if the key management took it */
	return ret;
}

static int st_eof(void *vc) { return ((struct stctx *)vc)->done; }

static int st_close(void *vc)
{
	struct stctx *c = vc;

	free(c->name);
	free(c->sock);
	free(c);
	return 1;
}

static int st_set(void *c, const OSSL_PARAM p[]) { (void)c; (void)p; return 1; }
static const OSSL_PARAM st_settable_list[] = { { NULL, 0, NULL, 0, 0 } };
static const OSSL_PARAM *st_settable(void *p) { (void)p; return st_settable_list; }

static int st_export(void *vc, const void *ref, size_t ref_sz, OSSL_CALLBACK *cb, void *cbarg)
{
	(void)vc;
	if (ref_sz != RK_REF_SIZE)
		return 0;
	/* the public half only: the private key never leaves rindd */
	return rk_export(*(struct rkey *const *)ref, OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS, cb, cbarg);
}

static const OSSL_DISPATCH store_fns[] = {
	{ OSSL_FUNC_STORE_OPEN, (void (*)(void))st_open },
	{ OSSL_FUNC_STORE_LOAD, (void (*)(void))st_load },
	{ OSSL_FUNC_STORE_EOF, (void (*)(void))st_eof },
	{ OSSL_FUNC_STORE_CLOSE, (void (*)(void))st_close },
	{ OSSL_FUNC_STORE_SET_CTX_PARAMS, (void (*)(void))st_set },
	{ OSSL_FUNC_STORE_SETTABLE_CTX_PARAMS, (void (*)(void))st_settable },
	{ OSSL_FUNC_STORE_EXPORT_OBJECT, (void (*)(void))st_export },
	{ 0, NULL }
};

const OSSL_ALGORITHM rind_stores[] = {
	{ "rind", RIND_PROPS, store_fns, "keys held by rindd (rind:NAME)" },
	{ NULL, NULL, NULL, NULL }
};
