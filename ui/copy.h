/* SPDX-License-Identifier: MIT */
/* copy.h: the text y and Y put on the clipboard from a table, the rows a pane exports
 * (its `table` op): one cell (y) or a whole row (Y), tab-separated, numbers in full
 * precision as --export writes them, text whole, a missing cell empty. Panes find the
 * row of their selection (copy_row_ref) and call copy_cells from their `copy` op; other
 * panes build their text with copy_append, cut the same way. */
#ifndef UI_COPY_H
#define UI_COPY_H

#include <stdbool.h>
#include <stddef.h>

struct table;

/* The first row of t whose ref is ref, -1 when none (or t is NULL). */
long copy_row_ref(const struct table *t, long ref);
/* s appended to buf at *k (*k < n, n the room, buf NUL-terminated there): whole, or as
 * many whole UTF-8 characters as fit (never half a character); *k moves past it. True
 * when s was cut. The y/Y copies of panes without a table (the heatmap) use it too. */
bool copy_append(char *buf, size_t n, size_t *k, const char *s);
/* Row `row` of t into buf: every cell (whole) or cell col alone. 0; 1 when the text
 * did not fit in n bytes (cut after the last whole UTF-8 character that fits); -1 when
 * t is NULL, row < 0, or col is no column of t (col < 0: the view lacks it). */
int copy_cells(const struct table *t, long row, bool whole, int col, char *buf, size_t n);

#endif
