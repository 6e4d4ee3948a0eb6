// SPDX-License-Identifier: MIT
/* Shared test helpers; see testutil.h. */
#include <ctype.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <rind/aead.h>
#include <rind/kpp.h>
#include "testutil.h"

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

size_t rt_unhex(u8 *out, size_t outmax, const char *hex)
{
	size_t n = strlen(hex), i;

	ck_assert_msg(n % 2 == 0, "odd hex length: %s", hex);
	ck_assert_msg(n / 2 <= outmax, "hex too long for buffer (%zu > %zu)", n / 2, outmax);
	for (i = 0; i < n / 2; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

		/* Not ck_assert: every passing check costs Check a write(). */
		if (hi < 0 || lo < 0)
			ck_abort_msg("bad hex: %s", hex);
		out[i] = (u8)(hi << 4 | lo);
	}
	return n / 2;
}

u8 *rt_unhex_alloc(const char *hex, size_t *len)
{
	size_t n = strlen(hex) / 2;
	u8 *p = malloc(n ? n : 1);

	ck_assert_ptr_nonnull(p);
	*len = rt_unhex(p, n, hex);
	return p;
}

const char *rt_hex(const u8 *p, size_t len)
{
	static __thread char buf[2 * 256 + 4];
	size_t i, n = len > 256 ? 256 : len;

	for (i = 0; i < n; i++)
		snprintf(buf + 2 * i, 3, "%02x", p[i]);
	buf[2 * n] = 0;
	if (n < len)
		strcat(buf, "...");
	return buf;
}

struct impl_ctx {
	const char *name;
	const char *type;
	char (*drivers)[CRYPTO_MAX_ALG_NAME];
	int max;
	int n;
};

static void add_driver(struct impl_ctx *c, const char *driver)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->drivers[i], driver))
			return;
	if (c->n < c->max)
		snprintf(c->drivers[c->n++], CRYPTO_MAX_ALG_NAME, "%s", driver);
}

static int collect(const struct rind_alg_info *info, void *ctx)
{
	struct impl_ctx *c = ctx;

	if (!strcmp(info->name, c->name) && (!c->type || !strcmp(info->type, c->type)) &&
	    info->selftest >= 0)
		add_driver(c, info->driver);
	return 0;
}

/* Split "t(a,b(c))" into "t" and its top-level arguments. */
static int split_template(const char *name, char *tmpl, char args[4][CRYPTO_MAX_ALG_NAME])
{
	const char *p = strchr(name, '('), *start;
	int depth = 0, n = 0;

	if (!p)
		return 0;
	memcpy(tmpl, name, (size_t)(p - name));
	tmpl[p - name] = 0;
	start = p + 1;
	for (p = start; *p; p++) {
		if (*p == '(') {
			depth++;
		} else if (*p == ')' && depth) {
			depth--;
		} else if ((*p == ',' || *p == ')') && !depth) {
			if (n < 4) {
				snprintf(args[n], CRYPTO_MAX_ALG_NAME, "%.*s", (int)(p - start), start);
				n++;
			}
			start = p + 1;
		}
	}
	return n;
}

static const char *arg_type(const char *tmpl, int idx)
{
	if (!strcmp(tmpl, "hmac"))
		return "shash";
	if (!strcmp(tmpl, "rfc7539"))
		return idx == 0 ? "skcipher" : "shash";
	if (!strcmp(tmpl, "rfc4106"))
		return "aead";
	return NULL;	/* block-cipher templates take a cipher: any type matches */
}

static int impls(const char *name, const char *type, char drivers[][CRYPTO_MAX_ALG_NAME], int max);

int rt_impls(const char *name, const char *type, char drivers[][CRYPTO_MAX_ALG_NAME], int max)
{
	int n = impls(name, type, drivers, max);

	ck_assert_msg(n > 0, "no implementation of %s", name);
	return n;
}

/*
 * A name that looks like a template but is registered directly
 * ("pkcs1(rsa,sha256)", whose "rsa" is no algorithm of its own) simply has
 * no implementations of its arguments to instantiate over.
 */
static int impls(const char *name, const char *type, char drivers[][CRYPTO_MAX_ALG_NAME], int max)
{
	struct impl_ctx c = { name, type, drivers, max, 0 };
	char tmpl[CRYPTO_MAX_ALG_NAME], args[4][CRYPTO_MAX_ALG_NAME];
	int nargs = split_template(name, tmpl, args);

	if (nargs == 1 || nargs == 2) {
		/* Instantiate the template over every implementation of each argument. */
		char (*a0)[CRYPTO_MAX_ALG_NAME] = calloc(RT_MAX_IMPLS, CRYPTO_MAX_ALG_NAME);
		char (*a1)[CRYPTO_MAX_ALG_NAME] = calloc(RT_MAX_IMPLS, CRYPTO_MAX_ALG_NAME);
		int n0, n1 = 1, i, j;

		ck_assert_ptr_nonnull(a0);
		ck_assert_ptr_nonnull(a1);
		n0 = impls(args[0], arg_type(tmpl, 0), a0, RT_MAX_IMPLS);
		if (nargs == 2)
			n1 = impls(args[1], arg_type(tmpl, 1), a1, RT_MAX_IMPLS);
		for (i = 0; i < n0; i++) {
			for (j = 0; j < n1; j++) {
				char inst[3 * CRYPTO_MAX_ALG_NAME];

				if (nargs == 2)
					snprintf(inst, sizeof(inst), "%s(%s,%s)", tmpl, a0[i], a1[j]);
				else
					snprintf(inst, sizeof(inst), "%s(%s)", tmpl, a0[i]);
				(void)crypto_has_alg(inst, 0, 0);
			}
		}
		free(a0);
		free(a1);
	}
	/* And whatever lookup by name picks (direct arch implementations). */
	(void)crypto_has_alg(name, 0, 0);
	rind_alg_foreach(collect, &c);
	return c.n;
}

/* xoshiro256** seeded through splitmix64. */
void rt_rng_seed(struct rt_rng *r, u64 seed)
{
	int i;

	for (i = 0; i < 4; i++) {
		u64 z = (seed += 0x9e3779b97f4a7c15ull);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		r->s[i] = z ^ (z >> 31);
	}
}

static inline u64 rotl(u64 x, int k)
{
	return (x << k) | (x >> (64 - k));
}

u64 rt_rand(struct rt_rng *r)
{
	u64 *s = r->s, res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

u32 rt_rand_range(struct rt_rng *r, u32 n)
{
	return n ? (u32)(rt_rand(r) % n) : 0;
}

void rt_fill(struct rt_rng *r, void *buf, size_t len)
{
	u8 *p = buf;

	while (len >= 8) {
		u64 v = rt_rand(r);

		memcpy(p, &v, 8);
		p += 8;
		len -= 8;
	}
	if (len) {
		u64 v = rt_rand(r);

		memcpy(p, &v, len);
	}
}

int rt_sg_split(struct rt_rng *r, struct scatterlist *sg, int maxents, void *buf, size_t len)
{
	int n = 1 + (int)rt_rand_range(r, (u32)maxents);
	size_t cuts[64], prev = 0;
	int i, j;

	if (n > 64)
		n = 64;
	/* n-1 sorted random cut points in [0, len]. */
	for (i = 0; i < n - 1; i++)
		cuts[i] = len ? rt_rand_range(r, (u32)len + 1) : 0;
	for (i = 1; i < n - 1; i++)
		for (j = i; j > 0 && cuts[j - 1] > cuts[j]; j--) {
			size_t t = cuts[j];

			cuts[j] = cuts[j - 1];
			cuts[j - 1] = t;
		}
	cuts[n - 1] = len;
	sg_init_table(sg, (unsigned int)n);
	for (i = 0; i < n; i++) {
		sg_set_buf(&sg[i], (u8 *)buf + prev, (unsigned int)(cuts[i] - prev));
		prev = cuts[i];
	}
	return n;
}

const char *rt_wp_dir(void)
{
	const char *d = getenv("WYCHEPROOF_DIR");

	if (d && *d)
		return d;
#ifdef RIND_SOURCE_DIR
	return RIND_SOURCE_DIR "/../shared/vectors/wycheproof";
#else
	return "../shared/vectors/wycheproof";
#endif
}

json_t *rt_wp_load(const char *file)
{
	char path[4096];
	json_error_t err;
	json_t *root;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", rt_wp_dir(), file);
	f = fopen(path, "r");
	if (!f) {
		printf("SKIP: %s: not found in WYCHEPROOF_DIR=%s (set WYCHEPROOF_DIR to the "
		       "Wycheproof testvectors_v1 directory)\n", file, rt_wp_dir());
		return NULL;
	}
	root = json_loadf(f, 0, &err);
	fclose(f);
	ck_assert_msg(root != NULL, "%s: JSON error line %d: %s", path, err.line, err.text);
	return root;
}

u8 *rt_wp_hex(json_t *obj, const char *key, size_t *len)
{
	json_t *v = json_object_get(obj, key);

	ck_assert_msg(v && json_is_string(v), "missing hex field %s", key);
	return rt_unhex_alloc(json_string_value(v), len);
}

u8 *rt_wp_opt_hex(json_t *obj, const char *key, size_t *len, bool need)
{
	const char *h = json_string_value(json_object_get(obj, key));
	size_t i, n = h ? strlen(h) : 0;
	u8 *out;

	*len = 0;
	if (!h && !need)
		return NULL;
	out = malloc(n / 2 + 1);
	if (!out || n % 2)
		ck_abort_msg("bad hex field %s", key);
	/* Not ck_assert: every passing check costs Check a write(). */
	for (i = 0; i < n / 2; i++) {
		int a = hexval(h[2 * i]), b = hexval(h[2 * i + 1]);

		if (a < 0 || b < 0)
			ck_abort_msg("bad hex in field %s", key);
		out[i] = (u8)(a << 4 | b);
	}
	*len = n / 2;
	return out;
}

int rt_wp_result(json_t *test)
{
	const char *r = json_string_value(json_object_get(test, "result"));

	ck_assert_ptr_nonnull(r);
	if (!strcmp(r, "valid"))
		return 1;
	if (!strcmp(r, "invalid"))
		return 0;
	return -1;
}

int rt_wp_has_flag(json_t *test, const char *flag)
{
	json_t *flags = json_object_get(test, "flags"), *f;
	size_t i;

	json_array_foreach(flags, i, f)
		if (json_is_string(f) && !strcmp(json_string_value(f), flag))
			return 1;
	return 0;
}

void rt_check_eq(const char *drv, const char *what, const u8 *got, const u8 *want, size_t n)
{
	if (memcmp(got, want, n)) {
		char g[2 * 64 + 1];

		snprintf(g, sizeof(g), "%s", rt_hex(got, n));
		ck_abort_msg("%s: %s: got %s, want %s", drv, what, g, rt_hex(want, n));
	}
}

u8 *rt_wp_key(json_t *test, const char *field, enum rt_wp_kind kind, size_t *len)
{
	json_t *v = json_object_get(test, field);
	char *s;

	switch (kind) {
	case RT_WP_HEX:
		return rt_wp_hex(test, field, len);
	case RT_WP_PEM:
		ck_assert(json_is_string(v));
		s = strdup(json_string_value(v));
		break;
	case RT_WP_JWK:
		s = json_dumps(v, JSON_COMPACT);
		break;
	default:
		s = NULL;
	}
	ck_assert_ptr_nonnull(s);
	*len = strlen(s);
	return (u8 *)s;
}

void rt_jwk_break_x(const char *drv, u8 *buf, int r)
{
	char *x;

	RT_REQ(drv, r > 0);
	buf[r] = 0;
	x = strstr((char *)buf, "\"x\":\"");
	RT_REQ(drv, x != NULL);
	x[5] = x[5] == 'A' ? 'B' : 'A';
}

int rt_kpp_op(struct crypto_kpp *tfm, bool shared, const void *in, unsigned int inlen,
	      u8 *out, unsigned int *outlen)
{
	struct kpp_request *req = kpp_request_alloc(tfm, GFP_KERNEL);
	struct scatterlist src, dst;
	int err;

	ck_assert(!IS_ERR_OR_NULL(req));
	sg_init_one(&src, in ? in : "", inlen);
	sg_init_one(&dst, out, *outlen);
	kpp_request_set_input(req, &src, inlen);
	kpp_request_set_output(req, &dst, *outlen);
	kpp_request_set_callback(req, 0, NULL, NULL);
	err = shared ? crypto_kpp_compute_shared_secret(req) : crypto_kpp_generate_public_key(req);
	*outlen = req->dst_len;
	kpp_request_free(req);
	return err;
}

EVP_PKEY *rt_ossl_read(const u8 *buf, size_t len, bool priv, bool pem)
{
	EVP_PKEY *p = NULL;

	if (pem) {
		BIO *bio = BIO_new_mem_buf(buf, (int)len);

		ck_assert_ptr_nonnull(bio);
		p = priv ? PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL)
			 : PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL);
		BIO_free(bio);
	} else {
		const unsigned char *q = buf;

		p = priv ? d2i_AutoPrivateKey(NULL, &q, (long)len) : d2i_PUBKEY(NULL, &q, (long)len);
		if (p && q != buf + len) {
			EVP_PKEY_free(p);
			p = NULL;
		}
	}
	return p;
}

/* A copy of @n bytes at @src in a malloc'd buffer; *len = n. */
static u8 *dup_out(const void *src, long n, size_t *len)
{
	u8 *out;

	ck_assert_int_gt(n, 0);
	out = malloc((size_t)n);
	ck_assert_ptr_nonnull(out);
	memcpy(out, src, (size_t)n);
	*len = (size_t)n;
	return out;
}

u8 *rt_ossl_write(EVP_PKEY *p, bool priv, enum rt_ossl_form form, size_t *len)
{
	unsigned char *q = NULL;
	u8 *out;
	int n;

	if (form == RT_OSSL_PEM || form == RT_OSSL_TRAD_PEM) {
		BIO *bio = BIO_new(BIO_s_mem());
		char *data;
		long m;

		ck_assert_ptr_nonnull(bio);
		if (priv && form == RT_OSSL_TRAD_PEM)
			ck_assert_int_eq(PEM_write_bio_PrivateKey_traditional(bio, p, NULL, NULL, 0,
									      NULL, NULL), 1);
		else if (priv)
			ck_assert_int_eq(PEM_write_bio_PrivateKey(bio, p, NULL, NULL, 0, NULL, NULL), 1);
		else
			ck_assert_int_eq(PEM_write_bio_PUBKEY(bio, p), 1);
		m = BIO_get_mem_data(bio, &data);
		out = dup_out(data, m, len);
		BIO_free(bio);
		return out;
	}
	if (priv && form == RT_OSSL_DER) {
		PKCS8_PRIV_KEY_INFO *p8 = EVP_PKEY2PKCS8(p);

		ck_assert_ptr_nonnull(p8);
		n = i2d_PKCS8_PRIV_KEY_INFO(p8, &q);
		PKCS8_PRIV_KEY_INFO_free(p8);
	} else {
		n = priv ? i2d_PrivateKey(p, &q) : i2d_PUBKEY(p, &q);
	}
	out = dup_out(q, n, len);
	OPENSSL_free(q);
	return out;
}

EVP_PKEY *rt_ossl_read_raw(const char *drv, const u8 *enc, int r, bool priv, bool pem,
			   int id, const u8 *raw, size_t rawlen)
{
	EVP_PKEY *o;
	u8 got[64];
	size_t len = rawlen;

	RT_REQ(drv, r > 0 && rawlen <= sizeof(got));
	o = rt_ossl_read(enc, (size_t)r, priv, pem);
	RT_REQ(drv, o != NULL);
	RT_REQ_EQ(drv, EVP_PKEY_get_id(o), id);
	if (priv) {
		RT_REQ(drv, EVP_PKEY_get_raw_private_key(o, got, &len) == 1 && len == rawlen);
		rt_check_eq(drv, "private key read by OpenSSL", got, raw, rawlen);
	} else {
		RT_REQ(drv, EVP_PKEY_get_raw_public_key(o, got, &len) == 1 && len == rawlen);
		rt_check_eq(drv, "public key read by OpenSSL", got, raw, rawlen);
	}
	return o;
}

#define RT_AEAD_MAXSG 16	/* scatterlist entries of a split request */

const char *const rt_mode_name[RT_M_COUNT] = { "out-of-place", "in-place", "split out-of-place",
					       "split in-place" };

bool rt_all_zero(const u8 *p, size_t n)
{
	u8 acc = 0;

	while (n--)
		acc |= *p++;
	return acc == 0;
}

struct rt_run rt_aead_req(struct crypto_aead *tfm, bool enc, const u8 *iv, const u8 *ad,
			  size_t adlen, const u8 *in, size_t inlen, int mode, struct rt_rng *rng)
{
	unsigned int authsize = crypto_aead_authsize(tfm);
	size_t outlen = enc ? inlen + authsize : (inlen >= authsize ? inlen - authsize : 0);
	size_t maxlen = inlen > outlen ? inlen : outlen;
	struct scatterlist sgs[RT_AEAD_MAXSG], sgd[RT_AEAD_MAXSG];
	struct aead_request *req;
	u8 *sbuf, *dbuf, ivc[32];
	struct rt_run r;

	sbuf = malloc(adlen + maxlen + 1);
	ck_assert_ptr_nonnull(sbuf);
	if (adlen)
		memcpy(sbuf, ad, adlen);
	if (inlen)
		memcpy(sbuf + adlen, in, inlen);
	memset(sbuf + adlen + inlen, 0xa5, maxlen - inlen + 1);
	if (mode == RT_M_INPLACE || mode == RT_M_SPLIT_INPLACE) {
		dbuf = sbuf;
	} else {
		dbuf = malloc(adlen + outlen + 1);
		ck_assert_ptr_nonnull(dbuf);
		memset(dbuf, 0xa5, adlen + outlen + 1);
	}

	switch (mode) {
	case RT_M_OUT:
		sg_init_one(sgs, sbuf, (unsigned int)(adlen + inlen));
		sg_init_one(sgd, dbuf, (unsigned int)(adlen + outlen));
		break;
	case RT_M_INPLACE:
		sg_init_one(sgs, sbuf, (unsigned int)(adlen + maxlen));
		break;
	case RT_M_SPLIT_OUT:
		rt_sg_split(rng, sgs, RT_AEAD_MAXSG, sbuf, adlen + inlen);
		rt_sg_split(rng, sgd, RT_AEAD_MAXSG, dbuf, adlen + outlen);
		break;
	default:
		rt_sg_split(rng, sgs, RT_AEAD_MAXSG, sbuf, adlen + maxlen);
		break;
	}

	req = aead_request_alloc(tfm, GFP_KERNEL);
	ck_assert(!IS_ERR_OR_NULL(req));
	memcpy(ivc, iv, crypto_aead_ivsize(tfm));
	aead_request_set_callback(req, 0, NULL, NULL);
	aead_request_set_ad(req, (unsigned int)adlen);
	aead_request_set_crypt(req, sgs, dbuf == sbuf ? sgs : sgd, (unsigned int)inlen, ivc);
	r.err = enc ? crypto_aead_encrypt(req) : crypto_aead_decrypt(req);
	aead_request_free(req);
	ck_assert_msg(!memcmp(ivc, iv, crypto_aead_ivsize(tfm)), "%s: IV modified",
		      crypto_aead_driver_name(tfm));

	r.outlen = outlen;
	r.out = malloc(adlen + outlen + 1);
	ck_assert_ptr_nonnull(r.out);
	memcpy(r.out, dbuf, adlen + outlen);
	if (dbuf != sbuf) {
		/* nothing written past the end */
		ck_assert_msg(dbuf[adlen + outlen] == 0xa5, "%s: wrote past the destination",
			      crypto_aead_driver_name(tfm));
		free(dbuf);
	}
	free(sbuf);
	return r;
}

void rt_aead_both_ways(struct crypto_aead *tfm, const u8 *iv, const u8 *ad, size_t adlen,
		       const u8 *pt, size_t len, const u8 *exp, int mode, struct rt_rng *rng,
		       const char *what)
{
	const char *drv = crypto_aead_driver_name(tfm);
	unsigned int as = crypto_aead_authsize(tfm);
	struct rt_run r;

	r = rt_aead_req(tfm, true, iv, ad, adlen, pt, len, mode, rng);
	ck_assert_msg(r.err == 0, "%s: %s: encrypt (%s) failed: %d", drv, what, rt_mode_name[mode],
		      r.err);
	ck_assert_msg(!memcmp(r.out, ad, adlen), "%s: %s: AD not in destination (%s)", drv, what,
		      rt_mode_name[mode]);
	ck_assert_msg(!memcmp(r.out + adlen, exp, len + as),
		      "%s: %s: encrypt (%s) adlen %zu len %zu authsize %u: got %s", drv, what,
		      rt_mode_name[mode], adlen, len, as, rt_hex(r.out + adlen, len + as));
	free(r.out);

	r = rt_aead_req(tfm, false, iv, ad, adlen, exp, len + as, mode, rng);
	ck_assert_msg(r.err == 0, "%s: %s: decrypt (%s) adlen %zu len %zu failed: %d", drv, what,
		      rt_mode_name[mode], adlen, len, r.err);
	ck_assert_msg(!memcmp(r.out, ad, adlen), "%s: %s: AD not in destination (decrypt, %s)", drv,
		      what, rt_mode_name[mode]);
	ck_assert_msg(!memcmp(r.out + adlen, pt, len), "%s: %s: decrypt (%s) wrong plaintext", drv,
		      what, rt_mode_name[mode]);
	free(r.out);
}

void rt_aead_forgery(struct crypto_aead *tfm, const u8 *iv, const u8 *ad, size_t adlen,
		     const u8 *ct, size_t ctlen, int mode, struct rt_rng *rng, const char *what)
{
	const char *drv = crypto_aead_driver_name(tfm);
	struct rt_run r = rt_aead_req(tfm, false, iv, ad, adlen, ct, ctlen, mode, rng);

	ck_assert_msg(r.err == -EBADMSG, "%s: %s: forgery (%s) not rejected: %d", drv, what,
		      rt_mode_name[mode], r.err);
	ck_assert_msg(rt_all_zero(r.out + adlen, r.outlen), "%s: %s: plaintext left after a forgery (%s)",
		      drv, what, rt_mode_name[mode]);
	free(r.out);
}

void rt_be_sub_small(u8 *a, unsigned int nb, unsigned int v)
{
	int i;

	for (i = (int)nb - 1; i >= 0 && v; i--) {
		unsigned int t = a[i];

		a[i] = (u8)(t - (v & 0xff));
		v = (v >> 8) + (t < (v & 0xff));
	}
}

void rt_edge_scalar(u8 *k, unsigned int idx, const u8 *order, unsigned int nb,
		    unsigned int random_end, struct rt_rng *rng)
{
	unsigned int i;

	memset(k, 0, nb);
	if (idx < 8) {				/* 1 .. 8 */
		k[nb - 1] = (u8)(idx + 1);
	} else if (idx < 12) {			/* n - 1 .. n - 4 */
		memcpy(k, order, nb);
		rt_be_sub_small(k, nb, idx - 7);
	} else if (idx < 14) {			/* (n - 1) / 2, (n + 1) / 2 */
		for (i = 0; i < nb; i++)
			k[i] = (u8)((order[i] >> 1) | (i ? order[i - 1] << 7 : 0));
		if (idx == 13)
			k[nb - 1]++;		/* n is odd: no carry out of the low byte */
	} else if (idx < 20) {			/* 2^(40j + 7), j = 0..5 */
		k[nb - 1 - (idx - 14) * 5] = 0x80;
	} else if (idx >= random_end) {		/* a byte repeated: runs of extreme digits */
		static const u8 pat[] = { 0xff, 0xaa, 0x55, 0x0f, 0xf0, 0x81, 0x7f, 0x01 };

		memset(k, pat[(idx - random_end) % sizeof(pat)], nb);
		if (nb == 66)
			k[0] &= 1;
		if (memcmp(k, order, nb) >= 0)
			k[0] = 0;
	} else {				/* random, below n */
		rt_fill(rng, k, nb);
		if (nb == 66)
			k[0] &= 1;
		if (memcmp(k, order, nb) >= 0)
			k[0] = 0;
	}
}

bool rt_cpu_has_bmi2_adx(void)
{
#if defined(__x86_64__)
	unsigned int a, b, c, d;

	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return false;
	return (b & (1u << 8)) && (b & (1u << 19));	/* BMI2, ADX */
#else
	return false;
#endif
}

void rt_report(const char *what, const char *impl, int ran, int skipped)
{
	if (skipped)
		printf("%s: %d cases (%s), %d skipped\n", what, ran, impl, skipped);
	else
		printf("%s: %d cases (%s)\n", what, ran, impl);
}

char *rt_read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);
	size_t n = 0;

	ck_assert(buf != NULL);
	if (f) {
		n = fread(buf, 1, (1 << 20) - 1, f);
		fclose(f);
	}
	buf[n] = 0;
	return buf;
}

char *rt_slurp(const char *path)
{
	static char buf[1 << 18];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	buf[0] = 0;
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = 0;
	return buf;
}
