#!/usr/bin/env python3
# Probe (not built): one ADX 16-limb squaring (bnx_sqr16_adx's body, read
# from bn-adx-8x8u.S) and one vector 1024-bit squaring (vmont_gen.py)
# in one instruction stream, k of them in a loop (bench/probes/vpair.c).
#   vpair-gen.py bn-adx-8x8u.S merge|seq|chunk N [name]   (NOCHAIN=1: the
#   vector reduction's q chain left out, wrong results, timing only)
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vmont_gen as vgen

src = open(sys.argv[1]).read().split('\n')
def grab(start, stop):
    i = src.index(start) + 1
    o = []
    while not src[i].startswith(stop):
        l = src[i].strip()
        if l and not l.startswith('.'):
            o.append(l)
        i += 1
    return o
adx = grab('.Lsqbody16:', '\tjmp\t.Lreduce16') + grab('.Lreduce16:', '\tcmpq\t$0, 96(%rsp)')
VD, VA, VM = 192, 576, 896
if os.environ.get('NOCHAIN'):
    vgen.Gen.split = lambda s, v: None
    _r = vgen.Gen.redg
    def redg(s, u, mp):
        for l in range(4):
            for k in range(10):
                if l == 0 and k == 9: continue
                s.acc_mul(u + 1 + k, vgen.M(mp, 8 * (l * vgen.L + 4 * k)), vgen.Q)
        s.drop(u)
    vgen.Gen.redg = redg
vec = vgen.sqr_body(VA, VD, VM, VA)

def merge(a, b, lead=0):
    # b spread evenly over a; b starts `lead` instructions early
    o, j = [], 0
    na, nb = len(a), len(b)
    for i, x in enumerate(a):
        while j < nb and j * na <= (i + lead) * nb:
            o.append(b[j]); j += 1
        o.append(x)
    o += b[j:]
    return o

mode = sys.argv[2] if len(sys.argv) > 2 else 'merge'
if mode == 'merge':
    body = merge(adx, vec, int(sys.argv[3]) if len(sys.argv) > 3 else 0)
elif mode == 'seq':
    body = adx + vec
elif mode == 'chunk':
    n = int(sys.argv[3])
    A = [adx[i:i + n] for i in range(0, len(adx), n)]
    B = [vec[i:i + n] for i in range(0, len(vec), n)]
    body = []
    for i in range(max(len(A), len(B))):
        body += (A[i] if i < len(A) else []) + (B[i] if i < len(B) else [])
O = []
def e(x): O.append('\t' + x)
O.append(vgen.CONSTS)
O += ['\t.globl\tpair16k', '\t.type\tpair16k, @function', '\t.balign\t32', 'pair16k:']
for r in ('rbp', 'rbx', 'r12', 'r13', 'r14', 'r15'):
    e('pushq %' + r)
e('movq %rsp, %rax'); e('subq $2240, %rsp'); e('andq $-32, %rsp'); e('movq %rax, 168(%rsp)')
e('movq 56(%rax), %r10'); e('movq %r10, 176(%rsp)')
for j in range(10):
    e('vmovdqu %d(%%r10), %%ymm0' % (32 * j)); e('vmovdqa %%ymm0, %d(%%rsp)' % (VA + 32 * j))
for j in range(40):
    e('vmovdqu %d(%%r10), %%ymm0' % (320 + 32 * j)); e('vmovdqa %%ymm0, %d(%%rsp)' % (VM + 32 * j))
e('vpbroadcastq .Lvm_mask(%%rip), %s' % vgen.MASK)
e('vpxor %ymm0, %ymm0, %ymm0'); e('vmovdqa %%ymm0, %d(%%rsp)' % VD); e('vmovdqa %%ymm0, %d(%%rsp)' % (VD + 352))
e('movq $0, 56(%rsp)'); e('movq %rdi, 0(%rsp)'); e('movq %rsi, 8(%rsp)'); e('movq %rdx, 24(%rsp)')
e('movq %rcx, 32(%rsp)'); e('movq %r9, 48(%rsp)'); e('leaq -1(%r8), %rax'); e('movq %rax, 96(%rsp)')
O.append('.Lpbody:')
O += ['\t' + x for x in body]
e('cmpq $0, 96(%rsp)'); e('je .Lpdone'); e('decq 96(%rsp)'); e('movq 0(%rsp), %rax'); e('movq %rax, 8(%rsp)')
e('jmp .Lpbody')
O.append('.Lpdone:')
e('movq 176(%rsp), %r10')
for j in range(10):
    e('vmovdqa %d(%%rsp), %%ymm0' % (VA + 32 * j)); e('vmovdqu %%ymm0, %d(%%r10)' % (32 * j))
e('movq 168(%rsp), %rsp'); e('vzeroupper')
for r in ('r15', 'r14', 'r13', 'r12', 'rbx', 'rbp'):
    e('popq %' + r)
e('ret'); O.append('\t.size\tpair16k, .-pair16k')
O.append('\t.section .note.GNU-stack,"",@progbits')
NAME = sys.argv[4] if len(sys.argv) > 4 else 'pair16k'
print('\n'.join(O).replace('pair16k', NAME).replace('.Lp', '.L' + NAME).replace('.Lvm_', '.L' + NAME + 'c_'))
print(len(adx), len(vec), file=sys.stderr)
