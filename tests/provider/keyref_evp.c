// SPDX-License-Identifier: MIT
/*
 * rindd key-reference files (the PEM block `rind key ref NAME` writes) and
 * PKCS#8 keys through the provider's decoders, by an EVP program.  The
 * key references are read by the PrivateKeyInfo decoder of their key's
 * type (provider/decoder.c); this checks, for every key type a reference
 * holds (Ed25519, ECDSA P-256/384/521, RSA-2048, ML-DSA-44/65/87), on a
 * library context with the default provider and rind and on one with rind
 * alone:
 *  - a key reference loads through PEM_read_bio_PrivateKey (what nginx
 *    1.22 does with ssl_certificate_key) and through OSSL_DECODER (PEM,
 *    with and without the key type named), as a rind key of that type
 *    whose public key is the reference's, and whose private operation goes
 *    to rindd: with no rindd at the reference's socket, signing fails (an
 *    error, never a signature);
 *  - a plain PKCS#8 key (PEM and DER) still decodes: the same public key,
 *    and a signature made with it verifies under the original key;
 *  - malformed reference blocks fail with an error that says what is
 *    wrong (bad version, no name, bad or missing spki, a field twice, an
 *    unknown or X25519 public key, a public key that does not decode, a
 *    NUL byte), with either call.
 * The keys are made here (rindd is not needed: a reference's public half
 * is local).  Usage: keyref_evp MODULE_DIR.  Prints "ok: ..." or
 * "FAIL: ..." per check (run.sh counts them) and exits 1 on a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/x509.h>
#include "evp_result.h"

static OSSL_LIB_CTX *dlib;	/* the default provider and rind */
static OSSL_LIB_CTX *rlib;	/* rind alone */

static void __attribute__((noreturn)) die(const char *what)
{
	printf("FAIL: %s\n", what);
	ERR_print_errors_fp(stdout);
	exit(1);
}

struct ktype {
	const char *label;	/* for the messages */
	const char *alg;	/* keygen name */
	const char *type;	/* what EVP_PKEY_is_a must say */
	const char *group;	/* EC curve */
	int bits;		/* RSA */
	const char *md;		/* signature digest (NULL: the algorithm's own) */
	const char *genprop;	/* where the key is made */
};

static const struct ktype kts[] = {
	{ "Ed25519", "ED25519", "ED25519", NULL, 0, NULL, "provider=default" },
	{ "ECDSA P-256", "EC", "EC", "P-256", 0, "SHA256", "provider=default" },
	{ "ECDSA P-384", "EC", "EC", "P-384", 0, "SHA384", "provider=default" },
	{ "ECDSA P-521", "EC", "EC", "P-521", 0, "SHA512", "provider=default" },
	{ "RSA-2048", "RSA", "RSA", NULL, 2048, "SHA256", "provider=default" },
	/* OpenSSL 3.0 has no ML-DSA: rind makes those */
	{ "ML-DSA-44", "ML-DSA-44", "ML-DSA-44", NULL, 0, NULL, "provider=rind" },
	{ "ML-DSA-65", "ML-DSA-65", "ML-DSA-65", NULL, 0, NULL, "provider=rind" },
	{ "ML-DSA-87", "ML-DSA-87", "ML-DSA-87", NULL, 0, NULL, "provider=rind" },
};
#define NKT (sizeof(kts) / sizeof(kts[0]))

static EVP_PKEY *keygen(const struct ktype *kt)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(dlib, kt->alg, kt->genprop);
	EVP_PKEY *k = NULL;
	OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
	unsigned int bits = (unsigned int)kt->bits;

	if (kt->group)
		p[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)kt->group, 0);
	else if (kt->bits)
		p[0] = OSSL_PARAM_construct_uint(OSSL_PKEY_PARAM_RSA_BITS, &bits);
	if (!c || EVP_PKEY_keygen_init(c) <= 0 || !EVP_PKEY_CTX_set_params(c, p) || EVP_PKEY_keygen(c, &k) <= 0)
		die(kt->label);
	EVP_PKEY_CTX_free(c);
	return k;
}

/* @k's SubjectPublicKeyInfo DER (malloc'ed by OpenSSL), its length in *n. */
static unsigned char *spki_of(EVP_PKEY *k, int *n)
{
	unsigned char *der = NULL;

	*n = i2d_PUBKEY(k, &der);
	return *n > 0 ? der : NULL;
}

/* A key-reference PEM block for a key body @body (as rind key ref writes it). */
static char *ref_pem(const char *body, size_t len)
{
	size_t cap = len * 2 + 200, n;
	char *out = malloc(cap);
	int b;

	if (!out)
		die("malloc");
	n = (size_t)sprintf(out, "-----BEGIN RIND KEY REFERENCE-----\n");
	for (size_t i = 0; i < len; i += 48) {
		size_t m = len - i < 48 ? len - i : 48;

		b = EVP_EncodeBlock((unsigned char *)out + n, (const unsigned char *)body + i, (int)m);
		n += (size_t)b;
		out[n++] = '\n';
	}
	n += (size_t)sprintf(out + n, "-----END RIND KEY REFERENCE-----\n");
	out[n] = 0;
	return out;
}

static char *ref_body(const char *name, const unsigned char *spki, int n, size_t *len)
{
	char *b = malloc((size_t)n * 2 + 200), *p;

	if (!b)
		die("malloc");
	p = b + sprintf(b, "rind-key-ref 1\nname %s\nsocket /nonexistent/rind-keyref-test.sock\nspki ", name);
	for (int i = 0; i < n; i++)
		p += sprintf(p, "%02x", spki[i]);
	p += sprintf(p, "\n");
	*len = (size_t)(p - b);
	return b;
}

static const char *prov_of(const EVP_PKEY *k)
{
	const OSSL_PROVIDER *p = EVP_PKEY_get0_provider(k);

	return p ? OSSL_PROVIDER_get0_name(p) : "(legacy)";
}

/* @k is a @kt key whose public key is @spki (@n bytes). */
static int same_pub(EVP_PKEY *k, const struct ktype *kt, const unsigned char *spki, int n)
{
	int m, good;
	unsigned char *der;

	if (!k || !EVP_PKEY_is_a(k, kt->type))
		return 0;
	der = spki_of(k, &m);
	good = der && m == n && !memcmp(der, spki, (size_t)n);
	OPENSSL_free(der);
	return good;
}

static int sign_pq(EVP_PKEY *k, OSSL_LIB_CTX *lib, const char *pq, const char *md, unsigned char *sig,
		   size_t *siglen)
{
	EVP_MD_CTX *m = EVP_MD_CTX_new();
	static const unsigned char msg[] = "a key reference signs in rindd";
	int r = m && EVP_DigestSignInit_ex(m, NULL, md, lib, pq, k, NULL) > 0 &&
		EVP_DigestSign(m, sig, siglen, msg, sizeof(msg)) > 0;

	EVP_MD_CTX_free(m);
	return r;
}

static int sign(EVP_PKEY *k, OSSL_LIB_CTX *lib, const char *md, unsigned char *sig, size_t *siglen)
{
	return sign_pq(k, lib, NULL, md, sig, siglen);
}

static int verify(EVP_PKEY *k, OSSL_LIB_CTX *lib, const char *md, const unsigned char *sig, size_t siglen)
{
	EVP_MD_CTX *m = EVP_MD_CTX_new();
	static const unsigned char msg[] = "a key reference signs in rindd";
	int r = m && EVP_DigestVerifyInit_ex(m, NULL, md, lib, NULL, k, NULL) > 0 &&
		EVP_DigestVerify(m, sig, siglen, msg, sizeof(msg)) == 1;

	EVP_MD_CTX_free(m);
	return r;
}

static EVP_PKEY *pem_read(OSSL_LIB_CTX *lib, const void *data, size_t len)
{
	BIO *b = BIO_new_mem_buf(data, (int)len);
	EVP_PKEY *k = b ? PEM_read_bio_PrivateKey_ex(b, NULL, NULL, NULL, lib, NULL) : NULL;

	BIO_free(b);
	return k;
}

static EVP_PKEY *dec_read(OSSL_LIB_CTX *lib, const char *input, const char *keytype, int sel,
			  const void *data, size_t len)
{
	EVP_PKEY *k = NULL;
	OSSL_DECODER_CTX *d = OSSL_DECODER_CTX_new_for_pkey(&k, input, NULL, keytype, sel, lib, NULL);
	const unsigned char *p = data;

	if (!d || !OSSL_DECODER_from_data(d, &p, &len)) {
		EVP_PKEY_free(k);
		k = NULL;
	}
	OSSL_DECODER_CTX_free(d);
	return k;
}

/* The error queue holds a message containing @what (and is cleared). */
static int error_says(const char *what)
{
	const char *data;
	int flags, found = 0;
	unsigned long e;

	while ((e = ERR_get_error_all(NULL, NULL, NULL, &data, &flags)))
		if ((flags & ERR_TXT_STRING) && data && strstr(data, what))
			found = 1;
	return found;
}

static const char *libname(OSSL_LIB_CTX *lib)
{
	return lib == dlib ? "default+rind" : "rind only";
}

static void test_ref(const struct ktype *kt, EVP_PKEY *orig, const unsigned char *spki, int n)
{
	size_t blen;
	char *body = ref_body("web", spki, n, &blen), *pem = ref_pem(body, blen);
	OSSL_LIB_CTX *libs[2] = { dlib, rlib };

	for (int l = 0; l < 2; l++) {
		OSSL_LIB_CTX *lib = libs[l];
		struct { const char *how; EVP_PKEY *k; } got[4] = {
			{ "PEM_read_bio_PrivateKey", pem_read(lib, pem, strlen(pem)) },
			{ "OSSL_DECODER PEM, no type", dec_read(lib, "PEM", NULL, EVP_PKEY_KEYPAIR, pem, strlen(pem)) },
			{ "OSSL_DECODER PEM, the type named", dec_read(lib, "PEM", kt->type, EVP_PKEY_KEYPAIR, pem, strlen(pem)) },
			{ "OSSL_DECODER, no input type", dec_read(lib, NULL, NULL, EVP_PKEY_KEYPAIR, pem, strlen(pem)) },
		};

		for (int i = 0; i < 4; i++) {
			EVP_PKEY *k = got[i].k;
			unsigned char sig[8192];
			size_t siglen = sizeof(sig);

			result(same_pub(k, kt, spki, n) && !strcmp(prov_of(k), "rind"),
			       "%s key reference, %s, %s: a rind %s key with the reference's public key (%s)",
			       kt->label, got[i].how, libname(lib), kt->type, k ? prov_of(k) : "no key");
			if (k && i == 0) {
				/*
				 * No rindd at the socket: an error, never a signature; rind's
				 * signature (preferred as provider/README.md configures it) says
				 * rindd failed.  Without the preference the default provider's
				 * may be fetched, given only the public half: no signature either.
				 */
				int r = sign_pq(k, lib, "?provider=rind", kt->md, sig, &siglen);

				result(!r && error_says("rindd sign"),
				       "%s key reference, %s: signing without rindd fails with an error", kt->label,
				       libname(lib));
				siglen = sizeof(sig);
				r = sign(k, lib, kt->md, sig, &siglen);
				result(!r, "%s key reference, %s, no provider preferred: no signature without rindd",
				       kt->label, libname(lib));
			}
			/* a public operation stays local: the original key's signature verifies */
			if (k && i == 1) {
				siglen = sizeof(sig);
				result(sign(orig, dlib, kt->md, sig, &siglen) && verify(k, lib, kt->md, sig, siglen),
				       "%s key reference, %s: verifies the original key's signature locally",
				       kt->label, libname(lib));
			}
			EVP_PKEY_free(k);
		}
	}
	free(body);
	free(pem);
}

static void *encode(EVP_PKEY *k, const char *type, size_t *len)
{
	OSSL_ENCODER_CTX *e = OSSL_ENCODER_CTX_new_for_pkey(k, EVP_PKEY_KEYPAIR, type, "PrivateKeyInfo", NULL);
	unsigned char *out = NULL;

	if (!e || !OSSL_ENCODER_to_data(e, &out, len))
		die("encoding a PKCS#8 key");
	OSSL_ENCODER_CTX_free(e);
	return out;
}

static void test_pkcs8(const struct ktype *kt, EVP_PKEY *orig, const unsigned char *spki, int n)
{
	size_t plen, dlen;
	void *pem = encode(orig, "PEM", &plen), *der = encode(orig, "DER", &dlen);
	OSSL_LIB_CTX *libs[2] = { dlib, rlib };

	for (int l = 0; l < 2; l++) {
		OSSL_LIB_CTX *lib = libs[l];
		struct { const char *how; EVP_PKEY *k; } got[3] = {
			{ "PEM_read_bio_PrivateKey", pem_read(lib, pem, plen) },
			{ "OSSL_DECODER PEM", dec_read(lib, "PEM", NULL, EVP_PKEY_KEYPAIR, pem, plen) },
			{ "OSSL_DECODER DER", dec_read(lib, "DER", NULL, EVP_PKEY_KEYPAIR, der, dlen) },
		};

		for (int i = 0; i < 3; i++) {
			EVP_PKEY *k = got[i].k;
			unsigned char sig[8192];
			size_t siglen = sizeof(sig);
			/* rind alone: rind decoded it; with the default provider, either may */
			int byrind = k && !strcmp(prov_of(k), "rind");

			result(same_pub(k, kt, spki, n) && (lib == dlib || byrind) &&
			       sign(k, lib, kt->md, sig, &siglen) && verify(orig, dlib, kt->md, sig, siglen),
			       "%s PKCS#8, %s, %s: decodes (%s), signs, the original key verifies", kt->label,
			       got[i].how, libname(lib), k ? prov_of(k) : "no key");
			EVP_PKEY_free(k);
		}
	}
	OPENSSL_free(pem);
	OPENSSL_free(der);
}

/* Each malformed block fails, with either call, on either context, saying why. */
static void test_malformed(const unsigned char *p256spki, int n, const unsigned char *x25519spki, int xn)
{
	char hex[1024], badpt[1024], *h = hex;
	size_t i;

	for (int j = 0; j < n && j < 500; j++)
		h += sprintf(h, "%02x", p256spki[j]);
	/* the same SPKI with its point's first byte 04 -> 05 (not a point encoding) */
	strcpy(badpt, hex);
	badpt[strlen(badpt) - 129] = '5';
	char bodies[12][1400];
	const char *why[12];
	int nb = 0;

#define BODY(w, ...) do { snprintf(bodies[nb], sizeof(bodies[nb]), __VA_ARGS__); why[nb++] = (w); } while (0)
	BODY("version other than 1", "rind-key-ref 2\nname web\nspki %s\n", hex);
	BODY("no key name", "rind-key-ref 1\nsocket /run/rindd.sock\nspki %s\n", hex);
	BODY("no key name", "rind-key-ref 1\nname \nspki %s\n", hex);
	BODY("no public key", "rind-key-ref 1\nname web\n");
	BODY("even number of hex digits", "rind-key-ref 1\nname web\nspki %s0\n", hex);
	BODY("even number of hex digits", "rind-key-ref 1\nname web\nspki %.*szz\n", (int)strlen(hex) - 2, hex);
	BODY("a field given twice", "rind-key-ref 1\nname web\nname other\nspki %s\n", hex);
	BODY("not a public key of a type rind knows", "rind-key-ref 1\nname web\nspki 3003020100\n");
	BODY("does not decode", "rind-key-ref 1\nname web\nspki %s\n", badpt);
	h = hex;
	for (int j = 0; j < xn; j++)
		h += sprintf(h, "%02x", x25519spki[j]);
	BODY("X25519 keys do not sign", "rind-key-ref 1\nname kx\nspki %s\n", hex);
	BODY("no 'rind-key-ref' line first", "name web\nrind-key-ref 1\nspki %s\n", hex);
#undef BODY

	for (i = 0; i < (size_t)nb + 1; i++) {
		size_t blen;
		char *pem;
		const char *w;

		if (i < (size_t)nb) {
			blen = strlen(bodies[i]);
			pem = ref_pem(bodies[i], blen);
			w = why[i];
		} else {
			/* a NUL inside the text */
			char nul[] = "rind-key-ref 1\nname web\0\nspki 00\n";

			pem = ref_pem(nul, sizeof(nul) - 1);
			w = "NUL byte";
		}
		for (int l = 0; l < 2; l++) {
			OSSL_LIB_CTX *lib = l ? rlib : dlib;
			EVP_PKEY *k = pem_read(lib, pem, strlen(pem));
			int said = error_says(w);

			result(!k && said, "malformed key reference %zu ('%s'), PEM_read_bio_PrivateKey, %s: refused, saying so",
			       i, w, libname(lib));
			EVP_PKEY_free(k);
			k = dec_read(lib, "PEM", NULL, EVP_PKEY_KEYPAIR, pem, strlen(pem));
			said = error_says(w);
			result(!k && said, "malformed key reference %zu ('%s'), OSSL_DECODER, %s: refused, saying so",
			       i, w, libname(lib));
			EVP_PKEY_free(k);
		}
		free(pem);
	}
}

int main(int argc, char **argv)
{
	OSSL_PROVIDER *pd, *pr, *rr;
	EVP_PKEY *p256 = NULL, *x25519;
	unsigned char *p256spki = NULL, *xspki;
	int p256n = 0, xn;

	if (argc < 2) {
		fprintf(stderr, "usage: keyref_evp MODULE_DIR\n");
		return 2;
	}
	dlib = OSSL_LIB_CTX_new();
	rlib = OSSL_LIB_CTX_new();
	if (!dlib || !rlib || !(pd = OSSL_PROVIDER_load(dlib, "default")) || !(pr = load_rind(dlib, argv[1])) ||
	    !(rr = load_rind(rlib, argv[1])))
		die("loading the providers");
	/* rind alone: no decoder, key management or signature of another provider */
	result(!OSSL_PROVIDER_available(rlib, "default") && !OSSL_PROVIDER_available(rlib, "base"),
	       "the rind-only context has no default or base provider");
	for (size_t t = 0; t < NKT; t++) {
		EVP_PKEY *k = keygen(&kts[t]);
		int n;
		unsigned char *spki = spki_of(k, &n);

		if (!spki)
			die("SPKI");
		test_ref(&kts[t], k, spki, n);
		test_pkcs8(&kts[t], k, spki, n);
		if (t == 1) {
			p256 = k;
			p256spki = spki;
			p256n = n;
			continue;
		}
		OPENSSL_free(spki);
		EVP_PKEY_free(k);
	}
	x25519 = EVP_PKEY_Q_keygen(dlib, "provider=default", "X25519");
	if (!x25519 || !(xspki = spki_of(x25519, &xn)))
		die("X25519 key");
	test_malformed(p256spki, p256n, xspki, xn);
	OPENSSL_free(xspki);
	EVP_PKEY_free(x25519);
	OPENSSL_free(p256spki);
	EVP_PKEY_free(p256);
	OSSL_PROVIDER_unload(pr);
	OSSL_PROVIDER_unload(pd);
	OSSL_PROVIDER_unload(rr);
	OSSL_LIB_CTX_free(dlib);
	OSSL_LIB_CTX_free(rlib);
	return results_status();
}
