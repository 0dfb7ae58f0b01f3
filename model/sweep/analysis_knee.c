/* SPDX-License-Identifier: MIT */
/* analysis_knee.c: a GenAI-Perf series' throughput knee (analysis_fit.c's fit_knee over its
 * levels: stimulus, request throughput and the request latency's p50, average and p99, each
 * with the rounding of a value read from a CSV), and what the test could not weigh or compare:
 * the levels lacking one of the three, the steps between two levels with no latency statistic
 * in common or whose verdict the CSV's 2 decimals could decide (said, never read as no knee),
 * whether a knee is at or before the level found, and whether two levels were compared (for a
 * comparison of runs). */
#include "model/sweep/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/sweep/fit.h"
#include "model/sweep/internal.h"
#include "model/xalloc.h"

/* The request-latency statistics the knee test compares, in its order (fit.h FIT_KNEE_NLAT). */
static const enum sweep_stat knee_stats[FIT_KNEE_NLAT] = { SS_P50, SS_AVG, SS_P99 };

/* The knee test's input for a series (fit_knee_in), its arrays in one allocation (buf). */
struct knee_data {
	double *buf;
	struct fit_knee_in in;
};

/* Value (m, st) of c into v[i], NaN when missing, and the half-width of its rounding into r[i]. */
static void value_into(const struct sweep_cfg *c, enum sweep_metric m, enum sweep_stat st, size_t i, double *v,
		       double *r)
{
	double x;
	v[i] = sweep_value(c, m, st, &x) ? x : NAN;
	r[i] = sweep_value_rounding(c, m, st);
}

/* What the knee test weighs of series se: stimulus, request throughput, the latencies of
 * knee_stats and the roundings of the values read from a CSV. The caller frees kd->buf. */
static void knee_data(const struct sweep_set *s, const struct sweep_series *se, struct knee_data *kd)
{
	size_t n = se->n;
	double *v = kd->buf = xcalloc((3 + 2 * FIT_KNEE_NLAT) * n + 1, sizeof(*v));
	double *x = v, *tp = v + n, *tr = v + 2 * n;
	kd->in = (struct fit_knee_in){ .x = x, .tput = tp, .tput_round = tr, .n = n };
	for (size_t i = 0; i < n; i++) {
		const struct sweep_cfg *c = &s->cfg[se->cfg[i]];
		x[i] = se->stim >= 0 && c->has_stim[se->stim] ? c->stim[se->stim] : NAN;
		value_into(c, SM_RPS, SS_AVG, i, tp, tr);
	}
	for (int k = 0; k < FIT_KNEE_NLAT; k++) {
		double *lat = v + (3 + 2 * (size_t)k) * n, *lr = lat + n;
		kd->in.lat[k] = lat;
		kd->in.lat_round[k] = lr;
		for (size_t i = 0; i < n; i++)
			value_into(&s->cfg[se->cfg[i]], SM_LATENCY, knee_stats[k], i, lat, lr);
	}
}

/* A step of a series that the knee test could not compare (fit_knee_step): from level p to i,
 * stat its latency statistic (index into knee_stats; -1 for FIT_STEP_NO_STAT). */
struct knee_open {
	size_t p, i;
	enum fit_step why;
	int stat;
};

/* The step into level i of kd, when the knee test could not compare it, into *o; false when
 * it compared it or i is compared with no level. */
static bool open_step(const struct knee_data *kd, size_t i, struct knee_open *o)
{
	long p = fit_knee_prev(&kd->in, i);
	if (p < 0)
		return false;
	o->p = (size_t)p;
	o->i = i;
	o->why = fit_knee_step(&kd->in, o->p, i, &o->stat);
	return o->why != FIT_STEP_KNEE && o->why != FIT_STEP_NO_KNEE;
}

/* The steps of kd the knee test could not compare whose first level is before upto: how many,
 * the first max of them into open[]. */
static size_t knee_open_steps(const struct knee_data *kd, size_t upto, struct knee_open *open, size_t max)
{
	size_t k = 0;
	struct knee_open o;
	for (size_t i = 0; i < kd->in.n; i++) {
		if (!open_step(kd, i, &o) || o.p >= upto)
			continue;
		if (k < max)
			open[k] = o;
		k++;
	}
	return k;
}

/* The first of knee_stats level i of kd has (> 0). */
static const char *first_stat(const struct knee_data *kd, size_t i)
{
	for (int k = 0; k < FIT_KNEE_NLAT; k++)
		if (kd->in.lat[k][i] > 0)
			return sweep_stat_name(knee_stats[k]);
	return "none";
}

/* Why step o of series se (kd) was not compared, into buf: "concurrency 2 to 4 not compared (request
 * throughput 0.05 -> 0.05 req/s has 2 decimals in the CSV: its rounding could decide the knee)". */
static void open_text(const struct sweep_series *se, const struct knee_data *kd, const struct knee_open *o,
		      char *buf, size_t n)
{
	const double *x = kd->in.x, *tp = kd->in.tput;
	if (o->why == FIT_STEP_NO_STAT) {
		snprintf(buf, n, "%s %g to %g not compared (no latency statistic at both: %s at %g, %s at %g)",
			 sweep_stim_name(se->stim), x[o->p], x[o->i], first_stat(kd, o->p), x[o->p],
			 first_stat(kd, o->i), x[o->i]);
		return;
	}
	const double *lat = kd->in.lat[o->stat];
	char tput[96] = "", lv[96] = "";
	if (o->why != FIT_STEP_ROUND_LAT)
		snprintf(tput, sizeof(tput), "request throughput %.4g -> %.4g req/s", tp[o->p], tp[o->i]);
	if (o->why != FIT_STEP_ROUND_TPUT)
		snprintf(lv, sizeof(lv), "%s request latency %.4g -> %.4g ms", sweep_stat_name(knee_stats[o->stat]),
			 lat[o->p], lat[o->i]);
	bool both = o->why == FIT_STEP_ROUND_BOTH;
	snprintf(buf, n, "%s %g to %g not compared (%s%s%s %s 2 decimals in the CSV: %s rounding could decide the "
		 "knee)", sweep_stim_name(se->stim), x[o->p], x[o->i], tput, both ? " and " : "", lv,
		 both ? "have" : "has", both ? "their" : "its");
}

void sweep_series_knee(const struct sweep_set *s, struct sweep_series *se)
{
	struct knee_data kd;
	knee_data(s, se, &kd);
	se->knee = se->knee_next = -1;
	se->knee_stat = SS_N;
	se->knee_open = 0;
	se->knee_points = fit_knee_points(&kd.in, &se->knee_rising, &se->knee_last);
	if (se->knee_points >= 3 && se->twice < 0) { /* as many levels with a throughput and a latency */
		int st;
		se->knee = fit_knee(&kd.in, &se->knee_next, &st);
		se->knee_stat = st >= 0 ? knee_stats[st] : SS_N;
		se->knee_open = knee_open_steps(&kd, se->n, NULL, 0);
	}
	free(kd.buf);
}

/* Config c has one of the knee's latency statistics: finite, and > 0 when positive. */
static bool knee_latency(const struct sweep_cfg *c, bool positive)
{
	double v;
	for (int k = 0; k < FIT_KNEE_NLAT; k++)
		if (sweep_value(c, SM_LATENCY, knee_stats[k], &v) && isfinite(v) && (!positive || v > 0))
			return true;
	return false;
}

/* What level k of series se has of the knee test's three (stimulus, request throughput,
 * request latency; each > 0); true when it has all three. */
static bool knee_weighed(const struct sweep_set *s, const struct sweep_series *se, size_t k, bool *x, bool *tp,
			 bool *lat)
{
	const struct sweep_cfg *c = &s->cfg[se->cfg[k]];
	double v;
	*x = se->stim >= 0 && c->has_stim[se->stim] && c->stim[se->stim] > 0;
	*tp = sweep_value(c, SM_RPS, SS_AVG, &v) && v > 0;
	*lat = knee_latency(c, true);
	return *x && *tp && *lat;
}

/* The first step before level upto of series se the knee test could not compare, into *o; false when none. */
static bool first_open(const struct sweep_set *s, const struct sweep_series *se, size_t upto, struct knee_open *o)
{
	struct knee_data kd;
	knee_data(s, se, &kd);
	bool any = knee_open_steps(&kd, upto, o, 1) > 0;
	free(kd.buf);
	return any;
}

bool sweep_knee_or_before(const struct sweep_set *s, const struct sweep_series *se, long *below)
{
	bool x, tp, lat, found = false;
	long last = -1, at = -1;
	for (long k = 0; k < se->knee && !found; k++) {
		if (!knee_weighed(s, se, (size_t)k, &x, &tp, &lat)) {
			found = true;
			at = last;
		}
		last = k;
	}
	struct knee_open o;
	if (se->knee >= 0 && first_open(s, se, (size_t)se->knee, &o) && (!found || (long)o.p < at)) {
		found = true; /* the step from o.p was not compared: the knee may be there */
		at = (long)o.p;
	}
	if (below)
		*below = found ? at : -1;
	return found;
}

/* The steps before level upto of series se the knee test could not compare, appended to buf
 * (holding len bytes) after sep: the first two, and how many more. */
static void open_steps_text(const struct sweep_set *s, const struct sweep_series *se, size_t upto, char *buf,
			    size_t len, size_t n, const char *sep)
{
	struct knee_data kd;
	struct knee_open o[2];
	knee_data(s, se, &kd);
	size_t k = knee_open_steps(&kd, upto, o, ARRAY_LEN(o));
	for (size_t i = 0; i < k && i < ARRAY_LEN(o) && len < n; i++) {
		len += (size_t)snprintf(buf + len, n - len, "%s", i ? "; " : sep);
		if (len < n)
			open_text(se, &kd, &o[i], buf + len, n - len);
		len += strlen(buf + len);
	}
	if (k > ARRAY_LEN(o) && len < n)
		snprintf(buf + len, n - len, "; %zu more steps not compared", k - ARRAY_LEN(o));
	free(kd.buf);
}

void sweep_knee_unweighed(const struct sweep_set *s, const struct sweep_series *se, size_t upto, char *buf,
			  size_t n)
{
	buf[0] = '\0';
	if (se->knee_last < 0 || se->stim < 0)
		return;
	bool no_x = false, no_tp = false, no_lat = false;
	size_t used = 0, nlev = 0, len = 0;
	char levels[256] = "";
	for (size_t k = 0; k < se->n && k < upto && used < sizeof(levels); k++) {
		const struct sweep_cfg *c = &s->cfg[se->cfg[k]];
		bool x, tp, lat;
		if (knee_weighed(s, se, k, &x, &tp, &lat))
			continue;
		no_x |= !x;
		no_tp |= !tp;
		no_lat |= !lat;
		char lv[32] = "n/a";
		if (c->has_stim[se->stim])
			snprintf(lv, sizeof(lv), "%g", c->stim[se->stim]);
		used += (size_t)snprintf(levels + used, sizeof(levels) - used, "%s%s", nlev++ ? ", " : "", lv);
	}
	if (nlev)
		len = (size_t)snprintf(buf, n, "%s %s not judged (no %s%s%s%s%s)", sweep_stim_name(se->stim), levels,
				       no_x ? sweep_stim_name(se->stim) : "", no_x && (no_tp || no_lat) ? " or " : "",
				       no_tp ? "request throughput" : "", no_tp && no_lat ? " or " : "",
				       no_lat ? "request latency" : "");
	if (len < n)
		open_steps_text(s, se, upto, buf, len, n, len ? "; " : "");
}

/* Level k of series se has a value the knee test reads as finite (fit_knee: a level with
 * neither is passed over, one with one of them breaks the comparison across it). */
static bool knee_value(const struct sweep_set *s, const struct sweep_series *se, size_t k, bool latency)
{
	const struct sweep_cfg *c = &s->cfg[se->cfg[k]];
	double v;
	return latency ? knee_latency(c, false) : sweep_value(c, SM_RPS, SS_AVG, &v) && isfinite(v);
}

/* A step from level lo to hi (indexes into se->cfg) or between them the knee test could not
 * compare: its text into why; false when none. */
static bool open_between(const struct sweep_set *s, const struct sweep_series *se, long lo, long hi, char *why,
			 size_t n)
{
	struct knee_data kd;
	struct knee_open o;
	bool found = false;
	knee_data(s, se, &kd);
	for (long i = lo + 1; i <= hi && !found; i++)
		if (open_step(&kd, (size_t)i, &o) && (long)o.p >= lo) {
			open_text(se, &kd, &o, why, n);
			found = true;
		}
	free(kd.buf);
	return found;
}

bool sweep_knee_compared(const struct sweep_set *s, const struct sweep_series *se, double lo, double hi, char *why,
			 size_t n)
{
	long at[2] = { -1, -1 };
	const double level[2] = { lo, hi };
	for (size_t k = 0; se->stim >= 0 && k < se->n; k++) {
		const struct sweep_cfg *c = &s->cfg[se->cfg[k]];
		for (int e = 0; e < 2; e++)
			if (at[e] < 0 && c->has_stim[se->stim] && c->stim[se->stim] == level[e])
				at[e] = (long)k;
	}
	const char *stim = se->stim >= 0 ? sweep_stim_name(se->stim) : "level";
	for (int e = 0; e < 2; e++)
		if (at[e] < 0) {
			snprintf(why, n, "no %s %g", stim, level[e]);
			return false;
		}
	for (long k = at[0]; k <= at[1]; k++) {
		bool x, tp, lat, end = k == at[0] || k == at[1];
		if (knee_weighed(s, se, (size_t)k, &x, &tp, &lat) ||
		    (!end && !knee_value(s, se, (size_t)k, false) && !knee_value(s, se, (size_t)k, true)))
			continue;
		snprintf(why, n, "%s %g has no %s%s%s", stim, s->cfg[se->cfg[k]].stim[se->stim],
			 tp ? "" : "request throughput", !tp && !lat ? " or " : "", lat ? "" : "request latency");
		return false;
	}
	return !open_between(s, se, at[0], at[1], why, n);
}
