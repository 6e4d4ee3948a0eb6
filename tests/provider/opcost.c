// SPDX-License-Identifier: MIT
/*
 * What one operation costs through rind.so, for callgrind: a fixed
 * workload, run N times with instruction counting on only around the loop
 * (valgrind --tool=callgrind --collect-atstart=no counts instructions,
 * whatever the machine's load), so that total Ir / N is the cost of one.
 *
 *   opcost MODULE_DIR OP N [CERT KEY]
 *
 * OP is one of
 *   tls13    a TLS 1.3 full handshake in memory (X25519, the certificate's
 *            signature), the server on a library context with rind and the
 *            default provider and "?provider=rind" (as bench-handshake.sh's
 *            openssl.cnf), the client on its own library context with the
 *            default provider only: only the server's side goes through
 *            rind (CERT KEY: PEM files);
 *   kdf13    one TLS 1.3 key-schedule step as libssl does it: fetch-free
 *            EVP_KDF_CTX_new + EVP_KDF_derive (expand-label, SHA-384) + free;
 *   extract  the TLS 1.3 extract step with a previous secret (SHA-256);
 *   hkdf     HKDF extract-and-expand, SHA-256, 42 bytes;
 *   mac      EVP_MAC HMAC-SHA-256: new ctx, init with key, 64 bytes, final, free;
 *   aead     AES-128-GCM: one 1024-byte record sealed as libssl does (IV
 *            per record, AAD, data, final, get tag) on one context;
 *   aeadnew  a context per message: new, key, seal, free;
 *   digest   EVP_Digest SHA-256 of 64 bytes (ctx, init, update, final);
 *   sign     EVP_DigestSign with the KEY (ECDSA P-256 or Ed25519), 64 bytes;
 *   hs       opcost MODULE_DIR hs N CERT KEY GROUP stock|rind: a TLS 1.3
 *            full handshake in memory with both sides on one library
 *            context, the default provider only ("stock") or rind and the
 *            default provider with "?provider=rind" ("rind"), GROUP the
 *            only group offered (x25519, X25519MLKEM768); each side's work
 *            is done in its own functions (srv_*, cli_*), so that
 *            callgrind_annotate --inclusive=yes gives the server's and the
 *            client's instructions apart.
 * Every result is checked against the default provider (a wrong answer
 * exits 1): the loop measures operations that work.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else	/* no valgrind headers: the loop runs, uncounted */
#define CALLGRIND_ZERO_STATS do { } while (0)
#define CALLGRIND_TOGGLE_COLLECT do { } while (0)
#endif

static OSSL_LIB_CTX *rlib;	/* rind, and the default provider behind it */
static const char *PQ = "provider=rind";

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "opcost: %s\n", what);
	ERR_print_errors_fp(stderr);
	exit(1);
}

static int kdf13(OSSL_LIB_CTX *lib, const char *pq, const char *md, int mode, unsigned char *out, size_t n)
{
	static const unsigned char secret[48] = { 1, 2, 3 }, data[48] = { 4, 5 };
	EVP_KDF *k = EVP_KDF_fetch(lib, "TLS13-KDF", pq);
	EVP_KDF_CTX *c = k ? EVP_KDF_CTX_new(k) : NULL;
	OSSL_PARAM p[8], *q = p;
	int ok;

	*q++ = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
	*q++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)md, 0);
	*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PREFIX, "tls13 ", 6);
	*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_LABEL, "c hs traffic", 12);
	if (mode == EVP_KDF_HKDF_MODE_EXPAND_ONLY) {
		*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)secret, n);
		*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_DATA, (void *)data, n);
	} else {
		*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)secret, n);
		*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)data, n);
	}
	*q = OSSL_PARAM_construct_end();
	ok = c && EVP_KDF_derive(c, out, n, p) > 0;
	EVP_KDF_CTX_free(c);
	EVP_KDF_free(k);
	return ok;
}

static int hkdf(OSSL_LIB_CTX *lib, const char *pq, unsigned char *out)
{
	EVP_KDF *k = EVP_KDF_fetch(lib, "HKDF", pq);
	EVP_KDF_CTX *c = k ? EVP_KDF_CTX_new(k) : NULL;
	OSSL_PARAM p[5];
	int ok;

	p[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, "SHA256", 0);
	p[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, "input key material", 18);
	p[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, "salt", 4);
	p[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, "info", 4);
	p[4] = OSSL_PARAM_construct_end();
	ok = c && EVP_KDF_derive(c, out, 42, p) > 0;
	EVP_KDF_CTX_free(c);
	EVP_KDF_free(k);
	return ok;
}

static int mac(OSSL_LIB_CTX *lib, const char *pq, unsigned char *out)
{
	static const unsigned char key[32] = { 9 }, msg[64] = { 7 };
	EVP_MAC *m = EVP_MAC_fetch(lib, "HMAC", pq);
	EVP_MAC_CTX *c = m ? EVP_MAC_CTX_new(m) : NULL;
	OSSL_PARAM p[2];
	size_t n = 0;
	int ok;

	p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA256", 0);
	p[1] = OSSL_PARAM_construct_end();
	ok = c && EVP_MAC_init(c, key, sizeof(key), p) && EVP_MAC_update(c, msg, sizeof(msg))
		&& EVP_MAC_final(c, out, &n, 32) && n == 32;
	EVP_MAC_CTX_free(c);
	EVP_MAC_free(m);
	return ok;
}

static int digest(OSSL_LIB_CTX *lib, const char *pq, unsigned char *out)
{
	static const unsigned char msg[64] = { 3 };
	EVP_MD *md = EVP_MD_fetch(lib, "SHA256", pq);
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	unsigned int n = 0;
	int ok = md && c && EVP_DigestInit_ex(c, md, NULL) && EVP_DigestUpdate(c, msg, sizeof(msg))
		&& EVP_DigestFinal_ex(c, out, &n) && n == 32;

	EVP_MD_CTX_free(c);
	EVP_MD_free(md);
	return ok;
}

/* A TLS 1.3 record as libssl 3.0 seals it: IV, AAD, data, final, the tag. */
static int seal(EVP_CIPHER_CTX *c, const unsigned char *iv, unsigned char *out, size_t n)
{
	static const unsigned char in[1024] = { 5 }, aad[5] = { 0x17, 3, 3, 4, 0x11 };
	int l = 0, f = 0;

	return EVP_CipherInit_ex(c, NULL, NULL, NULL, iv, 1)
		&& EVP_CipherUpdate(c, NULL, &l, aad, sizeof(aad))
		&& EVP_CipherUpdate(c, out, &l, in, (int)n) && l == (int)n
		&& EVP_CipherFinal_ex(c, out + l, &f)
		&& EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, out + n) > 0;
}

static EVP_CIPHER_CTX *gcm_ctx(OSSL_LIB_CTX *lib, const char *pq, EVP_CIPHER **ciph)
{
	static const unsigned char key[16] = { 8 }, iv[12] = { 1 };
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

	*ciph = EVP_CIPHER_fetch(lib, "AES-128-GCM", pq);
	if (!c || !*ciph || !EVP_CipherInit_ex(c, *ciph, NULL, key, iv, 1))
		die("AES-128-GCM context");
	return c;
}

static int sign(OSSL_LIB_CTX *lib, const char *pq, EVP_PKEY *key, unsigned char *sig, size_t *n)
{
	static const unsigned char msg[64] = { 2 };
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	int ed = EVP_PKEY_is_a(key, "ED25519");
	int ok = c && EVP_DigestSignInit_ex(c, NULL, ed ? NULL : "SHA256", lib, pq, key, NULL)
		&& EVP_DigestSign(c, sig, n, msg, sizeof(msg));

	EVP_MD_CTX_free(c);
	return ok;
}

static EVP_PKEY *read_key(OSSL_LIB_CTX *lib, const char *pq, const char *path)
{
	FILE *f = fopen(path, "r");
	EVP_PKEY *k;

	if (!f)
		die(path);
	k = PEM_read_PrivateKey_ex(f, NULL, NULL, NULL, lib, pq);
	fclose(f);
	if (!k)
		die("key");
	return k;
}

static SSL_CTX *tls_ctx(OSSL_LIB_CTX *lib, const char *pq, int server, const char *cert, const char *key,
			const char *group)
{
	SSL_CTX *c = SSL_CTX_new_ex(lib, pq, server ? TLS_server_method() : TLS_client_method());

	if (!c || !SSL_CTX_set_min_proto_version(c, TLS1_3_VERSION) || !SSL_CTX_set1_groups_list(c, group))
		die("SSL_CTX (group)");
	/* Full handshakes only: no tickets, no cache. */
	SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_OFF);
	SSL_CTX_set_num_tickets(c, 0);
	if (server && (SSL_CTX_use_certificate_chain_file(c, cert) != 1
		       || SSL_CTX_use_PrivateKey_file(c, key, SSL_FILETYPE_PEM) != 1))
		die("certificate or key");
	return c;
}

/* One handshake over a BIO pair, then one application record each way. */
static int handshake(SSL_CTX *sc, SSL_CTX *cc)
{
	SSL *s = SSL_new(sc), *c = SSL_new(cc);
	BIO *bs, *bc;
	int i, sd = 0, cd = 0, ok = 0;
	char buf[16];

	if (!s || !c || !BIO_new_bio_pair(&bs, 0, &bc, 0))
		die("SSL");
	SSL_set_bio(s, bs, bs);
	SSL_set_bio(c, bc, bc);
	SSL_set_accept_state(s);
	SSL_set_connect_state(c);
	for (i = 0; i < 20 && !(sd && cd); i++) {
		if (!cd) {
			int r = SSL_do_handshake(c);
			if (r == 1)
				cd = 1;
			else if (SSL_get_error(c, r) != SSL_ERROR_WANT_READ)
				break;
		}
		if (!sd) {
			int r = SSL_do_handshake(s);
			if (r == 1)
				sd = 1;
			else if (SSL_get_error(s, r) != SSL_ERROR_WANT_READ)
				break;
		}
	}
	if (sd && cd && SSL_write(c, "ping", 4) == 4 && SSL_read(s, buf, sizeof(buf)) == 4
	    && SSL_write(s, "pong", 4) == 4 && SSL_read(c, buf, sizeof(buf)) == 4 && !memcmp(buf, "pong", 4))
		ok = 1;
	SSL_free(s);
	SSL_free(c);
	return ok;
}

/*
 * The "hs" op: each side's calls in its own never-inlined functions, so
 * that their inclusive costs split the handshake by side.
 */
/* gcc's noipa: not inlined, and the identical srv_/cli_ pairs not folded into one */
#if defined(__clang__)
#define SIDE_FN __attribute__((noinline))
#else
#define SIDE_FN __attribute__((noipa))
#endif
static SIDE_FN SSL *srv_new(SSL_CTX *c, BIO **b) { SSL *s = SSL_new(c); if (s) { SSL_set_bio(s, *b, *b); SSL_set_accept_state(s); } return s; }
static SIDE_FN SSL *cli_new(SSL_CTX *c, BIO **b) { SSL *s = SSL_new(c); if (s) { SSL_set_bio(s, *b, *b); SSL_set_connect_state(s); } return s; }
static SIDE_FN int srv_step(SSL *s) { int r = SSL_do_handshake(s); return r == 1 ? 1 : SSL_get_error(s, r) == SSL_ERROR_WANT_READ ? 0 : -1; }
static SIDE_FN int cli_step(SSL *s) { int r = SSL_do_handshake(s); return r == 1 ? 1 : SSL_get_error(s, r) == SSL_ERROR_WANT_READ ? 0 : -1; }
static SIDE_FN int srv_app(SSL *s, char *buf, size_t n) { return SSL_read(s, buf, (int)n) == 4 && SSL_write(s, "pong", 4) == 4; }
static SIDE_FN int cli_app(SSL *s, char *buf, size_t n) { return SSL_write(s, "ping", 4) == 4; (void)buf; (void)n; }
static SIDE_FN int cli_app2(SSL *s, char *buf, size_t n) { return SSL_read(s, buf, (int)n) == 4 && !memcmp(buf, "pong", 4); }
static SIDE_FN void srv_free(SSL *s) { SSL_free(s); }
static SIDE_FN void cli_free(SSL *s) { SSL_free(s); }

static int hs_once(SSL_CTX *sc, SSL_CTX *cc)
{
	BIO *bs, *bc;
	SSL *s, *c;
	int i, sd = 0, cd = 0, ok = 0;
	char buf[16];

	if (!BIO_new_bio_pair(&bs, 0, &bc, 0) || !(s = srv_new(sc, &bs)) || !(c = cli_new(cc, &bc)))
		die("SSL");
	for (i = 0; i < 20 && !(sd && cd) && sd >= 0 && cd >= 0; i++) {
		if (!cd)
			cd = cli_step(c);
		if (!sd && cd >= 0)
			sd = srv_step(s);
	}
	if (sd == 1 && cd == 1 && cli_app(c, buf, sizeof(buf)) && srv_app(s, buf, sizeof(buf))
	    && cli_app2(c, buf, sizeof(buf)))
		ok = 1;
	srv_free(s);
	cli_free(c);
	return ok;
}

int main(int argc, char **argv)
{
	unsigned char a[2048], b[2048];
	EVP_CIPHER *ciph = NULL;
	EVP_CIPHER_CTX *cc = NULL;
	EVP_PKEY *key = NULL;
	SSL_CTX *sctx = NULL, *cctx = NULL;
	OSSL_PROVIDER *pr, *pd;
	const char *op;
	long n, i;
	size_t sl;
	int ok = 1, toggle;

	if (argc < 4)
		die("usage: opcost MODULE_DIR OP N [CERT KEY]");
	op = argv[2];
	n = atol(argv[3]);
	rlib = OSSL_LIB_CTX_new();
	/*
	 * "hs" (or OPCOST_DEFAULT_FIRST set): the default provider loaded
	 * before rind, the order of provider/README.md's openssl.cnf and of
	 * bench-handshake.sh's.  The order decides whose decoder libcrypto
	 * 3.0 tries first on a certificate's key (the later provider's): with
	 * rind first, the default provider decodes the peer's certificate key
	 * and every verification exports it to rind; OPCOST_RIND_FIRST=1
	 * measures that order.
	 */
	if ((!strcmp(argv[2], "hs") && !getenv("OPCOST_RIND_FIRST")) || getenv("OPCOST_DEFAULT_FIRST")) {
		if (!rlib || !OSSL_PROVIDER_set_default_search_path(rlib, argv[1])
		    || !(pd = OSSL_PROVIDER_load(rlib, "default")) || !(pr = OSSL_PROVIDER_load(rlib, "rind")))
			die("loading rind.so");
	} else if (!rlib || !OSSL_PROVIDER_set_default_search_path(rlib, argv[1]) || !(pr = OSSL_PROVIDER_load(rlib, "rind"))
		   || !(pd = OSSL_PROVIDER_load(rlib, "default")))
		die("loading rind.so");
	/* Reference answers from the default provider, and a warm-up through rind. */
	if (!strcmp(op, "kdf13")) {
		ok = kdf13(NULL, NULL, "SHA384", EVP_KDF_HKDF_MODE_EXPAND_ONLY, a, 48)
			&& kdf13(rlib, PQ, "SHA384", EVP_KDF_HKDF_MODE_EXPAND_ONLY, b, 48) && !memcmp(a, b, 48);
	} else if (!strcmp(op, "extract")) {
		ok = kdf13(NULL, NULL, "SHA256", EVP_KDF_HKDF_MODE_EXTRACT_ONLY, a, 32)
			&& kdf13(rlib, PQ, "SHA256", EVP_KDF_HKDF_MODE_EXTRACT_ONLY, b, 32) && !memcmp(a, b, 32);
	} else if (!strcmp(op, "hkdf")) {
		ok = hkdf(NULL, NULL, a) && hkdf(rlib, PQ, b) && !memcmp(a, b, 42);
	} else if (!strcmp(op, "mac")) {
		ok = mac(NULL, NULL, a) && mac(rlib, PQ, b) && !memcmp(a, b, 32);
	} else if (!strcmp(op, "digest")) {
		ok = digest(NULL, NULL, a) && digest(rlib, PQ, b) && !memcmp(a, b, 32);
	} else if (!strcmp(op, "aead") || !strcmp(op, "aeadnew")) {
		static const unsigned char iv[12] = { 1 };
		EVP_CIPHER *dc;
		EVP_CIPHER_CTX *d = gcm_ctx(NULL, NULL, &dc);

		cc = gcm_ctx(rlib, PQ, &ciph);
		ok = seal(d, iv, a, 1024) && seal(cc, iv, b, 1024) && !memcmp(a, b, 1040);
		EVP_CIPHER_CTX_free(d);
		EVP_CIPHER_free(dc);
	} else if (!strcmp(op, "sign")) {
		if (argc < 6)
			die("sign needs CERT KEY");
		key = read_key(rlib, PQ, argv[5]);
		sl = sizeof(b);
		ok = sign(rlib, PQ, key, b, &sl);
	} else if (!strcmp(op, "tls13")) {
		if (argc < 6)
			die("tls13 needs CERT KEY");
		sctx = tls_ctx(rlib, "?provider=rind", 1, argv[4], argv[5], "x25519");
		cctx = tls_ctx(NULL, NULL, 0, NULL, NULL, "x25519");
		ok = handshake(sctx, cctx);
	} else if (!strcmp(op, "hs")) {
		int stock;

		if (argc < 8)
			die("hs needs CERT KEY GROUP stock|rind");
		stock = !strcmp(argv[7], "stock");
		if (!stock && strcmp(argv[7], "rind"))
			die("hs: stock or rind");
		/* rind as provider/README.md configures it: preferred, its DRBG */
		if (!stock && (!EVP_set_default_properties(rlib, "?provider=rind")
			       || !RAND_set_DRBG_type(rlib, "RIND-DRBG", "provider=rind", NULL, NULL)))
			die("rind preferred");
		/* stock: a library context of its own with the default provider only */
		sctx = tls_ctx(stock ? NULL : rlib, stock ? NULL : "?provider=rind", 1, argv[4], argv[5], argv[6]);
		cctx = tls_ctx(stock ? NULL : rlib, stock ? NULL : "?provider=rind", 0, NULL, NULL, argv[6]);
		ok = hs_once(sctx, cctx) && hs_once(sctx, cctx);
	} else {
		die("unknown OP");
	}
	if (!ok)
		die("warm-up: rind's answer is wrong or missing");

	/*
	 * OPCOST_NOTOGGLE: counting is left to valgrind's --toggle-collect
	 * (e.g. 'srv_*' for the server's side of "hs").
	 */
	toggle = !getenv("OPCOST_NOTOGGLE");
	CALLGRIND_ZERO_STATS;	/* the warm-up (self-tests, tables) not counted */
	if (toggle)
		CALLGRIND_TOGGLE_COLLECT;
	for (i = 0; i < n && ok; i++) {
		if (!strcmp(op, "kdf13"))
			ok = kdf13(rlib, PQ, "SHA384", EVP_KDF_HKDF_MODE_EXPAND_ONLY, b, 48);
		else if (!strcmp(op, "extract"))
			ok = kdf13(rlib, PQ, "SHA256", EVP_KDF_HKDF_MODE_EXTRACT_ONLY, b, 32);
		else if (!strcmp(op, "hkdf"))
			ok = hkdf(rlib, PQ, b);
		else if (!strcmp(op, "mac"))
			ok = mac(rlib, PQ, b);
		else if (!strcmp(op, "digest"))
			ok = digest(rlib, PQ, b);
		else if (!strcmp(op, "aead"))
			ok = seal(cc, b, b, 1024);
		else if (!strcmp(op, "aeadnew")) {
			EVP_CIPHER_CTX *c = gcm_ctx(rlib, PQ, &ciph);

			EVP_CIPHER_free(ciph);
			ok = seal(c, a, b, 1024);
			EVP_CIPHER_CTX_free(c);
		} else if (!strcmp(op, "sign")) {
			sl = sizeof(b);
			ok = sign(rlib, PQ, key, b, &sl);
		} else if (!strcmp(op, "hs"))
			ok = hs_once(sctx, cctx);
		else
			ok = handshake(sctx, cctx);
	}
	if (toggle)
		CALLGRIND_TOGGLE_COLLECT;
	if (!ok)
		die("an operation failed in the loop");
	printf("opcost: %s x %ld ok\n", op, n);
	fflush(stdout);
	EVP_CIPHER_CTX_free(cc);
	EVP_CIPHER_free(ciph);
	EVP_PKEY_free(key);
	SSL_CTX_free(sctx);
	SSL_CTX_free(cctx);
	OSSL_PROVIDER_unload(pr);
	OSSL_PROVIDER_unload(pd);
	OSSL_LIB_CTX_free(rlib);
	return 0;
}
