/* SPDX-License-Identifier: MIT */
/* summary.h: a run's headline, as "key  value" lines that each input family adds
 * through its subsystem's summary callback (registry.h). The same lines feed the
 * explorer's Overview pane and the headline of the plain-text report (--print), so the
 * two never disagree.
 *
 * Values are formatted and sanitized (model/text.h) by summary_add(): consumers print
 * them as they are. Keys are static strings. Lines past SUMMARY_MAX are dropped. */
#ifndef MODEL_SUMMARY_H
#define MODEL_SUMMARY_H

#include "model/base.h"

/* How a line reads: the Overview colours it, the report uses the same SGR tones. */
enum summary_tone { TONE_NORMAL, TONE_GOOD, TONE_WARN, TONE_BAD };

#define SUMMARY_MAX 32
#define SUMMARY_TEXT 240

struct summary_line {
	const char *key;             /* "ranks", "straggler", ... (static) */
	char text[SUMMARY_TEXT];     /* sanitized value */
	enum summary_tone tone;
	bool prose;                  /* a sentence or more (a note): given more rows to wrap */
};

struct summary {
	struct summary_line line[SUMMARY_MAX];
	size_t n;
};

/* Append one line (printf-like value, sanitized here); returns it (prose false), NULL
 * when the summary is full. */
struct summary_line *summary_add(struct summary *s, enum summary_tone tone, const char *key, const char *fmt,
				 ...) PRINTF_LIKE(4, 5);

#endif
