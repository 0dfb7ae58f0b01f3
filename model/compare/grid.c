/* SPDX-License-Identifier: MIT */
/* grid.c: the comparison heatmap (see compare.h): the ranks both runs have x the step
 * numbers both runs have, showing B - A (a diverging scale: the pane colours slower and
 * faster apart), A or B. A and B read each run's heatmap pyramid (analysis.h heat_range);
 * the delta is read once per cell into grid blocks by the pane. */
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
	int *rank;                /* their rank ids */
	const struct steps_model *ma;
	bool contiguous;          /* ka and kb are runs of consecutive indexes */
	size_t nrows, ncols;
	char title[80];
};

static bool side_value(const struct heat_grid *g, size_t ri, size_t k, double *out)
{
	double worst;
	return heat_range(g, ri, k, k + 1, out, &worst);
}

static bool cg_value(void *ud, size_t row, size_t col, double *out)
{
	const struct cg *g = ud;
	double a, b;
	bool ha = g->metric != CMP_GRID_B && side_value(g->ga, g->ra[row], g->ka[col], &a);
	bool hb = g->metric != CMP_GRID_A && side_value(g->gb, g->rb[row], g->kb[col], &b);
	switch (g->metric) {
	case CMP_GRID_A: *out = a; return ha;
	case CMP_GRID_B: *out = b; return hb;
	default: *out = b - a; return ha && hb;
	}
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

bool compare_grid_open(struct compare *c, int metric, struct grid_src *src, char *err, size_t errn)
{
	const struct cmp_ranks *r = compare_ranks(c);
	if (!r || !r->ncommon || !r->ncommon_ranks) {
		snprintf(err, errn, "no heatmap: A and B have no %s in common", !r ? "step records" :
			 !r->ncommon ? "step number" : "rank id");
		return false;
	}
	const struct steps_model *ma = c->a->steps, *mb = c->b->steps;
	struct cg *g = xcalloc(1, sizeof(*g));
	g->metric = metric;
	g->ma = ma;
	int series = r->a_ranks > 1 && r->b_ranks > 1 ? HEAT_COMPUTE : HEAT_STEP_TIME;
	g->ga = analysis_heatmap(c->a, series);
	g->gb = analysis_heatmap(c->b, series);
	g->ncols = compare_common_steps(ma, mb, &g->ka, &g->kb);
	g->ra = xmalloc((r->n + 1) * sizeof(*g->ra));
	g->rb = xmalloc((r->n + 1) * sizeof(*g->rb));
	g->rank = xmalloc((r->n + 1) * sizeof(*g->rank));
	for (size_t i = 0; i < r->n; i++) {
		if (!r->v[i].in_a || !r->v[i].in_b)
			continue;
		g->ra[g->nrows] = (size_t)steps_rank_index(ma, r->v[i].rank);
		g->rb[g->nrows] = (size_t)steps_rank_index(mb, r->v[i].rank);
		g->rank[g->nrows++] = r->v[i].rank;
	}
	g->contiguous = runs_of_one(g->ka, g->ncols) && runs_of_one(g->kb, g->ncols);
	const char *what = series == HEAT_COMPUTE ? "compute" : "step time";
	static const char *const side[] = { "B - A", "A", "B" };
	snprintf(g->title, sizeof(g->title), "%s %s", what, side[metric]);
	*src = (struct grid_src){
		.nrows = g->nrows, .ncols = g->ncols, .title = g->title, .row_axis = "rank",
		.col_axis = "step", .unit = "s", .ud = g, .value = cg_value, .row_label = cg_row_label,
		.col_label = cg_col_label, .row_id = cg_row_id, .row_find = cg_row_find, .col_id = cg_col_id,
		.col_find = cg_col_find, .diverging = metric == CMP_GRID_DELTA,
		.range = metric != CMP_GRID_DELTA && g->contiguous ? cg_range : NULL,
	};
	return true;
}

void compare_grid_close(struct grid_src *src)
{
	struct cg *g = src->ud;
	if (!g)
		return;
	free(g->ka);
	free(g->kb);
	free(g->ra);
	free(g->rb);
	free(g->rank);
	free(g);
	src->ud = NULL;
}

const char *compare_grid_name(int metric)
{
	static const char *const name[] = { "delta B-A", "A", "B" };
	return metric >= 0 && metric < CMP_GRID_NMETRICS ? name[metric] : "?";
}
