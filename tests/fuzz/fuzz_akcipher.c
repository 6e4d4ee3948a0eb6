// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: RSA in the akcipher and sig types, differential
 * against OpenSSL (libcrypto, EVP).
 *
 * Keys: the RSA-2048 known-answer key of algs/rsa-tfm.c (PKCS#1), the
 * RSA-2048 and RSA-3072 private keys of Wycheproof's OAEP SHA-256 files
 * (PKCS#8), and the RSA-2048 public keys of Wycheproof's PKCS#1 SHA-256
 * and PSS SHA-384 signature files (SPKI), all embedded below.
 *
 * Input: [0] % 4 picks the operation; the layouts follow.
 *
 *   0  OAEP decryption of an arbitrary ciphertext.  [1] % 3 private key,
 *      [1] >> 2 % 3 the hash (oaep(rsa,sha256|sha384|sha512), MGF1 with
 *      the same hash, empty label), [2] destination: bit 0 a buffer of
 *      [3] bytes instead of the modulus size, [4] split of the source
 *      scatterlist (% length; 0: one piece); the rest is the ciphertext.
 *   1  OAEP round trip: [1], [2], [3], [4] as above, [5] bit 0 rind
 *      encrypts (else OpenSSL), [6..7] offset (u16 LE) and [8] xor mask
 *      of a change to the ciphertext; the rest is the plaintext.
 *   2  RSA key parsing: [1] bit 0 a private key (else public); the rest
 *      is the key (DER, PEM or JWK: set_pub_key / set_priv_key detect).
 *   3  PKCS#1 v1.5 / PSS verification: [1] bit 0 PSS, [1] >> 1 % 3 the
 *      hash, [2] % 5 the key, [3] bit 0 OpenSSL signs the message first
 *      (private keys only) and [4..5] offset, [6] xor mask change that
 *      signature; [7..8] signature length (u16 LE, clipped); then the
 *      signature and the message.
 *
 * What must hold:
 *   - decryption: a ciphertext of the modulus length is accepted by rind
 *     exactly when OpenSSL's EVP_PKEY_decrypt (RSA_PKCS1_OAEP_PADDING)
 *     accepts it, with the same plaintext; every failure is -EBADMSG; a
 *     destination too small for the plaintext is -EOVERFLOW with dst_len
 *     set to the plaintext length; nothing is written on failure or past
 *     dst_len.  Another length is -EBADMSG (RFC 8017 7.1.2 1b; OpenSSL,
 *     which reads a short ciphertext as a number, is not asked).
 *   - encryption: too long a plaintext is -EINVAL, too small a
 *     destination -EOVERFLOW (dst_len = modulus size); what rind
 *     encrypts OpenSSL decrypts, and what OpenSSL encrypts rind decrypts.
 *   - keys (the OAEP SHA-256 tfm; fuzz_keyparse also round-trips them
 *     through every format): a key rind accepts, unless JWK, OpenSSL's
 *     decoder reads as the same key (every CRT component the same for a
 *     private key), and it works: rind decrypts what OpenSSL encrypts to
 *     it, or (for a private key whose CRT values do not belong together)
 *     refuses with -EIO, and must succeed when OpenSSL's EVP_PKEY_check
 *     passes.  Conversely, a DER SPKI, PKCS#1 or PKCS#8 key that OpenSSL
 *     reads and writes back byte for byte (so canonical DER), rsaEncryption
 *     with NULL parameters, two primes, inside rind's policy (2048 to
 *     8192 bits, odd n, odd 3 <= e < 2^64; p * q = n, d < n, dp < p,
 *     dq < q, qInv < p, p and q above 1) must be accepted.  A refused key
 *     leaves the previous key in place.
 *   - verification: with a signature of the modulus length, rind verifies
 *     exactly when OpenSSL's EVP_DigestVerify does (PSS: MGF1 with the
 *     message hash, salt length = hash length, as rind signs); other
 *     lengths never verify; every failure is -EBADMSG (or -EINVAL).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <rind/crypto.h>
#include <rind/akcipher.h>
#include <rind/internal/keyfmt.h>
#include <crypto/rsa.h>
#include "fuzz_dup.h"

#define FAIL(...) do {							\
	fprintf(stderr, "FAIL fuzz_akcipher: [%s]: ", cur);		\
	fprintf(stderr, __VA_ARGS__);					\
	fputc('\n', stderr);						\
	abort();							\
} while (0)

static const char *cur = "";

/* ---- keys ----------------------------------------------------------------- */

/* oaep2048 (1217 bytes) */
static const char key_oaep2048[] =
	"308204bd020100300d06092a864886f70d0101010500048204a7308204a3020100028201"
	"0100a2b451a07d0aa5f96e455671513550514a8a5b462ebef717094fa1fee82224e637f9"
	"746d3f7cafd31878d80325b6ef5a1700f65903b469429e89d6eac8845097b5ab393189db"
	"92512ed8a7711a1253facd20f79c15e8247f3d3e42e46e48c98e254a2fe9765313a03eff"
	"8f17e1a029397a1fa26a8dce26f490ed81299615d9814c22da610428e09c7d9658594266"
	"f5c021d0fceca08d945a12be82de4d1ece6b4c03145b5d3495d4ed5411eb878daf05fd7a"
	"fc3e09ada0f1126422f590975a1969816f48698bcbba1b4d9cae79d460d8f9f85e797500"
	"5d9bc22c4e5ac0f7c1a45d12569a62807d3b9a02e5a530e773066f453d1f5b4c2e9cf782"
	"0283f742b9d502030100010282010024cdc62317f5d72a6f6ba6cc9632899b01d1ff2886"
	"7d72f61688995bc855a4e420a8405250089bdb13cf8e09543827b748b9d27fbb2b4d9e20"
	"af8c5a6a862796d1a4cc18ad16ea678bc1bd4a83bbbe9c5e57453b5ce7388e41a3ba4ce2"
	"b77b4438a229e954f720dae0353dc088ac8a76b26dc276f8e1b7851ddd6398ad16ff2e78"
	"195123b9b036e945c38c9d12434f6df76fe22359eb3e1ac9c011678fc926fad3ae475a4f"
	"ffff55feb2d147e9c894f4c0e29a599e762462482d968bf42780945fc0d2c31c573c4431"
	"b8f4fe8b8c67bec815abd44f7a86edca1c2308737358d2c2ae5e2e0e2dadf73098026237"
	"7e58b13b7d9992060a0bc870ccfdb4a9319ee102818100dc431050f782e894fb5248247d"
	"98cb7d58b8d1e24f3b55d041c56e4de086b0d5bb028bda42eeb5d234d5681e5809d415e6"
	"a289ad4cfbf78f978f6c35814f50eebff1c5b80a69f788e81e6bab5ddaa78369d659d143"
	"ec6f17e79813a575cfad9c569156b90113e2e9110ad9e7b48a1c9348a6e653321191290e"
	"a36cfb3a5b18f102818100bd1a81e7977f9898122273ae3222b598ea5fb19eb4eabc3830"
	"8a5e32196603b2e500ffb79f5b886816611debc472fac45544070beb057c941378a6868a"
	"f3b7a03d3f9880ec47d5e089b94fbde542aba9ae8d72c57088d7abf5b131f39098f7bc16"
	"0f90536abc9492fd4e06f3ed7299d4b97bb03677207d95669f140cfbc20f2502818100a9"
	"4b528b28f291599121d91952ffd1c7f21d7c1479d99d478885fb161870ee1218bf084726"
	"12dbe5497e8d9c650688e09c786961ae3e2c354dc48ae34514759c4c23c4588488961dc0"
	"6b414e61c0e1e7fbbd2923d31532fe289f96da220711e58c14019808e00414276933bb07"
	"e4efb9b4a9b37656917205209f33f09515d7c10281803af0e72a933aef09ff2503df78ba"
	"fed531c02ff1a2bc437c540cdcbd4ad35435cf511763596543480629b114ca7f780ff7ef"
	"a32ea0cb6e000d6d9ea1f2ef71fd9cf9948422a165557e37e755edfe70d90b920502eb47"
	"8bc98a63f788ce3a0f856d6ede7251a383bfa8fa480a81a925af7b3cc538c4bab8c9f759"
	"7ffb68011d8d0281802640fbfbcfefb163ee7a87b6483a66ee41f956d90fa8a7939bfc04"
	"2ee0924b1b7993d0445f758d51933e85179c0320b0c968b48a91c38b5be923e1097c0c56"
	"2f88d42294b6a2759bafa5428a74f1270874e45f6fcc60f21602de5eccd143cf31241f59"
	"21b5ad3983fb54ef17be3b285367e50c999c67247b552fe4bfce945f7b"
	;
/* oaep3072 (1791 bytes) */
static const char key_oaep3072[] =
	"308206fb020100300d06092a864886f70d0101010500048206e5308206e1020100028201"
	"8100c6fe23792566023c265287c5ac6f71541c0994d11d059ee6403986efa21c24b51bd9"
	"1d8862f9df79a4e328e3e27c83df260b25a9b43420affc44b51e8d7525b6f29c372a4051"
	"04732007527a62ed82fac73f4892a80e09682a41a58cd347017f3be7d801334f92d9321a"
	"afd53b51bffabfc752cfccae0b1ee03bdaff9e428cc1c117f1ac96b4fe23f8c23e638118"
	"6a66fd59289339ae55c4bcdadbff84abdaa532240d4e1d28b2d0481dadd3b246557ca8fe"
	"18092817730b39e6ee378ffcc85b19ffdc916a9b991a6b66d4a9c7bab5f5e7a372210114"
	"2e7a4108c15d573b15289e07e46eaea07b42c2abcba330e99554b4656165bb4c0db2b639"
	"3a07eca575c51a93c4e15bdb0f747909447e3efe34c67ca8954b530e56a20a1b6d84d45e"
	"d1bcd3aa58ec06f184ee5857aaa819e1cca9a26f4e28d6b977d33916db9896d252d1afa7"
	"62e287cb0d384cc75bfe53f4e922d02dd0a481c042e2d306b4b3c189371e575b25e0005a"
	"164cf69dd0976e4d5be476806ea6be6084e71ab4f5ac5c1b12030203010001028201800f"
	"2d59fa46f271503222104df0d96d1cdba8956b9f998aa588177b25b2c90fb9aa7e94448f"
	"3bfca1f404095ddc2be008f887581f89e981e6ba48694203cb000de4922a98f3dfda0587"
	"d75720938406fde68d7a9508f14d215f3bb38b3aa00b4aaf807ed69499c89afd39d0d864"
	"16579ca1dceb8182dc7167b0f58fbdf84d9e1bb70502ff455d5796d9c5c2e966f2bc46cf"
	"a2e9b7d4e9e98bc055b6fad59d1fe7829c0251c7628fc4d8033f7b4a7917d312b69291bc"
	"3791a4350dda746d6c7bc1687b5fda19e481e85e94af5187acf34a805507cf44c51843ad"
	"6b680d492d921f6925f2db860b06e495283479fdff8bf5fe07f2e47287fe0eac0dddfa24"
	"aa6e1f6e49863a7bff1e4c2a4df05517a378a9a93e8f0f3090af3e9a8512bf456c03de16"
	"f15dcdea48991c47a92cbb2f3dd230f3bf251f71b6e6e58966eff45a0568bcc93e246fb5"
	"deee3b8c201438fd67643f312f46361a26fe538a12456d65e8941ccf710fc78b84c030ab"
	"4411bec06bb08c2aa12a1c4c1aa229a09a043b02cb65150281c100f5eca16e0e83696b0e"
	"d9ac8a812545daba55f20a964c4e6343604a7f2be2860fce9fa16a1cc92120939deb88df"
	"f68550383ead851fac07ad1b2e8a9b2bb69525d96ceabb7ee83ce50f08d649107f449a14"
	"521a6893f3f3c5c5a703b2fc28bfcfe261a4f7f450558080deaeaab651c7a9ae586c1e7f"
	"5c52cda93e40aac908e4e3357984fc116af9cbe9539bc7a8d3b351a73ea5c2413d1da2e0"
	"b448b454670aca89ffe73b1401e9b8554fc3f23d6c904623251a1d29962ca9b26d973345"
	"bc4c5f0281c100cf25446f59cf512919ddbfcfa2d9670495ad92b6f295d61032057f9da6"
	"dbefc4510a623c2b47a5220082a3bc42af1a144f98c9ee4fdae41be0ec501ccc94b2b064"
	"0191099b355611160deb327e8ace018b898025ef470e4373ec1d97f669e298e1d845c655"
	"3c0a546ccb168d5b510dbe6018fd4ed9a3545f9bdb81968f4a6d7c790e5c34729a8efb49"
	"6086fa1300249ab8b28f38951d7bee1c127ac3c4d0bd596edee1e9d17781dbb8227d7b5d"
	"76ce8b8bce03c5d339b9757981610848c55cdd0281c06357a59679d26801514c6940c20e"
	"b67b370e84e9f5f0f9316c0437d3cb7c843f5a6e6d9c19e8bdb3152e93f904cfe6e692f1"
	"eed27a0ada46f95601b3d122be793dad9bdd05d4f6d469105ecfc11448381dc154ddadf6"
	"bc20c649435b483585d68a527b7b967be52e35e0be9a437021c1cfa5f4771567cc233c1c"
	"e3ae99eb37daf8bd10156b4bd580a3ce9c7d391bdbb23e67363a947405c6c812cbd3dccc"
	"8b356a2dafd0d3b23a21b684b458e4ab3854bcd9be04cdc9d65ceeb10a8531c470ed0281"
	"bf04dadabfc15b1a8bdc0f566f876191088a7986f6c2b8c04ba0e0801d31cbf5d2a4139a"
	"39cec9df14ecee22e846a7d3f4a5e8eed2a70c7a4c2cf95ce74fe42c4bf60c135a264919"
	"bb4cc906ba283d1896f0ae48529b490f0c85ab03068cbfee8fa6bb6ae73b182d25cd66f5"
	"205b038b4eeaf1aafe2e1ba5de97c88d40fa1ac47626602fc90ae694734f44f3e4e88d18"
	"4e8805a755ac2904be8fe9def6b7a62cc9ebcf4d7c2d6c9f9e86b2483e9bf22ce51861bb"
	"b4e73e731a4dbeba87772d290281c0214a1f73130e48b336fe01b950885ecdb3443d93e7"
	"e8ca62fb0da96bd423759d8be552c8be44f139fbee6ec24b75fbf0744fac4daabf5488fe"
	"6c3600d9b8e9a922481fc74a7a3d622662db8c85318de48ee8b716f19429fb594990da70"
	"5ebdf7ef6613dd6bf885c16ad65e9fe6c280386bee976c25dbaff8fbf69baed9510be5ed"
	"ed3f90e0ba4a97e5c81a2189f114670745ab95edda215bd05fdc78929fa0cfe8b01c83f2"
	"aec93e3ad1a334fd85aa8794eacf955ae5dacd45b268741fca195c"
	;
/* sig2048 (294 bytes) */
static const char key_sig2048[] =
	"30820122300d06092a864886f70d01010105000382010f003082010a0282010100a2b451"
	"a07d0aa5f96e455671513550514a8a5b462ebef717094fa1fee82224e637f9746d3f7caf"
	"d31878d80325b6ef5a1700f65903b469429e89d6eac8845097b5ab393189db92512ed8a7"
	"711a1253facd20f79c15e8247f3d3e42e46e48c98e254a2fe9765313a03eff8f17e1a029"
	"397a1fa26a8dce26f490ed81299615d9814c22da610428e09c7d9658594266f5c021d0fc"
	"eca08d945a12be82de4d1ece6b4c03145b5d3495d4ed5411eb878daf05fd7afc3e09ada0"
	"f1126422f590975a1969816f48698bcbba1b4d9cae79d460d8f9f85e7975005d9bc22c4e"
	"5ac0f7c1a45d12569a62807d3b9a02e5a530e773066f453d1f5b4c2e9cf7820283f742b9"
	"d50203010001"
	;
/* pss2048 (294 bytes) */
static const char key_pss2048[] =
	"30820122300d06092a864886f70d01010105000382010f003082010a0282010100cda6fa"
	"5ca76bfe0492ec57e0a3bfff7272dc8d1e25ad1fb338aa050f02c104e63133d6b5b7c498"
	"5ebbae9ac036a5b9c03074d60aec8e25baf392a0c430ff05b88e948805d3dd74511d8885"
	"250a7b574215ada015c559076686e253ccc96c0815b1291ee787cc3363b4f77d930eb998"
	"d7c582b24cea9ce21de9722791989863a27ebc80a00de5bd2f9228775e5a4ceb054d58c9"
	"be36a054336971a13642dd9510dd696aa268db3aab2299d5d88f8e562434d1427094d3df"
	"8e72d1ef69b4ed34d12bac375223b2a25cf227f735f816e85e17239304769a6082154cd1"
	"5899fc1eaefb69b748a3e5ed24d38372597de3e4e2a27b951d6ac7db182d6809d8ff511b"
	"7f0203010001"
	;

#define NKEYS		5
#define NPRIV		3	/* keys 0-2 have a private part */
#define MAXK		(RSA_MAX_BITS / 8)

static const char *const hash_names[3] = { "sha256", "sha384", "sha512" };
static const unsigned int hash_len[3] = { 32, 48, 64 };

struct key {
	const char *name;
	u8 der[2048];
	size_t len;
	int priv;
	EVP_PKEY *pkey;				/* OpenSSL's */
	unsigned int k;				/* modulus bytes */
	struct crypto_akcipher *oaep[3];	/* private keys: per hash */
	struct crypto_sig *sig[2][3];		/* [pss][hash] */
};

static struct key keys[NKEYS];
static struct crypto_akcipher *parse_tfm[2];	/* [priv] */

static size_t unhex(u8 *out, size_t cap, const char *hex)
{
	size_t n = strlen(hex) / 2, i;

	if (n > cap)
		abort();
	for (i = 0; i < n; i++) {
		unsigned int v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			abort();
		out[i] = (u8)v;
	}
	return n;
}

static const EVP_MD *md_of(int h)
{
	return h == 0 ? EVP_sha256() : h == 1 ? EVP_sha384() : EVP_sha512();
}

static EVP_PKEY *ossl_decode(const u8 *in, size_t len, int priv, const char *input_type)
{
	OSSL_DECODER_CTX *dctx;
	EVP_PKEY *pkey = NULL;
	const unsigned char *p = in;
	size_t left = len;

	dctx = OSSL_DECODER_CTX_new_for_pkey(&pkey, input_type, NULL, "RSA",
					     priv ? OSSL_KEYMGMT_SELECT_KEYPAIR :
						    OSSL_KEYMGMT_SELECT_PUBLIC_KEY, NULL, NULL);
	if (!dctx)
		FAIL("OSSL_DECODER_CTX_new_for_pkey");
	if (!OSSL_DECODER_from_data(dctx, &p, &left) || (!strcmp(input_type, "DER") && left)) {
		EVP_PKEY_free(pkey);
		pkey = NULL;
	}
	OSSL_DECODER_CTX_free(dctx);
	ERR_clear_error();
	return pkey;
}

static void *alloc_or_die(void *t, const char *what)
{
	if (IS_ERR_OR_NULL(t)) {
		fprintf(stderr, "fuzz_akcipher: cannot allocate %s (%ld)\n", what, PTR_ERR(t));
		abort();
	}
	return t;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const hex[NKEYS] = { NULL, key_oaep2048, key_oaep3072, key_sig2048,
						key_pss2048 };
	static const char *const names[NKEYS] = { "kat2048", "oaep2048", "oaep3072", "sig2048",
						  "pss2048" };
	int i, h, p;

	(void)argc;
	(void)argv;
	for (i = 0; i < NKEYS; i++) {
		struct key *k = &keys[i];
		char name[64];

		k->name = names[i];
		cur = k->name;
		if (!hex[i]) {
			memcpy(k->der, rsa_kat_privkey, RSA_KAT_PRIV_SIZE);
			k->len = RSA_KAT_PRIV_SIZE;
		} else {
			k->len = unhex(k->der, sizeof(k->der), hex[i]);
		}
		k->priv = i < NPRIV;
		k->pkey = ossl_decode(k->der, k->len, k->priv, "DER");
		if (!k->pkey)
			FAIL("OpenSSL cannot read the key");
		k->k = (unsigned int)EVP_PKEY_get_size(k->pkey);
		for (h = 0; h < 3 && k->priv; h++) {
			snprintf(name, sizeof(name), "oaep(rsa,%s)", hash_names[h]);
			k->oaep[h] = alloc_or_die(crypto_alloc_akcipher(name, 0, 0), name);
			if (crypto_akcipher_set_priv_key(k->oaep[h], k->der, (unsigned int)k->len))
				FAIL("%s: set_priv_key", name);
			if (crypto_akcipher_maxsize(k->oaep[h]) != k->k)
				FAIL("%s: maxsize %u, OpenSSL says %u", name,
				     crypto_akcipher_maxsize(k->oaep[h]), k->k);
		}
		for (p = 0; p < 2; p++)
			for (h = 0; h < 3; h++) {
				int err;

				snprintf(name, sizeof(name), "%s(rsa,%s)", p ? "pss" : "pkcs1", hash_names[h]);
				k->sig[p][h] = alloc_or_die(crypto_alloc_sig(name, 0, 0), name);
				err = k->priv ? crypto_sig_set_privkey(k->sig[p][h], k->der, (unsigned int)k->len) :
						crypto_sig_set_pubkey(k->sig[p][h], k->der, (unsigned int)k->len);
				if (err)
					FAIL("%s: set key: %d", name, err);
			}
	}
	for (p = 0; p < 2; p++) {
		parse_tfm[p] = alloc_or_die(crypto_alloc_akcipher("oaep(rsa,sha256)", 0, 0), "parse tfm");
		if (crypto_akcipher_set_priv_key(parse_tfm[p], keys[0].der, (unsigned int)keys[0].len))
			FAIL("parse tfm: set_priv_key");
	}
	cur = "";
	fprintf(stderr, "fuzz_akcipher: %d keys; drivers %s, %s, %s\n", NKEYS,
		crypto_akcipher_driver_name(keys[0].oaep[0]),
		crypto_sig_driver_name(keys[0].sig[0][0]), crypto_sig_driver_name(keys[0].sig[1][0]));
	return 0;
}

/* ---- helpers -------------------------------------------------------------- */

/* A one- or two-piece scatterlist over @buf. */
static void sg_split(struct scatterlist sg[2], u8 *buf, unsigned int len, unsigned int cut)
{
	if (len > 1 && cut % len) {
		cut %= len;
		sg_init_table(sg, 2);
		sg_set_buf(&sg[0], buf, cut);
		sg_set_buf(&sg[1], buf + cut, len - cut);
	} else {
		sg_init_one(sg, buf, len);
	}
}

/* OpenSSL OAEP decryption: the plaintext length, or -1. */
static long ossl_decrypt(EVP_PKEY *pkey, int h, const u8 *ct, size_t len, u8 *out, size_t cap)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(pkey, NULL);
	size_t outlen = cap;
	long r = -1;

	if (!c || EVP_PKEY_decrypt_init(c) != 1 ||
	    EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_OAEP_PADDING) != 1 ||
	    EVP_PKEY_CTX_set_rsa_oaep_md(c, md_of(h)) != 1 ||
	    EVP_PKEY_CTX_set_rsa_mgf1_md(c, md_of(h)) != 1)
		FAIL("OpenSSL OAEP set-up");
	if (EVP_PKEY_decrypt(c, out, &outlen, ct, len) == 1)
		r = (long)outlen;
	EVP_PKEY_CTX_free(c);
	ERR_clear_error();
	return r;
}

/* OpenSSL OAEP encryption: the ciphertext length, or -1. */
static long ossl_encrypt(EVP_PKEY *pkey, int h, const u8 *pt, size_t len, u8 *out, size_t cap)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(pkey, NULL);
	size_t outlen = cap;
	long r = -1;

	if (!c || EVP_PKEY_encrypt_init(c) != 1 ||
	    EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_OAEP_PADDING) != 1 ||
	    EVP_PKEY_CTX_set_rsa_oaep_md(c, md_of(h)) != 1 ||
	    EVP_PKEY_CTX_set_rsa_mgf1_md(c, md_of(h)) != 1)
		FAIL("OpenSSL OAEP set-up");
	if (EVP_PKEY_encrypt(c, out, &outlen, pt, len) == 1)
		r = (long)outlen;
	EVP_PKEY_CTX_free(c);
	ERR_clear_error();
	return r;
}

/*
 * rind OAEP decryption of @len bytes at @ct (copied to an exact-size
 * heap buffer, split at @cut) into a destination of @dstlen bytes.
 * Returns the error, the plaintext in @out and the final dst_len.
 */
static int rind_decrypt(struct crypto_akcipher *tfm, const u8 *ct, size_t len, unsigned int cut,
			u8 *out, unsigned int dstlen, unsigned int *outlen)
{
	struct akcipher_request *req = akcipher_request_alloc(tfm, 0);
	struct scatterlist src[2], dst[2];
	u8 *c = fuzz_dup(ct, len), *d = malloc(dstlen + 1);
	unsigned int i;
	int err;

	if (!req || !d)
		abort();
	memset(d, 0xee, dstlen + 1);
	sg_split(src, c, (unsigned int)len, cut);
	sg_split(dst, d, dstlen, cut >> 8);
	akcipher_request_set_crypt(req, src, dst, (unsigned int)len, dstlen);
	err = crypto_akcipher_decrypt(req);
	*outlen = req->dst_len;
	if (d[dstlen] != 0xee)
		FAIL("decrypt wrote past the destination");
	if (!err) {
		if (req->dst_len > dstlen)
			FAIL("decrypt: dst_len %u for a %u-byte destination", req->dst_len, dstlen);
		for (i = req->dst_len; i < dstlen; i++)
			if (d[i] != 0xee)
				FAIL("decrypt wrote past dst_len (%u of %u)", i, req->dst_len);
		memcpy(out, d, req->dst_len);
	} else {
		for (i = 0; i < dstlen; i++)
			if (d[i] != 0xee)
				FAIL("a failed decryption (%d) wrote to the destination", err);
	}
	akcipher_request_free(req);
	free(c);
	free(d);
	return err;
}

/* ---- 0, 1: OAEP ------------------------------------------------------------ */

/* Decrypt @ct with rind and OpenSSL and compare. */
static void oaep_compare(struct key *k, int h, const u8 *ct, size_t len, const u8 *hdr,
			 const u8 *known, long knownlen)
{
	u8 out[MAXK], ref[MAXK];
	unsigned int dstlen = hdr[2] & 1 ? hdr[3] : k->k, outlen;
	long rlen = -1;
	int err;

	err = rind_decrypt(k->oaep[h], ct, len, hdr[4] | (unsigned int)hdr[3] << 8, out, dstlen,
			   &outlen);
	if (len == k->k)
		rlen = ossl_decrypt(k->pkey, h, ct, len, ref, sizeof(ref));
	if (known && (rlen != knownlen || (rlen > 0 && memcmp(ref, known, (size_t)rlen))))
		FAIL("OpenSSL does not decrypt to the known plaintext (%ld, want %ld)", rlen, knownlen);
	if (rlen < 0) {
		if (err != -EBADMSG)
			FAIL("decrypt of a %zu-byte ciphertext OpenSSL refuses = %d, want -EBADMSG",
			     len, err);
		return;
	}
	if ((unsigned long)rlen > dstlen) {
		if (err != -EOVERFLOW || outlen != (unsigned long)rlen)
			FAIL("decrypt into %u bytes of a %ld-byte plaintext = %d, dst_len %u", dstlen,
			     rlen, err, outlen);
		return;
	}
	if (err)
		FAIL("decrypt = %d, OpenSSL decrypts (%ld bytes)", err, rlen);
	if (outlen != (unsigned long)rlen || memcmp(out, ref, (size_t)rlen))
		FAIL("decrypt gives %u bytes, OpenSSL %ld (or they differ)", outlen, rlen);
}

static void op_decrypt(const u8 *hdr, const u8 *data, size_t size)
{
	struct key *k = &keys[hdr[1] % NPRIV];
	int h = (hdr[1] >> 2) % 3;

	cur = crypto_akcipher_driver_name(k->oaep[h]);
	oaep_compare(k, h, data, size, hdr, NULL, 0);
}

static void op_roundtrip(const u8 *hdr, const u8 *data, size_t size)
{
	struct key *k = &keys[hdr[1] % NPRIV];
	int h = (hdr[1] >> 2) % 3;
	unsigned int maxpt = k->k - 2 * hash_len[h] - 2, pos, dstlen;
	u8 ct[MAXK + 1];
	long clen;

	cur = crypto_akcipher_driver_name(k->oaep[h]);
	if (hdr[5] & 1) {
		struct akcipher_request *req = akcipher_request_alloc(k->oaep[h], 0);
		struct scatterlist src[2], dst[2];
		u8 *pt = fuzz_dup(data, size), *d;
		int err, want;

		if (!req)
			abort();
		dstlen = hdr[2] & 1 ? hdr[3] : k->k;
		d = malloc(dstlen + 1);
		if (!d)
			abort();
		memset(d, 0xee, dstlen + 1);
		sg_split(src, pt, (unsigned int)size, hdr[4]);
		sg_split(dst, d, dstlen, hdr[4] >> 3);
		akcipher_request_set_crypt(req, src, dst, (unsigned int)size, dstlen);
		err = crypto_akcipher_encrypt(req);
		want = size > maxpt ? -EINVAL : dstlen < k->k ? -EOVERFLOW : 0;
		if (err != want)
			FAIL("encrypt of %zu bytes into %u = %d, want %d", size, dstlen, err, want);
		if (d[dstlen] != 0xee)
			FAIL("encrypt wrote past the destination");
		if (err == -EOVERFLOW && req->dst_len != k->k)
			FAIL("encrypt: -EOVERFLOW with dst_len %u", req->dst_len);
		clen = err ? -1 : (long)req->dst_len;
		if (!err) {
			if (req->dst_len != k->k)
				FAIL("encrypt: dst_len %u", req->dst_len);
			memcpy(ct, d, k->k);
		}
		akcipher_request_free(req);
		free(pt);
		free(d);
	} else {
		if (size > maxpt)
			size = maxpt;
		clen = ossl_encrypt(k->pkey, h, data, size, ct, sizeof(ct));
		if (clen != (long)k->k)
			FAIL("OpenSSL encrypt of %zu bytes = %ld", size, clen);
	}
	if (clen < 0)
		return;
	pos = (hdr[6] | (unsigned int)hdr[7] << 8) % k->k;
	if (!hdr[8]) {
		/* Unchanged: both decrypt it to the plaintext. */
		oaep_compare(k, h, ct, k->k, hdr, data, (long)size);
		return;
	}
	ct[pos] ^= hdr[8];
	oaep_compare(k, h, ct, k->k, hdr, NULL, 0);
}

/* ---- 2: keys ----------------------------------------------------------- */

struct rsa_bns {
	BIGNUM *v[8];	/* n e d p q dp dq qi */
	int n;
};

static const char *const bn_params[8] = {
	OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E, OSSL_PKEY_PARAM_RSA_D,
	OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2,
	OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT2,
	OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
};

/* The components OpenSSL holds for @pkey (the first 2 or all 8); 0 if any is missing. */
static int get_bns(EVP_PKEY *pkey, int priv, struct rsa_bns *b)
{
	int i;

	memset(b, 0, sizeof(*b));
	b->n = priv ? 8 : 2;
	for (i = 0; i < b->n; i++)
		if (!EVP_PKEY_get_bn_param(pkey, bn_params[i], &b->v[i]))
			return 0;
	return 1;
}

static void free_bns(struct rsa_bns *b)
{
	int i;

	for (i = 0; i < 8; i++)
		BN_clear_free(b->v[i]);
}

/* rind's import policy (rsa.h), over OpenSSL's view of the key. */
static int in_policy(const struct rsa_bns *b, int priv)
{
	BIGNUM *const *v = b->v;
	BN_CTX *ctx;
	BIGNUM *t;
	int ok, i;

	for (i = 0; i < b->n; i++)
		if (BN_is_negative(v[i]))
			return 0;
	ok = BN_num_bits(v[0]) >= RSA_MIN_BITS && BN_num_bits(v[0]) <= RSA_MAX_BITS &&
	     BN_is_odd(v[0]) && BN_is_odd(v[1]) && BN_num_bits(v[1]) <= 64 &&
	     !(BN_num_bits(v[1]) <= 2 && BN_get_word(v[1]) < 3);
	if (!ok || !priv)
		return ok;
	ctx = BN_CTX_new();
	t = BN_new();
	if (!ctx || !t || !BN_mul(t, v[3], v[4], ctx))
		abort();
	ok = !BN_cmp(t, v[0]) && BN_cmp(v[2], v[0]) < 0 && BN_cmp(v[5], v[3]) < 0 &&
	     BN_cmp(v[6], v[4]) < 0 && BN_cmp(v[7], v[3]) < 0 && BN_num_bits(v[3]) >= 2 &&
	     BN_num_bits(v[4]) >= 2;
	BN_free(t);
	BN_CTX_free(ctx);
	return ok;
}

/* Canonical DER OpenSSL reads and writes back identically: 1 (and *@pkey), else 0. */
static int ossl_canonical(const u8 *in, size_t len, int priv, EVP_PKEY **out)
{
	const unsigned char *p;
	unsigned char *re = NULL;
	EVP_PKEY *pkey = NULL;
	int n;

	*out = NULL;
	if (!priv) {
		/* SPKI */
		p = in;
		pkey = d2i_PUBKEY(NULL, &p, (long)len);
		if (pkey && (size_t)(p - in) == len && EVP_PKEY_get_base_id(pkey) == EVP_PKEY_RSA &&
		    (n = i2d_PUBKEY(pkey, &re)) == (int)len && !memcmp(re, in, len))
			goto yes;
		EVP_PKEY_free(pkey);
		OPENSSL_free(re);
		re = NULL;
		/* PKCS#1 RSAPublicKey */
		p = in;
		pkey = d2i_PublicKey(EVP_PKEY_RSA, NULL, &p, (long)len);
		if (pkey && (size_t)(p - in) == len &&
		    (n = i2d_PublicKey(pkey, &re)) == (int)len && !memcmp(re, in, len))
			goto yes;
	} else {
		/* PKCS#8 with an rsaEncryption key, NULL parameters, no attributes */
		PKCS8_PRIV_KEY_INFO *p8;
		const ASN1_OBJECT *oid;
		const unsigned char *pk;
		const X509_ALGOR *alg;
		const void *pval;
		int pklen, ptype;

		p = in;
		p8 = priv == 1 ? d2i_PKCS8_PRIV_KEY_INFO(NULL, &p, (long)len) : NULL;
		if (p8 && (size_t)(p - in) == len &&
		    (n = i2d_PKCS8_PRIV_KEY_INFO(p8, &re)) == (int)len && !memcmp(re, in, len) &&
		    PKCS8_pkey_get0(&oid, &pk, &pklen, &alg, p8) == 1 &&
		    OBJ_obj2nid(oid) == NID_rsaEncryption && !PKCS8_pkey_get0_attrs(p8)) {
			X509_ALGOR_get0(NULL, &ptype, &pval, alg);
			OPENSSL_free(re);
			re = NULL;
			if (ptype == V_ASN1_NULL) {
				/* the RSAPrivateKey inside (in p8), canonical too */
				int r = ossl_canonical(pk, (size_t)pklen, 2, out);

				PKCS8_PRIV_KEY_INFO_free(p8);
				ERR_clear_error();
				return r;
			}
		}
		PKCS8_PRIV_KEY_INFO_free(p8);
		OPENSSL_free(re);
		re = NULL;
		/* PKCS#1 RSAPrivateKey */
		p = in;
		pkey = d2i_PrivateKey(EVP_PKEY_RSA, NULL, &p, (long)len);
		if (pkey && (size_t)(p - in) == len &&
		    (n = i2d_PrivateKey(pkey, &re)) == (int)len && !memcmp(re, in, len)) {
			BIGNUM *f3 = NULL;

			/* two primes only */
			if (EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_RSA_FACTOR3, &f3)) {
				BN_free(f3);
			} else {
				goto yes;
			}
		}
	}
	EVP_PKEY_free(pkey);
	OPENSSL_free(re);
	ERR_clear_error();
	return 0;
yes:
	OPENSSL_free(re);
	ERR_clear_error();
	*out = pkey;
	return 1;
}

static u8 base_spki[MAXK + 64];
static int base_spki_len;


/*
 * OpenSSL's own consistency check of a private key (p q = n, d, the CRT
 * values): rind refuses at import (-EKEYREJECTED) a key whose parts do
 * not belong together, which OpenSSL's decoder reads without checking.
 */
static int ossl_consistent(EVP_PKEY *pk)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(pk, NULL);
	int ok = c && EVP_PKEY_check(c) == 1;

	EVP_PKEY_CTX_free(c);
	return ok;
}

static void op_key(const u8 *hdr, const u8 *data, size_t size)
{
	int priv = hdr[1] & 1, err, can, n;
	struct crypto_akcipher *tfm = parse_tfm[priv];
	enum rind_key_format fmt = size ? rind_key_detect(data, size, 0) : RIND_KEY_RAW;
	EVP_PKEY *cpk = NULL, *mine = NULL, *theirs = NULL;
	struct rsa_bns cb, mb, tb;
	u8 *kp = fuzz_dup(data, size), *buf;
	int i;

	cur = priv ? "set_priv_key" : "set_pub_key";
	buf = malloc(4 * MAXK + 4096);
	if (!buf)
		abort();
	err = priv ? crypto_akcipher_set_priv_key(tfm, kp, (unsigned int)size) :
		     crypto_akcipher_set_pub_key(tfm, kp, (unsigned int)size);
	free(kp);
	if (err && err != -EKEYREJECTED)
		FAIL("%zu bytes: %d", size, err);

	/* Canonical DER that OpenSSL reads, inside the policy: rind must read it too. */
	if (fmt != RIND_KEY_PEM && fmt != RIND_KEY_JWK) {
		can = ossl_canonical(data, size, priv, &cpk);
		if (can && get_bns(cpk, priv, &cb) && in_policy(&cb, priv) && err &&
		    !(priv && err == -EKEYREJECTED && !ossl_consistent(cpk)))
			FAIL("refuses a %d-bit key OpenSSL reads as canonical DER: %d",
			     BN_num_bits(cb.v[0]), err);
		if (can)
			free_bns(&cb);
		EVP_PKEY_free(cpk);
	}
	if (err) {
		/* The previous key stays. */
		n = crypto_akcipher_export_pubkey(tfm, RIND_KEY_SPKI_DER, buf, 4 * MAXK);
		if (n != base_spki_len || memcmp(buf, base_spki, (size_t)n))
			FAIL("a refused key replaced the previous one");
		goto out;
	}

	/* Accepted: OpenSSL reads the input as the same key rind exports. */
	n = priv ? crypto_akcipher_export_privkey(tfm, RIND_KEY_RAW, buf, 4 * MAXK) :
		   crypto_akcipher_export_pubkey(tfm, RIND_KEY_SPKI_DER, buf, 4 * MAXK);
	if (n <= 0)
		FAIL("export of an accepted key = %d", n);
	mine = ossl_decode(buf, (size_t)n, priv, "DER");
	if (!mine || !get_bns(mine, priv, &mb))
		FAIL("OpenSSL cannot read rind's export of the key");
	if (crypto_akcipher_maxsize(tfm) != (unsigned int)EVP_PKEY_get_size(mine))
		FAIL("maxsize %u, OpenSSL's size %d", crypto_akcipher_maxsize(tfm),
		     EVP_PKEY_get_size(mine));
	if (fmt != RIND_KEY_JWK) {
		theirs = ossl_decode(data, size, priv, fmt == RIND_KEY_PEM ? "PEM" : "DER");
		if (!theirs)
			FAIL("accepts a %s key OpenSSL cannot read", fmt == RIND_KEY_PEM ? "PEM" : "DER");
		if (!get_bns(theirs, priv, &tb))
			FAIL("OpenSSL's reading lacks components");
		for (i = 0; i < tb.n; i++)
			if (BN_cmp(tb.v[i], mb.v[i]))
				FAIL("component %s differs from OpenSSL's reading", bn_params[i]);
		free_bns(&tb);
	}
	if (!in_policy(&mb, priv))
		FAIL("accepts a key outside the policy");
	free_bns(&mb);

	/* It works: rind decrypts what OpenSSL encrypts to it. */
	if (priv && crypto_akcipher_maxsize(tfm) <= 512) {
		static const u8 msg[] = "fuzz_akcipher";
		u8 ct[MAXK], out[MAXK];
		unsigned int outlen;
		EVP_PKEY_CTX *c;
		long clen = ossl_encrypt(mine, 0, msg, sizeof(msg), ct, sizeof(ct));
		int good;

		if (clen <= 0)
			FAIL("OpenSSL cannot encrypt to the key");
		err = rind_decrypt(tfm, ct, (size_t)clen, 0, out, sizeof(out), &outlen);
		c = EVP_PKEY_CTX_new(mine, NULL);
		good = c && EVP_PKEY_check(c) == 1;
		EVP_PKEY_CTX_free(c);
		ERR_clear_error();
		if (err && err != -EIO)
			FAIL("decrypt under the accepted key = %d", err);
		if (!err && (outlen != sizeof(msg) || memcmp(out, msg, sizeof(msg))))
			FAIL("decrypt under the accepted key gives another plaintext");
		if (err && good)
			FAIL("decrypt = %d under a key EVP_PKEY_check passes", err);
	}
	if (crypto_akcipher_set_priv_key(tfm, keys[0].der, (unsigned int)keys[0].len))
		FAIL("cannot restore the base key");
out:
	EVP_PKEY_free(mine);
	EVP_PKEY_free(theirs);
	free(buf);
}

/* ---- 3: signatures --------------------------------------------------------- */

static int ossl_sig(EVP_PKEY *pkey, int pss, int h, int sign, u8 *sig, size_t *siglen,
		    const u8 *msg, size_t len)
{
	EVP_MD_CTX *m = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pc = NULL;
	int r;

	if (!m)
		abort();
	r = sign ? EVP_DigestSignInit(m, &pc, md_of(h), NULL, pkey) :
		   EVP_DigestVerifyInit(m, &pc, md_of(h), NULL, pkey);
	if (r != 1 || EVP_PKEY_CTX_set_rsa_padding(pc, pss ? RSA_PKCS1_PSS_PADDING : RSA_PKCS1_PADDING) != 1 ||
	    (pss && (EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, RSA_PSS_SALTLEN_DIGEST) != 1 ||
		     EVP_PKEY_CTX_set_rsa_mgf1_md(pc, md_of(h)) != 1)))
		FAIL("OpenSSL signature set-up");
	r = sign ? EVP_DigestSign(m, sig, siglen, msg, len) :
		   EVP_DigestVerify(m, sig, *siglen, msg, len);
	EVP_MD_CTX_free(m);
	ERR_clear_error();
	return r == 1;
}

static void op_verify(const u8 *hdr, const u8 *data, size_t size)
{
	int pss = hdr[1] & 1, h = (hdr[1] >> 1) % 3, r, o;
	struct key *k = &keys[hdr[2] % NKEYS];
	struct crypto_sig *tfm = k->sig[pss][h];
	size_t siglen = hdr[7] | (size_t)hdr[8] << 8;
	u8 own[MAXK], *s, *m;
	const u8 *sig;

	cur = crypto_sig_driver_name(tfm);
	if (siglen > size)
		siglen = size;
	sig = data;
	if ((hdr[3] & 1) && k->priv) {
		size_t n = sizeof(own);

		if (!ossl_sig(k->pkey, pss, h, 1, own, &n, data + siglen, size - siglen) || n != k->k)
			FAIL("OpenSSL cannot sign");
		if (!hdr[6] && !ossl_sig(k->pkey, pss, h, 0, own, &n, data + siglen, size - siglen))
			FAIL("OpenSSL does not verify its own signature");
		own[(hdr[4] | (unsigned int)hdr[5] << 8) % n] ^= hdr[6];
		sig = own;
		data += siglen;
		size -= siglen;
		siglen = n;
	} else {
		data += siglen;
		size -= siglen;
	}
	s = fuzz_dup(sig, siglen);
	m = fuzz_dup(data, size);
	r = crypto_sig_verify(tfm, s, (unsigned int)siglen, m, (unsigned int)size);
	free(s);
	free(m);
	if (r && r != -EBADMSG && r != -EINVAL)
		FAIL("verify of a %zu-byte signature = %d", siglen, r);
	if (siglen != k->k) {
		if (!r)
			FAIL("a %zu-byte signature verifies under a %u-byte key", siglen, k->k);
		return;
	}
	o = ossl_sig(k->pkey, pss, h, 0, (u8 *)sig, &siglen, data, size);
	if ((r == 0) != (o != 0))
		FAIL("key %s: rind %s (%d), OpenSSL %s", k->name, r ? "refuses" : "verifies", r,
		     o ? "verifies" : "refuses");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u8 hdr[9] = { 0 };

	if (!base_spki_len) {
		base_spki_len = crypto_akcipher_export_pubkey(parse_tfm[0], RIND_KEY_SPKI_DER, base_spki,
							      sizeof(base_spki));
		if (base_spki_len <= 0)
			abort();
	}
	fuzz_take(&data, &size, hdr, sizeof(hdr));
	switch (hdr[0] % 4) {
	case 0:
		op_decrypt(hdr, data, size);
		break;
	case 1:
		op_roundtrip(hdr, data, size);
		break;
	case 2:
		op_key(hdr, data, size);
		break;
	default:
		op_verify(hdr, data, size);
		break;
	}
	return 0;
}
