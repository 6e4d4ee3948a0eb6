// SPDX-License-Identifier: MIT
/*
 * AES (FIPS 197), generic constant-time C: the "aes" cipher "aes-generic".
 *
 * No table lookups and no branches on data or keys: the cipher is
 * bitsliced over 64-bit words.  Four blocks are processed at once as eight
 * words q[0..7]; q[j] holds bit j of each of the 64 bytes, the byte in row
 * r, column c of block b at bit position 16*c + 4*r + b.  In that layout
 *  - SubBytes is a boolean circuit applied to the eight words,
 *  - moving a row's bytes by a column is a 64-bit rotation by 16,
 *  - moving a column's bytes by a row is a rotation by 4 within each
 *    16-bit group (two rotations and two masks).
 *
 * ShiftRows is never applied ("fixslicing"): after round r the words hold
 * the state in the frame SR^-r (SR = ShiftRows), so that the row of byte
 * (r, c) never moves, and MixColumns instead combines, for row rho, the
 * bytes (rho + i, c + i*r) of the frame (rotations that depend on r mod 4).
 * The round keys are stored in the same frames, and the last round applies
 * the remaining SR^(Nr mod 4), which is SR^2 for AES-128/256 and the
 * identity for AES-192.  Decryption runs the same frames backwards with the
 * same round keys.
 *
 * The S-box is the inverse in GF(2^8) followed by the affine map.  The
 * inverse is computed in the tower field GF(((2^2)^2)^2):
 *   GF(4)   = GF(2)[w]/(w^2 + w + 1),     elements g*w + h
 *   GF(16)  = GF(4)[z]/(z^2 + z + w^2),   elements c*z + d
 *   GF(256) = GF(16)[y]/(y^2 + y + nu),   nu = w*z + w, elements a*y + b
 * where (a*y + b)^-1 = (a*y + (a + b)) * D^-1 with D = a^2*nu + a*b + b^2,
 * and the same formula one level down inverts D in GF(16) (in GF(4) the
 * inverse is the square, a linear map).  Multiplications use Karatsuba
 * (three products per level), giving 36 ANDs in all.  The change of basis
 * between the AES polynomial basis (x^8 + x^4 + x^3 + x + 1) and the tower
 * basis was found by matching the multiplicative groups (the tower basis
 * bit j is the AES field element 01 bd 5d 51 ff 49 41 29 for j = 0..7);
 * the affine map of SubBytes is folded into the basis change back, and the
 * XOR sequences of the four 8x8 binary matrices (to the tower basis, from
 * it with the affine map, and the same for the inverse S-box) were
 * shortened with Paar's greedy common-pair elimination.  The circuit is
 * checked exhaustively against the S-box by the test suite through the
 * FIPS 197 and OpenSSL comparisons.
 */
#include <rind/internal/cipher.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/util.h>
#include <crypto/aes.h>

/*
 * A bitsliced word: two 64-bit lanes (GNU C vectors: SSE2 on x86-64, NEON
 * on arm64), so eight blocks go through the rounds at once; lane l holds
 * blocks 4l..4l+3 in the layout described above.
 */
typedef u64 bsw __attribute__((vector_size(16)));
typedef u16 bsw16 __attribute__((vector_size(16)));
#define AES_PAR		8	/* blocks per bitsliced batch */

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "aes.c: the 16-bit lane shuffles assume a little-endian target"
#endif

/* ---- the S-box circuit ---- */

/* GF(4): (g, h) * (i, j), polynomial basis w^2 = w + 1. */
#define GF4_MUL(rh, rl, g, h, i, j) do {				\
	bsw __p = (g) & (i), __q = (h) & (j);				\
	bsw __m = ((g) ^ (h)) & ((i) ^ (j));				\
	(rh) = __m ^ __q;						\
	(rl) = __p ^ __q;						\
} while (0)

/* GF(16): r = x * y, x[3..2] = c, x[1..0] = d (x = c*z + d). */
static inline __attribute__((always_inline)) void gf16_mul(bsw r[4], const bsw x[4], const bsw y[4])
{
	bsw ch, cl, dh, dl, mh, ml;

	GF4_MUL(ch, cl, x[3], x[2], y[3], y[2]);
	GF4_MUL(dh, dl, x[1], x[0], y[1], y[0]);
	GF4_MUL(mh, ml, x[3] ^ x[1], x[2] ^ x[0], y[3] ^ y[1], y[2] ^ y[0]);
	/* (c e + c f + d e) z + (c e w^2 + d f); times w^2: (g, h) -> (h, g ^ h) */
	r[3] = mh ^ dh;
	r[2] = ml ^ dl;
	r[1] = cl ^ dh;
	r[0] = ch ^ cl ^ dl;
}

/* GF(16): r = x^-1 (0 -> 0). */
static inline __attribute__((always_inline)) void gf16_inv(bsw r[4], const bsw x[4])
{
	bsw ph, pl, gh, gl, ih, il;

	/* G = c^2 w^2 + c d + d^2; c^2 w^2 = (g ^ h, h), d^2 = (g', g' ^ h') */
	GF4_MUL(ph, pl, x[3], x[2], x[1], x[0]);
	gh = x[3] ^ x[2] ^ x[1] ^ ph;
	gl = x[2] ^ x[1] ^ x[0] ^ pl;
	/* G^-1 = G^2 */
	ih = gh;
	il = gh ^ gl;
	GF4_MUL(r[3], r[2], x[3], x[2], ih, il);
	GF4_MUL(r[1], r[0], x[3] ^ x[1], x[2] ^ x[0], ih, il);
}

/* Inverse in the tower GF(256); t[7..4] = a, t[3..0] = b.  In place. */
static inline __attribute__((always_inline)) void gf256_inv(bsw t[8])
{
	bsw a[4] = { t[4], t[5], t[6], t[7] };
	bsw b[4] = { t[0], t[1], t[2], t[3] };
	bsw s[4], d[4], di[4], u0, u1;

	/* d = a^2 nu + b^2 (linear) + a b */
	gf16_mul(d, a, b);
	u0 = t[1] ^ t[2];
	u1 = t[3] ^ t[4];
	d[0] ^= t[0] ^ t[5] ^ u0;
	d[1] ^= u0 ^ u1;
	d[2] ^= t[2] ^ t[3] ^ t[5] ^ t[6] ^ t[7];
	d[3] ^= t[7] ^ u1;
	gf16_inv(di, d);
	s[0] = a[0] ^ b[0];
	s[1] = a[1] ^ b[1];
	s[2] = a[2] ^ b[2];
	s[3] = a[3] ^ b[3];
	gf16_mul(t + 4, a, di);
	gf16_mul(t, s, di);
}

/* SubBytes on the eight planes. */
static inline __attribute__((always_inline)) void sub_bytes(bsw q[8])
{
	bsw t[8], u0, u1, u2, u3, u4;

	/* AES basis -> tower basis */
	u0 = q[1] ^ q[5];
	u1 = q[6] ^ u0;
	u2 = q[2] ^ q[7];
	u3 = q[2] ^ q[4];
	t[0] = q[0] ^ u1;
	t[1] = q[1] ^ q[7];
	t[2] = u2;
	t[3] = u3;
	t[4] = q[1];
	t[5] = q[3] ^ q[5] ^ u2;
	t[6] = q[3] ^ u1 ^ u3;
	t[7] = q[5] ^ q[7];

	gf256_inv(t);

	/* tower basis -> AES basis, with the affine map (+ 0x63) */
	u0 = t[0] ^ t[4];
	u1 = t[2] ^ t[3];
	u2 = u0 ^ u1;
	u3 = t[1] ^ u0;
	u4 = t[4] ^ t[6];
	q[0] = ~u2;
	q[1] = ~u3;
	q[2] = t[2] ^ t[7] ^ u3;
	q[3] = t[6] ^ u2;
	q[4] = t[6] ^ u0;
	q[5] = ~(t[4] ^ t[5] ^ u1);
	q[6] = ~u4;
	q[7] = t[2] ^ u4;
}

/* InvSubBytes on the eight planes. */
static inline __attribute__((always_inline)) void inv_sub_bytes(bsw q[8])
{
	bsw t[8], u0, u1, u2, u3, u4;

	/* (x + 0x63), inverse affine map, AES basis -> tower basis */
	u0 = q[4] ^ q[6];
	u1 = q[0] ^ q[3];
	u2 = q[6] ^ q[7];
	t[0] = ~u0;
	t[1] = q[1] ^ q[4] ^ u1;
	t[2] = ~u2;
	t[3] = ~(q[3] ^ q[7] ^ u0);
	t[4] = q[6] ^ u1;
	t[5] = ~(q[0] ^ q[5] ^ u0);
	t[6] = ~u1;
	t[7] = q[1] ^ q[2] ^ u2;

	gf256_inv(t);

	/* tower basis -> AES basis */
	u0 = t[1] ^ t[4];
	u1 = t[2] ^ u0;
	u2 = t[3] ^ t[5];
	u3 = t[6] ^ u2;
	u4 = t[7] ^ u1;
	q[0] = t[0] ^ u3 ^ u4;
	q[1] = t[4];
	q[2] = u1;
	q[3] = t[5] ^ u4;
	q[4] = t[3] ^ u1;
	q[5] = t[7] ^ u0;
	q[6] = t[2] ^ t[4] ^ u3;
	q[7] = u0;
}

/* ---- the linear layer ---- */

#define UNROLL8	_Pragma("GCC unroll 8")

#define ROW0	0x000F000F000F000FULL
#define ROW1	0x00F000F000F000F0ULL
#define ROW2	0x0F000F000F000F00ULL
#define ROW3	0xF000F000F000F000ULL

/* Column c of the result takes column c + s (mod 4): 16-bit lanes. */
#define COLS(x, s) ((bsw)__builtin_shufflevector((bsw16)(x), (bsw16)(x),	\
	(s) & 3, ((s) + 1) & 3, ((s) + 2) & 3, ((s) + 3) & 3,			\
	4 + ((s) & 3), 4 + (((s) + 1) & 3), 4 + (((s) + 2) & 3), 4 + (((s) + 3) & 3)))
/* Row r of the result takes row r + n/4 (mod 4): rotate each 16-bit group. */
#define ROWS(x, n) ((bsw)(((bsw16)(x) >> (n)) | ((bsw16)(x) << (16 - (n)))))

/*
 * Row rho of the result takes row rho + i of @x, i*k columns further on,
 * where k is the round number mod 4 (the ShiftRows count of the frame).
 */
static inline __attribute__((always_inline)) bsw rot1(bsw x, int k)
{
	switch (k & 3) {
	case 0: return ROWS(x, 4);
	case 1: return COLS(ROWS(x, 4), 1);
	case 2: return COLS(ROWS(x, 4), 2);
	default: return COLS(ROWS(x, 4), 3);
	}
}

static inline __attribute__((always_inline)) bsw rot2(bsw x, int k)
{
	/* 2k columns: 0 or 2 */
	if (k & 1)
		return COLS(ROWS(x, 8), 2);
	return ROWS(x, 8);
}

/* Multiply every byte by x (mod the AES polynomial); d may equal s. */
#define XTIME(d, s) do {						\
	bsw __h = (s)[7];						\
	(d)[7] = (s)[6];						\
	(d)[6] = (s)[5];						\
	(d)[5] = (s)[4];						\
	(d)[4] = (s)[3] ^ __h;						\
	(d)[3] = (s)[2] ^ __h;						\
	(d)[2] = (s)[1];						\
	(d)[1] = (s)[0] ^ __h;						\
	(d)[0] = __h;							\
} while (0)

/* MixColumns in the frame SR^-k: out = 2(a + r1) + r1 + rot2(a + r1). */
static inline __attribute__((always_inline)) void mix_columns(bsw q[8], int k)
{
	bsw r1[8], t[8], x[8];
	int j;

	UNROLL8
	for (j = 0; j < 8; j++) {
		r1[j] = rot1(q[j], k);
		t[j] = q[j] ^ r1[j];
	}
	XTIME(x, t);
	UNROLL8
	for (j = 0; j < 8; j++)
		q[j] = x[j] ^ r1[j] ^ rot2(t[j], k);
}

/* InvMixColumns = MixColumns o (05 + 04 X^2), in the frame SR^-k. */
static inline __attribute__((always_inline)) void inv_mix_columns(bsw q[8], int k)
{
	bsw s[8];
	int j;

	UNROLL8
	for (j = 0; j < 8; j++)
		s[j] = q[j] ^ rot2(q[j], k);
	XTIME(s, s);
	XTIME(s, s);
	UNROLL8
	for (j = 0; j < 8; j++)
		q[j] ^= s[j];
	mix_columns(q, k);
}

/* SR^2 (its own inverse): rows 1 and 3 move by two columns. */
static inline __attribute__((always_inline)) void shift_rows2(bsw q[8])
{
	int j;

	UNROLL8
	for (j = 0; j < 8; j++)
		q[j] = (q[j] & (ROW0 | ROW2)) | (COLS(q[j], 2) & (ROW1 | ROW3));
}

static inline __attribute__((always_inline)) void add_round_key(bsw q[8], const bsw *sk)
{
	int j;

	UNROLL8
	for (j = 0; j < 8; j++)
		q[j] ^= sk[j];
}

/* ---- packing eight blocks into planes ---- */

/* Exchange the bits of *a at positions p + n with those of *b at p in m. */
#define SWAPMOVE2(a, b, n, m) do {					\
	bsw __t = (((a) >> (n)) ^ (b)) & (m);				\
	(b) ^= __t;							\
	(a) ^= __t << (n);						\
} while (0)

static inline __attribute__((always_inline)) bsw swapmove1(bsw x, int n, u64 m)
{
	bsw t = ((x >> n) ^ x) & m;

	return x ^ t ^ (t << n);
}

/*
 * Word j <-> bit j of every byte: afterwards w[j] bit 8q + i is bit j of
 * byte q of the former w[i].  An involution.
 */
static inline __attribute__((always_inline)) void transpose8(bsw w[8])
{
	SWAPMOVE2(w[0], w[1], 1, 0x5555555555555555ULL);
	SWAPMOVE2(w[2], w[3], 1, 0x5555555555555555ULL);
	SWAPMOVE2(w[4], w[5], 1, 0x5555555555555555ULL);
	SWAPMOVE2(w[6], w[7], 1, 0x5555555555555555ULL);
	SWAPMOVE2(w[0], w[2], 2, 0x3333333333333333ULL);
	SWAPMOVE2(w[1], w[3], 2, 0x3333333333333333ULL);
	SWAPMOVE2(w[4], w[6], 2, 0x3333333333333333ULL);
	SWAPMOVE2(w[5], w[7], 2, 0x3333333333333333ULL);
	SWAPMOVE2(w[0], w[4], 4, 0x0F0F0F0F0F0F0F0FULL);
	SWAPMOVE2(w[1], w[5], 4, 0x0F0F0F0F0F0F0F0FULL);
	SWAPMOVE2(w[2], w[6], 4, 0x0F0F0F0F0F0F0F0FULL);
	SWAPMOVE2(w[3], w[7], 4, 0x0F0F0F0F0F0F0F0FULL);
}

/* Bytes 0..7 of each lane -> 0 2 4 6 1 3 5 7 (and back with unzip_inv). */
static inline __attribute__((always_inline)) bsw unzip(bsw x)
{
	x = swapmove1(x, 8, 0x0000FF000000FF00ULL);
	return swapmove1(x, 16, 0x00000000FFFF0000ULL);
}

static inline __attribute__((always_inline)) bsw unzip_inv(bsw x)
{
	x = swapmove1(x, 16, 0x00000000FFFF0000ULL);
	return swapmove1(x, 8, 0x0000FF000000FF00ULL);
}

static inline bsw load2(const u8 *p0, const u8 *p1)
{
	bsw v = { get_unaligned_le64(p0), get_unaligned_le64(p1) };

	return v;
}

/*
 * Eight blocks (128 bytes) into planes, blocks 0-3 in lane 0 and 4-7 in
 * lane 1.  Word 4*r0 + b gets the bytes of block b with row parity r0
 * (even or odd byte index), byte 2*c + (r >> 1) of it the byte in row r,
 * column c; the transposition then puts that byte's bits at
 * 8*(2c + (r >> 1)) + 4*(r & 1) + b = 16c + 4r + b.
 */
static inline __attribute__((always_inline)) void pack(bsw q[8], const u8 *in)
{
	int b;

	for (b = 0; b < 4; b++) {
		bsw lo = unzip(load2(in + 16 * b, in + 64 + 16 * b));
		bsw hi = unzip(load2(in + 16 * b + 8, in + 64 + 16 * b + 8));

		q[b] = (lo & 0xFFFFFFFFULL) | (hi << 32);
		q[4 + b] = (lo >> 32) | (hi & 0xFFFFFFFF00000000ULL);
	}
	transpose8(q);
}

static inline __attribute__((always_inline)) void unpack(u8 *out, bsw q[8])
{
	int b;

	transpose8(q);
	for (b = 0; b < 4; b++) {
		bsw lo = unzip_inv((q[b] & 0xFFFFFFFFULL) | (q[4 + b] << 32));
		bsw hi = unzip_inv((q[b] >> 32) | (q[4 + b] & 0xFFFFFFFF00000000ULL));

		put_unaligned_le64(lo[0], out + 16 * b);
		put_unaligned_le64(hi[0], out + 16 * b + 8);
		put_unaligned_le64(lo[1], out + 64 + 16 * b);
		put_unaligned_le64(hi[1], out + 64 + 16 * b + 8);
	}
}

/* ---- rounds ---- */

static inline __attribute__((always_inline)) void enc_round(bsw q[8], const bsw *sk, int k)
{
	sub_bytes(q);
	mix_columns(q, k);
	add_round_key(q, sk);
}

static inline __attribute__((always_inline)) void dec_round(bsw q[8], const bsw *sk, int k)
{
	add_round_key(q, sk);
	inv_mix_columns(q, k);
	inv_sub_bytes(q);
}

static inline const bsw *round_key(const struct rind_aes_ctx *ctx, unsigned int r)
{
	return (const bsw *)ctx->sk[r];
}

static void aes_encrypt8(const struct rind_aes_ctx *ctx, bsw q[8])
{
	unsigned int nr = ctx->nrounds, r = 1;

	add_round_key(q, round_key(ctx, 0));
	/* round r works in the frame SR^-r: k = r mod 4 */
	for (;;) {
		enc_round(q, round_key(ctx, r), 1);
		if (++r == nr)
			break;
		enc_round(q, round_key(ctx, r), 2);
		if (++r == nr)
			break;
		enc_round(q, round_key(ctx, r), 3);
		if (++r == nr)
			break;
		enc_round(q, round_key(ctx, r), 0);
		if (++r == nr)
			break;
	}
	sub_bytes(q);
	if (nr & 2)
		shift_rows2(q);
	add_round_key(q, round_key(ctx, nr));
}

static void aes_decrypt8(const struct rind_aes_ctx *ctx, bsw q[8])
{
	unsigned int nr = ctx->nrounds, r = nr - 1;

	add_round_key(q, round_key(ctx, nr));
	if (nr & 2)
		shift_rows2(q);
	inv_sub_bytes(q);
	for (;;) {
		switch (r & 3) {
		case 0: dec_round(q, round_key(ctx, r), 0); break;
		case 1: dec_round(q, round_key(ctx, r), 1); break;
		case 2: dec_round(q, round_key(ctx, r), 2); break;
		default: dec_round(q, round_key(ctx, r), 3); break;
		}
		if (--r == 0)
			break;
	}
	add_round_key(q, round_key(ctx, 0));
}

static void aes_crypt_blocks(const struct rind_aes_ctx *ctx, u8 *dst, const u8 *src,
			     size_t nblocks, bool enc)
{
	bsw q[8];
	u8 buf[16 * AES_PAR];

	while (nblocks) {
		size_t n = nblocks < AES_PAR ? nblocks : AES_PAR;
		bool full = n == AES_PAR;

		if (!full) {
			memset(buf, 0, sizeof(buf));
			memcpy(buf, src, n * 16);
		}
		pack(q, full ? src : buf);
		if (enc)
			aes_encrypt8(ctx, q);
		else
			aes_decrypt8(ctx, q);
		unpack(full ? dst : buf, q);
		if (!full)
			memcpy(dst, buf, n * 16);
		src += 16 * n;
		dst += 16 * n;
		nblocks -= n;
	}
	memzero_explicit(q, sizeof(q));
	memzero_explicit(buf, sizeof(buf));
}

void rind_aes_encrypt_blocks(const struct rind_aes_ctx *ctx, u8 *dst, const u8 *src,
			     size_t nblocks)
{
	aes_crypt_blocks(ctx, dst, src, nblocks, true);
}

void rind_aes_decrypt_blocks(const struct rind_aes_ctx *ctx, u8 *dst, const u8 *src,
			     size_t nblocks)
{
	aes_crypt_blocks(ctx, dst, src, nblocks, false);
}

/* ---- key expansion (FIPS 197 section 5.2) ---- */

/* SubWord through the same circuit: byte i of @w in bit i of each plane. */
static u32 sub_word(u32 w)
{
	bsw q[8];
	u32 r = 0;
	int i, j;

	for (j = 0; j < 8; j++) {
		u64 v = 0;

		for (i = 0; i < 4; i++)
			v |= (u64)((w >> (8 * i + j)) & 1) << i;
		q[j] = (bsw){ v, 0 };
	}
	sub_bytes(q);
	for (j = 0; j < 8; j++)
		for (i = 0; i < 4; i++)
			r |= (u32)((q[j][0] >> i) & 1) << (8 * i + j);
	memzero_explicit(q, sizeof(q));
	return r;
}

int rind_aes_expandkey(struct rind_aes_ctx *ctx, const u8 *key, unsigned int keylen)
{
	u32 w[60];
	u8 rk[16 * AES_PAR];
	bsw q[8];
	unsigned int nk, nr, i, r;
	u32 rcon = 1;

	if (keylen != AES_KEYSIZE_128 && keylen != AES_KEYSIZE_192 &&
	    keylen != AES_KEYSIZE_256)
		return -EINVAL;
	nk = keylen / 4;
	nr = nk + 6;
	for (i = 0; i < nk; i++)
		w[i] = get_unaligned_le32(key + 4 * i);
	for (i = nk; i < 4 * (nr + 1); i++) {
		u32 t = w[i - 1];

		if (i % nk == 0) {
			t = sub_word(ror32(t, 8)) ^ rcon;
			rcon = (rcon << 1) ^ (0x11b & -(rcon >> 7));
		} else if (nk > 6 && i % nk == 4) {
			t = sub_word(t);
		}
		w[i] = w[i - nk] ^ t;
	}
	for (r = 0; r <= nr; r++) {
		/* key r in the frame SR^-r (none for the first and last) */
		unsigned int k = (r == 0 || r == nr) ? 0 : r & 3;
		unsigned int c, row;

		for (c = 0; c < 4; c++)
			for (row = 0; row < 4; row++)
				rk[4 * c + row] = w[4 * r + ((c - k * row) & 3)] >> (8 * row);
		for (c = 1; c < AES_PAR; c++)
			memcpy(rk + 16 * c, rk, 16);
		pack(q, rk);
		memcpy(ctx->sk[r], q, sizeof(q));
	}
	ctx->nrounds = nr;
	ctx->key_length = keylen;
	memzero_explicit(w, sizeof(w));
	memzero_explicit(rk, sizeof(rk));
	memzero_explicit(q, sizeof(q));
	return 0;
}

/* ---- the "aes" cipher ---- */

static int aes_setkey(struct crypto_cipher *tfm, const u8 *key, unsigned int keylen)
{
	return rind_aes_expandkey(crypto_cipher_ctx(tfm), key, keylen);
}

static void aes_encrypt(struct crypto_cipher *tfm, u8 *dst, const u8 *src)
{
	aes_crypt_blocks(crypto_cipher_ctx(tfm), dst, src, 1, true);
}

static void aes_decrypt(struct crypto_cipher *tfm, u8 *dst, const u8 *src)
{
	aes_crypt_blocks(crypto_cipher_ctx(tfm), dst, src, 1, false);
}

static void aes_encrypt_blocks(struct crypto_cipher *tfm, u8 *dst, const u8 *src, size_t n)
{
	aes_crypt_blocks(crypto_cipher_ctx(tfm), dst, src, n, true);
}

static void aes_decrypt_blocks(struct crypto_cipher *tfm, u8 *dst, const u8 *src, size_t n)
{
	aes_crypt_blocks(crypto_cipher_ctx(tfm), dst, src, n, false);
}

static struct cipher_alg aes_alg = {
	.min_keysize = AES_MIN_KEY_SIZE,
	.max_keysize = AES_MAX_KEY_SIZE,
	.setkey = aes_setkey,
	.encrypt = aes_encrypt,
	.decrypt = aes_decrypt,
	.encrypt_blocks = aes_encrypt_blocks,
	.decrypt_blocks = aes_decrypt_blocks,
	.base = {
		.cra_name = "aes",
		.cra_driver_name = "aes-generic",
		.cra_priority = 100,
		.cra_blocksize = AES_BLOCK_SIZE,
		.cra_ctxsize = sizeof(struct rind_aes_ctx),
		.cra_module = "generic",
	},
};

/* FIPS 197 appendix C, plus a bad key length. */
static const struct cipher_testvec aes_tv[] = {
	{
		.key = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f",
		.klen = 16,
		.ptext = "\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff",
		.ctext = "\x69\xc4\xe0\xd8\x6a\x7b\x04\x30\xd8\xcd\xb7\x80\x70\xb4\xc5\x5a",
		.len = 16,
	}, {
		.key = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
		       "\x10\x11\x12\x13\x14\x15\x16\x17",
		.klen = 24,
		.ptext = "\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff",
		.ctext = "\xdd\xa9\x7c\xa4\x86\x4c\xdf\xe0\x6e\xaf\x70\xa0\xec\x0d\x71\x91",
		.len = 16,
	}, {
		.key = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
		       "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f",
		.klen = 32,
		.ptext = "\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff",
		.ctext = "\x8e\xa2\xb7\xca\x51\x67\x45\xbf\xea\xfc\x49\x90\x4b\x49\x60\x89",
		.len = 16,
	}, {
		.key = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
		       "\x10\x11\x12\x13\x14",
		.klen = 21,
		.setkey_error = -EINVAL,
	},
};

static struct alg_test_desc aes_test = {
	.alg = "aes",
	.suite.cipher = __VECS(aes_tv),
};

static int aes_mod_init(void)
{
	crypto_register_test(&aes_test);
	return crypto_register_cipher(&aes_alg);
}

module_init(aes_mod_init);
