/* SPDX-License-Identifier: MIT */
/* mouse.c: what a click or the wheel does (app_mouse in app.h). A click on a tab
 * switches to it, a click in the body selects what is there (the pane's click op: a
 * row, a column, a heatmap cell), a click on a `v` list line opens that view, the
 * wheel moves three rows. A click on the selected row or cell opens it (the pane's
 * click op), so a double click opens what it hits. T or --no-mouse turn reporting off
 * so the terminal's own text selection works again. */
#include "ui/app.h"

enum { WHEEL_ROWS = 3 };

static unsigned click_tab(struct app *app, int x)
{
	for (size_t i = 0; i < app->npane; i++)
		if (x >= app->tab_x[i] && x < app->tab_x[i + 1]) {
			app->overlay = OV_NONE;
			app_goto(app, i, false);
			return PR_REDRAW;
		}
	return PR_NONE;
}

static unsigned wheel(struct app *app, enum action a)
{
	unsigned r = 0;
	for (int i = 0; i < WHEEL_ROWS; i++)
		r |= app_action(app, a);
	return r;
}

static bool inside(const struct rect *r, int y, int x)
{
	return y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w;
}

static unsigned mouse_event(struct app *app, MEVENT ev)
{
	if (app->lay.too_small)
		return PR_NONE;
	if (ev.bstate & BUTTON4_PRESSED)
		return wheel(app, ACT_UP);
	if (ev.bstate & BUTTON5_PRESSED)
		return wheel(app, ACT_DOWN);
	if (!(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
		return PR_NONE;
	if (inside(&app->lay.title, ev.y, ev.x))
		return click_tab(app, ev.x);
	if (!inside(&app->lay.body, ev.y, ev.x))
		return PR_NONE;
	if (app->overlay == OV_VIEWS) {
		/* the list starts one line below the body's top (its header) */
		app->ov.sel = app->ov.top + (size_t)(ev.y - app->lay.body.y - 1);
		return app_action(app, ACT_ENTER);
	}
	if (app->overlay != OV_NONE) {
		app->overlay = OV_NONE;
		return PR_REDRAW;
	}
	struct pane_slot *s = &app->pane[app->cur];
	void *priv = app_pane_priv(app, app->cur);
	if (!priv || !s->ops->click)
		return PR_NONE;
	return s->ops->click(priv, app, ev.y, ev.x) | PR_REDRAW;
}

/* Presses that arrive together (a double click, a busy frame) come as one KEY_MOUSE
 * with several events queued: take them all, in order. */
unsigned app_mouse(struct app *app)
{
	MEVENT ev;
	unsigned r = PR_NONE;
	while (getmouse(&ev) == OK)
		r |= mouse_event(app, ev);
	return r;
}
