// SPDX-License-Identifier: MIT
/*
 * RSASSA-PKCS1-v1_5 (RFC 8017 section 8.2): "pkcs1(rsa,sha256)",
 * "pkcs1(rsa,sha384)", "pkcs1(rsa,sha512)".
 *
 * Registered directly (no "pkcs1" template instantiated over an "rsa"
 * algorithm): the three names are the only pairings rind offers, each
 * driver ("pkcs1-rsa-sha256-generic", ...) allocates its hash from the
 * registry ("sha256": the best implementation) when a tfm is made.  Keys,
 * key generation, the RSA primitives and the glue are in the other rsa*.c
 * files (rsa.h).
 *
 *   EM = 0x00 || 0x01 || 0xff ... 0xff || 0x00 || DigestInfo(H(M))
 *
 * Signing: EM is built from the message hash (public), then RSASP1 runs
 * blinded and constant time and is checked with the public exponent
 * before the signature is released (rsa_private).  Verification is
 * strict: the signature must be exactly k bytes and below n, and the
 * recovered EM must equal, byte for byte, the encoding rebuilt here (no
 * ASN.1 parsing, so no BER leniency, no trailing garbage).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <rind/hash.h>
#include <rind/internal/sig.h>
#include <rind/internal/util.h>
#include <crypto/rsa.h>

/* DigestInfo prefixes (RFC 8017 section 9.2, note 1). */
static const u8 di_sha256[] = {
	0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03,
	0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20
};
static const u8 di_sha384[] = {
	0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03,
	0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30
};
static const u8 di_sha512[] = {
	0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03,
	0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40
};

/* EMSA-PKCS1-v1_5 encoding of @msg into @em (k bytes). */
static int pkcs1_encode(struct rsa_tfm_ctx *ctx, const void *msg, unsigned int msglen, u8 *em)
{
	unsigned int k = ctx->key.k, hlen = crypto_shash_digestsize(ctx->hash);
	const u8 *di;
	unsigned int dilen = sizeof(di_sha256), tlen;

	switch (hlen) {
	case 32:
		di = di_sha256;
		break;
	case 48:
		di = di_sha384;
		break;
	case 64:
		di = di_sha512;
		break;
	default:
		return -EINVAL;
	}
	tlen = dilen + hlen;
	if (k < tlen + 11)
		return -EINVAL;
	em[0] = 0x00;
	em[1] = 0x01;
	memset(em + 2, 0xff, k - tlen - 3);
	em[k - tlen - 1] = 0x00;
	memcpy(em + k - tlen, di, dilen);
	return crypto_shash_tfm_digest(ctx->hash, msg, msglen, em + k - hlen);
}

static int pkcs1_sign(struct crypto_sig *tfm, const void *msg, unsigned int msglen,
		      void *sig, unsigned int siglen)
{
	return rsa_sig_sign_one(tfm, msg, msglen, sig, siglen, pkcs1_encode);
}

/* crypto_sig_sign_batch (the drivers of an engine with lanes). */
static void pkcs1_sign_batch(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n)
{
	rsa_sig_sign_batch(tfm, reqs, n, pkcs1_encode);
}

static int pkcs1_verify(struct crypto_sig *tfm, const void *sig, unsigned int siglen,
			const void *msg, unsigned int msglen)
{
	struct rsa_tfm_ctx *ctx = crypto_sig_ctx(tfm);
	u8 em[RSA_MAX_BYTES], want[RSA_MAX_BYTES];
	int err;

	if (!ctx->key.bits)
		return -ENOKEY;
	if (siglen != ctx->key.k)
		return -EBADMSG;
	err = rsa_public(&ctx->key, em, sig);
	if (err)
		return err == -EBADMSG ? -EBADMSG : err;
	err = pkcs1_encode(ctx, msg, msglen, want);
	if (err)
		return err == -EINVAL ? -EBADMSG : err;
	return crypto_memneq(em, want, ctx->key.k) ? -EBADMSG : 0;
}

/*
 * Known answers: the OpenSSL-made RSA-2048 key of rsa-tfm.c, message
 * "abc".  Only sha256 signs (one private-key operation: the registry's
 * self-test budget is small); every name verifies a good and a corrupted
 * signature.  Each signature is a macro of the one row (16 bytes) that
 * the corrupted copy changes.
 */
#define PKCS1_SHA256_SIG(row7)						\
	"\x8e\x89\x85\x28\x0f\x62\x04\x6b\x4c\x13\x85\x84\xcb\x7f\x9c\xfc" \
	"\x9f\xb7\x0b\xef\x1b\x00\x2e\x3c\x34\x5b\xa1\x3c\x16\xaf\x7a\x01" \
	"\x7c\x29\xf4\xa2\x5b\x54\x17\x0c\x3a\xaf\x66\x96\xf5\xcf\xaf\x78" \
	"\x28\xb9\xb5\x91\x79\xb7\x0d\x96\x40\x06\x7f\x09\x57\x9c\xc5\xe2" \
	"\xf9\x0f\xaa\xba\x1f\xa4\x0e\xbd\x2d\x2f\xe7\xdc\x04\xb3\x81\x5e" \
	"\xcd\xbf\x6a\x9a\xe2\xc9\xd3\x1e\xcf\x9c\x1a\x21\x89\xf4\xb2\xdd" \
	row7								\
	"\xa1\x1a\x76\x5a\xfe\xe4\x45\xb1\x10\x3b\xfe\x34\xdd\xd5\x71\x10" \
	"\xf4\x78\x10\x78\xd2\x55\x3d\xe8\xd7\x7e\x97\xc6\x07\xd8\x4c\x6b" \
	"\xe7\x52\x84\x3d\x34\xd7\x7f\xfe\x25\xde\xc0\x0c\x57\x2f\x09\x18" \
	"\x82\xf8\x53\x1b\xfd\x6d\x7b\x24\xb2\x44\xdb\x73\x9f\xf3\x00\x8a" \
	"\x17\x19\xa0\xf1\x85\xf8\x9e\xec\xbd\xea\xa9\xc8\xaa\x97\x8e\x7d" \
	"\x96\xe6\xc2\xe1\x6c\x4a\x87\xcf\xf8\xcd\xee\xce\x1b\x06\x22\xea" \
	"\x06\x5d\x1f\x64\x3a\x5f\x10\x2c\xf2\xfe\x5d\xa0\xdf\x49\x00\xda" \
	"\x23\x6b\xed\xaa\x2d\x2f\xb5\xe3\x28\x22\xc7\xc4\x9c\x73\x88\xae" \
	"\x94\x36\xc4\x14\xd1\xbb\x36\x96\xfb\xeb\xe3\x23\xba\x4a\xe2\xb0"

static const struct sig_testvec pkcs1_sha256_tv[] = {
	/* Signed with the private key: exercises CRT and blinding. */
	RSA_KAT_SIG_TV(PKCS1_SHA256_SIG(
		"\x62\x67\xfc\xce\x5f\xde\x79\xc6\xf8\x8a\x2a\x4b\x08\xe4\x7a\x28"),
		.privkey = rsa_kat_privkey, .privkey_size = RSA_KAT_PRIV_SIZE),
	/* The same, one bit flipped. */
	RSA_KAT_SIG_TV(PKCS1_SHA256_SIG(
		"\x62\x67\xfc\xce\x5e\xde\x79\xc6\xf8\x8a\x2a\x4b\x08\xe4\x7a\x28"),
		.must_fail = true),
};

#define PKCS1_SHA384_SIG(row7)						\
	"\x6f\x8d\xe5\xf7\x7f\x44\xb0\x2b\x37\x62\x11\x75\x76\x3d\x65\xaf" \
	"\x27\xdc\x2d\xf3\x84\x53\xe5\x34\xe4\xee\x4c\x7d\x48\x18\x4e\xeb" \
	"\x94\x9d\xe1\xad\x9d\xaf\x95\x88\xac\x6f\x85\x0c\x1c\x47\x18\x7c" \
	"\xaa\xf8\x18\x3d\xc2\x09\x6c\xd7\xee\x49\x75\x9e\xca\x01\x73\xa5" \
	"\xa2\x66\x2f\x23\xb2\xa6\xff\x9e\x33\xc2\x5e\x19\x36\x53\x2b\x38" \
	"\x38\x5d\x64\x15\xfa\xfe\xb5\x12\x9f\x06\x25\x74\xc5\x61\xbc\x75" \
	row7								\
	"\xd5\x0f\x84\x3a\xb8\xfc\xcc\x66\x73\x81\xe2\x01\x87\xba\x15\x36" \
	"\xd8\xbb\xb9\xb9\x8e\xad\xec\x7d\x8c\xdc\x2e\x16\x7e\x2f\x8e\x46" \
	"\x88\xe9\x82\xc0\xbe\x9e\xe8\x92\x10\x46\x3f\x66\x5e\x22\xd4\x4a" \
	"\x7c\xb5\x69\xd3\xcc\x1b\x90\xc3\x9c\x8d\x32\xa5\x0d\x28\x7c\x07" \
	"\x7d\xf7\xdd\xa1\xf3\x4a\x59\xe8\x0b\xee\xb1\xa2\x57\xc8\x1c\x5b" \
	"\x4f\xd4\x56\xc4\xca\x76\x6a\x01\xaa\x92\xde\x0c\x9b\x66\x0c\x14" \
	"\x65\x80\xfc\x45\x56\xce\xff\xfd\xbf\x84\xae\xfa\x43\x5d\xd9\xe5" \
	"\xbe\x9b\x9d\xa3\x03\xf8\xe3\x4e\xd5\x5c\xcc\x7e\xdf\xef\xfd\x3d" \
	"\xf8\xac\xb3\x4c\x14\xb7\xcf\xb5\x95\x74\x6d\x2a\x97\x50\xfd\x50"

static const struct sig_testvec pkcs1_sha384_tv[] = {
	RSA_KAT_SIG_TV(PKCS1_SHA384_SIG(
		"\x46\x2f\x50\xb0\x63\x9e\x84\x39\xe4\x30\x81\xc3\x2e\x26\xca\xef")),
	/* The same, one bit flipped. */
	RSA_KAT_SIG_TV(PKCS1_SHA384_SIG(
		"\x46\x2f\x50\xb0\x62\x9e\x84\x39\xe4\x30\x81\xc3\x2e\x26\xca\xef"),
		.must_fail = true),
};

#define PKCS1_SHA512_SIG(row7)						\
	"\x55\x4b\x94\xc3\x73\xbd\xaf\xd7\xb8\x15\x0b\x3f\xe9\x3b\xab\xd9" \
	"\x84\x62\x32\x46\x4d\x3b\x94\xa7\x7d\x2f\x21\x1c\x83\x21\x90\x56" \
	"\x56\x92\xfd\xaf\xe8\xec\xf9\x81\x43\x96\x56\x47\xb5\x60\x07\xbe" \
	"\xd0\xb4\xc6\xb5\xcb\x19\x1e\x7a\x0b\x75\x7c\xdd\xb8\x67\xfc\x1a" \
	"\x37\x47\x52\x2e\x32\xf1\xe3\xc7\x82\x3c\xc1\x82\xfa\x60\xf3\xd8" \
	"\x38\x21\xe4\x5c\x45\x31\xb6\xda\xda\xd7\x41\xf9\x8e\xa0\xec\x27" \
	row7								\
	"\x0a\x43\x9e\x3c\x15\x3e\xad\x96\xba\x0a\x5e\x74\x50\x43\xda\x0e" \
	"\x2c\xa4\x70\x52\xad\x45\x4a\xb2\x85\x37\x60\xc9\xee\x9b\x5f\x42" \
	"\x6f\x78\x3c\x06\x61\x11\xed\x53\x45\xf0\x77\x78\x05\xcb\x71\x1a" \
	"\x8f\x43\x06\x6c\xc1\x01\x3d\x1e\x8e\x22\x1e\x74\x41\x71\x4d\x75" \
	"\xaf\x73\x11\xc2\x09\xf7\xfc\xcc\xfe\x34\x51\x94\xa8\xdf\xb5\x6a" \
	"\x27\xba\xb6\xa3\x61\x4f\x87\xae\x26\x6d\xfe\x24\x6c\xc9\x31\xf8" \
	"\x08\x42\x05\xe6\x5b\xca\x18\x84\x4f\x24\x36\x26\x73\x26\x8b\xe3" \
	"\xd0\x4a\xb7\x5d\x90\x29\xab\xbe\xb0\xd3\x56\x68\xc7\x80\xfb\x2b" \
	"\x8f\xd0\x40\xf4\x3a\xac\x01\xc8\xe6\x26\x38\x15\xc9\x82\xa5\x46"

static const struct sig_testvec pkcs1_sha512_tv[] = {
	RSA_KAT_SIG_TV(PKCS1_SHA512_SIG(
		"\xb8\x31\x96\xbf\x6b\x00\xc2\xcd\xad\x60\x69\xd1\xdd\xb1\x46\xbd")),
	/* The same, one bit flipped. */
	RSA_KAT_SIG_TV(PKCS1_SHA512_SIG(
		"\xb8\x31\x96\xbf\x6a\x00\xc2\xcd\xad\x60\x69\xd1\xdd\xb1\x46\xbd"),
		.must_fail = true),
};

#define PKCS1_DRIVER(hash)							\
	RSA_GENERIC_DRIVER(pkcs1, hash, struct sig_test_suite, pkcs1_##hash##_tv,		\
			   .sign = pkcs1_sign, .verify = pkcs1_verify, RSA_SIG_OPS)

static struct rsa_sig_driver rsa_pkcs1_drivers[] = {
	PKCS1_DRIVER(sha256),
	PKCS1_DRIVER(sha384),
	PKCS1_DRIVER(sha512),
};

/* An arch engine's drivers of the three names (rsa.h). */
void rsa_pkcs1_fill_drivers(struct rsa_sig_driver *drv, const struct rsa_engine *eng,
			     int priority, const char *module)
{
	RSA_FILL_DRIVERS(pkcs1, struct sig_alg, drv, eng, priority, module,
			 .sign = pkcs1_sign, .verify = pkcs1_verify, RSA_SIG_OPS);
	rsa_sig_fill_batch(drv, RSA_SCHEME_NDRIVERS, eng, pkcs1_sign_batch);
}

static int rsa_pkcs1_mod_init(void)
{
	return rsa_sig_register_drivers(rsa_pkcs1_drivers, ARRAY_SIZE(rsa_pkcs1_drivers));
}

module_init(rsa_pkcs1_mod_init);
