// SPDX-License-Identifier: MIT
/*
 * The little DER the provider needs itself: RSA keys cross between rind
 * (PKCS#1 RSAPrivateKey / RSAPublicKey) and OpenSSL (one parameter per
 * integer), so their INTEGERs are read and written here; and a
 * SubjectPublicKeyInfo's algorithm OID is read to tell a key reference's
 * type before its key is built.  Everything else is encoded and parsed
 * by librind.
 */
#include <stdlib.h>
#include <string.h>
#include "key.h"

static int tlv(const uint8_t **p, const uint8_t *end, uint8_t tag, const uint8_t **val, size_t *len)
{
	size_t n;

	if (end - *p < 2 || **p != tag)
		return 0;
	(*p)++;
	n = *(*p)++;
	if (n & 0x80) {
		unsigned int k = n & 0x7f;

		if (k == 0 || k > 4 || (size_t)(end - *p) < k)
			return 0;
		for (n = 0; k--; )
			n = n << 8 | *(*p)++;
	}
	if ((size_t)(end - *p) < n)
		return 0;
	*val = *p;
	*len = n;
	*p += n;
	return 1;
}

static int ints(const uint8_t *der, size_t len, struct der_int *v, int count)
{
	const uint8_t *p = der, *end = der + len, *seq;
	size_t seqlen;
	int i;

	if (!tlv(&p, end, 0x30, &seq, &seqlen) || p != end)
		return 0;
	p = seq;
	end = seq + seqlen;
	for (i = 0; i < count; i++) {
		if (!tlv(&p, end, 0x02, &v[i].p, &v[i].n) || !v[i].n || (v[i].p[0] & 0x80))
			return 0;
		/* the magnitude, without DER's sign byte */
		while (v[i].n > 1 && !v[i].p[0]) {
			v[i].p++;
			v[i].n--;
		}
	}
	return p == end;
}

int der_rsa_priv_parse(const uint8_t *der, size_t len, struct der_int v[9])
{
	return ints(der, len, v, 9) && v[0].n == 1 && v[0].p[0] == 0;
}

int der_rsa_pub_parse(const uint8_t *der, size_t len, struct der_int v[2])
{
	return ints(der, len, v, 2);
}

static size_t hdr_len(size_t n)
{
	return n < 0x80 ? 2 : n < 0x100 ? 3 : n < 0x10000 ? 4 : 5;
}

static uint8_t *put_hdr(uint8_t *p, uint8_t tag, size_t n)
{
	*p++ = tag;
	if (n < 0x80) {
		*p++ = (uint8_t)n;
	} else if (n < 0x100) {
		*p++ = 0x81;
		*p++ = (uint8_t)n;
	} else if (n < 0x10000) {
		*p++ = 0x82;
		*p++ = (uint8_t)(n >> 8);
		*p++ = (uint8_t)n;
	} else {
		*p++ = 0x83;
		*p++ = (uint8_t)(n >> 16);
		*p++ = (uint8_t)(n >> 8);
		*p++ = (uint8_t)n;
	}
	return p;
}

static int build(const struct der_int *v, int count, int version, uint8_t **out, size_t *outlen)
{
	size_t body = version ? 3 : 0, total, i;
	uint8_t *buf, *p;

	for (i = 0; i < (size_t)count; i++) {
		size_t n = v[i].n, pad = n && (v[i].p[0] & 0x80) ? 1 : 0;

		if (!n)
			return 0;
		body += hdr_len(n + pad) + n + pad;
	}
	total = hdr_len(body) + body;
	buf = malloc(total);
	if (!buf)
		return 0;
	p = put_hdr(buf, 0x30, body);
	if (version) {
		*p++ = 0x02;
		*p++ = 0x01;
		*p++ = 0x00;
	}
	for (i = 0; i < (size_t)count; i++) {
		size_t n = v[i].n, pad = (v[i].p[0] & 0x80) ? 1 : 0;

		p = put_hdr(p, 0x02, n + pad);
		if (pad)
			*p++ = 0;
		memcpy(p, v[i].p, n);
		p += n;
	}
	*out = buf;
	*outlen = total;
	return 1;
}

int der_rsa_priv_build(const struct der_int v[8], uint8_t **out, size_t *outlen)
{
	return build(v, 8, 1, out, outlen);
}

int der_rsa_pub_build(const struct der_int v[2], uint8_t **out, size_t *outlen)
{
	return build(v, 2, 0, out, outlen);
}

/*
 * SubjectPublicKeyInfo ::= SEQUENCE { SEQUENCE { OID, params }, BIT STRING }:
 * the type its OID names (only the OID is read: rk_set_pub_der checks the
 * rest when the key is built).
 */
int der_spki_type(const uint8_t *der, size_t len)
{
	static const struct { enum rk_type t; uint8_t n, oid[9]; } oids[] = {
		{ RK_ED25519, 3, { 0x2b, 0x65, 0x70 } },
		{ RK_X25519, 3, { 0x2b, 0x65, 0x6e } },
		{ RK_EC, 7, { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01 } },
		{ RK_RSA, 9, { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01 } },
		{ RK_MLDSA44, 9, { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11 } },
		{ RK_MLDSA65, 9, { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x12 } },
		{ RK_MLDSA87, 9, { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x13 } },
	};
	const uint8_t *p = der, *end = der + len, *seq, *alg, *oid;
	size_t seqlen, alglen, oidlen, i;

	if (!tlv(&p, end, 0x30, &seq, &seqlen) || p != end)
		return -1;
	p = seq;
	if (!tlv(&p, seq + seqlen, 0x30, &alg, &alglen))
		return -1;
	p = alg;
	if (!tlv(&p, alg + alglen, 0x06, &oid, &oidlen))
		return -1;
	for (i = 0; i < sizeof(oids) / sizeof(oids[0]); i++)
		if (oidlen == oids[i].n && !memcmp(oid, oids[i].oid, oidlen))
			return (int)oids[i].t;
	return -1;
}
