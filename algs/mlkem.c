// SPDX-License-Identifier: MIT
/*
 * ML-KEM (FIPS 203): "mlkem512", "mlkem768", "mlkem1024", portable C.
 *
 * Polynomials have 256 signed 16-bit coefficients mod q = 3329.  Products
 * use Montgomery reduction (R = 2^16) and sums Barrett reduction, both
 * branch-free; the NTT constants (powers of zeta = 17) are kept in
 * Montgomery form and computed once at init.  Products of NTT-domain
 * polynomials carry a factor R^-1 that the inverse NTT's final scaling
 * (R^2 / 128) and the key generation's multiplication by R^2 cancel.
 *
 * Constant time: the only branches on data are in SampleNTT (rejection
 * sampling over the public seed rho) and in the checks of public input
 * (the encapsulation key's modulus check).  Decapsulation compares the
 * re-encrypted ciphertext with masks and selects the implicit-rejection
 * secret without a branch.  Compression divides by q with a multiply by
 * a 2^40-scaled reciprocal, exact for the operand range used.
 */
#include <stdio.h>
#include <string.h>
#include <rind/internal/kem.h>
#include <rind/internal/util.h>
#include <crypto/keccak.h>
#include <crypto/mlkem.h>

#define Q		MLKEM_Q
#define QINV		62209u		/* q^-1 mod 2^16 */
#define MONT_R2		1353		/* 2^32 mod q */

_Static_assert((3329u * QINV & 0xffff) == 1, "QINV");
_Static_assert((((u64)1 << 32) % 3329) == MONT_R2, "R^2");

#define KEY_PARAMS(k_, e1_, du_, dv_) {					\
	.k = k_, .eta1 = e1_, .eta2 = 2, .du = du_, .dv = dv_,		\
	.ek_size = 384 * (k_) + 32, .dk_size = 768 * (k_) + 96,		\
	.ct_size = 32 * ((du_) * (k_) + (dv_)) }

const struct mlkem_params rind_mlkem512_params = KEY_PARAMS(2, 3, 10, 4);
const struct mlkem_params rind_mlkem768_params = KEY_PARAMS(3, 2, 10, 4);
const struct mlkem_params rind_mlkem1024_params = KEY_PARAMS(4, 2, 11, 5);

/* zeta^BitRev7(i) * R mod q and gamma_i = zeta^(2 BitRev7(i) + 1) * R mod q. */
s16 rind_mlkem_zetas[128];
s16 rind_mlkem_gammas[128];
s16 rind_mlkem_invntt_f;	/* R^2 / 128 mod q */
#define zetas		rind_mlkem_zetas
#define gammas		rind_mlkem_gammas
#define invntt_f	rind_mlkem_invntt_f

/* ---- arithmetic ------------------------------------------------------- */

/* Hide a value from the optimizer so that mask selects stay selects. */
static inline u32 value_barrier_u32(u32 x)
{
	__asm__ volatile("" : "+r"(x));
	return x;
}

/* a * R^-1 mod q, in (-q, q), for |a| < q * 2^15. */
static inline s16 montgomery_reduce(s32 a)
{
	s16 t = (s16)(u16)((u32)a * QINV);

	return (s16)((a - (s32)t * Q) >> 16);
}

static inline s16 fqmul(s16 a, s16 b)
{
	return montgomery_reduce((s32)a * b);
}

/* a mod q, centered: in [-(q-1)/2, (q-1)/2] */
static inline s16 barrett_reduce(s16 a)
{
	const s32 v = ((1 << 26) + Q / 2) / Q;
	s32 t = (v * a + (1 << 25)) >> 26;

	return (s16)(a - t * Q);
}

/* From (-q, q) to [0, q). */
static inline s16 caddq(s16 a)
{
	return (s16)(a + ((a >> 15) & Q));
}

static s16 centered(u32 x)
{
	x %= Q;
	return (s16)(x > Q / 2 ? (s32)x - Q : (s32)x);
}

void rind_mlkem_init_tables(void)
{
	const u32 r = (1u << 16) % Q;
	unsigned int i;

	if (invntt_f)
		return;

	for (i = 0; i < 128; i++) {
		zetas[i] = centered((u32)rind_powmod(17, rind_bitrev(i, 7), Q) * r);
		gammas[i] = centered((u32)rind_powmod(17, 2 * rind_bitrev(i, 7) + 1, Q) * r);
	}
	invntt_f = centered((u32)MONT_R2 * (u32)rind_powmod(128, Q - 2, Q));
}

/* ---- polynomials ------------------------------------------------------ */

typedef struct mlkem_poly poly;

/* FIPS 203 Algorithm 9; input |c| < q, output reduced (centered). */
static void generic_ntt(poly *f)
{
	unsigned int len, start, j, i = 1;

	for (len = 128; len >= 2; len >>= 1) {
		for (start = 0; start < MLKEM_N; start += 2 * len) {
			s16 zeta = zetas[i++];

			for (j = start; j < start + len; j++) {
				s16 t = fqmul(zeta, f->c[j + len]);

				f->c[j + len] = (s16)(f->c[j] - t);
				f->c[j] = (s16)(f->c[j] + t);
			}
		}
	}
	for (j = 0; j < MLKEM_N; j++)
		f->c[j] = barrett_reduce(f->c[j]);
}

/* FIPS 203 Algorithm 10, times R (to cancel a product's R^-1); out in (-q, q). */
static void generic_invntt(poly *f)
{
	unsigned int len, start, j, i = 127;

	for (len = 2; len <= 128; len <<= 1) {
		for (start = 0; start < MLKEM_N; start += 2 * len) {
			s16 zeta = zetas[i--];

			for (j = start; j < start + len; j++) {
				s16 t = f->c[j];

				f->c[j] = barrett_reduce((s16)(t + f->c[j + len]));
				f->c[j + len] = fqmul(zeta, (s16)(f->c[j + len] - t));
			}
		}
	}
	for (j = 0; j < MLKEM_N; j++)
		f->c[j] = fqmul(f->c[j], invntt_f);
}

/* r += a * b in the NTT domain (FIPS 203 Algorithms 11, 12), times R^-1. */
static void generic_basemul_acc(poly *r, const poly *a, const poly *b)
{
	unsigned int i;

	for (i = 0; i < 128; i++) {
		s16 a0 = a->c[2 * i], a1 = a->c[2 * i + 1];
		s16 b0 = b->c[2 * i], b1 = b->c[2 * i + 1];

		r->c[2 * i] += (s16)(fqmul(fqmul(a1, b1), gammas[i]) + fqmul(a0, b0));
		r->c[2 * i + 1] += (s16)(fqmul(a0, b1) + fqmul(a1, b0));
	}
}

static void poly_reduce(poly *r)
{
	unsigned int i;

	for (i = 0; i < MLKEM_N; i++)
		r->c[i] = barrett_reduce(r->c[i]);
}

static void poly_add(poly *r, const poly *a)
{
	unsigned int i;

	for (i = 0; i < MLKEM_N; i++)
		r->c[i] = (s16)(r->c[i] + a->c[i]);
}

/* ---- encodings -------------------------------------------------------- */

/* ByteEncode_12 of canonical coefficients (reduces first). */
static void poly_tobytes(u8 r[MLKEM_POLYBYTES], const poly *a)
{
	unsigned int i;

	for (i = 0; i < MLKEM_N / 2; i++) {
		u16 t0 = (u16)caddq(barrett_reduce(a->c[2 * i]));
		u16 t1 = (u16)caddq(barrett_reduce(a->c[2 * i + 1]));

		r[3 * i] = (u8)t0;
		r[3 * i + 1] = (u8)((t0 >> 8) | (t1 << 4));
		r[3 * i + 2] = (u8)(t1 >> 4);
	}
}

/* ByteDecode_12, values < 4096 (not reduced). */
static void poly_frombytes(poly *r, const u8 a[MLKEM_POLYBYTES])
{
	unsigned int i;

	for (i = 0; i < MLKEM_N / 2; i++) {
		r->c[2 * i] = (s16)(a[3 * i] | ((a[3 * i + 1] & 0x0f) << 8));
		r->c[2 * i + 1] = (s16)((a[3 * i + 1] >> 4) | (a[3 * i + 2] << 4));
	}
}

/* Subtract q from coefficients in [q, 2q), branch-free. */
static void poly_csubq(poly *r)
{
	unsigned int i;

	for (i = 0; i < MLKEM_N; i++)
		r->c[i] = caddq((s16)(r->c[i] - Q));
}

/* Compress_d(x) for x in [0, q): round(2^d x / q) mod 2^d, no division. */
static inline u32 compress(s16 x, unsigned int d)
{
	const u64 m = (((u64)1 << 40) + Q - 1) / Q;
	u64 t = ((u64)(u16)x << d) + Q / 2;

	return (u32)((t * m) >> 40) & ((1u << d) - 1);
}

static inline s16 decompress(u32 y, unsigned int d)
{
	return (s16)((y * Q + (1u << (d - 1))) >> d);
}

/* ByteEncode_d(Compress_d(a)); a is reduced to [0, q) first. */
static void generic_compress(u8 *r, const poly *a, unsigned int d)
{
	unsigned int i, bits = 0;
	u64 acc = 0;

	for (i = 0; i < MLKEM_N; i++) {
		acc |= (u64)compress(caddq(barrett_reduce(a->c[i])), d) << bits;
		bits += d;
		while (bits >= 8) {
			*r++ = (u8)acc;
			acc >>= 8;
			bits -= 8;
		}
	}
}

/* Decompress_d(ByteDecode_d(a)). */
static void generic_decompress(poly *r, const u8 *a, unsigned int d)
{
	unsigned int i, bits = 0;
	u64 acc = 0;

	for (i = 0; i < MLKEM_N; i++) {
		while (bits < d) {
			acc |= (u64)*a++ << bits;
			bits += 8;
		}
		r->c[i] = decompress((u32)acc & ((1u << d) - 1), d);
		acc >>= d;
		bits -= d;
	}
}

/* Decompress_1(ByteDecode_1(m)): bit i -> 0 or 1665. */
static void poly_frommsg(poly *r, const u8 m[32])
{
	unsigned int i;

	for (i = 0; i < MLKEM_N; i++)
		r->c[i] = (s16)(-(s16)((m[i / 8] >> (i % 8)) & 1) & ((Q + 1) / 2));
}


/* ---- sampling --------------------------------------------------------- */

/* SampleNTT (FIPS 203 Algorithm 7) from SHAKE128(rho || j || i); public data. */
static void poly_sample_ntt(poly *r, const u8 rho[32], u8 j, u8 i)
{
	struct keccak_state st;
	u8 buf[3 * SHAKE128_RATE];
	unsigned int ctr = 0, pos, len;
	u8 ji[2] = { j, i };

	rind_shake128_init(&st);
	rind_keccak_absorb(&st, rho, 32);
	rind_keccak_absorb(&st, ji, 2);
	rind_keccak_squeeze_blocks(&st, buf, 3);
	len = sizeof(buf);
	for (;;) {
		for (pos = 0; pos + 3 <= len && ctr < MLKEM_N; pos += 3) {
			u16 d1 = (u16)(buf[pos] | ((buf[pos + 1] & 0x0f) << 8));
			u16 d2 = (u16)((buf[pos + 1] >> 4) | (buf[pos + 2] << 4));

			if (d1 < Q)
				r->c[ctr++] = (s16)d1;
			if (d2 < Q && ctr < MLKEM_N)
				r->c[ctr++] = (s16)d2;
		}
		if (ctr == MLKEM_N)
			break;
		rind_keccak_squeeze_blocks(&st, buf, 1);
		len = SHAKE128_RATE;
	}
}

/* A-hat[i][j] = SampleNTT(rho || j || i). */
static void generic_gen_matrix(struct mlkem_key *key, const u8 rho[32])
{
	unsigned int i, j, k = key->p->k;

	for (i = 0; i < k; i++)
		for (j = 0; j < k; j++)
			poly_sample_ntt(&key->a[i][j], rho, (u8)j, (u8)i);
}

/* SamplePolyCBD_eta (FIPS 203 Algorithm 8) of 64 eta bytes, eta 2 or 3. */
void rind_mlkem_cbd(struct mlkem_poly *r, const u8 *buf, unsigned int eta)
{
	unsigned int i, j;

	if (eta == 2) {
		for (i = 0; i < MLKEM_N / 8; i++) {
			u32 w = get_unaligned_le32(buf + 4 * i);
			u32 d = (w & 0x55555555) + ((w >> 1) & 0x55555555);

			for (j = 0; j < 8; j++) {
				s16 a = (s16)((d >> (4 * j)) & 3);
				s16 b = (s16)((d >> (4 * j + 2)) & 3);

				r->c[8 * i + j] = (s16)(a - b);
			}
		}
	} else {
		for (i = 0; i < MLKEM_N / 4; i++) {
			u32 w = buf[3 * i] | ((u32)buf[3 * i + 1] << 8) | ((u32)buf[3 * i + 2] << 16);
			u32 d = (w & 0x249249) + ((w >> 1) & 0x249249) + ((w >> 2) & 0x249249);

			for (j = 0; j < 4; j++) {
				s16 a = (s16)((d >> (6 * j)) & 7);
				s16 b = (s16)((d >> (6 * j + 3)) & 7);

				r->c[4 * i + j] = (s16)(a - b);
			}
		}
	}
}

/* r[i] = SamplePolyCBD_eta(PRF_eta(sigma, n0 + i)) for i < count. */
static void generic_noise(struct mlkem_poly *const r[], unsigned int count,
			  const u8 sigma[32], u8 n0, unsigned int eta)
{
	u8 buf[64 * 3];
	u8 in[33];
	unsigned int i;

	memcpy(in, sigma, 32);
	for (i = 0; i < count; i++) {
		in[32] = (u8)(n0 + i);
		rind_shake256(buf, 64 * eta, in, sizeof(in));
		rind_mlkem_cbd(r[i], buf, eta);
	}
	memzero_explicit(buf, sizeof(buf));
	memzero_explicit(in, sizeof(in));
}

const struct mlkem_ops rind_mlkem_generic_ops = {
	.ntt		= generic_ntt,
	.invntt		= generic_invntt,
	.basemul_acc	= generic_basemul_acc,
	.gen_matrix	= generic_gen_matrix,
	.noise		= generic_noise,
	.compress	= generic_compress,
	.decompress	= generic_decompress,
};

/* The key's driver operations; the generic ones before any key was set. */
static const struct mlkem_ops *mlkem_ops(const struct mlkem_key *key)
{
	return key->ops ? key->ops : &rind_mlkem_generic_ops;
}

/* ---- K-PKE and ML-KEM --------------------------------------------------- */

/* ByteEncode_12(ByteDecode_12(ek)) == ek for every t-hat (FIPS 203 7.2). */
static bool ek_modulus_ok(const struct mlkem_params *p, const u8 *ek)
{
	unsigned int i, k;

	for (k = 0; k < p->k; k++) {
		const u8 *a = ek + MLKEM_POLYBYTES * k;

		for (i = 0; i < MLKEM_N / 2; i++) {
			u16 t0 = (u16)(a[3 * i] | ((a[3 * i + 1] & 0x0f) << 8));
			u16 t1 = (u16)((a[3 * i + 1] >> 4) | (a[3 * i + 2] << 4));

			if (t0 >= Q || t1 >= Q)
				return false;
		}
	}
	return true;
}

/*
 * Every 12-bit field of the secret s-hat below q, without a branch on it:
 * the borrow of field - q is collected and only the verdict is revealed.
 */
static bool dk_s_reduced(const struct mlkem_params *p, const u8 *dk)
{
	unsigned int i;
	u32 over = 0;

	for (i = 0; i < MLKEM_POLYBYTES * p->k / 3; i++) {
		u32 t0 = dk[3 * i] | ((u32)(dk[3 * i + 1] & 0x0f) << 8);
		u32 t1 = (u32)(dk[3 * i + 1] >> 4) | ((u32)dk[3 * i + 2] << 4);

		/* bit 31 of q - 1 - t is set exactly when t >= q */
		over |= ((u32)(Q - 1) - t0) | ((u32)(Q - 1) - t1);
	}
	return !(value_barrier_u32(over) >> 31);
}

/* Public part from a checked ek: t-hat, A-hat, H(ek). */
static void load_ek(struct mlkem_key *key, const struct mlkem_params *p, const u8 *ek)
{
	unsigned int i;

	key->p = p;
	memcpy(key->ek, ek, p->ek_size);
	for (i = 0; i < p->k; i++)
		poly_frombytes(&key->t[i], ek + MLKEM_POLYBYTES * i);
	mlkem_ops(key)->gen_matrix(key, ek + MLKEM_POLYBYTES * p->k);
	rind_sha3_256(key->h, ek, p->ek_size);
}

/* K-PKE.KeyGen after G through the per-step hooks (struct mlkem_ops.pke_keygen). */
static void pke_keygen(struct mlkem_key *key, const struct mlkem_ops *ops,
		       const u8 rho[32], const u8 sigma[32])
{
	const struct mlkem_params *p = key->p;
	unsigned int i, j, k = p->k;
	poly e[MLKEM_KMAX], *noise[2 * MLKEM_KMAX];

	ops->gen_matrix(key, rho);
	for (i = 0; i < k; i++) {
		noise[i] = &key->s[i];
		noise[k + i] = &e[i];
	}
	ops->noise(noise, 2 * k, sigma, 0, p->eta1);
	for (i = 0; i < k; i++) {
		ops->ntt(&key->s[i]);
		ops->ntt(&e[i]);
	}
	for (i = 0; i < k; i++) {
		memset(&key->t[i], 0, sizeof(poly));
		for (j = 0; j < k; j++)
			ops->basemul_acc(&key->t[i], &key->a[i][j], &key->s[j]);
		for (j = 0; j < MLKEM_N; j++)
			key->t[i].c[j] = fqmul(key->t[i].c[j], MONT_R2);
		poly_add(&key->t[i], &e[i]);
		poly_reduce(&key->t[i]);
		for (j = 0; j < MLKEM_N; j++)
			key->t[i].c[j] = caddq(key->t[i].c[j]);
		poly_tobytes(key->ek + MLKEM_POLYBYTES * i, &key->t[i]);
	}
	for (i = 0; i < k; i++)
		poly_reduce(&key->s[i]);
	memzero_explicit(e, sizeof(e));
}

void rind_mlkem_keygen(struct mlkem_key *key, const struct mlkem_params *p,
		       const u8 seed[MLKEM_SEED_BYTES])
{
	unsigned int k = p->k;
	const struct mlkem_ops *ops = mlkem_ops(key);
	u8 in[33], rs[64];	/* rho || sigma */
	const u8 *rho = rs, *sigma = rs + 32;

	key->p = p;
	memcpy(in, seed, 32);
	in[32] = (u8)k;
	rind_sha3_512(rs, in, sizeof(in));
	rind_declassify(rs, 32);	/* rho is public (part of ek) */
	if (ops->pke_keygen)
		ops->pke_keygen(key, rho, sigma);
	else
		pke_keygen(key, ops, rho, sigma);
	memcpy(key->ek + MLKEM_POLYBYTES * k, rho, 32);
	rind_declassify(key->ek, p->ek_size);
	if (!ops->pke_keygen || !ops->pke_keygen_h)	/* else the driver hashed ek */
		rind_sha3_256(key->h, key->ek, p->ek_size);
	memcpy(key->z, seed + 32, 32);
	memcpy(key->seed, seed, MLKEM_SEED_BYTES);
	key->has_priv = true;
	key->has_seed = true;
	memzero_explicit(rs, sizeof(rs));
	memzero_explicit(in, sizeof(in));
}

int rind_mlkem_set_ek(struct mlkem_key *key, const struct mlkem_params *p, const u8 *ek)
{
	if (!ek_modulus_ok(p, ek))
		return -EKEYREJECTED;
	load_ek(key, p, ek);
	memset(key->s, 0, sizeof(key->s));
	memzero_explicit(key->z, sizeof(key->z));
	memzero_explicit(key->seed, sizeof(key->seed));
	key->has_priv = false;
	key->has_seed = false;
	return 0;
}

int rind_mlkem_set_dk(struct mlkem_key *key, const struct mlkem_params *p, const u8 *dk)
{
	const u8 *ek = dk + MLKEM_POLYBYTES * p->k;
	const u8 *h = ek + p->ek_size;
	u8 hh[32];
	int bad;
	unsigned int i;

	/* The embedded ek is public; the hash check's verdict too. */
	rind_declassify(ek, p->ek_size);
	rind_sha3_256(hh, ek, p->ek_size);
	bad = crypto_memneq(hh, h, 32);
	/* s-hat must be ByteEncode_12 of coefficients < q (FIPS 203 7.3 allows the check) */
	bad |= !dk_s_reduced(p, dk);
	rind_declassify(&bad, sizeof(bad));
	if (bad || !ek_modulus_ok(p, ek))
		return -EKEYREJECTED;
	load_ek(key, p, ek);
	for (i = 0; i < p->k; i++) {
		poly_frombytes(&key->s[i], dk + MLKEM_POLYBYTES * i);
		poly_csubq(&key->s[i]);
	}
	memcpy(key->z, h + 32, 32);
	memzero_explicit(key->seed, sizeof(key->seed));
	key->has_priv = true;
	key->has_seed = false;
	return 0;
}

void rind_mlkem_export_dk(const struct mlkem_key *key, u8 *dk)
{
	const struct mlkem_params *p = key->p;
	unsigned int i;
	u8 *q = dk;

	for (i = 0; i < p->k; i++, q += MLKEM_POLYBYTES)
		poly_tobytes(q, &key->s[i]);
	memcpy(q, key->ek, p->ek_size);
	q += p->ek_size;
	memcpy(q, key->h, 32);
	memcpy(q + 32, key->z, 32);
}

/*
 * r[i] = the reduced sum over m < k of a[i k + m] * b[m] in the NTT domain,
 * i < rows: the driver's matvec, or basemul_acc and a Barrett reduction.
 */
static void matvec(const struct mlkem_ops *ops, poly *r, const poly *const a[], unsigned int rows,
		   const poly b[], unsigned int k)
{
	unsigned int i, m;

	if (ops->matvec) {
		ops->matvec(r, a, rows, b, k);
		return;
	}
	for (i = 0; i < rows; i++) {
		memset(&r[i], 0, sizeof(poly));
		for (m = 0; m < k; m++)
			ops->basemul_acc(&r[i], a[i * k + m], &b[m]);
		poly_reduce(&r[i]);
	}
}

/* K-PKE.Encrypt (FIPS 203 Algorithm 14) with the key's A-hat and t-hat. */
static void pke_encrypt(const struct mlkem_key *key, const u8 m[32], const u8 r[32], u8 *ct)
{
	const struct mlkem_params *p = key->p;
	unsigned int i, j, k = p->k;
	const struct mlkem_ops *ops = mlkem_ops(key);
	poly y[MLKEM_KMAX], e[MLKEM_KMAX + 1], uv[MLKEM_KMAX + 1];
	poly *noise[2 * MLKEM_KMAX + 1];
	const poly *rows[(MLKEM_KMAX + 1) * MLKEM_KMAX];

	/* y, then e1 and e2 (PRF counters 0 .. 2k) */
	for (i = 0; i < k; i++)
		noise[i] = &y[i];
	for (i = 0; i <= k; i++)
		noise[k + i] = &e[i];
	if (p->eta1 == p->eta2) {
		ops->noise(noise, 2 * k + 1, r, 0, p->eta1);
	} else {
		ops->noise(noise, k, r, 0, p->eta1);
		ops->noise(noise + k, k + 1, r, (u8)k, p->eta2);
	}
	for (i = 0; i < k; i++)
		ops->ntt(&y[i]);
	/* u = A^T y (rows 0 .. k-1), v = t^T y (row k) */
	for (i = 0; i < k; i++) {
		for (j = 0; j < k; j++)
			rows[i * k + j] = &key->a[j][i];
		rows[k * k + i] = &key->t[i];
	}
	matvec(ops, uv, rows, k + 1, y, k);
	for (i = 0; i < k; i++) {
		ops->invntt(&uv[i]);
		poly_add(&uv[i], &e[i]);
		ops->compress(ct + 32 * p->du * i, &uv[i], p->du);
	}
	ops->invntt(&uv[k]);
	poly_add(&uv[k], &e[k]);
	poly_frommsg(&e[k], m);
	poly_add(&uv[k], &e[k]);
	ops->compress(ct + 32 * p->du * k, &uv[k], p->dv);
	memzero_explicit(y, sizeof(y));
	memzero_explicit(uv, sizeof(uv));
	memzero_explicit(e, sizeof(e));
}

/* K-PKE.Decrypt (FIPS 203 Algorithm 15). */
static void pke_decrypt(const struct mlkem_key *key, const u8 *ct, u8 m[32])
{
	const struct mlkem_params *p = key->p;
	const struct mlkem_ops *ops = mlkem_ops(key);
	unsigned int i, k = p->k;
	poly u[MLKEM_KMAX], w, v;
	const poly *s[MLKEM_KMAX];

	for (i = 0; i < k; i++) {
		ops->decompress(&u[i], ct + 32 * p->du * i, p->du);
		ops->ntt(&u[i]);
		s[i] = &key->s[i];
	}
	matvec(ops, &w, s, 1, u, k);
	ops->invntt(&w);
	ops->decompress(&v, ct + 32 * p->du * k, p->dv);
	for (i = 0; i < MLKEM_N; i++)
		v.c[i] = (s16)(v.c[i] - w.c[i]);
	ops->compress(m, &v, 1);	/* ByteEncode_1(Compress_1(v)) */
	memzero_explicit(u, sizeof(u));
	memzero_explicit(&w, sizeof(w));
	memzero_explicit(&v, sizeof(v));
}

void rind_mlkem_encaps(const struct mlkem_key *key, const u8 m[32], u8 *ct, u8 ss[32])
{
	u8 in[64], kr[64];

	memcpy(in, m, 32);
	memcpy(in + 32, key->h, 32);
	rind_sha3_512(kr, in, sizeof(in));
	pke_encrypt(key, m, kr + 32, ct);
	memcpy(ss, kr, 32);
	memzero_explicit(in, sizeof(in));
	memzero_explicit(kr, sizeof(kr));
}

void rind_mlkem_decaps(const struct mlkem_key *key, const u8 *ct, u8 ss[32])
{
	const struct mlkem_params *p = key->p;
	struct keccak_state st;
	u8 in[64], kr[64], rej[32], ct2[MLKEM_CT_MAX];
	unsigned int i;
	u32 diff = 0, mask;

	pke_decrypt(key, ct, in);
	memcpy(in + 32, key->h, 32);
	rind_sha3_512(kr, in, sizeof(in));
	/* K-bar = J(z || c) */
	rind_shake256_init(&st);
	rind_keccak_absorb(&st, key->z, 32);
	rind_keccak_absorb(&st, ct, p->ct_size);
	rind_keccak_squeeze(&st, rej, 32);
	pke_encrypt(key, in, kr + 32, ct2);
	for (i = 0; i < p->ct_size; i++)
		diff |= ct[i] ^ ct2[i];
	/* mask = all ones when equal, without a branch */
	mask = value_barrier_u32((u32)-(s32)((diff - 1) >> 31));
	for (i = 0; i < 32; i++)
		ss[i] = (u8)((kr[i] & mask) | (rej[i] & ~mask));
	memzero_explicit(&st, sizeof(st));
	memzero_explicit(in, sizeof(in));
	memzero_explicit(kr, sizeof(kr));
	memzero_explicit(rej, sizeof(rej));
	memzero_explicit(ct2, sizeof(ct2));
}

/* ---- the kem algorithms ------------------------------------------------- */

static const struct mlkem_alg *tfm_alg(struct crypto_kem *tfm)
{
	return container_of(crypto_kem_alg(tfm), struct mlkem_alg, kem);
}

static const struct mlkem_params *tfm_params(struct crypto_kem *tfm)
{
	return tfm_alg(tfm)->p;
}

static int mlkem_set_priv_key(struct crypto_kem *tfm, const void *key, unsigned int keylen)
{
	struct mlkem_key *k = crypto_kem_ctx(tfm);

	k->ops = tfm_alg(tfm)->ops;
	return rind_mlkem_import_priv(k, tfm_params(tfm), key, keylen);
}

static int mlkem_set_pub_key(struct crypto_kem *tfm, const void *key, unsigned int keylen)
{
	struct mlkem_key *k = crypto_kem_ctx(tfm);

	k->ops = tfm_alg(tfm)->ops;
	return rind_mlkem_import_pub(k, tfm_params(tfm), key, keylen);
}

static int mlkem_encapsulate(struct crypto_kem *tfm, const u8 *m, u8 *ct, u8 *ss)
{
	rind_mlkem_encaps(crypto_kem_ctx(tfm), m, ct, ss);
	return 0;
}

static int mlkem_decapsulate(struct crypto_kem *tfm, const u8 *ct, u8 *ss)
{
	rind_mlkem_decaps(crypto_kem_ctx(tfm), ct, ss);
	return 0;
}

static int mlkem_export_pubkey(struct crypto_kem *tfm, enum rind_key_format fmt,
			       u8 *out, unsigned int outlen)
{
	return rind_mlkem_export_pub(crypto_kem_ctx(tfm), fmt, out, outlen);
}

static int mlkem_export_privkey(struct crypto_kem *tfm, enum rind_key_format fmt,
				u8 *out, unsigned int outlen)
{
	return rind_mlkem_export_priv(crypto_kem_ctx(tfm), fmt, out, outlen);
}

static int mlkem_export_seed(struct crypto_kem *tfm, u8 *out)
{
	struct mlkem_key *k = crypto_kem_ctx(tfm);

	if (!k->has_seed)
		return -ENOKEY;
	memcpy(out, k->seed, MLKEM_SEED_BYTES);
	return MLKEM_SEED_BYTES;
}

#define MLKEM_ALG(bits, k, du, dv, params, prio, mod, ops_) {		\
	.kem = {							\
		.set_priv_key	= mlkem_set_priv_key,			\
		.set_pub_key	= mlkem_set_pub_key,			\
		.encapsulate	= mlkem_encapsulate,			\
		.decapsulate	= mlkem_decapsulate,			\
		.export_pubkey	= mlkem_export_pubkey,			\
		.export_privkey	= mlkem_export_privkey,			\
		.export_seed	= mlkem_export_seed,			\
		.pubkey_size	= 384 * (k) + 32,			\
		.privkey_size	= 768 * (k) + 96,			\
		.seed_size	= MLKEM_SEED_BYTES,			\
		.ciphertext_size = 32 * ((du) * (k) + (dv)),		\
		.shared_secret_size = MLKEM_SS_BYTES,			\
		.m_size		= 32,					\
		.key_encodings	= true,					\
		.base = {						\
			.cra_name	 = "mlkem" #bits,		\
			.cra_priority	 = prio,			\
			.cra_ctxsize	 = sizeof(struct mlkem_key),	\
			.cra_module	 = mod,				\
		},							\
	},								\
	.p = &(params),							\
	.ops = ops_,							\
}

/*
 * The three parameter sets over @ops, into the caller's @algs (an arch
 * driver's storage): names "mlkem512-SUFFIX" ...  Only the arithmetic
 * differs between drivers; keys, ciphertexts and secrets are the same.
 */
int rind_mlkem_register_drivers(struct mlkem_alg algs[3], const struct mlkem_ops *ops,
				const char *const drv[3], int prio, const char *mod)
{
	unsigned int i;
	int err;

	rind_mlkem_init_tables();
	algs[0] = (struct mlkem_alg)MLKEM_ALG(512, 2, 10, 4, rind_mlkem512_params,
					      prio, mod, ops);
	algs[1] = (struct mlkem_alg)MLKEM_ALG(768, 3, 10, 4, rind_mlkem768_params,
					      prio, mod, ops);
	algs[2] = (struct mlkem_alg)MLKEM_ALG(1024, 4, 11, 5, rind_mlkem1024_params,
					      prio, mod, ops);
	for (i = 0; i < 3; i++) {
		snprintf(algs[i].kem.base.cra_driver_name,
			 sizeof(algs[i].kem.base.cra_driver_name), "%s", drv[i]);
		err = crypto_register_kem(&algs[i].kem);
		if (err)
			return err;
	}
	return 0;
}

static struct mlkem_alg mlkem_algs[3];
static const char *const mlkem_generic_names[3] = {
	"mlkem512-generic", "mlkem768-generic", "mlkem1024-generic",
};

/* ---- known-answer self-test (shared with the hybrid) -------------------- */

static int kat_fail(struct crypto_alg *alg, unsigned int i, const char *what, int err)
{
	fprintf(stderr, "rind: %s: kem self-test vector %u: %s (%d)\n",
		alg->cra_driver_name, i, what, err);
	return -EBADMSG;
}

static int kat_one(struct crypto_alg *alg, unsigned int i, const struct kem_kat *v)
{
	struct crypto_kem *tfm, *priv = NULL;
	unsigned int eks, cts, sss, dks;
	u8 *buf, h[32], *ct, *ss;
	int err, len;

	tfm = crypto_alloc_kem(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	eks = crypto_kem_pubkeysize(tfm);
	dks = crypto_kem_privkeysize(tfm);
	cts = crypto_kem_ciphertextsize(tfm);
	sss = crypto_kem_sharedsecretsize(tfm);
	buf = malloc(eks + dks + cts + sss);
	if (!buf) {
		crypto_free_kem(tfm);
		return -ENOMEM;
	}
	ct = buf + eks + dks;
	ss = ct + cts;
	err = crypto_kem_set_privkey(tfm, v->seed, crypto_kem_seedsize(tfm));
	if (err) {
		err = kat_fail(alg, i, "key from seed", err);
		goto out;
	}
	len = crypto_kem_export_pubkey(tfm, RIND_KEY_RAW, buf, eks);
	rind_sha3_256(h, buf, eks);
	if (len != (int)eks || memcmp(h, v->ek_hash, 32)) {
		err = kat_fail(alg, i, "public key", len);
		goto out;
	}
	err = crypto_kem_encapsulate_m(tfm, (const u8 *)v->m, crypto_kem_encapsizeof_m(tfm),
				       ct, cts, ss, sss);
	rind_sha3_256(h, ct, cts);
	if (err || memcmp(h, v->ct_hash, 32) || memcmp(ss, v->ss, sss)) {
		err = kat_fail(alg, i, "encapsulate", err);
		goto out;
	}
	/* Decapsulate with the expanded private key. */
	priv = crypto_alloc_kem(alg->cra_driver_name, 0, 0);
	len = IS_ERR(priv) ? (int)PTR_ERR(priv) :
		crypto_kem_export_privkey(tfm, RIND_KEY_RAW, buf + eks, dks);
	err = len == (int)dks ? crypto_kem_set_privkey(priv, buf + eks, dks) : -EINVAL;
	if (!err)
		err = crypto_kem_decapsulate(priv, ct, cts, ss, sss);
	if (err || memcmp(ss, v->ss, sss)) {
		err = kat_fail(alg, i, "decapsulate", err);
		goto out;
	}
	/* Implicit rejection. */
	ct[0] ^= 1;
	err = crypto_kem_decapsulate(priv, ct, cts, ss, sss);
	if (err || memcmp(ss, v->rej_ss, sss))
		err = kat_fail(alg, i, "implicit rejection", err);
out:
	if (!IS_ERR_OR_NULL(priv))
		crypto_free_kem(priv);
	crypto_free_kem(tfm);
	memzero_explicit(buf, eks + dks + cts + sss);
	free(buf);
	return err;
}

int rind_kem_kat_test(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	const struct kem_kat_suite *suite = desc->suite.priv;
	unsigned int i;
	int err = 0;

	if (!suite || !suite->count)
		return -ENOENT;
	for (i = 0; i < suite->count && !err; i++)
		err = kat_one(alg, i, &suite->vecs[i]);
	return err;
}

/*
 * Key from a Wycheproof seed (mlkem_*_test.json), encapsulation with the
 * m of a Wycheproof encapsulation case for the same key; hashes with
 * SHA3-256 stand for the long public key and ciphertext.  The rejection
 * secret is J(z || c') for c' = c with its first bit flipped.
 */
static const struct kem_kat mlkem512_kat[] = { {
	.seed = "\x7c\x99\x35\xa0\xb0\x76\x94\xaa\x0c\x6d\x10\xe4\xdb\x6b\x1a\xdd"
	  "\x2f\xd8\x1a\x25\xcc\xb1\x48\x03\x2d\xcd\x73\x99\x36\x73\x7f\x2d"
	  "\x86\x26\xed\x79\xd4\x51\x14\x08\x00\xe0\x3b\x59\xb9\x56\xf8\x21"
	  "\x0e\x55\x60\x67\x40\x7d\x13\xdc\x90\xfa\x9e\x8b\x87\x2b\xfb\x8f",
	.ek_hash = "\x50\xc8\xdd\x15\x2a\x45\x31\xaa\xb5\x60\xd2\xfc\x7c\xa9\xa4\x0a"
	  "\xd8\xaf\x25\xad\x1d\xd0\x8c\x6d\x79\xaf\xe4\xdd\x4d\x1e\xee\x5a",
	.m = "\x14\x7c\x03\xf7\xa5\xbe\xbb\xa4\x06\xc8\xfa\xe1\x87\x4d\x7f\x13"
	  "\xc8\x0e\xfe\x79\xa3\xa9\xa8\x74\xcc\x09\xfe\x76\xf6\x99\x76\x15",
	.ct_hash = "\xed\x14\x36\x93\x80\xd5\x01\xd2\xbb\x28\x86\x1a\x26\xad\x09\x2b"
	  "\x1b\xbd\x67\x64\xc0\x83\x24\x45\x51\xc4\x36\xcc\xf9\x8d\xd9\xf8",
	.ss = "\x31\x98\x39\xe8\x2a\xb6\xb2\x22\xde\x7b\x61\x9e\x80\xda\x83\x91"
	  "\x52\x2b\xbb\x37\x67\x70\x18\x49\x4a\x47\x42\xc5\x3f\x9a\xbf\xdf",
	.rej_ss = "\x45\xcd\xff\x81\xd3\x49\x90\x61\x47\x7c\xf7\x18\x99\x79\xdb\x4d"
	  "\xbc\x17\x92\x47\x90\x0b\x9c\x37\xe8\xae\x4d\xa3\x81\x88\x87\x10",
} };

static const struct kem_kat_suite mlkem512_suite = { mlkem512_kat, ARRAY_SIZE(mlkem512_kat) };

static const struct kem_kat mlkem768_kat[] = { {
	.seed = "\x7c\x99\x35\xa0\xb0\x76\x94\xaa\x0c\x6d\x10\xe4\xdb\x6b\x1a\xdd"
	  "\x2f\xd8\x1a\x25\xcc\xb1\x48\x03\x2d\xcd\x73\x99\x36\x73\x7f\x2d"
	  "\x86\x26\xed\x79\xd4\x51\x14\x08\x00\xe0\x3b\x59\xb9\x56\xf8\x21"
	  "\x0e\x55\x60\x67\x40\x7d\x13\xdc\x90\xfa\x9e\x8b\x87\x2b\xfb\x8f",
	.ek_hash = "\xf5\x72\x62\x66\x13\x58\xcd\xe8\xd3\xeb\xf9\x90\xe5\xfd\x1d\x5b"
	  "\x89\x6c\x99\x2c\xcf\xaa\xdb\x52\x56\xb6\x8b\xbf\x59\x43\xb1\x32",
	.m = "\x14\x7c\x03\xf7\xa5\xbe\xbb\xa4\x06\xc8\xfa\xe1\x87\x4d\x7f\x13"
	  "\xc8\x0e\xfe\x79\xa3\xa9\xa8\x74\xcc\x09\xfe\x76\xf6\x99\x76\x15",
	.ct_hash = "\x6e\x77\x7e\x2c\xf8\x05\x46\x59\x13\x6a\x97\x1d\x9e\x70\x25\x2f"
	  "\x30\x12\x26\x93\x0c\x19\xc4\x70\xee\x06\x88\x16\x3a\x63\xc1\x5b",
	.ss = "\xe7\x18\x4a\x09\x75\xee\x34\x70\x87\x8d\x2d\x15\x9e\xc8\x31\x29"
	  "\xc8\xae\xc2\x53\xd4\xee\x17\xb4\x81\x03\x11\xd1\x98\xcd\x03\x68",
	.rej_ss = "\xd8\xf2\x4f\xa3\x84\x30\xa1\x71\xf9\x3f\x27\xd4\x6c\x52\xe0\xbc"
	  "\x63\x6d\x0a\x1f\xd5\xb9\x57\x19\x51\xaf\xbf\x1a\xd0\xb8\x95\xa5",
} };

static const struct kem_kat_suite mlkem768_suite = { mlkem768_kat, ARRAY_SIZE(mlkem768_kat) };

static const struct kem_kat mlkem1024_kat[] = { {
	.seed = "\x7c\x99\x35\xa0\xb0\x76\x94\xaa\x0c\x6d\x10\xe4\xdb\x6b\x1a\xdd"
	  "\x2f\xd8\x1a\x25\xcc\xb1\x48\x03\x2d\xcd\x73\x99\x36\x73\x7f\x2d"
	  "\x86\x26\xed\x79\xd4\x51\x14\x08\x00\xe0\x3b\x59\xb9\x56\xf8\x21"
	  "\x0e\x55\x60\x67\x40\x7d\x13\xdc\x90\xfa\x9e\x8b\x87\x2b\xfb\x8f",
	.ek_hash = "\xeb\xbe\x41\xcd\x4d\xea\x48\x9d\xed\xd0\x0e\x76\xae\x0b\xcf\x54"
	  "\xaa\x85\x50\x20\x29\x20\xeb\x64\xd5\x89\x2a\xd0\x2b\x13\xf2\xe5",
	.m = "\x14\x7c\x03\xf7\xa5\xbe\xbb\xa4\x06\xc8\xfa\xe1\x87\x4d\x7f\x13"
	  "\xc8\x0e\xfe\x79\xa3\xa9\xa8\x74\xcc\x09\xfe\x76\xf6\x99\x76\x15",
	.ct_hash = "\x50\x7d\xcd\xae\x04\x32\xf5\x58\x18\x9a\x09\xc5\xe7\x9f\xd6\x98"
	  "\x96\xe2\xf8\x30\xe3\x7a\xe4\xd5\x98\xb0\x05\x66\xe5\x5f\x20\xf5",
	.ss = "\x48\x9d\xd1\xe9\xc2\xbe\x4a\xf3\x48\x2b\xdb\x35\xbb\x26\xce\x76"
	  "\x0e\x6e\x41\x4d\xa6\xec\xbe\x48\x99\x85\x74\x8a\x82\x5f\x1c\xd6",
	.rej_ss = "\xbb\xf9\xab\x59\x96\xfd\x96\xcb\xe5\x74\xcc\x5f\x0d\x46\x92\x37"
	  "\xb8\x25\x33\xab\x10\xe7\x39\x6e\x08\x6b\x3f\x74\xe4\xe3\xe7\x49",
} };

static const struct kem_kat_suite mlkem1024_suite = { mlkem1024_kat, ARRAY_SIZE(mlkem1024_kat) };

static struct alg_test_desc mlkem_tests[] = {
	{ .alg = "mlkem512", .test = rind_kem_kat_test, .suite.priv = &mlkem512_suite },
	{ .alg = "mlkem768", .test = rind_kem_kat_test, .suite.priv = &mlkem768_suite },
	{ .alg = "mlkem1024", .test = rind_kem_kat_test, .suite.priv = &mlkem1024_suite },
};

static int mlkem_generic_mod_init(void)
{
	crypto_register_tests(mlkem_tests, ARRAY_SIZE(mlkem_tests));
	return rind_mlkem_register_drivers(mlkem_algs, &rind_mlkem_generic_ops,
					   mlkem_generic_names, 100, "generic");
}
module_init(mlkem_generic_mod_init);
