// SPDX-License-Identifier: MIT
/*
 * RSAES-OAEP (RFC 8017 section 7.1): "oaep(rsa,sha256)",
 * "oaep(rsa,sha384)", "oaep(rsa,sha512)" akciphers, MGF1 over the same
 * hash, empty label.  Registered directly (drivers
 * "oaep-rsa-sha256-generic", ...); keys, the RSA primitives and the tfm
 * glue are in the other rsa*.c files (rsa.h), the hash comes from the
 * registry when a tfm is made.
 *
 *   EM = 0x00 || maskedSeed || maskedDB,  DB = lHash || PS || 0x01 || M
 *
 * Decryption runs the blinded constant-time RSADP (rsa_private), then
 * decodes without a branch or an index that depends on EM: the leading
 * byte, the label hash and the position of the 0x01 separator are all
 * folded into one verdict, and every failure is the same -EBADMSG.  Only
 * then, for a valid ciphertext, is the message length used.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <rind/hash.h>
#include <rind/rng.h>
#include <rind/internal/akcipher.h>
#include <rind/internal/util.h>
#include <crypto/rsa.h>

/* 0xffffffff if a == b, else 0, without a branch. */
static inline u32 ct_eq(u32 a, u32 b)
{
	return (u32)0 - (((a ^ b) - 1) >> 31 & ((~(a ^ b)) >> 31));
}

static int oaep_encrypt(struct akcipher_request *req)
{
	struct rsa_tfm_ctx *ctx = akcipher_tfm_ctx(crypto_akcipher_reqtfm(req));
	unsigned int k = ctx->key.k, hlen = crypto_shash_digestsize(ctx->hash), dblen;
	u8 em[RSA_MAX_BYTES], c[RSA_MAX_BYTES];
	u8 *seed, *db;
	int err;

	if (!ctx->key.bits)
		return -ENOKEY;
	if (k < 2 * hlen + 2 || req->src_len > k - 2 * hlen - 2)
		return -EINVAL;
	if (req->dst_len < k) {
		req->dst_len = k;
		return -EOVERFLOW;
	}
	dblen = k - hlen - 1;
	seed = em + 1;
	db = seed + hlen;
	memset(em, 0, k);
	err = crypto_shash_tfm_digest(ctx->hash, NULL, 0, db);	/* lHash, empty label */
	if (err)
		goto out;
	db[dblen - req->src_len - 1] = 0x01;
	if (req->src_len &&
	    sg_copy_to_buffer(req->src, (unsigned int)sg_nents(req->src),
			      db + dblen - req->src_len, req->src_len) != req->src_len) {
		err = -EINVAL;
		goto out;
	}
	err = rind_get_random_bytes(seed, hlen);
	if (!err)
		err = rsa_mgf1_xor(ctx->hash, seed, hlen, db, dblen);
	if (!err)
		err = rsa_mgf1_xor(ctx->hash, db, dblen, seed, hlen);
	if (!err)
		err = rsa_public(&ctx->key, c, em);
	if (err)
		goto out;
	sg_copy_from_buffer(req->dst, (unsigned int)sg_nents(req->dst), c, k);
	req->dst_len = k;
out:
	memzero_explicit(em, sizeof(em));
	return err;
}

static int oaep_decrypt(struct akcipher_request *req)
{
	struct rsa_tfm_ctx *ctx = akcipher_tfm_ctx(crypto_akcipher_reqtfm(req));
	unsigned int k = ctx->key.k, hlen = crypto_shash_digestsize(ctx->hash), dblen, i;
	u8 c[RSA_MAX_BYTES], em[RSA_MAX_BYTES], lhash[HASH_MAX_DIGESTSIZE];
	u8 *seed, *db;
	u32 good, found = 0, bad = 0, idx = 0, mlen;
	int err;

	if (!ctx->key.has_priv)
		return -ENOKEY;
	/* Lengths and the ciphertext are public. */
	if (req->src_len != k || k < 2 * hlen + 2)
		return -EBADMSG;
	if (sg_copy_to_buffer(req->src, (unsigned int)sg_nents(req->src), c, k) != k)
		return -EINVAL;
	err = crypto_shash_tfm_digest(ctx->hash, NULL, 0, lhash);
	if (err)
		return err;
	err = rsa_private(&ctx->key, em, c);
	if (err)
		goto out;
	dblen = k - hlen - 1;
	seed = em + 1;
	db = seed + hlen;
	err = rsa_mgf1_xor(ctx->hash, db, dblen, seed, hlen);
	if (!err)
		err = rsa_mgf1_xor(ctx->hash, seed, hlen, db, dblen);
	if (err)
		goto out;

	good = ct_eq(em[0], 0);
	good &= ct_eq((u32)crypto_memneq(db, lhash, hlen), 0);
	/* PS (zeros), then 0x01: remember the first 0x01, flag any other byte before it. */
	for (i = hlen; i < dblen; i++) {
		u32 one = ct_eq(db[i], 1), zero = ct_eq(db[i], 0);

		idx |= ~found & one & i;
		bad |= ~found & ~one & ~zero;
		found |= one;
	}
	good &= found & ~bad;
	rind_declassify(&good, sizeof(good));
	if (!good) {
		err = -EBADMSG;
		goto out;
	}
	/* Valid: the message and its length (dst_len) are the result now. */
	rind_declassify(&idx, sizeof(idx));
	mlen = dblen - idx - 1;
	if (req->dst_len < mlen) {
		req->dst_len = mlen;
		err = -EOVERFLOW;
		goto out;
	}
	sg_copy_from_buffer(req->dst, (unsigned int)sg_nents(req->dst), db + idx + 1, mlen);
	req->dst_len = mlen;
out:
	memzero_explicit(em, sizeof(em));
	return err;
}

/*
 * Known answers: OpenSSL-made ciphertexts under the RSA-2048 key of
 * rsa-tfm.c.  sha256 decrypts its ciphertext (the private path); sha384 and
 * sha512 encrypt only (one private-key operation keeps the registry's
 * self-test budget), their decryption is covered by the test suite.
 */
static const struct akcipher_testvec oaep_sha256_tv[] = {
	{
		.key = rsa_kat_privkey,
		.key_len = RSA_KAT_PRIV_SIZE,
		.m = "oaep sha256",
		.m_size = 11,
		.c =
		"\x4f\x29\x08\xdc\x00\x26\x5c\xbe\x62\xff\x23\xc1\x6f\x5a\x19\xd5"
		"\xb6\x6a\xa3\x78\x71\xe3\xdc\xdc\x8d\x3e\x97\x58\x84\x0e\x70\xe8"
		"\xbb\x7a\x42\x49\x59\xa8\x9f\x26\x81\xb0\xf5\x81\x7c\x00\x90\x39"
		"\xbc\xab\xd1\x78\xd7\x3e\xe6\x61\xb5\x42\x9d\x58\x53\xbc\xe4\x9d"
		"\xff\x17\x75\xe0\x97\x39\x28\x2d\x13\xcb\xfe\x3e\x2c\xb3\x35\xfc"
		"\xcd\x45\x71\x88\x13\x1d\x8e\x40\x1b\xff\xf6\x2e\xd3\xdd\x39\x4d"
		"\x80\x2d\x28\x18\x54\x3d\x41\xbb\x47\x72\xa6\x08\x3b\x7c\x29\x56"
		"\xe4\xf0\x1d\x3c\x60\x6c\xb1\x4e\xdc\xe4\xd6\x1f\x9c\x82\xbc\xfa"
		"\x43\xc5\xaf\x6c\x87\x05\x30\x00\x9c\x5d\x74\x37\x3e\xb0\x7e\x0f"
		"\x29\x82\xaf\xf3\x42\x6d\xc0\x4c\xa9\x47\xdd\x0f\xa7\xc9\x30\x91"
		"\x22\xc9\x31\xe4\x67\x1e\x52\x9e\x1a\x37\x90\x7b\xf7\xdc\x2b\x35"
		"\xdb\xda\xc7\x67\x8f\x5c\x70\xa6\xf7\x84\x22\x38\x72\x7f\x96\xcf"
		"\x4b\x08\x23\x64\xb1\xbd\x8d\x6d\xc0\xf2\x23\x72\xc8\x43\x0b\x9e"
		"\xa3\x8e\xad\x63\x22\x91\x56\x2a\x81\x34\x1e\x37\xe2\xb9\x1d\x9a"
		"\x77\x3f\x1c\x79\x9d\xef\x3d\xb8\xb3\xaa\xc7\xb3\xee\xca\xf3\xdd"
		"\x3d\xb9\xe1\xfb\x30\x6d\xfd\xbf\xf8\x28\xef\xe4\xa7\x72\xbe\x87",
		.c_size = 256,
		.randomized = true,
	},
};

static const struct akcipher_testvec oaep_sha384_tv[] = {
	{
		.key = rsa_kat_pubkey,
		.key_len = RSA_KAT_PUB_SIZE,
		.public_key_vec = true,
		.m = "oaep sha384",
		.m_size = 11,
		.c =
		"\x6b\x3d\xcc\xdf\xa2\x5c\x86\xdc\x2a\xe3\xeb\xfa\xe2\xb6\x27\xba"
		"\x00\x06\x6f\x59\xf3\x0e\xf9\x07\xe4\x7e\x1f\x4e\xb2\x27\x8d\x04"
		"\x44\x54\xc1\xe2\x08\x4b\x6b\x9e\x4b\x3b\xda\x0b\xd9\x26\x9c\x51"
		"\xac\xbf\x8b\x3d\xcf\xa4\x43\x4c\x03\x3e\x2e\x11\x9c\xf3\xc9\x08"
		"\xff\xa5\xdd\x31\x20\x5b\xfc\x59\x4b\xe3\x29\xfb\xf5\x4d\xaf\x5f"
		"\xcb\x0d\x7b\x25\x0b\x57\x8b\xdb\xb5\x5d\x35\x72\x3c\x49\x6e\x40"
		"\x0e\x7b\xee\x09\x86\x33\xe1\xea\x0f\xd4\x4e\xe0\x88\x03\x5c\xcc"
		"\xe1\xf3\x1a\xc1\x1a\xf0\x39\x1f\x94\xd9\x79\x11\x38\x29\xb3\xfa"
		"\xc7\xc6\x6a\x74\xc9\xb9\x08\x69\x00\xe6\xe6\x72\xc8\x19\xc8\x2e"
		"\x8b\x80\x5c\xd2\x1b\xe5\x2e\x40\xe1\xd8\xad\x4f\x64\xe1\x95\x04"
		"\x8b\x48\xfc\xcf\x13\x38\xe0\x91\xa8\x5f\x21\x4d\xf5\x83\x43\x06"
		"\xef\x9f\x95\x70\x0a\x76\xc4\x68\xfd\x61\x17\x95\xe4\x16\xe4\xd6"
		"\x51\x92\xd8\x34\x79\xc2\x3e\x54\x48\xbe\xf4\x35\xa1\x3f\xcc\xfd"
		"\x0d\x65\xf7\x9d\x56\x3d\x52\x7c\x81\xaa\x7e\xef\x1e\xc8\xaa\x14"
		"\xd6\xf6\x98\xe4\x7e\x93\x5d\xcd\x2d\xe9\xb2\xdb\x2b\xeb\x71\xc0"
		"\x0f\x01\x45\xee\x2d\xfb\x7f\x25\x71\x93\xc4\xd2\x8e\x6e\xa5\x43",
		.c_size = 256,
		.randomized = true,
	},
};

static const struct akcipher_testvec oaep_sha512_tv[] = {
	{
		.key = rsa_kat_pubkey,
		.key_len = RSA_KAT_PUB_SIZE,
		.public_key_vec = true,
		.m = "oaep sha512",
		.m_size = 11,
		.c =
		"\x57\x17\xe2\xc0\x3d\xf5\xd5\x69\xa1\xa2\xaa\x00\xac\x4c\x27\xf6"
		"\x70\x3c\x01\xa6\xf7\xf8\x55\x33\x94\x64\x61\x7d\x4c\xf1\x94\xd7"
		"\x21\xc1\x53\x99\xff\x30\x3c\x03\x7d\xe1\x63\x15\x91\xcf\x1f\xe9"
		"\xf8\x92\xc3\x78\xc7\xe3\xaf\x7e\x60\x0f\xe1\xcf\x72\x27\x66\x76"
		"\x30\xc9\xc7\xce\x9c\x52\x11\x10\x0d\x8c\x97\xc1\xb7\x6d\xa6\x15"
		"\x2a\x9d\xf5\x65\x03\xd4\x65\xf2\x5a\x55\xca\xaf\x75\xb5\xa9\x02"
		"\xfa\x66\x8e\xc9\xa0\x28\x54\xd4\x3a\x9f\xef\x93\x43\xd2\xd9\xb8"
		"\x0f\x69\xe0\x36\x03\x55\x41\x8e\x7a\xa3\x14\x52\xad\x43\xb7\xef"
		"\x34\xd4\x56\x0b\xbc\x39\x7f\xaf\x76\xcd\x02\xb4\x8e\xf7\xdf\x24"
		"\x37\x40\xb9\xb4\xd7\x48\x06\x9e\x03\x57\xd0\x29\x25\x4f\x52\x5c"
		"\x47\x7e\xb6\x6b\x0f\xa3\x45\xaf\x8f\x0a\x67\x1e\x98\x21\x64\x15"
		"\xf3\x8f\xea\x9b\xf3\x51\xce\x02\xf1\xbd\x9b\xf2\x44\xb4\xdc\xbe"
		"\x4c\x65\x01\x97\x16\x8f\x99\xd7\xac\x39\x10\xe6\xe5\xe3\x48\x48"
		"\x1b\x15\x68\xc8\x8a\xee\x22\xba\x8c\xb1\x5f\xe4\x35\xfa\x91\x86"
		"\x34\xc5\x58\x81\x3f\x01\xf0\xf2\x55\x8e\x76\x96\x6e\x90\x7f\x55"
		"\x87\x28\x81\x32\xbb\x9b\xc3\x3f\x46\x39\x54\xe8\x9f\xbd\xd2\x2e",
		.c_size = 256,
		.randomized = true,
	},
};

#define OAEP_DRIVER(hash)						\
	RSA_GENERIC_DRIVER(oaep, hash, struct akcipher_test_suite, oaep_##hash##_tv,	\
			   .encrypt = oaep_encrypt, .decrypt = oaep_decrypt, RSA_AKCIPHER_OPS)

static struct rsa_akcipher_driver rsa_oaep_drivers[] = {
	OAEP_DRIVER(sha256),
	OAEP_DRIVER(sha384),
	OAEP_DRIVER(sha512),
};

/* An arch engine's drivers of the three names (rsa.h). */
void rsa_oaep_fill_drivers(struct rsa_akcipher_driver *drv, const struct rsa_engine *eng,
			    int priority, const char *module)
{
	RSA_FILL_DRIVERS(oaep, struct akcipher_alg, drv, eng, priority, module,
			 .encrypt = oaep_encrypt, .decrypt = oaep_decrypt, RSA_AKCIPHER_OPS);
}

static int rsa_oaep_mod_init(void)
{
	return rsa_akcipher_register_drivers(rsa_oaep_drivers, ARRAY_SIZE(rsa_oaep_drivers));
}

module_init(rsa_oaep_mod_init);
