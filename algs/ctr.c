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
		.key	= "\x2b\x7e\x15\x16\x28\xae\xd2\xa6\xab\xf7\x15\x88\x09\xcf\x4f\x3c",
		.klen	= 16,
		.iv	= "\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xff",
		.iv_out	= "\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xff\x03",
		.ptext	= "\x6b\xc1\xbe\xe2\x2e\x40\x9f\x96\xe9\x3d\x7e\x11\x73\x93\x17\x2a"
			  "\xae\x2d\x8a\x57\x1e\x03\xac\x9c\x9e\xb7\x6f\xac\x45\xaf\x8e\x51"
			  "\x30\xc8\x1c\x46\xa3\x5c\xe4\x11\xe5\xfb\xc1\x19\x1a\x0a\x52\xef"
			  "\xf6\x9f\x24\x45\xdf\x4f\x9b\x17\xad\x2b\x41\x7b\xe6\x6c\x37\x10",
		.ctext	= "\x87\x4d\x61\x91\xb6\x20\xe3\x26\x1b\xef\x68\x64\x99\x0d\xb6\xce"
			  "\x98\x06\xf6\x6b\x79\x70\xfd\xff\x86\x17\x18\x7b\xb9\xff\xfd\xff"
			  "\x5a\xe4\xdf\x3e\xdb\xd5\xd3\x5e\x5b\x4f\x09\x02\x0d\xb0\x3e\xab"
			  "\x1e\x03\x1d\xda\x2f\xbe\x03\xd1\x79\x21\x70\xa0\xf3\x00\x9c\xee",
		.len	= 64,
	}, {
		.key	= "\x60\x3d\xeb\x10\x15\xca\x71\xbe\x2b\x73\xae\xf0\x85\x7d\x77\x81"
			  "\x1f\x35\x2c\x07\x3b\x61\x08\xd7\x2d\x98\x10\xa3\x09\x14\xdf\xf4",
		.klen	= 32,
		.iv	= "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xfe",
		.iv_out	= "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		.ptext	= "\x6b\xc1\xbe\xe2\x2e\x40\x9f\x96\xe9\x3d\x7e\x11\x73\x93\x17\x2a"
			  "\xae\x2d\x8a\x57\x1e\x03\xac",
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
