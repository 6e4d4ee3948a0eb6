// SPDX-License-Identifier: MIT
/*
 * ML-DSA through rind.so, driven by a program written against OpenSSL's
 * EVP API with OpenSSL 3.5's parameter names (Debian's 3.0 has no ML-DSA
 * of its own to compare with), checked against
 *  - Wycheproof's mldsa_{44,65,87}_{sign_seed,sign_noseed,verify} files:
 *    keys from the seed ("seed"), the expanded key ("priv"), PKCS#8 and
 *    SPKI DER through the provider's decoders; deterministic signatures
 *    ("deterministic", and "test-entropy" as 32 zero bytes) byte for byte
 *    with the file's, with its context string ("context-string");
 *    verification of every case, valid and invalid;
 *  - librind itself: keys and signatures crossing between the provider
 *    and the library both ways, with and without a context;
 *  - what is refused: a digest (HashML-DSA), an external mu, raw message
 *    encoding, caller's randomness, a context longer than 255 bytes,
 *    EVP_PKEY_sign (a caller's digest).
 * Usage: mldsa_evp MODULE_DIR WYCHEPROOF_DIR.  Prints "ok: ..." or
 * "FAIL: ..." per check (run.sh counts them) and exits 1 on a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <rind/crypto.h>
#include "evp_result.h"

/*
 * OpenSSL 3.5's parameter names, where the headers are older (3.0 has no
 * ML-DSA).  Written out here, not taken from provider/key.h: this program
 * stands for one written against 3.5, and a name the provider got wrong
 * must fail here rather than be shared with it.
 */
#if OPENSSL_VERSION_NUMBER < 0x30500000L
#define OSSL_PKEY_PARAM_ML_DSA_SEED "seed"
#define OSSL_SIGNATURE_PARAM_CONTEXT_STRING "context-string"
#define OSSL_SIGNATURE_PARAM_DETERMINISTIC "deterministic"
#define OSSL_SIGNATURE_PARAM_TEST_ENTROPY "test-entropy"
#define OSSL_SIGNATURE_PARAM_MU "mu"
#define OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING "message-encoding"
#endif

static const char *const PQ = "provider=rind";

static unsigned char *hex(json_t *o, const char *key, size_t *len)
{
	const char *h = json_string_value(json_object_get(o, key));
	unsigned char *b;
	size_t i, n;

	*len = 0;
	if (!h)
		return NULL;
	n = strlen(h) / 2;
	b = malloc(n ? n : 1);
	for (i = 0; i < n; i++) {
		unsigned int v;

		sscanf(h + 2 * i, "%2x", &v);
		b[i] = (unsigned char)v;
	}
	*len = n;
	return b;
}

static const char *name_of(int bits)
{
	return bits == 44 ? "ML-DSA-44" : bits == 65 ? "ML-DSA-65" : "ML-DSA-87";
}

/* A key from one OSSL_PARAM ("seed", "priv" or "pub"); NULL if refused. */
static EVP_PKEY *from_param(int bits, const char *key, const unsigned char *d, size_t n, int priv)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, name_of(bits), PQ);
	EVP_PKEY *k = NULL;
	OSSL_PARAM p[2] = {
		OSSL_PARAM_octet_string(key, (void *)d, n), OSSL_PARAM_END
	};

	if (c && EVP_PKEY_fromdata_init(c) > 0)
		EVP_PKEY_fromdata(c, &k, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, p);
	EVP_PKEY_CTX_free(c);
	return k;
}

/* A key pair from a seed and an expanded key given together; NULL if refused. */
static EVP_PKEY *from_seed_and_priv(int bits, const unsigned char *seed, const unsigned char *d, size_t n)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, name_of(bits), PQ);
	EVP_PKEY *k = NULL;
	OSSL_PARAM p[3] = {
		OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ML_DSA_SEED, (void *)seed, 32),
		OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, (void *)d, n), OSSL_PARAM_END
	};

	if (c && EVP_PKEY_fromdata_init(c) > 0)
		EVP_PKEY_fromdata(c, &k, EVP_PKEY_KEYPAIR, p);
	EVP_PKEY_CTX_free(c);
	return k;
}

/* A key from DER through the provider's decoders (PKCS#8 or SPKI). */
static EVP_PKEY *from_der(const unsigned char *d, size_t n, int priv)
{
	EVP_PKEY *k = NULL;
	OSSL_DECODER_CTX *dc = OSSL_DECODER_CTX_new_for_pkey(&k, "DER", NULL, NULL,
							     priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, NULL, PQ);

	if (dc)
		OSSL_DECODER_from_data(dc, &d, &n);
	OSSL_DECODER_CTX_free(dc);
	return k;
}

/* DigestSign with the options; the signature length, or -1. */
static long sign(EVP_PKEY *k, const unsigned char *ctx, size_t cl, int det, int entropy,
		 const unsigned char *m, size_t ml, unsigned char *sig, size_t cap)
{
	EVP_MD_CTX *mc = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pc = NULL;
	unsigned char zero[32] = { 0 };
	OSSL_PARAM p[4];
	int i = 0, ok;
	size_t n = cap;

	if (ctx)
		p[i++] = OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_CONTEXT_STRING, (void *)ctx, cl);
	if (det)
		p[i++] = OSSL_PARAM_construct_int(OSSL_SIGNATURE_PARAM_DETERMINISTIC, &det);
	if (entropy)
		p[i++] = OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_TEST_ENTROPY, zero, 32);
	p[i] = OSSL_PARAM_construct_end();
	ok = EVP_DigestSignInit_ex(mc, &pc, NULL, NULL, PQ, k, NULL) > 0
		&& EVP_PKEY_CTX_set_params(pc, p) > 0
		&& EVP_DigestSign(mc, sig, &n, m, ml) > 0;
	EVP_MD_CTX_free(mc);
	return ok ? (long)n : -1;
}

static int verify(EVP_PKEY *k, const unsigned char *ctx, size_t cl, const unsigned char *m, size_t ml,
		  const unsigned char *sig, size_t sl)
{
	EVP_MD_CTX *mc = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pc = NULL;
	OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
	int ok;

	if (ctx)
		p[0] = OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_CONTEXT_STRING, (void *)ctx, cl);
	ok = EVP_DigestVerifyInit_ex(mc, &pc, NULL, NULL, PQ, k, NULL) > 0
		&& EVP_PKEY_CTX_set_params(pc, p) > 0
		&& EVP_DigestVerify(mc, sig, sl, m, ml) == 1;
	EVP_MD_CTX_free(mc);
	ERR_clear_error();
	return ok;
}

static int same_pub(EVP_PKEY *k, const unsigned char *pk, size_t pkl)
{
	unsigned char buf[2592];
	size_t n = 0;

	return EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_PUB_KEY, buf, sizeof(buf), &n)
		&& n == pkl && !memcmp(buf, pk, n);
}

/* ---- Wycheproof ---- */

static void wp_sign(const char *dir, int bits, int seeded)
{
	char file[512];
	json_t *root, *g, *t;
	size_t gi, ti;
	int det = 0, verified = 0, refused = 0, skipped = 0, bad = 0, keys = 0;

	snprintf(file, sizeof(file), "%s/mldsa_%d_sign_%s_test.json", dir, bits, seeded ? "seed" : "noseed");
	root = json_load_file(file, 0, NULL);
	if (!root) {
		result(0, "%s: cannot read", file);
		return;
	}
	json_array_foreach(json_object_get(root, "testGroups"), gi, g) {
		size_t kl, pkl, p8l;
		unsigned char *kb = hex(g, seeded ? "privateSeed" : "privateKey", &kl);
		unsigned char *pk = hex(g, "publicKey", &pkl), *p8 = hex(g, "privateKeyPkcs8", &p8l);
		EVP_PKEY *k = from_param(bits, seeded ? OSSL_PKEY_PARAM_ML_DSA_SEED : OSSL_PKEY_PARAM_PRIV_KEY, kb, kl, 1);
		EVP_PKEY *k8 = p8 ? from_der(p8, p8l, 1) : NULL;

		if (k) {
			keys++;
			if (!same_pub(k, pk, pkl)) {
				bad++;
				printf("  %s group %zu: public key differs\n", file, gi);
			}
		}
		if (k && !seeded) {
			/* this expanded key with a seed of another key: not one key, refused */
			unsigned char other[32];
			EVP_PKEY *kx;

			memset(other, 0x5c, sizeof(other));
			kx = from_seed_and_priv(bits, other, kb, kl);
			if (kx) {
				bad++;
				printf("  %s group %zu: a seed and another key's expanded key accepted\n", file, gi);
			}
			EVP_PKEY_free(kx);
		}
		/* the PKCS#8 form decodes to the same key, or is refused with it */
		if (p8 && (!k != !k8 || (k8 && !same_pub(k8, pk, pkl)))) {
			bad++;
			printf("  %s group %zu: PKCS#8 and raw disagree\n", file, gi);
		}
		json_array_foreach(json_object_get(g, "tests"), ti, t) {
			int tc = (int)json_integer_value(json_object_get(t, "tcId"));
			int valid = !strcmp(json_string_value(json_object_get(t, "result")), "valid");
			size_t ml, cl, sl, rl;
			unsigned char *m = hex(t, "msg", &ml), *ctx = hex(t, "ctx", &cl);
			unsigned char *want = hex(t, "sig", &sl), *rnd = hex(t, "rnd", &rl);
			unsigned char sig[4627];
			long n;

			if (!m) {
				skipped++;	/* mu-only: an external mu, which rind refuses */
			} else if (!valid) {
				/* a key of the wrong length or a context too long: refused */
				n = k ? sign(k, ctx, cl, 1, 0, m, ml, sig, sizeof(sig)) : -1;
				if (n >= 0) {
					bad++;
					printf("  %s tcId %d: invalid case signed\n", file, tc);
				}
				refused++;
			} else if (!k) {
				bad++;
				printf("  %s tcId %d: key refused\n", file, tc);
			} else {
				if (!rnd) {
					/* deterministic: the file's bytes (by both parameters) */
					n = sign(k, ctx, cl, 1, 0, m, ml, sig, sizeof(sig));
					if (n != (long)sl || memcmp(sig, want, sl)) {
						bad++;
						printf("  %s tcId %d: deterministic signature differs\n", file, tc);
					}
					n = sign(k8 ? k8 : k, ctx, cl, 0, 1, m, ml, sig, sizeof(sig));
					if (n != (long)sl || memcmp(sig, want, sl)) {
						bad++;
						printf("  %s tcId %d: test-entropy 0 signature differs\n", file, tc);
					}
					det++;
				}
				/* the file's signature verifies, hedged signatures too */
				n = sign(k, ctx, cl, 0, 0, m, ml, sig, sizeof(sig));
				if (!verify(k, ctx, cl, m, ml, want, sl) || n != (long)sl
				    || !verify(k, ctx, cl, m, ml, sig, (size_t)n)) {
					bad++;
					printf("  %s tcId %d: verification failed\n", file, tc);
				}
				verified++;
			}
			free(m);
			free(ctx);
			free(want);
			free(rnd);
		}
		EVP_PKEY_free(k);
		EVP_PKEY_free(k8);
		free(kb);
		free(pk);
		free(p8);
	}
	json_decref(root);
	result(!bad && det > 0 && verified > 0,
	       "mldsa_%d_sign_%s: %d keys, %d deterministic signatures byte for byte, %d verified, "
	       "%d invalid refused, %d mu-only skipped (external mu is refused)",
	       bits, seeded ? "seed" : "noseed", keys, det, verified, refused, skipped);
}

static void wp_verify(const char *dir, int bits)
{
	char file[512];
	json_t *root, *g, *t;
	size_t gi, ti;
	int valid_n = 0, invalid_n = 0, bad = 0;

	snprintf(file, sizeof(file), "%s/mldsa_%d_verify_test.json", dir, bits);
	root = json_load_file(file, 0, NULL);
	if (!root) {
		result(0, "%s: cannot read", file);
		return;
	}
	json_array_foreach(json_object_get(root, "testGroups"), gi, g) {
		size_t pkl, derl;
		unsigned char *pk = hex(g, "publicKey", &pkl), *der = hex(g, "publicKeyDer", &derl);
		EVP_PKEY *k = from_param(bits, OSSL_PKEY_PARAM_PUB_KEY, pk, pkl, 0);
		EVP_PKEY *kd = der ? from_der(der, derl, 0) : NULL;

		if (der && !k != !kd) {
			bad++;
			printf("  %s group %zu: SPKI and raw disagree\n", file, gi);
		}
		json_array_foreach(json_object_get(g, "tests"), ti, t) {
			int tc = (int)json_integer_value(json_object_get(t, "tcId"));
			int valid = !strcmp(json_string_value(json_object_get(t, "result")), "valid");
			size_t ml, cl, sl;
			unsigned char *m = hex(t, "msg", &ml), *ctx = hex(t, "ctx", &cl), *sig = hex(t, "sig", &sl);
			int got = k && verify(k, ctx, cl, m, ml, sig, sl);
			int got2 = kd ? verify(kd, ctx, cl, m, ml, sig, sl) : got;

			if (got != valid || got2 != valid) {
				bad++;
				printf("  %s tcId %d: %s\n", file, tc, valid ? "valid signature refused" : "invalid case accepted");
			}
			valid ? valid_n++ : invalid_n++;
			free(m);
			free(ctx);
			free(sig);
		}
		EVP_PKEY_free(k);
		EVP_PKEY_free(kd);
		free(pk);
		free(der);
	}
	json_decref(root);
	result(!bad && valid_n && invalid_n, "mldsa_%d_verify: %d valid accepted, %d invalid refused (raw and SPKI keys)",
	       bits, valid_n, invalid_n);
}

/* ---- against librind ---- */

static void library(int bits)
{
	char alg[16];
	unsigned char seed[32], pub[2592], lpub[2592], sig[4627], lsig[4627], msg[1000], ctx[255];
	unsigned char s2[4627];
	struct crypto_sig *t, *tv;
	EVP_PKEY *k, *kp;
	EVP_PKEY_CTX *gc;
	OSSL_PARAM gp[2];
	size_t n = 0, pl = 0;
	long sl, s2l;
	int ll, lsl, i;

	snprintf(alg, sizeof(alg), "mldsa%d", bits);
	for (i = 0; i < 32; i++)
		seed[i] = (unsigned char)(i * 7 + bits);
	for (i = 0; i < (int)sizeof(msg); i++)
		msg[i] = (unsigned char)(i ^ 0x5a);
	for (i = 0; i < (int)sizeof(ctx); i++)
		ctx[i] = (unsigned char)i;

	/* the provider generates from a seed; the library from the same seed */
	gc = EVP_PKEY_CTX_new_from_name(NULL, name_of(bits), PQ);
	k = NULL;
	gp[0] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_ML_DSA_SEED, seed, 32);
	gp[1] = OSSL_PARAM_construct_end();
	if (!gc || EVP_PKEY_keygen_init(gc) <= 0 || !EVP_PKEY_CTX_set_params(gc, gp) || EVP_PKEY_generate(gc, &k) <= 0)
		k = NULL;
	EVP_PKEY_CTX_free(gc);
	t = crypto_alloc_sig(alg, 0, 0);
	tv = crypto_alloc_sig(alg, 0, 0);
	if (!k || IS_ERR(t) || IS_ERR(tv)) {
		result(0, "%s: provider keygen from a seed / library tfm", name_of(bits));
		return;
	}
	ll = crypto_sig_set_privkey(t, seed, 32) ? -1 : crypto_sig_export_pubkey(t, RIND_KEY_RAW, lpub, sizeof(lpub));
	EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_PUB_KEY, pub, sizeof(pub), &pl);
	result(ll > 0 && (size_t)ll == pl && !memcmp(pub, lpub, pl),
	       "%s: keygen from a seed: provider and library give the same public key", name_of(bits));
	{
		unsigned char s[32];

		result(EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_ML_DSA_SEED, s, sizeof(s), &n) && n == 32
		       && !memcmp(s, seed, 32), "%s: the seed exported as OpenSSL 3.5's \"seed\"", name_of(bits));
	}
	/* deterministic: the provider's and the library's signatures are the same bytes */
	sl = sign(k, ctx, 17, 1, 0, msg, sizeof(msg), sig, sizeof(sig));
	rind_sig_set_context(t, ctx, 17);
	rind_sig_set_deterministic(t, true);
	lsl = crypto_sig_sign(t, msg, sizeof(msg), lsig, sizeof(lsig));
	result(sl > 0 && sl == lsl && !memcmp(sig, lsig, (size_t)sl),
	       "%s: deterministic with a context: provider and library sign the same bytes", name_of(bits));
	/* hedged: the provider signs, the library verifies, and the reverse */
	rind_sig_set_deterministic(t, false);
	rind_sig_set_context(t, ctx, 255);
	sl = sign(k, ctx, 255, 0, 0, msg, sizeof(msg), sig, sizeof(sig));
	s2l = sign(k, ctx, 255, 0, 0, msg, sizeof(msg), s2, sizeof(s2));
	result(sl > 0 && sl == s2l && memcmp(sig, s2, (size_t)sl), "%s: hedged signatures differ", name_of(bits));
	crypto_sig_set_pubkey(tv, pub, (unsigned int)pl);
	rind_sig_set_context(tv, ctx, 255);
	result(sl > 0 && !crypto_sig_verify(tv, sig, (unsigned int)sl, msg, sizeof(msg)),
	       "%s: provider's hedged signature (255-byte context) verified by the library", name_of(bits));
	rind_sig_set_context(tv, ctx, 254);
	result(sl > 0 && crypto_sig_verify(tv, sig, (unsigned int)sl, msg, sizeof(msg)) == -EBADMSG,
	       "%s: ... and not under another context", name_of(bits));
	lsl = crypto_sig_sign(t, msg, sizeof(msg), lsig, sizeof(lsig));
	kp = from_param(bits, OSSL_PKEY_PARAM_PUB_KEY, pub, pl, 0);
	result(lsl > 0 && kp && verify(kp, ctx, 255, msg, sizeof(msg), lsig, (size_t)lsl)
	       && !verify(kp, NULL, 0, msg, sizeof(msg), lsig, (size_t)lsl)
	       && !verify(kp, ctx, 255, msg, sizeof(msg) - 1, lsig, (size_t)lsl),
	       "%s: library's signature verified by the provider (public key alone), not without the context",
	       name_of(bits));
	/* a PKCS#8 / SPKI made by the library, read by the provider's decoders */
	{
		unsigned char der[8192];
		int dl = crypto_sig_export_privkey(t, RIND_KEY_PKCS8_DER, der, sizeof(der));
		EVP_PKEY *k8 = dl > 0 ? from_der(der, (size_t)dl, 1) : NULL;
		int spl = crypto_sig_export_pubkey(t, RIND_KEY_SPKI_DER, der, sizeof(der));
		EVP_PKEY *ks = spl > 0 ? from_der(der, (size_t)spl, 0) : NULL;

		sl = k8 ? sign(k8, NULL, 0, 0, 0, msg, 100, sig, sizeof(sig)) : -1;
		crypto_sig_set_pubkey(tv, pub, (unsigned int)pl);
		rind_sig_set_context(tv, NULL, 0);
		result(k8 && ks && same_pub(k8, pub, pl) && same_pub(ks, pub, pl) && sl > 0
		       && !crypto_sig_verify(tv, sig, (unsigned int)sl, msg, 100) && verify(ks, NULL, 0, msg, 100, sig, (size_t)sl),
		       "%s: the library's PKCS#8 and SPKI DER read by the provider, its key signs", name_of(bits));
		EVP_PKEY_free(k8);
		EVP_PKEY_free(ks);
	}
	/* refused: a digest (HashML-DSA), an external mu, raw encoding, caller's randomness, long context */
	{
		EVP_MD_CTX *mc = EVP_MD_CTX_new();
		EVP_PKEY_CTX *pc = NULL;
		unsigned char rnd[32] = { 1 }, big[256] = { 0 };
		int one = 1, zero = 0, r1, r2, r3, r4, r5, r6;
		OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };

		r1 = EVP_DigestSignInit_ex(mc, NULL, "SHA2-256", NULL, PQ, k, NULL) > 0;
		EVP_MD_CTX_reset(mc);
		ERR_clear_error();
		EVP_DigestSignInit_ex(mc, &pc, NULL, NULL, PQ, k, NULL);
		p[0] = OSSL_PARAM_construct_int(OSSL_SIGNATURE_PARAM_MU, &one);
		r2 = EVP_PKEY_CTX_set_params(pc, p) > 0;
		p[0] = OSSL_PARAM_construct_int(OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING, &zero);
		r3 = EVP_PKEY_CTX_set_params(pc, p) > 0;
		p[0] = OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_TEST_ENTROPY, rnd, 32);
		r4 = EVP_PKEY_CTX_set_params(pc, p) > 0;
		p[0] = OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_CONTEXT_STRING, big, 256);
		r5 = EVP_PKEY_CTX_set_params(pc, p) > 0;
		EVP_MD_CTX_free(mc);
		pc = EVP_PKEY_CTX_new_from_pkey(NULL, k, PQ);
		r6 = pc && EVP_PKEY_sign_init(pc) > 0;
		EVP_PKEY_CTX_free(pc);
		ERR_clear_error();
		result(!r1 && !r2 && !r3 && !r4 && !r5 && !r6,
		       "%s: refused: digest %d, mu %d, raw encoding %d, caller's rnd %d, 256-byte context %d, EVP_PKEY_sign %d",
		       name_of(bits), r1, r2, r3, r4, r5, r6);
	}
	EVP_PKEY_free(k);
	EVP_PKEY_free(kp);
	crypto_free_sig(t);
	crypto_free_sig(tv);
}

int main(int argc, char **argv)
{
	static const int sets[3] = { 44, 65, 87 };
	OSSL_PROVIDER *rind, *def;
	int i;

	if (argc != 3) {
		fprintf(stderr, "usage: mldsa_evp MODULE_DIR WYCHEPROOF_DIR\n");
		return 2;
	}
	if (!(rind = load_rind(NULL, argv[1])) || !(def = OSSL_PROVIDER_load(NULL, "default"))) {
		ERR_print_errors_fp(stderr);
		return 2;
	}
	{
		/* empty input is no key (the X25519 decoder once made a random one of it) */
		static const unsigned char none[1];
		EVP_PKEY *k = from_der(none, 0, 1);

		result(!k, "empty DER decodes to no key");
		EVP_PKEY_free(k);
	}
	for (i = 0; i < 3; i++) {
		library(sets[i]);
		wp_sign(argv[2], sets[i], 1);
		wp_sign(argv[2], sets[i], 0);
		wp_verify(argv[2], sets[i]);
	}
	fflush(stdout);
	OSSL_PROVIDER_unload(def);
	OSSL_PROVIDER_unload(rind);
	return results_status();
}
