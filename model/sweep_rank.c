/* SPDX-License-Identifier: MIT */
/* sweep_rank.c: objectives and constraints over the sweep configs, like GenAI-Perf's
 * Results API: "ttft_p99:1,itl_p90:3" gives each config the mean weighted percentage
 * gain against every other config (latencies lower-is-better); constraints such as
 * "ttft_p99<10" mark configs passing or failing, and passing configs rank first. Set
 * from --objective/--constraint when the sweep is created, and from the UI's
 * :objective / :constraint (which re-rank at once). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/run.h"
#include "model/sweep.h"
#include "model/sweep_rank.h"
#include "model/text.h"
#include "model/xalloc.h"

static void free_constraints(struct sweep_set *s)
{
	for (size_t i = 0; i < s->ncon; i++)
		free(s->con[i].text);
	free(s->con);
	s->con = NULL;
	s->ncon = 0;
}

/* ---------------------------------------------------------------------------------
 * Objectives and constraints */

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

static void evaluate_constraints(struct sweep_set *s)
{
	for (size_t i = 0; i < s->ncfg; i++) {
		struct sweep_cfg *c = &s->cfg[i];
		free(c->failed);
		c->failed = NULL;
		c->pass = true;
		for (size_t j = 0; j < s->ncon; j++) {
			const struct sweep_constraint *k = &s->con[j];
			double v;
			bool have = sweep_value(c, k->m, k->st, &v);
			if (have && con_holds(k, v))
				continue;
			c->pass = false;
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
	}
}

/* Model Analyzer / GenAI-Perf weighted gain of a over b, in percent. */
static double weighted_gain(const struct sweep_set *s, const struct sweep_cfg *a,
			    const struct sweep_cfg *b, bool *any)
{
	double wsum = 0, gain = 0;
	for (size_t k = 0; k < s->nobj; k++)
		wsum += s->obj[k].w;
	*any = false;
	for (size_t k = 0; k < s->nobj; k++) {
		const struct sweep_objective *o = &s->obj[k];
		double va, vb;
		if (!sweep_value(a, o->m, o->st, &va) || !sweep_value(b, o->m, o->st, &vb))
			continue;
		double mid = (va + vb) / 2;
		if (mid == 0)
			continue;
		double d = (va - vb) / mid;
		if (sweep_metric_info(o->m)->lower_better)
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

static void rank_configs(struct sweep_set *s)
{
	for (size_t i = 0; i < s->ncfg; i++) {
		struct sweep_cfg *c = &s->cfg[i];
		c->has_score = false;
		c->score = 0;
		c->rank = 0;
		if (!s->nobj)
			continue;
		double sum = 0;
		size_t n = 0;
		for (size_t j = 0; j < s->ncfg; j++) {
			bool any;
			if (j == i)
				continue;
			double g = weighted_gain(s, c, &s->cfg[j], &any);
			if (any) {
				sum += g;
				n++;
			}
		}
		if (n || s->ncfg == 1) {
			c->score = n ? sum / (double)n : 0;
			c->has_score = true;
		}
	}
	if (!s->nobj)
		return;
	size_t *ord = xmalloc((s->ncfg + 1) * sizeof(*ord));
	for (size_t i = 0; i < s->ncfg; i++)
		ord[i] = i;
	qsort_r(ord, s->ncfg, sizeof(*ord), cmp_rank, s);
	for (size_t i = 0; i < s->ncfg; i++)
		if (s->cfg[ord[i]].has_score)
			s->cfg[ord[i]].rank = (int)i + 1;
	free(ord);
}

void sweep_rerank(struct sweep_set *s)
{
	evaluate_constraints(s);
	rank_configs(s);
}

/* Parse "ttft_p99" at s[0..n) into m/st, with a message on failure. */
static int parse_metric_ref(const char *s, size_t n, enum sweep_metric *m, enum sweep_stat *st,
			    char *err, size_t errn)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (!sweep_metric_parse(s, n, m, st)) {
		snprintf(err, errn, "unknown metric '%.*s' (e.g. ttft_p99, itl_p90, latency_avg, "
			 "rps, tps)", (int)(n > 60 ? 60 : n), s);
		return -1;
	}
	return 0;
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
		if (parse_metric_ref(p, mlen, &o.m, &o.st, err, errn) < 0)
			goto fail;
		if (colon) {
			char buf[64], *e;
			snprintf(buf, sizeof(buf), "%.*s", (int)(len - mlen - 1), colon + 1);
			o.w = strtod(buf, &e);
			while (isspace((unsigned char)*e))
				e++;
			if (e == buf || *e || !(o.w > 0) || !isfinite(o.w)) {
				snprintf(err, errn, "weight '%s' must be a number > 0", buf);
				goto fail;
			}
		}
		*out = xrealloc(*out, (*nout + 1) * sizeof(**out));
		(*out)[(*nout)++] = o;
		p = end ? end + 1 : NULL;
	}
	return 0;
fail:
	free(*out);
	*out = NULL;
	*nout = 0;
	return -1;
}

static int parse_constraint(const char *spec, struct sweep_constraint *k, char *err, size_t errn)
{
	const char *op = strpbrk(spec, "<>");
	if (!op) {
		snprintf(err, errn, "expected METRIC<VALUE, <=, > or >= (e.g. ttft_p99<10)");
		return -1;
	}
	if (parse_metric_ref(spec, (size_t)(op - spec), &k->m, &k->st, err, errn) < 0)
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
		snprintf(err, errn, "'%s' is not a number", v);
		return -1;
	}
	char val[48];
	snprintf(val, sizeof(val), "%.10g", k->value);
	const struct sweep_metric_info *mi = sweep_metric_info(k->m);
	k->text = xasprintf("%s_%s%s%s", mi->alias, sweep_stat_name(k->st), op_text(k->op), val);
	return 0;
}

/* Objectives, constraints and sizing targets from the command line. */
void sweep_rank_from_opts(struct run *run, struct sweep_set *s)
{
	const struct opts *o = run->opts;
	if (!o)
		return;
	char err[160];
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
	free(s->obj);
	s->obj = o;
	s->nobj = n;
	sweep_rerank(s);
	run->findings_done = false;
	findings_free(&run->findings);
	return 0;
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
	s->con = xrealloc(s->con, (s->ncon + 1) * sizeof(*s->con));
	s->con[s->ncon++] = k;
	sweep_rerank(s);
	run->findings_done = false;
	findings_free(&run->findings);
	return 0;
}

void sweep_clear_constraints(struct run *run)
{
	if (!run->sweep)
		return;
	free_constraints(run->sweep);
	sweep_rerank(run->sweep);
	run->findings_done = false;
	findings_free(&run->findings);
}

static void pass_summary(const struct sweep_set *s, char *msg, size_t n)
{
	size_t pass = 0;
	const struct sweep_cfg *best = NULL;
	for (size_t i = 0; i < s->ncfg; i++) {
		pass += s->cfg[i].pass;
		if (s->cfg[i].rank == 1)
			best = &s->cfg[i];
	}
	char *name = best ? text_sanitize_dup(best->name, 0) : NULL;
	snprintf(msg, n, "%zu of %zu configs pass %zu constraint%s%s%s", pass, s->ncfg, s->ncon,
		 s->ncon == 1 ? "" : "s", best ? "; best: " : "", best ? name : "");
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
	if (!*args || strcmp(args, "clear") == 0)
		sweep_clear_constraints(run);
	else if (sweep_add_constraint(run, args, msg, n) < 0)
		return -1;
	pass_summary(run->sweep, msg, n);
	return 0;
}

void sweep_rank_free(struct sweep_set *s)
{
	free(s->obj);
	free_constraints(s);
}
