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

/* Long sums run FSUM_LANES cascades side by side (value i into lane i % FSUM_LANES), so
 * the additions of one lane do not wait on the others' (the compiler keeps the lanes in
 * vector registers). When every addition into every lane's e was exact, the exact total
 * is the sum of the 2 FSUM_LANES doubles t and e, and one more cascade over those
 * decides it as above. Unlike the single cascade, lanes can miss an overflow the
 * sequential partials would meet (fsum's result then depends on the order), so they
 * decide only when the sum of magnitudes stays far from overflow; otherwise the caller
 * runs fsum. Either way the result is the correctly rounded sum, the double fsum gives. */
#define FSUM_LANES 8

struct lanes {
	double t[FSUM_LANES], e[FSUM_LANES];
	double inexact[FSUM_LANES];   /* sum of |error of each addition into e| */
	double mag[FSUM_LANES];       /* sum of |x| */
};

/* cascade_add of x into lane l of the lanes t, e, inexact, mag. */
static inline void lane_add_at(double *t, double *e, double *inexact, double *mag, size_t l, double x)
{
	double s = t[l] + x, bp = s - x;
	double err = (t[l] - bp) + (x - (s - bp));
	double e2 = e[l] + err, bp2 = e2 - err;
	inexact[l] += fabs((e[l] - bp2) + (err - (e2 - bp2)));
	mag[l] += fabs(x);
	t[l] = s;
	e[l] = e2;
}

static inline void lane_add(struct lanes *c, size_t l, double x)
{
	lane_add_at(c->t, c->e, c->inexact, c->mag, l, x);
}

/* One level of lanes_fold(): lane l += lane w + l for l < w, the upper lanes given apart
 * (th, eh, ih, mh: t + w, ...), so the compiler sees the halves do not overlap and
 * vectorizes (as lanes_put() below: only additions, subtractions and fabs), FOLD_GROUP
 * lanes a step when w is a multiple of it (a fixed count: -O2 vectorizes no other). */
#define FOLD_GROUP 8
static inline void fold_lane(double *restrict t, double *restrict e, double *restrict inexact,
			     double *restrict mag, const double *restrict th, const double *restrict eh,
			     const double *restrict ih, const double *restrict mh, size_t l)
{
	lane_add_at(t, e, inexact, mag, l, th[l]);
	lane_add_at(t, e, inexact, mag, l, eh[l]);
	inexact[l] += ih[l];
	mag[l] += mh[l];
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
static void fold_level(double *restrict t, double *restrict e, double *restrict inexact, double *restrict mag,
		       const double *restrict th, const double *restrict eh, const double *restrict ih,
		       const double *restrict mh, size_t w)
{
	size_t g = 0;
	for (; w % FOLD_GROUP == 0 && g < w; g += FOLD_GROUP)
		for (size_t k = 0; k < FOLD_GROUP; k++)
			fold_lane(t, e, inexact, mag, th, eh, ih, mh, g + k);
	for (; g < w; g++)
		fold_lane(t, e, inexact, mag, th, eh, ih, mh, g);
}

/* Fold the upper half of nl lanes into the lower half, error-free, until one lane is
 * left: t + e of a merged lane is the exact sum of both while the additions into e
 * stay exact. */
static void lanes_fold(double *t, double *e, double *inexact, double *mag, size_t nl)
{
	for (size_t w = nl / 2; w > 0; w /= 2)
		fold_level(t, e, inexact, mag, t + w, e + w, inexact + w, mag + w, w);
}

/* The sum lane 0 holds, when it decides it. */
static bool lane_result(double t, double e, double inexact, double mag, double *out)
{
	struct cascade all = { t, e, inexact == 0.0 };
	return mag < 0x1p1000 && cascade_result(&all, out);
}

/* The lanes over v[0..n), or over (v[i] - mean)^2 when squares: whole groups of
 * FSUM_LANES values in the lanes, the few left over in the final cascade with the
 * lanes' t and e. */
static bool lanes_sum(const double *v, size_t n, bool squares, double mean, double *out)
{
	struct lanes c;
	memset(&c, 0, sizeof(c));
	size_t full = n - n % FSUM_LANES;
	if (squares) {
		for (size_t i = 0; i < full; i += FSUM_LANES)
			for (size_t l = 0; l < FSUM_LANES; l++)
				lane_add(&c, l, (v[i + l] - mean) * (v[i + l] - mean));
	} else {
		for (size_t i = 0; i < full; i += FSUM_LANES)
			for (size_t l = 0; l < FSUM_LANES; l++)
				lane_add(&c, l, v[i + l]);
	}
	lanes_fold(c.t, c.e, c.inexact, c.mag, FSUM_LANES);
	for (size_t i = full; i < n; i++)
		lane_add(&c, 0, squares ? (v[i] - mean) * (v[i] - mean) : v[i]);
	return lane_result(c.t[0], c.e[0], c.inexact[0], c.mag[0], out);
}

void stats_lanes_init(struct stats_lanes *c)
{
	c->used = 0;
	c->npend = 0;
	c->in_lanes = false;
}

/* One block into the lanes, vectorized (x cannot alias the lanes) in the widest
 * registers the CPU has: only additions, subtractions and fabs, so no contraction into
 * FMA can change a bit. Alone in its function: with the pending values' branches
 * around it GCC leaves the loop scalar. GCC only: clang 14 leaves the clones'
 * dispatcher undefined at link time (make fuzz). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
static void lanes_put(struct stats_lanes *restrict c, const double *restrict x)
{
	for (size_t l = 0; l < STATS_LANES; l++)
		lane_add_at(c->t, c->e, c->inexact, c->mag, l, x[l]);
}

void stats_lanes_add(struct stats_lanes *c, const double *x, size_t n)
{
	if (!c->in_lanes && c->npend + n <= STATS_LANES) {
		memcpy(c->pend + c->npend, x, n * sizeof(*x));
		c->npend += n;
		return;
	}
	if (!c->in_lanes) { /* the pending values as one block, +0.0 after them */
		memset(c->t, 0, sizeof(c->t));
		memset(c->e, 0, sizeof(c->e));
		memset(c->inexact, 0, sizeof(c->inexact));
		memset(c->mag, 0, sizeof(c->mag));
		memset(c->pend + c->npend, 0, (STATS_LANES - c->npend) * sizeof(*c->pend));
		lanes_put(c, c->pend);
		c->used = c->npend;
		c->in_lanes = true;
	}
	lanes_put(c, x);
	c->used = n > c->used ? n : c->used;
}

/* Folding a level w whose upper lanes [w, 2w) hold exact zeros adds +0.0 to each lower
 * lane: no bit changes. So the fold starts at the smallest power of two >= used. */
bool stats_lanes_sum(struct stats_lanes *c, double *out)
{
	if (!c->in_lanes) {
		*out = stats_fsum(c->pend, c->npend);
		return true;
	}
	size_t nl = 1;
	while (nl < c->used && nl < STATS_LANES)
		nl *= 2;
	lanes_fold(c->t, c->e, c->inexact, c->mag, nl);
	return lane_result(c->t[0], c->e[0], c->inexact[0], c->mag[0], out);
}

double stats_fsum(const double *v, size_t n)
{
	double r;
	if (n >= 4 * FSUM_LANES)
		return lanes_sum(v, n, false, 0.0, &r) ? r : stats_fsum_partials(v, n);
	struct cascade c = { 0.0, 0.0, true };
	for (size_t i = 0; i < n; i++)
		cascade_add(&c, v[i]);
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

/* ---- medians by selection ---------------------------------------------------------- */

static void insertion_sort(double *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double x = v[i];
		size_t j = i;
		while (j > 0 && v[j - 1] > x) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/* A pivot for selecting position k of v[lo..hi): the median of three on short
 * ranges, else the sample value at k's relative place in 31 values spread over the
 * range (so the side kept is a small fraction of it). */
#define PIVOT_SAMPLE 31
static double pivot_near(const double *v, size_t lo, size_t hi, size_t k)
{
	size_t n = hi - lo;
	if (n <= 256) {
		double a = v[lo], b = v[lo + n / 2], c = v[hi - 1];
		double mn = a < b ? a : b, mx = a < b ? b : a;
		return c < mn ? mn : c > mx ? mx : c;
	}
	double s[PIVOT_SAMPLE];
	for (size_t i = 0; i < PIVOT_SAMPLE; i++)
		s[i] = v[lo + (2 * i + 1) * n / (2 * PIVOT_SAMPLE)];
	insertion_sort(s, PIVOT_SAMPLE);
	return s[(k - lo) * PIVOT_SAMPLE / n];
}

/* v[lo..hi) reordered so the values below t (with `equal`: not above t) come first;
 * returns where the others start. Branch-free (Lomuto's scheme, each value swapped to
 * the boundary and the boundary moved when it belongs below): on random data a Hoare
 * partition mispredicts about once per swap. */
static size_t partition_inplace(double *v, size_t lo, size_t hi, double t, bool equal)
{
	size_t a = lo;
	for (size_t i = lo; i < hi; i++) {
		double x = v[i];
		bool low = equal ? x <= t : x < t;
		v[i] = v[a];
		v[a] = x;
		a += low;
	}
	return a;
}

/* Afterwards v[k] holds the value a sort would put there, nothing before it is larger
 * and nothing after it smaller (stats_median_inplace reads the values before it). Each
 * pass partitions the range holding k around a pivot near it; when nothing is below the
 * pivot the values equal to it are split off, so runs of equal values end the search;
 * after 64 passes the rest is sorted (no O(n^2)). */
double stats_kth_inplace(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n;
	for (int pass = 0; hi - lo > 16; pass++) {
		if (pass == 64) {
			qsort(v + lo, hi - lo, sizeof(*v), cmp_dbl);
			return v[k];
		}
		double t = pivot_near(v, lo, hi, k);
		size_t a = partition_inplace(v, lo, hi, t, false);
		if (k < a) {
			hi = a;
		} else if (a > lo) {
			lo = a;
		} else {
			a = partition_inplace(v, lo, hi, t, true);
			if (k < a)
				return t;   /* v[lo..a) all equal t */
			lo = a;
		}
	}
	insertion_sort(v + lo, hi - lo);
	return v[k];
}

/* The value a sort of src[0..n) (no NaN) would put at k < n, src untouched: a copy in
 * buf, selected in place (faster than partitioning from one buffer into another, which
 * this was: 288 against 446 us a median of 100,000, 3.3 against 3.8 us of 1,000). */
static double select_copy(const double *src, size_t n, size_t k, double *buf)
{
	memcpy(buf, src, n * sizeof(*buf));
	return stats_kth_inplace(buf, n, k);
}

/* Median of v[0..n), n > 0, no NaN, no zeros of both signs; v untouched, buf n
 * doubles. For even n the (n/2 - 1)-th value is m itself unless exactly n/2 values are
 * below m, then the largest of those. */
static double median_copy(const double *v, size_t n, double *buf)
{
	size_t h = n / 2, below_n = 0;
	double m = select_copy(v, n, h, buf);
	if (n % 2)
		return m;
	double below = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		double y = v[i] < m ? v[i] : -INFINITY;
		below_n += v[i] < m;
		below = y > below ? y : below;
	}
	return ((below_n == h ? below : m) + m) / 2.0;
}

/* v holds NaN or zeros of both signs: its order statistics depend on how it is sorted
 * (the comparator ties NaN with everything and the two zeros with each other, so the
 * stable sort's input order decides). A median then needs median_sorted over a sort
 * with cmp_dbl; otherwise it is an order statistic and any selection gives its double. */
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

#define MEDIAN_STACK 128

/* Median by selection. Up to MEDIAN_STACK values by copying selection with a buffer on
 * the stack (v is left as it was), longer arrays in place (Floyd-Rivest; reorders v). */
double stats_median_inplace(double *v, size_t n)
{
	if (n == 0)
		return 0.0;
	if (order_ambiguous(v, n)) {
		qsort(v, n, sizeof(*v), cmp_dbl);
		return median_sorted(v, n);
	}
	if (n <= MEDIAN_STACK) {
		double buf[MEDIAN_STACK];
		return median_copy(v, n, buf);
	}
	size_t h = n / 2;
	stats_kth_inplace(v, n, h);
	if (n % 2)
		return v[h];
	double below = v[0];  /* the largest of v[0..h): the (h-1)-th smallest */
	for (size_t i = 1; i < h; i++)
		if (v[i] > below)
			below = v[i];
	return (below + v[h]) / 2.0;
}

double stats_median_buf(const double *v, size_t n, double *buf)
{
	if (n == 0)
		return 0.0;
	if (order_ambiguous(v, n)) {
		memcpy(buf, v, n * sizeof(*buf));
		qsort(buf, n, sizeof(*buf), cmp_dbl);
		return median_sorted(buf, n);
	}
	return median_copy(v, n, buf);
}

double stats_median(const double *v, size_t n)
{
	if (n == 0)
		return 0.0;
	double *buf = xmalloc(n * sizeof(*buf));
	double m = stats_median_buf(v, n, buf);
	free(buf);
	return m;
}

/* Between the lo-th and (lo+1)-th smallest values a and b, t of the way: numpy's _lerp,
 * a + (b - a) * t, computed from the far end when t >= 0.5. */
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
	stats_kth_inplace(s, n, lo);
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
 * puts them). Each step replaces the oldest value by the new one (at most 12 moves), the median
 * is read off the sorted window and the MAD merges the deviations on either side of it
 * (already in order), so no selection and no allocation per step (issue 17). The
 * history only ever holds finite values, so the NaN rescans of stats_median_inplace are
 * not needed; the results are the bits the two selections gave. */
#define SPIKE_WINDOW STATS_SPIKE_WINDOW

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

/* Replace the oldest value old of the ascending s[0..n) by x: the hole left where old
 * was (the first value comparing equal: ties are in arrival order and old is older
 * than any of them) moves to where x goes, after every value not above it. */
static void window_replace(double *s, size_t n, double old, double x)
{
	size_t i = 0;
	while (i + 1 < n && s[i] != old)
		i++;
	while (i + 1 < n && s[i + 1] <= x) {
		s[i] = s[i + 1];
		i++;
	}
	while (i > 0 && s[i - 1] > x) {
		s[i] = s[i - 1];
		i--;
	}
	s[i] = x;
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

void stats_spikes_init(struct spike_scan *s)
{
	s->nh = 0;
	s->oldest = 0;
}

void stats_spikes_feed(struct spike_scan *s, const double *v, const bool *present, size_t i0, size_t i1,
		       bool *flags)
{
	double *ring = s->ring, *sorted = s->sorted;
	size_t nh = s->nh, oldest = s->oldest;
	for (size_t i = i0; i < i1; i++) {
		flags[i] = false;
		if ((present && !present[i]) || !isfinite(v[i]))
			continue;
		/* a value not above the median never flags (med + 6 scale >= med, scale >= 0
		 * or NaN): the MAD is not needed for it */
		if (nh >= 6 && v[i] > window_median(sorted, nh)) {
			double med = window_median(sorted, nh);
			double scale = window_mad(sorted, nh, med) * 1.4826;
			if (scale > 0)
				flags[i] = v[i] > med + 6.0 * scale;
			else
				flags[i] = v[i] > med && (med <= 0 || v[i] > med * 1.5);
		}
		if (nh == SPIKE_WINDOW) {
			window_replace(sorted, nh, ring[oldest], v[i]);
			ring[oldest] = v[i];
			oldest = (oldest + 1) % SPIKE_WINDOW;
		} else {
			ring[nh] = v[i];
			window_insert(sorted, nh++, v[i]);
		}
	}
	s->nh = nh;
	s->oldest = oldest;
}

void stats_local_spikes(const double *v, const bool *present, size_t n, bool *flags)
{
	struct spike_scan s;
	stats_spikes_init(&s);
	stats_spikes_feed(&s, v, present, 0, n, flags);
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
	double sum;
	if (n >= 4 * FSUM_LANES && lanes_sum(v, n, true, mean, &sum))
		return sqrt(sum / (double)n);
	struct cascade c = { 0.0, 0.0, true };
	for (size_t i = 0; i < n; i++)
		cascade_add(&c, (v[i] - mean) * (v[i] - mean));
	if (cascade_result(&c, &sum))
		return sqrt(sum / (double)n);
	struct stats_sum s;
	stats_sum_init(&s);
	for (size_t i = 0; i < n; i++)
		stats_sum_add(&s, (v[i] - mean) * (v[i] - mean));
	return sqrt(stats_sum_result(&s) / (double)n);
}
