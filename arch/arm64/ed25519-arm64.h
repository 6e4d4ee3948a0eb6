/* SPDX-License-Identifier: MIT */
/*
 * What the arm64 Ed25519 driver gives the arm64 X25519 driver: the
 * fixed-base X25519(scalar, 9) through its fixed-base table, a
 * curve25519_base_fn of <crypto/curve25519.h> (scalar clamped there).
 */
#ifndef _RIND_ARM64_ED25519_ARM64_H
#define _RIND_ARM64_ED25519_ARM64_H

#include <rind/types.h>

/* MUL/UMULH field arithmetic of fe25519-arm64.h (ed25519-arm64.c). */
void curve25519_base_arm64(u8 out[32], const u8 scalar[32]);

#endif /* _RIND_ARM64_ED25519_ARM64_H */
