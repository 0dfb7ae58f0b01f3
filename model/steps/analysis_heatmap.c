/* SPDX-License-Identifier: MIT */
/* analysis_heatmap.c: the heatmap block pyramids (analysis.h): per rank and series, the mean and
 * worst of every block of 2^l aligned steps, built once in parallel row passes, so a
 * range query costs O(log S). A live run's appended aligned steps extend a pyramid in
 * place: rows have room to grow (stride), and only the new cells and the blocks that
 * cover them are computed. */
#include "model/steps/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/pool.h"
#include "model/run.h"
#include "model/stats.h"
#include "model/xalloc.h"

void analysis_heat_free(struct heat_grid *g)
{
	if (!g)
		return;
	for (size_t l = 0; l < g->nlevels; l++) {
		free(g->val[l]);
		if (l > 0)
			free(g->worst[l]);
		free(g->count[l]);
	}
	free(g->val);
	free(g->worst);
	free(g->count);
	free(g->len);
	free(g->stride);
	free(g->from);
	free(g);
}

/* fsum of every phase of a record, for records with more phases than series_value()
 * gathers on the stack. */
static double step_time_fsum(const struct steps_model *m, const struct phase_sets *ps, size_t r,
			     size_t pos)
{
	struct stats_sum s;
	stats_sum_init(&s);
	double v;
	for (size_t i = 0; i < ps->nall; i++)
		if (steps_value(m, r, ps->all[i], pos, &v))
			stats_sum_add(&s, v);
	return stats_sum_result(&s);
}

/* Level-0 value of series at (r, column k); false when missing (a column after the
 * aligned steps that rank r has not reached). */
static bool series_value(const struct steps_model *m, const struct phase_sets *ps, int series,
			 size_t r, size_t k, double *out)
{
	size_t pos;
	if (k < steps_naligned(m))
		pos = steps_aligned_pos(m, r, k);
	else if (!steps_find(m, r, steps_column_step(m, k), &pos))
		return false;
	switch (series) {
	case HEAT_COMPUTE:
		*out = analysis_record_compute(m, ps, r, pos);
		return true;
	case HEAT_COMM:
		*out = analysis_record_comm(m, ps, r, pos);
		return true;
	case HEAT_STEP_TIME: {
		double v[16];
		size_t n = 0;
		if (ps->nall > ARRAY_LEN(v)) {
			*out = step_time_fsum(m, ps, r, pos);
			return true;
		}
		for (size_t i = 0; i < ps->nall; i++)
			if (steps_value(m, r, ps->all[i], pos, &v[n]))
				n++;
		*out = stats_fsum(v, n);
		return true;
	}
	default:
		return steps_value(m, r, series, pos, out);
	}
}

/* The row passes of a heatmap build, in tasks of ANALYSIS_RANK_CHUNK ranks (rows are
 * independent), each row over the columns from g->from[r] on (0, or where its cells
 * could still change before the run grew). */
struct heat_pass {
	struct heat_grid *g;
	const struct steps_model *m;
	struct phase_sets ps;
	const double *cmed;       /* HEAT_REL_SLOWDOWN: analysis_step_medians() */
	bool *missing;            /* per task: a recomputed cell is missing */
};

/* Level 0 of the task's rows, row by row (the model's columns are read sequentially). */
static void heat_fill_rows(void *ud, size_t task)
{
	const struct heat_pass *p = ud;
	const struct heat_grid *g = p->g;
	size_t S = g->nsteps, A = steps_naligned(p->m);
	int series = g->series == HEAT_REL_SLOWDOWN ? HEAT_COMPUTE : g->series;
	bool missing = false;
	for (size_t r = task * ANALYSIS_RANK_CHUNK; r < g->nranks && r < (task + 1) * ANALYSIS_RANK_CHUNK; r++) {
		float *v = g->val[0] + r * g->stride[0]; /* NaN marks a missing cell */
		for (size_t k = g->from[r]; k < S; k++) {
			double x;
			if (p->cmed && k >= A)   /* only the aligned steps have a median over every rank */
				v[k] = NAN;
			else if (!series_value(p->m, &p->ps, series, r, k, &x))
				v[k] = NAN;
			else
				v[k] = p->cmed ? (p->cmed[k] > 0 ? (float)(x / p->cmed[k] - 1.0) : NAN) : (float)x;
			missing = missing || isnan(v[k]);
		}
	}
	p->missing[task] = missing;
}

/* Present values in block idx of level l of rank ri. */
static uint32_t heat_count(const struct heat_grid *g, size_t l, size_t ri, size_t idx)
{
	if (l == 0)
		return !isnan(g->val[0][ri * g->stride[0] + idx]);
	if (!g->dense)
		return g->count[l][ri * g->stride[l] + idx];
	size_t lo = idx << l, hi = lo + ((size_t)1 << l);
	return (uint32_t)((hi < g->nsteps ? hi : g->nsteps) - lo);
}

/* Levels 1.. of the task's rows: block b of level l from blocks 2b, 2b+1 of level l-1;
 * the blocks before (g->from[r] >> l) cover unchanged cells only and stay. */
static void heat_level_rows(void *ud, size_t task)
{
	const struct heat_pass *p = ud;
	struct heat_grid *g = p->g;
	for (size_t r = task * ANALYSIS_RANK_CHUNK; r < g->nranks && r < (task + 1) * ANALYSIS_RANK_CHUNK; r++)
		for (size_t l = 1; l < g->nlevels; l++) {
			size_t pl = g->len[l - 1], len = g->len[l];
			const float *pv = g->val[l - 1] + r * g->stride[l - 1], *pw = g->worst[l - 1] + r * g->stride[l - 1];
			float *v = g->val[l] + r * g->stride[l], *w = g->worst[l] + r * g->stride[l];
			for (size_t b = g->from[r] >> l; b < len; b++) {
				double sum = 0, worst = NAN;
				uint32_t cnt = 0;
				for (size_t j = 2 * b; j < 2 * b + 2 && j < pl; j++) {
					uint32_t cj = heat_count(g, l - 1, r, j);
					if (!cj)
						continue;
					sum += (double)pv[j] * cj;
					if (cnt == 0 || pw[j] > worst)
						worst = pw[j];
					cnt += cj;
				}
				v[b] = cnt ? (float)(sum / cnt) : NAN;
				w[b] = (float)worst;
				if (!g->dense)
					g->count[l][r * g->stride[l] + b] = cnt;
			}
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

static size_t levels_for(size_t S)
{
	size_t levels = 1;
	for (size_t len = S; len > 1; len = (len + 1) / 2)
		levels++;
	return levels;
}

/* Level l's rows get `stride` entries each (the first `keep` of every row copied). */
static void level_resize(struct heat_grid *g, size_t l, size_t keep, size_t stride)
{
	size_t N = g->nranks, old = g->stride[l];
	float *v = xmalloc(N * stride * sizeof(float)), *w = l ? xmalloc(N * stride * sizeof(float)) : v;
	uint32_t *c = l && !g->dense ? xmalloc(N * stride * sizeof(uint32_t)) : NULL;
	for (size_t r = 0; keep && r < N; r++) {
		memcpy(v + r * stride, g->val[l] + r * old, keep * sizeof(float));
		if (l)
			memcpy(w + r * stride, g->worst[l] + r * old, keep * sizeof(float));
		if (c)
			memcpy(c + r * stride, g->count[l] + r * old, keep * sizeof(uint32_t));
	}
	free(g->val[l]);
	if (l)
		free(g->worst[l]);
	free(g->count[l]);
	g->val[l] = v;
	g->worst[l] = w;
	g->count[l] = c;
	g->stride[l] = stride;
}

/* Make room for S aligned steps: the levels S needs, each row at least its length long.
 * A fresh grid gets rows of exactly the length; a growing one gets half as much again,
 * so appending one step at a time moves the rows O(log S) times, not every poll. */
static void heat_reserve(struct heat_grid *g, size_t S, bool grow)
{
	size_t levels = levels_for(S);
	if (levels > g->lcap) {
		size_t cap = levels + 8;
		g->val = xrealloc(g->val, cap * sizeof(*g->val));
		g->worst = xrealloc(g->worst, cap * sizeof(*g->worst));
		g->count = xrealloc(g->count, cap * sizeof(*g->count));
		g->len = xrealloc(g->len, cap * sizeof(*g->len));
		g->stride = xrealloc(g->stride, cap * sizeof(*g->stride));
		for (size_t l = g->lcap; l < cap; l++) {
			g->val[l] = g->worst[l] = NULL;
			g->count[l] = NULL;
			g->len[l] = g->stride[l] = 0;
		}
		g->lcap = cap;
	}
	size_t len = S;
	for (size_t l = 0; l < levels; l++, len = (len + 1) / 2) {
		if (len > g->stride[l])
			level_resize(g, l, l < g->nlevels ? g->len[l] : 0, grow ? len + len / 2 : len);
		g->len[l] = len;
	}
	g->nlevels = levels;
	g->nsteps = S;
}

/* Fill each row's cells from g->from[r] on and the blocks over them; false when a
 * dense grid gets a missing cell (the counts it lacks need a fresh build). */
static bool heat_fill(struct run *run, struct heat_grid *g, bool fresh)
{
	size_t N = g->nranks, S = g->nsteps, cells = 0;
	for (size_t r = 0; r < N; r++)
		cells += S - g->from[r];
	size_t ntasks = (N + ANALYSIS_RANK_CHUNK - 1) / ANALYSIS_RANK_CHUNK;
	struct heat_pass p = { .g = g, .m = run->steps, .missing = xcalloc(ntasks, sizeof(bool)) };
	if (g->series == HEAT_REL_SLOWDOWN)
		p.cmed = analysis_step_medians(run, analysis_cache_of(run));
	/* a poll's few new steps: no threads to start */
	int threads = cells < ((size_t)1 << 16) ? 1 : analysis_threads(run);
	analysis_phase_sets_init(run->steps, &p.ps);
	pool_run(ntasks, threads, heat_fill_rows, &p);
	analysis_phase_sets_free(&p.ps);
	bool missing = false;
	for (size_t t = 0; t < ntasks; t++)
		missing = missing || p.missing[t];
	free(p.missing);
	if (missing && g->dense) {
		if (!fresh)
			return false;
		g->dense = false;
		for (size_t l = 1; l < g->nlevels; l++)
			g->count[l] = xmalloc(N * g->stride[l] * sizeof(uint32_t));
	}
	pool_run(ntasks, threads, heat_level_rows, &p);
	heat_set_final(g, run->steps);
	g->stale = false;
	return true;
}

static struct heat_grid *heat_build(struct run *run, int series)
{
	const struct steps_model *m = run->steps;
	size_t N = steps_nranks(m), S = steps_ncolumns(m);
	if (N == 0 || S == 0 || (series >= 0 && ((size_t)series >= steps_nmetrics(m))) || series < HEAT_REL_SLOWDOWN)
		return NULL;
	struct heat_grid *g = xcalloc(1, sizeof(*g));
	g->series = series;
	g->nranks = N;
	g->dense = true;
	g->from = xcalloc(N, sizeof(*g->from));
	heat_reserve(g, S, false);
	heat_fill(run, g, true);
	return g;
}

/* The run grew by appends (analysis_cache_grown): each row from its first cell that
 * could change, or a fresh grid when a dense one gets a missing cell. */
static struct heat_grid *heat_extend(struct run *run, struct heat_grid *g)
{
	heat_reserve(g, steps_ncolumns(run->steps), true);
	if (heat_fill(run, g, false))
		return g;
	int series = g->series;
	analysis_heat_free(g);
	return heat_build(run, series);
}

const struct heat_grid *analysis_heatmap(struct run *run, int series)
{
	struct analysis_cache *c = analysis_cache_of(run);
	if (!c)
		return NULL;
	for (size_t i = 0; i < c->nheat; i++)
		if (c->heat[i]->series == series) {
			if (c->heat[i]->nsteps != steps_ncolumns(run->steps) || c->heat[i]->stale)
				c->heat[i] = heat_extend(run, c->heat[i]);
			return c->heat[i];
		}
	struct heat_grid *g = heat_build(run, series);
	if (!g)
		return NULL;
	c->heat = xrealloc(c->heat, (c->nheat + 1) * sizeof(*c->heat));
	c->heat[c->nheat++] = g;
	return g;
}

size_t heat_nsteps(const struct heat_grid *g)
{
	return g ? g->nsteps : 0;
}

size_t heat_nranks(const struct heat_grid *g)
{
	return g ? g->nranks : 0;
}

const float *heat_row(const struct heat_grid *g, size_t ri)
{
	return g->val[0] + ri * g->stride[0];
}

bool heat_range(const struct heat_grid *g, size_t ri, size_t k_lo, size_t k_hi, double *mean,
		double *worst)
{
	if (!g || ri >= g->nranks)
		return false;
	if (k_hi > g->nsteps)
		k_hi = g->nsteps;
	double sum = 0, w = 0;
	uint64_t cnt = 0;
	size_t a = k_lo, b = k_hi;
	for (size_t l = 0; a < b && l < g->nlevels; l++) {
		const float *v = g->val[l] + ri * g->stride[l], *wo = g->worst[l] + ri * g->stride[l];
		size_t take[2], nt = 0;
		if (a & 1)
			take[nt++] = a++;
		if (b & 1)
			take[nt++] = --b;
		for (size_t t = 0; t < nt; t++) {
			uint32_t c = heat_count(g, l, ri, take[t]);
			if (!c)
				continue;
			sum += (double)v[take[t]] * c;
			if (cnt == 0 || wo[take[t]] > w)
				w = wo[take[t]];
			cnt += c;
		}
		a /= 2;
		b /= 2;
	}
	if (cnt == 0)
		return false;
	*mean = sum / (double)cnt;
	*worst = w;
	return true;
}
