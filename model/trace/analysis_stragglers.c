/* SPDX-License-Identifier: MIT */
/* analysis_stragglers.c: HTA's potential stragglers (trace_stragglers, trace.h; HTA
 * get_potential_stragglers(num_candidates=2), formats.md §2.4) and the inputs it reads of
 * each rank (strag_inputs: trace.h STRAGGLER INPUTS), kept with the rank's other analyses
 * (trace_rank_summarize). */
#include "model/trace/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/text.h"
#include "model/xalloc.h"

#define STRAGGLER_CANDIDATES 2
#define STRAGGLER_MIN_NORM_DUR 0.01
#define TIE_NAMED 4   /* tied ranks named in the not-judged text, the rest counted */

/* ---- HTA potential stragglers --------------------------------------------------- */

struct srow {            /* a long communication kernel, then the last per group */
	int rank;
	int32_t stream;
	long iter;
	int gid;             /* index into the global kernel-name list */
	size_t order;        /* file order inside its rank */
	double metric, duration;
};

/* The index of step it in steps[0..n) (sorted), n when it is not there. */
static size_t step_index(const long *steps, size_t n, long it)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (steps[mid] < it)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && steps[lo] == it ? lo : n;
}

static bool step_valid(const long *steps, size_t n, long it)
{
	return step_index(steps, n, it) < n;
}

static int long_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* The profiler steps that survive the last-step rule, over all ranks but the partial
 * ones (trace_rank_partial, left out of the straggler search; sorted, unique). */
static size_t valid_steps(struct trace_set *ts, long **out)
{
	size_t cap = 0, n = 0;
	long *v = NULL;
	for (size_t i = 0; i < ts->n; i++) {
		const struct trace_rank *r = ts->r[i];
		int64_t cutoff = trace_last_step_start(r);
		for (size_t s = 0; s < r->nstep && !trace_rank_partial(r); s++) {
			if (trace_drops_last_step(r) && r->step[s].ts >= cutoff)
				continue;
			xgrow((void **)&v, &cap, n + 1, sizeof(*v));
			v[n++] = r->step[s].step;
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), long_cmp);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (m == 0 || v[m - 1] != v[i])
			v[m++] = v[i];
	*out = v;
	return m;
}

/* The clock a rank's metric is read on: HTA's t_min and mean iteration time (ns; 0:
 * the rank has no valid step). */
struct sclock {
	int64_t tmin;
	double mean;
};

static void widen(int64_t *lo, int64_t *hi, int64_t a, int64_t b)
{
	*lo = a < *lo ? a : *lo;
	*hi = b > *hi ? b : *hi;
}

/* Rank r's span over its steps and GPU events of the valid steps (*lo > *hi: none), and
 * how many of the valid steps it has (seen: nsteps flags, scratch). */
static size_t rank_window(const struct trace_rank *r, const long *steps, size_t nsteps, bool *seen, int64_t *lo,
			  int64_t *hi)
{
	int64_t cutoff = trace_last_step_start(r);
	size_t n = 0;
	*lo = INT64_MAX;
	*hi = INT64_MIN;
	memset(seen, 0, nsteps * sizeof(*seen));
	for (size_t s = 0; s < r->nstep; s++) {
		const struct trace_step *st = &r->step[s];
		size_t k = step_index(steps, nsteps, st->step);
		if (k == nsteps || (trace_drops_last_step(r) && st->ts >= cutoff))
			continue;
		widen(lo, hi, st->ts, st->ts + st->dur);
		n += !seen[k];
		seen[k] = true;
	}
	for (size_t w = 0; w < r->nwin; w++) {
		size_t k = step_index(steps, nsteps, r->win[w].iter);
		if (k == nsteps)
			continue;
		widen(lo, hi, r->win[w].lo, r->win[w].hi);
		n += !seen[k];
		seen[k] = true;
	}
	return n;
}

/* Each rank's clock (clk[i] for ts->r[i]) over the steps and GPU events of the valid
 * steps. HTA reads every rank on one: t_min and the span of the whole window over all
 * ranks, divided by the number of valid steps. When two ranks' windows share no instant,
 * their traces were taken on clocks that disagree (baseTimeNanoseconds in one trace and
 * not in the other, hosts' clocks apart): one window would make the mean step the
 * distance between the clocks, so each rank is read on its own window instead (*own).
 * False when no rank has a window. */
static bool iter_clocks(struct trace_set *ts, const long *steps, size_t nsteps, struct sclock *clk, bool *own)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN, last_lo = INT64_MIN, first_hi = INT64_MAX;
	int64_t *rlo = xmalloc((ts->n + 1) * sizeof(*rlo)), *rhi = xmalloc((ts->n + 1) * sizeof(*rhi));
	size_t *rn = xmalloc((ts->n + 1) * sizeof(*rn));
	bool *seen = xmalloc((nsteps + 1) * sizeof(*seen));
	for (size_t i = 0; i < ts->n; i++) {
		rlo[i] = INT64_MAX;
		rhi[i] = INT64_MIN;
		if (trace_rank_partial(ts->r[i]))   /* its kernels past the cut are unknown */
			continue;
		rn[i] = rank_window(ts->r[i], steps, nsteps, seen, &rlo[i], &rhi[i]);
		if (rlo[i] > rhi[i])
			continue;
		widen(&lo, &hi, rlo[i], rhi[i]);
		last_lo = rlo[i] > last_lo ? rlo[i] : last_lo;
		first_hi = rhi[i] < first_hi ? rhi[i] : first_hi;
	}
	*own = lo <= hi && last_lo >= first_hi;
	bool any = false;
	for (size_t i = 0; i < ts->n; i++) {
		clk[i] = (struct sclock){ 0, 0 };
		if (rlo[i] > rhi[i])
			continue;
		clk[i] = *own ? (struct sclock){ rlo[i], (double)(rhi[i] - rlo[i]) / (double)rn[i] }
			      : (struct sclock){ lo, (double)(hi - lo) / (double)nsteps };
		any = any || clk[i].mean > 0;
	}
	free(seen);
	free(rn);
	free(rhi);
	free(rlo);
	return any;
}

struct gnames {
	const char **v;
	size_t n, cap;
};

static int gname_id(struct gnames *g, const char *name)
{
	for (size_t i = 0; i < g->n; i++)
		if (strcmp(g->v[i], name) == 0)
			return (int)i;
	xgrow((void **)&g->v, &g->cap, g->n + 1, sizeof(*g->v));
	g->v[g->n] = name;
	return (int)g->n++;
}

static int srow_group_cmp(const void *a, const void *b)
{
	const struct srow *x = a, *y = b;
	if (x->rank != y->rank)
		return (x->rank > y->rank) - (x->rank < y->rank);
	if (x->stream != y->stream)
		return (x->stream > y->stream) - (x->stream < y->stream);
	if (x->iter != y->iter)
		return (x->iter > y->iter) - (x->iter < y->iter);
	if (x->gid != y->gid)
		return (x->gid > y->gid) - (x->gid < y->gid);
	return (x->order > y->order) - (x->order < y->order);
}

static int srow_kernel_cmp(const void *a, const void *b)
{
	const struct srow *x = a, *y = b;
	if (x->stream != y->stream)
		return (x->stream > y->stream) - (x->stream < y->stream);
	if (x->gid != y->gid)
		return (x->gid > y->gid) - (x->gid < y->gid);
	if (x->iter != y->iter)
		return (x->iter > y->iter) - (x->iter < y->iter);
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Communication kernels (ncclKernel*) longer than 1% of the mean iteration, then the
 * last one per (rank, stream, iteration, name): groupby(...).last(); each rank's read on
 * its clock clk[i]. */
static size_t straggler_rows(struct trace_set *ts, const long *steps, size_t nsteps, const struct sclock *clk,
			     struct gnames *g, struct srow **out)
{
	struct srow *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < ts->n; i++) {
		struct trace_rank *r = ts->r[i];
		double mean = clk[i].mean, min_dur = mean * STRAGGLER_MIN_NORM_DUR;
		for (size_t k = 0; k < r->nnccl && mean > 0; k++) {
			const struct trace_ncclk *e = &r->nccl[k];
			if ((double)e->dur < min_dur || !step_valid(steps, nsteps, e->iter))
				continue;
			xgrow((void **)&v, &cap, n + 1, sizeof(*v));
			v[n++] = (struct srow){
				.rank = r->rank, .stream = e->stream, .iter = e->iter,
				.gid = gname_id(g, r->names[e->name]), .order = e->order,
				.metric = (double)(e->ts - clk[i].tmin) / mean, .duration = (double)e->dur / mean,
			};
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), srow_group_cmp);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		bool last = i + 1 == n || v[i + 1].rank != v[i].rank || v[i + 1].stream != v[i].stream ||
			    v[i + 1].iter != v[i].iter || v[i + 1].gid != v[i].gid;
		if (last)
			v[m++] = v[i];
	}
	if (m)
		qsort(v, m, sizeof(*v), srow_kernel_cmp);
	*out = v;
	return m;
}

/* v sorted by (stream, gid, iter, rank): the (stream, gid) whose duration has the
 * largest mean (over iterations) sample std across ranks; *lo, *hi bound its rows. */
static bool pick_kernel(const struct srow *v, size_t n, const struct gnames *g, size_t *lo, size_t *hi)
{
	double best = NAN;
	for (size_t a = 0; a < n;) {
		size_t b = a;
		while (b < n && v[b].stream == v[a].stream && v[b].gid == v[a].gid)
			b++;
		double acc = 0;
		size_t cnt = 0;
		for (size_t i = a; i < b;) {
			size_t j = i;
			double sum = 0, sq = 0;
			while (j < b && v[j].iter == v[i].iter)
				sum += v[j++].duration;
			size_t m = j - i;
			if (m >= 2) {
				double mu = sum / (double)m;
				for (size_t q = i; q < j; q++)
					sq += (v[q].duration - mu) * (v[q].duration - mu);
				acc += sqrt(sq / (double)(m - 1));
				cnt++;
			}
			i = j;
		}
		double ms = cnt ? acc / (double)cnt : NAN;
		if (!isnan(ms) && (isnan(best) || ms > best ||
				   (ms == best && strcmp(g->v[v[a].gid], g->v[v[*lo].gid]) < 0))) {
			best = ms;
			*lo = a;
			*hi = b;
		}
		a = b;
	}
	return !isnan(best);
}

static int cmp_double_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x < y) - (x > y);
}

static size_t rank_index(const struct trace_set *ts, int rank)
{
	size_t r = 0;
	while (r < ts->n && ts->r[r]->rank != rank)
		r++;
	return r;
}

/* Rows v[lo..hi) (one kernel, sorted by iteration): per iteration, the ranks whose
 * metric is among the top STRAGGLER_CANDIDATES count once (HTA: at or above the last
 * candidate's). A tie is no straggler: in an iteration where every rank's metric is the
 * same, no rank counts (none started later than another); when more ranks than the
 * candidates reach the last candidate's metric below the top one, only those above it
 * count. count[r] stays -1 for ranks without a row. */
static void count_stragglers(struct trace_set *ts, const struct srow *v, size_t lo, size_t hi, long *count)
{
	double *m = xmalloc((hi - lo + 1) * sizeof(*m));
	for (size_t i = lo; i < hi;) {
		size_t j = i, k = 0;
		while (j < hi && v[j].iter == v[i].iter)
			m[k++] = v[j++].metric;
		qsort(m, k, sizeof(*m), cmp_double_desc);
		size_t top = k < STRAGGLER_CANDIDATES ? k : STRAGGLER_CANDIDATES;
		double thr = m[top - 1];
		bool flat = m[0] == m[k - 1], spill = top < k && m[top] == thr && thr < m[0];
		for (size_t q = i; q < j; q++) {
			size_t r = rank_index(ts, v[q].rank);
			if (count[r] < 0)
				count[r] = 0;
			if (!flat && (spill ? v[q].metric > thr : v[q].metric >= thr))
				count[r]++;
		}
		i = j;
	}
	free(m);
}

static int long_desc(const void *a, const void *b)
{
	return long_cmp(b, a);
}

/* ts->strag_tie: which ranks tie (strag_tied; ntied of them, the first TIE_NAMED named)
 * for which of HTA's places, late in as many steps each. */
static void tie_text(struct trace_set *ts, size_t ntied, long late)
{
	char *t = ts->strag_tie;
	size_t n = sizeof(ts->strag_tie), k = 0;
	snprintf(t, n, "ranks ");
	for (size_t r = 0; r < ts->n && k < TIE_NAMED; r++)
		if (ts->r[r]->strag_tied) {
			text_appendf(t, n, "%s%d", !k ? "" : k + 1 == ntied ? " and " : ", ", ts->r[r]->rank);
			k++;
		}
	if (ntied > k)
		text_appendf(t, n, " and %zu more", ntied - k);
	text_appendf(t, n, " tie for %s, late in %ld step%s each",
		     ts->nstrag ? "HTA's second place" : "the 2 places HTA names", late, late == 1 ? "" : "s");
}

/* HTA's pick: the STRAGGLER_CANDIDATES ranks counted most often, into ts->strag; a rank
 * never counted is none. When more ranks than the places left are counted as often as
 * the last one HTA names, which of them it names is its sort's order: only the ranks
 * counted more often are named, the tied ones are flagged (strag_tied: not judged) and
 * ts->strag_tie says which; false then. */
static bool pick_ranks(struct trace_set *ts, const long *count)
{
	long *c = xmalloc((ts->n + 1) * sizeof(*c));
	size_t m = 0, ntied = 0;
	for (size_t r = 0; r < ts->n; r++)
		if (count[r] > 0)
			c[m++] = count[r];
	if (m)
		qsort(c, m, sizeof(*c), long_desc);
	long last = m ? c[(m < STRAGGLER_CANDIDATES ? m : STRAGGLER_CANDIDATES) - 1] : 0; /* the last one HTA names */
	bool tie = m > STRAGGLER_CANDIDATES && c[STRAGGLER_CANDIDATES] == last;
	free(c);
	for (size_t r = 0; r < ts->n; r++) {
		ts->r[r]->strag_tied = tie && count[r] == last;
		ntied += ts->r[r]->strag_tied;
		if (count[r] > 0 && (tie ? count[r] > last : count[r] >= last))
			ts->strag[ts->nstrag++] = ts->r[r]->rank;
	}
	if (tie)
		tie_text(ts, ntied, last);
	return !tie;
}

static int win_cmp(const void *a, const void *b)
{
	const struct trace_iterwin *x = a, *y = b;
	return (x->iter > y->iter) - (x->iter < y->iter);
}

/* What the straggler search reads of a rank's events (trace.h STRAGGLER INPUTS): the
 * span of its HTA GPU events per ProfilerStep, and its candidate NCCL kernels. */
static void strag_inputs(struct trace_rank *r)
{
	int64_t cutoff = trace_last_step_start(r);
	bool filter = trace_drops_last_step(r);
	size_t cw = 0, cn = 0, nw = 0;
	struct trace_iterwin *w = NULL;
	for (size_t k = 0; k < r->nk; k++) {
		const struct trace_kernel *e = &r->k[k];
		if (e->iter < 0 || !trace_hta_keep(r, e, filter, cutoff))
			continue;
		xgrow((void **)&w, &cw, nw + 1, sizeof(*w));
		w[nw++] = (struct trace_iterwin){ e->iter, e->ts, e->ts + e->dur };
		if (e->stream <= 0 || e->iter <= 0 || strncmp(r->names[e->name], "ncclKernel", 10) != 0)
			continue;
		xgrow((void **)&r->nccl, &cn, r->nnccl + 1, sizeof(*r->nccl));
		r->nccl[r->nnccl++] = (struct trace_ncclk){ e->stream, e->name, e->iter, k, e->ts, e->dur };
	}
	if (nw)
		qsort(w, nw, sizeof(*w), win_cmp);
	r->nwin = 0;
	for (size_t i = 0; i < nw; i++) {   /* one span per step */
		struct trace_iterwin *o = r->nwin ? &w[r->nwin - 1] : NULL;
		if (o && o->iter == w[i].iter) {
			o->lo = w[i].lo < o->lo ? w[i].lo : o->lo;
			o->hi = w[i].hi > o->hi ? w[i].hi : o->hi;
		} else {
			w[r->nwin++] = w[i];
		}
	}
	r->win = w;
	r->hta_filter = filter;
	r->strag_done = true;
}

void trace_rank_summarize(struct trace_set *ts, size_t ri)
{
	trace_hta(ts, ri);
	trace_pysum(ts, ri);
	struct trace_rank *r = ts->r[ri];
	pthread_mutex_lock(&ts->lock);
	if (!r->strag_done) {
		trace_rank_need_events(ts, r);
		strag_inputs(r);
	}
	pthread_mutex_unlock(&ts->lock);
}

/* Why no ProfilerStep is valid (valid_steps): no trace has one, or every trace that has
 * one is partial (a rank with one keeps one valid step). */
static const char *no_step_why(const struct trace_set *ts)
{
	for (size_t i = 0; i < ts->n; i++)
		if (ts->r[i]->nstep > 0)
			return "the traces with ProfilerSteps are truncated before the end of their GPU events";
	return "no ProfilerStep span";
}

static void stragglers_compute(struct trace_set *ts)
{
	for (size_t i = 0; i < ts->n; i++)
		if (!ts->r[i]->strag_done) {
			trace_rank_need_events(ts, ts->r[i]);
			strag_inputs(ts->r[i]);
		}
	long *steps;
	size_t nsteps = valid_steps(ts, &steps);
	struct sclock *clk = xmalloc((ts->n + 1) * sizeof(*clk));
	struct srow *v = NULL;
	struct gnames g = { 0 };
	size_t n = 0, lo = 0, hi = 0;
	bool own = false;
	bool window = nsteps > 0 && iter_clocks(ts, steps, nsteps, clk, &own);
	if (window)
		n = straggler_rows(ts, steps, nsteps, clk, &g, &v);
	ts->strag_own_clock = own && n;
	free(clk);
	ts->strag_why = !nsteps ? no_step_why(ts) : !window ? "no GPU kernel within a ProfilerStep"
		      : !n ? "no ncclKernel communication kernel longer than 1% of the mean step that HTA places in a "
			     "step by its CPU launch's correlation id"
		      : "no communication kernel on 2 ranks in one step";
	if (pick_kernel(v, n, &g, &lo, &hi)) {
		ts->strag_why = NULL;
		long *count = xmalloc(ts->n * sizeof(*count)); /* -1: no candidate row */
		for (size_t r = 0; r < ts->n; r++)
			count[r] = -1;
		count_stragglers(ts, v, lo, hi, count);
		if (!pick_ranks(ts, count))
			ts->strag_why = ts->strag_tie;
		free(count);
	}
	free(g.v);
	free(v);
	free(steps);
}

size_t trace_stragglers(struct trace_set *ts, int out[2], const char **why)
{
	pthread_mutex_lock(&ts->lock);
	if (!ts->strag_done) {
		stragglers_compute(ts);
		ts->strag_done = true;
	}
	pthread_mutex_unlock(&ts->lock);
	for (size_t i = 0; i < ts->nstrag; i++)
		out[i] = ts->strag[i];
	if (why)
		*why = ts->strag_why;
	return ts->nstrag;
}

bool trace_straggler_judged(struct trace_set *ts, size_t ri)
{
	int out[2];
	const char *why;
	trace_stragglers(ts, out, &why);
	return !trace_rank_partial(ts->r[ri]) && !ts->r[ri]->strag_tied && (!why || ts->strag_tie[0]);
}
