/* SPDX-License-Identifier: MIT */
/* views.c: the tables of a run comparison (see views.h): per-rank deltas, environment
 * and config differences, budget side by side, findings new/resolved/persisting, kernel
 * deltas of two trace sets (HTA's trace diff: kernels only in A or only in B too, the
 * other side's cells and the deltas empty; the largest change in total time first, an
 * increase or a decrease), sweep levels and the verdict of a sweep pair; DASF
 * functions are dasf.c's. Built from the compare analyses and from each run's own
 * views, joined here. */
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
 * on both sides (all: the ranks of the pair, whose side may have measured none). */
static bool rank_has_delta(const struct cmp_ranks *all, const struct cmp_rank *k)
{
	return k->in_a && k->in_b && k->n && !k->unmeasured && !all->unmeasured;
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
	/* the column names stay (a schema kept); basis and the title say what they hold */
	struct table *t = table_new("diff_ranks", r->by_step_time ? "Ranks by step time, A vs B (regressed first)"
				    : "Ranks by compute, A vs B (regressed first)");
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
				"with none on any rank); ");
	table_col_doc(t, c_basis, "compute (pytscope's compute phases) or step_time: what the ranks are compared by; ");
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
 * has (n/a where one does not), with whether it differs. */
static struct table *trace_env_table(struct compare *c, char *err, size_t errn)
{
	struct cmp_env e[CMP_TRACE_ENV_KEYS];
	size_t n = compare_trace_env(c, e);
	if (!n)
		return no_data(err, errn, "neither side's lowest-rank trace records its GPU or CUDA");
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

static struct table *build_diff_env(struct compare *c, char *err, size_t errn)
{
	if (strcmp(c->family, "trace") == 0)
		return trace_env_table(c, err, errn);
	const struct pydiff *d = compare_pydiff(c);
	if (!d)
		return no_data(err, errn, "needs step runs with step records on both sides");
	struct table *t = env_table("Environment and config differences (run.json of the lowest rank)");
	table_set_empty_note(t, "no difference: the lowest ranks' run.json environment and config are identical "
				"(pytscope diff: \"(identical)\")");
	env_rows(t, "environment", d->env, d->nenv);
	env_rows(t, "config", d->config, d->nconfig);
	return t;
}

/* ---- diff_budget ------------------------------------------------------------------------- */

static struct table *build_diff_budget(struct compare *c, char *err, size_t errn)
{
	const struct budget *a = analysis_budget_all(c->a), *b = analysis_budget_all(c->b);
	if (!a || !b)
		return no_data(err, errn, a ? "B has no efficiency budget" : "A has no efficiency budget");
	char title[160];
	snprintf(title, sizeof(title), "Efficiency budget per step record, A vs B (%s)", compare_sides_whole(c));
	struct table *t = table_new("diff_budget", title);
	int c_line = table_add_col(t, "line", COL_TEXT, 17, 0);
	int c_am = table_add_col(t, "a_ms_per_step", COL_NUM, 9, 3);
	int c_bm = table_add_col(t, "b_ms_per_step", COL_NUM, 9, 3);
	int c_dm = table_add_col(t, "delta_ms_per_step", COL_NUM, 9, 3);
	int c_ap = table_add_col(t, "a_pct", COL_NUM, 6, 1);
	int c_bp = table_add_col(t, "b_pct", COL_NUM, 6, 1);
	int c_dp = table_add_col(t, "delta_pct_points", COL_NUM, 7, 1);
	int c_rec = table_add_col(t, "recoverable", COL_TEXT, 5, 0);
	for (int i = 0; i < BUDGET_NLINES; i++) {
		const struct budget_line *la = &a->line[i], *lb = &b->line[i];
		size_t row = table_add_row(t, i);
		double am = la->seconds / (double)a->n * 1e3, bm = lb->seconds / (double)b->n * 1e3;
		bool ma = la->measured, mb = lb->measured; /* a line nothing measures: empty */
		table_set_text(t, row, c_line, la->name);
		table_set_num_opt(t, row, c_am, am, ma);
		table_set_num_opt(t, row, c_bm, bm, mb);
		table_set_num_opt(t, row, c_dm, bm - am, ma && mb);
		table_set_num_opt(t, row, c_ap, la->fraction * 100, ma);
		table_set_num_opt(t, row, c_bp, lb->fraction * 100, mb);
		table_set_num_opt(t, row, c_dp, (lb->fraction - la->fraction) * 100, ma && mb);
		table_set_text(t, row, c_rec, la->recoverable ? "yes" : "no");
	}
	size_t row = table_add_row(t, BUDGET_NLINES);
	table_set_text(t, row, c_line, "mfu");
	table_set_num_opt(t, row, c_ap, a->mfu * 100, a->has_mfu);
	table_set_num_opt(t, row, c_bp, b->mfu * 100, b->has_mfu);
	table_set_num_opt(t, row, c_dp, (b->mfu - a->mfu) * 100, a->has_mfu && b->has_mfu);
	return t;
}

/* ---- diff_findings ------------------------------------------------------------------------ */

static struct table *build_diff_findings(struct compare *c, char *err, size_t errn)
{
	size_t n;
	const struct cmp_finding *v = compare_findings(c, &n);
	struct table *t = table_new("diff_findings",
				    "Findings: new in B, resolved, not judged on one side, persisting");
	int c_st = table_add_col(t, "status", COL_TEXT, 10, 0);
	int c_id = table_add_col(t, "id", COL_TEXT, 26, 0);
	int c_sa = table_add_col(t, "severity_a", COL_TEXT, 10, 0);   /* wide enough to tell A from B */
	int c_sb = table_add_col(t, "severity_b", COL_TEXT, 10, 0);
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
	return t;
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

static void kernel_row(struct table *t, const struct kcols *c, const struct kagg *a, const struct kagg *b)
{
	const struct kagg *k = a ? a : b;
	size_t row = table_add_row(t, (long)t->nrow);
	table_set_text(t, row, c->name, k->name);
	table_set_text(t, row, c->type, k->type);
	table_set_text(t, row, c->status, a && b ? "both" : a ? "only_in_A" : "only_in_B");
	/* the side without the kernel: its cells and the deltas empty (missing, not 0), as
	 * diff_functions' */
	double ac = a ? a->count : 0, bc = b ? b->count : 0, at = a ? a->sum_us : 0, bt = b ? b->sum_us : 0;
	table_set_num_opt(t, row, c->ac, ac, a);
	table_set_num_opt(t, row, c->bc, bc, b);
	table_set_num_opt(t, row, c->dc, bc - ac, a && b);
	table_set_num_opt(t, row, c->at, at, a);
	table_set_num_opt(t, row, c->bt, bt, b);
	table_set_num_opt(t, row, c->dt, bt - at, a && b);
	table_set_num_opt(t, row, c->am, ac > 0 ? at / ac : 0, ac > 0);
	table_set_num_opt(t, row, c->bm, bc > 0 ? bt / bc : 0, bc > 0);
	table_set_num_opt(t, row, c->dm, bc > 0 && ac > 0 ? bt / bc - at / ac : 0, ac > 0 && bc > 0);
}

/* A kernel of A and/or B (NULL on the side that lacks it). */
struct kpair {
	const struct kagg *a, *b;
};

static double kpair_delta(const struct kpair *p)
{
	return (p->b ? p->b->sum_us : 0) - (p->a ? p->a->sum_us : 0);
}

/* The largest change in total time first, an increase or a decrease (a kernel of one side
 * only by its total there: the time that appeared or went away, its delta cells empty);
 * then by name, type. */
static int kpair_order(const void *x, const void *y)
{
	const struct kpair *p = x, *q = y;
	double dp = fabs(kpair_delta(p)), dq = fabs(kpair_delta(q));
	if (dp != dq)
		return dp < dq ? 1 : -1;
	const struct kagg *kp = p->a ? p->a : p->b, *kq = q->a ? q->a : q->b;
	int r = strcmp(kp->name, kq->name);
	return r ? r : strcmp(kp->type, kq->type);
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
	char title[160];
	snprintf(title, sizeof(title), "GPU kernels, A vs B (summed over %s; only-in-A / only-in-B)",
		 compare_sides_whole(c));
	struct table *t = table_new("diff_kernels", title);
	struct kcols k;
	k.name = table_add_col(t, "kernel", COL_TEXT, 48, 0);
	k.type = table_add_col(t, "type", COL_TEXT, 13, 0);
	k.status = table_add_col(t, "status", COL_TEXT, 9, 0);
	k.ac = table_add_col(t, "a_count", COL_INT, 7, 0);
	k.bc = table_add_col(t, "b_count", COL_INT, 7, 0);
	k.dc = table_add_col(t, "delta_count", COL_INT, 7, 0);
	k.at = table_add_col(t, "a_total_us", COL_NUM, 11, 1);
	k.bt = table_add_col(t, "b_total_us", COL_NUM, 11, 1);
	k.dt = table_add_col(t, "delta_total_us", COL_NUM, 11, 1);
	k.am = table_add_col(t, "a_mean_us", COL_NUM, 9, 2);
	k.bm = table_add_col(t, "b_mean_us", COL_NUM, 9, 2);
	k.dm = table_add_col(t, "delta_mean_us", COL_NUM, 9, 2);
	struct kpair *v = xmalloc((ka.n + kb.n + 1) * sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < ka.n; i++)
		v[n++] = (struct kpair){ &ka.v[i], kagg_find(&kb, ka.v[i].name, ka.v[i].type) };
	for (size_t i = 0; i < kb.n; i++)
		if (!kagg_find(&ka, kb.v[i].name, kb.v[i].type))
			v[n++] = (struct kpair){ NULL, &kb.v[i] };
	qsort(v, n, sizeof(*v), kpair_order);
	for (size_t i = 0; i < n; i++)
		kernel_row(t, &k, v[i].a, v[i].b);
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

/* ---- diff_sweep ------------------------------------------------------------------------- */

struct sw_metric {
	const char *name;
	enum sweep_metric m;
	enum sweep_stat st;
};
static const struct sw_metric sw_metrics[] = {
	{ "latency_p50", SM_LATENCY, SS_P50 }, { "latency_p99", SM_LATENCY, SS_P99 },
	{ "ttft_p99", SM_TTFT, SS_P99 }, { "request_throughput", SM_RPS, SS_AVG },
	{ "output_token_throughput", SM_TPS, SS_AVG },
};

/* The stimulus of a sweep: its first series' detected stimulus, -1 when none. */
static int sweep_stim_of(const struct sweep_set *s)
{
	for (size_t i = 0; i < s->nseries; i++)
		if (s->series[i].stim >= 0)
			return s->series[i].stim;
	return -1;
}

/* The workload key pairing config c with its like on the other side: its values of the
 * workload keys that split either sweep (wl_split), "model=auto url=n/a"; "" when neither
 * splits (one workload a side: they pair, and the verdict says when they differ). */
static char *sweep_pair_key(const struct sweep_set *sa, const struct sweep_set *sb, const struct sweep_cfg *c)
{
	char *key = xstrdup("");
	for (int k = 0; k < WL_N; k++) {
		if (!sa->wl_split[k] && !sb->wl_split[k])
			continue;
		char *next = xasprintf("%s%s%s=%s", key, *key ? " " : "", sweep_wl_name(k), c->wl[k] ? c->wl[k] : "n/a");
		free(key);
		key = next;
	}
	return key;
}

/* Whether s holds configs of several workloads (a key with two recorded values). */
static bool sweep_splits(const struct sweep_set *s)
{
	for (int k = 0; k < WL_N; k++)
		if (s->wl_split[k])
			return true;
	return false;
}

/* Each config's pair key of s (sweep_pair_key), made once: a malloc'd array of s->ncfg. */
static char **sweep_pair_keys(const struct sweep_set *sa, const struct sweep_set *sb, const struct sweep_set *s)
{
	char **keys = xmalloc((s->ncfg + 1) * sizeof(*keys));
	for (size_t i = 0; i < s->ncfg; i++)
		keys[i] = sweep_pair_key(sa, sb, &s->cfg[i]);
	return keys;
}

static void sweep_pair_keys_free(char **keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

/* One row of diff_sweep: a workload key (one of the pair keys) and a level of the stimulus. */
struct sw_level {
	const char *wl;
	double v;
};

static int cmp_sw_level(const void *x, const void *y)
{
	const struct sw_level *a = x, *b = y;
	int c = strcmp(a->wl, b->wl);
	return c ? c : (a->v > b->v) - (a->v < b->v);
}

/* The first config of s (its pair keys: keys) at level l->v of stimulus k in workload
 * l->wl, NULL when absent. */
static const struct sweep_cfg *sweep_level(const struct sweep_set *s, char *const *keys, int k,
					   const struct sw_level *l)
{
	for (size_t i = 0; i < s->ncfg; i++)
		if (s->cfg[i].has_stim[k] && s->cfg[i].stim[k] == l->v && strcmp(keys[i], l->wl) == 0)
			return &s->cfg[i];
	return NULL;
}

static bool level_value(const struct sweep_cfg *c, const struct sw_metric *m, double *v)
{
	if (!c || (m->m == SM_TTFT && c->has_streaming && !c->streaming))
		return false;
	return sweep_value(c, m->m, m->st, v);
}

/* A row of diff_sweep at level l, its workload cell wl ("": none). */
static void sweep_row(struct table *t, int k, const struct sw_level *l, const char *wl, const struct sweep_cfg *a,
		      const struct sweep_cfg *b)
{
	size_t row = table_add_row(t, -1);
	table_set_text(t, row, 0, sweep_stim_name(k));
	table_set_num(t, row, 1, l->v);
	if (*wl)
		table_set_text(t, row, CMP_SWEEP_WORKLOAD_COL, wl);
	for (size_t i = 0; i < ARRAY_LEN(sw_metrics); i++) {
		double va = 0, vb = 0;
		bool ha = level_value(a, &sw_metrics[i], &va), hb = level_value(b, &sw_metrics[i], &vb);
		int col = 2 + 4 * (int)i;
		table_set_num_opt(t, row, col, va, ha);
		table_set_num_opt(t, row, col + 1, vb, hb);
		table_set_num_opt(t, row, col + 2, vb - va, ha && hb);
		table_set_num_opt(t, row, col + 3, va != 0 ? 100.0 * (vb - va) / va : 0, ha && hb && va != 0);
	}
}

/* The (workload, level) pairs of s's configs at a level of stimulus k, appended to lv. */
static size_t sweep_levels(const struct sweep_set *s, char *const *keys, int k, struct sw_level *lv, size_t n)
{
	for (size_t i = 0; i < s->ncfg; i++)
		if (s->cfg[i].has_stim[k])
			lv[n++] = (struct sw_level){ keys[i], s->cfg[i].stim[k] };
	return n;
}

static struct table *build_diff_sweep(struct compare *c, char *err, size_t errn)
{
	struct sweep_set *sa = sweep_derived(c->a), *sb = sweep_derived(c->b);
	if (!sa || !sb || !sa->ncfg || !sb->ncfg)
		return no_data(err, errn, "needs a GenAI-Perf sweep on both sides");
	int k = sweep_stim_of(sa);
	if (k < 0 || k != sweep_stim_of(sb))
		return no_data(err, errn, "the sweeps vary no common stimulus");
	struct table *t = table_new("diff_sweep", "Sweep levels, A vs B (delta = B - A)");
	table_add_col(t, "stimulus", COL_TEXT, 12, 0);
	table_add_col(t, "level", COL_NUM, 8, 2);
	for (size_t i = 0; i < ARRAY_LEN(sw_metrics); i++) {
		char name[64];
		static const char *const part[] = { "a_", "b_", "delta_", "delta_" };
		for (size_t p = 0; p < ARRAY_LEN(part); p++) { /* the unit from the name: "_ms", "_pct" */
			snprintf(name, sizeof(name), "%s%s%s", part[p], sw_metrics[i].name,
				 p == 3 ? "_pct" : sweep_metric_suffix(sw_metrics[i].m));
			table_add_col(t, name, COL_NUM, 10, p == 3 ? 1 : 3);
		}
	}
	table_add_col(t, "workload", COL_TEXT, 24, 0);
	char **ka = sweep_pair_keys(sa, sb, sa), **kb = sweep_pair_keys(sa, sb, sb);
	struct sw_level *lv = xmalloc((sa->ncfg + sb->ncfg) * sizeof(*lv));
	size_t n = sweep_levels(sa, ka, k, lv, 0);
	n = sweep_levels(sb, kb, k, lv, n);
	qsort(lv, n, sizeof(*lv), cmp_sw_level);
	char across[512] = ""; /* one workload a side, not the same: every row says so */
	if (!sweep_splits(sa) && !sweep_splits(sb))
		compare_workload_diff(c, across, sizeof(across));
	for (size_t i = 0; i < n; i++)
		if (i == 0 || cmp_sw_level(&lv[i], &lv[i - 1]) != 0)
			sweep_row(t, k, &lv[i], *lv[i].wl ? lv[i].wl : across, sweep_level(sa, ka, k, &lv[i]),
				  sweep_level(sb, kb, k, &lv[i]));
	free(lv);
	sweep_pair_keys_free(ka, sa->ncfg);
	sweep_pair_keys_free(kb, sb->ncfg);
	return t;
}

/* Metric i of sw_metrics in words: "latency p50", "output token throughput". */
static void sw_metric_words(size_t i, char *buf, size_t n)
{
	snprintf(buf, n, "%s", sw_metrics[i].name);
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
}

/* Whether wl is one of keys[0, n). */
static bool has_key(char *const *keys, size_t n, const char *wl)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(keys[i], wl) == 0)
			return true;
	return false;
}

/* The workloads of one side the other lacks (pair keys ks[0, ns) against ko[0, no)),
 * appended to buf after tag ("; only in A: model=x, model=y"). */
static void one_sided(char *const *ks, size_t ns, char *const *ko, size_t no, const char *tag, char *buf,
		      size_t n)
{
	bool any = false;
	for (size_t i = 0; i < ns; i++) {
		if (has_key(ks, i, ks[i]) || has_key(ko, no, ks[i]))
			continue; /* said already, or the other side has it */
		text_appendf(buf, n, "%s%s", any ? ", " : tag, ks[i]);
		any = true;
	}
}

/* Where row r of diff_sweep t has values: a metric on both sides (a delta), A's or B's
 * alone, or no metric on both (values on both sides, or on neither). */
enum lv_side { LV_BOTH, LV_A, LV_B, LV_APART };

static enum lv_side level_side(const struct table *t, size_t r)
{
	bool a = false, b = false;
	for (size_t i = 0; i < ARRAY_LEN(sw_metrics); i++) {
		int col = 2 + 4 * (int)i;
		if (table_cell(t, r, col + 2)->present)
			return LV_BOTH;
		a |= table_cell(t, r, col)->present;
		b |= table_cell(t, r, col + 1)->present;
	}
	return a == b ? LV_APART : a ? LV_A : LV_B;
}

enum { LEVELS_NAMED = 6 };

/* The levels of diff_sweep t not compared, appended to buf ("; not compared: concurrency 1,
 * 8 (only in A), 2 (only in B)"; "10 for model=auto" when the sweeps split by workload:
 * split), the first LEVELS_NAMED of each kind named; the levels of a workload one side
 * lacks are left out (one_sided names the workload). ka, kb: the pair keys of A and B. */
static void levels_not_compared(const struct table *t, bool split, char *const *ka, size_t na, char *const *kb,
				size_t nb, char *buf, size_t n)
{
	static const char *const why[] = { "", "only in A", "only in B", "no metric on both sides" };
	bool any = false;
	for (int s = LV_A; s <= LV_APART; s++) {
		size_t k = 0;
		for (size_t r = 0; r < t->nrow; r++) {
			const char *wl = cell_text(t, r, CMP_SWEEP_WORKLOAD_COL);
			bool theirs = !split || (has_key(ka, na, wl) && has_key(kb, nb, wl));
			if (level_side(t, r) != (enum lv_side)s || !theirs)
				continue;
			if (k++ >= LEVELS_NAMED)
				continue;
			if (!any && k == 1)
				text_appendf(buf, n, "; not compared: %s ", table_cell(t, r, 0)->text);
			else
				text_appendf(buf, n, ", ");
			text_appendf(buf, n, "%g%s%s", table_cell(t, r, 1)->num, split ? " for " : "", split ? wl : "");
		}
		if (k > LEVELS_NAMED)
			text_appendf(buf, n, " and %zu more", k - LEVELS_NAMED);
		if (k)
			text_appendf(buf, n, " (%s)", why[s]);
		any |= k > 0;
	}
}

int compare_sweep_verdict(struct compare *c, char *buf, size_t n)
{
	char err[128];
	struct table *t = build_diff_sweep(c, err, sizeof(err));
	if (!t) {
		snprintf(buf, n, "sweeps not compared: %s", err);
		return -1;
	}
	size_t common = 0, at = 0, which = 0;
	double most = 0;
	bool changed = false;
	for (size_t r = 0; r < t->nrow; r++) {
		bool both = false;
		for (size_t i = 0; i < ARRAY_LEN(sw_metrics); i++) {
			const struct table_cell *d = table_cell(t, r, 4 + 4 * (int)i), *pct = table_cell(t, r, 5 + 4 * (int)i);
			both |= d->present;
			changed |= d->present && d->num != 0;
			if (pct->present && fabs(pct->num) > fabs(most)) {
				most = pct->num;
				at = r;
				which = i;
			}
		}
		common += both;
	}
	const char *stim = t->nrow ? table_cell(t, 0, 0)->text : "";
	char metric[48];
	sw_metric_words(which, metric, sizeof(metric));
	int rc = common && changed;
	if (!common)
		snprintf(buf, n, "sweeps not compared: no %s level has a metric on both sides", stim);
	else if (!changed)
		snprintf(buf, n, "no difference: the same latency and throughput at %zu common %s level%s", common, stim,
			 common == 1 ? "" : "s");
	else if (most == 0) /* changes only where A's value is 0: no relative change */
		snprintf(buf, n, "values differ at %zu common %s level%s (see the levels below; no relative change: A "
			 "is 0 there)", common, stim, common == 1 ? "" : "s");
	else
		snprintf(buf, n, "largest change: %s %+.1f%% at %s %g%s%s (%zu common level%s; one run per level: no "
			 "noise estimate, nothing called a regression)", metric, most, stim, table_cell(t, at, 1)->num,
			 table_cell(t, at, CMP_SWEEP_WORKLOAD_COL)->present ? " for " : "",
			 table_cell(t, at, CMP_SWEEP_WORKLOAD_COL)->present ? table_cell(t, at, CMP_SWEEP_WORKLOAD_COL)->text : "",
			 common, common == 1 ? "" : "s");
	struct sweep_set *sa = sweep_derived(c->a), *sb = sweep_derived(c->b);
	char **ka = sweep_pair_keys(sa, sb, sa), **kb = sweep_pair_keys(sa, sb, sb);
	if (common)
		levels_not_compared(t, sweep_splits(sa) || sweep_splits(sb), ka, sa->ncfg, kb, sb->ncfg, buf, n);
	table_free(t);
	one_sided(ka, sa->ncfg, kb, sb->ncfg, "; only in A: ", buf, n);
	one_sided(kb, sb->ncfg, ka, sa->ncfg, "; only in B: ", buf, n);
	sweep_pair_keys_free(ka, sa->ncfg);
	sweep_pair_keys_free(kb, sb->ncfg);
	char workload[512];
	compare_workload_diff(c, workload, sizeof(workload));
	if (!*workload)
		return common ? rc : -1;
	text_appendf(buf, n, "; but the workload differs (%s): not a like-for-like comparison", workload);
	return common ? 1 : -1;
}

const struct cmp_view compare_views[] = {
	{ "diff_ranks", "runs A vs B: per-rank mean compute or step time ms (basis), time lost, deltas, regression, "
			"onset in B", build_diff_ranks },
	{ "diff_env", "runs A vs B: environment and config differences (pytscope diff); trace sets: GPU and CUDA",
	  build_diff_env },
	{ "diff_budget", "runs A vs B: efficiency budget lines per step side by side", build_diff_budget },
	{ "diff_findings", "runs A vs B: findings new in B, resolved, not judged, persisting", build_diff_findings },
	{ "diff_kernels", "trace sets A vs B: kernel count, total, mean and deltas; only in A / only in B", build_diff_kernels },
	{ "diff_sweep", "sweeps A vs B: per stimulus level latency p50/p99, ttft p99, throughputs, deltas", build_diff_sweep },
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
		return strcmp(c->family, "steps") == 0 || strcmp(c->family, "trace") == 0;
	return true;
}
