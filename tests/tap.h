/* SPDX-License-Identifier: MIT */
/* tap.h: a tiny TAP harness for unit tests. Each check prints "ok N - msg" or
 * "not ok N - msg"; tap_done() prints the plan and returns the exit status.
 * tests/run.sh counts the lines across every test program. */
#ifndef TESTS_TAP_H
#define TESTS_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_fail;

__attribute__((format(printf, 2, 3))) static int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	if (!cond)
		tap_fail++;
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __VA_ARGS__)

static inline int tap_is_int(long long got, long long want, const char *msg)
{
	int r = tap_ok(got == want, "%s", msg);
	if (!r)
		printf("#   got %lld, want %lld\n", got, want);
	return r;
}

/* |got - want| <= tol (absolute), or both NaN. */
static inline int tap_is_dbl(double got, double want, double tol, const char *msg)
{
	int r = tap_ok((isnan(got) && isnan(want)) || fabs(got - want) <= tol, "%s", msg);
	if (!r)
		printf("#   got %.17g, want %.17g (tol %g)\n", got, want, tol);
	return r;
}

static inline int tap_is_str(const char *got, const char *want, const char *msg)
{
	int r = tap_ok(got && want && strcmp(got, want) == 0, "%s", msg);
	if (!r)
		printf("#   got  '%s'\n#   want '%s'\n", got ? got : "(null)", want ? want : "(null)");
	return r;
}

#define is_int(g, w, msg) tap_is_int((long long)(g), (long long)(w), msg)
#define is_dbl(g, w, tol, msg) tap_is_dbl((g), (w), (tol), msg)
#define is_str(g, w, msg) tap_is_str((g), (w), msg)

static inline int tap_skip(const char *why)
{
	printf("ok %d # SKIP %s\n", ++tap_n, why);
	return 0;
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_fail ? 1 : 0;
}

#endif
