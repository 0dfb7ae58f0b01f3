/* SPDX-License-Identifier: MIT */
/* store.c: the sweep model's storage (see sweep.h): metric, statistic and stimulus
 * names, adding configs and GPU telemetry, values (stored, else recomputed; recomputed where
 * the two differ: sweep_value; a CSV value's rounding), the confidence of percentiles (none
 * without a successful request), and the model's lifetime. */
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

/* Where value (m, st) of c comes from (sweep_value's order), NULL when neither has it. */
static const struct sweep_stats *value_source(const struct sweep_cfg *c, enum sweep_metric m, enum sweep_stat st)
{
	const struct sweep_stats *first = c->differs[m] ? &c->calc : &c->stored;
	const struct sweep_stats *then = c->differs[m] ? &c->stored : &c->calc;
	return first->has[m][st] ? first : then->has[m][st] ? then : NULL;
}

static bool raw_value(const struct sweep_cfg *c, enum sweep_metric m, enum sweep_stat st, double *out)
{
	const struct sweep_stats *from = value_source(c, m, st);
	if (from)
		*out = from->v[m][st];
	return from != NULL;
}

bool sweep_value(const struct sweep_cfg *c, enum sweep_metric m, enum sweep_stat st, double *out)
{
	double n;
	if (m != SM_COUNT && raw_value(c, SM_COUNT, SS_AVG, &n) && n == 0)
		return false; /* no successful request: its latencies and throughputs measure nothing */
	return raw_value(c, m, st, out);
}

int sweep_value_decimals(const struct sweep_cfg *c, enum sweep_metric m, enum sweep_stat st, int dec)
{
	return dec > 2 && value_source(c, m, st) == &c->stored && c->stored_csv[m][st] ? 2 : dec;
}

double sweep_value_rounding(const struct sweep_cfg *c, enum sweep_metric m, enum sweep_stat st)
{
	return value_source(c, m, st) == &c->stored && c->stored_csv[m][st] ? SWEEP_CSV_ROUNDING : 0;
}

/* The percentile Q of a statistic, or 0 for avg, min, max, std. */
static double stat_quantile(enum sweep_stat st)
{
	static const double q[SS_N] = { [SS_P1] = 1, [SS_P5] = 5, [SS_P10] = 10, [SS_P25] = 25,
					[SS_P50] = 50, [SS_P75] = 75, [SS_P90] = 90, [SS_P95] = 95,
					[SS_P99] = 99 };
	return q[st];
}

/* The config's request count, false when unknown (or not a count). */
static bool request_count(const struct sweep_cfg *c, double *n)
{
	return sweep_value(c, SM_COUNT, SS_AVG, n) && *n >= 0;
}

bool sweep_tail(const struct sweep_cfg *c, enum sweep_stat st, double *tail)
{
	double q = stat_quantile(st), n;
	if (q == 0 || !request_count(c, &n) || n == 0)
		return false; /* n 0: no successful request, no percentile to rest on any */
	*tail = n * fmin(q, 100 - q) / 100;
	return true;
}

bool sweep_low_confidence(const struct sweep_cfg *c, enum sweep_stat st)
{
	double tail;
	return sweep_tail(c, st, &tail) && tail < SWEEP_LOWCONF_TAIL;
}

bool sweep_confidence_unjudged(const struct sweep_cfg *c, enum sweep_stat st)
{
	double n;
	return stat_quantile(st) > 0 && !request_count(c, &n);
}

void sweep_series_clear(struct sweep_set *s)
{
	for (size_t i = 0; i < s->nseries; i++) {
		free(s->series[i].name);
		free(s->series[i].fixed);
		free(s->series[i].workload);
		free(s->series[i].cfg);
	}
	free(s->series);
	s->series = NULL;
	s->nseries = 0;
}

void sweep_free(struct run *run)
{
	struct sweep_set *s = run->sweep;
	if (!s)
		return;
	for (size_t i = 0; i < s->ncfg; i++) {
		free(s->cfg[i].name);
		free(s->cfg[i].series);
		free(s->cfg[i].path);
		free(s->cfg[i].failed);
		for (int k = 0; k < WL_N; k++)
			free(s->cfg[i].wl[k]);
	}
	free(s->cfg);
	for (size_t i = 0; i < s->ngpu; i++) {
		free(s->gpu[i].metric);
		free(s->gpu[i].unit);
		free(s->gpu[i].gpu);
	}
	free(s->gpu);
	sweep_series_clear(s);
	for (size_t i = 0; i < s->nnat; i++)
		nat_calc_free(&s->nat[i]);
	free(s->nat);
	for (size_t i = 0; i < s->ncb; i++) {
		free(s->cb[i].ord);
		free(s->cb[i].path);
	}
	free(s->cb);
	for (size_t i = 0; i < s->nunread; i++) {
		free(s->unread[i].path);
		free(s->unread[i].why);
	}
	free(s->unread);
	byteplan_free(&s->genai_plan);
	sweep_rank_free(s);
	free(s->wl_mixed);
	free(s);
	run->sweep = NULL;
}
