// SPDX-License-Identifier: MIT
/*
 * Ed25519 signatures (RFC 8032, "pure" Ed25519, no context or prehash),
 * portable C: the "ed25519" sig.
 *
 * Verification policy (the strict, cofactorless variant), the same in
 * every driver:
 *   - the signature is exactly 64 bytes;
 *   - S must be canonical, S < L (RFC 8032 5.1.7 step 1), which makes
 *     signatures non-malleable;
 *   - the public key A must be a canonical encoding of a curve point: its
 *     y below p, and not x = 0 with the sign bit set (RFC 8032 5.1.3
 *     decoding, with y >= p refused rather than reduced) -- otherwise
 *     set_pubkey fails with -EKEYREJECTED;
 *   - R is not decoded: the verifier computes R' = [S]B - [k]A with
 *     k = SHA-512(R || A || M) mod L and accepts only if the canonical
 *     encoding of R' equals the 32 bytes R, so a non-canonical R (or one
 *     that is no point at all) never verifies;
 *   - the check is cofactorless ([S]B = R + [k]A, not its multiple by 8),
 *     as RFC 8032 5.1.7 permits, so the result is deterministic and agrees
 *     with OpenSSL, libsodium and Wycheproof for every honest signature;
 *     small-order A and R are not rejected specially (they simply have to
 *     satisfy the equation).
 *
 * Signing is constant time: the secret scalar and the nonce only go
 * through SHA-512, the masked fixed-base table walk (api/include/crypto/ed25519-impl.h)
 * and the constant-time arithmetic modulo L below.
 *
 * Keys: set_privkey takes the 32-byte seed, or PKCS#8 DER (RFC 8410), PEM
 * or JWK (RFC 8037); set_pubkey the 32-byte key, SPKI DER, PEM or JWK.
 * SHA-512 comes from the registry ("sha512", its best implementation).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <rind/rng.h>
#include <rind/internal/sig.h>
#include <rind/internal/hash.h>
#include <rind/internal/keyfmt.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/ed25519.h>
#include <crypto/curve25519.h>
#include <crypto/fe25519.h>
#include <crypto/ed25519-impl.h>

/* ---- arithmetic modulo L ------------------------------------------------- */

static const u64 sc_l[4] = {
	0x5812631a5cf5d3edULL, 0x14def9dea2f79cd6ULL, 0, 0x1000000000000000ULL,
};

/* floor(2^512 / L), for Barrett reduction with 64-bit digits. */
static const u64 sc_mu[5] = {
	0xed9ce5a30a2c131bULL, 0x2106215d086329a7ULL, 0xffffffffffffffebULL,
	0xffffffffffffffffULL, 0xfULL,
};

/* r = r - L if r >= L (five limbs, r < 2^320), without branching. */
static void sc_cond_sub_l(u64 r[5])
{
	u64 t[5], borrow = 0, mask;
	int i;

	for (i = 0; i < 5; i++) {
		u64 l = i < 4 ? sc_l[i] : 0;
		u128 d = (u128)r[i] - l - borrow;

		t[i] = (u64)d;
		borrow = (u64)(d >> 64) & 1;
	}
	/* borrow == 0: r >= L, take t. */
	mask = borrow - 1;
	for (i = 0; i < 5; i++)
		r[i] ^= mask & (r[i] ^ t[i]);
}

/*
 * out = x mod L for x < 2^512 (eight limbs): Barrett reduction (HAC
 * 14.42, b = 2^64, k = 4), which leaves r < 3L, then two masked
 * subtractions.  Constant time.
 */
static void sc_barrett(u8 out[32], const u64 x[8])
{
	u64 q2[10] = { 0 }, r2[5] = { 0 }, r[5];
	const u64 *q1 = x + 3;
	const u64 *q3 = q2 + 5;
	u64 borrow = 0;
	int i, j;

	for (i = 0; i < 5; i++) {
		u64 carry = 0;

		for (j = 0; j < 5; j++) {
			u128 t = (u128)q1[i] * sc_mu[j] + q2[i + j] + carry;

			q2[i + j] = (u64)t;
			carry = (u64)(t >> 64);
		}
		q2[i + 5] = carry;
	}
	/* r2 = q3 * L mod 2^320 */
	for (i = 0; i < 5; i++) {
		u64 carry = 0;

		for (j = 0; j < 4 && i + j < 5; j++) {
			u128 t = (u128)q3[i] * sc_l[j] + r2[i + j] + carry;

			r2[i + j] = (u64)t;
			carry = (u64)(t >> 64);
		}
		if (i + j < 5)
			r2[i + j] += carry;
	}
	for (i = 0; i < 5; i++) {
		u128 d = (u128)x[i] - r2[i] - borrow;

		r[i] = (u64)d;
		borrow = (u64)(d >> 64) & 1;
	}
	sc_cond_sub_l(r);
	sc_cond_sub_l(r);
	for (i = 0; i < 4; i++)
		put_unaligned_le64(r[i], out + 8 * i);
	memzero_explicit(q2, sizeof(q2));
	memzero_explicit(r2, sizeof(r2));
	memzero_explicit(r, sizeof(r));
}

void ed25519_sc_reduce(u8 out[32], const u8 in[64])
{
	u64 x[8];
	int i;

	for (i = 0; i < 8; i++)
		x[i] = get_unaligned_le64(in + 8 * i);
	sc_barrett(out, x);
	memzero_explicit(x, sizeof(x));
}

void ed25519_sc_muladd(u8 out[32], const u8 a[32], const u8 b[32], const u8 c[32])
{
	u64 al[4], bl[4], x[8] = { 0 };
	u64 carry;
	int i, j;

	for (i = 0; i < 4; i++) {
		al[i] = get_unaligned_le64(a + 8 * i);
		bl[i] = get_unaligned_le64(b + 8 * i);
	}
	for (i = 0; i < 4; i++) {
		carry = 0;
		for (j = 0; j < 4; j++) {
			u128 t = (u128)al[i] * bl[j] + x[i + j] + carry;

			x[i + j] = (u64)t;
			carry = (u64)(t >> 64);
		}
		x[i + 4] = carry;
	}
	carry = 0;
	for (i = 0; i < 8; i++) {
		u128 t = (u128)x[i] + (i < 4 ? get_unaligned_le64(c + 8 * i) : 0) + carry;

		x[i] = (u64)t;
		carry = (u64)(t >> 64);
	}
	sc_barrett(out, x);
	memzero_explicit(al, sizeof(al));
	memzero_explicit(bl, sizeof(bl));
	memzero_explicit(x, sizeof(x));
}

int ed25519_sc_is_canonical(const u8 s[32])
{
	int i;

	for (i = 3; i >= 0; i--) {
		u64 v = get_unaligned_le64(s + 8 * i);

		if (v < sc_l[i])
			return 1;
		if (v > sc_l[i])
			return 0;
	}
	return 0;	/* s == L */
}

/* ---- SHA-512 ------------------------------------------------------------- */

/* out = SHA-512(a || b || m); a and b may be NULL. */
static int ed_hash(struct crypto_shash *sha, u8 out[64], const u8 *a, size_t alen,
		   const u8 *b, size_t blen, const u8 *m, size_t mlen)
{
	SHASH_DESC_ON_STACK(desc, sha);
	int err;

	desc->tfm = sha;
	err = crypto_shash_init(desc);
	if (!err && alen)
		err = crypto_shash_update(desc, a, (unsigned int)alen);
	if (!err && blen)
		err = crypto_shash_update(desc, b, (unsigned int)blen);
	while (!err && mlen) {
		unsigned int n = mlen > (UINT_MAX & ~127u) ? (UINT_MAX & ~127u) : (unsigned int)mlen;

		err = crypto_shash_update(desc, m, n);
		m += n;
		mlen -= n;
	}
	if (!err)
		err = crypto_shash_final(desc, out);
	shash_desc_zero(desc);
	return err;
}

/* ---- the operations, over a driver --------------------------------------- */

/* az = SHA-512(seed) with the scalar half clamped; pub = [a]B. */
static int ed_expand(const struct ed25519_driver *drv, struct crypto_shash *sha,
		     const u8 seed[32], u8 az[64], u8 pub[32])
{
	int err = ed_hash(sha, az, seed, 32, NULL, 0, NULL, 0);

	if (err)
		return err;
	az[0] &= 248;
	az[31] &= 127;
	az[31] |= 64;
	drv->base_mul(pub, az);
	/* The public key is public (and compared with a given one below). */
	rind_declassify(pub, 32);
	return 0;
}

/* The driver's arithmetic modulo L where it has its own. */
static inline void ed_sc_reduce(const struct ed25519_driver *drv, u8 out[32], const u8 in[64])
{
	if (drv->sc_reduce)
		drv->sc_reduce(out, in);
	else
		ed25519_sc_reduce(out, in);
}

static inline void ed_sc_muladd(const struct ed25519_driver *drv, u8 out[32], const u8 a[32],
				const u8 b[32], const u8 c[32])
{
	if (drv->sc_muladd)
		drv->sc_muladd(out, a, b, c);
	else
		ed25519_sc_muladd(out, a, b, c);
}

static int ed_sign(const struct ed25519_driver *drv, struct crypto_shash *sha, u8 sig[64],
		   const u8 *msg, size_t len, const u8 az[64], const u8 pub[32])
{
	u8 h[64], r[32], k[32];
	int err;

	/* r = SHA-512(prefix || M) mod L, R = [r]B */
	err = ed_hash(sha, h, az + 32, 32, NULL, 0, msg, len);
	if (err)
		goto out;
	ed_sc_reduce(drv, r, h);
	drv->base_mul(sig, r);
	/* k = SHA-512(R || A || M) mod L, S = r + k a mod L */
	err = ed_hash(sha, h, sig, 32, pub, 32, msg, len);
	if (err)
		goto out;
	ed_sc_reduce(drv, k, h);
	ed_sc_muladd(drv, sig + 32, k, az, r);
out:
	memzero_explicit(h, sizeof(h));
	memzero_explicit(r, sizeof(r));
	return err;
}

static int ed_verify(const struct ed25519_driver *drv, struct crypto_shash *sha,
		     const u8 *sig, size_t siglen, const u8 *msg, size_t len,
		     const u8 pub[32], const struct ed25519_pre *pre)
{
	u8 h[64], k[32], rcheck[32];
	int err;

	if (siglen != ED25519_SIG_SIZE)
		return -EBADMSG;
	if (!ed25519_sc_is_canonical(sig + 32))
		return -EBADMSG;
	err = ed_hash(sha, h, sig, 32, pub, 32, msg, len);
	if (err)
		return err;
	ed25519_sc_reduce(k, h);
	drv->double_mul(rcheck, pre, sig + 32, k);
	return memcmp(rcheck, sig, 32) ? -EBADMSG : 0;
}

/* ---- the sig glue, shared by every driver -------------------------------- */

static const struct ed25519_driver *ed_drv(struct crypto_sig *tfm)
{
	return container_of(crypto_sig_alg(tfm), struct ed25519_driver, alg);
}

int ed25519_sig_init(struct crypto_sig *tfm)
{
	struct ed25519_ctx *ctx = crypto_sig_ctx(tfm);

	ctx->sha512 = crypto_alloc_shash("sha512", 0, 0);
	if (IS_ERR(ctx->sha512)) {
		int err = (int)PTR_ERR(ctx->sha512);

		ctx->sha512 = NULL;
		return err;
	}
	return 0;
}

void ed25519_sig_exit(struct crypto_sig *tfm)
{
	struct ed25519_ctx *ctx = crypto_sig_ctx(tfm);

	crypto_free_shash(ctx->sha512);
}

static int ed_set_seed(struct crypto_sig *tfm, const u8 seed[32], const u8 *check_pub)
{
	struct ed25519_ctx *ctx = crypto_sig_ctx(tfm);
	u8 az[64], pub[32];
	int err;

	err = ed_expand(ed_drv(tfm), ctx->sha512, seed, az, pub);
	if (!err && check_pub && memcmp(pub, check_pub, 32))
		err = -EKEYREJECTED;
	if (!err) {
		memcpy(ctx->seed, seed, 32);
		memcpy(ctx->az, az, 64);
		memcpy(ctx->pub, pub, 32);
		ctx->has_priv = true;
		/* The verification table is built on demand (see verify). */
		ctx->has_pub = false;
	}
	memzero_explicit(az, sizeof(az));
	return err;
}

int ed25519_sig_set_priv_key(struct crypto_sig *tfm, const void *key, unsigned int keylen)
{
	u8 seed[32], pub[32];
	int has_pub = 0, err;

	if (keylen == ED25519_SEED_SIZE)
		return ed_set_seed(tfm, key, NULL);
	if (okp_is_bare(key, keylen, ED25519_SEED_SIZE))
		return -EINVAL;
	err = rind_okp_import_priv(&rind_okp_ed25519, key, keylen, seed, pub, &has_pub);
	if (!err)
		err = ed_set_seed(tfm, seed, has_pub ? pub : NULL);
	memzero_explicit(seed, sizeof(seed));
	return err;
}

int ed25519_sig_set_pub_key(struct crypto_sig *tfm, const void *key, unsigned int keylen)
{
	struct ed25519_ctx *ctx = crypto_sig_ctx(tfm);
	struct ed25519_pre pre;
	u8 pub[32];
	int err;

	if (keylen == ED25519_PUBKEY_SIZE) {
		memcpy(pub, key, 32);
	} else {
		if (okp_is_bare(key, keylen, ED25519_PUBKEY_SIZE))
			return -EINVAL;
		err = rind_okp_import_pub(&rind_okp_ed25519, key, keylen, pub);
		if (err)
			return err;
	}
	/* Into a scratch copy first: a refused key leaves the tfm as it was. */
	err = ed_drv(tfm)->prepare(&pre, pub);
	if (err)
		return err;
	memcpy(&ctx->pre, &pre, sizeof(pre));
	memcpy(ctx->pub, pub, 32);
	memzero_explicit(ctx->seed, sizeof(ctx->seed));
	memzero_explicit(ctx->az, sizeof(ctx->az));
	ctx->has_priv = false;
	ctx->has_pub = true;
	return 0;
}

int ed25519_sig_generate_key(struct crypto_sig *tfm)
{
	u8 seed[32];
	int err;

	err = rind_get_random_bytes(seed, sizeof(seed));
	if (!err)
		err = ed_set_seed(tfm, seed, NULL);
	memzero_explicit(seed, sizeof(seed));
	return err;
}

int ed25519_sig_sign(struct crypto_sig *tfm, const void *msg, unsigned int msglen,
		     void *sig, unsigned int siglen)
{
	struct ed25519_ctx *ctx = crypto_sig_ctx(tfm);
	int err;

	if (!ctx->has_priv)
		return -ENOKEY;
	if (siglen < ED25519_SIG_SIZE)
		return -EINVAL;
	err = ed_sign(ed_drv(tfm), ctx->sha512, sig, msg, msglen, ctx->az, ctx->pub);
	return err ? err : ED25519_SIG_SIZE;
}

int ed25519_sig_verify(struct crypto_sig *tfm, const void *sig, unsigned int siglen,
		       const void *msg, unsigned int msglen)
{
	struct ed25519_ctx *ctx = crypto_sig_ctx(tfm);
	const struct ed25519_driver *drv = ed_drv(tfm);
	struct ed25519_pre *pre, *tmp = NULL;
	int err;

	if (ctx->has_pub) {
		pre = &ctx->pre;
	} else if (ctx->has_priv) {
		/* A signing tfm: its own public key, prepared for this call. */
		tmp = aligned_alloc(64, sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		err = drv->prepare(tmp, ctx->pub);
		if (err) {
			free(tmp);
			return err;
		}
		pre = tmp;
	} else {
		return -ENOKEY;
	}
	err = ed_verify(drv, ctx->sha512, sig, siglen, msg, msglen, ctx->pub, pre);
	free(tmp);
	return err;
}

/*
 * Batches.  Up to ED_SIGN_WINDOW valid requests at a time: sorted by
 * message length, their nonces hashed (crypto_shash_finup_mb over each
 * run of equal lengths: SHA-512 of several messages at once in vector
 * lanes where the sha512 implementation can), the nonce points [r]B
 * computed together (base_mul_batch: one field inversion per 16), then
 * the challenges hashed the same way and each S.  The same signatures as
 * one at a time (RFC 8032 signing is deterministic).
 *
 * Only lengths and counts, which are public, steer this; the nonce prefix
 * and the nonces go through finup_mb, which is constant time.
 */
#define ED_SIGN_WINDOW	64
/*
 * The challenge hashes H(R || A || M) have no common prefix: each lane
 * gets R || A || M copied into one buffer (cheap next to hashing), for
 * messages up to this long; longer ones are hashed one by one.
 */
#define ED_MB_COPY_MAX	(64 * 1024)

/* Stable insertion sort of idx[0..m) by message length. */
static void ed_sort_by_len(const struct sig_request *reqs, unsigned int *idx, unsigned int m)
{
	unsigned int j, k, v;

	for (j = 1; j < m; j++) {
		v = idx[j];
		for (k = j; k > 0 && reqs[idx[k - 1]].msglen > reqs[v].msglen; k--)
			idx[k] = idx[k - 1];
		idx[k] = v;
	}
}

/* The end of the run of equal message lengths that starts at idx[j]. */
static unsigned int ed_run_end(const struct sig_request *reqs, const unsigned int *idx,
			       unsigned int j, unsigned int m)
{
	unsigned int e = j + 1;

	while (e < m && reqs[idx[e]].msglen == reqs[idx[j]].msglen)
		e++;
	return e;
}

/* r[j] = SHA-512(prefix || M_j) mod L for the window. */
static int ed_batch_nonces(struct ed25519_ctx *ctx, const struct sig_request *reqs,
			   const unsigned int *idx, unsigned int m, u8 (*r)[32])
{
	SHASH_DESC_ON_STACK(desc, ctx->sha512);
	u8 h[HASH_MAX_MB_MSGS][64];
	const u8 *data[HASH_MAX_MB_MSGS];
	u8 *outs[HASH_MAX_MB_MSGS];
	unsigned int j, e, c, t;
	int err = 0;

	desc->tfm = ctx->sha512;
	for (j = 0; !err && j < m; j = e) {
		e = ed_run_end(reqs, idx, j, m);
		for (; !err && j < e; j += c) {
			c = e - j < HASH_MAX_MB_MSGS ? e - j : HASH_MAX_MB_MSGS;
			for (t = 0; t < c; t++) {
				data[t] = reqs[idx[j + t]].msg;
				outs[t] = h[t];
			}
			err = crypto_shash_init(desc);
			if (!err)
				err = crypto_shash_update(desc, ctx->az + 32, 32);
			if (!err)
				err = crypto_shash_finup_mb(desc, data, reqs[idx[j]].msglen, outs, c);
			for (t = 0; !err && t < c; t++)
				ed25519_sc_reduce(r[j + t], h[t]);
		}
	}
	shash_desc_zero(desc);
	memzero_explicit(h, sizeof(h));
	return err;
}

/* S = r + k a with k = SHA-512(R || A || M) mod L; the signature R || S. */
static void ed_batch_finish(struct ed25519_ctx *ctx, struct sig_request *q, const u8 rp[32],
			    const u8 r[32], const u8 h[64])
{
	u8 k[32], *sig = q->sig;

	ed25519_sc_reduce(k, h);
	memcpy(sig, rp, 32);
	ed25519_sc_muladd(sig + 32, k, ctx->az, r);
	q->siglen = ED25519_SIG_SIZE;
	q->err = 0;
}

/* The challenges and signatures of the window, R_j = rp[j]. */
static void ed_batch_sign(struct ed25519_ctx *ctx, struct sig_request *reqs,
			  const unsigned int *idx, unsigned int m, const u8 (*rp)[32],
			  const u8 (*r)[32])
{
	SHASH_DESC_ON_STACK(desc, ctx->sha512);
	bool mb = crypto_shash_mb_max_msgs(ctx->sha512) > 1;
	u8 h[HASH_MAX_MB_MSGS][64];
	const u8 *data[HASH_MAX_MB_MSGS];
	u8 *outs[HASH_MAX_MB_MSGS];
	unsigned int j, e, c, t;
	int err;

	desc->tfm = ctx->sha512;
	for (j = 0; j < m; j = e) {
		unsigned int len = reqs[idx[j]].msglen;
		size_t stride = 64 + (size_t)len;
		u8 *buf = NULL;

		e = ed_run_end(reqs, idx, j, m);
		if (mb && e - j > 1 && len <= ED_MB_COPY_MAX)
			buf = malloc(stride * (e - j < HASH_MAX_MB_MSGS ? e - j : HASH_MAX_MB_MSGS));
		for (; j < e; j += c) {
			c = e - j < HASH_MAX_MB_MSGS ? e - j : HASH_MAX_MB_MSGS;
			if (buf) {
				for (t = 0; t < c; t++) {
					u8 *p = buf + t * stride;

					memcpy(p, rp[j + t], 32);
					memcpy(p + 32, ctx->pub, 32);
					if (len)
						memcpy(p + 64, reqs[idx[j + t]].msg, len);
					data[t] = p;
					outs[t] = h[t];
				}
				err = crypto_shash_init(desc);
				if (!err)
					err = crypto_shash_finup_mb(desc, data, (unsigned int)stride, outs, c);
				for (t = 0; t < c; t++) {
					if (err)
						reqs[idx[j + t]].err = err;
					else
						ed_batch_finish(ctx, &reqs[idx[j + t]], rp[j + t], r[j + t], h[t]);
				}
				continue;
			}
			/* One by one: nothing to share, or no buffer. */
			for (t = 0; t < c; t++) {
				struct sig_request *q = &reqs[idx[j + t]];

				err = ed_hash(ctx->sha512, h[0], rp[j + t], 32, ctx->pub, 32, q->msg, q->msglen);
				if (err)
					q->err = err;
				else
					ed_batch_finish(ctx, q, rp[j + t], r[j + t], h[0]);
			}
		}
		free(buf);
	}
	shash_desc_zero(desc);
	memzero_explicit(h, sizeof(h));
}

void ed25519_sig_sign_batch(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n)
{
	struct ed25519_ctx *ctx = crypto_sig_ctx(tfm);
	const struct ed25519_driver *drv = ed_drv(tfm);
	u8 r[ED_SIGN_WINDOW][32], rp[ED_SIGN_WINDOW][32];
	unsigned int idx[ED_SIGN_WINDOW];
	unsigned int i = 0, m, j;
	int err;

	if (!drv->base_mul_batch || !ctx->has_priv) {
		for (i = 0; i < n; i++) {
			int ret;

			if (reqs[i].err)
				continue;
			ret = ed25519_sig_sign(tfm, reqs[i].msg, reqs[i].msglen, reqs[i].sig,
					       reqs[i].siglen);
			if (ret < 0) {
				reqs[i].err = ret;
			} else {
				reqs[i].siglen = (unsigned int)ret;
				reqs[i].err = 0;
			}
		}
		return;
	}
	while (i < n) {
		for (m = 0; i < n && m < ED_SIGN_WINDOW; i++) {
			struct sig_request *q = &reqs[i];

			if (q->err)
				continue;
			if (q->siglen < ED25519_SIG_SIZE) {
				q->err = -EINVAL;
				continue;
			}
			idx[m++] = i;
		}
		if (!m)
			continue;
		ed_sort_by_len(reqs, idx, m);
		err = ed_batch_nonces(ctx, reqs, idx, m, r);
		if (err) {
			for (j = 0; j < m; j++)
				reqs[idx[j]].err = err;
			continue;
		}
		drv->base_mul_batch(rp, (const u8 (*)[32])r, m);
		ed_batch_sign(ctx, reqs, idx, m, (const u8 (*)[32])rp, (const u8 (*)[32])r);
	}
	memzero_explicit(r, sizeof(r));
}

void ed25519_sig_verify_batch(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!reqs[i].err)
			reqs[i].err = ed25519_sig_verify(tfm, reqs[i].sig, reqs[i].siglen,
							 reqs[i].msg, reqs[i].msglen);
}

int ed25519_sig_export_pubkey(struct crypto_sig *tfm, enum rind_key_format fmt,
			      u8 *out, unsigned int outlen)
{
	struct ed25519_ctx *ctx = crypto_sig_ctx(tfm);

	if (!ctx->has_priv && !ctx->has_pub)
		return -ENOKEY;
	return rind_okp_export_pub(&rind_okp_ed25519, fmt, ctx->pub, out, outlen);
}

int ed25519_sig_export_privkey(struct crypto_sig *tfm, enum rind_key_format fmt,
			       u8 *out, unsigned int outlen)
{
	struct ed25519_ctx *ctx = crypto_sig_ctx(tfm);

	if (!ctx->has_priv)
		return -ENOKEY;
	return rind_okp_export_priv(&rind_okp_ed25519, fmt, ctx->seed, ctx->pub, out, outlen);
}

unsigned int ed25519_sig_key_size(struct crypto_sig *tfm)
{
	(void)tfm;
	return 256;
}

unsigned int ed25519_sig_max_size(struct crypto_sig *tfm)
{
	(void)tfm;
	return ED25519_SIG_SIZE;
}

/* Ed25519 signing is always deterministic (RFC 8032): nothing to switch. */
int ed25519_sig_set_deterministic(struct crypto_sig *tfm, bool on)
{
	(void)tfm;
	(void)on;
	return 0;
}

/* ---- one-shots over the best implementation ------------------------------ */

static const struct ed25519_driver *ed_best;
static struct crypto_shash *ed_oneshot_sha;

static int ed_oneshot(const struct ed25519_driver **drvp, struct crypto_shash **shap)
{
	const struct ed25519_driver *drv = __atomic_load_n(&ed_best, __ATOMIC_ACQUIRE);
	struct crypto_shash *sha = __atomic_load_n(&ed_oneshot_sha, __ATOMIC_ACQUIRE);
	struct crypto_alg *alg;

	if (!drv) {
		alg = crypto_alg_mod_lookup("ed25519", CRYPTO_ALG_TYPE_SIG, CRYPTO_ALG_TYPE_MASK);
		if (IS_ERR(alg))
			return (int)PTR_ERR(alg);
		if (__crypto_sig_alg(alg)->set_priv_key != ed25519_sig_set_priv_key) {
			crypto_mod_put(alg);
			return -ENOENT;
		}
		/* The reference is kept: built-in algorithms are never destroyed. */
		drv = container_of(__crypto_sig_alg(alg), struct ed25519_driver, alg);
		__atomic_store_n(&ed_best, drv, __ATOMIC_RELEASE);
	}
	if (!sha) {
		struct crypto_shash *expected = NULL;

		sha = crypto_alloc_shash("sha512", 0, 0);
		if (IS_ERR(sha))
			return (int)PTR_ERR(sha);
		/* Unkeyed, so one tfm serves every thread; keep the first. */
		if (!__atomic_compare_exchange_n(&ed_oneshot_sha, &expected, sha, false,
						 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			crypto_free_shash(sha);
			sha = expected;
		}
	}
	*drvp = drv;
	*shap = sha;
	return 0;
}

RIND_EXPORT int rind_ed25519_public_key(u8 pub[ED25519_PUBKEY_SIZE], const u8 seed[ED25519_SEED_SIZE])
{
	const struct ed25519_driver *drv;
	struct crypto_shash *sha;
	u8 az[64];
	int err;

	if (!pub || !seed)
		return -EINVAL;
	err = ed_oneshot(&drv, &sha);
	if (!err)
		err = ed_expand(drv, sha, seed, az, pub);
	memzero_explicit(az, sizeof(az));
	return err;
}

RIND_EXPORT int rind_ed25519_sign(u8 sig[ED25519_SIG_SIZE], const void *msg, size_t msglen,
				  const u8 seed[ED25519_SEED_SIZE])
{
	const struct ed25519_driver *drv;
	struct crypto_shash *sha;
	u8 az[64], pub[32];
	int err;

	if (!sig || !seed || (!msg && msglen))
		return -EINVAL;
	err = ed_oneshot(&drv, &sha);
	if (!err)
		err = ed_expand(drv, sha, seed, az, pub);
	if (!err)
		err = ed_sign(drv, sha, sig, msg, msglen, az, pub);
	memzero_explicit(az, sizeof(az));
	return err;
}

RIND_EXPORT int rind_ed25519_verify(const u8 sig[ED25519_SIG_SIZE], const void *msg, size_t msglen,
				    const u8 pub[ED25519_PUBKEY_SIZE])
{
	const struct ed25519_driver *drv;
	struct crypto_shash *sha;
	struct ed25519_pre *pre;
	int err;

	if (!sig || !pub || (!msg && msglen))
		return -EINVAL;
	err = ed_oneshot(&drv, &sha);
	if (err)
		return err;
	pre = aligned_alloc(64, sizeof(*pre));
	if (!pre)
		return -ENOMEM;
	/* A public key that is no canonical point cannot verify anything. */
	err = drv->prepare(pre, pub) ? -EBADMSG : 0;
	if (!err)
		err = ed_verify(drv, sha, sig, ED25519_SIG_SIZE, msg, msglen, pub, pre);
	free(pre);
	return err;
}

/* ---- the generic driver -------------------------------------------------- */

void curve25519_base_generic(u8 out[CURVE25519_KEY_SIZE], const u8 scalar[CURVE25519_KEY_SIZE])
{
	ed_base_mul_mont(out, scalar);
}

/* RFC 8032 section 7.1: TEST 1 and TEST 3, and TEST 2 with S + L. */
static const struct sig_testvec ed25519_tv[] = {
	{
		.privkey = "\x9d\x61\xb1\x9d\xef\xfd\x5a\x60\xba\x84\x4a\xf4\x92\xec\x2c\xc4"
			   "\x44\x49\xc5\x69\x7b\x32\x69\x19\x70\x3b\xac\x03\x1c\xae\x7f\x60",
		.pubkey = "\xd7\x5a\x98\x01\x82\xb1\x0a\xb7\xd5\x4b\xfe\xd3\xc9\x64\x07\x3a"
			  "\x0e\xe1\x72\xf3\xda\xa6\x23\x25\xaf\x02\x1a\x68\xf7\x07\x51\x1a",
		.msg = "",
		.sig = "\xe5\x56\x43\x00\xc3\x60\xac\x72\x90\x86\xe2\xcc\x80\x6e\x82\x8a"
		       "\x84\x87\x7f\x1e\xb8\xe5\xd9\x74\xd8\x73\xe0\x65\x22\x49\x01\x55"
		       "\x5f\xb8\x82\x15\x90\xa3\x3b\xac\xc6\x1e\x39\x70\x1c\xf9\xb4\x6b"
		       "\xd2\x5b\xf5\xf0\x59\x5b\xbe\x24\x65\x51\x41\x43\x8e\x7a\x10\x0b",
		.privkey_size = 32, .pubkey_size = 32, .msg_size = 0, .sig_size = 64,
	}, {
		.privkey = "\xc5\xaa\x8d\xf4\x3f\x9f\x83\x7b\xed\xb7\x44\x2f\x31\xdc\xb7\xb1"
			   "\x66\xd3\x85\x35\x07\x6f\x09\x4b\x85\xce\x3a\x2e\x0b\x44\x58\xf7",
		.pubkey = "\xfc\x51\xcd\x8e\x62\x18\xa1\xa3\x8d\xa4\x7e\xd0\x02\x30\xf0\x58"
			  "\x08\x16\xed\x13\xba\x33\x03\xac\x5d\xeb\x91\x15\x48\x90\x80\x25",
		.msg = "\xaf\x82",
		.sig = "\x62\x91\xd6\x57\xde\xec\x24\x02\x48\x27\xe6\x9c\x3a\xbe\x01\xa3"
		       "\x0c\xe5\x48\xa2\x84\x74\x3a\x44\x5e\x36\x80\xd7\xdb\x5a\xc3\xac"
		       "\x18\xff\x9b\x53\x8d\x16\xf2\x90\xae\x67\xf7\x60\x98\x4d\xc6\x59"
		       "\x4a\x7c\x15\xe9\x71\x6e\xd2\x8d\xc0\x27\xbe\xce\xea\x1e\xc4\x0a",
		.privkey_size = 32, .pubkey_size = 32, .msg_size = 2, .sig_size = 64,
	}, {
		/* TEST 2's signature with S replaced by S + L: must not verify. */
		.pubkey = "\x3d\x40\x17\xc3\xe8\x43\x89\x5a\x92\xb7\x0a\xa7\x4d\x1b\x7e\xbc"
			  "\x9c\x98\x2c\xcf\x2e\xc4\x96\x8c\xc0\xcd\x55\xf1\x2a\xf4\x66\x0c",
		.msg = "\x72",
		.sig = "\x92\xa0\x09\xa9\xf0\xd4\xca\xb8\x72\x0e\x82\x0b\x5f\x64\x25\x40"
		       "\xa2\xb2\x7b\x54\x16\x50\x3f\x8f\xb3\x76\x22\x23\xeb\xdb\x69\xda"
		       "\xf5\x2d\xb7\x41\x59\x78\xab\xc6\x1b\x2c\x2e\xb6\xae\xeb\xfc\xa0"
		       "\x38\x7b\x2e\xae\xb4\x30\x2a\xee\xb0\x0d\x29\x16\x12\xbb\x0c\x10",
		.pubkey_size = 32, .msg_size = 1, .sig_size = 64,
		.must_fail = true,
	},
};

static const struct sig_test_suite ed25519_suite = {
	.vecs = ed25519_tv,
	.count = ARRAY_SIZE(ed25519_tv),
};

struct alg_test_desc ed25519_test_desc = {
	.alg = "ed25519",
	.suite.priv = &ed25519_suite,
};

static struct ed25519_driver ed25519_generic_drv = {
	.base_mul = ed_base_mul,
	.base_mul_batch = ed_base_mul_batch,
	.base_mul_mont = ed_base_mul_mont,
	.prepare = ed_prepare,
	.double_mul = ed_double_mul,
	.alg = ED25519_SIG_ALG("ed25519-generic", 100, "generic"),
};

static int ed25519_mod_init(void)
{
	crypto_register_test(&ed25519_test_desc);
	return crypto_register_sig(&ed25519_generic_drv.alg);
}

module_init(ed25519_mod_init);
