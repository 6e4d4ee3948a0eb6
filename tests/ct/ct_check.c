// SPDX-License-Identifier: MIT
/*
 * Constant-time checking under valgrind memcheck (make ct).
 *
 * Secret inputs are marked undefined (VALGRIND_MAKE_MEM_UNDEFINED); memcheck
 * then reports every conditional branch and every memory address computed
 * from them.  Outputs that are public by design (ciphertext, tags, public
 * keys, signatures) are declared defined after the operation; the library's
 * own verdicts (tag comparison, all-zero shared secret) are declassified
 * inside it by rind_declassify() in this build (-DRIND_VALGRIND).
 *
 * The list of what to check comes from the registry: every registered
 * implementation is matched to a checker by its cra_name; a secret-handling
 * implementation without a checker fails the run.  `ct_check --leaky`
 * runs only the planted leaks, which must be caught.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include <rind/crypto.h>
#include "ct_common.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

/* out: room for the largest signature (ML-DSA-87, 4627 bytes). */
static u8 key[72], msg[1024], out[4700], iv[64], tag[64];

static void put_be32(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 24);
	p[1] = (u8)(v >> 16);
	p[2] = (u8)(v >> 8);
	p[3] = (u8)v;
}

/*
 * Mark what is secret in an encoded private key, as each format's reader
 * takes it: all of a raw key and of DER (the DER reader declassifies the
 * tags and lengths it reads); the base64 characters of PEM's body (the
 * armour lines and the line ends are public structure); the values of the
 * private members of a JWK (the JSON structure, member names and public
 * members are public).  The encoding, as exported from a tfm holding a
 * secret key, is first made public here so that it can be scanned.
 */
static void mark_secret(u8 *enc, size_t len, enum rind_key_format fmt)
{
	static const char *const priv_members[] = { "d", "p", "q", "dp", "dq", "qi" };
#define NMEMBERS (sizeof(priv_members) / sizeof(priv_members[0]))
	const u8 *end = enc + len, *b, *e, *val[NMEMBERS];
	size_t k, vlen[NMEMBERS];
	char pat[16];

	PUBLIC(enc, len);
	switch (fmt) {
	case RIND_KEY_PEM:
		b = memchr(enc, '\n', len);
		e = memmem(enc, len, "-----END ", 9);
		if (!b || !e || e < b)
			return;
		for (b++; b < e; b++)
			if (*b != '\n' && *b != '\r')
				SECRET(b, 1);
		return;
	case RIND_KEY_JWK:
		/* Found first, all of them, then marked (the search reads everything). */
		for (k = 0; k < NMEMBERS; k++) {
			snprintf(pat, sizeof(pat), "\"%s\":\"", priv_members[k]);
			b = memmem(enc, len, pat, strlen(pat));
			e = b ? memchr(b + strlen(pat), '"', (size_t)(end - b - strlen(pat))) : NULL;
			val[k] = e ? b + strlen(pat) : NULL;
			vlen[k] = e ? (size_t)(e - val[k]) : 0;
		}
		for (k = 0; k < NMEMBERS; k++)
			if (val[k])
				SECRET(val[k], vlen[k]);
		return;
	default:
		SECRET(enc, len);
	}
}

/*
 * Every encoding of the private key a tfm holds (itself imported marked
 * secret), exported, marked secret as above and imported again: the
 * encoders and the format readers (DER, PEM, base64, JWK) run on the
 * secret too.  Formats an algorithm does not export are skipped.
 */
static const enum rind_key_format key_formats[] = {
	RIND_KEY_RAW, RIND_KEY_PKCS8_DER, RIND_KEY_PEM, RIND_KEY_JWK,
};

#define REIMPORT(export, import, tfm)							\
	({										\
		static u8 enc_[16384];							\
		size_t f_;								\
		int l_, e_ = 0;								\
											\
		for (f_ = 0; f_ < sizeof(key_formats) / sizeof(key_formats[0]) && !e_; f_++) { \
			l_ = export(tfm, key_formats[f_], enc_, sizeof(enc_));		\
			if (l_ == -EINVAL || l_ == -EOPNOTSUPP)				\
				continue;						\
			if (l_ < 0) {							\
				e_ = l_;						\
				break;							\
			}								\
			mark_secret(enc_, (size_t)l_, key_formats[f_]);			\
			e_ = import(tfm, enc_, (unsigned int)l_);			\
		}									\
		e_;									\
	})

static void fill(void)
{
	size_t i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (u8)(i * 7 + 1);
	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (u8)(i * 13 + 5);
	for (i = 0; i < sizeof(iv); i++)
		iv[i] = (u8)(i + 3);
}

static int check_cipher(const char *drv)
{
	struct crypto_cipher *tfm = crypto_alloc_cipher(drv, 0, 0);
	static const unsigned int klens[] = { 16, 24, 32 };
	unsigned int i;

	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	for (i = 0; i < 3; i++) {
		fill();
		SECRET(key, klens[i]);
		SECRET(msg, 16);
		if (crypto_cipher_setkey(tfm, key, klens[i]))
			return -EINVAL;
		crypto_cipher_encrypt_one(tfm, out, msg);
		crypto_cipher_decrypt_one(tfm, out + 16, msg);
		PUBLIC(out, 32);
	}
	crypto_free_cipher(tfm);
	return 0;
}

static int skcipher_run(struct crypto_skcipher *tfm, unsigned int klen, unsigned int len, bool enc)
{
	struct skcipher_request *req = skcipher_request_alloc(tfm, GFP_KERNEL);
	struct scatterlist s, d;
	int err;

	if (IS_ERR(req))
		return (int)PTR_ERR(req);
	fill();
	SECRET(key, klen);
	SECRET(msg, len);
	err = crypto_skcipher_setkey(tfm, key, klen);
	if (err)
		goto out;
	sg_init_one(&s, msg, len);
	sg_init_one(&d, out, len);
	/* kwp(aes): iv[4..7] carries the plaintext length (RFC 5649 MLI). */
	if (enc && !strncmp(crypto_skcipher_alg_name(tfm), "kwp(", 4))
		put_be32(iv + 4, len);
	skcipher_request_set_crypt(req, &s, &d, len, iv);
	err = enc ? crypto_skcipher_encrypt(req) : crypto_skcipher_decrypt(req);
	PUBLIC(out, len);
	PUBLIC(iv, sizeof(iv));
out:
	skcipher_request_free(req);
	return err;
}

static int check_skcipher(const char *drv)
{
	struct crypto_skcipher *tfm = crypto_alloc_skcipher(drv, 0, 0);
	unsigned int klen, bs, len;
	int err = 0;

	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	bs = crypto_skcipher_blocksize(tfm);
	len = bs > 1 ? 8 * bs : 333;
	for (klen = crypto_skcipher_min_keysize(tfm); klen <= crypto_skcipher_max_keysize(tfm) && !err;
	     klen += 8) {
		if (klen != 16 && klen != 24 && klen != 32)
			continue;
		err = skcipher_run(tfm, klen, len, true);
		/* kw/kwp decryption of garbage fails its check: that verdict is public. */
		if (!err)
			err = skcipher_run(tfm, klen, len, false);
		if (err == -EBADMSG)
			err = 0;
	}
	crypto_free_skcipher(tfm);
	return err;
}

static int aead_run(struct crypto_aead *tfm, unsigned int klen, bool enc)
{
	struct aead_request *req = aead_request_alloc(tfm, GFP_KERNEL);
	unsigned int alen = 16, len = 300, as = crypto_aead_authsize(tfm);
	struct scatterlist s, d;
	u8 buf[1200];
	int err;

	if (IS_ERR(req))
		return (int)PTR_ERR(req);
	fill();
	memcpy(buf, msg, alen + len + as);
	SECRET(key, klen);
	if (enc)
		SECRET(buf + alen, len);
	err = crypto_aead_setkey(tfm, key, klen);
	if (err)
		goto out;
	sg_init_one(&s, buf, alen + len + as);
	sg_init_one(&d, out, alen + len + as);
	aead_request_set_crypt(req, &s, &d, enc ? len : len + as, iv);
	aead_request_set_ad(req, alen);
	err = enc ? crypto_aead_encrypt(req) : crypto_aead_decrypt(req);
	PUBLIC(out, sizeof(out));
	if (!enc && err == -EBADMSG)
		err = 0;	/* a forged tag is rejected: expected here */
out:
	aead_request_free(req);
	(void)tag;
	return err;
}

static int check_aead(const char *drv)
{
	struct crypto_aead *tfm = crypto_alloc_aead(drv, 0, 0);
	static const unsigned int klens[] = { 16, 20, 24, 28, 32, 36 };
	unsigned int i;
	int err = 0, ok = 0;

	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	for (i = 0; i < 6; i++) {
		fill();
		if (crypto_aead_setkey(tfm, key, klens[i]))
			continue;
		ok++;
		err = aead_run(tfm, klens[i], true);
		if (!err)
			err = aead_run(tfm, klens[i], false);
		if (err)
			break;
	}
	crypto_free_aead(tfm);
	return err ? err : ok ? 0 : -EINVAL;
}

static int check_shash(const char *drv)
{
	struct crypto_shash *tfm = crypto_alloc_shash(drv, 0, 0);
	static const unsigned int lens[] = { 0, 1, 55, 56, 64, 111, 112, 128, 1000 };
	unsigned int i;
	int err = 0;

	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	for (i = 0; i < 9 && !err; i++) {
		fill();
		SECRET(key, 64);
		SECRET(msg, lens[i]);
		/* Keyed hashes: key lengths of the algorithm (hmac any, poly1305 32, ghash 16). */
		if (crypto_shash_setkey(tfm, key, 32) && crypto_shash_setkey(tfm, key, 16) &&
		    crypto_shash_setkey(tfm, key, 64) && strncmp(drv, "sha", 3)) {
			/* unkeyed hashes return -ENOSYS for every length */
		}
		err = crypto_shash_tfm_digest(tfm, msg, lens[i], out);
		PUBLIC(out, 64);
	}
	crypto_free_shash(tfm);
	return err;
}

static int check_kpp(const char *drv)
{
	struct crypto_kpp *tfm = crypto_alloc_kpp(drv, 0, 0);
	struct kpp_request *req;
	struct scatterlist s, d;
	u8 peer[160], priv[256];
	unsigned int n;
	int err, len, plen = 0;

	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	req = kpp_request_alloc(tfm, GFP_KERNEL);
	if (IS_ERR(req))
		return (int)PTR_ERR(req);
	n = crypto_kpp_maxsize(tfm);
	/* A peer public key, from a throwaway secret. */
	err = crypto_kpp_set_secret(tfm, NULL, 0);
	sg_init_one(&d, peer, sizeof(peer));
	kpp_request_set_input(req, NULL, 0);
	kpp_request_set_output(req, &d, n);
	if (!err)
		err = crypto_kpp_generate_public_key(req);
	if (!err)
		plen = (int)req->dst_len;
	/* Our secret: generated, exported raw, then imported marked secret. */
	if (!err)
		err = crypto_kpp_set_secret(tfm, NULL, 0);
	len = err ? err : crypto_kpp_export_privkey(tfm, RIND_KEY_RAW, priv, sizeof(priv));
	if (len < 0) {
		err = len;
		goto out;
	}
	SECRET(priv, (size_t)len);
	err = crypto_kpp_set_secret(tfm, priv, (unsigned int)len);
	if (!err)
		err = REIMPORT(crypto_kpp_export_privkey, crypto_kpp_set_secret, tfm);
	sg_init_one(&s, peer, (unsigned int)plen);
	sg_init_one(&d, out, n);
	kpp_request_set_input(req, &s, (unsigned int)plen);
	kpp_request_set_output(req, &d, n);
	if (!err)
		err = crypto_kpp_compute_shared_secret(req);
	PUBLIC(out, n);
	sg_init_one(&d, out, n);
	kpp_request_set_input(req, NULL, 0);
	kpp_request_set_output(req, &d, n);
	if (!err)
		err = crypto_kpp_generate_public_key(req);
	PUBLIC(out, sizeof(out));
out:
	kpp_request_free(req);
	crypto_free_kpp(tfm);
	return err;
}

static int check_kem(const char *drv)
{
	struct crypto_kem *tfm = crypto_alloc_kem(drv, 0, 0);
	static u8 priv[8192], ct[4096];
	u8 ss[64];
	int err, len;

	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	err = crypto_kem_generate_key(tfm);
	len = err ? err : crypto_kem_export_privkey(tfm, RIND_KEY_RAW, priv, sizeof(priv));
	if (len < 0) {
		err = len;
		goto out;
	}
	SECRET(priv, (size_t)len);
	err = crypto_kem_set_privkey(tfm, priv, (unsigned int)len);
	if (!err)
		err = REIMPORT(crypto_kem_export_privkey, crypto_kem_set_privkey, tfm);
	if (!err)
		err = crypto_kem_encapsulate(tfm, ct, crypto_kem_ciphertextsize(tfm), ss,
					     crypto_kem_sharedsecretsize(tfm));
	PUBLIC(ct, sizeof(ct));
	/* Decapsulation: the secret key and an altered ciphertext (implicit rejection). */
	ct[3] ^= 1;
	if (!err)
		err = crypto_kem_decapsulate(tfm, ct, crypto_kem_ciphertextsize(tfm), ss,
					     crypto_kem_sharedsecretsize(tfm));
	PUBLIC(ss, sizeof(ss));
out:
	crypto_free_kem(tfm);
	return err;
}

/*
 * RSA key generation is slow under valgrind and variable time on candidate
 * primes by design, so one 2048-bit key is made once, unmarked, and every
 * RSA implementation imports it marked secret.
 */
static u8 rsa_key[4096];
static int rsa_keylen;

static int rsa_cached_key(void)
{
	struct crypto_sig *tfm;
	int len;

	if (rsa_keylen)
		return rsa_keylen;
	tfm = crypto_alloc_sig("pkcs1(rsa,sha256)", 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	len = crypto_sig_set_keygen_bits(tfm, 2048);
	if (!len)
		len = crypto_sig_generate_key(tfm);
	if (!len)
		len = crypto_sig_export_privkey(tfm, RIND_KEY_PKCS8_DER, rsa_key, sizeof(rsa_key));
	crypto_free_sig(tfm);
	if (len > 0)
		rsa_keylen = len;
	return len;
}

/*
 * The batch entry point, as rindd signs: runs of equal lengths and odd
 * ones (Ed25519 hashes equal lengths together, finup_mb).  Few requests
 * for the slow schemes: valgrind runs RSA and ECDSA at a crawl; eight for
 * a driver that signs eight side by side (an ECDSA or RSA driver with
 * lanes), so that one full pass of its lanes runs.
 */
static unsigned int batches_checked;

static int check_sig_batch(struct crypto_sig *tfm)
{
	static struct sig_request reqs[20];
	static u8 sigs[20][4700];	/* up to ML-DSA-87 signatures */
	unsigned int i, n = strstr(crypto_sig_alg_name(tfm), "ed25519") ? 20 : 3;

	/* a driver with SIMD lanes (the IFMA RSA ones): a full pass of them */
	if (n < 8 && crypto_sig_batch_lanes(tfm, 8) == 8)
		n = 8;
	int err;

	/* an ECDSA batch in SIMD lanes (ecc-p256-ifma-mb.c): one whole pass */
	if (strstr(crypto_sig_alg_name(tfm), "ecdsa") && crypto_sig_batch_lanes(tfm, 20) > 1)
		n = crypto_sig_batch_lanes(tfm, 20);

	fill();
	for (i = 0; i < n; i++) {
		reqs[i].msg = msg + 8 * i;
		reqs[i].msglen = i < n - 2 ? 48 : 40 + i;
		reqs[i].sig = sigs[i];
		reqs[i].siglen = sizeof(sigs[i]);
		reqs[i].err = 0;
	}
	SECRET(msg, 8 * n + 64);
	err = crypto_sig_sign_batch(tfm, reqs, n);
	PUBLIC(sigs, sizeof(sigs));
	PUBLIC(reqs, sizeof(reqs));
	for (i = 0; !err && i < n; i++)
		err = reqs[i].err;
	batches_checked += !err;
	return err;
}

static int check_sig(const char *drv)
{
	struct crypto_sig *tfm = crypto_alloc_sig(drv, 0, 0);
	static u8 priv[8192];
	int err, len;

	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	if (strstr(crypto_sig_alg_name(tfm), "rsa")) {
		len = rsa_cached_key();
		if (len > 0)
			memcpy(priv, rsa_key, (size_t)len);
	} else {
		/* Key generation, then the exported key re-imported as a secret. */
		err = crypto_sig_generate_key(tfm);
		len = err ? err : crypto_sig_export_privkey(tfm, RIND_KEY_RAW, priv, sizeof(priv));
	}
	if (len < 0) {
		err = len;
		goto out;
	}
	SECRET(priv, (size_t)len);
	err = crypto_sig_set_privkey(tfm, priv, (unsigned int)len);
	if (!err)
		err = REIMPORT(crypto_sig_export_privkey, crypto_sig_set_privkey, tfm);
	if (err)
		goto out;
	fill();
	SECRET(msg, 32);
	len = crypto_sig_sign(tfm, msg, 32, out, sizeof(out));
	err = len < 0 ? len : 0;
	PUBLIC(out, sizeof(out));
	/* Curve building blocks ("ecdsa-nist-p256") sign only through x962()/p1363(). */
	if (err == -EOPNOTSUPP && !strchr(crypto_sig_alg_name(tfm), '('))
		err = 0;
	else if (!err)
		err = check_sig_batch(tfm);
out:
	crypto_free_sig(tfm);
	return err;
}

static int check_akcipher(const char *drv)
{
	struct crypto_akcipher *tfm = crypto_alloc_akcipher(drv, 0, 0);
	struct akcipher_request *req;
	struct scatterlist s, d;
	static u8 priv[4096], ct[1024], pt[1024];
	unsigned int n;
	int err, len;

	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	len = rsa_cached_key();
	if (len < 0) {
		crypto_free_akcipher(tfm);
		return len;
	}
	memcpy(priv, rsa_key, (size_t)len);
	req = akcipher_request_alloc(tfm, GFP_KERNEL);
	if (IS_ERR(req)) {
		crypto_free_akcipher(tfm);
		return (int)PTR_ERR(req);
	}
	SECRET(priv, (size_t)len);
	err = crypto_akcipher_set_priv_key(tfm, priv, (unsigned int)len);
	if (!err)
		err = REIMPORT(crypto_akcipher_export_privkey, crypto_akcipher_set_priv_key, tfm);
	n = crypto_akcipher_maxsize(tfm);
	fill();
	sg_init_one(&s, msg, 32);
	sg_init_one(&d, ct, n);
	akcipher_request_set_crypt(req, &s, &d, 32, n);
	if (!err)
		err = crypto_akcipher_encrypt(req);
	PUBLIC(ct, sizeof(ct));
	sg_init_one(&s, ct, n);
	sg_init_one(&d, pt, n);
	akcipher_request_set_crypt(req, &s, &d, n, n);
	if (!err)
		err = crypto_akcipher_decrypt(req);
	PUBLIC(pt, sizeof(pt));
	/* And a corrupted ciphertext: one constant-time -EBADMSG. */
	ct[n / 2] ^= 1;
	sg_init_one(&s, ct, n);
	akcipher_request_set_crypt(req, &s, &d, n, n);
	if (!err && crypto_akcipher_decrypt(req) != -EBADMSG)
		err = -EINVAL;
	akcipher_request_free(req);
	crypto_free_akcipher(tfm);
	return err;
}

static int check_rng(const char *drv)
{
	struct crypto_rng *tfm = crypto_alloc_rng(drv, 0, 0);
	int err;

	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	fill();
	SECRET(key, 48);
	err = crypto_rng_reset(tfm, key, 48);
	if (!err)
		err = crypto_rng_get_bytes(tfm, out, 1000);
	PUBLIC(out, 1000);
	crypto_free_rng(tfm);
	return err;
}

/* The KDFs are library functions over hmac tfms, checked once each. */
static int check_kdfs(void)
{
	struct crypto_shash *tfm = crypto_alloc_shash("hmac(sha256)", 0, 0);
	int err;

	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	fill();
	SECRET(key, 64);
	err = rind_hkdf_extract(tfm, key, 32, msg, 16, out);
	if (!err)
		err = rind_hkdf_expand(tfm, msg, 10, out + 32, 200);
	PUBLIC(out, 300);
	SECRET(key, 64);
	if (!err)
		err = rind_pbkdf2(tfm, key, 20, msg, 16, 3, out, 40);
	PUBLIC(out, 40);
	crypto_free_shash(tfm);
	return err;
}

/*
 * Planted leaks: both must be reported by memcheck, so the compiler must
 * not remove them: the results go to a volatile sink (else the calls,
 * without side effects, are dropped), the table is volatile (a static
 * table never written is folded to its zeros), and one side of the branch
 * has an empty asm (else it becomes a select).
 */
static volatile u8 leak_table[256];
static volatile int leak_sink;

__attribute__((noinline)) static u8 leaky_lookup(const u8 *secret)
{
	return leak_table[secret[0]];
}

__attribute__((noinline)) static int leaky_branch(const u8 *secret)
{
	if (secret[1] & 1) {
		__asm__ volatile("" ::: "memory");
		return 1;
	}
	return 2;
}

struct checker {
	const char *type;
	int (*fn)(const char *drv);
};

static const struct checker checkers[] = {
	{ "cipher", check_cipher },
	{ "skcipher", check_skcipher },
	{ "aead", check_aead },
	{ "shash", check_shash },
	{ "kpp", check_kpp },
	{ "sig", check_sig },
	{ "rng", check_rng },
	{ "kem", check_kem },
	{ "akcipher", check_akcipher },
};

#define MAX_LISTED 64

struct result {
	int checked;
	int failed;
	int uncovered;
	char listed[MAX_LISTED][CRYPTO_MAX_ALG_NAME + 16];	/* failed or uncovered drivers */
	int nlisted;
};

static void list_driver(struct result *r, const char *what, const char *drv)
{
	if (r->nlisted < MAX_LISTED)
		snprintf(r->listed[r->nlisted++], sizeof(r->listed[0]), "%s %s", what, drv);
}

/*
 * Valgrind writes its reports to stderr as they happen; stdout is flushed
 * before each check so that a check's reports come out before its verdict
 * line, and after the previous one.
 */
static void checkpoint(void)
{
	fflush(stdout);
	fflush(stderr);
}

static int run_one(const struct rind_alg_info *i, void *ctx)
{
	struct result *r = ctx;
	unsigned long before, after;
	size_t k;
	int err;

	if (!strcmp(i->module, "test"))
		return 0;
	/* CT_ONLY=substring: check only the drivers whose names contain it (development). */
	if (getenv("CT_ONLY") && !strstr(i->driver, getenv("CT_ONLY")))
		return 0;
	for (k = 0; k < sizeof(checkers) / sizeof(checkers[0]); k++) {
		if (strcmp(checkers[k].type, i->type))
			continue;
		checkpoint();
		before = VALGRIND_COUNT_ERRORS;
		err = checkers[k].fn(i->driver);
		after = VALGRIND_COUNT_ERRORS;
		if (err || after != before) {
			printf("ct: FAIL %-34s %-40s (%s)", i->name, i->driver, i->type);
			if (err)
				printf(" error %d", err);
			if (after != before)
				printf(" %lu secret-dependent branch/index reports (above)",
				       after - before);
			printf("\n");
			r->failed++;
			list_driver(r, "FAIL", i->driver);
		} else {
			printf("ct: ok   %-34s %-40s (%s)\n", i->name, i->driver, i->type);
		}
		r->checked++;
		return 0;
	}
	printf("ct: NOT COVERED %s %s (%s)\n", i->name, i->driver, i->type);
	r->uncovered++;
	list_driver(r, "NOT COVERED", i->driver);
	return 0;
}

int main(int argc, char **argv)
{
	static struct result r;
	unsigned long before;
	int err, k;

	if (!RUNNING_ON_VALGRIND) {
		fprintf(stderr, "ct_check: run me under valgrind (make ct)\n");
		return 2;
	}
	if (argc > 1 && !strcmp(argv[1], "--leaky")) {
		u8 s[2] = { 3, 5 };
		int caught = 0;

		SECRET(s, 2);
		before = VALGRIND_COUNT_ERRORS;
		leak_sink += leaky_lookup(s);
		caught += VALGRIND_COUNT_ERRORS != before;
		before = VALGRIND_COUNT_ERRORS;
		leak_sink += leaky_branch(s);
		caught += VALGRIND_COUNT_ERRORS != before;
		printf("ct: planted leaks caught: %d of 2 (table lookup, branch)\n", caught);
		return caught == 2 ? 0 : 1;
	}
	instantiate_all();
	rind_alg_foreach(run_one, &r);
	checkpoint();
	before = VALGRIND_COUNT_ERRORS;
	err = check_kdfs();
	if (err || VALGRIND_COUNT_ERRORS != before) {
		printf("ct: FAIL hkdf/pbkdf2 over hmac(sha256) (error %d)\n", err);
		r.failed++;
		list_driver(&r, "FAIL", "hkdf/pbkdf2");
	} else {
		printf("ct: ok   hkdf/pbkdf2 over hmac(sha256)\n");
	}
	r.checked++;
	/* The summary last: the failures again, then the counts. */
	checkpoint();
	for (k = 0; k < r.nlisted; k++)
		printf("ct: %s\n", r.listed[k]);
	printf("ct: %d implementations checked (%u of them signing in batches too), %d failed, %d not covered\n",
	       r.checked, batches_checked, r.failed, r.uncovered);
	checkpoint();
	return r.failed || r.uncovered ? 1 : 0;
}
