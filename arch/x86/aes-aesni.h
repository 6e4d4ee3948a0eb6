/* SPDX-License-Identifier: MIT */
/*
 * The AES key schedule of every x86 AES driver (aes-aesni.c,
 * aes-vaes-avx512.c and the GCM drivers through gcm-glue.h), written once.
 *
 * FIPS 197 5.2 with the AESKEYGENASSIST instruction: it gives
 * RotWord(SubWord(w)) ^ rcon (and SubWord(w)) of two words of a register,
 * without tables, in constant time.  One step makes four words at a time:
 * the running XOR of the previous four, computed with two byte shifts,
 * XORed with that temp broadcast to the four lanes.  rcon has to be an
 * immediate, so the steps are unrolled per key size.  Only the key length
 * decides anything.
 *
 * Decryption uses the equivalent inverse cipher (FIPS 197 5.3.5): the round
 * keys in reverse order, the middle ones through InvMixColumns (AESIMC).
 *
 * Not installed; only arch/x86 drivers include it.
 */
#ifndef _RIND_X86_AES_AESNI_H
#define _RIND_X86_AES_AESNI_H

#include <immintrin.h>
#include <rind/err.h>
#include <rind/internal/util.h>

#define AESNI_KS_INL	static inline __attribute__((always_inline, target("aes")))

#define AES_MAX_ROUND_KEYS	15

/* w[0..3] of @k, running XOR: w0, w0^w1, w0^w1^w2, w0^w1^w2^w3. */
AESNI_KS_INL __m128i aesni_ks_prefix_xor(__m128i k)
{
	k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
	return _mm_xor_si128(k, _mm_slli_si128(k, 8));
}

/* Next four words of a 128- or 256-bit schedule: @t has the temp in lane @lane. */
#define AESNI_KS_STEP(k, t, lane) \
	_mm_xor_si128(aesni_ks_prefix_xor(k), _mm_shuffle_epi32(t, (lane) * 0x55))

AESNI_KS_INL void aesni_expand_128(__m128i ek[11], const u8 *key)
{
	__m128i k = _mm_loadu_si128((const __m128i *)key);

	ek[0] = k;
#define KS128(i, rcon) \
	ek[i] = k = AESNI_KS_STEP(k, _mm_aeskeygenassist_si128(k, rcon), 3)
	KS128(1, 0x01); KS128(2, 0x02); KS128(3, 0x04); KS128(4, 0x08); KS128(5, 0x10);
	KS128(6, 0x20); KS128(7, 0x40); KS128(8, 0x80); KS128(9, 0x1b); KS128(10, 0x36);
#undef KS128
}

/*
 * 192-bit keys: six words per step, as four in @a (w[6j..6j+3]) and two in
 * the low half of @b (w[6j+4..6j+5]; its high half is left-over).  The
 * round keys straddle the steps: two steps give three of them.
 */
AESNI_KS_INL void aesni_ks192_step(__m128i *a, __m128i *b, __m128i t)
{
	*a = AESNI_KS_STEP(*a, t, 1);	/* the temp from w[6j-1], lane 1 of b */
	*b = _mm_xor_si128(_mm_xor_si128(*b, _mm_slli_si128(*b, 4)),
			   _mm_shuffle_epi32(*a, 0xff));
}

/* The 64-bit halves (lo of x, lo of y) and (hi of x, lo of y). */
#define AESNI_LO_LO(x, y) _mm_unpacklo_epi64(x, y)
#define AESNI_HI_LO(x, y) \
	_mm_castpd_si128(_mm_shuffle_pd(_mm_castsi128_pd(x), _mm_castsi128_pd(y), 1))

AESNI_KS_INL void aesni_expand_192(__m128i ek[13], const u8 *key)
{
	__m128i a = _mm_loadu_si128((const __m128i *)key);
	__m128i b = _mm_loadl_epi64((const __m128i *)(key + 16));
	__m128i b0;

	ek[0] = a;
#define KS192(i, rc0, rc1)						\
	do {								\
		b0 = b;							\
		aesni_ks192_step(&a, &b, _mm_aeskeygenassist_si128(b, rc0)); \
		ek[i] = AESNI_LO_LO(b0, a);				\
		ek[i + 1] = AESNI_HI_LO(a, b);				\
		aesni_ks192_step(&a, &b, _mm_aeskeygenassist_si128(b, rc1)); \
		ek[i + 2] = a;						\
	} while (0)
	KS192(1, 0x01, 0x02);
	KS192(4, 0x04, 0x08);
	KS192(7, 0x10, 0x20);
	KS192(10, 0x40, 0x80);
#undef KS192
}

/*
 * 256-bit keys: the even round keys take RotWord(SubWord()) ^ rcon of the
 * last word before them, the odd ones SubWord() alone (lane 2, rcon 0).
 */
AESNI_KS_INL void aesni_expand_256(__m128i ek[15], const u8 *key)
{
	__m128i a = _mm_loadu_si128((const __m128i *)key);
	__m128i b = _mm_loadu_si128((const __m128i *)(key + 16));

	ek[0] = a;
	ek[1] = b;
#define KS256(i, rcon)								\
	do {									\
		ek[i] = a = AESNI_KS_STEP(a, _mm_aeskeygenassist_si128(b, rcon), 3); \
		if ((i) < 14)							\
			ek[(i) + 1] = b =					\
				AESNI_KS_STEP(b, _mm_aeskeygenassist_si128(a, 0), 2); \
	} while (0)
	KS256(2, 0x01); KS256(4, 0x02); KS256(6, 0x04); KS256(8, 0x08);
	KS256(10, 0x10); KS256(12, 0x20); KS256(14, 0x40);
#undef KS256
}

/*
 * The encryption round keys ek[0..nr]: returns nr (10, 12 or 14), or
 * -EINVAL for a key that is not 16, 24 or 32 bytes (ek untouched).
 */
AESNI_KS_INL int aesni_expand_key(__m128i ek[AES_MAX_ROUND_KEYS], const u8 *key,
				  unsigned int keylen)
{
	switch (keylen) {
	case 16:
		aesni_expand_128(ek, key);
		return 10;
	case 24:
		aesni_expand_192(ek, key);
		return 12;
	case 32:
		aesni_expand_256(ek, key);
		return 14;
	}
	return -EINVAL;
}

/* The decryption round keys dk[0..nr] of the equivalent inverse cipher. */
AESNI_KS_INL void aesni_expand_dec(__m128i dk[AES_MAX_ROUND_KEYS],
				   const __m128i ek[AES_MAX_ROUND_KEYS], unsigned int nr)
{
	unsigned int i;

	dk[0] = ek[nr];
	for (i = 1; i < nr; i++)
		dk[i] = _mm_aesimc_si128(ek[nr - i]);
	dk[nr] = ek[0];
}

#undef AESNI_LO_LO
#undef AESNI_HI_LO

#endif /* _RIND_X86_AES_AESNI_H */
