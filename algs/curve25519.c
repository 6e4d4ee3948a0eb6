// SPDX-License-Identifier: MIT
/*
 * X25519 key agreement (RFC 7748), portable C: the "curve25519" kpp.
 *
 * The scalar multiplication is the Montgomery ladder of RFC 7748 section 5
 * over GF(2^255 - 19) in five 51-bit limbs (api/include/crypto/fe25519.h): 255 steps,
 * one per scalar bit from 254 down, each a conditional swap by masking
 * and the same field operations whatever the bit, so neither the time
 * nor the memory accesses depend on the secret scalar.  The public key
 * (the fixed base point 9) goes through the Ed25519 fixed-base table
 * instead, mapped to the Montgomery u-coordinate (u = (1 + y) / (1 - y)).
 *
 * The kpp glue below serves every driver of "curve25519" (this one and
 * arch/ ones) over its pair of scalar multiplications:
 *   - set_secret takes 32 raw bytes (stored as given, clamped at use), a
 *     PKCS#8 DER (RFC 8410), PEM or JWK (RFC 8037) private key, or NULL/0
 *     to generate one; a length that is neither 32 nor a recognisable
 *     encoding is -EINVAL, a malformed encoding -EKEYREJECTED, and an
 *     encoding that carries a public key not matching the private key is
 *     -EKEYREJECTED;
 *   - compute_shared_secret takes the peer's 32-byte u-coordinate (top bit
 *     ignored, non-canonical values reduced, as RFC 7748 says) or, as an
 *     extension, an SPKI DER, PEM or JWK public key; an all-zero result
 *     (a small-order peer, RFC 7748 section 6.1) is -EINVAL and nothing
 *     is written.
 */
#include <string.h>
#include <rind/rng.h>
#include <rind/internal/kpp.h>
#include <rind/internal/keyfmt.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/curve25519.h>
#include <crypto/ed25519.h>
#include <crypto/fe25519.h>
#include <crypto/fe25519-inv.h>

/* (A + 2) / 4 for Curve25519's A = 486662: the ladder's constant. */
#define CURVE25519_A24 121666

/*
 * One ladder step on (x2 : z2) = [m]P and (x3 : z3) = [m+1]P, x1 = u(P):
 * gives [2m]P and [2m+1]P (RFC 7748 section 5, with a24 = 121666 so that
 * z2 = E * (BB + a24 * E), the same value as E * (AA + 121665 * E)).
 */
static inline void ladder_step(fe *x2, fe *z2, fe *x3, fe *z3, const fe *x1)
{
	fe a, aa, b, bb, e, c, d, da, cb, t;

	fe_add(&a, x2, z2);
	fe_sq(&aa, &a);
	fe_sub(&b, x2, z2);
	fe_sq(&bb, &b);
	fe_sub(&e, &aa, &bb);
	fe_add(&c, x3, z3);
	fe_sub(&d, x3, z3);
	fe_mul(&da, &d, &a);
	fe_mul(&cb, &c, &b);
	fe_add(&t, &da, &cb);
	fe_sq(x3, &t);
	fe_sub(&t, &da, &cb);
	fe_sq(&t, &t);
	fe_mul(z3, x1, &t);
	fe_mul(x2, &aa, &bb);
	fe_mul_small(&t, &e, CURVE25519_A24);
	fe_add(&t, &t, &bb);
	fe_mul(z2, &e, &t);
}

void curve25519_generic(u8 out[CURVE25519_KEY_SIZE], const u8 scalar[CURVE25519_KEY_SIZE],
			const u8 point[CURVE25519_KEY_SIZE])
{
	u8 k[CURVE25519_KEY_SIZE];
	fe x1, x2, z2, x3, z3;
	u64 swap = 0;
	int t;

	memcpy(k, scalar, sizeof(k));
	curve25519_clamp_secret(k);
	fe_frombytes(&x1, point);
	fe_1(&x2);
	fe_0(&z2);
	x3 = x1;
	fe_1(&z3);
	for (t = 254; t >= 0; t--) {
		u64 bit = (k[t >> 3] >> (t & 7)) & 1;

		swap ^= bit;
		fe_cswap(&x2, &x3, swap);
		fe_cswap(&z2, &z3, swap);
		swap = bit;
		ladder_step(&x2, &z2, &x3, &z3, &x1);
	}
	fe_cswap(&x2, &x3, swap);
	fe_cswap(&z2, &z3, swap);
	fe_invert(&z2, &z2);
	fe_mul(&x2, &x2, &z2);
	fe_tobytes(out, &x2);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(&x2, sizeof(x2));
	memzero_explicit(&z2, sizeof(z2));
	memzero_explicit(&x3, sizeof(x3));
	memzero_explicit(&z3, sizeof(z3));
}

/*
 * ---- inversion modulo p, constant time ------------------------------------
 *
 * Bernstein and Yang's "divstep" gcd ("Fast constant-time gcd computation
 * and modular inversion", 2019), used by every field implementation's
 * fe_invert (fe25519_invert_bytes for the radix-2^51 code, the limbs
 * directly for the radix-2^64 code of <crypto/fe25519-64.h>): faster than
 * the 254 squarings of Fermat's little theorem, and it depends on nothing
 * but the length of its input.
 *
 * In the "half-delta" form (hddivsteps: delta starts at 1/2 rather than
 * 1), which needs fewer steps for the same inputs: for f, g < 2^256, 590
 * hddivsteps always reach g = 0 (the bound computed in Wuille's
 * safegcd-bounds, the one libsecp256k1's constant-time inversion runs
 * on), against 738 divsteps in the paper's general bound for the
 * original form.  Here: 10 rounds of 60 = 600 steps, whatever the input.
 *
 * hddivstep(delta, f, g), f odd, delta a half-integer:
 *   delta > 0 and g odd:  (1 - delta, g, (g - f) / 2)
 *   g odd:                (1 + delta, f, (g + f) / 2)
 *   otherwise:            (1 + delta, f, g / 2)
 * kept as zeta = -(delta + 1/2), an integer: delta > 0 exactly when
 * zeta < 0; 1 - delta gives zeta' = -zeta - 2 = ~zeta - 1 and 1 + delta
 * gives zeta' = zeta - 1, so zeta' = (zeta ^ swap) - 1 with the swap
 * mask.  Starting from (1/2, p, x): zeta = -1.
 *
 * Each round works on the low 64 bits of f and g only, in two halves of
 * 30 steps, and records what it did as a 2x2 matrix M (entries of at most
 * 2^60) with 2^60 (f', g') = M (f, g); the matrix is then applied to the
 * full f and g (five signed limbs of 60 bits) and to d and e, which track
 * f = d x and g = e x (mod p), dividing by 2^60 modulo p by first adding
 * the multiple m p that clears the low 60 bits (m p = m 2^255 - 19 m: two
 * small products, not five).  At the end g = 0, f = +-1 and x^-1 = +-d.
 *
 * Within a half, the step is branch-free: masks from the sign of zeta and
 * the low bit of g select the negation of f, the addition and the swap.
 * The pairs (u, v) and (q, r) of the matrix are each packed in one 64-bit
 * word as lo + 2^32 hi (entries stay below 2^30 in 30 steps).
 */

/* 30 hddivsteps on the low words. */
static s64 inv_hddivsteps30(s64 zeta, u64 f, u64 g, struct ecc_by_mat *t)
{
	u64 uv = 1, qr = (u64)1 << 32;
	int i;

	for (i = 0; i < 30; i++) {
		u64 c1 = (u64)(zeta >> 63);		/* delta > 0 */
		u64 c2 = 0 - (g & 1);			/* g odd */
		u64 x = (f ^ c1) - c1;			/* -f when delta > 0 */
		u64 y = (uv ^ c1) - c1;
		u64 sw;

		g += x & c2;
		qr += y & c2;
		sw = c1 & c2;				/* the swapping case */
		zeta = (s64)(((u64)zeta ^ sw) - 1);
		f += g & sw;
		uv += qr & sw;
		g >>= 1;
		uv <<= 1;
	}
	t->u = (s32)uv;
	t->v = (s64)(uv - (u64)t->u) >> 32;
	t->q = (s32)qr;
	t->r = (s64)(qr - (u64)t->q) >> 32;
	return zeta;
}

/* A round's 60 steps as two halves of 30. */
static s64 inv_steps60(s64 zeta, u64 flo, u64 glo, struct ecc_by_mat *mt)
{
	struct ecc_by_mat t1, t2;
	u64 f1, g1;

	zeta = inv_hddivsteps30(zeta, flo, glo, &t1);
	f1 = ((u64)t1.u * flo + (u64)t1.v * glo) >> 30;
	g1 = ((u64)t1.q * flo + (u64)t1.r * glo) >> 30;
	zeta = inv_hddivsteps30(zeta, f1, g1, &t2);
	mt->u = t2.u * t1.u + t2.v * t1.q;
	mt->v = t2.u * t1.v + t2.v * t1.r;
	mt->q = t2.q * t1.u + t2.r * t1.q;
	mt->r = t2.q * t1.v + t2.r * t1.r;
	memzero_explicit(&t1, sizeof(t1));
	memzero_explicit(&t2, sizeof(t2));
	return zeta;
}

void fe25519_invert_limbs(u64 out[4], const u64 w[4])
{
	fe25519_invert_with(out, w, inv_steps60);
}

void fe25519_invert_bytes(u8 out[32], const u8 in[32])
{
	u64 w[4];
	int i;

	for (i = 0; i < 4; i++)
		w[i] = get_unaligned_le64(in + 8 * i);
	fe25519_invert_limbs(w, w);
	for (i = 0; i < 4; i++)
		put_unaligned_le64(w[i], out + 8 * i);
	memzero_explicit(w, sizeof(w));
}

/* ---- the kpp glue, shared by every driver -------------------------------- */

static const struct curve25519_driver *curve25519_drv(struct crypto_kpp *tfm)
{
	return container_of(crypto_kpp_alg(tfm), struct curve25519_driver, alg);
}

/* 0 if @b (32 bytes) is not all zero, -EINVAL if it is; constant time. */
static int curve25519_check_zero(const u8 *b)
{
	u32 acc = 0;

	for (int i = 0; i < CURVE25519_KEY_SIZE; i++)
		acc |= b[i];
	/* acc - 1 has its top bit set only when acc == 0. */
	return -(int)((0U - ((acc - 1) >> 31)) & EINVAL);
}

int curve25519_kpp_set_secret(struct crypto_kpp *tfm, const void *buf, unsigned int len)
{
	const struct curve25519_driver *drv = curve25519_drv(tfm);
	struct curve25519_ctx *ctx = kpp_tfm_ctx(tfm);
	u8 secret[CURVE25519_KEY_SIZE], pub[CURVE25519_KEY_SIZE], mine[CURVE25519_KEY_SIZE];
	int has_pub = 0, err;

	if (!len) {
		err = rind_get_random_bytes(secret, sizeof(secret));
		if (err)
			return err;
		curve25519_clamp_secret(secret);
	} else if (len == CURVE25519_KEY_SIZE) {
		memcpy(secret, buf, sizeof(secret));
	} else {
		if (okp_is_bare(buf, len, CURVE25519_KEY_SIZE))
			return -EINVAL;
		err = rind_okp_import_priv(&rind_okp_x25519, buf, len, secret, pub, &has_pub);
		if (err)
			return err;
		if (has_pub) {
			int ne;

			drv->mul_base(mine, secret);
			/* Whether the key pair matches is a public verdict. */
			ne = crypto_memneq(mine, pub, sizeof(pub));
			rind_declassify(&ne, sizeof(ne));
			err = ne ? -EKEYREJECTED : 0;
			memzero_explicit(mine, sizeof(mine));
			if (err) {
				memzero_explicit(secret, sizeof(secret));
				return err;
			}
		}
	}
	memcpy(ctx->secret, secret, sizeof(secret));
	memzero_explicit(secret, sizeof(secret));
	return 0;
}

int curve25519_kpp_generate_public_key(struct kpp_request *req)
{
	struct crypto_kpp *tfm = crypto_kpp_reqtfm(req);
	struct curve25519_ctx *ctx = kpp_tfm_ctx(tfm);
	u8 pub[CURVE25519_KEY_SIZE];

	if (req->dst_len < CURVE25519_KEY_SIZE)
		return -EINVAL;
	curve25519_drv(tfm)->mul_base(pub, ctx->secret);
	if (sg_copy_from_buffer(req->dst, (unsigned int)sg_nents(req->dst), pub,
				sizeof(pub)) != sizeof(pub))
		return -EINVAL;
	req->dst_len = CURVE25519_KEY_SIZE;
	return 0;
}

int curve25519_kpp_compute_shared_secret(struct kpp_request *req)
{
	struct crypto_kpp *tfm = crypto_kpp_reqtfm(req);
	struct curve25519_ctx *ctx = kpp_tfm_ctx(tfm);
	u8 peer[CURVE25519_KEY_SIZE], ss[CURVE25519_KEY_SIZE];
	u8 *enc;
	int err;

	if (req->dst_len < CURVE25519_KEY_SIZE)
		return -EINVAL;
	if (req->src_len == CURVE25519_KEY_SIZE) {
		if (sg_copy_to_buffer(req->src, (unsigned int)sg_nents(req->src), peer,
				      sizeof(peer)) != sizeof(peer))
			return -EINVAL;
	} else {
		/* An encoded public key (SPKI DER, PEM, JWK). */
		if (!req->src_len || req->src_len > 4096)
			return -EINVAL;
		enc = malloc(req->src_len);
		if (!enc)
			return -ENOMEM;
		if (sg_copy_to_buffer(req->src, (unsigned int)sg_nents(req->src), enc,
				      req->src_len) != req->src_len) {
			free(enc);
			return -EINVAL;
		}
		if (okp_is_bare(enc, req->src_len, CURVE25519_KEY_SIZE))
			err = -EINVAL;
		else
			err = rind_okp_import_pub(&rind_okp_x25519, enc, req->src_len, peer);
		free(enc);
		if (err)
			return err;
	}
	curve25519_drv(tfm)->mul(ss, ctx->secret, peer);
	/* Refusing an all-zero result is a public verdict (RFC 7748 6.1). */
	err = curve25519_check_zero(ss);
	rind_declassify(&err, sizeof(err));
	if (!err) {
		if (sg_copy_from_buffer(req->dst, (unsigned int)sg_nents(req->dst), ss,
					sizeof(ss)) != sizeof(ss))
			err = -EINVAL;
		else
			req->dst_len = CURVE25519_KEY_SIZE;
	}
	memzero_explicit(ss, sizeof(ss));
	return err;
}

unsigned int curve25519_kpp_max_size(struct crypto_kpp *tfm)
{
	(void)tfm;
	return CURVE25519_KEY_SIZE;
}

int curve25519_kpp_export_pubkey(struct crypto_kpp *tfm, enum rind_key_format fmt,
				 u8 *out, unsigned int outlen)
{
	struct curve25519_ctx *ctx = kpp_tfm_ctx(tfm);
	u8 pub[CURVE25519_KEY_SIZE];

	curve25519_drv(tfm)->mul_base(pub, ctx->secret);
	return rind_okp_export_pub(&rind_okp_x25519, fmt, pub, out, outlen);
}

int curve25519_kpp_export_privkey(struct crypto_kpp *tfm, enum rind_key_format fmt,
				  u8 *out, unsigned int outlen)
{
	struct curve25519_ctx *ctx = kpp_tfm_ctx(tfm);
	u8 pub[CURVE25519_KEY_SIZE];
	int ret;

	curve25519_drv(tfm)->mul_base(pub, ctx->secret);
	ret = rind_okp_export_priv(&rind_okp_x25519, fmt, ctx->secret, pub, out, outlen);
	return ret;
}

/* ---- one-shots over the best implementation ------------------------------ */

static const struct curve25519_driver *curve25519_best;

static const struct curve25519_driver *curve25519_best_driver(void)
{
	const struct curve25519_driver *drv = __atomic_load_n(&curve25519_best, __ATOMIC_ACQUIRE);
	struct crypto_alg *alg;

	if (drv)
		return drv;
	alg = crypto_alg_mod_lookup("curve25519", CRYPTO_ALG_TYPE_KPP, CRYPTO_ALG_TYPE_MASK);
	if (IS_ERR(alg))
		return NULL;
	/* Only drivers built on this glue carry their scalar multiplications. */
	if (__crypto_kpp_alg(alg)->set_secret != curve25519_kpp_set_secret) {
		crypto_mod_put(alg);
		return NULL;
	}
	/* The reference is kept: built-in algorithms are never destroyed. */
	drv = container_of(__crypto_kpp_alg(alg), struct curve25519_driver, alg);
	__atomic_store_n(&curve25519_best, drv, __ATOMIC_RELEASE);
	return drv;
}

RIND_EXPORT int rind_curve25519(u8 out[CURVE25519_KEY_SIZE], const u8 secret[CURVE25519_KEY_SIZE],
				const u8 basepoint[CURVE25519_KEY_SIZE])
{
	const struct curve25519_driver *drv;
	int err;

	if (!out || !secret || !basepoint)
		return -EINVAL;
	drv = curve25519_best_driver();
	if (drv)
		drv->mul(out, secret, basepoint);
	else
		curve25519_generic(out, secret, basepoint);
	err = curve25519_check_zero(out);
	rind_declassify(&err, sizeof(err));
	return err;
}

RIND_EXPORT int rind_curve25519_generate_public(u8 pub[CURVE25519_KEY_SIZE],
						const u8 secret[CURVE25519_KEY_SIZE])
{
	const struct curve25519_driver *drv;

	if (!pub || !secret)
		return -EINVAL;
	drv = curve25519_best_driver();
	if (drv)
		drv->mul_base(pub, secret);
	else
		curve25519_base_generic(pub, secret);
	/* A public key is public. */
	rind_declassify(pub, CURVE25519_KEY_SIZE);
	return curve25519_check_zero(pub);
}

RIND_EXPORT int rind_curve25519_generate_secret(u8 secret[CURVE25519_KEY_SIZE])
{
	int err;

	if (!secret)
		return -EINVAL;
	err = rind_get_random_bytes(secret, CURVE25519_KEY_SIZE);
	if (!err)
		curve25519_clamp_secret(secret);
	return err;
}

/* ---- registration -------------------------------------------------------- */

/* RFC 7748 sections 5.2 and 6.1, and a small-order peer. */
static const struct kpp_testvec curve25519_tv[] = {
	{
		.secret = "\xa5\x46\xe3\x6b\xf0\x52\x7c\x9d\x3b\x16\x15\x4b\x82\x46\x5e\xdd"
			  "\x62\x14\x4c\x0a\xc1\xfc\x5a\x18\x50\x6a\x22\x44\xba\x44\x9a\xc4",
		.peer_public = "\xe6\xdb\x68\x67\x58\x30\x30\xdb\x35\x94\xc1\xa4\x24\xb1\x5f\x7c"
			       "\x72\x66\x24\xec\x26\xb3\x35\x3b\x10\xa9\x03\xa6\xd0\xab\x1c\x4c",
		.expected_ss = "\xc3\xda\x55\x37\x9d\xe9\xc6\x90\x8e\x94\xea\x4d\xf2\x8d\x08\x4f"
			       "\x32\xec\xcf\x03\x49\x1c\x71\xf7\x54\xb4\x07\x55\x77\xa2\x85\x52",
		.secret_size = 32, .peer_public_size = 32, .expected_ss_size = 32,
	}, {
		/* The peer's top bit is set and must be ignored. */
		.secret = "\x4b\x66\xe9\xd4\xd1\xb4\x67\x3c\x5a\xd2\x26\x91\x95\x7d\x6a\xf5"
			  "\xc1\x1b\x64\x21\xe0\xea\x01\xd4\x2c\xa4\x16\x9e\x79\x18\xba\x0d",
		.peer_public = "\xe5\x21\x0f\x12\x78\x68\x11\xd3\xf4\xb7\x95\x9d\x05\x38\xae\x2c"
			       "\x31\xdb\xe7\x10\x6f\xc0\x3c\x3e\xfc\x4c\xd5\x49\xc7\x15\xa4\x93",
		.expected_ss = "\x95\xcb\xde\x94\x76\xe8\x90\x7d\x7a\xad\xe4\x5c\xb4\xb8\x73\xf8"
			       "\x8b\x59\x5a\x68\x79\x9f\xa1\x52\xe6\xf8\xf7\x64\x7a\xac\x79\x57",
		.secret_size = 32, .peer_public_size = 32, .expected_ss_size = 32,
	}, {
		/* Alice's key pair and Bob's public key. */
		.secret = "\x77\x07\x6d\x0a\x73\x18\xa5\x7d\x3c\x16\xc1\x72\x51\xb2\x66\x45"
			  "\xdf\x4c\x2f\x87\xeb\xc0\x99\x2a\xb1\x77\xfb\xa5\x1d\xb9\x2c\x2a",
		.expected_public = "\x85\x20\xf0\x09\x89\x30\xa7\x54\x74\x8b\x7d\xdc\xb4\x3e\xf7\x5a"
				   "\x0d\xbf\x3a\x0d\x26\x38\x1a\xf4\xeb\xa4\xa9\x8e\xaa\x9b\x4e\x6a",
		.peer_public = "\xde\x9e\xdb\x7d\x7b\x7d\xc1\xb4\xd3\x5b\x61\xc2\xec\xe4\x35\x37"
			       "\x3f\x83\x43\xc8\x5b\x78\x67\x4d\xad\xfc\x7e\x14\x6f\x88\x2b\x4f",
		.expected_ss = "\x4a\x5d\x9d\x5b\xa4\xce\x2d\xe1\x72\x8e\x3b\xf4\x80\x35\x0f\x25"
			       "\xe0\x7e\x21\xc9\x47\xd1\x9e\x33\x76\xf0\x9b\x3c\x1e\x16\x17\x42",
		.secret_size = 32, .peer_public_size = 32, .expected_public_size = 32,
		.expected_ss_size = 32,
	}, {
		/* Bob's key pair and a point of order 8: refused. */
		.secret = "\x5d\xab\x08\x7e\x62\x4a\x8a\x4b\x79\xe1\x7f\x8b\x83\x80\x0e\xe6"
			  "\x6f\x3b\xb1\x29\x26\x18\xb6\xfd\x1c\x2f\x8b\x27\xff\x88\xe0\xeb",
		.expected_public = "\xde\x9e\xdb\x7d\x7b\x7d\xc1\xb4\xd3\x5b\x61\xc2\xec\xe4\x35\x37"
				   "\x3f\x83\x43\xc8\x5b\x78\x67\x4d\xad\xfc\x7e\x14\x6f\x88\x2b\x4f",
		.peer_public = "\xe0\xeb\x7a\x7c\x3b\x41\xb8\xae\x16\x56\xe3\xfa\xf1\x9f\xc4\x6a"
			       "\xda\x09\x8d\xeb\x9c\x32\xb1\xfd\x86\x62\x05\x16\x5f\x49\xb8\x00",
		.secret_size = 32, .peer_public_size = 32, .expected_public_size = 32,
		.ss_error = -EINVAL,
	},
};

static const struct kpp_test_suite curve25519_suite = {
	.vecs = curve25519_tv,
	.count = ARRAY_SIZE(curve25519_tv),
};

struct alg_test_desc curve25519_test_desc = {
	.alg = "curve25519",
	.suite.priv = &curve25519_suite,
};

static struct curve25519_driver curve25519_generic_drv = {
	.mul = curve25519_generic,
	.mul_base = curve25519_base_generic,
	.alg = CURVE25519_KPP_ALG("curve25519-generic", 100, "generic"),
};

static int curve25519_mod_init(void)
{
	crypto_register_test(&curve25519_test_desc);
	return crypto_register_kpp(&curve25519_generic_drv.alg);
}

module_init(curve25519_mod_init);
