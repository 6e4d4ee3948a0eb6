#!/usr/bin/env python3
# Probe (not built): the generator of bench/probes/mont1-avx2.c's vector
# kernels; vpair-gen.py imports it for the interleaved pair.
# Single-product AVX2 Montgomery kernels (29-bit digits, 40 of them, the
# m~ = -1 mod 2^116 reduction): instruction lists over given bases.
# A base is a register name ('%rsi') or a frame offset (an int, from %rsp).
L, G = 40, 10
MASK, AI, T1, T2, Q = '%ymm15', '%ymm11', '%ymm12', '%ymm13', '%ymm14'

def M(base, off):
    if isinstance(base, int):
        return '%d(%%rsp)' % (base + off)
    return '%d(%s)' % (off, base)

class Gen:
    def __init__(s):
        s.o = []
        s.free = ['%%ymm%d' % i for i in range(11)]
        s.reg = {}
        s.tc = 0
    def e(s, x): s.o.append(x)
    def tmp(s):
        s.tc ^= 1
        return (T1, T2)[s.tc]
    def new(s, v):
        r = s.free.pop(0); s.reg[v] = r; return r
    def drop(s, v): s.free.append(s.reg.pop(v))
    def acc_mul(s, v, mem, mulreg):
        if v not in s.reg:
            s.e('vpmuludq %s, %s, %s' % (mem, mulreg, s.new(v)))
        else:
            t = s.tmp()
            s.e('vpmuludq %s, %s, %s' % (mem, mulreg, t))
            s.e('vpaddq %s, %s, %s' % (t, s.reg[v], s.reg[v]))
    def acc_reg(s, v, src):
        if v not in s.reg:
            s.e('vmovdqa %s, %s' % (src, s.new(v)))
        else:
            s.e('vpaddq %s, %s, %s' % (src, s.reg[v], s.reg[v]))
    # T[v]: low 29 bits kept, the rest one lane up (lane 3's into T[v+1])
    def split(s, v):
        x, y = s.reg[v], s.reg[v + 1]
        s.e('vpsrlq $29, %s, %s' % (x, T1))
        s.e('vpand %s, %s, %s' % (MASK, x, x))
        s.e('vpermq $0x93, %s, %s' % (T1, T1))
        s.e('vpand .Lvm_hi3(%%rip), %s, %s' % (T1, T2))
        s.e('vpaddq %s, %s, %s' % (T2, x, x))
        s.e('vpand .Lvm_lo0(%%rip), %s, %s' % (T1, T1))
        s.e('vpaddq %s, %s, %s' % (T1, y, y))
    def redg(s, u, mp):
        s.split(u); s.split(u)     # T[u] -> four q digits, the carry into T[u+1]
        x = s.reg[u]
        for l in range(4):
            s.e('vpermq $%#x, %s, %s' % (l * 0x55, x, Q))
            for k in range(10):
                if l == 0 and k == 9:
                    continue
                s.acc_mul(u + 1 + k, M(mp, 8 * (l * L + 4 * k)), Q)
        s.drop(u)
    def outp(s, r):
        for rnd in range(2):
            sr = (T1, T2)
            for j in range(10, 20):
                x, t = s.reg[j], sr[j % 2]
                s.e('vpsrlq $29, %s, %s' % (x, t))
                s.e('vpand %s, %s, %s' % (MASK, x, x))
                s.e('vpermq $0x93, %s, %s' % (t, t))
                if j == 10:
                    s.e('vpand .Lvm_hi3(%%rip), %s, %s' % (t, AI))
                else:
                    s.e('vpblendd $3, %s, %s, %s' % (sr[(j - 1) % 2], t, AI))
                s.e('vpaddq %s, %s, %s' % (AI, x, x))
        for j in range(10, 20):
            s.e('vmovdqu %s, %s' % (s.reg[j], M(r, 32 * (j - 10))))

# r = a b / 2^1160 mod m~ (< 2 m~); pad: a frame area of 48 words, words 0-3 and 44-47 zero
def mul_body(a, b, pad, mp, r):
    g = Gen()
    for j in range(10):
        g.e('vmovdqu %s, %s' % (M(b, 32 * j), T1))
        g.e('vmovdqu %s, %s' % (T1, M(pad, 32 + 32 * j)))
    for u in range(G):
        for rr in range(4):
            i = 4 * u + rr
            g.e('vpbroadcastq %s, %s' % (M(a, 8 * i), AI))
            for k in range(11):
                if rr == 0 and k == 10:
                    continue
                g.acc_mul(u + k, M(pad, 8 * (4 + 4 * k - rr)), AI)
        if u + 5 < 15:
            g.split(u + 5)
        g.redg(u, mp)
    g.outp(r)
    return g.o

def sqr_body(a, pad, mp, r):
    g = Gen()
    for j in range(10):
        g.e('vmovdqu %s, %s' % (M(a, 32 * j), T1))
        g.e('vpaddq %s, %s, %s' % (T1, T1, T1))
        g.e('vmovdqu %s, %s' % (T1, M(pad, 32 + 32 * j)))
    for u in range(G):
        for rr in range(4):
            i = 4 * u + rr
            g.e('vpbroadcastq %s, %s' % (M(a, 8 * i), AI))
            v0 = (2 * i) // 4
            t = g.tmp()
            # 2 a_j a_i for j > i; the first vector's lanes j <= i masked off
            g.e('vmovdqu %s, %s' % (M(pad, 8 * (4 + 4 * (v0 - u) - rr)), t))
            g.e('vpand .Lvm_%s(%%rip), %s, %s' % ('m3' if rr & 1 else 'm13', t, t))
            g.e('vpmuludq %s, %s, %s' % (t, AI, t))
            g.acc_reg(v0, t)
            for k in range(v0 - u + 1, 11):
                if rr == 0 and k == 10:
                    continue
                g.acc_mul(u + k, M(pad, 8 * (4 + 4 * k - rr)), AI)
        # the squares a_i^2, i = 4u..4u+3, at columns 8u, 8u+2, 8u+4, 8u+6
        g.e('vmovdqu %s, %s' % (M(a, 32 * u), Q))
        g.e('vpmuludq %s, %s, %s' % (Q, Q, Q))
        g.e('vpermq $0x50, %s, %s' % (Q, T1))
        g.e('vpand .Lvm_me(%%rip), %s, %s' % (T1, T1))
        g.acc_reg(2 * u, T1)
        g.e('vpermq $0xfa, %s, %s' % (Q, T2))
        g.e('vpand .Lvm_me(%%rip), %s, %s' % (T2, T2))
        g.acc_reg(2 * u + 1, T2)
        if u + 5 < 15:
            g.split(u + 5)
        g.redg(u, mp)
    g.outp(r)
    return g.o

CONSTS = '''\t.section .rodata
\t.balign 32
.Lvm_hi3:\t.quad 0, -1, -1, -1
.Lvm_lo0:\t.quad -1, 0, 0, 0
.Lvm_m13:\t.quad 0, -1, -1, -1
.Lvm_m3:\t.quad 0, 0, 0, -1
.Lvm_me:\t.quad -1, 0, -1, 0
.Lvm_mask:\t.quad 0x1fffffff
\t.text'''

def func(name, body, frame):
    o = ['\t.globl\t%s' % name, '\t.type\t%s, @function' % name, '\t.balign\t32', name + ':',
         '\tpushq %rbp', '\tmovq %rsp, %rbp', '\tsubq $%d, %%rsp' % frame, '\tandq $-32, %rsp',
         '\tvpbroadcastq .Lvm_mask(%%rip), %s' % MASK,
         '\tvpxor %s, %s, %s' % (T1, T1, T1),
         '\tvmovdqa %s, 0(%%rsp)' % T1, '\tvmovdqa %s, %d(%%rsp)' % (T1, 32 + 8 * L)]
    o += ['\t' + x for x in body]
    o += ['\tvzeroupper', '\tleave', '\tret', '\t.size\t%s, .-%s' % (name, name)]
    return o

if __name__ == '__main__':
    o = [CONSTS]
    o += func('vmul40', mul_body('%rsi', '%rdx', 0, '%rcx', '%rdi'), 448)
    o += func('vsqr40', sqr_body('%rsi', 0, '%rdx', '%rdi'), 448)
    o.append('\t.section .note.GNU-stack,"",@progbits')
    print('\n'.join(o))
