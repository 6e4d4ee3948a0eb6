/* SPDX-License-Identifier: MIT */
/*
 * What the P-256, P-384 and P-521 peer probes share, on both sides: aws-lc's
 * keys, ECDH and ECDSA (SIDE_AWSLC), and rind's operands, the rows common to
 * the curves, the setup that checks both sides agree, and the row loop
 * (SIDE_RIND, over peer-timing.h).  The a_* functions are the probe's two
 * translation units meeting; both see their prototypes here.
 *
 * A probe defines before including it, on both sides, ECC_BYTES (a field
 * element's bytes) and ECC_NID (aws-lc's curve).  On aws-lc's side also
 * aws_mul, aws_sqr, aws_dbl and aws_inv, the aws-lc functions behind a_mul,
 * a_sqr, a_dbl and a_inv (and aws_smul behind a_smul where aws-lc exports a
 * scalar multiplication).  On rind's side, after the driver (included whole,
 * its struct ecc_curve renamed probe_curve): rind_mul, rind_sqr, rind_dbl
 * and rind_inv, the driver's field and point functions, and ecc_def, its
 * curve.  The drivers over the affine table (ecc-mul-affine.h) also get the
 * scalar multiplication and point rows, for which the probe defines r_adda.
 */
#ifndef RIND_PEER_ECC_H
#define RIND_PEER_ECC_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ECC_WORDS ((ECC_BYTES + 7) / 8)

int a_keys(uint8_t *d, uint8_t *xy);
int a_ecdsa(size_t dlen, uint8_t *e, uint8_t *r, uint8_t *s);
int a_ecdh(uint8_t *out);
int a_verify(void);
int a_sign(void);
void a_mul(uint64_t *r, const uint64_t *a, const uint64_t *b);
void a_sqr(uint64_t *r, const uint64_t *a);
void a_dbl(uint64_t *r, const uint64_t *a);
void a_inv(uint64_t *r, const uint64_t *a);
void a_smul(uint64_t *r, const uint64_t *k, const uint64_t *p);

#ifdef SIDE_AWSLC
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ec_key.h>
#include <openssl/ecdh.h>
#include <openssl/ecdsa.h>
#include <openssl/nid.h>

/* not in aws-lc's headers: declared here as the rows call them */
void aws_mul(uint64_t *z, const uint64_t *x, const uint64_t *y);
void aws_sqr(uint64_t *z, const uint64_t *x);
void aws_dbl(uint64_t *z, const uint64_t *x);
void aws_inv(uint64_t *z, const uint64_t *x);

void a_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) { aws_mul(r, a, b); }
void a_sqr(uint64_t *r, const uint64_t *a) { aws_sqr(r, a); }
void a_dbl(uint64_t *r, const uint64_t *a) { aws_dbl(r, a); }
void a_inv(uint64_t *r, const uint64_t *a) { aws_inv(r, a); }

#ifdef aws_smul
void aws_smul(uint64_t *z, const uint64_t *k, const uint64_t *p);
void a_smul(uint64_t *r, const uint64_t *k, const uint64_t *p) { aws_smul(r, k, p); }
#endif

static EC_KEY *ka, *kb;		/* a: ECDH's own key; b: the peer's, and the signer */
static ECDSA_SIG *sig;		/* b's signature of digest */
static uint8_t digest[64];
static size_t digest_len;

/* Two fresh keys: @d, a's secret; @xy, b's public point (x then y) */
int a_keys(uint8_t *d, uint8_t *xy)
{
	uint8_t pub[1 + 2 * ECC_BYTES];

	CRYPTO_library_init();
	ka = EC_KEY_new_by_curve_name(ECC_NID);
	kb = EC_KEY_new_by_curve_name(ECC_NID);
	if (!ka || !kb || !EC_KEY_generate_key(ka) || !EC_KEY_generate_key(kb))
		return 0;
	BN_bn2bin_padded(d, ECC_BYTES, EC_KEY_get0_private_key(ka));
	if (EC_POINT_point2oct(EC_KEY_get0_group(kb), EC_KEY_get0_public_key(kb),
			       POINT_CONVERSION_UNCOMPRESSED, pub, sizeof(pub), NULL) != sizeof(pub))
		return 0;
	memcpy(xy, pub + 1, 2 * ECC_BYTES);
	return 1;
}

/*
 * b's signature (@r, @s) of a digest of @dlen bytes of 0x5a; @e is the
 * digest as the driver takes it, a number of the curve's size (bits2int of
 * a digest no longer than the order: zeros in front).
 */
int a_ecdsa(size_t dlen, uint8_t *e, uint8_t *r, uint8_t *s)
{
	const BIGNUM *br, *bs;

	digest_len = dlen;
	memset(digest, 0x5a, dlen);
	memset(e, 0, ECC_BYTES - dlen);
	memcpy(e + ECC_BYTES - dlen, digest, dlen);
	sig = ECDSA_do_sign(digest, dlen, kb);
	if (!sig)
		return 0;
	ECDSA_SIG_get0(sig, &br, &bs);
	BN_bn2bin_padded(r, ECC_BYTES, br);
	BN_bn2bin_padded(s, ECC_BYTES, bs);
	return 1;
}

int a_ecdh(uint8_t *out)
{
	return ECDH_compute_key(out, ECC_BYTES, EC_KEY_get0_public_key(kb), ka, NULL) == ECC_BYTES;
}

int a_verify(void)
{
	return ECDSA_do_verify(digest, digest_len, sig, kb) == 1;
}

/* ECDSA_do_sign of the same digest (its own nonce: RAND_bytes with the key and digest) */
int a_sign(void)
{
	ECDSA_SIG *t = ECDSA_do_sign(digest, digest_len, kb);

	ECDSA_SIG_free(t);
	return t != NULL;
}
#endif /* SIDE_AWSLC */

#ifdef SIDE_RIND
#define PEER_MAXS 40000
#include "peer-timing.h"

#define REP 32	/* inner repetitions of the field and point rows */

/* what a probe may leave unused: not every probe has every row */
#define ECC_FN static __attribute__((unused))

/*
 * The field rows' operands, set by ecc_setup: fa and fb the first ECC_WORDS
 * words of these (below 2^521 for P-521), fc 1, 2, 3, ...  The chains run
 * through fa (and fc), times fb.
 */
static const u64 ecc_a[9] = { 0x1234567890abcdefull, 0x0fedcba987654321ull, 0x5555aaaa5555aaaaull,
			      0x7fffffff12345678ull, 0x9999888877776666ull, 0x1111222233334444ull,
			      0xabcdefabcdef0123ull, 0x3333333344444444ull, 0x155 };
static const u64 ecc_b[9] = { 0x9999888877776666ull, 0x1111222233334444ull, 0xabcdefabcdef0123ull,
			      0x3333333344444444ull, 0x1234567890abcdefull, 0x0fedcba987654321ull,
			      0x5555aaaa5555aaaaull, 0x7fffffff12345678ull, 0x0aa };
static u64 fa[ECC_WORDS], fb[ECC_WORDS], fc[ECC_WORDS];

/* the points (X, Y, Z) and scalar of the point rows: see ecc_setup */
static u64 pa[3 * ECC_WORDS], pb[3 * ECC_WORDS], pc[3 * ECC_WORDS], pk[ECC_WORDS];

/* d: a's secret; xy: b's public point; e, r, s: b's signature of e (a_keys, a_ecdsa) */
static uint8_t D[ECC_BYTES], XY[2 * ECC_BYTES], E[ECC_BYTES], R[ECC_BYTES], S[ECC_BYTES];
static uint8_t out[ECC_BYTES], out_a[ECC_BYTES];

/*
 * The rows (r_ rind's side, x_ aws-lc's): REP field products, squarings or
 * doublings in one dependent chain, or in two chains side by side; one
 * inversion; the curve-level ECDH and verification.
 */
ECC_FN int r_mul(void) { for (int i = 0; i < REP; i++) rind_mul(fa, fa, fb); return 1; }
ECC_FN int x_mul(void) { for (int i = 0; i < REP; i++) a_mul(fa, fa, fb); return 1; }
ECC_FN int r_mul2(void) { for (int i = 0; i < REP; i++) { rind_mul(fa, fa, fb); rind_mul(fc, fc, fb); } return 1; }
ECC_FN int x_mul2(void) { for (int i = 0; i < REP; i++) { a_mul(fa, fa, fb); a_mul(fc, fc, fb); } return 1; }
ECC_FN int r_sqr(void) { for (int i = 0; i < REP; i++) rind_sqr(fa, fa); return 1; }
ECC_FN int x_sqr(void) { for (int i = 0; i < REP; i++) a_sqr(fa, fa); return 1; }
ECC_FN int r_sqr2(void) { for (int i = 0; i < REP; i++) { rind_sqr(fa, fa); rind_sqr(fc, fc); } return 1; }
ECC_FN int x_sqr2(void) { for (int i = 0; i < REP; i++) { a_sqr(fa, fa); a_sqr(fc, fc); } return 1; }
ECC_FN int r_dbl(void) { for (int i = 0; i < REP; i++) rind_dbl(pa, pa); return 1; }
ECC_FN int x_dbl(void) { for (int i = 0; i < REP; i++) a_dbl(pa, pa); return 1; }
ECC_FN int r_inv(void) { rind_inv(fa, fa); return 1; }
ECC_FN int x_inv(void) { a_inv(fa, fa); return 1; }
ECC_FN int r_ecdh(void) { return probe_curve.ecdh(out, D, XY) == 0; }
ECC_FN int x_ecdh(void) { return a_ecdh(out_a); }
ECC_FN int r_verify(void) { return probe_curve.verify(XY, E, R, S) == 0; }
ECC_FN int x_verify(void) { return a_verify(); }

static struct peer_samples sr, sa;
static int rounds;		/* argv[1]: rounds of each row (20) */
static const char *only = "";	/* argv[2]: only the rows whose names hold it */
static int ecc_warm;		/* untimed calls of each side before a row */

static void ecc_args(int argc, char **argv)
{
	rounds = argc > 1 ? atoi(argv[1]) : 20;
	if (argc > 2)
		only = argv[2];
}

/* @rounds rounds of @per pairs, printed per @div (the ops a call holds) */
static void row(const char *name, int (*fr)(void), int (*fa_)(void), int per, int div)
{
	if (!strstr(name, only))
		return;
	peer_pair(fr, fa_, &sr, &sa, ecc_warm, rounds, per);
	peer_print("%-12s rind min %9.1f med %9.1f | aws-lc min %9.1f med %9.1f | aws/rind min %.3f med %.3f\n",
		   name, &sr, &sa, div);
}

/* @name: REP ops in one dependent chain; "@name x2": in two side by side, per op */
ECC_FN void ecc_chain_rows(const char *name, int (*r1)(void), int (*x1)(void), int (*r2)(void),
			   int (*x2)(void))
{
	char n2[32];

	row(name, r1, x1, 200, REP);
	snprintf(n2, sizeof(n2), "%s x2", name);
	row(n2, r2, x2, 200, 2 * REP);
}

/*
 * What the rows start from: the operands; from the driver itself G in pa
 * and pb and 2G in pc (Jacobian, the driver's field form), and pk, a scalar
 * below n with @top its top word.  Then both sides' ECDH of a's key and b's
 * point must agree.
 */
static int ecc_setup(u64 top)
{
	memcpy(fa, ecc_a, sizeof(fa));
	memcpy(fb, ecc_b, sizeof(fb));
	for (int i = 0; i < ECC_WORDS; i++)
		fc[i] = (u64)i + 1;
	pt_base((struct ecc_pt *)pa, &ecc_def);
	memcpy(pb, pa, sizeof(pa));
	rind_dbl(pc, pa);
	memset(pk, 0x77, sizeof(pk));
	pk[ECC_WORDS - 1] = top;
	if (!r_ecdh() || !a_ecdh(out_a) || memcmp(out, out_a, ECC_BYTES)) {
		fprintf(stderr, "ECDH outputs differ\n");
		return 0;
	}
	return 1;
}

/* Both sides accept b's signature (a_ecdsa) */
ECC_FN int ecc_verify_ok(void)
{
	if (r_verify() && x_verify())
		return 1;
	fprintf(stderr, "verification failed (rind %d, aws-lc %d)\n", r_verify(), x_verify());
	return 0;
}

/*
 * The curve-level verification (of a_ecdsa's signature) and signature from
 * the nonce @k (below n: the driver's .sign, no nonce derivation; aws-lc's
 * draws its own) against aws-lc's.
 */
static const uint8_t *ecc_k;
ECC_FN int r_sign(void)
{
	uint8_t r[ECC_BYTES], s[ECC_BYTES];

	return probe_curve.sign(r, s, D, ecc_k, E) == 0;
}

ECC_FN int x_sign(void) { return a_sign(); }

ECC_FN void ecc_ecdsa_rows(const uint8_t *k)
{
	ecc_k = k;
	row("verify", r_verify, x_verify, 10, 1);
	row("sign", r_sign, x_sign, 10, 1);
}

/* rind's @f alone, rounds times (for perf record); main's return */
ECC_FN int ecc_rind_only(int (*f)(void))
{
	for (int i = 0; i < rounds; i++)
		f();
	return 0;
}

#ifdef ECC_X86_DEFINE_CURVE_AFFINE
/* k P over the driver's affine table against aws-lc's scalar multiplication */
ECC_FN int r_smul(void)
{
	struct ecc_pt r;

	ecc_x86_pt_mul_affine(&r, pk, (const struct ecc_pt *)pb, &ecc_def);
	return 1;
}

ECC_FN int x_smul(void) { u64 r[3 * ECC_WORDS]; a_smul(r, pk, pb); return 1; }

static int r_adda(void);

/*
 * The point rows; aws-lc exports no mixed addition of its own for these
 * curves, so the driver's is timed beside one doubling.
 */
static void ecc_point_rows(void)
{
	row("pt dbl", r_dbl, x_dbl, 100, REP);
	row("pt add aff", r_adda, x_dbl, 100, REP);
	row("fp inv", r_inv, x_inv, 50, 1);
	row("pt mul", r_smul, x_smul, 10, 1);
}
#endif
#endif /* SIDE_RIND */

#endif
