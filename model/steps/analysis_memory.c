/* SPDX-License-Identifier: MIT */
/* analysis_memory.c: pytscope's memory analysis of one rank (analysis.h §6.2): peaks,
 * mean allocation, fragmentation and growth (per memory sample under --compat pytscope,
 * natively per step: analysis.h GROWTH). */
#include "model/steps/internal.h"

#include <math.h>
#include <stdlib.h>
#include "model/run.h"
#include "model/stats.h"
#include "model/xalloc.h"

/* Metric id's value at pos of rank ri. A non-finite one (the loader warns) is missing
 * but under --compat pytscope, which takes it as pytscope does. */
static bool mem_value(const struct steps_model *m, bool compat, size_t ri, int id, size_t pos, double *v)
{
	return steps_value(m, ri, id, pos, v) && (compat || isfinite(*v));
}

static bool any_memory(const struct steps_model *m, bool compat, size_t ri, size_t pos)
{
	double v;
	for (size_t i = 0; i < steps_nmetrics(m); i++)
		if (steps_metric(m, (int)i)->kind == METRIC_MEMORY && mem_value(m, compat, ri, (int)i, pos, &v))
			return true;
	return false;
}

/* The memory analysis of a rank made in pieces, each a range of its positions [w, n):
 * stage 0 gathers alloc (and the step numbers of the first and last: analysis.h GROWTH),
 * 1 reserved (values of the positions that have them, in order), 2 and 3 the peaks: max
 * over positions with any memory value of (peak_alloc, else alloc, else 0) and of
 * (peak_reserved, else reserved, else 0); then the means. */
struct mem_job {
	struct analysis_job job;
	size_t ri, w, n, at;
	int stage;
	bool compat;               /* --compat pytscope: non-finite values are taken */
	int metric[4];             /* alloc, reserved, peak_alloc, peak_reserved */
	double *val[2];            /* alloc, reserved values */
	size_t nval[2];
	double peak[2];
	bool any[2];
	bool measured[2];          /* a peak from a value recorded (else from the 0 fallback only) */
	struct memory *mem;
};

static void mem_job_free(void *p)
{
	struct mem_job *j = p;
	if (!j)
		return;
	free(j->val[0]);
	free(j->val[1]);
	free(j->mem);
	free(j);
}

static void *mem_begin(struct run *run, size_t ri)
{
	const struct steps_model *m = run->steps;
	struct mem_job *j = xcalloc(1, sizeof(*j));
	j->job.free = mem_job_free;
	j->ri = ri;
	j->compat = run->opts && run->opts->compat_pytscope;
	j->n = steps_nrecords(m, ri);
	j->w = analysis_warmup_start(run, j->n);
	j->mem = xcalloc(1, sizeof(*j->mem));
	j->mem->n_steps = j->n - j->w;
	static const char *const names[] = { "alloc", "reserved", "peak_alloc", "peak_reserved" };
	for (size_t i = 0; i < ARRAY_LEN(names); i++)
		j->metric[i] = steps_metric_find(m, METRIC_MEMORY, names[i]);
	for (size_t i = 0; i < 2; i++)
		j->val[i] = xmalloc((j->n > j->w ? j->n - j->w : 1) * sizeof(*j->val[i]));
	return j;
}

/* Positions [lo, hi) of stage s. */
static void mem_range(const struct steps_model *m, struct mem_job *j, int s, size_t lo, size_t hi)
{
	if (s < 2) {
		for (size_t i = lo; i < hi && j->metric[s] >= 0; i++) {
			if (!mem_value(m, j->compat, j->ri, j->metric[s], i, &j->val[s][j->nval[s]]))
				continue;
			if (s == 0) { /* an alloc: a memory sample, at its record's step */
				j->mem->last_step = steps_step(m, j->ri, i);
				if (j->nval[s] == 0)
					j->mem->first_step = j->mem->last_step;
			}
			j->nval[s]++;
		}
		return;
	}
	int p = s - 2, primary = j->metric[s], fallback = j->metric[p];
	for (size_t i = lo; i < hi; i++) {
		if (!any_memory(m, j->compat, j->ri, i))
			continue;
		double v = 0;
		bool got = mem_value(m, j->compat, j->ri, primary, i, &v) ||
			   mem_value(m, j->compat, j->ri, fallback, i, &v);
		if (!got)
			v = 0;
		j->measured[p] |= got;
		if (!j->any[p] || v > j->peak[p])
			j->peak[p] = v;
		j->any[p] = true;
	}
}

/* analysis.h GROWTH natively: §6.2's robust_slope with the step numbers the n samples span
 * in place of n - 1 (the per-sample slope over the mean step distance between samples),
 * so it is pytscope's figure when memory is logged at every step. */
static double growth_per_step(const struct memory *mem, const double *allocs, size_t n)
{
	double span = (double)mem->last_step - (double)mem->first_step;
	if (!(span > 0))
		return NAN;
	size_t w = (size_t)((double)n * 0.1);
	if (w < 1)
		w = 1;
	return (stats_median(allocs + n - w, w) - stats_median(allocs, w)) / span;
}

static void mem_finish(struct mem_job *j)
{
	struct memory *mem = j->mem;
	const double *allocs = j->val[0], *res = j->val[1];
	size_t na = j->nval[0], nr = j->nval[1];
	if (na == 0)
		return;
	mem->has_memory = true;
	mem->peak_alloc = j->peak[0];
	mem->peak_reserved = j->peak[1];
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
	mem->has_reserved = j->measured[1];
	mem->has_fragmentation = pairs > 0;
	mem->n_samples = na;
	mem->growth = j->compat ? stats_robust_slope(allocs, na) : growth_per_step(mem, allocs, na);
}

/* At most k more positions of work; true when the analysis is complete in j->mem. The
 * peaks are taken only when some record has alloc. */
static bool mem_feed(const struct steps_model *m, void *job, size_t k)
{
	struct mem_job *j = job;
	if (j->stage == 2 && j->nval[0] == 0)
		j->stage = 4;
	if (j->stage == 4) {
		mem_finish(j);
		return true;
	}
	size_t lo = j->w + j->at, hi = j->n - lo < k ? j->n : lo + k;
	mem_range(m, j, j->stage, lo, hi);
	j->at = hi - j->w;
	if (hi == j->n) {
		j->stage++;
		j->at = 0;
	}
	return false;
}

static bool mem_done(const struct rank_cache *rc)
{
	return rc->memory_done;
}

static void mem_keep(struct rank_cache *rc, void *job)
{
	struct mem_job *j = job;
	rc->memory = j->mem;
	rc->memory_done = true;
	j->mem = NULL;
	mem_job_free(j);
}

static const struct analysis_pieces mem_pieces = { mem_done, mem_begin, mem_feed, mem_keep };

const struct memory *analysis_memory(struct run *run, size_t ri)
{
	struct rank_cache *rc = analysis_pieces_whole(run, ri, &mem_pieces);
	return rc ? rc->memory : NULL;
}

bool analysis_memory_slice(struct run *run, size_t ri, void **job)
{
	return analysis_pieces_slice(run, ri, job, &mem_pieces);
}
