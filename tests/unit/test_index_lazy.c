/* SPDX-License-Identifier: MIT */
/* test_index_lazy.c: opening a run from its persistent index (model/index/index.c,
 * model/steps/analysis_index*.c): the ranks as shells whose steps are read on demand,
 * the summary's views, budgets, colour scales and pyramid rows (read by chunks, each
 * checked, a damaged one re-read from the JSONL), and the pyramids' blocks against their
 * definition, bit for bit. The byte form itself: test_index.c. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "model/index/index.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/findings.h"
#include "model/grid.h"
#include "model/registry.h"
#include "model/steps/analysis.h"
#include "model/steps/analysis_index.h"
#include "model/summary.h"
#include "model/table.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"
#include "tests/index_fixture.h"

/* ---- lazy open from the index ------------------------------------------------------- */

/* The heatmap pane's colour scale of the compute and slowdown grids: kept in the
 * summary of b (src.scale answers), equal to the scale a full pass over a's rows gives. */
static bool same_kept_scale(struct run *a, struct run *b)
{
	for (size_t metric = 0; metric < 2; metric++) {
		struct grid_src sa, sb;
		char err[128];
		if (!grid_steps.open(a, metric, &sa, err, sizeof(err)))
			return false;
		if (!grid_steps.open(b, metric, &sb, err, sizeof(err))) {
			grid_steps.close(&sa);
			return false;
		}
		double lo_a, hi_a, lo_b = -1, hi_b = -1, x, y;
		grid_colour_scale(&sa, NULL, &lo_a, &hi_a);
		bool kept = sb.scale && sb.scale(sb.ud, &lo_b, &hi_b);
		bool plain = sa.scale && sa.scale(sa.ud, &x, &y);
		grid_steps.close(&sa);
		grid_steps.close(&sb);
		if (!kept || plain || lo_a != lo_b || hi_a != hi_b || !(hi_a > lo_a))
			return false;
	}
	return true;
}

static bool same_f64(double x, double y)
{
	return memcmp(&x, &y, sizeof(x)) == 0;
}

/* Every rank's budget and the whole run's, bit for bit (ri == N: the whole run). */
static bool same_budgets(struct run *a, struct run *b)
{
	size_t N = steps_nranks(a->steps);
	for (size_t ri = 0; ri <= N; ri++) {
		const struct budget *x = ri < N ? analysis_budget(a, ri) : analysis_budget_all(a);
		const struct budget *y = ri < N ? analysis_budget(b, ri) : analysis_budget_all(b);
		if (!x || !y || x->n != y->n || x->has_mfu != y->has_mfu || x->nrecoverable != y->nrecoverable ||
		    !same_f64(x->wall, y->wall) || !same_f64(x->compute_measured, y->compute_measured) ||
		    !same_f64(x->useful, y->useful) || !same_f64(x->overhead, y->overhead) ||
		    !same_f64(x->efficiency, y->efficiency) || !same_f64(x->mfu, y->mfu))
			return false;
		for (int i = 0; i < BUDGET_NLINES; i++)
			if (!same_f64(x->line[i].seconds, y->line[i].seconds) ||
			    !same_f64(x->line[i].fraction, y->line[i].fraction) || x->recoverable[i] != y->recoverable[i])
				return false;
	}
	return true;
}

/* A temp dir (named after tag) holding the lazy run, indexed (`tscope-tui index`); its
 * part and summary paths; returns the run as a plain load of the JSONL gives it. */
static struct run *indexed_run(const char *tag, char *dir, char *part, char *summary)
{
	tu_mkdtemp(dir, 512, tag);
	write_lazy_run(dir);
	snprintf(part, 600, "%s/.tscope-index/steps-0-of-1.tsx", dir);
	snprintf(summary, 600, "%s/.tscope-index/summary.tsx", dir);
	static const struct opts plain = { .no_index = true }, build = { .index_build = true }; /* the run keeps it */
	struct run *want = open_dir(dir, &plain);
	run_free(open_dir(dir, &build));
	return want;
}

static void test_lazy_open(void)
{
	char dir[512], part[600], summary[600];
	struct run *want = indexed_run("lazy", dir, part, summary);
	struct opts dflt = { 0 };
	ok(access(part, F_OK) == 0 && access(summary, F_OK) == 0, "index writes its part and its summary");

	struct run *got = open_dir(dir, &dflt);
	struct steps_model *m = got->steps;
	is_int(steps_nranks(m), LZ_RANKS, "every rank is there (as a shell)");
	is_int(steps_bodies_resident(m), 0, "opening from the index reads no rank's steps");
	for (size_t ri = 0; ri < steps_nranks(m); ri++) { /* the index writer's cache hints */
		steps_rank_prefetch(m, ri, true);
		steps_rank_prefetch(m, ri, false);
		steps_rank_prefetch_body(m, ri);
		steps_rank_prefetch_meta(m, ri);
		steps_rank_prefetch_body(want->steps, ri);
		steps_rank_prefetch_meta(want->steps, ri);
	}
	is_int(steps_bodies_resident(m), 0, "... the prefetch hints read none either (lazy ranks or loaded)");
	ok(same_kept_scale(want, got), "heatmap colour scale kept in the summary = a full pass over the rows");
	struct summary sum = { 0 };
	registry_summary(got, &sum);
	struct finding_list fl = { 0 };
	findings_compute(got, &fl);
	findings_free(&fl);
	ok(same_view(want, got, "ranks") && same_view(want, got, "findings") && same_view(want, got, "heatmap_cells"),
	   "Overview, Ranks, findings and heatmap cells from the summary = from the JSONL");
	ok(same_heat(want, got), "every pyramid range (each zoom) = from the JSONL");
	is_int(steps_bodies_resident(m), 1, "... reading only rank 0's steps (pytscope's per-rank rules)");
	ok(same_budgets(want, got) && same_view(want, got, "budget"),
	   "every rank's budget and the whole run's from the summary's sums = from the JSONL, bit for bit");
	is_int(steps_bodies_resident(m), 1, "... reading no more rank's steps");
	ok(analysis_distributed(got)->rank[4].straggler, "rank 4 is the straggler, from the summary");
	double x = 0, y = 0;
	ok(steps_value(got->steps, 4, 1, 30, &x) && steps_value(want->steps, 4, 1, 30, &y) && x == y,
	   "drill-down reads rank 4's steps on demand, same values");
	is_int(steps_bodies_resident(m), 2, "one more rank's steps resident");
	ok(same_view(want, got, "steps"), "steps view (every rank's steps on demand) = from the JSONL");
	run_free(got);
	got = open_dir(dir, &dflt);
	is_int(steps_read_back_bodies(got->steps, NULL, NULL), LZ_RANKS,
	       "read back (--verify): every rank's body read");
	is_int(steps_bodies_failed(got->steps), 0, "... none failed");
	is_int(steps_bodies_resident(got->steps), 0, "... and handed back: none resident after");
	run_free(got);

	/* --warmup: the summary's sums cover every record, so the budget reads the steps. */
	struct opts warm = { .warmup = 5 }, warm_plain = { .warmup = 5, .no_index = true };
	struct run *want_warm = open_dir(dir, &warm_plain);
	got = open_dir(dir, &warm);
	ok(same_budgets(want_warm, got) && !same_budgets(want, got),
	   "--warmup 5: budgets from the steps after the warmup = from the JSONL");
	run_free(got);
	run_free(want_warm);

	/* A part replaced after the open (`index --force` meanwhile): the rank is read from
	 * its JSONL and the new part left alone, said so. */
	got = open_dir(dir, &dflt);
	struct opts rebuild = { .index_build = true };
	run_free(open_dir(dir, &rebuild));
	ok(steps_value(got->steps, 2, 1, 10, &x) && steps_value(want->steps, 2, 1, 10, &y) && x == y,
	   "replaced part: the rank is re-read from its JSONL, same values");
	ok(tu_has_diag(got, "the part was replaced or removed since this open read it", NULL) &&
	   !tu_has_diag(got, "invalidated", NULL), "... said so, not called invalidated");
	struct stat st;
	ok(stat(part, &st) == 0 && st.st_size > 0, "... the new part left as it is");
	run_free(got);

	/* A part truncated in place after the open: a short pread, never a SIGBUS. */
	got = open_dir(dir, &dflt);
	ok(truncate(part, 4000) == 0, "part truncated in place under an open run");
	ok(steps_value(got->steps, 5, 1, 10, &x) && steps_value(want->steps, 5, 1, 10, &y) && x == y,
	   "truncated part: the rank is re-read from its JSONL, same values");
	ok(tu_has_diag(got, "index part not usable for rank 5", NULL), "truncated part: diagnosed");
	ok(steps_value(got->steps, 3, 1, 10, &x) && steps_value(want->steps, 3, 1, 10, &y) && x == y,
	   "... another rank of it: re-read from its JSONL too, same values");
	is_int(tu_count_diag(got, "index part not usable"), 1, "... the part diagnosed once, not once a rank");
	unsigned char *head;
	size_t head_len;
	struct index_file_id id;
	const char *why = index_head_read(part, &head, &head_len, &id);
	ok(stat(part, &st) == 0 && st.st_size == INDEX_HEADER_LEN && why &&
	   strcmp(why, "invalidated: an earlier open found it damaged") == 0,
	   "truncated part: invalidated for the next open, marked so (its header alone)");
	run_free(got);
	got = open_dir(dir, &dflt);
	ok(tu_has_diag(got, "not used: invalidated: an earlier open found it damaged", NULL) &&
	   same_view(want, got, "ranks"), "next open: reported as invalidated (not truncated), read from the JSONL");
	run_free(got);
	got = open_dir(dir, &dflt);
	ok(!tu_has_diag(got, "not used", NULL) && steps_bodies_resident(got->steps) == 0,
	   "... and rebuilt: the open after it maps the index again");
	run_free(got);

	/* A summary whose pyramid rows are damaged: rows computed from the steps instead. */
	FILE *f = fopen(summary, "r+b");
	fseek(f, INDEX_HEADER_LEN + 8, SEEK_SET);
	int byte = fgetc(f);
	fseek(f, INDEX_HEADER_LEN + 8, SEEK_SET);
	fputc(~byte & 0xff, f); /* complemented: a value written could be the one there */
	fclose(f);
	got = open_dir(dir, &dflt);
	ok(same_heat(want, got) && tu_has_diag(got, "index summary damaged", NULL),
	   "damaged pyramid row: diagnosed, computed from the steps, same cells");
	is_int(tu_count_diag(got, "index summary damaged"), 1,
	       "... once for the summary, though both of its grids were read after the damage");
	run_free(got);
	run_free(want);
	tu_rm_rf(dir);
}

/* Flip one byte of a file in place. */
static void flip_byte(const char *path, long long off)
{
	FILE *f = fopen(path, "r+b");
	fseek(f, (long)off, SEEK_SET);
	int c = fgetc(f);
	fseek(f, (long)off, SEEK_SET);
	fputc(c ^ 0x5a, f);
	fclose(f);
}

/* heat_row_buckets() = heat_range()'s worst bucket by bucket, every rank, aligned
 * power-of-two buckets (one block each) and others, ragged last bucket included. */
static bool same_buckets(struct run *run)
{
	const struct heat_grid *g = analysis_heatmap(run, HEAT_COMPUTE);
	size_t S = heat_nsteps(g);
	float got[64];
	for (size_t r = 0; r < heat_nranks(g); r++)
		for (size_t spc = 1; spc <= 2 * S; spc = spc * 2 + (spc == 8)) /* 1, 2, 4, 8, 17, 35, ... */
			for (size_t c0 = 0; c0 < S; c0 += spc * 7) {
				heat_row_buckets(g, r, c0, spc, 64, got);
				for (size_t x = 0; x < 64; x++) {
					double m, w;
					bool has = heat_range(g, r, c0 + x * spc, c0 + (x + 1) * spc, &m, &w);
					if (has != !isnan(got[x]) || (has && (float)w != got[x]))
						return false;
				}
			}
	return true;
}

/* The chunk cache of a restored pyramid: 1 KB chunks, read one preadv per rank into
 * fixed slots reused oldest first; a cache of a few chunks (every read evicts) gives
 * the same cells at every zoom; a summary written with another chunk size (8 KB, as
 * earlier builds wrote) is read by its own chunk size, and still checked. */
static void test_chunk_cache(void)
{
	char dir[512], part[600], summary[600];
	struct run *want = indexed_run("cache", dir, part, summary);
	struct opts dflt = { 0 };

	struct run *got = open_dir(dir, &dflt);
	const struct heat_grid *g = analysis_heatmap(got, HEAT_COMPUTE);
	struct heat_lazy *lz = g->lazy;
	ok(lz && lz->chunk_words == 256 && lz->nchunks == (g->row_words + 255) / 256,
	   "summary written with 1 KB chunks (%zu per row)", lz ? lz->nchunks : 0);
	analysis_heat_lazy_cap(lz, 3);
	analysis_heat_lazy_cap(analysis_heatmap(got, HEAT_REL_SLOWDOWN)->lazy, 3);
	ok(same_buckets(got) && same_heat(want, got) && !tu_has_diag(got, "index summary damaged", NULL),
	   "a cache of 3 chunks (each read evicts the oldest): row buckets and every zoom = from the JSONL");
	ok(lz->cap == 3 && lz->next < 3, "... in 3 slots");
	size_t resident = 0;
	for (size_t i = 0; i <= lz->tmask; i++)
		resident += lz->tab[i].key != 0;
	is_int(resident, 3, "... 3 chunks found by (rank, chunk), the evicted ones gone from the table");
	run_free(got);

	ok(steps_summary_write_chunks(want, dir, 2048) == 0, "summary rewritten with 8 KB chunks");
	got = open_dir(dir, &dflt);
	g = analysis_heatmap(got, HEAT_COMPUTE);
	lz = g->lazy;
	ok(lz && lz->chunk_words == 2048 && same_heat(want, got) && same_buckets(got) &&
	   !tu_has_diag(got, "not used", NULL), "8 KB chunks: read by their own size, every zoom = from the JSONL");
	long long at = (long long)(lz->rows_off + (uint64_t)lz->row_src[5] * g->row_words * 4 + 2048 * 4 + 8);
	run_free(got);
	flip_byte(summary, at);
	got = open_dir(dir, &dflt);
	double m1, w1;
	ok(heat_range(analysis_heatmap(got, HEAT_COMPUTE), 5, 0, 1, &m1, &w1) &&
	   !tu_has_diag(got, "index summary damaged", NULL), "8 KB chunks: a damaged second chunk unread, unreported");
	ok(same_heat(want, got) && tu_has_diag(got, "index summary damaged", NULL),
	   "... read: its checksum catches the flipped byte, the row computed, same cells");
	run_free(got);
	run_free(want);
	tu_rm_rf(dir);
}

/* Format 3: a pyramid row is checked chunk by chunk, when the chunk is read; an index
 * of another format version is reported and rebuilt. */
static void test_summary_chunks(void)
{
	char dir[512], part[600], summary[600];
	struct run *want = indexed_run("chunks", dir, part, summary);
	struct opts dflt = { 0 };

	struct run *got = open_dir(dir, &dflt);
	const struct heat_grid *g = analysis_heatmap(got, HEAT_COMPUTE);
	const struct heat_lazy *lz = g->lazy;
	ok(same_buckets(want) && same_buckets(got), "row buckets = heat_range bucket by bucket (built and from the summary)");
	ok(lz && lz->nchunks >= 2 && lz->chunk_words == SUMMARY_CHUNK_WORDS,
	   "a restored pyramid row of 1,500 steps has 2 chunks or more");
	/* rank 3's worst of level-1 block 0 lies in a later chunk than its level-0 cells */
	size_t w = g->off_worst[1], c = w / lz->chunk_words;
	long long at = (long long)(lz->rows_off + (uint64_t)lz->row_src[3] * g->row_words * 4 + w * 4);
	ok(c > 0 && g->off_val[0] / lz->chunk_words == 0, "the byte to damage is in chunk %zu, not chunk 0", c);
	run_free(got);
	flip_byte(summary, at);

	got = open_dir(dir, &dflt);
	g = analysis_heatmap(got, HEAT_COMPUTE);
	double m1, w1, m2, w2;
	ok(heat_range(g, 3, 0, 1, &m1, &w1) && heat_range(g, 2, 0, 1024, &m1, &w1) &&
	   !tu_has_diag(got, "index summary damaged", NULL),
	   "a damaged chunk is not read (nor reported) while no frame needs it");
	ok(heat_range(g, 3, 0, 2, &m1, &w1) && tu_has_diag(got, "index summary damaged", NULL),
	   "reading it: the checksum of that chunk catches the flipped byte");
	ok(heat_range(analysis_heatmap(want, HEAT_COMPUTE), 3, 0, 2, &m2, &w2) && m1 == m2 && w1 == w2,
	   "... and the row is computed from the steps: same cell");
	run_free(got);
	got = open_dir(dir, &dflt);
	ok(same_heat(want, got) && !tu_has_diag(got, "index summary damaged", NULL),
	   "the next open rewrote the summary");
	run_free(got);

	/* An index of format version 2 (the version field of both files) */
	for (int i = 0; i < 2; i++) {
		FILE *f = fopen(i ? summary : part, "r+b");
		unsigned char v2[4] = { 2, 0, 0, 0 };
		fseek(f, 8, SEEK_SET);
		fwrite(v2, 1, 4, f);
		fclose(f);
	}
	got = open_dir(dir, &dflt);
	ok(tu_has_diag(got, "written by another index format version", NULL) && same_view(want, got, "ranks"),
	   "version 2 index: reported, read from the JSONL");
	run_free(got);
	got = open_dir(dir, &dflt);
	ok(!tu_has_diag(got, "not used", NULL) && steps_bodies_resident(got->steps) == 0 && same_heat(want, got),
	   "... and rebuilt in format %u", INDEX_VERSION);
	run_free(got);
	run_free(want);
	tu_rm_rf(dir);
}

/* The summary `tscope-tui index` writes (pyramid rows made one at a time, nothing kept)
 * and the one an open writes when the summary is missing (pyramids built whole, kept):
 * the same rows, byte for byte, and the same colour scale. */
static void test_summary_paths(void)
{
	char dir[512], summary[600];
	tu_mkdtemp(dir, sizeof(dir), "sumpaths");
	write_lazy_run(dir);
	snprintf(summary, sizeof(summary), "%s/.tscope-index/summary.tsx", dir);
	struct opts build = { .index_build = true }, dflt = { 0 };
	run_free(open_dir(dir, &build));
	struct stat st;
	char *streamed = tu_read_file(summary);
	size_t n1 = stat(summary, &st) == 0 ? (size_t)st.st_size : 0;
	unlink(summary);
	struct run *got = open_dir(dir, &dflt); /* every part used, no summary: it writes one */
	char *built = tu_read_file(summary);
	size_t n2 = stat(summary, &st) == 0 ? (size_t)st.st_size : 0;
	uint64_t rows_end = 0; /* the head's offset in the payload: the rows lie before it */
	for (int b = 0; streamed && n1 >= INDEX_HEADER_LEN && b < 8; b++)
		rows_end |= (uint64_t)(unsigned char)streamed[24 + b] << (8 * b);
	ok(streamed && built && n1 == n2 && rows_end > 1000 && rows_end < n1 &&
	   memcmp(streamed, built, 24) == 0 && memcmp(streamed + INDEX_HEADER_LEN, built + INDEX_HEADER_LEN, rows_end) == 0,
	   "summary: rows streamed by `index` = rows of the pyramids built whole, byte for byte");
	run_free(got);
	struct opts plain = { .no_index = true };
	struct run *want = open_dir(dir, &plain);
	got = open_dir(dir, &dflt);
	ok(same_kept_scale(want, got), "summary written at open: colour scale kept = a full pass over the rows");
	run_free(want);
	run_free(got);
	free(streamed);
	free(built);
	tu_rm_rf(dir);

	/* step 5 without compute on any rank: its slowdown is missing, the slowdown pyramid
	 * is not dense, the stream gives up and the pyramids are built whole */
	tu_mkdtemp(dir, sizeof(dir), "sumsparse");
	write_sparse_run(dir);
	snprintf(summary, sizeof(summary), "%s/.tscope-index/summary.tsx", dir);
	run_free(open_dir(dir, &build));
	ok(access(summary, F_OK) == 0, "summary with a missing slowdown cell: written");
	want = open_dir(dir, &plain);
	got = open_dir(dir, &dflt);
	double mean, worst;
	ok(same_heat(want, got) && !tu_has_diag(got, "not used", NULL) &&
	   !heat_range(analysis_heatmap(got, HEAT_REL_SLOWDOWN), 1, 5, 6, &mean, &worst),
	   "... read back: every pyramid range = from the JSONL, the cell missing");
	run_free(want);
	run_free(got);
	tu_rm_rf(dir);
}

/* 5 ranks; lead: rank 3 runs 9 steps longer (columns after the aligned steps: compute cells
 * missing on the others, no slowdown there); gap: step 4 has no compute on any rank (its
 * cells missing, no step median: no slowdown); rank 1 lacks forward at step 7. */
static struct run *pair_run(bool lead, bool gap)
{
	struct run *run = tu_empty_run();
	struct steps_model *m = steps_model_get(run);
	int fwd = steps_metric_intern(m, METRIC_PHASE, "forward");
	int bwd = steps_metric_intern(m, METRIC_PHASE, "backward");
	int comm = steps_metric_intern(m, METRIC_PHASE, "comm");
	for (int r = 0; r < 5; r++) {
		struct rank_steps *rs = steps_rank_new(m, r, "synthetic");
		for (long s = 0; s < (lead && r == 3 ? 49 : 40); s++) {
			size_t pos = rank_append(rs, s, 0, false);
			if (!(gap && s == 4) && !(r == 1 && s == 7))
				rank_set(rs, pos, fwd, 0.01 + 1e-4 * (double)((r * 7 + s * 13) % 11) + (r == 2 ? 0.003 : 0));
			if (!(gap && s == 4))
				rank_set(rs, pos, bwd, 0.02 + 1e-5 * (double)(s % 5));
			rank_set(rs, pos, comm, 0.004);
		}
		steps_publish_rank(m, rs);
	}
	steps_finalize(m);
	return run;
}

/* analysis_heatmaps() fills the compute and slowdown pyramids in one pass: every cell
 * and block equals the two grids built one at a time, bit for bit (missing cells, a step
 * without compute, columns after the aligned steps), with or without the distributed analysis
 * computed first. */
static void test_heat_pair(void)
{
	static const int series[] = { HEAT_COMPUTE, HEAT_REL_SLOWDOWN };
	struct run *one = pair_run(true, true), *pair = pair_run(true, true), *dist_first = pair_run(true, true);
	is_int(steps_ncolumns(one->steps) - steps_naligned(one->steps), 9, "pair run: 9 columns after the aligned steps");
	analysis_heatmaps(pair, series, ARRAY_LEN(series));
	ok(same_heat(one, pair), "compute + slowdown pyramids in one pass = built one at a time, bit for bit");
	ok(analysis_distributed(dist_first) != NULL, "pair run: distributed analysis");
	analysis_heatmaps(dist_first, series, ARRAY_LEN(series));
	ok(same_heat(one, dist_first), "... also after the distributed analysis (its step medians)");
	double mean, worst;
	const struct heat_grid *rel = analysis_heatmap(pair, HEAT_REL_SLOWDOWN);
	ok(rel && !heat_range(rel, 0, 4, 5, &mean, &worst) && !heat_range(rel, 3, 45, 46, &mean, &worst) &&
	   heat_range(rel, 2, 0, 40, &mean, &worst) && mean > 0.05,
	   "slowdown: missing at a step without compute and after the aligned steps, present elsewhere");
	run_free(one);
	run_free(pair);
	run_free(dist_first);
}

/* Every block of a dense pyramid against the definition, bit for bit: the count-weighted
 * mean of its two children (as doubles, summed in order) and the worse of their worsts
 * (the full blocks take a path without counts, analysis_heatmap.c heat_level_row). */
static void test_heat_levels(void)
{
	struct run *run = pair_run(false, false); /* the aligned steps only, each with compute: a dense grid */
	const struct heat_grid *g = analysis_heatmap(run, HEAT_COMPUTE);
	size_t S = heat_nsteps(g), bad = 0, blocks = 0;
	float *v = xmalloc(S * sizeof(*v)), *w = xmalloc(S * sizeof(*w));
	double *c = xmalloc(S * sizeof(*c));
	for (size_t r = 0; g && r < heat_nranks(g); r++) {
		for (size_t k = 0; k < S; k++) {
			double m0, w0;
			heat_range(g, r, k, k + 1, &m0, &w0);
			v[k] = (float)m0;
			w[k] = (float)w0;
			c[k] = 1;
		}
		for (size_t len = S, l = 1; len > 1; l++) {
			size_t nlen = (len + 1) / 2;
			for (size_t b = 0; b < nlen; b++) {
				double sum = 0, cnt = 0;
				float worst = w[2 * b];
				for (size_t j = 2 * b; j < 2 * b + 2 && j < len; j++) {
					sum += (double)v[j] * c[j];
					cnt += c[j];
					worst = w[j] > worst ? w[j] : worst;
				}
				v[b] = (float)(sum / cnt);
				w[b] = worst;
				c[b] = cnt;
				size_t lo = b << l, hi = lo + ((size_t)1 << l);
				double m1, w1;
				if (hi > S) /* a range over a partial block sums its pieces in another order */
					continue;
				bool have = heat_range(g, r, lo, hi, &m1, &w1); /* exactly block b of level l */
				float fm = (float)m1, fw = (float)w1;
				bad += !have || memcmp(&fm, &v[b], sizeof(fm)) || memcmp(&fw, &w[b], sizeof(fw));
				blocks++;
			}
			len = nlen;
		}
	}
	ok(g && blocks > 150 && bad == 0, "dense pyramid: every block = its definition, bit for bit (%zu blocks)", blocks);
	free(v);
	free(w);
	free(c);
	run_free(run);
}

int main(void)
{
	test_lazy_open();
	test_summary_chunks();
	test_chunk_cache();
	test_heat_pair();
	test_heat_levels();
	test_summary_paths();
	return tap_done();
}
