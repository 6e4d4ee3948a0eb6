// SPDX-License-Identifier: MIT
/*
 * Measuring probe (not built by make, nothing in the library links it):
 * rind's RSA against aws-lc's in one process, interleaved, so that the
 * loaded host's drift hits both alike.  Rows: whole PKCS#1 v1.5 SHA-256
 * signatures and verifications (crypto_sig_sign as ../shared/peers/bench.c
 * calls it, EVP_DigestSign likewise), and one CRT half's exponentiation
 * (m^dp mod p: rsa_engine_adx.exp_ct against BN_mod_exp_mont_consttime,
 * Montgomery forms aside, the same p, dp and base).
 *
 * One file, two translation units (rind's and OpenSSL's headers apart):
 *
 *   A=/work/shared/peers/aws-lc
 *   cc -O2 -DSIDE_AWSLC -I$A/include -c -o /tmp/peer-a.o bench/probes/rsa-peer.c
 *   cc -O2 -DSIDE_RIND -Iapi/include -c -o /tmp/peer-r.o bench/probes/rsa-peer.c
 *   cc -o /tmp/rsa-peer /tmp/peer-r.o /tmp/peer-a.o build/librind-internal.a \
 *      $A/lib/libcrypto.a -pthread
 *   /tmp/rsa-peer KEY.pem [rounds]       (a PKCS#8 PEM RSA key)
 *
 * Per call: TSC (rdtsc) and on-CPU time (CLOCK_THREAD_CPUTIME_ID); per
 * row: TSC minimum, on-CPU median, and aws-lc's over rind's (> 1: rind
 * faster).  Rounds alternate which library goes first.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct peer_key {
	uint8_t p[512], dp[512], base[512];
	size_t plen;
};

#ifdef SIDE_AWSLC
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

static EVP_PKEY *pk;
static EVP_MD_CTX *mctx;
static uint8_t a_sig_buf[1024];
static size_t a_sig_len;
static BIGNUM *bp, *bdp, *bb, *br;
static BN_MONT_CTX *mont;
static BN_CTX *bctx;

int a_sign(const uint8_t *msg, size_t len)
{
	EVP_PKEY_CTX *pctx = NULL;
	uint8_t sig[1024];
	size_t l = sizeof(sig);

	if (!EVP_MD_CTX_reset(mctx) || EVP_DigestSignInit(mctx, &pctx, EVP_sha256(), NULL, pk) <= 0)
		return 0;
	if (EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) <= 0)
		return 0;
	if (EVP_DigestSign(mctx, sig, &l, msg, len) <= 0)
		return 0;
	memcpy(a_sig_buf, sig, l);
	a_sig_len = l;
	return 1;
}

int a_verify(const uint8_t *msg, size_t len)
{
	EVP_PKEY_CTX *pctx = NULL;

	if (!EVP_MD_CTX_reset(mctx) || EVP_DigestVerifyInit(mctx, &pctx, EVP_sha256(), NULL, pk) <= 0)
		return 0;
	if (EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) <= 0)
		return 0;
	return EVP_DigestVerify(mctx, a_sig_buf, a_sig_len, msg, len) == 1;
}

const uint8_t *a_sig(size_t *len)
{
	*len = a_sig_len;
	return a_sig_buf;
}

int a_exp(void)
{
	return BN_mod_exp_mont_consttime(br, bb, bdp, bp, bctx, mont);
}

int a_load(const char *path, struct peer_key *k)
{
	FILE *f = fopen(path, "r");
	const BIGNUM *p, *q, *dp, *dq, *qi;
	const RSA *rsa;

	if (!f)
		return 0;
	pk = PEM_read_PrivateKey(f, NULL, NULL, NULL);
	fclose(f);
	if (!pk)
		return 0;
	mctx = EVP_MD_CTX_new();
	rsa = EVP_PKEY_get0_RSA(pk);
	RSA_get0_factors(rsa, &p, &q);
	RSA_get0_crt_params(rsa, &dp, &dq, &qi);
	k->plen = BN_num_bytes(p);
	BN_bn2bin_padded(k->p, k->plen, p);
	BN_bn2bin_padded(k->dp, k->plen, dp);
	bctx = BN_CTX_new();
	bp = BN_dup(p);
	bdp = BN_dup(dp);
	bb = BN_new();
	br = BN_new();
	BN_rand_range(bb, bp);
	BN_bn2bin_padded(k->base, k->plen, bb);
	mont = BN_MONT_CTX_new_for_modulus(bp, bctx);
	return mont != NULL;
}
#endif

#ifdef SIDE_RIND
#include <x86intrin.h>
#include <rind/crypto.h>
#include <rind/sig.h>
#include <crypto/bignum.h>
#include <crypto/rsa.h>
#include "../../arch/x86/bn-adx.h"
#include "../../arch/x86/bn-ifma.h"
#define PEER_MAXS 20000
#include "peer-timing.h"

int a_load(const char *path, struct peer_key *k);
int a_sign(const uint8_t *msg, size_t len);
int a_verify(const uint8_t *msg, size_t len);
const uint8_t *a_sig(size_t *len);
int a_exp(void);

static struct crypto_sig *priv, *pub;
static uint8_t msg[32] = "rind and aws-lc, one process....";
static struct bn_mont mp;
static u64 xb[BN_MAX_LIMBS], xe[BN_MAX_LIMBS], xr[BN_MAX_LIMBS];
static unsigned int xn;

static int r_sign(void)
{
	uint8_t sig[1024];

	return crypto_sig_sign(priv, msg, sizeof(msg), sig, sizeof(sig)) > 0;
}

static uint8_t r_sig_buf[1024];
static unsigned int r_sig_len;

static int r_verify(void)
{
	return crypto_sig_verify(pub, r_sig_buf, r_sig_len, msg, sizeof(msg)) == 0;
}

static int r_exp(void)
{
	rsa_engine_adx.exp_ct(xr, xb, xe, xn, &mp);
	return 1;
}

static int a_sign1(void) { return a_sign(msg, sizeof(msg)); }

/*
 * The batch rows: crypto_sig_sign_batch of nb different 32-byte messages
 * (on an IFMA CPU the -ifma drivers' lanes from RSA_IFMA_MB_MIN on)
 * against nb a_sign, per signature.  The lanes rows, for the break-even
 * size whatever the cutoff: one half's exponentiation of nb numbers in
 * lanes (rsa_engine_ifma.exp_ct_lanes, which takes any count 1..8)
 * against nb of the IFMA engine's single exp_ct (one half alone: a
 * single signature runs its two halves together, exp_ct2, so the
 * break-even of whole signatures is the "sign single" rows', with
 * PROBE_ALL=1 in the environment).
 */
static unsigned int nb;
static u64 lb[8][BN_MAX_LIMBS], lr[8][BN_MAX_LIMBS];

static int r_sign_batch(void)
{
	static uint8_t m[8][32], sg[8][1024];
	struct sig_request q[8];

	for (unsigned int j = 0; j < nb; j++) {
		memset(m[j], (int)j, 32);
		q[j] = (struct sig_request){ m[j], 32, sg[j], sizeof(sg[j]), 0 };
	}
	return crypto_sig_sign_batch(priv, q, nb) == 0;
}

static int a_signs(void)
{
	for (unsigned int j = 0; j < nb; j++)
		if (!a_sign(msg, sizeof(msg)))
			return 0;
	return 1;
}

static int r_signs(void)
{
	for (unsigned int j = 0; j < nb; j++)
		if (!r_sign())
			return 0;
	return 1;
}

static int r_exp_lanes(void)
{
	u64 *r[8];
	const u64 *a[8];

	for (unsigned int j = 0; j < nb; j++) {
		r[j] = lr[j];
		a[j] = lb[j];
	}
	rsa_engine_ifma.exp_ct_lanes(r, a, nb, xe, xn, &mp);
	return 1;
}

static int r_exp_singles(void)
{
	for (unsigned int j = 0; j < nb; j++)
		rsa_engine_ifma.exp_ct(lr[j], lb[j], xe, xn, &mp);
	return 1;
}
static int a_verify1(void) { return a_verify(msg, sizeof(msg)); }

static void row(const char *name, int (*fr)(void), int (*fa)(void), int rounds, int per)
{
	static struct peer_samples sr, sa;

	peer_pair(fr, fa, &sr, &sa, 3, rounds, per);
	printf("%-14s rind min %9.0f TSC med %8.1f us | aws-lc min %9.0f TSC med %8.1f us |"
	       " aws/rind min %.3f med %.3f\n", name, sr.tsc[0], sr.cpu[sr.k / 2] / 1e3,
	       sa.tsc[0], sa.cpu[sa.k / 2] / 1e3, sa.tsc[0] / sr.tsc[0],
	       sa.cpu[sa.k / 2] / sr.cpu[sr.k / 2]);
}

int main(int argc, char **argv)
{
	static struct peer_key k;
	uint8_t key[1 << 16];
	size_t kl;
	FILE *f;
	int rounds = argc > 2 ? atoi(argv[2]) : 20, l;
	const uint8_t *as;
	size_t al;

	if (argc < 2 || !(f = fopen(argv[1], "rb")))
		return 2;
	kl = fread(key, 1, sizeof(key), f);
	fclose(f);
	if (!a_load(argv[1], &k))
		return 3;
	priv = crypto_alloc_sig("pkcs1(rsa,sha256)", 0, 0);
	pub = crypto_alloc_sig("pkcs1(rsa,sha256)", 0, 0);
	if (IS_ERR_OR_NULL(priv) || crypto_sig_set_privkey(priv, key, (unsigned int)kl))
		return 4;
	{
		uint8_t spki[4096];
		int n = crypto_sig_export_pubkey(priv, RIND_KEY_SPKI_DER, spki, sizeof(spki));

		if (n <= 0 || crypto_sig_set_pubkey(pub, spki, (unsigned int)n))
			return 5;
	}
	l = crypto_sig_sign(priv, msg, sizeof(msg), r_sig_buf, sizeof(r_sig_buf));
	if (l <= 0)
		return 6;
	r_sig_len = (unsigned int)l;
	if (!a_sign(msg, sizeof(msg)))
		return 7;
	as = a_sig(&al);
	if (al != r_sig_len || memcmp(as, r_sig_buf, al)) {
		fprintf(stderr, "signatures differ\n");
		return 8;
	}
	printf("%s: %u-bit, driver %s\n", argv[1], r_sig_len * 8, crypto_sig_driver_name(priv));

	xn = bn_limbs((unsigned int)k.plen * 8);
	bn_from_be(xb, xn, k.p, k.plen);
	if (bn_mont_init(&mp, xb, xn))
		return 9;
	bn_from_be(xe, xn, k.dp, k.plen);
	bn_from_be(xb, xn, k.base, k.plen);
	bn_to_mont(xb, xb, &mp);

	row("sign", r_sign, a_sign1, rounds, 5);
	row("verify", r_verify, a_verify1, rounds, 20);
	row("exp(p half)", r_exp, a_exp, rounds, 5);
	for (nb = 1; nb <= 8; nb++) {
		char name[32];

		for (unsigned int j = 0; j < 8; j++) {
			memcpy(lb[j], xb, sizeof(xb));
			lb[j][0] ^= j;
		}
		if (nb == 8 || getenv("PROBE_ALL")) {
			snprintf(name, sizeof(name), "sign batch %u", nb);
			row(name, r_sign_batch, a_signs, rounds, 1);
		}
		if (getenv("PROBE_ALL")) {	/* "aws-lc" here: rind's crypto_sig_sign nb times */
			snprintf(name, sizeof(name), "sign single %u", nb);
			row(name, r_sign_batch, r_signs, rounds, 1);
		}
		/* "aws-lc" in these rows is rind's single exp_ct, nb times */
		snprintf(name, sizeof(name), "lanes %u", nb);
		row(name, r_exp_lanes, r_exp_singles, rounds, 1);
	}
	return 0;
}
#endif
