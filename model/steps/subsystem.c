/* SPDX-License-Identifier: MIT */
/* subsystem.c: the step family's registration (registry.h): the pytscope loader
 * (load.c), the views (views.c; the v list offers those with data: steps_view_has_data),
 * the finding rules (rules.c), the heatmap grids (grid.c), the Ranks/Steps/Budget tabs,
 * the headline summary (a share a rule judges on its side of the bar: analysis.h BARS; the
 * top recoverable line n/a natively while the unknown compute overhead could be the larger:
 * analysis_budget_top; a lowest rank's run.json found but not read named with why where
 * run.json would speak: MFU, coverage, environment, config; the steps on no rank-to-rank
 * analysis: before a rank starts, after one ends, lacked in between; under --compat
 * pytscope no line from steps built from ProfilerSteps, model/compat.h), finalize and the
 * model's lifetime (store.c).
 * Traces add step records too (model/trace/load_steps.c). */
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/compat.h"
#include "model/index/index.h"
#include "model/ranklist.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/steps/config_diff.h"
#include "model/steps/internal.h"
#include "model/steps/nodes.h"
#include "model/trace/trace.h"
#include "model/units.h"
#include "model/xalloc.h"

static const struct loader pytscope_loaders[] = {
	{ "pytscope", "pytscope run dir: steps.jsonl + run.json, or rank{k}/ subdirs (or a steps.jsonl file)",
	  pytscope_probe, pytscope_load, true },
};

static const struct grid_provider *const steps_grids[] = { &grid_steps };

/* Ranks, Steps and Budget only for runs with step records (never for a sweep), or
 * that may grow some (--follow, until the followed PATHs turned out to hold a sweep). */
static bool steps_tab_show(const struct run *run)
{
	return (run->steps && steps_nranks(run->steps) > 0) || (run->opts && run->opts->follow && !run->sweep);
}

static const struct tab_def steps_tabs[] = {
	{ 3, "Ranks", TAB_TABLE, "ranks", steps_tab_show, NULL, NULL },
	{ 4, "Steps", TAB_STEPS, NULL, steps_tab_show, "steps", NULL },
	{ 5, "Budget", TAB_BUDGET, NULL, steps_tab_show, "budget", NULL },
};

/* Finalize the store; then the run-wide analyses come from the index summary, or the
 * summary of a whole index is written (model/steps/analysis_index.c). */
static void steps_fin(struct run *run)
{
	struct steps_model *m = run->steps;
	if (!m)
		return;
	steps_finalize(m);
	char scope[160];
	if (!steps_nranks(m) && steps_subset_scope(run, scope, sizeof(scope)))
		diag_add(&run->diags, DIAG_INFO, run->path, -1, -1, -1, "%s, and none of the ranks it names has data",
			 scope);
	steps_nodes_check_hosts(run);
	bool restored = steps_summary_restore(run);
	int err = restored || !m->summary_dir ? 0 : steps_summary_write(run, m->summary_dir);
	m->load_ctx = NULL;
	if (err)
		diag_add(&run->diags, DIAG_INFO, m->summary_dir, -1, -1, -1, "index summary not written: %s%s",
			 strerror(err), index_read_only_note(err));
#ifdef __GLIBC__
	/* Hand back the load-time slack (capacity, bitmaps, run-length sources) to the
	 * system, for the explorer's and the report's lifetime; `tscope-tui index` ends
	 * here, and trimming would only cost it the walk over the heap. */
	if (!run->opts || !run->opts->index_build)
		malloc_trim(0);
#endif
}

/* A model, even without records (run.json alone); not one that --ranks left empty. */
static bool steps_has_data(const struct run *run)
{
	return run->steps && (steps_nranks(run->steps) || !steps_left_out(run->steps));
}

/* Some rank has a step record (run.json alone gives a model, not records). */
static bool steps_has_records(const struct run *run)
{
	for (size_t ri = 0; run->steps && ri < steps_nranks(run->steps); ri++)
		if (steps_nrecords(run->steps, ri))
			return true;
	return false;
}

/* The views the v list offers (registry.h view_has_data), as their builds test: every
 * one but budget needs a step record, nodes node information too (nodes.h: hostnames,
 * --ranks-per-node, gpu_count, the traces' GPUs), as --export all writes them. */
static bool steps_view_has_data(struct run *run, const struct view_def *vd)
{
	if (strcmp(vd->name, "budget") == 0)
		return true;
	return steps_has_records(run) && (strcmp(vd->name, "nodes") != 0 || steps_nodes_found(run));
}

bool steps_subset_scope(const struct run *run, char *buf, size_t n)
{
	size_t out = steps_left_out(run->steps);
	const char *what = "rank dir";
	if (run->trace && run->trace->left_out) { /* a trace family's: rank dirs not entered, files dropped */
		out = run->trace->left_out;
		what = "rank";
	}
	buf[0] = '\0';
	if (!out || !run->opts || !run->opts->ranks)
		return false;
	snprintf(buf, n, "--ranks %s left %zu %s%s out", run->opts->ranks, out, what, out == 1 ? "" : "s");
	return true;
}

void steps_subset_coverage(const struct run *run, long world, char *buf, size_t n)
{
	char scope[160];
	long from;
	buf[0] = '\0';
	if (!steps_subset_scope(run, scope, sizeof(scope)))
		return;
	int k = snprintf(buf, n, ", a subset: %s", scope);
	if (world >= 0 && k > 0 && (size_t)k < n && ranklist_first_from(run->opts->ranks, world, &from))
		snprintf(buf + k, n - (size_t)k, "; it names ids from %ld, beyond world_size %ld", from, world);
}

/* The largest world_size the ranks' run.json files say (an elastic job's ranks may say
 * the size they started at), *lo the smallest; -1 when none says one. */
static long meta_world_size(const struct steps_model *m, long *lo)
{
	long hi = -1;
	*lo = -1;
	for (size_t ri = 0; ri < steps_nranks(m); ri++) {
		const struct steps_meta *x = steps_rank_meta(m, ri);
		if (!x->present || !x->has_world)
			continue;
		*lo = *lo < 0 || x->world_size < *lo ? x->world_size : *lo;
		hi = x->world_size > hi ? x->world_size : hi;
	}
	return hi;
}

/* The run's world_size: the largest its ranks' run.json files say, else its trace's
 * (distributedInfo; then *traces is set when traces is not NULL), else -1. */
static long run_world_size(const struct run *run, bool *traces)
{
	long lo, world = meta_world_size(run->steps, &lo);
	if (traces)
		*traces = world < 0;
	return world < 0 ? trace_world_size(run) : world;
}

/* The distinct world_size values the ranks' run.json files say, ascending, the first
 * max of them into vals; returns how many there are. */
enum { WS_SAID = 4 };
static size_t world_sizes(const struct steps_model *m, long *vals, size_t max)
{
	size_t nv = 0;
	long v;
	meta_world_size(m, &v); /* the smallest, -1 without any */
	for (; v >= 0; nv++) {
		if (nv < max)
			vals[nv] = v;
		long next = -1;
		for (size_t ri = 0; ri < steps_nranks(m); ri++) {
			const struct steps_meta *x = steps_rank_meta(m, ri);
			if (x->present && x->has_world && x->world_size > v && (next < 0 || x->world_size < next))
				next = x->world_size;
		}
		v = next;
	}
	return nv;
}

/* Which ranks' run.json say which world_size ("ranks 0-7 say 8, ranks 8-13 say 16", the
 * smallest first, at most WS_SAID values) into buf; false when they do not disagree. */
static bool world_sizes_said(const struct steps_model *m, char *buf, size_t n)
{
	long vals[WS_SAID], *ids = xmalloc((steps_nranks(m) + 1) * sizeof(*ids));
	size_t nv = world_sizes(m, vals, WS_SAID), used = 0;
	buf[0] = '\0';
	for (size_t k = 0; nv > 1 && k < nv && k < WS_SAID && used < n; k++) {
		size_t nids = 0;
		for (size_t ri = 0; ri < steps_nranks(m); ri++) {
			const struct steps_meta *x = steps_rank_meta(m, ri);
			if (x->present && x->has_world && x->world_size == vals[k])
				ids[nids++] = steps_rank_id(m, ri);
		}
		char list[96];
		bool fits = ranklist_format(ids, nids, list, sizeof(list));
		used += (size_t)snprintf(buf + used, n - used, "%srank%s %s say%s %ld%s", k ? ", " : "",
					 nids == 1 ? "" : "s", fits ? list : "(many)", nids == 1 ? "s" : "", vals[k],
					 k + 1 == WS_SAID && nv > WS_SAID ? ", ..." : "");
	}
	free(ids);
	return nv > 1;
}

/* "; the ranks disagree on world_size (8, 16), judged against the largest" into buf, ""
 * when they do not. */
static void world_sizes_disagree(const struct steps_model *m, char *buf, size_t n)
{
	long vals[WS_SAID];
	size_t nv = world_sizes(m, vals, WS_SAID), used = 0;
	buf[0] = '\0';
	for (size_t k = 0; nv > 1 && k < nv && k < WS_SAID && used < n; k++)
		used += (size_t)snprintf(buf + used, n - used, "%s%ld",
					 k ? ", " : "; the ranks disagree on world_size (", vals[k]);
	if (nv > 1 && used < n)
		snprintf(buf + used, n - used, "%s), judged against the largest", nv > WS_SAID ? ", ..." : "");
}

/* The ranks of the run's world_size that no rank dir (or trace) gave, of those --ranks
 * names when it left rank dirs out; none without a world_size. Without step ranks (traces
 * without a ProfilerStep), the ranks no trace gave. */
static void ranks_missing(const struct run *run, struct summary_ids *out)
{
	const struct steps_model *m = run->steps;
	const struct trace_set *ts = steps_nranks(m) ? NULL : run->trace;
	out->n = out->used = 0;
	out->text[0] = '\0';
	if (!steps_nranks(m) && !(ts && ts->n))
		return;
	long world = run_world_size(run, NULL);
	const char *asked = (ts ? ts->left_out : steps_left_out(m)) ? run->opts->ranks : NULL;
	for (long r = 0; r < world && r < 1000000; r++)
		if ((!asked || ranklist_has(asked, r)) &&
		    (ts ? !trace_rank_of(run, (int)r) : steps_rank_index(m, (int)r) < 0))
			summary_ids_add(out, r);
}

bool steps_partial_scope(const struct run *run, char *buf, size_t n)
{
	bool subset = steps_subset_scope(run, buf, n);
	struct summary_ids missing;
	ranks_missing(run, &missing);
	if (!missing.n)
		return subset;
	char what[SUMMARY_TEXT + 8];
	if (missing.n <= 3)
		snprintf(what, sizeof(what), "rank%s %s", missing.n == 1 ? "" : "s", missing.text);
	else
		snprintf(what, sizeof(what), "%zu ranks", missing.n);
	size_t used = strlen(buf);
	char disagree[96];
	world_sizes_disagree(run->steps, disagree, sizeof(disagree));
	snprintf(buf + used, n - used, "%s%s of world_size %ld missing%s", subset ? "; " : "", what,
		 run_world_size(run, NULL), disagree);
	return true;
}

/* Why there is no distributed analysis of two ranks or more: no step is on every rank,
 * most often because some ranks have no step record at all (a rank that died before its
 * first step). pytscope says nothing then; the report and the Overview say so. */
static void summary_not_distributed(const struct run *run, struct summary *out)
{
	const struct steps_model *m = run->steps;
	if (steps_nranks(m) < 2 || steps_naligned(m))
		return;
	struct summary_ids empty = { .n = 0 };
	long *kept = xmalloc(steps_nranks(m) * sizeof(*kept)); /* the ranks with records, for --ranks */
	size_t nkept = 0;
	for (size_t ri = 0; ri < steps_nranks(m); ri++)
		if (!steps_nrecords(m, ri))
			summary_ids_add(&empty, steps_rank_id(m, ri));
		else
			kept[nkept++] = steps_rank_id(m, ri);
	char list[80];
	bool listed = empty.n && nkept && ranklist_format(kept, nkept, list, sizeof(list));
	free(kept);
	if (!nkept) /* no record at all: the steps line says none */
		return;
	if (empty.n)
		summary_add(out, TONE_WARN, "stragglers",
			    "not judged: rank%s %s%s ha%s no step record, so no step is on every rank (--ranks %s "
			    "judges the others)", empty.n > 1 ? "s" : "", empty.text, summary_ids_more(&empty),
			    empty.n > 1 ? "ve" : "s", listed ? list : "LIST");
	else
		summary_add(out, TONE_WARN, "stragglers", "not judged: no step number is on every rank");
}

static void summary_distributed(struct run *run, struct summary *out)
{
	const struct distributed *d = analysis_distributed(run);
	if (!d) {
		summary_not_distributed(run, out);
		return;
	}
	char wall[32], step[32], why[SUMMARY_TEXT / 2];
	const char *unmeasured = analysis_wall_unmeasured(run, why, sizeof(why));
	if (unmeasured) /* not 0 s, nor the walls of some ranks as the run's */
		summary_add(out, TONE_WARN, "run wall", "n/a: %s", unmeasured);
	else
		summary_add(out, TONE_NORMAL, "run wall", "%s (sum of step walls: mean %s x %zu aligned step%s)",
			    units_seconds(d->mean_step_wall * (double)d->n_steps, wall, sizeof(wall)),
			    units_seconds(d->mean_step_wall, step, sizeof(step)), d->n_steps,
			    d->n_steps == 1 ? "" : "s");
	char comm[SUMMARY_TEXT / 2 + 16];
	unmeasured = analysis_comm_unmeasured(run, why, sizeof(why));
	if (unmeasured) /* not 0% of the step wall, nor some ranks' share */
		snprintf(comm, sizeof(comm), "comm n/a (%s)", unmeasured);
	else if (isfinite(d->mean_comm_fraction)) /* on its side of DIST.COMM_BOUND's bars */
		snprintf(comm, sizeof(comm), "comm %s%% of step wall",
			 analysis_comm_share_text(d->mean_comm_fraction, 1, why, sizeof(why)));
	else   /* a NaN in the walls */
		snprintf(comm, sizeof(comm), "comm n/a (a NaN or infinite phase value)");
	char line[SUMMARY_TEXT], of[48] = "";
	bool partial = steps_straggler_verdict(run, line, sizeof(line));
	const char *unweighable = analysis_compute_unweighable(run);
	if (partial)
		snprintf(of, sizeof(of), " among the %zu ranks loaded", steps_nranks(run->steps));
	if (!unweighable)
		summary_add(out, TONE_NORMAL, "imbalance",
			    "%.1f%% of critical compute lost to imbalance%s; imbalance cv %.3f; %s",
			    d->wall_frac_lost * 100, of, d->imbalance_cv, comm);
	else
		summary_add(out, TONE_WARN, "imbalance", "n/a: %s; %s", unweighable, comm);
	/* "none" over part of the run, or not judged, is no verdict on the ranks: not green */
	summary_add(out, d->nstragglers ? TONE_BAD : steps_stragglers_judged(run, partial) ? TONE_GOOD : TONE_NORMAL,
		    "stragglers", "%s", line);
}

bool steps_stragglers_judged(struct run *run, bool partial)
{
	const struct distributed *d = analysis_distributed(run);
	return !partial && d && d->n_steps >= STRAG_MIN_JUDGE && !analysis_compute_unweighable(run) &&
	       analysis_gap_rank(d) < 0 && analysis_late_rank(d) < 0;
}

bool steps_straggler_verdict(struct run *run, char *buf, size_t n)
{
	const struct distributed *d = analysis_distributed(run);
	char scope[200];
	bool partial = steps_partial_scope(run, scope, sizeof(scope));
	if (!analysis_has_compute(run->steps)) { /* every compute 0: no rank is slower */
		snprintf(buf, n, "not judged: no compute phase recorded (data, forward, backward, optimizer, "
			 "compute or other: the ranks are compared on their sum)");
		return partial;
	}
	const char *unweighable = analysis_compute_unweighable(run);
	if (unweighable) { /* phases recorded as zeros, or not comparable: no verdict either */
		snprintf(buf, n, "not judged: %s%s", unweighable,
			 unweighable == analysis_compute_zero ? " on every aligned step" : "");
		return partial;
	}
	analysis_straggler_line(d, buf, n);
	size_t used = strlen(buf);
	if (partial && (d->nstragglers || d->n_steps >= STRAG_MIN_JUDGE)) /* "not judged" needs no scope */
		snprintf(buf + used, n - used, " among the %zu ranks loaded (%s)", steps_nranks(run->steps), scope);
	return partial;
}

/* Why b has no MFU, into buf: when it is for want of FLOPs or a peak and rank 0's
 * run.json, which would give them, cannot be read (unread), that ("rank 0's run.json
 * cannot be read (truncated at byte 51)"); after: what follows "MFU n/a" after the
 * efficiency's n/a (analysis_budget_mfu_na_after). */
static const char *summary_mfu_na(struct run *run, const struct budget *b, const char *unread, bool after, char *buf,
				  size_t n)
{
	const char *why = after ? analysis_budget_mfu_na_after(b) : analysis_budget_mfu_na(b);
	if (!unread || strcmp(why, BUDGET_NO_PEAK) != 0)
		return why;
	snprintf(buf, n, "rank %d's run.json cannot be read (%s)", steps_rank_id(run->steps, 0), unread);
	return buf;
}

/* Rank 0's budget (as pytscope's report), or why it has none; nothing when no rank has a
 * record (the steps line says so). unread: why rank 0's run.json cannot be read, or NULL. */
static void summary_budget(struct run *run, const char *unread, struct summary *out)
{
	const struct budget *b = analysis_budget(run, 0);
	char wall[32], secs[32], why_absent[160], pct[40], mfu_na[SUMMARY_TEXT];
	if (!b) {
		if (steps_has_records(run))
			summary_add(out, TONE_WARN, "budget", "n/a: %s",
				    analysis_budget_why_absent(run, 0, why_absent, sizeof(why_absent)));
		return;
	}
	units_seconds(b->wall, wall, sizeof(wall));
	const char *why = summary_mfu_na(run, b, unread, true, mfu_na, sizeof(mfu_na));
	if (b->has_mfu)
		summary_add(out, TONE_NORMAL, "budget", "efficiency %.1f%% of rank wall %s (rank %d); MFU %s%%%s%s%s",
			    b->efficiency * 100, wall, steps_rank_id(run->steps, 0),
			    analysis_budget_mfu_text(b, 1, pct, sizeof(pct)),
			    b->peak_table ? " (peak from GPU table: " : "", b->peak_table ? b->peak_table : "",
			    b->peak_table ? ")" : "");
	else if (!b->judged) /* the rank wall is the compute alone: a share of 100% says nothing */
		summary_add(out, TONE_NORMAL, "budget",
			    "n/a: %s, rank wall %s (rank %d); MFU n/a%s%s", analysis_budget_unjudged(b), wall,
			    steps_rank_id(run->steps, 0), *why ? ": " : "", why);
	else /* without FLOPs "efficiency" would only be the compute share: say what it is */
		summary_add(out, TONE_NORMAL, "budget",
			    "compute %.1f%% of rank wall %s (rank %d); MFU n/a: %s", b->efficiency * 100, wall,
			    steps_rank_id(run->steps, 0),
			    summary_mfu_na(run, b, unread, false, mfu_na, sizeof(mfu_na)));
	if (b->nrecoverable) { /* natively n/a while the compute overhead, unknown, could be the larger */
		int top = analysis_budget_top(run, b), k = top >= 0 ? top : b->recoverable[0];
		summary_add(out, TONE_NORMAL, "top recoverable", "%s%s %s (%s%%)",
			    top >= 0 ? "" : "n/a: compute overhead unknown (MFU n/a); largest measured ",
			    b->line[k].name, units_seconds(b->line[k].seconds, secs, sizeof(secs)),
			    analysis_budget_share_text(b, k, 1, pct, sizeof(pct)));
	}
	char left[SUMMARY_TEXT]; /* natively, time in a phase of no line: the shares are not the step's */
	if (analysis_budget_left_out(run, b, left, sizeof(left)))
		summary_add(out, TONE_WARN, "not in budget", "%s", left);
}

/* The coverage line of n ranks whose run.json files disagree on world_size (said: which
 * say which): judged against the largest, world; never "all ranks" in the good tone. */
static void summary_coverage_sizes(struct summary *out, size_t n, long world, const char *said, const char *subset,
				   const struct summary_ids *missing, const struct summary_ids *beyond)
{
	char why[SUMMARY_TEXT + 80], miss[SUMMARY_TEXT + 16] = "";
	snprintf(why, sizeof(why), "the ranks disagree on world_size: %s; judged against the largest", said);
	if (missing->n)
		snprintf(miss, sizeof(miss), "; missing %s%s", missing->text, summary_ids_more(missing));
	if (beyond->n)
		summary_add(out, TONE_BAD, "coverage",
			    "%zu ranks against world_size %ld (%s)%s: rank%s %s%s beyond it%s", n, world, why, subset,
			    beyond->n > 1 ? "s" : "", beyond->text, summary_ids_more(beyond), miss);
	else
		summary_add(out, missing->n ? TONE_BAD : TONE_WARN, "coverage", "%zu of %ld ranks (%s)%s%s", n, world,
			    why, subset, miss);
}

/* "run.json", or of several ranks "rank 0's run.json": the lowest rank's, into buf. */
static const char *summary_whose(const struct steps_model *m, char *buf, size_t n)
{
	if (steps_nranks(m) > 1)
		snprintf(buf, n, "rank %d's run.json", steps_rank_id(m, 0));
	else
		snprintf(buf, n, "run.json");
	return buf;
}

/* Appends "; rank 3 has no step record" (its log empty, unreadable or all bad) to buf, for
 * the ranks found without one: present is not covered. */
static void summary_no_records(const struct steps_model *m, char *buf, size_t n)
{
	struct summary_ids none = { .n = 0 };
	for (size_t ri = 0; ri < steps_nranks(m); ri++) {
		long lo, hi;
		if (!steps_rank_span(m, ri, &lo, &hi))
			summary_ids_add(&none, steps_rank_id(m, ri));
	}
	size_t used = strlen(buf);
	if (none.n && used < n)
		snprintf(buf + used, n - used, "; rank%s %s%s %s no step record", none.n > 1 ? "s" : "", none.text,
			 summary_ids_more(&none), none.n > 1 ? "have" : "has");
}

/* Ranks found against the world_size (run_world_size), with the missing rank ids; without
 * one, why: unread (why the lowest rank's run.json cannot be read, or NULL), a world_size
 * that is no rank count (steps_meta_world_unused), or none in run.json. */
static void summary_coverage(struct run *run, const struct steps_meta *meta, const char *unread,
			     struct summary *out)
{
	const struct steps_model *m = run->steps;
	size_t n = steps_nranks(m);
	/* --ranks left rank dirs out: only the ranks it names can be missing (ranks_missing) */
	bool traces;
	long world = run_world_size(run, &traces);
	char subset[512];
	steps_subset_coverage(run, world, subset, sizeof(subset));
	summary_no_records(m, subset, sizeof(subset));
	char whose[48], unusable[SUMMARY_TEXT];
	if (world < 0 && unread) {
		summary_add(out, TONE_WARN, "coverage", "%zu ranks%s; world_size n/a (%s cannot be read: %s)", n,
			    subset, summary_whose(m, whose, sizeof(whose)), unread);
	} else if (world < 0 && steps_meta_world_unused(run, n > 1, unusable, sizeof(unusable))) {
		summary_add(out, TONE_WARN, "coverage", "%zu ranks%s; world_size n/a (%s)", n, subset, unusable);
	} else if (world < 0) {
		summary_add(out, *subset ? TONE_WARN : TONE_NORMAL, "coverage", "%zu ranks%s; world_size n/a (not in "
			    "run.json)", n, subset);
	} else {
		struct summary_ids missing, beyond = { .n = 0 };
		ranks_missing(run, &missing);
		for (size_t ri = 0; ri < n; ri++)
			if (steps_rank_id(m, ri) >= world)
				summary_ids_add(&beyond, steps_rank_id(m, ri));
		char said[SUMMARY_TEXT];
		if (!traces && world_sizes_said(m, said, sizeof(said)))
			summary_coverage_sizes(out, n, world, said, subset, &missing, &beyond);
		else
			summary_add_coverage(out, n, world, traces ? "the traces' world_size" : "world_size", subset,
					     &missing, &beyond);
	}
}

/* The steps found against run.json's n_steps (lowest rank's). */
static void summary_steps_found(const struct steps_model *m, const struct steps_meta *meta, struct summary *out)
{
	long lo = -1, hi = -1;
	for (size_t ri = 0; ri < steps_nranks(m); ri++) {
		long a, b;
		if (steps_rank_span(m, ri, &a, &b)) {
			lo = lo < 0 || a < lo ? a : lo;
			hi = b > hi ? b : hi;
		}
	}
	if (meta->has_nsteps && lo < 0)
		summary_add(out, TONE_WARN, "steps found", "none of run.json n_steps %ld", meta->n_steps);
	else if (meta->has_nsteps) /* steps before the first are warmup (pytscope does not write them) */
		summary_add(out, hi + 1 >= meta->n_steps ? TONE_NORMAL : TONE_WARN, "steps found",
			    "%ld-%ld (%zu distinct) of run.json n_steps %ld%s", lo, hi, steps_nunion(m), meta->n_steps,
			    hi + 1 < meta->n_steps ? ": the last ones are missing" : "");
}

/* "k=v, ..." of a flat list (unsanitized here; summary_add sanitizes). */
static void join_kv(char *buf, size_t n, char *const *k, char *const *v, size_t nkv)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < nkv && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s=%s", i ? ", " : "", k[i], v[i] ? v[i] : "null");
}

void steps_ends(const struct steps_model *m, struct steps_ends *e)
{
	*e = (struct steps_ends){ .first_lo = LONG_MAX, .first_hi = LONG_MIN, .last_lo = LONG_MAX,
				  .last_hi = LONG_MIN };
	size_t at_first = 0, at_last = 0; /* ranks at the earliest start, at the latest end so far */
	long a, b;
	for (size_t r = 0; r < steps_nranks(m); r++) {
		if (!steps_rank_span(m, r, &a, &b))
			continue;
		e->n++;
		if (a < e->first_lo) {
			e->first_lo = a;
			e->first_lo_r = r;
			at_first = 0;
		}
		at_first += a == e->first_lo;
		if (a > e->first_hi) {
			e->first_hi = a;
			e->first_hi_r = r;
		}
		if (b < e->last_lo) {
			e->last_lo = b;
			e->last_lo_r = r;
		}
		if (b > e->last_hi) {
			e->last_hi = b;
			e->last_hi_r = r;
			at_last = 0;
		}
		at_last += b == e->last_hi;
	}
	e->late = e->n - at_first;
	e->early = e->n - at_last;
	const struct steps_meta *meta0 = steps_nranks(m) ? steps_rank_meta(m, 0) : NULL;
	e->running = m->live && !(meta0 && meta0->present && steps_meta_finished(meta0));
}

/* Where the rules across ranks read steps, "cross-rank analyses start at 30" (what:
 * "start at" or "stop at", step), into buf; "no step is on every rank" when a rank starts
 * after another ends. */
static void ends_cross(const struct steps_ends *e, const char *what, long step, char *buf, size_t n)
{
	if (e->first_hi > e->last_lo)
		snprintf(buf, n, "no step is on every rank");
	else
		snprintf(buf, n, "cross-rank analyses %s %ld", what, step);
}

/* Ranks whose steps start after the others' (a rank that joined late or started logging
 * late, a restarted rank whose log was replaced): the steps before its first are on no
 * rank-to-rank analysis, which reads the steps on every rank, so the imbalance and
 * stragglers lines judge the later part alone (the heatmap starts there too). */
static void summary_starts(const struct steps_model *m, const struct steps_ends *e, struct summary *out)
{
	if (e->n < 2 || e->first_lo == e->first_hi)
		return;
	char cross[64];
	ends_cross(e, "start at", e->first_hi, cross, sizeof(cross));
	summary_add(out, TONE_WARN, "ranks start", "rank %d at step %ld, rank %d at %ld (%zu of %zu start late); %s",
		    steps_rank_id(m, e->first_hi_r), e->first_hi, steps_rank_id(m, e->first_lo_r), e->first_lo, e->late,
		    e->n, cross);
}

/* Ranks whose steps end before the others' (a rank that died, hung or stopped logging):
 * the steps after its last are on no rank-to-rank analysis, which reads the steps on
 * every rank, so the imbalance and stragglers lines would judge the common part alone.
 * In a live run that run.json does not call finished, the ranks have not ended: they are
 * at different steps as a running job's ranks are (a rank that stopped is the follower's
 * LIVE.STALLED_RANK), so the line says where they are, in the normal tone. */
static void summary_ends(const struct steps_model *m, const struct steps_ends *e, struct summary *out)
{
	if (e->n < 2 || e->last_lo == e->last_hi)
		return;
	char cross[64];
	ends_cross(e, "stop at", e->last_lo, cross, sizeof(cross));
	summary_add(out, e->running ? TONE_NORMAL : TONE_WARN, e->running ? "ranks at" : "ranks end",
		    "rank %d at step %ld, rank %d at %ld (%zu of %zu %s); %s", steps_rank_id(m, e->last_lo_r),
		    e->last_lo, steps_rank_id(m, e->last_hi_r), e->last_hi, e->early, e->n,
		    e->running ? "behind, the run is live" : "end early", cross);
}

/* Ranks that lack steps between the ends that others have (a rank that skipped steps, a
 * log with a hole): those steps are on no rank-to-rank analysis either (steps_gaps_find),
 * so the imbalance and stragglers lines judge the other steps alone. */
static void summary_gaps(const struct steps_model *m, const struct steps_ends *e, struct summary *out)
{
	struct steps_gaps g;
	if (!steps_gaps_find(m, e, &g))
		return;
	summary_add(out, TONE_WARN, "ranks lack",
		    "%s %s %sstep%s %s (%zu step%s other ranks have); cross-rank analyses leave %s out", g.ranks,
		    g.nranks > 1 ? "lack" : "lacks", g.nranks > 1 ? "some of " : "", g.nsteps > 1 ? "s" : "", g.steps,
		    g.nsteps, g.nsteps > 1 ? "s" : "", g.nsteps > 1 ? "them" : "it");
}

/* The ranks whose run.json names another run than the lowest rank's, or another
 * world_size: rank dirs of different runs under one run dir are named, not merged
 * silently (DESIGN 11). */
/* Ranks whose run.json started times lie more than MIXED_START_S apart: the ranks of
 * one job start within minutes, so rank dirs of two runs under one name (pytscope's
 * default "run") are named. */
#define MIXED_START_S 3600.0

static void summary_started(const struct steps_model *m, struct summary *out)
{
	size_t lo = 0, hi = 0, n = 0;
	for (size_t r = 0; r < steps_nranks(m); r++) {
		const struct steps_meta *x = steps_rank_meta(m, r);
		if (!x->present || !x->has_started)
			continue;
		if (n++ == 0 || x->started < steps_rank_meta(m, lo)->started)
			lo = r;
		if (n == 1 || x->started > steps_rank_meta(m, hi)->started)
			hi = r;
	}
	double spread = n ? steps_rank_meta(m, hi)->started - steps_rank_meta(m, lo)->started : 0;
	if (!(spread > MIXED_START_S))
		return;
	bool days = spread >= 86400;
	summary_add(out, TONE_BAD, "mixed runs", "rank %d's run.json started %.1f %s after rank %d's: ranks of "
		    "one job start within minutes; rank dirs of two runs?", steps_rank_id(m, hi),
		    days ? spread / 86400 : spread / 3600, days ? "days" : "hours", steps_rank_id(m, lo));
}

static void summary_mixed(const struct run *run, const struct steps_meta *m0, struct summary *out)
{
	const struct steps_model *m = run->steps;
	size_t nname = 0, nworld = 0, first_name = 0, first_world = 0;
	for (size_t r = 1; r < steps_nranks(m); r++) {
		const struct steps_meta *x = steps_rank_meta(m, r);
		if (!x->present)
			continue;
		bool name = (x->name || m0->name) && (!x->name || !m0->name || strcmp(x->name, m0->name) != 0);
		bool world = x->has_world && m0->has_world && x->world_size != m0->world_size;
		if (name && nname == 0)
			first_name = r;
		if (world && nworld == 0)
			first_world = r;
		nname += name;
		nworld += world;
	}
	int r0 = steps_rank_id(m, 0);
	if (nname) {
		const struct steps_meta *x = steps_rank_meta(m, first_name);
		summary_add(out, TONE_BAD, "mixed runs", "rank %d's run.json names '%s', rank %d's '%s' (%zu of %zu ranks "
			    "differ): rank dirs of other runs?", steps_rank_id(m, first_name), x->name ? x->name : "(none)",
			    r0, m0->name ? m0->name : "(none)", nname, steps_nranks(m));
	}
	if (nworld) {
		const struct steps_meta *x = steps_rank_meta(m, first_world);
		summary_add(out, TONE_BAD, "mixed runs", "rank %d's run.json says world_size %ld, rank %d's %ld (%zu of %zu "
			    "ranks differ)", steps_rank_id(m, first_world), x->world_size, r0, m0->world_size, nworld,
			    steps_nranks(m));
	}
}

/* run.json config or environment keys a few ranks set otherwise (config_diff.h); with
 * no majority, against the lowest rank: "config varies" in the normal tone (a key may be
 * set per rank), an environment that differs at all in the warning one. */
static void summary_config(const struct steps_model *m, enum diff_scope scope, struct summary *out)
{
	struct config_diff c;
	if (!steps_config_diff(m, scope, &c))
		return;
	bool config = scope == DIFF_CONFIG;
	if (!c.split)
		summary_add(out, TONE_WARN, config ? "config differs" : "env differs",
			    "rank %d's %s=%s, the other ranks' %s (%zu of %zu ranks differ%s%s; keys: %s)",
			    steps_rank_id(m, c.first), c.key, c.value, c.others, c.ndiff, c.n, c.ranks[0] ? ": " : "", c.ranks,
			    c.keys);
	else
		summary_add(out, config ? TONE_NORMAL : TONE_WARN, config ? "config varies" : "env differs",
			    "rank %d's %s=%s, rank %d's %s (%zu of %zu ranks differ from rank %d%s%s, no majority; keys: %s)",
			    steps_rank_id(m, c.first), c.key, c.value, steps_rank_id(m, 0), c.others, c.ndiff, c.n,
			    steps_rank_id(m, 0), c.ranks[0] ? ": " : "", c.ranks, c.keys);
}

/* run.json environment of the lowest rank: gpu, gpu_count, torch, cuda, python (what
 * decides performance), then how many other keys; and its config. Of several ranks,
 * which rank's run.json they are is said. */
static void summary_env(const struct steps_model *m, const struct steps_meta *meta, struct summary *out)
{
	char whose[48], of[56] = "";
	summary_whose(m, whose, sizeof(whose));
	if (steps_nranks(m) > 1)
		snprintf(of, sizeof(of), " (%s)", whose);
	static const char *const first[] = { "gpu", "gpu_count", "torch", "cuda", "python" };
	char *k[64], *v[64], buf[SUMMARY_TEXT];
	size_t nkv = 0, nenv = 0;
	for (size_t i = 0; i < meta->nenv; i++)
		nenv += !steps_is_config_key(meta->env_key[i]);
	for (size_t f = 0; f < ARRAY_LEN(first); f++)
		for (size_t i = 0; i < meta->nenv && nkv < ARRAY_LEN(k); i++) /* a key may repeat */
			if (strcmp(meta->env_key[i], first[f]) == 0) {
				k[nkv] = meta->env_key[i];
				v[nkv++] = meta->env_val[i];
			}
	join_kv(buf, sizeof(buf), k, v, nkv);
	size_t more = nenv > nkv ? nenv - nkv : 0;
	if (more)
		summary_add(out, TONE_NORMAL, "environment", "%s%s(%zu more key%s in %s)", buf, nkv ? "; " : "", more,
			    more == 1 ? "" : "s", whose);
	else if (nenv)
		summary_add(out, TONE_NORMAL, "environment", "%s%s", buf, of);
	else
		summary_add(out, TONE_NORMAL, "environment", "n/a (not in %s)", whose);
	nkv = 0;
	for (size_t i = 0; i < meta->nenv && nkv < ARRAY_LEN(k); i++)
		if (strncmp(meta->env_key[i], "config.", 7) == 0) {
			k[nkv] = meta->env_key[i] + 7;
			v[nkv++] = meta->env_val[i];
		}
	bool empty = false;
	for (size_t i = 0; i < meta->nenv; i++)
		empty |= strcmp(meta->env_key[i], "config") == 0;
	join_kv(buf, sizeof(buf), k, v, nkv);
	if (nkv)
		summary_add(out, TONE_NORMAL, "config", "%s%s", buf, of);
	else
		summary_add(out, TONE_NORMAL, "config", "%s (%s in %s)", empty ? "{}" : "n/a", empty ? "empty" : "not",
			    whose);
}

/* The environment and config lines when the lowest rank's run.json cannot be read (unread: why). */
static void summary_env_unread(const struct steps_model *m, const char *unread, struct summary *out)
{
	char whose[48];
	summary_whose(m, whose, sizeof(whose));
	summary_add(out, TONE_WARN, "environment", "n/a (%s cannot be read: %s)", whose, unread);
	summary_add(out, TONE_WARN, "config", "n/a (%s cannot be read: %s)", whose, unread);
}

/* Ranks, aligned steps, wall time, imbalance, the straggler set and the budget. */
static void steps_summary(struct run *run, struct summary *out)
{
	const struct steps_model *m = run->steps;
	if (!m)
		return;
	if (!steps_nranks(m)) {
		summary_add(out, TONE_NORMAL, "ranks", "no per-rank step records");
		return;
	}
	summary_add(out, TONE_NORMAL, "ranks", "%zu", steps_nranks(m));
	/* --compat pytscope of steps built from ProfilerSteps: pytscope reads none of them
	 * (model/compat.h), so no line is made from them, as the panes leave them out */
	const char *refused = compat_view_refusal(run, "steps");
	if (refused)
		summary_add(out, TONE_NORMAL, "steps", "%s", refused);
	else if (steps_has_records(run))
		summary_add(out, TONE_NORMAL, "steps", "%zu aligned across ranks, %zu distinct", steps_naligned(m),
			    steps_nunion(m));
	else
		summary_add(out, TONE_WARN, "steps", "none: no rank has a step record (Sources lists what was read)");
	const struct steps_meta *meta = steps_rank_meta(m, 0);
	struct steps_ends ends;
	steps_ends(m, &ends);
	if (!refused) {
		summary_starts(m, &ends, out);
		summary_ends(m, &ends, out);
		summary_gaps(m, &ends, out);
	}
	if (meta->present)
		summary_mixed(run, meta, out);
	summary_started(m, out); /* over the ranks with a run.json, the lowest one's or not */
	if (meta->present) {
		summary_config(m, DIFF_CONFIG, out);
		summary_config(m, DIFF_ENV, out);
	}
	/* run.json found but not read (truncated, invalid): n/a saying why, not left out */
	char why[SUMMARY_TEXT];
	const char *unread = meta->present ? NULL : steps_meta_unread(run, steps_rank_id(m, 0), why, sizeof(why));
	/* a subset says so, run.json or not; so do traces that know the world_size */
	if (meta->present || unread || steps_left_out(m) || run_world_size(run, NULL) >= 0)
		summary_coverage(run, meta, unread, out);
	if (!refused) {
		summary_steps_found(m, meta, out);
		summary_distributed(run, out);
		summary_budget(run, unread, out);
	}
	if (meta->present)
		summary_env(m, meta, out);
	else if (unread)
		summary_env_unread(m, unread, out);
}

static void steps_not_judged(struct run *run, struct not_judged *nj)
{
	if (!steps_has_records(run)) { /* traces without one: every step rule; else findings_unjudged() says */
		steps_unjudged_unrecorded(run, nj);
		return;
	}
	steps_unjudged(run, nj);
	rules_cross_unjudged(run, nj);
}

static void steps_free(struct run *run)
{
	steps_model_free(run->steps);
	run->steps = NULL;
}

const struct subsystem sub_steps = {
	.name = "steps",
	.loaders = pytscope_loaders,
	.nloaders = ARRAY_LEN(pytscope_loaders),
	.views = steps_views,
	.nviews = STEPS_NVIEWS,
	.rules = steps_rules,
	.nrules = STEPS_NRULES,
	.slicers = steps_rule_slicers,
	.nslicers = STEPS_NSLICERS,
	.grids = steps_grids,
	.ngrids = ARRAY_LEN(steps_grids),
	.tabs = steps_tabs,
	.ntabs = ARRAY_LEN(steps_tabs),
	.finalize = steps_fin,
	.has_data = steps_has_data,
	.view_has_data = steps_view_has_data,
	.has_records = steps_has_records,
	.summary = steps_summary,
	.unjudged = steps_not_judged,
	.free = steps_free,
};
