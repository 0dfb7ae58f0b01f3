/* SPDX-License-Identifier: MIT */
/* analysis.c: the trace analyses (see trace.h): pytscope's trace summary, HTA's
 * temporal breakdown, comm/comp overlap, kernel-type breakdown with overlap labels,
 * per-kernel statistics, idle time by stream and potential stragglers. All times are
 * integer nanoseconds inside; results are microseconds (HTA) or seconds (pytscope). */
#include "model/trace/internal.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"

#define IDLE_KERNEL_WAIT_NS 30000   /* HTA consecutive_kernel_delay = 30 us */
#define STRAGGLER_CANDIDATES 2
#define STRAGGLER_MIN_NORM_DUR 0.01

const char *const trace_coll_names[6] = {
	"all_gather", "all_reduce", "all_to_all", "broadcast", "other", "reduce_scatter",
};

/* ---- intervals ------------------------------------------------------------ */

static int ivl_cmp(const void *a, const void *b)
{
	const struct trace_ivl *x = a, *y = b;
	return (x->s > y->s) - (x->s < y->s);
}

size_t trace_ivl_merge(struct trace_ivl *v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), ivl_cmp);
	size_t m = 0;
	for (size_t i = 1; i < n; i++) {
		if (v[i].s > v[m].e)
			v[++m] = v[i];
		else if (v[i].e > v[m].e)
			v[m].e = v[i].e;
	}
	return m + 1;
}

int64_t trace_ivl_sum(const struct trace_ivl *v, size_t n)
{
	int64_t t = 0;
	for (size_t i = 0; i < n; i++)
		t += v[i].e - v[i].s;
	return t;
}

int64_t trace_ivl_intersect(const struct trace_ivl *a, size_t na, const struct trace_ivl *b, size_t nb)
{
	int64_t t = 0;
	size_t i = 0, j = 0;
	while (i < na && j < nb) {
		int64_t s = a[i].s > b[j].s ? a[i].s : b[j].s;
		int64_t e = a[i].e < b[j].e ? a[i].e : b[j].e;
		if (e > s)
			t += e - s;
		if (a[i].e < b[j].e)
			i++;
		else
			j++;
	}
	return t;
}

/* ---- kernels grouped by ProfilerStep ------------------------------------------- */

static int by_iter_cmp(const void *a, const void *b)
{
	const struct trace_by_iter *x = a, *y = b;
	if (x->iter != y->iter)
		return (x->iter > y->iter) - (x->iter < y->iter);
	return (x->k > y->k) - (x->k < y->k);
}

size_t trace_by_iter(const struct trace_rank *r, long step, struct trace_by_iter **out)
{
	struct trace_by_iter *v = xmalloc((r->nk + 1) * sizeof(*v));
	size_t n = 0;
	for (size_t k = 0; k < r->nk; k++)
		if (step < 0 || r->k[k].iter == step)
			v[n++] = (struct trace_by_iter){ r->k[k].iter < 0 ? INT32_MAX : r->k[k].iter, k };
	qsort(v, n, sizeof(*v), by_iter_cmp);
	*out = v;
	return n;
}

size_t trace_iter_run(const struct trace_by_iter *v, size_t n, size_t a)
{
	size_t b = a;
	while (b < n && v[b].iter == v[a].iter)
		b++;
	return b - a;
}

/* ---- the HTA event set ------------------------------------------------------ */

/* Whether HTA's last-step rule drops r's last ProfilerStep: r has 2 or more distinct
 * step numbers (formats.md §2.4, per rank: with 0 or 1 nothing is dropped; HTA counts
 * the names over every rank, which empties a rank of one step among ranks of others). */
static bool drops_last_step(const struct trace_rank *r)
{
	for (size_t s = 1; s < r->nstep; s++)
		if (r->step[s].step != r->step[0].step)
			return true;
	return false;
}

void trace_filter_check(struct trace_set *ts)
{
	pthread_mutex_lock(&ts->lock);
	for (size_t i = 0; i < ts->n; i++) {
		struct trace_rank *r = ts->r[i];
		if ((r->hta_done || r->strag_done) && r->hta_filter != drops_last_step(r))
			trace_rank_drop_analyses(r);
	}
	pthread_mutex_unlock(&ts->lock);
}

static int64_t last_step_start(const struct trace_rank *r)
{
	int64_t t = INT64_MIN;
	for (size_t s = 0; s < r->nstep; s++)
		if (r->step[s].ts > t)
			t = r->step[s].ts;
	return t;
}

/* Whether GPU event e is in HTA's filtered set for this rank. */
static bool hta_keep(const struct trace_rank *r, const struct trace_kernel *e, bool filter, int64_t cutoff)
{
	if (!filter)
		return e->stream != -1;
	if (e->stream < 0 || e->corr < 0)
		return false;
	/* any CPU event with this correlation that starts before the last step */
	const struct trace_cpu *c = trace_cpu_by_corr(r, e->corr);
	for (; c && c >= r->cpu && c->corr == e->corr; c--)
		if (c->ts < cutoff)
			return true;
	return false;
}

/* Indices of the rank's HTA GPU events, in file order. */
static size_t hta_select(const struct trace_rank *r, size_t **out, size_t *filtered)
{
	size_t *idx = xmalloc((r->nk + 1) * sizeof(*idx)), n = 0;
	int64_t cutoff = last_step_start(r);
	bool filter = drops_last_step(r);
	*filtered = 0;
	for (size_t k = 0; k < r->nk; k++) {
		if (hta_keep(r, &r->k[k], filter, cutoff))
			idx[n++] = k;
		else
			*filtered += r->k[k].stream >= 0;
	}
	*out = idx;
	return n;
}

/* Merged intervals of the selected events whose class is in `mask` (bit 1 << kclass). */
static size_t merged_of(const struct trace_rank *r, const size_t *idx, size_t n, unsigned mask,
			struct trace_ivl *buf)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		const struct trace_kernel *e = &r->k[idx[i]];
		if (mask & (1u << r->name_cls[e->name]))
			buf[m++] = (struct trace_ivl){ e->ts, e->ts + e->dur };
	}
	return trace_ivl_merge(buf, m);
}

/* ---- per-kernel statistics -------------------------------------------------- */

static int kstat_cmp(const void *a, const void *b)
{
	const struct trace_kstat *x = a, *y = b;
	if (x->sum != y->sum)
		return x->sum < y->sum ? 1 : -1;
	return (x->name > y->name) - (x->name < y->name);
}

size_t trace_kstats(const struct trace_rank *r, const size_t *idx, size_t n, struct trace_kstat **out)
{
	int32_t *slot = xmalloc((r->nnames + 1) * sizeof(*slot));
	for (size_t i = 0; i < r->nnames; i++)
		slot[i] = -1;
	struct trace_kstat *ks = NULL;
	size_t nks = 0, cap = 0;
	double *sq = NULL; /* sum of squared deviations, Welford */
	for (size_t i = 0; i < n; i++) {
		const struct trace_kernel *e = &r->k[idx[i]];
		double d = (double)e->dur / 1000.0;
		if (slot[e->name] < 0) {
			size_t c0 = cap;
			xgrow((void **)&ks, &cap, nks + 1, sizeof(*ks));
			if (cap != c0)
				sq = xrealloc(sq, cap * sizeof(*sq));
			slot[e->name] = (int32_t)nks;
			ks[nks] = (struct trace_kstat){ .name = e->name, .cls = r->name_cls[e->name], .min = d, .max = d };
			sq[nks++] = 0;
		}
		struct trace_kstat *k = &ks[slot[e->name]];
		k->count++;
		k->sum += d;
		double delta = d - k->mean;
		k->mean += delta / (double)k->count;
		sq[slot[e->name]] += delta * (d - k->mean);
		if (d < k->min)
			k->min = d;
		if (d > k->max)
			k->max = d;
	}
	for (size_t i = 0; i < nks; i++) {
		ks[i].std = ks[i].count > 1 ? sqrt(sq[i] / (double)(ks[i].count - 1)) : 0;
		ks[i].mean = ks[i].sum / (double)ks[i].count;
	}
	if (nks)
		qsort(ks, nks, sizeof(*ks), kstat_cmp);
	free(sq);
	free(slot);
	*out = ks;
	return nks;
}

/* ---- idle time by stream ------------------------------------------------------ */

struct sidx {
	int64_t ts;
	size_t pos, k;
};

static int sidx_cmp(const void *a, const void *b)
{
	const struct sidx *x = a, *y = b;
	if (x->ts != y->ts)
		return (x->ts > y->ts) - (x->ts < y->ts);
	return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Kernel e starts after prev_end: its gap, put into its category. */
static void idle_gap(const struct trace_rank *r, const struct trace_kernel *e, int64_t prev_end,
		     struct trace_idle *out)
{
	int64_t gap = e->ts - prev_end;
	const struct trace_cpu *c = e->corr >= 0 ? trace_cpu_by_corr(r, e->corr) : NULL;
	double us = (double)gap / 1000.0;
	if (c && c->ts > prev_end)
		out->host_wait += us;
	else if (gap < IDLE_KERNEL_WAIT_NS)
		out->kernel_wait += us;
	else
		out->other += us;
}

static void idle_stream(const struct trace_rank *r, const size_t *idx, size_t n, int32_t stream,
			struct trace_idle *out)
{
	struct sidx *v = xmalloc((n + 1) * sizeof(*v));
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (r->k[idx[i]].stream == stream)
			v[m] = (struct sidx){ r->k[idx[i]].ts, m, idx[i] }, m++;
	qsort(v, m, sizeof(*v), sidx_cmp);
	*out = (struct trace_idle){ .stream = stream };
	/* the gap before a kernel is measured from the latest end of the kernels before it
	 * (HTA: the previous kernel's end, the same when they do not overlap); one that
	 * starts while an earlier kernel of the stream still runs has no gap */
	int64_t prev_end = m ? r->k[v[0].k].ts + r->k[v[0].k].dur : 0;
	for (size_t i = 1; i < m; i++) {
		const struct trace_kernel *e = &r->k[v[i].k];
		if (e->ts > prev_end)
			idle_gap(r, e, prev_end, out);
		if (e->ts + e->dur > prev_end)
			prev_end = e->ts + e->dur;
	}
	free(v);
}

static void idle_all(const struct trace_rank *r, const size_t *idx, size_t n, struct trace_hta *h)
{
	int32_t *streams = xmalloc((n + 1) * sizeof(*streams));
	size_t ns = 0;
	for (size_t i = 0; i < n; i++) {
		int32_t s = r->k[idx[i]].stream;
		size_t j = 0;
		while (j < ns && streams[j] != s)
			j++;
		if (j == ns)
			streams[ns++] = s;
	}
	h->idle = xcalloc(ns + 1, sizeof(*h->idle));
	h->nidle = ns;
	for (size_t j = 0; j < ns; j++)
		idle_stream(r, idx, n, streams[j], &h->idle[j]);
	free(streams);
}

/* ---- HTA per-rank analyses -------------------------------------------------- */

struct edge {
	int64_t t;
	int d;
};

static int edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	return (x->t > y->t) - (x->t < y->t);
}

static void type_breakdown(const struct trace_rank *r, const size_t *idx, size_t n, struct trace_ivl *buf,
			   struct trace_hta *h)
{
	static const enum kclass types[3] = { KC_COMPUTATION, KC_COMMUNICATION, KC_MEMORY };
	struct edge *ev = xmalloc((2 * n + 1) * sizeof(*ev));
	size_t ne = 0;
	for (int b = 0; b < 3; b++) {
		size_t m = merged_of(r, idx, n, 1u << types[b], buf);
		for (size_t i = 0; i < m; i++) {
			ev[ne++] = (struct edge){ buf[i].s, 1 << b };
			ev[ne++] = (struct edge){ buf[i].e, -(1 << b) };
		}
	}
	/* ties only make 0-length spans, so their order does not matter */
	qsort(ev, ne, sizeof(*ev), edge_cmp);
	int running = 0;
	for (size_t i = 0; i + 1 < ne; i++) {
		running += ev[i].d;
		if (running > 0 && running < TB_MAX_LABELS)
			h->type_us[running] += (double)(ev[i + 1].t - ev[i].t) / 1000.0;
	}
	free(ev);
}

static void hta_compute(struct trace_rank *r)
{
	struct trace_hta *h = &r->hta;
	size_t *idx;
	size_t n = hta_select(r, &idx, &h->nfiltered);
	h->nevents = n;
	struct trace_ivl *buf = xmalloc((n + 1) * sizeof(*buf));
	struct trace_ivl *comm = xmalloc((n + 1) * sizeof(*comm));
	size_t m = merged_of(r, idx, n, ~0u, buf);
	if (m > 0) {
		h->have_gpu = true;
		int64_t kernel = buf[m - 1].e - buf[0].s, busy = trace_ivl_sum(buf, m);
		size_t mc = merged_of(r, idx, n, 1u << KC_COMPUTATION, buf);
		int64_t compute = trace_ivl_sum(buf, mc);
		size_t mm = merged_of(r, idx, n, 1u << KC_COMMUNICATION, comm);
		int64_t comm_t = trace_ivl_sum(comm, mm);
		h->kernel_us = (double)kernel / 1000.0;
		h->idle_us = (double)(kernel - busy) / 1000.0;
		h->compute_us = (double)compute / 1000.0;
		h->noncompute_us = (double)(kernel - compute - (kernel - busy)) / 1000.0;
		if (kernel > 0) {
			h->idle_pct = 100.0 * (double)(kernel - busy) / (double)kernel;
			h->compute_pct = 100.0 * (double)compute / (double)kernel;
			h->noncompute_pct = 100.0 * (double)(busy - compute) / (double)kernel;
		}
		h->comm_us = (double)comm_t / 1000.0;
		if (comm_t > 0) {
			h->have_overlap = true;
			h->overlap_pct = 100.0 * (double)trace_ivl_intersect(comm, mm, buf, mc) / (double)comm_t;
		}
		type_breakdown(r, idx, n, buf, h);
	}
	h->nkstat = trace_kstats(r, idx, n, &h->kstat);
	idle_all(r, idx, n, h);
	free(comm);
	free(buf);
	free(idx);
}

const struct trace_hta *trace_hta(struct trace_set *ts, size_t ri)
{
	struct trace_rank *r = ts->r[ri];
	pthread_mutex_lock(&ts->lock);
	if (!r->hta_done) {
		trace_rank_need_events(ts, r);
		hta_compute(r);
		r->hta_filter = drops_last_step(r);
		r->hta_done = true;
	}
	pthread_mutex_unlock(&ts->lock);
	return &r->hta;
}

const char *trace_mask_label(unsigned mask)
{
	static const char *const labels[TB_MAX_LABELS] = {
		NULL,
		"COMPUTATION",
		"COMMUNICATION",
		"COMPUTATION overlapping COMMUNICATION",
		"MEMORY",
		"COMPUTATION overlapping MEMORY",
		"COMMUNICATION overlapping MEMORY",
		"COMPUTATION overlapping COMMUNICATION overlapping MEMORY",
	};
	return mask < TB_MAX_LABELS ? labels[mask] : NULL;
}

/* ---- pytscope analyze_trace ---------------------------------------------- */

static bool icontains(const char *s, const char *lit)
{
	size_t m = strlen(lit);
	for (; *s; s++)
		if (strncasecmp(s, lit, m) == 0)
			return true;
	return false;
}

static bool py_is_comm(const char *name)
{
	static const char *const keys[] = {
		"nccl", "allreduce", "all_reduce", "allgather", "all_gather", "reducescatter",
		"reduce_scatter", "all_to_all", "alltoall", "broadcast", "c10d::",
	};
	for (size_t i = 0; i < ARRAY_LEN(keys); i++)
		if (icontains(name, keys[i]))
			return true;
	return false;
}

/* Index into trace_coll_names. */
static int py_coll_kind(const char *name)
{
	if (icontains(name, "allreduce") || icontains(name, "all_reduce"))
		return 1;
	if (icontains(name, "allgather") || icontains(name, "all_gather"))
		return 0;
	if (icontains(name, "reducescatter") || icontains(name, "reduce_scatter"))
		return 5;
	if (icontains(name, "all_to_all") || icontains(name, "alltoall"))
		return 2;
	if (icontains(name, "broadcast"))
		return 3;
	return 4;
}

static void py_compute(struct trace_rank *r)
{
	struct trace_pysum *p = &r->py;
	bool *comm_name = xcalloc(r->nnames + 1, sizeof(*comm_name));
	int *kind = xcalloc(r->nnames + 1, sizeof(*kind));
	for (size_t i = 0; i < r->nnames; i++) {
		comm_name[i] = py_is_comm(r->names[i]);
		kind[i] = py_coll_kind(r->names[i]);
	}
	struct trace_ivl *cv = xmalloc((r->nk + 1) * sizeof(*cv)), *pv = xmalloc((r->nk + 1) * sizeof(*pv));
	size_t nc = 0, np = 0;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	for (size_t k = 0; k < r->nk; k++) {
		const struct trace_kernel *e = &r->k[k];
		if (!(e->flags & TK_PYSEL) || e->dur <= 0)
			continue;
		if (e->ts < lo)
			lo = e->ts;
		if (e->ts + e->dur > hi)
			hi = e->ts + e->dur;
		if (comm_name[e->name]) {
			cv[nc++] = (struct trace_ivl){ e->ts, e->ts + e->dur };
			p->per_coll[kind[e->name]] += (double)e->dur / 1e9;
			p->has_coll[kind[e->name]] = true;
		} else {
			pv[np++] = (struct trace_ivl){ e->ts, e->ts + e->dur };
		}
	}
	p->n_comm = nc;
	p->n_compute = np;
	if (nc + np > 0) {
		p->present = true;
		p->wall = (double)(hi - lo) / 1e9;
		size_t mc = trace_ivl_merge(cv, nc), mp = trace_ivl_merge(pv, np);
		int64_t comm = trace_ivl_sum(cv, mc), both = trace_ivl_intersect(cv, mc, pv, mp);
		p->comm = (double)comm / 1e9;
		p->compute = (double)trace_ivl_sum(pv, mp) / 1e9;
		p->exposed = (double)(comm - both) / 1e9;
		p->overlapped = p->comm - p->exposed;
	}
	free(cv);
	free(pv);
	free(kind);
	free(comm_name);
}

const struct trace_pysum *trace_pysum(struct trace_set *ts, size_t ri)
{
	struct trace_rank *r = ts->r[ri];
	pthread_mutex_lock(&ts->lock);
	if (!r->py_done) {
		trace_rank_need_events(ts, r);
		py_compute(r);
		r->py_done = true;
	}
	pthread_mutex_unlock(&ts->lock);
	return &r->py;
}

/* ---- HTA potential stragglers --------------------------------------------------- */

struct srow {            /* a long communication kernel, then the last per group */
	int rank;
	int32_t stream;
	long iter;
	int gid;             /* index into the global kernel-name list */
	size_t order;        /* file order inside its rank */
	double metric, duration;
};

static bool step_valid(const long *steps, size_t n, long it)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (steps[mid] < it)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && steps[lo] == it;
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
		int64_t cutoff = last_step_start(r);
		for (size_t s = 0; s < r->nstep && !trace_rank_partial(r); s++) {
			if (drops_last_step(r) && r->step[s].ts >= cutoff)
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

/* t_min and the mean iteration time over the steps and GPU events of the valid steps. */
static bool iter_window(struct trace_set *ts, const long *steps, size_t nsteps, int64_t *tmin, double *mean)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	for (size_t i = 0; i < ts->n; i++) {
		struct trace_rank *r = ts->r[i];
		if (trace_rank_partial(r))   /* its kernels past the cut are unknown */
			continue;
		int64_t cutoff = last_step_start(r);
		for (size_t s = 0; s < r->nstep; s++) {
			const struct trace_step *st = &r->step[s];
			if (!step_valid(steps, nsteps, st->step) || (drops_last_step(r) && st->ts >= cutoff))
				continue;
			lo = st->ts < lo ? st->ts : lo;
			hi = st->ts + st->dur > hi ? st->ts + st->dur : hi;
		}
		for (size_t w = 0; w < r->nwin; w++) {
			const struct trace_iterwin *e = &r->win[w];
			if (!step_valid(steps, nsteps, e->iter))
				continue;
			lo = e->lo < lo ? e->lo : lo;
			hi = e->hi > hi ? e->hi : hi;
		}
	}
	if (lo > hi)
		return false;
	*tmin = lo;
	*mean = (double)(hi - lo) / (double)nsteps;
	return *mean > 0;
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
 * last one per (rank, stream, iteration, name): groupby(...).last(). */
static size_t straggler_rows(struct trace_set *ts, const long *steps, size_t nsteps, int64_t tmin,
			     double mean, struct gnames *g, struct srow **out)
{
	struct srow *v = NULL;
	size_t n = 0, cap = 0;
	double min_dur = mean * STRAGGLER_MIN_NORM_DUR;
	for (size_t i = 0; i < ts->n; i++) {
		struct trace_rank *r = ts->r[i];
		for (size_t k = 0; k < r->nnccl && !trace_rank_partial(r); k++) {
			const struct trace_ncclk *e = &r->nccl[k];
			if ((double)e->dur < min_dur || !step_valid(steps, nsteps, e->iter))
				continue;
			xgrow((void **)&v, &cap, n + 1, sizeof(*v));
			v[n++] = (struct srow){
				.rank = r->rank, .stream = e->stream, .iter = e->iter,
				.gid = gname_id(g, r->names[e->name]), .order = e->order,
				.metric = (double)(e->ts - tmin) / mean, .duration = (double)e->dur / mean,
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
 * metric is among the top STRAGGLER_CANDIDATES count once. count[r] stays -1 for
 * ranks without a row. */
static void count_stragglers(struct trace_set *ts, const struct srow *v, size_t lo, size_t hi, long *count)
{
	double *m = xmalloc((hi - lo + 1) * sizeof(*m));
	for (size_t i = lo; i < hi;) {
		size_t j = i, k = 0;
		while (j < hi && v[j].iter == v[i].iter)
			m[k++] = v[j++].metric;
		qsort(m, k, sizeof(*m), cmp_double_desc);
		double thr = m[(k < STRAGGLER_CANDIDATES ? k : STRAGGLER_CANDIDATES) - 1];
		for (size_t q = i; q < j; q++) {
			size_t r = rank_index(ts, v[q].rank);
			if (count[r] < 0)
				count[r] = 0;
			if (v[q].metric >= thr)
				count[r]++;
		}
		i = j;
	}
	free(m);
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
	int64_t cutoff = last_step_start(r);
	bool filter = drops_last_step(r);
	size_t cw = 0, cn = 0, nw = 0;
	struct trace_iterwin *w = NULL;
	for (size_t k = 0; k < r->nk; k++) {
		const struct trace_kernel *e = &r->k[k];
		if (e->iter < 0 || !hta_keep(r, e, filter, cutoff))
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

static void stragglers_compute(struct trace_set *ts)
{
	for (size_t i = 0; i < ts->n; i++)
		if (!ts->r[i]->strag_done) {
			trace_rank_need_events(ts, ts->r[i]);
			strag_inputs(ts->r[i]);
		}
	long *steps;
	size_t nsteps = valid_steps(ts, &steps);
	int64_t tmin;
	double mean;
	struct srow *v = NULL;
	struct gnames g = { 0 };
	size_t n = 0, lo = 0, hi = 0;
	bool window = nsteps > 0 && iter_window(ts, steps, nsteps, &tmin, &mean);
	if (window)
		n = straggler_rows(ts, steps, nsteps, tmin, mean, &g, &v);
	ts->strag_why = !nsteps ? "no ProfilerStep span" : !window ? "no GPU kernel within a ProfilerStep"
		      : !n ? "no ncclKernel communication kernel longer than 1% of the mean step"
		      : "no communication kernel on 2 ranks in one step";
	if (pick_kernel(v, n, &g, &lo, &hi)) {
		ts->strag_why = NULL;
		long *count = xmalloc(ts->n * sizeof(*count)); /* -1: no candidate row */
		for (size_t r = 0; r < ts->n; r++)
			count[r] = -1;
		count_stragglers(ts, v, lo, hi, count);
		/* sort by count descending, ties by rank ascending; take the first two */
		bool *used = xcalloc(ts->n, sizeof(*used));
		for (size_t k = 0; k < STRAGGLER_CANDIDATES && k < ts->n; k++) {
			size_t b = ts->n;
			for (size_t r = 0; r < ts->n; r++)
				if (!used[r] && count[r] >= 0 && (b == ts->n || count[r] > count[b]))
					b = r;
			if (b == ts->n)
				break;
			used[b] = true;
			ts->strag[ts->nstrag++] = ts->r[b]->rank;
		}
		free(used);
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

bool trace_gpu_time(struct trace_set *ts, struct trace_gpu_time *out)
{
	*out = (struct trace_gpu_time){ .min_rank = -1, .max_rank = -1, .partial_rank = -1, .comm_unknown = true };
	for (size_t i = 0; ts && i < ts->n; i++) {
		const struct trace_hta *h = trace_hta(ts, i);
		if (trace_rank_partial(ts->r[i])) {   /* not measured as if whole */
			if (out->npartial++ == 0)
				out->partial_rank = ts->r[i]->rank;
			continue;
		}
		if (!h->have_gpu)
			out->filtered += h->nfiltered;
		if (!h->have_gpu || h->kernel_us <= 0)
			continue;
		out->n++;
		out->dropped_last += ts->r[i]->hta_filter;
		out->comm_unknown = out->comm_unknown && !trace_rank_comm_measured(ts, ts->r[i]);
		out->span_us += h->kernel_us;
		out->idle_us += h->idle_us;
		out->compute_us += h->compute_us;
		out->noncompute_us += h->noncompute_us;
		if (out->min_rank < 0 || h->idle_pct < out->min_idle_pct) {
			out->min_idle_pct = h->idle_pct;
			out->min_rank = ts->r[i]->rank;
		}
		if (out->max_rank < 0 || h->idle_pct > out->max_idle_pct) {
			out->max_idle_pct = h->idle_pct;
			out->max_rank = ts->r[i]->rank;
		}
	}
	return out->n > 0;
}
