// SPDX-License-Identifier: MIT
/*
 * SHA-384 and SHA-512 (FIPS 180-4 sections 6.4 and 6.5), portable C.
 *
 * The compression function rind_sha512_block_generic() and the padding
 * helpers in sha2.h are shared with the accelerated drivers.
 */
#include <rind/internal/hash.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/sha2.h>
#include <crypto/sha2-generic.h>

const u64 rind_sha512_k[80] __attribute__((aligned(64))) = {
	0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
	0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
	0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
	0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
	0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
	0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
	0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
	0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
	0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
	0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
	0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
	0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
	0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
	0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
	0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
	0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
	0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
	0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
	0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
	0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

#define SHA2_BSIG0(x)	(ror64(x, 28) ^ ror64(x, 34) ^ ror64(x, 39))
#define SHA2_BSIG1(x)	(ror64(x, 14) ^ ror64(x, 18) ^ ror64(x, 41))
#define SHA2_SSIG0(x)	(ror64(x, 1) ^ ror64(x, 8) ^ ((x) >> 7))
#define SHA2_SSIG1(x)	(ror64(x, 19) ^ ror64(x, 61) ^ ((x) >> 6))

DEFINE_SHA2_BLOCK_GENERIC(rind_sha512_block_generic, u64, rind_sha512_k, 80, get_unaligned_be64)
#undef SHA2_BSIG0
#undef SHA2_BSIG1
#undef SHA2_SSIG0
#undef SHA2_SSIG1

DEFINE_SHA512_SHASH_ALGS(sha512_generic, rind_sha512_block_generic, "generic", 100, "generic");

/* FIPS 180-4 examples ("abc", the 896-bit message) and the empty message. */
static const struct hash_testvec sha384_tv[] = {
	{
		.plaintext = "abc",
		.psize = 3,
		.digest = "\xcb\x00\x75\x3f\x45\xa3\x5e\x8b\xb5\xa0"
			  "\x3d\x69\x9a\xc6\x50\x07\x27\x2c\x32\xab"
			  "\x0e\xde\xd1\x63\x1a\x8b\x60\x5a\x43\xff"
			  "\x5b\xed\x80\x86\x07\x2b\xa1\xe7\xcc\x23"
			  "\x58\xba\xec\xa1\x34\xc8\x25\xa7",
	}, {
		.plaintext = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
			     "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		.psize = 112,
		.digest = "\x09\x33\x0c\x33\xf7\x11\x47\xe8\x3d\x19"
			  "\x2f\xc7\x82\xcd\x1b\x47\x53\x11\x1b\x17"
			  "\x3b\x3b\x05\xd2\x2f\xa0\x80\x86\xe3\xb0"
			  "\xf7\x12\xfc\xc7\xc7\x1a\x55\x7e\x2d\xb9"
			  "\x66\xc3\xe9\xfa\x91\x74\x60\x39",
	}, {
		.plaintext = "",
		.psize = 0,
		.digest = "\x38\xb0\x60\xa7\x51\xac\x96\x38\x4c\xd9"
			  "\x32\x7e\xb1\xb1\xe3\x6a\x21\xfd\xb7\x11"
			  "\x14\xbe\x07\x43\x4c\x0c\xc7\xbf\x63\xf6"
			  "\xe1\xda\x27\x4e\xde\xbf\xe7\x6f\x65\xfb"
			  "\xd5\x1a\xd2\xf1\x48\x98\xb9\x5b",
	},
};

static const struct hash_testvec sha512_tv[] = {
	{
		.plaintext = "abc",
		.psize = 3,
		.digest = "\xdd\xaf\x35\xa1\x93\x61\x7a\xba\xcc\x41"
			  "\x73\x49\xae\x20\x41\x31\x12\xe6\xfa\x4e"
			  "\x89\xa9\x7e\xa2\x0a\x9e\xee\xe6\x4b\x55"
			  "\xd3\x9a\x21\x92\x99\x2a\x27\x4f\xc1\xa8"
			  "\x36\xba\x3c\x23\xa3\xfe\xeb\xbd\x45\x4d"
			  "\x44\x23\x64\x3c\xe8\x0e\x2a\x9a\xc9\x4f"
			  "\xa5\x4c\xa4\x9f",
	}, {
		.plaintext = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
			     "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		.psize = 112,
		.digest = "\x8e\x95\x9b\x75\xda\xe3\x13\xda\x8c\xf4"
			  "\xf7\x28\x14\xfc\x14\x3f\x8f\x77\x79\xc6"
			  "\xeb\x9f\x7f\xa1\x72\x99\xae\xad\xb6\x88"
			  "\x90\x18\x50\x1d\x28\x9e\x49\x00\xf7\xe4"
			  "\x33\x1b\x99\xde\xc4\xb5\x43\x3a\xc7\xd3"
			  "\x29\xee\xb6\xdd\x26\x54\x5e\x96\xe5\x5b"
			  "\x87\x4b\xe9\x09",
	}, {
		.plaintext = "",
		.psize = 0,
		.digest = "\xcf\x83\xe1\x35\x7e\xef\xb8\xbd\xf1\x54"
			  "\x28\x50\xd6\x6d\x80\x07\xd6\x20\xe4\x05"
			  "\x0b\x57\x15\xdc\x83\xf4\xa9\x21\xd3\x6c"
			  "\xe9\xce\x47\xd0\xd1\x3c\x5d\x85\xf2\xb0"
			  "\xff\x83\x18\xd2\x87\x7e\xec\x2f\x63\xb9"
			  "\x31\xbd\x47\x41\x7a\x81\xa5\x38\x32\x7a"
			  "\xf9\x27\xda\x3e",
	},
};

static struct alg_test_desc sha512_tests[] = {
	{ .alg = "sha384", .suite.hash = __VECS(sha384_tv) },
	{ .alg = "sha512", .suite.hash = __VECS(sha512_tv) },
};

static int sha512_generic_mod_init(void)
{
	crypto_register_tests(sha512_tests, ARRAY_SIZE(sha512_tests));
	return crypto_register_shashes(sha512_generic_algs, ARRAY_SIZE(sha512_generic_algs));
}
module_init(sha512_generic_mod_init);
