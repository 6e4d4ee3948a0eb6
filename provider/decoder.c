// SPDX-License-Identifier: MIT
/*
 * Decoders: PEM to DER (the PEM labels "PRIVATE KEY", "PUBLIC KEY" and
 * rind's "RIND KEY REFERENCE"), and DER PrivateKeyInfo /
 * SubjectPublicKeyInfo to Ed25519, X25519, EC, RSA and ML-DSA keys (librind
 * parses and checks them; ML-DSA's PKCS#8 in any of the IETF LAMPS
 * forms: seed, expanded key, both).  Input a decoder does not recognise is passed
 * over (success with no object), as the decoder chain expects.
 *
 * A rindd key reference is read by the PrivateKeyInfo decoder of its key's
 * type, not by decoders of its own: libcrypto pays for every registered
 * decoder each time it builds a decoder chain (once per certificate a TLS
 * client parses), and a key reference is what a program asking for a
 * private key reads in place of one.  PEM-to-DER hands its body on as
 * structure "PrivateKeyInfo" with the type its public key names, so only
 * that type's PrivateKeyInfo decoders see it; OpenSSL's own pass over it
 * (a text, not a DER SEQUENCE), rind's tell it from PKCS#8 by its first
 * line.  A block that says it is a key reference but is malformed fails
 * the decoding with the reason, rather than being passed over.
 */
#include <stdlib.h>
#include <string.h>
#include "key.h"

/*
 * A decoder context holds nothing but the provider's context, so it is
 * that context itself: libcrypto makes and frees a context for each
 * decoder it considers while building a decoder chain (several per TLS
 * client handshake, and per decoder chain of any key read), and an
 * allocation each time bought nothing.
 */
static void *dnew(void *provctx) { return provctx; }
static void dfree(void *c) { (void)c; }

/* All of the input (keys are small: at most 1 MiB). */
static uint8_t *read_all(OSSL_CORE_BIO *in, size_t *len)
{
	size_t cap = 4096, n = 0, r;
	uint8_t *buf = malloc(cap), *p;

	if (!buf || !rind_core.bio_read_ex)
		goto fail;
	for (;;) {
		if (n == cap) {
			if (cap >= (1u << 20) || !(p = realloc(buf, cap * 2)))
				goto fail;
			buf = p;
			cap *= 2;
		}
		r = 0;
		if (!rind_core.bio_read_ex(in, buf + n, cap - n, &r) || r == 0)
			break;
		n += r;
	}
	*len = n;
	return buf;
fail:
	free(buf);
	return NULL;
}

static int b64val(int c)
{
	if (c >= 'A' && c <= 'Z') return c - 'A';
	if (c >= 'a' && c <= 'z') return c - 'a' + 26;
	if (c >= '0' && c <= '9') return c - '0' + 52;
	if (c == '+') return 62;
	if (c == '/') return 63;
	return -1;
}

static size_t b64dec(const char *s, size_t n, uint8_t *out)
{
	unsigned int acc = 0, bits = 0;
	size_t o = 0, i;

	for (i = 0; i < n; i++) {
		int v = b64val((unsigned char)s[i]);

		if (v < 0)
			continue;	/* line breaks, padding */
		acc = acc << 6 | (unsigned int)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (uint8_t)(acc >> bits);
		}
	}
	return o;
}

static void *memmem_s(const void *h, size_t hn, const char *n)
{
	return memmem(h, hn, n, strlen(n));
}

static const struct { const char *label, *structure; int ref; } labels[] = {
	{ "PRIVATE KEY", "PrivateKeyInfo", 0 },
	{ "PUBLIC KEY", "SubjectPublicKeyInfo", 0 },
	{ "RIND KEY REFERENCE", "PrivateKeyInfo", 1 },
};

/*
 * A key reference's key type, from its public key's algorithm OID, or -1
 * with an error raised: a block labelled as a key reference that does
 * not parse, or names no key type rindd signs with.
 */
static int keyref_type(void *provctx, const uint8_t *body, size_t len)
{
	struct rind_keyref r;
	const char *why;
	int t;

	if (rind_keyref_parse(body, len, &r, &why)) {
		rind_raise(provctx, RIND_R_FAIL, "malformed rind key reference: %s", why);
		return -1;
	}
	t = der_spki_type(r.spki, r.spkilen);
	if (t < 0 || t == RK_X25519)
		rind_raise(provctx, RIND_R_FAIL, "rind key reference %s: %s", r.name,
			   t < 0 ? "its spki is not a public key of a type rind knows" : "X25519 keys do not sign");
	rind_keyref_clear(&r);
	return t == RK_X25519 ? -1 : t;
}

static int pem2der(void *provctx, OSSL_CORE_BIO *in, int selection, OSSL_CALLBACK *cb, void *cbarg,
		   OSSL_PASSPHRASE_CALLBACK *pw, void *pwarg)
{
	size_t len, off = 0;
	uint8_t *buf = read_all(in, &len);
	int ret = 1;

	(void)selection; (void)pw; (void)pwarg;
	if (!buf)
		return 1;
	/* the first block with a label this provider knows */
	while (off < len) {
		char *b = memmem_s(buf + off, len - off, "-----BEGIN "), *e, *end;
		size_t i;

		if (!b)
			break;
		b += 11;
		e = memmem_s(b, len - (size_t)(b - (char *)buf), "-----");
		if (!e)
			break;
		off = (size_t)(e - (char *)buf) + 5;
		for (i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
			size_t ll = strlen(labels[i].label);
			uint8_t *der;
			size_t dlen;

			if ((size_t)(e - b) != ll || memcmp(b, labels[i].label, ll))
				continue;
			end = memmem_s(e, len - (size_t)(e - (char *)buf), "-----END ");
			if (!end)
				goto out;
			der = malloc((size_t)(end - e));
			if (!der)
				goto out;
			dlen = b64dec(e + 5, (size_t)(end - e - 5), der);
			{
				int t = labels[i].ref ? keyref_type(provctx, der, dlen) : RK_NTYPES;
				OSSL_PARAM p[] = {
					{ OSSL_OBJECT_PARAM_DATA, OSSL_PARAM_OCTET_STRING, der, dlen, 0 },
					{ OSSL_OBJECT_PARAM_DATA_STRUCTURE, OSSL_PARAM_UTF8_STRING,
					  (void *)labels[i].structure, strlen(labels[i].structure), 0 },
					{ NULL, 0, NULL, 0, 0 },
					{ NULL, 0, NULL, 0, 0 }
				};

				if (t >= 0 && t < RK_NTYPES)
					p[2] = (OSSL_PARAM){ OSSL_OBJECT_PARAM_DATA_TYPE, OSSL_PARAM_UTF8_STRING,
							     (void *)rk_type_name[t], strlen(rk_type_name[t]), 0 };
				ret = t >= 0 ? cb(p, cbarg) : 0;
			}
			rind_clear_free(der, (size_t)(end - e));
			goto out;
		}
	}
out:
	rind_clear_free(buf, len);
	return ret;
}

/*
 * A key reference given to @type's PrivateKeyInfo decoder: 1 with *out set
 * (the key, or NULL: a reference to another type's key, passed over), 0
 * with an error raised (malformed; or its public key does not decode).
 */
static int keyref_key(void *provctx, enum rk_type type, const uint8_t *buf, size_t len, struct rkey **out)
{
	struct rind_keyref r;
	const char *why;
	int t, err;

	*out = NULL;
	if (rind_keyref_parse(buf, len, &r, &why)) {
		rind_raise(provctx, RIND_R_FAIL, "malformed rind key reference: %s", why);
		return 0;
	}
	t = der_spki_type(r.spki, r.spkilen);
	if (t != (int)type || t == RK_X25519) {
		if (t < 0)
			rind_raise(provctx, RIND_R_FAIL, "rind key reference %s: %s", r.name,
				   "its spki is not a public key of a type rind knows");
		rind_keyref_clear(&r);
		return t >= 0;
	}
	err = rind_remote_key(provctx, r.name, r.sock, r.spki, r.spkilen, (int)type, out);
	if (err)
		rind_raise(provctx, RIND_R_FAIL, "rind key reference %s: its %s public key does not decode (%d)",
			   r.name, rk_type_name[type], err);
	else
		RTRACE("key reference %s (socket %s): %s", r.name, r.sock ? r.sock : "default", rk_type_name[type]);
	rind_keyref_clear(&r);
	return !err;
}

static int der2key(void *provctx, enum rk_type type, int structure, OSSL_CORE_BIO *in, int selection,
		   OSSL_CALLBACK *cb, void *cbarg)
{
	size_t len;
	uint8_t *buf = read_all(in, &len);
	struct rkey *k = NULL;
	int ret = 1, err = 0, ref = 0;

	(void)selection;
	if (!buf)
		return 1;
	if (structure == 0 && rind_keyref_is(buf, len)) {
		ref = 1;
		ret = keyref_key(provctx, type, buf, len, &k);
		if (!k)
			goto out;
	} else {
		k = rk_new(provctx, type);
		if (!k)
			goto out;
		err = structure == 0 ? rk_set_priv_der(k, buf, len) : rk_set_pub_der(k, buf, len);
	}
	if (!err) {
		int otype = OSSL_OBJECT_PKEY;
		OSSL_PARAM p[] = {
			{ OSSL_OBJECT_PARAM_TYPE, OSSL_PARAM_INTEGER, &otype, sizeof(otype), 0 },
			{ OSSL_OBJECT_PARAM_DATA_TYPE, OSSL_PARAM_UTF8_STRING, (void *)rk_type_name[type],
			  strlen(rk_type_name[type]), 0 },
			{ OSSL_OBJECT_PARAM_REFERENCE, OSSL_PARAM_OCTET_STRING, &k, sizeof(k), 0 },
			{ NULL, 0, NULL, 0, 0 }
		};

		RTRACE("decode %s %s", rk_type_name[type],
		       ref ? "rind key reference" : structure == 0 ? "PrivateKeyInfo" : "SubjectPublicKeyInfo");
		ret = cb(p, cbarg);
	}
out:
	rk_free(k);	/* NULL when the key management took it */
	rind_clear_free(buf, len);
	return ret;
}

static int export_object(void *vc, const void *ref, size_t ref_sz, OSSL_CALLBACK *cb, void *cbarg)
{
	(void)vc;
	if (ref_sz != RK_REF_SIZE)
		return 0;
	return rk_export(*(struct rkey *const *)ref, OSSL_KEYMGMT_SELECT_ALL, cb, cbarg);
}

static int pem_does(void *pc, int sel) { (void)pc; (void)sel; return 1; }

static const OSSL_DISPATCH pem2der_fns[] = {
	{ OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))dnew },
	{ OSSL_FUNC_DECODER_FREECTX, (void (*)(void))dfree },
	{ OSSL_FUNC_DECODER_DOES_SELECTION, (void (*)(void))pem_does },
	{ OSSL_FUNC_DECODER_DECODE, (void (*)(void))pem2der },
	{ 0, NULL }
};

/*
 * Which selections a DER-to-key decoder serves.  SubjectPublicKeyInfo
 * only public keys; PrivateKeyInfo and the key reference (a handle on a
 * private key) only selections asking for the private key, as OpenSSL's
 * own decoders do.  A decoder that claims a selection is put into every
 * decoder chain built for it: libcrypto builds one for each certificate's
 * public key it parses (d2i_X509, the peer's certificate in every TLS
 * handshake), and each decoder more in that chain costs some 36k
 * instructions of chain building there (callgrind, tests/provider/opcost.c
 * hs): PKCS#8 and reference decoders there were 14 of rind's 22 and only
 * passed over the public key.  (The key references have since no
 * decoders of their own: the PKCS#8 ones read them, see the top.)
 */
static int der2key_does(int structure, int sel)
{
	if (structure == 1)
		return (sel & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0;
	return (sel & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
}

#define DEC(sym, T, structure)							\
static int sym##_decode(void *c, OSSL_CORE_BIO *in, int sel, OSSL_CALLBACK *cb, void *cbarg, \
			OSSL_PASSPHRASE_CALLBACK *pw, void *pwarg)		\
{ (void)pw; (void)pwarg; return der2key(c, T, structure, in, sel, cb, cbarg); }	\
static int sym##_does(void *pc, int sel) { (void)pc; return der2key_does(structure, sel); } \
static const OSSL_DISPATCH sym##_dec_fns[] = {					\
	{ OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))dnew },			\
	{ OSSL_FUNC_DECODER_FREECTX, (void (*)(void))dfree },			\
	{ OSSL_FUNC_DECODER_DOES_SELECTION, (void (*)(void))sym##_does },	\
	{ OSSL_FUNC_DECODER_DECODE, (void (*)(void))sym##_decode },		\
	{ OSSL_FUNC_DECODER_EXPORT_OBJECT, (void (*)(void))export_object },	\
	{ 0, NULL }								\
};

#define DEC2(t, T)		\
	DEC(t##_p8, T, 0)	\
	DEC(t##_spki, T, 1)
DEC2(ed25519, RK_ED25519)
DEC2(x25519, RK_X25519)
DEC2(ec, RK_EC)
DEC2(rsa, RK_RSA)
DEC2(mldsa44, RK_MLDSA44)
DEC2(mldsa65, RK_MLDSA65)
DEC2(mldsa87, RK_MLDSA87)

#define P8 RIND_PROPS ",input=der,structure=PrivateKeyInfo"
#define SPKI RIND_PROPS ",input=der,structure=SubjectPublicKeyInfo"
#define ENTRIES(name, t)						\
	{ name, P8, t##_p8_dec_fns, "PKCS#8 DER or rindd key reference to key (rind)" }, \
	{ name, SPKI, t##_spki_dec_fns, "SPKI DER to key (rind)" }

const OSSL_ALGORITHM rind_decoders[] = {
	{ "DER", RIND_PROPS ",input=pem", pem2der_fns, "PEM to DER (rind)" },
	ENTRIES("ED25519:1.3.101.112", ed25519),
	ENTRIES("X25519:1.3.101.110", x25519),
	ENTRIES("EC:id-ecPublicKey:1.2.840.10045.2.1", ec),
	ENTRIES("RSA:rsaEncryption:1.2.840.113549.1.1.1", rsa),
	ENTRIES(RK_MLDSA44_NAMES, mldsa44),
	ENTRIES(RK_MLDSA65_NAMES, mldsa65),
	ENTRIES(RK_MLDSA87_NAMES, mldsa87),
	{ NULL, NULL, NULL, NULL }
};
