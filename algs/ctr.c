// SPDX-License-Identifier: MIT
/*
 * CTR: the "ctr" template over any single-block cipher, "ctr(aes)" ->
 * instance driver "ctr(aes-generic)", as the kernel's crypto/ctr.c.  The iv
 * is the initial counter block, a big-endian integer of the block size that
 * is incremented per block and wraps around modulo 2^(8 * blocksize) (for
 * AES, 2^128: the carry runs through all 16 bytes).  Any length is
 * accepted; a partial final block uses the head of its keystream block.
 * On return the iv holds the counter of the block after the last one used,
 * partial or not.  The counter blocks of a chunk are enciphered in one
 * multi-block call.
 */
#include <rind/internal/cipher.h>
#include <rind/internal/skcipher.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/sp800-38a.h>

#define CTR_MAX_BS	32	/* the cipher front end's limit */
#define CTR_CHUNK	1024	/* keystream bytes per multi-block call */

static void ctr_inc(u8 *ctr, unsigned int bs)
{
	unsigned int c = 1;

	while (bs--) {
		c += ctr[bs];
		ctr[bs] = (u8)c;
		c >>= 8;
	}
}

/* Write @n counter blocks from @ctr into @ks, leaving @ctr at the next. */
static void ctr_fill(u8 *ks, u8 *ctr, unsigned int bs, size_t n)
{
	if (bs == 16) {
		u64 hi = get_unaligned_be64(ctr), lo = get_unaligned_be64(ctr + 8);

		for (; n; n--, ks += 16) {
			put_unaligned_be64(hi, ks);
			put_unaligned_be64(lo, ks + 8);
			lo++;
			hi += !lo;
		}
		put_unaligned_be64(hi, ctr);
		put_unaligned_be64(lo, ctr + 8);
		return;
	}
	for (; n; n--, ks += bs) {
		memcpy(ks, ctr, bs);
		ctr_inc(ctr, bs);
	}
}

static int ctr_crypt(struct skcipher_request *req)
{
	struct crypto_cipher *cipher = skcipher_cipher_simple(crypto_skcipher_reqtfm(req));
	unsigned int bs = crypto_cipher_blocksize(cipher);
	size_t chunk = CTR_CHUNK - CTR_CHUNK % bs, off;
	u8 ctr[CTR_MAX_BS], ks[CTR_CHUNK];
	struct rind_sg_map m;
	int err = skcipher_map_request(req, &m, 1);

	if (err <= 0)
		return err;
	memcpy(ctr, req->iv, bs);
	for (off = 0; off < m.len; off += chunk) {
		size_t n = min(chunk, m.len - off);
		size_t nblocks = (n + bs - 1) / bs;

		ctr_fill(ks, ctr, bs, nblocks);
		crypto_cipher_encrypt_blocks(cipher, ks, ks, nblocks);
		crypto_xor_cpy(m.dst + off, m.src + off, ks, n);
	}
	memcpy(req->iv, ctr, bs);
	rind_sg_unmap(&m, true);
	memzero_explicit(ks, sizeof(ks));
	return 0;
}

static int ctr_create(struct crypto_template *tmpl, const char *const *args, int nargs)
{
	struct skcipher_instance *inst;

	inst = skcipher_alloc_instance_simple(tmpl, args, nargs, 1, CTR_MAX_BS);
	if (IS_ERR(inst))
		return (int)PTR_ERR(inst);
	/* a stream cipher: any length, the counter block as iv */
	inst->alg.chunksize = inst->alg.base.cra_blocksize;
	inst->alg.base.cra_blocksize = 1;
	inst->alg.encrypt = ctr_crypt;
	inst->alg.decrypt = ctr_crypt;
	return skcipher_register_instance_simple(tmpl, inst);
}

static struct crypto_template ctr_tmpl = {
	.name = "ctr",
	.create = ctr_create,
};

/*
 * NIST SP 800-38A F.5.1 (CTR-AES128), and a partial final block across the
 * 2^128 wrap of the counter (checked against OpenSSL).
 */
static const struct cipher_testvec ctr_aes_tv[] = {
	{
		.key	= SP800_38A_KEY128,
		.klen	= 16,
		.iv	= "\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xff",
		.iv_out	= "\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xff\x03",
		.ptext	= SP800_38A_PTEXT,
		.ctext	= "\x87\x4d\x61\x91\xb6\x20\xe3\x26\x1b\xef\x68\x64\x99\x0d\xb6\xce"
			  "\x98\x06\xf6\x6b\x79\x70\xfd\xff\x86\x17\x18\x7b\xb9\xff\xfd\xff"
			  "\x5a\xe4\xdf\x3e\xdb\xd5\xd3\x5e\x5b\x4f\x09\x02\x0d\xb0\x3e\xab"
			  "\x1e\x03\x1d\xda\x2f\xbe\x03\xd1\x79\x21\x70\xa0\xf3\x00\x9c\xee",
		.len	= 64,
	}, {
		.key	= SP800_38A_KEY256,
		.klen	= 32,
		.iv	= "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xfe",
		.iv_out	= "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.ptext	= SP800_38A_PTEXT,
		.ctext	= "\x24\x5c\x09\xa0\x3b\x1a\x5a\x94\x2b\x93\x56\x13\x48\xa0\x21\xce"
			  "\x95\x11\xa3\x76\xd6\x59\x88",
		.len	= 23,
	},
};

static struct alg_test_desc ctr_test = {
	.alg = "ctr(aes)",
	.suite.cipher = __VECS(ctr_aes_tv),
};

static int ctr_mod_init(void)
{
	crypto_register_test(&ctr_test);
	return crypto_register_template(&ctr_tmpl);
}
module_init(ctr_mod_init);
