// SPDX-License-Identifier: MIT
/*
 * What the RSA padding files (rsa-pkcs1.c, rsa-pss.c, rsa-oaep.c) share
 * besides the primitives: MGF1, the tfm context and the glue that puts a
 * sig or akcipher tfm's key operations onto it, driver registration, and
 * the key of the known-answer tests.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rind/hash.h>
#include <rind/internal/util.h>
#include <crypto/rsa.h>

int rsa_mgf1_xor(struct crypto_shash *hash, const u8 *seed, unsigned int seedlen,
		 u8 *out, unsigned int outlen)
{
	unsigned int hlen = crypto_shash_digestsize(hash), done = 0, i;
	u8 d[HASH_MAX_DIGESTSIZE], ctr[4];
	SHASH_DESC_ON_STACK(desc, hash);
	u32 c;
	int err = 0;

	desc->tfm = hash;
	for (c = 0; done < outlen; c++) {
		put_unaligned_be32(c, ctr);
		err = crypto_shash_init(desc);
		if (!err)
			err = crypto_shash_update(desc, seed, seedlen);
		if (!err)
			err = crypto_shash_update(desc, ctr, 4);
		if (!err)
			err = crypto_shash_final(desc, d);
		if (err)
			break;
		for (i = 0; i < hlen && done < outlen; i++)
			out[done++] ^= d[i];
	}
	memzero_explicit(d, sizeof(d));
	shash_desc_zero(desc);
	return err;
}

/* ---- tfm helpers ----------------------------------------------------------- */

int rsa_ctx_init(struct rsa_tfm_ctx *ctx, const char *hash_name)
{
	struct crypto_shash *h = crypto_alloc_shash(hash_name, 0, 0);

	if (IS_ERR(h))
		return (int)PTR_ERR(h);
	ctx->hash = h;
	ctx->keygen_bits = 3072;
	return 0;
}

void rsa_ctx_exit(struct rsa_tfm_ctx *ctx)
{
	if (!IS_ERR_OR_NULL(ctx->hash))
		crypto_free_shash(ctx->hash);
	ctx->hash = NULL;
	rsa_key_wipe(&ctx->key);
}

/* The hash is the second argument of the name: "pkcs1(rsa,sha256)". */
int rsa_ctx_init_from_name(struct rsa_tfm_ctx *ctx, const char *name)
{
	const char *comma = strchr(name, ',');
	char hash[CRYPTO_MAX_ALG_NAME];
	size_t len;

	if (!comma)
		return -EINVAL;
	len = strlen(comma + 1);
	if (!len || len >= sizeof(hash) || comma[len] != ')')
		return -EINVAL;
	memcpy(hash, comma + 1, len - 1);
	hash[len - 1] = 0;
	return rsa_ctx_init(ctx, hash);
}

int rsa_ctx_set_keygen_bits(struct rsa_tfm_ctx *ctx, unsigned int bits)
{
	if (bits < RSA_MIN_BITS || bits > RSA_MAX_BITS || (bits & 1))
		return -EINVAL;
	ctx->keygen_bits = bits;
	return 0;
}

/* ---- sig and akcipher glue, registration ---------------------------------- */

/*
 * The same for crypto_sig (rsa-pkcs1.c, rsa-pss.c) and crypto_akcipher
 * (rsa-oaep.c): each entry finds the struct rsa_tfm_ctx with
 * rsa_<type>_ctx() and calls the key function; the engine comes from the
 * driver the tfm was made from.
 */
#define RSA_TFM_GLUE(type)							\
int rsa_##type##_init(struct crypto_##type *tfm)				\
{										\
	struct rsa_tfm_ctx *ctx = rsa_##type##_ctx(tfm);			\
										\
	ctx->key.eng = container_of(crypto_##type##_alg(tfm),			\
				    struct rsa_##type##_driver, alg)->eng;	\
	return rsa_ctx_init_from_name(ctx, crypto_##type##_alg_name(tfm));	\
}										\
										\
void rsa_##type##_exit(struct crypto_##type *tfm)				\
{										\
	rsa_ctx_exit(rsa_##type##_ctx(tfm));					\
}										\
										\
int rsa_##type##_set_pub_key(struct crypto_##type *tfm, const void *key,	\
			     unsigned int keylen)				\
{										\
	return rsa_import_pub(&rsa_##type##_ctx(tfm)->key, key, keylen);	\
}										\
										\
int rsa_##type##_set_priv_key(struct crypto_##type *tfm, const void *key,	\
			      unsigned int keylen)				\
{										\
	return rsa_import_priv(&rsa_##type##_ctx(tfm)->key, key, keylen);	\
}										\
										\
int rsa_##type##_generate_key(struct crypto_##type *tfm)			\
{										\
	struct rsa_tfm_ctx *ctx = rsa_##type##_ctx(tfm);			\
										\
	return rsa_generate(&ctx->key, ctx->keygen_bits);			\
}										\
										\
int rsa_##type##_set_keygen_bits(struct crypto_##type *tfm, unsigned int bits)	\
{										\
	return rsa_ctx_set_keygen_bits(rsa_##type##_ctx(tfm), bits);		\
}										\
										\
int rsa_##type##_export_pubkey(struct crypto_##type *tfm, enum rind_key_format fmt, \
			       u8 *out, unsigned int outlen)			\
{										\
	return rsa_export_pub(&rsa_##type##_ctx(tfm)->key, fmt, out, outlen);	\
}										\
										\
int rsa_##type##_export_privkey(struct crypto_##type *tfm, enum rind_key_format fmt, \
				u8 *out, unsigned int outlen)		\
{										\
	return rsa_export_priv(&rsa_##type##_ctx(tfm)->key, fmt, out, outlen);	\
}										\
										\
int rsa_##type##_register_drivers(struct rsa_##type##_driver *drv, unsigned int n) \
{										\
	unsigned int i;								\
	int err = 0;								\
										\
	for (i = 0; i < n && !err; i++) {					\
		if (drv[i].kat.alg)						\
			crypto_register_test(&drv[i].kat);			\
		err = crypto_register_##type(&drv[i].alg);			\
	}									\
	while (err && --i)	/* drv[i - 1] failed: unregister those before */ \
		crypto_unregister_##type(&drv[i - 1].alg);			\
	return err;								\
}

static struct rsa_tfm_ctx *rsa_sig_ctx(struct crypto_sig *tfm)
{
	return crypto_sig_ctx(tfm);
}

static struct rsa_tfm_ctx *rsa_akcipher_ctx(struct crypto_akcipher *tfm)
{
	return akcipher_tfm_ctx(tfm);
}

RSA_TFM_GLUE(sig)
RSA_TFM_GLUE(akcipher)

unsigned int rsa_sig_key_size(struct crypto_sig *tfm)
{
	return rsa_sig_ctx(tfm)->key.bits;
}

/* With no key yet, the largest a signature can be. */
unsigned int rsa_sig_max_size(struct crypto_sig *tfm)
{
	struct rsa_tfm_ctx *ctx = rsa_sig_ctx(tfm);

	return ctx->key.bits ? ctx->key.k : RSA_MAX_BYTES;
}

/* The ciphertext size: 0 with no key. */
unsigned int rsa_akcipher_max_size(struct crypto_akcipher *tfm)
{
	return rsa_akcipher_ctx(tfm)->key.k;
}

/* ---- batches (rsa.h: rsa_sig_sign_batch) ----------------------------------- */

int rsa_sig_sign_one(struct crypto_sig *tfm, const void *msg, unsigned int msglen,
		     void *sig, unsigned int siglen, rsa_encode_fn *encode)
{
	struct rsa_tfm_ctx *ctx = rsa_sig_ctx(tfm);
	u8 em[RSA_MAX_BYTES];
	int err;

	if (!ctx->key.has_priv)
		return -ENOKEY;
	if (siglen < ctx->key.k)
		return -EINVAL;
	err = encode(ctx, msg, msglen, em);
	if (!err)
		err = rsa_private(&ctx->key, sig, em);
	memzero_explicit(em, sizeof(em));
	return err ? err : (int)ctx->key.k;
}

/* Requests encoded and signed at a time: two passes of eight lanes. */
#define RSA_BATCH_CHUNK	16

void rsa_sig_sign_batch(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n,
			rsa_encode_fn *encode)
{
	struct rsa_tfm_ctx *ctx = rsa_sig_ctx(tfm);
	struct rsa_priv_req pr[RSA_BATCH_CHUNK];
	unsigned int k = ctx->key.k, done, c, i;
	u8 *em = NULL;

	if (ctx->key.has_priv)
		em = malloc((size_t)RSA_BATCH_CHUNK * k);
	for (done = 0; done < n; done += c) {
		c = n - done < RSA_BATCH_CHUNK ? n - done : RSA_BATCH_CHUNK;
		for (i = 0; i < c; i++) {
			struct sig_request *q = &reqs[done + i];

			pr[i].out = q->sig;
			pr[i].in = em ? em + (size_t)i * k : NULL;
			pr[i].err = q->err;
			if (pr[i].err)
				continue;		/* the front end's verdict */
			if (!ctx->key.has_priv)
				pr[i].err = -ENOKEY;
			else if (!em)
				pr[i].err = -ENOMEM;
			else if (q->siglen < k)
				pr[i].err = -EINVAL;
			else
				pr[i].err = encode(ctx, q->msg, q->msglen, em + (size_t)i * k);
		}
		if (em)
			rsa_private_batch(&ctx->key, pr, c);
		for (i = 0; i < c; i++) {
			reqs[done + i].err = pr[i].err;
			if (!pr[i].err)
				reqs[done + i].siglen = k;
		}
	}
	if (em) {
		memzero_explicit(em, (size_t)RSA_BATCH_CHUNK * k);
		free(em);
	}
}

/*
 * struct sig_alg.batch_width: the lanes depend on the key (rsa.c's
 * batch_width: RSA-2048 and -3072 halves fit the IFMA lanes, RSA-4096's
 * do not; no private key, none), so the driver's batch_lanes alone would
 * say 8 for a batch signed one at a time.
 */
static unsigned int rsa_sig_batch_width(struct crypto_sig *tfm, unsigned int n)
{
	return rsa_batch_lanes(&rsa_sig_ctx(tfm)->key, n);
}

void rsa_sig_fill_batch(struct rsa_sig_driver *drv, unsigned int n, const struct rsa_engine *eng,
			void (*sign_batch)(struct crypto_sig *tfm, struct sig_request *reqs,
					   unsigned int n))
{
	unsigned int i;

	if (!eng->exp_ct_lanes || !eng->lanes_min || eng->lanes < 2)
		return;
	for (i = 0; i < n; i++) {
		drv[i].alg.sign_batch = sign_batch;
		/* the most it runs (RSA-2048's halves); per key: batch_width */
		drv[i].alg.batch_lanes = eng->lanes;
		drv[i].alg.batch_min = eng->lanes_min(16);
		drv[i].alg.batch_width = rsa_sig_batch_width;
	}
}

/* ---- an arch engine's drivers (rsa.h: struct rsa_engine_drivers) ------------ */

void rsa_fill_engine_drivers(struct rsa_engine_drivers *d, const struct rsa_engine *eng,
			     int priority, const char *module)
{
	rsa_pkcs1_fill_drivers(d->pkcs1, eng, priority, module);
	rsa_pss_fill_drivers(d->pss, eng, priority, module);
	rsa_oaep_fill_drivers(d->oaep, eng, priority, module);
}

static void rsa_sig_unregister_drivers(struct rsa_sig_driver *drv, unsigned int n)
{
	while (n--)
		crypto_unregister_sig(&drv[n].alg);
}

int rsa_register_engine_drivers(struct rsa_engine_drivers *d)
{
	int err = rsa_sig_register_drivers(d->pkcs1, RSA_SCHEME_NDRIVERS);

	if (err)
		return err;
	err = rsa_sig_register_drivers(d->pss, RSA_SCHEME_NDRIVERS);
	if (!err) {
		err = rsa_akcipher_register_drivers(d->oaep, RSA_SCHEME_NDRIVERS);
		if (err)
			rsa_sig_unregister_drivers(d->pss, RSA_SCHEME_NDRIVERS);
	}
	if (err)
		rsa_sig_unregister_drivers(d->pkcs1, RSA_SCHEME_NDRIVERS);
	return err;
}

int rsa_register_engine(struct rsa_engine_drivers *d, const struct rsa_engine *eng,
			int priority, const char *module)
{
	rsa_fill_engine_drivers(d, eng, priority, module);
	return rsa_register_engine_drivers(d);
}

/* ---- the self-test key ------------------------------------------------------ */

/* An RSA-2048 key made by OpenSSL for the known-answer tests (PKCS#1 DER). */
const char rsa_kat_privkey[RSA_KAT_PRIV_SIZE + 1] =
	"\x30\x82\x04\xa5\x02\x01\x00\x02\x82\x01\x01\x00\xc9\x38\x41\x33"
	"\x44\xa0\x8a\x71\x15\x42\x76\x36\xae\x54\x32\x4e\x2e\xfa\x40\x95"
	"\xac\x9b\x49\x99\x21\xca\x3f\x62\x33\x06\x80\x7d\xe3\x31\x12\x9d"
	"\xc8\x47\xa6\xe8\xd0\x5d\xbe\xb1\x00\xe9\xc0\x37\xe2\x19\xdb\xa9"
	"\x06\xfb\x5c\xc4\x2f\x40\x11\x75\x81\xf1\xab\x9b\x46\x64\xd9\x97"
	"\xcf\xb7\xe5\xc7\xf8\xf1\xbc\x3c\xa9\x94\x79\xa1\x4f\x1c\x0e\x54"
	"\x90\xdf\xc1\x75\x45\xd9\xc4\xd0\x5b\x10\x71\x1e\xca\xc4\xed\x79"
	"\xc8\x8e\xf2\x66\x73\xed\xc4\xcd\x04\x44\x10\x06\xc1\x06\x49\xf0"
	"\x39\x2a\xdd\xe9\xc1\xc2\x4c\x27\x3c\x12\xeb\x7e\xb2\x1c\x51\x55"
	"\xd9\xe9\xd1\x55\xc2\x3e\x8a\x1a\xde\xe3\x38\x1a\x60\x21\xd9\x8d"
	"\x4e\x3c\xc8\xd0\x67\xf1\x26\x53\xc3\x41\x76\xd3\xe3\x10\x22\xd2"
	"\xbd\x4c\x42\x40\xef\xfb\xd1\x34\xd0\xca\x21\x53\x73\x95\x0e\x93"
	"\x48\xea\x10\x2f\xc4\xc9\xd7\x3e\xb3\x94\xcb\x03\x7b\xa2\xd0\x5b"
	"\x3b\x26\x8a\x26\x09\x3e\xb3\xe9\x3d\xa6\x3b\x16\x72\x0a\xff\x91"
	"\xce\xb5\xa5\x0d\x7b\x9a\xea\x0a\x14\xf6\xa9\xa3\xa8\x41\x70\x95"
	"\xfc\xbd\x48\xa2\x7b\x13\x91\x3b\xd3\xe3\x4f\x03\x2c\x68\x35\x58"
	"\x3c\x75\xae\xf7\xf1\xc7\x42\xa3\xc3\x6a\x14\x3f\x02\x03\x01\x00"
	"\x01\x02\x82\x01\x00\x14\xf0\x25\x1c\xb4\x19\xee\x7d\xf8\xe3\xdb"
	"\x10\x32\x90\xb1\x51\x60\x63\x0b\x00\x68\x1f\x1a\x87\xf4\x33\xaa"
	"\xe7\xc9\x7e\x76\x35\x63\x44\x32\x77\x37\xa5\x79\x11\x45\xc9\x53"
	"\x73\xf0\xaf\xe2\x20\x0e\x87\x79\x4b\x7b\xde\x01\x17\xab\x01\x04"
	"\x30\x11\x8e\xf7\xb7\xe7\x19\xcc\x68\x97\x25\x40\x24\x50\x5b\xbb"
	"\x26\x26\xd1\x3b\xdc\xd4\xb2\x0b\x2d\xb2\x8b\x8e\x02\x69\x7b\xd1"
	"\x16\x8b\x3b\x49\x42\x16\x80\x6a\x63\x9f\x42\x7c\xa7\xbb\x8d\x74"
	"\xca\x8e\x94\x94\x84\x57\x66\x93\xa0\x0b\x1a\xd2\x4f\xa6\x29\x55"
	"\x2a\x49\xfe\x80\x01\x96\x36\x96\x79\x6c\x28\xe2\x39\x34\x12\xb5"
	"\x05\x14\xeb\xf8\x3d\xf1\xa0\x91\x1c\x6d\x72\x35\x88\xa7\x7c\xed"
	"\x45\x62\xd6\x61\xdc\xd5\xba\xf3\x69\x38\xef\x13\x27\xb3\xfa\x07"
	"\xd0\x5d\xf5\x8e\x77\xb0\x09\x62\x3b\xc8\x7b\x07\x37\x8e\xc6\xe1"
	"\x1c\x2e\x14\x9a\x80\xb2\xfd\x83\xbe\xb4\xee\xe3\xa0\xe2\xf4\x24"
	"\x68\xee\x81\x0e\xc1\xee\x0c\x7a\x21\x8f\xe5\x6c\xaa\xe5\x55\xf0"
	"\x14\x4a\x4d\xb3\x1c\x69\xf3\x42\xb1\x9a\x46\xf1\xa6\x0c\x59\x3d"
	"\x8a\x19\xb5\xdf\x20\x53\x0b\x44\x53\x58\xc3\x9e\x92\x1d\xf8\xfb"
	"\x85\x53\x96\xaf\x49\x02\x81\x81\x00\xed\xed\xe2\x79\xec\x5a\xc1"
	"\xd4\x38\x13\xd1\x5a\x53\xaf\x82\x1d\xa2\xe6\xac\x47\x6d\xb8\x1b"
	"\xd6\xda\xf4\x30\xe8\xc3\x2f\xdf\x86\xa9\xd4\x07\xda\x12\x40\xc7"
	"\x72\x17\xca\x5c\xd9\xd0\x45\x78\xb0\xa4\x72\x80\xb2\xef\x7d\xcc"
	"\xd7\xd7\xde\xce\x00\x20\x79\x13\x0b\x08\x7a\x6a\x51\xa6\x4b\xa2"
	"\x18\x95\xd0\x91\x25\xef\x8f\x5b\xd2\x34\xec\x6f\x55\xea\x12\x06"
	"\xff\xa1\x74\x6f\xa3\x47\xd4\x7a\x57\xfe\x5c\x7a\x11\x74\xcb\x50"
	"\xa7\x94\x48\x0a\x82\xe4\x9c\xd1\x71\x6b\x79\x3d\x9a\x68\xde\xa7"
	"\x80\xd1\x69\x38\xa9\x76\x86\x74\xa9\x02\x81\x81\x00\xd8\x80\x9e"
	"\x58\x97\x60\x28\xd2\xb5\x22\x54\x01\x18\x4f\x8a\x4b\x6d\x3b\xf9"
	"\x99\xa4\xe1\xbc\x93\xdb\x0c\x5b\xde\xba\xee\x08\x9f\xfe\x96\x66"
	"\xae\x8d\x6a\x43\x6d\x4b\x1c\x7f\x22\x14\xff\xb2\x67\xe4\x0f\x7e"
	"\x28\xec\x78\xcb\x36\xd0\xe0\xe7\x9b\x5d\x6a\x91\x29\x83\x9c\x5e"
	"\x25\x55\xcd\xd7\x26\x42\xe8\xd1\xd8\x0c\x7d\x58\x4b\x48\xdf\x6a"
	"\x56\x21\xd4\x30\xe5\x70\xdb\xc7\x24\x6f\x9f\x8d\x02\x28\xc0\x94"
	"\xf5\x39\xb6\x18\x9a\x24\xd1\x6c\x95\x09\xa1\x0a\xac\x31\x9a\xc5"
	"\x90\xd9\xd7\x6f\x28\xb9\x47\xc7\x42\x33\xf6\x6a\xa7\x02\x81\x81"
	"\x00\xa9\x52\x24\x5d\x1e\x0d\xcc\x68\xa9\x6b\xb9\x0d\xee\x06\x35"
	"\xb3\xbf\x8d\x27\x47\x41\xd6\xc6\xc1\x15\x5a\xb8\x3f\xbd\x40\x21"
	"\x73\xa5\x02\x46\x80\x33\x83\x34\x2c\x86\xaf\xb5\x7a\x30\x94\x6f"
	"\xfa\x4d\x5d\x4b\x27\x8b\xf5\xdb\xc4\x33\x54\xd5\x07\x14\x14\xf5"
	"\xaf\x61\x5e\x34\xb1\x5c\x85\xf0\x9a\x4c\x6b\x7c\x10\x22\x36\xc4"
	"\x62\x88\xd5\x45\xba\x3f\x74\x8a\xd4\x7a\xe2\xf0\xdb\xa3\x2f\x9b"
	"\xcd\x69\x30\x08\x92\xc9\xaa\x33\x00\xbf\x2e\xb1\x84\x4b\x0b\x2a"
	"\xa5\xeb\x95\x01\x79\x14\x6e\x77\x87\xdd\xff\x62\x9a\x7e\xc5\xda"
	"\xd9\x02\x81\x81\x00\xd2\xd3\xb4\xde\xda\x52\x06\x8e\xe1\x5a\x93"
	"\x69\x19\x8e\x63\x42\x7e\x15\xd8\x42\xb9\x20\x25\x6d\xe9\xf2\x48"
	"\x08\x46\x0a\x04\x16\x21\x69\xbe\x86\x1e\x29\xab\x8d\x63\x86\x55"
	"\x7b\x0f\xed\xcb\x82\x85\xc0\x5c\x7f\x67\x7f\x5d\x8c\x7c\xad\x76"
	"\x7c\x81\xe4\x83\x85\x64\xa7\x41\xba\xa3\xaa\xb5\xe7\x89\x62\x84"
	"\xee\x19\x83\x7a\x16\x9d\xd9\x0a\x08\xe4\x1a\x68\x9f\x15\x5e\xbf"
	"\xb7\x08\x87\xdb\x5d\x8d\xe7\xb3\x66\x75\x93\x90\xb3\x92\x44\xe9"
	"\xb2\xdc\x54\x99\x3b\x03\x77\x0f\x0a\xb6\x47\xa6\xf4\x86\x30\x92"
	"\xa6\x32\x49\xb4\xa3\x02\x81\x81\x00\x8f\xb3\xc8\x9d\x84\xcf\x21"
	"\x10\xe7\x0a\x5a\x10\x3e\x02\x99\xa3\x50\xe9\xa1\x92\xfd\x2a\x6f"
	"\xae\xd7\xf2\xdb\x1d\x0a\x6c\xec\xce\xcb\x89\x03\x5d\x4e\x43\xe0"
	"\x63\x40\x1a\x4a\x19\xdc\x62\x97\x73\xb9\x01\xdc\x9f\x74\x75\x80"
	"\xd2\xdc\x8f\x79\xd4\xe4\x31\x8c\x76\x4d\xfc\xe3\x44\x71\x01\xb9"
	"\x46\xd1\x15\x6f\x2c\x38\x02\x49\x32\x3c\x6a\xba\xe2\x28\xc1\xb0"
	"\xa6\x2e\x60\xb5\x98\xe1\x70\xf9\xb1\x36\x6b\x89\x75\x18\x1a\x9e"
	"\x7a\x6c\x7d\x42\xf2\xa3\xf2\xd9\x20\xf5\x55\xca\x32\x82\xeb\x42"
	"\x43\xb5\x74\xa5\xb4\x26\xfd\x46\xba";

const char rsa_kat_pubkey[RSA_KAT_PUB_SIZE + 1] =
	"\x30\x82\x01\x0a\x02\x82\x01\x01\x00\xc9\x38\x41\x33\x44\xa0\x8a"
	"\x71\x15\x42\x76\x36\xae\x54\x32\x4e\x2e\xfa\x40\x95\xac\x9b\x49"
	"\x99\x21\xca\x3f\x62\x33\x06\x80\x7d\xe3\x31\x12\x9d\xc8\x47\xa6"
	"\xe8\xd0\x5d\xbe\xb1\x00\xe9\xc0\x37\xe2\x19\xdb\xa9\x06\xfb\x5c"
	"\xc4\x2f\x40\x11\x75\x81\xf1\xab\x9b\x46\x64\xd9\x97\xcf\xb7\xe5"
	"\xc7\xf8\xf1\xbc\x3c\xa9\x94\x79\xa1\x4f\x1c\x0e\x54\x90\xdf\xc1"
	"\x75\x45\xd9\xc4\xd0\x5b\x10\x71\x1e\xca\xc4\xed\x79\xc8\x8e\xf2"
	"\x66\x73\xed\xc4\xcd\x04\x44\x10\x06\xc1\x06\x49\xf0\x39\x2a\xdd"
	"\xe9\xc1\xc2\x4c\x27\x3c\x12\xeb\x7e\xb2\x1c\x51\x55\xd9\xe9\xd1"
	"\x55\xc2\x3e\x8a\x1a\xde\xe3\x38\x1a\x60\x21\xd9\x8d\x4e\x3c\xc8"
	"\xd0\x67\xf1\x26\x53\xc3\x41\x76\xd3\xe3\x10\x22\xd2\xbd\x4c\x42"
	"\x40\xef\xfb\xd1\x34\xd0\xca\x21\x53\x73\x95\x0e\x93\x48\xea\x10"
	"\x2f\xc4\xc9\xd7\x3e\xb3\x94\xcb\x03\x7b\xa2\xd0\x5b\x3b\x26\x8a"
	"\x26\x09\x3e\xb3\xe9\x3d\xa6\x3b\x16\x72\x0a\xff\x91\xce\xb5\xa5"
	"\x0d\x7b\x9a\xea\x0a\x14\xf6\xa9\xa3\xa8\x41\x70\x95\xfc\xbd\x48"
	"\xa2\x7b\x13\x91\x3b\xd3\xe3\x4f\x03\x2c\x68\x35\x58\x3c\x75\xae"
	"\xf7\xf1\xc7\x42\xa3\xc3\x6a\x14\x3f\x02\x03\x01\x00\x01";
