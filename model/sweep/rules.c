/* SPDX-License-Identifier: MIT */
/* rules.c: the sweep family's finding rules (poor fit, outliers removed, throughput
 * saturation, constraint failures (the first named in the sweep table's order),
 * stored-vs-recomputed sizing (every stored fit that differs named), the Cerebras
 * aggregate mismatch and slow ordinal (said hidden by the merge rule only when it is:
 * slow_hidden)), read from the model after sweep_derive(); the saturation finding
 * names the latency statistic its test weighed (one both levels have) and, when another,
 * the one the Sweep pane plots, and says, as the headline does, that the knee is at or
 * before the level found when a level before it was not weighed or a step not compared
 * (naming it, advising no level past what was judged). Each finding's evidence names
 * the view row that holds it; what they cannot judge (sweep_unjudged) includes the
 * configs and sizing jobs of a directory that could not be listed or a file that gave
 * nothing, and a knee test with a step it could not compare (no latency statistic at both
 * levels, or a CSV's rounding that could decide it), and each item about one series or
 * file names it as that series' findings do
 * (unjudged_about); sweep_finding_series reads a finding's evidence back to its series. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/registry.h"
#include "model/numfmt.h"
#include "model/run.h"
#include "model/sweep/fit.h"
#include "model/sweep/internal.h"
#include "model/text.h"
#include "model/units.h"
#include "model/xalloc.h"

/* Evidence for row ref `item` of `view` (sweep: config index, sizing: sweep_sizing_ref,
 * cerebras: performance.json index or sweep_cb_ordinal_ref), so the UI opens the view
 * that holds it: the rows whose name column (the config, the file) is exactly `name`
 * (sanitized, as the table holds it), the cursor on row `item`. */
static struct evidence cfg_evidence(const char *view, long item, const char *name,
				    const char *series)
{
	struct evidence ev = evidence_none();
	ev.kind = EV_CONFIG;
	ev.view = view;
	ev.item = item;
	ev.name = name ? text_sanitize_dup(name, 0) : NULL;
	ev.match = COL_ROLE_NAME;
	ev.series = series ? text_sanitize_dup(series, 0) : NULL;
	return ev;
}

/* A not-judged item about one series or file, named as its findings' evidence names it
 * (cfg_evidence: sanitized), so a comparison matches it with that series' findings only. */
static void unjudged_about(struct not_judged *nj, const char *ids, const char *about, const char *fmt, ...)
	PRINTF_LIKE(4, 5);

static void unjudged_about(struct not_judged *nj, const char *ids, const char *about, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *text = xvasprintf(fmt, ap), *subject = text_sanitize_dup(about, 0);
	va_end(ap);
	findings_unjudged_add_about(nj, ids, subject, "%s", text);
	free(subject);
	free(text);
}

struct fit_ref {
	const char *what, *file, *series, *view;
	const struct sweep_fit *fit;
	long item;
};

/* Every recomputed fit: NAT latency and runtime (a merge instead of its jobs),
 * GenAI-Perf series. */
static size_t collect_fits(const struct sweep_set *s, struct fit_ref *out, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nnat && n + 2 <= cap; i++) {
		if (s->nat[i].merge_into >= 0)
			continue;
		out[n++] = (struct fit_ref){ "p95 LLM latency", s->nat[i].path, "llm_latency",
					     "sizing", &s->nat[i].c_fit_lat, sweep_sizing_ref(i, false) };
		out[n++] = (struct fit_ref){ "p95 workflow runtime", s->nat[i].path, "workflow_runtime",
					     "sizing", &s->nat[i].c_fit_rt, sweep_sizing_ref(i, true) };
	}
	for (size_t i = 0; i < s->nseries && n < cap; i++)
		if (s->series[i].has_fit) /* its row of sizing (internal.h: -1 - i) */
			out[n++] = (struct fit_ref){ "p95 request latency", s->series[i].name,
						     "request_latency", "sizing", &s->series[i].fit, -1 - (long)i };
	return n;
}

#define MAX_FITS 64

static void rule_poor_fit(struct run *run, struct finding_list *out)
{
	if (!sweep_derived(run))
		return;
	struct fit_ref f[MAX_FITS];
	size_t n = collect_fits(run->sweep, f, MAX_FITS);
	for (size_t i = 0; i < n; i++) {
		if (!f[i].fit->ok || !f[i].fit->poor || f[i].fit->flat || f[i].fit->nused <= 2)
			continue; /* a flat line fits exactly; a line fits any two points (sweep_unjudged) */
		char title[160], detail[512];
		snprintf(title, sizeof(title), "Poor linear fit of %s vs concurrency (R² %.3f < %.1f)",
			 f[i].what, f[i].fit->r2, FIT_MIN_R2);
		snprintf(detail, sizeof(detail),
			 "%s: %zu points, slope %.4g s per concurrency, intercept %.4g s. Below R² %.1f "
			 "the sizing calculator stores no fit and no slope-based GPU estimate.",
			 f[i].file, f[i].fit->nused, f[i].fit->slope, f[i].fit->intercept, FIT_MIN_R2);
		findings_add(out, "SIZING.POOR_FIT", SEV_MED, title, detail,
			     "Measure more concurrencies (and repeat noisy ones) before trusting a "
			     "GPU estimate; latency may be non-linear past saturation.",
			     cfg_evidence(f[i].view, f[i].item, f[i].file, f[i].series));
	}
}

static void rule_outliers(struct run *run, struct finding_list *out)
{
	if (!sweep_derived(run))
		return;
	struct fit_ref f[MAX_FITS];
	size_t n = collect_fits(run->sweep, f, MAX_FITS);
	for (size_t i = 0; i < n; i++) {
		const struct sweep_fit *fit = f[i].fit;
		if (fit->nout == 0)
			continue;
		char list[128], title[200], detail[512];
		fit_outliers_text(fit, list, sizeof(list));
		snprintf(title, sizeof(title), "Outlier concurrenc%s %s removed from the %s fit",
			 fit->nout == 1 ? "y" : "ies", list, f[i].what);
		snprintf(detail, sizeof(detail),
			 "%s: IQR rules (raw values x%.1f for <= %d points, residuals x%.1f) dropped "
			 "%zu of %zu points; the fit uses the rest (R² %.4f).",
			 f[i].file, FIT_EXTREME_IQR, FIT_SMALL_RANGE, FIT_CONSERVATIVE_IQR, fit->nout,
			 fit->nout + fit->nused, fit->r2);
		findings_add(out, "SIZING.OUTLIERS", SEV_LOW, title, detail,
			     "Re-run the outlier concurrencies; a real regime change (queueing, "
			     "memory pressure) means the linear model stops there.",
			     cfg_evidence(f[i].view, f[i].item, f[i].file, f[i].series));
	}
}

/* The knee's latency from level k to nx in words, its statistic named (the one the knee's step
 * compared, both levels': se->knee_stat), then the one the Sweep pane plots for se when it is
 * another and both levels have it, to the pane's 3 significant digits: "p50 request latency goes
 * 95.16 -> 111.8 ms (p95, which the Sweep pane plots: 114 -> 153 ms)". */
static void knee_latency_text(const struct sweep_set *s, const struct sweep_series *se, const struct sweep_cfg *k,
			      const struct sweep_cfg *nx, double l0, double l1, char *buf, size_t n)
{
	enum sweep_stat ks = (enum sweep_stat)se->knee_stat, ps = sweep_plot_latency_stat(s, se);
	size_t len = (size_t)snprintf(buf, n, "%s request latency goes %.4g -> %.4g ms", sweep_stat_name(ks), l0, l1);
	double p0, p1;
	if (len >= n || ps == ks || !sweep_value(k, SM_LATENCY, ps, &p0) ||
	    !sweep_value(nx, SM_LATENCY, ps, &p1))
		return;
	int dec = units_decimals(fmax(fabs(p0), fabs(p1)), 3); /* as the pane lists them */
	snprintf(buf + len, n - len, " (%s, which the Sweep pane plots: %.*f -> %.*f ms)", sweep_stat_name(ps), dec, p0,
		 dec, p1);
}

/* The saturation finding's advice for series se, its knee at level k: serve at or below the
 * knee; when the knee is at or before k (a level before it not weighed), re-measure that level
 * and, until then, serve at or below the highest level known to be at or below the knee (the
 * last one weighed before it: the steps up to there were judged, no knee). */
static void knee_advice(const struct sweep_set *s, const struct sweep_series *se, const struct sweep_cfg *k,
			char *buf, size_t n)
{
	const char *st = sweep_stim_name(se->stim), *tail = "beyond the knee extra load only queues. Add replicas "
							    "or GPUs to raise the ceiling.";
	long below;
	if (!sweep_knee_or_before(s, se, &below))
		snprintf(buf, n, "Serve at or below the knee; %s", tail);
	else if (below >= 0)
		snprintf(buf, n, "Place the knee (at or before %s %g) by re-measuring what the knee test could not "
			 "weigh before it; until then serve at or below %s %g, the highest level known to be at or "
			 "below the knee; %s", st, k->stim[se->stim], st, s->cfg[se->cfg[below]].stim[se->stim], tail);
	else
		snprintf(buf, n, "Place the knee (at or before %s %g) by re-measuring what the knee test could not "
			 "weigh before it, then serve at or below it; %s", st, k->stim[se->stim], tail);
}

static void rule_saturation(struct run *run, struct finding_list *out)
{
	struct sweep_set *s = sweep_derived(run);
	if (!s)
		return;
	for (size_t i = 0; i < s->nseries; i++) {
		const struct sweep_series *se = &s->series[i];
		if (se->knee < 0 || se->knee_next < 0 || se->stim < 0 || se->knee_stat == SS_N)
			continue;
		/* the level the knee test compared: the next one with data (a level with no
		 * successful request between them has no throughput or latency) */
		const struct sweep_cfg *k = &s->cfg[se->cfg[se->knee]];
		const struct sweep_cfg *nx = &s->cfg[se->cfg[se->knee_next]];
		double t0, t1, l0, l1;
		if (!sweep_value(k, SM_RPS, SS_AVG, &t0) || !sweep_value(nx, SM_RPS, SS_AVG, &t1) ||
		    !sweep_value(k, SM_LATENCY, se->knee_stat, &l0) || !sweep_value(nx, SM_LATENCY, se->knee_stat, &l1))
			continue; /* fit_knee() weighs only levels with both */
		char title[200], detail[1024], skipped[96] = "", lat[224], unweighed[256], fix[400];
		const char *st = sweep_stim_name(se->stim);
		size_t nskip = (size_t)(se->knee_next - se->knee - 1);
		if (nskip == 1)
			snprintf(skipped, sizeof(skipped), " (the level between has no throughput or latency)");
		else if (nskip)
			snprintf(skipped, sizeof(skipped), " (the %zu levels between have no throughput or latency)",
				 nskip);
		knee_latency_text(s, se, k, nx, l0, l1, lat, sizeof(lat));
		bool before = sweep_knee_or_before(s, se, NULL);
		sweep_knee_unweighed(s, se, before ? (size_t)se->knee : 0, unweighed, sizeof(unweighed));
		unweighed[0] = (char)toupper((unsigned char)unweighed[0]); /* a sentence: "Concurrency 4 ..." */
		/* the headline's words: "at or before" when a level before the knee was not weighed */
		snprintf(title, sizeof(title), "Throughput saturates at %s%s %g", before ? "or before " : "", st,
			 k->stim[se->stim]);
		/* rates as the headline's best config gives them (%.4g req/s) */
		snprintf(detail, sizeof(detail),
			 "%s: from %s %g to %g%s request throughput goes %.4g -> %.4g req/s while %s.%s%s%s", se->name,
			 st, k->stim[se->stim], nx->stim[se->stim], skipped, t0, t1, lat, *unweighed ? " " : "",
			 unweighed, *unweighed ? ": the knee may be earlier." : "");
		knee_advice(s, se, k, fix, sizeof(fix));
		/* evidence series: the sweep series, as its not-judged item names it (series_unjudged) */
		findings_add(out, "SWEEP.SATURATION", SEV_MED, title, detail, fix,
			     cfg_evidence("sweep", (long)se->cfg[se->knee], k->name, se->name));
	}
}

/* The config index of the first config failing the constraints in the order the sweep
 * table lists them (series, then stimulus ascending: sweep_series.cfg), not path order
 * (c10_ sorts before c1_); SIZE_MAX when every config passes. */
static size_t first_failing(const struct sweep_set *s)
{
	for (size_t i = 0; i < s->nseries; i++)
		for (size_t j = 0; j < s->series[i].n; j++)
			if (!s->cfg[s->series[i].cfg[j]].pass)
				return s->series[i].cfg[j];
	return SIZE_MAX;
}

static void rule_constraints(struct run *run, struct finding_list *out)
{
	struct sweep_set *s = sweep_derived(run);
	if (!s)
		return;
	if (s->ncon == 0)
		return;
	size_t nfail = 0, first = first_failing(s);
	if (first == SIZE_MAX)
		return;
	for (size_t i = 0; i < s->ncfg; i++)
		nfail += !s->cfg[i].pass;
	char title[200], detail[768];
	snprintf(title, sizeof(title), "%zu of %zu sweep configs fail the constraints", nfail, s->ncfg);
	snprintf(detail, sizeof(detail), "First failing: %s: %s.%s", s->cfg[first].name,
		 s->cfg[first].failed ? s->cfg[first].failed : "",
		 nfail == s->ncfg ? " No config meets every constraint." : "");
	findings_add(out, "SWEEP.CONSTRAINT", nfail == s->ncfg ? SEV_HIGH : SEV_MED, title, detail,
		     nfail == s->ncfg ? "Relax a constraint or sweep lower load (concurrency / rate)."
				      : "Pick the best-ranked passing config (sweep view, rank column).",
		     cfg_evidence("sweep", (long)first, s->cfg[first].name, NULL));
}

/* One finding per NAT file whose stored fits differ from the recomputed ones, naming each
 * that differs (both: the runtime fit carries the calculator's final GPU answer); its
 * evidence is the file's sizing rows, the cursor on the first fit that differs. */
static void rule_sizing_diff(struct run *run, struct finding_list *out)
{
	struct sweep_set *s = sweep_derived(run);
	if (!s)
		return;
	for (size_t i = 0; i < s->nnat; i++) {
		const struct nat_calc *n = &s->nat[i];
		bool lat = fit_differs(&n->s_fit_lat, n->has_s_fit_lat, &n->c_fit_lat);
		bool rt = fit_differs(&n->s_fit_rt, n->has_s_fit_rt, &n->c_fit_rt);
		if (!lat && !rt)
			continue;
		bool both = lat && rt;
		const char *what = both ? "LLM latency and workflow runtime fits"
				   : lat ? "LLM latency fit" : "workflow runtime fit";
		const char *rows = both ? "llm_latency_p95 and workflow_runtime_p95 rows"
				   : lat ? "llm_latency_p95 row" : "workflow_runtime_p95 row";
		char title[160], detail[480];
		snprintf(title, sizeof(title), "Stored %s differ%s from the recomputed one%s", what, both ? "" : "s",
			 both ? "s" : "");
		snprintf(detail, sizeof(detail),
			 "%s: recomputing the %s from calc_data with the documented outlier rules gives different "
			 "values (see the sizing view, stored_* columns of the %s).", n->path, what, rows);
		findings_add(out, "SIZING.STORED_DIFFERS", SEV_LOW, title, detail,
			     "The file may come from another calculator version or a non-default "
			     "FitConfig; trust the recomputed values or re-run nat sizing calc.",
			     cfg_evidence("sizing", sweep_sizing_ref(i, !lat), n->path, NULL));
	}
}

static void rule_cerebras(struct run *run, struct finding_list *out)
{
	struct sweep_set *s = sweep_derived(run);
	if (!s)
		return;
	for (size_t i = 0; i < s->ncb; i++) {
		const struct cb_perf *p = &s->cb[i];
		if (!p->mismatch)
			continue;
		char detail[512];
		snprintf(detail, sizeof(detail),
			 "%s: stored samples_per_sec %.6g, total_samples %lld, total_time %.6g; the "
			 "merge rule over %zu ordinals gives %.6g, %.0f, %.6g (rate = Σ samples / "
			 "first non-zero ordinal time, not the sum of rates).",
			 p->path, p->samples_per_sec, p->total_samples, p->total_time, p->nord, p->c_sps,
			 p->c_samples, p->c_time);
		findings_add(out, "CEREBRAS.AGGREGATE_MISMATCH", SEV_MED,
			     "Cerebras aggregate disagrees with its ordinals", detail,
			     "Quote the recomputed aggregate; check whether the file was edited or "
			     "merged from different runs.",
			     cfg_evidence("cerebras", (long)i, p->path, "samples_per_sec"));
	}
}

void sweep_cb_rel_text(double rel_rate, char *buf, size_t n)
{
	numfmt_same_side(rel_rate * 100, (rel_rate < CB_SLOW_HIGH ? CB_SLOW_HIGH : CB_SLOW_RATIO) * 100, 0, buf, n);
}

/* What the merge rule's aggregate makes of p's slow ordinals, into agg: it hides them when the
 * longest ordinal time gives another rate than the first non-zero one (true when the rates differ as
 * shown); it hides nothing when the first non-zero time is the longest. True when it hides them. */
static bool slow_hidden(const struct cb_perf *p, char *agg, size_t n)
{
	char first[32], longest[32];
	if (!p->has_c || !(p->c_wall_time > 0)) {
		snprintf(agg, n, "The merge-rule aggregate is n/a (%s).",
			 p->has_c ? "no ordinal total_time" : p->c_why);
		return false;
	}
	snprintf(first, sizeof(first), "%.6g", p->c_sps);
	snprintf(longest, sizeof(longest), "%.6g", p->c_samples / p->c_wall_time);
	bool hides = strcmp(first, longest) != 0;
	if (hides)
		snprintf(agg, n, "The aggregate takes the first non-zero ordinal's total_time (%.6g s), so its %s "
			 "samples/s hides it; over the longest ordinal time (%.6g s) the job made %s samples/s.",
			 p->c_time, first, p->c_wall_time, longest);
	else
		snprintf(agg, n, "The aggregate's %s samples/s (Σ samples over the first non-zero ordinal's "
			 "total_time, %.6g s) is also the rate over the longest ordinal time (%.6g s): the merge "
			 "rule hides nothing here.", first, p->c_time, p->c_wall_time);
	return hides;
}

static void rule_slow_ordinal(struct run *run, struct finding_list *out)
{
	struct sweep_set *s = sweep_derived(run);
	if (!s)
		return;
	for (size_t i = 0; i < s->ncb; i++) {
		const struct cb_perf *p = &s->cb[i];
		if (p->slowest < 0)
			continue;
		const struct cb_ordinal *o = &p->ord[p->slowest];
		size_t nslow = 0;
		for (size_t k = 0; k < p->nord; k++)
			nslow += p->ord[k].slow;
		char title[200], detail[640], agg[320], pct[32];
		bool high = o->rel_rate < CB_SLOW_HIGH;
		sweep_cb_rel_text(o->rel_rate, pct, sizeof(pct));
		snprintf(title, sizeof(title), "Cerebras ordinal %ld runs at %s%% of its siblings' rate",
			 p->slowest, pct);
		bool hidden = slow_hidden(p, agg, sizeof(agg));
		snprintf(detail, sizeof(detail),
			 "%s: ordinal %ld (%zu slow of %zu) is below %.0f%% of the median rate of the "
			 "other ordinals. %s", p->path, p->slowest, nslow, p->nord, CB_SLOW_RATIO * 100, agg);
		findings_add(out, "CEREBRAS.SLOW_ORDINAL", high ? SEV_HIGH : SEV_MED,
			     title, detail,
			     hidden ? "Check that ordinal's input pipeline and host (data loading, network); "
				      "quote the rate over the longest ordinal time, not the stored aggregate."
				    : "Check that ordinal's input pipeline and host (data loading, network).",
			     cfg_evidence("cerebras", sweep_cb_ordinal_ref(s, i, (size_t)p->slowest), p->path,
					  "samples_per_sec"));
	}
}

/* The ordinals of a performance.json that the others are rated against and these not:
 * the first 8 ("0, 3") with the first one's reason. */
static void unrated_ordinals(const struct cb_perf *p, struct not_judged *nj)
{
	char list[192] = "", why[160] = "";
	size_t k = 0, unrated = 0;
	for (size_t i = 0; i < p->nord; i++) {
		if (p->ord[i].has_rel)
			continue;
		if (unrated == 0)
			cb_unrated_why(p, i, why, sizeof(why));
		if (unrated++ < 8)
			k += (size_t)snprintf(list + k, sizeof(list) - k, "%s%zu", k ? ", " : "", i);
	}
	unjudged_about(nj, "CEREBRAS.SLOW_ORDINAL", p->path, "slow Cerebras ordinal%s %s%s of %s (not rated: %s%s)",
		       unrated == 1 ? "" : "s", list, unrated > 8 ? ", ..." : "", p->path,
		       unrated == 1 ? "" : "the first: ", why);
}

/* A performance.json's ordinals with a rate against the others' median (the slow-ordinal
 * test needs two), and the aggregate check (needs one ordinal and a stored aggregate). */
static void cerebras_unjudged(const struct cb_perf *p, struct not_judged *nj)
{
	const char *path = p->path; /* sanitized where the list is shown (sb_safe, the table) */
	if (p->nord == 0) {
		unjudged_about(nj, "CEREBRAS.AGGREGATE_MISMATCH CEREBRAS.SLOW_ORDINAL", path,
			       "Cerebras aggregate and slow ordinals of %s (no per-ordinal figures)", path);
		return;
	}
	if (!p->has_c)
		unjudged_about(nj, "CEREBRAS.AGGREGATE_MISMATCH", path,
			       "Cerebras aggregate of %s (merge rule not applied: %s)", path, p->c_why);
	else if (!cb_has_aggregate(p))
		unjudged_about(nj, "CEREBRAS.AGGREGATE_MISMATCH", path,
			       "Cerebras aggregate of %s (no stored aggregate to check: no "
			       "samples_per_sec, total_samples or total_time)", path);
	size_t rated = 0;
	for (size_t k = 0; k < p->nord; k++)
		rated += p->ord[k].has_rel;
	if (rated == 0)
		unjudged_about(nj, "CEREBRAS.SLOW_ORDINAL", path,
			       "slow Cerebras ordinals of %s (%zu ordinal%s, none rated against "
			       "another: the test needs 2 with a rate)", path, p->nord, p->nord == 1 ? "" : "s");
	else if (rated < p->nord)
		unrated_ordinals(p, nj);
}

/* What the knee test (and, with a level measured twice, the latency fit) could not judge
 * of series se, the item about se (its saturation finding's evidence series, its fit's
 * file). */
static void series_unjudged(const struct sweep_set *s, const struct sweep_series *se, struct not_judged *nj)
{
	if (se->stim < 0)
		unjudged_about(nj, "SWEEP.SATURATION", se->name, "throughput saturation of %s (no stimulus "
			       "recorded: its files and name give no concurrency, request rate or other "
			       "swept value)", se->name);
	else if (se->twice >= 0)
		unjudged_about(nj, "SWEEP.SATURATION SIZING.POOR_FIT SIZING.OUTLIERS", se->name,
			       "throughput saturation and latency fit of %s (more than one result at "
			       "%s %g)", se->name, sweep_stim_name(se->stim),
			       s->cfg[se->cfg[se->twice]].stim[se->stim]);
	else if (se->n < 3)
		unjudged_about(nj, "SWEEP.SATURATION", se->name, "throughput saturation of %s (fewer than 3 "
			       "configs)", se->name);
	else if (se->knee < 0 && se->knee_points < 3)
		unjudged_about(nj, "SWEEP.SATURATION", se->name, "throughput saturation of %s (%zu of %zu "
			       "configs have both a request throughput and a request latency)", se->name,
			       se->knee_points, se->n);
	else if (se->knee < 0 && se->knee_open) { /* a knee may hide in a step not compared */
		char why[256];
		sweep_knee_unweighed(s, se, se->n, why, sizeof(why));
		unjudged_about(nj, "SWEEP.SATURATION", se->name, "throughput saturation of %s (%s)", se->name, why);
	}
}

void sweep_unjudged(struct run *run, struct not_judged *nj)
{
	struct sweep_set *s = sweep_derived(run);
	for (size_t i = 0; s && i < s->nunread; i++) { /* sanitized where the list is shown */
		const struct sweep_unread *u = &s->unread[i];
		const char *ids = u->nat ? "SIZING.POOR_FIT SIZING.OUTLIERS" : "SWEEP.SATURATION SWEEP.CONSTRAINT";
		findings_unjudged_add(nj, ids, "the %s in %s (%s)", u->nat ? "sizing jobs" : "configs", u->path,
				      u->why);
	}
	for (size_t i = 0; s && i < s->ncb; i++)
		cerebras_unjudged(&s->cb[i], nj);
	struct fit_ref f[MAX_FITS];
	size_t nf = s ? collect_fits(s, f, MAX_FITS) : 0;
	for (size_t i = 0; i < nf; i++) {
		const struct sweep_fit *fit = f[i].fit;
		if (!fit->ok) { /* no line: no R² and no outliers to judge */
			unjudged_about(nj, "SIZING.POOR_FIT SIZING.OUTLIERS", f[i].file, "fit of %s in %s (%s)",
				       f[i].what, f[i].file, fit->err ? fit->err : "no fit");
			continue;
		}
		if (fit->nused == 2) /* R² 1 by construction */
			unjudged_about(nj, "SIZING.POOR_FIT", f[i].file,
				       "fit quality of %s in %s (2 points: a line fits any two)", f[i].what, f[i].file);
		if (!fit->tested)
			unjudged_about(nj, "SIZING.OUTLIERS", f[i].file, "outliers in the fit of %s in %s (%zu points: "
				       "the outlier rules need %d)", f[i].what, f[i].file, fit->nused,
				       FIT_OUTLIER_MIN_POINTS);
	}
	if (!s || s->ncfg == 0)
		return;
	if (s->con_unjudged)
		findings_unjudged_add(nj, "SWEEP.CONSTRAINT", "SLO pass/fail of %s (%s)", s->con_unjudged,
				      sweep_con_unjudged_why(s));
	else if (s->ncon == 0)
		findings_unjudged_add(nj, "SWEEP.CONSTRAINT",
				      "SLO pass/fail (no --constraint given, e.g. 'ttft_p99<500')");
	for (size_t i = 0; i < s->nseries; i++) /* the knee test needs 3 points of one stimulus */
		series_unjudged(s, &s->series[i], nj);
}

const struct sweep_series *sweep_finding_series(const struct sweep_set *s, const struct finding *f)
{
	if (strcmp(f->id, "SWEEP.SATURATION") == 0) { /* evidence: the knee's config (rule_saturation) */
		for (size_t i = 0; f->ev.item >= 0 && i < s->nseries; i++)
			if (s->series[i].knee >= 0 && s->series[i].cfg[s->series[i].knee] == (size_t)f->ev.item)
				return &s->series[i];
		return NULL;
	}
	bool fit = strcmp(f->id, "SIZING.POOR_FIT") == 0 || strcmp(f->id, "SIZING.OUTLIERS") == 0;
	if (!fit || f->ev.item >= 0) /* a NAT file's sizing row (sweep_sizing_ref) */
		return NULL;
	size_t i = (size_t)(-1 - f->ev.item); /* series i's sizing row (collect_fits) */
	return i < s->nseries ? &s->series[i] : NULL;
}

const struct finding_rule sweep_rules[] = {
	{ "SWEEP.CONSTRAINT", 2000, rule_constraints, false, SUBJECT_RANK, false },
	{ "SWEEP.SATURATION", 2010, rule_saturation, false, SUBJECT_RANK, false },
	{ "SIZING.POOR_FIT", 2020, rule_poor_fit, false, SUBJECT_RANK, false },
	{ "SIZING.OUTLIERS", 2030, rule_outliers, false, SUBJECT_RANK, false },
	{ "SIZING.STORED_DIFFERS", 2040, rule_sizing_diff, false, SUBJECT_RANK, false },
	{ "CEREBRAS.AGGREGATE_MISMATCH", 2050, rule_cerebras, false, SUBJECT_RANK, false },
	{ "CEREBRAS.SLOW_ORDINAL", 2060, rule_slow_ordinal, false, SUBJECT_RANK, false },
};

_Static_assert(ARRAY_LEN(sweep_rules) == SWEEP_NRULES, "SWEEP_NRULES");
