/* SPDX-License-Identifier: MIT */
/* test_table_filter.c: model/table.c's filter syntax (--filter, the explorer's `f` and
 * :filter): quoted column names and values with spaces, commas and operators inside; a
 * term that is not COL OP VALUE (no column, an operator first but '<' and a letter, unclosed
 * quote) an error naming it; '~' on a number against its full-precision text; '-' and ''
 * as missing for '=' and '!='. */
#include <string.h>
#include "model/table.h"
#include "tests/tap.h"

/* name (text), "Duration (s)" (number, 2 decimals), node (text); row 2 has no duration
 * and no node. */
static struct table *fixture(void)
{
	struct table *t = table_new("t", NULL);
	table_add_col(t, "name", COL_TEXT, 8, 0);
	table_add_col(t, "Duration (s)", COL_NUM, 8, 2);
	table_add_col(t, "node", COL_TEXT, 8, 0);
	static const char *const names[] = { "a", "b,c", "d" };
	static const double dur[] = { 0.5, 108.965797985, 0 };
	static const char *const nodes[] = { "node 1", "node 10", NULL };
	for (size_t r = 0; r < 3; r++) {
		table_add_row(t, (long)r);
		table_set_text(t, r, 0, names[r]);
		table_set_num_opt(t, r, 1, dur[r], r < 2);
		table_set_text(t, r, 2, nodes[r]);
	}
	return t;
}

/* The refs of the visible rows after filter expr ("01"), or "error: ..." */
static const char *rows_of(struct table *t, const char *expr)
{
	static char out[300];
	char err[256] = "";
	if (table_filter(t, expr, err, sizeof(err)) < 0) {
		snprintf(out, sizeof(out), "error: %s", err);
		return out;
	}
	size_t n = 0;
	for (size_t i = 0; i < t->nview && n + 1 < sizeof(out); i++)
		out[n++] = (char)('0' + t->ref[t->view[i]]);
	out[n] = '\0';
	return out;
}

static void check(struct table *t, const char *expr, const char *want)
{
	const char *got = rows_of(t, expr);
	bool same = strncmp(want, "error", 5) == 0 ? strncmp(got, "error", 5) == 0 : strcmp(got, want) == 0;
	if (!ok(same, "filter %s -> %s", expr, want))
		printf("#   got %s\n", got);
}

int main(void)
{
	struct table *t = fixture();
	check(t, "'Duration (s)'>1", "1");
	check(t, "\"Duration (s)\"<1", "0");
	check(t, "node='node 1'", "0");
	check(t, "node=\"node 1*\"", "01");
	check(t, "node='node 1' 'Duration (s)'>=0", "0");
	check(t, "name='b,c'", "1");
	check(t, "'b,c'", "1");
	check(t, "Duration (s)>1", "error: unknown column '(s)'");
	/* an operator first names no column ('rank >1' is 'rank' and '>1'), but for '<' and a
	 * letter: a name in angle brackets to search for ('<float', '<lambda>') */
	check(t, "=3", "error: names no column");
	check(t, ">1", "error: names no column");
	check(t, "<5", "error: names no column");
	check(t, "=x", "error: names no column");
	check(t, "!=3", "error: names no column");
	check(t, "~x", "error: names no column");
	check(t, "'Duration (s)' >1", "error: names no column");
	check(t, "<float", "");
	check(t, "!<float", "012");
	check(t, "'=x'", "");   /* quoted: a text */
	check(t, "''=3", "error: no column");
	check(t, "node='node 1", "error: unclosed quote");
	check(t, "!", "error: empty term");
	check(t, "'Duration (s)'~108.9657", "1");
	check(t, "'Duration (s)'~108.97", "");
	check(t, "'Duration (s)'=-", "2");
	check(t, "'Duration (s)'!=-", "01");
	check(t, "node=''", "2");
	check(t, "node!=-", "01");
	check(t, "'Duration (s)'=x", "error: needs a number");
	const char *got = rows_of(t, "'Duration (s)'>1 nosuch=2");
	ok(strstr(got, "'nosuch=2'") != NULL, "the error names the term: %s", got);
	got = rows_of(t, "'Duration (s)'>=0 ''=3");
	ok(strstr(got, "''=3'") != NULL, "a term with no column is named: %s", got);
	check(t, "", "012");
	table_free(t);
	return tap_done();
}
