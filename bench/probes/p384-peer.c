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
 * faster).  Rounds alternate which library goes first.  "rind-only" runs
 * the driver's ECDH alone in a loop (for perf record).  The harness is
 * peer-ecc.h's.
 */
#include <stdint.h>

#define ECC_BYTES 48
#define ECC_NID NID_secp384r1

int a_derive_init(void);
int a_derive(uint8_t *out);

#ifdef SIDE_AWSLC
#include <openssl/evp.h>

#define aws_mul bignum_montmul_p384
#define aws_sqr bignum_montsqr_p384
#define aws_dbl p384_montjdouble
#define aws_inv bignum_montinv_p384
#define aws_smul p384_montjscalarmul
#include "peer-ecc.h"

static EVP_PKEY_CTX *dctx;

/* EVP_PKEY_derive of a_keys' two keys, on a prepared context */
int a_derive_init(void)
{
	EVP_PKEY *pa = EVP_PKEY_new(), *pb = EVP_PKEY_new();

	if (!pa || !pb || !EVP_PKEY_set1_EC_KEY(pa, ka) || !EVP_PKEY_set1_EC_KEY(pb, kb))
		return 0;
	dctx = EVP_PKEY_CTX_new(pa, NULL);
	return dctx && EVP_PKEY_derive_init(dctx) > 0 && EVP_PKEY_derive_set_peer(dctx, pb) > 0;
}

int a_derive(uint8_t *out)
{
	size_t l = 48;

	return EVP_PKEY_derive(dctx, out, &l) > 0 && l == 48;
}
#endif

#ifdef SIDE_RIND
#include <rind/crypto.h>
#include <rind/kpp.h>
/* the driver whole, its exported curve (peer-ecc.h's probe_curve) and test hooks renamed away */
#define ecc_p384_adx probe_curve
#define p384x_field_test probe_p384x_field_test
#define p384x_jac_dbl_test probe_p384x_jac_dbl_test
#define p384x_jac_add_affine_test probe_p384x_jac_add_affine_test
#include "../../arch/x86/ecc-p384-adx.c"

#define rind_mul p384x_mul
#define rind_sqr p384x_sqr
#define rind_dbl p384x_jac_dbl
#define rind_inv p384x_fp_inv
#define ecc_def p384_def
#include "peer-ecc.h"

static struct crypto_kpp *kpp;
static struct kpp_request *req;
static struct scatterlist sg_in, sg_out;
static uint8_t peer_in[97];

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
static int r_kpp(void)
{
	kpp_request_set_input(req, &sg_in, 97);
	kpp_request_set_output(req, &sg_out, 48);
	return crypto_kpp_compute_shared_secret(req) == 0;
}
static int x_kpp(void) { return a_derive(out_a); }

int main(int argc, char **argv)
{
	ecc_args(argc, argv);
	ecc_warm = 2;
	if (!a_keys(D, XY) || !a_derive_init() || !ecc_setup(0x7f00ff00ff00ff00ull))
		return 1;
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
	if (argc > 3 && !strcmp(argv[3], "rind-only"))	/* for perf: rind's ECDH alone */
		return ecc_rind_only(r_ecdh);
	ecc_chain_rows("fp mul", r_mul, x_mul, r_mul2, x_mul2);
	row("fp mul nored", r_mulnr, x_mul, 200, REP);
	ecc_chain_rows("fp sqr", r_sqr, x_sqr, r_sqr2, x_sqr2);
	ecc_point_rows();
	row("pt mul /bit", r_smul, x_smul, 10, 384);
	row("ECDH", r_ecdh, x_ecdh, 10, 1);
	row("kpp", r_kpp, x_kpp, 10, 1);
	return 0;
}
#endif
