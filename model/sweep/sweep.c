/* SPDX-License-Identifier: MIT */
/* sweep.c: the sweep model (see sweep.h): metric names, model lifetime, series and
 * stimulus detection, the GenAI-Perf sizing fit and knee, and the registration of the
 * sweep subsystem. Ranking lives in sweep_rank.c, views and rules in sweep_views.c. */
#include "model/sweep/sweep.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/registry.h"
#include "model/run.h"
#include "model/sweep/rank.h"
#include "model/xalloc.h"

static const struct sweep_metric_info metric_info[SM_N] = {
	[SM_TTFT] = { "time_to_first_token", "ttft", "Time To First Token", "ms", true, false },
	[SM_TTST] = { "time_to_second_token", "ttst", "Time To Second Token", "ms", true, false },
	[SM_LATENCY] = { "request_latency", "latency", "Request Latency", "ms", true, false },
	[SM_ITL] = { "inter_token_latency", "itl", "Inter Token Latency", "ms", true, false },
	[SM_TPS_USER] = { "output_token_throughput_per_user", "tps_user",
			  "Output Token Throughput Per User", "tokens/sec/user", false, false },
	[SM_OSL] = { "output_sequence_length", "osl", "Output Sequence Length", "tokens", false, false },
	[SM_ISL] = { "input_sequence_length", "isl", "Input Sequence Length", "tokens", false, false },
	[SM_RPS] = { "request_throughput", "rps", "Request Throughput", "per sec", false, true },
	[SM_TPS] = { "output_token_throughput", "tps", "Output Token Throughput", "tokens/sec", false, true },
	[SM_GOODPUT] = { "request_goodput", "goodput", "Request Goodput", "per sec", false, true },
	[SM_COUNT] = { "request_count", "count", "Request Count", "count", false, true },
};

static const char *const stat_names[SS_N] = {
	"avg", "min", "max", "std", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99",
};

static const char *const stim_names[ST_N] = {
	"concurrency", "request_rate", "input_length", "batch_size", "dataset_entries",
};

const struct sweep_metric_info *sweep_metric_info(enum sweep_metric m)
{
	return &metric_info[m];
}

const char *sweep_stat_name(enum sweep_stat s)
{
	return stat_names[s];
}

const char *sweep_stim_name(enum sweep_stim s)
{
	return stim_names[s];
}

static bool span_eq(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && strncasecmp(s, w, n) == 0;
}

static bool metric_name(const char *s, size_t n, enum sweep_metric *m)
{
	for (int i = 0; i < SM_N; i++)
		if (span_eq(s, n, metric_info[i].name) || span_eq(s, n, metric_info[i].alias)) {
			*m = i;
			return true;
		}
	if (span_eq(s, n, "request_throughput") || span_eq(s, n, "throughput")) {
		*m = SM_RPS;
		return true;
	}
	return false;
}

bool sweep_metric_parse(const char *s, size_t n, enum sweep_metric *m, enum sweep_stat *st)
{
	if (metric_name(s, n, m)) {
		*st = SS_AVG;
		return true;
	}
	const char *us = NULL;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '_')
			us = s + i;
	if (!us || !metric_name(s, (size_t)(us - s), m))
		return false;
	size_t sn = n - (size_t)(us + 1 - s);
	for (int k = 0; k < SS_N; k++)
		if (span_eq(us + 1, sn, stat_names[k])) {
			*st = k;
			return !metric_info[*m].system || k == SS_AVG;
		}
	return false;
}

/* ---------------------------------------------------------------------------------
 * Model lifetime */

struct sweep_set *sweep_get(struct run *run)
{
	pthread_mutex_lock(&run->lock);
	bool fresh = !run->sweep;
	if (fresh)
		run->sweep = xcalloc(1, sizeof(*run->sweep));
	pthread_mutex_unlock(&run->lock);
	if (fresh)
		sweep_rank_from_opts(run, run->sweep);
	return run->sweep;
}

bool sweep_knee_latency(const struct sweep_cfg *c, double *v)
{
	return sweep_value(c, SM_LATENCY, SS_P50, v) || sweep_value(c, SM_LATENCY, SS_AVG, v) ||
	       sweep_value(c, SM_LATENCY, SS_P99, v);
}

struct sweep_cfg *sweep_add_cfg(struct sweep_set *s, const char *name, const char *path,
				const char *source)
{
	xgrow((void **)&s->cfg, &s->cfgcap, s->ncfg + 1, sizeof(*s->cfg));
	struct sweep_cfg *c = &s->cfg[s->ncfg++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	c->path = xstrdup(path ? path : "");
	c->source = source;
	c->pass = true;
	return c;
}

struct sweep_gpu *sweep_add_gpu(struct sweep_set *s, size_t cfg, const char *metric,
				const char *unit, const char *gpu)
{
	xgrow((void **)&s->gpu, &s->gpucap, s->ngpu + 1, sizeof(*s->gpu));
	struct sweep_gpu *g = &s->gpu[s->ngpu++];
	memset(g, 0, sizeof(*g));
	g->cfg = cfg;
	g->metric = xstrdup(metric);
	g->unit = xstrdup(unit ? unit : "");
	g->gpu = xstrdup(gpu ? gpu : "");
	return g;
}

bool sweep_value(const struct sweep_cfg *c, enum sweep_metric m, enum sweep_stat st, double *out)
{
	if (c->stored.has[m][st]) {
		*out = c->stored.v[m][st];
		return true;
	}
	if (c->calc.has[m][st]) {
		*out = c->calc.v[m][st];
		return true;
	}
	return false;
}

/* The percentile Q of a statistic, or 0 for avg, min, max, std. */
static double stat_quantile(enum sweep_stat st)
{
	static const double q[SS_N] = { [SS_P1] = 1, [SS_P5] = 5, [SS_P10] = 10, [SS_P25] = 25,
					[SS_P50] = 50, [SS_P75] = 75, [SS_P90] = 90, [SS_P95] = 95,
					[SS_P99] = 99 };
	return q[st];
}

bool sweep_tail(const struct sweep_cfg *c, enum sweep_stat st, double *tail)
{
	double q = stat_quantile(st), n;
	if (q == 0 || !sweep_value(c, SM_COUNT, SS_AVG, &n) || !(n >= 0))
		return false;
	*tail = n * fmin(q, 100 - q) / 100;
	return true;
}

bool sweep_low_confidence(const struct sweep_cfg *c, enum sweep_stat st)
{
	double tail;
	return sweep_tail(c, st, &tail) && tail < SWEEP_LOWCONF_TAIL;
}

static void free_series(struct sweep_set *s)
{
	for (size_t i = 0; i < s->nseries; i++) {
		free(s->series[i].name);
		free(s->series[i].cfg);
	}
	free(s->series);
	s->series = NULL;
	s->nseries = 0;
}

static void sweep_free(struct run *run)
{
	struct sweep_set *s = run->sweep;
	if (!s)
		return;
	for (size_t i = 0; i < s->ncfg; i++) {
		free(s->cfg[i].name);
		free(s->cfg[i].series);
		free(s->cfg[i].path);
		free(s->cfg[i].failed);
	}
	free(s->cfg);
	for (size_t i = 0; i < s->ngpu; i++) {
		free(s->gpu[i].metric);
		free(s->gpu[i].unit);
		free(s->gpu[i].gpu);
	}
	free(s->gpu);
	free_series(s);
	for (size_t i = 0; i < s->nnat; i++)
		nat_calc_free(&s->nat[i]);
	free(s->nat);
	for (size_t i = 0; i < s->ncb; i++) {
		free(s->cb[i].ord);
		free(s->cb[i].path);
	}
	free(s->cb);
	sweep_rank_free(s);
	free(s);
	run->sweep = NULL;
}

/* ---------------------------------------------------------------------------------
 * Series and stimulus */

/* Stimulus from a directory name as GenAI-Perf names artifact dirs,
 * <model>-<service>-<backend>-<sweep_type><value> ("...-concurrency10",
 * "...-request_rate2.5", "...-num_dataset_entries100"), so a tree of *_genai_perf.csv
 * files alone still forms a sweep. A value read from the data wins; the last
 * occurrence of a key followed by a number counts. */
static void stim_from_name(struct sweep_cfg *c)
{
	static const struct { const char *key; enum sweep_stim st; } keys[] = {
		{ "concurrency", ST_CONCURRENCY }, { "request_rate", ST_REQUEST_RATE },
		{ "request-rate", ST_REQUEST_RATE }, { "input_sequence_length", ST_INPUT_LENGTH },
		{ "batch_size", ST_BATCH_SIZE }, { "num_dataset_entries", ST_DATASET_ENTRIES },
	};
	for (size_t i = 0; i < ARRAY_LEN(keys); i++) {
		if (c->has_stim[keys[i].st])
			continue;
		const char *p = NULL, *q = c->name;
		while ((q = strstr(q, keys[i].key)))
			p = q++;
		if (!p)
			continue;
		p += strlen(keys[i].key);
		char *end;
		double v = strtod(p, &end);
		if (end != p && isdigit((unsigned char)*p) && isfinite(v)) {
			c->stim[keys[i].st] = v;
			c->has_stim[keys[i].st] = true;
		}
	}
}

static bool number_matches_stim(const struct sweep_cfg *c, double v)
{
	for (int k = 0; k < ST_N; k++)
		if (c->has_stim[k] && c->stim[k] == v)
			return true;
	return false;
}

/* Name with every number equal to one of the config's stimulus values replaced by *. */
static char *series_key(const struct sweep_cfg *c)
{
	if (strcmp(c->source, "artifacts") != 0)
		return xstrdup(c->path);
	size_t n = strlen(c->name);
	char *out = xmalloc(n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n;) {
		if (isdigit((unsigned char)c->name[i]) &&
		    (i == 0 || !isdigit((unsigned char)c->name[i - 1]))) {
			size_t j = i;
			while (j < n && (isdigit((unsigned char)c->name[j]) || c->name[j] == '.'))
				j++;
			while (j > i + 1 && c->name[j - 1] == '.')
				j--;
			char num[64];
			snprintf(num, sizeof(num), "%.*s", (int)(j - i), c->name + i);
			if (number_matches_stim(c, strtod(num, NULL))) {
				out[k++] = '*';
				i = j;
				continue;
			}
		}
		out[k++] = c->name[i++];
	}
	out[k] = '\0';
	return out;
}

static int detect_stim(const struct sweep_set *s, const struct sweep_series *se)
{
	for (int k = 0; k < ST_N; k++) {
		bool seen = false;
		double first = 0;
		for (size_t i = 0; i < se->n; i++) {
			const struct sweep_cfg *c = &s->cfg[se->cfg[i]];
			if (!c->has_stim[k])
				continue;
			if (seen && c->stim[k] != first)
				return k;
			seen = true;
			first = c->stim[k];
		}
	}
	for (int k = 0; k < ST_N; k++)
		for (size_t i = 0; i < se->n; i++)
			if (s->cfg[se->cfg[i]].has_stim[k])
				return k;
	return -1;
}

struct stim_sort {
	const struct sweep_set *s;
	int stim;
};

static int cmp_by_stim(const void *a, const void *b, void *ud)
{
	const struct stim_sort *ss = ud;
	int sort_stim = ss->stim;
	const struct sweep_cfg *x = &ss->s->cfg[*(const size_t *)a];
	const struct sweep_cfg *y = &ss->s->cfg[*(const size_t *)b];
	bool hx = sort_stim >= 0 && x->has_stim[sort_stim], hy = sort_stim >= 0 && y->has_stim[sort_stim];
	if (hx != hy)
		return hx ? -1 : 1;
	if (hx && x->stim[sort_stim] != y->stim[sort_stim])
		return x->stim[sort_stim] < y->stim[sort_stim] ? -1 : 1;
	size_t ix = *(const size_t *)a, iy = *(const size_t *)b;
	return (ix > iy) - (ix < iy);
}

static void build_series(struct sweep_set *s)
{
	free_series(s);
	for (size_t i = 0; i < s->ncfg; i++) {
		struct sweep_cfg *c = &s->cfg[i];
		stim_from_name(c);
		free(c->series);
		c->series = series_key(c);
		size_t k = 0;
		while (k < s->nseries && strcmp(s->series[k].name, c->series) != 0)
			k++;
		if (k == s->nseries) {
			s->series = xrealloc(s->series, (s->nseries + 1) * sizeof(*s->series));
			memset(&s->series[k], 0, sizeof(s->series[k]));
			s->series[k].name = xstrdup(c->series);
			s->series[k].knee = -1;
			s->nseries++;
		}
		struct sweep_series *se = &s->series[k];
		se->cfg = xrealloc(se->cfg, (se->n + 1) * sizeof(*se->cfg));
		se->cfg[se->n++] = i;
	}
	for (size_t k = 0; k < s->nseries; k++) {
		struct sweep_series *se = &s->series[k];
		se->stim = detect_stim(s, se);
		struct stim_sort ss = { s, se->stim };
		qsort_r(se->cfg, se->n, sizeof(*se->cfg), cmp_by_stim, &ss);
	}
}

/* p95 request latency (s) vs concurrency, and the throughput knee. */
static void series_sizing(struct sweep_set *s, struct sweep_series *se)
{
	double *x = xcalloc(se->n + 1, sizeof(*x)), *y = xcalloc(se->n + 1, sizeof(*y));
	double *tp = xcalloc(se->n + 1, sizeof(*tp)), *lat = xcalloc(se->n + 1, sizeof(*lat));
	size_t n = 0;
	for (size_t i = 0; i < se->n; i++) {
		const struct sweep_cfg *c = &s->cfg[se->cfg[i]];
		double v;
		x[i] = se->stim >= 0 && c->has_stim[se->stim] ? c->stim[se->stim] : NAN;
		tp[i] = sweep_value(c, SM_RPS, SS_AVG, &v) ? v : NAN;
		lat[i] = sweep_knee_latency(c, &v) ? v : NAN;
	}
	se->knee = se->n >= 3 ? fit_knee(x, tp, lat, se->n) : -1;
	se->has_fit = false;
	if (se->stim == ST_CONCURRENCY && se->n >= 2) {
		for (size_t i = 0; i < se->n; i++) {
			double v;
			const struct sweep_cfg *c = &s->cfg[se->cfg[i]];
			if (c->has_stim[ST_CONCURRENCY] && sweep_value(c, SM_LATENCY, SS_P95, &v) && v > 0) {
				x[n] = c->stim[ST_CONCURRENCY];
				y[n++] = v / 1000.0;
			}
		}
		if (n >= 2) {
			se->fit = fit_linear(x, y, n);
			se->has_fit = true;
			se->est = fit_gpu_estimate(&se->fit, s->target_latency, s->target_users,
						   (double)s->test_gpus);
		}
	}
	free(x);
	free(y);
	free(tp);
	free(lat);
}

void sweep_derive(struct run *run)
{
	struct sweep_set *s = run->sweep;
	if (!s || s->derived)
		return;
	build_series(s);
	for (size_t k = 0; k < s->nseries; k++)
		series_sizing(s, &s->series[k]);
	nat_merge(s);
	for (size_t i = 0; i < s->nnat; i++)
		nat_recompute(&s->nat[i], s);
	for (size_t i = 0; i < s->ncb; i++)
		cb_recompute(&s->cb[i]);
	sweep_rank_resolve(run, s);
	sweep_rerank(s);
	s->derived = true;
}

/* ---------------------------------------------------------------------------------
 * Registration */

static const struct loader sweep_loaders[] = {
	{ "genai-perf", "GenAI-Perf artifacts: *_genai_perf.{csv,json}, profile exports, "
			"analyze CSV, checkpoint.json", sweep_genai_probe, sweep_genai_load },
	{ "nat", "NeMo Agent Toolkit sizing: calc_runner_output.json", sweep_nat_probe, sweep_nat_load },
	{ "cerebras", "Cerebras Model Zoo performance.json", sweep_cb_probe, sweep_cb_load },
};

const struct subsystem sub_sweep = {
	.name = "sweep",
	.loaders = sweep_loaders,
	.nloaders = ARRAY_LEN(sweep_loaders),
	.views = sweep_views,
	.nviews = SWEEP_NVIEWS,
	.rules = sweep_rules,
	.nrules = SWEEP_NRULES,
	.free = sweep_free,
};
