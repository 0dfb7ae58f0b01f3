/* SPDX-License-Identifier: MIT */
/* scan_nest.h: the bracket nesting of one trace event that looks broken, for the event
 * scanner (load_scan.c, scan.h): where an event that lacks a '}' ends. The scanner's hot
 * path counts '{' alone; an event is tracked bracket by bracket only from the first '{'
 * after a ',' (nest_check), which is where a key must come when the event is broken.
 * Positions are indexes into the event's bytes b[], which start at b[from]. */
#ifndef MODEL_TRACE_SCAN_NEST_H
#define MODEL_TRACE_SCAN_NEST_H

#include "model/base.h"

/* Which of the (up to 64) innermost open levels are arrays, and how many '{' are open.
 * Deeper levels are counted, not checked. Zeroed: not tracked yet. */
struct nest {
	uint64_t arr;      /* bit i: level i+1 is an array */
	unsigned lvl;      /* open brackets of both kinds */
	long depth;        /* open '{' */
	size_t stray;      /* 1 + index (from the event's start) of the last ']' passed over at
			    * the event's own level, or 0 */
	size_t resync;     /* 1 + index of the first '{' taken for an array element after closing
			    * the objects left open before it, or 0: where the next event more
			    * likely starts if this one never closes (the scanner's fallback) */
	bool on;           /* tracked (else only the scanner's '{' count is) */
};

/* b[p] follows a ',' (and whitespace) within b[from..p). Inline: the scanner asks at
 * every '{' nested in an event. */
static inline bool nest_after_comma(const unsigned char *b, size_t from, size_t p)
{
	while (p > from && (b[p - 1] == ' ' || b[p - 1] == '\n' || b[p - 1] == '\r' || b[p - 1] == '\t'))
		p--;
	return p > from && b[p - 1] == ',';
}

/* b[p] is a bracket (outside a string) of a tracked event. -1: a '{' where a key must
 * come at the event's own level (the event lacks a '}' and b[p] starts the next event);
 * such a '{' deeper closes the objects left open up to the innermost array inside the
 * event, of which it is an element. 1: the event's closing '}'. 0: go on. A stray ']'
 * inside an object is passed over. */
int nest_step(struct nest *n, const unsigned char *b, size_t from, size_t p);
/* b[from..p) (in memory, outside a string at both ends) holds an event's bytes, a '{'
 * after a ',' at p: true when that '{' starts the next event (nest_step -1). The event is
 * tracked from there on (n->on). */
bool nest_check(struct nest *n, const unsigned char *b, size_t from, size_t p);
/* Length of an unclosed event's bytes js[0..len), len at what follows it: without the
 * ',' and whitespace before that. */
size_t nest_unclosed_len(const char *js, size_t len);
/* The last event js[0..len) (ending with a '}') of an input that ends right after it:
 * true when the last ']' at its own level is not its own but the event array's, followed
 * by ',' or by the closing '}' (the event lacks its '}', that '}' is the document's);
 * *evlen is then the event's length without them, *rest the index after that ']'. */
bool nest_swallowed_end(const char *js, size_t len, size_t *evlen, size_t *rest);

#endif
