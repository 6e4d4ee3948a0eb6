/* SPDX-License-Identifier: MIT */
/*
 * NIST prime curves P-256, P-384 and P-521 (FIPS 186-5, SEC 2): what the
 * curve implementations (algs/p256.c, p384.c, p521.c and any arch/ ones)
 * offer to the protocols built on them (algs/ecdh.c, algs/ecdsa.c), and
 * the key encodings shared by those (algs/ecc-key.c), and the hooks of
 * the curve template (ecc-impl.h).  Not installed.
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
	/*
	 * @n (1..ECC_SIGN_BATCH_MAX) ->sign()s under one d at once, sharing
	 * one field and one scalar inversion (algs/ecc-proto.c): k, e, r and s
	 * are n strings of nbytes each, back to back; err[i] is 0 or -EAGAIN
	 * as ->sign() returns it for k_i, e_i.  The same results as ->sign().
	 */
	void (*sign_batch)(u8 *r, u8 *s, const u8 *d, const u8 *k, const u8 *e, unsigned int n,
			   int *err);
};

#define ECC_SIGN_BATCH_MAX	32

extern const struct ecc_curve ecc_p256_generic;
extern const struct ecc_curve ecc_p384_generic;
extern const struct ecc_curve ecc_p521_generic;

/*
 * ---- the curve template: api/include/crypto/ecc-impl.h and its hooks ------
 *
 * A curve implementation is a .c file that defines the macros below, then
 * includes <crypto/ecc-impl.h> (and the curve's constants: a struct
 * ecc_def) and ends with ECC_DEFINE_CURVE(sym, def, jwk_crv, oid, nbytes,
 * bits), which defines "const struct ecc_curve sym".  Only ECC_N is
 * required; every other hook replaces a default of the template and is
 * defined only where the curve file has something faster.  Each file
 * instantiates the template once (its functions are static).
 *
 * Sizes and tables:
 *   ECC_N        limbs of 64 bits of p and n (4, 6, 9).  Required.
 *   ECC_GW       bits per window of the fixed-base table (default 5:
 *                nwin * 2^(ECC_GW-1) affine points, built at run time).
 *
 * Field operations, over u64[ECC_N] (type fe); r may alias a or b; all
 * constant time (no branch, no memory index depending on a value).  By
 * default an element is the fully reduced Montgomery form (R =
 * 2^(64 ECC_N)) and the template's CIOS arithmetic modulo p is used.
 *   ECC_FP_MUL(r, a, b)   r = a b (in the field's form)
 *   ECC_FP_SQR(r, a)      r = a^2 (default ECC_FP_MUL(r, a, a))
 *   ECC_FP_ADD(r, a, b)   r = a + b
 *   ECC_FP_SUB(r, a, b)   r = a - b
 *   ECC_FP_HALF(r, a)     r = a / 2
 *   ECC_FP_INV(r, a)      r = a^-1, 0 for 0 (default Bernstein-Yang)
 * Lazy forms for the point formulas (default: the plain ones):
 *   ECC_FP_ADD_LAZY(r, a, b), ECC_FP_SUB_LAZY(r, a, b)  a + b, a - b, not
 *                necessarily in the field's form: the result is only an
 *                operand of MUL / SQR, directly or as the first operand
 *                of one more lazy addition (3M = lazy(lazy(M + M) + M));
 *                the multiplication must accept such operands
 *   ECC_FP_SUB2(r, a, b)  r = a - 2b, in the field's form
 * A field whose internal form is not the fully reduced Montgomery one
 * (algs/p521.c: plain value in 58-bit limbs, below 2p) also defines all of
 *   ECC_FP_TO(r, a)       the internal form of the plain integer a < p
 *   ECC_FP_FROM(r, a)     the plain, fully reduced integer of a
 *   ECC_FP_ISZERO(a), ECC_FP_EQ(a, b)   u64 1 or 0 (compare values, not
 *                representations)
 *   ECC_FP_INV
 * and gives b, Gx, Gy and ecc_mod.one of its struct ecc_def in that form.
 *
 * Scalars modulo n (the order): always Montgomery form with the CIOS
 * reduction; only the product may be replaced:
 *   ECC_FN_MUL(r, a, b)   r = a b / R mod n, fully reduced; constant time
 *
 * Point operations, struct ecc_pt * (x, y, z of type fe; struct ecc_aff *
 * for affine points), Jacobian coordinates, constant time; a
 * replacement must compute the template's formulas (ecc-point.h: the
 * same results, the identity included) since the variable-time
 * verification shares them:
 *   ECC_JAC_DBL(r, p)            r = 2p, exact for every p (the identity
 *                                (0 : Y : 0) included); r may alias p
 *   ECC_JAC_ADD(o, p, q)         o = p + q, add-2007-bl without any case
 *                                analysis: Z3 = Z1 Z2 H (0 when p = +-q);
 *                                o is used only when neither p nor q is
 *                                the identity (the template masks or
 *                                branches); o distinct from p and q
 *   ECC_JAC_ADD_AFFINE(o, p, q)  the same for q affine (Z2 = 1)
 *
 * Table reads (constant time: every entry read, the match masked):
 *   ECC_SELECT(r, table, w, count, idx)  r = entry idx - 1 of count
 *                entries of w u64 each, all zero for idx = 0; returns 1,
 *                or 0 to leave the call to the template's SSE2/NEON code
 *                (the hook may serve only some w or CPUs).
 *
 * algs/p256.c defines ECC_N, ECC_GW, ECC_FP_MUL and ECC_FP_SQR; algs/p521.c
 * its whole field (the ECC_FP_* hooks above, the lazy ones included);
 * arch/x86/ecc-p256-adx.c the field in assembly, the point operations,
 * ECC_FN_MUL and ECC_SELECT.
 *
 * What the template guarantees a curve file: secret scalars (ECDH, key
 * generation, signing) go through branch-free, index-free code built on
 * these hooks; secrets are wiped; public-only operations (point checks,
 * decompression, verification) may branch on their data.
 *
 * The hooks instantiate the field, the point formulas and the scalar
 * multiplications only.  struct ecc_curve's operations around them (key
 * and point checks, decompression, ECDH, ECDSA sign, verify, sign_batch)
 * are algs/ecc-proto.c's, compiled once for every curve and driver; they
 * reach the driver through a struct ecc_proto_ops (<crypto/ecc-proto.h>)
 * that ECC_DEFINE_CURVE fills from the file's instantiation.  A file with
 * its own struct ecc_curve (arch/x86/ecc-p256-adx.c) that still calls the
 * template's ecc_impl_*() for some operations says ECC_DEFINE_PROTO_OPS(def)
 * instead (it does not link without).
 */

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

/*
 * Register the ecdh and the ecdsa driver of one curve implementation
 * (algs/ecc-proto.c): both or neither, so that a failure does not leave
 * the curve with only its ECDH driver.
 */
int ecc_register_curve_drivers(struct ecdh_driver *ecdh, struct ecdsa_driver *ecdsa);

/*
 * The ecdh and ecdsa drivers of an arch implementation @crv of a curve,
 * pfx##_ecdh and pfx##_ecdsa, and the init function that registers both
 * when the expression @usable (the CPU features it needs) is true.  The
 * names are written out in full so that a grep for a driver finds it.
 */
#define ECC_DEFINE_CURVE_DRIVERS(pfx, crv, prio, mod, usable,			\
				 ecdh_name, ecdh_drv, ecdsa_name, ecdsa_drv)	\
	static struct ecdh_driver pfx##_ecdh = {				\
		.curve = &crv,							\
		.alg.base = { .cra_name = ecdh_name, .cra_driver_name = ecdh_drv, \
			      .cra_priority = prio, .cra_module = mod },	\
	};									\
	static struct ecdsa_driver pfx##_ecdsa = {				\
		.curve = &crv,							\
		.alg.base = { .cra_name = ecdsa_name, .cra_driver_name = ecdsa_drv, \
			      .cra_priority = prio, .cra_module = mod },	\
	};									\
	static int ecc_##pfx##_mod_init(void)					\
	{									\
		if (!(usable))							\
			return 0;						\
		return ecc_register_curve_drivers(&pfx##_ecdh, &pfx##_ecdsa);	\
	}									\
	module_init(ecc_##pfx##_mod_init)

/* ---- key encodings (algs/ecc-key.c) -------------------------------------- */

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
/* 1 if 1 <= d < n (constant time; the verdict is declassified). */
int ecc_scalar_ok(const struct ecc_curve *c, const u8 *d);
/* A random scalar in [1, n - 1]; -EAGAIN after 64 rejected candidates. */
int ecc_random_scalar(const struct ecc_curve *c, u8 *d);
/* 1 if @in looks like no key encoding at all (a raw key of the wrong length). */
bool ecc_key_is_bare(const u8 *in, size_t len, size_t raw_len);

#endif /* _RIND_ALGS_ECC_H */
