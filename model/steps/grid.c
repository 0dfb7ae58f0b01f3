/* SPDX-License-Identifier: MIT */
/* grid.c: the ranks x steps grids of the step model, one per metric (compute, relative
 * slowdown vs the step median, step time, comm, each phase), read from the analyzers'
 * heatmap pyramids (analysis.h heat_range), so any rectangle costs O(rows x log
 * steps). The columns are the aligned steps, then the later steps of the ranks that go
 * on (a live run's leading ranks, the others when a rank ended early: steps_ncolumns),
 * where a rank without a record has its cells missing. A metric that would read 0 for
 * want of a comparison or a measurement is not offered (derived_offered). A cell is the
 * record its step takes in the run's alignment (internal.h NATIVE ALIGNMENT), and so is
 * the cell's description. Enter on a cell opens the step's kernels when a trace covers
 * it, else the rank's steps. A pyramid that is not in memory and would take long to
 * build is a grid job (heat_job.h): built on its own thread, owned by the grid source it
 * opens, coarse (columns of 2^shift steps) when the full one would not fit memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/steps/analysis.h"
#include "model/steps/heat_job.h"
#include "model/steps/internal.h"
#include "model/grid.h"
#include "model/groups.h"
#include "model/steps/nodes.h"
#include "model/run.h"
#include "model/findings.h"
#include "model/steps/steps.h"
#include "model/trace/trace.h"   /* trace_covers: a cell opens its step's kernels */
#include "model/units.h"
#include "model/xalloc.h"

static const struct {
	int series;
	const char *name;
	const char *unit;
} derived[] = {
	{ HEAT_COMPUTE, "compute", "s" },
	{ HEAT_REL_SLOWDOWN, "slowdown vs step median", "x-1" },
	{ HEAT_STEP_TIME, "step time", "s" },
	{ HEAT_COMM, "comm", "s" },
};

struct gs {
	struct run *run;
	const struct steps_model *m;
	const struct heat_grid *g;
	struct heat_grid *own;    /* g when a grid job made it (freed with the source) */
	unsigned shift;           /* a column is 2^shift steps (a coarse job grid) */
	struct groups *nodes;     /* ranks by node (nodes.h), NULL */
	char title[96];
};

/* A phase the metrics list on their own: not comm, which the derived comm series is. */
static bool listed_phase(const struct steps_model *m, int id)
{
	const struct metric_def *mi = steps_metric(m, id);
	return mi->kind == METRIC_PHASE && strcmp(mi->name, "comm") != 0;
}

static size_t nphases(const struct steps_model *m)
{
	size_t n = 0;
	for (size_t i = 0; i < steps_nmetrics(m); i++)
		if (listed_phase(m, (int)i))
			n++;
	return n;
}

/* Phase metric id of the k-th listed phase (in the run's order), or -1. */
static int phase_id(const struct steps_model *m, size_t k)
{
	for (size_t i = 0; i < steps_nmetrics(m); i++) {
		int id = steps_metric_nth(m, i);
		if (listed_phase(m, id) && k-- == 0)
			return id;
	}
	return -1;
}

/* Whether the run offers derived series i: compute and the slowdown only when it records
 * a compute phase, the slowdown only with 2 ranks or more (one rank has nothing to be
 * compared against: its slowdown against its own median would read 0), comm only when
 * it records a comm phase; else the heatmap would show a 0 nothing measured. */
static bool derived_offered(const struct run *run, size_t i)
{
	switch (derived[i].series) {
	case HEAT_REL_SLOWDOWN:
		return steps_nranks(run->steps) >= 2 && analysis_has_compute(run->steps);
	case HEAT_COMPUTE:
		return analysis_has_compute(run->steps);
	case HEAT_COMM:
		return steps_has_phase(run->steps, "comm");
	default:
		return true;
	}
}

static size_t nderived(const struct run *run)
{
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_LEN(derived); i++)
		n += derived_offered(run, i);
	return n;
}

/* The entry of derived[] that metric k (< nderived) is. */
static size_t derived_at(const struct run *run, size_t k)
{
	size_t i = 0;
	for (; i < ARRAY_LEN(derived); i++)
		if (derived_offered(run, i) && k-- == 0)
			break;
	return i;
}

static size_t gs_nmetrics(void *model)
{
	struct run *run = model;
	if (!run->steps || steps_naligned(run->steps) == 0)
		return 0;
	return nderived(run) + nphases(run->steps);
}

static const char *gs_metric_name(void *model, size_t i)
{
	struct run *run = model;
	if (i < nderived(run))
		return derived[derived_at(run, i)].name;
	int id = run->steps ? phase_id(run->steps, i - nderived(run)) : -1;
	return id >= 0 ? steps_metric(run->steps, id)->name : "?";
}

static bool gs_value(void *ud, size_t row, size_t col, double *out)
{
	struct gs *s = ud;
	double w;
	return heat_range(s->g, row, col, col + 1, out, &w);
}

static bool gs_range(void *ud, size_t row, size_t c0, size_t c1, double *mean, double *worst)
{
	struct gs *s = ud;
	return heat_range(s->g, row, c0, c1, mean, worst);
}

static void gs_row_buckets(void *ud, size_t row, size_t c0, size_t spc, size_t n, float *worst)
{
	struct gs *s = ud;
	heat_row_buckets(s->g, row, c0, spc, n, worst);
}

static bool gs_scale(void *ud, double *lo, double *hi)
{
	struct gs *s = ud;
	return heat_kept_scale(s->g, lo, hi);
}

static void gs_row_label(void *ud, size_t row, char *buf, size_t n)
{
	struct gs *s = ud;
	snprintf(buf, n, "%d", steps_rank_id(s->m, row));
}

static void gs_col_label(void *ud, size_t col, char *buf, size_t n)
{
	struct gs *s = ud;
	snprintf(buf, n, "%ld", steps_column_step(s->m, col << s->shift));
}

static long gs_row_id(void *ud, size_t row)
{
	return steps_rank_id(((struct gs *)ud)->m, row);
}

static long gs_row_find(void *ud, long id)
{
	return steps_rank_index(((struct gs *)ud)->m, (int)id);
}

static long gs_col_id(void *ud, size_t col)
{
	const struct gs *s = ud;
	return steps_column_step(s->m, col << s->shift);
}

/* The first step and the last step of column col (a coarse column's block). */
static void col_steps(const struct gs *s, size_t col, long *lo, long *hi)
{
	size_t S = steps_ncolumns(s->m), last = ((col + 1) << s->shift) - 1;
	*lo = steps_column_step(s->m, col << s->shift);
	*hi = steps_column_step(s->m, last < S ? last : S - 1);
}

static long gs_col_find(void *ud, long id)
{
	const struct gs *s = ud;
	const struct steps_model *m = s->m;
	size_t lo = 0, hi = steps_ncolumns(m);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (steps_column_step(m, mid) < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < steps_ncolumns(m) ? (long)(lo >> s->shift) : -1;
}

static void gs_describe(void *ud, size_t row, size_t col, char *buf, size_t n)
{
	struct gs *s = ud;
	size_t pos, k = 0;
	buf[0] = '\0';
	if (s->shift) {   /* a coarse cell: which steps its worst and mean are over */
		long lo, hi;
		col_steps(s, col, &lo, &hi);
		snprintf(buf, n, "one %zu-step block: steps %ld-%ld", (size_t)1 << s->shift, lo, hi);
		return;
	}
	if (!analysis_step_record(s->run, row, steps_column_step(s->m, col), &pos)) {
		snprintf(buf, n, "no record yet (the rank is behind)");
		return;
	}
	/* a phase named as the grid's metric (a trace's compute kernels beside the step's
	 * compute): the phases are said to be phases */
	size_t start = 0;
	if (steps_metric_find(s->m, METRIC_PHASE, s->title) >= 0)
		k = start = (size_t)snprintf(buf, n, "phases: ");
	for (size_t i = 0; i < steps_nmetrics(s->m) && k + 1 < n; i++) {
		int id = steps_metric_nth(s->m, i);
		const struct metric_def *d = steps_metric(s->m, id);
		double v;
		char num[32] = "-";
		if (d->kind != METRIC_PHASE)
			continue;
		if (steps_value(s->m, row, id, pos, &v))
			units_seconds(v, num, sizeof(num));
		/* two spaces between fields: a narrow status row drops whole fields */
		k += (size_t)snprintf(buf + k, n - k, "%s%s %s", k > start ? "  " : "", d->name, num);
		if (k >= n)
			k = n - 1;
	}
}

/* A cell is (rank, aligned step): the kernels of that step when a trace covers it,
 * else the rank's steps at that step. */
static bool gs_cell_evidence(void *ud, size_t row, size_t col, struct evidence *out)
{
	struct gs *s = ud;
	*out = evidence_none();
	out->rank = steps_rank_id(s->m, row);
	col_steps(s, col, &out->step_lo, &out->step_hi);
	if (!s->shift && trace_covers(s->run, out->rank, out->step_lo)) {
		out->kind = EV_KERNEL;
		out->view = "step_kernels";
	} else {
		out->kind = EV_STEPS;
	}
	return true;
}

/* A grid not built yet whose pyramid would take more memory than this is refused, with
 * why (a 10,000-rank x 100,000-step run: 16 GB): the explorer stays within its memory. */
#define GRID_BUILD_MAX_BYTES ((size_t)1 << 30)

/* The heat series of metric i. comm is the comm phase's own series, where a record
 * without comm is missing (HEAT_COMM would read it as 0). */
static int metric_series(struct run *run, size_t metric)
{
	if (metric >= nderived(run))
		return phase_id(run->steps, metric - nderived(run));
	int series = derived[derived_at(run, metric)].series;
	return series == HEAT_COMM ? steps_metric_find(run->steps, METRIC_PHASE, "comm") : series;
}

/* src over pyramid g of metric (own: g, made by a grid job, owned by the source). */
static void gs_fill(struct run *run, size_t metric, const struct heat_grid *g, struct heat_grid *own,
		    struct grid_src *src)
{
	struct gs *s = xcalloc(1, sizeof(*s));
	s->run = run;
	s->m = run->steps;
	s->g = g;
	s->own = own;
	s->shift = g->shift;
	snprintf(s->title, sizeof(s->title), "%s", gs_metric_name(run, metric));
	s->nodes = steps_node_groups(run);
	*src = (struct grid_src){
		.nrows = heat_nranks(g), .ncols = heat_nsteps(g), .col_span = (size_t)1 << g->shift,
		.title = s->title, .row_axis = "rank", .col_axis = "step",
		.unit = metric < nderived(run) ? derived[derived_at(run, metric)].unit : "s",
		.ud = s, .value = gs_value, .range = gs_range, .row_buckets = gs_row_buckets, .scale = gs_scale,
		.row_label = gs_row_label, .col_label = gs_col_label,
		.row_id = gs_row_id, .row_find = gs_row_find, .col_id = gs_col_id, .col_find = gs_col_find,
		.describe = gs_describe, .cell_evidence = gs_cell_evidence, .groups = s->nodes,
	};
}

static bool gs_open(void *model, size_t metric, struct grid_src *src, char *err, size_t errn)
{
	struct run *run = model;
	if (!run->steps || metric >= gs_nmetrics(run)) {
		snprintf(err, errn, "no aligned steps in this run");
		return false;
	}
	int series = metric_series(run, metric);
	size_t cost = analysis_heat_cost(run, series);
	if (cost > GRID_BUILD_MAX_BYTES) {   /* a live run (no grid job): refused */
		snprintf(err, errn, "the heatmap of '%s' would need %.1f GB of memory and every rank's steps read "
			 "(%zu ranks x %zu steps; the index summary holds compute and slowdown): open a subset "
			 "with --ranks to see it", gs_metric_name(run, metric), (double)cost / 1e9,
			 steps_nranks(run->steps), steps_ncolumns(run->steps));
		return false;
	}
	const struct heat_grid *g = analysis_heatmap_all(run, series);
	if (!g) {
		snprintf(err, errn, "no heatmap for '%s' (no aligned steps)", gs_metric_name(run, metric));
		return false;
	}
	gs_fill(run, metric, g, NULL, src);
	return true;
}

static void gs_close(struct grid_src *src)
{
	struct gs *s = src->ud;
	if (s) {
		groups_free(s->nodes);
		analysis_heat_free(s->own);
	}
	free(src->ud);
	src->ud = NULL;
}

struct grid_job {
	struct run *run;
	size_t metric;
	struct heat_job *hj;
};

static struct grid_job *gs_job_start(void *model, size_t metric)
{
	struct run *run = model;
	if (!run->steps || metric >= gs_nmetrics(run))
		return NULL;
	struct heat_job *hj = heat_job_start(run, metric_series(run, metric));
	if (!hj)
		return NULL;
	struct grid_job *j = xcalloc(1, sizeof(*j));
	*j = (struct grid_job){ run, metric, hj };
	return j;
}

static bool gs_job_poll(struct grid_job *j, size_t *done, size_t *total)
{
	return heat_job_poll(j->hj, done, total);
}

static bool gs_job_end(struct grid_job *j, struct grid_src *src, char *err, size_t errn)
{
	bool ok = false;
	if (!src) {
		heat_job_cancel(j->hj);
	} else {
		size_t unreadable = 0;
		struct heat_grid *g = heat_job_take(j->hj, &unreadable);
		ok = g != NULL;
		if (ok)
			gs_fill(j->run, j->metric, g, g, src);
		if (unreadable)   /* said on the status line; the rows show as missing */
			snprintf(err, errn, "%zu ranks of '%s' could not be read from the index (shown missing; "
				 "reopening the run rebuilds their part)", unreadable, gs_metric_name(j->run, j->metric));
		else if (!ok)
			snprintf(err, errn, "the heatmap of '%s' was not built", gs_metric_name(j->run, j->metric));
	}
	free(j);
	return ok;
}

const struct grid_provider grid_steps = {
	.name = "steps",
	.label = "Step heatmap",
	.metric_keys = "metric",
	.nmetrics = gs_nmetrics,
	.metric_name = gs_metric_name,
	.open = gs_open,
	.close = gs_close,
	.job_start = gs_job_start,
	.job_poll = gs_job_poll,
	.job_end = gs_job_end,
};
