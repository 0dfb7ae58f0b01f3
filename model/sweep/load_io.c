/* SPDX-License-Identifier: MIT */
/* load_io.c: file, CSV and JSON helpers of the sweep loaders, the unread list (a
 * directory not listed, a level or job file that gave nothing) and the one warning of a
 * value they cannot use (see io.h). */
#include "model/dirlist.h"
#include "model/infile.h"
#include "model/sweep/io.h"

#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "model/json.h"
#include "model/run.h"
#include "model/sweep/sweep.h"
#include "model/text.h"
#include "model/xalloc.h"

char *sweep_slurp(const char *path, size_t *len, int *err)
{
	FILE *f = infile_fopen(path);
	if (!f) {
		*err = errno;
		return NULL;
	}
	size_t cap = 65536, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			if (cap > JSON_MAX_LEN) {
				free(buf);
				fclose(f);
				*err = EFBIG;
				return NULL;
			}
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	int ferr = ferror(f) ? errno : 0;
	fclose(f);
	if (ferr || n > JSON_MAX_LEN) {
		free(buf);
		*err = ferr ? ferr : EFBIG;
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	*err = 0;
	return buf;
}

size_t sweep_sniff(const char *path, char *buf, size_t n)
{
	size_t len = 0;
	char *head = dirlist_read(path, n, &len); /* run.json: one open with the other probes */
	if (!head)
		return 0;
	memcpy(buf, head, len);
	free(head);
	return len;
}

/* Adds path to the run's unread list (why: taken); false when it is there already. */
static bool add_unread(struct run *run, const char *path, char *why, bool nat, bool file)
{
	struct sweep_set *s = sweep_get(run);
	for (size_t i = 0; i < s->nunread; i++)
		if (strcmp(s->unread[i].path, path) == 0) {
			free(why);
			return false; /* the other loader's walk met it first */
		}
	s->unread = xrealloc(s->unread, (s->nunread + 1) * sizeof(*s->unread));
	s->unread[s->nunread++] = (struct sweep_unread){ xstrdup(path), why, nat, file };
	return true;
}

void sweep_dir_unreadable(struct run *run, const char *dir, bool nat)
{
	int err = dirlist_open_errno(dir);
	const char *why = err ? infile_strerror(err) : "the directory could not be listed";
	if (!add_unread(run, dir, xasprintf("cannot open: %s", why), nat, false))
		return;
	size_t src = run_add_source(run, dir, nat ? "nat" : "genai-perf", -1, -1);
	run_source_done(run, src, 0, 0, err ? err : EIO, false);
	diag_add(&run->diags, DIAG_ERROR, dir, -1, -1, -1, "cannot open: %s", why);
}

void sweep_file_unread(struct run *run, const char *path, const char *why, bool nat)
{
	add_unread(run, path, xstrdup(why), nat, true);
}

struct csv_acc {
	char ***rows;
	size_t *nf;
	long *line;
	size_t n, cap;
	char **cur;
	size_t ncur, curcap;
	long cur_line, phys_line;
};

static void on_field(void *s, size_t len, void *ud)
{
	struct csv_acc *a = ud;
	if (a->ncur == 0)
		a->cur_line = a->phys_line;
	xgrow((void **)&a->cur, &a->curcap, a->ncur + 1, sizeof(*a->cur));
	a->cur[a->ncur++] = s ? xstrndup(s, len) : xstrdup("");
}

static void on_row(int term, void *ud)
{
	(void)term;
	struct csv_acc *a = ud;
	bool blank = a->ncur == 0 || (a->ncur == 1 && a->cur[0][0] == '\0');
	if (blank) {
		for (size_t i = 0; i < a->ncur; i++)
			free(a->cur[i]);
		a->ncur = 0;
		return;
	}
	xgrow((void **)&a->rows, &a->cap, a->n + 1, sizeof(*a->rows));
	a->nf = xrealloc(a->nf, a->cap * sizeof(*a->nf));
	a->line = xrealloc(a->line, a->cap * sizeof(*a->line));
	a->rows[a->n] = a->cur;
	a->nf[a->n] = a->ncur;
	a->line[a->n] = a->cur_line;
	a->n++;
	a->cur = NULL;
	a->ncur = a->curcap = 0;
}

long sweep_csv_parse(const char *buf, size_t len, char ****rows, size_t **nf, long **line,
		     size_t *n)
{
	if (text_utf8_bom(buf, len)) {
		buf += 3;
		len -= 3;
	}
	struct csv_parser p;
	struct csv_acc a = { .phys_line = 1 };
	long rc = 0;
	csv_init(&p, CSV_STRICT | CSV_STRICT_FINI);
	/* Feed line by line so rows know their physical line number. */
	size_t off = 0;
	while (off < len) {
		const char *nl = memchr(buf + off, '\n', len - off);
		size_t chunk = nl ? (size_t)(nl - (buf + off)) + 1 : len - off;
		if (csv_parse(&p, buf + off, chunk, on_field, on_row, &a) != chunk) {
			rc = a.phys_line;
			break;
		}
		off += chunk;
		a.phys_line++;
	}
	if (rc == 0 && csv_fini(&p, on_field, on_row, &a) != 0) /* a quoted field still open at the end */
		rc = a.phys_line > 1 ? a.phys_line - 1 : 1;
	for (size_t i = 0; i < a.ncur; i++)
		free(a.cur[i]);
	free(a.cur);
	csv_free(&p);
	*rows = a.rows;
	*nf = a.nf;
	*line = a.line;
	*n = a.n;
	return rc;
}

int sweep_json_open_why(struct run *run, const char *path, const char *format, struct json_doc *d,
			size_t *src, char *why, size_t whyn)
{
	size_t len;
	int err;
	char msg[96];
	json_doc_init(d);
	char *buf = sweep_slurp(path, &len, &err);
	*src = run_add_source(run, path, format, -1, buf ? (long long)len : -1);
	if (!buf) {
		snprintf(msg, sizeof(msg), "cannot read: %s",
			 err == EFBIG ? "larger than 1 GiB" : infile_strerror(err));
		diag_add(&run->diags, DIAG_ERROR, path, -1, -1, -1, "%s", msg);
		run_source_done(run, *src, 0, 0, err, false);
		json_doc_free(d);
		snprintf(why, whyn, "%s", msg);
		return -1;
	}
	if (text_utf8_bom(buf, len))
		memset(buf, ' ', 3); /* a UTF-8 BOM: blanks keep the offsets the file's */
	int rc = len ? json_parse(d, buf, len) : JSON_EPART;
	if (rc <= 0 || !json_is_object(d, 0)) {
		snprintf(msg, sizeof(msg), "%s", len == 0 ? "empty file" : rc <= 0 ? json_err_str(rc)
									: "top level is not a JSON object");
		diag_add(&run->diags, DIAG_ERROR, path, -1, json_error_offset(d, rc, len), -1, "%s", msg);
		run_source_done(run, *src, 0, 1, 0, rc == JSON_EPART);
		free(buf);
		json_doc_free(d);
		snprintf(why, whyn, "%s", msg);
		return -1;
	}
	sweep_json_dup_warn(run, path, d, 0, "");
	return 0;
}

bool sweep_json_dup_warn(struct run *run, const char *path, const struct json_doc *d, int obj, const char *where)
{
	int first, again = json_dup_key(d, obj, &first);
	if (again < 0)
		return false;
	char key[64], safe[256], shown[96];
	json_strcpy(d, again, key, sizeof(key));
	text_sanitize(key, strlen(key), safe, sizeof(safe), 0);
	text_clip(safe, 40, shown, sizeof(shown), true, 0);
	diag_add(&run->diags, DIAG_WARN, path, -1, d->tok[again].start, -1, "key \"%s\"%s given twice (first at byte "
		 "%d): the last is used, as a Python JSON reader keeps the last", shown, where, d->tok[first].start);
	return true;
}

int sweep_json_open(struct run *run, const char *path, const char *format, struct json_doc *d,
		    size_t *src)
{
	char why[96];
	return sweep_json_open_why(run, path, format, d, src, why, sizeof(why));
}

void sweep_json_close(struct json_doc *d)
{
	free((char *)d->js);
	json_doc_free(d);
}

int sweep_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* A quoted value longer than this many bytes is cut (at a character's start) with an ellipsis. */
#define BAD_VALUE_BYTES 40

const char *sweep_bad_text(enum sweep_bad why)
{
	static const char *const whys[] = {
		[SWEEP_BAD_NOT_FINITE] = "not a finite number", [SWEEP_BAD_NEGATIVE] = "negative",
		[SWEEP_BAD_NOT_INTEGER] = "not an integer", [SWEEP_BAD_TOO_LARGE] = "too large for a count",
	};
	return whys[why];
}

void sweep_bad_value(struct run *run, const char *path, long line, long long off, const char *field,
		     const char *text, size_t len, enum sweep_bad why, size_t *bad)
{
	size_t n = len > BAD_VALUE_BYTES ? BAD_VALUE_BYTES : len;
	while (n < len && n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
		n--; /* never inside a character */
	char shown[8 * BAD_VALUE_BYTES];
	text_sanitize(text, n, shown, sizeof(shown), 0);
	diag_add(&run->diags, DIAG_WARN, path, line, off, -1, "%s: unusable value '%s%s' (%s)", field, shown,
		 n < len ? "…" : "", sweep_bad_text(why));
	(*bad)++;
}

void sweep_bad_json(struct run *run, const char *path, const struct json_doc *d, int t, const char *field,
		    enum sweep_bad why, size_t *bad)
{
	const jsmntok_t *k = &d->tok[t];
	bool str = json_is_string(d, t); /* jsmn's span of a string leaves its quotes out */
	size_t len = (size_t)(k->end - k->start) + (str ? 2 : 0);
	sweep_bad_value(run, path, -1, k->start, field, d->js + k->start - (str ? 1 : 0), len, why, bad);
}
