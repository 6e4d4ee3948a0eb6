// SPDX-License-Identifier: MIT
/*
 * SHA-1 (FIPS 180-4), portable C.
 *
 * SHA-1 is broken for collision resistance; rind carries it for HMAC-SHA1
 * and for verifying legacy data only (no signature scheme accepts it).
 */
#include <rind/internal/hash.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/sha2.h>

#define SHA1_K0 0x5a827999u
#define SHA1_K1 0x6ed9eba1u
#define SHA1_K2 0x8f1bbcdcu
#define SHA1_K3 0xca62c1d6u

#define F0(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))		/* Ch */
#define F1(b, c, d) ((b) ^ (c) ^ (d))			/* Parity */
#define F2(b, c, d) (((b) & (c)) | ((d) & ((b) | (c))))	/* Maj */
#define F3(b, c, d) F1(b, c, d)

/* W[t] for t >= 16, kept in a 16-word ring. */
#define SCHED(t) (W[(t) & 15] = rol32(W[((t) + 13) & 15] ^ W[((t) + 8) & 15] ^ \
				       W[((t) + 2) & 15] ^ W[(t) & 15], 1))
#define WORD(t) ((t) < 16 ? W[(t) & 15] : SCHED(t))

#define R(a, b, c, d, e, t, F, K)					\
	do {								\
		e += rol32(a, 5) + F(b, c, d) + K + WORD(t);		\
		b = rol32(b, 30);					\
	} while (0)

#define R5(t, F, K)							\
	do {								\
		R(a, b, c, d, e, (t) + 0, F, K);			\
		R(e, a, b, c, d, (t) + 1, F, K);			\
		R(d, e, a, b, c, (t) + 2, F, K);			\
		R(c, d, e, a, b, (t) + 3, F, K);			\
		R(b, c, d, e, a, (t) + 4, F, K);			\
	} while (0)

void rind_sha1_block_generic(u32 state[5], const u8 *data, size_t blocks)
{
	u32 W[16];

	while (blocks--) {
		u32 a = state[0], b = state[1], c = state[2];
		u32 d = state[3], e = state[4];

		for (int i = 0; i < 16; i++)
			W[i] = get_unaligned_be32(data + 4 * i);

		R5(0, F0, SHA1_K0);  R5(5, F0, SHA1_K0);
		R5(10, F0, SHA1_K0); R5(15, F0, SHA1_K0);
		R5(20, F1, SHA1_K1); R5(25, F1, SHA1_K1);
		R5(30, F1, SHA1_K1); R5(35, F1, SHA1_K1);
		R5(40, F2, SHA1_K2); R5(45, F2, SHA1_K2);
		R5(50, F2, SHA1_K2); R5(55, F2, SHA1_K2);
		R5(60, F3, SHA1_K3); R5(65, F3, SHA1_K3);
		R5(70, F3, SHA1_K3); R5(75, F3, SHA1_K3);

		state[0] += a;
		state[1] += b;
		state[2] += c;
		state[3] += d;
		state[4] += e;
		data += SHA1_BLOCK_SIZE;
	}
	memzero_explicit(W, sizeof(W));
}

static int sha1_generic_init(struct shash_desc *desc)
{
	sha1_base_init(shash_desc_ctx(desc));
	return 0;
}

static int sha1_generic_update(struct shash_desc *desc, const u8 *data, unsigned int len)
{
	sha1_base_do_update(shash_desc_ctx(desc), data, len, rind_sha1_block_generic);
	return 0;
}

static int sha1_generic_final(struct shash_desc *desc, u8 *out)
{
	struct sha1_state *s = shash_desc_ctx(desc);

	sha1_base_do_finalize(s, rind_sha1_block_generic);
	sha1_base_finish(s, out);
	return 0;
}

static int sha1_generic_finup(struct shash_desc *desc, const u8 *data, unsigned int len,
			      u8 *out)
{
	struct sha1_state *s = shash_desc_ctx(desc);

	sha1_base_do_update(s, data, len, rind_sha1_block_generic);
	sha1_base_do_finalize(s, rind_sha1_block_generic);
	sha1_base_finish(s, out);
	return 0;
}

static int sha1_generic_digest(struct shash_desc *desc, const u8 *data, unsigned int len,
			       u8 *out)
{
	struct sha1_state *s = shash_desc_ctx(desc);

	sha1_base_init(s);
	sha1_base_digest(s, data, len, out, rind_sha1_block_generic);
	return 0;
}

static int sha1_export(struct shash_desc *desc, void *out)
{
	memcpy(out, shash_desc_ctx(desc), sizeof(struct sha1_state));
	return 0;
}

static int sha1_import(struct shash_desc *desc, const void *in)
{
	memcpy(shash_desc_ctx(desc), in, sizeof(struct sha1_state));
	return 0;
}

static struct shash_alg sha1_generic_alg = {
	.init		= sha1_generic_init,
	.update		= sha1_generic_update,
	.final		= sha1_generic_final,
	.finup		= sha1_generic_finup,
	.digest		= sha1_generic_digest,
	.export		= sha1_export,
	.import		= sha1_import,
	.descsize	= sizeof(struct sha1_state),
	.digestsize	= SHA1_DIGEST_SIZE,
	.statesize	= sizeof(struct sha1_state),
	.base = {
		.cra_name		= "sha1",
		.cra_driver_name	= "sha1-generic",
		.cra_priority		= 100,
		.cra_blocksize		= SHA1_BLOCK_SIZE,
		.cra_module		= "generic",
	},
};

/* FIPS 180-4 examples (NIST CSRC "SHA1.pdf") and one two-block message. */
static const struct hash_testvec sha1_tv[] = {
	{
		.plaintext = "abc",
		.psize = 3,
		.digest = "\xa9\x99\x3e\x36\x47\x06\x81\x6a\xba\x3e"
			  "\x25\x71\x78\x50\xc2\x6c\x9c\xd0\xd8\x9d",
	}, {
		.plaintext = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		.psize = 56,
		.digest = "\x84\x98\x3e\x44\x1c\x3b\xd2\x6e\xba\xae"
			  "\x4a\xa1\xf9\x51\x29\xe5\xe5\x46\x70\xf1",
	}, {
		.plaintext = "",
		.psize = 0,
		.digest = "\xda\x39\xa3\xee\x5e\x6b\x4b\x0d\x32\x55"
			  "\xbf\xef\x95\x60\x18\x90\xaf\xd8\x07\x09",
	},
};

static struct alg_test_desc sha1_test = {
	.alg = "sha1",
	.suite.hash = __VECS(sha1_tv),
};

static int sha1_generic_mod_init(void)
{
	crypto_register_test(&sha1_test);
	return crypto_register_shash(&sha1_generic_alg);
}
module_init(sha1_generic_mod_init);
