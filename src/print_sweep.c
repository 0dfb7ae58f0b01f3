/* SPDX-License-Identifier: MIT */
/* print_sweep.c: the sweep section of the plain-text report: GenAI-Perf sweeps (per
 * series: stimulus x key metrics, ranking, constraints, knee or why it is not judged, sizing
 * fit and the confidence of the p95s it fits), NAT sizing
 * (fits and the concurrencies they leave out, GPU estimate recomputed or, without its targets, the file's stored one,
 * per-concurrency table whose rough estimates are likewise recomputed or stored) and
 * Cerebras performance.json; figures by the display rule
 * (sweep_num_text: never hundreds of digits, never a nonzero value as zero), never with more
 * decimals than the CSV they were read from (sweep_value_decimals). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/run.h"
#include "model/sweep/sweep.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "src/print.h"
#include "src/sbuf.h"

/* A section heading with the rest of its line. */
static void heading(struct sbuf *b, const struct print_opts *po, enum sgr led, const char *title,
		    const char *rest)
{
	sb_heading(b, po->color, led, title);
	sb_printf(b, "%s\n", rest);
}

/* What a series table's percentiles rest on: a value starred (low confidence), and a
 * percentile shown in the current row without a request count (confidence not judged). */
struct conf_marks {
	bool low;
	bool unjudged;
};

/* A value with dec decimals (no more than its CSV has: sweep_value_decimals) by the display
 * rule (sweep_num_text: 1e15 or more in exponent form), or "-"; a low-confidence percentile
 * gets a '*' and sets cm->low, one whose config has no request count sets cm->unjudged (the
 * percentiles follow avg..std). */
static void num(char *buf, size_t n, const struct sweep_cfg *c, enum sweep_metric m,
		enum sweep_stat st, int dec, struct conf_marks *cm)
{
	double v;
	if (!sweep_value(c, m, st, &v)) {
		snprintf(buf, n, "-");
		return;
	}
	size_t k = strlen(sweep_num_text(v, sweep_value_decimals(c, m, st, dec), buf, n));
	if (sweep_confidence_unjudged(c, st))
		cm->unjudged = true;
	if (sweep_low_confidence(c, st) && k + 1 < n) {
		snprintf(buf + k, n - k, "*");
		cm->low = true;
	}
}

/* Under a series table with starred values: what the star means and the counts. */
static void lowconf_note(struct sbuf *b, const struct sweep_set *s, const struct sweep_series *se)
{
	sb_printf(b, "    * low confidence: fewer than %d requests beyond that percentile (p99 needs "
		  "%d requests, p90 %d); requests per level:", SWEEP_LOWCONF_TAIL,
		  SWEEP_LOWCONF_TAIL * 100, SWEEP_LOWCONF_TAIL * 10);
	for (size_t i = 0; i < se->n; i++) {
		double n;
		if (sweep_value(&s->cfg[se->cfg[i]], SM_COUNT, SS_AVG, &n))
			sb_printf(b, "%s%g", i ? ", " : " ", n);
		else
			sb_printf(b, "%sn/a", i ? ", " : " ");
	}
	sb_printf(b, "\n");
}

/* Under a series table: the levels whose percentiles have no request count to judge. */
static void conf_unjudged_note(struct sbuf *b, size_t unjudged, size_t nlevels)
{
	if (unjudged)
		sb_printf(b, "    confidence of the percentiles not judged at %zu of %zu levels (no request count)\n",
			  unjudged, nlevels);
}

/* A fit of npt levels: slope, intercept, R² (none of 2 points: a line fits any two), the
 * points fitted when fewer than npt, the outliers removed. */
static void fit_line(struct sbuf *b, const char *label, const struct sweep_fit *f, size_t npt)
{
	if (!f->ok) {
		sb_printf(b, "  %s: no fit (%s)\n", label, f->err ? f->err : "no data");
		return;
	}
	sb_printf(b, "  %s: slope %.6g s per concurrency · intercept %.6g s", label, f->slope, f->intercept);
	if (f->nused <= 2)
		sb_printf(b, " · 2 points (R² not judged: a line fits any two)");
	else
		sb_printf(b, " · R² %.4f%s", f->r2, f->flat ? " (flat: every point equal, R² 0 by convention)"
						      : f->poor ? " (poor fit)" : "");
	if (f->nused > 2 && f->nused < npt)
		sb_printf(b, " · %zu of %zu points", f->nused, npt);
	if (f->nout) {
		sb_printf(b, " · outliers removed [");
		for (size_t i = 0; i < f->nout; i++)
			sb_printf(b, "%s%g", i ? ", " : "", f->outliers[i]);
		sb_printf(b, "]");
	}
	sb_printf(b, "\n");
}

/* The GPU estimate for the p95 `what` target (target_opt sets it): recomputed, with the file's stored one
 * beside it; while an option is missing, the stored one (the calculator's final answer, formats.md §4.2) and
 * what recomputing it needs, or, with this target given, what the estimate needs. False: nothing printed
 * (neither this target nor a stored estimate). */
static bool estimate_line(struct sbuf *b, const char *indent, const struct sweep_set *s, const char *what,
			  const char *target_opt, double target, const struct sweep_estimate *e, bool has_stored,
			  double stored)
{
	char need[96], g[40], c[40], st[48] = "";
	sweep_sizing_needs(s, target_opt, target, need, sizeof(need));
	if (*need) {
		if (has_stored)
			sb_printf(b, "%s→ stored %s GPUs by p95 %s (the calculator's own estimate; recomputing "
				  "it needs %s)\n", indent, sweep_num_text(stored, 4, g, sizeof(g)), what, need);
		else if (target > 0)
			sb_printf(b, "%s→ no GPU estimate for p95 %s %g s: needs %s\n", indent, what, target, need);
		else
			return false;
		return true;
	}
	if (has_stored)
		snprintf(st, sizeof(st), " · stored %s", sweep_num_text(stored, 4, g, sizeof(g)));
	if (e->ok)
		sb_printf(b, "%s→ %s GPUs for %g users at p95 %s %g s (concurrency %s per %ld test GPUs)%s\n", indent,
			  sweep_num_text(e->gpus, 4, g, sizeof(g)), s->target_users, what, target,
			  sweep_num_text(e->conc, 2, c, sizeof(c)), s->test_gpus, st);
	else
		sb_printf(b, "%s→ no GPU estimate for p95 %s %g s: %s%s\n", indent, what, target,
			  e->err ? e->err : "n/a", st);
	return true;
}

/* Where no estimate_line printed: what GPU estimates need, target_opts the targets that apply. */
static void sizing_note(struct sbuf *b, const char *indent, const struct sweep_set *s, const char *target_opts)
{
	char need[128];
	sweep_sizing_needs(s, target_opts, 0, need, sizeof(need));
	sb_printf(b, "%s(GPU estimates need %s)\n", indent, need);
}

/* A series table's columns: the stimulus (its name heads it), the metrics (statistic,
 * decimals), rank, pass; each at least min_w wide. */
enum { SCOL_X, SCOL_RANK = 8, SCOL_PASS, SCOL_N, SCELL = 48 };
static const struct {
	const char *head;
	int min_w;
	enum sweep_metric m;
	enum sweep_stat st;
	int dec;
} scol[SCOL_N] = {
	{ "", 12, SM_N, SS_AVG, 0 },
	{ "ttft p99", 11, SM_TTFT, SS_P99, 2 },
	{ "latency p50", 11, SM_LATENCY, SS_P50, 2 },
	{ "latency p99", 11, SM_LATENCY, SS_P99, 2 },
	{ "itl p90", 11, SM_ITL, SS_P90, 2 },
	{ "osl p99", 8, SM_OSL, SS_P99, 1 },
	{ "req/s", 10, SM_RPS, SS_AVG, 3 },
	{ "tok/s", 10, SM_TPS, SS_AVG, 1 },
	{ "rank", 5, SM_N, SS_AVG, 0 },
	{ "pass", 5, SM_N, SS_AVG, 0 },
};

/* Row i of a series table (config c); returns whether a percentile in it has no request count. */
static bool series_row(const struct sweep_set *s, const struct sweep_series *se, size_t i, char row[SCOL_N][SCELL],
		       struct conf_marks *cm)
{
	const struct sweep_cfg *c = &s->cfg[se->cfg[i]];
	if (se->stim >= 0 && c->has_stim[se->stim])
		snprintf(row[SCOL_X], SCELL, "%g", c->stim[se->stim]);
	else
		snprintf(row[SCOL_X], SCELL, "#%zu", i + 1);
	cm->unjudged = false;
	for (int k = SCOL_X + 1; k < SCOL_RANK; k++)
		num(row[k], SCELL, c, scol[k].m, scol[k].st, scol[k].dec, cm);
	snprintf(row[SCOL_RANK], SCELL, c->rank > 0 ? "%d" : "-", c->rank);
	snprintf(row[SCOL_PASS], SCELL, "%s", !s->ncon ? "-" : c->pass ? "yes" : "NO");
	return cm->unjudged;
}

static void series_line(struct sbuf *b, const int *w, const char *const *cell)
{
	sb_printf(b, "   ");
	for (int k = 0; k < SCOL_N; k++)
		sb_printf(b, " %*s", w[k], cell[k]);
	sb_printf(b, "\n");
}

/* The table of a series, each column as wide as its widest figure (never cut); returns the
 * levels whose percentiles have no request count to judge. */
static size_t series_table(struct sbuf *b, const struct sweep_set *s, const struct sweep_series *se,
			   struct conf_marks *cm)
{
	char (*rows)[SCOL_N][SCELL] = xcalloc(se->n ? se->n : 1, sizeof(*rows));
	const char *head[SCOL_N], *cell[SCOL_N];
	int w[SCOL_N];
	size_t unjudged = 0;
	for (int k = 0; k < SCOL_N; k++) {
		head[k] = k == SCOL_X ? (se->stim >= 0 ? sweep_stim_name(se->stim) : "config") : scol[k].head;
		w[k] = (int)strlen(head[k]) > scol[k].min_w ? (int)strlen(head[k]) : scol[k].min_w;
	}
	for (size_t i = 0; i < se->n; i++) {
		unjudged += series_row(s, se, i, rows[i], cm);
		for (int k = 0; k < SCOL_N; k++)
			if ((int)strlen(rows[i][k]) > w[k])
				w[k] = (int)strlen(rows[i][k]);
	}
	series_line(b, w, head);
	for (size_t i = 0; i < se->n; i++) {
		for (int k = 0; k < SCOL_N; k++)
			cell[k] = rows[i][k];
		series_line(b, w, cell);
	}
	free(rows);
	return unjudged;
}

static void sweep_series_block(struct sbuf *b, const struct sweep_set *s,
			       const struct sweep_series *se)
{
	char *name = text_sanitize_dup(se->name, 0);
	sb_printf(b, "  %s — %zu config%s, swept %s\n", name, se->n, se->n == 1 ? "" : "s",
		  se->stim >= 0 ? sweep_stim_name(se->stim) : "nothing");
	free(name);
	struct conf_marks cm = { false, false };
	size_t unjudged = series_table(b, s, se, &cm);
	if (cm.low)
		lowconf_note(b, s, se);
	conf_unjudged_note(b, unjudged, se->n);
	if (se->knee >= 0) {
		/* the headline's words: "at or before", and the levels not weighed before the knee */
		bool before = sweep_knee_or_before(s, se, NULL);
		char unweighed[256];
		sweep_knee_unweighed(s, se, before ? (size_t)se->knee : 0, unweighed, sizeof(unweighed));
		sb_printf(b, "    throughput saturates at %s%s %g (knee)%s%s\n", before ? "or before " : "",
			  sweep_stim_name(se->stim), s->cfg[se->cfg[se->knee]].stim[se->stim], *unweighed ? "; " : "",
			  unweighed);
	} else if (se->knee_open) { /* the headline's "not judged": a knee may hide in a step not compared */
		char why[256];
		sweep_knee_unweighed(s, se, se->n, why, sizeof(why));
		sb_printf(b, "    throughput knee not judged: %s\n", why);
	}
	if (se->has_fit) {
		fit_line(b, "  p95 request latency (s) vs concurrency", &se->fit, se->n);
		size_t few = 0, unknown = 0;
		for (size_t i = 0; i < se->n; i++) {
			const struct sweep_cfg *c = &s->cfg[se->cfg[i]];
			double v;
			if (!sweep_value(c, SM_LATENCY, SS_P95, &v))
				continue; /* no p95 (none without a successful request): nothing rests on few */
			few += sweep_low_confidence(c, SS_P95);
			unknown += sweep_confidence_unjudged(c, SS_P95);
		}
		if (few)
			sb_printf(b, "      the p95 rests on fewer than %d requests beyond it at %zu of %zu "
				  "levels: low confidence\n", SWEEP_LOWCONF_TAIL, few, se->n);
		if (unknown)
			sb_printf(b, "      the p95's confidence not judged at %zu of %zu levels (no request count)\n",
				  unknown, se->n);
		bool said = estimate_line(b, "    ", s, "latency", "--target-latency", s->target_latency, &se->est,
					  false, 0);
		if (!said && (s->target_users > 0 || s->test_gpus > 0))
			sizing_note(b, "    ", s, "--target-latency");
	}
}

static void ranking_lines(struct sbuf *b, const struct sweep_set *s)
{
	if (s->nobj) {
		sb_printf(b, "  objective:");
		for (size_t i = 0; i < s->nobj; i++)
			sb_printf(b, "%s %s", i ? "," : "", s->obj[i].text);
		const struct sweep_cfg *best = sweep_best(s, NULL);
		if (s->wl_mixed) {
			sb_printf(b, " · ranked within each workload (%s differ): no best across them", s->wl_mixed);
		} else if (best) {
			char *n = text_sanitize_dup(best->name, 0);
			sb_printf(b, " · best %s (score %+.1f%%%s)", n, best->score,
				  best->pass ? "" : ", fails constraints");
			free(n);
		}
		sb_printf(b, "\n");
	} else
		sb_printf(b, "  objective: none (rank with --objective, e.g. ttft_p99:1,itl_p90:3)\n");
	if (s->ncon) {
		size_t pass = 0;
		for (size_t i = 0; i < s->ncfg; i++)
			pass += s->cfg[i].pass;
		sb_printf(b, "  constraints:");
		for (size_t i = 0; i < s->ncon; i++)
			sb_printf(b, "%s %s", i ? "," : "", s->con[i].text);
		sb_printf(b, " · %zu of %zu configs pass\n", pass, s->ncfg);
	}
	if (s->con_unjudged)
		sb_printf(b, "  constraints not judged: %s (%s)\n", s->con_unjudged, sweep_con_unjudged_why(s));
}

static void genai_section(struct sbuf *b, const struct sweep_set *s, const struct print_opts *po)
{
	char rest[96];
	snprintf(rest, sizeof(rest), " — %zu config%s in %zu series", s->ncfg, s->ncfg == 1 ? "" : "s",
		 s->nseries);
	heading(b, po, SGR_CYAN, "INFERENCE SWEEP", rest);
	for (size_t i = 0; i < s->nseries; i++)
		sweep_series_block(b, s, &s->series[i]);
	ranking_lines(b, s);
	if (s->ngpu)
		sb_printf(b, "  GPU telemetry: %zu row%s (see --export gpu_telemetry)\n", s->ngpu, s->ngpu == 1 ? "" : "s");
}

/* A rough GPU estimate column of the NAT table shows the file's stored estimates when they cannot
 * be recomputed (a target missing) and some point stores one, as the headline shows the stored
 * final estimate; *need then says what recomputing them takes. */
static bool rough_stored(const struct sweep_set *s, const struct nat_calc *n, bool rt, char *need, size_t needn)
{
	sweep_sizing_needs(s, rt ? "--target-runtime" : "--target-latency", rt ? s->target_runtime : s->target_latency,
			   need, needn);
	for (size_t i = 0; *need && i < n->npt; i++)
		if (rt ? n->pt[i].has_s_gpu_rt : n->pt[i].has_s_gpu_lat)
			return true;
	return false;
}

/* A rough GPU estimate cell: the stored one (stored) or the recomputed one, "-" when missing. */
static void rough_cell(const struct nat_point *p, bool rt, bool stored, char *buf, size_t n)
{
	bool has = stored ? (rt ? p->has_s_gpu_rt : p->has_s_gpu_lat) : (rt ? p->has_c_gpu_rt : p->has_c_gpu_lat);
	double v = stored ? (rt ? p->s_gpu_rt : p->s_gpu_lat) : (rt ? p->c_gpu_rt : p->c_gpu_lat);
	if (has)
		sweep_num_text(v, 4, buf, n);
	else
		snprintf(buf, n, "-");
}

static void nat_points(struct sbuf *b, const struct sweep_set *s, const struct nat_calc *n)
{
	char need_lat[96], need_rt[96];
	bool s_lat = rough_stored(s, n, false, need_lat, sizeof(need_lat));
	bool s_rt = rough_stored(s, n, true, need_rt, sizeof(need_rt));
	sb_printf(b, "    %6s %6s %12s %12s %12s %14s %14s\n", "alerts", "conc", "p95 LLM lat",
		  "p95 WF run", "total run", "GPUs lat rough", "GPUs run rough");
	for (size_t i = 0; i < n->npt; i++) {
		const struct nat_point *p = &n->pt[i];
		char al[8] = "", l[32] = "-", r[32] = "-", t[32] = "-", gl[32], gr[32];
		nat_point_alerts(p, false, al);
		if (p->has_lat)
			sweep_num_text(p->lat_p95, 4, l, sizeof(l));
		if (p->has_rt)
			sweep_num_text(p->rt_p95, 4, r, sizeof(r));
		if (p->has_total)
			sweep_num_text(p->total_rt, 4, t, sizeof(t));
		rough_cell(p, false, s_lat, gl, sizeof(gl));
		rough_cell(p, true, s_rt, gr, sizeof(gr));
		sb_printf(b, "    %6s %6g %12s %12s %12s %14s %14s\n", al, p->conc, l, r, t, gl, gr);
	}
	if (s_lat)
		sb_printf(b, "    GPUs lat rough: stored by the calculator (recomputing them needs %s)\n", need_lat);
	if (s_rt)
		sb_printf(b, "    GPUs run rough: stored by the calculator (recomputing them needs %s)\n", need_rt);
}

/* The jobs of a merge, newest first, with the concurrencies each contributed. */
static void merge_jobs(struct sbuf *b, const struct sweep_set *s, const struct nat_calc *m)
{
	sb_printf(b, "  merged as the calculator's offline mode does (newest file first, the first "
		  "sizing_metrics per concurrency wins):\n");
	for (size_t k = 0; k < m->njobs; k++) {
		size_t j = m->jobs[k];
		const struct nat_calc *job = &s->nat[j];
		char *path = text_sanitize_dup(job->path, 0);
		sb_printf(b, "    %s:", path);
		free(path);
		size_t used = 0;
		for (size_t i = 0; i < m->npt; i++)
			if (m->pt[i].job == (long)j)
				sb_printf(b, "%s%g", used++ ? "," : " c ", m->pt[i].conc);
		sb_printf(b, "%s\n", used ? "" : " (every concurrency also in a newer file)");
	}
}

/* The concurrencies both fits leave out (formats.md §4.3 step 1), the first 8 with why: "8 — p95
 * workflow runtime 0 (not measured); 32 — unusable p95 workflow runtime". */
static void nat_left_out(struct sbuf *b, const struct nat_calc *n)
{
	size_t k = 0;
	for (size_t i = 0; i < n->npt; i++) {
		const struct nat_point *p = &n->pt[i];
		if (p->valid || k++ >= 8)
			continue;
		const char *why = p->interrupted ? "interrupted" : nat_p95_why(p, true, false);
		sb_printf(b, "%s%g — %s", k > 1 ? "; " : "  left out of both fits: ", p->conc,
			  why ? why : nat_p95_why(p, false, false));
	}
	if (k > 8)
		sb_printf(b, "; and %zu more", k - 8);
	if (k)
		sb_printf(b, "\n");
}

static void nat_section(struct sbuf *b, const struct sweep_set *s, const struct nat_calc *n,
			const struct print_opts *po)
{
	char *path = text_sanitize_dup(n->path, 0);
	char rest[160], jobs[48] = "";
	if (n->merged)
		snprintf(jobs, sizeof(jobs), " merged from %zu jobs", n->njobs);
	snprintf(rest, sizeof(rest), " — NAT calculator, %zu concurrenc%s%s%s", n->npt, n->npt == 1 ? "y" : "ies",
		 jobs,
		 n->alias_layout ? " (per_concurrency_data layout)" : "");
	heading(b, po, SGR_CYAN, "GPU SIZING", rest);
	sb_printf(b, "  %s\n", path);
	free(path);
	if (n->merged)
		merge_jobs(b, s, n);
	fit_line(b, "p95 LLM latency fit", &n->c_fit_lat, n->npt);
	fit_line(b, "p95 workflow runtime fit", &n->c_fit_rt, n->npt);
	nat_left_out(b, n);
	bool lat = estimate_line(b, "  ", s, "LLM latency", "--target-latency", s->target_latency, &n->c_est_lat,
				 n->has_s_gpu_lat, n->s_gpu_lat);
	bool rt = estimate_line(b, "  ", s, "workflow runtime", "--target-runtime", s->target_runtime, &n->c_est_rt,
				n->has_s_gpu_rt, n->s_gpu_rt);
	if (!lat && !rt)
		sizing_note(b, "  ", s, "--target-latency or --target-runtime");
	nat_points(b, s, n);
}

/* The stored aggregate: samples/s, samples and time, each n/a when missing, then the
 * other keys the file has; or that it stores none. */
static void cb_stored(struct sbuf *b, const struct cb_perf *p)
{
	if (!cb_has_aggregate(p) && !p->has_compile && !p->has_prog && !p->has_global && !p->has_rate &&
	    !p->has_flops) {
		sb_printf(b, "  stored: none (the file has no aggregate)\n");
		return;
	}
	char rate[32] = "n/a", samples[32] = "n/a", time[32] = "n/a", v[32];
	if (p->has_sps)
		sweep_num_text(p->samples_per_sec, 2, rate, sizeof(rate));
	if (p->has_samples)
		snprintf(samples, sizeof(samples), "%lld", p->total_samples);
	if (p->has_time)
		sweep_num_text(p->total_time, 3, time, sizeof(time));
	sb_printf(b, "  stored: %s samples/s · %s samples · %s s", rate, samples, time);
	if (p->has_compile)
		sb_printf(b, " · compile %s s", sweep_num_text(p->compile_time, 3, v, sizeof(v)));
	if (p->has_prog)
		sb_printf(b, " · programming %s s", sweep_num_text(p->programming_time, 3, v, sizeof(v)));
	if (p->has_global)
		sb_printf(b, " · global rate %s", sweep_num_text(p->global_rate, 2, v, sizeof(v)));
	if (p->has_rate)
		sb_printf(b, " · rate %s", sweep_num_text(p->rate, 2, v, sizeof(v)));
	if (p->has_flops)
		sb_printf(b, " · FLOPs utilization %s%%", sweep_num_text(p->flops_util, 2, v, sizeof(v)));
	sb_printf(b, "\n");
}

static void cb_section(struct sbuf *b, const struct cb_perf *p, const struct print_opts *po)
{
	char *path = text_sanitize_dup(p->path, 0);
	heading(b, po, p->mismatch ? SGR_YELLOW : SGR_CYAN, "CEREBRAS",
		p->trainer_shape ? " — performance.json (trainer)" : " — performance.json");
	sb_printf(b, "  %s\n", path);
	free(path);
	cb_stored(b, p);
	for (size_t i = 0; i < p->nord; i++) {
		const struct cb_ordinal *o = &p->ord[i];
		char rate[32] = "-", samples[32] = "-", time[32] = "-";
		if (o->has_rate)
			sweep_num_text(o->samples_per_sec, 2, rate, sizeof(rate));
		if (o->has_samples)
			snprintf(samples, sizeof(samples), "%lld", o->total_samples);
		if (o->has_time)
			sweep_num_text(o->total_time, 3, time, sizeof(time));
		sb_printf(b, "    ordinal %zu: %s samples/s · %s samples · %s s", i, rate, samples, time);
		if (o->slow) {
			char pct[40];
			sweep_cb_rel_text(o->rel_rate, pct, sizeof(pct));
			sb_printf(b, "  <- slow: %s%% of the other ordinals' median rate", pct);
		}
		sb_printf(b, "\n");
	}
	if (p->has_c) {
		char rate[32], time[32];
		sb_printf(b, "  recomputed (merge rule): %s samples/s · %.0f samples · %s s%s\n",
			  sweep_num_text(p->c_sps, 2, rate, sizeof(rate)), p->c_samples,
			  sweep_num_text(p->c_time, 3, time, sizeof(time)),
			  p->mismatch ? "  <- stored aggregate disagrees"
				      : cb_has_aggregate(p) ? "" : "  (no stored aggregate to check)");
	} else if (p->nord) {
		sb_printf(b, "  recomputed (merge rule): n/a, not applied: %s\n", p->c_why);
	}
}

char *print_section_sweep(struct run *run, const struct print_opts *po)
{
	struct sweep_set *s = run->sweep;
	if (!s)
		return NULL;
	sweep_derive(run);
	struct sbuf b = { 0 };
	if (s->ncfg)
		genai_section(&b, s, po);
	for (size_t i = 0; i < s->nnat; i++) {
		if (s->nat[i].merge_into >= 0)
			continue; /* shown inside its merge (and in the sizing views) */
		if (b.n)
			sb_printf(&b, "\n");
		nat_section(&b, s, &s->nat[i], po);
	}
	for (size_t i = 0; i < s->ncb; i++) {
		if (b.n)
			sb_printf(&b, "\n");
		cb_section(&b, &s->cb[i], po);
	}
	return b.n ? sb_take(&b) : NULL;
}
