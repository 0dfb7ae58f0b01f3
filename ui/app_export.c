/* SPDX-License-Identifier: MIT */
/* app_export.c: the `e` key (see app_internal.h): the export prompt with a default file
 * name, the write and its message. e writes what --export of the same view writes
 * (DESIGN.md §6): the view's rows as filtered and sorted, node rows expanded to their
 * ranks. Where a pane shows what no --export writes as such (a heatmap's cells on screen,
 * a comparison's heatmap, the Steps pane's one rank, the first parts of the steps view),
 * the prompt and the message say what is written and what --export writes instead (the
 * first parts: which ranks, and the command with the pane's filter and sort). A pair's
 * view without a row is refused with the reason, as --export refuses it. */
#include "ui/app.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/compare/views.h"
#include "model/outfile.h"
#include "model/table.h"
#include "model/text.h"
#include "ui/app_internal.h"
#include "ui/pane_table.h"

/* What e writes from the current pane. */
enum export_kind {
	EXPORT_VIEW,       /* the view's rows as filtered and sorted: --export VIEW */
	EXPORT_NODES,      /* node rows shown: every rank's row written, as --export VIEW */
	EXPORT_PARTIAL,    /* the first parts of a view built in parts */
	EXPORT_CELLS,      /* a heatmap's cells on screen */
	EXPORT_PAIR_CELLS, /* a comparison heatmap's cells on screen: no --export */
	EXPORT_RANK,       /* the Steps pane: its rank's rows of the steps view */
};

static struct table *current_table(struct app *app)
{
	struct pane_slot *s = &app->pane[app->cur];
	void *priv = app_pane_priv(app, app->cur);
	return priv && s->ops->table ? s->ops->table(priv, app) : NULL;
}

static enum export_kind export_kind(const struct app *app, const struct table *t)
{
	const struct pane_ops *ops = app->pane[app->cur].ops;
	if (ops == &pane_heatmap)
		return app->cmp ? EXPORT_PAIR_CELLS : EXPORT_CELLS;
	if (ops == &pane_steps)
		return EXPORT_RANK;
	if (t->partial)
		return EXPORT_PARTIAL;
	return t->grouped ? EXPORT_NODES : EXPORT_VIEW;
}

/* The rows written: node rows expanded (the view as --export writes it); the rows shown
 * are put back. */
static size_t rows_written(struct table *t)
{
	bool tree = t->grouped;
	table_group_by(t, false);
	size_t n = t->nview;
	table_group_by(t, tree);
	return n;
}

/* The metric a comparison heatmap's cells hold ("compute B - A"), from its metric column. */
static const char *cells_metric(const struct table *t)
{
	int c = table_col_index(t, "metric");
	const struct table_cell *m = c >= 0 && t->nrow ? table_cell(t, 0, c) : NULL;
	return m && m->present && m->text ? m->text : "the comparison";
}

static int pane_rank(struct app *app)
{
	const struct pane_slot *s = &app->pane[app->cur];
	return s->priv && s->ops->cur_rank ? s->ops->cur_rank(s->priv, app) : -1;
}

static void default_path(struct app *app, const struct table *t, char *buf, size_t n)
{
	char base[160];
	snprintf(base, sizeof(base), "tscope-%s-%s", app->run->name ? app->run->name : "run", t->name);
	for (char *p = base; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '-' || *p == '_' || *p == '.'))
			*p = '_';
	snprintf(buf, n, "%s.csv", base);
	for (int i = 2; access(buf, F_OK) == 0 && i < 100; i++)
		snprintf(buf, n, "%s-%d.csv", base, i);
}

/* Whether t is a pair's view without a row (diff_env of identical run.json): then it is
 * refused with the reason, as --export refuses it, never written as a header alone (a
 * view with nothing in it). */
static bool refuse_empty_pair_view(struct app *app, const struct table *t)
{
	char why[512];
	if (!app->cmp || !compare_view_no_rows(t, why, sizeof(why)))
		return false;
	app_msg(app, true, "nothing to export: %s", why);
	return true;
}

bool app_export_prompt(struct app *app, char *label, size_t ln, char *path, size_t pn)
{
	struct table *t = current_table(app);
	if (!t) {
		app_msg(app, true, "nothing to export in this pane");
		return false;
	}
	if (refuse_empty_pair_view(app, t))
		return false;
	default_path(app, t, path, pn);
	enum export_kind k = export_kind(app, t);
	size_t n = k == EXPORT_NODES ? rows_written(t) : t->nview;
	const char *s = n == 1 ? "" : "s";
	switch (k) {
	case EXPORT_NODES:
		snprintf(label, ln, "export %zu rank row%s (node rows expanded) to: ", n, s);
		break;
	case EXPORT_PARTIAL:
		snprintf(label, ln, "export the %zu row%s shown, the first ranks' only, to: ", n, s);
		break;
	case EXPORT_CELLS:
		snprintf(label, ln, "export the %zu cell%s on screen to: ", n, s);
		break;
	case EXPORT_PAIR_CELLS:
		snprintf(label, ln, "export the %zu cell%s on screen (%s) to: ", n, s, cells_metric(t));
		break;
	case EXPORT_RANK:
		snprintf(label, ln, "export rank %d's %zu row%s to: ", pane_rank(app), n, s);
		break;
	case EXPORT_VIEW:
		snprintf(label, ln, "export CSV to: ");
		break;
	}
	return true;
}

/* " with this --filter and --sort" (those the table has), for the --export that writes it. */
static const char *options_note(const struct table *t)
{
	bool filter = t->filter && *t->filter, sort = t->sort_col >= 0;
	if (filter && sort)
		return " with this --filter and --sort";
	return filter ? " with this --filter" : sort ? " with this --sort" : "";
}

/* The message after n rows of t were written to path; path as a shell word (quoted when
 * it holds a blank or other special byte: "ranks.csv " shows as 'ranks.csv '). */
static void export_said(struct app *app, const struct table *t, enum export_kind k, const char *file, size_t n)
{
	const char *s = n == 1 ? "" : "s";
	char *path = text_shell_word_dup(file);
	switch (k) {
	case EXPORT_NODES:
		app_msg(app, false, "exported %zu row%s of '%s' to %s: node rows expanded, as --export %s%s", n, s, t->name,
			path, t->name, options_note(t));
		break;
	case EXPORT_PARTIAL: {   /* which ranks, and the command that writes every rank's rows as filtered here */
		char *note = table_parts_note(t, app);
		app_msg(app, false, "exported %zu row%s of '%s' to %s: %s", n, s, t->name, path, note);
		free(note);
		break;
	}
	case EXPORT_CELLS:
		app_msg(app, false, "exported the %zu cell%s on screen to %s; --export heatmap_cells writes every row, "
			"100 cells across", n, s, path);
		break;
	case EXPORT_PAIR_CELLS:
		app_msg(app, false, "exported the %zu cell%s on screen (%s) to %s; no --export writes a comparison's "
			"heatmap", n, s, cells_metric(t), path);
		break;
	case EXPORT_RANK:
		app_msg(app, false, "exported rank %d's %zu row%s of '%s' to %s, as --export %s --filter rank=%d writes "
			"them", pane_rank(app), n, s, t->name, path, t->name, pane_rank(app));
		break;
	case EXPORT_VIEW:
		app_msg(app, false, "exported %zu row%s of '%s' to %s", n, s, t->name, path);
		break;
	}
	free(path);
}

/* Write the current pane's export to path; true when path exists and was left alone
 * (app->pending names it). Node rows are expanded for the write and shown again after. */
static bool export_write(struct app *app, const char *path, bool overwrite)
{
	struct table *t = current_table(app);
	if (!t) {
		app_msg(app, true, "nothing to export in this pane");
		return false;
	}
	enum export_kind k = export_kind(app, t);
	unsigned flags = app->opts && app->opts->csv_raw ? TABLE_CSV_RAW : 0;
	bool tree = t->grouped;
	table_group_by(t, false);
	size_t n = t->nview;
	int r = table_export_file(t, path, overwrite, flags), e = errno;
	table_group_by(t, tree);
	if (r == 0) {
		export_said(app, t, k, path, n);
	} else if (e == EEXIST) {
		snprintf(app->pending, sizeof(app->pending), "%s", path);
		return true;
	} else {
		bool in_place;
		char *msg = outfile_message(path, e, &in_place);
		char *word = in_place ? text_shell_word_dup(path) : NULL;
		app_msg(app, true, "%s%s%s", msg,
			word ? "; export to another directory, or from the shell: -o - > " : "", word ? word : "");
		free(word);
		free(msg);
	}
	return false;
}

/* An export path as a shell reads it: a leading "~/" (or a lone "~") stands for $HOME
 * (as typed without HOME). False when the expanded path does not fit in n bytes. */
static bool expand_home(const char *path, char *out, size_t n)
{
	const char *home = getenv("HOME");
	bool tilde = path[0] == '~' && (path[1] == '/' || !path[1]) && home && *home;
	int k = tilde ? snprintf(out, n, "%s%s", home, path + 1) : snprintf(out, n, "%s", path);
	return k >= 0 && (size_t)k < n;
}

/* Blanks before the name are no part of it (" ~/r.csv" is ~/r.csv); a name of blanks
 * alone is no name: cancelled as an empty one, never a file "   ". */
bool app_export_accept(struct app *app, const char *line)
{
	char path[APP_LINE];
	line += strspn(line, " ");
	if (!*line) {
		app_msg(app, false, "export cancelled: no file name given");
	} else if (strcmp(line, "-") == 0) {
		app_msg(app, true, "cannot write to -: the explorer owns the terminal; give a file name "
			"(--export VIEW - writes stdout)");
	} else if (!expand_home(line, path, sizeof(path))) {
		char *word = text_shell_word_dup(line);
		app_msg(app, true, "cannot write %s: the path is too long with ~ expanded", word);
		free(word);
	} else {
		return export_write(app, path, false);
	}
	return false;
}

void app_export_replace(struct app *app)
{
	char path[APP_LINE];
	snprintf(path, sizeof(path), "%s", app->pending);
	export_write(app, path, true);
}
