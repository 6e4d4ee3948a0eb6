/* SPDX-License-Identifier: MIT */
/*
 * The target attribute of code that uses AVX-512 (or VAES / VPCLMULQDQ on
 * 512-bit registers), in two spellings: @real, the features the code is
 * compiled for, and @emu, the same without avx512* / vaes / vpclmulqdq,
 * for the emulation build (-DRIND_AVX512_EMU, make check-avx512-emu),
 * where tests/emu/avx512-emu.h supplies the AVX-512 intrinsics in plain C
 * and the compiler must not emit any EVEX instruction.  @emu keeps what
 * the code needs natively: avx2 (implied by avx512f, and the type of the
 * 256-bit halves), aes, pclmul, ssse3, bmi2, adx.  tests/emu/README.md.
 *
 * Not installed; only arch/x86 drivers include it.
 */
#ifndef _RIND_X86_TARGET_H
#define _RIND_X86_TARGET_H

#ifdef RIND_AVX512_EMU
#define RIND_AVX512_TARGET(real, emu)	__attribute__((target(emu)))
#else
#define RIND_AVX512_TARGET(real, emu)	__attribute__((target(real)))
#endif

#endif /* _RIND_X86_TARGET_H */
