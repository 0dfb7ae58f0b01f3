/* SPDX-License-Identifier: MIT */
/* search.c: the `/` search over a pane's items, and the prompt's side of it: where the
 * search began, each edit, Enter, Esc; the walk over the items in slices between keys,
 * an edit that narrows the text going on from where the last one stopped (see search.h). */
#include "ui/search.h"

#include <string.h>
#include <time.h>
#include "ui/app.h"

/* A slice looks at the clock once every this many items. */
enum { SEARCH_CLOCK_EVERY = 256 };

bool search_supported(struct app *app)
{
	void *priv = app_pane_priv(app, app->cur);
	const struct pane_ops *o = app->pane[app->cur].ops;
	return priv && o->items && o->item_text && o->item_show;
}

bool search_hit(const struct app *app, const char *t)
{
	return app->search_on && app->search[0] && strcasestr(t, app->search);
}

bool search_busy(const struct app *app)
{
	return app->walk.state == SEARCH_RUNNING;
}

void search_reset(struct app *app)
{
	app->search_pos = -1;
	if (app->walk.accepted)
		app->search_from_ok = false;
	app->walk = (struct search_walk){ .state = SEARCH_IDLE };
}

void search_begin(struct app *app)
{
	app->search_from_ok = search_supported(app);
	if (!app->search_from_ok)
		return;
	void *priv = app->pane[app->cur].priv;
	const struct pane_ops *o = app->pane[app->cur].ops;
	o->items(priv, app, &app->search_from);
	if (o->search_from)
		o->search_from(priv, app, false);
}

/* The cursor back where the `/` prompt opened (the pane's own mark, else the item it
 * had selected), when the search moved it. */
static void search_back(struct app *app)
{
	if (!app->search_from_ok || !search_supported(app))
		return;
	void *priv = app->pane[app->cur].priv;
	const struct pane_ops *o = app->pane[app->cur].ops;
	size_t sel = 0, n = o->items(priv, app, &sel);
	if (o->search_from)
		o->search_from(priv, app, true);
	else if (sel != app->search_from && app->search_from < n)
		o->item_show(priv, app, app->search_from);
}

/* Enter was pressed and the walk it started ended: the prompt's cursor is forgotten and
 * the message says how to go on (unless it says there was no match). */
static void accept_done(struct app *app)
{
	app->search_from_ok = false;
	app->walk.accepted = false;
	if (app->search_on && !app->msg[0])
		app_msg(app, false, "search '%s': n/N next/previous match, Esc ends the search", app->search);
}

/* Start a walk in direction dir (0: an edit's, the cursor first back where `/` opened;
 * n/N: from the current match while the cursor stayed where it put it, else from the
 * selection); false when the pane has nothing to search. */
static bool walk_begin(struct app *app, int dir)
{
	struct search_walk *w = &app->walk;
	w->dir = dir;   /* also what a miss says (walk_missed) */
	if (!dir)
		search_back(app);
	if (!search_supported(app))
		return false;
	void *priv = app->pane[app->cur].priv;
	const struct pane_ops *o = app->pane[app->cur].ops;
	size_t sel = 0, n = o->items(priv, app, &sel);
	if (!n)
		return false;
	w->from = dir && app->search_pos >= 0 && sel == app->search_sel && (size_t)app->search_pos < n
			  ? (size_t)app->search_pos : sel % n;
	w->state = SEARCH_RUNNING;
	w->gen = app->run->generation;
	w->n = n;
	w->k = dir ? 1 : 0;   /* n/N: the current match last, after a whole turn */
	w->end = dir ? n + 1 : n;
	w->pct = -1;
	return true;
}

/* No match: an edit's walk puts the cursor back where `/` opened. */
static void walk_missed(struct app *app)
{
	struct search_walk *w = &app->walk;
	w->state = SEARCH_MISSED;
	w->queued = 0;
	if (!w->dir) {
		search_back(app);
		app_msg(app, true, "no match for '%s'", app->search);
	} else {
		app_msg(app, true, "no match for '%s' in this pane", app->search);
	}
	if (w->accepted)
		accept_done(app);
}

/* Item i matches: show it; then an n/N pressed meanwhile walks on from it. */
static void walk_found(struct app *app, size_t i)
{
	struct search_walk *w = &app->walk;
	void *priv = app->pane[app->cur].priv;
	const struct pane_ops *o = app->pane[app->cur].ops;
	o->item_show(priv, app, i);
	app->search_pos = (long)i;
	o->items(priv, app, &app->search_sel);
	w->state = SEARCH_FOUND;
	w->k--;   /* a narrower text goes on from this item */
	if (w->accepted)
		accept_done(app);
	if (w->queued) {
		int dir = w->queued > 0 ? 1 : -1;
		w->queued -= dir;
		if (!walk_begin(app, dir))
			walk_missed(app);
	}
}

static double clock_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* One slice of the walk: at most SEARCH_SLICE_ITEMS items and about SEARCH_SLICE_MS.
 * True when the walk ended (found or missed). */
static bool walk_slice(struct app *app)
{
	struct search_walk *w = &app->walk;
	void *priv = app->pane[app->cur].priv;
	const struct pane_ops *o = app->pane[app->cur].ops;
	double t0 = clock_ms();
	for (size_t m = 0; w->k < w->end; m++) {
		if (m && m % SEARCH_CLOCK_EVERY == 0 && (m >= SEARCH_SLICE_ITEMS || clock_ms() - t0 >= SEARCH_SLICE_MS))
			return false;
		size_t k = w->k++;
		size_t i = w->dir < 0 ? (w->from + w->n - k % w->n) % w->n : (w->from + k) % w->n;
		char buf[2048];
		buf[0] = '\0';
		o->item_text(priv, app, i, buf, sizeof(buf));
		if (strcasestr(buf, app->search)) {
			walk_found(app, i);
			return true;
		}
	}
	walk_missed(app);
	return true;
}

static int walk_pct(const struct search_walk *w)
{
	return w->end ? (int)(100.0 * (double)w->k / (double)w->end) : 0;
}

unsigned search_step(struct app *app)
{
	struct search_walk *w = &app->walk;
	if (w->state != SEARCH_RUNNING)
		return PR_NONE;
	if (!search_supported(app) || (w->gen != app->run->generation && !walk_begin(app, w->dir))) {
		walk_missed(app);   /* the pane lost its items */
		return PR_REDRAW;
	}
	if (walk_slice(app) || walk_pct(w) != w->pct) {
		w->pct = walk_pct(w);
		return PR_REDRAW;
	}
	return PR_NONE;
}

/* An edit whose text holds the last one's: that walk goes on (from the item it found, or
 * the next it was to look at) from where `/` opened, over the same items; false when
 * they are not the same any more. */
static bool walk_resume(struct app *app)
{
	struct search_walk *w = &app->walk;
	search_back(app);
	if (!search_supported(app))
		return false;
	size_t sel = 0, n = app->pane[app->cur].ops->items(app->pane[app->cur].priv, app, &sel);
	if (n != w->n || sel % n != w->from)
		return false;
	w->state = SEARCH_RUNNING;
	w->pct = -1;
	app->search_pos = -1;
	return true;
}

void search_edit(struct app *app)
{
	const struct search_walk *w = &app->walk;
	/* the text the last walk was for, still in the new one: no item it passed holds it */
	bool narrows = w->state != SEARCH_IDLE && !w->dir && w->gen == app->run->generation && app->search[0] &&
		       strcasestr(app->line, app->search);
	snprintf(app->search, sizeof(app->search), "%s", app->line);
	app->search_on = app->line[0] != '\0';
	app->msg[0] = '\0';
	if (narrows && w->state == SEARCH_MISSED) {
		app_msg(app, true, "no match for '%s'", app->search);
		return;
	}
	if (narrows && walk_resume(app))
		return;
	search_reset(app);
	if (!app->search_on)
		search_back(app);   /* each edit searches from where the search began, as vim's */
	else if (!walk_begin(app, 0))
		walk_missed(app);
}

void search_accept(struct app *app)
{
	search_edit(app);
	if (search_busy(app))
		app->walk.accepted = true;   /* said when the walk ends */
	else
		accept_done(app);
}

void search_cancel(struct app *app)
{
	search_back(app);
	app->search_from_ok = false;
	search_end(app);
}

void search_end(struct app *app)
{
	search_reset(app);
	app->search_on = false;
	app->search[0] = '\0';
	app->msg[0] = '\0';
}

unsigned search_next(struct app *app, int dir)
{
	if (search_busy(app))
		app->walk.queued += dir;
	else if (!walk_begin(app, dir))
		walk_missed(app);
	return PR_REDRAW;
}

void search_stop(struct app *app)
{
	struct search_walk *w = &app->walk;
	if (w->state != SEARCH_RUNNING)
		return;
	if (!w->dir)
		search_back(app);
	if (w->accepted)
		app->search_from_ok = false;
	*w = (struct search_walk){ .state = SEARCH_IDLE };
}

bool search_progress(const struct app *app, char *buf, size_t n)
{
	if (!search_busy(app))
		return false;
	snprintf(buf, n, "searching... %d%% (Esc cancels)", walk_pct(&app->walk));
	return true;
}
