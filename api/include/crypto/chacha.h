/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20, XChaCha20 and HChaCha20 (RFC 8439, draft-irtf-cfrg-xchacha) as
 * plain functions, the kernel's lib/crypto/chacha for rind: the generic
 * block function, a multi-block xor-keystream function, HChaCha20, and the
 * skcipher glue shared by every "chacha20" / "xchacha20" implementation
 * (algs/chacha20.c, arch/x86/chacha-*.c).  Internal to the library.
 *
 * State layout (RFC 8439 section 2.3): words 0-3 the constants, 4-11 the key,
 * 12 the 32-bit block counter, 13-15 the nonce.  As in the kernel, a
 * crypt function advances only word 12 (modulo 2^32): a stream that runs
 * past counter 0xffffffff wraps to counter 0 with the same nonce words; it
 * never carries into word 13.  (RFC 8439 limits a message to 2^32 blocks
 * anyway.)
 *
 * IV layouts of the skciphers, as the kernel's chacha20 and xchacha20:
 *   "chacha20"   16 bytes: le32 block counter || 96-bit nonce; the words
 *                12..15 of the state are the IV read as four le32.
 *   "xchacha20"  32 bytes: nonce[0..15] || nonce[16..23] || le64 stream
 *                position.  The subkey is HChaCha20(key, nonce[0..15]); the
 *                ChaCha20 state then has words 12,13 = the stream position
 *                (low, high) and words 14,15 = nonce[16..23].  With
 *                position = n this is exactly the XChaCha20 of the draft
 *                (IETF ChaCha20 under the subkey with the 96-bit nonce
 *                00000000 || nonce[16..23] and block counter n), for
 *                n < 2^32.  Only word 12 is incremented (as above).
 * Neither skcipher updates req->iv.
 */
#ifndef _RIND_ALGS_CHACHA_H
#define _RIND_ALGS_CHACHA_H

#include <rind/types.h>
#include <rind/internal/skcipher.h>

#define CHACHA_KEY_SIZE		32
#define CHACHA_BLOCK_SIZE	64
#define CHACHA_IV_SIZE		16
#define XCHACHA_IV_SIZE		32
#define CHACHA_STATE_WORDS	16
#define HCHACHA_OUT_WORDS	8
#define HCHACHA_NONCE_SIZE	16

#define CHACHA_CONST0		0x61707865	/* "expa" */
#define CHACHA_CONST1		0x3320646e	/* "nd 3" */
#define CHACHA_CONST2		0x79622d32	/* "2-by" */
#define CHACHA_CONST3		0x6b206574	/* "te k" */

/* The tfm context of every chacha20 / xchacha20 skcipher implementation. */
struct chacha_ctx {
	u32 key[8];
};

/*
 * XOR @len bytes of keystream into @src, writing @dst (src may equal dst,
 * any alignment), starting at the block given by @state and advancing
 * state[12] by ceil(len / 64).  Every implementation has this shape.
 */
typedef void (*chacha_crypt_fn)(u32 state[CHACHA_STATE_WORDS], u8 *dst, const u8 *src,
				size_t len);

/* The 32-byte key as eight little-endian words. */
void rind_chacha_load_key(u32 k[8], const u8 key[CHACHA_KEY_SIZE]);
/* state = constants || key || iv[0..15] as four le32. */
void rind_chacha_init(u32 state[CHACHA_STATE_WORDS], const u32 key[8],
		      const u8 iv[CHACHA_IV_SIZE]);
/* XChaCha20: derive the subkey from iv[0..15], then words 12..15 as above. */
void rind_xchacha_init(u32 state[CHACHA_STATE_WORDS], const u32 key[8],
		       const u8 iv[XCHACHA_IV_SIZE]);

/* One 64-byte keystream block of @state; increments state[12]. */
void rind_chacha20_block_generic(u32 state[CHACHA_STATE_WORDS], u8 out[CHACHA_BLOCK_SIZE]);
/* The generic multi-block xor-keystream (a chacha_crypt_fn). */
void rind_chacha20_crypt_generic(u32 state[CHACHA_STATE_WORDS], u8 *dst, const u8 *src,
				 size_t len);
/*
 * HChaCha20 of an initialised state (constants, key, 16-byte nonce): the 20
 * rounds without the final addition, words 0..3 and 12..15.
 */
void rind_hchacha20_block_generic(const u32 state[CHACHA_STATE_WORDS],
				  u32 out[HCHACHA_OUT_WORDS]);
/* HChaCha20 subkey (as eight words) of @key and a 16-byte @nonce. */
void rind_hchacha20(u32 subkey[HCHACHA_OUT_WORDS], const u32 key[8],
		    const u8 nonce[HCHACHA_NONCE_SIZE]);

/*
 * Best available crypt function of this build and CPU (the one the
 * registry's best "chacha20" uses when it is one of rind's), resolved at
 * first use.  For small internal users (QUIC header protection, the AEAD
 * one-shots).
 */
chacha_crypt_fn rind_chacha20_best_crypt(void);

/*
 * Skcipher glue.  Every rind chacha20/xchacha20 implementation is a
 * struct chacha_alg whose skcipher_alg has setkey = rind_chacha_skcipher_setkey,
 * encrypt = decrypt = rind_chacha20_skcipher_crypt or
 * rind_xchacha20_skcipher_crypt; the glue maps the scatterlists and calls
 * @crypt.  @priority and @cra_* come from the implementation.
 */
struct chacha_alg {
	chacha_crypt_fn crypt;
	struct skcipher_alg alg;
};

int rind_chacha_skcipher_setkey(struct crypto_skcipher *tfm, const u8 *key, unsigned int keylen);
int rind_chacha20_skcipher_crypt(struct skcipher_request *req);
int rind_xchacha20_skcipher_crypt(struct skcipher_request *req);

/*
 * If @alg is one of rind's chacha20 / xchacha20 skciphers, its crypt
 * function (and *@xchacha set to whether it is xchacha20); else NULL.
 * Lets the rfc7539 template call a spawned implementation without
 * building skcipher requests.
 */
chacha_crypt_fn rind_chacha_alg_crypt(struct crypto_alg *alg, bool *xchacha);

/*
 * Initialisers for an implementation's struct chacha_alg: ChaCha20's and
 * XChaCha20's differ only in the name, the skcipher entry point and the
 * IV size.
 */
#define RIND_CHACHA_ALG__(_name, _skcrypt, _ivsize, _drv, _prio, _module, _crypt) \
	{									\
		.crypt = (_crypt),						\
		.alg = {							\
			.setkey = rind_chacha_skcipher_setkey,			\
			.encrypt = (_skcrypt),					\
			.decrypt = (_skcrypt),					\
			.min_keysize = CHACHA_KEY_SIZE,				\
			.max_keysize = CHACHA_KEY_SIZE,				\
			.ivsize = (_ivsize),					\
			.chunksize = CHACHA_BLOCK_SIZE,				\
			.base = {						\
				.cra_name = _name,				\
				.cra_driver_name = (_drv),			\
				.cra_priority = (_prio),			\
				.cra_blocksize = 1,				\
				.cra_ctxsize = sizeof(struct chacha_ctx),	\
				.cra_module = (_module),			\
			},							\
		},								\
	}
#define RIND_CHACHA20_ALG(_drv, _prio, _module, _crypt)				\
	RIND_CHACHA_ALG__("chacha20", rind_chacha20_skcipher_crypt, CHACHA_IV_SIZE,	\
			  _drv, _prio, _module, _crypt)
#define RIND_XCHACHA20_ALG(_drv, _prio, _module, _crypt)			\
	RIND_CHACHA_ALG__("xchacha20", rind_xchacha20_skcipher_crypt, XCHACHA_IV_SIZE, \
			  _drv, _prio, _module, _crypt)

/*
 * ChaCha20-Poly1305 (RFC 8439 section 2.8) on contiguous buffers over a
 * given crypt and Poly1305 blocks function, for the rfc7539 template and
 * the one-shots (algs/chacha20poly1305.c).  @state is the ChaCha20 state
 * of the message with block counter 0 (chacha20: key, counter 0, nonce;
 * xchacha20: subkey, counter 0, 0 || nonce[16..23]); it is consumed.
 * src and dst may be equal.  rind_chachapoly_open checks the tag in
 * constant time before decrypting; on mismatch it zeroes dst[0..len) and
 * returns -EBADMSG.
 */
#include <crypto/poly1305.h>

#define CHACHAPOLY_TAG_SIZE	16

void rind_chachapoly_seal(u32 state[CHACHA_STATE_WORDS], chacha_crypt_fn crypt,
			  poly1305_blocks_fn blocks, u8 *dst, const u8 *src, size_t len,
			  const u8 *ad, size_t adlen, u8 tag[CHACHAPOLY_TAG_SIZE]);
int rind_chachapoly_open(u32 state[CHACHA_STATE_WORDS], chacha_crypt_fn crypt,
			 poly1305_blocks_fn blocks, u8 *dst, const u8 *src, size_t len,
			 const u8 *ad, size_t adlen, const u8 tag[CHACHAPOLY_TAG_SIZE]);

#endif /* _RIND_ALGS_CHACHA_H */
