/* SPDX-License-Identifier: MIT */
/* units.h: the one place numbers get their units for display. Every pane, the report
 * headline and the status row format durations, sizes and percentages here, so the
 * same value reads the same everywhere. The display rule (README "Numbers", man page
 * NUMBERS):
 *   durations -> at most 3 significant digits in us, ms or s, trailing zeros dropped
 *                (never more digits than the value has): "850 us", "8.16 ms", "5.6 s",
 *                "4 s", "0 s" (at or above 1000 s the whole seconds: "1234 s"; from
 *                1e6 s in exponent form: "1e+09 s", "2.5e+07 s")
 *   sizes     -> binary prefixes, at most 3 significant digits: "512 B", "1.5 KiB",
 *                "4.26 GiB" (below 1 KiB the exact integer)
 *   percents  -> one decimal and "%": "8.5%"
 * Non-finite values give "n/a" (missing is not zero). Output is always NUL-terminated.
 * Exports (CSV, y) never go through here: they keep the raw value in full precision. */
#ifndef MODEL_UNITS_H
#define MODEL_UNITS_H

#include <stddef.h>

/* The unit a table column's values are in (model/table.h). */
enum unit {
	UNIT_NONE,           /* a count or a dimensionless number: the column's decimals */
	UNIT_S, UNIT_MS, UNIT_US,        /* durations */
	UNIT_B, UNIT_MIB, UNIT_MB, UNIT_GB,  /* sizes: bytes, 2^20, 1e6, 1e9 bytes */
	UNIT_PCT,            /* a percentage, 0..100 */
};

/* Format a byte count into out (capacity n >= 1). Returns out. */
char *units_bytes(double bytes, char *out, size_t n);
/* Format a duration in seconds into out (capacity n >= 1). Returns out. */
char *units_seconds(double s, char *out, size_t n);
/* A difference in seconds, "+" before a positive one ("+10.0 ms", "-2.00 s"). */
char *units_seconds_signed(double s, char *out, size_t n);
/* v with dec decimals ("%.*f") below 1e15 in magnitude, in exponent form ("%.2e") from
 * there, so a huge finite value is never hundreds of digits. Returns out. */
char *units_fixed(double v, int dec, char *out, size_t n);
/* Format a percentage (0..100) with one decimal and "%". Returns out. */
char *units_percent(double pct, char *out, size_t n);
/* Format v, a value in unit u, by the rule above (UNIT_NONE: 3 significant digits).
 * Returns out. */
char *units_format(double v, enum unit u, char *out, size_t n);
/* units_format with `more` digits than the rule's (more >= 0): durations, sizes (below
 * 1 KiB too) and unitless values 3 + more significant digits, percentages 1 + more
 * decimals; for figures that must be told apart (a legend's level boundaries). */
char *units_format_more(double v, enum unit u, int more, char *out, size_t n);
/* The unit a unit name denotes: "s", "sec", "ms", "us", "B", "MiB", "MB", "GB", "%";
 * UNIT_NONE for anything else ("tokens", "W", NULL). */
enum unit units_parse(const char *name);
/* The unit a column name states by the project's naming rule: a suffix "_s", "_ms",
 * "_us", "_bytes", "_mb" (MiB, as pytscope's MB), "_pct" or the name "pct", or a
 * trailing "(s)", "(MB)", "(Mb)", "(GB)" (decimal, as DASF writes them) or "(%)".
 * UNIT_NONE otherwise (a timestamp, a count, a ratio). */
enum unit units_from_name(const char *name);
/* The unit in words for a legend ("seconds", "MiB (2^20 bytes)", ...); NULL for UNIT_NONE. */
const char *units_describe(enum unit u);
/* Decimals that give `max` (a column's largest magnitude) `sig` significant digits,
 * clamped to [0, 6]: one precision for a whole column of figures (0.775 -> 3, 5.6 -> 2). */
int units_decimals(double max, int sig);

#endif
