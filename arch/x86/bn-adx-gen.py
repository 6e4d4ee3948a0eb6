#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
Writes arch/x86/bn-adx-8x8.S and bn-adx-8x8u.S (committed; the build
does not run this):
Montgomery multiplication and squaring for n % 8 == 0 limbs with
MULX/ADCX/ADOX, the accumulator in an 8-register window.

    python3 arch/x86/bn-adx-gen.py > arch/x86/bn-adx-8x8.S
    python3 arch/x86/bn-adx-gen.py unrolled > arch/x86/bn-adx-8x8u.S

The unrolled piece is the 8x8 block: eight rows, row j adding
rdx = mult[j] times op[0..7] to the window W0..W7 (t[base + j ..]),
W0's word leaving (stored) and a new top word entering.  Each row's
value fits 9 words (W + op * mult < 2^576), so no carry leaves a row:
the products' high halves go up the OF chain (ADOX), the low halves
the CF chain (ADCX), both closed into the new top word.  The window's
registers rotate by one a row (the top word lands in the register W0
left), so after eight rows the names are back where they started and
a block can sit in a loop.  Between blocks the words of t that the
window now covers are added in with one ADC chain, its carry kept in
a register (rbp) for the next block's add.
"""

import sys

W0 = ["%r8", "%r9", "%r10", "%r11", "%r12", "%r13", "%r14", "%r15"]
S = "%rbx"        # the second high-half temporary
CARRY = "%rbp"    # the carry of the last between-blocks add (0 or 1)
MULT = "%rcx"     # the multipliers' base (b, a, or the q slots)
OP = "%rsi"       # the streamed operand's block
OUT = "%rdi"      # t at the block's base word

# Stack frame after the six pushes.
FRAME_SLOTS = ["R", "A", "B", "M", "M0INV", "N", "T", "ZERO", "CS", "SCNT", "K", "SBASE", "REP"]
F = {name: 8 * i for i, name in enumerate(FRAME_SLOTS)}
F["Q"] = 8 * len(FRAME_SLOTS)
ZERO = "%d(%%rsp)" % F["ZERO"]   # 0: ADCX/ADOX of a carry (no register left)
FRAME = F["Q"] + 64

out = []


def e(s=""):
    out.append(("\t" + s) if s and not s.endswith(":") else s)


def r32(r):
    return {"%rbx": "%ebx", "%rbp": "%ebp"}.get(r, r + "d")


def full_row(W, j, store=True, qcalc=False):
    """Row j of a full block; returns the rotated window."""
    if qcalc:
        e("movq\t%s, %%rdx" % W[0])
        e("imulq\t%d(%%rsp), %%rdx" % F["M0INV"])
        e("movq\t%%rdx, %d(%%rsp)" % (F["Q"] + 8 * j))
    else:
        e("movq\t%d(%s), %%rdx" % (8 * j, MULT))
    e("xorl\t%eax, %eax")                       # CF = OF = 0
    e("mulxq\t0(%s), %%rax, %s" % (OP, S))
    e("adcxq\t%s, %%rax" % W[0])
    if store:
        e("movq\t%%rax, %d(%s)" % (8 * j, OUT))
    hp, fr = S, W[0]
    for i in range(1, 8):
        e("mulxq\t%d(%s), %%rax, %s" % (8 * i, OP, fr))
        e("adcxq\t%%rax, %s" % W[i])
        e("adoxq\t%s, %s" % (hp, W[i]))
        hp, fr = fr, hp
    assert hp == W[0] and fr == S
    e("adcxq\t%s, %s" % (ZERO, hp))
    e("adoxq\t%s, %s" % (ZERO, hp))
    return W[1:] + [W[0]]


def tri_row(W, j):
    """Row j of a diagonal block of the squaring: op[i] mult[j] for i > j only."""
    e("movq\t%s, %d(%s)" % (W[0], 8 * j, OUT))   # nothing lands on t[base + j]
    if j == 7:
        e("xorl\t%s, %s" % (r32(W[0]), r32(W[0])))
        return W[1:] + [W[0]]
    e("movq\t%d(%s), %%rdx" % (8 * j, MULT))
    e("xorl\t%eax, %eax")
    i = j + 1
    # the high halves alternate so that the last (i = 7) is in W[0]'s register
    h = W[0] if (7 - i) % 2 == 0 else S
    other = S if h == W[0] else W[0]
    e("mulxq\t%d(%s), %%rax, %s" % (8 * i, OP, h))
    e("adcxq\t%%rax, %s" % W[i])
    hp, fr = h, other
    for i in range(j + 2, 8):
        e("mulxq\t%d(%s), %%rax, %s" % (8 * i, OP, fr))
        e("adcxq\t%%rax, %s" % W[i])
        e("adoxq\t%s, %s" % (hp, W[i]))
        hp, fr = fr, hp
    assert hp == W[0]
    e("adcxq\t%s, %s" % (ZERO, hp))
    e("adoxq\t%s, %s" % (ZERO, hp))
    return W[1:] + [W[0]]


def block(kind):
    W = list(W0)
    for j in range(8):
        if kind == "full":
            W = full_row(W, j)
        elif kind == "q":
            W = full_row(W, j, store=False, qcalc=True)
        else:
            W = tri_row(W, j)
    assert W == W0
    e("leaq\t64(%s), %s" % (OP, OP))
    e("leaq\t64(%s), %s" % (OUT, OUT))


def add_mem():
    """W += t[OUT .. OUT + 7] + CARRY, CARRY = the carry out (kept in a
    register: through a stack slot it cost 12% of a block)."""
    e("shrq\t$1, %s" % CARRY)                  # CF = the carry in, CARRY = 0
    for i, r in enumerate(W0):
        e("adcq\t%d(%s), %s" % (8 * i, OUT, r))
    e("adcq\t%s, %s" % (CARRY, CARRY))


def add_carry_store():
    """The strip's top words (fresh in t): W + CARRY, stored."""
    e("shrq\t$1, %s" % CARRY)
    for r in W0:
        e("adcq\t$0, %s" % r)
    store_w()


def load_w():
    for i, r in enumerate(W0):
        e("movq\t%d(%s), %s" % (8 * i, OUT, r))


def store_w():
    for i, r in enumerate(W0):
        e("movq\t%s, %d(%s)" % (r, 8 * i, OUT))


def push_all():
    for r in ["%rbp", "%rbx", "%r12", "%r13", "%r14", "%r15"]:
        e("pushq\t%s" % r)
        e(".cfi_adjust_cfa_offset 8")
        e(".cfi_rel_offset %s, 0" % r)
    e("subq\t$%d, %%rsp" % FRAME)
    e(".cfi_adjust_cfa_offset %d" % FRAME)
    e("movq\t$0, %s" % ZERO)


def pop_all():
    e("addq\t$%d, %%rsp" % FRAME)
    e(".cfi_adjust_cfa_offset -%d" % FRAME)
    for r in ["%r15", "%r14", "%r13", "%r12", "%rbx", "%rbp"]:
        e("popq\t%s" % r)
        e(".cfi_adjust_cfa_offset -8")
        e(".cfi_restore %s" % r)


def zero_low(words_reg="%rax"):
    """t[0 .. n-1] = 0: what strip 0 reads (the window and the words it adds)."""
    e("movq\t%d(%%rsp), %%rdi" % F["T"])
    e("movq\t%d(%%rsp), %%rcx" % F["N"])
    e("shrq\t$2, %rcx")
    e("xorl\t%eax, %eax")
    e("1:")
    for i in range(4):
        e("movq\t%%rax, %d(%%rdi)" % (8 * i))
    e("leaq\t32(%rdi), %rdi")
    e("decq\t%rcx")
    e("jnz\t1b")


def func_head(name):
    e("")
    e(".globl\t%s" % name)
    e(".hidden\t%s" % name)
    e(".type\t%s, @function" % name)
    e(".balign\t32")
    e("%s:" % name)
    e(".cfi_startproc")
    e("endbr64")


def lea_arg(slot, off, reg):
    e("movq\t%d(%%rsp), %s" % (F[slot], reg))
    if off:
        e("leaq\t%d(%s), %s" % (off, reg, reg))


def zero_w():
    for r in W0:
        e("xorl\t%s, %s" % (r32(r), r32(r)))


def run_blocks(count, with_add, looped):
    """count full blocks, each after an add_mem when with_add: unrolled,
    or (looped, count > 1) one block's code in a loop on the K slot (the
    block moves OP and OUT itself; DEC leaves CARRY alone and add_mem and
    the block reset the flags they read)."""
    if count <= 1 or not looped:
        for _ in range(count):
            if with_add:
                add_mem()
            block("full")
        return
    e("movq\t$%d, %d(%%rsp)" % (count, F["K"]))
    e("1:")
    if with_add:
        add_mem()
    block("full")
    e("decq\t%d(%%rsp)" % F["K"])
    e("jnz\t1b")


def fixed_size(n, looped=False):
    """bnx_sqr<n>_adx and bnx_mul<n>_adx: the same blocks with every loop
    unrolled (no counters, strip 0 starting from registers of zeros).
    looped: the strips still unrolled, but each strip's run of full blocks
    one block in a loop (the code a quarter the size at n = 32)."""
    N = n // 8
    # ---- k squarings in one call (r8: k >= 1, public), the same body ----
    func_head("bnx_sqr%dk_adx" % n)
    push_all()
    e("movq\t%%rdi, %d(%%rsp)" % F["R"])
    e("movq\t%%rsi, %d(%%rsp)" % F["A"])
    e("movq\t%%rdx, %d(%%rsp)" % F["M"])
    e("movq\t%%rcx, %d(%%rsp)" % F["M0INV"])
    e("movq\t%%r9, %d(%%rsp)" % F["T"])
    e("leaq\t-1(%r8), %rax")
    e("movq\t%%rax, %d(%%rsp)" % F["REP"])      # squarings after this one
    e("jmp\t.Lsqbody%d" % n)
    e(".cfi_endproc")
    e(".size\tbnx_sqr%dk_adx, .-bnx_sqr%dk_adx" % (n, n))

    # ---- squaring ----
    func_head("bnx_sqr%d_adx" % n)
    push_all()
    e("movq\t%%rdi, %d(%%rsp)" % F["R"])
    e("movq\t%%rsi, %d(%%rsp)" % F["A"])
    e("movq\t%%rdx, %d(%%rsp)" % F["M"])
    e("movq\t%%rcx, %d(%%rsp)" % F["M0INV"])
    e("movq\t%%r9, %d(%%rsp)" % F["T"])        # r8: n, known here
    e("movq\t$0, %d(%%rsp)" % F["REP"])
    e(".Lsqbody%d:" % n)
    for st in range(N):
        lea_arg("A", 64 * st, MULT)
        e("movq\t%s, %s" % (MULT, OP))
        lea_arg("T", 128 * st, OUT)
        if st == 0:
            zero_w()
        else:
            load_w()
        block("tri")
        e("xorl\t%ebp, %ebp")
        run_blocks(N - 1 - st, st > 0, looped)
        if st and st + 1 < N:
            add_carry_store()
        else:
            store_w()
    # t = 2 t + sum a_i^2 2^(128 i)
    e("movq\t%d(%%rsp), %%rsi" % F["A"])
    e("movq\t%d(%%rsp), %%rdi" % F["T"])
    e("xorl\t%eax, %eax")
    for k in range(n):
        e("movq\t%d(%%rsi), %%rdx" % (8 * k))
        e("mulxq\t%rdx, %r10, %r11")
        e("movq\t%d(%%rdi), %%r8" % (16 * k))
        e("movq\t%d(%%rdi), %%r9" % (16 * k + 8))
        e("adcxq\t%r8, %r8")
        e("adcxq\t%r9, %r9")
        e("adoxq\t%r10, %r8")
        e("adoxq\t%r11, %r9")
        e("movq\t%%r8, %d(%%rdi)" % (16 * k))
        e("movq\t%%r9, %d(%%rdi)" % (16 * k + 8))
    e("jmp\t.Lreduce%d" % n)
    e(".cfi_endproc")
    e(".size\tbnx_sqr%d_adx, .-bnx_sqr%d_adx" % (n, n))

    # ---- multiplication ----
    func_head("bnx_mul%d_adx" % n)
    push_all()
    e("movq\t%%rdi, %d(%%rsp)" % F["R"])
    e("movq\t%%rsi, %d(%%rsp)" % F["A"])
    e("movq\t%%rdx, %d(%%rsp)" % F["B"])
    e("movq\t%%rcx, %d(%%rsp)" % F["M"])
    e("movq\t%%r8, %d(%%rsp)" % F["M0INV"])
    e("movq\t%d(%%rsp), %%rax" % (56 + FRAME))  # t, the 7th argument
    e("movq\t%%rax, %d(%%rsp)" % F["T"])
    e("movq\t$0, %d(%%rsp)" % F["REP"])
    for st in range(N):
        lea_arg("B", 64 * st, MULT)
        lea_arg("A", 0, OP)
        lea_arg("T", 64 * st, OUT)
        if st == 0:
            zero_w()
        else:
            load_w()
        e("xorl\t%ebp, %ebp")
        if st:
            block("full")
            run_blocks(N - 1, True, looped)
        else:
            run_blocks(N, False, looped)
        if st:
            add_carry_store()
        else:
            store_w()

    # ---- the reduction, both entries' ----
    e(".Lreduce%d:" % n)
    for st in range(N):
        lea_arg("M", 0, OP)
        lea_arg("T", 64 * st, OUT)
        load_w()
        block("q")
        e("xorl\t%ebp, %ebp")
        e("leaq\t%d(%%rsp), %s" % (F["Q"], MULT))
        run_blocks(N - 1, True, looped)
        add_mem()
        if st:
            e("addq\t%d(%%rsp), %s" % (F["CS"], W0[0]))
            for r in W0[1:]:
                e("adcq\t$0, %s" % r)
            e("adcq\t$0, %s" % CARRY)
        if st + 1 < N:
            e("movq\t%%rbp, %d(%%rsp)" % F["CS"])
            store_w()
    # r = t[n..2n-1] - m: t[n..2n-9] in memory (OUT - 8n + ...), the top eight in W
    e("movq\t%d(%%rsp), %%rdi" % F["T"])
    e("movq\t%d(%%rsp), %%rsi" % F["R"])
    e("movq\t%d(%%rsp), %%rbx" % F["M"])
    e("xorl\t%eax, %eax")                       # CF = 0
    for i in range(n - 8):
        e("movq\t%d(%%rdi), %%rax" % (8 * (n + i)))
        e("sbbq\t%d(%%rbx), %%rax" % (8 * i))
        e("movq\t%%rax, %d(%%rsi)" % (8 * i))
    for k, r in enumerate(W0):
        i = n - 8 + k
        e("movq\t%s, %%rax" % r)
        e("sbbq\t%d(%%rbx), %%rax" % (8 * i))
        e("movq\t%%rax, %d(%%rsi)" % (8 * i))
    e("sbbq\t$0, %rbp")                         # CF: keep t (t < 2m)
    # r = CF ? t : t - m, by CMOVC (it reads its source either way; MOV
    # leaves CF): one ALU op a word where the mask's XOR/AND/XOR took
    # three (n = 16: 1-2% of a product)
    for i in range(n):
        e("movq\t%d(%%rsi), %%rdx" % (8 * i))
        if i < n - 8:
            e("cmovcq\t%d(%%rdi), %%rdx" % (8 * (n + i)))
        else:
            e("cmovcq\t%s, %%rdx" % W0[i - (n - 8)])
        e("movq\t%%rdx, %d(%%rsi)" % (8 * i))
    # bnx_sqr<n>k_adx: the next squaring, of r, in the same frame (the
    # count is public; the q slots are overwritten, and wiped once below)
    e("cmpq\t$0, %d(%%rsp)" % F["REP"])
    e("je\t.Lsqdone%d" % n)
    e("decq\t%d(%%rsp)" % F["REP"])
    e("movq\t%d(%%rsp), %%rax" % F["R"])
    e("movq\t%%rax, %d(%%rsp)" % F["A"])
    e("jmp\t.Lsqbody%d" % n)
    e(".Lsqdone%d:" % n)
    e("xorl\t%eax, %eax")
    for i in range(8):
        e("movq\t%%rax, %d(%%rsp)" % (F["Q"] + 8 * i))
    e("movq\t%%rax, %d(%%rsp)" % F["CS"])         # a carry of the secret sum
    pop_all()
    e("ret")
    e(".cfi_endproc")
    e(".size\tbnx_mul%d_adx, .-bnx_mul%d_adx" % (n, n))


FIXED = (16, 24, 32)    # RSA-2048, -3072, -4096's CRT halves
# Sizes whose strips' block runs stay loops (fixed_size(looped=True)):
# unrolled whole, bnx_mul32_adx alone was 45 KiB (with bnx_sqr32_adx 58,
# beyond the 32 KiB L1i and the op cache), and on this loaded host a
# 2048-bit exponentiation's on-CPU median was ~1.5x its minimum against
# aws-lc's ~1.2x: 0.83-0.91x aws-lc at the median, 1.07-1.13x at the
# minimum.  Looped, 32 KiB for both (24 limbs: 23 KiB, from 33), the
# minimum the same or better and the median 1.05-1.10x aws-lc.
LOOPED = (24, 32)

HEADER = """/* SPDX-License-Identifier: MIT */
/*
 * Generated by arch/x86/bn-adx-gen.py (which says how the blocks work);
 * edit that and regenerate.  Requires: BMI2, ADX.
 *
 *   void bnx_mulr_adx(u64 *r, const u64 *a, const u64 *b, const u64 *m,
 *                     u64 m0inv, u64 n, u64 *t);
 *   void bnx_sqr_adx(u64 *r, const u64 *a, const u64 *m, u64 m0inv, u64 n, u64 *t);
 *
 * r = a b / 2^(64 n) mod m, r = a^2 / 2^(64 n) mod m, for n a multiple of
 * 8 (8 <= n <= 128), a < R, b < m (a < m for the squaring); t is scratch
 * of 2 n words; r may alias a or b (written only at the end).
 *
 * Three phases, each in strips of eight rows walking 8x8 blocks with the
 * accumulator in registers (r8-r15):
 *   1. t = a b (strip s: b[8s..8s+7] times a), or for the squaring the
 *      cross products a_i a_j, i < j, only (strip s starts with the
 *      triangle of its diagonal block), then t = 2 t + the squares;
 *   2. the Montgomery reduction, shared: strip s computes its eight
 *      q = t[i] m0inv in its first block (against m[0..7]) and keeps them
 *      on the stack for the rest of m's blocks; the strip's carry out of
 *      t's top goes to the next strip's last add;
 *   3. r = t[n..2n-1] - m, kept or not by CMOVC on the borrow.
 * The q slots and the carry slot are wiped before return.
 *
 * bn-adx-8x8u.S has the same with the loops unrolled, n = 16, 24, 32.
 *
 * No branch or address depends on a, b or m (loop counts depend on n
 * only): constant time.
 */

\t.text
"""


UHEADER = """/* SPDX-License-Identifier: MIT */
/*
 * Generated by arch/x86/bn-adx-gen.py; edit that and regenerate.
 * Requires: BMI2, ADX.
 *
 *   void bnx_sqr<n>_adx(u64 *r, const u64 *a, const u64 *m, u64 m0inv, u64 n, u64 *t);
 *   void bnx_mul<n>_adx(u64 *r, const u64 *a, const u64 *b, const u64 *m,
 *                       u64 m0inv, u64 n, u64 *t);
 *   void bnx_sqr<n>k_adx(u64 *r, const u64 *a, const u64 *m, u64 m0inv, u64 k, u64 *t);
 *
 * The last: r = a^(2^k) / R^(2^k - 1) mod m, k >= 1 squarings in one call
 * (one frame, one wipe; the exponentiation's runs of squarings).
 * for n = 16, 24 and 32 only (the n argument is not read): bn-adx-8x8.S's
 * bnx_sqr_adx and bnx_mulr_adx with the loops unrolled -- no strip
 * counters, strip 0 starting from registers of zeros, the top eight words
 * of the result subtracted from the registers -- 4 to 6% faster.  At
 * n = 16 every block is unrolled; at 24 and 32 each strip's run of full
 * blocks is one block in a loop (a counter on the stack, n-derived: the
 * code fits the L1i and keeps its speed on a loaded core; bn-adx-gen.py).
 * Same arguments, conditions and constant time as those.
 */

\t.text
"""


def main_unrolled():
    e(UHEADER)
    for n in FIXED:
        fixed_size(n, looped=n in LOOPED)
    e("")
    e(".section .note.GNU-stack, \"\", @progbits")
    print("\n".join(out))


def main():
    e(HEADER)

    # ---------------- bnx_sqr_adx ----------------
    func_head("bnx_sqr_adx")
    push_all()
    e("movq\t%%rdi, %d(%%rsp)" % F["R"])
    e("movq\t%%rsi, %d(%%rsp)" % F["A"])
    e("movq\t%%rdx, %d(%%rsp)" % F["M"])
    e("movq\t%%rcx, %d(%%rsp)" % F["M0INV"])
    e("movq\t%%r8, %d(%%rsp)" % F["N"])
    e("movq\t%%r9, %d(%%rsp)" % F["T"])
    zero_low()
    # strips s = 0 .. N-1; SBASE = 8 s (words of a), K = blocks right of the diagonal
    e("movq\t$0, %d(%%rsp)" % F["SBASE"])
    e("movq\t%d(%%rsp), %%rax" % F["N"])
    e("shrq\t$3, %rax")
    e("movq\t%%rax, %d(%%rsp)" % F["SCNT"])
    e(".Lsq_strip:")
    e("movq\t%d(%%rsp), %%rax" % F["SBASE"])
    e("movq\t%d(%%rsp), %%rcx" % F["A"])
    e("leaq\t(%rcx,%rax,8), %rcx")              # &a[8s]: multipliers
    e("movq\t%rcx, %rsi")                       # the diagonal block
    e("movq\t%d(%%rsp), %%rdi" % F["T"])
    e("shlq\t$4, %rax")
    e("addq\t%rax, %rdi")                       # &t[16s]
    e("xorl\t%ebp, %ebp")
    e("movq\t%d(%%rsp), %%rax" % F["SCNT"])
    e("decq\t%rax")
    e("movq\t%%rax, %d(%%rsp)" % F["K"])
    load_w()
    block("tri")
    e(".Lsq_blk:")
    e("cmpq\t$0, %d(%%rsp)" % F["K"])
    e("je\t.Lsq_end")
    add_mem()
    block("full")
    e("decq\t%d(%%rsp)" % F["K"])
    e("jmp\t.Lsq_blk")
    e(".Lsq_end:")
    add_carry_store()
    e("addq\t$8, %d(%%rsp)" % F["SBASE"])
    e("decq\t%d(%%rsp)" % F["SCNT"])
    e("jnz\t.Lsq_strip")

    # t = 2 t + sum a_i^2 2^(128 i)
    e("movq\t%d(%%rsp), %%rsi" % F["A"])
    e("movq\t%d(%%rsp), %%rdi" % F["T"])
    e("movq\t%d(%%rsp), %%rcx" % F["N"])
    e("shrq\t$1, %rcx")
    e("xorl\t%eax, %eax")                       # CF = OF = 0
    e(".Lsq_diag:")
    for k in range(2):
        e("movq\t%d(%%rsi), %%rdx" % (8 * k))
        e("mulxq\t%rdx, %r10, %r11")
        e("movq\t%d(%%rdi), %%r8" % (16 * k))
        e("movq\t%d(%%rdi), %%r9" % (16 * k + 8))
        e("adcxq\t%r8, %r8")
        e("adcxq\t%r9, %r9")
        e("adoxq\t%r10, %r8")
        e("adoxq\t%r11, %r9")
        e("movq\t%%r8, %d(%%rdi)" % (16 * k))
        e("movq\t%%r9, %d(%%rdi)" % (16 * k + 8))
    e("leaq\t16(%rsi), %rsi")
    e("leaq\t32(%rdi), %rdi")
    e("loop\t.Lsq_diag")                        # leaves CF and OF alone
    e("jmp\t.Lreduce")
    e(".cfi_endproc")
    e(".size\tbnx_sqr_adx, .-bnx_sqr_adx")

    # ---------------- bnx_mulr_adx ----------------
    func_head("bnx_mulr_adx")
    push_all()
    e("movq\t%%rdi, %d(%%rsp)" % F["R"])
    e("movq\t%%rsi, %d(%%rsp)" % F["A"])
    e("movq\t%%rdx, %d(%%rsp)" % F["B"])
    e("movq\t%%rcx, %d(%%rsp)" % F["M"])
    e("movq\t%%r8, %d(%%rsp)" % F["M0INV"])
    e("movq\t%%r9, %d(%%rsp)" % F["N"])
    e("movq\t%d(%%rsp), %%rax" % (56 + FRAME))  # t, the 7th argument
    e("movq\t%%rax, %d(%%rsp)" % F["T"])
    zero_low()
    e("movq\t%d(%%rsp), %%rax" % F["N"])
    e("shrq\t$3, %rax")
    e("movq\t%%rax, %d(%%rsp)" % F["SCNT"])
    e("movq\t%d(%%rsp), %%rcx" % F["B"])
    e("movq\t%d(%%rsp), %%rdi" % F["T"])
    e(".Lmul_strip:")
    e("movq\t%%rcx, %d(%%rsp)" % F["B"])        # &b[8s]
    e("movq\t%%rdi, %d(%%rsp)" % F["SBASE"])    # &t[8s]
    e("movq\t%d(%%rsp), %%rsi" % F["A"])
    e("xorl\t%ebp, %ebp")
    e("movq\t%d(%%rsp), %%rax" % F["N"])
    e("shrq\t$3, %rax")
    e("decq\t%rax")
    e("movq\t%%rax, %d(%%rsp)" % F["K"])
    load_w()
    block("full")
    e(".Lmul_blk:")
    e("cmpq\t$0, %d(%%rsp)" % F["K"])
    e("je\t.Lmul_end")
    add_mem()
    block("full")
    e("decq\t%d(%%rsp)" % F["K"])
    e("jmp\t.Lmul_blk")
    e(".Lmul_end:")
    add_carry_store()
    e("movq\t%d(%%rsp), %%rcx" % F["B"])
    e("leaq\t64(%rcx), %rcx")
    e("movq\t%d(%%rsp), %%rdi" % F["SBASE"])
    e("leaq\t64(%rdi), %rdi")
    e("decq\t%d(%%rsp)" % F["SCNT"])
    e("jnz\t.Lmul_strip")

    # ---------------- the reduction, both entries' ----------------
    e(".Lreduce:")
    e("movq\t$0, %d(%%rsp)" % F["CS"])
    e("movq\t%d(%%rsp), %%rax" % F["N"])
    e("shrq\t$3, %rax")
    e("movq\t%%rax, %d(%%rsp)" % F["SCNT"])
    e("movq\t%d(%%rsp), %%rdi" % F["T"])
    e(".Lred_strip:")
    e("movq\t%%rdi, %d(%%rsp)" % F["SBASE"])    # &t[8s]
    e("movq\t%d(%%rsp), %%rsi" % F["M"])
    e("leaq\t%d(%%rsp), %%rcx" % F["Q"])
    e("xorl\t%ebp, %ebp")
    e("movq\t%d(%%rsp), %%rax" % F["N"])
    e("shrq\t$3, %rax")
    e("decq\t%rax")
    e("movq\t%%rax, %d(%%rsp)" % F["K"])
    load_w()
    block("q")
    e(".Lred_blk:")
    e("cmpq\t$0, %d(%%rsp)" % F["K"])
    e("je\t.Lred_end")
    add_mem()
    block("full")
    e("decq\t%d(%%rsp)" % F["K"])
    e("jmp\t.Lred_blk")
    e(".Lred_end:")
    # t's words above the strip, + C, + the previous strip's carry out of them
    add_mem()
    e("addq\t%d(%%rsp), %s" % (F["CS"], W0[0]))
    for r in W0[1:]:
        e("adcq\t$0, %s" % r)
    e("adcq\t$0, %s" % CARRY)                 # add_mem's carry + this one
    e("movq\t%%rbp, %d(%%rsp)" % F["CS"])
    store_w()
    e("movq\t%d(%%rsp), %%rdi" % F["SBASE"])
    e("leaq\t64(%rdi), %rdi")
    e("decq\t%d(%%rsp)" % F["SCNT"])
    e("jnz\t.Lred_strip")

    # r = t[n..2n-1] - m, t kept where that borrowed past the top carry CS
    # (t < 2m: a top carry means no borrow out of it)
    e("movq\t%d(%%rsp), %%rcx" % F["N"])
    e("movq\t%d(%%rsp), %%rdi" % F["T"])
    e("leaq\t(%rdi,%rcx,8), %rdi")              # &t[n]
    e("movq\t%%rdi, %d(%%rsp)" % F["SBASE"])
    e("shrq\t$2, %rcx")
    e("movq\t%%rcx, %d(%%rsp)" % F["SCNT"])     # the select's count, read without flags
    e("movq\t%d(%%rsp), %%rsi" % F["R"])
    e("movq\t%d(%%rsp), %%rbx" % F["M"])
    e("xorl\t%eax, %eax")                       # CF = 0
    e(".Lsub:")
    for i, r in enumerate(["%r10", "%r11", "%r12", "%r13"]):
        e("movq\t%d(%%rdi), %s" % (8 * i, r))
    for i, r in enumerate(["%r10", "%r11", "%r12", "%r13"]):
        e("sbbq\t%d(%%rbx), %s" % (8 * i, r))
    for i, r in enumerate(["%r10", "%r11", "%r12", "%r13"]):
        e("movq\t%s, %d(%%rsi)" % (r, 8 * i))
    e("leaq\t32(%rdi), %rdi")
    e("leaq\t32(%rbx), %rbx")
    e("leaq\t32(%rsi), %rsi")
    e("loop\t.Lsub")
    e("movq\t%d(%%rsp), %%rax" % F["CS"])
    e("sbbq\t$0, %rax")                         # CF: keep t
    # r = CF ? t : t - m by CMOVC; nothing below writes the flags
    e("movq\t%d(%%rsp), %%rsi" % F["R"])
    e("movq\t%d(%%rsp), %%rdi" % F["SBASE"])
    e("movq\t%d(%%rsp), %%rcx" % F["SCNT"])
    e(".Lsel:")
    regs = ["%r10", "%r11", "%r12", "%r13"]
    for i, r in enumerate(regs):
        e("movq\t%d(%%rsi), %s" % (8 * i, r))
    for i, r in enumerate(regs):
        e("cmovcq\t%d(%%rdi), %s" % (8 * i, r))
    for i, r in enumerate(regs):
        e("movq\t%s, %d(%%rsi)" % (r, 8 * i))
    e("leaq\t32(%rdi), %rdi")
    e("leaq\t32(%rsi), %rsi")
    e("loop\t.Lsel")
    # the q slots (secret-derived) wiped
    e("xorl\t%eax, %eax")
    for i in range(8):
        e("movq\t%%rax, %d(%%rsp)" % (F["Q"] + 8 * i))
    e("movq\t%%rax, %d(%%rsp)" % F["CS"])         # a carry of the secret sum
    pop_all()
    e("ret")
    e(".cfi_endproc")
    e(".size\tbnx_mulr_adx, .-bnx_mulr_adx")
    e("")
    e(".section .note.GNU-stack, \"\", @progbits")
    print("\n".join(out))


if len(sys.argv) > 1 and sys.argv[1] == "unrolled":
    main_unrolled()
else:
    main()
