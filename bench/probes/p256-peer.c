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
 * signature); the fixed-base k G, the divsteps alone (10 batches of 60)
 * and the inversion modulo n beside aws-lc's inversion (a yardstick, not
 * the same work); the curve-level signature with a fixed nonce (.sign)
 * against ECDSA_do_sign (which also draws its nonce); and the public-API
 * rows as ../shared/peers/bench.c times them (the library's registered
 * driver: crypto_kpp_compute_shared_secret, crypto_sig_sign and
 * crypto_sig_verify of x962(ecdsa-nist-p256,sha256) on a 32-byte message
 * against EVP_PKEY_derive, EVP_DigestSign and EVP_DigestVerify).  A third
 * argument rind-only[-sign|-verify|-ecdh|-base] runs rind's side alone
 * (for perf record).
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
 * Rounds alternate which library goes first.  The harness is peer-ecc.h's.
 */
#include <stdint.h>

#define ECC_BYTES 32
#define ECC_NID NID_X9_62_prime256v1

void a_add(uint64_t *r, const uint64_t *a, const uint64_t *b);
void a_adda(uint64_t *r, const uint64_t *a, const uint64_t *b);
int a_api_init(void);
int a_api_ecdh(void);
int a_api_sign(void);
int a_api_verify(void);

#ifdef SIDE_AWSLC
#include <openssl/evp.h>

#define aws_mul ecp_nistz256_mul_mont
#define aws_sqr ecp_nistz256_sqr_mont
#define aws_dbl ecp_nistz256_point_double
#define aws_inv bignum_montinv_p256
#include "peer-ecc.h"

void ecp_nistz256_point_add(uint64_t *r, const uint64_t *a, const uint64_t *b);
void ecp_nistz256_point_add_affine(uint64_t *r, const uint64_t *a, const uint64_t *b);

void a_add(uint64_t *r, const uint64_t *a, const uint64_t *b) { ecp_nistz256_point_add(r, a, b); }
void a_adda(uint64_t *r, const uint64_t *a, const uint64_t *b) { ecp_nistz256_point_add_affine(r, a, b); }

/*
 * The public-API rows as ../shared/peers/bench.c times them: EVP_PKEY_derive
 * on a prepared context; EVP_DigestSign / EVP_DigestVerify of a 32-byte
 * message with SHA-256, the context re-initialised per call.
 */
static EVP_PKEY_CTX *dctx;
static EVP_MD_CTX *mctx;
static EVP_PKEY *epa;
static uint8_t msg[32], esig[128];
static size_t esiglen;

int a_api_init(void)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, NULL);
	EVP_PKEY *epb = NULL;

	if (!c || EVP_PKEY_keygen_init(c) <= 0 ||
	    EVP_PKEY_CTX_set_ec_paramgen_curve_nid(c, NID_X9_62_prime256v1) <= 0 ||
	    EVP_PKEY_keygen(c, &epa) <= 0 || EVP_PKEY_keygen(c, &epb) <= 0)
		return 0;
	EVP_PKEY_CTX_free(c);
	dctx = EVP_PKEY_CTX_new(epa, NULL);
	if (!dctx || EVP_PKEY_derive_init(dctx) <= 0 || EVP_PKEY_derive_set_peer(dctx, epb) <= 0)
		return 0;
	mctx = EVP_MD_CTX_new();
	memset(msg, 0x33, sizeof(msg));
	esiglen = sizeof(esig);
	if (!mctx || EVP_DigestSignInit(mctx, NULL, EVP_sha256(), NULL, epa) <= 0 ||
	    EVP_DigestSign(mctx, esig, &esiglen, msg, 32) <= 0)
		return 0;
	return 1;
}

int a_api_ecdh(void)
{
	uint8_t ss[64];
	size_t l = sizeof(ss);

	return EVP_PKEY_derive(dctx, ss, &l) > 0;
}

int a_api_sign(void)
{
	uint8_t sg[128];
	size_t l = sizeof(sg);

	if (!EVP_MD_CTX_reset(mctx) || EVP_DigestSignInit(mctx, NULL, EVP_sha256(), NULL, epa) <= 0)
		return 0;
	return EVP_DigestSign(mctx, sg, &l, msg, 32) > 0;
}

int a_api_verify(void)
{
	if (!EVP_MD_CTX_reset(mctx) || EVP_DigestVerifyInit(mctx, NULL, EVP_sha256(), NULL, epa) <= 0)
		return 0;
	return EVP_DigestVerify(mctx, esig, esiglen, msg, 32) == 1;
}
#endif

#ifdef SIDE_RIND
#include <rind/crypto.h>
/* the probe's copy of the driver registers nothing: the library's own is the API rows' */
#include <rind/internal/alg.h>
#undef module_init
#define module_init(fn) static rind_initcall_t __probe_unused_##fn __attribute__((unused)) = fn
/* the driver whole, its exported curve (peer-ecc.h's probe_curve) and registration renamed away */
#define ecc_p256_adx probe_curve
#define p256x_field_test probe_p256x_field_test
#define p256x_jac_dbl_test probe_p256x_jac_dbl_test
#define p256x_jac_dbln_test probe_p256x_jac_dbln_test
#define p256x_jac_add_test probe_p256x_jac_add_test
#define p256x_jac_add_affine_test probe_p256x_jac_add_affine_test
#include "../../arch/x86/ecc-p256-adx.c"

#define rind_mul p256x_mul
#define rind_sqr p256x_sqr
#define rind_dbl p256x_jac_dbl
#define rind_inv p256x_fp_inv
#define ecc_def p256_def
#include "peer-ecc.h"

static int r_dbl5(void) { for (int i = 0; i < REP / 4; i++) p256x_jac_dbl5(pa, pa); return 1; }
static int x_dbl5(void) { for (int i = 0; i < 5 * REP / 4; i++) a_dbl(pa, pa); return 1; }
static int r_add(void) { for (int i = 0; i < REP; i++) p256x_jac_add(pc, pc, pb); return 1; }
static int x_add(void) { for (int i = 0; i < REP; i++) a_add(pc, pc, pb); return 1; }
static int r_adda(void) { for (int i = 0; i < REP; i++) p256x_jac_add_affine(pc, pc, pb); return 1; }
static int x_adda(void) { for (int i = 0; i < REP; i++) a_adda(pc, pc, pb); return 1; }
static int r_addct(void) { for (int i = 0; i < REP; i++) jac_add_ct((struct ecc_pt *)pc, (struct ecc_pt *)pc, (struct ecc_pt *)pb, &p256_def); return 1; }
static int r_ptmul(void) { struct ecc_pt q, r; memcpy(&q, pa, sizeof(q)); p256x_pt_mul(&r, pk, &q); return 1; }
static int r_sel(void) { struct ecc_pt t[16], o; memset(t, 1, sizeof(t)); for (int i = 0; i < REP; i++) pt_select(&o, t, 16, i & 15, &p256_def); return o.x[0] == 0x0101010101010101ull; }
static int r_steps(void) { struct ecc_by_mat m; s64 z = -1; u64 f = fa[0] | 1, g = fa[1]; for (int i = 0; i < 10; i++) { z = ecc_x86_divsteps(z, f, g, &m); f += (u64)m.u; g ^= (u64)m.r; } fa[2] ^= f ^ g; return 1; }
static int r_ninv(void) { fe t; memcpy(t, fa, 32); t[3] &= 0x7fffffffffffffffull; p256x_inv_mod(fa, t, p256x_n, p256x_n[4]); return 1; }
static int r_ptbase(void) { struct ecc_pt r; fe k; memcpy(k, fa, 32); k[3] &= 0x7fffffffffffffffull; p256x_pt_mul_base(&r, k); fa[0] ^= r.x[0]; return 1; }

/* the fixed nonce of the curve-level signature */
static const uint8_t K[32] = { 0x5f, 0x11, 0x22, 0x33 };

/* The public-API rows (the library's registered driver, as ../shared/peers/bench.c) */
static struct crypto_kpp *kpa;
static struct kpp_request *kreq;
static struct scatterlist ksg_in, ksg_out;
static uint8_t kpeer[160], kss[160];
static unsigned int kpeerlen;
static struct crypto_sig *spriv, *spub;
static uint8_t rsig[128], rmsg[32];
static int rsiglen;

static int r_api_init(void)
{
	struct crypto_kpp *kpb = crypto_alloc_kpp("ecdh-nist-p256", 0, 0);
	struct kpp_request *q;
	struct scatterlist sg;
	uint8_t spki[256];
	int n;

	kpa = crypto_alloc_kpp("ecdh-nist-p256", 0, 0);
	if (IS_ERR(kpa) || IS_ERR(kpb) || crypto_kpp_set_secret(kpa, NULL, 0) ||
	    crypto_kpp_set_secret(kpb, NULL, 0))
		return 0;
	q = kpp_request_alloc(kpb, GFP_KERNEL);
	sg_init_one(&sg, kpeer, sizeof(kpeer));
	kpp_request_set_input(q, NULL, 0);
	kpp_request_set_output(q, &sg, sizeof(kpeer));
	kpp_request_set_callback(q, 0, NULL, NULL);
	if (crypto_kpp_generate_public_key(q))
		return 0;
	kpeerlen = q->dst_len;
	kpp_request_free(q);
	kreq = kpp_request_alloc(kpa, GFP_KERNEL);
	kpp_request_set_callback(kreq, 0, NULL, NULL);
	sg_init_one(&ksg_in, kpeer, kpeerlen);
	sg_init_one(&ksg_out, kss, sizeof(kss));
	spriv = crypto_alloc_sig("x962(ecdsa-nist-p256,sha256)", 0, 0);
	spub = crypto_alloc_sig("x962(ecdsa-nist-p256,sha256)", 0, 0);
	if (IS_ERR(spriv) || IS_ERR(spub) || crypto_sig_generate_key(spriv))
		return 0;
	n = crypto_sig_export_pubkey(spriv, RIND_KEY_SPKI_DER, spki, sizeof(spki));
	if (n <= 0 || crypto_sig_set_pubkey(spub, spki, (unsigned int)n))
		return 0;
	memset(rmsg, 0x33, sizeof(rmsg));
	rsiglen = crypto_sig_sign(spriv, rmsg, 32, rsig, sizeof(rsig));
	printf("drivers: %s, %s\n", crypto_kpp_driver_name(kpa), crypto_sig_driver_name(spriv));
	return rsiglen > 0;
}

static int r_api_ecdh(void)
{
	kpp_request_set_input(kreq, &ksg_in, kpeerlen);
	kpp_request_set_output(kreq, &ksg_out, sizeof(kss));
	return crypto_kpp_compute_shared_secret(kreq) == 0;
}

static int r_api_sign(void)
{
	uint8_t sg[128];

	return crypto_sig_sign(spriv, rmsg, 32, sg, sizeof(sg)) > 0;
}

/*
 * The batch rows: crypto_sig_sign_batch of NB different 32-byte messages
 * (the -mb driver's lanes from its batch_min on) against NB
 * a_api_sign; per signature (div NB).  "single xN" is rind's
 * crypto_sig_sign N times against the batch, for the break-even size.
 */
static unsigned int nb;

static int r_api_batch(void)
{
	static uint8_t m[64][32], sg[64][72];
	struct sig_request q[64];

	for (unsigned int j = 0; j < nb; j++) {
		memset(m[j], (int)j, 32);
		q[j] = (struct sig_request){ m[j], 32, sg[j], sizeof(sg[j]), 0 };
	}
	return crypto_sig_sign_batch(spriv, q, nb) == 0;
}

static int a_api_signs(void)
{
	for (unsigned int j = 0; j < nb; j++)
		if (!a_api_sign())
			return 0;
	return 1;
}

static int r_api_signs(void)
{
	uint8_t sg[72];

	for (unsigned int j = 0; j < nb; j++)
		if (crypto_sig_sign(spriv, rmsg, 32, sg, sizeof(sg)) <= 0)
			return 0;
	return 1;
}

static int r_api_verify(void)
{
	return crypto_sig_verify(spub, rsig, (unsigned int)rsiglen, rmsg, 32) == 0;
}

int main(int argc, char **argv)
{
	ecc_args(argc, argv);
	if (!a_keys(D, XY) || !a_ecdsa(32, E, R, S) || !ecc_setup(0x7f00ff00ff00ff00ull) ||
	    !ecc_verify_ok())
		return 1;
	if (!r_api_init() || !a_api_init() || !r_api_verify() || !a_api_verify()) {
		fprintf(stderr, "API setup failed\n");
		return 1;
	}
	if (argc > 3 && !strncmp(argv[3], "rind-only", 9))	/* for perf: rind alone */
		return ecc_rind_only(!strcmp(argv[3], "rind-only-sign") ? r_api_sign :
				     !strcmp(argv[3], "rind-only-verify") ? r_api_verify :
				     !strcmp(argv[3], "rind-only-ecdh") ? r_api_ecdh :
				     !strcmp(argv[3], "rind-only-base") ? r_ptbase : r_ecdh);
	row("fp mul", r_mul, x_mul, 200, REP);
	row("fp mul x2", r_mul2, x_mul2, 200, REP);
	row("fp sqr", r_sqr, x_sqr, 200, REP);
	row("pt dbl", r_dbl, x_dbl, 100, REP);
	row("pt dbl5 /1", r_dbl5, x_dbl5, 100, 5 * REP / 4);
	row("pt add", r_add, x_add, 100, REP);
	row("pt add aff", r_adda, x_adda, 100, REP);
	row("pt add ct", r_addct, x_add, 100, REP);
	row("pt select", r_sel, x_add, 100, REP);
	row("pt mul", r_ptmul, x_ecdh, 10, 1);
	row("fp inv", r_inv, x_inv, 50, 1);
	row("n inv", r_ninv, x_inv, 50, 1);
	row("inv steps", r_steps, x_inv, 50, 1);
	row("pt mul base", r_ptbase, x_sign, 10, 1);
	row("ECDH", r_ecdh, x_ecdh, 10, 1);
	ecc_ecdsa_rows(K);
	row("API ECDH", r_api_ecdh, a_api_ecdh, 10, 1);
	row("API sign", r_api_sign, a_api_sign, 10, 1);
	row("API verify", r_api_verify, a_api_verify, 10, 1);
	{
		static const unsigned int sizes[] = { 2, 3, 4, 5, 6, 8, 16, 64 };

		for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			char name[32];

			nb = sizes[i];
			snprintf(name, sizeof(name), "API batch %u", nb);
			row(name, r_api_batch, a_api_signs, 1, (int)nb);
			snprintf(name, sizeof(name), "API single %u", nb);
			/* "aws-lc" here is rind one at a time */
			row(name, r_api_batch, r_api_signs, 1, (int)nb);
		}
	}
	return 0;
}
#endif
