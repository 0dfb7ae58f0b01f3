/* SPDX-License-Identifier: MIT */
/* subsystem.c: the trace family's registration (registry.h): loader "kineto" (load.c,
 * PyTorch profiler Chrome traces), views (views.c), the finding rules (rules.c), the
 * headline summary (mixed runs, GPU busy/idle, idle by rank, top kernels), the test for
 * traces of two runs (trace_late_start) and the model's lifetime. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/ranklist.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/trace/internal.h"
#include "model/units.h"
#include "model/xalloc.h"

static const struct loader trace_loaders[] = {
	{ "kineto", "PyTorch profiler (Kineto) Chrome traces: *.pt.trace.json[.gz], trace.json, rank dirs",
	  trace_probe, trace_load, true },
};

static bool trace_has_data(const struct run *run)
{
	return run->trace && run->trace->n; /* none when --ranks left every trace out */
}

/* A kernel of one rank (its interned name id: a row of the kernels view) in the top
 * kernels' sums. Names are interned by their whole JSON text, so two ids of one rank may
 * read alike as C strings (a NUL inside): dup counts the ids of that rank before it that
 * read the same, and kernels match across ranks by name and dup, never merging two of
 * one rank. */
struct ksum {
	const char *name;
	size_t rank, dup;    /* index in ts->r */
	int32_t id;
	double sum;
};

static int ksum_by_rank_id(const void *a, const void *b)
{
	const struct ksum *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c || x->rank != y->rank)
		return c ? c : x->rank < y->rank ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

static int ksum_by_name(const void *a, const void *b)
{
	const struct ksum *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->dup > y->dup) - (x->dup < y->dup);
}

/* v[0, n) summed by name and dup (struct ksum) in place; the count left. */
static size_t ksum_merge(struct ksum *v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), ksum_by_rank_id);
	for (size_t i = 1; i < n; i++)
		if (v[i].rank == v[i - 1].rank && strcmp(v[i].name, v[i - 1].name) == 0)
			v[i].dup = v[i - 1].dup + 1;
	qsort(v, n, sizeof(*v), ksum_by_name);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && ksum_by_name(&v[m - 1], &v[i]) == 0)
			v[m - 1].sum += v[i].sum;
		else
			v[m++] = v[i];
	}
	return m;
}

/* Longest kernel name in the headline's list (bytes). */
#define KERNEL_BRIEF 48

/* name without a leading "void ", any "(anonymous namespace)::" and its argument list
 * (from the first '(' outside template brackets) into full[cap]; its length. */
static size_t kernel_head(const char *name, char *full, size_t cap)
{
	static const char anon[] = "(anonymous namespace)::";
	if (strncmp(name, "void ", 5) == 0)
		name += 5;
	size_t n = 0;
	int depth = 0;
	for (size_t i = 0; name[i] && n + 1 < cap; i++) {
		if (strncmp(name + i, anon, sizeof(anon) - 1) == 0) {
			i += sizeof(anon) - 2;
			continue;
		}
		if (name[i] == '(' && depth == 0)
			break;
		depth += (name[i] == '<') - (name[i] == '>' && depth > 0);
		full[n++] = name[i];
	}
	full[n] = '\0';
	return n;
}

/* in[0, n) with each outermost template argument list as <...> into out[cap] (what
 * fits); its length. */
static size_t templates_elided(const char *in, size_t n, char *out, size_t cap)
{
	size_t k = 0;
	int depth = 0;
	for (size_t i = 0; i < n && k + 5 < cap; i++) {
		if (in[i] == '<' && depth++ == 0) {
			memcpy(out + k, "<...", 4);
			k += 4;
		}
		if (depth == 0 || (in[i] == '>' && depth == 1))
			out[k++] = in[i];
		depth -= in[i] == '>' && depth > 0;
	}
	out[k] = '\0';
	return k;
}

/* A kernel's name as the headline lists it (kernel_head); when longer than
 * KERNEL_BRIEF, its template arguments elided, then cut to KERNEL_BRIEF with "..." (on
 * a UTF-8 character boundary). out holds KERNEL_BRIEF + 1 bytes. */
static void kernel_brief(const char *name, char *out)
{
	char full[256], flat[256];
	size_t n = kernel_head(name, full, sizeof(full));
	if (n == 0) { /* nothing before its arguments: the name as it is */
		n = strnlen(name, sizeof(full) - 1);
		memcpy(full, name, n);
		full[n] = '\0';
	}
	const char *src = full;
	if (n > KERNEL_BRIEF) {
		n = templates_elided(full, n, flat, sizeof(flat));
		src = flat;
	}
	if (n <= KERNEL_BRIEF) {
		memcpy(out, src, n + 1);
		return;
	}
	size_t cut = KERNEL_BRIEF - 3;
	while (cut > 0 && ((unsigned char)src[cut] & 0xC0) == 0x80)
		cut--;
	memcpy(out, src, cut);
	memcpy(out + cut, "...", 4);
}

/* The top 3 kernels over every rank (HTA event set) by total time, summed by name
 * (ksum_merge): "name 12.3%, ...", each name brief (kernel_brief). Over the ranks the
 * GPU time line sums: a truncated (partial) trace is left out (the line is not shown when
 * every trace is). */
static void top_kernels(struct trace_set *ts, char *buf, size_t n)
{
	size_t nk = 0, cap = 0;
	struct ksum *v = NULL;
	double total = 0;
	for (size_t i = 0; i < ts->n; i++) {
		if (trace_rank_partial(ts->r[i]))
			continue;
		const struct trace_hta *h = trace_hta(ts, i);
		for (size_t k = 0; k < h->nkstat; k++) {
			xgrow((void **)&v, &cap, nk + 1, sizeof(*v));
			int32_t id = h->kstat[k].name;
			v[nk++] = (struct ksum){ ts->r[i]->names[id], i, 0, id, h->kstat[k].sum };
			total += h->kstat[k].sum;
		}
	}
	size_t m = ksum_merge(v, nk);
	size_t used = 0;
	buf[0] = '\0';
	for (int j = 0; j < 3 && j < (int)m && used < n; j++) {
		size_t best = (size_t)j;
		for (size_t i = (size_t)j + 1; i < m; i++)
			if (v[i].sum > v[best].sum)
				best = i;
		struct ksum t = v[j];
		v[j] = v[best];
		v[best] = t;
		char brief[KERNEL_BRIEF + 1];
		kernel_brief(v[j].name, brief);
		used += (size_t)snprintf(buf + used, n - used, "%s%s %.1f%%", j ? ", " : "", brief,
					  total > 0 ? 100 * v[j].sum / total : 0);
	}
	free(v);
}

/* The traces against the world_size in the lowest rank's (distributedInfo), when no step
 * records give the coverage line (the step family's holds traces' ranks too). */
static void trace_coverage(const struct run *run, const struct trace_set *ts, struct summary *out)
{
	long world = trace_world_size(run);
	if (world < 0 || (run->steps && steps_nranks(run->steps)))
		return;
	/* --ranks left traces out: only the ranks it names can be missing */
	char subset[256];
	steps_subset_coverage(run, world, subset, sizeof(subset));
	const char *asked = *subset ? run->opts->ranks : NULL;
	struct summary_ids missing = { .n = 0 }, beyond = { .n = 0 };
	size_t i = 0; /* ts->r is sorted by rank id */
	for (long r = 0; r < world && r < 1000000; r++) {
		while (i < ts->n && ts->r[i]->rank < r)
			i++;
		if ((i == ts->n || ts->r[i]->rank != r) && (!asked || ranklist_has(asked, r)))
			summary_ids_add(&missing, r);
	}
	for (i = 0; i < ts->n; i++)
		if (ts->r[i]->rank >= world)
			summary_ids_add(&beyond, ts->r[i]->rank);
	summary_add_coverage(out, ts->n, world, "the traces' world_size", subset, &missing, &beyond);
}

/* Traces whose distributedInfo gives another world_size than the lowest rank's: traces of
 * different jobs in one directory are named, not merged in silence (DESIGN 11). */
static void trace_mixed(const struct trace_set *ts, struct summary *out)
{
	long w0 = ts->r[0]->world_size;
	size_t nother = 0, first = 0;
	for (size_t i = 1; i < ts->n && w0 >= 0; i++) {
		if (ts->r[i]->world_size < 0 || ts->r[i]->world_size == w0)
			continue;
		if (nother++ == 0)
			first = i;
	}
	if (nother)
		summary_add(out, TONE_BAD, "mixed runs", "rank %d's trace says world_size %ld, rank %d's %ld (%zu of %zu "
			    "traces differ): traces of other jobs?", ts->r[first]->rank, ts->r[first]->world_size,
			    ts->r[0]->rank, w0, nother, ts->n);
}

/* Traces whose first ProfilerSteps lie more than this apart are of two runs (the step
 * family's MIXED_START_S for run.json started times). */
#define TRACE_MIXED_START_NS ((int64_t)3600 * 1000000000)
/* A start before this (2001-09-09) is on no wall clock (a trace written from 0): it is
 * compared with none. */
#define TRACE_WALL_CLOCK_NS ((int64_t)1000000000 * 1000000000)

/* The start of r's first ProfilerStep (ns), INT64_MIN when it has none on a wall clock. */
static int64_t first_step_ns(const struct trace_rank *r)
{
	int64_t t = INT64_MAX;
	for (size_t s = 0; s < r->nstep; s++)
		if (r->step[s].ts < t)
			t = r->step[s].ts;
	return r->nstep && t >= TRACE_WALL_CLOCK_NS ? t : INT64_MIN;
}

bool trace_late_start(const struct trace_set *ts, struct trace_late_start *out)
{
	*out = (struct trace_late_start){ .lo = 0 };
	int64_t lo = INT64_MIN, hi = INT64_MIN;
	for (size_t i = 0; ts && i < ts->n; i++) {
		int64_t t = first_step_ns(ts->r[i]);
		if (t == INT64_MIN)
			continue;
		if (lo == INT64_MIN || t < lo) {
			lo = t;
			out->lo = i;
		}
		if (t > hi) {
			hi = t;
			out->hi = i;
		}
	}
	if (lo == INT64_MIN || hi - lo <= TRACE_MIXED_START_NS)
		return false;
	for (size_t i = 0; i < ts->n; i++) {
		int64_t t = first_step_ns(ts->r[i]);
		out->nlate += t != INT64_MIN && t - lo > TRACE_MIXED_START_NS;
	}
	out->spread_s = (double)(hi - lo) / 1e9;
	return true;
}

/* "30.0 days", "2.5 hours" (as the step family's mixed runs line). */
static void spread_text(double s, char *buf, size_t n)
{
	bool days = s >= 86400;
	snprintf(buf, n, "%.1f %s", days ? s / 86400 : s / 3600, days ? "days" : "hours");
}

const char *trace_mixed_why(const struct trace_set *ts, char *buf, size_t n)
{
	struct trace_late_start l;
	if (!trace_late_start(ts, &l))
		return NULL;
	char spread[32];
	spread_text(l.spread_s, spread, sizeof(spread));
	snprintf(buf, n, "rank %d's trace starts %s after rank %d's: traces of two runs", ts->r[l.hi]->rank, spread,
		 ts->r[l.lo]->rank);
	return buf;
}

const char *trace_runs_mixed(const struct run *run, char *buf, size_t n)
{
	return trace_steps_only(run) ? trace_mixed_why(run->trace, buf, n) : NULL;
}

/* Traces whose first ProfilerSteps lie more than an hour apart (trace_late_start): traces
 * of two runs in one directory are named with their files, not merged in silence (DESIGN
 * 11); no rank is weighed against another (trace_runs_mixed, the potential stragglers). */
static void trace_started(const struct trace_set *ts, struct summary *out)
{
	struct trace_late_start l;
	if (!trace_late_start(ts, &l))
		return;
	const struct trace_rank *lo = ts->r[l.lo], *hi = ts->r[l.hi];
	char spread[32];
	spread_text(l.spread_s, spread, sizeof(spread));
	summary_add(out, TONE_BAD, "mixed runs", "rank %d's trace (%s) starts %s after rank %d's (%s), by their first "
		    "ProfilerStep (%zu of %zu traces start over an hour after it): ranks of one job start within "
		    "minutes; traces of two runs? Ranks not weighed against each other", hi->rank, hi->path, spread,
		    lo->rank, lo->path, l.nlate, ts->n);
}

/* Traces in a rank dir that are of another job (trace_drop_foreign): left out, said so;
 * the run dir's own trace of another rank or world_size: kept, said so. */
static void trace_foreign(const struct trace_set *ts, struct summary *out)
{
	if (ts->own_other)
		summary_add(out, TONE_BAD, "mixed runs", "%s (:view sources)", ts->own_other);
	if (ts->nforeign == 1)
		summary_add(out, TONE_BAD, "mixed runs", "%s; left out of the analysis (:view sources)", ts->foreign);
	else if (ts->nforeign)
		summary_add(out, TONE_BAD, "mixed runs", "%s; left out of the analysis, and %zu more such traces "
			    "(:view sources)", ts->foreign, ts->nforeign - 1);
}

/* GPU names, CUDA versions or backends that traces record otherwise (trace_env_diff). */
static void trace_env(const struct trace_set *ts, struct summary *out)
{
	struct trace_env_diff e;
	if (!trace_env_diff(ts, &e))
		return;
	int first = ts->r[e.first]->rank, low = ts->r[0]->rank;
	if (e.split)
		summary_add(out, TONE_WARN, "traces differ", "rank %d's %s=%s, rank %d's %s (%zu of %zu traces differ from "
			    "rank %d%s%s, no majority; keys: %s)", first, e.key, e.value, low, e.others, e.ndiff, e.n, low,
			    e.ranks[0] ? ": " : "", e.ranks, e.keys);
	else
		summary_add(out, TONE_WARN, "traces differ", "rank %d's %s=%s, the other traces' %s (%zu of %zu traces "
			    "differ%s%s; keys: %s)", first, e.key, e.value, e.others, e.ndiff, e.n, e.ranks[0] ? ": " : "",
			    e.ranks, e.keys);
}

/* The GPU, CUDA and backend the lowest rank's trace records, when no run.json gives the
 * environment line (the step family's). */
static void trace_environment(const struct run *run, const struct trace_set *ts, struct summary *out)
{
	const struct trace_rank *r = ts->r[0];
	const struct steps_model *m = run->steps;
	if (m && steps_nranks(m) && steps_rank_meta(m, 0)->present)
		return;
	char buf[SUMMARY_TEXT] = "";
	size_t used = 0, known = 0;
	for (size_t k = 0; k < TRACE_ENV_KEYS && used < sizeof(buf); k++) {
		const char *v = trace_rank_env(r, k);
		if (!v && strcmp(trace_env_keys[k], "backend") == 0)
			continue; /* most traces of one process do not record it: no n/a for it */
		known += v != NULL;
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s=%s", k ? ", " : "", trace_env_keys[k],
					 v ? v : "n/a");
	}
	if (known)
		summary_add(out, TONE_NORMAL, "environment", "%s (rank %d's trace)", buf, r->rank);
}

/* GPU busy/idle over the traces and its split, the idle spread over ranks and the top
 * kernels. */
static void trace_gpu_lines(struct trace_set *ts, struct summary *out)
{
	struct trace_gpu_time g;
	if (!trace_gpu_time(ts, &g)) {
		char why[160];
		if (ts && g.npartial) {
			summary_add(out, TONE_WARN, "GPU time", "n/a: rank %d's trace%s truncated before the end "
				    "of its GPU events", g.partial_rank, g.npartial > 1 ? " and others are" : " is");
		} else if (ts && g.filtered) {   /* the not-judged list's words too (rules.c) */
			trace_filtered_text(g.filtered, why, sizeof(why));
			summary_add(out, TONE_WARN, "GPU time", "n/a: %s (%s)", trace_filtered_what, why);
		} else if (ts) {
			summary_add(out, TONE_WARN, "GPU time", "n/a: no GPU kernel in the traces");
		}
		return;
	}
	double idle = 100 * g.idle_us / g.span_us;
	char span[32], split[96], left[96] = "";
	if (g.dropped_last)   /* HTA's last-step rule is per rank */
		snprintf(left, sizeof(left), "; HTA leaves out the last ProfilerStep%s",
			 g.dropped_last < g.n ? " of the ranks with several" : "");
	if (g.npartial)
		snprintf(left + strlen(left), sizeof(left) - strlen(left), "; rank %d's truncated trace%s left out",
			 g.partial_rank, g.npartial > 1 ? " and others" : "");
	/* no kernel seen as communication (one rank alone too): comm n/a, not "comm 0%" */
	snprintf(split, sizeof(split), g.comm_unknown ? "memory and other %.1f%%, comm n/a: no kernel matched as "
		 "communication" : "comm/memory %.1f%%", 100 * g.noncompute_us / g.span_us);
	char idle_pct[32], min_pct[32], max_pct[32];   /* never "25.0%" for 24.999% */
	trace_idle_text(idle, 1, idle_pct, sizeof(idle_pct));
	trace_idle_text(g.min_idle_pct, 1, min_pct, sizeof(min_pct));
	trace_idle_text(g.max_idle_pct, 1, max_pct, sizeof(max_pct));
	char gpus[48] = "";   /* a rank that drives several GPUs: each GPU's span counts */
	if (g.ngpu > g.n)
		snprintf(gpus, sizeof(gpus), "%zu GPUs of ", g.ngpu);
	summary_add(out, idle >= TRACE_IDLE_PCT ? TONE_BAD : TONE_GOOD, "GPU time",
		    "busy %.1f%% (compute %.1f%%, %s), idle %s%% of the HTA spans (%s summed over %s%zu rank%s%s)",
		    100 - idle, 100 * g.compute_us / g.span_us, split, idle_pct,
		    units_seconds(g.span_us / 1e6, span, sizeof(span)), gpus, g.n, g.n == 1 ? "" : "s", left);
	enum summary_tone spread = g.max_idle_pct >= TRACE_IDLE_PCT ? TONE_WARN : TONE_NORMAL;
	char min_who[64], max_who[64];
	trace_gpu_label(g.min_rank, g.min_device, g.min_ngpu, min_who, sizeof(min_who));
	trace_gpu_label(g.max_rank, g.max_device, g.max_ngpu, max_who, sizeof(max_who));
	bool one = g.min_rank == g.max_rank && g.min_device == g.max_device;
	if (g.ngpu > g.n && one) /* over GPUs (the idle view has each GPU's streams), every GPU the same */
		summary_add(out, spread, "GPU idle by GPU", "%s%% on each of the %zu GPUs; :view idle", max_pct, g.ngpu);
	else if (g.ngpu > g.n)
		summary_add(out, spread, "GPU idle by GPU", "%s%% (%s) to %s%% (%s); :view idle", min_pct, min_who,
			    max_pct, max_who);
	else if (g.n > 1 && g.min_rank == g.max_rank) /* every rank the same: no "rank 0 to rank 0" */
		summary_add(out, spread, "GPU idle by rank", "%s%% on each of the %zu ranks; :view temporal",
			    max_pct, g.n);
	else if (g.n > 1)
		summary_add(out, spread, "GPU idle by rank", "%s%% (rank %d) to %s%% (rank %d); :view temporal",
			    min_pct, g.min_rank, max_pct, g.max_rank);
	char top[SUMMARY_TEXT];
	top_kernels(ts, top, sizeof(top));
	if (*top)
		summary_add(out, TONE_NORMAL, "top kernels", "%s", top);
}

/* Traces of another job left out, mixed world sizes or start times, GPU names, CUDA
 * versions or backends that differ, coverage against the world_size, the GPU lines, and
 * the lowest rank's GPU and CUDA. */
static void trace_summary(struct run *run, struct summary *out)
{
	struct trace_set *ts = trace_get(run);
	if (ts)
		trace_foreign(ts, out);
	if (ts && ts->n) {
		trace_mixed(ts, out);
		trace_started(ts, out);
		trace_env(ts, out);
		trace_coverage(run, ts, out);
	}
	if (!ts || ts->n || !ts->nforeign) /* no trace left but foreign ones: the line above says it */
		trace_gpu_lines(ts, out);
	if (ts && ts->n)
		trace_environment(run, ts, out);
}

static const struct tab_def trace_tabs[] = {
	{ 9, "GPU time", TAB_TABLE, "temporal", trace_has_data, NULL, NULL },
};

const struct subsystem sub_trace = {
	.name = "trace",
	.loaders = trace_loaders,
	.nloaders = ARRAY_LEN(trace_loaders),
	.views = trace_views,
	.nviews = TRACE_NVIEWS,
	.rules = trace_rules,
	.nrules = TRACE_NRULES,
	.tabs = trace_tabs,
	.ntabs = ARRAY_LEN(trace_tabs),
	.has_data = trace_has_data,
	.summary = trace_summary,
	.unjudged = trace_unjudged,
	.free = trace_free,
};
