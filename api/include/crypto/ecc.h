/* SPDX-License-Identifier: MIT */
/*
 * NIST prime curves P-256, P-384 and P-521 (FIPS 186-5, SEC 2): what the
 * curve implementations (algs/p256.c, p384.c, p521.c and any arch/ ones)
 * offer to the protocols built on them (algs/ecdh.c, algs/ecdsa.c), and
 * the key encodings shared by those (algs/ecc_key.c).  Not installed.
 *
 * Byte strings are big-endian and exactly nbytes long (32, 48, 66);
 * points are X||Y affine coordinates (2 * nbytes).  Functions taking a
 * secret scalar run in constant time; the ones taking only public data
 * (point checks, decompression, verification) may not.
 */
#ifndef _RIND_ALGS_ECC_H
#define _RIND_ALGS_ECC_H

#include <rind/internal/kpp.h>
#include <rind/internal/sig.h>
#include <rind/internal/keyfmt.h>

#define ECC_MAX_BYTES	66

struct ecc_curve {
	const char *jwk_crv;		/* "P-256" */
	unsigned int nbytes;		/* field and scalar bytes */
	unsigned int bits;		/* bits of the order n */
	enum rind_oid oid;		/* named curve OID */
	/* 1 if 1 <= d < n, else 0; constant time. */
	int (*scalar_ok)(const u8 *d);
	/* out = in mod n for in < 2^bits. */
	void (*reduce_n)(u8 *out, const u8 *in);
	/* xy = d * G; d must satisfy scalar_ok. */
	void (*mul_base)(u8 *xy, const u8 *d);
	/* 0 if xy is a point of the curve (coordinates < p), else -EINVAL. */
	int (*point_check)(const u8 *xy);
	/* xy from X and the parity of Y (SEC1 2.3.4); -EINVAL if none. */
	int (*decompress)(u8 *xy, const u8 *x, unsigned int odd);
	/*
	 * x = X(d * P) for P = xy, which is checked: -EINVAL when not on the
	 * curve (or the result is the identity).
	 */
	int (*ecdh)(u8 *x, const u8 *d, const u8 *xy);
	/*
	 * ECDSA core: r, s from the private scalar d, the nonce k (both
	 * valid scalars) and e = bits2int(H(m)) < 2^bits.  -EAGAIN when r or
	 * s comes out zero (a new nonce is needed).
	 */
	int (*sign)(u8 *r, u8 *s, const u8 *d, const u8 *k, const u8 *e);
	/* 0 if (r, s) verifies for e under the public key xy, else -EBADMSG. */
	int (*verify)(const u8 *xy, const u8 *e, const u8 *r, const u8 *s);
};

extern const struct ecc_curve ecc_p256_generic;
extern const struct ecc_curve ecc_p384_generic;
extern const struct ecc_curve ecc_p521_generic;
#ifdef __x86_64__
extern const struct ecc_curve ecc_p256_adx;	/* arch/x86/ecc-p256-adx.c */
#endif

/* A kpp driver "ecdh-nist-pXXX-*" over a curve implementation (algs/ecdh.c). */
struct ecdh_driver {
	const struct ecc_curve *curve;
	struct kpp_alg alg;
};

/*
 * An "ecdsa-nist-pXXX" driver: the curve carrier that the x962() and
 * p1363() templates (algs/ecdsa.c) are instantiated over.  Used on its
 * own it only holds keys; it signs nothing (no digest signing).
 */
struct ecdsa_driver {
	const struct ecc_curve *curve;
	struct sig_alg alg;
};

/*
 * Register a driver over another implementation of a curve (arch/): @drv
 * carries .curve and, in .alg.base, the names, priority and module; the
 * protocol entries and the context size are filled in by the generic
 * glue (algs/ecdh.c, algs/ecdsa.c), which then registers it.
 */
int ecdh_register_curve_driver(struct ecdh_driver *drv);
int ecdsa_register_curve_driver(struct ecdsa_driver *drv);

/* ---- key encodings (algs/ecc_key.c) -------------------------------------- */

/*
 * A public key: a SEC1 point (04||X||Y, 02/03||X compressed), the bare
 * X||Y, SPKI DER (id-ecPublicKey with this named curve), PEM "PUBLIC KEY",
 * or JWK {"kty":"EC","crv":...,"x","y"}.  Writes X||Y.  Malformed
 * encodings are -EKEYREJECTED, a point not on the curve -EINVAL.
 */
int ecc_import_pub(const struct ecc_curve *c, const u8 *in, size_t len, u8 *xy);
/*
 * A private key: the raw big-endian scalar (nbytes), PKCS#8 DER, SEC1
 * ECPrivateKey DER, PEM ("PRIVATE KEY" or "EC PRIVATE KEY") or JWK with
 * "d".  Writes d (not range-checked: the caller does); when the encoding
 * carries the public key, writes it to @xy and sets *has_pub.
 */
int ecc_import_priv(const struct ecc_curve *c, const u8 *in, size_t len,
		    u8 *d, u8 *xy, int *has_pub);
/* Public: RAW is 04||X||Y; SPKI DER, PEM, JWK. */
int ecc_export_pub(const struct ecc_curve *c, enum rind_key_format fmt,
		   const u8 *xy, u8 *out, size_t outlen);
/* Private: RAW is the scalar; PKCS#8 DER (SEC1 inside, with the public key), PEM, JWK. */
int ecc_export_priv(const struct ecc_curve *c, enum rind_key_format fmt,
		    const u8 *d, const u8 *xy, u8 *out, size_t outlen);

#endif /* _RIND_ALGS_ECC_H */
