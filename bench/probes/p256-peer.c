// SPDX-License-Identifier: MIT
/*
 * Measuring probe (not built by make, nothing in the library links it):
 * the x86 P-256 driver (arch/x86/ecc-p256-adx.c, included whole so that
 * its static primitives can be timed) against aws-lc 5.5 in one process,
 * interleaved.  Rows: the field product and squaring against
 * ecp_nistz256_mul_mont / sqr_mont, the point doubling and the full and
 * mixed additions against ecp_nistz256_point_double / point_add /
 * point_add_affine (the same Jacobian layout: X, Y, Z of four words), the
 * inversion modulo p against bignum_montinv_p256, and the curve-level
 * ECDH (the driver's .ecdh against ECDH_compute_key on the same key and
 * point) and verification (.verify against ECDSA_do_verify on the same
 * signature).
 *
 * One file, two translation units (rind's and OpenSSL's headers apart):
 *
 *   A=/work/shared/peers/aws-lc
 *   cc -O2 -DSIDE_AWSLC -I$A/include -c -o /tmp/p256-a.o bench/probes/p256-peer.c
 *   cc -O2 -DSIDE_RIND -D_GNU_SOURCE -Iapi/include -Iarch/x86 -c -o /tmp/p256-r.o \
 *      bench/probes/p256-peer.c
 *   cc -o /tmp/p256-peer /tmp/p256-r.o /tmp/p256-a.o build/librind-internal.a \
 *      $A/lib/libcrypto.a -pthread
 *   /tmp/p256-peer [rounds] [row-substring]
 *
 * Per call: TSC (rdtsc; peer-timing.h also takes the on-CPU time, outside
 * the TSC window, which this probe does not print); per row: TSC minimum
 * and median of each, and aws-lc's over rind's (> 1: rind faster).
 * Rounds alternate which library goes first.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SIDE_AWSLC
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ec_key.h>
#include <openssl/ecdh.h>
#include <openssl/ecdsa.h>
#include <openssl/nid.h>
#include <openssl/crypto.h>

void ecp_nistz256_mul_mont(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void ecp_nistz256_sqr_mont(uint64_t r[4], const uint64_t a[4]);
void ecp_nistz256_point_double(uint64_t *r, const uint64_t *a);
void ecp_nistz256_point_add(uint64_t *r, const uint64_t *a, const uint64_t *b);
void ecp_nistz256_point_add_affine(uint64_t *r, const uint64_t *a, const uint64_t *b);
void bignum_montinv_p256(uint64_t z[4], const uint64_t x[4]);

static EC_KEY *ka, *kb;
static ECDSA_SIG *sig;
static uint8_t digest[32];

void a_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) { ecp_nistz256_mul_mont(r, a, b); }
void a_sqr(uint64_t *r, const uint64_t *a) { ecp_nistz256_sqr_mont(r, a); }
void a_dbl(uint64_t *r, const uint64_t *a) { ecp_nistz256_point_double(r, a); }
void a_add(uint64_t *r, const uint64_t *a, const uint64_t *b) { ecp_nistz256_point_add(r, a, b); }
void a_adda(uint64_t *r, const uint64_t *a, const uint64_t *b) { ecp_nistz256_point_add_affine(r, a, b); }
void a_inv(uint64_t *r, const uint64_t *a) { bignum_montinv_p256(r, a); }

/* d: a's secret; xy: b's public point; e, r, s: a's signature of e */
int a_init(uint8_t d[32], uint8_t xy[64], uint8_t e[32], uint8_t r[32], uint8_t s[32])
{
	uint8_t pub[65];
	const BIGNUM *br, *bs;

	CRYPTO_library_init();
	ka = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
	kb = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
	if (!ka || !kb || !EC_KEY_generate_key(ka) || !EC_KEY_generate_key(kb))
		return 0;
	BN_bn2bin_padded(d, 32, EC_KEY_get0_private_key(ka));
	if (EC_POINT_point2oct(EC_KEY_get0_group(kb), EC_KEY_get0_public_key(kb),
			       POINT_CONVERSION_UNCOMPRESSED, pub, 65, NULL) != 65)
		return 0;
	memcpy(xy, pub + 1, 64);
	memset(digest, 0x5a, 32);
	memcpy(e, digest, 32);
	sig = ECDSA_do_sign(digest, 32, kb);		/* verified against b's key */
	if (!sig)
		return 0;
	ECDSA_SIG_get0(sig, &br, &bs);
	BN_bn2bin_padded(r, 32, br);
	BN_bn2bin_padded(s, 32, bs);
	return 1;
}

int a_ecdh(uint8_t *out)
{
	return ECDH_compute_key(out, 32, EC_KEY_get0_public_key(kb), ka, NULL) == 32;
}

int a_verify(void)
{
	return ECDSA_do_verify(digest, 32, sig, kb) == 1;
}
#endif

#ifdef SIDE_RIND
#define PEER_MAXS 40000
#include "peer-timing.h"
/* the driver whole, its exported curve and registration renamed away */
#define ecc_p256_adx probe_ecc_p256_adx
#define p256x_field_test probe_p256x_field_test
#define p256x_jac_dbl_test probe_p256x_jac_dbl_test
#define p256x_jac_dbln_test probe_p256x_jac_dbln_test
#define p256x_jac_add_test probe_p256x_jac_add_test
#define p256x_jac_add_affine_test probe_p256x_jac_add_affine_test
#include "../../arch/x86/ecc-p256-adx.c"

void a_mul(uint64_t *r, const uint64_t *a, const uint64_t *b);
void a_sqr(uint64_t *r, const uint64_t *a);
void a_dbl(uint64_t *r, const uint64_t *a);
void a_add(uint64_t *r, const uint64_t *a, const uint64_t *b);
void a_adda(uint64_t *r, const uint64_t *a, const uint64_t *b);
void a_inv(uint64_t *r, const uint64_t *a);
int a_init(uint8_t d[32], uint8_t xy[64], uint8_t e[32], uint8_t r[32], uint8_t s[32]);
int a_ecdh(uint8_t *out);
int a_verify(void);

static uint8_t D[32], XY[64], E[32], R[32], S[32];
static u64 fa[4] = { 0x1234567890abcdefull, 0x0fedcba987654321ull, 0x5555aaaa5555aaaaull,
		     0x7fffffff12345678ull };
static u64 fb[4] = { 0x9999888877776666ull, 0x1111222233334444ull, 0xabcdefabcdef0123ull,
		     0x3333333344444444ull };
static u64 pa[12], pb[12], pc[12];
static uint8_t out[32];

#define REP 32	/* inner repetitions of the field rows */

static int r_mul(void) { for (int i = 0; i < REP; i++) p256x_mul(fa, fa, fb); return 1; }
static int x_mul(void) { for (int i = 0; i < REP; i++) a_mul(fa, fa, fb); return 1; }
static u64 fc[4] = { 1, 2, 3, 4 };
static int r_mul2(void) { for (int i = 0; i < REP; i++) { p256x_mul(fa, fa, fb); p256x_mul(fc, fc, fb); } return 1; }
static int x_mul2(void) { for (int i = 0; i < REP; i++) { a_mul(fa, fa, fb); a_mul(fc, fc, fb); } return 1; }
static int r_sqr(void) { for (int i = 0; i < REP; i++) p256x_sqr(fa, fa); return 1; }
static int x_sqr(void) { for (int i = 0; i < REP; i++) a_sqr(fa, fa); return 1; }
static int r_dbl(void) { for (int i = 0; i < REP; i++) p256x_jac_dbl(pa, pa); return 1; }
static int x_dbl(void) { for (int i = 0; i < REP; i++) a_dbl(pa, pa); return 1; }
static int r_dbl5(void) { for (int i = 0; i < REP / 4; i++) p256x_jac_dbl5(pa, pa); return 1; }
static int x_dbl5(void) { for (int i = 0; i < 5 * REP / 4; i++) a_dbl(pa, pa); return 1; }
static int r_add(void) { for (int i = 0; i < REP; i++) p256x_jac_add(pc, pc, pb); return 1; }
static int x_add(void) { for (int i = 0; i < REP; i++) a_add(pc, pc, pb); return 1; }
static int r_adda(void) { for (int i = 0; i < REP; i++) p256x_jac_add_affine(pc, pc, pb); return 1; }
static int x_adda(void) { for (int i = 0; i < REP; i++) a_adda(pc, pc, pb); return 1; }
static int r_addct(void) { for (int i = 0; i < REP; i++) jac_add_ct((struct ecc_pt *)pc, (struct ecc_pt *)pc, (struct ecc_pt *)pb, &p256_def); return 1; }
static int r_ptmul(void) { struct ecc_pt q, r; fe k; memcpy(&q, pa, sizeof(q)); memset(k, 0x77, sizeof(k)); k[3] = 0x7f00ff00ff00ff00ull; p256x_pt_mul(&r, k, &q); return 1; }
static int r_sel(void) { struct ecc_pt t[16], o; memset(t, 1, sizeof(t)); for (int i = 0; i < REP; i++) pt_select(&o, t, 16, i & 15, &p256_def); return o.x[0] == 0x0101010101010101ull; }
static int r_inv(void) { p256x_fp_inv(fa, fa); return 1; }
static int x_inv(void) { a_inv(fa, fa); return 1; }
static int r_ecdh(void) { return probe_ecc_p256_adx.ecdh(out, D, XY) == 0; }
static int x_ecdh(void) { return a_ecdh(out); }
static int r_verify(void) { return probe_ecc_p256_adx.verify(XY, E, R, S) == 0; }
static int x_verify(void) { return a_verify(); }

static struct peer_samples sr, sa;

static void row(const char *name, int (*fr)(void), int (*fa_)(void), int rounds, int per,
		int div)
{
	double mr, ma, dr, da;

	peer_pair(fr, fa_, &sr, &sa, 0, rounds, per);
	mr = sr.tsc[0] / div;
	ma = sa.tsc[0] / div;
	dr = sr.tsc[sr.k / 2] / div;
	da = sa.tsc[sa.k / 2] / div;
	printf("%-12s rind min %9.1f med %9.1f | aws-lc min %9.1f med %9.1f | aws/rind min %.3f med %.3f\n",
	       name, mr, dr, ma, da, ma / mr, da / dr);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	const char *only = argc > 2 ? argv[2] : "";
	u64 one_m[4];
	uint8_t o2[32];

	if (!a_init(D, XY, E, R, S))
		return 1;
	/* points in Montgomery form: G and 2G Jacobian from the driver itself */
	pt_base((struct ecc_pt *)pa, &p256_def);
	memcpy(pb, pa, sizeof(pa));
	p256x_jac_dbl(pc, pa);
	(void)one_m;
	if (!r_ecdh() || !a_ecdh(o2) || memcmp(out, o2, 32)) {
		fprintf(stderr, "ECDH outputs differ\n");
		return 1;
	}
	if (!r_verify() || !x_verify()) {
		fprintf(stderr, "verification failed\n");
		return 1;
	}
	if (argc > 3 && !strcmp(argv[3], "rind-only")) {	/* for perf: rind's ECDH alone */
		for (int i = 0; i < rounds; i++)
			r_ecdh();
		return 0;
	}
#define ROW(n, r, a, per, div) if (strstr(n, only)) row(n, r, a, rounds, per, div)
	ROW("fp mul", r_mul, x_mul, 200, REP);
	ROW("fp mul x2", r_mul2, x_mul2, 200, REP);
	ROW("fp sqr", r_sqr, x_sqr, 200, REP);
	ROW("pt dbl", r_dbl, x_dbl, 100, REP);
	ROW("pt dbl5 /1", r_dbl5, x_dbl5, 100, 5 * REP / 4);
	ROW("pt add", r_add, x_add, 100, REP);
	ROW("pt add aff", r_adda, x_adda, 100, REP);
	ROW("pt add ct", r_addct, x_add, 100, REP);
	ROW("pt select", r_sel, x_add, 100, REP);
	ROW("pt mul", r_ptmul, x_ecdh, 10, 1);
	ROW("fp inv", r_inv, x_inv, 50, 1);
	ROW("ECDH", r_ecdh, x_ecdh, 10, 1);
	ROW("verify", r_verify, x_verify, 10, 1);
	return 0;
}
#endif
