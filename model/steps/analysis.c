/* SPDX-License-Identifier: MIT */
/* analysis.c: the core of the step analyzers (see analysis.h): the memo cache kept in the
 * step model and freed with it, the warmup slice, the canonical phases and the per-record
 * compute/comm sums every analysis shares (internal.h). The analyses themselves live in
 * analysis_timing.c, _memory, _convergence, _distributed, _budget and _heatmap. */
#include "model/steps/internal.h"

#include <stdlib.h>
#include <string.h>
#include "model/run.h"
#include "model/stats.h"
#include "model/xalloc.h"

/* ---- cache -------------------------------------------------------------------------- */

static void timing_free(struct timing *t)
{
	if (t) {
		free(t->phase);
		free(t->step_time);
		free(t);
	}
}

static void conv_free(struct convergence *c)
{
	if (c) {
		free(c->loss_spikes);
		free(c->grad_spikes);
		free(c->loss);
		free(c->loss_step);
		free(c);
	}
}

void analysis_dist_free(struct distributed *d)
{
	if (d) {
		free(d->rank);
		free(d->step);
		free(d->stragglers);
		free(d);
	}
}

/* The results over every record (per-rank analyses, the whole-run budget, the
 * distributed analysis): what appends make stale. */
static void cache_drop_records(struct analysis_cache *c)
{
	for (size_t i = 0; i < c->nranks; i++) {
		timing_free(c->rank[i].timing);
		free(c->rank[i].memory);
		conv_free(c->rank[i].conv);
		free(c->rank[i].budget);
		c->rank[i] = (struct rank_cache){ 0 };
	}
	free(c->budget_all);
	c->budget_all = NULL;
	c->budget_all_done = false;
	analysis_dist_free(c->dist);
	c->dist = NULL;
	c->dist_done = false;
	c->lagging = false;
}

void analysis_cache_free(void *p)
{
	struct analysis_cache *c = p;
	if (!c)
		return;
	cache_drop_records(c);
	free(c->rank);
	free(c->cmed);
	for (size_t i = 0; i < c->nheat; i++)
		analysis_heat_free(c->heat[i]);
	free(c->heat);
	free(c);
}

/* The heatmap pyramids and the per-step medians stay: their accessors extend them to
 * the new aligned steps on next use. */
void analysis_cache_grown(void *p, bool lag_ok, bool columns_kept)
{
	struct analysis_cache *c = p;
	if (!c)
		return;
	for (size_t i = 0; i < c->nheat; i++) {
		if (!columns_kept)
			analysis_heat_free(c->heat[i]);
		else
			c->heat[i]->stale = true;
	}
	if (!columns_kept)
		c->nheat = 0;
	if (!lag_ok) {
		cache_drop_records(c);
		return;
	}
	bool held = c->budget_all_done || c->dist_done;
	for (size_t i = 0; i < c->nranks && !held; i++)
		held = c->rank[i].timing_done || c->rank[i].memory_done || c->rank[i].conv_done ||
		       c->rank[i].budget_done;
	c->lagging = held;
}

/* ---- live runs ---------------------------------------------------------------------- */

void analysis_allow_lag(struct run *run, bool allow)
{
	if (!run || !run->steps)
		return;
	run->steps->analysis_lag = allow;
	if (!allow)
		analysis_catch_up(run);
}

void analysis_catch_up(struct run *run)
{
	struct analysis_cache *c = run && run->steps ? run->steps->analysis : NULL;
	if (c && c->lagging)
		cache_drop_records(c);
}

bool analysis_lagging(const struct run *run)
{
	const struct analysis_cache *c = run && run->steps ? run->steps->analysis : NULL;
	return c && c->lagging;
}

struct analysis_cache *analysis_cache_of(struct run *run)
{
	if (!run || !run->steps)
		return NULL;
	void **slot = steps_analysis_slot(run->steps);
	if (!*slot) {
		struct analysis_cache *c = xcalloc(1, sizeof(*c));
		c->nranks = steps_nranks(run->steps);
		c->rank = xcalloc(c->nranks ? c->nranks : 1, sizeof(*c->rank));
		*slot = c;
	}
	return *slot;
}

struct rank_cache *analysis_rank_cache(struct run *run, size_t ri)
{
	struct analysis_cache *c = analysis_cache_of(run);
	return c && ri < c->nranks ? &c->rank[ri] : NULL;
}
size_t analysis_warmup_start(const struct run *run, size_t n)
{
	long w = run->opts ? run->opts->warmup : 0;
	if (w <= 0)
		return 0;
	return (size_t)w < n ? (size_t)w : n;
}

/* ---- phases ------------------------------------------------------------------------- */

static const char *const canonical[] = { "data", "forward", "backward", "optimizer", "compute",
					 "comm", "other" };

int analysis_phase_order(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(canonical); i++)
		if (strcmp(name, canonical[i]) == 0)
			return (int)i;
	return -1;
}

bool analysis_in_compute_phases(const char *name)
{
	int k = analysis_phase_order(name);
	return k >= 0 && strcmp(name, "comm") != 0;
}

/* Phase metric ids of the model (all of them). */
size_t analysis_phase_ids(const struct steps_model *m, int *ids)
{
	size_t n = 0;
	for (size_t i = 0; i < steps_nmetrics(m); i++)
		if (steps_metric(m, (int)i)->kind == METRIC_PHASE)
			ids[n++] = (int)i;
	return n;
}

void analysis_phase_sets_init(const struct steps_model *m, struct phase_sets *ps)
{
	ps->compute = xmalloc((steps_nmetrics(m) + 1) * sizeof(int));
	ps->ncompute = 0;
	for (size_t i = 0; i < steps_nmetrics(m); i++) {
		const struct metric_def *d = steps_metric(m, (int)i);
		if (d->kind == METRIC_PHASE && analysis_in_compute_phases(d->name))
			ps->compute[ps->ncompute++] = (int)i;
	}
	ps->comm = steps_metric_find(m, METRIC_PHASE, "comm");
	ps->all = xmalloc((steps_nmetrics(m) + 1) * sizeof(int));
	ps->nall = analysis_phase_ids(m, ps->all);
}

void analysis_phase_sets_free(struct phase_sets *ps)
{
	free(ps->compute);
	free(ps->all);
}

double analysis_record_compute(const struct steps_model *m, const struct phase_sets *ps, size_t ri,
			     size_t pos)
{
	const double *kept = m->rank[ri]->compute; /* an index build summed it at load */
	if (kept)
		return kept[pos];
	double v[ARRAY_LEN(canonical)];
	size_t n = 0;
	for (size_t i = 0; i < ps->ncompute; i++)
		if (steps_value(m, ri, ps->compute[i], pos, &v[n]))
			n++;
	return stats_fsum(v, n);
}

double analysis_record_comm(const struct steps_model *m, const struct phase_sets *ps, size_t ri,
			  size_t pos)
{
	double v;
	return steps_value(m, ri, ps->comm, pos, &v) ? v : 0.0;
}

/* Threads for the run-wide passes: --jobs, else one per core. No result depends on it:
 * every task writes its own slots and the order-dependent sums run after the pool. */
int analysis_threads(const struct run *run)
{
	return run->opts ? run->opts->jobs : 0;
}
