/* SPDX-License-Identifier: MIT */
/* search.h: the ONE `/` search, for every pane. A pane lists its searchable items
 * through its ops (pane.h: items, item_text, item_show); this module walks them
 * case-insensitively, wrapping, and remembers the current match so n/N step from it.
 * The highlight is drawn by the frame: every occurrence of the text in what the pane
 * draws (draw_mark in ui/draw.h). While a search is on, n/N go to the next/previous
 * match; with none on they keep jumping between stragglers. */
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

#endif
