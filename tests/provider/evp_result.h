/* SPDX-License-Identifier: MIT */
/*
 * What the provider's EVP test programs (cipher_evp, kdfmac_evp,
 * keyref_evp, mldsa_evp) share: a line "ok: ..." or "FAIL: ..." per
 * check, which run.sh counts, and rind.so loaded from the module
 * directory the program is given.
 */
#ifndef RIND_TESTS_PROVIDER_EVP_RESULT_H
#define RIND_TESTS_PROVIDER_EVP_RESULT_H

#include <openssl/provider.h>

/* One check: its line, and on a failure the OpenSSL errors queued for it. */
void result(int good, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The program's exit status: 1 when a check has failed, else 0. */
int results_status(void);

/*
 * rind.so from DIR into LIB (NULL: the default library context); on a
 * failure a FAIL line says so and NULL is returned.
 */
OSSL_PROVIDER *load_rind(OSSL_LIB_CTX *lib, const char *dir);

#endif
