/* SPDX-License-Identifier: MIT */
/* analysis_heatmap.c: the heatmap block pyramids (analysis.h): per rank and series, the mean and
 * worst of every block of 2^l aligned steps, built once in parallel row passes, so a
 * range query costs O(log S). */
#include "model/steps/internal.h"

#include <math.h>
#include <stdlib.h>
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

/* Level-0 value of series at (r, k); false when missing. */
static bool series_value(const struct steps_model *m, const struct phase_sets *ps, int series,
			 size_t r, size_t k, double *out)
{
	size_t pos = steps_aligned_pos(m, r, k);
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

/* The row passes of a heatmap build, in tasks of ANALYSIS_RANK_CHUNK ranks (rows are independent). */
struct heat_pass {
	struct heat_grid *g;
	const struct steps_model *m;
	struct phase_sets ps;
	const double *cmed;       /* HEAT_REL_SLOWDOWN: analysis_step_medians() */
};

/* Level 0 of the task's rows, row by row (the model's columns are read sequentially). */
static void heat_fill_rows(void *ud, size_t task)
{
	const struct heat_pass *p = ud;
	const struct heat_grid *g = p->g;
	size_t S = g->nsteps;
	int series = g->series == HEAT_REL_SLOWDOWN ? HEAT_COMPUTE : g->series;
	for (size_t r = task * ANALYSIS_RANK_CHUNK; r < g->nranks && r < (task + 1) * ANALYSIS_RANK_CHUNK; r++) {
		float *v = g->val[0] + r * S; /* NaN marks a missing cell */
		for (size_t k = 0; k < S; k++) {
			double x;
			bool ok = series_value(p->m, &p->ps, series, r, k, &x);
			if (p->cmed)
				v[k] = p->cmed[k] > 0 ? (float)(x / p->cmed[k] - 1.0) : NAN;
			else
				v[k] = ok ? (float)x : NAN;
		}
	}
}

/* Present values in block idx of level l of rank ri. */
static uint32_t heat_count(const struct heat_grid *g, size_t l, size_t ri, size_t idx)
{
	if (l == 0)
		return !isnan(g->val[0][ri * g->nsteps + idx]);
	if (g->count[l])
		return g->count[l][ri * g->len[l] + idx];
	size_t lo = idx << l, hi = lo + ((size_t)1 << l);
	return (uint32_t)((hi < g->nsteps ? hi : g->nsteps) - lo);
}

/* Levels 1.. of the task's rows: block b of level l from blocks 2b, 2b+1 of level l-1. */
static void heat_level_rows(void *ud, size_t task)
{
	const struct heat_pass *p = ud;
	struct heat_grid *g = p->g;
	for (size_t r = task * ANALYSIS_RANK_CHUNK; r < g->nranks && r < (task + 1) * ANALYSIS_RANK_CHUNK; r++)
		for (size_t l = 1; l < g->nlevels; l++) {
			size_t pl = g->len[l - 1], len = g->len[l];
			for (size_t b = 0; b < len; b++) {
				double sum = 0, worst = NAN;
				uint32_t cnt = 0;
				for (size_t j = 2 * b; j < 2 * b + 2 && j < pl; j++) {
					uint32_t cj = heat_count(g, l - 1, r, j);
					if (!cj)
						continue;
					sum += (double)g->val[l - 1][r * pl + j] * cj;
					double wj = g->worst[l - 1][r * pl + j];
					if (cnt == 0 || wj > worst)
						worst = wj;
					cnt += cj;
				}
				g->val[l][r * len + b] = cnt ? (float)(sum / cnt) : NAN;
				g->worst[l][r * len + b] = (float)worst;
				if (g->count[l])
					g->count[l][r * len + b] = cnt;
			}
		}
}

static struct heat_grid *heat_build(struct run *run, int series)
{
	const struct steps_model *m = run->steps;
	size_t N = steps_nranks(m), S = steps_naligned(m);
	if (N == 0 || S == 0 || (series >= 0 && ((size_t)series >= steps_nmetrics(m))) || series < HEAT_REL_SLOWDOWN)
		return NULL;
	struct heat_grid *g = xcalloc(1, sizeof(*g));
	g->series = series;
	g->nranks = N;
	g->nsteps = S;
	size_t levels = 1;
	for (size_t len = S; len > 1; len = (len + 1) / 2)
		levels++;
	g->nlevels = levels;
	g->val = xcalloc(levels, sizeof(*g->val));
	g->worst = xcalloc(levels, sizeof(*g->worst));
	g->count = xcalloc(levels, sizeof(*g->count));
	g->len = xcalloc(levels, sizeof(*g->len));
	g->len[0] = S;
	g->val[0] = xmalloc(N * S * sizeof(float));
	g->worst[0] = g->val[0];
	struct heat_pass p = { .g = g, .m = m };
	if (series == HEAT_REL_SLOWDOWN)
		p.cmed = analysis_step_medians(run, analysis_cache_of(run));
	analysis_phase_sets_init(m, &p.ps);
	size_t ntasks = (N + ANALYSIS_RANK_CHUNK - 1) / ANALYSIS_RANK_CHUNK;
	pool_run(ntasks, analysis_threads(run), heat_fill_rows, &p);
	analysis_phase_sets_free(&p.ps);
	bool dense = true;
	for (size_t i = 0; i < N * S && dense; i++)
		dense = !isnan(g->val[0][i]);
	for (size_t l = 1; l < levels; l++) {
		size_t len = (g->len[l - 1] + 1) / 2;
		g->len[l] = len;
		g->val[l] = xmalloc(N * len * sizeof(float));
		g->worst[l] = xmalloc(N * len * sizeof(float));
		if (!dense)
			g->count[l] = xmalloc(N * len * sizeof(uint32_t));
	}
	pool_run(ntasks, analysis_threads(run), heat_level_rows, &p);
	return g;
}

const struct heat_grid *analysis_heatmap(struct run *run, int series)
{
	struct analysis_cache *c = analysis_cache_of(run);
	if (!c)
		return NULL;
	for (size_t i = 0; i < c->nheat; i++)
		if (c->heat[i]->series == series)
			return c->heat[i];
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
	return g->val[0] + ri * g->nsteps;
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
		size_t len = g->len[l];
		const float *v = g->val[l] + ri * len, *wo = g->worst[l] + ri * len;
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
