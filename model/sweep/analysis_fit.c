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
	double sx = 0, sy = 0, sxy = 0, sx2 = 0;
	for (size_t i = 0; i < n; i++) {
		sx += x[i];
		sy += y[i];
		sxy += x[i] * y[i];
		sx2 += x[i] * x[i];
	}
	double dn = (double)n;
	double den = dn * sx2 - sx * sx;
	if (den == 0 || !isfinite(den))
		return false;
	double m = (dn * sxy - sx * sy) / den;
	double b = (sy - m * sx) / dn;
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

static bool knee_point(const double *x, const double *tput, const double *lat, size_t i)
{
	return isfinite(x[i]) && isfinite(tput[i]) && isfinite(lat[i]) && x[i] > 0 && tput[i] > 0 && lat[i] > 0;
}

size_t fit_knee_points(const double *x, const double *tput, const double *lat, size_t n, bool *rising,
		       long *last_point)
{
	size_t k = 0;
	long prev = -1, last = -1;
	for (size_t i = 0; i < n; i++)
		if (knee_point(x, tput, lat, i)) {
			prev = last;
			last = (long)i;
			k++;
		}
	*rising = prev >= 0 && tput[last] > tput[prev];
	*last_point = last;
	return k;
}

/* Past the knee from one level to the next, whose stimulus, throughput and latency grow by rx,
 * rt and rl (relative): throughput flat while latency grows by 20% or more, or throughput
 * falling while latency grows. Flat is less than a tenth of the stimulus' growth, a step
 * wider than a doubling counting as a doubling: throughput that grows by 10% or more
 * (tripling from concurrency 1 to 32, say) never is. */
static bool knee_step(double rx, double rt, double rl)
{
	bool flat = rt < 0.1 * fmin(rx, 1) && rl >= 0.2, falls = rt <= -0.05 && rl > 0;
	return rx > 0 && (flat || falls);
}

long fit_knee(const double *x, const double *tput, const double *lat, size_t n, long *next)
{
	long prev = -1;
	*next = -1;
	for (size_t i = 0; i < n; i++) {
		if (!knee_point(x, tput, lat, i)) {
			/* a level with one of the two: what happened across it is unknown (a
			 * throughput that rose there, say); one with neither (no successful
			 * request) is passed over */
			if (isfinite(tput[i]) || isfinite(lat[i]))
				prev = -1;
			continue;
		}
		if (prev >= 0) {
			size_t p = (size_t)prev;
			if (knee_step(x[i] / x[p] - 1, tput[i] / tput[p] - 1, lat[i] / lat[p] - 1)) {
				*next = (long)i;
				return prev;
			}
		}
		prev = (long)i;
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
