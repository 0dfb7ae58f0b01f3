/* SPDX-License-Identifier: MIT */
/* analysis_stragglers.c: tscope-tui's own straggler rules (analysis.h STRAGGLERS): per
 * rank a rise too late to judge (in the last STRAG_MIN_STEPS - 1 steps: named, no onset
 * placed, the tests below read the steps before it), a fail-slow change point, a
 * slow-throughout test (both weighed by the level the rank holds to the end: a slow
 * stretch that ends is none; a rank slow before its rise is slow throughout, then slower)
 * and the biggest transient stall, each with a z test against the rank's step-to-step
 * noise, over the judged steps (analysis.h JUDGED STEPS); then the one straggler set every
 * view reads (pytscope's straggler that recovered: over its stall), and its line.
 * O(steps) per rank; medians (selection) only for candidate ranks. */
#include "model/steps/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/stats.h"
#include "model/text.h"
#include "model/units.h"
#include "model/xalloc.h"

static double capped(double v)
{
	return v > 1 ? 1 : v < -1 ? -1 : v;
}

/* sqrt(pi)/2 times the mean |x_k - x_(k-1)| (each capped at 1) over [lo, hi): the
 * noise sigma estimator, robust to a change point and to a few stalls. */
static double noise_over(const double *x, size_t lo, size_t hi)
{
	double var = 0;
	for (size_t k = lo + 1; k < hi; k++) {
		double dx = fabs(x[k] - x[k - 1]);
		var += dx < 1 ? dx : 1;
	}
	return hi > lo + 1 ? sqrt(M_PI) / 2 * var / (double)(hi - lo - 1) : 0;
}

/* x (capped slowdown, from ratio when every step median is > 0, else recomputed) over
 * the judged steps, its sum and its noise sigma, in one pass. */
static double fill_slowdown(const struct distributed *d, const double *c, const double *ratio, bool aligned,
			    double *x, double *sigma, double *max)
{
	size_t S = d->n_judged;
	double total = 0, var = 0, prev = 0;
	*max = -1;
	for (size_t k = 0; k < S; k++) {
		double med = d->step[k].cmed;
		double v = aligned ? capped(ratio[k]) : med > 0 ? capped(c[k] / med - 1.0) : 0.0;
		x[k] = v;
		total += v;
		if (v > *max)
			*max = v;
		double dx = fabs(v - prev);
		if (k)
			var += dx < 1 ? dx : 1; /* a ternary: fmin is a libm call at -O2 */
		prev = v;
	}
	*sigma = S > 1 ? sqrt(M_PI) / 2 * var / (double)(S - 1) : 0;
	if (*sigma < 0.001)
		*sigma = 0.001;
	return total;
}

/* Change-point statistic at t (prefix = x[0] + ... + x[t-1]): the upward mean shift
 * times sqrt(t (S - t) / S), squared and times S: (total t - prefix S)^2 / (t (S - t)).
 * 0 when the shift is not upward. */
static double cusum_score(double total, double prefix, size_t t, size_t S)
{
	double a = total * (double)t - prefix * (double)S;
	return a > 0 ? a * a / ((double)t * (double)(S - t)) : 0;
}

#define CP_STRIDE 8

/* The change point t in [1, S - min_after] maximising cusum_score; 0: none. The
 * score is evaluated every CP_STRIDE steps, then at every step within CP_STRIDE of the
 * best (the score is smooth next to a real change point; a stride costs < 1 ns a step). */
static size_t change_point(const double *x, size_t S, double total, size_t min_after)
{
	if (S <= min_after)
		return 0;
	size_t last = S - min_after, best = 0;
	double pre = 0, best_score = 0, best_pre = 0;
	for (size_t t = 1; t <= last; t++) {
		pre += x[t - 1];
		if (t % CP_STRIDE == 0 || t == last) {
			double sc = cusum_score(total, pre, t, S);
			if (sc > best_score) {
				best_score = sc;
				best = t;
				best_pre = pre;
			}
		}
	}
	if (!best)
		return 0;
	size_t lo = best > CP_STRIDE ? best - CP_STRIDE : 1, hi = best + CP_STRIDE < last ? best + CP_STRIDE : last;
	pre = best_pre;
	for (size_t t = best; t > lo; t--) /* back to the prefix at lo */
		pre -= x[t - 1];
	size_t refined = best;
	for (size_t t = lo; t <= hi; t++) {
		double sc = cusum_score(total, pre, t, S);
		if (sc > best_score) {
			best_score = sc;
			refined = t;
		}
		pre += x[t];
	}
	return refined;
}

static double mean_of(const double *x, size_t n)
{
	double s = 0;
	for (size_t k = 0; k < n; k++)
		s += x[k];
	return n ? s / (double)n : 0;
}

/* Median of the (uncapped) slowdown over aligned steps [lo, hi), into scratch y: the
 * reported effect sizes are medians of what the rank really did. */
static double median_slowdown(const struct distributed *d, const double *c, size_t lo, size_t hi, double *y)
{
	size_t n = 0;
	for (size_t k = lo; k < hi; k++) {
		double med = d->step[k].cmed;
		y[n++] = med > 0 ? c[k] / med - 1.0 : 0.0;
	}
	return stats_median_inplace(y, n);
}

/* The lower median of the (uncapped) slowdown over the few aligned steps [lo, hi) (fewer
 * than STRAG_MIN_STEPS), sorted into scratch y: the level of a short stretch, which one
 * slow step of two does not make. */
static double low_median_slowdown(const struct distributed *d, const double *c, size_t lo, size_t hi, double *y)
{
	size_t n = 0;
	for (size_t k = lo; k < hi; k++) {
		double med = d->step[k].cmed, v = med > 0 ? c[k] / med - 1.0 : 0.0;
		size_t j = n++;
		for (; j > 0 && y[j - 1] > v; j--)
			y[j] = y[j - 1];
		y[j] = v;
	}
	return n ? y[(n - 1) / 2] : 0;
}

/* A RISE TOO LATE TO JUDGE (analysis.h STRAGGLERS) over the S judged steps (total: x's
 * sum): into rs->late_onset and late_level; returns the steps the other tests judge (its
 * index, else S). y: scratch of S. */
static size_t late_rise(const struct distributed *d, const double *c, const double *x, double total, double *y,
			struct rank_stat *rs)
{
	size_t S = d->n_judged, t = change_point(x, S, total, 1);
	if (!t || S - t >= STRAG_MIN_STEPS || S - t < STRAG_LATE_MIN)
		return S;
	size_t n = S - t;
	double tail = mean_of(x + t, n);
	if (tail - (total - tail * (double)n) / (double)t < STRAG_MIN_SHIFT / 2)
		return S; /* no medians for noise at the end (the mean shift gates them, as below) */
	double before = median_slowdown(d, c, 0, t, y), after = low_median_slowdown(d, c, t, S, y);
	double z = (after - before) / (rs->noise * sqrt(1.0 / (double)t + 1.0 / (double)n));
	double z_after = after / (rs->noise / sqrt((double)n));
	if (!(after - before >= STRAG_MIN_SHIFT && z >= STRAG_Z && after >= STRAG_MIN_SHIFT && z_after >= STRAG_Z))
		return S;
	rs->late_onset = d->step[t].step;
	rs->late_level = after;
	return t;
}

/* Seconds the others waited for rank ri (compute c) over judged steps [lo, hi]. */
static double cost_over(const struct distributed *d, size_t ri, const double *c, const double *lost, size_t lo,
			size_t hi)
{
	double s = 0;
	for (size_t k = lo; k <= hi && k < d->n_judged; k++) {
		double part = analysis_critical_part(&d->step[k], ri, c[k]);
		if (part > 0)
			s += part * lost[k];
	}
	return s;
}

/* Rank ri's compute at aligned step k, or with other what it is weighed against: the
 * other rank's of 2 (their step median is their mean), else the step median. */
static double compute_at(const struct distributed *d, const double *c, size_t k, bool other)
{
	if (!other)
		return c[k];
	return d->world_size == 2 ? 2 * d->step[k].cmed - c[k] : d->step[k].cmed;
}

/* Significant change of that compute at t: +1 up, -1 down, 0 neither (not by
 * STRAG_MIN_SHIFT, or not with z >= STRAG_Z): its median over [t, S) against [0, t),
 * relative, z against its own step-to-step noise (sigma as noise_over, relative to the
 * median before). y: scratch of S. */
static int own_change(const struct distributed *d, size_t S, const double *c, bool other, size_t t, double *y)
{
	for (size_t k = 0; k < S; k++)
		y[k] = compute_at(d, c, k, other);
	double before = stats_median_inplace(y, t), after = stats_median_inplace(y + t, S - t);
	if (!(before > 0))
		return 0;
	double var = 0;
	for (size_t k = 1; k < S; k++) {
		double dx = fabs(compute_at(d, c, k, other) - compute_at(d, c, k - 1, other)) / before;
		var += dx < 1 ? dx : 1;
	}
	double sigma = fmax(sqrt(M_PI) / 2 * var / (double)(S - 1), 0.001);
	double shift = after / before - 1;
	double z = shift / (sigma * sqrt(1.0 / (double)t + 1.0 / (double)(S - t)));
	return shift >= STRAG_MIN_SHIFT && z >= STRAG_Z ? 1 : shift <= -STRAG_MIN_SHIFT && z <= -STRAG_Z ? -1 : 0;
}

enum gap_cause { GAP_SELF, GAP_OTHERS, GAP_UNKNOWN };

/* Who opened a significant gap at t between a rank and the step median: the rank when
 * its own compute rose; the others when what it is weighed against fell (they sped up:
 * the rank did not turn slow); else the rank with 3 ranks or more (the median is the
 * others', and it held), unknown with 2 (their mean: either may have changed). */
static enum gap_cause gap_cause(const struct distributed *d, size_t S, const double *c, size_t t, double *y)
{
	if (own_change(d, S, c, false, t, y) > 0)
		return GAP_SELF;
	if (own_change(d, S, c, true, t, y) < 0)
		return GAP_OTHERS;
	return d->world_size > 2 ? GAP_SELF : GAP_UNKNOWN;
}

/* The start of the level x over [lo, S) holds to the end: its downward change point u,
 * with at least STALL_MIN_STEPS steps after it (fewer are isolated steps, as for a stall),
 * when the slowdown fell there significantly (median over [lo, u) minus over [u, S), as a
 * shift); else lo. y: scratch of S. */
static size_t lasting_level(const struct distributed *d, size_t S, const double *c, const double *x, size_t lo,
			    double noise, double *y)
{
	size_t n = S - lo;
	double total = 0;
	for (size_t k = 0; k < n; k++) {
		y[k] = -x[lo + k];
		total += y[k];
	}
	size_t u = change_point(y, n, total, STALL_MIN_STEPS);
	if (!u)
		return lo;
	double drop = median_slowdown(d, c, lo, lo + u, y) - median_slowdown(d, c, lo + u, S, y);
	double z = drop / (noise * sqrt(1.0 / (double)u + 1.0 / (double)(n - u)));
	return drop >= STRAG_MIN_SHIFT && z >= STRAG_Z ? lo + u : lo;
}

/* The rise at t (level before it: before) fell back at u > t to where it was: the
 * stretch [t, u) of the S steps is significantly above before, and what follows is not. */
static bool rise_ended(const struct distributed *d, size_t S, const double *c, size_t t, size_t u, double before,
		       double noise, double *y)
{
	if (u == t)
		return false;
	double rise = median_slowdown(d, c, t, u, y) - before;
	double rest = median_slowdown(d, c, u, S, y) - before;
	double z = rise / (noise * sqrt(1.0 / (double)t + 1.0 / (double)(u - t)));
	double z_rest = rest / (noise * sqrt(1.0 / (double)t + 1.0 / (double)(S - u)));
	return rise >= STRAG_MIN_SHIFT && z >= STRAG_Z && !(rest >= STRAG_MIN_SHIFT && z_rest >= STRAG_Z);
}

/* Its own compute rose significantly at t, from the median slowdown before to after (the
 * level it holds to the end; z of the rise): FAIL-SLOW from t, unless it was slow before t
 * too (as SLOW THROUGHOUT over [0, t)): then slow throughout, slower still from t. Returns
 * the onset index. */
static size_t turned_slow(const struct distributed *d, size_t t, double before, double after, double z,
			  struct rank_stat *rs)
{
	double z_before = before / (rs->noise / sqrt((double)t));
	if (before >= STRAG_MIN_SHIFT && z_before >= STRAG_Z) {
		rs->slow_shift = before;
		rs->slow_z = z_before;
		rs->rise_onset = d->step[t].step;
		rs->rise_level = after;
		return 0;
	}
	rs->fail_slow = true;
	rs->slow_shift = after;
	rs->slow_before = before;
	rs->slow_z = z;
	return t;
}

/* FAIL-SLOW or SLOW THROUGHOUT over the first S judged steps (total: x's sum over them);
 * returns the onset index (S when not slow), *gap the index of a rise that is no fail-slow
 * (rank_stat.gap_onset; S when none). Both are weighed by the level the rank holds to the
 * end (lasting_level): a slow stretch that ends is no onset, and *usual is then the rank's
 * slowdown outside it (else unchanged: NaN), which the stall search weighs every step
 * against. */
static size_t slow_verdict(const struct distributed *d, size_t S, const double *c, const double *x, double total,
			   double *y, size_t *gap, double *usual, struct rank_stat *rs)
{
	size_t t = change_point(x, S, total, STRAG_MIN_STEPS), whole = S;
	if (t > 0 && mean_of(x + t, S - t) - mean_of(x, t) >= STRAG_MIN_SHIFT / 2) {
		size_t u = lasting_level(d, S, c, x, t, rs->noise, y);
		double before = median_slowdown(d, c, 0, t, y), after = median_slowdown(d, c, u, S, y);
		double shift = after - before;
		double z = shift / (rs->noise * sqrt(1.0 / (double)t + 1.0 / (double)(S - u)));
		double z_after = after / (rs->noise / sqrt((double)(S - u)));
		/* slower than it was AND slower than the step median: a rank that was only fast
		 * during a noisy warm-up has not turned slow */
		if (shift >= STRAG_MIN_SHIFT && z >= STRAG_Z && after >= STRAG_MIN_SHIFT && z_after >= STRAG_Z) {
			enum gap_cause why = gap_cause(d, S, c, t, y);
			if (why == GAP_SELF)
				return turned_slow(d, t, before, after, z, rs);
			rs->gap_onset = d->step[t].step;
			rs->gap_shift = shift;
			rs->gap_sped_up = why == GAP_OTHERS;
			*gap = whole = t; /* slow throughout only if slow before the gap opened */
		} else if (rise_ended(d, S, c, t, u, before, rs->noise, y)) {
			*usual = before;
			whole = t; /* slow throughout only if slow before the stretch too */
		}
	}
	if (whole >= STRAG_MIN_STEPS && (whole == S ? total / (double)S : mean_of(x, whole)) >= STRAG_MIN_SHIFT / 2) {
		size_t u = whole == S ? lasting_level(d, S, c, x, 0, rs->noise, y) : 0;
		double shift = median_slowdown(d, c, u, whole, y);
		double z = shift / (rs->noise / sqrt((double)(whole - u)));
		if (shift >= STRAG_MIN_SHIFT && z >= STRAG_Z) {
			rs->slow_shift = shift;
			rs->slow_z = z;
			return 0;
		}
		if (u > 0)
			*usual = shift; /* slow from the start, then no longer: a stretch that ended */
	}
	return S;
}

/* What a stall's step k is measured by: the excess of its slowdown over base + tau, and
 * when that is positive, over base + 3 s_k instead if larger, s_k being the spread of the
 * OTHER ranks' compute at step k relative to its median (from the step's cv: the sum of
 * squared deviations less this rank's share). A step where every rank is noisy (warm-up,
 * a data-loader hiccup) does not count toward one rank's burst. O(1), a sqrt only for
 * steps above the threshold. */
static double stall_excess(const struct distributed *d, const double *c, const double *x, size_t k,
			   double base, double tau)
{
	double e = x[k] - base - tau;
	const struct dist_step *s = &d->step[k];
	if (e <= 0 || s->cmed <= 0 || d->world_size < 2)
		return e;
	double n = (double)d->world_size, sd = s->cv * s->cmean, dev = c[k] - s->cmean;
	double others = (n * sd * sd - n / (n - 1) * dev * dev) / (n - 1);
	double wide = others > 0 ? 3 * sqrt(others) / s->cmed : 0;
	return wide > tau ? x[k] - base - wide : e;
}

/* Steps of [a, b] that count toward a stall (stall_excess > 0). */
static size_t slow_steps(const struct distributed *d, const double *c, const double *x, size_t a, size_t b,
			 double base, double tau)
{
	size_t n = 0;
	for (size_t k = a; k <= b; k++)
		n += stall_excess(d, c, x, k, base, tau) > 0;
	return n;
}

/* Maximum-sum run of stall_excess over [0, n); false when shorter than the minimum. */
static bool stall_run(const struct distributed *d, const double *c, const double *x, size_t n, double base,
		      double tau, size_t *a, size_t *b)
{
	double best = 0, cur = 0;
	size_t start = 0;
	bool have = false;
	for (size_t k = 0; k < n; k++) {
		if (cur <= 0) {
			cur = 0;
			start = k;
		}
		cur += stall_excess(d, c, x, k, base, tau);
		if (cur > best) {
			best = cur;
			*a = start;
			*b = k;
			have = true;
		}
	}
	return have && *b - *a + 1 >= STALL_MIN_STEPS;
}

/* TRANSIENT STALL over [0, n) (before the onset), against usual (the rank's slowdown
 * outside a slow stretch that ended, slow_verdict) or, when NaN, its median over [0, n). */
static void stall_verdict(const struct distributed *d, size_t ri, const double *c, const double *x, size_t n,
			  double mean, double max, double usual, const double *lost, double *y, struct rank_stat *rs)
{
	double tau = fmax(STALL_MIN_SHIFT / 2, 3 * rs->noise);
	size_t a = 0, b = 0;
	if (isnan(usual)) {
		if (n < STALL_MIN_STEPS || max - mean - tau <= 0)
			return; /* no step is above the threshold */
		if (!stall_run(d, c, x, n, mean, tau, &a, &b))
			return;
		usual = median_slowdown(d, c, 0, n, y); /* robust baseline, then search again */
	}
	/* a rank faster than the step median is measured from the median: over steps where it
	 * was no slower than the others it did not stall */
	double base = fmax(usual, 0);
	if (!stall_run(d, c, x, n, base, tau, &a, &b))
		return;
	if (slow_steps(d, c, x, a, b, base, tau) < STALL_MIN_STEPS)
		return; /* a few isolated slow steps (heavy-tailed noise), not a burst */
	size_t len = b - a + 1;
	double shift = median_slowdown(d, c, a, b + 1, y) - base;
	/* the noise around the burst when it is louder than the rank's usual (warm-up steps) */
	double local = noise_over(x, a > len ? a - len : 0, b + 1 + len < n ? b + 1 + len : n);
	double z = shift / ((local > rs->noise ? local : rs->noise) / sqrt((double)len));
	if (shift < STALL_MIN_SHIFT || z < STRAG_Z)
		return;
	rs->stall_lo = d->step[a].step;
	rs->stall_hi = d->step[b].step;
	rs->stall_shift = shift;
	rs->stall_z = z;
	rs->stall_cost = cost_over(d, ri, c, lost, a, b);
}

void analysis_rank_verdict(const struct distributed *d, size_t ri, const double *c, const double *ratio,
			   bool aligned, const double *lost, double *x, struct rank_stat *rs)
{
	size_t S = d->n_judged;
	rs->slow_onset = rs->stall_lo = rs->stall_hi = rs->gap_onset = rs->rise_onset = rs->late_onset = -1;
	rs->recovered = false;
	if (S < STRAG_MIN_JUDGE)
		return; /* too few steps to estimate the rank's noise: no verdict */
	double *y = x + S; /* second half of the scratch */
	double max;
	double total = fill_slowdown(d, c, ratio, aligned, x, &rs->noise, &max);
	size_t J = late_rise(d, c, x, total, y, rs); /* the steps judged below: not a rise too late */
	for (size_t k = J; k < S; k++)
		total -= x[k];
	size_t gap = J;
	double usual = NAN;
	size_t t = slow_verdict(d, J, c, x, total, y, &gap, &usual, rs);
	if (t < J) { /* its cost to the last judged step, a late rise's too */
		rs->slow_onset = d->step[t].step;
		rs->slow_cost = cost_over(d, ri, c, lost, t, S - 1);
	} else if (gap < J) { /* the onset if pytscope's rule names it (analysis_straggler_set) */
		rs->slow_cost = cost_over(d, ri, c, lost, gap, S - 1);
	}
	size_t n = t < gap ? t : gap; /* no stall after a rise that lasts */
	stall_verdict(d, ri, c, x, n, n == J ? total / (double)J : mean_of(x, n), max, usual, lost, y, rs);
}

/* a before b in the set: higher cost first, then lower rank id. */
static bool costlier(const struct distributed *d, int a, int b)
{
	const struct rank_stat *x = &d->rank[a], *y = &d->rank[b];
	return x->slow_cost != y->slow_cost ? x->slow_cost > y->slow_cost : x->rank < y->rank;
}

/* Rank rs's biggest stall ended before the last judged step, and no rise came too late
 * to judge after it: it recovered. */
static bool stall_ended(const struct distributed *d, const struct rank_stat *rs)
{
	return rs->stall_lo >= 0 && d->n_judged && rs->stall_hi < d->step[d->n_judged - 1].step && rs->late_onset < 0;
}

void analysis_straggler_set(struct distributed *d)
{
	d->stragglers = xmalloc((d->world_size + 1) * sizeof(*d->stragglers));
	d->nstragglers = 0;
	for (size_t r = 0; r < d->world_size; r++) {
		struct rank_stat *rs = &d->rank[r];
		if (d->straggler == (long)r && rs->slow_onset < 0) { /* pytscope's, not ours */
			bool gap = rs->gap_onset >= 0; /* slower from there, with no fail-slow */
			/* slow over its stall, then no longer */
			rs->recovered = !gap && stall_ended(d, rs);
			rs->slow_onset = gap ? rs->gap_onset : rs->recovered ? rs->stall_lo : d->step[0].step;
			rs->slow_shift = gap ? rs->gap_shift : rs->recovered ? rs->stall_shift : rs->rel_slowdown;
			rs->slow_cost = gap ? rs->slow_cost : rs->recovered ? rs->stall_cost : rs->time_lost;
		}
		rs->straggler = rs->slow_onset >= 0;
		if (!rs->straggler)
			continue;
		size_t j = d->nstragglers++; /* insertion: the set is small */
		while (j > 0 && costlier(d, (int)r, d->stragglers[j - 1])) {
			d->stragglers[j] = d->stragglers[j - 1];
			j--;
		}
		d->stragglers[j] = (int)r;
	}
}

int analysis_gap_rank(const struct distributed *d)
{
	for (size_t r = 0; r < d->world_size; r++)
		if (d->rank[r].gap_onset >= 0)
			return (int)r;
	return -1;
}

void analysis_gap_words(const struct distributed *d, int ri, char *buf, size_t n)
{
	const struct rank_stat *rs = &d->rank[ri];
	size_t more = 0;
	for (size_t r = (size_t)ri + 1; r < d->world_size; r++)
		more += d->rank[r].gap_onset >= 0;
	char likewise[48] = "";
	if (more)
		snprintf(likewise, sizeof(likewise), "; %zu more rank%s likewise", more, more == 1 ? "" : "s");
	if (!rs->gap_sped_up)
		snprintf(buf, n, "from step %ld rank %d is %.0f%% slower against the 2 ranks' mean, but neither "
			 "rank's own compute clearly changed", rs->gap_onset, rs->rank, rs->gap_shift * 100);
	else if (d->world_size == 2)
		snprintf(buf, n, "from step %ld rank %d is %.0f%% slower against the 2 ranks' mean as rank %d sped "
			 "up (own compute did not rise)", rs->gap_onset, rs->rank, rs->gap_shift * 100,
			 d->rank[1 - ri].rank);
	else
		snprintf(buf, n, "from step %ld rank %d is %.0f%% slower against the step median as other ranks "
			 "sped up (own compute did not rise%s)", rs->gap_onset, rs->rank, rs->gap_shift * 100, likewise);
}

int analysis_late_rank(const struct distributed *d)
{
	int first = -1;
	for (size_t r = 0; r < d->world_size; r++)
		if (d->rank[r].late_onset >= 0 && (first < 0 || d->rank[r].late_onset < d->rank[first].late_onset))
			first = (int)r;
	return first;
}

void analysis_late_words(const struct distributed *d, int ri, char *buf, size_t n)
{
	const struct rank_stat *rs = &d->rank[ri];
	size_t more = 0, S = d->n_judged;
	for (size_t r = 0; r < d->world_size; r++)
		more += d->rank[r].late_onset >= 0 && (int)r != ri;
	size_t after = S - analysis_dist_lower(d, S, rs->late_onset);
	snprintf(buf, n, "from step %ld rank %d is %.0f%% slower than %s, over the last %zu%s steps: a fail-slow "
		 "needs %d after its onset", rs->late_onset, rs->rank, rs->late_level * 100,
		 d->world_size == 2 ? "the 2 ranks' mean" : "the step median", after, S < d->n_steps ? " judged" : "",
		 STRAG_MIN_STEPS);
	if (more)
		text_appendf(buf, n, "; %zu more rank%s likewise", more, more == 1 ? "" : "s");
}

/* The straggler's words: "fail-slow, 28% slower from step 120", "11% slower from step 0,
 * 42% from step 100", "pytscope's straggler, 28% slower over steps 0-119, then recovered". */
static void straggler_words(const struct rank_stat *rs, char *buf, size_t n)
{
	if (rs->recovered)
		snprintf(buf, n, "pytscope's straggler, %.0f%% slower over steps %ld-%ld, then recovered",
			 rs->slow_shift * 100, rs->stall_lo, rs->stall_hi);
	else if (rs->rise_onset >= 0)
		snprintf(buf, n, "%.0f%% slower from step %ld, %.0f%% from step %ld", rs->slow_shift * 100,
			 rs->slow_onset, rs->rise_level * 100, rs->rise_onset);
	else
		snprintf(buf, n, "%s%.0f%% slower from step %ld", rs->fail_slow ? "fail-slow, " : "",
			 rs->slow_shift * 100, rs->slow_onset);
}

/* The verdict over the judged steps: "none ...", "not judged: ..." or the set; then a gap
 * no rank turned slow to open (analysis_gap_rank). */
static void straggler_verdict(const struct distributed *d, char *buf, size_t n)
{
	size_t S = d->n_judged;
	char before[48] = "";
	if (S < d->n_steps)
		snprintf(before, sizeof(before), " before step %ld", d->step[S].step);
	int gap = analysis_gap_rank(d), late = analysis_late_rank(d);
	bool sped_up = gap >= 0 && d->rank[gap].gap_sped_up;
	if (gap >= 0 && !d->nstragglers) {
		snprintf(buf, n, sped_up ? "none turned slow: " : "not judged: ");
		analysis_gap_words(d, gap, buf + strlen(buf), n - strlen(buf));
		return;
	}
	if (!d->nstragglers) {
		if (S < STRAG_MIN_JUDGE)
			snprintf(buf, n, "not judged: %zu aligned step%s%s (the noise test needs %d)", S,
				 S == 1 ? "" : "s", before, STRAG_MIN_JUDGE);
		else if (S < d->n_steps)
			snprintf(buf, n, "none over steps %ld-%ld (no rank significantly slower than the step median)",
				 d->step[0].step, d->step[S - 1].step);
		else if (late >= 0) /* the steps from there are not judged on that rank */
			snprintf(buf, n, "none before step %ld (no rank significantly slower than the step median)",
				 d->rank[late].late_onset);
		else
			snprintf(buf, n, "none (no rank significantly slower than the step median)");
		return;
	}
	const struct rank_stat *rs = &d->rank[d->stragglers[0]];
	char more[48] = "";
	if (d->nstragglers > 1)
		snprintf(more, sizeof(more), "; %zu more", d->nstragglers - 1);
	char cost[32], what[96];
	straggler_words(rs, what, sizeof(what));
	snprintf(buf, n, "%zu (rank %d: %s, cost %s%s)", d->nstragglers, rs->rank, what,
		 units_seconds(rs->slow_cost, cost, sizeof(cost)), more);
	if (gap >= 0) {
		text_appendf(buf, n, sped_up ? "; " : "; fail-slow not judged: ");
		size_t used = strlen(buf);
		analysis_gap_words(d, gap, buf + used, n - used);
	}
}

void analysis_straggler_line(const struct distributed *d, char *buf, size_t n)
{
	straggler_verdict(d, buf, n);
	int late = analysis_late_rank(d);
	if (late >= 0) {
		text_appendf(buf, n, "; not judged: ");
		size_t used = strlen(buf);
		analysis_late_words(d, late, buf + used, n - used);
	}
	size_t used = strlen(buf), S = d->n_judged;
	const char *why = "logged only before the step numbers went back, left out of tscope-tui's tests";
	if (S < d->n_steps && d->step[S].step == d->step[d->n_steps - 1].step)
		snprintf(buf + used, n - used, "; step %ld, %s", d->step[S].step, why);
	else if (S < d->n_steps)
		snprintf(buf + used, n - used, "; steps %ld-%ld, %s", d->step[S].step, d->step[d->n_steps - 1].step,
			 why);
	used = strlen(buf);
	if (d->repeats)
		snprintf(buf + used, n - used, "; a step logged twice counts by its last record with phases");
}

bool analysis_slow_listed(const struct distributed *d, size_t ri, bool fail_slow)
{
	const struct rank_stat *rs = &d->rank[ri];
	return rs->straggler && (long)ri != d->straggler && rs->fail_slow == fail_slow;
}
