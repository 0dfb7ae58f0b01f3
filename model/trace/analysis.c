/* SPDX-License-Identifier: MIT */
/* analysis.c: the trace analyses (see trace.h): pytscope's trace summary, HTA's
 * per-kernel statistics and kernel-type labels (its breakdowns GPU by GPU, with the idle
 * time by stream: analysis_idle.c), and HTA's event set (the last-step rule) they share
 * with the potential stragglers (analysis_stragglers.c). All times are integer
 * nanoseconds inside; results are microseconds (HTA) or seconds (pytscope). */
#include "model/trace/internal.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
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
