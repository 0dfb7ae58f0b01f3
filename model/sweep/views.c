/* SPDX-License-Identifier: MIT */
/* views.c: the sweep family's views (sweep, sizing, sizing_points, gpu_telemetry,
 * cerebras), read from the model after sweep_derive(), and whether the run has the data
 * of each (sweep_view_has_data: the test its build makes, for the explorer's list). A
 * time column's name ends in its unit (latency_p50_ms, total_time_s: sweep_metric_suffix;
 * sizing's fits are in seconds, GenAI-Perf's too: intercept_s, slope_s_per_concurrency).
 * sizing's and sizing_points' differs says "no" only when everything stored was compared,
 * "n/a" when a stored value could not be (its targets not given: differs_text); sweep's
 * recomputed names the metrics whose recomputed values differ from the export's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/registry.h"
#include "model/run.h"
#include "model/sweep/fit.h"
#include "model/sweep/internal.h"
#include "model/xalloc.h"

/* ---------------------------------------------------------------------------------
 * sweep */

static struct table *no_data(char *err, size_t errn, const char *why)
{
	snprintf(err, errn, "%s", why);
	return NULL;
}

static const enum sweep_stat sweep_pcts[] = { SS_P50, SS_P90, SS_P99 };

static bool any_cfg_has(const struct sweep_set *s, enum sweep_metric m, enum sweep_stat st)
{
	double v;
	for (size_t i = 0; i < s->ncfg; i++)
		if (sweep_value(&s->cfg[i], m, st, &v))
			return true;
	return false;
}

static bool any_stim(const struct sweep_set *s, int k)
{
	for (size_t i = 0; i < s->ncfg; i++)
		if (s->cfg[i].has_stim[k])
			return true;
	return false;
}

struct sweep_cols {
	int series, config, source, stim_name, stim_value, stim[ST_N];
	int met[SM_N][SS_N];
	int recomputed, score, rank, pass, failed, tail95, tail99, lowconf, streaming;
};

/* Config c has percentile st of some per-request metric (a latency, a length). */
static bool has_percentile(const struct sweep_cfg *c, enum sweep_stat st)
{
	double v;
	for (int m = 0; m < SM_N; m++)
		if (!sweep_metric_info(m)->system && sweep_value(c, m, st, &v))
			return true;
	return false;
}

/* The percentiles of this view that c has and that rest on fewer than SWEEP_LOWCONF_TAIL
 * requests: "p95 p99", "none", or "n/a" when the request count is unknown or 0 (no
 * successful request: no percentile). */
static void lowconf_text(const struct sweep_cfg *c, char *buf, size_t n)
{
	static const enum sweep_stat shown[] = { SS_P50, SS_P90, SS_P95, SS_P99 };
	size_t k = 0;
	double tail;
	snprintf(buf, n, "%s", sweep_tail(c, SS_P50, &tail) ? "none" : "n/a");
	for (size_t i = 0; i < ARRAY_LEN(shown) && k + 8 < n; i++) {
		enum sweep_stat st = shown[i];
		if (sweep_low_confidence(c, st) && has_percentile(c, st))
			k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? " " : "", sweep_stat_name(st));
	}
}

const char *sweep_metric_suffix(enum sweep_metric m)
{
	return units_parse(sweep_metric_info(m)->unit) == UNIT_MS ? "_ms" : "";
}

/* The column of metric m at statistic st: a whole-run metric by its name
 * ("request_throughput"), else its alias, statistic and unit ("ttft_p99_ms", "osl_avg"). */
static int add_metric_col(struct table *t, enum sweep_metric m, enum sweep_stat st, int width, int prec)
{
	const struct sweep_metric_info *mi = sweep_metric_info(m);
	char name[64];
	if (mi->system)
		snprintf(name, sizeof(name), "%s", mi->name);
	else
		snprintf(name, sizeof(name), "%s_%s%s", mi->alias, sweep_stat_name(st), sweep_metric_suffix(m));
	return table_add_col(t, name, m == SM_COUNT ? COL_INT : COL_NUM, width, prec);
}

static void add_metric_cols(struct table *t, const struct sweep_set *s, struct sweep_cols *c)
{
	static const enum sweep_metric lat[] = { SM_TTFT, SM_TTST, SM_ITL, SM_LATENCY, SM_TPS_USER,
						 SM_OSL };
	static const enum sweep_metric sys[] = { SM_RPS, SM_TPS, SM_GOODPUT, SM_COUNT };
	for (size_t i = 0; i < ARRAY_LEN(lat); i++) {
		enum sweep_metric m = lat[i];
		for (size_t k = 0; k < ARRAY_LEN(sweep_pcts); k++) {
			enum sweep_stat st = sweep_pcts[k];
			if (!any_cfg_has(s, m, st))
				continue;
			c->met[m][st] = add_metric_col(t, m, st, 10, 2);
			if (m == SM_LATENCY && st == SS_P90 && any_cfg_has(s, m, SS_P95))
				c->met[m][SS_P95] = add_metric_col(t, m, SS_P95, 10, 2);
		}
	}
	if (any_cfg_has(s, SM_LATENCY, SS_AVG))
		c->met[SM_LATENCY][SS_AVG] = add_metric_col(t, SM_LATENCY, SS_AVG, 10, 2);
	if (any_cfg_has(s, SM_OSL, SS_AVG))
		c->met[SM_OSL][SS_AVG] = add_metric_col(t, SM_OSL, SS_AVG, 8, 1);
	if (any_cfg_has(s, SM_ISL, SS_AVG))
		c->met[SM_ISL][SS_AVG] = add_metric_col(t, SM_ISL, SS_AVG, 8, 1);
	for (size_t i = 0; i < ARRAY_LEN(sys); i++)
		if (any_cfg_has(s, sys[i], SS_AVG))
			c->met[sys[i]][SS_AVG] = add_metric_col(t, sys[i], SS_AVG, 10, 2);
}

/* The recomputed cell: "no" without a raw export, "yes" when every value compared agrees,
 * "yes, differs: request_latency, request_throughput" naming the metrics whose recomputed
 * values disagree with the stored ones (the recomputed ones are shown: sweep_value). */
static void recomputed_text(const struct sweep_cfg *c, char *buf, size_t n)
{
	size_t k = (size_t)snprintf(buf, n, "%s", c->has_calc ? "yes" : "no");
	const char *sep = ", differs: ";
	for (int m = 0; m < SM_N && k < n; m++)
		if (c->differs[m]) {
			k += (size_t)snprintf(buf + k, n - k, "%s%s", sep, sweep_metric_info(m)->name);
			sep = ", ";
		}
}

static const char *const recomputed_doc =
	"yes: recomputed from the raw profile export, agreeing with the summary export where both have a "
	"value; yes, differs: METRIC: that metric's recomputed values disagree with the export's (warned in "
	"the sources view) and are the ones shown and judged; no: no raw export; ";

static bool has_sweep(const struct sweep_set *s)
{
	return s && s->ncfg > 0;
}

static struct table *build_sweep(struct run *run, char *err, size_t errn)
{
	struct sweep_set *s = sweep_derived(run);
	if (!has_sweep(s))
		return no_data(err, errn, "no GenAI-Perf sweep loaded");
	struct table *t = table_new("sweep", "Inference sweep: configs x metrics");
	struct sweep_cols c;
	memset(&c, -1, sizeof(c));
	c.series = table_add_col(t, "series", COL_TEXT, 24, 0);
	c.config = table_add_col(t, "config", COL_TEXT, 28, 0);
	table_set_role(t, c.config, COL_ROLE_NAME); /* a finding's evidence: its config's rows */
	c.source = table_add_col(t, "source", COL_TEXT, 10, 0);
	c.stim_name = table_add_col(t, "stimulus", COL_TEXT, 12, 0);
	c.stim_value = table_add_col(t, "value", COL_NUM, 8, 2);
	c.rank = table_add_col(t, "ranking", COL_INT, 7, 0);
	c.score = table_add_col(t, "score", COL_NUM, 8, 2);
	c.pass = table_add_col(t, "pass", COL_TEXT, 5, 0);
	c.failed = table_add_col(t, "failed", COL_TEXT, 22, 0);
	for (int k = 0; k < ST_N; k++)
		if (any_stim(s, k))
			c.stim[k] = table_add_col(t, sweep_stim_name(k), k == ST_REQUEST_RATE ? COL_NUM : COL_INT, 8, 2);
	for (size_t i = 0; i < s->ncfg && c.streaming < 0; i++)
		if (s->cfg[i].has_streaming)
			c.streaming = table_add_col(t, "streaming", COL_TEXT, 5, 0);
	add_metric_cols(t, s, &c);
	/* always: without a request count they are empty and low_confidence n/a, never left out */
	c.tail95 = table_add_col(t, "requests_beyond_p95", COL_NUM, 6, 1);
	c.tail99 = table_add_col(t, "requests_beyond_p99", COL_NUM, 6, 1);
	c.lowconf = table_add_col(t, "low_confidence", COL_TEXT, 12, 0);
	c.recomputed = table_add_col(t, "recomputed", COL_TEXT, 10, 0);
	table_col_doc(t, c.recomputed, recomputed_doc);
	/* on a narrow screen: the level, the verdict, then the tail latencies and throughputs */
	table_col_prio(t, c.stim_value, 9);
	table_col_prio(t, c.pass, 8);
	table_col_prio(t, c.failed, 8);
	table_col_prio(t, c.met[SM_LATENCY][SS_P99], 7);
	table_col_prio(t, c.met[SM_RPS][SS_AVG], 6);
	table_col_prio(t, c.met[SM_TTFT][SS_P99], 5);
	table_col_prio(t, c.met[SM_TPS][SS_AVG], 4);
	table_col_prio(t, c.rank, 3);
	table_col_prio(t, c.score, 3);
	for (size_t si = 0; si < s->nseries; si++) {
		const struct sweep_series *se = &s->series[si];
		for (size_t j = 0; j < se->n; j++) {
			const struct sweep_cfg *cf = &s->cfg[se->cfg[j]];
			size_t r = table_add_row(t, (long)se->cfg[j]);
			table_set_text(t, r, c.series, se->name);
			table_set_text(t, r, c.config, cf->name);
			table_set_text(t, r, c.source, cf->source);
			if (se->stim >= 0) {
				table_set_text(t, r, c.stim_name, sweep_stim_name(se->stim));
				table_set_num_opt(t, r, c.stim_value, cf->stim[se->stim], cf->has_stim[se->stim]);
			}
			for (int k = 0; k < ST_N; k++)
				if (c.stim[k] >= 0)
					table_set_num_opt(t, r, c.stim[k], cf->stim[k], cf->has_stim[k]);
			for (int m = 0; m < SM_N; m++)
				for (int st = 0; st < SS_N; st++) {
					double v;
					if (c.met[m][st] >= 0 && sweep_value(cf, m, st, &v))
						table_set_num(t, r, c.met[m][st], v);
				}
			if (c.streaming >= 0 && cf->has_streaming)
				table_set_text(t, r, c.streaming, cf->streaming ? "yes" : "no");
			double tail;
			char low[48], recomp[256];
			if (sweep_tail(cf, SS_P95, &tail))
				table_set_num(t, r, c.tail95, tail);
			if (sweep_tail(cf, SS_P99, &tail))
				table_set_num(t, r, c.tail99, tail);
			lowconf_text(cf, low, sizeof(low));
			table_set_text(t, r, c.lowconf, low);
			recomputed_text(cf, recomp, sizeof(recomp));
			table_set_text(t, r, c.recomputed, recomp);
			table_set_num_opt(t, r, c.score, cf->score, cf->has_score);
			table_set_num_opt(t, r, c.rank, cf->rank, cf->rank > 0);
			if (s->ncon) /* no constraint given: nothing judged, no pass */
				table_set_text(t, r, c.pass, cf->pass ? "yes" : "no");
			if (cf->failed)
				table_set_text(t, r, c.failed, cf->failed);
		}
	}
	return t;
}

/* ---------------------------------------------------------------------------------
 * sizing: one row per fit (NAT latency / runtime, GenAI-Perf concurrency series),
 * stored next to recomputed. */

struct sizing_cols {
	int source, file, jobs, metric, points, s_slope, slope, s_icpt, icpt, s_r2, r2, s_out, out,
	    poor, target, target_conc, s_gpus, gpus, note, differs;
};

static bool sizing_targets(const struct sweep_set *s)
{
	return s->target_users > 0 && s->test_gpus > 0;
}

/* A differs cell (sizing, sizing_points): "yes" when a value compared differs; "n/a" when
 * none does but a stored value could not be compared (an estimate or item count whose
 * targets were not given, a count without per-item data); "no" when everything stored was
 * compared and agrees; NULL (empty) when nothing stored can be compared. */
static const char *differs_text(bool compared, bool differs, bool uncompared)
{
	return differs ? "yes" : uncompared ? "n/a" : compared ? "no" : NULL;
}

static const char *const differs_doc =
	"yes: a stored value differs from the recomputed one; no: every stored value was compared and "
	"agrees; n/a: none compared differs, but a stored value could not be recomputed (GPU estimates "
	"and items over a target need --target-users, --test-gpus and that target; item counts need "
	"per_item_metrics); empty: the file stores nothing to compare; ";

struct sizing_src {
	const char *source, *file;
	size_t jobs;             /* NAT files behind the fit: 1, or a merge's job count */
	size_t points;           /* valid points, the outliers the fit removed included */
	bool nat;
};

/* The points of n both fits take (valid), fitted or not: 1 for a file with one. */
static size_t nat_valid_points(const struct nat_calc *n)
{
	size_t k = 0;
	for (size_t i = 0; i < n->npt; i++)
		k += n->pt[i].valid;
	return k;
}

static void sizing_row(struct table *t, const struct sizing_cols *c, long ref,
		       const struct sizing_src *src, const char *metric, const struct sweep_fit *sf,
		       bool has_sf, const struct sweep_fit *cf, double target,
		       const struct sweep_estimate *e, double s_gpus, bool has_s_gpus,
		       const struct sweep_set *s)
{
	size_t r = table_add_row(t, ref);
	char buf[256];
	table_set_text(t, r, c->source, src->source);
	table_set_text(t, r, c->file, src->file);
	table_set_num_opt(t, r, c->jobs, (double)src->jobs, src->nat);
	table_set_text(t, r, c->metric, metric);
	table_set_num(t, r, c->points, (double)src->points);
	if (has_sf) {
		table_set_num(t, r, c->s_slope, sf->slope);
		table_set_num(t, r, c->s_icpt, sf->intercept);
		table_set_num(t, r, c->s_r2, sf->r2);
		fit_outliers_text(sf, buf, sizeof(buf));
		table_set_text(t, r, c->s_out, buf);
	}
	if (cf->ok) {
		table_set_num(t, r, c->slope, cf->slope);
		table_set_num(t, r, c->icpt, cf->intercept);
		table_set_num(t, r, c->r2, cf->r2);
		fit_outliers_text(cf, buf, sizeof(buf));
		table_set_text(t, r, c->out, buf);
		if (cf->nused > 2) /* a line fits any two points: nothing to judge; a flat one every point */
			table_set_text(t, r, c->poor, cf->poor && !cf->flat ? "yes" : "no");
	}
	table_set_num_opt(t, r, c->target, target, target > 0);
	table_set_num_opt(t, r, c->target_conc, e->conc, e->ok);
	table_set_num_opt(t, r, c->s_gpus, s_gpus, has_s_gpus);
	table_set_num_opt(t, r, c->gpus, e->gpus, e->ok);
	char need[96];
	sweep_sizing_needs(s, strstr(metric, "runtime") ? "--target-runtime" : "--target-latency", target, need,
			   sizeof(need));
	if (!e->ok && cf->ok && !cf->poor && *need) { /* fit_gpu_estimate's "needs ...": the options not given */
		snprintf(buf, sizeof(buf), "needs %s", need);
		table_set_text(t, r, c->note, buf);
	} else if (!e->ok && e->err)
		table_set_text(t, r, c->note, e->err);
	else if (!cf->ok && cf->err)
		table_set_text(t, r, c->note, cf->err);
	/* a stored estimate is compared only when its targets are given (differs_text) */
	bool gpus_cmp = has_s_gpus && sizing_targets(s) && target > 0;
	bool differs = fit_differs(sf, has_sf, cf) ||
		       (gpus_cmp && (!e->ok || fabs(s_gpus - e->gpus) > 1e-9 * fmax(1, fabs(e->gpus))));
	const char *d = differs_text(has_sf || gpus_cmp, differs, has_s_gpus && !gpus_cmp);
	if (src->nat && d)
		table_set_text(t, r, c->differs, d);
}

static bool has_sizing(const struct sweep_set *s)
{
	size_t nfit = 0;
	for (size_t i = 0; s && i < s->nseries; i++)
		nfit += s->series[i].has_fit;
	return s && (s->nnat > 0 || nfit > 0);
}

static struct table *build_sizing(struct run *run, char *err, size_t errn)
{
	struct sweep_set *s = sweep_derived(run);
	if (!has_sizing(s))
		return no_data(err, errn, "no NAT sizing output or GenAI-Perf concurrency sweep with "
				      "p95 latency at 2+ concurrencies");
	struct table *t = table_new("sizing", "GPU sizing: linear fits and estimates");
	struct sizing_cols c;
	c.source = table_add_col(t, "source", COL_TEXT, 10, 0);
	c.file = table_add_col(t, "file", COL_TEXT, 30, 0);
	table_set_role(t, c.file, COL_ROLE_NAME); /* a finding's evidence: its file's (series') rows */
	c.jobs = table_add_col(t, "jobs", COL_INT, 4, 0);
	c.metric = table_add_col(t, "metric", COL_TEXT, 18, 0);
	c.points = table_add_col(t, "points", COL_INT, 6, 0);
	/* every fit is of a p95 time in seconds (GenAI-Perf's ms are fitted in s): the slope in
	 * seconds per unit of concurrency, the intercept and the target in seconds */
	c.s_slope = table_add_col(t, "stored_slope_s_per_concurrency", COL_NUM, 10, 4);
	c.slope = table_add_col(t, "slope_s_per_concurrency", COL_NUM, 10, 4);
	c.s_icpt = table_add_col(t, "stored_intercept_s", COL_NUM, 10, 4);
	c.icpt = table_add_col(t, "intercept_s", COL_NUM, 10, 4);
	c.s_r2 = table_add_col(t, "stored_r2", COL_NUM, 8, 4);
	c.r2 = table_add_col(t, "r2", COL_NUM, 8, 4);
	c.s_out = table_add_col(t, "stored_outliers", COL_TEXT, 10, 0);
	c.out = table_add_col(t, "outliers", COL_TEXT, 10, 0);
	c.poor = table_add_col(t, "poor_fit", COL_TEXT, 8, 0);
	table_col_doc(t, c.poor, "yes when the recomputed R² is below 0.7 (the calculator stores no fit); no for a "
		      "flat fit, every point equal (exact: R² 0 by convention, the calculator still stores none); "
		      "empty with no fit or a fit of 2 points (a line fits any two, so its R² says nothing); ");
	c.target = table_add_col(t, "target_s", COL_NUM, 8, 3);
	c.target_conc = table_add_col(t, "target_concurrency", COL_NUM, 10, 2);
	c.s_gpus = table_add_col(t, "stored_gpus", COL_NUM, 10, 4);
	c.gpus = table_add_col(t, "gpus", COL_NUM, 10, 4);
	c.differs = table_add_col(t, "differs", COL_TEXT, 7, 0);
	table_col_doc(t, c.differs, differs_doc);
	c.note = table_add_col(t, "note", COL_TEXT, 30, 0);
	/* on a narrow screen: the estimate and how good its fit is */
	table_col_prio(t, c.metric, 9);
	table_col_prio(t, c.gpus, 8);
	table_col_prio(t, c.differs, 7);
	table_col_prio(t, c.r2, 6);
	table_col_prio(t, c.out, 5);
	table_col_prio(t, c.slope, 4);
	table_col_prio(t, c.poor, 4);
	for (size_t i = 0; i < s->nnat; i++) {
		const struct nat_calc *n = &s->nat[i];
		struct sizing_src src = { n->merged ? "nat merged" : "nat", n->path,
					  n->merged ? n->njobs : 1, nat_valid_points(n), true };
		sizing_row(t, &c, sweep_sizing_ref(i, false), &src, "llm_latency_p95", &n->s_fit_lat, n->has_s_fit_lat,
			   &n->c_fit_lat, s->target_latency, &n->c_est_lat, n->s_gpu_lat,
			   n->has_s_gpu_lat, s);
		sizing_row(t, &c, sweep_sizing_ref(i, true), &src, "workflow_runtime_p95", &n->s_fit_rt, n->has_s_fit_rt,
			   &n->c_fit_rt, s->target_runtime, &n->c_est_rt, n->s_gpu_rt,
			   n->has_s_gpu_rt, s);
	}
	for (size_t i = 0; i < s->nseries; i++) {
		const struct sweep_series *se = &s->series[i];
		if (!se->has_fit)
			continue;
		struct sweep_fit none = { 0 };
		struct sizing_src src = { "genai-perf", se->name, 0, se->fit.nused + se->fit.nout, false };
		sizing_row(t, &c, -1 - (long)i, &src, "request_latency_p95", &none, false, &se->fit,
			   s->target_latency, &se->est, 0, false, s);
	}
	return t;
}

/* ---------------------------------------------------------------------------------
 * sizing_points: NAT per-concurrency data, stored next to recomputed. */

struct points_cols {
	int file, mode, conc, lat, rt, tot, s_alerts, alerts, valid, s_gl, gl, s_gr, gr, s_il, il,
	    s_ir, ir, items, differs;
};

static bool opt_differs(bool ha, double a, bool hb, double b)
{
	return ha != hb || (ha && fabs(a - b) > 1e-9 * fmax(1, fabs(b)));
}

/* Stored and recomputed per-concurrency values: outlier flags (when the file stores
 * alerts), the rough GPU estimates (a stored one, with its targets given) and the
 * items-over-target counts (with that target and per_item_metrics): differs_text. */
static const char *point_differs(const struct nat_point *p, const struct sweep_set *s)
{
	bool targets = sizing_targets(s);
	bool gl = targets && s->target_latency > 0 && p->has_s_gpu_lat;
	bool gr = targets && s->target_runtime > 0 && p->has_s_gpu_rt;
	bool il = p->c_items_lat >= 0 && p->s_items_lat >= 0;
	bool ir = p->c_items_rt >= 0 && p->s_items_rt >= 0;
	bool uncompared = (p->has_s_gpu_lat && !gl) || (p->has_s_gpu_rt && !gr) || (p->s_items_lat >= 0 && !il) ||
			  (p->s_items_rt >= 0 && !ir);
	bool differs = (p->has_s_alerts && (p->s_out_lat != p->c_out_lat || p->s_out_rt != p->c_out_rt)) ||
		       (gl && opt_differs(true, p->s_gpu_lat, p->has_c_gpu_lat, p->c_gpu_lat)) ||
		       (gr && opt_differs(true, p->s_gpu_rt, p->has_c_gpu_rt, p->c_gpu_rt)) ||
		       (il && p->c_items_lat != p->s_items_lat) || (ir && p->c_items_rt != p->s_items_rt);
	return differs_text(p->has_s_alerts || gl || gr || il || ir, differs, uncompared);
}

static void points_row(struct table *t, const struct points_cols *c, long ref,
		       const struct nat_calc *n, const struct nat_point *p, const struct sweep_set *s)
{
	size_t r = table_add_row(t, ref);
	char al[8];
	table_set_text(t, r, c->file, n->merged && p->job >= 0 ? s->nat[p->job].path : n->path);
	table_set_text(t, r, c->mode, n->mode);
	table_set_num(t, r, c->conc, p->conc);
	table_set_num_opt(t, r, c->lat, p->lat_p95, p->has_lat);
	table_set_num_opt(t, r, c->rt, p->rt_p95, p->has_rt);
	table_set_num_opt(t, r, c->tot, p->total_rt, p->has_total);
	nat_point_alerts(p, true, al);
	table_set_text(t, r, c->s_alerts, al);
	nat_point_alerts(p, false, al);
	table_set_text(t, r, c->alerts, al);
	table_set_text(t, r, c->valid, p->valid ? "yes" : "no");
	table_set_num_opt(t, r, c->s_gl, p->s_gpu_lat, p->has_s_gpu_lat);
	table_set_num_opt(t, r, c->gl, p->c_gpu_lat, p->has_c_gpu_lat);
	table_set_num_opt(t, r, c->s_gr, p->s_gpu_rt, p->has_s_gpu_rt);
	table_set_num_opt(t, r, c->gr, p->c_gpu_rt, p->has_c_gpu_rt);
	table_set_num_opt(t, r, c->s_il, (double)p->s_items_lat, p->s_items_lat >= 0);
	table_set_num_opt(t, r, c->il, (double)p->c_items_lat, p->c_items_lat >= 0);
	table_set_num_opt(t, r, c->s_ir, (double)p->s_items_rt, p->s_items_rt >= 0);
	table_set_num_opt(t, r, c->ir, (double)p->c_items_rt, p->c_items_rt >= 0);
	table_set_num_opt(t, r, c->items, (double)p->nitems, p->has_items);
	const char *d = point_differs(p, s);
	if (d)
		table_set_text(t, r, c->differs, d);
}

static bool has_points(const struct sweep_set *s)
{
	return s && s->nnat > 0;
}

static struct table *build_sizing_points(struct run *run, char *err, size_t errn)
{
	struct sweep_set *s = sweep_derived(run);
	if (!has_points(s))
		return no_data(err, errn, "no NAT sizing output loaded");
	struct table *t = table_new("sizing_points", "NAT sizing: per-concurrency data");
	struct points_cols c;
	c.file = table_add_col(t, "file", COL_TEXT, 30, 0);
	c.mode = table_add_col(t, "mode", COL_TEXT, 7, 0);
	c.conc = table_add_col(t, "concurrency", COL_INT, 6, 0);
	c.lat = table_add_col(t, "llm_latency_p95_s", COL_NUM, 10, 4);   /* NAT writes seconds */
	c.rt = table_add_col(t, "workflow_runtime_p95_s", COL_NUM, 10, 4);
	c.tot = table_add_col(t, "total_runtime_s", COL_NUM, 10, 4);
	c.s_alerts = table_add_col(t, "stored_alerts", COL_TEXT, 6, 0);
	c.alerts = table_add_col(t, "alerts", COL_TEXT, 6, 0);
	c.valid = table_add_col(t, "valid", COL_TEXT, 5, 0);
	c.s_gl = table_add_col(t, "stored_gpus_latency", COL_NUM, 10, 4);
	c.gl = table_add_col(t, "gpus_latency", COL_NUM, 10, 4);
	c.s_gr = table_add_col(t, "stored_gpus_runtime", COL_NUM, 10, 4);
	c.gr = table_add_col(t, "gpus_runtime", COL_NUM, 10, 4);
	c.s_il = table_add_col(t, "stored_items_over_latency", COL_INT, 6, 0);
	c.il = table_add_col(t, "items_over_latency", COL_INT, 6, 0);
	c.s_ir = table_add_col(t, "stored_items_over_runtime", COL_INT, 6, 0);
	c.ir = table_add_col(t, "items_over_runtime", COL_INT, 6, 0);
	c.items = table_add_col(t, "items", COL_INT, 6, 0);
	c.differs = table_add_col(t, "differs", COL_TEXT, 7, 0);
	table_col_doc(t, c.differs, differs_doc);
	for (size_t i = 0; i < s->nnat; i++)
		for (size_t j = 0; j < s->nat[i].npt; j++)
			points_row(t, &c, sweep_point_ref(s, i, j), &s->nat[i], &s->nat[i].pt[j], s);
	return t;
}

/* ---------------------------------------------------------------------------------
 * gpu_telemetry and cerebras */

static bool has_gpu(const struct sweep_set *s)
{
	return s && s->ngpu > 0;
}

static struct table *build_gpu(struct run *run, char *err, size_t errn)
{
	struct sweep_set *s = sweep_derived(run);
	if (!has_gpu(s))
		return no_data(err, errn, "no GPU telemetry in the loaded sweep");
	static const enum sweep_stat cols[] = { SS_AVG, SS_MIN, SS_MAX, SS_P50, SS_P90, SS_P99 };
	struct table *t = table_new("gpu_telemetry", "GPU telemetry per config");
	int c_cfg = table_add_col(t, "config", COL_TEXT, 28, 0);
	int c_gpu = table_add_col(t, "gpu", COL_TEXT, 6, 0);
	int c_met = table_add_col(t, "metric", COL_TEXT, 24, 0);
	int c_unit = table_add_col(t, "unit", COL_TEXT, 6, 0);
	int c_st[ARRAY_LEN(cols)];
	for (size_t k = 0; k < ARRAY_LEN(cols); k++)
		c_st[k] = table_add_col(t, sweep_stat_name(cols[k]), COL_NUM, 10, 2);
	for (size_t i = 0; i < s->ngpu; i++) {
		const struct sweep_gpu *g = &s->gpu[i];
		size_t r = table_add_row(t, (long)g->cfg);
		table_set_text(t, r, c_cfg, s->cfg[g->cfg].name);
		table_set_text(t, r, c_gpu, g->gpu);
		table_set_text(t, r, c_met, g->metric);
		table_set_text(t, r, c_unit, g->unit);
		for (size_t k = 0; k < ARRAY_LEN(cols); k++)
			table_set_num_opt(t, r, c_st[k], g->v[cols[k]], g->has[cols[k]]);
	}
	return t;
}

long sweep_sizing_ref(size_t nat, bool runtime)
{
	return 2 * (long)nat + runtime;
}

long sweep_point_ref(const struct sweep_set *s, size_t nat, size_t pt)
{
	long ref = 0;
	for (size_t j = 0; j < nat; j++)
		ref += (long)s->nat[j].npt;
	return ref + (long)pt;
}

long sweep_cb_ordinal_ref(const struct sweep_set *s, size_t i, size_t k)
{
	long ref = (long)s->ncb; /* after every file's own ref */
	for (size_t j = 0; j < i; j++)
		ref += (long)s->cb[j].nord;
	return ref + (long)k;
}

struct cb_cols {
	int file, row, sps, samples, time, compile, prog, est, global, rate, flops, mismatch, rel, slow;
};

static void cb_row(struct table *t, const struct cb_cols *c, long ref, const char *file,
		   const char *row, double sps, bool hs, double samples, bool hn, double time, bool ht)
{
	size_t r = table_add_row(t, ref);
	table_set_text(t, r, c->file, file);
	table_set_text(t, r, c->row, row);
	table_set_num_opt(t, r, c->sps, sps, hs);
	table_set_num_opt(t, r, c->samples, samples, hn);
	table_set_num_opt(t, r, c->time, time, ht);
}

static bool has_cerebras(const struct sweep_set *s)
{
	return s && s->ncb > 0;
}

static struct table *build_cerebras(struct run *run, char *err, size_t errn)
{
	struct sweep_set *s = sweep_derived(run);
	if (!has_cerebras(s))
		return no_data(err, errn, "no Cerebras performance.json loaded");
	struct table *t = table_new("cerebras", "Cerebras performance.json");
	struct cb_cols c;
	c.file = table_add_col(t, "file", COL_TEXT, 30, 0);
	table_set_role(t, c.file, COL_ROLE_NAME); /* a finding's evidence: its file's rows */
	c.row = table_add_col(t, "row", COL_TEXT, 12, 0);
	c.sps = table_add_col(t, "samples_per_sec", COL_NUM, 12, 2);
	c.samples = table_add_col(t, "total_samples", COL_INT, 10, 0);
	c.time = table_add_col(t, "total_time_s", COL_NUM, 10, 3);   /* performance.json: seconds */
	c.compile = table_add_col(t, "compile_time_s", COL_NUM, 10, 3);
	c.prog = table_add_col(t, "programming_time_s", COL_NUM, 10, 3);
	c.est = table_add_col(t, "est_samples_per_sec", COL_NUM, 12, 2);
	c.global = table_add_col(t, "global_rate", COL_NUM, 12, 2);
	c.rate = table_add_col(t, "rate", COL_NUM, 12, 2);
	c.flops = table_add_col(t, "flops_utilization", COL_NUM, 8, 2);
	c.mismatch = table_add_col(t, "mismatch", COL_TEXT, 8, 0);
	table_col_doc(t, c.mismatch, "yes when the stored aggregate disagrees with the merge rule's over the "
		      "ordinals; empty when either is missing (nothing to compare); ");
	c.rel = table_add_col(t, "rate_vs_siblings", COL_NUM, 8, 3);
	c.slow = table_add_col(t, "slow", COL_TEXT, 4, 0);
	for (size_t i = 0; i < s->ncb; i++) {
		const struct cb_perf *p = &s->cb[i];
		cb_row(t, &c, (long)i, p->path, "stored", p->samples_per_sec, p->has_sps,
		       (double)p->total_samples, p->has_samples, p->total_time, p->has_time);
		size_t r = t->nrow - 1;
		table_set_num_opt(t, r, c.compile, p->compile_time, p->has_compile);
		table_set_num_opt(t, r, c.prog, p->programming_time, p->has_prog);
		table_set_num_opt(t, r, c.est, p->est_sps, p->has_est);
		table_set_num_opt(t, r, c.global, p->global_rate, p->has_global);
		table_set_num_opt(t, r, c.rate, p->rate, p->has_rate);
		table_set_num_opt(t, r, c.flops, p->flops_util, p->has_flops);
		if (p->has_c) {
			if (cb_has_aggregate(p)) /* nothing stored: nothing to disagree with */
				table_set_text(t, r, c.mismatch, p->mismatch ? "yes" : "no");
			cb_row(t, &c, (long)i, p->path, "recomputed", p->c_sps, true, p->c_samples, true,
			       p->c_time, true);
		}
		for (size_t k = 0; k < p->nord; k++) {
			const struct cb_ordinal *o = &p->ord[k];
			char row[32];
			snprintf(row, sizeof(row), "ordinal %zu", k);
			cb_row(t, &c, sweep_cb_ordinal_ref(s, i, k), p->path, row, o->samples_per_sec, o->has_rate,
			       (double)o->total_samples, o->has_samples, o->total_time, o->has_time);
			if (o->has_rel) {
				table_set_num(t, t->nrow - 1, c.rel, o->rel_rate);
				table_set_text(t, t->nrow - 1, c.slow, o->slow ? "yes" : "no");
			}
		}
	}
	return t;
}

const struct view_def sweep_views[] = {
	{ "sweep", "GenAI-Perf configs x p50/p90/p99 metrics, stimulus, score, rank, pass/fail",
	  build_sweep, NULL, NULL },
	{ "sizing",
	  "GPU sizing fits (NAT latency/runtime, GenAI-Perf p95 latency vs concurrency), stored vs recomputed",
	  build_sizing, NULL, NULL },
	{ "sizing_points", "NAT per-concurrency p95s, alerts, rough GPU estimates", build_sizing_points, NULL, NULL },
	{ "gpu_telemetry", "GenAI-Perf GPU telemetry per config and GPU", build_gpu, NULL, NULL },
	{ "cerebras", "Cerebras performance.json: stored and recomputed aggregate, per-ordinal rates", build_cerebras,
	  NULL, NULL },
};

_Static_assert(ARRAY_LEN(sweep_views) == SWEEP_NVIEWS, "SWEEP_NVIEWS");

/* Each view's test, in sweep_views[] order: the one its build makes. */
static bool (*const view_has[])(const struct sweep_set *s) = {
	has_sweep, has_sizing, has_points, has_gpu, has_cerebras,
};
_Static_assert(ARRAY_LEN(view_has) == SWEEP_NVIEWS, "one test per sweep view");

bool sweep_view_has_data(struct run *run, const struct view_def *vd)
{
	size_t i = (size_t)(vd - sweep_views);
	return i < SWEEP_NVIEWS && view_has[i](sweep_derived(run));
}
