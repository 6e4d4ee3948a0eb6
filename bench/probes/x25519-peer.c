// SPDX-License-Identifier: MIT
/*
 * Measuring probe (not built by make, nothing in the library links it):
 * rind's X25519 and Ed25519 signing against aws-lc's in one process,
 * interleaved, so that the loaded host's drift hits both alike; and the
 * parts each operation is made of, to see where the cycles go.
 *
 * Rows (rind | aws-lc):
 *   x25519        crypto_kpp_compute_shared_secret as ../shared/peers/bench.c
 *                 calls it | EVP_PKEY_derive
 *   x25519 raw    the driver's ladder + inversion + product (no kpp glue) |
 *                 X25519()
 *   ladder        curve25519_ladder_mulx alone | -
 *   invert        fe_invert (fe25519_invert_limbs) | -
 *   base mul      curve25519_base_mulx (fixed base, inversion) |
 *                 X25519_public_from_private
 *   sign          crypto_sig_sign, 32-byte message | EVP_DigestSign
 *   sign raw      rind_ed25519_sign | ED25519_sign
 *   sha512 64+32  the registry's sha512 as ed_hash calls it, 32 + 32 +
 *                 32 bytes | SHA512 of 96 bytes
 *   sc_reduce     ed25519_sc_reduce, ed25519_sc_reduce_x86 | -
 *   sc_muladd     ed25519_sc_muladd, ed25519_sc_muladd_x86 | -
 *
 * One file, two translation units (rind's and OpenSSL's headers apart):
 *
 *   A=/work/shared/peers/aws-lc
 *   cc -O2 -DSIDE_AWSLC -I$A/include -c -o /tmp/xp-a.o bench/probes/x25519-peer.c
 *   cc -O2 -DSIDE_RIND -Iapi/include -c -o /tmp/xp-r.o bench/probes/x25519-peer.c
 *   cc -o /tmp/x25519-peer /tmp/xp-r.o /tmp/xp-a.o build/librind-internal.a \
 *      $A/lib/libcrypto.a -pthread
 *   taskset -c 1 /tmp/x25519-peer [rounds] [filter]
 *
 * Per call: TSC (rdtsc) and on-CPU time (CLOCK_THREAD_CPUTIME_ID); per
 * row: TSC minimum and median, on-CPU median, and aws-lc's over rind's
 * (> 1: rind faster).  Rounds alternate which library goes first.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef SIDE_AWSLC
#include <openssl/curve25519.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

static EVP_PKEY_CTX *dctx;
static EVP_PKEY *edk;
static EVP_MD_CTX *mctx;
static uint8_t x_priv[32], x_pub[32], x_peer[32], ed_pub[32], ed_priv[64];

int a_init(uint8_t peer_pub[32], uint8_t my_pub[32], uint8_t my_priv[32], uint8_t ed_seed[32])
{
	EVP_PKEY *a, *b;
	uint8_t t[32];

	X25519_keypair(x_pub, x_priv);
	X25519_keypair(x_peer, t);
	memcpy(peer_pub, x_peer, 32);
	memcpy(my_pub, x_pub, 32);
	memcpy(my_priv, x_priv, 32);
	a = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, x_priv, 32);
	b = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, x_peer, 32);
	dctx = EVP_PKEY_CTX_new(a, NULL);
	if (!dctx || EVP_PKEY_derive_init(dctx) <= 0 || EVP_PKEY_derive_set_peer(dctx, b) <= 0)
		return 0;
	ED25519_keypair(ed_pub, ed_priv);
	memcpy(ed_seed, ed_priv, 32);
	edk = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, ed_seed, 32);
	mctx = EVP_MD_CTX_new();
	return edk && mctx;
}

int a_derive(uint8_t out[32])
{
	size_t l = 32;

	return EVP_PKEY_derive(dctx, out, &l) > 0;
}

int a_x25519(uint8_t out[32])
{
	return X25519(out, x_priv, x_peer);
}

int a_base(uint8_t out[32])
{
	X25519_public_from_private(out, x_priv);
	return 1;
}

int a_sign(uint8_t sig[64], const uint8_t *msg, size_t len)
{
	size_t l = 64;

	if (!EVP_MD_CTX_reset(mctx) || EVP_DigestSignInit(mctx, NULL, NULL, NULL, edk) <= 0)
		return 0;
	return EVP_DigestSign(mctx, sig, &l, msg, len) > 0;
}

int a_sign_raw(uint8_t sig[64], const uint8_t *msg, size_t len)
{
	return ED25519_sign(sig, msg, len, ed_priv);
}

int a_sha512(uint8_t out[64], const uint8_t *in, size_t len)
{
	SHA512(in, len, out);
	return 1;
}
#endif

#ifdef SIDE_RIND
#define PEER_MAXS 40000
#include "peer-timing.h"
#include <rind/crypto.h>
#include <rind/kpp.h>
#include <rind/sig.h>
#include <rind/hash.h>
#include <rind/internal/hash.h>
#include <crypto/curve25519.h>
#include <crypto/ed25519.h>
#include "../../arch/x86/fe25519-mulx.h"

int a_init(uint8_t peer_pub[32], uint8_t my_pub[32], uint8_t my_priv[32], uint8_t ed_seed[32]);
int a_derive(uint8_t out[32]);
int a_x25519(uint8_t out[32]);
int a_base(uint8_t out[32]);
int a_sign(uint8_t sig[64], const uint8_t *msg, size_t len);
int a_sign_raw(uint8_t sig[64], const uint8_t *msg, size_t len);
int a_sha512(uint8_t out[64], const uint8_t *in, size_t len);

void curve25519_ladder_mulx(u64 xz[8], const u8 k[32], const u64 x1[4]);
void curve25519_base_mulx(u8 out[32], const u8 scalar[32]);

static uint8_t peer_pub[32], my_pub[32], my_priv[32], ed_seed[32];
static uint8_t msg[32] = "rind and aws-lc, one process....";
static uint8_t in96[96];
static struct crypto_kpp *kpp;
static struct kpp_request *req;
static struct scatterlist sg_in, sg_out;
static uint8_t ss[32], ss_a[32];
static struct crypto_sig *sig_tfm;
static struct crypto_shash *sha;
static volatile uint64_t sink;

static int r_kpp(void)
{
	kpp_request_set_input(req, &sg_in, 32);
	kpp_request_set_output(req, &sg_out, 32);
	return crypto_kpp_compute_shared_secret(req) == 0;
}

static int r_raw(void)
{
	u8 k[32];
	u64 xz[8];
	fe x1, x2, z2;

	memcpy(k, my_priv, 32);
	curve25519_clamp_secret(k);
	fe_frombytes(&x1, peer_pub);
	curve25519_ladder_mulx(xz, k, x1.v);
	memcpy(x2.v, xz, 32);
	memcpy(z2.v, xz + 4, 32);
	fe_invert(&z2, &z2);
	fe_mul(&x2, &x2, &z2);
	fe_tobytes(ss, &x2);
	return 1;
}

static int r_ladder(void)
{
	u8 k[32];
	u64 xz[8];
	fe x1;

	memcpy(k, my_priv, 32);
	curve25519_clamp_secret(k);
	fe_frombytes(&x1, peer_pub);
	curve25519_ladder_mulx(xz, k, x1.v);
	sink = xz[0];
	return 1;
}

static fe inv_x;

static int r_invert(void)
{
	fe_invert(&inv_x, &inv_x);
	return 1;
}

static int r_base(void)
{
	u8 out[32];

	curve25519_base_mulx(out, my_priv);
	sink = out[0];
	return 1;
}

static int r_sign(void)
{
	u8 s[64];

	return crypto_sig_sign(sig_tfm, msg, sizeof(msg), s, sizeof(s)) == 64;
}

static int r_sign_raw(void)
{
	u8 s[64];

	return rind_ed25519_sign(s, msg, sizeof(msg), ed_seed) == 0;
}

static int r_sha512(void)
{
	SHASH_DESC_ON_STACK(desc, sha);
	u8 out[64];

	desc->tfm = sha;
	crypto_shash_init(desc);
	crypto_shash_update(desc, in96, 32);
	crypto_shash_update(desc, in96 + 32, 32);
	crypto_shash_update(desc, in96 + 64, 32);
	crypto_shash_final(desc, out);
	sink = out[0];
	return 1;
}

static int r_sc(void)
{
	u8 out[32];

	ed25519_sc_reduce(out, in96);
	sink = out[0];
	return 1;
}

void ed25519_sc_reduce_x86(u8 out[32], const u8 in[64]);
void ed25519_sc_muladd_x86(u8 out[32], const u8 a[32], const u8 b[32], const u8 c[32]);

static int r_sc86(void)
{
	u8 out[32];

	ed25519_sc_reduce_x86(out, in96);
	sink = out[0];
	return 1;
}

static int r_ma(void)
{
	u8 out[32];

	ed25519_sc_muladd(out, in96, in96 + 32, in96 + 64);
	sink = out[0];
	return 1;
}

static int r_ma86(void)
{
	u8 out[32];

	ed25519_sc_muladd_x86(out, in96, in96 + 32, in96 + 64);
	sink = out[0];
	return 1;
}

static int a_derive1(void) { return a_derive(ss_a); }
static int a_x1(void) { return a_x25519(ss_a); }
static int a_base1(void) { u8 o[32]; return a_base(o); }
static int a_sign1(void) { u8 s[64]; return a_sign(s, msg, sizeof(msg)); }
static int a_sign_raw1(void) { u8 s[64]; return a_sign_raw(s, msg, sizeof(msg)); }
static int a_sha1(void) { u8 o[64]; return a_sha512(o, in96, 96); }
static int nothing(void) { return 1; }

static const char *filter;

static void row(const char *name, int (*fr)(void), int (*fa)(void), int rounds, int per)
{
	static struct peer_samples sr, sa;

	if (filter && !strstr(name, filter))
		return;
	peer_pair(fr, fa, &sr, &sa, 3, rounds, per);
	if (fa == nothing)
		printf("%-14s rind min %7.0f med %7.0f TSC (%6.1f us)\n", name, sr.tsc[0],
		       sr.tsc[sr.k / 2], sr.cpu[sr.k / 2] / 1e3);
	else
		printf("%-14s rind min %7.0f med %7.0f TSC (%6.1f us) | aws-lc min %7.0f med %7.0f"
		       " TSC (%6.1f us) | aws/rind min %.3f med %.3f\n", name, sr.tsc[0],
		       sr.tsc[sr.k / 2], sr.cpu[sr.k / 2] / 1e3, sa.tsc[0], sa.tsc[sa.k / 2],
		       sa.cpu[sa.k / 2] / 1e3, sa.tsc[0] / sr.tsc[0],
		       sa.tsc[sa.k / 2] / sr.tsc[sr.k / 2]);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 40;
	u8 s1[64], s2[64];
	int i;

	filter = argc > 2 ? argv[2] : NULL;
	if (!a_init(peer_pub, my_pub, my_priv, ed_seed))
		return 3;
	for (i = 0; i < 96; i++)
		in96[i] = (u8)(i * 37 + 1);
	kpp = crypto_alloc_kpp("curve25519", 0, 0);
	if (IS_ERR_OR_NULL(kpp) || crypto_kpp_set_secret(kpp, my_priv, 32))
		return 4;
	req = kpp_request_alloc(kpp, GFP_KERNEL);
	kpp_request_set_callback(req, 0, NULL, NULL);
	sg_init_one(&sg_in, peer_pub, 32);
	sg_init_one(&sg_out, ss, 32);
	sig_tfm = crypto_alloc_sig("ed25519", 0, 0);
	if (IS_ERR_OR_NULL(sig_tfm) || crypto_sig_set_privkey(sig_tfm, ed_seed, 32))
		return 5;
	sha = crypto_alloc_shash("sha512", 0, 0);
	if (IS_ERR_OR_NULL(sha))
		return 6;
	printf("drivers: %s, %s, %s\n", crypto_kpp_driver_name(kpp),
	       crypto_sig_driver_name(sig_tfm), crypto_shash_driver_name(sha));

	/* the outputs agree before anything is timed */
	if (!r_kpp() || !a_derive1() || memcmp(ss, ss_a, 32))
		return 7;
	memset(ss, 0, 32);
	if (!r_raw() || memcmp(ss, ss_a, 32))
		return 8;
	curve25519_base_mulx(s1, my_priv);
	if (memcmp(s1, my_pub, 32))
		return 9;
	if (!a_sign_raw(s2, msg, sizeof(msg)) ||
	    crypto_sig_sign(sig_tfm, msg, sizeof(msg), s1, 64) != 64 || memcmp(s1, s2, 64))
		return 10;
	if (rind_ed25519_sign(s1, msg, sizeof(msg), ed_seed) || memcmp(s1, s2, 64))
		return 11;
	memcpy(inv_x.v, in96, 32);

	row("x25519", r_kpp, a_derive1, rounds, 10);
	row("x25519 raw", r_raw, a_x1, rounds, 10);
	row("ladder", r_ladder, nothing, rounds, 10);
	row("invert", r_invert, nothing, rounds, 50);
	row("base mul", r_base, a_base1, rounds, 20);
	row("sign", r_sign, a_sign1, rounds, 20);
	row("sign raw", r_sign_raw, a_sign_raw1, rounds, 20);
	row("sha512 96", r_sha512, a_sha1, rounds, 100);
	row("sc_reduce", r_sc, nothing, rounds, 100);
	row("sc_reduce x86", r_sc86, nothing, rounds, 100);
	row("sc_muladd", r_ma, nothing, rounds, 100);
	row("sc_muladd x86", r_ma86, nothing, rounds, 100);
	return 0;
}
#endif
