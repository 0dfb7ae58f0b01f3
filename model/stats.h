/* SPDX-License-Identifier: MIT */
/* stats.h: the shared numeric core of every input family (pure functions on arrays):
 * exactly rounded sums (Python's math.fsum), medians by selection, MAD-based local
 * spikes, a robust slope, the mean and population standard deviation over exact sums,
 * and the ONE numpy-"linear" percentile. Used by the step analyzers (pytscope's
 * stats.py) and the sweep loaders and fits (GenAI-Perf's numpy.percentile).
 *
 * EMPTY INPUT. A percentile of nothing is NaN (there is no value: "missing is not
 * zero"); callers show it as '-'. Medians, means and deviations of nothing are 0, as
 * pytscope's helpers return, and every caller guards n > 0 before it shows one.
 *
 * No function keeps a pointer to its input; the ones that allocate scratch free it. */
#ifndef MODEL_STATS_H
#define MODEL_STATS_H

#include "model/base.h"

/* Exactly rounded sum (math.fsum). NaN/Inf propagate as in IEEE arithmetic. Usually
 * decided by a cascade of error-free additions; Shewchuk's partials when that cannot. */
double stats_fsum(const double *v, size_t n);
/* The same by Shewchuk's partials alone (the reference stats_fsum must equal). */
double stats_fsum_partials(const double *v, size_t n);

/* An exactly rounded sum gathered STATS_LANES values at a time (a block of a column:
 * value l of every block into lane l; +0.0 pads a short block of n values, x[n] on):
 * stats_lanes_sum() gives what stats_fsum() gives over every value added (consumes the
 * lanes), or false when the lanes cannot decide it (an inexact error term, a zero or
 * non-finite total, magnitudes near overflow): the caller then runs stats_fsum() over
 * the values. Lanes that only ever took padding hold exact zeros and are not folded
 * (a rank of a few steps pays for the lanes it used); while every value added fits in
 * STATS_LANES, no lane is used at all (pend below) and the sum is always decided. */
#define STATS_LANES 64
struct stats_lanes {
	double t[STATS_LANES], e[STATS_LANES], inexact[STATS_LANES], mag[STATS_LANES];
	size_t used;   /* lanes [used, STATS_LANES) took only padding */
	/* The values of the first blocks (without their padding), kept until STATS_LANES
	 * would not hold them; then the lanes are cleared and take them as one block. The
	 * sum of a rank of a few steps is stats_fsum() of them: no lanes to clear and fold
	 * (when the lanes decide, they give the same sum). */
	double pend[STATS_LANES];
	size_t npend;
	bool in_lanes;
};
void stats_lanes_init(struct stats_lanes *c);
void stats_lanes_add(struct stats_lanes *c, const double *x, size_t n);
bool stats_lanes_sum(struct stats_lanes *c, double *out);

/* A running exactly rounded sum, for sums gathered value by value (init, add...,
 * result). At most 64 partials are kept, plenty for doubles. */
struct stats_sum {
	double p[64];
	int n;
	double special, inf;
};
void stats_sum_init(struct stats_sum *s);
void stats_sum_add(struct stats_sum *s, double x);
double stats_sum_result(const struct stats_sum *s);

/* Median; 0 for n = 0. The exact double a sort would give (odd n: the middle value;
 * even n: the mean of the two middle ones), found by selection in O(n) expected time. */
double stats_median(const double *v, size_t n);
/* The same, in place: may reorder v (no allocation). */
double stats_median_inplace(double *v, size_t n);
/* The same with buf (n doubles) as scratch: v untouched, no allocation; the fastest
 * (v copied into buf and selected there). */
double stats_median_buf(const double *v, size_t n, double *buf);
/* The value a sort of v (no NaN) would put at position k < n, by selection in O(n)
 * expected time; reorders v. */
double stats_kth_inplace(double *v, size_t n, size_t k);
/* Median absolute deviation from med (unscaled); 0 for n = 0. */
double stats_mad(const double *v, size_t n, double med);

/* numpy.percentile(v, q), method "linear" (numpy's _lerp, bit for bit), q in [0, 100];
 * v need not be sorted (a copy is made; by selection, O(n)). NaN for n = 0. */
double stats_percentile(const double *v, size_t n, double q);
/* The same over an ascending array (no copy). NaN for n = 0. */
double stats_percentile_sorted(const double *sorted, size_t n, double q);

/* Mean over the exactly rounded sum; 0 for n = 0. */
double stats_mean(const double *v, size_t n);
/* Population standard deviation about mean (two passes, exact sums); 0 for n = 0. */
double stats_pstdev(const double *v, size_t n, double mean);

/* pytscope local_spikes(window=12, k=6, min_hist=6, rel=0.5): flags[i] set for flagged
 * positions. present may be NULL (all present); missing and non-finite values never
 * flag and never enter the history. No allocation. */
void stats_local_spikes(const double *v, const bool *present, size_t n, bool *flags);
/* The same in pieces (work in slices of bounded cost): stats_spikes_init(), then
 * stats_spikes_feed() over consecutive ranges [i0, i1) of the same v, present, flags
 * from i0 = 0 to n: the flags stats_local_spikes() sets. */
#define STATS_SPIKE_WINDOW 12
struct spike_scan {
	double ring[STATS_SPIKE_WINDOW], sorted[STATS_SPIKE_WINDOW];
	size_t nh, oldest;
};
void stats_spikes_init(struct spike_scan *s);
void stats_spikes_feed(struct spike_scan *s, const double *v, const bool *present, size_t i0, size_t i1,
		       bool *flags);
/* robust_slope(frac=0.1): (median of the last 10% - median of the first 10%) / (n - 1);
 * 0 for n < 2. */
double stats_robust_slope(const double *v, size_t n);

#endif
