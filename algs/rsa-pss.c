// SPDX-License-Identifier: MIT
/*
 * RSASSA-PSS (RFC 8017 section 8.1, EMSA-PSS 9.1): "pss(rsa,sha256)",
 * "pss(rsa,sha384)", "pss(rsa,sha512)", with MGF1 over the same hash and
 * a salt as long as the hash (the parameters TLS 1.3 and WebCrypto use).
 *
 * Registered directly, as rsa-pkcs1.c (drivers "pss-rsa-sha256-generic",
 * ...); the hash comes from the registry when a tfm is made, keys and
 * the RSA primitives from the other rsa*.c files (rsa.h).
 *
 * Signing: fresh salt from rind_get_random_bytes(), then the blinded,
 * constant-time, self-checked RSASP1 of rsa_private().  Verification
 * works on public values only (the signature, the key, the message).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <rind/hash.h>
#include <rind/rng.h>
#include <rind/internal/sig.h>
#include <rind/internal/util.h>
#include <crypto/rsa.h>

/* H(0x00 * 8 || mHash || salt) */
static int pss_hash(struct crypto_shash *hash, const u8 *mhash, const u8 *salt,
		    unsigned int slen, u8 *out)
{
	static const u8 zeros[8];
	unsigned int hlen = crypto_shash_digestsize(hash);
	SHASH_DESC_ON_STACK(desc, hash);
	int err;

	desc->tfm = hash;
	err = crypto_shash_init(desc);
	if (!err)
		err = crypto_shash_update(desc, zeros, sizeof(zeros));
	if (!err)
		err = crypto_shash_update(desc, mhash, hlen);
	if (!err)
		err = crypto_shash_update(desc, salt, slen);
	if (!err)
		err = crypto_shash_final(desc, out);
	shash_desc_zero(desc);
	return err;
}

/* EMSA-PSS encoding of @msg into @em (k bytes) with a fresh salt. */
static int pss_encode(struct rsa_tfm_ctx *ctx, const void *msg, unsigned int msglen, u8 *em)
{
	unsigned int k = ctx->key.k, embits = ctx->key.bits - 1, emlen = (embits + 7) / 8;
	unsigned int hlen = crypto_shash_digestsize(ctx->hash), slen = hlen, dblen;
	u8 mhash[HASH_MAX_DIGESTSIZE], salt[HASH_MAX_DIGESTSIZE];
	u8 *db, *h;
	int err;

	if (emlen < hlen + slen + 2)
		return -EINVAL;
	dblen = emlen - hlen - 1;
	memset(em, 0, k);
	db = em + (k - emlen);
	h = db + dblen;
	err = crypto_shash_tfm_digest(ctx->hash, msg, msglen, mhash);
	if (!err)
		err = rind_get_random_bytes(salt, slen);
	if (!err)
		err = pss_hash(ctx->hash, mhash, salt, slen, h);
	if (err)
		goto out;
	/* DB = PS || 0x01 || salt, masked with MGF1(H). */
	db[dblen - slen - 1] = 0x01;
	memcpy(db + dblen - slen, salt, slen);
	err = rsa_mgf1_xor(ctx->hash, h, hlen, db, dblen);
	if (err)
		goto out;
	db[0] &= 0xff >> (8 * emlen - embits);
	h[hlen] = 0xbc;
out:
	memzero_explicit(salt, sizeof(salt));
	return err;
}

static int pss_sign(struct crypto_sig *tfm, const void *msg, unsigned int msglen,
		    void *sig, unsigned int siglen)
{
	return rsa_sig_sign_one(tfm, msg, msglen, sig, siglen, pss_encode);
}

/* crypto_sig_sign_batch (the drivers of an engine with lanes): each its own salt. */
static void pss_sign_batch(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n)
{
	rsa_sig_sign_batch(tfm, reqs, n, pss_encode);
}

static int pss_verify(struct crypto_sig *tfm, const void *sig, unsigned int siglen,
		      const void *msg, unsigned int msglen)
{
	struct rsa_tfm_ctx *ctx = crypto_sig_ctx(tfm);
	unsigned int k = ctx->key.k, embits = ctx->key.bits - 1, emlen = (embits + 7) / 8;
	unsigned int hlen = crypto_shash_digestsize(ctx->hash), slen = hlen, dblen, i;
	u8 m[RSA_MAX_BYTES], mhash[HASH_MAX_DIGESTSIZE], h2[HASH_MAX_DIGESTSIZE];
	u8 *em, *db, *h, topmask;
	int err;

	if (!ctx->key.bits)
		return -ENOKEY;
	if (siglen != k || emlen < hlen + slen + 2)
		return -EBADMSG;
	err = rsa_public(&ctx->key, m, sig);
	if (err)
		return err;
	/* emLen is k - 1 when modBits - 1 is a multiple of 8: m[0] must be 0. */
	for (i = 0; i < k - emlen; i++)
		if (m[i])
			return -EBADMSG;
	em = m + (k - emlen);
	dblen = emlen - hlen - 1;
	db = em;
	h = em + dblen;
	topmask = (u8)(0xff << (8 - (8 * emlen - embits)));
	if (em[emlen - 1] != 0xbc || (db[0] & topmask))
		return -EBADMSG;
	err = rsa_mgf1_xor(ctx->hash, h, hlen, db, dblen);
	if (err)
		return err;
	db[0] &= (u8)~topmask;
	for (i = 0; i < dblen - slen - 1; i++)
		if (db[i])
			return -EBADMSG;
	if (db[dblen - slen - 1] != 0x01)
		return -EBADMSG;
	err = crypto_shash_tfm_digest(ctx->hash, msg, msglen, mhash);
	if (!err)
		err = pss_hash(ctx->hash, mhash, db + dblen - slen, slen, h2);
	if (err)
		return err;
	return crypto_memneq(h, h2, hlen) ? -EBADMSG : 0;
}

/*
 * Known answers: signatures made by OpenSSL (salt length = hash length)
 * with the RSA-2048 key of rsa-tfm.c over "abc", and the same with one
 * bit flipped (each signature is a macro of the row that the corrupted
 * copy changes).  Verification only: PSS signing is randomized, and the
 * private-key path is covered by the pkcs1(rsa,sha256) self-test.
 */
#define PSS_SHA256_SIG(row1)						\
	row1								\
	"\xb3\xd8\x04\xd8\x8d\x44\x1d\x01\x36\x22\xf6\xd9\x1b\x51\xa5\x04" \
	"\xa5\x90\x2b\xf8\x69\xbe\x38\x34\x97\xa1\xec\x4b\x9c\x87\xb0\x69" \
	"\x6d\xc1\x59\x62\x1f\xae\x65\x84\xdd\xbb\xad\xdf\x97\xcc\x49\x89" \
	"\x07\xf7\x99\xb3\x34\xae\x8c\x16\xea\x0d\xe7\xe3\x26\x5e\x2a\xe0" \
	"\x8f\x80\x53\x56\xd3\x6d\x2a\xed\xa3\xd0\x55\x30\x4c\x41\x6c\xf6" \
	"\xaf\x3b\xf2\xe7\xcd\x42\x78\x4c\xc5\x4f\xd3\x69\x26\x4b\x23\x35" \
	"\x17\x15\xa7\xea\x46\x9b\x42\x72\xa8\xcf\x8a\x7f\xf7\xca\x4b\x57" \
	"\x4d\x1e\x33\xa7\x73\x09\xaf\xa0\x2c\xdb\xd1\x3a\xd0\xcb\x61\x3d" \
	"\xc4\x1d\xa4\xc5\x43\xea\x61\xec\x68\x5e\xa6\xd1\xda\x03\x59\x9e" \
	"\x61\xbd\xcd\x3d\x2d\x25\x22\xb5\xb3\xed\xe4\x31\xa5\xad\x48\x82" \
	"\xb0\xe9\x4f\xb3\x4f\xde\xe9\xd5\x65\x30\x71\xd1\x78\x9a\x04\xa1" \
	"\x04\xeb\xf8\x25\x87\x8a\x05\x33\xae\x1b\x3c\xf9\xcd\xc2\x19\x27" \
	"\xbd\xe6\xf1\x29\x79\xd4\x72\xa4\x20\xbc\x50\x1d\xbb\x2a\x4c\x5e" \
	"\xbf\xe3\x15\x75\x1f\xcc\x61\xf7\xd8\x4d\x55\x01\x8b\x74\x23\x5c" \
	"\xc7\xd5\xe0\x69\x4a\x70\x82\x62\x28\x5a\x3c\x0b\x3a\x4b\x9d\x91"

static const struct sig_testvec pss_sha256_tv[] = {
	RSA_KAT_SIG_TV(PSS_SHA256_SIG(
		"\x0a\x3e\x89\xaa\xe6\x09\xfb\xa9\xbf\x01\xd5\xc1\x0c\x06\xbd\x57")),
	/* The same, one bit flipped. */
	RSA_KAT_SIG_TV(PSS_SHA256_SIG(
		"\x0a\x3e\x89\xaa\xe6\x09\xfb\x29\xbf\x01\xd5\xc1\x0c\x06\xbd\x57"),
		.must_fail = true),
};

#define PSS_SHA384_SIG(row1)						\
	row1								\
	"\xdd\x82\xba\xe4\x2e\xc8\x8f\x64\x68\xab\xde\xf0\x49\x05\xcd\xe7" \
	"\xe0\xac\x22\xe3\x57\xe6\x40\xf5\x39\x92\x6d\x7f\x0a\xe0\xa5\x2e" \
	"\x3f\xe2\x16\x8d\x90\x28\x5f\x9b\x72\x44\x4c\x5a\xc3\x06\xc6\xc8" \
	"\x2e\x9e\x94\x95\x8b\xbe\x27\x69\x91\x6d\x06\x0e\x3e\x16\xfb\xea" \
	"\xb6\xd3\x43\x2b\x08\xd5\x08\x3a\xa9\x28\xf6\x56\xdd\x60\xf9\xb9" \
	"\xca\x79\xcc\x8e\x2b\x11\xc0\xe9\xd6\x9d\x5f\x18\xb6\xdb\x0d\xe4" \
	"\x0a\xa0\x75\x30\x98\x7d\xc2\x22\x97\xf1\x1c\x1c\xed\xc6\xad\xde" \
	"\x85\x5c\xca\x13\x00\x2f\x9b\x37\xef\x43\xe6\x16\x31\xf9\x23\x8c" \
	"\x36\x91\x75\xbf\xe3\xfc\x9a\xde\x7d\x49\x9b\x8d\xbc\x20\x29\xa0" \
	"\xbb\xa6\x42\x98\x1c\x42\x5c\x3b\xc0\x57\x47\xc8\x51\xc1\x80\x4b" \
	"\xd7\x71\x52\xf4\xb6\x3d\x2a\xb4\x25\x17\x69\xdc\xa9\x38\x4b\x97" \
	"\x47\x60\x4f\x68\xf4\x04\x81\xdc\x68\xd6\x56\x5d\xa5\x01\x4f\xe9" \
	"\x98\xba\x84\xf0\xa9\xe3\x00\x4b\xc6\xa3\x62\x83\x9d\xf0\x45\x30" \
	"\x19\xe2\xa1\x89\x24\xe8\x23\x06\x18\x48\xf6\x99\x22\x77\x15\x5d" \
	"\xa9\x65\xfd\x1e\xbc\x2e\xa9\xd7\x2f\xb5\xe3\x6a\x1a\x53\xe9\xe3"

static const struct sig_testvec pss_sha384_tv[] = {
	RSA_KAT_SIG_TV(PSS_SHA384_SIG(
		"\x9f\xb0\x58\xe8\x71\xfd\xb6\x7a\xd9\x6c\x94\x4f\x28\x6f\x95\xb9")),
	/* The same, one bit flipped. */
	RSA_KAT_SIG_TV(PSS_SHA384_SIG(
		"\x9f\xb0\x58\xe8\x71\xfd\xb6\xfa\xd9\x6c\x94\x4f\x28\x6f\x95\xb9"),
		.must_fail = true),
};

#define PSS_SHA512_SIG(row1)						\
	row1								\
	"\xc3\x80\x12\x10\xeb\xc8\x8c\xfe\x8a\x7f\x0e\x50\x2c\x36\x9a\x6f" \
	"\x15\xba\xac\x8b\xe3\xee\x70\xfa\xbc\x0f\x60\x12\xff\x9b\x69\xae" \
	"\xf9\x10\xb6\xae\x2f\xc9\xc9\xac\x31\x83\xb9\xc3\xf4\x0b\xcd\x1b" \
	"\xda\x3b\xf2\x2d\xdb\xb9\x4c\x32\xe4\xd5\x82\x2d\xbe\x7e\xe3\xda" \
	"\x5c\x40\x25\xa8\x95\x51\xa4\x8c\x86\x29\x9b\x39\x87\xbc\x82\x28" \
	"\x47\xc1\x79\xcd\x95\xa1\xd6\x88\x5c\xda\xc9\x9b\x13\x93\xf8\xa2" \
	"\x6b\x3c\x30\x2c\x6f\x76\x4b\xba\x5f\x39\x61\x6b\x8f\x5b\xdd\x09" \
	"\x0d\x76\x63\xbf\xe4\x3b\x95\xf5\x9b\xf1\xd4\x26\x15\xc1\x69\xbf" \
	"\xf6\xd8\x0c\x0f\x3b\xc0\xe2\xaa\xb7\xb5\x57\x67\x3a\x01\xb7\x9a" \
	"\x52\x5a\x2a\x28\x7d\x2e\xdc\x9f\xd8\x04\x90\x68\x67\x2e\x34\x5a" \
	"\x8c\x55\x90\x12\x18\x5e\xf6\xb3\x3d\x83\x47\x44\xc6\x5a\xc5\x2e" \
	"\xde\xbd\xc0\x1b\x83\x28\xc1\x68\xc0\xdd\x7e\xea\x72\x77\x1c\x99" \
	"\x7e\xc8\xa6\xc3\x95\x68\x10\xde\x68\x26\x05\x0b\xbe\x8b\xb4\x8d" \
	"\x85\xba\x1b\x48\x75\xf6\x5f\x38\x98\x75\x57\xa3\x05\xad\x81\xce" \
	"\x6a\x11\x8c\x56\x89\x28\x06\x71\x6a\x4a\xa4\x9c\xd3\x0b\x20\x50"

static const struct sig_testvec pss_sha512_tv[] = {
	RSA_KAT_SIG_TV(PSS_SHA512_SIG(
		"\x1e\xd4\x5b\x39\x56\x01\x2c\xca\xb4\xcd\xd4\xbb\x35\xe1\xb4\x88")),
	/* The same, one bit flipped. */
	RSA_KAT_SIG_TV(PSS_SHA512_SIG(
		"\x1e\xd4\x5b\x39\x56\x01\x2c\x4a\xb4\xcd\xd4\xbb\x35\xe1\xb4\x88"),
		.must_fail = true),
};

#define PSS_DRIVER(hash)							\
	RSA_GENERIC_DRIVER(pss, hash, struct sig_test_suite, pss_##hash##_tv,		\
			   .sign = pss_sign, .verify = pss_verify, RSA_SIG_OPS)

static struct rsa_sig_driver rsa_pss_drivers[] = {
	PSS_DRIVER(sha256),
	PSS_DRIVER(sha384),
	PSS_DRIVER(sha512),
};

/* An arch engine's drivers of the three names (rsa.h). */
void rsa_pss_fill_drivers(struct rsa_sig_driver *drv, const struct rsa_engine *eng,
			   int priority, const char *module)
{
	RSA_FILL_DRIVERS(pss, struct sig_alg, drv, eng, priority, module,
			 .sign = pss_sign, .verify = pss_verify, RSA_SIG_OPS);
	rsa_sig_fill_batch(drv, RSA_SCHEME_NDRIVERS, eng, pss_sign_batch);
}

static int rsa_pss_mod_init(void)
{
	return rsa_sig_register_drivers(rsa_pss_drivers, ARRAY_SIZE(rsa_pss_drivers));
}

module_init(rsa_pss_mod_init);
