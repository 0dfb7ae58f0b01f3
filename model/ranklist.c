/* SPDX-License-Identifier: MIT */
/* ranklist.c: parsing and membership of --ranks lists (ranklist.h). */
#include "model/ranklist.h"

#include <ctype.h>
#include <errno.h>
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
