// SPDX-License-Identifier: MIT
/*
 * SHA-1, SHA-224/256/384/512 and the hmac template over every
 * implementation: the FIPS 180-4 examples and the million-'a' message,
 * every length 0..300 and a few large ones against OpenSSL, incremental
 * updates split at every position with export/import mid-stream,
 * multi-buffer finup (crypto_shash_finup_mb) of 1..16 messages after a
 * common prefix, of hashes and HMACs, against OpenSSL, RFC 2202
 * and RFC 4231, HMAC against OpenSSL with random keys, Wycheproof
 * hmac_sha*, the one-shots (also from several threads at first use),
 * every length 0..256 from exact-size heap buffers (ASan sees any read
 * outside the message), byte counts across 2^29, 2^32, 2^61 and 2^64
 * through an imported state against OpenSSL's SHA256_CTX / SHA512_CTX,
 * and wrong usage.  SHA3-224/256/384/512 and SHAKE128/256: the FIPS 202
 * examples (SHAKE also at 4096 bits), OpenSSL at every length to two
 * blocks and random XOF lengths through rind_shash_final_xof(), export/
 * import (and a corrupt state refused), HMAC-SHA3 against OpenSSL, every
 * arch driver (arm64's sha3-*-ce, shake*-ce) present exactly where the CPU
 * has SHA3 and against its generic driver (lengths 0..600, split points,
 * offsets, the state handed across in both directions), and the
 * permutations under them against the portable rounds; on x86 the four-
 * and eight-way Keccak of the ML-KEM/ML-DSA drivers (keccak-avx2.c,
 * keccak-avx512.c) against the portable rounds and the scalar sponge, and
 * the FIPS 202 examples through the eight-way sponge.  No Wycheproof
 * file applies (its SHA-3 files are RSA-PSS with SHAKE MGF; the HMAC-SHA3
 * ones are not in the snapshot).
 */
#include <limits.h>
#include <pthread.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <rind/internal/hash.h>
#include <crypto/keccak.h>
#include <crypto/sha2.h>
#include <crypto/keccak-rounds.h>
#include "testutil.h"

#define NHASH 5
static const char *const hash_names[NHASH] = { "sha1", "sha224", "sha256", "sha384", "sha512" };
static const char *const hmac_names[NHASH] = {
	"hmac(sha1)", "hmac(sha224)", "hmac(sha256)", "hmac(sha384)", "hmac(sha512)",
};
static const unsigned int digest_sizes[NHASH] = { 20, 28, 32, 48, 64 };
static const unsigned int block_sizes[NHASH] = { 64, 64, 64, 128, 128 };

struct hmac_vec {
	const char *hash;
	const char *key, *data, *mac;
	unsigned int trunc;	/* compare only this many bytes (0: all) */
};

/*
 * ck_assert_* records every passing check (a write() each), so hot loops
 * use this instead.
 */
#define OK(drv, expr)							\
	do {								\
		int __e = (expr);					\
		if (__e)						\
			ck_abort_msg("%s: %s returned %d", drv, #expr, __e); \
	} while (0)

typedef char drivers_t[RT_MAX_IMPLS][CRYPTO_MAX_ALG_NAME];

static struct crypto_shash *alloc_drv(const char *drv)
{
	struct crypto_shash *tfm = crypto_alloc_shash(drv, 0, 0);

	ck_assert_msg(!IS_ERR_OR_NULL(tfm), "%s: alloc failed (%ld)", drv, PTR_ERR(tfm));
	ck_assert_str_eq(crypto_shash_driver_name(tfm), drv);
	return tfm;
}

static const EVP_MD *ossl_md(int h)
{
	const EVP_MD *md = EVP_get_digestbyname(hash_names[h]);

	if (!md)
		ck_abort_msg("OpenSSL has no %s", hash_names[h]);
	return md;
}

static void ossl_digest(int h, const u8 *data, size_t len, u8 *out)
{
	unsigned int olen;

	if (EVP_Digest(data, len, out, &olen, ossl_md(h), NULL) != 1 || olen != digest_sizes[h])
		ck_abort_msg("OpenSSL %s failed", hash_names[h]);
}

static void ossl_hmac(int h, const u8 *key, size_t keylen, const u8 *data, size_t len, u8 *out)
{
	unsigned int olen;
	static const u8 empty[1];

	if (!HMAC(ossl_md(h), key ? key : empty, (int)keylen, data ? data : empty, len, out,
		  &olen) || olen != digest_sizes[h])
		ck_abort_msg("OpenSSL HMAC-%s failed", hash_names[h]);
}

/*
 * Digest through init / update in pieces / final, or where @xof
 * rind_shash_final_xof() of @outlen bytes.  The pieces take their sizes
 * from @chunks in turn, the last one cut short at the end of @data.
 */
static int digest_pieces(struct crypto_shash *tfm, const u8 *data, size_t len,
			 const size_t *chunks, size_t nchunks, bool xof, u8 *out, size_t outlen)
{
	SHASH_DESC_ON_STACK(desc, tfm);
	size_t c = 0;
	int err;

	desc->tfm = tfm;
	err = crypto_shash_init(desc);
	while (!err && len) {
		size_t k = chunks[c++ % nchunks];
		unsigned int n = (unsigned int)(len < k ? len : k);

		err = crypto_shash_update(desc, data, n);
		data += n;
		len -= n;
	}
	if (!err)
		err = xof ? rind_shash_final_xof(desc, out, outlen) : crypto_shash_final(desc, out);
	shash_desc_zero(desc);
	return err;
}

/* Digest through init / update (in pieces of at most @chunk) / final. */
static int desc_digest(struct crypto_shash *tfm, const u8 *data, size_t len, size_t chunk,
		       u8 *out)
{
	return digest_pieces(tfm, data, len, &chunk, 1, false, out, 0);
}

static void check_digest(const char *drv, const char *what, size_t len, const u8 *got,
			 const u8 *want, unsigned int ds)
{
	if (memcmp(got, want, ds)) {
		char g[2 * HASH_MAX_DIGESTSIZE + 1];

		snprintf(g, sizeof(g), "%s", rt_hex(got, ds));
		ck_abort_msg("%s: %s, length %zu: got %s, want %s", drv, what, len, g,
			     rt_hex(want, ds));
	}
}

/* FIPS 180-4 examples: "abc", the 448-bit and 896-bit messages, one million 'a'. */
static const struct fips_vec {
	const char *name;
	const char *digest[4];
} fips_vecs[] = {
	{ "sha1", {
		"a9993e364706816aba3e25717850c26c9cd0d89d",
		"84983e441c3bd26ebaae4aa1f95129e5e54670f1",
		"a49b2446a02c645bf419f995b67091253a04a259",
		"34aa973cd4c4daa4f61eeb2bdbad27316534016f",
	} },
	{ "sha224", {
		"23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
		"75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525",
		"c97ca9a559850ce97a04a96def6d99a9e0e0e2ab14e6b8df265fc0b3",
		"20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67",
	} },
	{ "sha256", {
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
		"cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
		"cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
	} },
	{ "sha384", {
		"cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
		  "8086072ba1e7cc2358baeca134c825a7",
		"3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6"
		  "b0455a8520bc4e6f5fe95b1fe3c8452b",
		"09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712"
		  "fcc7c71a557e2db966c3e9fa91746039",
		"9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b"
		  "07b8b3dc38ecc4ebae97ddd87f3d8985",
	} },
	{ "sha512", {
		"ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
		  "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
		"204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
		  "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445",
		"8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
		  "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
		"e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
		  "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b",
	} },
};

/* RFC 2202 section 3: HMAC-SHA-1 test cases 1-7. */
static const struct hmac_vec rfc2202_vecs[] = {
	{ "sha1", "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
		  "4869205468657265",
		  "b617318655057264e28bc0b6fb378c8ef146be00", 0 },
	{ "sha1", "4a656665",
		  "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
		  "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79", 0 },
	{ "sha1", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		  "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
		  "dddddddddddddddddddddddddddddddddddd",
		  "125d7342b9ac11cd91a39af48aa17b4f63f175d3", 0 },
	{ "sha1", "0102030405060708090a0b0c0d0e0f10111213141516171819",
		  "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"
		  "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",
		  "4c9007f4026250c6bc8414f9bf50c86c2d7235da", 0 },
	{ "sha1", "0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c",
		  "546573742057697468205472756e636174696f6e",
		  "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04", 0 },
	{ "sha1", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		  "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a"
		  "65204b6579202d2048617368204b6579204669727374",
		  "aa4ae5e15272d00e95705637ce8a3b55ed402112", 0 },
	{ "sha1", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		  "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a"
		  "65204b657920616e64204c6172676572205468616e204f6e6520426c6f636b2d"
		  "53697a652044617461",
		  "e8e99d0f45237d786d6bbaa7965c7808bbff1a91", 0 },
};

/* RFC 4231 section 4: HMAC-SHA-224/256/384/512 test cases 1-7 (case 5 truncated to 128 bits). */
static const struct hmac_vec rfc4231_vecs[] = {
	{ "sha224", "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
		  "4869205468657265",
		  "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22", 0 },
	{ "sha224", "4a656665",
		  "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
		  "a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44", 0 },
	{ "sha224", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		  "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
		  "dddddddddddddddddddddddddddddddddddd",
		  "7fb3cb3588c6c1f6ffa9694d7d6ad2649365b0c1f65d69d1ec8333ea", 0 },
	{ "sha224", "0102030405060708090a0b0c0d0e0f10111213141516171819",
		  "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"
		  "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",
		  "6c11506874013cac6a2abc1bb382627cec6a90d86efc012de7afec5a", 0 },
	{ "sha224", "0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c",
		  "546573742057697468205472756e636174696f6e",
		  "0e2aea68a90c8d37c988bcdb9fca6fa8", 16 },
	{ "sha224", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaa",
		  "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a"
		  "65204b6579202d2048617368204b6579204669727374",
		  "95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e", 0 },
	{ "sha224", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaa",
		  "5468697320697320612074657374207573696e672061206c6172676572207468"
		  "616e20626c6f636b2d73697a65206b657920616e642061206c61726765722074"
		  "68616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565"
		  "647320746f20626520686173686564206265666f7265206265696e6720757365"
		  "642062792074686520484d414320616c676f726974686d2e",
		  "3a854166ac5d9f023f54d517d0b39dbd946770db9c2b95c9f6f565d1", 0 },
	{ "sha256", "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
		  "4869205468657265",
		  "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7", 0 },
	{ "sha256", "4a656665",
		  "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
		  "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", 0 },
	{ "sha256", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		  "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
		  "dddddddddddddddddddddddddddddddddddd",
		  "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe", 0 },
	{ "sha256", "0102030405060708090a0b0c0d0e0f10111213141516171819",
		  "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"
		  "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",
		  "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b", 0 },
	{ "sha256", "0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c",
		  "546573742057697468205472756e636174696f6e",
		  "a3b6167473100ee06e0c796c2955552b", 16 },
	{ "sha256", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaa",
		  "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a"
		  "65204b6579202d2048617368204b6579204669727374",
		  "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54", 0 },
	{ "sha256", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaa",
		  "5468697320697320612074657374207573696e672061206c6172676572207468"
		  "616e20626c6f636b2d73697a65206b657920616e642061206c61726765722074"
		  "68616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565"
		  "647320746f20626520686173686564206265666f7265206265696e6720757365"
		  "642062792074686520484d414320616c676f726974686d2e",
		  "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2", 0 },
	{ "sha384", "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
		  "4869205468657265",
		  "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59c"
		  "faea9ea9076ede7f4af152e8b2fa9cb6", 0 },
	{ "sha384", "4a656665",
		  "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
		  "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e"
		  "8e2240ca5e69e2c78b3239ecfab21649", 0 },
	{ "sha384", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		  "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
		  "dddddddddddddddddddddddddddddddddddd",
		  "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b"
		  "2a5ab39dc13814b94e3ab6e101a34f27", 0 },
	{ "sha384", "0102030405060708090a0b0c0d0e0f10111213141516171819",
		  "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"
		  "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",
		  "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e"
		  "6801dd23c4a7d679ccf8a386c674cffb", 0 },
	{ "sha384", "0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c",
		  "546573742057697468205472756e636174696f6e",
		  "3abf34c3503b2a23a46efc619baef897", 16 },
	{ "sha384", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaa",
		  "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a"
		  "65204b6579202d2048617368204b6579204669727374",
		  "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c6"
		  "0c2ef6ab4030fe8296248df163f44952", 0 },
	{ "sha384", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaa",
		  "5468697320697320612074657374207573696e672061206c6172676572207468"
		  "616e20626c6f636b2d73697a65206b657920616e642061206c61726765722074"
		  "68616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565"
		  "647320746f20626520686173686564206265666f7265206265696e6720757365"
		  "642062792074686520484d414320616c676f726974686d2e",
		  "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5"
		  "a678cc31e799176d3860e6110c46523e", 0 },
	{ "sha512", "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
		  "4869205468657265",
		  "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
		  "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854", 0 },
	{ "sha512", "4a656665",
		  "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
		  "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
		  "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737", 0 },
	{ "sha512", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		  "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
		  "dddddddddddddddddddddddddddddddddddd",
		  "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39"
		  "bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb", 0 },
	{ "sha512", "0102030405060708090a0b0c0d0e0f10111213141516171819",
		  "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"
		  "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",
		  "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3db"
		  "a91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd", 0 },
	{ "sha512", "0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c",
		  "546573742057697468205472756e636174696f6e",
		  "415fad6271580a531d4179bc891d87a6", 16 },
	{ "sha512", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaa",
		  "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a"
		  "65204b6579202d2048617368204b6579204669727374",
		  "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
		  "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598", 0 },
	{ "sha512", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaa",
		  "5468697320697320612074657374207573696e672061206c6172676572207468"
		  "616e20626c6f636b2d73697a65206b657920616e642061206c61726765722074"
		  "68616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565"
		  "647320746f20626520686173686564206265666f7265206265696e6720757365"
		  "642062792074686520484d414320616c676f726974686d2e",
		  "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"
		  "b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58", 0 },
};

/* -------------------------------------------------------------- hashes */

START_TEST(test_fips_examples)
{
	static const char *const msgs[3] = {
		"abc",
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
		 "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
	};
	static const size_t chunks[] = { 1, 7, 64, 129, 1000, 4096, 65 };
	const size_t mlen = 1000000;
	u8 *million = malloc(mlen);

	ck_assert_ptr_nonnull(million);
	memset(million, 'a', mlen);
	for (int h = 0; h < NHASH; h++) {
		drivers_t drv;
		int n = rt_impls(hash_names[h], "shash", drv, RT_MAX_IMPLS);

		ck_assert_str_eq(fips_vecs[h].name, hash_names[h]);
		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);
			unsigned int ds = crypto_shash_digestsize(tfm);
			u8 out[HASH_MAX_DIGESTSIZE], want[HASH_MAX_DIGESTSIZE];
			int cases = 0;

			ck_assert_uint_eq(ds, digest_sizes[h]);
			ck_assert_uint_eq(crypto_shash_blocksize(tfm), block_sizes[h]);
			for (int m = 0; m < 3; m++) {
				rt_unhex(want, sizeof(want), fips_vecs[h].digest[m]);
				OK(drv[i], crypto_shash_tfm_digest(tfm, (const u8 *)msgs[m],
						 (unsigned int)strlen(msgs[m]), out));
				check_digest(drv[i], msgs[m], strlen(msgs[m]), out, want, ds);
				cases++;
			}
			/* One million 'a': in one call and in pieces of varying size. */
			rt_unhex(want, sizeof(want), fips_vecs[h].digest[3]);
			OK(drv[i], crypto_shash_tfm_digest(tfm, million, (unsigned int)mlen, out));
			check_digest(drv[i], "million a", mlen, out, want, ds);
			cases++;
			OK(drv[i], digest_pieces(tfm, million, mlen, chunks, ARRAY_SIZE(chunks), false,
						 out, 0));
			check_digest(drv[i], "million a in pieces", mlen, out, want, ds);
			cases++;
			rt_report("FIPS 180-4 examples", drv[i], cases, 0);
			crypto_free_shash(tfm);
		}
	}
	free(million);
}
END_TEST

#define BIGLEN ((1u << 20) + 13)

START_TEST(test_vs_openssl)
{
	static const size_t big[] = { 511, 1000, 4095, 4096, 4097, 65537, BIGLEN };
	u8 *buf = malloc(BIGLEN + 1);

	ck_assert_ptr_nonnull(buf);
	for (int h = 0; h < NHASH; h++) {
		drivers_t drv;
		int n = rt_impls(hash_names[h], "shash", drv, RT_MAX_IMPLS);
		struct rt_rng rng;

		rt_rng_seed(&rng, 0x5ea0 + (u64)h);
		rt_fill(&rng, buf, BIGLEN + 1);
		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);
			u8 out[HASH_MAX_DIGESTSIZE], want[HASH_MAX_DIGESTSIZE];
			int cases = 0;

			for (size_t len = 0; len <= 300; len++) {
				ossl_digest(h, buf, len, want);
				OK(drv[i], crypto_shash_tfm_digest(tfm, buf, (unsigned int)len, out));
				check_digest(drv[i], "digest", len, out, want, digest_sizes[h]);
				/* Unaligned input, through init/update/final. */
				ossl_digest(h, buf + 1, len, want);
				OK(drv[i], desc_digest(tfm, buf + 1, len, 100, out));
				check_digest(drv[i], "unaligned update", len, out, want, digest_sizes[h]);
				cases += 2;
			}
			for (size_t j = 0; j < ARRAY_SIZE(big); j++) {
				ossl_digest(h, buf, big[j], want);
				OK(drv[i], crypto_shash_tfm_digest(tfm, buf, (unsigned int)big[j], out));
				check_digest(drv[i], "digest", big[j], out, want, digest_sizes[h]);
				OK(drv[i], desc_digest(tfm, buf, big[j], 1000 + j, out));
				check_digest(drv[i], "update in pieces", big[j], out, want, digest_sizes[h]);
				cases += 2;
			}
			rt_report("OpenSSL differential", drv[i], cases, 0);
			crypto_free_shash(tfm);
		}
	}
	free(buf);
}
END_TEST

/*
 * Every length up to two blocks and one byte, split at every position: the
 * state after the first part is exported and imported into a fresh
 * descriptor that finishes the message, and the original descriptor
 * finishes it too.
 */
/*
 * @buf split at @cut of @len: hashed up to the cut on @d1, the state
 * exported and finished from @d2 by finup, then @d1 finished too, by
 * update + final or, where @finup, by finup.  Both must give @want.
 */
static void split_export_import(const char *drv, struct shash_desc *d1, struct shash_desc *d2,
				const u8 *buf, size_t cut, size_t len, bool finup,
				const u8 *want, unsigned int ds)
{
	u8 state[HASH_MAX_STATESIZE], out[HASH_MAX_DIGESTSIZE];

	OK(drv, crypto_shash_init(d1));
	OK(drv, crypto_shash_update(d1, buf, (unsigned int)cut));
	OK(drv, crypto_shash_export(d1, state));
	OK(drv, crypto_shash_import(d2, state));
	OK(drv, crypto_shash_finup(d2, buf + cut, (unsigned int)(len - cut), out));
	if (memcmp(out, want, ds))
		ck_abort_msg("%s: import after %zu of %zu bytes: wrong digest", drv, cut, len);
	if (finup) {
		OK(drv, crypto_shash_finup(d1, buf + cut, (unsigned int)(len - cut), out));
	} else {
		OK(drv, crypto_shash_update(d1, buf + cut, (unsigned int)(len - cut)));
		OK(drv, crypto_shash_final(d1, out));
	}
	if (memcmp(out, want, ds))
		ck_abort_msg("%s: split at %zu of %zu bytes: wrong digest", drv, cut, len);
}

START_TEST(test_incremental_export_import)
{
	u8 buf[2 * 128 + 1];
	struct rt_rng rng;

	rt_rng_seed(&rng, 0x1c5e);
	rt_fill(&rng, buf, sizeof(buf));
	for (int h = 0; h < NHASH; h++) {
		drivers_t drv;
		int n = rt_impls(hash_names[h], "shash", drv, RT_MAX_IMPLS);
		size_t maxlen = 2 * block_sizes[h] + 1;

		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);
			unsigned int ds = crypto_shash_digestsize(tfm);
			unsigned int ss = crypto_shash_statesize(tfm);
			u8 want[HASH_MAX_DIGESTSIZE], out[HASH_MAX_DIGESTSIZE];
			SHASH_DESC_ON_STACK(d1, tfm);
			SHASH_DESC_ON_STACK(d2, tfm);
			int cases = 0;

			ck_assert_uint_le(ss, HASH_MAX_STATESIZE);
			ck_assert_uint_le(crypto_shash_descsize(tfm), HASH_MAX_DESCSIZE);
			for (size_t len = 0; len <= maxlen; len++) {
				ossl_digest(h, buf, len, want);
				for (size_t cut = 0; cut <= len; cut++) {
					d1->tfm = tfm;
					d2->tfm = tfm;
					split_export_import(drv[i], d1, d2, buf, cut, len, false, want, ds);
					cases++;
				}
			}
			/* Three-part splits of longer messages, random cut points. */
			for (int k = 0; k < 200; k++) {
				size_t len = rt_rand_range(&rng, (u32)sizeof(buf) + 1);
				size_t a = rt_rand_range(&rng, (u32)len + 1);
				size_t b = a + rt_rand_range(&rng, (u32)(len - a) + 1);

				ossl_digest(h, buf, len, want);
				d1->tfm = tfm;
				OK(drv[i], crypto_shash_init(d1));
				OK(drv[i], crypto_shash_update(d1, buf, (unsigned int)a));
				OK(drv[i], crypto_shash_update(d1, buf + a, (unsigned int)(b - a)));
				OK(drv[i], crypto_shash_finup(d1, buf + b, (unsigned int)(len - b), out));
				if (memcmp(out, want, ds))
					ck_abort_msg("%s: split %zu/%zu/%zu: wrong digest", drv[i], a,
						     b - a, len - b);
				cases++;
			}
			shash_desc_zero(d1);
			shash_desc_zero(d2);
			rt_report("incremental + export/import", drv[i], cases, 0);
			crypto_free_shash(tfm);
		}
	}
}
END_TEST

/*
 * crypto_shash_finup_mb: 1..16 messages of one length (every length
 * 0..300, then 1 KiB and 4 KiB + 5), each continuing a random common
 * prefix (0..300 bytes) hashed into the descriptor first, at random
 * alignments, against OpenSSL's digest of prefix || message.  Drivers
 * with a finup_mb run it (sha384/sha512 with AVX-512: eight lanes, more
 * messages in groups), the others the front end's loop.  The descriptor
 * is wiped afterwards, as after finup.
 */
#define MB_MAXMSGS	16
#define MB_MAXLEN	4101
#define MB_SLOT		(MB_MAXLEN + 64)

static void ossl_digest2(int h, const u8 *a, size_t alen, const u8 *b, size_t blen, u8 *out)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned int olen;

	if (!ctx || EVP_DigestInit_ex(ctx, ossl_md(h), NULL) != 1 ||
	    EVP_DigestUpdate(ctx, a, alen) != 1 || EVP_DigestUpdate(ctx, b, blen) != 1 ||
	    EVP_DigestFinal_ex(ctx, out, &olen) != 1 || olen != digest_sizes[h])
		ck_abort_msg("OpenSSL %s failed", hash_names[h]);
	EVP_MD_CTX_free(ctx);
}

static int desc_is_zero(struct shash_desc *desc)
{
	const u8 *p = shash_desc_ctx(desc);

	for (unsigned int i = 0; i < crypto_shash_descsize(desc->tfm); i++)
		if (p[i])
			return 0;
	return 1;
}

/* One finup_mb call checked against OpenSSL; returns the messages checked. */
static int mb_case(int h, const char *drv, struct crypto_shash *tfm, struct rt_rng *rng,
		   u8 *pool, unsigned int len, unsigned int nmsg, bool same_ptr)
{
	unsigned int ds = digest_sizes[h];
	u8 prefix[300], outs[MB_MAXMSGS][HASH_MAX_DIGESTSIZE], want[HASH_MAX_DIGESTSIZE];
	const u8 *data[MB_MAXMSGS];
	u8 *outp[MB_MAXMSGS];
	size_t plen = rt_rand_range(rng, sizeof(prefix) + 1);
	SHASH_DESC_ON_STACK(desc, tfm);

	rt_fill(rng, prefix, plen);
	for (unsigned int m = 0; m < nmsg; m++) {
		u8 *p = pool + (size_t)m * MB_SLOT + rt_rand_range(rng, 64);

		rt_fill(rng, p, len);
		data[m] = same_ptr && m ? data[0] : p;
		outp[m] = outs[m];
	}
	memset(outs, 0xa5, sizeof(outs));
	desc->tfm = tfm;
	OK(drv, crypto_shash_init(desc));
	OK(drv, crypto_shash_update(desc, prefix, (unsigned int)plen));
	OK(drv, crypto_shash_finup_mb(desc, data, len, outp, nmsg));
	if (!desc_is_zero(desc))
		ck_abort_msg("%s: finup_mb left the descriptor state", drv);
	for (unsigned int m = 0; m < nmsg; m++) {
		ossl_digest2(h, prefix, plen, data[m], len, want);
		if (memcmp(outs[m], want, ds)) {
			char g[2 * HASH_MAX_DIGESTSIZE + 1];

			snprintf(g, sizeof(g), "%s", rt_hex(outs[m], ds));
			ck_abort_msg("%s: finup_mb, prefix %zu, %u messages of %u bytes: message %u: got %s, want %s",
				     drv, plen, nmsg, len, m, g, rt_hex(want, ds));
		}
	}
	return (int)nmsg;
}

START_TEST(test_finup_mb)
{
	static const unsigned int longer[] = { 1024, MB_MAXLEN };
	u8 *pool = malloc((size_t)MB_MAXMSGS * MB_SLOT);
	struct rt_rng rng;

	ck_assert_ptr_nonnull(pool);
	rt_rng_seed(&rng, 0x6d62);
	for (int h = 0; h < NHASH; h++) {
		drivers_t drv;
		int n = rt_impls(hash_names[h], "shash", drv, RT_MAX_IMPLS);

		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);
			unsigned int lanes = crypto_shash_mb_max_msgs(tfm);
			char what[64];
			int cases = 0;

			ck_assert_uint_ge(lanes, 1);
			ck_assert_uint_le(lanes, HASH_MAX_MB_MSGS);
			/* Every length, the message count cycling through 1..16. */
			for (unsigned int len = 0; len <= 300; len++)
				cases += mb_case(h, drv[i], tfm, &rng, pool, len, 1 + len % MB_MAXMSGS,
						 false);
			/* Every count at a few lengths, and longer messages. */
			for (unsigned int nm = 1; nm <= MB_MAXMSGS; nm++) {
				static const unsigned int some[] = { 0, 1, 111, 112, 127, 128, 129, 240 };

				for (size_t j = 0; j < ARRAY_SIZE(some); j++)
					cases += mb_case(h, drv[i], tfm, &rng, pool, some[j], nm, false);
				for (size_t j = 0; j < ARRAY_SIZE(longer); j++)
					cases += mb_case(h, drv[i], tfm, &rng, pool, longer[j], nm, false);
			}
			/* The same buffer in every lane. */
			cases += mb_case(h, drv[i], tfm, &rng, pool, 200, 11, true);
			/* No messages: nothing written, the descriptor wiped. */
			{
				SHASH_DESC_ON_STACK(desc, tfm);

				desc->tfm = tfm;
				OK(drv[i], crypto_shash_init(desc));
				OK(drv[i], crypto_shash_update(desc, pool, 5));
				OK(drv[i], crypto_shash_finup_mb(desc, NULL, 0, NULL, 0));
				ck_assert_msg(desc_is_zero(desc), "%s: state left", drv[i]);
			}
			snprintf(what, sizeof(what), "finup_mb (%u lane%s)", lanes,
				 lanes > 1 ? "s" : "");
			rt_report(what, drv[i], cases, 0);
			crypto_free_shash(tfm);
		}
	}
	free(pool);
}
END_TEST

/* finup_mb of keyed hashes (the front end's loop forks the HMAC state). */
START_TEST(test_finup_mb_hmac)
{
	u8 *pool = malloc((size_t)MB_MAXMSGS * MB_SLOT);
	struct rt_rng rng;

	ck_assert_ptr_nonnull(pool);
	rt_rng_seed(&rng, 0x6d63);
	for (int h = 0; h < NHASH; h++) {
		drivers_t drv;
		int n = rt_impls(hmac_names[h], "shash", drv, RT_MAX_IMPLS);

		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);
			unsigned int ds = digest_sizes[h];
			int cases = 0;

			for (int k = 0; k < 20; k++) {
				u8 key[200], prefix[150], *buf, outs[5][HASH_MAX_DIGESTSIZE];
				u8 want[HASH_MAX_DIGESTSIZE];
				const u8 *data[5];
				u8 *outp[5];
				size_t klen = rt_rand_range(&rng, sizeof(key) + 1);
				size_t plen = rt_rand_range(&rng, sizeof(prefix) + 1);
				unsigned int len = rt_rand_range(&rng, 300);
				unsigned int nm = 1 + rt_rand_range(&rng, 5);
				SHASH_DESC_ON_STACK(desc, tfm);

				rt_fill(&rng, key, klen);
				rt_fill(&rng, prefix, plen);
				OK(drv[i], crypto_shash_setkey(tfm, key, (unsigned int)klen));
				desc->tfm = tfm;
				OK(drv[i], crypto_shash_init(desc));
				OK(drv[i], crypto_shash_update(desc, prefix, (unsigned int)plen));
				for (unsigned int m = 0; m < nm; m++) {
					data[m] = pool + m * MB_SLOT;
					rt_fill(&rng, pool + m * MB_SLOT, len);
					outp[m] = outs[m];
				}
				OK(drv[i], crypto_shash_finup_mb(desc, data, len, outp, nm));
				buf = malloc(plen + len + 1);
				ck_assert_ptr_nonnull(buf);
				for (unsigned int m = 0; m < nm; m++) {
					memcpy(buf, prefix, plen);
					memcpy(buf + plen, data[m], len);
					ossl_hmac(h, key, klen, buf, plen + len, want);
					if (memcmp(outs[m], want, ds))
						ck_abort_msg("%s: finup_mb message %u of %u (%u bytes, key %zu, prefix %zu): wrong MAC",
							     drv[i], m, nm, len, klen, plen);
					cases++;
				}
				free(buf);
			}
			rt_report("HMAC finup_mb", drv[i], cases, 0);
			crypto_free_shash(tfm);
		}
	}
	free(pool);
}
END_TEST

/* The accelerated drivers are there when the CPU has what they need. */
START_TEST(test_arch_drivers_present)
{
#if defined(__x86_64__)
	struct { const char *name, *drv; bool want; } exp[] = {
		{ "sha1", "sha1-shani", false },
		{ "sha224", "sha224-shani", false },
		{ "sha256", "sha256-shani", false },
		{ "sha384", "sha384-avx2", false },
		{ "sha512", "sha512-avx2", false },
		{ "sha384", "sha384-avx512vl", false },
		{ "sha512", "sha512-avx512vl", false },
	};
	bool shani = rind_cpu_has(RIND_X86_SHANI) && rind_cpu_has(RIND_X86_SSE41) &&
		     rind_cpu_has(RIND_X86_SSSE3);
	bool avx2 = rind_cpu_has(RIND_X86_AVX2) && rind_cpu_has(RIND_X86_BMI1) &&
		    rind_cpu_has(RIND_X86_BMI2);
	bool vl = avx2 && rind_cpu_has(RIND_X86_AVX512F) && rind_cpu_has(RIND_X86_AVX512VL);

	for (size_t i = 0; i < ARRAY_SIZE(exp); i++) {
		bool has = crypto_has_shash(exp[i].drv, 0, 0);

		exp[i].want = i < 3 ? shani : i < 5 ? avx2 : vl;
		ck_assert_msg(has == exp[i].want, "%s: registered %d, CPU features say %d",
			      exp[i].drv, has, exp[i].want);
		if (has) {
			struct crypto_shash *tfm = crypto_alloc_shash(exp[i].name, 0, 0);

			ck_assert(!IS_ERR(tfm));
			ck_assert_msg(crypto_shash_alg(tfm)->base.cra_priority >= 300,
				      "%s: lookup picked %s", exp[i].name,
				      crypto_shash_driver_name(tfm));
			crypto_free_shash(tfm);
		}
	}
	/* With AVX-512 the sha384/sha512 driver hashes eight messages at once. */
	if (avx2) {
		bool mb = rind_cpu_has(RIND_X86_AVX512F) && rind_cpu_has(RIND_X86_AVX512BW);

		for (size_t i = 3; i < ARRAY_SIZE(exp); i++) {
			struct crypto_shash *tfm;

			if (!exp[i].want)
				continue;
			tfm = alloc_drv(exp[i].drv);

			ck_assert_msg(crypto_shash_mb_max_msgs(tfm) == (mb ? 8u : 1u),
				      "%s: finup_mb of %u messages", exp[i].drv,
				      crypto_shash_mb_max_msgs(tfm));
			crypto_free_shash(tfm);
		}
	}
	printf("x86 drivers: sha-ni %s, avx2 %s\n", shani ? "yes" : "no", avx2 ? "yes" : "no");
#elif defined(__aarch64__)
	static const struct { const char *name, *drv; enum rind_cpu_feature f; } exp[] = {
		{ "sha1", "sha1-ce", RIND_ARM64_SHA1 },
		{ "sha224", "sha224-ce", RIND_ARM64_SHA2 },
		{ "sha256", "sha256-ce", RIND_ARM64_SHA2 },
		{ "sha384", "sha384-ce", RIND_ARM64_SHA512 },
		{ "sha512", "sha512-ce", RIND_ARM64_SHA512 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(exp); i++) {
		bool want = rind_cpu_has(exp[i].f) && rind_cpu_has(RIND_ARM64_ASIMD);
		bool has = crypto_has_shash(exp[i].drv, 0, 0);

		ck_assert_msg(has == want, "%s: registered %d, CPU features say %d", exp[i].drv,
			      has, want);
		if (has) {
			struct crypto_shash *tfm = crypto_alloc_shash(exp[i].name, 0, 0);

			ck_assert(!IS_ERR(tfm));
			ck_assert_str_eq(crypto_shash_driver_name(tfm), exp[i].drv);
			crypto_free_shash(tfm);
		}
	}
	printf("arm64 drivers: sha1-ce %s, sha256-ce %s, sha512-ce %s\n",
	       crypto_has_shash("sha1-ce", 0, 0) ? "yes" : "no",
	       crypto_has_shash("sha256-ce", 0, 0) ? "yes" : "no",
	       crypto_has_shash("sha512-ce", 0, 0) ? "yes" : "no");
#endif
}
END_TEST

#if defined(__aarch64__)
#include "../arch/arm64/keccak-x2.h"
#endif

/*
 * The library's Keccak-f[1600] (on arm64 with SHA3, keccak-ce.c's EOR3/
 * RAX1/XAR/BCAX rounds; else the C rounds), the C rounds the generic
 * drivers run, and on arm64 with SHA3 keccak-ce.c's one-state form by
 * name (the sha3-*-ce drivers'), each against the portable rounds on
 * random states, chained so each output feeds the next input.
 */
static int keccak_perm_check(keccak_f1600_fn *fn, const char *name, struct rt_rng *rng)
{
	u64 a[25], b[25];
	int i, k;

	rt_fill(rng, a, sizeof(a));
	memcpy(b, a, sizeof(a));
	for (k = 0; k < 500; k++) {
		fn(a);
		keccak_f1600_rounds(b);
		if (memcmp(a, b, sizeof(a)))
			ck_abort_msg("%s: permutation %d differs from the portable rounds", name, k);
		if (k % 50 == 49)
			for (i = 0; i < 25; i++)
				a[i] = b[i] = rt_rand(rng);
	}
	rt_report("keccak-f1600 vs the portable rounds", name, k, 0);
	return k;
}

START_TEST(test_keccak_permutation)
{
	struct rt_rng rng;
	int ran = 0;

	rt_rng_seed(&rng, 0x6ecc);
	ran += keccak_perm_check(rind_keccak_f1600,
#if defined(__aarch64__)
				 rind_cpu_has(RIND_ARM64_SHA3) ? "keccak-ce" : "portable",
#else
				 "installed",
#endif
				 &rng);
	ran += keccak_perm_check(rind_keccak_f1600_c, "the C rounds (sha3-*-generic)", &rng);
#if defined(__aarch64__)
	if (rind_cpu_has(RIND_ARM64_SHA3))
		ran += keccak_perm_check(rind_keccak_f1600_ce, "rind_keccak_f1600_ce", &rng);
	else
		rt_report("keccak-f1600 vs the portable rounds", "rind_keccak_f1600_ce (no SHA3)", 0, 1);
#endif
	ck_assert_int_ge(ran, 1000);
}
END_TEST

#if defined(__aarch64__)
/*
 * arch/arm64's two-way Keccak-f[1600] (keccak-ce.c's SHA3 form where the
 * CPU has it, keccak-x2-neon.c's plain ASIMD form) against the portable
 * rounds on each of its two states: random states, chained, the two
 * lanes different (so a lane mix-up shows), now and then one lane equal
 * to the other or all-zero / all-ones.
 */
static int keccakx2_check(void (*fn)(struct keccakx2_state *), const char *name,
			  struct rt_rng *rng)
{
	struct keccakx2_state s;
	u64 ref[2][25];
	int k, i, l;

	for (k = 0; k < 400; k++) {
		if (k % 40 == 0) {
			rt_fill(rng, ref, sizeof(ref));
			if (k == 40)
				memcpy(ref[1], ref[0], sizeof(ref[0]));
			if (k == 80)
				memset(ref[0], 0, sizeof(ref[0]));
			if (k == 120)
				memset(ref[1], 0xff, sizeof(ref[1]));
		}
		for (i = 0; i < 25; i++)
			for (l = 0; l < 2; l++)
				s.a[i][l] = ref[l][i];
		fn(&s);
		keccak_f1600_rounds(ref[0]);
		keccak_f1600_rounds(ref[1]);
		for (i = 0; i < 25; i++)
			for (l = 0; l < 2; l++)
				if (s.a[i][l] != ref[l][i])
					ck_abort_msg("%s: permutation %d, state %d word %d differs", name,
						     k, l, i);
	}
	rt_report("two-way keccak-f1600 vs the portable rounds", name, k, 0);
	return k;
}

START_TEST(test_keccakx2_arm64)
{
	struct rt_rng rng;
	int ran;

	rt_rng_seed(&rng, 0x6ecc2);
	ran = keccakx2_check(rind_keccakx2_f1600_neon, "keccakx2-neon", &rng);
	if (rind_cpu_has(RIND_ARM64_SHA3))
		ran += keccakx2_check(rind_keccakx2_f1600_ce, "keccakx2-ce", &rng);
	else
		rt_report("two-way keccak-f1600 vs the portable rounds", "keccakx2-ce (no SHA3)",
			  0, 1);
	ck_assert_int_ge(ran, 400);
	/* the drivers' choice follows the CPU (and RIND_DISABLE) */
	ck_assert(rind_mlkem_neon_keccakx2 == NULL ||
		  rind_mlkem_neon_keccakx2 == (rind_cpu_has(RIND_ARM64_SHA3)
					       ? rind_keccakx2_f1600_ce : rind_keccakx2_f1600_neon));
}
END_TEST
#endif

#if defined(__x86_64__)
#include "../arch/x86/keccak-x4.h"
#include "../arch/x86/keccak-x8.h"

/*
 * The x86 many-way Keccak of the ML-KEM/ML-DSA drivers: keccak-avx2.c's
 * four-way (assembly and intrinsics permutations, one-block sponge) and
 * keccak-avx512.c's eight-way (permutation, transposition, sponge of any
 * length) against the portable rounds and the library's scalar sponge,
 * then the FIPS 202 examples through every lane of the eight-way sponge.
 * The eight-way code runs where the CPU has AVX512F: here, on Zen 3, only
 * in the emulated run (make check-avx512-emu), which must reach it.
 */
union x4_lanes {
	struct keccakx4_state st;
	u64 w[25][4];
};

union x8_lanes {
	struct keccakx8_state st;
	u64 w[25][8];
};

static bool keccakx8_runs(const char *what)
{
	const char *emu = getenv("RIND_EMU_ASSUME");

	if (rind_cpu_has(RIND_X86_AVX512F))
		return true;
	ck_assert_msg(!emu || strcmp(emu, "avx512"), "%s: AVX512F not taken as present", what);
	rt_report(what, "keccakx8-avx512 (no AVX512F)", 0, 1);
	return false;
}

/* fresh random states, now and then two lanes equal, one all-zero, one all-ones */
static void keccakxn_fill(struct rt_rng *rng, u64 (*ref)[25], int n, int k)
{
	rt_fill(rng, ref, (size_t)n * sizeof(ref[0]));
	if (k % 3 == 1)
		memcpy(ref[n - 1], ref[0], sizeof(ref[0]));
	if (k % 3 == 2) {
		memset(ref[1], 0, sizeof(ref[1]));
		memset(ref[n - 2], 0xff, sizeof(ref[0]));
	}
}

static int keccakx4_perm_check(void (*fn)(struct keccakx4_state *), const char *name,
			       struct rt_rng *rng)
{
	union x4_lanes s;
	u64 ref[4][25];
	int k, i, l;

	for (k = 0; k < 300; k++) {
		if (k % 30 == 0)
			keccakxn_fill(rng, ref, 4, k / 30);
		for (i = 0; i < 25; i++)
			for (l = 0; l < 4; l++)
				s.w[i][l] = ref[l][i];
		fn(&s.st);
		for (l = 0; l < 4; l++)
			keccak_f1600_rounds(ref[l]);
		for (i = 0; i < 25; i++)
			for (l = 0; l < 4; l++)
				if (s.w[i][l] != ref[l][i])
					ck_abort_msg("%s: permutation %d, state %d word %d differs", name,
						     k, l, i);
	}
	rt_report("four-way keccak-f1600 vs the portable rounds", name, k, 0);
	return k;
}

/*
 * keccakx4_absorb_once (one block: every length 0 .. rate-1) and 1..3
 * squeezed blocks against the scalar sponge, for SHAKE128 and SHAKE256;
 * the four inputs differ.
 */
static int keccakx4_sponge_check(struct rt_rng *rng)
{
	static const unsigned int rates[2] = { SHAKE128_RATE, SHAKE256_RATE };
	u8 in[4][SHAKE128_RATE], out[4][3 * SHAKE128_RATE], ref[3 * SHAKE128_RATE];
	const u8 *const inp[4] = { in[0], in[1], in[2], in[3] };
	u8 *const outp[4] = { out[0], out[1], out[2], out[3] };
	struct keccakx4_state st;
	struct keccak_state ks;
	int n = 0;

	for (int r = 0; r < 2; r++) {
		for (unsigned int len = 0; len < rates[r]; len++) {
			size_t nb = 1 + len % 3;

			rt_fill(rng, in, sizeof(in));
			keccakx4_absorb_once(&st, rates[r], KECCAK_DS_SHAKE, inp, len);
			keccakx4_squeeze_blocks(&st, rates[r], outp, nb);
			for (int l = 0; l < 4; l++) {
				rind_keccak_init(&ks, rates[r], KECCAK_DS_SHAKE);
				rind_keccak_absorb(&ks, in[l], len);
				rind_keccak_squeeze(&ks, ref, nb * rates[r]);
				if (memcmp(out[l], ref, nb * rates[r]))
					ck_abort_msg("keccakx4 sponge: rate %u, length %u, %zu blocks: "
						     "state %d differs", rates[r], len, nb, l);
			}
			n++;
		}
	}
	rt_report("four-way SHAKE128/256 vs the scalar sponge", "keccakx4 (keccak-avx2.c)", n, 0);
	return n;
}

START_TEST(test_keccakx4_x86)
{
	struct rt_rng rng;
	int ran;

	if (!rind_cpu_has(RIND_X86_AVX2)) {
		rt_report("four-way keccak-f1600 vs the portable rounds", "keccakx4 (no AVX2)", 0, 1);
		return;
	}
	rt_rng_seed(&rng, 0x6ecc4);
	ran = keccakx4_perm_check(keccakx4_f1600, "keccakx4_f1600 (keccakx4-avx2-asm.S)", &rng);
	ran += keccakx4_perm_check(keccakx4_f1600_c, "keccakx4_f1600_c (intrinsics)", &rng);
	ck_assert_int_eq(ran, 600);
	ck_assert_int_eq(keccakx4_sponge_check(&rng), SHAKE128_RATE + SHAKE256_RATE);
}
END_TEST

/*
 * keccakx8_f1600 on each of its eight states, chained, and
 * keccakx8_extract at every offset it allows against the words.
 */
START_TEST(test_keccakx8_permutation)
{
	union x8_lanes s;
	u64 ref[8][25], ex[8][8] __attribute__((aligned(64)));
	struct rt_rng rng;
	int k, i, l, j, f;

	if (!keccakx8_runs("eight-way keccak-f1600 vs the portable rounds"))
		return;
	rt_rng_seed(&rng, 0x6ecc8);
	for (k = 0; k < 200; k++) {
		if (k % 25 == 0)
			keccakxn_fill(&rng, ref, 8, k / 25);
		for (i = 0; i < 25; i++)
			for (l = 0; l < 8; l++)
				s.w[i][l] = ref[l][i];
		keccakx8_f1600(&s.st);
		for (l = 0; l < 8; l++)
			keccak_f1600_rounds(ref[l]);
		for (i = 0; i < 25; i++)
			for (l = 0; l < 8; l++)
				if (s.w[i][l] != ref[l][i])
					ck_abort_msg("keccakx8_f1600: permutation %d, state %d word %d "
						     "differs", k, l, i);
		f = k % 18;
		keccakx8_extract((__m512i *)ex, &s.st, (unsigned int)f);
		for (l = 0; l < 8; l++)
			for (j = 0; j < 8; j++)
				if (ex[l][j] != ref[l][f + j])
					ck_abort_msg("keccakx8_extract(%d): state %d word %d", f, l, f + j);
	}
	rt_report("eight-way keccak-f1600 vs the portable rounds", "keccakx8_f1600 (keccak-avx512.c)",
		  k, 0);
	ck_assert_int_eq(k, 200);
}
END_TEST

/*
 * keccakx8_absorb_once of every length 0 .. 3 rate (several blocks,
 * exact multiples of the rate among them) and 1..3 squeezed blocks
 * against the scalar sponge, for SHAKE128, SHAKE256, SHA3-256 and
 * SHA3-512's rates and domains; the eight inputs differ and sit in
 * exact-size heap buffers (ASan sees any read past them).
 */
START_TEST(test_keccakx8_sponge)
{
	static const struct { unsigned int rate; u8 ds; } v[] = {
		{ SHAKE128_RATE, KECCAK_DS_SHAKE }, { SHAKE256_RATE, KECCAK_DS_SHAKE },
		{ SHA3_256_RATE, KECCAK_DS_SHA3 }, { SHA3_512_RATE, KECCAK_DS_SHA3 },
	};
	struct keccakx8_state st;
	struct keccak_state ks;
	struct rt_rng rng;
	u8 ref[3 * SHAKE128_RATE];
	int n = 0, want = 0;

	if (!keccakx8_runs("eight-way sponge vs the scalar sponge"))
		return;
	rt_rng_seed(&rng, 0x6ecc8a);
	for (size_t t = 0; t < ARRAY_SIZE(v); t++) {
		const unsigned int rate = v[t].rate;

		want += 3 * rate + 1;
		for (unsigned int len = 0; len <= 3 * rate; len++) {
			size_t nb = 1 + (len + t) % 3;
			u8 *in[8], *out[8];

			for (int l = 0; l < 8; l++) {
				in[l] = malloc(len ? len : 1);
				out[l] = malloc(nb * rate);
				ck_assert(in[l] && out[l]);
				rt_fill(&rng, in[l], len);
			}
			keccakx8_absorb_once(&st, rate, v[t].ds, (const u8 *const *)in, len);
			keccakx8_squeeze_blocks(&st, rate, out, nb);
			for (int l = 0; l < 8; l++) {
				rind_keccak_init(&ks, rate, v[t].ds);
				rind_keccak_absorb(&ks, in[l], len);
				rind_keccak_squeeze(&ks, ref, nb * rate);
				if (memcmp(out[l], ref, nb * rate))
					ck_abort_msg("keccakx8 sponge: rate %u, ds %#x, length %u, %zu "
						     "blocks: state %d differs", rate, v[t].ds, len, nb, l);
				free(in[l]);
				free(out[l]);
			}
			n++;
		}
	}
	rt_report("eight-way sponge vs the scalar sponge", "keccakx8 (keccak-avx512.c)", n, 0);
	ck_assert_int_eq(n, want);
}
END_TEST
#endif

/*
 * Every implementation of each hash against its generic driver, seeded:
 * random lengths, the data at random offsets 0..15 from an aligned
 * allocation, in one call and in random-sized updates.
 */
START_TEST(test_diff_generic)
{
	u8 *buf = aligned_alloc(64, 8192), ref[64], got[64];
	int h, i, k, cases = 200;

	ck_assert_ptr_nonnull(buf);
	for (h = 0; h < NHASH; h++) {
		char gen[16];
		drivers_t drv;
		int n = rt_impls(hash_names[h], "shash", drv, RT_MAX_IMPLS);
		struct crypto_shash *rt;

		snprintf(gen, sizeof(gen), "%s-generic", hash_names[h]);
		rt = alloc_drv(gen);
		for (i = 0; i < n; i++) {
			struct crypto_shash *tfm;
			struct rt_rng rng;

			if (!strcmp(drv[i], gen))
				continue;
			tfm = alloc_drv(drv[i]);
			rt_rng_seed(&rng, 0x5a11 + (u64)h);
			for (k = 0; k < cases; k++) {
				size_t len = rt_rand_range(&rng, k < cases / 2 ? 300 : 8000);
				size_t off = rt_rand_range(&rng, 16);
				size_t chunk = 1 + rt_rand_range(&rng, 200);

				rt_fill(&rng, buf + off, len);
				OK(gen, crypto_shash_tfm_digest(rt, buf + off, (unsigned int)len, ref));
				OK(drv[i], crypto_shash_tfm_digest(tfm, buf + off, (unsigned int)len,
								   got));
				if (memcmp(got, ref, digest_sizes[h]))
					ck_abort_msg("%s: case %d (%zu bytes at offset %zu) differs from %s",
						     drv[i], k, len, off, gen);
				OK(drv[i], desc_digest(tfm, buf + off, len, chunk, got));
				if (memcmp(got, ref, digest_sizes[h]))
					ck_abort_msg("%s: case %d (%zu bytes at offset %zu, updates of %zu) "
						     "differs from %s", drv[i], k, len, off, chunk, gen);
			}
			{
				char what[64];

				snprintf(what, sizeof(what), "%s vs %s, random offsets", hash_names[h],
					 gen);
				rt_report(what, drv[i], cases, 0);
			}
			crypto_free_shash(tfm);
		}
		crypto_free_shash(rt);
	}
	free(buf);
}
END_TEST

/* ---------------------------------------------------------------- HMAC */

static void run_hmac_vecs(const char *what, const struct hmac_vec *vecs, size_t nvecs)
{
	for (int h = 0; h < NHASH; h++) {
		drivers_t drv;
		int n = 0;

		for (size_t v = 0; v < nvecs; v++)
			if (!strcmp(vecs[v].hash, hash_names[h]))
				n = 1;
		if (!n)
			continue;
		n = rt_impls(hmac_names[h], "shash", drv, RT_MAX_IMPLS);
		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);
			unsigned int ds = crypto_shash_digestsize(tfm);
			int cases = 0;

			ck_assert_str_eq(crypto_shash_alg_name(tfm), hmac_names[h]);
			for (size_t v = 0; v < nvecs; v++) {
				size_t klen, dlen, mlen;
				u8 *key, *data, *mac;
				u8 out[HASH_MAX_DIGESTSIZE];
				unsigned int cmp;

				if (strcmp(vecs[v].hash, hash_names[h]))
					continue;
				key = rt_unhex_alloc(vecs[v].key, &klen);
				data = rt_unhex_alloc(vecs[v].data, &dlen);
				mac = rt_unhex_alloc(vecs[v].mac, &mlen);
				cmp = vecs[v].trunc ? vecs[v].trunc : ds;
				ck_assert_uint_eq(mlen, cmp);
				OK(drv[i], crypto_shash_setkey(tfm, key, (unsigned int)klen));
				OK(drv[i], crypto_shash_tfm_digest(tfm, data, (unsigned int)dlen, out));
				if (memcmp(out, mac, cmp))
					ck_abort_msg("%s: %s case %zu: got %s", drv[i], what, v,
						     rt_hex(out, cmp));
				OK(drv[i], desc_digest(tfm, data, dlen, 7, out));
				if (memcmp(out, mac, cmp))
					ck_abort_msg("%s: %s case %zu (update in pieces): got %s",
						     drv[i], what, v, rt_hex(out, cmp));
				free(key);
				free(data);
				free(mac);
				cases++;
			}
			rt_report(what, drv[i], cases, 0);
			crypto_free_shash(tfm);
		}
	}
}

START_TEST(test_hmac_rfc)
{
	run_hmac_vecs("RFC 2202", rfc2202_vecs, ARRAY_SIZE(rfc2202_vecs));
	run_hmac_vecs("RFC 4231", rfc4231_vecs, ARRAY_SIZE(rfc4231_vecs));
}
END_TEST

START_TEST(test_hmac_vs_openssl)
{
	u8 key[201], data[700];

	for (int h = 0; h < NHASH; h++) {
		drivers_t drv;
		int n = rt_impls(hmac_names[h], "shash", drv, RT_MAX_IMPLS);

		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);
			unsigned int ds = crypto_shash_digestsize(tfm);
			u8 want[HASH_MAX_DIGESTSIZE], out[HASH_MAX_DIGESTSIZE];
			u8 state[HASH_MAX_STATESIZE];
			SHASH_DESC_ON_STACK(d1, tfm);
			SHASH_DESC_ON_STACK(d2, tfm);
			struct rt_rng rng;
			int cases = 0;

			ck_assert_uint_eq(ds, digest_sizes[h]);
			ck_assert_uint_eq(crypto_shash_blocksize(tfm), block_sizes[h]);
			ck_assert_uint_le(crypto_shash_descsize(tfm), HASH_MAX_DESCSIZE);
			ck_assert_uint_le(crypto_shash_statesize(tfm), HASH_MAX_STATESIZE);
			rt_rng_seed(&rng, 0x4d4ac + (u64)h);
			for (size_t klen = 0; klen <= 200; klen++) {
				size_t len = rt_rand_range(&rng, sizeof(data) + 1);
				size_t cut = rt_rand_range(&rng, (u32)len + 1);

				rt_fill(&rng, key, klen);
				rt_fill(&rng, data, len);
				ossl_hmac(h, key, klen, data, len, want);
				OK(drv[i], crypto_shash_setkey(tfm, key, (unsigned int)klen));
				OK(drv[i], crypto_shash_tfm_digest(tfm, data, (unsigned int)len, out));
				if (memcmp(out, want, ds))
					ck_abort_msg("%s: key %zu bytes, data %zu: got %s", drv[i], klen,
						     len, rt_hex(out, ds));
				/* Split, with the state moved to another descriptor. */
				d1->tfm = tfm;
				d2->tfm = tfm;
				OK(drv[i], crypto_shash_init(d1));
				OK(drv[i], crypto_shash_update(d1, data, (unsigned int)cut));
				OK(drv[i], crypto_shash_export(d1, state));
				OK(drv[i], crypto_shash_import(d2, state));
				OK(drv[i], crypto_shash_update(d2, data + cut,
								     (unsigned int)(len - cut)));
				OK(drv[i], crypto_shash_final(d2, out));
				if (memcmp(out, want, ds))
					ck_abort_msg("%s: key %zu, data %zu split at %zu (export/import): "
						     "got %s", drv[i], klen, len, cut, rt_hex(out, ds));
				OK(drv[i], crypto_shash_finup(d1, data + cut,
								    (unsigned int)(len - cut), out));
				if (memcmp(out, want, ds))
					ck_abort_msg("%s: key %zu, data %zu split at %zu: got %s",
						     drv[i], klen, len, cut, rt_hex(out, ds));
				cases++;
			}
			shash_desc_zero(d1);
			shash_desc_zero(d2);
			rt_report("HMAC OpenSSL differential", drv[i], cases, 0);
			crypto_free_shash(tfm);
		}
	}
}
END_TEST

/*
 * Every length 0..256 (every padding case of both block sizes, each block
 * boundary and its neighbours), each message in a heap buffer of exactly
 * its size (so that under ASan any read past the message or before it
 * fails), through digest, through init+finup, and split in two updates of
 * their own exact buffers at the block boundary, one byte in and halfway
 * (the drivers finish the tail in registers and read it in 16-byte pieces
 * ending at the message's end), against OpenSSL; the same for each HMAC
 * driver with a 32-byte key.
 */
static u8 *exact_copy(const u8 *src, size_t n)
{
	u8 *p = malloc(n ? n : 1);

	ck_assert_ptr_nonnull(p);
	if (n)
		memcpy(p, src, n);
	return p;
}

static void exact_lengths(const char *drv, struct crypto_shash *tfm, int h, const u8 *src,
			  size_t maxlen, const u8 *key, int *cases)
{
	unsigned int ds = digest_sizes[h], bs = block_sizes[h];
	SHASH_DESC_ON_STACK(desc, tfm);

	desc->tfm = tfm;
	for (size_t len = 0; len <= maxlen; len++) {
		const size_t cuts[4] = { bs < len ? bs : len, len ? 1 : 0, len / 2,
					 len > bs ? len - bs : 0 };
		u8 want[HASH_MAX_DIGESTSIZE], out[HASH_MAX_DIGESTSIZE];
		u8 *m = exact_copy(src, len);

		if (key)
			ossl_hmac(h, key, 32, m, len, want);
		else
			ossl_digest(h, m, len, want);
		OK(drv, crypto_shash_digest(desc, m, (unsigned int)len, out));
		check_digest(drv, "digest (exact buffer)", len, out, want, ds);
		OK(drv, crypto_shash_init(desc));
		OK(drv, crypto_shash_finup(desc, m, (unsigned int)len, out));
		check_digest(drv, "init+finup (exact buffer)", len, out, want, ds);
		*cases += 2;
		for (int k = 0; k < 4; k++) {
			u8 *a = exact_copy(m, cuts[k]), *b = exact_copy(m + cuts[k], len - cuts[k]);

			OK(drv, crypto_shash_init(desc));
			OK(drv, crypto_shash_update(desc, a, (unsigned int)cuts[k]));
			OK(drv, crypto_shash_finup(desc, b, (unsigned int)(len - cuts[k]), out));
			if (memcmp(out, want, ds))
				ck_abort_msg("%s: %zu bytes split at %zu (exact buffers): got %s", drv,
					     len, cuts[k], rt_hex(out, ds));
			free(a);
			free(b);
			(*cases)++;
		}
		free(m);
	}
	shash_desc_zero(desc);
}

START_TEST(test_exact_buffers)
{
	u8 src[257], key[32];
	struct rt_rng rng;

	rt_rng_seed(&rng, 0xe8ac7);
	rt_fill(&rng, src, sizeof(src));
	rt_fill(&rng, key, sizeof(key));
	for (int h = 0; h < NHASH; h++) {
		for (int mac = 0; mac < 2; mac++) {
			drivers_t drv;
			int n = rt_impls(mac ? hmac_names[h] : hash_names[h], "shash", drv,
					 RT_MAX_IMPLS);

			ck_assert_int_gt(n, 0);
			for (int i = 0; i < n; i++) {
				struct crypto_shash *tfm = alloc_drv(drv[i]);
				int cases = 0;

				if (mac)
					OK(drv[i], crypto_shash_setkey(tfm, key, sizeof(key)));
				exact_lengths(drv[i], tfm, h, src, 256, mac ? key : NULL, &cases);
				rt_report("every length, exact buffers", drv[i], cases, 0);
				crypto_free_shash(tfm);
			}
		}
	}
}
END_TEST

/*
 * Byte counts past 2^29 (the bit count's low 32 bits carry), 2^32 and 2^61
 * (the 64-bit bit count wraps; SHA-384/512's 128-bit one carries into its
 * high word), and SHA-384/512's byte count carrying into its high word:
 * too long to hash, so the state after one block is exported, its count
 * set just below the boundary and imported again, and the message is
 * continued across the boundary in updates of several sizes and finished;
 * OpenSSL's low-level SHA256_CTX / SHA512_CTX is given the same chaining
 * value and bit count and the same bytes.  Each SHA-2 driver.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static void ossl_sha2_from(int h, const void *chain, u64 count_lo, u64 count_hi,
			   const u8 *a, size_t alen, const u8 *b, size_t blen, u8 *out)
{
	if (h == 1 || h == 2) {
		SHA256_CTX c;
		u64 bits = count_lo << 3;

		if (h == 1)
			SHA224_Init(&c);
		else
			SHA256_Init(&c);
		memcpy(c.h, chain, 32);
		c.Nl = (unsigned int)bits;
		c.Nh = (unsigned int)(bits >> 32);
		c.num = 0;
		SHA256_Update(&c, a, alen);
		SHA256_Update(&c, b, blen);
		if (h == 1)
			SHA224_Final(out, &c);
		else
			SHA256_Final(out, &c);
	} else {
		SHA512_CTX c;

		if (h == 3)
			SHA384_Init(&c);
		else
			SHA512_Init(&c);
		memcpy(c.h, chain, 64);
		c.Nl = count_lo << 3;
		c.Nh = count_hi << 3 | count_lo >> 61;
		c.num = 0;
		SHA512_Update(&c, a, alen);
		SHA512_Update(&c, b, blen);
		if (h == 3)
			SHA384_Final(out, &c);
		else
			SHA512_Final(out, &c);
	}
}
#pragma GCC diagnostic pop

/*
 * @desc's state after one block @blk, its byte count set to @lo (and, for
 * SHA-384/512, the high word to @hi), then @x and @y bytes more of @data:
 * against OpenSSL carrying on from the same chaining value and count.
 */
static void long_count_case(const char *drv, struct shash_desc *desc, int h, const u8 *blk,
			    u64 lo, u64 hi, const u8 *data, size_t x, size_t y, const char *what)
{
	unsigned int bs = block_sizes[h], ds = digest_sizes[h];
	u8 want[HASH_MAX_DIGESTSIZE], out[HASH_MAX_DIGESTSIZE];
	union {
		struct sha256_state s256;
		struct sha512_state s512;
		u8 raw[HASH_MAX_STATESIZE];
	} st;
	const void *chain;

	OK(drv, crypto_shash_init(desc));
	OK(drv, crypto_shash_update(desc, blk, bs));
	OK(drv, crypto_shash_export(desc, st.raw));
	if (bs == 64) {
		st.s256.count = lo;
		chain = st.s256.state;
	} else {
		st.s512.count[0] = lo;
		st.s512.count[1] = hi;
		chain = st.s512.state;
	}
	ossl_sha2_from(h, chain, lo, hi, data, x, data + x, y, want);
	OK(drv, crypto_shash_import(desc, st.raw));
	OK(drv, crypto_shash_update(desc, data, (unsigned int)x));
	OK(drv, crypto_shash_finup(desc, data + x, (unsigned int)y, out));
	if (memcmp(out, want, ds))
		ck_abort_msg("%s: count %#llx%s + %zu + %zu: got %s", drv, (unsigned long long)lo,
			     what, x, y, rt_hex(out, ds));
}

START_TEST(test_long_counts)
{
	static const u64 bounds[] = { 1ull << 29, 1ull << 32, 1ull << 61, 0 /* 2^64 */ };
	static const size_t parts[][2] = {
		{ 0, 0 }, { 0, 1 }, { 1, 0 }, { 63, 1 }, { 64, 0 }, { 0, 55 }, { 0, 56 },
		{ 100, 11 }, { 128, 0 }, { 0, 111 }, { 0, 112 }, { 3, 200 }, { 255, 1 },
	};
	u8 data[256], blk[128];
	struct rt_rng rng;

	rt_rng_seed(&rng, 0x2e32);
	rt_fill(&rng, data, sizeof(data));
	rt_fill(&rng, blk, sizeof(blk));
	for (int h = 1; h < NHASH; h++) {
		drivers_t drv;
		int n = rt_impls(hash_names[h], "shash", drv, RT_MAX_IMPLS);
		unsigned int bs = block_sizes[h];

		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);
			SHASH_DESC_ON_STACK(desc, tfm);
			int cases = 0;

			desc->tfm = tfm;
			/* SHA-256's count is 64 bits: no 2^64 for it (it would be 0). */
			for (size_t b = 0; b < ARRAY_SIZE(bounds) - (bs == 64); b++) {
				for (u64 back = bs; back <= 4 * (u64)bs; back += bs) {
					u64 lo = bounds[b] - back;
					u64 hi = 0;

					for (size_t k = 0; k < ARRAY_SIZE(parts); k++) {
						size_t x = parts[k][0], y = parts[k][1];

						ck_assert_uint_eq(crypto_shash_statesize(tfm),
								  bs == 64 ? sizeof(struct sha256_state) :
									     sizeof(struct sha512_state));
						long_count_case(drv[i], desc, h, blk, lo, hi, data, x, y, "");
						cases++;
						if (bs == 128 && !bounds[b]) {
							/* And with the high word already set. */
							long_count_case(drv[i], desc, h, blk, lo,
									0x0123456789abcdefull, data, x, y,
									" (high word set)");
							cases++;
						}
					}
				}
			}
			shash_desc_zero(desc);
			rt_report("long byte counts vs OpenSSL", drv[i], cases, 0);
			crypto_free_shash(tfm);
		}
	}
}
END_TEST

/*
 * setkey rebuilds the padded-key states from scratch: keys of every length
 * class (longer than a block and hashed, exactly a block, a block minus
 * one, the digest size, one byte, empty) in an order that makes a short key
 * follow a long one on the same tfm, each checked against OpenSSL through
 * digest, finup and init/update/final on one descriptor reused across keys.
 * Also: one keyed tfm used from a descriptor that was last used with the
 * previous key gives the new key's MAC.
 */
START_TEST(test_hmac_rekey)
{
	u8 key[3 * 128 + 1], data[300];

	for (int h = 0; h < NHASH; h++) {
		drivers_t drv;
		int n = rt_impls(hmac_names[h], "shash", drv, RT_MAX_IMPLS);
		unsigned int bs = block_sizes[h], ds = digest_sizes[h];
		const unsigned int klens[] = {
			3 * bs + 1, 1, bs, 0, bs + 1, bs - 1, ds, 2 * bs, 7, bs, ds + 1, 0,
		};

		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);
			u8 want[HASH_MAX_DIGESTSIZE], out[HASH_MAX_DIGESTSIZE];
			SHASH_DESC_ON_STACK(d, tfm);
			struct rt_rng rng;
			int cases = 0;

			rt_rng_seed(&rng, 0x72656b6579ull + (u64)h);
			d->tfm = tfm;
			for (size_t k = 0; k < ARRAY_SIZE(klens); k++) {
				size_t len = rt_rand_range(&rng, sizeof(data) + 1);

				/* Same fill each time: only the length tells keys apart. */
				memset(key, 0xa5 ^ (int)k, sizeof(key));
				rt_fill(&rng, data, len);
				ossl_hmac(h, key, klens[k], data, len, want);
				OK(drv[i], crypto_shash_setkey(tfm, key, klens[k]));
				OK(drv[i], crypto_shash_digest(d, data, (unsigned int)len, out));
				if (memcmp(out, want, ds))
					ck_abort_msg("%s: key %u after key %u: digest %s", drv[i], klens[k],
						     k ? klens[k - 1] : 0, rt_hex(out, ds));
				OK(drv[i], crypto_shash_init(d));
				OK(drv[i], crypto_shash_finup(d, data, (unsigned int)len, out));
				if (memcmp(out, want, ds))
					ck_abort_msg("%s: key %u: init+finup %s", drv[i], klens[k],
						     rt_hex(out, ds));
				OK(drv[i], crypto_shash_init(d));
				OK(drv[i], crypto_shash_update(d, data, (unsigned int)len / 2));
				OK(drv[i], crypto_shash_update(d, data + len / 2,
							       (unsigned int)(len - len / 2)));
				OK(drv[i], crypto_shash_final(d, out));
				if (memcmp(out, want, ds))
					ck_abort_msg("%s: key %u: init+update+final %s", drv[i], klens[k],
						     rt_hex(out, ds));
				cases++;
			}
			shash_desc_zero(d);
			rt_report("HMAC re-keying one tfm", drv[i], cases, 0);
			crypto_free_shash(tfm);
		}
	}
}
END_TEST

START_TEST(test_hmac_wycheproof)
{
	for (int h = 0; h < NHASH; h++) {
		char file[64];
		drivers_t drv;
		json_t *root, *groups, *g;
		size_t gi;
		int n;

		snprintf(file, sizeof(file), "hmac_%s_test.json", hash_names[h]);
		root = rt_wp_load(file);
		if (!root)
			continue;
		groups = json_object_get(root, "testGroups");
		n = rt_impls(hmac_names[h], "shash", drv, RT_MAX_IMPLS);
		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);
			unsigned int ds = crypto_shash_digestsize(tfm);
			int ran = 0, valid = 0, invalid = 0;

			json_array_foreach(groups, gi, g) {
				json_int_t tagbits = json_integer_value(json_object_get(g, "tagSize"));
				json_t *tests = json_object_get(g, "tests"), *t;
				size_t ti;

				ck_assert_msg(tagbits > 0 && tagbits % 8 == 0 && tagbits / 8 <= ds,
					      "%s: odd tagSize %lld", file, (long long)tagbits);
				json_array_foreach(tests, ti, t) {
					int id = (int)json_integer_value(json_object_get(t, "tcId"));
					int result = rt_wp_result(t);
					size_t klen, mlen, taglen;
					u8 *key = rt_wp_hex(t, "key", &klen);
					u8 *msg = rt_wp_hex(t, "msg", &mlen);
					u8 *tag = rt_wp_hex(t, "tag", &taglen);
					u8 out[HASH_MAX_DIGESTSIZE];
					bool match;

					OK(drv[i], crypto_shash_setkey(tfm, key, (unsigned int)klen));
					OK(drv[i], crypto_shash_tfm_digest(tfm, msg, (unsigned int)mlen,
										 out));
					/* The tag is the leading tagSize bits of the MAC. */
					match = taglen == (size_t)(tagbits / 8) &&
						!crypto_memneq(out, tag, taglen);
					if (result == 1 && !match)
						ck_abort_msg("%s: %s tcId %d: valid tag rejected",
							     drv[i], file, id);
					if (result == 0 && match)
						ck_abort_msg("%s: %s tcId %d: invalid tag accepted",
							     drv[i], file, id);
					valid += result == 1;
					invalid += result == 0;
					ran++;
					free(key);
					free(msg);
					free(tag);
				}
			}
			ck_assert_int_gt(valid, 0);
			ck_assert_int_gt(invalid, 0);
			rt_report(file, drv[i], ran, 0);
			crypto_free_shash(tfm);
		}
		json_decref(root);
	}
}
END_TEST

/* ----------------------------------------------------------- one-shots */

typedef void (*oneshot_fn)(const u8 *data, size_t len, u8 *out);

static void sha1_os(const u8 *d, size_t l, u8 *o) { rind_sha1(d, l, o); }
static void sha224_os(const u8 *d, size_t l, u8 *o) { rind_sha224(d, l, o); }
static void sha256_os(const u8 *d, size_t l, u8 *o) { rind_sha256(d, l, o); }
static void sha384_os(const u8 *d, size_t l, u8 *o) { rind_sha384(d, l, o); }
static void sha512_os(const u8 *d, size_t l, u8 *o) { rind_sha512(d, l, o); }

static const oneshot_fn oneshots[NHASH] = { sha1_os, sha224_os, sha256_os, sha384_os, sha512_os };

START_TEST(test_oneshots)
{
	static const size_t lens[] = { 0, 1, 3, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129,
				       1000, 100000 };
	static const size_t klens[] = { 0, 1, 16, 20, 32, 63, 64, 65, 127, 128, 129, 200 };
	u8 *buf = malloc(100000);
	u8 key[200];
	struct rt_rng rng;
	int cases = 0;

	ck_assert_ptr_nonnull(buf);
	rt_rng_seed(&rng, 0x0e5);
	rt_fill(&rng, buf, 100000);
	rt_fill(&rng, key, sizeof(key));
	for (int h = 0; h < NHASH; h++) {
		struct crypto_shash *tfm = crypto_alloc_shash(hash_names[h], 0, 0);
		struct crypto_shash *mac = crypto_alloc_shash(hmac_names[h], 0, 0);
		char gdrv[CRYPTO_MAX_ALG_NAME];
		u8 a[HASH_MAX_DIGESTSIZE], b[HASH_MAX_DIGESTSIZE], c[HASH_MAX_DIGESTSIZE];
		unsigned int ds = digest_sizes[h];

		ck_assert(!IS_ERR(tfm));
		ck_assert(!IS_ERR(mac));
		snprintf(gdrv, sizeof(gdrv), "%s-generic", hash_names[h]);
		for (size_t j = 0; j < ARRAY_SIZE(lens); j++) {
			memset(a, 0, sizeof(a));
			oneshots[h](buf, lens[j], a);
			OK(hash_names[h], crypto_shash_tfm_digest(tfm, buf, (unsigned int)lens[j], b));
			ossl_digest(h, buf, lens[j], c);
			check_digest("one-shot", hash_names[h], lens[j], a, b, ds);
			check_digest("one-shot", hash_names[h], lens[j], a, c, ds);
			cases++;
		}
		for (size_t k = 0; k < ARRAY_SIZE(klens); k++) {
			for (size_t j = 0; j < ARRAY_SIZE(lens); j += 3) {
				memset(a, 0, sizeof(a));
				OK(hash_names[h], rind_hmac(hash_names[h], key, klens[k], buf, lens[j], a));
				OK(hash_names[h], crypto_shash_setkey(mac, key, (unsigned int)klens[k]));
				OK(hash_names[h], crypto_shash_tfm_digest(mac, buf, (unsigned int)lens[j], b));
				ossl_hmac(h, key, klens[k], buf, lens[j], c);
				check_digest("rind_hmac", hash_names[h], lens[j], a, b, ds);
				check_digest("rind_hmac", hash_names[h], lens[j], a, c, ds);
				/* A driver name takes the hmac(<driver>) tfm path. */
				memset(a, 0, sizeof(a));
				OK(gdrv, rind_hmac(gdrv, key, klens[k], buf, lens[j], a));
				check_digest("rind_hmac", gdrv, lens[j], a, c, ds);
				cases += 2;
			}
		}
		crypto_free_shash(mac);
		crypto_free_shash(tfm);
	}
	/* NULL with length 0 is an empty message. */
	{
		u8 a[32], c[32];

		rind_sha256(NULL, 0, a);
		ossl_digest(2, (const u8 *)"", 0, c);
		check_digest("one-shot", "sha256(NULL, 0)", 0, a, c, 32);
		OK("sha256", rind_hmac("sha256", NULL, 0, NULL, 0, a));
		ossl_hmac(2, NULL, 0, NULL, 0, c);
		check_digest("rind_hmac", "sha256(NULL key, NULL data)", 0, a, c, 32);
		cases += 2;
	}
	rt_report("one-shots vs tfm and OpenSSL", "best", cases, 0);
	free(buf);
}
END_TEST

/* True if the @n bytes at @p are all zero. */
static bool all_zero(const void *p, size_t n)
{
	const u8 *b = p;
	u8 acc = 0;

	for (size_t i = 0; i < n; i++)
		acc |= b[i];
	return !acc;
}

/*
 * The one-shot path (each driver's digest, which pads the tail in a local
 * block instead of buffering) against streaming and OpenSSL at every length
 * from 0 to 300 (zero to four SHA-256 blocks, across every padding case of
 * both block sizes), aligned and not, with a descriptor full of stale bytes
 * first; the context must be all zero after each finish.
 */
START_TEST(test_oneshot_every_length)
{
	u8 buf[304];
	struct rt_rng rng;

	rt_rng_seed(&rng, 0x05e7);
	rt_fill(&rng, buf, sizeof(buf));
	for (int h = 0; h < NHASH; h++) {
		drivers_t drv;
		int n = rt_impls(hash_names[h], "shash", drv, RT_MAX_IMPLS);
		unsigned int ds = digest_sizes[h];

		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);
			unsigned int dsz = crypto_shash_descsize(tfm);
			SHASH_DESC_ON_STACK(desc, tfm);
			int cases = 0;

			desc->tfm = tfm;
			for (size_t off = 0; off < 4; off += 3) {
				for (size_t len = 0; len <= 300; len++) {
					const u8 *m = buf + off;
					u8 a[HASH_MAX_DIGESTSIZE], b[HASH_MAX_DIGESTSIZE];
					u8 c[HASH_MAX_DIGESTSIZE];

					ossl_digest(h, m, len, c);
					memset(shash_desc_ctx(desc), 0xa5, dsz);
					OK(drv[i], crypto_shash_digest(desc, m, (unsigned int)len, a));
					check_digest(drv[i], "digest", len, a, c, ds);
					if (!all_zero(shash_desc_ctx(desc), dsz))
						ck_abort_msg("%s: digest of %zu bytes left state", drv[i], len);
					OK(drv[i], desc_digest(tfm, m, len, 1 + len % 67, b));
					check_digest(drv[i], "streaming", len, b, c, ds);
					OK(drv[i], crypto_shash_init(desc));
					OK(drv[i], crypto_shash_finup(desc, m, (unsigned int)len, b));
					check_digest(drv[i], "init+finup", len, b, c, ds);
					if (!all_zero(shash_desc_ctx(desc), dsz))
						ck_abort_msg("%s: finup of %zu bytes left state", drv[i], len);
					OK(drv[i], crypto_shash_tfm_digest(tfm, m, (unsigned int)len, b));
					check_digest(drv[i], "tfm_digest", len, b, c, ds);
					cases += 4;
				}
			}
			rt_report("one-shot every length", drv[i], cases, 0);
			crypto_free_shash(tfm);
		}
		/* The library one-shot over the best driver. */
		for (size_t off = 0; off < 4; off += 3) {
			for (size_t len = 0; len <= 300; len++) {
				u8 a[HASH_MAX_DIGESTSIZE], c[HASH_MAX_DIGESTSIZE];

				ossl_digest(h, buf + off, len, c);
				oneshots[h](buf + off, len, a);
				check_digest("rind one-shot", hash_names[h], len, a, c, ds);
			}
		}
		rt_report("rind_sha* every length", hash_names[h], 2 * 301, 0);
	}
}
END_TEST

/*
 * rind_hmac() at every key length from 0 to 200 (both sides of each block
 * size, keys hashed down included) against OpenSSL, and its name decoding:
 * a name in a buffer of its own works like the literal, near misses are
 * not taken for a neighbour.
 */
START_TEST(test_hmac_oneshot_keylens)
{
	static const size_t mlens[] = { 0, 1, 55, 64, 111, 128, 200 };
	static const char *const near[] = {
		"sha", "sha2", "sha25", "sha2560", "sha256 ", "sha11", "sha3", "sha38",
		"sha5", "sha51", "sha5120", "shb256", "SHA256", "",
	};
	u8 key[200], msg[200];
	struct rt_rng rng;
	int cases = 0;

	rt_rng_seed(&rng, 0x4ac0);
	rt_fill(&rng, key, sizeof(key));
	rt_fill(&rng, msg, sizeof(msg));
	for (int h = 0; h < NHASH; h++) {
		char name[16];

		snprintf(name, sizeof(name), "%s", hash_names[h]);
		for (size_t kl = 0; kl <= 200; kl++) {
			size_t ml = mlens[kl % ARRAY_SIZE(mlens)];
			u8 a[HASH_MAX_DIGESTSIZE], c[HASH_MAX_DIGESTSIZE];

			memset(a, 0, sizeof(a));
			OK(name, rind_hmac(name, key, kl, msg, ml, a));
			ossl_hmac(h, key, kl, msg, ml, c);
			check_digest("rind_hmac key length", name, kl, a, c, digest_sizes[h]);
			cases++;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(near); i++) {
		u8 a[HASH_MAX_DIGESTSIZE];

		if (!rind_hmac(near[i], key, 32, msg, 32, a))
			ck_abort_msg("rind_hmac(\"%s\") succeeded", near[i]);
		cases++;
	}
	rt_report("rind_hmac every key length", "best", cases, 0);
}
END_TEST

struct os_thread {
	pthread_t th;
	int seed;
	int errors;
};

static void *os_worker(void *arg)
{
	struct os_thread *t = arg;
	u8 data[300], key[150], a[64], c[64];
	struct rt_rng rng;
	unsigned int olen;

	rt_rng_seed(&rng, 0x7a + (u64)t->seed);
	for (int k = 0; k < 300; k++) {
		int h = (k + t->seed) % NHASH;
		size_t len = rt_rand_range(&rng, sizeof(data) + 1);
		size_t klen = rt_rand_range(&rng, sizeof(key) + 1);
		const EVP_MD *md = EVP_get_digestbyname(hash_names[h]);

		rt_fill(&rng, data, len);
		rt_fill(&rng, key, klen);
		oneshots[h](data, len, a);
		if (!md || !EVP_Digest(data, len, c, &olen, md, NULL) || memcmp(a, c, digest_sizes[h]))
			t->errors++;
		if (rind_hmac(hash_names[h], key, klen, data, len, a) ||
		    !HMAC(md, key, (int)klen, data, len, c, &olen) || memcmp(a, c, digest_sizes[h]))
			t->errors++;
	}
	return NULL;
}

/* First use from several threads at once (Check forks per test, so it is the first). */
START_TEST(test_oneshots_threads)
{
	struct os_thread t[4];

	for (int i = 0; i < 4; i++) {
		t[i].seed = i;
		t[i].errors = 0;
		ck_assert_int_eq(pthread_create(&t[i].th, NULL, os_worker, &t[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(pthread_join(t[i].th, NULL), 0);
		ck_assert_msg(t[i].errors == 0, "thread %d: %d wrong results", i, t[i].errors);
	}
	rt_report("one-shots from 4 threads", "best", 4 * 300 * 2, 0);
}
END_TEST

/* ---------------------------------------------------- SHA-3 and SHAKE */

/*
 * SHA3-224/256/384/512 and SHAKE128/256 (algs/sha3.c) over every
 * registered driver of each name: the SHAKEs as hashes of 32 and 64
 * bytes, and through rind_shash_final_xof() at any output length.
 */
#define NSHA3 6
static const char *const sha3_names[NSHA3] = {
	"sha3-224", "sha3-256", "sha3-384", "sha3-512", "shake128", "shake256",
};
static const char *const sha3_ossl[NSHA3] = {
	"SHA3-224", "SHA3-256", "SHA3-384", "SHA3-512", "SHAKE128", "SHAKE256",
};
static const unsigned int sha3_sizes[NSHA3] = { 28, 32, 48, 64, 32, 64 };
static const unsigned int sha3_rates[NSHA3] = { 144, 136, 104, 72, 168, 136 };
#define SHA3_IS_XOF(k) ((k) >= 4)
#define SHA3_MAXRATE 168

/* OpenSSL's output of @outlen bytes (the digest size for the SHA3s). */
static void ossl_sha3(int k, const u8 *data, size_t len, u8 *out, size_t outlen)
{
	const EVP_MD *md = EVP_get_digestbyname(sha3_ossl[k]);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned int olen = 0;
	int ok;

	if (!md || !ctx)
		ck_abort_msg("OpenSSL has no %s", sha3_ossl[k]);
	ok = EVP_DigestInit_ex(ctx, md, NULL) == 1 && EVP_DigestUpdate(ctx, data, len) == 1;
	if (SHA3_IS_XOF(k))
		ok = ok && EVP_DigestFinalXOF(ctx, out, outlen) == 1;
	else
		ok = ok && EVP_DigestFinal_ex(ctx, out, &olen) == 1 && olen == outlen;
	if (!ok)
		ck_abort_msg("OpenSSL %s failed", sha3_ossl[k]);
	EVP_MD_CTX_free(ctx);
}

/* init / update in pieces of at most @chunk / rind_shash_final_xof(). */
static int xof_digest(struct crypto_shash *tfm, const u8 *data, size_t len, size_t chunk,
		      u8 *out, size_t outlen)
{
	return digest_pieces(tfm, data, len, &chunk, 1, true, out, outlen);
}

/*
 * The NIST examples for FIPS 202 (CSRC "Examples with intermediate
 * values"): the empty message, "abc", 1600 bits of 0xa3, the 448- and
 * 896-bit messages of FIPS 180-4's examples, one million 'a'; SHAKE at
 * the registered sizes, plus the last 32 bytes of the 4096-bit outputs
 * for the first three messages.
 */
static const struct sha3_kat {
	const char *name;
	const char *digest[6];
	const char *tail4096[3];
} sha3_kats[NSHA3] = {
	{ "sha3-224", {
		"6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7",
		"e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf",
		"9376816aba503f72f96ce7eb65ac095deee3be4bf9bbc2a1cb7e11e0",
		"8a24108b154ada21c9fd5574494479ba5c7e7ab76ef264ead0fcce33",
		"543e6868e1666c1a643630df77367ae5a62a85070a51c14cbf665cbc",
		"d69335b93325192e516a912e6d19a15cb51c6ed5c15243e7a7fd653c",
	}, { NULL } },
	{ "sha3-256", {
		"a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
		"3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
		"79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787",
		"41c0dba2a9d6240849100376a8235e2c82e1b9998a999e21db32dd97496d3376",
		"916f6061fe879741ca6469b43971dfdb28b1a32dc36cb3254e812be27aad1d18",
		"5c8875ae474a3634ba4fd55ec85bffd661f32aca75c6d699d0cdcb6c115891c1",
	}, { NULL } },
	{ "sha3-384", {
		"0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2a"
		"c3713831264adb47fb6bd1e058d5f004",
		"ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b2"
		"98d88cea927ac7f539f1edf228376d25",
		"1881de2ca7e41ef95dc4732b8f5f002b189cc1e42b74168ed1732649ce1dbcdd"
		"76197a31fd55ee989f2d7050dd473e8f",
		"991c665755eb3a4b6bbdfb75c78a492e8c56a22c5c4d7e429bfdbc32b9d4ad5a"
		"a04a1f076e62fea19eef51acd0657c22",
		"79407d3b5916b59c3e30b09822974791c313fb9ecc849e406f23592d04f625dc"
		"8c709b98b43b3852b337216179aa7fc7",
		"eee9e24d78c1855337983451df97c8ad9eedf256c6334f8e948d252d5e0e7684"
		"7aa0774ddb90a842190d2c558b4b8340",
	}, { NULL } },
	{ "sha3-512", {
		"a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a6"
		"15b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26",
		"b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
		"10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0",
		"e76dfad22084a8b1467fcf2ffa58361bec7628edf5f3fdc0e4805dc48caeeca8"
		"1b7c13c30adf52a3659584739a2df46be589c51ca1a4a8416df6545a1ce8ba00",
		"04a371e84ecfb5b8b77cb48610fca8182dd457ce6f326a0fd3d7ec2f1e91636d"
		"ee691fbe0c985302ba1b0d8dc78c086346b533b49c030d99a27daf1139d6e75e",
		"afebb2ef542e6579c50cad06d2e578f9f8dd6881d7dc824d26360feebf18a4fa"
		"73e3261122948efcfd492e74e82e2189ed0fb440d187f382270cb455f21dd185",
		"3c3a876da14034ab60627c077bb98f7e120a2a5370212dffb3385a18d4f38859"
		"ed311d0a9d5141ce9cc5c66ee689b266a8aa18ace8282a0e0db596c90b0a7b87",
	}, { NULL } },
	{ "shake128", {
		"7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26",
		"5881092dd818bf5cf8a3ddb793fbcba74097d5c526a6d35f97b83351940f2cc8",
		"131ab8d2b594946b9c81333f9bb6e0ce75c3b93104fa3469d3917457385da037",
		"1a96182b50fb8c7e74e0a707788f55e98209b8d91fade8f32f8dd5cff7bf21f5",
		"7b6df6ff181173b6d7898d7ff63fb07b7c237daf471a5ae5602adbccef9ccf4b",
		"9d222c79c4ff9d092cf6ca86143aa411e369973808ef97093255826c5572ef58",
	}, {
		"43e41b45a653f2a5c4492c1add544512dda2529833462b71a41a45be97290b6f",
		"7085901803ec6f17f0ec650a292198275211a56bf13f0bf7241268b50d3f1ec8",
		"44c9fb359fd56ac0a9a75a743cff6862f17d7259ab075216c0699511643b6439",
	} },
	{ "shake256", {
		"46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
		"d75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be",
		"483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739"
		"d5a15bef186a5386c75744c0527e1faa9f8726e462a12a4feb06bd8801e751e4",
		"cd8a920ed141aa0407a22d59288652e9d9f1a7ee0c1e7c1ca699424da84a904d"
		"2d700caae7396ece96604440577da4f3aa22aeb8857f961c4cd8e06f0ae6610b",
		"4d8c2dd2435a0128eefbb8c36f6f87133a7911e18d979ee1ae6be5d4fd2e3329"
		"40d8688a4e6a59aa8060f1f9bc996c05aca3c696a8b66279dc672c740bb224ec",
		"98be04516c04cc73593fef3ed0352ea9f6443942d6950e29a372a681c3deaf45"
		"35423709b02843948684e029010badcc0acd8303fc85fdad3eabf4f78cae1656",
		"3578a7a4ca9137569cdf76ed617d31bb994fca9c1bbf8b184013de8234dfd13a"
		"3fd124d4df76c0a539ee7dd2f6e1ec346124c815d9410e145eb561bcd97b18ab",
	}, {
		"ab0bae316339894304e35877b0c28a9b1fd166c796b9cc258a064a8f57e27f2a",
		"9440b99d6088e20203aebafa8e9dffa94ed35ef1f41f5fdf549fbcc5a0f68298",
		"6a1a9d7846436e4dca5728b6f760eef0ca92bf0be5615e96959d767197a0beeb",
	} },
};

/* The first five examples' messages (the digests' order above). */
static const u8 sha3_a3[200] = { [0 ... 199] = 0xa3 };
static const u8 *const sha3_msgs[5] = {
	(const u8 *)"", (const u8 *)"abc", sha3_a3,
	(const u8 *)"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	(const u8 *)("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
		     "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
};
static const size_t sha3_lens[5] = { 0, 3, 200, 56, 112 };

START_TEST(test_sha3_kat)
{
	static const size_t chunks[] = { 1, 7, 72, 136, 169, 1000, 4096, 65 };
	const size_t mlen = 1000000;
	u8 *million = malloc(mlen);

	ck_assert_ptr_nonnull(million);
	memset(million, 'a', mlen);
	for (int k = 0; k < NSHA3; k++) {
		drivers_t drv;
		int n = rt_impls(sha3_names[k], "shash", drv, RT_MAX_IMPLS);

		ck_assert_str_eq(sha3_kats[k].name, sha3_names[k]);
		ck_assert_int_ge(n, 1);
		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);
			unsigned int ds = crypto_shash_digestsize(tfm);
			u8 out[HASH_MAX_DIGESTSIZE], want[HASH_MAX_DIGESTSIZE];
			int cases = 0;

			ck_assert_str_eq(crypto_shash_alg_name(tfm), sha3_names[k]);
			ck_assert_uint_eq(ds, sha3_sizes[k]);
			ck_assert_uint_eq(crypto_shash_blocksize(tfm), sha3_rates[k]);
			ck_assert_uint_le(crypto_shash_statesize(tfm), HASH_MAX_STATESIZE);
			for (int m = 0; m < 5; m++) {
				rt_unhex(want, sizeof(want), sha3_kats[k].digest[m]);
				OK(drv[i], crypto_shash_tfm_digest(tfm, sha3_msgs[m],
								   (unsigned int)sha3_lens[m], out));
				check_digest(drv[i], "NIST example", sha3_lens[m], out, want, ds);
				OK(drv[i], desc_digest(tfm, sha3_msgs[m], sha3_lens[m], 5, out));
				check_digest(drv[i], "NIST example, updates of 5", sha3_lens[m], out, want,
					     ds);
				cases += 2;
			}
			rt_unhex(want, sizeof(want), sha3_kats[k].digest[5]);
			OK(drv[i], crypto_shash_tfm_digest(tfm, million, (unsigned int)mlen, out));
			check_digest(drv[i], "million a", mlen, out, want, ds);
			OK(drv[i], digest_pieces(tfm, million, mlen, chunks, ARRAY_SIZE(chunks), false,
						 out, 0));
			check_digest(drv[i], "million a in pieces", mlen, out, want, ds);
			cases += 2;
			/* SHAKE: 4096-bit outputs, the digest their first bytes. */
			if (SHA3_IS_XOF(k)) {
				for (int m = 0; m < 3; m++) {
					u8 big[512], tail[32];

					memset(big, 0x5a, sizeof(big));
					OK(drv[i], xof_digest(tfm, sha3_msgs[m], sha3_lens[m], 64, big,
							      sizeof(big)));
					rt_unhex(want, sizeof(want), sha3_kats[k].digest[m]);
					check_digest(drv[i], "4096-bit output, head", sha3_lens[m], big,
						     want, ds);
					rt_unhex(tail, sizeof(tail), sha3_kats[k].tail4096[m]);
					check_digest(drv[i], "4096-bit output, tail", sha3_lens[m],
						     big + sizeof(big) - 32, tail, 32);
					cases++;
				}
			}
			rt_report("FIPS 202 examples", drv[i], cases, 0);
			crypto_free_shash(tfm);
		}
	}
	free(million);
}
END_TEST

#if defined(__x86_64__)
/*
 * The FIPS 202 examples above (the first five messages, and SHAKE's
 * 4096-bit tails) through the eight-way sponge: the example in one lane
 * (a different lane each time, so every lane gives known answers),
 * random messages of its length in the other seven, which must match the
 * scalar sponge.
 */
START_TEST(test_keccakx8_kat)
{
	u8 other[7][200], out[8][4 * SHAKE128_RATE], ref[4 * SHAKE128_RATE];
	u8 want[64];
	u8 *const outp[8] = { out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7] };
	struct keccakx8_state st;
	struct keccak_state ks;
	struct rt_rng rng;
	int n = 0;

	if (!keccakx8_runs("FIPS 202 examples, eight-way sponge"))
		return;
	rt_rng_seed(&rng, 0x6ecc8b);
	for (int k = 0; k < NSHA3; k++) {
		const unsigned int rate = sha3_rates[k], ds = sha3_sizes[k];
		const u8 dsb = SHA3_IS_XOF(k) ? KECCAK_DS_SHAKE : KECCAK_DS_SHA3;
		const size_t outlen = SHA3_IS_XOF(k) ? 512 : ds, nb = (outlen + rate - 1) / rate;

		for (int m = 0; m < 5; m++) {
			const int lane = (5 * k + m) % 8;
			const u8 *in[8];

			rt_fill(&rng, other, sizeof(other));
			for (int l = 0, o = 0; l < 8; l++)
				in[l] = l == lane ? sha3_msgs[m] : other[o++];
			keccakx8_absorb_once(&st, rate, dsb, in, sha3_lens[m]);
			keccakx8_squeeze_blocks(&st, rate, outp, nb);
			rt_unhex(want, sizeof(want), sha3_kats[k].digest[m]);
			if (memcmp(out[lane], want, ds))
				ck_abort_msg("%s, example %d, lane %d: digest differs", sha3_names[k], m,
					     lane);
			if (SHA3_IS_XOF(k) && m < 3) {
				rt_unhex(want, sizeof(want), sha3_kats[k].tail4096[m]);
				if (memcmp(out[lane] + 512 - 32, want, 32))
					ck_abort_msg("%s, example %d, lane %d: 4096-bit tail differs",
						     sha3_names[k], m, lane);
			}
			for (int l = 0; l < 8; l++) {
				rind_keccak_init(&ks, rate, dsb);
				rind_keccak_absorb(&ks, in[l], sha3_lens[m]);
				rind_keccak_squeeze(&ks, ref, nb * rate);
				if (memcmp(out[l], ref, nb * rate))
					ck_abort_msg("%s, example %d: lane %d differs from the scalar sponge",
						     sha3_names[k], m, l);
			}
			n++;
		}
	}
	memzero_explicit(&st, sizeof(st));
	rt_report("FIPS 202 examples, eight-way sponge", "keccakx8 (keccak-avx512.c)", n, 0);
	ck_assert_int_eq(n, 5 * NSHA3);
}
END_TEST
#endif

/*
 * Every message length up to two blocks and one byte and a few large ones
 * against OpenSSL, aligned in one call and unaligned in updates; for the
 * SHAKEs also random output lengths (0..1100 and the block boundaries)
 * through rind_shash_final_xof() against EVP_DigestFinalXOF.
 */
START_TEST(test_sha3_vs_openssl)
{
	static const size_t big[] = { 1000, 4095, 4097, 65537, BIGLEN };
	u8 *buf = malloc(BIGLEN + 1), *out = malloc(8192 + 1), *want = malloc(8192);

	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_nonnull(want);
	for (int k = 0; k < NSHA3; k++) {
		drivers_t drv;
		int n = rt_impls(sha3_names[k], "shash", drv, RT_MAX_IMPLS);
		unsigned int ds = sha3_sizes[k], rate = sha3_rates[k];
		struct rt_rng rng;

		rt_rng_seed(&rng, 0x5ea3 + (u64)k);
		rt_fill(&rng, buf, BIGLEN + 1);
		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);
			int cases = 0;

			for (size_t len = 0; len <= 2 * rate + 1; len++) {
				ossl_sha3(k, buf, len, want, ds);
				OK(drv[i], crypto_shash_tfm_digest(tfm, buf, (unsigned int)len, out));
				check_digest(drv[i], "digest", len, out, want, ds);
				ossl_sha3(k, buf + 1, len, want, ds);
				OK(drv[i], desc_digest(tfm, buf + 1, len, 1 + len % 97, out));
				check_digest(drv[i], "unaligned update", len, out, want, ds);
				cases += 2;
			}
			for (size_t j = 0; j < ARRAY_SIZE(big); j++) {
				ossl_sha3(k, buf, big[j], want, ds);
				OK(drv[i], crypto_shash_tfm_digest(tfm, buf, (unsigned int)big[j], out));
				check_digest(drv[i], "digest", big[j], out, want, ds);
				OK(drv[i], desc_digest(tfm, buf, big[j], 1000 + j, out));
				check_digest(drv[i], "update in pieces", big[j], out, want, ds);
				cases += 2;
			}
			if (SHA3_IS_XOF(k)) {
				const size_t edges[] = { 0, 1, 7, 8, 9, rate - 1, rate, rate + 1,
							 2 * rate, 3 * rate + 5, 8192 };

				for (int c = 0; c < 400; c++) {
					size_t len = rt_rand_range(&rng, c < 200 ? 400 : 5000);
					size_t olen = c < (int)ARRAY_SIZE(edges) ? edges[c] :
						      rt_rand_range(&rng, 1101);
					size_t chunk = 1 + rt_rand_range(&rng, 300);
					size_t off = rt_rand_range(&rng, 16);

					ossl_sha3(k, buf + off, len, want, olen);
					memset(out, 0xa5, olen + 1);
					OK(drv[i], xof_digest(tfm, buf + off, len, chunk, out, olen));
					if (memcmp(out, want, olen) || out[olen] != 0xa5)
						ck_abort_msg("%s: %zu bytes in updates of %zu, %zu out: differs from OpenSSL",
							     drv[i], len, chunk, olen);
					cases++;
				}
			}
			rt_report("SHA-3 OpenSSL differential", drv[i], cases, 0);
			crypto_free_shash(tfm);
		}
	}
	free(buf);
	free(out);
	free(want);
}
END_TEST

/*
 * Every length up to a block and one byte, split at every position with
 * the state exported and imported into a fresh descriptor; an exported
 * state whose block position is out of range is refused (-EINVAL) and
 * leaves the descriptor as it was; finup_mb (the front end's fork of the
 * state through export/import) against OpenSSL.
 */
START_TEST(test_sha3_export_import)
{
	u8 buf[SHA3_MAXRATE + 1 + 200];
	struct rt_rng rng;

	rt_rng_seed(&rng, 0x3e1c);
	rt_fill(&rng, buf, sizeof(buf));
	for (int k = 0; k < NSHA3; k++) {
		drivers_t drv;
		int n = rt_impls(sha3_names[k], "shash", drv, RT_MAX_IMPLS);
		unsigned int ds = sha3_sizes[k], rate = sha3_rates[k];

		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);
			unsigned int ss = crypto_shash_statesize(tfm);
			unsigned int dsz = crypto_shash_descsize(tfm);
			u8 state[HASH_MAX_STATESIZE], before[HASH_MAX_DESCSIZE];
			u8 want[HASH_MAX_DIGESTSIZE], out[HASH_MAX_DIGESTSIZE];
			SHASH_DESC_ON_STACK(d1, tfm);
			SHASH_DESC_ON_STACK(d2, tfm);
			int cases = 0;

			ck_assert_uint_le(ss, HASH_MAX_STATESIZE);
			ck_assert_uint_le(dsz, HASH_MAX_DESCSIZE);
			d1->tfm = tfm;
			d2->tfm = tfm;
			for (size_t len = 0; len <= rate + 1; len++) {
				ossl_sha3(k, buf, len, want, ds);
				for (size_t cut = 0; cut <= len; cut++) {
					split_export_import(drv[i], d1, d2, buf, cut, len, true, want, ds);
					cases++;
				}
			}
			/* A block position at or past the rate: refused, d2 untouched. */
			OK(drv[i], crypto_shash_init(d1));
			OK(drv[i], crypto_shash_update(d1, buf, 5));
			OK(drv[i], crypto_shash_export(d1, state));
			OK(drv[i], crypto_shash_init(d2));
			OK(drv[i], crypto_shash_update(d2, buf, 3));
			for (u32 bad = rate; bad <= rate + 1; bad++) {
				u8 evil[HASH_MAX_STATESIZE];
				u32 pos;

				memcpy(evil, state, ss);
				memcpy(&pos, evil + 200, 4);
				ck_assert_uint_eq(pos, 5);
				memcpy(evil + 200, &bad, 4);
				memcpy(before, shash_desc_ctx(d2), dsz);
				ck_assert_int_eq(crypto_shash_import(d2, evil), -EINVAL);
				ck_assert_msg(!memcmp(before, shash_desc_ctx(d2), dsz),
					      "%s: refused import changed the descriptor", drv[i]);
				cases++;
			}
			{
				u32 huge = 0xffffffffu;

				memcpy(state + 200, &huge, 4);
				ck_assert_int_eq(crypto_shash_import(d2, state), -EINVAL);
				OK(drv[i], crypto_shash_update(d2, buf + 3, 50));
				OK(drv[i], crypto_shash_final(d2, out));
				ossl_sha3(k, buf, 53, want, ds);
				check_digest(drv[i], "after a refused import", 53, out, want, ds);
				cases++;
			}
			shash_desc_zero(d1);
			/* finup_mb forks the state through export/import. */
			for (unsigned int nm = 1; nm <= 5; nm++) {
				u8 outs[5][HASH_MAX_DIGESTSIZE], cat[50 + 200];
				const u8 *data[5];
				u8 *outp[5];
				unsigned int len = 37 * nm;

				for (unsigned int m = 0; m < nm; m++) {
					data[m] = buf + 50 + m;
					outp[m] = outs[m];
				}
				d1->tfm = tfm;
				OK(drv[i], crypto_shash_init(d1));
				OK(drv[i], crypto_shash_update(d1, buf, 50));
				OK(drv[i], crypto_shash_finup_mb(d1, data, len, outp, nm));
				for (unsigned int m = 0; m < nm; m++) {
					memcpy(cat, buf, 50);
					memcpy(cat + 50, data[m], len);
					ossl_sha3(k, cat, 50 + len, want, ds);
					check_digest(drv[i], "finup_mb", 50 + len, outs[m], want, ds);
					cases++;
				}
			}
			shash_desc_zero(d2);
			rt_report("SHA-3 split + export/import", drv[i], cases, 0);
			crypto_free_shash(tfm);
		}
	}
}
END_TEST

/*
 * rind_shash_final_xof(): the first 32/64 bytes are the shash digest;
 * longer outputs of one message extend shorter ones; it consumes the
 * descriptor (state wiped); other tfms (a SHA3, SHA-256, HMACs), a NULL output with a length and a NULL descriptor are
 * -EINVAL with nothing written and the descriptor unchanged.  The
 * library-internal one-shots (ML-KEM's) agree with the shash drivers.
 */
START_TEST(test_sha3_xof_usage)
{
	static const char *const not_xof[] = { "sha3-256", "sha3-512", "sha256", "hmac(sha256)",
					       "hmac(sha3-256)" };
	u8 msg[300], a[600], b[600], c[64];
	struct rt_rng rng;
	int cases = 0;

	rt_rng_seed(&rng, 0x0f0f);
	rt_fill(&rng, msg, sizeof(msg));
	for (int k = 4; k < NSHA3; k++) {
		struct crypto_shash *tfm = crypto_alloc_shash(sha3_names[k], 0, 0);
		unsigned int ds = sha3_sizes[k];
		SHASH_DESC_ON_STACK(desc, tfm);

		ck_assert(!IS_ERR(tfm));
		desc->tfm = tfm;
		for (size_t len = 0; len <= 300; len += 23) {
			OK(sha3_names[k], crypto_shash_tfm_digest(tfm, msg, (unsigned int)len, c));
			OK(sha3_names[k], crypto_shash_init(desc));
			OK(sha3_names[k], crypto_shash_update(desc, msg, (unsigned int)len));
			OK(sha3_names[k], rind_shash_final_xof(desc, a, sizeof(a)));
			ck_assert_msg(all_zero(shash_desc_ctx(desc), crypto_shash_descsize(tfm)),
				      "%s: state left after rind_shash_final_xof", sha3_names[k]);
			check_digest(sha3_names[k], "xof head = digest", len, a, c, ds);
			for (size_t olen = 0; olen <= sizeof(b); olen += 61) {
				memset(b, 0x33, sizeof(b));
				OK(sha3_names[k], xof_digest(tfm, msg, len, 300, b, olen));
				if (memcmp(a, b, olen) || (olen < sizeof(b) && b[olen] != 0x33))
					ck_abort_msg("%s: %zu-byte output is not a prefix of the 600-byte one",
						     sha3_names[k], olen);
				cases++;
			}
			/* The library's one-shots (used by ML-KEM) give the same bytes. */
			memset(b, 0, sizeof(b));
			if (k == 4)
				rind_shake128(b, sizeof(b), msg, len);
			else
				rind_shake256(b, sizeof(b), msg, len);
			check_digest(sha3_names[k], "rind_shake one-shot", len, b, a, sizeof(a));
			cases += 2;
		}
		/* A NULL output with a length: refused, the state intact. */
		OK(sha3_names[k], crypto_shash_init(desc));
		OK(sha3_names[k], crypto_shash_update(desc, msg, 10));
		ck_assert_int_eq(rind_shash_final_xof(desc, NULL, 5), -EINVAL);
		OK(sha3_names[k], crypto_shash_update(desc, msg + 10, 10));
		OK(sha3_names[k], rind_shash_final_xof(desc, NULL, 0));
		OK(sha3_names[k], crypto_shash_init(desc));
		OK(sha3_names[k], crypto_shash_update(desc, msg, 10));
		ck_assert_int_eq(rind_shash_final_xof(desc, NULL, 1), -EINVAL);
		OK(sha3_names[k], crypto_shash_update(desc, msg + 10, 10));
		OK(sha3_names[k], crypto_shash_final(desc, a));
		ossl_sha3(k, msg, 20, b, ds);
		check_digest(sha3_names[k], "after a refused xof final", 20, a, b, ds);
		cases += 2;
		crypto_free_shash(tfm);
	}
	ck_assert_int_eq(rind_shash_final_xof(NULL, a, 1), -EINVAL);
	for (size_t j = 0; j < ARRAY_SIZE(not_xof); j++) {
		struct crypto_shash *tfm = crypto_alloc_shash(not_xof[j], 0, 0);
		unsigned int dsz;
		u8 before[HASH_MAX_DESCSIZE];

		ck_assert_msg(!IS_ERR(tfm), "%s: %ld", not_xof[j], PTR_ERR(tfm));
		dsz = crypto_shash_descsize(tfm);
		{
			SHASH_DESC_ON_STACK(desc, tfm);

			desc->tfm = tfm;
			if (!strncmp(not_xof[j], "hmac", 4))
				OK(not_xof[j], crypto_shash_setkey(tfm, msg, 20));
			OK(not_xof[j], crypto_shash_init(desc));
			OK(not_xof[j], crypto_shash_update(desc, msg, 100));
			memcpy(before, shash_desc_ctx(desc), dsz);
			memset(a, 0x77, 40);
			ck_assert_int_eq(rind_shash_final_xof(desc, a, 32), -EINVAL);
			ck_assert_msg(!memcmp(before, shash_desc_ctx(desc), dsz),
				      "%s: refused xof final changed the descriptor", not_xof[j]);
			for (int q = 0; q < 40; q++)
				ck_assert_uint_eq(a[q], 0x77);
			shash_desc_zero(desc);
		}
		crypto_free_shash(tfm);
		cases++;
	}
	/* rind_sha3_256/512 (the library's one-shots) against the shash and OpenSSL. */
	{
		struct crypto_shash *s256 = crypto_alloc_shash("sha3-256", 0, 0);

		ck_assert(!IS_ERR(s256));
		for (size_t len = 0; len <= 300; len += 17) {
			u8 x[64], y[64];

			rind_sha3_256(x, msg, len);
			OK("sha3-256", desc_digest(s256, msg, len, 300, y));
			check_digest("rind_sha3_256", "one-shot", len, x, y, 32);
			rind_sha3_512(x, msg, len);
			ossl_sha3(3, msg, len, y, 64);
			check_digest("rind_sha3_512", "one-shot", len, x, y, 64);
			cases += 2;
		}
		crypto_free_shash(s256);
	}
	rt_report("rind_shash_final_xof and wrong usage", "best", cases, 0);
}
END_TEST

/*
 * The SHA-3 arch drivers: on arm64 "<name>-ce" (arch/arm64/sha3-ce.c) is
 * registered exactly when the CPU has SHA3 and ASIMD, the lookup by
 * algorithm name then picks it, and "<name>-generic" stays reachable by
 * driver name below it.  No other architecture has SHA-3 drivers (x86-64
 * runs the C rounds, compiled for BMI2 where it has it, under the generic
 * names): there only the generic driver is registered.
 */
START_TEST(test_sha3_arch_drivers)
{
#if defined(__aarch64__)
	bool want = rind_cpu_has(RIND_ARM64_SHA3) && rind_cpu_has(RIND_ARM64_ASIMD);
#else
	bool want = false;
#endif
	int cases = 0;

	for (int k = 0; k < NSHA3; k++) {
		char ce[CRYPTO_MAX_ALG_NAME], gen[CRYPTO_MAX_ALG_NAME];
		drivers_t drv;
		int n = rt_impls(sha3_names[k], "shash", drv, RT_MAX_IMPLS);
		struct crypto_shash *best, *g;

		snprintf(ce, sizeof(ce), "%s-ce", sha3_names[k]);
		snprintf(gen, sizeof(gen), "%s-generic", sha3_names[k]);
		ck_assert_msg(crypto_has_shash(ce, 0, 0) == want, "%s: registered %d, CPU features say %d",
			      ce, crypto_has_shash(ce, 0, 0), want);
		ck_assert_int_eq(n, want ? 2 : 1);
		g = alloc_drv(gen);
		ck_assert_int_eq(crypto_shash_alg(g)->base.cra_priority, 100);
		best = crypto_alloc_shash(sha3_names[k], 0, 0);
		ck_assert(!IS_ERR_OR_NULL(best));
		ck_assert_str_eq(crypto_shash_driver_name(best), want ? ce : gen);
		if (want) {
			ck_assert_int_gt(crypto_shash_alg(best)->base.cra_priority, 100);
			ck_assert_str_eq(crypto_shash_alg(best)->base.cra_module, "arm64");
			ck_assert_uint_eq(crypto_shash_statesize(best), crypto_shash_statesize(g));
			ck_assert_uint_eq(crypto_shash_descsize(best), crypto_shash_descsize(g));
		}
		crypto_free_shash(best);
		crypto_free_shash(g);
		cases++;
	}
	if (!want)
		printf("SKIP: no sha3-*-ce/shake*-ce drivers here (%s): the SHA-3 arch-driver checks ran against their absence only\n",
#if defined(__aarch64__)
		       "no SHA3 in AT_HWCAP, or RIND_DISABLE"
#else
		       "not arm64"
#endif
		       );
	rt_report("SHA-3 arch drivers registered as the CPU says", want ? "ce" : "generic only",
		  cases, 0);
}
END_TEST

/*
 * Each SHA-3 arch driver against its generic driver, seeded: random
 * lengths 0..600 at offsets 0..15 from an aligned buffer, in one call and
 * cut at up to three random points; the state exported mid-stream by one
 * driver and finished by the other (one state layout), both ways; the
 * SHAKEs also at random output lengths 0..600 through
 * rind_shash_final_xof().  Skipped, with a message, where no arch driver
 * is registered (x86-64; arm64 without SHA3 or under RIND_DISABLE).
 */
static void sha3_finish_split(struct crypto_shash *tfm, struct shash_desc *desc, const u8 *p,
			      size_t len, const size_t *cuts, int ncuts, u8 *out, size_t olen,
			      bool xof)
{
	size_t at = 0;

	desc->tfm = tfm;
	for (int c = 0; c < ncuts; c++) {
		OK(crypto_shash_driver_name(tfm),
		   crypto_shash_update(desc, p + at, (unsigned int)(cuts[c] - at)));
		at = cuts[c];
	}
	OK(crypto_shash_driver_name(tfm), crypto_shash_update(desc, p + at, (unsigned int)(len - at)));
	if (xof)
		OK(crypto_shash_driver_name(tfm), rind_shash_final_xof(desc, out, olen));
	else
		OK(crypto_shash_driver_name(tfm), crypto_shash_final(desc, out));
}

START_TEST(test_sha3_arch_vs_generic)
{
	u8 *buf = aligned_alloc(64, 1024);
	int ran = 0;

	ck_assert_ptr_nonnull(buf);
	for (int k = 0; k < NSHA3; k++) {
		char gen[CRYPTO_MAX_ALG_NAME];
		drivers_t drv;
		int n = rt_impls(sha3_names[k], "shash", drv, RT_MAX_IMPLS);
		struct crypto_shash *g;

		snprintf(gen, sizeof(gen), "%s-generic", sha3_names[k]);
		g = alloc_drv(gen);
		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm;
			struct rt_rng rng;
			unsigned int ds = sha3_sizes[k];
			int cases = 0;

			if (!strcmp(drv[i], gen))
				continue;
			tfm = alloc_drv(drv[i]);
			rt_rng_seed(&rng, 0x3ce0 + (u64)k);
			for (int c = 0; c < 300; c++) {
				size_t len = c < 40 ? (size_t)c : rt_rand_range(&rng, 601);
				size_t off = rt_rand_range(&rng, 16), cuts[3], state_at;
				size_t olen = SHA3_IS_XOF(k) ? rt_rand_range(&rng, 601) : ds;
				int ncuts = (int)rt_rand_range(&rng, 4);
				u8 ref[600], got[600], st[HASH_MAX_STATESIZE];
				bool xof = SHA3_IS_XOF(k) && (c & 1);
				SHASH_DESC_ON_STACK(d1, tfm);
				SHASH_DESC_ON_STACK(d2, tfm);

				if (!xof)
					olen = ds;
				rt_fill(&rng, buf + off, len);
				for (int j = 0; j < ncuts; j++)
					cuts[j] = rt_rand_range(&rng, (u32)len + 1);
				/* sorted cut points, repeats allowed (empty updates) */
				for (int a = 0; a < ncuts; a++)
					for (int b = a + 1; b < ncuts; b++)
						if (cuts[b] < cuts[a]) {
							size_t t = cuts[a];

							cuts[a] = cuts[b];
							cuts[b] = t;
						}
				/* the reference: the generic driver, one update */
				d1->tfm = g;
				OK(gen, crypto_shash_init(d1));
				sha3_finish_split(g, d1, buf + off, len, NULL, 0, ref, olen, xof);
				/* one call */
				if (!xof) {
					OK(drv[i], crypto_shash_tfm_digest(tfm, buf + off, (unsigned int)len,
									   got));
					if (memcmp(got, ref, ds))
						ck_abort_msg("%s: %zu bytes at offset %zu: differs from %s",
							     drv[i], len, off, gen);
				}
				/* cut at random points */
				memset(got, 0xa5, sizeof(got));
				d2->tfm = tfm;
				OK(drv[i], crypto_shash_init(d2));
				sha3_finish_split(tfm, d2, buf + off, len, cuts, ncuts, got, olen, xof);
				if (memcmp(got, ref, olen) || (olen < sizeof(got) && got[olen] != 0xa5))
					ck_abort_msg("%s: %zu bytes at offset %zu cut %d times, %zu out: differs from %s",
						     drv[i], len, off, ncuts, olen, gen);
				/* exported by one, finished by the other, both ways */
				state_at = rt_rand_range(&rng, (u32)len + 1);
				for (int way = 0; way < 2; way++) {
					struct crypto_shash *from = way ? g : tfm, *to = way ? tfm : g;
					SHASH_DESC_ON_STACK(df, from);
					SHASH_DESC_ON_STACK(dt, to);

					df->tfm = from;
					dt->tfm = to;
					OK(drv[i], crypto_shash_init(df));
					OK(drv[i], crypto_shash_update(df, buf + off, (unsigned int)state_at));
					OK(drv[i], crypto_shash_export(df, st));
					shash_desc_zero(df);
					OK(drv[i], crypto_shash_import(dt, st));
					memset(got, 0xa5, sizeof(got));
					sha3_finish_split(to, dt, buf + off + state_at, len - state_at, NULL, 0,
							  got, olen, xof);
					if (memcmp(got, ref, olen))
						ck_abort_msg("%s: state of %zu of %zu bytes exported by %s, finished by %s: differs",
							     drv[i], state_at, len,
							     crypto_shash_driver_name(from),
							     crypto_shash_driver_name(to));
				}
				shash_desc_zero(d1);
				shash_desc_zero(d2);
				cases += xof ? 3 : 4;
			}
			{
				char what[2 * CRYPTO_MAX_ALG_NAME + 40];

				snprintf(what, sizeof(what), "%s vs %s, lengths 0..600, splits, offsets",
					 sha3_names[k], gen);
				rt_report(what, drv[i], cases, 0);
			}
			ran += cases;
			crypto_free_shash(tfm);
		}
		crypto_free_shash(g);
	}
	if (!ran)
		printf("SKIP: SHA-3 arch drivers vs generic: no sha3-*-ce/shake*-ce driver registered here\n");
	free(buf);
}
END_TEST

/* HMAC over the SHA3s (the provider's HMAC offers them) against OpenSSL. */
START_TEST(test_hmac_sha3_vs_openssl)
{
	u8 key[300], data[400];

	for (int k = 0; k < 4; k++) {
		char name[32];
		drivers_t drv;
		int n;

		snprintf(name, sizeof(name), "hmac(%s)", sha3_names[k]);
		n = rt_impls(name, "shash", drv, RT_MAX_IMPLS);
		ck_assert_int_ge(n, 1);
		for (int i = 0; i < n; i++) {
			struct crypto_shash *tfm = alloc_drv(drv[i]);
			const EVP_MD *md = EVP_get_digestbyname(sha3_ossl[k]);
			u8 want[HASH_MAX_DIGESTSIZE], out[HASH_MAX_DIGESTSIZE];
			unsigned int olen;
			struct rt_rng rng;
			int cases = 0;

			ck_assert_ptr_nonnull(md);
			ck_assert_uint_eq(crypto_shash_digestsize(tfm), sha3_sizes[k]);
			rt_rng_seed(&rng, 0x4d43 + (u64)k);
			/* Key lengths on both sides of the rate (keys longer are hashed). */
			for (size_t klen = 0; klen <= sizeof(key); klen += 1 + klen / 16) {
				size_t len = rt_rand_range(&rng, sizeof(data) + 1);

				rt_fill(&rng, key, klen);
				rt_fill(&rng, data, len);
				if (!HMAC(md, key, (int)klen, data, len, want, &olen) ||
				    olen != sha3_sizes[k])
					ck_abort_msg("OpenSSL HMAC-%s failed", sha3_ossl[k]);
				OK(drv[i], crypto_shash_setkey(tfm, key, (unsigned int)klen));
				OK(drv[i], crypto_shash_tfm_digest(tfm, data, (unsigned int)len, out));
				check_digest(drv[i], "HMAC", len, out, want, sha3_sizes[k]);
				OK(drv[i], desc_digest(tfm, data, len, 33, out));
				check_digest(drv[i], "HMAC in updates", len, out, want, sha3_sizes[k]);
				cases += 2;
			}
			rt_report("HMAC-SHA3 OpenSSL differential", drv[i], cases, 0);
			crypto_free_shash(tfm);
		}
	}
}
END_TEST

/* --------------------------------------------------------- wrong usage */

static long alloc_err(const char *name)
{
	struct crypto_shash *tfm = crypto_alloc_shash(name, 0, 0);

	if (!IS_ERR(tfm)) {
		crypto_free_shash(tfm);
		return 0;
	}
	return PTR_ERR(tfm);
}

START_TEST(test_wrong_usage)
{
	struct crypto_shash *tfm;
	u8 out[64];
	long err;

	ck_assert_int_eq(alloc_err("hmac(nosuch)"), -ENOENT);
	ck_assert_int_eq(alloc_err("hmac(nosuch-generic)"), -ENOENT);
	/* Not a hash: a block cipher, an AEAD. */
	err = alloc_err("hmac(aes)");
	ck_assert_msg(err == -ENOENT, "hmac(aes): %ld", err);
	err = alloc_err("hmac(gcm(aes))");
	ck_assert_msg(err == -ENOENT, "hmac(gcm(aes)): %ld", err);
	/* A keyed inner hash, the wrong argument count, malformed names. */
	ck_assert_int_eq(alloc_err("hmac(hmac(sha256))"), -EINVAL);
	ck_assert_int_eq(alloc_err("hmac(sha256,sha1)"), -EINVAL);
	ck_assert_int_eq(alloc_err("hmac()"), -EINVAL);
	ck_assert_int_eq(alloc_err("hmac(sha256"), -EINVAL);
	ck_assert_int_eq(rind_hmac("nosuch", (const u8 *)"k", 1, (const u8 *)"m", 1, out), -ENOENT);
	ck_assert_int_eq(rind_hmac("aes", (const u8 *)"k", 1, (const u8 *)"m", 1, out), -ENOENT);
	ck_assert_int_eq(rind_hmac(NULL, (const u8 *)"k", 1, (const u8 *)"m", 1, out), -EINVAL);
	ck_assert_int_eq(rind_hmac("sha256", NULL, 1, (const u8 *)"m", 1, out), -EINVAL);
	ck_assert_int_eq(rind_hmac("sha256", (const u8 *)"k", 1, NULL, 1, out), -EINVAL);
	ck_assert_int_eq(rind_hmac("sha256", (const u8 *)"k", 1, (const u8 *)"m", 1, NULL), -EINVAL);
	ck_assert(crypto_has_shash("hmac(sha256)", 0, 0));
	ck_assert(!crypto_has_shash("hmac(nosuch)", 0, 0));

	/* An HMAC without its key refuses to run. */
	tfm = crypto_alloc_shash("hmac(sha256)", 0, 0);
	ck_assert(!IS_ERR(tfm));
	ck_assert_int_eq(crypto_shash_tfm_digest(tfm, (const u8 *)"m", 1, out), -ENOKEY);
	{
		SHASH_DESC_ON_STACK(desc, tfm);

		desc->tfm = tfm;
		ck_assert_int_eq(crypto_shash_init(desc), -ENOKEY);
	}
	OK("hmac(sha256)", crypto_shash_setkey(tfm, NULL, 0));
	OK("hmac(sha256)", crypto_shash_tfm_digest(tfm, (const u8 *)"m", 1, out));
	crypto_free_shash(tfm);

	/* A plain hash takes no key. */
	tfm = crypto_alloc_shash("sha256", 0, 0);
	ck_assert(!IS_ERR(tfm));
	ck_assert_int_eq(crypto_shash_setkey(tfm, (const u8 *)"k", 1), -ENOSYS);
	OK("sha256", crypto_shash_tfm_digest(tfm, (const u8 *)"m", 1, out));
	crypto_free_shash(tfm);

	/* Instances are cached: a second allocation of each still works. */
	for (int h = 0; h < NHASH; h++) {
		for (int k = 0; k < 2; k++) {
			tfm = crypto_alloc_shash(hmac_names[h], 0, 0);
			ck_assert_msg(!IS_ERR(tfm), "%s: %ld", hmac_names[h], PTR_ERR(tfm));
			crypto_free_shash(tfm);
		}
	}
}
END_TEST

static Suite *hash_suite(void)
{
	Suite *s = suite_create("hash");
	TCase *tc = tcase_create("hash");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_fips_examples);
	tcase_add_test(tc, test_vs_openssl);
	tcase_add_test(tc, test_incremental_export_import);
	tcase_add_test(tc, test_finup_mb);
	tcase_add_test(tc, test_finup_mb_hmac);
	tcase_add_test(tc, test_arch_drivers_present);
	tcase_add_test(tc, test_diff_generic);
	tcase_add_test(tc, test_keccak_permutation);
#if defined(__aarch64__)
	tcase_add_test(tc, test_keccakx2_arm64);
#endif
#if defined(__x86_64__)
	tcase_add_test(tc, test_keccakx4_x86);
	tcase_add_test(tc, test_keccakx8_permutation);
	tcase_add_test(tc, test_keccakx8_sponge);
#endif
	tcase_add_test(tc, test_hmac_rfc);
	tcase_add_test(tc, test_hmac_vs_openssl);
	tcase_add_test(tc, test_hmac_rekey);
	tcase_add_test(tc, test_exact_buffers);
	tcase_add_test(tc, test_long_counts);
	tcase_add_test(tc, test_hmac_wycheproof);
	tcase_add_test(tc, test_oneshots);
	tcase_add_test(tc, test_oneshot_every_length);
	tcase_add_test(tc, test_hmac_oneshot_keylens);
	tcase_add_test(tc, test_oneshots_threads);
	tcase_add_test(tc, test_sha3_kat);
#if defined(__x86_64__)
	tcase_add_test(tc, test_keccakx8_kat);
#endif
	tcase_add_test(tc, test_sha3_vs_openssl);
	tcase_add_test(tc, test_sha3_export_import);
	tcase_add_test(tc, test_sha3_xof_usage);
	tcase_add_test(tc, test_sha3_arch_drivers);
	tcase_add_test(tc, test_sha3_arch_vs_generic);
	tcase_add_test(tc, test_hmac_sha3_vs_openssl);
	tcase_add_test(tc, test_wrong_usage);
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(hash_suite)
