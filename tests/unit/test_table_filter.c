/* SPDX-License-Identifier: MIT */
/* test_table_filter.c: model/table.c's filter syntax (--filter, the explorer's `f` and
 * :filter): quoted column names and values with spaces, commas and operators inside; a
 * term that is not COL OP VALUE (no column, an operator first but '<' and a letter, unclosed
 * quote) an error naming it; '~' on a number against its full-precision text; '-' and ''
 * as missing for '=' and '!='. < <= > >= on a severity column in its order (high > med >
 * low; they compared the words A to Z) and an error on any other text column; a '=' value a
 * glob, quoted or not, with a backslash for [ * ? as written and a hint naming a pattern a
 * cell holds as written; --sort's column quoted as --filter takes it (table_sort_spec). */
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

/* severity (the role), straggler (text), name (text): rows high, med, low, not judged,
 * missing severity; names with glob characters. */
static struct table *severity_fixture(void)
{
	struct table *t = table_new("findings", NULL);
	table_set_role(t, table_add_col(t, "severity", COL_TEXT, 8, 0), COL_ROLE_SEVERITY);
	table_add_col(t, "straggler", COL_TEXT, 8, 0);
	table_add_col(t, "name", COL_TEXT, 8, 0);
	static const char *const sev[] = { "high", "med", "low", "not judged", NULL };
	static const char *const names[] = { "a b[1]*", "a b1x", "gpu[1]", "A B[1]*", "x" };
	for (size_t r = 0; r < 5; r++) {
		table_add_row(t, (long)r);
		table_set_text(t, r, 0, sev[r]);
		table_set_text(t, r, 1, r ? "no" : "yes");
		table_set_text(t, r, 2, names[r]);
	}
	return t;
}

static void check_severity(void)
{
	struct table *t = severity_fixture();
	check(t, "severity>=med", "01");
	check(t, "severity<high", "12");
	check(t, "severity>LOW", "01");
	check(t, "severity<=low", "2");
	check(t, "severity>x", "error: is ordered low < med < high");
	check(t, "straggler>1", "error: is text");
	const char *got = rows_of(t, "straggler>1");
	ok(strstr(got, "'straggler' is text: < and > need a number column") != NULL, "the error names it: %s", got);
	struct filter_term gt = { .col = 1, .op = FILTER_GT, .text = "m" };
	ok(table_filter_terms(t, &gt, 1, "straggler>m") < 0, "drill-down terms: > on a text column refused");
	struct filter_term ge = { .col = 0, .op = FILTER_GE, .text = "med" };
	ok(table_filter_terms(t, &ge, 1, "severity>=med") == 0 && t->nview == 2, "drill-down terms: severity>=med");
	table_sort(t, 0, true);
	check(t, "", "01234");   /* -severity: high first, the unranked last */
	table_free(t);
}

/* The hint for a filter that keeps no row, or "" when there is none. */
static const char *hint_of(struct table *t, const char *expr)
{
	static char out[300];
	rows_of(t, expr);
	if (!table_filter_hint(t, out, sizeof(out)))
		out[0] = '\0';
	return out;
}

static void check_glob(void)
{
	struct table *t = severity_fixture();
	check(t, "name='a b[1]*'", "1");   /* [1] matches '1', * the rest */
	check(t, "name='a b\\[1]\\*'", "03");
	check(t, "name=gpu\\[1]", "2");
	check(t, "name=gpu[1]", "");
	const char *h = hint_of(t, "name=gpu[1]");
	ok(strcmp(h, "'gpu[1]' is a pattern: [ ] * ? match; escape them with \\ to match them as written "
		     "('gpu\\[1]')") == 0, "the hint names the pattern and its escaped form: %s", h);
	ok(*hint_of(t, "name='z[1]*'") == '\0', "no cell holds the pattern as written: no hint");
	ok(*hint_of(t, "name=zz") == '\0', "no glob character: no hint");
	ok(*hint_of(t, "!name=gpu[1]") == '\0', "a negated term: no hint");
	table_free(t);
}

/* The refs in order after --sort spec, or "error: ...". */
static const char *sorted_by(struct table *t, const char *spec)
{
	static char out[300];
	char err[256] = "";
	if (table_sort_spec(t, spec, err, sizeof(err)) < 0) {
		snprintf(out, sizeof(out), "error: %s", err);
		return out;
	}
	size_t n = 0;
	for (size_t i = 0; i < t->nview && n + 1 < sizeof(out); i++)
		out[n++] = (char)('0' + t->ref[t->view[i]]);
	out[n] = '\0';
	return out;
}

static void check_sort_spec(void)
{
	struct table *t = fixture();
	static const char *const cases[][2] = {
		{ "'Duration (s)'", "012" }, { "-'Duration (s)'", "102" }, { "\"Duration (s)\"", "012" },
		{ "-\"Duration (s)\"", "102" }, { "Duration (s)", "012" }, { "-name", "210" }, { "+'name'", "012" },
		{ "'Duration (s)", "error: ''Duration (s)': a quote is not closed" },
		{ "'nosuch'", "error: unknown column 'nosuch'" },
	};
	for (size_t k = 0; k < ARRAY_LEN(cases); k++) {
		const char *got = sorted_by(t, cases[k][0]);
		if (!ok(strcmp(got, cases[k][1]) == 0, "--sort %s -> %s", cases[k][0], cases[k][1]))
			printf("#   got %s\n", got);
	}
	table_free(t);
}

int main(void)
{
	check_severity();
	check_glob();
	check_sort_spec();
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
