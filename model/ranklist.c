/* SPDX-License-Identifier: MIT */
/* ranklist.c: parsing and membership of --ranks lists (ranklist.h). */
#include "model/ranklist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* One item at *s: N or N-M; moves *s past it. false on a malformed item. */
static bool item(const char **s, long *lo, long *hi)
{
	char *end;
	if (!isdigit((unsigned char)**s))
		return false;
	errno = 0;
	*lo = strtol(*s, &end, 10);
	*hi = *lo;
	if (*end == '-') {
		const char *p = end + 1;
		if (!isdigit((unsigned char)*p))
			return false;
		*hi = strtol(p, &end, 10);
	}
	if (errno || *lo > *hi || (*end && *end != ','))
		return false;
	*s = *end ? end + 1 : end;
	return true;
}

bool ranklist_valid(const char *list)
{
	if (!list || !*list)
		return false;
	long lo, hi;
	for (const char *s = list; *s;)
		if (!item(&s, &lo, &hi) || (!*s && s[-1] == ','))
			return false;
	return true;
}

bool ranklist_has(const char *list, long rank)
{
	long lo, hi;
	for (const char *s = list; *s && item(&s, &lo, &hi);)
		if (rank >= lo && rank <= hi)
			return true;
	return false;
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
