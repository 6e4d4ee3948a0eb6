// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: AEAD seal/open, every rind implementation against
 * OpenSSL (gcm(aes) with 128/192/256-bit keys, rfc7539(chacha20,poly1305))
 * and libsodium (rfc7539(xchacha20,poly1305)).
 *
 * Input layout (fixed header, then the variable part):
 *   [0]      algorithm: % 5 -> gcm-128, gcm-192, gcm-256, chachapoly, xchachapoly
 *   [1]      implementation: % (n + 1); index n is the one-shot API
 *            (rind_aesgcm_*, rind_[x]chacha20poly1305_*)
 *   [2]      flags: bit 0 in place, bits 1-3 tag size (gcm: 16 4 8 12 13 14
 *            15 16), bit 4 open-only (the text is ciphertext || tag)
 *   [3..4]   AD length, little endian (clipped to what is left)
 *   [5..19]  source split: [count % 8 + 1][7 cut points, u16 LE]
 *   [20..34] destination split, the same (out of place only)
 *   [35..36] mutation offset (u16 LE) into AD || ciphertext || tag,
 *   [37]     mutation xor mask (0: no mutation)
 *   then the key (16/24/32 bytes), the IV (12 or 24), the AD, the text.
 *
 * Every scatterlist segment is its own heap allocation of exactly its
 * length, so AddressSanitizer sees any access past a segment.
 *
 * Seal: rind's output (AD copied, ciphertext, tag) must equal the
 * reference.  Open (of the sealed message after the mutation, or of the
 * input in open-only mode): rind and the reference must both fail, or both
 * succeed with the same plaintext; a failed rind open is -EBADMSG and
 * leaves zeros in the plaintext region.  Any disagreement aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <sodium.h>
#include <rind/crypto.h>

#define FUZZ_NAME	"fuzz_aead"
#define MAXIMPL		48
#define MAXSEG		8
#define SPLIT_LEN	15
#define HDR_LEN		38

#include "fuzz_common.h"

/* ---- implementations ------------------------------------------------- */

/*
 * Every implementation of "tmpl(a)" or "tmpl(a,b)": the template over
 * every implementation of its arguments, plus what is registered directly.
 */
static void template_impls(const char *tmpl, const char *a, const char *atype,
			   const char *b, const char *btype, struct fuzz_impls *out)
{
	static struct fuzz_impls la, lb;
	char name[CRYPTO_MAX_ALG_NAME], inst[3 * CRYPTO_MAX_ALG_NAME];
	int i, j;

	fuzz_impls(a, atype, &la);
	lb.n = 1;
	if (b)
		fuzz_impls(b, btype, &lb);
	for (i = 0; i < la.n; i++) {
		for (j = 0; j < lb.n; j++) {
			if (b)
				snprintf(inst, sizeof(inst), "%s(%s,%s)", tmpl, la.name[i], lb.name[j]);
			else
				snprintf(inst, sizeof(inst), "%s(%s)", tmpl, la.name[i]);
			(void)crypto_has_alg(inst, 0, 0);
		}
	}
	if (b)
		snprintf(name, sizeof(name), "%s(%s,%s)", tmpl, a, b);
	else
		snprintf(name, sizeof(name), "%s(%s)", tmpl, a);
	fuzz_impls(name, "aead", out);
}

/* ---- input ----------------------------------------------------------- */

struct in {
	const uint8_t *p;
	size_t n;
};

static const uint8_t *take(struct in *in, size_t len, uint8_t *pad)
{
	const uint8_t *r;

	if (in->n >= len) {
		r = in->p;
		in->p += len;
		in->n -= len;
		return r;
	}
	memset(pad, 0, len);
	memcpy(pad, in->p, in->n);
	in->p += in->n;
	in->n = 0;
	return pad;
}

static unsigned int get16(const uint8_t *p)
{
	return p[0] | (unsigned int)p[1] << 8;
}

/* ---- scatterlists of separately allocated segments ------------------- */

struct sgbuf {
	struct scatterlist sg[MAXSEG];
	uint8_t *seg[MAXSEG];
	int n;
	size_t len;
};

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* @len bytes described by @spec, filled from @init (or 0xa5 when NULL). */
static void sgb_make(struct sgbuf *b, const uint8_t spec[SPLIT_LEN], size_t len, const uint8_t *init)
{
	size_t cut[MAXSEG + 1], off;
	int i;

	b->n = 1 + spec[0] % MAXSEG;
	b->len = len;
	cut[0] = 0;
	for (i = 1; i < b->n; i++)
		cut[i] = get16(spec + 1 + 2 * (i - 1)) % (len + 1);
	qsort(cut + 1, (size_t)b->n - 1, sizeof(cut[0]), cmp_size);
	cut[b->n] = len;
	sg_init_table(b->sg, (unsigned int)b->n);
	for (i = 0; i < b->n; i++) {
		size_t l = cut[i + 1] - cut[i];

		off = cut[i];
		b->seg[i] = malloc(l ? l : 1);
		if (!b->seg[i])
			abort();
		if (init)
			memcpy(b->seg[i], init + off, l);
		else
			memset(b->seg[i], 0xa5, l);
		sg_set_buf(&b->sg[i], b->seg[i], (unsigned int)l);
	}
}

static void sgb_read(const struct sgbuf *b, uint8_t *out)
{
	int i;

	for (i = 0; i < b->n; i++) {
		memcpy(out, b->seg[i], b->sg[i].length);
		out += b->sg[i].length;
	}
}

static void sgb_free(struct sgbuf *b)
{
	int i;

	for (i = 0; i < b->n; i++)
		free(b->seg[i]);
	b->n = 0;
}

/* ---- algorithms ------------------------------------------------------- */

enum { A_GCM128, A_GCM192, A_GCM256, A_CHAPOLY, A_XCHAPOLY, A_COUNT };

static const struct {
	const char *label;
	unsigned int keylen, ivlen;
} algs[A_COUNT] = {
	{ "gcm(aes) 128", 16, 12 },
	{ "gcm(aes) 192", 24, 12 },
	{ "gcm(aes) 256", 32, 12 },
	{ "rfc7539(chacha20,poly1305)", 32, 12 },
	{ "rfc7539(xchacha20,poly1305)", 32, 24 },
};

static struct fuzz_impls gcm_impls, cp_impls, xcp_impls;
static struct crypto_aead *gcm_tfm[MAXIMPL], *cp_tfm[MAXIMPL], *xcp_tfm[MAXIMPL];
static struct rind_aesgcm_ctx *gcm_lib;

static void alloc_all(struct fuzz_impls *l, struct crypto_aead **tfm)
{
	int i;

	for (i = 0; i < l->n; i++) {
		tfm[i] = crypto_alloc_aead(l->name[i], 0, 0);
		if (IS_ERR(tfm[i])) {
			fprintf(stderr, "fuzz_aead: cannot allocate %s: %ld\n", l->name[i],
				PTR_ERR(tfm[i]));
			abort();
		}
	}
}

static void print_list(const char *what, const struct fuzz_impls *l)
{
	int i;

	fprintf(stderr, "fuzz_aead: %s:", what);
	for (i = 0; i < l->n; i++)
		fprintf(stderr, " %s", l->name[i]);
	fprintf(stderr, "\n");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (sodium_init() < 0)
		abort();
	template_impls("gcm", "aes", "cipher", NULL, NULL, &gcm_impls);
	template_impls("rfc7539", "chacha20", "skcipher", "poly1305", "shash", &cp_impls);
	template_impls("rfc7539", "xchacha20", "skcipher", "poly1305", "shash", &xcp_impls);
	print_list("gcm(aes)", &gcm_impls);
	print_list("rfc7539(chacha20,poly1305)", &cp_impls);
	print_list("rfc7539(xchacha20,poly1305)", &xcp_impls);
	if (!gcm_impls.n || !cp_impls.n || !xcp_impls.n)
		abort();
	alloc_all(&gcm_impls, gcm_tfm);
	alloc_all(&cp_impls, cp_tfm);
	alloc_all(&xcp_impls, xcp_tfm);
	gcm_lib = rind_aesgcm_alloc();
	if (!gcm_lib)
		abort();
	return 0;
}

/* ---- references --------------------------------------------------------- */

static const EVP_CIPHER *ossl_cipher(int alg)
{
	switch (alg) {
	case A_GCM128:
		return EVP_aes_128_gcm();
	case A_GCM192:
		return EVP_aes_192_gcm();
	case A_GCM256:
		return EVP_aes_256_gcm();
	default:
		return EVP_chacha20_poly1305();
	}
}

/* Seal: ct (len bytes) and the tag (@taglen bytes of the full tag). */
static void ref_seal(int alg, const uint8_t *key, const uint8_t *iv, const uint8_t *ad, size_t adlen,
		     const uint8_t *pt, size_t len, uint8_t *ct, uint8_t *tag, unsigned int taglen)
{
	EVP_CIPHER_CTX *c;
	uint8_t full[16];
	int l;

	if (alg == A_XCHAPOLY) {
		crypto_aead_xchacha20poly1305_ietf_encrypt_detached(ct, full, NULL, pt, len, ad, adlen,
								    NULL, iv, key);
		memcpy(tag, full, taglen);
		return;
	}
	c = EVP_CIPHER_CTX_new();
	if (!c || EVP_EncryptInit_ex(c, ossl_cipher(alg), NULL, NULL, NULL) != 1 ||
	    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) != 1 ||
	    EVP_EncryptInit_ex(c, NULL, NULL, key, iv) != 1)
		FAIL("OpenSSL seal setup failed");
	if (adlen && EVP_EncryptUpdate(c, NULL, &l, ad, (int)adlen) != 1)
		FAIL("OpenSSL AAD failed");
	if (len && EVP_EncryptUpdate(c, ct, &l, pt, (int)len) != 1)
		FAIL("OpenSSL encrypt failed");
	if (EVP_EncryptFinal_ex(c, ct + len, &l) != 1 ||
	    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, full) != 1)
		FAIL("OpenSSL final failed");
	memcpy(tag, full, taglen);
	EVP_CIPHER_CTX_free(c);
}

/* Open: 0 and the plaintext, or -1. */
static int ref_open(int alg, const uint8_t *key, const uint8_t *iv, const uint8_t *ad, size_t adlen,
		    const uint8_t *ct, size_t len, const uint8_t *tag, unsigned int taglen, uint8_t *pt)
{
	EVP_CIPHER_CTX *c;
	int l, ok;

	if (alg == A_XCHAPOLY) {
		if (taglen != 16)
			return -1;
		return crypto_aead_xchacha20poly1305_ietf_decrypt_detached(pt, NULL, ct, len, tag,
									   ad, adlen, iv, key) ? -1 : 0;
	}
	c = EVP_CIPHER_CTX_new();
	if (!c || EVP_DecryptInit_ex(c, ossl_cipher(alg), NULL, NULL, NULL) != 1 ||
	    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) != 1 ||
	    EVP_DecryptInit_ex(c, NULL, NULL, key, iv) != 1)
		FAIL("OpenSSL open setup failed");
	if (adlen && EVP_DecryptUpdate(c, NULL, &l, ad, (int)adlen) != 1)
		FAIL("OpenSSL AAD failed");
	if (len && EVP_DecryptUpdate(c, pt, &l, ct, (int)len) != 1)
		FAIL("OpenSSL decrypt failed");
	if (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)taglen, (void *)tag) != 1)
		FAIL("OpenSSL refused a %u-byte tag", taglen);
	ok = EVP_DecryptFinal_ex(c, pt + len, &l) == 1;
	EVP_CIPHER_CTX_free(c);
	return ok ? 0 : -1;
}

/* ---- rind ------------------------------------------------------------------ */

struct job {
	int alg;
	struct crypto_aead *tfm;	/* NULL: the one-shot API */
	const uint8_t *key, *iv;
	unsigned int authsize;
	int inplace;
	const uint8_t *split_src, *split_dst;
};

/*
 * Encrypt (@enc) or decrypt through a request: @in is AD || text, @inlen
 * its length; the output AD || text' goes to @out (@outlen bytes).
 */
static int rind_req(const struct job *j, int enc, const uint8_t *in, size_t adlen, size_t inlen,
		    uint8_t *out, size_t outlen)
{
	struct sgbuf src, dst;
	struct aead_request *req;
	uint8_t iv[24];
	int err;

	if (j->inplace) {
		/* One buffer covering the longer of the two. */
		size_t len = inlen > outlen ? inlen : outlen;
		uint8_t *init = calloc(1, len ? len : 1);

		if (!init)
			abort();
		memcpy(init, in, inlen);
		sgb_make(&src, j->split_src, len, init);
		free(init);
	} else {
		sgb_make(&src, j->split_src, inlen, in);
		sgb_make(&dst, j->split_dst, outlen, NULL);
	}
	req = aead_request_alloc(j->tfm, 0);
	if (!req)
		abort();
	memcpy(iv, j->iv, algs[j->alg].ivlen);
	aead_request_set_callback(req, 0, NULL, NULL);
	aead_request_set_ad(req, (unsigned int)adlen);
	aead_request_set_crypt(req, src.sg, j->inplace ? src.sg : dst.sg,
			       (unsigned int)(inlen - adlen), iv);
	err = enc ? crypto_aead_encrypt(req) : crypto_aead_decrypt(req);
	aead_request_free(req);
	if (memcmp(iv, j->iv, algs[j->alg].ivlen))
		FAIL("the request changed the caller's IV");
	if (j->inplace) {
		uint8_t *all = malloc(src.len ? src.len : 1);

		if (!all)
			abort();
		sgb_read(&src, all);
		memcpy(out, all, outlen);
		free(all);
		sgb_free(&src);
	} else {
		uint8_t *chk = malloc(inlen ? inlen : 1);

		if (!chk)
			abort();
		sgb_read(&src, chk);
		if (memcmp(chk, in, inlen))
			FAIL("out-of-place %s modified its source", enc ? "encrypt" : "decrypt");
		free(chk);
		sgb_read(&dst, out);
		sgb_free(&src);
		sgb_free(&dst);
	}
	return err;
}

static int rind_seal(const struct job *j, const uint8_t *ad, size_t adlen, const uint8_t *pt,
		     size_t len, uint8_t *out /* AD || ct || tag */)
{
	if (j->tfm) {
		uint8_t *in = malloc(adlen + len + 1);
		int err;

		if (!in)
			abort();
		memcpy(in, ad, adlen);
		memcpy(in + adlen, pt, len);
		err = rind_req(j, 1, in, adlen, adlen + len, out, adlen + len + j->authsize);
		free(in);
		return err;
	}
	/* One-shots: exact-size heap copies of each argument. */
	{
		uint8_t *a = malloc(adlen ? adlen : 1), *p = malloc(len ? len : 1);
		uint8_t *o = malloc(len + j->authsize);
		int err;

		if (!a || !p || !o)
			abort();
		memcpy(a, ad, adlen);
		memcpy(p, pt, len);
		if (j->alg == A_CHAPOLY)
			err = rind_chacha20poly1305_encrypt(o, p, len, a, adlen, j->iv, j->key);
		else if (j->alg == A_XCHAPOLY)
			err = rind_xchacha20poly1305_encrypt(o, p, len, a, adlen, j->iv, j->key);
		else
			err = rind_aesgcm_encrypt(gcm_lib, o, p, len, a, adlen, j->iv);
		memcpy(out, ad, adlen);
		memcpy(out + adlen, o, len + j->authsize);
		free(a);
		free(p);
		free(o);
		return err;
	}
}

/* @msg is AD || ct || tag (@mlen bytes); the plaintext goes to @pt. */
static int rind_open(const struct job *j, const uint8_t *msg, size_t adlen, size_t mlen, uint8_t *pt)
{
	size_t clen = mlen - adlen;	/* ciphertext and tag */
	size_t plen = clen >= j->authsize ? clen - j->authsize : 0;

	if (j->tfm) {
		uint8_t *out = malloc(adlen + plen + 1);
		int err;

		if (!out)
			abort();
		err = rind_req(j, 0, msg, adlen, mlen, out, adlen + plen);
		if (!err && memcmp(out, msg, adlen))
			FAIL("decrypt did not carry the AD to the destination");
		memcpy(pt, out + adlen, plen);
		free(out);
		return err;
	}
	{
		uint8_t *a = malloc(adlen ? adlen : 1), *c = malloc(clen ? clen : 1);
		uint8_t *o = malloc(plen ? plen : 1);
		int err;

		if (!a || !c || !o)
			abort();
		memcpy(a, msg, adlen);
		memcpy(c, msg + adlen, clen);
		memset(o, 0xa5, plen);
		if (j->alg == A_CHAPOLY)
			err = rind_chacha20poly1305_decrypt(o, c, clen, a, adlen, j->iv, j->key);
		else if (j->alg == A_XCHAPOLY)
			err = rind_xchacha20poly1305_decrypt(o, c, clen, a, adlen, j->iv, j->key);
		else
			err = rind_aesgcm_decrypt(gcm_lib, o, c, clen, a, adlen, j->iv);
		memcpy(pt, o, plen);
		free(a);
		free(c);
		free(o);
		return err;
	}
}

static int all_zero(const uint8_t *p, size_t n)
{
	uint8_t acc = 0;

	while (n--)
		acc |= *p++;
	return acc == 0;
}

/* Open @msg with rind and the reference; they must agree. */
static void check_open(const struct job *j, const uint8_t *msg, size_t adlen, size_t mlen,
		       const uint8_t *expect /* plaintext, or NULL */)
{
	size_t clen = mlen - adlen, plen;
	uint8_t *p_rind, *p_ref;
	int r_rind, r_ref;

	if (clen < j->authsize) {
		/* Shorter than a tag: rind must refuse it (nothing to compare). */
		if (j->tfm) {
			uint8_t *out = malloc(adlen + 1);

			if (!out)
				abort();
			r_rind = rind_req(j, 0, msg, adlen, mlen, out, adlen);
			free(out);
			if (r_rind != -EINVAL && r_rind != -EBADMSG)
				FAIL("open of %zu bytes (< tag) returned %d", clen, r_rind);
		}
		return;
	}
	plen = clen - j->authsize;
	p_rind = malloc(plen + 1);
	p_ref = malloc(plen + 16);
	if (!p_rind || !p_ref)
		abort();
	r_rind = rind_open(j, msg, adlen, mlen, p_rind);
	r_ref = ref_open(j->alg, j->key, j->iv, msg, adlen, msg + adlen, plen, msg + adlen + plen,
			 j->authsize, p_ref);
	if (r_rind != 0 && r_rind != -EBADMSG)
		FAIL("open returned %d", r_rind);
	if ((r_rind == 0) != (r_ref == 0))
		FAIL("open: rind %d, reference %d (AD %zu, text %zu, tag %u)", r_rind, r_ref,
		     adlen, plen, j->authsize);
	if (r_rind == 0 && memcmp(p_rind, p_ref, plen))
		FAIL("open: plaintexts differ (AD %zu, text %zu)", adlen, plen);
	if (r_rind == 0 && expect && memcmp(p_rind, expect, plen))
		FAIL("open of the unmodified seal did not give the plaintext back");
	if (r_rind == -EBADMSG && !all_zero(p_rind, plen))
		FAIL("failed open left non-zero bytes in the plaintext region");
	free(p_rind);
	free(p_ref);
}

static const unsigned int gcm_tags[8] = { 16, 4, 8, 12, 13, 14, 15, 16 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	uint8_t hdr_pad[HDR_LEN], key_pad[32], iv_pad[24];
	const uint8_t *hdr, *ad, *text;
	struct fuzz_impls *l;
	struct crypto_aead **tfms;
	struct job j;
	size_t adlen, len;
	unsigned int mpos, idx;
	uint8_t mxor;
	int err;

	hdr = take(&in, HDR_LEN, hdr_pad);
	j.alg = hdr[0] % A_COUNT;
	cur_alg = algs[j.alg].label;
	l = j.alg <= A_GCM256 ? &gcm_impls : j.alg == A_CHAPOLY ? &cp_impls : &xcp_impls;
	tfms = j.alg <= A_GCM256 ? gcm_tfm : j.alg == A_CHAPOLY ? cp_tfm : xcp_tfm;
	idx = hdr[1] % (unsigned int)(l->n + 1);
	j.tfm = idx < (unsigned int)l->n ? tfms[idx] : NULL;
	cur_impl = j.tfm ? l->name[idx] : "one-shot";
	j.inplace = hdr[2] & 1;
	j.authsize = j.alg <= A_GCM256 ? gcm_tags[(hdr[2] >> 1) & 7] : 16;
	j.split_src = hdr + 5;
	j.split_dst = hdr + 5 + SPLIT_LEN;
	mpos = get16(hdr + 35);
	mxor = hdr[37];
	j.key = take(&in, algs[j.alg].keylen, key_pad);
	j.iv = take(&in, algs[j.alg].ivlen, iv_pad);
	adlen = get16(hdr + 3);
	if (adlen > in.n)
		adlen = in.n;
	ad = in.p;
	text = in.p + adlen;
	len = in.n - adlen;

	if (j.tfm) {
		err = crypto_aead_setauthsize(j.tfm, j.authsize);
		if (err)
			FAIL("setauthsize(%u) = %d", j.authsize, err);
		err = crypto_aead_setkey(j.tfm, j.key, algs[j.alg].keylen);
		if (err)
			FAIL("setkey(%u bytes) = %d", algs[j.alg].keylen, err);
	} else if (j.alg <= A_GCM256) {
		err = rind_aesgcm_expandkey(gcm_lib, j.key, algs[j.alg].keylen, j.authsize);
		if (err)
			FAIL("rind_aesgcm_expandkey = %d", err);
	}

	if (hdr[2] & 0x10) {
		/* Open-only: the text is ciphertext || tag as given. */
		uint8_t *msg = malloc(adlen + len + 1);

		if (!msg)
			abort();
		memcpy(msg, ad, adlen + len);
		check_open(&j, msg, adlen, adlen + len, NULL);
		free(msg);
		return 0;
	}

	{
		size_t mlen = adlen + len + j.authsize;
		uint8_t *sealed = malloc(mlen), *ref = malloc(mlen + 16);

		if (!sealed || !ref)
			abort();
		err = rind_seal(&j, ad, adlen, text, len, sealed);
		if (err)
			FAIL("seal of AD %zu, text %zu returned %d", adlen, len, err);
		memcpy(ref, ad, adlen);
		ref_seal(j.alg, j.key, j.iv, ad, adlen, text, len, ref + adlen, ref + adlen + len,
			 j.authsize);
		if (memcmp(sealed, ad, adlen))
			FAIL("seal did not carry the AD to the destination");
		if (memcmp(sealed + adlen, ref + adlen, len))
			FAIL("ciphertexts differ (AD %zu, text %zu)", adlen, len);
		if (memcmp(sealed + adlen + len, ref + adlen + len, j.authsize))
			FAIL("tags differ (AD %zu, text %zu, tag %u)", adlen, len, j.authsize);
		mpos %= (unsigned int)mlen + 1;
		if (mxor && mpos < mlen) {
			sealed[mpos] ^= mxor;
			check_open(&j, sealed, adlen, mlen, NULL);
		} else {
			check_open(&j, sealed, adlen, mlen, text);
		}
		free(sealed);
		free(ref);
	}
	return 0;
}
