/* SPDX-License-Identifier: MIT */
/*
 * Key encodings for implementors of public-key algorithms (hidden symbols,
 * not part of the public API): a strict DER reader and writer, base64 and
 * base64url, PEM armor, a minimal JSON-object reader/writer for JWK, and
 * on top of them SubjectPublicKeyInfo, PKCS#8 (OneAsymmetricKey), SEC1
 * ECPrivateKey and whole-key import/export for algorithms whose keys are
 * fixed-size byte strings (X25519, Ed25519; RFC 8410 and RFC 8037).
 *
 * Conventions: every decoder refuses malformed input with -EKEYREJECTED
 * (including trailing bytes after the outermost element); every encoder
 * returns the number of bytes written, or -ENOSPC when the output buffer
 * is too small (nothing useful is left in it then), and writes nothing
 * past @outlen.  Encoders given out == NULL return the length they would
 * write.  Decoders return pointers into the caller's input (no copies),
 * except base64/PEM/JWK which decode into a caller buffer.
 *
 * Secrets: the base64 codecs use arithmetic (no secret-indexed tables, no
 * secret-dependent branches per character); PEM and JSON scanning branch
 * only on the armor's line structure and on string lengths; DER parsing
 * branches on tags, lengths, versions and OIDs only, which are public in
 * every format handled here.  In the valgrind constant-time build
 * (-DRIND_VALGRIND) exactly those public facts are declassified, so that
 * key bytes stay tracked as secret through import.
 */
#ifndef _RIND_INTERNAL_KEYFMT_H
#define _RIND_INTERNAL_KEYFMT_H

#include <rind/types.h>
#include <rind/keyformat.h>

/* ------------------------------------------------------------------ */
/* DER: tags                                                           */

#define DER_BOOLEAN		0x01
#define DER_INTEGER		0x02
#define DER_BIT_STRING		0x03
#define DER_OCTET_STRING	0x04
#define DER_NULL		0x05
#define DER_OID			0x06
#define DER_UTF8STRING		0x0c
#define DER_SEQUENCE		0x30
#define DER_SET			0x31
/* [n] EXPLICIT (constructed) and [n] IMPLICIT primitive context tags. */
#define DER_CTX_CONS(n)		(0xa0 | (n))
#define DER_CTX_PRIM(n)		(0x80 | (n))

/* ------------------------------------------------------------------ */
/* DER reader                                                          */

/*
 * A cursor over DER elements.  Only single-byte tags (tag numbers < 31)
 * and definite lengths are accepted; a length must be minimal (no 0x81
 * for < 128, no leading zero length bytes) and must fit the enclosing
 * element; lengths above 2^31 are refused.
 */
struct rind_der {
	const u8 *p;
	const u8 *end;
};

void rind_der_init(struct rind_der *d, const void *buf, size_t len);
/* 1 if every byte has been consumed. */
static inline int rind_der_empty(const struct rind_der *d)
{
	return d->p == d->end;
}
/* -EKEYREJECTED unless every byte has been consumed, else 0. */
int rind_der_finish(const struct rind_der *d);
/* The tag of the next element (without consuming it), or -1 at the end. */
int rind_der_peek(const struct rind_der *d);

/*
 * Read one element whose tag must be @tag: its contents in *val, *len.
 * -EKEYREJECTED on any other tag or a malformed header.
 */
int rind_der_get(struct rind_der *d, u8 tag, const u8 **val, size_t *len);
/*
 * As rind_der_get, but if the next element is not @tag (or there is none)
 * return 0 and consume nothing; 1 when read.
 */
int rind_der_get_optional(struct rind_der *d, u8 tag, const u8 **val, size_t *len);
/* Read any element: its tag, contents, and the whole TLV (*tlv, *tlvlen). */
int rind_der_get_any(struct rind_der *d, u8 *tag, const u8 **val, size_t *len,
		     const u8 **tlv, size_t *tlvlen);
/* Enter a constructed element (SEQUENCE, SET, [n]): *inner covers its contents. */
int rind_der_enter(struct rind_der *d, u8 tag, struct rind_der *inner);

/*
 * INTEGER, minimally encoded (no redundant leading 0x00/0xff), required
 * non-negative: *val, *len is the magnitude without the sign byte (for 0:
 * one byte 0x00).  Negative integers are -EKEYREJECTED.
 */
int rind_der_get_uint(struct rind_der *d, const u8 **val, size_t *len);
/* A non-negative INTEGER that fits an unsigned long (versions, small counts). */
int rind_der_get_ulong(struct rind_der *d, unsigned long *v);
/* BIT STRING with 0 unused bits: the bytes after the unused-bits octet. */
int rind_der_get_bitstring(struct rind_der *d, const u8 **val, size_t *len);
/* NULL (contents must be empty). */
int rind_der_get_null(struct rind_der *d);

/* Parse @buf as exactly one element @tag, no trailing bytes: its contents. */
int rind_der_parse_one(const void *buf, size_t len, u8 tag, const u8 **val, size_t *vlen);

/* ------------------------------------------------------------------ */
/* OIDs                                                                */

enum rind_oid {
	RIND_OID_NONE = 0,		/* absent / unknown */
	RIND_OID_X25519,		/* 1.3.101.110 */
	RIND_OID_X448,			/* 1.3.101.111 */
	RIND_OID_ED25519,		/* 1.3.101.112 */
	RIND_OID_ED448,			/* 1.3.101.113 */
	RIND_OID_EC_PUBLIC_KEY,		/* 1.2.840.10045.2.1 */
	RIND_OID_SECP256R1,		/* 1.2.840.10045.3.1.7 */
	RIND_OID_SECP384R1,		/* 1.3.132.0.34 */
	RIND_OID_SECP521R1,		/* 1.3.132.0.35 */
	RIND_OID_RSA_ENCRYPTION,	/* 1.2.840.113549.1.1.1 */
	RIND_OID_RSAES_OAEP,		/* 1.2.840.113549.1.1.7 */
	RIND_OID_MGF1,			/* 1.2.840.113549.1.1.8 */
	RIND_OID_RSASSA_PSS,		/* 1.2.840.113549.1.1.10 */
	RIND_OID_SHA1,			/* 1.3.14.3.2.26 */
	RIND_OID_SHA256,		/* 2.16.840.1.101.3.4.2.1 */
	RIND_OID_SHA384,		/* 2.16.840.1.101.3.4.2.2 */
	RIND_OID_SHA512,		/* 2.16.840.1.101.3.4.2.3 */
	RIND_OID_SHA224,		/* 2.16.840.1.101.3.4.2.4 */
	RIND_OID_ML_DSA_44,		/* 2.16.840.1.101.3.4.3.17 */
	RIND_OID_ML_DSA_65,		/* 2.16.840.1.101.3.4.3.18 */
	RIND_OID_ML_DSA_87,		/* 2.16.840.1.101.3.4.3.19 */
	RIND_OID_ML_KEM_512,		/* 2.16.840.1.101.3.4.4.1 */
	RIND_OID_ML_KEM_768,		/* 2.16.840.1.101.3.4.4.2 */
	RIND_OID_ML_KEM_1024,		/* 2.16.840.1.101.3.4.4.3 */
	RIND_OID_COUNT
};

/* The DER contents (without tag and length) of a known OID. */
const u8 *rind_oid_der(enum rind_oid oid, size_t *len);
/* Dotted name ("1.3.101.112") of a known OID, for messages. */
const char *rind_oid_name(enum rind_oid oid);
/*
 * Read an OBJECT IDENTIFIER (checked well-formed: non-empty, at most 64
 * bytes, minimal sub-identifiers, last byte complete) and map it: *oid is RIND_OID_NONE
 * for a well-formed OID rind does not know.
 */
int rind_der_get_oid(struct rind_der *d, enum rind_oid *oid);

/* ------------------------------------------------------------------ */
/* DER writer                                                          */

#define RIND_DERW_MAX_DEPTH 8

/*
 * Writes forward into a buffer; rind_derw_begin/end bracket a constructed
 * element (or a BIT/OCTET STRING that wraps DER), and end() moves the
 * contents when the final length needs more than one length byte.  Errors
 * are sticky: after an overflow every call is a no-op and
 * rind_derw_finish() returns -ENOSPC.  With buf == NULL it only counts.
 */
struct rind_derw {
	u8 *buf;
	size_t cap;
	size_t pos;
	int err;
	unsigned int depth;
	size_t open[RIND_DERW_MAX_DEPTH];
};

void rind_derw_init(struct rind_derw *w, void *buf, size_t cap);
/* Bytes written so far, or the sticky error (-ENOSPC, -EINVAL). */
int rind_derw_finish(struct rind_derw *w);
void rind_derw_raw(struct rind_derw *w, const void *data, size_t len);
void rind_derw_tlv(struct rind_derw *w, u8 tag, const void *val, size_t len);
/* Open a constructed element (or OCTET STRING around nested DER). */
void rind_derw_begin(struct rind_derw *w, u8 tag);
/* Open a BIT STRING (writes the 0 unused-bits octet) around nested DER. */
void rind_derw_begin_bitstring(struct rind_derw *w);
void rind_derw_end(struct rind_derw *w);
/*
 * INTEGER from an unsigned big-endian magnitude: leading zero bytes are
 * dropped and a 0x00 is prepended when the top bit is set (empty or all
 * zero encodes 0).
 */
void rind_derw_uint(struct rind_derw *w, const u8 *be, size_t len);
void rind_derw_ulong(struct rind_derw *w, unsigned long v);
void rind_derw_bitstring(struct rind_derw *w, const void *val, size_t len);
void rind_derw_octets(struct rind_derw *w, const void *val, size_t len);
void rind_derw_null(struct rind_derw *w);
void rind_derw_oid(struct rind_derw *w, enum rind_oid oid);

/* ------------------------------------------------------------------ */
/* base64 (RFC 4648)                                                   */

#define RIND_B64_URL		0x1	/* base64url alphabet (- _) */
#define RIND_B64_NOPAD		0x2	/* no '=' padding (refused when decoding) */

/*
 * Decode strictly: no whitespace, no characters outside the alphabet,
 * padding exactly as @flags say (standard: required, to a multiple of 4;
 * NOPAD: absent, and a length of 1 mod 4 refused), unused trailing bits
 * zero.  Constant-time in the data (the length is public).  Returns the
 * decoded length, -EKEYREJECTED or -ENOSPC.
 */
int rind_base64_decode(const char *in, size_t inlen, u8 *out, size_t outlen, int flags);
/* Encode: returns the character count (no NUL written), or -ENOSPC. */
int rind_base64_encode(const u8 *in, size_t inlen, char *out, size_t outlen, int flags);
/* Sizes for buffers. */
static inline size_t rind_base64_encoded_len(size_t n, int flags)
{
	return (flags & RIND_B64_NOPAD) ? (n * 4 + 2) / 3 : (n + 2) / 3 * 4;
}
static inline size_t rind_base64_decoded_max(size_t n)
{
	return n / 4 * 3 + 3;
}

/* ------------------------------------------------------------------ */
/* PEM (RFC 7468, strict)                                              */

/*
 * Decode one PEM block: "-----BEGIN <label>-----", base64 lines of at most
 * 76 characters (all but the last full lines of the same length), the
 * last carrying any '=' padding, "-----END <label>-----" with the same
 * label.  LF or CRLF line ends; only whitespace may precede the BEGIN line
 * or follow the END line; headers (encrypted PEM) are refused.  If @label
 * is non-NULL the block's label must equal it.  *label_out, *label_len
 * (optional) point at the label inside @in.  Returns the DER length.
 */
int rind_pem_decode(const char *in, size_t inlen, const char *label,
		    const char **label_out, size_t *label_len,
		    u8 *out, size_t outlen);
/* Armor @der: 64-character lines, LF ends, trailing LF.  Returns the length. */
int rind_pem_encode(const char *label, const u8 *der, size_t derlen, char *out, size_t outlen);

#define RIND_PEM_PUBLIC_KEY	"PUBLIC KEY"
#define RIND_PEM_PRIVATE_KEY	"PRIVATE KEY"
#define RIND_PEM_EC_PRIVATE_KEY	"EC PRIVATE KEY"
#define RIND_PEM_RSA_PRIVATE_KEY "RSA PRIVATE KEY"
#define RIND_PEM_RSA_PUBLIC_KEY	"RSA PUBLIC KEY"

/* ------------------------------------------------------------------ */
/* JSON objects for JWK (RFC 7517)                                     */

#define RIND_JSON_MAX_MEMBERS 24

/*
 * A flat JSON object.  Accepted: one object, optional whitespace around
 * tokens, members whose values are strings, true/false/null, numbers or
 * arrays of strings (WebCrypto's "key_ops", "ext"); member names unique.
 * Strings must be printable ASCII without backslash escapes (nothing a JWK
 * carries needs them); nested objects are refused.  Pointers refer into
 * the input; string values are given without their quotes.
 */
struct rind_json_member {
	const char *name;
	size_t namelen;
	const char *val;
	size_t vallen;
	int is_string;
};

struct rind_json_obj {
	unsigned int n;
	struct rind_json_member m[RIND_JSON_MAX_MEMBERS];
};

int rind_json_parse(const char *in, size_t inlen, struct rind_json_obj *obj);
/* A member by name: NULL if absent. */
const struct rind_json_member *rind_json_get(const struct rind_json_obj *obj, const char *name);
/* A string member equal to @val: 1 yes, 0 no (absent, not a string, different). */
int rind_json_str_eq(const struct rind_json_obj *obj, const char *name, const char *val);
/*
 * A string member decoded as base64url without padding into @out, which
 * must come out exactly @len bytes long (for fixed-size keys); or any
 * length up to @len when @exact is 0.  Returns the length, -ENOENT when
 * absent, -EKEYREJECTED when malformed or of the wrong length.
 */
int rind_json_get_b64url(const struct rind_json_obj *obj, const char *name,
			 u8 *out, size_t len, int exact);

/* Writer: {"a":"b","c":"<base64url>"} with members in call order. */
struct rind_jsonw {
	char *buf;
	size_t cap;
	size_t pos;
	int err;
	int n;
};

void rind_jsonw_init(struct rind_jsonw *w, char *buf, size_t cap);
void rind_jsonw_str(struct rind_jsonw *w, const char *name, const char *val);
void rind_jsonw_b64url(struct rind_jsonw *w, const char *name, const u8 *val, size_t len);
/* Close the object; returns the length (NUL appended if room, not counted) or -ENOSPC. */
int rind_jsonw_finish(struct rind_jsonw *w);

/* ------------------------------------------------------------------ */
/* SubjectPublicKeyInfo (RFC 5280 4.1)                                 */

struct rind_spki {
	enum rind_oid alg;		/* algorithm (known OIDs only) */
	/*
	 * parameters: the whole TLV when present (NULL/0 when absent); when
	 * they are an OID, also mapped into @curve (else RIND_OID_NONE).
	 */
	const u8 *params;
	size_t params_len;
	enum rind_oid curve;
	const u8 *key;			/* subjectPublicKey, unused bits 0 */
	size_t keylen;
};

/* Unknown algorithm OIDs are -EKEYREJECTED. */
int rind_spki_decode(const u8 *der, size_t len, struct rind_spki *spki);
/*
 * Encode: parameters are @params verbatim if set, else the @curve OID if
 * not NONE, else absent (RFC 8410 requires absent).  For RSA pass
 * params = rind_der_null_tlv, params_len = 2.
 */
int rind_spki_encode(const struct rind_spki *spki, u8 *out, size_t outlen);
extern const u8 rind_der_null_tlv[2];

/* ------------------------------------------------------------------ */
/* PKCS#8 PrivateKeyInfo / OneAsymmetricKey (RFC 5208, RFC 5958)       */

struct rind_pkcs8 {
	unsigned int version;		/* 0 (v1) or 1 (v2) */
	enum rind_oid alg;
	const u8 *params;		/* as in struct rind_spki */
	size_t params_len;
	enum rind_oid curve;
	const u8 *privkey;		/* contents of the privateKey OCTET STRING */
	size_t privkey_len;
	const u8 *pubkey;		/* v2 [1] publicKey, unused bits 0; NULL if absent */
	size_t pubkey_len;
};

/*
 * Decode: version 0 or 1; attributes [0] are skipped; publicKey [1] only
 * with version 1.  Unknown algorithm OIDs are -EKEYREJECTED.
 */
int rind_pkcs8_decode(const u8 *der, size_t len, struct rind_pkcs8 *p8);
/* Encode (version 1 when pubkey is set, else 0); privkey goes in verbatim. */
int rind_pkcs8_encode(const struct rind_pkcs8 *p8, u8 *out, size_t outlen);

/* ------------------------------------------------------------------ */
/* SEC1 ECPrivateKey (RFC 5915)                                        */

struct rind_ec_privkey {
	const u8 *d;			/* privateKey OCTET STRING contents */
	size_t dlen;
	enum rind_oid curve;		/* [0] parameters, NONE when absent */
	const u8 *pub;			/* [1] publicKey, NULL when absent */
	size_t publen;
};

/* version must be 1; a [0] that is not a known named curve is refused. */
int rind_ec_privkey_decode(const u8 *der, size_t len, struct rind_ec_privkey *k);
int rind_ec_privkey_encode(const struct rind_ec_privkey *k, u8 *out, size_t outlen);

/* ------------------------------------------------------------------ */
/* Format detection                                                    */

/*
 * Guess the encoding of @in: RIND_KEY_RAW when @len == @raw_len (a hint;
 * 0 for none), else PEM if it starts (after whitespace) with "-----BEGIN ",
 * JWK if it starts with '{', DER (SPKI or PKCS#8, told apart by structure:
 * a PKCS#8 starts SEQUENCE { INTEGER ...) when it is one SEQUENCE covering
 * the whole buffer, else RAW.
 */
enum rind_key_format rind_key_detect(const u8 *in, size_t len, size_t raw_len);

/* ------------------------------------------------------------------ */
/* Whole keys of algorithms with fixed-size byte-string keys (OKP)     */

/*
 * What an OKP-style algorithm's keys look like in each format.  X25519
 * and Ed25519 (RFC 8410 / RFC 8037) are below; other algorithms whose raw
 * keys are byte strings (ML-KEM, ML-DSA: no JWK) can define their own.
 */
struct rind_okp_desc {
	enum rind_oid oid;		/* SPKI/PKCS#8 algorithm, no parameters */
	const char *jwk_kty;		/* "OKP"; NULL: no JWK form */
	const char *jwk_crv;		/* "X25519", "Ed25519" */
	size_t pub_len;			/* raw public key */
	size_t priv_len;		/* raw private key (seed) */
	/*
	 * PKCS#8 privateKey contents are an inner OCTET STRING holding the
	 * raw key (RFC 8410 CurvePrivateKey) rather than the raw key itself.
	 */
	bool priv_wrapped;
};

extern const struct rind_okp_desc rind_okp_x25519;
extern const struct rind_okp_desc rind_okp_ed25519;

/*
 * Import a public key in any format (detected): raw, SPKI DER, PEM
 * "PUBLIC KEY", or JWK (kty/crv must match, "x" required, a "d" member is
 * refused -- a private JWK is not a public key).  Writes desc->pub_len
 * bytes to @pub.  0 or -EKEYREJECTED.
 */
int rind_okp_import_pub(const struct rind_okp_desc *desc, const u8 *in, size_t len, u8 *pub);
/*
 * Import a private key in any format: raw, PKCS#8 DER (v1, or v2 with a
 * public key), PEM "PRIVATE KEY", or JWK ("d" required, "x" optional).
 * Writes desc->priv_len bytes to @priv; if the encoding carried the public
 * key too (PKCS#8 v2, JWK "x") it is written to @pub (when non-NULL) and
 * *has_pub set to 1 (else 0), so that the caller can check it against the
 * key derived from @priv (and must: refuse a mismatch with -EKEYREJECTED).
 * Temporary copies of the secret are wiped.
 */
int rind_okp_import_priv(const struct rind_okp_desc *desc, const u8 *in, size_t len,
			 u8 *priv, u8 *pub, int *has_pub);
/*
 * Export.  Public: raw, SPKI DER, PEM "PUBLIC KEY", JWK {kty,crv,x}.
 * Private: raw, PKCS#8 DER v1 (the form OpenSSL writes), PEM "PRIVATE KEY",
 * JWK {kty,crv,x,d} (needs @pub; SPKI_DER is -EINVAL for a private key).
 * Returns the length, -ENOSPC, or -EINVAL (format not available).
 */
int rind_okp_export_pub(const struct rind_okp_desc *desc, enum rind_key_format fmt,
			const u8 *pub, u8 *out, size_t outlen);
int rind_okp_export_priv(const struct rind_okp_desc *desc, enum rind_key_format fmt,
			 const u8 *priv, const u8 *pub, u8 *out, size_t outlen);

/* ------------------------------------------------------------------ */
/* Lattice keys: ML-KEM, ML-DSA (api/pqkey.c)                          */

struct rind_pq_keydesc {
	enum rind_oid oid;
	size_t pk_size;			/* raw public key */
	size_t seed_size;		/* the private seed */
	size_t expanded_size;		/* the expanded private key */
};

/* The parts of a decoded PKCS#8 key; pointers into the DER, NULL if absent. */
struct rind_pq_privkey {
	const u8 *seed;
	const u8 *expanded;
	const u8 *pub;			/* OneAsymmetricKey v2 public key */
};

/* SPKI with the OID, no parameters and a pk_size key: *pk points at it. */
int rind_pq_spki_decode(const struct rind_pq_keydesc *kd, const u8 *der, size_t len,
			const u8 **pk);
/*
 * PKCS#8 with the OID and no parameters whose privateKey is one of the
 * seed, expandedKey or both forms of the right sizes (and a v2 public key
 * of pk_size if present).  0 or -EKEYREJECTED.
 */
int rind_pq_pkcs8_decode(const struct rind_pq_keydesc *kd, const u8 *der, size_t len,
			 struct rind_pq_privkey *k);
int rind_pq_spki_encode(const struct rind_pq_keydesc *kd, const u8 *pk, u8 *out, size_t outlen);
/* The seed-only form when @seed is set, else the expandedKey form. */
int rind_pq_pkcs8_encode(const struct rind_pq_keydesc *kd, const u8 *seed, const u8 *expanded,
			 u8 *out, size_t outlen);
/*
 * PEM of @label to DER in a malloc'd *der of *cap bytes (the caller wipes
 * and frees it, also on error): the DER length or -EKEYREJECTED/-ENOMEM.
 */
int rind_pq_pem_to_der(const u8 *in, size_t len, const char *label, u8 **der, size_t *cap);
/* PEM of the DER @enc writes for @key into a scratch buffer. */
int rind_pq_pem_encode(const struct rind_pq_keydesc *kd, const char *label,
		       int (*enc)(const void *key, u8 *der, size_t derlen), const void *key,
		       u8 *out, size_t outlen);

#endif /* _RIND_INTERNAL_KEYFMT_H */
