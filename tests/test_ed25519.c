// SPDX-License-Identifier: MIT
/*
 * Suite "ed25519": the "ed25519" sig over every implementation.
 *
 *  - RFC 8032 section 7.1, all five vectors (public key from the seed,
 *    the signature byte for byte, verification);
 *  - Wycheproof ed25519_test.json: every case, with the group's public key
 *    given raw, as SPKI DER, as PEM and as JWK (four tfms per group);
 *  - differential against OpenSSL (and libsodium): random seeds and
 *    messages, signatures identical byte for byte (Ed25519 is
 *    deterministic), OpenSSL's signatures verify in rind and rind's in
 *    OpenSSL, corrupted ones are refused by both; keys exported by rind
 *    (PKCS#8/SPKI, DER and PEM) read by OpenSSL and keys written by
 *    OpenSSL read by rind;
 *  - the strict verification policy: S >= L, non-canonical R and A, the
 *    "negative zero" A, signatures of the wrong length;
 *  - key generation, JWK round trips, batches (signatures identical to
 *    one-at-a-time signing for 1..70 requests of equal and unequal
 *    lengths), the one-shots, and wrong usage (no key, small buffers,
 *    malformed keys).
 */
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <sodium.h>
#include <rind/sig.h>
#include "testutil.h"

static int impls(drivers_t d)
{
	return rt_impls("ed25519", "sig", d, RT_MAX_IMPLS);
}

static struct crypto_sig *alloc_drv(const char *drv)
{
	return RT_ALLOC_DRV(sig, drv);
}

/* ---- RFC 8032 ------------------------------------------------------------- */

static const struct rfc_vec {
	const char *name, *seed, *pub, *msg, *sig;
} rfc8032[] = {
	{ "TEST 1",
	  "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
	  "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
	  "",
	  "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
	  "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b" },
	{ "TEST 2",
	  "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
	  "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
	  "72",
	  "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
	  "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00" },
	{ "TEST 3",
	  "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
	  "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
	  "af82",
	  "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
	  "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a" },
	{ "TEST 1024",
	  "f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
	  "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e",
	  "08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98"
	  "fa6e264bf09efe12ee50f8f54e9f77b1e355f6c50544e23fb1433ddf73be84d8"
	  "79de7c0046dc4996d9e773f4bc9efe5738829adb26c81b37c93a1b270b20329d"
	  "658675fc6ea534e0810a4432826bf58c941efb65d57a338bbd2e26640f89ffbc"
	  "1a858efcb8550ee3a5e1998bd177e93a7363c344fe6b199ee5d02e82d522c4fe"
	  "ba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e"
	  "06203b33890cc9b832f79ef80560ccb9a39ce767967ed628c6ad573cb116dbef"
	  "efd75499da96bd68a8a97b928a8bbc103b6621fcde2beca1231d206be6cd9ec7"
	  "aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53f1d8ac70bdcb7ed1"
	  "85ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb2"
	  "d17ba70eb6248e594e1a2297acbbb39d502f1a8c6eb6f1ce22b3de1a1f40cc24"
	  "554119a831a9aad6079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f270"
	  "88d78b7e883c8759d2c4f5c65adb7553878ad575f9fad878e80a0c9ba63bcbcc"
	  "2732e69485bbc9c90bfbd62481d9089beccf80cfe2df16a2cf65bd92dd597b07"
	  "07e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128ba"
	  "b27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51a"
	  "ddd3b75a2b1ae0784504df543af8969be3ea7082ff7fc9888c144da2af58429e"
	  "c96031dbcad3dad9af0dcbaaaf268cb8fcffead94f3c7ca495e056a9b47acdb7"
	  "51fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301651339e22904cc8c"
	  "42f58c30c04aafdb038dda0847dd988dcda6f3bfd15c4b4c4525004aa06eeff8"
	  "ca61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34df"
	  "f7310fdc82aebfd904b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08"
	  "d78ff4ef5d63653a65040cf9bfd4aca7984a74d37145986780fc0b16ac451649"
	  "de6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a3ca8e1b939ae49e4"
	  "88acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a3"
	  "2ef5b52a1ecc820e308aa342721aac0943bf6686b64b2579376504ccc493d97e"
	  "6aed3fb0f9cd71a43dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5f"
	  "b93246f6b1116398a346f1a641f3b041e989f7914f90cc2c7fff357876e506b5"
	  "0d334ba77c225bc307ba537152f3f1610e4eafe595f6d9d90d11faa933a15ef1"
	  "369546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380d"
	  "b2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c"
	  "0618983f8741c5ef68d3a101e8a3b8cac60c905c15fc910840b94c00a0b9d0",
	  "0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350"
	  "aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03" },
	{ "TEST SHA(abc)",
	  "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
	  "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
	  "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
	  "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
	  "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b589"
	  "09351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704" },
};

START_TEST(test_rfc8032)
{
	drivers_t d;
	int n = impls(d), i;
	size_t j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < ARRAY_SIZE(rfc8032); j++) {
			const struct rfc_vec *v = &rfc8032[j];
			struct crypto_sig *s = alloc_drv(d[i]), *p = alloc_drv(d[i]);
			u8 seed[32], pub[32], want[64], sig[64], got[32];
			size_t mlen;
			u8 *msg = rt_unhex_alloc(v->msg, &mlen);

			ck_assert_uint_eq(rt_unhex(seed, 32, v->seed), 32);
			ck_assert_uint_eq(rt_unhex(pub, 32, v->pub), 32);
			ck_assert_uint_eq(rt_unhex(want, 64, v->sig), 64);
			if (j == 3)
				ck_assert_uint_eq(mlen, 1023);
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(s, seed, 32), 0);
			RT_REQ_EQ(d[i], crypto_sig_export_pubkey(s, RIND_KEY_RAW, got, 32), 32);
			rt_check_eq(d[i], v->name, got, pub, 32);
			RT_REQ_EQ(d[i], crypto_sig_sign(s, msg, (unsigned int)mlen, sig, 64), 64);
			rt_check_eq(d[i], v->name, sig, want, 64);
			RT_REQ_EQ(d[i], crypto_sig_verify(s, sig, 64, msg, (unsigned int)mlen), 0);
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(p, pub, 32), 0);
			RT_REQ_EQ(d[i], crypto_sig_verify(p, want, 64, msg, (unsigned int)mlen), 0);
			want[0] ^= 0x10;
			RT_REQ_EQ(d[i], crypto_sig_verify(p, want, 64, msg, (unsigned int)mlen), -EBADMSG);
			free(msg);
			crypto_free_sig(s);
			crypto_free_sig(p);
		}
		rt_report("RFC 8032 7.1", d[i], (int)ARRAY_SIZE(rfc8032), 0);
	}
}
END_TEST

/* ---- Wycheproof ----------------------------------------------------------- */

START_TEST(test_wycheproof)
{
	json_t *root = rt_wp_load("ed25519_test.json"), *groups, *g, *tests, *t;
	drivers_t d;
	int n, i, f;
	size_t gi, ti;

	if (!root)
		return;
	n = impls(d);
	groups = json_object_get(root, "testGroups");
	for (i = 0; i < n; i++) {
		int ran = 0, valid = 0, invalid = 0, keys = 0;

		json_array_foreach(groups, gi, g) {
			struct crypto_sig *tfm[4];
			json_t *pk = json_object_get(g, "publicKey");
			size_t len;
			u8 *raw = rt_wp_hex(pk, "pk", &len), *der;
			const char *pem = json_string_value(json_object_get(g, "publicKeyPem"));
			char *jwk = json_dumps(json_object_get(g, "publicKeyJwk"), JSON_COMPACT);
			size_t derlen;

			der = rt_wp_hex(g, "publicKeyDer", &derlen);
			ck_assert_ptr_nonnull(pem);
			ck_assert_ptr_nonnull(jwk);
			for (f = 0; f < 4; f++)
				tfm[f] = alloc_drv(d[i]);
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(tfm[0], raw, (unsigned int)len), 0);
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(tfm[1], der, (unsigned int)derlen), 0);
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(tfm[2], pem, (unsigned int)strlen(pem)), 0);
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(tfm[3], jwk, (unsigned int)strlen(jwk)), 0);
			for (f = 1; f < 4; f++) {
				u8 got[32];

				RT_REQ_EQ(d[i], crypto_sig_export_pubkey(tfm[f], RIND_KEY_RAW, got, 32), 32);
				rt_check_eq(d[i], "encoded Wycheproof key", got, raw, 32);
			}
			keys += 4;
			tests = json_object_get(g, "tests");
			json_array_foreach(tests, ti, t) {
				int tc = (int)json_integer_value(json_object_get(t, "tcId"));
				int result = rt_wp_result(t);
				size_t mlen, slen;
				u8 *msg = rt_wp_hex(t, "msg", &mlen);
				u8 *sig = rt_wp_hex(t, "sig", &slen);

				ck_assert_int_ge(result, 0);	/* the file has no "acceptable" */
				for (f = 0; f < 4; f++) {
					int err = crypto_sig_verify(tfm[f], sig, (unsigned int)slen, msg,
								    (unsigned int)mlen);

					if (result ? err != 0 : err != -EBADMSG)
						ck_abort_msg("%s: ed25519_test.json tcId %d (%s, key form %d): %d",
							     d[i], tc, result ? "valid" : "invalid", f, err);
				}
				if (result)
					valid++;
				else
					invalid++;
				ran++;
				free(msg);
				free(sig);
			}
			for (f = 0; f < 4; f++)
				crypto_free_sig(tfm[f]);
			free(raw);
			free(der);
			free(jwk);
		}
		rt_report("ed25519_test.json", d[i], ran, 0);
		printf("  %s: %d valid verified, %d invalid refused, each under the group key in 4 forms (raw, DER, PEM, JWK: %d keys)\n",
		       d[i], valid, invalid, keys);
	}
	json_decref(root);
}
END_TEST

/* ---- OpenSSL and libsodium ----------------------------------------------- */

static EVP_PKEY *ossl_key(const u8 seed[32])
{
	EVP_PKEY *p = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);

	ck_assert_ptr_nonnull(p);
	return p;
}

static void ossl_sign(EVP_PKEY *p, const u8 *msg, size_t len, u8 sig[64])
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	size_t slen = 64;

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(EVP_DigestSignInit(c, NULL, NULL, NULL, p), 1);
	ck_assert_int_eq(EVP_DigestSign(c, sig, &slen, msg, len), 1);
	ck_assert_uint_eq(slen, 64);
	EVP_MD_CTX_free(c);
}

static int ossl_verify(const u8 pub[32], const u8 *msg, size_t len, const u8 sig[64])
{
	EVP_PKEY *p = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pub, 32);
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	int ok;

	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(EVP_DigestVerifyInit(c, NULL, NULL, NULL, p), 1);
	ok = EVP_DigestVerify(c, sig, 64, msg, len) == 1;
	EVP_MD_CTX_free(c);
	EVP_PKEY_free(p);
	return ok;
}

START_TEST(test_openssl_signatures)
{
	drivers_t d;
	int n = impls(d), i, j;
	const int rounds = 200;

	for (i = 0; i < n; i++) {
		struct crypto_sig *s = alloc_drv(d[i]), *v = alloc_drv(d[i]);
		struct rt_rng rng;

		rt_rng_seed(&rng, 8032);
		for (j = 0; j < rounds; j++) {
			u8 seed[32], pub[32], opub[32], sig[64], osig[64], msg[300];
			size_t mlen = rt_rand_range(&rng, sizeof(msg) + 1), len = 32;
			EVP_PKEY *o;

			rt_fill(&rng, seed, 32);
			rt_fill(&rng, msg, mlen);
			o = ossl_key(seed);
			RT_REQ(d[i], EVP_PKEY_get_raw_public_key(o, opub, &len) == 1);
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(s, seed, 32), 0);
			RT_REQ_EQ(d[i], crypto_sig_export_pubkey(s, RIND_KEY_RAW, pub, 32), 32);
			rt_check_eq(d[i], "public key vs OpenSSL", pub, opub, 32);
			RT_REQ_EQ(d[i], crypto_sig_sign(s, msg, (unsigned int)mlen, sig, 64), 64);
			ossl_sign(o, msg, mlen, osig);
			rt_check_eq(d[i], "signature vs OpenSSL", sig, osig, 64);
			/* OpenSSL verifies rind's, rind verifies OpenSSL's. */
			RT_REQ(d[i], ossl_verify(pub, msg, mlen, sig));
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(v, opub, 32), 0);
			RT_REQ_EQ(d[i], crypto_sig_verify(v, osig, 64, msg, (unsigned int)mlen), 0);
			/* A corrupted signature or message: both refuse. */
			sig[rt_rand_range(&rng, 64)] ^= (u8)(1u << rt_rand_range(&rng, 8));
			RT_REQ_EQ(d[i], crypto_sig_verify(v, sig, 64, msg, (unsigned int)mlen), -EBADMSG);
			RT_REQ(d[i], !ossl_verify(pub, msg, mlen, sig));
			if (mlen) {
				msg[rt_rand_range(&rng, (u32)mlen)] ^= 1;
				RT_REQ_EQ(d[i], crypto_sig_verify(v, osig, 64, msg, (unsigned int)mlen), -EBADMSG);
			}
			EVP_PKEY_free(o);
		}
		crypto_free_sig(s);
		crypto_free_sig(v);
		rt_report("signatures against OpenSSL (both directions)", d[i], rounds, 0);
	}
}
END_TEST

START_TEST(test_libsodium_signatures)
{
	drivers_t d;
	int n = impls(d), i, j;
	const int rounds = 50;

	ck_assert_int_ge(sodium_init(), 0);
	for (i = 0; i < n; i++) {
		struct crypto_sig *s = alloc_drv(d[i]);
		struct rt_rng rng;

		rt_rng_seed(&rng, 0x50d1);
		for (j = 0; j < rounds; j++) {
			u8 seed[32], pk[32], sk[64], sig[64], ssig[64], msg[200];
			size_t mlen = rt_rand_range(&rng, sizeof(msg) + 1);

			rt_fill(&rng, seed, 32);
			rt_fill(&rng, msg, mlen);
			crypto_sign_seed_keypair(pk, sk, seed);
			crypto_sign_detached(ssig, NULL, msg, mlen, sk);
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(s, seed, 32), 0);
			RT_REQ_EQ(d[i], crypto_sig_sign(s, msg, (unsigned int)mlen, sig, 64), 64);
			rt_check_eq(d[i], "signature vs libsodium", sig, ssig, 64);
			RT_REQ_EQ(d[i], crypto_sign_verify_detached(sig, msg, mlen, pk), 0);
		}
		crypto_free_sig(s);
		rt_report("signatures against libsodium", d[i], rounds, 0);
	}
}
END_TEST

START_TEST(test_openssl_key_formats)
{
	drivers_t d;
	int n = impls(d), i, j, f;
	const int rounds = 10;

	for (i = 0; i < n; i++) {
		struct crypto_sig *s = alloc_drv(d[i]), *v = alloc_drv(d[i]);
		struct rt_rng rng;
		int count = 0;

		rt_rng_seed(&rng, 8410);
		for (j = 0; j < rounds; j++) {
			u8 seed[32], pub[32], got[32], enc[512], sig[64];
			static const u8 msg[] = "key formats";
			EVP_PKEY *o, *op;
			size_t olen;
			u8 *oenc;

			rt_fill(&rng, seed, 32);
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(s, seed, 32), 0);
			RT_REQ_EQ(d[i], crypto_sig_export_pubkey(s, RIND_KEY_RAW, pub, 32), 32);
			for (f = 0; f < 2; f++) {
				bool pem = f == 1;
				int r;

				/* rind -> OpenSSL */
				r = crypto_sig_export_privkey(s, pem ? RIND_KEY_PEM : RIND_KEY_PKCS8_DER,
							      enc, sizeof(enc));
				o = rt_ossl_read_raw(d[i], enc, r, true, pem, EVP_PKEY_ED25519, seed, 32);
				r = crypto_sig_export_pubkey(s, pem ? RIND_KEY_PEM : RIND_KEY_SPKI_DER,
							     enc, sizeof(enc));
				op = rt_ossl_read_raw(d[i], enc, r, false, pem, EVP_PKEY_ED25519, pub, 32);

				/* OpenSSL -> rind */
				oenc = rt_ossl_write(o, true, pem ? RT_OSSL_PEM : RT_OSSL_DER, &olen);
				RT_REQ_EQ(d[i], crypto_sig_set_privkey(v, oenc, (unsigned int)olen), 0);
				free(oenc);
				RT_REQ_EQ(d[i], crypto_sig_export_privkey(v, RIND_KEY_RAW, got, 32), 32);
				rt_check_eq(d[i], "private key written by OpenSSL", got, seed, 32);
				RT_REQ_EQ(d[i], crypto_sig_sign(v, msg, sizeof(msg), sig, 64), 64);
				oenc = rt_ossl_write(op, false, pem ? RT_OSSL_PEM : RT_OSSL_DER, &olen);
				RT_REQ_EQ(d[i], crypto_sig_set_pubkey(v, oenc, (unsigned int)olen), 0);
				free(oenc);
				RT_REQ_EQ(d[i], crypto_sig_verify(v, sig, 64, msg, sizeof(msg)), 0);
				EVP_PKEY_free(o);
				EVP_PKEY_free(op);
				count += 4;
			}
		}
		crypto_free_sig(s);
		crypto_free_sig(v);
		rt_report("key exports read by OpenSSL and back (PKCS#8/SPKI, DER and PEM)", d[i],
			  count, 0);
	}
}
END_TEST

/* ---- the verification policy --------------------------------------------- */

/* p = 2^255 - 19, little-endian */
static const u8 p_le[32] = {
	0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
};
static const u8 l_le[32] = {
	0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
};

/* a + b for 256-bit little-endian numbers */
static void add256(u8 out[32], const u8 a[32], const u8 b[32])
{
	unsigned int c = 0;

	for (int k = 0; k < 32; k++) {
		c += (unsigned int)a[k] + b[k];
		out[k] = (u8)c;
		c >>= 8;
	}
}

START_TEST(test_strictness)
{
	drivers_t d;
	int n = impls(d), i;

	for (i = 0; i < n; i++) {
		struct crypto_sig *s = alloc_drv(d[i]), *v = alloc_drv(d[i]);
		u8 seed[32], pub[32], sig[64], bad[64], key[32];
		static const u8 msg[] = "strict";
		int k;

		memset(seed, 0x11, 32);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(s, seed, 32), 0);
		RT_REQ_EQ(d[i], crypto_sig_export_pubkey(s, RIND_KEY_RAW, pub, 32), 32);
		RT_REQ_EQ(d[i], crypto_sig_sign(s, msg, sizeof(msg), sig, 64), 64);
		RT_REQ_EQ(d[i], crypto_sig_set_pubkey(v, pub, 32), 0);
		RT_REQ_EQ(d[i], crypto_sig_verify(v, sig, 64, msg, sizeof(msg)), 0);

		/* S + L: the same point equation, refused (malleability). */
		memcpy(bad, sig, 64);
		add256(bad + 32, sig + 32, l_le);
		RT_REQ_EQ(d[i], crypto_sig_verify(v, bad, 64, msg, sizeof(msg)), -EBADMSG);
		RT_REQ(d[i], !ossl_verify(pub, msg, sizeof(msg), bad));
		/* S = L exactly, S = 2^256 - 1 */
		memcpy(bad + 32, l_le, 32);
		RT_REQ_EQ(d[i], crypto_sig_verify(v, bad, 64, msg, sizeof(msg)), -EBADMSG);
		memset(bad + 32, 0xff, 32);
		RT_REQ_EQ(d[i], crypto_sig_verify(v, bad, 64, msg, sizeof(msg)), -EBADMSG);
		/* Wrong lengths: truncated, or with a byte of garbage. */
		RT_REQ_EQ(d[i], crypto_sig_verify(v, sig, 63, msg, sizeof(msg)), -EBADMSG);
		{
			u8 longer[65];

			memcpy(longer, sig, 64);
			longer[64] = 0;
			RT_REQ_EQ(d[i], crypto_sig_verify(v, longer, 65, msg, sizeof(msg)), -EBADMSG);
		}
		RT_REQ_EQ(d[i], crypto_sig_verify(v, sig, 0, msg, sizeof(msg)), -EBADMSG);

		/* Public keys: y >= p (non-canonical) and y not on the curve. */
		for (k = 0; k < 19; k++) {
			memcpy(key, p_le, 32);
			key[0] = (u8)(key[0] + k);	/* p, p + 1, ..., p + 18 */
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(v, key, 32), -EKEYREJECTED);
			key[31] |= 0x80;
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(v, key, 32), -EKEYREJECTED);
		}
		/* y = 1 with the sign bit: x = 0 and "negative", refused. */
		memset(key, 0, 32);
		key[0] = 1;
		key[31] = 0x80;
		RT_REQ_EQ(d[i], crypto_sig_set_pubkey(v, key, 32), -EKEYREJECTED);
		/* y = 2 is no point (x^2 would not be a square). */
		memset(key, 0, 32);
		key[0] = 2;
		RT_REQ_EQ(d[i], crypto_sig_set_pubkey(v, key, 32), -EKEYREJECTED);
		/* The refused keys left the previous key in place. */
		RT_REQ_EQ(d[i], crypto_sig_verify(v, sig, 64, msg, sizeof(msg)), 0);
		RT_REQ_EQ(d[i], crypto_sig_export_pubkey(v, RIND_KEY_RAW, key, 32), 32);
		RT_REQ(d[i], !memcmp(key, pub, 32));

		/*
		 * R = p + 1, a non-canonical encoding of the identity's y = 1
		 * (Wycheproof's InvalidEncoding cases cover R encodings whose S
		 * was recomputed to match).
		 */
		memset(bad, 0, 64);
		memcpy(bad, p_le, 32);
		bad[0] = (u8)(bad[0] + 1);
		RT_REQ_EQ(d[i], crypto_sig_verify(v, bad, 64, msg, sizeof(msg)), -EBADMSG);
		crypto_free_sig(s);
		crypto_free_sig(v);
	}
}
END_TEST

/* ---- rind's own behaviour ------------------------------------------------ */

START_TEST(test_generate_and_formats)
{
	static const enum rind_key_format privf[] = { RIND_KEY_RAW, RIND_KEY_PKCS8_DER, RIND_KEY_PEM, RIND_KEY_JWK };
	static const enum rind_key_format pubf[] = { RIND_KEY_RAW, RIND_KEY_SPKI_DER, RIND_KEY_PEM, RIND_KEY_JWK };
	drivers_t d;
	int n = impls(d), i;

	for (i = 0; i < n; i++) {
		struct crypto_sig *a = alloc_drv(d[i]), *b = alloc_drv(d[i]), *c = alloc_drv(d[i]);
		u8 pa[32], pb[32], buf[512], sig[64], got[32];
		static const u8 msg[] = "generated";
		size_t f;
		int r;

		RT_REQ_EQ(d[i], crypto_sig_generate_key(a), 0);
		RT_REQ_EQ(d[i], crypto_sig_generate_key(b), 0);
		RT_REQ_EQ(d[i], crypto_sig_export_pubkey(a, RIND_KEY_RAW, pa, 32), 32);
		RT_REQ_EQ(d[i], crypto_sig_export_pubkey(b, RIND_KEY_RAW, pb, 32), 32);
		RT_REQ(d[i], memcmp(pa, pb, 32) != 0);
		RT_REQ_EQ(d[i], crypto_sig_keysize(a), 256);
		RT_REQ_EQ(d[i], crypto_sig_maxsize(a), 64);
		RT_REQ_EQ(d[i], crypto_sig_sign(a, msg, sizeof(msg), sig, 64), 64);
		RT_REQ(d[i], ossl_verify(pa, msg, sizeof(msg), sig));
		RT_REQ_EQ(d[i], crypto_sig_verify(a, sig, 64, msg, sizeof(msg)), 0);
		RT_REQ_EQ(d[i], crypto_sig_verify(b, sig, 64, msg, sizeof(msg)), -EBADMSG);

		for (f = 0; f < ARRAY_SIZE(privf); f++) {
			r = crypto_sig_export_privkey(a, privf[f], buf, sizeof(buf));
			RT_REQ(d[i], r > 0);
			RT_REQ_EQ(d[i], crypto_sig_set_privkey(c, buf, (unsigned int)r), 0);
			RT_REQ_EQ(d[i], crypto_sig_export_pubkey(c, RIND_KEY_RAW, got, 32), 32);
			rt_check_eq(d[i], "private key round trip", got, pa, 32);
			RT_REQ_EQ(d[i], crypto_sig_export_privkey(a, privf[f], buf, (unsigned int)r - 1), -ENOSPC);
		}
		for (f = 0; f < ARRAY_SIZE(pubf); f++) {
			r = crypto_sig_export_pubkey(a, pubf[f], buf, sizeof(buf));
			RT_REQ(d[i], r > 0);
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(c, buf, (unsigned int)r), 0);
			RT_REQ_EQ(d[i], crypto_sig_verify(c, sig, 64, msg, sizeof(msg)), 0);
			RT_REQ_EQ(d[i], crypto_sig_export_pubkey(a, pubf[f], buf, (unsigned int)r - 1), -ENOSPC);
		}
		/* A public-key-only tfm cannot sign or export a private key. */
		RT_REQ_EQ(d[i], crypto_sig_sign(c, msg, sizeof(msg), sig, 64), -ENOKEY);
		RT_REQ_EQ(d[i], crypto_sig_export_privkey(c, RIND_KEY_RAW, buf, 32), -ENOKEY);
		RT_REQ_EQ(d[i], crypto_sig_export_privkey(a, RIND_KEY_SPKI_DER, buf, sizeof(buf)), -EINVAL);
		/* A JWK whose "x" does not belong to "d" is refused. */
		r = crypto_sig_export_privkey(a, RIND_KEY_JWK, buf, sizeof(buf) - 1);
		rt_jwk_break_x(d[i], buf, r);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(c, buf, (unsigned int)r), -EKEYREJECTED);
		/* An X25519 key is not an Ed25519 key. */
		{
			static const u8 x_spki[] = {
				0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00,
				1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
				21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
			};
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(c, x_spki, sizeof(x_spki)), -EKEYREJECTED);
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(c, x_spki, sizeof(x_spki) - 1), -EKEYREJECTED);
		}
		crypto_free_sig(a);
		crypto_free_sig(b);
		crypto_free_sig(c);
	}
}
END_TEST

START_TEST(test_batches)
{
	enum { NB = 41 };	/* several chunks of shared inversions, and a remainder */
	drivers_t d;
	int n = impls(d), i, j;

	for (i = 0; i < n; i++) {
		struct crypto_sig *s = alloc_drv(d[i]);
		struct sig_request reqs[NB];
		u8 msgs[NB][40], sigs[NB][64], one[64];

		RT_REQ_EQ(d[i], crypto_sig_generate_key(s), 0);
		for (j = 0; j < NB; j++) {
			memset(msgs[j], j, sizeof(msgs[j]));
			reqs[j] = (struct sig_request){ msgs[j], (unsigned int)j % 41, sigs[j], 64, 1 };
		}
		reqs[5].siglen = 63;	/* too small: that request alone fails */
		RT_REQ_EQ(d[i], crypto_sig_sign_batch(s, reqs, NB), -EINVAL);
		for (j = 0; j < NB; j++) {
			if (j == 5) {
				RT_REQ_EQ(d[i], reqs[j].err, -EINVAL);
				continue;
			}
			RT_REQ_EQ(d[i], reqs[j].err, 0);
			RT_REQ_EQ(d[i], reqs[j].siglen, 64);
			RT_REQ_EQ(d[i], crypto_sig_sign(s, msgs[j], (unsigned int)j % 41, one, 64), 64);
			rt_check_eq(d[i], "batch signature", sigs[j], one, 64);
		}
		reqs[5].siglen = 64;
		RT_REQ_EQ(d[i], crypto_sig_sign_batch(s, reqs, NB), 0);
		RT_REQ_EQ(d[i], crypto_sig_verify_batch(s, reqs, NB), 0);
		sigs[9][3] ^= 1;
		RT_REQ_EQ(d[i], crypto_sig_verify_batch(s, reqs, NB), -EBADMSG);
		for (j = 0; j < NB; j++)
			RT_REQ_EQ(d[i], reqs[j].err, j == 9 ? -EBADMSG : 0);
		RT_REQ_EQ(d[i], crypto_sig_sign_batch(s, reqs, 0), 0);
		/* A tfm without a private key: every request -ENOKEY. */
		{
			struct crypto_sig *v = alloc_drv(d[i]);
			u8 pub[32];

			RT_REQ_EQ(d[i], crypto_sig_export_pubkey(s, RIND_KEY_RAW, pub, 32), 32);
			RT_REQ_EQ(d[i], crypto_sig_set_pubkey(v, pub, 32), 0);
			RT_REQ_EQ(d[i], crypto_sig_sign_batch(v, reqs, 3), -ENOKEY);
			RT_REQ_EQ(d[i], reqs[2].err, -ENOKEY);
			crypto_free_sig(v);
		}
		crypto_free_sig(s);
	}
}
END_TEST

/*
 * crypto_sig_sign_batch against one-at-a-time signing, byte for byte: 1..70
 * requests of one length (the nonce and challenge hashes share SHA-512
 * passes: crypto_shash_finup_mb), of a few lengths interleaved, of all
 * different lengths, with a refused request or an empty message among
 * them; 64 of 1 KiB; and messages too long to be copied for the
 * multi-buffer challenge hash.
 */
#define BV_MAX	70

static int batch_vs_single(const char *drv, struct crypto_sig *s, struct rt_rng *rng, u8 *pool,
			   size_t slot, unsigned int nreq, int mode, unsigned int fixed)
{
	static const unsigned int few[3] = { 5, 128, 1000 };
	struct sig_request reqs[BV_MAX];
	u8 sigs[BV_MAX][64], one[64];
	unsigned int bad = nreq > 3 ? rt_rand_range(rng, nreq) : nreq;
	int checked = 0;

	for (unsigned int j = 0; j < nreq; j++) {
		unsigned int len;
		u8 *msg = pool + j * slot;

		if (mode == 0)
			len = fixed;
		else if (mode == 1)
			len = few[rt_rand_range(rng, 3)];
		else
			len = rt_rand_range(rng, 301);
		rt_fill(rng, msg, len);
		reqs[j] = (struct sig_request){ msg, len, sigs[j], 64, 0 };
		if (mode == 2 && j == 1)
			reqs[j] = (struct sig_request){ NULL, 0, sigs[j], 64, 0 };
	}
	if (bad < nreq)
		reqs[bad].siglen = 63;	/* refused alone */
	RT_REQ_EQ(drv, crypto_sig_sign_batch(s, reqs, nreq), bad < nreq ? -EINVAL : 0);
	for (unsigned int j = 0; j < nreq; j++) {
		if (j == bad) {
			RT_REQ_EQ(drv, reqs[j].err, -EINVAL);
			continue;
		}
		RT_REQ_EQ(drv, reqs[j].err, 0);
		RT_REQ_EQ(drv, reqs[j].siglen, 64);
		RT_REQ_EQ(drv, crypto_sig_sign(s, reqs[j].msg, reqs[j].msglen, one, 64), 64);
		if (memcmp(sigs[j], one, 64))
			ck_abort_msg("%s: batch of %u (mode %d), request %u (%u bytes): got %s",
				     drv, nreq, mode, j, reqs[j].msglen, rt_hex(sigs[j], 64));
		checked++;
	}
	return checked;
}

START_TEST(test_batch_vs_single)
{
	const size_t slot = 1024, big = 70000;
	drivers_t d;
	int n = impls(d);
	u8 *pool = malloc(BV_MAX * slot), *bigs = malloc(3 * big);
	struct rt_rng rng;

	ck_assert_ptr_nonnull(pool);
	ck_assert_ptr_nonnull(bigs);
	rt_rng_seed(&rng, 0xed5b);
	for (int i = 0; i < n; i++) {
		struct crypto_sig *s = alloc_drv(d[i]);
		int cases = 0;

		RT_REQ_EQ(d[i], crypto_sig_generate_key(s), 0);
		for (unsigned int nreq = 1; nreq <= BV_MAX; nreq++) {
			static const unsigned int lens[] = { 0, 1, 31, 63, 64, 95, 96, 111, 112, 200 };

			cases += batch_vs_single(d[i], s, &rng, pool, slot, nreq, 0,
						 lens[nreq % ARRAY_SIZE(lens)]);
			cases += batch_vs_single(d[i], s, &rng, pool, slot, nreq, 1 + nreq % 2, 0);
		}
		cases += batch_vs_single(d[i], s, &rng, pool, slot, 64, 0, 1024);
		{
			struct sig_request reqs[3];
			u8 sigs[3][64], one[64];

			for (int j = 0; j < 3; j++) {
				rt_fill(&rng, bigs + j * big, big);
				reqs[j] = (struct sig_request){ bigs + j * big, (unsigned int)big, sigs[j], 64, 0 };
			}
			RT_REQ_EQ(d[i], crypto_sig_sign_batch(s, reqs, 3), 0);
			for (int j = 0; j < 3; j++) {
				RT_REQ_EQ(d[i], crypto_sig_sign(s, bigs + j * big, (unsigned int)big, one, 64), 64);
				rt_check_eq(d[i], "batch signature of a long message", sigs[j], one, 64);
				cases++;
			}
		}
		rt_report("sign_batch vs single signatures", d[i], cases, 0);
		crypto_free_sig(s);
	}
	free(pool);
	free(bigs);
}
END_TEST

START_TEST(test_errors)
{
	drivers_t d;
	int n = impls(d), i;

	for (i = 0; i < n; i++) {
		struct crypto_sig *s = alloc_drv(d[i]);
		u8 k[32], sig[64], buf[128];
		int len;

		memset(k, 0x42, 32);
		RT_REQ_EQ(d[i], crypto_sig_sign(s, "m", 1, sig, 64), -ENOKEY);
		RT_REQ_EQ(d[i], crypto_sig_verify(s, sig, 64, "m", 1), -ENOKEY);
		RT_REQ_EQ(d[i], crypto_sig_export_pubkey(s, RIND_KEY_RAW, buf, 32), -ENOKEY);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(s, k, 31), -EINVAL);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(s, k, 33), -EINVAL);
		RT_REQ_EQ(d[i], crypto_sig_set_pubkey(s, k, 31), -EINVAL);
		RT_REQ_EQ(d[i], crypto_sig_set_keygen_bits(s, 256), -EOPNOTSUPP);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(s, k, 32), 0);
		RT_REQ_EQ(d[i], crypto_sig_sign(s, "m", 1, sig, 63), -EINVAL);
		len = crypto_sig_export_privkey(s, RIND_KEY_PKCS8_DER, buf, sizeof(buf));
		RT_REQ_EQ(d[i], len, 48);
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(s, buf, (unsigned int)len - 1), -EKEYREJECTED);
		buf[len] = 0;
		RT_REQ_EQ(d[i], crypto_sig_set_privkey(s, buf, (unsigned int)len + 1), -EKEYREJECTED);
		/* The key survived. */
		RT_REQ_EQ(d[i], crypto_sig_export_privkey(s, RIND_KEY_RAW, buf, 32), 32);
		RT_REQ(d[i], !memcmp(buf, k, 32));
		RT_REQ_EQ(d[i], crypto_sig_sign(s, "m", 1, sig, 64), 64);
		RT_REQ_EQ(d[i], crypto_sig_verify(s, sig, 64, "m", 1), 0);
		crypto_free_sig(s);
	}
}
END_TEST

START_TEST(test_oneshots)
{
	size_t j;

	for (j = 0; j < ARRAY_SIZE(rfc8032); j++) {
		u8 seed[32], pub[32], want[64], sig[64], got[32];
		size_t mlen;
		u8 *msg = rt_unhex_alloc(rfc8032[j].msg, &mlen);

		rt_unhex(seed, 32, rfc8032[j].seed);
		rt_unhex(pub, 32, rfc8032[j].pub);
		rt_unhex(want, 64, rfc8032[j].sig);
		ck_assert_int_eq(rind_ed25519_public_key(got, seed), 0);
		ck_assert_mem_eq(got, pub, 32);
		ck_assert_int_eq(rind_ed25519_sign(sig, msg, mlen, seed), 0);
		ck_assert_mem_eq(sig, want, 64);
		ck_assert_int_eq(rind_ed25519_verify(sig, msg, mlen, pub), 0);
		sig[40] ^= 1;
		ck_assert_int_eq(rind_ed25519_verify(sig, msg, mlen, pub), -EBADMSG);
		free(msg);
	}
	/* A public key that is no point verifies nothing. */
	{
		u8 bad[32] = { 2 }, sig[64] = { 0 };

		ck_assert_int_eq(rind_ed25519_verify(sig, "", 0, bad), -EBADMSG);
		ck_assert_int_eq(rind_ed25519_sign(NULL, "", 0, bad), -EINVAL);
	}
}
END_TEST

#if defined(__x86_64__)
/*
 * arch/x86/ed25519-sc-x86.c (the x86 driver's arithmetic modulo L)
 * against OpenSSL's BN_nnmod / BN_mod_mul and the portable
 * ed25519_sc_reduce / ed25519_sc_muladd, on the values where its three
 * folds and the final subtraction turn: 0, L - 1, L, L + 1, multiples
 * k L and k L - 1 (k up to 2^259), 2^n and 2^n - 1 for every n, all-ones,
 * then random 512-bit values; muladd with operands of 0, 1, L - 1, L,
 * 2^256 - 1 and random ones.
 */
#include <openssl/bn.h>
#include <rind/internal/util.h>
#include <crypto/ed25519.h>
#include "../arch/x86/ed25519-x86.h"

static void sc_bn_le(BIGNUM *a, u8 *out, int len)
{
	ck_assert_int_eq(BN_bn2lebinpad(a, out, len), len);
}

START_TEST(test_sc_x86)
{
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *l = BN_new(), *a = BN_new(), *b = BN_new(), *c = BN_new(), *r = BN_new();
	static const char *const lhex =
		"1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed";
	struct rt_rng rng;
	u8 in[64], got[32], ref[32], exp[32], x[32], y[32], z[32];
	int checked = 0, i, n;

	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_gt(BN_hex2bn(&l, lhex), 0);
	rt_rng_seed(&rng, 0x5c25519);
	for (i = 0; i < 3000; i++) {
		n = i % 512;
		if (i < 512) {		/* 2^n, 2^n - 1 alternately with k L, k L - 1 */
			BN_zero(a);
			BN_set_bit(a, n);
			if (i & 1)
				BN_sub_word(a, 1);
		} else if (i < 1024) {
			BN_zero(b);
			BN_set_bit(b, n % 260);
			BN_mul(a, l, b, ctx);
			if (i & 1)
				BN_sub_word(a, 1);
			else if (i & 2)
				BN_add_word(a, 1);
		} else if (i < 1030) {
			static const int sm[6] = { 0, -1, 0, 1, 0, 2 };

			if (i == 1024)
				BN_zero(a);
			else if (i == 1029) {	/* 2^512 - 1 */
				BN_zero(a);
				BN_set_bit(a, 512);
				BN_sub_word(a, 1);
			} else {
				BN_copy(a, l);
				if (sm[i - 1024] < 0)
					BN_sub_word(a, 1);
				else
					BN_add_word(a, (BN_ULONG)sm[i - 1024]);
			}
		} else {
			rt_fill(&rng, in, sizeof(in));
			if (rt_rand_range(&rng, 4) == 0)
				memset(in + rt_rand_range(&rng, 57), 0xff, 1 + rt_rand_range(&rng, 8));
			BN_lebin2bn(in, 64, a);
			BN_mask_bits(a, 512);
		}
		memset(in, 0, sizeof(in));
		ck_assert_int_le(BN_num_bits(a), 512);
		sc_bn_le(a, in, 64);
		ck_assert(BN_nnmod(r, a, l, ctx));
		sc_bn_le(r, exp, 32);
		ed25519_sc_reduce_x86(got, in);
		ed25519_sc_reduce(ref, in);
		ck_assert_msg(!memcmp(got, exp, 32), "ed25519_sc_reduce_x86: case %d", i);
		ck_assert(!memcmp(ref, exp, 32));
		checked++;
	}
	for (i = 0; i < 3000; i++) {
		BIGNUM *v[3] = { a, b, c };
		u8 *o[3] = { x, y, z };
		int j;

		for (j = 0; j < 3; j++) {
			switch (i < 216 ? (i / (j == 0 ? 1 : j == 1 ? 6 : 36)) % 6 : 6) {
			case 0: BN_zero(v[j]); break;
			case 1: BN_one(v[j]); break;
			case 2: BN_copy(v[j], l); BN_sub_word(v[j], 1); break;
			case 3: BN_copy(v[j], l); break;
			case 4: BN_zero(v[j]); BN_set_bit(v[j], 256); BN_sub_word(v[j], 1); break;
			default:
				rt_fill(&rng, o[j], 32);
				BN_lebin2bn(o[j], 32, v[j]);
				break;
			}
			sc_bn_le(v[j], o[j], 32);
		}
		ck_assert(BN_mul(r, a, b, ctx));
		ck_assert(BN_add(r, r, c));
		ck_assert(BN_nnmod(r, r, l, ctx));
		sc_bn_le(r, exp, 32);
		ed25519_sc_muladd_x86(got, x, y, z);
		ed25519_sc_muladd(ref, x, y, z);
		ck_assert_msg(!memcmp(got, exp, 32), "ed25519_sc_muladd_x86: case %d", i);
		ck_assert(!memcmp(ref, exp, 32));
		checked++;
	}
	printf("scalars mod L, x86 (reduce, muladd) vs BN and the portable ones: %d checks\n",
	       checked);
	BN_free(l);
	BN_free(a);
	BN_free(b);
	BN_free(c);
	BN_free(r);
	BN_CTX_free(ctx);
}
END_TEST
#endif

static Suite *ed25519_suite(void)
{
	Suite *s = suite_create("ed25519");
	TCase *tc = tcase_create("ed25519");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_rfc8032);
	tcase_add_test(tc, test_wycheproof);
	tcase_add_test(tc, test_openssl_signatures);
	tcase_add_test(tc, test_libsodium_signatures);
	tcase_add_test(tc, test_openssl_key_formats);
	tcase_add_test(tc, test_strictness);
	tcase_add_test(tc, test_generate_and_formats);
	tcase_add_test(tc, test_batches);
	tcase_add_test(tc, test_batch_vs_single);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_oneshots);
#if defined(__x86_64__)
	tcase_add_test(tc, test_sc_x86);
#endif
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(ed25519_suite)
