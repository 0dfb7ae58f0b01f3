/* SPDX-License-Identifier: MIT */
/* io.h: file helpers shared by the sweep loaders (GenAI-Perf, NAT, Cerebras):
 * whole-file reads with a size limit, a cheap sniff for probes, a multi-table CSV
 * reader on libcsv, a JSON open that registers the source and reports errors (and a key
 * given twice), the report of a directory a loader's walk could not list and of a level
 * or job file that gave nothing, and the one warning of a value a loader cannot use
 * (sweep_bad_value). */
#ifndef MODEL_SWEEP_IO_H
#define MODEL_SWEEP_IO_H

#include "model/base.h"

struct run;
struct json_doc;

/* Whole file, NUL-terminated, at most JSON_MAX_LEN bytes; NULL with *err (errno,
 * EFBIG when too large). The caller frees. */
char *sweep_slurp(const char *path, size_t *len, int *err);
/* Up to n leading bytes into buf; returns the count (0 on error). */
size_t sweep_sniff(const char *path, char *buf, size_t n);
/* A directory under a loaded path that dirlist_open() could not list (nat: met by the
 * NAT loader, else GenAI-Perf's): an error naming it and why ("cannot open: Permission
 * denied"), an unreadable source, and an entry in the run's sweep_set unread list (the
 * headline and the not-judged list say what it leaves out); once, whichever loader
 * meets it first. */
void sweep_dir_unreadable(struct run *run, const char *dir, bool nat);
/* A GenAI-Perf level file or NAT job file (nat) that gave no config or sizing job, its
 * open or parse having failed (why: the diagnostic's text, already reported): an entry
 * in the unread list, so the headline and the not-judged list say what it leaves out. */
void sweep_file_unread(struct run *run, const char *path, const char *why, bool nat);
/* RFC 4180 rows of buf (UTF-8 BOM stripped, CRLF or LF). Blank lines are dropped; a
 * header row starts each table. Every field is a malloc'd NUL-terminated copy;
 * line[i] is row i's first physical line. Returns 0, or the physical line where the
 * parse stopped early (rows before the error are kept; a quoted field still open at the
 * end: the last line). */
long sweep_csv_parse(const char *buf, size_t len, char ****rows, size_t **nf, long **line,
		     size_t *n);
/* Initialise d, read and tokenize a JSON file (a leading UTF-8 BOM is skipped),
 * registering it as a source of `format`. Returns the root token (0), d->js owning the buffer (release both with
 * sweep_json_close), or -1 after a diagnostic, with d already released and the source
 * already marked done; _why also gives the diagnostic's text ("truncated JSON",
 * "cannot read: Permission denied") in why. A key the top-level object has twice is
 * warned about (sweep_json_dup_warn). */
int sweep_json_open(struct run *run, const char *path, const char *format, struct json_doc *d,
		    size_t *src);
int sweep_json_open_why(struct run *run, const char *path, const char *format, struct json_doc *d,
			size_t *src, char *why, size_t whyn);
void sweep_json_close(struct json_doc *d);
/* The first key object obj of d has twice (json_dup_key; where: "" or words placing obj,
 * " in ordinal 2"), warned about at its second offset, naming both: the last is used, as
 * json_get and the tools' Python readers keep it. False when none is. */
bool sweep_json_dup_warn(struct run *run, const char *path, const struct json_doc *d, int obj, const char *where);
int sweep_cmp_double(const void *a, const void *b);

/* Why a value is unusable (sweep_bad_value), in the one wording of every sweep loader. */
enum sweep_bad {
	SWEEP_BAD_NOT_FINITE,   /* "not a finite number": NaN, Infinity, 1e400, abc, a string */
	SWEEP_BAD_NEGATIVE,     /* "negative": a time, rate, count or reading below 0 */
	SWEEP_BAD_NOT_INTEGER,  /* "not an integer": a count of 2000.5 */
	SWEEP_BAD_TOO_LARGE,    /* "too large for a count": 1e20 samples */
};
/* why in words: "not a finite number", "negative", "not an integer", "too large for a count". */
const char *sweep_bad_text(enum sweep_bad why);
/* A value the loader leaves out: a warning "FIELD: unusable value 'TEXT' (WHY)" at line
 * or byte offset off (-1: none) of path, TEXT the value as the file writes it
 * (text[0..len), sanitized and clipped), counted in *bad. GenAI-Perf, NAT and Cerebras
 * values all go through it, so a bad value reads the same whatever its file. */
void sweep_bad_value(struct run *run, const char *path, long line, long long off, const char *field,
		     const char *text, size_t len, enum sweep_bad why, size_t *bad);
/* The same for token t of d, at its offset (a string shown with its quotes). */
void sweep_bad_json(struct run *run, const char *path, const struct json_doc *d, int t, const char *field,
		    enum sweep_bad why, size_t *bad);

#endif
