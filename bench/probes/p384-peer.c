// SPDX-License-Identifier: MIT
/*
 * Measuring probe (not built by make, nothing in the library links it):
 * the x86 P-384 driver (arch/x86/ecc-p384-adx.c, included whole so that
 * its static primitives can be timed) against aws-lc 5.5 (its P-384 code
 * being s2n-bignum's) in one process, interleaved call by call.  Rows:
 * the field product and squaring against bignum_montmul_p384 /
 * montsqr_p384 (one chain, and two independent chains side by side), the
 * point doubling against p384_montjdouble (the same Jacobian layout: X,
 * Y, Z of six words in Montgomery form), the mixed addition (no aws-lc
 * counterpart exported: timed beside one p384_montjdouble), the inversion
 * modulo p against bignum_montinv_p384, the scalar multiplication (the
 * driver's k P over its affine table against p384_montjscalarmul), the
 * curve-level ECDH (the driver's .ecdh, which decodes and checks the
 * peer's point, against ECDH_compute_key on the same key and point) and
 * the same through the public API as ../shared/peers/bench.c calls it
 * (crypto_kpp_compute_shared_secret against EVP_PKEY_derive).  Two rows
 * of rind only, to see what bounds the product: "fp mul nored" is the
 * driver's product with its six reduction steps left out (wrong results,
 * the same operand traffic and final correction; timed against aws-lc's
 * whole product), and "pt mul /bit" is k P divided by 384.
 *
 * Measured 2026-12-02 07:00-07:30 UTC on the AMD EPYC (Zen 3) VM, load
 * 5-13 on 2 CPUs, TSC minima / medians, aws-lc over rind: product 87-90
 * against 87-89 (1.00x; two independent ones 77-79 against 84-86,
 * 1.08x), squaring 75-79 against 82-83 (1.05-1.09x), doubling 665-735
 * against 687-760 (1.03x), mixed addition 900-940, inversion 7.1k against
 * 5.3k (0.75x), k P 351-359k against 394-404k (1.12-1.13x), ECDH
 * 361-425k against 406-495k (1.12-1.17x min, 1.12-1.18x median), kpp
 * 368-418k against 414-466k (1.12x min, 1.17-1.19x median).  The
 * product without its reduction: 56-68 against 87-97 (also timed against
 * the whole product in one process: 56 against 91), i.e. the six
 * reduction steps are a third of it.  perf (cpu-clock) over the kpp path: product
 * 47%, squaring 31%, the doubling's linear steps 10%, inversions 4%, the
 * window loop and table reads 4%, glue < 1%.
 *
 * One file, two translation units (rind's and aws-lc's headers apart):
 *
 *   A=/work/shared/peers/aws-lc
 *   cc -O2 -DSIDE_AWSLC -I$A/include -c -o /tmp/p384-a.o bench/probes/p384-peer.c
 *   cc -O2 -DSIDE_RIND -D_GNU_SOURCE -Iapi/include -Iarch/x86 -c -o /tmp/p384-r.o \
 *      bench/probes/p384-peer.c
 *   cc -o /tmp/p384-peer /tmp/p384-r.o /tmp/p384-a.o build/librind-internal.a \
 *      $A/lib/libcrypto.a -pthread
 *   /tmp/p384-peer [rounds] [row-substring] [rind-only]
 *
 * Per call: TSC (rdtsc) and on-CPU time (peer-timing.h); per row: TSC
 * minimum and median of each, and aws-lc's over rind's (> 1: rind
 * faster).  Calls alternate which library goes first.  "rind-only" runs
 * the driver's ECDH alone in a loop (for perf record).
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
#include <openssl/evp.h>
#include <openssl/nid.h>
#include <openssl/crypto.h>

void bignum_montmul_p384(uint64_t z[6], const uint64_t x[6], const uint64_t y[6]);
void bignum_montsqr_p384(uint64_t z[6], const uint64_t x[6]);
void p384_montjdouble(uint64_t p3[18], const uint64_t p1[18]);
void bignum_montinv_p384(uint64_t z[6], const uint64_t x[6]);
void p384_montjscalarmul(uint64_t res[18], const uint64_t scalar[6], const uint64_t point[18]);

static EC_KEY *ka, *kb;
static EVP_PKEY_CTX *dctx;

void a_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) { bignum_montmul_p384(r, a, b); }
void a_sqr(uint64_t *r, const uint64_t *a) { bignum_montsqr_p384(r, a); }
void a_dbl(uint64_t *r, const uint64_t *a) { p384_montjdouble(r, a); }
void a_inv(uint64_t *r, const uint64_t *a) { bignum_montinv_p384(r, a); }
void a_smul(uint64_t *r, const uint64_t *k, const uint64_t *p) { p384_montjscalarmul(r, k, p); }

/* d: a's secret; xy: b's public point */
int a_init(uint8_t d[48], uint8_t xy[96])
{
	uint8_t pub[97];
	EVP_PKEY *pa, *pb;

	CRYPTO_library_init();
	ka = EC_KEY_new_by_curve_name(NID_secp384r1);
	kb = EC_KEY_new_by_curve_name(NID_secp384r1);
	if (!ka || !kb || !EC_KEY_generate_key(ka) || !EC_KEY_generate_key(kb))
		return 0;
	BN_bn2bin_padded(d, 48, EC_KEY_get0_private_key(ka));
	if (EC_POINT_point2oct(EC_KEY_get0_group(kb), EC_KEY_get0_public_key(kb),
			       POINT_CONVERSION_UNCOMPRESSED, pub, 97, NULL) != 97)
		return 0;
	memcpy(xy, pub + 1, 96);
	pa = EVP_PKEY_new();
	pb = EVP_PKEY_new();
	if (!pa || !pb || !EVP_PKEY_set1_EC_KEY(pa, ka) || !EVP_PKEY_set1_EC_KEY(pb, kb))
		return 0;
	dctx = EVP_PKEY_CTX_new(pa, NULL);
	return dctx && EVP_PKEY_derive_init(dctx) > 0 && EVP_PKEY_derive_set_peer(dctx, pb) > 0;
}

int a_ecdh(uint8_t *out)
{
	return ECDH_compute_key(out, 48, EC_KEY_get0_public_key(kb), ka, NULL) == 48;
}

int a_derive(uint8_t *out)
{
	size_t l = 48;

	return EVP_PKEY_derive(dctx, out, &l) > 0 && l == 48;
}
#endif

#ifdef SIDE_RIND
#define PEER_MAXS 40000
#include "peer-timing.h"
#include <rind/crypto.h>
#include <rind/kpp.h>
/* the driver whole, its exported curve and test hooks renamed away */
#define ecc_p384_adx probe_ecc_p384_adx
#define p384x_field_test probe_p384x_field_test
#define p384x_jac_dbl_test probe_p384x_jac_dbl_test
#define p384x_jac_add_affine_test probe_p384x_jac_add_affine_test
#include "../../arch/x86/ecc-p384-adx.c"

void a_mul(uint64_t *r, const uint64_t *a, const uint64_t *b);
void a_sqr(uint64_t *r, const uint64_t *a);
void a_dbl(uint64_t *r, const uint64_t *a);
void a_inv(uint64_t *r, const uint64_t *a);
void a_smul(uint64_t *r, const uint64_t *k, const uint64_t *p);
int a_init(uint8_t d[48], uint8_t xy[96]);
int a_ecdh(uint8_t *out);
int a_derive(uint8_t *out);

static uint8_t D[48], XY[96];
static u64 fa[6] = { 0x1234567890abcdefull, 0x0fedcba987654321ull, 0x5555aaaa5555aaaaull,
		     0x7fffffff12345678ull, 0x9999888877776666ull, 0x1111222233334444ull };
static u64 fb[6] = { 0x9999888877776666ull, 0x1111222233334444ull, 0xabcdefabcdef0123ull,
		     0x3333333344444444ull, 0x1234567890abcdefull, 0x0fedcba987654321ull };
static u64 fc[6] = { 1, 2, 3, 4, 5, 6 };
static u64 pa[18], pb[18], pc[18], pk[6];
static uint8_t out[48], out_a[48];
static struct crypto_kpp *kpp;
static struct kpp_request *req;
static struct scatterlist sg_in, sg_out;
static uint8_t peer_in[97];

#define REP 32	/* inner repetitions of the field and point rows */

static int r_mul(void) { for (int i = 0; i < REP; i++) p384x_mul(fa, fa, fb); return 1; }
static int x_mul(void) { for (int i = 0; i < REP; i++) a_mul(fa, fa, fb); return 1; }
static int r_mul2(void) { for (int i = 0; i < REP; i++) { p384x_mul(fa, fa, fb); p384x_mul(fc, fc, fb); } return 1; }
static int x_mul2(void) { for (int i = 0; i < REP; i++) { a_mul(fa, fa, fb); a_mul(fc, fc, fb); } return 1; }
static int r_sqr(void) { for (int i = 0; i < REP; i++) p384x_sqr(fa, fa); return 1; }
static int x_sqr(void) { for (int i = 0; i < REP; i++) a_sqr(fa, fa); return 1; }
static int r_sqr2(void) { for (int i = 0; i < REP; i++) { p384x_sqr(fa, fa); p384x_sqr(fc, fc); } return 1; }
static int x_sqr2(void) { for (int i = 0; i < REP; i++) { a_sqr(fa, fa); a_sqr(fc, fc); } return 1; }
static int r_dbl(void) { for (int i = 0; i < REP; i++) p384x_jac_dbl(pa, pa); return 1; }
static int x_dbl(void) { for (int i = 0; i < REP; i++) a_dbl(pa, pa); return 1; }
static int r_adda(void)
{
	u64 o[18];

	for (int i = 0; i < REP; i++) {
		p384x_jac_add_affine(o, pc, pb, pb + 6);
		memcpy(pc, o, sizeof(o));
	}
	return 1;
}
/* the product with its reduction steps left out: what the reduction costs */
#define P384X_NORED(T0, T1, T2, T3, T4, T5, T6, T7) "xorl %k[" T0 "], %k[" T0 "]\n\t"
static inline void p384x_mul_nored(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7;

	__asm__ volatile(P384X_MONT(P384X_NORED)
		: P384X_T8
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), [m] "m"(p384x_p)
		: "rax", "rcx", "rdx", "cc", "memory");
}
static u64 fn[6];
static int r_mulnr(void) { memcpy(fn, fa, sizeof(fn)); for (int i = 0; i < REP; i++) p384x_mul_nored(fn, fn, fb); return 1; }
static int r_inv(void) { p384x_fp_inv(fa, fa); return 1; }
static int x_inv(void) { a_inv(fa, fa); return 1; }
static int r_smul(void)
{
	struct ecc_pt r;

	ecc_x86_pt_mul_affine(&r, pk, (const struct ecc_pt *)pb, &p384_def);
	return 1;
}
static int x_smul(void) { u64 r[18]; a_smul(r, pk, pb); return 1; }
static int r_ecdh(void) { return probe_ecc_p384_adx.ecdh(out, D, XY) == 0; }
static int x_ecdh(void) { return a_ecdh(out_a); }
static int r_kpp(void)
{
	kpp_request_set_input(req, &sg_in, 97);
	kpp_request_set_output(req, &sg_out, 48);
	return crypto_kpp_compute_shared_secret(req) == 0;
}
static int x_kpp(void) { return a_derive(out_a); }

static struct peer_samples sr, sa;

static void row(const char *name, int (*fr)(void), int (*fa_)(void), int rounds, int per,
		int div)
{
	double mr, ma, dr, da;

	peer_pair(fr, fa_, &sr, &sa, 2, rounds, per);
	mr = sr.tsc[0] / div;
	ma = sa.tsc[0] / div;
	dr = sr.tsc[sr.k / 2] / div;
	da = sa.tsc[sa.k / 2] / div;
	printf("%-12s rind min %9.1f med %9.1f | aws-lc min %9.1f med %9.1f | aws/rind min %.3f med %.3f\n",
	       name, mr, dr, ma, da, ma / mr, da / dr);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	const char *only = argc > 2 ? argv[2] : "";

	if (!a_init(D, XY))
		return 1;
	/* G, and 2G (Jacobian, Montgomery form), from the driver itself; a scalar below n */
	pt_base((struct ecc_pt *)pa, &p384_def);
	memcpy(pb, pa, sizeof(pa));
	p384x_jac_dbl(pc, pa);
	memset(pk, 0x77, sizeof(pk));
	pk[5] = 0x7f00ff00ff00ff00ull;
	if (!r_ecdh() || !a_ecdh(out_a) || memcmp(out, out_a, 48)) {
		fprintf(stderr, "ECDH outputs differ\n");
		return 1;
	}
	kpp = crypto_alloc_kpp("ecdh-nist-p384", 0, 0);
	if (IS_ERR_OR_NULL(kpp) || crypto_kpp_set_secret(kpp, D, 48))
		return 2;
	req = kpp_request_alloc(kpp, GFP_KERNEL);
	kpp_request_set_callback(req, 0, NULL, NULL);
	peer_in[0] = 4;
	memcpy(peer_in + 1, XY, 96);
	sg_init_one(&sg_in, peer_in, 97);
	sg_init_one(&sg_out, out, 48);
	memset(out, 0, 48);
	if (!r_kpp() || !x_kpp() || memcmp(out, out_a, 48)) {
		fprintf(stderr, "kpp outputs differ (driver %s)\n", crypto_kpp_driver_name(kpp));
		return 3;
	}
	printf("driver: %s\n", crypto_kpp_driver_name(kpp));
	if (argc > 3 && !strcmp(argv[3], "rind-only")) {	/* for perf: rind's ECDH alone */
		for (int i = 0; i < rounds; i++)
			r_ecdh();
		return 0;
	}
#define ROW(n, r, a, per, div) if (strstr(n, only)) row(n, r, a, rounds, per, div)
	ROW("fp mul", r_mul, x_mul, 200, REP);
	ROW("fp mul x2", r_mul2, x_mul2, 200, 2 * REP);
	ROW("fp mul nored", r_mulnr, x_mul, 200, REP);
	ROW("fp sqr", r_sqr, x_sqr, 200, REP);
	ROW("fp sqr x2", r_sqr2, x_sqr2, 200, 2 * REP);
	ROW("pt dbl", r_dbl, x_dbl, 100, REP);
	ROW("pt add aff", r_adda, x_dbl, 100, REP);
	ROW("fp inv", r_inv, x_inv, 50, 1);
	ROW("pt mul", r_smul, x_smul, 10, 1);
	ROW("pt mul /bit", r_smul, x_smul, 10, 384);
	ROW("ECDH", r_ecdh, x_ecdh, 10, 1);
	ROW("kpp", r_kpp, x_kpp, 10, 1);
	return 0;
}
#endif
