/* SPDX-License-Identifier: MIT */
/* numfmt.c: the full form of a double (see numfmt.h). Where %g writes no exponent for
 * 1e-4 <= |v| < 1e15, v is exactly m / 2^s (2^52 <= m < 2^53, 3 <= s <= 66); its p
 * significant digits are q = m * 10^k / 2^s rounded half to even (k = p - 1 - x, x the
 * decimal exponent, k <= 20), as glibc's printf rounds, all in 128-bit integers; and
 * q * 10^-k reads back as v when it lies inside v's rounding interval, its ends
 * included when m is even (strtod rounds half to even). Every other value goes through
 * snprintf and strtod. The screen forms are snprintf's, read back by strtod. Every form
 * writes a negative zero as 0 (v + 0.0 is +0 for either zero). */
#include "model/numfmt.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

static const uint64_t pow10_u64[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
	1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
	1000000000000000000ULL, 10000000000000000000ULL,
};

/* 10^k, 0 <= k <= 38. */
static u128 pow10_u128(int k)
{
	return k < 20 ? pow10_u64[k] : (u128)pow10_u64[19] * pow10_u64[k - 19];
}

/* The sign of m / 2^s - 10^x (-6 <= x <= 16). */
static int cmp_pow10(uint64_t m, int s, int x)
{
	u128 l = m, r = (u128)1 << s;
	if (x >= 0)
		r = pow10_u128(x) << s;
	else
		l = (u128)m * pow10_u128(-x);
	return (l > r) - (l < r);
}

/* x with 10^x <= m / 2^s < 10^(x+1): floor(e * log10(2)) for the binary exponent e, or
 * one more. (n * 78913) >> 18 is floor(n * log10(2)) for 0 <= n <= 1650, and for e < 0
 * the floor is -floor(-e * log10(2)) - 1 (never an integer). */
static int decimal_exponent(uint64_t m, int s)
{
	int e = 52 - s, x = e >= 0 ? (e * 78913) >> 18 : -((-e * 78913) >> 18) - 1;
	return cmp_pow10(m, s, x + 1) >= 0 ? x + 1 : x;
}

/* A normal a > 0 as m / 2^s exactly (2^52 <= m < 2^53); returns its decimal exponent. */
static int split(double a, uint64_t *m, int *s)
{
	uint64_t bits;
	memcpy(&bits, &a, sizeof(bits));
	*m = (bits & ((1ULL << 52) - 1)) | 1ULL << 52;
	*s = 1075 - (int)(bits >> 52);
	return decimal_exponent(*m, *s);
}

/* m * 10^k / 2^s rounded half to even. */
static uint64_t digits(uint64_t m, int s, int k)
{
	u128 num = (u128)m * pow10_u128(k);
	u128 q = num >> s, rem = num & (((u128)1 << s) - 1), half = (u128)1 << (s - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	return (uint64_t)q;
}

/* Does q * 10^-k read back as m / 2^s? Both scaled by 2^(s+2) * 10^k: v's interval is
 * 4m -+ 2 (-1 below a power of two, where the gap halves) times 10^k. */
static bool reads_back(uint64_t m, int s, uint64_t q, int k)
{
	u128 t = pow10_u128(k), a = (u128)m * 4 * t, d = (u128)q << (s + 2);
	u128 up = a + 2 * t, lo = a - (m == 1ULL << 52 ? 1 : 2) * t;
	bool even = !(m & 1);
	return (d < up || (even && d == up)) && (d > lo || (even && d == lo));
}

/* q's p digits with decimal exponent x (-4 <= x < p) as %g writes them: no exponent,
 * trailing zeros of the fraction and a bare point dropped. */
static void put_fixed(char *buf, bool neg, uint64_t q, int p, int x)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
				    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
				    "8081828384858687888990919293949596979899";
	char d[20];
	int i = p;
	for (; i >= 2; i -= 2, q /= 100)
		memcpy(d + i - 2, pairs + 2 * (q % 100), 2);
	if (i)
		d[0] = (char)('0' + q);
	int n = p;
	while (n > 1 && n > x + 1 && d[n - 1] == '0')
		n--;
	char *o = buf;
	if (neg)
		*o++ = '-';
	if (x < 0) {
		*o++ = '0';
		*o++ = '.';
		for (int z = -1; z > x; z--)
			*o++ = '0';
		memcpy(o, d, (size_t)n);
		o += n;
	} else {
		memcpy(o, d, (size_t)x + 1);
		o += x + 1;
		if (n > x + 1) {
			*o++ = '.';
			memcpy(o, d + x + 1, (size_t)(n - x - 1));
			o += n - x - 1;
		}
	}
	*o = '\0';
}

void numfmt_full_libc(double v, char *buf, size_t n)
{
	v += 0.0; /* -0 is 0 */
	if (isnan(v)) {
		snprintf(buf, n, "nan");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, n, v > 0 ? "inf" : "-inf");
		return;
	}
	for (int p = 15; p <= 17; p++) {
		snprintf(buf, n, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

void numfmt_full(double v, char *buf, size_t n)
{
	double a = fabs(v);
	if (n < 32 || !(a >= 1e-4 && a < 1e15)) {
		numfmt_full_libc(v, buf, n);
		return;
	}
	uint64_t m;
	int s, x = split(a, &m, &s);
	for (int p = 15; p <= 17; p++) {
		int k = p - 1 - x, xp = x;
		uint64_t q = digits(m, s, k), shown = q;
		if (q == pow10_u64[p]) { /* rounded up to 10^(x+1) */
			shown = pow10_u64[p - 1];
			xp++;
		}
		if (xp >= p) /* %g writes an exponent */
			break;
		if (p == 17 || reads_back(m, s, q, k)) { /* 17 digits always read back */
			put_fixed(buf, v < 0, shown, p, xp);
			return;
		}
	}
	numfmt_full_libc(v, buf, n);
}

double numfmt_float_shortest_libc(double v)
{
	float f = (float)v;
	if ((double)f != v || !isfinite(v))
		return v;
	char buf[32];
	for (int p = 6; p < 9; p++) {
		snprintf(buf, sizeof(buf), "%.*g", p, v);
		if ((float)strtod(buf, NULL) == f)
			return strtod(buf, NULL);
	}
	return v;
}

/* For 1e-10 <= |v| < 1e5, v = m / 2^s (m < 2^53, s <= 86): p digits are q (digits(),
 * k = p - 1 - x in 1..17) and the decimal reads back as q / 10^k, one correctly rounded
 * division of exact operands, as strtod reads it. */
double numfmt_float_shortest(double v)
{
	float f = (float)v;
	double a = fabs(v);
	if ((double)f != v || !(a >= 1e-10 && a < 1e5))
		return numfmt_float_shortest_libc(v);
	uint64_t m;
	int s, x = split(a, &m, &s);
	for (int p = 6; p < 9; p++) {
		int k = p - 1 - x;
		double d = (double)digits(m, s, k) / (double)pow10_u64[k];
		if ((float)d == (float)a)
			return v < 0 ? -d : d;
	}
	return v;
}

void numfmt_nonzero(double v, int prec, char *buf, size_t n)
{
	v += 0.0; /* -0 is 0 */
	snprintf(buf, n, "%.*f", prec, v);
	if (v != 0 && isfinite(v) && !strpbrk(buf, "123456789"))   /* it reads as zero */
		snprintf(buf, n, "%.3g", v);
}

void numfmt_same_side(double v, double threshold, int prec, char *buf, size_t n)
{
	v += 0.0; /* -0 is 0 */
	bool above = v >= threshold;
	for (int d = prec; d <= prec + 6; d++) {
		snprintf(buf, n, "%.*f", d, v);
		if ((strtod(buf, NULL) >= threshold) == above)
			return;
	}
	numfmt_full(v, buf, n);
}
