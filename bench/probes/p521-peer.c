// SPDX-License-Identifier: MIT
/*
 * Measuring probe (not built by make, nothing in the library links it):
 * the x86 P-521 driver (arch/x86/ecc-p521-adx.c, included whole so that
 * its static primitives can be timed) against aws-lc 5.5 (its P-521 code
 * being s2n-bignum's) in one process, interleaved call by call.  Rows:
 * the field product and squaring against bignum_mul_p521 / bignum_sqr_p521,
 * the point doubling against p521_jdouble (the same Jacobian layout: X, Y,
 * Z of nine words), the mixed addition (no aws-lc counterpart exported:
 * timed against one p521_jdouble), the inversion modulo p against
 * bignum_inv_p521, the scalar multiplication (the driver's k P over its
 * affine table against p521_jscalarmul) and the curve-level ECDH (the
 * driver's .ecdh against ECDH_compute_key on the same key and point), the
 * verification (.verify against ECDSA_do_verify) and the signature (.sign
 * from a given nonce against ECDSA_do_sign, which also makes its nonce).
 *
 * One file, two translation units (rind's and aws-lc's headers apart):
 *
 *   A=/work/shared/peers/aws-lc
 *   cc -O2 -DSIDE_AWSLC -I$A/include -c -o /tmp/p521-a.o bench/probes/p521-peer.c
 *   cc -O2 -DSIDE_RIND -D_GNU_SOURCE -Iapi/include -Iarch/x86 -c -o /tmp/p521-r.o \
 *      bench/probes/p521-peer.c
 *   cc -o /tmp/p521-peer /tmp/p521-r.o /tmp/p521-a.o build/librind-internal.a \
 *      $A/lib/libcrypto.a -pthread
 *   /tmp/p521-peer [rounds] [row-substring]
 *
 * Per call: TSC (rdtsc); per row: TSC minimum and median of each, and
 * aws-lc's over rind's (> 1: rind faster).  Calls alternate which library
 * goes first.
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

void bignum_mul_p521(uint64_t z[9], const uint64_t x[9], const uint64_t y[9]);
void bignum_sqr_p521(uint64_t z[9], const uint64_t x[9]);
void p521_jdouble(uint64_t p3[27], const uint64_t p1[27]);
void bignum_inv_p521(uint64_t z[9], const uint64_t x[9]);
void p521_jscalarmul(uint64_t res[27], const uint64_t scalar[9], const uint64_t point[27]);

static EC_KEY *ka, *kb;
static ECDSA_SIG *sig;
static uint8_t digest[64];

void a_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) { bignum_mul_p521(r, a, b); }
void a_sqr(uint64_t *r, const uint64_t *a) { bignum_sqr_p521(r, a); }
void a_dbl(uint64_t *r, const uint64_t *a) { p521_jdouble(r, a); }
void a_inv(uint64_t *r, const uint64_t *a) { bignum_inv_p521(r, a); }
void a_smul(uint64_t *r, const uint64_t *k, const uint64_t *p) { p521_jscalarmul(r, k, p); }

/* d: a's secret; xy: b's public point; e, r, s: b's signature of e */
int a_init(uint8_t d[66], uint8_t xy[132], uint8_t e[66], uint8_t r[66], uint8_t s[66])
{
	uint8_t pub[133];
	const BIGNUM *br, *bs;

	CRYPTO_library_init();
	ka = EC_KEY_new_by_curve_name(NID_secp521r1);
	kb = EC_KEY_new_by_curve_name(NID_secp521r1);
	if (!ka || !kb || !EC_KEY_generate_key(ka) || !EC_KEY_generate_key(kb))
		return 0;
	BN_bn2bin_padded(d, 66, EC_KEY_get0_private_key(ka));
	if (EC_POINT_point2oct(EC_KEY_get0_group(kb), EC_KEY_get0_public_key(kb),
			       POINT_CONVERSION_UNCOMPRESSED, pub, 133, NULL) != 133)
		return 0;
	memcpy(xy, pub + 1, 132);
	memset(digest, 0x5a, 64);
	memset(e, 0, 2);		/* bits2int: the 512-bit digest as a 66-byte number */
	memcpy(e + 2, digest, 64);
	sig = ECDSA_do_sign(digest, 64, kb);
	if (!sig)
		return 0;
	ECDSA_SIG_get0(sig, &br, &bs);
	BN_bn2bin_padded(r, 66, br);
	BN_bn2bin_padded(s, 66, bs);
	return 1;
}

int a_ecdh(uint8_t *out)
{
	return ECDH_compute_key(out, 66, EC_KEY_get0_public_key(kb), ka, NULL) == 66;
}

int a_verify(void)
{
	return ECDSA_do_verify(digest, 64, sig, kb) == 1;
}

int a_sign(void)
{
	ECDSA_SIG *t = ECDSA_do_sign(digest, 64, kb);

	ECDSA_SIG_free(t);
	return t != NULL;
}
#endif

#ifdef SIDE_RIND
#include <x86intrin.h>
/* the driver whole, its exported curve and test hook renamed away */
#define ecc_p521_adx probe_ecc_p521_adx
#define p521x_field_test probe_p521x_field_test
#include "../../arch/x86/ecc-p521-adx.c"

void a_mul(uint64_t *r, const uint64_t *a, const uint64_t *b);
void a_sqr(uint64_t *r, const uint64_t *a);
void a_dbl(uint64_t *r, const uint64_t *a);
void a_inv(uint64_t *r, const uint64_t *a);
void a_smul(uint64_t *r, const uint64_t *k, const uint64_t *p);
int a_init(uint8_t d[66], uint8_t xy[132], uint8_t e[66], uint8_t r[66], uint8_t s[66]);
int a_ecdh(uint8_t *out);
int a_verify(void);
int a_sign(void);

static uint8_t D[66], XY[132], E[66], R[66], S[66];
static u64 fa[9] = { 0x1234567890abcdefull, 0x0fedcba987654321ull, 0x5555aaaa5555aaaaull,
		     0x7fffffff12345678ull, 0x9999888877776666ull, 0x1111222233334444ull,
		     0xabcdefabcdef0123ull, 0x3333333344444444ull, 0x155 };
static u64 fb[9] = { 0x9999888877776666ull, 0x1111222233334444ull, 0xabcdefabcdef0123ull,
		     0x3333333344444444ull, 0x1234567890abcdefull, 0x0fedcba987654321ull,
		     0x5555aaaa5555aaaaull, 0x7fffffff12345678ull, 0x0aa };
static u64 pa[27], pb[27], pc[27], pk[9];
static uint8_t out[66];

#define REP 32	/* inner repetitions of the field rows */

static int r_mul(void) { for (int i = 0; i < REP; i++) p521x_mul(fa, fa, fb); return 1; }
static int x_mul(void) { for (int i = 0; i < REP; i++) a_mul(fa, fa, fb); return 1; }
static u64 fc[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
static int r_mul2(void) { for (int i = 0; i < REP; i++) { p521x_mul(fa, fa, fb); p521x_mul(fc, fc, fb); } return 1; }
static int x_mul2(void) { for (int i = 0; i < REP; i++) { a_mul(fa, fa, fb); a_mul(fc, fc, fb); } return 1; }
static int r_sqr2(void) { for (int i = 0; i < REP; i++) { p521x_sqr(fa, fa); p521x_sqr(fc, fc); } return 1; }
static int x_sqr2(void) { for (int i = 0; i < REP; i++) { a_sqr(fa, fa); a_sqr(fc, fc); } return 1; }
static int r_sqr(void) { for (int i = 0; i < REP; i++) p521x_sqr(fa, fa); return 1; }
static int x_sqr(void) { for (int i = 0; i < REP; i++) a_sqr(fa, fa); return 1; }
static int r_dbl(void) { for (int i = 0; i < REP; i++) p521x_jac_dbl(pa, pa); return 1; }
static int x_dbl(void) { for (int i = 0; i < REP; i++) a_dbl(pa, pa); return 1; }
static int r_adda(void)
{
	for (int i = 0; i < REP; i++)
		jac_add_affine_ct((struct ecc_pt *)pc, (struct ecc_pt *)pc,
				  (const struct ecc_aff *)pb, &p521x_def);
	return 1;
}
static int r_inv(void) { p521x_inv(fa, fa); return 1; }
static int x_inv(void) { a_inv(fa, fa); return 1; }
static int r_smul(void)
{
	struct ecc_pt r;

	ecc_x86_pt_mul_affine(&r, pk, (const struct ecc_pt *)pb, &p521x_def);
	return 1;
}
static int x_smul(void) { u64 r[27]; a_smul(r, pk, pb); return 1; }
static int r_ecdh(void) { return probe_ecc_p521_adx.ecdh(out, D, XY) == 0; }
static int x_ecdh(void) { return a_ecdh(out); }
static int r_verify(void) { return probe_ecc_p521_adx.verify(XY, E, R, S) == 0; }
static int x_verify(void) { return a_verify(); }
static uint8_t K[66] = { 0, 0x5a, 0x11, 0x22 }, SR[66], SS[66];
static int r_sign(void) { return probe_ecc_p521_adx.sign(SR, SS, D, K, E) == 0; }
static int x_sign(void) { return a_sign(); }

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#define MAXS 40000

struct stat1 {
	double tsc[MAXS];
	int k;
};

static void one(int (*f)(void), struct stat1 *s)
{
	u64 t0 = __rdtsc();

	if (!f()) {
		fprintf(stderr, "op failed\n");
		exit(1);
	}
	s->tsc[s->k++] = (double)(__rdtsc() - t0);
}

static struct stat1 sr, sa;

static void row(const char *name, int (*fr)(void), int (*fa_)(void), int rounds, int per,
		int div)
{
	double mr, ma, dr, da;
	int i, j;

	sr.k = sa.k = 0;
	for (i = 0; i < rounds; i++) {
		for (j = 0; j < per; j++) {
			if (j & 1) {
				one(fa_, &sa);
				one(fr, &sr);
			} else {
				one(fr, &sr);
				one(fa_, &sa);
			}
		}
	}
	qsort(sr.tsc, sr.k, sizeof(double), cmpd);
	qsort(sa.tsc, sa.k, sizeof(double), cmpd);
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
	uint8_t o2[66];

	if (!a_init(D, XY, E, R, S))
		return 1;
	/* G, and 2G (Jacobian), from the driver itself; a scalar below n */
	pt_base((struct ecc_pt *)pa, &p521x_def);
	memcpy(pb, pa, sizeof(pa));
	p521x_jac_dbl(pc, pa);
	memset(pk, 0x77, sizeof(pk));
	pk[8] = 0xff;
	if (!r_ecdh() || !a_ecdh(o2) || memcmp(out, o2, 66)) {
		fprintf(stderr, "ECDH outputs differ\n");
		return 1;
	}
	if (!r_verify() || !x_verify()) {
		fprintf(stderr, "verification failed (rind %d, aws-lc %d)\n", r_verify(), x_verify());
		return 1;
	}
	if (argc > 3 && !strcmp(argv[3], "rind-only")) {	/* for perf: rind's ECDH alone */
		for (int i = 0; i < rounds; i++)
			r_ecdh();
		return 0;
	}
#define ROW(n, r, a, per, div) if (strstr(n, only)) row(n, r, a, rounds, per, div)
	ROW("fp mul", r_mul, x_mul, 200, REP);
	ROW("fp mul x2", r_mul2, x_mul2, 200, 2 * REP);
	ROW("fp sqr", r_sqr, x_sqr, 200, REP);
	ROW("fp sqr x2", r_sqr2, x_sqr2, 200, 2 * REP);
	ROW("pt dbl", r_dbl, x_dbl, 100, REP);
	ROW("pt add aff", r_adda, x_dbl, 100, REP);
	ROW("fp inv", r_inv, x_inv, 50, 1);
	ROW("pt mul", r_smul, x_smul, 10, 1);
	ROW("ECDH", r_ecdh, x_ecdh, 10, 1);
	ROW("verify", r_verify, x_verify, 10, 1);
	ROW("sign", r_sign, x_sign, 10, 1);
	return 0;
}
#endif
