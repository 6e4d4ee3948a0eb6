/* SPDX-License-Identifier: MIT */
/*
 * The SHA-3/SHAKE shash drivers as tables over a permutation: algs/sha3.c
 * holds the operations (init, update, final, export, import, the SHAKE
 * output of any length) once, each driver is six struct sha3_alg entries
 * naming the Keccak-f[1600] it runs (as a Poly1305 driver names its block
 * function).  The generic drivers run the C rounds (f1600 NULL), an arch
 * driver its own (arch/arm64/sha3-ce.c).  The descriptor state (struct
 * keccak_state) and the exported state are the same for every driver, so
 * a state exported by one imports into another.  Library internal.
 */
#ifndef _RIND_CRYPTO_SHA3_H
#define _RIND_CRYPTO_SHA3_H

#include <rind/internal/hash.h>
#include <crypto/keccak.h>

struct sha3_alg {
	keccak_f1600_fn *f1600;		/* NULL: the C rounds */
	u8 ds;				/* KECCAK_DS_SHA3 or KECCAK_DS_SHAKE */
	struct shash_alg alg;
};

/* The shared operations (algs/sha3.c); only for struct sha3_alg drivers. */
int rind_sha3_op_init(struct shash_desc *desc);
int rind_sha3_op_update(struct shash_desc *desc, const u8 *data, unsigned int len);
int rind_sha3_op_final(struct shash_desc *desc, u8 *out);
int rind_sha3_op_export(struct shash_desc *desc, void *out);
int rind_sha3_op_import(struct shash_desc *desc, const void *in);

/* Exported state: the lanes, then the byte position in the block. */
struct sha3_export {
	u64 a[25];
	u32 pos;
};

#define SHA3_ALG(nm, sfx, prio, module, fn, dsep, dsize, rate)		\
{									\
	.f1600	= fn,							\
	.ds	= dsep,							\
	.alg = {							\
		.init		= rind_sha3_op_init,			\
		.update		= rind_sha3_op_update,			\
		.final		= rind_sha3_op_final,			\
		.export		= rind_sha3_op_export,			\
		.import		= rind_sha3_op_import,			\
		.descsize	= sizeof(struct keccak_state),		\
		.statesize	= sizeof(struct sha3_export),		\
		.digestsize	= dsize,				\
		.base = {						\
			.cra_name		= nm,			\
			.cra_driver_name	= nm "-" sfx,		\
			.cra_priority		= prio,			\
			.cra_blocksize		= rate,			\
			.cra_module		= module,		\
		},							\
	},								\
}

/*
 * The four SHA3s and two SHAKEs over @fn as "<name>-<sfx>":
 * static struct sha3_alg pfx##_algs[6], registered by
 * rind_sha3_register(pfx##_algs, 6).  The known answers are algs/sha3.c's,
 * registered under the algorithm names.
 */
#define DEFINE_SHA3_ALGS(pfx, fn, sfx, prio, module)				\
static struct sha3_alg pfx##_algs[6] = {					\
	SHA3_ALG("sha3-224", sfx, prio, module, fn, KECCAK_DS_SHA3,		\
		 SHA3_224_DIGEST_SIZE, SHA3_224_RATE),				\
	SHA3_ALG("sha3-256", sfx, prio, module, fn, KECCAK_DS_SHA3,		\
		 SHA3_256_DIGEST_SIZE, SHA3_256_RATE),				\
	SHA3_ALG("sha3-384", sfx, prio, module, fn, KECCAK_DS_SHA3,		\
		 SHA3_384_DIGEST_SIZE, SHA3_384_RATE),				\
	SHA3_ALG("sha3-512", sfx, prio, module, fn, KECCAK_DS_SHA3,		\
		 SHA3_512_DIGEST_SIZE, SHA3_512_RATE),				\
	SHA3_ALG("shake128", sfx, prio, module, fn, KECCAK_DS_SHAKE,		\
		 SHAKE128_DEFAULT_SIZE, SHAKE128_RATE),				\
	SHA3_ALG("shake256", sfx, prio, module, fn, KECCAK_DS_SHAKE,		\
		 SHAKE256_DEFAULT_SIZE, SHAKE256_RATE),				\
}

/* Register @n drivers; on a failure the ones registered are taken back. */
int rind_sha3_register(struct sha3_alg *algs, int n);

#endif /* _RIND_CRYPTO_SHA3_H */
