/* SPDX-License-Identifier: MIT */
/* units.h: the one place numbers get their units for display. Every pane that shows a
 * byte count or a duration formats it here, so the same value reads the same everywhere.
 *   bytes   -> "512 B", "1.50 KiB", "4.26 GiB" (binary prefixes up to TiB, 3 significant
 *              digits; below 1 KiB the exact integer)
 *   seconds -> "121 ms", "8.16 ms", "5.60 s" (3 significant digits; ms below 1 s; "0 s")
 * Non-finite values give "n/a" (missing is not zero). Output is always NUL-terminated. */
#ifndef MODEL_UNITS_H
#define MODEL_UNITS_H

#include <stddef.h>

/* Format a byte count into out (capacity n >= 1). Returns out. */
char *units_bytes(double bytes, char *out, size_t n);
/* Format a duration in seconds into out (capacity n >= 1). Returns out. */
char *units_seconds(double s, char *out, size_t n);
/* Decimals that give `max` (a column's largest magnitude) `sig` significant digits,
 * clamped to [0, 6]: one precision for a whole column of figures (0.775 -> 3, 5.6 -> 2). */
int units_decimals(double max, int sig);

#endif
