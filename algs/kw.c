// SPDX-License-Identifier: MIT
/*
 * AES key wrap: the "kw" template (RFC 3394, NIST SP 800-38F KW) and the
 * "kwp" template (RFC 5649, SP 800-38F KWP), over a 16-byte block cipher:
 * "kw(aes)" -> driver "kw(aes-generic)", "kwp(aes)" -> "kwp(aes-generic)".
 *
 * Both carry the 8-byte integrity block A (the RFC's C[0]) in the request
 * iv, so that the RFC's wrapped key is iv || dst and the skcipher keeps
 * dst as long as src (ivsize 8, block size 8):
 *
 * kw, exactly as the kernel's kw(aes):
 *   encrypt: src = n 8-byte plaintext blocks (n >= 2, cryptlen = 8n), dst
 *            gets C[1..n], the iv gets C[0] (the iv passed in is ignored:
 *            the default IV A6A6A6A6A6A6A6A6 is used).
 *   decrypt: iv = C[0], src = C[1..n]; dst gets the plaintext.  If the
 *            recovered A is not the default IV (compared in constant time)
 *            the result is -EBADMSG and dst is zeroed.  The iv is not
 *            changed.
 *
 * kwp, the same with the RFC 5649 alternative IV A65959A6 || MLI (MLI =
 * the plaintext length in bytes, 32-bit big-endian):
 *   encrypt: cryptlen = the padded length L = 8 * ceil(MLI / 8) (L >= 8);
 *            iv[4..7] gives MLI (1 <= MLI, L - 8 < MLI <= L, else -EINVAL;
 *            iv[0..3] are ignored); src holds the MLI plaintext bytes then
 *            L - MLI bytes that are ignored (zeros are wrapped in their
 *            place).  dst gets C[1..L/8], the iv gets C[0].  For L = 8 the
 *            single block A || P is enciphered, as RFC 5649 says.
 *   decrypt: iv = C[0], src = C[1..L/8] (cryptlen = L >= 8, a multiple of
 *            8); dst gets the padded plaintext (L bytes, zeros after MLI)
 *            and the iv gets A65959A6 || MLI, so the caller reads the key
 *            length from iv[4..7].  A wrong prefix, an MLI outside
 *            (L - 8, L] or non-zero padding is -EBADMSG with dst zeroed and
 *            the iv unchanged; all three are checked in constant time.
 */
#include <stdio.h>
#include <rind/internal/cipher.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>

#define SEMIBSIZE	8

static const u8 kw_default_iv[SEMIBSIZE] = {
	0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6
};
static const u8 kwp_aiv_prefix[4] = { 0xa6, 0x59, 0x59, 0xa6 };

/* RFC 3394 2.2.1 W: six passes over the n semiblocks r[], A in @a. */
static void kw_wrap(struct crypto_cipher *cipher, u8 a[SEMIBSIZE], u8 *r, size_t n)
{
	void (*encrypt)(struct crypto_cipher *, u8 *, const u8 *) =
		crypto_cipher_alg(cipher)->encrypt;
	u8 b[16];
	u64 t = 1;
	size_t i;
	int j;

	for (j = 0; j < 6; j++) {
		for (i = 0; i < n; i++, t++) {
			memcpy(b, a, SEMIBSIZE);
			memcpy(b + SEMIBSIZE, r + SEMIBSIZE * i, SEMIBSIZE);
			encrypt(cipher, b, b);
			put_unaligned_be64(get_unaligned_be64(b) ^ t, a);
			memcpy(r + SEMIBSIZE * i, b + SEMIBSIZE, SEMIBSIZE);
		}
	}
	memzero_explicit(b, sizeof(b));
}

/* RFC 3394 2.2.2 W^-1: the passes backwards; the caller checks A. */
static void kw_unwrap(struct crypto_cipher *cipher, u8 a[SEMIBSIZE], u8 *r, size_t n)
{
	void (*decrypt)(struct crypto_cipher *, u8 *, const u8 *) =
		crypto_cipher_alg(cipher)->decrypt;
	u8 b[16];
	u64 t = 6 * (u64)n;
	size_t i;
	int j;

	for (j = 0; j < 6; j++) {
		for (i = n; i--; t--) {
			put_unaligned_be64(get_unaligned_be64(a) ^ t, b);
			memcpy(b + SEMIBSIZE, r + SEMIBSIZE * i, SEMIBSIZE);
			decrypt(cipher, b, b);
			memcpy(a, b, SEMIBSIZE);
			memcpy(r + SEMIBSIZE * i, b + SEMIBSIZE, SEMIBSIZE);
		}
	}
	memzero_explicit(b, sizeof(b));
}

/* Map the request and bring the input into the (possibly bounced) output. */
static int kw_map(struct rind_sg_map *m, struct skcipher_request *req)
{
	int err = rind_sg_map(m, req->src, req->dst, 0, req->cryptlen);

	if (err)
		return err;
	if (m->dst != m->src)
		memmove(m->dst, m->src, m->len);
	return 0;
}

/* A failed unwrap leaves zeros, not a guess at the key, in dst. */
static int kw_fail(struct rind_sg_map *m)
{
	memzero_explicit(m->dst, m->len);
	rind_sg_unmap(m, true);
	return -EBADMSG;
}

static int kw_encrypt(struct skcipher_request *req)
{
	struct crypto_cipher *cipher = skcipher_cipher_simple(crypto_skcipher_reqtfm(req));
	struct rind_sg_map m;
	u8 a[SEMIBSIZE];
	int err;

	if (req->cryptlen < 2 * SEMIBSIZE || req->cryptlen % SEMIBSIZE)
		return -EINVAL;
	err = kw_map(&m, req);
	if (err)
		return err;
	memcpy(a, kw_default_iv, SEMIBSIZE);
	kw_wrap(cipher, a, m.dst, m.len / SEMIBSIZE);
	memcpy(req->iv, a, SEMIBSIZE);
	rind_sg_unmap(&m, true);
	return 0;
}

static int kw_decrypt(struct skcipher_request *req)
{
	struct crypto_cipher *cipher = skcipher_cipher_simple(crypto_skcipher_reqtfm(req));
	struct rind_sg_map m;
	u8 a[SEMIBSIZE];
	int err;

	if (req->cryptlen < 2 * SEMIBSIZE || req->cryptlen % SEMIBSIZE)
		return -EINVAL;
	err = kw_map(&m, req);
	if (err)
		return err;
	memcpy(a, req->iv, SEMIBSIZE);
	kw_unwrap(cipher, a, m.dst, m.len / SEMIBSIZE);
	if (crypto_memneq(a, kw_default_iv, SEMIBSIZE))
		return kw_fail(&m);
	rind_sg_unmap(&m, true);
	return 0;
}

static int kwp_encrypt(struct skcipher_request *req)
{
	struct crypto_cipher *cipher = skcipher_cipher_simple(crypto_skcipher_reqtfm(req));
	unsigned int len = req->cryptlen;
	struct rind_sg_map m;
	u8 a[SEMIBSIZE], b[16];
	u32 mli;
	int err;

	if (len < SEMIBSIZE || len % SEMIBSIZE)
		return -EINVAL;
	mli = get_unaligned_be32(req->iv + 4);
	if (!mli || mli > len || mli <= len - SEMIBSIZE)
		return -EINVAL;
	err = kw_map(&m, req);
	if (err)
		return err;
	memset(m.dst + mli, 0, len - mli);
	memcpy(a, kwp_aiv_prefix, 4);
	put_unaligned_be32(mli, a + 4);
	if (len == SEMIBSIZE) {
		memcpy(b, a, SEMIBSIZE);
		memcpy(b + SEMIBSIZE, m.dst, SEMIBSIZE);
		crypto_cipher_encrypt_one(cipher, b, b);
		memcpy(a, b, SEMIBSIZE);
		memcpy(m.dst, b + SEMIBSIZE, SEMIBSIZE);
		memzero_explicit(b, sizeof(b));
	} else {
		kw_wrap(cipher, a, m.dst, len / SEMIBSIZE);
	}
	memcpy(req->iv, a, SEMIBSIZE);
	rind_sg_unmap(&m, true);
	return 0;
}

static int kwp_decrypt(struct skcipher_request *req)
{
	struct crypto_cipher *cipher = skcipher_cipher_simple(crypto_skcipher_reqtfm(req));
	unsigned int len = req->cryptlen, i;
	struct rind_sg_map m;
	u8 a[SEMIBSIZE], b[16];
	u64 mli, bad, lo;
	int err;

	if (len < SEMIBSIZE || len % SEMIBSIZE)
		return -EINVAL;
	err = kw_map(&m, req);
	if (err)
		return err;
	memcpy(a, req->iv, SEMIBSIZE);
	if (len == SEMIBSIZE) {
		memcpy(b, a, SEMIBSIZE);
		memcpy(b + SEMIBSIZE, m.dst, SEMIBSIZE);
		crypto_cipher_decrypt_one(cipher, b, b);
		memcpy(a, b, SEMIBSIZE);
		memcpy(m.dst, b + SEMIBSIZE, SEMIBSIZE);
		memzero_explicit(b, sizeof(b));
	} else {
		kw_unwrap(cipher, a, m.dst, len / SEMIBSIZE);
	}
	/* constant time: the prefix, len - 8 < MLI <= len, zero padding */
	bad = (u64)crypto_memneq(a, kwp_aiv_prefix, 4) != 0;
	mli = get_unaligned_be32(a + 4);
	lo = len - SEMIBSIZE;
	bad |= (lo - mli) >> 63 ^ 1;		/* not lo < mli */
	bad |= ((u64)len - mli) >> 63;		/* len < mli */
	for (i = 0; i < SEMIBSIZE; i++) {
		u64 pos = lo + i;
		u64 in_pad = (mli - 1 - pos) >> 63;	/* pos >= mli */

		bad |= in_pad & ((0 - (u64)m.dst[pos]) >> 63);
	}
	rind_declassify(&bad, sizeof(bad));	/* the verdict is public */
	if (bad)
		return kw_fail(&m);
	memcpy(req->iv, a, SEMIBSIZE);
	rind_sg_unmap(&m, true);
	return 0;
}

static int kw_create_common(struct crypto_template *tmpl, const char *const *args, int nargs,
			    bool pad)
{
	struct skcipher_instance *inst;

	inst = skcipher_alloc_instance_simple(tmpl, args, nargs, 2 * SEMIBSIZE, 2 * SEMIBSIZE);
	if (IS_ERR(inst))
		return (int)PTR_ERR(inst);
	/* semiblocks in and out, A in the iv */
	inst->alg.base.cra_blocksize = SEMIBSIZE;
	inst->alg.ivsize = SEMIBSIZE;
	inst->alg.chunksize = SEMIBSIZE;
	inst->alg.encrypt = pad ? kwp_encrypt : kw_encrypt;
	inst->alg.decrypt = pad ? kwp_decrypt : kw_decrypt;
	return skcipher_register_instance_simple(tmpl, inst);
}

static int kw_create(struct crypto_template *tmpl, const char *const *args, int nargs)
{
	return kw_create_common(tmpl, args, nargs, false);
}

static int kwp_create(struct crypto_template *tmpl, const char *const *args, int nargs)
{
	return kw_create_common(tmpl, args, nargs, true);
}

static struct crypto_template kw_tmpls[] = {
	{ .name = "kw", .create = kw_create },
	{ .name = "kwp", .create = kwp_create },
};

/* RFC 3394 4.1 and 4.6: iv = iv_out = C[0], ctext = C[1..n]. */
static const struct cipher_testvec kw_aes_tv[] = {
	{
		.key	= "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f",
		.klen	= 16,
		.iv	= "\x1f\xa6\x8b\x0a\x81\x12\xb4\x47",
		.iv_out	= "\x1f\xa6\x8b\x0a\x81\x12\xb4\x47",
		.ptext	= "\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff",
		.ctext	= "\xae\xf3\x4b\xd8\xfb\x5a\x7b\x82\x9d\x3e\x86\x23\x71\xd2\xcf\xe5",
		.len	= 16,
	}, {
		.key	= "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
			  "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f",
		.klen	= 32,
		.iv	= "\x28\xc9\xf4\x04\xc4\xb8\x10\xf4",
		.iv_out	= "\x28\xc9\xf4\x04\xc4\xb8\x10\xf4",
		.ptext	= "\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff"
			  "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f",
		.ctext	= "\xcb\xcc\xb3\x5c\xfb\x87\xf8\x26\x3f\x57\x86\xe2\xd8\x0e\xd3\x26"
			  "\xcb\xc7\xf0\xe7\x1a\x99\xf4\x3b\xfb\x98\x8b\x9b\x7a\x02\xdd\x21",
		.len	= 32,
	},
};

/* RFC 5649 section 6: key, plaintext (mlen bytes), C[0], C[1..]. */
struct kwp_testvec {
	const char *key, *ptext, *c0, *ctext;
	unsigned int klen, mlen;
};

static const struct kwp_testvec kwp_aes_tv[] = {
	{
		.key	= "\x58\x40\xdf\x6e\x29\xb0\x2a\xf1\xab\x49\x3b\x70\x5b\xf1\x6e\xa1"
			  "\xae\x83\x38\xf4\xdc\xc1\x76\xa8",
		.klen	= 24,
		.ptext	= "\xc3\x7b\x7e\x64\x92\x58\x43\x40\xbe\xd1\x22\x07\x80\x89\x41\x15"
			  "\x50\x68\xf7\x38",
		.mlen	= 20,
		.c0	= "\x13\x8b\xde\xaa\x9b\x8f\xa7\xfc",
		.ctext	= "\x61\xf9\x77\x42\xe7\x22\x48\xee\x5a\xe6\xae\x53\x60\xd1\xae\x6a"
			  "\x5f\x54\xf3\x73\xfa\x54\x3b\x6a",
	}, {
		.key	= "\x58\x40\xdf\x6e\x29\xb0\x2a\xf1\xab\x49\x3b\x70\x5b\xf1\x6e\xa1"
			  "\xae\x83\x38\xf4\xdc\xc1\x76\xa8",
		.klen	= 24,
		.ptext	= "\x46\x6f\x72\x50\x61\x73\x69",
		.mlen	= 7,
		.c0	= "\xaf\xbe\xb0\xf0\x7d\xfb\xf5\x41",
		.ctext	= "\x92\x00\xf2\xcc\xb5\x0b\xb2\x4f",
	},
};

static int kwp_one(struct crypto_skcipher *tfm, bool enc, u8 *buf, unsigned int len, u8 *iv)
{
	struct skcipher_request *req = skcipher_request_alloc(tfm, GFP_KERNEL);
	struct scatterlist sg;
	int err;

	if (IS_ERR(req))
		return (int)PTR_ERR(req);
	sg_init_one(&sg, buf, len);
	skcipher_request_set_crypt(req, &sg, &sg, len, iv);
	err = enc ? crypto_skcipher_encrypt(req) : crypto_skcipher_decrypt(req);
	skcipher_request_free(req);
	return err;
}

/* Wrap, unwrap, and an unwrap of a corrupted C[0] that must fail. */
static int kwp_selftest(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	const struct kwp_testvec *vecs = desc->suite.priv;
	struct crypto_skcipher *tfm;
	unsigned int i;
	int err = 0;

	tfm = crypto_alloc_skcipher(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	for (i = 0; i < ARRAY_SIZE(kwp_aes_tv) && !err; i++) {
		const struct kwp_testvec *v = &vecs[i];
		unsigned int len = (v->mlen + 7) & ~7u;
		u8 buf[32], iv[SEMIBSIZE];

		err = crypto_skcipher_setkey(tfm, (const u8 *)v->key, v->klen);
		if (err)
			break;
		memset(buf, 0xee, sizeof(buf));
		memcpy(buf, v->ptext, v->mlen);
		memset(iv, 0, 4);
		put_unaligned_be32(v->mlen, iv + 4);
		err = kwp_one(tfm, true, buf, len, iv);
		if (err || memcmp(iv, v->c0, SEMIBSIZE) || memcmp(buf, v->ctext, len)) {
			err = -EBADMSG;
			break;
		}
		err = kwp_one(tfm, false, buf, len, iv);
		if (err || memcmp(buf, v->ptext, v->mlen) ||
		    memcmp(iv, kwp_aiv_prefix, 4) || get_unaligned_be32(iv + 4) != v->mlen) {
			err = -EBADMSG;
			break;
		}
		memcpy(buf, v->ctext, len);
		memcpy(iv, v->c0, SEMIBSIZE);
		iv[0] ^= 1;
		err = kwp_one(tfm, false, buf, len, iv) == -EBADMSG ? 0 : -EBADMSG;
	}
	if (err)
		fprintf(stderr, "rind: %s: self-test vector %u failed\n",
			alg->cra_driver_name, i);
	crypto_free_skcipher(tfm);
	return err;
}

static struct alg_test_desc kw_tests[] = {
	{
		.alg = "kw(aes)",
		.suite.cipher = __VECS(kw_aes_tv),
	}, {
		.alg = "kwp(aes)",
		.test = kwp_selftest,
		.suite.priv = kwp_aes_tv,
	},
};

static int kw_mod_init(void)
{
	int err;

	crypto_register_tests(kw_tests, ARRAY_SIZE(kw_tests));
	err = crypto_register_template(&kw_tmpls[0]);
	if (err)
		return err;
	return crypto_register_template(&kw_tmpls[1]);
}
module_init(kw_mod_init);
