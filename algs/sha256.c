// SPDX-License-Identifier: MIT
/*
 * SHA-224 and SHA-256 (FIPS 180-4 sections 6.2 and 6.3), portable C.
 *
 * The compression function rind_sha256_block_generic() and the padding
 * helpers in sha2.h are shared with the accelerated drivers.
 */
#include <rind/internal/hash.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/sha2.h>
#include <crypto/sha2-generic.h>

const u32 rind_sha256_k[64] __attribute__((aligned(64))) = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define SHA2_BSIG0(x)	(ror32(x, 2) ^ ror32(x, 13) ^ ror32(x, 22))
#define SHA2_BSIG1(x)	(ror32(x, 6) ^ ror32(x, 11) ^ ror32(x, 25))
#define SHA2_SSIG0(x)	(ror32(x, 7) ^ ror32(x, 18) ^ ((x) >> 3))
#define SHA2_SSIG1(x)	(ror32(x, 17) ^ ror32(x, 19) ^ ((x) >> 10))

DEFINE_SHA2_BLOCK_GENERIC(rind_sha256_block_generic, u32, rind_sha256_k, 64, get_unaligned_be32)
#undef SHA2_BSIG0
#undef SHA2_BSIG1
#undef SHA2_SSIG0
#undef SHA2_SSIG1

DEFINE_SHA256_SHASH_ALGS(sha256_generic, rind_sha256_block_generic, "generic", 100, "generic");

/* FIPS 180-4 examples ("abc", the 448-bit message) and the empty message. */
static const struct hash_testvec sha224_tv[] = {
	{
		.plaintext = "abc",
		.psize = 3,
		.digest = "\x23\x09\x7d\x22\x34\x05\xd8\x22\x86\x42"
			  "\xa4\x77\xbd\xa2\x55\xb3\x2a\xad\xbc\xe4"
			  "\xbd\xa0\xb3\xf7\xe3\x6c\x9d\xa7",
	}, {
		.plaintext = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		.psize = 56,
		.digest = "\x75\x38\x8b\x16\x51\x27\x76\xcc\x5d\xba"
			  "\x5d\xa1\xfd\x89\x01\x50\xb0\xc6\x45\x5c"
			  "\xb4\xf5\x8b\x19\x52\x52\x25\x25",
	}, {
		.plaintext = "",
		.psize = 0,
		.digest = "\xd1\x4a\x02\x8c\x2a\x3a\x2b\xc9\x47\x61"
			  "\x02\xbb\x28\x82\x34\xc4\x15\xa2\xb0\x1f"
			  "\x82\x8e\xa6\x2a\xc5\xb3\xe4\x2f",
	},
};

static const struct hash_testvec sha256_tv[] = {
	{
		.plaintext = "abc",
		.psize = 3,
		.digest = "\xba\x78\x16\xbf\x8f\x01\xcf\xea\x41\x41"
			  "\x40\xde\x5d\xae\x22\x23\xb0\x03\x61\xa3"
			  "\x96\x17\x7a\x9c\xb4\x10\xff\x61\xf2\x00"
			  "\x15\xad",
	}, {
		.plaintext = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		.psize = 56,
		.digest = "\x24\x8d\x6a\x61\xd2\x06\x38\xb8\xe5\xc0"
			  "\x26\x93\x0c\x3e\x60\x39\xa3\x3c\xe4\x59"
			  "\x64\xff\x21\x67\xf6\xec\xed\xd4\x19\xdb"
			  "\x06\xc1",
	}, {
		.plaintext = "",
		.psize = 0,
		.digest = "\xe3\xb0\xc4\x42\x98\xfc\x1c\x14\x9a\xfb"
			  "\xf4\xc8\x99\x6f\xb9\x24\x27\xae\x41\xe4"
			  "\x64\x9b\x93\x4c\xa4\x95\x99\x1b\x78\x52"
			  "\xb8\x55",
	},
};

static struct alg_test_desc sha256_tests[] = {
	{ .alg = "sha224", .suite.hash = __VECS(sha224_tv) },
	{ .alg = "sha256", .suite.hash = __VECS(sha256_tv) },
};

static int sha256_generic_mod_init(void)
{
	crypto_register_tests(sha256_tests, ARRAY_SIZE(sha256_tests));
	return crypto_register_shashes(sha256_generic_algs, ARRAY_SIZE(sha256_generic_algs));
}
module_init(sha256_generic_mod_init);
