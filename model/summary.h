/* SPDX-License-Identifier: MIT */
/* summary.h: a run's headline, as "key  value" lines that each input family adds
 * through its subsystem's summary callback (registry.h). The same lines feed the
 * explorer's Overview pane and the headline of the plain-text report (--print), so the
 * two never disagree.
 *
 * Values are formatted and sanitized (model/text.h) by summary_add(): consumers print
 * them as they are, and clip them to the screen. A value is kept whole up to
 * SUMMARY_VALUE bytes (a run dir path, a long name); a longer one is cut at a character
 * there and ends in an ellipsis, never cut silently. Keys are static strings. Lines past
 * SUMMARY_MAX are dropped. */
#ifndef MODEL_SUMMARY_H
#define MODEL_SUMMARY_H

#include "model/base.h"

/* How a line reads: the Overview colours it, the report uses the same SGR tones. */
enum summary_tone { TONE_NORMAL, TONE_GOOD, TONE_WARN, TONE_BAD };

#define SUMMARY_MAX 32
#define SUMMARY_TEXT 240             /* the pieces callers build a value from */
#define SUMMARY_VALUE 1024           /* a value's room, its NUL and an ellipsis included */

struct summary_line {
	const char *key;             /* "ranks", "straggler", ... (static) */
	char text[SUMMARY_VALUE];    /* sanitized value */
	enum summary_tone tone;
	bool prose;                  /* a sentence or more (a note): given more rows to wrap */
};

struct summary {
	struct summary_line line[SUMMARY_MAX];
	size_t n;
};

/* Append one line (printf-like value, sanitized here: whole, or cut with an ellipsis
 * past SUMMARY_VALUE); returns it (prose false), NULL when the summary is full. */
struct summary_line *summary_add(struct summary *s, enum summary_tone tone, const char *key, const char *fmt,
				 ...) PRINTF_LIKE(4, 5);

/* Rank ids for a summary line ("missing 3, 7, 12, ..."): the first SUMMARY_IDS_MAX in
 * text, n counts them all. Start from { .n = 0 }. */
#define SUMMARY_IDS_MAX 12
struct summary_ids {
	char text[SUMMARY_TEXT];
	size_t used, n;
};
void summary_ids_add(struct summary_ids *l, long id);
/* ", ..." when more ids were added than text holds, else "". */
const char *summary_ids_more(const struct summary_ids *l);
/* The "coverage" line of n ranks against a known world_size (ws: how it is named, e.g.
 * "world_size", "the traces' world_size"): rank ids at or above it (beyond), else the
 * ids below it that no rank gave (missing), else all; subset ("" or ", a subset: ...")
 * follows the count (the world_size when ids beyond it are named), in every case. */
void summary_add_coverage(struct summary *s, size_t n, long world, const char *ws, const char *subset,
			  const struct summary_ids *missing, const struct summary_ids *beyond);

#endif
