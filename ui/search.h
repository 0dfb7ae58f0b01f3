/* SPDX-License-Identifier: MIT */
/* search.h: the ONE `/` search, for every pane. A pane lists its searchable items
 * through its ops (pane.h: items, item_text, item_show); this module walks them
 * case-insensitively, wrapping, and remembers the current match so n/N step from it.
 * The highlight is drawn by the frame: every occurrence of the text in what the pane
 * draws (draw_mark in ui/draw.h). While a search is on, n/N go to the next/previous
 * match; with none on they keep jumping between stragglers. As in less and vim, the
 * `/` prompt remembers where it opened: each edit searches from there, and Esc at the
 * prompt or "no match" puts the cursor back there (pane.h search_from).
 *
 * A key never waits for the walk: an edit, Enter or n/N only start it, and the loop
 * walks it in slices of bounded time between looks at the keyboard (search_step, from
 * app_tick: tick_ms is 0 while one runs), the prompt row saying how far it got
 * (search_progress). An edit that makes the text longer, the old text still in it, goes
 * on from where the last edit's walk stopped (no item before that holds the old text, so
 * none holds the new one); a miss stays a miss without a walk. While a walk runs, more
 * edits restart or narrow it, n/N wait for it and then go on from its match, Esc or q
 * cancels it (and ends the search), and any other key stops it first (an edit's walk puts
 * the cursor back where `/` opened, as a miss does); the search stays on. */
#ifndef UI_SEARCH_H
#define UI_SEARCH_H

#include "model/base.h"

struct app;

/* Where the search's walk is (in struct app; only search.c changes it). */
enum search_state { SEARCH_IDLE, SEARCH_RUNNING, SEARCH_FOUND, SEARCH_MISSED };
struct search_walk {
	enum search_state state;  /* IDLE: no walk to go on from; FOUND, MISSED: the last one's end */
	int dir;                  /* 0: an edit's, from where `/` opened; +1 / -1: n / N */
	int queued;               /* n (+1) and N (-1) pressed while it ran: done after it */
	bool accepted;            /* Enter was pressed at the prompt while it ran */
	unsigned gen;             /* run->generation it walks (the run changed: it starts over) */
	size_t from, n;           /* the item it started from; the pane's item count then */
	size_t k, end;            /* the next item to look at, as a step from `from` (backwards
				   * for N), and one past the last; FOUND: the match's */
	int pct;                  /* the progress last drawn, percent */
};

/* Does the current pane take `/`? */
bool search_supported(struct app *app);
/* Does item text t contain the search (a search is on)? Panes whose drawn label
 * differs from the item's text ("12" for "rank 12") mark it with this. */
bool search_hit(const struct app *app, const char *t);
/* Forget the current match and stop the walk (a new search, another pane). */
void search_reset(struct app *app);

/* The `/` prompt opened (call before the first edit): the cursor to come back to. */
void search_begin(struct app *app);
/* The `/` line changed (app->line): walk for the first match from where the search began;
 * the cursor goes back there and "no match" is said when there is none. */
void search_edit(struct app *app);
/* Enter at the `/` prompt: as an edit, and the message (once the walk ended) says how to
 * go on. */
void search_accept(struct app *app);
/* Esc at the `/` prompt: the search ends and the cursor goes back where it began. */
void search_cancel(struct app *app);
/* The search ends (Esc or q after Enter, another pane): the cursor stays. */
void search_end(struct app *app);
/* n / N while a search is on (dir +1 / -1): walk to the match after / before the current
 * one, or after / before the selection when the cursor moved since; PR_* for the loop. */
unsigned search_next(struct app *app, int dir);

/* Is a walk running? */
bool search_busy(const struct app *app);
/* The walk's next slice (app_tick): at most SEARCH_SLICE_ITEMS items and about
 * SEARCH_SLICE_MS ms. PR_REDRAW when it ended or its percentage changed. */
unsigned search_step(struct app *app);
enum { SEARCH_SLICE_ITEMS = 65536, SEARCH_SLICE_MS = 8 };
/* A key other than n/N (and the prompt's) while a walk runs: it stops (see above). */
void search_stop(struct app *app);
/* "searching... 37% (Esc cancels)" into buf while a walk runs; false when none does. */
bool search_progress(const struct app *app, char *buf, size_t n);

#endif
