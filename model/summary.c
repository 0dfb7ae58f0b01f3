/* SPDX-License-Identifier: MIT */
/* summary.c: building a run's headline lines (see summary.h): values formatted whole,
 * sanitized, cut with an ellipsis only past their room. */
#include "model/summary.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/text.h"
#include "model/xalloc.h"

#define ELLIPSIS "…"

struct summary_line *summary_add(struct summary *s, enum summary_tone tone, const char *key, const char *fmt, ...)
{
	if (s->n >= SUMMARY_MAX)
		return NULL;
	va_list ap;
	va_start(ap, fmt);
	char *raw = xvasprintf(fmt, ap);
	va_end(ap);
	struct summary_line *l = &s->line[s->n++];
	l->key = key;
	l->tone = tone;
	l->prose = false;
	char *whole = text_sanitize_dup(raw, 0);
	size_t len = strlen(whole);
	if (len < sizeof(l->text)) {
		memcpy(l->text, whole, len + 1);
	} else { /* cut cleanly (text_sanitize), and said: the ellipsis */
		len = text_sanitize(raw, strlen(raw), l->text, sizeof(l->text) - strlen(ELLIPSIS), 0);
		memcpy(l->text + len, ELLIPSIS, sizeof(ELLIPSIS));
	}
	free(whole);
	free(raw);
	return l;
}

void summary_ids_add(struct summary_ids *l, long id)
{
	if (l->n++ < SUMMARY_IDS_MAX && l->used < sizeof(l->text))
		l->used += (size_t)snprintf(l->text + l->used, sizeof(l->text) - l->used, "%s%ld", l->n > 1 ? ", " : "",
					    id);
}

const char *summary_ids_more(const struct summary_ids *l)
{
	return l->n > SUMMARY_IDS_MAX ? ", ..." : "";
}

void summary_add_coverage(struct summary *s, size_t n, long world, const char *ws, const char *subset,
			  const struct summary_ids *missing, const struct summary_ids *beyond)
{
	if (beyond->n) /* ids >= world_size: another run's, or a wrong world_size */
		summary_add(s, TONE_BAD, "coverage",
			    "%zu ranks against %s %ld%s: rank%s %s%s beyond it (another run mixed in, or a wrong "
			    "world_size?)%s%s%s", n, ws, world, subset, beyond->n > 1 ? "s" : "", beyond->text,
			    summary_ids_more(beyond), missing->n ? "; missing " : "", missing->text,
			    summary_ids_more(missing));
	else if (missing->n)
		summary_add(s, TONE_BAD, "coverage", "%zu of %ld ranks (%s)%s; missing %s%s", n, world, ws, subset,
			    missing->text, summary_ids_more(missing));
	else if (*subset)
		summary_add(s, TONE_WARN, "coverage", "%zu of %ld ranks (%s)%s", n, world, ws, subset);
	else if (world == 1)
		summary_add(s, TONE_GOOD, "coverage", "the one rank (%s 1)", ws);
	else
		summary_add(s, TONE_GOOD, "coverage", "all %ld ranks (%s %ld)", world, ws, world);
}
