/* SPDX-License-Identifier: MIT */
/* fit.h: the numeric core of sweeps and sizing, pure functions on arrays:
 * mean and population std (percentiles: model/stats.h), the NeMo Agent Toolkit linear fit
 * with its outlier rules (formats.md §4.3), the slope-based and rough GPU estimates,
 * and the throughput knee. No allocation escapes these functions except where noted. */
#ifndef MODEL_SWEEP_FIT_H
#define MODEL_SWEEP_FIT_H

#include "model/base.h"

/* FitConfig defaults (nat.profiler.calc.data_models.FitConfig). */
#define FIT_SMALL_RANGE 8
#define FIT_EXTREME_IQR 2.0
#define FIT_CONSERVATIVE_IQR 1.5
#define FIT_MIN_R2 0.7
#define FIT_MAX_OUTLIERS 64
#define FIT_OUTLIER_MIN_POINTS 5 /* remove_outliers runs on more than 4 points only */

struct sweep_fit {
	bool ok;             /* a line was fitted (>= 2 points) */
	bool poor;           /* r2 < FIT_MIN_R2: upstream raises and stores null */
	bool flat;           /* every y equal (SS_tot 0): r2 is 0 by upstream's convention and
			      * poor is set like upstream, yet the line fits every point */
	double slope, intercept, r2;
	double outliers[FIT_MAX_OUTLIERS]; /* x values removed, in removal order */
	size_t nout;
	size_t nused;
	bool tested;         /* the outlier rules ran (FIT_OUTLIER_MIN_POINTS points or more);
			      * false: nout 0 says nothing */
	const char *err;     /* static reason when !ok */
};

struct sweep_estimate {
	bool ok;
	double conc;         /* concurrency reaching the target: (target - intercept) / slope */
	double gpus;         /* target_users / conc * test_gpus */
	const char *err;     /* static reason when !ok */
};

double fit_mean(const double *v, size_t n);
/* Population standard deviation (ddof 0). */
double fit_pstd(const double *v, size_t n);
/* Ordinary least squares on n >= 2 points; returns false when degenerate (every x
 * equal) or when the values are so large that the slope, intercept or R² is not a finite
 * number (not judged, never an R² of NaN). r2 is 0 when SS_tot is 0 (upstream). A slope
 * (times the largest |x|) or intercept below 1e-12 of the largest |y| is rounding noise: 0. */
bool fit_ols(const double *x, const double *y, size_t n, double *slope, double *intercept,
	     double *r2);
/* compute_slope(): outlier removal (when n > 4: raw-y IQR x2.0 if n <= 8, then the
 * residual IQR x1.5), then OLS. */
struct sweep_fit fit_linear(const double *x, const double *y, size_t n);
/* calc_gpu_estimate_based_on_slope(). */
struct sweep_estimate fit_gpu_estimate(const struct sweep_fit *f, double target,
				       double users, double test_gpus);
/* calc_gpu_estimate_for_single_concurrency(): out_lat/out_rt set only when present.
 * A target <= 0 is unused. Returns false (both null) when an observed value exceeds
 * its target or no target is set. */
bool fit_rough_estimate(double target_lat, double target_rt, double users, double conc,
			double test_gpus, double obs_lat, double obs_rt, double *out_lat,
			bool *has_lat, double *out_rt, bool *has_rt);
/* The knee test's latency statistics, in preference order (the sweep's p50, average, p99):
 * two levels are compared on the first both have, never one's p50 with the other's average. */
#define FIT_KNEE_NLAT 3
/* A tolerance of 1e-9 relative on the knee's thresholds, so that "20% or more" holds at
 * 120 / 100 (0.19999999999999996 in doubles). */
#define FIT_KNEE_EPS 1e-9

/* The knee test's input: n levels, stimulus ascending; NaN where a value is missing. *_round
 * is the half-width of a value's rounding (a CSV's 2 decimals: 0.005; NULL: every value exact);
 * lat[k] NULL: no level has statistic k. */
struct fit_knee_in {
	const double *x, *tput, *tput_round;
	const double *lat[FIT_KNEE_NLAT], *lat_round[FIT_KNEE_NLAT];
	size_t n;
};

/* What the knee test makes of the step from one weighed level to the next. */
enum fit_step {
	FIT_STEP_NO_KNEE,
	FIT_STEP_KNEE,
	FIT_STEP_NO_STAT,     /* not compared: no latency statistic both levels have */
	FIT_STEP_ROUND_TPUT,  /* not compared: within the throughputs' rounding it is a knee or not */
	FIT_STEP_ROUND_LAT,   /* ... within the latencies' rounding */
	FIT_STEP_ROUND_BOTH,  /* ... within the two roundings together, neither alone */
};

/* Level i has what the knee test weighs: stimulus, throughput and a latency statistic, each
 * finite and > 0. */
bool fit_knee_point(const struct fit_knee_in *in, size_t i);
/* The level the knee test compares level i with: the weighed level before it, passing over
 * levels with neither a throughput nor a latency; -1 when i is not weighed, none comes
 * before it, or a level between has one of the two (what happened across it is unknown). */
long fit_knee_prev(const struct fit_knee_in *in, size_t i);
/* The step from weighed level p to i (> p): past the knee when throughput grows by less than
 * a tenth of the stimulus' relative growth (a step wider than a doubling counts as a
 * doubling: throughput that grows by 10% or more never is) while latency grows by 20% or
 * more, or falls by 5% or more while latency grows (more load, less done); thresholds within
 * FIT_KNEE_EPS. Not compared without a latency statistic both have, or when the verdict
 * differs at the ends of the values' rounding. *stat: the latency statistic compared (index
 * into lat[]), -1 for FIT_STEP_NO_STAT. */
enum fit_step fit_knee_step(const struct fit_knee_in *in, size_t p, size_t i, int *stat);
/* Throughput knee: the first level p (index) whose step to the next compared level
 * (fit_knee_prev) is past the knee; -1 when none. *next: that level (not always p + 1),
 * *stat its latency statistic; -1 both when there is no knee. */
long fit_knee(const struct fit_knee_in *in, long *next, int *stat);
/* The points fit_knee() can weigh (fit_knee_point); *rising: the last of them has a higher
 * throughput than the one before; *last_point: the index of that last one (-1 when none). */
size_t fit_knee_points(const struct fit_knee_in *in, bool *rising, long *last_point);

/* The removed outliers as text ("12 40.5"), truncated to fit buf. */
void fit_outliers_text(const struct sweep_fit *f, char *buf, size_t n);
/* A stored fit (has_a: present) differs from the recomputed b (1e-9 relative); false
 * when the file stores none (older calculators write no fit_results). */
bool fit_differs(const struct sweep_fit *a, bool has_a, const struct sweep_fit *b);

#endif
