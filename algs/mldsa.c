// SPDX-License-Identifier: MIT
/*
 * ML-DSA (FIPS 204): "mldsa44", "mldsa65", "mldsa87", pure ML-DSA as sig
 * algorithms, portable C (drivers "mldsa44-generic", ...).
 *
 * The private key is the 32-byte seed xi (KeyGen_internal), or the
 * expanded secret key; the public key the pk encoding (key formats in
 * algs/mldsa-key.c).  A key is expanded once when it is set: A-hat and
 * NTT(t1 * 2^d), so that signing and verifying do no matrix expansion;
 * s1, s2 and t0 stay in the normal domain, where their products with the
 * sparse challenge c are exact sums of tau shifted copies (and are laid
 * out once for the driver's signing hooks, key->pre).
 *
 * Signing (Algorithm 2 over Algorithm 7) is hedged by default: rnd comes
 * from rind_get_random_bytes() (if that fails, so does the signature: no
 * silent fall-back); rind_sig_set_deterministic(tfm, true) makes rnd all
 * zero, FIPS 204's deterministic variant.  The context
 * string (at most 255 bytes, empty by default) is set by
 * rind_sig_set_context().  HashML-DSA (the pre-hash variant) is not
 * offered: no entry point signs a caller's digest.
 *
 * Constant time.  The number of iterations of the rejection loop is
 * public (it is visible in the time any implementation takes), and so is
 * the challenge c-tilde of each iteration, as in FIPS 204's reference
 * implementation: SampleInBall indexes by it.  Everything else in the
 * loop -- y, w, w0, the products c s1, c s2, c t0, z before it is
 * accepted, the hints -- is handled without secret-dependent branches or
 * indices: the norm checks accumulate masks over whole vectors, and only
 * the verdict of each condition of Algorithm 7 (line 23's bound on r0,
 * then its bound on z; lines 28-29) is declassified before the loop
 * branches on it.  So the time says which condition rejected an attempt
 * (as in the reference implementation, which checks them one after the
 * other), never which polynomial or coefficient.  The hints are declassified once the
 * signature is accepted (they are part of it).  Intermediate values are
 * wiped before the signature is returned.  Verification handles public
 * data only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rind/rng.h>
#include <rind/internal/sig.h>
#include <rind/internal/util.h>
#include <crypto/keccak.h>
#include <crypto/mldsa.h>

#define Q MLDSA_Q

#define PARAMS(nm, k_, l_, eta_, tau_, beta_, omega_, g1_, g2_, lambda_, sk_, oid_) {	\
	.name = nm, .k = k_, .l = l_, .eta = eta_, .tau = tau_, .beta = beta_,		\
	.omega = omega_, .gamma1_bits = g1_, .gamma2 = g2_,				\
	.ctilde_bytes = (lambda_) / 4, .pk_size = 32 + 320 * (k_), .sk_size = sk_,	\
	.sig_size = (lambda_) / 4 + 32 * (l_) * ((g1_) + 1) + (omega_) + (k_),		\
	.oid = oid_ }

const struct mldsa_params rind_mldsa44_params =
	PARAMS("mldsa44", 4, 4, 2, 39, 78, 80, 17, (Q - 1) / 88, 128, 2560, RIND_OID_ML_DSA_44);
const struct mldsa_params rind_mldsa65_params =
	PARAMS("mldsa65", 6, 5, 4, 49, 196, 55, 19, (Q - 1) / 32, 192, 4032, RIND_OID_ML_DSA_65);
const struct mldsa_params rind_mldsa87_params =
	PARAMS("mldsa87", 8, 7, 2, 60, 120, 75, 19, (Q - 1) / 32, 256, 4896, RIND_OID_ML_DSA_87);

/* Bytes of s1/s2 per polynomial and of one w1 polynomial. */
static unsigned int eta_poly_bytes(const struct mldsa_params *p)
{
	return 32 * (p->eta == 2 ? 3 : 4);
}

static unsigned int w1_poly_bytes(const struct mldsa_params *p)
{
	return 32 * (p->gamma2 == (Q - 1) / 88 ? 6 : 4);
}

static unsigned int z_poly_bytes(const struct mldsa_params *p)
{
	return 32 * (p->gamma1_bits + 1);
}

static void shake256(u8 *out, size_t outlen, const u8 *a, size_t alen, const u8 *b, size_t blen,
		     const u8 *c, size_t clen)
{
	struct keccak_state st;

	rind_shake256_init(&st);
	rind_keccak_absorb(&st, a, alen);
	if (blen)
		rind_keccak_absorb(&st, b, blen);
	if (clen)
		rind_keccak_absorb(&st, c, clen);
	rind_keccak_squeeze(&st, out, outlen);
	memzero_explicit(&st, sizeof(st));
}

/* ---- keys ----------------------------------------------------------------- */

/*
 * From rho, s1 and s2 (normal domain, |coefficients| <= eta): A-hat, t =
 * A s1 + s2, (t1, t0) = Power2Round(t), pk, tr, and the NTT-domain
 * copies the signer and verifier use.  @t0 receives t0 (normal domain)
 * for the caller; the expanded sk is not written here.
 */
static void derive_key(struct mldsa_key *key, struct mldsa_poly *s1, struct mldsa_poly *s2,
		       struct mldsa_poly *t0, struct mldsa_poly *s1h)
{
	const struct mldsa_params *p = key->p;
	struct mldsa_poly t;
	unsigned int i, j;

	key->ops->expand_a(key);
	for (j = 0; j < p->l; j++) {
		s1h[j] = s1[j];
		key->ops->ntt(&s1h[j]);
		key->ops->poly_reduce(&s1h[j]);
		key->s1[j] = s1[j];
	}
	memcpy(key->pk, key->rho, 32);
	for (i = 0; i < p->k; i++) {
		key->ops->pointwise_acc(&t, key->a[i], s1h, p->l);
		key->ops->invntt_tomont(&t);
		for (j = 0; j < MLDSA_N; j++) {
			s32 r = mldsa_canon(mldsa_caddq(t.c[j]) + s2[i].c[j]);

			rind_mldsa_power2round(r, &key->t1[i].c[j], &t0[i].c[j]);
		}
		/* t1 is the public key. */
		rind_declassify(&key->t1[i], sizeof(key->t1[i]));
		rind_mldsa_pack_t1(key->pk + 32 + 320 * i, &key->t1[i]);
		for (j = 0; j < MLDSA_N; j++)
			key->t1[i].c[j] <<= MLDSA_D;
		key->ops->ntt(&key->t1[i]);
		key->ops->poly_reduce(&key->t1[i]);
		key->s2[i] = s2[i];
		key->t0[i] = t0[i];
	}
	shake256(key->tr, MLDSA_TR_BYTES, key->pk, p->pk_size, NULL, 0, NULL, 0);
	key->ops->sign_prepare(&key->pre, key);
	key->has_pub = true;
	key->has_priv = true;
	memzero_explicit(&t, sizeof(t));
}

/* skEncode (Algorithm 24). */
static void encode_sk(struct mldsa_key *key, const struct mldsa_poly *s1,
		      const struct mldsa_poly *s2, const struct mldsa_poly *t0)
{
	const struct mldsa_params *p = key->p;
	unsigned int i, eb = eta_poly_bytes(p);
	u8 *o = key->sk;

	memcpy(o, key->rho, 32);
	memcpy(o + 32, key->K, 32);
	memcpy(o + 64, key->tr, MLDSA_TR_BYTES);
	o += 128;
	for (i = 0; i < p->l; i++, o += eb)
		rind_mldsa_pack_eta(o, &s1[i], p->eta);
	for (i = 0; i < p->k; i++, o += eb)
		rind_mldsa_pack_eta(o, &s2[i], p->eta);
	for (i = 0; i < p->k; i++, o += 32 * MLDSA_D)
		rind_mldsa_pack_t0(o, &t0[i]);
}

struct key_tmp {
	struct mldsa_poly s1[MLDSA_LMAX], s2[MLDSA_KMAX], t0[MLDSA_KMAX], t0sk[MLDSA_KMAX];
	struct mldsa_poly s1h[MLDSA_LMAX];
	u8 buf[128];
};

int rind_mldsa_keygen(struct mldsa_key *key, const struct mldsa_params *p,
		      const struct mldsa_ops *ops, const u8 seed[MLDSA_SEED_BYTES])
{
	struct key_tmp *w = malloc(sizeof(*w));
	u8 in[34];

	if (!w)
		return -ENOMEM;
	memzero_explicit(key, sizeof(*key));
	key->p = p;
	key->ops = ops;
	/* (rho, rho', K) = H(xi || k || l, 128) */
	memcpy(in, seed, 32);
	in[32] = (u8)p->k;
	in[33] = (u8)p->l;
	shake256(w->buf, 128, in, sizeof(in), NULL, 0, NULL, 0);
	memcpy(key->rho, w->buf, 32);
	rind_declassify(key->rho, 32);	/* rho is part of the public key */
	memcpy(key->K, w->buf + 96, 32);
	ops->expand_s(p, w->buf + 32, w->s1, w->s2);
	derive_key(key, w->s1, w->s2, w->t0, w->s1h);
	encode_sk(key, w->s1, w->s2, w->t0);
	memcpy(key->seed, seed, MLDSA_SEED_BYTES);
	key->has_seed = true;
	memzero_explicit(in, sizeof(in));
	memzero_explicit(w, sizeof(*w));
	free(w);
	return 0;
}

int rind_mldsa_set_sk(struct mldsa_key *key, const struct mldsa_params *p,
		      const struct mldsa_ops *ops, const u8 *sk)
{
	struct mldsa_key *k = malloc(sizeof(*k));
	struct key_tmp *w = malloc(sizeof(*w));
	unsigned int i, eb = eta_poly_bytes(p);
	const u8 *in = sk + 128;
	u32 bad = 0;
	int err = -EKEYREJECTED;

	if (!k || !w) {
		free(k);
		free(w);
		return -ENOMEM;
	}
	memset(k, 0, sizeof(*k));
	k->p = p;
	k->ops = ops;
	memcpy(k->rho, sk, 32);
	rind_declassify(k->rho, 32);	/* the public key's seed */
	memcpy(k->K, sk + 32, 32);
	for (i = 0; i < p->l; i++, in += eb)
		bad |= rind_mldsa_unpack_eta(&w->s1[i], in, p->eta);
	for (i = 0; i < p->k; i++, in += eb)
		bad |= rind_mldsa_unpack_eta(&w->s2[i], in, p->eta);
	for (i = 0; i < p->k; i++, in += 32 * MLDSA_D)
		rind_mldsa_unpack_t0(&w->t0sk[i], in);
	/* Out-of-range s1/s2 is refused before anything is derived from them. */
	rind_declassify(&bad, sizeof(bad));
	if (bad)
		goto out;
	derive_key(k, w->s1, w->s2, w->t0, w->s1h);
	/* The stored t0 and tr must be the ones the secret part determines. */
	for (i = 0; i < p->k; i++)
		bad |= (u32)rind_memneq(w->t0[i].c, w->t0sk[i].c, sizeof(w->t0[i].c));
	bad |= (u32)rind_memneq(k->tr, sk + 64, MLDSA_TR_BYTES);
	rind_declassify(&bad, sizeof(bad));
	if (bad)
		goto out;
	memcpy(k->sk, sk, p->sk_size);
	memcpy(key, k, sizeof(*k));
	err = 0;
out:
	memzero_explicit(w, sizeof(*w));
	memzero_explicit(k, sizeof(*k));
	free(w);
	free(k);
	return err;
}

void rind_mldsa_set_pk(struct mldsa_key *key, const struct mldsa_params *p,
		       const struct mldsa_ops *ops, const u8 *pk)
{
	unsigned int i, j;

	memzero_explicit(key, sizeof(*key));
	key->p = p;
	key->ops = ops;
	memcpy(key->pk, pk, p->pk_size);
	memcpy(key->rho, pk, 32);
	ops->expand_a(key);
	for (i = 0; i < p->k; i++) {
		rind_mldsa_unpack_t1(&key->t1[i], pk + 32 + 320 * i);
		for (j = 0; j < MLDSA_N; j++)
			key->t1[i].c[j] <<= MLDSA_D;
		ops->ntt(&key->t1[i]);
		ops->poly_reduce(&key->t1[i]);
	}
	shake256(key->tr, MLDSA_TR_BYTES, pk, p->pk_size, NULL, 0, NULL, 0);
	key->has_pub = true;
}

/* ---- signing and verifying ------------------------------------------------ */

void rind_mldsa_mu(const struct mldsa_key *key, const u8 *ctx, size_t ctxlen,
		   const void *msg, size_t msglen, u8 mu[MLDSA_MU_BYTES])
{
	u8 pre[2] = { 0, (u8)ctxlen };	/* M' = 0 || |ctx| || ctx || M (pure) */
	struct keccak_state st;

	rind_shake256_init(&st);
	rind_keccak_absorb(&st, key->tr, MLDSA_TR_BYTES);
	rind_keccak_absorb(&st, pre, 2);
	if (ctxlen)
		rind_keccak_absorb(&st, ctx, ctxlen);
	if (msglen)
		rind_keccak_absorb(&st, msg, msglen);
	rind_keccak_squeeze(&st, mu, MLDSA_MU_BYTES);
	memzero_explicit(&st, sizeof(st));
}

/*
 * The generic steps of the signing loop (struct mldsa_ops' sign_*
 * hooks), over the generic arithmetic; every coefficient loop is
 * branch-free and the masks accumulate over whole polynomials.
 */
void rind_mldsa_ctilde(const struct mldsa_params *p, u8 *ctilde, u8 *ball,
		       const u8 mu[MLDSA_MU_BYTES], const u8 *w1, size_t w1len,
		       const u8 rhopp[64], u16 kappa, struct mldsa_mask_cache *cache)
{
	(void)rhopp;
	(void)kappa;
	(void)cache;
	shake256(ctilde, p->ctilde_bytes, mu, MLDSA_MU_BYTES, w1, w1len, NULL, 0);
	shake256(ball, SHAKE256_RATE, ctilde, p->ctilde_bytes, NULL, 0, NULL, 0);
}

void rind_mldsa_sign_prepare(struct mldsa_sign_pre *pre, const struct mldsa_key *key)
{
	const struct mldsa_params *p = key->p;
	unsigned int i, j;

	for (j = 0; j < p->l; j++)
		rind_mldsa_poly_negext(pre->e[j], &key->s1[j]);
	for (i = 0; i < p->k; i++) {
		rind_mldsa_poly_negext(pre->e[MLDSA_LMAX + i], &key->s2[i]);
		rind_mldsa_poly_negext(pre->e[MLDSA_LMAX + MLDSA_KMAX + i], &key->t0[i]);
	}
}

void rind_mldsa_w1_pack(u8 *out, struct mldsa_poly *w, s32 gamma2)
{
	struct mldsa_poly t;
	unsigned int j;

	for (j = 0; j < MLDSA_N; j++)
		w->c[j] = mldsa_caddq(w->c[j]);
	rind_mldsa_poly_highbits(&t, w, gamma2);
	rind_mldsa_pack_w1(out, &t, gamma2);
	memzero_explicit(&t, sizeof(t));
}

void rind_mldsa_sign_w(const struct mldsa_key *key, const struct mldsa_poly *y,
		       struct mldsa_poly *yh, struct mldsa_poly *w, u8 *w1)
{
	const struct mldsa_params *p = key->p;
	unsigned int i, j, wb = w1_poly_bytes(p);

	for (j = 0; j < p->l; j++) {
		yh[j] = y[j];
		rind_mldsa_ntt_generic(&yh[j]);
	}
	for (i = 0; i < p->k; i++) {
		rind_mldsa_pointwise_acc(&w[i], key->a[i], yh, p->l);
		rind_mldsa_invntt_tomont_generic(&w[i]);
		rind_mldsa_w1_pack(w1 + wb * i, &w[i], p->gamma2);
	}
}

u32 rind_mldsa_sign_z(struct mldsa_poly *z, const struct mldsa_sign_pre *pre, unsigned int j,
		      const struct mldsa_challenge *c, const struct mldsa_params *p)
{
	struct mldsa_poly t;
	unsigned int m;
	u32 bad;

	rind_mldsa_poly_mul_challenge(&t, pre->e[j], c);
	for (m = 0; m < MLDSA_N; m++)
		z->c[m] += t.c[m];
	bad = mldsa_poly_exceeds(z, ((s32)1 << p->gamma1_bits) - (s32)p->beta);
	memzero_explicit(&t, sizeof(t));
	return bad;
}

/*
 * w to (w1, w0 - c s2) in the split form (|w0| <= gamma2, |c s2| <= beta:
 * the low part stays in (-2^23, 2^23)), checked against gamma2 - beta:
 * the check of FIPS 204 on LowBits(w - c s2), without the Decompose of
 * w - c s2 (see struct mldsa_ops).
 */
u32 rind_mldsa_sign_r(struct mldsa_poly *w, const struct mldsa_sign_pre *pre, unsigned int i,
		      const struct mldsa_challenge *c, const struct mldsa_params *p)
{
	struct mldsa_poly t;
	unsigned int m;
	u32 bad;

	rind_mldsa_poly_mul_challenge(&t, pre->e[MLDSA_LMAX + i], c);
	for (m = 0; m < MLDSA_N; m++) {
		s32 w1, w0;

		rind_mldsa_decompose(w->c[m], p->gamma2, &w1, &w0);
		t.c[m] = w0 - t.c[m];
		w->c[m] = mldsa_split_w(w1, t.c[m]);
	}
	bad = mldsa_poly_exceeds(&t, p->gamma2 - (s32)p->beta);
	memzero_explicit(&t, sizeof(t));
	return bad;
}

u32 rind_mldsa_sign_hint(struct mldsa_poly *h, const struct mldsa_poly *w,
			 const struct mldsa_sign_pre *pre, unsigned int i,
			 const struct mldsa_challenge *c, const struct mldsa_params *p, u32 *count)
{
	struct mldsa_poly t, v;
	unsigned int m;
	u32 bad, n = 0;

	rind_mldsa_poly_mul_challenge(&t, pre->e[MLDSA_LMAX + MLDSA_KMAX + i], c);
	bad = mldsa_poly_exceeds(&t, p->gamma2);
	/*
	 * v = r + c t0 with r = w1 2 gamma2 + x (x = w0 - c s2, |x| < gamma2 +
	 * beta), |c t0| <= tau 2^12: in (-q, 2q)
	 */
	for (m = 0; m < MLDSA_N; m++) {
		s32 w1 = mldsa_split_hi(w->c[m]);

		h->c[m] = w1;
		v.c[m] = mldsa_canon(2 * p->gamma2 * w1 + mldsa_split_lo(w->c[m]) + t.c[m]);
	}
	rind_mldsa_poly_highbits(&v, &v, p->gamma2);
	for (m = 0; m < MLDSA_N; m++) {
		u32 d = (u32)(v.c[m] ^ h->c[m]);
		u32 hb = (d | (0u - d)) >> 31;

		h->c[m] = (s32)hb;
		n += hb;
	}
	*count += n;
	memzero_explicit(&t, sizeof(t));
	memzero_explicit(&v, sizeof(v));
	return bad;
}

struct sign_ws {
	struct mldsa_poly y[MLDSA_LMAX];	/* y, then z = y + c s1 */
	struct mldsa_poly yh[MLDSA_LMAX];
	struct mldsa_poly w[MLDSA_KMAX];	/* w, then w1 2^24 + (w0 - c s2) */
	struct mldsa_poly r1[MLDSA_KMAX];	/* the hints */
	struct mldsa_challenge ch;
	u8 w1[MLDSA_KMAX * 192];
	u8 ctilde[64];
	u8 ball[SHAKE256_RATE];		/* SampleInBall's first block */
	u8 rhopp[64];
	struct mldsa_mask_cache mcache;	/* y of the next kappas, if the driver keeps them */
};

/*
 * Bound on the rejection loop: kappa must fit the 16-bit counter of
 * ExpandMask.  The expected number of iterations is 4-5; reaching this
 * has probability far below 2^-256.
 */
#define MLDSA_KAPPA_MAX	(65536 - MLDSA_LMAX)

int rind_mldsa_sign_mu(const struct mldsa_key *key, const u8 mu[MLDSA_MU_BYTES],
		       const u8 rnd[MLDSA_RND_BYTES], u8 *sig)
{
	const struct mldsa_params *p = key->p;
	const struct mldsa_ops *ops = key->ops;
	unsigned int i, j, kappa, wb = w1_poly_bytes(p), zb = z_poly_bytes(p);
	/* aligned as its members ask (a driver's sponges in the mask cache) */
	struct sign_ws *ws = aligned_alloc(64, (sizeof(*ws) + 63) & ~(size_t)63);
	int err = -EAGAIN;

	if (!ws)
		return -ENOMEM;
	ws->mcache.init = 0;
	/* rho'' = H(K || rnd || mu, 64) */
	shake256(ws->rhopp, 64, key->K, 32, rnd, MLDSA_RND_BYTES, mu, MLDSA_MU_BYTES);
	for (kappa = 0; kappa <= MLDSA_KAPPA_MAX; kappa += p->l) {
		u32 bad = 0, count = 0;

		ops->expand_mask_loop(p, ws->rhopp, (u16)kappa, ws->y, &ws->mcache);
		ops->sign_w(key, ws->y, ws->yh, ws->w, ws->w1);
		/* c-tilde = H(mu || w1Encode(w1)): public, see the header comment. */
		ops->ctilde(p, ws->ctilde, ws->ball, mu, ws->w1, wb * p->k, ws->rhopp, (u16)kappa,
			    &ws->mcache);
		rind_declassify(ws->ctilde, p->ctilde_bytes);
		rind_declassify(ws->ball, sizeof(ws->ball));	/* H(c-tilde) */
		rind_mldsa_sample_challenge(p, ws->ctilde, ws->ball, &ws->ch);

		/*
		 * r = w - c s2; r0 = LowBits(r) checked against gamma2 - beta
		 * (as w0 - c s2: see struct mldsa_ops).  This check rejects most attempts (about 2 in 3 for ML-DSA-65),
		 * so it runs first and a rejection skips the z products.
		 */
		for (i = 0; i < p->k; i++)
			bad |= ops->sign_r(&ws->w[i], &key->pre, i, &ws->ch, p);
		rind_declassify(&bad, sizeof(bad));
		if (bad)
			continue;
		/* z = y + c s1, checked against gamma1 - beta */
		for (j = 0; j < p->l; j++)
			bad |= ops->sign_z(&ws->y[j], &key->pre, j, &ws->ch, p);
		rind_declassify(&bad, sizeof(bad));
		if (bad)
			continue;

		/* c t0 against gamma2; h = MakeHint(-c t0, w - c s2 + c t0); at most omega ones */
		for (i = 0; i < p->k; i++)
			bad |= ops->sign_hint(&ws->r1[i], &ws->w[i], &key->pre, i, &ws->ch, p, &count);
		bad |= (u32)((s32)(p->omega - count) >> 31);
		rind_declassify(&bad, sizeof(bad));
		if (bad)
			continue;

		/* Accepted: sigEncode (Algorithm 26); z and the hints are the signature. */
		rind_declassify(ws->y, sizeof(ws->y));
		rind_declassify(ws->r1, sizeof(ws->r1));
		memcpy(sig, ws->ctilde, p->ctilde_bytes);
		for (j = 0; j < p->l; j++)
			rind_mldsa_pack_z(sig + p->ctilde_bytes + zb * j, &ws->y[j], p->gamma1_bits);
		{
			/*
			 * HintBitPack (the hints are public now): eight
			 * coefficients a test, most of them all zero (at most
			 * omega ones in k 256); a group with a one writes every
			 * index at idx, which only the ones advance, so there is
			 * no branch per coefficient.  idx <= omega (checked
			 * above); the spare slots of @pos take the writes past
			 * the last one.
			 */
			u8 *hb = sig + p->ctilde_bytes + zb * p->l, pos[MLDSA_OMEGA_MAX + 8];
			unsigned int idx = 0, m;

			for (i = 0; i < p->k; i++) {
				const s32 *h = ws->r1[i].c;

				for (j = 0; j < MLDSA_N; j += 8) {
					if (!(h[j] | h[j + 1] | h[j + 2] | h[j + 3] |
					      h[j + 4] | h[j + 5] | h[j + 6] | h[j + 7]))
						continue;
					for (m = 0; m < 8; m++) {
						pos[idx] = (u8)(j + m);
						idx += h[j + m] != 0;
					}
				}
				hb[p->omega + i] = (u8)idx;
			}
			memset(pos + idx, 0, p->omega - idx);
			memcpy(hb, pos, p->omega);
		}
		err = 0;
		break;
	}
	memzero_explicit(ws, sizeof(*ws));
	free(ws);
	return err;
}

/* HintBitUnpack (Algorithm 21): 0, or -EBADMSG for a malformed encoding. */
static int unpack_hints(const struct mldsa_params *p, const u8 *y, struct mldsa_poly *h)
{
	unsigned int i, idx = 0;

	for (i = 0; i < p->k; i++) {
		unsigned int first = idx, end = y[p->omega + i];

		memset(&h[i], 0, sizeof(h[i]));
		if (end < idx || end > p->omega)
			return -EBADMSG;
		for (; idx < end; idx++) {
			if (idx > first && y[idx - 1] >= y[idx])
				return -EBADMSG;
			h[i].c[y[idx]] = 1;
		}
	}
	for (; idx < p->omega; idx++)
		if (y[idx])
			return -EBADMSG;
	return 0;
}

struct verify_ws {
	struct mldsa_poly z[MLDSA_LMAX];
	struct mldsa_poly h[MLDSA_KMAX];
	struct mldsa_poly c, w, t;
	u8 w1[MLDSA_KMAX * 192];
	u8 ctilde[64];
};

int rind_mldsa_verify_mu(const struct mldsa_key *key, const u8 *sig, size_t siglen,
			 const u8 mu[MLDSA_MU_BYTES])
{
	const struct mldsa_params *p = key->p;
	const struct mldsa_ops *ops = key->ops;
	unsigned int i, j, wb = w1_poly_bytes(p), zb = z_poly_bytes(p);
	struct verify_ws *ws;
	int err = -EBADMSG;

	if (siglen != p->sig_size)
		return -EBADMSG;
	ws = malloc(sizeof(*ws));
	if (!ws)
		return -ENOMEM;
	for (j = 0; j < p->l; j++) {
		rind_mldsa_unpack_z(&ws->z[j], sig + p->ctilde_bytes + zb * j, p->gamma1_bits);
		if (mldsa_poly_exceeds(&ws->z[j], ((s32)1 << p->gamma1_bits) - (s32)p->beta))
			goto out;
		ops->ntt(&ws->z[j]);
	}
	if (unpack_hints(p, sig + p->ctilde_bytes + zb * p->l, ws->h))
		goto out;
	rind_mldsa_sample_in_ball(p, sig, &ws->c);
	ops->ntt(&ws->c);
	/* w'_approx = A z - c t1 2^d; w1' = UseHint(h, w'_approx) */
	for (i = 0; i < p->k; i++) {
		ops->pointwise_acc(&ws->w, key->a[i], ws->z, p->l);
		ops->pointwise(&ws->t, &ws->c, &key->t1[i]);
		for (j = 0; j < MLDSA_N; j++)
			ws->w.c[j] -= ws->t.c[j];
		ops->poly_reduce(&ws->w);
		ops->invntt_tomont(&ws->w);
		for (j = 0; j < MLDSA_N; j++)
			ws->w.c[j] = mldsa_caddq(ws->w.c[j]);
		ops->poly_use_hint(&ws->w, &ws->w, &ws->h[i], p->gamma2);
		rind_mldsa_pack_w1(ws->w1 + wb * i, &ws->w, p->gamma2);
	}
	shake256(ws->ctilde, p->ctilde_bytes, mu, MLDSA_MU_BYTES, ws->w1, wb * p->k, NULL, 0);
	if (!crypto_memneq(ws->ctilde, sig, p->ctilde_bytes))
		err = 0;
out:
	free(ws);
	return err;
}
