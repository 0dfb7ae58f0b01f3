/* SPDX-License-Identifier: MIT */
/* json_number.h: the JSON number parser behind json_parse_double*() (model/json.h), as
 * inline code so that the steps.jsonl scanner (model/steps/scan.c) gets it inlined
 * (7% of its load speed). Everything else calls the json.h functions. */
#ifndef MODEL_JSON_NUMBER_H
#define MODEL_JSON_NUMBER_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/base.h"
#include "model/xalloc.h"

static const double json_pow10_tab[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static inline bool json_span_is(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

static inline bool json_word_is(const char *s, size_t n, const char *lit, size_t *used)
{
	size_t k = strlen(lit);
	if (used ? n < k || memcmp(s, lit, k) != 0 : !json_span_is(s, n, lit))
		return false;
	if (used)
		*used = k;
	return true;
}

/* Parse s[0..n) as a JSON number (or NaN/Infinity/-Infinity). exact_only: correctly
 * rounded (Clinger fast path, else strtod); otherwise mantissas beyond 2^53 (with
 * |exp| <= 22) take one extra rounding (within a few ulp) instead of strtod. used == NULL: the whole span must
 * be the number; else *used gets the length of the number that starts s (the grammar
 * stops at the first byte it cannot take): when that byte cannot continue a primitive,
 * the whole-span parse of the same bytes gives the same result. */
static inline bool json_number_parse(const char *s, size_t n, double *out, bool exact_only, size_t *used)
{
	if (n == 0)
		return false;
	bool word = s[0] == 'N' || s[0] == 'I' || (s[0] == '-' && n > 1 && s[1] == 'I');
	if (word && json_word_is(s, n, "NaN", used)) {
		*out = NAN;
		return true;
	}
	if (word && json_word_is(s, n, "Infinity", used)) {
		*out = INFINITY;
		return true;
	}
	if (word && json_word_is(s, n, "-Infinity", used)) {
		*out = -INFINITY;
		return true;
	}
	/* Validate the JSON number grammar and gather digits for the fast path. */
	size_t i = 0;
	bool neg = false;
	if (s[i] == '-') {
		neg = true;
		i++;
	}
	if (i >= n || s[i] < '0' || s[i] > '9')
		return false;
	uint64_t mant = 0;
	int ndig = 0, exp10 = 0;
	bool exact = true;
	if (s[i] == '0' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')
		return false; /* leading zero */
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (ndig < 19) {
			mant = mant * 10 + (uint64_t)(s[i] - '0');
			if (mant)
				ndig++;
		} else {
			exact = false;
		}
	}
	if (i < n && s[i] == '.') {
		i++;
		if (i >= n || s[i] < '0' || s[i] > '9')
			return false;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
			if (ndig < 19) {
				mant = mant * 10 + (uint64_t)(s[i] - '0');
				if (mant)
					ndig++;
				exp10--;
			} else {
				exact = false;
			}
		}
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		bool eneg = false;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			eneg = s[i++] == '-';
		if (i >= n || s[i] < '0' || s[i] > '9')
			return false;
		int e = 0;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			if (e < 100000)
				e = e * 10 + (s[i] - '0');
		exp10 += eneg ? -e : e;
	}
	if (used)
		*used = n = i;
	else if (i != n)
		return false;
	if (exact && mant < ((uint64_t)1 << 53) && exp10 >= -22 && exp10 <= 22) {
		double v = (double)mant;
		v = exp10 < 0 ? v / json_pow10_tab[-exp10] : v * json_pow10_tab[exp10];
		*out = neg ? -v : v;
		return true;
	}
	if (!exact_only && exact && exp10 >= -22 && exp10 <= 22) {
		double v = (double)mant; /* rounded once here, once below */
		v = exp10 < 0 ? v / json_pow10_tab[-exp10] : v * json_pow10_tab[exp10];
		*out = neg ? -v : v;
		return true;
	}
	char buf[64];
	char *heap = NULL, *p = buf;
	if (n >= sizeof(buf))
		p = heap = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	*out = strtod(p, NULL);
	free(heap);
	return true;
}

#endif
