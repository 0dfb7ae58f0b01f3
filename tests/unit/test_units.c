/* SPDX-License-Identifier: MIT */
/* test_units.c: the display units of model/units.h: bytes with binary prefixes and 3
 * significant digits, seconds as ms/s with 3 significant digits, n/a for missing, and the
 * one-precision-per-column decimals. */
#include <math.h>
#include "model/units.h"
#include "tests/tap.h"

static void bytes_is(double v, const char *want)
{
	char buf[32];
	is_str(units_bytes(v, buf, sizeof(buf)), want, want);
}

static void secs_is(double v, const char *want)
{
	char buf[32];
	is_str(units_seconds(v, buf, sizeof(buf)), want, want);
}

int main(void)
{
	bytes_is(0, "0 B");
	bytes_is(512, "512 B");
	bytes_is(1536, "1.50 KiB");
	bytes_is(4.57601e9, "4.26 GiB");
	bytes_is(10.0 * 1024 * 1024, "10.0 MiB");
	bytes_is(300.0 * 1024 * 1024, "300 MiB");
	bytes_is(2.0 * 1024 * 1024 * 1024 * 1024 * 1024, "2048 TiB");
	bytes_is(-1536, "-1.50 KiB");
	bytes_is(NAN, "n/a");
	secs_is(0, "0 s");
	secs_is(0.121136, "121 ms");
	secs_is(0.008157, "8.16 ms");
	secs_is(5.601, "5.60 s");
	secs_is(4, "4.00 s");
	secs_is(0.9999, "1.00 s");
	secs_is(125.4, "125 s");
	secs_is(INFINITY, "n/a");
	is_int(units_decimals(0.775, 3), 3, "0.775 -> 3 decimals");
	is_int(units_decimals(5.601, 3), 2, "5.601 -> 2 decimals");
	is_int(units_decimals(1234, 3), 0, "1234 -> 0 decimals");
	is_int(units_decimals(0, 3), 0, "0 -> 0 decimals");
	char tiny[4];
	units_bytes(4.57601e9, tiny, sizeof(tiny));
	is_str(tiny, "4.2", "truncated, NUL-terminated");
	return tap_done();
}
