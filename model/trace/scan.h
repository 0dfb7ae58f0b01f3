/* SPDX-License-Identifier: MIT */
/* scan.h: streaming reader for Chrome/Kineto trace JSON (plain or gzip).
 *
 * The document is never tokenized as a whole (jsmn offsets are int, and a token array
 * for a 1 GB trace is 2 GB): a quote-aware scanner walks the top-level object, finds
 * each element of `traceEvents` (or of a bare top-level array) and hands its bytes to
 * the event callback, one event at a time. Only that event's bytes are contiguous in
 * memory, so RSS is the read buffer plus whatever the callback keeps.
 *
 * Offsets are 64-bit byte offsets into the (decompressed) document. Broken input keeps
 * everything read before the problem: a truncated file or gzip stream ends the scan
 * with `truncated` set, and so does a corrupt gzip stream (zlib's message named, with
 * the offset in the file); a gzip trailer whose CRC or length does not match the data
 * is named, not a cut: the events before it are whole (perhaps corrupt), and so is a
 * gzip stream cut after the whole JSON document (its trailer missing). A structural
 * error inside the event array is reported through
 * the error callback and the scanner resynchronises at the next '{'. An event that lacks
 * a closing '}' ends where the next one begins (a '{' after a ',' where the event object
 * wants a key; such a '{' deeper in the event closes the objects left open up to the
 * innermost array, of which it is an element), or, the last one, at the array's ']' when
 * the rest of the document follows it well formed: its bytes go to the event callback as
 * they are (invalid JSON, for it to skip and count), the scan goes on and the document is
 * not truncated. Bytes after the top-level value are named and make it truncated. */
#ifndef MODEL_TRACE_SCAN_H
#define MODEL_TRACE_SCAN_H

#include "model/base.h"

struct tscan_cb {
	/* One element of traceEvents: js[0..len) is a complete JSON object. */
	void (*event)(void *ud, const char *js, size_t len, uint64_t off);
	/* A top-level member other than traceEvents whose key is in `meta_keys`
	 * (NULL-terminated); js[0..len) is the complete value. */
	void (*meta)(void *ud, const char *key, const char *js, size_t len, uint64_t off);
	const char *const *meta_keys;
	/* A problem at byte offset off (the scan goes on unless it is fatal). */
	void (*error)(void *ud, uint64_t off, const char *msg);
	/* Bytes of the input file consumed since the last call (for progress). */
	void (*progress)(void *ud, long long bytes);
	/* Optional: true to stop the scan (checked at every buffer refill). */
	bool (*cancelled)(void *ud);
	/* Optional: true once the caller needs nothing more of this document (checked after
	 * each top-level member): the scan ends there, not as an error (res->ended). */
	bool (*enough)(void *ud);
};

struct tscan_result {
	uint64_t bytes;        /* document bytes scanned */
	size_t events;         /* event objects handed to the callback */
	size_t oversized;      /* events larger than the 64 MiB cap: skipped, not handed to the
				* callback (not in events), each named through the error callback */
	size_t errors;         /* error callbacks made */
	bool truncated;        /* input ended early (truncated file or gzip stream, not a gzip
				* stream cut only after the whole document), or bytes follow
				* the document (not read) */
	bool corrupt;          /* the gzip stream is corrupt (zlib's error named through the error
				* callback): truncated where it is; a trailer that does not match
				* the data alone is named but neither corrupt nor truncated */
	bool bad_check;        /* the gzip trailer (CRC, length) does not match the data
				* inflated: named through the error callback (counted in
				* errors), the document not truncated for it */
	bool gz;               /* the input is gzip (set before the first callback): offsets
				* are into its decompressed data */
	bool found_events;     /* a traceEvents array (or a bare array) was seen */
	bool cancelled;        /* stopped by the cancelled callback */
	bool ended;            /* ended early by the enough callback (not truncated) */
	int err;               /* errno when the file could not be read, else 0 */
};

/* Scan the file at path (gzip when it starts with the gzip magic). Returns 0 when the
 * scan reached the end of the document, -1 otherwise (see res). */
int tscan_file(const char *path, const struct tscan_cb *cb, void *ud, struct tscan_result *res);
/* Same over an in-memory document (tests). */
int tscan_mem(const char *js, size_t len, const struct tscan_cb *cb, void *ud,
	      struct tscan_result *res);
/* True when the first bytes of the file (decompressed) look like a Chrome trace: a
 * top-level object holding "traceEvents" or Kineto's "distributedInfo" within the first
 * `limit` bytes (one without traceEvents is then named by the loader, not passed over),
 * or a bare array whose first element is an object with "ph". *err is the errno when the
 * file could not be read (not a regular file, no permission, an I/O error: false, not
 * known to be a trace or not), else 0. */
bool tscan_probe(const char *path, size_t limit, int *err);

#endif
