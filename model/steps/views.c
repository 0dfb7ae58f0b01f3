/* SPDX-License-Identifier: MIT */
/* views.c: the step run's views (tables for panes and --export): ranks, steps,
 * heatmap and budget (its note: the time its budgets leave out), and why a run's step logs
 * gave no record (missing, empty or unreadable: the views' refusal and --print say it).
 * Registered by subsystem.c. */
#include "model/steps/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/steps/analysis.h"
#include "model/groups.h"
#include "model/infile.h"
#include "model/numfmt.h"
#include "model/steps/nodes.h"
#include "model/run.h"
#include "model/stats.h"
#include "model/steps/steps.h"
#include "model/text.h"
#include "model/trace/trace.h"
#include "model/xalloc.h"

static bool need_steps(struct run *run, char *err, size_t errn)
{
	if (run->steps && steps_nranks(run->steps) > 0)
		return true;
	snprintf(err, errn, "no pytscope steps in this run");
	return false;
}

/* A step log's source: a pytscope file of a rank loaded that is not its run.json. */
static bool step_log_source(const struct source *s)
{
	const char *base = strrchr(s->path, '/');
	return s->format && strcmp(s->format, "pytscope") == 0 && !s->left_out &&
	       strcmp(base ? base + 1 : s->path, "run.json") != 0;
}

/* "N step log(s) <verb>" (the step log, when it is the only one), after "; " past buf's
 * first part; *used grows. */
static void say_logs(char *buf, size_t n, size_t *used, size_t k, size_t total, const char *one, const char *many)
{
	if (!k || *used >= n)
		return;
	const char *sep = *used ? "; " : "";
	if (total == 1)
		*used += (size_t)snprintf(buf + *used, n - *used, "the step log %s", one);
	else
		*used += (size_t)snprintf(buf + *used, n - *used, "%s%zu step log%s %s", sep, k, k == 1 ? "" : "s",
					  k == 1 ? one : many);
}

bool steps_logs_why_none(const struct run *run, char *buf, size_t n)
{
	size_t unread = 0, empty = 0, norec = 0, logs = 0;
	int err = 0;
	bool same = true;
	for (size_t i = 0; i < run->nsrc; i++) {
		const struct source *s = &run->src[i];
		if (!step_log_source(s))
			continue;
		logs++;
		if (s->err) {
			same = same && (unread == 0 || s->err == err);
			err = s->err;
			unread++;
		} else if (!s->records) {
			empty += s->bytes == 0;
			norec += s->bytes != 0;
		}
	}
	size_t nranks = run->steps ? steps_nranks(run->steps) : 0;
	size_t missing = nranks > logs ? nranks - logs : 0;
	size_t total = unread + empty + norec + missing, used = 0;
	char why[160];
	snprintf(why, sizeof(why), "cannot be read: %s", same ? infile_strerror(err) : "for different reasons");
	buf[0] = '\0';
	say_logs(buf, n, &used, unread, total, why, why);
	say_logs(buf, n, &used, missing, total, "is missing", "are missing");
	say_logs(buf, n, &used, empty, total, "is empty", "are empty");
	say_logs(buf, n, &used, norec, total, "holds no step record", "hold no step record");
	return unread > 0;
}

/* need_steps, and some rank has a step record (rank dirs with run.json alone have none);
 * else why not, as the step logs' sources say. */
static bool need_records(struct run *run, char *err, size_t errn)
{
	if (!need_steps(run, err, errn))
		return false;
	for (size_t r = 0; r < steps_nranks(run->steps); r++)
		if (steps_nrecords(run->steps, r))
			return true;
	char why[256];
	const char *traces = trace_steps_why_none(run, -1);
	if (traces)
		snprintf(why, sizeof(why), "%s (see --export sources)", traces);
	else
		steps_logs_why_none(run, why, sizeof(why));
	snprintf(err, errn, "no step records in this run: %s", why);
	return false;
}

/* Follow mode: rank id has a LIVE.STALLED_RANK finding. */
static bool live_stalled(const struct run *run, int rank)
{
	for (size_t i = 0; i < run->live_findings->n; i++) {
		const struct finding *f = &run->live_findings->v[i];
		if (f->ev.rank == rank && strcmp(f->id, "LIVE.STALLED_RANK") == 0)
			return true;
	}
	return false;
}

/* ranks: one row per rank; distributed columns are missing for a single rank. While
 * following a job, last_step and live ("stalled" or "-") follow records. Without any
 * step record it is refused, as steps is. */
static struct table *build_ranks(struct run *run, char *err, size_t errn)
{
	if (!need_records(run, err, errn))   /* rows of 0 records would read as 0 missing */
		return NULL;
	const struct steps_model *m = run->steps;
	const struct distributed *d = analysis_distributed(run);
	struct table *t = table_new("ranks", "Ranks");
	int c_rank = table_add_col(t, "rank", COL_INT, 5, 0);
	table_set_role(t, c_rank, COL_ROLE_RANK);
	int c_rec = table_add_col(t, "records", COL_INT, 8, 0);
	int c_last = run->live_findings ? table_add_col(t, "last_step", COL_INT, 9, 0) : -1;
	int c_live = run->live_findings ? table_add_col(t, "live", COL_TEXT, 8, 0) : -1;
	int c_mean = table_add_col(t, "mean_compute_ms", COL_NUM, 9, 2);
	int c_med = table_add_col(t, "median_compute_ms", COL_NUM, 9, 2);
	int c_crit = table_add_col(t, "critical_share", COL_NUM, 7, 3);
	int c_z = table_add_col(t, "z", COL_NUM, 6, 1);
	int c_rel = table_add_col(t, "rel_slowdown", COL_NUM, 7, 3);
	int c_lost = table_add_col(t, "time_lost_s", COL_NUM, 9, 3);
	table_set_role(t, c_lost, COL_ROLE_TIME_LOST);
	int c_onset = table_add_col(t, "onset_step", COL_INT, 7, 0);
	table_set_role(t, c_onset, COL_ROLE_ONSET);
	int c_miss = table_add_col(t, "missing_steps", COL_INT, 7, 0);
	int c_cov = table_add_col(t, "coverage", COL_NUM, 6, 3);
	int c_mem = table_add_col(t, "mem_peak_mb", COL_NUM, 9, 0);
	int c_strag = table_add_col(t, "straggler", COL_TEXT, 9, 0);
	int c_from = table_add_col(t, "slow_from_step", COL_INT, 7, 0);
	int c_cost = table_add_col(t, "straggler_cost_s", COL_NUM, 9, 3);
	int c_stall = table_add_col(t, "stall_steps", COL_TEXT, 11, 0);
	table_col_doc(t, c_crit, "share of the aligned steps on which the rank was the critical (slowest) rank, a "
				 "fraction of 1 (ranks tied at the slowest split the step); ");
	table_col_doc(t, c_z, "persistence z-score of being critical; ");
	table_col_doc(t, c_rel, "median ratio of the rank's compute to the step median, minus 1; ");
	table_col_doc(t, c_cov, "share of the run's steps the rank recorded, a fraction of 1; ");
	table_col_doc(t, c_miss, "steps the rank did not record; ");
	table_col_doc(t, c_strag, "yes for the straggler set, no for a rank judged not one (n/a: too few aligned "
		      "steps, no compute phase, compute 0 everywhere, or ranks that cannot be weighed against each "
		      "other, to judge); ");
	table_col_doc(t, c_from, "the straggler's onset; ");
	table_col_doc(t, c_cost, "the straggler's cost; ");
	table_col_doc(t, c_stall, "the step range of the rank's biggest transient stall; ");
	table_col_doc(t, c_rec, "records read; ");
	/* last, so the columns before it keep their places; shown early on a narrow screen */
	struct groups *nodes = steps_node_groups(run);   /* ranks table rows are rank indexes */
	int c_node = nodes ? table_add_col(t, "node", COL_TEXT, 12, 0) : -1;
	/* why one opens Ranks: following, which rank stalled; who loses time, since when, the
	 * verdict; then the evidence */
	table_col_prio(t, c_live, 11);
	table_col_prio(t, c_lost, 9);
	table_col_prio(t, c_onset, 8);
	table_col_prio(t, c_strag, 7);
	table_col_prio(t, c_crit, 6);
	table_col_prio(t, c_rel, 5);
	table_col_prio(t, c_med, 4);
	if (nodes)
		table_col_prio(t, c_node, 10);
	bool compute = analysis_has_compute(m); /* without: compute figures missing, nothing judged */
	const char *unweighable = compute ? analysis_compute_unweighable(run) : NULL;
	bool zero = unweighable != NULL;   /* recorded zeros: figures, no verdict */
	/* ranks that cannot be weighed against each other (a rank without compute, NaN, ...):
	 * each rank's own compute, no figure against the others */
	bool own_only = zero && unweighable != analysis_compute_zero;
	bool *own_compute = analysis_ranks_own_compute(run);
	for (size_t r = 0; r < steps_nranks(m); r++) {
		size_t row = table_add_row(t, steps_rank_id(m, r));
		table_set_num(t, row, c_rank, steps_rank_id(m, r));
		if (nodes)
			table_set_text(t, row, c_node, nodes->name[nodes->group_of[r]]);
		table_set_num(t, row, c_rec, (double)steps_nrecords(m, r));
		if (c_live >= 0) {
			size_t n = steps_nrecords(m, r);
			table_set_num_opt(t, row, c_last, n ? (double)steps_step(m, r, n - 1) : 0, n > 0);
			table_set_text(t, row, c_live, live_stalled(run, steps_rank_id(m, r)) ? "stalled" : "-");
		}
		table_set_num(t, row, c_miss, (double)steps_missing(m, r));
		if (steps_nunion(m))
			table_set_num(t, row, c_cov, (double)steps_rank_nsteps(m, r) / (double)steps_nunion(m));
		if (!d) { /* one rank, or no step on every rank: its own peak and compute still are */
			struct rank_stat one = { 0 };
			analysis_rank_mem_peak(m, r, &one);
			table_set_num_opt(t, row, c_mem, one.mem_peak / 1048576.0, one.has_mem_peak);
			bool own = compute && own_compute[r];
			if (own && analysis_rank_own_compute(run, r, &one.own_mean, &one.own_median)) {
				table_set_num_opt(t, row, c_mean, one.own_mean * 1e3, isfinite(one.own_mean * 1e3));
				table_set_num_opt(t, row, c_med, one.own_median * 1e3, isfinite(one.own_median * 1e3));
			}
			if (steps_nranks(m) > 1)   /* no aligned step: nothing judged, n/a, not "no" */
				table_set_text(t, row, c_strag, "n/a");
			continue;
		}
		const struct rank_stat *rs = &d->rank[r];
		table_set_num_opt(t, row, c_mem, rs->mem_peak / 1048576.0, rs->has_mem_peak);
		if (!compute || !own_compute[r]) {   /* nothing of it to weigh: no compute of its own */
			table_set_text(t, row, c_strag, "n/a");
			continue;
		}
		/* over the aligned steps with a compute (none: missing) */
		bool own = rs->no_compute < d->n_steps;
		table_set_num_opt(t, row, c_mean, rs->own_mean * 1e3, own && isfinite(rs->own_mean * 1e3)); /* no inf */
		table_set_num_opt(t, row, c_med, rs->own_median * 1e3, own && isfinite(rs->own_median * 1e3));
		if (own_only) {
			table_set_text(t, row, c_strag, "n/a");
			continue;
		}
		table_set_num(t, row, c_crit, rs->critical_share);
		table_set_num(t, row, c_z, rs->critical_z);
		table_set_num(t, row, c_rel, rs->rel_slowdown);
		table_set_num(t, row, c_lost, rs->time_lost);
		table_set_num_opt(t, row, c_onset, (double)rs->onset, rs->onset >= 0);
		/* under STRAG_MIN_JUDGE aligned steps, or with compute 0 everywhere, nothing was
		 * judged: n/a; judged, "no" (a verdict, not a missing cell) */
		table_set_text(t, row, c_strag,
			       rs->straggler ? "yes" : d->n_steps < STRAG_MIN_JUDGE || zero ? "n/a" : "no");
		if (rs->straggler) {
			table_set_num(t, row, c_from, (double)rs->slow_onset);
			table_set_num(t, row, c_cost, rs->slow_cost);
		}
		if (rs->stall_lo >= 0) {
			char buf[48];
			snprintf(buf, sizeof(buf), "%ld-%ld", rs->stall_lo, rs->stall_hi);
			table_set_text(t, row, c_stall, buf);
		}
	}
	free(own_compute);
	if (nodes) {
		table_set_groups(t, nodes, c_node);
		table_set_role(t, c_mean, COL_ROLE_GROUP_WORST); /* nodes.c: a node's worst rank */
	}
	return t;
}

/* Rank index ri with its body: a private copy when it is kept in an index part and
 * not resident (the steps view reads every record once: it leaves no body resident,
 * so a streamed export holds one part's, and other threads are not disturbed), else
 * the model's rank (read the usual way when a copy cannot be made: it diagnoses). */
static const struct rank_steps *rank_body(const struct steps_model *m, size_t ri)
{
	struct rank_steps *r = m->rank[ri], *own = NULL;
	if (steps_rank_body_copy(r, &own) && own)
		return own;
	rank_need_body(r);
	return r;
}

/* The steps column of metric def: its whole name (sanitized: names come from data) with
 * its kind's prefix and unit, made unique among t's columns, which --sort and --filter
 * find by name, whatever the case: a name taken (a phase "x" and a scalar "x_ms", a
 * scalar "step", two names the sanitizer makes alike) gets "#2", "#3", ... The caller
 * frees it. */
static char *metric_col_name(const struct table *t, const struct metric_def *def)
{
	static const char *const prefix[] = { "", "", "mem_" };
	const char *unit = def->kind == METRIC_PHASE ? "_ms" : def->kind == METRIC_MEMORY ? "_mb" : "";
	char *clean = text_sanitize_dup(def->name, 0);
	size_t n = strlen(clean) + 32;
	char *name = xmalloc(n);
	snprintf(name, n, "%s%s%s", prefix[def->kind], clean, unit);
	for (unsigned dup = 2; table_col_index(t, name) >= 0; dup++)
		snprintf(name, n, "%s%s%s#%u", prefix[def->kind], clean, unit, dup);
	free(clean);
	return name;
}

/* Phase value v (s) in ms as logged: from its whole nanoseconds when it has them (v is
 * ns / 1e9 bit for bit, as the store keeps phases: 0.008660412 s is 8660412 ns, 8.660412
 * ms, where v * 1e3 reads 8.660411999999999), else v * 1e3. The nanoseconds are added to
 * *ns_sum, exact while below 2^53 (*whole cleared past it, or for a value without them). */
static double phase_ms(double v, double *ns_sum, bool *whole)
{
	double ns = fabs(v) < 9e6 ? nearbyint(v * 1e9) : NAN;
	if (ns / 1e9 != v) {
		*whole = false;
		return v * 1e3;
	}
	*ns_sum += ns;
	*whole = *whole && fabs(*ns_sum) < 0x1p53;
	return ns / 1e6;
}

/* steps: every record of ranks [lo, hi) (model order), one column per metric (phases in ms
 * as logged: phase_ms), and the step time, the exactly rounded sum of the phases: of their
 * nanoseconds when each has them (the row's phase cells added up exactly), else their fsum. */
static struct table *steps_rows(struct run *run, size_t lo, size_t hi)
{
	const struct steps_model *m = run->steps;
	struct table *t = table_new("steps", "Steps");
	int c_rank = table_add_col(t, "rank", COL_INT, 5, 0);
	table_set_role(t, c_rank, COL_ROLE_RANK);
	int c_step = table_add_col(t, "step", COL_INT, 7, 0);
	table_set_role(t, c_step, COL_ROLE_STEP);
	int c_ts = table_add_col(t, "timestamp", COL_NUM, 14, 3);
	int c_time = table_add_col(t, "step_time_ms", COL_NUM, 9, 2);
	size_t nm = steps_nmetrics(m);
	int *col = xmalloc((nm ? nm : 1) * sizeof(*col));
	int *id = xmalloc((nm ? nm : 1) * sizeof(*id));
	for (size_t k = 0; k < nm; k++) {
		id[k] = steps_metric_nth(m, k); /* the run's order, whatever the loader threads did */
		const struct metric_def *def = steps_metric(m, id[k]);
		char *name = metric_col_name(t, def);
		col[k] = table_add_col(t, name, COL_NUM, 9, def->kind == METRIC_SCALAR ? 4 : 2);
		free(name);
	}
	for (size_t ri = lo; ri < hi; ri++) {
		const struct rank_steps *r = rank_body(m, ri);
		for (size_t i = 0; i < r->n; i++) {
			size_t row = table_add_row(t, r->rank);
			table_set_int(t, row, c_rank, r->rank);
			table_set_int(t, row, c_step, store_rank_step(r, i));
			double v;
			struct stats_sum sum; /* step time = fsum of the phases (pytscope.md), in any order */
			stats_sum_init(&sum);
			double ns_sum = 0;    /* ... exact from their nanoseconds, when each has them */
			bool any = false, whole = true;
			if (store_rank_timestamp(r, i, &v))
				table_set_num(t, row, c_ts, v);
			for (size_t k = 0; k < nm; k++) {
				if (!store_rank_value(r, id[k], i, &v))
					continue;
				enum metric_kind kind = steps_metric(m, id[k])->kind;
				if (kind == METRIC_PHASE) {
					stats_sum_add(&sum, v);
					any = true;
				}
				double shown = kind == METRIC_PHASE ? phase_ms(v, &ns_sum, &whole)
					       : kind == METRIC_MEMORY ? v / 1048576.0 : numfmt_float_shortest(v);
				table_set_num(t, row, col[k], shown);
			}
			double ms = whole ? ns_sum / 1e6 : stats_sum_result(&sum) * 1e3;
			table_set_num_opt(t, row, c_time, ms, any);
		}
		if (r != m->rank[ri])
			steps_rank_body_copy_free((struct rank_steps *)r);
	}
	free(col);
	free(id);
	return t;
}

/* steps: every record of every rank. */
static struct table *build_steps(struct run *run, char *err, size_t errn)
{
	return need_records(run, err, errn) ? steps_rows(run, 0, steps_nranks(run->steps)) : NULL;
}

/* Rows of a part of the streamed steps view: whole ranks up to about this many. */
#define STEPS_PART_ROWS 65536

static struct table *build_steps_next(struct run *run, size_t *cursor, char *err, size_t errn)
{
	if (!(*cursor ? need_steps(run, err, errn) : need_records(run, err, errn)))
		return NULL;
	const struct steps_model *m = run->steps;
	size_t lo = *cursor, hi = lo, rows = 0, n = steps_nranks(m);
	if (lo >= n) {
		err[0] = '\0';
		return NULL;
	}
	while (hi < n && (hi == lo || rows + steps_nrecords(m, hi) <= STEPS_PART_ROWS))
		rows += steps_nrecords(m, hi++);
	*cursor = hi;
	return steps_rows(run, lo, hi);
}

struct table *steps_view_rank(struct run *run, size_t ri)
{
	return run->steps && ri < steps_nranks(run->steps) ? steps_rows(run, ri, ri + 1) : NULL;
}

/* Why the ranks' slowdown vs the step median is not judged, or NULL: one rank (nothing to
 * compare against), or compute the ranks cannot be weighed by (analysis_compute_unweighable
 * but for recorded zeros: traces of two runs, a rank without compute...), as the ranks
 * view's rel_slowdown. */
static const char *slowdown_unjudged(struct run *run)
{
	const char *why = steps_nranks(run->steps) < 2 ? "one rank, nothing to compare against"
			  : analysis_has_compute(run->steps) ? analysis_compute_unweighable(run) : NULL;
	return why != analysis_compute_zero ? why : NULL;
}

/* Why the heatmap view's cells are empty run-wide, into buf ("" when none is): no compute
 * phase (compute and slowdown), the slowdown not judged (slowdown_unjudged), or a median of
 * 0 at every aligned step (every rank's compute is 0), or not judged after the last step
 * every rank has (the later columns: no median over every rank there). */
static void heatmap_unjudged(struct run *run, char *buf, size_t n)
{
	const struct steps_model *m = run->steps;
	const char *why = slowdown_unjudged(run);
	size_t A = steps_naligned(m);
	if (!analysis_has_compute(m))
		snprintf(buf, n, "compute and relative slowdown not judged: no compute phase recorded");
	else if (why || analysis_compute_unweighable(run) == analysis_compute_zero)
		snprintf(buf, n, "relative slowdown not judged: %s", why ? why : analysis_compute_zero);
	else if (steps_ncolumns(m) > A)
		snprintf(buf, n, "relative slowdown not judged after step %ld, the last step every rank has: no median "
			 "over every rank there", steps_aligned_step(m, A - 1));
	else
		buf[0] = '\0';
}

/* heatmap: per rank and block of the heatmap's steps (steps_ncolumns: the aligned ones,
 * then the later ones of the ranks that go on; at most 100 blocks), the mean and worst
 * step compute (empty for a rank without a compute of its own, analysis_ranks_own_compute)
 * and relative slowdown vs the step median (empty when not judged, slowdown_unjudged,
 * which the title says). What leaves cells empty run-wide (heatmap_unjudged) is in the
 * title and the table's note (--export says it). */
static struct table *build_heatmap(struct run *run, char *err, size_t errn)
{
	if (!need_steps(run, err, errn))
		return NULL;
	const struct steps_model *m = run->steps;
	const char *unjudged = slowdown_unjudged(run);
	const struct heat_grid *gc = analysis_heatmap_all(run, HEAT_COMPUTE);
	const struct heat_grid *gr = unjudged ? NULL : analysis_heatmap_all(run, HEAT_REL_SLOWDOWN);
	if (!gc) {
		snprintf(err, errn, "no aligned steps across ranks");
		return NULL;
	}
	size_t S = heat_nsteps(gc), block = (S + 99) / 100;
	char note[256], title[320];
	heatmap_unjudged(run, note, sizeof(note));
	snprintf(title, sizeof(title), "Heatmap (rank x step blocks%s%s)", *note ? "; " : "", note);
	struct table *t = table_new("heatmap", title);
	table_set_note(t, *note ? note : NULL);
	int c_rank = table_add_col(t, "rank", COL_INT, 5, 0);
	table_set_role(t, c_rank, COL_ROLE_RANK);
	int c_lo = table_add_col(t, "step_lo", COL_INT, 7, 0);
	int c_hi = table_add_col(t, "step_hi", COL_INT, 7, 0);
	int c_mean = table_add_col(t, "compute_mean_ms", COL_NUM, 9, 2);
	int c_worst = table_add_col(t, "compute_worst_ms", COL_NUM, 9, 2);
	int c_rmean = table_add_col(t, "rel_slowdown_mean", COL_NUM, 8, 3);
	int c_rworst = table_add_col(t, "rel_slowdown_worst", COL_NUM, 8, 3);
	bool compute = analysis_has_compute(m); /* without: every cell missing, not 0 */
	bool *own = analysis_ranks_own_compute(run);   /* a rank without: its cells missing */
	for (size_t r = 0; r < heat_nranks(gc); r++)
		for (size_t k = 0; k < S; k += block) {
			size_t end = k + block < S ? k + block : S;
			size_t row = table_add_row(t, steps_rank_id(m, r));
			table_set_num(t, row, c_rank, steps_rank_id(m, r));
			table_set_int(t, row, c_lo, steps_column_step(m, k));
			table_set_int(t, row, c_hi, steps_column_step(m, end - 1));
			double mean, worst;
			if (!compute || !own[r])
				continue;
			if (heat_range(gc, r, k, end, &mean, &worst)) {
				table_set_num(t, row, c_mean, mean * 1e3);
				table_set_num(t, row, c_worst, worst * 1e3);
			}
			if (gr && heat_range(gr, r, k, end, &mean, &worst)) {
				table_set_num(t, row, c_rmean, mean);
				table_set_num(t, row, c_rworst, worst);
			}
		}
	free(own);
	return t;
}

/* A row of the budget view: scope, rank (-1: none) and budget b, every figure empty when b
 * is NULL (no budget: n/a); the top recoverable line empty when not judged
 * (analysis_budget_top). */
static void budget_row(const struct run *run, struct table *t, const int *c, long ref, const char *scope, int rank,
		       const struct budget *b)
{
	size_t row = table_add_row(t, ref);
	table_set_text(t, row, c[0], scope);
	table_set_num_opt(t, row, c[1], rank, rank >= 0);
	if (!b)
		return;
	table_set_num(t, row, c[2], (double)b->steps);
	table_set_num(t, row, c[3], b->wall);
	table_set_num_opt(t, row, c[4], b->mfu, b->has_mfu);
	table_set_num_opt(t, row, c[5], b->efficiency, b->judged);
	for (int i = 0; i < BUDGET_NLINES; i++) /* a line nothing measures: empty, not 0 */
		table_set_num_opt(t, row, c[6 + i], b->line[i].seconds, b->line[i].measured);
	int top = analysis_budget_top(run, b);
	if (top >= 0)
		table_set_text(t, row, c[6 + BUDGET_NLINES], b->line[top].name);
}

/* The budget view's note, natively: the time its budgets leave out in phases they do not
 * weigh (analysis_budget_left_out), the run line's, else the lowest rank's that leaves
 * out any (a rank the run line does not add), for an --export reader: the rank walls and
 * the shares are of the phases weighed alone. */
static void budget_note(struct run *run, struct table *t, const struct budget *all)
{
	const struct budget *b = all && all->foreign > 0 ? all : NULL;
	char left[256], whose[32];
	snprintf(whose, sizeof(whose), "%s", all && all->nranks > 1 ? "the run's" : "the");
	for (size_t r = 0; !b && r < steps_nranks(run->steps); r++) {
		b = analysis_budget(run, r);
		b = b && b->foreign > 0 ? b : NULL;
		if (b)
			snprintf(whose, sizeof(whose), "rank %d's", steps_rank_id(run->steps, r));
	}
	if (!b || !analysis_budget_left_out(run, b, left, sizeof(left)))
		return;
	char *note = xasprintf("%s budget leaves out %s: rank_wall_s, mfu, useful_fraction and top_recoverable are "
			       "of the phases it weighs", whose, left);
	table_set_note(t, note);
	free(note);
}

/* The budget view's refusal: the reason is analysis_budget_why_absent's, as everywhere. */
void steps_budget_none_why(struct run *run, char *err, size_t errn)
{
	char why[200];
	snprintf(err, errn, "no efficiency budget: %s", analysis_budget_why_absent(run, -1, why, sizeof(why)));
}

/* budget: the run line (all ranks added; scope "loaded" when the ranks loaded are part
 * of the run: a --ranks subset, ranks of world_size missing; "partial" when a rank has no
 * budget or is left out of the run line for a line it does not measure (analysis_budget_all);
 * empty figures when a rank's phase value is not a duration) then one line per rank, empty
 * for a rank without a budget (pytscope reports the lowest rank's). */
static struct table *build_budget(struct run *run, char *err, size_t errn)
{
	if (!need_steps(run, err, errn))
		return NULL;
	const struct steps_model *m = run->steps;
	struct table *t = table_new("budget", "Efficiency budget");
	int c[7 + BUDGET_NLINES];
	c[0] = table_add_col(t, "scope", COL_TEXT, 5, 0);
	table_col_doc(t, c[0], "run: every rank added; loaded: the ranks loaded, part of the run; partial: only the "
			       "ranks with a budget that measures every line (a phase a rank does not record is not "
			       "0 s of it); rank: one rank; ");
	c[1] = table_add_col(t, "rank", COL_INT, 5, 0);
	table_set_role(t, c[1], COL_ROLE_RANK);
	c[2] = table_add_col(t, "steps", COL_INT, 7, 0);
	table_col_doc(t, c[2], "the steps MFU weighs: natively records of one step in a row (micro-batches) are one "
			       "step, under --compat pytscope every record; ");
	c[3] = table_add_col(t, "rank_wall_s", COL_NUM, 9, 2);
	c[4] = table_add_col(t, "mfu", COL_NUM, 6, 3);
	c[5] = table_add_col(t, "useful_fraction", COL_NUM, 6, 3);
	table_col_doc(t, c[5], "useful compute over the rank wall, a fraction of 1 (empty when only compute is "
			       "recorded and MFU is unknown: 1 by construction); ");
	static const char *const names[BUDGET_NLINES] = { "useful_compute_s", "compute_overhead_s",
							  "data_stall_s", "communication_s", "other_s" };
	for (int i = 0; i < BUDGET_NLINES; i++) {
		c[6 + i] = table_add_col(t, names[i], COL_NUM, 9, 2);
		table_col_doc(t, c[6 + i], i == BUDGET_OVERHEAD ? "empty without FLOPs/peak (MFU unknown); "
						: "empty when the rank (the run line: every rank) records no such "
						  "phase; ");
	}
	c[6 + BUDGET_NLINES] = table_add_col(t, "top_recoverable", COL_TEXT, 16, 0);
	table_col_doc(t, c[6 + BUDGET_NLINES], "the recoverable line with the most time; empty without MFU when "
			       "the compute overhead, unknown then, could be larger (the line is shorter than the "
			       "compute); ");
	/* on a narrow screen: whose budget, how efficient, what to recover first */
	table_col_prio(t, c[1], 9);
	table_col_prio(t, c[5], 8);
	table_col_prio(t, c[4], 7);
	table_col_prio(t, c[6 + BUDGET_NLINES], 6);
	table_col_prio(t, c[3], 5);
	size_t nbudget = 0;
	for (size_t r = 0; r < steps_nranks(m); r++)
		nbudget += analysis_budget(run, r) != NULL;
	if (!nbudget) {
		table_free(t);
		steps_budget_none_why(run, err, errn);
		return NULL;
	}
	/* the run line: its scope says what it adds; n/a (empty) when a rank's value is not a duration */
	const struct budget *all = analysis_budget_all(run);
	char part[256];
	const char *scope = !all || all->nranks < steps_nranks(m) ? "partial"
			  : steps_partial_scope(run, part, sizeof(part)) ? "loaded" : "run";
	budget_row(run, t, c, -1, scope, -1, all);
	for (size_t r = 0; r < steps_nranks(m); r++) /* a rank without a budget: its row, empty */
		budget_row(run, t, c, steps_rank_id(m, r), "rank", steps_rank_id(m, r), analysis_budget(run, r));
	budget_note(run, t, all);
	return t;
}

/* The ranks of node nd whose straggler verdict the ranks view gives ("yes" or "no", not
 * n/a), in *judged; returns how many of them are stragglers. */
static size_t node_stragglers(struct run *run, const struct node_stat *nd, size_t *judged)
{
	const struct distributed *d = analysis_distributed(run);
	const char *unweighable = analysis_compute_unweighable(run);
	bool own_only = unweighable && unweighable != analysis_compute_zero;
	size_t n = 0;
	*judged = 0;
	if (!d || !analysis_has_compute(run->steps) || own_only)
		return 0;
	for (size_t i = 0; i < nd->nranks; i++) {   /* weighed: each rank's compute is its own */
		const struct rank_stat *rs = &d->rank[nd->ri[i]];
		n += rs->straggler;
		*judged += rs->straggler || (d->n_steps >= STRAG_MIN_JUDGE && !unweighable);
	}
	return n;
}

/* Node k's slow_together cell: "yes", "no" when judged not slow together, "n/a" when not
 * judged (steps_node_verdict: too few aligned steps or no compute to weigh, a node of one
 * rank or of the ranks without a hostname, fewer than 2 hosts to weigh a host against, or
 * slow together on more than half of the ranks). */
static const char *node_slow_cell(const struct node_set *s, size_t k)
{
	enum node_verdict v = steps_node_verdict(s, k);
	return v == NODE_SLOW ? "yes" : v == NODE_NOT_SLOW ? "no" : "n/a";
}

/* nodes: the node roll-up (nodes.h), one row per node; refused without a step record, as ranks is. */
static struct table *build_nodes(struct run *run, char *err, size_t errn)
{
	if (!need_records(run, err, errn))
		return NULL;
	struct node_set *s = steps_nodes(run);
	if (!s) {
		snprintf(err, errn, "no node information: no hostname in run.json or the traces, no --ranks-per-node, "
				    "no gpu_count most ranks agree on, no GPU count the traces agree on (or a single "
				    "rank)");
		return NULL;
	}
	const struct steps_model *m = run->steps;
	struct table *t = table_new("nodes", "Nodes");
	int c_node = table_add_col(t, "node", COL_TEXT, 12, 0);
	int c_n = table_add_col(t, "ranks", COL_INT, 5, 0);
	int c_first = table_add_col(t, "first_rank", COL_INT, 5, 0);
	int c_last = table_add_col(t, "last_rank", COL_INT, 5, 0);
	int c_worst = table_add_col(t, "worst_rank", COL_INT, 5, 0);
	table_set_role(t, c_worst, COL_ROLE_RANK);
	int c_wc = table_add_col(t, "worst_compute_ms", COL_NUM, 9, 2);
	int c_mc = table_add_col(t, "mean_compute_ms", COL_NUM, 9, 2);
	int c_min = table_add_col(t, "min_rel_slowdown", COL_NUM, 7, 3);
	int c_med = table_add_col(t, "median_rel_slowdown", COL_NUM, 7, 3);
	int c_strag = table_add_col(t, "stragglers", COL_INT, 5, 0);
	int c_slow = table_add_col(t, "slow_together", COL_TEXT, 6, 0);
	int c_how = table_add_col(t, "grouped_by", COL_TEXT, 12, 0); /* a guess unless hostname */
	int c_sfrom = table_add_col(t, "slow_from_step", COL_INT, 7, 0);  /* last, so the others keep their places */
	int c_fworst = table_add_col(t, "from_worst_rank", COL_INT, 5, 0);
	int c_fwc = table_add_col(t, "from_worst_compute_ms", COL_NUM, 9, 2);
	int c_fmin = table_add_col(t, "from_min_rel_slowdown", COL_NUM, 7, 3);
	int c_fmed = table_add_col(t, "from_median_rel_slowdown", COL_NUM, 7, 3);
	char how[48];
	steps_nodes_how(s, how, sizeof(how));
	/* on a narrow screen: the worst rank and its compute, the stragglers */
	table_col_prio(t, c_worst, 9);
	table_col_prio(t, c_wc, 8);
	table_col_prio(t, c_strag, 7);
	table_col_prio(t, c_slow, 6);
	table_col_doc(t, c_strag, "ranks of the straggler set, as the ranks view's verdicts (empty when none of "
				  "the node's ranks is judged: too few aligned steps, or a compute the ranks cannot be "
				  "weighed by); ");
	table_col_doc(t, c_slow, "yes for a node slow together (NODE.SLOW_TOGETHER), no for one judged not (n/a: "
		      "too few aligned steps, a compute the ranks cannot be weighed by, a node of one rank or "
		      "of the ranks without a hostname, a run of one host, or nodes slow together holding more "
		      "than half of the ranks, to judge); ");
	table_col_doc(t, c_sfrom, "the step from which the ranks of a node slow together (yes) turned slow at once "
				  "(empty: slow throughout, or not slow together); ");
	table_col_doc(t, c_fworst, "from slow_from_step to the last judged step: the rank with the highest mean "
				   "compute; ");
	table_col_doc(t, c_fwc, "from slow_from_step to the last judged step: that rank's mean compute; ");
	table_col_doc(t, c_fmin, "from slow_from_step to the last judged step: the least median slowdown against "
				 "the step median of the node's ranks; ");
	table_col_doc(t, c_fmed, "from slow_from_step to the last judged step: the median over the node's ranks of "
				 "their median slowdown against the step median; ");
	const char *unweighable = analysis_compute_unweighable(run);
	bool own_only = unweighable && unweighable != analysis_compute_zero; /* no figure against the others */
	for (size_t k = 0; k < s->n; k++) {
		const struct node_stat *nd = &s->v[k];
		size_t row = table_add_row(t, steps_rank_id(m, nd->ri[0]));
		table_set_text(t, row, c_node, nd->name);
		table_set_num(t, row, c_n, (double)nd->nranks);
		table_set_num(t, row, c_first, steps_rank_id(m, nd->ri[0]));
		table_set_num(t, row, c_last, steps_rank_id(m, nd->ri[nd->nranks - 1]));
		table_set_text(t, row, c_how, how);
		table_set_text(t, row, c_slow, node_slow_cell(s, k));
		if (!nd->has_dist)
			continue;
		table_set_num_opt(t, row, c_worst, steps_rank_id(m, nd->worst), nd->has_compute);
		table_set_num_opt(t, row, c_wc, nd->worst_compute * 1e3, nd->has_compute);
		table_set_num_opt(t, row, c_mc, nd->mean_compute * 1e3, nd->has_compute);
		table_set_num_opt(t, row, c_min, nd->min_rel, !own_only);
		table_set_num_opt(t, row, c_med, nd->median_rel, !own_only);
		size_t judged, strag = node_stragglers(run, nd, &judged);
		table_set_num_opt(t, row, c_strag, (double)strag, judged > 0);
		if (nd->slow_from < 0 || !steps_node_slow(s, k))   /* the figures NODE.SLOW_TOGETHER quotes */
			continue;
		table_set_int(t, row, c_sfrom, nd->slow_from);
		table_set_int(t, row, c_fworst, steps_rank_id(m, nd->from_worst));
		table_set_num_opt(t, row, c_fwc, nd->from_worst_compute * 1e3, !isnan(nd->from_worst_compute));
		table_set_num(t, row, c_fmin, nd->from_min_rel);
		table_set_num(t, row, c_fmed, nd->from_median_rel);
	}
	steps_nodes_free(s);
	return t;
}

const struct view_def steps_views[STEPS_NVIEWS] = {
	{ "ranks", "per rank: compute, critical-path share, z, slowdown, time lost, onset, coverage, memory, straggler verdicts",
	  build_ranks, NULL, NULL },
	{ "steps", "per rank and step: every phase (ms), step time, scalars, memory (MB)", build_steps, NULL,
	  build_steps_next },
	{ "heatmap", "rank x step blocks: mean/worst compute and relative slowdown", build_heatmap, NULL, NULL },
	{ "budget", "efficiency budget: the whole run (all ranks), then one line per rank", build_budget, NULL, NULL },
	{ "nodes", "per node (hostname, else --ranks-per-node, gpu_count, the traces' GPUs): ranks, worst rank, compute, "
		   "slowdown, slow together",
	  build_nodes, NULL, NULL },
};
