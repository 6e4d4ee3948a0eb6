// SPDX-License-Identifier: MIT
/*
 * P-256 for x86-64 with MULX/ADCX/ADOX: the "ecdh-nist-p256-adx" kpp and
 * "ecdsa-nist-p256-adx" sig drivers.
 * Requires: BMI2 (MULX) and ADX (ADCX, ADOX).
 *
 * The point and scalar arithmetic of the curve template (<crypto/ecc-impl.h>,
 * hooks in <crypto/ecc.h>: complete formulas, signed windows, the
 * fixed-base table, constant time for secret scalars) and
 * <crypto/ecc-p256.h>'s constants, over the field operations below in
 * inline assembly: Montgomery multiplication
 * with R = 2^256 and p's special form (-p^-1 = 1 mod 2^64, so each
 * reduction word is the low word itself, and q p = q 2^96 + q K 2^192 - q
 * with K = 2^64 - 2^32 + 1: q K by a subtraction from the two shifts of
 * q, no MULX), the row products in two carry chains (ADCX for the low
 * halves, ADOX for the high ones) that end in one instruction, the row's
 * sum being known to stay in five words; a dedicated squaring (ten
 * products); additions and subtractions with a masked correction; and
 * the Montgomery multiplication modulo the group order n (general CIOS,
 * q = t0 (-n^-1) per word) for the signing and verification scalars.
 * Every element is kept fully reduced; no branch and no memory index
 * depends on data.  The protocol glue (key formats, checks, RFC 6979
 * nonces) is the generic drivers'.
 *
 * The point formulas run as whole blocks of assembly whose intermediate
 * values live in a stack area addressed from rsp: Zen 3 (and other
 * cores with memory renaming) forwards an rsp-based store to the load of
 * the same slot without the store-forwarding latency, which otherwise
 * sat between every two dependent field operations.  Their products are
 * ordered by what they wait for, independent ones side by side (the
 * product is bound by throughput, about 110 instructions and 31 cycles
 * for two independent ones against 40 for one; its reduction's chain is
 * what a neighbour fills), and the linear steps fused where one pass
 * does (3 (X - Z^2), Y' - 8Y^4 as a - b / 2, R^2 - H^3 - 2V).  On top of
 * the template (which it otherwise follows, and whose exceptional-case
 * arguments it keeps) this file has its own k P (the table's even
 * entries doubled, the five doublings of a window in one call, each
 * squaring its Z' for the next), inversion (half-delta divsteps: 620
 * steps instead of 741, the matrix in SSE2 registers), signing (k^-1 kept
 * in plain form) and verification (one pass of doublings for u1 G + u2 Q,
 * run between non-zero digits, u1 over a width-9 NAF table of G).
 *
 * Measured on an AMD EPYC (Zen 3), rdtsc minima in one process with
 * aws-lc 5.5 (bench/probes/p256-peer.c; the host loaded): the point
 * doubling 285-300 cycles against ecp_nistz256_point_double's 315-320,
 * the full addition 507-550 against ecp_nistz256_point_add's 560-610, the
 * mixed one 355-400 against 410-450; ECDH's k P spends 59% of its time
 * in doublings, 21% in additions, 4% in the inversion; ECDH on the
 * curve level 1.09-1.13x aws-lc's ECDH_compute_key, verification
 * 1.15-1.20x its ECDSA_do_verify.  Signing (k G over the template's
 * table of d 2^(6i) G, this file's loop: one mixed addition and one
 * masked blend a window) on the curve level: about 31k cycles, of which
 * k G 21k (43 mixed additions, ~300 each, 60 for each masked table scan,
 * ~70 of digit and blend work), the two inversions (Z mod p, k mod n)
 * 4.4k each -- their 600 divsteps 2.7k, the matrix updates the rest --
 * and the scalar arithmetic under 1k; 1.42x ECDSA_do_sign (which draws
 * its nonce too), 1.33x EVP_DigestSign through the public API.  On the
 * AMD EPYC (Zen 5, AVX-512) host of the same probe: the inversion 2.6-2.7k
 * cycles (its divsteps 1.8k; bignum_montinv_p256 2.2k), ECDH 1.17x,
 * signing 1.56x, verification 1.24-1.28x, the API rows 1.16x, 1.40x and
 * 1.27x (with the point code page-aligned, see P256X_HOT).
 *
 * The inline assembly avoids rbp (frame pointer in sanitizer builds).
 */
#include <string.h>
#include <rind/types.h>
#include <rind/internal/alg.h>
#include <rind/internal/kpp.h>
#include <rind/internal/sig.h>
#include <rind/internal/util.h>
#include "ecc-p256-adx.h"

static const u64 p256x_c[2] = { 0x00000000ffffffffull, 0xffffffff00000001ull };

/*
 * The field operations are written as macros over operand addresses, so
 * that a whole point doubling can run as one block of assembly (no calls,
 * no register saves per operation).  An operand is an offset and the name
 * of a base-pointer operand: word K of (O, B) is O + K bytes from %[B].
 * Work registers: the operands %[t0]..%[t7], and rax, rcx, rdx.
 */
#define P256X_W(O, B, K)	O "+" K "(" B ")"

/*
 * One Montgomery reduction step: q = T0 (the lowest word, -p^-1 = 1 mod
 * 2^64); (T0..T4, T5) += q p, which clears T0.  q p = q 2^256 - q 2^224
 * + q 2^192 + q 2^96 - q, and -q cancels T0 exactly; with a = q << 32 and
 * b = q >> 32 (q 2^96 = a 2^64 + b 2^128) the rest is a, b, lo, hi added
 * at words 1..4, where (hi, lo) = q K = q 2^64 - q 2^32 + q (K = 2^64 -
 * 2^32 + 1) is lo = q - a, hi = q - b - its borrow: two single-cycle
 * instructions instead of a MULX (one instruction fewer, three cycles
 * less on the chain from one reduction word to the next).  T0 ends as hi.
 */
#define P256X_RED(T0, T1, T2, T3, T4, T5)				\
	"movq %[" T0 "], %%rax\n\t"					\
	"shlq $32, %%rax\n\t"						\
	"movq %[" T0 "], %%rdx\n\t"					\
	"shrq $32, %%rdx\n\t"						\
	"movq %[" T0 "], %%rcx\n\t"					\
	"subq %%rax, %%rcx\n\t"						\
	"sbbq %%rdx, %[" T0 "]\n\t"					\
	"addq %%rax, %[" T1 "]\n\t"					\
	"adcq %%rdx, %[" T2 "]\n\t"					\
	"adcq %%rcx, %[" T3 "]\n\t"					\
	"adcq %[" T0 "], %[" T4 "]\n\t"				\
	"adcq $0, %[" T5 "]\n\t"

/*
 * (T1..T5) += a * b[K], T0 = 0 (the next reduction step's top word); T0
 * is free on entry.  The sum never leaves five words, so neither carry
 * chain has a carry out of T5 and no sixth word is needed: (T1..T5) is
 * the previous reduction step's V < 2m (m = p or n, CIOS's invariant
 * for a, b < m), and V + a b[K] <= 2m - 1 + (m - 1)(2^64 - 1) <
 * m (2^64 + 1) < 2^320 for both of P-256's moduli (m < 2^256 - 2^224 +
 * 2^193).  One instruction after the row instead of three.
 */
#define P256X_MAC(AO, AB, BO, BB, K, T1, T2, T3, T4, T5, T0)		\
	"movq " P256X_W(BO, BB, K) ", %%rdx\n\t"			\
	"xorl %k[" T0 "], %k[" T0 "]\n\t"				\
	"mulxq " P256X_W(AO, AB, "0") ", %%rax, %%rcx\n\t"		\
	"adcxq %%rax, %[" T1 "]\n\t"					\
	"adoxq %%rcx, %[" T2 "]\n\t"					\
	"mulxq " P256X_W(AO, AB, "8") ", %%rax, %%rcx\n\t"		\
	"adcxq %%rax, %[" T2 "]\n\t"					\
	"adoxq %%rcx, %[" T3 "]\n\t"					\
	"mulxq " P256X_W(AO, AB, "16") ", %%rax, %%rcx\n\t"		\
	"adcxq %%rax, %[" T3 "]\n\t"					\
	"adoxq %%rcx, %[" T4 "]\n\t"					\
	"mulxq " P256X_W(AO, AB, "24") ", %%rax, %%rcx\n\t"		\
	"adcxq %%rax, %[" T4 "]\n\t"					\
	"adoxq %%rcx, %[" T5 "]\n\t"					\
	"adcxq %[" T0 "], %[" T5 "]\n\t"

/* (X0..X3) + TOP 2^256 < 2p: minus p unless that borrows, stored; F is free */
#define P256X_FINAL(RO, RB, X0, X1, X2, X3, TOP, F)			\
	"movq %[" X0 "], %%rax\n\t"					\
	"movq %[" X1 "], %%rcx\n\t"					\
	"movq %[" X2 "], %%rdx\n\t"					\
	"movq %[" X3 "], %[" F "]\n\t"					\
	"subq $-1, %%rax\n\t"						\
	"sbbq %[c0], %%rcx\n\t"						\
	"sbbq $0, %%rdx\n\t"						\
	"sbbq %[c1], %[" F "]\n\t"					\
	"sbbq $0, %[" TOP "]\n\t"					\
	"cmovcq %[" X0 "], %%rax\n\t"					\
	"cmovcq %[" X1 "], %%rcx\n\t"					\
	"cmovcq %[" X2 "], %%rdx\n\t"					\
	"cmovcq %[" X3 "], %[" F "]\n\t"				\
	"movq %%rax, " P256X_W(RO, RB, "0") "\n\t"			\
	"movq %%rcx, " P256X_W(RO, RB, "8") "\n\t"			\
	"movq %%rdx, " P256X_W(RO, RB, "16") "\n\t"			\
	"movq %[" F "], " P256X_W(RO, RB, "24") "\n\t"

/* R = A B / 2^256 mod p (t0..t5); R may be A or B */
#define P256X_MUL_(RO, RB, AO, AB, BO, BB)				\
	"movq " P256X_W(BO, BB, "0") ", %%rdx\n\t"			\
	"mulxq " P256X_W(AO, AB, "0") ", %[t0], %[t1]\n\t"		\
	"mulxq " P256X_W(AO, AB, "8") ", %%rax, %[t2]\n\t"		\
	"addq %%rax, %[t1]\n\t"						\
	"mulxq " P256X_W(AO, AB, "16") ", %%rax, %[t3]\n\t"		\
	"adcq %%rax, %[t2]\n\t"						\
	"mulxq " P256X_W(AO, AB, "24") ", %%rax, %[t4]\n\t"		\
	"adcq %%rax, %[t3]\n\t"						\
	"adcq $0, %[t4]\n\t"						\
	"movl $0, %k[t5]\n\t"						\
	P256X_RED("t0", "t1", "t2", "t3", "t4", "t5")			\
	P256X_MAC(AO, AB, BO, BB, "8", "t1", "t2", "t3", "t4", "t5", "t0") \
	P256X_RED("t1", "t2", "t3", "t4", "t5", "t0")			\
	P256X_MAC(AO, AB, BO, BB, "16", "t2", "t3", "t4", "t5", "t0", "t1") \
	P256X_RED("t2", "t3", "t4", "t5", "t0", "t1")			\
	P256X_MAC(AO, AB, BO, BB, "24", "t3", "t4", "t5", "t0", "t1", "t2") \
	P256X_RED("t3", "t4", "t5", "t0", "t1", "t2")			\
	P256X_FINAL(RO, RB, "t4", "t5", "t0", "t1", "t2", "t3")
#define P256X_MUL(...)	P256X_MUL_(__VA_ARGS__)


/* low-half reduction step (as P256X_RED): T0 becomes the new top word */
#define P256X_REDL(T0, T1, T2, T3)					\
	"movq %[" T0 "], %%rax\n\t"					\
	"shlq $32, %%rax\n\t"						\
	"movq %[" T0 "], %%rdx\n\t"					\
	"shrq $32, %%rdx\n\t"						\
	"movq %[" T0 "], %%rcx\n\t"					\
	"subq %%rax, %%rcx\n\t"						\
	"sbbq %%rdx, %[" T0 "]\n\t"					\
	"addq %%rax, %[" T1 "]\n\t"					\
	"adcq %%rdx, %[" T2 "]\n\t"					\
	"adcq %%rcx, %[" T3 "]\n\t"					\
	"adcq $0, %[" T0 "]\n\t"

/*
 * R = A^2 / 2^256 mod p (t0..t7): the six cross products doubled plus the
 * four squares, then the low half reduced (to at most p) and the high
 * half added.
 */
#define P256X_SQR_(RO, RB, AO, AB)					\
	"movq " P256X_W(AO, AB, "0") ", %%rdx\n\t"			\
	"mulxq " P256X_W(AO, AB, "8") ", %[t1], %[t2]\n\t"		\
	"mulxq " P256X_W(AO, AB, "16") ", %%rax, %[t3]\n\t"		\
	"addq %%rax, %[t2]\n\t"						\
	"mulxq " P256X_W(AO, AB, "24") ", %%rax, %[t4]\n\t"		\
	"adcq %%rax, %[t3]\n\t"						\
	"adcq $0, %[t4]\n\t"						\
	"movq " P256X_W(AO, AB, "8") ", %%rdx\n\t"			\
	"mulxq " P256X_W(AO, AB, "16") ", %%rax, %%rcx\n\t"		\
	"mulxq " P256X_W(AO, AB, "24") ", %[t6], %[t5]\n\t"		\
	"addq %%rax, %[t3]\n\t"						\
	"adcq %%rcx, %[t4]\n\t"						\
	"adcq $0, %[t5]\n\t"						\
	"addq %[t6], %[t4]\n\t"						\
	"adcq $0, %[t5]\n\t"						\
	"movq " P256X_W(AO, AB, "16") ", %%rdx\n\t"			\
	"mulxq " P256X_W(AO, AB, "24") ", %%rax, %[t6]\n\t"		\
	"addq %%rax, %[t5]\n\t"						\
	"adcq $0, %[t6]\n\t"						\
	"xorl %k[t7], %k[t7]\n\t"					\
	"addq %[t1], %[t1]\n\t"						\
	"adcq %[t2], %[t2]\n\t"						\
	"adcq %[t3], %[t3]\n\t"						\
	"adcq %[t4], %[t4]\n\t"						\
	"adcq %[t5], %[t5]\n\t"						\
	"adcq %[t6], %[t6]\n\t"						\
	"adcq $0, %[t7]\n\t"						\
	"movq " P256X_W(AO, AB, "0") ", %%rdx\n\t"			\
	"mulxq %%rdx, %[t0], %%rax\n\t"					\
	"addq %%rax, %[t1]\n\t"						\
	"movq " P256X_W(AO, AB, "8") ", %%rdx\n\t"			\
	"mulxq %%rdx, %%rax, %%rcx\n\t"					\
	"adcq %%rax, %[t2]\n\t"						\
	"adcq %%rcx, %[t3]\n\t"						\
	"movq " P256X_W(AO, AB, "16") ", %%rdx\n\t"			\
	"mulxq %%rdx, %%rax, %%rcx\n\t"					\
	"adcq %%rax, %[t4]\n\t"						\
	"adcq %%rcx, %[t5]\n\t"						\
	"movq " P256X_W(AO, AB, "24") ", %%rdx\n\t"			\
	"mulxq %%rdx, %%rax, %%rcx\n\t"					\
	"adcq %%rax, %[t6]\n\t"						\
	"adcq %%rcx, %[t7]\n\t"						\
	P256X_REDL("t0", "t1", "t2", "t3")				\
	P256X_REDL("t1", "t2", "t3", "t0")				\
	P256X_REDL("t2", "t3", "t0", "t1")				\
	P256X_REDL("t3", "t0", "t1", "t2")				\
	"addq %[t4], %[t0]\n\t"						\
	"adcq %[t5], %[t1]\n\t"						\
	"adcq %[t6], %[t2]\n\t"						\
	"adcq %[t7], %[t3]\n\t"						\
	"movl $0, %k[t4]\n\t"						\
	"adcq $0, %[t4]\n\t"						\
	P256X_FINAL(RO, RB, "t0", "t1", "t2", "t3", "t4", "t5")
#define P256X_SQR(...)	P256X_SQR_(__VA_ARGS__)

/* t0..t3 = A */
#define P256X_LOAD(AO, AB)						\
	"movq " P256X_W(AO, AB, "0") ", %[t0]\n\t"			\
	"movq " P256X_W(AO, AB, "8") ", %[t1]\n\t"			\
	"movq " P256X_W(AO, AB, "16") ", %[t2]\n\t"			\
	"movq " P256X_W(AO, AB, "24") ", %[t3]\n\t"

/* R = t0..t3 */
#define P256X_STORE(RO, RB)						\
	"movq %[t0], " P256X_W(RO, RB, "0") "\n\t"			\
	"movq %[t1], " P256X_W(RO, RB, "8") "\n\t"			\
	"movq %[t2], " P256X_W(RO, RB, "16") "\n\t"			\
	"movq %[t3], " P256X_W(RO, RB, "24") "\n\t"

/* t0..t3 += B mod p (t4, t5, rax, rcx, rdx) */
#define P256X_ADDM(BO, BB)						\
	"xorl %k[t4], %k[t4]\n\t"					\
	"addq " P256X_W(BO, BB, "0") ", %[t0]\n\t"			\
	"adcq " P256X_W(BO, BB, "8") ", %[t1]\n\t"			\
	"adcq " P256X_W(BO, BB, "16") ", %[t2]\n\t"			\
	"adcq " P256X_W(BO, BB, "24") ", %[t3]\n\t"			\
	"adcq $0, %[t4]\n\t"						\
	"movq %[t0], %%rax\n\t"					\
	"movq %[t1], %%rcx\n\t"					\
	"movq %[t2], %%rdx\n\t"					\
	"movq %[t3], %[t5]\n\t"					\
	"subq $-1, %%rax\n\t"						\
	"sbbq %[c0], %%rcx\n\t"					\
	"sbbq $0, %%rdx\n\t"						\
	"sbbq %[c1], %[t5]\n\t"					\
	"sbbq $0, %[t4]\n\t"						\
	"cmovncq %%rax, %[t0]\n\t"					\
	"cmovncq %%rcx, %[t1]\n\t"					\
	"cmovncq %%rdx, %[t2]\n\t"					\
	"cmovncq %[t5], %[t3]\n\t"

/* t0..t3 -= B mod p: p added back on a borrow (t4, rax, rcx) */
#define P256X_SUBM(BO, BB)						\
	"subq " P256X_W(BO, BB, "0") ", %[t0]\n\t"			\
	"sbbq " P256X_W(BO, BB, "8") ", %[t1]\n\t"			\
	"sbbq " P256X_W(BO, BB, "16") ", %[t2]\n\t"			\
	"sbbq " P256X_W(BO, BB, "24") ", %[t3]\n\t"			\
	"sbbq %[t4], %[t4]\n\t"					\
	"movl %k[t4], %%eax\n\t"					\
	"movq %[t4], %%rcx\n\t"					\
	"andq %[c1], %%rcx\n\t"					\
	"addq %[t4], %[t0]\n\t"					\
	"adcq %%rax, %[t1]\n\t"					\
	"adcq $0, %[t2]\n\t"						\
	"adcq %%rcx, %[t3]\n\t"

/* R = A + B, A - B mod p (t0..t5) */
#define P256X_ADD_(RO, RB, AO, AB, BO, BB)				\
	P256X_LOAD(AO, AB) P256X_ADDM(BO, BB) P256X_STORE(RO, RB)
#define P256X_ADD(...)	P256X_ADD_(__VA_ARGS__)
#define P256X_SUB_(RO, RB, AO, AB, BO, BB)				\
	P256X_LOAD(AO, AB) P256X_SUBM(BO, BB) P256X_STORE(RO, RB)
#define P256X_SUB(...)	P256X_SUB_(__VA_ARGS__)

/* R = A - B - 2C mod p (t0..t4) */
#define P256X_SUB3B_(RO, RB, AO, AB, BO, BB, CO, CB)			\
	P256X_LOAD(AO, AB) P256X_SUBM(BO, BB) P256X_SUBM(CO, CB) P256X_SUBM(CO, CB) \
	P256X_STORE(RO, RB)
#define P256X_SUB3B(...)	P256X_SUB3B_(__VA_ARGS__)

/* R = 3 (A - B) mod p: A - B stored, then added twice (t0..t5); R distinct from A, B */
#define P256X_SUB3_(RO, RB, AO, AB, BO, BB)				\
	P256X_LOAD(AO, AB) P256X_SUBM(BO, BB) P256X_STORE(RO, RB)	\
	P256X_ADDM(RO, RB) P256X_ADDM(RO, RB) P256X_STORE(RO, RB)
#define P256X_SUB3(...)	P256X_SUB3_(__VA_ARGS__)

/* R = A / 2 mod p: (A + p) / 2 when A is odd (t0..t5) */
#define P256X_HALF_(RO, RB, AO, AB)					\
	"movq " P256X_W(AO, AB, "0") ", %[t0]\n\t"			\
	"movq " P256X_W(AO, AB, "8") ", %[t1]\n\t"			\
	"movq " P256X_W(AO, AB, "16") ", %[t2]\n\t"			\
	"movq " P256X_W(AO, AB, "24") ", %[t3]\n\t"			\
	"movq %[t0], %[t5]\n\t"						\
	"andq $1, %[t5]\n\t"						\
	"negq %[t5]\n\t"						\
	"movl %k[t5], %%eax\n\t"					\
	"movq %[t5], %%rcx\n\t"						\
	"andq %[c1], %%rcx\n\t"						\
	"xorl %k[t4], %k[t4]\n\t"					\
	"addq %[t5], %[t0]\n\t"						\
	"adcq %%rax, %[t1]\n\t"						\
	"adcq $0, %[t2]\n\t"						\
	"adcq %%rcx, %[t3]\n\t"						\
	"adcq $0, %[t4]\n\t"						\
	"shrdq $1, %[t1], %[t0]\n\t"					\
	"shrdq $1, %[t2], %[t1]\n\t"					\
	"shrdq $1, %[t3], %[t2]\n\t"					\
	"shrdq $1, %[t4], %[t3]\n\t"					\
	"movq %[t0], " P256X_W(RO, RB, "0") "\n\t"			\
	"movq %[t1], " P256X_W(RO, RB, "8") "\n\t"			\
	"movq %[t2], " P256X_W(RO, RB, "16") "\n\t"			\
	"movq %[t3], " P256X_W(RO, RB, "24") "\n\t"
#define P256X_HALF(...)	P256X_HALF_(__VA_ARGS__)

/*
 * R = A - B / 2 mod p (t0..t7): B halved in t0..t3 as above, then
 * subtracted from A in t4..t7 with p added back on a borrow.
 */
#define P256X_SUBHALF_(RO, RB, AO, AB, BO, BB)				\
	"movq " P256X_W(BO, BB, "0") ", %[t0]\n\t"			\
	"movq " P256X_W(BO, BB, "8") ", %[t1]\n\t"			\
	"movq " P256X_W(BO, BB, "16") ", %[t2]\n\t"			\
	"movq " P256X_W(BO, BB, "24") ", %[t3]\n\t"			\
	"movq %[t0], %[t5]\n\t"						\
	"andq $1, %[t5]\n\t"						\
	"negq %[t5]\n\t"						\
	"movl %k[t5], %%eax\n\t"					\
	"movq %[t5], %%rcx\n\t"						\
	"andq %[c1], %%rcx\n\t"						\
	"xorl %k[t4], %k[t4]\n\t"					\
	"addq %[t5], %[t0]\n\t"						\
	"adcq %%rax, %[t1]\n\t"						\
	"adcq $0, %[t2]\n\t"						\
	"adcq %%rcx, %[t3]\n\t"						\
	"adcq $0, %[t4]\n\t"						\
	"shrdq $1, %[t1], %[t0]\n\t"					\
	"shrdq $1, %[t2], %[t1]\n\t"					\
	"shrdq $1, %[t3], %[t2]\n\t"					\
	"shrdq $1, %[t4], %[t3]\n\t"					\
	"movq " P256X_W(AO, AB, "0") ", %[t4]\n\t"			\
	"movq " P256X_W(AO, AB, "8") ", %[t5]\n\t"			\
	"movq " P256X_W(AO, AB, "16") ", %[t6]\n\t"			\
	"movq " P256X_W(AO, AB, "24") ", %[t7]\n\t"			\
	"subq %[t0], %[t4]\n\t"						\
	"sbbq %[t1], %[t5]\n\t"						\
	"sbbq %[t2], %[t6]\n\t"						\
	"sbbq %[t3], %[t7]\n\t"						\
	"sbbq %[t0], %[t0]\n\t"						\
	"movl %k[t0], %%eax\n\t"					\
	"movq %[t0], %%rcx\n\t"						\
	"andq %[c1], %%rcx\n\t"						\
	"addq %[t0], %[t4]\n\t"						\
	"adcq %%rax, %[t5]\n\t"						\
	"adcq $0, %[t6]\n\t"						\
	"adcq %%rcx, %[t7]\n\t"						\
	"movq %[t4], " P256X_W(RO, RB, "0") "\n\t"			\
	"movq %[t5], " P256X_W(RO, RB, "8") "\n\t"			\
	"movq %[t6], " P256X_W(RO, RB, "16") "\n\t"			\
	"movq %[t7], " P256X_W(RO, RB, "24") "\n\t"
#define P256X_SUBHALF(...)	P256X_SUBHALF_(__VA_ARGS__)

#define P256X_T6							\
	[t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),	\
	[t4] "=&r"(t4), [t5] "=&r"(t5)
#define P256X_T8	P256X_T6, [t6] "=&r"(t6), [t7] "=&r"(t7)
#define P256X_C		[c0] "m"(p256x_c[0]), [c1] "m"(p256x_c[1])

/* r = a b / 2^256 mod p */
static inline void p256x_mul(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5;

	__asm__ volatile(P256X_MUL("0", "%[r]", "0", "%[a]", "0", "%[b]")
		: P256X_T6
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), P256X_C
		: "rax", "rcx", "rdx", "cc", "memory");
}

/* r = a^2 / 2^256 mod p */
static inline void p256x_sqr(u64 *r, const u64 *a)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7;

	__asm__ volatile(P256X_SQR("0", "%[r]", "0", "%[a]")
		: P256X_T8
		: [r] "r"(r), [a] "r"(a), P256X_C
		: "rax", "rcx", "rdx", "cc", "memory");
}

/* r = a + b mod p */
static inline __attribute__((always_inline)) void p256x_add(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5;

	__asm__ volatile(P256X_ADD("0", "%[r]", "0", "%[a]", "0", "%[b]")
		: P256X_T6
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), P256X_C
		: "rax", "rcx", "rdx", "cc", "memory");
}

/* r = a - b mod p */
static inline __attribute__((always_inline)) void p256x_sub(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4;

	__asm__ volatile(P256X_SUB("0", "%[r]", "0", "%[a]", "0", "%[b]")
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4)
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), P256X_C
		: "rax", "rcx", "cc", "memory");
}

/* r = a / 2 mod p */
static inline void p256x_half(u64 *r, const u64 *a)
{
	u64 t0, t1, t2, t3, t4, t5;

	__asm__ volatile(P256X_HALF("0", "%[r]", "0", "%[a]")
		: P256X_T6
		: [r] "r"(r), [a] "r"(a), P256X_C
		: "rax", "rcx", "cc", "memory");
}

/*
 * r = 2p in Jacobian coordinates, 4M + 4S as one block, intermediate
 * values in a stack scratch area: with S = 4XY^2, M = 3(X - Z^2)(X + Z^2),
 * X' = M^2 - 2S, Y' = M (3S - M^2) - 8Y^4 (= M (S - X') - 8Y^4), Z' = 2YZ.
 * r may alias p.  Words: x at 0, y at 32, z at 64 of a point.  Like the C
 * formulas' local temporaries, the scratch area is not wiped per
 * operation (the callers wipe their accumulators and tables).
 *
 * The products are ordered by what they wait for, independent ones
 * adjacent (each product's reduction is a long chain that the
 * neighbour's multiplications fill): M, 4Y^2 and Z' need only the input
 * and delta = Z^2; S, M^2 and 16Y^4 need those; the last product needs
 * M^2 and S.  P256X_DBL_BODY takes delta from the first scratch slot
 * and, in a run of doublings, squares Z' there for the next one (NEXT)
 * beside M^2, so that the next doubling starts with M rather than with
 * Z^2: three levels of products per doubling instead of four.
 *
 * The body is a macro over the words of the input (PX, PY, PZ off PB)
 * and of the output (RX, RY, RZ off RB), so that p256x_jac_dbl5 can run
 * it on a point kept in the stack area as well.
 */
#define P256X_DBL_BODY(RX, RY, RZ, RB, PX, PY, PZ, PB, NEXT)			\
	P256X_SUB3("64", "%%rsp", PX, PB, "0", "%%rsp")	/* s2 = 3(X - delta) */	\
	P256X_ADD("96", "%%rsp", PX, PB, "0", "%%rsp")	/* s3 = X + delta */	\
	P256X_ADD("192", "%%rsp", PY, PB, PY, PB)	/* s6 = 2Y */		\
	P256X_MUL("128", "%%rsp", "64", "%%rsp", "96", "%%rsp")	/* s4 = M */	\
	P256X_SQR("32", "%%rsp", "192", "%%rsp")	/* s1 = 4Y^2 */		\
	P256X_MUL(RZ, RB, "192", "%%rsp", PZ, PB)	/* Z' = 2YZ */		\
	P256X_MUL("160", "%%rsp", PX, PB, "32", "%%rsp") /* s5 = S = 4XY^2 */	\
	P256X_SQR("64", "%%rsp", "128", "%%rsp")	/* s2 = M^2 */		\
	NEXT								\
	P256X_ADD("224", "%%rsp", "160", "%%rsp", "160", "%%rsp") /* s7 = 2S */ \
	P256X_SQR("32", "%%rsp", "32", "%%rsp")		/* s1 = 16Y^4 */	\
	P256X_LOAD("64", "%%rsp") P256X_SUBM("224", "%%rsp")			\
	P256X_STORE(RX, RB) P256X_STORE("224", "%%rsp")	/* X' = M^2 - 2S */	\
	P256X_SUB("96", "%%rsp", "160", "%%rsp", "224", "%%rsp")	/* S - X' */ \
	P256X_MUL("96", "%%rsp", "128", "%%rsp", "96", "%%rsp")	/* M (S - X') */ \
	P256X_SUBHALF(RY, RB, "96", "%%rsp", "32", "%%rsp")	/* Y' = s3 - 8Y^4 */
#define P256X_DBL(RX, RY, RZ, RB, PX, PY, PZ, PB)				\
	P256X_SQR("0", "%%rsp", PZ, PB)			/* s0 = delta = Z^2 */	\
	P256X_DBL_BODY(RX, RY, RZ, RB, PX, PY, PZ, PB, "")

/*
 * The code of k P (the point formulas, the table scan and p256x_pt_mul)
 * in a section of its own that starts on a page: ECDH's speed depends on
 * where that code falls within a 4 KiB page, by 6-10% on Zen 5 (API ECDH
 * 67k cycles in one placement, 71-75k in five others, the instructions
 * the same: whatever in the front end or the branch predictors is
 * indexed by the low address bits), and without this the placement moved
 * with every change to any code before it in the library.  Page-aligned,
 * it depends on these functions alone (measured: the fast case,
 * bench/probes/p256-peer.c's API rows).  The section's alignment is set
 * by a directive of its own rather than a function's aligned attribute,
 * which clang drops with the function when it inlines it.
 */
#define P256X_HOT	__attribute__((section(".text.p256x_point")))
__asm__(".pushsection .text.p256x_point,\"ax\",@progbits\n\t.p2align 12\n\t.popsection");

P256X_HOT static void p256x_jac_dbl(u64 *r, const u64 *p)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7;

	__asm__ volatile(
		"subq $384, %%rsp\n\t"			/* scratch below the red zone */
		P256X_DBL("0", "32", "64", "%[r]", "0", "32", "64", "%[p]")
		"addq $384, %%rsp\n\t"
		: P256X_T8
		: [r] "r"(r), [p] "r"(p), P256X_C
		: "rax", "rcx", "rdx", "cc", "memory");
}

/*
 * r = 2^n p (n >= 1): n doublings with the point in the stack area (at
 * 256, a loop count at 352), so that no doubling waits for the previous
 * one's stores to reach memory through a register-based address; all
 * but the last square their Z' for the next (the last one's body is a
 * second copy without that).  ECDH's windows run five, verification its
 * runs of doublings between non-zero digits.
 */
P256X_HOT static void p256x_jac_dbln(u64 *r, const u64 *p, unsigned int n)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7;

	__asm__ volatile(
		"movl %[n], %%eax\n\t"		/* before rsp moves: n may be off rsp */
		"subq $512, %%rsp\n\t"
		"decl %%eax\n\t"
		"movl %%eax, 352(%%rsp)\n\t"
		P256X_LOAD("0", "%[p]") P256X_STORE("256", "%%rsp")
		P256X_LOAD("32", "%[p]") P256X_STORE("288", "%%rsp")
		P256X_LOAD("64", "%[p]") P256X_STORE("320", "%%rsp")
		P256X_SQR("0", "%%rsp", "320", "%%rsp")
		"cmpl $0, 352(%%rsp)\n\t"
		"je 2f\n\t"
		"1:\n\t"
		P256X_DBL_BODY("256", "288", "320", "%%rsp", "256", "288", "320", "%%rsp",
			       P256X_SQR("0", "%%rsp", "320", "%%rsp"))
		"decl 352(%%rsp)\n\t"
		"jnz 1b\n\t"
		"2:\n\t"
		P256X_DBL_BODY("256", "288", "320", "%%rsp", "256", "288", "320", "%%rsp", "")
		P256X_LOAD("256", "%%rsp") P256X_STORE("0", "%[r]")
		P256X_LOAD("288", "%%rsp") P256X_STORE("32", "%[r]")
		P256X_LOAD("320", "%%rsp") P256X_STORE("64", "%[r]")
		"addq $512, %%rsp\n\t"
		: P256X_T8
		: [r] "r"(r), [p] "r"(p), [n] "m"(n), P256X_C
		: "rax", "rcx", "rdx", "cc", "memory");
}

static void p256x_jac_dbl5(u64 *r, const u64 *p)
{
	p256x_jac_dbln(r, p, 5);
}

/*
 * o = p + q in Jacobian coordinates: ecc-point.h's jac_add_core (no case
 * analysis; the callers mask or branch), 12M + 4S as one block.
 * s: scratch of 36 words, o = s + 24 on return.
 */
P256X_HOT static void p256x_jac_add(u64 *o, const u64 *p, const u64 *q)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7;

	__asm__ volatile(
		"subq $384, %%rsp\n\t"			/* scratch below the red zone */
		P256X_SQR("0", "%%rsp", "64", "%[p]")			/* s0 = Z1^2 */
		P256X_SQR("32", "%%rsp", "64", "%[q]")			/* s1 = Z2^2 */
		P256X_MUL("128", "%%rsp", "32", "%[p]", "64", "%[q]")	/* s4 = Y1 Z2 */
		P256X_MUL("160", "%%rsp", "32", "%[q]", "64", "%[p]")	/* s5 = Y2 Z1 */
		P256X_MUL("64", "%%rsp", "0", "%[p]", "32", "%%rsp")	/* s2 = U1 = X1 Z2^2 */
		P256X_MUL("96", "%%rsp", "0", "%[q]", "0", "%%rsp")	/* s3 = U2 = X2 Z1^2 */
		P256X_MUL("128", "%%rsp", "128", "%%rsp", "32", "%%rsp")	/* s4 = S1 = Y1 Z2^3 */
		P256X_MUL("160", "%%rsp", "160", "%%rsp", "0", "%%rsp")	/* s5 = S2 = Y2 Z1^3 */
		P256X_SUB("96", "%%rsp", "96", "%%rsp", "64", "%%rsp")	/* s3 = H = U2 - U1 */
		P256X_MUL("192", "%%rsp", "64", "%[p]", "64", "%[q]")	/* s6 = Z1 Z2 */
		P256X_SQR("0", "%%rsp", "96", "%%rsp")			/* s0 = H^2 */
		P256X_SUB("160", "%%rsp", "160", "%%rsp", "128", "%%rsp")	/* s5 = R = S2 - S1 */
		P256X_SQR("32", "%%rsp", "160", "%%rsp")			/* s1 = R^2 */
		P256X_MUL("224", "%%rsp", "192", "%%rsp", "96", "%%rsp")	/* s7 = Z3 = Z1 Z2 H */
		P256X_MUL("64", "%%rsp", "64", "%%rsp", "0", "%%rsp")	/* s2 = V = U1 H^2 */
		P256X_MUL("0", "%%rsp", "96", "%%rsp", "0", "%%rsp")	/* s0 = H^3 */
		P256X_SUB3B("192", "%%rsp", "32", "%%rsp", "0", "%%rsp", "64", "%%rsp") /* X3 = R^2 - H^3 - 2V */
		P256X_MUL("128", "%%rsp", "128", "%%rsp", "0", "%%rsp")	/* S1 H^3 */
		P256X_SUB("64", "%%rsp", "64", "%%rsp", "192", "%%rsp")	/* V - X3 */
		P256X_MUL("64", "%%rsp", "160", "%%rsp", "64", "%%rsp")	/* R (V - X3) */
		P256X_SUB("32", "%[o]", "64", "%%rsp", "128", "%%rsp")	/* Y3 */
		P256X_LOAD("192", "%%rsp") P256X_STORE("0", "%[o]")	/* X3 */
		P256X_LOAD("224", "%%rsp") P256X_STORE("64", "%[o]")	/* Z3 */
		"addq $384, %%rsp\n\t"
		: P256X_T8
		: [o] "r"(o), [p] "r"(p), [q] "r"(q), P256X_C
		: "rax", "rcx", "rdx", "cc", "memory");
}

/*
 * o = p + (x2, y2) in Jacobian coordinates: jac_add_affine_core, 8M + 3S
 * as one block.  s: scratch of 32 words, o = s + 20
 * on return (q: x at 0, y at 32).
 */
P256X_HOT static void p256x_jac_add_affine(u64 *o, const u64 *p, const u64 *q)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7;

	__asm__ volatile(
		"subq $384, %%rsp\n\t"			/* scratch below the red zone */
		P256X_SQR("0", "%%rsp", "64", "%[p]")			/* s0 = Z1^2 */
		P256X_MUL("64", "%%rsp", "32", "%[q]", "64", "%[p]")	/* s2 = Y2 Z1 */
		P256X_MUL("32", "%%rsp", "0", "%[q]", "0", "%%rsp")	/* s1 = U2 = X2 Z1^2 */
		P256X_MUL("64", "%%rsp", "64", "%%rsp", "0", "%%rsp")	/* s2 = S2 = Y2 Z1^3 */
		P256X_SUB("32", "%%rsp", "32", "%%rsp", "0", "%[p]")	/* s1 = H = U2 - X1 */
		P256X_SQR("0", "%%rsp", "32", "%%rsp")			/* s0 = H^2 */
		P256X_SUB("64", "%%rsp", "64", "%%rsp", "32", "%[p]")	/* s2 = R = S2 - Y1 */
		P256X_SQR("128", "%%rsp", "64", "%%rsp")			/* s4 = R^2 */
		P256X_MUL("192", "%%rsp", "64", "%[p]", "32", "%%rsp")	/* s6 = Z3 = Z1 H */
		P256X_MUL("96", "%%rsp", "0", "%[p]", "0", "%%rsp")	/* s3 = V = X1 H^2 */
		P256X_MUL("0", "%%rsp", "32", "%%rsp", "0", "%%rsp")	/* s0 = H^3 */
		P256X_SUB3B("160", "%%rsp", "128", "%%rsp", "0", "%%rsp", "96", "%%rsp") /* X3 = R^2 - H^3 - 2V */
		P256X_MUL("128", "%%rsp", "32", "%[p]", "0", "%%rsp")	/* Y1 H^3 */
		P256X_SUB("96", "%%rsp", "96", "%%rsp", "160", "%%rsp")	/* V - X3 */
		P256X_MUL("96", "%%rsp", "64", "%%rsp", "96", "%%rsp")	/* R (V - X3) */
		P256X_SUB("32", "%[o]", "96", "%%rsp", "128", "%%rsp")	/* Y3 */
		P256X_LOAD("160", "%%rsp") P256X_STORE("0", "%[o]")	/* X3 */
		P256X_LOAD("192", "%%rsp") P256X_STORE("64", "%[o]")	/* Z3 */
		"addq $384, %%rsp\n\t"
		: P256X_T8
		: [o] "r"(o), [p] "r"(p), [q] "r"(q), P256X_C
		: "rax", "rcx", "rdx", "cc", "memory");
}

/*
 * The masked table read of ecc-mul.h (ecc_select) with AVX2 when the CPU
 * has it: entries of 8 or 12 words, every one read, the match found by a
 * vector comparison of its index.  GCC vector types rather than
 * <immintrin.h>, whose parsing cost more than the rest of this file.
 */
typedef u64 p256x_v4 __attribute__((vector_size(32)));

static int p256x_avx2(void)
{
	static int have = -1;
	int h = __atomic_load_n(&have, __ATOMIC_RELAXED);

	if (h < 0) {
		h = rind_cpu_has(RIND_X86_AVX2);
		__atomic_store_n(&have, h, __ATOMIC_RELAXED);
	}
	return h;
}

__attribute__((target("avx2"), noinline)) P256X_HOT
static void p256x_select_avx2(u64 *r, const u64 *table, unsigned int w, unsigned int count,
			      u64 idx)
{
	const p256x_v4 one = { 1, 1, 1, 1 }, want = { idx, idx, idx, idx };
	p256x_v4 a0 = { 0 }, a1 = a0, a2 = a0, cur = one, m, v;
	unsigned int i;

	for (i = 0; i < count; i++) {
		const u64 *s = table + (size_t)i * w;

		m = (p256x_v4)(cur == want);		/* all ones for the match */
		memcpy(&v, s, sizeof(v));
		a0 |= m & v;
		memcpy(&v, s + 4, sizeof(v));
		a1 |= m & v;
		if (w == 12) {
			memcpy(&v, s + 8, sizeof(v));
			a2 |= m & v;
		}
		cur += one;
	}
	memcpy(r, &a0, sizeof(a0));
	memcpy(r + 4, &a1, sizeof(a1));
	if (w == 12)
		memcpy(r + 8, &a2, sizeof(a2));
}

/* 1 when done; 0 (the caller does it) for other sizes or without AVX2. */
static inline int p256x_select(u64 *r, const u64 *table, unsigned int w, unsigned int count,
			       u64 idx)
{
	if ((w != 8 && w != 12) || !p256x_avx2())
		return 0;
	p256x_select_avx2(r, table, w, count, idx);
	return 1;
}

/* Montgomery multiplication modulo the group order n (R = 2^256) */
static const u64 p256x_n[5] = {
	0xf3b9cac2fc632551ull, 0xbce6faada7179e84ull, 0xffffffffffffffffull, 0xffffffff00000000ull,
	0xccd1c8aaee00bc4full,	/* -n^-1 mod 2^64 */
};

/* (T0..T4, T5) += q n with q = T0 (-n^-1) mod 2^64, which clears T0 */
#define P256X_NRED(T0, T1, T2, T3, T4, T5)				\
	"movq %[" T0 "], %%rdx\n\t"					\
	"imulq 32(%[n]), %%rdx\n\t"					\
	"xorl %%eax, %%eax\n\t"						\
	"mulxq 0(%[n]), %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T0 "]\n\t"					\
	"adoxq %%rcx, %[" T1 "]\n\t"					\
	"mulxq 8(%[n]), %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T1 "]\n\t"					\
	"adoxq %%rcx, %[" T2 "]\n\t"					\
	"mulxq 16(%[n]), %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T2 "]\n\t"					\
	"adoxq %%rcx, %[" T3 "]\n\t"					\
	"mulxq 24(%[n]), %%rax, %%rcx\n\t"				\
	"adcxq %%rax, %[" T3 "]\n\t"					\
	"adoxq %%rcx, %[" T4 "]\n\t"					\
	"movl $0, %%eax\n\t"						\
	"adcxq %%rax, %[" T4 "]\n\t"					\
	"adoxq %%rax, %[" T5 "]\n\t"					\
	"adcxq %%rax, %[" T5 "]\n\t"

static inline void p256x_nmul(u64 *r, const u64 *a, const u64 *b)
{
	u64 t0, t1, t2, t3, t4, t5;

	__asm__ volatile(
		"movq 0(%[b]), %%rdx\n\t"
		"mulxq 0(%[a]), %[t0], %[t1]\n\t"
		"mulxq 8(%[a]), %%rax, %[t2]\n\t"
		"addq %%rax, %[t1]\n\t"
		"mulxq 16(%[a]), %%rax, %[t3]\n\t"
		"adcq %%rax, %[t2]\n\t"
		"mulxq 24(%[a]), %%rax, %[t4]\n\t"
		"adcq %%rax, %[t3]\n\t"
		"adcq $0, %[t4]\n\t"
		"movl $0, %k[t5]\n\t"
		P256X_NRED("t0", "t1", "t2", "t3", "t4", "t5")
		P256X_MAC("0", "%[a]", "0", "%[b]", "8", "t1", "t2", "t3", "t4", "t5", "t0")
		P256X_NRED("t1", "t2", "t3", "t4", "t5", "t0")
		P256X_MAC("0", "%[a]", "0", "%[b]", "16", "t2", "t3", "t4", "t5", "t0", "t1")
		P256X_NRED("t2", "t3", "t4", "t5", "t0", "t1")
		P256X_MAC("0", "%[a]", "0", "%[b]", "24", "t3", "t4", "t5", "t0", "t1", "t2")
		P256X_NRED("t3", "t4", "t5", "t0", "t1", "t2")
		/* (t4 t5 t0 t1) + t2 2^256 < 2n: minus n unless that borrows */
		"movq %[t4], %%rax\n\t"
		"movq %[t5], %%rcx\n\t"
		"movq %[t0], %%rdx\n\t"
		"movq %[t1], %[t3]\n\t"
		"subq 0(%[n]), %%rax\n\t"
		"sbbq 8(%[n]), %%rcx\n\t"
		"sbbq 16(%[n]), %%rdx\n\t"
		"sbbq 24(%[n]), %[t3]\n\t"
		"sbbq $0, %[t2]\n\t"
		"cmovcq %[t4], %%rax\n\t"
		"cmovcq %[t5], %%rcx\n\t"
		"cmovcq %[t0], %%rdx\n\t"
		"cmovcq %[t1], %[t3]\n\t"
		"movq %%rax, 0(%[r])\n\t"
		"movq %%rcx, 8(%[r])\n\t"
		"movq %%rdx, 16(%[r])\n\t"
		"movq %[t3], 24(%[r])\n\t"
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4), [t5] "=&r"(t5)
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), [n] "r"(p256x_n)
		: "rax", "rcx", "rdx", "cc", "memory");
}

#define ECC_N			4
#define ECC_GW			6
#define ECC_FP_MUL(r, a, b)	p256x_mul(r, a, b)
#define ECC_FP_SQR(r, a)	p256x_sqr(r, a)
#define ECC_FP_ADD(r, a, b)	p256x_add(r, a, b)
#define ECC_FP_SUB(r, a, b)	p256x_sub(r, a, b)
#define ECC_FP_HALF(r, a)	p256x_half(r, a)
#define ECC_JAC_DBL(r, p)	p256x_jac_dbl((r)->x, (p)->x)
#define ECC_JAC_ADD(o, p, q)	p256x_jac_add((o)->x, (p)->x, (q)->x)
#define ECC_JAC_ADD_AFFINE(o, p, q)	p256x_jac_add_affine((o)->x, (p)->x, (q)->x)
#define ECC_SELECT(r, t, w, c, i)	p256x_select(r, t, w, c, i)
#define ECC_FN_MUL(r, a, b)	p256x_nmul(r, a, b)
static void p256x_fp_inv(u64 *r, const u64 *a);
#define ECC_FP_INV(r, a)	p256x_fp_inv(r, a)
/*
 * The template's own ecc_impl_sign and ecc_impl_verify go unused (this
 * file has its own below): no warning for those.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <crypto/ecc-impl.h>
#pragma GCC diagnostic pop
#include <crypto/ecc-p256.h>

/*
 * Constant-time inversion modulo p or n: Bernstein and Yang's divsteps as
 * in ecc-inv.h (batches of 62 on the low words, the matrix applied to
 * signed 62-bit limbs by ecc_by_update_fg/de), in the "half-delta" form
 * (delta starts at 1/2; kept as zeta = -(delta + 1/2)): for 256-bit
 * inputs and moduli 590 of those steps always bring g to 0 (Wuille's
 * computer-checked bound, safegcd-bounds), against 741 for the template's
 * form.  Ten batches of 60 (ecc-divsteps-x86.h's) = 600 steps; steps after
 * g = 0 change nothing.
 * ecc-inv.h's start and reduction of the result around them (ecc_by_inv_with,
 * the steps in ecc-divsteps-x86.h, shared with P-384).  Used through ECC_FP_INV
 * for p and by this file's signing and verification for n.
 */
#define P256X_BY_BATCHES 10

#include "ecc-divsteps-x86.h"

/*
 * The first batch's (d, e) = M (0, 1) / 2^62 mod m: (v, r) plus the
 * multiples of m that clear their low 62 bits, without the products of
 * the known zero and one (ecc_by_update_de's 30 products, 10 here).
 */
static inline void p256x_by_de_first(s64 *d, s64 *e, const struct ecc_by_mat *t, const s64 *m62,
				     u64 minv)
{
	s64 md = (s64)(((0 - (u64)t->v) * minv) & ECC_BY_M62);
	s64 me = (s64)(((0 - (u64)t->r) * minv) & ECC_BY_M62);
	ecc_s128 cd = (ecc_s128)md * m62[0] + t->v, ce = (ecc_s128)me * m62[0] + t->r;
	int i;

	cd >>= 62;
	ce >>= 62;
	for (i = 1; i < ECC_BY_NL; i++) {
		cd += (ecc_s128)md * m62[i];
		ce += (ecc_s128)me * m62[i];
		d[i - 1] = (s64)((u64)cd & ECC_BY_M62);
		e[i - 1] = (s64)((u64)ce & ECC_BY_M62);
		cd >>= 62;
		ce >>= 62;
	}
	d[ECC_BY_NL - 1] = (s64)cd;
	e[ECC_BY_NL - 1] = (s64)ce;
}

/* The last batch's d = (u d + v e) / 2^62 mod m alone (e is not needed after it). */
static inline void p256x_by_d_last(s64 *d, const s64 *e, const struct ecc_by_mat *t,
				   const s64 *m62, u64 minv)
{
	ecc_s128 cd = (ecc_s128)t->u * d[0] + (ecc_s128)t->v * e[0];
	s64 md = (s64)(((0 - (u64)cd) * minv) & ECC_BY_M62);
	int i;

	cd += (ecc_s128)md * m62[0];
	cd >>= 62;
	for (i = 1; i < ECC_BY_NL; i++) {
		cd += (ecc_s128)t->u * d[i] + (ecc_s128)t->v * e[i] + (ecc_s128)md * m62[i];
		d[i - 1] = (s64)((u64)cd & ECC_BY_M62);
		cd >>= 62;
	}
	d[ECC_BY_NL - 1] = (s64)cd;
}

/*
 * After the last batch f is +1 or -1 (g = 0, gcd 1: a in [1, m) and m
 * prime), or m itself for a = 0 (whose d stays 0, so the sign does not
 * matter): its low 62 bits (1, or 2^62 - 1 for -1) say which, and they
 * need only the first two limbs of u f + v g.  All ones for -1.
 */
static inline u64 p256x_by_f_sign(const s64 *f, const s64 *g, const struct ecc_by_mat *t)
{
	ecc_s128 cf = (ecc_s128)t->u * f[0] + (ecc_s128)t->v * g[0];

	cf >>= 62;
	cf += (ecc_s128)t->u * f[1] + (ecc_s128)t->v * g[1];
	return 0 - (((u64)cf >> 1) & 1);
}

/*
 * x^-1 = d * sign(f) into [0, m): |d| <= 10 m (one m per batch at most),
 * so w = d sign(f) + 16 m lies in (6 m, 26 m), below 32 m < 2^261; with q
 * = floor(w / 2^256) and c = 2^256 - m, w - q m = (w mod 2^256) + q c,
 * below 2^256 + 32 c < 2 m (c < 2^225 for both of P-256's moduli), then
 * one masked subtraction of m.  In place of ecc_by_finish's 32 m and six
 * masked subtractions.  q is secret: a multiplication, no branch.
 */
static void p256x_by_finish(fe r, const s64 *d, u64 sgn, const u64 *m)
{
	u64 w[5], t[5], c[4], q, borrow, mask;
	ecc_u128 acc;
	int i;

	ecc_by_to_words(w, d);
	acc = sgn & 1;
	for (i = 0; i < 5; i++) {		/* w = d sign(f) */
		acc += (u64)(w[i] ^ sgn);
		w[i] = (u64)acc;
		acc >>= 64;
	}
	acc = 0;
	for (i = 0; i < 5; i++) {		/* + 16 m */
		u64 mi = (i < 4 ? m[i] << 4 : 0) | (i ? m[i - 1] >> 60 : 0);

		acc += (ecc_u128)w[i] + mi;
		w[i] = (u64)acc;
		acc >>= 64;
	}
	borrow = 0;
	for (i = 0; i < 4; i++) {		/* c = 2^256 - m */
		ecc_u128 x = (ecc_u128)0 - m[i] - borrow;

		c[i] = (u64)x;
		borrow = (u64)(x >> 64) & 1;
	}
	q = w[4];
	acc = 0;
	for (i = 0; i < 4; i++) {		/* (w mod 2^256) + q c */
		acc += (ecc_u128)q * c[i] + w[i];
		w[i] = (u64)acc;
		acc >>= 64;
	}
	w[4] = (u64)acc;
	borrow = 0;
	for (i = 0; i < 5; i++) {		/* - m unless that borrows */
		ecc_u128 x = (ecc_u128)w[i] - (i < 4 ? m[i] : 0) - borrow;

		t[i] = (u64)x;
		borrow = (u64)(x >> 64) & 1;
	}
	mask = 0 - borrow;
	for (i = 0; i < 4; i++)
		r[i] = (w[i] & mask) | (t[i] & ~mask);
	memzero_explicit(w, sizeof(w));
	memzero_explicit(t, sizeof(t));
}

/*
 * r = a^-1 mod m (0 for 0), a < m, plain integers; minv64 = -m^-1 mod 2^64.
 * ecc_by_inv_with's loop (the same steps and results) with its first and
 * last batches cut to what they need: the first starts from d = 0, e = 1;
 * the last updates d alone and only the low limbs of f that give its
 * sign; and p256x_by_finish's reduction.  (Moving each (d, e) update
 * behind the next batch's steps in program order measured no better.)
 */
static void p256x_inv_mod(fe r, const fe a, const u64 *m, u64 minv64)
{
	s64 f[ECC_BY_NL], g[ECC_BY_NL], d[ECC_BY_NL], e[ECC_BY_NL], m62[ECC_BY_NL], zeta = -1;
	u64 minv = (0 - minv64) & ECC_BY_M62, sgn;
	struct ecc_by_mat mt;
	int i;

	ecc_by_start(f, g, d, e, m62, a, m);
	for (i = 0; i < P256X_BY_BATCHES; i++) {
		zeta = ecc_x86_divsteps(zeta, (u64)f[0] | (u64)f[1] << 62,
					(u64)g[0] | (u64)g[1] << 62, &mt);
		if (i == P256X_BY_BATCHES - 1)
			break;
		ecc_by_update_fg(f, g, &mt);
		if (!i)
			p256x_by_de_first(d, e, &mt, m62, minv);
		else
			ecc_by_update_de(d, e, &mt, m62, minv);
	}
	sgn = p256x_by_f_sign(f, g, &mt);
	p256x_by_d_last(d, e, &mt, m62, minv);
	p256x_by_finish(r, d, sgn, m);
	memzero_explicit(f, sizeof(f));
	memzero_explicit(g, sizeof(g));
	memzero_explicit(d, sizeof(d));
	memzero_explicit(e, sizeof(e));
	memzero_explicit(&mt, sizeof(mt));
	memzero_explicit(&sgn, sizeof(sgn));
}

/* R^3 mod p: a^-1 in Montgomery form is (a R)^-1 R^3 / R = a^-1 R */
static const u64 p256x_r3[4] = {
	0xfffffffd0000000aull, 0xffffffedfffffff7ull, 0x00000005fffffffcull, 0x0000001800000001ull,
};

static void p256x_fp_inv(u64 *r, const u64 *a)
{
	fe t;

	p256x_inv_mod(t, a, p256_fp.m, p256_fp.m0inv);
	p256x_mul(r, t, p256x_r3);
	memzero_explicit(t, sizeof(t));
}


/*
 * acc = the sum s where ms, the affine q (Z = 1) where mq, acc itself
 * elsewhere (ms, mq: all ones or zero, never both): the masked choice
 * after a window's addition, one pass over the twelve words instead of
 * ecc-point.h's cmovs and copies (jac_add_ct, jac_add_affine_ct and
 * pt_mul_base's own, about 60-100 cycles a window).
 */
static ECC_INLINE void p256x_blend_aff(struct ecc_pt *acc, const struct ecc_pt *s,
				       const struct ecc_aff *q, u64 ms, u64 mq)
{
	u64 ma = ~(ms | mq);
	int i;

	for (i = 0; i < 4; i++) {
		acc->x[i] = (s->x[i] & ms) | (q->x[i] & mq) | (acc->x[i] & ma);
		acc->y[i] = (s->y[i] & ms) | (q->y[i] & mq) | (acc->y[i] & ma);
		acc->z[i] = (s->z[i] & ms) | (p256_fp.one[i] & mq) | (acc->z[i] & ma);
	}
}

/* The same with a Jacobian q. */
static ECC_INLINE void p256x_blend(struct ecc_pt *acc, const struct ecc_pt *s,
				   const struct ecc_pt *q, u64 ms, u64 mq)
{
	u64 ma = ~(ms | mq);
	int i;

	for (i = 0; i < 4; i++) {
		acc->x[i] = (s->x[i] & ms) | (q->x[i] & mq) | (acc->x[i] & ma);
		acc->y[i] = (s->y[i] & ms) | (q->y[i] & mq) | (acc->y[i] & ma);
		acc->z[i] = (s->z[i] & ms) | (q->z[i] & mq) | (acc->z[i] & ma);
	}
}

/*
 * acc += q (Jacobian), constant time: jac_add_ct's result (q when acc is
 * the identity, acc when q is, else the sum; acc = +-q excluded by the
 * caller's argument) from p256x_jac_add and one blend.
 */
static ECC_INLINE void p256x_add_ct(struct ecc_pt *acc, const struct ecc_pt *q)
{
	u64 pinf = 0 - fp_is_zero(acc->z), qinf = 0 - fp_is_zero(q->z);
	struct ecc_pt s;

	p256x_jac_add(s.x, acc->x, q->x);
	p256x_blend(acc, &s, q, ~(pinf | qinf), pinf);
}

/*
 * r = k P (projective), constant time in k: ecc-mul.h's pt_mul (signed
 * windows of 5 bits over P..16P, the argument for its exceptional cases
 * unchanged) with the table's even entries doubled from the half (2i P =
 * 2 (i P): a doubling, cheaper than an addition and exact for every
 * point) and the odd ones as 2i P + P (never the identity nor +-P, since
 * 2 <= 2i <= 14 < n - 1), and the five doublings of a window in one call.
 */
P256X_HOT static void p256x_pt_mul(struct ecc_pt *r, const fe k, const struct ecc_pt *p)
{
	const struct ecc_def *D = &p256_def;
	struct ecc_pt table[ECC_VT], acc, t;
	int w, i, nwin = (256 + ECC_VW) / ECC_VW;
	struct ecc_aff pa;
	u64 mag, neg;

	memcpy(pa.x, p->x, sizeof(fe));
	memcpy(pa.y, p->y, sizeof(fe));
	table[0] = *p;
	for (i = 1; i < (int)ECC_VT; i++) {
		if (i & 1)			/* (i + 1) P = 2 ((i + 1) / 2 P) */
			p256x_jac_dbl(table[i].x, table[i / 2].x);
		else				/* (i + 1) P = i P + P */
			p256x_jac_add_affine(table[i].x, table[i - 1].x, pa.x);
	}
	/* The top window's digit is not negative (k < 2^256). */
	ecc_booth(ecc_bits(k, (nwin - 1) * ECC_VW - 1, ECC_VW), ECC_VW, &mag, &neg);
	pt_select(&acc, table, ECC_VT, mag, D);
	for (w = nwin - 2; w >= 0; w--) {
		/*
		 * The window's entry read (and negated) before the doublings,
		 * which it does not depend on: the masked scan's result is in
		 * memory long before the addition loads it, instead of the
		 * addition waiting on the scan's last step (2-3% of ECDH).
		 */
		ecc_booth(ecc_bits(k, w * ECC_VW - 1, ECC_VW), ECC_VW, &mag, &neg);
		pt_select(&t, table, ECC_VT, mag, D);
		fp_cneg(t.y, neg, D);
		p256x_jac_dbl5(acc.x, acc.x);
		if (w) {
			p256x_add_ct(&acc, &t);
		} else {
			jac_to_proj(&acc, &acc, D);
			jac_to_proj(&t, &t, D);
			pt_add(r, &acc, &t, D);
		}
	}
	memzero_explicit(table, sizeof(table));
	memzero_explicit(&acc, sizeof(acc));
	memzero_explicit(&t, sizeof(t));
	memzero_explicit(&pa, sizeof(pa));
}

/*
 * r = k G (projective), constant time in k: ecc-mul.h's pt_mul_base (the
 * same table of d 2^(6 i) G, signed windows and argument for the
 * exceptional cases: only the last window's addition can meet acc = +-q,
 * and it goes through the complete formula) with each window's mixed
 * addition followed by one blend: the sum where the digit is not 0 and
 * acc is not the identity, the entry where acc is, acc where the digit
 * is 0.  Before the table is there (the first few uses), p256x_pt_mul on G.
 */
static void p256x_pt_mul_base(struct ecc_pt *r, const fe k)
{
	const struct ecc_def *D = &p256_def;
	const struct ecc_aff *gtab = ecc_gtab_get();
	int w, nwin = ecc_gnwin(D);
	struct ecc_pt acc, s, o;
	struct ecc_aff t;
	u64 mag, neg, nz, inf;

	if (!gtab) {
		pt_base(&s, D);
		p256x_pt_mul(r, k, &s);
		return;
	}
	/* window 0 straight into the accumulator: (x, y, 1) or (0, 1, 0) */
	ecc_booth(ecc_bits(k, -1, ECC_GW), ECC_GW, &mag, &neg);
	aff_select(&t, gtab, ECC_GT, mag);
	fp_cneg(t.y, neg, D);
	nz = ~ecc_eq_mask(0, mag);
	memset(&acc, 0, sizeof(acc));
	memcpy(acc.y, D->fp->one, sizeof(fe));
	p256x_blend_aff(&acc, &acc, &t, 0, nz);
	for (w = 1; w < nwin - 1; w++) {
		ecc_booth(ecc_bits(k, w * ECC_GW - 1, ECC_GW), ECC_GW, &mag, &neg);
		aff_select(&t, gtab + (size_t)w * ECC_GT, ECC_GT, mag);
		fp_cneg(t.y, neg, D);
		nz = ~ecc_eq_mask(0, mag);
		inf = 0 - fp_is_zero(acc.z);
		p256x_jac_add_affine(s.x, acc.x, t.x);
		p256x_blend_aff(&acc, &s, &t, nz & ~inf, nz & inf);
	}
	ecc_booth(ecc_bits(k, w * ECC_GW - 1, ECC_GW), ECC_GW, &mag, &neg);
	aff_select(&t, gtab + (size_t)w * ECC_GT, ECC_GT, mag);
	fp_cneg(t.y, neg, D);
	jac_to_proj(&s, &acc, D);
	memcpy(o.x, t.x, sizeof(fe));
	memcpy(o.y, t.y, sizeof(fe));
	memcpy(o.z, D->fp->one, sizeof(fe));
	pt_add(&o, &s, &o, D);			/* once per multiplication */
	nz = ~ecc_eq_mask(0, mag);
	p256x_blend(&s, &o, &o, nz, 0);
	*r = s;
	memzero_explicit(&acc, sizeof(acc));
	memzero_explicit(&s, sizeof(s));
	memzero_explicit(&o, sizeof(o));
	memzero_explicit(&t, sizeof(t));
}

/* ECDH: ecc-impl.h's ecc_impl_ecdh over p256x_pt_mul. */
static int p256x_ecdh(u8 *out, const u8 *d, const u8 *xy)
{
	const struct ecc_def *D = &p256_def;
	struct ecc_pt p, r;
	fe k, x, zi;
	u64 inf;
	int err;

	err = ecc_load_point(&p, xy, D);
	if (err)
		return err;
	ecc_from_bytes(k, d, 32);
	p256x_pt_mul(&r, k, &p);
	/* x = X / Z; Z = 0 (the identity) gives 0 here and the error below */
	p256x_fp_inv(zi, r.z);
	p256x_mul(x, r.x, zi);
	fp_from(x, x, D);
	/* whether the result is the identity is the verdict, public */
	inf = fp_is_zero(r.z);
	rind_declassify(&inf, sizeof(inf));
	err = inf ? -EINVAL : 0;
	if (!err)
		ecc_to_bytes(out, x, 32);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(&r, sizeof(r));
	memzero_explicit(x, sizeof(x));
	memzero_explicit(zi, sizeof(zi));
	return err;
}

/*
 * ECDSA signing: ecc-impl.h's ecc_impl_sign with this file's inversion
 * modulo n.  Constant time in d and k.
 */
static int p256x_sign(u8 *rb, u8 *sb, const u8 *d, const u8 *kb, const u8 *eb)
{
	const struct ecc_def *D = &p256_def;
	const struct ecc_mod *N = D->fn;
	struct ecc_pt R;
	fe k, x, zi, r, e, dm, km, rm, em, s;
	u64 zero;

	ecc_from_bytes(k, kb, 32);
	p256x_pt_mul_base(&R, k);
	p256x_fp_inv(zi, R.z);
	p256x_mul(x, R.x, zi);
	fp_from(x, x, D);
	ecc_reduce_once(r, x, N->m);			/* x < p < 2n */
	ecc_from_bytes(e, eb, 32);
	ecc_reduce_once(e, e, N->m);			/* e < 2^256 < 2n */
	ecc_from_bytes(dm, d, 32);
	fn_to(dm, dm, D);
	fn_to(rm, r, D);
	fn_to(em, e, D);
	p256x_inv_mod(km, k, N->m, N->m0inv);		/* k^-1, plain */
	p256x_nmul(s, rm, dm);				/* r d */
	mod_add(s, s, em, N);				/* (e + r d) R */
	p256x_nmul(s, s, km);				/* k^-1 (e + r d), plain */
	/* whether a new nonce is needed is the verdict, public */
	zero = ecc_is_zero(r) | ecc_is_zero(s);
	rind_declassify(&zero, sizeof(zero));
	ecc_to_bytes(rb, r, 32);
	ecc_to_bytes(sb, s, 32);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(km, sizeof(km));
	memzero_explicit(dm, sizeof(dm));
	memzero_explicit(&R, sizeof(R));
	memzero_explicit(x, sizeof(x));
	memzero_explicit(zi, sizeof(zi));
	memzero_explicit(s, sizeof(s));
	return zero ? -EAGAIN : 0;
}

/*
 * Verification (public data, variable time): u1 G + u2 Q in one pass of
 * doublings (Straus / Shamir), u2 in a width-5 NAF over Q, 3Q, ..., 15Q
 * (Jacobian, built per call) and u1 in a width-9 NAF over G, 3G, ...,
 * 255G (affine, 8 KiB, built once per process; width 10's 16 KiB was no
 * faster, measured): about 256 / 10 mixed additions
 * for u1 instead of the 43 of the fixed-base comb, and no doubling of its
 * own.  The first few verifications (the registry's self-tests) use the
 * template's separate multiplications instead, so that a process that
 * verifies once does not build the table.
 */
#define P256X_GW	9			/* u1's NAF width */
#define P256X_GWT	(1 << (P256X_GW - 2))	/* G, 3G, ..., 255G */
#define P256X_QW	5			/* u2's NAF width */
#define P256X_QWT	(1 << (P256X_QW - 2))	/* Q, 3Q, ..., 15Q */

static struct ecc_aff p256x_gw[P256X_GWT];
static int p256x_gw_ok;
static unsigned int p256x_gw_uses;
static pthread_once_t p256x_gw_once = PTHREAD_ONCE_INIT;

static ECC_COLD void p256x_gw_build(void)
{
	struct ecc_pt pr[P256X_GWT], g2;
	fe prod[P256X_GWT], inv, t;
	int i;

	pt_base(&pr[0], &p256_def);
	jac_dbl(&g2, &pr[0], &p256_def);
	for (i = 1; i < P256X_GWT; i++)
		jac_add_vt(&pr[i], &pr[i - 1], &g2, &p256_def);
	/* one inversion for all (Jacobian: x = X / Z^2, y = Y / Z^3) */
	memcpy(prod[0], pr[0].z, sizeof(fe));
	for (i = 1; i < P256X_GWT; i++)
		p256x_mul(prod[i], prod[i - 1], pr[i].z);
	p256x_fp_inv(inv, prod[P256X_GWT - 1]);
	for (i = P256X_GWT - 1; i >= 0; i--) {
		fe zi, zi2;

		if (i) {
			p256x_mul(zi, inv, prod[i - 1]);	/* 1 / Z_i */
			p256x_mul(inv, inv, pr[i].z);
		} else {
			memcpy(zi, inv, sizeof(fe));
		}
		p256x_sqr(zi2, zi);
		p256x_mul(p256x_gw[i].x, pr[i].x, zi2);
		p256x_mul(t, zi2, zi);
		p256x_mul(p256x_gw[i].y, pr[i].y, t);
	}
	__atomic_store_n(&p256x_gw_ok, 1, __ATOMIC_RELEASE);
}

static const struct ecc_aff *p256x_gw_get(void)
{
	if (__atomic_load_n(&p256x_gw_uses, __ATOMIC_RELAXED) < ECC_GTAB_AFTER &&
	    __atomic_fetch_add(&p256x_gw_uses, 1, __ATOMIC_RELAXED) < ECC_GTAB_AFTER)
		return NULL;
	pthread_once(&p256x_gw_once, p256x_gw_build);
	return __atomic_load_n(&p256x_gw_ok, __ATOMIC_ACQUIRE) ? p256x_gw : NULL;
}

/* bits pos .. pos + w - 1 of k < 2^256 (w <= 32; bits past 255 are 0) */
static inline u64 p256x_bits_at(const fe k, int pos, unsigned int w)
{
	int li = pos / 64, sh = pos % 64;
	u64 v;

	if (li > 3)
		return 0;
	v = k[li] >> sh;
	if (sh && li < 3)
		v |= k[li + 1] << (64 - sh);
	return v & (((u64)1 << w) - 1);
}

/*
 * Width-w NAF of k < 2^256 (public): digits odd or 0, |d| < 2^(w-1), at
 * least w - 1 zeros after each non-zero one; returns the length (<= 257).
 * k is read a window at a time with a carry (the borrow of a negative
 * digit) instead of being rewritten.
 */
static int p256x_wnaf(short *naf, const fe k, unsigned int w)
{
	int i = 0, len = 0;
	u64 carry = 0;

	memset(naf, 0, 258 * sizeof(*naf));
	while (i < 257) {
		u64 win = p256x_bits_at(k, i, w) + carry;

		if (!(win & 1)) {		/* bit i + carry is 0 or 2: carry unchanged */
			i++;
			continue;
		}
		/* win < 2^w odd: the digit clears bits i .. i + w - 1 */
		if (win >= (u64)1 << (w - 1)) {
			naf[i] = (short)((s64)win - ((s64)1 << w));
			carry = 1;
		} else {
			naf[i] = (short)win;
			carry = 0;
		}
		len = i + 1;
		i += (int)w;
	}
	return len;
}

/*
 * r = u1 G + u2 Q (Jacobian), public scalars; q affine (Z = 1).  The
 * doublings between non-zero digits run as one p256x_jac_dbln each; the
 * digits +-1 of u2 add Q itself by the mixed addition.
 */
static void p256x_mul2_vt(struct ecc_pt *r, const fe u1, const fe u2, const struct ecc_pt *q,
			  const struct ecc_aff *gw)
{
	const struct ecc_def *D = &p256_def;
	short n1[258], n2[258];
	struct ecc_pt tab[P256X_QWT], q2, t;
	struct ecc_aff a, qa[2];
	int i, l1 = p256x_wnaf(n1, u1, P256X_GW), l2 = p256x_wnaf(n2, u2, P256X_QW);
	unsigned int nd = 0;

	tab[0] = *q;
	jac_dbl(&q2, q, D);
	for (i = 1; i < P256X_QWT; i++)
		jac_add_vt(&tab[i], &tab[i - 1], &q2, D);
	memcpy(qa[0].x, q->x, sizeof(fe));
	memcpy(qa[0].y, q->y, sizeof(fe));
	qa[1] = qa[0];
	fp_neg(qa[1].y, qa[1].y, D);
	pt_identity(r, D);
	for (i = (l1 > l2 ? l1 : l2) - 1; i >= 0; i--) {
		int d2 = i < l2 ? n2[i] : 0, d1 = i < l1 ? n1[i] : 0;

		nd++;
		if (!d1 && !d2)
			continue;
		/* the doublings up to this bit; none while r is the identity */
		if (!fp_is_zero(r->z))
			p256x_jac_dbln(r->x, r->x, nd);
		nd = 0;
		if (d2 == 1 || d2 == -1) {
			jac_add_affine_vt(r, r, &qa[d2 < 0], D);
		} else if (d2) {
			t = tab[(d2 < 0 ? -d2 : d2) >> 1];
			if (d2 < 0)
				fp_neg(t.y, t.y, D);
			jac_add_vt(r, r, &t, D);
		}
		if (d1) {
			a = gw[(d1 < 0 ? -d1 : d1) >> 1];
			if (d1 < 0)
				fp_neg(a.y, a.y, D);
			jac_add_affine_vt(r, r, &a, D);
		}
	}
	if (nd && !fp_is_zero(r->z))
		p256x_jac_dbln(r->x, r->x, nd);
}

/*
 * ECDSA verification (public data, variable time): ecc-impl.h's
 * ecc_impl_verify with this file's inversion modulo n and the joint
 * multiplication above.
 */
static int p256x_verify(const u8 *xy, const u8 *eb, const u8 *rb, const u8 *sb)
{
	const struct ecc_def *D = &p256_def;
	const struct ecc_mod *N = D->fn;
	const struct ecc_aff *gtab, *gw;
	struct ecc_pt q, a, b;
	fe r, s, e, w, u1, u2, z2, t;
	u64 c = 0;
	int i;

	ecc_from_bytes(r, rb, 32);
	ecc_from_bytes(s, sb, 32);
	if (ecc_is_zero(r) || ecc_is_zero(s) || !ecc_lt(r, N->m) || !ecc_lt(s, N->m))
		return -EBADMSG;
	if (ecc_load_point(&q, xy, D))
		return -EBADMSG;
	ecc_from_bytes(e, eb, 32);
	ecc_reduce_once(e, e, N->m);
	p256x_inv_mod(w, s, N->m, N->m0inv);		/* s^-1, plain */
	p256x_nmul(u1, e, w);				/* e s^-1 / R */
	fn_to(u1, u1, D);				/* e s^-1 mod n, reduced */
	p256x_nmul(u2, r, w);
	fn_to(u2, u2, D);

	gw = p256x_gw_get();
	if (gw) {
		p256x_mul2_vt(&a, u1, u2, &q, gw);
	} else {
		gtab = ecc_gtab_get();
		if (gtab) {
			jac_mul_base_vt(&a, u1, gtab, D);
		} else {
			pt_base(&b, D);
			jac_mul_vt(&a, u1, &b, D);
		}
		jac_mul_vt(&b, u2, &q, D);
		jac_add_vt(&a, &a, &b, D);
	}
	if (fp_is_zero(a.z))
		return -EBADMSG;
	/* x(R) mod n == r: X == r Z^2, or X == (r + n) Z^2 when r + n < p */
	p256x_sqr(z2, a.z);
	fp_to(t, r, D);
	p256x_mul(t, t, z2);
	if (fp_eq(t, a.x))
		return 0;
	for (i = 0; i < 4; i++) {
		ecc_u128 sum = (ecc_u128)r[i] + N->m[i] + c;

		t[i] = (u64)sum;
		c = (u64)(sum >> 64);
	}
	if (c || !ecc_lt(t, D->fp->m))
		return -EBADMSG;
	fp_to(t, t, D);
	p256x_mul(t, t, z2);
	return fp_eq(t, a.x) ? 0 : -EBADMSG;
}

/* The fused linear steps on their own, for the tests (p256x_field_test). */
#define P256X_FUSED(name, body)						\
static void name(u64 *r, const u64 *a, const u64 *b)				\
{									\
	u64 t0, t1, t2, t3, t4, t5, t6, t7;				\
									\
	__asm__ volatile("subq $64, %%rsp\n\t"				\
			 "movq 0(%[b]), %%rax\n\t" "movq %%rax, 32(%%rsp)\n\t"	\
			 "movq 8(%[b]), %%rax\n\t" "movq %%rax, 40(%%rsp)\n\t"	\
			 "movq 16(%[b]), %%rax\n\t" "movq %%rax, 48(%%rsp)\n\t"	\
			 "movq 24(%[b]), %%rax\n\t" "movq %%rax, 56(%%rsp)\n\t"	\
			 body							\
			 "addq $64, %%rsp\n\t"				\
		: P256X_T8							\
		: [r] "r"(r), [a] "r"(a), [b] "r"(b), P256X_C			\
		: "rax", "rcx", "rdx", "cc", "memory");			\
}
/* r = a - 3b, 3 (a - b) (b copied to the stack first, r distinct from it), a - b / 2 */
P256X_FUSED(p256x_sub3b, P256X_SUB3B("0", "%[r]", "0", "%[a]", "32", "%%rsp", "32", "%%rsp"))
P256X_FUSED(p256x_sub3, P256X_SUB3("0", "%%rsp", "0", "%[a]", "32", "%%rsp")
	    P256X_LOAD("0", "%%rsp") P256X_STORE("0", "%[r]"))
P256X_FUSED(p256x_subhalf, P256X_SUBHALF("0", "%[r]", "0", "%[a]", "32", "%%rsp"))

/* The field operations by number, for tests/test_ecdh.c (ecc-p256-adx.h). */
void p256x_field_test(enum p256x_test_op op, u64 *r, const u64 *a, const u64 *b)
{
	switch (op) {
	case P256X_T_MUL:	p256x_mul(r, a, b); break;
	case P256X_T_SQR:	p256x_sqr(r, a); break;
	case P256X_T_ADD:	p256x_add(r, a, b); break;
	case P256X_T_SUB:	p256x_sub(r, a, b); break;
	case P256X_T_HALF:	p256x_half(r, a); break;
	case P256X_T_NMUL:	p256x_nmul(r, a, b); break;
	case P256X_T_INV:	p256x_fp_inv(r, a); break;
	case P256X_T_SUB3B:	p256x_sub3b(r, a, b); break;
	case P256X_T_SUB3:	p256x_sub3(r, a, b); break;
	case P256X_T_SUBHALF:	p256x_subhalf(r, a, b); break;
	case P256X_T_PINV:	p256x_inv_mod(r, a, p256_fp.m, p256_fp.m0inv); break;
	case P256X_T_NINV:	p256x_inv_mod(r, a, p256x_n, p256x_n[4]); break;
	default:		memset(r, 0, 32); break;
	}
}

void p256x_jac_dbl_test(u64 *r, const u64 *p)
{
	p256x_jac_dbl(r, p);
}

void p256x_jac_dbln_test(u64 *r, const u64 *p, unsigned int n)
{
	if (n == 5)
		p256x_jac_dbl5(r, p);
	else
		p256x_jac_dbln(r, p, n);
}

void p256x_jac_add_test(u64 *o, const u64 *p, const u64 *q)
{
	p256x_jac_add(o, p, q);
}

void p256x_jac_add_affine_test(u64 *o, const u64 *p, const u64 *q)
{
	p256x_jac_add_affine(o, p, q);
}

/* ECC_DEFINE_CURVE's struct, with this file's signing and verification. */
static void ecc_gtab_build(void)
{
	ecc_gtab_fill(&p256_def);
}

/*
 * The operations the shared protocol code (algs/ecc-proto.c) calls: key
 * generation and batched signing with this file's k G as well (the
 * template's macro names pt_mul_base; it expands here).
 */
#define pt_mul_base(r, k, D)	p256x_pt_mul_base(r, k)
ECC_DEFINE_PROTO_OPS(p256_def)
#undef pt_mul_base

static int p256x_scalar_ok(const u8 *d)
{
	return ecc_impl_scalar_ok(d, &p256_def);
}

static void p256x_reduce_n(u8 *o, const u8 *i)
{
	ecc_impl_reduce_n(o, i, &p256_def);
}

static void p256x_mul_base(u8 *xy, const u8 *d)
{
	ecc_impl_mul_base(xy, d, &p256_def);
}

static int p256x_point_check(const u8 *xy)
{
	return ecc_impl_point_check(xy, &p256_def);
}

static int p256x_decompress(u8 *xy, const u8 *x, unsigned int odd)
{
	return ecc_impl_decompress(xy, x, odd, &p256_def);
}

/* A batch shares its inversions (algs/ecc-proto.c): one each for all of it. */
static void p256x_sign_batch(u8 *r, u8 *s, const u8 *d, const u8 *k, const u8 *e, unsigned int n,
			     int *err)
{
	ecc_impl_sign_batch(r, s, d, k, e, n, err, &p256_def);
}

const struct ecc_curve ecc_p256_adx = {
	.jwk_crv = "P-256",
	.nbytes = 32,
	.bits = 256,
	.oid = RIND_OID_SECP256R1,
	.scalar_ok = p256x_scalar_ok,
	.reduce_n = p256x_reduce_n,
	.mul_base = p256x_mul_base,
	.point_check = p256x_point_check,
	.decompress = p256x_decompress,
	.ecdh = p256x_ecdh,
	.sign = p256x_sign,
	.verify = p256x_verify,
	.sign_batch = p256x_sign_batch,
};

/* ---- registration -------------------------------------------------------- */

/* The protocol glue registers a driver over a curve implementation (<crypto/ecc.h>). */
ECC_DEFINE_CURVE_DRIVERS(p256_adx, ecc_p256_adx, 300, "x86",
			 rind_cpu_has(RIND_X86_BMI2) && rind_cpu_has(RIND_X86_ADX),
			 "ecdh-nist-p256", "ecdh-nist-p256-adx",
			 "ecdsa-nist-p256", "ecdsa-nist-p256-adx");
