// SPDX-License-Identifier: MIT
/*
 * The provider's HMAC, HKDF, TLS13-KDF and TLS1-PRF (provider/hmac.c:
 * keyed states in the context or on the derive's stack, over one shared
 * unkeyed hash tfm per digest) against OpenSSL's default provider, by an
 * EVP program, for what the shell tests cannot reach in one command:
 *  - keys never cross contexts: MAC contexts with different keys
 *    interleaved; a context allocated after one with a key was freed has
 *    no key (init without one fails) and, given one, uses only it; a key
 *    or digest set again replaces the states (the old key's are not used);
 *  - re-init without a key reuses the context's key (EVP semantics), a
 *    digest set after the key, dup in the middle of a message;
 *  - HMAC keys of 0 bytes, one block, longer than a block (hashed first),
 *    every digest, and the digest by each spelling of its name;
 *  - KDF parameters inline (<= 64 bytes) and on the heap, several INFO
 *    and SEED parameters concatenated, duplicates (the first wins, as in
 *    the default provider), dup and reset;
 *  - threads deriving at once over the shared tfms, and a forked child
 *    deriving with the tfms its parent allocated.
 * Usage: kdfmac_evp MODULE_DIR.  Prints "ok: ..." or "FAIL: ..." per check
 * (run.sh counts them) and exits 1 on a failure.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/provider.h>
#include "evp_result.h"

static OSSL_LIB_CTX *rlib;
static const char *const PQ = "provider=rind";

static const char *const mds[] = { "SHA1", "SHA2-224", "SHA2-256", "SHA2-384", "SHA2-512",
				   "SHA3-224", "SHA3-256", "SHA3-384", "SHA3-512" };
#define NMD (sizeof(mds) / sizeof(mds[0]))

static void fill(unsigned char *b, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(seed * 131 + i * 7 + (i >> 3));
}

static EVP_MAC_CTX *mac_ctx(OSSL_LIB_CTX *lib, const char *pq, const char *md)
{
	EVP_MAC *m = EVP_MAC_fetch(lib, "HMAC", pq);
	EVP_MAC_CTX *c = m ? EVP_MAC_CTX_new(m) : NULL;
	OSSL_PARAM p[2];

	EVP_MAC_free(m);
	if (c && md) {
		p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)md, 0);
		p[1] = OSSL_PARAM_construct_end();
		if (!EVP_MAC_CTX_set_params(c, p)) {
			EVP_MAC_CTX_free(c);
			return NULL;
		}
	}
	return c;
}

/* HMAC(key, msg) in one go; 0 if it fails. */
static int hmac(OSSL_LIB_CTX *lib, const char *pq, const char *md, const unsigned char *key, size_t kl,
		const unsigned char *msg, size_t ml, unsigned char *out, size_t *outl)
{
	EVP_MAC_CTX *c = mac_ctx(lib, pq, md);
	int ok = c && EVP_MAC_init(c, key, kl, NULL) && EVP_MAC_update(c, msg, ml)
		&& EVP_MAC_final(c, out, outl, 64);

	EVP_MAC_CTX_free(c);
	return ok;
}

static int same_mac(const char *md, const unsigned char *key, size_t kl, const unsigned char *msg, size_t ml,
		    const unsigned char *got, size_t gotl)
{
	unsigned char want[64];
	size_t wl = 0;

	return hmac(NULL, NULL, md, key, kl, msg, ml, want, &wl) && wl == gotl && !memcmp(want, got, wl);
}

static void test_mac_keys(void)
{
	unsigned char key[300], msg[1000], out[64];
	static const size_t kls[] = { 0, 1, 31, 64, 72, 104, 128, 136, 144, 145, 200, 300 };
	unsigned int i, j;

	fill(msg, sizeof(msg), 1);
	for (i = 0; i < NMD; i++) {
		int good = 1;

		for (j = 0; j < sizeof(kls) / sizeof(kls[0]); j++) {
			size_t ol = 0;

			fill(key, kls[j], 10 + j);
			good &= hmac(rlib, PQ, mds[i], key, kls[j], msg, sizeof(msg), out, &ol)
				&& same_mac(mds[i], key, kls[j], msg, sizeof(msg), out, ol);
		}
		result(good, "HMAC-%s with keys of 0 to 300 bytes (around each block size) as the default provider's", mds[i]);
	}
}

/* Two contexts with different keys, updates interleaved, each its own answer. */
static void test_mac_interleaved(void)
{
	unsigned char k1[32], k2[200], msg[300], o1[64], o2[64];
	EVP_MAC_CTX *a = mac_ctx(rlib, PQ, "SHA2-256"), *b = mac_ctx(rlib, PQ, "SHA2-384");
	size_t l1 = 0, l2 = 0;
	int ok;

	fill(k1, sizeof(k1), 2);
	fill(k2, sizeof(k2), 3);
	fill(msg, sizeof(msg), 4);
	ok = a && b && EVP_MAC_init(a, k1, sizeof(k1), NULL) && EVP_MAC_init(b, k2, sizeof(k2), NULL)
		&& EVP_MAC_update(a, msg, 100) && EVP_MAC_update(b, msg, 150)
		&& EVP_MAC_update(a, msg + 100, 200) && EVP_MAC_update(b, msg + 150, 150)
		&& EVP_MAC_final(b, o2, &l2, sizeof(o2)) && EVP_MAC_final(a, o1, &l1, sizeof(o1));
	result(ok && same_mac("SHA2-256", k1, sizeof(k1), msg, sizeof(msg), o1, l1)
	       && same_mac("SHA2-384", k2, sizeof(k2), msg, sizeof(msg), o2, l2),
	       "two HMAC contexts with different keys and digests, interleaved, each its own key's MAC");
	EVP_MAC_CTX_free(a);
	EVP_MAC_CTX_free(b);
}

/*
 * A context freed with a key, then new contexts (which malloc may place
 * at the same address): no key until one is given, and then only that
 * one's MAC.
 */
static void test_mac_fresh(void)
{
	unsigned char k1[48], k2[16], msg[64], out[64];
	EVP_MAC_CTX *c;
	size_t ol = 0;
	int i, good = 1, nokey = 1;

	fill(k1, sizeof(k1), 5);
	fill(k2, sizeof(k2), 6);
	fill(msg, sizeof(msg), 7);
	for (i = 0; i < 20; i++) {
		c = mac_ctx(rlib, PQ, "SHA2-256");
		good &= c && EVP_MAC_init(c, k1, sizeof(k1), NULL) && EVP_MAC_update(c, msg, sizeof(msg))
			&& EVP_MAC_final(c, out, &ol, sizeof(out));
		EVP_MAC_CTX_free(c);
		c = mac_ctx(rlib, PQ, "SHA2-256");
		/* no key: init must fail (and not use the freed context's) */
		nokey &= c && !EVP_MAC_init(c, NULL, 0, NULL);
		ERR_clear_error();
		good &= c && EVP_MAC_init(c, k2, sizeof(k2), NULL) && EVP_MAC_update(c, msg, sizeof(msg))
			&& EVP_MAC_final(c, out, &ol, sizeof(out))
			&& same_mac("SHA2-256", k2, sizeof(k2), msg, sizeof(msg), out, ol);
		EVP_MAC_CTX_free(c);
	}
	result(nokey, "a MAC context made after a keyed one was freed has no key (init without one fails)");
	result(good, "... and given a key, its MAC is that key's (20 rounds)");
}

static void test_mac_rekey(void)
{
	unsigned char k1[100], k2[20], msg[77], out[64], out2[64];
	EVP_MAC_CTX *c = mac_ctx(rlib, PQ, "SHA2-512"), *d = NULL;
	OSSL_PARAM p[2];
	size_t ol = 0, ol2 = 0;
	int ok;

	fill(k1, sizeof(k1), 8);
	fill(k2, sizeof(k2), 9);
	fill(msg, sizeof(msg), 10);
	/* key 1, then key 2: only key 2 */
	ok = c && EVP_MAC_init(c, k1, sizeof(k1), NULL) && EVP_MAC_update(c, msg, 10)
		&& EVP_MAC_init(c, k2, sizeof(k2), NULL) && EVP_MAC_update(c, msg, sizeof(msg))
		&& EVP_MAC_final(c, out, &ol, sizeof(out));
	result(ok && same_mac("SHA2-512", k2, sizeof(k2), msg, sizeof(msg), out, ol),
	       "HMAC re-keyed in the middle of a message: the new key's MAC of the new message");
	/* re-init without a key: the same key again */
	ok = ok && EVP_MAC_init(c, NULL, 0, NULL) && EVP_MAC_update(c, msg, sizeof(msg))
		&& EVP_MAC_final(c, out, &ol, sizeof(out));
	result(ok && same_mac("SHA2-512", k2, sizeof(k2), msg, sizeof(msg), out, ol),
	       "HMAC init without a key reuses the context's key");
	/* the key as a parameter, then a new digest: the key under the new digest */
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY, k1, sizeof(k1));
	p[1] = OSSL_PARAM_construct_end();
	ok = ok && EVP_MAC_CTX_set_params(c, p);
	p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA3-256", 0);
	ok = ok && EVP_MAC_CTX_set_params(c, p) && EVP_MAC_init(c, NULL, 0, NULL)
		&& EVP_MAC_update(c, msg, sizeof(msg)) && EVP_MAC_final(c, out, &ol, sizeof(out));
	result(ok && same_mac("SHA3-256", k1, sizeof(k1), msg, sizeof(msg), out, ol),
	       "HMAC key by parameter, then another digest: that key under that digest");
	/* dup in the middle: both finish alike, and the copy lives on after the original */
	ok = ok && EVP_MAC_init(c, k2, sizeof(k2), NULL) && EVP_MAC_update(c, msg, 30)
		&& (d = EVP_MAC_CTX_dup(c)) != NULL && EVP_MAC_update(c, msg + 30, sizeof(msg) - 30)
		&& EVP_MAC_final(c, out, &ol, sizeof(out));
	EVP_MAC_CTX_free(c);
	ok = ok && EVP_MAC_update(d, msg + 30, sizeof(msg) - 30) && EVP_MAC_final(d, out2, &ol2, sizeof(out2));
	result(ok && ol == ol2 && !memcmp(out, out2, ol) && same_mac("SHA3-256", k2, sizeof(k2), msg, sizeof(msg), out2, ol2),
	       "HMAC dup in the middle of a message: the copy finishes alone with the same MAC");
	EVP_MAC_CTX_free(d);
}

/*
 * The digest names rind_md_by_name parses (and the aliases it looks up):
 * each spelling gives that digest's HMAC; names it does not offer are refused.
 */
static void test_md_names(void)
{
	static const struct { const char *name, *as; } alias[] = {
		{ "SHA1", "SHA1" }, { "SHA-1", "SHA1" }, { "sha1", "SHA1" }, { "SSL3-SHA1", "SHA1" },
		{ "1.3.14.3.2.26", "SHA1" }, { "SHA2-224", "SHA2-224" }, { "SHA-224", "SHA2-224" },
		{ "sha224", "SHA2-224" }, { "SHA2-256", "SHA2-256" }, { "SHA-256", "SHA2-256" },
		{ "SHA256", "SHA2-256" }, { "sha256", "SHA2-256" }, { "Sha2-256", "SHA2-256" },
		{ "2.16.840.1.101.3.4.2.1", "SHA2-256" }, { "SHA384", "SHA2-384" }, { "sha-384", "SHA2-384" },
		{ "SHA2-512", "SHA2-512" }, { "SHA512", "SHA2-512" }, { "SHA3-224", "SHA3-224" },
		{ "sha3-256", "SHA3-256" }, { "SHA3-384", "SHA3-384" }, { "2.16.840.1.101.3.4.2.10", "SHA3-512" },
	};
	static const char *const refused[] = { "SHA2-512/224", "SHA512-256", "SHA3-1", "SHA-3-256", "SHA2-1",
					       "SHA", "SHA2", "SHA-", "SHAKE256", "SHA3-2560", "MD5", "" };
	unsigned char key[20], msg[33], out[64];
	unsigned int i;
	int good = 1;

	fill(key, sizeof(key), 30);
	fill(msg, sizeof(msg), 31);
	for (i = 0; i < sizeof(alias) / sizeof(alias[0]); i++) {
		size_t ol = 0;
		int ok = hmac(rlib, PQ, alias[i].name, key, sizeof(key), msg, sizeof(msg), out, &ol)
			&& same_mac(alias[i].as, key, sizeof(key), msg, sizeof(msg), out, ol);

		if (!ok)
			printf("  %s is not %s\n", alias[i].name, alias[i].as);
		good &= ok;
	}
	result(good, "HMAC by every spelling of the digests' names (OpenSSL's, the registry's, OIDs, any case)");
	good = 1;
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		size_t ol = 0;

		if (hmac(rlib, PQ, refused[i], key, sizeof(key), msg, sizeof(msg), out, &ol)) {
			printf("  \"%s\" accepted\n", refused[i]);
			good = 0;
		}
		ERR_clear_error();
	}
	result(good, "HMAC digest names rind does not offer are refused (SHA-512/224, SHAKE, MD5, near misses)");
}

/* ---- KDFs ---- */

struct kp {
	const char *name;
	OSSL_PARAM p[12];
	int n;
	int mode;	/* what a MODE parameter points to */
};

static void kp_oct(struct kp *k, const char *key, const void *d, size_t n)
{
	k->p[k->n++] = OSSL_PARAM_construct_octet_string(key, (void *)d, n);
	k->p[k->n] = OSSL_PARAM_construct_end();
}

static void kp_str(struct kp *k, const char *key, const char *v)
{
	k->p[k->n++] = OSSL_PARAM_construct_utf8_string(key, (char *)v, 0);
	k->p[k->n] = OSSL_PARAM_construct_end();
}

static void kp_mode(struct kp *k, int mode)
{
	k->mode = mode;
	k->p[k->n++] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &k->mode);
	k->p[k->n] = OSSL_PARAM_construct_end();
}

static int derive(OSSL_LIB_CTX *lib, const char *pq, const struct kp *k, unsigned char *out, size_t n)
{
	EVP_KDF *f = EVP_KDF_fetch(lib, k->name, pq);
	EVP_KDF_CTX *c = f ? EVP_KDF_CTX_new(f) : NULL;
	int ok = c && EVP_KDF_derive(c, out, n, k->p) > 0;

	EVP_KDF_CTX_free(c);
	EVP_KDF_free(f);
	return ok;
}

static int same_derive(const struct kp *k, size_t n)
{
	unsigned char a[1024], b[1024];

	return derive(NULL, NULL, k, a, n) && derive(rlib, PQ, k, b, n) && !memcmp(a, b, n);
}

static unsigned char big1[300], big2[200], small1[48], small2[32];

static void test_kdf_params(void)
{
	static const size_t lens[] = { 1, 32, 48, 64, 100, 300 };
	struct kp k;
	unsigned int i, j;
	int good;

	fill(big1, sizeof(big1), 11);
	fill(big2, sizeof(big2), 12);
	fill(small1, sizeof(small1), 13);
	fill(small2, sizeof(small2), 14);
	for (i = 0; i < NMD; i++) {
		good = 1;
		for (j = 0; j < sizeof(lens) / sizeof(lens[0]); j++) {
			/* key and salt on the heap or inline, info in three parts */
			memset(&k, 0, sizeof(k));
			k.name = "HKDF";
			kp_str(&k, OSSL_KDF_PARAM_DIGEST, mds[i]);
			kp_oct(&k, OSSL_KDF_PARAM_KEY, j & 1 ? big1 : small1, j & 1 ? sizeof(big1) : sizeof(small1));
			kp_oct(&k, OSSL_KDF_PARAM_SALT, j & 2 ? big2 : small2, j & 2 ? sizeof(big2) : sizeof(small2));
			kp_oct(&k, OSSL_KDF_PARAM_INFO, small2, 20);
			kp_oct(&k, OSSL_KDF_PARAM_INFO, big2, 60);
			kp_oct(&k, OSSL_KDF_PARAM_INFO, small1, 7);
			good &= same_derive(&k, lens[j]);
			/* TLS 1.2's PRF: the seed in parts, one part past 64 bytes */
			memset(&k, 0, sizeof(k));
			k.name = "TLS1-PRF";
			kp_str(&k, OSSL_KDF_PARAM_DIGEST, mds[i]);
			kp_oct(&k, OSSL_KDF_PARAM_SECRET, j & 1 ? big1 : small1, j & 1 ? 100 : 48);
			kp_oct(&k, OSSL_KDF_PARAM_SEED, "master secret", 13);
			kp_oct(&k, OSSL_KDF_PARAM_SEED, big2, j & 2 ? 64 : 32);
			kp_oct(&k, OSSL_KDF_PARAM_SEED, small2, 32);
			/* the default provider's TLS1-PRF refuses SHA-3 and SHA-1 alone; rind offers what it offers */
			if (i >= 1 && i <= 4)
				good &= same_derive(&k, lens[j]);
		}
		result(good, "HKDF and TLS1-PRF %s: keys, salts, secrets inline and on the heap, INFO/SEED in parts, 1 to 300 bytes", mds[i]);
	}
	/* a parameter given twice: the first one counts, as in the default provider */
	memset(&k, 0, sizeof(k));
	k.name = "HKDF";
	kp_str(&k, OSSL_KDF_PARAM_DIGEST, "SHA256");
	kp_oct(&k, OSSL_KDF_PARAM_KEY, small1, 48);
	kp_oct(&k, OSSL_KDF_PARAM_KEY, big1, 100);
	kp_oct(&k, OSSL_KDF_PARAM_SALT, small2, 32);
	kp_oct(&k, OSSL_KDF_PARAM_SALT, big2, 70);
	result(same_derive(&k, 42), "HKDF with KEY and SALT each given twice: as the default provider");
}

/* One TLS 1.3 key-schedule step, extract (with or without a previous secret) or expand-label. */
static void tls13_kp(struct kp *k, const char *md, int mode, const unsigned char *key, size_t kl,
		     const unsigned char *salt, size_t sl, const char *label)
{
	memset(k, 0, sizeof(*k));
	k->name = "TLS13-KDF";
	kp_mode(k, mode);
	kp_str(k, OSSL_KDF_PARAM_DIGEST, md);
	kp_oct(k, OSSL_KDF_PARAM_PREFIX, "tls13 ", 6);
	kp_oct(k, OSSL_KDF_PARAM_LABEL, label, strlen(label));
	if (key)
		kp_oct(k, OSSL_KDF_PARAM_KEY, key, kl);
	/* no DATA: an empty context (Derive-Secret's "" is given as its hash, "key" has none) */
	if (salt)
		kp_oct(k, mode == EVP_KDF_HKDF_MODE_EXPAND_ONLY ? OSSL_KDF_PARAM_DATA : OSSL_KDF_PARAM_SALT, salt, sl);
}

static void test_tls13(void)
{
	struct kp k;
	int good = 1;
	unsigned int i;

	for (i = 2; i <= 4; i++) {
		size_t hl = i == 2 ? 32 : i == 3 ? 48 : 64;

		tls13_kp(&k, mds[i], EVP_KDF_HKDF_MODE_EXTRACT_ONLY, NULL, 0, NULL, 0, "derived");
		good &= same_derive(&k, hl);
		tls13_kp(&k, mds[i], EVP_KDF_HKDF_MODE_EXTRACT_ONLY, small2, 32, big1, hl, "derived");
		good &= same_derive(&k, hl);
		tls13_kp(&k, mds[i], EVP_KDF_HKDF_MODE_EXPAND_ONLY, big1, hl, big2, hl, "c hs traffic");
		good &= same_derive(&k, hl);
		tls13_kp(&k, mds[i], EVP_KDF_HKDF_MODE_EXPAND_ONLY, big1, hl, NULL, 0, "key");
		good &= same_derive(&k, 16) && same_derive(&k, 12) && same_derive(&k, 200);
	}
	result(good, "TLS13-KDF extract (no secret, a previous secret) and expand-label, SHA-256/384/512, as the default provider");
}

/* dup and reset of a KDF context */
static void test_kdf_dup_reset(void)
{
	unsigned char a[80], b[80], want[80];
	EVP_KDF *f = EVP_KDF_fetch(rlib, "HKDF", PQ);
	EVP_KDF_CTX *c = f ? EVP_KDF_CTX_new(f) : NULL, *d = NULL;
	struct kp k;
	int ok;

	memset(&k, 0, sizeof(k));
	k.name = "HKDF";
	kp_str(&k, OSSL_KDF_PARAM_DIGEST, "SHA2-384");
	kp_oct(&k, OSSL_KDF_PARAM_KEY, big1, 120);
	kp_oct(&k, OSSL_KDF_PARAM_SALT, small2, 32);
	kp_oct(&k, OSSL_KDF_PARAM_INFO, big2, 90);
	ok = derive(NULL, NULL, &k, want, sizeof(want)) && c && EVP_KDF_CTX_set_params(c, k.p)
		&& (d = EVP_KDF_CTX_dup(c)) != NULL;
	EVP_KDF_CTX_free(c);
	c = NULL;
	ok = ok && EVP_KDF_derive(d, a, sizeof(a), NULL) > 0 && !memcmp(a, want, sizeof(a));
	result(ok, "HKDF context dup'ed (heap and inline parameters), the original freed: the copy derives alone");
	EVP_KDF_CTX_reset(d);
	ok = d && EVP_KDF_derive(d, b, sizeof(b), NULL) <= 0;
	ERR_clear_error();
	result(ok, "HKDF after reset: no key and no digest, no output");
	EVP_KDF_CTX_free(d);
	EVP_KDF_free(f);
}

/* ---- threads and fork ---- */

struct job {
	unsigned int id;
	int good;
};

static void *worker(void *arg)
{
	struct job *j = arg;
	unsigned char key[48], msg[64], out[64], want[64];
	size_t ol, wl;
	struct kp k;
	int i;

	j->good = 1;
	for (i = 0; i < 200; i++) {
		const char *md = mds[(j->id + (unsigned int)i) % NMD];

		fill(key, sizeof(key), j->id * 1000 + (unsigned int)i);
		fill(msg, sizeof(msg), (unsigned int)i);
		ol = wl = 0;
		j->good &= hmac(rlib, PQ, md, key, sizeof(key), msg, sizeof(msg), out, &ol)
			&& hmac(NULL, NULL, md, key, sizeof(key), msg, sizeof(msg), want, &wl)
			&& ol == wl && !memcmp(out, want, ol);
		tls13_kp(&k, i & 1 ? "SHA384" : "SHA256", EVP_KDF_HKDF_MODE_EXPAND_ONLY, key, i & 1 ? 48 : 32,
			 msg, i & 1 ? 48 : 32, "s hs traffic");
		j->good &= derive(rlib, PQ, &k, out, 32) && derive(NULL, NULL, &k, want, 32) && !memcmp(out, want, 32);
		/* an extract with a previous secret: Hash("") from the shared memo */
		tls13_kp(&k, i & 1 ? "SHA384" : "SHA512", EVP_KDF_HKDF_MODE_EXTRACT_ONLY, key, 32,
			 msg, i & 1 ? 48 : 64, "derived");
		j->good &= derive(rlib, PQ, &k, out, i & 1 ? 48 : 64) && derive(NULL, NULL, &k, want, i & 1 ? 48 : 64)
			&& !memcmp(out, want, i & 1 ? 48 : 64);
	}
	return NULL;
}

static void test_threads(void)
{
	pthread_t t[4];
	struct job j[4];
	int i, good = 1;

	for (i = 0; i < 4; i++) {
		j[i].id = (unsigned int)i + 1;
		if (pthread_create(&t[i], NULL, worker, &j[i]))
			j[i].good = 0, t[i] = 0;
	}
	for (i = 0; i < 4; i++) {
		if (t[i])
			pthread_join(t[i], NULL);
		good &= j[i].good;
	}
	result(good, "4 threads, 200 HMACs, TLS13-KDF expand-label and extract steps each over the shared tfms and Hash(\"\") memo, every one as the default provider");
}

static void test_fork(void)
{
	unsigned char key[32], msg[50], out[64], want[64];
	size_t ol = 0, wl = 0;
	int st = -1;
	pid_t pid;

	fill(key, sizeof(key), 21);
	fill(msg, sizeof(msg), 22);
	/* the parent has used (so allocated) the shared SHA-256 tfm */
	if (!hmac(rlib, PQ, "SHA256", key, sizeof(key), msg, sizeof(msg), out, &ol)
	    || !hmac(NULL, NULL, "SHA256", key, sizeof(key), msg, sizeof(msg), want, &wl)) {
		result(0, "HMAC before fork");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct job j = { 7, 0 };

		worker(&j);
		ol = 0;
		_exit(j.good && hmac(rlib, PQ, "SHA256", key, sizeof(key), msg, sizeof(msg), out, &ol)
		      && ol == wl && !memcmp(out, want, wl) ? 0 : 1);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	result(pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "a forked child's HMACs and KDF steps over the tfms its parent allocated are right");
}

int main(int argc, char **argv)
{
	OSSL_PROVIDER *prov;

	if (argc < 2) {
		fprintf(stderr, "usage: kdfmac_evp MODULE_DIR\n");
		return 2;
	}
	rlib = OSSL_LIB_CTX_new();
	if (!rlib || !(prov = load_rind(rlib, argv[1])))
		return 1;
	test_mac_keys();
	test_mac_interleaved();
	test_mac_fresh();
	test_mac_rekey();
	test_md_names();
	test_kdf_params();
	test_tls13();
	test_kdf_dup_reset();
	test_threads();
	test_fork();
	OSSL_PROVIDER_unload(prov);
	OSSL_LIB_CTX_free(rlib);
	return results_status();
}
