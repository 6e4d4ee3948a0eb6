// SPDX-License-Identifier: MIT
#include <rind/internal/alg.h>

RIND_EXPORT const char *rind_version(void)
{
	return RIND_VERSION;
}
