/* SPDX-License-Identifier: MIT */
/* search.c: the `/` search over a pane's items (see search.h). */
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
