// SPDX-License-Identifier: MIT
/*
 * GHASH, the universal hash of GCM (NIST SP 800-38D section 6.4), generic C.
 *
 * Elements of GF(2^128) are kept as the block read big-endian into two
 * 64-bit words; in that form bit 127 is the coefficient of x^0, so a block
 * is the bit reflection of its polynomial.  The carry-less product of two
 * reflected operands is the reflection of the true product shifted right by
 * one bit, which the reduction accounts for.
 *
 * Carry-less 64x64 products come from ordinary integer multiplications:
 * each operand is split into five words holding only the bits whose index
 * is congruent to 0, 1, 2, 3 or 4 modulo 5.  Each bit of such a partial
 * product sums at most 13 one-bit terms, so its carries stay within the
 * four bits above it, which belong to other classes and are masked away;
 * XORing the partial products of one class keeps the parity, which is the
 * carry-less result.  The multiplier has no table and no branch: its time
 * does not depend on H or the data.
 *
 * The shash "ghash" has the kernel's ghash-generic interface: a 16-byte
 * key H, a 16-byte digest, a trailing partial block padded with zeros.
 */
#include <rind/internal/hash.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/ghash.h>

typedef unsigned __int128 u128;

#define M5 0x1084210842108421ULL	/* bits 0, 5, 10, ..., 60 */

static inline u64 m64(int i)
{
	return M5 << i;
}

static void split5(u64 out[5], u64 v)
{
	int i;

	for (i = 0; i < 5; i++)
		out[i] = v & m64(i);
}

/* Carry-less product of @x and the pre-split @y (64 x 64 -> 128 bits). */
static inline u128 clmul64(u64 x, const u64 y[5])
{
	u64 x0 = x & m64(0), x1 = x & m64(1), x2 = x & m64(2);
	u64 x3 = x & m64(3), x4 = x & m64(4);
	u128 z0, z1, z2, z3, z4, r;

#define MUL(a, b) ((u128)(a) * (b))
	z0 = MUL(x0, y[0]) ^ MUL(x1, y[4]) ^ MUL(x2, y[3]) ^ MUL(x3, y[2]) ^ MUL(x4, y[1]);
	z1 = MUL(x0, y[1]) ^ MUL(x1, y[0]) ^ MUL(x2, y[4]) ^ MUL(x3, y[3]) ^ MUL(x4, y[2]);
	z2 = MUL(x0, y[2]) ^ MUL(x1, y[1]) ^ MUL(x2, y[0]) ^ MUL(x3, y[4]) ^ MUL(x4, y[3]);
	z3 = MUL(x0, y[3]) ^ MUL(x1, y[2]) ^ MUL(x2, y[1]) ^ MUL(x3, y[0]) ^ MUL(x4, y[4]);
	z4 = MUL(x0, y[4]) ^ MUL(x1, y[3]) ^ MUL(x2, y[2]) ^ MUL(x3, y[1]) ^ MUL(x4, y[0]);
#undef MUL
	/* class k: low word positions k mod 5, high word (64 + t) -> t = k + 1 mod 5 */
	r  = z0 & (((u128)m64(1) << 64) | m64(0));
	r |= z1 & (((u128)m64(2) << 64) | m64(1));
	r |= z2 & (((u128)m64(3) << 64) | m64(2));
	r |= z3 & (((u128)m64(4) << 64) | m64(3));
	r |= z4 & (((u128)m64(0) << 64) | m64(4));
	return r;
}

void ghash_generic_setkey(struct ghash_key *key, const u8 h[16])
{
	u64 hi = get_unaligned_be64(h), lo = get_unaligned_be64(h + 8);

	split5(key->h[0], hi);
	split5(key->h[1], lo);
	split5(key->h[2], hi ^ lo);
}

/* acc = acc * H */
static inline void ghash_mul(const struct ghash_key *key, struct ghash_acc *acc)
{
	u128 hi, lo, mid;
	u64 p0, p1, p2, p3;

	hi = clmul64(acc->hi, key->h[0]);
	lo = clmul64(acc->lo, key->h[1]);
	mid = clmul64(acc->hi ^ acc->lo, key->h[2]) ^ hi ^ lo;

	p3 = (u64)(hi >> 64);
	p2 = (u64)hi ^ (u64)(mid >> 64);
	p1 = (u64)(lo >> 64) ^ (u64)mid;
	p0 = (u64)lo;

	/* The reflected product is one bit short: shift the 256 bits left. */
	p3 = (p3 << 1) | (p2 >> 63);
	p2 = (p2 << 1) | (p1 >> 63);
	p1 = (p1 << 1) | (p0 >> 63);
	p0 <<= 1;

	/*
	 * (p3,p2) hold x^0..x^127, (p1,p0) x^128..x^255 (reflected).  Fold
	 * with x^128 = x^7 + x^2 + x + 1; multiplying by x is a right shift
	 * here, and what falls off the bottom of a word goes to the next.
	 */
	p2 ^= p0 ^ (p0 >> 1) ^ (p0 >> 2) ^ (p0 >> 7);
	p1 ^= (p0 << 63) ^ (p0 << 62) ^ (p0 << 57);
	p3 ^= p1 ^ (p1 >> 1) ^ (p1 >> 2) ^ (p1 >> 7);
	p2 ^= (p1 << 63) ^ (p1 << 62) ^ (p1 << 57);

	acc->hi = p3;
	acc->lo = p2;
}

void ghash_generic_blocks(const struct ghash_key *key, struct ghash_acc *acc,
			  const u8 *src, size_t nblocks)
{
	while (nblocks--) {
		acc->hi ^= get_unaligned_be64(src);
		acc->lo ^= get_unaligned_be64(src + 8);
		ghash_mul(key, acc);
		src += 16;
	}
}

void ghash_generic_pad(const struct ghash_key *key, struct ghash_acc *acc,
		       const u8 *src, size_t len)
{
	size_t n = len / 16, rem = len % 16;
	u8 buf[16];

	ghash_generic_blocks(key, acc, src, n);
	if (rem) {
		memset(buf, 0, sizeof(buf));
		memcpy(buf, src + n * 16, rem);
		ghash_generic_blocks(key, acc, buf, 1);
		memzero_explicit(buf, sizeof(buf));
	}
}

void ghash_generic_lengths(const struct ghash_key *key, struct ghash_acc *acc,
			   u64 adlen, u64 ctlen)
{
	acc->hi ^= adlen * 8;
	acc->lo ^= ctlen * 8;
	ghash_mul(key, acc);
}

void ghash_acc_out(const struct ghash_acc *acc, u8 out[16])
{
	put_unaligned_be64(acc->hi, out);
	put_unaligned_be64(acc->lo, out + 8);
}

/* ---- the "ghash" shash ---- */

struct ghash_desc_ctx {
	struct ghash_acc acc;
	u8 buf[16];		/* pending partial block */
	unsigned int bytes;
};

static int ghash_setkey(struct crypto_shash *tfm, const u8 *key, unsigned int keylen)
{
	struct ghash_key *ctx = crypto_shash_ctx(tfm);

	if (keylen != GHASH_BLOCK_SIZE)
		return -EINVAL;
	ghash_generic_setkey(ctx, key);
	return 0;
}

static int ghash_init(struct shash_desc *desc)
{
	struct ghash_desc_ctx *d = shash_desc_ctx(desc);

	memset(d, 0, sizeof(*d));
	return 0;
}

static int ghash_update(struct shash_desc *desc, const u8 *src, unsigned int len)
{
	const struct ghash_key *key = crypto_shash_ctx(desc->tfm);
	struct ghash_desc_ctx *d = shash_desc_ctx(desc);
	unsigned int n;

	if (d->bytes) {
		n = min(len, GHASH_BLOCK_SIZE - d->bytes);
		memcpy(d->buf + d->bytes, src, n);
		d->bytes += n;
		src += n;
		len -= n;
		if (d->bytes < GHASH_BLOCK_SIZE)
			return 0;
		ghash_generic_blocks(key, &d->acc, d->buf, 1);
		d->bytes = 0;
	}
	ghash_generic_blocks(key, &d->acc, src, len / GHASH_BLOCK_SIZE);
	src += len & ~(GHASH_BLOCK_SIZE - 1);
	len %= GHASH_BLOCK_SIZE;
	if (len) {
		memcpy(d->buf, src, len);
		d->bytes = len;
	}
	return 0;
}

static int ghash_final(struct shash_desc *desc, u8 *out)
{
	const struct ghash_key *key = crypto_shash_ctx(desc->tfm);
	struct ghash_desc_ctx *d = shash_desc_ctx(desc);

	if (d->bytes) {
		memset(d->buf + d->bytes, 0, GHASH_BLOCK_SIZE - d->bytes);
		ghash_generic_blocks(key, &d->acc, d->buf, 1);
	}
	ghash_acc_out(&d->acc, out);
	memzero_explicit(d, sizeof(*d));
	return 0;
}

static struct shash_alg ghash_alg = {
	.init		= ghash_init,
	.update		= ghash_update,
	.final		= ghash_final,
	.setkey		= ghash_setkey,
	.descsize	= sizeof(struct ghash_desc_ctx),
	.digestsize	= GHASH_DIGEST_SIZE,
	.base = {
		.cra_name		= "ghash",
		.cra_driver_name	= "ghash-generic",
		.cra_priority		= 100,
		.cra_blocksize		= GHASH_BLOCK_SIZE,
		.cra_ctxsize		= sizeof(struct ghash_key),
		.cra_module		= "generic",
	},
};

/*
 * Known answers (H of GCM test cases 2 and 3), checked against GHASH values
 * derived from OpenSSL's GMAC; the second has a trailing partial block.
 */
static const struct hash_testvec ghash_tv[] = {
	{
		.key	= "\x66\xe9\x4b\xd4\xef\x8a\x2c\x3b\x88\x4c\xfa\x59\xca\x34\x2b\x2e",
		.plaintext	= "\x0b\x30\x55\x7a\x9f\xc4\xe9\x0e\x33\x58\x7d\xa2\xc7\xec\x11\x36",
		.digest	= "\x00\x89\x6c\xbe\x9f\x1a\x58\xc6\xa1\x9f\x13\x77\x77\x10\xff\xf2",
		.ksize	= 16,
		.psize	= 16,
	},
	{
		.key	= "\xb8\x3b\x53\x37\x08\xbf\x53\x5d\x0a\xa6\xe5\x29\x80\xd5\x3b\x78",
		.plaintext	= "\x0b\x30\x55\x7a\x9f\xc4\xe9\x0e\x33\x58\x7d\xa2\xc7\xec\x11\x36"
			  "\x5b\x80\xa5\xca\xef\x14\x39\x5e\x83\xa8\xcd\xf2\x17\x3c\x61\x86"
			  "\xab",
		.digest	= "\x84\xfa\x20\x14\xd5\x4c\xbe\x04\xb6\x13\x33\xaf\xce\xf8\xb0\x35",
		.ksize	= 16,
		.psize	= 33,
	},
	{
		.key	= "\x66\xe9\x4b\xd4\xef\x8a\x2c\x3b\x88\x4c\xfa\x59\xca\x34\x2b\x2e",
		.plaintext	= "\x0b\x30\x55\x7a\x9f\xc4\xe9\x0e\x33\x58\x7d\xa2\xc7\xec\x11\x36"
			  "\x5b\x80\xa5\xca\xef\x14\x39\x5e\x83\xa8\xcd\xf2\x17\x3c\x61\x86"
			  "\xab\xd0\xf5\x1a\x3f\x64\x89\xae\xd3\xf8\x1d\x42\x67\x8c\xb1\xd6"
			  "\xfb\x20\x45\x6a\x8f\xb4\xd9\xfe\x23\x48\x6d\x92\xb7\xdc\x01\x26"
			  "\x4b\x70\x95\xba\xdf\x04\x29\x4e\x73\x98\xbd\xe2\x07\x2c\x51\x76",
		.digest	= "\x7e\xcb\x7c\x35\xba\x86\x9b\x48\x64\xc7\x7f\xa3\xac\x65\xcb\xe0",
		.ksize	= 16,
		.psize	= 80,
	},
};

static struct alg_test_desc ghash_test = {
	.alg = "ghash",
	.suite.hash = __VECS(ghash_tv),
};

static int ghash_mod_init(void)
{
	crypto_register_test(&ghash_test);
	return crypto_register_shash(&ghash_alg);
}
module_init(ghash_mod_init);
