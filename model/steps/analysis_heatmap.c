/* SPDX-License-Identifier: MIT */
/* analysis_heatmap.c: the heatmap block pyramids (analysis.h): per rank and series, the mean and
 * worst of every block of 2^l aligned steps, built once in parallel row passes, so a
 * range query costs O(log S). */
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
	for (size_t r = 0; g->row && r < g->nranks; r++)
		free(g->row[r]);
	free(g->row);
	analysis_heat_lazy_free(g->lazy);
	free(g->len);
	free(g->off_val);
	free(g->off_worst);
	free(g->off_count);
	free(g);
}

struct heat_grid *analysis_heat_new(int series, size_t nranks, size_t nsteps, bool dense)
{
	struct heat_grid *g = xcalloc(1, sizeof(*g));
	g->series = series;
	g->nranks = nranks;
	g->nsteps = nsteps;
	g->dense = dense;
	size_t levels = 1;
	for (size_t len = nsteps; len > 1; len = (len + 1) / 2)
		levels++;
	g->nlevels = levels;
	g->len = xcalloc(levels, sizeof(*g->len));
	g->off_val = xcalloc(levels, sizeof(*g->off_val));
	g->off_worst = xcalloc(levels, sizeof(*g->off_worst));
	g->off_count = xcalloc(levels, sizeof(*g->off_count));
	g->len[0] = nsteps;
	for (size_t l = 1; l < levels; l++)
		g->len[l] = (g->len[l - 1] + 1) / 2;
	/* val of every level, then worst of levels >= 1, then (not dense) counts */
	size_t w = 0;
	for (size_t l = 0; l < levels; l++) {
		g->off_val[l] = w;
		w += g->len[l];
	}
	g->off_worst[0] = g->off_val[0];
	for (size_t l = 1; l < levels; l++) {
		g->off_worst[l] = w;
		w += g->len[l];
	}
	for (size_t l = 1; l < levels && !dense; l++) {
		g->off_count[l] = w;
		w += g->len[l];
	}
	g->row_words = w;
	g->row = xcalloc(nranks ? nranks : 1, sizeof(*g->row));
	return g;
}

static size_t dense_words(const struct heat_grid *g)
{
	return g->nlevels > 1 ? g->off_worst[g->nlevels - 1] + g->len[g->nlevels - 1] : g->nsteps;
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

static float *row_val(const struct heat_grid *g, void *row, size_t l)
{
	return (float *)row + g->off_val[l];
}

static float *row_worst(const struct heat_grid *g, void *row, size_t l)
{
	return (float *)row + g->off_worst[l];
}

static uint32_t *row_count(const struct heat_grid *g, void *row, size_t l)
{
	return (uint32_t *)row + g->off_count[l];
}

/* Level 0 of rank r's row (NaN marks a missing cell). */
static void heat_fill_row(const struct heat_pass *p, size_t r)
{
	const struct heat_grid *g = p->g;
	int series = g->series == HEAT_REL_SLOWDOWN ? HEAT_COMPUTE : g->series;
	float *v = row_val(g, g->row[r], 0);
	for (size_t k = 0; k < g->nsteps; k++) {
		double x;
		bool ok = series_value(p->m, &p->ps, series, r, k, &x);
		if (p->cmed)
			v[k] = p->cmed[k] > 0 ? (float)(x / p->cmed[k] - 1.0) : NAN;
		else
			v[k] = ok ? (float)x : NAN;
	}
}

static void heat_fill_rows(void *ud, size_t task)
{
	const struct heat_pass *p = ud;
	for (size_t r = task * ANALYSIS_RANK_CHUNK; r < p->g->nranks && r < (task + 1) * ANALYSIS_RANK_CHUNK; r++) {
		p->g->row[r] = xmalloc(dense_words(p->g) * 4);
		heat_fill_row(p, r);
	}
}

/* Present values in block idx of level l of a row. */
static uint32_t heat_count(const struct heat_grid *g, const void *row, size_t l, size_t idx)
{
	if (l == 0)
		return !isnan(row_val(g, (void *)row, 0)[idx]);
	if (!g->dense)
		return row_count(g, (void *)row, l)[idx];
	size_t lo = idx << l, hi = lo + ((size_t)1 << l);
	return (uint32_t)((hi < g->nsteps ? hi : g->nsteps) - lo);
}

/* Levels 1.. of a row: block b of level l from blocks 2b, 2b+1 of level l-1. */
static void heat_level_row(struct heat_grid *g, void *row)
{
	for (size_t l = 1; l < g->nlevels; l++) {
		size_t pl = g->len[l - 1], len = g->len[l];
		const float *pv = row_val(g, row, l - 1), *pw = row_worst(g, row, l - 1);
		float *v = row_val(g, row, l), *w = row_worst(g, row, l);
		for (size_t b = 0; b < len; b++) {
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
			v[b] = cnt ? (float)(sum / cnt) : NAN;
			w[b] = (float)worst;
			if (!g->dense)
				row_count(g, row, l)[b] = cnt;
		}
	}
}

static void heat_level_rows(void *ud, size_t task)
{
	const struct heat_pass *p = ud;
	struct heat_grid *g = p->g;
	for (size_t r = task * ANALYSIS_RANK_CHUNK; r < g->nranks && r < (task + 1) * ANALYSIS_RANK_CHUNK; r++) {
		if (!g->dense)
			g->row[r] = xrealloc(g->row[r], g->row_words * 4);
		heat_level_row(g, g->row[r]);
	}
}

static bool heat_series_ok(const struct steps_model *m, int series)
{
	return !(series >= 0 && (size_t)series >= steps_nmetrics(m)) && series >= HEAT_REL_SLOWDOWN;
}

static struct heat_grid *heat_build(struct run *run, int series)
{
	const struct steps_model *m = run->steps;
	size_t N = steps_nranks(m), S = steps_naligned(m);
	if (N == 0 || S == 0 || !heat_series_ok(m, series))
		return NULL;
	struct heat_grid *g = analysis_heat_new(series, N, S, true);
	struct heat_pass p = { .g = g, .m = m };
	if (series == HEAT_REL_SLOWDOWN)
		p.cmed = analysis_step_medians(run, analysis_cache_of(run));
	analysis_phase_sets_init(m, &p.ps);
	size_t ntasks = (N + ANALYSIS_RANK_CHUNK - 1) / ANALYSIS_RANK_CHUNK;
	pool_run(ntasks, analysis_threads(run), heat_fill_rows, &p);
	analysis_phase_sets_free(&p.ps);
	bool dense = true;
	for (size_t r = 0; r < N && dense; r++)
		for (size_t k = 0; k < S && dense; k++)
			dense = !isnan(row_val(g, g->row[r], 0)[k]);
	if (!dense) { /* same layout plus the counts at the end of each row */
		struct heat_grid *h = analysis_heat_new(series, N, S, false);
		free(h->row);
		h->row = g->row;
		g->row = NULL;
		analysis_heat_free(g);
		g = p.g = h;
	}
	pool_run(ntasks, analysis_threads(run), heat_level_rows, &p);
	return g;
}

void analysis_heat_build_row(struct run *run, struct heat_grid *g, size_t ri)
{
	struct heat_pass p = { .g = g, .m = run->steps };
	if (g->series == HEAT_REL_SLOWDOWN)
		p.cmed = analysis_step_medians(run, analysis_cache_of(run));
	analysis_phase_sets_init(run->steps, &p.ps);
	void *keep = g->row[ri];
	g->row[ri] = xmalloc(g->row_words * 4);
	heat_fill_row(&p, ri);
	heat_level_row(g, g->row[ri]);
	analysis_phase_sets_free(&p.ps);
	if (keep) {
		memcpy(keep, g->row[ri], g->row_words * 4);
		free(g->row[ri]);
		g->row[ri] = keep;
	}
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
	return (const float *)analysis_heat_row(g, ri, true) + g->off_val[0];
}

bool heat_range(const struct heat_grid *g, size_t ri, size_t k_lo, size_t k_hi, double *mean,
		double *worst)
{
	if (!g || ri >= g->nranks)
		return false;
	if (k_hi > g->nsteps)
		k_hi = g->nsteps;
	if (k_lo >= k_hi)
		return false;
	void *row = (void *)analysis_heat_row(g, ri, false);
	double sum = 0, w = 0;
	uint64_t cnt = 0;
	size_t a = k_lo, b = k_hi;
	for (size_t l = 0; a < b && l < g->nlevels; l++) {
		const float *v = row_val(g, row, l), *wo = row_worst(g, row, l);
		size_t take[2], nt = 0;
		if (a & 1)
			take[nt++] = a++;
		if (b & 1)
			take[nt++] = --b;
		for (size_t t = 0; t < nt; t++) {
			uint32_t c = heat_count(g, row, l, take[t]);
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
