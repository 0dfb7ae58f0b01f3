/* SPDX-License-Identifier: MIT */
/* xalloc.h: allocation that never returns NULL. OOM is decided once: a registered
 * die hook runs (the UI uses it to restore the terminal), a message saying how much
 * was needed and what to do (--ranks, --jobs 1, the limit) goes to stderr, and the
 * process exits with status 1 (no abort, no core file). Every other module may assume
 * allocation succeeds. */
#ifndef MODEL_XALLOC_H
#define MODEL_XALLOC_H

#include <stdarg.h>
#include "model/base.h"

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
/* xcalloc() for a table that is read before it is written (a hash table probed as it
 * fills, counters updated in place): zeroed by writing every byte. calloc's fresh pages
 * are read first as the shared zero page, and each one's first write then copies it and
 * flushes the TLB of every core the process runs on (an interrupt each; a VM exit on a
 * virtual machine). */
void *xcalloc_written(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* n bytes at a multiple of align (a power of two, a multiple of sizeof(void *)); free()
 * frees them. */
void *xmalloc_aligned(size_t align, size_t n);
/* Page-aligned blocks of XPAGE_BLOCK bytes kept for reuse within the process: the
 * pytscope loader's read buffers and the index writer's direct buffers. A block given
 * back (xpage_give; free() is fine too) is taken again before a fresh one is made,
 * whose pages would each cost a first-touch fault (on a virtual machine whose host
 * backs guest memory on first touch, the host's too: BENCHMARKS.md, issue 15). A few
 * are kept; thread-safe. */
#define XPAGE_BLOCK ((size_t)1 << 20)
void *xpage_take(void);
void xpage_give(void *p);
/* Grow *p (an array of elem-sized items with capacity *cap) to hold at least need items. */
void xgrow(void **p, size_t *cap, size_t need, size_t elem);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* malloc'd formatted string; the caller frees. */
char *xasprintf(const char *fmt, ...) PRINTF_LIKE(1, 2);
char *xvasprintf(const char *fmt, va_list ap);

/* Called once before aborting on OOM (e.g. to end curses). */
void xalloc_set_die_hook(void (*hook)(void));

#endif
