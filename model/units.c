/* SPDX-License-Identifier: MIT */
/* units.c: duration, size and percentage formatting for display, and the unit a
 * column name states (contract in units.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "model/units.h"

/* v (>= 0) with at most sig significant digits and the unit: trailing zeros are dropped,
 * so a figure never shows more digits than the value has ("7 s", "5.6 s", "4.22 s");
 * 1e15 and above in exponent form ("1e+308 s"), not as hundreds of digits. */
static char *sig_digits(double v, int sig, const char *unit, char *out, size_t n)
{
	if (v >= 1e15) {
		snprintf(out, n, "%.*g %s", sig, v, unit);
		return out;
	}
	int dec = units_decimals(v, sig);
	double p10 = pow(10, dec);
	dec = units_decimals(round(v * p10) / p10, sig);   /* 9.9996 rounds to "10" */
	char num[32];
	snprintf(num, sizeof(num), "%.*f", dec, v);
	if (strchr(num, '.')) {
		size_t len = strlen(num);
		while (num[len - 1] == '0')
			num[--len] = '\0';
		if (num[len - 1] == '.')
			num[--len] = '\0';
	}
	snprintf(out, n, "%s %s", num, unit);
	return out;
}

static char *bytes_sig(double bytes, int sig, char *out, size_t n)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	if (!isfinite(bytes)) {
		snprintf(out, n, "n/a");
		return out;
	}
	double a = fabs(bytes);
	if (a < 1024 && sig <= 3) {
		snprintf(out, n, "%.0f B", bytes);
		return out;
	}
	size_t u = 0;
	while (u + 1 < sizeof(unit) / sizeof(unit[0]) && a >= 1024) {
		a /= 1024;
		u++;
	}
	char tmp[40];
	sig_digits(a, sig, unit[u], tmp, sizeof(tmp));
	snprintf(out, n, "%s%s", bytes < 0 ? "-" : "", tmp);
	return out;
}

char *units_bytes(double bytes, char *out, size_t n)
{
	return bytes_sig(bytes, 3, out, n);
}

/* A duration with sig significant digits in the unit it shows best in: ms from the value
 * that rounds to 1 ms at sig digits (0.0009995 s at 3), s from the one that rounds to 1 s;
 * whole seconds up to 6 digits ("1234 s"), from 1e6 s sig digits in exponent form
 * ("1e+09 s", not "1000000001 s"). */
static char *seconds_sig(double s, int sig, char *out, size_t n)
{
	if (!isfinite(s)) {
		snprintf(out, n, "n/a");
		return out;
	}
	double a = fabs(s), half = 0.5 * pow(10, -sig);   /* half a unit of the last digit, of 1 */
	char tmp[40];
	if (a == 0)
		snprintf(tmp, sizeof(tmp), "0 s");
	else if (a < 0.001 - half / 1000)
		sig_digits(a * 1e6, sig, "us", tmp, sizeof(tmp));
	else if (a < 1 - half)
		sig_digits(a * 1000, sig, "ms", tmp, sizeof(tmp));
	else if (a >= 999999.5) /* what rounds to 1e6 s and more */
		snprintf(tmp, sizeof(tmp), "%.*g s", sig, a);
	else
		sig_digits(a, sig, "s", tmp, sizeof(tmp));
	snprintf(out, n, "%s%s", s < 0 ? "-" : "", tmp);
	return out;
}

char *units_seconds(double s, char *out, size_t n)
{
	return seconds_sig(s, 3, out, n);
}

char *units_seconds_signed(double s, char *out, size_t n)
{
	char v[40];
	snprintf(out, n, "%s%s", s > 0 ? "+" : "", units_seconds(s, v, sizeof(v)));
	return out;
}

char *units_fixed(double v, int dec, char *out, size_t n)
{
	if (fabs(v) < 1e15)
		snprintf(out, n, "%.*f", dec, v);
	else
		snprintf(out, n, "%.2e", v);
	return out;
}

char *units_percent(double pct, char *out, size_t n)
{
	if (!isfinite(pct))
		snprintf(out, n, "n/a");
	else
		snprintf(out, n, "%.1f%%", pct);
	return out;
}

/* Each unit: how to show it, the factor to seconds or bytes, its names. */
static const struct {
	char kind;           /* 't' duration, 'b' size, '%' percent */
	double scale;
	const char *suffix;  /* column name suffix ("" none) */
	const char *paren;   /* DASF-style trailing "(..)" ("" none) */
	const char *name;    /* units_parse name */
} unit_tab[] = {
	[UNIT_S] = { 't', 1, "_s", "(s)", "s" },
	[UNIT_MS] = { 't', 1e-3, "_ms", "", "ms" },
	[UNIT_US] = { 't', 1e-6, "_us", "", "us" },
	[UNIT_B] = { 'b', 1, "_bytes", "", "B" },
	[UNIT_MIB] = { 'b', 1048576.0, "_mb", "", "MiB" },
	[UNIT_MB] = { 'b', 1e6, "", "(MB)", "MB" },
	[UNIT_GB] = { 'b', 1e9, "", "(GB)", "GB" },
	[UNIT_PCT] = { '%', 1, "_pct", "(%)", "%" },
};

char *units_format_more(double v, enum unit u, int more, char *out, size_t n)
{
	if (u <= UNIT_NONE || u > UNIT_PCT) {
		snprintf(out, n, "%.*g", 3 + more, v);
		return out;
	}
	if (unit_tab[u].kind == '%') {
		if (isfinite(v))
			snprintf(out, n, "%.*f%%", 1 + more, v);
		else
			snprintf(out, n, "n/a");
		return out;
	}
	if (unit_tab[u].kind == 't')
		return seconds_sig(v * unit_tab[u].scale, 3 + more, out, n);
	return bytes_sig(v * unit_tab[u].scale, 3 + more, out, n);
}

char *units_format(double v, enum unit u, char *out, size_t n)
{
	return units_format_more(v, u, 0, out, n);
}

enum unit units_parse(const char *name)
{
	if (!name)
		return UNIT_NONE;
	if (strcmp(name, "sec") == 0)
		return UNIT_S;
	for (size_t u = UNIT_S; u <= UNIT_PCT; u++)
		if (strcmp(name, unit_tab[u].name) == 0)
			return (enum unit)u;
	return UNIT_NONE;
}

static bool ends_with(const char *s, const char *tail, bool nocase)
{
	size_t ls = strlen(s), lt = strlen(tail);
	if (!lt || lt > ls)
		return false;
	return nocase ? strcasecmp(s + ls - lt, tail) == 0 : strcmp(s + ls - lt, tail) == 0;
}

enum unit units_from_name(const char *name)
{
	if (!name)
		return UNIT_NONE;
	if (strcmp(name, "pct") == 0)
		return UNIT_PCT;
	for (size_t u = UNIT_S; u <= UNIT_PCT; u++)
		if (ends_with(name, unit_tab[u].suffix, false) || ends_with(name, unit_tab[u].paren, u == UNIT_MB))
			return (enum unit)u;
	return UNIT_NONE;
}

int units_decimals(double max, int sig)
{
	double a = fabs(max);
	if (!isfinite(a) || a == 0)
		return 0;
	int mag = (int)floor(log10(a)) + 1;   /* digits before the point */
	int d = sig - mag;
	return d < 0 ? 0 : d > 6 ? 6 : d;
}

const char *units_describe(enum unit u)
{
	static const char *const words[] = {
		[UNIT_NONE] = NULL, [UNIT_S] = "seconds", [UNIT_MS] = "milliseconds",
		[UNIT_US] = "microseconds", [UNIT_B] = "bytes", [UNIT_MIB] = "MiB (2^20 bytes)",
		[UNIT_MB] = "MB (10^6 bytes)", [UNIT_GB] = "GB (10^9 bytes)", [UNIT_PCT] = "percent",
	};
	return (size_t)u < sizeof(words) / sizeof(words[0]) ? words[u] : NULL;
}
