// SPDX-License-Identifier: MIT
/*
 * Keccak-f[1600] (FIPS 202 section 3) and the sponge construction over it
 * (section 4): SHA3-256, SHA3-512, SHAKE128, SHAKE256.  Lanes are held as
 * 64-bit words, lane (x, y) at index x + 5y, bytes little-endian.  Keccak
 * has no data-dependent branches or table lookups: it is constant time.
 * The shash algorithms over this sponge ("sha3-*", "shake*") are in
 * sha3.c.
 */
#include <string.h>
#include <rind/internal/util.h>
#include <crypto/keccak.h>
#include <crypto/keccak-rounds.h>

/*
 * Two permutation pointers.  The C rounds: the portable build, or the same
 * rounds compiled for more instructions (arch/x86/keccak-bmi2.c, through
 * rind_keccak_set_f1600); the generic "sha3-*" and "shake*" drivers run
 * these, so that their names say what runs.  The library's own users
 * (ML-KEM, ML-DSA, the one-shots below) run the C rounds too unless an
 * arch driver installed a permutation for them alone
 * (rind_keccak_set_lib_f1600: arch/arm64/sha3-ce.c's SHA3 form), which
 * then also has drivers of its own names.  Both are set at module init,
 * before any use.
 */
static void keccak_f1600_generic(u64 a[25])
{
	keccak_f1600_rounds(a);
}

static keccak_f1600_fn *keccak_f1600_c_impl = keccak_f1600_generic;
static keccak_f1600_fn *keccak_f1600_lib_own;
static keccak_f1600_fn *keccak_f1600_impl = keccak_f1600_generic;

void rind_keccak_set_f1600(keccak_f1600_fn *fn)
{
	keccak_f1600_c_impl = fn ? fn : keccak_f1600_generic;
	keccak_f1600_impl = keccak_f1600_lib_own ? keccak_f1600_lib_own : keccak_f1600_c_impl;
}

void rind_keccak_set_lib_f1600(keccak_f1600_fn *fn)
{
	keccak_f1600_lib_own = fn;
	keccak_f1600_impl = fn ? fn : keccak_f1600_c_impl;
}

void rind_keccak_f1600(u64 a[25])
{
	keccak_f1600_impl(a);
}

void rind_keccak_f1600_c(u64 a[25])
{
	keccak_f1600_c_impl(a);
}

void rind_keccak_init(struct keccak_state *st, unsigned int rate, u8 ds)
{
	memset(st->a, 0, sizeof(st->a));
	st->rate = rate;
	st->pos = 0;
	st->ds = ds;
	st->squeezing = false;
}

static inline void xor_byte(u64 *a, unsigned int pos, u8 v)
{
	a[pos / 8] ^= (u64)v << (8 * (pos % 8));
}

/*
 * The sponge over a given permutation, inlined into the library's entry
 * points (over rind_keccak_f1600, so their code is as before) and into the
 * *_with ones the shash drivers call with their own permutation.
 */
static __attribute__((always_inline)) inline void
keccak_absorb(struct keccak_state *st, const void *in, size_t len, keccak_f1600_fn *f)
{
	const u8 *p = in;

	while (len) {
		if (st->pos % 8 == 0 && len >= 8) {
			while (len >= 8 && st->pos < st->rate) {
				st->a[st->pos / 8] ^= get_unaligned_le64(p);
				st->pos += 8;
				p += 8;
				len -= 8;
			}
		} else {
			xor_byte(st->a, st->pos++, *p++);
			len--;
		}
		if (st->pos == st->rate) {
			f(st->a);
			st->pos = 0;
		}
	}
}

static __attribute__((always_inline)) inline void
keccak_finalize(struct keccak_state *st, keccak_f1600_fn *f)
{
	if (st->squeezing)
		return;
	xor_byte(st->a, st->pos, st->ds);
	xor_byte(st->a, st->rate - 1, 0x80);
	f(st->a);
	st->pos = 0;
	st->squeezing = true;
}

static __attribute__((always_inline)) inline void
keccak_squeeze(struct keccak_state *st, void *out, size_t len, keccak_f1600_fn *f)
{
	u8 *p = out;

	keccak_finalize(st, f);
	while (len) {
		if (st->pos == st->rate) {
			f(st->a);
			st->pos = 0;
		}
		if (st->pos % 8 == 0 && len >= 8) {
			put_unaligned_le64(st->a[st->pos / 8], p);
			st->pos += 8;
			p += 8;
			len -= 8;
		} else {
			*p++ = (u8)(st->a[st->pos / 8] >> (8 * (st->pos % 8)));
			st->pos++;
			len--;
		}
	}
}

void rind_keccak_absorb(struct keccak_state *st, const void *in, size_t len)
{
	keccak_absorb(st, in, len, rind_keccak_f1600);
}

void rind_keccak_finalize(struct keccak_state *st)
{
	keccak_finalize(st, rind_keccak_f1600);
}

void rind_keccak_squeeze(struct keccak_state *st, void *out, size_t len)
{
	keccak_squeeze(st, out, len, rind_keccak_f1600);
}

/* @f NULL: the C rounds, one indirect call per permutation as before. */
void rind_keccak_absorb_with(struct keccak_state *st, const void *in, size_t len,
			     keccak_f1600_fn *f)
{
	keccak_absorb(st, in, len, f ? f : keccak_f1600_c_impl);
}

void rind_keccak_squeeze_with(struct keccak_state *st, void *out, size_t len,
			      keccak_f1600_fn *f)
{
	keccak_squeeze(st, out, len, f ? f : keccak_f1600_c_impl);
}

void rind_keccak_squeeze_blocks(struct keccak_state *st, u8 *out, size_t nblocks)
{
	unsigned int i;

	rind_keccak_finalize(st);
	while (nblocks--) {
		if (st->pos == st->rate) {
			rind_keccak_f1600(st->a);
			st->pos = 0;
		}
		for (i = 0; i < st->rate / 8; i++)
			put_unaligned_le64(st->a[i], out + 8 * i);
		out += st->rate;
		st->pos = st->rate;
	}
}

static void keccak_oneshot(unsigned int rate, u8 ds, void *out, size_t outlen,
			   const void *in, size_t inlen)
{
	struct keccak_state st;

	rind_keccak_init(&st, rate, ds);
	rind_keccak_absorb(&st, in, inlen);
	rind_keccak_squeeze(&st, out, outlen);
	memzero_explicit(&st, sizeof(st));
}

void rind_sha3_256(u8 out[SHA3_256_DIGEST_SIZE], const void *in, size_t len)
{
	keccak_oneshot(SHA3_256_RATE, KECCAK_DS_SHA3, out, SHA3_256_DIGEST_SIZE, in, len);
}

void rind_sha3_512(u8 out[SHA3_512_DIGEST_SIZE], const void *in, size_t len)
{
	keccak_oneshot(SHA3_512_RATE, KECCAK_DS_SHA3, out, SHA3_512_DIGEST_SIZE, in, len);
}

void rind_shake128(void *out, size_t outlen, const void *in, size_t inlen)
{
	keccak_oneshot(SHAKE128_RATE, KECCAK_DS_SHAKE, out, outlen, in, inlen);
}

void rind_shake256(void *out, size_t outlen, const void *in, size_t inlen)
{
	keccak_oneshot(SHAKE256_RATE, KECCAK_DS_SHAKE, out, outlen, in, inlen);
}
