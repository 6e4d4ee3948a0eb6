// SPDX-License-Identifier: MIT
/*
 * ECDH over the NIST prime curves (SP 800-56A rev. 3, section 5.7.1.2):
 * the kpp algorithms "ecdh-nist-p256", "ecdh-nist-p384", "ecdh-nist-p521",
 * written once over a curve implementation (struct ecc_curve, api/include/crypto/ecc.h);
 * the generic drivers "ecdh-nist-pXXX-generic" use algs/p256.c, p384.c,
 * p521.c.
 *
 *   - set_secret takes the private key as a big-endian scalar of the
 *     field's length, or PKCS#8 / SEC1 DER, PEM or JWK (detected); NULL/0
 *     generates one (rejection sampling from rind_get_random_bytes).  A
 *     scalar outside [1, n - 1] is -EINVAL, a malformed encoding or one
 *     whose public key does not match -EKEYREJECTED.
 *   - generate_public_key writes the uncompressed SEC1 point 04||X||Y.
 *   - compute_shared_secret takes the peer as 04||X||Y, as the bare X||Y
 *     (the kernel's form), compressed 02/03||X, or SPKI DER, PEM or JWK;
 *     it writes the X coordinate of d * peer.  A peer point not on the
 *     curve (or with a coordinate >= p) is -EINVAL; the identity cannot
 *     be encoded in any accepted form (a single 00 byte is -EINVAL) and
 *     with a prime-order curve and d in [1, n - 1] never results.
 */
#include <string.h>
#include <rind/rng.h>
#include <rind/internal/util.h>
#include <crypto/ecc.h>

struct ecdh_ctx {
	bool has_key;
	u8 d[ECC_MAX_BYTES];
	u8 xy[2 * ECC_MAX_BYTES];
};

static const struct ecc_curve *ecdh_curve(struct crypto_kpp *tfm)
{
	return container_of(crypto_kpp_alg(tfm), struct ecdh_driver, alg)->curve;
}

static int ecdh_set_secret(struct crypto_kpp *tfm, const void *buf, unsigned int len)
{
	const struct ecc_curve *c = ecdh_curve(tfm);
	struct ecdh_ctx *ctx = kpp_tfm_ctx(tfm);
	u8 d[ECC_MAX_BYTES], xy[2 * ECC_MAX_BYTES], mine[2 * ECC_MAX_BYTES];
	int has_pub = 0, err;

	if (!buf || !len) {
		err = ecc_random_scalar(c, d);
	} else if (len == c->nbytes) {
		memcpy(d, buf, len);
		err = ecc_scalar_ok(c, d) ? 0 : -EINVAL;
	} else if (ecc_key_is_bare(buf, len, c->nbytes)) {
		err = -EINVAL;
	} else {
		err = ecc_import_priv(c, buf, len, d, xy, &has_pub);
		if (!err && !ecc_scalar_ok(c, d))
			err = -EKEYREJECTED;
	}
	if (!err) {
		c->mul_base(mine, d);
		rind_declassify(mine, 2 * c->nbytes);	/* the public key */
		if (has_pub && memcmp(mine, xy, 2 * c->nbytes))
			err = -EKEYREJECTED;
	}
	if (!err) {
		memcpy(ctx->d, d, c->nbytes);
		memcpy(ctx->xy, mine, 2 * c->nbytes);
		ctx->has_key = true;
	}
	memzero_explicit(d, sizeof(d));
	return err;
}

static int ecdh_generate_public_key(struct kpp_request *req)
{
	struct crypto_kpp *tfm = crypto_kpp_reqtfm(req);
	const struct ecc_curve *c = ecdh_curve(tfm);
	struct ecdh_ctx *ctx = kpp_tfm_ctx(tfm);
	unsigned int n = 1 + 2 * c->nbytes;
	u8 pub[1 + 2 * ECC_MAX_BYTES];

	if (!ctx->has_key)
		return -ENOKEY;
	if (req->dst_len < n)
		return -EINVAL;
	pub[0] = 0x04;
	memcpy(pub + 1, ctx->xy, 2 * c->nbytes);
	if (sg_copy_from_buffer(req->dst, (unsigned int)sg_nents(req->dst), pub, n) != n)
		return -EINVAL;
	req->dst_len = n;
	return 0;
}

static int ecdh_compute_shared_secret(struct kpp_request *req)
{
	struct crypto_kpp *tfm = crypto_kpp_reqtfm(req);
	const struct ecc_curve *c = ecdh_curve(tfm);
	struct ecdh_ctx *ctx = kpp_tfm_ctx(tfm);
	u8 xy[2 * ECC_MAX_BYTES], ss[ECC_MAX_BYTES];
	u8 *peer;
	int err;

	if (!ctx->has_key)
		return -ENOKEY;
	if (req->dst_len < c->nbytes || !req->src_len || req->src_len > 8192)
		return -EINVAL;
	peer = malloc(req->src_len);
	if (!peer)
		return -ENOMEM;
	if (sg_copy_to_buffer(req->src, (unsigned int)sg_nents(req->src), peer,
			      req->src_len) != req->src_len) {
		free(peer);
		return -EINVAL;
	}
	if (ecc_key_is_bare(peer, req->src_len, 0) && req->src_len != 2 * c->nbytes &&
	    req->src_len != 2 * c->nbytes + 1 && req->src_len != c->nbytes + 1)
		err = -EINVAL;
	else
		err = ecc_import_pub(c, peer, req->src_len, xy);
	free(peer);
	if (err)
		return err;
	err = c->ecdh(ss, ctx->d, xy);
	rind_declassify(&err, sizeof(err));	/* the exchange's verdict, returned */
	if (!err) {
		if (sg_copy_from_buffer(req->dst, (unsigned int)sg_nents(req->dst), ss,
					c->nbytes) != c->nbytes)
			err = -EINVAL;
		else
			req->dst_len = c->nbytes;
	}
	memzero_explicit(ss, sizeof(ss));
	return err;
}

static unsigned int ecdh_max_size(struct crypto_kpp *tfm)
{
	return 1 + 2 * ecdh_curve(tfm)->nbytes;
}

static int ecdh_export_pubkey(struct crypto_kpp *tfm, enum rind_key_format fmt,
			      u8 *out, unsigned int outlen)
{
	struct ecdh_ctx *ctx = kpp_tfm_ctx(tfm);

	if (!ctx->has_key)
		return -ENOKEY;
	return ecc_export_pub(ecdh_curve(tfm), fmt, ctx->xy, out, outlen);
}

static int ecdh_export_privkey(struct crypto_kpp *tfm, enum rind_key_format fmt,
			       u8 *out, unsigned int outlen)
{
	struct ecdh_ctx *ctx = kpp_tfm_ctx(tfm);

	if (!ctx->has_key)
		return -ENOKEY;
	return ecc_export_priv(ecdh_curve(tfm), fmt, ctx->d, ctx->xy, out, outlen);
}

/* ---- registration -------------------------------------------------------- */

/*
 * Wycheproof ecdh_secp*r1_ecpoint_test.json case 1 (the public key of the
 * private one computed independently), and a peer off the curve.
 */
static const struct kpp_testvec ecdh_p256_tv[] = {
	{
		.secret = "\x06\x12\x46\x5c\x89\xa0\x23\xab\x17\x85\x5b\x0a\x6b\xce\xbf\xd3"
			  "\xfe\xbb\x53\xae\xf8\x41\x38\x64\x7b\x53\x52\xe0\x2c\x10\xc3\x46",
		.peer_public = "\x04\x62\xd5\xbd\x33\x72\xaf\x75\xfe\x85\xa0\x40\x71\x5d\x0f\x50"
			  "\x24\x28\xe0\x70\x46\x86\x8b\x0b\xfd\xfa\x61\xd7\x31\xaf\xe4\x4f"
			  "\x26\xac\x33\x3a\x93\xa9\xe7\x0a\x81\xcd\x5a\x95\xb5\xbf\x8d\x13"
			  "\x99\x0e\xb7\x41\xc8\xc3\x88\x72\xb4\xa0\x7d\x27\x5a\x01\x4e\x30"
			  "\xcf",
		.expected_public = "\x04\xb5\x9c\xc7\x67\x1d\xd6\xa6\xb8\x36\xe2\xcd\x93\x96\xef\x56"
			  "\x18\xb2\xff\x3e\x81\x92\xdd\x7c\x9d\x36\xc2\x7c\xb5\x6f\xf9\x16"
			  "\x61\x48\x26\xd9\xdb\xd5\xae\x64\xcd\xd8\x57\x50\x68\xbb\xc9\xe6"
			  "\x3f\x23\x1e\xa5\x7e\xd0\x32\x48\x84\x4c\x09\x33\x1b\x95\x39\x20"
			  "\x53",
		.expected_ss = "\x53\x02\x0d\x90\x8b\x02\x19\x32\x8b\x65\x8b\x52\x5f\x26\x78\x0e"
			  "\x3a\xe1\x2b\xcd\x95\x2b\xb2\x5a\x93\xbc\x08\x95\xe1\x71\x42\x85",
		.secret_size = 32, .peer_public_size = 65, .expected_public_size = 65, .expected_ss_size = 32,
	}, {
		/* Gx with Gy + 1: not on the curve. */
		.secret = "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
			  "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x07",
		.peer_public = "\x04"
			"\x6b\x17\xd1\xf2\xe1\x2c\x42\x47\xf8\xbc\xe6\xe5\x63\xa4\x40\xf2"
			"\x77\x03\x7d\x81\x2d\xeb\x33\xa0\xf4\xa1\x39\x45\xd8\x98\xc2\x96"
			"\x4f\xe3\x42\xe2\xfe\x1a\x7f\x9b\x8e\xe7\xeb\x4a\x7c\x0f\x9e\x16"
			"\x2b\xce\x33\x57\x6b\x31\x5e\xce\xcb\xb6\x40\x68\x37\xbf\x51\xf6",
		.secret_size = 32, .peer_public_size = 65,
		.ss_error = -EINVAL,
	},
};

static const struct kpp_testvec ecdh_p384_tv[] = {
	{
		.secret = "\x76\x6e\x61\x42\x5b\x2d\xa9\xf8\x46\xc0\x9f\xc3\x56\x4b\x93\xa6"
			  "\xf8\x60\x3b\x73\x92\xc7\x85\x16\x5b\xf2\x0d\xa9\x48\xc4\x9f\xd1"
			  "\xfb\x1d\xee\x4e\xdd\x64\x35\x6b\x9f\x21\xc5\x88\xb7\x5d\xfd\x81",
		.peer_public = "\x04\x79\x0a\x6e\x05\x9e\xf9\xa5\x94\x01\x63\x18\x3d\x4a\x78\x09"
			  "\x13\x5d\x29\x79\x16\x43\xfc\x43\xa2\xf1\x7e\xe8\xbf\x67\x7a\xb8"
			  "\x4f\x79\x1b\x64\xa6\xbe\x15\x96\x9f\xfa\x01\x2d\xd9\x18\x5d\x87"
			  "\x96\xd9\xb9\x54\xba\xa8\xa7\x5e\x82\xdf\x71\x1b\x3b\x56\xea\xdf"
			  "\xf6\xb0\xf6\x68\xc3\xb2\x6b\x4b\x1a\xeb\x30\x8a\x1f\xcc\x1c\x68"
			  "\x0d\x32\x9a\x67\x05\x02\x5f\x1c\x98\xa0\xb5\xe5\xbf\xcb\x16\x3c"
			  "\xaa",
		.expected_public = "\x04\x7a\x6e\xc8\xd3\x11\xd5\xca\x58\x8b\xae\xd4\x1b\xe3\xe9\x8f"
			  "\x30\xc9\x29\x48\x44\xec\xbb\x62\x99\x95\x65\x36\x35\xdb\xc2\x2d"
			  "\xa2\xf0\x83\xf2\x97\x11\xe0\xf9\xc5\x96\x3b\xc0\x21\xbd\x8c\xb2"
			  "\x10\x9d\xaf\x56\xa5\x5f\x88\x3a\x72\x00\xce\xa9\xc4\xde\x44\x48"
			  "\x8e\x6d\xc4\x9f\xb9\xc3\x94\xf5\x1c\xb5\xa4\x9f\xc6\x9d\x7e\x8a"
			  "\x03\x47\x92\x96\x3a\xe4\xea\xbc\x63\x48\x3a\x2c\xf1\xa8\x99\xe8"
			  "\xc8",
		.expected_ss = "\x64\x61\xde\xfb\x95\xd9\x96\xb2\x42\x96\xf5\xa1\x83\x2b\x34\xdb"
			  "\x05\xed\x03\x11\x14\xfb\xe7\xd9\x8d\x09\x8f\x93\x85\x98\x66\xe4"
			  "\xde\x1e\x22\x9d\xa7\x1f\xef\x0c\x77\xfe\x49\xb2\x49\x19\x01\x35",
		.secret_size = 48, .peer_public_size = 97, .expected_public_size = 97, .expected_ss_size = 48,
	},
};

static const struct kpp_testvec ecdh_p521_tv[] = {
	{
		.secret = "\x01\x93\x99\x82\xb5\x29\x59\x6c\xe7\x7a\x94\xbc\x6e\xfd\x03\xe9"
			  "\x2c\x21\xa8\x49\xeb\x4f\x87\xb8\xf6\x19\xd5\x06\xef\xc9\xbb\x22"
			  "\xe7\xc6\x16\x40\xc9\x0d\x59\x8f\x79\x5b\x64\x56\x6d\xc6\xdf\x43"
			  "\x99\x2a\xe3\x4a\x13\x41\xd4\x58\x57\x44\x40\xa7\x37\x1f\x61\x1c"
			  "\x7d\xcd",
		.peer_public = "\x04\x00\x64\xda\x3e\x94\x73\x3d\xb5\x36\xa7\x4a\x0d\x8a\x5c\xb2"
			  "\x26\x5a\x31\xc5\x4a\x1d\xa6\x52\x9a\x19\x83\x77\xfb\xd3\x85\x75"
			  "\xd9\xd7\x97\x69\xca\x2b\xdf\x2d\x4c\x97\x26\x42\x92\x6d\x44\x48"
			  "\x91\xa6\x52\xe7\xf4\x92\x33\x72\x51\xad\xf1\x61\x3c\xf3\x07\x79"
			  "\x99\xb5\xce\x00\xe0\x4a\xd1\x9c\xf9\xfd\x47\x22\xb0\xc8\x24\xc0"
			  "\x69\xf7\x0c\x3c\x0e\x7e\xbc\x52\x88\x94\x0d\xfa\x92\x42\x21\x52"
			  "\xae\x4a\x4f\x79\x18\x3c\xed\x37\x5a\xfb\x54\xdb\x14\x09\xdd\xf3"
			  "\x38\xb8\x5b\xb6\xdb\xfc\x59\x50\x16\x33\x46\xbb\x63\xa9\x0a\x70"
			  "\xc5\xab\xa0\x98\xf7",
		.expected_public = "\x04\x01\xfa\xc8\x4b\x38\xd7\x32\xda\xcc\xfc\xef\xaa\xd9\xa1\x78"
			  "\xe3\xd0\x4f\x2c\x30\xe1\x9c\x49\x25\xd1\x12\xe8\x82\x35\xc1\x0c"
			  "\x08\x80\x36\xd4\xd1\xea\x25\x28\xf5\xe0\x20\x03\xda\x70\x35\x33"
			  "\x17\x04\x89\xc6\x57\x6d\x6e\x1e\x4d\x0f\xc7\x3e\xec\x12\x6c\xa5"
			  "\x5a\xcd\x84\x00\x09\x04\xb6\x19\x9d\x2f\x6e\x89\x0a\x65\x4b\xe2"
			  "\x0c\x9e\x65\xa4\x0a\xd1\x20\x15\x70\x43\x88\x18\x22\xfc\x52\xdf"
			  "\x41\x20\xe4\x56\x3a\x7c\xd5\x90\x5c\x01\x67\x8d\x65\xe8\x45\xea"
			  "\xe9\xc6\x53\xe3\x03\xf7\x9c\x52\x39\x10\x55\x1d\x21\x2f\xbd\x7c"
			  "\x25\xe2\xd1\x34\x49",
		.expected_ss = "\x01\xf1\xe4\x10\xf2\xc6\x26\x2b\xce\x68\x79\xa3\xf4\x6d\xfb\x7d"
			  "\xd1\x1d\x30\xee\xee\x9a\xb4\x98\x52\x10\x2e\x18\x92\x20\x1d\xd1"
			  "\x0f\x27\x26\x6c\x2c\xf7\xcb\xcc\xc7\xf6\x88\x50\x99\x04\x3d\xad"
			  "\x80\xff\x57\xf0\xdf\x96\xac\xf2\x83\xfb\x09\x0d\xe5\x3d\xf9\x5f"
			  "\x7d\x87",
		.secret_size = 66, .peer_public_size = 133, .expected_public_size = 133, .expected_ss_size = 66,
	},
};

static const struct kpp_test_suite ecdh_p256_suite = { ecdh_p256_tv, ARRAY_SIZE(ecdh_p256_tv) };
static const struct kpp_test_suite ecdh_p384_suite = { ecdh_p384_tv, ARRAY_SIZE(ecdh_p384_tv) };
static const struct kpp_test_suite ecdh_p521_suite = { ecdh_p521_tv, ARRAY_SIZE(ecdh_p521_tv) };

static struct alg_test_desc ecdh_test_descs[] = {
	{ .alg = "ecdh-nist-p256", .suite.priv = &ecdh_p256_suite },
	{ .alg = "ecdh-nist-p384", .suite.priv = &ecdh_p384_suite },
	{ .alg = "ecdh-nist-p521", .suite.priv = &ecdh_p521_suite },
};

/* The generic drivers: names here, the protocol entries from ecdh_register_curve_driver. */
#define ECDH_GENERIC(crv, name)							\
	{									\
		.curve = &crv,							\
		.alg.base = { .cra_name = name, .cra_driver_name = name "-generic",	\
			      .cra_priority = 100, .cra_module = "generic" },	\
	}

static struct ecdh_driver ecdh_generic_drivers[] = {
	ECDH_GENERIC(ecc_p256_generic, "ecdh-nist-p256"),
	ECDH_GENERIC(ecc_p384_generic, "ecdh-nist-p384"),
	ECDH_GENERIC(ecc_p521_generic, "ecdh-nist-p521"),
};

/* A driver over an implementation of a curve, with this file's protocol (<crypto/ecc.h>). */
int ecdh_register_curve_driver(struct ecdh_driver *drv)
{
	struct kpp_alg *a = &drv->alg;

	a->set_secret = ecdh_set_secret;
	a->generate_public_key = ecdh_generate_public_key;
	a->compute_shared_secret = ecdh_compute_shared_secret;
	a->max_size = ecdh_max_size;
	a->export_pubkey = ecdh_export_pubkey;
	a->export_privkey = ecdh_export_privkey;
	a->base.cra_ctxsize = sizeof(struct ecdh_ctx);
	return crypto_register_kpp(a);
}

static int ecdh_mod_init(void)
{
	unsigned int i;
	int err;

	crypto_register_tests(ecdh_test_descs, ARRAY_SIZE(ecdh_test_descs));
	for (i = 0; i < ARRAY_SIZE(ecdh_generic_drivers); i++) {
		err = ecdh_register_curve_driver(&ecdh_generic_drivers[i]);
		if (err)
			return err;
	}
	return 0;
}

module_init(ecdh_mod_init);
