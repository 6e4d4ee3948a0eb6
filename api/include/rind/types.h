/* SPDX-License-Identifier: MIT */
/*
 * Kernel integer types and allocation flags, so that kernel crypto code
 * ports to rind line for line.
 */
#ifndef _RIND_TYPES_H
#define _RIND_TYPES_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
/* Spelled as <linux/types.h> does, so both headers can be included. */
typedef unsigned short __le16;
typedef unsigned int __le32;
typedef unsigned long long __le64;
typedef unsigned short __be16;
typedef unsigned int __be32;
typedef unsigned long long __be64;

/* Allocation context: accepted for source compatibility, not needed here. */
typedef unsigned int gfp_t;
#define GFP_KERNEL	0x0u
#define GFP_ATOMIC	0x1u
#define GFP_NOFS	0x2u
#define GFP_NOIO	0x4u

#ifndef __must_check
#define __must_check __attribute__((warn_unused_result))
#endif

#endif /* _RIND_TYPES_H */
