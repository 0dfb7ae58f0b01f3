/* SPDX-License-Identifier: MIT */
/* views.c: the tables of a run comparison (see views.h): per-rank deltas, environment
 * and config differences, budget side by side (deltas not judged when a side's budget
 * leaves out ANALYSIS_OUTSIDE_BAR of its phase time in phases it does not weigh; any it
 * leaves out said in the title and note; the useful compute, compute overhead and MFU
 * deltas not judged, said there too, when one side has an MFU and the other not; the
 * point deltas not judged when one side measures a line the other does not, their rank
 * walls adding up different lines; no useful compute share of a side that records only
 * its compute; a side without a run budget refused with its reason),
 * findings new/resolved/persisting and the rules a side could not judge
 * (compare_unjudged; a pair with none of either refused by --export through its empty
 * note), kernel deltas of two trace sets (HTA's trace diff: kernels only in A or only in
 * B too, the other side's cells and the deltas empty; the largest change in total time
 * first, an increase or a decrease; per profiler step when the sides count other numbers
 * of them; not judged when the sides count other scopes, or no one step count a side), the
 * registry of the pair's views and tabs (a tab shown when its view has something for the pair),
 * and what Enter on a row opens (compare_row_evidence); sweep levels and a sweep pair's verdict are
 * sweep.c's, DASF functions dasf.c's. Built from the compare analyses and from each run's
 * own views, joined here. */
#include "model/compare/views.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/compare/internal.h"
#include "model/registry.h"
#include "model/steps/analysis.h"
#include "model/steps/steps.h"
#include "model/sweep/sweep.h"
#include "model/text.h"
#include "model/trace/trace.h"
#include "model/xalloc.h"

static struct table *no_data(char *err, size_t errn, const char *why)
{
	snprintf(err, errn, "%s", why);
	return NULL;
}

/* ---- diff_ranks -------------------------------------------------------------------------- */

/* unlike: the workloads differ (compare_workload_diff): slower or faster, never regressed
 * or improved. */
static const char *rank_change(const struct cmp_rank *r, bool unlike)
{
	if (!r->in_a)
		return "only_in_B";
	if (!r->in_b)
		return "only_in_A";
	if (!r->judged) /* the noise test did not run: too few steps, or no time measured */
		return "n/a";
	if (unlike)
		return r->regressed ? "slower_unlike" : r->improved ? "faster_unlike" : "same";
	return r->regressed ? "regressed" : r->improved ? "improved" : "same";
}

/* Whether rank entry k has a delta: in both runs, compared over some step, time measured
 * on both sides (all: the ranks of the pair, whose side may have measured none), the
 * sides adding up the same phases (all->one_side). */
static bool rank_has_delta(const struct cmp_ranks *all, const struct cmp_rank *k)
{
	return k->in_a && k->in_b && k->n && !k->unmeasured && !all->unmeasured && !all->one_side[0];
}

/* Row order: regressed ranks by regression size (largest first), then the others with a
 * delta by regression size, then those without one (of one run only, no time measured,
 * no common step: nothing to weigh), each group by rank id on ties. */
static int row_rank(const void *x, const void *y, void *all)
{
	const struct cmp_rank *a = *(const struct cmp_rank *const *)x, *b = *(const struct cmp_rank *const *)y;
	if (a->regressed != b->regressed)
		return a->regressed ? -1 : 1;
	bool da = rank_has_delta(all, a), db = rank_has_delta(all, b);
	if (da != db)
		return da ? -1 : 1;
	if (!da)
		return (a->rank > b->rank) - (a->rank < b->rank);
	double ra = compare_regression_s(a), rb = compare_regression_s(b);
	if (ra != rb)
		return ra < rb ? 1 : -1;
	return (a->rank > b->rank) - (a->rank < b->rank);
}

static struct table *build_diff_ranks(struct compare *c, char *err, size_t errn)
{
	const struct cmp_ranks *r = compare_ranks(c);
	if (!r)
		return no_data(err, errn, "a side has no step records");
	char workload[512];
	compare_workload_diff(c, workload, sizeof(workload));
	/* the column names stay (a schema kept); basis and the title say what they hold, the
	 * title and (by compute: not what basis says) the note why time lost is empty */
	char *lost = r->no_lost[0] ? xasprintf("time lost n/a: %s", r->no_lost) : NULL;
	char *title = xasprintf("Ranks by %s, A vs B (regressed first%s%s)", r->by_step_time ? "step time" : "compute",
				lost ? "; " : "", lost ? lost : "");
	struct table *t = table_new("diff_ranks", title);
	table_set_note(t, r->by_step_time ? NULL : lost);
	free(title);
	free(lost);
	int c_rank = table_add_col(t, "rank", COL_INT, 5, 0);
	table_set_role(t, c_rank, COL_ROLE_RANK);
	int c_chg = table_add_col(t, "change", COL_TEXT, 10, 0);
	int c_am = table_add_col(t, "a_mean_compute_ms", COL_NUM, 9, 3);
	int c_bm = table_add_col(t, "b_mean_compute_ms", COL_NUM, 9, 3);
	int c_dm = table_add_col(t, "delta_mean_compute_ms", COL_NUM, 9, 3);
	int c_noise = table_add_col(t, "noise_ms", COL_NUM, 8, 3);
	int c_al = table_add_col(t, "a_time_lost_s", COL_NUM, 9, 3);
	int c_bl = table_add_col(t, "b_time_lost_s", COL_NUM, 9, 3);
	int c_dl = table_add_col(t, "delta_time_lost_s", COL_NUM, 9, 3);
	int c_on = table_add_col(t, "onset_b", COL_INT, 7, 0);
	table_set_role(t, c_on, COL_ROLE_ONSET);
	int c_n = table_add_col(t, "steps", COL_INT, 7, 0);
	int c_basis = table_add_col(t, "basis", COL_TEXT, 9, 0);
	static const char doc[] = "mean per common step of what the ranks are compared by (basis: compute, or "
				  "step_time when a run has no compute to weigh or phases compute leaves out); ";
	table_col_doc(t, c_am, doc);
	table_col_doc(t, c_bm, doc);
	table_col_doc(t, c_dm, "B - A of that mean, empty for a rank with no time measured on a side (or a side "
				"with none on any rank), or when a side records a phase the other does not; ");
	table_col_doc(t, c_basis, "compute (pytscope's compute phases) or step_time: what the ranks are compared by; ");
	static const char lost_doc[] = "seconds the other ranks of the step wall waited for this rank over the wall's "
				       "steps, A's, B's and B - A; empty by step time, for a rank out of the wall "
				       "(one run only, no time measured), or as the title says (time lost n/a); ";
	table_col_doc(t, c_al, lost_doc);
	table_col_doc(t, c_bl, lost_doc);
	table_col_doc(t, c_dl, lost_doc);
	const struct cmp_rank **v = xmalloc((r->n + 1) * sizeof(*v));
	for (size_t i = 0; i < r->n; i++)
		v[i] = &r->v[i];
	qsort_r(v, r->n, sizeof(*v), row_rank, (void *)r);
	for (size_t i = 0; i < r->n; i++) {
		const struct cmp_rank *k = v[i];
		size_t row = table_add_row(t, k->rank);
		table_set_num(t, row, c_rank, k->rank);
		table_set_text(t, row, c_chg, rank_change(k, *workload));
		bool both = k->in_a && k->in_b && k->n;
		table_set_num_opt(t, row, c_am, k->a_ms, both);
		table_set_num_opt(t, row, c_bm, k->b_ms, both);
		table_set_num_opt(t, row, c_dm, k->delta_ms, rank_has_delta(r, k));
		table_set_num_opt(t, row, c_noise, k->noise_ms, k->judged);
		table_set_num_opt(t, row, c_al, k->a_lost_s, k->has_lost);
		table_set_num_opt(t, row, c_bl, k->b_lost_s, k->has_lost);
		table_set_num_opt(t, row, c_dl, k->b_lost_s - k->a_lost_s, k->has_lost);
		table_set_num_opt(t, row, c_on, (double)k->onset_b, k->onset_b >= 0);
		table_set_num_opt(t, row, c_n, (double)k->n, k->in_a && k->in_b);
		table_set_text(t, row, c_basis, r->by_step_time ? "step_time" : "compute");
	}
	free(v);
	return t;
}

/* ---- diff_env ------------------------------------------------------------------------------ */

/* Rows of env_table (below) for the fields f[0..n) of one section. */
static void env_rows(struct table *t, const char *section, const struct cmp_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t row = table_add_row(t, (long)i);
		table_set_text(t, row, 0, section);
		table_set_text(t, row, 1, f[i].key);
		table_set_text(t, row, 2, f[i].a);
		table_set_text(t, row, 3, f[i].b);
	}
}

/* diff_env's table: its section, key, a and b columns (section at 0). */
static struct table *env_table(const char *title)
{
	struct table *t = table_new("diff_env", title);
	table_add_col(t, "section", COL_TEXT, 11, 0);
	table_add_col(t, "key", COL_TEXT, 28, 0);
	table_add_col(t, "a", COL_TEXT, 24, 0);
	table_add_col(t, "b", COL_TEXT, 24, 0);
	return t;
}

/* Trace sets: what the lowest rank's trace of each side records, every key either side
 * has (n/a where one does not), with whether it differs; some key recorded (env_missing). */
static struct table *trace_env_table(struct compare *c)
{
	struct cmp_env e[CMP_TRACE_ENV_KEYS];
	size_t n = compare_trace_env(c, e);
	struct table *t = env_table("GPU and CUDA the lowest rank's trace records, A vs B");
	int cd = table_add_col(t, "differs", COL_TEXT, 7, 0);
	for (size_t i = 0; i < n; i++) {
		size_t row = table_add_row(t, (long)i);
		table_set_text(t, row, 0, "trace");
		table_set_text(t, row, 1, e[i].key);
		table_set_text(t, row, 2, e[i].a ? e[i].a : "n/a");
		table_set_text(t, row, 3, e[i].b ? e[i].b : "n/a");
		table_set_text(t, row, cd, e[i].differs ? "yes" : "no");
	}
	return t;
}

/* Why diff_env has nothing for the pair, NULL when it has something: the one test of
 * build_diff_env and the Env tab. Trace sets need a GPU or CUDA key either side's
 * lowest-rank trace records, others the lowest ranks' run.json of step runs with step
 * records on both sides (compare_pydiff). */
static const char *env_missing(const struct compare *c)
{
	struct cmp_env e[CMP_TRACE_ENV_KEYS];
	if (strcmp(c->family, "trace") == 0)
		return compare_trace_env(c, e) ? NULL : "neither side's lowest-rank trace records its GPU or CUDA";
	return compare_has_steps(c) ? NULL : "needs step runs with step records on both sides";
}

static struct table *build_diff_env(struct compare *c, char *err, size_t errn)
{
	const char *why = env_missing(c);
	if (why)
		return no_data(err, errn, why);
	if (strcmp(c->family, "trace") == 0)
		return trace_env_table(c);
	const struct pydiff *d = compare_pydiff(c); /* not NULL: compare_has_steps */
	struct table *t = env_table("Environment and config differences (run.json of the lowest rank)");
	table_set_empty_note(t, "no difference: the lowest ranks' run.json environment and config are identical "
				"(pytscope diff: \"(identical)\")");
	env_rows(t, "environment", d->env, d->nenv);
	env_rows(t, "config", d->config, d->nconfig);
	return t;
}

/* ---- diff_budget ------------------------------------------------------------------------- */

/* Budget b leaves out ANALYSIS_OUTSIDE_BAR or more of its phase time in phases it does not
 * weigh: its rank wall misses that time (the single-run efficiency is not judged then). */
static bool budget_left_over_bar(const struct budget *b)
{
	return b->foreign / (b->wall + b->foreign) >= ANALYSIS_OUTSIDE_BAR;
}

/* Whether the run budgets a and b compare line by line: neither leaves out the bar's
 * share of its phase time (budget_left_over_bar). buf says what each side leaves out
 * ("B leaves out fwd 1.2 s, a phase the budget does not weigh (3.1% of the phase time)"),
 * led by "budget deltas not judged: " when they do not compare; "" when neither leaves
 * out any. */
static bool budget_alike(struct compare *c, const struct budget *a, const struct budget *b, char *buf, size_t n)
{
	char la[CMP_TEXT_MAX], lb[CMP_TEXT_MAX];
	const char *wa = analysis_budget_left_out(c->a, a, la, sizeof(la));
	const char *wb = analysis_budget_left_out(c->b, b, lb, sizeof(lb));
	bool alike = !budget_left_over_bar(a) && !budget_left_over_bar(b);
	buf[0] = '\0';
	if (!alike)
		text_appendf(buf, n, "budget deltas not judged: ");
	if (wa)
		text_appendf(buf, n, "A leaves out %s", wa);
	if (wb)
		text_appendf(buf, n, "%sB leaves out %s", wa ? "; " : "", wb);
	if (!alike)
		text_appendf(buf, n, ": the budget's rank wall misses that time");
	return alike;
}

/* Whether the budgets a and b weigh compute alike: both have an MFU (FLOPs and a peak) or
 * neither has. A side without one counts all of its compute as useful compute and none as
 * compute_overhead, so those lines and the MFU measure other quantities on the two sides:
 * why appended to buf ("useful_compute, compute_overhead and mfu deltas not judged: B has
 * no MFU (no FLOPs/peak ...), so all of its compute counts as useful compute"). */
static bool budget_mfu_alike(const struct budget *a, const struct budget *b, char *buf, size_t n)
{
	if (a->has_mfu == b->has_mfu)
		return true;
	const char *na = analysis_budget_mfu_na(a->has_mfu ? b : a);
	char safe[CMP_TEXT_MAX];
	text_sanitize(na, strlen(na), safe, sizeof(safe), 0); /* it may name the run's GPU */
	text_appendf(buf, n, "%suseful_compute, compute_overhead and mfu deltas not judged: %c has no MFU (%s), so all "
		     "of its compute counts as useful compute", *buf ? "; " : "", a->has_mfu ? 'B' : 'A', safe);
	return false;
}

/* Whether the rank walls of budgets a and b add up the same lines (all but compute_overhead,
 * a part of the compute either way): a line one side measures and the other does not makes
 * their shares (and MFU, of the same walls) shares of other sums; why appended to buf
 * ("point deltas not judged: data_stall measured in A only, so ..."). A side whose
 * efficiency is not judged (only compute recorded: 100% by construction) has no
 * useful_compute share, said there too. */
static bool budget_walls_alike(const struct budget *a, const struct budget *b, char *buf, size_t n)
{
	char only[2][128] = { "", "" };
	for (int i = 0; i < BUDGET_NLINES; i++)
		if (i != BUDGET_OVERHEAD && a->line[i].measured != b->line[i].measured)
			text_appendf(only[b->line[i].measured], sizeof(only[0]), "%s%s",
				     *only[b->line[i].measured] ? ", " : "", a->line[i].name);
	bool alike = !*only[0] && !*only[1];
	if (!alike)
		text_appendf(buf, n, "%spoint deltas not judged: %s%s%s%s%s, so A's and B's rank walls add up "
			     "different lines", *buf ? "; " : "", only[0], *only[0] ? " measured in A only" : "",
			     *only[0] && *only[1] ? ", " : "", only[1], *only[1] ? " measured in B only" : "");
	for (int s = 0; s < 2; s++) {
		const struct budget *x = s ? b : a;
		if (!x->judged && x->line[BUDGET_USEFUL].measured)
			text_appendf(buf, n, "%s%c's useful_compute share n/a: %s", *buf ? "; " : "", s ? 'B' : 'A',
				     analysis_budget_unjudged(x));
	}
	return alike;
}

/* Budget line i depends on the MFU: useful compute and compute overhead. */
static bool budget_line_of_mfu(int i)
{
	return i == BUDGET_USEFUL || i == BUDGET_OVERHEAD;
}

/* When diff_budget's deltas are empty (the doc of both delta columns). */
#define DIFF_BUDGET_DOC "B - A; empty for a line a side does not measure, for every line when a side's budget " \
	"leaves out 5% or more of its phase time in phases it does not weigh (the title says), and for " \
	"useful_compute, compute_overhead and mfu when one side has an MFU and the other not (the title says why); "

static struct table *build_diff_budget(struct compare *c, char *err, size_t errn)
{
	const struct budget *a = analysis_budget_all(c->a), *b = analysis_budget_all(c->b);
	char why[CMP_TEXT_MAX];
	if (!a || !b) { /* a side's reason, as its own budget view gives it */
		snprintf(err, errn, "%c has no run budget: %s", a ? 'B' : 'A',
			 analysis_budget_all_why(a ? c->b : c->a, why, sizeof(why)));
		return NULL;
	}
	char whole[CMP_TEXT_MAX], left[CMP_TEXT_MAX];
	bool alike = budget_alike(c, a, b, left, sizeof(left));
	bool mfu_alike = budget_mfu_alike(a, b, left, sizeof(left));
	bool walls = budget_walls_alike(a, b, left, sizeof(left));
	char *title = xasprintf("Efficiency budget per step record, A vs B (%s%s%s)",
				compare_budget_whole(c, whole, sizeof(whole)), *left ? "; " : "", left);
	struct table *t = table_new("diff_budget", title);
	free(title);
	table_set_note(t, *left ? left : NULL);
	int c_line = table_add_col(t, "line", COL_TEXT, 17, 0);
	int c_am = table_add_col(t, "a_ms_per_step", COL_NUM, 9, 3);
	int c_bm = table_add_col(t, "b_ms_per_step", COL_NUM, 9, 3);
	int c_dm = table_add_col(t, "delta_ms_per_step", COL_NUM, 9, 3);
	int c_ap = table_add_col(t, "a_pct", COL_NUM, 6, 1);
	int c_bp = table_add_col(t, "b_pct", COL_NUM, 6, 1);
	int c_dp = table_add_col(t, "delta_pct_points", COL_NUM, 7, 1);
	int c_rec = table_add_col(t, "recoverable", COL_TEXT, 5, 0);
	table_col_doc(t, c_dm, DIFF_BUDGET_DOC);
	table_col_doc(t, c_dp, DIFF_BUDGET_DOC "also empty for every line and mfu when one side measures a "
		      "useful_compute, data_stall, communication or other line the other does not (their rank walls "
		      "add up different lines: the title says), and where a side's share is empty; ");
	static const char pdoc[] = "% of the side's rank wall; empty for a line it does not measure, and for "
				   "useful_compute when it records only its compute (100% by construction); ";
	table_col_doc(t, c_ap, pdoc);
	table_col_doc(t, c_bp, pdoc);
	for (int i = 0; i < BUDGET_NLINES; i++) {
		const struct budget_line *la = &a->line[i], *lb = &b->line[i];
		size_t row = table_add_row(t, i);
		double am = la->seconds / (double)a->n * 1e3, bm = lb->seconds / (double)b->n * 1e3;
		bool ma = la->measured, mb = lb->measured; /* a line nothing measures: empty */
		bool delta = ma && mb && alike && (mfu_alike || !budget_line_of_mfu(i));
		/* a share of a wall that is the compute alone: 100% by construction, empty */
		bool pa = ma && (a->judged || i != BUDGET_USEFUL), pb = mb && (b->judged || i != BUDGET_USEFUL);
		table_set_text(t, row, c_line, la->name);
		table_set_num_opt(t, row, c_am, am, ma);
		table_set_num_opt(t, row, c_bm, bm, mb);
		table_set_num_opt(t, row, c_dm, bm - am, delta);
		table_set_num_opt(t, row, c_ap, la->fraction * 100, pa);
		table_set_num_opt(t, row, c_bp, lb->fraction * 100, pb);
		table_set_num_opt(t, row, c_dp, (lb->fraction - la->fraction) * 100, delta && walls && pa && pb);
		table_set_text(t, row, c_rec, la->recoverable ? "yes" : "no");
	}
	size_t row = table_add_row(t, BUDGET_NLINES);
	table_set_text(t, row, c_line, "mfu");
	table_set_num_opt(t, row, c_ap, a->mfu * 100, a->has_mfu);
	table_set_num_opt(t, row, c_bp, b->mfu * 100, b->has_mfu);
	table_set_num_opt(t, row, c_dp, (b->mfu - a->mfu) * 100, a->has_mfu && b->has_mfu && alike && walls);
	return t;
}

/* ---- diff_findings ------------------------------------------------------------------------ */

static struct table *build_diff_findings(struct compare *c, char *err, size_t errn)
{
	size_t n;
	const struct cmp_finding *v = compare_findings(c, &n);
	struct table *t = table_new("diff_findings", "Findings: new in B, resolved, not judged on one side, "
				    "persisting; rules not judged");
	int c_st = table_add_col(t, "status", COL_TEXT, 10, 0);
	int c_id = table_add_col(t, "id", COL_TEXT, 26, 0);
	int c_sa = table_add_col(t, "severity_a", COL_TEXT, 10, 0);   /* wide enough to tell A from B */
	int c_sb = table_add_col(t, "severity_b", COL_TEXT, 10, 0);
	table_set_role(t, c_sa, COL_ROLE_SEVERITY);   /* sorted high > med > low, as the findings view */
	table_set_role(t, c_sb, COL_ROLE_SEVERITY);
	int c_rank = table_add_col(t, "rank", COL_INT, 5, 0);
	table_set_role(t, c_rank, COL_ROLE_RANK);
	int c_title = table_add_col(t, "title", COL_TEXT, 50, 0);
	int c_detail = table_add_col(t, "detail", COL_TEXT, 60, 0);
	for (size_t i = 0; i < n; i++) {
		const struct finding *f = v[i].b ? v[i].b : v[i].a;
		size_t row = table_add_row(t, (long)i);
		char st[200];
		table_set_text(t, row, c_st, compare_finding_status(&v[i], st, sizeof(st)));
		table_set_text(t, row, c_id, f->id);
		if (v[i].a)
			table_set_text(t, row, c_sa, severity_name(v[i].a->severity));
		if (v[i].b)
			table_set_text(t, row, c_sb, severity_name(v[i].b->severity));
		table_set_num_opt(t, row, c_rank, f->ev.rank, f->ev.rank >= 0);
		table_set_text(t, row, c_title, f->title);
		table_set_text(t, row, c_detail, f->detail);
	}
	/* the rules a side could not judge that no row above stands for: no verdict either way */
	size_t nu;
	struct cmp_unjudged *u = compare_unjudged(c, &nu);
	for (size_t i = 0; i < nu; i++) {
		size_t row = table_add_row(t, -1 - (long)i);
		table_set_text(t, row, c_st, compare_unjudged_status(&u[i]));
		table_set_text(t, row, c_id, *u[i].ids ? u[i].ids : NULL);
		table_set_text(t, row, c_title, u[i].text);
		bool both = u[i].in_a && u[i].in_b;
		char detail[160];
		snprintf(detail, sizeof(detail), "This rule could not judge %s, so the absence of its finding %s is "
			 "no verdict, nor is a change.", both ? "either run" : u[i].in_a ? "A" : "B",
			 both ? "in A and B" : "there");
		table_set_text(t, row, c_detail, detail);
	}
	compare_unjudged_free(u, nu);
	table_set_empty_note(t, "no finding in A or B, and every rule judged both");
	return t;
}

/* A diff_findings row's finding (row ref ref: compare_findings' index) lends *out its
 * steps: B's finding, else A's (the one whose rank the row shows). */
static void finding_steps(struct compare *c, long ref, struct evidence *out)
{
	size_t n;
	const struct cmp_finding *v = compare_findings(c, &n);
	if (ref < 0 || (size_t)ref >= n)   /* a rule not judged: no finding */
		return;
	const struct evidence *ev = &(v[ref].b ? v[ref].b : v[ref].a)->ev;
	out->step_lo = ev->step_lo;
	out->step_hi = ev->step_hi;
	if (ev->nsteps) {
		out->steps = xmalloc(ev->nsteps * sizeof(*out->steps));
		memcpy(out->steps, ev->steps, ev->nsteps * sizeof(*out->steps));
		out->nsteps = ev->nsteps;
	}
}

bool compare_row_evidence(struct compare *c, const struct table *t, size_t row, struct evidence *out)
{
	int c_rank = table_col_role(t, COL_ROLE_RANK), c_on = table_col_role(t, COL_ROLE_ONSET);
	const struct table_cell *rc = c_rank >= 0 ? table_cell(t, row, c_rank) : NULL;
	const struct table_cell *oc = c_on >= 0 ? table_cell(t, row, c_on) : NULL;
	*out = evidence_none();
	if (!rc || !rc->present)
		return false;
	out->kind = EV_RANK;
	out->rank = (int)rc->num;
	out->step_lo = oc && oc->present ? (long)oc->num : -1;
	if (strcmp(t->name, "diff_findings") == 0)
		finding_steps(c, t->ref[row], out);
	return true;
}

/* ---- joins over each run's own view -------------------------------------------------------- */

static struct table *side_view(struct run *run, const char *view)
{
	const struct view_def *vd = registry_view(view);
	char err[128];
	return vd ? vd->build(run, err, sizeof(err)) : NULL;
}

static const char *cell_text(const struct table *t, size_t row, int col)
{
	const struct table_cell *c = col >= 0 ? table_cell(t, row, col) : NULL;
	return c && c->present && c->text ? c->text : "";
}

static double cell_num(const struct table *t, size_t row, int col)
{
	const struct table_cell *c = col >= 0 ? table_cell(t, row, col) : NULL;
	return c && c->present ? c->num : 0;
}

/* Kernels of one side summed over ranks by (name, type). */
struct kagg {
	const char *name, *type;
	double count, sum_us;
};

struct kaggs {
	struct kagg *v;
	size_t n, cap;
};

static struct kagg *kagg_find(struct kaggs *k, const char *name, const char *type)
{
	for (size_t i = 0; i < k->n; i++)
		if (strcmp(k->v[i].name, name) == 0 && strcmp(k->v[i].type, type) == 0)
			return &k->v[i];
	return NULL;
}

static void kernels_of(const struct table *t, struct kaggs *out)
{
	int cn = table_col_index(t, "kernel"), ct = table_col_index(t, "type");
	int cc = table_col_index(t, "count"), cs = table_col_index(t, "sum_us");
	for (size_t r = 0; r < t->nrow; r++) {
		const char *name = cell_text(t, r, cn), *type = cell_text(t, r, ct);
		struct kagg *k = kagg_find(out, name, type);
		if (!k) {
			xgrow((void **)&out->v, &out->cap, out->n + 1, sizeof(*out->v));
			k = &out->v[out->n++];
			*k = (struct kagg){ name, type, 0, 0 };
		}
		k->count += cell_num(t, r, cc);
		k->sum_us += cell_num(t, r, cs);
	}
}

struct kcols {
	int name, type, status, ac, bc, dc, at, bt, dt, am, bm, dm;
};

/* How diff_kernels takes its deltas: judged (the sides count like scopes, else every delta
 * is empty), of each side's totals over the profiler steps it counts per rank, a_steps and
 * b_steps (both 1 when the sides count the same: the totals themselves). */
struct kdelta {
	bool judged;
	double a_steps, b_steps;
};

static void kernel_row(struct table *t, const struct kcols *c, const struct kagg *a, const struct kagg *b,
		       const struct kdelta *d)
{
	const struct kagg *k = a ? a : b;
	size_t row = table_add_row(t, (long)t->nrow);
	table_set_text(t, row, c->name, k->name);
	table_set_text(t, row, c->type, k->type);
	table_set_text(t, row, c->status, a && b ? "both" : a ? "only_in_A" : "only_in_B");
	/* the side without the kernel: its cells and the deltas empty (missing, not 0), as
	 * diff_functions' */
	bool both = a && b && d->judged;
	double ac = a ? a->count : 0, bc = b ? b->count : 0, at = a ? a->sum_us : 0, bt = b ? b->sum_us : 0;
	table_set_num_opt(t, row, c->ac, ac, a);
	table_set_num_opt(t, row, c->bc, bc, b);
	table_set_num_opt(t, row, c->dc, bc / d->b_steps - ac / d->a_steps, both);
	table_set_num_opt(t, row, c->at, at, a);
	table_set_num_opt(t, row, c->bt, bt, b);
	table_set_num_opt(t, row, c->dt, bt / d->b_steps - at / d->a_steps, both);
	table_set_num_opt(t, row, c->am, ac > 0 ? at / ac : 0, ac > 0);
	table_set_num_opt(t, row, c->bm, bc > 0 ? bt / bc : 0, bc > 0);
	table_set_num_opt(t, row, c->dm, bc > 0 && ac > 0 ? bt / bc - at / ac : 0, both && ac > 0 && bc > 0);
}

/* A kernel of A and/or B (NULL on the side that lacks it). */
struct kpair {
	const struct kagg *a, *b;
};

static double kpair_delta(const struct kpair *p, const struct kdelta *d)
{
	return (p->b ? p->b->sum_us / d->b_steps : 0) - (p->a ? p->a->sum_us / d->a_steps : 0);
}

/* The largest change in total time (per profiler step when the deltas are) first, an
 * increase or a decrease (a kernel of one side only by its total there: the time that
 * appeared or went away, its delta cells empty); when the deltas are not judged (the
 * sides count other scopes), the larger total first; then by name, type. */
static int kpair_order(const void *x, const void *y, void *delta)
{
	const struct kpair *p = x, *q = y;
	const struct kdelta *d = delta;
	double dp = fabs(kpair_delta(p, d)), dq = fabs(kpair_delta(q, d));
	if (!d->judged) {
		dp = fmax(p->a ? p->a->sum_us : 0, p->b ? p->b->sum_us : 0);
		dq = fmax(q->a ? q->a->sum_us : 0, q->b ? q->b->sum_us : 0);
	}
	if (dp != dq)
		return dp < dq ? 1 : -1;
	const struct kagg *kp = p->a ? p->a : p->b, *kq = q->a ? q->a : q->b;
	int r = strcmp(kp->name, kq->name);
	return r ? r : strcmp(kp->type, kq->type);
}

/* What one side's kernels are counted over (HTA's event set, per rank: model/trace/trace.h):
 * the ranks with ProfilerStep spans (stepped), lo-hi profiler steps counted on each
 * (HTA leaves out the last of a rank of two or more: dropped, any), and the ranks without
 * one, counted whole (whole). */
struct kscope {
	size_t stepped, whole;
	size_t lo, hi;
	bool dropped;
};

static int cmp_long(const void *x, const void *y)
{
	long a = *(const long *)x, b = *(const long *)y;
	return (a > b) - (a < b);
}

/* The distinct ProfilerStep numbers of rank r. */
static size_t rank_steps(const struct trace_rank *r)
{
	long *v = xmalloc((r->nstep + 1) * sizeof(*v));
	for (size_t s = 0; s < r->nstep; s++)
		v[s] = r->step[s].step;
	qsort(v, r->nstep, sizeof(*v), cmp_long);
	size_t n = 0;
	for (size_t s = 0; s < r->nstep; s++)
		n += s == 0 || v[s] != v[s - 1];
	free(v);
	return n;
}

static struct kscope kernel_scope_of(struct run *run)
{
	struct kscope k = { 0 };
	struct trace_set *ts = trace_get(run);
	for (size_t i = 0; ts && i < ts->n; i++) {
		if (!trace_hta(ts, i)->have_gpu) /* no kernel counted: no scope */
			continue;
		const struct trace_rank *r = ts->r[i];
		if (!r->nstep) {
			k.whole++;
			continue;
		}
		size_t n = rank_steps(r) - r->hta_filter;
		k.lo = k.stepped++ == 0 || n < k.lo ? n : k.lo;
		k.hi = n > k.hi ? n : k.hi;
		k.dropped |= r->hta_filter;
	}
	return k;
}

/* What side k counts, appended to buf: "counts 17 profiler steps per rank (HTA leaves out
 * the last)", "counts its whole trace (no ProfilerStep spans)", or both with their ranks. */
static void kernel_scope_text(const struct kscope *k, char *buf, size_t n)
{
	const char *per = k->stepped > 1 ? " per rank" : "";
	text_appendf(buf, n, "counts ");
	if (k->stepped && k->lo == k->hi)
		text_appendf(buf, n, "%zu profiler step%s%s", k->lo, k->lo == 1 ? "" : "s", per);
	else if (k->stepped)
		text_appendf(buf, n, "%zu-%zu profiler steps%s", k->lo, k->hi, per);
	if (k->stepped && k->whole)
		text_appendf(buf, n, " on %zu rank%s", k->stepped, k->stepped == 1 ? "" : "s");
	if (k->dropped)
		text_appendf(buf, n, " (HTA leaves out the last)");
	if (k->stepped && k->whole)
		text_appendf(buf, n, " and the whole trace on %zu rank%s", k->whole, k->whole == 1 ? "" : "s");
	else if (k->whole)
		text_appendf(buf, n, "its whole trace");
	if (k->whole)
		text_appendf(buf, n, " (no ProfilerStep spans)");
}

/* Side k counts one number of profiler steps on every rank with kernels, and no trace
 * whole: its totals divide into totals per profiler step. */
static bool kscope_per_step(const struct kscope *k)
{
	return k->stepped && !k->whole && k->lo == k->hi;
}

/* How diff_kernels takes its deltas; buf says how when not of the totals (else ""):
 * "deltas per profiler step: A counts 17 profiler steps per rank (...), B counts 35 ...",
 * or "kernel deltas not judged: A counts ..., B counts ...: not like for like" (profiler
 * steps against whole traces), or "...: other step counts, not one a side to compare per
 * step" (a side whose ranks count different numbers, or count some traces whole). */
static struct kdelta kernel_delta_of(struct compare *c, char *buf, size_t n)
{
	struct kscope a = kernel_scope_of(c->a), b = kernel_scope_of(c->b);
	struct kdelta d = { true, 1, 1 };
	buf[0] = '\0';
	bool like = !a.stepped == !b.stepped && !a.whole == !b.whole;
	if (like && a.lo == b.lo && a.hi == b.hi) /* no stepped rank on either side: 0 and 0 */
		return d;
	bool per_step = like && kscope_per_step(&a) && kscope_per_step(&b);
	text_appendf(buf, n, per_step ? "deltas per profiler step: A " : "kernel deltas not judged: A ");
	kernel_scope_text(&a, buf, n);
	text_appendf(buf, n, ", B ");
	kernel_scope_text(&b, buf, n);
	if (per_step) {
		d.a_steps = (double)a.lo;
		d.b_steps = (double)b.lo;
		return d;
	}
	text_appendf(buf, n, like ? ": other step counts, not one a side to compare per step" : ": not like for like");
	d.judged = false;
	return d;
}

bool compare_kernel_scope(struct compare *c, char *buf, size_t n)
{
	return kernel_delta_of(c, buf, n).judged;
}

/* Rows in the view's own order (its sort left unset: --sort and the panes sort it). */
static struct table *build_diff_kernels(struct compare *c, char *err, size_t errn)
{
	struct table *ta = side_view(c->a, "kernels"), *tb = side_view(c->b, "kernels");
	if (!ta || !tb) {
		table_free(ta);
		table_free(tb);
		return no_data(err, errn, "needs GPU kernels (traces) on both sides");
	}
	struct kaggs ka = { 0 }, kb = { 0 };
	kernels_of(ta, &ka);
	kernels_of(tb, &kb);
	char scope[CMP_TEXT_MAX];
	struct kdelta d = kernel_delta_of(c, scope, sizeof(scope));
	char *title = xasprintf("GPU kernels, A vs B (summed over %s; %s)", compare_sides_whole(c),
				*scope ? scope : "only-in-A / only-in-B");
	struct table *t = table_new("diff_kernels", title);
	table_set_note(t, *scope ? scope : NULL);
	free(title);
	struct kcols k;
	k.name = table_add_col(t, "kernel", COL_TEXT, 48, 0);
	k.type = table_add_col(t, "type", COL_TEXT, 13, 0);
	k.status = table_add_col(t, "status", COL_TEXT, 9, 0);
	k.ac = table_add_col(t, "a_count", COL_INT, 7, 0);
	k.bc = table_add_col(t, "b_count", COL_INT, 7, 0);
	k.dc = table_add_col(t, "delta_count", COL_NUM, 7, 0); /* per profiler step: a fraction */
	k.at = table_add_col(t, "a_total_us", COL_NUM, 11, 1);
	k.bt = table_add_col(t, "b_total_us", COL_NUM, 11, 1);
	k.dt = table_add_col(t, "delta_total_us", COL_NUM, 11, 1);
	k.am = table_add_col(t, "a_mean_us", COL_NUM, 9, 2);
	k.bm = table_add_col(t, "b_mean_us", COL_NUM, 9, 2);
	k.dm = table_add_col(t, "delta_mean_us", COL_NUM, 9, 2);
	static const char ddoc[] = "B - A; empty for a kernel of one side, and for every kernel when the sides "
				   "count other scopes (profiler steps in one, the whole trace in the other: the "
				   "title says); ";
	static const char sdoc[] = "B - A, per profiler step when the sides count other numbers of them (the title "
				   "says); empty for a kernel of one side, and for every kernel when the sides count "
				   "other scopes (profiler steps in one, the whole trace in the other); ";
	table_col_doc(t, k.dc, sdoc);
	table_col_doc(t, k.dt, sdoc);
	table_col_doc(t, k.dm, ddoc);
	struct kpair *v = xmalloc((ka.n + kb.n + 1) * sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < ka.n; i++)
		v[n++] = (struct kpair){ &ka.v[i], kagg_find(&kb, ka.v[i].name, ka.v[i].type) };
	for (size_t i = 0; i < kb.n; i++)
		if (!kagg_find(&ka, kb.v[i].name, kb.v[i].type))
			v[n++] = (struct kpair){ NULL, &kb.v[i] };
	qsort_r(v, n, sizeof(*v), kpair_order, &d);
	for (size_t i = 0; i < n; i++)
		kernel_row(t, &k, v[i].a, v[i].b, &d);
	free(v);
	free(ka.v);
	free(kb.v);
	table_free(ta);
	table_free(tb);
	return t;
}

/* ---- sources ------------------------------------------------------------------------------ */

/* Column c of a side's table copied into t (after the side column). */
static void copy_col(struct table *t, const struct table_col *c)
{
	int k = table_add_col(t, c->name, c->type, c->width, c->prec);
	table_col_unit(t, k, c->unit);
	if (c->doc)
		table_col_doc(t, k, c->doc);
	if (c->role != COL_ROLE_NONE)
		table_set_role(t, k, c->role);
}

/* The rows of one side's sources view, in its order, after the side's name. */
static void side_rows(struct table *t, const struct table *src, const char *side)
{
	for (size_t i = 0; i < src->nview; i++) {
		size_t r = src->view[i], row = table_add_row(t, src->ref[r]);
		table_set_text(t, row, 0, side);
		for (size_t k = 0; k < src->ncol; k++) {
			const struct table_cell *x = table_cell(src, r, (int)k);
			if (!x->present)
				continue;
			if (src->col[k].type == COL_TEXT)
				table_set_text(t, row, (int)k + 1, x->text);
			else if (x->is_int)
				table_set_int(t, row, (int)k + 1, x->exact);
			else
				table_set_num(t, row, (int)k + 1, x->num);
		}
	}
}

/* Both runs' sources view (every file read, every diagnostic), A's rows then B's, each
 * after a first column `side` (A or B): the one-run view's columns otherwise. */
static struct table *build_sources(struct compare *c, char *err, size_t errn)
{
	struct table *ta = side_view(c->a, "sources"), *tb = side_view(c->b, "sources");
	if (!ta || !tb) {
		table_free(ta);
		table_free(tb);
		return no_data(err, errn, "a side has no sources view");
	}
	struct table *t = table_new("sources", "Sources and data quality of A and B");
	table_col_doc(t, table_add_col(t, "side", COL_TEXT, 4, 0), "the run the row is of: A (the first) or B; ");
	for (size_t k = 0; k < ta->ncol; k++)
		copy_col(t, &ta->col[k]);
	side_rows(t, ta, "A");
	side_rows(t, tb, "B");
	table_free(ta);
	table_free(tb);
	return t;
}

const struct cmp_view compare_views[] = {
	{ "diff_ranks", "runs A vs B: per-rank mean compute or step time ms (basis), time lost, deltas, regression, "
			"onset in B", build_diff_ranks },
	{ "diff_env", "runs A vs B: environment and config differences (pytscope diff); trace sets: GPU and CUDA",
	  build_diff_env },
	{ "diff_budget", "runs A vs B: efficiency budget lines per step side by side", build_diff_budget },
	{ "diff_findings", "runs A vs B: findings new in B, resolved, not judged, persisting", build_diff_findings },
	{ "diff_kernels", "trace sets A vs B: kernel count, total, mean and deltas; only in A / only in B", build_diff_kernels },
	{ "diff_sweep", "sweeps A vs B: per stimulus level latency p50/p99, ttft p99, throughputs, deltas",
	  compare_build_diff_sweep },
	{ "diff_functions", "DASF runs A vs B: per function tasks, total and mean task time, deltas, slower/faster beyond "
			    "noise", compare_build_diff_functions },
	{ "sources", "runs A vs B: each run's files read and diagnostics, a first column side (A or B)",
	  build_sources },
};
const size_t compare_nviews = ARRAY_LEN(compare_views);

const struct cmp_view *compare_view(const char *name)
{
	for (size_t i = 0; i < compare_nviews; i++)
		if (strcmp(compare_views[i].name, name) == 0)
			return &compare_views[i];
	return NULL;
}

bool compare_view_no_rows(const struct table *t, char *buf, size_t n)
{
	if (t->nrow > 0 || !compare_view(t->name))
		return false;
	snprintf(buf, n, "view '%s' has no rows for this pair of runs%s%s", t->name, t->empty_note ? ": " : "",
		 t->empty_note ? t->empty_note : "");
	return true;
}

const struct tab_def compare_tabs[] = {
	{ 1, "Overview", TAB_COMPARE, NULL, NULL, "diff_ranks", NULL },
	{ 2, "Heatmap", TAB_HEATMAP, NULL, NULL, NULL, &compare_grid },
	{ 3, "Ranks", TAB_TABLE, "diff_ranks", NULL, NULL, NULL },
	{ 4, "Budget", TAB_TABLE, "diff_budget", NULL, NULL, NULL },
	{ 5, "Findings", TAB_TABLE, "diff_findings", NULL, NULL, NULL },
	{ 6, "Env", TAB_TABLE, "diff_env", NULL, NULL, NULL },
	{ 7, "Kernels", TAB_TABLE, "diff_kernels", NULL, NULL, NULL },
	{ 8, "Sweep", TAB_TABLE, "diff_sweep", NULL, NULL, NULL },
	{ 9, "Functions", TAB_TABLE, "diff_functions", NULL, NULL, NULL },
};
const size_t compare_ntabs = ARRAY_LEN(compare_tabs);

static bool both_steps(const struct compare *c)
{
	return c->a->steps && c->b->steps && steps_naligned(c->a->steps) && steps_naligned(c->b->steps);
}

static bool has_traces(struct run *run)
{
	const struct trace_set *ts = trace_get(run);
	return ts && ts->n;
}

static bool has_sweep(struct run *run)
{
	const struct sweep_set *s = sweep_derived(run);
	return s && s->ncfg;
}

const char *compare_by_what(const struct compare *c)
{
	if (strcmp(c->family, "sweep") == 0)
		return "two sweeps, level by level (8 Sweep)";
	if (strcmp(c->family, "dasf") == 0)
		return "two DASF runs, function by function (9 Functions)";
	return NULL;
}

bool compare_tab_shown(struct compare *c, const struct tab_def *t)
{
	const char *v = t->arg ? t->arg : "";
	if (t->grid || strcmp(v, "diff_ranks") == 0 || strcmp(v, "diff_budget") == 0)
		return both_steps(c);
	if (strcmp(v, "diff_kernels") == 0)
		return has_traces(c->a) && has_traces(c->b);
	if (strcmp(v, "diff_sweep") == 0)
		return has_sweep(c->a) && has_sweep(c->b);
	if (strcmp(v, "diff_functions") == 0)
		return strcmp(c->family, "dasf") == 0;
	if (strcmp(v, "diff_env") == 0) /* run.json of step runs, the GPU and CUDA of traces */
		return !env_missing(c);
	return true;
}
