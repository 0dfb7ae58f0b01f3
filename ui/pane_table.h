/* SPDX-License-Identifier: MIT */
/* pane_table.h: the parts of the table pane (pane_table.c) kept in files of their own:
 * its `i` legend (pane_table_legend.c); what it and its `e` (app_export.c) say of a view
 * held in part and of a pane with no row (pane_table_parts.c); which columns a frame
 * shows (pane_table_layout.c); the filter the saved state keeps (ui/state.c). Not for
 * other panes. */
#ifndef UI_PANE_TABLE_H
#define UI_PANE_TABLE_H

#include <stdbool.h>
#include "model/table.h"
#include "ui/legend.h"

/* The legend of table t, opened for view `view` (NULL: none; its help heads it): the
 * view, each column's meaning, the glossary terms its columns use. cmp: compare mode
 * (an onset column is B's). */
void table_pane_legend(const struct table *t, const char *view, bool cmp, struct legend *l);

enum { TABLE_COLS_MAX = 64 };   /* the most columns a frame shows */

/* The columns of a table pane's frame: c[i] drawn at screen x[i], x[n] their end. */
struct table_cols {
	int x[TABLE_COLS_MAX + 1];
	int c[TABLE_COLS_MAX];
	int n;
	int *need;   /* per column of the table: the widest value seen (owned by the pane) */
};

/* The columns of a frame of t in w columns from x0 (x0 itself: the selection pointer),
 * its view rows [top, top + rows) on screen, the column cursor at cursor: the key (first)
 * column always, then the cursor's, then the others by importance (table_col.prio)
 * while they fit, drawn in table order; a number is never cut, a text column starts
 * bounded (a long hostname at 24 columns while the important numbers need the room, the
 * key column whole up to 24) and takes the spare width. Widths seen grow tc->need
 * (t->ncol of them), so scrolling does not shift columns. Fills tc->x, tc->c, tc->n. */
void table_cols_layout(struct table_cols *tc, const struct table *t, size_t top, int rows, int cursor, int x0,
		       int w);

struct app;
/* For t held in part (t->partial: the first ranks' rows of the steps view), what an
 * export of t holds and how to get every row (malloc'd): "ranks 0-259 of 300 only; all:
 * tscope-tui --export steps --filter 'rank=7 step>=100' --sort -step_time_ms RUN" (its
 * ranks by id, as a rank list when it fits, else their count, first and last; then the
 * command with t's filter and sort and the run's options that choose its records and
 * its PATHs, each argument a shell word). */
char *table_parts_note(const struct table *t, const struct app *app);
/* What a pane showing no row of t says (malloc'd): the view's empty note or "no rows";
 * with a filter "no rows match the filter" (and, when a value is a pattern some row holds as
 * written, table_filter_hint's why), or held in part "no row matches the filter
 * in the first ranks' rows loaded, " and table_parts_note (the others may hold rows). */
char *table_pane_empty(const struct table *t, const struct app *app);
/* The filter of the table pane priv (pane_table's private state) that is its own, NULL
 * for none: while a drill-down shows its evidence's filter (or none) in its place, the
 * one Esc puts back. What the saved state keeps (ui/state.c), never a drill-down's. */
const char *table_pane_own_filter(const void *priv);

#endif
