/* SPDX-License-Identifier: MIT */
/*
 * The registry both constant-time checks see: ct_check (valgrind) and
 * ct_timing (native) instantiate the same templates over the same
 * arguments, so that ct_timing's --covered list, made by ct_timing under
 * valgrind, names exactly the implementations ct_check checked.  A
 * template added here is instantiated by both.
 */
#ifndef RIND_CT_COMMON_H
#define RIND_CT_COMMON_H

#include <stdio.h>
#include <string.h>
#include <rind/crypto.h>

struct inst_ctx {
	const char *argname;
	const char *tmpl;	/* printf format, %s: the argument's driver */
};

static int inst_cb(const struct rind_alg_info *i, void *ctx)
{
	struct inst_ctx *c = ctx;
	char name[3 * CRYPTO_MAX_ALG_NAME];

	if (strcmp(i->name, c->argname))
		return 0;
	snprintf(name, sizeof(name), c->tmpl, i->driver);
	(void)crypto_has_alg(name, 0, 0);
	return 0;
}

/* Instantiate the standard templates over every implementation of their arguments. */
static void instantiate_all(void)
{
	static const struct inst_ctx t[] = {
		{ "aes", "ecb(%s)" }, { "aes", "cbc(%s)" }, { "aes", "ctr(%s)" }, { "aes", "kw(%s)" },
		{ "aes", "kwp(%s)" }, { "aes", "gcm(%s)" }, { "gcm(aes)", "rfc4106(%s)" },
		{ "sha1", "hmac(%s)" }, { "sha224", "hmac(%s)" }, { "sha256", "hmac(%s)" },
		{ "sha384", "hmac(%s)" }, { "sha512", "hmac(%s)" },
		{ "chacha20", "rfc7539(%s,poly1305)" }, { "xchacha20", "rfc7539(%s,poly1305)" },
		{ "poly1305", "rfc7539(chacha20,%s)" },
		{ "ecdsa-nist-p256", "x962(%s,sha256)" }, { "ecdsa-nist-p384", "x962(%s,sha384)" },
		{ "ecdsa-nist-p521", "x962(%s,sha512)" }, { "ecdsa-nist-p256", "p1363(%s,sha256)" },
		{ "ecdsa-nist-p384", "p1363(%s,sha384)" }, { "ecdsa-nist-p521", "p1363(%s,sha512)" },
	};
	size_t k;

	for (k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct inst_ctx c = t[k];

		(void)crypto_has_alg(c.argname, 0, 0);
		rind_alg_foreach(inst_cb, &c);
	}
	/* rfc4106 over the gcm instances just made, too. */
	rind_alg_foreach(inst_cb, (void *)&t[6]);
}

#endif
