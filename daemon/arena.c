// SPDX-License-Identifier: MIT
/*
 * Per-thread request arena.  A worker's turn unpacks every request it
 * received, runs them and frees them before it ends; malloc and free for
 * each protobuf field, sealed buffer and AEAD request were a sixth of the
 * daemon's CPU time.  So each worker thread bump-allocates them from one
 * block and takes the block back, wiped (requests carry plaintext and
 * imported keys), when the turn is over and nothing in it is live.
 *
 * arena_free() of a pointer outside the block is free(): what did not fit
 * came from malloc, and a thread without an arena (D-Bus, tests, the fuzz
 * harness) uses the system allocator throughout.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rind/internal/util.h>

#include "rindd.h"

#define ARENA_SIZE	(1u << 20)
#define ARENA_ALIGN	64

struct arena {
	ProtobufCAllocator pa;
	u8 *base;
	size_t used, high;	/* bump offset; bytes to wipe at reset */
	size_t live;		/* allocations in the block not yet freed */
};

static __thread struct arena *thread_arena;

static void *arena_alloc(void *data, size_t size)
{
	struct arena *a = data;
	size_t off = (a->used + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);

	if (size <= ARENA_SIZE && off <= ARENA_SIZE - size) {
		a->used = off + size;
		if (a->used > a->high)
			a->high = a->used;
		a->live++;
		return a->base + off;	/* zero: never handed out since its wipe */
	}
	return calloc(1, size ? size : 1);
}

static void arena_free(void *data, void *p)
{
	struct arena *a = data;

	if ((u8 *)p >= a->base && (u8 *)p < a->base + ARENA_SIZE)
		a->live--;
	else
		free(p);
}

#if defined(__SANITIZE_ADDRESS__)
#define ARENA_BYPASS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_BYPASS 1
#endif
#endif

/*
 * Give the calling thread an arena: 0 or -ENOMEM.  Under AddressSanitizer
 * every request keeps its own malloc'ed blocks, so that a use after the
 * end of a request or an overrun is still caught.
 */
int arena_thread_init(void)
{
	struct arena *a;

#ifdef ARENA_BYPASS
	return 0;
#endif
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->base = aligned_alloc(ARENA_ALIGN, ARENA_SIZE);
	if (!a->base) {
		free(a);
		return -ENOMEM;
	}
	memset(a->base, 0, ARENA_SIZE);
	a->pa.alloc = arena_alloc;
	a->pa.free = arena_free;
	a->pa.allocator_data = a;
	thread_arena = a;
	return 0;
}

void arena_thread_exit(void)
{
	struct arena *a = thread_arena;

	if (!a)
		return;
	rind_memzero_explicit(a->base, a->high);
	free(a->base);
	free(a);
	thread_arena = NULL;
}

/* The allocator for this thread's requests; NULL (malloc) without an arena. */
ProtobufCAllocator *arena_allocator(void)
{
	return thread_arena ? &thread_arena->pa : NULL;
}

/* Zeroed memory for the rest of this turn. */
void *arena_zalloc(size_t size)
{
	return thread_arena ? arena_alloc(thread_arena, size) : calloc(1, size ? size : 1);
}

/*
 * Give back @p (@size bytes, which may hold secrets): a block in the arena
 * is wiped with the rest of the turn at arena_reset(), so only what came
 * from malloc is wiped here.
 */
void arena_release(void *p, size_t size)
{
	struct arena *a = thread_arena;

	if (!p)
		return;
	if (a && (u8 *)p >= a->base && (u8 *)p < a->base + ARENA_SIZE) {
		a->live--;
		return;
	}
	rind_memzero_explicit(p, size);
	free(p);
}

/*
 * End of a turn: if every allocation was given back, wipe what was used
 * and start again from the bottom.  (If one is still live the block keeps
 * filling and overflows to malloc: correct, only slower.)
 */
void arena_reset(void)
{
	struct arena *a = thread_arena;

	if (!a || a->live || !a->high)
		return;
	rind_memzero_explicit(a->base, a->high);
	a->used = a->high = 0;
}
