/* SPDX-License-Identifier: MIT */
/* search.h: the ONE `/` search, for every pane. A pane lists its searchable items
 * through its ops (pane.h: items, item_text, item_show); this module walks them
 * case-insensitively, wrapping, and remembers the current match so n/N step from it.
 * The highlight is drawn by the frame: every occurrence of the text in what the pane
 * draws (draw_mark in ui/draw.h). While a search is on, n/N go to the next/previous
 * match; with none on they keep jumping between stragglers. As in less and vim, the
 * `/` prompt remembers where it opened: each edit searches from there, and Esc at the
 * prompt or "no match" puts the cursor back there (pane.h search_from). */
#ifndef UI_SEARCH_H
#define UI_SEARCH_H

#include "model/base.h"

struct app;

/* Does the current pane take `/`? */
bool search_supported(struct app *app);
/* Find app->search in the current pane and show the match. dir 0: from the selected
 * item on (each edit of the `/` line); +1 / -1: the match after / before the current
 * one (n / N), or after / before the selection when the cursor moved since. True when
 * found. */
bool search_find(struct app *app, int dir);
/* Does item text t contain the search (a search is on)? Panes whose drawn label
 * differs from the item's text ("12" for "rank 12") mark it with this. */
bool search_hit(const struct app *app, const char *t);
/* Forget the current match (a new search, or the search ended). */
void search_reset(struct app *app);

/* The `/` prompt opened (call before the first edit): the cursor to come back to. */
void search_begin(struct app *app);
/* The `/` line changed (app->line): the first match from where the search began, or
 * the cursor back there and "no match" in the status message. */
void search_edit(struct app *app);
/* Enter at the `/` prompt: as an edit, and the message says how to go on. */
void search_accept(struct app *app);
/* Esc at the `/` prompt: the search ends and the cursor goes back where it began. */
void search_cancel(struct app *app);
/* The search ends (Esc or q after Enter, another pane): the cursor stays. */
void search_end(struct app *app);
/* n / N while a search is on (dir +1 / -1); PR_* for the loop. */
unsigned search_next(struct app *app, int dir);

#endif
