// SPDX-License-Identifier: MIT
/*
 * What the provider's ciphers say about themselves (provider/params.c's
 * rp_cipher_get_params and the gettable list, shared by ciphers.c and
 * aead.c), against OpenSSL's default provider for the same name: libssl
 * and EVP decide from these (the mode, the IV length a record needs, an
 * AEAD's custom IV, the block size padding works in) before a byte is
 * enciphered, so a wrong one breaks a caller without a wrong ciphertext
 * to show for it.  Every parameter the default provider answers must be
 * answered alike, and every name in rind's gettable list must be one the
 * default provider lists too.
 * Usage: cipher_evp MODULE_DIR.  Prints "ok: ..." or "FAIL: ..." per check
 * (run.sh counts them) and exits 1 on a failure.
 */
#include <stdio.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include "evp_result.h"


static const char *const ciphers[] = {
	"AES-128-ECB", "AES-192-ECB", "AES-256-ECB",
	"AES-128-CBC", "AES-192-CBC", "AES-256-CBC",
	"AES-128-CTR", "AES-192-CTR", "AES-256-CTR",
	"AES-128-GCM", "AES-192-GCM", "AES-256-GCM",
	"ChaCha20-Poly1305",
};

/* The integer-valued algorithm parameters (EVP_CIPHER_get_params). */
static const char *const int_params[] = {
	OSSL_CIPHER_PARAM_MODE, OSSL_CIPHER_PARAM_KEYLEN, OSSL_CIPHER_PARAM_IVLEN,
	OSSL_CIPHER_PARAM_BLOCK_SIZE, OSSL_CIPHER_PARAM_AEAD, OSSL_CIPHER_PARAM_CUSTOM_IV,
	OSSL_CIPHER_PARAM_CTS, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, OSSL_CIPHER_PARAM_HAS_RAND_KEY,
};
#define NINT (sizeof(int_params) / sizeof(int_params[0]))

/* Each parameter asked alone, as a caller does: 1 and *v if answered. */
static int get_one(const EVP_CIPHER *c, const char *key, size_t *v)
{
	OSSL_PARAM p[2] = { OSSL_PARAM_size_t(key, v), OSSL_PARAM_END };

	*v = 0xdead;
	return EVP_CIPHER_get_params((EVP_CIPHER *)c, p) && OSSL_PARAM_modified(p);
}

static void compare(const char *name, const EVP_CIPHER *r, const EVP_CIPHER *d)
{
	const OSSL_PARAM *rl = EVP_CIPHER_gettable_params(r), *dl = EVP_CIPHER_gettable_params(d);
	const OSSL_PARAM *q;
	unsigned int i;

	for (i = 0; i < NINT; i++) {
		size_t rv, dv;
		int rok = get_one(r, int_params[i], &rv), dok = get_one(d, int_params[i], &dv);

		if (!dok)
			continue;
		result(rok && rv == dv, "%s: %s %zu (default provider %zu)", name, int_params[i],
		       rok ? rv : (size_t)-1, dv);
	}
	result(EVP_CIPHER_get_flags(r) == EVP_CIPHER_get_flags(d), "%s: flags %#lx (default provider %#lx)",
	       name, EVP_CIPHER_get_flags(r), EVP_CIPHER_get_flags(d));
	result(rl && dl, "%s: gettable parameter lists", name);
	for (q = rl; q && q->key; q++)
		result(OSSL_PARAM_locate_const(dl, q->key) != NULL, "%s: gettable %s is the default provider's too",
		       name, q->key);
}

int main(int argc, char **argv)
{
	OSSL_LIB_CTX *rlib, *dlib;
	OSSL_PROVIDER *prov;
	unsigned int i;

	if (argc < 2) {
		fprintf(stderr, "usage: cipher_evp MODULE_DIR\n");
		return 2;
	}
	rlib = OSSL_LIB_CTX_new();
	dlib = OSSL_LIB_CTX_new();
	if (!rlib || !dlib || !(prov = load_rind(rlib, argv[1])))
		return 1;
	for (i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++) {
		EVP_CIPHER *r = EVP_CIPHER_fetch(rlib, ciphers[i], "provider=rind");
		EVP_CIPHER *d = EVP_CIPHER_fetch(dlib, ciphers[i], "provider=default");

		result(r && d, "%s fetched from rind and from the default provider", ciphers[i]);
		if (r && d)
			compare(ciphers[i], r, d);
		EVP_CIPHER_free(r);
		EVP_CIPHER_free(d);
	}
	OSSL_PROVIDER_unload(prov);
	OSSL_LIB_CTX_free(rlib);
	OSSL_LIB_CTX_free(dlib);
	return results_status();
}
