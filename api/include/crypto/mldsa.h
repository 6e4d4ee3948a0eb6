/* SPDX-License-Identifier: MIT */
/*
 * ML-DSA (FIPS 204) internals shared by algs/mldsa*.c, the tests and any
 * arch driver: the parameter sets, the polynomial arithmetic (mod q =
 * 8380417, NTT domain), and a key object whose operations are the
 * "_internal" algorithms of FIPS 204 (sign over mu with an explicit rnd,
 * verify over mu).  Library internal (hidden symbols).
 *
 * Representation: 256 signed 32-bit coefficients.  NTT-domain values are
 * plain (no Montgomery factor); a pointwise product carries R^-1 (R =
 * 2^32), which mldsa_invntt_tomont()'s final scaling cancels, so the
 * inverse transform of a sum of products is the exact product.
 */
#ifndef _RIND_ALGS_MLDSA_H
#define _RIND_ALGS_MLDSA_H

#include <stddef.h>
#include <rind/types.h>
#include <rind/internal/keyfmt.h>

#define MLDSA_N			256
#define MLDSA_Q			8380417
#define MLDSA_D			13
#define MLDSA_KMAX		8
#define MLDSA_LMAX		7
#define MLDSA_SEED_BYTES	32	/* xi, the private key of API.md */
#define MLDSA_RND_BYTES		32
#define MLDSA_TR_BYTES		64
#define MLDSA_MU_BYTES		64
#define MLDSA_CTX_MAX		255
#define MLDSA_PK_MAX		(32 + 320 * MLDSA_KMAX)			/* 2592 */
#define MLDSA_SK_MAX		4896
#define MLDSA_SIG_MAX		4627
#define MLDSA_OMEGA_MAX		80	/* the largest omega, ML-DSA-44's */

struct mldsa_params {
	const char *name;		/* "mldsa65" */
	unsigned int k, l, eta, tau, beta, omega;
	unsigned int gamma1_bits;	/* gamma1 = 2^17 or 2^19 */
	s32 gamma2;			/* (q-1)/88 or (q-1)/32 */
	unsigned int ctilde_bytes;	/* lambda / 4 */
	unsigned int pk_size, sk_size, sig_size;
	enum rind_oid oid;
};

extern const struct mldsa_params rind_mldsa44_params;
extern const struct mldsa_params rind_mldsa65_params;
extern const struct mldsa_params rind_mldsa87_params;

struct mldsa_poly {
	s32 c[MLDSA_N];
};

/*
 * The transforms an implementation provides (an arch driver may bring
 * its own; the generic ones are below).  ntt: input |a| < 2^20 (or < q),
 * output |a| < 10q.  invntt_tomont: input |a| < q, output in (-q, q).
 */
struct mldsa_key;
struct mldsa_challenge;

/*
 * ExpandMask's streams computed ahead inside one signing loop, for a
 * driver that does (the generic code keeps nothing): @init is 0 before
 * the loop (the driver sets up @drv, its sponges and their output, at
 * its first call), and the whole struct is wiped after it.
 */
struct mldsa_mask_cache {
	unsigned int init;
	u8 drv[12288] __attribute__((aligned(32)));
};

/*
 * The signer's secrets s1, s2, t0 in the layout of a driver's signing
 * hooks (sign_prepare below), made once per signature and wiped after
 * it.  Generic: each as rind_mldsa_poly_negext() gives it, s1 at
 * e[0 .. LMAX), s2 at e[LMAX .. LMAX + KMAX), t0 after them; a driver
 * may use the space as it likes.
 */
struct mldsa_sign_pre {
	s32 e[MLDSA_LMAX + 2 * MLDSA_KMAX][2 * MLDSA_N];
};

/*
 * Every hook is set (an arch driver points those it does not speed up at
 * the generic functions below); each must give exactly the generic
 * function's output, so that keys and deterministic signatures are the
 * same whichever driver made them.
 */
struct mldsa_ops {
	void (*ntt)(struct mldsa_poly *a);
	void (*invntt_tomont)(struct mldsa_poly *a);
	/* as rind_mldsa_pointwise_acc, rind_mldsa_pointwise, rind_mldsa_poly_reduce */
	void (*pointwise_acc)(struct mldsa_poly *r, const struct mldsa_poly *a,
			      const struct mldsa_poly *b, unsigned int n);
	void (*pointwise)(struct mldsa_poly *r, const struct mldsa_poly *a,
			  const struct mldsa_poly *b);
	void (*poly_reduce)(struct mldsa_poly *a);
	/* sampling, as rind_mldsa_expand_a / _expand_s / _expand_mask */
	void (*expand_a)(struct mldsa_key *key);
	void (*expand_s)(const struct mldsa_params *p, const u8 rhop[64],
			 struct mldsa_poly *s1, struct mldsa_poly *s2);
	void (*expand_mask)(const struct mldsa_params *p, const u8 rhopp[64], u16 kappa,
			    struct mldsa_poly *y);
	/*
	 * The same inside the signing loop, whose kappa only grows (by l, from
	 * 0): may keep streams for the next kappas in @cache.
	 */
	void (*expand_mask_loop)(const struct mldsa_params *p, const u8 rhopp[64], u16 kappa,
				 struct mldsa_poly *y, struct mldsa_mask_cache *cache);
	/* as rind_mldsa_poly_mul_challenge, _poly_decompose, _poly_highbits */
	void (*mul_challenge)(struct mldsa_poly *r, const s32 *e, const struct mldsa_challenge *c);
	/* the same for |a| <= eta (s1, s2), so |c a| <= 4 tau < 2^15 */
	void (*mul_challenge_eta)(struct mldsa_poly *r, const s32 *e,
				  const struct mldsa_challenge *c);
	void (*poly_decompose)(struct mldsa_poly *r1, struct mldsa_poly *r0,
			       const struct mldsa_poly *a, s32 gamma2);
	void (*poly_highbits)(struct mldsa_poly *r1, const struct mldsa_poly *a, s32 gamma2);
	/* as rind_mldsa_poly_use_hint (public data: the verifier's) */
	void (*poly_use_hint)(struct mldsa_poly *r, const struct mldsa_poly *a,
			      const struct mldsa_poly *h, s32 gamma2);
	/*
	 * The signing loop's steps, each one pass (generic: rind_mldsa_sign_*
	 * below, over the hooks above).  sign_prepare: @key's s1, s2, t0 into
	 * @pre.  w1_pack: w = caddq(w) (from (-q, q)) and w1Encode(HighBits(w))
	 * into @out.  sign_z: z = z + c s1[j] (z = y in); all ones when some
	 * |z| >= gamma1 - beta, else 0.  sign_r: w (in [0, q)) to the split
	 * form w1 2^24 + (w0 - c s2[i]) of its Decompose (w1, w0) (see
	 * mldsa_split_w below); all ones when some |w0 - c s2| >= gamma2 -
	 * beta.  That is FIPS 204's check of LowBits(w - c s2): with |c s2|
	 * <= beta both fail or pass together, and when they pass,
	 * Decompose(w - c s2) = (w1, w0 - c s2) exactly, so r = w - c s2 is
	 * w1 2 gamma2 + (w0 - c s2) mod q with HighBits(r) = w1 (the
	 * reference implementation's form; tests/test_mldsa.c checks both
	 * against FIPS 204 computed directly).  sign_hint: with sign_r's w,
	 * h = MakeHint(-c t0[i], r + c t0[i]) = [HighBits(r + c t0[i]) !=
	 * w1] (0 or 1), *count += the ones; all ones when some |c t0[i]| >=
	 * gamma2.
	 */
	/*
	 * ctilde: c-tilde = H(mu || w1, ctilde_bytes) (@w1: w1len bytes) in
	 * the signing loop at @kappa, and @ball = the first block of
	 * H(c-tilde) (SampleInBall's stream, SHAKE256_RATE bytes); may also
	 * compute y for kappas past kappa + l into @cache (as
	 * expand_mask_loop keeps it).
	 */
	void (*ctilde)(const struct mldsa_params *p, u8 *ctilde, u8 *ball,
		       const u8 mu[MLDSA_MU_BYTES], const u8 *w1, size_t w1len,
		       const u8 rhopp[64], u16 kappa, struct mldsa_mask_cache *cache);
	void (*sign_prepare)(struct mldsa_sign_pre *pre, const struct mldsa_key *key);
	void (*w1_pack)(u8 *out, struct mldsa_poly *w, s32 gamma2);
	u32 (*sign_z)(struct mldsa_poly *z, const struct mldsa_sign_pre *pre, unsigned int j,
		      const struct mldsa_challenge *c, const struct mldsa_params *p);
	u32 (*sign_r)(struct mldsa_poly *w, const struct mldsa_sign_pre *pre, unsigned int i,
		      const struct mldsa_challenge *c, const struct mldsa_params *p);
	u32 (*sign_hint)(struct mldsa_poly *h, const struct mldsa_poly *w,
			 const struct mldsa_sign_pre *pre, unsigned int i,
			 const struct mldsa_challenge *c, const struct mldsa_params *p, u32 *count);
	/*
	 * sign_w: an attempt's w = NTT^-1(A-hat NTT(y)) with every coefficient
	 * in [0, q) (@w: k polynomials) and w1Encode(HighBits(w)) into @w1
	 * (k w1 encodings); @yh: l polynomials of scratch.  Only these outputs
	 * are specified, not the values in between, so a driver may keep its
	 * transforms' intermediate values in other representatives than
	 * the ntt/invntt_tomont hooks (which must match the generic ones).
	 */
	void (*sign_w)(const struct mldsa_key *key, const struct mldsa_poly *y,
		       struct mldsa_poly *yh, struct mldsa_poly *w, u8 *w1);
};

extern const struct mldsa_ops rind_mldsa_generic_ops;

/*
 * A key.  The public part: pk, rho, tr = H(pk), A-hat expanded once, and
 * NTT(t1 * 2^d).  With @has_priv: K, s1, s2, t0 (normal domain: the
 * signer multiplies them by the sparse challenge directly) and the
 * expanded secret key bytes; with @has_seed the seed
 * xi it came from.  Signing and verifying only read the key, so a keyed
 * tfm can be shared by threads.
 */
struct mldsa_key {
	const struct mldsa_params *p;
	const struct mldsa_ops *ops;
	bool has_pub, has_priv, has_seed;
	u8 rho[32], K[32], tr[MLDSA_TR_BYTES], seed[MLDSA_SEED_BYTES];
	u8 pk[MLDSA_PK_MAX];
	u8 sk[MLDSA_SK_MAX];
	struct mldsa_poly a[MLDSA_KMAX][MLDSA_LMAX];
	struct mldsa_poly t1[MLDSA_KMAX];
	struct mldsa_poly s1[MLDSA_LMAX], s2[MLDSA_KMAX], t0[MLDSA_KMAX];
	/* with @has_priv: s1, s2, t0 as the signing hooks take them (ops->sign_prepare) */
	struct mldsa_sign_pre pre;
};

/* ---- arithmetic (algs/mldsa-poly.c) ------------------------------------ */

void rind_mldsa_init_tables(void);
void rind_mldsa_ntt_generic(struct mldsa_poly *a);
void rind_mldsa_invntt_tomont_generic(struct mldsa_poly *a);
/* r = sum_j a[j] * b[j] (pointwise, Montgomery), reduced to |r| < q. */
void rind_mldsa_pointwise_acc(struct mldsa_poly *r, const struct mldsa_poly *a,
			      const struct mldsa_poly *b, unsigned int n);
/* r = a * b (pointwise, Montgomery), |r| < q. */
void rind_mldsa_pointwise(struct mldsa_poly *r, const struct mldsa_poly *a,
			  const struct mldsa_poly *b);
/* Every coefficient to (-q, q) (from |a| < 2^31 - 2^22). */
void rind_mldsa_poly_reduce(struct mldsa_poly *a);

/* FIPS 204 Algorithms 35-40 on one coefficient, branch-free. */
/* r in [0, q): r1, and r0 in (-2^12, 2^12]. */
void rind_mldsa_power2round(s32 r, s32 *r1, s32 *r0);
/* r in [0, q): r1 in [0, (q-1)/(2 gamma2)), r0 in [-gamma2, gamma2]. */
void rind_mldsa_decompose(s32 r, s32 gamma2, s32 *r1, s32 *r0);
/* r in [0, q). */
s32 rind_mldsa_use_hint(int h, s32 r, s32 gamma2);

/*
 * The challenge c as its nonzero positions and signs (public), and as
 * shifts: c = sum_k X^sh[k] with sh = pos + 256 neg (X^256 = -1).
 */
struct mldsa_challenge {
	unsigned int n;
	u8 pos[MLDSA_N];
	u8 neg[MLDSA_N];
	u16 sh[MLDSA_N];
};

/* From SampleInBall's c (coefficients in {-1, 0, 1}). */
void rind_mldsa_challenge_of(struct mldsa_challenge *ch, const struct mldsa_poly *c);
/* e = (-a, a), the operand layout of rind_mldsa_poly_mul_challenge. */
void rind_mldsa_poly_negext(s32 e[2 * MLDSA_N], const struct mldsa_poly *a);
/* r = c a exactly in Z[X]/(X^256 + 1), with e = negext(a). */
void rind_mldsa_poly_mul_challenge(struct mldsa_poly *r, const s32 *e,
				   const struct mldsa_challenge *c);

/* Decompose / HighBits of every coefficient (in [0, q)). */
void rind_mldsa_poly_decompose(struct mldsa_poly *r1, struct mldsa_poly *r0,
			       const struct mldsa_poly *a, s32 gamma2);
void rind_mldsa_poly_highbits(struct mldsa_poly *r1, const struct mldsa_poly *a, s32 gamma2);
/* r[i] = UseHint(h[i], a[i]) for a in [0, q), h in {0, 1}; r may be a. */
void rind_mldsa_poly_use_hint(struct mldsa_poly *r, const struct mldsa_poly *a,
			      const struct mldsa_poly *h, s32 gamma2);

/* (-q, q) to [0, q). */
static inline s32 mldsa_caddq(s32 a)
{
	return a + ((a >> 31) & MLDSA_Q);
}

/* (-q, 2q) to [0, q). */
static inline s32 mldsa_canon(s32 a)
{
	a = mldsa_caddq(a);
	return a - (s32)((u32)(MLDSA_Q - 1 - a) >> 31) * MLDSA_Q;
}

/* (-q, q) to the centered representative in [-(q-1)/2, (q-1)/2]. */
static inline s32 mldsa_center(s32 a)
{
	a = mldsa_caddq(a);
	return a - ((((MLDSA_Q - 1) / 2) - a) >> 31 & MLDSA_Q);
}

/*
 * The signer's r = w - c s2 (struct mldsa_ops' sign_r) as v = w1 2^24 + x:
 * w1 = HighBits in [0, 44), x (w0, later w0 - c s2) in (-2^23, 2^23).
 */
static inline s32 mldsa_split_w(s32 w1, s32 x)
{
	return (s32)((u32)w1 << 24) + x;
}

static inline s32 mldsa_split_lo(s32 v)
{
	return (s32)((u32)v << 8) >> 8;
}

static inline s32 mldsa_split_hi(s32 v)
{
	return (v - mldsa_split_lo(v)) >> 24;
}

/* All ones when some |a[i]| >= @bound (centered a, bound > 0), else 0; branch-free. */
static inline u32 mldsa_poly_exceeds(const struct mldsa_poly *a, s32 bound)
{
	u32 bad = 0;
	unsigned int i;

	for (i = 0; i < MLDSA_N; i++) {
		s32 m = a->c[i] >> 31;
		s32 abs = (a->c[i] ^ m) - m;

		bad |= (u32)((bound - 1 - abs) >> 31);
	}
	return bad;
}

/* Sampling (FIPS 204 Algorithms 29-34). */
void rind_mldsa_expand_a(struct mldsa_key *key);
void rind_mldsa_expand_s(const struct mldsa_params *p, const u8 rhop[64],
			 struct mldsa_poly *s1, struct mldsa_poly *s2);
void rind_mldsa_expand_mask(const struct mldsa_params *p, const u8 rhopp[64], u16 kappa,
			    struct mldsa_poly *y);
/* rind_mldsa_expand_mask; the generic code keeps nothing in @cache. */
void rind_mldsa_expand_mask_loop(const struct mldsa_params *p, const u8 rhopp[64], u16 kappa,
				 struct mldsa_poly *y, struct mldsa_mask_cache *cache);
/* c-tilde is public (it is the signature's first field): see algs/mldsa.c. */
void rind_mldsa_sample_in_ball(const struct mldsa_params *p, const u8 *ctilde,
			       struct mldsa_poly *c);
/*
 * SampleInBall straight to the challenge's positions and shifts (the
 * signer's); @ball: the first block of H(c-tilde) (the ctilde hook's),
 * or NULL to compute it.
 */
void rind_mldsa_sample_challenge(const struct mldsa_params *p, const u8 *ctilde,
				 const u8 *ball, struct mldsa_challenge *ch);

/* Encodings (FIPS 204 section 7.2), fixed layouts. */
void rind_mldsa_pack_t1(u8 *out, const struct mldsa_poly *t1);
void rind_mldsa_unpack_t1(struct mldsa_poly *t1, const u8 *in);
void rind_mldsa_pack_eta(u8 *out, const struct mldsa_poly *s, unsigned int eta);
/* Returns all-ones (as u32) when some coefficient is outside [-eta, eta], else 0. */
u32 rind_mldsa_unpack_eta(struct mldsa_poly *s, const u8 *in, unsigned int eta);
void rind_mldsa_pack_t0(u8 *out, const struct mldsa_poly *t0);
void rind_mldsa_unpack_t0(struct mldsa_poly *t0, const u8 *in);
void rind_mldsa_pack_z(u8 *out, const struct mldsa_poly *z, unsigned int gamma1_bits);
void rind_mldsa_unpack_z(struct mldsa_poly *z, const u8 *in, unsigned int gamma1_bits);
void rind_mldsa_pack_w1(u8 *out, const struct mldsa_poly *w1, s32 gamma2);

/* The generic signing steps (struct mldsa_ops' sign_* hooks, algs/mldsa.c). */
void rind_mldsa_ctilde(const struct mldsa_params *p, u8 *ctilde, u8 *ball,
		       const u8 mu[MLDSA_MU_BYTES], const u8 *w1, size_t w1len,
		       const u8 rhopp[64], u16 kappa, struct mldsa_mask_cache *cache);
void rind_mldsa_sign_prepare(struct mldsa_sign_pre *pre, const struct mldsa_key *key);
void rind_mldsa_w1_pack(u8 *out, struct mldsa_poly *w, s32 gamma2);
u32 rind_mldsa_sign_z(struct mldsa_poly *z, const struct mldsa_sign_pre *pre, unsigned int j,
		      const struct mldsa_challenge *c, const struct mldsa_params *p);
u32 rind_mldsa_sign_r(struct mldsa_poly *w, const struct mldsa_sign_pre *pre, unsigned int i,
		      const struct mldsa_challenge *c, const struct mldsa_params *p);
u32 rind_mldsa_sign_hint(struct mldsa_poly *h, const struct mldsa_poly *w,
			 const struct mldsa_sign_pre *pre, unsigned int i,
			 const struct mldsa_challenge *c, const struct mldsa_params *p, u32 *count);
void rind_mldsa_sign_w(const struct mldsa_key *key, const struct mldsa_poly *y,
		       struct mldsa_poly *yh, struct mldsa_poly *w, u8 *w1);

/* ---- the scheme (algs/mldsa.c) --------------------------------------- */

/* ML-DSA.KeyGen_internal(xi): 0 or -ENOMEM. */
int rind_mldsa_keygen(struct mldsa_key *key, const struct mldsa_params *p,
		       const struct mldsa_ops *ops, const u8 seed[MLDSA_SEED_BYTES]);
/*
 * Set an expanded secret key (p->sk_size bytes): -EKEYREJECTED when s1 or
 * s2 has a coefficient outside [-eta, eta], or when t0 and tr are not
 * those of the public key the secret part determines.  @key unchanged on
 * failure.
 */
int rind_mldsa_set_sk(struct mldsa_key *key, const struct mldsa_params *p,
		      const struct mldsa_ops *ops, const u8 *sk);
/* Set a public key (p->pk_size bytes).  Cannot fail (every encoding is a key). */
void rind_mldsa_set_pk(struct mldsa_key *key, const struct mldsa_params *p,
		       const struct mldsa_ops *ops, const u8 *pk);
/* mu = H(tr || 0 || |ctx| || ctx || msg, 64): pure ML-DSA's message representative. */
void rind_mldsa_mu(const struct mldsa_key *key, const u8 *ctx, size_t ctxlen,
		   const void *msg, size_t msglen, u8 mu[MLDSA_MU_BYTES]);
/* ML-DSA.Sign_internal over mu with @rnd (all zero: deterministic); p->sig_size bytes. */
int rind_mldsa_sign_mu(const struct mldsa_key *key, const u8 mu[MLDSA_MU_BYTES],
		       const u8 rnd[MLDSA_RND_BYTES], u8 *sig);
/* ML-DSA.Verify_internal over mu: 0 or -EBADMSG. */
int rind_mldsa_verify_mu(const struct mldsa_key *key, const u8 *sig, size_t siglen,
			 const u8 mu[MLDSA_MU_BYTES]);

/*
 * The key of a tfm of an "mldsa*" sig driver (for tests and benchmarks
 * that drive the internal algorithms), or NULL for any other tfm.
 */
struct crypto_sig;
struct mldsa_key *rind_mldsa_tfm_key(struct crypto_sig *tfm);

/*
 * The three sig drivers "mldsa44"/"mldsa65"/"mldsa87" over @ops, named
 * @drv[0..2], at priority @prio, module @mod (an arch driver calls this
 * from its module_init once it knows the CPU can run @ops).
 */
int rind_mldsa_register_drivers(const struct mldsa_ops *ops, const char *const drv[3],
				int prio, const char *mod);

/* ---- key encodings (algs/mldsa-key.c) -------------------------------- */

/*
 * Public key: raw pk, SPKI DER (the LAMPS OID, no parameters), PEM
 * "PUBLIC KEY".  Private key: the raw 32-byte seed, the raw expanded
 * secret key, PKCS#8 DER whose privateKey is the ML-DSA-PrivateKey CHOICE
 * (seed [0], expandedKey, or both), PEM "PRIVATE KEY".  A PKCS#8 that
 * carries both forms (or a v2 public key) must agree with the seed.
 * Anything else -EKEYREJECTED.  Export: raw (the seed, or the expanded
 * key when the key came without one), PKCS#8 seed-only (expandedKey when
 * there is no seed), PEM; public raw, SPKI, PEM.
 */
int rind_mldsa_import_pub(struct mldsa_key *key, const struct mldsa_params *p,
			  const struct mldsa_ops *ops, const u8 *in, size_t len);
int rind_mldsa_import_priv(struct mldsa_key *key, const struct mldsa_params *p,
			   const struct mldsa_ops *ops, const u8 *in, size_t len);
int rind_mldsa_export_pub(const struct mldsa_key *key, enum rind_key_format fmt,
			  u8 *out, size_t outlen);
int rind_mldsa_export_priv(const struct mldsa_key *key, enum rind_key_format fmt,
			   u8 *out, size_t outlen);

#endif /* _RIND_ALGS_MLDSA_H */
