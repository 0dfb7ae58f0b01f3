/* SPDX-License-Identifier: MIT */
/* stats.c: exactly rounded sums, selection medians, MAD, the numpy-linear percentile,
 * local spikes and the robust slope (see stats.h). */
#include "model/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"

/* ---- exactly rounded summation (Python's math.fsum, Shewchuk partials) ---------- */

void stats_sum_init(struct stats_sum *s)
{
	s->n = 0;
	s->special = 0;
	s->inf = 0;
}

void stats_sum_add(struct stats_sum *s, double x)
{
	double xsave = x;
	int i = 0;
	for (int j = 0; j < s->n; j++) {
		double y = s->p[j];
		if (fabs(x) < fabs(y)) {
			double t = x;
			x = y;
			y = t;
		}
		double hi = x + y;
		double lo = y - (hi - x);
		if (lo != 0.0)
			s->p[i++] = lo;
		x = hi;
	}
	s->n = i;
	if (x != 0.0) {
		if (!isfinite(x)) {
			/* a non-finite input, or an overflow of finite ones */
			if (isinf(xsave))
				s->inf += xsave;
			s->special += isfinite(xsave) ? x : xsave;
			s->n = 0;
		} else if (s->n < (int)ARRAY_LEN(s->p)) {
			s->p[s->n++] = x;
		}
	}
}

double stats_sum_result(const struct stats_sum *s)
{
	if (s->special != 0.0 || isnan(s->special))
		return isnan(s->inf) ? NAN : s->special;
	int n = s->n;
	double hi = 0.0, lo = 0.0;
	if (n > 0) {
		hi = s->p[--n];
		while (n > 0) {
			double x = hi, y = s->p[--n];
			hi = x + y;
			double yr = hi - x;
			lo = y - yr;
			if (lo != 0.0)
				break;
		}
		if (n > 0 && ((lo < 0.0 && s->p[n - 1] < 0.0) || (lo > 0.0 && s->p[n - 1] > 0.0))) {
			double y = lo * 2.0;
			double x = hi + y;
			double yr = x - hi;
			if (y == yr)
				hi = x;
		}
	}
	return hi;
}

double stats_fsum_partials(const double *v, size_t n)
{
	struct stats_sum s;
	stats_sum_init(&s);
	for (size_t i = 0; i < n; i++)
		stats_sum_add(&s, v[i]);
	return stats_sum_result(&s);
}

/* The fast path of fsum: a cascade of error-free additions (TwoSum). t is the running
 * double sum and e the sum of its rounding errors, itself kept by error-free additions;
 * while every addition into e is exact, the exact total is t + e, so the one rounded
 * addition t + e is the correctly rounded sum: the double fsum returns. When an addition
 * into e was inexact, or the result is zero (fsum's sign of zero) or not finite, the
 * cascade cannot decide and the caller runs fsum. (analysis.c runs the same cascade a
 * block of records at a time.) */
struct cascade {
	double t, e;
	bool exact;
};

static void cascade_add(struct cascade *c, double x)
{
	double s = c->t + x, bp = s - x;
	double err = (c->t - bp) + (x - (s - bp));
	c->t = s;
	double e2 = c->e + err, bp2 = e2 - err;
	c->exact &= (c->e - bp2) + (err - (e2 - bp2)) == 0.0;
	c->e = e2;
}

static bool cascade_result(const struct cascade *c, double *out)
{
	double r = c->t + c->e;
	if (!c->exact || !isfinite(r) || r == 0.0)
		return false;
	*out = r;
	return true;
}

double stats_fsum(const double *v, size_t n)
{
	struct cascade c = { 0.0, 0.0, true };
	for (size_t i = 0; i < n; i++)
		cascade_add(&c, v[i]);
	double r;
	return cascade_result(&c, &r) ? r : stats_fsum_partials(v, n);
}

/* ---- robust statistics ------------------------------------------------------------ */

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double *sorted_copy(const double *v, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_dbl);
	return s;
}

static double median_sorted(const double *s, size_t n)
{
	if (n == 0)
		return 0.0;
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

/* Moves the values of v[lo..hi] below t (or, with `equal`, not above t) to the front,
 * keeping the order of neither side; returns where the rest starts. Branch-free (Lomuto
 * with a conditional step): every value is swapped into place and the boundary moves
 * by the comparison's result, so random data costs no mispredicted branches. */
static ptrdiff_t partition_below(double *v, ptrdiff_t lo, ptrdiff_t hi, double t, bool equal)
{
	ptrdiff_t j = lo;
	for (ptrdiff_t i = lo; i <= hi; i++) {
		double x = v[i];
		v[i] = v[j];
		v[j] = x;
		j += equal ? x <= t : x < t;
	}
	return j;
}

/* The middle one of a, b, c (no NaN). */
static double median3(double a, double b, double c)
{
	double lo = a < b ? a : b, hi = a < b ? b : a;
	return c < lo ? lo : c > hi ? hi : c;
}

/* Selection over v[left..right]: afterwards v[k] holds the value a sort would put
 * there, nothing before it is larger and nothing after it smaller. No NaN in v. A range
 * above 600 first selects k inside a sample-sized subrange around its expected place
 * (Floyd-Rivest), so the pivot lands near k (about 1.5 n comparisons for a median);
 * smaller ranges take the median of three. The range then keeps the side holding k;
 * when no value is below the pivot, the values equal to it are split off (so runs of
 * equal values end the search). After `budget` partitions the rest is sorted (no
 * O(n^2)). */
static void select_range(double *v, ptrdiff_t left, ptrdiff_t right, ptrdiff_t k, int budget)
{
	while (right > left) {
		if (budget-- == 0) {
			qsort(v + left, (size_t)(right - left + 1), sizeof(*v), cmp_dbl);
			return;
		}
		double t;
		if (right - left > 600) {
			double n = (double)(right - left + 1), i = (double)(k - left + 1), z = log(n);
			double s = 0.5 * exp(2.0 * z / 3.0);
			double sd = 0.5 * sqrt(z * s * (n - s) / n) * (i < n / 2 ? -1.0 : 1.0);
			ptrdiff_t nl = (ptrdiff_t)((double)k - i * s / n + sd);
			ptrdiff_t nr = (ptrdiff_t)((double)k + (n - i) * s / n + sd);
			select_range(v, nl > left ? nl : left, nr < right ? nr : right, k, budget);
			t = v[k];
		} else {
			t = median3(v[left], v[k], v[right]);
		}
		/* t is a value of the range, so each pass below drops at least one value */
		ptrdiff_t lt = partition_below(v, left, right, t, false);
		if (k < lt) {
			right = lt - 1;
			continue;
		}
		if (lt > left) {
			left = lt;
			continue;
		}
		ptrdiff_t le = partition_below(v, left, right, t, true);
		if (k < le)
			return;   /* v[left..le) all equal t */
		left = le;
	}
}

static void select_kth(double *v, size_t n, size_t k)
{
	int budget = 8;
	for (size_t len = n; len > 1; len /= 2)
		budget += 2;
	select_range(v, 0, (ptrdiff_t)n - 1, (ptrdiff_t)k, budget);
}

double stats_kth_inplace(double *v, size_t n, size_t k)
{
	select_kth(v, n, k);
	return v[k];
}

/* v holds NaN or zeros of both signs: its order statistics depend on how it is sorted. */
static bool order_ambiguous(const double *v, size_t n)
{
	bool nan = false, negz = false, posz = false;
	for (size_t i = 0; i < n; i++) {
		nan |= isnan(v[i]);
		if (v[i] == 0.0) {
			negz |= signbit(v[i]) != 0;
			posz |= signbit(v[i]) == 0;
		}
	}
	return nan || (negz && posz);
}

/* Median by selection; reorders v. The same double as median_sorted() over a sort with
 * cmp_dbl (a median is an order statistic): arrays holding NaN, or zeros of both signs
 * (which the comparator ties, so the stable sort's input order decides the sign), take
 * the sorting path itself. */
double stats_median_inplace(double *v, size_t n)
{
	if (n == 0)
		return 0.0;
	if (order_ambiguous(v, n)) {
		qsort(v, n, sizeof(*v), cmp_dbl);
		return median_sorted(v, n);
	}
	size_t h = n / 2;
	select_kth(v, n, h);
	if (n % 2)
		return v[h];
	double below = v[0];  /* the largest of v[0..h): the (h-1)-th smallest */
	for (size_t i = 1; i < h; i++)
		if (v[i] > below)
			below = v[i];
	return (below + v[h]) / 2.0;
}

double stats_median(const double *v, size_t n)
{
	if (n == 0)
		return 0.0;
	double *s = xmalloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	double m = stats_median_inplace(s, n);
	free(s);
	return m;
}

/* numpy's _lerp: a + (b - a) * t, computed from the far end when t >= 0.5. */
/* Between the lo-th and (lo+1)-th smallest values a and b, t of the way. */
static double percentile_between(double a, double b, double t)
{
	double d = b - a;
	return t >= 0.5 ? b - d * (1.0 - t) : a + d * t;
}

double stats_percentile_sorted(const double *v, size_t n, double q)
{
	if (n == 0)
		return NAN;
	double pos = q / 100.0 * (double)(n - 1);
	size_t lo = (size_t)floor(pos);
	if (lo >= n - 1)
		return v[n - 1];
	return percentile_between(v[lo], v[lo + 1], pos - (double)lo);
}

/* By selection (O(n), not a sort): the lo-th smallest, then the smallest above it. The
 * same double as over a sort (order statistics), except with NaN or zeros of both signs
 * (see stats_median_inplace), which take the sorting path. */
double stats_percentile(const double *v, size_t n, double q)
{
	if (n == 0)
		return NAN;
	double pos = q / 100.0 * (double)(n - 1);
	size_t lo = (size_t)floor(pos);
	if (order_ambiguous(v, n) || lo >= n - 1) {
		double *s = sorted_copy(v, n);
		double r = stats_percentile_sorted(s, n, q);
		free(s);
		return r;
	}
	double *s = xmalloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	select_kth(s, n, lo);
	double above = s[lo + 1];
	for (size_t i = lo + 2; i < n; i++)
		if (s[i] < above)
			above = s[i];
	double r = percentile_between(s[lo], above, pos - (double)lo);
	free(s);
	return r;
}

/* The MAD of v[0..n) about med, using d[0..n) as scratch (no allocation). */
static double mad_scratch(const double *v, size_t n, double med, double *d)
{
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(v[i] - med);
	return stats_median_inplace(d, n);
}

double stats_mad(const double *v, size_t n, double med)
{
	double *d = xmalloc((n ? n : 1) * sizeof(*d));
	double m = mad_scratch(v, n, med, d);
	free(d);
	return m;
}

/* stats_local_spikes keeps its history twice: a ring in arrival order (which value
 * leaves next) and the same values sorted, ties in arrival order (what a stable sort of
 * the history gives, so even zeros of both signs land where stats_median's sorting path
 * puts them). Each step inserts one value and removes one (at most 12 moves), the median
 * is read off the sorted window and the MAD merges the deviations on either side of it
 * (already in order), so no selection and no allocation per step (issue 17). The
 * history only ever holds finite values, so the NaN rescans of stats_median_inplace are
 * not needed; the results are the bits the two selections gave. */
#define SPIKE_WINDOW 12

/* Insert x into the ascending s[0..n) after every value not above it. */
static void window_insert(double *s, size_t n, double x)
{
	size_t i = n;
	while (i > 0 && s[i - 1] > x) {
		s[i] = s[i - 1];
		i--;
	}
	s[i] = x;
}

/* Remove the oldest value x from the ascending s[0..n): the first that compares equal
 * (ties are in arrival order, and x is older than any of them). */
static void window_remove(double *s, size_t n, double x)
{
	size_t i = 0;
	while (i + 1 < n && s[i] != x)
		i++;
	memmove(s + i, s + i + 1, (n - i - 1) * sizeof(*s));
}

/* Median of the ascending s[0..n), n > 0 (median_sorted). */
static double window_median(const double *s, size_t n)
{
	size_t h = n / 2;
	return n % 2 ? s[h] : (s[h - 1] + s[h]) / 2.0;
}

/* MAD about med of the ascending s[0..n): |s[i] - med| falls going left from the first
 * value >= med and rises going right, so merging the two runs gives the deviations in
 * order; the middle one(s) are the median a selection would find. */
static double window_mad(const double *s, size_t n, double med)
{
	size_t p = 0;
	while (p < n && s[p] < med)
		p++;
	size_t h = n / 2, l = p, r = p;
	double prev = 0.0, cur = 0.0;
	for (size_t k = 0; k <= h; k++) {
		prev = cur;
		double dl = l > 0 ? fabs(s[l - 1] - med) : INFINITY;
		double dr = r < n ? fabs(s[r] - med) : INFINITY;
		if (r < n && (l == 0 || dr <= dl)) {
			cur = dr;
			r++;
		} else {
			cur = dl;
			l--;
		}
	}
	return n % 2 ? cur : (prev + cur) / 2.0;
}

void stats_local_spikes(const double *v, const bool *present, size_t n, bool *flags)
{
	double ring[SPIKE_WINDOW], sorted[SPIKE_WINDOW];
	size_t nh = 0, oldest = 0;
	for (size_t i = 0; i < n; i++) {
		flags[i] = false;
		if ((present && !present[i]) || !isfinite(v[i]))
			continue;
		if (nh >= 6) {
			double med = window_median(sorted, nh);
			double scale = window_mad(sorted, nh, med) * 1.4826;
			if (scale > 0)
				flags[i] = v[i] > med + 6.0 * scale;
			else
				flags[i] = v[i] > med && (med <= 0 || v[i] > med * 1.5);
		}
		if (nh == SPIKE_WINDOW) {
			window_remove(sorted, nh--, ring[oldest]);
			ring[oldest] = v[i];
			oldest = (oldest + 1) % SPIKE_WINDOW;
		} else {
			ring[nh] = v[i];
		}
		window_insert(sorted, nh++, v[i]);
	}
}

double stats_robust_slope(const double *v, size_t n)
{
	if (n < 2)
		return 0.0;
	size_t w = (size_t)((double)n * 0.1);
	if (w < 1)
		w = 1;
	return (stats_median(v + n - w, w) - stats_median(v, w)) / (double)(n - 1);
}

double stats_mean(const double *v, size_t n)
{
	return n ? stats_fsum(v, n) / (double)n : 0.0;
}

/* Population standard deviation, two passes, exactly rounded sums. */
double stats_pstdev(const double *v, size_t n, double mean)
{
	if (n == 0)
		return 0.0;
	struct cascade c = { 0.0, 0.0, true };
	for (size_t i = 0; i < n; i++)
		cascade_add(&c, (v[i] - mean) * (v[i] - mean));
	double sum;
	if (cascade_result(&c, &sum))
		return sqrt(sum / (double)n);
	struct stats_sum s;
	stats_sum_init(&s);
	for (size_t i = 0; i < n; i++)
		stats_sum_add(&s, (v[i] - mean) * (v[i] - mean));
	return sqrt(stats_sum_result(&s) / (double)n);
}
