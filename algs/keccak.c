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

/* Round constants RC[i] (the LFSR of FIPS 202 Algorithm 5, per round). */
static const u64 keccak_rc[24] = {
	0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull,
	0x8000000080008000ull, 0x000000000000808bull, 0x0000000080000001ull,
	0x8000000080008081ull, 0x8000000000008009ull, 0x000000000000008aull,
	0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
	0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull,
	0x8000000000008003ull, 0x8000000000008002ull, 0x8000000000000080ull,
	0x000000000000800aull, 0x800000008000000aull, 0x8000000080008081ull,
	0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull,
};

/*
 * The 24 rounds with the state in 25 local lanes (a<x + 5y>), theta, rho,
 * pi, chi and iota written out per lane.  rho offsets (FIPS 202
 * Algorithm 2, by lane): 0 1 62 28 27 / 36 44 6 55 20 / 3 10 43 25 39 /
 * 41 45 15 21 8 / 18 2 61 56 14; pi moves lane (x, y) to (y, 2x + 3y).
 */
void rind_keccak_f1600(u64 a[25])
{
	u64 a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4];
	u64 a5 = a[5], a6 = a[6], a7 = a[7], a8 = a[8], a9 = a[9];
	u64 a10 = a[10], a11 = a[11], a12 = a[12], a13 = a[13], a14 = a[14];
	u64 a15 = a[15], a16 = a[16], a17 = a[17], a18 = a[18], a19 = a[19];
	u64 a20 = a[20], a21 = a[21], a22 = a[22], a23 = a[23], a24 = a[24];
	u64 b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12;
	u64 b13, b14, b15, b16, b17, b18, b19, b20, b21, b22, b23, b24;
	u64 c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
	int round;

	for (round = 0; round < 24; round++) {
		c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20;
		c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21;
		c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22;
		c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23;
		c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24;
		d0 = c4 ^ rol64(c1, 1);
		d1 = c0 ^ rol64(c2, 1);
		d2 = c1 ^ rol64(c3, 1);
		d3 = c2 ^ rol64(c4, 1);
		d4 = c3 ^ rol64(c0, 1);
		b0 = a0 ^ d0;
		b10 = rol64(a1 ^ d1, 1);
		b20 = rol64(a2 ^ d2, 62);
		b5 = rol64(a3 ^ d3, 28);
		b15 = rol64(a4 ^ d4, 27);
		b16 = rol64(a5 ^ d0, 36);
		b1 = rol64(a6 ^ d1, 44);
		b11 = rol64(a7 ^ d2, 6);
		b21 = rol64(a8 ^ d3, 55);
		b6 = rol64(a9 ^ d4, 20);
		b7 = rol64(a10 ^ d0, 3);
		b17 = rol64(a11 ^ d1, 10);
		b2 = rol64(a12 ^ d2, 43);
		b12 = rol64(a13 ^ d3, 25);
		b22 = rol64(a14 ^ d4, 39);
		b23 = rol64(a15 ^ d0, 41);
		b8 = rol64(a16 ^ d1, 45);
		b18 = rol64(a17 ^ d2, 15);
		b3 = rol64(a18 ^ d3, 21);
		b13 = rol64(a19 ^ d4, 8);
		b14 = rol64(a20 ^ d0, 18);
		b24 = rol64(a21 ^ d1, 2);
		b9 = rol64(a22 ^ d2, 61);
		b19 = rol64(a23 ^ d3, 56);
		b4 = rol64(a24 ^ d4, 14);
		a0 = b0 ^ (~b1 & b2);
		a1 = b1 ^ (~b2 & b3);
		a2 = b2 ^ (~b3 & b4);
		a3 = b3 ^ (~b4 & b0);
		a4 = b4 ^ (~b0 & b1);
		a5 = b5 ^ (~b6 & b7);
		a6 = b6 ^ (~b7 & b8);
		a7 = b7 ^ (~b8 & b9);
		a8 = b8 ^ (~b9 & b5);
		a9 = b9 ^ (~b5 & b6);
		a10 = b10 ^ (~b11 & b12);
		a11 = b11 ^ (~b12 & b13);
		a12 = b12 ^ (~b13 & b14);
		a13 = b13 ^ (~b14 & b10);
		a14 = b14 ^ (~b10 & b11);
		a15 = b15 ^ (~b16 & b17);
		a16 = b16 ^ (~b17 & b18);
		a17 = b17 ^ (~b18 & b19);
		a18 = b18 ^ (~b19 & b15);
		a19 = b19 ^ (~b15 & b16);
		a20 = b20 ^ (~b21 & b22);
		a21 = b21 ^ (~b22 & b23);
		a22 = b22 ^ (~b23 & b24);
		a23 = b23 ^ (~b24 & b20);
		a24 = b24 ^ (~b20 & b21);
		a0 ^= keccak_rc[round];
	}

	a[0] = a0; a[1] = a1; a[2] = a2; a[3] = a3; a[4] = a4;
	a[5] = a5; a[6] = a6; a[7] = a7; a[8] = a8; a[9] = a9;
	a[10] = a10; a[11] = a11; a[12] = a12; a[13] = a13; a[14] = a14;
	a[15] = a15; a[16] = a16; a[17] = a17; a[18] = a18; a[19] = a19;
	a[20] = a20; a[21] = a21; a[22] = a22; a[23] = a23; a[24] = a24;
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
