/* SPDX-License-Identifier: MIT */
/* analysis_rank.c: objectives and constraints over the sweep configs, like GenAI-Perf's
 * Results API: "ttft_p99:1,itl_p90:3" gives each config the mean weighted percentage
 * gain against every other config (latencies lower-is-better); constraints such as
 * "ttft_p99<10" mark configs passing or failing, and passing configs rank first. Terms
 * name request metrics or the run's GPU telemetry metrics ("gpu_power_usage_p99",
 * mean over the config's GPUs). Set from --objective/--constraint when the sweep is
 * created (syntax checked by src/cli.c, telemetry names resolved after loading), and
 * from the UI's :objective / :constraint (which re-rank at once). A constraint on a
 * metric no config has is not judged (s->con_unjudged); a config lacking a metric that
 * others have fails it (n/a), as a config without the telemetry does. Without an objective
 * the best config is the passing one with the highest request throughput, and those that tie
 * with it, equal or within a CSV's rounding, are named beside it (sweep_best_ties). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/registry.h"
#include "model/run.h"
#include "model/sweep/sweep.h"
#include "model/sweep/rank.h"
#include "model/text.h"
#include "model/xalloc.h"

/* ---------------------------------------------------------------------------------
 * Metric references: a request metric ("ttft_p99", "request_throughput", or its sweep
 * column's name "ttft_p99_ms"), or a GPU telemetry metric ("gpu_power_usage_p99"; no
 * stat suffix means avg), resolved against the loaded run's telemetry rows. */

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static void trim(const char **s, size_t *n)
{
	while (*n && isspace((unsigned char)**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && isspace((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

static bool stat_parse(const char *s, size_t n, enum sweep_stat *st)
{
	for (int k = 0; k < SS_N; k++)
		if (strlen(sweep_stat_name(k)) == n && strncasecmp(s, sweep_stat_name(k), n) == 0) {
			*st = k;
			return true;
		}
	return false;
}

/* Whether s[0..n), its last '_' at us, is the sweep view's column of metric m at
 * statistic st: metric, statistic and m's unit suffix ("ttft_p99_ms", "latency_avg_ms"). */
static bool column_name(const char *s, size_t n, const char *us, enum sweep_metric m, enum sweep_stat st)
{
	const char *unit = sweep_metric_suffix(m), *stat = sweep_stat_name(st);
	size_t nu = strlen(unit), ns = strlen(stat), base = (size_t)(us - s);
	return nu && n - base == nu && strncasecmp(us, unit, nu) == 0 && base > ns + 1 && s[base - ns - 1] == '_' &&
	       strncasecmp(s + base - ns, stat, ns) == 0;
}

/* Syntax of one metric term at s[0..n) into r (r->tele malloc'd for telemetry). */
static int parse_ref(const char *s, size_t n, struct sweep_mref *r, char *err, size_t errn)
{
	trim(&s, &n);
	int show = (int)(n > 60 ? 60 : n);
	if (n == 0) {
		snprintf(err, errn, "empty metric term");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!ident_char(s[i])) {
			snprintf(err, errn, "'%.*s' is not a metric name (e.g. ttft_p99, itl_p90, "
				 "rps, gpu_power_usage_avg)", show, s);
			return -1;
		}
	r->tele = NULL;
	if (sweep_metric_parse(s, n, &r->m, &r->st))
		return 0;
	const char *us = memrchr(s, '_', n);
	enum sweep_metric m;
	enum sweep_stat st;
	if (us && sweep_metric_parse(s, (size_t)(us - s), &m, &st)) {
		if (column_name(s, n, us, m, st)) {
			r->m = m;
			r->st = st;
			return 0;
		}
		const char *stats = sweep_metric_info(m)->system
					    ? "no statistic but avg"
					    : "avg, min, max, std, p1, p5, p10, p25, p50, p75, p90, p95 or p99";
		snprintf(err, errn, "'%.*s': %s takes %s", show, s, sweep_metric_info(m)->alias, stats);
		return -1;
	}
	r->st = SS_AVG;
	size_t base = n;
	if (us && us > s && stat_parse(us + 1, n - (size_t)(us + 1 - s), &r->st))
		base = (size_t)(us - s);
	r->tele = xstrndup(s, base);
	for (char *c = r->tele; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return 0;
}

static void ref_text(const struct sweep_mref *r, char *out, size_t n)
{
	snprintf(out, n, "%s_%s", r->tele ? r->tele : sweep_metric_info(r->m)->alias,
		 sweep_stat_name(r->st));
}

/* Telemetry metrics are lower-better except utilization, free memory and clocks. */
static bool ref_lower_better(const struct sweep_mref *r)
{
	if (!r->tele)
		return sweep_metric_info(r->m)->lower_better;
	return !strstr(r->tele, "utilization") && !strstr(r->tele, "free") &&
	       !strstr(r->tele, "clock");
}

/* Check a telemetry reference against the run's GPU rows; 0 or -1 with a message. */
static int resolve_ref(const struct sweep_set *s, const struct sweep_mref *r, char *err,
		       size_t errn)
{
	if (!r->tele)
		return 0;
	for (size_t i = 0; i < s->ngpu; i++)
		if (strcasecmp(s->gpu[i].metric, r->tele) == 0)
			return 0;
	/* the run's distinct telemetry names, in order of appearance (at most 12) */
	const char *names[12];
	size_t nn = 0;
	for (size_t i = 0; i < s->ngpu && nn < ARRAY_LEN(names); i++) {
		bool seen = false;
		for (size_t j = 0; j < nn && !seen; j++)
			seen = strcmp(names[j], s->gpu[i].metric) == 0;
		if (!seen)
			names[nn++] = s->gpu[i].metric;
	}
	char have[200] = "";
	size_t len = 0;
	for (size_t j = 0; j < nn && len < sizeof(have); j++)
		len += (size_t)snprintf(have + len, sizeof(have) - len, "%s%s", j ? ", " : "", names[j]);
	char *safe = text_sanitize_dup(have, 0), term[96];
	ref_text(r, term, sizeof(term));
	snprintf(err, errn, "unknown metric '%s': not a request metric, and %s%s", term,
		 s->ngpu ? "the run's GPU telemetry has only " : "the run has no GPU telemetry",
		 s->ngpu ? safe : "");
	free(safe);
	return -1;
}

/* Per-config values of a reference: request metrics via sweep_value; telemetry the
 * mean of the stat over the config's GPUs. vals/has hold ncfg entries. */
static void ref_values(const struct sweep_set *s, const struct sweep_mref *r, double *vals,
		       bool *has)
{
	if (!r->tele) {
		for (size_t i = 0; i < s->ncfg; i++)
			has[i] = sweep_value(&s->cfg[i], r->m, r->st, &vals[i]);
		return;
	}
	size_t *cnt = xcalloc(s->ncfg + 1, sizeof(*cnt));
	for (size_t i = 0; i < s->ncfg; i++)
		vals[i] = 0;
	for (size_t g = 0; g < s->ngpu; g++) {
		const struct sweep_gpu *row = &s->gpu[g];
		if (row->cfg < s->ncfg && row->has[r->st] && isfinite(row->v[r->st]) &&
		    strcasecmp(row->metric, r->tele) == 0) {
			vals[row->cfg] += row->v[r->st];
			cnt[row->cfg]++;
		}
	}
	for (size_t i = 0; i < s->ncfg; i++) {
		has[i] = cnt[i] > 0;
		if (has[i])
			vals[i] /= (double)cnt[i];
	}
	free(cnt);
}

/* Whether any config has a value for r: a constraint on a metric no config has is not
 * judged (a non-streaming run has no ITL), never a failure of every config. */
static bool any_config_has(const struct sweep_set *s, const struct sweep_mref *r)
{
	double *v = xmalloc((s->ncfg + 1) * sizeof(*v));
	bool *has = xmalloc((s->ncfg + 1) * sizeof(*has)), any = false;
	ref_values(s, r, v, has);
	for (size_t i = 0; i < s->ncfg && !any; i++)
		any = has[i];
	free(v);
	free(has);
	return any;
}

static void free_constraints(struct sweep_set *s)
{
	for (size_t i = 0; i < s->ncon; i++) {
		free(s->con[i].ref.tele);
		free(s->con[i].text);
	}
	free(s->con);
	s->con = NULL;
	s->ncon = 0;
}

/* ---------------------------------------------------------------------------------
 * Constraints and ranking */

static const char *op_text(enum sweep_op op)
{
	static const char *const t[] = { "<", "<=", ">", ">=" };
	return t[op];
}

static bool con_holds(const struct sweep_constraint *k, double v)
{
	switch (k->op) {
	case SOP_LT: return v < k->value;
	case SOP_LE: return v <= k->value;
	case SOP_GT: return v > k->value;
	case SOP_GE: return v >= k->value;
	}
	return false;
}

static void add_failure(struct sweep_cfg *c, const struct sweep_constraint *k, bool have, double v)
{
	char val[48];
	if (have)
		snprintf(val, sizeof(val), "%.6g", v);
	else
		snprintf(val, sizeof(val), "n/a");
	char *f = xasprintf("%s%s%s (%s)", c->failed ? c->failed : "", c->failed ? "; " : "",
			    k->text, val);
	free(c->failed);
	c->failed = f;
}

static void evaluate_constraints(struct sweep_set *s)
{
	double *v = xmalloc((s->ncfg + 1) * sizeof(*v));
	bool *has = xmalloc((s->ncfg + 1) * sizeof(*has));
	for (size_t i = 0; i < s->ncfg; i++) {
		free(s->cfg[i].failed);
		s->cfg[i].failed = NULL;
		s->cfg[i].pass = true;
	}
	for (size_t j = 0; j < s->ncon; j++) {
		const struct sweep_constraint *k = &s->con[j];
		ref_values(s, &k->ref, v, has);
		for (size_t i = 0; i < s->ncfg; i++)
			if (!has[i] || !con_holds(k, v[i])) {
				s->cfg[i].pass = false;
				add_failure(&s->cfg[i], k, has[i], v[i]);
			}
	}
	free(v);
	free(has);
}

/* Per-objective values, ncfg per objective: val[k * ncfg + i]. */
struct obj_values {
	double *val;
	bool *has;
};

/* Model Analyzer / GenAI-Perf weighted gain of config a over b, in percent; both have
 * every objective metric (score_configs). */
static double weighted_gain(const struct sweep_set *s, const struct obj_values *ov, size_t a,
			    size_t b, bool *any)
{
	double wsum = 0, gain = 0;
	for (size_t k = 0; k < s->nobj; k++)
		wsum += s->obj[k].w;
	*any = false;
	for (size_t k = 0; k < s->nobj; k++) {
		const struct sweep_objective *o = &s->obj[k];
		size_t ia = k * s->ncfg + a, ib = k * s->ncfg + b;
		double va = ov->val[ia], vb = ov->val[ib];
		double mid = (va + vb) / 2;
		if (mid == 0)
			continue;
		double d = (va - vb) / mid;
		if (ref_lower_better(&o->ref))
			d = -d;
		gain += o->w / wsum * d * 100;
		*any = true;
	}
	return gain;
}

static int cmp_rank(const void *pa, const void *pb, void *ud)
{
	const struct sweep_set *rank_set = ud;
	const struct sweep_cfg *a = &rank_set->cfg[*(const size_t *)pa];
	const struct sweep_cfg *b = &rank_set->cfg[*(const size_t *)pb];
	if (a->pass != b->pass)
		return a->pass ? -1 : 1;
	if (a->has_score != b->has_score)
		return a->has_score ? -1 : 1;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	return (ia > ib) - (ia < ib);
}

/* Whether config i has a value for every objective metric. */
static bool has_every_objective(const struct sweep_set *s, const struct obj_values *ov, size_t i)
{
	for (size_t k = 0; k < s->nobj; k++)
		if (!ov->has[k * s->ncfg + i])
			return false;
	return true;
}

/* Scores of the configs with every objective metric, each against the others of its
 * workload (sweep_same_workload) that have them; a config lacking one stays unscored (unranked):
 * a score on fewer metrics would not be comparable. */
static void score_configs(struct sweep_set *s)
{
	size_t n = s->nobj * s->ncfg + 1;
	struct obj_values ov = { xmalloc(n * sizeof(double)), xmalloc(n * sizeof(bool)) };
	bool *full = xmalloc((s->ncfg + 1) * sizeof(*full));
	for (size_t k = 0; k < s->nobj; k++)
		ref_values(s, &s->obj[k].ref, ov.val + k * s->ncfg, ov.has + k * s->ncfg);
	for (size_t i = 0; i < s->ncfg; i++)
		full[i] = has_every_objective(s, &ov, i);
	for (size_t i = 0; i < s->ncfg; i++) {
		struct sweep_cfg *c = &s->cfg[i];
		double sum = 0;
		size_t cnt = 0, peers = 0;
		if (!full[i])
			continue;
		for (size_t j = 0; j < s->ncfg; j++) {
			bool any;
			if (j == i || !full[j] || !sweep_same_workload(s, c, &s->cfg[j]))
				continue;
			peers++;
			double g = weighted_gain(s, &ov, i, j, &any);
			if (any) {
				sum += g;
				cnt++;
			}
		}
		if (cnt || peers == 0) {
			c->score = cnt ? sum / (double)cnt : 0;
			c->has_score = true;
		}
	}
	free(full);
	free(ov.val);
	free(ov.has);
}

static void rank_configs(struct sweep_set *s)
{
	for (size_t i = 0; i < s->ncfg; i++) {
		s->cfg[i].has_score = false;
		s->cfg[i].score = 0;
		s->cfg[i].rank = 0;
	}
	if (!s->nobj)
		return;
	score_configs(s);
	size_t *ord = xmalloc((s->ncfg + 1) * sizeof(*ord));
	for (size_t i = 0; i < s->ncfg; i++)
		ord[i] = i;
	qsort_r(ord, s->ncfg, sizeof(*ord), cmp_rank, s);
	for (size_t i = 0; i < s->ncfg; i++) { /* the rank among the configs of its workload */
		struct sweep_cfg *c = &s->cfg[ord[i]];
		if (!c->has_score)
			continue;
		if (!s->wl_mixed) { /* one workload: its place in the order */
			c->rank = (int)i + 1;
			continue;
		}
		c->rank = 1;
		for (size_t j = 0; j < i; j++)
			c->rank += sweep_same_workload(s, c, &s->cfg[ord[j]]);
	}
	free(ord);
}

const struct sweep_cfg *sweep_best(const struct sweep_set *s, bool *by_objective)
{
	const struct sweep_cfg *best = NULL;
	double bv = 0;
	if (by_objective)
		*by_objective = s->nobj > 0;
	if (s->wl_mixed) /* a best across models or endpoints compares unlike work */
		return NULL;
	for (size_t i = 0; i < s->ncfg; i++) {
		const struct sweep_cfg *c = &s->cfg[i];
		double v;
		if (s->nobj) {
			if (c->rank == 1)
				return c;
		} else if (c->pass && sweep_value(c, SM_RPS, SS_AVG, &v) && (!best || v > bv)) {
			best = c;
			bv = v;
		}
	}
	return best;
}

/* Request throughput v (rounding u) may be as high as bv (rounding bu): equal within 1e-9
 * relative, or, with a rounding, above bv's lowest (beyond float noise). */
static bool may_tie(double v, double u, double bv, double bu)
{
	double tol = 1e-9 * fabs(bv);
	return u + bu > 0 ? v + u > bv - bu + tol : fabs(v - bv) <= tol;
}

size_t sweep_best_ties(const struct sweep_set *s, const struct sweep_cfg *best, const struct sweep_cfg **tie,
		       size_t max, bool *rounding)
{
	double bv, v;
	size_t k = 0;
	*rounding = false;
	if (s->nobj || !best || !sweep_value(best, SM_RPS, SS_AVG, &bv))
		return 0;
	double bu = sweep_value_rounding(best, SM_RPS, SS_AVG);
	for (size_t i = 0; i < s->ncfg; i++) {
		const struct sweep_cfg *c = &s->cfg[i];
		if (c == best || !c->pass || !sweep_value(c, SM_RPS, SS_AVG, &v))
			continue;
		double u = sweep_value_rounding(c, SM_RPS, SS_AVG);
		if (!may_tie(v, u, bv, bu))
			continue;
		*rounding |= u + bu > 0;
		if (k < max)
			tie[k] = c;
		k++;
	}
	return k;
}

void sweep_rerank(struct sweep_set *s)
{
	evaluate_constraints(s);
	rank_configs(s);
}

static void free_objectives(struct sweep_objective *o, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(o[i].ref.tele);
		free(o[i].text);
	}
	free(o);
}

static int parse_objectives(const char *spec, struct sweep_objective **out, size_t *nout,
			    char *err, size_t errn)
{
	*out = NULL;
	*nout = 0;
	const char *p = spec;
	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *colon = memchr(p, ':', len);
		size_t mlen = colon ? (size_t)(colon - p) : len;
		struct sweep_objective o = { .w = 1 };
		if (parse_ref(p, mlen, &o.ref, err, errn) < 0)
			goto fail;
		if (colon) {
			char buf[64], *e;
			snprintf(buf, sizeof(buf), "%.*s", (int)(len - mlen - 1), colon + 1);
			o.w = strtod(buf, &e);
			while (isspace((unsigned char)*e))
				e++;
			if (e == buf || *e || !(o.w > 0) || !isfinite(o.w)) {
				free(o.ref.tele);
				snprintf(err, errn, "weight '%s' of '%.*s' must be a number > 0", buf,
					 (int)(len > 60 ? 60 : len), p);
				goto fail;
			}
		}
		char name[96];
		ref_text(&o.ref, name, sizeof(name));
		o.text = xasprintf("%s:%g", name, o.w);
		*out = xrealloc(*out, (*nout + 1) * sizeof(**out));
		(*out)[(*nout)++] = o;
		p = end ? end + 1 : NULL;
		if (p && !*p) {
			snprintf(err, errn, "empty metric term after the last ','");
			goto fail;
		}
	}
	return 0;
fail:
	free_objectives(*out, *nout);
	*out = NULL;
	*nout = 0;
	return -1;
}

static int parse_constraint(const char *spec, struct sweep_constraint *k, char *err, size_t errn)
{
	const char *op = strpbrk(spec, "<>");
	if (!op) {
		snprintf(err, errn, "'%s': expected METRIC<VALUE, <=, > or >= (e.g. ttft_p99<10)", spec);
		return -1;
	}
	if (parse_ref(spec, (size_t)(op - spec), &k->ref, err, errn) < 0)
		return -1;
	const char *v = op + 1;
	if (*v == '=') {
		k->op = *op == '<' ? SOP_LE : SOP_GE;
		v++;
	} else
		k->op = *op == '<' ? SOP_LT : SOP_GT;
	char *e;
	k->value = strtod(v, &e);
	while (isspace((unsigned char)*e))
		e++;
	if (e == v || *e || !isfinite(k->value)) {
		free(k->ref.tele);
		k->ref.tele = NULL;
		snprintf(err, errn, "'%s': '%s' is not a number", spec, v);
		return -1;
	}
	char val[48], name[96];
	snprintf(val, sizeof(val), "%.10g", k->value);
	ref_text(&k->ref, name, sizeof(name));
	k->text = xasprintf("%s%s%s", name, op_text(k->op), val);
	return 0;
}

int sweep_objective_syntax(const char *spec, char *err, size_t errn)
{
	struct sweep_objective *o;
	size_t n;
	if (parse_objectives(spec ? spec : "", &o, &n, err, errn) < 0)
		return -1;
	free_objectives(o, n);
	return 0;
}

int sweep_constraint_syntax(const char *spec, char *err, size_t errn)
{
	struct sweep_constraint k = { 0 };
	if (parse_constraint(spec, &k, err, errn) < 0)
		return -1;
	free(k.ref.tele);
	free(k.text);
	return 0;
}

/* Objectives, constraints and sizing targets from the command line. Syntax errors
 * were already refused by src/cli.c (exit 2); still diagnosed here for other callers.
 * Telemetry names are checked against the loaded run by sweep_rank_resolve(). */
void sweep_rank_from_opts(struct run *run, struct sweep_set *s)
{
	const struct opts *o = run->opts;
	if (!o)
		return;
	char err[200];
	if (o->objective && *o->objective &&
	    parse_objectives(o->objective, &s->obj, &s->nobj, err, sizeof(err)) < 0)
		diag_add(&run->diags, DIAG_ERROR, NULL, -1, -1, -1, "--objective: %s", err);
	for (size_t i = 0; i < o->nconstraints; i++) {
		struct sweep_constraint k = { 0 };
		if (parse_constraint(o->constraints[i], &k, err, sizeof(err)) < 0) {
			diag_add(&run->diags, DIAG_ERROR, NULL, -1, -1, -1, "--constraint: %s", err);
			continue;
		}
		s->con = xrealloc(s->con, (s->ncon + 1) * sizeof(*s->con));
		s->con[s->ncon++] = k;
	}
	s->target_users = o->target_users;
	s->target_latency = o->target_latency;
	s->target_runtime = o->target_runtime;
	s->test_gpus = o->test_gpus;
}

/* The diagnostic is the sweep family's (a reload in follow mode replaces it, as it
 * replaces the sweep that notes it again), though added after the family's finalize. */
static void note_ref_error(struct run *run, struct sweep_set *s, const char *opt, const char *err)
{
	size_t had = run->diags.n;
	diag_add(&run->diags, DIAG_ERROR, NULL, -1, -1, -1, "%s: %s (term ignored)", opt, err);
	diag_tag(&run->diags, had, sub_sweep.name);
	char *m = xasprintf("%s%s%s: %s (term ignored)", s->ref_errors ? s->ref_errors : "",
			    s->ref_errors ? "\n" : "", opt, err);
	free(s->ref_errors);
	s->ref_errors = m;
}

/* True, after a diagnostic and freeing ref and text, when ref names telemetry the run
 * does not have. */
static bool drop_unknown(struct run *run, struct sweep_set *s, const char *opt,
			 struct sweep_mref *ref, char *text)
{
	char err[300];
	if (resolve_ref(s, ref, err, sizeof(err)) == 0)
		return false;
	note_ref_error(run, s, opt, err);
	free(ref->tele);
	free(text);
	return true;
}

const char *sweep_con_unjudged_why(const struct sweep_set *s)
{
	return s->con_unjudged && strstr(s->con_unjudged, ", ") ? "no config has those metrics"
								: "no config has that metric";
}

/* A constraint dropped because no config has its metric: listed in s->con_unjudged. */
static void note_unjudged(struct sweep_set *s, const char *text)
{
	char *m = xasprintf("%s%s%s", s->con_unjudged ? s->con_unjudged : "", s->con_unjudged ? ", " : "", text);
	free(s->con_unjudged);
	s->con_unjudged = m;
}

void sweep_rank_resolve(struct run *run, struct sweep_set *s)
{
	if (s->refs_resolved)
		return;
	s->refs_resolved = true;
	size_t keep = 0;
	for (size_t i = 0; i < s->nobj; i++)
		if (!drop_unknown(run, s, "--objective", &s->obj[i].ref, s->obj[i].text))
			s->obj[keep++] = s->obj[i];
	s->nobj = keep;
	keep = 0;
	for (size_t i = 0; i < s->ncon; i++) {
		struct sweep_constraint *k = &s->con[i];
		char *text = xstrdup(k->text);
		if (drop_unknown(run, s, "--constraint", &k->ref, k->text)) {
			note_unjudged(s, text);
		} else if (!any_config_has(s, &k->ref)) {
			note_unjudged(s, text);
			free(k->ref.tele);
			free(k->text);
		} else
			s->con[keep++] = *k;
		free(text);
	}
	s->ncon = keep;
}

const char *sweep_ref_errors(struct run *run)
{
	if (!run->sweep)
		return NULL;
	sweep_derive(run);
	return run->sweep->ref_errors;
}

/* Parse and check the objectives against the run, then replace and re-rank. */
int sweep_set_objective(struct run *run, const char *spec, char *err, size_t errn)
{
	struct sweep_set *s = run->sweep;
	if (!s) {
		snprintf(err, errn, "no sweep loaded");
		return -1;
	}
	sweep_derive(run);
	struct sweep_objective *o;
	size_t n;
	if (parse_objectives(spec ? spec : "", &o, &n, err, errn) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (resolve_ref(s, &o[i].ref, err, errn) < 0) {
			free_objectives(o, n);
			return -1;
		}
	free_objectives(s->obj, s->nobj);
	s->obj = o;
	s->nobj = n;
	sweep_rerank(s);
	run_findings_reset(run);
	return 0;
}

/* True, with the refusal in err, when no config has the metric of k: it cannot be judged. */
static bool refuse_unmeasured(const struct sweep_set *s, const struct sweep_constraint *k, char *err,
			      size_t errn)
{
	if (any_config_has(s, &k->ref))
		return false;
	snprintf(err, errn, "%s not judged: no config has that metric", k->text);
	return true;
}

int sweep_add_constraint(struct run *run, const char *spec, char *err, size_t errn)
{
	struct sweep_set *s = run->sweep;
	if (!s) {
		snprintf(err, errn, "no sweep loaded");
		return -1;
	}
	sweep_derive(run);
	struct sweep_constraint k = { 0 };
	if (parse_constraint(spec, &k, err, errn) < 0)
		return -1;
	if (resolve_ref(s, &k.ref, err, errn) < 0 || refuse_unmeasured(s, &k, err, errn)) {
		free(k.ref.tele);
		free(k.text);
		return -1;
	}
	s->con = xrealloc(s->con, (s->ncon + 1) * sizeof(*s->con));
	s->con[s->ncon++] = k;
	sweep_rerank(s);
	run_findings_reset(run);
	return 0;
}

void sweep_clear_constraints(struct run *run)
{
	if (!run->sweep)
		return;
	free_constraints(run->sweep);
	sweep_rerank(run->sweep);
	run_findings_reset(run);
}

static void pass_summary(const struct sweep_set *s, char *msg, size_t n)
{
	size_t pass = 0;
	const struct sweep_cfg *best = s->nobj ? sweep_best(s, NULL) : NULL;
	for (size_t i = 0; i < s->ncfg; i++)
		pass += s->cfg[i].pass;
	char *name = best ? text_sanitize_dup(best->name, 0) : NULL;
	char *failed = best && best->failed ? text_sanitize_dup(best->failed, 0) : NULL;
	if (s->wl_mixed)
		snprintf(msg, n, "%zu of %zu configs pass %zu constraint%s; ranked within each workload (%s differ): "
			 "no best across them", pass, s->ncfg, s->ncon, s->ncon == 1 ? "" : "s", s->wl_mixed);
	else if (best && !best->pass)
		snprintf(msg, n, "%zu of %zu configs pass %zu constraint%s; none passes: rank 1 by the objective is %s "
			 "(fails %s)", pass, s->ncfg, s->ncon, s->ncon == 1 ? "" : "s", name, failed ? failed : "");
	else
		snprintf(msg, n, "%zu of %zu configs pass %zu constraint%s%s%s", pass, s->ncfg, s->ncon,
			 s->ncon == 1 ? "" : "s", best ? "; best: " : "", best ? name : "");
	free(failed);
	free(name);
}

int sweep_cmd_objective(struct run *run, const char *args, char *msg, size_t n)
{
	if (sweep_set_objective(run, args, msg, n) < 0)
		return -1;
	if (run->sweep->nobj == 0)
		snprintf(msg, n, "objective cleared; configs are unranked");
	else
		pass_summary(run->sweep, msg, n);
	return 0;
}

int sweep_cmd_constraint(struct run *run, const char *args, char *msg, size_t n)
{
	if (!run->sweep) {
		snprintf(msg, n, "no sweep loaded");
		return -1;
	}
	if (!args[strspn(args, " \t")]) {   /* a slipped Enter keeps the constraints: 'clear' clears */
		snprintf(msg, n, "usage: :constraint EXPR|clear, e.g. ttft_p99<10 ('clear' removes all; %zu in force)",
			 run->sweep->ncon);
		return -1;
	}
	if (strcmp(args, "clear") == 0)
		sweep_clear_constraints(run);
	else if (sweep_add_constraint(run, args, msg, n) < 0)
		return -1;
	pass_summary(run->sweep, msg, n);
	return 0;
}

void sweep_rank_free(struct sweep_set *s)
{
	free_objectives(s->obj, s->nobj);
	free_constraints(s);
	free(s->ref_errors);
	free(s->con_unjudged);
}
