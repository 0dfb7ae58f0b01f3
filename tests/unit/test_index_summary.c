/* SPDX-License-Identifier: MIT */
/* test_index_summary.c: what keys the index summary (model/steps/analysis_index.c):
 * SUMMARY_VERSION, not the build that wrote it. A summary written by another build is
 * used as it is; one of another analysis version is stale, recomputed (same views as a
 * plain load) and rewritten. An open that finds no usable summary rebuilds it rank by
 * rank (analysis_index_rebuild.c): the same file, byte for byte, as `tscope-tui index`
 * writes from a plain load, every rank's steps handed back after use (with a rank restarted
 * from step 0 below the steps it had reached too: those steps not judged). After a follower
 * appended deltas to the index, its summary delta (analysis_index.h FOLLOW MODE) makes
 * the next open read no rank's steps and compute nothing; a summary delta that does not
 * match (stale, damaged, missing) is reported and the analyses computed again. */
#include <ctype.h>
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
#include "model/steps/follow.h"
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
	if (h[4] == 0 || h[4] >= 0x80) { /* the build string's length + 1: one varint byte */
		free(f);
		return false;
	}
	if (fill)
		memset(h + 5, fill, h[4] - 1u);
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
	ok(tu_has_diag(got, "index summary of analysis version", NULL) && steps_bodies_read(got->steps) >= LZ_RANKS,
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

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) != 0 || stat(b, &sb) != 0 || sa.st_size != sb.st_size || sa.st_size < INDEX_HEADER_LEN)
		return false;
	char *x = tu_read_file(a), *y = tu_read_file(b);
	bool same = x && y && memcmp(x, y, (size_t)sa.st_size) == 0;
	free(x);
	free(y);
	return same;
}

static void count_progress(void *ud, long long done, long long total)
{
	long long *v = ud;
	v[0] += done;
	v[1] += total;
}

/* dir indexed by `tscope-tui index` (from a plain load), its summary kept aside; then the
 * summary removed and the run opened: the summary the open rebuilds = the kept one. */
static void check_rebuild(const char *dir, const char *what)
{
	char summary[600], kept[700];
	snprintf(summary, sizeof(summary), "%s/.tscope-index/summary.tsx", dir);
	snprintf(kept, sizeof(kept), "%s/kept.tsx", dir);
	static const struct opts plain = { .no_index = true }, build = { .index_build = true }, dflt = { 0 };
	run_free(open_dir(dir, &build));
	ok(rename(summary, kept) == 0, "%s: `index` wrote a summary (kept aside)", what);
	struct run *want = open_dir(dir, &plain);
	long long bytes[2] = { 0, 0 };
	struct load_ctx hooks = { .progress = count_progress, .ud = bytes };
	const char *paths[] = { dir };
	struct run *got = run_open(paths, 1, &dflt, &hooks);
	size_t N = steps_nranks(got->steps);
	long long body = 0;
	for (size_t i = 0; i < N; i++)
		body += (long long)got->steps->rank[i]->body_len;
	ok(body > 0 && bytes[1] >= body && bytes[0] >= bytes[1],
	   "%s: the rebuild reports its progress (the ranks' %lld bytes of steps; %lld of %lld)", what, body, bytes[0],
	   bytes[1]);
	ok(steps_bodies_read(got->steps) >= N && steps_bodies_resident(got->steps) == 0,
	   "%s: the open read every rank's steps (%zu reads) and handed each back", what, steps_bodies_read(got->steps));
	ok(same_file(summary, kept), "%s: summary rebuilt rank by rank = the one `index` writes, byte for byte", what);
	ok(same_view(want, got, "ranks") && same_view(want, got, "findings") && same_view(want, got, "budget") &&
	   same_view(want, got, "heatmap_cells") && same_heat(want, got),
	   "%s: Ranks, findings, budget, heatmap cells and every pyramid range = a plain load's", what);
	run_free(got);
	got = open_dir(dir, &dflt);
	ok(steps_bodies_read(got->steps) == 0 && !tu_has_diag(got, "index summary", NULL),
	   "%s: the next open uses it, reading no rank's steps", what);
	run_free(got);
	run_free(want);
}

static void test_rebuild(void)
{
	char dir[512];
	tu_mkdtemp(dir, sizeof(dir), "sumrebuild");
	write_lazy_run(dir);
	check_rebuild(dir, "6 x 1,500, rank 2 not contiguous");
	tu_rm_rf(dir);

	/* step 5 without compute on any rank: a step median of 0, so the slowdown pyramid
	 * has a missing cell and the layout with counts */
	tu_mkdtemp(dir, sizeof(dir), "sumrebuildsparse");
	write_sparse_run(dir);
	check_rebuild(dir, "3 x 20, a step without compute");
	tu_rm_rf(dir);

	/* rank 3 slow at steps 30-59 before a restart from step 0 that ends at step 19: steps
	 * 20-59 are left out of the native tests (no fail-slow; pytscope's straggler, over every
	 * aligned step, still joins the set), from the step of the rank's last record */
	tu_mkdtemp(dir, sizeof(dir), "sumrebuildrestart");
	write_kinds_run(dir, "cccz");
	check_rebuild(dir, "4 x 60, rank 3 restarted from step 0");
	static const struct opts plain = { .no_index = true };
	struct run *run = open_dir(dir, &plain);
	const struct distributed *d = analysis_distributed(run);
	char line[256] = "";
	if (d)
		analysis_straggler_line(d, line, sizeof(line));
	ok(d && d->n_judged == 20 && !d->rank[3].fail_slow && strstr(line, "; steps 20-59, logged only before "),
	   "rank 3 restarted from step 0: its slow steps 20-59 not judged (%s)", line);
	run_free(run);
	tu_rm_rf(dir);
}

/* nranks x 400 contiguous steps (rank 3 slow from step 100, comm and memory varying). */
static void write_contiguous_run(const char *dir, int nranks)
{
	for (int r = 0; r < nranks; r++) {
		char path[700];
		snprintf(path, sizeof(path), "%s/rank%d", dir, r);
		tu_make_dir(path);
		size_t cap = 400 * 220, n = 0;
		char *buf = xmalloc(cap);
		for (int k = 0; k < 400; k++) {
			double f = 0.020 + 0.0001 * ((r * 5 + k * 11) % 13) + (r == 3 && k >= 100 ? 0.006 : 0);
			n += (size_t)snprintf(buf + n, cap - n,
					      "{\"step\":%d,\"phases\":{\"data\":0.002,\"forward\":%.6f,\"backward\":%.6f,"
					      "\"comm\":0.0%02d},\"memory\":{\"peak_alloc\":%d}}\n",
					      k, f, 2 * f, 10 + (k * 3 + r) % 17, 1000 + (k * 7 + r * 13) % 301);
		}
		snprintf(path, sizeof(path), "%s/rank%d/steps.jsonl", dir, r);
		tu_write_file(path, buf, n);
		free(buf);
	}
}

/* The rows of a summary file (the payload before its head). */
static char *summary_rows(const char *path, size_t *n)
{
	char *f = tu_read_file(path);
	*n = 0;
	if (!f)
		return NULL;
	*n = (size_t)le64((const unsigned char *)f + 24);
	memmove(f, f + INDEX_HEADER_LEN, *n);
	return f;
}

/* Both runs' heatmap cells and pyramids agree (none when nothing is aligned). */
static bool same_grids(struct run *a, struct run *b)
{
	if (steps_naligned(a->steps) || steps_naligned(b->steps))
		return same_view(a, b, "heatmap_cells") && same_heat(a, b);
	return !analysis_heatmap(a, HEAT_COMPUTE) && !analysis_heatmap(b, HEAT_COMPUTE);
}

/* N shards (`index --shard K/N` each): every shard writes its part of the summary; the
 * first open merges them without reading any rank's steps (gaps, restarts, missing
 * values, ranks without records: whatever the ranks' steps), into the pyramid rows and
 * the analyses a whole index has. */
static void test_shards(const char *dir, const char *what)
{
	char summary[600];
	snprintf(summary, sizeof(summary), "%s/.tscope-index/summary.tsx", dir);
	static const struct opts plain = { .no_index = true }, build = { .index_build = true }, dflt = { 0 };
	struct run *want = open_dir(dir, &plain);
	run_free(open_dir(dir, &build));
	size_t nwhole = 0;
	char *whole = summary_rows(summary, &nwhole);
	const unsigned counts[] = { 1, 2, 4 };
	for (size_t c = 0; c < ARRAY_LEN(counts); c++) {
		unsigned n = counts[c];
		char idx[600];
		snprintf(idx, sizeof(idx), "%s/.tscope-index", dir);
		tu_rm_rf(idx);
		for (unsigned k = 0; k < n; k++) {
			struct opts shard = { .shard_k = k, .shard_n = n };
			run_free(open_dir(dir, &shard));
		}
		struct run *got = open_dir(dir, &dflt);
		size_t reads = steps_bodies_read(got->steps);
		ok(reads == 0, "%s, %u shard(s): the first open merges their parts of the summary, reading no rank's steps (%zu)",
		   what, n, reads);
		size_t nrows = 0;
		char *rows = summary_rows(summary, &nrows);
		ok(rows && whole && nrows == nwhole && memcmp(rows, whole, nrows) == 0,
		   "%s, %u shard(s): merged summary's pyramid rows = a whole index's, byte for byte", what, n);
		free(rows);
		ok(steps_naligned(got->steps) == steps_naligned(want->steps) &&
		   steps_nunion(got->steps) == steps_nunion(want->steps) && same_view(want, got, "ranks") &&
		   same_view(want, got, "findings") && same_view(want, got, "budget") && same_grids(want, got),
		   "%s, %u shard(s): aligned steps, Ranks, findings, budget, heatmap cells, pyramids = a plain load's", what, n);
		run_free(got);
		got = open_dir(dir, &dflt);
		ok(steps_bodies_read(got->steps) == 0 && !tu_has_diag(got, "index summary", NULL) && same_view(want, got, "ranks"),
		   "%s, %u shard(s): the next open uses the merged summary", what, n);
		run_free(got);
	}
	free(whole);
	run_free(want);
}

/* Append steps [from, to) to every rank of a write_lazy_run() dir, as it writes them. */
static void append_lazy_steps(const char *dir, int from, int to)
{
	for (int r = 0; r < LZ_RANKS; r++) {
		char path[1024];
		snprintf(path, sizeof(path), "%.500s/rank%d/steps.jsonl", dir, r);
		FILE *f = fopen(path, "a");
		for (int s = from; f && s < to; s++) {
			double v = 0.030 + 0.0001 * ((r * 7 + s * 13) % 11) + (r == 4 ? 0.012 : 0) + (r == 1 && s >= 1800 ? 0.02 : 0);
			fprintf(f,
				"{\"step\":%d,\"timestamp\":%d.5,\"phases\":{\"data\":0.004,\"forward\":%.6f,"
				"\"backward\":%.6f,\"comm\":0.010},\"scalars\":{\"loss\":%.4f}}\n",
				s, 1000 + s, v, 2 * v, 3.0 - 0.01 * s);
		}
		if (f)
			fclose(f);
	}
}

/* A follower of dir (opened from its index) that reads the steps appended in rounds
 * (steps [from, upto[0]), then up to upto[1], ...) and appends them to the index (a
 * delta and the summary delta each). */
static void follow_rounds(const char *dir, int from, const int *upto, size_t n)
{
	static const struct opts dflt = { 0 };
	struct run *run = open_dir(dir, &dflt);
	const char *paths[] = { dir };
	struct follow_opts fo = { .interval = 1, .stall_floor = 10, .index_every = 1e9, .index_bytes = 1LL << 62 };
	struct follow *f = follow_new(run, paths, 1, &fo, 0);
	for (size_t i = 0; i < n; i++) {
		append_lazy_steps(dir, i ? upto[i - 1] : from, upto[i]);
		follow_poll(f, (double)i + 1);
		follow_save_index(f);
	}
	follow_free(f);
	run_free(run);
}

static long long file_ino(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long long)st.st_ino : -1;
}

/* The open of dir after follow deltas against a plain load: the same Ranks, Findings
 * and pyramids; with the summary delta: no rank's steps read and the summary kept
 * (not rewritten); else `why` reported and the analyses computed. */
static void check_after(const char *dir, const char *what, const char *why)
{
	static const struct opts plain = { .no_index = true }, dflt = { 0 };
	char summary[600];
	snprintf(summary, sizeof(summary), "%s/.tscope-index/summary.tsx", dir);
	long long ino = file_ino(summary);
	struct run *want = open_dir(dir, &plain), *got = open_dir(dir, &dflt);
	size_t reads = steps_bodies_read(got->steps);
	if (!why)
		ok(reads == 0 && file_ino(summary) == ino && !tu_has_diag(got, "index summary", NULL),
		   "%s: the open reads no rank's steps (%zu) and keeps the summary: nothing computed", what, reads);
	else
		ok(reads > 0 && tu_has_diag(got, "index summary delta not used", NULL) && tu_has_diag(got, why, NULL),
		   "%s: reported (%s), the analyses computed from the steps (%zu reads)", what, why, reads);
	ok(same_view(want, got, "ranks") && same_view(want, got, "findings") && same_heat(want, got),
	   "%s: the plain load's Ranks, Findings and every pyramid range", what);
	run_free(got);
	run_free(want);
}

static bool copy_file(const char *from, const char *to)
{
	struct stat st;
	char *b = tu_read_file(from);
	if (!b || stat(from, &st) != 0) {
		free(b);
		return false;
	}
	tu_write_file(to, b, (size_t)st.st_size);
	free(b);
	return true;
}

/* `tscope-tui index` puts each rank's compute row in the memory its body had, once the
 * part just written backs the body (analysis_distributed.c keep_rows): the build reads no
 * body back and keeps none; the run then reads each rank's steps from that part, and its
 * views and pyramids are the plain load's. A rank whose body is too small for its row,
 * or not in one block, keeps its body (tested by the rows of every other shape). */
static void test_build_rows(void)
{
	char dir[512];
	tu_mkdtemp(dir, sizeof(dir), "sumrows");
	write_lazy_run(dir);
	static const struct opts plain = { .no_index = true }, build = { .index_build = true };
	struct run *want = open_dir(dir, &plain), *got = open_dir(dir, &build);
	ok(got->index_path && steps_bodies_read(got->steps) == 0 && steps_bodies_resident(got->steps) == 0,
	   "index build: every rank's body went to its compute row; none read back (%zu read, %zu resident)",
	   steps_bodies_read(got->steps), steps_bodies_resident(got->steps));
	ok(same_view(want, got, "steps") && steps_bodies_read(got->steps) == 0 &&
	   steps_bodies_resident(got->steps) == 0,
	   "... the steps view then reads each rank from the part written into a copy it drops (none kept): "
	   "the plain load's");
	ok(same_view(want, got, "ranks") && same_view(want, got, "budget") && same_heat(want, got),
	   "... and its Ranks, budget and pyramids");
	run_free(got);
	got = open_dir(dir, &(struct opts){ 0 });
	ok(same_view(want, got, "ranks") && same_view(want, got, "steps") && same_heat(want, got),
	   "the index it wrote gives the plain load's views");
	run_free(got);
	run_free(want);
	tu_rm_rf(dir);
}

/* More ranks than one task of the distributed analysis takes (ANALYSIS_RANK_CHUNK):
 * the tasks' shares of each step's comm are folded in task order whatever order the
 * threads end them in (fill_rows, fold_put). */
static void test_build_tasks(void)
{
	char dir[512];
	tu_mkdtemp(dir, sizeof(dir), "sumtasks");
	write_contiguous_run(dir, 41);
	static const struct opts plain = { .no_index = true }, dflt = { 0 };
	struct run *want = open_dir(dir, &plain);
	for (int jobs = 1; jobs <= 3; jobs += 2) {
		run_free(open_dir(dir, &(struct opts){ .index_build = true, .jobs = jobs }));
		struct run *got = open_dir(dir, &dflt);
		ok(steps_bodies_resident(got->steps) == 0 && same_view(want, got, "ranks") &&
		   same_view(want, got, "findings") && same_heat(want, got),
		   "41 ranks indexed with --jobs %d: the summary gives the plain load's Ranks, findings and "
		   "pyramids", jobs);
		run_free(got);
	}
	run_free(want);
	tu_rm_rf(dir);
}

static void test_follow(void)
{
	char dir[512], sd[600], keep[600];
	tu_mkdtemp(dir, sizeof(dir), "sumfollow");
	write_lazy_run(dir);
	static const struct opts build = { .index_build = true };
	run_free(open_dir(dir, &build));
	snprintf(sd, sizeof(sd), "%s/.tscope-index/summary-delta.tsx", dir);
	snprintf(keep, sizeof(keep), "%s/old-delta.tsx", dir);

	const int one[] = { 1700 }; /* the pyramids gain a level at 2,048 steps */
	follow_rounds(dir, LZ_STEPS, one, 1);
	ok(access(sd, F_OK) == 0, "a follower's delta comes with a summary delta");
	check_after(dir, "1 delta", NULL);
	copy_file(sd, keep);
	const int two[] = { 2100, 2300 };
	follow_rounds(dir, 1700, two, 2);
	check_after(dir, "3 deltas, 2,300 steps", NULL);

	copy_file(keep, sd); /* as a follower killed between a delta and its summary leaves it */
	check_after(dir, "summary delta of fewer deltas", "not of these index deltas");
	const int three[] = { 2400 }; /* that open rewrote the summary: extended from there */
	follow_rounds(dir, 2300, three, 1);
	check_after(dir, "a delta on a summary of base + deltas", NULL);

	struct stat st;
	if (stat(sd, &st) == 0) {
		char *b = tu_read_file(sd);
		b[INDEX_HEADER_LEN + 5] ^= 0x40; /* a pyramid cell: the head's checksum holds */
		tu_write_file(sd, b, (size_t)st.st_size);
		free(b);
	}
	check_after(dir, "damaged summary delta", "damaged");
	follow_rounds(dir, 2400, (const int[]){ 2450 }, 1);
	unlink(sd);
	check_after(dir, "missing summary delta", "missing");

	/* at most 1 delta: the saves rewrite the index (and the summary) whole, append a
	 * delta (and its summary delta), rewrite them whole */
	setenv("TSCOPE_INDEX_DELTAS", "1", 1);
	follow_rounds(dir, 2450, (const int[]){ 2500, 2550, 2600 }, 3);
	unsetenv("TSCOPE_INDEX_DELTAS");
	ok(access(sd, F_OK) != 0, "compaction: a whole summary, no summary delta");
	check_after(dir, "after compaction", NULL);
	tu_rm_rf(dir);

	/* an index of 2 shards: a delta chain per part, one summary delta for them all */
	tu_mkdtemp(dir, sizeof(dir), "sumfollow2");
	write_lazy_run(dir);
	snprintf(sd, sizeof(sd), "%s/.tscope-index/summary-delta.tsx", dir);
	for (unsigned k = 0; k < 2; k++) {
		struct opts shard = { .shard_k = k, .shard_n = 2 };
		run_free(open_dir(dir, &shard));
	}
	run_free(open_dir(dir, &(struct opts){ 0 })); /* the first open merges the summary */
	follow_rounds(dir, LZ_STEPS, (const int[]){ 1600, 2100 }, 2);
	ok(access(sd, F_OK) == 0, "2 shards: the follower's deltas come with a summary delta");
	check_after(dir, "2 shards, 2 deltas each", NULL);
	tu_rm_rf(dir);
}

/* The lowest rank lacks a step (its steps are not contiguous) and the summary is gone:
 * the open computes the aligned set from the ranks restored as shells (it crashed
 * reading the lowest rank's steps before its body was read). */
static void test_gap_lowest(void)
{
	char dir[512], path[700], summary[600];
	tu_mkdtemp(dir, sizeof(dir), "sumgap0");
	for (int r = 0; r < 3; r++) {
		char buf[4096];
		size_t n = 0;
		for (int k = 0; k < 40; k++)
			if (r || k != 7)
				n += (size_t)snprintf(buf + n, sizeof(buf) - n,
						      "{\"step\":%d,\"phases\":{\"forward\":0.0%d,\"comm\":0.01}}\n", k, r + 1);
		snprintf(path, sizeof(path), "%s/rank%d", dir, r);
		tu_make_dir(path);
		snprintf(path, sizeof(path), "%s/rank%d/steps.jsonl", dir, r);
		tu_write_file(path, buf, n);
	}
	static const struct opts plain = { .no_index = true }, build = { .index_build = true }, dflt = { 0 };
	run_free(open_dir(dir, &build));
	snprintf(summary, sizeof(summary), "%s/.tscope-index/summary.tsx", dir);
	unlink(summary);
	struct run *want = open_dir(dir, &plain), *got = open_dir(dir, &dflt);
	ok(same_view(want, got, "ranks") && same_heat(want, got),
	   "lowest rank with a gap, no summary: the open from the index = a plain load");
	run_free(got);
	run_free(want);
	tu_rm_rf(dir);
}

/* The explorer's follower (summary_at_stop): its periodic saves append deltas only, the
 * summary delta is written once at follow_stop_index(); one killed before its stop
 * leaves the summary the next open reports and recomputes. */
static void follow_at_stop(const char *dir, int from, int to, bool stop)
{
	static const struct opts dflt = { 0 };
	struct run *run = open_dir(dir, &dflt);
	const char *paths[] = { dir };
	struct follow_opts fo = { .interval = 1, .stall_floor = 10, .index_every = 1e9, .index_bytes = 1LL << 62,
				  .summary_at_stop = true };
	struct follow *f = follow_new(run, paths, 1, &fo, 0);
	char sd[600];
	snprintf(sd, sizeof(sd), "%s/.tscope-index/summary-delta.tsx", dir);
	long long ino = file_ino(sd);
	for (int i = 0; i < 2; i++) {
		append_lazy_steps(dir, i ? (from + to) / 2 : from, i ? to : (from + to) / 2);
		follow_poll(f, (double)i + 1);
		follow_save_index(f);
	}
	ok(file_ino(sd) == ino, "summary_at_stop: two periodic saves leave the summary delta as it was");
	if (stop) {
		follow_stop_index(f);
		ok(file_ino(sd) >= 0 && file_ino(sd) != ino, "summary_at_stop: the stop writes the summary delta");
	}
	follow_free(f);
	run_free(run);
}

static void test_follow_at_stop(void)
{
	char dir[512];
	tu_mkdtemp(dir, sizeof(dir), "sumstop");
	write_lazy_run(dir);
	static const struct opts build = { .index_build = true };
	run_free(open_dir(dir, &build));
	follow_at_stop(dir, LZ_STEPS, 1700, true);
	check_after(dir, "explorer's follower after its stop", NULL);
	follow_at_stop(dir, 1700, 1800, false);
	check_after(dir, "explorer's follower killed before its stop", "not of these index deltas");
	tu_rm_rf(dir);
}

int main(void)
{
	test_version_key();
	test_build_rows();
	test_build_tasks();
	test_rebuild();
	test_follow();
	test_follow_at_stop();
	test_gap_lowest();
	char dir[512];
	tu_mkdtemp(dir, sizeof(dir), "sumshards");
	write_contiguous_run(dir, 5);
	test_shards(dir, "contiguous");
	tu_rm_rf(dir);
	tu_mkdtemp(dir, sizeof(dir), "sumshardsgap");
	write_lazy_run(dir);
	test_shards(dir, "a gap in rank 2");
	tu_rm_rf(dir);
	static const struct {
		const char *kinds, *what;
	} runs[] = {
		{ "grmcSTLM", "gaps, restarts, missing values, phases not in every shard" },
		{ "gcer", "a rank without records" },
		{ "cgbc", "a rank with only bad lines" },
		{ "rltl", "every rank restarted or late" },
		{ "c", "one rank" },
		{ "t", "one rank, restarted twice" },
		{ "cccz", "rank 3 restarted from step 0, ending below its slow steps (not judged)" },
	};
	for (size_t i = 0; i < ARRAY_LEN(runs); i++) {
		tu_mkdtemp(dir, sizeof(dir), "sumshardkinds");
		write_kinds_run(dir, runs[i].kinds);
		test_shards(dir, runs[i].what);
		tu_rm_rf(dir);
	}
	return tap_done();
}
