/* SPDX-License-Identifier: MIT */
/* copy.c: a table's cell or row as clipboard text (see copy.h). */
#include "ui/copy.h"

#include <stdio.h>
#include <string.h>
#include "model/table.h"

long copy_row_ref(const struct table *t, long ref)
{
	for (size_t r = 0; t && r < t->nrow; r++)
		if (t->ref[r] == ref)
			return (long)r;
	return -1;
}

bool copy_append(char *buf, size_t n, size_t *k, const char *s)
{
	size_t len = strlen(s), room = n - 1 - *k;
	bool cut = len > room;
	if (cut) {
		len = room;
		while (len > 0 && ((unsigned char)s[len] & 0xC0) == 0x80)
			len--;   /* s[len] continues a character: that character is left out */
	}
	memcpy(buf + *k, s, len);
	*k += len;
	buf[*k] = '\0';
	return cut;
}

/* One cell appended: text whole, an integer exact, a number in full precision, missing
 * empty. True when it was cut (copy_append). */
static bool append_cell(const struct table *t, size_t row, size_t col, char *buf, size_t n, size_t *k)
{
	const struct table_cell *c = table_cell(t, row, (int)col);
	char num[64];
	if (!c->present)
		return false;
	if (t->col[col].type == COL_TEXT)
		return copy_append(buf, n, k, c->text ? c->text : "");
	if (c->is_int)
		snprintf(num, sizeof(num), "%lld", c->exact);
	else
		table_format_full(c->num, num, sizeof(num));
	return copy_append(buf, n, k, num);
}

int copy_cells(const struct table *t, long row, bool whole, int col, char *buf, size_t n)
{
	if (!t || row < 0 || (size_t)row >= t->nrow || (!whole && (col < 0 || (size_t)col >= t->ncol)) || !n)
		return -1;
	size_t lo = whole ? 0 : (size_t)col, hi = whole ? t->ncol : (size_t)col + 1, k = 0;
	bool cut = false;
	buf[0] = '\0';
	for (size_t c = lo; c < hi && !cut; c++)
		cut = (c > lo && copy_append(buf, n, &k, "\t")) || append_cell(t, (size_t)row, c, buf, n, &k);
	return cut ? 1 : 0;
}
