/* SPDX-License-Identifier: MIT */
/* ranklist.c: parsing and membership of --ranks lists (ranklist.h). */
#include "model/ranklist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char empty_item[] = "an empty item (',' at the start or the end, or ',,')";

/* One item at *s: N or N-M; moves *s past it. NULL, else what is wrong with it. */
static const char *item(const char **s, long *lo, long *hi)
{
	char *end;
	if (!isdigit((unsigned char)**s))
		return **s == ',' || !**s ? empty_item : "not a rank id";
	errno = 0;
	*lo = strtol(*s, &end, 10);
	*hi = *lo;
	if (*end == '-') {
		const char *p = end + 1;
		if (!isdigit((unsigned char)*p))
			return "not a range";
		*hi = strtol(p, &end, 10);
	}
	if (errno)
		return "too large";
	if (*end && *end != ',')
		return "not a rank id or range";
	if (*lo > *hi)
		return "a range that goes down";
	*s = *end ? end + 1 : end;
	return NULL;
}

bool ranklist_valid(const char *list, char *why, size_t n)
{
	static const char expected[] = "expected ids and ranges, e.g. 0-63,4096";
	const char *s = list ? list : "", *at = s, *bad = *s ? NULL : "an empty list";
	long lo, hi;
	while (!bad && *s) {
		at = s;
		bad = item(&s, &lo, &hi);
		if (!bad && !*s && s[-1] == ',') {
			at = s;
			bad = empty_item;
		}
	}
	if (!bad || !why || !n)
		return !bad;
	int len = (int)strcspn(at, ",");
	if (len)
		snprintf(why, n, "'%.*s' is %s; %s", len < 40 ? len : 40, at, bad, expected);
	else
		snprintf(why, n, "%s; %s", bad, expected);
	return false;
}

bool ranklist_has(const char *list, long rank)
{
	long lo, hi;
	for (const char *s = list; *s && !item(&s, &lo, &hi);)
		if (rank >= lo && rank <= hi)
			return true;
	return false;
}

bool ranklist_first_from(const char *list, long lo, long *first)
{
	long a, b;
	bool found = false;
	for (const char *s = list; *s && !item(&s, &a, &b);)
		if (b >= lo && (!found || (a > lo ? a : lo) < *first)) {
			*first = a > lo ? a : lo;
			found = true;
		}
	return found;
}

bool ranklist_format(const long *ids, size_t nids, char *buf, size_t n)
{
	size_t used = 0;
	if (n)
		buf[0] = '\0';
	for (size_t i = 0; i < nids;) {
		size_t j = i;
		while (j + 1 < nids && ids[j + 1] == ids[j] + 1)
			j++;
		int k = j > i ? snprintf(buf + used, n - used, "%s%ld-%ld", used ? "," : "", ids[i], ids[j])
			      : snprintf(buf + used, n - used, "%s%ld", used ? "," : "", ids[i]);
		if (k < 0 || (size_t)k >= n - used) {
			if (n)
				buf[0] = '\0';
			return false;
		}
		used += (size_t)k;
		i = j + 1;
	}
	return n > 0;
}
