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
 * Per call: TSC (rdtsc; peer-timing.h also takes the on-CPU time, outside
 * the TSC window, which this probe does not print); per row: TSC minimum
 * and median of each, and aws-lc's over rind's (> 1: rind faster).  Calls
 * alternate which library goes first.  The harness is peer-ecc.h's.
 */
#define ECC_BYTES 66
#define ECC_NID NID_secp521r1

#ifdef SIDE_AWSLC
#define aws_mul bignum_mul_p521
#define aws_sqr bignum_sqr_p521
#define aws_dbl p521_jdouble
#define aws_inv bignum_inv_p521
#define aws_smul p521_jscalarmul
#include "peer-ecc.h"
#endif

#ifdef SIDE_RIND
/* the driver whole, its exported curve (peer-ecc.h's probe_curve) and test hook renamed away */
#define ecc_p521_adx probe_curve
#define p521x_field_test probe_p521x_field_test
#include "../../arch/x86/ecc-p521-adx.c"

#define rind_mul p521x_mul
#define rind_sqr p521x_sqr
#define rind_dbl p521x_jac_dbl
#define rind_inv p521x_inv
#define ecc_def p521x_def
#include "peer-ecc.h"

static int r_adda(void)
{
	for (int i = 0; i < REP; i++)
		jac_add_affine_ct((struct ecc_pt *)pc, (struct ecc_pt *)pc,
				  (const struct ecc_aff *)pb, &p521x_def);
	return 1;
}

/* .sign's nonce, below n */
static const uint8_t K[66] = { 0, 0x5a, 0x11, 0x22 };

int main(int argc, char **argv)
{
	ecc_args(argc, argv);
	peer_alt_call = 1;	/* who goes first changes every pair */
	/* b signs a 512-bit digest, E is it as a 66-byte number */
	if (!a_keys(D, XY) || !a_ecdsa(64, E, R, S) || !ecc_setup(0xff) || !ecc_verify_ok())
		return 1;
	if (argc > 3 && !strcmp(argv[3], "rind-only"))	/* for perf: rind's ECDH alone */
		return ecc_rind_only(r_ecdh);
	ecc_chain_rows("fp mul", r_mul, x_mul, r_mul2, x_mul2);
	ecc_chain_rows("fp sqr", r_sqr, x_sqr, r_sqr2, x_sqr2);
	ecc_point_rows();
	row("ECDH", r_ecdh, x_ecdh, 10, 1);
	ecc_ecdsa_rows(K);
	return 0;
}
#endif
