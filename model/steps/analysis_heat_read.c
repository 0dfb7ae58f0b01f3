/* SPDX-License-Identifier: MIT */
/* analysis_heat_read.c: reading a heatmap pyramid (analysis.h, internal.h struct
 * heat_grid; built in analysis_heatmap.c): the mean and worst over a range of columns in
 * O(log S) blocks, the worst per bucket of columns, a row's level 0, and a row's part of
 * the colour scale; a grid restored from the index summary is read by chunks where its
 * row is not resident. */
#include "model/steps/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/grid.h"

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

/* Word w of rank ri's row: in place, or (a grid restored from the index summary whose
 * row is not resident) from the summary's chunk that holds it. */
static float range_word(const struct heat_grid *g, const void *row, size_t ri, size_t w, uint32_t *bits)
{
	uint32_t x = row ? ((const uint32_t *)row)[w] : analysis_heat_word(g, ri, w);
	float f;
	memcpy(&f, &x, sizeof(f));
	if (bits)
		*bits = x;
	return f;
}

/* heat_count() for a row that may be read by chunks. */
static uint32_t range_count(const struct heat_grid *g, const void *row, size_t ri, size_t l, size_t idx)
{
	if (l == 0 && !g->shift)
		return !isnan(range_word(g, row, ri, g->off_val[0] + idx, NULL));
	if (!g->dense) {
		uint32_t c;
		range_word(g, row, ri, g->off_count[l] + idx, &c);
		return c;
	}
	size_t lo = idx << l, hi = lo + ((size_t)1 << l);
	return (uint32_t)((hi < g->nsteps ? hi : g->nsteps) - lo);
}

void heat_row_buckets(const struct heat_grid *g, size_t ri, size_t c0, size_t spc, size_t n, float *worst)
{
	size_t l = 0;
	while (((size_t)1 << l) < spc)
		l++;
	if (((size_t)1 << l) != spc || c0 % spc || l >= g->nlevels) { /* not one block per bucket */
		for (size_t x = 0; x < n; x++) {
			double m, w;
			worst[x] = heat_range(g, ri, c0 + x * spc, c0 + (x + 1) * spc, &m, &w) ? (float)w : NAN;
		}
		return;
	}
	size_t a = c0 >> l, len = g->len[l], k = a < len ? (len - a < n ? len - a : n) : 0;
	if (g->row[ri])   /* level l's worst (level 0: the values), NaN where no value */
		memcpy(worst, (const float *)g->row[ri] + g->off_worst[l] + a, k * sizeof(*worst));
	else
		analysis_heat_words(g, ri, g->off_worst[l] + a, k, worst);
	for (size_t x = k; x < n; x++)
		worst[x] = NAN;
}

/* row_range()'s walk up one level: the end blocks [*a, *b) takes into take, how many. */
static inline size_t level_takes(size_t *a, size_t *b, size_t take[2])
{
	size_t nt = 0;
	if (*a & 1)
		take[nt++] = (*a)++;
	if (*b & 1)
		take[nt++] = --*b;
	*a /= 2;
	*b /= 2;
	return nt;
}

/* heat_range() over row ri whose words are at row (NULL: a restored row read by
 * chunks): heat_range() and heat_row_scale() alike. Always inlined: in heat_row_scale(),
 * whose row is never NULL (nonnull), the compiler then drops the branches to the chunk
 * reads (a fifth of the colour scale's instructions at 1,000 steps a rank). */
static inline __attribute__((always_inline)) bool row_range(const struct heat_grid *g, const void *row, size_t ri,
							     size_t k_lo, size_t k_hi, double *mean, double *worst)
{
	if (k_hi > g->nsteps)
		k_hi = g->nsteps;
	if (k_lo >= k_hi)
		return false;
	double sum = 0, w = 0;
	uint64_t cnt = 0;
	size_t a = k_lo, b = k_hi;
	for (size_t l = 0; a < b && l < g->nlevels; l++) {
		size_t take[2], nt = level_takes(&a, &b, take);
		for (size_t t = 0; t < nt; t++) {
			uint32_t c = range_count(g, row, ri, l, take[t]);
			if (!c)
				continue;
			double v = range_word(g, row, ri, g->off_val[l] + take[t], NULL);
			double wo = range_word(g, row, ri, g->off_worst[l] + take[t], NULL);
			sum += v * c;
			if (cnt == 0 || wo > w)
				w = wo;
			cnt += c;
		}
	}
	if (cnt == 0)
		return false;
	*mean = sum / (double)cnt;
	*worst = w;
	return true;
}

bool heat_range(const struct heat_grid *g, size_t ri, size_t k_lo, size_t k_hi, double *mean,
		double *worst)
{
	if (!g || ri >= g->nranks)
		return false;
	return row_range(g, g->row[ri], ri, k_lo, k_hi, mean, worst);
}

/* The blocks row_range() takes for each segment of a dense grid's colour scale depend on
 * its shape only: heat_row_scale() plans them once a scale (grid_scale.plan). Segment k
 * takes take[first[k] .. first[k + 1]) in row_range()'s order: the mean at word
 * off_val[level] + idx, weighed by its count (0: a level-0 cell, present unless NaN). */
struct scale_take {
	uint32_t idx, count;
	size_t level;
};
struct scale_plan {
	size_t nsteps, nlevels, ncols;   /* its shape (nc follows ncols); another: made again */
	uint32_t first[65];       /* grid_scale_init: nc <= 64 */
	struct scale_take take[];
};

static const struct scale_plan *scale_plan_of(const struct heat_grid *g, struct grid_scale *s)
{
	struct scale_plan *p = s->plan;
	if (p && p->nsteps == g->nsteps && p->nlevels == g->nlevels && p->ncols == s->ncols)
		return p;
	free(p);
	s->plan = p = xmalloc(sizeof(*p) + s->nc * 2 * g->nlevels * sizeof(p->take[0]));
	*p = (struct scale_plan){ .nsteps = g->nsteps, .nlevels = g->nlevels, .ncols = s->ncols };
	uint32_t n = 0;
	for (size_t k = 0; k < s->nc; k++) {
		size_t a, b;
		grid_scale_segment(s, k, &a, &b);
		if (b > g->nsteps)
			b = g->nsteps;
		p->first[k] = n;
		for (size_t l = 0; a < b && l < g->nlevels; l++) {
			size_t take[2], nt = level_takes(&a, &b, take);
			for (size_t t = 0; t < nt; t++) /* range_count() of a dense grid */
				p->take[n++] = (struct scale_take){ (uint32_t)take[t],
								    l ? range_count(g, NULL, 0, l, take[t]) : 0, l };
		}
	}
	p->first[s->nc] = n;
	return p;
}

/* row_range()'s mean of segment k through p: the same products in the same order. */
static bool plan_mean(const struct heat_grid *g, const void *row, const struct scale_plan *p, size_t k, double *mean)
{
	double sum = 0;
	uint64_t cnt = 0;
	for (uint32_t i = p->first[k]; i < p->first[k + 1]; i++) {
		const struct scale_take *t = &p->take[i];
		double v = ((const float *)row + g->off_val[t->level])[t->idx];
		uint32_t c = t->count ? t->count : !isnan(v);
		if (!c)
			continue;
		sum += v * c;
		cnt += c;
	}
	if (cnt)
		*mean = sum / (double)cnt;
	return cnt != 0;
}

void heat_row_scale(const struct heat_grid *g, const void *row, size_t ri, struct grid_scale *s)
{
	double m, w;
	if (s->nc == s->ncols && !g->shift) { /* a column a segment (64 steps or fewer): */
		const float *v = (const float *)row + g->off_val[0]; /* row_range() of one cell, (0 + v * 1) / 1 */
		for (size_t k = 0; k < s->nc; k++)
			if (!isnan(v[k]))
				grid_scale_add_mean(s, 0.0 + (double)v[k]);
	} else if (g->dense && !g->shift && g->nsteps <= UINT32_MAX) {
		const struct scale_plan *p = scale_plan_of(g, s);
		for (size_t k = 0; k < s->nc; k++)
			if (plan_mean(g, row, p, k, &m))
				grid_scale_add_mean(s, m);
	} else {
		for (size_t k = 0; k < s->nc; k++) {
			size_t c0, c1;
			grid_scale_segment(s, k, &c0, &c1);
			if (row_range(g, row, ri, c0, c1, &m, &w))
				grid_scale_add_mean(s, m);
		}
	}
	if (row_range(g, row, ri, 0, s->ncols, &m, &w))
		grid_scale_add_worst(s, w);
}
