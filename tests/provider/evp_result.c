// SPDX-License-Identifier: MIT
/*
 * The check reporting of the provider's EVP test programs (evp_result.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <openssl/err.h>
#include "evp_result.h"

static int fails;

void result(int good, const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", good ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);		/* a sanitizer's exit must not lose lines */
	if (!good) {
		fails++;
		ERR_print_errors_fp(stdout);
	}
	/* what a passing check left queued must not be blamed on the next */
	ERR_clear_error();
}

int results_status(void)
{
	return fails ? 1 : 0;
}

OSSL_PROVIDER *load_rind(OSSL_LIB_CTX *lib, const char *dir)
{
	OSSL_PROVIDER *prov = NULL;

	if (OSSL_PROVIDER_set_default_search_path(lib, dir))
		prov = OSSL_PROVIDER_load(lib, "rind");
	if (!prov)
		result(0, "loading rind.so from %s", dir);
	return prov;
}
