// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the kem type -- ML-KEM-512/768/1024 and the
 * X25519MLKEM768 hybrid, every registered implementation -- under keys
 * taken from the input, checked against computations made here with
 * OpenSSL's SHA3/SHAKE and libsodium's X25519 (no independent ML-KEM is
 * at hand: OpenSSL 3.0 has none).
 *
 * Input layout:
 *   [0]      algorithm (% 4: mlkem512, mlkem768, mlkem1024,
 *            x25519mlkem768); [0] >> 2 picks its implementation
 *   [1]      bits 0-1: the key
 *              0 the seed (seedsize bytes) from the input
 *              1 the same, and its expanded private key exported and
 *                read into a second tfm, which must behave identically
 *              2 arbitrary private key bytes ([2..3] bytes)
 *              3 arbitrary public key bytes ([2..3] bytes)
 *            bits 2-3: the ciphertext
 *              0 crypto_kem_encapsulate_m with m (m_size bytes) from the
 *                input, then byte [4..5] % ctsize of it xored with [6]
 *              1 arbitrary, of the right length
 *              2 arbitrary, of length [4..5] (the same as 1 if that is
 *                the right length)
 *              3 crypto_kem_encapsulate (random m): the round trip only
 *            bit 4: also try buffers one too small / [7] bytes short
 *   [2..3]   key length (u16 LE) for key modes 2 and 3
 *   [4..5]   mutation offset, or ciphertext length (u16 LE)
 *   [6]      mutation xor mask
 *   [7]      shortfall for bit 4
 *   then the key bytes, then m or the ciphertext.  Missing bytes read
 *   as zero.
 *
 * What must hold, with H = SHA3-256, G = SHA3-512, J = SHAKE256 (32
 * bytes), ek the ML-KEM encapsulation key and z the implicit-rejection
 * seed (the second half of the seed, or the last 32 bytes of the
 * expanded key):
 *   - set_privkey: a seed is always accepted; an expanded key is
 *     accepted iff its embedded H(ek) matches and ek passes the FIPS 203
 *     modulus check (checked here), else -EKEYREJECTED; any other
 *     length -EINVAL.  set_pubkey: the right length and the modulus
 *     check, else -EINVAL / -EKEYREJECTED.  A refused key leaves the
 *     tfm's previous key in place (the exports do not change).
 *   - an accepted key exports back: the public key as given (hybrid:
 *     ek || X25519 public of the secret, by libsodium), the expanded
 *     key as given with the secret vector's coefficients reduced mod q,
 *     and embedding ek, H(ek) and z; the seed only when the key came
 *     from one; no encodings other than RIND_KEY_RAW (-EINVAL).
 *   - encapsulation with m: the ML-KEM secret is G(m || H(ek))[0..32]
 *     (FIPS 203 Algorithm 17); the hybrid's X25519 share is the base
 *     point times the ephemeral secret and its secret the X25519 of that
 *     secret and the peer's public key, both by libsodium, and an
 *     all-zero X25519 result is -EINVAL with nothing written out.
 *   - decapsulation of the ciphertext just made gives the same secret
 *     (for an arbitrary expanded key, that or J(z || c): the key may
 *     not be a key pair); of a ciphertext with a byte changed in its
 *     ML-KEM part, J(z || c') -- implicit rejection; of an arbitrary
 *     ciphertext, J(z || c), unless it is valid (a test vector's): the
 *     secret is then the same under the key with z changed (which
 *     otherwise must give J(z' || c)).  The hybrid's X25519 part is
 *     libsodium's X25519 of the secret and the share, -EINVAL (and a
 *     zeroed output) when that is all zero.
 *   - a ciphertext of the wrong length, an m of the wrong length or
 *     output buffers too small are -EINVAL and write nothing; without a
 *     private key decapsulation is -ENOKEY.
 *   - the seed-loaded and the expanded-key tfm agree on everything.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <sodium.h>
#include <rind/crypto.h>
#include <rind/kem.h>

#define MAXIMPL		16
#define Q		3329
#define KMAX		4
#define EK_MAX		(384 * KMAX + 32 + 32)	/* + the hybrid's X25519 key */
#define DK_MAX		(768 * KMAX + 96 + 32)
#define CT_MAX		(1568 + 32)
#define SS_MAX		64
#define SEED_MAX	96
#define M_MAX		64

#define FAIL(...) do {							\
	fprintf(stderr, "FAIL fuzz_kem: [%s]: ", cur);			\
	fprintf(stderr, __VA_ARGS__);					\
	fputc('\n', stderr);						\
	abort();							\
} while (0)

static const char *cur = "";

static const char *const alg_names[4] = { "mlkem512", "mlkem768", "mlkem1024", "x25519mlkem768" };
static const unsigned int alg_k[4] = { 2, 3, 4, 3 };

struct impl {
	char driver[CRYPTO_MAX_ALG_NAME];
	struct crypto_kem *tfm[3];	/* [2]: the same key with another z */
};

static struct {
	int n;
	struct impl v[MAXIMPL];
	u8 base_seed[SEED_MAX];		/* a fixed key every tfm holds between inputs */
	u8 base_ek[EK_MAX];
	u8 base_dk[DK_MAX];
} algs[4];

/* ---- independent computations ------------------------------------------ */

static void digest(const EVP_MD *md, u8 *out, unsigned int outlen, const u8 *a, size_t alen,
		   const u8 *b, size_t blen)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	int ok;

	ok = c && EVP_DigestInit_ex(c, md, NULL) && EVP_DigestUpdate(c, a, alen) &&
	     (!blen || EVP_DigestUpdate(c, b, blen));
	if (ok && EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF)
		ok = EVP_DigestFinalXOF(c, out, outlen);
	else if (ok)
		ok = EVP_DigestFinal_ex(c, out, NULL);
	if (!ok)
		FAIL("OpenSSL digest failed");
	EVP_MD_CTX_free(c);
}

static void sha3_256(u8 out[32], const u8 *in, size_t len)
{
	digest(EVP_sha3_256(), out, 32, in, len, NULL, 0);
}

/* K = G(m || H(ek))[0..32]. */
static void expect_k(u8 out[32], const u8 m[32], const u8 *ek, size_t eklen)
{
	u8 h[32], g[64];

	sha3_256(h, ek, eklen);
	digest(EVP_sha3_512(), g, 64, m, 32, h, 32);
	memcpy(out, g, 32);
}

/* K-bar = J(z || c). */
static void expect_j(u8 out[32], const u8 z[32], const u8 *c, size_t clen)
{
	digest(EVP_shake256(), out, 32, z, 32, c, clen);
}

/* ByteDecode_12 of every coefficient of ek's t-hat is below q. */
static int modulus_ok(const u8 *ek, unsigned int k)
{
	unsigned int i;

	for (i = 0; i < 128 * k; i++) {
		unsigned int t0 = ek[3 * i] | (ek[3 * i + 1] & 0x0f) << 8;
		unsigned int t1 = ek[3 * i + 1] >> 4 | ek[3 * i + 2] << 4;

		if (t0 >= Q || t1 >= Q)
			return 0;
	}
	return 1;
}

/* The secret vector s of a dk, each coefficient reduced mod q, re-encoded. */
static void reduce_s(u8 *s, unsigned int k)
{
	unsigned int i;

	for (i = 0; i < 128 * k; i++) {
		unsigned int t0 = s[3 * i] | (s[3 * i + 1] & 0x0f) << 8;
		unsigned int t1 = s[3 * i + 1] >> 4 | s[3 * i + 2] << 4;

		t0 %= Q;
		t1 %= Q;
		s[3 * i] = (u8)t0;
		s[3 * i + 1] = (u8)(t0 >> 8 | t1 << 4);
		s[3 * i + 2] = (u8)(t1 >> 4);
	}
}

/* Compare without giving libFuzzer's comparison hooks the operands. */
static int differ(const u8 *a, const u8 *b, size_t n)
{
	volatile u8 d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= a[i] ^ b[i];
	return d != 0;
}

static int all_zero(const u8 *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i])
			return 0;
	return 1;
}

static void hexdump(const char *what, const u8 *p, size_t n)
{
	size_t i;

	fprintf(stderr, "  %s:", what);
	for (i = 0; i < n && i < 64; i++)
		fprintf(stderr, "%02x", p[i]);
	fprintf(stderr, "%s\n", n > 64 ? "..." : "");
}

/* ---- set-up --------------------------------------------------------------- */

static int collect(const struct rind_alg_info *info, void *p)
{
	int a, i;

	(void)p;
	if (strcmp(info->type, "kem") || info->selftest < 0)
		return 0;
	for (a = 0; a < 4; a++) {
		if (strcmp(info->name, alg_names[a]))
			continue;
		for (i = 0; i < algs[a].n; i++)
			if (!strcmp(algs[a].v[i].driver, info->driver))
				return 0;
		if (algs[a].n < MAXIMPL)
			snprintf(algs[a].v[algs[a].n++].driver, CRYPTO_MAX_ALG_NAME, "%s",
				 info->driver);
	}
	return 0;
}

static void load_base(struct crypto_kem *tfm, int a)
{
	if (crypto_kem_set_privkey(tfm, algs[a].base_seed, crypto_kem_seedsize(tfm)))
		FAIL("cannot load the base key");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int a, i, j;

	(void)argc;
	(void)argv;
	if (sodium_init() < 0)
		abort();
	for (a = 0; a < 4; a++)
		(void)crypto_has_kem(alg_names[a], 0, 0);
	rind_alg_foreach(collect, NULL);
	fprintf(stderr, "fuzz_kem:");
	for (a = 0; a < 4; a++) {
		if (!algs[a].n) {
			fprintf(stderr, "\nfuzz_kem: no implementation of %s\n", alg_names[a]);
			abort();
		}
		for (i = 0; i < SEED_MAX; i++)
			algs[a].base_seed[i] = (u8)(0xa5 ^ (i * 7) ^ a);
		for (i = 0; i < algs[a].n; i++) {
			struct impl *im = &algs[a].v[i];

			fprintf(stderr, " %s", im->driver);
			cur = im->driver;
			for (j = 0; j < 3; j++) {
				im->tfm[j] = crypto_alloc_kem(im->driver, 0, 0);
				if (IS_ERR(im->tfm[j]))
					FAIL("cannot allocate");
				load_base(im->tfm[j], a);
			}
			if (!i &&
			    (crypto_kem_export_pubkey(im->tfm[0], RIND_KEY_RAW, algs[a].base_ek, EK_MAX) <= 0 ||
			     crypto_kem_export_privkey(im->tfm[0], RIND_KEY_RAW, algs[a].base_dk, DK_MAX) <= 0))
				FAIL("cannot export the base key");
		}
	}
	fprintf(stderr, "\n");
	return 0;
}

/* ---- the checks ----------------------------------------------------------- */

struct sizes {
	unsigned int ek, dk, seed, ct, ss, m;
	unsigned int k, mlkem_ek, mlkem_dk, mlkem_ct;
	int hybrid;
};

/* What the key in a tfm is, as this file understands it. */
struct keyinfo {
	int priv;		/* a private key is set */
	int pair_known;		/* ek belongs to the secret key (derived, not just accepted) */
	u8 ek[EK_MAX];		/* the public key as exported (hybrid: || X25519 public) */
	u8 z[32];
	u8 xsk[32];		/* hybrid */
};

static u8 input_byte(const u8 *p, size_t len, size_t i)
{
	return i < len ? p[i] : 0;
}

/* @n bytes from the input at *@off (zeros past its end) into @out. */
static void take(u8 *out, size_t n, const u8 *in, size_t len, size_t *off)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = input_byte(in, len, *off + i);
	*off += n;
}

/* The exports of a tfm whose key was refused must be the base key's. */
static void check_base_kept(struct crypto_kem *tfm, const struct sizes *s, int a, int had_priv)
{
	u8 buf[DK_MAX];
	int n;

	n = crypto_kem_export_pubkey(tfm, RIND_KEY_RAW, buf, sizeof(buf));
	if (n != (int)s->ek || differ(buf, algs[a].base_ek, s->ek))
		FAIL("a refused key changed the public key (export %d)", n);
	n = crypto_kem_export_privkey(tfm, RIND_KEY_RAW, buf, sizeof(buf));
	if (had_priv && (n != (int)s->dk || differ(buf, algs[a].base_dk, s->dk)))
		FAIL("a refused key changed the private key (export %d)", n);
}

/* The exports of an accepted private key. */
static void check_priv_exports(struct crypto_kem *tfm, const struct sizes *s, struct keyinfo *ki,
			       const u8 *seed, const u8 *dk_in)
{
	u8 buf[DK_MAX], h[32], want[DK_MAX];
	int n, f;

	n = crypto_kem_export_pubkey(tfm, RIND_KEY_RAW, ki->ek, sizeof(ki->ek));
	if (n != (int)s->ek)
		FAIL("export_pubkey = %d, want %u", n, s->ek);
	n = crypto_kem_export_privkey(tfm, RIND_KEY_RAW, buf, sizeof(buf));
	if (n != (int)s->dk)
		FAIL("export_privkey = %d, want %u", n, s->dk);
	/* dk = s || ek || H(ek) || z (|| X25519 secret) */
	if (differ(buf + 384 * s->k, ki->ek, s->mlkem_ek))
		FAIL("the expanded key does not embed the public key");
	sha3_256(h, ki->ek, s->mlkem_ek);
	if (differ(buf + 384 * s->k + s->mlkem_ek, h, 32))
		FAIL("the expanded key's H(ek) is not SHA3-256(ek)");
	if (differ(buf + s->mlkem_dk - 32, ki->z, 32))
		FAIL("the expanded key's z is not the key's z");
	if (s->hybrid) {
		u8 xpk[32];

		if (differ(buf + s->mlkem_dk, ki->xsk, 32))
			FAIL("the expanded key's X25519 secret differs");
		if (crypto_scalarmult_curve25519_base(xpk, ki->xsk))
			FAIL("libsodium: X25519 base failed");
		if (differ(ki->ek + s->mlkem_ek, xpk, 32))
			FAIL("the X25519 public key is not the secret's (libsodium)");
	}
	if (dk_in) {
		memcpy(want, dk_in, s->dk);
		reduce_s(want, s->k);
		if (differ(buf, want, s->dk)) {
			hexdump("export", buf, s->dk);
			hexdump("want  ", want, s->dk);
			FAIL("the expanded key does not export as read (s mod q)");
		}
	}
	n = crypto_kem_export_seed(tfm, buf, sizeof(buf));
	if (seed) {
		if (n != (int)s->seed || differ(buf, seed, s->seed))
			FAIL("export_seed = %d, not the seed", n);
	} else if (n != -ENOKEY) {
		FAIL("export_seed of a key read expanded = %d, want -ENOKEY", n);
	}
	/*
	 * ML-KEM has SPKI/PKCS#8/PEM forms (the LAMPS profile; the expanded
	 * key's PEM is larger than @buf: -ENOSPC is its answer there); the
	 * hybrid only raw.
	 */
	for (f = RIND_KEY_SPKI_DER; f <= RIND_KEY_JWK; f++) {
		bool encodings = !strncmp(crypto_kem_alg_name(tfm), "mlkem", 5);
		bool pub_ok = encodings && (f == RIND_KEY_SPKI_DER || f == RIND_KEY_PEM);
		bool priv_ok = encodings && (f == RIND_KEY_PKCS8_DER || f == RIND_KEY_PEM);

		n = crypto_kem_export_pubkey(tfm, (enum rind_key_format)f, buf, sizeof(buf));
		if (pub_ok ? n <= 0 : n != -EINVAL)
			FAIL("export_pubkey format %d = %d, want %s", f, n, pub_ok ? "> 0" : "-EINVAL");
		n = crypto_kem_export_privkey(tfm, (enum rind_key_format)f, buf, sizeof(buf));
		if (priv_ok && n == -ENOSPC && f == RIND_KEY_PEM && !seed)
			n = 1;
		if (priv_ok ? n <= 0 : n != -EINVAL)
			FAIL("export_privkey format %d = %d, want %s", f, n, priv_ok ? "> 0" : "-EINVAL");
	}
	if (crypto_kem_export_pubkey(tfm, RIND_KEY_RAW, buf, s->ek - 1) != -ENOSPC ||
	    crypto_kem_export_privkey(tfm, RIND_KEY_RAW, buf, s->dk - 1) != -ENOSPC)
		FAIL("exports to a buffer one byte short are not -ENOSPC");
}

/*
 * The secret decapsulating @ct must give under @ki: the ML-KEM part is
 * J(z || c) or (when @k_ok) @k_ok; returns the hybrid's verdict (0, or
 * -EINVAL when its X25519 part is zero) and the expected secret in @want
 * (the ML-KEM part J(z || c); the caller compares with @k_ok itself).
 */
static int expect_decaps(const struct sizes *s, const struct keyinfo *ki, const u8 *ct, u8 *want)
{
	expect_j(want, ki->z, ct, s->mlkem_ct);
	if (s->hybrid && crypto_scalarmult_curve25519(want + 32, ki->xsk, ct + s->mlkem_ct))
		return -EINVAL;
	return 0;
}

/*
 * Is @ct a valid ciphertext for @tfm's key?  Decapsulation of a valid one
 * does not depend on z; of an invalid one it is J(z || c).  So decapsulate
 * again with the same expanded key but another z: the same ML-KEM secret
 * (@ss) means valid; otherwise that result must be J(z' || c).
 */
static int valid_by_z(struct crypto_kem *tfm, struct crypto_kem *ztfm, const struct sizes *s,
		      const u8 *ct, const u8 *ss, const char *what)
{
	u8 dk[DK_MAX], ss2[SS_MAX], want[32];
	int err;

	if (crypto_kem_export_privkey(tfm, RIND_KEY_RAW, dk, sizeof(dk)) != (int)s->dk)
		FAIL("%s: export_privkey", what);
	dk[s->mlkem_dk - 32] ^= 0x5a;
	err = crypto_kem_set_privkey(ztfm, dk, s->dk);
	if (err)
		FAIL("%s: the key with another z is refused: %d", what, err);
	err = crypto_kem_decapsulate(ztfm, ct, s->ct, ss2, s->ss);
	if (err)
		FAIL("%s: decapsulate with another z = %d", what, err);
	if (!differ(ss2, ss, 32))
		return 1;
	expect_j(want, dk + s->mlkem_dk - 32, ct, s->mlkem_ct);
	if (differ(ss2, want, 32))
		FAIL("%s: with another z, the secret is neither the first one nor J(z'||c)", what);
	return 0;
}

/*
 * Decapsulate @ct with @tfm and check the result: the ML-KEM part is
 * @k_want when given (the ciphertext just encapsulated to a key pair),
 * J(z || c) when @reject (a changed ciphertext), else J(z || c) or, for a
 * ciphertext that is valid (a test vector's, or one encapsulated to a key
 * that may not be a pair), what a key differing only in z also gives
 * (valid_by_z) -- and then @k_valid when given.
 */
static void decaps_check(struct crypto_kem *tfm, struct crypto_kem *ztfm, const struct sizes *s,
			 const struct keyinfo *ki, const u8 *ct, const u8 *k_want, const u8 *k_valid,
			 int reject, const char *what)
{
	u8 ss[SS_MAX + 8], want[SS_MAX];
	int err, verdict;

	memset(ss, 0xee, sizeof(ss));
	err = crypto_kem_decapsulate(tfm, ct, s->ct, ss, s->ss);
	verdict = expect_decaps(s, ki, ct, want);
	if (err != verdict)
		FAIL("%s: decapsulate = %d, want %d", what, err, verdict);
	if (ss[s->ss] != 0xee)
		FAIL("%s: decapsulate wrote past the secret", what);
	if (err) {
		if (!all_zero(ss, s->ss))
			FAIL("%s: a refused decapsulation left output", what);
		return;
	}
	if (s->hybrid && differ(ss + 32, want + 32, 32))
		FAIL("%s: the X25519 part differs from libsodium's", what);
	if (k_want) {
		if (!differ(ss, k_want, 32))
			return;
		hexdump("got         ", ss, 32);
		hexdump("encapsulated", k_want, 32);
		FAIL("%s: the ML-KEM secret is not the encapsulated one", what);
	}
	if (!differ(ss, want, 32))
		return;
	if (!reject && valid_by_z(tfm, ztfm, s, ct, ss, what)) {
		if (k_valid && differ(ss, k_valid, 32))
			FAIL("%s: a valid ciphertext decapsulates to another secret than encapsulated",
			     what);
		return;
	}
	hexdump("got     ", ss, 32);
	hexdump("J(z||c) ", want, 32);
	FAIL("%s: %s", what, reject ? "a changed ciphertext is not implicitly rejected" :
	     "the secret is neither J(z||c) nor independent of z");
}

/* Encapsulate with @m and check the result; 0 and @ct/@ss, or -EINVAL. */
static int encaps_check(struct crypto_kem *tfm, const struct sizes *s, const struct keyinfo *ki,
			const u8 *m, u8 *ct, u8 *ss, int shortbufs, unsigned int shortfall)
{
	u8 want[SS_MAX], xct[32];
	int err, verdict = 0;

	if (shortbufs) {
		unsigned int sl = s->ss - 1 - shortfall % s->ss, cl = s->ct - 1 - shortfall % s->ct;

		memset(ct, 0xee, s->ct);
		memset(ss, 0xee, s->ss);
		err = crypto_kem_encapsulate_m(tfm, m, s->m, ct, s->ct, ss, sl);
		if (err != -EINVAL)
			FAIL("encapsulate_m with a %u-byte secret buffer = %d", sl, err);
		err = crypto_kem_encapsulate_m(tfm, m, s->m, ct, cl, ss, s->ss);
		if (err != -EINVAL)
			FAIL("encapsulate_m with a %u-byte ciphertext buffer = %d", cl, err);
		err = crypto_kem_encapsulate_m(tfm, m, s->m - 1 - shortfall % s->m, ct, s->ct, ss, s->ss);
		if (err != -EINVAL)
			FAIL("encapsulate_m with a short m = %d", err);
		err = crypto_kem_encapsulate_m(tfm, m, s->m + 1, ct, s->ct, ss, s->ss);
		if (err != -EINVAL)
			FAIL("encapsulate_m with a long m = %d", err);
		err = crypto_kem_encapsulate(tfm, ct, s->ct, ss, sl);
		if (err != -EINVAL)
			FAIL("encapsulate with a %u-byte secret buffer = %d", sl, err);
		err = crypto_kem_encapsulate(tfm, ct, cl, ss, s->ss);
		if (err != -EINVAL)
			FAIL("encapsulate with a %u-byte ciphertext buffer = %d", cl, err);
		if (ct[0] != 0xee || ct[s->ct - 1] != 0xee || ss[0] != 0xee || ss[s->ss - 1] != 0xee)
			FAIL("a refused encapsulation wrote output");
	}
	expect_k(want, m, ki->ek, s->mlkem_ek);
	if (s->hybrid) {
		if (crypto_scalarmult_curve25519_base(xct, m + 32))
			FAIL("libsodium: X25519 base failed");
		if (crypto_scalarmult_curve25519(want + 32, m + 32, ki->ek + s->mlkem_ek))
			verdict = -EINVAL;
	}
	err = crypto_kem_encapsulate_m(tfm, m, s->m, ct, s->ct, ss, s->ss);
	if (err != verdict)
		FAIL("encapsulate_m = %d, want %d", err, verdict);
	if (err) {
		if (!all_zero(ss, s->ss))
			FAIL("a refused encapsulation left a secret");
		return err;
	}
	if (differ(ss, want, 32)) {
		hexdump("got            ", ss, 32);
		hexdump("G(m||H(ek))[:32]", want, 32);
		FAIL("the encapsulated secret is not G(m || H(ek))");
	}
	if (s->hybrid && (differ(ct + s->mlkem_ct, xct, 32) || differ(ss + 32, want + 32, 32)))
		FAIL("the X25519 share or secret differs from libsodium's");
	return 0;
}

static void get_sizes(struct crypto_kem *tfm, int a, struct sizes *s)
{
	s->ek = crypto_kem_pubkeysize(tfm);
	s->dk = crypto_kem_privkeysize(tfm);
	s->seed = crypto_kem_seedsize(tfm);
	s->ct = crypto_kem_ciphertextsize(tfm);
	s->ss = crypto_kem_sharedsecretsize(tfm);
	s->m = crypto_kem_encapsizeof_m(tfm);
	s->k = alg_k[a];
	s->hybrid = a == 3;
	s->mlkem_ek = 384 * s->k + 32;
	s->mlkem_dk = 768 * s->k + 96;
	s->mlkem_ct = s->k == 4 ? 1568 : s->k == 3 ? 1088 : 768;
	if (s->ek != s->mlkem_ek + (s->hybrid ? 32u : 0u) || s->dk != s->mlkem_dk + (s->hybrid ? 32u : 0u) ||
	    s->seed != 64u + (s->hybrid ? 32u : 0u) || s->ct != s->mlkem_ct + (s->hybrid ? 32u : 0u) ||
	    s->ss != 32u + (s->hybrid ? 32u : 0u) || s->m != 32u + (s->hybrid ? 32u : 0u))
		FAIL("sizes %u %u %u %u %u %u are not FIPS 203's", s->ek, s->dk, s->seed, s->ct, s->ss,
		     s->m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u8 hdr[8] = { 0 }, key[DK_MAX + 8], m[M_MAX], ct[CT_MAX + 8], ss[SS_MAX + 8];
	unsigned int keylen, kmode, cmode, shortfall;
	struct keyinfo ki, ki2;
	struct crypto_kem *tfm, *tfm2 = NULL, *ztfm;
	struct sizes s;
	struct impl *im;
	size_t off = 0;
	int a, err, want, shortbufs, have_ct = 0;

	take(hdr, 8, data, size, &off);
	a = hdr[0] % 4;
	im = &algs[a].v[(hdr[0] >> 2) % algs[a].n];
	cur = im->driver;
	tfm = im->tfm[0];
	ztfm = im->tfm[2];
	get_sizes(tfm, a, &s);
	kmode = hdr[1] & 3;
	cmode = hdr[1] >> 2 & 3;
	shortbufs = hdr[1] >> 4 & 1;
	shortfall = hdr[7];
	keylen = hdr[2] | (unsigned int)hdr[3] << 8;
	memset(&ki, 0, sizeof(ki));

	/* ---- the key ---- */
	if (kmode <= 1) {
		take(key, s.seed, data, size, &off);
		err = crypto_kem_set_privkey(tfm, key, s.seed);
		if (err)
			FAIL("set_privkey(seed) = %d", err);
		ki.priv = 1;
		ki.pair_known = 1;
		memcpy(ki.z, key + 32, 32);
		if (s.hybrid)
			memcpy(ki.xsk, key + 64, 32);
		check_priv_exports(tfm, &s, &ki, key, NULL);
		if (kmode == 1) {
			u8 dk[DK_MAX];

			tfm2 = im->tfm[1];
			if (crypto_kem_export_privkey(tfm, RIND_KEY_RAW, dk, sizeof(dk)) != (int)s.dk)
				FAIL("export_privkey");
			err = crypto_kem_set_privkey(tfm2, dk, s.dk);
			if (err)
				FAIL("its own expanded key is refused: %d", err);
			ki2 = ki;
			check_priv_exports(tfm2, &s, &ki2, NULL, dk);
			if (differ(ki2.ek, ki.ek, s.ek))
				FAIL("the expanded key's public key differs from the seed's");
		}
	} else {
		size_t avail = off < size ? size - off : 0;
		u8 *kp = malloc(keylen ? keylen : 1);
		int priv = kmode == 2;

		if (!kp)
			abort();
		/* an exact-size heap copy, so that ASan sees any overread */
		memset(kp, 0, keylen);
		memcpy(kp, data + off, avail < keylen ? avail : keylen);
		off += keylen;
		if (keylen <= sizeof(key))
			memcpy(key, kp, keylen);
		if (priv) {
			if (keylen == s.seed)
				want = 0;
			else if (keylen == s.dk) {
				u8 h[32];

				sha3_256(h, kp + 384 * s.k, s.mlkem_ek);
				/* and s-hat reduced mod q (FIPS 203 7.3; rind refuses it) */
				want = !differ(h, kp + 384 * s.k + s.mlkem_ek, 32) &&
				       modulus_ok(kp + 384 * s.k, s.k) && modulus_ok(kp, s.k) ?
				       0 : -EKEYREJECTED;
			} else {
				want = -EINVAL;
			}
			err = crypto_kem_set_privkey(tfm, kp, keylen);
		} else {
			want = keylen != s.ek ? -EINVAL : modulus_ok(kp, s.k) ? 0 : -EKEYREJECTED;
			err = crypto_kem_set_pubkey(tfm, kp, keylen);
		}
		/*
		 * ML-KEM also reads DER and PEM encodings of other lengths: what
		 * looks like one (a SEQUENCE, PEM armour) and is malformed is
		 * -EKEYREJECTED rather than a wrong length.
		 */
		if (want == -EINVAL && err == -EKEYREJECTED && !s.hybrid && keylen &&
		    (kp[0] == 0x30 || (keylen > 11 && memmem(kp, keylen, "-----BEGIN ", 11))))
			want = -EKEYREJECTED;
		free(kp);
		if (err != want)
			FAIL("set_%skey(%u bytes) = %d, want %d", priv ? "priv" : "pub", keylen, err, want);
		if (err) {
			check_base_kept(tfm, &s, a, 1);
			goto out;
		}
		if (priv) {
			ki.priv = 1;
			if (keylen == s.seed) {
				ki.pair_known = 1;
				memcpy(ki.z, key + 32, 32);
				if (s.hybrid)
					memcpy(ki.xsk, key + 64, 32);
				check_priv_exports(tfm, &s, &ki, key, NULL);
			} else {
				memcpy(ki.z, key + s.mlkem_dk - 32, 32);
				if (s.hybrid)
					memcpy(ki.xsk, key + s.mlkem_dk, 32);
				check_priv_exports(tfm, &s, &ki, NULL, key);
			}
		} else {
			u8 buf[DK_MAX];

			memcpy(ki.ek, key, s.ek);
			err = crypto_kem_export_pubkey(tfm, RIND_KEY_RAW, buf, sizeof(buf));
			if (err != (int)s.ek || differ(buf, key, s.ek))
				FAIL("the public key does not export as read (%d)", err);
			if ((err = crypto_kem_export_privkey(tfm, RIND_KEY_RAW, buf, sizeof(buf))) != -ENOKEY ||
			    (err = crypto_kem_export_seed(tfm, buf, sizeof(buf))) != -ENOKEY)
				FAIL("a public key exports a private one (%d)", err);
			memset(ct, 0, s.ct);
			if ((err = crypto_kem_decapsulate(tfm, ct, s.ct, ss, s.ss)) != -ENOKEY)
				FAIL("decapsulate with a public key only = %d", err);
		}
	}

	/* ---- the ciphertext ---- */
	switch (cmode) {
	case 0: {
		u8 ss_e[SS_MAX];
		unsigned int pos = (hdr[4] | (unsigned int)hdr[5] << 8) % s.ct;

		take(m, s.m, data, size, &off);
		err = encaps_check(tfm, &s, &ki, m, ct, ss_e, shortbufs, shortfall);
		if (tfm2) {
			u8 ct2[CT_MAX], ss2[SS_MAX];

			if (encaps_check(tfm2, &s, &ki2, m, ct2, ss2, 0, 0) != err ||
			    (!err && (differ(ct2, ct, s.ct) || differ(ss2, ss_e, s.ss))))
				FAIL("the expanded key encapsulates differently");
		}
		if (err || !ki.priv)
			break;
		/* The ciphertext just made. */
		decaps_check(tfm, ztfm, &s, &ki, ct, ki.pair_known ? ss_e : NULL, ss_e, 0, "own ciphertext");
		if (tfm2)
			decaps_check(tfm2, ztfm, &s, &ki2, ct, ss_e, NULL, 0, "own ciphertext, expanded key");
		/* And changed. */
		if (hdr[6]) {
			ct[pos] ^= hdr[6];
			if (pos < s.mlkem_ct) {
				decaps_check(tfm, ztfm, &s, &ki, ct, NULL, NULL, 1, "changed ciphertext");
				if (tfm2)
					decaps_check(tfm2, ztfm, &s, &ki2, ct, NULL, NULL, 1,
						     "changed ciphertext, expanded key");
			} else {
				/* only the X25519 share changed: the ML-KEM part stands */
				decaps_check(tfm, ztfm, &s, &ki, ct, ki.pair_known ? ss_e : NULL, ss_e, 0,
					     "changed X25519 share");
				if (tfm2)
					decaps_check(tfm2, ztfm, &s, &ki2, ct, ss_e, NULL, 0,
						     "changed X25519 share, expanded key");
			}
		}
		have_ct = 1;
		break;
	}
	case 1:
	case 2: {
		unsigned int ctlen = s.ct;

		if (cmode == 2)
			ctlen = hdr[4] | (unsigned int)hdr[5] << 8;
		if (ctlen == s.ct) {
			take(ct, s.ct, data, size, &off);
			if (!ki.priv)
				break;
			decaps_check(tfm, ztfm, &s, &ki, ct, NULL, NULL, 0, "input ciphertext");
			if (tfm2)
				decaps_check(tfm2, ztfm, &s, &ki2, ct, NULL, NULL, 0,
					     "input ciphertext, expanded key");
			have_ct = 1;
		} else {
			/* exact-size heap copy of a wrong-length ciphertext */
			u8 *c = malloc(ctlen ? ctlen : 1);
			size_t avail = off < size ? size - off : 0;

			if (!c)
				abort();
			memset(c, 0, ctlen);
			memcpy(c, data + off, avail < ctlen ? avail : ctlen);
			memset(ss, 0xee, sizeof(ss));
			err = crypto_kem_decapsulate(tfm, c, ctlen, ss, s.ss);
			free(c);
			if (err != -EINVAL)
				FAIL("decapsulate of a %u-byte ciphertext = %d, want -EINVAL", ctlen, err);
			for (keylen = 0; keylen < sizeof(ss); keylen++)
				if (ss[keylen] != 0xee)
					FAIL("a refused decapsulation wrote output");
		}
		break;
	}
	default: {
		u8 ss_e[SS_MAX], ss_d[SS_MAX];

		err = crypto_kem_encapsulate(tfm, ct, s.ct, ss_e, s.ss);
		if (err == -EINVAL && s.hybrid)
			break;	/* a small-order X25519 public key */
		if (err)
			FAIL("encapsulate = %d", err);
		if (!ki.priv)
			break;
		err = crypto_kem_decapsulate(tfm, ct, s.ct, ss_d, s.ss);
		if (err || (ki.pair_known && differ(ss_d, ss_e, s.ss)))
			FAIL("random encapsulation does not round-trip (%d)", err);
		if (tfm2 && (crypto_kem_decapsulate(tfm2, ct, s.ct, ss_d, s.ss) ||
			     differ(ss_d, ss_e, s.ss)))
			FAIL("random encapsulation does not round-trip with the expanded key");
		have_ct = 1;
		break;
	}
	}

	/* Short secret buffer for decapsulation. */
	if (shortbufs && have_ct) {
		unsigned int sl = s.ss - 1 - shortfall % s.ss;

		memset(ss, 0xee, sizeof(ss));
		err = crypto_kem_decapsulate(tfm, ct, s.ct, ss, sl);
		if (err != -EINVAL)
			FAIL("decapsulate into %u bytes = %d, want -EINVAL", sl, err);
		for (keylen = 0; keylen < sizeof(ss); keylen++)
			if (ss[keylen] != 0xee)
				FAIL("a refused decapsulation wrote output");
	}
out:
	load_base(tfm, a);
	if (tfm2)
		load_base(tfm2, a);
	return 0;
}
