/* SPDX-License-Identifier: MIT */
/* load_names.h: private to the trace loader (load.c): the names of a file's GPU events,
 * interned on first sight by their raw JSON bytes (escapes kept) into the rank's name
 * table (r->names), each decoded once (load_names.c). */
#ifndef MODEL_TRACE_LOAD_NAMES_H
#define MODEL_TRACE_LOAD_NAMES_H

#include "model/json.h"
#include "model/trace/trace.h"

struct name_slot;
struct trace_names {
	struct name_slot *slots;   /* open addressing over the raw bytes */
	size_t nslots;
	char **raw;                /* raw (escaped) name bytes, parallel to r->names */
	size_t *rawlen;
};

/* The index in r->names of the name whose raw bytes are s[0..n): added on first sight,
 * decoded through jsmn token t of d when d is given (its escapes), else from s. A NUL
 * (an escaped \u0000) is decoded as "^@", the caret notation the sanitizer gives the
 * other control bytes: the name goes on after it, and shows it. */
int32_t trace_names_intern(struct trace_names *nt, struct trace_rank *r, const char *s, size_t n,
			   const struct json_doc *d, int t);
/* Free nt (r: whose names they are; r->names stays). */
void trace_names_free(struct trace_names *nt, const struct trace_rank *r);

#endif
