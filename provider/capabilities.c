// SPDX-License-Identifier: MIT
/*
 * The TLS-GROUP capability: the key exchange groups libssl may use with
 * rind's key management.  (libssl only takes a group from the provider
 * whose keymgmt it fetches for the group's algorithm, so with rind
 * preferred these are the groups there are.)  X25519MLKEM768 (0x11EC,
 * draft-ietf-tls-ecdhe-mlkem) is a KEM group, TLS 1.3 only: OpenSSL 3.0's
 * libssl runs it through kem.c.
 */
#include "prov.h"

struct tls_group {
	const char *name, *internal, *alg;
	unsigned int id, secbits;
	int mintls, maxtls, mindtls, maxdtls;
	unsigned int is_kem;
};

#define TLS1 0x0301
#define TLS13 0x0304
#define DTLS1 0xfeff
static const struct tls_group groups[] = {
	{ "x25519", "X25519", "X25519", 0x1d, 128, TLS1, 0, DTLS1, 0, 0 },
	{ "secp256r1", "prime256v1", "EC", 23, 128, TLS1, 0, DTLS1, 0, 0 },
	{ "P-256", "prime256v1", "EC", 23, 128, TLS1, 0, DTLS1, 0, 0 },
	{ "secp384r1", "secp384r1", "EC", 24, 192, TLS1, 0, DTLS1, 0, 0 },
	{ "P-384", "secp384r1", "EC", 24, 192, TLS1, 0, DTLS1, 0, 0 },
	{ "secp521r1", "secp521r1", "EC", 25, 256, TLS1, 0, DTLS1, 0, 0 },
	{ "P-521", "secp521r1", "EC", 25, 256, TLS1, 0, DTLS1, 0, 0 },
	{ "X25519MLKEM768", "X25519MLKEM768", "X25519MLKEM768", 0x11ec, 192, TLS13, 0, -1, -1, 1 },
};

int rind_tls_group_capability(OSSL_CALLBACK *cb, void *arg)
{
	unsigned int i;

	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		const struct tls_group *g = &groups[i];
		unsigned int id = g->id, sec = g->secbits, kem = g->is_kem;
		int mintls = g->mintls, maxtls = g->maxtls, mindtls = g->mindtls, maxdtls = g->maxdtls;
		OSSL_PARAM p[] = {
			{ OSSL_CAPABILITY_TLS_GROUP_NAME, OSSL_PARAM_UTF8_STRING, (void *)g->name, 0, 0 },
			{ OSSL_CAPABILITY_TLS_GROUP_NAME_INTERNAL, OSSL_PARAM_UTF8_STRING, (void *)g->internal, 0, 0 },
			{ OSSL_CAPABILITY_TLS_GROUP_ALG, OSSL_PARAM_UTF8_STRING, (void *)g->alg, 0, 0 },
			{ OSSL_CAPABILITY_TLS_GROUP_ID, OSSL_PARAM_UNSIGNED_INTEGER, &id, sizeof(id), 0 },
			{ OSSL_CAPABILITY_TLS_GROUP_SECURITY_BITS, OSSL_PARAM_UNSIGNED_INTEGER, &sec, sizeof(sec), 0 },
			{ OSSL_CAPABILITY_TLS_GROUP_IS_KEM, OSSL_PARAM_UNSIGNED_INTEGER, &kem, sizeof(kem), 0 },
			{ OSSL_CAPABILITY_TLS_GROUP_MIN_TLS, OSSL_PARAM_INTEGER, &mintls, sizeof(mintls), 0 },
			{ OSSL_CAPABILITY_TLS_GROUP_MAX_TLS, OSSL_PARAM_INTEGER, &maxtls, sizeof(maxtls), 0 },
			{ OSSL_CAPABILITY_TLS_GROUP_MIN_DTLS, OSSL_PARAM_INTEGER, &mindtls, sizeof(mindtls), 0 },
			{ OSSL_CAPABILITY_TLS_GROUP_MAX_DTLS, OSSL_PARAM_INTEGER, &maxdtls, sizeof(maxdtls), 0 },
			{ NULL, 0, NULL, 0, 0 }
		};
		unsigned int j;

		for (j = 0; j < 3; j++)
			p[j].data_size = __builtin_strlen(p[j].data) + 1;
		if (!cb(p, arg))
			return 0;
	}
	return 1;
}
