/* SPDX-License-Identifier: MIT */
/* ui.c: the explorer's entry points: set up the terminal, the panes and the theme, then
 * run the event loop, driven by the keyboard or by a TSCOPE_SCRIPT file (headless). The
 * default tabs are the run's (registry_tabs), built again when its data changed (follow
 * mode: the followed dir became a sweep). */
#include "ui/ui.h"

#include <langinfo.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/steps/analysis.h"
#include "model/steps/follow.h"
#include "model/registry.h"
#include "model/compare/compare.h"
#include "model/compare/views.h"
#include "model/numfmt.h"
#include "model/summary.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "ui/app.h"
#include "ui/cmd.h"
#include "ui/draw.h"
#include "ui/keymap.h"
#include "ui/search.h"
#include "ui/term.h"
#include "ui/theme.h"

void ui_list_keys(FILE *f)
{
	keymap_list(f);
}

/* The pane that draws each kind of default tab (model/registry.h). */
static const struct pane_ops *const tab_panes[] = {
	[TAB_OVERVIEW] = &pane_overview, [TAB_HEATMAP] = &pane_heatmap, [TAB_TABLE] = &pane_table,
	[TAB_STEPS] = &pane_steps, [TAB_BUDGET] = &pane_budget, [TAB_SWEEP] = &pane_sweep,
	[TAB_COMPARE] = &pane_compare,
};

/* The pane (ops, arg) among the n panes of v not taken yet, -1 when none. */
static long untaken_pane(const struct pane_slot *v, size_t n, const bool *taken, const struct pane_ops *ops,
			 const char *arg)
{
	for (size_t i = 0; i < n; i++)
		if (!taken[i] && v[i].ops == ops && (arg ? v[i].arg && strcmp(arg, v[i].arg) == 0 : !v[i].arg))
			return (long)i;
	return -1;
}

static void close_slot(struct pane_slot *s)
{
	if (s->priv && s->ops->close)
		s->ops->close(s->priv);
	free(s->arg);
}

/* The current pane and the back stack follow their panes (to[i]: where pane i went, -1:
 * closed); the Overview is current when the current one was closed. */
static void remap_panes(struct app *app, const long *to)
{
	if (to[app->cur] < 0)
		search_reset(app);   /* the match was in the pane closed */
	app->cur = to[app->cur] >= 0 ? (size_t)to[app->cur] : 0;
	size_t k = 0;
	for (size_t j = 0; j < app->nback; j++)
		if (to[app->back[j]] >= 0)
			app->back[k++] = (size_t)to[app->back[j]];
	app->nback = k;
}

/* The default tabs become tabs[0..n), in that order: a pane already there keeps its
 * state (one opened with v or :view becomes the default tab), the others open when
 * shown; then the tabs opened later; the default tabs that went are closed. */
static void set_tabs(struct app *app, const struct tab_def *const *tabs, size_t n)
{
	struct pane_slot old[APP_MAX_PANES];
	bool taken[APP_MAX_PANES] = { false };
	long to[APP_MAX_PANES];
	size_t np = app->npane, fixed = app->nfixed, k = 0;
	memcpy(old, app->pane, np * sizeof(*old));
	for (size_t i = 0; i < np; i++)
		to[i] = -1;
	for (size_t t = 0; t < n && k < APP_MAX_PANES; t++, k++) {
		const struct pane_ops *ops = tab_panes[tabs[t]->pane];
		long i = untaken_pane(old, np, taken, ops, tabs[t]->arg);
		struct pane_slot *s = &app->pane[k];
		if (i >= 0) {
			taken[i] = true;
			to[i] = (long)k;
			*s = old[i];
		} else {
			*s = (struct pane_slot){ .ops = ops, .arg = tabs[t]->arg ? xstrdup(tabs[t]->arg) : NULL };
		}
		snprintf(s->label, sizeof(s->label), "%s", tabs[t]->label);
		s->key = tabs[t]->key;
	}
	app->nfixed = k;
	for (size_t i = 0; i < np; i++) {
		if (taken[i])
			continue;
		if (i >= fixed && k < APP_MAX_PANES) {
			to[i] = (long)k;
			app->pane[k++] = old[i];
		} else {
			close_slot(&old[i]);
		}
	}
	app->npane = k;
	if (np)
		remap_panes(app, to);
}

/* The run's default tabs, in number-key order, from the subsystems' tab tables, built
 * for the run's data as it is now. */
static void add_tabs(struct app *app)
{
	const struct tab_def *tabs[APP_MAX_PANES];
	size_t n = registry_tabs(app->run, tabs, APP_MAX_PANES);
	app->tabs_gen = app->run->generation;
	set_tabs(app, tabs, n);
}

/* The run's data changed since the tabs were built (follow mode: the followed dir became
 * a sweep): its default tabs again, when they differ (set_tabs keeps the panes that stay).
 * PR_REDRAW when they changed. */
static unsigned sync_tabs(struct app *app)
{
	if (app->cmp || app->tabs_gen == app->run->generation)
		return PR_NONE;
	app->tabs_gen = app->run->generation;
	const struct tab_def *tabs[APP_MAX_PANES];
	size_t n = registry_tabs(app->run, tabs, APP_MAX_PANES);
	bool same = n == app->nfixed;
	for (size_t i = 0; same && i < n; i++)
		same = app->pane[i].key == tabs[i]->key;   /* a key is one tab over the registry */
	if (same)
		return PR_NONE;
	set_tabs(app, tabs, n);
	return PR_REDRAW;
}

/* The app state without tabs. */
static void app_setup(struct app *app, struct run *run, const struct opts *opts)
{
	memset(app, 0, sizeof(*app));
	app->run = run;
	app->opts = opts;
	app->strag_pos = -1;
	app->search_pos = -1;
	app->tick_ms = -1;
	app->max_frames = opts->max_frames;
	app->g = glyph_pick(opts->ascii, nl_langinfo(CODESET), getenv("TERM"));
	app->text_flags = app->g->utf8 ? 0 : TEXT_ASCII;
	draw_init(app->text_flags, app->g);
	app->lay = layout_compute(LINES, COLS);
}

static void app_init(struct app *app, struct run *run, const struct opts *opts)
{
	app_setup(app, run, opts);
	add_tabs(app);
	if (opts->follow) {
		app->following = true;
		app_poll(app);
		sync_tabs(app);
	}
	/* a run with a heatmap opens on it; one without (a sweep, a trace without steps)
	 * opens on its summary, the Overview */
	app->cur = app->npane > 1 && app->pane[1].ops == &pane_heatmap && app_pane_priv(app, 1) ? 1 : 0;
	state_load(app);
	app_set_mouse(app, !opts->no_mouse);
}

static void app_free(struct app *app)
{
	state_save(app);
	state_free(app);
	for (size_t i = 0; i < app->npane; i++)
		close_slot(&app->pane[i]);
	free(app->strag);
	free(app->strag_onset);
	free(app->strag_until);
	analysis_recompute_wait(app->run);   /* the model is read by a catch-up worker */
	if (app->follow)
		follow_stop_index(app->follow);
	follow_free(app->follow);
}

/* A script's next key waits until the work a pane runs off the UI thread ended (its
 * result drawn), so a scripted session is the same every time. */
static void script_settle(struct app *app)
{
	app_tick(app);
	while (app->tick_ms >= 0 && !app->quit) {
		struct timespec ts = { 0, (long)app->tick_ms * 1000000L };
		nanosleep(&ts, NULL);
		if (app_tick(app) & (PR_REDRAW | PR_RELAYOUT))
			app_draw(app);
	}
}

/* Feed one script line: ":cmd args" runs a command, "# ..." is a comment, anything
 * else is a sequence of keys in keymap_parse() syntax. */
static int script_line(struct app *app, const char *line, int lineno, const char *path)
{
	if (line[0] == '#' || line[0] == '\0')
		return 0;
	if (line[0] == ':') {
		cmd_run(app, line + 1);
		return 0;
	}
	for (const char *p = line; *p && !app->quit;) {
		int key;
		int n = keymap_parse(p, &key);
		if (n < 0) {
			term_stop();
			char *f = text_sanitize_dup(path, 0), *at = text_sanitize_dup(p, 0);
			fprintf(stderr, "tscope-tui: %s:%d: unknown key name in '%s'\n", f, lineno, at);
			free(f);
			free(at);
			return -1;
		}
		unsigned r = app_key(app, key) | sync_tabs(app);   /* R reads the job */
		app_draw(app);
		while (r & PR_LATER) {
			r = app_continue(app);
			app_draw(app);
		}
		script_settle(app);
		p += n;
	}
	return 0;
}

static int run_script(struct app *app, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		term_stop();
		fprintf(stderr, "tscope-tui: cannot open TSCOPE_SCRIPT %s\n", path);
		return 2;
	}
	char line[4096];
	int lineno = 0, rc = 0;
	app_draw(app);
	while (!app->quit && fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if (script_line(app, line, lineno, path) < 0) {
			rc = 2;
			break;
		}
		app_draw(app);
	}
	fclose(f);
	return rc;
}

static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Idle time (no key waiting, no deadline): one more step of the findings, so the first
 * pane that shows them (Overview, Findings) does not run every rule on a key (tens of
 * ms on a big run: rank 0's steps read, its timing, convergence, spikes). A step is a
 * rule, or a slice of bounded cost of a rule whose work grows with the run: a key typed
 * meanwhile waits for that step only. A step that added a diagnostic redraws (the
 * status line counts them). TSCOPE_IDLETIME=FILE (benchmarks): one line per step,
 * "idle CPU_MS WALL_MS". */
static void idle_step(struct app *app, FILE *log)
{
	size_t nd = app->run->diags.n;
	double t0 = cpu_ms(), w0 = wall_ms();
	run_findings_step(app->run);
	if (log)
		fprintf(log, "idle %.3f %.3f\n", cpu_ms() - t0, wall_ms() - w0);
	if (app->run->diags.n != nd)
		app_draw(app);
}

/* TSCOPE_KEYTIME=FILE (benchmarks): one line per frame, "KEY CPU_MS WALL_MS" from the
 * key read to the return of doupdate() (process CPU time, then elapsed time). */
static int run_keys(struct app *app)
{
	const char *kt = getenv("TSCOPE_KEYTIME"), *it = getenv("TSCOPE_IDLETIME");
	FILE *timing = kt && *kt ? fopen(kt, "w") : NULL, *idle_log = it && *it ? fopen(it, "w") : NULL;
	app_draw(app);
	int idle_ms = app->max_frames ? 200 : -1;
	int rc = app->exit_code;
	while (!app->quit) {
		if (term_signal()) {
			rc = 128 + term_signal();
			break;
		}
		int wait = idle_ms, poll_ms = app_poll_wait_ms(app);
		if (poll_ms >= 0 && (wait < 0 || poll_ms < wait))
			wait = poll_ms;
		if (app->tick_ms >= 0 && (wait < 0 || app->tick_ms < wait))
			wait = app->tick_ms;   /* a pane's work off the UI thread: its progress */
		bool idle = wait < 0 && app->run && !app->run->findings_done;
		int key = term_getkey(idle ? 0 : wait);
		if (key == ERR && idle) {
			idle_step(app, idle_log);
			continue;
		}
		double t0 = cpu_ms(), w0 = wall_ms();
		int first = key;
		bool poll_due = app_poll_wait_ms(app) == 0, tick_due = app->tick_ms >= 0;
		unsigned r = PR_REDRAW;   /* an idle tick under --max-frames draws */
		if (key != ERR) {
			r = app_key(app, key);
			/* drain typeahead, then draw once */
			while (!app->quit && (key = term_getkey(0)) != ERR)
				r |= app_key(app, key);
		} else if (!app->max_frames && !poll_due && !tick_due) {
			continue;
		} else if (!app->max_frames && !poll_due) {
			r = PR_NONE;   /* a tick only: a frame when it asks for one */
		}
		if (!app->quit)
			r |= app_tick(app);   /* after the keys: a pane left stops its work */
		if (poll_due && !app->quit)
			r |= app_poll(app);   /* follow mode: the job's new records */
		if (app->quit)
			break;
		r |= sync_tabs(app);   /* after a poll, or R: the run's families may have changed */
		if (!(r & (PR_REDRAW | PR_RELAYOUT)))
			continue;   /* nothing changed: no frame, no bytes */
		app_draw(app);
		while (r & PR_LATER) {
			r = app_continue(app);
			app_draw(app);
		}
		if (timing && first != ERR) {
			fprintf(timing, "%s %.3f %.3f\n", keymap_name(first), cpu_ms() - t0, wall_ms() - w0);
			fflush(timing);   /* the benchmark waits for this line */
		}
		if (app->max_frames && app->frames >= app->max_frames)
			break;
	}
	if (timing)
		fclose(timing);
	if (idle_log)
		fclose(idle_log);
	return rc;
}

/* Start the terminal (headless under TSCOPE_SCRIPT) and the theme. A terminal that
 * cannot be drawn on says why in one line; the caller prints the report instead. */
static int ui_start(const struct opts *opts, bool headless)
{
	char why[160];
	if (term_start(headless, why, sizeof(why)) < 0) {
		if (!why[0] && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
			snprintf(why, sizeof(why), "the terminal cannot be started (curses)");
		else if (!why[0])
			snprintf(why, sizeof(why), "no terminal to draw on (standard input or output is not a terminal "
						   "and /dev/tty cannot be opened)");
		char *safe = text_sanitize_dup(why, 0);
		fprintf(stderr, "tscope-tui: %s; printing the report instead\n", safe);
		free(safe);
		return -1;
	}
	theme_init(opts->color);
	return 0;
}

/* ---- the loading screen ---------------------------------------------------- */

static bool load_term;   /* the loading screen's terminal is up (ui_run takes it over) */
enum { LOAD_TYPEAHEAD = 64 };
static int load_keys[LOAD_TYPEAHEAD];   /* typed during the load, for the explorer */
static size_t load_nkeys;

bool ui_load_begin(const struct opts *opts)
{
	const char *script = getenv("TSCOPE_SCRIPT");
	char why[160];
	if (load_term)
		return true;
	if ((script && *script) || term_start(false, why, sizeof(why)) < 0)
		return false;
	theme_init(opts->color);
	const struct glyphs *g = glyph_pick(opts->ascii, nl_langinfo(CODESET), getenv("TERM"));
	draw_init(g->utf8 ? 0 : TEXT_ASCII, g);
	load_term = true;
	return true;
}

/* "1.2 GB", "85 MB", "0.213 MB": a nonzero figure never reads 0 (numfmt_nonzero). */
static void load_bytes(long long b, char *buf, size_t n)
{
	bool gb = b >= 1000000000LL;
	char v[24];
	numfmt_nonzero(gb ? (double)b / 1e9 : (double)b / 1e6, gb ? 1 : 0, v, sizeof(v));
	snprintf(buf, n, "%s %s", v, gb ? "GB" : "MB");
}

/* The bar and the bytes read, rate and ETA (rows y, y + 1). */
static void load_bar(const struct ui_load_status *st, int y, int w)
{
	double rate = st->seconds > 0 ? (double)st->done / st->seconds : 0;   /* bytes/s */
	char done[32], total[32], line[160], mbs[32], eta[32];
	load_bytes(st->done, done, sizeof(done));
	load_bytes(st->total, total, sizeof(total));
	numfmt_nonzero(rate / 1e6, st->total > 0 || st->listing ? 0 : 1, mbs, sizeof(mbs));
	numfmt_nonzero(rate > 0 ? (double)(st->total - st->done) / rate : 0, 0, eta, sizeof(eta));
	draw_text(y, 1, 10, "Loading", ROLE_ACCENT);
	if (st->doing) {
		snprintf(line, sizeof(line), "%s · %.1f s", st->doing, st->seconds);
	} else if (st->listing) {
		snprintf(line, sizeof(line), "%s read · %s MB/s · ETA unknown: listing, %zu rank dirs so far", done, mbs,
			 st->listed);
	} else if (st->total > 0) {
		double frac = (double)st->done / (double)st->total;
		frac = frac > 1 ? 1 : frac;
		draw_bar(y, 11, w - 18 > 10 ? w - 18 : 10, frac, ROLE_BAR);
		draw_fmt(y, w - 5, 6, ROLE_NORMAL, "%3d%%", (int)(100 * frac));
		if (st->finishing)
			snprintf(line, sizeof(line), "%s of %s · every file read: %s...", done, total, st->finishing);
		else if (rate > 0 && st->done < st->total)
			snprintf(line, sizeof(line), "%s of %s · %s MB/s · ETA %s s", done, total, mbs, eta);
		else
			snprintf(line, sizeof(line), "%s of %s · %s MB/s", done, total, mbs);
		y++;
	} else {
		snprintf(line, sizeof(line), "%s · %s MB/s (size unknown)", done, mbs);
	}
	draw_text(y, 11, w - 10, line, ROLE_NORMAL);
}

/* "key   value" rows of s from row y, above row end; returns the next row. */
static int load_lines(const struct summary *s, int y, int end, int w)
{
	static const enum role tone_role[] = {
		[TONE_NORMAL] = ROLE_NORMAL, [TONE_GOOD] = ROLE_GOOD, [TONE_WARN] = ROLE_SEV_MED,
		[TONE_BAD] = ROLE_SEV_HIGH,
	};
	for (size_t i = 0; s && i < s->n && y < end; i++, y++) {
		draw_text(y, 3, 16, s->line[i].key, ROLE_DIM);
		draw_text(y, 20, w - 19, s->line[i].text, tone_role[s->line[i].tone]);
	}
	return y;
}

static char load_msg[160];   /* the status line's answer to the last key */

static void load_draw(const struct ui_load_status *st)
{
	erase();
	int w = COLS > 4 ? COLS - 2 : 1, end = LINES - 1;
	draw_fmt(0, 1, w, ROLE_HEADER, "tscope-tui  1 Overview (loading %s)", st->path);
	load_bar(st, 1, w);
	int y = load_lines(st->lines, 4, end, w) + 1;
	if (y < end && st->lines)
		draw_text(y++, 3, w - 2, "Findings (partial: judged when the load ends)", ROLE_HEADER);
	load_lines(st->findings, y, end, w);
	draw_text(LINES - 1, 1, w, load_msg[0] ? load_msg : "q or Esc quits the load; other keys wait for it",
		  load_msg[0] ? ROLE_STATUS : ROLE_HINT);
	refresh();
}

/* A key typed during the load: kept for the explorer (unbound ones too: they may be
 * the text of a prompt typed ahead, ":view kernels"), and answered. */
static void load_key(int key)
{
	const struct action_info *ai = action_info(keymap_lookup(key));
	char name[32], what[48];
	snprintf(name, sizeof(name), "%s", keymap_name(key));
	snprintf(what, sizeof(what), "%s%s%s", ai ? " (" : "", ai ? ai->name : "", ai ? ")" : "");
	if (load_nkeys >= LOAD_TYPEAHEAD) {
		snprintf(load_msg, sizeof(load_msg), "%s%s not kept: %d keys already wait for the load", name, what,
			 LOAD_TYPEAHEAD);
		return;
	}
	load_keys[load_nkeys++] = key;
	snprintf(load_msg, sizeof(load_msg), "%s%s waits for the load: it runs when the load ends (%zu queued)", name,
		 what, load_nkeys);
}

int ui_load_frame(const struct ui_load_status *st, int ms)
{
	load_draw(st);
	bool answered = false;
	for (int key = term_getkey(ms); key != ERR; key = term_getkey(0)) {
		if (key == 'q' || key == 'Q' || key == 27)
			return 0;
		if (key == KEY_RESIZE)
			continue;
		if (key == 12) {   /* C-l */
			clearok(curscr, TRUE);
			continue;
		}
		load_key(key);
		answered = true;
	}
	if (answered)
		load_draw(st);
	return term_signal() ? 128 + term_signal() : -1;
}

int ui_exit_signal(void)
{
	return term_signal() ? 128 + term_signal() : 0;
}

void ui_load_end(bool explorer_follows)
{
	if (load_term && !explorer_follows) {
		term_stop();
		load_term = false;
	}
	while (load_term && load_nkeys)   /* the explorer reads them first, in order */
		ungetch(load_keys[--load_nkeys]);
	load_nkeys = 0;
	load_msg[0] = '\0';
}

int ui_run(struct run *run, const struct opts *opts)
{
	const char *script = getenv("TSCOPE_SCRIPT");
	bool headless = script && *script;
	if (!load_term && ui_start(opts, headless) < 0)
		return UI_NO_TTY;
	load_term = false;
	struct app app;
	app_init(&app, run, opts);
	int rc = headless ? run_script(&app, script) : run_keys(&app);
	term_stop();
	bool back = app.back_to_picker;
	app_free(&app);
	return back && rc == 0 ? UI_BACK : rc;
}

/* Compare mode's tabs that have something for the pair (model/compare/views.h
 * compare_tabs, compare_tab_shown); the index of the heatmap's, -1 when none. */
static long add_compare_tabs(struct app *app)
{
	long heat = -1;
	for (size_t i = 0; i < compare_ntabs; i++) {
		const struct tab_def *t = &compare_tabs[i];
		if (!compare_tab_shown(app->cmp, t))
			continue;
		if (t->grid) {
			app->grid = t->grid;
			app->grid_model = app->cmp;
		}
		long p = app_pane(app, tab_panes[t->pane], t->arg, t->label);
		if (p >= 0)
			app->pane[p].key = t->key;
		if (p >= 0 && t->grid)
			heat = p;
	}
	return heat;
}

int ui_run_compare(struct compare *c, const struct opts *opts)
{
	const char *script = getenv("TSCOPE_SCRIPT");
	bool headless = script && *script;
	if (ui_start(opts, headless) < 0)
		return UI_NO_TTY;
	struct app app;
	app_setup(&app, c->b, opts);
	app.cmp = c;
	snprintf(app.title, sizeof(app.title), "A %s vs B %s", c->a->name ? c->a->name : "-",
		 c->b->name ? c->b->name : "-");
	long heat = add_compare_tabs(&app);
	app.nfixed = app.npane;
	if (heat >= 0 && app_pane_priv(&app, (size_t)heat)) /* the B - A heatmap, as one run opens on its heatmap */
		app.cur = (size_t)heat;
	app_set_mouse(&app, !opts->no_mouse);
	int rc = headless ? run_script(&app, script) : run_keys(&app);
	term_stop();
	app_free(&app);
	return rc;
}
