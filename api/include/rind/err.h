/* SPDX-License-Identifier: MIT */
/*
 * Error pointers, as in the kernel's <linux/err.h>: allocation never returns
 * NULL, it returns a pointer or a negative errno folded into the top page of
 * the address space.
 */
#ifndef _RIND_ERR_H
#define _RIND_ERR_H

#include <errno.h>
#include <stdbool.h>

#ifndef EKEYREJECTED
#define EKEYREJECTED 129
#endif
#ifndef ELIBBAD
#define ELIBBAD 80
#endif
#ifndef EBADMSG
#define EBADMSG 74
#endif

#define MAX_ERRNO	4095

#define IS_ERR_VALUE(x) ((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((unsigned long)ptr);
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR_VALUE((unsigned long)ptr);
}

static inline void *ERR_CAST(const void *ptr)
{
	return (void *)ptr;
}

static inline int PTR_ERR_OR_ZERO(const void *ptr)
{
	return IS_ERR(ptr) ? (int)PTR_ERR(ptr) : 0;
}

#endif /* _RIND_ERR_H */
