/* SPDX-License-Identifier: MIT */
/* xalloc.c: exit-on-OOM allocation wrappers (see xalloc.h). Built with
 * -DTSCOPE_FAULT_INJECT (the tests' tscope-tui-faulty), TSCOPE_FAIL_ALLOC=N makes the
 * Nth allocation fail, sqlite-style, and TSCOPE_ALLOC_COUNT=1 prints the count at exit. */
#include "model/xalloc.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void (*die_hook)(void);

void xalloc_set_die_hook(void (*hook)(void))
{
	die_hook = hook;
}

/* One thread reports and exits; any other that runs out meanwhile waits for the exit. */
static NORETURN void oom(size_t n)
{
	static atomic_flag dying = ATOMIC_FLAG_INIT;
	if (atomic_flag_test_and_set(&dying))
		for (;;)
			pause();
	if (die_hook)
		die_hook();
	char msg[512];
	int len = snprintf(msg, sizeof(msg),
			   "tscope-tui: out of memory: %zu bytes (%.1f MiB) could not be allocated\n"
			   "tscope-tui: load less at once: --ranks LIST loads a subset of the ranks, "
			   "--jobs 1 loads one file at a time; or raise the limit (ulimit -v)\n",
			   n, (double)n / 1048576.0);
	if (len > 0 && write(STDERR_FILENO, msg, (size_t)len < sizeof(msg) ? (size_t)len : sizeof(msg) - 1) < 0) {
		/* nothing more to say */
	}
	_exit(1);
}

#ifdef TSCOPE_FAULT_INJECT
static atomic_long alloc_count;
static long fail_at = -1; /* -1: not read yet, 0: never */

static void print_count(void)
{
	fprintf(stderr, "tscope-tui: %ld allocations\n", atomic_load(&alloc_count));
}

static bool inject_failure(void)
{
	if (fail_at < 0) { /* first call: before any thread exists */
		const char *e = getenv("TSCOPE_FAIL_ALLOC");
		fail_at = e ? atol(e) : 0;
		if (getenv("TSCOPE_ALLOC_COUNT"))
			atexit(print_count);
	}
	long k = atomic_fetch_add(&alloc_count, 1) + 1;
	return fail_at > 0 && k == fail_at;
}
#else
static bool inject_failure(void)
{
	return false;
}
#endif

void *xmalloc(size_t n)
{
	void *p = inject_failure() ? NULL : malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xmalloc_aligned(size_t align, size_t n)
{
	void *p = NULL;
	if (inject_failure() || posix_memalign(&p, align, n ? n : 1) != 0)
		oom(n);
	return p;
}

static _Atomic(void *) xpage_kept[4];

void *xpage_take(void)
{
	for (size_t i = 0; i < sizeof(xpage_kept) / sizeof(xpage_kept[0]); i++) {
		void *p = atomic_exchange(&xpage_kept[i], NULL);
		if (p)
			return p;
	}
	return xmalloc_aligned(4096, XPAGE_BLOCK);
}

void xpage_give(void *p)
{
	for (size_t i = 0; p && i < sizeof(xpage_kept) / sizeof(xpage_kept[0]); i++) {
		void *none = NULL;
		if (atomic_compare_exchange_strong(&xpage_kept[i], &none, p))
			return;
	}
	free(p);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = inject_failure() ? NULL : calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return p;
}

void *xcalloc_written(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		oom(SIZE_MAX);
	void *p = xmalloc(n * size);
	memset(p, 0, n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = inject_failure() ? NULL : realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

void xgrow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return;
	size_t c = *cap ? *cap : 16;
	while (c < need)
		c *= 2;
	*p = xrealloc(*p, c * elem);
	*cap = c;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* One formatting pass when the text fits a line (paths, messages); two otherwise. */
char *xvasprintf(const char *fmt, va_list ap)
{
	char line[256];
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(line, sizeof(line), fmt, cp);
	va_end(cp);
	if (n < 0)
		return xstrdup("");
	if ((size_t)n < sizeof(line))
		return xstrndup(line, (size_t)n);
	char *s = xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}
