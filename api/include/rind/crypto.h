/* SPDX-License-Identifier: MIT */
/*
 * rind: the Linux kernel crypto API in user space.  This umbrella header
 * brings in every tfm type.  Link with -lrind (pkg-config rind).
 */
#ifndef _RIND_CRYPTO_H
#define _RIND_CRYPTO_H

#include <rind/types.h>
#include <rind/err.h>
#include <rind/scatterlist.h>
#include <rind/base.h>
#include <rind/cipher.h>
#include <rind/skcipher.h>
#include <rind/aead.h>
#include <rind/hash.h>
#include <rind/keyformat.h>
#include <rind/rng.h>
#include <rind/kpp.h>
#include <rind/sig.h>
#include <rind/kem.h>
#include <rind/akcipher.h>

#endif /* _RIND_CRYPTO_H */
