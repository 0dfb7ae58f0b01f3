/* SPDX-License-Identifier: MIT */
/* index_fixture.h: a small multi-rank pytscope run and the comparisons the index tests
 * share (tests/unit/test_index.c, test_index_summary.c): views as CSV, every pyramid
 * range. Include after tests/testutil.h and the model headers it uses. */
#ifndef TESTS_INDEX_FIXTURE_H
#define TESTS_INDEX_FIXTURE_H

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

/* Every heatmap cell of both pyramids, as the pane's zoom levels ask them. */
static inline bool same_heat(struct run *a, struct run *b)
{
	const int series[] = { HEAT_COMPUTE, HEAT_REL_SLOWDOWN };
	for (size_t i = 0; i < ARRAY_LEN(series); i++) {
		const struct heat_grid *ga = analysis_heatmap(a, series[i]), *gb = analysis_heatmap(b, series[i]);
		if (!ga || !gb || heat_nsteps(ga) != heat_nsteps(gb) || heat_nranks(ga) != heat_nranks(gb))
			return false;
		for (size_t r = 0; r < heat_nranks(ga); r++)
			for (size_t w = 1; w <= heat_nsteps(ga); w *= 3)
				for (size_t k = 0; k < heat_nsteps(ga); k += w) {
					double ma = 0, wa = 0, mb = 0, wb = 0;
					bool ha = heat_range(ga, r, k, k + w, &ma, &wa), hb = heat_range(gb, r, k, k + w, &mb, &wb);
					if (ha != hb || (ha && (memcmp(&ma, &mb, sizeof(ma)) || memcmp(&wa, &wb, sizeof(wa)))))
						return false;
				}
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

#endif
