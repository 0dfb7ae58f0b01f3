/* SPDX-License-Identifier: MIT */
/* event.h: private to the trace loader (load.c): the fields of one trace event located
 * in its bytes (a strict single-pass walk, else through jsmn: load_event.c), and the
 * span events that come in halves (ph "B" then "E" on one pid and tid) waiting for their
 * other half. */
#ifndef MODEL_TRACE_EVENT_H
#define MODEL_TRACE_EVENT_H

#include "model/base.h"
#include "model/json.h"

/* A member value located in the event's bytes: strings exclude their quotes. */
struct val {
	const char *p;
	size_t n;
	char type;        /* 0 missing, 's' string, 'p' primitive, 'o' object, 'a' array */
	int tok;          /* jsmn token (slow path) or -1 */
};

struct ev {
	struct val ph, cat, name, ts, dur, pid, tid, stream, corr, device;
	const struct json_doc *doc; /* slow path: unescape names through it */
};

/* The fields of the event object js[0..len) by a strict walk; false on anything unusual
 * (escapes, odd layout, invalid JSON): then tevent_fields() over its jsmn parse. */
bool tevent_fast(const char *js, size_t len, struct ev *ev);
void tevent_fields(const struct json_doc *d, struct ev *ev);
/* The value of jsmn token t. */
struct val tevent_tok(const struct json_doc *d, int t);

/* The first halves (ph "B") of span events not yet closed, keyed by their pid and tid
 * as written, each with a copy of its bytes when the caller wants it (else NULL: it only
 * keeps the nesting). tevent_open_add() adds ev, js[0..len) or NULL; tevent_close() takes
 * the latest open one of ev's key (spans on one thread nest) into *js (the caller frees
 * it), *len, *off, false when there is none; tevent_open_free() frees those left open and
 * returns how many of them had bytes. */
struct tevent_half {
	char *key, *js;
	size_t keylen, len;
	uint64_t off;
};
struct tevent_open {
	struct tevent_half *v;
	size_t n, cap;
};
void tevent_open_add(struct tevent_open *o, const struct ev *ev, const char *js, size_t len, uint64_t off);
bool tevent_close(struct tevent_open *o, const struct ev *ev, char **js, size_t *len, uint64_t *off);
size_t tevent_open_free(struct tevent_open *o);

#endif
