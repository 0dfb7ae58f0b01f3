/* SPDX-License-Identifier: MIT */
/* test_median.c: the selection-based medians (stats_median, stats_median_inplace,
 * stats_median_buf, stats_kth_inplace)
 * against the sort-based reference they replaced, bit for bit, on many random arrays
 * (odd and even n, heavy duplicates, signed zeros, NaN, infinities); local spikes
 * against the sort-based implementation they replaced; stats_fsum's fast
 * path against Shewchuk's partials; and the run-wide
 * passes that use them: the distributed analysis and the slowdown heatmap give the same
 * bits with 1 or 2 threads and in either order (they share the memoized step medians). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/steps/analysis.h"
#include "tests/tap.h"
#include "tests/testutil.h"
#include "tests/tools/synth_run.h"

/* The reference: qsort with the analyzers' comparator (NaN ties everything), then the
 * middle value or the mean of the two middle values. */
static int cmp_ref(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_ref(const double *v, size_t n)
{
	if (n == 0)
		return 0.0;
	double *s = malloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_ref);
	double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
	free(s);
	return m;
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	return tu_xorshift(&rng);
}

enum kind { K_UNIFORM, K_DUPS, K_EQUAL, K_ASC, K_DESC, K_ZEROS, K_SIGNED_ZEROS, K_NAN, K_INF, K_NKINDS };
static const char *const kind_name[K_NKINDS] = {
	"uniform doubles", "few distinct values", "all equal", "ascending", "descending",
	"zeros of one sign among values", "zeros of both signs", "NaN sprinkled", "infinities",
};

static double value(enum kind k, size_t i, size_t n)
{
	double u = (double)(next() >> 11) / 9007199254740992.0;
	switch (k) {
	case K_UNIFORM: return (u - 0.3) * 1e3;
	case K_DUPS: return (double)(next() % 5) * 0.1;
	case K_EQUAL: return 0.125;
	case K_ASC: return (double)i * 0.5;
	case K_DESC: return (double)(n - i) * 0.5;
	case K_ZEROS: return next() % 3 ? 0.0 : u - 0.5;
	case K_SIGNED_ZEROS: return next() % 3 ? (next() % 2 ? -0.0 : 0.0) : u - 0.5;
	case K_NAN: return next() % 7 ? u : NAN;
	default: return next() % 5 ? u : (next() % 2 ? INFINITY : -INFINITY);
	}
}

static bool same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0;
}

/* stats_percentile (selection) against the percentile of a sorted copy, several q. */
static size_t percentile_bad(const double *v, size_t n)
{
	static const double qs[] = { 0, 1, 5, 25, 33.3, 50, 75, 95, 99, 99.9, 100 };
	double *s = malloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_ref);
	size_t bad = 0;
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		bad += !same_bits(stats_percentile(v, n, qs[i]), stats_percentile_sorted(s, n, qs[i]));
	free(s);
	return bad;
}

static void test_against_sort(void)
{
	for (int k = 0; k < K_NKINDS; k++) {
		size_t arrays = 0, bad = 0, touched = 0;
		for (int round = 0; round < 400; round++) {
			size_t n = round < 300 ? (size_t)round % 61 + 1 : (size_t)(next() % 5000) + 1;
			double *v = malloc(n * sizeof(*v)), *orig = malloc(n * sizeof(*v));
			for (size_t i = 0; i < n; i++)
				v[i] = orig[i] = value((enum kind)k, i, n);
			double want = median_ref(v, n);
			bad += percentile_bad(v, n);
			bad += !same_bits(stats_median(v, n), want);
			double *buf = malloc(n * sizeof(*buf)); /* exactly n: ASan sees any overrun */
			bad += !same_bits(stats_median_buf(v, n, buf), want);
			free(buf);
			touched += memcmp(v, orig, n * sizeof(*v)) != 0;
			bad += !same_bits(stats_median_inplace(v, n), want);
			arrays++;
			free(v);
			free(orig);
		}
		ok(bad == 0 && touched == 0, "median and percentiles = sorted reference, bit for bit: %s (%zu arrays, odd and even n)",
		   kind_name[k], arrays);
		if (bad || touched)
			printf("#   %zu mismatches, %zu inputs modified\n", bad, touched);
	}
	is_dbl(stats_median(NULL, 0), 0.0, 0, "median of nothing is 0");
	double two[] = { 3, 1 };
	ok(stats_median_inplace(two, 2) == 2.0, "median of two is their mean");
}

/* An organ-pipe input (bad for naive pivots): still exact, and it finishes. */
static void test_adversarial(void)
{
	size_t n = 20001;
	double *v = malloc(n * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = (double)((i % 2) ? i : n - i);
	double want = median_ref(v, n);
	ok(same_bits(stats_median_inplace(v, n), want), "median of an organ-pipe array of 20001");
	free(v);
}

/* stats_kth_inplace (the colour scale's lower median; the in-place medians and
 * percentiles select with it): for k at both ends, the middle and at random, the value
 * of a sorted copy, nothing larger before it and nothing smaller after it, on arrays
 * past the pivot sample's size and with runs of equal values. */
static void test_kth_inplace(void)
{
	size_t bad = 0, order = 0, calls = 0;
	for (int round = 0; round < 60; round++) {
		size_t n = round < 30 ? (size_t)(next() % 300) + 1 : (size_t)(next() % 30000) + 1000;
		enum kind kind = round % 3 == 0 ? K_DUPS : round % 3 == 1 ? K_UNIFORM : K_ASC;
		double *v = malloc(n * sizeof(*v)), *s = malloc(n * sizeof(*s)), *w = malloc(n * sizeof(*w));
		for (size_t i = 0; i < n; i++)
			v[i] = value(kind, i, n);
		memcpy(s, v, n * sizeof(*s));
		qsort(s, n, sizeof(*s), cmp_ref);
		size_t ks[] = { 0, n - 1, (n - 1) / 2, (size_t)(next() % n) };
		for (size_t j = 0; j < 4; j++, calls++) {
			size_t k = ks[j];
			memcpy(w, v, n * sizeof(*w));
			double got = stats_kth_inplace(w, n, k);
			bad += got != s[k] || w[k] != s[k];
			for (size_t i = 0; i < n; i++)
				order += (i < k && w[i] > w[k]) || (i > k && w[i] < w[k]);
		}
		free(v);
		free(s);
		free(w);
	}
	ok(bad == 0 && order == 0, "kth in place = sorted copy's, nothing misplaced around it (%zu selections)", calls);
}

/* stats_fsum (error-free cascade, else partials) against the partials alone. */
static void test_fsum_fast_path(void)
{
	size_t bad = 0, arrays = 0;
	for (int round = 0; round < 3000; round++) {
		size_t n = (size_t)(next() % 40) + 1;
		double v[40];
		for (size_t i = 0; i < n; i++) {
			double u = (double)(next() >> 11) / 9007199254740992.0;
			switch (round % 6) {
			case 0: v[i] = (double)(long)(u * 1e8) / 1e9; break;        /* phases */
			case 1: v[i] = ldexp(u - 0.5, (int)(next() % 200) - 100); break; /* wide */
			case 2: v[i] = (i % 2 ? -1.0 : 1.0) * ldexp(1.0, (int)(next() % 120) - 60); break;
			case 3: v[i] = i == 0 ? 1.0 : ldexp(1.0, -53 - (int)(next() % 60)); break; /* ties */
			case 4: v[i] = next() % 4 ? 0.0 : -0.0; break;
			default: v[i] = next() % 9 ? u * 1e308 : (next() % 2 ? INFINITY : NAN); break;
			}
		}
		bad += !same_bits(stats_fsum(v, n), stats_fsum_partials(v, n));
		arrays++;
	}
	double tie[] = { 1.0, ldexp(1.0, -53) }, above[] = { 1.0, ldexp(1.0, -53), ldexp(1.0, -105) };
	ok(bad == 0 && stats_fsum(tie, 2) == 1.0 && stats_fsum(above, 3) == 1.0 + ldexp(1.0, -52),
	   "fsum fast path = Shewchuk partials, bit for bit (%zu arrays: ties, cancellation, zeros, overflow)",
	   arrays);
}

/* stats_lanes (blocks of STATS_LANES values, a short last block padded with zeros, as
 * the budget sums gather them in analysis.c) against the partials: when the lanes
 * decide, bit for bit; on phase-like values they decide. */
static void test_fsum_lanes(void)
{
	size_t bad = 0, decided = 0, phase_undecided = 0;
	for (int round = 0; round < 1200; round++) {
		size_t n = (size_t)(next() % 400) + 1, nb = (n + STATS_LANES - 1) / STATS_LANES;
		double *v = calloc(nb * STATS_LANES, sizeof(*v));
		for (size_t i = 0; i < n; i++) {
			double u = (double)(next() >> 11) / 9007199254740992.0;
			switch (round % 6) {
			case 0: v[i] = (double)(long)(u * 1e8) / 1e9; break;
			case 1: v[i] = ldexp(u - 0.5, (int)(next() % 200) - 100); break;
			case 2: v[i] = (i % 2 ? -1.0 : 1.0) * ldexp(1.0, (int)(next() % 120) - 60); break;
			case 3: v[i] = i == 0 ? 1.0 : ldexp(1.0, -53 - (int)(next() % 60)); break;
			case 4: v[i] = next() % 4 ? 0.0 : -0.0; break;
			default: v[i] = next() % 9 ? u * 1e308 : (next() % 2 ? INFINITY : NAN); break;
			}
		}
		struct stats_lanes c;
		stats_lanes_init(&c);
		for (size_t b = 0; b < nb; b++)
			stats_lanes_add(&c, v + b * STATS_LANES, n - b * STATS_LANES < STATS_LANES ? n - b * STATS_LANES : STATS_LANES);
		double got;
		if (stats_lanes_sum(&c, &got)) {
			decided++;
			bad += !same_bits(got, stats_fsum_partials(v, n));
		} else {
			phase_undecided += round % 6 == 0;
		}
		free(v);
	}
	ok(bad == 0 && phase_undecided == 0 && decided > 0,
	   "fsum in lanes of %d = Shewchuk partials when decided (%zu of 1200), phase values always decided",
	   STATS_LANES, decided);
}

/* stats_lanes given short blocks (a rank of a few steps: each phase column a block of
 * n < STATS_LANES values, several columns into one budget line): while they fit in
 * STATS_LANES the values wait unfolded and the sum is always decided; past that, the
 * lanes take them. Either way, when decided, the partials' sum bit for bit. */
static void test_fsum_lanes_short(void)
{
	size_t bad = 0, undecided_small = 0, small = 0;
	for (int round = 0; round < 600; round++) {
		size_t nb = (size_t)(next() % 6) + 1, n = 0;
		double v[6 * STATS_LANES], blk[STATS_LANES];
		struct stats_lanes c;
		stats_lanes_init(&c);
		for (size_t b = 0; b < nb; b++) {
			size_t k = (size_t)(next() % (round % 2 ? 20 : STATS_LANES)) + 1;
			memset(blk, 0, sizeof(blk));
			for (size_t i = 0; i < k; i++) {
				double u = (double)(next() >> 11) / 9007199254740992.0;
				blk[i] = round % 3 == 0 ? (next() % 2 ? -0.0 : 0.0) : (double)(long)(u * 1e8) / 1e9;
				v[n++] = blk[i];
			}
			stats_lanes_add(&c, blk, k);
		}
		double got;
		small += n <= STATS_LANES;
		if (stats_lanes_sum(&c, &got))
			bad += !same_bits(got, stats_fsum_partials(v, n));
		else
			undecided_small += n <= STATS_LANES;
	}
	ok(bad == 0 && undecided_small == 0 && small > 0,
	   "fsum in lanes of short blocks = Shewchuk partials (%zu of 600 within %d values, all decided)", small,
	   STATS_LANES);
}

/* stats_local_spikes against the implementation it replaced (two sort-based medians
 * of the 12-value history per position). Some values are put exactly on the reference's
 * threshold (med + 6 scale, or med * 1.5 when the scale is 0) or one ulp either side of
 * it, so a median or MAD off by one bit flips a flag. */
static double spike_value(enum kind k, const double *hist, size_t nh)
{
	double x = value(k, 0, 1);
	if (nh < 6 || next() % 3)
		return x;
	double med = median_ref(hist, nh), d[12];
	for (size_t j = 0; j < nh; j++)
		d[j] = fabs(hist[j] - med);
	double scale = median_ref(d, nh) * 1.4826;
	double t = scale > 0 ? med + 6.0 * scale : med * 1.5;
	int nudge = (int)(next() % 3);
	return nudge == 0 ? t : nextafter(t, nudge == 1 ? INFINITY : -INFINITY);
}

static void spikes_ref(const double *v, const bool *present, size_t n, bool *flags)
{
	double hist[13], d[12];
	size_t nh = 0;
	for (size_t i = 0; i < n; i++) {
		flags[i] = false;
		if ((present && !present[i]) || !isfinite(v[i]))
			continue;
		if (nh >= 6) {
			double med = median_ref(hist, nh);
			for (size_t j = 0; j < nh; j++)
				d[j] = fabs(hist[j] - med);
			double scale = median_ref(d, nh) * 1.4826;
			if (scale > 0)
				flags[i] = v[i] > med + 6.0 * scale;
			else
				flags[i] = v[i] > med && (med <= 0 || v[i] > med * 1.5);
		}
		hist[nh++] = v[i];
		if (nh > 12) {
			memmove(hist, hist + 1, 12 * sizeof(*hist));
			nh = 12;
		}
	}
}

static void test_local_spikes(void)
{
	for (int k = 0; k < K_NKINDS; k++) {
		size_t bad = 0, flagged = 0, series = 0;
		for (int round = 0; round < 200; round++) {
			size_t n = (size_t)(next() % 300) + 1;
			double *v = malloc(n * sizeof(*v)), hist[13];
			bool *present = malloc(n), *fa = malloc(n), *fb = malloc(n);
			size_t nh = 0;
			for (size_t i = 0; i < n; i++) {
				v[i] = spike_value((enum kind)k, hist, nh);
				present[i] = round % 2 || next() % 5;
				if (present[i] && isfinite(v[i])) {
					hist[nh++] = v[i];
					if (nh > 12) {
						memmove(hist, hist + 1, 12 * sizeof(*hist));
						nh = 12;
					}
				}
			}
			const bool *pr = round % 2 ? NULL : present;
			spikes_ref(v, pr, n, fa);
			stats_local_spikes(v, pr, n, fb);
			bad += memcmp(fa, fb, n) != 0;
			for (size_t i = 0; i < n; i++)
				flagged += fa[i];
			series++;
			free(v);
			free(present);
			free(fa);
			free(fb);
		}
		ok(bad == 0 && (flagged > 0 || k == K_EQUAL),
		   "local spikes = sort-based reference: %s (%zu series, %zu flags, values on the threshold)",
		   kind_name[k], series, flagged);
	}
}

static bool dist_equal(const struct distributed *a, const struct distributed *b)
{
	if (!a || !b || a->world_size != b->world_size || a->n_steps != b->n_steps)
		return false;
	double sa[] = { a->mean_step_wall, a->mean_comm_fraction, a->imbalance_cv, a->sync_skew,
			a->wall_frac_lost, (double)a->straggler };
	double sb[] = { b->mean_step_wall, b->mean_comm_fraction, b->imbalance_cv, b->sync_skew,
			b->wall_frac_lost, (double)b->straggler };
	return memcmp(sa, sb, sizeof(sa)) == 0 &&
	       memcmp(a->step, b->step, a->n_steps * sizeof(*a->step)) == 0 &&
	       memcmp(a->rank, b->rank, a->world_size * sizeof(*a->rank)) == 0;
}

static bool heat_equal(const struct heat_grid *a, const struct heat_grid *b)
{
	if (!a || !b || heat_nranks(a) != heat_nranks(b) || heat_nsteps(a) != heat_nsteps(b))
		return false;
	for (size_t r = 0; r < heat_nranks(a); r++)
		for (size_t w = 1; w < 2 * heat_nsteps(a); w *= 2)
			for (size_t k = 0; k < heat_nsteps(a); k += w) {
				double ma = 0, wa = 0, mb = 0, wb = 0;
				bool oa = heat_range(a, r, k, k + w, &ma, &wa), ob = heat_range(b, r, k, k + w, &mb, &wb);
				if (oa != ob || !same_bits(ma, mb) || !same_bits(wa, wb))
					return false;
			}
	return true;
}

/* The slowdown cells are compute / (the distributed analysis's step median) - 1. */
static bool slowdown_matches(struct run *run)
{
	const struct distributed *d = analysis_distributed(run);
	const struct heat_grid *gs = analysis_heatmap(run, HEAT_REL_SLOWDOWN);
	const struct heat_grid *gc = analysis_heatmap(run, HEAT_COMPUTE);
	size_t bad = 0;
	for (size_t r = 0; d && gs && gc && r < heat_nranks(gs); r++)
		for (size_t k = 0; k < heat_nsteps(gs); k++) {
			double s, c, w;
			if (!heat_range(gs, r, k, k + 1, &s, &w) || !heat_range(gc, r, k, k + 1, &c, &w))
				bad++;
			else if (fabs(s - (c / d->step[k].cmed - 1.0)) > 1e-6)
				bad++;
		}
	return d && gs && gc && bad == 0;
}

static void test_passes(void)
{
	struct opts one = { .jobs = 1 }, two = { .jobs = 2 };
	synth_lcg = 42;
	struct run *a = synth_run(&one, 37, 301);
	synth_lcg = 42;
	struct run *b = synth_run(&two, 37, 301);
	/* a: distributed first, one thread; b: slowdown heatmap first, two threads */
	const struct distributed *da = analysis_distributed(a);
	const struct heat_grid *ha = analysis_heatmap(a, HEAT_REL_SLOWDOWN);
	const struct heat_grid *hb = analysis_heatmap(b, HEAT_REL_SLOWDOWN);
	const struct distributed *db = analysis_distributed(b);
	ok(dist_equal(da, db), "distributed: same bits with 1 or 2 threads, before or after the slowdown heatmap");
	ok(heat_equal(ha, hb), "slowdown heatmap: same bits with 1 or 2 threads, before or after the distributed analysis");
	ok(heat_equal(analysis_heatmap(a, HEAT_STEP_TIME), analysis_heatmap(b, HEAT_STEP_TIME)) &&
		   heat_equal(analysis_heatmap(a, HEAT_COMM), analysis_heatmap(b, HEAT_COMM)),
	   "step time and comm heatmaps: same bits with 1 or 2 threads");
	ok(slowdown_matches(b), "slowdown cells = compute / step median - 1");
	ok(da && da->straggler == 18, "the synthetic straggler is found (rank 18)");
	run_free(a);
	run_free(b);
}

int main(void)
{
	test_against_sort();
	test_adversarial();
	test_kth_inplace();
	test_fsum_fast_path();
	test_fsum_lanes();
	test_fsum_lanes_short();
	test_local_spikes();
	test_passes();
	return tap_done();
}
