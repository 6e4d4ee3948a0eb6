// SPDX-License-Identifier: MIT
/*
 * Unauthenticated ciphers: AES-128/192/256 in ECB, CBC (PKCS#7 padding,
 * as EVP does by default) and CTR, over the registry's ecb(aes),
 * cbc(aes), ctr(aes).  EVP's streaming contract (any update sizes, the
 * last block held back for unpadding) is kept here; the block work is
 * the skcipher's, which leaves the next IV / counter in the request's iv.
 */
#include <stdlib.h>
#include <string.h>
#include "prov.h"

#define MODE_ECB 1
#define MODE_CBC 2
#define MODE_CTR 5
/*
 * The request lives in the context (one allocation of ours besides the
 * registry's tfm); a driver whose request context is larger than this
 * gets a separate one.
 */
#define REQ_INLINE 256

struct cctx {
	void *provctx;
	int mode;
	unsigned int keylen;
	struct crypto_skcipher *tfm;
	struct skcipher_request *req;
	int enc, padding, key_set;
	uint8_t key[32];	/* kept (wiped on free) so that a context can be copied */
	uint8_t iv[16], oiv[16];
	uint8_t buf[16];	/* ECB/CBC: pending input; CTR: keystream of a partial block */
	unsigned int bufn;	/* bytes pending (ECB/CBC) or keystream bytes used (CTR) */
	union {
		struct skcipher_request req;
		uint8_t b[sizeof(struct skcipher_request) + REQ_INLINE];
	} rq __attribute__((aligned(16)));
};

static const char *mode_alg(int mode)
{
	return mode == MODE_ECB ? "ecb(aes)" : mode == MODE_CBC ? "cbc(aes)" : "ctr(aes)";
}

static void *cnew(void *provctx, int mode, unsigned int keylen)
{
	struct cctx *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->provctx = provctx;
	c->mode = mode;
	c->keylen = keylen;
	c->padding = 1;
	return c;
}

static void cfree(void *vc)
{
	struct cctx *c = vc;

	if (!c)
		return;
	if (c->req && c->req != &c->rq.req)
		skcipher_request_free(c->req);
	if (c->tfm)
		crypto_free_skcipher(c->tfm);
	rind_memzero_explicit(c, sizeof(*c));
	free(c);
}

static int cinit(void *vc, const unsigned char *key, size_t keylen, const unsigned char *iv,
		 size_t ivlen, const OSSL_PARAM params[], int enc);

static void *cdup(void *vc)
{
	struct cctx *c = vc, *d = cnew(c->provctx, c->mode, c->keylen);

	if (!d)
		return NULL;
	/* A keyed tfm belongs to one context: the copy keys its own. */
	if (c->key_set && !cinit(d, c->key, c->keylen, NULL, 0, NULL, c->enc)) {
		cfree(d);
		return NULL;
	}
	d->enc = c->enc;
	d->padding = c->padding;
	memcpy(d->iv, c->iv, 16);
	memcpy(d->oiv, c->oiv, 16);
	memcpy(d->buf, c->buf, 16);
	d->bufn = c->bufn;
	return d;
}

static int run(struct cctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
	struct scatterlist src, dst;

	while (len) {
		unsigned int n = len > (1u << 30) ? 1u << 30 : (unsigned int)len;
		int err;

		sg_init_one(&src, in, n);
		sg_init_one(&dst, out, n);
		skcipher_request_set_crypt(c->req, &src, &dst, n, c->mode == MODE_ECB ? NULL : c->iv);
		err = c->enc || c->mode == MODE_CTR ? crypto_skcipher_encrypt(c->req) : crypto_skcipher_decrypt(c->req);
		if (err)
			return 0;
		in += n;
		out += n;
		len -= n;
	}
	return 1;
}

static int cset(void *vc, const OSSL_PARAM params[]);

static int cinit(void *vc, const unsigned char *key, size_t keylen, const unsigned char *iv,
		 size_t ivlen, const OSSL_PARAM params[], int enc)
{
	struct cctx *c = vc;

	c->enc = enc;
	c->bufn = 0;
	if (key) {
		if (keylen != c->keylen)
			return 0;
		if (!c->tfm) {
			struct crypto_skcipher *t = crypto_alloc_skcipher(mode_alg(c->mode), 0, 0);

			if (IS_ERR(t))
				return 0;
			c->tfm = t;
			if (crypto_skcipher_reqsize(t) <= REQ_INLINE) {
				c->req = &c->rq.req;
				skcipher_request_set_tfm(c->req, t);
			} else {
				c->req = skcipher_request_alloc(t, GFP_KERNEL);
				if (IS_ERR(c->req)) {
					c->req = NULL;
					return 0;
				}
			}
		}
		if (crypto_skcipher_setkey(c->tfm, key, (unsigned int)keylen))
			return 0;
		memcpy(c->key, key, keylen);
		c->key_set = 1;
		RTRACE("cipher AES-%u-%s %s (%s)", c->keylen * 8, c->mode == MODE_ECB ? "ECB" : c->mode == MODE_CBC ? "CBC" : "CTR",
		       enc ? "encrypt" : "decrypt", crypto_skcipher_driver_name(c->tfm));
	}
	if (iv && c->mode != MODE_ECB) {
		if (ivlen != 16)
			return 0;
		memcpy(c->iv, iv, 16);
		memcpy(c->oiv, iv, 16);
	}
	return cset(c, params);
}

static int cenc_init(void *c, const unsigned char *k, size_t kl, const unsigned char *iv, size_t ivl,
		     const OSSL_PARAM p[])
{
	return cinit(c, k, kl, iv, ivl, p, 1);
}

static int cdec_init(void *c, const unsigned char *k, size_t kl, const unsigned char *iv, size_t ivl,
		     const OSSL_PARAM p[])
{
	return cinit(c, k, kl, iv, ivl, p, 0);
}

static int ctr_update(struct cctx *c, uint8_t *out, size_t *outl, const uint8_t *in, size_t inl)
{
	size_t done = 0, bulk;

	/* The unused keystream of a partial block first. */
	while (c->bufn && c->bufn < 16 && done < inl) {
		out[done] = in[done] ^ c->buf[c->bufn++];
		done++;
	}
	if (c->bufn == 16)
		c->bufn = 0;
	bulk = (inl - done) & ~(size_t)15;
	if (bulk && !run(c, out + done, in + done, bulk))
		return 0;
	done += bulk;
	if (done < inl) {
		/* A new partial block: its keystream (the counter advances by one). */
		memset(c->buf, 0, 16);
		if (!run(c, c->buf, c->buf, 16))
			return 0;
		c->bufn = 0;
		while (done < inl) {
			out[done] = in[done] ^ c->buf[c->bufn++];
			done++;
		}
	}
	*outl = inl;
	return 1;
}

static int cupdate(void *vc, unsigned char *out, size_t *outl, size_t outsize,
		   const unsigned char *in, size_t inl)
{
	struct cctx *c = vc;
	size_t total, keep, n, w = 0;

	if (!c->key_set)
		return 0;
	if (c->mode == MODE_CTR) {
		if (outsize < inl)
			return 0;
		return ctr_update(c, out, outl, in, inl);
	}
	total = c->bufn + inl;
	keep = total & 15;
	/* Decrypting with padding: the last whole block waits for final. */
	if (!c->enc && c->padding && keep == 0 && total)
		keep = 16;
	n = total - keep;	/* bytes processed now, whole blocks */
	if (outsize < n)
		return 0;
	if (n && c->bufn) {
		size_t fill = 16 - c->bufn;

		memcpy(c->buf + c->bufn, in, fill);
		if (!run(c, out, c->buf, 16))
			return 0;
		in += fill;
		inl -= fill;
		w = 16;
		c->bufn = 0;
	}
	if (n > w) {
		if (!run(c, out + w, in, n - w))
			return 0;
		in += n - w;
		inl -= n - w;
		w = n;
	}
	memcpy(c->buf + c->bufn, in, inl);
	c->bufn += (unsigned int)inl;
	*outl = w;
	return 1;
}

static int cfinal(void *vc, unsigned char *out, size_t *outl, size_t outsize)
{
	struct cctx *c = vc;
	uint8_t blk[16];
	int n;

	*outl = 0;
	if (!c->key_set)
		return 0;
	if (c->mode == MODE_CTR)
		return 1;
	if (!c->padding) {
		if (c->bufn)
			return 0;
		return 1;
	}
	if (c->enc) {
		if (outsize < 16)
			return 0;
		n = rind_pkcs7_pad(c->buf, c->bufn, 16, 16);
		if (n != 16 || !run(c, out, c->buf, 16))
			return 0;
		c->bufn = 0;
		*outl = 16;
		return 1;
	}
	if (c->bufn != 16 || !run(c, blk, c->buf, 16))
		return 0;
	c->bufn = 0;
	n = rind_pkcs7_unpad(blk, 16, 16);
	if (n < 0 || outsize < (size_t)n) {
		rind_memzero_explicit(blk, sizeof(blk));
		return 0;
	}
	memcpy(out, blk, (size_t)n);
	rind_memzero_explicit(blk, sizeof(blk));
	*outl = (size_t)n;
	return 1;
}

/* EVP_Cipher(): whole blocks (any length in CTR), no padding. */
static int ccipher(void *vc, unsigned char *out, size_t *outl, size_t outsize,
		   const unsigned char *in, size_t inl)
{
	struct cctx *c = vc;

	if (!c->key_set || outsize < inl)
		return 0;
	if (c->mode == MODE_CTR)
		return ctr_update(c, out, outl, in, inl);
	if (inl & 15)
		return 0;
	if (!run(c, out, in, inl))
		return 0;
	*outl = inl;
	return 1;
}

/*
 * OpenSSL's CTR-DRBG asks these for every generate when rind serves its
 * AES (default_properties = ?provider=rind): one pass each (rp_scan).
 */
enum { CG_KEYLEN, CG_IVLEN, CG_PADDING, CG_NUM, CG_IV, CG_UPDATED_IV, CG_N };
static const char *const cg_names[CG_N] = {
	[CG_KEYLEN] = OSSL_CIPHER_PARAM_KEYLEN, [CG_IVLEN] = OSSL_CIPHER_PARAM_IVLEN,
	[CG_PADDING] = OSSL_CIPHER_PARAM_PADDING, [CG_NUM] = OSSL_CIPHER_PARAM_NUM,
	[CG_IV] = OSSL_CIPHER_PARAM_IV, [CG_UPDATED_IV] = OSSL_CIPHER_PARAM_UPDATED_IV,
};

static int cget_ctx(void *vc, OSSL_PARAM params[])
{
	struct cctx *c = vc;
	unsigned int ivlen = c->mode == MODE_ECB ? 0 : 16;
	OSSL_PARAM *f[CG_N];

	if (!params)
		return 1;
	rp_scan_w(params, cg_names, CG_N, f);
	return (!f[CG_KEYLEN] || rp_set_size_t(f[CG_KEYLEN], c->keylen))
		&& (!f[CG_IVLEN] || rp_set_size_t(f[CG_IVLEN], ivlen))
		&& (!f[CG_PADDING] || rp_set_int(f[CG_PADDING], c->padding))
		&& (!f[CG_NUM] || rp_set_int(f[CG_NUM], c->mode == MODE_CTR ? (int)(c->bufn & 15) : 0))
		&& (!f[CG_IV] || rp_set_octets(f[CG_IV], c->oiv, ivlen))
		&& (!f[CG_UPDATED_IV] || rp_set_octets(f[CG_UPDATED_IV], c->iv, ivlen));
}

enum { CS_PADDING, CS_KEYLEN, CS_TLS_VERSION, CS_MAC_SIZE, CS_N };
static const char *const cs_names[CS_N] = {
	[CS_PADDING] = OSSL_CIPHER_PARAM_PADDING, [CS_KEYLEN] = OSSL_CIPHER_PARAM_KEYLEN,
	[CS_TLS_VERSION] = OSSL_CIPHER_PARAM_TLS_VERSION, [CS_MAC_SIZE] = OSSL_CIPHER_PARAM_TLS_MAC_SIZE,
};

static int cset(void *vc, const OSSL_PARAM params[])
{
	struct cctx *c = vc;
	const OSSL_PARAM *f[CS_N], *p;

	if (!params)
		return 1;
	rp_scan(params, cs_names, CS_N, f);
	if ((p = f[CS_PADDING])) {
		int v;

		if (!rp_get_int(p, &v))
			return 0;
		c->padding = v != 0;
	}
	if ((p = f[CS_KEYLEN])) {
		size_t v;

		if (!rp_get_size_t(p, &v) || v != c->keylen)
			return 0;
	}
	/*
	 * TLS 1.2 CBC records (padding and MAC removed by the cipher) are
	 * not offered: refusing the parameter makes libssl fail the
	 * connection instead of misreading records.
	 */
	if (f[CS_TLS_VERSION] || f[CS_MAC_SIZE])
		return 0;
	return 1;
}

static const OSSL_PARAM c_gettable_ctx[] = {
	{ OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ OSSL_CIPHER_PARAM_IVLEN, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ OSSL_CIPHER_PARAM_PADDING, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(unsigned int), 0 },
	{ OSSL_CIPHER_PARAM_NUM, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(unsigned int), 0 },
	{ OSSL_CIPHER_PARAM_IV, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_CIPHER_PARAM_UPDATED_IV, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM c_settable_ctx[] = {
	{ OSSL_CIPHER_PARAM_PADDING, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(unsigned int), 0 },
	{ OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM *cgettable_ctx(void *c, void *p) { (void)c; (void)p; return c_gettable_ctx; }
static const OSSL_PARAM *csettable_ctx(void *c, void *p) { (void)c; (void)p; return c_settable_ctx; }

#define CIPHER(sym, mode, kl)							\
static void *sym##_new(void *provctx) { return cnew(provctx, mode, kl); }	\
static int sym##_get(OSSL_PARAM params[])					\
{ return rp_cipher_get_params(params, mode, kl, mode == MODE_ECB ? 0 : 16,	\
				 mode == MODE_CTR ? 1 : 16, 0); }		\
static const OSSL_DISPATCH sym##_fns[] = {					\
	{ OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))sym##_new },			\
	{ OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))cenc_init },		\
	{ OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))cdec_init },		\
	{ OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))cupdate },			\
	{ OSSL_FUNC_CIPHER_FINAL, (void (*)(void))cfinal },			\
	{ OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))ccipher },			\
	{ OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))cfree },			\
	{ OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))cdup },			\
	{ OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))sym##_get },		\
	{ OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))cget_ctx },		\
	{ OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))cset },		\
	{ OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))rp_cipher_gettable_params },\
	{ OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))cgettable_ctx },\
	{ OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))csettable_ctx },\
	{ 0, NULL }								\
};

CIPHER(aes128ecb, MODE_ECB, 16)
CIPHER(aes192ecb, MODE_ECB, 24)
CIPHER(aes256ecb, MODE_ECB, 32)
CIPHER(aes128cbc, MODE_CBC, 16)
CIPHER(aes192cbc, MODE_CBC, 24)
CIPHER(aes256cbc, MODE_CBC, 32)
CIPHER(aes128ctr, MODE_CTR, 16)
CIPHER(aes192ctr, MODE_CTR, 24)
CIPHER(aes256ctr, MODE_CTR, 32)

extern const OSSL_DISPATCH rind_aes128gcm_fns[], rind_aes192gcm_fns[], rind_aes256gcm_fns[], rind_chachapoly_fns[];

const OSSL_ALGORITHM rind_ciphers[] = {
	{ "AES-128-GCM:id-aes128-GCM:2.16.840.1.101.3.4.1.6", RIND_PROPS, rind_aes128gcm_fns, "AES-128-GCM (rind)" },
	{ "AES-192-GCM:id-aes192-GCM:2.16.840.1.101.3.4.1.26", RIND_PROPS, rind_aes192gcm_fns, "AES-192-GCM (rind)" },
	{ "AES-256-GCM:id-aes256-GCM:2.16.840.1.101.3.4.1.46", RIND_PROPS, rind_aes256gcm_fns, "AES-256-GCM (rind)" },
	{ "ChaCha20-Poly1305", RIND_PROPS, rind_chachapoly_fns, "ChaCha20-Poly1305 (rind)" },
	{ "AES-128-ECB:2.16.840.1.101.3.4.1.1", RIND_PROPS, aes128ecb_fns, "AES-128-ECB (rind)" },
	{ "AES-192-ECB:2.16.840.1.101.3.4.1.21", RIND_PROPS, aes192ecb_fns, "AES-192-ECB (rind)" },
	{ "AES-256-ECB:2.16.840.1.101.3.4.1.41", RIND_PROPS, aes256ecb_fns, "AES-256-ECB (rind)" },
	{ "AES-128-CBC:AES128:2.16.840.1.101.3.4.1.2", RIND_PROPS, aes128cbc_fns, "AES-128-CBC (rind)" },
	{ "AES-192-CBC:AES192:2.16.840.1.101.3.4.1.22", RIND_PROPS, aes192cbc_fns, "AES-192-CBC (rind)" },
	{ "AES-256-CBC:AES256:2.16.840.1.101.3.4.1.42", RIND_PROPS, aes256cbc_fns, "AES-256-CBC (rind)" },
	{ "AES-128-CTR", RIND_PROPS, aes128ctr_fns, "AES-128-CTR (rind)" },
	{ "AES-192-CTR", RIND_PROPS, aes192ctr_fns, "AES-192-CTR (rind)" },
	{ "AES-256-CTR", RIND_PROPS, aes256ctr_fns, "AES-256-CTR (rind)" },
	{ NULL, NULL, NULL, NULL }
};
