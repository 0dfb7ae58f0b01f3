/* SPDX-License-Identifier: MIT */
/* index_fixture.h: small multi-rank pytscope runs and the comparisons the index tests
 * share (tests/unit/test_index.c, test_index_summary.c, test_index_stream.c): views as
 * CSV, every pyramid range. Include after tests/testutil.h and the model headers it
 * uses. */
#ifndef TESTS_INDEX_FIXTURE_H
#define TESTS_INDEX_FIXTURE_H

#include <ctype.h>

/* RANKS x STEPS of pytscope lines under dir/rankN; rank 4 turns slow at step 20; rank 2
 * lacks step 33 (its steps are not contiguous, so the aligned set is not either). */
#define LZ_RANKS 6
#define LZ_STEPS 1500
static inline void write_lazy_run(const char *dir)
{
	for (int r = 0; r < LZ_RANKS; r++) {
		char path[1024];
		snprintf(path, sizeof(path), "%.500s/rank%d", dir, r);
		tu_make_dir(path);
		size_t cap = LZ_STEPS * 200, n = 0;
		char *buf = xmalloc(cap);
		for (int s = 0; s < LZ_STEPS; s++) {
			if (r == 2 && s == 33)
				continue;
			double f = 0.030 + 0.0001 * ((r * 7 + s * 13) % 11) + (r == 4 && s >= 20 ? 0.012 : 0);
			n += (size_t)snprintf(buf + n, cap - n,
					      "{\"step\":%d,\"timestamp\":%d.5,\"phases\":{\"data\":0.004,\"forward\":%.6f,"
					      "\"backward\":%.6f,\"comm\":0.010},\"scalars\":{\"loss\":%.4f}}\n",
					      s, 1000 + s, f, 2 * f, 3.0 - 0.01 * s);
		}
		snprintf(path, sizeof(path), "%.500s/rank%d/steps.jsonl", dir, r);
		tu_write_file(path, buf, n);
		free(buf);
	}
}

static inline char *view_csv(struct run *run, const char *name)
{
	char err[256];
	struct table *t = registry_view(name)->build(run, err, sizeof(err));
	if (!t)
		return xstrdup("");
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);
	table_write_csv(t, f, 0);
	fclose(f);
	table_free(t);
	return out;
}

static inline bool same_view(struct run *a, struct run *b, const char *name)
{
	char *x = view_csv(a, name), *y = view_csv(b, name);
	bool same = strcmp(x, y) == 0 && strlen(x) > 20;
	if (!same)
		printf("# view %s differs:\n%s\n---\n%s", name, x, y);
	free(x);
	free(y);
	return same;
}

static inline struct run *open_dir(const char *dir, const struct opts *o)
{
	const char *paths[] = { dir };
	return run_open(paths, 1, o, NULL);
}

/* The cells of columns [0, S) of two pyramids, as the pane's zoom levels ask them. */
static inline bool same_cells(const struct heat_grid *ga, const struct heat_grid *gb, size_t S)
{
	if (!ga || !gb || heat_nsteps(ga) < S || heat_nsteps(gb) < S || heat_nranks(ga) != heat_nranks(gb))
		return false;
	for (size_t r = 0; r < heat_nranks(ga); r++)
		for (size_t w = 1; w <= S; w *= 3)
			for (size_t k = 0; k < S; k += w) {
				double ma = 0, wa = 0, mb = 0, wb = 0;
				size_t e = k + w < S ? k + w : S;
				bool ha = heat_range(ga, r, k, e, &ma, &wa), hb = heat_range(gb, r, k, e, &mb, &wb);
				if (ha != hb || (ha && (memcmp(&ma, &mb, sizeof(ma)) || memcmp(&wa, &wb, sizeof(wa)))))
					return false;
			}
	return true;
}

/* Every heatmap cell of both pyramids: over the aligned steps as analysis_heatmap() gives
 * them (b's from its index summary, as restored), then over every column as the pane
 * shows them (analysis_heatmap_all: the later steps of the ranks that go on too). */
static inline bool same_heat(struct run *a, struct run *b)
{
	const int series[] = { HEAT_COMPUTE, HEAT_REL_SLOWDOWN };
	for (size_t i = 0; i < ARRAY_LEN(series); i++) {
		if (!same_cells(analysis_heatmap(a, series[i]), analysis_heatmap(b, series[i]), steps_naligned(a->steps)))
			return false;
		const struct heat_grid *ga = analysis_heatmap_all(a, series[i]), *gb = analysis_heatmap_all(b, series[i]);
		if (!ga || !gb || heat_nsteps(ga) != heat_nsteps(gb) || !same_cells(ga, gb, heat_nsteps(ga)))
			return false;
	}
	return true;
}

/* 3 ranks x 20 steps; step 5 without compute on any rank (a step median of 0: the
 * slowdown pyramid has a missing cell, so its layout has counts). */
static inline void write_sparse_run(const char *dir)
{
	for (int r = 0; r < 3; r++) {
		char path[700], buf[4096];
		size_t n = 0;
		snprintf(path, sizeof(path), "%.500s/rank%d", dir, r);
		tu_make_dir(path);
		for (int k = 0; k < 20; k++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,
					      "{\"step\":%d,\"phases\":{\"forward\":%.3f,\"comm\":0.0%d}}\n", k,
					      k == 5 ? 0.0 : 0.020 + 0.001 * r, 10 + (k * 7 + r) % 5);
		snprintf(path, sizeof(path), "%.500s/rank%d/steps.jsonl", dir, r);
		tu_write_file(path, buf, n);
	}
}

/* Ranks whose steps are not one run of step numbers, 60 records each unless said: 'g' a
 * gap (steps 20-24 missing), 's' several gaps (every 7th step from 3), 'r' a restart
 * (steps 0-39, then 25 on again: the later record of a step wins), 't' two restarts (80
 * records), 'z' a restart from step 0 that ends below the steps reached (0-59, then 0-19),
 * 'm' forward and backward missing on every 5th record, 'c' contiguous, 'l'
 * contiguous from step 3, 'e' an empty steps.jsonl, 'b' only lines that are not
 * records, 'n' contiguous without a data or comm phase, 'x' contiguous with a bad line
 * before every 10th record. Upper case: the same without an optimizer phase (a shard
 * holding only such ranks has fewer compute phases than the merged run). */
static inline void write_kinds_run(const char *dir, const char *kinds)
{
	for (int r = 0; kinds[r]; r++) {
		char path[700], kind = (char)tolower((unsigned char)kinds[r]);
		bool opt = !isupper((unsigned char)kinds[r]);
		snprintf(path, sizeof(path), "%s/rank%d", dir, r);
		tu_make_dir(path);
		size_t cap = 80 * 240, n = 0;
		char *buf = xmalloc(cap);
		if (kind == 'b')
			n = (size_t)snprintf(buf, cap, "{not json\n{\"step\": }\n[1,2]\n");
		for (int k = 0; k < 80 && kind != 'e' && kind != 'b'; k++) {
			int step = kind == 'l' ? k + 3 : kind == 'r' && k >= 40 ? k - 15 : k;
			if (kind == 't')
				step = k < 30 ? k : k < 55 ? k - 20 : k - 40;
			if (kind == 'z')
				step = k < 60 ? k : k - 60;
			bool gap = (kind == 'g' && k >= 20 && k < 25) || (kind == 's' && k % 7 == 3);
			if (gap || (kind != 't' && kind != 'z' && k >= 60))
				continue;
			if (kind == 'x' && k % 10 == 4) /* a bad line before the record */
				n += (size_t)snprintf(buf + n, cap - n, "{\"step\": %d, not json\n", step);
			double f = 0.020 + 0.0001 * ((r * 5 + k * 11) % 13) + (r == 3 && k >= 30 && k < 60 ? 0.006 : 0);
			n += (size_t)snprintf(buf + n, cap - n, "{\"step\":%d,\"phases\":{%s", step,
					      kind == 'n' ? "" : "\"data\":0.002,");
			if (kind != 'm' || k % 5 != 2)
				n += (size_t)snprintf(buf + n, cap - n, "\"forward\":%.6f,\"backward\":%.6f,", f,
						      2 * f);
			if (opt)
				n += (size_t)snprintf(buf + n, cap - n, "\"optimizer\":0.00%d,", 1 + (k + r) % 5);
			if (kind != 'n')
				n += (size_t)snprintf(buf + n, cap - n, "\"comm\":0.0%02d,", 10 + (k * 3 + r) % 17);
			n--; /* the last phase's comma */
			n += (size_t)snprintf(buf + n, cap - n, "},\"memory\":{\"peak_alloc\":%d}}\n",
					      1000 + (k * 7 + r * 13) % 301);
		}
		snprintf(path, sizeof(path), "%s/rank%d/steps.jsonl", dir, r);
		tu_write_file(path, buf, n);
		free(buf);
	}
}

#endif
