// SPDX-License-Identifier: MIT
/*
 * Rows for symmetric ciphers: AEAD seal/open and QUIC header protection.
 *
 * AEAD: a 13-byte associated data (a TLS 1.2-sized record header) and a
 * payload of the row's size, out of place, 16-byte tag.  Seal uses a fresh
 * nonce per call (a counter in the nonce's last 8 bytes), as a server would;
 * open decrypts the same valid record again and again.  Keys, contexts and
 * requests are set up once:
 *   rind      crypto_aead tfm + one aead_request (scatterlists set once)
 *   OpenSSL   one EVP_CIPHER_CTX keyed once; per call only the IV is re-set
 *   libsodium crypto_aead_aes256gcm_*_afternm (precomputed state),
 *             crypto_aead_(x)chacha20poly1305_ietf_*
 *
 * Header protection (RFC 9001 section 5.4): the 5-byte mask from a 16-byte
 * sample.  AES: one block encryption (rind crypto_cipher "aes", OpenSSL
 * AES-ECB EVP_CIPHER_CTX).  ChaCha20: keystream of 5 bytes with the sample
 * as counter || nonce (rind skcipher "chacha20", OpenSSL EVP "ChaCha20",
 * libsodium crypto_stream_chacha20_ietf_xor_ic).
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <sodium.h>

#include "bench.h"

#define AAD_LEN		13
#define TAG_LEN		16

enum sodium_aead {
	SOD_NONE,
	SOD_AES256GCM,
	SOD_CHACHA_IETF,
	SOD_XCHACHA_IETF,
};

struct aead_param {
	const char *evp;	/* OpenSSL cipher name, NULL if it has none */
	unsigned int keylen;
	unsigned int ivlen;
	int open;		/* 0 seal, 1 open */
	enum sodium_aead sodium;
};

/* Buffers every library uses, laid out identically. */
struct aead_bufs {
	u8 key[32];
	u8 iv[32];
	u8 aad[AAD_LEN];
	u8 *pt;			/* plaintext */
	u8 *ct;			/* ciphertext || tag (the open input) */
	u8 *out;		/* output of the timed operation */
	u64 ctr;
};

static void aead_bufs_init(struct aead_bufs *b, const struct bench_row *row)
{
	const struct aead_param *p = row->param;

	bench_fill(b->key, p->keylen, 1);
	bench_fill(b->iv, p->ivlen, 4);
	bench_fill(b->aad, AAD_LEN, 2);
	b->pt = bench_alloc(row->bytes + 64);
	b->ct = bench_alloc(row->bytes + 64);
	b->out = bench_alloc(row->bytes + 64);
	bench_fill(b->pt, row->bytes, 3);
	b->ctr = 0;
}

static void aead_bufs_free(struct aead_bufs *b)
{
	free(b->pt);
	free(b->ct);
	free(b->out);
}

/* Next nonce: a big-endian counter in the last 8 bytes of the base nonce. */
static void aead_next_iv(struct aead_bufs *b, unsigned int ivlen)
{
	u64 c = ++b->ctr;

	for (int i = 0; i < 8; i++)
		b->iv[ivlen - 1 - i] = (u8)(c >> (8 * i));
}

/* tag || first bytes of the ciphertext, or the first bytes of a plaintext */
static void aead_check(struct bench_check *chk, const u8 *ct, unsigned int len, int open)
{
	u8 tmp[BENCH_CHECK_MAX];
	unsigned int n;

	if (open) {
		bench_check_set(chk, ct, len);
		return;
	}
	memcpy(tmp, ct + len, TAG_LEN);
	n = len < BENCH_CHECK_MAX - TAG_LEN ? len : BENCH_CHECK_MAX - TAG_LEN;
	memcpy(tmp + TAG_LEN, ct, n);
	bench_check_set(chk, tmp, TAG_LEN + n);
}

/* ---- rind ---------------------------------------------------------------- */

struct rind_aead {
	const struct aead_param *p;
	unsigned int len;
	struct aead_bufs b;
	struct crypto_aead *tfm;
	struct aead_request *req;
	struct scatterlist sg_src, sg_dst;
	u8 *src, *dst;		/* aad || payload (|| tag) */
};

static void rind_aead_teardown(void *arg)
{
	struct rind_aead *c = arg;

	if (c->req && !IS_ERR(c->req))
		aead_request_free(c->req);
	if (c->tfm && !IS_ERR(c->tfm))
		crypto_free_aead(c->tfm);
	free(c->src);
	free(c->dst);
	aead_bufs_free(&c->b);
	free(c);
}

static int rind_aead_setup(const struct bench_row *row, const char *alg, void **ctx,
			   struct bench_check *chk)
{
	const struct aead_param *p = row->param;
	struct rind_aead *c = calloc(1, sizeof(*c));
	unsigned int len = row->bytes;
	int err;

	if (!c)
		return -ENOMEM;
	*ctx = c;
	c->p = p;
	c->len = len;
	aead_bufs_init(&c->b, row);
	c->src = bench_alloc(AAD_LEN + len + TAG_LEN);
	c->dst = bench_alloc(AAD_LEN + len + TAG_LEN);

	c->tfm = crypto_alloc_aead(alg, 0, 0);
	if (IS_ERR(c->tfm))
		return (int)PTR_ERR(c->tfm);
	if (crypto_aead_ivsize(c->tfm) != p->ivlen)
		return -EINVAL;
	err = crypto_aead_setkey(c->tfm, c->b.key, p->keylen);
	if (!err)
		err = crypto_aead_setauthsize(c->tfm, TAG_LEN);
	if (err)
		return err;
	c->req = aead_request_alloc(c->tfm, GFP_KERNEL);
	if (IS_ERR_OR_NULL(c->req))
		return c->req ? (int)PTR_ERR(c->req) : -ENOMEM;
	aead_request_set_callback(c->req, 0, NULL, NULL);
	aead_request_set_ad(c->req, AAD_LEN);

	/* The first seal (base nonce): the check output, and open's input. */
	memcpy(c->src, c->b.aad, AAD_LEN);
	memcpy(c->src + AAD_LEN, c->b.pt, len);
	sg_init_one(&c->sg_src, c->src, AAD_LEN + len);
	sg_init_one(&c->sg_dst, c->dst, AAD_LEN + len + TAG_LEN);
	aead_request_set_crypt(c->req, &c->sg_src, &c->sg_dst, len, c->b.iv);
	err = crypto_aead_encrypt(c->req);
	if (err)
		return err;
	memcpy(c->b.ct, c->dst + AAD_LEN, len + TAG_LEN);

	if (p->open) {
		/* src = aad || ct || tag, decrypted into dst */
		memcpy(c->src + AAD_LEN, c->b.ct, len + TAG_LEN);
		sg_init_one(&c->sg_src, c->src, AAD_LEN + len + TAG_LEN);
		sg_init_one(&c->sg_dst, c->dst, AAD_LEN + len);
		aead_request_set_crypt(c->req, &c->sg_src, &c->sg_dst, len + TAG_LEN, c->b.iv);
		err = crypto_aead_decrypt(c->req);
		if (err)
			return err;
		aead_check(chk, c->dst + AAD_LEN, len, 1);
	} else {
		aead_check(chk, c->b.ct, len, 0);
	}
	return 0;
}

static int rind_aead_run(void *arg, uint64_t n)
{
	struct rind_aead *c = arg;
	int err;

	if (c->p->open) {
		for (uint64_t i = 0; i < n; i++) {
			err = crypto_aead_decrypt(c->req);
			if (err)
				return err;
		}
		bench_consume(c->dst + AAD_LEN);
		return 0;
	}
	for (uint64_t i = 0; i < n; i++) {
		aead_next_iv(&c->b, c->p->ivlen);
		err = crypto_aead_encrypt(c->req);
		if (err)
			return err;
		bench_consume(c->dst + AAD_LEN + c->len);
	}
	return 0;
}

static const char *rind_aead_driver(void *arg)
{
	return crypto_aead_driver_name(((struct rind_aead *)arg)->tfm);
}

static const struct bench_impl rind_aead = {
	rind_aead_setup, rind_aead_run, rind_aead_teardown, rind_aead_driver,
};

/*
 * OpenSSL and libsodium: one call seals or opens a whole record, so both
 * share the first-record setup and the timed loop; only the two calls
 * differ (seal_one, open_one: pointers for the setup; the timed loop is
 * given them as constants).
 */
struct lib_aead {
	const struct aead_param *p;
	unsigned int len;
	struct aead_bufs b;
	int (*seal_one)(struct lib_aead *a);
	int (*open_one)(struct lib_aead *a);
	int (*open_init)(struct lib_aead *a);	/* before the first open, or NULL */
};

static void lib_aead_init(struct lib_aead *a, const struct bench_row *row,
			  int (*seal_one)(struct lib_aead *), int (*open_one)(struct lib_aead *))
{
	a->p = row->param;
	a->len = row->bytes;
	a->seal_one = seal_one;
	a->open_one = open_one;
	aead_bufs_init(&a->b, row);
}

/* The first seal with the base nonce gives open's input and the check. */
static int lib_aead_first(struct lib_aead *a, struct bench_check *chk)
{
	int err = a->seal_one(a);

	if (err)
		return err;
	memcpy(a->b.ct, a->b.out, a->len + TAG_LEN);
	if (!a->p->open) {
		aead_check(chk, a->b.ct, a->len, 0);
		return 0;
	}
	err = a->open_init ? a->open_init(a) : 0;
	if (!err)
		err = a->open_one(a);
	if (err)
		return err;
	aead_check(chk, a->b.out, a->len, 1);
	return 0;
}

/*
 * The timed loop.  Inlined into each library's run function with its own
 * seal and open, so the calls stay direct (no pointer call in the loop).
 */
static inline __attribute__((always_inline)) int
lib_aead_loop(struct lib_aead *a, uint64_t n, int (*seal_one)(struct lib_aead *),
	      int (*open_one)(struct lib_aead *))
{
	int err;

	for (uint64_t i = 0; i < n; i++) {
		if (a->p->open) {
			err = open_one(a);
		} else {
			aead_next_iv(&a->b, a->p->ivlen);
			err = seal_one(a);
		}
		if (err)
			return err;
		bench_consume(a->b.out);
	}
	return 0;
}

/* ---- OpenSSL ------------------------------------------------------------- */

struct ossl_aead {
	struct lib_aead a;	/* first: the bench context is a struct lib_aead */
	EVP_CIPHER *cipher;
	EVP_CIPHER_CTX *ctx;
};

static void ossl_aead_teardown(void *arg)
{
	struct ossl_aead *c = arg;

	EVP_CIPHER_CTX_free(c->ctx);
	EVP_CIPHER_free(c->cipher);
	aead_bufs_free(&c->a.b);
	free(c);
}

static int ossl_seal_one(struct lib_aead *a)
{
	EVP_CIPHER_CTX *ctx = ((struct ossl_aead *)a)->ctx;
	int outl, finl;

	if (EVP_EncryptInit_ex(ctx, NULL, NULL, NULL, a->b.iv) != 1 ||
	    EVP_EncryptUpdate(ctx, NULL, &outl, a->b.aad, AAD_LEN) != 1 ||
	    EVP_EncryptUpdate(ctx, a->b.out, &outl, a->b.pt, (int)a->len) != 1 ||
	    EVP_EncryptFinal_ex(ctx, a->b.out + outl, &finl) != 1 ||
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, TAG_LEN, a->b.out + a->len) != 1)
		return bench_ossl_error("seal");
	return 0;
}

static int ossl_open_one(struct lib_aead *a)
{
	EVP_CIPHER_CTX *ctx = ((struct ossl_aead *)a)->ctx;
	int outl, finl;

	if (EVP_DecryptInit_ex(ctx, NULL, NULL, NULL, a->b.iv) != 1 ||
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, TAG_LEN, a->b.ct + a->len) != 1 ||
	    EVP_DecryptUpdate(ctx, NULL, &outl, a->b.aad, AAD_LEN) != 1 ||
	    EVP_DecryptUpdate(ctx, a->b.out, &outl, a->b.ct, (int)a->len) != 1)
		return bench_ossl_error("open");
	if (EVP_DecryptFinal_ex(ctx, a->b.out + outl, &finl) != 1) {
		bench_ossl_missing();
		return -EBADMSG;
	}
	return 0;
}

/* The context was keyed for sealing; key it again for opening. */
static int ossl_open_init(struct lib_aead *a)
{
	struct ossl_aead *c = (struct ossl_aead *)a;

	if (EVP_DecryptInit_ex(c->ctx, c->cipher, NULL, a->b.key, NULL) != 1)
		return bench_ossl_error(a->p->evp);
	return 0;
}

static int ossl_aead_setup(const struct bench_row *row, const char *alg, void **ctx,
			   struct bench_check *chk)
{
	const struct aead_param *p = row->param;
	struct ossl_aead *c;

	(void)alg;
	if (!p->evp)
		return -ENOENT;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	*ctx = c;
	lib_aead_init(&c->a, row, ossl_seal_one, ossl_open_one);
	c->a.open_init = ossl_open_init;
	c->cipher = EVP_CIPHER_fetch(NULL, p->evp, NULL);
	if (!c->cipher)
		return bench_ossl_missing();
	c->ctx = EVP_CIPHER_CTX_new();
	if (!c->ctx)
		return -ENOMEM;
	if (EVP_EncryptInit_ex(c->ctx, c->cipher, NULL, c->a.b.key, NULL) != 1)
		return bench_ossl_error(p->evp);
	return lib_aead_first(&c->a, chk);
}

static int ossl_aead_run(void *arg, uint64_t n)
{
	return lib_aead_loop(arg, n, ossl_seal_one, ossl_open_one);
}

static const struct bench_impl ossl_aead = {
	ossl_aead_setup, ossl_aead_run, ossl_aead_teardown, NULL,
};

/* ---- libsodium ----------------------------------------------------------- */

struct sod_aead {
	struct lib_aead a;	/* first, as for OpenSSL */
	crypto_aead_aes256gcm_state *gcm;	/* precomputed AES-GCM key */
};

static void sod_aead_teardown(void *arg)
{
	struct sod_aead *c = arg;

	free(c->gcm);
	aead_bufs_free(&c->a.b);
	free(c);
}

static int sod_seal_one(struct lib_aead *a)
{
	struct aead_bufs *b = &a->b;
	unsigned long long clen;
	int rc;

	switch (a->p->sodium) {
	case SOD_AES256GCM:
		rc = crypto_aead_aes256gcm_encrypt_afternm(b->out, &clen, b->pt, a->len,
							   b->aad, AAD_LEN, NULL, b->iv,
							   ((struct sod_aead *)a)->gcm);
		break;
	case SOD_CHACHA_IETF:
		rc = crypto_aead_chacha20poly1305_ietf_encrypt(b->out, &clen, b->pt, a->len,
							       b->aad, AAD_LEN, NULL,
							       b->iv, b->key);
		break;
	case SOD_XCHACHA_IETF:
		rc = crypto_aead_xchacha20poly1305_ietf_encrypt(b->out, &clen, b->pt, a->len,
								b->aad, AAD_LEN, NULL,
								b->iv, b->key);
		break;
	default:
		return -ENOENT;
	}
	return rc ? -EIO : 0;
}

static int sod_open_one(struct lib_aead *a)
{
	struct aead_bufs *b = &a->b;
	unsigned long long mlen;
	int rc;

	switch (a->p->sodium) {
	case SOD_AES256GCM:
		rc = crypto_aead_aes256gcm_decrypt_afternm(b->out, &mlen, NULL, b->ct,
							   a->len + TAG_LEN, b->aad, AAD_LEN,
							   b->iv, ((struct sod_aead *)a)->gcm);
		break;
	case SOD_CHACHA_IETF:
		rc = crypto_aead_chacha20poly1305_ietf_decrypt(b->out, &mlen, NULL, b->ct,
							       a->len + TAG_LEN, b->aad,
							       AAD_LEN, b->iv, b->key);
		break;
	case SOD_XCHACHA_IETF:
		rc = crypto_aead_xchacha20poly1305_ietf_decrypt(b->out, &mlen, NULL, b->ct,
								a->len + TAG_LEN, b->aad,
								AAD_LEN, b->iv, b->key);
		break;
	default:
		return -ENOENT;
	}
	return rc ? -EBADMSG : 0;
}

static int sod_aead_setup(const struct bench_row *row, const char *alg, void **ctx,
			  struct bench_check *chk)
{
	const struct aead_param *p = row->param;
	struct sod_aead *c;

	(void)alg;
	if (p->sodium == SOD_NONE)
		return -ENOENT;
	if (p->sodium == SOD_AES256GCM && !crypto_aead_aes256gcm_is_available())
		return -ENOENT;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	*ctx = c;
	lib_aead_init(&c->a, row, sod_seal_one, sod_open_one);
	if (p->sodium == SOD_AES256GCM) {
		c->gcm = bench_alloc(sizeof(*c->gcm));
		crypto_aead_aes256gcm_beforenm(c->gcm, c->a.b.key);
	}
	return lib_aead_first(&c->a, chk);
}

static int sod_aead_run(void *arg, uint64_t n)
{
	return lib_aead_loop(arg, n, sod_seal_one, sod_open_one);
}

static const struct bench_impl sod_aead = {
	sod_aead_setup, sod_aead_run, sod_aead_teardown, NULL,
};

/* ---- QUIC header protection ---------------------------------------------- */

struct hp_param {
	unsigned int keylen;
	int chacha;
	const char *evp;	/* "AES-128-ECB", "AES-256-ECB", "ChaCha20" */
};

struct hp_bufs {
	u8 key[32];
	u8 sample[16];
	u8 zero[16];
	u8 block[16];		/* mask = block[0..4] */
};

/* What every library's context starts with. */
struct hp_ctx {
	const struct hp_param *p;
	struct hp_bufs b;
};

static void hp_init(struct hp_ctx *h, const struct bench_row *row)
{
	h->p = row->param;
	memset(&h->b, 0, sizeof(h->b));
	bench_fill(h->b.key, h->p->keylen, 6);
	bench_fill(h->b.sample, 16, 7);
}

/* The first mask: the check output. */
static int hp_first(struct hp_ctx *h, int (*one)(void *), struct bench_check *chk)
{
	int err = one(h);

	if (err)
		return err;
	bench_check_set(chk, h->b.block, 5);
	return 0;
}

/* The timed loop, inlined into each run function with its @one: a direct call. */
static inline __attribute__((always_inline)) int hp_loop(struct hp_ctx *h, uint64_t n,
							 int (*one)(void *))
{
	int err;

	for (uint64_t i = 0; i < n; i++) {
		err = one(h);
		if (err)
			return err;
		bench_consume(h->b.block);
	}
	return 0;
}

struct rind_hp {
	struct hp_ctx h;	/* first */
	struct crypto_cipher *aes;
	struct crypto_skcipher *chacha;
	struct skcipher_request *req;
	struct scatterlist sg_src, sg_dst;
	u8 iv[16];
};

static void rind_hp_teardown(void *arg)
{
	struct rind_hp *c = arg;

	if (c->req && !IS_ERR(c->req))
		skcipher_request_free(c->req);
	if (c->chacha && !IS_ERR(c->chacha))
		crypto_free_skcipher(c->chacha);
	if (c->aes && !IS_ERR(c->aes))
		crypto_free_cipher(c->aes);
	free(c);
}

static int rind_hp_one(void *arg)
{
	struct rind_hp *c = arg;

	if (!c->h.p->chacha) {
		crypto_cipher_encrypt_one(c->aes, c->h.b.block, c->h.b.sample);
		return 0;
	}
	/* chacha20's 16-byte IV is counter (LE) || nonce: the sample as is */
	memcpy(c->iv, c->h.b.sample, 16);
	skcipher_request_set_crypt(c->req, &c->sg_src, &c->sg_dst, 5, c->iv);
	return crypto_skcipher_encrypt(c->req);
}

static int rind_hp_setup(const struct bench_row *row, const char *alg, void **ctx,
			 struct bench_check *chk)
{
	const struct hp_param *p = row->param;
	struct rind_hp *c = calloc(1, sizeof(*c));
	int err;

	if (!c)
		return -ENOMEM;
	*ctx = c;
	hp_init(&c->h, row);
	if (!p->chacha) {
		c->aes = crypto_alloc_cipher(alg, 0, 0);
		if (IS_ERR(c->aes))
			return (int)PTR_ERR(c->aes);
		err = crypto_cipher_setkey(c->aes, c->h.b.key, p->keylen);
		if (err)
			return err;
	} else {
		c->chacha = crypto_alloc_skcipher(alg, 0, 0);
		if (IS_ERR(c->chacha))
			return (int)PTR_ERR(c->chacha);
		err = crypto_skcipher_setkey(c->chacha, c->h.b.key, p->keylen);
		if (err)
			return err;
		c->req = skcipher_request_alloc(c->chacha, GFP_KERNEL);
		if (IS_ERR_OR_NULL(c->req))
			return c->req ? (int)PTR_ERR(c->req) : -ENOMEM;
		skcipher_request_set_callback(c->req, 0, NULL, NULL);
		sg_init_one(&c->sg_src, c->h.b.zero, 5);
		sg_init_one(&c->sg_dst, c->h.b.block, 5);
	}
	return hp_first(&c->h, rind_hp_one, chk);
}

static int rind_hp_run(void *arg, uint64_t n)
{
	return hp_loop(arg, n, rind_hp_one);
}

static const char *rind_hp_driver(void *arg)
{
	struct rind_hp *c = arg;

	return c->h.p->chacha ? crypto_skcipher_driver_name(c->chacha)
			    : crypto_cipher_driver_name(c->aes);
}

static const struct bench_impl rind_hp = {
	rind_hp_setup, rind_hp_run, rind_hp_teardown, rind_hp_driver,
};

struct ossl_hp {
	struct hp_ctx h;	/* first */
	EVP_CIPHER *cipher;
	EVP_CIPHER_CTX *ctx;
};

static void ossl_hp_teardown(void *arg)
{
	struct ossl_hp *c = arg;

	EVP_CIPHER_CTX_free(c->ctx);
	EVP_CIPHER_free(c->cipher);
	free(c);
}

static int ossl_hp_one(void *arg)
{
	struct ossl_hp *c = arg;
	int outl;

	if (!c->h.p->chacha) {
		if (EVP_EncryptUpdate(c->ctx, c->h.b.block, &outl, c->h.b.sample, 16) != 1)
			return bench_ossl_error("AES-ECB");
		return 0;
	}
	if (EVP_EncryptInit_ex(c->ctx, NULL, NULL, NULL, c->h.b.sample) != 1 ||
	    EVP_EncryptUpdate(c->ctx, c->h.b.block, &outl, c->h.b.zero, 5) != 1)
		return bench_ossl_error("ChaCha20");
	return 0;
}

static int ossl_hp_setup(const struct bench_row *row, const char *alg, void **ctx,
			 struct bench_check *chk)
{
	const struct hp_param *p = row->param;
	struct ossl_hp *c = calloc(1, sizeof(*c));

	(void)alg;
	if (!c)
		return -ENOMEM;
	*ctx = c;
	hp_init(&c->h, row);
	c->cipher = EVP_CIPHER_fetch(NULL, p->evp, NULL);
	if (!c->cipher)
		return bench_ossl_missing();
	c->ctx = EVP_CIPHER_CTX_new();
	if (!c->ctx)
		return -ENOMEM;
	if (EVP_EncryptInit_ex(c->ctx, c->cipher, NULL, c->h.b.key,
			       p->chacha ? c->h.b.sample : NULL) != 1)
		return bench_ossl_error(p->evp);
	if (!p->chacha)
		EVP_CIPHER_CTX_set_padding(c->ctx, 0);
	return hp_first(&c->h, ossl_hp_one, chk);
}

static int ossl_hp_run(void *arg, uint64_t n)
{
	return hp_loop(arg, n, ossl_hp_one);
}

static const struct bench_impl ossl_hp = {
	ossl_hp_setup, ossl_hp_run, ossl_hp_teardown, NULL,
};

/* libsodium: ChaCha20 only (it has no raw AES block). */
static int sod_hp_one(void *arg)
{
	struct hp_ctx *c = arg;
	const u8 *s = c->b.sample;
	u32 ic = (u32)s[0] | (u32)s[1] << 8 | (u32)s[2] << 16 | (u32)s[3] << 24;

	return crypto_stream_chacha20_ietf_xor_ic(c->b.block, c->b.zero, 5, s + 4, ic,
						  c->b.key) ? -EIO : 0;
}

static int sod_hp_setup(const struct bench_row *row, const char *alg, void **ctx,
			struct bench_check *chk)
{
	const struct hp_param *p = row->param;
	struct hp_ctx *c;

	(void)alg;
	if (!p->chacha)
		return -ENOENT;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	*ctx = c;
	hp_init(c, row);
	return hp_first(c, sod_hp_one, chk);
}

static int sod_hp_run(void *arg, uint64_t n)
{
	return hp_loop(arg, n, sod_hp_one);
}

static const struct bench_impl sod_hp = {
	sod_hp_setup, sod_hp_run, free, NULL,
};

/* ---- AEAD key setup: allocate, key, free --------------------------------- */

/*
 * What a server pays per new key (a TLS session, a QUIC connection):
 *   rind      crypto_alloc_aead(name) + crypto_aead_setkey + crypto_free_aead;
 *             the name is looked up on every call, as a caller would
 *   OpenSSL   EVP_CIPHER_CTX_new + EVP_EncryptInit_ex(cipher, key) +
 *             EVP_CIPHER_CTX_free, the EVP_CIPHER fetched once
 *   libsodium an aligned crypto_aead_aes256gcm_state + _beforenm + free
 * No output is compared (a key schedule is not an output).
 */
struct keysetup {
	const struct aead_param *p;
	const char *alg;
	u8 key[32];
	struct crypto_aead *tfm;	/* rind: one kept for the driver name */
	EVP_CIPHER *cipher;		/* OpenSSL */
};

static void keysetup_teardown(void *arg)
{
	struct keysetup *c = arg;

	if (c->tfm && !IS_ERR(c->tfm))
		crypto_free_aead(c->tfm);
	EVP_CIPHER_free(c->cipher);
	free(c);
}

static struct keysetup *keysetup_new(const struct bench_row *row, const char *alg, void **ctx)
{
	struct keysetup *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	*ctx = c;
	c->p = row->param;
	c->alg = alg;
	bench_fill(c->key, c->p->keylen, 1);
	return c;
}

/* The timed loop, inlined into each run function with its @one: a direct call. */
static inline __attribute__((always_inline)) int
keysetup_loop(struct keysetup *c, uint64_t n, int (*one)(struct keysetup *))
{
	int err;

	for (uint64_t i = 0; i < n; i++) {
		err = one(c);
		if (err)
			return err;
	}
	return 0;
}

static int rind_keysetup_one(struct keysetup *c)
{
	struct crypto_aead *tfm = crypto_alloc_aead(c->alg, 0, 0);
	int err;

	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	err = crypto_aead_setkey(tfm, c->key, c->p->keylen);
	crypto_free_aead(tfm);
	return err;
}

static int rind_keysetup_setup(const struct bench_row *row, const char *alg, void **ctx,
			       struct bench_check *chk)
{
	struct keysetup *c = keysetup_new(row, alg, ctx);

	(void)chk;
	if (!c)
		return -ENOMEM;
	c->tfm = crypto_alloc_aead(alg, 0, 0);
	if (IS_ERR(c->tfm))
		return (int)PTR_ERR(c->tfm);
	return rind_keysetup_one(c);
}

static int rind_keysetup_run(void *arg, uint64_t n)
{
	return keysetup_loop(arg, n, rind_keysetup_one);
}

static const char *rind_keysetup_driver(void *arg)
{
	return crypto_aead_driver_name(((struct keysetup *)arg)->tfm);
}

static const struct bench_impl rind_keysetup = {
	rind_keysetup_setup, rind_keysetup_run, keysetup_teardown, rind_keysetup_driver,
};

static int ossl_keysetup_one(struct keysetup *c)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int ok;

	if (!ctx)
		return -ENOMEM;
	ok = EVP_EncryptInit_ex(ctx, c->cipher, NULL, c->key, NULL);
	EVP_CIPHER_CTX_free(ctx);
	return ok == 1 ? 0 : bench_ossl_error(c->p->evp);
}

static int ossl_keysetup_setup(const struct bench_row *row, const char *alg, void **ctx,
			       struct bench_check *chk)
{
	struct keysetup *c = keysetup_new(row, alg, ctx);

	(void)chk;
	if (!c)
		return -ENOMEM;
	c->cipher = EVP_CIPHER_fetch(NULL, c->p->evp, NULL);
	if (!c->cipher)
		return bench_ossl_missing();
	return ossl_keysetup_one(c);
}

static int ossl_keysetup_run(void *arg, uint64_t n)
{
	return keysetup_loop(arg, n, ossl_keysetup_one);
}

static const struct bench_impl ossl_keysetup = {
	ossl_keysetup_setup, ossl_keysetup_run, keysetup_teardown, NULL,
};

static int sod_keysetup_one(struct keysetup *c)
{
	crypto_aead_aes256gcm_state *st = aligned_alloc(64, (sizeof(*st) + 63) & ~(size_t)63);

	if (!st)
		return -ENOMEM;
	crypto_aead_aes256gcm_beforenm(st, c->key);
	sodium_memzero(st, sizeof(*st));
	bench_consume(st);
	free(st);
	return 0;
}

static int sod_keysetup_setup(const struct bench_row *row, const char *alg, void **ctx,
			      struct bench_check *chk)
{
	const struct aead_param *p = row->param;
	struct keysetup *c;

	(void)chk;
	if (p->sodium != SOD_AES256GCM || !crypto_aead_aes256gcm_is_available())
		return -ENOENT;
	c = keysetup_new(row, alg, ctx);
	if (!c)
		return -ENOMEM;
	return sod_keysetup_one(c);
}

static int sod_keysetup_run(void *arg, uint64_t n)
{
	return keysetup_loop(arg, n, sod_keysetup_one);
}

static const struct bench_impl sod_keysetup = {
	sod_keysetup_setup, sod_keysetup_run, keysetup_teardown, NULL,
};

/* ---- rows ---------------------------------------------------------------- */

static const struct aead_param gcm128_seal = { "AES-128-GCM", 16, 12, 0, SOD_NONE };
static const struct aead_param gcm128_open = { "AES-128-GCM", 16, 12, 1, SOD_NONE };
static const struct aead_param gcm256_seal = { "AES-256-GCM", 32, 12, 0, SOD_AES256GCM };
static const struct aead_param gcm256_open = { "AES-256-GCM", 32, 12, 1, SOD_AES256GCM };
static const struct aead_param ccp_seal = { "ChaCha20-Poly1305", 32, 12, 0, SOD_CHACHA_IETF };
static const struct aead_param ccp_open = { "ChaCha20-Poly1305", 32, 12, 1, SOD_CHACHA_IETF };
/* OpenSSL 3.0 has no XChaCha20-Poly1305. */
static const struct aead_param xccp_seal = { NULL, 32, 24, 0, SOD_XCHACHA_IETF };

static const struct hp_param hp_aes128 = { 16, 0, "AES-128-ECB" };
static const struct hp_param hp_aes256 = { 32, 0, "AES-256-ECB" };
static const struct hp_param hp_chacha = { 32, 1, "ChaCha20" };

#define AEAD_ROW(op, alg, prm, sz) \
	{ "AEAD", op, sz, alg, "aead", &prm, { &rind_aead, &ossl_aead, &sod_aead }, 0 }
#define AEAD_ROWS(op, alg, prm) \
	AEAD_ROW(op, alg, prm, 32), AEAD_ROW(op, alg, prm, 1350), AEAD_ROW(op, alg, prm, 16384)
#define HP_ROW(op, alg, type, prm) \
	{ "Header protection", op, 0, alg, type, &prm, { &rind_hp, &ossl_hp, &sod_hp }, 0 }

const struct bench_row bench_rows_sym[] = {
	AEAD_ROWS("AES-128-GCM seal", "gcm(aes)", gcm128_seal),
	AEAD_ROWS("AES-128-GCM open", "gcm(aes)", gcm128_open),
	AEAD_ROWS("AES-256-GCM seal", "gcm(aes)", gcm256_seal),
	AEAD_ROWS("AES-256-GCM open", "gcm(aes)", gcm256_open),
	AEAD_ROWS("ChaCha20-Poly1305 seal", "rfc7539(chacha20,poly1305)", ccp_seal),
	AEAD_ROWS("ChaCha20-Poly1305 open", "rfc7539(chacha20,poly1305)", ccp_open),
	AEAD_ROWS("XChaCha20-Poly1305 seal", "rfc7539(xchacha20,poly1305)", xccp_seal),
	{ "AEAD", "AES-256-GCM alloc+setkey+free", 0, "gcm(aes)", "aead", &gcm256_seal,
	  { &rind_keysetup, &ossl_keysetup, &sod_keysetup }, 0 },
	HP_ROW("AES-128 header protection", "aes", "cipher", hp_aes128),
	HP_ROW("AES-256 header protection", "aes", "cipher", hp_aes256),
	HP_ROW("ChaCha20 header protection", "chacha20", "skcipher", hp_chacha),
	{ .op = NULL }
};
