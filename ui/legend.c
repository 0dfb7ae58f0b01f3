/* SPDX-License-Identifier: MIT */
/* legend.c: the `i` overlay and the helpers the panes' legends draw with (legend.h).
 * The current pane explains itself (pane_ops.legend); every pane gets the frame's
 * conventions below it (the tables' missing "-" only when the pane did not show its own
 * missing glyph: one glyph, one meaning on a screen). Rows are laid out from the
 * legend's top and drawn only when they fall inside the box after scrolling. */
#include "ui/legend.h"

#include "model/glossary.h"
#include "ui/app.h"
#include "ui/draw.h"

enum { LG_SAMPLE_W = 8, LG_KEY_W = 23 };


/* Screen row of legend row y, or -1 when it is scrolled off or below the box. */
static int row_y(const struct legend *l, int y)
{
	int sy = l->box.y + y - l->top;
	return sy >= l->box.y && sy < l->box.y + l->box.h ? sy : -1;
}

/* Wrapped text at column offset dx; advances l->y by its rows. */
static void wrapped(struct legend *l, int dx, const char *text, enum role r)
{
	struct rect in = { l->box.y, l->box.x + dx, l->box.h, l->box.w - dx };
	int rows = draw_wrap_count(in.w, text);
	if (l->y - l->top < l->box.h)
		draw_wrap(&in, l->y - l->top, text, r);
	l->y += rows > 0 ? rows : 1;
}

void legend_head(struct legend *l, const char *text)
{
	int sy = row_y(l, l->y);
	if (sy >= 0)
		draw_text(sy, l->box.x, l->box.w, text, ROLE_HEADER);
	l->y++;
}

void legend_para(struct legend *l, const char *text)
{
	wrapped(l, 0, text, ROLE_NORMAL);
}

void legend_row(struct legend *l, const char *glyph, int n, enum role r, const char *text)
{
	int sy = row_y(l, l->y);
	if (sy >= 0)
		draw_repeat(sy, l->box.x + 2, n, glyph, r);
	wrapped(l, LG_SAMPLE_W, text, ROLE_NORMAL);
}

void legend_missing(struct legend *l, const char *glyph, int n, enum role r, const char *text)
{
	legend_row(l, glyph, n, r, text);
	l->own_missing = true;
}

void legend_fill(struct legend *l, int k, const char *text)
{
	int sy = row_y(l, l->y);
	if (sy >= 0)
		draw_fill(sy, l->box.x + 2, 3, k);
	wrapped(l, LG_SAMPLE_W, text, ROLE_NORMAL);
}

void legend_key(struct legend *l, const char *key, const char *text)
{
	int sy = row_y(l, l->y);
	if (sy >= 0)
		draw_text(sy, l->box.x + 2, LG_KEY_W - 3, key, ROLE_ACCENT);
	wrapped(l, LG_KEY_W, text, ROLE_NORMAL);
}

void legend_terms(struct legend *l, const char *words)
{
	bool any = false;
	for (size_t i = 0; i < glossary_count(); i++) {
		if (!glossary_used(i, words))
			continue;
		if (!any)
			legend_head(l, "Glossary (as in the man page)");
		any = true;
		legend_key(l, glossary_term(i), glossary_def(i));
	}
}

/* What every pane shares; the tables' missing "-" unless the pane has its own glyph. */
static void legend_common(struct app *app, struct legend *l)
{
	const struct glyphs *g = app->g;
	legend_head(l, "Everywhere");
	if (!l->own_missing)
		legend_row(l, "-", 1, ROLE_DIM, "missing value (never shown as 0)");
	legend_row(l, g->pointer, 1, ROLE_ACCENT, "the selected row; its key cell and the column cursor are reversed");
	legend_row(l, g->desc, 1, ROLE_SORTED, "sorted column (s), descending; ascending shows the other arrow");
	legend_row(l, "abc", 1, ROLE_MATCH, "search match (/; n/N next/previous, Esc ends)");
	legend_row(l, "high", 1, ROLE_SEV_HIGH, "finding severity high (then medium, low)");
	legend_row(l, "med", 1, ROLE_SEV_MED, "finding severity medium; a warning line");
	legend_row(l, "low", 1, ROLE_SEV_LOW, "finding severity low");
	legend_para(l, "The status row shows the exact value under the cursor, with its unit.");
}

/* The legend's rows from top in box (the pane's, then the common ones); returns how many
 * there are. */
static int legend_rows(struct app *app, const struct rect *box, int top)
{
	struct legend l = { .box = *box, .top = top };
	struct pane_slot *s = &app->pane[app->cur];
	void *priv = app_pane_priv(app, app->cur);
	if (priv && s->ops->legend) {
		s->ops->legend(priv, app, &l);
		l.y++;
	}
	legend_common(app, &l);
	return l.y;
}

/* A window taller than the last frame's (a resize) brings the scroll position back so
 * the legend's end is at the bottom, never blank rows below it. */
void legend_draw(struct app *app)
{
	struct rect box = layout_center(&app->lay.body, app->lay.body.h, 100);
	struct rect in = { box.y + 2, box.x + 2, box.h - 2, box.w - 4 };
	draw_clear_rect(&box, ROLE_NORMAL);
	int top = (int)app->ov.top, n = legend_rows(app, &in, top), max = n - in.h > 0 ? n - in.h : 0;
	if (top > max) {
		top = max;
		draw_clear_rect(&box, ROLE_NORMAL);
		legend_rows(app, &in, top);
	}
	app->ov = (struct list_cursor){ .n = (size_t)n, .top = (size_t)top, .rows = in.h };
	draw_fmt(box.y, box.x + 1, box.w - 2, ROLE_HEADER, "Legend: %s (i or Esc closes%s)", app->pane[app->cur].label,
		 n > in.h ? "; j/k scroll" : "");
}

bool legend_scroll(struct app *app, enum action a)
{
	long top = (long)app->ov.top, page = app->ov.rows > 1 ? app->ov.rows - 1 : 1;
	long max = (long)app->ov.n - app->ov.rows;
	switch (a) {
	case ACT_UP: top--; break;
	case ACT_DOWN: top++; break;
	case ACT_PAGE_UP: case ACT_HALF_UP: top -= a == ACT_PAGE_UP ? page : page / 2 + 1; break;
	case ACT_PAGE_DOWN: case ACT_HALF_DOWN: top += a == ACT_PAGE_DOWN ? page : page / 2 + 1; break;
	case ACT_TOP: top = 0; break;
	case ACT_BOTTOM: top = max; break;
	default: return false;
	}
	app->ov.top = (size_t)(top > max ? (max > 0 ? max : 0) : top < 0 ? 0 : top);
	return true;
}
