/* SPDX-License-Identifier: MIT */
/* grid.c: DASF task balance as a model/grid.h source ("tasks" provider): rows are
 * workers (thread ids, sorted as in task_balance), columns are every second from the
 * first int(timestamp) to the last (labelled as offsets, like task_balance's first
 * column), values the last task count (metric 0) or MB held (metric 1: Managed Memory
 * args.size) of that worker in that second. A second without
 * an event for a worker is missing (DASF's CSV writes 0; a heatmap must not), so gaps
 * in time stay visible. Spans longer than DENSE_MAX seconds fall back to the seconds
 * that have events (DASF's sparse rows). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "model/dasf/dasf.h"
#include "model/dasf/internal.h"
#include "model/grid.h"
#include "model/run.h"
#include "model/xalloc.h"

#define DENSE_MAX 1000000

static const struct {
	const char *name, *title, *unit;
} metrics[] = {
	{ "tasks in memory per worker (task_balance)", "tasks in memory", "tasks" },
	{ "bytes in memory per worker (Managed Memory size)", "memory held", "MB" },
};

struct gd {
	size_t metric;          /* index in metrics[] */
	char title[128];
	const struct dasf_db *db;
	const struct dasf_an *an;
	long *col_sec;          /* dense: col -> index in an->bal_sec, -1 when no event; NULL: sparse */
	size_t ncols;
};

/* Index in an->bal_sec of column col, or -1 when that second has no event. */
static long sec_index(const struct gd *g, size_t col)
{
	return g->col_sec ? g->col_sec[col] : (long)col;
}

static size_t gd_nmetrics(void *model)
{
	struct run *run = model;
	if (!run->dasf || !run->dasf->nmem)
		return 0;
	const struct dasf_an *an = dasf_analyse(run->dasf);
	return an->bal_too_big || !an->nsec ? 0 : ARRAY_LEN(metrics);
}

static const char *gd_metric_name(void *model, size_t i)
{
	return i < ARRAY_LEN(metrics) ? metrics[i].name : "?";
}

static bool gd_value(void *ud, size_t row, size_t col, double *out)
{
	const struct gd *g = ud;
	long si = sec_index(g, col);
	if (si < 0)
		return false;
	size_t k = (size_t)si * g->an->nbal_thr + row;
	if (!g->an->bal_has[k])
		return false;
	if (g->metric == 1) { /* MB held; missing when the event had no size */
		*out = g->an->bal_bytes[k] / 1e6;
		return !isnan(*out);
	}
	*out = (double)g->an->bal_tasks[k];
	return true;
}

static void gd_row_label(void *ud, size_t row, char *buf, size_t n)
{
	const struct gd *g = ud;
	snprintf(buf, n, "%s", g->db->strs.str[g->an->bal_thread[row]]);
}

static long gd_col_id(void *ud, size_t col)
{
	const struct gd *g = ud;
	return g->col_sec ? (long)col : (long)(g->an->bal_sec[col] - g->an->bal_sec[0]);
}

static void gd_col_label(void *ud, size_t col, char *buf, size_t n)
{
	snprintf(buf, n, "%ld", gd_col_id(ud, col));
}

static long gd_row_id(void *ud, size_t row)
{
	return (long)row;
}

static long gd_row_find(void *ud, long id)
{
	const struct gd *g = ud;
	return id >= 0 && (size_t)id < g->an->nbal_thr ? id : -1;
}

/* First column whose offset is >= id (binary search over the sorted seconds). */
static long gd_col_find(void *ud, long id)
{
	const struct gd *g = ud;
	if (g->col_sec)
		return id < 0 ? 0 : (size_t)id < g->ncols ? id : -1;
	size_t lo = 0, hi = g->an->nsec;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (gd_col_id(ud, mid) < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->an->nsec ? (long)lo : -1;
}

static bool gd_open(void *model, size_t metric, struct grid_src *src, char *err, size_t errn)
{
	struct run *run = model;
	if (metric >= ARRAY_LEN(metrics) || !gd_nmetrics(run)) {
		snprintf(err, errn, "no DASF Managed Memory events (task balance) in this run");
		return false;
	}
	struct gd *g = xcalloc(1, sizeof(*g));
	g->metric = metric;
	g->db = run->dasf;
	g->an = run->dasf->an;
	g->ncols = g->an->nsec;
	long long span = g->an->bal_sec[g->an->nsec - 1] - g->an->bal_sec[0] + 1;
	if (span <= DENSE_MAX) {
		g->ncols = (size_t)span;
		g->col_sec = xmalloc(g->ncols * sizeof(*g->col_sec));
		for (size_t c = 0; c < g->ncols; c++)
			g->col_sec[c] = -1;
		for (size_t i = 0; i < g->an->nsec; i++)
			g->col_sec[g->an->bal_sec[i] - g->an->bal_sec[0]] = (long)i;
	}
	snprintf(g->title, sizeof(g->title), "%s (task balance; %s, clocks per host)", metrics[metric].title,
		 g->col_sec ? "int(timestamp) seconds" : "only seconds with events");
	*src = (struct grid_src){
		.nrows = g->an->nbal_thr, .ncols = g->ncols,
		.title = g->title, .row_axis = "worker", .col_axis = "second", .unit = metrics[metric].unit,
		.ud = g, .value = gd_value, .row_label = gd_row_label, .col_label = gd_col_label,
		.row_id = gd_row_id, .row_find = gd_row_find, .col_id = gd_col_id, .col_find = gd_col_find,
	};
	return true;
}

static void gd_close(struct grid_src *src)
{
	struct gd *g = src->ud;
	if (g)
		free(g->col_sec);
	free(src->ud);
	src->ud = NULL;
}

const struct grid_provider grid_dasf = {
	.name = "tasks",
	.label = "Task balance",
	.metric_keys = "metric",
	.nmetrics = gd_nmetrics,
	.metric_name = gd_metric_name,
	.open = gd_open,
	.close = gd_close,
};

long dasf_balance_row(struct run *run, const char *thread)
{
	if (!run->dasf || !gd_nmetrics(run))
		return -1;
	const struct dasf_an *an = run->dasf->an;
	uint32_t id = dasf_intern_find(&run->dasf->strs, thread);
	for (size_t r = 0; id != DASF_NONE && r < an->nbal_thr; r++)
		if (an->bal_thread[r] == id)
			return (long)r;
	return -1;
}
