/* SPDX-License-Identifier: MIT */
/* cmd.c: the ':' command table and the screen dump used by scripted tests (cmd.h). */
#include "ui/cmd.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include "model/compare/compare.h"
#include "model/compare/views.h"
#include "model/grid.h"
#include "model/ranklist.h"
#include "model/registry.h"
#include "model/table.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "ui/app.h"
#include "ui/term.h"

int cmd_dump(const char *path, bool attrs)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	for (int y = 0; y < LINES; y++) {
		char line[4096];
		size_t o = 0;
		size_t keep = 0;   /* length up to the last non-blank */
		for (int x = 0; x < COLS && o + 8 < sizeof(line); x++) {
			cchar_t cc;
			if (mvin_wch(y, x, &cc) == ERR)
				break;
			wchar_t wc[CCHARW_MAX + 1];
			attr_t at;
			short pair;
			getcchar(&cc, wc, &at, &pair, NULL);
			if (attrs) {
				static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
				char c = pair > 0 && pair < 36 ? digits[pair] : '.';
				char fl = (at & A_REVERSE) ? ((at & A_BOLD) ? 'R' : (at & A_UNDERLINE) ? 'U' : 'r') :
					  (at & A_BOLD) ? 'b' : (at & A_UNDERLINE) ? 'u' : (at & A_DIM) ? 'd' : ' ';
				line[o++] = c;
				line[o++] = fl;
				keep = o;
				continue;
			}
			/* skip the continuation cells of wide characters */
			if (wc[0] == L'\0')
				continue;
			char mb[MB_LEN_MAX * 2];
			mbstate_t st;
			memset(&st, 0, sizeof(st));
			size_t k = wcrtomb(mb, wc[0], &st);
			if (k == (size_t)-1) {
				mb[0] = '?';
				k = 1;
			}
			memcpy(line + o, mb, k);
			o += k;
			if (wc[0] != L' ')
				keep = o;
		}
		line[keep] = '\0';
		fprintf(f, "%s\n", line);
	}
	return fclose(f) == 0 ? 0 : -1;
}

/* :dump FILE and :dumpattr FILE: the screen as drawn now (attrs: its attributes). */
static unsigned dump(struct app *app, const char *args, bool attrs)
{
	if (!*args) {
		app_msg(app, true, "usage: :%s FILE", attrs ? "dumpattr" : "dump");
		return PR_REDRAW;
	}
	app_draw(app);
	if (cmd_dump(args, attrs) < 0)
		app_msg(app, true, "cannot write %s: %s", args, strerror(errno));
	return PR_NONE;
}

static unsigned c_dump(struct app *app, const char *args)
{
	return dump(app, args, false);
}

static unsigned c_dumpattr(struct app *app, const char *args)
{
	return dump(app, args, true);
}

/* Bounds of the virtual screen: far beyond any terminal, small enough that ncurses'
 * rows x cols cell arrays stay a few tens of MB. */
enum { RESIZE_MAX_ROWS = 1000, RESIZE_MAX_COLS = 2000 };

/* :resize ROWS COLS: headless only (on a terminal the window's size would be lost until
 * the next resize: Ctrl-L draws at the size curses holds). */
static unsigned c_resize(struct app *app, const char *args)
{
	int rows, cols;
	if (!term_headless()) {
		app_msg(app, true, ":resize works only in headless tests (TSCOPE_SCRIPT); resize the window instead");
		return PR_REDRAW;
	}
	if (sscanf(args, "%d %d", &rows, &cols) != 2 || rows < 2 || cols < 2 || rows > RESIZE_MAX_ROWS ||
	    cols > RESIZE_MAX_COLS) {
		app_msg(app, true, "usage: :resize ROWS COLS (2..%d rows, 2..%d columns)", RESIZE_MAX_ROWS,
			RESIZE_MAX_COLS);
		return PR_REDRAW;
	}
	if (resizeterm(rows, cols) != OK) {
		app_msg(app, true, "cannot resize to %d x %d", rows, cols);
		return PR_REDRAW;
	}
	return app_key(app, KEY_RESIZE);
}

/* :pane NAME: a tab by its label, as its digit key (nothing pushed on the back stack). */
static unsigned c_pane(struct app *app, const char *args)
{
	for (size_t i = 0; i < app->npane; i++)
		if (strcasecmp(app->pane[i].label, args) == 0) {
			app_goto(app, i, false);
			return PR_REDRAW;
		}
	if (*args)
		app_msg(app, true, "no pane '%s' (NAME is a tab's label, as the title row shows it)", args);
	else
		app_msg(app, true, "usage: :pane NAME (a tab's label, as the title row shows it)");
	return PR_REDRAW;
}

/* :view NAME: a view of the run, in compare mode one of the pair (a view of one run
 * is refused there with the reason --export gives). */
static unsigned c_view(struct app *app, const char *args)
{
	if (!*args) {
		app_msg(app, true, "usage: :view NAME (v lists the views with data)");
		return PR_REDRAW;
	}
	const struct cmp_view *cv = app->cmp ? compare_view(args) : NULL;
	const struct view_def *vd = app->cmp ? NULL : registry_view(args);
	const char *name = cv ? cv->name : vd ? vd->name : NULL;
	long p = name ? app_pane(app, &pane_table, name, name) : -1;
	if (!name && app->cmp && registry_view(args)) {
		app_msg(app, true, "'%s' is a view of one run; two runs give the diff_* views (v lists them)", args);
		return PR_REDRAW;
	}
	if (!name) {
		app_msg(app, true, "no view '%s'; %s lists them", args, app->cmp ? "v" : "--list-views");
		return PR_REDRAW;
	}
	if (p < 0) {
		app_msg(app, true, "too many open views; q closes a view's tab");
		return PR_REDRAW;
	}
	app_goto(app, (size_t)p, true);
	return PR_REDRAW;
}

static unsigned c_heatmap(struct app *app, const char *args)
{
	if (app->cmp) {   /* the grids of one run: B's would read as the pair's */
		app_msg(app, true, "a comparison has one heatmap: 2 Heatmap (B - A; m shows A and B); :heatmap opens "
			"one run's grids");
		return PR_REDRAW;
	}
	const struct grid_provider *gp = *args ? registry_grid(args) : NULL;
	char names[256] = "";   /* the grids this run has data for: an empty tab would tell nothing */
	for (size_t i = 0; i < registry_ngrids(); i++)
		if (registry_grid_at(i)->nmetrics(app->run) > 0)
			text_appendf(names, sizeof(names), " %s", registry_grid_at(i)->name);
	if (gp && gp->nmetrics(app->run) == 0) {   /* what the tab would say (pane_heatmap.c hp_open) */
		bool steps = strcmp(gp->name, "steps") == 0;
		app_msg(app, true, "no %s%sheatmap: this run has no %s (%s%s)", steps ? "" : gp->label,
			steps ? "" : " ", steps ? "per-rank steps aligned across ranks" : "data for it",
			*names ? "grids with data:" : "no grid has data", names);
		return PR_REDRAW;
	}
	if (!gp) {
		app_msg(app, true, "usage: :heatmap NAME (%s%s)", *names ? "grids:" : "this run has no grid with data",
			names);
		return PR_REDRAW;
	}
	long p = app_heatmap(app, gp->name);
	if (p >= 0)
		app_goto(app, (size_t)p, true);
	return PR_REDRAW;
}

static unsigned c_filter(struct app *app, const char *args)
{
	struct pane_slot *s = &app->pane[app->cur];
	void *priv = app_pane_priv(app, app->cur);
	char err[256];
	if (!priv || !s->ops->filter)
		app_msg(app, true, "this pane has no rows to filter");
	else if (s->ops->filter(priv, app, args, err, sizeof(err)) < 0)
		app_msg(app, true, "filter: %s", err);
	return PR_REDRAW;
}

static int long_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* The rank ids of run's sources (not one refused or one --ranks left out) at ids[*n]. */
static void source_ranks(const struct run *run, long *ids, size_t *n)
{
	for (size_t i = 0; i < run->nsrc; i++)
		if (run->src[i].rank >= 0 && !run->src[i].left_out && !run->src[i].refused)
			ids[(*n)++] = run->src[i].rank;
}

/* k sorted distinct rank ids as "ranks 0-15" ("rank 3" alone), else "16 ranks, 0 to 4095"
 * when the list is too long. */
static void ranks_said(const long *ids, size_t k, char *buf, size_t n)
{
	char list[64];
	if (ranklist_format(ids, k, list, sizeof(list)))
		snprintf(buf, n, "rank%s %s", k == 1 ? "" : "s", list);
	else
		snprintf(buf, n, "%zu ranks, %ld to %ld", k, ids[0], ids[k - 1]);
}

/* Says "no rank N in this run (ranks 0-15)" (or that --ranks left it out) and returns
 * true when no source of the run (of either run of a pair) is rank N's. */
static bool no_such_rank(struct app *app, long rank)
{
	const struct run *side[2] = { app->cmp ? compare_side(app->cmp, 0) : app->run,
				      app->cmp ? compare_side(app->cmp, 1) : NULL };
	size_t n = 0, k = 0;
	long *ids = xmalloc((side[0]->nsrc + (side[1] ? side[1]->nsrc : 0) + 1) * sizeof(*ids));
	for (int i = 0; i < 2 && side[i]; i++)
		source_ranks(side[i], ids, &n);
	qsort(ids, n, sizeof(*ids), long_cmp);
	for (size_t i = 0; i < n; i++)   /* distinct */
		if (!k || ids[i] != ids[k - 1])
			ids[k++] = ids[i];
	bool none = !bsearch(&rank, ids, k, sizeof(*ids), long_cmp);
	char said[96];
	if (none && k)
		ranks_said(ids, k, said, sizeof(said));
	if (none && !k)
		app_msg(app, true, "no rank %ld: %s per-rank data", rank, app->cmp ? "neither run has" : "this run has no");
	else if (none && app->opts->ranks && !ranklist_has(app->opts->ranks, rank))
		app_msg(app, true, "rank %ld is not loaded: --ranks %s leaves it out (%s loaded)", rank, app->opts->ranks,
			said);
	else if (none)
		app_msg(app, true, "no rank %ld %s (%s)", rank, app->cmp ? "in either run" : "in this run", said);
	free(ids);
	return none;
}

static unsigned c_rank(struct app *app, const char *args)
{
	struct pane_slot *s = &app->pane[app->cur];
	void *priv = app_pane_priv(app, app->cur);
	char *end;
	errno = 0;
	long rank = strtol(args, &end, 10);
	if (!isdigit((unsigned char)*args) || *end || errno || rank > INT_MAX) {
		app_msg(app, true, *args ? "not a rank number: '%s' (:rank N)" : "usage: :rank N", args);
		return PR_REDRAW;
	}
	if (no_such_rank(app, rank))
		return PR_REDRAW;
	struct ui_target t = { .rank = (int)rank, .step_lo = -1, .step_hi = -1, .item = -1 };
	if (!priv || !s->ops->select || !(s->ops->select(priv, app, &t) & PR_HANDLED))
		app_msg(app, true, "rank %d is not shown in this pane", t.rank);
	return PR_REDRAW;
}

static unsigned c_quit(struct app *app, const char *args)
{
	app->quit = true;
	return PR_QUIT;
}

static unsigned c_mouse(struct app *app, const char *args)
{
	if (strcmp(args, "on") != 0 && strcmp(args, "off") != 0) {
		app_msg(app, true, "usage: :mouse on|off");
		return PR_REDRAW;
	}
	app_set_mouse(app, strcmp(args, "on") == 0);
	app_msg(app, false, "mouse %s", app->mouse ? "on" : "off");
	return PR_REDRAW;
}

static unsigned c_help(struct app *app, const char *args)
{
	app->overlay = OV_HELP;
	app->ov = (struct list_cursor){ 0 };
	app->help_cmds = true;
	return PR_REDRAW;
}

const struct ui_cmd ui_cmds[] = {
	{ .name = "help", .args = "", .help = "list keys and commands", .run = c_help },
	{ .name = "pane", .args = "NAME", .help = "switch to a pane by its tab label", .run = c_pane },
	{ .name = "view", .args = "NAME", .help = "open any view (--list-views) as a table", .run = c_view },
	{ .name = "heatmap", .args = "GRID", .help = "open a grid as a heatmap (steps, tasks, ...)", .run = c_heatmap },
	{ .name = "filter", .args = "EXPR", .help = "filter the current table (empty clears)", .run = c_filter },
	{ .name = "rank", .args = "N", .help = "show rank N in the current pane", .run = c_rank },
	{ .name = "dump", .args = "FILE", .help = "write the screen text to FILE (tests)", .run = c_dump },
	{ .name = "dumpattr", .args = "FILE", .help = "write the screen colour pairs and attributes (tests)", .run = c_dumpattr },
	{ .name = "resize", .args = "ROWS COLS", .help = "resize the virtual screen (headless tests only)",
	  .run = c_resize },
	{ .name = "quit", .args = "", .help = "quit", .run = c_quit },
	{ .name = "q", .args = "", .help = "quit (as in vi)", .run = c_quit },
	{ .name = "mouse", .args = "on|off", .help = "mouse reporting on or off (off: the terminal selects text)", .run = c_mouse },
};
const size_t ui_ncmds = sizeof(ui_cmds) / sizeof(ui_cmds[0]);

/* line: the command, its argument after blanks; no blank at either end. */
static unsigned run_line(struct app *app, const char *line)
{
	size_t n = strcspn(line, " \t");
	const char *args = line + n;
	while (isspace((unsigned char)*args))
		args++;
	for (size_t i = 0; i < ui_ncmds; i++) {
		const struct ui_cmd *c = &ui_cmds[i];
		if (strlen(c->name) == n && strncmp(c->name, line, n) == 0)
			return c->run(app, args) | PR_REDRAW;
	}
	const struct model_cmd *mc = registry_cmd(line, n);
	if (mc) {
		char msg[256] = "";
		int rc = mc->run(app->run, args, msg, sizeof(msg));
		if (rc == 0)
			app_reload(app);
		app_msg(app, rc != 0, "%s", msg[0] ? msg : rc ? "failed" : "done");
		return PR_REDRAW;
	}
	if (n)
		app_msg(app, true, "unknown command ':%.*s' (:help lists commands)", (int)n, line);
	return PR_REDRAW;
}

/* Blanks at either end are no part of the command or its argument (":view nodes "). */
unsigned cmd_run(struct app *app, const char *text)
{
	while (isspace((unsigned char)*text))
		text++;
	char *line = xstrdup(text);
	for (size_t k = strlen(line); k && isspace((unsigned char)line[k - 1]); k--)
		line[k - 1] = '\0';
	unsigned r = run_line(app, line);
	free(line);
	return r;
}
