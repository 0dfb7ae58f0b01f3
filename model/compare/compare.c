/* SPDX-License-Identifier: MIT */
/* compare.c: the run pair (see compare.h): pairing of PATH arguments, opening both
 * runs, what the ranks are compared by (compare_series, compare_side_series: compute, a
 * trace set's compute kernels, or step time and why, with the reason a side's compute
 * cannot be weighed over the ranks both have step records of; the per-rank deltas are
 * ranks.c's), the verdict (over the ranks loaded when --ranks left some out:
 * compare_subset; the steps a rank has no value at named with the cause, steps of one
 * side in the stretches they form) and the workload that differs
 * (run.json keys, a sweep's workload, a trace's GPU and world_size: not like for like),
 * and the Overview lines of the pair (compare_summary: a verdict or scope too long for a
 * summary line goes on over several; the count of findings of each status, which
 * findings.c matches). The pytscope diff is pydiff.c. */
#include "model/compare/compare.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model/compare/internal.h"
#include "model/compare/views.h"
#include "model/findings.h"
#include "model/identity.h"
#include "model/steps/analysis.h"
#include "model/steps/internal.h"  /* phase sets: what compute leaves out */
#include "model/steps/steps.h"
#include "model/summary.h"
#include "model/sweep/sweep.h"
#include "model/text.h"
#include "model/trace/trace.h"
#include "model/units.h"
#include "model/xalloc.h"

/* ---- pairing ------------------------------------------------------------------------ */

bool compare_is_pair(const struct run_identity *id)
{
	return id->n == 2 && id->v[0].family == id->v[1].family && !id->nested[0];
}

const char *compare_family_name(int family)
{
	static const char *const name[] = { [FAMILY_STEPS] = "steps", [FAMILY_TRACES] = "trace",
					    [FAMILY_SWEEP] = "sweep", [FAMILY_DASF] = "dasf" };
	return family >= 0 && family <= FAMILY_DASF ? name[family] : "unknown";
}

struct compare *compare_new(struct run *a, struct run *b, const char *family)
{
	struct compare *c = xcalloc(1, sizeof(*c));
	c->a = a;
	c->b = b;
	c->family = family;
	c->memo = xcalloc(1, sizeof(*c->memo));
	return c;
}

struct compare *compare_open(const struct run_identity *id, const struct opts *opts, struct load_ctx *hooks)
{
	struct run *a = run_open((const char *const *)id->v[0].paths, id->v[0].npaths, opts, hooks);
	struct run *b = run_open((const char *const *)id->v[1].paths, id->v[1].npaths, opts, hooks);
	run_identity_notes(id, 0, a);
	run_identity_notes(id, 1, b);
	return compare_new(a, b, compare_family_name(id->v[0].family));
}

struct run *compare_side(const struct compare *c, int side)
{
	return side ? c->b : c->a;
}

void compare_free(struct compare *c)
{
	if (!c)
		return;
	if (c->memo) {
		pydiff_free(c->memo->pydiff);
		compare_ranks_free(c->memo->ranks);
		free(c->memo->findings);
		compare_fns_free(c->memo->fns);
		free(c->memo->workload);
		free(c->memo);
	}
	run_free(c->a);
	run_free(c->b);
	free(c);
}

/* ---- the series the ranks are compared by ------------------------------------------- */

enum { PHASES_NAMED = 3 };

/* The phases of m that `other` has too (shared) or has not (!shared), of them only those
 * compute leaves out when `outside` (neither a compute phase nor comm, as in the
 * distributed analysis: analysis.h), the first PHASES_NAMED named into buf (sanitized)
 * with "and N more"; returns how many. */
static size_t phases_of(const struct steps_model *m, const struct steps_model *other, bool outside, bool shared,
			char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < steps_nmetrics(m); i++) {
		const struct metric_def *d = steps_metric(m, (int)i);
		if (d->kind != METRIC_PHASE ||
		    (outside && (analysis_in_compute_phases(d->name) || strcmp(d->name, "comm") == 0)) ||
		    (steps_metric_find(other, METRIC_PHASE, d->name) >= 0) != shared)
			continue;
		if (k++ < PHASES_NAMED) {
			char *safe = text_sanitize_dup(d->name, 0);
			text_appendf(buf, n, "%s%s", k > 1 ? ", " : "", safe);
			free(safe);
		}
	}
	if (k > PHASES_NAMED)
		text_appendf(buf, n, " and %zu more", k - PHASES_NAMED);
	return k;
}

/* Why two runs of several ranks are compared by step time although both have a compute
 * to weigh: phases that compute leaves out, so a rank slower there would not show, each
 * named with whose it is ("compute leaves out phases fwd, bwd of A and B"; "... phases fwd
 * (A and B), a1 (A only)"); false when there are none. */
static bool phases_outside_compute(const struct steps_model *ma, const struct steps_model *mb, char *buf, size_t n)
{
	static const char *const whose[] = { "A and B", "A", "B" }, *const only[] = { "A and B", "A only", "B only" };
	char names[3][128];
	size_t k[3] = { phases_of(ma, mb, true, true, names[0], sizeof(names[0])),
			phases_of(ma, mb, true, false, names[1], sizeof(names[1])),
			phases_of(mb, ma, true, false, names[2], sizeof(names[2])) };
	size_t total = k[0] + k[1] + k[2], groups = (k[0] > 0) + (k[1] > 0) + (k[2] > 0);
	if (!total)
		return false;
	snprintf(buf, n, "compute leaves out phase%s ", total > 1 ? "s" : "");
	for (size_t g = 0, shown = 0; g < 3; g++) {
		if (!k[g])
			continue;
		if (groups == 1)
			text_appendf(buf, n, "%s of %s", names[g], whose[g]);
		else
			text_appendf(buf, n, "%s%s (%s)", shown++ ? ", " : "", names[g], only[g]);
	}
	return true;
}

bool compare_phases_one_side(const struct steps_model *ma, const struct steps_model *mb, char *buf, size_t n)
{
	char names[2][128], shared[128];
	size_t ka = phases_of(ma, mb, false, false, names[0], sizeof(names[0]));
	size_t kb = phases_of(mb, ma, false, false, names[1], sizeof(names[1]));
	buf[0] = '\0';
	if ((ka > 0) == (kb > 0) || !phases_of(ka ? mb : ma, ka ? ma : mb, false, true, shared, sizeof(shared)))
		return false;
	snprintf(buf, n, "phase%s %s recorded in %s only", ka + kb > 1 ? "s" : "", ka ? names[0] : names[1],
		 ka ? "A" : "B");
	return true;
}

/* Why the compute of A (ya), of B (yb) or both cannot be weighed, into buf: "B's compute
 * cannot be weighed (rank 1 records a NaN forward phase value at step 10)". */
static void unweighable_why(const char *ya, const char *yb, char *buf, size_t n)
{
	if (ya && yb && strcmp(ya, yb) == 0)
		snprintf(buf, n, "the compute of A and B cannot be weighed (%s)", ya);
	else if (ya && yb)
		snprintf(buf, n, "A's compute cannot be weighed (%s), nor B's (%s)", ya, yb);
	else
		snprintf(buf, n, "%s's compute cannot be weighed (%s)", ya ? "A" : "B", ya ? ya : yb);
}

size_t compare_ranks_recorded(const struct steps_model *m)
{
	size_t k = 0;
	for (size_t i = 0; i < steps_nranks(m); i++)
		k += steps_nrecords(m, i) > 0;
	return k;
}

/* Each side has several ranks with step records (one without is as absent). */
static bool several_ranks(const struct compare *c)
{
	return compare_ranks_recorded(c->a->steps) > 1 && compare_ranks_recorded(c->b->steps) > 1;
}

/* Per rank index of side m, whether the other side too has step records of its rank id
 * and it has some (the ranks compared, whose compute alone is weighed): malloc'd, or NULL
 * when that is every rank of m. */
static bool *ranks_compared(const struct steps_model *m, const struct steps_model *other)
{
	size_t N = steps_nranks(m), k = 0;
	bool *use = xmalloc(N ? N : 1);
	for (size_t i = 0; i < N; i++) {
		long j = steps_rank_index(other, steps_rank_id(m, i));
		use[i] = steps_nrecords(m, i) && j >= 0 && steps_nrecords(other, (size_t)j);
		k += use[i];
	}
	if (k < N)
		return use;
	free(use);
	return NULL;
}

/* Why side's compute (run, its model and the other's: ranks_compared) cannot be weighed,
 * NULL when it can (analysis_compute_unweighable_grid). */
static const char *side_unweighable(struct run *run, const struct steps_model *other, char *buf, size_t n)
{
	bool *use = ranks_compared(run->steps, other);
	const char *why = analysis_compute_unweighable_grid(run, use, buf, n);
	free(use);
	return why;
}

int compare_series(struct compare *c, const char **why)
{
	struct cmp_memo *m = c->memo;
	if (!m->series_done) {   /* once: the test reads every cell of both compute heatmaps */
		bool several = several_ranks(c);
		char wa[160], wb[160];   /* the heatmap's test: no distributed analysis for the B - A heatmap */
		const char *ya = several ? side_unweighable(c->a, c->b->steps, wa, sizeof(wa)) : NULL;
		const char *yb = several ? side_unweighable(c->b, c->a->steps, wb, sizeof(wb)) : NULL;
		m->step_time_why[0] = '\0';
		if (ya || yb)
			unweighable_why(ya, yb, m->step_time_why, sizeof(m->step_time_why));
		else if (several)
			phases_outside_compute(c->a->steps, c->b->steps, m->step_time_why, sizeof(m->step_time_why));
		m->series = several && !m->step_time_why[0] ? HEAT_COMPUTE : HEAT_STEP_TIME;
		m->series_done = true;
	}
	if (why)
		*why = m->step_time_why[0] ? m->step_time_why : NULL;
	return m->series;
}

int compare_side_series(struct compare *c, int side)
{
	struct cmp_memo *m = c->memo;
	int series = compare_series(c, NULL);
	if (!m->side_series_done) {
		bool several = several_ranks(c);
		bool traces = trace_steps_only(c->a) && trace_steps_only(c->b) && (series == HEAT_COMPUTE || !several);
		m->side_series[0] = traces ? steps_metric_find(c->a->steps, METRIC_PHASE, "compute") : -1;
		m->side_series[1] = traces ? steps_metric_find(c->b->steps, METRIC_PHASE, "compute") : -1;
		if (m->side_series[0] < 0 || m->side_series[1] < 0)
			m->side_series[0] = m->side_series[1] = series;
		m->side_series_done = true;
	}
	return m->side_series[side ? 1 : 0];
}

/* ---- verdict -------------------------------------------------------------------------- */

static const struct cmp_rank *first_improved(const struct cmp_ranks *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].improved)
			return &r->v[i];
	return NULL;
}


/* Appends the step numbers of s: "step 7", "steps 100-199", "steps 0-19, 40-59" (its
 * stretches: never a range over steps it lacks), or, with more stretches than it keeps,
 * "steps in 0-300". */
static void span_steps(char *buf, size_t n, const struct cmp_span *s)
{
	if (s->nruns > CMP_SPAN_RUNS) {
		text_appendf(buf, n, "steps in %ld-%ld", s->lo, s->hi);
		return;
	}
	text_appendf(buf, n, "step%s ", s->n == 1 ? "" : "s");
	for (size_t i = 0; i < s->nruns; i++) {
		text_appendf(buf, n, "%s%ld", i ? ", " : "", s->run[i].lo);
		if (s->run[i].hi != s->run[i].lo)
			text_appendf(buf, n, "-%ld", s->run[i].hi);
	}
}

/* Appends "steps 100-199 (100 only in A)", or "step 2 (only in B)", for the steps of a
 * rank one side has. */
static void span_clause(char *buf, size_t n, const struct cmp_span *s, const char *side)
{
	if (!s->n)
		return;
	text_appendf(buf, n, "%s", *buf ? ", " : "");
	span_steps(buf, n, s);
	if (s->n == 1)
		text_appendf(buf, n, " (only in %s)", side);
	else
		text_appendf(buf, n, " (%zu only in %s)", s->n, side);
}

/* Appends "step 10 (no value in B: a NaN forward phase value)", or "steps 10-12 (3 with
 * no value in B, the first: ...)", for the common steps of a rank one side has no value
 * at (why: the cause at the first). */
static void novalue_clause(char *buf, size_t n, const struct cmp_span *s, const char *side, const char *why)
{
	if (!s->n)
		return;
	text_appendf(buf, n, "%s", *buf ? ", " : "");
	span_steps(buf, n, s);
	if (s->n == 1)
		text_appendf(buf, n, " (no value in %s: %s)", side, why);
	else
		text_appendf(buf, n, " (%zu with no value in %s, the first: %s)", s->n, side, why);
}

/* What of rank entry r was not compared (or not judged), "" when all of it was. */
static void left_clause(const struct cmp_ranks *all, const struct cmp_rank *r, char *buf, size_t n)
{
	buf[0] = '\0';
	if (!r->in_a || !r->in_b) {
		snprintf(buf, n, "(only in %s)", r->in_a ? "A" : "B");
		return;
	}
	if (!r->n && (r->novalue_a.n || r->novalue_b.n)) { /* common steps, none with a value on both */
		const char *side = r->novalue_a.n && r->novalue_b.n ? "A and B" : r->novalue_a.n ? "A" : "B";
		snprintf(buf, n, "(no phase value at its common steps in %s)", side);
		return;
	}
	if (!r->n && (!r->a_only.n || !r->b_only.n)) {
		snprintf(buf, n, "(no step records in %s)", r->a_only.n ? "B" : "A");
		return;
	}
	if (r->unmeasured) {
		snprintf(buf, n, "(no time measured in %s)", r->unmeasured);
		return;
	}
	span_clause(buf, n, &r->a_only, "A");
	span_clause(buf, n, &r->b_only, "B");
	novalue_clause(buf, n, &r->novalue_a, "A", r->novalue_why_a);
	novalue_clause(buf, n, &r->novalue_b, "B", r->novalue_why_b);
	if (all->judged && r->n < CMP_MIN_STEPS)
		text_appendf(buf, n, "%s(%zu common step%s: too few to judge)", *buf ? " " : "", r->n, r->n == 1 ? "" : "s");
}

enum { LEFT_GROUPS_SHOWN = 4 };

void compare_left_out(const struct cmp_ranks *r, char *buf, size_t n)
{
	buf[0] = '\0';
	size_t groups = 0, more = 0;
	for (size_t i = 0; i < r->n;) {
		char what[800], next[800];
		left_clause(r, &r->v[i], what, sizeof(what));
		size_t j = i + 1; /* ranks i..j-1: consecutive ids, the same clause */
		for (; j < r->n && r->v[j].rank == r->v[j - 1].rank + 1; j++) {
			left_clause(r, &r->v[j], next, sizeof(next));
			if (strcmp(what, next) != 0)
				break;
		}
		if (*what && groups++ < LEFT_GROUPS_SHOWN) {
			text_appendf(buf, n, "%s", groups > 1 ? ", " : "");
			if (j - i > 1)
				text_appendf(buf, n, "ranks %d-%d %s", r->v[i].rank, r->v[j - 1].rank, what);
			else
				text_appendf(buf, n, "rank %d %s", r->v[i].rank, what);
		} else if (*what) {
			more += j - i;
		}
		i = j;
	}
	if (more)
		text_appendf(buf, n, ", and %zu more rank%s", more, more == 1 ? "" : "s");
}

/* s without its surrounding white space: *len bytes from the returned pointer. */
static const char *trimmed(const char *s, size_t *len)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	*len = n;
	return s;
}

/* The number a side holds: a JSON number, or a string that is one number ("16", " 16 "). */
static bool side_number(const char *text, bool num, double nv, double *out)
{
	size_t len;
	const char *s = trimmed(text, &len);
	char buf[64], *end;
	if (num || len == 0 || len >= sizeof(buf)) {
		*out = nv;
		return num;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	*out = strtod(buf, &end);
	return *end == '\0' && isfinite(*out);
}

/* Texts a and b are one value: the same with their surrounding white space trimmed,
 * case-insensitively (gpu names: "A100 " and "a100"). */
static bool same_text(const char *a, const char *b)
{
	size_t la, lb;
	a = trimmed(a, &la);
	b = trimmed(b, &lb);
	return la == lb && strncasecmp(a, b, la) == 0;
}

/* Field f's two values are one value: numbers by value (16 and "16"), other text as
 * same_text. */
static bool same_value(const struct cmp_field *f)
{
	double x, y;
	bool nx = side_number(f->a, f->num_a, f->na, &x), ny = side_number(f->b, f->num_b, f->nb, &y);
	if (nx || ny)
		return nx && ny && x == y;
	return same_text(f->a, f->b);
}

/* The workload keys (pydiff.workload) that both sides set to different values
 * (same_value), as "key a -> b" (sanitized). */
static void workload_fields(char *buf, size_t n, const struct cmp_field *f, size_t nf)
{
	for (size_t i = 0; i < nf; i++) {
		if (!strcmp(f[i].a, "<absent>") || !strcmp(f[i].b, "<absent>") || same_value(&f[i]))
			continue;
		char *k = text_sanitize_dup(f[i].key, 0), *a = text_sanitize_dup(f[i].a, 0);
		char *b = text_sanitize_dup(f[i].b, 0);
		text_appendf(buf, n, "%s%s %s -> %s", *buf ? ", " : "", k, a, b);
		free(k);
		free(a);
		free(b);
	}
}

/* The workload keys two sweeps record differently (each side's values, sweep_wl_values;
 * sanitized by the loader), as "model auto -> llama-70b"; a key one side lacks is left out,
 * and so is a key that splits either sweep: diff_sweep pairs levels by it (same workload
 * with same workload) and names the series only one side has. */
static void sweep_workload_fields(struct compare *c, char *buf, size_t n)
{
	const struct sweep_set *sa = sweep_derived(c->a), *sb = sweep_derived(c->b);
	for (int k = 0; sa && sb && k < WL_N; k++) {
		if (sa->wl_split[k] || sb->wl_split[k])
			continue;
		char *a = sweep_wl_values(sa, k), *b = sweep_wl_values(sb, k);
		if (a && b && strcmp(a, b) != 0)
			text_appendf(buf, n, "%s%s %s -> %s", *buf ? ", " : "", sweep_wl_name(k), a, b);
		free(a);
		free(b);
	}
}

/* What differs in the work of a step between two trace sets, by the lowest rank's trace
 * of each: the GPU its kernels ran on (same_text) and distributedInfo's world_size, each
 * that both record, as "gpu Tesla T4 -> NVIDIA A100-SXM4-80GB" (sanitized). */
static void trace_workload_fields(const struct compare *c, char *buf, size_t n)
{
	const struct trace_set *ta = c->a->trace, *tb = c->b->trace;
	if (!ta || !tb || !ta->n || !tb->n)
		return;
	const char *ga = ta->r[0]->gpu, *gb = tb->r[0]->gpu;
	if (ga && gb && !same_text(ga, gb)) {
		char *a = text_sanitize_dup(ga, 0), *b = text_sanitize_dup(gb, 0);
		text_appendf(buf, n, "%sgpu %s -> %s", *buf ? ", " : "", a, b);
		free(a);
		free(b);
	}
	long wa = trace_world_size(c->a), wb = trace_world_size(c->b);
	if (wa >= 0 && wb >= 0 && wa != wb)
		text_appendf(buf, n, "%sworld_size %ld -> %ld", *buf ? ", " : "", wa, wb);
}

/* The workload keys that differ, made once (the explorer asks on every frame). */
static const char *workload_text(struct compare *c)
{
	if (c->memo->workload_done)
		return c->memo->workload;
	c->memo->workload_done = true;
	char buf[512] = "";
	const struct pydiff *d = strcmp(c->family, "steps") == 0 ? compare_pydiff(c) : NULL;
	if (d) {
		workload_fields(buf, sizeof(buf), d->workload, d->nworkload);
		const struct steps_meta *ma = steps_rank_meta(c->a->steps, 0), *mb = steps_rank_meta(c->b->steps, 0);
		if (ma && mb && ma->has_world && mb->has_world && ma->world_size != mb->world_size)
			text_appendf(buf, sizeof(buf), "%sworld_size %ld -> %ld", *buf ? ", " : "", ma->world_size,
				     mb->world_size);
	}
	if (strcmp(c->family, "sweep") == 0)
		sweep_workload_fields(c, buf, sizeof(buf));
	if (strcmp(c->family, "trace") == 0)
		trace_workload_fields(c, buf, sizeof(buf));
	c->memo->workload = xstrdup(buf);
	return c->memo->workload;
}

void compare_workload_diff(struct compare *c, char *buf, size_t n)
{
	snprintf(buf, n, "%s", workload_text(c));
}

bool compare_unlike(struct compare *c)
{
	return workload_text(c)[0] != '\0';
}

const char *compare_change_word(bool regressed, bool unlike)
{
	return regressed ? (unlike ? "slower" : "regressed") : (unlike ? "faster" : "improved");
}

/* The headline's step wall: B's change per step (over the steps every common rank has),
 * or why it is not compared. */
static void verdict_wall(const struct cmp_ranks *r, char *buf, size_t n)
{
	if (!r->has_wall) {
		snprintf(buf, n, "step wall not compared (%s)", r->no_wall);
		return;
	}
	double pct = (r->b_wall_ms - r->a_wall_ms) / r->a_wall_ms * 100;
	if (r->slower || r->faster)
		snprintf(buf, n, "B is %.1f%% %s per step", fabs(pct), r->slower ? "slower" : "faster");
	else
		snprintf(buf, n, "B takes the same time per step as A within noise (%+.1f%%)", pct);
	if (r->nwall < r->ncommon && r->nwall == (size_t)(r->wall_hi - r->wall_lo + 1))
		text_appendf(buf, n, " over steps %ld-%ld, the ones every compared rank has in both", r->wall_lo, r->wall_hi);
	else if (r->nwall < r->ncommon) /* a set with gaps: its range would claim more steps */
		text_appendf(buf, n, " over %zu steps in %ld-%ld, the ones every compared rank has in both", r->nwall,
			     r->wall_lo, r->wall_hi);
}

/* The per-rank part after the wall: the largest regression, or an improvement, or none. */
static void verdict_ranks(const struct cmp_ranks *r, bool left, char *buf, size_t n)
{
	if (r->nregressed) {
		const struct cmp_rank *w = &r->v[r->order[0]];
		text_appendf(buf, n, "; rank %d regressed", w->rank);
		if (w->onset_b >= 0)
			text_appendf(buf, n, " from step %ld", w->onset_b);
		if (r->nregressed > 1)
			text_appendf(buf, n, " (%zu ranks regressed)", r->nregressed);
	} else if (r->nimproved) {
		text_appendf(buf, n, "; no rank regressed, rank %d improved%s", first_improved(r)->rank,
			r->nimproved > 1 ? " (and others)" : "");
	} else {
		text_appendf(buf, n, "; no rank regressed beyond its noise%s", left ? " over the steps compared" : "");
	}
}

/* Why no step was compared: A and B have no rank id or step number in common, or the
 * steps in common have no phase value on a side (its step times: the side that lacks them). */
static void verdict_none(const struct cmp_ranks *r, char *buf, size_t n)
{
	bool none_a = false, none_b = false;
	for (size_t i = 0; i < r->n; i++) {
		none_a = none_a || r->v[i].novalue_a.n;
		none_b = none_b || r->v[i].novalue_b.n;
	}
	if (r->ncommon_ranks && (none_a || none_b))
		snprintf(buf, n, "step times not compared: no common step has a phase value in %s",
			 none_a && none_b ? "both A and B" : none_a ? "A" : "B");
	else
		snprintf(buf, n, "step times not compared: A and B have no %s in common",
			 r->ncommon_ranks ? "step number" : "rank id");
}

/* Too few common steps for the noise test: the raw difference, called nothing. */
static void verdict_not_judged(const struct cmp_ranks *r, char *buf, size_t n)
{
	snprintf(buf, n, "not judged: %zu common step%s (the noise test needs %d)", r->ncommon,
		 r->ncommon == 1 ? "" : "s", CMP_MIN_STEPS);
	if (r->has_wall)
		text_appendf(buf, n, "; mean step wall %+.1f%% in B", (r->b_wall_ms - r->a_wall_ms) / r->a_wall_ms * 100);
}

/* The judged verdict: the step wall, then the ranks, or the workload that differs. */
static void verdict_judged(const struct cmp_ranks *r, bool left, const char *workload, char *buf, size_t n)
{
	verdict_wall(r, buf, n);
	if (*workload) { /* other work per step: a change, not a regression */
		text_appendf(buf, n, ", but the workload differs (%s): not a like-for-like comparison", workload);
		if (r->nregressed || r->nimproved)
			text_appendf(buf, n, "; %zu rank%s slower and %zu faster beyond noise, none called regressed",
				r->nregressed, r->nregressed == 1 ? "" : "s", r->nimproved);
	} else {
		verdict_ranks(r, left, buf, n);
	}
}

/* Why the ranks' times were not set side by side (no common step, no time measured, a
 * phase on one side only) into buf; false when they were. */
static bool verdict_uncompared(const struct cmp_ranks *r, char *buf, size_t n)
{
	if (!r->ncommon || !r->ncommon_ranks) {
		verdict_none(r, buf, n);
	} else if (r->unmeasured) { /* zeros are no time: nothing to call faster, slower or the same */
		const char *what = r->by_step_time ? "step time" : "compute";
		snprintf(buf, n, "%s not compared: every compared rank's %s is 0 in %s at every common step (no time "
			 "measured)", r->by_step_time ? "step times" : "compute times", what, r->unmeasured);
	} else if (r->one_side[0]) { /* a phase missing on a side is no time, not 0 s */
		snprintf(buf, n, "step times not judged: %s, so A's and B's times add up different phases",
			 r->one_side);
	} else {
		return false;
	}
	return true;
}

static void verdict_steps(const struct cmp_ranks *r, bool left, const char *workload, char *buf, size_t n)
{
	bool compared = !verdict_uncompared(r, buf, n), judged = compared && !r->identical && r->judged;
	if (compared && r->identical && r->ncommon_min < r->ncommon) /* not every rank over as many */
		snprintf(buf, n, "no difference: identical per-step times on %zu-%zu common steps per rank of %zu "
			 "ranks", r->ncommon_min, r->ncommon, r->ncompared_ranks);
	else if (compared && r->identical)
		snprintf(buf, n, "no difference: identical per-step times on %zu common step%s of %zu rank%s",
			 r->ncommon, r->ncommon == 1 ? "" : "s", r->ncompared_ranks, r->ncompared_ranks == 1 ? "" : "s");
	else if (compared && !judged)
		verdict_not_judged(r, buf, n);
	else if (judged)
		verdict_judged(r, left, workload, buf, n); /* names the workload itself */
	if (*workload && !judged) /* the times, the same or not, are of other work per step */
		text_appendf(buf, n, "; the workload differs (%s): not a like-for-like comparison", workload);
	if (compared && r->step_time_why) /* what the ranks were compared by */
		text_appendf(buf, n, "; ranks judged by step time: %s", r->step_time_why);
}

void compare_verdict(struct compare *c, char *buf, size_t n)
{
	if (strcmp(c->family, "sweep") == 0) {
		compare_sweep_verdict(c, buf, n);
		return;
	}
	if (strcmp(c->family, "dasf") == 0) {
		compare_dasf_verdict(c, buf, n);
		return;
	}
	const struct cmp_ranks *r = compare_ranks(c);
	char left[CMP_TEXT_MAX];
	if (!r) {
		snprintf(buf, n, "step times not compared: %s has no step records",
			 !c->a->steps || !steps_total_records(c->a->steps) ? "A" : "B");
	} else {
		compare_left_out(r, left, sizeof(left));
		verdict_steps(r, *left, workload_text(c), buf, n);
		if (*left)
			text_appendf(buf, n, "; not compared: %s", left);
	}
	if (compare_subset(c, left, sizeof(left))) /* a verdict on the ranks --ranks named */
		text_appendf(buf, n, "; over the ranks loaded only (%s)", left);
}

bool compare_subset(const struct compare *c, char *buf, size_t n)
{
	char a[160], b[160];
	buf[0] = '\0';
	if (strcmp(c->family, "steps") != 0 && strcmp(c->family, "trace") != 0)
		return false;
	bool sa = steps_subset_scope(c->a, a, sizeof(a)), sb = steps_subset_scope(c->b, b, sizeof(b));
	if (sa && sb && strcmp(a, b) == 0)
		snprintf(buf, n, "A and B each: %s", a);
	else if (sa || sb)
		snprintf(buf, n, "A: %s; B: %s", sa ? a : "every rank loaded", sb ? b : "every rank loaded");
	return sa || sb;
}

const char *compare_sides_whole(const struct compare *c)
{
	char subset[CMP_TEXT_MAX];
	return compare_subset(c, subset, sizeof(subset)) ? "the ranks loaded and all steps of each side"
							  : "all ranks and steps of each side";
}

/* --warmup N of a step pair (both sides open with the same options), else 0. */
static long steps_warmup(const struct compare *c)
{
	return strcmp(c->family, "steps") == 0 && c->a->opts && c->a->opts->warmup > 0 ? c->a->opts->warmup : 0;
}

/* The ranks each side's run budget adds, when not every rank (analysis_budget_all: only
 * those that measure every line some rank measures), appended to buf. */
static void budget_ranks_clause(const struct compare *c, char *buf, size_t n)
{
	const struct budget *a = c->a->steps ? analysis_budget_all(c->a) : NULL;
	const struct budget *b = c->b->steps ? analysis_budget_all(c->b) : NULL;
	if (!a || !b)
		return;
	size_t na = steps_nranks(c->a->steps), nb = steps_nranks(c->b->steps);
	if (a->nranks < na || b->nranks < nb)
		text_appendf(buf, n, "; only the ranks that measure every line: %zu of %zu in A, %zu of %zu in B",
			     a->nranks, na, b->nranks, nb);
}

const char *compare_budget_whole(const struct compare *c, char *buf, size_t n)
{
	long w = steps_warmup(c);
	char subset[CMP_TEXT_MAX];
	if (!w)
		snprintf(buf, n, "%s", compare_sides_whole(c));
	else
		snprintf(buf, n, "%s of each side, each rank's step records after --warmup %ld",
			 compare_subset(c, subset, sizeof(subset)) ? "the ranks loaded" : "all ranks", w);
	budget_ranks_clause(c, buf, n);
	return buf;
}

bool compare_warmup_scope(const struct compare *c, char *buf, size_t n)
{
	long w = steps_warmup(c);
	buf[0] = '\0';
	if (w)
		snprintf(buf, n, "--warmup %ld not applied here: the ranks are compared over every common step, as the "
			 "distributed analysis reads them; the pytscope metrics and the budget skip the first %ld step "
			 "records of each rank they read", w, w);
	return w > 0;
}

void compare_scope(struct compare *c, char *buf, size_t n)
{
	const struct cmp_ranks *r = compare_ranks(c);
	buf[0] = '\0';
	if (!r)
		return;
	char left[CMP_TEXT_MAX];
	compare_left_out(r, left, sizeof(left));
	if (!*left)
		return;
	snprintf(buf, n, "A: %zu rank%s, steps %ld-%ld; B: %zu rank%s, steps %ld-%ld; compared: ", r->a_ranks,
		 r->a_ranks == 1 ? "" : "s", r->a_lo, r->a_hi, r->b_ranks, r->b_ranks == 1 ? "" : "s", r->b_lo, r->b_hi);
	if (r->ncompared_ranks - r->nunmeasured < r->ncommon_ranks)
		text_appendf(buf, n, "%zu of ", r->ncompared_ranks - r->nunmeasured);
	text_appendf(buf, n, "%zu common rank%s, ", r->ncommon_ranks, r->ncommon_ranks == 1 ? "" : "s");
	if (r->ncommon_min == r->ncommon)
		text_appendf(buf, n, "%zu common step%s", r->ncommon, r->ncommon == 1 ? "" : "s");
	else
		text_appendf(buf, n, "%zu-%zu common steps per rank", r->ncommon_min, r->ncommon);
	text_appendf(buf, n, "%s; not compared: %s", r->ncommon ? "" : " (nothing to compare)", left);
}

_Static_assert(CMP_TRACE_ENV_KEYS == TRACE_ENV_KEYS, "compare.h's count of the traces' environment keys");

size_t compare_trace_env(const struct compare *c, struct cmp_env out[CMP_TRACE_ENV_KEYS])
{
	const struct trace_set *ta = c->a->trace, *tb = c->b->trace;
	if (!ta || !tb || !ta->n || !tb->n)
		return 0;
	size_t n = 0;
	for (size_t k = 0; k < TRACE_ENV_KEYS; k++) {
		const char *a = trace_rank_env(ta->r[0], k), *b = trace_rank_env(tb->r[0], k);
		if (a || b)
			out[n++] = (struct cmp_env){ trace_env_keys[k], a, b, !text_same(a, b) };
	}
	return n;
}

/* The trace environment's line: the keys that differ as "gpu A -> B", else every key's
 * value, the same on both sides. */
static void summary_trace_env(const struct compare *c, struct summary *s)
{
	struct cmp_env e[CMP_TRACE_ENV_KEYS];
	size_t n = compare_trace_env(c, e), ndiff = 0;
	for (size_t i = 0; i < n; i++)
		ndiff += e[i].differs;
	char buf[SUMMARY_TEXT] = "";
	size_t used = 0;
	for (size_t i = 0; i < n && used < sizeof(buf); i++) {
		const char *a = e[i].a ? e[i].a : "n/a", *b = e[i].b ? e[i].b : "n/a";
		if (ndiff && e[i].differs)
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s %s -> %s", used ? "; " : "",
						 e[i].key, a, b);
		else if (!ndiff)
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s %s", used ? "; " : "", e[i].key, a);
	}
	if (n)
		summary_add(s, ndiff ? TONE_WARN : TONE_NORMAL, "environment", "%s (the lowest rank's trace%s)", buf,
			    ndiff ? "" : ", the same on both sides");
}

/* The tone of compare_dasf_verdict's result. */
static enum summary_tone dasf_tone(int rc)
{
	return rc == 0 ? TONE_GOOD : rc == 1 ? TONE_BAD : TONE_WARN;
}

/* Sentence or more pieces that fit a summary line each: the whole of text up to max bytes
 * (max < strlen(text)), cut after the last "; " in it, else the last ", ", else before the
 * last space, else at a character's start. Returns the piece's length. */
static size_t piece_len(const char *text, size_t max)
{
	static const char *const sep[] = { "; ", ", ", " " };
	for (size_t k = 0; k < ARRAY_LEN(sep); k++) {
		size_t keep = sep[k][1] ? 1 : 0;   /* the ';' or ',' ends the piece, a space does not */
		for (size_t i = max - keep; i > 0; i--)
			if (strncmp(text + i, sep[k], strlen(sep[k])) == 0)
				return i + keep;
	}
	while (max > 0 && ((unsigned char)text[max] & 0xC0) == 0x80)
		max--;
	return max ? max : 1;
}

/* A value longer than a summary line holds (the verdict, the scope) as several lines, the
 * first under key, the others under "", each cut between clauses or words (piece_len),
 * never mid-word; prose when asked (the Overview gives it more rows to wrap). */
static void summary_add_long(struct summary *s, enum summary_tone tone, const char *key, const char *text, bool prose)
{
	while (*text) {
		size_t len = strlen(text);
		if (len >= SUMMARY_TEXT)
			len = piece_len(text, SUMMARY_TEXT - 1);
		struct summary_line *l = summary_add(s, tone, key, "%.*s", (int)len, text);
		if (!l)
			return;
		l->prose = prose;
		key = "";
		text += len;
		text += strspn(text, " ");
	}
}

void compare_summary(struct compare *c, struct summary *s)
{
	char buf[CMP_TEXT_MAX];
	const struct cmp_ranks *r = compare_ranks(c);
	s->n = 0;
	bool unlike = compare_unlike(c);
	enum summary_tone tone = r && (r->nregressed || r->slower) ? unlike ? TONE_WARN : TONE_BAD : TONE_GOOD;
	if (r && !r->judged && !r->identical) /* too few common steps: no verdict, not good */
		tone = TONE_WARN;
	if (tone == TONE_GOOD && compare_subset(c, buf, sizeof(buf))) /* good for the ranks loaded: not green */
		tone = TONE_NORMAL;
	if (strcmp(c->family, "sweep") == 0) /* a change is given, not judged: never good */
		tone = compare_sweep_verdict(c, buf, sizeof(buf)) == 0 ? TONE_GOOD : TONE_WARN;
	else if (strcmp(c->family, "dasf") == 0)
		tone = dasf_tone(compare_dasf_verdict(c, buf, sizeof(buf)));
	else
		compare_verdict(c, buf, sizeof(buf));
	summary_add_long(s, tone, "verdict", buf, true);
	summary_add(s, TONE_NORMAL, "A", "%s (%s)", c->a->name ? c->a->name : "-", c->a->path ? c->a->path : "-");
	summary_add(s, TONE_NORMAL, "B", "%s (%s)", c->b->name ? c->b->name : "-", c->b->path ? c->b->path : "-");
	compare_scope(c, buf, sizeof(buf));
	summary_add_long(s, TONE_WARN, "scope", buf, false);
	if (r && compare_warmup_scope(c, buf, sizeof(buf)))
		summary_add_long(s, TONE_NORMAL, "warmup", buf, true);
	summary_trace_env(c, s);
	if (strcmp(c->family, "dasf") == 0)
		compare_dasf_summary(c, s);
	if (r && r->has_wall) {
		char a[32], b[32], d[32], z[32] = "n/a"; /* no noise estimate under CMP_MIN_STEPS */
		if (r->judged)
			units_seconds(r->wall_noise_ms / 1e3, z, sizeof(z));
		summary_add(s, TONE_NORMAL, "step wall", "%s -> %s (%s, noise %s) over %zu common step%s",
			    units_seconds(r->a_wall_ms / 1e3, a, sizeof(a)), units_seconds(r->b_wall_ms / 1e3, b, sizeof(b)),
			    units_seconds_signed((r->b_wall_ms - r->a_wall_ms) / 1e3, d, sizeof(d)), z, r->nwall,
			    r->nwall == 1 ? "" : "s");
	}
	size_t nf, k[CMP_NSTATUS] = { 0 };
	const struct cmp_finding *f = compare_findings(c, &nf);
	for (size_t i = 0; i < nf; i++)
		k[f[i].status]++;
	char unjudged[64] = "";
	for (int st = CMP_UNJUDGED_A; st <= CMP_UNJUDGED_B; st++)
		if (k[st])
			text_appendf(unjudged, sizeof(unjudged), ", %zu %s", k[st], compare_status_name(st));
	summary_add(s, k[CMP_NEW] ? TONE_WARN : TONE_NORMAL, "findings A/B",
		    "%zu new in B, %zu resolved, %zu persisting%s (5 lists them)", k[CMP_NEW], k[CMP_RESOLVED],
		    k[CMP_PERSIST], unjudged);
	/* pytscope's diff is of step runs' run.json and losses: none for trace sets */
	const struct pydiff *d = strcmp(c->family, "steps") == 0 ? compare_pydiff(c) : NULL;
	for (size_t i = 0; d && i < d->nnative; i++) {
		struct summary_line *l = summary_add(s, TONE_NORMAL, i ? "" : "reproducible?", "%s", d->native[i]);
		if (l)
			l->prose = true;
	}
}
