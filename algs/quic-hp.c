// SPDX-License-Identifier: MIT
/*
 * QUIC header protection masks (RFC 9001 section 5.4).
 *
 *   "aes" (5.4.3):      mask = AES-ECB(hp_key, sample)[0..4], for the
 *                       AES-128 (16-byte key) and AES-256 (32-byte key)
 *                       based packet protection AEADs.
 *   "chacha20" (5.4.4): counter = sample[0..3] read little-endian,
 *                       nonce = sample[4..15],
 *                       mask = ChaCha20(hp_key, counter, nonce, 5 zero bytes).
 *                       The registry's "chacha20" skcipher takes a 16-byte
 *                       IV laid out as a little-endian 32-bit block counter
 *                       then the 96-bit nonce, which is the sample exactly
 *                       as it sits in the packet.
 *
 * Both go through the registry (the best "aes" cipher, the best "chacha20"
 * skcipher).  A mask is computed per packet, so the tfms are allocated once
 * per thread and kept, and the key is only set again when it differs from
 * the one the cached tfm already holds (compared in constant time; only
 * whether the key changed is revealed).  The
 * per-thread cache, key copies included, is wiped and freed when the thread
 * exits.  A library function, not a registry algorithm: it registers
 * nothing.
 */

#include <pthread.h>
#include <rind/aead.h>
#include <rind/cipher.h>
#include <rind/skcipher.h>
#include <rind/internal/alg.h>
#include <rind/internal/util.h>

#define QUIC_HP_SAMPLE_SIZE	16
#define QUIC_HP_MASK_SIZE	5
#define QUIC_HP_MAX_KEY		32

struct quic_hp_cache {
	struct crypto_cipher *aes;
	struct crypto_skcipher *chacha;
	struct skcipher_request *req;
	unsigned int aes_keylen;	/* 0: no key in the aes tfm yet */
	bool chacha_keyed;
	u8 aes_key[QUIC_HP_MAX_KEY];
	u8 chacha_key[QUIC_HP_MAX_KEY];
};

static __thread struct quic_hp_cache *quic_hp_tls;
static pthread_key_t quic_hp_key;
static pthread_once_t quic_hp_once = PTHREAD_ONCE_INIT;
static int quic_hp_key_err;

/*
 * Constant-time "is this key different from the cached one": the whole
 * key is always read, the barrier keeps the compiler from turning the
 * accumulation into an early exit; only the verdict (key changed or not)
 * is branched on.  Word-wise, as this runs once per packet; @len is 16
 * or 32.
 */
static inline bool quic_hp_key_changed(const u8 *cached, const u8 *key, unsigned int len)
{
	u64 d = 0, x, y;
	unsigned int i;

	for (i = 0; i < len; i += 8) {
		memcpy(&x, cached + i, 8);
		memcpy(&y, key + i, 8);
		d |= x ^ y;
		__asm__("" : "+r"(d));
	}
	return d != 0;
}

static void quic_hp_cache_free(void *p)
{
	struct quic_hp_cache *c = p;

	if (!c)
		return;
	if (c->req)
		skcipher_request_free(c->req);
	if (c->chacha)
		crypto_free_skcipher(c->chacha);
	if (c->aes)
		crypto_free_cipher(c->aes);
	memzero_explicit(c, sizeof(*c));
	free(c);
	if (quic_hp_tls == c)
		quic_hp_tls = NULL;
}

static void quic_hp_key_init(void)
{
	quic_hp_key_err = -pthread_key_create(&quic_hp_key, quic_hp_cache_free);
}

static struct quic_hp_cache *quic_hp_cache_get(void)
{
	struct quic_hp_cache *c = quic_hp_tls;

	if (c)
		return c;
	pthread_once(&quic_hp_once, quic_hp_key_init);
	if (quic_hp_key_err)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	if (pthread_setspecific(quic_hp_key, c)) {
		free(c);
		return NULL;
	}
	quic_hp_tls = c;
	return c;
}

static int quic_hp_aes(struct quic_hp_cache *c, const u8 *key, unsigned int keylen,
		       const u8 *sample, u8 *mask)
{
	u8 block[QUIC_HP_SAMPLE_SIZE];
	int err;

	if (!c->aes) {
		struct crypto_cipher *tfm = crypto_alloc_cipher("aes", 0, 0);

		if (IS_ERR_OR_NULL(tfm))
			return tfm ? (int)PTR_ERR(tfm) : -ENOMEM;
		c->aes = tfm;
		c->aes_keylen = 0;
	}
	if (c->aes_keylen != keylen || quic_hp_key_changed(c->aes_key, key, keylen)) {
		c->aes_keylen = 0;
		err = crypto_cipher_setkey(c->aes, key, keylen);
		if (err)
			return err;
		memcpy(c->aes_key, key, keylen);
		c->aes_keylen = keylen;
	}

	crypto_cipher_encrypt_one(c->aes, block, sample);
	memcpy(mask, block, QUIC_HP_MASK_SIZE);
	memzero_explicit(block, sizeof(block));
	return 0;
}

static int quic_hp_chacha20(struct quic_hp_cache *c, const u8 *key, unsigned int keylen,
			    const u8 *sample, u8 *mask)
{
	struct scatterlist sg;
	u8 iv[QUIC_HP_SAMPLE_SIZE];
	u8 buf[QUIC_HP_MASK_SIZE] = { 0 };
	int err;

	if (!c->chacha) {
		struct crypto_skcipher *tfm = crypto_alloc_skcipher("chacha20", 0, 0);
		struct skcipher_request *req;

		if (IS_ERR_OR_NULL(tfm))
			return tfm ? (int)PTR_ERR(tfm) : -ENOMEM;
		if (crypto_skcipher_ivsize(tfm) != sizeof(iv)) {
			crypto_free_skcipher(tfm);
			return -EINVAL;
		}
		req = skcipher_request_alloc(tfm, GFP_KERNEL);
		if (IS_ERR_OR_NULL(req)) {
			crypto_free_skcipher(tfm);
			return -ENOMEM;
		}
		skcipher_request_set_callback(req, 0, NULL, NULL);
		c->chacha = tfm;
		c->req = req;
		c->chacha_keyed = false;
	}
	if (!c->chacha_keyed || quic_hp_key_changed(c->chacha_key, key, keylen)) {
		c->chacha_keyed = false;
		err = crypto_skcipher_setkey(c->chacha, key, keylen);
		if (err)
			return err;
		memcpy(c->chacha_key, key, keylen);
		c->chacha_keyed = true;
	}

	/* The implementation may advance the IV it is given: use a copy. */
	memcpy(iv, sample, sizeof(iv));
	sg_init_one(&sg, buf, sizeof(buf));
	skcipher_request_set_crypt(c->req, &sg, &sg, sizeof(buf), iv);
	err = crypto_skcipher_encrypt(c->req);
	if (!err)
		memcpy(mask, buf, QUIC_HP_MASK_SIZE);
	memzero_explicit(buf, sizeof(buf));
	return err;
}

RIND_EXPORT int rind_quic_hp_mask(const char *alg, const u8 *key, unsigned int keylen,
				  const u8 sample[16], u8 mask[5])
{
	struct quic_hp_cache *c;
	bool aes;
	int err;

	if (!alg || !key || !sample || !mask)
		return -EINVAL;
	if (!strcmp(alg, "aes"))
		aes = true;
	else if (!strcmp(alg, "chacha20"))
		aes = false;
	else
		return -ENOENT;

	if (aes ? (keylen != 16 && keylen != 32) : keylen != 32)
		return -EINVAL;

	c = quic_hp_cache_get();
	if (!c)
		return -ENOMEM;
	rind_ct_begin();
	err = aes ? quic_hp_aes(c, key, keylen, sample, mask)
		  : quic_hp_chacha20(c, key, keylen, sample, mask);
	rind_ct_end();
	return err;
}
