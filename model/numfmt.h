/* SPDX-License-Identifier: MIT */
/* numfmt.h: the full (CSV) form of a double: the first of "%.15g", "%.16g", "%.17g"
 * that reads back as the same double, and the shortest decimal of a float32-stored
 * value; byte for byte what printf and strtod make, made with integer arithmetic where
 * it can (a million-row steps export prints 16 million numbers). And the screen forms
 * of a figure with fixed decimals that never show a nonzero value as zero, nor a value
 * on the other side of the threshold a rule judged it against. A negative zero is
 * written as 0 by all of them ("0", "0.0"): -0 reads as a negative measurement. */
#ifndef TSCOPE_NUMFMT_H
#define TSCOPE_NUMFMT_H

#include <stddef.h>

/* Write v's full form to buf (n bytes, at least 32): "nan", "inf", "-inf", "0" for either
 * zero, else the shortest of %.15g/%.16g/%.17g that strtod reads back as v. */
void numfmt_full(double v, char *buf, size_t n);

/* The same through snprintf and strtod only (the reference the fast path is tested
 * against). */
void numfmt_full_libc(double v, char *buf, size_t n);

/* A float32-stored value v as the double of its shortest decimal that reads back as
 * the same float ("%.6g".."%.8g"; 2.1, not 2.0999999046325684); v itself when it is not
 * a float or none does. */
double numfmt_float_shortest(double v);
/* The same through snprintf and strtod only. */
double numfmt_float_shortest_libc(double v);

/* v with prec decimals ("%.*f"), or 3 significant digits ("%.3g") when those decimals
 * would show a nonzero v as zero (the man page's Numbers rule): "12", "0.213", "4e-05". */
void numfmt_nonzero(double v, int prec, char *buf, size_t n);

/* v with prec decimals ("%.*f") for a verdict on v >= threshold, unless they put the text
 * on the other side of threshold from v (24.996 as "25.0" with a bar at 25, 49.96 as "50"
 * with high from 50): then the fewest more decimals, up to prec + 6, that keep it on v's
 * side ("24.996", "49.96"), else v's full form (numfmt_full; buf at least 32 bytes). */
void numfmt_same_side(double v, double threshold, int prec, char *buf, size_t n);

#endif
