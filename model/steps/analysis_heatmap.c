/* SPDX-License-Identifier: MIT */
/* analysis_heatmap.c: building the heatmap block pyramids (analysis.h): per rank and series, the
 * mean and worst of every block of 2^l aligned steps, built once in parallel row passes,
 * so a range query costs O(log S) (analysis_heat_read.c). A live run's appended aligned
 * steps extend a pyramid in place: rows have room to grow (cap), and only the new cells
 * and the blocks that cover them are computed. Each rank's row is one allocation
 * (internal.h), so a pyramid restored from the index summary can read rows one at a
 * time. A cell is the record of its step in the run's alignment: natively, where a
 * step's last record has no phase, the record with phases before it (internal.h NATIVE
 * ALIGNMENT; a pyramid of its own, g->native), else pytscope's last record, which the
 * index summary holds (analysis_heatmap_last). */
#include "model/steps/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/pool.h"
#include "model/run.h"
#include "model/stats.h"
#include "model/steps/heat_kernels.h"
#include "model/xalloc.h"

void analysis_heat_free(struct heat_grid *g)
{
	if (!g)
		return;
	for (size_t r = 0; g->row && r < g->nranks; r++)
		free(g->row[r]);
	free(g->row);
	analysis_heat_lazy_free(g->lazy);
	free(g->len);
	free(g->cap);
	free(g->off_val);
	free(g->off_worst);
	free(g->off_count);
	free(g->from);
	free(g);
}

static float *row_val(const struct heat_grid *g, const void *row, size_t l)
{
	return (float *)row + g->off_val[l];
}

static float *row_worst(const struct heat_grid *g, const void *row, size_t l)
{
	return (float *)row + g->off_worst[l];
}

static uint32_t *row_count(const struct heat_grid *g, const void *row, size_t l)
{
	return (uint32_t *)row + g->off_count[l];
}

/* Offsets of every level in a row from cap[] and dense: val of every level, then worst
 * of levels >= 1, then (not dense) the counts; a coarse grid (shift) has them for level
 * 0 too. */
static void heat_layout(struct heat_grid *g)
{
	size_t w = 0, l0 = g->shift ? 0 : 1;
	for (size_t l = 0; l < g->nlevels; l++) {
		g->off_val[l] = w;
		w += g->cap[l];
	}
	g->off_worst[0] = g->off_val[0];
	for (size_t l = l0; l < g->nlevels; l++) {
		g->off_worst[l] = w;
		w += g->cap[l];
	}
	for (size_t l = l0; l < g->nlevels; l++) {
		g->off_count[l] = w;
		w += g->dense ? 0 : g->cap[l];
	}
	g->row_words = w;
}

static size_t levels_for(size_t S)
{
	size_t levels = 1;
	for (size_t len = S; len > 1; len = (len + 1) / 2)
		levels++;
	return levels;
}

static void level_slots(struct heat_grid *g, size_t levels)
{
	if (levels <= g->lcap)
		return;
	size_t cap = levels + 8;
	size_t **v[] = { &g->len, &g->cap, &g->off_val, &g->off_worst, &g->off_count };
	for (size_t i = 0; i < ARRAY_LEN(v); i++) {
		*v[i] = xrealloc(*v[i], cap * sizeof(size_t));
		memset(*v[i] + g->lcap, 0, (cap - g->lcap) * sizeof(size_t));
	}
	g->lcap = cap;
}

static struct heat_grid *heat_new(int series, size_t nranks, size_t nsteps, bool dense, unsigned shift)
{
	struct heat_grid *g = xcalloc(1, sizeof(*g));
	g->shift = shift;
	g->series = series;
	g->nranks = nranks;
	g->nsteps = nsteps;
	g->dense = dense;
	g->nlevels = levels_for(nsteps);
	level_slots(g, g->nlevels);
	size_t len = nsteps;
	for (size_t l = 0; l < g->nlevels; l++, len = (len + 1) / 2)
		g->len[l] = g->cap[l] = len;
	heat_layout(g);
	g->row = xcalloc(nranks ? nranks : 1, sizeof(*g->row));
	g->from = xcalloc(nranks ? nranks : 1, sizeof(*g->from));
	return g;
}

struct heat_grid *analysis_heat_new(int series, size_t nranks, size_t nsteps, bool dense)
{
	return heat_new(series, nranks, nsteps, dense, 0);
}

struct heat_grid *analysis_heat_new_coarse(const struct heat_grid *full, unsigned shift)
{
	return heat_new(full->series, full->nranks, shift < full->nlevels ? full->len[shift] : 1, false, shift);
}

/* Move every row to the layout of the grid as it is now, from the layout `old` had
 * (its levels' first len[] entries are kept). */
static void heat_relayout(struct heat_grid *g, const struct heat_grid *old)
{
	for (size_t r = 0; r < g->nranks; r++) {
		void *o = g->row[r];
		if (!o)
			continue;
		void *n = xmalloc(g->row_words * 4);
		for (size_t l = 0; l < old->nlevels; l++) {
			size_t keep = old->len[l];
			memcpy(row_val(g, n, l), row_val(old, o, l), keep * 4);
			if (l)
				memcpy(row_worst(g, n, l), row_worst(old, o, l), keep * 4);
			if (l && !g->dense && !old->dense)
				memcpy(row_count(g, n, l), row_count(old, o, l), keep * 4);
		}
		free(o);
		g->row[r] = n;
	}
}

/* A copy of g's layout (levels, lengths, offsets), for heat_relayout. */
static struct heat_grid *layout_copy(const struct heat_grid *g)
{
	struct heat_grid *c = xcalloc(1, sizeof(*c));
	c->nlevels = g->nlevels;
	c->dense = g->dense;
	level_slots(c, g->nlevels ? g->nlevels : 1);
	size_t n = g->nlevels * sizeof(size_t);
	memcpy(c->len, g->len, n);
	memcpy(c->cap, g->cap, n);
	memcpy(c->off_val, g->off_val, n);
	memcpy(c->off_worst, g->off_worst, n);
	memcpy(c->off_count, g->off_count, n);
	return c;
}

/* The step time of record pos of rank r (the sum of its phases); false when it has no
 * phase value: missing, not a step of 0 s. */
static bool step_time_value(const struct steps_model *m, const struct phase_sets *ps, size_t r, size_t pos,
			    double *out)
{
	double v[16];
	size_t n = 0;
	if (ps->nall > ARRAY_LEN(v)) {
		for (size_t i = 0; i < ps->nall && !n; i++)
			n += steps_value(m, r, ps->all[i], pos, &v[0]);
		*out = analysis_record_step_time(m, ps, r, pos);
		return n > 0;
	}
	for (size_t i = 0; i < ps->nall; i++)
		if (steps_value(m, r, ps->all[i], pos, &v[n]))
			n++;
	*out = stats_fsum(v, n);
	return n > 0;
}

/* Level-0 value of series at (r, column k) in the alignment na (NULL: pytscope's);
 * false when missing (a column after the aligned steps that rank r has not reached, a
 * record without the series' phases). */
static bool series_value(const struct steps_model *m, const struct phase_sets *ps, const struct native_align *na,
			 int series, size_t r, size_t k, double *out)
{
	size_t pos;
	if (k < steps_naligned(m))
		pos = steps_aligned_pos(m, r, k);
	else if (!steps_find(m, r, steps_column_step(m, k), &pos))
		return false;
	analysis_native_pos(na, r, steps_column_step(m, k), &pos);
	switch (series) {
	case HEAT_COMPUTE:   /* a record without a compute phase value: missing, not 0 */
		*out = analysis_record_compute(m, ps, r, pos);
		return !analysis_is_no_compute(*out);
	case HEAT_COMM:
		*out = analysis_record_comm(m, ps, r, pos);
		return true;
	case HEAT_STEP_TIME:
		return step_time_value(m, ps, r, pos, out);
	default:
		return steps_value(m, r, series, pos, out);
	}
}

/* The row passes of a heatmap build, in tasks of ANALYSIS_RANK_CHUNK ranks (rows are
 * independent), each row over the columns from g->from[r] on (0, or where its cells
 * could still change before the run grew). */
struct heat_pass {
	struct heat_grid *g;
	struct heat_grid *rel;    /* a pair pass (g HEAT_COMPUTE): the slowdown grid, filled from
				   * the same compute values */
	const struct steps_model *m;
	struct phase_sets ps;
	const struct native_align *na; /* the native alignment's records (g->native), or NULL */
	const double *cmed;       /* HEAT_REL_SLOWDOWN (g, or rel): analysis_step_medians(), natively
				   * analysis_native_medians() */
	bool *missing;            /* per task: a recomputed cell of g is missing */
	bool *rel_missing;        /* per task: a cell of rel is missing */
};

/* Rank r's compute buf[k0, A) read in pytscope's alignment made the native one's (p->na):
 * at its steps that differ, the compute of the record with phases. */
static void native_compute(const struct heat_pass *p, size_t r, size_t k0, double *buf)
{
	const struct native_rank *nr = p->na ? &p->na->rank[r] : NULL;
	size_t A = steps_naligned(p->m), k = k0;
	for (size_t i = nr ? analysis_native_first(p->na, r, steps_aligned_step(p->m, k0)) : 0; nr && i < nr->n; i++) {
		while (k < A && steps_aligned_step(p->m, k) < nr->step[i])
			k++;
		if (k == A)
			return;
		if (steps_aligned_step(p->m, k) == nr->step[i])
			buf[k] = analysis_record_compute(p->m, &p->ps, r, nr->pos[i]);
	}
}

/* HEAT_COMPUTE of rank r at the aligned columns [k0, A) into buf (A doubles), read a
 * column at a time (analysis_rank_compute: the values series_value() gives, bit for
 * bit; a record without compute is analysis_no_compute(), whose cell is NaN: missing,
 * as the kept rows of an index build have it). Returns the end of what buf holds: A, or
 * k0 for another series. */
static size_t row_compute(const struct heat_pass *p, int series, size_t r, size_t k0, double *buf, bool have)
{
	size_t A = steps_naligned(p->m);
	if (series != HEAT_COMPUTE || k0 >= A)
		return k0;
	if (!have && analysis_rank_has_compute_phase(p->m, &p->ps, r)) {
		analysis_rank_compute(p->m, &p->ps, r, k0, A - k0, buf + k0, NULL);
		native_compute(p, r, k0, buf);
	} else if (!have)   /* a rank without a compute phase: missing, not 0 */
		for (size_t k = k0; k < A; k++)
			buf[k] = NAN;
	return A;
}

/* Level 0 of row r from column g->from[r] on; true when a cell is missing. buf: scratch
 * of steps_naligned() doubles; have: it holds what row_compute() would put there. */
static bool heat_fill_row(const struct heat_pass *p, size_t r, double *buf, bool have)
{
	struct heat_grid *g = p->g;
	size_t S = g->nsteps, A = steps_naligned(p->m);
	int series = g->series == HEAT_REL_SLOWDOWN ? HEAT_COMPUTE : g->series;
	bool missing = false;
	if (!g->row[r])
		g->row[r] = xmalloc(g->row_words * 4);
	float *v = row_val(g, g->row[r], 0); /* NaN marks a missing cell */
	size_t kb = row_compute(p, series, r, g->from[r], buf, have), k = g->from[r];
	/* the columns row_compute gave (aligned steps: each has its median) four at a
	 * time; then the rest one by one */
	size_t end = kb < S ? kb : S;
	if (k < end) {
		missing = p->cmed ? heat_cells_rel(v + k, buf + k, p->cmed + k, end - k)
				  : heat_cells(v + k, buf + k, end - k);
		k = end;
	}
	for (; k < S; k++) {
		double x = k < kb ? buf[k] : 0;
		if (p->cmed && k >= A)   /* only the aligned steps have a median over every rank */
			v[k] = NAN;
		else if (k >= kb && !series_value(p->m, &p->ps, p->na, series, r, k, &x))
			v[k] = NAN;
		else
			v[k] = p->cmed ? (p->cmed[k] > 0 ? (float)(x / p->cmed[k] - 1.0) : NAN) : (float)x;
		missing = missing || isnan(v[k]);
	}
	return missing;
}

/* Level 0 of row r of both grids of a pair pass (fresh grids: every column), each
 * record's compute read once: the cells heat_fill_row() gives HEAT_COMPUTE into g and
 * HEAT_REL_SLOWDOWN into p->rel, bit for bit. */
static void heat_fill_pair_row(const struct heat_pass *p, size_t r, double *buf, bool *missing,
			       bool *rel_missing)
{
	struct heat_grid *g = p->g, *h = p->rel;
	size_t S = g->nsteps, A = steps_naligned(p->m);
	if (!g->row[r])
		g->row[r] = xmalloc(g->row_words * 4);
	if (!h->row[r])
		h->row[r] = xmalloc(h->row_words * 4);
	float *v = row_val(g, g->row[r], 0), *w = row_val(h, h->row[r], 0);
	size_t kb = row_compute(p, HEAT_COMPUTE, r, 0, buf, false);
	for (size_t k = 0; k < S; k++) {
		double x = k < kb ? buf[k] : 0;
		bool have = k < kb || series_value(p->m, &p->ps, p->na, HEAT_COMPUTE, r, k, &x);
		v[k] = have ? (float)x : NAN;
		w[k] = have && k < A && p->cmed[k] > 0 ? (float)(x / p->cmed[k] - 1.0) : NAN;
		*missing = *missing || isnan(v[k]);
		*rel_missing = *rel_missing || isnan(w[k]);
	}
}

/* Level 0 of the task's rows, row by row (the model's columns are read sequentially). */
static void heat_fill_rows(void *ud, size_t task)
{
	const struct heat_pass *p = ud;
	bool missing = false, rel_missing = false;
	size_t A = steps_naligned(p->m);
	double *buf = xmalloc((A ? A : 1) * sizeof(*buf));
	for (size_t r = task * ANALYSIS_RANK_CHUNK; r < p->g->nranks && r < (task + 1) * ANALYSIS_RANK_CHUNK; r++)
		if (p->rel)
			heat_fill_pair_row(p, r, buf, &missing, &rel_missing);
		else
			missing = heat_fill_row(p, r, buf, false) || missing;
	free(buf);
	p->missing[task] = missing;
	p->rel_missing[task] = rel_missing;
}

/* Present values in block idx of level l of a row. */
static uint32_t heat_count(const struct heat_grid *g, const void *row, size_t l, size_t idx)
{
	if (l == 0)
		return !isnan(row_val(g, row, 0)[idx]);
	if (!g->dense)
		return row_count(g, row, l)[idx];
	size_t lo = idx << l, hi = lo + ((size_t)1 << l);
	return (uint32_t)((hi < g->nsteps ? hi : g->nsteps) - lo);
}

/* Block b of level l from blocks 2b, 2b+1 of level l-1: the count-weighted mean and the
 * worst of the present ones. */
static void heat_block(struct heat_grid *g, void *row, size_t l, size_t b)
{
	size_t pl = g->len[l - 1];
	const float *pv = row_val(g, row, l - 1), *pw = row_worst(g, row, l - 1);
	double sum = 0, worst = NAN;
	uint32_t cnt = 0;
	for (size_t j = 2 * b; j < 2 * b + 2 && j < pl; j++) {
		uint32_t cj = heat_count(g, row, l - 1, j);
		if (!cj)
			continue;
		sum += (double)pv[j] * cj;
		if (cnt == 0 || pw[j] > worst)
			worst = pw[j];
		cnt += cj;
	}
	row_val(g, row, l)[b] = cnt ? (float)(sum / cnt) : NAN;
	row_worst(g, row, l)[b] = (float)worst;
	if (!g->dense)
		row_count(g, row, l)[b] = cnt;
}

/* Levels 1.. of row r; the blocks before (g->from[r] >> l) cover unchanged cells only
 * and stay. In a dense grid every block of level l-1 but the last holds 2^(l-1) cells,
 * so the blocks over two such take the same sums as heat_block() without its counts
 * (bit for bit: the same operations in the same order). */
static void heat_level_row(struct heat_grid *g, size_t r)
{
	void *row = g->row[r];
	for (size_t l = 1; l < g->nlevels; l++) {
		size_t pl = g->len[l - 1], len = g->len[l], b = g->from[r] >> l;
		size_t full = pl > 1 ? (pl - 1) / 2 : 0; /* both children full: 2b + 2 < pl */
		if (g->dense && b < full) {
			heat_halve(row_val(g, row, l - 1), row_worst(g, row, l - 1), row_val(g, row, l),
				   row_worst(g, row, l), b, full, (double)((size_t)1 << (l - 1)));
			b = full;
		}
		for (; b < len; b++)
			heat_block(g, row, l, b);
	}
}

static void heat_level_rows(void *ud, size_t task)
{
	const struct heat_pass *p = ud;
	for (size_t r = task * ANALYSIS_RANK_CHUNK; r < p->g->nranks && r < (task + 1) * ANALYSIS_RANK_CHUNK; r++) {
		heat_level_row(p->g, r);
		if (p->rel)
			heat_level_row(p->rel, r);
	}
}

/* Per row, the columns whose cells cannot change while the run grows by appends: the
 * aligned ones, and for a series of the rank's own records every column up to its
 * newest step (it can only gain later steps); the slowdown needs every rank's record. */
static void heat_set_final(struct heat_grid *g, const struct steps_model *m)
{
	size_t A = steps_naligned(m), S = g->nsteps;
	for (size_t r = 0; r < g->nranks; r++) {
		size_t lo = A, hi = S;
		long top = steps_max_step(m, r);
		while (g->series != HEAT_REL_SLOWDOWN && lo < hi) {   /* first column after top */
			size_t mid = lo + (hi - lo) / 2;
			if (steps_column_step(m, mid) <= top)
				lo = mid + 1;
			else
				hi = mid;
		}
		g->from[r] = lo;
	}
}

/* Make room for S columns: the levels S needs, each with room for its length. A fresh
 * grid gets exactly the length; a growing one half as much again, so appending one step
 * at a time moves the rows O(log S) times, not every poll. */
static void heat_reserve(struct heat_grid *g, size_t S, bool grow)
{
	struct heat_grid *old = layout_copy(g);
	size_t levels = levels_for(S);
	level_slots(g, levels);
	bool moved = levels != g->nlevels;
	size_t len = S;
	for (size_t l = 0; l < levels; l++, len = (len + 1) / 2) {
		if (len > g->cap[l] || l >= g->nlevels) {
			g->cap[l] = grow ? len + len / 2 : len;
			moved = true;
		}
		g->len[l] = len;
	}
	g->nlevels = levels;
	g->nsteps = S;
	if (moved) {
		heat_layout(g);
		heat_relayout(g, old);
	}
	analysis_heat_free(old);
}

/* A fresh dense grid that got a missing cell: the same rows with room for the counts. */
static void heat_undense(struct heat_grid *g)
{
	struct heat_grid *old = layout_copy(g);
	g->dense = false;
	heat_layout(g);
	heat_relayout(g, old);
	analysis_heat_free(old);
}

static bool any_of(const bool *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i])
			return true;
	return false;
}

/* Fill each row's cells from g->from[r] on and the blocks over them; false when a
 * dense grid gets a missing cell (the counts it lacks need a fresh build). rel: a fresh
 * HEAT_REL_SLOWDOWN grid filled in the same pass as a fresh HEAT_COMPUTE g (or NULL). */
static bool heat_fill(struct run *run, struct heat_grid *g, struct heat_grid *rel, bool fresh)
{
	size_t N = g->nranks, S = g->nsteps, cells = 0;
	for (size_t r = 0; r < N; r++)
		cells += S - g->from[r];
	size_t ntasks = (N + ANALYSIS_RANK_CHUNK - 1) / ANALYSIS_RANK_CHUNK;
	struct heat_pass p = { .g = g, .rel = rel, .m = run->steps, .missing = xcalloc(ntasks, sizeof(bool)),
			       .rel_missing = xcalloc(ntasks, sizeof(bool)),
			       .na = g->native ? analysis_native(run) : NULL };
	double *native_cmed = NULL;
	if ((g->series == HEAT_REL_SLOWDOWN || rel) && p.na)
		p.cmed = native_cmed = analysis_native_medians(run, p.na);
	else if (g->series == HEAT_REL_SLOWDOWN || rel)
		p.cmed = analysis_step_medians(run, analysis_cache_of(run));
	/* a poll's few new steps: no threads to start */
	int threads = cells < ((size_t)1 << 16) ? 1 : analysis_threads(run);
	analysis_phase_sets_init(run->steps, &p.ps);
	pool_run(ntasks, threads, heat_fill_rows, &p);
	analysis_phase_sets_free(&p.ps);
	bool missing = any_of(p.missing, ntasks), rel_missing = any_of(p.rel_missing, ntasks);
	free(p.missing);
	free(p.rel_missing);
	free(native_cmed);
	if (missing && g->dense) {
		if (!fresh)
			return false;
		heat_undense(g);
	}
	if (rel && rel_missing && rel->dense)
		heat_undense(rel);
	pool_run(ntasks, threads, heat_level_rows, &p);
	heat_set_final(g, run->steps);
	g->stale = false;
	if (rel) {
		heat_set_final(rel, run->steps);
		rel->stale = false;
	}
	return true;
}

static bool heat_buildable(const struct steps_model *m, int series)
{
	size_t N = steps_nranks(m), S = steps_ncolumns(m);
	return N && S && !(series >= 0 && (size_t)series >= steps_nmetrics(m)) && series >= HEAT_REL_SLOWDOWN;
}

/* native: in the native alignment (g->native). */
static struct heat_grid *heat_build(struct run *run, int series, bool native)
{
	const struct steps_model *m = run->steps;
	if (!heat_buildable(m, series))
		return NULL;
	struct heat_grid *g = analysis_heat_new(series, steps_nranks(m), steps_ncolumns(m), true);
	g->native = native;
	heat_fill(run, g, NULL, true);
	return g;
}

void analysis_heat_build_row(struct run *run, struct heat_grid *g, size_t ri)
{
	struct heat_pass p = { .g = g, .m = run->steps };
	if (g->series == HEAT_REL_SLOWDOWN)
		p.cmed = analysis_step_medians(run, analysis_cache_of(run));
	analysis_phase_sets_init(run->steps, &p.ps);
	g->from[ri] = 0;
	size_t A = steps_naligned(run->steps);
	double *buf = xmalloc((A ? A : 1) * sizeof(*buf));
	heat_fill_row(&p, ri, buf, false);
	free(buf);
	heat_level_row(g, ri);
	analysis_phase_sets_free(&p.ps);
}

bool analysis_heat_make_row(const struct steps_model *m, struct heat_grid *g, const double *cmed,
			    const struct native_align *na, size_t ri, double *buf)
{
	struct heat_pass p = { .g = g, .m = m, .cmed = cmed, .na = na };
	analysis_phase_sets_init(m, &p.ps);
	g->from[ri] = 0;
	bool missing = heat_fill_row(&p, ri, buf, false);
	if (!missing || !g->dense)
		heat_level_row(g, ri);
	analysis_phase_sets_free(&p.ps);
	return missing;
}

void analysis_heat_coarsen_row(const struct heat_grid *full, size_t ri, struct heat_grid *c)
{
	const void *row = full->row[ri];
	if (!c->row[ri])
		c->row[ri] = xmalloc(c->row_words * 4);
	for (size_t k = 0; k < c->nlevels; k++) {
		size_t l = k + c->shift, n = c->len[k] * 4;
		memcpy(row_val(c, c->row[ri], k), row_val(full, row, l), n);
		memcpy(row_worst(c, c->row[ri], k), row_worst(full, row, l), n);
		memcpy(row_count(c, c->row[ri], k), row_count(full, row, l), n);
	}
}

/* ---- one row at a time ---------------------------------------------------------------- */

/* A fresh dense grid whose rows are made one at a time into one reused row. */
struct heat_stream {
	struct heat_grid *g;      /* the layout; row[at] is the one row */
	struct heat_pass p;
	void *row;
	double *buf;              /* the row's compute (row_compute) */
	size_t at;                /* the row made last, or nranks */
	const struct heat_stream *from; /* analysis_heat_stream_share() */
	double *const *rows;      /* analysis_heat_stream_rows(), or NULL */
};

struct heat_stream *analysis_heat_stream_new(struct run *run, int series, bool dense)
{
	const struct steps_model *m = run->steps;
	if (!heat_buildable(m, series))
		return NULL;
	struct heat_stream *s = xcalloc(1, sizeof(*s));
	s->g = analysis_heat_new(series, steps_nranks(m), steps_naligned(m), dense); /* a live run: its aligned steps */
	s->p = (struct heat_pass){ .g = s->g, .m = m };
	if (series == HEAT_REL_SLOWDOWN)
		s->p.cmed = analysis_step_medians(run, analysis_cache_of(run));
	analysis_phase_sets_init(m, &s->p.ps);
	s->row = xmalloc(s->g->row_words ? s->g->row_words * 4 : 1);
	s->buf = xmalloc((steps_naligned(m) ? steps_naligned(m) : 1) * sizeof(*s->buf));
	s->at = s->g->nranks;
	return s;
}

void analysis_heat_stream_share(struct heat_stream *s, const struct heat_stream *from)
{
	if (s->g->series == HEAT_REL_SLOWDOWN && from->g->series == HEAT_COMPUTE &&
	    from->g->nsteps == s->g->nsteps && from->g->nranks == s->g->nranks)
		s->from = from;
}

void analysis_heat_stream_rows(struct heat_stream *s, double *const *rows)
{
	s->rows = rows;
}

const struct heat_grid *analysis_heat_stream_grid(const struct heat_stream *s)
{
	return s->g;
}

/* Row r from buf (have: it holds the row's compute at every aligned step). */
static const void *stream_row(struct heat_stream *s, size_t r, double *buf, bool have)
{
	struct heat_grid *g = s->g;
	if (s->at < g->nranks)
		g->row[s->at] = NULL;
	g->row[r] = s->row;
	s->at = r;
	if (heat_fill_row(&s->p, r, buf, have) && g->dense)
		return NULL; /* a missing cell: the grid is not dense */
	heat_level_row(g, r);
	return s->row;
}

const void *analysis_heat_stream_row(struct heat_stream *s, size_t r)
{
	if (s->rows) /* every rank's compute, kept (analysis_heat_stream_rows) */
		return stream_row(s, r, s->rows[r], true);
	bool have = s->from && s->from->at == r; /* its compute of row r, read already */
	return stream_row(s, r, have ? s->from->buf : s->buf, have);
}

const void *analysis_heat_stream_row_of(struct heat_stream *s, size_t r, double *compute)
{
	if (s->g->nsteps != steps_naligned(s->p.m))
		return NULL;
	return stream_row(s, r, compute, true);
}

void analysis_heat_stream_free(struct heat_stream *s)
{
	if (!s)
		return;
	if (s->at < s->g->nranks)
		s->g->row[s->at] = NULL;
	analysis_heat_free(s->g);
	analysis_phase_sets_free(&s->p.ps);
	free(s->row);
	free(s->buf);
	free(s);
}

/* The run grew by appends (analysis_cache_grown): each row from its first cell that
 * could change, or a fresh grid when a dense one gets a missing cell. */
static struct heat_grid *heat_extend(struct run *run, struct heat_grid *g)
{
	int series = g->series;
	bool native = g->native;
	if (g->lazy) { /* restored from the index summary: its rows are not all here */
		analysis_heat_free(g);
		return heat_build(run, series, native);
	}
	heat_reserve(g, steps_ncolumns(run->steps), true);
	if (heat_fill(run, g, NULL, false))
		return g;
	analysis_heat_free(g);
	return heat_build(run, series, native);
}

/* A grid restored from the index summary over the aligned steps of m when the heatmap's
 * columns go on past them (a rank ended early): kept as it is for the callers that read
 * only the aligned steps (a comparison holds it), a grid over every column beside it. */
static bool heat_short(const struct heat_grid *g, const struct steps_model *m)
{
	return g->lazy && !g->stale && g->nsteps == steps_naligned(m) && steps_ncolumns(m) > g->nsteps;
}

/* The slot of series' grid in the alignment asked (native or pytscope's) in the cache,
 * or c->nheat when there is none; every_of: one over every column of that model (not a
 * heat_short one). */
static size_t heat_slot(const struct analysis_cache *c, int series, bool native, const struct steps_model *every_of)
{
	size_t i = 0;
	while (i < c->nheat && !(c->heat[i]->series == series && c->heat[i]->native == native &&
				 !(every_of && heat_short(c->heat[i], every_of))))
		i++;
	return i;
}

/* every: over every heatmap column; else a heat_short grid is taken as it is. */
static const struct heat_grid *heatmap_of(struct run *run, int series, bool native, bool every)
{
	struct analysis_cache *c = analysis_cache_of(run);
	if (!c)
		return NULL;
	size_t i = heat_slot(c, series, native, every ? run->steps : NULL);
	if (i < c->nheat) {
		const struct heat_grid *g = c->heat[i];
		if (!heat_short(g, run->steps) && (g->nsteps != steps_ncolumns(run->steps) || g->stale))
			c->heat[i] = heat_extend(run, c->heat[i]);
		return c->heat[i];
	}
	struct heat_grid *g = heat_build(run, series, native);
	if (!g)
		return NULL;
	c->heat = xrealloc(c->heat, (c->nheat + 1) * sizeof(*c->heat));
	c->heat[c->nheat++] = g;
	return g;
}

/* A native pyramid only when the alignments differ somewhere: else pytscope's is it. */
const struct heat_grid *analysis_heatmap(struct run *run, int series)
{
	return heatmap_of(run, series, analysis_native(run) != NULL, false);
}

const struct heat_grid *analysis_heatmap_all(struct run *run, int series)
{
	return heatmap_of(run, series, analysis_native(run) != NULL, true);
}

const struct heat_grid *analysis_heatmap_last(struct run *run, int series)
{
	return heatmap_of(run, series, false, true);
}

static bool heat_cached(const struct analysis_cache *c, int series)
{
	return heat_slot(c, series, false, NULL) < c->nheat;
}

void analysis_heatmaps(struct run *run, const int *series, size_t n)
{
	struct analysis_cache *c = analysis_cache_of(run);
	if (!c)
		return;
	bool compute = false, rel = false;
	for (size_t i = 0; i < n; i++) {
		compute = compute || (series[i] == HEAT_COMPUTE && !heat_cached(c, HEAT_COMPUTE));
		rel = rel || (series[i] == HEAT_REL_SLOWDOWN && !heat_cached(c, HEAT_REL_SLOWDOWN));
	}
	if (compute && rel && heat_buildable(run->steps, HEAT_COMPUTE)) {
		const struct steps_model *m = run->steps;
		size_t N = steps_nranks(m), S = steps_ncolumns(m);
		struct heat_grid *g = analysis_heat_new(HEAT_COMPUTE, N, S, true);
		struct heat_grid *h = analysis_heat_new(HEAT_REL_SLOWDOWN, N, S, true);
		heat_fill(run, g, h, true);
		c->heat = xrealloc(c->heat, (c->nheat + 2) * sizeof(*c->heat));
		c->heat[c->nheat++] = g;
		c->heat[c->nheat++] = h;
	}
	for (size_t i = 0; i < n; i++)
		analysis_heatmap_last(run, series[i]);
}

/* A heat_short grid does not spare analysis_heatmap_all() its build. */
static size_t heat_cost_of(struct run *run, int series, bool native)
{
	struct analysis_cache *c = analysis_cache_of(run);
	if (c && heat_slot(c, series, native, run->steps) < c->nheat)
		return 0;
	/* per rank and column about 4 words: the values, the levels' means, worsts, counts */
	return run->steps ? steps_nranks(run->steps) * steps_ncolumns(run->steps) * 16 : 0;
}

size_t analysis_heat_cost(struct run *run, int series)
{
	return heat_cost_of(run, series, analysis_native(run) != NULL);
}

const struct heat_grid *analysis_heatmap_held(struct run *run, int series)
{
	struct analysis_cache *c = analysis_cache_of(run);
	size_t i = c ? heat_slot(c, series, false, NULL) : 0;
	return c && i < c->nheat ? c->heat[i] : NULL;
}
