// SPDX-License-Identifier: MIT
/* Built by `make check-install` against the installed tree with pkg-config. */
#include <stdio.h>
#include <string.h>
#include <rind/crypto.h>

int main(void)
{
	/* RFC 4231 test case 2: key "Jefe", "what do ya want for nothing?". */
	static const u8 expect[8] = { 0x16, 0x4b, 0x7a, 0x7b, 0xfc, 0xf8, 0x19, 0xe2 };
	const char *msg = "what do ya want for nothing?";
	struct crypto_shash *tfm = crypto_alloc_shash("hmac(sha512)", 0, 0);
	u8 out[64];

	if (IS_ERR(tfm)) {
		fprintf(stderr, "install_app: crypto_alloc_shash: %ld\n", PTR_ERR(tfm));
		return 1;
	}
	if (crypto_shash_setkey(tfm, (const u8 *)"Jefe", 4) ||
	    crypto_shash_tfm_digest(tfm, (const u8 *)msg, (unsigned int)strlen(msg), out) ||
	    memcmp(out, expect, sizeof(expect))) {
		fprintf(stderr, "install_app: wrong HMAC-SHA512\n");
		return 1;
	}
	printf("install_app: hmac(sha512) via %s from the installed rind %s: ok\n",
	       crypto_shash_driver_name(tfm), rind_version());
	crypto_free_shash(tfm);
	return 0;
}
