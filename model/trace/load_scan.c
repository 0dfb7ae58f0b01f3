/* SPDX-License-Identifier: MIT */
/* load_scan.c: streaming, quote-aware scanner over Chrome trace JSON, plain or gzip
 * (see scan.h; the bytes come from scan_reader.c). A sliding buffer holds the bytes from
 * the current mark (the start of the value being captured) to the read position; it only
 * grows when one value is larger than the buffer. Where an event that lacks a '}' ends:
 * scan_nest.c. The first error in a gzip file's JSON has its member checked: a corrupt
 * one (zlib finds most only at the trailer, having inflated garbage) ends the scan there,
 * with one error, rather than naming every piece of garbage after it. */
#include "model/dirlist.h"
#include "model/infile.h"
#include "model/trace/scan.h"
#include "model/trace/scan_nest.h"
#include "model/trace/scan_reader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/text.h"
#include "model/xalloc.h"

#define SCAN_CHUNK ((size_t)1 << 20)
/* The per-thread memory cap of a trace scan: one event, key or wanted metadata value is
 * buffered whole up to SCAN_MAX_VALUE; a larger one is skipped with a diagnostic (its
 * bytes stream through). With the inflate pipeline (scan_reader.c) a scan holds at
 * most ~72 MiB whatever the file, so a small .gz cannot make every thread allocate GBs. */
#define SCAN_MAX_VALUE ((size_t)64 << 20)
#define NO_MARK ((size_t)-1)

/* ---- scanner ------------------------------------------------------------ */

struct scan {
	struct scan_reader rd;
	char *buf;
	size_t cap, len, pos, mark;
	uint64_t base;      /* document offset of buf[0] */
	const struct tscan_cb *cb;
	void *ud;
	struct tscan_result *res;
	long long reported; /* raw bytes already reported as progress */
	bool oversize;      /* the marked value outgrew SCAN_MAX_VALUE: dropped, skip it */
	bool gz_checked;    /* a gzip file's member was checked (at its first error), or the scan ended */
	bool stopped;       /* the gzip data is corrupt from an error on: nothing more is read or said */
};

/* The gzip member holding the JSON error at document offset off is corrupt (gzip
 * data that inflates to garbage, which zlib finds at the trailer): the scan stops
 * there, with one error naming the byte of the file, and the file is read as partial.
 * False when the member is whole (the JSON itself is invalid there). */
static bool scan_gz_stop(struct scan *s, uint64_t off)
{
	long long at;
	char why[96];
	s->gz_checked = true;
	if (!scan_reader_gz_bad_at(&s->rd, off, &at, why, sizeof(why)))
		return false;
	scan_reader_stop(&s->rd);
	s->rd.eof = true;
	s->rd.zcheck = false;
	snprintf(s->rd.zbuf, sizeof(s->rd.zbuf), "corrupt gzip data near byte %lld of the file (zlib: %s): what it "
		 "inflates to is not valid JSON from here; nothing after it is read", at, why);
	s->rd.zmsg = s->rd.zbuf;
	s->stopped = true;
	s->res->errors++;
	if (s->cb->error)
		s->cb->error(s->ud, off, s->rd.zmsg);
	return true;
}

static void scan_error(struct scan *s, uint64_t off, const char *msg)
{
	if (s->stopped || (s->rd.gz && !s->gz_checked && scan_gz_stop(s, off)))
		return;
	s->res->errors++;
	if (s->cb->error)
		s->cb->error(s->ud, off, msg);
}

/* Read more bytes, discarding what lies before the mark (or the position). Returns
 * the number of bytes added; 0 at the end of input. */
static size_t scan_fill(struct scan *s)
{
	size_t keep = s->mark != NO_MARK ? s->mark : s->pos;
	if (keep > 0) {
		memmove(s->buf, s->buf + keep, s->len - keep);
		s->len -= keep;
		s->pos -= keep;
		if (s->mark != NO_MARK)
			s->mark -= keep;
		s->base += keep;
	}
	if (s->stopped)
		return 0;
	if (s->cb->cancelled && s->cb->cancelled(s->ud)) {
		s->res->cancelled = true;
		return 0;
	}
	if (s->cap - s->len < SCAN_CHUNK / 2) {
		if (s->cap >= SCAN_MAX_VALUE) { /* drop the marked value, keep scanning past it */
			s->oversize = true;
			s->base += s->pos;
			memmove(s->buf, s->buf + s->pos, s->len - s->pos);
			s->len -= s->pos;
			s->pos = 0;
			s->mark = NO_MARK;
		} else {
			s->cap *= 2;
			s->buf = xrealloc(s->buf, s->cap);
		}
	}
	ssize_t k = scan_reader_read(&s->rd, s->buf + s->len, s->cap - s->len);
	long long raw = scan_reader_raw(&s->rd);
	if (s->cb->progress && raw > s->reported) {
		s->cb->progress(s->ud, raw - s->reported);
		s->reported = raw;
	}
	if (k <= 0)
		return 0;
	s->len += (size_t)k;
	return (size_t)k;
}

/* Next non-whitespace byte (not consumed), or -1 at the end. */
static int scan_peek(struct scan *s)
{
	if (s->stopped)
		return -1;
	for (;;) {
		while (s->pos < s->len) {
			char c = s->buf[s->pos];
			if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
				return (unsigned char)c;
			s->pos++;
		}
		if (scan_fill(s) == 0)
			return -1;
	}
}

/* Whether the backslashes right before buf[at] (back to from, continuing a run of
 * parity esc carried from before from) escape it. */
static bool escaped_at(const char *buf, size_t from, size_t at, bool esc)
{
	size_t bs = 0;
	while (at - bs > from && buf[at - bs - 1] == '\\')
		bs++;
	return at - bs == from ? (bs + esc) % 2 == 1 : bs % 2 == 1;
}

/* pos is at an opening quote: move past the closing quote. -1 at the end of input.
 * The bytes already scanned are consumed (only a marked value is kept), so skipping a
 * huge string costs no memory; the backslash parity carries across refills. */
static int scan_string(struct scan *s)
{
	size_t p = s->pos + 1;
	bool esc = false; /* the byte before p is an escaping backslash */
	for (;;) {
		const char *q = memchr(s->buf + p, '"', s->len - p);
		if (q) {
			size_t at = (size_t)(q - s->buf);
			if (!escaped_at(s->buf, p, at, esc)) {
				s->pos = at + 1;
				return 0;
			}
			p = at + 1; /* an escaped quote */
			esc = false;
			continue;
		}
		esc = escaped_at(s->buf, p, s->len, esc);
		s->pos = s->len;
		if (scan_fill(s) == 0)
			return -1;
		p = s->pos;
	}
}

/* 1 = quote, 2 = open, 3 = close. */
static const unsigned char scan_class[256] = {
	['"'] = 1, ['{'] = 2, ['['] = 2, ['}'] = 3, [']'] = 3,
};

/* The input ended inside event ev (pos at its '{', the mark there): when a '{' in it was
 * taken for an array element after closing objects left open (scan_nest.h resync), the
 * broken object never closed after all and that '{' more likely starts the next event:
 * resume there (1). Else -1, the end of input. */
static int scan_event_eof(struct scan *s, const struct nest *ev)
{
	if (!ev || !ev->resync || s->mark == NO_MARK || s->res->cancelled)
		return -1;
	s->pos = s->mark + ev->resync - 1;
	return 1;
}

/* pos is at '{' or '[': move past the matching close, counting only brackets of that
 * kind (an event with a stray ']' still ends at its '}'). -1 at the end of input, else
 * 0. With ev (pos at an event's '{', the mark there): 1 when the event is unclosed
 * (nest_check), pos then at the next event's '{'. */
static int scan_container(struct scan *s, struct nest *ev)
{
	long depth = 0;
	size_t p = s->pos;
	const unsigned char open = (unsigned char)s->buf[p], close = open == '{' ? '}' : ']';
	for (;;) {
		const unsigned char *b = (const unsigned char *)s->buf;
		size_t n = s->len;
		while (p < n) {
			unsigned char c = scan_class[b[p]];
			if (!c) {
				p++;
				continue;
			}
			if (c == 1) {
				s->pos = p;
				if (scan_string(s) < 0)
					return scan_event_eof(s, ev);
				p = s->pos;
				b = (const unsigned char *)s->buf;
				n = s->len;
				continue;
			}
			if (ev && ev->on) { /* a broken-looking event: tracked bracket by bracket */
				int k = nest_step(ev, b, s->mark, p);
				if (k != 0) {
					s->pos = k > 0 ? p + 1 : p;
					return k > 0 ? 0 : 1;
				}
			} else if (b[p] == open) {
				if (depth > 0 && ev && nest_after_comma(b, s->mark, p) && nest_check(ev, b, s->mark, p)) {
					s->pos = p;
					return 1;
				}
				depth++;
			} else if (b[p] == close && --depth <= 0) {
				s->pos = p + 1;
				return 0;
			}
			p++;
		}
		s->pos = p; /* consumed: only a marked value is kept */
		if (scan_fill(s) == 0)
			return scan_event_eof(s, ev);
		p = s->pos;
	}
}

static bool is_delim(char c)
{
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Skip one value of any kind starting at pos (after whitespace). */
static int scan_value(struct scan *s)
{
	int c = scan_peek(s);
	if (c < 0)
		return -1;
	if (c == '"')
		return scan_string(s);
	if (c == '{' || c == '[')
		return scan_container(s, NULL);
	for (;;) {
		while (s->pos < s->len && !is_delim(s->buf[s->pos]))
			s->pos++;
		if (s->pos < s->len)
			return 0;
		if (scan_fill(s) == 0)
			return 0; /* a primitive may end the input */
	}
}

/* Skip to the next '{' after a structural error inside the event array. */
static int scan_resync(struct scan *s)
{
	s->pos++;
	for (;;) {
		char *q = memchr(s->buf + s->pos, '{', s->len - s->pos);
		if (q) {
			s->pos = (size_t)(q - s->buf);
			return 0;
		}
		s->pos = s->len;
		if (scan_fill(s) == 0)
			return -1;
	}
}

/* After scanning a marked value that began at document offset at: when it outgrew
 * SCAN_MAX_VALUE it was dropped; say so once and clear the state. */
static bool oversized(struct scan *s, uint64_t at, const char *what)
{
	if (!s->oversize)
		return false;
	char msg[96];
	snprintf(msg, sizeof(msg), "%s larger than %zu MiB; skipped", what, SCAN_MAX_VALUE >> 20);
	scan_error(s, at, msg);
	s->oversize = false;
	s->mark = NO_MARK;
	return true;
}

/* The gzip stream is corrupt (not a cut, not only its trailer). */
static bool scan_corrupt(const struct scan *s)
{
	return s->rd.zmsg && !s->rd.zcheck;
}

/* The input ended cleanly (not cancelled, no read or gzip error but a trailer's check). */
static bool scan_clean_end(const struct scan *s)
{
	return !s->res->cancelled && !s->rd.err && !s->rd.truncated && !scan_corrupt(s);
}

/* The array's elements: 0 at its ']' (pos after it), 1 when the document ended with its
 * last event (dropped as oversized), or -1 at the end of input. A last event that lacked
 * its '}' and swallowed the array's ']' and the rest of the document (nest_swallowed_end) ends
 * at that ']'; the scan goes on from there. */
static int scan_events(struct scan *s)
{
	s->pos++; /* '[' */
	s->res->found_events = true;
	for (;;) {
		int c = scan_peek(s);
		if (c < 0)
			return -1;
		if (c == ']') {
			s->pos++;
			return 0;
		}
		if (c == ',') {
			s->pos++;
			continue;
		}
		if (c != '{') {
			char msg[80];
			snprintf(msg, sizeof(msg), "unexpected '%c' in traceEvents; skipped to the next event",
				 c >= 0x20 && c < 0x7f ? c : '?');
			scan_error(s, s->base + s->pos, msg);
			if (scan_resync(s) < 0)
				return -1;
			continue;
		}
		s->mark = s->pos;
		uint64_t at = s->base + s->pos;
		struct nest nest = { 0 };
		int k = scan_container(s, &nest);
		if (k < 0)
			return -1;
		size_t len = s->pos - s->mark, rest = 0;
		bool doc_end = k == 0 && scan_peek(s) < 0 && scan_clean_end(s);
		if (oversized(s, at, "trace event")) {
			s->res->oversized++;
			if (doc_end)
				return 1;
			continue;
		}
		if (doc_end)
			doc_end = nest_swallowed_end(s->buf + s->mark, len, &len, &rest);
		else if (k == 1) /* unclosed: the callback finds it invalid (skipped, its offset named) */
			len = nest_unclosed_len(s->buf + s->mark, len);
		s->res->events++;
		if (s->cb->event)
			s->cb->event(s->ud, s->buf + s->mark, len, s->base + s->mark);
		if (doc_end)
			s->pos = s->mark + rest; /* still in the buffer: the mark kept it */
		s->mark = NO_MARK;
		if (doc_end)
			return 0;
	}
}

static bool wanted_meta(const struct tscan_cb *cb, const char *key)
{
	for (const char *const *k = cb->meta_keys; k && *k; k++)
		if (strcmp(*k, key) == 0)
			return true;
	return false;
}

/* Read a key string at pos into key (truncated to keyn-1 bytes, escapes kept raw; an
 * oversized key reads as ""). */
static int scan_key(struct scan *s, char *key, size_t keyn)
{
	s->mark = s->pos;
	uint64_t at = s->base + s->pos;
	if (scan_string(s) < 0)
		return -1;
	if (oversized(s, at, "key")) {
		key[0] = '\0';
		return 0;
	}
	size_t n = s->pos - s->mark - 2;
	if (n >= keyn)
		n = keyn - 1;
	memcpy(key, s->buf + s->mark + 1, n);
	key[n] = '\0';
	s->mark = NO_MARK;
	return 0;
}

/* 0, or 1 when the document ended (scan_events), or -1 at the end of input. */
static int scan_member_value(struct scan *s, const char *key)
{
	int c = scan_peek(s);
	if (c < 0)
		return -1;
	if (strcmp(key, "traceEvents") == 0 && c == '[')
		return scan_events(s); /* 1: the document ended */
	if (!wanted_meta(s->cb, key))
		return scan_value(s);
	s->mark = s->pos;
	uint64_t at = s->base + s->pos;
	if (scan_value(s) < 0)
		return -1;
	if (oversized(s, at, "metadata value"))
		return 0;
	if (s->cb->meta)
		s->cb->meta(s->ud, key, s->buf + s->mark, s->pos - s->mark, s->base + s->mark);
	s->mark = NO_MARK;
	return 0;
}

static int scan_object(struct scan *s)
{
	s->pos++; /* '{' */
	char key[64];
	for (;;) {
		int c = scan_peek(s);
		if (c < 0)
			return -1;
		if (c == '}') {
			s->pos++;
			return 0;
		}
		if (c == ',') {
			s->pos++;
			continue;
		}
		if (c != '"') {
			scan_error(s, s->base + s->pos, "invalid JSON: expected a key in the top-level object");
			return -2;
		}
		if (scan_key(s, key, sizeof(key)) < 0)
			return -1;
		if (scan_peek(s) != ':') {
			scan_error(s, s->base + s->pos, "invalid JSON: expected ':' after a top-level key");
			return -2;
		}
		s->pos++;
		int r = scan_member_value(s, key);
		if (r < 0)
			return -1;
		if (r > 0)
			return 0; /* the document ended inside the event array */
		if (s->cb->enough && s->cb->enough(s->ud)) {
			s->res->ended = true;
			return 0;
		}
	}
}

static int scan_document(struct scan *s)
{
	int c = scan_peek(s);
	if (c == 0xEF && text_utf8_bom(s->buf + s->pos, s->len - s->pos)) {
		s->pos += 3;
		c = scan_peek(s);
	}
	if (c == '[')
		return scan_events(s) < 0 ? -1 : 0;
	if (c == '{')
		return scan_object(s);
	if (c < 0 && !scan_clean_end(s))
		return -1; /* cancelled, or a read or gzip error before the first byte: named by scan_run */
	if (c < 0) {
		scan_error(s, 0, "empty file");
		return -2;
	}
	scan_error(s, s->base + s->pos, "not a JSON object or array");
	return -2;
}

/* The file ends inside its gzip stream (at `end` of the decompressed document). */
static void scan_gz_cut(struct scan *s, uint64_t end)
{
	char msg[128];
	snprintf(msg, sizeof(msg), "unexpected end of file at byte %lld, inside its gzip stream: a truncated trace",
		 s->rd.raw);
	scan_error(s, end, msg);
}

/* The gzip stream ends before its trailer (CRC, length), after the whole JSON document:
 * every event was read, none can be checked against the CRC. */
static void scan_gz_no_trailer(struct scan *s, uint64_t end)
{
	char msg[224];
	snprintf(msg, sizeof(msg), "the gzip stream ends at byte %lld of the file, before its trailer (CRC, length), "
		 "after the whole JSON document: every event is read, none checked against the CRC", s->rd.raw);
	scan_error(s, end, msg);
}

/* How the input ended, r being scan_document's result: cancelled, a read or gzip error or
 * a cut make the document truncated, but a cut gzip stream after the whole document (r 0:
 * only its trailer missing) is named only, as is a gzip trailer that does not match (the
 * events are whole when the document is); so are bytes after the gzip stream. */
static void scan_report_end(struct scan *s, int r)
{
	struct tscan_result *res = s->res;
	uint64_t end = s->base + s->len;
	s->gz_checked = true;   /* the gzip stream's own errors: nothing to check */
	res->corrupt = scan_corrupt(s);
	if (r == -1) {
		res->truncated = true;
		if (res->cancelled)
			scan_error(s, end, "loading cancelled; the events read so far are kept");
		else if (res->corrupt)
			scan_error(s, end, s->rd.zmsg);
		else if (s->rd.err)
			scan_error(s, end, strerror(s->rd.err));
		else if (s->rd.truncated)
			scan_gz_cut(s, end);
		else
			scan_error(s, end, "unexpected end of file (truncated trace)");
	} else if (res->corrupt) {
		res->truncated = true;
		scan_error(s, end, s->rd.zmsg);
	} else if (r == 0 && s->rd.truncated) {
		scan_gz_no_trailer(s, end);
	}
	res->bad_check = s->rd.zcheck;
	if (s->rd.zcheck)
		scan_error(s, end, s->rd.zmsg);
	if (s->rd.trailing)
		scan_error(s, end, "bytes after the gzip stream that start no gzip member; ignored (as gzip -d does)");
}

static int scan_run(struct scan *s, const struct tscan_cb *cb, void *ud, struct tscan_result *res)
{
	s->cb = cb;
	s->ud = ud;
	s->res = res;
	s->cap = 4 * SCAN_CHUNK;
	s->buf = xmalloc(s->cap);
	s->mark = NO_MARK;
	int r = scan_document(s);
	if (r == 0 && !res->ended && scan_peek(s) >= 0) {
		scan_error(s, s->base + s->pos, "bytes after the end of the JSON document; not read");
		res->truncated = true;
	}
	scan_reader_stop(&s->rd); /* the reader's flags are final from here */
	res->bytes = s->base + s->pos;
	scan_report_end(s, r);
	res->err = s->rd.err;
	free(s->buf);
	scan_reader_close(&s->rd);
	return r == 0 && !res->truncated ? 0 : -1;
}

int tscan_mem(const char *js, size_t len, const struct tscan_cb *cb, void *ud,
	      struct tscan_result *res)
{
	struct scan s = { .rd = { .fd = -1, .mem = js, .memlen = len } };
	memset(res, 0, sizeof(*res));
	if (len >= 2 && (unsigned char)js[0] == 0x1f && (unsigned char)js[1] == 0x8b) {
		s.rd.mem = js;
		res->gz = true;
		scan_reader_open_gz(&s.rd, (const unsigned char *)js, 0);
	}
	return scan_run(&s, cb, ud, res);
}

int tscan_file(const char *path, const struct tscan_cb *cb, void *ud, struct tscan_result *res)
{
	memset(res, 0, sizeof(*res));
	struct scan s = { .rd = { .fd = infile_open(path) } };
	if (s.rd.fd < 0) {
		res->err = errno;
		return -1;
	}
	unsigned char head[2];
	ssize_t k = scan_reader_raw_read(&s.rd, head, 2);
	if (k == 2 && head[0] == 0x1f && head[1] == 0x8b) {
		s.rd.raw = 2;
		res->gz = true;
		scan_reader_open_gz(&s.rd, head, 2);
		if (s.rd.zinit)
			scan_reader_start(&s.rd);
	} else if (k > 0) {
		lseek(s.rd.fd, 0, SEEK_SET);
	}
	return scan_run(&s, cb, ud, res);
}

/* The first limit bytes of gzip file path, decompressed (NUL-terminated), or NULL (*err:
 * the errno when it could not be opened). */
static char *probe_gz_head(const char *path, size_t limit, size_t *len, int *err)
{
	struct scan_reader r = { .fd = infile_open(path) };
	if (r.fd < 0) {
		*err = errno;
		return NULL;
	}
	unsigned char head[2];
	if (scan_reader_raw_read(&r, head, 2) != 2 || head[0] != 0x1f || head[1] != 0x8b) {
		scan_reader_close(&r); /* changed under us: not a trace */
		return NULL;
	}
	scan_reader_open_gz(&r, head, 2);
	char *buf = xmalloc(limit + 1);
	size_t n = 0;
	while (n < limit) {
		ssize_t got = scan_reader_read(&r, buf + n, limit - n);
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	buf[n] = '\0';
	scan_reader_close(&r);
	*len = n;
	return buf;
}

bool tscan_probe(const char *path, size_t limit, int *err)
{
	size_t n = 0;
	char *buf = dirlist_read(path, limit, &n); /* run.json: one open with the other probes */
	*err = buf ? 0 : errno ? errno : EIO;
	if (buf && n >= 2 && (unsigned char)buf[0] == 0x1f && (unsigned char)buf[1] == 0x8b) {
		free(buf);
		buf = probe_gz_head(path, limit, &n, err);
	}
	if (!buf)
		return false;
	size_t i = text_utf8_bom(buf, n) ? 3 : 0;
	while (i < n && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
		i++;
	bool yes = false;
	if (i < n && buf[i] == '{')
		yes = memmem(buf, n, "\"traceEvents\"", 13) || memmem(buf, n, "\"distributedInfo\"", 17);
	else if (i < n && buf[i] == '[')
		yes = memmem(buf, n, "\"ph\"", 4) != NULL;
	free(buf);
	return yes;
}
