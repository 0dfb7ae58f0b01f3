/* SPDX-License-Identifier: MIT */
/* frame.c: drawing one frame around the current pane (see app.h app_draw): the title
 * row with the tabs (scrolled so the current one shows), the hint or prompt row (a
 * message wider than it wrapped onto the rows above, over the body's last rows, the
 * status row above them), the status row, the help and views overlays and the
 * terminal-too-small screen; one doupdate() per frame. */
#include "ui/app.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "model/outfile.h"
#include "model/compare/compare.h"
#include "model/ranklist.h"
#include "model/registry.h"
#include "model/steps/analysis.h"
#include "model/steps/follow.h"
#include "model/steps/analysis.h"
#include "model/steps/steps.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "ui/cmd.h"
#include "ui/draw.h"
#include "ui/keymap.h"
#include "ui/legend.h"
#include "ui/list.h"
#include "ui/search.h"
#include "ui/term.h"
#include "ui/theme.h"

/* A marker of the tab strip: how many tabs it hides on its side ("<+2" left, "+3>"
 * right), written to buf; returns its width. */
static int tab_marker(char *buf, size_t n, bool left, size_t hidden)
{
	snprintf(buf, n, " %s%zu%s ", left ? "<+" : "+", hidden, left ? "" : ">");
	return text_width(buf);
}

/* The end (exclusive) of the tabs from first (widths w) that fit in avail columns with
 * the markers of the tabs hidden on either side. */
static size_t tabs_end(const int *w, size_t n, size_t first, int avail)
{
	char m[32];
	int used = first ? tab_marker(m, sizeof(m), true, first) : 0;
	size_t end = first;
	while (end < n && used + w[end] <= avail)
		used += w[end++];
	while (end > first && end < n && used + tab_marker(m, sizeof(m), false, n - end) > avail)
		used -= w[--end];
	return end;
}

/* The title row: the run's name, then the tabs. Tabs wider than the row scroll so the
 * current one shows (from the first tab when it fits there, else as few tabs in as it
 * takes), a marker on either side saying how many are hidden there. tab_x spans for
 * the mouse: a hidden tab has none, but the tab next to a marker takes its columns. */
static void draw_title(struct app *app)
{
	const struct rect *r = &app->lay.title;
	char lab[APP_MAX_PANES][40], m[32];
	int w[APP_MAX_PANES], tabs_w = 0;
	size_t n = app->npane, first = 0, end = n;
	for (size_t i = 0; i < n; i++) {
		if (app->pane[i].key)
			snprintf(lab[i], sizeof(lab[i]), " %d %s ", app->pane[i].key, app->pane[i].label);
		else
			snprintf(lab[i], sizeof(lab[i]), " %s ", app->pane[i].label);
		w[i] = text_width(lab[i]);
		tabs_w += w[i];
	}
	draw_clear_rect(r, ROLE_TITLE);
	int name_w = r->w - tabs_w - 2;
	if (name_w < 12)
		name_w = 12;
	const char *name = app->title[0] ? app->title : app->run->name ? app->run->name : "tscope-tui";
	int x = 1 + draw_text(r->y, r->x + 1, name_w, name, ROLE_TITLE);
	x++;
	if (tabs_w > r->w - x) {
		while (first < app->cur && tabs_end(w, n, first, r->w - x) <= app->cur)
			first++;
		end = tabs_end(w, n, first, r->w - x);
		if (end <= app->cur)   /* not even the current tab fits whole: it is clipped */
			end = app->cur + 1;
	}
	for (size_t i = 0; i < first; i++)
		app->tab_x[i] = x;
	if (first) {
		tab_marker(m, sizeof(m), true, first);
		x += draw_text(r->y, x, r->w - x, m, ROLE_TAB);
	}
	for (size_t i = first; i < end; i++) {
		app->tab_x[i] = x;
		x += draw_text(r->y, x, r->w - x, lab[i], i == app->cur ? ROLE_TAB_ACTIVE : ROLE_TAB);
	}
	app->tab_x[end] = x;
	if (end < n) {
		tab_marker(m, sizeof(m), false, n - end);
		x += draw_text(r->y, x, r->w - x, m, ROLE_TAB);
	}
	for (size_t i = end + 1; i <= n; i++)
		app->tab_x[i] = x;
}

/* The rows the message takes at the bottom: one, or when it is wider than the row (no
 * prompt and no search progress in its place) the rows it wraps to, at most half the
 * body's, the status row going up above them (app_draw): a message is read whole (a
 * refusal's why, the command it names), never cut at the row's end. */
static int msg_rows(const struct app *app)
{
	char busy[64];
	const struct rect *r = &app->lay.hint;
	if (app->prompt != PROMPT_NONE || !app->msg[0] || search_progress(app, busy, sizeof(busy)) ||
	    text_width(app->msg) <= r->w)
		return 1;
	int n = draw_wrap_count(r->w, app->msg), most = app->lay.body.h / 2;
	return n < most ? n : most > 1 ? most : 1;
}

/* The prompt being typed or the last message on row r, with how far a running `/` search
 * got (after the prompt, else instead of the message); false when there is none. A
 * message is wrapped onto r's rows when it has more than one (msg_rows). */
static bool draw_prompt_or_msg(struct app *app, const struct rect *r)
{
	char busy[64];
	bool searching = search_progress(app, busy, sizeof(busy));
	if (app->prompt != PROMPT_NONE) {
		int x = draw_text(r->y, r->x, r->w, app->prompt_label, ROLE_ACCENT);
		/* keep the end of a long line visible: whole characters scroll out */
		const char *p = app->line;
		uint32_t cp;
		while (text_width(p) > r->w - x - 2 && *p)
			p += text_utf8_decode(p, strlen(p), &cp);
		x += draw_text(r->y, r->x + x, r->w - x, p, ROLE_NORMAL);
		x += draw_text(r->y, r->x + x, 1, "_", ROLE_ACCENT);
		if (searching && r->w - x > 2)
			draw_text(r->y, r->x + x + 2, r->w - x - 2, busy, ROLE_DIM);
		return true;
	}
	enum role role = searching ? ROLE_ACCENT : app->msg_err ? ROLE_ERROR : ROLE_ACCENT;
	if (!searching && app->msg[0] && r->h > 1) {
		draw_clear_rect(r, ROLE_NORMAL);
		draw_wrap(r, 0, app->msg, role);
		return true;
	}
	if (searching || app->msg[0]) {
		draw_text(r->y, r->x, r->w, searching ? busy : app->msg, role);
		return true;
	}
	return false;
}

/* The current pane's own keys for the hint row (pane.h hint), "" when it has none. */
static void hint_keys(struct app *app, char *buf, size_t n)
{
	const struct pane_slot *s = &app->pane[app->cur];
	buf[0] = '\0';
	if (s->priv && s->ops->hint)
		s->ops->hint(s->priv, app, buf, n);
}

/* A word of the hint row and how long it stays when the row is too narrow for all:
 * the words of the lowest keep are dropped first. */
struct hint_word {
	const char *text;   /* "" when the pane has no such key */
	int keep;
};
enum { HINT_KEEP_ALWAYS = 10 };

/* The non-empty words joined into buf, two blanks apart, after one. */
static void hint_join(const struct hint_word *words, size_t n, char *buf, size_t bn)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && k < bn; i++)
		if (words[i].text[0])
			k += (size_t)snprintf(buf + k, bn - k, " %s%s", k ? " " : "", words[i].text);
}

/* The keys the current pane has, from the actions every pane shares (search, filter,
 * legend and copy only where its ops have them) and its own (hint_keys); on a narrow
 * row the least needed are left out whole (hint_word), never a word cut. A prompt or a
 * message takes their place, a message wrapped onto the up rows above too (msg_rows). */
static void draw_hint(struct app *app, int up)
{
	const struct rect rows = { app->lay.hint.y - up, app->lay.hint.x, app->lay.hint.h + up, app->lay.hint.w };
	const struct rect *r = &rows;
	if (draw_prompt_or_msg(app, r))
		return;
	if (app->search_on) {
		draw_fmt(r->y, r->x, r->w, ROLE_ACCENT, " search '%s': n/N next/previous match, Esc ends the search",
			 app->search);
		return;
	}
	long keys[10]; /* the number keys the tabs have, as ranges: "1-7,9" */
	size_t nkeys = 0;
	for (long k = 1; k <= 9; k++)
		for (size_t i = 0; i < app->npane; i++)
			if (app->pane[i].key == k) {
				keys[nkeys++] = k;
				break;
			}
	char keytext[32];
	if (!ranklist_format(keys, nkeys, keytext, sizeof(keytext)) || !nkeys)
		snprintf(keytext, sizeof(keytext), "1");
	char hint[320], own[96] = "", panes[48];
	snprintf(panes, sizeof(panes), "%s:panes", keytext);
	hint_keys(app, own, sizeof(own));
	const struct pane_ops *o = app->pane[app->cur].ops;
	bool open = app->pane[app->cur].priv != NULL;
	/* n/N: stragglers where there are ranks with steps (a sweep gets no training words),
	 * regressions where a pair has ranks (not computed for the hint: seconds on a big pair) */
	bool ranks = !app->cmp && app->run->steps && steps_nranks(app->run->steps) > 0;
	bool cmp_ranks = app->cmp && compare_has_ranks(app->cmp);
	/* keep: the words least needed go first, whole, until the rest fits (? lists every key) */
	struct hint_word words[] = {
		{ "?:help", HINT_KEEP_ALWAYS }, { "q:close/quit", 8 }, { search_supported(app) ? "/:search" : "", 3 },
		{ open && o->filter ? "f:filter" : "", 2 },
		{ cmp_ranks ? "n/N:regression" : ranks ? "n/N:straggler" : "", 5 }, { own, 6 }, { "Esc:back", 4 },
		{ panes, 9 }, { open && o->legend ? "i:legend" : "", 1 }, { "v:views", 7 },
		{ open && o->copy ? "y:copy" : "", 0 },
	};
	hint_join(words, ARRAY_LEN(words), hint, sizeof(hint));
	for (int keep = 0; keep < HINT_KEEP_ALWAYS && text_width(hint) > r->w; keep++) {
		for (size_t i = 0; i < ARRAY_LEN(words); i++)
			if (words[i].keep == keep)
				words[i].text = "";
		hint_join(words, ARRAY_LEN(words), hint, sizeof(hint));
	}
	draw_text(r->y, r->x, r->w, hint, ROLE_HINT);
}

/* The held analyses' age is shown from this many seconds on (see status_live). */
#define LAG_SHOWN 1.0

/* How much of the live state the status row shows (status_live): each level adds a part
 * to the one before; a narrow row leaves out the last ones so the pane's fields show. */
enum live_detail {
	LIVE_LEAST,    /* LIVE or PAUSED and the job's state (running: its stalled ranks' count) */
	LIVE_STATE,    /* the job's state with the stalled ranks' count */
	LIVE_BEHIND,   /* "catching up, 120 MiB to read" */
	LIVE_AGE,      /* the newest record's age (a sweep: its last change's) */
	LIVE_ALL,      /* the held analyses' age */
};

/* The job's state and its stalled ranks as status_live shows them at detail d: at
 * LIVE_LEAST the count of stalled ranks stands for "running" ("1 stalled"). */
static void live_state(const struct follow *f, enum live_detail d, char *buf, size_t n)
{
	size_t nst = follow_nstalled(f);
	enum follow_state st = follow_state(f);
	const char *name = follow_state_name(st);
	if (!nst)
		snprintf(buf, n, "%s", name);
	else if (d == LIVE_LEAST && st == FOLLOW_RUNNING)
		snprintf(buf, n, "%zu stalled", nst);
	else
		snprintf(buf, n, "%s, %zu stalled", name, nst);
}

/* Following a job: the live state shown at the status row's right (LIVE or PAUSED, the
 * job's state, the newest record's age, how old the held analyses are) with the parts
 * detail d keeps, in live, with the role it is drawn in; "" when not following. */
static enum role status_live(struct app *app, enum live_detail d, char *live, size_t n)
{
	live[0] = '\0';
	if (!app->follow)
		return ROLE_ACCENT;
	double age = follow_newest_age(app->follow, follow_clock());
	enum follow_state st = follow_state(app->follow);
	char agebuf[40] = ", no record yet", state[64], lag[48] = "", behind[48] = "", bytes[24];
	const char *mode = app->following ? "LIVE" : "PAUSED";
	long long left;
	if (age >= 0)
		snprintf(agebuf, sizeof(agebuf), ", newest record %.0f s ago", age);
	if (d < LIVE_AGE)
		agebuf[0] = '\0';
	/* a big append read in slices (app_poll) */
	if (d >= LIVE_BEHIND && follow_behind(app->follow, &left))
		snprintf(behind, sizeof(behind), " catching up, %s to read,",
			 units_bytes((double)left, bytes, sizeof(bytes)));
	live_state(app->follow, d, state, sizeof(state));
	double lag_age = follow_clock() - app->caught_up_t;
	bool updating = analysis_recompute_running(app->run);
	/* the held analyses (app.h app_poll), once a second behind the records or while
	 * the worker updates them: younger, they are as current as the polls */
	if (d >= LIVE_ALL && analysis_lagging(app->run) && (updating || lag_age >= LAG_SHOWN))
		snprintf(lag, sizeof(lag), ", analyses %.0f s old%s", lag_age, updating ? ", updating" : "");
	snprintf(live, n, " %s%s %s%s%s ", mode, behind, state, agebuf, lag);
	char sweep[96];   /* a sweep has no step records: its files and their last change */
	if (follow_sweep_status(app->follow, follow_clock(), sweep, sizeof(sweep))) {
		char *change = strstr(sweep, ", last change");
		if (change && d < LIVE_AGE)
			*change = '\0';
		snprintf(live, n, " %s %s ", mode, sweep);
	}
	return st == FOLLOW_STALLED || follow_nstalled(app->follow) ? ROLE_ERROR : ROLE_ACCENT;
}

/* The live state with the most parts that leave room columns for a pane's status text
 * of width bw beside it (LIVE_LEAST when none does), in live; returns its role. */
static enum role status_live_fit(struct app *app, int room, int bw, char *live, size_t n)
{
	enum live_detail d = LIVE_ALL;
	enum role role = status_live(app, d, live, n);
	while (d > LIVE_LEAST && bw + text_width(live) > room)
		role = status_live(app, --d, live, n);
	return role;
}

int app_status_width(struct app *app)
{
	char live[192];
	status_live(app, LIVE_LEAST, live, sizeof(live));
	return app->lay.status.w - 2 - text_width(live);
}

/* The status row, up rows above its place: the pane's status text at the left, the live
 * state at the right giving up its least needed parts first; then the pane's last fields
 * go (draw_fit_fields). */
static void draw_status(struct app *app, int up)
{
	const struct rect row = { app->lay.status.y - up, app->lay.status.x, app->lay.status.h, app->lay.status.w };
	const struct rect *r = &row;
	draw_clear_rect(r, ROLE_STATUS);
	char buf[APP_LINE] = "", live[192];
	void *priv = app->pane[app->cur].priv;
	if (priv && app->pane[app->cur].ops->status)
		app->pane[app->cur].ops->status(priv, app, buf, sizeof(buf));
	enum role live_role = status_live_fit(app, r->w - 2, text_width(buf), live, sizeof(live));
	int lw = text_width(live);
	if (lw)
		draw_text(r->y, r->x + r->w - lw, lw, live, live_role);
	draw_fit_fields(buf, sizeof(buf), r->w - 2 - lw, app->g->ellipsis);
	draw_text(r->y, r->x + 1, r->w - 2 - lw, buf, ROLE_STATUS);
}

/* One help entry at layout row `row` (rows above top are counted, not drawn): keys,
 * the action's name when there is room (name not NULL), the text wrapped beside them
 * onto as many rows as it needs. Without a name the keys (a command's usage) have its
 * column too; keys wider still take a row of their own, the text below. Returns the next
 * row. */
static int help_entry(const struct rect *box, int row, int top, int hx, const char *keys, const char *name,
		      const char *text)
{
	struct rect in = { box->y, box->x + hx, box->h, box->w - hx - 1 };
	int kw = name ? 22 : hx - 2;
	bool alone = text_width(keys) > kw;
	int sy = box->y + row - top;
	if (sy >= box->y && sy < box->y + box->h) {
		draw_text(sy, box->x + 1, alone ? box->w - 2 : kw, keys, ROLE_ACCENT);
		if (name)
			draw_text(sy, box->x + 24, 16, name, ROLE_DIM);
	}
	row += alone;
	if (row - top < box->h)
		draw_wrap(&in, row - top, text, ROLE_NORMAL);
	int n = draw_wrap_count(in.w, text);
	return row + (n > 0 ? n : 1);
}

/* The number keys of this run's tabs as the title row shows them (the run's tabs, or
 * compare mode's: ui.c), in key order: a tab the action table names by its label gets
 * that row, another "<label> pane". Returns the next row. */
static int help_tab_rows(const struct app *app, const struct rect *box, int row, int top, int hx)
{
	char keys[4], text[64];
	for (int k = 1; k <= 9; k++) {
		for (size_t i = 0; i < app->npane; i++) {
			if (app->pane[i].key != k)
				continue;
			const char *label = app->pane[i].label;
			const struct action_info *ai = action_info((enum action)(ACT_PANE_1 + k - 1));
			size_t n = strlen(label);
			bool named = strncmp(ai->help, label, n) == 0 && strncmp(ai->help + n, " pane", 5) == 0;
			snprintf(keys, sizeof(keys), "%d", k);
			snprintf(text, sizeof(text), "%s pane", label);
			row = help_entry(box, row, top, hx, keys, named && hx == 41 ? ai->name : NULL,
					 named ? ai->help : text);
			break;
		}
	}
	return row;
}

/* The command entries (ui's, then the model's) from layout row `row`; returns the next. */
static int help_cmd_rows(const struct rect *box, int row, int top, int hx)
{
	char keys[64];
	for (size_t i = 0; i < ui_ncmds + registry_ncmds(); i++) {
		const struct model_cmd *m = i < ui_ncmds ? NULL : registry_cmd_at(i - ui_ncmds);
		const char *name = m ? m->name : ui_cmds[i].name, *args = m ? m->args : ui_cmds[i].args;
		snprintf(keys, sizeof(keys), ":%s %s", name, args);
		row = help_entry(box, row, top, hx, keys, NULL, m ? m->help : ui_cmds[i].help);
	}
	return row;
}

/* The help's rows from `top` in box: the action table (its number keys: this run's tabs,
 * help_tab_rows), a blank row, "Commands (:)", the commands. Returns the row count;
 * *cmds is the blank row's. */
static int help_rows(const struct app *app, const struct rect *box, int top, int *cmds)
{
	int hx = box->w >= 100 ? 41 : 24;   /* the action name only when there is room */
	int row = 0;
	for (int k = 1; k < ACT_COUNT; k++) {
		const struct action_info *ai = action_info((enum action)k);
		if (k == ACT_PANE_1)
			row = help_tab_rows(app, box, row, top, hx);
		else if (k < ACT_PANE_1 || k > ACT_PANE_9)
			row = help_entry(box, row, top, hx, ai->keys, hx == 41 ? ai->name : NULL, ai->help);
	}
	*cmds = row;
	if (row + 1 >= top && row + 1 - top < box->h)
		draw_text(box->y + row + 1 - top, box->x + 1, box->w - 2, "Commands (:)", ROLE_HEADER);
	return help_cmd_rows(box, row + 2, top, hx);
}

/* The help overlay; a long text wraps onto more rows. It scrolls by rows like the
 * legend (legend_scroll: j/k, arrows, pages, g/G); :help opens it at the commands. */
static void draw_help(struct app *app)
{
	struct rect box = layout_center(&app->lay.body, app->lay.body.h, 160);
	struct rect in = { box.y + 1, box.x, box.h - 1, box.w };
	draw_clear_rect(&box, ROLE_NORMAL);
	int cmds, top = (int)app->ov.top, n = help_rows(app, &in, top, &cmds);
	if (app->help_cmds)
		top = cmds;
	app->help_cmds = false;
	top = top > n - in.h ? (n - in.h > 0 ? n - in.h : 0) : top;
	if (top != (int)app->ov.top) {   /* :help, or a taller window than the last frame */
		draw_clear_rect(&box, ROLE_NORMAL);
		help_rows(app, &in, top, &cmds);
	}
	app->ov = (struct list_cursor){ .n = (size_t)n, .top = (size_t)top, .rows = in.h };
	draw_fmt(box.y, box.x + 1, box.w - 2, ROLE_HEADER,
		 "Keys (Esc closes%s; digits: this run's tabs; others as --list-keys)", n > in.h ? "; j/k scroll" : "");
}

static void draw_views(struct app *app)
{
	struct rect box = layout_center(&app->lay.body, app->lay.body.h, 100);
	draw_clear_rect(&box, ROLE_NORMAL);
	draw_fmt(box.y, box.x + 1, box.w - 2, ROLE_HEADER, "%s (Enter opens a tab, q closes it; Esc closes this list)",
		 app->cmp ? "Views of runs A vs B" : "Views with data in this run");
	struct app_view v[APP_MAX_VIEWS];
	int rows = box.h - 1;
	list_resize(&app->ov, app_views_list(app, v, APP_MAX_VIEWS), rows);
	for (int i = 0; i < rows && app->ov.top + (size_t)i < app->ov.n; i++) {
		int k = (int)app->ov.top + i, y = box.y + 1 + i;
		enum role r = k == (int)app->ov.sel ? ROLE_SELECTED : ROLE_NORMAL;
		if (k == (int)app->ov.sel)
			draw_clear_rect(&(struct rect){ y, box.x, 1, box.w }, ROLE_SELECTED);
		draw_text(y, box.x + 1, 18, v[k].name, k == (int)app->ov.sel ? ROLE_SELECTED : ROLE_ACCENT);
		draw_text(y, box.x + 20, box.w - 21, v[k].help, r);
	}
}

/* What the screen lacks and what still works, wrapped to its width (the keys on rows of
 * their own when the whole does not fit on one), above the `:` line. */
static void draw_too_small(struct app *app)
{
	char a[96], need[48], b[96];
	const char *keys = "q quits, : runs a command";
	snprintf(a, sizeof(a), "terminal too small: %dx%d", COLS, LINES);
	snprintf(need, sizeof(need), "need at least %dx%d;", LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS);
	snprintf(b, sizeof(b), "%s %s", need, keys);
	bool one = text_width(b) <= COLS;
	int rows = LINES > 2 ? LINES - 1 : LINES;
	int n = draw_wrap_count(COLS, a) + (one ? 1 : draw_wrap_count(COLS, need) + draw_wrap_count(COLS, keys));
	int y = LINES / 2 - 1 < rows - n ? LINES / 2 - 1 : rows - n;
	y = y < 0 ? 0 : y;
	struct rect r = { y, 0, rows - y, COLS };
	int used = draw_wrap(&r, 0, a, ROLE_ERROR);
	if (one) {
		draw_wrap(&r, used, b, ROLE_NORMAL);
	} else {
		used += draw_wrap(&r, used, need, ROLE_NORMAL);
		draw_wrap(&r, used, keys, ROLE_NORMAL);
	}
	if (LINES > 2)   /* the `:` line (a `:resize` back), or why it failed */
		draw_prompt_or_msg(app, &(struct rect){ LINES - 1, 0, 1, COLS });
}

void app_draw(struct app *app)
{
	if (app->full_redraw) {
		clearok(curscr, TRUE);
		app->full_redraw = false;
	}
	erase();
	if (app->lay.too_small) {
		draw_too_small(app);
	} else {
		draw_title(app);
		struct pane_slot *s = &app->pane[app->cur];
		void *priv = app_pane_priv(app, app->cur);
		if (priv) {
			draw_mark(app->search_on ? app->search : NULL);   /* the `/` highlight */
			s->ops->draw(priv, app, &app->lay.body);
			draw_mark(NULL);
		}
		else
			draw_wrap(&(struct rect){ app->lay.body.y + 1, 2, app->lay.body.h - 1, app->lay.body.w - 4 },
				  0, s->why, ROLE_DIM);
		if (app->overlay == OV_HELP)
			draw_help(app);
		else if (app->overlay == OV_VIEWS)
			draw_views(app);
		else if (app->overlay == OV_LEGEND)
			legend_draw(app);
		int up = msg_rows(app) - 1;   /* a message wider than its row: the status row goes up */
		draw_status(app, up);
		draw_hint(app, up);
	}
	wnoutrefresh(stdscr);
	doupdate();
	app->frames++;
	app_poll_end(app);
}
