// SPDX-License-Identifier: MIT
/*
 * OSSL_PARAM arrays, read and written by hand.  libcrypto has OSSL_PARAM_*
 * helpers for this, but a provider that calls no libcrypto function has
 * to do without: the layout is public (<openssl/core.h>), integers are in
 * native byte order, and a parameter whose data is NULL only asks for the
 * size (return_size).
 */
#include <string.h>
#include <strings.h>
#include <stdlib.h>
#include "prov.h"

const OSSL_PARAM *rp_locate_c(const OSSL_PARAM *p, const char *key)
{
	for (; p && p->key; p++)
		if (!strcmp(p->key, key))
			return p;
	return NULL;
}

OSSL_PARAM *rp_locate(OSSL_PARAM *p, const char *key)
{
	for (; p && p->key; p++)
		if (!strcmp(p->key, key))
			return p;
	return NULL;
}

void rp_scan(const OSSL_PARAM *params, const char *const names[], unsigned int n,
	     const OSSL_PARAM *found[])
{
	const OSSL_PARAM *p;
	unsigned int i;

	for (i = 0; i < n; i++)
		found[i] = NULL;
	for (p = params; p && p->key; p++) {
		char c = p->key[0];

		for (i = 0; i < n; i++) {
			const char *a = names[i], *b = p->key;

			if (a[0] != c)
				continue;
			/* the rest inline: keys are short, a call to strcmp costs more */
			while (*a && *a == *b) {
				a++;
				b++;
			}
			if (*a != *b)
				continue;
			if (!found[i])
				found[i] = p;
			break;
		}
	}
}

void rp_scan_w(OSSL_PARAM *params, const char *const names[], unsigned int n, OSSL_PARAM *found[])
{
	/* The same pass; what it finds is in @params, which the caller may write. */
	rp_scan(params, names, n, (const OSSL_PARAM **)found);
}

int rp_get_i64(const OSSL_PARAM *p, int64_t *v)
{
	if (!p || !p->data)
		return 0;
	if (p->data_type == OSSL_PARAM_INTEGER) {
		switch (p->data_size) {
		case 1: *v = *(const int8_t *)p->data; return 1;
		case 2: *v = *(const int16_t *)p->data; return 1;
		case 4: *v = *(const int32_t *)p->data; return 1;
		case 8: *v = *(const int64_t *)p->data; return 1;
		}
	} else if (p->data_type == OSSL_PARAM_UNSIGNED_INTEGER) {
		uint64_t u;
		switch (p->data_size) {
		case 1: u = *(const uint8_t *)p->data; break;
		case 2: u = *(const uint16_t *)p->data; break;
		case 4: u = *(const uint32_t *)p->data; break;
		case 8: u = *(const uint64_t *)p->data; break;
		default: return 0;
		}
		if (u > INT64_MAX)
			return 0;
		*v = (int64_t)u;
		return 1;
	}
	return 0;
}

int rp_get_int(const OSSL_PARAM *p, int *v)
{
	int64_t x;

	if (!rp_get_i64(p, &x) || x < -2147483647 - 1 || x > 2147483647)
		return 0;
	*v = (int)x;
	return 1;
}

int rp_get_uint(const OSSL_PARAM *p, unsigned int *v)
{
	int64_t x;

	if (!rp_get_i64(p, &x) || x < 0 || x > 0xffffffffLL)
		return 0;
	*v = (unsigned int)x;
	return 1;
}

int rp_get_size_t(const OSSL_PARAM *p, size_t *v)
{
	int64_t x;

	if (!rp_get_i64(p, &x) || x < 0)
		return 0;
	*v = (size_t)x;
	return 1;
}

int rp_get_utf8(const OSSL_PARAM *p, const char **s)
{
	if (!p)
		return 0;
	if (p->data_type == OSSL_PARAM_UTF8_STRING && p->data) {
		*s = p->data;
		return 1;
	}
	if (p->data_type == OSSL_PARAM_UTF8_PTR && p->data && *(const char **)p->data) {
		*s = *(const char **)p->data;
		return 1;
	}
	return 0;
}

int rp_get_octets(const OSSL_PARAM *p, const void **d, size_t *n)
{
	if (!p)
		return 0;
	if (p->data_type == OSSL_PARAM_OCTET_STRING || p->data_type == OSSL_PARAM_UTF8_STRING) {
		*d = p->data;
		*n = p->data_size;
		return p->data != NULL || p->data_size == 0;
	}
	if (p->data_type == OSSL_PARAM_OCTET_PTR && p->data) {
		*d = *(const void **)p->data;
		*n = p->data_size;
		return 1;
	}
	return 0;
}

/* Native order (little-endian here) unsigned magnitude, as libcrypto's BN params. */
static const uint8_t *bn_bytes(const OSSL_PARAM *p, size_t *n)
{
	if (!p || p->data_type != OSSL_PARAM_UNSIGNED_INTEGER || !p->data)
		return NULL;
	*n = p->data_size;
	return p->data;
}

size_t rp_bn_len(const OSSL_PARAM *p)
{
	size_t n;
	const uint8_t *b = bn_bytes(p, &n);

	if (!b)
		return 0;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (n && !b[n - 1])
		n--;
#else
	while (n && !*b) {
		b++;
		n--;
	}
#endif
	return n;
}

int rp_get_bn(const OSSL_PARAM *p, uint8_t *out, size_t len)
{
	size_t n, i, sig = rp_bn_len(p);
	const uint8_t *b = bn_bytes(p, &n);

	if (!b || sig > len)
		return 0;
	memset(out, 0, len);
	for (i = 0; i < sig; i++) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		out[len - 1 - i] = b[i];
#else
		out[len - 1 - i] = b[n - 1 - i];
#endif
	}
	return 1;
}

int rp_set_bn(OSSL_PARAM *p, const uint8_t *be, size_t len)
{
	size_t i;
	uint8_t *d;

	while (len > 1 && !*be) {
		be++;
		len--;
	}
	if (p->data_type != OSSL_PARAM_UNSIGNED_INTEGER)
		return 0;
	p->return_size = len;
	if (!p->data)
		return 1;
	if (p->data_size < len)
		return 0;
	d = p->data;
	memset(d, 0, p->data_size);
	for (i = 0; i < len; i++) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		d[i] = be[len - 1 - i];
#else
		d[p->data_size - 1 - i] = be[len - 1 - i];
#endif
	}
	p->return_size = p->data_size;
	return 1;
}

int rp_set_i64(OSSL_PARAM *p, int64_t v)
{
	if (p->data_type == OSSL_PARAM_INTEGER) {
		if (!p->data) {
			p->return_size = sizeof(int);
			return 1;
		}
		switch (p->data_size) {
		case 4:
			if (v < INT32_MIN || v > INT32_MAX)
				return 0;
			*(int32_t *)p->data = (int32_t)v;
			break;
		case 8: *(int64_t *)p->data = v; break;
		default: return 0;
		}
	} else if (p->data_type == OSSL_PARAM_UNSIGNED_INTEGER) {
		if (v < 0)
			return 0;
		if (!p->data) {
			p->return_size = sizeof(size_t);
			return 1;
		}
		switch (p->data_size) {
		case 4:
			if (v > UINT32_MAX)
				return 0;
			*(uint32_t *)p->data = (uint32_t)v;
			break;
		case 8: *(uint64_t *)p->data = (uint64_t)v; break;
		default: return 0;
		}
	} else {
		return 0;
	}
	p->return_size = p->data_size;
	return 1;
}

int rp_set_int(OSSL_PARAM *p, int v) { return rp_set_i64(p, v); }
int rp_set_size_t(OSSL_PARAM *p, size_t v) { return rp_set_i64(p, (int64_t)v); }

int rp_set_utf8(OSSL_PARAM *p, const char *s)
{
	size_t n = strlen(s);

	if (p->data_type == OSSL_PARAM_UTF8_PTR) {
		p->return_size = n;
		if (p->data)
			*(const char **)p->data = s;
		return 1;
	}
	if (p->data_type != OSSL_PARAM_UTF8_STRING)
		return 0;
	p->return_size = n;
	if (!p->data)
		return 1;
	if (p->data_size < n + 1)
		return 0;
	memcpy(p->data, s, n + 1);
	return 1;
}

int rp_set_octets(OSSL_PARAM *p, const void *d, size_t n)
{
	if (p->data_type == OSSL_PARAM_OCTET_PTR) {
		p->return_size = n;
		if (p->data)
			*(const void **)p->data = d;
		return 1;
	}
	if (p->data_type != OSSL_PARAM_OCTET_STRING)
		return 0;
	p->return_size = n;
	if (!p->data)
		return 1;
	if (p->data_size < n)
		return 0;
	if (n)
		memcpy(p->data, d, n);
	return 1;
}

int rp_put_int(OSSL_PARAM *params, const char *key, int v)
{
	OSSL_PARAM *p = rp_locate(params, key);
	return !p || rp_set_int(p, v);
}

int rp_put_size_t(OSSL_PARAM *params, const char *key, size_t v)
{
	OSSL_PARAM *p = rp_locate(params, key);
	return !p || rp_set_size_t(p, v);
}

int rp_put_utf8(OSSL_PARAM *params, const char *key, const char *s)
{
	OSSL_PARAM *p = rp_locate(params, key);
	return !p || rp_set_utf8(p, s);
}

int rp_put_octets(OSSL_PARAM *params, const char *key, const void *d, size_t n)
{
	OSSL_PARAM *p = rp_locate(params, key);
	return !p || rp_set_octets(p, d, n);
}

int rp_cipher_get_params(OSSL_PARAM params[], int mode, size_t keylen, size_t ivlen,
			 size_t blocksize, int aead)
{
	return rp_put_int(params, OSSL_CIPHER_PARAM_MODE, mode)
		&& rp_put_size_t(params, OSSL_CIPHER_PARAM_KEYLEN, keylen)
		&& rp_put_size_t(params, OSSL_CIPHER_PARAM_IVLEN, ivlen)
		&& rp_put_size_t(params, OSSL_CIPHER_PARAM_BLOCK_SIZE, blocksize)
		&& rp_put_int(params, OSSL_CIPHER_PARAM_AEAD, aead)
		&& rp_put_int(params, OSSL_CIPHER_PARAM_CUSTOM_IV, aead)
		&& rp_put_int(params, OSSL_CIPHER_PARAM_CTS, 0)
		&& rp_put_int(params, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, 0)
		&& rp_put_int(params, OSSL_CIPHER_PARAM_HAS_RAND_KEY, 0);
}

static const OSSL_PARAM cipher_gettable[] = {
	{ OSSL_CIPHER_PARAM_MODE, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(unsigned int), 0 },
	{ OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ OSSL_CIPHER_PARAM_IVLEN, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ OSSL_CIPHER_PARAM_BLOCK_SIZE, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0 },
	{ OSSL_CIPHER_PARAM_AEAD, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ OSSL_CIPHER_PARAM_CUSTOM_IV, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ OSSL_CIPHER_PARAM_CTS, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ OSSL_CIPHER_PARAM_HAS_RAND_KEY, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0 },
	{ NULL, 0, NULL, 0, 0 }
};

const OSSL_PARAM *rp_cipher_gettable_params(void *provctx)
{
	(void)provctx;
	return cipher_gettable;
}

int rind_name_in(const char *names, const char *name)
{
	size_t n = strlen(name);

	while (names && *names) {
		const char *e = strchr(names, ':');
		size_t l = e ? (size_t)(e - names) : strlen(names);

		if (l == n && !strncasecmp(names, name, n))
			return 1;
		names = e ? e + 1 : NULL;
	}
	return 0;
}

void rind_clear_free(void *p, size_t n)
{
	if (!p)
		return;
	rind_memzero_explicit(p, n);
	free(p);
}
