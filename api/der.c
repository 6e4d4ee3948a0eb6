// SPDX-License-Identifier: MIT
/*
 * A strict DER (X.690 Distinguished Encoding Rules) reader and a small
 * writer, for key formats.  The reader accepts only what DER allows and
 * what keys need: single-byte tags, definite minimal lengths that fit the
 * enclosing element, minimal INTEGERs, BIT STRINGs without unused bits,
 * well-formed OIDs.  Anything else is -EKEYREJECTED.
 *
 * Constant time: a private key's DER is secret as a whole (it may come
 * out of a PEM or base64 decoder), but its tags, lengths, versions and
 * OIDs are public in every format rind handles.  The reader copies exactly
 * those into locals and declassifies them (for the valgrind build), so a
 * branch on structure is not reported while a branch on key bytes would
 * be; INTEGER contents are only examined for their encoding verdict.
 */
#include <errno.h>
#include <string.h>
#include <rind/err.h>
#include <rind/internal/keyfmt.h>
#include <rind/internal/util.h>

#define DER_MAX_LEN 0x7fffffffu
#define DER_MAX_OID 64

/* A structural byte (tag, length, version, OID): public by format. */
static inline u8 pub_byte(const u8 *p)
{
	u8 b = *p;

	rind_declassify(&b, 1);
	return b;
}

void rind_der_init(struct rind_der *d, const void *buf, size_t len)
{
	d->p = buf;
	d->end = d->p + len;
}

int rind_der_finish(const struct rind_der *d)
{
	return d->p == d->end ? 0 : -EKEYREJECTED;
}

/*
 * Parse the header at d->p: tag, contents length, header length.  Checks
 * that the whole element fits.  Does not consume.
 */
static int der_header(const struct rind_der *d, u8 *tag, size_t *len, size_t *hlen)
{
	size_t avail = (size_t)(d->end - d->p);
	size_t n, l, i;
	u8 b;

	if (avail < 2)
		return -EKEYREJECTED;
	*tag = pub_byte(d->p);
	if ((*tag & 0x1f) == 0x1f)		/* high tag number form */
		return -EKEYREJECTED;
	b = pub_byte(d->p + 1);
	if (b < 0x80) {
		l = b;
		*hlen = 2;
	} else {
		n = b & 0x7f;
		/* 0x80: indefinite length (BER only); 0xff reserved; > 4 too long. */
		if (n == 0 || n > 4 || avail < 2 + n)
			return -EKEYREJECTED;
		if (pub_byte(d->p + 2) == 0)		/* leading zero length byte */
			return -EKEYREJECTED;
		l = 0;
		for (i = 0; i < n; i++)
			l = (l << 8) | pub_byte(d->p + 2 + i);
		if (l < 0x80 || l > DER_MAX_LEN)	/* long form where short fits */
			return -EKEYREJECTED;
		*hlen = 2 + n;
	}
	if (l > avail - *hlen)
		return -EKEYREJECTED;
	*len = l;
	return 0;
}

int rind_der_peek(const struct rind_der *d)
{
	if (d->p >= d->end)
		return -1;
	return pub_byte(d->p);
}

int rind_der_get_any(struct rind_der *d, u8 *tag, const u8 **val, size_t *len,
		     const u8 **tlv, size_t *tlvlen)
{
	size_t l, h;
	u8 t;
	int err;

	err = der_header(d, &t, &l, &h);
	if (err)
		return err;
	if (tag)
		*tag = t;
	if (val)
		*val = d->p + h;
	if (len)
		*len = l;
	if (tlv)
		*tlv = d->p;
	if (tlvlen)
		*tlvlen = h + l;
	d->p += h + l;
	return 0;
}

int rind_der_get(struct rind_der *d, u8 tag, const u8 **val, size_t *len)
{
	struct rind_der save = *d;
	u8 t;
	int err;

	err = rind_der_get_any(d, &t, val, len, NULL, NULL);
	if (err)
		return err;
	if (t != tag) {
		*d = save;
		return -EKEYREJECTED;
	}
	return 0;
}

int rind_der_get_optional(struct rind_der *d, u8 tag, const u8 **val, size_t *len)
{
	int err;

	if (rind_der_peek(d) != tag)
		return 0;
	err = rind_der_get(d, tag, val, len);
	return err ? err : 1;
}

int rind_der_enter(struct rind_der *d, u8 tag, struct rind_der *inner)
{
	const u8 *v;
	size_t l;
	int err;

	err = rind_der_get(d, tag, &v, &l);
	if (err)
		return err;
	rind_der_init(inner, v, l);
	return 0;
}

int rind_der_get_uint(struct rind_der *d, const u8 **val, size_t *len)
{
	struct rind_der save = *d;
	const u8 *v;
	size_t l;
	int err;

	err = rind_der_get(d, DER_INTEGER, &v, &l);
	if (err)
		return err;
	if (l == 0)
		goto bad;
	{
		/*
		 * The contents may be secret (RSA private values): compute the
		 * encoding verdicts without branching on them, then declassify
		 * only the verdicts (and whether a sign byte is stripped, which
		 * the public length of the magnitude says anyway).
		 */
		u32 b0 = v[0], b1 = l >= 2 ? v[1] : 0, two = l >= 2;
		u32 z0 = ((b0 - 1) >> 31) & 1, f0 = ((b0 ^ 0xff) - 1) >> 31 & 1;
		u32 t1 = b1 >> 7, neg = b0 >> 7;
		u32 nonmin = two & ((z0 & (t1 ^ 1)) | (f0 & t1));
		u32 strip = two & z0;

		rind_declassify(&nonmin, sizeof(nonmin));
		rind_declassify(&neg, sizeof(neg));
		rind_declassify(&strip, sizeof(strip));
		if (nonmin || neg)
			goto bad;
		if (strip) {
			v++;
			l--;
		}
	}
	*val = v;
	*len = l;
	return 0;
bad:
	*d = save;
	return -EKEYREJECTED;
}

int rind_der_get_ulong(struct rind_der *d, unsigned long *out)
{
	struct rind_der save = *d;
	const u8 *v;
	size_t l, i;
	unsigned long x = 0;
	int err;

	err = rind_der_get_uint(d, &v, &l);
	if (err)
		return err;
	if (l > sizeof(unsigned long)) {
		*d = save;
		return -EKEYREJECTED;
	}
	for (i = 0; i < l; i++)
		x = (x << 8) | pub_byte(v + i);		/* versions, exponents: public */
	*out = x;
	return 0;
}

int rind_der_get_bitstring(struct rind_der *d, const u8 **val, size_t *len)
{
	struct rind_der save = *d;
	const u8 *v;
	size_t l;
	int err;

	err = rind_der_get(d, DER_BIT_STRING, &v, &l);
	if (err)
		return err;
	if (l < 1 || pub_byte(v) != 0) {
		*d = save;
		return -EKEYREJECTED;
	}
	*val = v + 1;
	*len = l - 1;
	return 0;
}

int rind_der_get_null(struct rind_der *d)
{
	struct rind_der save = *d;
	const u8 *v;
	size_t l;
	int err;

	err = rind_der_get(d, DER_NULL, &v, &l);
	if (err)
		return err;
	if (l != 0) {
		*d = save;
		return -EKEYREJECTED;
	}
	return 0;
}

int rind_der_parse_one(const void *buf, size_t len, u8 tag, const u8 **val, size_t *vlen)
{
	struct rind_der d;
	int err;

	rind_der_init(&d, buf, len);
	err = rind_der_get(&d, tag, val, vlen);
	if (err)
		return err;
	return rind_der_finish(&d);
}

/* ------------------------------------------------------------------ */
/* OIDs                                                                */

struct oid_ent {
	const char *name;
	u8 len;
	u8 der[11];
};

static const struct oid_ent oid_tab[RIND_OID_COUNT] = {
	[RIND_OID_NONE]		  = { "none", 0, { 0 } },
	[RIND_OID_X25519]	  = { "1.3.101.110", 3, { 0x2b, 0x65, 0x6e } },
	[RIND_OID_X448]		  = { "1.3.101.111", 3, { 0x2b, 0x65, 0x6f } },
	[RIND_OID_ED25519]	  = { "1.3.101.112", 3, { 0x2b, 0x65, 0x70 } },
	[RIND_OID_ED448]	  = { "1.3.101.113", 3, { 0x2b, 0x65, 0x71 } },
	[RIND_OID_EC_PUBLIC_KEY]  = { "1.2.840.10045.2.1", 7,
				      { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01 } },
	[RIND_OID_SECP256R1]	  = { "1.2.840.10045.3.1.7", 8,
				      { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 } },
	[RIND_OID_SECP384R1]	  = { "1.3.132.0.34", 5, { 0x2b, 0x81, 0x04, 0x00, 0x22 } },
	[RIND_OID_SECP521R1]	  = { "1.3.132.0.35", 5, { 0x2b, 0x81, 0x04, 0x00, 0x23 } },
	[RIND_OID_RSA_ENCRYPTION] = { "1.2.840.113549.1.1.1", 9,
				      { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01 } },
	[RIND_OID_RSAES_OAEP]	  = { "1.2.840.113549.1.1.7", 9,
				      { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x07 } },
	[RIND_OID_MGF1]		  = { "1.2.840.113549.1.1.8", 9,
				      { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x08 } },
	[RIND_OID_RSASSA_PSS]	  = { "1.2.840.113549.1.1.10", 9,
				      { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a } },
	[RIND_OID_SHA1]		  = { "1.3.14.3.2.26", 5, { 0x2b, 0x0e, 0x03, 0x02, 0x1a } },
#define NIST(a, b) { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, a, b }
	[RIND_OID_SHA256]	  = { "2.16.840.1.101.3.4.2.1", 9, NIST(0x02, 0x01) },
	[RIND_OID_SHA384]	  = { "2.16.840.1.101.3.4.2.2", 9, NIST(0x02, 0x02) },
	[RIND_OID_SHA512]	  = { "2.16.840.1.101.3.4.2.3", 9, NIST(0x02, 0x03) },
	[RIND_OID_SHA224]	  = { "2.16.840.1.101.3.4.2.4", 9, NIST(0x02, 0x04) },
	[RIND_OID_ML_DSA_44]	  = { "2.16.840.1.101.3.4.3.17", 9, NIST(0x03, 0x11) },
	[RIND_OID_ML_DSA_65]	  = { "2.16.840.1.101.3.4.3.18", 9, NIST(0x03, 0x12) },
	[RIND_OID_ML_DSA_87]	  = { "2.16.840.1.101.3.4.3.19", 9, NIST(0x03, 0x13) },
	[RIND_OID_ML_KEM_512]	  = { "2.16.840.1.101.3.4.4.1", 9, NIST(0x04, 0x01) },
	[RIND_OID_ML_KEM_768]	  = { "2.16.840.1.101.3.4.4.2", 9, NIST(0x04, 0x02) },
	[RIND_OID_ML_KEM_1024]	  = { "2.16.840.1.101.3.4.4.3", 9, NIST(0x04, 0x03) },
#undef NIST
};

const u8 *rind_oid_der(enum rind_oid oid, size_t *len)
{
	if ((unsigned int)oid >= RIND_OID_COUNT || oid == RIND_OID_NONE) {
		*len = 0;
		return NULL;
	}
	*len = oid_tab[oid].len;
	return oid_tab[oid].der;
}

const char *rind_oid_name(enum rind_oid oid)
{
	if ((unsigned int)oid >= RIND_OID_COUNT)
		return "?";
	return oid_tab[oid].name;
}

int rind_der_get_oid(struct rind_der *d, enum rind_oid *oid)
{
	struct rind_der save = *d;
	const u8 *src;
	u8 v[DER_MAX_OID];
	size_t l, i;
	int err, k;

	err = rind_der_get(d, DER_OID, &src, &l);
	if (err)
		return err;
	/* Non-empty, not absurdly long; no sub-identifier starts with 0x80; the last one ends. */
	if (l == 0 || l > DER_MAX_OID)
		goto bad;
	memcpy(v, src, l);
	rind_declassify(v, l);
	if (v[l - 1] & 0x80)
		goto bad;
	for (i = 0; i < l; i++)
		if (v[i] == 0x80 && (i == 0 || !(v[i - 1] & 0x80)))
			goto bad;
	*oid = RIND_OID_NONE;
	for (k = 1; k < RIND_OID_COUNT; k++) {
		if (oid_tab[k].len == l && !memcmp(oid_tab[k].der, v, l)) {
			*oid = (enum rind_oid)k;
			break;
		}
	}
	return 0;
bad:
	*d = save;
	return -EKEYREJECTED;
}

/* ------------------------------------------------------------------ */
/* Writer                                                              */

void rind_derw_init(struct rind_derw *w, void *buf, size_t cap)
{
	w->buf = buf;
	w->cap = buf ? cap : 0;
	w->pos = 0;
	w->err = 0;
	w->depth = 0;
}

int rind_derw_finish(struct rind_derw *w)
{
	if (w->err)
		return w->err;
	if (w->depth)
		return -EINVAL;
	if (w->pos > DER_MAX_LEN)
		return -ENOSPC;
	return (int)w->pos;
}

/* Make room for @n more bytes: 1 if they may be written, 0 if counting/error. */
static int derw_room(struct rind_derw *w, size_t n)
{
	if (w->err)
		return 0;
	if (!w->buf) {
		w->pos += n;
		return 0;
	}
	if (n > w->cap - w->pos) {
		w->err = -ENOSPC;
		return 0;
	}
	return 1;
}

void rind_derw_raw(struct rind_derw *w, const void *data, size_t len)
{
	if (derw_room(w, len)) {
		if (len)
			memcpy(w->buf + w->pos, data, len);
		w->pos += len;
	}
}

static size_t der_len_size(size_t len)
{
	size_t n = 1;

	if (len < 0x80)
		return 1;
	while (len >> (8 * n))
		n++;
	return 1 + n;
}

static void derw_header(struct rind_derw *w, u8 tag, size_t len)
{
	u8 h[6];
	size_t n = der_len_size(len), i;

	h[0] = tag;
	if (n == 1) {
		h[1] = (u8)len;
	} else {
		h[1] = (u8)(0x80 | (n - 1));
		for (i = 0; i < n - 1; i++)
			h[2 + i] = (u8)(len >> (8 * (n - 2 - i)));
	}
	rind_derw_raw(w, h, 1 + n);
}

void rind_derw_tlv(struct rind_derw *w, u8 tag, const void *val, size_t len)
{
	derw_header(w, tag, len);
	rind_derw_raw(w, val, len);
}

void rind_derw_begin(struct rind_derw *w, u8 tag)
{
	u8 h[2] = { tag, 0 };

	if (w->err)
		return;
	if (w->depth >= RIND_DERW_MAX_DEPTH) {
		w->err = -EINVAL;
		return;
	}
	rind_derw_raw(w, h, 2);
	w->open[w->depth++] = w->pos;
}

void rind_derw_begin_bitstring(struct rind_derw *w)
{
	u8 z = 0;

	rind_derw_begin(w, DER_BIT_STRING);
	rind_derw_raw(w, &z, 1);
}

void rind_derw_end(struct rind_derw *w)
{
	size_t start, len, n, extra, i;

	if (w->err)
		return;
	if (!w->depth) {
		w->err = -EINVAL;
		return;
	}
	start = w->open[--w->depth];
	len = w->pos - start;
	n = der_len_size(len);
	extra = n - 1;
	if (!w->buf) {
		w->pos += extra;
		return;
	}
	if (extra) {
		if (extra > w->cap - w->pos) {
			w->err = -ENOSPC;
			return;
		}
		memmove(w->buf + start + extra, w->buf + start, len);
		w->pos += extra;
		w->buf[start - 1] = (u8)(0x80 | extra);
		for (i = 0; i < extra; i++)
			w->buf[start + i] = (u8)(len >> (8 * (extra - 1 - i)));
	} else {
		w->buf[start - 1] = (u8)len;
	}
}

/*
 * The value may be secret (RSA private components): the leading zero bytes
 * and the sign byte are found without a branch or an index on the bytes,
 * and only the length of the contents is declassified, public as every
 * DER length (see the reader).  The contents are then the last clen bytes
 * of 0x00 || be: the sign byte, when one is needed, is the zero before
 * the first non-zero byte.
 */
void rind_derw_uint(struct rind_derw *w, const u8 *be, size_t len)
{
	size_t i, lead = 0, clen;
	u32 seen = 0, top = 0;
	u8 z = 0;

	for (i = 0; i < len; i++) {
		u32 b = be[i], nz = (0u - b) >> 31;	/* 1 if b != 0 */

		top |= (0u - (nz & (seen ^ 1))) & (b >> 7);
		seen |= nz;
		lead += seen ^ 1;
	}
	clen = len - lead + top;
	rind_declassify(&clen, sizeof(clen));
	if (!clen)
		clen = 1;	/* zero: one 00 byte */
	derw_header(w, DER_INTEGER, clen);
	if (clen > len) {
		rind_derw_raw(w, &z, 1);
		rind_derw_raw(w, be, len);
	} else {
		rind_derw_raw(w, be + len - clen, clen);
	}
}

void rind_derw_ulong(struct rind_derw *w, unsigned long v)
{
	u8 b[sizeof(unsigned long)];
	size_t i;

	for (i = 0; i < sizeof(b); i++)
		b[i] = (u8)(v >> (8 * (sizeof(b) - 1 - i)));
	rind_derw_uint(w, b, sizeof(b));
}

void rind_derw_bitstring(struct rind_derw *w, const void *val, size_t len)
{
	u8 z = 0;

	if (len >= DER_MAX_LEN) {
		if (!w->err)
			w->err = -EINVAL;
		return;
	}
	derw_header(w, DER_BIT_STRING, len + 1);
	rind_derw_raw(w, &z, 1);
	rind_derw_raw(w, val, len);
}

void rind_derw_octets(struct rind_derw *w, const void *val, size_t len)
{
	rind_derw_tlv(w, DER_OCTET_STRING, val, len);
}

void rind_derw_null(struct rind_derw *w)
{
	rind_derw_tlv(w, DER_NULL, NULL, 0);
}

void rind_derw_oid(struct rind_derw *w, enum rind_oid oid)
{
	const u8 *der;
	size_t len;

	der = rind_oid_der(oid, &len);
	if (!der) {
		if (!w->err)
			w->err = -EINVAL;
		return;
	}
	rind_derw_tlv(w, DER_OID, der, len);
}
