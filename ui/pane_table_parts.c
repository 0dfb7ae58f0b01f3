/* SPDX-License-Identifier: MIT */
/* pane_table_parts.c: what the table pane and its `e` say of a view held in part
 * (t->partial: pane_table.c opens a view built in parts, the steps view, with its first
 * ranks' rows only): which ranks its rows are of, and the command that writes every row
 * with the pane's filter and sort, each argument a shell word (text.h), so a filter that
 * keeps no row of the ranks loaded never reads as keeping none of the run's. Also what a
 * pane with no row shows. */
#include <stdlib.h>
#include <string.h>
#include "model/ranklist.h"
#include "model/steps/steps.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "ui/app.h"
#include "ui/pane_table.h"

enum { PARTS_LIST = 64 };   /* the most bytes of a rank list named ("0-259"), else its ends */

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* The rank ids t's rows are of, ascending, each once (malloc'd, *n of them). */
static long *held_ranks(const struct table *t, size_t *n)
{
	int c = table_col_role(t, COL_ROLE_RANK);
	size_t cap = 64;
	long *ids = xmalloc(cap * sizeof(*ids));
	*n = 0;
	for (size_t r = 0; c >= 0 && r < t->nrow; r++) {
		const struct table_cell *cell = table_cell(t, r, c);
		long id = cell->is_int ? (long)cell->exact : (long)cell->num;
		if (!cell->present || (*n && ids[*n - 1] == id))   /* a rank's rows come together */
			continue;
		if (*n == cap)
			ids = xrealloc(ids, (cap *= 2) * sizeof(*ids));
		ids[(*n)++] = id;
	}
	qsort(ids, *n, sizeof(*ids), cmp_long);
	size_t k = 0;
	for (size_t i = 0; i < *n; i++)
		if (!k || ids[k - 1] != ids[i])
			ids[k++] = ids[i];
	*n = k;
	return ids;
}

/* "ranks 0-259 of 300 only": the ranks t's rows are of (a rank list, or when it is too
 * long "260 ranks from 0 to 299"), of the run's; "no row of its first ranks" for none. */
static char *held_text(const struct table *t, const struct app *app)
{
	size_t n, all = app->run->steps ? steps_nranks(app->run->steps) : 0;
	long *ids = held_ranks(t, &n);
	char list[PARTS_LIST], of[32] = "";
	if (all)
		snprintf(of, sizeof(of), " of %zu", all);
	char *s = !n ? xstrdup("no row of its first ranks")
		  : ranklist_format(ids, n, list, sizeof(list)) ? xasprintf("rank%s %s%s only", n == 1 ? "" : "s", list, of)
		  : xasprintf("%zu ranks from %ld to %ld%s only", n, ids[0], ids[n - 1], of);
	free(ids);
	return s;
}

/* *s with " OPT ARG" (or " ARG" without opt) after it: a path as a shell word (./ before
 * a leading -), an option's value as it is, quoted. */
static void add_word(char **s, const char *opt, const char *arg, bool path)
{
	char *w = path ? text_shell_word_dup(arg) : text_shell_arg_dup(arg);
	char *more = xasprintf("%s%s%s %s", *s, opt ? " " : "", opt ? opt : "", w);
	free(w);
	free(*s);
	*s = more;
}

/* t's sort as --sort takes it: [-]COL, in "..." when COL begins with what --sort would
 * read otherwise (- + or a quote: table_sort_spec drops one pair of quotes). */
static char *sort_spec(const struct table *t)
{
	const char *name = t->col[t->sort_col].name;
	bool quote = name[0] && strchr("-+'\"", name[0]);
	return xasprintf("%s%s%s%s", t->sort_desc ? "-" : "", quote ? "\"" : "", name, quote ? "\"" : "");
}

/* The command that writes every row of t's view with t's filter and sort: the run's
 * options that choose its records, then its PATHs, each argument a shell word. */
static char *parts_command(const struct table *t, const struct app *app)
{
	const struct opts *o = app->opts;
	char *s = xasprintf("tscope-tui --export %s%s%s", t->name, o && o->compat_pytscope ? " --compat pytscope" : "",
			    o && o->csv_raw ? " --csv-raw" : "");
	if (o && o->format)
		add_word(&s, "--format", o->format, false);
	if (o && o->ranks)
		add_word(&s, "--ranks", o->ranks, false);
	for (size_t i = 0; o && i < o->ntrace; i++)
		add_word(&s, "--trace", o->trace_paths[i], true);
	if (t->filter && *t->filter)
		add_word(&s, "--filter", t->filter, false);
	if (t->sort_col >= 0) {
		char *spec = sort_spec(t);
		add_word(&s, "--sort", spec, false);
		free(spec);
	}
	for (size_t i = 0; i < app->run->npaths; i++)
		add_word(&s, NULL, app->run->paths[i], true);
	return s;
}

char *table_parts_note(const struct table *t, const struct app *app)
{
	char *held = held_text(t, app), *cmd = parts_command(t, app);
	char *s = xasprintf("%s; all: %s", held, cmd);
	free(held);
	free(cmd);
	return s;
}

char *table_pane_empty(const struct table *t, const struct app *app)
{
	if (!t->filter)
		return xstrdup(t->empty_note ? t->empty_note : "no rows");
	char hint[512];
	if (!t->partial && table_filter_hint(t, hint, sizeof(hint)))
		return xasprintf("no rows match the filter: %s", hint);
	if (!t->partial)
		return xstrdup("no rows match the filter");
	char *note = table_parts_note(t, app);
	char *s = xasprintf("no row matches the filter in the first ranks' rows loaded, %s", note);
	free(note);
	return s;
}
