/* SPDX-License-Identifier: MIT */
/* test_heat_kernels.c: the heatmap's per-cell loops (model/steps/heat_kernels.h) on this
 * CPU's path (AVX2 where it has it) against the one-cell loops and against the
 * formulas the header states, bit for bit, at every length 0-40 and several offsets
 * (the vector steps and the tails), over values that reach every case: signed zeros,
 * subnormals, the float range's ends, infinities, NaN, a median <= 0 or NaN. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/steps/heat_kernels.h"
#include "tests/tap.h"
#include "tests/testutil.h"

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t next(void)
{
	return tu_xorshift(&rng);
}

/* A double that becomes any kind of float cell, often an edge case. */
static double any_value(void)
{
	static const double edge[] = { 0.0, -0.0, 1.0, -1.0, 0.5, 1e-45, -1e-45, 1.2e-38, 3.4028234e38,
				       -3.4028234e38, 3.5e38, 1e300, INFINITY, -INFINITY, NAN, -NAN };
	uint64_t r = next();
	if (r % 4 == 0)
		return edge[(r >> 8) % (sizeof(edge) / sizeof(edge[0]))];
	double x = ldexp((double)(r >> 11) / 9007199254740992.0, (int)((r >> 3) % 80) - 60);
	return r & 4 ? -x : x;
}

static float any_float(void)
{
	return (float)any_value();
}

static bool same(const float *a, const float *b, size_t n)
{
	return memcmp(a, b, n * sizeof(*a)) == 0;
}

/* The same bits, or NaN both: which of two NaNs a sum gives (its sign) follows the
 * operand order the compiler picks for the scalar loop, and no NaN reaches a dense
 * level (a missing cell makes the grid sparse). */
static bool same_or_nan(const float *a, const float *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (memcmp(&a[i], &b[i], sizeof(*a)) && !(isnan(a[i]) && isnan(b[i])))
			return false;
	return true;
}

static void test_cells(void)
{
	enum { N = 48 };
	double x[N], med[N];
	float got[N], ref[N], want[N];
	size_t bad_cells = 0, bad_rel = 0, bad_nan = 0;
	for (int round = 0; round < 200; round++) {
		for (size_t i = 0; i < N; i++) {
			x[i] = any_value();
			med[i] = i % 7 == 3 ? -fabs(any_value()) : fabs(any_value());
		}
		for (size_t off = 0; off < 4; off++) {
			for (size_t n = 0; off + n <= 40; n++) {
				bool nan = false, nan_rel = false;
				for (size_t k = 0; k < n; k++) {
					want[k] = (float)x[off + k];
					nan |= isnan(want[k]);
				}
				bool got_nan = heat_cells(got, x + off, n);
				heat_kernels_portable(true);
				bool ref_nan = heat_cells(ref, x + off, n);
				heat_kernels_portable(false);
				bad_cells += !same(got, want, n) || !same(ref, want, n);
				bad_nan += got_nan != nan || ref_nan != nan;
				for (size_t k = 0; k < n; k++) {
					double m = med[off + k];
					want[k] = m > 0 ? (float)(x[off + k] / m - 1.0) : NAN;
					nan_rel |= isnan(want[k]);
				}
				got_nan = heat_cells_rel(got, x + off, med + off, n);
				heat_kernels_portable(true);
				ref_nan = heat_cells_rel(ref, x + off, med + off, n);
				heat_kernels_portable(false);
				bad_rel += !same(got, want, n) || !same(ref, want, n);
				bad_nan += got_nan != nan_rel || ref_nan != nan_rel;
			}
		}
	}
	ok(bad_cells == 0, "heat_cells: (float)x, both paths, bit for bit (%zu bad)", bad_cells);
	ok(bad_rel == 0, "heat_cells_rel: x / median - 1, NaN where the median is not > 0, both paths (%zu bad)",
	   bad_rel);
	ok(bad_nan == 0, "both say whether a cell is NaN (%zu bad)", bad_nan);
}

/* The block's mean as heat_block() takes it from two children of h cells each. */
static float mean_ref(float a, float b, double h)
{
	double sum = 0;
	sum += (double)a * h;
	sum += (double)b * h;
	return (float)(sum / (2 * h));
}

static void test_halve(void)
{
	enum { N = 96 };
	float pv[N], pw[N], v[N], w[N], rv[N], rw[N], wv[N], ww[N];
	size_t bad = 0, runs = 0;
	for (int round = 0; round < 200; round++) {
		for (size_t i = 0; i < N; i++) {
			pv[i] = any_float();
			pw[i] = round % 2 ? pv[i] : any_float(); /* level 1: pw is pv */
		}
		double h = ldexp(1.0, round % 20);
		for (size_t b = 0; b < 4; b++) {
			for (size_t e = b; e <= 40; e++) {
				for (size_t i = b; i < e; i++) {
					wv[i] = mean_ref(pv[2 * i], pv[2 * i + 1], h);
					ww[i] = pw[2 * i + 1] > pw[2 * i] ? pw[2 * i + 1] : pw[2 * i];
				}
				heat_halve(pv, round % 2 ? pv : pw, v, w, b, e, h);
				heat_kernels_portable(true);
				heat_halve(pv, round % 2 ? pv : pw, rv, rw, b, e, h);
				heat_kernels_portable(false);
				bad += !same_or_nan(v + b, wv + b, e - b) || !same(w + b, ww + b, e - b) ||
				       !same_or_nan(rv + b, wv + b, e - b) || !same(rw + b, ww + b, e - b);
				runs++;
			}
		}
	}
	ok(bad == 0, "heat_halve: mean (divided, not multiplied by 1 / 2h) and worst, both paths (%zu of %zu bad)",
	   bad, runs);
	float z[16], m[8], wz[8];
	for (size_t i = 0; i < 16; i++)
		z[i] = -0.0f;
	heat_halve(z, z, m, wz, 0, 8, 4.0);
	bool plus = true, minus = true;
	for (size_t i = 0; i < 8; i++) {
		plus = plus && m[i] == 0 && !signbit(m[i]);
		minus = minus && wz[i] == 0 && signbit(wz[i]);
	}
	ok(plus && minus, "pairs of -0 cells: mean +0 (0 + -0 ...), worst -0");
}

int main(void)
{
	test_cells();
	test_halve();
	return tap_done();
}
