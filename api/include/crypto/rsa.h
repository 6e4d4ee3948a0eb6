/* SPDX-License-Identifier: MIT */
/*
 * RSA (RFC 8017): the internal contract between the files that make it.
 *
 *   algs/rsa.c         the primitives RSAEP/RSAVP1 and RSADP/RSASP1 (CRT,
 *                      blinding, fault check) over an engine (below)
 *   algs/rsa-key.c     key assembly and the import checks
 *   algs/rsa-keyfmt.c  key encodings: PKCS#1, SPKI, PKCS#8, PEM, JWK
 *   algs/rsa-keygen.c  key generation
 *   algs/rsa-tfm.c     what the padding files share: tfm context, sig and
 *                      akcipher glue, MGF1, the self-test key
 *   algs/rsa-pkcs1.c, rsa-pss.c (sig), rsa-oaep.c (akcipher): the padding
 *                      schemes, the only files that register algorithms.
 *
 * Policy: imported keys have a modulus of 2048 to 8192 bits and an odd
 * public exponent 3 <= e < 2^64 (verification of existing keys); a
 * private key must carry its CRT parameters (two primes, no multi-prime).
 * Generated keys: 2048 to 8192 bits (even), e = 65537 only.  Anything
 * else is refused (-EKEYREJECTED on import, -EINVAL for generation).
 *
 * Key encodings: the raw form (RIND_KEY_RAW) of an RSA public key is the
 * PKCS#1 RSAPublicKey DER, of a private key the PKCS#1 RSAPrivateKey DER;
 * also SPKI / PKCS#8 DER (rsaEncryption), PEM ("PUBLIC KEY", "PRIVATE
 * KEY", and on import "RSA PUBLIC KEY", "RSA PRIVATE KEY") and JWK
 * (kty "RSA"; a private JWK needs d, p, q, dp, dq, qi).
 */
#ifndef _RIND_RSA_H
#define _RIND_RSA_H

#include <rind/types.h>
#include <rind/keyformat.h>
#include <rind/internal/sig.h>
#include <rind/internal/akcipher.h>
#include <crypto/bignum.h>

#define RSA_MIN_BITS		2048
#define RSA_MAX_BITS		8192
#define RSA_MAX_BYTES		(RSA_MAX_BITS / 8)
#define RSA_KEYGEN_E		65537

/*
 * ---- the engine: where an arch driver plugs in --------------------------
 *
 * An RSA operation is padding, then blinding, two half-size modular
 * exponentiations (CRT), Garner recombination, unblinding and the fault
 * check with the public exponent; or, public, one exponentiation by e.
 * The exponentiations are most of the time (RSA-2048 signing: two of
 * 1024 squarings and 256 multiplications each, on 16-limb numbers,
 * against some twenty multiplications and one blinded inversion around
 * them), so they are what an engine supplies; everything else (padding, key import and its checks, blinding, CRT
 * recombination, the fault check, key generation's prime search) is the
 * shared C of the files above, the same for every engine.  The unit is a
 * whole exponentiation, not one Montgomery multiplication: an engine then
 * keeps its own operand layout, windowing and loop structure across the
 * exponent (the MULX/ADX and AVX-512 IFMA drivers of the next issue),
 * and the generic path pays no indirect call per multiplication.
 *
 * The representation at the seam is bignum.h's: @mc->n little-endian
 * 64-bit limbs, values in Montgomery form for R = 2^(64 n), the modulus
 * and its constants (m0inv, R mod m, R^2 mod m) in struct bn_mont.  An
 * engine with another internal radix (IFMA's 52-bit digits) or another R
 * converts on entry and on exit, which costs a multiplication or a linear
 * pass against the exponent's thousand squarings.  An engine must accept
 * every size the generic one does, 1 to BN_MAX_LIMBS limbs (whole moduli
 * of 2048 to 8192 bits, CRT halves, which an imported key may have
 * unbalanced, and keygen's candidates), falling back to the generic
 * functions itself for the sizes it does not handle.
 *
 * @exp_ct: r = a^e mod m, e secret of @en limbs (all 64 en bits are
 *	processed, leading zeros included).  Constant time in a, e and the
 *	modulus (the CRT primes and keygen's prime candidates are secret):
 *	no branch, no memory index, no variable-latency instruction that
 *	depends on them.  Scratch is wiped.  r may alias a.
 * @exp_vt: r = a^e mod m for a public e; may vary with e only.  It must be
 *	constant time in a: it raises the secret blinding factor and, in
 *	the fault check, the secret result (an OAEP plaintext) to e.
 * @mont_mul: optional (NULL: bn_mont_mul), bn_mont_mul's contract: r = a b
 *	/ R mod m, a < R, b < m, r may alias a or b, constant time.  The
 *	shared code's conversions in and out of Montgomery form, the CRT
 *	reductions and recombination and the blinding use it: some forty
 *	products a signature, too many to leave to the generic code beside a
 *	fast exponentiation.
 *
 * A key carries the engine of the tfm that holds it (rsa_key.eng); the
 * tfm takes it from its driver at init (struct rsa_sig_driver and
 * rsa_akcipher_driver: the engine next to the registered alg, as
 * ecdsa_driver carries its curve).  An arch driver therefore defines a
 * const struct rsa_engine and registers, with rsa_sig_register_drivers()
 * and rsa_akcipher_register_drivers() and above the generic priority,
 * drivers for the padding names whose .eng points at it and whose entry
 * points are the padding files' (rsa_pkcs1/pss/oaep_fill_drivers() below
 * fill such a table for an engine, as ecdsa_register_curve_driver() does
 * for a curve; arch/x86/rsa-adx.c is one).  Such drivers leave
 * .kat.alg NULL: the name's known answers are registered with the
 * generic driver, and the registry runs them for every driver of the
 * name.  The Wycheproof suites reach a driver by its driver name.
 */
struct rsa_engine {
	const char *name;		/* driver-name suffix: "generic", ... */
	void (*exp_ct)(u64 *r, const u64 *a, const u64 *e, unsigned int en,
		       const struct bn_mont *mc);
	void (*exp_vt)(u64 *r, const u64 *a, u64 e, const struct bn_mont *mc);
	void (*mont_mul)(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mc);
	/*
	 * Optional: r = a^e mod m with a (< m) and r in the ordinary form, the
	 * conversions folded in (the last product is by a itself, which
	 * leaves the Montgomery form: one product fewer than to_mont, exp_vt,
	 * from_mont).  Variable time in e only.
	 */
	void (*exp_pub)(u64 *r, const u64 *a, u64 e, const struct bn_mont *mc);
	/*
	 * Optional (NULL: exp_ct twice): the two CRT exponentiations at once,
	 * r1 = a1^e1 mod m1 and r2 = a2^e2 mod m2, each with exp_ct's contract,
	 * for an engine that runs them side by side (the AVX-512 IFMA one);
	 * it takes any pair of sizes, falling back itself.
	 */
	void (*exp_ct2)(u64 *r1, const u64 *a1, const u64 *e1, unsigned int en1,
			const struct bn_mont *mc1,
			u64 *r2, const u64 *a2, const u64 *e2, unsigned int en2,
			const struct bn_mont *mc2);
	/*
	 * Optional (NULL: the fault check is exp_pub mod n): exp_vt on the two
	 * CRT moduli at once, r1 = a1^e mod m1 and r2 = a2^e mod m2 in the
	 * Montgomery forms (a1, a2 below their moduli; r1, r2 below them),
	 * variable time in e only, for the fault check of rsa_private (m^e = c
	 * mod p and mod q), where the two half-size exponentiations side by
	 * side cost less than one of full size.  It takes any pair of sizes,
	 * falling back itself.
	 */
	void (*exp_vt2)(u64 *r1, const u64 *a1, const struct bn_mont *mc1,
			u64 *r2, const u64 *a2, const struct bn_mont *mc2, u64 e);
	/*
	 * Optional (NULL: no batch path): @cnt (1 to @lanes) exponentiations
	 * modulo one modulus by one exponent at once, r[i] = a[i]^e mod m,
	 * each with exp_ct's contract, side by side in SIMD lanes (the
	 * AVX-512 IFMA engine: eight signatures of one key, rsa_private_batch);
	 * it takes any size, falling back itself.  @lanes_min(n): the
	 * smallest count worth running in lanes for @n-limb moduli (a pass
	 * costs the same for any count), 0 where lanes do not serve that
	 * size; the batch signer runs shorter groups one at a time.
	 */
	void (*exp_ct_lanes)(u64 *const *r, const u64 *const *a, unsigned int cnt,
			     const u64 *e, unsigned int en, const struct bn_mont *mc);
	/*
	 * Optional (NULL: exp_vt2 a request): exp_vt of @cnt (1 to @lanes)
	 * numbers modulo one modulus at once, r[i] = a[i]^e mod m (Montgomery
	 * forms, e public), for the fault checks of a batch (mod p and mod
	 * q, as with exp_vt2, which an engine with this one has too); it
	 * takes any size, falling back itself.
	 */
	void (*exp_vt_lanes)(u64 *const *r, const u64 *const *a, unsigned int cnt, u64 e,
			     const struct bn_mont *mc);
	unsigned int (*lanes_min)(unsigned int n);
	unsigned int lanes;
};

/*
 * For the engines' fixed-window exponentiations: @nb (< 64) bits of the
 * @en-limb exponent e from bit @pos (the positions are public, the bits
 * secret: no branch on them).
 */
static inline u64 rsa_exp_window(const u64 *e, unsigned int en, unsigned int pos, unsigned int nb)
{
	unsigned int w = pos / 64, s = pos % 64;
	u64 v = e[w] >> s;

	if (s + nb > 64 && w + 1 < en)
		v |= e[w + 1] << (64 - s);
	return v & (((u64)1 << nb) - 1);
}

/*
 * A key's cached blinding pair (rsa.c): vi = r^e and vf = r^-1 mod n
 * (Montgomery form) for a random r, both squared on each use (r becomes
 * r^2, the pair stays a pair) and drawn afresh every RSA_BLIND_USES uses,
 * so that a signature pays two squarings where a fresh pair costs an
 * inversion and an exponentiation by e.  @busy is taken with an atomic
 * test-and-set: a caller that finds it taken makes a fresh pair of its
 * own instead of waiting.  @uses 0: no pair.
 */
#define RSA_BLIND_USES	32
struct rsa_blind_cache {
	bool busy;
	unsigned int uses;
	u64 vi[BN_MAX_LIMBS];
	u64 vf[BN_MAX_LIMBS];
};

/* bn_mont_exp_ct / bn_mont_exp_vt (algs/bignum.c). */
extern const struct rsa_engine rsa_engine_generic;

struct rsa_key {
	unsigned int bits;		/* modulus bits; 0 when no key */
	unsigned int k;			/* modulus bytes */
	bool has_priv;
	/* The tfm's, kept across imports and wipes; NULL: the generic one. */
	const struct rsa_engine *eng;
	u64 e;
	struct bn_mont mn;		/* n (mn.m), nlimbs = mn.n */
	/* Private (has_priv). */
	u64 d[BN_MAX_LIMBS];		/* mn.n limbs, for export */
	u64 dp[BN_MAX_LIMBS];		/* mp.n limbs */
	u64 dq[BN_MAX_LIMBS];		/* mq.n limbs */
	u64 qinv[BN_MAX_LIMBS];		/* mp.n limbs */
	struct bn_mont mp;		/* p */
	struct bn_mont mq;		/* q */
	/* R^3 mod p, mod q (R = 2^(64 mp.n)): a 2n-limb x to x R in two products (rsa.c) */
	u64 rr3p[BN_MAX_LIMBS], rr3q[BN_MAX_LIMBS];
	/*
	 * Written by rsa_private through its const key (a cache, not key
	 * material); a fresh key (rsa_install) and a wipe start it empty.
	 */
	struct rsa_blind_cache blind;
};

static inline const struct rsa_engine *rsa_key_engine(const struct rsa_key *key)
{
	return key->eng ? key->eng : &rsa_engine_generic;
}

/* Replace the key in @key (unchanged on error).  0 or -EKEYREJECTED / -ENOMEM. */
int rsa_import_pub(struct rsa_key *key, const u8 *in, size_t len);
int rsa_import_priv(struct rsa_key *key, const u8 *in, size_t len);
/* Length written, -ENOSPC, -EINVAL (no such format), -ENOKEY. */
int rsa_export_pub(const struct rsa_key *key, enum rind_key_format fmt, u8 *out, size_t outlen);
int rsa_export_priv(const struct rsa_key *key, enum rind_key_format fmt, u8 *out, size_t outlen);
/* A fresh key pair of @bits (2048..8192, even), e = 65537.  0, -EINVAL, -errno. */
int rsa_generate(struct rsa_key *key, unsigned int bits);
/* Wipe the key material (the engine stays: it is the tfm's). */
void rsa_key_wipe(struct rsa_key *key);

/*
 * ---- between the key files (rsa-key.c, rsa-keyfmt.c, rsa-keygen.c) ----
 *
 * A key's components as big-endian strings, leading zeros allowed, the
 * way a decoder or the key generator finds them.
 */
struct rsa_parts {
	const u8 *n, *e, *d, *p, *q, *dp, *dq, *qi;
	size_t nlen, elen, dlen, plen, qlen, dplen, dqlen, qilen;
};

/*
 * Check @pt (the private components too when @priv) and replace @key with
 * it; @key is unchanged on error.  0, -EKEYREJECTED, -ENOMEM.  The checks
 * on private components run in constant time, and only their one verdict
 * is made public.
 */
int rsa_install(struct rsa_key *key, const struct rsa_parts *pt, bool priv);
/* Skip leading zero bytes (whose count is public: minimal encodings). */
void rsa_strip_zeros(const u8 **p, size_t *len);

/*
 * ---- primitives (rsa.c) -------------------------------------------------
 *
 * RSAVP1 / RSAEP: @out = @in^e mod n, both key->k bytes big-endian.
 * -EBADMSG when in >= n.  Variable time (public values).
 */
int rsa_public(const struct rsa_key *key, u8 *out, const u8 *in);
/*
 * RSASP1 / RSADP: @out = @in^d mod n via CRT, with a fresh random
 * blinding factor and constant-time exponentiations; the result is
 * checked with the public exponent before it is released (a fault gives
 * -EIO and no output).  -EBADMSG when in >= n; -ENOKEY without a private key.
 */
int rsa_private(const struct rsa_key *key, u8 *out, const u8 *in);
/*
 * The same for @n inputs at once (crypto_sig_sign_batch): each request's
 * @err is rsa_private's result for it (0, -EBADMSG, -EIO, -ENOMEM, ...;
 * -ENOKEY for all without a private key), its @out written only on
 * success; requests that enter with @err set are skipped and keep it.
 * Each has its own blinding pair and its own fault check; the engine's
 * exp_ct_lanes runs the exponentiations of up to @lanes of them side by
 * side where the key's halves are a size it serves in lanes and at least
 * lanes_min(n) are left, else they are made one at a time.
 */
struct rsa_priv_req {
	u8 *out;
	const u8 *in;
	int err;
};
void rsa_private_batch(const struct rsa_key *key, struct rsa_priv_req *reqs, unsigned int n);
/* How many of a batch of @n rsa_private_batch runs side by side (1: none). */
unsigned int rsa_batch_lanes(const struct rsa_key *key, unsigned int n);

/* ---- shared by the padding files (rsa-tfm.c) ----------------------------- */

/* MGF1 (RFC 8017 B.2.1) with @hash: out ^= MGF1(seed, outlen). */
struct crypto_shash;
int rsa_mgf1_xor(struct crypto_shash *hash, const u8 *seed, unsigned int seedlen,
		 u8 *out, unsigned int outlen);

/*
 * What the three padding files share for their tfm contexts: the key, the
 * message hash, and the size for generation.
 */
struct rsa_tfm_ctx {
	struct rsa_key key;
	struct crypto_shash *hash;
	unsigned int keygen_bits;
};

int rsa_ctx_init(struct rsa_tfm_ctx *ctx, const char *hash_name);
/* The same, the hash taken from a cra_name: "oaep(rsa,sha384)" -> "sha384". */
int rsa_ctx_init_from_name(struct rsa_tfm_ctx *ctx, const char *cra_name);
void rsa_ctx_exit(struct rsa_tfm_ctx *ctx);
int rsa_ctx_set_keygen_bits(struct rsa_tfm_ctx *ctx, unsigned int bits);

/*
 * A registered RSA algorithm, the engine its tfms compute with, and the
 * known answers of its name (.kat.alg NULL: registered with another
 * driver of the name).
 */
struct rsa_sig_driver {
	const struct rsa_engine *eng;
	struct alg_test_desc kat;
	struct sig_alg alg;
};

struct rsa_akcipher_driver {
	const struct rsa_engine *eng;
	struct alg_test_desc kat;
	struct akcipher_alg alg;
};


/*
 * Glue for the sig algorithms (rsa-pkcs1.c, rsa-pss.c) and the akcipher
 * ones (rsa-oaep.c), the same functions for both tfm types (rsa_sig_*,
 * rsa_akcipher_*): their tfm context is a struct rsa_tfm_ctx; init takes
 * the hash from the cra_name ("pss(rsa,sha384)" -> "sha384") and the
 * engine from the driver.  register_drivers registers @n drivers, each
 * after its known answers; on an error none of them stays registered.
 */
#define RSA_TFM_GLUE_DECLARE(type)					\
	int rsa_##type##_init(struct crypto_##type *tfm);		\
	void rsa_##type##_exit(struct crypto_##type *tfm);		\
	int rsa_##type##_set_pub_key(struct crypto_##type *tfm, const void *key, \
				     unsigned int keylen);		\
	int rsa_##type##_set_priv_key(struct crypto_##type *tfm, const void *key, \
				      unsigned int keylen);		\
	int rsa_##type##_generate_key(struct crypto_##type *tfm);	\
	int rsa_##type##_set_keygen_bits(struct crypto_##type *tfm, unsigned int bits); \
	int rsa_##type##_export_pubkey(struct crypto_##type *tfm, enum rind_key_format fmt, \
				       u8 *out, unsigned int outlen);	\
	int rsa_##type##_export_privkey(struct crypto_##type *tfm, enum rind_key_format fmt, \
					u8 *out, unsigned int outlen);	\
	unsigned int rsa_##type##_max_size(struct crypto_##type *tfm);	\
	int rsa_##type##_register_drivers(struct rsa_##type##_driver *drv, unsigned int n)

RSA_TFM_GLUE_DECLARE(sig);
RSA_TFM_GLUE_DECLARE(akcipher);
unsigned int rsa_sig_key_size(struct crypto_sig *tfm);

#define RSA_TFM_OPS(prefix)						\
	.init = prefix##_init,						\
	.exit = prefix##_exit,						\
	.set_pub_key = prefix##_set_pub_key,				\
	.set_priv_key = prefix##_set_priv_key,				\
	.generate_key = prefix##_generate_key,				\
	.set_keygen_bits = prefix##_set_keygen_bits,			\
	.export_pubkey = prefix##_export_pubkey,			\
	.export_privkey = prefix##_export_privkey,			\
	.max_size = prefix##_max_size

#define RSA_SIG_OPS		RSA_TFM_OPS(rsa_sig), .key_size = rsa_sig_key_size
#define RSA_AKCIPHER_OPS	RSA_TFM_OPS(rsa_akcipher)

/*
 * The generic driver of "scheme(rsa,hash)", "scheme-rsa-hash-generic",
 * its known answers the array @tv of a suite_type, the padding's entry
 * points and ops in the variable arguments.
 */
#define RSA_GENERIC_DRIVER(scheme, hash, suite_type, tv, ...)		\
	{								\
		.eng = &rsa_engine_generic,				\
		.kat = {						\
			.alg = #scheme "(rsa," #hash ")",		\
			.suite.priv = &(const suite_type){ tv, ARRAY_SIZE(tv) }, \
		},							\
		.alg = {						\
			__VA_ARGS__,					\
			.base = {					\
				.cra_name = #scheme "(rsa," #hash ")",	\
				.cra_driver_name = #scheme "-rsa-" #hash "-generic", \
				.cra_priority = 100,			\
				.cra_ctxsize = sizeof(struct rsa_tfm_ctx), \
				.cra_module = "generic",		\
			},						\
		},							\
	}

/*
 * The drivers of a padding scheme over another engine (an arch driver's):
 * rsa_<scheme>_fill_drivers() fills @drv, RSA_SCHEME_NDRIVERS entries
 * (sha256, sha384, sha512), with "scheme(rsa,hash)" drivers named
 * "scheme-rsa-hash-<eng->name>" at @priority, computing with @eng, and no
 * known answers of their own (the generic driver's are run for them);
 * the caller registers the table with rsa_sig/akcipher_register_drivers().
 */
#define RSA_SCHEME_NDRIVERS	3
void rsa_pkcs1_fill_drivers(struct rsa_sig_driver *drv, const struct rsa_engine *eng,
			    int priority, const char *module);
void rsa_pss_fill_drivers(struct rsa_sig_driver *drv, const struct rsa_engine *eng,
			  int priority, const char *module);
void rsa_oaep_fill_drivers(struct rsa_akcipher_driver *drv, const struct rsa_engine *eng,
			   int priority, const char *module);

/*
 * An engine's drivers of all three schemes (pkcs1, pss, oaep, each for
 * sha256/384/512), kept by the arch file (static storage: the registry
 * keeps pointers into it).
 */
struct rsa_engine_drivers {
	struct rsa_sig_driver pkcs1[RSA_SCHEME_NDRIVERS];
	struct rsa_sig_driver pss[RSA_SCHEME_NDRIVERS];
	struct rsa_akcipher_driver oaep[RSA_SCHEME_NDRIVERS];
};

/*
 * rsa-tfm.c: rsa_fill_engine_drivers() fills @d with the three schemes'
 * drivers over @eng at @priority (rsa_<scheme>_fill_drivers), and
 * rsa_register_engine_drivers() registers them; on an error none of them
 * stays registered.  rsa_register_engine() is both.  An engine with
 * exp_ct_lanes gets the sig drivers' sign_batch from the fill functions
 * (rsa_sig_fill_batch below).
 */
void rsa_fill_engine_drivers(struct rsa_engine_drivers *d, const struct rsa_engine *eng,
			     int priority, const char *module);
int rsa_register_engine_drivers(struct rsa_engine_drivers *d);
int rsa_register_engine(struct rsa_engine_drivers *d, const struct rsa_engine *eng,
			int priority, const char *module);

/*
 * Batches (rsa-tfm.c).  rsa_sig_sign_batch() is a sig scheme's sign_batch
 * over its EMSA encoding @encode (k bytes of @em from the message):
 * each request's checks as the scheme's sign (-ENOKEY, -EINVAL for a
 * @siglen below k or an encoding that does not fit), then
 * rsa_private_batch() over the good ones, a request's @sig written and
 * its @siglen set only when it succeeds.  rsa_sig_fill_batch() gives @n
 * drivers of an engine with exp_ct_lanes that sign_batch and the lane
 * counts (batch_min: the RSA-2048 figure); nothing for other engines,
 * whose batches the front end signs one at a time.
 */
typedef int rsa_encode_fn(struct rsa_tfm_ctx *ctx, const void *msg, unsigned int msglen, u8 *em);
/* A sig scheme's sign over @encode: -ENOKEY, -EINVAL (@siglen below k), the length k. */
int rsa_sig_sign_one(struct crypto_sig *tfm, const void *msg, unsigned int msglen,
		     void *sig, unsigned int siglen, rsa_encode_fn *encode);
void rsa_sig_sign_batch(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n,
			rsa_encode_fn *encode);
void rsa_sig_fill_batch(struct rsa_sig_driver *drv, unsigned int n, const struct rsa_engine *eng,
			void (*sign_batch)(struct crypto_sig *tfm, struct sig_request *reqs,
					   unsigned int n));

/* The body of those: @alg_type initialised with the padding's entry points. */
#define RSA_FILL_DRIVERS(scheme, alg_type, drv, eng, priority, module, ...) \
	do {								\
		static const char *const hashes_[RSA_SCHEME_NDRIVERS] = { \
			"sha256", "sha384", "sha512",			\
		};							\
		unsigned int i_;					\
									\
		for (i_ = 0; i_ < RSA_SCHEME_NDRIVERS; i_++) {		\
			struct crypto_alg *b_ = &(drv)[i_].alg.base;	\
									\
			memset(&(drv)[i_], 0, sizeof((drv)[i_]));	\
			(drv)[i_].eng = (eng);				\
			(drv)[i_].alg = (alg_type){ __VA_ARGS__ };	\
			snprintf(b_->cra_name, sizeof(b_->cra_name),	\
				 #scheme "(rsa,%s)", hashes_[i_]);	\
			snprintf(b_->cra_driver_name, sizeof(b_->cra_driver_name), \
				 #scheme "-rsa-%s-%s", hashes_[i_], (eng)->name); \
			b_->cra_priority = (priority);			\
			b_->cra_ctxsize = sizeof(struct rsa_tfm_ctx);	\
			b_->cra_module = (module);			\
		}							\
	} while (0)

/* The RSA-2048 key of the known-answer tests: PKCS#1 private and public DER. */
#define RSA_KAT_PRIV_SIZE	1193
#define RSA_KAT_PUB_SIZE	270
extern const char rsa_kat_privkey[RSA_KAT_PRIV_SIZE + 1];
extern const char rsa_kat_pubkey[RSA_KAT_PUB_SIZE + 1];

/* A known-answer signature of "abc" under that key (rsa-pkcs1.c, rsa-pss.c). */
#define RSA_KAT_SIG_TV(signature, ...)					\
	{								\
		.pubkey = rsa_kat_pubkey,				\
		.msg = "abc",						\
		.sig = signature,					\
		.pubkey_size = RSA_KAT_PUB_SIZE,			\
		.msg_size = 3,						\
		.sig_size = 256,					\
		__VA_ARGS__						\
	}

#endif /* _RIND_RSA_H */
