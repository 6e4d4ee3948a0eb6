// SPDX-License-Identifier: MIT
/*
 * Keccak-f[1600] (FIPS 202 section 3) and the sponge construction over it
 * (section 4): SHA3-256, SHA3-512, SHAKE128, SHAKE256.  Lanes are held as
 * 64-bit words, lane (x, y) at index x + 5y, bytes little-endian.  Keccak
 * has no data-dependent branches or table lookups: it is constant time.
 * Also registers "sha3-256" and "sha3-512" as shash algorithms.
 */
#include <string.h>
#include <rind/internal/hash.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/keccak.h>
#include <crypto/keccak-rounds.h>

/*
 * The permutation: the portable rounds unless an arch driver installed
 * its own at init (before any use: module init runs first).
 */
static void keccak_f1600_generic(u64 a[25])
{
	keccak_f1600_rounds(a);
}

static void (*keccak_f1600_impl)(u64 a[25]) = keccak_f1600_generic;

void rind_keccak_set_f1600(void (*fn)(u64 a[25]))
{
	keccak_f1600_impl = fn ? fn : keccak_f1600_generic;
}

void rind_keccak_f1600(u64 a[25])
{
	keccak_f1600_impl(a);
}

void rind_keccak_init(struct keccak_state *st, unsigned int rate, u8 ds)
{
	memset(st->a, 0, sizeof(st->a));
	st->rate = rate;
	st->pos = 0;
	st->ds = ds;
	st->squeezing = false;
}

static inline void xor_byte(u64 *a, unsigned int pos, u8 v)
{
	a[pos / 8] ^= (u64)v << (8 * (pos % 8));
}

void rind_keccak_absorb(struct keccak_state *st, const void *in, size_t len)
{
	const u8 *p = in;

	while (len) {
		if (st->pos % 8 == 0 && len >= 8) {
			while (len >= 8 && st->pos < st->rate) {
				st->a[st->pos / 8] ^= get_unaligned_le64(p);
				st->pos += 8;
				p += 8;
				len -= 8;
			}
		} else {
			xor_byte(st->a, st->pos++, *p++);
			len--;
		}
		if (st->pos == st->rate) {
			rind_keccak_f1600(st->a);
			st->pos = 0;
		}
	}
}

void rind_keccak_finalize(struct keccak_state *st)
{
	if (st->squeezing)
		return;
	xor_byte(st->a, st->pos, st->ds);
	xor_byte(st->a, st->rate - 1, 0x80);
	rind_keccak_f1600(st->a);
	st->pos = 0;
	st->squeezing = true;
}

void rind_keccak_squeeze(struct keccak_state *st, void *out, size_t len)
{
	u8 *p = out;

	rind_keccak_finalize(st);
	while (len) {
		if (st->pos == st->rate) {
			rind_keccak_f1600(st->a);
			st->pos = 0;
		}
		if (st->pos % 8 == 0 && len >= 8) {
			put_unaligned_le64(st->a[st->pos / 8], p);
			st->pos += 8;
			p += 8;
			len -= 8;
		} else {
			*p++ = (u8)(st->a[st->pos / 8] >> (8 * (st->pos % 8)));
			st->pos++;
			len--;
		}
	}
}

void rind_keccak_squeeze_blocks(struct keccak_state *st, u8 *out, size_t nblocks)
{
	unsigned int i;

	rind_keccak_finalize(st);
	while (nblocks--) {
		if (st->pos == st->rate) {
			rind_keccak_f1600(st->a);
			st->pos = 0;
		}
		for (i = 0; i < st->rate / 8; i++)
			put_unaligned_le64(st->a[i], out + 8 * i);
		out += st->rate;
		st->pos = st->rate;
	}
}

static void keccak_oneshot(unsigned int rate, u8 ds, void *out, size_t outlen,
			   const void *in, size_t inlen)
{
	struct keccak_state st;

	rind_keccak_init(&st, rate, ds);
	rind_keccak_absorb(&st, in, inlen);
	rind_keccak_squeeze(&st, out, outlen);
	memzero_explicit(&st, sizeof(st));
}

void rind_sha3_256(u8 out[SHA3_256_DIGEST_SIZE], const void *in, size_t len)
{
	keccak_oneshot(SHA3_256_RATE, KECCAK_DS_SHA3, out, SHA3_256_DIGEST_SIZE, in, len);
}

void rind_sha3_512(u8 out[SHA3_512_DIGEST_SIZE], const void *in, size_t len)
{
	keccak_oneshot(SHA3_512_RATE, KECCAK_DS_SHA3, out, SHA3_512_DIGEST_SIZE, in, len);
}

void rind_shake128(void *out, size_t outlen, const void *in, size_t inlen)
{
	keccak_oneshot(SHAKE128_RATE, KECCAK_DS_SHAKE, out, outlen, in, inlen);
}

void rind_shake256(void *out, size_t outlen, const void *in, size_t inlen)
{
	keccak_oneshot(SHAKE256_RATE, KECCAK_DS_SHAKE, out, outlen, in, inlen);
}

/* ---- shash "sha3-256", "sha3-512" ----------------------------------------- */

static int sha3_256_init(struct shash_desc *desc)
{
	rind_keccak_init(shash_desc_ctx(desc), SHA3_256_RATE, KECCAK_DS_SHA3);
	return 0;
}

static int sha3_512_init(struct shash_desc *desc)
{
	rind_keccak_init(shash_desc_ctx(desc), SHA3_512_RATE, KECCAK_DS_SHA3);
	return 0;
}

static int sha3_update(struct shash_desc *desc, const u8 *data, unsigned int len)
{
	rind_keccak_absorb(shash_desc_ctx(desc), data, len);
	return 0;
}

static int sha3_final(struct shash_desc *desc, u8 *out)
{
	struct keccak_state *st = shash_desc_ctx(desc);

	/* The digest size is the capacity / 2 = (200 - rate) / 2. */
	rind_keccak_squeeze(st, out, (200 - st->rate) / 2);
	memzero_explicit(st, sizeof(*st));
	return 0;
}

static struct shash_alg sha3_algs[] = { {
	.init		= sha3_256_init,
	.update		= sha3_update,
	.final		= sha3_final,
	.descsize	= sizeof(struct keccak_state),
	.digestsize	= SHA3_256_DIGEST_SIZE,
	.base = {
		.cra_name		= "sha3-256",
		.cra_driver_name	= "sha3-256-generic",
		.cra_priority		= 100,
		.cra_blocksize		= SHA3_256_RATE,
		.cra_module		= "generic",
	},
}, {
	.init		= sha3_512_init,
	.update		= sha3_update,
	.final		= sha3_final,
	.descsize	= sizeof(struct keccak_state),
	.digestsize	= SHA3_512_DIGEST_SIZE,
	.base = {
		.cra_name		= "sha3-512",
		.cra_driver_name	= "sha3-512-generic",
		.cra_priority		= 100,
		.cra_blocksize		= SHA3_512_RATE,
		.cra_module		= "generic",
	},
} };

/* FIPS 202 examples (NIST CSRC SHA3 example values). */
static const struct hash_testvec sha3_256_tv[] = {
	{
		.plaintext = "abc",
		.psize = 3,
		.digest = "\x3a\x98\x5d\xa7\x4f\xe2\x25\xb2\x04\x5c"
			  "\x17\x2d\x6b\xd3\x90\xbd\x85\x5f\x08\x6e"
			  "\x3e\x9d\x52\x5b\x46\xbf\xe2\x45\x11\x43"
			  "\x15\x32",
	}, {
		.plaintext = "",
		.psize = 0,
		.digest = "\xa7\xff\xc6\xf8\xbf\x1e\xd7\x66\x51\xc1"
			  "\x47\x56\xa0\x61\xd6\x62\xf5\x80\xff\x4d"
			  "\xe4\x3b\x49\xfa\x82\xd8\x0a\x4b\x80\xf8"
			  "\x43\x4a",
	},
};

static const struct hash_testvec sha3_512_tv[] = {
	{
		.plaintext = "abc",
		.psize = 3,
		.digest = "\xb7\x51\x85\x0b\x1a\x57\x16\x8a\x56\x93"
			  "\xcd\x92\x4b\x6b\x09\x6e\x08\xf6\x21\x82"
			  "\x74\x44\xf7\x0d\x88\x4f\x5d\x02\x40\xd2"
			  "\x71\x2e\x10\xe1\x16\xe9\x19\x2a\xf3\xc9"
			  "\x1a\x7e\xc5\x76\x47\xe3\x93\x40\x57\x34"
			  "\x0b\x4c\xf4\x08\xd5\xa5\x65\x92\xf8\x27"
			  "\x4e\xec\x53\xf0",
	}, {
		.plaintext = "",
		.psize = 0,
		.digest = "\xa6\x9f\x73\xcc\xa2\x3a\x9a\xc5\xc8\xb5"
			  "\x67\xdc\x18\x5a\x75\x6e\x97\xc9\x82\x16"
			  "\x4f\xe2\x58\x59\xe0\xd1\xdc\xc1\x47\x5c"
			  "\x80\xa6\x15\xb2\x12\x3a\xf1\xf5\xf9\x4c"
			  "\x11\xe3\xe9\x40\x2c\x3a\xc5\x58\xf5\x00"
			  "\x19\x9d\x95\xb6\xd3\xe3\x01\x75\x85\x86"
			  "\x28\x1d\xcd\x26",
	},
};

static struct alg_test_desc sha3_tests[] = {
	{ .alg = "sha3-256", .suite.hash = __VECS(sha3_256_tv) },
	{ .alg = "sha3-512", .suite.hash = __VECS(sha3_512_tv) },
};

static int sha3_generic_mod_init(void)
{
	crypto_register_tests(sha3_tests, ARRAY_SIZE(sha3_tests));
	return crypto_register_shashes(sha3_algs, ARRAY_SIZE(sha3_algs));
}
module_init(sha3_generic_mod_init);
