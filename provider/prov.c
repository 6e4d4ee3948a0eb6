// SPDX-License-Identifier: MIT
/*
 * rind.so: OSSL_provider_init, the operation query, the provider's
 * parameters and capabilities.  Each operation family is in its own file
 * (digests.c, mac.c, kdf.c, ciphers.c, aead.c, rand.c, keymgmt-*.c,
 * encoder.c, decoder.c, signature.c, keyexch.c, asymcipher.c, kem.c,
 * store.c); this file only hands their tables to the core.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "prov.h"

struct rind_core rind_core;
int rind_trace_on;

void rind_trace(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	n = snprintf(line, sizeof(line), "rind-provider[%d]: ", (int)getpid());
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	n = (int)strlen(line);
	line[n++] = '\n';
	/* One write per line, so lines of concurrent processes do not interleave. */
	if (write(2, line, (size_t)n) < 0)
		return;
}

void rind_raise(void *provctx, int reason, const char *fmt, ...)
{
	struct rind_prov *pc = provctx;
	va_list ap;

	if (!pc || !rind_core.new_error || !rind_core.vset_error)
		return;
	rind_core.new_error(pc->handle);
	if (rind_core.set_error_debug)
		rind_core.set_error_debug(pc->handle, "rind.so", 0, "rind");
	va_start(ap, fmt);
	rind_core.vset_error(pc->handle, (uint32_t)reason, fmt, ap);
	va_end(ap);
}

/*
 * Digest names as OpenSSL spells them (the same alias sets as its default
 * provider, so the core's name map joins them), with the registry's names.
 * For HMAC, the KDFs, signatures and OAEP: the XOFs (SHAKE) are digests
 * only (digests.c), not here.
 */
static const struct rind_md mds[] = {
	{ "SHA1:SHA-1:SSL3-SHA1:1.3.14.3.2.26", "sha1", "hmac(sha1)", 20, 64, 0 },
	{ "SHA2-224:SHA-224:SHA224:2.16.840.1.101.3.4.2.4", "sha224", "hmac(sha224)", 28, 64, 1 },
	{ "SHA2-256:SHA-256:SHA256:2.16.840.1.101.3.4.2.1", "sha256", "hmac(sha256)", 32, 64, 1 },
	{ "SHA2-384:SHA-384:SHA384:2.16.840.1.101.3.4.2.2", "sha384", "hmac(sha384)", 48, 128, 1 },
	{ "SHA2-512:SHA-512:SHA512:2.16.840.1.101.3.4.2.3", "sha512", "hmac(sha512)", 64, 128, 1 },
	{ "SHA3-224:2.16.840.1.101.3.4.2.7", "sha3-224", "hmac(sha3-224)", 28, 144, 0 },
	{ "SHA3-256:2.16.840.1.101.3.4.2.8", "sha3-256", "hmac(sha3-256)", 32, 136, 0 },
	{ "SHA3-384:2.16.840.1.101.3.4.2.9", "sha3-384", "hmac(sha3-384)", 48, 104, 0 },
	{ "SHA3-512:2.16.840.1.101.3.4.2.10", "sha3-512", "hmac(sha3-512)", 64, 72, 0 },
	{ NULL, NULL, NULL, 0, 0, 0 }
};
_Static_assert(sizeof(mds) / sizeof(mds[0]) == RIND_MD_N + 1, "RIND_MD_N");

unsigned int rind_md_index(const struct rind_md *m)
{
	return (unsigned int)(m - mds);
}

/* "224", "256", "384", "512" (exactly) as 0..3, else -1. */
static int md_bits(const char *s)
{
	static const char bits[4][4] = { "224", "256", "384", "512" };
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(s, bits[i]))
			return i;
	return -1;
}

/*
 * The spellings every caller uses (libssl asks by "SHA2-256" or "SHA256"
 * for each KDF context, node by "sha256"), parsed instead of compared
 * with each alias in turn: "SHA" then "1", "-1", "NNN", "-NNN", "2-NNN"
 * or "3-NNN", any case.  Each is one of the table's aliases or registry
 * names; anything else (OIDs, "SSL3-SHA1") goes to the table.
 */
static const struct rind_md *md_fast(const char *n)
{
	int b;

	if ((n[0] | 0x20) != 's' || (n[1] | 0x20) != 'h' || (n[2] | 0x20) != 'a')
		return NULL;
	n += 3;
	if (!strcmp(n, "1") || !strcmp(n, "-1"))
		return &mds[0];
	if (n[0] == '-' || (n[0] == '2' && n[1] == '-'))
		n += n[0] == '-' ? 1 : 2;
	else if (n[0] == '3' && n[1] == '-')
		return (b = md_bits(n + 2)) >= 0 ? &mds[5 + b] : NULL;
	return (b = md_bits(n)) >= 0 ? &mds[1 + b] : NULL;
}

const struct rind_md *rind_md_by_name(const char *name)
{
	const struct rind_md *m;

	if (!name)
		return NULL;
	if ((m = md_fast(name)))
		return m;
	for (m = mds; m->names; m++)
		if (rind_name_in(m->names, name) || !strcasecmp(m->rind, name))
			return m;
	return NULL;
}

/* Families not built in this tree answer with an empty table. */
#define EMPTY_TABLE(n) __attribute__((weak)) const OSSL_ALGORITHM n[] = { { NULL, NULL, NULL, NULL } }
EMPTY_TABLE(rind_keymgmts);
EMPTY_TABLE(rind_signatures);
EMPTY_TABLE(rind_keyexchs);
EMPTY_TABLE(rind_asym_ciphers);
EMPTY_TABLE(rind_kems);
EMPTY_TABLE(rind_encoders);
EMPTY_TABLE(rind_decoders);
EMPTY_TABLE(rind_stores);

static const OSSL_ALGORITHM *query_operation(void *provctx, int id, int *no_cache)
{
	(void)provctx;
	*no_cache = 0;
	switch (id) {
	case OSSL_OP_DIGEST: return rind_digests;
	case OSSL_OP_MAC: return rind_macs;
	case OSSL_OP_KDF: return rind_kdfs;
	case OSSL_OP_RAND: return rind_rands;
	case OSSL_OP_CIPHER: return rind_ciphers;
	case OSSL_OP_KEYMGMT: return rind_keymgmts;
	case OSSL_OP_SIGNATURE: return rind_signatures;
	case OSSL_OP_KEYEXCH: return rind_keyexchs;
	case OSSL_OP_ASYM_CIPHER: return rind_asym_ciphers;
	case OSSL_OP_KEM: return rind_kems;
	case OSSL_OP_ENCODER: return rind_encoders;
	case OSSL_OP_DECODER: return rind_decoders;
	case OSSL_OP_STORE: return rind_stores;
	}
	return NULL;
}

static const OSSL_PARAM prov_gettable[] = {
	{ OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0, 0 },
	{ OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0, 0 },
	{ OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0, 0 },
	{ OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};

static const OSSL_PARAM *prov_gettable_params(void *provctx)
{
	(void)provctx;
	return prov_gettable;
}

static int prov_get_params(void *provctx, OSSL_PARAM params[])
{
	(void)provctx;
	return rp_put_utf8(params, OSSL_PROV_PARAM_NAME, "rind: the kernel-style crypto library")
		&& rp_put_utf8(params, OSSL_PROV_PARAM_VERSION, rind_version())
		&& rp_put_utf8(params, OSSL_PROV_PARAM_BUILDINFO, "rind " RIND_VERSION)
		&& rp_put_int(params, OSSL_PROV_PARAM_STATUS, 1);
}

static int prov_get_capabilities(void *provctx, const char *capability, OSSL_CALLBACK *cb, void *arg)
{
	(void)provctx;
	if (!strcasecmp(capability, "TLS-GROUP"))
		return rind_tls_group_capability(cb, arg);
	return 0;
}

/*
 * Instances alive in the process: a program may load the provider into
 * several library contexts; what they share goes with the last one
 * (before the core may dlclose the module).
 */
static int instances;

static void prov_teardown(void *provctx)
{
	free(provctx);
	if (__atomic_sub_fetch(&instances, 1, __ATOMIC_ACQ_REL) == 0) {
		rind_md_hash_release();
		rind_digests_release();
	}
}

static const OSSL_DISPATCH prov_dispatch[] = {
	{ OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))prov_teardown },
	{ OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))prov_gettable_params },
	{ OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))prov_get_params },
	{ OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))query_operation },
	{ OSSL_FUNC_PROVIDER_GET_CAPABILITIES, (void (*)(void))prov_get_capabilities },
	{ 0, NULL }
};

__attribute__((visibility("default")))
int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
		       const OSSL_DISPATCH **out, void **provctx)
{
	struct rind_prov *pc;
	const char *t = getenv("RIND_PROVIDER_TRACE");

	rind_trace_on = t && *t && strcmp(t, "0");
	for (; in && in->function_id; in++) {
		switch (in->function_id) {
		case OSSL_FUNC_CORE_NEW_ERROR:
			rind_core.new_error = OSSL_FUNC_core_new_error(in);
			break;
		case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
			rind_core.set_error_debug = OSSL_FUNC_core_set_error_debug(in);
			break;
		case OSSL_FUNC_CORE_VSET_ERROR:
			rind_core.vset_error = OSSL_FUNC_core_vset_error(in);
			break;
		case OSSL_FUNC_BIO_READ_EX:
			rind_core.bio_read_ex = OSSL_FUNC_BIO_read_ex(in);
			break;
		case OSSL_FUNC_BIO_WRITE_EX:
			rind_core.bio_write_ex = OSSL_FUNC_BIO_write_ex(in);
			break;
		case OSSL_FUNC_CORE_GET_LIBCTX:
			rind_core.get_libctx = OSSL_FUNC_core_get_libctx(in);
			break;
		}
	}
	pc = calloc(1, sizeof(*pc));
	if (!pc)
		return 0;
	pc->handle = handle;
	__atomic_add_fetch(&instances, 1, __ATOMIC_ACQ_REL);
	if (rind_core.get_libctx)
		pc->libctx = (OSSL_LIB_CTX *)rind_core.get_libctx(handle);
	*provctx = pc;
	*out = prov_dispatch;
	RTRACE("loaded (librind %s)", rind_version());
	return 1;
}
