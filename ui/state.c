/* SPDX-License-Identifier: MIT */
/* state.c: the per-run state file (see state.h). Format, one record per line, fields
 * separated by tabs (a filter cannot hold a newline; it may hold tabs, so it is last):
 *   tscope-tui state 1
 *   tab<TAB>table|heatmap<TAB>ARG     a tab opened with v, :view or :heatmap
 *   pane<TAB>LABEL
 *   table<TAB>VIEW<TAB>SORT_COLUMN or -<TAB>asc|desc<TAB>FILTER
 * A tab closed with q is not written, so it does not come back. A table line holds the
 * tab's own filter, never a drill-down's shown in its place; a table tab this session
 * did not open keeps the line it had. */
#include "ui/state.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/registry.h"
#include "model/table.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "ui/app.h"
#include "ui/pane_table.h"

static const char magic[] = "tscope-tui state 1";

static bool state_enabled(const struct app *app)
{
	const char *script = getenv("TSCOPE_SCRIPT");
	return !(script && *script) && !app->max_frames && !app->cmp && app->run && app->run->path;
}

/* $XDG_STATE_HOME/tscope-tui (created when mk), else ~/.local/state/tscope-tui. */
static int state_dir(char *buf, size_t n, bool mk)
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	int k;
	if (x && *x == '/')
		k = snprintf(buf, n, "%s/tscope-tui", x);
	else if (home && *home)
		k = snprintf(buf, n, "%s/.local/state/tscope-tui", home);
	else
		return -1;
	if (k < 0 || (size_t)k >= n)
		return -1;
	if (!mk)
		return 0;
	/* mkdir -p, private to the user */
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int rc = mkdir(buf, 0700);
		*p = '/';
		if (rc < 0 && errno != EEXIST)
			return -1;
	}
	return mkdir(buf, 0700) < 0 && errno != EEXIST ? -1 : 0;
}

/* The run's file: FNV-1a 64 of its real path. */
static int state_path(const struct app *app, char *buf, size_t n, bool mk)
{
	char dir[PATH_MAX], real[PATH_MAX];
	if (state_dir(dir, sizeof(dir), mk) < 0 || !realpath(app->run->path, real))
		return -1;
	unsigned long long h = 1469598103934665603ULL;
	for (const char *p = real; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	int k = snprintf(buf, n, "%s/run-%016llx", dir, h);
	return k < 0 || (size_t)k >= n ? -1 : 0;
}

/* Split line at tabs into at most max fields (the last keeps the rest). */
static int fields(char *line, char **f, int max)
{
	int n = 0;
	f[n++] = line;
	for (char *p = line; *p && n < max; p++)
		if (*p == '\t') {
			*p = '\0';
			f[n++] = p + 1;
		}
	return n;
}

/* A tab the user opened last time, when its view or grid still has data. */
static void reopen_tab(struct app *app, const char *kind, const char *arg)
{
	const struct view_def *vd = registry_view(arg);
	if (strcmp(kind, "table") == 0 && vd && registry_view_available(app->run, vd))
		app_pane(app, &pane_table, arg, arg);
	else if (strcmp(kind, "heatmap") == 0 && registry_grid(arg) && registry_grid(arg)->nmetrics(app->run) > 0)
		app_heatmap(app, arg);
}

void state_load(struct app *app)
{
	char path[PATH_MAX];
	if (!state_enabled(app) || state_path(app, path, sizeof(path), false) < 0)
		return;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[4096];
	if (!fgets(line, sizeof(line), f) || strncmp(line, magic, sizeof(magic) - 1) != 0) {
		fclose(f);
		return;
	}
	char pane[sizeof(line)] = "";
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *v[5];
		int n = fields(line, v, 5);
		if (n == 3 && strcmp(v[0], "tab") == 0) {
			reopen_tab(app, v[1], v[2]);
		} else if (n == 2 && strcmp(v[0], "pane") == 0) {
			snprintf(pane, sizeof(pane), "%s", v[1]);   /* after every tab is back */
		} else if (n == 5 && strcmp(v[0], "table") == 0 && app->nstate < APP_MAX_PANES) {
			struct state_table *s = &app->state[app->nstate++];
			s->view = xstrdup(v[1]);
			s->sort = strcmp(v[2], "-") ? xstrdup(v[2]) : NULL;
			s->desc = strcmp(v[3], "desc") == 0;
			s->filter = *v[4] ? xstrdup(v[4]) : NULL;
		}
	}
	fclose(f);
	for (size_t i = 0; *pane && i < app->npane; i++)
		if (strcmp(app->pane[i].label, pane) == 0)
			app->cur = i;
}

/* The saved entry of view, NULL when none. */
static const struct state_table *saved_table(const struct app *app, const char *view)
{
	for (size_t k = 0; k < app->nstate; k++)
		if (strcmp(app->state[k].view, view) == 0)
			return &app->state[k];
	return NULL;
}

/* The saved sort and filter s applied to table pane slot; what no longer applies (the
 * run lost a column) said as "saved sort '-loss' no longer applies: unknown column
 * 'loss'", the saved text sanitized. */
static void apply_table(struct app *app, struct pane_slot *slot, const struct state_table *s)
{
	struct table *t = slot->ops->table(slot->priv, app);
	int c = s->sort ? table_col_index(t, s->sort) : -1;
	char said[APP_LINE] = "", err[200];
	if (c >= 0)
		table_sort(t, c, s->desc);
	else if (s->sort)
		snprintf(said, sizeof(said), "saved sort '%s%s' no longer applies: unknown column '%s'",
			 s->desc ? "-" : "", s->sort, s->sort);
	if (s->filter && slot->ops->filter(slot->priv, app, s->filter, err, sizeof(err)) < 0)
		text_appendf(said, sizeof(said), "%ssaved filter '%s' no longer applies: %s", said[0] ? "; " : "",
			     s->filter, err);
	if (!said[0])
		return;
	char *safe = text_sanitize_dup(said, app->text_flags);
	app_msg(app, true, "%s", safe);
	free(safe);
}

void state_apply(struct app *app, size_t i)
{
	struct pane_slot *slot = &app->pane[i];
	const struct state_table *s = slot->arg ? saved_table(app, slot->arg) : NULL;
	if (s && slot->priv && slot->ops == &pane_table)
		apply_table(app, slot, s);
}

static void put_table(FILE *f, const char *view, const char *sort, bool desc, const char *filter)
{
	fprintf(f, "table\t%s\t%s\t%s\t%s\n", view, sort ? sort : "-", desc ? "desc" : "asc", filter ? filter : "");
}

/* Slot s's table line: an open table's sort and its own filter (not a drill-down's shown
 * in its place: pane_table.h); a table tab not open now (tabs open lazily: one not
 * visited this session) keeps the line it had. */
static void save_table(FILE *f, const struct app *app, const struct pane_slot *s)
{
	if (s->ops != &pane_table || !s->arg)
		return;
	const struct state_table *saved = saved_table(app, s->arg);
	if (s->priv) {
		const struct table *t = s->ops->table(s->priv, (struct app *)app);
		put_table(f, s->arg, t->sort_col >= 0 ? t->col[t->sort_col].name : NULL, t->sort_desc,
			  table_pane_own_filter(s->priv));
	} else if (saved) {
		put_table(f, s->arg, saved->sort, saved->desc, saved->filter);
	}
}

void state_save(const struct app *app)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	if (!state_enabled(app) || state_path(app, path, sizeof(path), true) < 0)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "%s\n", magic);
	for (size_t i = app->nfixed; i < app->npane; i++) {
		const struct pane_slot *s = &app->pane[i];
		if (s->arg && (s->ops == &pane_table || s->ops == &pane_heatmap))
			fprintf(f, "tab\t%s\t%s\n", s->ops == &pane_table ? "table" : "heatmap", s->arg);
	}
	fprintf(f, "pane\t%s\n", app->pane[app->cur].label);
	for (size_t i = 0; i < app->npane; i++)
		save_table(f, app, &app->pane[i]);
	if (fclose(f) != 0 || rename(tmp, path) != 0)
		unlink(tmp);
}

void state_free(struct app *app)
{
	for (size_t k = 0; k < app->nstate; k++) {
		free(app->state[k].view);
		free(app->state[k].sort);
		free(app->state[k].filter);
	}
	app->nstate = 0;
}
