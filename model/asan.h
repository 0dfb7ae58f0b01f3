/* SPDX-License-Identifier: MIT */
/* asan.h: bytes marked unaddressable under AddressSanitizer, and nothing otherwise, for
 * the allocators that carve small blocks out of larger ones (a rank's body block and
 * the loader's scratch, store_body.c; a directory scope's chunks, dirlist.c): the bytes
 * around each block stay poisoned, so an overrun is reported as it is for malloc. */
#ifndef MODEL_ASAN_H
#define MODEL_ASAN_H

#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__)
#define MODEL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MODEL_ASAN 1
#endif
#endif

#ifdef MODEL_ASAN
#include <sanitizer/asan_interface.h>
/* Poisoned bytes kept after each carved block. */
#define ASAN_REDZONE 32
static inline void asan_poison(const void *p, size_t n)
{
	if (p && n)
		__asan_poison_memory_region(p, n);
}
static inline void asan_unpoison(const void *p, size_t n)
{
	if (p && n)
		__asan_unpoison_memory_region(p, n);
}
#else
#define ASAN_REDZONE 0
static inline void asan_poison(const void *p, size_t n)
{
	(void)p;
	(void)n;
}
static inline void asan_unpoison(const void *p, size_t n)
{
	(void)p;
	(void)n;
}
#endif

#endif
