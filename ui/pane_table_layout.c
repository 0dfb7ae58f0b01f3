/* SPDX-License-Identifier: MIT */
/* pane_table_layout.c: which columns a table pane's frame shows, and how wide
 * (pane_table.h table_cols_layout). The key (first) column always shows, then the
 * column cursor's, then the others by importance (table_col.prio) while they fit; a
 * number is never cut; a text column starts at a bounded width (a long hostname never
 * hides the important numbers) and takes the spare width. No room is kept for an
 * important number that does not fit: an ordinary column never takes the width an
 * important text column needs (the Ranks node column whole at 80 columns, not records). */
#include <stdlib.h>
#include "model/text.h"
#include "ui/pane_table.h"

enum { TP_MIN_TEXTW = 16, TP_MAX_COLW = 48, TP_HEAD_W = 12, TP_MAX_TEXTW = 400, TP_PRIO_TEXTW = 24 };

/* One frame's layout: its table, the view rows on screen, the widths seen so far. */
struct frame {
	const struct table *t;
	size_t top;
	int rows;
	int *need;
};

/* Width a column needs: its widest value among the rows on screen (a number is never
 * cut), at least its header up to TP_HEAD_W (a longer header is clipped; the status
 * row names the column in full), plus one blank. Text columns ask for their widest
 * value up to TP_MAX_TEXTW; what they get is decided by table_cols_layout(). Widths only
 * grow while the pane is open, so scrolling does not shift columns. */
static int col_need(struct frame *f, int c)
{
	const struct table *t = f->t;
	int hw = text_width(t->col[c].name) + 1;   /* + the sort arrow */
	int w = hw < TP_HEAD_W ? hw : TP_HEAD_W;
	if (w < t->col[c].width && t->col[c].type != COL_TEXT)
		w = t->col[c].width;
	for (int i = 0; i < f->rows && f->top + (size_t)i < t->nview; i++) {
		char buf[512];
		table_display(t, t->view[f->top + (size_t)i], c, buf, sizeof(buf));
		int vw = text_width(buf);
		if (vw > w)
			w = vw;
	}
	if (t->grouped && c == t->group_col)   /* group_cell's glyph and " (N)" */
		w += 8;
	if (w > TP_MAX_TEXTW)
		w = TP_MAX_TEXTW;
	if (w + 1 > f->need[c])
		f->need[c] = w + 1;
	return f->need[c];
}

/* The width a text column starts with before spare width is shared out: its preferred
 * width, at most TP_MAX_COLW; the key column, which always shows, at least TP_PRIO_TEXTW
 * (a 13-character hostname in the nodes view is never cut while ordinary columns take
 * the rest); never more than it needs. */
static int text_base(const struct frame *f, int c, int need)
{
	int w = f->t->col[c].width + 1 < TP_MAX_COLW ? f->t->col[c].width + 1 : TP_MAX_COLW;
	if (c == 0 && w < TP_PRIO_TEXTW)
		w = TP_PRIO_TEXTW;
	return need < w ? need : w;
}

static int cmp_prio(const void *a, const void *b, void *ud)
{
	const struct table *t = ud;
	int x = *(const int *)a, y = *(const int *)b;
	if (t->col[x].prio != t->col[y].prio)
		return t->col[y].prio - t->col[x].prio;
	return x - y;
}

/* The width the important (prio > 0) columns among the n candidates ask for: a text
 * column its need; a number its need when it fits in left after those before it (a
 * number is never cut, so one that does not fit is left out and keeps no room);
 * *numbers: one of them is a number. */
static int prio_need(struct frame *f, const int *cand, int n, int left, bool *numbers)
{
	int sum = 0;
	*numbers = false;
	for (int k = 0; k < n; k++)
		if (f->t->col[cand[k]].prio > 0) {
			bool number = f->t->col[cand[k]].type != COL_TEXT;
			int need = col_need(f, cand[k]);
			sum += !number || sum + need <= left ? need : 0;
			*numbers = *numbers || number;
		}
	return sum;
}

/* Width more (at most what is left of w) to column c. */
static void grow(int *width, int c, int more, int *used, int w)
{
	more = more < w - *used ? more : w - *used;
	if (more > 0) {
		width[c] += more;
		*used += more;
	}
}

/* The columns in the order they are placed: the key column, the cursor's column, then
 * by priority. Returns how many (n at most). */
static int candidates(const struct table *t, int n, int cursor, int *cand)
{
	int order[TABLE_COLS_MAX], ncand = 0;
	for (int c = 0; c < n; c++)
		order[c] = c;
	qsort_r(order + 1, (size_t)(n > 1 ? n - 1 : 0), sizeof(int), cmp_prio, (void *)t);
	cand[ncand++] = 0;
	if (cursor > 0 && cursor < n)
		cand[ncand++] = cursor;
	for (int k = 1; k < n; k++)
		if (order[k] != cursor)
			cand[ncand++] = order[k];
	return ncand;
}

/* The width column cand[k] gets with used of w taken, -1 when it does not fit. An ordinary
 * text column starts small; an important one asks for all it needs, at most TP_PRIO_TEXTW
 * while important numbers wait, else leaving the important ones after it their need
 * (prio_need), down to its starting width (a long id list never hides a finding's
 * title); spare width goes to it later. */
static int place(struct frame *f, const int *cand, int ncand, int k, int used, int w)
{
	const struct table_col *col = &f->t->col[cand[k]];
	int c = cand[k], need = col_need(f, c);
	int cw = col->type != COL_TEXT ? need : col->prio <= 0 ? text_base(f, c, need) : need;
	bool wait;
	int least = col->type == COL_TEXT ? text_base(f, c, cw) : cw;
	int room = w - used - prio_need(f, cand + k + 1, ncand - k - 1, w - used - least, &wait);
	if (col->type == COL_TEXT && cw > TP_PRIO_TEXTW && wait)
		cw = TP_PRIO_TEXTW;
	else if (col->type == COL_TEXT && col->prio > 0 && cw > room)
		cw = room > least ? room : least;
	if (used + cw <= w)
		return cw;
	/* the key column always shows; a text column takes what is left */
	return c == 0 || (col->type == COL_TEXT && w - used >= TP_MIN_TEXTW) ? w - used : -1;
}

void table_cols_layout(struct table_cols *tc, const struct table *t, size_t top, int rows, int cursor, int x0,
		       int w)
{
	struct frame f = { t, top, rows, tc->need };
	int n = (int)t->ncol < TABLE_COLS_MAX ? (int)t->ncol : TABLE_COLS_MAX;
	int width[TABLE_COLS_MAX] = { 0 }, cand[TABLE_COLS_MAX + 1];
	bool shown[TABLE_COLS_MAX] = { false };
	int ncand = candidates(t, n, cursor, cand), used = 1;   /* 1: the selection pointer */
	for (int k = 0; k < ncand; k++) {
		int c = cand[k], cw = shown[c] ? -1 : place(&f, cand, ncand, k, used, w);
		if (cw >= 0) {
			shown[c] = true;
			width[c] = cw;
			used += cw;
		}
	}
	/* spare width: to the shown text columns, up to what they need */
	for (int c = 0; c < n && used < w; c++)
		if (shown[c] && t->col[c].type == COL_TEXT)
			grow(width, c, tc->need[c] - width[c], &used, w);
	/* then to clipped headers, so a wide screen shows whole column names */
	for (int c = 0; c < n && used < w; c++)
		if (shown[c])
			grow(width, c, text_width(t->col[c].name) + 2 - width[c], &used, w);
	tc->n = 0;
	int x = x0 + 1;
	for (int c = 0; c < n; c++) {
		if (!shown[c])
			continue;
		tc->c[tc->n] = c;
		tc->x[tc->n++] = x;
		x += width[c];
	}
	tc->x[tc->n] = x;
}
