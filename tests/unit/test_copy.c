/* SPDX-License-Identifier: MIT */
/* test_copy.c: the text y and Y copy from a table (ui/copy.c): a cell of any length
 * whole (a kernel's name of 1795 bytes came out as its first 1023, maybe half a
 * character), numbers in full precision, a missing cell empty; a row longer than the
 * buffer cut after its last whole UTF-8 character, and said so (1); copy_append, which
 * panes without a table cut their copies with, the same way. */
#include <stdlib.h>
#include <string.h>
#include "model/table.h"
#include "model/text.h"
#include "tests/tap.h"
#include "ui/app.h"
#include "ui/copy.h"

/* n bytes of text: "k" then 3-byte characters (U+8282), ending "~end"; the caller frees */
static char *long_name(size_t chars)
{
	char *s = malloc(chars * 3 + 8);
	size_t k = 0;
	s[k++] = 'k';
	for (size_t i = 0; i < chars; i++) {
		memcpy(s + k, "\xe8\x8a\x82", 3);
		k += 3;
	}
	strcpy(s + k, "~end");
	return s;
}

/* Every byte of s is in a whole UTF-8 character. */
static bool whole_chars(const char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		i += (size_t)text_utf8_decode(s + i, n - i, &cp);
		if (cp == 0xFFFD)
			return false;
	}
	return true;
}

int main(void)
{
	struct table *t = table_new("kernels", "Kernels");
	int name = table_add_col(t, "name", COL_TEXT, 20, 0);
	int calls = table_add_col(t, "calls", COL_INT, 6, 0);
	int ms = table_add_col(t, "ms", COL_NUM, 8, 2);
	table_add_col(t, "note", COL_TEXT, 8, 0);   /* left missing */
	char *n1 = long_name(597), *n2 = long_name(6000);   /* 1796 and 18005 bytes */
	size_t r = table_add_row(t, 0);
	table_set_text(t, r, name, n1);
	table_set_int(t, r, calls, 12);
	table_set_num(t, r, ms, 0.1 + 0.2);
	r = table_add_row(t, 1);
	table_set_text(t, r, name, n2);
	char buf[APP_COPY];

	is_int(copy_cells(t, 0, false, name, buf, sizeof(buf)), 0, "y: a 1796-byte cell fits");
	is_str(buf, n1, "y: the cell whole");
	is_int(copy_cells(t, 0, true, 0, buf, sizeof(buf)), 0, "Y: the row fits");
	char want[2048];
	snprintf(want, sizeof(want), "%s\t12\t0.30000000000000004\t", n1);
	is_str(buf, want, "Y: the row whole, the number in full precision, the missing note empty");

	is_int(copy_cells(t, 1, false, name, buf, sizeof(buf)), 1, "y: an 18005-byte cell is cut (1)");
	is_int(strlen(buf), 16381, "y: cut after the last whole character that fits (1 + 3 x 5460 bytes)");
	ok(!strncmp(buf, n2, strlen(buf)) && whole_chars(buf), "y: the start of the cell, whole characters");
	is_int(copy_cells(t, 1, true, 0, buf, sizeof(buf)), 1, "Y: a row with that cell is cut too");
	ok(whole_chars(buf) && !strchr(buf, '\t'), "Y: the row's first cell alone, whole characters");

	is_int(copy_cells(t, 0, true, 0, buf, 8), 1, "Y into 8 bytes: cut");
	is_str(buf, "k\xe8\x8a\x82\xe8\x8a\x82", "Y into 8 bytes: 'k' and two whole characters (7 bytes)");
	is_int(copy_cells(t, 0, false, calls, buf, 2), 1, "y of 12 into 2 bytes: cut");
	is_str(buf, "1", "y of 12 into 2 bytes: its first digit");
	size_t k = 0;
	buf[0] = '\0';
	ok(!copy_append(buf, 8, &k, "k") && k == 1, "copy_append: a piece that fits, whole");
	ok(copy_append(buf, 8, &k, n1 + 1) && k == 7 && !strcmp(buf, "k\xe8\x8a\x82\xe8\x8a\x82"),
	   "copy_append: one that does not is cut after its last whole character, and says so");
	ok(copy_append(buf, 8, &k, "x") && k == 7, "copy_append: nothing more fits once full");
	is_int(copy_cells(t, 2, false, name, buf, sizeof(buf)), -1, "no row 2: -1");
	is_int(copy_cells(t, 0, false, -1, buf, sizeof(buf)), -1, "no column: -1");
	free(n1);
	free(n2);
	table_free(t);
	return tap_done();
}
