/* SPDX-License-Identifier: MIT */
/* analysis_fit.c: means, fits and GPU estimates for sweeps and sizing (see fit.h); percentiles
 * are model/stats.h's. */
#include "model/sweep/fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/stats.h"
#include "model/xalloc.h"

#define FIT_NOISE 1e-12 /* of the values' scale: rounding noise, read as 0 */

double fit_mean(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double fit_pstd(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	double m = fit_mean(v, n), ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return sqrt(ss / (double)n);
}

bool fit_ols(const double *x, const double *y, size_t n, double *slope, double *intercept,
	     double *r2)
{
	if (n < 2)
		return false;
	double sx = 0, sy = 0, sxy = 0, sx2 = 0, xmax = 0, ymax = 0;
	for (size_t i = 0; i < n; i++) {
		sx += x[i];
		sy += y[i];
		sxy += x[i] * y[i];
		sx2 += x[i] * x[i];
		xmax = fmax(xmax, fabs(x[i]));
		ymax = fmax(ymax, fabs(y[i]));
	}
	double dn = (double)n;
	double den = dn * sx2 - sx * sx;
	if (den == 0 || !isfinite(den))
		return false;
	/* the rounding noise of an exact 0 (an intercept of -1.7e-16 s) is 0: below FIT_NOISE of the scale */
	double m = (dn * sxy - sx * sy) / den;
	if (fabs(m) * xmax < FIT_NOISE * ymax)
		m = 0;
	double b = (sy - m * sx) / dn;
	if (fabs(b) < FIT_NOISE * ymax)
		b = 0;
	double ymean = sy / dn, ssr = 0, sst = 0;
	for (size_t i = 0; i < n; i++) {
		double e = y[i] - (m * x[i] + b);
		ssr += e * e;
		sst += (y[i] - ymean) * (y[i] - ymean);
	}
	double r = sst != 0 ? 1.0 - ssr / sst : 0.0;
	if (!isfinite(m) || !isfinite(b) || !isfinite(r))
		return false; /* values so large that the sums overflow: no line to judge */
	*slope = m;
	*intercept = b;
	*r2 = r;
	return true;
}

static void note_outlier(struct sweep_fit *f, double x)
{
	if (f->nout < FIT_MAX_OUTLIERS)
		f->outliers[f->nout++] = x;
}

/* Keep the points whose value v[i] lies within [q1 - k*IQR, q3 + k*IQR]; compacts x
 * and y in place and records removed x in f. Returns the new count. */
static size_t keep_iqr(double *x, double *y, const double *v, size_t n, double k,
		       struct sweep_fit *f)
{
	double q1 = stats_percentile(v, n, 25), q3 = stats_percentile(v, n, 75);
	double iqr = q3 - q1, lo = q1 - k * iqr, hi = q3 + k * iqr;
	size_t m = 0;
	bool *keep = xmalloc(n * sizeof(*keep));
	for (size_t i = 0; i < n; i++)
		keep[i] = v[i] >= lo && v[i] <= hi;
	for (size_t i = 0; i < n; i++) {
		if (!keep[i]) {
			note_outlier(f, x[i]);
			continue;
		}
		x[m] = x[i];
		y[m] = y[i];
		m++;
	}
	free(keep);
	return m;
}

static size_t remove_outliers(double *x, double *y, size_t n, struct sweep_fit *f)
{
	if (n <= FIT_SMALL_RANGE)
		n = keep_iqr(x, y, y, n, FIT_EXTREME_IQR, f);
	double m, b, r2;
	if (!fit_ols(x, y, n, &m, &b, &r2))
		return n;
	double *res = xmalloc(n * sizeof(*res));
	for (size_t i = 0; i < n; i++)
		res[i] = y[i] - (m * x[i] + b);
	n = keep_iqr(x, y, res, n, FIT_CONSERVATIVE_IQR, f);
	free(res);
	return n;
}

static bool same_x(const double *x, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (x[i] != x[0])
			return false;
	return true;
}

struct sweep_fit fit_linear(const double *x0, const double *y0, size_t n)
{
	struct sweep_fit f = { 0 };
	if (n < 2) {
		f.err = "fewer than 2 valid points";
		return f;
	}
	double *x = xmalloc(n * sizeof(*x)), *y = xmalloc(n * sizeof(*y));
	memcpy(x, x0, n * sizeof(*x));
	memcpy(y, y0, n * sizeof(*y));
	f.tested = n >= FIT_OUTLIER_MIN_POINTS;
	if (f.tested)
		n = remove_outliers(x, y, n, &f);
	f.nused = n;
	if (!fit_ols(x, y, n, &f.slope, &f.intercept, &f.r2))
		f.err = n < 2 ? "fewer than 2 points left after outlier removal"
			: same_x(x, n) ? "all points at the same x"
				       : "values too large to fit: the sums are not finite numbers";
	else {
		f.ok = true;
		f.poor = f.r2 < FIT_MIN_R2;
		f.flat = true;
		for (size_t i = 1; i < n; i++)
			f.flat &= y[i] == y[0];
	}
	free(x);
	free(y);
	return f;
}

struct sweep_estimate fit_gpu_estimate(const struct sweep_fit *f, double target, double users,
				       double test_gpus)
{
	struct sweep_estimate e = { 0 };
	if (!f->ok || f->poor)
		e.err = !f->ok ? "no fit" : f->flat ? "flat fit: latency does not change with concurrency" : "poor fit";
	else if (!(users > 0) || !(test_gpus > 0) || !(target > 0))
		e.err = "needs target users, test GPUs and a target";
	else if (target <= f->intercept)
		e.err = "target is at or below the intercept";
	else {
		e.conc = (target - f->intercept) / f->slope;
		if (!(e.conc > 0))
			e.err = "target concurrency is not positive";
		else {
			e.gpus = users / e.conc * test_gpus;
			e.ok = true;
		}
	}
	return e;
}

bool fit_rough_estimate(double target_lat, double target_rt, double users, double conc,
			double test_gpus, double obs_lat, double obs_rt, double *out_lat,
			bool *has_lat, double *out_rt, bool *has_rt)
{
	bool use_lat = target_lat > 0, use_rt = target_rt > 0;
	*has_lat = *has_rt = false;
	if (!(users > 0) || !(test_gpus > 0) || !(conc > 0) || (!use_lat && !use_rt))
		return false;
	if ((use_lat && obs_lat > target_lat) || (use_rt && obs_rt > target_rt))
		return false;
	if (use_lat) {
		*out_lat = users / conc * (obs_lat / target_lat) * test_gpus;
		*has_lat = true;
	}
	if (use_rt) {
		*out_rt = users / conc * (obs_rt / target_rt) * test_gpus;
		*has_rt = true;
	}
	return true;
}

/* Value i of v (NULL: every one missing), NaN when missing. */
static double knee_at(const double *v, size_t i)
{
	return v ? v[i] : NAN;
}

/* The half-width of value i's rounding (NULL: exact). */
static double round_at(const double *r, size_t i)
{
	return r && isfinite(r[i]) ? r[i] : 0;
}

static bool positive(double v)
{
	return isfinite(v) && v > 0;
}

/* The first latency statistic (index into in->lat) levels p and i both have, -1 none. */
static int knee_stat(const struct fit_knee_in *in, size_t p, size_t i)
{
	for (int k = 0; k < FIT_KNEE_NLAT; k++)
		if (positive(knee_at(in->lat[k], p)) && positive(knee_at(in->lat[k], i)))
			return k;
	return -1;
}

bool fit_knee_point(const struct fit_knee_in *in, size_t i)
{
	bool lat = false;
	for (int k = 0; k < FIT_KNEE_NLAT; k++)
		lat |= positive(knee_at(in->lat[k], i));
	return lat && positive(in->x[i]) && positive(in->tput[i]);
}

/* Level i has a throughput or a latency statistic (a finite one). */
static bool knee_some(const struct fit_knee_in *in, size_t i)
{
	bool some = isfinite(in->tput[i]);
	for (int k = 0; k < FIT_KNEE_NLAT; k++)
		some |= isfinite(knee_at(in->lat[k], i));
	return some;
}

long fit_knee_prev(const struct fit_knee_in *in, size_t i)
{
	if (!fit_knee_point(in, i))
		return -1;
	for (size_t j = i; j-- > 0;) {
		if (fit_knee_point(in, j))
			return (long)j;
		if (knee_some(in, j))
			return -1;
	}
	return -1;
}

/* a >= b, within FIT_KNEE_EPS of b. */
static bool at_least(double a, double b)
{
	return a >= b - FIT_KNEE_EPS * fabs(b);
}

/* Past the knee from a level to the next, whose stimulus grows by rx (relative), throughput
 * goes t0 -> t1 and latency l0 -> l1 (fit_knee_step's rule). */
static bool knee_step(double rx, double t0, double t1, double l0, double l1)
{
	bool flat = !at_least(t1, t0 * (1 + 0.1 * fmin(rx, 1))) && at_least(l1, 1.2 * l0);
	bool falls = at_least(0.95 * t0, t1) && !at_least(l0, l1);
	return rx > 0 && (flat || falls);
}

/* The step's verdict at the ends of the roundings tu (throughputs) and lu (latencies): the
 * rule is monotone in each value, so it is decided when the most knee-like end (throughput
 * lowest at i, highest at p; latency the reverse) and the least agree. */
static bool knee_decided(double rx, const double t[2], const double l[2], const double tu[2], const double lu[2],
			 bool *knee)
{
	*knee = knee_step(rx, t[0] + tu[0], t[1] - tu[1], l[0] - lu[0], l[1] + lu[1]);
	return *knee == knee_step(rx, t[0] - tu[0], t[1] + tu[1], l[0] + lu[0], l[1] - lu[1]);
}

enum fit_step fit_knee_step(const struct fit_knee_in *in, size_t p, size_t i, int *stat)
{
	*stat = knee_stat(in, p, i);
	if (*stat < 0)
		return FIT_STEP_NO_STAT;
	const double *lv = in->lat[*stat], *lr = in->lat_round[*stat];
	double rx = in->x[i] / in->x[p] - 1, t[2] = { in->tput[p], in->tput[i] }, l[2] = { lv[p], lv[i] };
	double tu[2] = { round_at(in->tput_round, p), round_at(in->tput_round, i) };
	double lu[2] = { round_at(lr, p), round_at(lr, i) }, none[2] = { 0, 0 };
	bool knee;
	if (knee_decided(rx, t, l, tu, lu, &knee))
		return knee ? FIT_STEP_KNEE : FIT_STEP_NO_KNEE;
	if (!knee_decided(rx, t, l, tu, none, &knee))
		return FIT_STEP_ROUND_TPUT;
	return knee_decided(rx, t, l, none, lu, &knee) ? FIT_STEP_ROUND_BOTH : FIT_STEP_ROUND_LAT;
}

size_t fit_knee_points(const struct fit_knee_in *in, bool *rising, long *last_point)
{
	size_t k = 0;
	long prev = -1, last = -1;
	for (size_t i = 0; i < in->n; i++)
		if (fit_knee_point(in, i)) {
			prev = last;
			last = (long)i;
			k++;
		}
	*rising = prev >= 0 && in->tput[last] > in->tput[prev];
	*last_point = last;
	return k;
}

long fit_knee(const struct fit_knee_in *in, long *next, int *stat)
{
	*next = -1;
	*stat = -1;
	for (size_t i = 0; i < in->n; i++) {
		long p = fit_knee_prev(in, i);
		int st;
		if (p >= 0 && fit_knee_step(in, (size_t)p, i, &st) == FIT_STEP_KNEE) {
			*next = (long)i;
			*stat = st;
			return p;
		}
	}
	return -1;
}

void fit_outliers_text(const struct sweep_fit *f, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < f->nout && k + 24 < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%g", i ? " " : "", f->outliers[i]);
}

/* A stored fit against the recomputed one; false when the file stores none (older
 * calculators write no fit_results, and a null fit says nothing to compare). */
bool fit_differs(const struct sweep_fit *a, bool has_a, const struct sweep_fit *b)
{
	if (!has_a)
		return false;
	if (!b->ok || b->poor)
		return true;
	double tol = 1e-9;
	if (fabs(a->slope - b->slope) > tol * fmax(1, fabs(b->slope)) ||
	    fabs(a->intercept - b->intercept) > tol * fmax(1, fabs(b->intercept)) ||
	    fabs(a->r2 - b->r2) > tol || a->nout != b->nout)
		return true;
	for (size_t i = 0; i < a->nout; i++)
		if (a->outliers[i] != b->outliers[i])
			return true;
	return false;
}
