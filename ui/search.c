/* SPDX-License-Identifier: MIT */
/* search.c: the `/` search over a pane's items, and the prompt's side of it: where the
 * search began, each edit, Enter, Esc (see search.h). */
#include "ui/search.h"

#include <string.h>
#include "ui/app.h"

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

void search_reset(struct app *app)
{
	app->search_pos = -1;
}

bool search_find(struct app *app, int dir)
{
	if (!app->search[0] || !search_supported(app))
		return false;
	void *priv = app->pane[app->cur].priv;
	const struct pane_ops *o = app->pane[app->cur].ops;
	size_t sel = 0, n = o->items(priv, app, &sel);
	if (!n)
		return false;
	/* n/N step from the last match while the cursor stayed where that match put it */
	size_t from = dir && app->search_pos >= 0 && sel == app->search_sel && (size_t)app->search_pos < n
			      ? (size_t)app->search_pos : sel % n;
	for (size_t k = dir ? 1 : 0; k <= n; k++) {
		size_t i = dir < 0 ? (from + n - k % n) % n : (from + k) % n;
		char buf[2048];
		buf[0] = '\0';
		o->item_text(priv, app, i, buf, sizeof(buf));
		if (!strcasestr(buf, app->search))
			continue;
		o->item_show(priv, app, i);
		app->search_pos = (long)i;
		o->items(priv, app, &app->search_sel);
		return true;
	}
	return false;
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

void search_edit(struct app *app)
{
	snprintf(app->search, sizeof(app->search), "%s", app->line);
	app->search_on = app->line[0] != '\0';
	search_reset(app);
	search_back(app);   /* each edit searches from where the search began, as vim's */
	if (app->search_on && !search_find(app, 0)) {
		search_back(app);
		app_msg(app, true, "no match for '%s'", app->search);
	} else {
		app->msg[0] = '\0';
	}
}

void search_accept(struct app *app)
{
	search_edit(app);
	app->search_from_ok = false;
	if (app->search_on && !app->msg[0])
		app_msg(app, false, "search '%s': n/N next/previous match, Esc ends the search", app->search);
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
	if (!search_find(app, dir))
		app_msg(app, true, "no match for '%s' in this pane", app->search);
	return PR_REDRAW;
}
