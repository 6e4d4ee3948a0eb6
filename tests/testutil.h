/* SPDX-License-Identifier: MIT */
/*
 * Shared test helpers: hex, a seeded PRNG, random scatterlist splits, the
 * list of every implementation of an algorithm, Wycheproof files (jansson),
 * and the Check runner main.
 */
#ifndef RIND_TESTUTIL_H
#define RIND_TESTUTIL_H

#include <check.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rind/crypto.h>

#define RT_MAX_IMPLS 32

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* The driver names rt_impls() fills in. */
typedef char drivers_t[RT_MAX_IMPLS][CRYPTO_MAX_ALG_NAME];

/*
 * Checks that name the driver under test.  Plain if + ck_abort_msg, not
 * ck_assert: every passing ck_assert costs Check a write(), and the
 * Wycheproof and differential loops run hundreds of thousands of them.
 */
#define RT_REQ(drv, c)								\
	do {									\
		if (!(c))							\
			ck_abort_msg("%s: %s:%d: failed: %s", drv, __FILE__, __LINE__, #c); \
	} while (0)
#define RT_REQ_EQ(drv, a, b)							\
	do {									\
		long long _a = (long long)(a), _b = (long long)(b);		\
		if (_a != _b)							\
			ck_abort_msg("%s: %s:%d: %s == %s: %lld != %lld", drv,	\
				     __FILE__, __LINE__, #a, #b, _a, _b);	\
	} while (0)
#define RT_REQ_MEM(drv, tc, a, b, n)						\
	do {									\
		if (memcmp(a, b, n))						\
			ck_abort_msg("%s: %s:%d: tcId %d: %s differs", drv,	\
				     __FILE__, __LINE__, (int)(tc), #a);	\
	} while (0)

/* Fail naming @drv and @what, with both values in hex, unless equal (n <= 64). */
void rt_check_eq(const char *drv, const char *what, const u8 *got, const u8 *want, size_t n);

/*
 * Allocate the implementation @drv of front end @type (aead, skcipher,
 * sig, ...) and check that the registry gave that very driver, not a
 * better one of the same cra_name: the suites test each implementation by
 * its driver name.  Plain if, like RT_REQ: some suites allocate a tfm per
 * Wycheproof case.
 */
#define RT_ALLOC_DRV(type, drv)							\
	({									\
		const char *_d = (drv);						\
		struct crypto_##type *_t = crypto_alloc_##type(_d, 0, 0);	\
										\
		if (IS_ERR_OR_NULL(_t))						\
			ck_abort_msg("%s: alloc failed (%ld)", _d, PTR_ERR(_t)); \
		if (strcmp(crypto_##type##_driver_name(_t), _d))		\
			ck_abort_msg("%s: got %s", _d, crypto_##type##_driver_name(_t)); \
		_t;								\
	})

/* The file @path whole (malloc'd, NUL-terminated; empty if it cannot be read; up to 1 MiB). */
char *rt_read_file(const char *path);
/*
 * The same (up to 256 KiB) in a static buffer that the next call reuses:
 * for checks that read a file inside an assertion message, where nothing
 * could free it.
 */
char *rt_slurp(const char *path);

/* Hex to bytes; returns the byte count, aborts the test on bad hex. */
size_t rt_unhex(u8 *out, size_t outmax, const char *hex);
/* Hex to a malloc'd buffer (never NULL: zero-length gives a 1-byte buffer). */
u8 *rt_unhex_alloc(const char *hex, size_t *len);
/* Bytes to hex in a static buffer (for messages). */
const char *rt_hex(const u8 *p, size_t len);

/*
 * Every implementation (driver name) of cra_name @name of type @type
 * ("shash", "aead", ...).  Template names are instantiated over every
 * implementation of each argument ("hmac(sha256-generic)",
 * "hmac(sha256-shani)", ...), and directly registered implementations are
 * included.  Returns the count (fails the test if zero).
 */
int rt_impls(const char *name, const char *type, char drivers[][CRYPTO_MAX_ALG_NAME], int max);

/* Deterministic xoshiro-style PRNG, seeded per test so failures reproduce. */
struct rt_rng {
	u64 s[4];
};
void rt_rng_seed(struct rt_rng *r, u64 seed);
u64 rt_rand(struct rt_rng *r);
u32 rt_rand_range(struct rt_rng *r, u32 n);	/* 0..n-1 */
void rt_fill(struct rt_rng *r, void *buf, size_t len);

/*
 * Describe @buf (@len bytes) as a scatterlist of up to @maxents entries cut
 * at random byte positions (zero-length entries included sometimes).
 * Returns the number of entries used; the table is end-marked.
 */
int rt_sg_split(struct rt_rng *r, struct scatterlist *sg, int maxents, void *buf, size_t len);

/*
 * Wycheproof: WYCHEPROOF_DIR (default ../shared/vectors/wycheproof relative
 * to the repository root).  rt_wp_load returns the parsed file, or NULL
 * after printing "SKIP: <file>: <reason>" when the directory or file is
 * missing.
 */
const char *rt_wp_dir(void);
json_t *rt_wp_load(const char *file);
/* Hex field of a JSON object as a malloc'd buffer. */
u8 *rt_wp_hex(json_t *obj, const char *key, size_t *len);
/*
 * The same, for fields some cases leave out (absent: NULL with *len 0, or
 * an empty buffer if @need), and without Check's per-call bookkeeping,
 * which dominated the run time of suites that read thousands of cases.
 */
u8 *rt_wp_opt_hex(json_t *obj, const char *key, size_t *len, bool need);
/* "valid", "invalid", "acceptable" -> 1, 0, -1 */
int rt_wp_result(json_t *test);
/* 1 if the test's flags array contains @flag */
int rt_wp_has_flag(json_t *test, const char *flag);

/* How a Wycheproof key field is given: hex (raw bytes, DER), PEM text, a JWK object. */
enum rt_wp_kind { RT_WP_HEX, RT_WP_PEM, RT_WP_JWK };
/* The key field @field of @test as a malloc'd buffer (PEM and JWK as text). */
u8 *rt_wp_key(json_t *test, const char *field, enum rt_wp_kind kind, size_t *len);

/*
 * Make the JWK private key in @buf (@r: the export's return, with a byte
 * to spare after it) one whose "x" does not belong to its "d": the first
 * character of "x" changed.  A correct key loader must refuse it.
 */
void rt_jwk_break_x(const char *drv, u8 *buf, int r);

/*
 * One kpp request on @tfm: the shared secret with the peer key @in, or
 * (shared false, @in unused) the public key.  *outlen is the room in @out
 * on entry, the result's length on return.  Returns the request's error.
 */
struct crypto_kpp;
int rt_kpp_op(struct crypto_kpp *tfm, bool shared, const void *in, unsigned int inlen,
	      u8 *out, unsigned int *outlen);

/*
 * OpenSSL keys for the differential tests (struct evp_pkey_st is EVP_PKEY;
 * testutil.h does not pull in the OpenSSL headers).  rt_ossl_read parses a
 * private (PKCS#8 or traditional) or public (SPKI) key, DER or PEM; NULL if
 * OpenSSL refuses it or DER input has trailing bytes.  rt_ossl_write returns
 * OpenSSL's encoding, malloc'd, in the form @form.
 */
enum rt_ossl_form {
	RT_OSSL_DER,		/* PKCS#8 or SPKI DER */
	RT_OSSL_PEM,		/* PKCS#8 or SPKI PEM */
	RT_OSSL_TRAD_DER,	/* the key type's own private form (EC: SEC1) */
	RT_OSSL_TRAD_PEM,
};
struct evp_pkey_st;
struct evp_pkey_st *rt_ossl_read(const u8 *buf, size_t len, bool priv, bool pem);
u8 *rt_ossl_write(struct evp_pkey_st *p, bool priv, enum rt_ossl_form form, size_t *len);
/*
 * A key rind exported (@r: the export's return, > 0) read by OpenSSL: it
 * must parse as an EVP_PKEY of type @id whose raw private or public key is
 * @raw (@rawlen <= 64).  Fails the test naming @drv otherwise.
 */
struct evp_pkey_st *rt_ossl_read_raw(const char *drv, const u8 *enc, int r, bool priv, bool pem,
				     int id, const u8 *raw, size_t rawlen);

/*
 * AEAD requests as the AEAD suites make them: out of place or in place,
 * one buffer or scatterlists cut at random (rt_sg_split).
 */
enum { RT_M_OUT, RT_M_INPLACE, RT_M_SPLIT_OUT, RT_M_SPLIT_INPLACE, RT_M_COUNT };
extern const char *const rt_mode_name[RT_M_COUNT];

struct rt_run {
	int err;
	u8 *out;	/* the destination buffer after the call: AD || output (malloc'd) */
	size_t outlen;	/* output bytes after the AD */
};

/* 1 if the @n bytes at @p are all zero (without an early exit). */
bool rt_all_zero(const u8 *p, size_t n);
/*
 * One encrypt or decrypt of @in (@inlen bytes after the @adlen bytes of
 * AD) in @mode, with the tfm's authsize; the destination starts filled
 * with 0xa5, and the call must neither write past it nor change @iv.
 */
struct crypto_aead;
struct rt_run rt_aead_req(struct crypto_aead *tfm, bool enc, const u8 *iv, const u8 *ad,
			  size_t adlen, const u8 *in, size_t inlen, int mode, struct rt_rng *rng);
/* Encrypting @pt must give @exp (ct || tag), and decrypting @exp @pt, with the AD kept. */
void rt_aead_both_ways(struct crypto_aead *tfm, const u8 *iv, const u8 *ad, size_t adlen,
		       const u8 *pt, size_t len, const u8 *exp, int mode, struct rt_rng *rng,
		       const char *what);
/* Decrypting the forgery @ct must fail with -EBADMSG and leave no plaintext. */
void rt_aead_forgery(struct crypto_aead *tfm, const u8 *iv, const u8 *ad, size_t adlen,
		     const u8 *ct, size_t ctlen, int mode, struct rt_rng *rng, const char *what);

/*
 * Big-endian @a (@nb bytes) minus the small @v, in place; the caller
 * keeps a >= v, so nothing borrows out of the top byte.
 */
void rt_be_sub_small(u8 *a, unsigned int nb, unsigned int v);
/*
 * The @idx-th scalar of the edge list the EC differential tests walk, as
 * @nb big-endian bytes, 1 <= k < n for the group order @order: 1 .. 8
 * (idx 0-7), n - 1 .. n - 4 (8-11), (n - 1) / 2 and (n + 1) / 2 (12, 13),
 * 2^(40j + 7) for j = 0..5 (14-19), random below n (20 up to
 * @random_end), then a byte repeated (0xff, 0xaa, 0x55, 0x0f, 0xf0, 0x81,
 * 0x7f, 0x01, cut below n): long runs of extreme signed digits and zeros.
 */
void rt_edge_scalar(u8 *k, unsigned int idx, const u8 *order, unsigned int nb,
		    unsigned int random_end, struct rt_rng *rng);
/*
 * The CPU has BMI2 and ADX (false off x86-64).  The CPU's answer, not the
 * registry's: RIND_DISABLE masks drivers, not the tests that call the
 * x86 code directly.
 */
bool rt_cpu_has_bmi2_adx(void);

/* Print a count line, e.g. "aes_gcm_test.json: 316 cases (gcm(aes-generic))". */
void rt_report(const char *what, const char *impl, int ran, int skipped);

/* One Check runner per suite file. */
#define RIND_TEST_MAIN(suite_fn)						\
	int main(void)								\
	{									\
		SRunner *sr = srunner_create(suite_fn());			\
		int nf;								\
		srunner_run_all(sr, CK_NORMAL);					\
		nf = srunner_ntests_failed(sr);					\
		srunner_free(sr);						\
		return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;			\
	}

#endif
