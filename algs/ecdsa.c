// SPDX-License-Identifier: MIT
/*
 * ECDSA over the NIST prime curves (FIPS 186-5 section 6; SEC 1 v2
 * section 4.1), with the message hashed inside.
 *
 * Structure, as the kernel's ecdsa + x962/p1363 wrappers:
 *   - "ecdsa-nist-p256", "ecdsa-nist-p384", "ecdsa-nist-p521" (drivers
 *     "ecdsa-nist-pXXX-generic", struct ecdsa_driver) carry a curve
 *     implementation; as a sig algorithm on their own they hold keys
 *     (import, export, generation) but sign and verify nothing
 *     (-EOPNOTSUPP): no entry point signs a caller's digest.
 *   - the templates "x962" (DER SEQUENCE { r, s } signatures, ANSI X9.62)
 *     and "p1363" (fixed-size r||s, IEEE 1363 / WebCrypto) take such a
 *     curve algorithm and a hash: "x962(ecdsa-nist-p256,sha256)".  Any
 *     unkeyed shash of at most 64-byte digests is allowed except SHA-1
 *     (-EINVAL); every pairing of the three curves with sha224, sha256,
 *     sha384 and sha512 has its self-test.
 *
 * Signing: e = bits2int(H(m)); the nonce comes from RFC 6979's HMAC-DRBG
 * over the same hash, hedged: 32 fresh bytes from rind_get_random_bytes()
 * enter as the additional data k' of RFC 6979 section 3.6, so a failing
 * random source still leaves a deterministic, safe nonce, and fault
 * attacks on deterministic signing get no repeated nonce.  The scalar
 * multiplication, the inversion of k (Fermat, fixed public exponent) and
 * the arithmetic mod n are constant time; s is not normalised.
 * Batches (crypto_sig_sign_batch) draw the same nonces and share the two
 * inversions of each signature across the batch (ecdsa_sign_batch).
 * Verification rejects r or s outside [1, n - 1] and, for x962, any
 * encoding that is not strict DER; it runs on public data only.
 */
#include <stdio.h>
#include <string.h>
#include <rind/rng.h>
#include <rind/internal/hash.h>
#include <rind/internal/util.h>
#include <crypto/ecc.h>

#define ECDSA_MAX_HASH		64
#define ECDSA_MAX_BLOCK		128
#define ECDSA_HEDGE_BYTES	32
/* V || 0x00/0x01 || d || h1 || k': the longest HMAC message of the nonce */
#define ECDSA_HMAC_MSG		(ECDSA_MAX_HASH + 1 + 2 * ECC_MAX_BYTES + ECDSA_HEDGE_BYTES)

/*
 * The HMAC states of RFC 6979's first key, K = 0x00..00 (step d): the same
 * for every signature over one hash, so computed once per tfm.  Public.
 */
struct ecdsa_hmac_k0 {
	u8 ist[HASH_MAX_DESCSIZE] __attribute__((aligned(16)));
	u8 ost[HASH_MAX_DESCSIZE] __attribute__((aligned(16)));
};

struct ecdsa_ctx {
	const struct ecc_curve *curve;
	struct crypto_shash *hash;	/* NULL in the bare curve algorithm */
	bool p1363;
	bool has_priv, has_pub;
	bool deterministic;	/* rind_sig_set_deterministic: plain RFC 6979 */
	u8 d[ECC_MAX_BYTES];
	u8 xy[2 * ECC_MAX_BYTES];
	struct ecdsa_hmac_k0 k0;	/* in the x962/p1363 instances */
};

struct ecdsa_instance {
	struct crypto_spawn curve_spawn;
	struct crypto_spawn hash_spawn;
	const struct ecc_curve *curve;
	bool p1363;
	struct sig_alg alg;
};

/* ---- helpers ------------------------------------------------------------- */

/* bits2int (RFC 6979 section 2.3.2) into a curve-sized big-endian buffer. */
static void ecdsa_bits2int(const struct ecc_curve *c, u8 *out, const u8 *in, unsigned int inlen)
{
	unsigned int n = c->nbytes, shift, i;

	if (inlen * 8 <= c->bits) {
		memset(out, 0, n - inlen);
		memcpy(out + n - inlen, in, inlen);
		return;
	}
	memcpy(out, in, n);
	shift = n * 8 - c->bits;
	if (!shift)
		return;
	for (i = n - 1; i > 0; i--)
		out[i] = (u8)((out[i] >> shift) | (out[i - 1] << (8 - shift)));
	out[0] >>= shift;
}

/*
 * HMAC (RFC 2104) over an unkeyed shash, keyed once per key: when K
 * changes, the states after the ipad block and after the opad block are
 * exported, and each message under that K imports them, so a message costs
 * its own blocks and one outer block instead of two more pad blocks.  The
 * hash's entry points are called directly (shash_raw_*: the template takes
 * unkeyed hashes only, no key check), the pad states are the hmac
 * template's (hmac_pad_states), and nothing is wiped per message: the
 * descriptor, the pad states and the inner digest live in the nonce state
 * and ecdsa_nonce_wipe() clears them once per signature.
 */
struct ecdsa_hmac {
	const struct shash_alg *alg;
	struct shash_desc *desc;	/* in dbuf */
	unsigned int bs, ds, ss;	/* block, digest and exported state sizes */
	u8 ist[HASH_MAX_DESCSIZE] __attribute__((aligned(16)));
	u8 ost[HASH_MAX_DESCSIZE] __attribute__((aligned(16)));
	u8 inner[ECDSA_MAX_HASH];
	u8 msg[ECDSA_HMAC_MSG];		/* a gathered message (ecdsa_hmac) */
	u8 dbuf[sizeof(struct shash_desc) + HASH_MAX_DESCSIZE] __attribute__((aligned(16)));
};

static int ecdsa_hmac_start(struct ecdsa_hmac *hm, struct crypto_shash *h)
{
	const struct shash_alg *alg = crypto_shash_alg(h);

	hm->alg = alg;
	hm->desc = (struct shash_desc *)(void *)hm->dbuf;
	hm->desc->tfm = h;
	hm->bs = crypto_shash_blocksize(h);
	hm->ds = alg->digestsize;
	hm->ss = shash_raw_statesize(alg);
	/* (the template's checks already bound bs and ds) */
	if (hm->ss > HASH_MAX_DESCSIZE || h->descsize > HASH_MAX_DESCSIZE) {
		hm->ss = 0;	/* nothing to wipe */
		return -EINVAL;
	}
	return 0;
}

/* Key with @key (@klen <= bs bytes): the ipad and opad states. */
static int ecdsa_hmac_setkey(struct ecdsa_hmac *hm, const u8 *key, unsigned int klen)
{
	return hmac_pad_states(hm->alg, hm->desc, hm->bs, key, klen, hm->ist, hm->ost);
}

/*
 * HMAC under the current key of the message given in @nparts pieces, to
 * @out.  The pieces (V, the separator byte, d, h1, k': at most
 * ECDSA_HMAC_MSG bytes) are gathered into one buffer and hashed by one
 * finup from the ipad state, so that the hash sees whole blocks and one
 * tail instead of an update per piece, each through the descriptor's
 * buffer, and a final.  The buffer holds d: ecdsa_nonce_wipe() clears it.
 */
static int ecdsa_hmac(struct ecdsa_hmac *hm, const u8 *const *parts, const unsigned int *lens,
		      int nparts, u8 *out)
{
	const struct shash_alg *a = hm->alg;
	const u8 *msg = parts[0];
	unsigned int len = lens[0];
	int err, j;

	if (nparts > 1) {
		for (j = 0, len = 0; j < nparts; j++) {
			if (len + lens[j] > sizeof(hm->msg))
				return -EINVAL;		/* never: the callers' sizes */
			if (lens[j])
				memcpy(hm->msg + len, parts[j], lens[j]);
			len += lens[j];
		}
		msg = hm->msg;
	}
	err = shash_raw_import(a, hm->desc, hm->ist);
	if (!err)
		err = shash_raw_finup(a, hm->desc, msg, len, hm->inner);
	if (!err)
		err = shash_raw_import(a, hm->desc, hm->ost);
	return err ? err : shash_raw_finup(a, hm->desc, hm->inner, hm->ds, out);
}

/*
 * RFC 6979's HMAC-DRBG (section 3.2) for one signature: K and V over the
 * hash of hlen bytes, and the HMAC keyed with the current K.  Its steps as
 * functions, so that a batch can draw every nonce first and sign them all
 * together (ecdsa_sign_batch) with exactly the nonces the single path draws.
 */
struct ecdsa_nonce {
	u8 K[ECDSA_MAX_HASH], V[ECDSA_MAX_HASH];
	unsigned int hlen;
	struct ecdsa_hmac hm;
};

/* Clear every secret of @st (K, V, the HMAC states and descriptor); sizes are public. */
static void ecdsa_nonce_wipe(struct ecdsa_nonce *st)
{
	memzero_explicit(st->K, sizeof(st->K));
	memzero_explicit(st->V, sizeof(st->V));
	memzero_explicit(st->hm.ist, st->hm.ss);
	memzero_explicit(st->hm.ost, st->hm.ss);
	memzero_explicit(st->hm.inner, sizeof(st->hm.inner));
	memzero_explicit(st->hm.msg, sizeof(st->hm.msg));
	memzero_explicit(shash_desc_ctx(st->hm.desc), st->hm.desc->tfm->descsize);
}

/*
 * Steps b-f: the state seeded with the key @d, h1 = bits2int(H(m)) mod n
 * (from @e = bits2int(H(m))) and @extra as the additional data k' of
 * section 3.6 when given.  The four HMACs use three keys: K = 0 (its
 * states @k0, from ecdsa_hmac_k0_init()), then K1 for both K's and V's
 * update, then K2, which also serves the first candidate.
 */
static int ecdsa_nonce_init(struct ecdsa_nonce *st, const struct ecc_curve *c,
			    struct crypto_shash *h, const struct ecdsa_hmac_k0 *k0,
			    const u8 *d, const u8 *e, unsigned int hlen,
			    const u8 *extra, unsigned int elen)
{
	static const u8 zero = 0x00, one = 0x01;
	u8 h1[ECC_MAX_BYTES];
	const u8 *parts[5];
	unsigned int lens[5], n = c->nbytes;
	int err;

	st->hlen = hlen;
	err = ecdsa_hmac_start(&st->hm, h);
	if (err)
		return err;
	c->reduce_n(h1, e);
	memset(st->V, 0x01, hlen);
	memset(st->K, 0x00, hlen);
	parts[0] = st->V; lens[0] = hlen;
	parts[1] = &zero; lens[1] = 1;
	parts[2] = d; lens[2] = n;
	parts[3] = h1; lens[3] = n;
	parts[4] = extra; lens[4] = extra ? elen : 0;
	memcpy(st->hm.ist, k0->ist, st->hm.ss);
	memcpy(st->hm.ost, k0->ost, st->hm.ss);
	err = ecdsa_hmac(&st->hm, parts, lens, 5, st->K);
	if (!err)
		err = ecdsa_hmac_setkey(&st->hm, st->K, hlen);
	if (!err)
		err = ecdsa_hmac(&st->hm, parts, lens, 1, st->V);
	parts[1] = &one;
	if (!err)
		err = ecdsa_hmac(&st->hm, parts, lens, 5, st->K);
	if (!err)
		err = ecdsa_hmac_setkey(&st->hm, st->K, hlen);
	if (!err)
		err = ecdsa_hmac(&st->hm, parts, lens, 1, st->V);
	memzero_explicit(h1, sizeof(h1));
	return err;
}

/* Step h.1-h.3: the next candidate k = bits2int(T) (not range-checked). */
static int ecdsa_nonce_next(struct ecdsa_nonce *st, const struct ecc_curve *c, u8 *k)
{
	u8 T[ECC_MAX_BYTES + ECDSA_MAX_HASH];
	const u8 *parts[1] = { st->V };
	unsigned int lens[1] = { st->hlen }, n = c->nbytes, tlen;
	int err = 0;

	for (tlen = 0; tlen < n && !err; tlen += st->hlen) {
		err = ecdsa_hmac(&st->hm, parts, lens, 1, st->V);
		memcpy(T + tlen, st->V, st->hlen);
	}
	if (!err)
		ecdsa_bits2int(c, k, T, n);
	memzero_explicit(T, sizeof(T));
	return err;
}

/* Step h.3's update after a candidate thrown away: K = HMAC_K(V || 0x00), V = HMAC_K(V). */
static int ecdsa_nonce_reject(struct ecdsa_nonce *st)
{
	static const u8 zero = 0x00;
	const u8 *parts[2] = { st->V, &zero };
	unsigned int lens[2] = { st->hlen, 1 };
	int err;

	err = ecdsa_hmac(&st->hm, parts, lens, 2, st->K);
	if (!err)
		err = ecdsa_hmac_setkey(&st->hm, st->K, st->hlen);
	if (!err)
		err = ecdsa_hmac(&st->hm, parts, lens, 1, st->V);
	return err;
}

/* The states of the zero key of @h's size into @k0 (at tfm init). */
static int ecdsa_hmac_k0_init(struct ecdsa_hmac_k0 *k0, struct crypto_shash *h)
{
	static const u8 zero[ECDSA_MAX_HASH];
	struct ecdsa_hmac hm;
	int err;

	err = ecdsa_hmac_start(&hm, h);
	if (!err)
		err = ecdsa_hmac_setkey(&hm, zero, hm.ds);
	if (!err) {
		memcpy(k0->ist, hm.ist, hm.ss);
		memcpy(k0->ost, hm.ost, hm.ss);
	}
	memzero_explicit(shash_desc_ctx(hm.desc), h->descsize);
	return err;
}

/*
 * The first candidate in [1, n - 1]: the nonce of the single path unless
 * it gives r or s zero.  The verdicts are public: a candidate out of range
 * is thrown away for the next.
 */
static int ecdsa_nonce_first(struct ecdsa_nonce *st, const struct ecc_curve *c, u8 *k)
{
	int err, tries;

	for (tries = 0; tries < 64; tries++) {
		err = ecdsa_nonce_next(st, c, k);
		if (err)
			return err;
		if (ecc_scalar_ok(c, k))
			return 0;
		err = ecdsa_nonce_reject(st);
		if (err)
			return err;
	}
	return -EAGAIN;		/* never, short of a broken hash */
}

/*
 * Sign the digest @hash (@hlen bytes) with the RFC 6979 nonce (section
 * 3.2, with @extra as the additional data k' of section 3.6 when given).
 */
static int ecdsa_sign_digest(const struct ecc_curve *c, struct crypto_shash *h,
			     const struct ecdsa_hmac_k0 *k0, const u8 *d,
			     const u8 *hash, unsigned int hlen, const u8 *extra,
			     unsigned int elen, u8 *r, u8 *s)
{
	u8 e[ECC_MAX_BYTES], k[ECC_MAX_BYTES];
	struct ecdsa_nonce st;
	unsigned int n = c->nbytes;
	int err, tries;

	ecdsa_bits2int(c, e, hash, hlen);
	err = ecdsa_nonce_init(&st, c, h, k0, d, e, hlen, extra, elen);
	for (tries = 0; !err; tries++) {
		if (tries == 64) {
			err = -EAGAIN;	/* never, short of a broken hash */
			break;
		}
		err = ecdsa_nonce_next(&st, c, k);
		if (err)
			break;
		/*
		 * The verdicts of this loop are public: a nonce candidate out
		 * of range, or giving r or s zero, is thrown away for the next.
		 */
		if (ecc_scalar_ok(c, k)) {
			err = c->sign(r, s, d, k, e);
			rind_declassify(&err, sizeof(err));
			if (err != -EAGAIN) {
				if (!err) {
					/* r and s are the signature, output. */
					rind_declassify(r, n);
					rind_declassify(s, n);
				}
				break;
			}
		}
		err = ecdsa_nonce_reject(&st);
	}
	ecdsa_nonce_wipe(&st);
	memzero_explicit(k, sizeof(k));
	return err;
}

static int ecdsa_digest(struct crypto_shash *h, const void *msg, unsigned int msglen, u8 *out)
{
	SHASH_DESC_ON_STACK(desc, h);

	desc->tfm = h;
	return crypto_shash_digest(desc, msg, msglen, out);
}

/* The DER size of a SEQUENCE of two INTEGERs of at most @n bytes each. */
static unsigned int ecdsa_der_max(unsigned int n)
{
	unsigned int content = 2 * (2 + n + 1);

	return content + (content < 128 ? 2 : 3);
}

/* ---- sig_alg entries (both the curve algorithms and the instances) -------- */

static int ecdsa_set_priv(struct ecdsa_ctx *ctx, const u8 *d, const u8 *xy)
{
	const struct ecc_curve *c = ctx->curve;
	u8 mine[2 * ECC_MAX_BYTES];

	if (!ecc_scalar_ok(c, d))
		return -EKEYREJECTED;
	c->mul_base(mine, d);
	rind_declassify(mine, 2 * c->nbytes);	/* the public key */
	if (xy && memcmp(mine, xy, 2 * c->nbytes))
		return -EKEYREJECTED;
	memcpy(ctx->d, d, c->nbytes);
	memcpy(ctx->xy, mine, 2 * c->nbytes);
	ctx->has_priv = true;
	ctx->has_pub = true;
	return 0;
}

static int ecdsa_set_priv_key(struct crypto_sig *tfm, const void *key, unsigned int keylen)
{
	struct ecdsa_ctx *ctx = crypto_sig_ctx(tfm);
	const struct ecc_curve *c = ctx->curve;
	u8 d[ECC_MAX_BYTES], xy[2 * ECC_MAX_BYTES];
	int has_pub = 0, err;

	if (keylen != c->nbytes && ecc_key_is_bare(key, keylen, c->nbytes))
		return -EINVAL;
	err = ecc_import_priv(c, key, keylen, d, xy, &has_pub);
	if (err)
		err = err == -ENOMEM ? err : -EKEYREJECTED;
	else
		err = ecdsa_set_priv(ctx, d, has_pub ? xy : NULL);
	memzero_explicit(d, sizeof(d));
	return err;
}

static int ecdsa_set_pub_key(struct crypto_sig *tfm, const void *key, unsigned int keylen)
{
	struct ecdsa_ctx *ctx = crypto_sig_ctx(tfm);
	const struct ecc_curve *c = ctx->curve;
	u8 xy[2 * ECC_MAX_BYTES];
	int err;

	err = ecc_import_pub(c, key, keylen, xy);
	if (err)
		return err == -ENOMEM ? err : -EKEYREJECTED;
	memcpy(ctx->xy, xy, 2 * c->nbytes);
	memzero_explicit(ctx->d, sizeof(ctx->d));
	ctx->has_priv = false;
	ctx->has_pub = true;
	return 0;
}

static int ecdsa_generate_key(struct crypto_sig *tfm)
{
	struct ecdsa_ctx *ctx = crypto_sig_ctx(tfm);
	u8 d[ECC_MAX_BYTES];
	int err;

	err = ecc_random_scalar(ctx->curve, d);
	if (!err)
		err = ecdsa_set_priv(ctx, d, NULL);
	memzero_explicit(d, sizeof(d));
	return err;
}

/*
 * One DER INTEGER of the @n-byte unsigned big-endian @v at @p, minimal
 * (leading zero bytes dropped, one 00 added before a set top bit, zero as
 * 02 01 00): its size.  Only for the signature's r and s, which are output
 * (declassified), so the scan may stop at the first nonzero byte.
 */
static unsigned int ecdsa_der_int(u8 *p, const u8 *v, unsigned int n)
{
	unsigned int i = 0, len, pad;

	while (i + 1 < n && !v[i])
		i++;
	len = n - i;
	pad = v[i] >> 7;
	p[0] = DER_INTEGER;
	p[1] = (u8)(len + pad);
	p[2] = 0;
	memcpy(p + 2 + pad, v + i, len);
	return 2 + pad + len;
}

/*
 * The signature of (r, s) in the instance's encoding into @sig: its length,
 * or -EINVAL.  The DER SEQUENCE is written directly (its content is at most
 * 2 * (3 + 66) = 138 bytes: a short or a one-byte long length).
 */
static int ecdsa_encode(const struct ecdsa_ctx *ctx, const u8 *r, const u8 *s, void *sig,
			unsigned int siglen)
{
	u8 out[3 + 2 * (ECC_MAX_BYTES + 3)], *p;
	unsigned int n = ctx->curve->nbytes, len;

	if (ctx->p1363) {
		if (2 * n > siglen)
			return -EINVAL;
		memcpy(sig, r, n);
		memcpy((u8 *)sig + n, s, n);
		return (int)(2 * n);
	}
	len = ecdsa_der_int(out + 3, r, n);
	len += ecdsa_der_int(out + 3 + len, s, n);
	if (len < 128) {
		p = out + 1;
		p[1] = (u8)len;
		len += 2;
	} else {
		p = out;
		p[1] = 0x81;
		p[2] = (u8)len;
		len += 3;
	}
	p[0] = DER_SEQUENCE;
	if (len > siglen)
		return -EINVAL;
	memcpy(sig, p, len);
	return (int)len;
}

static int ecdsa_sign(struct crypto_sig *tfm, const void *msg, unsigned int msglen,
		      void *sig, unsigned int siglen)
{
	struct ecdsa_ctx *ctx = crypto_sig_ctx(tfm);
	const struct ecc_curve *c = ctx->curve;
	u8 hash[ECDSA_MAX_HASH], extra[ECDSA_HEDGE_BYTES], r[ECC_MAX_BYTES], s[ECC_MAX_BYTES];
	unsigned int hlen;
	int err;

	if (!ctx->hash)
		return -EOPNOTSUPP;
	if (!ctx->has_priv)
		return -ENOKEY;
	hlen = crypto_shash_digestsize(ctx->hash);
	err = ecdsa_digest(ctx->hash, msg, msglen, hash);
	if (err)
		return err;
	/*
	 * Hedged: without fresh bytes the nonce is still RFC 6979's; and
	 * deterministic when asked (no k' at all: RFC 6979 section 3.2).
	 */
	if (ctx->deterministic || rind_get_random_bytes(extra, sizeof(extra)))
		err = ecdsa_sign_digest(c, ctx->hash, &ctx->k0, ctx->d, hash, hlen, NULL, 0, r, s);
	else
		err = ecdsa_sign_digest(c, ctx->hash, &ctx->k0, ctx->d, hash, hlen, extra,
					sizeof(extra), r, s);
	memzero_explicit(extra, sizeof(extra));
	if (err)
		return err;
	return ecdsa_encode(ctx, r, s, sig, siglen);
}

/*
 * Batches (crypto_sig_sign_batch, rindd's path).  Every request's nonce is
 * drawn first, exactly as the single path draws it (deterministic
 * signatures come out the same bytes), then up to ECC_SIGN_BATCH_MAX
 * signatures are made together by the curve's sign_batch: one fixed-base
 * multiplication each, but one field inversion (the affine x of every
 * k G) and one inversion modulo n (every k^-1) for them all.  A nonce that
 * gives r or s zero (probability about 2^-bits) is signed again by the
 * single path with the same k', which throws it away as RFC 6979 says.
 * A batch is split into chunks of equal size.  From ECDSA_BATCH_MIN
 * requests on the shared inversions are faster than the single path:
 * measured per signature on Zen 3 (P-256 ADX driver), 2 requests are
 * 1.16x the single path's rate, 8 are 1.39x, 32 1.48x; P-384 and P-521
 * 1.1x at 2, 1.2x at 8 (bench/ops_pk.c has batch rows).
 */
#define ECDSA_BATCH_MIN		2

static void ecdsa_sign_req(struct crypto_sig *tfm, struct sig_request *q)
{
	int r = ecdsa_sign(tfm, q->msg, q->msglen, q->sig, q->siglen);

	if (r >= 0)
		q->siglen = (unsigned int)r;
	q->err = r < 0 ? r : 0;
}

/* The first @m requests of @q without an error (at most ECC_SIGN_BATCH_MAX), together. */
static void ecdsa_batch_chunk(struct ecdsa_ctx *ctx, struct sig_request **q, unsigned int m)
{
	const struct ecc_curve *c = ctx->curve;
	unsigned int nb = c->nbytes, hlen = crypto_shash_digestsize(ctx->hash), j, t = 0;
	u8 k[ECC_SIGN_BATCH_MAX * ECC_MAX_BYTES], e[ECC_SIGN_BATCH_MAX * ECC_MAX_BYTES];
	u8 r[ECC_SIGN_BATCH_MAX * ECC_MAX_BYTES], s[ECC_SIGN_BATCH_MAX * ECC_MAX_BYTES];
	u8 extra[ECC_SIGN_BATCH_MAX][ECDSA_HEDGE_BYTES], hash[ECC_SIGN_BATCH_MAX][ECDSA_MAX_HASH];
	struct sig_request *in[ECC_SIGN_BATCH_MAX];
	int errs[ECC_SIGN_BATCH_MAX], err;
	struct ecdsa_nonce st;
	bool hedged;

	/* as ecdsa_sign(): deterministic when asked or when no fresh bytes come */
	hedged = !ctx->deterministic && !rind_get_random_bytes(extra, m * sizeof(extra[0]));
	for (j = 0; j < m; j++) {
		err = ecdsa_digest(ctx->hash, q[j]->msg, q[j]->msglen, hash[t]);
		if (!err) {
			ecdsa_bits2int(c, e + t * nb, hash[t], hlen);
			if (hedged && t != j)
				memcpy(extra[t], extra[j], sizeof(extra[0]));
			err = ecdsa_nonce_init(&st, c, ctx->hash, &ctx->k0, ctx->d, e + t * nb, hlen,
					       hedged ? extra[t] : NULL, hedged ? sizeof(extra[0]) : 0);
		}
		if (!err)
			err = ecdsa_nonce_first(&st, c, k + t * nb);
		q[j]->err = err;
		if (!err)
			in[t++] = q[j];
	}
	if (t)
		c->sign_batch(r, s, ctx->d, k, e, t, errs);
	for (j = 0; j < t; j++) {
		u8 *rj = r + j * nb, *sj = s + j * nb;
		int len;

		err = 0;
		if (errs[j] == -EAGAIN)
			err = ecdsa_sign_digest(c, ctx->hash, &ctx->k0, ctx->d, hash[j], hlen,
						hedged ? extra[j] : NULL,
						hedged ? sizeof(extra[0]) : 0, rj, sj);
		if (!err) {
			/* r and s are the signature, output. */
			rind_declassify(rj, nb);
			rind_declassify(sj, nb);
			len = ecdsa_encode(ctx, rj, sj, in[j]->sig, in[j]->siglen);
			if (len < 0)
				err = len;
			else
				in[j]->siglen = (unsigned int)len;
		}
		in[j]->err = err;
	}
	memzero_explicit(&st, sizeof(st));
	memzero_explicit(k, sizeof(k));
	memzero_explicit(extra, sizeof(extra));
	memzero_explicit(hash, sizeof(hash));
}

static void ecdsa_sign_batch(struct crypto_sig *tfm, struct sig_request *reqs, unsigned int n)
{
	struct ecdsa_ctx *ctx = crypto_sig_ctx(tfm);
	struct sig_request *q[ECC_SIGN_BATCH_MAX];
	unsigned int i, valid = 0, chunks, per, m;

	for (i = 0; i < n; i++)
		valid += !reqs[i].err;
	if (!ctx->hash || !ctx->has_priv || !ctx->curve->sign_batch || valid < ECDSA_BATCH_MIN) {
		for (i = 0; i < n; i++)
			if (!reqs[i].err)
				ecdsa_sign_req(tfm, &reqs[i]);
		return;
	}
	/* chunks of equal size: 33 requests are 17 + 16, not 32 + 1 */
	chunks = (valid + ECC_SIGN_BATCH_MAX - 1) / ECC_SIGN_BATCH_MAX;
	per = (valid + chunks - 1) / chunks;
	for (i = 0, m = 0; i < n; i++) {
		if (reqs[i].err)
			continue;
		q[m++] = &reqs[i];
		if (m == per) {
			ecdsa_batch_chunk(ctx, q, m);
			m = 0;
		}
	}
	if (m)
		ecdsa_batch_chunk(ctx, q, m);
}

/*
 * struct sig_alg.batch_width of the instances: the curve driver's lanes
 * (copied into the instance's batch_lanes / batch_min) once the tfm can
 * sign; without a private key ecdsa_sign_batch runs nothing in lanes.
 */
static unsigned int ecdsa_batch_width(struct crypto_sig *tfm, unsigned int n)
{
	const struct sig_alg *alg = crypto_sig_alg(tfm);
	const struct ecdsa_ctx *ctx = crypto_sig_ctx(tfm);

	if (!ctx->hash || !ctx->has_priv || !ctx->curve->sign_batch || alg->batch_lanes < 2 ||
	    n < alg->batch_min || n < ECDSA_BATCH_MIN)
		return 1;
	return alg->batch_lanes;
}

/* r and s (curve-sized) from a signature: 0 or -EBADMSG. */
static int ecdsa_parse_sig(const struct ecdsa_ctx *ctx, const u8 *sig, unsigned int siglen,
			   u8 *r, u8 *s)
{
	unsigned int n = ctx->curve->nbytes;
	struct rind_der d, seq;
	const u8 *v[2];
	size_t l[2];
	int i;

	if (ctx->p1363) {
		if (siglen != 2 * n)
			return -EBADMSG;
		memcpy(r, sig, n);
		memcpy(s, sig + n, n);
		return 0;
	}
	rind_der_init(&d, sig, siglen);
	if (rind_der_enter(&d, DER_SEQUENCE, &seq) || rind_der_finish(&d) ||
	    rind_der_get_uint(&seq, &v[0], &l[0]) || rind_der_get_uint(&seq, &v[1], &l[1]) ||
	    rind_der_finish(&seq))
		return -EBADMSG;
	for (i = 0; i < 2; i++) {
		u8 *out = i ? s : r;

		if (l[i] > n)
			return -EBADMSG;
		memset(out, 0, n - l[i]);
		memcpy(out + n - l[i], v[i], l[i]);
	}
	return 0;
}

static int ecdsa_verify(struct crypto_sig *tfm, const void *sig, unsigned int siglen,
			const void *msg, unsigned int msglen)
{
	struct ecdsa_ctx *ctx = crypto_sig_ctx(tfm);
	const struct ecc_curve *c = ctx->curve;
	u8 hash[ECDSA_MAX_HASH], e[ECC_MAX_BYTES], r[ECC_MAX_BYTES], s[ECC_MAX_BYTES];
	int err;

	if (!ctx->hash)
		return -EOPNOTSUPP;
	if (!ctx->has_pub)
		return -ENOKEY;
	if (!sig || ecdsa_parse_sig(ctx, sig, siglen, r, s))
		return -EBADMSG;
	err = ecdsa_digest(ctx->hash, msg, msglen, hash);
	if (err)
		return err;
	ecdsa_bits2int(c, e, hash, crypto_shash_digestsize(ctx->hash));
	return c->verify(ctx->xy, e, r, s);
}

static int ecdsa_export_pubkey(struct crypto_sig *tfm, enum rind_key_format fmt,
			       u8 *out, unsigned int outlen)
{
	struct ecdsa_ctx *ctx = crypto_sig_ctx(tfm);

	if (!ctx->has_pub)
		return -ENOKEY;
	return ecc_export_pub(ctx->curve, fmt, ctx->xy, out, outlen);
}

static int ecdsa_export_privkey(struct crypto_sig *tfm, enum rind_key_format fmt,
				u8 *out, unsigned int outlen)
{
	struct ecdsa_ctx *ctx = crypto_sig_ctx(tfm);

	if (!ctx->has_priv)
		return -ENOKEY;
	return ecc_export_priv(ctx->curve, fmt, ctx->d, ctx->xy, out, outlen);
}

/* Only the x962/p1363 instances sign; the curve carriers have nothing to set. */
static int ecdsa_set_deterministic(struct crypto_sig *tfm, bool on)
{
	struct ecdsa_ctx *ctx = crypto_sig_ctx(tfm);

	if (!ctx->hash)
		return -EOPNOTSUPP;
	ctx->deterministic = on;
	return 0;
}

static unsigned int ecdsa_key_size(struct crypto_sig *tfm)
{
	struct ecdsa_ctx *ctx = crypto_sig_ctx(tfm);

	return ctx->has_pub ? ctx->curve->bits : 0;
}

static unsigned int ecdsa_max_size(struct crypto_sig *tfm)
{
	struct ecdsa_ctx *ctx = crypto_sig_ctx(tfm);
	unsigned int n = ctx->curve->nbytes;

	return ctx->p1363 ? 2 * n : ecdsa_der_max(n);
}

static int ecdsa_curve_init(struct crypto_sig *tfm)
{
	struct ecdsa_ctx *ctx = crypto_sig_ctx(tfm);

	ctx->curve = container_of(crypto_sig_alg(tfm), struct ecdsa_driver, alg)->curve;
	return 0;
}

/* ---- the x962 and p1363 templates ---------------------------------------- */

static struct ecdsa_instance *ecdsa_inst(struct crypto_sig *tfm)
{
	return container_of(crypto_sig_alg(tfm), struct ecdsa_instance, alg);
}

static int ecdsa_inst_init(struct crypto_sig *tfm)
{
	struct ecdsa_ctx *ctx = crypto_sig_ctx(tfm);
	struct ecdsa_instance *inst = ecdsa_inst(tfm);
	struct crypto_shash *h;
	int err;

	h = crypto_spawn_shash(&inst->hash_spawn);
	if (IS_ERR(h))
		return (int)PTR_ERR(h);
	ctx->hash = h;
	ctx->curve = inst->curve;
	ctx->p1363 = inst->p1363;
	err = ecdsa_hmac_k0_init(&ctx->k0, h);
	if (err)
		crypto_free_shash(h);
	return err;
}

static void ecdsa_inst_exit(struct crypto_sig *tfm)
{
	struct ecdsa_ctx *ctx = crypto_sig_ctx(tfm);

	crypto_free_shash(ctx->hash);
}

static void ecdsa_inst_free(struct ecdsa_instance *inst)
{
	if (inst->curve_spawn.alg)
		crypto_drop_spawn(&inst->curve_spawn);
	if (inst->hash_spawn.alg)
		crypto_drop_spawn(&inst->hash_spawn);
	memzero_explicit(inst, sizeof(*inst));
	free(inst);
}

static void ecdsa_inst_destroy(struct crypto_alg *alg)
{
	ecdsa_inst_free(container_of(__crypto_sig_alg(alg), struct ecdsa_instance, alg));
}

static int ecdsa_create(struct crypto_template *tmpl, const char *const *args, int nargs)
{
	struct ecdsa_instance *inst;
	struct crypto_alg *algs[2];
	struct shash_alg *salg;
	struct sig_alg *calg;
	int err;

	if (nargs != 2)
		return -EINVAL;
	inst = calloc(1, sizeof(*inst));
	if (!inst)
		return -ENOMEM;
	err = crypto_grab_sig(&inst->curve_spawn, &inst->alg.base, args[0], 0, 0);
	if (err)
		goto err_free;
	err = crypto_grab_shash(&inst->hash_spawn, &inst->alg.base, args[1], 0, 0);
	if (err)
		goto err_free;
	algs[0] = inst->curve_spawn.alg;
	algs[1] = inst->hash_spawn.alg;
	calg = __crypto_sig_alg(algs[0]);
	salg = __crypto_shash_alg(algs[1]);

	/* The curve must be an ECDSA curve carrier; SHA-1 and keyed hashes are refused. */
	err = -EINVAL;
	if (calg->set_priv_key != ecdsa_set_priv_key || calg->init != ecdsa_curve_init ||
	    algs[1]->cra_type != &crypto_shash_type ||
	    (salg->setkey && !(algs[1]->cra_flags & CRYPTO_ALG_OPTIONAL_KEY)) ||
	    !strcmp(algs[1]->cra_name, "sha1") || !salg->digestsize ||
	    salg->digestsize > ECDSA_MAX_HASH || !algs[1]->cra_blocksize ||
	    algs[1]->cra_blocksize > ECDSA_MAX_BLOCK ||
	    salg->digestsize > algs[1]->cra_blocksize)
		goto err_free;
	err = crypto_inst_setname(&inst->alg.base, tmpl->name, algs, 2);
	if (err)
		goto err_free;

	inst->curve = container_of(calg, struct ecdsa_driver, alg)->curve;
	inst->p1363 = !strcmp(tmpl->name, "p1363");
	inst->alg.sign = ecdsa_sign;
	inst->alg.sign_batch = ecdsa_sign_batch;
	/*
	 * the curve driver's SIMD lanes, for crypto_sig_batch_lanes(), per
	 * tfm: ecdsa_batch_width, or the curve driver's own op if it has one
	 * (the carrier's ops run on the same struct ecdsa_ctx as the
	 * instance's -- checked above: its set_priv_key and init are
	 * ecdsa.c's -- so its op reads this tfm)
	 */
	inst->alg.batch_lanes = calg->batch_lanes;
	inst->alg.batch_min = calg->batch_min;
	inst->alg.batch_width = calg->batch_width ? calg->batch_width : ecdsa_batch_width;
	inst->alg.verify = ecdsa_verify;
	inst->alg.set_pub_key = ecdsa_set_pub_key;
	inst->alg.set_priv_key = ecdsa_set_priv_key;
	inst->alg.generate_key = ecdsa_generate_key;
	inst->alg.export_pubkey = ecdsa_export_pubkey;
	inst->alg.export_privkey = ecdsa_export_privkey;
	inst->alg.set_deterministic = ecdsa_set_deterministic;
	inst->alg.key_size = ecdsa_key_size;
	inst->alg.max_size = ecdsa_max_size;
	inst->alg.init = ecdsa_inst_init;
	inst->alg.exit = ecdsa_inst_exit;
	inst->alg.base.cra_priority = algs[0]->cra_priority + algs[1]->cra_priority;
	inst->alg.base.cra_module = algs[0]->cra_module;
	inst->alg.base.cra_ctxsize = sizeof(struct ecdsa_ctx);
	inst->alg.base.cra_destroy = ecdsa_inst_destroy;
	inst->alg.base.cra_type = &crypto_sig_type;
	inst->alg.base.cra_flags = CRYPTO_ALG_TYPE_SIG;

	err = crypto_register_instance(tmpl, &inst->alg.base);
	if (err)
		goto err_free;
	return 0;

err_free:
	ecdsa_inst_free(inst);
	return err;
}

static struct crypto_template ecdsa_tmpls[] = {
	{ .name = "x962", .create = ecdsa_create },
	{ .name = "p1363", .create = ecdsa_create },
};

/* ---- self-tests ---------------------------------------------------------- */

/*
 * The key of RFC 6979 appendix A.2.5-A.2.7 for each curve, its public key,
 * and the deterministic (RFC 6979) signatures r||s of "sample" with
 * SHA-224, SHA-256, SHA-384 and SHA-512 (checked against an independent
 * implementation).
 */
struct ecdsa_kat {
	const char *d;
	const char *xy;
	const char *rs[4];
};

static const struct ecdsa_kat ecdsa_p256_kat = {
	.d = "\xc9\xaf\xa9\xd8\x45\xba\x75\x16\x6b\x5c\x21\x57\x67\xb1\xd6\x93"
		  "\x4e\x50\xc3\xdb\x36\xe8\x9b\x12\x7b\x8a\x62\x2b\x12\x0f\x67\x21",
	.xy = "\x60\xfe\xd4\xba\x25\x5a\x9d\x31\xc9\x61\xeb\x74\xc6\x35\x6d\x68"
		  "\xc0\x49\xb8\x92\x3b\x61\xfa\x6c\xe6\x69\x62\x2e\x60\xf2\x9f\xb6"
		  "\x79\x03\xfe\x10\x08\xb8\xbc\x99\xa4\x1a\xe9\xe9\x56\x28\xbc\x64"
		  "\xf2\xf1\xb2\x0c\x2d\x7e\x9f\x51\x77\xa3\xc2\x94\xd4\x46\x22\x99",
	.rs = {
		/* sha224 */
		  "\x53\xb2\xff\xf5\xd1\x75\x2b\x2c\x68\x9d\xf2\x57\xc0\x4c\x40\xa5"
		  "\x87\xfa\xba\xbb\x3f\x6f\xc2\x70\x2f\x13\x43\xaf\x7c\xa9\xaa\x3f"
		  "\xb9\xaf\xb6\x4f\xdc\x03\xdc\x1a\x13\x1c\x7d\x23\x86\xd1\x1e\x34"
		  "\x9f\x07\x0a\xa4\x32\xa4\xac\xc9\x18\xbe\xa9\x88\xbf\x75\xc7\x4c",
		/* sha256 */
		  "\xef\xd4\x8b\x2a\xac\xb6\xa8\xfd\x11\x40\xdd\x9c\xd4\x5e\x81\xd6"
		  "\x9d\x2c\x87\x7b\x56\xaa\xf9\x91\xc3\x4d\x0e\xa8\x4e\xaf\x37\x16"
		  "\xf7\xcb\x1c\x94\x2d\x65\x7c\x41\xd4\x36\xc7\xa1\xb6\xe2\x9f\x65"
		  "\xf3\xe9\x00\xdb\xb9\xaf\xf4\x06\x4d\xc4\xab\x2f\x84\x3a\xcd\xa8",
		/* sha384 */
		  "\x0e\xaf\xea\x03\x9b\x20\xe9\xb4\x23\x09\xfb\x1d\x89\xe2\x13\x05"
		  "\x7c\xbf\x97\x3d\xc0\xcf\xc8\xf1\x29\xed\xdd\xc8\x00\xef\x77\x19"
		  "\x48\x61\xf0\x49\x1e\x69\x98\xb9\x45\x51\x93\xe3\x4e\x7b\x0d\x28"
		  "\x4d\xdd\x71\x49\xa7\x4b\x95\xb9\x26\x1f\x13\xab\xde\x94\x09\x54",
		/* sha512 */
		  "\x84\x96\xa6\x0b\x5e\x9b\x47\xc8\x25\x48\x88\x27\xe0\x49\x5b\x0e"
		  "\x3f\xa1\x09\xec\x45\x68\xfd\x3f\x8d\x10\x97\x67\x8e\xb9\x7f\x00"
		  "\x23\x62\xab\x1a\xdb\xe2\xb8\xad\xf9\xcb\x9e\xda\xb7\x40\xea\x60"
		  "\x49\xc0\x28\x11\x4f\x24\x60\xf9\x65\x54\xf6\x1f\xae\x33\x02\xfe",
	},
};

static const struct ecdsa_kat ecdsa_p384_kat = {
	.d = "\x6b\x9d\x3d\xad\x2e\x1b\x8c\x1c\x05\xb1\x98\x75\xb6\x65\x9f\x4d"
		  "\xe2\x3c\x3b\x66\x7b\xf2\x97\xba\x9a\xa4\x77\x40\x78\x71\x37\xd8"
		  "\x96\xd5\x72\x4e\x4c\x70\xa8\x25\xf8\x72\xc9\xea\x60\xd2\xed\xf5",
	.xy = "\xec\x3a\x4e\x41\x5b\x4e\x19\xa4\x56\x86\x18\x02\x9f\x42\x7f\xa5"
		  "\xda\x9a\x8b\xc4\xae\x92\xe0\x2e\x06\xaa\xe5\x28\x6b\x30\x0c\x64"
		  "\xde\xf8\xf0\xea\x90\x55\x86\x60\x64\xa2\x54\x51\x54\x80\xbc\x13"
		  "\x80\x15\xd9\xb7\x2d\x7d\x57\x24\x4e\xa8\xef\x9a\xc0\xc6\x21\x89"
		  "\x67\x08\xa5\x93\x67\xf9\xdf\xb9\xf5\x4c\xa8\x4b\x3f\x1c\x9d\xb1"
		  "\x28\x8b\x23\x1c\x3a\xe0\xd4\xfe\x73\x44\xfd\x25\x33\x26\x47\x20",
	.rs = {
		/* sha224 */
		  "\x42\x35\x6e\x76\xb5\x5a\x6d\x9b\x46\x31\xc8\x65\x44\x5d\xbe\x54"
		  "\xe0\x56\xd3\xb3\x43\x17\x66\xd0\x50\x92\x44\x79\x3c\x3f\x93\x66"
		  "\x45\x0f\x76\xee\x3d\xe4\x3f\x5a\x12\x53\x33\xa6\xbe\x06\x01\x22"
		  "\x9d\xa0\xc8\x17\x87\x06\x40\x21\xe7\x8d\xf6\x58\xf2\xfb\xb0\xb0"
		  "\x42\xbf\x30\x46\x65\xdb\x72\x1f\x07\x7a\x42\x98\xb0\x95\xe4\x83"
		  "\x4c\x08\x2c\x03\xd8\x30\x28\xef\xbf\x93\xa3\xc2\x39\x40\xca\x8d",
		/* sha256 */
		  "\x21\xb1\x3d\x1e\x01\x3c\x7f\xa1\x39\x2d\x03\xc5\xf9\x9a\xf8\xb3"
		  "\x0c\x57\x0c\x6f\x98\xd4\xea\x8e\x35\x4b\x63\xa2\x1d\x3d\xaa\x33"
		  "\xbd\xe1\xe8\x88\xe6\x33\x55\xd9\x2f\xa2\xb3\xc3\x6d\x8f\xb2\xcd"
		  "\xf3\xaa\x44\x3f\xb1\x07\x74\x5b\xf4\xbd\x77\xcb\x38\x91\x67\x46"
		  "\x32\x06\x8a\x10\xca\x67\xe3\xd4\x5d\xb2\x26\x6f\xa7\xd1\xfe\xeb"
		  "\xef\xdc\x63\xec\xcd\x1a\xc4\x2e\xc0\xcb\x86\x68\xa4\xfa\x0a\xb0",
		/* sha384 */
		  "\x94\xed\xbb\x92\xa5\xec\xb8\xaa\xd4\x73\x6e\x56\xc6\x91\x91\x6b"
		  "\x3f\x88\x14\x06\x66\xce\x9f\xa7\x3d\x64\xc4\xea\x95\xad\x13\x3c"
		  "\x81\xa6\x48\x15\x2e\x44\xac\xf9\x6e\x36\xdd\x1e\x80\xfa\xbe\x46"
		  "\x99\xef\x4a\xeb\x15\xf1\x78\xce\xa1\xfe\x40\xdb\x26\x03\x13\x8f"
		  "\x13\x0e\x74\x0a\x19\x62\x45\x26\x20\x3b\x63\x51\xd0\xa3\xa9\x4f"
		  "\xa3\x29\xc1\x45\x78\x6e\x67\x9e\x7b\x82\xc7\x1a\x38\x62\x8a\xc8",
		/* sha512 */
		  "\xed\x09\x59\xd5\x88\x0a\xb2\xd8\x69\xae\x7f\x6c\x29\x15\xc6\xd6"
		  "\x0f\x96\x50\x7f\x9c\xb3\xe0\x47\xc0\x04\x68\x61\xda\x4a\x79\x9c"
		  "\xfe\x30\xf3\x5c\xc9\x00\x05\x6d\x7c\x99\xcd\x78\x82\x43\x37\x09"
		  "\x51\x2c\x8c\xce\xee\x38\x90\xa8\x40\x58\xce\x1e\x22\xdb\xc2\x19"
		  "\x8f\x42\x32\x3c\xe8\xac\xa9\x13\x53\x29\xf0\x3c\x06\x8e\x51\x12"
		  "\xdc\x7c\xc3\xef\x34\x46\xde\xfc\xeb\x01\xa4\x5c\x26\x67\xfd\xd5",
	},
};

static const struct ecdsa_kat ecdsa_p521_kat = {
	.d = "\x00\xfa\xd0\x6d\xaa\x62\xba\x3b\x25\xd2\xfb\x40\x13\x3d\xa7\x57"
		  "\x20\x5d\xe6\x7f\x5b\xb0\x01\x8f\xee\x8c\x86\xe1\xb6\x8c\x7e\x75"
		  "\xca\xa8\x96\xeb\x32\xf1\xf4\x7c\x70\x85\x58\x36\xa6\xd1\x6f\xcc"
		  "\x14\x66\xf6\xd8\xfb\xec\x67\xdb\x89\xec\x0c\x08\xb0\xe9\x96\xb8"
		  "\x35\x38",
	.xy = "\x01\x89\x45\x50\xd0\x78\x59\x32\xe0\x0e\xaa\x23\xb6\x94\xf2\x13"
		  "\xf8\xc3\x12\x1f\x86\xdc\x97\xa0\x4e\x5a\x71\x67\xdb\x4e\x5b\xcd"
		  "\x37\x11\x23\xd4\x6e\x45\xdb\x6b\x5d\x53\x70\xa7\xf2\x0f\xb6\x33"
		  "\x15\x5d\x38\xff\xa1\x6d\x2b\xd7\x61\xdc\xac\x47\x4b\x9a\x2f\x50"
		  "\x23\xa4\x00\x49\x31\x01\xc9\x62\xcd\x4d\x2f\xdd\xf7\x82\x28\x5e"
		  "\x64\x58\x41\x39\xc2\xf9\x1b\x47\xf8\x7f\xf8\x23\x54\xd6\x63\x0f"
		  "\x74\x6a\x28\xa0\xdb\x25\x74\x1b\x5b\x34\xa8\x28\x00\x8b\x22\xac"
		  "\xc2\x3f\x92\x4f\xaa\xfb\xd4\xd3\x3f\x81\xea\x66\x95\x6d\xfe\xaa"
		  "\x2b\xfd\xfc\xf5",
	.rs = {
		/* sha224 */
		  "\x01\x77\x63\x31\xcf\xcd\xf9\x27\xd6\x66\xe0\x32\xe0\x0c\xf7\x76"
		  "\x18\x7b\xc9\xfd\xd8\xe6\x9d\x0d\xab\xb4\x10\x9f\xfe\x1b\x5e\x2a"
		  "\x30\x71\x5f\x4c\xc9\x23\xa4\xa5\xe9\x4d\x25\x03\xe9\xac\xfe\xd9"
		  "\x28\x57\xb7\xf3\x1d\x71\x52\xe0\xf8\xc0\x0c\x15\xff\x3d\x87\xe2"
		  "\xed\x2e\x00\x50\xcb\x52\x65\x41\x7f\xe2\x32\x0b\xbb\x5a\x12\x2b"
		  "\x8e\x1a\x32\xbd\x69\x90\x89\x85\x11\x28\xe3\x60\xe6\x20\xa3\x0c"
		  "\x7e\x17\xba\x41\xa6\x66\xaf\x12\x6c\xe1\x00\xe5\x79\x9b\x15\x3b"
		  "\x60\x52\x8d\x53\x00\xd0\x84\x89\xca\x91\x78\xfb\x61\x0a\x20\x06"
		  "\xc2\x54\xb4\x1f",
		/* sha256 */
		  "\x01\x51\x1b\xb4\xd6\x75\x11\x4f\xe2\x66\xfc\x43\x72\xb8\x76\x82"
		  "\xba\xec\xc0\x1d\x3c\xc6\x2c\xf2\x30\x3c\x92\xb3\x52\x60\x12\x65"
		  "\x9d\x16\x87\x6e\x25\xc7\xc1\xe5\x76\x48\xf2\x3b\x73\x56\x4d\x67"
		  "\xf6\x1c\x6f\x14\xd5\x27\xd5\x49\x72\x81\x04\x21\xe7\xd8\x75\x89"
		  "\xe1\xa7\x00\x4a\x17\x11\x43\xa8\x31\x63\xd6\xdf\x46\x0a\xaf\x61"
		  "\x52\x26\x95\xf2\x07\xa5\x8b\x95\xc0\x64\x4d\x87\xe5\x2a\xa1\xa3"
		  "\x47\x91\x6e\x4f\x7a\x72\x93\x0b\x1b\xc0\x6d\xbe\x22\xce\x3f\x58"
		  "\x26\x4a\xfd\x23\x70\x4c\xbb\x63\xb2\x9b\x93\x1f\x7d\xe6\xc9\xd9"
		  "\x49\xa7\xec\xfc",
		/* sha384 */
		  "\x01\xea\x84\x2a\x0e\x17\xd2\xde\x4f\x92\xc1\x53\x15\xc6\x3d\xdf"
		  "\x72\x68\x5c\x18\x19\x5c\x2b\xb9\x5e\x57\x2b\x9c\x51\x36\xca\x4b"
		  "\x4b\x57\x6a\xd7\x12\xa5\x2b\xe9\x73\x06\x27\xd1\x60\x54\xba\x40"
		  "\xcc\x0b\x8d\x3f\xf0\x35\xb1\x2a\xe7\x51\x68\x39\x7f\x5d\x50\xc6"
		  "\x74\x51\x01\xf2\x1a\x3c\xee\x06\x6e\x19\x61\x02\x5f\xb0\x48\xbd"
		  "\x5f\xe2\xb7\x92\x4d\x0c\xd7\x97\xba\xbe\x0a\x83\xb6\x6f\x1e\x35"
		  "\xee\xaf\x5f\xde\x14\x3f\xa8\x5d\xc3\x94\xa7\xde\xe7\x66\x52\x33"
		  "\x93\x78\x44\x84\xbd\xf3\xe0\x01\x14\xa1\xc8\x57\xcd\xe1\xaa\x20"
		  "\x3d\xb6\x5d\x61",
		/* sha512 */
		  "\x00\xc3\x28\xfa\xfc\xbd\x79\xdd\x77\x85\x03\x70\xc4\x63\x25\xd9"
		  "\x87\xcb\x52\x55\x69\xfb\x63\xc5\xd3\xbc\x53\x95\x0e\x6d\x4c\x5f"
		  "\x17\x4e\x25\xa1\xee\x90\x17\xb5\xd4\x50\x60\x6a\xdd\x15\x2b\x53"
		  "\x49\x31\xd7\xd4\xe8\x45\x5c\xc9\x1f\x9b\x15\xbf\x05\xec\x36\xe3"
		  "\x77\xfa\x00\x61\x7c\xce\x7c\xf5\x06\x48\x06\xc4\x67\xf6\x78\xd3"
		  "\xb4\x08\x0d\x6f\x1c\xc5\x0a\xf2\x6c\xa2\x09\x41\x73\x08\x28\x1b"
		  "\x68\xaf\x28\x26\x23\xea\xa6\x3e\x5b\x5c\x07\x23\xd8\xb8\xc3\x7f"
		  "\xf0\x77\x7b\x1a\x20\xf8\xcc\xb1\xdc\xcc\x43\x99\x7f\x1e\xe0\xe4"
		  "\x4d\xa4\xa6\x7a",
	},
};

static const char *const ecdsa_hashes[] = { "sha224", "sha256", "sha384", "sha512" };

static const struct ecdsa_kat *ecdsa_kat_of(const struct ecc_curve *c)
{
	return c->nbytes == 32 ? &ecdsa_p256_kat : c->nbytes == 48 ? &ecdsa_p384_kat :
	       &ecdsa_p521_kat;
}

static int ecdsa_fail(struct crypto_alg *alg, const char *what)
{
	fprintf(stderr, "rind: %s: self-test: %s\n", alg->cra_driver_name, what);
	return -EBADMSG;
}

/*
 * The curve carrier: the public key of the KAT private key (the
 * instances' self-tests sign and verify when one is first used).
 */
static int ecdsa_curve_selftest(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	const struct ecc_curve *c = container_of(__crypto_sig_alg(alg), struct ecdsa_driver, alg)->curve;
	const struct ecdsa_kat *kat = ecdsa_kat_of(c);
	u8 xy[2 * ECC_MAX_BYTES];

	(void)desc;
	c->mul_base(xy, (const u8 *)kat->d);
	if (memcmp(xy, kat->xy, 2 * c->nbytes))
		return ecdsa_fail(alg, "public key");
	return 0;
}

/*
 * The batch path (the curve's sign_batch), deterministic: "sample" and
 * "test" twice each in one batch give the single path's signatures.
 */
static int ecdsa_batch_selftest(struct crypto_alg *alg, struct crypto_sig *tfm)
{
	static const char *const m[4] = { "sample", "test", "sample", "test" };
	u8 one[2][160], sigs[4][160];
	struct sig_request reqs[4];
	int len[2], i, err;

	err = rind_sig_set_deterministic(tfm, true);
	for (i = 0; i < 2 && !err; i++) {
		len[i] = crypto_sig_sign(tfm, m[i], (unsigned int)strlen(m[i]), one[i], sizeof(one[i]));
		err = len[i] < 0 ? len[i] : 0;
	}
	for (i = 0; i < 4; i++)
		reqs[i] = (struct sig_request){ m[i], (unsigned int)strlen(m[i]), sigs[i],
						sizeof(sigs[i]), 0 };
	if (!err)
		err = crypto_sig_sign_batch(tfm, reqs, 4);
	if (err)
		return err;
	for (i = 0; i < 4; i++)
		if (reqs[i].siglen != (unsigned int)len[i % 2] ||
		    memcmp(sigs[i], one[i % 2], reqs[i].siglen))
			return ecdsa_fail(alg, "batch signature");
	return 0;
}

/*
 * An instance: the deterministic signature of "sample" must be RFC 6979's
 * (for the four SHA-2 hashes), a hedged one must verify, a modified one
 * must not, and a deterministic batch must sign as the single path.
 */
static int ecdsa_inst_selftest(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	struct ecdsa_instance *inst = container_of(__crypto_sig_alg(alg), struct ecdsa_instance, alg);
	const struct ecc_curve *c = inst->curve;
	const struct ecdsa_kat *kat = ecdsa_kat_of(c);
	u8 hash[ECDSA_MAX_HASH], r[ECC_MAX_BYTES], s[ECC_MAX_BYTES], sig[160];
	unsigned int n = c->nbytes, i;
	struct crypto_sig *tfm;
	struct ecdsa_ctx *ctx;
	int err, len;

	(void)desc;
	tfm = crypto_alloc_sig(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	ctx = crypto_sig_ctx(tfm);
	err = crypto_sig_set_privkey(tfm, kat->d, n);
	if (err)
		goto out;
	for (i = 0; i < ARRAY_SIZE(ecdsa_hashes); i++)
		if (!strcmp(inst->hash_spawn.alg->cra_name, ecdsa_hashes[i]))
			break;
	if (i < ARRAY_SIZE(ecdsa_hashes)) {
		err = ecdsa_digest(ctx->hash, "sample", 6, hash);
		if (!err)
			err = ecdsa_sign_digest(c, ctx->hash, &ctx->k0, ctx->d, hash,
						crypto_shash_digestsize(ctx->hash), NULL, 0, r, s);
		if (err)
			goto out;
		if (memcmp(r, kat->rs[i], n) || memcmp(s, kat->rs[i] + n, n)) {
			err = ecdsa_fail(alg, "RFC 6979 signature");
			goto out;
		}
	}
	len = crypto_sig_sign(tfm, "sample", 6, sig, sizeof(sig));
	if (len < 0) {
		err = len;
		goto out;
	}
	if (crypto_sig_verify(tfm, sig, (unsigned int)len, "sample", 6)) {
		err = ecdsa_fail(alg, "verify");
		goto out;
	}
	sig[len - 1] ^= 1;
	if (crypto_sig_verify(tfm, sig, (unsigned int)len, "sample", 6) != -EBADMSG) {
		err = ecdsa_fail(alg, "verify of a bad signature");
		goto out;
	}
	err = ecdsa_batch_selftest(alg, tfm);
out:
	crypto_free_sig(tfm);
	return err;
}

static const char *const ecdsa_curve_names[] = {
	"ecdsa-nist-p256", "ecdsa-nist-p384", "ecdsa-nist-p521",
};

#define ECDSA_NINST	(2 * ARRAY_SIZE(ecdsa_curve_names) * ARRAY_SIZE(ecdsa_hashes))

static char ecdsa_inst_names[ECDSA_NINST][CRYPTO_MAX_ALG_NAME];
static struct alg_test_desc ecdsa_inst_descs[ECDSA_NINST];

static struct alg_test_desc ecdsa_curve_descs[] = {
	{ .alg = "ecdsa-nist-p256", .test = ecdsa_curve_selftest },
	{ .alg = "ecdsa-nist-p384", .test = ecdsa_curve_selftest },
	{ .alg = "ecdsa-nist-p521", .test = ecdsa_curve_selftest },
};

/* ---- registration -------------------------------------------------------- */

/* The generic drivers: names here, the protocol entries from ecdsa_register_curve_driver. */
#define ECDSA_GENERIC(crv, name)						\
	{									\
		.curve = &crv,							\
		.alg.base = { .cra_name = name, .cra_driver_name = name "-generic",	\
			      .cra_priority = 100, .cra_module = "generic" },	\
	}

static struct ecdsa_driver ecdsa_generic_drivers[] = {
	ECDSA_GENERIC(ecc_p256_generic, "ecdsa-nist-p256"),
	ECDSA_GENERIC(ecc_p384_generic, "ecdsa-nist-p384"),
	ECDSA_GENERIC(ecc_p521_generic, "ecdsa-nist-p521"),
};

/* A driver over an implementation of a curve, with this file's protocol (<crypto/ecc.h>). */
int ecdsa_register_curve_driver(struct ecdsa_driver *drv)
{
	struct sig_alg *a = &drv->alg;

	a->sign = ecdsa_sign;
	a->verify = ecdsa_verify;
	a->set_pub_key = ecdsa_set_pub_key;
	a->set_priv_key = ecdsa_set_priv_key;
	a->generate_key = ecdsa_generate_key;
	a->export_pubkey = ecdsa_export_pubkey;
	a->export_privkey = ecdsa_export_privkey;
	a->key_size = ecdsa_key_size;
	a->max_size = ecdsa_max_size;
	a->init = ecdsa_curve_init;
	a->base.cra_ctxsize = sizeof(struct ecdsa_ctx);
	return crypto_register_sig(a);
}

static int ecdsa_mod_init(void)
{
	static const char *const tmpls[] = { "x962", "p1363" };
	unsigned int t, i, j, k = 0;
	int err;

	for (t = 0; t < ARRAY_SIZE(tmpls); t++) {
		for (i = 0; i < ARRAY_SIZE(ecdsa_curve_names); i++) {
			for (j = 0; j < ARRAY_SIZE(ecdsa_hashes); j++, k++) {
				snprintf(ecdsa_inst_names[k], CRYPTO_MAX_ALG_NAME, "%s(%s,%s)",
					 tmpls[t], ecdsa_curve_names[i], ecdsa_hashes[j]);
				ecdsa_inst_descs[k].alg = ecdsa_inst_names[k];
				ecdsa_inst_descs[k].test = ecdsa_inst_selftest;
			}
		}
	}
	crypto_register_tests(ecdsa_curve_descs, ARRAY_SIZE(ecdsa_curve_descs));
	crypto_register_tests(ecdsa_inst_descs, (int)ECDSA_NINST);
	for (i = 0; i < ARRAY_SIZE(ecdsa_generic_drivers); i++) {
		err = ecdsa_register_curve_driver(&ecdsa_generic_drivers[i]);
		if (err)
			return err;
	}
	for (t = 0; t < ARRAY_SIZE(ecdsa_tmpls); t++) {
		err = crypto_register_template(&ecdsa_tmpls[t]);
		if (err)
			return err;
	}
	return 0;
}

module_init(ecdsa_mod_init);
