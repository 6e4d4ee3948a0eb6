// SPDX-License-Identifier: MIT
/*
 * AEADs: AES-128/192/256-GCM over gcm(aes) and ChaCha20-Poly1305 over
 * rfc7539(chacha20,poly1305), 12-byte nonces, 16-byte tags.
 *
 * rind's AEAD is one-shot: a message is authenticated and en/decrypted
 * in one request, and a decryption that fails leaves no plaintext.  EVP's
 * streaming calls map onto it as libssl, node and most callers use them:
 * any number of AAD updates (out == NULL), then ONE data update that runs
 * the request (decrypting needs the tag set before it: libssl and node do
 * so), then final (which runs it for an empty message).  A second data
 * update of one message is refused (an error, never a wrong answer).
 *
 * TLS 1.2 records (the "tlsaad" parameter): the whole record in place,
 * explicit nonce || payload || tag for GCM (the 8-byte explicit part
 * generated as a counter after a random start, RFC 5288), payload || tag
 * for ChaCha20-Poly1305 with the nonce the fixed IV XOR the sequence
 * number (RFC 7905).
 */
#include <stdlib.h>
#include <string.h>
#include "prov.h"

#define MODE_GCM 6
#define MODE_STREAM 0
#define TAGLEN 16
#define TLS_AAD_LEN 13
#define GCM_EXPLICIT 8
/*
 * The request and short AAD live in the context itself: a context is one
 * allocation of ours (plus the registry's tfm) and an operation allocates
 * nothing.  gcm(aes)'s and rfc7539's request contexts fit REQ_INLINE (a
 * larger one, from some other driver, gets its own allocation); TLS's AAD
 * is 5 or 13 bytes, longer AAD goes to the heap.
 */
#define REQ_INLINE 256
#define AAD_INLINE 64

struct actx {
	void *provctx;
	int chacha;
	unsigned int keylen;
	struct crypto_aead *tfm;
	struct aead_request *req;
	uint8_t key[32];
	int enc, key_set, iv_set, data_done, tag_set;
	uint8_t iv[12];
	uint8_t *aad;		/* aad_inline, or the heap for longer AAD */
	size_t aadlen, aadcap;
	uint8_t tag[TAGLEN];
	unsigned int taglen;
	/* TLS 1.2 */
	uint8_t tls_aad[TLS_AAD_LEN];
	int tls_aad_set, tls_iv_fixed;
	uint8_t aad_inline[AAD_INLINE];
	uint8_t adscratch[AAD_INLINE];	/* the request's AD output (see one_shot) */
	union {
		struct aead_request req;
		uint8_t b[sizeof(struct aead_request) + REQ_INLINE];
	} rq __attribute__((aligned(16)));
};

static void *anew(void *provctx, int chacha, unsigned int keylen)
{
	struct actx *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->provctx = provctx;
	c->chacha = chacha;
	c->keylen = keylen;
	c->taglen = TAGLEN;
	c->aad = c->aad_inline;
	c->aadcap = AAD_INLINE;
	return c;
}

/* Room for @n bytes of AAD, keeping what is there. */
static int aad_reserve(struct actx *c, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (n <= c->aadcap)
		return 1;
	cap = n * 2;
	if (cap < n || !(p = malloc(cap)))
		return 0;
	if (c->aadlen)
		memcpy(p, c->aad, c->aadlen);
	if (c->aad != c->aad_inline)
		rind_clear_free(c->aad, c->aadcap);
	c->aad = p;
	c->aadcap = cap;
	return 1;
}

static void afree(void *vc)
{
	struct actx *c = vc;

	if (!c)
		return;
	if (c->req && c->req != &c->rq.req)
		aead_request_free(c->req);
	if (c->tfm)
		crypto_free_aead(c->tfm);
	if (c->aad != c->aad_inline)
		rind_clear_free(c->aad, c->aadcap);
	rind_memzero_explicit(c, sizeof(*c));
	free(c);
}

static int aset(void *vc, const OSSL_PARAM params[]);

static void new_message(struct actx *c)
{
	c->aadlen = 0;
	c->data_done = 0;
	c->tag_set = 0;
}

static int setkey(struct actx *c, const uint8_t *key)
{
	if (!c->tfm) {
		struct crypto_aead *t = crypto_alloc_aead(c->chacha ? "rfc7539(chacha20,poly1305)" : "gcm(aes)", 0, 0);

		if (IS_ERR(t))
			return 0;
		c->tfm = t;
		if (crypto_aead_reqsize(t) <= REQ_INLINE) {
			c->req = &c->rq.req;
			aead_request_set_tfm(c->req, t);
		} else {
			c->req = aead_request_alloc(t, GFP_KERNEL);
			if (IS_ERR(c->req)) {
				c->req = NULL;
				return 0;
			}
		}
	}
	if (crypto_aead_setkey(c->tfm, key, c->keylen) || crypto_aead_setauthsize(c->tfm, c->taglen))
		return 0;
	memcpy(c->key, key, c->keylen);
	c->key_set = 1;
	return 1;
}

static int ainit(void *vc, const unsigned char *key, size_t keylen, const unsigned char *iv,
		 size_t ivlen, const OSSL_PARAM params[], int enc)
{
	struct actx *c = vc;

	c->enc = enc;
	new_message(c);
	c->tls_aad_set = 0;
	if (!aset(c, params))
		return 0;
	if (key) {
		if (keylen != c->keylen || !setkey(c, key))
			return 0;
		RTRACE("cipher %s%s %s (%s)", c->chacha ? "ChaCha20-Poly1305" : "AES-", c->chacha ? "" : (c->keylen == 16 ? "128-GCM" : c->keylen == 24 ? "192-GCM" : "256-GCM"),
		       enc ? "encrypt" : "decrypt", crypto_aead_driver_name(c->tfm));
	}
	if (iv) {
		if (ivlen != 12)
			return 0;
		memcpy(c->iv, iv, 12);
		c->iv_set = 1;
	}
	return 1;
}

static int aenc_init(void *c, const unsigned char *k, size_t kl, const unsigned char *iv, size_t ivl,
		     const OSSL_PARAM p[])
{
	return ainit(c, k, kl, iv, ivl, p, 1);
}

static int adec_init(void *c, const unsigned char *k, size_t kl, const unsigned char *iv, size_t ivl,
		     const OSSL_PARAM p[])
{
	return ainit(c, k, kl, iv, ivl, p, 0);
}

static void *adup(void *vc)
{
	struct actx *c = vc, *d = anew(c->provctx, c->chacha, c->keylen);

	if (!d)
		return NULL;
	d->taglen = c->taglen;
	if ((c->key_set && !setkey(d, c->key)) || !aad_reserve(d, c->aadlen)) {
		afree(d);
		return NULL;
	}
	if (c->aadlen)
		memcpy(d->aad, c->aad, c->aadlen);
	d->aadlen = c->aadlen;
	d->enc = c->enc;
	d->iv_set = c->iv_set;
	d->data_done = c->data_done;
	d->tag_set = c->tag_set;
	memcpy(d->iv, c->iv, 12);
	memcpy(d->tag, c->tag, TAGLEN);
	memcpy(d->tls_aad, c->tls_aad, TLS_AAD_LEN);
	d->tls_aad_set = c->tls_aad_set;
	d->tls_iv_fixed = c->tls_iv_fixed;
	return d;
}

/*
 * One request: encrypt @len bytes of @in to @out and the tag to @tag, or
 * decrypt them checking @tag.  The AAD is read from @aad, and the
 * request's AD output goes to a scratch copy (the kernel layout writes
 * the AD to the destination too).
 */
static int one_shot(struct actx *c, const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len,
		    uint8_t *out, uint8_t *tag)
{
	struct scatterlist src[3], dst[3];
	uint8_t *adscratch = c->adscratch, dummy;
	unsigned int ns = 0, nd = 0;
	int err;

	if (aadlen > 0x7fffffff || len > 0x7fffffff || !c->key_set || !c->iv_set)
		return 0;
	if (aadlen > AAD_INLINE && !(adscratch = malloc(aadlen)))
		return 0;
	sg_init_table(src, 3);
	sg_init_table(dst, 3);
	if (aadlen) {
		sg_set_buf(&src[ns++], aad, (unsigned int)aadlen);
		sg_set_buf(&dst[nd++], adscratch, (unsigned int)aadlen);
	}
	if (len) {
		sg_set_buf(&src[ns++], in, (unsigned int)len);
		sg_set_buf(&dst[nd++], out, (unsigned int)len);
	}
	if (c->enc)
		sg_set_buf(&dst[nd++], tag, c->taglen);
	else
		sg_set_buf(&src[ns++], tag, c->taglen);
	if (!ns)
		sg_set_buf(&src[ns++], &dummy, 0);
	if (!nd)
		sg_set_buf(&dst[nd++], &dummy, 0);
	sg_mark_end(&src[ns - 1]);
	sg_mark_end(&dst[nd - 1]);
	aead_request_set_crypt(c->req, src, dst, (unsigned int)len + (c->enc ? 0 : c->taglen), c->iv);
	aead_request_set_ad(c->req, (unsigned int)aadlen);
	err = c->enc ? crypto_aead_encrypt(c->req) : crypto_aead_decrypt(c->req);
	if (adscratch != c->adscratch)
		free(adscratch);
	return err == 0;
}

static int tls_record(struct actx *c, uint8_t *out, size_t *outl, const uint8_t *in, size_t len)
{
	size_t hdr = c->chacha ? 0 : GCM_EXPLICIT, plen;
	uint8_t *tag;
	int ok;

	c->tls_aad_set = 0;
	if (in != out || len < hdr + c->taglen)
		return 0;
	plen = len - hdr - c->taglen;
	if (c->chacha) {
		/* RFC 7905: the nonce is the fixed IV XOR the sequence number. */
		uint8_t save[12];
		int i;

		memcpy(save, c->iv, 12);
		for (i = 0; i < 8; i++)
			c->iv[4 + i] ^= c->tls_aad[i];
		c->iv_set = 1;
		tag = out + plen;
		ok = one_shot(c, c->tls_aad, TLS_AAD_LEN, in, plen, out, tag);
		memcpy(c->iv, save, 12);
	} else {
		if (!c->tls_iv_fixed)
			return 0;
		if (c->enc) {
			int i;

			memcpy(out, c->iv + 4, GCM_EXPLICIT);
			tag = out + hdr + plen;
			ok = one_shot(c, c->tls_aad, TLS_AAD_LEN, in + hdr, plen, out + hdr, tag);
			/* The next record's explicit nonce: a 64-bit counter. */
			for (i = 11; i >= 4 && ++c->iv[i] == 0; i--)
				;
		} else {
			memcpy(c->iv + 4, in, GCM_EXPLICIT);
			tag = (uint8_t *)in + hdr + plen;
			ok = one_shot(c, c->tls_aad, TLS_AAD_LEN, in + hdr, plen, out + hdr, tag);
		}
	}
	if (!ok)
		return 0;
	*outl = c->enc ? len : plen;
	return 1;
}

static int aupdate(void *vc, unsigned char *out, size_t *outl, size_t outsize,
		   const unsigned char *in, size_t inl)
{
	struct actx *c = vc;

	if (c->tls_aad_set) {
		if (outsize < inl)
			return 0;
		return tls_record(c, out, outl, in, inl);
	}
	if (!out) {
		/* AAD */
		if (c->data_done)
			return 0;
		if (c->aadlen + inl < inl || !aad_reserve(c, c->aadlen + inl))
			return 0;
		if (inl)
			memcpy(c->aad + c->aadlen, in, inl);
		c->aadlen += inl;
		*outl = inl;
		return 1;
	}
	if (c->data_done) {
		rind_raise(c->provctx, RIND_R_FAIL, "rind AEAD: one data update per message");
		return 0;
	}
	if (outsize < inl || (!c->enc && !c->tag_set)) {
		if (!c->enc && !c->tag_set)
			rind_raise(c->provctx, RIND_R_FAIL, "rind AEAD: set the tag before decrypting");
		return 0;
	}
	c->data_done = 1;
	if (!one_shot(c, c->aad, c->aadlen, in, inl, out, c->tag))
		return 0;
	*outl = inl;
	return 1;
}

static int afinal(void *vc, unsigned char *out, size_t *outl, size_t outsize)
{
	struct actx *c = vc;

	(void)out; (void)outsize;
	*outl = 0;
	if (c->data_done)
		return 1;
	/* No data update: an empty message (the AAD alone is authenticated). */
	if (!c->enc && !c->tag_set)
		return 0;
	c->data_done = 1;
	return one_shot(c, c->aad, c->aadlen, NULL, 0, NULL, c->tag);
}

static int acipher(void *vc, unsigned char *out, size_t *outl, size_t outsize,
		   const unsigned char *in, size_t inl)
{
	struct actx *c = vc;

	if (!in)
		return afinal(c, out, outl, outsize);
	return aupdate(c, out, outl, outsize, in, inl);
}

/* get/set_ctx_params run for every record (the tag, the IV): one pass each (rp_scan). */
enum { AG_KEYLEN, AG_IVLEN, AG_TAGLEN, AG_AADPAD, AG_IV, AG_UPDATED_IV, AG_TAG, AG_N };
static const char *const ag_names[AG_N] = {
	[AG_KEYLEN] = OSSL_CIPHER_PARAM_KEYLEN, [AG_IVLEN] = OSSL_CIPHER_PARAM_IVLEN,
	[AG_TAGLEN] = OSSL_CIPHER_PARAM_AEAD_TAGLEN, [AG_AADPAD] = OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD,
	[AG_IV] = OSSL_CIPHER_PARAM_IV, [AG_UPDATED_IV] = OSSL_CIPHER_PARAM_UPDATED_IV,
	[AG_TAG] = OSSL_CIPHER_PARAM_AEAD_TAG,
};

static int aget_ctx(void *vc, OSSL_PARAM params[])
{
	struct actx *c = vc;
	OSSL_PARAM *f[AG_N], *p;

	if (!params)
		return 1;
	rp_scan_w(params, ag_names, AG_N, f);
	if ((f[AG_KEYLEN] && !rp_set_size_t(f[AG_KEYLEN], c->keylen))
	    || (f[AG_IVLEN] && !rp_set_size_t(f[AG_IVLEN], 12))
	    || (f[AG_TAGLEN] && !rp_set_size_t(f[AG_TAGLEN], c->taglen))
	    || (f[AG_AADPAD] && !rp_set_size_t(f[AG_AADPAD], c->taglen))
	    || (f[AG_IV] && !rp_set_octets(f[AG_IV], c->iv, 12))
	    || (f[AG_UPDATED_IV] && !rp_set_octets(f[AG_UPDATED_IV], c->iv, 12)))
		return 0;
	if ((p = f[AG_TAG])) {
		/* The tag of an encryption, once the message is done. */
		if (!c->enc || !c->data_done || p->data_type != OSSL_PARAM_OCTET_STRING
		    || p->data_size == 0 || p->data_size > c->taglen)
			return 0;
		memcpy(p->data, c->tag, p->data_size);
		p->return_size = p->data_size;
	}
	return 1;
}

enum { AS_TAG, AS_IVLEN, AS_KEYLEN, AS_IV_FIXED, AS_TLSAAD, AS_MAC_SIZE, AS_IV_INV, AS_N };
static const char *const as_names[AS_N] = {
	[AS_TAG] = OSSL_CIPHER_PARAM_AEAD_TAG, [AS_IVLEN] = OSSL_CIPHER_PARAM_AEAD_IVLEN,
	[AS_KEYLEN] = OSSL_CIPHER_PARAM_KEYLEN, [AS_IV_FIXED] = OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED,
	[AS_TLSAAD] = OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, [AS_MAC_SIZE] = OSSL_CIPHER_PARAM_TLS_MAC_SIZE,
	[AS_IV_INV] = OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV,
};

static int aset(void *vc, const OSSL_PARAM params[])
{
	struct actx *c = vc;
	const OSSL_PARAM *f[AS_N], *p;
	const void *d;
	size_t n;

	if (!params)
		return 1;
	rp_scan(params, as_names, AS_N, f);
	if ((p = f[AS_TAG])) {
		if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size == 0 || p->data_size > TAGLEN)
			return 0;
		if (p->data_size != c->taglen) {
			c->taglen = (unsigned int)p->data_size;
			if (c->tfm && crypto_aead_setauthsize(c->tfm, c->taglen))
				return 0;
		}
		if (p->data) {
			if (c->enc)
				return 0;
			memcpy(c->tag, p->data, p->data_size);
			c->tag_set = 1;
		}
	}
	if ((p = f[AS_IVLEN])) {
		size_t v;

		/* Only 96-bit nonces (what TLS, QUIC and WebCrypto use). */
		if (!rp_get_size_t(p, &v) || v != 12)
			return 0;
	}
	if ((p = f[AS_KEYLEN])) {
		size_t v;

		if (!rp_get_size_t(p, &v) || v != c->keylen)
			return 0;
	}
	if ((p = f[AS_IV_FIXED])) {
		if (!rp_get_octets(p, &d, &n))
			return 0;
		if (c->chacha) {
			if (n != 12)
				return 0;
			memcpy(c->iv, d, 12);
		} else if (n == 12) {
			memcpy(c->iv, d, 12);
		} else if (n == 4) {
			memcpy(c->iv, d, 4);
			/* The explicit part starts at a random value (RFC 5288 3). */
			if (c->enc && rind_get_random_bytes(c->iv + 4, 8))
				return 0;
		} else {
			return 0;
		}
		c->iv_set = 1;
		c->tls_iv_fixed = 1;
	}
	if ((p = f[AS_TLSAAD])) {
		unsigned int len;

		if (!rp_get_octets(p, &d, &n) || n != TLS_AAD_LEN)
			return 0;
		memcpy(c->tls_aad, d, TLS_AAD_LEN);
		len = (unsigned int)c->tls_aad[11] << 8 | c->tls_aad[12];
		{
			/*
			 * The record length libssl puts there counts GCM's explicit
			 * nonce (both ways) and, decrypting, the tag; the AAD's
			 * length is the plaintext's.
			 */
			unsigned int extra = (c->chacha ? 0 : GCM_EXPLICIT) + (c->enc ? 0 : c->taglen);

			if (len < extra)
				return 0;
			len -= extra;
			c->tls_aad[11] = (uint8_t)(len >> 8);
			c->tls_aad[12] = (uint8_t)len;
		}
		c->tls_aad_set = 1;
	}
	/* libssl tells every cipher the TLS version and MAC size; an AEAD has no MAC. */
	if ((p = f[AS_MAC_SIZE])) {
		size_t v;

		if (!rp_get_size_t(p, &v) || v)
			return 0;
	}
	if (f[AS_IV_INV])
		return 0;
	return 1;
}

static const OSSL_PARAM a_gettable_ctx[] = {
	{ OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ OSSL_CIPHER_PARAM_IVLEN, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ OSSL_CIPHER_PARAM_AEAD_TAGLEN, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ OSSL_CIPHER_PARAM_IV, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_CIPHER_PARAM_UPDATED_IV, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM a_settable_ctx[] = {
	{ OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ OSSL_CIPHER_PARAM_AEAD_IVLEN, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, OSSL_PARAM_OCTET_STRING, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM *agettable_ctx(void *c, void *p) { (void)c; (void)p; return a_gettable_ctx; }
static const OSSL_PARAM *asettable_ctx(void *c, void *p) { (void)c; (void)p; return a_settable_ctx; }

#define AEAD(sym, chacha, kl)							\
static void *sym##_new(void *provctx) { return anew(provctx, chacha, kl); }	\
static int sym##_get(OSSL_PARAM params[])					\
{ return rp_cipher_get_params(params, chacha ? MODE_STREAM : MODE_GCM, kl, 12, 1, 1); }	\
const OSSL_DISPATCH rind_##sym##_fns[] = {					\
	{ OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))sym##_new },			\
	{ OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))aenc_init },		\
	{ OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))adec_init },		\
	{ OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))aupdate },			\
	{ OSSL_FUNC_CIPHER_FINAL, (void (*)(void))afinal },			\
	{ OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))acipher },			\
	{ OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))afree },			\
	{ OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))adup },			\
	{ OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))sym##_get },		\
	{ OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))aget_ctx },		\
	{ OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))aset },		\
	{ OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))rp_cipher_gettable_params },\
	{ OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))agettable_ctx },\
	{ OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))asettable_ctx },\
	{ 0, NULL }								\
};

AEAD(aes128gcm, 0, 16)
AEAD(aes192gcm, 0, 24)
AEAD(aes256gcm, 0, 32)
AEAD(chachapoly, 1, 32)
