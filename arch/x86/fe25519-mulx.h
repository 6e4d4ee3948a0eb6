/* SPDX-License-Identifier: MIT */
/*
 * Arithmetic in GF(2^255 - 19) for x86-64 with BMI2 (MULX) and ADX
 * (ADCX/ADOX): four 64-bit limbs, radix 2^64.  The interface is that of
 * api/include/crypto/fe25519.h, so the curve code (api/include/crypto/ed25519-impl.h) and the X25519
 * ladder run unchanged over it.  The caller must have checked
 * rind_cpu_has(RIND_X86_BMI2) and rind_cpu_has(RIND_X86_ADX).
 *
 * Elements are kept below 2^256 but not reduced below p; only
 * fe_tobytes produces the canonical value.  Products are reduced with
 * 2^256 = 38 (mod p): the high four limbs are multiplied by 38 and added
 * to the low four, and what carries out past 2^256 is folded in the same
 * way.  Multiplication is schoolbook with MULX, its two carry chains
 * (low and high halves of the partial products) kept apart in CF (ADCX)
 * and OF (ADOX).  Everything is constant time: no branch, no
 * data-dependent address, and carries are folded with CMOV.
 *
 * The inline assembly avoids rbp (frame pointer in sanitizer builds).
 */
#ifndef _RIND_X86_FE25519_MULX_H
#define _RIND_X86_FE25519_MULX_H

#include <rind/types.h>
#include <rind/internal/util.h>

typedef struct {
	u64 v[4];
} fe;

static inline void fe_0(fe *h)
{
	h->v[0] = h->v[1] = h->v[2] = h->v[3] = 0;
}

static inline void fe_1(fe *h)
{
	h->v[0] = 1;
	h->v[1] = h->v[2] = h->v[3] = 0;
}

static inline void fe_copy(fe *h, const fe *f)
{
	*h = *f;
}

/* h = f + g */
static inline void fe_add(fe *h, const fe *f, const fe *g)
{
	__asm__ volatile(
		"movq 0(%1), %%r8\n\t"
		"addq 0(%2), %%r8\n\t"
		"movq 8(%1), %%r9\n\t"
		"adcq 8(%2), %%r9\n\t"
		"movq 16(%1), %%r10\n\t"
		"adcq 16(%2), %%r10\n\t"
		"movq 24(%1), %%r11\n\t"
		"adcq 24(%2), %%r11\n\t"
		"movl $0, %%eax\n\t"
		"movl $38, %%ecx\n\t"
		"cmovcq %%rcx, %%rax\n\t"
		"addq %%rax, %%r8\n\t"
		"adcq $0, %%r9\n\t"
		"adcq $0, %%r10\n\t"
		"adcq $0, %%r11\n\t"
		"movl $0, %%eax\n\t"
		"cmovcq %%rcx, %%rax\n\t"
		"addq %%rax, %%r8\n\t"
		"movq %%r8, 0(%0)\n\t"
		"movq %%r9, 8(%0)\n\t"
		"movq %%r10, 16(%0)\n\t"
		"movq %%r11, 24(%0)\n\t"
		:
		: "r"(h), "r"(f), "r"(g)
		: "rax", "rcx", "r8", "r9", "r10", "r11", "cc", "memory");
}

/* h = f - g */
static inline void fe_sub(fe *h, const fe *f, const fe *g)
{
	__asm__ volatile(
		"movq 0(%1), %%r8\n\t"
		"subq 0(%2), %%r8\n\t"
		"movq 8(%1), %%r9\n\t"
		"sbbq 8(%2), %%r9\n\t"
		"movq 16(%1), %%r10\n\t"
		"sbbq 16(%2), %%r10\n\t"
		"movq 24(%1), %%r11\n\t"
		"sbbq 24(%2), %%r11\n\t"
		"movl $0, %%eax\n\t"
		"movl $38, %%ecx\n\t"
		"cmovcq %%rcx, %%rax\n\t"
		"subq %%rax, %%r8\n\t"
		"sbbq $0, %%r9\n\t"
		"sbbq $0, %%r10\n\t"
		"sbbq $0, %%r11\n\t"
		"movl $0, %%eax\n\t"
		"cmovcq %%rcx, %%rax\n\t"
		"subq %%rax, %%r8\n\t"
		"movq %%r8, 0(%0)\n\t"
		"movq %%r9, 8(%0)\n\t"
		"movq %%r10, 16(%0)\n\t"
		"movq %%r11, 24(%0)\n\t"
		:
		: "r"(h), "r"(f), "r"(g)
		: "rax", "rcx", "r8", "r9", "r10", "r11", "cc", "memory");
}

static inline void fe_neg(fe *h, const fe *f)
{
	fe z;

	fe_0(&z);
	fe_sub(h, &z, f);
}

/*
 * Reduce the eight limbs in r8..r15 (r8 lowest) to four, stored at [h]:
 * lo + 38 * hi, then the carry limb times 38, then a last carry.  Uses
 * rax, rbx, rdx and the named operand Z as a scratch register.
 */
#define FE_REDUCE_8(Z)						\
		"movl $38, %%edx\n\t"					\
		"xorl %k[" #Z "], %k[" #Z "]\n\t"				\
		"mulxq %%r12, %%rax, %%rbx\n\t"				\
		"adcxq %%rax, %%r8\n\t"					\
		"adoxq %%rbx, %%r9\n\t"					\
		"mulxq %%r13, %%rax, %%rbx\n\t"				\
		"adcxq %%rax, %%r9\n\t"					\
		"adoxq %%rbx, %%r10\n\t"				\
		"mulxq %%r14, %%rax, %%rbx\n\t"				\
		"adcxq %%rax, %%r10\n\t"				\
		"adoxq %%rbx, %%r11\n\t"				\
		"mulxq %%r15, %%rax, %%r12\n\t"				\
		"adcxq %%rax, %%r11\n\t"				\
		"adoxq %[" #Z "], %%r12\n\t"				\
		"adcxq %[" #Z "], %%r12\n\t"				\
		"imulq $38, %%r12, %%r12\n\t"				\
		"addq %%r12, %%r8\n\t"					\
		"adcq %[" #Z "], %%r9\n\t"					\
		"adcq %[" #Z "], %%r10\n\t"					\
		"adcq %[" #Z "], %%r11\n\t"					\
		"cmovcq %%rdx, %[" #Z "]\n\t"				\
		"addq %[" #Z "], %%r8\n\t"					\
		"movq %%r8, 0(%[h])\n\t"				\
		"movq %%r9, 8(%[h])\n\t"				\
		"movq %%r10, 16(%[h])\n\t"				\
		"movq %%r11, 24(%[h])\n\t"

/* h = f * g */
static inline void fe_mul(fe *h, const fe *f, const fe *g)
{
	/* g's register is reused as the zero register of the reduction. */
	const fe *fp = f, *gp = g;

	__asm__ volatile(
		/* row 0: f * g0 into r8..r12 */
		"movq 0(%[g]), %%rdx\n\t"
		"mulxq 0(%[f]), %%r8, %%r9\n\t"
		"mulxq 8(%[f]), %%rax, %%r10\n\t"
		"addq %%rax, %%r9\n\t"
		"mulxq 16(%[f]), %%rax, %%r11\n\t"
		"adcq %%rax, %%r10\n\t"
		"mulxq 24(%[f]), %%rax, %%r12\n\t"
		"adcq %%rax, %%r11\n\t"
		"adcq $0, %%r12\n\t"
		/* row 1: f * g1 into r9..r13 */
		"movq 8(%[g]), %%rdx\n\t"
		"xorl %%eax, %%eax\n\t"
		"mulxq 0(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r9\n\t"
		"adoxq %%rbx, %%r10\n\t"
		"mulxq 8(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r10\n\t"
		"adoxq %%rbx, %%r11\n\t"
		"mulxq 16(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r11\n\t"
		"adoxq %%rbx, %%r12\n\t"
		"mulxq 24(%[f]), %%rax, %%r13\n\t"
		"adcxq %%rax, %%r12\n\t"
		"movl $0, %%eax\n\t"
		"adoxq %%rax, %%r13\n\t"
		"adcxq %%rax, %%r13\n\t"
		/* row 2: f * g2 into r10..r14 */
		"movq 16(%[g]), %%rdx\n\t"
		"xorl %%eax, %%eax\n\t"
		"mulxq 0(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r10\n\t"
		"adoxq %%rbx, %%r11\n\t"
		"mulxq 8(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r11\n\t"
		"adoxq %%rbx, %%r12\n\t"
		"mulxq 16(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r12\n\t"
		"adoxq %%rbx, %%r13\n\t"
		"mulxq 24(%[f]), %%rax, %%r14\n\t"
		"adcxq %%rax, %%r13\n\t"
		"movl $0, %%eax\n\t"
		"adoxq %%rax, %%r14\n\t"
		"adcxq %%rax, %%r14\n\t"
		/* row 3: f * g3 into r11..r15 */
		"movq 24(%[g]), %%rdx\n\t"
		"xorl %%eax, %%eax\n\t"
		"mulxq 0(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r11\n\t"
		"adoxq %%rbx, %%r12\n\t"
		"mulxq 8(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r12\n\t"
		"adoxq %%rbx, %%r13\n\t"
		"mulxq 16(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r13\n\t"
		"adoxq %%rbx, %%r14\n\t"
		"mulxq 24(%[f]), %%rax, %%r15\n\t"
		"adcxq %%rax, %%r14\n\t"
		"movl $0, %%eax\n\t"
		"adoxq %%rax, %%r15\n\t"
		"adcxq %%rax, %%r15\n\t"
		FE_REDUCE_8(g)
		: [f] "+&r"(fp), [g] "+&r"(gp)
		: [h] "r"(h)
		: "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
		  "cc", "memory");
}

/* h = f^2 */
static inline void fe_sq(fe *h, const fe *f)
{
	u64 z;

	__asm__ volatile(
		/* cross products f_i f_j (i < j) into r9..r14 */
		"movq 0(%[f]), %%rdx\n\t"
		"mulxq 8(%[f]), %%r9, %%r10\n\t"
		"mulxq 16(%[f]), %%rax, %%r11\n\t"
		"addq %%rax, %%r10\n\t"
		"mulxq 24(%[f]), %%rax, %%r12\n\t"
		"adcq %%rax, %%r11\n\t"
		"adcq $0, %%r12\n\t"
		"movq 8(%[f]), %%rdx\n\t"
		"xorl %k[z], %k[z]\n\t"
		"mulxq 16(%[f]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r11\n\t"
		"adoxq %%rbx, %%r12\n\t"
		"mulxq 24(%[f]), %%rax, %%r13\n\t"
		"adcxq %%rax, %%r12\n\t"
		"adoxq %[z], %%r13\n\t"
		"adcxq %[z], %%r13\n\t"
		"movq 16(%[f]), %%rdx\n\t"
		"mulxq 24(%[f]), %%rax, %%r14\n\t"
		"addq %%rax, %%r13\n\t"
		"adcq %[z], %%r14\n\t"
		/* doubled, the top bit into r15 */
		"xorl %%r15d, %%r15d\n\t"
		"addq %%r9, %%r9\n\t"
		"adcq %%r10, %%r10\n\t"
		"adcq %%r11, %%r11\n\t"
		"adcq %%r12, %%r12\n\t"
		"adcq %%r13, %%r13\n\t"
		"adcq %%r14, %%r14\n\t"
		"adcq %%r15, %%r15\n\t"
		/* plus the squares f_i^2 at 2i */
		"movq 0(%[f]), %%rdx\n\t"
		"mulxq %%rdx, %%r8, %%rax\n\t"
		"addq %%rax, %%r9\n\t"
		"movq 8(%[f]), %%rdx\n\t"
		"mulxq %%rdx, %%rax, %%rbx\n\t"
		"adcq %%rax, %%r10\n\t"
		"adcq %%rbx, %%r11\n\t"
		"movq 16(%[f]), %%rdx\n\t"
		"mulxq %%rdx, %%rax, %%rbx\n\t"
		"adcq %%rax, %%r12\n\t"
		"adcq %%rbx, %%r13\n\t"
		"movq 24(%[f]), %%rdx\n\t"
		"mulxq %%rdx, %%rax, %%rbx\n\t"
		"adcq %%rax, %%r14\n\t"
		"adcq %%rbx, %%r15\n\t"
		FE_REDUCE_8(z)
		: [z] "=&r"(z)
		: [h] "r"(h), [f] "r"(f)
		: "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
		  "cc", "memory");
}

/*
 * h = f^(2^n), n >= 1.  Out of line, as in api/include/crypto/fe25519.h:
 * one copy of the loop rather than one per run of squarings in the
 * exponent chains below.
 */
static __attribute__((noinline, unused)) void fe_sqn(fe *h, const fe *f, int n)
{
	fe_sq(h, f);
	while (--n > 0)
		fe_sq(h, h);
}

/* h = f * c for a constant c < 2^32 */
static inline void fe_mul_small(fe *h, const fe *f, u32 c)
{
	u64 cc = c;

	__asm__ volatile(
		"movq %2, %%rdx\n\t"
		"mulxq 0(%1), %%r8, %%r9\n\t"
		"mulxq 8(%1), %%rax, %%r10\n\t"
		"addq %%rax, %%r9\n\t"
		"mulxq 16(%1), %%rax, %%r11\n\t"
		"adcq %%rax, %%r10\n\t"
		"mulxq 24(%1), %%rax, %%rcx\n\t"
		"adcq %%rax, %%r11\n\t"
		"adcq $0, %%rcx\n\t"
		"imulq $38, %%rcx, %%rcx\n\t"
		"movl $0, %%eax\n\t"
		"addq %%rcx, %%r8\n\t"
		"adcq %%rax, %%r9\n\t"
		"adcq %%rax, %%r10\n\t"
		"adcq %%rax, %%r11\n\t"
		"movl $38, %%ecx\n\t"
		"cmovcq %%rcx, %%rax\n\t"
		"addq %%rax, %%r8\n\t"
		"movq %%r8, 0(%0)\n\t"
		"movq %%r9, 8(%0)\n\t"
		"movq %%r10, 16(%0)\n\t"
		"movq %%r11, 24(%0)\n\t"
		:
		: "r"(h), "r"(f), "r"(cc)
		: "rax", "rcx", "rdx", "r8", "r9", "r10", "r11", "cc", "memory");
}

/* Bits 0..254 of s (bit 255 is ignored). */
static inline void fe_frombytes(fe *h, const u8 s[32])
{
	h->v[0] = get_unaligned_le64(s);
	h->v[1] = get_unaligned_le64(s + 8);
	h->v[2] = get_unaligned_le64(s + 16);
	h->v[3] = get_unaligned_le64(s + 24) & 0x7fffffffffffffffULL;
}

/* Add c (< 2^63) to the four limbs of t, returning the carry out. */
static inline u64 fe_add_small(u64 t[4], u64 c)
{
	unsigned __int128 acc = (unsigned __int128)t[0] + c;

	t[0] = (u64)acc;
	acc = (unsigned __int128)t[1] + (u64)(acc >> 64);
	t[1] = (u64)acc;
	acc = (unsigned __int128)t[2] + (u64)(acc >> 64);
	t[2] = (u64)acc;
	acc = (unsigned __int128)t[3] + (u64)(acc >> 64);
	t[3] = (u64)acc;
	return (u64)(acc >> 64);
}

/* c = f reduced below p, as limbs. */
static inline void fe_canon(u64 c[4], const fe *f)
{
	u64 t[4] = { f->v[0], f->v[1], f->v[2], f->v[3] };
	u64 g[4], top, m;
	int i;

	/* Fold bit 255: t < 2^255 + 19 * 2 afterwards. */
	top = t[3] >> 63;
	t[3] &= 0x7fffffffffffffffULL;
	fe_add_small(t, 19 * top);
	/* t >= p exactly when t + 19 reaches 2^255. */
	for (i = 0; i < 4; i++)
		g[i] = t[i];
	fe_add_small(g, 19);
	m = 0 - (g[3] >> 63);
	g[3] &= 0x7fffffffffffffffULL;
	for (i = 0; i < 4; i++)
		c[i] = t[i] ^ (m & (t[i] ^ g[i]));
}

/* The canonical encoding (value reduced below p). */
static inline void fe_tobytes(u8 s[32], const fe *f)
{
	u64 c[4];
	int i;

	fe_canon(c, f);
	for (i = 0; i < 4; i++)
		put_unaligned_le64(c[i], s + 8 * i);
}

static inline void fe_cswap(fe *f, fe *g, u64 b)
{
	u64 m = 0 - b;

	for (int i = 0; i < 4; i++) {
		u64 t = m & (f->v[i] ^ g->v[i]);

		f->v[i] ^= t;
		g->v[i] ^= t;
	}
}

static inline void fe_cmov(fe *f, const fe *g, u64 b)
{
	u64 m = 0 - b;

	for (int i = 0; i < 4; i++)
		f->v[i] ^= m & (f->v[i] ^ g->v[i]);
}

static inline int fe_isnegative(const fe *f)
{
	u8 s[32];

	fe_tobytes(s, f);
	return s[0] & 1;
}

static inline int fe_iszero(const fe *f)
{
	u8 s[32];
	u64 acc = 0;

	fe_tobytes(s, f);
	for (int i = 0; i < 32; i++)
		acc |= s[i];
	return (int)(((acc | (0 - acc)) >> 63) ^ 1);
}

static inline void fe_pow2_250_1(fe *t250, fe *z11, const fe *z)
{
	fe z2, z9, t, t5, t10, t20, t40, t50, t100;

	fe_sq(&z2, z);
	fe_sqn(&t, &z2, 2);
	fe_mul(&z9, &t, z);
	fe_mul(z11, &z9, &z2);
	fe_sq(&t, z11);
	fe_mul(&t5, &t, &z9);
	fe_sqn(&t, &t5, 5);
	fe_mul(&t10, &t, &t5);
	fe_sqn(&t, &t10, 10);
	fe_mul(&t20, &t, &t10);
	fe_sqn(&t, &t20, 20);
	fe_mul(&t40, &t, &t20);
	fe_sqn(&t, &t40, 10);
	fe_mul(&t50, &t, &t10);
	fe_sqn(&t, &t50, 50);
	fe_mul(&t100, &t, &t50);
	fe_sqn(&t, &t100, 100);
	fe_mul(&t, &t, &t100);
	fe_sqn(&t, &t, 50);
	fe_mul(t250, &t, &t50);
}

/*
 * fe25519-invert-x86.c: out = in^-1 mod p (0 for 0) for a canonical
 * (< p) @in, constant time (Bernstein-Yang, half-delta divsteps).
 */
void fe25519_invert_x86(u64 out[4], const u64 in[4]);

/* h = 1/z (0 for z = 0), constant time */
static inline void fe_invert(fe *h, const fe *z)
{
	u64 c[4];

	fe_canon(c, z);
	fe25519_invert_x86(h->v, c);
	memzero_explicit(c, sizeof(c));
}

static inline void fe_pow22523(fe *h, const fe *z)
{
	fe t, z11;

	fe_pow2_250_1(&t, &z11, z);
	fe_sqn(&t, &t, 2);
	fe_mul(h, &t, z);
}

#endif /* _RIND_X86_FE25519_MULX_H */
