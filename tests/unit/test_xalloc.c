/* SPDX-License-Identifier: MIT */
/* test_xalloc.c: the allocators that are not plain malloc (model/xalloc.h):
 * xcalloc_written zeroes memory the heap hands back dirty, small and large;
 * xmalloc_aligned keeps its alignment. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"
#include "tests/tap.h"

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* Blocks of each size are dirtied and freed first, so the heap has dirty memory of
 * that size to hand back. */
static void test_calloc_written(void)
{
	static const size_t sizes[] = { 1, 24, 4096, 200000, (size_t)5 << 20 };
	size_t bad = 0;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned char *dirty = xmalloc(sizes[i]);
		memset(dirty, 0xa5, sizes[i]);
		free(dirty);
		unsigned char *p = xcalloc_written(sizes[i], 1);
		bad += !all_zero(p, sizes[i]);
		uint64_t *q = xcalloc_written(sizes[i] / 8 + 1, sizeof(*q));
		bad += !all_zero((const unsigned char *)q, (sizes[i] / 8 + 1) * sizeof(*q));
		free(p);
		free(q);
	}
	ok(bad == 0, "xcalloc_written: every byte zero, dirty heap memory reused or not (1 B to 5 MB)");
	void *none = xcalloc_written(0, 8);
	ok(none != NULL, "xcalloc_written of nothing: a block to free, not NULL");
	free(none);
}

static void test_aligned(void)
{
	void *a = xmalloc_aligned(4096, 10000);
	ok(((uintptr_t)a & 4095) == 0, "xmalloc_aligned: the alignment asked for");
	free(a);
}

int main(void)
{
	test_calloc_written();
	test_aligned();
	return tap_done();
}
