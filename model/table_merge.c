/* SPDX-License-Identifier: MIT */
/* table_merge.c: sorted runs spilled to a temporary file and merged (see table_merge.h).
 * A run is its rows' records in sorted order, one after another:
 *   u32 len (of what follows), u8 kind, the key, the CSV line (its '\n' included)
 * where the key is nothing (KEY_MISSING), double num + int64 exact + u8 is_int
 * (KEY_NUM) or u32 n + n bytes + NUL (KEY_TEXT): a cell as table_cell_cmp() reads it. */
#include "model/table_merge.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/xalloc.h"

enum { KEY_MISSING, KEY_NUM, KEY_TEXT };
#define NUM_KEY_LEN (sizeof(double) + sizeof(int64_t) + 1)

/* A run being merged: its unread bytes in the file and a window of them. */
struct run_cursor {
	off_t pos, end;          /* [pos, end): not read yet */
	char *buf;
	size_t cap, len, at;     /* buf[at, len): read, not consumed */
	struct table_cell key;   /* the current record's (text: in buf) */
	const char *line;
	size_t line_len, rec_len;
};

struct table_merge {
	int fd;
	FILE *f;                 /* the spill, written through while runs are added */
	int col;
	bool desc;
	enum col_type type;
	unsigned flags;
	off_t *run_end;          /* run i: [run_end[i - 1] (0 for i = 0), run_end[i]) */
	size_t nrun, runcap;
	off_t written;
	size_t rows;
	struct run_cursor *cur;  /* merging: one a run */
	size_t *heap;            /* runs with a current record, least on top */
	size_t nheap;
	bool merging;
};

/* An unlinked file in dir, open for reading and writing: O_TMPFILE, else a named one
 * removed at once. -1 and errno. */
static int spill_open(const char *dir)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
	char *path = xasprintf("%s/.tscope-sort-XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	free(path);
	return fd;
}

struct table_merge *table_merge_new(const struct table *t, int col, bool desc, unsigned flags, const char *dir)
{
	int fd = spill_open(dir);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		errno = e;
		return NULL;
	}
	struct table_merge *m = xcalloc(1, sizeof(*m));
	*m = (struct table_merge){ .fd = fd, .f = f, .col = col, .desc = desc, .type = t->col[col].type,
				   .flags = flags };
	return m;
}

size_t table_merge_rows(const struct table_merge *m)
{
	return m->rows;
}

/* ---- spilling ---------------------------------------------------------------------- */

/* One record: cell c's key and line[0, n). */
static void put_record(struct table_merge *m, const struct table_cell *c, const char *line, size_t n)
{
	unsigned char kind = !c->present ? KEY_MISSING : m->type == COL_TEXT ? KEY_TEXT : KEY_NUM;
	uint32_t tlen = kind == KEY_TEXT ? (uint32_t)strlen(c->text) : 0;
	size_t key = kind == KEY_NUM ? NUM_KEY_LEN : kind == KEY_TEXT ? sizeof(tlen) + tlen + 1 : 0;
	uint32_t len = (uint32_t)(1 + key + n);
	fwrite(&len, sizeof(len), 1, m->f);
	fputc(kind, m->f);
	if (kind == KEY_NUM) {
		int64_t exact = c->exact;
		fwrite(&c->num, sizeof(c->num), 1, m->f);
		fwrite(&exact, sizeof(exact), 1, m->f);
		fputc(c->is_int, m->f);
	} else if (kind == KEY_TEXT) {
		fwrite(&tlen, sizeof(tlen), 1, m->f);
		fwrite(c->text, 1, tlen + 1, m->f);
	}
	fwrite(line, 1, n, m->f);
	m->written += (off_t)(sizeof(len) + len);
}

int table_merge_add(struct table_merge *m, struct table *t)
{
	table_sort(t, m->col, m->desc);
	char *text = NULL;
	size_t size = 0;
	FILE *ms = open_memstream(&text, &size);
	if (!ms)
		return -1;
	size_t *end = xmalloc((t->nview ? t->nview : 1) * sizeof(*end));
	int r = 0;
	for (size_t i = 0; i < t->nview && r == 0; i++) {
		r = table_write_csv_row(t, t->view[i], ms, m->flags);
		off_t at = ftello(ms);
		r = at < 0 ? -1 : r;
		end[i] = (size_t)at;
	}
	if (fclose(ms) != 0)
		r = -1;
	for (size_t i = 0, from = 0; r == 0 && i < t->nview; from = end[i++])
		put_record(m, table_cell(t, t->view[i], m->col), text + from, end[i] - from);
	free(end);
	free(text);
	if (r != 0 || ferror(m->f))
		return -1;
	if (m->nrun == m->runcap) {
		m->runcap = m->runcap ? 2 * m->runcap : 16;
		m->run_end = xrealloc(m->run_end, m->runcap * sizeof(*m->run_end));
	}
	m->run_end[m->nrun++] = m->written;
	m->rows += t->nview;
	return 0;
}

/* ---- merging ----------------------------------------------------------------------- */

/* At least need bytes of c's run in buf from c->at on (the window moved and grown as
 * needed). 0, or -1 with errno (EIO: the file ends early). */
static int cur_need(int fd, struct run_cursor *c, size_t need)
{
	if (c->len - c->at >= need)
		return 0;
	memmove(c->buf, c->buf + c->at, c->len - c->at);
	c->len -= c->at;
	c->at = 0;
	if (need > c->cap) {
		c->cap = need;
		c->buf = xrealloc(c->buf, c->cap);
	}
	while (c->len < need) {
		size_t want = c->cap - c->len;
		if ((off_t)want > c->end - c->pos)
			want = (size_t)(c->end - c->pos);
		ssize_t got = want ? pread(fd, c->buf + c->len, want, c->pos) : 0;
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			errno = got ? errno : EIO;
			return -1;
		}
		c->pos += got;
		c->len += (size_t)got;
	}
	return 0;
}

/* The key at p (kind then what that kind holds) into c->key; past it, NULL when it
 * does not fit before end (not a record this file's writer wrote). */
static const char *read_key(struct run_cursor *c, const char *p, const char *end)
{
	unsigned char kind = (unsigned char)*p++;
	c->key = (struct table_cell){ .present = kind != KEY_MISSING };
	if (kind == KEY_MISSING)
		return p;
	if (kind == KEY_NUM && end - p >= (ptrdiff_t)NUM_KEY_LEN) {
		int64_t exact;
		memcpy(&c->key.num, p, sizeof(c->key.num));
		memcpy(&exact, p + sizeof(c->key.num), sizeof(exact));
		c->key.exact = exact;
		c->key.is_int = p[sizeof(double) + sizeof(exact)] != 0;
		return p + NUM_KEY_LEN;
	}
	uint32_t n;
	if (kind != KEY_TEXT || end - p < (ptrdiff_t)sizeof(n))
		return NULL;
	memcpy(&n, p, sizeof(n));
	if ((size_t)(end - p) < sizeof(n) + (size_t)n + 1)
		return NULL;
	c->key.text = (char *)p + sizeof(n);
	return p + sizeof(n) + n + 1;
}

/* c's next record as its current one: 1, 0 at the run's end, -1 with errno (EIO: the
 * file does not hold what was written). */
static int cur_next(int fd, struct run_cursor *c)
{
	if (c->pos == c->end && c->at == c->len)
		return 0;
	uint32_t len;
	if (cur_need(fd, c, sizeof(len)) != 0)
		return -1;
	memcpy(&len, c->buf + c->at, sizeof(len));
	if (len > 0 && cur_need(fd, c, sizeof(len) + len) != 0)
		return -1;
	const char *p = c->buf + c->at + sizeof(len), *end = p + len;
	p = len > 0 ? read_key(c, p, end) : NULL;
	if (!p) {
		errno = EIO;
		return -1;
	}
	c->line = p;
	c->line_len = (size_t)(end - p);
	c->rec_len = sizeof(len) + len;
	return 1;
}

/* Run a before run b: its key first, the earlier run on a tie (the sort is stable). */
static bool before(const struct table_merge *m, size_t a, size_t b)
{
	int r = table_cell_cmp(&m->cur[a].key, &m->cur[b].key, m->type, m->desc);
	return r < 0 || (r == 0 && a < b);
}

static void sift_down(struct table_merge *m, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, best = i;
		if (l < m->nheap && before(m, m->heap[l], m->heap[best]))
			best = l;
		if (r < m->nheap && before(m, m->heap[r], m->heap[best]))
			best = r;
		if (best == i)
			return;
		size_t tmp = m->heap[i];
		m->heap[i] = m->heap[best];
		m->heap[best] = tmp;
		i = best;
	}
}

/* The spill flushed, a cursor a run with its first record, the heap built. */
static int merge_begin(struct table_merge *m)
{
	m->merging = true;
	if (fflush(m->f) != 0)
		return -1;
	size_t cap = m->nrun ? TABLE_MERGE_BUF / m->nrun : TABLE_MERGE_BUF;
	cap = cap < TABLE_MERGE_RUN_MIN ? TABLE_MERGE_RUN_MIN : cap > ((size_t)1 << 20) ? (size_t)1 << 20 : cap;
	m->cur = xcalloc(m->nrun ? m->nrun : 1, sizeof(*m->cur));
	m->heap = xmalloc((m->nrun ? m->nrun : 1) * sizeof(*m->heap));
	for (size_t i = 0; i < m->nrun; i++) {
		struct run_cursor *c = &m->cur[i];
		*c = (struct run_cursor){ .pos = i ? m->run_end[i - 1] : 0, .end = m->run_end[i], .cap = cap,
					  .buf = xmalloc(cap) };
		int r = cur_next(m->fd, c);
		if (r < 0)
			return -1;
		if (r > 0)
			m->heap[m->nheap++] = i;
	}
	for (size_t i = m->nheap / 2; i-- > 0;)
		sift_down(m, i);
	return 0;
}

long table_merge_write(struct table_merge *m, FILE *f, size_t most)
{
	if (!m->merging && merge_begin(m) != 0)
		return -1;
	long n = 0;
	while (m->nheap && (size_t)n < most) {
		struct run_cursor *c = &m->cur[m->heap[0]];
		if (fwrite(c->line, 1, c->line_len, f) != c->line_len)
			return -1;
		n++;
		c->at += c->rec_len;
		int r = cur_next(m->fd, c);
		if (r < 0)
			return -1;
		if (r == 0)
			m->heap[0] = m->heap[--m->nheap];
		sift_down(m, 0);
	}
	return ferror(f) ? -1 : n;
}

void table_merge_free(struct table_merge *m)
{
	if (!m)
		return;
	fclose(m->f);
	for (size_t i = 0; m->cur && i < m->nrun; i++)
		free(m->cur[i].buf);
	free(m->cur);
	free(m->heap);
	free(m->run_end);
	free(m);
}
