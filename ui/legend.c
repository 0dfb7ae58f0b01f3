/* SPDX-License-Identifier: MIT */
/* legend.c: the `i` overlay. The current pane explains its own glyphs, colours and
 * scale (pane_ops.legend); every pane gets the frame's conventions below it. */
#include "ui/app.h"
#include "ui/draw.h"

/* What every pane shares: returns rows used. */
static int legend_common(struct app *app, const struct rect *r)
{
	const struct glyphs *g = app->g;
	int y = r->y;
	struct { const char *glyph; enum role role; const char *text; } rows[] = {
		{ "-", ROLE_DIM, "missing value (never shown as 0)" },
		{ g->pointer, ROLE_ACCENT, "the selected row; its key cell and the column cursor are reversed" },
		{ g->desc, ROLE_SORTED, "sorted column (s), descending; ascending shows the other arrow" },
		{ "abc", ROLE_MATCH, "search match (/; n/N next/previous, Esc ends)" },
		{ "high", ROLE_SEV_HIGH, "finding severity high (then medium, low)" },
	};
	draw_text(y++, r->x, r->w, "Everywhere", ROLE_HEADER);
	for (size_t i = 0; i < ARRAY_LEN(rows) && y < r->y + r->h; i++, y++) {
		draw_text(y, r->x + 2, 5, rows[i].glyph, rows[i].role);
		draw_text(y, r->x + 8, r->w - 8, rows[i].text, ROLE_NORMAL);
	}
	if (y < r->y + r->h)
		draw_text(y++, r->x, r->w, "The status row shows the exact value under the cursor, with its unit.", ROLE_NORMAL);
	return y - r->y;
}

void legend_draw(struct app *app)
{
	struct rect box = layout_center(&app->lay.body, app->lay.body.h, 90);
	draw_clear_rect(&box, ROLE_NORMAL);
	draw_fmt(box.y, box.x + 1, box.w - 2, ROLE_HEADER, "Legend: %s (i or Esc closes)", app->pane[app->cur].label);
	struct rect in = { box.y + 2, box.x + 2, box.h - 2, box.w - 4 };
	struct pane_slot *s = &app->pane[app->cur];
	void *priv = app_pane_priv(app, app->cur);
	int used = 0;
	if (priv && s->ops->legend) {
		used = s->ops->legend(priv, app, &in) + 1;
		if (used >= in.h)
			return;
	}
	legend_common(app, &(struct rect){ in.y + used, in.x, in.h - used, in.w });
}
