/* SPDX-License-Identifier: MIT */
/* test_index_summary.c: what keys the index summary (model/steps/analysis_index.c):
 * SUMMARY_VERSION, not the build that wrote it. A summary written by another build is
 * used as it is; one of another analysis version is stale, recomputed (same views as a
 * plain load) and rewritten. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "model/grid.h"
#include "model/index/index.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/steps/analysis.h"
#include "model/steps/analysis_index.h"
#include "model/steps/steps.h"
#include "model/table.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"
#include "tests/index_fixture.h"

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int b = 0; b < 8; b++)
		v |= (uint64_t)p[b] << (8 * b);
	return v;
}

/* Rewrite the head of summary file path: its version word (when version >= 0) and every
 * byte of the build string it names (with fill), then the head's CRC-32 in the header,
 * as another build (or another analysis version) would have written it. */
static bool patch_head(const char *path, long version, char fill)
{
	struct stat st;
	unsigned char *f = (unsigned char *)tu_read_file(path);
	if (!f || stat(path, &st) != 0 || st.st_size < INDEX_HEADER_LEN + 8) {
		free(f);
		return false;
	}
	size_t n = (size_t)st.st_size;
	uint64_t off = le64(f + 24), len = le64(f + 32);
	unsigned char *h = f + INDEX_HEADER_LEN + off;
	if (version >= 0)
		for (int b = 0; b < 4; b++)
			h[b] = (unsigned char)((unsigned long)version >> (8 * b));
	uint32_t slen = (uint32_t)h[4] | (uint32_t)h[5] << 8 | (uint32_t)h[6] << 16 | (uint32_t)h[7] << 24;
	if (fill)
		memset(h + 8, fill, slen);
	uint32_t crc = (uint32_t)crc32(0, h, (uInt)len);
	for (int b = 0; b < 4; b++)
		f[40 + b] = (unsigned char)(crc >> (8 * b));
	tu_write_file(path, f, n);
	free(f);
	return true;
}

static void test_version_key(void)
{
	char dir[512], summary[600];
	tu_mkdtemp(dir, sizeof(dir), "sumkey");
	write_lazy_run(dir);
	snprintf(summary, sizeof(summary), "%s/.tscope-index/summary.tsx", dir);
	static const struct opts plain = { .no_index = true }, build = { .index_build = true }, dflt = { 0 };
	struct run *want = open_dir(dir, &plain);
	run_free(open_dir(dir, &build));

	ok(patch_head(summary, -1, 'x'), "summary rewritten as another build (same analyses) would write it");
	struct run *got = open_dir(dir, &dflt);
	ok(steps_bodies_resident(got->steps) == 0 && !tu_has_diag(got, "index summary", NULL),
	   "another build's summary is used: no rank's steps read, nothing reported");
	ok(same_view(want, got, "ranks") && same_heat(want, got), "... and gives the plain load's Ranks and pyramids");
	run_free(got);

	ok(patch_head(summary, SUMMARY_VERSION + 1, 0), "summary rewritten as another analysis version");
	got = open_dir(dir, &dflt);
	ok(tu_has_diag(got, "index summary of analysis version", NULL) && steps_bodies_resident(got->steps) > 0,
	   "another analysis version: reported and computed from the steps");
	ok(same_view(want, got, "ranks") && same_view(want, got, "findings") && same_heat(want, got),
	   "... giving the plain load's Ranks, findings and pyramids");
	run_free(got);
	got = open_dir(dir, &dflt);
	ok(steps_bodies_resident(got->steps) == 0 && !tu_has_diag(got, "index summary", NULL),
	   "... and rewritten: the next open uses it");
	run_free(got);
	run_free(want);
	tu_rm_rf(dir);
}

int main(void)
{
	test_version_key();
	return tap_done();
}
