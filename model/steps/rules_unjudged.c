/* SPDX-License-Identifier: MIT */
/* rules_unjudged.c: what the step rules (rules.c) could not judge on a run and why
 * (the subsystem's `unjudged`, findings.h findings_not_judged): a rule that needs more
 * steps than rank 0 has, a loss, memory or a phase the run does not record, stragglers
 * without enough aligned steps or on the steps before a rank starts, after one ends and
 * that a rank lacks in between (on no rank-to-rank comparison: steps_gaps_find finds
 * those, for the headline too), a 2-rank gap neither rank's own compute explains (no
 * fail-slow named), a rise in the last steps too late to judge, an efficiency with
 * nothing to weigh or on a rank wall that leaves
 * out phases with a share of the time (fwd, bwd: ANALYSIS_OUTSIDE_BAR; so do the rules
 * across ranks), a phase value that
 * is not a duration (named where it is: shares, jitter, efficiency); on traces without a
 * step record (no ProfilerStep span, or none measured) every step rule, those across ranks
 * and beyond the ranks loaded too; each item with the
 * finding ids it stands for. So an empty findings list says what was not checked instead
 * of reading as "all is well", and a comparison calls a finding of one run "not judged"
 * where the other's rules could not give it. */
#include "model/steps/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/findings.h"
#include "model/ranklist.h"
#include "model/run.h"
#include "model/steps/nodes.h"
#include "model/steps/rules.h"
#include "model/text.h"
#include "model/trace/trace.h"
#include "model/xalloc.h"

/* The findings of the rules over rank 0's records, and of those that weigh its phase shares
 * (the ids each item stands for: findings.h findings_unjudged_add). */
#define IDS_SHARES "TIMING.DATALOADER_BOUND TIMING.BACKWARD_HEAVY TIMING.OPTIMIZER_HEAVY"
#define IDS_EFFICIENCY "EFFICIENCY.LOW_MFU EFFICIENCY.RECOVERABLE"
#define IDS_RANK0 IDS_SHARES " TIMING.JITTER CONVERGENCE.DIVERGED CONVERGENCE.NO_PROGRESS " \
	"CROSS.CORRELATED_INSTABILITY MEMORY.FRAGMENTATION MEMORY.GROWTH " IDS_EFFICIENCY
/* The findings of the rules across ranks that need aligned steps to weigh (not the comm share):
 * tscope-tui's straggler tests, which need STRAG_MIN_JUDGE of them, and pytscope's. */
#define IDS_NATIVE_STRAGGLERS "DIST.FAIL_SLOW DIST.SLOW_RANK DIST.TRANSIENT_STALL"
#define IDS_STRAGGLERS "DIST.STRAGGLER " IDS_NATIVE_STRAGGLERS
/* ... and with them every rule that weighs the ranks on their aligned steps. */
#define IDS_ALIGNED IDS_STRAGGLERS " DIST.LOAD_IMBALANCE NODE.SLOW_TOGETHER DIST.COMM_BOUND"

/* The phase-share findings a missing phase rules out: the data share, backward against
 * forward, the optimizer share. */
static void phase_ids(const struct timing *t, char *ids, size_t n)
{
	static const char *const need[][2] = { { "data", "TIMING.DATALOADER_BOUND" },
					       { "forward", "TIMING.BACKWARD_HEAVY" },
					       { "backward", "TIMING.BACKWARD_HEAVY" },
					       { "optimizer", "TIMING.OPTIMIZER_HEAVY" } };
	ids[0] = '\0';
	for (size_t i = 0; i < ARRAY_LEN(need); i++)
		if (!timing_has_phase(t, need[i][0]) && !strstr(ids, need[i][1]))
			text_appendf(ids, n, "%s%s", *ids ? " " : "", need[i][1]);
}

/* Rank 0's shares n/a (timing_why_na): the rules that weigh them and the step times
 * (jitter, when it has the steps it needs), and efficiency when rank 0's budget is n/a
 * for the same value or its sums overflow too (rules.c rule_efficiency); true when
 * efficiency was said. */
static bool shares_unjudged(struct run *run, const struct timing *t, const struct budget *b, struct not_judged *nj)
{
	char why[160], flaw[160];
	if (!timing_why_na(run, t, 0, why, sizeof(why)))
		return false;
	bool jitter = t->n >= JITTER_MIN_STEPS; /* fewer steps: said above */
	bool eff = b ? !isfinite(b->wall) : analysis_budget_why_none(run, 0, flaw, sizeof(flaw)) && !strcmp(flaw, why);
	char ids[160];
	snprintf(ids, sizeof(ids), IDS_SHARES "%s%s", jitter ? " TIMING.JITTER" : "", eff ? " " IDS_EFFICIENCY : "");
	const char *what = jitter && eff ? "phase shares, step-time jitter and efficiency"
			   : jitter      ? "phase shares and step-time jitter"
			   : eff	 ? "phase shares and efficiency"
					 : "phase shares";
	findings_unjudged_add(nj, ids, "%s (%s)", what, why);
	return eff;
}

/* No loss to judge divergence and plateau by on rank 0 (by: " by rank N" or ""): none recorded,
 * or the values its loader skipped as not numbers (steps_loss_not_numbers). */
static void no_loss_unjudged(const struct run *run, const char *by, struct not_judged *nj)
{
	size_t n = steps_loss_not_numbers(run->steps, 0);
	if (n == 0) {
		findings_unjudged_add(nj, "CONVERGENCE.DIVERGED CONVERGENCE.NO_PROGRESS",
				      "loss divergence and plateau (no loss recorded%s)", by);
		return;
	}
	char of[32] = "";
	if (*by)
		snprintf(of, sizeof(of), " of rank %d", steps_rank_id(run->steps, 0));
	findings_unjudged_add(nj, "CONVERGENCE.DIVERGED CONVERGENCE.NO_PROGRESS",
			      "loss divergence and plateau (%zu loss value%s%s %s)", n, n == 1 ? "" : "s", of,
			      n == 1 ? "is not a number" : "are not numbers");
}

/* The pytscope rules over rank 0's records: each needs a count of records or a series.
 * With several ranks "recorded by rank N": another rank may record what it lacks. */
static void rank0_unjudged(struct run *run, struct not_judged *nj)
{
	const struct timing *t = analysis_timing(run, 0);
	char by[32] = "";
	if (steps_nranks(run->steps) > 1)
		snprintf(by, sizeof(by), " by rank %d", steps_rank_id(run->steps, 0));
	if (t->n == 0) { /* --warmup covers every record: no rule has anything to read */
		size_t all = steps_nrecords(run->steps, 0);
		long wu = run->opts ? run->opts->warmup : 0L;
		findings_unjudged_add(nj, IDS_RANK0, "timing, loss and memory rules (all %zu record%s of rank %d %s inside "
				      "--warmup %ld: nothing left to analyse)", all, all == 1 ? "" : "s",
				      steps_rank_id(run->steps, 0), all == 1 ? "is" : "are", wu);
		return;
	}
	const char *steps = t->n == 1 ? "step" : "steps";
	if (t->n < CROSS_MIN_STEPS)
		findings_unjudged_add(nj, "TIMING.JITTER CROSS.CORRELATED_INSTABILITY",
				      "step-time jitter and correlated spikes (rank 0: %zu %s, they need %d "
				      "and %d)", t->n, steps, JITTER_MIN_STEPS, CROSS_MIN_STEPS);
	else if (t->n < JITTER_MIN_STEPS)
		findings_unjudged_add(nj, "TIMING.JITTER", "step-time jitter (rank 0: %zu %s, needs %d)", t->n, steps,
				      JITTER_MIN_STEPS);
	else if (t->nphase == 0) /* no step time: not a steady one */
		findings_unjudged_add(nj, "TIMING.JITTER", "step-time jitter (no phase recorded%s)", by);
	static const char *const need[] = { "data", "forward", "backward", "optimizer" };
	char list[64] = "";
	size_t nm = 0, left = 0;
	for (size_t i = 0; i < ARRAY_LEN(need); i++)
		left += !timing_has_phase(t, need[i]);
	for (size_t i = 0; i < ARRAY_LEN(need); i++) /* "a", "a or b", "a, b or c" */
		if (!timing_has_phase(t, need[i])) {
			size_t at = strlen(list);
			snprintf(list + at, sizeof(list) - at, "%s%s", nm == 0 ? "" : nm + 1 < left ? ", " : " or ",
				 need[i]);
			nm++;
		}
	char ids[128];
	phase_ids(t, ids, sizeof(ids));
	if (nm)
		findings_unjudged_add(nj, ids, "phase-share rules (no %s phase recorded%s)", list, by);
	const struct budget *b = analysis_budget(run, 0);
	bool eff_said = shares_unjudged(run, t, b, nj);
	const struct convergence *c = analysis_convergence(run, 0);
	if (!c->has_loss)
		no_loss_unjudged(run, by, nj);
	else if (c->n_steps < PROGRESS_MIN_STEPS)
		findings_unjudged_add(nj, "CONVERGENCE.NO_PROGRESS",
				      "loss plateau (%zu step%s, needs %d)", c->n_steps, c->n_steps == 1 ? "" : "s",
				      PROGRESS_MIN_STEPS);
	const struct memory *m = analysis_memory(run, 0);
	if (!m->has_memory)
		findings_unjudged_add(nj, "MEMORY.FRAGMENTATION MEMORY.GROWTH", "memory (no memory recorded%s)", by);
	else if (m->n_samples < GROWTH_MIN_STEPS) /* rules.c MEMORY.GROWTH counts the memory samples */
		findings_unjudged_add(nj, "MEMORY.GROWTH", "memory growth (%zu memory sample%s, needs %d)",
				      m->n_samples, m->n_samples == 1 ? "" : "s", GROWTH_MIN_STEPS);
	else if (isnan(m->growth)) /* analysis.h GROWTH: no step span to state it per step */
		findings_unjudged_add(nj, "MEMORY.GROWTH", "memory growth (the memory samples end at step %ld, "
				      "not after step %ld where they begin)", m->last_step, m->first_step);
	static const double bars[] = { ANALYSIS_OUTSIDE_BAR, 1.0 }; /* "99.96%", not "100.0%" */
	char why[160], names[160], pct[48];
	const char *flaw = b ? NULL : analysis_budget_why_none(run, 0, why, sizeof(why));
	double left_share = b ? b->foreign / (b->wall + b->foreign) : 0; /* 0/0 is NaN: below the bar */
	size_t outside = left_share >= ANALYSIS_OUTSIDE_BAR ? analysis_phases_outside(run, 0, names, sizeof(names)) : 0;
	if (flaw && !eff_said) /* a phase value that is no duration: the budget is n/a */
		findings_unjudged_add(nj, IDS_EFFICIENCY, "efficiency (%s)", flaw);
	else if (!b && !eff_said && analysis_phases_foreign(run, 0, why, sizeof(why))) /* none the budget splits */
		findings_unjudged_add(nj, IDS_EFFICIENCY, "efficiency (no " ANALYSIS_PYTSCOPE_PHASES
				      " phase recorded%s, only %s)", by, why);
	else if (!b && !eff_said) /* no phase time: the budget (the report's, rank 0's) has nothing to split */
		findings_unjudged_add(nj, IDS_EFFICIENCY, "efficiency (no phase time recorded%s)", by);
	else if (outside) /* a rank wall short of that time: rules.c judges no efficiency on it */
		findings_unjudged_add(nj, IDS_EFFICIENCY, "efficiency (the budget leaves out phase%s %s: %s%% of the "
				      "phase time%s%s)", outside > 1 ? "s" : "", names,
				      analysis_share_text(left_share, bars, ARRAY_LEN(bars), 1, pct, sizeof(pct)),
				      *by ? " recorded" : "", by);
	else if (b && !b->judged)
		findings_unjudged_add(nj, IDS_EFFICIENCY, "efficiency (%s%s)",
				      b->line[BUDGET_USEFUL].measured ? "only compute is recorded" : "no compute phase recorded",
				      by);
}

/* The run has a node roll-up (nodes.h: hostnames, --ranks-per-node or gpu_count). */
static bool has_nodes(struct run *run)
{
	struct node_set *s = steps_nodes(run);
	steps_nodes_free(s);
	return s != NULL;
}

/* The nodes slow together when they hold more than half of the ranks (nodes.h
 * NODE_TOO_WIDE): one item naming their ranks. */
static void nodes_too_wide(struct run *run, const struct node_set *s, struct not_judged *nj)
{
	size_t nr = steps_nranks(run->steps), n = 0, slow, total;
	bool *wide = xcalloc(nr + 1, sizeof(*wide));
	size_t *ri = xmalloc((nr + 1) * sizeof(*ri));
	for (size_t k = 0; k < s->n; k++)
		if (steps_node_verdict(s, k) == NODE_TOO_WIDE)
			for (size_t i = 0; i < s->v[k].nranks; i++)
				wide[s->v[k].ri[i]] = true;
	for (size_t r = 0; r < nr; r++)
		if (wide[r])
			ri[n++] = r;
	if (n) {
		char *list = steps_nodes_ranklist(run->steps, ri, n);
		steps_nodes_slow_share(s, &slow, &total);
		findings_unjudged_add(nj, "NODE.SLOW_TOGETHER", "slow nodes (ranks %s are on nodes slow together, "
				      "%zu of the %zu ranks: more than half, a slowdown of the run, not of a host)",
				      list, slow, total);
		free(list);
	}
	free(ri);
	free(wide);
}

/* The nodes NODE.SLOW_TOGETHER cannot judge: the ranks without a hostname in a grouping
 * by hostname (nodes.h), nodes of a single rank (a slow host is then a slow rank), the
 * one node of ranks when no other has any (nothing to weigh a host against: its
 * slow_together cell reads n/a), and nodes slow together on more than half of the ranks
 * (nodes_too_wide). */
static void nodes_unjudged(struct run *run, struct not_judged *nj)
{
	struct node_set *s = steps_nodes(run);
	size_t nsingle = 0, hosts = 0;
	size_t *single = xcalloc(s ? s->n + 1 : 1, sizeof(*single));
	for (size_t k = 0; s && k < s->n; k++)
		hosts += !s->v[k].no_host;
	for (size_t k = 0; s && k < s->n; k++)
		if (hosts == 1 && !s->v[k].no_host && s->v[k].nranks >= 2) {
			char *list = steps_nodes_ranklist(run->steps, s->v[k].ri, s->v[k].nranks);
			findings_unjudged_add(nj, "NODE.SLOW_TOGETHER", "slow nodes (ranks %s on one node, %s: no other "
					      "node to weigh it against)", list, s->v[k].name);
			free(list);
		} else if (s->v[k].no_host) {
			char *list = steps_nodes_ranklist(run->steps, s->v[k].ri, s->v[k].nranks);
			findings_unjudged_add(nj, "NODE.SLOW_TOGETHER", "slow nodes among rank%s %s (%s no hostname: "
					      "--ranks-per-node N groups them)", s->v[k].nranks == 1 ? "" : "s", list,
					      s->v[k].nranks == 1 ? "it records" : "they record");
			free(list);
		} else if (s->v[k].nranks == 1) {
			single[nsingle++] = s->v[k].ri[0];
		}
	if (nsingle) {
		char *list = steps_nodes_ranklist(run->steps, single, nsingle);
		findings_unjudged_add(nj, "NODE.SLOW_TOGETHER", "slow nodes of rank%s %s (alone on %s node: a slow host "
				      "is a slow rank)", nsingle == 1 ? "" : "s", list, nsingle == 1 ? "its" : "their");
		free(list);
	}
	if (s)
		nodes_too_wide(run, s, nj);
	free(single);
	steps_nodes_free(s);
}

/* The ranks that start after step `at` (late) or end before it, into buf: their ids as
 * ranges ("ranks 2,5-7", ranklist_format) when they fit, else their count ("1200
 * ranks"), never a flood of ids; returns how many there are. */
static size_t ends_ranks(const struct steps_model *m, bool late, long at, char *buf, size_t n)
{
	long *ids = xmalloc((steps_nranks(m) + 1) * sizeof(*ids)), a, b;
	size_t k = 0;
	for (size_t r = 0; r < steps_nranks(m); r++)
		if (steps_rank_span(m, r, &a, &b) && (late ? a > at : b < at))
			ids[k++] = steps_rank_id(m, r);
	char list[64];
	if (ranklist_format(ids, k, list, sizeof(list)))
		snprintf(buf, n, "ranks %s", list);
	else
		snprintf(buf, n, "%zu ranks", k);
	free(ids);
	return k;
}

/* The steps lo-hi on which the rules across ranks compared no rank, because the ranks in
 * list ("ranks 2,5", "1200 ranks"; k of them) start after lo (late) or end before hi;
 * rank (an id) starts or ends at step. An item about a part of the run (its subject
 * "steps 0-29", which no finding's evidence names: a comparison never matches a finding
 * to it by id), listed beside findings too: a straggler found on the other steps says
 * nothing of these. */
static void span_unjudged(struct not_judged *nj, bool late, long lo, long hi, const char *list, size_t k, int rank,
			  long step)
{
	char steps[64], who[160];
	if (lo == hi)
		snprintf(steps, sizeof(steps), "step %ld", lo);
	else
		snprintf(steps, sizeof(steps), "steps %ld-%ld", lo, hi);
	if (k == 1)
		snprintf(who, sizeof(who), "rank %d %s at step %ld", rank, late ? "starts" : "ends", step);
	else
		snprintf(who, sizeof(who), "%s %s step %ld, rank %d at step %ld", list,
			 late ? "start after" : "end before", late ? lo : hi, rank, step);
	findings_unjudged_add_about(nj, IDS_ALIGNED, steps, "stragglers and imbalance on %s (%s)", steps, who);
}

/* The steps before the latest first step of a rank and after the earliest last step,
 * which the rules across ranks do not read (they read the steps on every rank; the
 * headline's "ranks start" and "ranks end"); not a live run's steps that the ranks behind
 * have not reached yet (its headline says where they are: "ranks at"). */
static void ends_unjudged(const struct steps_model *m, struct not_judged *nj)
{
	struct steps_ends e;
	char list[80];
	steps_ends(m, &e);
	if (e.first_hi > e.first_lo) {
		size_t k = ends_ranks(m, true, e.first_lo, list, sizeof(list));
		span_unjudged(nj, true, e.first_lo, e.first_hi - 1, list, k, steps_rank_id(m, e.first_hi_r),
			      e.first_hi);
	}
	if (e.last_lo < e.last_hi && !e.running) {
		size_t k = ends_ranks(m, false, e.last_hi, list, sizeof(list));
		span_unjudged(nj, false, e.last_lo + 1, e.last_hi, list, k, steps_rank_id(m, e.last_lo_r), e.last_lo);
	}
}

/* Step numbers, as a growing list (the steps some rank lacks: steps_gaps_find). */
struct gap_list {
	int64_t *v;
	size_t n, cap;
};

static void gap_add(struct gap_list *g, long step)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 64;
		g->v = xrealloc(g->v, g->cap * sizeof(*g->v));
	}
	g->v[g->n++] = step;
}

static int cmp_gap(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The steps of [lo, hi] that are not aligned (on some rank, not on every one) into g. */
static void gaps_of_range(const struct steps_model *m, long lo, long hi, struct gap_list *g)
{
	size_t k = steps_aligned_lower(m, lo);
	for (long s = lo; s <= hi; s++) {
		while (k < steps_naligned(m) && steps_aligned_step(m, k) < s)
			k++;
		if (k == steps_naligned(m) || steps_aligned_step(m, k) != s)
			gap_add(g, s);
	}
}

/* Rank r's steps fill its span: none missing between its first and last. */
static bool rank_dense(const struct rank_steps *r)
{
	return r->contiguous || (unsigned long)(r->span_hi - r->span_lo) + 1 == r->ndistinct;
}

/* Rank ri's steps in [lo, hi] (*have of them; ri has records), and when `list`, those of
 * them not aligned into g: a rank whose steps fill its span has them all, one with the
 * aligned steps alone has those, one inside [lo, hi] has its count (when not listed);
 * else its steps are read, a lazy rank's into a copy (not made resident). False when
 * they cannot be read. */
static bool gaps_of_rank(const struct steps_model *m, size_t ri, long lo, long hi, size_t aligned, bool list,
			 struct gap_list *g, size_t *have)
{
	struct rank_steps *r = m->rank[ri];
	*have = rank_dense(r) ? (size_t)(hi - lo) + 1 : r->ndistinct == steps_naligned(m) ? aligned : r->ndistinct;
	if (rank_dense(r) || r->ndistinct == steps_naligned(m) || (!list && r->span_lo >= lo && r->span_hi <= hi))
		return true;
	struct rank_steps *own = NULL;
	if (!steps_rank_body_copy(r, &own))
		return false;
	const struct rank_steps *s = own ? own : r;
	*have = 0;
	for (size_t j = 0; j < s->ndistinct; j++) {
		long step = store_rank_distinct_step(s, j);
		if (step < lo || step > hi)
			continue;
		size_t k = steps_aligned_lower(m, step);
		(*have)++;
		if (list && (k == steps_naligned(m) || steps_aligned_step(m, k) != step))
			gap_add(g, step);
	}
	steps_rank_body_copy_free(own);
	return true;
}

/* "20-39", "20-29, 41, 60-65 and 2 more": the first runs of consecutive steps of the n
 * sorted distinct steps v. */
static void gaps_text(const int64_t *v, size_t n, char *buf, size_t len)
{
	size_t runs = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		if (++runs <= 3) {
			text_appendf(buf, len, "%s%ld", runs > 1 ? ", " : "", (long)v[i]);
			if (j > i)
				text_appendf(buf, len, "-%ld", (long)v[j]);
		}
		i = j + 1;
	}
	if (runs > 3)
		text_appendf(buf, len, " and %zu more", runs - 3);
}

bool steps_gaps_find(const struct steps_model *m, const struct steps_ends *e, struct steps_gaps *out)
{
	*out = (struct steps_gaps){ .nsteps = 0 };
	if (e->n < 2 || e->first_hi > e->last_lo || steps_nunion(m) <= steps_naligned(m))
		return false;
	long lo = e->first_hi, hi = e->last_lo;
	size_t N = steps_nranks(m), aligned = steps_aligned_lower(m, hi + 1) - steps_aligned_lower(m, lo), nlack = 0;
	size_t *have = xcalloc(N ? N : 1, sizeof(*have));
	struct gap_list g = { 0 };
	bool dense = false, read = true; /* a rank whose steps fill its span has every step of [lo, hi] */
	for (size_t r = 0; r < N; r++)
		dense = dense || (steps_nrecords(m, r) && rank_dense(m->rank[r]));
	for (size_t r = 0; r < N && read; r++)
		read = !steps_nrecords(m, r) || gaps_of_rank(m, r, lo, hi, aligned, !dense, &g, &have[r]);
	if (dense && read && (size_t)(hi - lo) + 1 > aligned)
		gaps_of_range(m, lo, hi, &g);
	if (g.n)
		qsort(g.v, g.n, sizeof(*g.v), cmp_gap);
	size_t u = 0;
	for (size_t j = 0; j < g.n; j++)
		if (u == 0 || g.v[u - 1] != g.v[j])
			g.v[u++] = g.v[j];
	long *ids = xmalloc((N ? N : 1) * sizeof(*ids));
	for (size_t r = 0; read && u && r < N; r++)
		if (steps_nrecords(m, r) && have[r] < aligned + u)
			ids[nlack++] = steps_rank_id(m, r);
	if (nlack) {
		char list[64];
		out->nsteps = u;
		out->nranks = nlack;
		gaps_text(g.v, u, out->steps, sizeof(out->steps));
		if (ranklist_format(ids, nlack, list, sizeof(list)))
			snprintf(out->ranks, sizeof(out->ranks), "rank%s %s", nlack > 1 ? "s" : "", list);
		else
			snprintf(out->ranks, sizeof(out->ranks), "%zu ranks", nlack);
	}
	free(ids);
	free(g.v);
	free(have);
	return nlack > 0;
}

/* The steps between the ends that some rank lacks (steps_gaps_find): the rules across
 * ranks compared no rank on them, as on the steps before a rank starts. */
static void gaps_unjudged(const struct steps_model *m, struct not_judged *nj)
{
	struct steps_ends e;
	struct steps_gaps g;
	char subject[112];
	steps_ends(m, &e);
	if (!steps_gaps_find(m, &e, &g))
		return;
	snprintf(subject, sizeof(subject), "step%s %s", g.nsteps > 1 ? "s" : "", g.steps);
	findings_unjudged_add_about(nj, IDS_ALIGNED, subject, "stragglers and imbalance on %s (%s %s %s)", subject,
				    g.ranks, g.nranks > 1 ? "lack" : "lacks",
				    g.nranks > 1 ? "some of them" : g.nsteps > 1 ? "them" : "it");
}

/* A 2-rank gap whose cause is not judged (analysis_gap_rank): no fail-slow named. */
static void gap_unjudged(const struct distributed *d, struct not_judged *nj)
{
	int gap = analysis_gap_rank(d);
	char words[160];
	if (gap < 0 || d->rank[gap].gap_sped_up) /* the others sped up: judged */
		return;
	analysis_gap_words(d, gap, words, sizeof(words));
	findings_unjudged_add(nj, "DIST.FAIL_SLOW", "a fail-slow rank (%s)", words);
}

/* A rise too late for the fail-slow test to place an onset (analysis_late_rank). */
static void late_unjudged(const struct distributed *d, struct not_judged *nj)
{
	int late = analysis_late_rank(d);
	char words[200];
	if (late < 0)
		return;
	analysis_late_words(d, late, words, sizeof(words));
	findings_unjudged_add(nj, "DIST.FAIL_SLOW", "a fail-slow rank in the last steps (%s)", words);
}

/* Fewer aligned steps than the noise test needs (d, the ranks weighed): tscope-tui's
 * straggler tests, with nodes its slow nodes, are not judged; pytscope's DIST.STRAGGLER
 * (its z test needs no noise estimate) is not judged either unless it named a rank: a
 * finding is no absence. */
static void few_steps_unjudged(const struct distributed *d, bool nodes, struct not_judged *nj)
{
	bool named = d->straggler >= 0; /* rules.c rule_straggler fired */
	char ids[160], other[64] = "stragglers";
	snprintf(ids, sizeof(ids), "%s%s", named ? IDS_NATIVE_STRAGGLERS : IDS_STRAGGLERS,
		 nodes ? " NODE.SLOW_TOGETHER" : "");
	if (named)
		snprintf(other, sizeof(other), "other stragglers than DIST.STRAGGLER's rank %d",
			 d->rank[d->straggler].rank);
	findings_unjudged_add(nj, ids, "%s%s (%zu aligned step%s, the noise test needs %d)", other,
			      nodes ? " and slow nodes" : "", d->n_steps, d->n_steps == 1 ? "" : "s", STRAG_MIN_JUDGE);
}

/* Across ranks: stragglers and imbalance need aligned steps, the comm share a comm and a
 * compute phase on every rank (analysis_comm_unmeasured). Under --compat pytscope its rules
 * weigh the aligned steps as pytscope does, however few and whatever they hold: only steps
 * not on every rank go unjudged (findings_not_judged_list drops the native rules' ids). */
static void ranks_unjudged(struct run *run, struct not_judged *nj)
{
	const struct distributed *d = analysis_distributed(run);
	bool compat = rules_compat(run); /* pytscope's rules judge its figures, whatever they are (rules.c) */
	const char *unweighable = d && !compat ? analysis_compute_unweighable(run) : NULL;
	bool nodes = d && d->n_steps < STRAG_MIN_JUDGE && has_nodes(run);
	if (!d) /* nothing weighed across ranks: the comm share neither */
		findings_unjudged_add(nj, IDS_ALIGNED, "stragglers and imbalance (no step number is on every rank)");
	else if (unweighable)
		findings_unjudged_add(nj, IDS_STRAGGLERS " DIST.LOAD_IMBALANCE NODE.SLOW_TOGETHER",
				      "stragglers and imbalance (%s)", unweighable);
	else if (d->n_steps < STRAG_MIN_JUDGE && !compat) /* pytscope's z test needs no noise estimate */
		few_steps_unjudged(d, nodes, nj);
	if (d && !unweighable) {
		ends_unjudged(run->steps, nj);
		gaps_unjudged(run->steps, nj);
	}
	if (d && !unweighable && d->n_steps >= STRAG_MIN_JUDGE)
		nodes_unjudged(run, nj);
	if (d && !unweighable && d->n_steps >= STRAG_MIN_JUDGE && d->world_size < STALL_MIN_RANKS)
		findings_unjudged_add(nj, "DIST.TRANSIENT_STALL",
				      "transient stalls (they need %d ranks, the run has %zu: with 2 the "
				      "step median is their mean, so one rank speeding up reads as the other "
				      "stalling)", STALL_MIN_RANKS, d->world_size);
	if (d && !unweighable) {
		gap_unjudged(d, nj);
		late_unjudged(d, nj);
	}
	char why[160];
	const char *comm = analysis_comm_unmeasured(run, why, sizeof(why));
	/* without aligned steps the ranks are not weighed at all: only a missing phase is news;
	 * with them --compat pytscope weighs the share as pytscope does, whatever a rank lacks */
	if (comm && (d ? !compat : !steps_has_phase(run->steps, "comm")))
		findings_unjudged_add(nj, "DIST.COMM_BOUND", "communication share (%s)", comm);
}

/* The ranks a subset or the world_size leaves out (steps_partial_scope). */
static void scope_unjudged(struct run *run, struct not_judged *nj)
{
	char scope[200];
	if (steps_partial_scope(run, scope, sizeof(scope)))
		/* no id: the rules across ranks judged the ranks loaded (a comparison sees a
		 * finding of a rank left out by its rank) */
		findings_unjudged_add(nj, "", "every rule across ranks, beyond the ranks loaded (%s)", scope);
}

void steps_unjudged_unrecorded(struct run *run, struct not_judged *nj)
{
	const struct trace_set *ts = run->trace;
	const char *measured = trace_steps_why_none(run, -1);   /* the traces' steps, none measured */
	char why[256], logs[160] = "";
	if (!measured && !(ts && ts->n))   /* no trace: nothing to say beyond findings_unjudged() */
		return;
	if (!measured && steps_nranks(run->steps))   /* rank dirs, run.json: their step logs' why too */
		steps_logs_why_none(run, logs, sizeof(logs));
	snprintf(why, sizeof(why), "%s%s%s%s", logs, *logs ? "; " : "",
		 measured ? measured : "no ProfilerStep span in the trace", measured || ts->n == 1 ? "" : "s");
	scope_unjudged(run, nj);
	if (ts->n > 1)
		findings_unjudged_add(nj, IDS_ALIGNED, "stragglers, imbalance and communication share (%s)", why);
	findings_unjudged_add(nj, IDS_RANK0, "timing, loss, memory and efficiency rules (%s)", why);
}

void steps_unjudged(struct run *run, struct not_judged *nj)
{
	const struct steps_model *sm = run->steps;
	scope_unjudged(run, nj);
	if (steps_nranks(sm) > 1) /* which rank straggles first: the question the tool is for */
		ranks_unjudged(run, nj);
	if (steps_nrecords(sm, 0))
		rank0_unjudged(run, nj);
	else
		findings_unjudged_add(nj, IDS_RANK0, "timing, loss and memory rules (rank %d, the one they read, has no "
				      "step record)", steps_rank_id(sm, 0));
}
