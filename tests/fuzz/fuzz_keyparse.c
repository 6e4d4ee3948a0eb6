// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: every key reader fed arbitrary bytes.  They must not
 * crash, leak or read out of bounds, and whatever they accept must
 * re-encode consistently.
 *
 * Input: [0] % 14 picks the reader, [1] is a parameter, the rest is the
 * bytes read (each time copied to an exact-size heap buffer).
 *
 *   0  DER (internal/keyfmt.h): walk every element with rind_der_get_any,
 *      entering constructed ones, and write the same tree back with
 *      rind_derw: an accepted input is DER, so the writing must give the
 *      input back byte for byte.  INTEGER, OID, BIT STRING and NULL
 *      elements also go through their typed readers, and what those
 *      accept must re-encode (rind_derw_uint/_ulong/_oid/_bitstring/_null)
 *      to the same element.
 *   1  SubjectPublicKeyInfo: decode, encode: identical.
 *   2  PKCS#8: decode, encode, decode: the same fields; identical bytes
 *      when the input had no attributes and its version matches the
 *      presence of the public key (what the encoder writes).
 *   3  SEC1 ECPrivateKey: decode, encode: identical.
 *   4  base64 ([1] & 3: URL alphabet, no padding): an accepted input
 *      re-encodes to itself (strict decoding); a buffer one byte short
 *      is -ENOSPC.
 *   5  PEM ([1] % 4: any label, "PUBLIC KEY", "PRIVATE KEY", "EC PRIVATE
 *      KEY"): the label points inside the input; armoring the DER again
 *      and decoding gives the same DER and label.
 *   6  JSON objects: members point inside the input, names are unique,
 *      rind_json_get finds each; "x" and "d" through rind_json_get_b64url.
 *   7  OKP public key ([1] & 1: X25519 / Ed25519) import, then export in
 *      every format and import again: the same key, the same encodings.
 *   8  OKP private key, the same.
 *   9  crypto_sig_set_privkey of every registered sig implementation ([1]
 *      picks it), 10 crypto_sig_set_pubkey; 11 crypto_kpp_set_secret of
 *      every kpp, and compute_shared_secret with the input as the peer's
 *      (possibly encoded) public key; 12 crypto_kem_set_privkey/_pubkey
 *      of every kem, 13 crypto_akcipher_set_priv_key/_pub_key of every
 *      akcipher ([1] bit 7: the public key; bits 0-6 the implementation).
 *      An accepted key must export in every format it has, each export
 *      must load into a fresh tfm as the same key (same export, same
 *      public key), and the key must work: a signature verifies under
 *      the exported public key, an encapsulation to it decapsulates.  An
 *      accepted PKCS#8 (v1) or SPKI, DER or PEM, must also be read by
 *      OpenSSL as the same public key (EVP_PKEY_eq against rind's SPKI
 *      export); not PKCS#8 v2 (RFC 5958, with the public key), which
 *      OpenSSL 3.0 does not read, nor the algorithm-specific forms (raw,
 *      PKCS#1, SEC1) whose algorithm only the tfm knows.
 *      For curve25519, an encoded peer key must give the same secret as
 *      the key imported separately and used raw.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <rind/crypto.h>
#include <rind/akcipher.h>
#include <rind/internal/keyfmt.h>

#define FUZZ_NAME	"fuzz_keyparse"
#define MAXIMPL		64
#define EXPORT_MAX	16384

#include "fuzz_common.h"

/* ---- implementations ----------------------------------------------------- */

/* Every public-key tfm type that reads keys. */
enum { T_SIG, T_KPP, T_KEM, T_AKCIPHER, T_COUNT };
static const char *const type_names[T_COUNT] = { "sig", "kpp", "kem", "akcipher" };

struct impl {
	char driver[CRYPTO_MAX_ALG_NAME];
	char name[CRYPTO_MAX_ALG_NAME];
	void *tfm[2];		/* the key is read into [0], exports reloaded into [1] */
};

struct impl_list {
	int n;
	struct impl v[MAXIMPL];
};

static struct impl_list lists[T_COUNT];

static int collect(const struct rind_alg_info *info, void *p)
{
	struct impl_list *l = NULL;
	int i;

	(void)p;
	if (info->selftest < 0)
		return 0;
	for (i = 0; i < T_COUNT; i++)
		if (!strcmp(info->type, type_names[i]))
			l = &lists[i];
	if (!l)
		return 0;
	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].driver, info->driver))
			return 0;
	if (l->n < MAXIMPL) {
		snprintf(l->v[l->n].driver, CRYPTO_MAX_ALG_NAME, "%s", info->driver);
		snprintf(l->v[l->n].name, CRYPTO_MAX_ALG_NAME, "%s", info->name);
		l->n++;
	}
	return 0;
}

static void *alloc_tfm(int type, const char *driver)
{
	void *t;

	switch (type) {
	case T_SIG:
		t = crypto_alloc_sig(driver, 0, 0);
		break;
	case T_KPP:
		t = crypto_alloc_kpp(driver, 0, 0);
		break;
	case T_KEM:
		t = crypto_alloc_kem(driver, 0, 0);
		break;
	default:
		t = crypto_alloc_akcipher(driver, 0, 0);
		break;
	}
	if (IS_ERR(t)) {
		fprintf(stderr, "fuzz_keyparse: cannot allocate %s (%ld)\n", driver, PTR_ERR(t));
		abort();
	}
	return t;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int type, i, j;

	(void)argc;
	(void)argv;
	(void)crypto_has_alg("sha256", 0, 0);	/* the registry up */
	fuzz_instantiate_ecdsa();
	rind_alg_foreach(collect, NULL);
	for (type = 0; type < T_COUNT; type++) {
		struct impl_list *l = &lists[type];

		fprintf(stderr, "fuzz_keyparse: %s:", type_names[type]);
		for (i = 0; i < l->n; i++) {
			fprintf(stderr, " %s", l->v[i].driver);
			for (j = 0; j < 2; j++)
				l->v[i].tfm[j] = alloc_tfm(type, l->v[i].driver);
		}
		fprintf(stderr, "\n");
	}
	if (!lists[T_SIG].n || !lists[T_KPP].n)
		abort();
	return 0;
}

static int within(const void *p, size_t n, const uint8_t *base, size_t len)
{
	const uint8_t *q = p;

	return q >= base && q <= base + len && n <= (size_t)(base + len - q);
}

/* ---- 0: DER --------------------------------------------------------------- */

/* Re-encode one primitive element through its typed reader, if it has one. */
static void der_typed(const struct rind_der *at, uint8_t tag, const uint8_t *tlv, size_t tlvlen)
{
	struct rind_der d = *at;
	struct rind_derw w;
	uint8_t out[4096];
	const uint8_t *v;
	size_t l;
	unsigned long ul;
	enum rind_oid oid;
	int n, ok = 0;

	if (tlvlen > sizeof(out))
		return;
	rind_derw_init(&w, out, sizeof(out));
	switch (tag) {
	case DER_INTEGER:
		if (!rind_der_get_uint(&d, &v, &l)) {
			if (!within(v, l, tlv, tlvlen))
				FAIL("INTEGER magnitude outside its element");
			rind_derw_uint(&w, v, l);
			ok = 1;
		}
		d = *at;
		if (!rind_der_get_ulong(&d, &ul)) {
			struct rind_derw w2;
			uint8_t out2[16];

			rind_derw_init(&w2, out2, sizeof(out2));
			rind_derw_ulong(&w2, ul);
			n = rind_derw_finish(&w2);
			if (n != (int)tlvlen || memcmp(out2, tlv, tlvlen))
				FAIL("INTEGER %lu re-encodes differently", ul);
		}
		break;
	case DER_OID:
		if (!rind_der_get_oid(&d, &oid) && oid != RIND_OID_NONE) {
			size_t ol;
			const uint8_t *o = rind_oid_der(oid, &ol);

			if (!o || ol + 2 != tlvlen || memcmp(o, tlv + 2, ol))
				FAIL("OID %s maps to a different encoding", rind_oid_name(oid));
			rind_derw_oid(&w, oid);
			ok = 1;
		}
		break;
	case DER_BIT_STRING:
		if (!rind_der_get_bitstring(&d, &v, &l)) {
			if (!within(v, l, tlv, tlvlen))
				FAIL("BIT STRING contents outside its element");
			rind_derw_bitstring(&w, v, l);
			ok = 1;
		}
		break;
	case DER_NULL:
		if (!rind_der_get_null(&d)) {
			rind_derw_null(&w);
			ok = 1;
		}
		break;
	default:
		return;
	}
	if (!ok)
		return;
	n = rind_derw_finish(&w);
	if (n != (int)tlvlen || memcmp(out, tlv, tlvlen))
		FAIL("element with tag %#x does not re-encode to itself (%d vs %zu bytes)",
		     tag, n, tlvlen);
}

static int der_walk(struct rind_der *d, struct rind_derw *w, const uint8_t *base, size_t blen,
		    unsigned int depth)
{
	while (!rind_der_empty(d)) {
		struct rind_der at = *d, inner;
		const uint8_t *val, *tlv;
		size_t len, tlvlen;
		uint8_t tag;
		int peek = rind_der_peek(d);

		if (rind_der_get_any(d, &tag, &val, &len, &tlv, &tlvlen))
			return -1;
		if (peek != tag)
			FAIL("peek %d, get_any tag %#x", peek, tag);
		if (!within(tlv, tlvlen, base, blen) || !within(val, len, tlv, tlvlen) ||
		    val + len != tlv + tlvlen || tlv != at.p)
			FAIL("element pointers outside the input");
		if ((tag & 0x20) && depth + 1 < RIND_DERW_MAX_DEPTH) {
			rind_der_init(&inner, val, len);
			rind_derw_begin(w, tag);
			if (der_walk(&inner, w, base, blen, depth + 1))
				return -1;
			rind_derw_end(w);
			/* rind_der_enter must see the same contents. */
			if (rind_der_enter(&at, tag, &inner) || inner.p != val ||
			    inner.end != val + len)
				FAIL("rind_der_enter disagrees with rind_der_get_any");
		} else {
			rind_derw_tlv(w, tag, val, len);
			der_typed(&at, tag, tlv, tlvlen);
		}
	}
	return 0;
}

static void fuzz_der(const uint8_t *in, size_t len)
{
	struct rind_der d;
	struct rind_derw w, wc;
	uint8_t *out = malloc(len + 16);
	int n;

	if (!out)
		abort();
	cur_alg = "der";
	rind_der_init(&d, in, len);
	rind_derw_init(&w, out, len + 16);
	rind_derw_init(&wc, NULL, 0);
	if (!der_walk(&d, &w, in, len, 0)) {
		n = rind_derw_finish(&w);
		if (n != (int)len || memcmp(out, in, len))
			FAIL("accepted input re-encodes to %d bytes, not the %zu read", n, len);
		/* And counting mode agrees. */
		rind_der_init(&d, in, len);
		if (der_walk(&d, &wc, in, len, 0) || rind_derw_finish(&wc) != (int)len)
			FAIL("counting writer disagrees");
	}
	{
		const uint8_t *v;
		size_t vl;

		if (!rind_der_parse_one(in, len, DER_SEQUENCE, &v, &vl) && !within(v, vl, in, len))
			FAIL("rind_der_parse_one contents outside the input");
	}
	(void)rind_key_detect(in, len, 0);
	(void)rind_key_detect(in, len, 32);
	free(out);
}

/* ---- 1-3: containers ------------------------------------------------------ */

static void fuzz_spki(const uint8_t *in, size_t len)
{
	struct rind_spki s;
	uint8_t *out;
	int n;

	cur_alg = "spki";
	if (rind_spki_decode(in, len, &s))
		return;
	if (!within(s.key, s.keylen, in, len) || (s.params && !within(s.params, s.params_len, in, len)))
		FAIL("decoded pointers outside the input");
	out = malloc(len);
	if (!out)
		abort();
	n = rind_spki_encode(&s, out, len);
	if (n != (int)len || memcmp(out, in, len))
		FAIL("re-encodes to %d bytes differently (input %zu)", n, len);
	if (len && rind_spki_encode(&s, out, len - 1) != -ENOSPC)
		FAIL("a one byte short buffer is not -ENOSPC");
	if (rind_spki_encode(&s, NULL, 0) != (int)len)
		FAIL("counting mode gives another length");
	free(out);
}

static int pkcs8_has_attributes(const uint8_t *in, size_t len)
{
	struct rind_der d, s;
	const uint8_t *v;
	size_t l;
	uint8_t tag;
	int i;

	rind_der_init(&d, in, len);
	if (rind_der_enter(&d, DER_SEQUENCE, &s))
		return 0;
	for (i = 0; i < 3; i++)
		if (rind_der_get_any(&s, &tag, &v, &l, NULL, NULL))
			return 0;
	return rind_der_peek(&s) == DER_CTX_CONS(0);
}

static void fuzz_pkcs8(const uint8_t *in, size_t len)
{
	struct rind_pkcs8 p, q;
	uint8_t *out;
	int n;

	cur_alg = "pkcs8";
	if (rind_pkcs8_decode(in, len, &p))
		return;
	if (p.version > 1 || !within(p.privkey, p.privkey_len, in, len) ||
	    (p.pubkey && !within(p.pubkey, p.pubkey_len, in, len)) ||
	    (p.params && !within(p.params, p.params_len, in, len)))
		FAIL("decoded fields outside the input or bad version");
	n = rind_pkcs8_encode(&p, NULL, 0);
	if (n < 0)
		FAIL("counting encode = %d", n);
	out = malloc((size_t)n + 1);
	if (!out)
		abort();
	if (rind_pkcs8_encode(&p, out, (size_t)n) != n)
		FAIL("encode disagrees with its count");
	if (rind_pkcs8_decode(out, (size_t)n, &q))
		FAIL("its own encoding does not decode");
	if (q.alg != p.alg || q.curve != p.curve || q.params_len != p.params_len ||
	    (p.params && memcmp(q.params, p.params, p.params_len)) ||
	    q.privkey_len != p.privkey_len || memcmp(q.privkey, p.privkey, p.privkey_len) ||
	    !q.pubkey != !p.pubkey ||
	    (p.pubkey && (q.pubkey_len != p.pubkey_len || memcmp(q.pubkey, p.pubkey, p.pubkey_len))))
		FAIL("fields change across encode and decode");
	if (!pkcs8_has_attributes(in, len) && (p.version == 1) == !!p.pubkey &&
	    (n != (int)len || memcmp(out, in, len)))
		FAIL("re-encodes differently (%d vs %zu bytes)", n, len);
	free(out);
}

static void fuzz_ecpriv(const uint8_t *in, size_t len)
{
	struct rind_ec_privkey k;
	uint8_t *out;
	int n;

	cur_alg = "ec privkey";
	if (rind_ec_privkey_decode(in, len, &k))
		return;
	if (!within(k.d, k.dlen, in, len) || (k.pub && !within(k.pub, k.publen, in, len)))
		FAIL("decoded fields outside the input");
	out = malloc(len + 1);
	if (!out)
		abort();
	n = rind_ec_privkey_encode(&k, out, len);
	if (n != (int)len || memcmp(out, in, len))
		FAIL("re-encodes differently (%d vs %zu bytes)", n, len);
	free(out);
}

/* ---- 4-6: base64, PEM, JSON ------------------------------------------------ */

static void fuzz_base64(const uint8_t *in, size_t len, int flags)
{
	size_t cap = rind_base64_decoded_max(len);
	uint8_t *out = malloc(cap + 1);
	char *enc;
	int n, m;

	cur_alg = "base64";
	if (!out)
		abort();
	n = rind_base64_decode((const char *)in, len, out, cap, flags);
	if (n < 0) {
		if (n != -EKEYREJECTED)
			FAIL("decode = %d with a big enough buffer", n);
		free(out);
		return;
	}
	if ((size_t)n > cap)
		FAIL("decoded %d bytes, more than the maximum %zu", n, cap);
	if (n) {
		uint8_t *shortbuf = malloc((size_t)n - 1 ? (size_t)n - 1 : 1);

		if (!shortbuf)
			abort();
		if (rind_base64_decode((const char *)in, len, shortbuf, (size_t)n - 1,
				       flags) != -ENOSPC)
			FAIL("one byte short of room is not -ENOSPC");
		free(shortbuf);
	}
	enc = malloc(len + 1);
	if (!enc)
		abort();
	m = rind_base64_encode(out, (size_t)n, enc, len, flags);
	if (m != (int)len || memcmp(enc, in, len))
		FAIL("%d decoded bytes re-encode to %d characters, not the input's %zu", n, m, len);
	if (rind_base64_encoded_len((size_t)n, flags) != len)
		FAIL("encoded_len disagrees");
	free(enc);
	free(out);
}

static void fuzz_pem(const uint8_t *in, size_t len, int which)
{
	static const char *const labels[4] = {
		NULL, RIND_PEM_PUBLIC_KEY, RIND_PEM_PRIVATE_KEY, RIND_PEM_EC_PRIVATE_KEY,
	};
	const char *lab = NULL, *lab2 = NULL;
	size_t lablen = 0, lablen2 = 0, cap = len + 16;
	uint8_t *der = malloc(cap), *der2 = malloc(cap);
	char *label, *armor;
	int n, n2, alen;

	cur_alg = "pem";
	if (!der || !der2)
		abort();
	n = rind_pem_decode((const char *)in, len, labels[which], &lab, &lablen, der, cap);
	if (n < 0) {
		free(der);
		free(der2);
		return;
	}
	if ((size_t)n > len || !within(lab, lablen, in, len) || !lablen)
		FAIL("decoded %d bytes, label outside the input", n);
	if (labels[which] && (lablen != strlen(labels[which]) || memcmp(lab, labels[which], lablen)))
		FAIL("label does not match the one asked for");
	label = malloc(lablen + 1);
	if (!label)
		abort();
	memcpy(label, lab, lablen);
	label[lablen] = 0;
	alen = rind_pem_encode(label, der, (size_t)n, NULL, 0);
	if (alen < 0)
		FAIL("rind_pem_encode count = %d", alen);
	armor = malloc((size_t)alen + 1);
	if (!armor)
		abort();
	if (rind_pem_encode(label, der, (size_t)n, armor, (size_t)alen) != alen)
		FAIL("rind_pem_encode disagrees with its count");
	n2 = rind_pem_decode(armor, (size_t)alen, label, &lab2, &lablen2, der2, cap);
	if (n2 != n || memcmp(der, der2, (size_t)n) || lablen2 != lablen ||
	    memcmp(lab2, label, lablen))
		FAIL("re-armored block decodes differently (%d vs %d bytes)", n2, n);
	free(armor);
	free(label);
	free(der);
	free(der2);
}

static void fuzz_json(const uint8_t *in, size_t len)
{
	struct rind_json_obj obj;
	uint8_t b[512];
	unsigned int i, j;

	cur_alg = "json";
	if (rind_json_parse((const char *)in, len, &obj))
		return;
	if (obj.n > RIND_JSON_MAX_MEMBERS)
		FAIL("%u members", obj.n);
	for (i = 0; i < obj.n; i++) {
		const struct rind_json_member *m = &obj.m[i];
		char name[64];

		if (!within(m->name, m->namelen, in, len) || !within(m->val, m->vallen, in, len))
			FAIL("member %u points outside the input", i);
		for (j = 0; j < i; j++)
			if (obj.m[j].namelen == m->namelen &&
			    !memcmp(obj.m[j].name, m->name, m->namelen))
				FAIL("duplicate member name accepted");
		if (m->namelen < sizeof(name) && !memchr(m->name, 0, m->namelen)) {
			memcpy(name, m->name, m->namelen);
			name[m->namelen] = 0;
			if (rind_json_get(&obj, name) != m)
				FAIL("rind_json_get does not find member %u", i);
		}
	}
	(void)rind_json_get_b64url(&obj, "x", b, 32, 1);
	(void)rind_json_get_b64url(&obj, "d", b, sizeof(b), 0);
	(void)rind_json_str_eq(&obj, "kty", "OKP");
}

/* ---- 7-8: OKP keys ---------------------------------------------------------- */

static const enum rind_key_format pub_fmts[4] = {
	RIND_KEY_RAW, RIND_KEY_SPKI_DER, RIND_KEY_PEM, RIND_KEY_JWK,
};
static const enum rind_key_format priv_fmts[4] = {
	RIND_KEY_RAW, RIND_KEY_PKCS8_DER, RIND_KEY_PEM, RIND_KEY_JWK,
};

static void fuzz_okp(const uint8_t *in, size_t len, int ed, int priv)
{
	const struct rind_okp_desc *desc = ed ? &rind_okp_ed25519 : &rind_okp_x25519;
	uint8_t key[32], pub[32], key2[32], pub2[32], *out = malloc(EXPORT_MAX), *out2;
	int has_pub = 0, has_pub2, err, n, i;

	cur_alg = priv ? "okp private" : "okp public";
	if (!out)
		abort();
	memset(pub, 0x5a, sizeof(pub));
	err = priv ? rind_okp_import_priv(desc, in, len, key, pub, &has_pub) :
		     rind_okp_import_pub(desc, in, len, key);
	if (err) {
		if (err != -EKEYREJECTED)
			FAIL("import = %d", err);
		free(out);
		return;
	}
	for (i = 0; i < 4; i++) {
		enum rind_key_format f = priv ? priv_fmts[i] : pub_fmts[i];

		n = priv ? rind_okp_export_priv(desc, f, key, pub, out, EXPORT_MAX) :
			   rind_okp_export_pub(desc, f, key, out, EXPORT_MAX);
		if (n < 0)
			FAIL("export in format %d = %d", f, n);
		out2 = fuzz_dup(out, (size_t)n);
		memset(pub2, 0xa5, sizeof(pub2));
		has_pub2 = 0;
		err = priv ? rind_okp_import_priv(desc, out2, (size_t)n, key2, pub2, &has_pub2) :
			     rind_okp_import_pub(desc, out2, (size_t)n, key2);
		if (err || memcmp(key, key2, 32))
			FAIL("format %d export does not import back (%d)", f, err);
		if (priv && f == RIND_KEY_JWK && (!has_pub2 || memcmp(pub, pub2, 32)))
			FAIL("JWK export lost the public key");
		free(out2);
	}
	free(out);
}

/* ---- 9-13: through the registry ----------------------------------------------- */

static int load_key(int type, struct impl *e, int t, int priv, const uint8_t *k, size_t n)
{
	uint8_t *c = fuzz_dup(k, n);
	unsigned int l = (unsigned int)n;
	int err;

	switch (type) {
	case T_SIG:
		err = priv ? crypto_sig_set_privkey(e->tfm[t], c, l) :
			     crypto_sig_set_pubkey(e->tfm[t], c, l);
		break;
	case T_KPP:
		err = priv ? crypto_kpp_set_secret(e->tfm[t], c, l) : -EOPNOTSUPP;
		break;
	case T_KEM:
		err = priv ? crypto_kem_set_privkey(e->tfm[t], c, l) :
			     crypto_kem_set_pubkey(e->tfm[t], c, l);
		break;
	default:
		err = priv ? crypto_akcipher_set_priv_key(e->tfm[t], c, l) :
			     crypto_akcipher_set_pub_key(e->tfm[t], c, l);
		break;
	}
	free(c);
	return err;
}

static int export_key(int type, struct impl *e, int t, int priv, enum rind_key_format f,
		      uint8_t *out)
{
	switch (type) {
	case T_SIG:
		return priv ? crypto_sig_export_privkey(e->tfm[t], f, out, EXPORT_MAX) :
			      crypto_sig_export_pubkey(e->tfm[t], f, out, EXPORT_MAX);
	case T_KPP:
		return priv ? crypto_kpp_export_privkey(e->tfm[t], f, out, EXPORT_MAX) :
			      crypto_kpp_export_pubkey(e->tfm[t], f, out, EXPORT_MAX);
	case T_KEM:
		return priv ? crypto_kem_export_privkey(e->tfm[t], f, out, EXPORT_MAX) :
			      crypto_kem_export_pubkey(e->tfm[t], f, out, EXPORT_MAX);
	default:
		return priv ? crypto_akcipher_export_privkey(e->tfm[t], f, out, EXPORT_MAX) :
			      crypto_akcipher_export_pubkey(e->tfm[t], f, out, EXPORT_MAX);
	}
}

/*
 * The DER of @in when it is a PKCS#8 v1 private key (@priv) or an SPKI,
 * as DER or PEM: the encodings that name their algorithm, which OpenSSL
 * must then read too.  (Not PKCS#8 v2, RFC 5958 with the public key,
 * which OpenSSL 3.0 does not read; not the algorithm-specific forms --
 * PKCS#1, SEC1 without parameters, raw -- whose meaning comes from the
 * tfm.)  Returns the length, or 0.
 */
static size_t self_describing_der(const uint8_t *in, size_t len, int priv, uint8_t *der)
{
	struct rind_pkcs8 p8;
	struct rind_spki spki;
	int n;

	if (rind_key_detect(in, len, 0) == RIND_KEY_PEM) {
		n = rind_pem_decode((const char *)in, len, NULL, NULL, NULL, der, len);
		if (n <= 0)
			return 0;
	} else {
		memcpy(der, in, len);
		n = (int)len;
	}
	if (priv)
		return !rind_pkcs8_decode(der, (size_t)n, &p8) && !p8.pubkey && p8.version == 0 ?
		       (size_t)n : 0;
	return !rind_spki_decode(der, (size_t)n, &spki) ? (size_t)n : 0;
}

/* OpenSSL must read what rind read, as the same public key as rind's SPKI export. */
static void cross_check_openssl(const uint8_t *in, size_t len, int priv, const uint8_t *spki,
				int spki_len)
{
	uint8_t *der = malloc(len + 1);
	const unsigned char *p = der, *q = spki;
	EVP_PKEY *theirs, *ours;
	size_t n;

	if (!der)
		abort();
	n = self_describing_der(in, len, priv, der);
	if (!n) {
		free(der);
		return;
	}
	theirs = priv ? d2i_AutoPrivateKey(NULL, &p, (long)n) : d2i_PUBKEY(NULL, &p, (long)n);
	if (!theirs)
		FAIL("rind accepted a %s key that OpenSSL refuses", priv ? "PKCS#8" : "SPKI");
	ours = d2i_PUBKEY(NULL, &q, spki_len);
	if (!ours)
		FAIL("OpenSSL cannot read rind's SPKI export of the key");
	if (EVP_PKEY_eq(theirs, ours) != 1)
		FAIL("OpenSSL reads another public key from it");
	EVP_PKEY_free(theirs);
	EVP_PKEY_free(ours);
	free(der);
}

/* The key in [0] works: sign/verify, encapsulate/decapsulate, encrypt/decrypt. */
static void use_key(int type, struct impl *e, const uint8_t *pub_raw, int pub_len)
{
	static const uint8_t msg[] = "fuzz_keyparse";

	if (type == T_SIG) {
		unsigned int max = crypto_sig_maxsize(e->tfm[0]);
		uint8_t *sig = malloc(max ? max : 1);
		int s, err;

		if (!sig)
			abort();
		s = crypto_sig_sign(e->tfm[0], msg, sizeof(msg), sig, max);
		if (s == -EOPNOTSUPP) {
			/* A key holder that signs nothing (the bare ecdsa-nist-pXXX). */
			free(sig);
			return;
		}
		if (s <= 0)
			FAIL("sign with the accepted key = %d", s);
		err = load_key(type, e, 1, 0, pub_raw, (size_t)pub_len);
		if (err || crypto_sig_verify(e->tfm[1], sig, (unsigned int)s, msg, sizeof(msg)))
			FAIL("its signature does not verify under its exported public key (%d)", err);
		free(sig);
	} else if (type == T_KEM) {
		unsigned int ctlen = crypto_kem_ciphertextsize(e->tfm[0]);
		unsigned int sslen = crypto_kem_sharedsecretsize(e->tfm[0]);
		uint8_t *ct = malloc(ctlen), ss1[256], ss2[256];
		int err;

		if (!ct || sslen > sizeof(ss1))
			abort();
		err = load_key(type, e, 1, 0, pub_raw, (size_t)pub_len);
		if (!err)
			err = crypto_kem_encapsulate(e->tfm[1], ct, ctlen, ss1, sslen);
		if (!err)
			err = crypto_kem_decapsulate(e->tfm[0], ct, ctlen, ss2, sslen);
		if (err || memcmp(ss1, ss2, sslen))
			FAIL("encapsulation to its exported public key does not decapsulate (%d)", err);
		free(ct);
	}
}

static void fuzz_registry(const uint8_t *in, size_t len, int type, int which, int priv)
{
	struct impl_list *l = &lists[type];
	struct impl *e;
	int err, n, m, k, spki_len, raw_len;
	uint8_t *pub_raw = malloc(EXPORT_MAX), *spki = malloc(EXPORT_MAX);
	uint8_t *ex = malloc(EXPORT_MAX), *ex2 = malloc(EXPORT_MAX);
	static char label[160];

	if (!pub_raw || !spki || !ex || !ex2)
		abort();
	if (!l->n || (type == T_KPP && (!priv || !len)))
		goto out;	/* (a NULL/0 kpp secret means "generate one") */
	e = &l->v[which % l->n];
	snprintf(label, sizeof(label), "%s %s", e->driver, priv ? "private key" : "public key");
	cur_alg = label;
	err = load_key(type, e, 0, priv, in, len);
	if (err) {
		if (err != -EKEYREJECTED && err != -EINVAL)
			FAIL("returned %d", err);
		goto out;
	}
	n = export_key(type, e, 0, 0, RIND_KEY_RAW, pub_raw);
	if (n <= 0)
		FAIL("accepted key has no raw public key (%d)", n);
	spki_len = export_key(type, e, 0, 0, RIND_KEY_SPKI_DER, spki);
	if (spki_len <= 0 && spki_len != -EINVAL)
		FAIL("SPKI export = %d", spki_len);
	raw_len = export_key(type, e, 0, priv, RIND_KEY_RAW, ex);
	/* (Input of the raw length is read as raw whatever it looks like.) */
	if (spki_len > 0 && type != T_KEM && len != (size_t)raw_len)
		cross_check_openssl(in, len, priv, spki, spki_len);
	for (k = 0; k < 4; k++) {
		enum rind_key_format f = priv ? priv_fmts[k] : pub_fmts[k];

		m = export_key(type, e, 0, priv, f, ex);
		if (m == -EINVAL)
			continue;	/* a format this key type lacks */
		if (m <= 0)
			FAIL("export in format %d = %d", f, m);
		err = load_key(type, e, 1, priv, ex, (size_t)m);
		if (err)
			FAIL("its format %d export does not load (%d)", f, err);
		if (export_key(type, e, 1, priv, f, ex2) != m || memcmp(ex, ex2, (size_t)m))
			FAIL("format %d export changes across a reload", f);
		if (export_key(type, e, 1, 0, RIND_KEY_RAW, ex2) != n || memcmp(ex2, pub_raw, (size_t)n))
			FAIL("format %d export reloads as another public key", f);
	}
	if (priv)
		use_key(type, e, pub_raw, n);
out:
	free(pub_raw);
	free(spki);
	free(ex);
	free(ex2);
}

/*
 * compute_shared_secret with the input as the peer's public key, which a
 * kpp may take encoded; for curve25519 it must agree with importing the
 * key separately and using it raw.
 */
static void fuzz_kpp_peer(const uint8_t *in, size_t len, int which)
{
	static const uint8_t secret[32] = { 0x70, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
					    16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
					    30, 0x41 };
	struct impl *e = &lists[T_KPP].v[which % lists[T_KPP].n];
	struct crypto_kpp *tfm = e->tfm[0];
	uint8_t *peer = fuzz_dup(in, len), ss[1024], ss2[1024], raw[32];
	unsigned int max = crypto_kpp_maxsize(tfm);
	struct scatterlist src, dst;
	struct kpp_request *req;
	int err, err2;

	cur_alg = "kpp encoded peer";
	if (max > sizeof(ss))
		abort();
	/* A fixed secret for curve25519, a generated one for the others. */
	err = strcmp(e->name, "curve25519") ? crypto_kpp_set_secret(tfm, NULL, 0) :
	      crypto_kpp_set_secret(tfm, secret, 32);
	if (err)
		FAIL("%s: set_secret = %d", e->driver, err);
	req = kpp_request_alloc(tfm, 0);
	if (!req)
		abort();
	sg_init_one(&src, peer, (unsigned int)len);
	sg_init_one(&dst, ss, max);
	kpp_request_set_input(req, &src, (unsigned int)len);
	kpp_request_set_output(req, &dst, max);
	err = crypto_kpp_compute_shared_secret(req);
	if (err > 0 || (!err && req->dst_len > max))
		FAIL("%s: compute_shared_secret = %d, %u bytes", e->driver, err, req->dst_len);
	if (!strcmp(e->name, "curve25519")) {
		err2 = len == 32 ? (memcpy(raw, in, 32), 0) :
		       rind_okp_import_pub(&rind_okp_x25519, peer, len, raw);
		if (!err2) {
			sg_init_one(&src, raw, 32);
			sg_init_one(&dst, ss2, 32);
			kpp_request_set_input(req, &src, 32);
			kpp_request_set_output(req, &dst, 32);
			err2 = crypto_kpp_compute_shared_secret(req);
		}
		if ((err == 0) != (err2 == 0) || (!err && memcmp(ss, ss2, 32)))
			FAIL("encoded peer %d, imported then raw %d", err, err2);
	}
	kpp_request_free(req);
	free(peer);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t sel = size > 0 ? data[0] : 0, par = size > 1 ? data[1] : 0;
	size_t len = size > 2 ? size - 2 : 0;
	uint8_t *in = fuzz_dup(data + (size - len), len);

	switch (sel % 14) {
	case 0:
		fuzz_der(in, len);
		break;
	case 1:
		fuzz_spki(in, len);
		break;
	case 2:
		fuzz_pkcs8(in, len);
		break;
	case 3:
		fuzz_ecpriv(in, len);
		break;
	case 4:
		fuzz_base64(in, len, par & 3);
		break;
	case 5:
		fuzz_pem(in, len, par % 4);
		break;
	case 6:
		fuzz_json(in, len);
		break;
	case 7:
		fuzz_okp(in, len, par & 1, 0);
		break;
	case 8:
		fuzz_okp(in, len, par & 1, 1);
		break;
	case 9:
		fuzz_registry(in, len, T_SIG, par, 1);
		break;
	case 10:
		fuzz_registry(in, len, T_SIG, par, 0);
		break;
	case 11:
		fuzz_registry(in, len, T_KPP, par, 1);
		fuzz_kpp_peer(in, len, par);
		break;
	case 12:
		fuzz_registry(in, len, T_KEM, par & 0x7f, !(par & 0x80));
		break;
	default:
		fuzz_registry(in, len, T_AKCIPHER, par & 0x7f, !(par & 0x80));
		break;
	}
	free(in);
	return 0;
}
