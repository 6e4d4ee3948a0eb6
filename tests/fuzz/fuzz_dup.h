/* SPDX-License-Identifier: MIT */
/*
 * A copy of (part of) the fuzzer input in a buffer of its own, exactly @n
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

#endif
