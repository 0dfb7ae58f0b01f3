/* SPDX-License-Identifier: MIT */
/* test_numfmt.c: model/numfmt.h's full form of a double equals the snprintf and strtod
 * reference byte for byte, and its shortest decimal of a float32 bit for bit: known
 * answers (ties rounded half to even, a carry into the next power of ten, the ends of
 * the integer path's range), then a million values of the shapes exports hold (random
 * bits over every exponent, decimals of up to 17 digits, milliseconds from
 * nanoseconds, dyadic ties, neighbours of powers of ten, floats); TSCOPE_TEST_SEED=N
 * [TSCOPE_TEST_SCALE=K] runs K times as many others. The screen form that never shows
 * a nonzero figure as 0 (numfmt_nonzero), and the one that never shows a figure on the
 * other side of the threshold it was judged against (numfmt_same_side); a negative zero
 * written as 0 by each. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/numfmt.h"
#include "tests/tap.h"

static uint64_t rng;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void full_is(double v, const char *want)
{
	char buf[32];
	numfmt_full(v, buf, sizeof(buf));
	if (!ok(strcmp(buf, want) == 0, "full form %s", want))
		printf("#   got '%s'\n", buf);
}

/* The values of one shape that differ from the reference (the first named). */
static size_t differ(const char *shape, size_t n, double (*make)(size_t))
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		double v = make(i);
		char a[32], b[32];
		numfmt_full(v, a, sizeof(a));
		numfmt_full_libc(v, b, sizeof(b));
		if (strcmp(a, b) != 0 && bad++ == 0)
			printf("# %s: %.17g gave %s, want %s\n", shape, v, a, b);
	}
	return bad;
}

/* Float values whose shortest form differs from the reference (bit for bit). */
static size_t float_differ(const char *shape, size_t n, double (*make)(size_t))
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		double v = make(i), a = numfmt_float_shortest(v), b = numfmt_float_shortest_libc(v);
		if (memcmp(&a, &b, sizeof(a)) != 0 && bad++ == 0)
			printf("# %s: %.9g gave %.17g, want %.17g\n", shape, v, a, b);
	}
	return bad;
}

static double random_float(size_t i)
{
	(void)i;
	uint32_t b = (uint32_t)next();
	float f;
	memcpy(&f, &b, sizeof(f));
	return f;
}

/* Floats of the fast path's range and round: 2^-34 .. 2^17, and learning rates. */
static double float_range(size_t i)
{
	if (i % 4 == 0)
		return (float)((double)(next() % 100000) * 1e-9);
	uint32_t b = ((uint32_t)next() & ((1U << 23) - 1)) | (uint32_t)(127 - 34 + (int)(next() % 52)) << 23;
	float f;
	memcpy(&f, &b, sizeof(f));
	return next() & 1 ? -f : f;
}

static double random_bits(size_t i)
{
	(void)i;
	uint64_t b = next();
	double v;
	memcpy(&v, &b, sizeof(v));
	return v;
}

/* Biased to the integer path's range: exponents of 2^-16 .. 2^52. */
static double random_range(size_t i)
{
	(void)i;
	uint64_t b = (next() & ((1ULL << 52) - 1)) | (uint64_t)(1023 - 16 + (int)(next() % 69)) << 52;
	double v;
	memcpy(&v, &b, sizeof(v));
	return next() & 1 ? -v : v;
}

static double random_decimal(size_t i)
{
	(void)i;
	int digits = 1 + (int)(next() % 17), scale = (int)(next() % 22);
	double m = (double)(next() % (uint64_t)pow(10, digits));
	return m / pow(10, scale);
}

static double ns_to_ms(size_t i)
{
	(void)i;
	return (double)(next() % 1000000000000ULL) / 1e6;
}

static double dyadic(size_t i)
{
	(void)i;
	return ldexp((double)(next() % (1ULL << 53)), -(int)(next() % 70));
}

static double near_pow10(size_t i)
{
	double p = pow(10, (int)(i / 64 % 24) - 6);
	for (size_t k = i % 32; k > 0; k--)
		p = nextafter(p, i % 64 < 32 ? 0 : INFINITY);
	return p;
}

int main(void)
{
	const char *seed = getenv("TSCOPE_TEST_SEED");
	rng = seed ? strtoull(seed, NULL, 10) * 0x9e3779b97f4a7c15ULL | 1 : 0x9e3779b97f4a7c15ULL;
	size_t scale = seed && getenv("TSCOPE_TEST_SCALE") ? strtoull(getenv("TSCOPE_TEST_SCALE"), NULL, 10) : 1;
	full_is(0, "0");
	full_is(-0.0, "0"); /* a negative zero reads as a negative measurement: 0 */
	full_is(0.1 + 0.2, "0.30000000000000004");
	full_is(119.875466, "119.875466");
	full_is(30954727 / 1e6, "30.954727");
	full_is(30.954727 + 1e-14, "30.95472700000001");
	full_is(6e-06, "6e-06");
	full_is(1e-4, "0.0001");
	full_is(-0.00012345, "-0.00012345");
	full_is(4096.021484375, "4096.021484375");
	full_is(6656, "6656");
	full_is(999999999999999.9, "999999999999999.9");
	full_is(1e15, "1e+15");
	full_is(0.5, "0.5");
	full_is(1.0 / 3, "0.3333333333333333");
	full_is(nextafter(1, 2), "1.0000000000000002");
	full_is(nextafter(1, 0), "0.9999999999999999");
	full_is(NAN, "nan");
	full_is(-INFINITY, "-inf");
	full_is(1e300, "1e+300");
	/* 2^-17 * 3 = 2.288818359375e-05: below the integer path; 2^-10 * 1001 an exact tie
	 * at 15 digits (0.977539062500000|0 holds, the next digit is 0) */
	full_is(ldexp(3, -17), "2.288818359375e-05");
	full_is(ldexp(1001, -10), "0.9775390625");
	ok(differ("random bits", 100000 * scale, random_bits) == 0,
	   "100,000 random bit patterns: as snprintf and strtod");
	ok(differ("exponents 2^-16..2^52", 400000 * scale, random_range) == 0,
	   "400,000 values of the integer path's range: as snprintf and strtod");
	ok(differ("decimals", 200000 * scale, random_decimal) == 0,
	   "200,000 decimals of 1-17 digits: as snprintf and strtod");
	ok(differ("ns to ms", 200000 * scale, ns_to_ms) == 0,
	   "200,000 nanosecond counts in ms: as snprintf and strtod");
	ok(differ("dyadic", 200000 * scale, dyadic) == 0, "200,000 dyadic values (exact ties): as snprintf and strtod");
	ok(differ("near powers of ten", 24 * 64, near_pow10) == 0,
	   "the 32 neighbours each side of 1e-6 .. 1e17: as snprintf and strtod");
	double fs = numfmt_float_shortest((float)2.1);
	ok(fs == 2.1, "a float-stored 2.1 reads as 2.1");
	fs = numfmt_float_shortest((float)6e-06);
	ok(fs == 6e-06, "a float-stored 6e-06 reads as 6e-06");
	fs = numfmt_float_shortest(0.1);
	ok(fs == 0.1, "a double that is no float is itself");
	ok(float_differ("random floats", 200000 * scale, random_float) == 0,
	   "200,000 random float bit patterns: as snprintf and strtod");
	ok(float_differ("floats 2^-34..2^17", 400000 * scale, float_range) == 0,
	   "400,000 floats of the integer path's range: as snprintf and strtod");
	char nz[32];
	numfmt_nonzero(0.213, 0, nz, sizeof(nz));
	is_str(nz, "0.213", "a nonzero figure its decimals would show as 0 gets 3 significant digits");
	numfmt_nonzero(0.04, 1, nz, sizeof(nz));
	is_str(nz, "0.04", "... at one decimal too");
	numfmt_nonzero(0.5, 0, nz, sizeof(nz));
	is_str(nz, "0.5", "... and where %.0f rounds a half to even, to 0");
	numfmt_nonzero(12.4, 0, nz, sizeof(nz));
	is_str(nz, "12", "a figure that shows nonzero keeps its decimals");
	numfmt_nonzero(0, 1, nz, sizeof(nz));
	is_str(nz, "0.0", "zero stays zero");
	numfmt_nonzero(-0.0, 3, nz, sizeof(nz));
	is_str(nz, "0.000", "a negative zero is 0, not -0.000");
	numfmt_nonzero(-0.04, 1, nz, sizeof(nz));
	is_str(nz, "-0.04", "a small negative figure keeps its sign");
	const struct {
		double v, threshold;
		int prec;
		const char *want, *what;
	} same_side[] = {
		{ 49.96, 50, 0, "49.96",
		  "49.96 below a bar at 50: not \"50\", the decimals that keep it below" },
		{ 24.999, 25, 1, "24.999",
		  "24.999 below a bar at 25: not \"25.0\"" },
		{ 79.996, 80, 0, "79.996",
		  "79.996 below a bar at 80: not \"80\" nor \"80.00\"" },
		{ nextafter(25, 0), 25, 1, "24.999999999999996",
		  "just below the bar: the full form, which reads back below it" },
		{ 50, 50, 0, "50",
		  "on the bar: its decimals" },
		{ 50.4, 50, 0, "50",
		  "above the bar, rounded onto it: still on its side" },
		{ 12.31, 12.345, 1, "12.3",
		  "below a bar of more decimals, rounded down: on its side" },
		{ 12.35, 12.345, 1, "12.35",
		  "above a bar of more decimals, rounded below it: more decimals" },
		{ 20.04, 25, 1, "20.0",
		  "far from the bar: its decimals" },
		{ NAN, 25, 1, "nan",
		  "nan as printf writes it" },
		{ -0.0, 25, 1, "0.0",
		  "a negative zero: 0.0, not -0.0" },
	};
	for (size_t i = 0; i < sizeof(same_side) / sizeof(same_side[0]); i++) {
		char ss[32];
		numfmt_same_side(same_side[i].v, same_side[i].threshold, same_side[i].prec, ss, sizeof(ss));
		is_str(ss, same_side[i].want, same_side[i].what);
	}
	return tap_done();
}
