/* SPDX-License-Identifier: MIT */
/*
 * X25519 (RFC 7748) internals shared by the generic driver
 * (algs/curve25519.c) and the accelerated ones (arch/): the scalar
 * multiplications as plain functions, and the kpp glue written once over
 * a driver's pair of functions.  Not installed.
 */
#ifndef _RIND_ALGS_CURVE25519_H
#define _RIND_ALGS_CURVE25519_H

#include <rind/internal/kpp.h>
#include <rind/internal/keyfmt.h>

/*
 * 1 when @in (@len bytes, not the raw key size) is no key encoding at all
 * -- not PEM, JWK or DER, and not even starting like a DER SEQUENCE -- so
 * that a wrong-length raw key is -EINVAL while a damaged encoding is
 * -EKEYREJECTED.  Shared by X25519 and Ed25519.
 */
static inline bool okp_is_bare(const void *in, size_t len, size_t raw_len)
{
	return rind_key_detect(in, len, raw_len) == RIND_KEY_RAW &&
	       (!len || *(const u8 *)in != DER_SEQUENCE);
}

/* decodeScalar25519 (RFC 7748 section 5), in place. */
static inline void curve25519_clamp_secret(u8 s[CURVE25519_KEY_SIZE])
{
	s[0] &= 248;
	s[31] &= 127;
	s[31] |= 64;
}

/*
 * out = X25519(scalar, point): the scalar is clamped here (the caller's
 * copy is not changed), the point's top bit ignored, and the result is
 * written even when it is zero.
 */
typedef void (*curve25519_fn)(u8 out[CURVE25519_KEY_SIZE], const u8 scalar[CURVE25519_KEY_SIZE],
			      const u8 point[CURVE25519_KEY_SIZE]);
/* out = X25519(scalar, 9) */
typedef void (*curve25519_base_fn)(u8 out[CURVE25519_KEY_SIZE], const u8 scalar[CURVE25519_KEY_SIZE]);

/*
 * Portable C: Montgomery ladder over five 51-bit limbs.  Its curve25519_base_fn
 * is the Ed25519 driver's (curve25519_base_generic, <crypto/ed25519.h>), as
 * are the arch drivers' (their arch/<arch>/ed25519-*.h).
 */
void curve25519_generic(u8 out[CURVE25519_KEY_SIZE], const u8 scalar[CURVE25519_KEY_SIZE],
			const u8 point[CURVE25519_KEY_SIZE]);

/*
 * out = in^-1 mod p = 2^255 - 19 (0 for 0), constant time, for a canonical
 * (< p) little-endian @in; out is canonical.  Every field implementation's
 * fe_invert goes through one of these (algs/curve25519.c): the bytes for
 * the radix-2^51 code, the four 64-bit limbs (out may be in) for the
 * radix-2^64 code of <crypto/fe25519-64.h>.
 */
void fe25519_invert_bytes(u8 out[32], const u8 in[32]);
void fe25519_invert_limbs(u64 out[4], const u64 in[4]);

/* A kpp driver: its scalar multiplications and its kpp_alg. */
struct curve25519_driver {
	curve25519_fn mul;
	curve25519_base_fn mul_base;
	struct kpp_alg alg;
};

/* The kpp_alg entries every driver uses (algs/curve25519.c). */
int curve25519_kpp_set_secret(struct crypto_kpp *tfm, const void *buf, unsigned int len);
int curve25519_kpp_generate_public_key(struct kpp_request *req);
int curve25519_kpp_compute_shared_secret(struct kpp_request *req);
unsigned int curve25519_kpp_max_size(struct crypto_kpp *tfm);
int curve25519_kpp_export_pubkey(struct crypto_kpp *tfm, enum rind_key_format fmt,
				 u8 *out, unsigned int outlen);
int curve25519_kpp_export_privkey(struct crypto_kpp *tfm, enum rind_key_format fmt,
				  u8 *out, unsigned int outlen);

struct curve25519_ctx {
	u8 secret[CURVE25519_KEY_SIZE];		/* as given (clamped at use) */
};

#define CURVE25519_KPP_ALG(drv_name, prio, module)				\
	{									\
		.set_secret = curve25519_kpp_set_secret,			\
		.generate_public_key = curve25519_kpp_generate_public_key,	\
		.compute_shared_secret = curve25519_kpp_compute_shared_secret,	\
		.max_size = curve25519_kpp_max_size,				\
		.export_pubkey = curve25519_kpp_export_pubkey,			\
		.export_privkey = curve25519_kpp_export_privkey,		\
		.base = {							\
			.cra_name = "curve25519",				\
			.cra_driver_name = drv_name,				\
			.cra_priority = prio,					\
			.cra_module = module,					\
			.cra_ctxsize = sizeof(struct curve25519_ctx),		\
		},								\
	}

/* The known-answer tests for "curve25519" (registered by algs/curve25519.c). */
extern struct alg_test_desc curve25519_test_desc;

#endif /* _RIND_ALGS_CURVE25519_H */
