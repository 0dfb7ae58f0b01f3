/* SPDX-License-Identifier: MIT */
/* analysis.c: DASF's analyses, computed once per run (spec formats.md §1.5):
 * the annotated task graph (input data size, throughput), function_bottleneck,
 * task_bottleneck, task_balance, plus the critical path of the task graph.
 * Groups come out in DASF's dict order ((host, thread) first seen, then function/key
 * first seen in it) before the stable sort by duration, so ties order like DASF's.
 * Resource samples are matched to tasks with DASF's first-match rule (the Compute
 * event earliest in database order with ts <= t <= ts + dur) by a sweep over samples
 * sorted by time and a min-heap of database indices: O((E + R) log E), not O(E x R).
 * Where DASF would raise (division by a zero duration or total), the value is missing;
 * a negative or non-finite duration (dasf_dur_usable) is missing wherever time is summed,
 * and so is every sum it is part of (its group's, its worker's shares, the total task
 * time): the sum without it is no total. Shares of sums that overflow are computed from
 * scaled sums. A task without a usable duration, a key with no Compute event that a
 * task which ran depends on (its event is lost), or a Compute event the loader skipped
 * (db->lost: it also leaves the total task time unknown) leaves the critical path unknown. */
#include "model/dasf/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"

/* ---- sorting helpers ---- */

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* LSD radix sort of uint64 values (16-bit digits); qsort below 64 Ki values. */
static void radix_u64(uint64_t *v, size_t n)
{
	if (n < ((size_t)1 << 16)) {
		if (n)
			qsort(v, n, sizeof(*v), u64_cmp);
		return;
	}
	uint64_t *tmp = xmalloc(n * sizeof(*tmp) + 1);
	size_t *count = xmalloc(65536 * sizeof(*count));
	for (int shift = 0; shift < 64; shift += 16) {
		memset(count, 0, 65536 * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[(v[i] >> shift) & 0xffff]++;
		size_t sum = 0;
		for (size_t d = 0; d < 65536; d++) {
			size_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[(v[i] >> shift) & 0xffff]++] = v[i];
		memcpy(v, tmp, n * sizeof(*v));
	}
	free(count);
	free(tmp);
}

struct by_time {
	double t;
	uint32_t idx;
};

static int by_time_cmp(const void *a, const void *b)
{
	const struct by_time *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* ---- task graph ---- */

static void build_csr(uint64_t *pairs, size_t n, size_t nnode, uint32_t **off_out, uint32_t **adj_out)
{
	uint32_t *off = xcalloc(nnode + 1, sizeof(*off));
	uint32_t *adj = xmalloc((n + 1) * sizeof(*adj));
	for (size_t i = 0; i < n; i++)
		off[(pairs[i] >> 32) + 1]++;
	for (size_t v = 0; v < nnode; v++)
		off[v + 1] += off[v];
	for (size_t i = 0; i < n; i++) /* pairs are sorted by (hi, lo): fill in order */
		adj[i] = (uint32_t)pairs[i];
	*off_out = off;
	*adj_out = adj;
}

static void build_graph(const struct dasf_db *db, struct dasf_an *an)
{
	size_t nnode = db->keys.n;
	an->node_task = xmalloc((nnode + 1) * sizeof(*an->node_task));
	for (size_t v = 0; v < nnode; v++)
		an->node_task[v] = DASF_NONE;
	uint64_t *pairs = xmalloc((db->nedges + 1) * sizeof(*pairs));
	size_t np = 0;
	for (size_t i = 0; i < db->ntask; i++) {
		const struct dasf_task *t = &db->task[i];
		an->node_task[t->key] = (uint32_t)i; /* networkx add_node: last attributes win */
		for (uint32_t e = 0; e < t->ndeps; e++) /* dep -> key, stored as (key, dep) */
			pairs[np++] = (uint64_t)t->key << 32 | db->edges[t->edge + e];
		for (uint32_t e = 0; e < t->ndnts; e++) /* key -> dependent, as (dependent, key) */
			pairs[np++] = (uint64_t)db->edges[t->edge + t->ndeps + e] << 32 | t->key;
	}
	radix_u64(pairs, np);
	size_t nu = 0; /* a DiGraph holds each edge once */
	for (size_t i = 0; i < np; i++)
		if (!nu || pairs[i] != pairs[nu - 1])
			pairs[nu++] = pairs[i];
	build_csr(pairs, nu, nnode, &an->pred_off, &an->pred);
	for (size_t i = 0; i < nu; i++) /* swap to (from, to) for successors */
		pairs[i] = pairs[i] << 32 | pairs[i] >> 32;
	radix_u64(pairs, nu);
	build_csr(pairs, nu, nnode, &an->succ_off, &an->succ);
	free(pairs);

	an->input_size = xmalloc((nnode + 1) * sizeof(*an->input_size));
	an->throughput = xmalloc((nnode + 1) * sizeof(*an->throughput));
	an->has_thr = xmalloc((nnode + 1) * sizeof(*an->has_thr));
	for (size_t v = 0; v < nnode; v++) {
		long double sum = 0;
		for (uint32_t k = an->pred_off[v]; k < an->pred_off[v + 1]; k++) {
			uint32_t ti = an->node_task[an->pred[k]];
			if (ti != DASF_NONE && db->task[ti].has_size)
				sum += db->task[ti].size;
		}
		an->input_size[v] = (double)sum;
		double dur = an->node_task[v] == DASF_NONE ? 1.0 : db->task[an->node_task[v]].dur;
		an->has_thr[v] = dasf_dur_usable(dur) && dur != 0.0; /* DASF raises ZeroDivisionError at 0 */
		an->throughput[v] = an->has_thr[v] ? an->input_size[v] / dur : 0.0;
	}
}

/* A predecessor of v (not v) that Kahn's order left, v itself when none. */
static uint32_t left_pred(const struct dasf_an *an, const uint32_t *indeg, uint32_t v)
{
	for (uint32_t k = an->pred_off[v]; k < an->pred_off[v + 1]; k++)
		if (an->pred[k] != v && indeg[an->pred[k]])
			return an->pred[k];
	return v;
}

/* A node on a cycle, found from `from`, a node Kahn's order left (indeg > 0): every such
 * node has a predecessor left too, so walking back nleft steps ends on a cycle; its length
 * in *len. */
static uint32_t find_cycle(const struct dasf_an *an, const uint32_t *indeg, uint32_t from, size_t nleft,
			   size_t *len)
{
	uint32_t v = from;
	for (size_t i = 0; i <= nleft; i++)
		v = left_pred(an, indeg, v);
	*len = 0;
	uint32_t u = v;
	do {
		u = left_pred(an, indeg, u);
		(*len)++;
	} while (u != v && *len <= nleft);
	return v;
}

/* Whether key v depends on another key. */
static bool has_pred(const struct dasf_an *an, uint32_t v)
{
	for (uint32_t k = an->pred_off[v]; k < an->pred_off[v + 1]; k++)
		if (an->pred[k] != v)
			return true;
	return false;
}

/* Whether a key with a Compute event depends on key v. */
static bool feeds_task(const struct dasf_an *an, uint32_t v)
{
	for (uint32_t k = an->succ_off[v]; k < an->succ_off[v + 1]; k++)
		if (an->succ[k] != v && an->node_task[an->succ[k]] != DASF_NONE)
			return true;
	return false;
}

/* Count a node in *n, keeping the first in *first. */
static void count_node(uint32_t v, uint32_t *first, size_t *n)
{
	if (!(*n)++)
		*first = v;
}

/* The keys whose task has no usable duration (untimed) and those named only as a
 * dependency or dependent, with no Compute event: between a key and a task that ran
 * (eventless: the task ran after it, so it ran too and its event is lost) or not (loose:
 * an input held before, or a key the profile saw no task need); how many of each and the
 * first. */
static void untimed_nodes(const struct dasf_db *db, struct dasf_an *an)
{
	an->untimed_node = an->eventless_node = an->loose_node = DASF_NONE;
	for (size_t v = 0; v < db->keys.n; v++) {
		uint32_t ti = an->node_task[v];
		if (ti == DASF_NONE && has_pred(an, (uint32_t)v) && feeds_task(an, (uint32_t)v))
			count_node((uint32_t)v, &an->eventless_node, &an->eventless_nodes);
		else if (ti == DASF_NONE)
			count_node((uint32_t)v, &an->loose_node, &an->loose_nodes);
		else if (!dasf_dur_usable(db->task[ti].dur))
			count_node((uint32_t)v, &an->untimed_node, &an->untimed_nodes);
	}
}

/* Every key on a chain as long as the longest, which ends at end (dist: the longest chain
 * ending at each key, best_in: the longest one before it, from task keys only): the task keys
 * where such a chain ends, then back through every predecessor whose chain is a key's
 * longest start. Chains tie when their sums are equal as computed; nothing is marked
 * without a critical path (end DASF_NONE). */
static void mark_longest(struct dasf_an *an, size_t nnode, uint32_t end, const double *dist, const double *best_in)
{
	bool *on = an->on_longest = xcalloc(nnode + 1, sizeof(*on));
	uint32_t *stack = xmalloc((nnode + 1) * sizeof(*stack));
	size_t ns = 0;
	for (size_t v = 0; end != DASF_NONE && v < nnode; v++)
		if (an->node_task[v] != DASF_NONE && dist[v] == dist[end])
			on[stack[ns++] = (uint32_t)v] = true;
	while (ns) {
		uint32_t v = stack[--ns];
		for (uint32_t k = an->pred_off[v]; k < an->pred_off[v + 1]; k++) {
			uint32_t p = an->pred[k];
			if (p != v && !on[p] && an->node_task[p] != DASF_NONE && dist[p] == best_in[v])
				on[stack[ns++] = p] = true;
		}
	}
	for (size_t v = 0; v < nnode; v++)
		an->nlongest += on[v];
	free(stack);
}

/* The end of the longest chain, moved on to a task after it whose chain is no shorter (a
 * task of 0 s, or one its sum absorbs: 1e308 + 2), so the path is never a chain's prefix. */
static uint32_t extend_end(const struct dasf_an *an, uint32_t end, const double *dist)
{
	for (bool moved = end != DASF_NONE; moved;) {
		moved = false;
		for (uint32_t k = an->succ_off[end]; k < an->succ_off[end + 1] && !moved; k++) {
			uint32_t s = an->succ[k];
			if (s != end && an->node_task[s] != DASF_NONE && dist[s] == dist[end]) {
				end = s;
				moved = true;
			}
		}
	}
	return end;
}

/* Longest chain of tasks by summed duration (Kahn order). With a dependency cycle there
 * is none: the path is left empty and a node of the cycle named (cycle_node); nor is there
 * one when a task has no usable duration (untimed_node) or its Compute event is lost
 * (eventless_node): any chain through it could be the longest, so its time is never
 * taken as 0. A loose key (no event, at a chain's start or end) is on no chain. The path is
 * the first longest chain Kahn's order meets; every key on one as long is marked
 * (mark_longest), so a tie is never hidden. */
static void critical_path(const struct dasf_db *db, struct dasf_an *an)
{
	size_t nnode = db->keys.n;
	an->cycle_node = DASF_NONE;
	untimed_nodes(db, an);
	if (!nnode)
		return;
	uint32_t *indeg = xcalloc(nnode, sizeof(*indeg));
	uint32_t *queue = xmalloc(nnode * sizeof(*queue));
	uint32_t *from = xmalloc(nnode * sizeof(*from));
	double *best_in = xcalloc(nnode, sizeof(*best_in)), *dist = xcalloc(nnode, sizeof(*dist));
	for (size_t v = 0; v < nnode; v++) {
		from[v] = DASF_NONE;
		for (uint32_t k = an->pred_off[v]; k < an->pred_off[v + 1]; k++)
			indeg[v] += an->pred[k] != v;
	}
	size_t qh = 0, qt = 0;
	for (size_t v = 0; v < nnode; v++)
		if (!indeg[v])
			queue[qt++] = (uint32_t)v;
	uint32_t end = DASF_NONE;
	while (qh < qt) {
		uint32_t v = queue[qh++];
		bool task = an->node_task[v] != DASF_NONE;
		double w = task ? db->task[an->node_task[v]].dur : 0.0;
		dist[v] = best_in[v] + (dasf_dur_usable(w) ? w : 0.0); /* else the path is dropped below */
		if (task && (end == DASF_NONE || dist[v] > dist[end]))
			end = v;
		for (uint32_t k = an->succ_off[v]; k < an->succ_off[v + 1]; k++) {
			uint32_t s = an->succ[k];
			if (s == v)
				continue;
			if (task && (from[s] == DASF_NONE || dist[v] > best_in[s])) {
				best_in[s] = dist[v];
				from[s] = v;
			}
			if (--indeg[s] == 0)
				queue[qt++] = s;
		}
	}
	an->cyclic = nnode - qt;
	if (an->cyclic) {
		uint32_t v = 0;
		while (!indeg[v])
			v++;
		an->cycle_node = find_cycle(an, indeg, v, an->cyclic, &an->cycle_len);
		end = DASF_NONE;
	}
	if (an->untimed_nodes || an->eventless_nodes || db->lost) /* a lost task may be on any chain */
		end = DASF_NONE;
	end = extend_end(an, end, dist);
	size_t n = 0;
	for (uint32_t v = end; v != DASF_NONE; v = from[v])
		n++;
	an->critical = xmalloc((n + 1) * sizeof(*an->critical));
	an->ncritical = n;
	for (uint32_t v = end; v != DASF_NONE; v = from[v])
		an->critical[--n] = v;
	mark_longest(an, nnode, end, dist, best_in);
	free(indeg);
	free(queue);
	free(from);
	free(best_in);
	free(dist);
}

/* ---- function_bottleneck and task_bottleneck ---- */

/* Shares of task time are also summed with every duration times 2^-SHARE_SCALE (exact: a
 * power of two), so that a share is still known when the plain sums overflow. */
#define SHARE_SCALE 64

struct group {
	uint32_t ht, host, thread, id; /* id: function name (strs) or task key (keys) */
	uint32_t order;                /* creation order */
	double dur;                    /* summed usable durations */
	double scaled;                 /* the same, scaled by 2^-SHARE_SCALE */
	long double data;              /* summed input sizes */
	double thr;                    /* summed throughputs */
	size_t ntasks, nthr, ndur;     /* ndur: tasks with a usable duration */
	uint32_t head, tail;
};

/* A worker's (host, thread's) task time: the sum of its groups' (dur, scaled) and its
 * tasks without a usable duration. */
struct worker_total {
	double dur, scaled;
	size_t untimed;
};

static int group_dasf_order(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	if (x->ht != y->ht)
		return x->ht < y->ht ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Group Compute events by (host, thread, name or key) in DASF's dict order; fills the
 * per-(host, thread) totals (sums of the group durations, in that order). */
static struct group *group_tasks(const struct dasf_db *db, const struct dasf_an *an, bool by_key,
				 uint32_t *task_next, size_t *ngroup, struct worker_total **ht_total)
{
	struct dasf_map hts = { 0 }, groups = { 0 };
	struct group *g = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < db->ntask; i++) {
		const struct dasf_task *t = &db->task[i];
		uint32_t ht = dasf_map_get_or_add(&hts, (uint64_t)t->host << 32 | t->thread, (uint32_t)hts.n);
		uint32_t id = by_key ? t->key : t->name;
		uint32_t gi = dasf_map_get_or_add(&groups, (uint64_t)ht << 32 | id, (uint32_t)n);
		if (gi == n) {
			xgrow((void **)&g, &cap, n + 1, sizeof(*g));
			g[n++] = (struct group){ .ht = ht, .host = t->host, .thread = t->thread, .id = id,
						 .order = (uint32_t)gi, .head = DASF_NONE };
		}
		struct group *gr = &g[gi];
		if (dasf_dur_usable(t->dur)) {
			gr->dur += t->dur;
			gr->scaled += ldexp(t->dur, -SHARE_SCALE);
			gr->ndur++;
		}
		gr->ntasks++;
		gr->data += an->input_size[t->key];
		if (an->has_thr[t->key]) {
			gr->thr += an->throughput[t->key];
			gr->nthr++;
		}
		if (task_next) {
			task_next[i] = DASF_NONE;
			if (gr->head == DASF_NONE)
				gr->head = (uint32_t)i;
			else
				task_next[gr->tail] = (uint32_t)i;
			gr->tail = (uint32_t)i;
		}
	}
	if (n)
		qsort(g, n, sizeof(*g), group_dasf_order);
	*ht_total = xcalloc(hts.n + 1, sizeof(**ht_total));
	for (size_t i = 0; i < n; i++) {
		struct worker_total *w = &(*ht_total)[g[i].ht];
		w->dur += g[i].dur;
		w->scaled += g[i].scaled;
		w->untimed += g[i].ntasks - g[i].ndur;
	}
	dasf_map_free(&hts);
	dasf_map_free(&groups);
	*ngroup = n;
	return g;
}

/* A group's summed duration, NaN (missing) when a task of it has no usable one: the sum
 * without it is not the group's time. */
static double group_dur(const struct group *g)
{
	return g->ndur == g->ntasks ? g->dur : NAN;
}

/* The mean usable duration of a group's tasks (from the scaled sum when the plain one
 * overflows), NaN when none has one. */
static double mean_dur(const struct group *g)
{
	if (!g->ndur)
		return NAN;
	return isfinite(g->dur) ? g->dur / (double)g->ndur : ldexp(g->scaled / (double)g->ndur, SHARE_SCALE);
}

/* Stable descending sort key: duration, then DASF order (index). NaN last. */
struct dur_idx {
	double dur;
	size_t idx;
};

static int dur_desc(const void *a, const void *b)
{
	const struct dur_idx *x = a, *y = b;
	bool xn = isnan(x->dur), yn = isnan(y->dur);
	if (xn != yn)
		return xn ? 1 : -1;
	if (!xn && x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static size_t *order_by_duration(const struct group *g, size_t n)
{
	struct dur_idx *d = xmalloc((n + 1) * sizeof(*d));
	for (size_t i = 0; i < n; i++)
		d[i] = (struct dur_idx){ group_dur(&g[i]), i };
	qsort(d, n, sizeof(*d), dur_desc);
	size_t *ord = xmalloc((n + 1) * sizeof(*ord));
	for (size_t i = 0; i < n; i++)
		ord[i] = d[i].idx;
	free(d);
	return ord;
}

/* A group's share of its worker's task time (%): NaN (missing) when a task of the worker
 * has no usable duration (the worker's time is unknown) or the worker's time is 0 (DASF
 * divides by zero there); from the scaled sums when the plain ones overflow. */
static double percent(const struct group *g, const struct worker_total *w)
{
	if (w->untimed || w->dur == 0.0)
		return NAN;
	return isfinite(w->dur) ? g->dur / w->dur * 100 : g->scaled / w->scaled * 100;
}

struct res_acc {
	long double util, mem;
	size_t nutil, nmem, idle;
};

/* Match every GPU sample to the first Compute event (database order) running at its
 * time; accumulate per function name. Returns per-name accumulators (strs ids). A task
 * without a usable duration (dasf_dur_usable: missing, NaN, negative or infinite alike)
 * has no known span and holds no sample. */
static struct res_acc *match_resources(const struct dasf_db *db, struct dasf_an *an)
{
	struct res_acc *acc = xcalloc(db->strs.n + 1, sizeof(*acc));
	struct by_time *iv = xmalloc((db->ntask + 1) * sizeof(*iv));
	struct by_time *rs = xmalloc((db->nres + 1) * sizeof(*rs));
	size_t ni = 0, nr = 0;
	for (size_t i = 0; i < db->ntask; i++)
		if (isfinite(db->task[i].ts) && dasf_dur_usable(db->task[i].dur))
			iv[ni++] = (struct by_time){ db->task[i].ts, (uint32_t)i };
	an->unspanned = db->ntask - ni;
	for (size_t i = 0; i < db->nres; i++)
		if (!isnan(db->res[i].ts))
			rs[nr++] = (struct by_time){ db->res[i].ts, (uint32_t)i };
	qsort(iv, ni, sizeof(*iv), by_time_cmp);
	qsort(rs, nr, sizeof(*rs), by_time_cmp);
	uint32_t *heap = xmalloc((ni + 1) * sizeof(*heap)); /* min-heap of task indices */
	size_t nh = 0, next = 0;
	for (size_t r = 0; r < nr; r++) {
		double t = rs[r].t;
		for (; next < ni && iv[next].t <= t; next++) { /* push started intervals */
			size_t c = nh++;
			heap[c] = iv[next].idx;
			while (c && heap[(c - 1) / 2] > heap[c]) {
				uint32_t tmp = heap[c];
				heap[c] = heap[(c - 1) / 2];
				heap[(c - 1) / 2] = tmp;
				c = (c - 1) / 2;
			}
		}
		while (nh && !(t <= db->task[heap[0]].ts + db->task[heap[0]].dur)) { /* ended */
			heap[0] = heap[--nh];
			for (size_t c = 0;;) {
				size_t l = 2 * c + 1, m = c;
				if (l < nh && heap[l] < heap[m])
					m = l;
				if (l + 1 < nh && heap[l + 1] < heap[m])
					m = l + 1;
				if (m == c)
					break;
				uint32_t tmp = heap[c];
				heap[c] = heap[m];
				heap[m] = tmp;
				c = m;
			}
		}
		if (!nh)
			continue;
		const struct dasf_res *s = &db->res[rs[r].idx];
		struct res_acc *a = &acc[db->task[heap[0]].name];
		a->util += s->gpu_util;
		a->nutil++;
		if (s->gpu_util < DASF_IDLE_UTIL)
			a->idle++;
		if (s->has_mem) {
			a->mem += s->gpu_mem;
			a->nmem++;
		}
		an->res_matched++;
		an->res_idle += s->gpu_util < DASF_IDLE_UTIL;
	}
	free(heap);
	free(iv);
	free(rs);
	return acc;
}

static void function_bottleneck(const struct dasf_db *db, struct dasf_an *an)
{
	an->task_next = xmalloc((db->ntask + 1) * sizeof(*an->task_next));
	size_t n;
	struct worker_total *total;
	struct group *g = group_tasks(db, an, false, an->task_next, &n, &total);
	struct res_acc *acc = match_resources(db, an);
	size_t *ord = order_by_duration(g, n);
	an->fn = xcalloc(n + 1, sizeof(*an->fn));
	an->nfn = n;
	for (size_t r = 0; r < n; r++) {
		const struct group *gr = &g[ord[r]];
		const struct res_acc *a = &acc[gr->id];
		an->fn[r] = (struct dasf_fn_row){
			.host = gr->host, .thread = gr->thread, .name = gr->id,
			.dur = group_dur(gr), .pct = percent(gr, &total[gr->ht]),
			.mean_s = mean_dur(gr),
			.util = a->nutil ? (double)(a->util / a->nutil) : 0,
			.mem_gb = a->nmem ? (double)(a->mem / a->nmem) / 1e9 : 0,
			.nres = a->nutil, .nmem = a->nmem,
			.data_mb = (double)(gr->data / gr->ntasks) / 1e6,
			.thr_mbs = gr->nthr ? gr->thr / gr->nthr / 1e6 : 0, .nthr = gr->nthr,
			.ntasks = gr->ntasks, .first_task = gr->head,
		};
	}
	an->idle_by_name = xcalloc(db->strs.n + 1, sizeof(*an->idle_by_name));
	for (size_t i = 0; i < db->strs.n; i++)
		an->idle_by_name[i] = acc[i].idle;
	size_t nusable = 0;
	for (size_t i = 0; i < db->ntask; i++)
		if (dasf_dur_usable(db->task[i].dur)) {
			an->total_dur += db->task[i].dur;
			nusable++;
		}
	if (!db->ntask || nusable < db->ntask || db->lost) /* none, or a task's time is unknown */
		an->total_dur = NAN;
	free(ord);
	free(acc);
	free(total);
	free(g);
}

static void task_bottleneck(const struct dasf_db *db, struct dasf_an *an)
{
	size_t nkeys = db->keys.n;
	an->last_size = xcalloc(nkeys + 1, sizeof(*an->last_size));
	an->has_last_size = xcalloc(nkeys + 1, sizeof(*an->has_last_size));
	for (size_t i = 0; i < db->ntask; i++)
		if (db->task[i].has_size) {
			an->last_size[db->task[i].key] = db->task[i].size;
			an->has_last_size[db->task[i].key] = true;
		}
	size_t n;
	struct worker_total *total;
	struct group *g = group_tasks(db, an, true, NULL, &n, &total);
	size_t *ord = order_by_duration(g, n);
	an->tb = xcalloc(n + 1, sizeof(*an->tb));
	an->ntb = n;
	for (size_t r = 0; r < n; r++) {
		const struct group *gr = &g[ord[r]];
		an->tb[r] = (struct dasf_tb_row){
			.host = gr->host, .thread = gr->thread, .key = gr->id,
			.dur = group_dur(gr), .pct = percent(gr, &total[gr->ht]),
		};
	}
	free(ord);
	free(total);
	free(g);
}

/* ---- task_balance ---- */

static int thread_name_cmp(const void *a, const void *b, void *ud)
{
	const struct dasf_intern *in = ud;
	return strcmp(in->str[*(const uint32_t *)a], in->str[*(const uint32_t *)b]);
}

static int ll_cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

static void task_balance(const struct dasf_db *db, struct dasf_an *an)
{
	struct dasf_map secs = { 0 }, thr = { 0 };
	long long *sec = NULL;
	uint32_t *th = NULL;
	size_t nsec = 0, seccap = 0, nth = 0, thcap = 0;
	for (size_t i = 0; i < db->nmem; i++) {
		double ts = db->mem[i].ts;
		if (!isfinite(ts)) /* else within DASF_MEM_TS_MAX (the loader skips the rest) */
			continue;
		long long s = (long long)ts; /* int() truncates toward zero */
		if (dasf_map_get_or_add(&secs, (uint64_t)s, (uint32_t)nsec) == nsec) {
			xgrow((void **)&sec, &seccap, nsec + 1, sizeof(*sec));
			sec[nsec++] = s;
		}
		if (dasf_map_get_or_add(&thr, db->mem[i].thread, (uint32_t)nth) == nth) {
			xgrow((void **)&th, &thcap, nth + 1, sizeof(*th));
			th[nth++] = db->mem[i].thread;
		}
	}
	dasf_map_free(&secs);
	dasf_map_free(&thr);
	an->nsec = nsec;
	an->nbal_thr = nth;
	an->bal_sec = sec;
	an->bal_thread = th;
	if (nth && nsec > DASF_BALANCE_MAX_CELLS / nth) {
		an->bal_too_big = true;
		return;
	}
	if (nsec)
		qsort(sec, nsec, sizeof(*sec), ll_cmp);
	if (nth)
		qsort_r(th, nth, sizeof(*th), thread_name_cmp, (void *)&db->strs);
	for (size_t i = 0; i < nsec; i++)
		dasf_map_get_or_add(&secs, (uint64_t)sec[i], (uint32_t)i);
	for (size_t i = 0; i < nth; i++)
		dasf_map_get_or_add(&thr, th[i], (uint32_t)i);
	an->bal_tasks = xcalloc(nsec * nth + 1, sizeof(*an->bal_tasks));
	an->bal_has = xcalloc(nsec * nth + 1, sizeof(*an->bal_has));
	an->bal_bytes = xmalloc((nsec * nth + 1) * sizeof(*an->bal_bytes));
	for (size_t k = 0; k < nsec * nth; k++)
		an->bal_bytes[k] = NAN;
	for (size_t i = 0; i < db->nmem; i++) {
		double ts = db->mem[i].ts;
		if (!isfinite(ts)) /* else within DASF_MEM_TS_MAX (the loader skips the rest) */
			continue;
		size_t r = dasf_map_find(&secs, (uint64_t)(long long)ts);
		size_t c = dasf_map_find(&thr, db->mem[i].thread);
		an->bal_tasks[r * nth + c] = db->mem[i].tasks; /* the last value wins */
		an->bal_has[r * nth + c] = true;
		an->bal_bytes[r * nth + c] = db->mem[i].has_bytes ? (double)db->mem[i].bytes : NAN;
	}
	dasf_map_free(&secs);
	dasf_map_free(&thr);
}

const struct dasf_an *dasf_analyse(struct dasf_db *db)
{
	if (db->an)
		return db->an;
	struct dasf_an *an = xcalloc(1, sizeof(*an));
	build_graph(db, an);
	function_bottleneck(db, an);
	task_bottleneck(db, an);
	task_balance(db, an);
	critical_path(db, an);
	db->an = an;
	return an;
}

void dasf_an_free(struct dasf_an *an)
{
	if (!an)
		return;
	free(an->fn);
	free(an->idle_by_name);
	free(an->task_next);
	free(an->tb);
	free(an->last_size);
	free(an->has_last_size);
	free(an->node_task);
	free(an->pred_off);
	free(an->pred);
	free(an->succ_off);
	free(an->succ);
	free(an->input_size);
	free(an->throughput);
	free(an->has_thr);
	free(an->critical);
	free(an->on_longest);
	free(an->bal_sec);
	free(an->bal_thread);
	free(an->bal_tasks);
	free(an->bal_has);
	free(an->bal_bytes);
	free(an);
}

void dasf_db_free(struct dasf_db *db)
{
	if (!db)
		return;
	dasf_an_free(db->an);
	dasf_intern_free(&db->strs);
	dasf_intern_free(&db->keys);
	free(db->task);
	free(db->edges);
	free(db->mem);
	free(db->res);
	for (size_t i = 0; i < db->nfiles; i++)
		free(db->files[i].path);
	free(db->files);
	free(db);
}

const char *dasf_gpu_of(const char *thread)
{
	const char *dash = strrchr(thread, '-');
	return dash ? dash + 1 : thread;
}
