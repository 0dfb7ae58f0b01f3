/* SPDX-License-Identifier: MIT */
/* load_steps.c: per-step records from ProfilerStep#N spans, published into the step
 * model (steps.h) when the run has no pytscope steps, so that a traces-only run fills
 * the heatmap, the ranks table and the distributed analyzer.
 *
 * Each ProfilerStep#N of a rank becomes one record: step N, timestamp = span start
 * (epoch seconds), and three phases over the GPU kernels launched in that step: `comm` =
 * the exposed communication time (communication kernels not overlapped by computation
 * kernels), `compute` = the computation kernels' time (their union), each clipped so
 * that they fit the step duration, and `other` = the rest of the step (GPU idle, memory
 * kernels, the host). So the phases sum to the ProfilerStep duration, the distributed
 * analysis's compute (every phase but comm) is the step less its exposed comm, and the
 * budget's useful compute is time the GPU computed, not the GPU's idle time. A rank
 * without any GPU kernel (a CPU-only profile) has no `comm` or `other` value (unknown,
 * not 0): its `compute` is the whole step. */
#include "model/trace/trace.h"

#include <stdlib.h>
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"

/* Communication time of the kernels v[0..n) not covered by computation kernels (ns);
 * the computation kernels' time in *computed. */
static int64_t exposed_comm(const struct trace_rank *r, const struct trace_by_iter *v, size_t n,
			    struct trace_ivl *comm, struct trace_ivl *comp, int64_t *computed)
{
	size_t nc = 0, np = 0;
	for (size_t i = 0; i < n; i++) {
		const struct trace_kernel *e = &r->k[v[i].k];
		struct trace_ivl sp = { e->ts, e->ts + e->dur };
		if (r->name_cls[e->name] == KC_COMMUNICATION)
			comm[nc++] = sp;
		else if (r->name_cls[e->name] == KC_COMPUTATION)
			comp[np++] = sp;
	}
	nc = trace_ivl_merge(comm, nc);
	np = trace_ivl_merge(comp, np);
	*computed = trace_ivl_sum(comp, np);
	return trace_ivl_sum(comm, nc) - trace_ivl_intersect(comm, nc, comp, np);
}

void trace_rank_step_comm(struct trace_set *ts, struct trace_rank *r)
{
	if (r->step_comm || r->nstep == 0)
		return;
	trace_rank_need_events(ts, r);
	r->step_comm = xmalloc(r->nstep * sizeof(*r->step_comm));
	r->step_comp = xmalloc(r->nstep * sizeof(*r->step_comp));
	struct trace_ivl *comm = xmalloc((r->nk + 1) * sizeof(*comm));
	struct trace_ivl *comp = xmalloc((r->nk + 1) * sizeof(*comp));
	struct trace_by_iter *v;
	size_t nv = trace_by_iter(r, -1, &v);
	for (size_t s = 0; s < r->nstep; s++) {
		const struct trace_step *st = &r->step[s];
		size_t lo = 0, hi = nv; /* the run of this step in v */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (v[mid].iter < st->step)
				lo = mid + 1;
			else
				hi = mid;
		}
		size_t n = lo < nv && v[lo].iter == st->step ? trace_iter_run(v, nv, lo) : 0;
		int64_t p, c = exposed_comm(r, v + lo, n, comm, comp, &p);
		r->step_comm[s] = c > st->dur ? st->dur : c;
		r->step_comp[s] = p > st->dur - r->step_comm[s] ? st->dur - r->step_comm[s] : p;
	}
	free(v);
	free(comm);
	free(comp);
}

static void publish_rank(struct steps_model *m, struct trace_set *ts, size_t ri, int m_compute, int m_comm,
			 int m_other)
{
	struct trace_rank *r = ts->r[ri];
	if (r->nstep == 0)
		return;
	trace_rank_step_comm(ts, r);
	/* no GPU kernel (a CPU-only profile): its communication is unknown, not 0; the test
	 * of the "GPU time" line (trace_gpu_time), kept in a trace index too */
	bool gpu = trace_hta(ts, ri)->have_gpu;
	struct rank_steps *rs = steps_rank_new(m, r->rank, r->path);
	for (size_t s = 0; s < r->nstep; s++) {
		const struct trace_step *st = &r->step[s];
		int64_t c = r->step_comm[s], p = r->step_comp[s];
		size_t pos = rank_append(rs, st->step, (double)st->ts / 1e9, true);
		rank_set(rs, pos, m_compute, (double)(gpu ? p : st->dur) / 1e9);
		if (gpu) {
			rank_set(rs, pos, m_comm, (double)c / 1e9);
			rank_set(rs, pos, m_other, (double)(st->dur - c - p) / 1e9);
		}
	}
	steps_publish_rank(m, rs);
}

void trace_publish_steps(struct run *run)
{
	struct trace_set *ts = run->trace;
	bool any = false, gpu = false;
	for (size_t i = 0; ts && i < ts->n; i++)
		any |= ts->r[i]->nstep > 0;
	if (!any)
		return;
	for (size_t i = 0; i < ts->n && !gpu; i++)
		gpu = ts->r[i]->nstep > 0 && trace_hta(ts, i)->have_gpu;
	struct steps_model *m = steps_model_get(run);
	int m_compute = steps_metric_intern(m, METRIC_PHASE, "compute");
	/* no rank with a GPU kernel: nothing measures communication, and the run has no comm
	 * phase at all (its budget line is n/a, analysis.h MEASURED LINES) */
	int m_comm = gpu ? steps_metric_intern(m, METRIC_PHASE, "comm") : -1;
	int m_other = gpu ? steps_metric_intern(m, METRIC_PHASE, "other") : -1;
	for (size_t i = 0; i < ts->n; i++)
		publish_rank(m, ts, i, m_compute, m_comm, m_other);
	steps_add_left_out(m, ts->left_out);
}
