/* SPDX-License-Identifier: MIT */
/* trace_steps.c: per-step records from ProfilerStep#N spans, published into the step
 * model (steps.h) when the run has no pytscope steps, so that a traces-only run fills
 * the heatmap, the ranks table and the distributed analyzer.
 *
 * Each ProfilerStep#N of a rank becomes one record: step N, timestamp = span start
 * (epoch seconds), phases `comm` = the exposed communication time of the GPU kernels
 * launched in that step (communication kernels not overlapped by computation kernels,
 * clipped to the step duration) and `compute` = step duration − comm. So the phases
 * sum to the ProfilerStep duration. */
#include "model/trace.h"

#include <stdlib.h>
#include "model/run.h"
#include "model/steps.h"
#include "model/xalloc.h"

struct span {
	int64_t s, e;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return (x->s > y->s) - (x->s < y->s);
}

static size_t span_merge(struct span *v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), span_cmp);
	size_t m = 0;
	for (size_t i = 1; i < n; i++) {
		if (v[i].s > v[m].e)
			v[++m] = v[i];
		else if (v[i].e > v[m].e)
			v[m].e = v[i].e;
	}
	return m + 1;
}

struct by_iter {
	int32_t iter;
	size_t k;
};

static int by_iter_cmp(const void *a, const void *b)
{
	const struct by_iter *x = a, *y = b;
	if (x->iter != y->iter)
		return (x->iter > y->iter) - (x->iter < y->iter);
	return (x->k > y->k) - (x->k < y->k);
}

/* Communication time of the kernels v[0..n) not covered by computation kernels (ns). */
static int64_t exposed_comm(const struct trace_rank *r, const struct by_iter *v, size_t n,
			    struct span *comm, struct span *comp)
{
	size_t nc = 0, np = 0;
	for (size_t i = 0; i < n; i++) {
		const struct trace_kernel *e = &r->k[v[i].k];
		struct span sp = { e->ts, e->ts + e->dur };
		if (r->name_cls[e->name] == KC_COMMUNICATION)
			comm[nc++] = sp;
		else if (r->name_cls[e->name] == KC_COMPUTATION)
			comp[np++] = sp;
	}
	nc = span_merge(comm, nc);
	np = span_merge(comp, np);
	int64_t t = 0;
	size_t j = 0;
	for (size_t i = 0; i < nc; i++) {
		int64_t cur = comm[i].s;
		while (j < np && comp[j].e <= cur)
			j++;
		for (size_t q = j; q < np && comp[q].s < comm[i].e; q++) {
			if (comp[q].s > cur)
				t += comp[q].s - cur;
			if (comp[q].e > cur)
				cur = comp[q].e;
		}
		if (comm[i].e > cur)
			t += comm[i].e - cur;
	}
	return t;
}

/* The kernels of step `step`: the run of v (sorted by iter) with that iter. */
static size_t iter_range(const struct by_iter *v, size_t n, long step, size_t *lo)
{
	size_t a = 0, b = n;
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (v[mid].iter < step)
			a = mid + 1;
		else
			b = mid;
	}
	size_t e = a;
	while (e < n && v[e].iter == step)
		e++;
	*lo = a;
	return e - a;
}

static void publish_rank(struct steps_model *m, const struct trace_rank *r, int m_compute, int m_comm)
{
	if (r->nstep == 0)
		return;
	struct rank_steps *rs = steps_rank_new(m, r->rank, r->path);
	struct span *comm = xmalloc((r->nk + 1) * sizeof(*comm));
	struct span *comp = xmalloc((r->nk + 1) * sizeof(*comp));
	struct by_iter *v = xmalloc((r->nk + 1) * sizeof(*v));
	for (size_t k = 0; k < r->nk; k++)
		v[k] = (struct by_iter){ r->k[k].iter, k };
	qsort(v, r->nk, sizeof(*v), by_iter_cmp);
	for (size_t s = 0; s < r->nstep; s++) {
		const struct trace_step *st = &r->step[s];
		size_t lo, n = iter_range(v, r->nk, st->step, &lo);
		int64_t c = exposed_comm(r, v + lo, n, comm, comp);
		if (c > st->dur)
			c = st->dur;
		size_t pos = rank_append(rs, st->step, (double)st->ts / 1e9, true);
		rank_set(rs, pos, m_compute, (double)(st->dur - c) / 1e9);
		rank_set(rs, pos, m_comm, (double)c / 1e9);
	}
	free(v);
	free(comm);
	free(comp);
	steps_publish_rank(m, rs);
}

void trace_publish_steps(struct run *run)
{
	struct trace_set *ts = run->trace;
	bool any = false;
	for (size_t i = 0; ts && i < ts->n; i++)
		any |= ts->r[i]->nstep > 0;
	if (!any)
		return;
	struct steps_model *m = steps_model_get(run);
	int m_compute = steps_metric_intern(m, METRIC_PHASE, "compute");
	int m_comm = steps_metric_intern(m, METRIC_PHASE, "comm");
	for (size_t i = 0; i < ts->n; i++)
		publish_rank(m, ts->r[i], m_compute, m_comm);
}
