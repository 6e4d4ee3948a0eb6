/* SPDX-License-Identifier: MIT */
/*
 * ML-KEM (FIPS 203) internals shared by algs/mlkem.c and the hybrid
 * algs/x25519mlkem768.c: the parameter sets and a key object with
 * deterministic operations.  Library internal (hidden symbols).
 */
#ifndef _RIND_ALGS_MLKEM_H
#define _RIND_ALGS_MLKEM_H

#include <rind/types.h>
#include <rind/internal/kem.h>
#include <rind/keyformat.h>

#define MLKEM_N			256
#define MLKEM_Q			3329
#define MLKEM_KMAX		4
#define MLKEM_SYMBYTES		32
#define MLKEM_SEED_BYTES	64	/* d || z */
#define MLKEM_SS_BYTES		32
#define MLKEM_POLYBYTES		384
#define MLKEM_EK_MAX		(MLKEM_POLYBYTES * MLKEM_KMAX + 32)
#define MLKEM_DK_MAX		(2 * MLKEM_POLYBYTES * MLKEM_KMAX + 96)
#define MLKEM_CT_MAX		(32 * (11 * MLKEM_KMAX + 5))

struct mlkem_params {
	unsigned int k, eta1, eta2, du, dv;
	unsigned int ek_size, dk_size, ct_size;
};

extern const struct mlkem_params rind_mlkem512_params;
extern const struct mlkem_params rind_mlkem768_params;
extern const struct mlkem_params rind_mlkem1024_params;

struct mlkem_poly {
	s16 c[MLKEM_N];
};

struct mlkem_key;

/*
 * A driver's arithmetic.  Every implementation returns exactly what the
 * generic one does (same representatives, not merely congruent values),
 * so the rest of the code, the key encodings and the known answers are
 * shared, and a key set through one driver means the same to any other.
 *  ntt:         FIPS 203 Algorithm 9 on |c| < q; output Barrett-reduced.
 *  invntt:      Algorithm 10 times R = 2^16 (cancelling a product's R^-1),
 *               output in (-q, q).
 *  basemul_acc: r += a * b in the NTT domain (Algorithms 11, 12) times R^-1.
 *  gen_matrix:  key->a[i][j] = SampleNTT(rho || j || i).
 *  noise:       r[i] = SamplePolyCBD_eta(PRF_eta(sigma, n0 + i)), i < count
 *               (count <= 2 MLKEM_KMAX + 1).
 *  compress:    ByteEncode_d(Compress_d(a)) of any a (reduced first), d in
 *               {1, 4, 5, 10, 11}; decompress: Decompress_d(ByteDecode_d).
 *  pke_keygen:  optional (NULL: the generic composition of the hooks
 *               above): K-PKE.KeyGen after G, i.e. key->a from rho,
 *               key->s = NTT(s) (reduced) and key->t = A s + NTT(e) in
 *               [0, q) with s, e from sigma (PRF counters 0 .. 2k-1,
 *               eta1), and ByteEncode_12(t) into key->ek.  For a driver
 *               that shares the sponge passes of A and the noise or fuses
 *               the final reduction with the encoding; same outputs.
 *  pke_keygen_h: pke_keygen also puts rho at the end of key->ek and
 *               H(ek) into key->h (a driver that hashes ek while it is
 *               produced); otherwise the caller does both after it.
 *  matvec:      optional (NULL: basemul_acc over a zeroed r, then Barrett
 *               reduction): r[i] = (sum over m < k of a[i k + m] * b[m])
 *               times R^-1, Barrett-reduced, for i < rows (<= k + 1);
 *               |a|, |b| < q.  For a driver that sums a row's products
 *               before reducing.
 */
struct mlkem_ops {
	void (*ntt)(struct mlkem_poly *f);
	void (*invntt)(struct mlkem_poly *f);
	void (*basemul_acc)(struct mlkem_poly *r, const struct mlkem_poly *a,
			    const struct mlkem_poly *b);
	void (*gen_matrix)(struct mlkem_key *key, const u8 rho[32]);
	void (*noise)(struct mlkem_poly *const r[], unsigned int count, const u8 sigma[32],
		      u8 n0, unsigned int eta);
	void (*compress)(u8 *r, const struct mlkem_poly *a, unsigned int d);
	void (*decompress)(struct mlkem_poly *r, const u8 *a, unsigned int d);
	void (*pke_keygen)(struct mlkem_key *key, const u8 rho[32], const u8 sigma[32]);
	bool pke_keygen_h;
	void (*matvec)(struct mlkem_poly *r, const struct mlkem_poly *const a[], unsigned int rows,
		       const struct mlkem_poly b[], unsigned int k);
};
/* SamplePolyCBD_eta of 64 eta bytes (eta 2 or 3), for drivers' noise. */
void rind_mlkem_cbd(struct mlkem_poly *r, const u8 *buf, unsigned int eta);
extern const struct mlkem_ops rind_mlkem_generic_ops;

/*
 * zeta^BitRev7(i) * R and zeta^(2 BitRev7(i) + 1) * R mod q, centered, and
 * R^2 / 128: filled by rind_mlkem_init_tables() (idempotent), which the
 * driver registration calls.
 */
extern s16 rind_mlkem_zetas[128];
extern s16 rind_mlkem_gammas[128];
extern s16 rind_mlkem_invntt_f;
void rind_mlkem_init_tables(void);

/*
 * A key: the public part (ek, H(ek), the matrix A-hat expanded from rho
 * and t-hat decoded) and, when @has_priv, s-hat and z (and the seed when
 * the key came from one).
 */
struct mlkem_key {
	const struct mlkem_params *p;
	const struct mlkem_ops *ops;	/* the generic ones when NULL */
	struct mlkem_poly a[MLKEM_KMAX][MLKEM_KMAX];
	struct mlkem_poly t[MLKEM_KMAX];
	struct mlkem_poly s[MLKEM_KMAX];
	u8 ek[MLKEM_EK_MAX];
	u8 h[32];
	u8 z[32];
	u8 seed[MLKEM_SEED_BYTES];
	bool has_priv;
	bool has_seed;
};

/* ML-KEM.KeyGen_internal(d, z) with @seed = d || z.  Cannot fail. */
void rind_mlkem_keygen(struct mlkem_key *key, const struct mlkem_params *p,
		       const u8 seed[MLKEM_SEED_BYTES]);
/*
 * Set the expanded decapsulation key (p->dk_size bytes): -EKEYREJECTED
 * when its hash H(ek) or the embedded ek's modulus check fails.  @key is
 * unchanged on failure.
 */
int rind_mlkem_set_dk(struct mlkem_key *key, const struct mlkem_params *p, const u8 *dk);
/* Set an encapsulation key (p->ek_size bytes): -EKEYREJECTED if not reduced mod q. */
int rind_mlkem_set_ek(struct mlkem_key *key, const struct mlkem_params *p, const u8 *ek);
/*
 * Any encoding (algs/mlkem-key.c): the 64-byte seed, the expanded key,
 * PKCS#8 DER or PEM; the encapsulation key raw, as SPKI DER or PEM.
 * -EINVAL for a length that is no raw form and no encoding, -EKEYREJECTED
 * for a malformed or inconsistent one; @key is unchanged on failure.
 */
int rind_mlkem_import_priv(struct mlkem_key *key, const struct mlkem_params *p,
			   const u8 *in, size_t len);
int rind_mlkem_import_pub(struct mlkem_key *key, const struct mlkem_params *p,
			  const u8 *in, size_t len);
/* RIND_KEY_RAW (ek; the expanded dk), SPKI/PKCS#8 DER or PEM; -ENOSPC, -EINVAL. */
int rind_mlkem_export_pub(const struct mlkem_key *key, enum rind_key_format fmt,
			  u8 *out, size_t outlen);
int rind_mlkem_export_priv(const struct mlkem_key *key, enum rind_key_format fmt,
			   u8 *out, size_t outlen);
/* Write the expanded decapsulation key (p->dk_size bytes). */
void rind_mlkem_export_dk(const struct mlkem_key *key, u8 *dk);
/* ML-KEM.Encaps_internal(ek, m). */
void rind_mlkem_encaps(const struct mlkem_key *key, const u8 m[32], u8 *ct, u8 ss[32]);
/* ML-KEM.Decaps_internal(dk, c), with implicit rejection in constant time. */
void rind_mlkem_decaps(const struct mlkem_key *key, const u8 *ct, u8 ss[32]);

/* A kem driver: one parameter set over one driver's arithmetic. */
struct mlkem_alg {
	struct kem_alg kem;
	const struct mlkem_params *p;
	const struct mlkem_ops *ops;
};
int rind_mlkem_register_drivers(struct mlkem_alg algs[3], const struct mlkem_ops *ops,
				const char *const drv[3], int prio, const char *mod);
/* The hybrid X25519MLKEM768 over @ops (algs/x25519mlkem768.c). */
int rind_xmlkem_register_driver(struct mlkem_alg *alg, const struct mlkem_ops *ops,
				const char *drv, int prio, const char *mod);

/*
 * Known-answer self-test of a kem driver (an alg_test_desc .test with
 * .suite.priv = struct kem_kat_suite): the key from @seed must have a
 * public key hashing (SHA3-256) to @ek_hash; encapsulating with @m, a
 * ciphertext hashing to @ct_hash and the secret @ss; decapsulating it with
 * the exported expanded private key set on a second tfm, @ss again; and
 * with its first bit flipped, @rej_ss.
 */
struct alg_test_desc;
struct crypto_alg;
struct kem_kat {
	const char *seed, *ek_hash, *m, *ct_hash, *ss, *rej_ss;
};
struct kem_kat_suite {
	const struct kem_kat *vecs;
	unsigned int count;
};
int rind_kem_kat_test(const struct alg_test_desc *desc, struct crypto_alg *alg);

#endif /* _RIND_ALGS_MLKEM_H */
