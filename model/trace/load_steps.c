/* SPDX-License-Identifier: MIT */
/* load_steps.c: per-step records from ProfilerStep#N spans, published into the step
 * model (steps.h) when the run has no pytscope steps, so that a traces-only run fills
 * the heatmap, the ranks table and the distributed analyzer.
 *
 * Each ProfilerStep#N span of a rank becomes one record: step N, timestamp = span start
 * (epoch seconds), and three phases over the GPU kernels launched in that span (by their
 * CPU launch's correlation id; a kernel without a launch by its own start, said in
 * store.c; a step number recorded twice is two spans, each with its own kernels): `comm` =
 * the exposed communication time (communication kernels not overlapped by computation
 * kernels), `compute` = the computation kernels' time (their union), fitted into the
 * step duration (kernels launched in it may run past its end: when the two sum to more
 * than the step, each keeps its share of the sum), and `other` = the rest of the step (GPU
 * idle, memory kernels, the host). So the phases sum to the ProfilerStep duration, the distributed
 * analysis's compute (every phase but comm) is the step less its exposed comm, and the
 * budget's useful compute is time the GPU computed, not the GPU's idle time. A rank
 * without any GPU kernel (a CPU-only profile) has no `comm` or `other` value (unknown,
 * not 0): its `compute` is the whole step; unless other ranks have GPU kernels: then it
 * has no phase at all (two bases are not compared). In a run of several ranks, a rank
 * whose kernels the classification table matches no communication kernel in (a
 * DeepEP-style kernel it does not know, formats.md §0) has no `comm` value either: its
 * communication is unknown, not 0 (store.c warns; trace_comm_unmatched() says why the run
 * has no comm phase when no rank has one). A step of a GPU rank with no kernel
 * within it is a GPU-idle step (compute and comm 0, `other` the whole step); only the
 * steps of a file truncated before the end of its GPU events (trace_rank_partial: Kineto
 * writes them out of time order, so a kernel of any step may be past the cut) are not
 * measured: they have no record (missing on that rank, not steps of 0 ms), also when no
 * GPU event was read before the cut, in any rank (never a CPU-only profile). A rank whose
 * trace has no ProfilerStep (or is cut before them) while other ranks' traces have some
 * is a rank of the run without any record (its steps missing, said in a diagnostic; not
 * refused as another run's: run_identity_mismatch checks traces against step logs only).
 * A run whose pytscope loader found no step record (rank dirs or a run.json without
 * steps.jsonl) gets the ProfilerSteps in that loader's model, each rank keeping its
 * run.json. */
#include "model/trace/internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"

/* Communication time of the kernels idx[0..n) not covered by computation kernels (ns);
 * the computation kernels' time in *computed. */
static int64_t exposed_comm(const struct trace_rank *r, const size_t *idx, size_t n, struct trace_ivl *comm,
			    struct trace_ivl *comp, int64_t *computed)
{
	size_t nc = 0, np = 0;
	for (size_t i = 0; i < n; i++) {
		const struct trace_kernel *e = &r->k[idx[i]];
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

bool trace_rank_partial(const struct trace_rank *r)
{
	return r->truncated && !r->kernels_whole;
}

/* r's GPU events grouped by the ProfilerStep span (index into r->step) they were
 * launched in: its CPU launch's span (by correlation id), else, without a launch, the
 * span that holds the event's own start. Span s's events are idx[first[s]..first[s+1]);
 * the events outside every span are in none. Both malloc'd. */
static void group_by_span(const struct trace_rank *r, size_t **idx, size_t **first)
{
	struct trace_span_index si;
	trace_span_index_build(r, &si);
	long *span = xmalloc((r->nk + 1) * sizeof(*span));
	size_t *at = xcalloc(r->nstep + 2, sizeof(*at));
	for (size_t k = 0; k < r->nk; k++) {
		const struct trace_kernel *e = &r->k[k];
		const struct trace_cpu *c = e->corr >= 0 ? trace_cpu_by_corr(r, e->corr) : NULL;
		span[k] = trace_span_of(r, &si, c ? c->ts : e->ts);
		if (span[k] >= 0)
			at[span[k] + 1]++;
	}
	for (size_t s = 0; s < r->nstep; s++)
		at[s + 1] += at[s];
	*first = xmalloc((r->nstep + 1) * sizeof(**first));
	memcpy(*first, at, (r->nstep + 1) * sizeof(**first));
	*idx = xmalloc((at[r->nstep] + 1) * sizeof(**idx));
	for (size_t k = 0; k < r->nk; k++)
		if (span[k] >= 0)
			(*idx)[at[span[k]]++] = k;
	free(at);
	free(span);
	free(si.v);
}

/* Exposed comm *c and compute *p of a step of dur ns (not measured: -1 both) fitted into
 * it: kernels launched in a step may run past its end (the last step's collective of a
 * late peer), so when they sum to more than the step each keeps its share of the sum,
 * never one taking the whole step from the other. */
static void fit_step(int64_t dur, int64_t *c, int64_t *p)
{
	if (*c < 0 || *c + *p <= dur)
		return;
	int64_t fc = llround((double)*c * (double)dur / ((double)*c + (double)*p));
	*c = fc;
	*p = dur - fc;
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
	size_t *idx, *first;
	group_by_span(r, &idx, &first);
	bool measured = !trace_rank_partial(r);
	for (size_t s = 0; s < r->nstep; s++) {
		const struct trace_step *st = &r->step[s];
		size_t n = first[s + 1] - first[s];
		int64_t p = -1, c = measured ? exposed_comm(r, idx + first[s], n, comm, comp, &p) : -1;
		fit_step(st->dur, &c, &p);
		r->step_comm[s] = c;
		r->step_comp[s] = p;
	}
	free(idx);
	free(first);
	free(comm);
	free(comp);
}

bool trace_rank_comm_kernels(const struct trace_rank *r)
{
	for (size_t i = 0; i < r->nnames; i++)
		if (r->name_cls[i] == KC_COMMUNICATION)
			return true;
	return false;
}

bool trace_rank_comm_measured(const struct trace_set *ts, const struct trace_rank *r)
{
	return (ts->n == 1 && r->world_size <= 1) || trace_rank_comm_kernels(r);
}

/* Rank index ri has GPU events in HTA's set, kept or left out by its last-step filter
 * (kept in a trace index too): its steps are measured on the GPU, even when no event has
 * a CPU launch before its last ProfilerStep (trace_rank_step_comm places those without a
 * launch by their own start). */
static bool rank_has_gpu(struct trace_set *ts, size_t ri)
{
	const struct trace_hta *h = trace_hta(ts, ri);
	return h->have_gpu || h->nfiltered > 0;
}

/* A rank of the pytscope loader's model (rank dirs or run.json without a step record)
 * that rs (rank id rank) replaces gives rs its run.json metadata: moved, as
 * steps_publish_rank() frees that rank right after. */
static void keep_meta(struct steps_model *m, struct rank_steps *rs, int rank)
{
	long ri = steps_rank_index(m, rank);
	if (ri >= 0 && steps_rank_meta(m, (size_t)ri)->present)
		rank_set_meta(rs, (struct steps_meta *)steps_rank_meta(m, (size_t)ri));
}

/* A rank whose trace has no ProfilerStep span (or is cut before them) while other ranks'
 * have some: a rank of the run without any step record (its steps missing, not refused as
 * another run's, nor dropped), said in a diagnostic. */
static void publish_stepless(struct run *run, struct steps_model *m, const struct trace_rank *r)
{
	struct rank_steps *rs = steps_rank_new(m, r->rank, r->path);
	keep_meta(m, rs, r->rank);
	steps_publish_rank(m, rs);
	if (r->truncated)
		diag_add(&run->diags, DIAG_WARN, r->path, -1, -1, r->rank,
			 "no ProfilerStep span before the file's cut (truncated): this rank has no step record, its "
			 "steps are missing (not 0 ms)");
	else
		diag_add(&run->diags, DIAG_WARN, r->path, -1, -1, r->rank,
			 "no ProfilerStep span in this trace, while other ranks' traces have some: this rank has no "
			 "step record, its steps are missing (not 0 ms); its kernels are still read");
}

/* Publish rank index ri's ProfilerSteps. A GPU run (m_other >= 0): a rank of the run has
 * GPU kernels (the phases are m_compute, m_comm when some rank measures communication,
 * m_other); a rank without any among such ranks is measured on another basis (CPU-only:
 * compute = the whole step) and gets no phase, said in a diagnostic (a rank whose GPU
 * events HTA's last-step filter all left out has some: rank_has_gpu); a GPU rank's steps
 * that were not measured (trace.h step_comp: all of a partial rank's, which counts as a
 * GPU rank even when no GPU event was read, in a GPU run or not) get no record, said in a
 * diagnostic too; a rank that does not measure communication (trace_rank_comm_measured)
 * gets no comm value. */
static void publish_rank(struct run *run, struct steps_model *m, size_t ri, int m_compute, int m_comm,
			 int m_other)
{
	struct trace_set *ts = run->trace;
	struct trace_rank *r = ts->r[ri];
	if (r->nstep == 0) {
		publish_stepless(run, m, r);
		return;
	}
	trace_rank_step_comm(ts, r);
	/* no GPU kernel (a CPU-only profile): its communication is unknown, not 0; a partial
	 * trace may have lost all of its GPU events past the cut: never read as CPU-only */
	bool gpu = rank_has_gpu(ts, ri) || trace_rank_partial(r);
	bool cpu_among_gpu = !gpu && m_other >= 0;
	if (!trace_rank_comm_measured(ts, r))
		m_comm = -1;
	size_t unmeasured = 0;
	struct rank_steps *rs = steps_rank_new(m, r->rank, r->path);
	for (size_t s = 0; s < r->nstep; s++) {
		const struct trace_step *st = &r->step[s];
		int64_t c = r->step_comm[s], p = r->step_comp[s];
		if (gpu && p < 0) {   /* a record without phases would read as a step of 0 ms */
			unmeasured++;
			continue;
		}
		size_t pos = rank_append(rs, st->step, (double)st->ts / 1e9, true);
		if (cpu_among_gpu)
			continue;
		rank_set(rs, pos, m_compute, (double)(gpu ? p : st->dur) / 1e9);
		if (gpu && m_comm >= 0)
			rank_set(rs, pos, m_comm, (double)c / 1e9);
		if (gpu)
			rank_set(rs, pos, m_other, (double)(st->dur - c - p) / 1e9);
	}
	keep_meta(m, rs, r->rank);
	steps_publish_rank(m, rs);
	if (cpu_among_gpu)
		diag_add(&run->diags, DIAG_WARN, r->path, -1, -1, r->rank,
			 "no GPU kernel in this trace, while other ranks' traces have some: its steps' compute and "
			 "communication are n/a (a CPU-only profile is not weighed against GPU-measured ranks)");
	else if (unmeasured)
		diag_add(&run->diags, DIAG_WARN, r->path, -1, -1, r->rank,
			 "%zu of %zu ProfilerSteps not measured (left out on this rank): the file is truncated before "
			 "the end of its GPU events, which are not written in time order, so kernels of any step may "
			 "be past the cut", unmeasured, r->nstep);
}

void trace_publish_steps(struct run *run)
{
	struct trace_set *ts = run->trace;
	bool any = false, gpu = false, comm = false, whole_gpu = false;
	for (size_t i = 0; ts && i < ts->n; i++)
		any |= ts->r[i]->nstep > 0;
	if (!any)
		return;
	for (size_t i = 0; i < ts->n; i++)
		if (ts->r[i]->nstep > 0 && rank_has_gpu(ts, i)) {
			gpu = true;
			whole_gpu = whole_gpu || !trace_rank_partial(ts->r[i]);
			comm = comm || trace_rank_comm_measured(ts, ts->r[i]);
		}
	/* a partial trace's communication kernels may be past its cut */
	ts->comm_unmatched = whole_gpu && !comm;
	if (ts->published_steps) { /* an earlier PATH's traces' steps: made again with these */
		steps_model_free(run->steps);
		run->steps = NULL;
	}
	struct steps_model *m = steps_model_get(run);
	int m_compute = steps_metric_intern(m, METRIC_PHASE, "compute");
	/* no rank with a GPU kernel, or none whose kernels include a communication one in a
	 * run of several: nothing measures communication, and the run has no comm phase at
	 * all (its budget line is n/a, analysis.h MEASURED LINES) */
	int m_comm = comm ? steps_metric_intern(m, METRIC_PHASE, "comm") : -1;
	int m_other = gpu ? steps_metric_intern(m, METRIC_PHASE, "other") : -1;
	for (size_t i = 0; i < ts->n; i++)
		publish_rank(run, m, i, m_compute, m_comm, m_other);
	steps_add_left_out(m, ts->left_out);
	ts->published_steps = true;
}

bool trace_steps_only(const struct run *run)
{
	return run->trace && run->trace->published_steps;
}

const char *trace_comm_unmatched(const struct run *run)
{
	const struct trace_set *ts = run->trace;
	return ts && ts->comm_unmatched ? "no kernel in the traces matched the classification table as "
					  "communication, which --kernel-classes extends" : NULL;
}
