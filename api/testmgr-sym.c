// SPDX-License-Identifier: MIT
/*
 * The testmgr's table runners for the symmetric types: every vector of a
 * desc through the tfm API, once whole and once over split scatterlists
 * (or init/update/finup), so that the walk code of an implementation is
 * tested along with its arithmetic.
 */
#include <string.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/hash.h>
#include <rind/internal/cipher.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/aead.h>

int alg_test_hash(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	struct crypto_shash *tfm;
	u8 out[HASH_MAX_DIGESTSIZE];
	unsigned int i, ds;
	int err = 0;

	tfm = crypto_alloc_shash(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	ds = crypto_shash_digestsize(tfm);
	for (i = 0; i < desc->suite.hash.count && !err; i++) {
		const struct hash_testvec *v = &desc->suite.hash.vecs[i];
		SHASH_DESC_ON_STACK(d, tfm);
		unsigned int half = v->psize / 2;

		if (v->ksize || crypto_shash_alg(tfm)->setkey) {
			err = crypto_shash_setkey(tfm, (const u8 *)v->key, v->ksize);
			if (err) {
				alg_test_fail(alg, "hash", i, "setkey", err);
				break;
			}
		}
		err = crypto_shash_tfm_digest(tfm, (const u8 *)v->plaintext, v->psize, out);
		if (err || memcmp(out, v->digest, ds)) {
			err = alg_test_fail(alg, "hash", i, "digest", err);
			break;
		}
		/* The same through init/update/update/final, split in two. */
		d->tfm = tfm;
		memset(out, 0, sizeof(out));
		err = crypto_shash_init(d);
		if (!err)
			err = crypto_shash_update(d, (const u8 *)v->plaintext, half);
		if (!err)
			err = crypto_shash_finup(d, (const u8 *)v->plaintext + half, v->psize - half, out);
		if (err || memcmp(out, v->digest, ds))
			err = alg_test_fail(alg, "hash", i, "init/update/finup", err);
	}
	crypto_free_shash(tfm);
	return err;
}

int alg_test_cipher(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	struct crypto_cipher *tfm;
	u8 buf[32];
	unsigned int i, bs;
	int err = 0;

	tfm = crypto_alloc_cipher(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	bs = crypto_cipher_blocksize(tfm);
	for (i = 0; i < desc->suite.cipher.count && !err; i++) {
		const struct cipher_testvec *v = &desc->suite.cipher.vecs[i];
		unsigned int off;

		err = crypto_cipher_setkey(tfm, (const u8 *)v->key, v->klen);
		if (alg_test_key_done(alg, "cipher", i, "setkey", &err, v->setkey_error))
			continue;
		for (off = 0; off + bs <= v->len && !err; off += bs) {
			crypto_cipher_encrypt_one(tfm, buf, (const u8 *)v->ptext + off);
			if (memcmp(buf, v->ctext + off, bs))
				err = alg_test_fail(alg, "cipher", i, "encrypt", err);
			crypto_cipher_decrypt_one(tfm, buf, (const u8 *)v->ctext + off);
			if (!err && memcmp(buf, v->ptext + off, bs))
				err = alg_test_fail(alg, "cipher", i, "decrypt", err);
		}
	}
	crypto_free_cipher(tfm);
	return err;
}

static int skcipher_one(struct crypto_skcipher *tfm, const struct cipher_testvec *v, bool enc,
			bool split, u8 *out)
{
	struct skcipher_request *req;
	struct scatterlist src[2], dst[2];
	u8 iv[64];
	unsigned int half = v->len / 2 + (v->len > 2);
	const char *in = enc ? v->ptext : v->ctext;
	int err;

	req = skcipher_request_alloc(tfm, GFP_KERNEL);
	if (IS_ERR(req))
		return (int)PTR_ERR(req);
	memcpy(out, in, v->len);
	memset(iv, 0, sizeof(iv));
	if (v->iv)
		memcpy(iv, v->iv, crypto_skcipher_ivsize(tfm));
	if (split && v->len > 1) {
		/* In place over two segments split inside a block. */
		sg_init_table(src, 2);
		sg_set_buf(&src[0], out, half);
		sg_set_buf(&src[1], out + half, v->len - half);
		skcipher_request_set_crypt(req, src, src, v->len, iv);
	} else {
		sg_init_one(src, in, v->len);
		sg_init_one(dst, out, v->len);
		skcipher_request_set_crypt(req, src, dst, v->len, iv);
	}
	err = enc ? crypto_skcipher_encrypt(req) : crypto_skcipher_decrypt(req);
	if (!err && enc && v->iv_out && memcmp(iv, v->iv_out, crypto_skcipher_ivsize(tfm)))
		err = -EBADMSG;
	skcipher_request_free(req);
	return err;
}

int alg_test_skcipher(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	struct crypto_skcipher *tfm;
	unsigned int i;
	int err = 0;

	tfm = crypto_alloc_skcipher(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	for (i = 0; i < desc->suite.cipher.count && !err; i++) {
		const struct cipher_testvec *v = &desc->suite.cipher.vecs[i];
		u8 *out;
		int split;

		err = crypto_skcipher_setkey(tfm, (const u8 *)v->key, v->klen);
		if (alg_test_key_done(alg, "skcipher", i, "setkey", &err, v->setkey_error))
			continue;
		out = malloc(v->len + 1);
		if (!out) {
			err = -ENOMEM;
			break;
		}
		for (split = 0; split < 2 && !err; split++) {
			err = skcipher_one(tfm, v, true, split, out);
			if (err || memcmp(out, v->ctext, v->len)) {
				err = alg_test_fail(alg, "skcipher", i, "encrypt", err);
				break;
			}
			err = skcipher_one(tfm, v, false, split, out);
			if (err || memcmp(out, v->ptext, v->len))
				err = alg_test_fail(alg, "skcipher", i, "decrypt", err);
		}
		free(out);
	}
	crypto_free_skcipher(tfm);
	return err;
}

static int aead_one(struct crypto_aead *tfm, const struct aead_testvec *v, bool enc, u8 *buf,
		    unsigned int *outlen)
{
	struct aead_request *req;
	struct scatterlist sg[3];
	u8 iv[64];
	unsigned int inlen = enc ? v->plen : v->clen;
	unsigned int total = v->alen + (enc ? v->clen : v->clen);
	unsigned int cut = v->alen + inlen / 2;
	int err;

	req = aead_request_alloc(tfm, GFP_KERNEL);
	if (IS_ERR(req))
		return (int)PTR_ERR(req);
	memset(iv, 0, sizeof(iv));
	if (v->iv)
		memcpy(iv, v->iv, crypto_aead_ivsize(tfm));
	memcpy(buf, v->assoc, v->alen);
	memcpy(buf + v->alen, enc ? v->ptext : v->ctext, inlen);
	/* In place, split once inside the text, once at the AD boundary. */
	sg_init_table(sg, 3);
	sg_set_buf(&sg[0], buf, v->alen);
	sg_set_buf(&sg[1], buf + v->alen, cut - v->alen);
	sg_set_buf(&sg[2], buf + cut, total - cut);
	aead_request_set_crypt(req, sg, sg, inlen, iv);
	aead_request_set_ad(req, v->alen);
	err = enc ? crypto_aead_encrypt(req) : crypto_aead_decrypt(req);
	*outlen = enc ? v->clen : v->plen;
	aead_request_free(req);
	return err;
}

int alg_test_aead(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	struct crypto_aead *tfm;
	unsigned int i, outlen;
	int err = 0;

	tfm = crypto_alloc_aead(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	for (i = 0; i < desc->suite.aead.count && !err; i++) {
		const struct aead_testvec *v = &desc->suite.aead.vecs[i];
		u8 *buf;

		err = crypto_aead_setkey(tfm, (const u8 *)v->key, v->klen);
		if (alg_test_key_done(alg, "aead", i, "setkey", &err, v->setkey_error))
			continue;
		if (v->clen < v->plen || crypto_aead_setauthsize(tfm, v->clen - v->plen)) {
			err = alg_test_fail(alg, "aead", i, "setauthsize", err);
			break;
		}
		buf = calloc(1, v->alen + v->clen + 1);
		if (!buf) {
			err = -ENOMEM;
			break;
		}
		if (!v->novrfy) {
			err = aead_one(tfm, v, true, buf, &outlen);
			if (err || memcmp(buf + v->alen, v->ctext, outlen))
				err = alg_test_fail(alg, "aead", i, "encrypt", err);
		}
		if (!err) {
			err = aead_one(tfm, v, false, buf, &outlen);
			if (v->novrfy) {
				err = err == -EBADMSG ? 0 :
				      alg_test_fail(alg, "aead", i, "forgery accepted", err);
			} else if (err || memcmp(buf + v->alen, v->ptext, outlen)) {
				err = alg_test_fail(alg, "aead", i, "decrypt", err);
			}
		}
		free(buf);
	}
	crypto_free_aead(tfm);
	return err;
}
