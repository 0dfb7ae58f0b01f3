/* SPDX-License-Identifier: MIT */
/* load_steps.c: per-step records from ProfilerStep#N spans, published into the step
 * model (steps.h) when the run has no pytscope steps, so that a traces-only run fills
 * the heatmap, the ranks table and the distributed analyzer.
 *
 * Each ProfilerStep#N span of a rank becomes one record: step N, timestamp = span start
 * (epoch seconds), and three phases over the GPU kernels launched in that span (by their
 * CPU launch's correlation id; a kernel without a launch by its own start, said in
 * store.c; a step number recorded twice is two spans, each with its own kernels; a span
 * that holds another or overlaps one has no record, its time never counted twice, said in
 * a diagnostic, and a kernel launched in a span it holds is that span's): `comm` =
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

/* ---- ProfilerSteps that hold or overlap others ---------------------------------- */

/* The ProfilerSteps of a rank left out of its step records: out[s] (malloc'd) for each span
 * of positive duration that holds another (an outer ProfilerStep#0 over #1 to #5) or
 * overlaps one partly (a step that starts before the last one ends): its time would count
 * twice. n of them; a, the first by start, and b, a span it holds or overlaps (indexes into
 * r->step; -1 when n is 0). The spans kept are disjoint (those of no length aside): a
 * kernel's launch lies in one at most, the innermost span that holds it when it is kept. */
struct left_out {
	bool *out;
	size_t n;
	long a, b;
};

static int64_t span_end(const struct trace_step *st)
{
	return st->ts + st->dur;
}

/* By start, the longer first at one start (it holds the other), then file order. */
static int span_cmp(const void *x, const void *y)
{
	const struct trace_step *a = *(const struct trace_step *const *)x, *b = *(const struct trace_step *const *)y;
	if (a->ts != b->ts)
		return (a->ts > b->ts) - (a->ts < b->ts);
	if (a->dur != b->dur)
		return (a->dur < b->dur) - (a->dur > b->dur);
	return (a > b) - (a < b);
}

/* A min-heap of the ends of the spans seen (their indexes in s). */
struct end_heap {
	int64_t *end;
	size_t *s, n;
};

static void heap_swap(struct end_heap *h, size_t i, size_t j)
{
	int64_t e = h->end[i];
	size_t s = h->s[i];
	h->end[i] = h->end[j];
	h->s[i] = h->s[j];
	h->end[j] = e;
	h->s[j] = s;
}

static void heap_push(struct end_heap *h, int64_t end, size_t s)
{
	size_t i = h->n++;
	h->end[i] = end;
	h->s[i] = s;
	for (; i && h->end[(i - 1) / 2] > h->end[i]; i = (i - 1) / 2)
		heap_swap(h, i, (i - 1) / 2);
}

static void heap_pop(struct end_heap *h)
{
	h->n--;
	heap_swap(h, 0, h->n);
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < h->n && h->end[l] < h->end[m])
			m = l;
		if (l + 1 < h->n && h->end[l + 1] < h->end[m])
			m = l + 1;
		if (m == i)
			return;
		heap_swap(h, i, m);
		i = m;
	}
}

static void leave_out(struct left_out *lo, long *with, size_t s, size_t other)
{
	lo->n += !lo->out[s];
	lo->out[s] = true;
	with[s] = (long)other;
}

/* The spans by start (O(n log n)): one holds or overlaps the next when that starts before
 * it ends; it overlaps an earlier one partly when the earliest end of the spans still open
 * at its start comes before its own end. */
static void spans_left_out(const struct trace_rank *r, struct left_out *lo)
{
	const struct trace_step **v = xmalloc((r->nstep + 1) * sizeof(*v));
	long *with = xmalloc((r->nstep + 1) * sizeof(*with));
	struct end_heap h = { xmalloc((r->nstep + 1) * sizeof(*h.end)), xmalloc((r->nstep + 1) * sizeof(*h.s)), 0 };
	size_t m = 0;
	*lo = (struct left_out){ xcalloc(r->nstep + 1, sizeof(*lo->out)), 0, -1, -1 };
	for (size_t s = 0; s < r->nstep; s++)
		if (r->step[s].dur > 0)
			v[m++] = &r->step[s];
	qsort(v, m, sizeof(*v), span_cmp);
	for (size_t i = 0; i < m; i++) {
		size_t s = (size_t)(v[i] - r->step);
		if (i + 1 < m && v[i + 1]->ts < span_end(v[i]))
			leave_out(lo, with, s, (size_t)(v[i + 1] - r->step));
		while (h.n && h.end[0] <= v[i]->ts)
			heap_pop(&h);
		if (h.n && h.end[0] < span_end(v[i]))
			leave_out(lo, with, s, h.s[0]);
		heap_push(&h, span_end(v[i]), s);
	}
	for (size_t i = 0; i < m && lo->a < 0; i++)
		if (lo->out[v[i] - r->step]) {
			lo->a = v[i] - r->step;
			lo->b = with[lo->a];
		}
	free(h.end);
	free(h.s);
	free(with);
	free(v);
}

/* The diagnostic naming r's spans left out (lo->n > 0). */
static void say_left_out(struct run *run, const struct trace_rank *r, const struct left_out *lo)
{
	const struct trace_step *a = &r->step[lo->a], *b = &r->step[lo->b];
	bool holds = b->ts >= a->ts && span_end(b) <= span_end(a);
	diag_add(&run->diags, DIAG_WARN, r->path, -1, -1, r->rank,
		 "%zu of %zu ProfilerSteps left out: each holds or overlaps another span of this trace "
		 "(ProfilerStep#%ld %s ProfilerStep#%ld), so its time would count twice; a step within one keeps "
		 "the kernels launched in it", lo->n, r->nstep, a->step, holds ? "holds" : "overlaps", b->step);
}

/* ---- per-step phases --------------------------------------------------------------- */

/* r's GPU events grouped by the ProfilerStep span (index into r->step) they were
 * launched in, among the spans kept[] marks (disjoint): its CPU launch's span (by
 * correlation id), else, without a launch, the span that holds the event's own start.
 * Span s's events are idx[first[s]..first[s+1]); the events outside every kept span are
 * in none. Both malloc'd. */
static void group_by_span(const struct trace_rank *r, const bool *kept, size_t **idx, size_t **first)
{
	struct trace_span_index si;
	trace_span_index_build(r, kept, &si);
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
	struct left_out lo;
	spans_left_out(r, &lo);
	for (size_t s = 0; s < r->nstep; s++)
		lo.out[s] = !lo.out[s];   /* now: kept */
	size_t *idx, *first;
	group_by_span(r, lo.out, &idx, &first);
	bool measured = !trace_rank_partial(r);
	for (size_t s = 0; s < r->nstep; s++) {
		const struct trace_step *st = &r->step[s];
		size_t n = first[s + 1] - first[s];
		int64_t p = -1, c = measured && lo.out[s] ? exposed_comm(r, idx + first[s], n, comm, comp, &p) : -1;
		fit_step(st->dur, &c, &p);
		r->step_comm[s] = c;
		r->step_comp[s] = p;
	}
	free(lo.out);
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
	struct left_out lo;
	spans_left_out(r, &lo);
	struct rank_steps *rs = steps_rank_new(m, r->rank, r->path);
	for (size_t s = 0; s < r->nstep; s++) {
		const struct trace_step *st = &r->step[s];
		int64_t c = r->step_comm[s], p = r->step_comp[s];
		if (lo.out[s])
			continue;
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
	if (lo.n)
		say_left_out(run, r, &lo);
	free(lo.out);
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
