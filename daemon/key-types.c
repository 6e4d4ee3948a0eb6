// SPDX-License-Identifier: MIT
/*
 * The key types rindd holds: one row each -- its name on the wire, the
 * kind of library transform it becomes, the length of its stored secret
 * and the library algorithm -- plus what differs per type: the signing
 * variants a request may ask for (hash, DER or P1363, PKCS#1 v1.5 or PSS),
 * generation, and public-key export.  The policy is the library's (RSA
 * 2048-8192, e = 65537 when generating, no SHA-1): rindd only picks the
 * algorithm name and hands the key over.
 *
 * Stored secrets: the raw private key (Ed25519/X25519 32 bytes, the EC
 * scalar of the field's length, AES/ChaCha20 key), RSA as PKCS#1
 * RSAPrivateKey DER, ML-KEM and X25519MLKEM768 as the seed when it is
 * known (64/96 bytes) or else the expanded decapsulation key.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rind/crypto.h>
#include <rind/internal/keyfmt.h>

#include "rindd.h"

static const struct key_type types[KEY_NALGS] = {
	[KEY_ED25519] = { "ed25519", KC_SIG, 32, "ed25519", 255 },
	[KEY_X25519] = { "x25519", KC_KPP, 32, "curve25519", 255 },
	[KEY_AES256GCM] = { "aes-256-gcm", KC_AEAD, 32, "gcm(aes)", 256 },
	[KEY_ECDSA_P256] = { "ecdsa-p256", KC_SIG, 32, "x962(ecdsa-nist-p256,sha256)", 256 },
	[KEY_ECDSA_P384] = { "ecdsa-p384", KC_SIG, 48, "x962(ecdsa-nist-p384,sha384)", 384 },
	[KEY_ECDSA_P521] = { "ecdsa-p521", KC_SIG, 66, "x962(ecdsa-nist-p521,sha512)", 521 },
	[KEY_RSA2048] = { "rsa-2048", KC_RSA, 0, "pkcs1(rsa,sha256)", 2048 },
	[KEY_RSA3072] = { "rsa-3072", KC_RSA, 0, "pkcs1(rsa,sha256)", 3072 },
	[KEY_RSA4096] = { "rsa-4096", KC_RSA, 0, "pkcs1(rsa,sha256)", 4096 },
	[KEY_ECDH_P256] = { "ecdh-p256", KC_KPP, 32, "ecdh-nist-p256", 256 },
	[KEY_ECDH_P384] = { "ecdh-p384", KC_KPP, 48, "ecdh-nist-p384", 384 },
	[KEY_ECDH_P521] = { "ecdh-p521", KC_KPP, 66, "ecdh-nist-p521", 521 },
	[KEY_MLKEM768] = { "mlkem768", KC_KEM, 0, "mlkem768", 768 },
	[KEY_MLKEM1024] = { "mlkem1024", KC_KEM, 0, "mlkem1024", 1024 },
	[KEY_X25519MLKEM768] = { "x25519mlkem768", KC_KEM, 0, "x25519mlkem768", 768 },
	[KEY_AES128GCM] = { "aes-128-gcm", KC_AEAD, 16, "gcm(aes)", 128 },
	[KEY_CHACHA20POLY1305] = { "chacha20-poly1305", KC_AEAD, 32, "rfc7539(chacha20,poly1305)", 256 },
	/* FIPS 204 pure ML-DSA, the private key its 32-byte seed */
	[KEY_MLDSA44] = { "mldsa44", KC_SIG, 32, "mldsa44", 44 },
	[KEY_MLDSA65] = { "mldsa65", KC_SIG, 32, "mldsa65", 65 },
	[KEY_MLDSA87] = { "mldsa87", KC_SIG, 32, "mldsa87", 87 },
};

/* Signing types without options: Ed25519 and ML-DSA hash the message themselves. */
static bool sig_no_options(enum key_alg alg)
{
	return alg == KEY_ED25519 || alg == KEY_MLDSA44 || alg == KEY_MLDSA65 || alg == KEY_MLDSA87;
}

const struct key_type *key_type_of(enum key_alg alg)
{
	return &types[alg];
}

const char *key_alg_name(enum key_alg alg)
{
	return (unsigned int)alg < KEY_NALGS ? types[alg].name : "unknown";
}

const char *key_type_list(void)
{
	return "ed25519, ecdsa-p256, ecdsa-p384, ecdsa-p521, rsa-2048, rsa-3072, rsa-4096, "
	       "mldsa44, mldsa65, mldsa87, x25519, ecdh-p256, ecdh-p384, ecdh-p521, mlkem768, mlkem1024, x25519mlkem768, "
	       "aes-256-gcm, aes-128-gcm, chacha20-poly1305";
}

int key_alg_parse(const char *s, enum key_alg *alg)
{
	static const struct { const char *alias; enum key_alg alg; } aliases[] = {
		{ "curve25519", KEY_X25519 },
		{ "chacha20poly1305", KEY_CHACHA20POLY1305 },
		{ "p256", KEY_ECDSA_P256 }, { "p384", KEY_ECDSA_P384 }, { "p521", KEY_ECDSA_P521 },
		{ "x25519-mlkem768", KEY_X25519MLKEM768 },
		{ "ml-kem-768", KEY_MLKEM768 }, { "ml-kem-1024", KEY_MLKEM1024 },
		{ "ml-dsa-44", KEY_MLDSA44 }, { "ml-dsa-65", KEY_MLDSA65 }, { "ml-dsa-87", KEY_MLDSA87 },
	};
	/* Names of things the library does not have (yet): "not available". */
	static const char *const later[] = {
		"ed448", "x448", "rsa", "rsa-pss", "ecdh-p224", "ecdsa-p224", "mlkem512",
	};
	unsigned int i;

	for (i = 0; i < KEY_NALGS; i++)
		if (!strcmp(s, types[i].name)) {
			*alg = (enum key_alg)i;
			return 0;
		}
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(s, aliases[i].alias)) {
			*alg = aliases[i].alg;
			return 0;
		}
	for (i = 0; i < sizeof(later) / sizeof(later[0]); i++)
		if (!strcmp(s, later[i]))
			return -EOPNOTSUPP;
	return -EINVAL;
}

const char *key_usage_name(enum key_usage u)
{
	return u == KEY_USAGE_SIGN ? "sign" : u == KEY_USAGE_DECRYPT ? "decrypt" : "";
}

int key_usage_parse(const char *s, enum key_usage *u)
{
	if (!s || !*s)
		*u = KEY_USAGE_DEFAULT;
	else if (!strcmp(s, "sign"))
		*u = KEY_USAGE_SIGN;
	else if (!strcmp(s, "decrypt"))
		*u = KEY_USAGE_DECRYPT;
	else
		return -EINVAL;
	return 0;
}

static bool rsa_decrypts(const struct key *k)
{
	return types[k->alg].kind == KC_RSA && k->usage == KEY_USAGE_DECRYPT;
}

bool key_can(const struct key *k, enum key_op op)
{
	switch (types[k->alg].kind) {
	case KC_SIG:
		return op == KOP_SIGN || op == KOP_VERIFY;
	case KC_RSA:
		return rsa_decrypts(k) ? op == KOP_DECRYPT : op == KOP_SIGN || op == KOP_VERIFY;
	case KC_KPP:
		return op == KOP_DERIVE;
	case KC_AEAD:
		return op == KOP_SEAL || op == KOP_OPEN;
	case KC_KEM:
		return op == KOP_DECAP;
	}
	return false;
}

void key_cannot(const struct key *k, enum key_op op, char *msg, size_t len)
{
	static const char *const needs[] = {
		[KOP_SIGN] = "sign needs a signing key (ed25519, ecdsa-p*, mldsa*, rsa-* made with usage sign)",
		[KOP_VERIFY] = "verify needs a signing key (ed25519, ecdsa-p*, mldsa*, rsa-* made with usage sign)",
		[KOP_SEAL] = "seal needs aes-256-gcm, aes-128-gcm or chacha20-poly1305",
		[KOP_OPEN] = "open needs aes-256-gcm, aes-128-gcm or chacha20-poly1305",
		[KOP_DERIVE] = "derive needs x25519 or ecdh-p*",
		[KOP_DECRYPT] = "decrypt needs an rsa-* key made with usage decrypt",
		[KOP_DECAP] = "decapsulate needs mlkem768, mlkem1024 or x25519mlkem768",
	};

	if (types[k->alg].kind == KC_RSA)
		snprintf(msg, len, "key %s is %s with usage %s: %s", k->name, types[k->alg].name,
			 rsa_decrypts(k) ? "decrypt" : "sign", needs[op]);
	else
		snprintf(msg, len, "key %s is %s: %s", k->name, types[k->alg].name, needs[op]);
}

/* ML-KEM secrets: the seed, or the expanded decapsulation key. */
static size_t kem_seed_len(enum key_alg alg)
{
	return alg == KEY_X25519MLKEM768 ? 96 : 64;
}

static size_t kem_dk_len(enum key_alg alg)
{
	return alg == KEY_MLKEM768 ? 2400 : alg == KEY_MLKEM1024 ? 3168 : 2432;
}

bool key_secret_len_ok(enum key_alg alg, size_t len)
{
	if ((unsigned int)alg >= KEY_NALGS)
		return false;
	if (types[alg].raw_len)
		return len == types[alg].raw_len;
	if (types[alg].kind == KC_KEM)
		return len == kem_seed_len(alg) || len == kem_dk_len(alg);
	return len >= 64 && len <= RINDD_SECRET_MAX;	/* RSA: PKCS#1 DER */
}

/* ---- signing variants ---- */

static int hash_index(const char *h, int dflt, char *msg, size_t len)
{
	if (!h || !*h)
		return dflt;
	if (!strcmp(h, "sha256"))
		return 0;
	if (!strcmp(h, "sha384"))
		return 1;
	if (!strcmp(h, "sha512"))
		return 2;
	if (!strcmp(h, "sha1") || !strcmp(h, "sha-1"))
		snprintf(msg, len, "hash: SHA-1 is not allowed (sha256, sha384, sha512)");
	else
		snprintf(msg, len, "hash: unknown \"%.32s\" (sha256, sha384, sha512)", h);
	return -EINVAL;
}


int key_sig_variant(const struct key *k, const char *hash, const char *format,
		    const char *padding, unsigned int *var, char *msg, size_t len)
{
	const struct key_type *t = &types[k->alg];
	bool has_hash = hash && *hash, has_fmt = format && *format, has_pad = padding && *padding;
	int h;

	*var = 0;
	if (sig_no_options(k->alg)) {
		if (has_hash || has_pad || (has_fmt && strcmp(format, "raw"))) {
			snprintf(msg, len, "%s signs the message itself (%s): no hash, padding or "
				 "signature format options", t->name,
				 k->alg == KEY_ED25519 ? "RFC 8032" : "FIPS 204");
			return -EINVAL;
		}
		return 0;
	}
	if (t->kind == KC_SIG) {		/* ECDSA */
		if (has_pad) {
			snprintf(msg, len, "padding: ECDSA keys have no padding (that is for RSA)");
			return -EINVAL;
		}
		h = hash_index(hash, t->bits == 256 ? 0 : t->bits == 384 ? 1 : 2, msg, len);
		if (h < 0)
			return h;
		if (has_fmt && strcmp(format, "der") && strcmp(format, "p1363")) {
			snprintf(msg, len, "sig_format: \"%.32s\" (der, p1363)", format);
			return -EINVAL;
		}
		*var = (unsigned int)h * 2 + (has_fmt && !strcmp(format, "p1363"));
		return 0;
	}
	/* RSA */
	if (has_fmt) {
		snprintf(msg, len, "sig_format: RSA signatures have one form (that is for ECDSA)");
		return -EINVAL;
	}
	h = hash_index(hash, 0, msg, len);
	if (h < 0)
		return h;
	if (has_pad && strcmp(padding, "pkcs1") && strcmp(padding, "pss")) {
		snprintf(msg, len, "padding: \"%.32s\" (pkcs1, pss)", padding);
		return -EINVAL;
	}
	*var = (unsigned int)h + (has_pad && !strcmp(padding, "pss") ? 3 : 0);
	return 0;
}

int key_oaep_variant(const char *hash, unsigned int *var, char *msg, size_t len)
{
	int h = hash_index(hash, 0, msg, len);

	if (h < 0)
		return h;
	*var = (unsigned int)h;
	return 0;
}

const char *key_variant_lib(const struct key *k, unsigned int var)
{
	static const char *const ecdsa[3][6] = {
		{ "x962(ecdsa-nist-p256,sha256)", "p1363(ecdsa-nist-p256,sha256)",
		  "x962(ecdsa-nist-p256,sha384)", "p1363(ecdsa-nist-p256,sha384)",
		  "x962(ecdsa-nist-p256,sha512)", "p1363(ecdsa-nist-p256,sha512)" },
		{ "x962(ecdsa-nist-p384,sha256)", "p1363(ecdsa-nist-p384,sha256)",
		  "x962(ecdsa-nist-p384,sha384)", "p1363(ecdsa-nist-p384,sha384)",
		  "x962(ecdsa-nist-p384,sha512)", "p1363(ecdsa-nist-p384,sha512)" },
		{ "x962(ecdsa-nist-p521,sha256)", "p1363(ecdsa-nist-p521,sha256)",
		  "x962(ecdsa-nist-p521,sha384)", "p1363(ecdsa-nist-p521,sha384)",
		  "x962(ecdsa-nist-p521,sha512)", "p1363(ecdsa-nist-p521,sha512)" },
	};
	static const char *const rsa[6] = {
		"pkcs1(rsa,sha256)", "pkcs1(rsa,sha384)", "pkcs1(rsa,sha512)",
		"pss(rsa,sha256)", "pss(rsa,sha384)", "pss(rsa,sha512)",
	};
	static const char *const oaep[3] = {
		"oaep(rsa,sha256)", "oaep(rsa,sha384)", "oaep(rsa,sha512)",
	};

	switch (k->alg) {
	case KEY_ECDSA_P256:
	case KEY_ECDSA_P384:
	case KEY_ECDSA_P521:
		return var < 6 ? ecdsa[k->alg - KEY_ECDSA_P256][var] : NULL;
	case KEY_RSA2048:
	case KEY_RSA3072:
	case KEY_RSA4096:
		if (rsa_decrypts(k))
			return var < 3 ? oaep[var] : NULL;
		return var < 6 ? rsa[var] : NULL;
	default:
		return var ? NULL : types[k->alg].lib;
	}
}

/* ---- generation ---- */

int key_generate(enum key_alg alg, enum key_usage usage, u8 *secret, size_t *len)
{
	const struct key_type *t = &types[alg];
	int n = -EINVAL;

	(void)usage;	/* an RSA key is the same either way; the usage is stored beside it */
	switch (t->kind) {
	case KC_AEAD:
		*len = t->raw_len;
		return rind_get_random_bytes(secret, t->raw_len) ? -EIO : 0;
	case KC_KPP:
		if (alg == KEY_X25519) {
			*len = 32;
			return rind_curve25519_generate_secret(secret);
		} else {
			struct crypto_kpp *tfm = crypto_alloc_kpp(t->lib, 0, 0);

			if (IS_ERR(tfm))
				return (int)PTR_ERR(tfm);
			n = crypto_kpp_set_secret(tfm, NULL, 0);
			if (!n)
				n = crypto_kpp_export_privkey(tfm, RIND_KEY_RAW, secret, RINDD_SECRET_MAX);
			crypto_free_kpp(tfm);
		}
		break;
	case KC_SIG:
		if (alg == KEY_ED25519) {
			*len = 32;
			return rind_get_random_bytes(secret, 32) ? -EIO : 0;
		}
		/* ECDSA and ML-DSA, like RSA, generate through the library */
		__attribute__((fallthrough));
	case KC_RSA: {
		struct crypto_sig *tfm = crypto_alloc_sig(t->lib, 0, 0);

		if (IS_ERR(tfm))
			return (int)PTR_ERR(tfm);
		n = t->kind == KC_RSA ? crypto_sig_set_keygen_bits(tfm, t->bits) : 0;
		if (!n)
			n = crypto_sig_generate_key(tfm);
		if (!n)
			n = crypto_sig_export_privkey(tfm, RIND_KEY_RAW, secret, RINDD_SECRET_MAX);
		crypto_free_sig(tfm);
		break;
	}
	case KC_KEM: {
		struct crypto_kem *tfm = crypto_alloc_kem(t->lib, 0, 0);

		if (IS_ERR(tfm))
			return (int)PTR_ERR(tfm);
		n = crypto_kem_generate_key(tfm);
		if (!n)
			n = crypto_kem_export_seed(tfm, secret, RINDD_SECRET_MAX);
		crypto_free_kem(tfm);
		break;
	}
	}
	if (n < 0) {
		rind_memzero_explicit(secret, RINDD_SECRET_MAX);
		return n;
	}
	*len = (size_t)n;
	return key_secret_len_ok(alg, *len) ? 0 : -EIO;
}

/* ---- public keys ---- */

/* ML-KEM in SPKI / PKCS#8 (draft-ietf-lamps-kyber-certificates): no parameters. */
static enum rind_oid kem_oid(enum key_alg alg)
{
	return alg == KEY_MLKEM768 ? RIND_OID_ML_KEM_768 :
	       alg == KEY_MLKEM1024 ? RIND_OID_ML_KEM_1024 : RIND_OID_NONE;
}

static int kem_export(struct key *k, struct crypto_kem *tfm, int fmt, bool priv, u8 *out,
		      size_t outlen, char *msg, size_t msglen)
{
	enum rind_oid oid = kem_oid(k->alg);
	u8 *raw = NULL, *der = NULL;
	int n, ret;

	if (oid == RIND_OID_NONE && fmt != RIND_KEY_RAW) {
		snprintf(msg, msglen, "key %s is x25519mlkem768: its public key has only the raw form "
			 "(ML-KEM-768 encapsulation key || X25519 public key, 1216 bytes)", k->name);
		return -EINVAL;
	}
	if (!priv && fmt == RIND_KEY_RAW)
		return crypto_kem_export_pubkey(tfm, RIND_KEY_RAW, out, (unsigned int)outlen);
	if (priv && fmt != RIND_KEY_PKCS8_DER)
		return -EINVAL;
	raw = malloc(4096);
	der = malloc(8192);
	ret = -ENOMEM;
	if (!raw || !der)
		goto out;
	if (priv) {
		/* privateKey: the seed [0] when known, else the expanded key */
		struct rind_derw w;
		struct rind_pkcs8 p8 = { .version = 0, .alg = oid };
		u8 inner[3200];

		rind_derw_init(&w, inner, sizeof(inner));
		if (k->secret_len == kem_seed_len(k->alg))
			rind_derw_tlv(&w, DER_CTX_PRIM(0), k->secret, k->secret_len);
		else
			rind_derw_octets(&w, k->secret, k->secret_len);
		n = rind_derw_finish(&w);
		if (n < 0) {
			ret = n;
		} else {
			p8.privkey = inner;
			p8.privkey_len = (size_t)n;
			ret = rind_pkcs8_encode(&p8, out, outlen);
		}
		rind_memzero_explicit(inner, sizeof(inner));
		goto out;
	}
	n = crypto_kem_export_pubkey(tfm, RIND_KEY_RAW, raw, 4096);
	if (n < 0) {
		ret = n;
		goto out;
	}
	if (fmt == RIND_KEY_JWK) {
		/* the AKP form of the JOSE post-quantum drafts: {"kty":"AKP","alg":"ML-KEM-768","pub":...} */
		struct rind_jsonw w;

		rind_jsonw_init(&w, (char *)out, outlen);
		rind_jsonw_str(&w, "kty", "AKP");
		rind_jsonw_str(&w, "alg", k->alg == KEY_MLKEM768 ? "ML-KEM-768" : "ML-KEM-1024");
		rind_jsonw_b64url(&w, "pub", raw, (size_t)n);
		ret = rind_jsonw_finish(&w);
		goto out;
	}
	{
		struct rind_spki spki = { .alg = oid, .key = raw, .keylen = (size_t)n };

		ret = rind_spki_encode(&spki, fmt == RIND_KEY_SPKI_DER ? out : der,
				       fmt == RIND_KEY_SPKI_DER ? outlen : 8192);
		if (ret >= 0 && fmt == RIND_KEY_PEM)
			ret = rind_pem_encode(RIND_PEM_PUBLIC_KEY, der, (size_t)ret, (char *)out, outlen);
		else if (fmt != RIND_KEY_SPKI_DER && ret >= 0)
			ret = -EINVAL;
	}
out:
	free(raw);
	free(der);
	return ret;
}

/*
 * The transform of @k's current version for export: a thread's own slot
 * (@thread >= 0), or one made for the call (*@owned).
 */
static void *export_tfm(struct key *k, int thread, bool *owned)
{
	const struct key_type *t = &types[k->alg];
	void *tfm = NULL;

	*owned = thread < 0;
	if (thread >= 0) {
		switch (t->kind) {
		case KC_SIG:
			return key_sig_var(k, k->version, thread, 0);
		case KC_RSA:
			return rsa_decrypts(k) ? (void *)key_akcipher_var(k, thread, 0) :
			       (void *)key_sig_var(k, k->version, thread, 0);
		case KC_KPP:
			return key_kpp(k, thread);
		case KC_KEM:
			return key_kem(k, thread);
		case KC_AEAD:
			return NULL;
		}
	}
	switch (t->kind) {
	case KC_SIG:
	case KC_RSA:
		tfm = crypto_alloc_sig(t->lib, 0, 0);
		if (!IS_ERR(tfm) && crypto_sig_set_privkey(tfm, k->secret, (unsigned int)k->secret_len)) {
			crypto_free_sig(tfm);
			return NULL;
		}
		break;
	case KC_KPP:
		tfm = crypto_alloc_kpp(t->lib, 0, 0);
		if (!IS_ERR(tfm) && crypto_kpp_set_secret(tfm, k->secret, (unsigned int)k->secret_len)) {
			crypto_free_kpp(tfm);
			return NULL;
		}
		break;
	case KC_KEM:
		tfm = crypto_alloc_kem(t->lib, 0, 0);
		if (!IS_ERR(tfm) && crypto_kem_set_privkey(tfm, k->secret, (unsigned int)k->secret_len)) {
			crypto_free_kem(tfm);
			return NULL;
		}
		break;
	case KC_AEAD:
		return NULL;
	}
	return IS_ERR(tfm) ? NULL : tfm;
}

/* ML-DSA public JWK: the AKP form of draft-ietf-cose-dilithium ({"kty":"AKP","alg":"ML-DSA-44","pub":...}). */
static int mldsa_jwk(struct key *k, struct crypto_sig *tfm, u8 *out, size_t outlen)
{
	static const char *const algs[] = { "ML-DSA-44", "ML-DSA-65", "ML-DSA-87" };
	struct rind_jsonw w;
	u8 *raw = malloc(2592);
	int n = raw ? crypto_sig_export_pubkey(tfm, RIND_KEY_RAW, raw, 2592) : -ENOMEM;

	if (n >= 0) {
		rind_jsonw_init(&w, (char *)out, outlen);
		rind_jsonw_str(&w, "kty", "AKP");
		rind_jsonw_str(&w, "alg", algs[k->alg - KEY_MLDSA44]);
		rind_jsonw_b64url(&w, "pub", raw, (size_t)n);
		n = rind_jsonw_finish(&w);
	}
	free(raw);
	return n;
}

int key_export(struct key *k, int fmt, bool priv, int thread, u8 *out, size_t outlen,
	       char *msg, size_t msglen)
{
	const struct key_type *t = &types[k->alg];
	bool owned;
	void *tfm;
	int n = -EINVAL;

	msg[0] = 0;
	if (t->kind == KC_AEAD) {
		snprintf(msg, msglen, priv ? "%s keys have no PKCS#8 form" :
			 "key %s is %s: it has no public key", priv ? t->name : k->name, t->name);
		return priv ? -EOPNOTSUPP : -EINVAL;
	}
	if (fmt < RIND_KEY_RAW || fmt > RIND_KEY_JWK) {
		snprintf(msg, msglen, "format: unknown (%d)", fmt);
		return -EINVAL;
	}
	tfm = export_tfm(k, thread, &owned);
	if (!tfm) {
		snprintf(msg, msglen, "cannot set up %s", t->name);
		return -ENOMEM;
	}
	if (priv)
		fmt = RIND_KEY_PKCS8_DER;
	switch (t->kind) {
	case KC_SIG:
	case KC_RSA:
		if (!priv && fmt == RIND_KEY_JWK && k->alg >= KEY_MLDSA44 && k->alg <= KEY_MLDSA87) {
			n = mldsa_jwk(k, tfm, out, outlen);
			if (owned)
				crypto_free_sig(tfm);
			break;
		}
		if (rsa_decrypts(k) && !owned)
			n = priv ? crypto_akcipher_export_privkey(tfm, fmt, out, (unsigned int)outlen) :
			    crypto_akcipher_export_pubkey(tfm, fmt, out, (unsigned int)outlen);
		else
			n = priv ? crypto_sig_export_privkey(tfm, fmt, out, (unsigned int)outlen) :
			    crypto_sig_export_pubkey(tfm, fmt, out, (unsigned int)outlen);
		if (owned)
			crypto_free_sig(tfm);
		break;
	case KC_KPP:
		n = priv ? crypto_kpp_export_privkey(tfm, fmt, out, (unsigned int)outlen) :
		    crypto_kpp_export_pubkey(tfm, fmt, out, (unsigned int)outlen);
		if (owned)
			crypto_free_kpp(tfm);
		break;
	case KC_KEM:
		n = kem_export(k, tfm, fmt, priv, out, outlen, msg, msglen);
		if (owned)
			crypto_free_kem(tfm);
		break;
	case KC_AEAD:
		break;
	}
	if (n < 0 && !msg[0])
		snprintf(msg, msglen, "export failed (errno %d)", -n);
	return n;
}

/* ---- peers of derive ---- */


int key_peer_raw(const struct key *k, const u8 *in, size_t len, u8 *out, size_t outlen,
		 char *msg, size_t msglen)
{
	const struct key_type *t = &types[k->alg];
	size_t nb = (t->bits + 7) / 8;
	struct crypto_sig *tfm;
	int n;

	if (k->alg == KEY_X25519) {
		if (len == 32) {
			memcpy(out, in, 32);
			return 32;
		}
		if (!rind_okp_import_pub(&rind_okp_x25519, in, len, out))
			return 32;
		snprintf(msg, msglen, "peer_public_key: an x25519 public key is 32 bytes raw, or "
			 "SPKI DER, PEM or JWK (got %zu bytes that are none of them)", len);
		return -EINVAL;
	}
	/* ECDH: a raw SEC1 point (04||X||Y, or the kernel's bare X||Y) goes straight in */
	if ((len == 2 * nb + 1 && in[0] == 0x04) || len == 2 * nb) {
		if (len > outlen)
			return -EINVAL;
		memcpy(out, in, len);
		return (int)len;
	}
	/* else SPKI DER, PEM, JWK or a compressed point: the ECDSA reader of the same curve */
	tfm = crypto_alloc_sig(t->bits == 256 ? "x962(ecdsa-nist-p256,sha256)" :
			       t->bits == 384 ? "x962(ecdsa-nist-p384,sha384)" :
			       "x962(ecdsa-nist-p521,sha512)", 0, 0);
	if (IS_ERR(tfm))
		return -ENOMEM;
	n = crypto_sig_set_pubkey(tfm, in, (unsigned int)len);
	if (!n)
		n = crypto_sig_export_pubkey(tfm, RIND_KEY_RAW, out, (unsigned int)outlen);
	crypto_free_sig(tfm);
	if (n < 0) {
		snprintf(msg, msglen, "peer_public_key: not a public key on %s (a SEC1 point, "
			 "04||X||Y of %zu bytes, or SPKI DER, PEM or JWK; got %zu bytes)",
			 t->bits == 256 ? "P-256" : t->bits == 384 ? "P-384" : "P-521", 2 * nb + 1, len);
		return -EINVAL;
	}
	return n;
}
