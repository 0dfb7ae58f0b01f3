/* SPDX-License-Identifier: MIT */
/* test_sweep_fit.c: the numeric core of sweeps and sizing: numpy-linear percentiles,
 * the NAT linear fit with its outlier rules and GPU estimates, pinned to the reference
 * numbers of formats.md §4.4 (no fit of values so large that its sums overflow; no rounding
 * noise in an intercept of 0), and the throughput knee (a step wider than a doubling counts
 * as a doubling; thresholds that hold at their value; neighbours compared on one latency
 * statistic both have; a step a CSV's rounding could decide not compared). */
#include <math.h>
#include <string.h>
#include "model/stats.h"
#include "model/sweep/fit.h"
#include "model/sweep/plot.h"
#include "model/text.h"
#include "tests/tap.h"

static const double conc[] = { 1, 2, 4, 8, 16, 32 };
static const double runtime[] = { 4.03488, 4.71197, 5.67581, 7.90895, 12.677, 24.5307 };
static const double latency[] = { 1.14981, 1.3591, 1.50682, 2.10668, 3.30196, 6.57847 };

static void test_percentile(void)
{
	const double v[] = { 5, 1, 4, 2, 3 };
	is_dbl(stats_percentile(v, 5, 50), 3, 0, "median of 1..5");
	is_dbl(stats_percentile(v, 5, 25), 2, 0, "p25 of 1..5");
	is_dbl(stats_percentile(v, 5, 90), 4.6, 1e-12, "p90 interpolates linearly");
	const double w[] = { 140, 250, 300 };
	is_dbl(stats_percentile(w, 3, 90), 290, 1e-12, "p90 of three values");
	is_dbl(stats_percentile(w, 3, 100), 300, 0, "p100 is the max");
	ok(isnan(stats_percentile(w, 0, 50)), "empty input gives NaN");
	is_dbl(fit_pstd((const double[]){ 2, 4, 4, 4, 5, 5, 7, 9 }, 8), 2, 1e-12, "population std");
}

static void test_nat_reference(void)
{
	struct sweep_fit rt = fit_linear(conc, runtime, 6);
	ok(rt.ok && !rt.poor, "runtime fit ok");
	is_dbl(rt.slope, 0.6568376759061832, 1e-12, "runtime slope (formats §4.4)");
	is_dbl(rt.intercept, 3.026422736318409, 1e-12, "runtime intercept");
	is_dbl(rt.r2, 0.9954928276447451, 1e-12, "runtime R²");
	is_int(rt.nout, 0, "runtime fit removes no outlier");

	struct sweep_fit lat = fit_linear(conc, latency, 6);
	is_dbl(lat.slope, 0.14213034946236558, 1e-12, "latency slope");
	is_dbl(lat.intercept, 1.0036658333333333, 1e-12, "latency intercept");
	is_dbl(lat.r2, 0.9963213113636101, 1e-12, "latency R²");
	ok(lat.nout == 1 && lat.outliers[0] == 32, "latency fit removes concurrency 32 (residual IQR)");
	is_int(lat.nused, 5, "latency fit uses 5 points");

	struct sweep_estimate e = fit_gpu_estimate(&rt, 10, 100, 8);
	ok(e.ok, "slope-based estimate exists");
	is_dbl(e.gpus, 75.35159084873075, 1e-9, "100 users, 10 s runtime, 8 test GPUs -> 75.3516 GPUs");

	static const double want[] = { 322.7904, 188.4788, 113.5162, 79.0895 };
	for (size_t i = 0; i < 6; i++) {
		double gl = 0, gr = 0;
		bool hl, hr;
		bool any = fit_rough_estimate(0, 10, 100, conc[i], 8, latency[i], runtime[i], &gl, &hl,
					      &gr, &hr);
		if (i < 4)
			ok(any && hr && !hl && fabs(gr - want[i]) < 5e-5,
			   "rough runtime estimate at concurrency %g is %.4f", conc[i], want[i]);
		else
			ok(!any && !hr, "rough estimate at concurrency %g is null (over target)", conc[i]);
	}

	const double inj[] = { 4.0, 4.7, 5.7, 30.0, 12.7, 24.5 };
	struct sweep_fit f = fit_linear(conc, inj, 6);
	ok(f.nout == 1 && f.outliers[0] == 8, "injected outlier at 8 is removed");
	is_dbl(f.slope, 0.6548850574712645, 1e-12, "injected: slope");
	is_dbl(f.intercept, 3.1162643678160906, 1e-12, "injected: intercept");
	is_dbl(f.r2, 0.9962905169267919, 1e-12, "injected: R²");
}

static void test_fit_edges(void)
{
	struct sweep_fit f = fit_linear(conc, runtime, 1);
	ok(!f.ok && f.err, "one point: no fit, with a reason");
	const double same_x[] = { 4, 4, 4 }, y[] = { 1, 2, 3 };
	f = fit_linear(same_x, y, 3);
	ok(!f.ok, "all points at the same x: no fit");
	const double noisy[] = { 5, 1, 6, 2, 7, 1 };
	f = fit_linear(conc, noisy, 4);
	ok(f.ok && f.poor, "noisy data: poor fit flagged");
	struct sweep_estimate e = fit_gpu_estimate(&f, 10, 100, 8);
	ok(!e.ok, "no estimate from a poor fit");
	struct sweep_fit rt = fit_linear(conc, runtime, 6);
	e = fit_gpu_estimate(&rt, 2, 100, 8);
	ok(!e.ok && e.err, "target below the intercept: no estimate");
	e = fit_gpu_estimate(&rt, 10, 0, 8);
	ok(!e.ok, "no users: no estimate");
	const double huge[] = { 1e200, 2e200, 4e200, 8.5e200 };
	f = fit_linear(conc, huge, 4);
	ok(!f.ok && f.err && strstr(f.err, "not finite"), "values whose sums overflow: no fit, never an R² of NaN");
	e = fit_gpu_estimate(&f, 10, 100, 8);
	ok(!e.ok, "no estimate from a fit that overflowed");
}

/* fit_knee over x, throughput tp and one latency statistic lat (exact values). */
static long knee1(const double *x, const double *tp, const double *lat, size_t n, long *next)
{
	int st;
	struct fit_knee_in in = { .x = x, .tput = tp, .lat = { lat }, .n = n };
	return fit_knee(&in, next, &st);
}

static void test_knee(void)
{
	const double x[] = { 1, 2, 4, 8, 16 };
	const double tp[] = { 10, 20, 39, 40, 40.5 };
	const double lat[] = { 100, 100, 103, 200, 400 };
	long next;
	is_int(knee1(x, tp, lat, 5, &next), 2, "knee at concurrency 4: throughput flat, latency doubles");
	is_int(next, 3, "compared with concurrency 8");
	const double lin[] = { 10, 20, 40, 80, 160 };
	is_int(knee1(x, lin, lat, 5, &next), -1, "linear throughput: no knee");
	is_int(next, -1, "no knee: compared with nothing");
	const double gap[] = { 91.8, NAN, 72.3 }, gap_lat[] = { 39.44, NAN, 46.21 };
	is_int(knee1(x, gap, gap_lat, 3, &next), 0, "a level without data between: knee at concurrency 1");
	is_int(next, 2, "compared with concurrency 4, the next level with data, not 2");
	const double wx[] = { 1, 32, 64, 128 }, wtp[] = { 10, 30, 58, 60 }, wlat[] = { 100, 1050, 1100, 2100 };
	is_int(knee1(wx, wtp, wlat, 4, &next), 2, "wide steps: tripling throughput is no knee, 64 -> 128 is");
	const double ftp[] = { 10, 10.5, 21, 22 };
	is_int(knee1(wx, ftp, wlat, 4, &next), 0, "a wide step with throughput up 5%: knee at concurrency 1");
}

/* The knee's thresholds hold at their value ("20% or more" at 120 / 100, which doubles make
 * 0.19999999999999996), and not just below it. */
static void test_knee_thresholds(void)
{
	const double x[] = { 1, 2, 4, 8 }, tp[] = { 10, 20, 40, 40 };
	long next;
	const double lat20[] = { 100, 100, 100, 120 }, lat20b[] = { 50, 50, 50, 60 }, lat20c[] = { 200, 200, 200, 240 };
	is_int(knee1(x, tp, lat20, 4, &next), 2, "latency up exactly 20% (100 -> 120 ms), throughput flat: knee at 4");
	is_int(knee1(x, tp, lat20b, 4, &next), 2, "... 50 -> 60 ms too");
	is_int(knee1(x, tp, lat20c, 4, &next), 2, "... 200 -> 240 ms too");
	const double lat19[] = { 100, 100, 100, 119.99 };
	is_int(knee1(x, tp, lat19, 4, &next), -1, "latency up 19.99%: no knee");
	const double tp10[] = { 10, 20, 40, 44 };
	is_int(knee1(x, tp10, lat20, 4, &next), -1, "throughput up exactly 10% of a doubling: not flat, no knee");
	const double tp5[] = { 10, 20, 40, 38 }, lat1[] = { 100, 100, 100, 101 };
	is_int(knee1(x, tp5, lat1, 4, &next), 2, "throughput down exactly 5% while latency grows: knee");
}

/* Two levels are compared on one latency statistic both have: p50 at one level and the average at the next
 * are never compared; no statistic in common is a step not compared. */
static void test_knee_stat(void)
{
	const double x[] = { 1, 2, 4, 8 }, tp[] = { 10, 20, 40, 41 };
	const double p50[] = { 100, 100, 100, NAN }, avg[] = { 130, 130, 130, 130 };
	struct fit_knee_in in = { .x = x, .tput = tp, .lat = { p50, avg }, .n = 4 };
	long next;
	int st;
	is_int(fit_knee(&in, &next, &st), -1, "p50 100 at 4, only avg 130 at 8: avg against avg, no knee");
	is_int(fit_knee_step(&in, 2, 3, &st), FIT_STEP_NO_KNEE, "... the step 4 -> 8 compared");
	is_int(st, 1, "... on the average");
	is_int(fit_knee_step(&in, 1, 2, &st), FIT_STEP_NO_KNEE, "... and 2 -> 4 on p50, the first both have");
	is_int(st, 0, "... p50");
	const double only50[] = { 100, 100, 100, NAN }, only_avg[] = { NAN, NAN, NAN, 200 };
	struct fit_knee_in dis = { .x = x, .tput = tp, .lat = { only50, only_avg }, .n = 4 };
	is_int(fit_knee(&dis, &next, &st), -1, "p50 only up to 4, avg only at 8: no knee claimed");
	is_int(fit_knee_step(&dis, 2, 3, &st), FIT_STEP_NO_STAT, "... the step 4 -> 8 not compared");
	is_int(fit_knee_prev(&dis, 3), 2, "... though 8 follows 4");
}

/* A CSV's 2 decimals (0.005) as large as the rule's thresholds: the step is not compared. */
static void test_knee_rounding(void)
{
	const double x[] = { 1, 2, 4 }, tp[] = { 0.02, 0.05, 0.05 }, lat[] = { 1000, 1000, 1300 };
	const double tr[] = { 0.005, 0.005, 0.005 }, lr[] = { 0.005, 0.005, 0.005 };
	struct fit_knee_in in = { .x = x, .tput = tp, .tput_round = tr, .lat = { lat }, .lat_round = { lr }, .n = 3 };
	long next;
	int st;
	is_int(fit_knee(&in, &next, &st), -1, "CSV 0.02, 0.05, 0.05 req/s: no knee claimed");
	is_int(fit_knee_step(&in, 1, 2, &st), FIT_STEP_ROUND_TPUT, "... 2 -> 4 within the throughputs' rounding");
	is_int(fit_knee_step(&in, 0, 1, &st), FIT_STEP_NO_KNEE, "... 1 -> 2 grows more than any rounding: judged");
	const double big[] = { 20, 50, 50 };
	struct fit_knee_in ex = { .x = x, .tput = big, .tput_round = tr, .lat = { lat }, .lat_round = { lr }, .n = 3 };
	is_int(fit_knee(&ex, &next, &st), 1, "20, 50, 50 req/s: 0.005 cannot decide, knee at 2");
}

/* A line through points on a line through 0: no rounding noise left in the intercept. */
static void test_fit_noise(void)
{
	const double x[] = { 4, 8 }, y[] = { 0.13, 0.26 };
	struct sweep_fit f = fit_linear(x, y, 2);
	ok(f.ok && f.intercept == 0, "intercept 0, not -1.7e-16");
	is_dbl(f.slope, 0.0325, 1e-15, "slope kept");
}

static void test_plot(void)
{
	struct plot_spec p = { .n = 6 };
	snprintf(p.xlabel, sizeof(p.xlabel), "concurrency");
	struct sweep_fit f = fit_linear(conc, runtime, 6);
	for (size_t i = 0; i < 6; i++) {
		p.x[i] = conc[i];
		p.y[i] = runtime[i];
	}
	p.outlier[5] = true;
	p.has_line = true;
	p.slope = f.slope;
	p.intercept = f.intercept;
	p.has_target = true;
	p.target = 10;
	struct sweep_estimate e = fit_gpu_estimate(&f, 10, 100, 8);
	p.has_estimate = true;
	p.estimate = e.conc;
	char **rows = plot_render(&p, 48, 14, true);
	ok(rows != NULL, "ASCII plot renders");
	if (!rows)
		return;
	bool widths = true, pt = false, out = false, fit = false, tgt = false, est = false;
	for (int r = 0; r < 14; r++) {
		widths &= strlen(rows[r]) == 48;
		if (r < 12) {
			const char *area = rows[r] + 10;
			pt |= strchr(area, 'o') != NULL;
			out |= strchr(area, 'x') != NULL;
			fit |= strchr(area, '.') != NULL;
			tgt |= strstr(area, "---") != NULL;
			est |= strchr(area, '|') != NULL;
		}
	}
	ok(widths, "every ASCII row is exactly 48 columns");
	ok(pt && out && fit && tgt && est, "points, outlier, fit line, target line and estimate marked");
	ok(strstr(rows[13], "concurrency") != NULL, "x label row");
	plot_free(rows, 14);
	rows = plot_render(&p, 48, 14, false);
	bool uw = true, glyphs = false;
	for (int r = 0; r < 14; r++) {
		uw &= text_width(rows[r]) == 48;
		glyphs |= strstr(rows[r], "●") != NULL && strstr(rows[r], "│") != NULL;
	}
	ok(uw && glyphs, "UTF-8 plot: 48 display columns per row, Unicode glyphs");
	plot_free(rows, 14);
	p.lowconf[0] = true;
	rows = plot_render(&p, 48, 14, false);
	bool low = false;
	for (int r = 0; r < 12 && rows; r++)
		low |= strstr(rows[r], "○") != NULL;
	ok(low, "a low-confidence point is drawn as ○");
	plot_free(rows, 14);
	rows = plot_render(&p, 48, 14, true);
	low = false;
	for (int r = 0; r < 12 && rows; r++)
		low |= strchr(rows[r] + 10, '?') != NULL;
	ok(low, "... and as ? in ASCII");
	plot_free(rows, 14);
	p.outlier[5] = p.lowconf[0] = false;
	bool zero = true;
	for (int h = 5; h <= 60; h++) { /* the y axis starts at 0 (runtimes above 0): its label is "0", never "-0" */
		rows = plot_render(&p, 48, h, true);
		zero &= rows && strncmp(rows[h - 3], "       0 |", 10) == 0;
		plot_free(rows, h);
	}
	ok(zero, "the bottom y label reads 0 at every height, never -0 from rounding noise");
	struct plot_spec empty = { .n = 0 };
	ok(plot_render(&empty, 48, 14, true) == NULL, "nothing to plot: NULL");
	ok(plot_render(&p, 10, 3, true) == NULL, "too small: NULL");
}

int main(void)
{
	test_plot();
	test_percentile();
	test_nat_reference();
	test_fit_edges();
	test_knee();
	test_knee_thresholds();
	test_knee_stat();
	test_knee_rounding();
	test_fit_noise();
	return tap_done();
}
