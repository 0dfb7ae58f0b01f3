/* SPDX-License-Identifier: MIT */
/* copy.c: a table's cell or row as clipboard text (see copy.h). */
#include "ui/copy.h"

#include <stdio.h>
#include "model/table.h"

long copy_row_ref(const struct table *t, long ref)
{
	for (size_t r = 0; t && r < t->nrow; r++)
		if (t->ref[r] == ref)
			return (long)r;
	return -1;
}

/* One cell: text whole, an integer exact, a number in full precision, missing empty. */
static void cell_text(const struct table *t, size_t row, size_t col, char *buf, size_t n)
{
	const struct table_cell *c = table_cell(t, row, (int)col);
	buf[0] = '\0';
	if (!c->present)
		return;
	if (t->col[col].type == COL_TEXT)
		snprintf(buf, n, "%s", c->text ? c->text : "");
	else if (c->is_int)
		snprintf(buf, n, "%lld", c->exact);
	else
		table_format_full(c->num, buf, n);
}

int copy_cells(const struct table *t, long row, bool whole, int col, char *buf, size_t n)
{
	if (!t || row < 0 || (size_t)row >= t->nrow || (!whole && (col < 0 || (size_t)col >= t->ncol)) || !n)
		return -1;
	size_t lo = whole ? 0 : (size_t)col, hi = whole ? t->ncol : (size_t)col + 1, k = 0;
	buf[0] = '\0';
	for (size_t c = lo; c < hi && k + 1 < n; c++) {
		char v[1024];
		cell_text(t, (size_t)row, c, v, sizeof(v));
		int w = snprintf(buf + k, n - k, "%s%s", c > lo ? "\t" : "", v);
		k += w > 0 ? (size_t)w : 0;
	}
	return 0;
}
