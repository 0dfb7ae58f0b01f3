/* SPDX-License-Identifier: MIT */
/* analysis_idle.c: HTA's breakdowns of a rank's GPU time (trace.h trace_hta, formats.md
 * §2.4) taken GPU by GPU: the temporal breakdown (span, idle, compute, non-compute), the
 * comm/comp overlap, the kernel-type breakdown and the idle time by stream with its
 * categories; and the GPU time over every rank (trace_gpu_time). A process that drives
 * several GPUs has each one's breakdown, and the rank's figures are their sums: the
 * union of two GPUs' kernels is no GPU's busy time. With one GPU, HTA's own figures. */
#include "model/trace/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include "model/xalloc.h"

#define IDLE_KERNEL_WAIT_NS 30000   /* HTA consecutive_kernel_delay = 30 us */

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
	*out = (struct trace_idle){ .device = m ? r->k[v[0].k].device : -1, .stream = stream };
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

/* The idle time of each stream of one GPU's events idx[0..n), appended to h->idle
 * (room for n more rows), streams in order of first appearance. */
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
	for (size_t j = 0; j < ns; j++)
		idle_stream(r, idx, n, streams[j], &h->idle[h->nidle++]);
	free(streams);
}

/* ---- temporal and kernel-type breakdown of one GPU ------------------------------ */

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

/* ns over a rank's GPUs: span (first start to last end, per GPU), busy, compute and
 * communication time (unions), and communication under compute */
struct gpu_sums {
	int64_t span, busy, compute, comm, overlap;
};

/* One GPU's events idx[0..n) (n > 0): its row in h->dev, added to the sums. */
static void gpu_time(const struct trace_rank *r, const size_t *idx, size_t n, struct trace_hta *h,
		     struct gpu_sums *s)
{
	struct trace_ivl *buf = xmalloc((n + 1) * sizeof(*buf));
	struct trace_ivl *comm = xmalloc((n + 1) * sizeof(*comm));
	size_t m = merged_of(r, idx, n, ~0u, buf);
	int64_t span = buf[m - 1].e - buf[0].s, busy = trace_ivl_sum(buf, m);
	size_t mc = merged_of(r, idx, n, 1u << KC_COMPUTATION, buf);
	int64_t compute = trace_ivl_sum(buf, mc);
	size_t mm = merged_of(r, idx, n, 1u << KC_COMMUNICATION, comm);
	int64_t comm_t = trace_ivl_sum(comm, mm);
	s->span += span;
	s->busy += busy;
	s->compute += compute;
	s->comm += comm_t;
	if (comm_t > 0)
		s->overlap += trace_ivl_intersect(comm, mm, buf, mc);
	type_breakdown(r, idx, n, buf, h);
	h->dev[h->ndev++] = (struct trace_devtime){
		.device = r->k[idx[0]].device, .kernel_us = (double)span / 1000.0,
		.idle_us = (double)(span - busy) / 1000.0, .compute_us = (double)compute / 1000.0,
		.idle_pct = span > 0 ? 100.0 * (double)(span - busy) / (double)span : 0,
	};
	free(comm);
	free(buf);
}

static void hta_totals(const struct gpu_sums *s, struct trace_hta *h)
{
	h->have_gpu = true;
	h->kernel_us = (double)s->span / 1000.0;
	h->idle_us = (double)(s->span - s->busy) / 1000.0;
	h->compute_us = (double)s->compute / 1000.0;
	h->noncompute_us = (double)(s->span - s->compute - (s->span - s->busy)) / 1000.0;
	if (s->span > 0) {
		h->idle_pct = 100.0 * (double)(s->span - s->busy) / (double)s->span;
		h->compute_pct = 100.0 * (double)s->compute / (double)s->span;
		h->noncompute_pct = 100.0 * (double)(s->busy - s->compute) / (double)s->span;
	}
	h->comm_us = (double)s->comm / 1000.0;
	if (s->comm > 0) {
		h->have_overlap = true;
		h->overlap_pct = 100.0 * (double)s->overlap / (double)s->comm;
	}
}

struct by_dev {
	int16_t device;
	size_t k;
};

static int by_dev_cmp(const void *a, const void *b)
{
	const struct by_dev *x = a, *y = b;
	if (x->device != y->device)
		return (x->device > y->device) - (x->device < y->device);
	return (x->k > y->k) - (x->k < y->k);
}

void trace_hta_gpus(const struct trace_rank *r, const size_t *idx, size_t n, struct trace_hta *h)
{
	struct by_dev *v = xmalloc((n + 1) * sizeof(*v));
	size_t *sorted = xmalloc((n + 1) * sizeof(*sorted));
	for (size_t i = 0; i < n; i++)
		v[i] = (struct by_dev){ r->k[idx[i]].device, idx[i] };
	qsort(v, n, sizeof(*v), by_dev_cmp);   /* file order within a GPU */
	for (size_t i = 0; i < n; i++)
		sorted[i] = v[i].k;
	h->idle = xcalloc(n + 1, sizeof(*h->idle));
	h->dev = xcalloc(n + 1, sizeof(*h->dev));
	struct gpu_sums s = { 0 };
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a + 1; b < n && v[b].device == v[a].device; b++)
			;
		gpu_time(r, sorted + a, b - a, h, &s);
		idle_all(r, sorted + a, b - a, h);
	}
	if (n > 0)
		hta_totals(&s, h);
	free(sorted);
	free(v);
}

/* ---- over every rank ------------------------------------------------------------- */

void trace_gpu_label(int rank, int device, size_t ngpu, char *buf, size_t n)
{
	if (ngpu <= 1)
		snprintf(buf, n, "rank %d", rank);
	else if (device >= 0)
		snprintf(buf, n, "GPU %d of rank %d", device, rank);
	else
		snprintf(buf, n, "a GPU of no known id of rank %d", rank);
}

/* One GPU's idle share (a rank's when it drives one) into the spread and the count. */
static void gpu_spread(struct trace_gpu_time *out, int rank, int device, size_t ngpu, double pct)
{
	out->ngpu++;
	out->nidle += pct >= TRACE_IDLE_PCT;
	if (out->min_rank < 0 || pct < out->min_idle_pct) {
		out->min_idle_pct = pct;
		out->min_rank = rank;
		out->min_device = device;
		out->min_ngpu = ngpu;
	}
	if (out->max_rank < 0 || pct > out->max_idle_pct) {
		out->max_idle_pct = pct;
		out->max_rank = rank;
		out->max_device = device;
		out->max_ngpu = ngpu;
	}
}

bool trace_gpu_time(struct trace_set *ts, struct trace_gpu_time *out)
{
	*out = (struct trace_gpu_time){ .min_rank = -1, .max_rank = -1, .partial_rank = -1, .comm_unknown = true };
	for (size_t i = 0; ts && i < ts->n; i++) {
		const struct trace_hta *h = trace_hta(ts, i);
		int rank = ts->r[i]->rank;
		if (trace_rank_partial(ts->r[i])) {   /* not measured as if whole */
			if (out->npartial++ == 0)
				out->partial_rank = rank;
			continue;
		}
		if (!h->have_gpu)
			out->filtered += h->nfiltered;
		if (!h->have_gpu || h->kernel_us <= 0)
			continue;
		out->n++;
		out->dropped_last += ts->r[i]->hta_filter;
		out->comm_unknown = out->comm_unknown && !trace_rank_comm_kernels(ts->r[i]);
		out->span_us += h->kernel_us;
		out->idle_us += h->idle_us;
		out->compute_us += h->compute_us;
		out->noncompute_us += h->noncompute_us;
		if (h->ndev <= 1)
			gpu_spread(out, rank, -1, 1, h->idle_pct);
		for (size_t d = 0; h->ndev > 1 && d < h->ndev; d++)
			if (h->dev[d].kernel_us > 0)
				gpu_spread(out, rank, h->dev[d].device, h->ndev, h->dev[d].idle_pct);
	}
	return out->n > 0;
}
