/* SPDX-License-Identifier: MIT */
/*
 * The AES key schedule and single-block encryption of the arm64 AES
 * drivers (aes-ce.c, gcm-ce.c), written once, with the Armv8 Cryptography
 * Extension (AESE/AESMC; AESIMC for the decryption keys in aes-ce.c).
 *
 * FIPS 197 5.2 on 32-bit words.  SubWord is AESE with a zero round key on
 * the word broadcast to all four columns: ShiftRows then only moves equal
 * bytes, so lane 0 is SubBytes of the word, with no table.  The words are
 * little-endian loads of the key bytes, so RotWord (a0 a1 a2 a3 -> a1 a2
 * a3 a0) is a right rotation by 8 and rcon goes in the low byte.  Only the
 * key length decides anything.
 *
 * Not installed; only arch/arm64 drivers include it.
 */
#ifndef _RIND_ARM64_AES_CE_H
#define _RIND_ARM64_AES_CE_H

#include <arm_neon.h>
#include <rind/err.h>
#include <rind/internal/util.h>
#include <crypto/aes-glue.h>

#define AES_CE_TARGET	__attribute__((target("+crypto")))
#define AES_CE_INL	static inline __attribute__((always_inline, target("+crypto")))

#define AES_CE_MAX_RK	15

AES_CE_INL u32 aes_ce_subword(u32 w)
{
	uint8x16_t x = vreinterpretq_u8_u32(vdupq_n_u32(w));

	x = vaeseq_u8(x, vdupq_n_u8(0));
	return vgetq_lane_u32(vreinterpretq_u32_u8(x), 0);
}

/*
 * The encryption round keys ek[0..nr]: returns nr (10, 12 or 14), or
 * -EINVAL for a key that is not 16, 24 or 32 bytes (ek untouched).
 */
AES_CE_INL int aes_ce_expand_key(uint8x16_t ek[AES_CE_MAX_RK], const u8 *key,
				 unsigned int keylen)
{
	static const u8 rcon[10] = { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36 };
	u32 w[4 * AES_CE_MAX_RK];
	int rounds = aes_glue_rounds(keylen);
	unsigned int nk = keylen / 4, nr, total, i;

	if (rounds < 0)
		return rounds;
	nr = (unsigned int)rounds;
	total = 4 * (nr + 1);
	for (i = 0; i < nk; i++)
		w[i] = get_unaligned_le32(key + 4 * i);
	for (i = nk; i < total; i++) {
		u32 t = w[i - 1];

		if (i % nk == 0)
			t = aes_ce_subword((t >> 8) | (t << 24)) ^ rcon[i / nk - 1];
		else if (nk == 8 && i % nk == 4)
			t = aes_ce_subword(t);
		w[i] = w[i - nk] ^ t;
	}
	for (i = 0; i <= nr; i++)
		ek[i] = vreinterpretq_u8_u32(vld1q_u32(&w[4 * i]));
	memzero_explicit(w, sizeof(w));
	return (int)nr;
}

/*
 * One block.  AESE is AddRoundKey+SubBytes+ShiftRows, so round r XORs
 * rk[r] first and the last round key is a plain EOR.
 */
AES_CE_INL uint8x16_t aes_ce_encrypt1(const uint8x16_t *ek, unsigned int nr, uint8x16_t b)
{
	unsigned int r;

	for (r = 0; r < nr - 1; r++)
		b = vaesmcq_u8(vaeseq_u8(b, ek[r]));
	return veorq_u8(vaeseq_u8(b, ek[nr - 1]), ek[nr]);
}

#endif /* _RIND_ARM64_AES_CE_H */
