/* SPDX-License-Identifier: MIT */
/* findings.c: the findings of a run pair (compare.h compare_findings): A's and B's matched
 * into new in B, resolved, persisting, and not judged on the side that lacks them, and
 * the status that reads so; and the rules a side could not judge that no finding of the
 * other stands for (compare_unjudged: RULES NOT JUDGED below).
 *
 * MATCHING. A finding is matched by its id and by what it is about, which its rule's
 * table entry says (struct finding_rule.subject, findings.h):
 *   - a rank (the stragglers, a stalled rank, and every rule not named below): the
 *     evidence rank, so a straggler on rank 3 in A and one on rank 5 in B are two findings;
 *   - the run, naming the rank the rule picked of the several it judged (the idlest GPU,
 *     the first rank whose run.json or trace environment differs): the id alone (and
 *     for run.json, the keys: below);
 *   - the run as read from its lowest rank (pytscope's TIMING, CONVERGENCE, CROSS, MEMORY
 *     and EFFICIENCY rules; the exposed communication of the lowest rank's trace): the id;
 *   - a node, naming its worst rank (NODE.SLOW_TOGETHER): the node's name;
 *   - a GenAI-Perf series (a knee, a latency fit: compare_sweep_series): the series'
 *     like on the other side (the same name, else the one series of the workload each
 *     side has), so a knee at 8 in A and at 4 in B persists ("concurrency 8 in A, 4 in B").
 * Evidence on another grid (DASF's worker rows) is matched by its name: its rank is a row
 * number there, which one more worker in B shifts. A rank one side calls the persistent
 * straggler and the other slow (throughout, or from a step on) persists: the native rules
 * skip pytscope's straggler. Ranks that differ on run.json keys (CONFIG.RANKS_DIFFER,
 * ENV.RANKS_DIFFER) are matched by the keys each side's rule names (config_diff.h), when
 * both sides name some: one key in common persists (lr in A, lr and batch_size in B),
 * none is two findings (lr in A resolved, batch_size in B new). A pair whose findings
 * name other ranks, ids or keys persists, its status saying which each side names. The
 * native DIST rules list 8 ranks at most and count the others (rules.c): a finding of
 * one side on a rank the other side's rule flags past the ranks it lists (its
 * distributed analysis: a straggler of that kind, a stall) persists, the status saying
 * so ("in B, beyond the 8 ranks it lists"), the finding of that side NULL: it is neither
 * resolved nor new. A finding of one side only is not judged on the
 * other (compare.h) when, beside the reasons of its family, the other lacks what the
 * finding is about: the rank, the node, or (a rule of the lowest rank) its lowest rank is
 * another one; or that rank lacks the finding's evidence steps: it has fewer of those its
 * side records than all of them or CMP_MIN_STEPS, what the straggler tests judge a rank
 * on ("no step 300", "rank 2 has only 2 of steps 18-39"; a rule that picks a rank of
 * several excepted: its steps are that rank's span). A range the other side has enough of
 * is judged there, e.g. a rank slow throughout A against B's first half. An EFFICIENCY
 * finding is not judged on the other side when one side's lowest rank has an MFU (FLOPs
 * and a peak) and the other's not: without one all compute is useful compute, so LOW_MFU
 * of a side with FLOPs is not resolved by a side without ("not judged in B (no FLOPs/peak
 * ...)"), nor is the RECOVERABLE of a side without new against one with. A finding about a
 * sweep series is not judged on a side without its like ("no series m-*", "no model=x"),
 * by that like's not-judged items, or where the like could not have given it
 * (compare_sweep_unjudged: another stimulus, no latency fit, a knee test that did not
 * compare the finding's two levels: "no concurrency 16").
 *
 * ALIGNED STEPS. A rule across the ranks of step records (the stragglers, stalls, slow
 * nodes, imbalance, the comm share; not one that picks a rank) judges the steps every rank
 * has: its finding is judged on the other side only where that side aligns the steps
 * across ranks (its distributed analysis; for the native straggler rules, the steps they
 * judge). The finding's steps are its own side's aligned steps in its evidence range (all
 * of them for a rule without one), and its slowness lies on some of them: for a rank
 * called slow (pytscope's straggler, slow throughout, turned slow) where its compute is
 * STRAG_MIN_SHIFT above the step median (not where it is the critical rank: a rank that
 * is fine is that on 1 step in N by chance); for a stall and the rules of no rank, on
 * every one. The other side judged it when it aligns enough of the slow steps (all of
 * them or CMP_MIN_STEPS, as for a rank's steps above) and the steps it aligns are not
 * mostly where the rank was fine: among them the slow steps are at least half as frequent
 * as over the finding's steps. So a rank slow on steps 0-29 whose evidence spans 0-59
 * ("slow throughout": its median) is not judged by a side that aligns steps 30-59 only,
 * where it was fine on its own side too ("B compares the ranks on 30 of steps 0-59,
 * holding 0 of the 30 where rank 3 is slow in A"), while a rank slow on every step is
 * judged by a side that aligns 16 of them; a side that aligns none says so ("B compares no
 * rank on steps 0-29"), one that aligns too few of the steps of a stall or of a rule of no
 * rank too ("B compares the ranks on only 10 of steps 10-29"). Checked after the other
 * side's not-judged list, whose reasons say more.
 *
 * RULES NOT JUDGED. A rule neither side could judge leaves no finding to match, so "0
 * resolved" would pass for a verdict on it: each side's not-judged items that stand for
 * no finding of the other side are listed, one item of both sides (the same ids, part
 * and text) once as not judged in A and B ("memory (no memory recorded by rank 0)"),
 * items whose texts differ once per side. An item that stands for a finding of the other
 * side is that finding's status already ("not judged in B (no memory recorded)"). A side
 * with no records of an item's family (its rules', as not_judged_by says "no step
 * records") could not judge it either: not judged in A and B. A side with no record at
 * all judged no rule: a row of its own says so ("every rule (...)"), never "every rule
 * judged both". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/compare/compare.h"
#include "model/compare/internal.h"
#include "model/findings.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/steps/analysis.h"
#include "model/steps/config_diff.h"
#include "model/steps/nodes.h"
#include "model/steps/steps.h"
#include "model/sweep/sweep.h"
#include "model/text.h"
#include "model/trace/trace.h"
#include "model/xalloc.h"

/* What finding id is about: its rule's subject (findings.h; the LIVE events: a rank). */
static enum finding_subject subject_of(const char *id)
{
	const struct finding_rule *r = registry_rule(id, NULL);
	return r ? r->subject : SUBJECT_RANK;
}

/* One side of the pair as the matching reads it: its findings and, when a finding of
 * either side is about a node, its node roll-up and the node of each of its findings. */
struct side {
	struct compare *c;
	int index;               /* 0: A, 1: B */
	struct run *run;
	const struct finding_list *l;
	struct node_set *nodes;  /* NULL: not needed, or the run has no roll-up */
	const char **node;       /* node[i]: the name of finding i's node (in nodes), NULL when none */
	struct config_diff keys[2]; /* by enum diff_scope: what its CONFIG.RANKS_DIFFER, ENV.RANKS_DIFFER name */
	bool has_keys[2];        /* keys[scope] read: the run has that finding and its keys are named */
	struct not_judged nj;    /* the run's not-judged items (findings_not_judged_list), made on first need */
	bool nj_done;
	const struct sweep_series **series; /* series[i]: the sweep series finding i is about, NULL when none */
	const struct sweep_series **like;   /* like[i]: that series' like on the other side, NULL when none */
};

/* The node of s that holds rank (NULL when none). */
static const struct node_stat *node_of(const struct run *run, const struct node_set *s, int rank)
{
	long ri = s ? steps_rank_index(run->steps, rank) : -1;
	for (size_t k = 0; ri >= 0 && k < s->n; k++)
		for (size_t j = 0; j < s->v[k].nranks; j++)
			if (s->v[k].ri[j] == (size_t)ri)
				return &s->v[k];
	return NULL;
}

static bool has_node_finding(const struct finding_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (subject_of(l->v[i].id) == SUBJECT_NODE)
			return true;
	return false;
}

/* The scope of a rule of ranks that differ on run.json keys (config_diff.h), -1 for another rule. */
static int differ_scope(const char *id)
{
	if (strcmp(id, "CONFIG.RANKS_DIFFER") == 0)
		return DIFF_CONFIG;
	return strcmp(id, "ENV.RANKS_DIFFER") == 0 ? DIFF_ENV : -1;
}

static void side_init(struct side *s, struct compare *c, int index, bool nodes)
{
	struct run *run = index ? c->b : c->a;
	*s = (struct side){ .c = c, .index = index, .run = run, .l = run_findings(run) };
	s->series = xcalloc(s->l->n + 1, sizeof(*s->series));
	s->like = xcalloc(s->l->n + 1, sizeof(*s->like));
	for (size_t i = 0; i < s->l->n; i++) {
		const struct subsystem *sub = NULL;
		if (registry_rule(s->l->v[i].id, &sub) && sub == &sub_sweep)
			compare_sweep_series(c, index, &s->l->v[i], &s->series[i], &s->like[i], NULL, 0);
	}
	for (size_t i = 0; i < s->l->n; i++) {
		int scope = differ_scope(s->l->v[i].id);
		if (scope >= 0 && run->steps)
			s->has_keys[scope] = steps_config_diff(run->steps, (enum diff_scope)scope, &s->keys[scope]);
	}
	s->node = xcalloc(s->l->n + 1, sizeof(*s->node));
	s->nodes = nodes ? steps_nodes(run) : NULL;
	for (size_t i = 0; s->nodes && i < s->l->n; i++) {
		const struct node_stat *nd = NULL;
		if (subject_of(s->l->v[i].id) == SUBJECT_NODE)
			nd = node_of(run, s->nodes, s->l->v[i].ev.rank);
		s->node[i] = nd ? nd->name : NULL;
	}
}

static void side_free(struct side *s)
{
	free(s->node);
	free(s->series);
	free(s->like);
	steps_nodes_free(s->nodes);
	findings_not_judged_free(&s->nj);
}

/* The next ", "-separated key of *list (config_diff.keys): *key, *len; *list past it.
 * False at the end. */
static bool next_key(const char **list, const char **key, size_t *len)
{
	if (!**list)
		return false;
	const char *end = strstr(*list, ", ");
	*key = *list;
	*len = end ? (size_t)(end - *list) : strlen(*list);
	*list += *len + (end ? 2 : 0);
	return true;
}

/* The key lists x and y name a key in common. */
static bool keys_meet(const char *x, const char *y)
{
	const char *kx, *ky;
	size_t nx, ny;
	for (const char *p = x; next_key(&p, &kx, &nx);)
		for (const char *q = y; next_key(&q, &ky, &ny);)
			if (nx == ny && memcmp(kx, ky, nx) == 0)
				return true;
	return false;
}

/* The run.json keys x and y name share one: their lists, or the first rank's key of
 * either (whole where a long list is cut) in the other's list. */
static bool same_keys(const struct config_diff *x, const struct config_diff *y)
{
	return keys_meet(x->keys, y->keys) || keys_meet(x->key, y->keys) || keys_meet(x->keys, y->key);
}

/* Finding i of a and finding j of b are one (MATCHING above). */
static bool same_finding(const struct side *a, size_t i, const struct side *b, size_t j)
{
	const struct finding *x = &a->l->v[i], *y = &b->l->v[j];
	if (strcmp(x->id, y->id) != 0)
		return false;
	if (a->series[i] && b->series[j]) /* a sweep series' findings: by the series, like for like */
		return a->like[i] == b->series[j] && b->like[j] == a->series[i];
	int scope = differ_scope(x->id);
	if (scope >= 0 && a->has_keys[scope] && b->has_keys[scope])
		return same_keys(&a->keys[scope], &b->keys[scope]);
	enum finding_subject kind = subject_of(x->id);
	if (kind == SUBJECT_NODE && a->node[i] && b->node[j])
		return strcmp(a->node[i], b->node[j]) == 0;
	bool row_of_grid = x->ev.grid && y->ev.grid && x->ev.name && y->ev.name;
	bool by_rank = kind == SUBJECT_RANK || kind == SUBJECT_NODE; /* a node finding off any node: by rank */
	if (by_rank && !row_of_grid && x->ev.rank != y->ev.rank)
		return false;
	if (!x->ev.name || !y->ev.name)
		return !x->ev.name && !y->ev.name;
	return strcmp(x->ev.name, y->ev.name) == 0;
}

/* Run `other` has one rank (or trace) of family sub at most. */
static bool single_rank(const struct run *other, const struct subsystem *sub)
{
	if (sub == &sub_steps)
		return steps_nranks(other->steps) < 2;
	return sub == &sub_trace && (!other->trace || other->trace->n < 2);
}

/* Run holds rank among family sub's ranks (its step ranks, its traces; true for a family
 * whose evidence ranks are no rank ids). */
static bool has_rank(const struct run *run, const struct subsystem *sub, int rank)
{
	if (sub == &sub_steps)
		return run->steps && steps_rank_index(run->steps, rank) >= 0;
	if (sub != &sub_trace)
		return true;
	for (size_t i = 0; run->trace && i < run->trace->n; i++)
		if (run->trace->r[i]->rank == rank)
			return true;
	return false;
}

/* The lowest rank of family sub in run, whose records the rules of the lowest rank read
 * (-1: none, or a family without rank ids). */
static int lowest_rank(const struct run *run, const struct subsystem *sub)
{
	if (sub == &sub_steps)
		return run->steps && steps_nranks(run->steps) ? steps_rank_id(run->steps, 0) : -1;
	if (sub == &sub_trace)
		return run->trace && run->trace->n ? run->trace->r[0]->rank : -1;
	return -1;
}

/* The other side lacks what finding f (finding i of own) is about, the reason into why:
 * its node ("no host gpu-3", "no node 1"), its rank ("no rank 7"), or, for a rule of the
 * lowest rank, the rank its rules read ("its rules read rank 0"). */
static bool lacks_subject(const struct side *own, size_t i, const struct side *other, const struct subsystem *sub,
			  char *why, size_t n)
{
	const struct finding *f = &own->l->v[i];
	enum finding_subject kind = subject_of(f->id);
	if (kind == SUBJECT_NODE && own->node[i]) {
		const struct node_set *s = other->nodes;
		for (size_t k = 0; s && k < s->n; k++)
			if (strcmp(s->v[k].name, own->node[i]) == 0)
				return false;
		char name[96];
		text_sanitize(own->node[i], strlen(own->node[i]), name, sizeof(name), 0);
		snprintf(why, n, "no %s%s", own->nodes->source == NODES_HOSTNAME ? "host " : "", name);
		return true;
	}
	if (f->ev.grid || f->ev.rank < 0)
		return false;
	if (!has_rank(other->run, sub, f->ev.rank)) {
		snprintf(why, n, "no rank %d", f->ev.rank);
		return true;
	}
	int low = kind == SUBJECT_LOWEST ? lowest_rank(other->run, sub) : -1;
	if (low >= 0 && low != f->ev.rank) {
		snprintf(why, n, "its rules read rank %d", low);
		return true;
	}
	return false;
}

/* The distinct steps lo-hi of rank ri of own (*n) and, of them, those rank rj of other has
 * (*common). */
static void steps_in_common(const struct steps_model *own, size_t ri, const struct steps_model *other, size_t rj,
			    long lo, long hi, size_t *n, size_t *common)
{
	*n = *common = 0;
	long first, last;
	if (!steps_rank_span(own, ri, &first, &last) || last < lo || first > hi)
		return;
	for (size_t k = 0, nrec = steps_nrecords(own, ri); k < nrec; k++) {
		long step = steps_step(own, ri, k);
		size_t pos;
		if (step < lo || step > hi || !steps_find(own, ri, step, &pos) || pos != k)
			continue; /* out of the range, or a step recorded again later */
		(*n)++;
		*common += steps_find(other, rj, step, &pos);
	}
}

/* The other side lacks the steps finding f of own is about, the reason into why ("no step
 * 300", "rank 2 has only 2 of steps 18-39"): of its evidence steps step_lo-step_hi that its
 * rank records, the same rank of the other run has fewer than all, or than the
 * CMP_MIN_STEPS the straggler tests judge a rank on. Not for a rule that picks one rank of
 * several (its steps are that rank's span, not what it judges), nor for evidence on
 * another grid or without a rank of both runs' step records. */
static bool lacks_steps(const struct finding *f, const struct side *own, const struct side *other, char *why,
			size_t n)
{
	const struct steps_model *mo = own->run->steps, *m = other->run->steps;
	long lo = f->ev.step_lo, hi = f->ev.step_hi > lo ? f->ev.step_hi : lo;
	enum finding_subject kind = subject_of(f->id);
	if (!mo || !m || lo < 0 || f->ev.grid || kind == SUBJECT_PICKED)
		return false;
	long ri = steps_rank_index(mo, f->ev.rank), rj = steps_rank_index(m, f->ev.rank);
	size_t nsteps, common;
	if (ri < 0 || rj < 0)
		return false;
	steps_in_common(mo, (size_t)ri, m, (size_t)rj, lo, hi, &nsteps, &common);
	if (common >= (nsteps < CMP_MIN_STEPS ? nsteps : CMP_MIN_STEPS))
		return false;
	char who[32] = "";
	if (kind != SUBJECT_LOWEST) /* the lowest rank's records are the run's, as its rules read them */
		snprintf(who, sizeof(who), "rank %d has ", f->ev.rank);
	char steps[64];
	if (lo == hi)
		snprintf(steps, sizeof(steps), "step %ld", lo);
	else
		snprintf(steps, sizeof(steps), "steps %ld-%ld", lo, hi);
	if (common)
		snprintf(why, n, "%sonly %zu of %s", who, common, steps);
	else
		snprintf(why, n, "%sno %s", who, steps);
	return true;
}

/* The native DIST rules that list NATIVE_MAX_FINDINGS ranks at most and count the others
 * (model/steps/rules.c). */
static const char *const capped_rules[] = { "DIST.FAIL_SLOW", "DIST.SLOW_RANK", "DIST.TRANSIENT_STALL" };

static bool is_capped(const char *id)
{
	for (size_t k = 0; k < ARRAY_LEN(capped_rules); k++)
		if (strcmp(id, capped_rules[k]) == 0)
			return true;
	return false;
}

/* What a finding of a rule across ranks is about on its own side (ALIGNED STEPS above):
 * of the own run's aligned steps in its range (n), those its slowness lies on (slow), and
 * of each, those the other run aligns across ranks and judges (shared, slow_shared). */
struct aligned_count {
	size_t n, slow, shared, slow_shared;
	long lo, hi;              /* the range's first and last aligned step */
	bool every;               /* every step of the range counts as slow */
};

/* Step is among d's first m aligned steps (ascending). */
static bool aligned_has(const struct distributed *d, size_t m, long step)
{
	size_t lo = analysis_dist_lower(d, m, step);
	return lo < m && d->step[lo].step == step;
}

/* Rank index ri is slow at aligned step k: STRAG_MIN_SHIFT above the step median (g: the
 * run's HEAT_REL_SLOWDOWN grid). */
static bool slow_at(const struct heat_grid *g, size_t ri, size_t k)
{
	double mean, worst;
	return heat_range(g, ri, k, k + 1, &mean, &worst) && mean >= STRAG_MIN_SHIFT;
}

/* The rules whose findings say a rank is slow: their slowness lies where it is slow. */
static bool says_rank_slow(const char *id)
{
	return strcmp(id, "DIST.STRAGGLER") == 0 || strcmp(id, "DIST.FAIL_SLOW") == 0 ||
	       strcmp(id, "DIST.SLOW_RANK") == 0;
}

/* Counts finding f of run own (distributed analysis d) against the aligned steps of other
 * (od, NULL: none) into c; false when its range holds no aligned step of own. A rank
 * slow nowhere in it (a grid missing): every step counts. */
static bool count_aligned(const struct finding *f, struct run *own, const struct distributed *d,
			  const struct distributed *od, struct aligned_count *c)
{
	bool ranged = f->ev.step_lo >= 0;
	long lo = f->ev.step_lo, hi = f->ev.step_hi > lo ? f->ev.step_hi : lo;
	long ri = f->ev.rank >= 0 ? steps_rank_index(own->steps, f->ev.rank) : -1;
	const struct heat_grid *g = ri >= 0 && says_rank_slow(f->id) ? analysis_heatmap(own, HEAT_REL_SLOWDOWN) : NULL;
	size_t m = od ? is_capped(f->id) ? od->n_judged : od->n_steps : 0;
	*c = (struct aligned_count){ .every = !g };
	for (size_t k = 0; k < d->n_steps; k++) {
		long step = d->step[k].step;
		if (ranged && (step < lo || step > hi))
			continue;
		c->lo = c->n ? c->lo : step;
		c->hi = step;
		bool shared = aligned_has(od, m, step), slow = c->every || slow_at(g, (size_t)ri, k);
		c->n++;
		c->shared += shared;
		c->slow += slow;
		c->slow_shared += slow && shared;
	}
	if (c->slow == 0) { /* no step of its slowness found: every step of its range counts */
		c->slow = c->n;
		c->slow_shared = c->shared;
		c->every = true;
	}
	return c->n > 0;
}

/* The other run (named other_name) does not compare the ranks on the steps finding f of a
 * rule across ranks is about (ALIGNED STEPS above), the reason into why ("B compares no rank
 * on steps 0-29", "B compares the ranks on only 10 of steps 0-59", "B compares the ranks on
 * 30 of steps 0-59, holding 0 of the 30 where rank 3 is slow in A"). */
static bool lacks_aligned(const struct finding *f, const struct side *own, const struct side *other,
			  char other_name, char *why, size_t n)
{
	const struct distributed *d = analysis_distributed(own->run);
	const struct distributed *od = analysis_distributed(other->run);
	struct aligned_count c;
	if (!d || !count_aligned(f, own->run, d, od, &c))
		return false;
	size_t enough = c.slow < CMP_MIN_STEPS ? c.slow : CMP_MIN_STEPS;
	if (c.slow_shared >= enough && 2 * c.slow_shared * c.n >= c.slow * c.shared)
		return false;
	char steps[64];
	if (c.lo == c.hi)
		snprintf(steps, sizeof(steps), "step %ld", c.lo);
	else
		snprintf(steps, sizeof(steps), "steps %ld-%ld", c.lo, c.hi);
	char own_name = other_name == 'B' ? 'A' : 'B';
	if (c.shared == 0)
		snprintf(why, n, "%c compares no rank on %s", other_name, steps);
	else if (c.every)
		snprintf(why, n, "%c compares the ranks on only %zu of %s", other_name, c.shared, steps);
	else
		snprintf(why, n, "%c compares the ranks on %zu of %s, holding %zu of the %zu where rank %d is slow in %c",
			 other_name, c.shared, steps, c.slow_shared, c.slow, f->ev.rank, own_name);
	return true;
}

/* The reason inside the item "what (why)", else the item, into why (sanitized). */
static void item_reason(const char *item, char *why, size_t n)
{
	size_t len = strlen(item);
	const char *open = strstr(item, " (");
	if (open && len && item[len - 1] == ')') {
		len -= (size_t)(open + 2 - item) + 1;
		item = open + 2;
	}
	char raw[FINDINGS_NOT_JUDGED_MAX];
	snprintf(raw, sizeof(raw), "%.*s", (int)len, item);
	text_sanitize(raw, strlen(raw), why, n, 0);
}

/* Finding f of own is an EFFICIENCY rule's and the lowest rank's budget (the one the rule
 * reads) has an MFU on one side only (FLOPs and a peak): the side without one counts all of
 * its compute as useful, so LOW_MFU cannot fire there and RECOVERABLE weighs other lines;
 * why names what that side lacks ("no FLOPs/peak (--flops-per-step, --peak-tflops)" when
 * it is the other; "A has an MFU, B has none: ..." when it is own, named own_name). */
static bool mfu_unlike(const struct finding *f, const struct side *own, const struct side *other, char own_name,
		       char *why, size_t n)
{
	if (strncmp(f->id, "EFFICIENCY.", strlen("EFFICIENCY.")) != 0)
		return false;
	const struct budget *bo = analysis_budget(own->run, 0), *bt = analysis_budget(other->run, 0);
	if (!bo || !bt || bo->has_mfu == bt->has_mfu)
		return false;
	const char *na = analysis_budget_mfu_na(bo->has_mfu ? bt : bo);
	int len = bo->has_mfu ? 0 : snprintf(why, n, "%c has an MFU, %c has none: ", own_name == 'A' ? 'B' : 'A',
					     own_name);
	if (len >= 0 && (size_t)len < n)
		text_sanitize(na, strlen(na), why + len, n - (size_t)len, 0); /* it may name the run's GPU */
	return true;
}

/* Finding f of side `side` of c as the other side's not-judged items name what it is about
 * (their subjects): a finding of one sweep series by the name of that series' like there
 * (compare_sweep_series; without one by no name: only an item about the whole run stands
 * for it), into *g, *name holding the name (the caller frees); f itself for another. */
static const struct finding *named_there(struct compare *c, int side, const struct finding *f, struct finding *g,
					 char **name)
{
	const struct sweep_series *own, *like;
	const struct subsystem *sub = NULL;
	*name = NULL;
	if (!registry_rule(f->id, &sub) || sub != &sub_sweep || !compare_sweep_series(c, side, f, &own, &like, NULL, 0))
		return f;
	*g = *f;
	*name = like ? text_sanitize_dup(like->name, 0) : NULL;
	g->ev.name = g->ev.series = *name;
	return g;
}

/* The item of other's not-judged list that stands for finding i of own (named_there), NULL
 * when none. */
static const struct not_judged_item *item_for(const struct side *own, size_t i, struct side *other)
{
	if (!other->nj_done) {
		findings_not_judged_list(other->run, &other->nj);
		other->nj_done = true;
	}
	struct finding g;
	char *name;
	const struct not_judged_item *item =
		findings_not_judged_of(&other->nj, named_there(own->c, own->index, &own->l->v[i], &g, &name));
	free(name);
	return item;
}

/* Why the other side (named other_name) could not judge finding i of own, into why; false
 * when it could: the other run has no records of the rule's family, a single rank for a
 * rule across ranks, lacks what the finding is about (lacks_subject; a sweep series' like:
 * compare_sweep_series) or the steps it is about (lacks_steps), an item of its not-judged
 * list stands for the finding's id (about that like, for a series' finding), the like
 * could not have given it (compare_sweep_unjudged), one side only has an MFU for an
 * EFFICIENCY rule (mfu_unlike), or, for a rule across the ranks of step records (not one
 * that picks a rank), it does not compare the ranks on the finding's steps
 * (lacks_aligned). */
static bool not_judged_by(const struct side *own, size_t i, struct side *other, char other_name, char *why,
			  size_t n)
{
	const struct finding *f = &own->l->v[i];
	const struct subsystem *sub = NULL;
	const struct finding_rule *rule = registry_rule(f->id, &sub);
	bool (*has)(const struct run *) = sub ? sub->has_records ? sub->has_records : sub->has_data : NULL;
	if (has && !has(other->run)) {
		snprintf(why, n, "no %s", strcmp(sub->name, "steps") == 0 ? "step records" : sub->name);
		return true;
	}
	if (rule && rule->across_ranks && single_rank(other->run, sub)) {
		snprintf(why, n, "a single rank");
		return true;
	}
	if (lacks_subject(own, i, other, sub, why, n) || lacks_steps(f, own, other, why, n))
		return true;
	const struct sweep_series *series, *like;
	if (own->series[i] && !own->like[i]) /* for why */
		return compare_sweep_series(own->c, own->index, f, &series, &like, why, n);
	const struct not_judged_item *item = item_for(own, i, other);
	if (item) {
		item_reason(item->text, why, n);
		return true;
	}
	if (own->series[i])
		return compare_sweep_unjudged(own->c, own->index, f, own->like[i], other_name, why, n);
	if (mfu_unlike(f, own, other, other_name == 'B' ? 'A' : 'B', why, n))
		return true;
	bool aligned = rule && rule->across_ranks && sub == &sub_steps && rule->subject != SUBJECT_PICKED;
	return aligned && !f->ev.grid && lacks_aligned(f, own, other, other_name, why, n);
}

/* Capped rule id flags rank id rank in run's distributed analysis, listed or not:
 * analysis_slow_listed (DIST.FAIL_SLOW, DIST.SLOW_RANK, as rules.c picks them); a rank
 * with a stall (DIST.TRANSIENT_STALL). */
static bool rule_flags_rank(struct run *run, const char *id, int rank)
{
	const struct distributed *d = analysis_distributed(run);
	for (size_t ri = 0; d && ri < d->world_size; ri++) {
		const struct rank_stat *rs = &d->rank[ri];
		if (rs->rank != rank)
			continue;
		if (strcmp(id, "DIST.TRANSIENT_STALL") == 0)
			return rs->stall_lo >= 0;
		return analysis_slow_listed(d, ri, strcmp(id, "DIST.FAIL_SLOW") == 0);
	}
	return false;
}

static size_t count_of(const struct finding_list *l, const char *id)
{
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		n += strcmp(l->v[i].id, id) == 0;
	return n;
}

/* Finding f, which `other` (side B when other_b) has not, is about a rank that a capped
 * rule of other flags past the ranks it lists (its own rule, or for pytscope's straggler a
 * rank slow throughout or turned slow, as straggler_kin): it persists, why into why ("in
 * B, beyond the 8 ranks it lists"). Other's rule listed some: it judged the ranks. */
static bool beyond_cap(const struct finding *f, struct side *other, bool other_b, char *why, size_t n)
{
	bool straggler = strcmp(f->id, "DIST.STRAGGLER") == 0;
	for (size_t k = 0; f->ev.rank >= 0 && k < ARRAY_LEN(capped_rules); k++) {
		const char *id = capped_rules[k];
		bool kin = straggler && strcmp(id, "DIST.TRANSIENT_STALL") != 0;
		size_t listed = count_of(other->l, id);
		if ((!kin && strcmp(f->id, id) != 0) || !listed || !rule_flags_rank(other->run, id, f->ev.rank))
			continue;
		snprintf(why, n, "%s%sin %c, beyond the %zu rank%s it lists", kin ? id : "", kin ? " " : "",
			 other_b ? 'B' : 'A', listed, listed == 1 ? "" : "s");
		return true;
	}
	return false;
}

/* The unmatched findings of own (match[i] false) into out: new in B (resolved, for A's)
 * unless the other side flags them past the ranks it lists (persisting: beyond_cap) or
 * could not judge them. */
static size_t unmatched(const struct side *own, const bool *match, struct side *other, bool side_b,
			struct cmp_finding *out)
{
	size_t n = 0;
	for (size_t i = 0; i < own->l->n; i++) {
		if (match[i])
			continue;
		const struct finding *f = &own->l->v[i];
		struct cmp_finding *o = &out[n++];
		*o = (struct cmp_finding){ side_b ? CMP_NEW : CMP_RESOLVED, side_b ? NULL : f, side_b ? f : NULL, "" };
		if (beyond_cap(f, other, !side_b, o->why, sizeof(o->why)))
			o->status = CMP_PERSIST;
		else if (not_judged_by(own, i, other, side_b ? 'A' : 'B', o->why, sizeof(o->why)))
			o->status = side_b ? CMP_UNJUDGED_A : CMP_UNJUDGED_B;
	}
	return n;
}

/* pytscope's straggler rule names one rank, and the native rules of a rank slow throughout
 * or turned slow skip that rank: a rank that one side calls the persistent straggler and
 * the other slow is a straggler on both (matched after same_finding). */
static bool straggler_kin(const struct finding *x, const struct finding *y)
{
	bool xs = strcmp(x->id, "DIST.STRAGGLER") == 0, ys = strcmp(y->id, "DIST.STRAGGLER") == 0;
	bool xn = strcmp(x->id, "DIST.SLOW_RANK") == 0 || strcmp(x->id, "DIST.FAIL_SLOW") == 0;
	bool yn = strcmp(y->id, "DIST.SLOW_RANK") == 0 || strcmp(y->id, "DIST.FAIL_SLOW") == 0;
	return ((xs && yn) || (xn && ys)) && x->ev.rank == y->ev.rank;
}

/* A persisting pair, into o: its why says A's id when it is another (straggler_kin), or
 * which rank each side names when they name others (the idlest GPU of each side, the
 * lowest rank of each, a node's worst rank), then the run.json keys each side names when
 * they name others (ranks that differ on lr and batch_size in A, on batch_size in B). */
static void persisting(const struct side *sa, const struct side *sb, const struct finding *a,
		       const struct finding *b, struct cmp_finding *o)
{
	*o = (struct cmp_finding){ CMP_PERSIST, a, b, "" };
	if (strcmp(a->id, b->id) != 0)
		snprintf(o->why, sizeof(o->why), "%s in A", a->id);
	else if (!a->ev.grid && !b->ev.grid && a->ev.rank >= 0 && b->ev.rank >= 0 && a->ev.rank != b->ev.rank)
		snprintf(o->why, sizeof(o->why), "rank %d in A, rank %d in B", a->ev.rank, b->ev.rank);
	else
		compare_sweep_persisting(sa->c, a, b, o->why, sizeof(o->why));
	int scope = differ_scope(a->id);
	if (scope < 0 || !sa->has_keys[scope] || !sb->has_keys[scope] ||
	    strcmp(sa->keys[scope].keys, sb->keys[scope].keys) == 0)
		return;
	char ka[72], kb[72];
	text_sanitize(sa->keys[scope].keys, strlen(sa->keys[scope].keys), ka, sizeof(ka), 0);
	text_sanitize(sb->keys[scope].keys, strlen(sb->keys[scope].keys), kb, sizeof(kb), 0);
	text_appendf(o->why, sizeof(o->why), "%skeys %s in A; %s in B", o->why[0] ? "; " : "", ka, kb);
}

/* Pair each finding of B with one of A not paired yet: by same_finding, then the others
 * by straggler_kin. used[i], found[j]: A's i, B's j paired; match[j]: A's for B's j. */
static void pair_findings(const struct side *sa, const struct side *sb, bool *used, bool *found,
			  const struct finding **match)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t j = 0; j < sb->l->n; j++)
			for (size_t i = 0; !found[j] && i < sa->l->n; i++) {
				const struct finding *x = &sa->l->v[i], *y = &sb->l->v[j];
				if (used[i] || !(pass ? straggler_kin(x, y) : same_finding(sa, i, sb, j)))
					continue;
				used[i] = found[j] = true;
				match[j] = x;
			}
}

static void findings_compute_diff(struct compare *c)
{
	const struct finding_list *fa = run_findings(c->a), *fb = run_findings(c->b);
	bool nodes = has_node_finding(fa) || has_node_finding(fb);
	struct side sa, sb;
	side_init(&sa, c, 0, nodes);
	side_init(&sb, c, 1, nodes);
	struct cmp_finding *v = xcalloc(fa->n + fb->n + 1, sizeof(*v));
	bool *used = xcalloc(fa->n + 1, 1), *found = xcalloc(fb->n + 1, 1);
	const struct finding **match = xcalloc(fb->n + 1, sizeof(*match));
	pair_findings(&sa, &sb, used, found, match);
	size_t n = unmatched(&sb, found, &sa, true, v);
	n += unmatched(&sa, used, &sb, false, v + n);
	for (size_t j = 0; j < fb->n; j++)
		if (match[j])
			persisting(&sa, &sb, match[j], &fb->v[j], &v[n++]);
	/* in the order of compare.h, each status in its side's order */
	static const enum cmp_status order[CMP_NSTATUS] = { CMP_NEW, CMP_RESOLVED, CMP_UNJUDGED_A, CMP_UNJUDGED_B,
							    CMP_PERSIST };
	struct cmp_finding *sorted = xmalloc((n + 1) * sizeof(*sorted));
	size_t k = 0;
	for (size_t o = 0; o < CMP_NSTATUS; o++)
		for (size_t i = 0; i < n; i++)
			if (v[i].status == order[o])
				sorted[k++] = v[i];
	free(v);
	free(used);
	free(found);
	free(match);
	side_free(&sa);
	side_free(&sb);
	c->memo->findings = sorted;
	c->memo->nfindings = n;
}

const struct cmp_finding *compare_findings(struct compare *c, size_t *n)
{
	if (!c->memo->findings)
		findings_compute_diff(c);
	*n = c->memo->nfindings;
	return c->memo->findings;
}

const char *compare_status_name(enum cmp_status s)
{
	static const char *const name[CMP_NSTATUS] = { "new", "resolved", "persisting", "not judged in A",
						       "not judged in B" };
	return name[s];
}

const char *compare_finding_status(const struct cmp_finding *f, char *buf, size_t n)
{
	if (!f->why[0])
		return compare_status_name(f->status);
	snprintf(buf, n, "%s (%s)", compare_status_name(f->status), f->why);
	return buf;
}

/* ---- rules not judged ------------------------------------------------------------------------ */

/* Item it of a side's not-judged list stands for a finding of l, the other side's (side
 * `side` of c): findings_not_judged_of, its ids holding the finding's id, its part the
 * finding's (named_there: a sweep series' like). */
static bool stands_for_one(struct compare *c, int side, struct not_judged_item *it, const struct finding_list *l)
{
	const struct not_judged one = { .v = it, .n = 1 };
	for (size_t i = 0; i < l->n; i++) {
		struct finding g;
		char *name;
		bool hit = findings_not_judged_of(&one, named_there(c, side, &l->v[i], &g, &name)) != NULL;
		free(name);
		if (hit)
			return true;
	}
	return false;
}

/* Items x and y say the same: the same ids, part of the run and text. */
static bool same_item(const struct not_judged_item *x, const struct not_judged_item *y)
{
	bool parts = x->subject && y->subject ? strcmp(x->subject, y->subject) == 0 : x->subject == y->subject;
	return parts && strcmp(x->ids, y->ids) == 0 && strcmp(x->text, y->text) == 0;
}

static struct cmp_unjudged unjudged_of(const struct not_judged_item *it, bool in_a, bool in_b)
{
	return (struct cmp_unjudged){ xstrdup(it->text), xstrdup(it->ids), in_a, in_b };
}

/* Run has no records of the family of item it's rules (its first id's, registry_rule), so
 * it could not judge them either (not_judged_by: "no step records"); an item of no rule's
 * id: run has no record at all. */
static bool family_absent(const struct not_judged_item *it, const struct run *run)
{
	char id[64];
	snprintf(id, sizeof(id), "%.*s", (int)strcspn(it->ids, " "), it->ids);
	const struct subsystem *sub = NULL;
	if (!registry_rule(id, &sub) || !sub)
		return findings_unjudged(run) != NULL;
	bool (*has)(const struct run *) = sub->has_records ? sub->has_records : sub->has_data;
	return has && !has(run);
}

struct cmp_unjudged *compare_unjudged(struct compare *c, size_t *n)
{
	struct not_judged na = { 0 }, nb = { 0 };
	findings_not_judged_list(c->a, &na);
	findings_not_judged_list(c->b, &nb);
	const struct finding_list *fa = run_findings(c->a), *fb = run_findings(c->b);
	struct cmp_unjudged *v = xcalloc(na.n + nb.n + 2, sizeof(*v));
	bool *done_b = xcalloc(nb.n + 1, 1); /* B's item listed with A's, or standing for a finding of A */
	for (size_t j = 0; j < nb.n; j++)
		done_b[j] = stands_for_one(c, 0, &nb.v[j], fa);
	size_t k = 0;
	bool none_a = findings_unjudged(c->a) != NULL, none_b = findings_unjudged(c->b) != NULL;
	if (none_a || none_b) /* its not-judged list is empty: nothing judged */
		v[k++] = (struct cmp_unjudged){ xstrdup("every rule (no step record, trace event or other record)"),
						 xstrdup(""), none_a, none_b };
	for (size_t i = 0; i < na.n; i++) {
		if (stands_for_one(c, 1, &na.v[i], fb))
			continue;
		size_t j = 0;
		while (j < nb.n && (done_b[j] || !same_item(&na.v[i], &nb.v[j])))
			j++;
		if (j < nb.n)
			done_b[j] = true;
		v[k++] = unjudged_of(&na.v[i], true, j < nb.n || family_absent(&na.v[i], c->b));
	}
	for (size_t j = 0; j < nb.n; j++)
		if (!done_b[j])
			v[k++] = unjudged_of(&nb.v[j], family_absent(&nb.v[j], c->a), true);
	free(done_b);
	findings_not_judged_free(&na);
	findings_not_judged_free(&nb);
	*n = k;
	if (k == 0) {
		free(v);
		return NULL;
	}
	return v;
}

void compare_unjudged_free(struct cmp_unjudged *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].text);
		free(v[i].ids);
	}
	free(v);
}

const char *compare_unjudged_status(const struct cmp_unjudged *u)
{
	return u->in_a && u->in_b ? "not judged in A and B" : u->in_a ? "not judged in A" : "not judged in B";
}
