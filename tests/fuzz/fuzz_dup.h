/* SPDX-License-Identifier: MIT */
/*
 * Taking the fuzzer input apart.  fuzz_dup: a copy of (part of) it in a buffer of its own, exactly @n
 * bytes long (one byte for an empty input): a slice of the input is
 * followed by the rest of it, so only a copy lets ASan report a read past
 * the @n bytes the code under test was given.
 * Here rather than in fuzz_common.h because fuzz_akcipher.c has its own
 * FAIL and does not include that.
 */
#ifndef RIND_FUZZ_DUP_H
#define RIND_FUZZ_DUP_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline uint8_t *fuzz_dup(const uint8_t *p, size_t n)
{
	uint8_t *d = malloc(n ? n : 1);

	if (!d)
		abort();
	if (n)
		memcpy(d, p, n);
	return d;
}

/*
 * Up to @n bytes of the input (*@data, *@size) copied to @out and consumed;
 * returns how many (fewer at the input's end, the rest of @out untouched).
 */
static inline size_t fuzz_take(const uint8_t **data, size_t *size, void *out, size_t n)
{
	if (n > *size)
		n = *size;
	if (n)
		memcpy(out, *data, n);
	*data += n;
	*size -= n;
	return n;
}

#endif
