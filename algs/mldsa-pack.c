// SPDX-License-Identifier: MIT
/*
 * ML-DSA (FIPS 204 section 7.2) encodings of polynomials: SimpleBitPack
 * and BitPack for t1, s1/s2, t0, z and w1, through one little-endian bit
 * packer.  The packer's loops depend only on the (public) widths, so the
 * same code serves secret polynomials; temporaries holding secrets are
 * wiped.
 */
#include <string.h>
#include <rind/internal/util.h>
#include <crypto/mldsa.h>

/*
 * The widths of z (18, 20 bits) and t1 (10) in whole-byte groups: z is
 * packed once per signature and unpacked by every verification, and the
 * bit-at-a-time loop below took longer than the verifier's transforms.
 * Values are below 2^bits.
 */
static bool bitpack_fast(u8 *out, const u32 *v, unsigned int bits)
{
	unsigned int i;
	u64 w;

	switch (bits) {
	case 20:	/* 2 values, 5 bytes */
		for (i = 0; i < MLDSA_N; i += 2, out += 5) {
			w = v[i] | (u64)v[i + 1] << 20;
			put_unaligned_le32((u32)w, out);
			out[4] = (u8)(w >> 32);
		}
		return true;
	case 18:	/* 4 values, 9 bytes */
		for (i = 0; i < MLDSA_N; i += 4, out += 9) {
			u64 a = v[i] | (u64)v[i + 1] << 18, b = v[i + 2] | (u64)v[i + 3] << 18;

			put_unaligned_le32((u32)a, out);
			out[4] = (u8)(a >> 32 | b << 4);
			put_unaligned_le32((u32)(b >> 4), out + 5);
		}
		return true;
	case 10:	/* 4 values, 5 bytes */
		for (i = 0; i < MLDSA_N; i += 4, out += 5) {
			w = v[i] | (u64)v[i + 1] << 10 | (u64)v[i + 2] << 20 | (u64)v[i + 3] << 30;
			put_unaligned_le32((u32)w, out);
			out[4] = (u8)(w >> 32);
		}
		return true;
	default:
		return false;
	}
}

static bool bitunpack_fast(u32 *v, const u8 *in, unsigned int bits)
{
	unsigned int i;
	u64 w;

	switch (bits) {
	case 20:
		for (i = 0; i < MLDSA_N; i += 2, in += 5) {
			w = get_unaligned_le32(in) | (u64)in[4] << 32;
			v[i] = (u32)w & 0xfffff;
			v[i + 1] = (u32)(w >> 20);
		}
		return true;
	case 18:
		for (i = 0; i < MLDSA_N; i += 4, in += 9) {
			u64 a = get_unaligned_le32(in) | (u64)(in[4] & 15) << 32;
			u64 b = (u64)get_unaligned_le32(in + 5) << 4 | in[4] >> 4;

			v[i] = (u32)a & 0x3ffff;
			v[i + 1] = (u32)(a >> 18);
			v[i + 2] = (u32)b & 0x3ffff;
			v[i + 3] = (u32)(b >> 18);
		}
		return true;
	case 10:
		for (i = 0; i < MLDSA_N; i += 4, in += 5) {
			w = get_unaligned_le32(in) | (u64)in[4] << 32;
			v[i] = (u32)w & 0x3ff;
			v[i + 1] = (u32)(w >> 10) & 0x3ff;
			v[i + 2] = (u32)(w >> 20) & 0x3ff;
			v[i + 3] = (u32)(w >> 30);
		}
		return true;
	default:
		return false;
	}
}

/* 256 values of @bits bits each, little-endian bit order (Algorithm 16). */
static void bitpack(u8 *out, const u32 *v, unsigned int bits)
{
	u64 acc = 0;
	unsigned int i, n = 0;

	if (bitpack_fast(out, v, bits))
		return;

	for (i = 0; i < MLDSA_N; i++) {
		acc |= (u64)v[i] << n;
		n += bits;
		while (n >= 8) {
			*out++ = (u8)acc;
			acc >>= 8;
			n -= 8;
		}
	}
}

static void bitunpack(u32 *v, const u8 *in, unsigned int bits)
{
	const u32 mask = (1u << bits) - 1;
	u64 acc = 0;
	unsigned int i, n = 0;

	if (bitunpack_fast(v, in, bits))
		return;

	for (i = 0; i < MLDSA_N; i++) {
		while (n < bits) {
			acc |= (u64)*in++ << n;
			n += 8;
		}
		v[i] = (u32)acc & mask;
		acc >>= bits;
		n -= bits;
	}
}

/* v[i] = b - a[i] (BitPack(w, a, b) stores b - w). */
static void pack_offset(u8 *out, const struct mldsa_poly *a, s32 b, unsigned int bits, bool wipe)
{
	u32 v[MLDSA_N];
	unsigned int i;

	for (i = 0; i < MLDSA_N; i++)
		v[i] = (u32)(b - a->c[i]);
	bitpack(out, v, bits);
	if (wipe)
		memzero_explicit(v, sizeof(v));
}

static void unpack_offset(struct mldsa_poly *a, const u8 *in, s32 b, unsigned int bits, bool wipe)
{
	u32 v[MLDSA_N];
	unsigned int i;

	bitunpack(v, in, bits);
	for (i = 0; i < MLDSA_N; i++)
		a->c[i] = b - (s32)v[i];
	if (wipe)
		memzero_explicit(v, sizeof(v));
}

void rind_mldsa_pack_t1(u8 *out, const struct mldsa_poly *t1)
{
	bitpack(out, (const u32 *)t1->c, 10);
}

void rind_mldsa_unpack_t1(struct mldsa_poly *t1, const u8 *in)
{
	bitunpack((u32 *)t1->c, in, 10);
}

static unsigned int eta_bits(unsigned int eta)
{
	return eta == 2 ? 3 : 4;
}

void rind_mldsa_pack_eta(u8 *out, const struct mldsa_poly *s, unsigned int eta)
{
	pack_offset(out, s, (s32)eta, eta_bits(eta), true);
}

u32 rind_mldsa_unpack_eta(struct mldsa_poly *s, const u8 *in, unsigned int eta)
{
	u32 bad = 0;
	unsigned int i;

	unpack_offset(s, in, (s32)eta, eta_bits(eta), true);
	/* eta - s in [0, 2 eta]: s >= -eta (the upper bound holds by construction). */
	for (i = 0; i < MLDSA_N; i++)
		bad |= (u32)((s->c[i] + (s32)eta) >> 31);
	return bad;
}

void rind_mldsa_pack_t0(u8 *out, const struct mldsa_poly *t0)
{
	pack_offset(out, t0, 1 << (MLDSA_D - 1), MLDSA_D, true);
}

void rind_mldsa_unpack_t0(struct mldsa_poly *t0, const u8 *in)
{
	unpack_offset(t0, in, 1 << (MLDSA_D - 1), MLDSA_D, true);
}

/*
 * Once per signature for each of its l polynomials: four coefficients
 * (10 or 9 bytes) a step, one 64-bit store and the rest, straight from
 * z (no temporary).
 */
void rind_mldsa_pack_z(u8 *out, const struct mldsa_poly *z, unsigned int gamma1_bits)
{
	const s32 b = (s32)1 << gamma1_bits;
	unsigned int i;

	if (gamma1_bits != 19 && gamma1_bits != 17) {
		pack_offset(out, z, b, gamma1_bits + 1, false);
		return;
	}
	for (i = 0; i < MLDSA_N; i += 4) {
		u64 v0 = (u32)(b - z->c[i]), v1 = (u32)(b - z->c[i + 1]);
		u64 v2 = (u32)(b - z->c[i + 2]), v3 = (u32)(b - z->c[i + 3]);

		if (gamma1_bits == 19) {	/* 20-bit fields */
			put_unaligned_le64(v0 | v1 << 20 | v2 << 40 | v3 << 60, out);
			put_unaligned_le16((u16)(v3 >> 4), out + 8);
			out += 10;
		} else {			/* 18-bit fields */
			put_unaligned_le64(v0 | v1 << 18 | v2 << 36 | v3 << 54, out);
			out[8] = (u8)(v3 >> 10);
			out += 9;
		}
	}
}

/* Also ExpandMask's BitUnpack: y is secret, so the temporary is wiped. */
void rind_mldsa_unpack_z(struct mldsa_poly *z, const u8 *in, unsigned int gamma1_bits)
{
	unpack_offset(z, in, 1 << gamma1_bits, gamma1_bits + 1, true);
}

/* Once per w1 polynomial of every signing attempt: whole bytes at a time. */
void rind_mldsa_pack_w1(u8 *out, const struct mldsa_poly *w1, s32 gamma2)
{
	const s32 *c = w1->c;
	unsigned int i;

	if (gamma2 == (MLDSA_Q - 1) / 88) {
		for (i = 0; i < MLDSA_N; i += 4, out += 3) {
			u32 v = (u32)c[i] | (u32)c[i + 1] << 6 | (u32)c[i + 2] << 12 |
				(u32)c[i + 3] << 18;

			out[0] = (u8)v;
			out[1] = (u8)(v >> 8);
			out[2] = (u8)(v >> 16);
		}
		return;
	}
	for (i = 0; i < MLDSA_N; i += 2)
		out[i / 2] = (u8)(c[i] | c[i + 1] << 4);
}
