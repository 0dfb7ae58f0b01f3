/* SPDX-License-Identifier: MIT */
/* analysis.c: what the sweep model derives once after loading (see sweep.h
 * sweep_derive): series of configs and their stimulus, the GenAI-Perf sizing fit and
 * knee, the NAT and Cerebras recomputations and the objective/constraint ranking
 * (analysis_rank.c). Fits are analysis_fit.c's. */
#include "model/sweep/sweep.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/run.h"
#include "model/sweep/fit.h"
#include "model/sweep/rank.h"
#include "model/xalloc.h"

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
	sweep_series_clear(s);
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
	se->knee_points = fit_knee_points(x, tp, lat, se->n, &se->knee_rising);
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


struct sweep_set *sweep_derived(struct run *run)
{
	if (run->sweep)
		sweep_derive(run);
	return run->sweep;
}
