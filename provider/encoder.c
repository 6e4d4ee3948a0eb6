// SPDX-License-Identifier: MIT
/*
 * Encoders: Ed25519, X25519, EC, RSA and ML-DSA keys as PKCS#8
 * PrivateKeyInfo and SubjectPublicKeyInfo, DER or PEM -- librind's own
 * encodings (crypto_*_export_*key; ML-DSA's PKCS#8 is the seed-only form
 * of the IETF LAMPS profile) -- and ML-DSA keys as text (`openssl pkey
 * -text`: OpenSSL 3.0 has no ML-DSA of its own to print them).  Encrypted PKCS#8 is not offered (an encoder
 * asked for a cipher refuses).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "key.h"

struct ectx {
	void *provctx;
};

static void *enew(void *provctx)
{
	struct ectx *c = calloc(1, sizeof(*c));

	if (c)
		c->provctx = provctx;
	return c;
}

static void efree(void *c) { free(c); }

static int eset(void *c, const OSSL_PARAM params[])
{
	const OSSL_PARAM *p = rp_locate_c(params, OSSL_ENCODER_PARAM_CIPHER);
	const char *s;

	(void)c;
	/* no passphrase encryption here: OpenSSL's default provider has it */
	if (p && rp_get_utf8(p, &s) && *s)
		return 0;
	return 1;
}

static const OSSL_PARAM e_settable_list[] = {
	{ OSSL_ENCODER_PARAM_CIPHER, OSSL_PARAM_UTF8_STRING, NULL, 0, 0 },
	{ NULL, 0, NULL, 0, 0 }
};
static const OSSL_PARAM *esettable(void *p) { (void)p; return e_settable_list; }

static int encode(struct ectx *c, enum rk_type type, int priv, int pem, OSSL_CORE_BIO *out,
		  const void *obj, const OSSL_PARAM abstract[], int selection)
{
	struct rkey *k = (struct rkey *)obj, *tmp = NULL;
	uint8_t *buf = NULL;
	size_t len = 0, w = 0;
	int ok = 0;

	if (priv ? !(selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) : !(selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY))
		return 0;
	if (!k) {
		if (!abstract || !(tmp = rk_new(c->provctx, type)) || rk_import(tmp, selection, abstract))
			goto out;
		k = tmp;
	}
	if (k->type != type || !rind_core.bio_write_ex)
		goto out;
	if (rk_encode(k, priv, pem ? RIND_KEY_PEM : priv ? RIND_KEY_PKCS8_DER : RIND_KEY_SPKI_DER, &buf, &len))
		goto out;
	RTRACE("encode %s %s %s", rk_type_name[type], priv ? "PrivateKeyInfo" : "SubjectPublicKeyInfo", pem ? "PEM" : "DER");
	ok = rind_core.bio_write_ex(out, buf, len, &w) && w == len;
out:
	rind_clear_free(buf, len);
	rk_free(tmp);
	return ok;
}

#define ENC(sym, T, priv, pem)							\
static int sym##_encode(void *c, OSSL_CORE_BIO *out, const void *obj, const OSSL_PARAM abs[], \
			int sel, OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)	\
{ (void)cb; (void)cbarg; return encode(c, T, priv, pem, out, obj, abs, sel); }	\
static int sym##_does(void *pc, int sel) { (void)pc;				\
	return priv ? (sel & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 : (sel & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0; } \
static const OSSL_DISPATCH sym##_enc_fns[] = {					\
	{ OSSL_FUNC_ENCODER_NEWCTX, (void (*)(void))enew },			\
	{ OSSL_FUNC_ENCODER_FREECTX, (void (*)(void))efree },			\
	{ OSSL_FUNC_ENCODER_SET_CTX_PARAMS, (void (*)(void))eset },		\
	{ OSSL_FUNC_ENCODER_SETTABLE_CTX_PARAMS, (void (*)(void))esettable },	\
	{ OSSL_FUNC_ENCODER_DOES_SELECTION, (void (*)(void))sym##_does },	\
	{ OSSL_FUNC_ENCODER_ENCODE, (void (*)(void))sym##_encode },		\
	{ 0, NULL }								\
};

#define ENC4(t, T)			\
	ENC(t##_p8der, T, 1, 0)		\
	ENC(t##_p8pem, T, 1, 1)		\
	ENC(t##_spkider, T, 0, 0)	\
	ENC(t##_spkipem, T, 0, 1)
ENC4(ed25519, RK_ED25519)
ENC4(x25519, RK_X25519)
ENC4(ec, RK_EC)
ENC4(rsa, RK_RSA)
ENC4(mldsa44, RK_MLDSA44)
ENC4(mldsa65, RK_MLDSA65)
ENC4(mldsa87, RK_MLDSA87)

/* "label:" then the bytes in hex, 15 a line, as OpenSSL prints keys. */
static int put_hex(OSSL_CORE_BIO *out, const char *label, const uint8_t *p, size_t n)
{
	char *buf = malloc(strlen(label) + 2 + n * 3 + (n / 15 + 1) * 5 + 2), *o;
	size_t i, w = 0, len;
	int ok;

	if (!buf)
		return 0;
	o = buf + sprintf(buf, "%s:\n", label);
	for (i = 0; i < n; i++) {
		if (i % 15 == 0)
			o += sprintf(o, "    ");
		o += sprintf(o, "%02x%s", p[i], i + 1 == n ? "\n" : i % 15 == 14 ? ":\n" : ":");
	}
	len = (size_t)(o - buf);
	ok = rind_core.bio_write_ex(out, buf, len, &w) && w == len;
	rind_clear_free(buf, len);
	return ok;
}

static int mldsa_text(void *vc, OSSL_CORE_BIO *out, const void *obj, const OSSL_PARAM abstract[],
		      int selection, enum rk_type type)
{
	struct ectx *c = vc;
	struct rkey *k = (struct rkey *)obj, *tmp = NULL;
	int priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0, ok = 0;
	char head[64];
	size_t w = 0, n;

	if (!k) {
		if (!abstract || !(tmp = rk_new(c->provctx, type)) || rk_import(tmp, selection, abstract))
			goto out;
		k = tmp;
	}
	if (k->type != type || !rind_core.bio_write_ex || (priv && !k->priv && !k->remote) || !k->has_pub)
		goto out;
	n = (size_t)snprintf(head, sizeof(head), "%s %s-Key:\n", rk_type_name[type], priv ? "Private" : "Public");
	if (!rind_core.bio_write_ex(out, head, n, &w) || w != n)
		goto out;
	if (priv && k->priv && !put_hex(out, k->privlen == 32 ? "seed" : "priv", k->priv, k->privlen))
		goto out;
	if (priv && k->remote) {
		static const char r[] = "(private key held by rindd)\n";

		if (!rind_core.bio_write_ex(out, r, sizeof(r) - 1, &w) || w != sizeof(r) - 1)
			goto out;
	}
	ok = put_hex(out, "pub", k->pub, k->publen);
	RTRACE("encode %s text", rk_type_name[type]);
out:
	rk_free(tmp);
	return ok;
}

#define TEXTENC(sym, T)								\
static int sym##_text_encode(void *c, OSSL_CORE_BIO *out, const void *obj, const OSSL_PARAM abs[], \
			     int sel, OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg) \
{ (void)cb; (void)cbarg; return mldsa_text(c, out, obj, abs, sel, T); }	\
static const OSSL_DISPATCH sym##_text_fns[] = {					\
	{ OSSL_FUNC_ENCODER_NEWCTX, (void (*)(void))enew },			\
	{ OSSL_FUNC_ENCODER_FREECTX, (void (*)(void))efree },			\
	{ OSSL_FUNC_ENCODER_ENCODE, (void (*)(void))sym##_text_encode },	\
	{ 0, NULL }								\
};
TEXTENC(mldsa44, RK_MLDSA44)
TEXTENC(mldsa65, RK_MLDSA65)
TEXTENC(mldsa87, RK_MLDSA87)

#define P8DER RIND_PROPS ",output=der,structure=PrivateKeyInfo"
#define P8PEM RIND_PROPS ",output=pem,structure=PrivateKeyInfo"
#define SPKIDER RIND_PROPS ",output=der,structure=SubjectPublicKeyInfo"
#define SPKIPEM RIND_PROPS ",output=pem,structure=SubjectPublicKeyInfo"
#define ENTRIES(name, t)						\
	{ name, P8DER, t##_p8der_enc_fns, "PKCS#8 DER (rind)" },	\
	{ name, P8PEM, t##_p8pem_enc_fns, "PKCS#8 PEM (rind)" },	\
	{ name, SPKIDER, t##_spkider_enc_fns, "SPKI DER (rind)" },	\
	{ name, SPKIPEM, t##_spkipem_enc_fns, "SPKI PEM (rind)" }

const OSSL_ALGORITHM rind_encoders[] = {
	ENTRIES("ED25519:1.3.101.112", ed25519),
	ENTRIES("X25519:1.3.101.110", x25519),
	ENTRIES("EC:id-ecPublicKey:1.2.840.10045.2.1", ec),
	ENTRIES("RSA:rsaEncryption:1.2.840.113549.1.1.1", rsa),
	ENTRIES(RK_MLDSA44_NAMES, mldsa44),
	ENTRIES(RK_MLDSA65_NAMES, mldsa65),
	ENTRIES(RK_MLDSA87_NAMES, mldsa87),
	{ RK_MLDSA44_NAMES, RIND_PROPS ",output=text", mldsa44_text_fns, "ML-DSA-44 as text (rind)" },
	{ RK_MLDSA65_NAMES, RIND_PROPS ",output=text", mldsa65_text_fns, "ML-DSA-65 as text (rind)" },
	{ RK_MLDSA87_NAMES, RIND_PROPS ",output=text", mldsa87_text_fns, "ML-DSA-87 as text (rind)" },
	{ NULL, NULL, NULL, NULL }
};
