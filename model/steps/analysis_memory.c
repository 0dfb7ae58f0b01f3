/* SPDX-License-Identifier: MIT */
/* analysis_memory.c: pytscope's memory analysis of one rank (analysis.h §6.2): peaks,
 * mean allocation, fragmentation and growth. */
#include "model/steps/internal.h"

#include <stdlib.h>
#include "model/run.h"
#include "model/stats.h"
#include "model/xalloc.h"

/* Values of metric over positions [w, n) that have it, in order. */
static double *gather(const struct steps_model *m, size_t ri, int metric, size_t w, size_t n,
		      size_t *count)
{
	double *v = xmalloc((n > w ? n - w : 1) * sizeof(*v));
	size_t k = 0;
	for (size_t i = w; i < n && metric >= 0; i++)
		if (steps_value(m, ri, metric, i, &v[k]))
			k++;
	*count = k;
	return v;
}

static bool any_memory(const struct steps_model *m, size_t ri, size_t pos)
{
	double v;
	for (size_t i = 0; i < steps_nmetrics(m); i++)
		if (steps_metric(m, (int)i)->kind == METRIC_MEMORY && steps_value(m, ri, (int)i, pos, &v))
			return true;
	return false;
}

/* Max over records with memory of (primary, else fallback, else 0), positions [w, n). */
static double peak_of(const struct steps_model *m, size_t ri, int primary, int fallback, size_t w,
		      size_t n)
{
	double best = 0;
	bool any = false;
	for (size_t i = w; i < n; i++) {
		if (!any_memory(m, ri, i))
			continue;
		double v = 0;
		if (!steps_value(m, ri, primary, i, &v) && !steps_value(m, ri, fallback, i, &v))
			v = 0;
		if (!any || v > best)
			best = v;
		any = true;
	}
	return best;
}

static struct memory *compute_memory(struct run *run, size_t ri)
{
	const struct steps_model *m = run->steps;
	struct memory *mem = xcalloc(1, sizeof(*mem));
	size_t n = steps_nrecords(m, ri), w = analysis_warmup_start(run, n);
	mem->n_steps = n - w;
	int a = steps_metric_find(m, METRIC_MEMORY, "alloc");
	int r = steps_metric_find(m, METRIC_MEMORY, "reserved");
	size_t na, nr;
	double *allocs = gather(m, ri, a, w, n, &na);
	double *res = gather(m, ri, r, w, n, &nr);
	if (na > 0) {
		mem->has_memory = true;
		mem->peak_alloc = peak_of(m, ri, steps_metric_find(m, METRIC_MEMORY, "peak_alloc"), a, w, n);
		mem->peak_reserved = peak_of(m, ri, steps_metric_find(m, METRIC_MEMORY, "peak_reserved"), r, w, n);
		mem->mean_alloc = stats_mean(allocs, na);
		struct stats_sum s;
		stats_sum_init(&s);
		size_t pairs = 0;
		for (size_t i = 0; i < na && i < nr; i++)
			if (res[i] > 0) {
				stats_sum_add(&s, (res[i] - allocs[i]) / res[i]);
				pairs++;
			}
		mem->fragmentation = pairs ? stats_sum_result(&s) / (double)pairs : 0.0;
		mem->growth = stats_robust_slope(allocs, na);
	}
	free(allocs);
	free(res);
	return mem;
}

const struct memory *analysis_memory(struct run *run, size_t ri)
{
	struct rank_cache *rc = analysis_rank_cache(run, ri);
	if (!rc)
		return NULL;
	if (!rc->memory_done) {
		rc->memory = compute_memory(run, ri);
		rc->memory_done = true;
	}
	return rc->memory;
}
