// SPDX-License-Identifier: MIT
/*
 * ChaCha20-Poly1305 and XChaCha20-Poly1305 one-shots, in the style of the
 * kernel's lib/crypto/chacha20poly1305.c: contiguous buffers, a key per
 * call, no tfm.  Encrypt writes src_len bytes of ciphertext then the
 * 16-byte tag to dst; decrypt takes ciphertext || tag (src_len includes
 * the tag) and returns 0, or -EBADMSG with dst[0 .. src_len - 16) zeroed.
 * dst may equal src.
 *
 * They run directly over the best implementations: the crypt function of
 * the registry's best "chacha20" and the blocks function of its best
 * "poly1305" (resolved once, pthread_once), which is what the best
 * rfc7539 instance runs too, minus the request and scatterlist handling
 * that makes small messages expensive.  Should the best implementation of
 * either not be one of rind's (nothing else exposes a function), the
 * generic one is used for it.
 */
#include <rind/internal/aead.h>
#include <rind/internal/util.h>
#include <crypto/chacha.h>
#include <crypto/poly1305.h>

struct chachapoly_funcs {
	chacha_crypt_fn crypt;
	poly1305_blocks_fn blocks;
};

static pthread_once_t funcs_once = PTHREAD_ONCE_INIT;
static struct chachapoly_funcs funcs;

static void funcs_init(void)
{
	funcs.crypt = rind_chacha20_best_crypt();
	funcs.blocks = rind_poly1305_best_blocks();
}

static const struct chachapoly_funcs *get_funcs(void)
{
	pthread_once(&funcs_once, funcs_init);
	return &funcs;
}

/* @dst_len: bytes the call writes to dst. */
static int check_args(u8 *dst, size_t dst_len, const u8 *src, size_t src_len, const u8 *ad,
		      size_t ad_len, const u8 *nonce, const u8 *key)
{
	if (!nonce || !key || (src_len && !src) || (dst_len && !dst) || (ad_len && !ad))
		return -EINVAL;
	return 0;
}

static void chacha20_state(u32 state[16], const u8 nonce[12], const u8 key[32])
{
	u32 k[8];
	u8 iv[CHACHA_IV_SIZE];

	rind_chacha_load_key(k, key);
	put_unaligned_le32(0, iv);
	memcpy(iv + 4, nonce, 12);
	rind_chacha_init(state, k, iv);
	memzero_explicit(k, sizeof(k));
}

static void xchacha20_state(u32 state[16], const u8 nonce[24], const u8 key[32])
{
	u32 k[8];
	u8 iv[XCHACHA_IV_SIZE];

	rind_chacha_load_key(k, key);
	memcpy(iv, nonce, 24);
	put_unaligned_le64(0, iv + 24);
	rind_xchacha_init(state, k, iv);
	memzero_explicit(k, sizeof(k));
}

static int seal(u32 state[16], u8 *dst, const u8 *src, size_t src_len, const u8 *ad,
		size_t ad_len)
{
	const struct chachapoly_funcs *f = get_funcs();
	u8 tag[CHACHAPOLY_TAG_SIZE];

	rind_chachapoly_seal(state, f->crypt, f->blocks, dst, src, src_len, ad, ad_len, tag);
	memcpy(dst + src_len, tag, sizeof(tag));
	memzero_explicit(state, 16 * sizeof(u32));
	return 0;
}

static int open_(u32 state[16], u8 *dst, const u8 *src, size_t src_len, const u8 *ad,
		 size_t ad_len)
{
	const struct chachapoly_funcs *f = get_funcs();
	size_t len = src_len - CHACHAPOLY_TAG_SIZE;
	u8 tag[CHACHAPOLY_TAG_SIZE];
	int err;

	memcpy(tag, src + len, sizeof(tag));
	err = rind_chachapoly_open(state, f->crypt, f->blocks, dst, src, len, ad, ad_len, tag);
	memzero_explicit(state, 16 * sizeof(u32));
	return err;
}

/* The four one-shot calls: @enc seal or open, @x the 24-byte XChaCha20 nonce. */
static int one_shot(bool enc, bool x, u8 *dst, const u8 *src, size_t src_len, const u8 *ad,
		    size_t ad_len, const u8 *nonce, const u8 key[32])
{
	u32 state[16];
	int err;

	if (!enc && src_len < CHACHAPOLY_TAG_SIZE)
		return -EINVAL;
	err = check_args(dst, enc ? src_len + CHACHAPOLY_TAG_SIZE : src_len - CHACHAPOLY_TAG_SIZE,
			 src, src_len, ad, ad_len, nonce, key);
	if (err)
		return err;
	if (x)
		xchacha20_state(state, nonce, key);
	else
		chacha20_state(state, nonce, key);
	return enc ? seal(state, dst, src, src_len, ad, ad_len)
		   : open_(state, dst, src, src_len, ad, ad_len);
}

RIND_EXPORT int rind_chacha20poly1305_encrypt(u8 *dst, const u8 *src, size_t src_len,
					      const u8 *ad, size_t ad_len, const u8 nonce[12],
					      const u8 key[32])
{
	return one_shot(true, false, dst, src, src_len, ad, ad_len, nonce, key);
}

RIND_EXPORT int rind_chacha20poly1305_decrypt(u8 *dst, const u8 *src, size_t src_len,
					      const u8 *ad, size_t ad_len, const u8 nonce[12],
					      const u8 key[32])
{
	return one_shot(false, false, dst, src, src_len, ad, ad_len, nonce, key);
}

RIND_EXPORT int rind_xchacha20poly1305_encrypt(u8 *dst, const u8 *src, size_t src_len,
					       const u8 *ad, size_t ad_len, const u8 nonce[24],
					       const u8 key[32])
{
	return one_shot(true, true, dst, src, src_len, ad, ad_len, nonce, key);
}

RIND_EXPORT int rind_xchacha20poly1305_decrypt(u8 *dst, const u8 *src, size_t src_len,
					       const u8 *ad, size_t ad_len, const u8 nonce[24],
					       const u8 key[32])
{
	return one_shot(false, true, dst, src, src_len, ad, ad_len, nonce, key);
}
