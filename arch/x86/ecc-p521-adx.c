// SPDX-License-Identifier: MIT
/*
 * P-521 for x86-64 with MULX/ADCX/ADOX: the "ecdh-nist-p521-adx" kpp and
 * "ecdsa-nist-p521-adx" sig drivers.
 * Requires: BMI2 (MULX) and ADX (ADCX, ADOX).
 *
 * The point and scalar arithmetic of the curve template (<crypto/ecc-impl.h>,
 * hooks in <crypto/ecc.h>: complete formulas, signed windows, the
 * fixed-base table, constant time for secret scalars; verification
 * variable time) over the field operations below.  p = 2^521 - 1, so no
 * Montgomery form is needed: an element is its plain value in nine 64-bit
 * words, at most p (p itself being a second form of 0, which the
 * comparisons, the conversion to bytes and the inversion fold away), the
 * top word below 2^9.
 *   - The product is 81 MULX, row by row (a * b[i]), each row in two carry
 *     chains (ADCX for the low halves, ADOX for the high ones) over a
 *     window of nine registers that slides a word per row (the finished
 *     word goes to a stack scratch); the square is A^2 + 2^512 (2 a_8) A
 *     + 2^1024 a_8^2 for a = A + 2^512 a_8: A's 28 cross products, one
 *     pass doubling them and adding the eight squares, then the 10-bit
 *     multiplier 2 a_8 times A (44 MULX and an IMUL).
 *   - The reduction is a shift and an add: with x = lo + 2^521 hi,
 *     x = lo + hi (mod p); lo + hi < 2^522, and folding its bit 521 back
 *     onto bit 0 leaves a value at most p (lo + hi <= 2p).
 *   - Addition is the same fold; a - b is a + (p - b), where p - b is b
 *     with its 521 bits complemented; a / 2 is a rotation of the 521 bits
 *     (2^521 = 1).
 * No Montgomery form, so none of the conversions cost a product.  The
 * scalars modulo n are the template's (Montgomery, CIOS), with
 * <crypto/ecc-p521.h>'s constants; the inversion is ecc-inv.h's
 * Bernstein-Yang over ecc-divsteps-x86.h's 60-step batches (shared with
 * P-256 and P-384) on the fully reduced value.  No branch and no
 * memory index depends on data.  The protocol glue (key formats, checks,
 * RFC 6979 nonces) is the generic drivers'.
 *
 * On top of the template: the point doubling (ECC_JAC_DBL) as
 * dbl-2001-b for a = -3 (3M + 5S) with its linear steps fused (8b and 4b
 * as rotations of the 521 bits inside the subtraction they feed); the
 * mixed addition (ECC_JAC_ADD_AFFINE, 8M + 3S) with independent products
 * side by side; ECDH's k P over an affine table
 * (ecc-mul-affine.h: mixed additions, one inversion for the table);
 * masked reads of the 18-word affine tables with AVX2.  The reductions
 * shift with SHR/SHL/OR rather than SHRD (several uops and a latency of
 * 2-3 cycles on Zen 3).
 *
 * Measured on an AMD EPYC (Zen 3), rdtsc (TSC ticks, ~0.82 of a core
 * cycle) minima on a loaded host, against aws-lc 5.5's s2n-bignum code in
 * the same process (bench/probes/p521-peer.c): a product about 110 (aws-lc
 * 116), a square about 85 (79), a doubling about 795 (770), a mixed
 * addition about 1225, the inversion about 11000 (7800; 21000 with the
 * template's steps); k P about 593000 against p521_jscalarmul's 670000,
 * ECDH about 615000 against 690000.  What bounds it is the product: 81
 * MULX, each with an ADCX and an ADOX, at about 1.1 cycles a product in
 * short chains (1.4 in the whole product with its row chains and
 * reduction), and the 520 doublings' 3M + 5S are about 70% of an ECDH.
 *
 * The inline assembly avoids rbp (frame pointer in sanitizer builds): the
 * product uses the other thirteen registers (two pointers, rdx and eleven
 * work registers).
 */
#include <string.h>
#include <rind/types.h>
#include <rind/internal/alg.h>
#include <rind/internal/kpp.h>
#include <rind/internal/sig.h>
#include <rind/internal/util.h>
#include "ecc-p521-adx.h"

/* a memory zero, for the carries into a row's top word (ADOX/ADCX take r/m) */
static const u64 p521x_zero;

/*
 * Row 0 of the product: (W0..W8, HI) = a * b[0]; W0 (word 0) is stored.
 * Words are named by the operand that holds them; the rows below rotate
 * the names so that the window always holds the nine live words.
 */
#define P521X_ROW0(W0, W1, W2, W3, W4, W5, W6, W7, W8, LO, HI)		\
	"movq 144(%[s]), %%rdx\n\t"					\
	"movq 0(%%rdx), %%rdx\n\t"					\
	"mulxq 0(%[a]), %[" W0 "], %[" W1 "]\n\t"			\
	"mulxq 8(%[a]), %[" LO "], %[" W2 "]\n\t"			\
	"addq %[" LO "], %[" W1 "]\n\t"					\
	"mulxq 16(%[a]), %[" LO "], %[" W3 "]\n\t"			\
	"adcq %[" LO "], %[" W2 "]\n\t"					\
	"mulxq 24(%[a]), %[" LO "], %[" W4 "]\n\t"			\
	"adcq %[" LO "], %[" W3 "]\n\t"					\
	"mulxq 32(%[a]), %[" LO "], %[" W5 "]\n\t"			\
	"adcq %[" LO "], %[" W4 "]\n\t"					\
	"mulxq 40(%[a]), %[" LO "], %[" W6 "]\n\t"			\
	"adcq %[" LO "], %[" W5 "]\n\t"					\
	"mulxq 48(%[a]), %[" LO "], %[" W7 "]\n\t"			\
	"adcq %[" LO "], %[" W6 "]\n\t"					\
	"mulxq 56(%[a]), %[" LO "], %[" W8 "]\n\t"			\
	"adcq %[" LO "], %[" W7 "]\n\t"					\
	"mulxq 64(%[a]), %[" LO "], %[" HI "]\n\t"			\
	"adcq %[" LO "], %[" W8 "]\n\t"					\
	"adcq $0, %[" HI "]\n\t"					\
	"movq %[" W0 "], 0(%[s])\n\t"

/* one product of a row: a[J] b[i] into WJ (low half, CF) and WJ1 (high, OF) */
#define P521X_MAC1(J, LO, HI, WJ, WJ1)					\
	"mulxq " J "(%[a]), %[" LO "], %[" HI "]\n\t"			\
	"adcxq %[" LO "], %[" WJ "]\n\t"				\
	"adoxq %[" HI "], %[" WJ1 "]\n\t"

/*
 * Row i (K = 8 i): (W0..W8, HI) = (W0..W8) + a * b[i], W0 being word i;
 * HI (word i + 9) is the last product's high half plus both carries, which
 * cannot overflow (the sum fits ten words).  W0 is then final and stored.
 */
#define P521X_ROW(K, W0, W1, W2, W3, W4, W5, W6, W7, W8, LO, HI)	\
	"movq 144(%[s]), %%rdx\n\t"					\
	"movq " K "(%%rdx), %%rdx\n\t"				\
	"xorl %k[" LO "], %k[" LO "]\n\t"				\
	P521X_MAC1("0", LO, HI, W0, W1)					\
	P521X_MAC1("8", LO, HI, W1, W2)					\
	P521X_MAC1("16", LO, HI, W2, W3)				\
	P521X_MAC1("24", LO, HI, W3, W4)				\
	P521X_MAC1("32", LO, HI, W4, W5)				\
	P521X_MAC1("40", LO, HI, W5, W6)				\
	P521X_MAC1("48", LO, HI, W6, W7)				\
	P521X_MAC1("56", LO, HI, W7, W8)				\
	"mulxq 64(%[a]), %[" LO "], %[" HI "]\n\t"			\
	"adcxq %[" LO "], %[" W8 "]\n\t"				\
	"adoxq %[z], %[" HI "]\n\t"					\
	"adcxq %[z], %[" HI "]\n\t"					\
	"movq %[" W0 "], " K "(%[s])\n\t"

/* t0..t8 = the nine words at %[A] */
#define P521X_LOAD(A)							\
	"movq 0(%[" A "]), %[t0]\n\t"					\
	"movq 8(%[" A "]), %[t1]\n\t"					\
	"movq 16(%[" A "]), %[t2]\n\t"					\
	"movq 24(%[" A "]), %[t3]\n\t"					\
	"movq 32(%[" A "]), %[t4]\n\t"					\
	"movq 40(%[" A "]), %[t5]\n\t"					\
	"movq 48(%[" A "]), %[t6]\n\t"					\
	"movq 56(%[" A "]), %[t7]\n\t"					\
	"movq 64(%[" A "]), %[t8]\n\t"

/* %[r] = t0..t8 */
#define P521X_STORE							\
	"movq %[t0], 0(%[r])\n\t"					\
	"movq %[t1], 8(%[r])\n\t"					\
	"movq %[t2], 16(%[r])\n\t"					\
	"movq %[t3], 24(%[r])\n\t"					\
	"movq %[t4], 32(%[r])\n\t"					\
	"movq %[t5], 40(%[r])\n\t"					\
	"movq %[t6], 48(%[r])\n\t"					\
	"movq %[t7], 56(%[r])\n\t"					\
	"movq %[t8], 64(%[r])\n\t"

/*
 * t0..t8 (below 2^522, at most 2p) to at most p: bits 521.. of the value
 * (bits 9.. of t8, one bit) added back at bit 0 (2^521 = 1); t9 scratch.
 * At most p: the sum is 2^521 or more only if the low 521 bits were all
 * ones and the bit set, i.e. the value 2^522 - 1 > 2p.
 */
#define P521X_FOLD							\
	"movq %[t8], %[t9]\n\t"						\
	"shrq $9, %[t9]\n\t"						\
	"andl $0x1ff, %k[t8]\n\t"					\
	"addq %[t9], %[t0]\n\t"						\
	"adcq $0, %[t1]\n\t"						\
	"adcq $0, %[t2]\n\t"						\
	"adcq $0, %[t3]\n\t"						\
	"adcq $0, %[t4]\n\t"						\
	"adcq $0, %[t5]\n\t"						\
	"adcq $0, %[t6]\n\t"						\
	"adcq $0, %[t7]\n\t"						\
	"adcq $0, %[t8]\n\t"

/* the whole product a b and its reduction */
#define P521X_PRODUCT	\
	P521X_ROW0("t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10")	\
	P521X_ROW("8", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t10", "t9", "t0")	\
	P521X_ROW("16", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t10", "t0", "t9", "t1")	\
	P521X_ROW("24", "t3", "t4", "t5", "t6", "t7", "t8", "t10", "t0", "t1", "t9", "t2")	\
	P521X_ROW("32", "t4", "t5", "t6", "t7", "t8", "t10", "t0", "t1", "t2", "t9", "t3")	\
	P521X_ROW("40", "t5", "t6", "t7", "t8", "t10", "t0", "t1", "t2", "t3", "t9", "t4")	\
	P521X_ROW("48", "t6", "t7", "t8", "t10", "t0", "t1", "t2", "t3", "t4", "t9", "t5")	\
	P521X_ROW("56", "t7", "t8", "t10", "t0", "t1", "t2", "t3", "t4", "t5", "t9", "t6")	\
	P521X_ROW("64", "t8", "t10", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t9", "t7")	\
	P521X_PRODUCT_REDUCE

/*
 * The reduction (of the product and of the square): r = x mod p, at most
 * p, for x < 2^1042 (words 0..16): lo + hi with lo = x mod 2^521 and
 * hi = x >> 521 (nine SHRDs), below 2^522; then bit 521 of the sum (bits
 * 9.. of its top word) added back at bit 0.  It runs from the registers
 * that hold words 8..16 at the end of each operation, the low words from
 * the scratch, and the destination pointer comes from s[19].
 */
/* here from the product's last window: words 9..16 in registers, 0..8 in the scratch */
#define P521X_PRODUCT_REDUCE	\
	"movq 64(%[s]), %%rdx\n\t"	\
	"movq %%rdx, %[t9]\n\t"	\
	"andl $0x1ff, %k[t9]\n\t"	\
	"movq %[t10], %[a]\n\t"	\
	"shlq $55, %[a]\n\t"	\
	"shrq $9, %%rdx\n\t"	\
	"orq %[a], %%rdx\n\t"	\
	"movq %[t0], %[a]\n\t"	\
	"shlq $55, %[a]\n\t"	\
	"shrq $9, %[t10]\n\t"	\
	"orq %[a], %[t10]\n\t"	\
	"movq %[t1], %[a]\n\t"	\
	"shlq $55, %[a]\n\t"	\
	"shrq $9, %[t0]\n\t"	\
	"orq %[a], %[t0]\n\t"	\
	"movq %[t2], %[a]\n\t"	\
	"shlq $55, %[a]\n\t"	\
	"shrq $9, %[t1]\n\t"	\
	"orq %[a], %[t1]\n\t"	\
	"movq %[t3], %[a]\n\t"	\
	"shlq $55, %[a]\n\t"	\
	"shrq $9, %[t2]\n\t"	\
	"orq %[a], %[t2]\n\t"	\
	"movq %[t4], %[a]\n\t"	\
	"shlq $55, %[a]\n\t"	\
	"shrq $9, %[t3]\n\t"	\
	"orq %[a], %[t3]\n\t"	\
	"movq %[t5], %[a]\n\t"	\
	"shlq $55, %[a]\n\t"	\
	"shrq $9, %[t4]\n\t"	\
	"orq %[a], %[t4]\n\t"	\
	"movq %[t6], %[a]\n\t"	\
	"shlq $55, %[a]\n\t"	\
	"shrq $9, %[t5]\n\t"	\
	"orq %[a], %[t5]\n\t"	\
	"shrq $9, %[t6]\n\t"	\
	"addq 0(%[s]), %%rdx\n\t"	\
	"adcq 8(%[s]), %[t10]\n\t"	\
	"adcq 16(%[s]), %[t0]\n\t"	\
	"adcq 24(%[s]), %[t1]\n\t"	\
	"adcq 32(%[s]), %[t2]\n\t"	\
	"adcq 40(%[s]), %[t3]\n\t"	\
	"adcq 48(%[s]), %[t4]\n\t"	\
	"adcq 56(%[s]), %[t5]\n\t"	\
	"adcq %[t9], %[t6]\n\t"	\
	"movq %[t6], %[t9]\n\t"	\
	"shrq $9, %[t9]\n\t"	\
	"andl $0x1ff, %k[t6]\n\t"	\
	"addq %[t9], %%rdx\n\t"	\
	"adcq $0, %[t10]\n\t"	\
	"adcq $0, %[t0]\n\t"	\
	"adcq $0, %[t1]\n\t"	\
	"adcq $0, %[t2]\n\t"	\
	"adcq $0, %[t3]\n\t"	\
	"adcq $0, %[t4]\n\t"	\
	"adcq $0, %[t5]\n\t"	\
	"adcq $0, %[t6]\n\t"	\
	"movq 152(%[s]), %[a]\n\t"	\
	"movq %%rdx, 0(%[a])\n\t"	\
	"movq %[t10], 8(%[a])\n\t"	\
	"movq %[t0], 16(%[a])\n\t"	\
	"movq %[t1], 24(%[a])\n\t"	\
	"movq %[t2], 32(%[a])\n\t"	\
	"movq %[t3], 40(%[a])\n\t"	\
	"movq %[t4], 48(%[a])\n\t"	\
	"movq %[t5], 56(%[a])\n\t"	\
	"movq %[t6], 64(%[a])\n\t"

#define P521X_T10							\
	[t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),	\
	[t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6), [t7] "=&r"(t7),	\
	[t8] "=&r"(t8), [t9] "=&r"(t9)

/*
 * r = a b mod p (a, b at most p), the pointers b and r being s[18] and
 * s[19] (the caller puts them there; each row loads b's word through rdx,
 * which then holds it, and b's data is read where it is rather than
 * copied, which would put a store and a reload on the path from the
 * operation that wrote it): every operand but a is then addressed from
 * the scratch pointer, which leaves eleven work registers with rbp unused
 * (and the scratch a register, not a stack operand, which sanitizer builds
 * could only address through one more register).  The product's words
 * 0..8 go to s[0..8] as they are done; the reduction (P521X_PRODUCT_REDUCE) starts from the last window in registers.  r may alias a or b:
 * it is written last.
 */
static inline void p521x_mul_s(u64 *s, const u64 *a)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10;

	__asm__ volatile(P521X_PRODUCT
		: P521X_T10, [t10] "=&r"(t10), [a] "+r"(a)
		: [s] "r"(s), [z] "m"(p521x_zero)
		: "rdx", "cc", "memory");
}

/*
 * r = a^2 mod p, r being s[19], with a = A + 2^512 a_8 (A the low eight
 * words, a_8 < 2^9): a^2 = A^2 + 2^512 (2 a_8) A + 2^1024 a_8^2.
 *   - A^2's cross products a_i a_j (i < j < 8), 28 MULX in four rows of
 *     seven: row i (i = 0..3) is a_i a_{i+1..7}, rows 1..3 continued in
 *     the same two carry chains by the products among a_4..a_7 that
 *     start at the row's top word (a_4 a_5; a_6 a_4, a_6 a_5; a_7 a_4,
 *     a_7 a_5, a_7 a_6), each new top word the high half of a product
 *     (no carry out of it: the partial sums stay below the next word),
 *     rather than three short rows a_4.., a_5.., a_6 a_7 that would each
 *     wait on the last (4-6% faster); words 1..7 to the scratch as they
 *     are final, 8..14 kept in registers;
 *   - one pass doubling them (ADCX w, w) and adding the eight squares
 *     a_i^2 at words 2i, 2i + 1 (ADOX), the two chains running together
 *     over words 1..15;
 *   - (2 a_8) A, eight MULX of a 10-bit multiplier (no doubling pass
 *     needed for the top word's cross products), into words 8..16, and
 *     a_8^2 < 2^18 (IMUL) into word 16.
 * 44 MULX and an IMUL instead of 45 MULX over pre-doubled words (whose
 * making cost 60 instructions and 15 stores); words 8..16 end in
 * registers, 0..7 in s[0..7], for the product's reduction (lo + hi, then
 * bit 521 folded back), written out for these registers.
 */
static inline void p521x_sqr_s(u64 *s, const u64 *a)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10;

	__asm__ volatile(
		"movq 0(%[a]), %%rdx\n\t"
		"mulxq 8(%[a]), %[t0], %[t1]\n\t"
		"mulxq 16(%[a]), %[t2], %[t3]\n\t"
		"addq %[t2], %[t1]\n\t"
		"mulxq 24(%[a]), %[t2], %[t4]\n\t"
		"adcq %[t2], %[t3]\n\t"
		"mulxq 32(%[a]), %[t2], %[t5]\n\t"
		"adcq %[t2], %[t4]\n\t"
		"mulxq 40(%[a]), %[t2], %[t6]\n\t"
		"adcq %[t2], %[t5]\n\t"
		"mulxq 48(%[a]), %[t2], %[t7]\n\t"
		"adcq %[t2], %[t6]\n\t"
		"mulxq 56(%[a]), %[t2], %[t8]\n\t"
		"adcq %[t2], %[t7]\n\t"
		"adcq $0, %[t8]\n\t"
		"movq %[t0], 8(%[s])\n\t"
		"movq %[t1], 16(%[s])\n\t"
		"movq 8(%[a]), %%rdx\n\t"
		"xorl %k[t2], %k[t2]\n\t"
		"mulxq 16(%[a]), %[t2], %[t9]\n\t"
		"adcxq %[t2], %[t3]\n\t"
		"adoxq %[t9], %[t4]\n\t"
		"mulxq 24(%[a]), %[t2], %[t9]\n\t"
		"adcxq %[t2], %[t4]\n\t"
		"adoxq %[t9], %[t5]\n\t"
		"mulxq 32(%[a]), %[t2], %[t9]\n\t"
		"adcxq %[t2], %[t5]\n\t"
		"adoxq %[t9], %[t6]\n\t"
		"mulxq 40(%[a]), %[t2], %[t9]\n\t"
		"adcxq %[t2], %[t6]\n\t"
		"adoxq %[t9], %[t7]\n\t"
		"mulxq 48(%[a]), %[t2], %[t9]\n\t"
		"adcxq %[t2], %[t7]\n\t"
		"adoxq %[t9], %[t8]\n\t"
		"mulxq 56(%[a]), %[t2], %[t9]\n\t"
		"adcxq %[t2], %[t8]\n\t"
		"adoxq %[z], %[t9]\n\t"
		"movq 32(%[a]), %%rdx\n\t"
		"mulxq 40(%[a]), %[t2], %[t10]\n\t"
		"adcxq %[t2], %[t9]\n\t"
		"adoxq %[z], %[t10]\n\t"
		"adcxq %[z], %[t10]\n\t"
		"movq %[t3], 24(%[s])\n\t"
		"movq %[t4], 32(%[s])\n\t"
		"movq 16(%[a]), %%rdx\n\t"
		"xorl %k[t2], %k[t2]\n\t"
		"mulxq 24(%[a]), %[t2], %[t0]\n\t"
		"adcxq %[t2], %[t5]\n\t"
		"adoxq %[t0], %[t6]\n\t"
		"mulxq 32(%[a]), %[t2], %[t0]\n\t"
		"adcxq %[t2], %[t6]\n\t"
		"adoxq %[t0], %[t7]\n\t"
		"mulxq 40(%[a]), %[t2], %[t0]\n\t"
		"adcxq %[t2], %[t7]\n\t"
		"adoxq %[t0], %[t8]\n\t"
		"mulxq 48(%[a]), %[t2], %[t0]\n\t"
		"adcxq %[t2], %[t8]\n\t"
		"adoxq %[t0], %[t9]\n\t"
		"mulxq 56(%[a]), %[t2], %[t0]\n\t"
		"adcxq %[t2], %[t9]\n\t"
		"adoxq %[t0], %[t10]\n\t"
		"movq 48(%[a]), %%rdx\n\t"
		"mulxq 32(%[a]), %[t2], %[t0]\n\t"
		"adcxq %[t2], %[t10]\n\t"
		"adoxq %[z], %[t0]\n\t"
		"mulxq 40(%[a]), %[t2], %[t1]\n\t"
		"adcxq %[t2], %[t0]\n\t"
		"adoxq %[z], %[t1]\n\t"
		"adcxq %[z], %[t1]\n\t"
		"movq %[t5], 40(%[s])\n\t"
		"movq %[t6], 48(%[s])\n\t"
		"movq 24(%[a]), %%rdx\n\t"
		"xorl %k[t2], %k[t2]\n\t"
		"mulxq 32(%[a]), %[t2], %[t3]\n\t"
		"adcxq %[t2], %[t7]\n\t"
		"adoxq %[t3], %[t8]\n\t"
		"mulxq 40(%[a]), %[t2], %[t3]\n\t"
		"adcxq %[t2], %[t8]\n\t"
		"adoxq %[t3], %[t9]\n\t"
		"mulxq 48(%[a]), %[t2], %[t3]\n\t"
		"adcxq %[t2], %[t9]\n\t"
		"adoxq %[t3], %[t10]\n\t"
		"mulxq 56(%[a]), %[t2], %[t3]\n\t"
		"adcxq %[t2], %[t10]\n\t"
		"adoxq %[t3], %[t0]\n\t"
		"movq 56(%[a]), %%rdx\n\t"
		"mulxq 32(%[a]), %[t2], %[t3]\n\t"
		"adcxq %[t2], %[t0]\n\t"
		"adoxq %[t3], %[t1]\n\t"
		"mulxq 40(%[a]), %[t2], %[t3]\n\t"
		"adcxq %[t2], %[t1]\n\t"
		"adoxq %[z], %[t3]\n\t"
		"mulxq 48(%[a]), %[t2], %[t4]\n\t"
		"adcxq %[t2], %[t3]\n\t"
		"adoxq %[z], %[t4]\n\t"
		"adcxq %[z], %[t4]\n\t"
		"movq %[t7], 56(%[s])\n\t"
		"movq 0(%[a]), %%rdx\n\t"
		"xorl %k[t2], %k[t2]\n\t"
		"mulxq %%rdx, %[t2], %[t5]\n\t"
		"movq %[t2], 0(%[s])\n\t"
		"movq 8(%[s]), %[t6]\n\t"
		"adcxq %[t6], %[t6]\n\t"
		"adoxq %[t5], %[t6]\n\t"
		"movq %[t6], 8(%[s])\n\t"
		"movq 8(%[a]), %%rdx\n\t"
		"mulxq %%rdx, %[t2], %[t5]\n\t"
		"movq 16(%[s]), %[t6]\n\t"
		"adcxq %[t6], %[t6]\n\t"
		"adoxq %[t2], %[t6]\n\t"
		"movq %[t6], 16(%[s])\n\t"
		"movq 24(%[s]), %[t6]\n\t"
		"adcxq %[t6], %[t6]\n\t"
		"adoxq %[t5], %[t6]\n\t"
		"movq %[t6], 24(%[s])\n\t"
		"movq 16(%[a]), %%rdx\n\t"
		"mulxq %%rdx, %[t2], %[t5]\n\t"
		"movq 32(%[s]), %[t6]\n\t"
		"adcxq %[t6], %[t6]\n\t"
		"adoxq %[t2], %[t6]\n\t"
		"movq %[t6], 32(%[s])\n\t"
		"movq 40(%[s]), %[t6]\n\t"
		"adcxq %[t6], %[t6]\n\t"
		"adoxq %[t5], %[t6]\n\t"
		"movq %[t6], 40(%[s])\n\t"
		"movq 24(%[a]), %%rdx\n\t"
		"mulxq %%rdx, %[t2], %[t5]\n\t"
		"movq 48(%[s]), %[t6]\n\t"
		"adcxq %[t6], %[t6]\n\t"
		"adoxq %[t2], %[t6]\n\t"
		"movq %[t6], 48(%[s])\n\t"
		"movq 56(%[s]), %[t6]\n\t"
		"adcxq %[t6], %[t6]\n\t"
		"adoxq %[t5], %[t6]\n\t"
		"movq %[t6], 56(%[s])\n\t"
		"movq 32(%[a]), %%rdx\n\t"
		"mulxq %%rdx, %[t2], %[t5]\n\t"
		"adcxq %[t8], %[t8]\n\t"
		"adoxq %[t2], %[t8]\n\t"
		"adcxq %[t9], %[t9]\n\t"
		"adoxq %[t5], %[t9]\n\t"
		"movq 40(%[a]), %%rdx\n\t"
		"mulxq %%rdx, %[t2], %[t5]\n\t"
		"adcxq %[t10], %[t10]\n\t"
		"adoxq %[t2], %[t10]\n\t"
		"adcxq %[t0], %[t0]\n\t"
		"adoxq %[t5], %[t0]\n\t"
		"movq 48(%[a]), %%rdx\n\t"
		"mulxq %%rdx, %[t2], %[t5]\n\t"
		"adcxq %[t1], %[t1]\n\t"
		"adoxq %[t2], %[t1]\n\t"
		"adcxq %[t3], %[t3]\n\t"
		"adoxq %[t5], %[t3]\n\t"
		"movq 56(%[a]), %%rdx\n\t"
		"mulxq %%rdx, %[t2], %[t5]\n\t"
		"adcxq %[t4], %[t4]\n\t"
		"adoxq %[t2], %[t4]\n\t"
		"adcxq %[z], %[t5]\n\t"
		"adoxq %[z], %[t5]\n\t"
		"movq 64(%[a]), %[t6]\n\t"
		"imulq %[t6], %[t6]\n\t"
		"movq 64(%[a]), %%rdx\n\t"
		"addq %%rdx, %%rdx\n\t"
		"xorl %k[t2], %k[t2]\n\t"
		"mulxq 0(%[a]), %[t2], %[t7]\n\t"
		"adcxq %[t2], %[t8]\n\t"
		"adoxq %[t7], %[t9]\n\t"
		"mulxq 8(%[a]), %[t2], %[t7]\n\t"
		"adcxq %[t2], %[t9]\n\t"
		"adoxq %[t7], %[t10]\n\t"
		"mulxq 16(%[a]), %[t2], %[t7]\n\t"
		"adcxq %[t2], %[t10]\n\t"
		"adoxq %[t7], %[t0]\n\t"
		"mulxq 24(%[a]), %[t2], %[t7]\n\t"
		"adcxq %[t2], %[t0]\n\t"
		"adoxq %[t7], %[t1]\n\t"
		"mulxq 32(%[a]), %[t2], %[t7]\n\t"
		"adcxq %[t2], %[t1]\n\t"
		"adoxq %[t7], %[t3]\n\t"
		"mulxq 40(%[a]), %[t2], %[t7]\n\t"
		"adcxq %[t2], %[t3]\n\t"
		"adoxq %[t7], %[t4]\n\t"
		"mulxq 48(%[a]), %[t2], %[t7]\n\t"
		"adcxq %[t2], %[t4]\n\t"
		"adoxq %[t7], %[t5]\n\t"
		"mulxq 56(%[a]), %[t2], %[t7]\n\t"
		"adcxq %[t2], %[t5]\n\t"
		"adoxq %[t6], %[t7]\n\t"
		"adcxq %[z], %[t7]\n\t"
		/* the reduction, from words 8..16 in registers */
		"movq %[t8], %[t2]\n\t"
		"andl $0x1ff, %k[t2]\n\t"
		"movq %[t9], %[a]\n\t"
		"shlq $55, %[a]\n\t"
		"shrq $9, %[t8]\n\t"
		"orq %[a], %[t8]\n\t"
		"movq %[t10], %[a]\n\t"
		"shlq $55, %[a]\n\t"
		"shrq $9, %[t9]\n\t"
		"orq %[a], %[t9]\n\t"
		"movq %[t0], %[a]\n\t"
		"shlq $55, %[a]\n\t"
		"shrq $9, %[t10]\n\t"
		"orq %[a], %[t10]\n\t"
		"movq %[t1], %[a]\n\t"
		"shlq $55, %[a]\n\t"
		"shrq $9, %[t0]\n\t"
		"orq %[a], %[t0]\n\t"
		"movq %[t3], %[a]\n\t"
		"shlq $55, %[a]\n\t"
		"shrq $9, %[t1]\n\t"
		"orq %[a], %[t1]\n\t"
		"movq %[t4], %[a]\n\t"
		"shlq $55, %[a]\n\t"
		"shrq $9, %[t3]\n\t"
		"orq %[a], %[t3]\n\t"
		"movq %[t5], %[a]\n\t"
		"shlq $55, %[a]\n\t"
		"shrq $9, %[t4]\n\t"
		"orq %[a], %[t4]\n\t"
		"movq %[t7], %[a]\n\t"
		"shlq $55, %[a]\n\t"
		"shrq $9, %[t5]\n\t"
		"orq %[a], %[t5]\n\t"
		"shrq $9, %[t7]\n\t"
		"addq 0(%[s]), %[t8]\n\t"
		"adcq 8(%[s]), %[t9]\n\t"
		"adcq 16(%[s]), %[t10]\n\t"
		"adcq 24(%[s]), %[t0]\n\t"
		"adcq 32(%[s]), %[t1]\n\t"
		"adcq 40(%[s]), %[t3]\n\t"
		"adcq 48(%[s]), %[t4]\n\t"
		"adcq 56(%[s]), %[t5]\n\t"
		"adcq %[t2], %[t7]\n\t"
		"movq %[t7], %[t2]\n\t"
		"shrq $9, %[t2]\n\t"
		"andl $0x1ff, %k[t7]\n\t"
		"addq %[t2], %[t8]\n\t"
		"adcq $0, %[t9]\n\t"
		"adcq $0, %[t10]\n\t"
		"adcq $0, %[t0]\n\t"
		"adcq $0, %[t1]\n\t"
		"adcq $0, %[t3]\n\t"
		"adcq $0, %[t4]\n\t"
		"adcq $0, %[t5]\n\t"
		"adcq $0, %[t7]\n\t"
		"movq 152(%[s]), %[a]\n\t"
		"movq %[t8], 0(%[a])\n\t"
		"movq %[t9], 8(%[a])\n\t"
		"movq %[t10], 16(%[a])\n\t"
		"movq %[t0], 24(%[a])\n\t"
		"movq %[t1], 32(%[a])\n\t"
		"movq %[t3], 40(%[a])\n\t"
		"movq %[t4], 48(%[a])\n\t"
		"movq %[t5], 56(%[a])\n\t"
		"movq %[t7], 64(%[a])\n\t"
		: P521X_T10, [t10] "=&r"(t10), [a] "+r"(a)
		: [s] "r"(s), [z] "m"(p521x_zero)
		: "rdx", "cc", "memory");
}

/* r = a b mod p (at most p); r may alias a or b */
static void p521x_mul(u64 *r, const u64 *a, const u64 *b)
{
	u64 s[20];

	s[18] = (u64)(uintptr_t)b;
	s[19] = (u64)(uintptr_t)r;
	p521x_mul_s(s, a);
}

/* r = a^2 mod p */
static void p521x_sqr(u64 *r, const u64 *a)
{
	u64 s[20];

	s[19] = (u64)(uintptr_t)r;
	p521x_sqr_s(s, a);
}

/* r = a + b mod p: a + b <= 2p, folded */
static inline void p521x_add(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, t8, t9;

	__asm__ volatile(
		P521X_LOAD("a")
		"addq 0(%[b]), %[t0]\n\t"
		"adcq 8(%[b]), %[t1]\n\t"
		"adcq 16(%[b]), %[t2]\n\t"
		"adcq 24(%[b]), %[t3]\n\t"
		"adcq 32(%[b]), %[t4]\n\t"
		"adcq 40(%[b]), %[t5]\n\t"
		"adcq 48(%[b]), %[t6]\n\t"
		"adcq 56(%[b]), %[t7]\n\t"
		"adcq 64(%[b]), %[t8]\n\t"
		P521X_FOLD
		P521X_STORE
		: P521X_T10
		: [r] "r"(r), [a] "r"(a), [b] "r"(b)
		: "cc", "memory");
}

/* r = a - b mod p as a + (p - b): p - b is b's 521 bits complemented (b <= p) */
static inline void p521x_sub(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, t8, t9;

	__asm__ volatile(
		P521X_LOAD("b")
		"notq %[t0]\n\t"
		"notq %[t1]\n\t"
		"notq %[t2]\n\t"
		"notq %[t3]\n\t"
		"notq %[t4]\n\t"
		"notq %[t5]\n\t"
		"notq %[t6]\n\t"
		"notq %[t7]\n\t"
		"xorq $0x1ff, %[t8]\n\t"
		"addq 0(%[a]), %[t0]\n\t"
		"adcq 8(%[a]), %[t1]\n\t"
		"adcq 16(%[a]), %[t2]\n\t"
		"adcq 24(%[a]), %[t3]\n\t"
		"adcq 32(%[a]), %[t4]\n\t"
		"adcq 40(%[a]), %[t5]\n\t"
		"adcq 48(%[a]), %[t6]\n\t"
		"adcq 56(%[a]), %[t7]\n\t"
		"adcq 64(%[a]), %[t8]\n\t"
		P521X_FOLD
		P521X_STORE
		: P521X_T10
		: [r] "r"(r), [a] "r"(a), [b] "r"(b)
		: "cc", "memory");
}

/*
 * r = a / 2 mod p = a 2^520 mod p: the 521 bits rotated right by one (bit 0
 * to bit 520); a = p stays p.
 */
static inline void p521x_half(u64 *r, const u64 *a)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10;

	__asm__ volatile(
		P521X_LOAD("a")
		"movl %k[t0], %k[t9]\n\t"
		"andl $1, %k[t9]\n\t"
		"shlq $8, %[t9]\n\t"
		"movq %[t1], %[t10]\n\t"
		"shlq $63, %[t10]\n\t"
		"shrq $1, %[t0]\n\t"
		"orq %[t10], %[t0]\n\t"
		"movq %[t2], %[t10]\n\t"
		"shlq $63, %[t10]\n\t"
		"shrq $1, %[t1]\n\t"
		"orq %[t10], %[t1]\n\t"
		"movq %[t3], %[t10]\n\t"
		"shlq $63, %[t10]\n\t"
		"shrq $1, %[t2]\n\t"
		"orq %[t10], %[t2]\n\t"
		"movq %[t4], %[t10]\n\t"
		"shlq $63, %[t10]\n\t"
		"shrq $1, %[t3]\n\t"
		"orq %[t10], %[t3]\n\t"
		"movq %[t5], %[t10]\n\t"
		"shlq $63, %[t10]\n\t"
		"shrq $1, %[t4]\n\t"
		"orq %[t10], %[t4]\n\t"
		"movq %[t6], %[t10]\n\t"
		"shlq $63, %[t10]\n\t"
		"shrq $1, %[t5]\n\t"
		"orq %[t10], %[t5]\n\t"
		"movq %[t7], %[t10]\n\t"
		"shlq $63, %[t10]\n\t"
		"shrq $1, %[t6]\n\t"
		"orq %[t10], %[t6]\n\t"
		"movq %[t8], %[t10]\n\t"
		"shlq $63, %[t10]\n\t"
		"shrq $1, %[t7]\n\t"
		"orq %[t10], %[t7]\n\t"
		"shrq $1, %[t8]\n\t"
		"orq %[t9], %[t8]\n\t"
		P521X_STORE
		: P521X_T10, [t10] "=&r"(t10)
		: [r] "r"(r), [a] "r"(a)
		: "cc", "memory");
}

/*
 * t0..t8 = 2 t mod p for t at most p: the 521 bits rotated left by one
 * (2^521 = 1): the doubling's carry out of bit 520 lands in bit 9 of t8
 * and goes to bit 0, which the doubling left clear (an OR, no carry).
 */
#define P521X_ROTL1							\
	"addq %[t0], %[t0]\n\t"						\
	"adcq %[t1], %[t1]\n\t"						\
	"adcq %[t2], %[t2]\n\t"						\
	"adcq %[t3], %[t3]\n\t"						\
	"adcq %[t4], %[t4]\n\t"						\
	"adcq %[t5], %[t5]\n\t"						\
	"adcq %[t6], %[t6]\n\t"						\
	"adcq %[t7], %[t7]\n\t"						\
	"adcq %[t8], %[t8]\n\t"						\
	"movq %[t8], %[t9]\n\t"						\
	"shrq $9, %[t9]\n\t"						\
	"andl $0x1ff, %k[t8]\n\t"					\
	"orq %[t9], %[t0]\n\t"

/* t0..t8 = t / 2 mod p: rotated right by one (t10 scratch) */
#define P521X_ROTR1_STEP(NXT, CUR)					\
	"movq %[" NXT "], %[t10]\n\t"					\
	"shlq $63, %[t10]\n\t"						\
	"shrq $1, %[" CUR "]\n\t"					\
	"orq %[t10], %[" CUR "]\n\t"
#define P521X_ROTR1							\
	"movl %k[t0], %k[t9]\n\t"					\
	"andl $1, %k[t9]\n\t"						\
	"shlq $8, %[t9]\n\t"						\
	P521X_ROTR1_STEP("t1", "t0") P521X_ROTR1_STEP("t2", "t1")	\
	P521X_ROTR1_STEP("t3", "t2") P521X_ROTR1_STEP("t4", "t3")	\
	P521X_ROTR1_STEP("t5", "t4") P521X_ROTR1_STEP("t6", "t5")	\
	P521X_ROTR1_STEP("t7", "t6") P521X_ROTR1_STEP("t8", "t7")	\
	"shrq $1, %[t8]\n\t"						\
	"orq %[t9], %[t8]\n\t"

/* t0..t8 = p - t: the 521 bits complemented (t at most p) */
#define P521X_NEG							\
	"notq %[t0]\n\t"						\
	"notq %[t1]\n\t"						\
	"notq %[t2]\n\t"						\
	"notq %[t3]\n\t"						\
	"notq %[t4]\n\t"						\
	"notq %[t5]\n\t"						\
	"notq %[t6]\n\t"						\
	"notq %[t7]\n\t"						\
	"xorq $0x1ff, %[t8]\n\t"

/* t0..t8 += the nine words at %[A] (both at most p: the sum at most 2p) */
#define P521X_ADDM(A)							\
	"addq 0(%[" A "]), %[t0]\n\t"					\
	"adcq 8(%[" A "]), %[t1]\n\t"					\
	"adcq 16(%[" A "]), %[t2]\n\t"					\
	"adcq 24(%[" A "]), %[t3]\n\t"					\
	"adcq 32(%[" A "]), %[t4]\n\t"					\
	"adcq 40(%[" A "]), %[t5]\n\t"					\
	"adcq 48(%[" A "]), %[t6]\n\t"					\
	"adcq 56(%[" A "]), %[t7]\n\t"					\
	"adcq 64(%[" A "]), %[t8]\n\t"

/*
 * Fused linear operations of the point doubling, each one block (one
 * load of the operands, one store): every step is exact modulo p and
 * keeps the value at most p (a rotation maps p to p; a sum of two values
 * at most p is folded).
 */
/* r = 2a */
static inline void p521x_dbl(u64 *r, const u64 *a)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, t8, t9;

	__asm__ volatile(P521X_LOAD("a") P521X_ROTL1 P521X_STORE
		: P521X_T10
		: [r] "r"(r), [a] "r"(a)
		: "cc", "memory");
}

/* r = 3a = 2a + a */
static inline void p521x_mul3(u64 *r, const u64 *a)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, t8, t9;

	__asm__ volatile(P521X_LOAD("a") P521X_ROTL1 P521X_ADDM("a") P521X_FOLD P521X_STORE
		: P521X_T10
		: [r] "r"(r), [a] "r"(a)
		: "cc", "memory");
}

/* r = a - 2b = a + (p - 2b) */
static inline void p521x_sub2(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, t8, t9;

	__asm__ volatile(P521X_LOAD("b") P521X_ROTL1 P521X_NEG P521X_ADDM("a") P521X_FOLD
			 P521X_STORE
		: P521X_T10
		: [r] "r"(r), [a] "r"(a), [b] "r"(b)
		: "cc", "memory");
}

/* r = a - b / 2 = a + (p - b / 2) */
static inline void p521x_subhalf(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10;

	__asm__ volatile(P521X_LOAD("b") P521X_ROTR1 P521X_NEG P521X_ADDM("a") P521X_FOLD
			 P521X_STORE
		: P521X_T10, [t10] "=&r"(t10)
		: [r] "r"(r), [a] "r"(a), [b] "r"(b)
		: "cc", "memory");
}

/*
 * t0..t8 = 2^K t mod p for t at most p, 1 <= K <= 8: the 521 bits rotated
 * left by K (2^521 = 1), each word from two shifts (no carry chain): the
 * top K bits (bits 9 - K .. 8 of t8) come round to bits 0 .. K - 1.
 * t9, t10 scratch.
 */
#define P521X_ROTLK_STEP(K, CUR, PRV)					\
	"movq %[" PRV "], %[t10]\n\t"					\
	"shrq $(64 - " #K "), %[t10]\n\t"				\
	"shlq $" #K ", %[" CUR "]\n\t"					\
	"orq %[t10], %[" CUR "]\n\t"
#define P521X_ROTLK(K)							\
	"movq %[t8], %[t9]\n\t"						\
	"shrq $(9 - " #K "), %[t9]\n\t"					\
	P521X_ROTLK_STEP(K, "t8", "t7")					\
	"andl $0x1ff, %k[t8]\n\t"					\
	P521X_ROTLK_STEP(K, "t7", "t6") P521X_ROTLK_STEP(K, "t6", "t5")	\
	P521X_ROTLK_STEP(K, "t5", "t4") P521X_ROTLK_STEP(K, "t4", "t3")	\
	P521X_ROTLK_STEP(K, "t3", "t2") P521X_ROTLK_STEP(K, "t2", "t1")	\
	P521X_ROTLK_STEP(K, "t1", "t0")					\
	"shlq $" #K ", %[t0]\n\t"					\
	"orq %[t9], %[t0]\n\t"

/* r = a - 8b = a + (p - 8b) */
static inline void p521x_sub8(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10;

	__asm__ volatile(P521X_LOAD("b") P521X_ROTLK(3) P521X_NEG P521X_ADDM("a") P521X_FOLD
			 P521X_STORE
		: P521X_T10, [t10] "=&r"(t10)
		: [r] "r"(r), [a] "r"(a), [b] "r"(b)
		: "cc", "memory");
}

/* r = 4a - b = p - (b + (p - 4a)) */
static inline void p521x_sub4r(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10;

	__asm__ volatile(P521X_LOAD("a") P521X_ROTLK(2) P521X_NEG P521X_ADDM("b") P521X_FOLD
			 P521X_NEG P521X_STORE
		: P521X_T10, [t10] "=&r"(t10)
		: [r] "r"(r), [a] "r"(a), [b] "r"(b)
		: "cc", "memory");
}

/* r = a - b - c = a + (p - (b + c)) */
static inline void p521x_subsub(u64 *r, const u64 *a, const u64 *b, const u64 *c)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, t8, t9;

	__asm__ volatile(P521X_LOAD("b") P521X_ADDM("c") P521X_FOLD P521X_NEG P521X_ADDM("a")
			 P521X_FOLD P521X_STORE
		: P521X_T10
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), [c] "r"(c)
		: "cc", "memory");
}

/* r = a - b - 2c = a + (p - (b + 2c)) */
static inline void p521x_subsub2(u64 *r, const u64 *a, const u64 *b, const u64 *c)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, t8, t9;

	__asm__ volatile(P521X_LOAD("c") P521X_ROTL1 P521X_ADDM("b") P521X_FOLD P521X_NEG
			 P521X_ADDM("a") P521X_FOLD P521X_STORE
		: P521X_T10
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), [c] "r"(c)
		: "cc", "memory");
}

/*
 * r = 2p in Jacobian coordinates for a = -3, dbl-2001-b (Bernstein and
 * Lange's Explicit-Formulas Database): delta = Z^2, gamma = Y^2,
 * beta = X gamma, alpha = 3 (X - delta)(X + delta), X' = alpha^2 - 8 beta,
 * Z' = (Y + Z)^2 - gamma - delta, Y' = alpha (4 beta - X') - 8 gamma^2:
 * 3M + 5S against the 4M + 4S of the template's (Z' = 2 Y Z and 4 X Y^2
 * from (2Y)^2), a square being ~25 cycles cheaper than a product here;
 * the multiples of 8 and 4 are rotations of the 521 bits, fused with the
 * subtraction they feed (one block each).  The identity (X : Y : 0) gives
 * Z' = Y^2 - Y^2 - 0 = 0, the identity again.  Independent operations sit
 * side by side (the two squares, the two products, gamma^2 and (Y + Z)^2)
 * so that one's tail overlaps the next one's start.  r may alias p: X, Y,
 * Z are read (delta, gamma, Y + Z, X -+ delta, beta) before any of r is
 * written.
 */
static void p521x_jac_dbl(u64 *r, const u64 *p)
{
	const u64 *x = p, *y = p + 9, *z = p + 18;
	u64 delta[9], gamma[9], g2[9], beta[9], alpha[9], t[9], u[9], w[9];

	p521x_sqr(delta, z);			/* delta = Z^2 */
	p521x_sqr(gamma, y);			/* gamma = Y^2 */
	p521x_add(w, y, z);			/* Y + Z */
	p521x_sub(t, x, delta);
	p521x_add(u, x, delta);
	p521x_mul(alpha, t, u);
	p521x_mul(beta, x, gamma);		/* beta = X gamma */
	p521x_sqr(w, w);
	p521x_mul3(alpha, alpha);		/* alpha */
	p521x_sqr(g2, gamma);			/* gamma^2 */
	p521x_subsub(r + 18, w, gamma, delta);	/* Z' = (Y + Z)^2 - gamma - delta */
	p521x_sqr(t, alpha);
	p521x_sub8(r, t, beta);			/* X' = alpha^2 - 8 beta */
	p521x_sub4r(t, beta, r);		/* 4 beta - X' */
	p521x_mul(t, alpha, t);
	p521x_sub8(r + 9, t, g2);		/* Y' = alpha (4 beta - X') - 8 gamma^2 */
}

/*
 * o = p + (x2, y2), p Jacobian, the affine point not the identity nor
 * +-p: the template's madd-2007-bl (ecc-point.h, jac_add_formula, 8M +
 * 3S) in an order that puts independent products next to each other
 * (Y2 Z1 beside Z1^2, Z3 beside H^2, Y1 H^3 beside R^2), so that one's
 * reduction overlaps the next one's start, and X3 = R^2 - H^3 - 2V as
 * one block.  o distinct from p.
 */
static void p521x_jac_add_affine(u64 *o, const u64 *p, const u64 *x2, const u64 *y2)
{
	const u64 *x1 = p, *y1 = p + 9, *z1 = p + 18;
	u64 z1z1[9], u2[9], s2[9], h[9], rr[9], hh[9], v[9], t[9], w[9];

	p521x_sqr(z1z1, z1);
	p521x_mul(s2, y2, z1);
	p521x_mul(u2, x2, z1z1);		/* U2 = X2 Z1^2 */
	p521x_mul(s2, s2, z1z1);		/* S2 = Y2 Z1^3 */
	p521x_sub(h, u2, x1);			/* H = U2 - X1 */
	p521x_sqr(hh, h);
	p521x_mul(o + 18, z1, h);		/* Z3 = Z1 H */
	p521x_sub(rr, s2, y1);			/* R = S2 - Y1 */
	p521x_mul(v, x1, hh);			/* V = X1 H^2 */
	p521x_mul(hh, h, hh);			/* H^3 */
	p521x_sqr(t, rr);
	p521x_mul(w, y1, hh);			/* Y1 H^3 */
	p521x_subsub2(o, t, hh, v);		/* X3 = R^2 - H^3 - 2V */
	p521x_sub(v, v, o);
	p521x_mul(v, rr, v);
	p521x_sub(o + 9, v, w);			/* Y3 = R (V - X3) - Y1 H^3 */
}

/*
 * Masked table reads with AVX2 for the affine entries (18 words: the
 * fixed-base table and this file's ECDH table): every entry read, the
 * match found by a vector comparison of its index, four words per
 * register instead of the template's two.  GCC vector types.
 */
typedef u64 p521x_v4 __attribute__((vector_size(32)));
typedef u64 p521x_v2 __attribute__((vector_size(16)));

static int p521x_avx2(void)
{
	static int have = -1;
	int h = __atomic_load_n(&have, __ATOMIC_RELAXED);

	if (h < 0) {
		h = rind_cpu_has(RIND_X86_AVX2);
		__atomic_store_n(&have, h, __ATOMIC_RELAXED);
	}
	return h;
}

__attribute__((target("avx2"), noinline))
static void p521x_select18_avx2(u64 *r, const u64 *table, unsigned int count, u64 idx)
{
	const p521x_v4 one = { 1, 1, 1, 1 }, want = { idx, idx, idx, idx };
	p521x_v4 a0 = { 0 }, a1 = a0, a2 = a0, a3 = a0, cur = one, m, v;
	p521x_v2 t = { 0 }, u;
	unsigned int i;

	for (i = 0; i < count; i++) {
		const u64 *s = table + (size_t)i * 18;

		m = (p521x_v4)(cur == want);		/* all ones for the match */
		memcpy(&v, s, sizeof(v));
		a0 |= m & v;
		memcpy(&v, s + 4, sizeof(v));
		a1 |= m & v;
		memcpy(&v, s + 8, sizeof(v));
		a2 |= m & v;
		memcpy(&v, s + 12, sizeof(v));
		a3 |= m & v;
		memcpy(&u, s + 16, sizeof(u));
		t |= (p521x_v2){ m[0], m[1] } & u;
		cur += one;
	}
	memcpy(r, &a0, sizeof(a0));
	memcpy(r + 4, &a1, sizeof(a1));
	memcpy(r + 8, &a2, sizeof(a2));
	memcpy(r + 12, &a3, sizeof(a3));
	memcpy(r + 16, &t, sizeof(t));
}

/* 1 when done; 0 (the template does it) for other sizes or without AVX2. */
static inline int p521x_select(u64 *r, const u64 *table, unsigned int w, unsigned int count,
			       u64 idx)
{
	if (w != 18 || !p521x_avx2())
		return 0;
	p521x_select18_avx2(r, table, count, idx);
	return 1;
}

#define ECC_N			9
static void p521x_inv(u64 *r, const u64 *a);
static inline void p521x_canon(u64 *r, const u64 *a);
static u64 p521x_is_zero(const u64 *a);
static u64 p521x_eq(const u64 *a, const u64 *b);

/* The curve template over the field operations above (hooks: <crypto/ecc.h>). */
#define ECC_FP_MUL(r, a, b)	p521x_mul(r, a, b)
#define ECC_FP_SQR(r, a)	p521x_sqr(r, a)
#define ECC_FP_ADD(r, a, b)	p521x_add(r, a, b)
#define ECC_FP_SUB(r, a, b)	p521x_sub(r, a, b)
#define ECC_FP_HALF(r, a)	p521x_half(r, a)
#define ECC_FP_SUB2(r, a, b)	p521x_sub2(r, a, b)
#define ECC_JAC_DBL(r, p)	p521x_jac_dbl((r)->x, (p)->x)
#define ECC_JAC_ADD_AFFINE(o, p, q)	p521x_jac_add_affine((o)->x, (p)->x, (q)->x, (q)->y)
#define ECC_SELECT(r, t, w, c, i)	p521x_select(r, t, w, c, i)
#define ECC_FP_INV(r, a)	p521x_inv(r, a)
#define ECC_FP_TO(r, a)		memmove(r, a, 72)
#define ECC_FP_FROM(r, a)	p521x_canon(r, a)
#define ECC_FP_ISZERO(a)	p521x_is_zero(a)
#define ECC_FP_EQ(a, b)		p521x_eq(a, b)
#include <crypto/ecc-impl.h>
#include <crypto/ecc-p521.h>
#include "ecc-mul-affine.h"

/* The fully reduced value: p (the other form of 0) becomes 0; r may alias a. */
static inline void p521x_canon(u64 *r, const u64 *a)
{
	u64 all = a[8] | ~(u64)0x1ff, m;
	int i;

	ECC_UNROLL
	for (i = 0; i < 8; i++)
		all &= a[i];
	m = ~all;			/* 0 exactly for a = p */
	m = ((m | (0 - m)) >> 63) - 1;	/* all ones for a = p */
	ECC_UNROLL
	for (i = 0; i < 9; i++)
		r[i] = a[i] & ~m;
}

static u64 p521x_is_zero(const u64 *a)
{
	fe t;

	p521x_canon(t, a);
	return ecc_is_zero(t);
}

static u64 p521x_eq(const u64 *a, const u64 *b)
{
	fe t, u;

	p521x_canon(t, a);
	p521x_canon(u, b);
	return ecc_eq(t, u);
}

/* The field: m for range checks and the inversion; one = 1 (plain, no R). */
static const struct ecc_mod p521x_fp = {
	.m = { 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0x00000000000001ffull },
	.rr = { 1 },
	.one = { 1 },
	.m0inv = 0x0000000000000001ull,
};

/*
 * The inversion: ecc-inv.h's Bernstein-Yang (the matrix applied to signed
 * 62-bit limbs, the final sign and reduction) with ecc-divsteps-x86.h's
 * 60-step batches in the "half-delta" form, shared with P-256 and P-384:
 * floor((45907 d + 26313) / 19929) of those steps bring g to 0 for d-bit
 * inputs and moduli (the safegcd bound for this form, as ecc-p384-adx.c
 * uses it), 1201 at d = 521: 21 batches of 60 (1260, 59 to spare) instead
 * of the template form's 25 batches of 62 (1506 steps needed); steps after
 * g = 0 change nothing.  |d| stays below 22 p, inside ecc_by_finish's
 * 32 p.
 */
#define P521X_BY_BATCHES 21

#include "ecc-divsteps-x86.h"

/* r = a^-1 mod p (0 for 0): Bernstein-Yang on the fully reduced value */
static void p521x_inv(u64 *r, const u64 *a)
{
	fe w;

	p521x_canon(w, a);
	/* m0inv = -p^-1 mod 2^64 = 1 (p = -1 mod 2^64) */
	ecc_by_inv_with(r, w, p521x_fp.m, 1, P521X_BY_BATCHES, ecc_x86_divsteps);
	memzero_explicit(w, sizeof(w));
}

/* b, Gx, Gy (FIPS 186-5 / SP 800-186 section 3.2.1.5), plain 64-bit words */
static const u64 p521x_b[9] = {
	0xef451fd46b503f00ull, 0x3573df883d2c34f1ull, 0x1652c0bd3bb1bf07ull, 0x56193951ec7e937bull,
	0xb8b489918ef109e1ull, 0xa2da725b99b315f3ull, 0x929a21a0b68540eeull, 0x953eb9618e1c9a1full,
	0x0000000000000051ull,
};
static const u64 p521x_gx[9] = {
	0xf97e7e31c2e5bd66ull, 0x3348b3c1856a429bull, 0xfe1dc127a2ffa8deull, 0xa14b5e77efe75928ull,
	0xf828af606b4d3dbaull, 0x9c648139053fb521ull, 0x9e3ecb662395b442ull, 0x858e06b70404e9cdull,
	0x00000000000000c6ull,
};
static const u64 p521x_gy[9] = {
	0x88be94769fd16650ull, 0x353c7086a272c240ull, 0xc550b9013fad0761ull, 0x97ee72995ef42640ull,
	0x17afbd17273e662cull, 0x98f54449579b4468ull, 0x5c8a5fb42c7d1bd9ull, 0x39296a789a3bc004ull,
	0x0000000000000118ull,
};

static const struct ecc_def p521x_def = {
	.fp = &p521x_fp, .fn = &p521_fn, .b = p521x_b, .gx = p521x_gx, .gy = p521x_gy,
	.sqrt_exp = p521_sqrt_exp, .nbytes = 66, .bits = 521,
};

ECC_X86_DEFINE_CURVE_AFFINE(ecc_p521_adx, p521x_def, "P-521", RIND_OID_SECP521R1, 66, 521);

/* The field operations by number, for tests/test_ecdh.c (ecc-p521-adx.h). */
void p521x_field_test(enum p521x_test_op op, u64 *r, const u64 *a, const u64 *b)
{
	u64 c[9];

	switch (op) {
	case P521X_T_MUL:	p521x_mul(r, a, b); break;
	case P521X_T_SQR:	p521x_sqr(r, a); break;
	case P521X_T_ADD:	p521x_add(r, a, b); break;
	case P521X_T_SUB:	p521x_sub(r, a, b); break;
	case P521X_T_HALF:	p521x_half(r, a); break;
	case P521X_T_DBL:	p521x_dbl(r, a); break;
	case P521X_T_MUL3:	p521x_mul3(r, a); break;
	case P521X_T_SUB2:	p521x_sub2(r, a, b); break;
	case P521X_T_SUBHALF:	p521x_subhalf(r, a, b); break;
	case P521X_T_INV:	p521x_inv(r, a); break;
	case P521X_T_SUB8:	p521x_sub8(r, a, b); break;
	case P521X_T_SUB4R:	p521x_sub4r(r, a, b); break;
	case P521X_T_SUBSUB:	p521x_mul(c, a, b); p521x_subsub(r, a, b, c); break;
	case P521X_T_SUBSUB2:	p521x_mul(c, a, b); p521x_subsub2(r, a, b, c); break;
	default:		memset(r, 0, 72); break;
	}
}

/* ---- registration -------------------------------------------------------- */

/* The protocol glue registers a driver over a curve implementation (<crypto/ecc.h>). */
ECC_DEFINE_CURVE_DRIVERS(p521_adx, ecc_p521_adx, 300, "x86",
			 rind_cpu_has(RIND_X86_BMI2) && rind_cpu_has(RIND_X86_ADX),
			 "ecdh-nist-p521", "ecdh-nist-p521-adx",
			 "ecdsa-nist-p521", "ecdsa-nist-p521-adx");
