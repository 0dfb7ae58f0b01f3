/* SPDX-License-Identifier: MIT */
/* grid.c: the ranks x steps grids of the step model, one per metric (compute, relative
 * slowdown vs the step median, step time, comm, each phase; a phase named compute is
 * "compute (phase)", or not listed when it is the compute series itself, as comm is
 * not), read from the analyzers' heatmap pyramids (analysis.h heat_range), so any
 * rectangle costs O(rows x log steps). The columns are the aligned steps, then the later
 * steps of the ranks that go on (a live run's leading ranks, the others when a rank
 * ended early: steps_ncolumns), where a rank without a record has its cells missing (and
 * in the compute series a rank without a compute of its own: analysis_ranks_own_compute); the
 * steps before them or between them that some rank has are no column, and the grid's
 * note says how many, where and on which ranks (left_out_note). A metric that would read
 * 0 for want of a comparison or a measurement is not offered (derived_offered). A cell is
 * the record its step takes in the run's alignment (internal.h NATIVE ALIGNMENT), and so
 * is the cell's description. Enter on a cell opens the step's kernels when a trace
 * covers it, else the rank's steps. A pyramid that is not in memory and would take long
 * to build is a grid job (heat_job.h): built on its own thread, owned by the grid source
 * it opens, coarse (columns of 2^shift steps) when the full one would not fit memory. */
#include <limits.h>
#include <math.h>
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
#include "model/ranklist.h"
#include "model/steps/steps.h"
#include "model/text.h"
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
	bool *hidden;             /* the compute series: per rank, its cells missing (no compute
				   * of its own, analysis_ranks_own_compute); NULL: none is */
	char title[96];
	char note[224];           /* the steps no column shows (left_out_note), "" */
};

/* The name a recorded phase "compute" is listed under when the derived compute series (the
 * sum of the compute phases) differs from it: never a second "compute". */
static const char compute_phase_name[] = "compute (phase)";

/* The run's only compute phase is the one named compute: the derived compute series is
 * then that phase, bit for bit. */
static bool compute_phase_alone(const struct steps_model *m)
{
	for (size_t i = 0; i < steps_nmetrics(m); i++) {
		const struct metric_def *d = steps_metric(m, (int)i);
		if (d->kind == METRIC_PHASE && analysis_in_compute_phases(d->name) && strcmp(d->name, "compute") != 0)
			return false;
	}
	return true;
}

/* A phase the metrics list on their own: not comm, which the derived comm series is, nor
 * compute when the derived compute series is that phase alone (else "compute (phase)"). */
static bool listed_phase(const struct steps_model *m, int id)
{
	const struct metric_def *mi = steps_metric(m, id);
	if (mi->kind != METRIC_PHASE || strcmp(mi->name, "comm") == 0)
		return false;
	return strcmp(mi->name, "compute") != 0 || !compute_phase_alone(m);
}

/* The name phase metric id is listed under: its own, "compute (phase)" for compute. */
static const char *phase_name(const struct steps_model *m, int id)
{
	const char *name = steps_metric(m, id)->name;
	return strcmp(name, "compute") == 0 ? compute_phase_name : name;
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

/* The ranks' compute cannot be weighed against each other (analysis_compute_unweighable,
 * but for compute recorded as zeros): each rank's own compute, no figure against the
 * others, as in the ranks view. */
static bool compute_own_only(struct run *run)
{
	const char *why = analysis_compute_unweighable(run);
	return why && why != analysis_compute_zero;
}

/* Whether the run offers derived series i: compute and the slowdown only when it records
 * a compute phase, the slowdown only with 2 ranks or more (one rank has nothing to be
 * compared against: its slowdown against its own median would read 0) whose compute can
 * be weighed against each other (analysis_compute_unweighable: not traces of two runs,
 * as the ranks view's rel_slowdown), comm only when it records a comm phase; else the
 * heatmap would show a 0 nothing measured, or a figure no rank can be judged by. */
static bool derived_offered(struct run *run, size_t i)
{
	switch (derived[i].series) {
	case HEAT_REL_SLOWDOWN:
		return steps_nranks(run->steps) >= 2 && analysis_has_compute(run->steps) &&
		       !compute_own_only(run);
	case HEAT_COMPUTE:
		return analysis_has_compute(run->steps);
	case HEAT_COMM:
		return steps_has_phase(run->steps, "comm");
	default:
		return true;
	}
}

static size_t nderived(struct run *run)
{
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_LEN(derived); i++)
		n += derived_offered(run, i);
	return n;
}

/* The entry of derived[] that metric k (< nderived) is. */
static size_t derived_at(struct run *run, size_t k)
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
	return id >= 0 ? phase_name(run->steps, id) : "?";
}

static bool gs_value(void *ud, size_t row, size_t col, double *out)
{
	struct gs *s = ud;
	double w;
	return !(s->hidden && s->hidden[row]) && heat_range(s->g, row, col, col + 1, out, &w);
}

static bool gs_range(void *ud, size_t row, size_t c0, size_t c1, double *mean, double *worst)
{
	struct gs *s = ud;
	return !(s->hidden && s->hidden[row]) && heat_range(s->g, row, c0, c1, mean, worst);
}

static void gs_row_buckets(void *ud, size_t row, size_t c0, size_t spc, size_t n, float *worst)
{
	struct gs *s = ud;
	if (s->hidden && s->hidden[row]) {
		for (size_t i = 0; i < n; i++)
			worst[i] = NAN;
		return;
	}
	heat_row_buckets(s->g, row, c0, spc, n, worst);
}

/* The index summary's scale, but with hidden rows (its cells count them): none, the
 * pane's over the cells shown. */
static bool gs_scale(void *ud, double *lo, double *hi)
{
	struct gs *s = ud;
	return !s->hidden && heat_kept_scale(s->g, lo, hi);
}

/* The ranks whose compute cells are missing (no compute of their own) for the compute
 * series, NULL for another series or when there is none. */
static bool *hidden_rows(struct run *run, int series)
{
	if (series != HEAT_COMPUTE)
		return NULL;
	size_t N = steps_nranks(run->steps), k = 0;
	bool *hide = analysis_ranks_own_compute(run);   /* turned into its complement */
	for (size_t r = 0; r < N; r++)
		k += (hide[r] = !hide[r]);
	if (!k) {
		free(hide);
		return NULL;
	}
	return hide;
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
	/* a phase named as the grid's metric, or a phase compute listed as "compute (phase)"
	 * (a trace's compute kernels beside the step's compute): the phases are said to be
	 * phases, so that their compute is not read as the compute series */
	size_t start = 0;
	int compute = steps_metric_find(s->m, METRIC_PHASE, "compute");
	if (steps_metric_find(s->m, METRIC_PHASE, s->title) >= 0 || (compute >= 0 && listed_phase(s->m, compute)))
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

/* True when a trace of the rank covers every step of the columns [c0, c1). */
static bool traced_cols(const struct gs *s, int rank, size_t c0, size_t c1)
{
	for (size_t c = c0; c < c1; c++)
		if (!trace_covers(s->run, rank, steps_column_step(s->m, c)))
			return false;
	return c1 > c0;
}

/* Cells (rank, aligned steps from c0's first to c1 - 1's last): the kernels of those
 * steps when a trace covers each of them, else the rank's steps over the range. */
static bool gs_cell_evidence(void *ud, size_t row, size_t c0, size_t c1, struct evidence *out)
{
	struct gs *s = ud;
	long lo_last;
	*out = evidence_none();
	out->rank = steps_rank_id(s->m, row);
	col_steps(s, c0, &out->step_lo, &out->step_hi);
	col_steps(s, c1 > c0 ? c1 - 1 : c0, &lo_last, &out->step_hi);
	if (!s->shift && traced_cols(s, out->rank, c0, c1)) {
		out->kind = EV_KERNEL;
		out->view = "step_kernels";
	} else {
		out->kind = EV_STEPS;
	}
	return true;
}

/* ---- the steps no column shows ------------------------------------------------------ */

/* The non-aligned steps up to the last aligned one that some rank has (a rank that starts
 * late, a rank that lacks steps mid-run): no column shows them. Hole k holds those before
 * aligned step k, as the range lo[k]-hi[k] (lo > hi: none). */
struct holes {
	const struct steps_model *m;
	size_t n;                 /* steps_naligned() */
	long *lo, *hi;
};

/* At most this many records of the ranks that are not contiguous are read to name the
 * holes; past it the note gives the count alone (a live run opens its grid again at
 * every poll). */
#define HOLES_MAX_READ ((size_t)1 << 22)

static void hole_add(struct holes *h, size_t k, long lo, long hi)
{
	if (lo < h->lo[k])
		h->lo[k] = lo;
	if (hi > h->hi[k])
		h->hi[k] = hi;
}

/* A contiguous rank from step first on has every step of every hole after it. */
static void holes_of_span(struct holes *h, long first)
{
	for (size_t k = 0; k < h->n; k++) {
		long a = steps_aligned_step(h->m, k);
		if (first < a)
			hole_add(h, k, first, a - 1);
		first = a + 1;
	}
}

/* The steps of rank r in the holes, *have of them. A lazy rank's body is read into a
 * copy, not made resident (as store.c's tail does); false when it cannot be read. */
static bool holes_of_rank(struct holes *h, struct rank_steps *r, size_t *have)
{
	struct rank_steps *own = NULL;
	if (!steps_rank_body_copy(r, &own))
		return false;
	const struct rank_steps *s = own ? own : r;
	long last = steps_aligned_step(h->m, h->n - 1);
	*have = 0;
	for (size_t j = 0; j < s->ndistinct; j++) {
		long step = store_rank_distinct_step(s, j);
		if (step > last)
			break;
		size_t k = steps_aligned_lower(h->m, step);
		if (steps_aligned_step(h->m, k) != step) {
			hole_add(h, k, step, step);
			(*have)++;
		}
	}
	steps_rank_body_copy_free(own);
	return true;
}

/* The holes into h and the ids of the ranks that lack some of the nleft steps in them
 * into ids (*nids); false when a rank could not be read or the ranks hold too many
 * records to read at every open. */
static bool holes_find(struct holes *h, size_t nleft, long *ids, size_t *nids)
{
	const struct steps_model *m = h->m;
	size_t read = 0;
	for (size_t r = 0; r < steps_nranks(m); r++)
		read += m->rank[r]->contiguous ? 0 : m->rank[r]->n;
	if (read > HOLES_MAX_READ)
		return false;
	long last = steps_aligned_step(m, h->n - 1), first = LONG_MAX;
	*nids = 0;
	for (size_t r = 0; r < steps_nranks(m); r++) {
		struct rank_steps *rs = m->rank[r];
		size_t have;
		if (rs->contiguous) {   /* its steps: step0 to the last aligned at least */
			first = rs->step0 < first ? rs->step0 : first;
			have = (size_t)(last - rs->step0 + 1) - h->n;
		} else if (!holes_of_rank(h, rs, &have)) {
			return false;
		}
		if (have < nleft)
			ids[(*nids)++] = steps_rank_id(m, r);
	}
	if (first != LONG_MAX)
		holes_of_span(h, first);
	return *nids > 0;
}

/* " (20-29, 41, 60-65 and 2 more)": the first holes of h, or "" when none is named. */
static void holes_text(const struct holes *h, char *buf, size_t n)
{
	size_t nholes = 0;
	buf[0] = '\0';
	for (size_t k = 0; k < h->n; k++) {
		if (h->lo[k] > h->hi[k] || ++nholes > 3)
			continue;
		text_appendf(buf, n, "%s%ld", nholes > 1 ? ", " : " (", h->lo[k]);
		if (h->hi[k] > h->lo[k])
			text_appendf(buf, n, "-%ld", h->hi[k]);
	}
	if (nholes > 3)
		text_appendf(buf, n, " and %zu more", nholes - 3);
	if (nholes)
		text_appendf(buf, n, ")");
}

/* What the columns leave out, for the pane to say (grid.h note), into buf: how many
 * steps some rank has are no column, the first holes they are in and the ranks missing
 * them; "" when none. The columns are the aligned steps, then the later ones. */
static void left_out_note(const struct steps_model *m, char *buf, size_t n)
{
	size_t A = steps_naligned(m), cols = steps_ncolumns(m), nids = 0;
	buf[0] = '\0';
	if (!A || steps_nunion(m) <= cols)
		return;
	size_t nleft = steps_nunion(m) - cols;
	struct holes h = { m, A, xmalloc(A * sizeof(long)), xmalloc(A * sizeof(long)) };
	for (size_t k = 0; k < A; k++) {
		h.lo[k] = LONG_MAX;
		h.hi[k] = LONG_MIN;
	}
	long *ids = xmalloc(steps_nranks(m) * sizeof(*ids));
	char where[96] = "", who[64], list[48];
	bool named = holes_find(&h, nleft, ids, &nids);
	if (named)
		holes_text(&h, where, sizeof(where));
	if (!named)
		snprintf(who, sizeof(who), "some rank");
	else if (ranklist_format(ids, nids, list, sizeof(list)))
		snprintf(who, sizeof(who), "rank%s %s", nids > 1 ? "s" : "", list);
	else
		snprintf(who, sizeof(who), "%zu ranks", nids);
	snprintf(buf, n, "%zu step%s left out%s: missing on %s; the columns are the steps every rank has, then the "
		 "later ones", nleft, nleft > 1 ? "s" : "", where, who);
	free(ids);
	free(h.lo);
	free(h.hi);
}

/* left_out_note, made again only when the model's shape changed since the last grid
 * opened (analysis_cache left_out_key). */
static void left_out_cached(struct run *run, char *buf, size_t n)
{
	const struct steps_model *m = run->steps;
	struct analysis_cache *c = analysis_cache_of(run);
	size_t key[5] = { steps_nranks(m), 0, steps_nunion(m), steps_naligned(m), steps_ncolumns(m) };
	for (size_t r = 0; r < key[0]; r++)
		key[1] += steps_nrecords(m, r);
	if (!c) {
		left_out_note(m, buf, n);
		return;
	}
	if (memcmp(key, c->left_out_key, sizeof(key)) != 0) {
		left_out_note(m, c->left_out, sizeof(c->left_out));
		memcpy(c->left_out_key, key, sizeof(key));
	}
	snprintf(buf, n, "%s", c->left_out);
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
	left_out_cached(run, s->note, sizeof(s->note));
	s->nodes = steps_node_groups(run);
	s->hidden = hidden_rows(run, metric_series(run, metric));
	*src = (struct grid_src){
		.nrows = heat_nranks(g), .ncols = heat_nsteps(g), .col_span = (size_t)1 << g->shift,
		.title = s->title, .row_axis = "rank", .col_axis = "step",
		.unit = metric < nderived(run) ? derived[derived_at(run, metric)].unit : "s",
		.ud = s, .value = gs_value, .range = gs_range, .row_buckets = gs_row_buckets, .scale = gs_scale,
		.row_label = gs_row_label, .col_label = gs_col_label,
		.row_id = gs_row_id, .row_find = gs_row_find, .col_id = gs_col_id, .col_find = gs_col_find,
		.describe = gs_describe, .cell_evidence = gs_cell_evidence, .groups = s->nodes,
		.note = s->note[0] ? s->note : NULL,
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
		free(s->hidden);
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
