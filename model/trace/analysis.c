/* SPDX-License-Identifier: MIT */
/* analysis.c: the trace analyses (see trace.h): pytscope's trace summary, HTA's
 * per-kernel statistics and kernel-type labels (its breakdowns GPU by GPU, with the idle
 * time by stream: analysis_idle.c), and HTA's event set (the last-step rule) they share
 * with the potential stragglers (analysis_stragglers.c). All times are integer
 * nanoseconds inside, results microseconds (HTA); pytscope's summary is in its own float
 * seconds (pytscope's arithmetic), with communication kernels by pytscope's name list
 * under --compat pytscope, else by the classification table. */
#include "model/trace/internal.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/opts.h"
#include "model/run.h"
#include "model/xalloc.h"

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
bool trace_drops_last_step(const struct trace_rank *r)
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
		if ((r->hta_done || r->strag_done) && r->hta_filter != trace_drops_last_step(r))
			trace_rank_drop_analyses(r);
	}
	pthread_mutex_unlock(&ts->lock);
}

int64_t trace_last_step_start(const struct trace_rank *r)
{
	int64_t t = INT64_MIN;
	for (size_t s = 0; s < r->nstep; s++)
		if (r->step[s].ts > t)
			t = r->step[s].ts;
	return t;
}

/* Whether GPU event e is in HTA's filtered set for this rank. */
bool trace_hta_keep(const struct trace_rank *r, const struct trace_kernel *e, bool filter, int64_t cutoff)
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
	int64_t cutoff = trace_last_step_start(r);
	bool filter = trace_drops_last_step(r);
	*filtered = 0;
	for (size_t k = 0; k < r->nk; k++) {
		if (trace_hta_keep(r, &r->k[k], filter, cutoff))
			idx[n++] = k;
		else
			*filtered += r->k[k].stream >= 0;
	}
	*out = idx;
	return n;
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

/* ---- HTA per-rank analyses -------------------------------------------------- */

static void hta_compute(struct trace_rank *r)
{
	struct trace_hta *h = &r->hta;
	size_t *idx;
	size_t n = hta_select(r, &idx, &h->nfiltered);
	h->nevents = n;
	h->nkstat = trace_kstats(r, idx, n, &h->kstat);
	trace_hta_gpus(r, idx, n, h);
	free(idx);
}

const struct trace_hta *trace_hta(struct trace_set *ts, size_t ri)
{
	struct trace_rank *r = ts->r[ri];
	pthread_mutex_lock(&ts->lock);
	if (!r->hta_done) {
		trace_rank_need_events(ts, r);
		hta_compute(r);
		r->hta_filter = trace_drops_last_step(r);
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

/* pytscope 0.2.1's analyze_trace (spec pytscope.md §6.6) in its own arithmetic: float
 * seconds of the trace's own ts (without baseTimeNanoseconds), s = ts/1e6 and
 * e = (ts + dur)/1e6, merged and summed in pytscope's order, so that each figure and share
 * is pytscope's to the last bit (an exposed share of 0.375 is 38%, not 37%). Which kernels
 * are communication: pytscope's name list under --compat pytscope (r->py, the one a trace
 * index keeps), else the classification table (r->py_table), as the steps and HTA's views
 * class them. */

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

struct py_ivl {          /* seconds, as pytscope's floats */
	double s, e;
};

/* A time of the trace in us as the float pytscope reads from its text: exact for the
 * values Kineto writes (3 decimals at most, under 2^53 ns). */
static double py_us(int64_t ns)
{
	return (double)(ns / 1000) + (double)(ns % 1000) / 1000.0;
}

static int py_ivl_cmp(const void *a, const void *b)
{
	const struct py_ivl *x = a, *y = b;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (x->e > y->e) - (x->e < y->e);
}

/* Drop the empty intervals (e <= s in float), sort, merge the touching and overlapping
 * ones in place; returns the merged count. */
static size_t py_merge(struct py_ivl *v, size_t n)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].e > v[i].s)
			v[m++] = v[i];
	if (m == 0)
		return 0;
	qsort(v, m, sizeof(*v), py_ivl_cmp);
	size_t k = 0;
	for (size_t i = 1; i < m; i++) {
		if (v[i].s > v[k].e)
			v[++k] = v[i];
		else if (v[i].e > v[k].e)
			v[k].e = v[i].e;
	}
	return k + 1;
}

static double py_sum(const struct py_ivl *v, size_t n)
{
	double t = 0;
	for (size_t i = 0; i < n; i++)
		t += v[i].e - v[i].s;
	return t;
}

/* The time of merged a[0..na) that merged b[0..nb) leaves uncovered, summed piece by piece. */
static double py_subtract(const struct py_ivl *a, size_t na, const struct py_ivl *b, size_t nb)
{
	double t = 0;
	size_t j = 0;
	for (size_t i = 0; i < na; i++) {
		double cur = a[i].s;
		while (j < nb && b[j].e <= cur)
			j++;
		for (size_t k = j; k < nb && b[k].s < a[i].e && cur < a[i].e; k++) {
			if (b[k].s > cur)
				t += b[k].s - cur;
			if (b[k].e > cur)
				cur = b[k].e;
		}
		if (cur < a[i].e)
			t += a[i].e - cur;
	}
	return t;
}

/* pytscope's TraceSummary of r's selected kernels (TK_PYSEL, dur > 0) into p, with the
 * names comm[] marks as its communication kernels. */
static void py_summarize(const struct trace_rank *r, const bool *comm, const int *kind, struct trace_pysum *p)
{
	memset(p, 0, sizeof(*p));
	struct py_ivl *cv = xmalloc((r->nk + 1) * sizeof(*cv)), *pv = xmalloc((r->nk + 1) * sizeof(*pv));
	size_t nc = 0, np = 0;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t k = 0; k < r->nk; k++) {
		const struct trace_kernel *e = &r->k[k];
		if (!(e->flags & TK_PYSEL) || e->dur <= 0)
			continue;
		double ts = py_us(e->ts - r->base_ns), dur = py_us(e->dur);
		struct py_ivl v = { ts / 1e6, (ts + dur) / 1e6 };
		lo = v.s < lo ? v.s : lo;
		hi = v.e > hi ? v.e : hi;
		if (comm[e->name]) {
			cv[nc++] = v;
			p->per_coll[kind[e->name]] += dur / 1e6; /* the raw duration, as pytscope */
			p->has_coll[kind[e->name]] = true;
		} else {
			pv[np++] = v;
		}
	}
	p->n_comm = nc;
	p->n_compute = np;
	if (nc + np > 0) {
		p->present = true;
		p->wall = hi - lo;
		size_t mc = py_merge(cv, nc), mp = py_merge(pv, np);
		p->comm = py_sum(cv, mc);
		p->compute = py_sum(pv, mp);
		p->exposed = py_subtract(cv, mc, pv, mp);
		p->overlapped = p->comm - p->exposed;
	}
	free(cv);
	free(pv);
}

/* The summary of r with the communication kernels of pytscope's list, or of the
 * classification table (table). */
static void py_compute(const struct trace_rank *r, bool table, struct trace_pysum *p)
{
	bool *comm = xcalloc(r->nnames + 1, sizeof(*comm));
	int *kind = xcalloc(r->nnames + 1, sizeof(*kind));
	for (size_t i = 0; i < r->nnames; i++) {
		comm[i] = table ? r->name_cls[i] == KC_COMMUNICATION : py_is_comm(r->names[i]);
		kind[i] = py_coll_kind(r->names[i]);
	}
	py_summarize(r, comm, kind, p);
	free(kind);
	free(comm);
}

/* pytscope's list and the classification table agree on every kernel name of r: one
 * summary serves both (a rank restored from a trace index needs no events). */
static bool py_lists_agree(const struct trace_rank *r)
{
	for (size_t i = 0; i < r->nnames; i++)
		if (py_is_comm(r->names[i]) != (r->name_cls[i] == KC_COMMUNICATION))
			return false;
	return true;
}

const struct trace_pysum *trace_pysum(struct trace_set *ts, size_t ri)
{
	struct trace_rank *r = ts->r[ri];
	bool table = !(ts->run && ts->run->opts && ts->run->opts->compat_pytscope);
	pthread_mutex_lock(&ts->lock);
	if (!r->py_done) {
		trace_rank_need_events(ts, r);
		py_compute(r, false, &r->py);
		r->py_done = true;
		r->py_table_done = false;
	}
	if (table && !r->py_table_done) {
		if (py_lists_agree(r)) {
			r->py_table = r->py;
		} else {
			trace_rank_need_events(ts, r);
			py_compute(r, true, &r->py_table);
		}
		r->py_table_done = true;
	}
	pthread_mutex_unlock(&ts->lock);
	return table ? &r->py_table : &r->py;
}

double trace_pysum_exposed_pct(const struct trace_pysum *p)
{
	double frac = p->wall > 0 ? p->exposed / p->wall : 0;
	return frac * 100;
}
