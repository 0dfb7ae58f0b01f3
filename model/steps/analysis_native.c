/* SPDX-License-Identifier: MIT */
/* analysis_native.c: the native alignment of a step's records (internal.h NATIVE
 * ALIGNMENT). pytscope takes the last record of a step; natively (not under --compat
 * pytscope) a last record without any phase (an eval record's scalars) leaves the step
 * to the last earlier record of it that has phases. This file finds, per rank, the steps
 * where the two differ and the record the native alignment takes there, memoized in the
 * analysis cache and extended by the records a live run appends; the distributed
 * analysis, the heatmaps (so compare mode) and the heatmap's cell description read them. */
#include "model/steps/seal.h"

#include <stdlib.h>
#include "model/run.h"
#include "model/xalloc.h"

/* Rank r's record pos has a phase value (phase ids: ps->all). */
static bool record_phased(const struct rank_steps *r, const struct phase_sets *ps, size_t pos)
{
	double v;
	for (size_t i = 0; i < ps->nall; i++)
		if (store_rank_value(r, ps->all[i], pos, &v))
			return true;
	return false;
}

/* qsort order of (step, pos) pairs: by step (one pair a step). */
static int pair_cmp(const void *a, const void *b)
{
	const long *x = a, *y = b;
	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* The index of step in the n (step, pos) pairs of gap (ascending steps), or n. */
static size_t gap_find(const long *gap, size_t n, long step)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (gap[2 * mid] < step)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && gap[2 * lo] == step ? lo : n;
}

static void rank_add(struct native_rank *nr, long step, size_t pos)
{
	if (nr->n == nr->cap) {
		nr->cap = nr->cap ? 2 * nr->cap : 8;
		nr->step = xrealloc(nr->step, nr->cap * sizeof(*nr->step));
		nr->pos = xrealloc(nr->pos, nr->cap * sizeof(*nr->pos));
	}
	nr->step[nr->n] = step;
	nr->pos[nr->n++] = pos;
}

/* Rank ri's records from nr->scanned on: the last records of their steps that have no
 * phase (few: a lookup each), then one pass for the last record with a phase before
 * each. The records a live run appends have later steps than the rank had (else the
 * analyses start over, store_follow.c), so the steps found ascend after the earlier
 * ones. O(records log gaps). */
static void rank_scan(const struct steps_model *m, const struct phase_sets *ps, size_t ri, struct native_rank *nr)
{
	const struct rank_steps *r = m->rank[ri];
	rank_need_body(r);
	size_t n = 0, cap = 0, q, p0 = nr->scanned;
	long *gap = NULL; /* (step, its last record) by step ascending */
	for (size_t p = p0; p < r->n; p++) {
		long step = steps_step(m, ri, p);
		if (record_phased(r, ps, p) || !steps_find(m, ri, step, &q) || q != p)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			gap = xrealloc(gap, 2 * cap * sizeof(*gap));
		}
		gap[2 * n] = step;
		gap[2 * n + 1] = (long)p;
		n++;
	}
	if (n)
		qsort(gap, n, 2 * sizeof(*gap), pair_cmp);
	size_t *alt = xmalloc((n ? n : 1) * sizeof(*alt)); /* per gap: the record taken there, or SIZE_MAX */
	for (size_t i = 0; i < n; i++)
		alt[i] = SIZE_MAX;
	for (size_t p = p0; n && p < r->n; p++) {
		size_t i = gap_find(gap, n, steps_step(m, ri, p));
		if (i < n && p < (size_t)gap[2 * i + 1] && record_phased(r, ps, p))
			alt[i] = p; /* records ascend: the last one before the gap's stays */
	}
	for (size_t i = 0; i < n; i++)
		if (alt[i] != SIZE_MAX)
			rank_add(nr, gap[2 * i], alt[i]);
	nr->scanned = r->n;
	free(alt);
	free(gap);
}

/* Rank ri may have a step whose last record has no phase while an earlier one has: some
 * step of it is recorded twice, and no phase has a value in every record (a column's
 * count; while the body is in the index, the summary's budget lane counts: its body is
 * not read for nothing). */
static bool rank_candidate(const struct steps_model *m, const struct analysis_cache *c, size_t ri)
{
	const struct rank_steps *r = m->rank[ri];
	if (r->contiguous || r->n <= r->ndistinct)
		return false;
	if (__atomic_load_n(&r->lazy, __ATOMIC_ACQUIRE)) {
		const struct budget_sums *b = c->bsum ? &c->bsum[ri] : NULL;
		for (size_t l = 0; b && b->n == r->n && l < BUDGET_NLANES; l++)
			if (b->lane_n[l] == r->n)
				return false;
		return true;
	}
	for (size_t i = 0; i < r->ncol && i < steps_nmetrics(m); i++)
		if (steps_metric(m, (int)i)->kind == METRIC_PHASE && r->col[i].count == r->n)
			return false;
	return true;
}

const struct native_align *analysis_native(struct run *run)
{
	struct analysis_cache *c = analysis_cache_of(run);
	if (!c || (run->opts && run->opts->compat_pytscope))
		return NULL;
	const struct steps_model *m = run->steps;
	size_t N = steps_nranks(m);
	struct native_align *na = c->native_align;
	if (!na) {
		na = c->native_align = xcalloc(1, sizeof(*na));
		na->nranks = N;
		na->rank = xcalloc(N ? N : 1, sizeof(*na->rank));
	}
	struct phase_sets ps = { 0 };
	bool have_ps = false;
	for (size_t r = 0; r < N && r < na->nranks; r++) {
		struct native_rank *nr = &na->rank[r];
		if (nr->scanned == m->rank[r]->n)
			continue;
		if (!rank_candidate(m, c, r)) {   /* none among these records */
			nr->scanned = m->rank[r]->n;
			continue;
		}
		if (!have_ps)
			analysis_phase_sets_init(m, &ps);
		have_ps = true;
		na->total -= nr->n;
		rank_scan(m, &ps, r, nr);
		na->total += nr->n;
	}
	if (have_ps)
		analysis_phase_sets_free(&ps);
	return na->total ? na : NULL;
}

size_t analysis_native_first(const struct native_align *na, size_t ri, long step)
{
	const struct native_rank *nr = &na->rank[ri];
	size_t lo = 0, hi = nr->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (nr->step[mid] < step)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool analysis_native_pos(const struct native_align *na, size_t ri, long step, size_t *pos)
{
	if (!na || ri >= na->nranks || !na->rank[ri].n)
		return false;
	size_t i = analysis_native_first(na, ri, step);
	if (i == na->rank[ri].n || na->rank[ri].step[i] != step)
		return false;
	*pos = na->rank[ri].pos[i];
	return true;
}

bool analysis_step_record(struct run *run, size_t ri, long step, size_t *pos)
{
	if (!steps_find(run->steps, ri, step, pos))
		return false;
	analysis_native_pos(analysis_native(run), ri, step, pos);
	return true;
}

struct native_align *analysis_native_copy(const struct native_align *na)
{
	if (!na)
		return NULL;
	struct native_align *c = xcalloc(1, sizeof(*c));
	c->nranks = na->nranks;
	c->total = na->total;
	c->rank = xcalloc(na->nranks ? na->nranks : 1, sizeof(*c->rank));
	for (size_t r = 0; r < na->nranks; r++) {
		const struct native_rank *f = &na->rank[r];
		for (size_t i = 0; i < f->n; i++)
			rank_add(&c->rank[r], f->step[i], f->pos[i]);
		c->rank[r].scanned = f->scanned;
	}
	return c;
}

void analysis_native_free(struct native_align *na)
{
	for (size_t r = 0; na && r < na->nranks; r++) {
		free(na->rank[r].step);
		free(na->rank[r].pos);
	}
	if (na)
		free(na->rank);
	free(na);
}
