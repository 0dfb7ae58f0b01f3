/* SPDX-License-Identifier: MIT */
/* grid.c: the comparison heatmap (see compare.h; a grid_provider over the pair): the ranks both runs have x the step
 * numbers both runs have, showing B - A (a diverging scale: the pane colours slower and
 * faster apart), A or B, of what the ranks are compared by (compare_side_series: a trace
 * set's compute is its compute kernels' time). A and B read each run's heatmap pyramid
 * (analysis.h heat_range); the delta is read once per cell into grid blocks by the pane.
 * When one side records a phase the other does not (compare_phases_one_side), A's and B's
 * values add up different phases: B - A has no cell, its note says why. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "model/compare/internal.h"
#include "model/grid.h"
#include "model/steps/analysis.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"

struct cg {
	int metric;
	const struct heat_grid *ga, *gb;
	size_t *ka, *kb;          /* aligned indexes of the common steps in A and B */
	size_t *ra, *rb;          /* rank indexes of the common ranks in A and B */
	const float **row_a, **row_b; /* their per-step values (heat_row) */
	int *rank;                /* their rank ids */
	const struct steps_model *ma;
	bool contiguous;          /* ka and kb are runs of consecutive indexes */
	bool no_delta;            /* B - A has no cell: note says why */
	size_t nrows, ncols;
	char title[80];
	char note[240];
};

static bool cg_value(void *ud, size_t row, size_t col, double *out)
{
	const struct cg *g = ud;
	if (g->no_delta)
		return false;
	double a = g->row_a[row][g->ka[col]], b = g->row_b[row][g->kb[col]];
	*out = g->metric == CMP_GRID_A ? a : g->metric == CMP_GRID_B ? b : b - a;
	return !isnan(*out);   /* NaN marks a missing value on either side */
}

/* A and B only, over consecutive aligned indexes: the side's own pyramid. */
static bool cg_range(void *ud, size_t row, size_t c0, size_t c1, double *mean, double *worst)
{
	const struct cg *g = ud;
	if (g->metric == CMP_GRID_A)
		return heat_range(g->ga, g->ra[row], g->ka[c0], g->ka[c1 - 1] + 1, mean, worst);
	return heat_range(g->gb, g->rb[row], g->kb[c0], g->kb[c1 - 1] + 1, mean, worst);
}

static void cg_row_label(void *ud, size_t row, char *buf, size_t n)
{
	snprintf(buf, n, "%d", ((const struct cg *)ud)->rank[row]);
}

static long cg_row_id(void *ud, size_t row)
{
	return ((const struct cg *)ud)->rank[row];
}

static long cg_col_id(void *ud, size_t col)
{
	const struct cg *g = ud;
	return steps_aligned_step(g->ma, g->ka[col]);
}

static void cg_col_label(void *ud, size_t col, char *buf, size_t n)
{
	snprintf(buf, n, "%ld", cg_col_id(ud, col));
}

static long cg_row_find(void *ud, long id)
{
	const struct cg *g = ud;
	for (size_t r = 0; r < g->nrows; r++)
		if (g->rank[r] == id)
			return (long)r;
	return -1;
}

static long cg_col_find(void *ud, long id)
{
	const struct cg *g = ud;
	size_t lo = 0, hi = g->ncols;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cg_col_id(ud, mid) < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->ncols ? (long)lo : -1;
}

static bool runs_of_one(const size_t *k, size_t n)
{
	return n == 0 || k[n - 1] - k[0] == n - 1;
}

/* The rank ids both runs have, with their rank indexes on each side. */
static void common_ranks(struct cg *g, const struct steps_model *ma, const struct steps_model *mb)
{
	size_t na = steps_nranks(ma), nb = steps_nranks(mb), n = na < nb ? na : nb;
	g->ra = xmalloc((n + 1) * sizeof(*g->ra));
	g->rb = xmalloc((n + 1) * sizeof(*g->rb));
	g->rank = xmalloc((n + 1) * sizeof(*g->rank));
	for (size_t i = 0, j = 0; i < na && j < nb;) {
		int ia = steps_rank_id(ma, i), ib = steps_rank_id(mb, j);
		if (ia != ib) {
			i += ia < ib;
			j += ib < ia;
			continue;
		}
		g->ra[g->nrows] = i++;
		g->rb[g->nrows] = j++;
		g->rank[g->nrows++] = ia;
	}
}

static void cg_close(struct grid_src *src);

static bool cg_open(void *model, size_t metric, struct grid_src *src, char *err, size_t errn)
{
	struct compare *c = model;
	const struct steps_model *ma = c->a->steps, *mb = c->b->steps;
	if (!ma || !mb || !steps_naligned(ma) || !steps_naligned(mb)) {
		snprintf(err, errn, "no heatmap: %s has no step records", !ma || !steps_naligned(ma) ? "A" : "B");
		return false;
	}
	struct cg *g = xcalloc(1, sizeof(*g));
	g->metric = (int)metric;
	g->ma = ma;
	int sa = compare_side_series(c, 0), sb = compare_side_series(c, 1);
	g->ncols = compare_common_steps(ma, mb, &g->ka, &g->kb);
	common_ranks(g, ma, mb);
	if (!g->ncols || !g->nrows) {
		snprintf(err, errn, "no heatmap: A and B have no %s in common", !g->ncols ? "step number" : "rank id");
		struct grid_src tmp = { .ud = g };
		cg_close(&tmp);
		return false;
	}
	g->ga = analysis_heatmap(c->a, sa);
	g->gb = analysis_heatmap(c->b, sb);
	char one_side[160];
	if (metric == CMP_GRID_DELTA && compare_phases_one_side(ma, mb, one_side, sizeof(one_side))) {
		g->no_delta = true;
		snprintf(g->note, sizeof(g->note), "B - A not shown: %s, so A's and B's times add up different phases",
			 one_side);
	}
	g->row_a = xmalloc(g->nrows * sizeof(*g->row_a));
	g->row_b = xmalloc(g->nrows * sizeof(*g->row_b));
	for (size_t r = 0; r < g->nrows; r++) {
		g->row_a[r] = heat_row(g->ga, g->ra[r]);
		g->row_b[r] = heat_row(g->gb, g->rb[r]);
	}
	g->contiguous = runs_of_one(g->ka, g->ncols) && runs_of_one(g->kb, g->ncols);
	const char *what = sa == HEAT_STEP_TIME ? "step time" : "compute";
	static const char *const side[] = { "B - A", "A", "B" };
	snprintf(g->title, sizeof(g->title), "%s %s", what, side[metric]);
	*src = (struct grid_src){
		.nrows = g->nrows, .ncols = g->ncols, .title = g->title, .row_axis = "rank",
		.col_axis = "step", .unit = "s", .ud = g, .value = cg_value, .row_label = cg_row_label,
		.col_label = cg_col_label, .row_id = cg_row_id, .row_find = cg_row_find, .col_id = cg_col_id,
		.col_find = cg_col_find, .diverging = metric == CMP_GRID_DELTA,
		.range = metric != CMP_GRID_DELTA && g->contiguous ? cg_range : NULL,
		.note = g->no_delta ? g->note : NULL,
	};
	return true;
}

static void cg_close(struct grid_src *src)
{
	struct cg *g = src->ud;
	if (!g)
		return;
	free(g->ka);
	free(g->kb);
	free(g->ra);
	free(g->rb);
	free(g->rank);
	free(g->row_a);
	free(g->row_b);
	free(g);
	src->ud = NULL;
}

static size_t cg_nmetrics(void *model)
{
	return CMP_GRID_NMETRICS;   /* a pair without steps in common: cg_open says why */
}

static const char *cg_metric_name(void *model, size_t metric)
{
	static const char *const name[] = { "delta B-A", "A", "B" };
	return metric < CMP_GRID_NMETRICS ? name[metric] : "?";
}

const struct grid_provider compare_grid = {
	.name = "compare",
	.label = "Heatmap",
	.metric_keys = "A/B/delta",
	.nmetrics = cg_nmetrics,
	.metric_name = cg_metric_name,
	.open = cg_open,
	.close = cg_close,
};
