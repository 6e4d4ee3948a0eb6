// SPDX-License-Identifier: MIT
/*
 * base64 and base64url (RFC 4648 sections 4 and 5), strict, constant-time:
 * characters are mapped to and from 6-bit values with arithmetic masks
 * rather than tables, and validity is accumulated without early exit, so
 * private keys in PEM or JWK leak nothing through cache or branch timing.
 * Only the amount of '=' padding (a function of the public length) and the
 * final verdict are branched on (declassified for the valgrind build).
 */
#include <errno.h>
#include <limits.h>
#include <rind/err.h>
#include <rind/internal/keyfmt.h>
#include <rind/internal/util.h>

/* All-ones if lo <= c <= hi, else 0 (c, lo, hi small non-negative). */
static inline u32 ct_in(int c, int lo, int hi)
{
	return 0u - (((u32)((lo - 1 - c) & (c - hi - 1))) >> 31);
}

static inline u32 ct_eq(int c, int v)
{
	return ct_in(c, v, v);
}

/* 6-bit value of @c, and *bad |= all-ones when @c is not in the alphabet. */
static inline u32 b64_val(u8 ch, int flags, u32 *bad)
{
	int c = ch;
	u32 az = ct_in(c, 'A', 'Z'), lz = ct_in(c, 'a', 'z'), d = ct_in(c, '0', '9');
	u32 p62 = ct_eq(c, (flags & RIND_B64_URL) ? '-' : '+');
	u32 p63 = ct_eq(c, (flags & RIND_B64_URL) ? '_' : '/');
	u32 v;

	v = (az & (u32)(c - 'A')) | (lz & (u32)(c - 'a' + 26)) |
	    (d & (u32)(c - '0' + 52)) | (p62 & 62u) | (p63 & 63u);
	*bad |= ~(az | lz | d | p62 | p63);
	return v & 63;
}

static inline char b64_chr(u32 v, int flags)
{
	int x = (int)(v & 63);
	u32 c;

	c = (ct_in(x, 0, 25) & (u32)('A' + x)) |
	    (ct_in(x, 26, 51) & (u32)('a' + x - 26)) |
	    (ct_in(x, 52, 61) & (u32)('0' + x - 52)) |
	    (ct_eq(x, 62) & (u32)((flags & RIND_B64_URL) ? '-' : '+')) |
	    (ct_eq(x, 63) & (u32)((flags & RIND_B64_URL) ? '_' : '/'));
	return (char)c;
}

int rind_base64_decode(const char *in, size_t inlen, u8 *out, size_t outlen, int flags)
{
	const u8 *s = (const u8 *)in;
	size_t body, rem, olen, i, o = 0;
	u32 bad = 0, a, b, c, d;

	if (inlen > (size_t)INT_MAX)
		return -EKEYREJECTED;
	if (flags & RIND_B64_NOPAD) {
		if (inlen % 4 == 1)
			return -EKEYREJECTED;
		body = inlen;
	} else {
		if (inlen % 4)
			return -EKEYREJECTED;
		body = inlen;
		if (inlen) {
			/* How much padding there is follows from the public length. */
			u32 p1 = ct_eq(s[inlen - 1], '='), p2 = ct_eq(s[inlen - 2], '=') & p1;

			rind_declassify(&p1, sizeof(p1));
			rind_declassify(&p2, sizeof(p2));
			body -= (p1 & 1) + (p2 & 1);
		}
	}
	rem = body % 4;
	olen = body / 4 * 3 + (rem ? rem - 1 : 0);
	if (olen > outlen)
		return -ENOSPC;

	for (i = 0; i + 4 <= body; i += 4) {
		a = b64_val(s[i], flags, &bad);
		b = b64_val(s[i + 1], flags, &bad);
		c = b64_val(s[i + 2], flags, &bad);
		d = b64_val(s[i + 3], flags, &bad);
		out[o++] = (u8)(a << 2 | b >> 4);
		out[o++] = (u8)(b << 4 | c >> 2);
		out[o++] = (u8)(c << 6 | d);
	}
	if (rem == 2) {
		a = b64_val(s[i], flags, &bad);
		b = b64_val(s[i + 1], flags, &bad);
		bad |= 0u - ((b & 0x0f) != 0);		/* unused bits must be 0 */
		out[o++] = (u8)(a << 2 | b >> 4);
	} else if (rem == 3) {
		a = b64_val(s[i], flags, &bad);
		b = b64_val(s[i + 1], flags, &bad);
		c = b64_val(s[i + 2], flags, &bad);
		bad |= 0u - ((c & 0x03) != 0);
		out[o++] = (u8)(a << 2 | b >> 4);
		out[o++] = (u8)(b << 4 | c >> 2);
	} else if (rem == 1) {
		bad = ~0u;				/* "xxx=" ... "x===" */
	}
	rind_declassify(&bad, sizeof(bad));	/* the verdict is public */
	if (bad) {
		memzero_explicit(out, o);
		return -EKEYREJECTED;
	}
	return (int)olen;
}

int rind_base64_encode(const u8 *in, size_t inlen, char *out, size_t outlen, int flags)
{
	size_t olen = rind_base64_encoded_len(inlen, flags), i, o = 0;
	u32 v;

	if (inlen > (size_t)INT_MAX / 2)
		return -ENOSPC;
	if (olen > outlen)
		return -ENOSPC;
	for (i = 0; i + 3 <= inlen; i += 3) {
		v = (u32)in[i] << 16 | (u32)in[i + 1] << 8 | in[i + 2];
		out[o++] = b64_chr(v >> 18, flags);
		out[o++] = b64_chr(v >> 12, flags);
		out[o++] = b64_chr(v >> 6, flags);
		out[o++] = b64_chr(v, flags);
	}
	if (inlen - i == 1) {
		v = (u32)in[i] << 16;
		out[o++] = b64_chr(v >> 18, flags);
		out[o++] = b64_chr(v >> 12, flags);
		if (!(flags & RIND_B64_NOPAD)) {
			out[o++] = '=';
			out[o++] = '=';
		}
	} else if (inlen - i == 2) {
		v = (u32)in[i] << 16 | (u32)in[i + 1] << 8;
		out[o++] = b64_chr(v >> 18, flags);
		out[o++] = b64_chr(v >> 12, flags);
		out[o++] = b64_chr(v >> 6, flags);
		if (!(flags & RIND_B64_NOPAD))
			out[o++] = '=';
	}
	return (int)o;
}
