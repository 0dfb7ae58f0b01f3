/* SPDX-License-Identifier: MIT */
/* analysis_timing.c: pytscope's timing analysis of one rank (analysis.h §6.1): mean, std,
 * p50/p95 of the step time and the per-phase totals and fractions, over exact sums. */
#include "model/steps/internal.h"

#include <stdlib.h>
#include <string.h>
#include "model/run.h"
#include "model/stats.h"
#include "model/xalloc.h"

static int cmp_phase(const void *a, const void *b)
{
	const struct timing_phase *x = a, *y = b;
	int i = analysis_phase_order(x->name), j = analysis_phase_order(y->name);
	if (i >= 0 || j >= 0) {
		if (i < 0)
			return 1;
		if (j < 0)
			return -1;
		return (i > j) - (i < j);
	}
	return strcmp(x->name, y->name);
}

/* ---- timing ------------------------------------------------------------------------- */

static struct timing *compute_timing(struct run *run, size_t ri)
{
	const struct steps_model *m = run->steps;
	size_t n_all = steps_nrecords(m, ri), w = analysis_warmup_start(run, n_all), n = n_all - w;
	struct timing *t = xcalloc(1, sizeof(*t));
	t->n = n;
	if (n == 0)
		return t;
	int *ids = xmalloc((steps_nmetrics(m) + 1) * sizeof(*ids));
	size_t np = analysis_phase_ids(m, ids);
	t->phase = xcalloc(np ? np : 1, sizeof(*t->phase));
	t->step_time = xmalloc(n * sizeof(*t->step_time));
	struct stats_sum *tot = xmalloc((np ? np : 1) * sizeof(*tot));
	bool *seen = xcalloc(np ? np : 1, sizeof(*seen));
	for (size_t p = 0; p < np; p++)
		stats_sum_init(&tot[p]);
	for (size_t i = 0; i < n; i++) {
		struct stats_sum st;
		stats_sum_init(&st);
		for (size_t p = 0; p < np; p++) {
			double v;
			if (steps_value(m, ri, ids[p], w + i, &v)) {
				stats_sum_add(&st, v);
				stats_sum_add(&tot[p], v);
				seen[p] = true;
			}
		}
		t->step_time[i] = stats_sum_result(&st);
	}
	double *totals = xmalloc((np ? np : 1) * sizeof(*totals));
	size_t k = 0;
	for (size_t p = 0; p < np; p++) {
		if (!seen[p])
			continue;
		t->phase[k].metric = ids[p];
		t->phase[k].name = steps_metric(m, ids[p])->name;
		t->phase[k].total = stats_sum_result(&tot[p]);
		totals[k] = t->phase[k].total;
		k++;
	}
	t->nphase = k;
	double grand = stats_fsum(totals, k), denom = grand > 0 ? grand : 1.0;
	for (size_t p = 0; p < k; p++) {
		t->phase[p].seconds = t->phase[p].total / (double)n;
		t->phase[p].fraction = t->phase[p].total / denom;
	}
	qsort(t->phase, k, sizeof(*t->phase), cmp_phase);
	t->total_time = grand;
	t->mean_step_time = grand / (double)n;
	double mean_st = stats_mean(t->step_time, n);
	t->std_step_time = stats_pstdev(t->step_time, n, mean_st);
	t->p50 = stats_percentile(t->step_time, n, 50);
	t->p95 = stats_percentile(t->step_time, n, 95);
	t->steps_per_sec = t->mean_step_time > 0 ? 1.0 / t->mean_step_time : 0.0;
	t->cv = t->mean_step_time != 0 ? t->std_step_time / t->mean_step_time : 0.0;
	t->p95_p50_ratio = t->p50 != 0 ? t->p95 / t->p50 : 0.0;
	free(totals);
	free(seen);
	free(tot);
	free(ids);
	return t;
}

const struct timing *analysis_timing(struct run *run, size_t ri)
{
	struct rank_cache *rc = analysis_rank_cache(run, ri);
	if (!rc)
		return NULL;
	if (!rc->timing_done) {
		rc->timing = compute_timing(run, ri);
		rc->timing_done = true;
	}
	return rc->timing;
}

static const struct timing_phase *timing_phase(const struct timing *t, const char *name)
{
	for (size_t i = 0; t && i < t->nphase; i++)
		if (strcmp(t->phase[i].name, name) == 0)
			return &t->phase[i];
	return NULL;
}

double timing_fraction(const struct timing *t, const char *name)
{
	const struct timing_phase *p = timing_phase(t, name);
	return p ? p->fraction : 0.0;
}

double timing_seconds(const struct timing *t, const char *name)
{
	const struct timing_phase *p = timing_phase(t, name);
	return p ? p->seconds : 0.0;
}
