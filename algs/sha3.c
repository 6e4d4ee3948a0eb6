// SPDX-License-Identifier: MIT
/*
 * SHA-3 and SHAKE as shash algorithms (FIPS 202 section 6), over the
 * sponge of keccak.c: "sha3-224", "sha3-256", "sha3-384", "sha3-512",
 * and the extendable-output functions "shake128" and "shake256".
 *
 * An shash has one digest size, so each SHAKE is registered as a hash of
 * fixed size: 32 bytes for SHAKE128 and 64 for SHAKE256, the shortest
 * outputs that give each its full security strength (128 and 256 bits
 * against collisions and preimages, FIPS 202 appendix A.1).  Note that
 * OpenSSL's default lengths are half of these (16 and 32 bytes): the
 * provider reports OpenSSL's, the registry these.  Any other length comes
 * from rind_shash_final_xof(), which finishes a SHAKE descriptor with as
 * many bytes as the caller asks for (the provider's XOFLEN); the first
 * 32 (64) of them are the shash digest.
 *
 * The operations are written once over struct sha3_alg (<crypto/sha3.h>),
 * whose entries name the permutation each driver runs.  The generic
 * drivers run the C rounds: the portable build, or on x86-64 with BMI1/
 * BMI2 the same rounds compiled for ANDN/RORX (arch/x86/keccak-bmi2.c);
 * arch/arm64/sha3-ce.c registers "sha3-*-ce"/"shake*-ce" over the SHA3
 * instructions.  The state (the 25 lanes and the position in the block)
 * is exported in host order, the same for every driver; import refuses a
 * position outside the block.
 */
#include <string.h>
#include <rind/internal/hash.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/keccak.h>
#include <crypto/sha3.h>

static const struct sha3_alg *sha3_alg_of(struct crypto_shash *tfm)
{
	return container_of(crypto_shash_alg(tfm), struct sha3_alg, alg);
}

/* Every struct sha3_alg has this init: it tells them from other shashes. */
int rind_sha3_op_init(struct shash_desc *desc)
{
	struct crypto_shash *tfm = desc->tfm;

	rind_keccak_init(shash_desc_ctx(desc), crypto_shash_alg(tfm)->base.cra_blocksize,
			 sha3_alg_of(tfm)->ds);
	return 0;
}

int rind_sha3_op_update(struct shash_desc *desc, const u8 *data, unsigned int len)
{
	rind_keccak_absorb_with(shash_desc_ctx(desc), data, len, sha3_alg_of(desc->tfm)->f1600);
	return 0;
}

/* SHA3: the digest is the capacity / 2; SHAKE: the registered size. */
int rind_sha3_op_final(struct shash_desc *desc, u8 *out)
{
	struct keccak_state *st = shash_desc_ctx(desc);

	rind_keccak_squeeze_with(st, out, crypto_shash_digestsize(desc->tfm),
				 sha3_alg_of(desc->tfm)->f1600);
	memzero_explicit(st, sizeof(*st));
	return 0;
}

int rind_sha3_op_export(struct shash_desc *desc, void *out)
{
	const struct keccak_state *st = shash_desc_ctx(desc);
	struct sha3_export e;

	memcpy(e.a, st->a, sizeof(e.a));
	e.pos = st->pos;
	memcpy(out, &e, sizeof(e));
	memzero_explicit(&e, sizeof(e));
	return 0;
}

/*
 * The rate and the padding byte are the algorithm's (its block size is the
 * rate), not the blob's: only the position can be wrong, and a position
 * at or past the rate would index outside the block -- refused, the
 * descriptor unchanged.  Any driver's export imports into any other's of
 * the same algorithm (one state layout).
 */
int rind_sha3_op_import(struct shash_desc *desc, const void *in)
{
	struct keccak_state *st = shash_desc_ctx(desc);
	unsigned int rate = crypto_shash_alg(desc->tfm)->base.cra_blocksize;
	struct sha3_export e;

	memcpy(&e, in, sizeof(e));
	if (e.pos >= rate) {
		memzero_explicit(&e, sizeof(e));
		return -EINVAL;
	}
	rind_keccak_init(st, rate, sha3_alg_of(desc->tfm)->ds);
	memcpy(st->a, e.a, sizeof(st->a));
	st->pos = e.pos;
	memzero_explicit(&e, sizeof(e));
	return 0;
}

RIND_EXPORT int rind_shash_final_xof(struct shash_desc *desc, u8 *out, size_t outlen)
{
	struct keccak_state *st;
	const struct sha3_alg *sa;

	if (!desc || !desc->tfm || (!out && outlen))
		return -EINVAL;
	/* Only the SHAKE drivers of struct sha3_alg have this state behind the descriptor. */
	if (crypto_shash_alg(desc->tfm)->init != rind_sha3_op_init)
		return -EINVAL;
	sa = sha3_alg_of(desc->tfm);
	if (sa->ds != KECCAK_DS_SHAKE)
		return -EINVAL;
	st = shash_desc_ctx(desc);
	rind_keccak_squeeze_with(st, out, outlen, sa->f1600);
	memzero_explicit(st, sizeof(*st));
	return 0;
}

int rind_sha3_register(struct sha3_alg *algs, int n)
{
	int i, err = 0;

	for (i = 0; i < n && !err; i++)
		err = crypto_register_shash(&algs[i].alg);
	if (err)
		for (i -= 2; i >= 0; i--)
			crypto_unregister_shash(&algs[i].alg);
	return err;
}

/* The generic drivers: the C rounds (rind_keccak_f1600_c). */
DEFINE_SHA3_ALGS(sha3_generic, NULL, "generic", 100, "generic");

/*
 * FIPS 202 examples (NIST CSRC "SHA3-*" and "SHAKE*" example values), the
 * SHAKEs truncated to the registered sizes.
 */
static const struct hash_testvec sha3_224_tv[] = {
	{
		.plaintext = "abc",
		.psize = 3,
		.digest = "\xe6\x42\x82\x4c\x3f\x8c\xf2\x4a\xd0\x92"
			  "\x34\xee\x7d\x3c\x76\x6f\xc9\xa3\xa5\x16"
			  "\x8d\x0c\x94\xad\x73\xb4\x6f\xdf",
	}, {
		.plaintext = "",
		.psize = 0,
		.digest = "\x6b\x4e\x03\x42\x36\x67\xdb\xb7\x3b\x6e"
			  "\x15\x45\x4f\x0e\xb1\xab\xd4\x59\x7f\x9a"
			  "\x1b\x07\x8e\x3f\x5b\x5a\x6b\xc7",
	},
};

static const struct hash_testvec sha3_256_tv[] = {
	{
		.plaintext = "abc",
		.psize = 3,
		.digest = "\x3a\x98\x5d\xa7\x4f\xe2\x25\xb2\x04\x5c"
			  "\x17\x2d\x6b\xd3\x90\xbd\x85\x5f\x08\x6e"
			  "\x3e\x9d\x52\x5b\x46\xbf\xe2\x45\x11\x43"
			  "\x15\x32",
	}, {
		.plaintext = "",
		.psize = 0,
		.digest = "\xa7\xff\xc6\xf8\xbf\x1e\xd7\x66\x51\xc1"
			  "\x47\x56\xa0\x61\xd6\x62\xf5\x80\xff\x4d"
			  "\xe4\x3b\x49\xfa\x82\xd8\x0a\x4b\x80\xf8"
			  "\x43\x4a",
	},
};

static const struct hash_testvec sha3_384_tv[] = {
	{
		.plaintext = "abc",
		.psize = 3,
		.digest = "\xec\x01\x49\x82\x88\x51\x6f\xc9\x26\x45"
			  "\x9f\x58\xe2\xc6\xad\x8d\xf9\xb4\x73\xcb"
			  "\x0f\xc0\x8c\x25\x96\xda\x7c\xf0\xe4\x9b"
			  "\xe4\xb2\x98\xd8\x8c\xea\x92\x7a\xc7\xf5"
			  "\x39\xf1\xed\xf2\x28\x37\x6d\x25",
	}, {
		.plaintext = "",
		.psize = 0,
		.digest = "\x0c\x63\xa7\x5b\x84\x5e\x4f\x7d\x01\x10"
			  "\x7d\x85\x2e\x4c\x24\x85\xc5\x1a\x50\xaa"
			  "\xaa\x94\xfc\x61\x99\x5e\x71\xbb\xee\x98"
			  "\x3a\x2a\xc3\x71\x38\x31\x26\x4a\xdb\x47"
			  "\xfb\x6b\xd1\xe0\x58\xd5\xf0\x04",
	},
};

static const struct hash_testvec sha3_512_tv[] = {
	{
		.plaintext = "abc",
		.psize = 3,
		.digest = "\xb7\x51\x85\x0b\x1a\x57\x16\x8a\x56\x93"
			  "\xcd\x92\x4b\x6b\x09\x6e\x08\xf6\x21\x82"
			  "\x74\x44\xf7\x0d\x88\x4f\x5d\x02\x40\xd2"
			  "\x71\x2e\x10\xe1\x16\xe9\x19\x2a\xf3\xc9"
			  "\x1a\x7e\xc5\x76\x47\xe3\x93\x40\x57\x34"
			  "\x0b\x4c\xf4\x08\xd5\xa5\x65\x92\xf8\x27"
			  "\x4e\xec\x53\xf0",
	}, {
		.plaintext = "",
		.psize = 0,
		.digest = "\xa6\x9f\x73\xcc\xa2\x3a\x9a\xc5\xc8\xb5"
			  "\x67\xdc\x18\x5a\x75\x6e\x97\xc9\x82\x16"
			  "\x4f\xe2\x58\x59\xe0\xd1\xdc\xc1\x47\x5c"
			  "\x80\xa6\x15\xb2\x12\x3a\xf1\xf5\xf9\x4c"
			  "\x11\xe3\xe9\x40\x2c\x3a\xc5\x58\xf5\x00"
			  "\x19\x9d\x95\xb6\xd3\xe3\x01\x75\x85\x86"
			  "\x28\x1d\xcd\x26",
	},
};

static const struct hash_testvec shake128_tv[] = {
	{
		.plaintext = "abc",
		.psize = 3,
		.digest = "\x58\x81\x09\x2d\xd8\x18\xbf\x5c\xf8\xa3"
			  "\xdd\xb7\x93\xfb\xcb\xa7\x40\x97\xd5\xc5"
			  "\x26\xa6\xd3\x5f\x97\xb8\x33\x51\x94\x0f"
			  "\x2c\xc8",
	}, {
		.plaintext = "",
		.psize = 0,
		.digest = "\x7f\x9c\x2b\xa4\xe8\x8f\x82\x7d\x61\x60"
			  "\x45\x50\x76\x05\x85\x3e\xd7\x3b\x80\x93"
			  "\xf6\xef\xbc\x88\xeb\x1a\x6e\xac\xfa\x66"
			  "\xef\x26",
	},
};

static const struct hash_testvec shake256_tv[] = {
	{
		.plaintext = "abc",
		.psize = 3,
		.digest = "\x48\x33\x66\x60\x13\x60\xa8\x77\x1c\x68"
			  "\x63\x08\x0c\xc4\x11\x4d\x8d\xb4\x45\x30"
			  "\xf8\xf1\xe1\xee\x4f\x94\xea\x37\xe7\x8b"
			  "\x57\x39\xd5\xa1\x5b\xef\x18\x6a\x53\x86"
			  "\xc7\x57\x44\xc0\x52\x7e\x1f\xaa\x9f\x87"
			  "\x26\xe4\x62\xa1\x2a\x4f\xeb\x06\xbd\x88"
			  "\x01\xe7\x51\xe4",
	}, {
		.plaintext = "",
		.psize = 0,
		.digest = "\x46\xb9\xdd\x2b\x0b\xa8\x8d\x13\x23\x3b"
			  "\x3f\xeb\x74\x3e\xeb\x24\x3f\xcd\x52\xea"
			  "\x62\xb8\x1b\x82\xb5\x0c\x27\x64\x6e\xd5"
			  "\x76\x2f\xd7\x5d\xc4\xdd\xd8\xc0\xf2\x00"
			  "\xcb\x05\x01\x9d\x67\xb5\x92\xf6\xfc\x82"
			  "\x1c\x49\x47\x9a\xb4\x86\x40\x29\x2e\xac"
			  "\xb3\xb7\xc4\xbe",
	},
};

/*
 * HMAC over the SHA3s (the hmac template; a registry instance without a
 * known answer is refused): the NIST HMAC-SHA3 examples with the key
 * shorter than a block (key 00 01 02 ... of the digest's length).
 */
static const struct hash_testvec hmac_sha3_224_tv[] = { {
	.key	= "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09"
		  "\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13"
		  "\x14\x15\x16\x17\x18\x19\x1a\x1b",
	.ksize	= 28,
	.plaintext = "Sample message for keylen<blocklen",
	.psize	= 34,
	.digest	= "\x33\x2c\xfd\x59\x34\x7f\xdb\x8e\x57\x6e"
		  "\x77\x26\x0b\xe4\xab\xa2\xd6\xdc\x53\x11"
		  "\x7b\x3b\xfb\x52\xc6\xd1\x8c\x04",
} };

static const struct hash_testvec hmac_sha3_256_tv[] = { {
	.key	= "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09"
		  "\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13"
		  "\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d"
		  "\x1e\x1f",
	.ksize	= 32,
	.plaintext = "Sample message for keylen<blocklen",
	.psize	= 34,
	.digest	= "\x4f\xe8\xe2\x02\xc4\xf0\x58\xe8\xdd\xdc"
		  "\x23\xd8\xc3\x4e\x46\x73\x43\xe2\x35\x55"
		  "\xe2\x4f\xc2\xf0\x25\xd5\x98\xf5\x58\xf6"
		  "\x72\x05",
} };

static const struct hash_testvec hmac_sha3_384_tv[] = { {
	.key	= "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09"
		  "\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13"
		  "\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d"
		  "\x1e\x1f\x20\x21\x22\x23\x24\x25\x26\x27"
		  "\x28\x29\x2a\x2b\x2c\x2d\x2e\x2f",
	.ksize	= 48,
	.plaintext = "Sample message for keylen<blocklen",
	.psize	= 34,
	.digest	= "\xd5\x88\xa3\xc5\x1f\x3f\x2d\x90\x6e\x82"
		  "\x98\xc1\x19\x9a\xa8\xff\x62\x96\x21\x81"
		  "\x27\xf6\xb3\x8a\x90\xb6\xaf\xe2\xc5\x61"
		  "\x77\x25\xbc\x99\x98\x7f\x79\xb2\x2a\x55"
		  "\x7b\x65\x20\xdb\x71\x0b\x7f\x42",
} };

static const struct hash_testvec hmac_sha3_512_tv[] = { {
	.key	= "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09"
		  "\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13"
		  "\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d"
		  "\x1e\x1f\x20\x21\x22\x23\x24\x25\x26\x27"
		  "\x28\x29\x2a\x2b\x2c\x2d\x2e\x2f\x30\x31"
		  "\x32\x33\x34\x35\x36\x37\x38\x39\x3a\x3b"
		  "\x3c\x3d\x3e\x3f",
	.ksize	= 64,
	.plaintext = "Sample message for keylen<blocklen",
	.psize	= 34,
	.digest	= "\x4e\xfd\x62\x9d\x6c\x71\xbf\x86\x16\x26"
		  "\x58\xf2\x99\x43\xb1\xc3\x08\xce\x27\xcd"
		  "\xfa\x6d\xb0\xd9\xc3\xce\x81\x76\x3f\x9c"
		  "\xbc\xe5\xf7\xeb\xe9\x86\x80\x31\xdb\x1a"
		  "\x8f\x8e\xb7\xb6\xb9\x5e\x5c\x5e\x3f\x65"
		  "\x7a\x89\x96\xc8\x6a\x2f\x65\x27\xe3\x07"
		  "\xf0\x21\x31\x96",
} };

static struct alg_test_desc sha3_tests[] = {
	{ .alg = "sha3-224", .suite.hash = __VECS(sha3_224_tv) },
	{ .alg = "sha3-256", .suite.hash = __VECS(sha3_256_tv) },
	{ .alg = "sha3-384", .suite.hash = __VECS(sha3_384_tv) },
	{ .alg = "sha3-512", .suite.hash = __VECS(sha3_512_tv) },
	{ .alg = "shake128", .suite.hash = __VECS(shake128_tv) },
	{ .alg = "shake256", .suite.hash = __VECS(shake256_tv) },
	{ .alg = "hmac(sha3-224)", .suite.hash = __VECS(hmac_sha3_224_tv) },
	{ .alg = "hmac(sha3-256)", .suite.hash = __VECS(hmac_sha3_256_tv) },
	{ .alg = "hmac(sha3-384)", .suite.hash = __VECS(hmac_sha3_384_tv) },
	{ .alg = "hmac(sha3-512)", .suite.hash = __VECS(hmac_sha3_512_tv) },
};

static int sha3_generic_mod_init(void)
{
	crypto_register_tests(sha3_tests, ARRAY_SIZE(sha3_tests));
	return rind_sha3_register(sha3_generic_algs, ARRAY_SIZE(sha3_generic_algs));
}
module_init(sha3_generic_mod_init);
