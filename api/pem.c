// SPDX-License-Identifier: MIT
/*
 * PEM armor (RFC 7468), the strict form: one block, no headers, base64
 * lines of equal length (a multiple of 4, at most 76) but the last, padding
 * only at the very end, matching BEGIN/END labels.  LF or CRLF line ends;
 * only whitespace around the block.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <rind/err.h>
#include <rind/internal/keyfmt.h>
#include <rind/internal/util.h>

#define PEM_MAX_LINE 76

/*
 * Whether body character @c is @want (a line end or '='): the answer is
 * the public line structure of the armor, so it is computed without a
 * data-dependent branch and declassified (for the valgrind build, where
 * the base64 of a private key is secret).
 */
static int body_is(char c, char want)
{
	u32 x = (u32)(u8)c ^ (u32)(u8)want;
	u32 eq = ((x - 1) >> 8) & 1;

	rind_declassify(&eq, sizeof(eq));
	return (int)eq;
}

static int body_eol(char c)
{
	return body_is(c, '\n') | body_is(c, '\r');
}

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Length of the line ending at s[i] ("\n" or "\r\n"), 0 if none. */
static size_t eol(const char *s, size_t i, size_t n)
{
	if (i < n && s[i] == '\n')
		return 1;
	if (i + 1 < n && s[i] == '\r' && s[i + 1] == '\n')
		return 2;
	return 0;
}

/*
 * RFC 7468 label: printable characters other than '-', words separated by
 * a single space or hyphen ("X509 CRL", "NEW CERTIFICATE REQUEST").
 */
static int label_ok(const char *l, size_t n)
{
	size_t i;

	if (!n || l[0] == ' ' || l[0] == '-' || l[n - 1] == ' ' || l[n - 1] == '-')
		return 0;
	for (i = 0; i < n; i++) {
		if (l[i] == ' ' || l[i] == '-') {
			if (l[i - 1] == ' ' || l[i - 1] == '-')
				return 0;
		} else if (l[i] < 0x21 || l[i] > 0x7e) {
			return 0;
		}
	}
	return 1;
}

int rind_pem_decode(const char *in, size_t inlen, const char *label,
		    const char **label_out, size_t *label_len,
		    u8 *out, size_t outlen)
{
	static const char begin[] = "-----BEGIN ", end[] = "-----END ", dash[] = "-----";
	size_t i = 0, lstart, llen, linelen = 0, o = 0, e, j;
	int last = 0, n, err = -EKEYREJECTED;

	if (inlen > (size_t)INT_MAX)
		return -EKEYREJECTED;
	while (i < inlen && is_ws(in[i]))
		i++;
	if (inlen - i < sizeof(begin) - 1 || memcmp(in + i, begin, sizeof(begin) - 1))
		return -EKEYREJECTED;
	i += sizeof(begin) - 1;
	lstart = i;
	/* The label runs to the first "-----" on the line. */
	while (i < inlen && in[i] != '\r' && in[i] != '\n' &&
	       !(inlen - i >= 5 && !memcmp(in + i, dash, 5)))
		i++;
	llen = i - lstart;
	if (!label_ok(in + lstart, llen))
		return -EKEYREJECTED;
	if (label && (strlen(label) != llen || memcmp(label, in + lstart, llen)))
		return -EKEYREJECTED;
	if (inlen - i < 5 || memcmp(in + i, dash, 5))
		return -EKEYREJECTED;
	i += 5;
	e = eol(in, i, inlen);
	if (!e)
		return -EKEYREJECTED;
	i += e;

	/* Base64 lines up to the END line. */
	for (;;) {
		size_t s = i;

		/* '-' is not in the alphabet: a line starting with it ends the body. */
		if (i < inlen && body_is(in[i], '-')) {
			if (inlen - i >= sizeof(end) - 1 && !memcmp(in + i, end, sizeof(end) - 1))
				break;
			goto fail;
		}
		if (last)			/* a short line was not the last */
			goto fail;
		while (i < inlen && !body_eol(in[i]))
			i++;
		e = eol(in, i, inlen);
		if (!e || i == s || i - s > PEM_MAX_LINE)
			goto fail;
		if (!linelen)
			linelen = i - s;
		if (i - s > linelen)
			goto fail;
		if (i - s < linelen || (i - s) % 4 || body_is(in[i - 1], '='))
			last = 1;
		if (linelen % 4 && !last)
			goto fail;
		if (last && (i - s) % 4)
			n = -EKEYREJECTED;	/* padding is required */
		else
			n = rind_base64_decode(in + s, i - s, out + o, outlen - o,
					       last ? 0 : RIND_B64_NOPAD);
		if (n < 0) {
			err = n;
			goto fail;
		}
		o += (size_t)n;
		i += e;
	}
	if (!o)
		goto fail;
	i += sizeof(end) - 1;
	if (inlen - i < llen + 5 || memcmp(in + i, in + lstart, llen) ||
	    memcmp(in + i + llen, dash, 5))
		goto fail;
	i += llen + 5;
	for (j = i; j < inlen; j++)
		if (!is_ws(in[j]))
			goto fail;
	if (label_out)
		*label_out = in + lstart;
	if (label_len)
		*label_len = llen;
	return (int)o;
fail:
	memzero_explicit(out, o);
	return err;
}

/* "-----@what@label-----\n" at @out + @o (room checked by the caller); the new offset. */
static size_t pem_boundary(char *out, size_t o, const char *what, const char *label, size_t llen)
{
	size_t wl = strlen(what);

	memcpy(out + o, "-----", 5);
	memcpy(out + o + 5, what, wl);
	o += 5 + wl;
	memcpy(out + o, label, llen);
	o += llen;
	memcpy(out + o, "-----\n", 6);
	return o + 6;
}

int rind_pem_encode(const char *label, const u8 *der, size_t derlen, char *out, size_t outlen)
{
	size_t llen = strlen(label), b64 = rind_base64_encoded_len(derlen, 0);
	size_t total, o = 0, i;
	int n;

	if (!label_ok(label, llen) || derlen > (size_t)INT_MAX / 2)
		return -EINVAL;
	/* BEGIN line, body with a LF per 64 characters (rounded up), END line. */
	total = 11 + llen + 5 + 1 + b64 + (b64 + 63) / 64 + 9 + llen + 5 + 1;
	if (total > (size_t)INT_MAX)
		return -EINVAL;
	if (!out)
		return (int)total;
	if (total > outlen)
		return -ENOSPC;
	o = pem_boundary(out, o, "BEGIN ", label, llen);
	for (i = 0; i < derlen; i += 48) {
		size_t chunk = derlen - i < 48 ? derlen - i : 48;

		n = rind_base64_encode(der + i, chunk, out + o, outlen - o, 0);
		if (n < 0)
			return n;
		o += (size_t)n;
		out[o++] = '\n';
	}
	o = pem_boundary(out, o, "END ", label, llen);
	if (o < outlen)
		out[o] = '\0';
	return (int)o;
}
