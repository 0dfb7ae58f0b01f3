/* SPDX-License-Identifier: MIT */
/* subsystem.c: the sweep family's registration (registry.h): loaders GenAI-Perf
 * (load_genai*.c), NAT (load_nat.c) and Cerebras (load_cerebras.c), the views
 * (views.c), the finding rules (rules.c), the headline summary (stimulus, levels, knee or
 * why it is not judged, best config and those tied with it, constraints; NAT fits and GPU
 * estimate, recomputed or the file's stored one; Cerebras rate and slow ordinal; before
 * them the directories that could not be listed and the level or job files that gave
 * nothing) and the model's lifetime (store.c). Of several series, NAT calculators or Cerebras files the headline names
 * each, details three (those with a verdict first) and counts and names the rest; a NAT
 * calculator or Cerebras file beside any other input (a GenAI-Perf sweep, a NAT beside a
 * Cerebras file) is named too, never merged silently into one run's lines; its figures
 * follow the display rule (sweep_num_text). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/numfmt.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/sweep/internal.h"
#include "model/units.h"
#include "model/xalloc.h"

static const struct loader sweep_loaders[] = {
	{ "genai-perf", "GenAI-Perf artifacts: *_genai_perf.{csv,json}, profile exports, "
			"analyze CSV, checkpoint.json", sweep_genai_probe, sweep_genai_load, false },
	{ "nat", "NeMo Agent Toolkit sizing: calc_runner_output.json", sweep_nat_probe, sweep_nat_load, false },
	{ "cerebras", "Cerebras Model Zoo performance.json", sweep_cb_probe, sweep_cb_load, false },
};

static const struct model_cmd sweep_cmds[] = {
	{ "objective", "METRIC:W,...",
	  "rank sweep configs by weighted metrics, e.g. ttft_p99:1,itl_p90:3 (empty clears)",
	  sweep_cmd_objective },
	{ "constraint", "EXPR|clear", "add a sweep constraint, e.g. ttft_p99<10 ('clear' removes all)",
	  sweep_cmd_constraint },
};

/* A config, NAT file or Cerebras file was read: a model holding only what could not be
 * read (an unlistable directory, a broken file) is no data of its own. */
static bool sweep_has_data(const struct run *run)
{
	const struct sweep_set *s = run->sweep;
	return s && (s->ncfg || s->nnat || s->ncb);
}

/* The Sweep tab plots GenAI-Perf levels and NAT points: a Cerebras file alone has
 * neither (its rate and ordinals are in the Overview and the cerebras view). */
static bool sweep_tab_has_data(const struct run *run)
{
	return run->sweep && (run->sweep->ncfg || run->sweep->nnat);
}

/* Series se's stimulus and its knee; named: its stimulus line starts with its name (the sweep has more),
 * which carries the workload and fixed stimuli that split it ("m [input_length=100]"), else the line
 * ends with them ("at input_length=100", "for model=m"). */
static void series_summary(const struct sweep_set *s, const struct sweep_series *se, bool named,
			   struct summary *out)
{
	if (se->stim < 0 || se->n == 0) {
		summary_add(out, TONE_NORMAL, "series", "%s: %zu config%s without a stimulus (its files and name give "
			    "no concurrency, request rate or other swept value)", se->name, se->n,
			    se->n == 1 ? "" : "s");
		return;
	}
	const char *st = sweep_stim_name(se->stim);
	char levels[SUMMARY_TEXT] = "";
	size_t used = 0;
	for (size_t k = 0; k < se->n && used < sizeof(levels); k++)
		used += (size_t)snprintf(levels + used, sizeof(levels) - used, "%s%g", k ? ", " : "",
					  s->cfg[se->cfg[k]].stim[se->stim]);
	const char *fixed = named ? NULL : se->fixed, *workload = named ? NULL : se->workload;
	summary_add(out, TONE_NORMAL, "stimulus", "%s%s%s %s (%zu level%s)%s%s%s%s", named ? se->name : "",
		    named ? ": " : "", st, levels, se->n, se->n == 1 ? "" : "s", fixed ? " at " : "",
		    fixed ? fixed : "", workload ? " for " : "", workload ? workload : "");
	char unweighed[SUMMARY_TEXT], rest[SUMMARY_TEXT + 2];
	sweep_knee_unweighed(s, se, se->n, unweighed, sizeof(unweighed));
	snprintf(rest, sizeof(rest), "%s%s", *unweighed ? "; " : "", unweighed);
	double last = se->knee_last >= 0 ? s->cfg[se->cfg[se->knee_last]].stim[se->stim] : 0;
	if (se->knee >= 0) {
		const struct sweep_cfg *k = &s->cfg[se->cfg[se->knee]];
		summary_add(out, TONE_WARN, "saturation", "throughput knee at %s%s %g (SWEEP.SATURATION)%s",
			    sweep_knee_or_before(s, se, NULL) ? "or before " : "", st, k->stim[se->stim], rest);
	} else if (se->twice >= 0) {
		summary_add(out, TONE_WARN, "saturation", "not judged, nor the latency fit: more than one result at %s "
			    "%g (other runs, or a level measured twice; see the data-quality list)", st,
			    s->cfg[se->cfg[se->twice]].stim[se->stim]);
	} else if (se->n < 3) {
		summary_add(out, TONE_NORMAL, "saturation", "not judged: %zu level%s (the knee test needs 3)", se->n,
			    se->n == 1 ? "" : "s");
	} else if (se->knee_points < 3) {
		summary_add(out, TONE_NORMAL, "saturation", "not judged: %zu of %zu levels have both a request "
			    "throughput and a request latency (the knee test needs 3)", se->knee_points, se->n);
	} else if (se->knee_open) { /* a knee may hide in a step not compared */
		summary_add(out, TONE_NORMAL, "saturation", "not judged: %s", unweighed);
	} else if (se->knee_rising) {
		summary_add(out, TONE_GOOD, "saturation", "no knee: request throughput still rises at %s %g%s", st,
			    last, rest);
	} else {
		summary_add(out, TONE_NORMAL, "saturation", "no knee up to %s %g, though request throughput does not "
			    "rise at the last level%s", st, last, rest);
	}
}

/* A config ranked 1 by the objective: "m_2 (rank 1 by the objective rps_avg:1)", and how
 * many configs are unranked; when no config passes the constraints, rank 1 is no best. */
static void ranked_summary(const struct sweep_set *s, const struct sweep_cfg *c, struct summary *out)
{
	const char *obj = s->nobj == 1 ? s->obj[0].text : "";
	if (!c->pass) {
		summary_add(out, TONE_WARN, "best config", "none passes the constraints; rank 1 by the objective"
			    "%s%s: %s (fails %s)", *obj ? " " : "", obj, c->name, c->failed ? c->failed : "");
		return;
	}
	size_t unranked = 0;
	for (size_t i = 0; i < s->ncfg; i++)
		unranked += s->cfg[i].rank == 0;
	char note[96] = "";
	if (unranked)
		snprintf(note, sizeof(note), "; %zu config%s unranked: no value for every objective metric", unranked,
			 unranked == 1 ? "" : "s");
	summary_add(out, TONE_GOOD, "best config", "%s (rank 1 by the objective%s%s)%s", c->name, *obj ? " " : "",
		    obj, note);
}

/* Best config c (no --objective) and the configs that tie with it (sweep_best_ties), named:
 * "a and b tie at the highest request throughput, 20 req/s", each rate given when the tie rests
 * on a CSV's rounding ("within the CSV's 2 decimals: 0.05 and 0.05 req/s"). */
static void tie_summary(const struct sweep_set *s, const struct sweep_cfg *c, struct summary *out)
{
	const struct sweep_cfg *who[3] = { c };
	bool rounding;
	size_t nt = sweep_best_ties(s, c, who + 1, ARRAY_LEN(who) - 1, &rounding);
	size_t shown = 1 + (nt < ARRAY_LEN(who) - 1 ? nt : ARRAY_LEN(who) - 1), nl = 0, rl = 0;
	char names[SUMMARY_TEXT] = "", rates[SUMMARY_TEXT] = "", more[40] = "";
	double v;
	for (size_t i = 0; i < shown; i++) {
		const char *sep = !i ? "" : i + 1 == shown && nt + 1 == shown ? " and " : ", ";
		sweep_value(who[i], SM_RPS, SS_AVG, &v);
		if (nl < sizeof(names))
			nl += (size_t)snprintf(names + nl, sizeof(names) - nl, "%s%s", sep, who[i]->name);
		if (rl < sizeof(rates))
			rl += (size_t)snprintf(rates + rl, sizeof(rates) - rl, "%s%.4g", sep, v);
	}
	if (nt + 1 > shown)
		snprintf(more, sizeof(more), " and %zu more", nt + 1 - shown);
	sweep_value(c, SM_RPS, SS_AVG, &v);
	if (rounding)
		summary_add(out, TONE_NORMAL, "best config", "%s%s tie at the highest request throughput within the "
			    "CSV's 2 decimals: %s%s req/s (no --objective)", names, more, rates, *more ? ", ..." : "");
	else
		summary_add(out, TONE_NORMAL, "best config", "%s%s tie at the highest request throughput, %.4g req/s "
			    "(no --objective)", names, more, v);
}

/* The best config: rank 1 by --objective, else the passing config with the highest
 * request throughput (naming those tied with it); or why there is none. */
static void best_summary(const struct sweep_set *s, struct summary *out)
{
	if (s->wl_mixed) { /* a best across models or endpoints compares unlike work */
		summary_add(out, TONE_WARN, "best config", "not chosen: the configs measure different workloads (%s "
			    "differ); compare levels within a series", s->wl_mixed);
		return;
	}
	bool by_obj;
	const struct sweep_cfg *c = sweep_best(s, &by_obj);
	size_t pass = 0;
	for (size_t i = 0; i < s->ncfg; i++)
		pass += s->cfg[i].pass;
	if (!c) {
		summary_add(out, TONE_WARN, "best config", by_obj ? "none ranked: no config has every objective metric"
							   : pass ? "none: no passing config has a request throughput"
								  : "none: no config passes the constraints");
		return;
	}
	double rps = 0;
	bool has_rps = sweep_value(c, SM_RPS, SS_AVG, &rps), tied;
	if (by_obj)
		ranked_summary(s, c, out);
	else if (s->ncfg == 1) /* nothing to be best against */
		summary_add(out, TONE_NORMAL, "best config", "%s: the only config (request throughput %.4g req/s)",
			    c->name, rps);
	else if (has_rps && sweep_best_ties(s, c, NULL, 0, &tied))
		tie_summary(s, c, out);
	else
		summary_add(out, TONE_NORMAL, "best config",
			    "%s: highest request throughput%s%.4g req/s (no --objective)", c->name,
			    has_rps ? " " : "", has_rps ? rps : 0);
}

/* A NAT fit of npt concurrencies in words: "R² 0.996, +0.142 s per unit of concurrency",
 * "R² 0.996 on 5 points, ..." when it fitted fewer than npt, no R² of 2 points (a line
 * fits any two); or why there is none. Short: both fits share a headline line. */
static void fit_words(const struct sweep_fit *f, size_t npt, char *buf, size_t n)
{
	if (!f->ok)
		snprintf(buf, n, "no fit (%s)", f->err ? f->err : "too few points");
	else if (f->nused <= 2)
		snprintf(buf, n, "%+.3g s per unit of concurrency from 2 points (R² not judged)", f->slope);
	else if (f->nused < npt)
		snprintf(buf, n, "R² %.3f on %zu points, %+.3g s per unit of concurrency%s", f->r2, f->nused, f->slope,
			 f->poor ? " (below R² 0.7: the calculator stores none)" : "");
	else
		snprintf(buf, n, "R² %.3f, %+.3g s per unit of concurrency%s", f->r2, f->slope,
			 f->poor ? " (below R² 0.7: the calculator stores none)" : "");
}

/* Series, NAT calculators or Cerebras files the headline details; the others are counted on one line. */
#define SUMMARY_EACH 3

/* The order the headline details n items in: those with a verdict (verdict[i]) first, each group in its
 * own order, so that a verdict is not the one left out. The caller frees. */
static size_t *verdicts_first(const bool *verdict, size_t n)
{
	size_t *order = xcalloc(n + 1, sizeof(*order)), k = 0;
	for (size_t i = 0; i < n; i++)
		if (verdict[i])
			order[k++] = i;
	for (size_t i = 0; i < n; i++)
		if (!verdict[i])
			order[k++] = i;
	return order;
}

/* The items the headline leaves out: how many, how many of them have a verdict, their names. */
struct summary_more {
	size_t n, nverdict;
	char *names;
};

static void more_add(struct summary_more *m, const char *name, bool verdict)
{
	char *names = xasprintf("%s%s%s", m->names ? m->names : "", m->names ? ", " : "", name);
	free(m->names);
	m->names = names;
	m->n++;
	m->nverdict += verdict;
}

/* The line under key that counts what the headline left out ("and 1 more (see the cerebras view):
 * cb4/m3"), how many of them have a verdict (which: `verdict`) and their names, cut with an ellipsis
 * past the line's room; none when nothing was left out. */
static void more_summary(struct summary *out, const char *key, struct summary_more *m, const char *verdict,
			 const char *view)
{
	if (!m->n)
		return;
	char with[160] = "";
	if (m->nverdict)
		snprintf(with, sizeof(with), ", %zu with %s", m->nverdict, verdict);
	summary_add(out, m->nverdict ? TONE_WARN : TONE_NORMAL, key, "and %zu more%s (see the %s view): %s", m->n,
		    with, view, m->names);
	free(m->names);
}

/* path without its trailing "/file" (a job or model directory names the file it holds), copied. */
static char *dir_of(const char *path, const char *file)
{
	size_t n = strlen(path), f = strlen(file);
	if (n > f + 1 && path[n - f - 1] == '/' && strcmp(path + n - f, file) == 0)
		return xstrndup(path, n - f - 1);
	return xstrdup(path);
}

/* Whether a NAT calculator's GPU estimate for the p95 `what` target was recomputed (every target given):
 * then that estimate or why there is none; else the file's stored one, the calculator's final answer
 * (formats.md §4.2), marked as stored with what recomputing it needs. False: no line (no target and
 * nothing stored). */
static bool nat_estimate_summary(const struct sweep_set *s, const char *what, const char *target_opt, double target,
				 const struct sweep_estimate *e, bool has_stored, double stored, struct summary *out)
{
	char need[96], g[40];
	sweep_sizing_needs(s, target_opt, target, need, sizeof(need));
	if (*need && !has_stored)
		return false;
	if (*need)
		summary_add(out, TONE_NORMAL, "GPU estimate", "%s GPUs by p95 %s, stored by the calculator "
			    "(recomputing it needs %s)", sweep_num_text(stored, 2, g, sizeof(g)), what, need);
	else if (e->ok)
		summary_add(out, TONE_NORMAL, "GPU estimate", "%s GPUs for %g users at p95 %s %g s",
			    sweep_num_text(e->gpus, 2, g, sizeof(g)), s->target_users, what, target);
	else
		summary_add(out, TONE_WARN, "GPU estimate", "n/a for p95 %s %g s: %s", what, target,
			    e->err ? e->err : "no estimate");
	return true;
}

/* A NAT calculator (name: its job directory, or NULL when it is the run's only input): the fits of p95 LLM
 * latency and workflow runtime against concurrency, and the GPU estimates, stored or recomputed, or
 * what they need. */
static void nat_calc_summary(const struct sweep_set *s, const struct nat_calc *n, const char *name,
			     struct summary *out)
{
	char lat[128], rt[128];
	fit_words(&n->c_fit_lat, n->npt, lat, sizeof(lat));
	fit_words(&n->c_fit_rt, n->npt, rt, sizeof(rt));
	summary_add(out, TONE_NORMAL, "GPU sizing", "%s%sNAT calculator%s, %zu concurrenc%s: p95 LLM latency %s; "
		    "p95 workflow runtime %s", name ? name : "", name ? ": " : "", n->merged ? " (merged)" : "", n->npt,
		    n->npt == 1 ? "y" : "ies", lat, rt);
	bool said = nat_estimate_summary(s, "LLM latency", "--target-latency", s->target_latency, &n->c_est_lat,
					 n->has_s_gpu_lat, n->s_gpu_lat, out);
	said |= nat_estimate_summary(s, "workflow runtime", "--target-runtime", s->target_runtime, &n->c_est_rt,
				     n->has_s_gpu_rt, n->s_gpu_rt, out);
	if (said)
		return;
	char need[128];
	sweep_sizing_needs(s, "--target-latency or --target-runtime", s->target_latency > 0 || s->target_runtime > 0,
			   need, sizeof(need));
	summary_add(out, TONE_NORMAL, "GPU estimate", "n/a: needs %s", need);
}

/* A fit below R² 0.7 that is not flat (a flat one is exact: rules.c rule_poor_fit). */
static bool poor_fit(const struct sweep_fit *f)
{
	return f->ok && f->poor && !f->flat;
}

/* A NAT calculator has a verdict: a poor fit, or no GPU estimate for a target given. */
static bool nat_has_verdict(const struct sweep_set *s, const struct nat_calc *n)
{
	bool targets = s->target_users > 0 && s->test_gpus > 0;
	return poor_fit(&n->c_fit_lat) || poor_fit(&n->c_fit_rt) ||
	       (targets && s->target_latency > 0 && !n->c_est_lat.ok) ||
	       (targets && s->target_runtime > 0 && !n->c_est_rt.ok);
}

/* The NAT calculators the headline speaks for (a merge speaks for its jobs). */
static size_t nat_top_count(const struct sweep_set *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nnat; i++)
		n += s->nat[i].merge_into < 0;
	return n;
}

/* Whether the headline names each NAT calculator and Cerebras file: the run holds more than one
 * input (several of them, or one beside another kind or a GenAI-Perf sweep). */
static bool inputs_named(const struct sweep_set *s)
{
	return nat_top_count(s) + s->ncb + (s->ncfg > 0) > 1;
}

/* NAT calculators (a merge speaks for its jobs), those with a verdict first, SUMMARY_EACH of them in
 * full, each named by its job directory when the run has other inputs (inputs_named); the others
 * counted and named. */
static void nat_summary(const struct sweep_set *s, struct summary *out)
{
	size_t *idx = xcalloc(s->nnat + 1, sizeof(*idx)), n = 0;
	bool *verdict = xcalloc(s->nnat + 1, sizeof(*verdict));
	for (size_t i = 0; i < s->nnat; i++)
		if (s->nat[i].merge_into < 0) {
			verdict[n] = nat_has_verdict(s, &s->nat[i]);
			idx[n++] = i;
		}
	size_t *order = verdicts_first(verdict, n);
	struct summary_more more = { 0 };
	for (size_t k = 0; k < n; k++) {
		const struct nat_calc *c = &s->nat[idx[order[k]]];
		char *name = dir_of(c->path, "calc_runner_output.json");
		if (k < SUMMARY_EACH)
			nat_calc_summary(s, c, inputs_named(s) ? name : NULL, out);
		else
			more_add(&more, name, verdict[order[k]]);
		free(name);
	}
	more_summary(out, "GPU sizing", &more, "a poor fit or no GPU estimate", "sizing");
	free(order);
	free(verdict);
	free(idx);
}

/* Ordinals the merge rule cannot combine: why, and the stored rate if any. */
static void cb_unmerged_summary(const struct cb_perf *p, const char *prefix, struct summary *out)
{
	char stored[64] = "", v[40];
	if (p->has_sps)
		snprintf(stored, sizeof(stored), "; stored %s samples/s",
			 sweep_num_text(p->samples_per_sec, 2, v, sizeof(v)));
	summary_add(out, TONE_NORMAL, "Cerebras", "%srate n/a: merge rule not applied over %zu ordinal%s (%s)%s",
		    prefix, p->nord, p->nord == 1 ? "" : "s", p->c_why, stored);
}

/* A Cerebras file without ordinals, a usable samples_per_sec or global rate: which of those
 * it lacks, and which it has but cannot use ("samples_per_sec unusable: not a finite number"). */
static void cb_no_rate_summary(const struct cb_perf *p, const char *prefix, struct summary *out)
{
	if (!p->bad_sps && !p->bad_global) {
		summary_add(out, TONE_WARN, "Cerebras", "%srate n/a: no samples_per_sec, global rate or ordinals",
			    prefix);
		return;
	}
	char sps[64] = "no samples_per_sec", global[64] = "no global rate";
	if (p->bad_sps)
		snprintf(sps, sizeof(sps), "samples_per_sec unusable (%s)", p->bad_sps);
	if (p->bad_global)
		snprintf(global, sizeof(global), "global_rate unusable (%s)", p->bad_global);
	summary_add(out, TONE_WARN, "Cerebras", "%srate n/a: %s, %s, no ordinals", prefix, sps, global);
}

/* A Cerebras file (prefix: "NAME: " naming it beside other inputs, else ""): the rate (the merge
 * rule's over the ordinals, else the stored one), whether the stored aggregate disagrees, the FLOPs
 * utilization, the slowest slow ordinal. */
static void cb_file_summary(const struct cb_perf *p, const char *prefix, struct summary *out)
{
	char v[40];
	if (p->has_c)
		summary_add(out, p->mismatch ? TONE_WARN : TONE_NORMAL, "Cerebras", "%s%s samples/s over %zu ordinal%s "
			    "(merge rule)%s", prefix, sweep_num_text(p->c_sps, 2, v, sizeof(v)), p->nord,
			    p->nord == 1 ? "" : "s", p->mismatch ? "; the stored aggregate disagrees" : "");
	else if (p->nord)
		cb_unmerged_summary(p, prefix, out);
	else if (p->has_sps)
		summary_add(out, TONE_NORMAL, "Cerebras", "%s%s samples/s (stored; no ordinals)", prefix,
			    sweep_num_text(p->samples_per_sec, 2, v, sizeof(v)));
	else if (p->has_global)
		summary_add(out, TONE_NORMAL, "Cerebras", "%sglobal rate %s samples/s (trainer)", prefix,
			    sweep_num_text(p->global_rate, 2, v, sizeof(v)));
	else if (p->zero_rate)
		summary_add(out, TONE_WARN, "Cerebras", "%srate n/a: 0 samples/s over 0 s is the Model Zoo's "
			    "'not measured'; no ordinals", prefix);
	else
		cb_no_rate_summary(p, prefix, out);
	if (p->has_flops)
		summary_add(out, TONE_NORMAL, "FLOPs util", "%s%% (performance.json's flops_utilization)",
			    sweep_num_text(p->flops_util, 2, v, sizeof(v)));
	if (p->slowest >= 0 && (size_t)p->slowest < p->nord) {
		char pct[40];
		sweep_cb_rel_text(p->ord[p->slowest].rel_rate, pct, sizeof(pct));
		summary_add(out, TONE_WARN, "slow ordinal", "ordinal %ld at %s%% of the other ordinals' median rate",
			    p->slowest, pct);
	}
}

/* A Cerebras file has a verdict: a slow ordinal, a stored aggregate that disagrees, or no rate at all. */
static bool cb_has_verdict(const struct cb_perf *p)
{
	return p->mismatch || p->slowest >= 0 || (!p->has_c && !p->nord && !p->has_sps && !p->has_global);
}

/* Cerebras performance.json files, those with a verdict first, SUMMARY_EACH of them in full, each named
 * by its model directory when the run has other inputs (inputs_named); the others counted and named. */
static void cb_summary(const struct sweep_set *s, struct summary *out)
{
	bool *verdict = xcalloc(s->ncb + 1, sizeof(*verdict));
	for (size_t i = 0; i < s->ncb; i++)
		verdict[i] = cb_has_verdict(&s->cb[i]);
	size_t *order = verdicts_first(verdict, s->ncb);
	struct summary_more more = { 0 };
	for (size_t k = 0; k < s->ncb; k++) {
		const struct cb_perf *p = &s->cb[order[k]];
		char *file_dir = dir_of(p->path, "performance.json"), *name = dir_of(file_dir, "performance");
		char *prefix = xasprintf("%s: ", name);
		if (k < SUMMARY_EACH)
			cb_file_summary(p, inputs_named(s) ? prefix : "", out);
		else
			more_add(&more, name, verdict[order[k]]);
		free(prefix);
		free(name);
		free(file_dir);
	}
	more_summary(out, "Cerebras", &more, "a slow ordinal, a disagreeing aggregate or no rate", "cerebras");
	free(order);
	free(verdict);
}

/* GenAI-Perf series, those with a knee or a level measured twice first, SUMMARY_EACH of them in full,
 * each named when there are several; the others counted and named. */
static void series_all_summary(const struct sweep_set *s, struct summary *out)
{
	bool *verdict = xcalloc(s->nseries + 1, sizeof(*verdict));
	for (size_t i = 0; i < s->nseries; i++)
		verdict[i] = s->series[i].knee >= 0 || s->series[i].twice >= 0;
	size_t *order = verdicts_first(verdict, s->nseries);
	struct summary_more more = { 0 };
	for (size_t k = 0; k < s->nseries; k++) {
		if (k < SUMMARY_EACH)
			series_summary(s, &s->series[order[k]], s->nseries > 1, out);
		else
			more_add(&more, s->series[order[k]].name, verdict[order[k]]);
	}
	more_summary(out, "series", &more, "a throughput knee or a level measured twice", "sweep");
	free(order);
	free(verdict);
}

char *sweep_num_text(double v, int dec, char *buf, size_t n)
{
	if (fabs(v) >= 1e15)
		return units_fixed(v, dec, buf, n);
	numfmt_nonzero(v, dec, buf, n);
	return buf;
}

/* The directories a loader could not list and the level or job files that gave nothing:
 * whatever they hold is missing from the verdicts that follow. */
static void unread_summary(const struct sweep_set *s, struct summary *out)
{
	if (!s->nunread)
		return;
	const struct sweep_unread *u = &s->unread[0];
	bool nat = false, genai = false, file = false, dir = false;
	for (size_t i = 0; i < s->nunread; i++) {
		nat |= s->unread[i].nat;
		genai |= !s->unread[i].nat;
		file |= s->unread[i].file;
		dir |= !s->unread[i].file;
	}
	const char *what = nat && genai ? "config or sizing job" : nat ? "sizing job" : "config";
	if (s->nunread == 1)
		summary_add(out, TONE_WARN, "not read", "%s (%s): any %s in it is left out of the verdicts below",
			    u->path, u->why, what);
	else
		summary_add(out, TONE_WARN, "not read", "%zu %s, the first %s (%s): any %s in them is left out of the "
			    "verdicts below", s->nunread, file && dir ? "paths" : file ? "files" : "directories",
			    u->path, u->why, what);
}

/* The sweep at a glance: configs, each series' stimulus and levels and its knee, the
 * best config (by --objective, else by request throughput) and the constraints; then
 * NAT sizing and Cerebras rates. */
static void sweep_summary(struct run *run, struct summary *out)
{
	struct sweep_set *s = run->sweep ? sweep_derived(run) : NULL;
	if (!s)
		return;
	unread_summary(s, out);
	nat_summary(s, out);
	cb_summary(s, out);
	if (s->ncfg == 0)
		return;
	summary_add(out, s->wl_mixed ? TONE_WARN : TONE_NORMAL, "inference sweep", "%zu config%s in %zu series "
		    "(GenAI-Perf%s%s%s); Sweep pane: 8", s->ncfg, s->ncfg == 1 ? "" : "s", s->nseries,
		    s->wl_mixed ? "; different workloads: " : "", s->wl_mixed ? s->wl_mixed : "",
		    s->wl_mixed ? " differ" : "");
	series_all_summary(s, out);
	best_summary(s, out);
	size_t pass = 0;
	for (size_t i = 0; i < s->ncfg; i++)
		pass += s->cfg[i].pass;
	char dropped[SUMMARY_TEXT] = "";
	if (s->con_unjudged)
		snprintf(dropped, sizeof(dropped), "%s%s not judged (%s)", s->ncon ? "; " : "", s->con_unjudged,
			 sweep_con_unjudged_why(s));
	if (s->ncon)
		summary_add(out, pass == s->ncfg ? TONE_GOOD : TONE_BAD, "constraints",
			    "%zu of %zu configs pass (%zu constraint%s)%s", pass, s->ncfg, s->ncon,
			    s->ncon == 1 ? "" : "s", dropped);
	else if (s->con_unjudged)
		summary_add(out, TONE_WARN, "constraints", "%s", dropped);
	else
		summary_add(out, TONE_NORMAL, "constraints", "none given (e.g. --constraint 'ttft_p99<500')");
}

static const struct tab_def sweep_tabs[] = {
	{ 8, "Sweep", TAB_SWEEP, NULL, sweep_tab_has_data, NULL, NULL },
};

const struct subsystem sub_sweep = {
	.name = "sweep",
	.loaders = sweep_loaders,
	.nloaders = ARRAY_LEN(sweep_loaders),
	.views = sweep_views,
	.nviews = SWEEP_NVIEWS,
	.rules = sweep_rules,
	.nrules = SWEEP_NRULES,
	.cmds = sweep_cmds,
	.ncmds = ARRAY_LEN(sweep_cmds),
	.tabs = sweep_tabs,
	.ntabs = ARRAY_LEN(sweep_tabs),
	.finalize = sweep_finalize,
	.has_data = sweep_has_data,
	.view_has_data = sweep_view_has_data,
	.summary = sweep_summary,
	.unjudged = sweep_unjudged,
	.free = sweep_free,
};
