/* SPDX-License-Identifier: MIT */
/* print_sweep.c: the sweep section of the plain-text report: GenAI-Perf sweeps (per
 * series: stimulus x key metrics, ranking, constraints, knee, sizing fit), NAT sizing
 * (fits, GPU estimate, per-concurrency table) and Cerebras performance.json. */
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

/* A value, or "-"; a low-confidence percentile gets a '*' and sets *low. */
static void num(char *buf, size_t n, const struct sweep_cfg *c, enum sweep_metric m,
		enum sweep_stat st, const char *fmt, bool *low)
{
	double v;
	if (!sweep_value(c, m, st, &v)) {
		snprintf(buf, n, "-");
		return;
	}
	size_t k = (size_t)snprintf(buf, n, fmt, v);
	if (sweep_low_confidence(c, st) && k + 1 < n) {
		snprintf(buf + k, n - k, "*");
		*low = true;
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

static void estimate_line(struct sbuf *b, const char *indent, const struct sweep_set *s,
			  const char *what, double target, const struct sweep_estimate *e,
			  bool has_stored, double stored)
{
	if (!(target > 0))
		return;
	if (e->ok)
		sb_printf(b, "%s→ %.4f GPUs for %g users at p95 %s %g s (concurrency %.2f per %ld "
			  "test GPUs)", indent, e->gpus, s->target_users, what, target, e->conc, s->test_gpus);
	else
		sb_printf(b, "%s→ no GPU estimate for p95 %s %g s: %s", indent, what, target,
			  e->err ? e->err : "n/a");
	if (has_stored)
		sb_printf(b, " · stored %.4f", stored);
	sb_printf(b, "\n");
}

static void sweep_series_block(struct sbuf *b, const struct sweep_set *s,
			       const struct sweep_series *se)
{
	char *name = text_sanitize_dup(se->name, 0);
	sb_printf(b, "  %s — %zu config%s, swept %s\n", name, se->n, se->n == 1 ? "" : "s",
		  se->stim >= 0 ? sweep_stim_name(se->stim) : "nothing");
	free(name);
	const char *xname = se->stim >= 0 ? sweep_stim_name(se->stim) : "config";
	int xw = strlen(xname) > 12 ? (int)strlen(xname) : 12;
	sb_printf(b, "    %*s %11s %11s %11s %11s %8s %10s %10s %5s %5s\n", xw, xname, "ttft p99",
		  "latency p50", "latency p99", "itl p90", "osl p99", "req/s", "tok/s", "rank", "pass");
	bool low = false;
	for (size_t i = 0; i < se->n; i++) {
		const struct sweep_cfg *c = &s->cfg[se->cfg[i]];
		char x[32], a[24], p50[24], p99[24], itl[24], osl[24], rps[24], tps[24], rk[12];
		if (se->stim >= 0 && c->has_stim[se->stim])
			snprintf(x, sizeof(x), "%g", c->stim[se->stim]);
		else
			snprintf(x, sizeof(x), "#%zu", i + 1);
		num(a, sizeof(a), c, SM_TTFT, SS_P99, "%.2f", &low);
		num(p50, sizeof(p50), c, SM_LATENCY, SS_P50, "%.2f", &low);
		num(p99, sizeof(p99), c, SM_LATENCY, SS_P99, "%.2f", &low);
		num(itl, sizeof(itl), c, SM_ITL, SS_P90, "%.2f", &low);
		num(osl, sizeof(osl), c, SM_OSL, SS_P99, "%.1f", &low);
		num(rps, sizeof(rps), c, SM_RPS, SS_AVG, "%.3f", &low);
		num(tps, sizeof(tps), c, SM_TPS, SS_AVG, "%.1f", &low);
		snprintf(rk, sizeof(rk), c->rank > 0 ? "%d" : "-", c->rank);
		sb_printf(b, "    %*s %11s %11s %11s %11s %8s %10s %10s %5s %5s\n", xw, x, a, p50, p99, itl,
			  osl, rps, tps, rk, !s->ncon ? "-" : c->pass ? "yes" : "NO");
	}
	if (low)
		lowconf_note(b, s, se);
	if (se->knee >= 0)
		sb_printf(b, "    throughput saturates at %s %g (knee)\n", sweep_stim_name(se->stim),
			  s->cfg[se->cfg[se->knee]].stim[se->stim]);
	if (se->has_fit) {
		fit_line(b, "  p95 request latency (s) vs concurrency", &se->fit, se->n);
		size_t few = 0;
		for (size_t i = 0; i < se->n; i++)
			few += sweep_low_confidence(&s->cfg[se->cfg[i]], SS_P95);
		if (few)
			sb_printf(b, "      the p95 rests on fewer than %d requests beyond it at %zu of %zu "
				  "levels: low confidence\n", SWEEP_LOWCONF_TAIL, few, se->n);
		estimate_line(b, "    ", s, "latency", s->target_latency, &se->est, false, 0);
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

static void nat_points(struct sbuf *b, const struct nat_calc *n)
{
	sb_printf(b, "    %6s %6s %12s %12s %12s %14s %14s\n", "alerts", "conc", "p95 LLM lat",
		  "p95 WF run", "total run", "GPUs lat rough", "GPUs run rough");
	for (size_t i = 0; i < n->npt; i++) {
		const struct nat_point *p = &n->pt[i];
		char al[8] = "", l[24] = "-", r[24] = "-", t[24] = "-", gl[24] = "-", gr[24] = "-";
		nat_point_alerts(p, false, al);
		if (p->has_lat)
			snprintf(l, sizeof(l), "%.4f", p->lat_p95);
		if (p->has_rt)
			snprintf(r, sizeof(r), "%.4f", p->rt_p95);
		if (p->has_total)
			snprintf(t, sizeof(t), "%.4f", p->total_rt);
		if (p->has_c_gpu_lat)
			snprintf(gl, sizeof(gl), "%.4f", p->c_gpu_lat);
		if (p->has_c_gpu_rt)
			snprintf(gr, sizeof(gr), "%.4f", p->c_gpu_rt);
		sb_printf(b, "    %6s %6g %12s %12s %12s %14s %14s\n", al, p->conc, l, r, t, gl, gr);
	}
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
	estimate_line(b, "  ", s, "LLM latency", s->target_latency, &n->c_est_lat, n->has_s_gpu_lat, n->s_gpu_lat);
	estimate_line(b, "  ", s, "workflow runtime", s->target_runtime, &n->c_est_rt, n->has_s_gpu_rt, n->s_gpu_rt);
	if (!(s->target_users > 0) || s->test_gpus <= 0)
		sb_printf(b, "  (GPU estimates need --target-users, --test-gpus and --target-latency "
			  "or --target-runtime)\n");
	nat_points(b, n);
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
	char rate[32] = "n/a", samples[32] = "n/a", time[32] = "n/a";
	if (p->has_sps)
		snprintf(rate, sizeof(rate), "%.2f", p->samples_per_sec);
	if (p->has_samples)
		snprintf(samples, sizeof(samples), "%lld", p->total_samples);
	if (p->has_time)
		snprintf(time, sizeof(time), "%.3f", p->total_time);
	sb_printf(b, "  stored: %s samples/s · %s samples · %s s", rate, samples, time);
	if (p->has_compile)
		sb_printf(b, " · compile %.3f s", p->compile_time);
	if (p->has_prog)
		sb_printf(b, " · programming %.3f s", p->programming_time);
	if (p->has_global)
		sb_printf(b, " · global rate %.2f", p->global_rate);
	if (p->has_rate)
		sb_printf(b, " · rate %.2f", p->rate);
	if (p->has_flops)
		sb_printf(b, " · FLOPs utilization %.2f%%", p->flops_util);
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
			snprintf(rate, sizeof(rate), "%.2f", o->samples_per_sec);
		if (o->has_samples)
			snprintf(samples, sizeof(samples), "%lld", o->total_samples);
		if (o->has_time)
			snprintf(time, sizeof(time), "%.3f", o->total_time);
		sb_printf(b, "    ordinal %zu: %s samples/s · %s samples · %s s", i, rate, samples, time);
		if (o->slow) {
			char pct[40];
			sweep_cb_rel_text(o->rel_rate, pct, sizeof(pct));
			sb_printf(b, "  <- slow: %s%% of the other ordinals' median rate", pct);
		}
		sb_printf(b, "\n");
	}
	if (p->has_c)
		sb_printf(b, "  recomputed (merge rule): %.2f samples/s · %.0f samples · %.3f s%s\n",
			  p->c_sps, p->c_samples, p->c_time,
			  p->mismatch ? "  <- stored aggregate disagrees"
				      : cb_has_aggregate(p) ? "" : "  (no stored aggregate to check)");
	else if (p->nord)
		sb_printf(b, "  recomputed (merge rule): n/a, not applied: %s\n", p->c_why);
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
