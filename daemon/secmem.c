// SPDX-License-Identifier: MIT
/*
 * Locked memory for everything that holds key material: rindd's own
 * secret slots and every library transform (installed with
 * rind_set_secmem, so expanded AES schedules, Ed25519 signing scalars and
 * the hash states inside them are covered too).  Pages are mlock'ed (never
 * swapped) and MADV_DONTDUMP (never in a core file, on top of
 * PR_SET_DUMPABLE 0); the library wipes a transform before handing it
 * back, secmem_free wipes again for callers that do not.
 *
 * Power-of-two size classes from 64 bytes to 32 KiB carved from 64 KiB
 * chunks; larger requests get their own mapping.  Allocation happens when
 * a key is created, loaded or first used by a thread, not per request, so
 * one mutex is enough.  Chunks are never returned to the kernel: the
 * working set is bounded by the number of keys.  Under AddressSanitizer
 * every block is a malloc of its own, so that overruns are still caught.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rind/internal/alg.h>

#include "rindd.h"

#define MIN_SHIFT	6			/* 64 bytes: CRYPTO_MINALIGN */
#define MAX_SHIFT	15			/* 32 KiB */
#define NCLASSES	(MAX_SHIFT - MIN_SHIFT + 1)
#define CHUNK		(64u * 1024)

struct free_block {
	struct free_block *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct free_block *free_list[NCLASSES];
static atomic_bool warned;
static atomic_size_t locked_bytes;

static void protect(void *p, size_t len)
{
	if (madvise(p, len, MADV_DONTDUMP) < 0)
		log_warn("event=madvise_failed errno=%d", errno);
	if (mlock(p, len) < 0) {
		if (!atomic_exchange(&warned, true))
			log_warn("event=mlock_failed errno=%d msg=\"key memory may be swapped; raise RLIMIT_MEMLOCK (LimitMEMLOCK=)\"",
				 errno);
	} else {
		atomic_fetch_add(&locked_bytes, len);
	}
}

static void *map(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	protect(p, len);
	return p;
}

static unsigned int size_class(size_t size)
{
	unsigned int c = 0;

	while (((size_t)1 << (MIN_SHIFT + c)) < size)
		c++;
	return c;
}

static size_t page_round(size_t size)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	return (size + pg - 1) & ~(pg - 1);
}

#if defined(__SANITIZE_ADDRESS__)
#define SECMEM_BYPASS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SECMEM_BYPASS 1
#endif
#endif

void *secmem_alloc(size_t size)
{
	unsigned int c;
	struct free_block *b;

#ifdef SECMEM_BYPASS
	/* under ASan: blocks of their own, with redzones, so overruns show */
	b = aligned_alloc(64, size ? (size + 63) & ~(size_t)63 : 64);
	if (b)
		memset(b, 0, size);
	return b;
#endif
	if (!size)
		size = 1;
	if (size > ((size_t)1 << MAX_SHIFT))
		return map(page_round(size));	/* fresh anonymous pages are zero */
	c = size_class(size);
	pthread_mutex_lock(&lock);
	if (!free_list[c]) {
		size_t bsz = (size_t)1 << (MIN_SHIFT + c), off;
		u8 *chunk = map(CHUNK);

		if (!chunk) {
			pthread_mutex_unlock(&lock);
			return NULL;
		}
		for (off = CHUNK; off >= bsz; off -= bsz) {
			b = (struct free_block *)(chunk + off - bsz);
			b->next = free_list[c];
			free_list[c] = b;
		}
	}
	b = free_list[c];
	free_list[c] = b->next;
	pthread_mutex_unlock(&lock);
	memset(b, 0, (size_t)1 << (MIN_SHIFT + c));
	return b;
}

void secmem_free(void *p, size_t size)
{
	unsigned int c;
	struct free_block *b = p;

	if (!p)
		return;
#ifdef SECMEM_BYPASS
	rind_memzero_explicit(p, size);
	free(p);
	return;
#endif
	if (!size)
		size = 1;
	if (size > ((size_t)1 << MAX_SHIFT)) {
		size = page_round(size);
		rind_memzero_explicit(p, size);
		if (munlock(p, size) == 0)
			atomic_fetch_sub(&locked_bytes, size);
		munmap(p, size);
		return;
	}
	c = size_class(size);
	rind_memzero_explicit(p, (size_t)1 << (MIN_SHIFT + c));
	pthread_mutex_lock(&lock);
	b->next = free_list[c];
	free_list[c] = b;
	pthread_mutex_unlock(&lock);
}

size_t secmem_locked_bytes(void)
{
	return atomic_load(&locked_bytes);
}

static const struct rind_secmem daemon_secmem = {
	.alloc = secmem_alloc,
	.free = secmem_free,
};

/* From here on every transform the library allocates is locked memory. */
void secmem_init(void)
{
	rind_set_secmem(&daemon_secmem);
}
