/* SPDX-License-Identifier: MIT */
/* units.c: byte and duration formatting for display (contract in units.h). */
#include <math.h>
#include <stdio.h>
#include "model/units.h"

/* v (>= 0) with 3 significant digits and the unit. */
static char *sig3(double v, const char *unit, char *out, size_t n)
{
	int dec = units_decimals(v, 3);
	double p10 = pow(10, dec);
	dec = units_decimals(round(v * p10) / p10, 3);   /* 9.9996 rounds to "10.0" */
	snprintf(out, n, "%.*f %s", dec, v, unit);
	return out;
}

char *units_bytes(double bytes, char *out, size_t n)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	if (!isfinite(bytes)) {
		snprintf(out, n, "n/a");
		return out;
	}
	double a = fabs(bytes);
	if (a < 1024) {
		snprintf(out, n, "%.0f B", bytes);
		return out;
	}
	size_t u = 0;
	while (u + 1 < sizeof(unit) / sizeof(unit[0]) && a >= 1024) {
		a /= 1024;
		u++;
	}
	char tmp[40];
	sig3(a, unit[u], tmp, sizeof(tmp));
	snprintf(out, n, "%s%s", bytes < 0 ? "-" : "", tmp);
	return out;
}

char *units_seconds(double s, char *out, size_t n)
{
	if (!isfinite(s)) {
		snprintf(out, n, "n/a");
		return out;
	}
	double a = fabs(s);
	char tmp[40];
	if (a == 0)
		snprintf(tmp, sizeof(tmp), "0 s");
	else if (a < 0.9995)
		sig3(a * 1000, "ms", tmp, sizeof(tmp));
	else
		sig3(a, "s", tmp, sizeof(tmp));
	snprintf(out, n, "%s%s", s < 0 ? "-" : "", tmp);
	return out;
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
