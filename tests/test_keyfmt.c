// SPDX-License-Identifier: MIT
/*
 * Suite "keyfmt": the key encodings of api/der.c, base64.c, pem.c, jwk.c
 * and keyfmt.c (internal functions; the tests link the static library).
 *
 *  - the DER reader's refusals, table-driven (indefinite and non-minimal
 *    lengths, lengths past the buffer, trailing bytes, high tag numbers,
 *    non-minimal or negative INTEGERs, BIT STRINGs with unused bits, bad
 *    OIDs) and the writer (minimal lengths, -ENOSPC at every short size);
 *  - OIDs against OpenSSL's OBJ_txt2obj;
 *  - base64/base64url: RFC 4648 vectors, strictness, random round trips
 *    against OpenSSL's EVP_EncodeBlock;
 *  - PEM strictness and JSON (JWK) strictness;
 *  - SPKI / PKCS#8 / SEC1 against OpenSSL exports of X25519, Ed25519,
 *    P-256, P-384 and RSA keys (decode, re-encode byte-identical), and
 *    rind's OKP exports (DER and PEM) read back by OpenSSL;
 *  - Wycheproof x25519_{asn,jwk,pem}_test.json and the ed25519 key
 *    encodings: every case's keys through the OKP importers.
 */
#include "testutil.h"
#include <rind/internal/keyfmt.h>
#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#define EKR (-EKEYREJECTED)

/*
 * Check's ck_assert_* record a checkpoint (a write to its pipe) on every
 * call, which dominates loops of many thousands of checks; these only call
 * into Check when the condition fails.
 */
#define REQ(c) do { if (!(c)) ck_assert_msg(0, "failed: %s", #c); } while (0)
#define REQ_EQ(a, b) do {							\
		long long _a = (long long)(a), _b = (long long)(b);		\
		if (_a != _b)							\
			ck_assert_msg(0, "%s == %s: %lld != %lld", #a, #b, _a, _b); \
	} while (0)
/* ------------------------------------------------------------------ */
/* DER reader                                                          */

enum der_op {
	OP_ONE_SEQ,		/* rind_der_parse_one(SEQUENCE) */
	OP_ONE_OCTETS,		/* rind_der_parse_one(OCTET STRING) */
	OP_UINT,		/* get_uint, then finish */
	OP_ULONG,
	OP_BITSTRING,
	OP_NULL,
	OP_OID,
	OP_ANY,			/* get_any, then finish */
};

struct der_case {
	const char *name;
	enum der_op op;
	const char *hex;
	int err;		/* expected result */
	const char *val;	/* expected contents / magnitude (hex), if err == 0 */
};

static const struct der_case der_cases[] = {
	{ "empty input", OP_ANY, "", EKR, NULL },
	{ "tag only", OP_ANY, "30", EKR, NULL },
	{ "high tag number form", OP_ANY, "1f0100", EKR, NULL },
	{ "high tag number form, context", OP_ANY, "bf1f0100", EKR, NULL },
	{ "indefinite length", OP_ONE_SEQ, "3080020100" "0000", EKR, NULL },
	{ "reserved length 0xff", OP_ONE_SEQ, "30ff00", EKR, NULL },
	{ "long form for short length", OP_ONE_SEQ, "308103020100", EKR, NULL },
	{ "long form 0x81 0x7f", OP_ONE_OCTETS, "04817f", EKR, NULL },
	{ "leading zero length byte", OP_ONE_OCTETS, "0482008000", EKR, NULL },
	{ "five length bytes", OP_ONE_OCTETS, "04850000000001" "00", EKR, NULL },
	{ "length past the buffer", OP_ONE_SEQ, "3005020100", EKR, NULL },
	{ "long length past the buffer", OP_ONE_OCTETS, "048180" "00", EKR, NULL },
	{ "length bytes missing", OP_ONE_OCTETS, "0482", EKR, NULL },
	{ "trailing garbage", OP_ONE_SEQ, "300000", EKR, NULL },
	{ "trailing element", OP_ONE_SEQ, "30003000", EKR, NULL },
	{ "wrong tag", OP_ONE_SEQ, "3100", EKR, NULL },
	{ "constructed OCTET STRING (BER)", OP_ONE_OCTETS, "2403040100", EKR, NULL },
	{ "empty SEQUENCE", OP_ONE_SEQ, "3000", 0, "" },
	{ "OCTET STRING 0x81 0x80", OP_ONE_OCTETS,
	  "048180" "00000000000000000000000000000000" "00000000000000000000000000000000"
	  "00000000000000000000000000000000" "00000000000000000000000000000000"
	  "00000000000000000000000000000000" "00000000000000000000000000000000"
	  "00000000000000000000000000000000" "00000000000000000000000000000000", 0,
	  "00000000000000000000000000000000" "00000000000000000000000000000000"
	  "00000000000000000000000000000000" "00000000000000000000000000000000"
	  "00000000000000000000000000000000" "00000000000000000000000000000000"
	  "00000000000000000000000000000000" "00000000000000000000000000000000" },
	{ "INTEGER empty", OP_UINT, "0200", EKR, NULL },
	{ "INTEGER 0", OP_UINT, "020100", 0, "00" },
	{ "INTEGER 127", OP_UINT, "02017f", 0, "7f" },
	{ "INTEGER 128", OP_UINT, "02020080", 0, "80" },
	{ "INTEGER 256", OP_UINT, "02020100", 0, "0100" },
	{ "INTEGER non-minimal 00 01", OP_UINT, "02020001", EKR, NULL },
	{ "INTEGER non-minimal 00 00", OP_UINT, "02020000", EKR, NULL },
	{ "INTEGER non-minimal ff 80", OP_UINT, "0202ff80", EKR, NULL },
	{ "INTEGER negative", OP_UINT, "020180", EKR, NULL },
	{ "INTEGER -1", OP_UINT, "0201ff", EKR, NULL },
	{ "INTEGER with trailing byte", OP_UINT, "02010100", EKR, NULL },
	{ "ulong 2^63", OP_ULONG, "0209008000000000000000", 0, "8000000000000000" },
	{ "ulong 2^64 too large", OP_ULONG, "0209010000000000000000", EKR, NULL },
	{ "BIT STRING empty", OP_BITSTRING, "0300", EKR, NULL },
	{ "BIT STRING no bits", OP_BITSTRING, "030100", 0, "" },
	{ "BIT STRING unused bits 1", OP_BITSTRING, "03020100", EKR, NULL },
	{ "BIT STRING unused bits 7", OP_BITSTRING, "03020780", EKR, NULL },
	{ "BIT STRING", OP_BITSTRING, "030300abcd", 0, "abcd" },
	{ "NULL", OP_NULL, "0500", 0, "" },
	{ "NULL with contents", OP_NULL, "050100", EKR, NULL },
	{ "OID empty", OP_OID, "0600", EKR, NULL },
	{ "OID sub-identifier 0x80 first", OP_OID, "0603802b65", EKR, NULL },
	{ "OID sub-identifier 0x80 padded", OP_OID, "06032b8001", EKR, NULL },
	{ "OID truncated sub-identifier", OP_OID, "06022b81", EKR, NULL },
	{ "OID unknown but well-formed", OP_OID, "06032b0601", 0, "00" },
	{ "OID X25519", OP_OID, "06032b656e", 0, "01" },
	{ "OID 0x80 after a complete sub-identifier", OP_OID, "06042b068001", EKR, NULL },
	{ "OID 0x80 inside a sub-identifier", OP_OID, "0604818000" "01", 0, "00" },
	{ "context tag [0]", OP_ANY, "a0020500", 0, "0500" },
};

static void run_der_case(const struct der_case *c)
{
	u8 in[512], want[512];
	size_t n = rt_unhex(in, sizeof(in), c->hex), wn = 0, l = 0;
	const u8 *v = NULL;
	struct rind_der d;
	unsigned long ul = 0;
	enum rind_oid oid = RIND_OID_NONE;
	u8 oidb;
	int err;

	if (c->val)
		wn = rt_unhex(want, sizeof(want), c->val);
	rind_der_init(&d, in, n);
	switch (c->op) {
	case OP_ONE_SEQ:
		err = rind_der_parse_one(in, n, DER_SEQUENCE, &v, &l);
		break;
	case OP_ONE_OCTETS:
		err = rind_der_parse_one(in, n, DER_OCTET_STRING, &v, &l);
		break;
	case OP_UINT:
		err = rind_der_get_uint(&d, &v, &l);
		if (!err)
			err = rind_der_finish(&d);
		break;
	case OP_ULONG:
		err = rind_der_get_ulong(&d, &ul);
		if (!err) {
			static u8 b[8];

			for (int i = 0; i < 8; i++)
				b[i] = (u8)(ul >> (56 - 8 * i));
			v = b;
			l = 8;
		}
		break;
	case OP_BITSTRING:
		err = rind_der_get_bitstring(&d, &v, &l);
		if (!err)
			err = rind_der_finish(&d);
		break;
	case OP_NULL:
		err = rind_der_get_null(&d);
		v = in;
		l = 0;
		if (!err)
			err = rind_der_finish(&d);
		break;
	case OP_OID:
		err = rind_der_get_oid(&d, &oid);
		oidb = (u8)oid;
		v = &oidb;
		l = 1;
		if (!err)
			err = rind_der_finish(&d);
		break;
	default:
		err = rind_der_get_any(&d, NULL, &v, &l, NULL, NULL);
		if (!err)
			err = rind_der_finish(&d);
		break;
	}
	ck_assert_msg(err == c->err, "DER case \"%s\": got %d, want %d", c->name, err, c->err);
	if (!err)
		ck_assert_msg(l == wn && !memcmp(v, want, wn), "DER case \"%s\": value %s",
			      c->name, rt_hex(v, l));
}

START_TEST(test_der_reader_table)
{
	for (size_t i = 0; i < ARRAY_SIZE(der_cases); i++)
		run_der_case(&der_cases[i]);
	rt_report("DER reader cases", "api/der.c", (int)ARRAY_SIZE(der_cases), 0);
}
END_TEST

/* Refusals keep the cursor: a failed optional read consumes nothing. */
START_TEST(test_der_reader_cursor)
{
	static const u8 in[] = { 0x02, 0x01, 0x80, 0x04, 0x00 };
	struct rind_der d;
	const u8 *v;
	size_t l;

	rind_der_init(&d, in, sizeof(in));
	REQ_EQ(rind_der_get_uint(&d, &v, &l), EKR);
	ck_assert_ptr_eq(d.p, in);
	REQ_EQ(rind_der_get_optional(&d, DER_OCTET_STRING, &v, &l), 0);
	ck_assert_ptr_eq(d.p, in);
	REQ_EQ(rind_der_get(&d, DER_OCTET_STRING, &v, &l), EKR);
	ck_assert_ptr_eq(d.p, in);
	REQ_EQ(rind_der_peek(&d), DER_INTEGER);
	REQ_EQ(rind_der_get_any(&d, NULL, NULL, NULL, NULL, NULL), 0);
	REQ_EQ(rind_der_get_optional(&d, DER_OCTET_STRING, &v, &l), 1);
	REQ_EQ(l, 0);
	REQ_EQ(rind_der_finish(&d), 0);
	REQ_EQ(rind_der_peek(&d), -1);
}
END_TEST

/* Random bytes never crash the reader and anything accepted re-encodes. */
START_TEST(test_der_reader_fuzz)
{
	struct rt_rng r;
	u8 buf[64], out[80];
	int accepted = 0;

	rt_rng_seed(&r, 0x5eed0005);
	for (int i = 0; i < 50000; i++) {
		size_t n = rt_rand_range(&r, sizeof(buf) + 1);
		struct rind_der d;
		const u8 *v, *tlv;
		size_t l, tl;
		u8 tag;

		rt_fill(&r, buf, n);
		if (n && (i & 1))
			buf[0] = DER_SEQUENCE;
		if (n > 1 && (i & 2))
			buf[1] = (u8)(n - 2);
		rind_der_init(&d, buf, n);
		if (rind_der_get_any(&d, &tag, &v, &l, &tlv, &tl) == 0) {
			struct rind_derw w;

			accepted++;
			REQ(v + l <= buf + n);
			rind_derw_init(&w, out, sizeof(out));
			rind_derw_tlv(&w, tag, v, l);
			REQ_EQ(rind_derw_finish(&w), (int)tl);
			REQ(!memcmp(out, tlv, tl));
		}
	}
	ck_assert_int_gt(accepted, 250);
}
END_TEST

/* ------------------------------------------------------------------ */
/* OIDs and the writer                                                 */

START_TEST(test_oids_vs_openssl)
{
	for (int k = 1; k < RIND_OID_COUNT; k++) {
		const char *name = rind_oid_name((enum rind_oid)k);
		ASN1_OBJECT *obj = OBJ_txt2obj(name, 1);
		const unsigned char *data;
		const u8 *der;
		size_t len;
		struct rind_der d;
		enum rind_oid back;
		u8 tlv[32];

		ck_assert_msg(obj != NULL, "OpenSSL cannot parse %s", name);
		data = OBJ_get0_data(obj);
		der = rind_oid_der((enum rind_oid)k, &len);
		ck_assert_msg(der && len == OBJ_length(obj) && !memcmp(der, data, len),
			      "OID %s: %s", name, rt_hex(der, len));
		tlv[0] = DER_OID;
		tlv[1] = (u8)len;
		memcpy(tlv + 2, der, len);
		rind_der_init(&d, tlv, len + 2);
		REQ_EQ(rind_der_get_oid(&d, &back), 0);
		REQ_EQ(back, k);
		ASN1_OBJECT_free(obj);
	}
	rt_report("OIDs checked against OpenSSL", "api/der.c", RIND_OID_COUNT - 1, 0);
}
END_TEST

static int derw_build(u8 *buf, size_t cap, const u8 *big, size_t biglen)
{
	struct rind_derw w;
	static const u8 n1[] = { 0x00, 0x00, 0x80, 0x01 };

	rind_derw_init(&w, buf, cap);
	rind_derw_begin(&w, DER_SEQUENCE);
	rind_derw_ulong(&w, 0);
	rind_derw_uint(&w, n1, sizeof(n1));
	rind_derw_begin(&w, DER_SEQUENCE);
	rind_derw_oid(&w, RIND_OID_EC_PUBLIC_KEY);
	rind_derw_oid(&w, RIND_OID_SECP256R1);
	rind_derw_end(&w);
	rind_derw_begin_bitstring(&w);
	rind_derw_begin(&w, DER_SEQUENCE);
	rind_derw_octets(&w, big, biglen);
	rind_derw_null(&w);
	rind_derw_end(&w);
	rind_derw_end(&w);
	rind_derw_begin(&w, DER_CTX_CONS(0));
	rind_derw_end(&w);
	rind_derw_end(&w);
	return rind_derw_finish(&w);
}

START_TEST(test_der_writer)
{
	static const size_t sizes[] = { 0, 1, 100, 127, 128, 200, 255, 256, 300, 65535, 65536, 70000 };
	u8 *big = calloc(1, 70000), *buf = malloc(70100), *chk = malloc(70100);
	int cases = 0;

	for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
		size_t bl = sizes[s];
		int n = derw_build(NULL, 0, big, bl);
		int m = derw_build(buf, 70100, big, bl);
		struct rind_der d, seq, alg, bs, inner;
		const u8 *v;
		size_t l;
		unsigned long ver;
		enum rind_oid o1, o2;

		ck_assert_int_gt(n, 0);
		REQ_EQ(m, n);
		/* Read it back with the strict reader. */
		rind_der_init(&d, buf, (size_t)n);
		REQ_EQ(rind_der_enter(&d, DER_SEQUENCE, &seq), 0);
		REQ_EQ(rind_der_finish(&d), 0);
		REQ_EQ(rind_der_get_ulong(&seq, &ver), 0);
		REQ_EQ(ver, 0);
		REQ_EQ(rind_der_get_uint(&seq, &v, &l), 0);
		REQ_EQ(l, 2);
		REQ(v[0] == 0x80 && v[1] == 0x01);
		REQ_EQ(rind_der_enter(&seq, DER_SEQUENCE, &alg), 0);
		REQ_EQ(rind_der_get_oid(&alg, &o1), 0);
		REQ_EQ(rind_der_get_oid(&alg, &o2), 0);
		REQ_EQ(o1, RIND_OID_EC_PUBLIC_KEY);
		REQ_EQ(o2, RIND_OID_SECP256R1);
		REQ_EQ(rind_der_get_bitstring(&seq, &v, &l), 0);
		rind_der_init(&bs, v, l);
		REQ_EQ(rind_der_enter(&bs, DER_SEQUENCE, &inner), 0);
		REQ_EQ(rind_der_finish(&bs), 0);
		REQ_EQ(rind_der_get(&inner, DER_OCTET_STRING, &v, &l), 0);
		REQ_EQ(l, bl);
		REQ_EQ(rind_der_get_null(&inner), 0);
		REQ_EQ(rind_der_finish(&inner), 0);
		REQ_EQ(rind_der_get(&seq, DER_CTX_CONS(0), &v, &l), 0);
		REQ_EQ(l, 0);
		REQ_EQ(rind_der_finish(&seq), 0);
		/* Every short buffer: -ENOSPC, nothing written past it. */
		if (n < 400) {
			for (int cap = 0; cap < n; cap++) {
				memset(chk, 0xa5, (size_t)n + 1);
				REQ_EQ(derw_build(chk, (size_t)cap, big, bl), -ENOSPC);
				for (int j = cap; j <= n; j++)
					REQ_EQ(chk[j], 0xa5);
				cases++;
			}
		}
		cases++;
	}
	/* INTEGER encodings. */
	{
		static const struct { const char *in, *out; } iv[] = {
			{ "", "020100" }, { "00", "020100" }, { "0000", "020100" },
			{ "7f", "02017f" }, { "80", "02020080" }, { "000080", "02020080" },
			{ "0100", "02020100" }, { "ffff", "020300ffff" },
		};
		for (size_t i = 0; i < ARRAY_SIZE(iv); i++) {
			u8 in[8], want[8], out[8];
			size_t il = rt_unhex(in, sizeof(in), iv[i].in);
			size_t wl = rt_unhex(want, sizeof(want), iv[i].out);
			struct rind_derw w;

			rind_derw_init(&w, out, sizeof(out));
			rind_derw_uint(&w, in, il);
			REQ_EQ(rind_derw_finish(&w), (int)wl);
			ck_assert_msg(!memcmp(out, want, wl), "uint %s -> %s", iv[i].in,
				      rt_hex(out, wl));
			cases++;
		}
	}
	/* Unbalanced begin/end is an error, not a crash. */
	{
		struct rind_derw w;
		u8 out[16];

		rind_derw_init(&w, out, sizeof(out));
		rind_derw_begin(&w, DER_SEQUENCE);
		REQ_EQ(rind_derw_finish(&w), -EINVAL);
		rind_derw_init(&w, out, sizeof(out));
		rind_derw_end(&w);
		REQ_EQ(rind_derw_finish(&w), -EINVAL);
	}
	rt_report("DER writer cases", "api/der.c", cases, 0);
	free(big);
	free(buf);
	free(chk);
}
END_TEST

/* ------------------------------------------------------------------ */
/* base64                                                              */

START_TEST(test_base64_rfc4648)
{
	static const struct { const char *in, *std, *url; } v[] = {
		{ "", "", "" },
		{ "f", "Zg==", "Zg" },
		{ "fo", "Zm8=", "Zm8" },
		{ "foo", "Zm9v", "Zm9v" },
		{ "foob", "Zm9vYg==", "Zm9vYg" },
		{ "fooba", "Zm9vYmE=", "Zm9vYmE" },
		{ "foobar", "Zm9vYmFy", "Zm9vYmFy" },
		{ "\xfb\xff\xbf", "+/+/", "-_-_" },
	};
	char out[32];
	u8 dec[32];
	int n;

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		size_t l = strlen(v[i].in);

		n = rind_base64_encode((const u8 *)v[i].in, l, out, sizeof(out), 0);
		REQ_EQ(n, (int)strlen(v[i].std));
		REQ(!memcmp(out, v[i].std, (size_t)n));
		n = rind_base64_encode((const u8 *)v[i].in, l, out, sizeof(out),
				       RIND_B64_URL | RIND_B64_NOPAD);
		REQ_EQ(n, (int)strlen(v[i].url));
		REQ(!memcmp(out, v[i].url, (size_t)n));
		n = rind_base64_decode(v[i].std, strlen(v[i].std), dec, sizeof(dec), 0);
		REQ_EQ(n, (int)l);
		REQ(!memcmp(dec, v[i].in, l));
		n = rind_base64_decode(v[i].url, strlen(v[i].url), dec, sizeof(dec),
				       RIND_B64_URL | RIND_B64_NOPAD);
		REQ_EQ(n, (int)l);
		REQ(!memcmp(dec, v[i].in, l));
		/* Exact-size buffers work, one byte less is -ENOSPC. */
		REQ_EQ(rind_base64_decode(v[i].std, strlen(v[i].std), dec, l, 0), (int)l);
		if (l) {
			REQ_EQ(rind_base64_decode(v[i].std, strlen(v[i].std), dec, l - 1, 0),
					 -ENOSPC);
			REQ_EQ(rind_base64_encode((const u8 *)v[i].in, l, out,
							    strlen(v[i].std) - 1, 0), -ENOSPC);
		}
	}
}
END_TEST

START_TEST(test_base64_strict)
{
	static const struct { const char *s; int flags; } bad[] = {
		{ "Zg", 0 }, { "Zg=", 0 }, { "Z", 0 }, { "Z===", 0 }, { "====", 0 },
		{ "Zh==", 0 },		/* non-zero unused bits */
		{ "Zm9=", 0 },		/* non-zero unused bits */
		{ "Zm9v\n", 0 }, { " Zm9v", 0 }, { "Zm 9v", 0 }, { "Zm9v=", 0 },
		{ "Zg==Zg==", 0 }, { "Zm=v", 0 }, { "-_-_", 0 }, { "Zm9\x80", 0 },
		{ "Zm9\0", 0 },
		{ "+/+/", RIND_B64_URL | RIND_B64_NOPAD },
		{ "Zg==", RIND_B64_URL | RIND_B64_NOPAD },
		{ "Zm8=", RIND_B64_URL | RIND_B64_NOPAD },
		{ "Z", RIND_B64_URL | RIND_B64_NOPAD },
		{ "Zh", RIND_B64_URL | RIND_B64_NOPAD },
		{ "Zm9vY", RIND_B64_URL | RIND_B64_NOPAD },
	};
	u8 dec[16];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		size_t l = strlen(bad[i].s);

		if (!strcmp(bad[i].s, "Zm9"))
			l = 4;		/* the embedded NUL case */
		ck_assert_msg(rind_base64_decode(bad[i].s, l, dec, sizeof(dec), bad[i].flags) == EKR,
			      "base64 accepted \"%s\" (flags %d)", bad[i].s, bad[i].flags);
	}
	rt_report("base64 refusals", "api/base64.c", (int)ARRAY_SIZE(bad), 0);
}
END_TEST

START_TEST(test_base64_vs_openssl)
{
	struct rt_rng r;
	u8 in[300], dec[300];
	unsigned char ossl[420];
	char out[420];
	int n, m, cases = 0;

	rt_rng_seed(&r, 0xb64);
	for (int i = 0; i < 1000; i++) {
		size_t l = rt_rand_range(&r, sizeof(in) + 1);

		rt_fill(&r, in, l);
		m = EVP_EncodeBlock(ossl, in, (int)l);
		n = rind_base64_encode(in, l, out, sizeof(out), 0);
		REQ_EQ(n, m);
		REQ(!memcmp(out, ossl, (size_t)n));
		REQ_EQ(rind_base64_decode(out, (size_t)n, dec, sizeof(dec), 0), (int)l);
		REQ(!memcmp(dec, in, l));
		n = rind_base64_encode(in, l, out, sizeof(out), RIND_B64_URL | RIND_B64_NOPAD);
		REQ_EQ((size_t)n, rind_base64_encoded_len(l, RIND_B64_NOPAD));
		for (int j = 0; j < n; j++)
			REQ(out[j] != '+' && out[j] != '/' && out[j] != '=');
		REQ_EQ(rind_base64_decode(out, (size_t)n, dec, sizeof(dec),
						    RIND_B64_URL | RIND_B64_NOPAD), (int)l);
		REQ(!memcmp(dec, in, l));
		cases++;
	}
	/* Every single-character corruption of a valid string is refused or decodes differently. */
	for (int c = 0; c < 256; c++) {
		char s[8] = "Zm9vYmFy";
		int valid = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			    (c >= '0' && c <= '9') || c == '+' || c == '/';

		s[3] = (char)c;
		n = rind_base64_decode(s, 8, dec, sizeof(dec), 0);
		ck_assert_msg(valid ? n == 6 : n == EKR, "char 0x%02x: %d", c, n);
	}
	rt_report("base64 round trips vs EVP_EncodeBlock", "api/base64.c", cases, 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* PEM                                                                 */

static const char pem_good[] =
	"-----BEGIN PUBLIC KEY-----\n"
	"MCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n"
	"-----END PUBLIC KEY-----\n";

START_TEST(test_pem_strict)
{
	static const struct { const char *name, *pem; } bad[] = {
		{ "no END", "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n" },
		{ "label mismatch", "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PRIVATE KEY-----\n" },
		{ "text before", "x-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC KEY-----\n" },
		{ "text after", "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC KEY-----\nx" },
		{ "two blocks", "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC KEY-----\n"
				"-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC KEY-----\n" },
		{ "header", "-----BEGIN PUBLIC KEY-----\nProc-Type: 4,ENCRYPTED\n\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC KEY-----\n" },
		{ "blank line", "-----BEGIN PUBLIC KEY-----\n\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC KEY-----\n" },
		{ "empty body", "-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n" },
		{ "missing padding", "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk\n-----END PUBLIC KEY-----\n" },
		{ "space in body", "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEA UEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC KEY-----\n" },
		{ "padding mid-body", "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\nAAAA\n-----END PUBLIC KEY-----\n" },
		{ "longer second line", "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2\nmZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC KEY-----\n" },
		{ "short line then more", "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBW\nm6mG\ny6IlSP/egPmAaCk=\n-----END PUBLIC KEY-----\n" },
		{ "line not multiple of 4", "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gB\nWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC KEY-----\n" },
		{ "line over 76", "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCkMCowBQYDK2VuAyEAUEo2mZ9I\nAAAA\n-----END PUBLIC KEY-----\n" },
		{ "bad dashes", "----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC KEY-----\n" },
		{ "label with double dash", "-----BEGIN PUBLIC--KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC--KEY-----\n" },
		{ "label ending in dash", "-----BEGIN PUBLIC KEY------\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC KEY------\n" },
		{ "empty label", "-----BEGIN -----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END -----\n" },
		{ "END label differs", "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC KEYS-----\n" },
		{ "double space label", "-----BEGIN PUBLIC  KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC  KEY-----\n" },
		{ "bare CR", "-----BEGIN PUBLIC KEY-----\rMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\r-----END PUBLIC KEY-----\r" },
		{ "no newline after BEGIN", "-----BEGIN PUBLIC KEY-----MCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC KEY-----\n" },
	};
	u8 der[128];
	const char *label;
	size_t ll;
	int n;

	n = rind_pem_decode(pem_good, strlen(pem_good), "PUBLIC KEY", &label, &ll, der, sizeof(der));
	REQ_EQ(n, 44);
	REQ_EQ(ll, 10);
	REQ(!memcmp(label, "PUBLIC KEY", 10));
	REQ_EQ(rind_pem_decode(pem_good, strlen(pem_good), NULL, NULL, NULL, der,
					 sizeof(der)), 44);
	REQ_EQ(rind_pem_decode(pem_good, strlen(pem_good), "PRIVATE KEY", NULL, NULL,
					 der, sizeof(der)), EKR);
	REQ_EQ(rind_pem_decode(pem_good, strlen(pem_good), NULL, NULL, NULL, der, 43),
			 -ENOSPC);
	/* Accepted variations: CRLF, surrounding whitespace, no final newline. */
	{
		static const char *ok[] = {
			"-----BEGIN PUBLIC KEY-----\r\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\r\n-----END PUBLIC KEY-----\r\n",
			"\n  -----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC KEY-----\n\n\t ",
			"-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END PUBLIC KEY-----",
			"-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9\nvAi6/z2I+gBWm6mGy6IlSP/egPmA\naCk=\n-----END PUBLIC KEY-----\n",
		};
		static const char dashed[] =
			"-----BEGIN X-PUBLIC KEY-----\nMCowBQYDK2VuAyEAUEo2mZ9InNL9vAi6/z2I+gBWm6mGy6IlSP/egPmAaCk=\n-----END X-PUBLIC KEY-----\n";

		REQ_EQ(rind_pem_decode(dashed, strlen(dashed), "X-PUBLIC KEY", NULL, NULL, der,
				       sizeof(der)), 44);
		for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
			ck_assert_msg(rind_pem_decode(ok[i], strlen(ok[i]), "PUBLIC KEY", NULL, NULL,
						      der, sizeof(der)) == 44, "PEM ok[%zu] refused", i);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		n = rind_pem_decode(bad[i].pem, strlen(bad[i].pem), NULL, NULL, NULL, der, sizeof(der));
		ck_assert_msg(n == EKR, "PEM case \"%s\": got %d", bad[i].name, n);
	}
	rt_report("PEM refusals", "api/pem.c", (int)ARRAY_SIZE(bad), 0);
}
END_TEST

START_TEST(test_pem_roundtrip)
{
	struct rt_rng r;
	u8 der[600], back[600];
	char pem[1000];

	rt_rng_seed(&r, 0x7e3);
	for (int i = 0; i < 200; i++) {
		size_t l = 1 + rt_rand_range(&r, sizeof(der) - 1);
		int n, m;
		BIO *bio;
		char *name = NULL, *hdr = NULL;
		unsigned char *data = NULL;
		long dlen = 0;

		rt_fill(&r, der, l);
		n = rind_pem_encode("TEST DATA", der, l, NULL, 0);
		ck_assert_int_gt(n, 0);
		REQ_EQ(rind_pem_encode("TEST DATA", der, l, pem, (size_t)n - 1), -ENOSPC);
		REQ_EQ(rind_pem_encode("TEST DATA", der, l, pem, sizeof(pem)), n);
		m = rind_pem_decode(pem, (size_t)n, "TEST DATA", NULL, NULL, back, sizeof(back));
		REQ_EQ(m, (int)l);
		REQ(!memcmp(back, der, l));
		/* OpenSSL reads it ... */
		bio = BIO_new_mem_buf(pem, n);
		REQ_EQ(PEM_read_bio(bio, &name, &hdr, &data, &dlen), 1);
		ck_assert_str_eq(name, "TEST DATA");
		REQ_EQ(dlen, (long)l);
		REQ(!memcmp(data, der, l));
		OPENSSL_free(name);
		OPENSSL_free(hdr);
		OPENSSL_free(data);
		BIO_free(bio);
		/* ... and what OpenSSL writes, rind reads. */
		bio = BIO_new(BIO_s_mem());
		ck_assert_int_gt(PEM_write_bio(bio, "TEST DATA", "", der, (long)l), 0);
		{
			char *p;
			long pl = BIO_get_mem_data(bio, &p);

			m = rind_pem_decode(p, (size_t)pl, "TEST DATA", NULL, NULL, back, sizeof(back));
			REQ_EQ(m, (int)l);
			REQ(!memcmp(back, der, l));
		}
		BIO_free(bio);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* JSON for JWK                                                        */

START_TEST(test_json_strict)
{
	static const char *ok[] = {
		"{}",
		" { \"kty\" : \"OKP\" , \"crv\":\"X25519\",\"x\":\"abc\" } \n",
		"{\"kty\":\"OKP\",\"key_ops\":[\"sign\",\"verify\"],\"ext\":true,\"n\":-1.5e+3,\"z\":null,\"f\":false,\"e\":[]}",
	};
	static const char *bad[] = {
		"", " ", "[]", "\"x\"", "{", "}", "{\"a\":\"b\"", "{\"a\":\"b\"}x", "{\"a\":\"b\"}{}",
		"{\"a\":\"b\",}", "{,}", "{\"a\" \"b\"}", "{\"a\":}", "{a:\"b\"}", "{'a':'b'}",
		"{\"a\":\"b\",\"a\":\"c\"}",		/* duplicate */
		"{\"a\":{\"b\":\"c\"}}",		/* nested object */
		"{\"a\":[{}]}", "{\"a\":[1]}", "{\"a\":[\"b\",]}", "{\"a\":[\"b\"}",
		"{\"a\":\"b\\\"c\"}",			/* escape */
		"{\"a\":\"b\\u0041\"}",
		"{\"a\":\"b\nc\"}",			/* control character */
		"{\"a\":\"\xc3\xa9\"}",			/* non-ASCII */
		"{\"a\":01}", "{\"a\":.5}", "{\"a\":1.}", "{\"a\":1e}", "{\"a\":+1}", "{\"a\":-}",
		"{\"a\":tru}", "{\"a\":True}", "{\"a\":nul}", "{\"a\":\"b}",
	};
	struct rind_json_obj obj;

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		ck_assert_msg(rind_json_parse(ok[i], strlen(ok[i]), &obj) == 0, "JSON ok[%zu] refused", i);
	REQ_EQ(rind_json_parse(ok[1], strlen(ok[1]), &obj), 0);
	REQ_EQ(obj.n, 3);
	REQ(rind_json_str_eq(&obj, "kty", "OKP"));
	REQ(!rind_json_str_eq(&obj, "kty", "OK"));
	REQ(rind_json_str_eq(&obj, "crv", "X25519"));
	ck_assert_ptr_null(rind_json_get(&obj, "d"));
	REQ_EQ(rind_json_parse(ok[2], strlen(ok[2]), &obj), 0);
	REQ(!rind_json_str_eq(&obj, "ext", "true"));
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		ck_assert_msg(rind_json_parse(bad[i], strlen(bad[i]), &obj) == EKR,
			      "JSON bad[%zu] accepted: %s", i, bad[i]);
	/* Too many members. */
	{
		char big[2048];
		size_t o = 0;

		o += (size_t)sprintf(big + o, "{");
		for (int i = 0; i <= RIND_JSON_MAX_MEMBERS; i++)
			o += (size_t)sprintf(big + o, "%s\"m%d\":\"v\"", i ? "," : "", i);
		o += (size_t)sprintf(big + o, "}");
		REQ_EQ(rind_json_parse(big, o, &obj), EKR);
	}
	rt_report("JSON refusals", "api/jwk.c", (int)ARRAY_SIZE(bad) + 1, 0);
}
END_TEST

START_TEST(test_json_b64url_and_writer)
{
	static const char j[] = "{\"x\":\"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8\","
				"\"p\":\"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\","
				"\"s\":\"AAEC\",\"n\":5}";
	struct rind_json_obj obj;
	struct rind_jsonw w;
	u8 k[32], back[32];
	char out[128];
	int n;

	REQ_EQ(rind_json_parse(j, strlen(j), &obj), 0);
	REQ_EQ(rind_json_get_b64url(&obj, "x", k, 32, 1), 32);
	for (int i = 0; i < 32; i++)
		REQ_EQ(k[i], i);
	REQ_EQ(rind_json_get_b64url(&obj, "p", k, 32, 1), EKR);	/* padded */
	REQ_EQ(rind_json_get_b64url(&obj, "s", k, 32, 1), EKR);	/* short */
	REQ_EQ(rind_json_get_b64url(&obj, "s", k, 32, 0), 3);
	REQ_EQ(rind_json_get_b64url(&obj, "x", k, 31, 0), EKR);	/* too long */
	REQ_EQ(rind_json_get_b64url(&obj, "n", k, 32, 0), EKR);	/* not a string */
	REQ_EQ(rind_json_get_b64url(&obj, "q", k, 32, 1), -ENOENT);

	rind_jsonw_init(&w, NULL, 0);
	rind_jsonw_str(&w, "kty", "OKP");
	rind_jsonw_b64url(&w, "x", k, 32);
	n = rind_jsonw_finish(&w);
	REQ_EQ(n, (int)strlen("{\"kty\":\"OKP\",\"x\":\"\"}") + 43);
	for (int cap = 0; cap < n; cap++) {
		rind_jsonw_init(&w, out, (size_t)cap);
		rind_jsonw_str(&w, "kty", "OKP");
		rind_jsonw_b64url(&w, "x", k, 32);
		REQ_EQ(rind_jsonw_finish(&w), -ENOSPC);
	}
	rind_jsonw_init(&w, out, sizeof(out));
	rind_jsonw_str(&w, "kty", "OKP");
	rind_jsonw_b64url(&w, "x", k, 32);
	REQ_EQ(rind_jsonw_finish(&w), n);
	ck_assert_str_eq(out, "{\"kty\":\"OKP\",\"x\":\"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8\"}");
	REQ_EQ(rind_json_parse(out, (size_t)n, &obj), 0);
	REQ_EQ(rind_json_get_b64url(&obj, "x", back, 32, 1), 32);
	REQ(!memcmp(back, k, 32));
	rind_jsonw_init(&w, out, sizeof(out));
	REQ_EQ(rind_jsonw_finish(&w), 2);
	ck_assert_str_eq(out, "{}");
}
END_TEST

/* ------------------------------------------------------------------ */
/* SPKI, PKCS#8, SEC1 against OpenSSL                                  */

static EVP_PKEY *ossl_keygen(const char *type, const char *curve, int bits)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
	EVP_PKEY *pk = NULL;

	ck_assert_ptr_nonnull(ctx);
	REQ_EQ(EVP_PKEY_keygen_init(ctx), 1);
	if (curve)
		REQ_EQ(EVP_PKEY_CTX_set_group_name(ctx, curve), 1);
	if (bits)
		REQ_EQ(EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, bits), 1);
	REQ_EQ(EVP_PKEY_keygen(ctx, &pk), 1);
	EVP_PKEY_CTX_free(ctx);
	return pk;
}

static int ossl_spki(EVP_PKEY *pk, u8 **der)
{
	int n;

	*der = NULL;
	n = i2d_PUBKEY(pk, der);
	ck_assert_int_gt(n, 0);
	return n;
}

static int ossl_pkcs8(EVP_PKEY *pk, u8 **der)
{
	PKCS8_PRIV_KEY_INFO *p8 = EVP_PKEY2PKCS8(pk);
	int n;

	ck_assert_ptr_nonnull(p8);
	*der = NULL;
	n = i2d_PKCS8_PRIV_KEY_INFO(p8, der);
	ck_assert_int_gt(n, 0);
	PKCS8_PRIV_KEY_INFO_free(p8);
	return n;
}

/* Decode @der as SPKI, check it, and re-encode byte for byte. */
static void check_spki(const u8 *der, int n, enum rind_oid alg, enum rind_oid curve,
		       const u8 *pub, size_t publen)
{
	struct rind_spki spki;
	u8 out[1024];

	REQ_EQ(rind_spki_decode(der, (size_t)n, &spki), 0);
	REQ_EQ(spki.alg, alg);
	REQ_EQ(spki.curve, curve);
	if (pub) {
		REQ_EQ(spki.keylen, publen);
		REQ(!memcmp(spki.key, pub, publen));
	}
	REQ_EQ(rind_spki_encode(&spki, NULL, 0), n);
	REQ_EQ(rind_spki_encode(&spki, out, sizeof(out)), n);
	REQ(!memcmp(out, der, (size_t)n));
	REQ_EQ(rind_spki_encode(&spki, out, (size_t)n - 1), -ENOSPC);
	/* Every truncation and every appended byte is refused. */
	for (int l = 0; l < n; l++)
		REQ_EQ(rind_spki_decode(der, (size_t)l, &spki), EKR);
	memcpy(out, der, (size_t)n);
	out[n] = 0;
	REQ_EQ(rind_spki_decode(out, (size_t)n + 1, &spki), EKR);
	REQ_EQ(rind_key_detect(der, (size_t)n, 0), RIND_KEY_SPKI_DER);
}

static void check_pkcs8(const u8 *der, int n, enum rind_oid alg, enum rind_oid curve,
			struct rind_pkcs8 *p8)
{
	u8 out[4096];

	REQ_EQ(rind_pkcs8_decode(der, (size_t)n, p8), 0);
	REQ_EQ(p8->alg, alg);
	REQ_EQ(p8->curve, curve);
	if (!p8->pubkey) {
		REQ_EQ(rind_pkcs8_encode(p8, out, sizeof(out)), n);
		REQ(!memcmp(out, der, (size_t)n));
	}
	for (int l = 0; l < n; l++)
		REQ_EQ(rind_pkcs8_decode(der, (size_t)l, p8), EKR);
	REQ_EQ(rind_pkcs8_decode(der, (size_t)n, p8), 0);
	REQ_EQ(rind_key_detect(der, (size_t)n, 0), RIND_KEY_PKCS8_DER);
}

START_TEST(test_okp_vs_openssl)
{
	static const struct { const char *type; const struct rind_okp_desc *desc; } algs[] = {
		{ "X25519", &rind_okp_x25519 },
		{ "ED25519", &rind_okp_ed25519 },
	};
	int cases = 0;

	for (size_t a = 0; a < ARRAY_SIZE(algs); a++) {
		const struct rind_okp_desc *desc = algs[a].desc;

		for (int i = 0; i < 20; i++) {
			EVP_PKEY *pk = ossl_keygen(algs[a].type, NULL, 0), *back;
			u8 pub[32], priv[32], k[32], k2[32], *der;
			size_t pl = 32, sl = 32;
			struct rind_pkcs8 p8;
			char pem[512];
			int n, has_pub;
			BIO *bio;
			char *pp;
			long pem_len;

			REQ_EQ(EVP_PKEY_get_raw_public_key(pk, pub, &pl), 1);
			REQ_EQ(EVP_PKEY_get_raw_private_key(pk, priv, &sl), 1);

			/* OpenSSL's DER into rind. */
			n = ossl_spki(pk, &der);
			check_spki(der, n, desc->oid, RIND_OID_NONE, pub, 32);
			REQ_EQ(rind_okp_import_pub(desc, der, (size_t)n, k), 0);
			REQ(!memcmp(k, pub, 32));
			OPENSSL_free(der);
			n = ossl_pkcs8(pk, &der);
			check_pkcs8(der, n, desc->oid, RIND_OID_NONE, &p8);
			REQ_EQ(rind_okp_import_priv(desc, der, (size_t)n, k, k2, &has_pub), 0);
			REQ(!memcmp(k, priv, 32));
			OPENSSL_free(der);

			/* OpenSSL's PEM into rind. */
			bio = BIO_new(BIO_s_mem());
			REQ_EQ(PEM_write_bio_PUBKEY(bio, pk), 1);
			pem_len = BIO_get_mem_data(bio, &pp);
			REQ_EQ(rind_okp_import_pub(desc, (u8 *)pp, (size_t)pem_len, k), 0);
			REQ(!memcmp(k, pub, 32));
			BIO_free(bio);
			bio = BIO_new(BIO_s_mem());
			REQ_EQ(PEM_write_bio_PrivateKey(bio, pk, NULL, NULL, 0, NULL, NULL), 1);
			pem_len = BIO_get_mem_data(bio, &pp);
			REQ_EQ(rind_okp_import_priv(desc, (u8 *)pp, (size_t)pem_len, k, NULL,
							      NULL), 0);
			REQ(!memcmp(k, priv, 32));
			/* A private PEM is not a public key and vice versa. */
			REQ_EQ(rind_okp_import_pub(desc, (u8 *)pp, (size_t)pem_len, k), EKR);
			BIO_free(bio);

			/* rind's exports into OpenSSL. */
			n = rind_okp_export_pub(desc, RIND_KEY_SPKI_DER, pub, (u8 *)pem, sizeof(pem));
			REQ_EQ(n, 44);
			{
				const u8 *p = (const u8 *)pem;

				back = d2i_PUBKEY(NULL, &p, n);
				ck_assert_ptr_nonnull(back);
				REQ_EQ(EVP_PKEY_eq(back, pk), 1);
				EVP_PKEY_free(back);
			}
			n = rind_okp_export_pub(desc, RIND_KEY_PEM, pub, (u8 *)pem, sizeof(pem));
			ck_assert_int_gt(n, 0);
			REQ_EQ(strlen(pem), (size_t)n);
			bio = BIO_new_mem_buf(pem, n);
			back = PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL);
			ck_assert_ptr_nonnull(back);
			REQ_EQ(EVP_PKEY_eq(back, pk), 1);
			EVP_PKEY_free(back);
			BIO_free(bio);
			n = rind_okp_export_priv(desc, RIND_KEY_PKCS8_DER, priv, pub, (u8 *)pem,
						 sizeof(pem));
			REQ_EQ(n, 48);
			{
				const u8 *p = (const u8 *)pem;

				back = d2i_AutoPrivateKey(NULL, &p, n);
				ck_assert_ptr_nonnull(back);
				sl = 32;
				REQ_EQ(EVP_PKEY_get_raw_private_key(back, k, &sl), 1);
				REQ(!memcmp(k, priv, 32));
				EVP_PKEY_free(back);
			}
			n = rind_okp_export_priv(desc, RIND_KEY_PEM, priv, pub, (u8 *)pem, sizeof(pem));
			ck_assert_int_gt(n, 0);
			bio = BIO_new_mem_buf(pem, n);
			back = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
			ck_assert_ptr_nonnull(back);
			REQ_EQ(EVP_PKEY_eq(back, pk), 1);
			EVP_PKEY_free(back);
			BIO_free(bio);
			/* The same bytes as OpenSSL's own PEM. */
			bio = BIO_new(BIO_s_mem());
			PEM_write_bio_PrivateKey(bio, pk, NULL, NULL, 0, NULL, NULL);
			pem_len = BIO_get_mem_data(bio, &pp);
			REQ_EQ(pem_len, n);
			REQ(!memcmp(pp, pem, (size_t)n));
			BIO_free(bio);

			/* JWK round trip. */
			n = rind_okp_export_priv(desc, RIND_KEY_JWK, priv, pub, (u8 *)pem, sizeof(pem));
			ck_assert_int_gt(n, 0);
			memset(k2, 0, 32);
			REQ_EQ(rind_okp_import_priv(desc, (u8 *)pem, (size_t)n, k, k2,
							      &has_pub), 0);
			REQ_EQ(has_pub, 1);
			REQ(!memcmp(k, priv, 32) && !memcmp(k2, pub, 32));
			REQ_EQ(rind_okp_import_pub(desc, (u8 *)pem, (size_t)n, k), EKR);
			n = rind_okp_export_pub(desc, RIND_KEY_JWK, pub, (u8 *)pem, sizeof(pem));
			REQ_EQ(rind_okp_import_pub(desc, (u8 *)pem, (size_t)n, k), 0);
			REQ(!memcmp(k, pub, 32));

			/* Raw. */
			REQ_EQ(rind_okp_export_priv(desc, RIND_KEY_RAW, priv, pub, k, 32), 32);
			REQ(!memcmp(k, priv, 32));
			REQ_EQ(rind_okp_import_pub(desc, pub, 32, k), 0);
			REQ_EQ(rind_okp_import_pub(desc, pub, 31, k), EKR);

			/* Wrong algorithm: an X25519 key is not an Ed25519 key. */
			{
				const struct rind_okp_desc *other = a ? &rind_okp_x25519 : &rind_okp_ed25519;

				n = ossl_spki(pk, &der);
				REQ_EQ(rind_okp_import_pub(other, der, (size_t)n, k), EKR);
				OPENSSL_free(der);
			}
			/* Export sizes: out == NULL gives the length, short is -ENOSPC. */
			for (int f = RIND_KEY_RAW; f <= RIND_KEY_JWK; f++) {
				int need = rind_okp_export_priv(desc, f, priv, pub, NULL, 0);

				if (f == RIND_KEY_SPKI_DER) {
					REQ_EQ(need, -EINVAL);
					continue;
				}
				ck_assert_int_gt(need, 0);
				memset(pem, 0x5a, sizeof(pem));
				REQ_EQ(rind_okp_export_priv(desc, f, priv, pub, (u8 *)pem,
								      (size_t)need - 1), -ENOSPC);
				for (int j = 0; j < need - 1; j++)
					REQ_EQ((u8)pem[j], 0);	/* wiped */
				REQ_EQ(rind_okp_export_priv(desc, f, priv, pub, (u8 *)pem,
								      (size_t)need), need);
				need = rind_okp_export_pub(desc, f, pub, NULL, 0);
				if (f == RIND_KEY_PKCS8_DER) {
					REQ_EQ(need, -EINVAL);
					continue;
				}
				REQ_EQ(rind_okp_export_pub(desc, f, pub, (u8 *)pem,
								     (size_t)need - 1), -ENOSPC);
				REQ_EQ(rind_okp_export_pub(desc, f, pub, (u8 *)pem,
								     (size_t)need), need);
			}
			EVP_PKEY_free(pk);
			cases++;
		}
	}
	rt_report("X25519/Ed25519 keys exchanged with OpenSSL", "api/keyfmt.c", cases, 0);
}
END_TEST

/* OneAsymmetricKey v2 with the public key (RFC 8410 section 10.3). */
START_TEST(test_pkcs8_v2)
{
	/* RFC 8410 10.3 example: Ed25519 private key with public key and an attribute. */
	static const char rfc8410_v2[] =
		"3072020101300506032b657004220420d4ee72dbf913584ad5b6d8f1f769f8ad"
		"3afe7c28cbf1d4fbe097a88f44755842a01f301d060a2a864886f70d01090914"
		"310f0c0d437572646c6520436861697273812100"
		"19bf44096984cdfe8541bac167dc3b96c85086aa30b6b6cb0c5c38ad703166e1";
	u8 der[200], priv[32], pub[32];
	size_t n = rt_unhex(der, sizeof(der), rfc8410_v2);
	struct rind_pkcs8 p8;
	int has_pub = 0;

	REQ_EQ(rind_pkcs8_decode(der, n, &p8), 0);
	REQ_EQ(p8.version, 1);
	REQ_EQ(p8.alg, RIND_OID_ED25519);
	ck_assert_ptr_nonnull(p8.pubkey);
	REQ_EQ(p8.pubkey_len, 32);
	REQ_EQ(rind_okp_import_priv(&rind_okp_ed25519, der, n, priv, pub, &has_pub), 0);
	REQ_EQ(has_pub, 1);
	REQ_EQ(priv[0], 0xd4);
	REQ_EQ(pub[0], 0x19);
	/* Version 0 must not carry a public key. */
	der[4] = 0x00;
	REQ_EQ(rind_pkcs8_decode(der, n, &p8), EKR);
	/* Version 2 does not exist. */
	der[4] = 0x02;
	REQ_EQ(rind_pkcs8_decode(der, n, &p8), EKR);
	der[4] = 0x01;
	REQ_EQ(rind_pkcs8_decode(der, n, &p8), 0);
	/* Re-encode with the public key (no attributes) and read back. */
	{
		u8 out[200];
		struct rind_pkcs8 q;
		int m;

		p8.params = NULL;
		m = rind_pkcs8_encode(&p8, out, sizeof(out));
		ck_assert_int_gt(m, 0);
		REQ_EQ(rind_pkcs8_decode(out, (size_t)m, &q), 0);
		REQ_EQ(q.version, 1);
		REQ(q.pubkey_len == 32 && !memcmp(q.pubkey, p8.pubkey, 32));
	}
	/* Wycheproof 537: the private key not wrapped in an inner OCTET STRING. */
	n = rt_unhex(der, sizeof(der),
		     "302c020100300506032b656e042020290a17cd5f2db79e4541573ee23f776fa67d7d6c84a3feeca25a9dd30ae273");
	REQ_EQ(rind_okp_import_priv(&rind_okp_x25519, der, n, priv, NULL, NULL), EKR);
	/* Parameters present (RFC 8410: MUST be absent). */
	n = rt_unhex(der, sizeof(der),
		     "302c300706032b656e0500032100a2046f69ce8d36c4ba7a7fb9c6748730bd2424fcd84904e9493bdc48720dc91d");
	REQ_EQ(rind_okp_import_pub(&rind_okp_x25519, der, n, pub), EKR);
}
END_TEST

START_TEST(test_ec_rsa_vs_openssl)
{
	static const struct { const char *curve; enum rind_oid oid; size_t flen; } curves[] = {
		{ "P-256", RIND_OID_SECP256R1, 32 },
		{ "P-384", RIND_OID_SECP384R1, 48 },
		{ "P-521", RIND_OID_SECP521R1, 66 },
	};
	int cases = 0;

	for (size_t c = 0; c < ARRAY_SIZE(curves); c++) {
		for (int i = 0; i < 5; i++) {
			EVP_PKEY *pk = ossl_keygen("EC", curves[c].curve, 0);
			u8 pub[200], *der, out[512];
			size_t pl = 0;
			struct rind_pkcs8 p8;
			struct rind_ec_privkey ec;
			BIGNUM *d = NULL;
			u8 dbytes[66];
			int n, m;

			REQ_EQ(EVP_PKEY_get_octet_string_param(pk, OSSL_PKEY_PARAM_PUB_KEY,
									 pub, sizeof(pub), &pl), 1);
			REQ_EQ(pl, 1 + 2 * curves[c].flen);
			n = ossl_spki(pk, &der);
			check_spki(der, n, RIND_OID_EC_PUBLIC_KEY, curves[c].oid, pub, pl);
			OPENSSL_free(der);

			n = ossl_pkcs8(pk, &der);
			check_pkcs8(der, n, RIND_OID_EC_PUBLIC_KEY, curves[c].oid, &p8);
			REQ_EQ(rind_ec_privkey_decode(p8.privkey, p8.privkey_len, &ec), 0);
			REQ_EQ(ec.dlen, curves[c].flen);
			REQ_EQ(EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_PRIV_KEY, &d), 1);
			REQ_EQ(BN_bn2binpad(d, dbytes, (int)ec.dlen), (int)ec.dlen);
			REQ(!memcmp(dbytes, ec.d, ec.dlen));
			if (ec.pub)
				REQ(ec.publen == pl && !memcmp(ec.pub, pub, pl));
			m = rind_ec_privkey_encode(&ec, out, sizeof(out));
			REQ_EQ(m, (int)p8.privkey_len);
			REQ(!memcmp(out, p8.privkey, (size_t)m));
			BN_clear_free(d);
			OPENSSL_free(der);

			/* Traditional "EC PRIVATE KEY" PEM with [0] parameters. */
			{
				BIO *bio = BIO_new(BIO_s_mem());
				u8 sec1[512];
				char *pp;
				long plen;

				REQ_EQ(PEM_write_bio_PrivateKey_traditional(bio, pk, NULL, NULL, 0,
										      NULL, NULL), 1);
				plen = BIO_get_mem_data(bio, &pp);
				n = rind_pem_decode(pp, (size_t)plen, RIND_PEM_EC_PRIVATE_KEY, NULL, NULL,
						    sec1, sizeof(sec1));
				ck_assert_int_gt(n, 0);
				REQ_EQ(rind_ec_privkey_decode(sec1, (size_t)n, &ec), 0);
				REQ_EQ(ec.curve, curves[c].oid);
				ck_assert_ptr_nonnull(ec.pub);
				REQ(ec.publen == pl && !memcmp(ec.pub, pub, pl));
				m = rind_ec_privkey_encode(&ec, out, sizeof(out));
				REQ_EQ(m, n);
				REQ(!memcmp(out, sec1, (size_t)n));
				BIO_free(bio);
			}
			EVP_PKEY_free(pk);
			cases++;
		}
	}
	/* RSA: SPKI with NULL parameters around an INTEGER sequence. */
	{
		EVP_PKEY *pk = ossl_keygen("RSA", NULL, 1024);
		u8 *der, nbuf[300];
		BIGNUM *bn = NULL;
		struct rind_spki spki;
		struct rind_der d, seq;
		struct rind_pkcs8 p8;
		const u8 *v;
		size_t l;
		unsigned long e, ver;
		int n;

		n = ossl_spki(pk, &der);
		check_spki(der, n, RIND_OID_RSA_ENCRYPTION, RIND_OID_NONE, NULL, 0);
		REQ_EQ(rind_spki_decode(der, (size_t)n, &spki), 0);
		REQ_EQ(spki.params_len, 2);
		REQ(!memcmp(spki.params, rind_der_null_tlv, 2));
		rind_der_init(&d, spki.key, spki.keylen);
		REQ_EQ(rind_der_enter(&d, DER_SEQUENCE, &seq), 0);
		REQ_EQ(rind_der_finish(&d), 0);
		REQ_EQ(rind_der_get_uint(&seq, &v, &l), 0);
		REQ_EQ(l, 128);
		REQ_EQ(EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_RSA_N, &bn), 1);
		REQ_EQ(BN_bn2binpad(bn, nbuf, 128), 128);
		REQ(!memcmp(nbuf, v, 128));
		BN_free(bn);
		REQ_EQ(rind_der_get_ulong(&seq, &e), 0);
		REQ_EQ(e, 65537);
		REQ_EQ(rind_der_finish(&seq), 0);
		OPENSSL_free(der);
		/* PKCS#8 around RSAPrivateKey: version, then nine INTEGERs. */
		n = ossl_pkcs8(pk, &der);
		check_pkcs8(der, n, RIND_OID_RSA_ENCRYPTION, RIND_OID_NONE, &p8);
		rind_der_init(&d, p8.privkey, p8.privkey_len);
		REQ_EQ(rind_der_enter(&d, DER_SEQUENCE, &seq), 0);
		REQ_EQ(rind_der_get_ulong(&seq, &ver), 0);
		REQ_EQ(ver, 0);
		for (int k = 0; k < 8; k++)
			REQ_EQ(rind_der_get_uint(&seq, &v, &l), 0);
		REQ_EQ(rind_der_finish(&seq), 0);
		OPENSSL_free(der);
		EVP_PKEY_free(pk);
		cases++;
	}
	rt_report("EC/RSA keys decoded from OpenSSL", "api/keyfmt.c", cases, 0);
}
END_TEST

START_TEST(test_detect)
{
	u8 raw[32];
	static const char jwk[] = " {\"kty\":\"OKP\"}";

	memset(raw, 0x11, sizeof(raw));
	raw[0] = 0x30;
	raw[1] = 0x1e;		/* parses as a SEQUENCE covering 32 bytes */
	REQ_EQ(rind_key_detect(raw, 32, 32), RIND_KEY_RAW);
	REQ_EQ(rind_key_detect(raw, 32, 0), RIND_KEY_SPKI_DER);
	REQ_EQ(rind_key_detect((const u8 *)pem_good, strlen(pem_good), 32), RIND_KEY_PEM);
	REQ_EQ(rind_key_detect((const u8 *)jwk, strlen(jwk), 32), RIND_KEY_JWK);
	REQ_EQ(rind_key_detect(raw, 31, 32), RIND_KEY_RAW);
	REQ_EQ(rind_key_detect(raw, 0, 32), RIND_KEY_RAW);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Wycheproof                                                          */

static char *json_text(json_t *v, size_t *len)
{
	char *s;

	if (json_is_string(v)) {
		s = strdup(json_string_value(v));
		*len = strlen(s);
		return s;
	}
	s = json_dumps(v, JSON_PRESERVE_ORDER);
	ck_assert_ptr_nonnull(s);
	*len = strlen(s);
	return s;
}

static void wp_x25519(const char *file, int hex)
{
	json_t *root = rt_wp_load(file), *groups, *g, *tests, *t;
	size_t gi, ti;
	int ran = 0;

	if (!root)
		return;
	groups = json_object_get(root, "testGroups");
	json_array_foreach(groups, gi, g) {
		tests = json_object_get(g, "tests");
		json_array_foreach(tests, ti, t) {
			int expect = rt_wp_result(t);
			u8 pub[32], priv[32], pub2[32], *pubin, *privin;
			size_t publen, privlen;
			int e1, e2, has_pub = 0;

			if (hex) {
				pubin = rt_wp_hex(t, "public", &publen);
				privin = rt_wp_hex(t, "private", &privlen);
			} else {
				pubin = (u8 *)json_text(json_object_get(t, "public"), &publen);
				privin = (u8 *)json_text(json_object_get(t, "private"), &privlen);
			}
			e1 = rind_okp_import_pub(&rind_okp_x25519, pubin, publen, pub);
			e2 = rind_okp_import_priv(&rind_okp_x25519, privin, privlen, priv, pub2,
						  &has_pub);
			if (expect != 0) {
				ck_assert_msg(e1 == 0 && e2 == 0, "%s tcId %d: import %d/%d", file,
					      (int)json_integer_value(json_object_get(t, "tcId")), e1, e2);
			} else {
				ck_assert_msg(e1 == EKR || e2 == EKR, "%s tcId %d: invalid key accepted",
					      file, (int)json_integer_value(json_object_get(t, "tcId")));
			}
			free(pubin);
			free(privin);
			ran++;
		}
	}
	rt_report(file, "keyfmt OKP import", ran, 0);
	json_decref(root);
}

START_TEST(test_wycheproof_x25519_formats)
{
	wp_x25519("x25519_asn_test.json", 1);
	wp_x25519("x25519_jwk_test.json", 0);
	wp_x25519("x25519_pem_test.json", 0);
}
END_TEST

START_TEST(test_wycheproof_ed25519_keys)
{
	json_t *root = rt_wp_load("ed25519_test.json"), *groups, *g;
	size_t gi;
	int ran = 0;

	if (!root)
		return;
	groups = json_object_get(root, "testGroups");
	json_array_foreach(groups, gi, g) {
		u8 *pk, *der, k[32];
		size_t pklen, derlen, len;
		char *s;

		pk = rt_wp_hex(json_object_get(g, "publicKey"), "pk", &pklen);
		REQ_EQ(pklen, 32);
		der = rt_wp_hex(g, "publicKeyDer", &derlen);
		REQ_EQ(rind_okp_import_pub(&rind_okp_ed25519, der, derlen, k), 0);
		REQ(!memcmp(k, pk, 32));
		s = json_text(json_object_get(g, "publicKeyPem"), &len);
		REQ_EQ(rind_okp_import_pub(&rind_okp_ed25519, (u8 *)s, len, k), 0);
		REQ(!memcmp(k, pk, 32));
		free(s);
		s = json_text(json_object_get(g, "publicKeyJwk"), &len);
		REQ_EQ(rind_okp_import_pub(&rind_okp_ed25519, (u8 *)s, len, k), 0);
		REQ(!memcmp(k, pk, 32));
		REQ_EQ(rind_okp_import_pub(&rind_okp_x25519, (u8 *)s, len, k), EKR);
		free(s);
		/* And rind's own exports are byte-identical to Wycheproof's DER. */
		{
			u8 out[64];

			REQ_EQ(rind_okp_export_pub(&rind_okp_ed25519, RIND_KEY_SPKI_DER, pk,
							     out, sizeof(out)), (int)derlen);
			REQ(!memcmp(out, der, derlen));
		}
		free(pk);
		free(der);
		ran++;
	}
	rt_report("ed25519_test.json key groups", "keyfmt OKP import", ran, 0);
	json_decref(root);
}
END_TEST

static Suite *keyfmt_suite(void)
{
	Suite *s = suite_create("keyfmt");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_der_reader_table);
	tcase_add_test(tc, test_der_reader_cursor);
	tcase_add_test(tc, test_der_reader_fuzz);
	tcase_add_test(tc, test_oids_vs_openssl);
	tcase_add_test(tc, test_der_writer);
	tcase_add_test(tc, test_base64_rfc4648);
	tcase_add_test(tc, test_base64_strict);
	tcase_add_test(tc, test_base64_vs_openssl);
	tcase_add_test(tc, test_pem_strict);
	tcase_add_test(tc, test_pem_roundtrip);
	tcase_add_test(tc, test_json_strict);
	tcase_add_test(tc, test_json_b64url_and_writer);
	tcase_add_test(tc, test_okp_vs_openssl);
	tcase_add_test(tc, test_pkcs8_v2);
	tcase_add_test(tc, test_ec_rsa_vs_openssl);
	tcase_add_test(tc, test_detect);
	tcase_add_test(tc, test_wycheproof_x25519_formats);
	tcase_add_test(tc, test_wycheproof_ed25519_keys);
	suite_add_tcase(s, tc);
	return s;
}

RIND_TEST_MAIN(keyfmt_suite)
