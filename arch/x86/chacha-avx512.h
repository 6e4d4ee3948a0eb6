/* SPDX-License-Identifier: MIT */
/*
 * chacha-avx512.c's crypt function (any len; advances state[12]), for the
 * stitched AEAD's long messages (chacha20poly1305-avx2.c).
 * Requires: AVX512F, AVX512VL, AVX512BW.
 */
#ifndef _RIND_X86_CHACHA_AVX512_H
#define _RIND_X86_CHACHA_AVX512_H

#include <stddef.h>
#include <rind/types.h>

void rind_chacha20_crypt_avx512(u32 state[16], u8 *dst, const u8 *src, size_t len);

#endif /* _RIND_X86_CHACHA_AVX512_H */
